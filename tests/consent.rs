//! The consent step's wait in real Chromium (`fixtures/walls/`, served on 127.0.0.1): a
//! dialog that is there is answered (`ended: answered`); a platform that loads without showing
//! one ends the wait as soon as its API says so (`no-dialog`); a platform whose script fails
//! to load ends it once the page stayed quiet (`quiet`); and a dialog that opens after a step
//! that found none (on the scroll) is still answered, after the snapshot (`late`). Each asserts
//! the record's `consent.ended`, never a clock.

use std::sync::Arc;

use sightline::render::steer::Consent;
use sightline::render::{ConsentEnd, ConsentReport};
use sightline::{Extractor, Options, PageConfig, Steer};

mod common;
use common::http::Answer;

fn fixture(name: &str) -> String {
    std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/walls")
            .join(name),
    )
    .unwrap()
}

/// The test server on 127.0.0.1; its base URL.
fn server() -> String {
    let none = fixture("consent-none.html");
    let cmp = fixture("consent-none-cmp.js");
    // consent-late.html with a platform's stub in its head from the start: the settle sees
    // the platform, its dialog opens only at the article's end (its box fixed only then: a
    // fixed box counts as shown to autoconsent even in a hidden container).
    let late = fixture("consent-late.html")
        .replace(
            "<title>Harbour log</title>",
            "<title>Harbour log</title><script>window.__tcfapi = function () {};</script>",
        )
        .replace(
            "#onetrust-banner-sdk { position: fixed;",
            "#onetrust-consent-sdk:not([hidden]) #onetrust-banner-sdk { position: fixed;",
        );
    let consent = fixture("consent.html");
    common::http::answering(move |req| match req.path.as_str() {
        "/none" => Answer::html(200, none.replace("__CMP__", "/cmp.js")),
        "/none-unloaded" => Answer::html(200, none.replace("__CMP__", "/missing.js")),
        "/cmp.js" => Answer::bare(200, cmp.clone()).with("Content-Type", "text/javascript"),
        "/late-after-stub" => Answer::html(200, late.clone()),
        "/consent" => Answer::html(200, consent.clone()),
        _ => Answer::html(404, "<p>no such page</p>"),
    })
}

fn cfg(consent: Consent) -> Arc<PageConfig> {
    let mut s = Steer::default();
    s.consent = consent;
    Arc::new(PageConfig::default().steer(s))
}

fn report(page: &sightline::Page) -> ConsentReport {
    page.record()
        .consent
        .clone()
        .expect("a consent report: the settle saw the platform")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_consent_step_ends_when_the_platform_shows_no_dialog() {
    let base = server();
    let ex = Extractor::new(Options::default().offline(true).tabs(1))
        .await
        .expect("Chromium must be installed: scripts/test installs it");
    let reject = cfg(Consent::Reject);

    // The platform loaded and its API says its dialog is hidden: the wait ends on that.
    let url = format!("{base}/none");
    let page = ex.extract_with(&url, reject.clone(), None).await.unwrap();
    let c = report(&page);
    assert_eq!(c.ended, Some(ConsentEnd::NoDialog), "{c:?}");
    assert!(!c.popup && !c.answered && !c.late, "{c:?}");
    assert!(page.text().contains("survey boat"), "{}", page.text());
    // The same text as the page read with its dialogs kept, which runs no consent step.
    let kept = ex
        .extract_with(&url, cfg(Consent::Keep), None)
        .await
        .unwrap();
    assert_eq!(kept.record().consent, None);
    assert_eq!(kept.text(), page.text());

    // The platform's script failed to load (a 404): its stub never reports, and the wait
    // ends once the page stayed quiet with no dialog.
    let page = ex
        .extract_with(format!("{base}/none-unloaded"), reject.clone(), None)
        .await
        .unwrap();
    let c = report(&page);
    assert_eq!(c.ended, Some(ConsentEnd::Quiet), "{c:?}");
    assert!(!c.popup && !c.answered, "{c:?}");

    // A dialog that is there is answered, not cut short.
    let page = ex
        .extract_with(format!("{base}/consent"), reject.clone(), None)
        .await
        .unwrap();
    let c = report(&page);
    assert_eq!(c.ended, Some(ConsentEnd::Answered), "{c:?}");
    assert!(c.popup && c.answered && !c.late, "{c:?}");
    assert_eq!(page.title(), "Market day (rejected)");
    ex.shutdown().await;
}

/// The settle sees the platform's stub, the step finds no dialog and ends; the dialog opens
/// when the scroll reaches the article's end, and is answered after the snapshot (`late`),
/// by a run of its own (the first run stopped: it did not answer it unseen).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dialog_that_opens_after_the_step_found_none_is_answered_late() {
    let base = server();
    let ex = Extractor::new(Options::default().offline(true).tabs(1))
        .await
        .expect("Chromium must be installed");
    let page = ex
        .extract_with(
            format!("{base}/late-after-stub"),
            cfg(Consent::Reject),
            None,
        )
        .await
        .unwrap();
    let c = report(&page);
    assert!(c.late && c.popup && c.answered, "{c:?}");
    assert_eq!(c.ended, Some(ConsentEnd::Answered), "{c:?}");
    assert_eq!(page.title(), "Harbour log (rejected)");
    assert!(page.text().contains("keeper of the lighthouse"));
    ex.shutdown().await;
}
