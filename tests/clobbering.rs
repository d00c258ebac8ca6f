//! Pages that shadow DOM properties with named elements (`<form name="title">`,
//! `<input name="id">`, `<img name="body">`) or replace the globals `Element`, `Document` and
//! `Node` (as old libraries did) must snapshot like any other page.

mod common;
use common::render_html;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn named_elements_do_not_break_the_snapshot() {
    let html = r#"<html><head><title>Real title</title></head><body>
      <form name="title" id="f"><input name="id"><input name="tagName"><input name="getAttribute"></form>
      <img name="body" src="x.png"><img name="querySelector" src="y.png">
      <img name="querySelectorAll" src="z.png"><img name="getElementById" src="w.png">
      <p>Clobbered page text, with a comma, survives.</p>
      <template id="B:0"></template><div hidden id="S:0"><p>A streamed segment, put in place.</p></div>
      <script>window.Element = {}; window.Document = 1; window.Node = null;</script></body></html>"#;
    let page = render_html("clobbered", html).await;
    let page = page.expect("the snapshot of a clobbering page parses");
    assert_eq!(page.snapshot.title, "Real title");
    let form = page
        .snapshot
        .nodes
        .iter()
        .find(|n| n.tag == "form")
        .unwrap();
    assert_eq!(form.id.as_deref(), Some("f"));
    assert!(page
        .snapshot
        .nodes
        .iter()
        .any(|n| n.text.as_deref().is_some_and(|t| t.contains("survives"))));
    // React streaming completion (js/snapshot.js) uses the DOM's own functions too.
    assert_eq!(page.snapshot.streamed_segments, 1);
    assert!(page.snapshot.nodes.iter().any(|n| n.rendered
        && n.text
            .as_deref()
            .is_some_and(|t| t.contains("put in place"))));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_that_removes_its_root_element_falls_back_to_its_html() {
    let html = r#"<html><head><title>Gone</title></head><body>
      <p>The article text that the page's own script throws away after load, with a comma.</p>
      <p>A second paragraph, so the HTML clearly holds more text than the render shows.</p>
      <script>addEventListener("load", () => document.removeChild(document.documentElement));</script>
      </body></html>"#;
    let page = render_html("rootless", html).await;
    let page = page.expect("a page without a root element is no script error");
    assert_eq!(page.javascript.as_deref(), Some("disabled-fallback"));
    assert!(page
        .snapshot
        .nodes
        .iter()
        .any(|n| n.text.as_deref().is_some_and(|t| t.contains("throws away"))));
}
