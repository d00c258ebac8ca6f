//! Long runs stay bounded (real Chromium): pages' pop-ups are blocked, page targets no tab
//! owns are closed by the sweeps, and the browser is relaunched at its page or memory bound
//! without losing a page.

use futures::future::join_all;
use sightline::render::{Input, RenderOptions, Renderer};

#[path = "common/eventually.rs"]
mod eventually;
use eventually::eventually;

fn page(name: &str, script: &str) -> Input {
    Input::Html {
        name: name.into(),
        bytes: format!(
            "<html><head><title>{name}</title></head><body><h1>{name}</h1>\
             <p>A paragraph of text, long enough to be content, for {name}.</p>\
             <script>{script}</script></body></html>"
        )
        .into_bytes(),
        charset: "utf-8".into(),
    }
}

fn opts() -> RenderOptions {
    RenderOptions::default().offline(true)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_cannot_open_popups() {
    let r = Renderer::new(opts()).await.unwrap();
    for k in 0..3 {
        let p = r
            .render(&page(
                &format!("opener-{k}"),
                "window.open('/popunder.html'); window.open('about:blank', '_blank');",
            ))
            .await
            .expect("a page that opens pop-ups renders");
        assert!(p.snapshot.title.starts_with("opener"));
    }
    let targets = r.page_targets().await.expect("the browser answers");
    r.shutdown().await;
    // The pooled tab and Chromium's first tab; the six pop-ups were blocked.
    assert!(targets <= 2, "{targets} page targets after 3 pages");
}

/// Page targets at most left after 50 pages that each leave a window: a sweep closes the
/// unowned targets the previous one saw too, so the sweep at page 50 closes the windows of
/// pages 1-25; those of pages 26-50, the pooled tab and Chromium's first tab stay (27).
const MOST_LEFT: usize = 28;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sweeps_close_targets_no_tab_owns() {
    // With the popup blocker off (as chromiumoxide's default flags had it), each page leaves
    // an about:blank window behind; the sweeps every 25 pages close them.
    let r = Renderer::new(opts().chrome_args(vec!["disable-popup-blocking".into()]))
        .await
        .unwrap();
    let mut opened = 0;
    for k in 0..50 {
        r.render(&page(
            &format!("p{k}"),
            "window.open('about:blank', '_blank');",
        ))
        .await
        .expect("renders");
        if k == 1 {
            opened = r.page_targets().await.unwrap();
        }
    }
    // Closing is asynchronous in Chromium: wait until the closed targets are gone (polling
    // Chromium's target list; the bound only turns targets that never go into a failure).
    let guard = std::time::Duration::from_secs(120);
    let gone = eventually(guard, || async {
        let left = r.page_targets().await.unwrap();
        (left <= MOST_LEFT).then_some(left)
    });
    let left = match gone.await {
        Some(left) => left,
        None => r.page_targets().await.unwrap(),
    };
    let reaped = r.reaped();
    r.shutdown().await;
    assert!(opened >= 3, "pop-ups were not opened ({opened} targets)");
    assert!(reaped >= 25, "only {reaped} unowned targets closed");
    assert!(
        left <= MOST_LEFT,
        "{left} page targets left after 50 pages ({reaped} closed)"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_browser_is_relaunched_at_its_page_bound_without_losing_a_page() {
    let r = Renderer::new(opts().concurrency(2).recycle_browser_after(3))
        .await
        .unwrap();
    let inputs: Vec<Input> = (0..8).map(|k| page(&format!("page {k}"), "")).collect();
    let out = join_all(inputs.iter().map(|i| r.render(i))).await;
    let (recycles, relaunches) = (r.recycles(), r.relaunches());
    r.shutdown().await;
    for (k, o) in out.iter().enumerate() {
        let o = o.as_ref().unwrap_or_else(|e| panic!("page {k} lost: {e}"));
        assert_eq!(o.snapshot.title, format!("page {k}"));
        assert_eq!(o.retries, 0, "page {k} needed a retry");
    }
    assert_eq!(recycles, 2, "relaunches after pages 3 and 6");
    assert_eq!(relaunches, 0, "no browser died");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_browser_is_relaunched_at_its_memory_bound() {
    let r = Renderer::new(opts().recycle_browser_after(0).max_browser_memory(Some(1)))
        .await
        .unwrap();
    for k in 0..12 {
        r.render(&page(&format!("m{k}"), ""))
            .await
            .unwrap_or_else(|e| panic!("page {k} lost: {e}"));
    }
    let recycles = r.recycles();
    r.shutdown().await;
    if std::path::Path::new("/proc/self/status").exists() {
        assert_eq!(recycles, 1, "checked every 10 pages");
    }
}
