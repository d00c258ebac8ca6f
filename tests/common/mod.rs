//! Helpers shared by the integration tests: the benchmark in `../shared/bench`, and HTML
//! rendered in a fresh offline browser. (Each test crate uses some of them.)
#![allow(dead_code)]

use std::path::PathBuf;

use sightline::render::{Input, RenderOptions, Rendered, Renderer};

/// Render HTML bytes offline in a fresh browser, which is shut down after the page.
pub async fn render_html(name: &str, html: &str) -> Result<Rendered, sightline::Error> {
    let r = Renderer::new(RenderOptions {
        offline: true,
        ..RenderOptions::default()
    })
    .await
    .unwrap();
    let page = r
        .render(&Input::Html {
            name: name.into(),
            bytes: html.as_bytes().to_vec(),
            charset: "utf-8".into(),
        })
        .await;
    r.shutdown().await;
    page
}

/// The benchmark root (`$SIGHTLINE_BENCH`, else `../shared/bench`), or None when it is absent:
/// the test is then skipped with one line on stderr naming `SIGHTLINE_BENCH`, so that the
/// suite passes on a fresh clone with nothing beside it. With `SIGHTLINE_REQUIRE_BENCH=1`
/// (set by `.ci/run`) a missing benchmark fails the test instead: CI never skips silently.
pub fn bench_root() -> Option<PathBuf> {
    let root = std::env::var_os("SIGHTLINE_BENCH")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/bench"));
    if root.join("PEERS.md").is_file() {
        return Some(root);
    }
    if std::env::var("SIGHTLINE_REQUIRE_BENCH").as_deref() == Ok("1") {
        panic!(
            "benchmark data not found at {} and SIGHTLINE_REQUIRE_BENCH=1: put shared/bench \
             beside the project or set SIGHTLINE_BENCH=DIR",
            root.display()
        );
    }
    eprintln!(
        "skipped: no benchmark at {} (set SIGHTLINE_BENCH=DIR to run this test)",
        root.display()
    );
    None
}
