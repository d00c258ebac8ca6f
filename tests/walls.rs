//! Walls in real Chromium: fixture pages of each kind (`fixtures/walls/`), served on 127.0.0.1
//! with the status and headers their vendors send, are named in the record with the right
//! kind; a wall that leaves nothing is a `blocked` error carrying the wall, one that leaves a
//! lead a success with `wall`; a `Retry-After` within the bound is waited out; a consent
//! dialog is answered before the snapshot (and before the scroll, when the settle saw it); a page that only talks about walls is no wall;
//! `hide_overlays` hides a newsletter modal from the screenshot.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use sightline::render::steer::Consent;
use sightline::walls::WallKind;
use sightline::{Error, Extractor, Options, PageConfig, Steer};

mod common;
use common::http::Answer;

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/walls")
            .join(name),
    )
    .unwrap()
}

/// Requests of `/limited-once` so far: the first is answered 429, the others 200.
static LIMITED_ONCE: AtomicUsize = AtomicUsize::new(0);

/// Status, headers and body for a path.
fn route(path: &str) -> (u16, Vec<(&'static str, &'static str)>, Vec<u8>) {
    let html = ("Content-Type", "text/html; charset=utf-8");
    match path {
        "/challenge" => (
            403,
            vec![html, ("cf-mitigated", "challenge"), ("Server", "cloudflare")],
            fixture("challenge.html"),
        ),
        "/challenge-200" => (200, vec![html], fixture("challenge.html")),
        "/captcha" => (200, vec![html], fixture("captcha.html")),
        "/widget" => (200, vec![html], fixture("widget.html")),
        "/denied" => (403, vec![html, ("Server", "AkamaiGHost")], fixture("denied.html")),
        "/forbidden" => (
            403,
            vec![html, ("Server", "nginx")],
            b"<html><head><title>403 Forbidden</title></head><body><h1>403 Forbidden</h1><hr>nginx</body></html>".to_vec(),
        ),
        "/limited-long" => (429, vec![html, ("Retry-After", "120")], fixture("limited.html")),
        "/limited-once" => {
            if LIMITED_ONCE.fetch_add(1, Ordering::SeqCst) == 0 {
                (429, vec![html, ("Retry-After", "1")], fixture("limited.html"))
            } else {
                (200, vec![html], fixture("paywall.html"))
            }
        }
        "/login" => (200, vec![html], fixture("login.html")),
        "/paywall" => (200, vec![html], fixture("paywall.html")),
        "/talks" => (200, vec![html], fixture("talks.html")),
        "/consent" => (200, vec![html], fixture("consent.html")),
        "/consent-scroll" => (200, vec![html], fixture("consent-scroll.html")),
        "/consent-late" => (200, vec![html], fixture("consent-late.html")),
        "/overlay" => (200, vec![html], fixture("overlay.html")),
        "/soft-error" => (200, vec![html], fixture("soft-error.html")),
        "/soft-error-hidden" => (200, vec![html], fixture("soft-error-hidden.html")),
        _ => (404, vec![html], b"<p>no such page</p>".to_vec()),
    }
}

/// The test server on 127.0.0.1 ([`route`]'s answers); its base URL.
fn server() -> String {
    common::http::answering(|req| {
        let (status, headers, body) = route(&req.path);
        headers
            .into_iter()
            .fold(Answer::bare(status, body), |a, (k, v)| a.with(k, v))
    })
}

fn cfg(f: impl FnOnce(&mut Steer)) -> Arc<PageConfig> {
    let mut s = Steer::default();
    f(&mut s);
    Arc::new(PageConfig::default().steer(s))
}

fn blocked(r: Result<sightline::Page, Error>) -> sightline::walls::Wall {
    match r {
        Err(Error::Blocked { wall, .. }) => *wall,
        Err(e) => panic!("expected blocked, got {} error: {e}", e.kind()),
        Ok(p) => panic!("expected blocked, got a page: {:?}", p.text()),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn walls_are_named_with_their_kind() {
    let base = server();
    let ex = Extractor::new(Options::default().offline(true).tabs(1))
        .await
        .expect("Chromium must be installed: scripts/test installs it");
    let plain = cfg(|_| {});
    let url = |p: &str| format!("{base}{p}");

    // A challenge served 403 with Cloudflare's header, and the same page served 200.
    for p in ["/challenge", "/challenge-200"] {
        let w = blocked(ex.extract_with(url(p), plain.clone(), None).await);
        assert_eq!(w.kind, WallKind::Challenge, "{p}: {w:?}");
        assert_eq!(w.vendor.as_deref(), Some("cloudflare"), "{p}: {w:?}");
    }
    // A small centred box holding a frame, from no known vendor: the layout.
    let w = blocked(ex.extract_with(url("/captcha"), plain.clone(), None).await);
    assert_eq!(w.kind, WallKind::Captcha, "{w:?}");
    assert!(
        w.evidence.iter().any(|e| e.starts_with("a centred box")),
        "{w:?}"
    );
    // Akamai's block page.
    let w = blocked(ex.extract_with(url("/denied"), plain.clone(), None).await);
    assert_eq!(w.kind, WallKind::AccessDenied, "{w:?}");
    assert_eq!(w.vendor.as_deref(), Some("akamai"), "{w:?}");
    // A plain 403 stays an HTTP error.
    match ex
        .extract_with(url("/forbidden"), plain.clone(), None)
        .await
    {
        Err(Error::Http { status: 403, .. }) => {}
        other => panic!("expected http 403, got {:?}", other.map(|p| p.text())),
    }
    // A login form alone.
    let w = blocked(ex.extract_with(url("/login"), plain.clone(), None).await);
    assert_eq!(w.kind, WallKind::Login, "{w:?}");
    // A paywall after a lead: a success with the wall.
    let page = ex
        .extract_with(url("/paywall"), plain.clone(), None)
        .await
        .unwrap();
    assert_eq!(page.wall().map(|w| w.kind), Some(WallKind::Paywall));
    assert!(page.text().contains("northern channel"), "{}", page.text());
    // A page about walls, with a comment form's captcha and a cookie bar: no wall.
    let page = ex
        .extract_with(url("/talks"), plain.clone(), None)
        .await
        .unwrap();
    assert_eq!(page.wall(), None);
    assert_eq!(page.record().wall, None);
    // Walls accepted: the challenge's text is extracted, and the record says which wall.
    let accept = cfg(|s| s.accept_walls = true);
    let page = ex
        .extract_with(url("/challenge"), accept, None)
        .await
        .unwrap();
    assert_eq!(page.wall().map(|w| w.kind), Some(WallKind::Challenge));
    ex.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rate_limits_wait_for_retry_after_within_the_bound() {
    let base = server();
    let ex = Extractor::new(Options::default().offline(true).tabs(1))
        .await
        .expect("Chromium must be installed");
    // Retry-After: 1 is waited out; the second answer is the page.
    let page = ex
        .extract_with(format!("{base}/limited-once"), cfg(|_| {}), None)
        .await
        .unwrap();
    assert_eq!(page.record().status, Some(200));
    assert!(LIMITED_ONCE.load(Ordering::SeqCst) >= 2);
    // Retry-After: 120 is past the bound: blocked, rate-limited, the delay in the evidence.
    let w = blocked(
        ex.extract_with(format!("{base}/limited-long"), cfg(|_| {}), None)
            .await,
    );
    assert_eq!(w.kind, WallKind::RateLimited, "{w:?}");
    assert!(w.evidence.iter().any(|e| e == "retry-after: 120"), "{w:?}");
    // The error record carries the wall.
    let out = ex
        .record_with(format!("{base}/limited-long"), cfg(|_| {}), None)
        .await;
    assert_eq!(out.record.error.as_ref().unwrap().kind, "blocked");
    assert_eq!(
        out.record.wall.as_ref().unwrap().kind,
        WallKind::RateLimited
    );
    ex.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn consent_dialogs_are_answered_before_the_snapshot() {
    let base = server();
    let ex = Extractor::new(Options::default().offline(true).tabs(1))
        .await
        .expect("Chromium must be installed");
    let url = format!("{base}/consent");
    // The default rejects: the dialog is gone, the record says what was clicked.
    let page = ex.extract_with(&url, cfg(|_| {}), None).await.unwrap();
    let c = page.record().consent.clone().expect("a consent report");
    assert_eq!(c.action, "reject");
    assert!(c.answered, "{c:?}");
    assert_eq!(page.title(), "Market day (rejected)");
    assert_eq!(page.wall(), None);
    // Accept.
    let page = ex
        .extract_with(&url, cfg(|s| s.consent = Consent::Accept), None)
        .await
        .unwrap();
    assert_eq!(page.title(), "Market day (accepted)");
    // Keep: nothing is clicked, and the dialog over the article is named.
    let page = ex
        .extract_with(&url, cfg(|s| s.consent = Consent::Keep), None)
        .await
        .unwrap();
    assert_eq!(page.record().consent, None);
    assert_eq!(page.wall().map(|w| w.kind), Some(WallKind::Consent));
    ex.shutdown().await;
}

/// A modal dialog that locks scrolling until it is answered, over an article whose last
/// section loads on scroll: the dialog is answered right after the settle, before the scroll
/// phase, so the section is in the extraction, and the page is snapshotted once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn consent_dialogs_are_answered_before_the_scroll() {
    let base = server();
    let ex = Extractor::new(Options::default().offline(true).tabs(1))
        .await
        .expect("Chromium must be installed");
    let url = format!("{base}/consent-scroll");
    let page = ex.extract_with(&url, cfg(|_| {}), None).await.unwrap();
    let c = page.record().consent.clone().expect("a consent report");
    assert_eq!(c.action, "reject");
    assert!(c.answered, "{c:?}");
    // Answered after the settle, not after the snapshot (no second snapshot).
    assert!(!c.late, "{c:?}");
    assert_eq!(page.title(), "Harbour log (rejected)");
    assert!(
        page.text().contains("keeper of the lighthouse"),
        "the section loaded on scroll is missing: {}",
        page.text()
    );
    // Kept: the page stays locked, the section never loads, and nothing is answered.
    let kept = ex
        .extract_with(&url, cfg(|s| s.consent = Consent::Keep), None)
        .await;
    if let Ok(p) = &kept {
        assert_eq!(p.record().consent, None);
        assert!(!p.text().contains("keeper of the lighthouse"));
    }
    // A dialog that opens only once the reader reached the end: the settle cannot see it, so
    // it is answered after the snapshot and the page snapshotted again (`late`).
    let page = ex
        .extract_with(&format!("{base}/consent-late"), cfg(|_| {}), None)
        .await
        .unwrap();
    let c = page.record().consent.clone().expect("a consent report");
    assert!(c.answered && c.late, "{c:?}");
    assert_eq!(page.title(), "Harbour log (rejected)");
    assert!(page.text().contains("keeper of the lighthouse"));
    ex.shutdown().await;
}

/// A dialog in a frame from another origin (Sourcepoint's shape): answered inside the frame.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn consent_dialogs_in_a_frame_of_another_origin_are_answered() {
    let dialog = fixture("consent-frame-dialog.html");
    let frames = common::http::answering(move |req| {
        if req.path.starts_with("/index.html?message_id=") {
            Answer::html(200, dialog.clone())
        } else {
            Answer::html(404, "no")
        }
    });
    let page = String::from_utf8(fixture("consent-frame.html"))
        .unwrap()
        .replace("__FRAME__", &frames);
    let site = common::http::answering(move |_| Answer::html(200, page.clone()));
    // Online: the frame's origin is another server on this machine.
    let ex = Extractor::new(Options::default().tabs(1))
        .await
        .expect("Chromium must be installed");
    let url = format!("{site}/article");
    let page = ex.extract_with(&url, cfg(|_| {}), None).await.unwrap();
    let c = page.record().consent.clone().expect("a consent report");
    assert_eq!(c.cmp, "Sourcepoint-frame", "{c:?}");
    assert!(c.answered, "{c:?}");
    assert_eq!(page.title(), "Harbour news (rejected)");
    let page = ex
        .extract_with(&url, cfg(|s| s.consent = Consent::Accept), None)
        .await
        .unwrap();
    assert_eq!(page.title(), "Harbour news (accepted)");
    assert!(page.text().contains("northern channel"));
    // Kept: the dialog over the article is named as the consent wall it is.
    let kept = ex
        .extract_with(&url, cfg(|s| s.consent = Consent::Keep), None)
        .await;
    let kind = match &kept {
        Ok(p) => p.wall().map(|w| w.kind),
        Err(Error::Blocked { wall, .. }) => Some(wall.kind),
        Err(e) => panic!("{e}"),
    };
    assert_eq!(kind, Some(WallKind::Consent), "{kept:?}");
    ex.shutdown().await;
}

/// The top-left pixel of a page's screenshot.
fn corner(page: &sightline::Page) -> [u8; 3] {
    let png = page.screenshot().expect("a screenshot");
    let img = image::load_from_memory(png).unwrap().to_rgb8();
    img.get_pixel(5, 5).0
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn overlays_that_are_not_consent_are_hidden_from_the_screenshot_on_request() {
    let base = server();
    let ex = Extractor::new(Options::default().offline(true).tabs(1))
        .await
        .expect("Chromium must be installed");
    let url = format!("{base}/overlay");
    // A red newsletter modal covers the page.
    let page = ex
        .extract_with(&url, cfg(|_| {}), Some(true))
        .await
        .unwrap();
    assert_eq!(corner(&page), [255, 0, 0]);
    assert_eq!(page.wall(), None);
    let page = ex
        .extract_with(&url, cfg(|s| s.hide_overlays = true), Some(true))
        .await
        .unwrap();
    assert_eq!(corner(&page), [255, 255, 255]);
    ex.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn error_pages_that_scripts_make_are_rendered_without_javascript_or_recorded() {
    let base = server();
    let ex = Extractor::new(Options::default().offline(true).tabs(1))
        .await
        .expect("Chromium must be installed");
    // The script replaces the article with an error message: the render without JavaScript
    // shows the article, and is kept.
    let page = ex
        .extract_with(format!("{base}/soft-error"), cfg(|_| {}), None)
        .await
        .unwrap();
    assert_eq!(
        page.record().javascript.as_deref(),
        Some("disabled-fallback")
    );
    assert!(
        page.text().contains("城市位于河流的北岸"),
        "{}",
        page.text()
    );
    assert_eq!(page.record().soft_error, None);
    // Without JavaScript the article stays hidden too: the render is kept, and the record
    // says it shows an error message.
    let page = ex
        .extract_with(format!("{base}/soft-error-hidden"), cfg(|_| {}), None)
        .await
        .unwrap();
    assert_eq!(page.record().javascript, None);
    let soft = page.record().soft_error.clone().expect("a soft error");
    assert!(soft.contains("页面不存在"), "{soft}");
    ex.shutdown().await;
}
