//! Steering a page in real Chromium, through the front door (`Extractor` with a
//! `PageConfig` carrying a `Steer`): wait conditions (an article filled 4 s after `load`),
//! actions (a "Load more" list clicked until its button is gone, a login form written and
//! submitted, a login by actions saved as a storage state and reused, failures named by index),
//! and virtual lists (a scrolling box that keeps ten of
//! its hundred rows in the DOM: every row seen ends up in the snapshot, once, in order).
//!
//! The pages are `fixtures/steer-*/`, served by a tokio listener on 127.0.0.1 started by the
//! test (the login form posts to it); nothing leaves the machine.

use std::path::Path;
use std::time::Duration;

use sightline::render::steer::Action;
use sightline::{Extractor, Options, PageConfig, Steer};

mod common;
use common::http::Answer;

fn fixture(slug: &str, file: &str) -> Vec<u8> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(slug)
        .join(file);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// What the test server answers: the fixtures' pages by path, and `POST /login`, which sends
/// the members' page (and a session cookie) for the right user and password and the form
/// again otherwise; `GET /members` is the members' page for that cookie, the form without it.
fn route(method: &str, path: &str, head: &str, body: &str) -> (u16, Vec<u8>) {
    let member = head
        .lines()
        .any(|l| l.to_ascii_lowercase().starts_with("cookie:") && l.contains("member=ada"));
    match (method, path) {
        ("GET", "/members") if member => (200, fixture("steer-login", "members.html")),
        ("GET", "/members") => (200, fixture("steer-login", "page.html")),
        ("GET", "/late") => (200, fixture("steer-late-article", "page.html")),
        ("GET", "/more") => (200, fixture("steer-load-more", "page.html")),
        ("GET", "/list") => (200, fixture("steer-virtual-list", "page.html")),
        ("GET", "/login") => (200, fixture("steer-login", "page.html")),
        ("POST", "/login") if body.contains("user=ada") && body.contains("password=s3cret") => {
            (200, fixture("steer-login", "members.html"))
        }
        ("POST", "/login") => (200, fixture("steer-login", "page.html")),
        _ => (
            404,
            b"<!doctype html><title>Not found</title><p>Not here.</p>".to_vec(),
        ),
    }
}

/// The test server on 127.0.0.1 ([`route`]'s answers, with the session cookie after a good
/// login); its base URL.
fn server() -> String {
    common::http::answering(|req| {
        let (status, page) = route(&req.method, &req.path, &req.head, &req.body);
        let answer = Answer::html(status, page);
        let logged_in = req.method == "POST"
            && req.path == "/login"
            && req.body.contains("user=ada")
            && req.body.contains("password=s3cret");
        if logged_in {
            answer.with("Set-Cookie", "member=ada; Path=/; HttpOnly")
        } else {
            answer
        }
    })
}

/// One browser with one tab; pages reach the test server (online: a form's submission is a
/// navigation `--offline` would refuse).
async fn extractor() -> Extractor {
    Extractor::new(Options::default().tabs(1).timeout(Duration::from_secs(20)))
        .await
        .expect("browser starts")
}

fn steered(plan: Steer) -> std::sync::Arc<PageConfig> {
    std::sync::Arc::new(PageConfig::default().steer(plan))
}

/// The snapshot's rendered text nodes, in document order.
fn texts(p: &sightline::Page) -> Vec<String> {
    p.snapshot()
        .nodes
        .iter()
        .filter(|n| n.rendered)
        .filter_map(|n| n.text.clone())
        .collect()
}

fn actions(json: &str) -> Vec<Action> {
    serde_json::from_str(json).expect("actions parse")
}

/// A plan from its JSON (as `serve` and MCP read it).
fn plan(json: serde_json::Value) -> Steer {
    serde_json::from_value(json).expect("plan parses")
}

fn with_actions(json: &str) -> Steer {
    let mut s = Steer::default();
    s.actions = actions(json);
    s
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wait_condition_catches_an_article_filled_after_load() {
    let base = server();
    let ex = extractor().await;
    let url = format!("{base}/late");
    let article = "Mairead Quinn climbed";

    // Without a wait, the page is captured as it settles: the spinner.
    let page = ex.extract(url.as_str()).await.unwrap();
    assert!(texts(&page).join(" ").contains("Loading…"));
    assert!(page.record().timings_ms.as_ref().unwrap().steer.is_none());
    let plain = serde_json::to_value(page.record()).unwrap();
    assert!(plain.get("actions").is_none(), "{plain}");

    // Each kind of condition waits for it.
    for plan in [
        plan(serde_json::json!({"wait_for": "#article p:not(.loading)"})),
        plan(serde_json::json!({"wait_for_text": "the light had never once gone out"})),
        plan(serde_json::json!({"wait_for_js": "window.articleReady === true"})),
    ] {
        let page = ex
            .extract_with(url.as_str(), steered(plan.clone()), None)
            .await
            .unwrap_or_else(|e| panic!("{plan:?}: {e}"));
        let text = texts(&page).join(" ");
        assert!(text.contains(article), "{plan:?}: {text}");
        assert!(!text.contains("Loading…"), "{plan:?}: {text}");
        assert!(page.record().timings_ms.as_ref().unwrap().steer.is_some());
    }

    // A condition that never holds is a timeout naming it.
    let ex_short = Extractor::new(Options::default().tabs(1).timeout(Duration::from_secs(3)))
        .await
        .unwrap();
    let out = ex_short
        .record_with(
            url.as_str(),
            steered(plan(serde_json::json!({"wait_for": "#comments"}))),
            None,
        )
        .await;
    let err = out.record.error.expect("a timeout record");
    assert_eq!(err.kind, "timeout");
    assert!(
        err.message.contains("waiting for the selector `#comments`"),
        "{}",
        err.message
    );
    ex_short.shutdown().await;
    ex.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn load_more_is_clicked_until_its_button_is_gone() {
    let base = server();
    let ex = extractor().await;
    let url = format!("{base}/more");
    let more = with_actions(r##"[{"type":"click","selector":"#more","repeat":10}]"##);
    let page = ex
        .extract_with(url.as_str(), steered(more), None)
        .await
        .unwrap();
    let text = texts(&page);
    let harbours: Vec<&String> = text.iter().filter(|t| t.starts_with("Harbour ")).collect();
    // Each harbour has a heading and a paragraph.
    for i in 1..=40 {
        let h = format!("Harbour {i}");
        assert_eq!(
            harbours.iter().filter(|t| t.as_str() == h).count(),
            1,
            "{h} once"
        );
    }
    let rec = serde_json::to_value(page.record()).unwrap();
    let a = &rec["actions"][0];
    assert_eq!(a["action"], "click");
    assert_eq!(a["outcome"], "ok");
    // 10 at first, 10 more per click: three clicks, then the button is gone.
    assert_eq!(a["clicks"], 3, "{rec}");
    ex.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_login_form_is_written_and_submitted_and_the_next_page_read() {
    let base = server();
    let ex = extractor().await;
    let url = format!("{base}/login");
    let members = "letters of the lighthouse service";
    for submit in [
        r##"{"type":"press","key":"Enter"}"##,
        r##"{"type":"click","selector":"button[type=submit]"}"##,
    ] {
        let login = with_actions(&format!(
            r##"[{{"type":"write","selector":"#user","text":"ada"}},
                 {{"type":"click","selector":"#password"}},
                 {{"type":"write","text":"s3cret"}},
                 {submit}]"##
        ));
        let page = ex
            .extract_with(url.as_str(), steered(login), None)
            .await
            .unwrap_or_else(|e| panic!("{submit}: {e}"));
        let text = texts(&page).join(" ");
        assert!(text.contains(members), "{submit}: {text}");
        assert_eq!(page.title(), "Members' library: the reading room");
        let rec = serde_json::to_value(page.record()).unwrap();
        let outcomes = rec["actions"].as_array().unwrap();
        assert_eq!(outcomes.len(), 4);
        assert!(outcomes.iter().all(|o| o["outcome"] == "ok"), "{rec}");
    }
    // The tab that followed the form goes on to the next page.
    let page = ex.extract(format!("{base}/more").as_str()).await.unwrap();
    assert!(texts(&page).join(" ").contains("Harbour 10"));
    ex.shutdown().await;

    // Offline, the form's navigation is refused as any navigation away is: the form stays.
    let offline = Extractor::new(Options::default().tabs(1).offline(true))
        .await
        .unwrap();
    let login = with_actions(
        r##"[{"type":"write","selector":"#user","text":"ada"},{"type":"press","key":"Enter"}]"##,
    );
    let page = offline
        .extract_with(url.as_str(), steered(login), None)
        .await
        .unwrap();
    assert_eq!(page.title(), "Members' library: sign in");
    let rec = serde_json::to_value(page.record()).unwrap();
    assert_eq!(rec["actions"][1]["outcome"], "ok", "{rec}");
    offline.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_action_names_its_index_unless_optional() {
    let base = server();
    let ex = extractor().await;
    let url = format!("{base}/more");
    let out = ex
        .record_with(
            url.as_str(),
            steered(with_actions(
                r##"[{"type":"wait","milliseconds":10},{"type":"click","selector":"#nothing-here"}]"##,
            )),
            None,
        )
        .await;
    let err = out.record.error.expect("an action record");
    assert_eq!(err.kind, "action");
    assert!(err.message.contains("action 1 (click)"), "{}", err.message);
    assert!(err.message.contains("`#nothing-here`"), "{}", err.message);

    let page = ex
        .extract_with(
            url.as_str(),
            steered(with_actions(
                r##"[{"type":"click","selector":"#nothing-here","optional":true},
                     {"type":"press","key":"NoSuchKey","optional":true},
                     {"type":"executeJavascript","script":"document.querySelector('h1').textContent = 'Harbours, edited'"}]"##,
            )),
            None,
        )
        .await
        .unwrap();
    let rec = serde_json::to_value(page.record()).unwrap();
    let o = rec["actions"].as_array().unwrap();
    assert_eq!(o[0]["outcome"], "skipped");
    assert!(o[0]["message"].as_str().unwrap().contains("#nothing-here"));
    assert_eq!(o[1]["outcome"], "skipped");
    assert_eq!(o[2]["outcome"], "ok");
    assert!(texts(&page).iter().any(|t| t.trim() == "Harbours, edited"));
    ex.shutdown().await;
}

/// The sailings in the snapshot, in document order, with their boxes' top.
fn sailings(p: &sightline::Page) -> Vec<(u32, f64)> {
    let snap = p.snapshot();
    snap.nodes
        .iter()
        .filter(|n| n.rendered)
        .filter_map(|n| {
            let t = n.text.as_deref()?;
            let rest = t.strip_prefix("Sailing ")?;
            let num: u32 = rest.split(':').next()?.parse().ok()?;
            Some((num, n.rect.y))
        })
        .collect()
}

fn assert_every_row_once_in_order(p: &sightline::Page) {
    let rows = sailings(p);
    let nums: Vec<u32> = rows.iter().map(|r| r.0).collect();
    assert_eq!(nums, (1..=100).collect::<Vec<u32>>(), "{rows:?}");
    // One under another.
    for w in rows.windows(2) {
        assert!(w[1].1 > w[0].1, "{rows:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_virtual_lists_rows_are_all_kept_in_order() {
    let base = server();
    let ex = extractor().await;
    let url = format!("{base}/list");

    // Named.
    let page = ex
        .extract_with(
            url.as_str(),
            steered(plan(serde_json::json!({"scroll_container": ".list"}))),
            None,
        )
        .await
        .unwrap();
    assert_every_row_once_in_order(&page);
    let rec = serde_json::to_value(page.record()).unwrap();
    let c = &rec["scroll"]["container"];
    assert_eq!(c["selector"], ".list", "{rec}");
    assert_eq!(c["rows"], 100, "{rec}");
    assert_eq!(c["restored"], true, "{rec}");
    assert!(c["removed"].as_u64().unwrap() > 0, "{rec}");

    // Found by itself: the box holds the page's text, and the page listens to scrolling.
    let page = ex.extract(url.as_str()).await.unwrap();
    assert_every_row_once_in_order(&page);
    let rec = serde_json::to_value(page.record()).unwrap();
    let c = &rec["scroll"]["container"];
    assert_eq!(c["found"], true, "{rec}");
    assert_eq!(c["selector"], "div.list", "{rec}");
    ex.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_login_by_actions_is_saved_and_reused() {
    let base = server();
    let ex = extractor().await;
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state.json");
    // Log in with actions, and save the session the page ends with.
    let mut login = with_actions(
        r##"[{"type":"write","selector":"#user","text":"ada"},
             {"type":"write","selector":"#password","text":"s3cret"},
             {"type":"press","key":"Enter"}]"##,
    );
    login.save_storage_state = Some(state.clone());
    let page = ex
        .extract_with(format!("{base}/login").as_str(), steered(login), None)
        .await
        .unwrap();
    assert_eq!(page.title(), "Members' library: the reading room");
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    assert!(
        saved["cookies"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["name"] == "member"),
        "{saved}"
    );
    // Without the session, the members' page is the form; with it, the members' page.
    let members = format!("{base}/members");
    let page = ex.extract(members.as_str()).await.unwrap();
    assert_eq!(page.title(), "Members' library: sign in");
    let mut reuse = Steer::default();
    reuse.storage_state = Some(sightline::render::steer::load_storage_state(&state).unwrap());
    let page = ex
        .extract_with(members.as_str(), steered(reuse), None)
        .await
        .unwrap();
    assert_eq!(page.title(), "Members' library: the reading room");
    ex.shutdown().await;
}
