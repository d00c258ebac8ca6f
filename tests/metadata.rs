//! Page metadata in real Chromium, one fixture per source: JSON-LD, OpenGraph and `<meta>`,
//! microdata with `<time>`, and the rendered layout (a byline and a written date under the
//! headline). Each field must come from the source its fixture states, through the library's
//! front door ([`sightline::Extractor`]), the JSON record and the markdown front matter.

use std::path::Path;

use serde_json::Value;
use sightline::render::loopback::Server;
use sightline::{Extractor, Options};

fn field(m: &Value, name: &str) -> (Value, String) {
    let f = &m[name];
    assert!(f.is_object(), "metadata.{name} is missing: {m:#}");
    (
        f["value"].clone(),
        f["source"].as_str().unwrap().to_string(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_metadata_source_is_read_and_named() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let server = Server::start(Some(root)).await.expect("loopback server");
    let ex = Extractor::new(Options::default().offline(true).tabs(2).front_matter(true))
        .await
        .expect("Chromium must be installed: scripts/test installs it");
    let slugs = [
        "metadata-jsonld",
        "metadata-opengraph",
        "metadata-microdata",
        "metadata-layout",
    ];
    let urls: Vec<String> = slugs
        .iter()
        .map(|s| server.url(&format!("/{s}/page.html")))
        .collect();
    let mut pages = Vec::new();
    for u in &urls {
        pages.push(ex.extract(u.as_str()).await.expect("extracts"));
    }
    ex.shutdown().await;

    let m: Vec<Value> = pages.iter().map(|p| p.json()["metadata"].clone()).collect();

    // JSON-LD outranks OpenGraph; @graph lists are read; authors are a list.
    let ld = &m[0];
    assert_eq!(
        field(ld, "title"),
        (
            "Harbour city opens its first tidal power station".into(),
            "json-ld:headline".into()
        )
    );
    assert_eq!(
        field(ld, "authors").0,
        serde_json::json!(["Ada Lovelace", "Mary Somerville"])
    );
    assert_eq!(field(ld, "published").0, "2024-03-05T09:30:00+01:00");
    assert_eq!(field(ld, "modified").1, "json-ld:dateModified");
    assert_eq!(field(ld, "site_name").0, "The Daily Demo");
    assert_eq!(field(ld, "image").0, "https://demo.example/turbines.jpg");
    assert_eq!(
        field(ld, "tags").0,
        serde_json::json!(["tidal power", "energy"])
    );
    assert_eq!(field(ld, "categories").0, serde_json::json!(["Science"]));
    assert_eq!(field(ld, "language"), ("en-GB".into(), "html-lang".into()));

    // OpenGraph, <meta name=author> split into names, <link rel=canonical> after og:url.
    let og = &m[1];
    assert_eq!(field(og, "title").1, "opengraph:og:title");
    assert_eq!(field(og, "published").0, "2024-03-05T08:30:00+00:00");
    assert_eq!(field(og, "site_name").0, "The Daily Demo");
    assert_eq!(field(og, "language").0, "en-GB");
    assert_eq!(field(og, "canonical_url").0, "https://demo.example/tidal");
    assert_eq!(
        field(og, "authors"),
        (
            serde_json::json!(["Ada Lovelace", "Mary Somerville"]),
            "meta:author".into()
        )
    );
    assert_eq!(field(og, "description").1, "meta:description");

    // Microdata: itemprop author and datePublished on a <time>.
    let md = &m[2];
    assert_eq!(
        field(md, "authors"),
        (
            serde_json::json!(["Ada Lovelace"]),
            "microdata:author".into()
        )
    );
    assert_eq!(
        field(md, "published"),
        ("2024-03-05".into(), "microdata:datePublished".into())
    );
    assert_eq!(field(md, "title").1, "microdata:headline");
    assert_eq!(field(md, "language").0, "de");

    // Nothing stated: the byline and the date written under the headline.
    let lay = &m[3];
    assert_eq!(
        field(lay, "authors"),
        (serde_json::json!(["Ada Lovelace"]), "layout:byline".into())
    );
    assert_eq!(
        field(lay, "published"),
        ("2024-03-05".into(), "layout:date".into())
    );
    assert_eq!(field(lay, "title").1, "layout:headline");

    // The markdown front matter carries the same fields.
    let md0 = pages[0].markdown();
    assert!(
        md0.starts_with("---\ntitle: \"Harbour city opens its first tidal power station\"\n"),
        "{md0}"
    );
    assert!(
        md0.contains("authors: [\"Ada Lovelace\", \"Mary Somerville\"]\n"),
        "{md0}"
    );
    assert!(md0.contains("\n---\n\n"), "{md0}");
    assert!(pages[0].metadata().is_some());
}
