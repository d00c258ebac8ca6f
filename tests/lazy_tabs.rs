//! Content that loads on scroll must load in every tab of a pool, not only in the one its
//! window shows. Pooled tabs share one window, and a tab behind the front one renders no
//! frames, so its IntersectionObserver callbacks never ran and each scroll step waited out
//! its frame wait. Scrolling tabs now take the window's front in turn.

use std::time::Duration;

use sightline::render::{Input, RenderOptions, Renderer, ScrollOptions};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_tab_of_a_pool_loads_content_on_scroll() {
    let html = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/js-lazy-section/page.html"
    ))
    .expect("fixture");
    // A generous scroll budget: on a loaded machine the default 2.5 s could run out, and the
    // test is about frames being rendered, not about speed.
    let scroll = ScrollOptions {
        budget: Duration::from_secs(20),
        ..ScrollOptions::default()
    };
    let r = Renderer::new(
        RenderOptions::default()
            .offline(true)
            .concurrency(4)
            .timeout(Duration::from_secs(30))
            .scroll(scroll),
    )
    .await
    .expect("browser starts");
    let inputs: Vec<Input> = (0..4)
        .map(|i| Input::Html {
            name: format!("lazy-{i}"),
            bytes: html.clone(),
            charset: "utf-8".into(),
        })
        .collect();
    let pages = futures::future::join_all(inputs.iter().map(|i| r.render(i))).await;
    r.shutdown().await;
    for (i, page) in pages.into_iter().enumerate() {
        let page = page.unwrap_or_else(|e| panic!("lazy-{i}: {e}"));
        let text: String = page
            .snapshot
            .nodes
            .iter()
            .filter_map(|n| n.text.as_deref())
            .collect();
        assert!(
            text.contains("Farmers upstream now let the meadows flood"),
            "lazy-{i}: the section inserted on scroll is missing (scroll: {:?})",
            page.scroll
        );
        assert_eq!(
            page.scroll.frameless_steps, 0,
            "lazy-{i}: steps rendered no frame (a tab behind the window's front): {:?}",
            page.scroll
        );
        assert_ne!(
            page.scroll.stopped, "time-budget",
            "lazy-{i}: scrolling ran out of time: {:?}",
            page.scroll
        );
    }
}
