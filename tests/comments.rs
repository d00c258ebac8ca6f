//! Reader comments as the user's choice, in real Chromium on a blog post with a comment
//! section (`fixtures/comments-blog`): by default the article is extracted and the comments are
//! not; with `comments` the comments' text follows the article, and each comment block is
//! marked `"comment": true` in the JSON record, inside the comment section.

use std::path::Path;

use sightline::render::loopback::Server;
use sightline::{Extractor, Options, Params};

const ARTICLE: [&str; 2] = [
    "Two summers ago the water bill for our community allotment doubled",
    "start with the roofs you already have",
];
const COMMENTS: [&str; 3] = [
    "the children now check the barrel levels every Monday",
    "the last one never seems to fill up after a heavy shower",
    "we joined them near the bottom with short hoses",
];

async fn extract(url: &str, comments: bool) -> sightline::Page {
    let mut params = Params::default();
    params.learned.comments = comments;
    let ex = Extractor::new(Options::default().offline(true).tabs(1).params(params))
        .await
        .expect("Chromium must be installed: scripts/test installs it");
    let page = ex.extract(url).await.expect("extracts");
    ex.shutdown().await;
    page
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn comments_are_dropped_by_default_and_kept_after_the_article_on_request() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let server = Server::start(Some(root)).await.expect("loopback server");
    let url = server.url("/comments-blog/page.html");

    let plain = extract(&url, false).await;
    let text = plain.text();
    for a in ARTICLE {
        assert!(
            text.contains(a),
            "the article is kept: {a:?} missing in\n{text}"
        );
    }
    for c in COMMENTS {
        assert!(
            !text.contains(c),
            "comments are dropped by default: {c:?} in\n{text}"
        );
    }
    let json = plain.json();
    let blocks = json["details"]["blocks"]
        .as_array()
        .expect("learned's blocks");
    assert!(
        blocks.iter().all(|b| b.get("comment").is_none()),
        "no block is a comment without --comments"
    );

    let with = extract(&url, true).await;
    let text = with.text();
    let end_of_article = text.find(ARTICLE[1]).expect("the article is still kept");
    for c in COMMENTS {
        let at = text
            .find(c)
            .unwrap_or_else(|| panic!("--comments keeps {c:?}:\n{text}"));
        assert!(at > end_of_article, "comments follow the article");
    }
    let json = with.json();
    let blocks = json["details"]["blocks"]
        .as_array()
        .expect("learned's blocks");
    let marked: Vec<&serde_json::Value> = blocks
        .iter()
        .filter(|b| b["comment"] == serde_json::Value::Bool(true))
        .collect();
    assert!(
        marked.len() >= 3,
        "each comment's block is marked: {marked:#?}"
    );
    for b in &marked {
        let path = b["path"].as_str().unwrap();
        // The comment section is the page's only <section> (paths name tags only).
        assert!(
            path.contains("main > section"),
            "a marked block lies in the comment section: {path}"
        );
        let p = b["probability"].as_f64().unwrap();
        assert!(
            (0.5..=1.0).contains(&p),
            "the comment model's probability: {p}"
        );
    }
}
