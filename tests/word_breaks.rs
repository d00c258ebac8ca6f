//! Words the browser shows apart stay apart in the writers' text, and code keeps its lines:
//! a line break (`<br>`) between two kept texts, and a blank that sits in an element of its
//! own (`program.<span>&nbsp; </span>My`, as word processors save HTML), were written as one
//! word ("program.My", "Glaze.Dishwasher") by `learned`, which lost them in the eval's
//! word-level LCS; a code block (`<pre>`, highlighted token by token) was written on one line
//! in text and in markdown's fenced block.

mod common;
use common::render_html;
use sightline::extract::{extract, Algorithm, Params};
use sightline::output::text;
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
    let page = render_html("word-breaks", PAGE)
        .await
        .expect("the page renders");
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

const CODE_PAGE: &str = r#"<html><head><title>Code</title></head><body>
<article>
<h1>Calling the service</h1>
<p>Every call goes through one client, made once and shared by the whole program, as the example below shows, with its error handling.</p>
<pre><code><span class="kw">let</span> <span class="v">client</span> = Client::new();
<span class="kw">let</span> body = client.get(url)?;
<span class="kw">if</span> body.is_empty() {
    <span class="f">retry</span>(url);
}</code></pre>
<p>The client keeps its connections open between calls, so a second call to the same host does not pay for a new connection, which matters most on slow networks.</p>
</article>
</body></html>"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn code_keeps_its_lines_in_text_and_markdown() {
    let page = render_html("code-lines", CODE_PAGE)
        .await
        .expect("the page renders");
    let tree = Tree::new(&page.snapshot);
    let ex = extract(&page.snapshot, Algorithm::Learned, &Params::default());
    let md = sightline::output::markdown::render(&tree, &ex);
    assert!(
        md.contains(
            "```\nlet client = Client::new();\nlet body = client.get(url)?;\nif body.is_empty() {\n    retry(url);\n}\n```"
        ),
        "markdown lost the code's lines:\n{md}"
    );
    let txt = text::render(&tree, &ex);
    for line in [
        "let client = Client::new();",
        "let body = client.get(url)?;",
        "retry(url);",
    ] {
        assert!(
            txt.lines().any(|l| l == line),
            "text lost the line {line:?}:\n{txt}"
        );
    }
    // Scores read the collapsed text: the code's text node holds no line break there.
    assert!(page
        .snapshot
        .nodes
        .iter()
        .filter_map(|n| n.text.as_deref())
        .all(|t| !t.contains('\n')));
}

const TAGS_PAGE: &str = r#"<html><head><title>Tags</title><style>.t{display:inline-block;margin-right:8px}</style></head><body><article><h1>A recipe for bread</h1>
<p>Mix the flour, water, salt and yeast, knead for ten minutes and leave the dough to rise for two hours in a warm place before baking it.</p>
<div><span class="t">Baking</span><span class="t">Bread</span><span class="t">Easy</span></div>
<p>Bake at 220 degrees for forty minutes, until the loaf sounds hollow when you tap its base, and let it cool on a rack before slicing.</p>
</article></body></html>"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn inline_blocks_set_apart_by_a_margin_are_separate_words() {
    let page = render_html("tags", TAGS_PAGE)
        .await
        .expect("the page renders");
    let tree = Tree::new(&page.snapshot);
    let ex = extract(&page.snapshot, Algorithm::Htd, &Params::default());
    let txt = text::render(&tree, &ex);
    assert!(txt.contains("Baking Bread Easy"), "text:\n{txt}");
    let md = sightline::output::markdown::render(&tree, &ex);
    assert!(md.contains("Baking Bread Easy"), "markdown:\n{md}");
}
