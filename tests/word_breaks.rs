//! Words that the browser shows apart stay apart in every writer's text: a line break
//! (`<br>`) between two kept texts, and a blank that sits in an element of its own
//! (`program.<span>&nbsp; </span>My`, as word processors save HTML). Both were written as one
//! word ("program.My", "Glaze.Dishwasher") by `learned`, which lost them in the eval's
//! word-level LCS.

use sightline::extract::{extract, Algorithm, Params};
use sightline::output::text;
use sightline::render::{Input, RenderOptions, Renderer};
use sightline::Tree;

const PAGE: &str = r#"<html><head><title>Woolly monkeys</title></head><body>
<article>
<h1>Observing woolly monkeys</h1>
<p>Two troops of captive woolly monkeys were observed with the aid of a video camera and a proprietary Palm Pilot program.<span style="mso-spacerun: yes">&nbsp; </span>My research up to the present will be continued, with modifications in equipment and methods.<span>&nbsp;</span>The two troops differ since Troop I consists of a family group with four members, and Troop II of six unrelated adults.</p>
<p>Ceramic mug with a convenient handle, great for coffee or any hot or cold drink, in a folk art glaze.<br>Dishwasher and food-safe, though washing by hand is recommended for the glaze to last.<br><br>It was created in a wabi-sabi aesthetic by a ceramic artist who fires every piece in a small kiln.</p>
<p>The third paragraph gives the article more body, so that any extractor keeps it whole, with commas, and full stops.</p>
</article>
<footer><a href="/about">About</a> <a href="/contact">Contact</a></footer>
</body></html>"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn words_apart_on_screen_stay_apart_in_the_text() {
    let r = Renderer::new(RenderOptions {
        offline: true,
        ..RenderOptions::default()
    })
    .await
    .unwrap();
    let page = r
        .render(&Input::Html {
            name: "word-breaks".into(),
            bytes: PAGE.as_bytes().to_vec(),
            charset: "utf-8".into(),
        })
        .await;
    r.shutdown().await;
    let page = page.expect("the page renders");
    let tree = Tree::new(&page.snapshot);
    for alg in [Algorithm::Learned, Algorithm::Htd] {
        let out = text::render(&tree, &extract(&page.snapshot, alg, &Params::default()));
        for glued in ["program.My", "methods.The", "glaze.Dishwasher", "last.It"] {
            assert!(!out.contains(glued), "{alg:?} glued {glued:?}:\n{out}");
        }
        for apart in ["program. My", "methods. The"] {
            assert!(out.contains(apart), "{alg:?} lost {apart:?}:\n{out}");
        }
        assert!(
            out.contains("folk art glaze.\nDishwasher"),
            "{alg:?} lost the line break:\n{out}"
        );
    }
}
