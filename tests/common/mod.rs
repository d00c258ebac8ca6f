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

/// The benchmark root (`$SIGHTLINE_BENCH`, else `../shared/bench`), or None when it is absent
/// and `SIGHTLINE_SKIP_BENCH=1`; otherwise a missing benchmark fails the test with the fix.
pub fn bench_root() -> Option<PathBuf> {
    let root = std::env::var_os("SIGHTLINE_BENCH")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/bench"));
    if root.join("PEERS.md").is_file() {
        return Some(root);
    }
    if std::env::var("SIGHTLINE_SKIP_BENCH").as_deref() == Ok("1") {
        eprintln!(
            "skipping: no benchmark at {} (SIGHTLINE_SKIP_BENCH=1)",
            root.display()
        );
        return None;
    }
    panic!(
        "benchmark data not found at {}: put shared/bench beside the project, set SIGHTLINE_BENCH=DIR, \
         or set SIGHTLINE_SKIP_BENCH=1 to skip this test",
        root.display()
    );
}
