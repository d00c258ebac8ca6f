//! React streaming server rendering in real Chromium: content segments that arrived as
//! `<div hidden id="S:n">` are put where React's inline completion script would put them when
//! that script never ran (a copy saved without its scripts), and left alone when it did.

use sightline::render::{Input, RenderOptions, Renderer};

mod common;

fn text_of(r: &sightline::render::Rendered) -> String {
    common::shown_text(&r.snapshot)
}

fn page(name: &str, html: String) -> Input {
    Input::Html {
        name: name.into(),
        bytes: html.into_bytes(),
        charset: "utf-8".into(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn segments_whose_script_never_ran_are_completed_once() {
    let saved = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/react-streaming/page.html"
    ))
    .unwrap();
    // The same page as served live: each segment followed by React's inline completion
    // (completeBoundary / completeSegment, reduced to what these segments need).
    let live = saved
        .replace(
            r#"</main></div>
<div hidden id="S:1">"#,
            r#"</main></div>
<script>
$RC = function (b, c) {
  c = document.getElementById(c); c.parentNode.removeChild(c);
  var a = document.getElementById(b), s = a.previousSibling, f = a.parentNode, d = a, e = 0;
  if (s && s.nodeType === 8 && s.data === "$?") {
    do { if (d.nodeType === 8) { if (d.data === "/$") { if (e === 0) break; e--; } else if (d.data[0] === "$") e++; }
         var n = d.nextSibling; f.removeChild(d); d = n; } while (d);
    s.data = "$";
  } else { d = a.nextSibling; f.removeChild(a); }
  while (c.firstChild) f.insertBefore(c.firstChild, d);
};
$RS = function (a, b) {
  a = document.getElementById(a); b = document.getElementById(b); a.parentNode.removeChild(a);
  while (a.firstChild) b.parentNode.insertBefore(a.firstChild, b); b.parentNode.removeChild(b);
};
$RC("B:0", "S:0");
</script>
<div hidden id="S:1">"#,
        )
        .replace(
            r#"</aside></div>"#,
            r#"</aside></div><script>$RC("B:1", "S:1")</script>"#,
        )
        .replace(
            r#"mussel beds for a whole summer.</p></div>"#,
            r#"mussel beds for a whole summer.</p></div><script>$RS("S:2", "P:2")</script>"#,
        );
    assert_ne!(live, saved);
    let r = Renderer::new(RenderOptions::default().offline(true))
        .await
        .expect("browser starts");
    let mut no_js = RenderOptions::default().offline(true);
    no_js.javascript = false;
    let saved_page = r
        .render(&page("saved", saved.clone()))
        .await
        .expect("renders");
    let live_page = r.render(&page("live", live)).await.expect("renders");
    r.shutdown().await;
    let r2 = Renderer::new(no_js).await.expect("browser starts");
    let no_js_page = r2.render(&page("no-js", saved)).await.expect("renders");
    r2.shutdown().await;

    for (name, p, completed) in [
        ("saved", &saved_page, 3),
        ("live", &live_page, 0),
        ("saved, JavaScript off", &no_js_page, 3),
    ] {
        let text = text_of(p);
        assert_eq!(p.snapshot.streamed_segments, completed, "{name}");
        for want in [
            "The port authority voted on Tuesday",
            "Fishermen at the evening meeting",
            "High water 06:12",
        ] {
            assert!(text.contains(want), "{name}: lacks {want:?}: {text}");
        }
        assert!(!text.contains("Loading article"), "{name}: {text}");
        // The late paragraph sits where its placeholder was, inside the article.
        let late = text.find("Fishermen at the evening meeting").unwrap();
        assert!(
            text.find("Silt carried down the river").unwrap() < late,
            "{name}"
        );
        assert!(
            late < text.find("The work is to start in March").unwrap(),
            "{name}"
        );
        // Each segment once.
        assert_eq!(
            text.matches("The port authority voted").count(),
            1,
            "{name}"
        );
    }
}
