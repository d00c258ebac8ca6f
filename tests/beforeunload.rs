//! The `beforeunload` dialog in real Chromium. Chromium shows it only for a page the user
//! interacted with (sticky user activation), and only when the tab navigates away, so the
//! batch test in `faults.rs` (a fresh page, no user) never sees one. Here one tab renders the
//! `dialog-beforeunload` fixture, the page is given a user gesture through CDP, and the same
//! tab then renders the next page: leaving the page (the tab goes straight to the next page)
//! must not wait for a dialog until the page deadline.

use std::path::{Path, PathBuf};
use std::time::Duration;

use chromiumoxide::cdp::browser_protocol::target::CreateTargetParams;
use chromiumoxide::cdp::js_protocol::runtime::EvaluateParams;
use sightline::render::loopback::Server;
use sightline::render::{BrowserHandle, RenderOptions, Tab};

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_beforeunload_dialog_is_answered_when_the_tab_moves_on() {
    let server = Server::start(Some(fixtures_dir()))
        .await
        .expect("loopback server");
    let opts = RenderOptions::default()
        .offline(true)
        .timeout(Duration::from_secs(20));
    let browser = BrowserHandle::start(
        &opts.browser,
        opts.viewport,
        Duration::from_secs(30),
        &opts.chrome_args,
    )
    .await
    .expect("Chromium must be installed: scripts/test installs it");
    // The timeouts here are hang guards, not speed bounds.
    let page = tokio::time::timeout(
        Duration::from_secs(60),
        browser
            .browser
            .new_page(CreateTargetParams::new("about:blank")),
    )
    .await
    .expect("a tab opens")
    .expect("a tab opens");
    let mut tab = Tab::new(page, &opts).await.expect("tab set up");

    let first = tab
        .render(
            "dialog-beforeunload",
            &server.url("/dialog-beforeunload/page.html"),
            &opts,
        )
        .await
        .expect("the beforeunload page renders");
    assert_eq!(first.dialogs, 0, "no dialog while the page loads");

    // A user gesture: from now on, leaving the page raises its beforeunload dialog.
    let gesture = EvaluateParams::builder()
        .expression("document.body.click(); 1")
        .user_gesture(true)
        .build()
        .expect("valid params");
    tokio::time::timeout(Duration::from_secs(60), tab.page.execute(gesture))
        .await
        .expect("the gesture is delivered")
        .expect("the gesture is delivered");

    let next = tab
        .render(
            "dialog-alert",
            &server.url("/dialog-alert/page.html"),
            &opts,
        )
        .await
        .unwrap_or_else(|e| panic!("leaving the beforeunload page must not hang: {e}"));
    // The tab goes straight to the next page: the beforeunload page's dialog is answered as
    // the tab leaves it and is not counted for the next page, whose record counts only its
    // own alert.
    assert_eq!(
        next.dialogs, 1,
        "only the next page's own alert counts for it"
    );
    // The dialog is answered, not left to the deadline: the next page loaded (its `load`
    // came, it was not captured as it stood at the deadline) and its navigation phase, as
    // the page's own timings measure it, ended in the first half of the page's deadline.
    assert!(!next.load_timed_out, "the next page's load never came");
    let navigate = next.timings.navigate.unwrap_or(f64::MAX);
    assert!(
        navigate < opts.timeout.as_secs_f64() * 1000.0 / 2.0,
        "navigation waited for the deadline: {navigate} ms"
    );
    let text: String = next
        .snapshot
        .nodes
        .iter()
        .filter_map(|n| n.text.as_deref())
        .collect();
    assert!(text.contains("lighthouse keeper kept a log"), "{text}");
    drop(tab);
    browser.kill().await;
}
