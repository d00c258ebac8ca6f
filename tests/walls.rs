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

/// A page of `fixtures/walls/families/`, as its vendor serves it: `NAME.html`, with the
/// status and headers of `NAME.headers` when there is one (its first line the status, then
/// one `name: value` a line; `set-cookie` may repeat), else 200.
fn family(name: &str) -> Option<Answer> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/walls/families");
    let body = std::fs::read(dir.join(format!("{name}.html"))).ok()?;
    let head = std::fs::read_to_string(dir.join(format!("{name}.headers"))).unwrap_or_default();
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.trim().parse().ok())
        .unwrap_or(200);
    Some(
        lines
            .filter_map(|l| l.split_once(':'))
            .fold(Answer::html(status, body), |a, (k, v)| {
                a.with(k.trim(), v.trim())
            }),
    )
}

/// The test server on 127.0.0.1 ([`route`]'s answers, and [`family`]'s under `/f/`); its
/// base URL.
fn server() -> String {
    common::http::answering(|req| {
        if let Some(a) = req.path.strip_prefix("/f/").and_then(family) {
            return a;
        }
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

/// What a family fixture must give.
enum Expect {
    /// A `blocked` error with this wall: kind, vendor, a piece of one evidence string.
    Blocked(WallKind, Option<&'static str>, &'static str),
    /// A success with this wall, whose text holds the first and not the second.
    Lead(WallKind, &'static str, &'static str, &'static str),
    /// A success with no wall, whose text holds this.
    Clean(&'static str),
    /// An `http` error with this status, no wall.
    Http(u16),
}

/// Every family of `fixtures/walls/families/` and what it must give: the vendors' wall pages
/// (served with their statuses and headers), waiting rooms, consent, login and sign-up walls,
/// paywalls that keep their lead, and ordinary pages with wall words.
const FAMILIES: &[(&str, Expect)] = {
    use Expect::*;
    use WallKind::*;
    &[
        (
            "radware",
            Blocked(Captcha, Some("radware"), "please solve this captcha"),
        ),
        (
            "datadome",
            Blocked(Captcha, Some("datadome"), "captcha-delivery.com"),
        ),
        ("kasada", Blocked(Challenge, Some("kasada"), "/ips.js")),
        (
            "akamai-bot-manager",
            Blocked(Challenge, Some("akamai"), "cp_challenge"),
        ),
        (
            "perimeterx",
            Blocked(Captcha, Some("perimeterx"), "px-captcha"),
        ),
        (
            "imperva-block",
            Blocked(AccessDenied, Some("imperva"), "cwudnsai"),
        ),
        (
            "imperva-interstitial",
            Blocked(Challenge, Some("imperva"), "pardon our interruption"),
        ),
        (
            "f5-asm",
            Blocked(AccessDenied, Some("f5"), "your support id is"),
        ),
        (
            "aws-waf-captcha",
            Blocked(Captcha, Some("aws-waf"), "x-amzn-waf-action"),
        ),
        (
            "aws-waf-empty",
            Blocked(Challenge, Some("aws-waf"), "an empty render"),
        ),
        (
            "cloudfront-403",
            Blocked(AccessDenied, Some("cloudfront"), "status 403"),
        ),
        (
            "sucuri",
            Blocked(AccessDenied, Some("sucuri"), "x-sucuri-block"),
        ),
        (
            "sucuri-js",
            Blocked(Challenge, Some("sucuri"), "sucuri_cloudproxy_js"),
        ),
        (
            "cloudflare-turnstile",
            Blocked(Captcha, Some("cloudflare"), "captcha widget"),
        ),
        (
            "cloudflare-blocked",
            Blocked(
                AccessDenied,
                Some("cloudflare"),
                "sorry, you have been blocked",
            ),
        ),
        ("hcaptcha", Blocked(Captcha, Some("hcaptcha"), "h-captcha")),
        (
            "recaptcha",
            Blocked(Captcha, Some("recaptcha"), "g-recaptcha"),
        ),
        ("anubis", Blocked(Challenge, Some("anubis"), "status 401")),
        (
            "queue-it",
            Blocked(RateLimited, Some("queue-it"), "you are now in line"),
        ),
        (
            "cloudflare-waiting-room",
            Blocked(RateLimited, Some("cloudflare"), "__cfwaitingroom"),
        ),
        (
            "akamai-waiting-room",
            Blocked(RateLimited, Some("akamai"), "waiting room"),
        ),
        (
            "consent-google",
            Blocked(Consent, Some("google"), "before you continue"),
        ),
        ("login-social", Blocked(Login, None, "password field")),
        (
            "consent-portal",
            Lead(
                Consent,
                "before you continue",
                "northern channel",
                "Reject all",
            ),
        ),
        (
            "signup-qa",
            Lead(
                Login,
                "sign up to continue",
                "northern channel",
                "Continue with Google",
            ),
        ),
        (
            "paywall-schema",
            Lead(
                Paywall,
                "hasPart .paywall",
                "northern channel",
                "Subscribe to keep reading",
            ),
        ),
        (
            "paywall-piano",
            Lead(
                Paywall,
                "tinypass.com",
                "northern channel",
                "This article is for subscribers",
            ),
        ),
        (
            "paywall-poool",
            Lead(
                Paywall,
                "poool",
                "northern channel",
                "reserved for subscribers",
            ),
        ),
        (
            "paywall-zephr",
            Lead(
                Paywall,
                "zephr",
                "northern channel",
                "Register to continue reading",
            ),
        ),
        (
            "paywall-lead-box",
            Lead(
                Paywall,
                "a lead of",
                "northern channel",
                "Already a subscriber",
            ),
        ),
        ("article-captchas", Clean("bot manager is at work")),
        ("cookie-banner", Clean("northern channel")),
        ("login-header", Clean("northern channel")),
        ("site-404", Http(404)),
        ("site-403", Http(403)),
    ]
};

/// Every family fixture in real Chromium: the wall named with the right kind, vendor and
/// evidence; a paywall, sign-up or consent dialog over a lead a success whose text is the
/// lead without the wall's box; ordinary pages with wall words no wall. Prints the count
/// `docs/walls.md` quotes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_family_is_named_and_ordinary_pages_are_not() {
    let base = server();
    let ex = Extractor::new(Options::default().offline(true).tabs(1))
        .await
        .expect("Chromium must be installed");
    let plain = cfg(|_| {});
    let mut failures = Vec::new();
    let (mut walls, mut right) = (0, 0);
    for (name, expect) in FAMILIES {
        let r = ex
            .extract_with(format!("{base}/f/{name}"), plain.clone(), None)
            .await;
        let got = match &r {
            Ok(p) => format!("success, wall {:?}", p.wall()),
            Err(Error::Blocked { wall, .. }) => format!("blocked {wall:?}"),
            Err(e) => format!("{} error: {e}", e.kind()),
        };
        let ok = match (expect, &r) {
            (Expect::Blocked(kind, vendor, ev), Err(Error::Blocked { wall, .. })) => {
                walls += 1;
                let ok = wall.kind == *kind
                    && wall.vendor.as_deref() == *vendor
                    && wall
                        .evidence
                        .iter()
                        .any(|e| e.to_lowercase().contains(&ev.to_lowercase()));
                right += usize::from(wall.kind == *kind);
                ok
            }
            (Expect::Lead(kind, ev, has, hasnt), Ok(p)) => {
                walls += 1;
                let w = p.wall();
                right += usize::from(w.is_some_and(|w| w.kind == *kind));
                w.is_some_and(|w| {
                    w.kind == *kind
                        && w.evidence
                            .iter()
                            .any(|e| e.to_lowercase().contains(&ev.to_lowercase()))
                }) && p.text().to_lowercase().contains(&has.to_lowercase())
                    && !p.text().contains(hasnt)
            }
            (Expect::Blocked(..) | Expect::Lead(..), _) => {
                walls += 1;
                false
            }
            (Expect::Clean(has), Ok(p)) => {
                p.wall().is_none() && p.record().wall.is_none() && p.text().contains(has)
            }
            (Expect::Http(s), Err(Error::Http { status, .. })) => i64::from(*s) == *status,
            _ => false,
        };
        if !ok {
            let text = r
                .as_ref()
                .map(|p| p.text().chars().take(300).collect::<String>());
            failures.push(format!("{name}: got {got}; text {text:?}"));
        }
    }
    eprintln!(
        "wall families: {right} of {walls} walls named with the right kind; {} of {} fixtures as expected",
        FAMILIES.len() - failures.len(),
        FAMILIES.len()
    );
    ex.shutdown().await;
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
