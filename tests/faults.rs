//! Hostile and broken pages in real Chromium, through the binary: JavaScript dialogs are
//! answered and the page extracted; a reset connection, HTTP errors, binary bodies, a broken
//! PDF, downloads and unsupported schemes fail at once with the right error kind; and a render
//! never loses what the HTML had (a refused navigation keeps the document; a page whose
//! scripts hid or never inserted its article is rendered again with JavaScript disabled, and a
//! script navigating away while the page loads costs no deadline); a reused tab never shows
//! the previous page; late content (a fetch whose body arrives after its headers;
//! scroll-loaded images and comments) is caught.
//!
//! Every server here is a tokio listener on 127.0.0.1 started by the test; `--offline` keeps
//! every other request on the machine.

use std::path::Path;
use std::process::{Command, Output};
use std::time::Duration;

use tokio::io::AsyncWriteExt;

mod common;
use common::http::Answer;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sightline"))
}

fn fixture_bytes(slug: &str) -> Vec<u8> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(slug)
        .join("page.html");
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// 200 kB of pseudo-random bytes (xorshift), the same on every run.
fn noise() -> Vec<u8> {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    (0..200_000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

/// How long `/slow-body` holds its body back after sending the headers.
const SLOW_BODY: Duration = Duration::from_millis(700);

/// How long `/slow` waits before answering.
const SLOW_PAGE: Duration = Duration::from_millis(1000);

/// An HTTP answer: status, headers and body.
type Reply = (u16, Vec<(&'static str, String)>, Vec<u8>);

/// What the test server answers for a path; `None` resets the connection.
fn route(path: &str) -> Option<Reply> {
    let html = |s: &str| vec![("Content-Type", format!("text/html; charset={s}"))];
    let page = |title: &str, text: &str| {
        format!(
            "<!doctype html><html><head><title>{title}</title></head><body><h1>{title}</h1><p>{text}</p></body></html>"
        )
        .into_bytes()
    };
    Some(match path {
        "/reset" => return None,
        "/404" => (
            404,
            html("utf-8"),
            page("Not found", "The page you asked for is not on this server."),
        ),
        "/500" => (
            500,
            html("utf-8"),
            page("Server error", "Something broke on the server side."),
        ),
        "/binary" => (200, html("utf-8"), noise()),
        "/pdf" => (
            200,
            vec![("Content-Type", "application/pdf".into())],
            b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"
                .to_vec(),
        ),
        "/pdf-as-html" => (
            200,
            html("utf-8"),
            b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n".to_vec(),
        ),
        "/attachment" => {
            let mut h = html("utf-8");
            h.push((
                "Content-Disposition",
                "attachment; filename=\"report.html\"".into(),
            ));
            (200, h, page("Report", "A report offered as a download."))
        }
        "/ok" => (
            200,
            html("utf-8"),
            page(
                "Tide tables",
                "High water at the harbour is at six in the morning.",
            ),
        ),
        // The query string is for the page's own script.
        p if p.starts_with("/fixture/") => (
            200,
            html("utf-8"),
            fixture_bytes(p[9..].split('?').next().unwrap_or("")),
        ),
        "/slow" => (
            200,
            html("utf-8"),
            page(
                "Ferry",
                "The slow page says the ferry leaves at noon on market days only.",
            ),
        ),
        "/slow-body" => (
            200,
            html("utf-8"),
            b"<p>The winter timetable, sent 700 ms after the headers, adds a third crossing on market days.</p>"
                .to_vec(),
        ),
        _ => (404, html("utf-8"), page("Not found", "No such route.")),
    })
}

/// A URL on 127.0.0.1 whose port nothing listens on (bound, then released): a refused
/// connection.
fn closed_port_url() -> String {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    drop(l);
    format!("http://127.0.0.1:{port}/")
}

/// The test server on 127.0.0.1 ([`route`]'s answers; `/hang` never answers, `/slow` waits
/// [`SLOW_PAGE`], `/slow-body` holds its body back [`SLOW_BODY`], `/reset` resets the
/// connection); its base URL.
fn server() -> String {
    common::http::serve(|req, mut s| async move {
        match req.path.as_str() {
            // Never answers (the connection stays open).
            "/hang" => {
                tokio::time::sleep(Duration::from_secs(60)).await;
                return;
            }
            "/slow" => tokio::time::sleep(SLOW_PAGE).await,
            _ => {}
        }
        match route(&req.path) {
            None => {
                // RST instead of FIN: the connection is reset.
                let _ = s.set_zero_linger();
                drop(s);
            }
            Some((status, headers, body)) => {
                let answer = headers
                    .into_iter()
                    .fold(Answer::bare(status, body), |a, (k, v)| a.with(k, &v));
                if req.path == "/slow-body" {
                    // The headers now, the body later.
                    let _ = s.write_all(answer.head().as_bytes()).await;
                    let _ = s.flush().await;
                    tokio::time::sleep(SLOW_BODY).await;
                    let _ = s.write_all(&answer.body).await;
                    let _ = s.shutdown().await;
                } else {
                    answer.send(&mut s).await;
                }
            }
        }
    })
}

/// Run `extract -f json --offline -j 1` on `urls`; the records sorted by input position.
fn extract(extra: &[&str], urls: &[String]) -> (Output, Vec<serde_json::Value>) {
    let out = bin()
        .args(["extract", "--offline", "-f", "json", "-q", "-j", "1"])
        .args(extra)
        .args(urls)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let mut recs: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    recs.sort_by_key(|r| r["index"].as_u64().unwrap_or(0));
    assert_eq!(recs.len(), urls.len(), "one record per input:\n{stdout}");
    (out, recs)
}

fn text(r: &serde_json::Value) -> &str {
    r["text"].as_str().unwrap_or_else(|| panic!("no text: {r}"))
}

/// Milliseconds of the page's phases in its record (`timings_ms`: navigate, settle, scroll,
/// snapshot, screenshot), which the page's deadline bounds from the start of its navigation;
/// None when the record has no timings.
fn phases_ms(r: &serde_json::Value) -> Option<f64> {
    let t = r["timings_ms"].as_object()?;
    Some(
        ["navigate", "settle", "scroll", "snapshot", "screenshot"]
            .iter()
            .filter_map(|k| t.get(*k)?.as_f64())
            .sum(),
    )
}

/// The page did not wait for its deadline of `timeout` seconds, by the record's own signals:
/// no error (not a `timeout`), its `load` came (the scroll phase was not skipped as
/// `load-timed-out`, which is how a page captured at its deadline shows), and its phases in
/// `timings_ms` ended before the deadline.
fn within_deadline(r: &serde_json::Value, timeout: u64) {
    assert!(r["error"].is_null(), "{r}");
    assert_ne!(r["scroll"]["stopped"], "load-timed-out", "{r}");
    let ms = phases_ms(r).unwrap_or_else(|| panic!("no timings_ms: {r}"));
    assert!(ms < (timeout * 1000) as f64, "{ms} ms of phases: {r}");
}

/// A failed page failed before its deadline of `timeout` seconds: its error is not a
/// `timeout`, and the phases its record shows (when it has `timings_ms`) ended before it.
fn failed_before_deadline(r: &serde_json::Value, timeout: u64) {
    assert!(!r["error"].is_null(), "{r}");
    assert_ne!(r["error"]["kind"], "timeout", "{r}");
    if let Some(ms) = phases_ms(r) {
        assert!(ms < (timeout * 1000) as f64, "{ms} ms of phases: {r}");
    }
}

#[test]
fn dialogs_are_answered_and_the_page_extracted() {
    let base = server();
    let urls: Vec<String> = [
        "dialog-alert",
        "dialog-confirm",
        "dialog-prompt",
        "dialog-beforeunload",
        "dialog-alert",
    ]
    .iter()
    .map(|s| format!("{base}/fixture/{s}"))
    .collect();
    let (out, recs) = extract(&["--timeout", "15"], &urls);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}\n{recs:?}",
        String::from_utf8_lossy(&out.stderr)
    );
    for r in &recs {
        assert!(r["error"].is_null(), "{r}");
        assert!(text(r).contains("lighthouse keeper kept a log"), "{r}");
    }
    assert_eq!(recs[0]["dialogs"], 1, "alert counted: {}", recs[0]);
    assert_eq!(recs[1]["dialogs"], 1, "{}", recs[1]);
    assert!(text(&recs[1]).contains("The reader declined the cookies."));
    assert_eq!(recs[2]["dialogs"], 1, "{}", recs[2]);
    assert!(text(&recs[2]).contains("The reader gave no name."));
    // The page after the beforeunload page loads in the same tab.
    assert!(recs[3]["dialogs"].is_null() || recs[3]["dialogs"] == 0);
    assert_eq!(recs[4]["dialogs"], 1, "{}", recs[4]);
    // No page waits for its deadline: each one's load came and its phases ended before it.
    for r in &recs {
        within_deadline(r, 15);
    }
}

#[test]
fn a_reset_connection_is_a_navigation_error_at_once() {
    let base = server();
    let (out, recs) = extract(&["--timeout", "15"], &[format!("{base}/reset")]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(recs[0]["error"]["kind"], "navigation", "{}", recs[0]);
    let msg = recs[0]["error"]["message"].as_str().unwrap();
    assert!(
        msg.contains("ERR_CONNECTION_RESET") || msg.contains("ERR_EMPTY_RESPONSE"),
        "{msg}"
    );
    // The reset ends the page, not its deadline.
    failed_before_deadline(&recs[0], 15);
}

#[test]
fn http_errors_fail_with_their_status_unless_accepted() {
    let base = server();
    let urls = vec![
        format!("{base}/404"),
        format!("{base}/500"),
        format!("{base}/ok"),
    ];
    let (out, recs) = extract(&[], &urls);
    assert_eq!(out.status.code(), Some(2), "an HTTP error is a failure");
    for (r, status) in recs.iter().zip(["404", "500"]) {
        assert_eq!(r["error"]["kind"], "http", "{r}");
        let msg = r["error"]["message"].as_str().unwrap();
        assert!(
            msg.contains(status) && msg.contains("--accept-http-errors"),
            "{msg}"
        );
    }
    assert!(text(&recs[2]).contains("High water"));
    assert_eq!(recs[2]["status"], 200);

    let (out, recs) = extract(&["--accept-http-errors"], &urls[..2]);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&recs[0]).contains("not on this server"), "{}", recs[0]);
    assert_eq!(recs[0]["status"], 404);
    assert!(
        text(&recs[1]).contains("broke on the server"),
        "{}",
        recs[1]
    );
    assert_eq!(recs[1]["status"], 500);
}

#[test]
fn non_html_documents_are_content_type_errors_and_a_broken_pdf_a_document_error() {
    let base = server();
    let urls: Vec<String> = ["binary", "pdf", "pdf-as-html", "attachment", "ok"]
        .iter()
        .map(|p| format!("{base}/{p}"))
        .collect();
    let (out, recs) = extract(&["--timeout", "15"], &urls);
    assert_eq!(out.status.code(), Some(2));
    for (i, r) in recs[..4].iter().enumerate() {
        // A PDF main document is read (tests/pdf.rs): this one is broken.
        let kind = if i == 1 { "document" } else { "content-type" };
        assert_eq!(r["error"]["kind"], kind, "{r}");
        // None of them waited out the 15 s deadline.
        failed_before_deadline(r, 15);
    }
    let msg = |i: usize| recs[i]["error"]["message"].as_str().unwrap().to_string();
    assert!(msg(0).contains("binary"), "{}", msg(0));
    assert!(msg(1).contains("damaged or not a PDF"), "{}", msg(1));
    assert!(msg(2).contains("PDF"), "{}", msg(2));
    assert!(msg(3).contains("attachment"), "{}", msg(3));
    assert!(text(&recs[4]).contains("High water"));
    within_deadline(&recs[4], 15);
}

#[test]
fn an_unsupported_scheme_names_the_supported_ones() {
    let (out, recs) = extract(&[], &["ftp://x".to_string()]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(recs[0]["error"]["kind"], "input", "{}", recs[0]);
    let msg = recs[0]["error"]["message"].as_str().unwrap();
    assert!(
        msg.contains("ftp") && msg.contains("http, https, file, data, about"),
        "{msg}"
    );
}

#[test]
fn a_refused_navigation_keeps_the_loaded_document() {
    let base = server();
    let (out, recs) = extract(&[], &[format!("{base}/fixture/offline-navigate-away")]);
    assert_eq!(out.status.code(), Some(0), "{}", recs[0]);
    let t = text(&recs[0]);
    assert!(t.contains("lighthouse keeper kept a log"), "{t}");
    assert!(
        !t.contains("ERR_BLOCKED_BY_CLIENT") && !t.contains("is blocked"),
        "{t}"
    );
}

#[test]
fn pages_whose_scripts_lost_the_article_are_rendered_without_javascript() {
    let base = server();
    let urls = vec![
        format!("{base}/fixture/noscript-template"),
        format!("{base}/fixture/adblock-wall"),
        format!("{base}/fixture/dialog-alert"),
    ];
    let (out, recs) = extract(&[], &urls);
    assert_eq!(out.status.code(), Some(0), "{recs:?}");
    for r in &recs[..2] {
        assert_eq!(r["javascript"], "disabled-fallback", "{r}");
        assert!(text(r).contains("lighthouse keeper kept a log"), "{r}");
        assert!(!text(r).contains("Ad blocker detected"), "{r}");
    }
    assert!(
        recs[2]["javascript"].is_null(),
        "a normal page keeps JavaScript"
    );
    assert_eq!(
        recs[2]["dialogs"], 1,
        "scripts run again after a fallback render"
    );
}

#[test]
fn a_fetch_whose_body_arrives_late_is_waited_for() {
    // fetch() resolves at the headers; the body comes 700 ms later, with no network event in
    // between. The page reads the body, then inserts it: the settle waits for the read.
    let base = server();
    let (out, recs) = extract(&[], &[format!("{base}/fixture/js-slow-body")]);
    assert_eq!(out.status.code(), Some(0), "{}", recs[0]);
    let t = text(&recs[0]);
    assert!(t.contains("island ferry has run twice a day"), "{t}");
    assert!(t.contains("adds a third crossing on market days"), "{t}");
}

#[test]
fn scrolling_stops_when_steps_bring_no_text_but_still_reaches_the_bottom() {
    let base = server();
    let urls = vec![
        format!("{base}/fixture/js-image-swap"),
        format!("{base}/fixture/js-image-swap?comments=1"),
    ];
    let (out, recs) = extract(&[], &urls);
    assert_eq!(out.status.code(), Some(0), "{recs:?}");
    // Images swapped in on scroll bring no text: two idle steps, one jump to the bottom, stop.
    let s = &recs[0]["scroll"];
    assert_eq!(s["stopped"], "no-new-content", "{s}");
    assert_eq!(s["steps"], 3, "{s}");
    assert!(text(&recs[0]).contains("eleven kilometres"), "{}", recs[0]);
    // The comment section at the very bottom is still brought in by the jump.
    let s = &recs[1]["scroll"];
    assert_ne!(s["stopped"], "no-new-content", "{s}");
    // The comment's text unit is in the snapshot (whether `learned` keeps a reader comment is
    // the model's call, not the scroll's).
    assert!(
        recs[1]["details"]["units"].as_u64() > recs[0]["details"]["units"].as_u64(),
        "{}",
        recs[1]
    );
}

#[test]
fn a_script_navigating_away_while_the_page_loads_does_not_cost_the_deadline() {
    // Offline, the navigation is refused, but Chromium has already stopped parsing the page:
    // the render shows nothing, so the page is rendered again with JavaScript disabled.
    let base = server();
    let (out, recs) = extract(
        &["--timeout", "15"],
        &[
            format!("{base}/fixture/offline-navigate-while-parsing"),
            format!("{base}/ok"),
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{recs:?}");
    // The fallback render runs only with at least a second of the page's deadline left
    // (`FOLLOW_UP_MIN`): that it ran says the refused navigation did not cost the deadline.
    assert_eq!(recs[0]["javascript"], "disabled-fallback", "{}", recs[0]);
    assert!(text(&recs[0]).contains("The old harbour was built for sailing ships"));
    // The next page in the same run is not held up by the refused navigation.
    assert!(text(&recs[1]).contains("High water"), "{}", recs[1]);
    for r in &recs {
        within_deadline(r, 15);
    }
}

#[test]
fn a_reused_tab_never_shows_the_previous_page() {
    // One tab (-j 1) renders page A, whose script keeps trying to load itself again, then a
    // page that fails or answers late, in turn. A page that tried to navigate away is left
    // for about:blank with scripts off, so nothing of A runs while the next page loads, and a
    // page whose document never arrived is an error, not a capture of whatever the tab shows.
    let base = server();
    let a = format!("{base}/fixture/stale-previous-page");
    let closed = closed_port_url();
    let urls = vec![
        a.clone(),
        format!("{base}/hang"),
        a.clone(),
        format!("{base}/reset"),
        a.clone(),
        closed,
        a.clone(),
        // Chromium refuses this port itself (ERR_UNSAFE_PORT).
        "http://127.0.0.1:6000/".to_string(),
        a.clone(),
        format!("{base}/slow"),
        a.clone(),
        format!("{base}/404"),
        a,
        format!("{base}/ok"),
    ];
    let (_, recs) = extract(&["--timeout", "4"], &urls);
    for (i, r) in recs.iter().enumerate() {
        if i % 2 == 0 {
            assert!(text(r).contains("tide mill at Eling"), "{r}");
            continue;
        }
        let record = r.to_string();
        assert!(
            !record.contains("tide mill") && !record.contains("stale page"),
            "page {i} shows the previous page: {record}"
        );
    }
    for i in [1, 3, 5, 7, 11] {
        assert!(!recs[i]["error"].is_null(), "{}", recs[i]);
    }
    assert_eq!(recs[1]["error"]["kind"], "timeout", "{}", recs[1]);
    assert_eq!(recs[11]["error"]["kind"], "http", "{}", recs[11]);
    assert!(
        text(&recs[9]).contains("ferry leaves at noon"),
        "{}",
        recs[9]
    );
    assert!(text(&recs[13]).contains("High water"), "{}", recs[13]);
}

#[test]
fn a_tab_going_straight_to_the_next_page_never_captures_the_previous_one() {
    // One tab (-j 1). After a page that rendered cleanly, the tab goes straight to the next
    // page (no detour through about:blank): the previous page is still in the tab while the
    // next one loads. A next page whose document never arrives (a server that never answers,
    // a refused connection) must be an error, never a capture of the page still shown; a
    // page that arrives is its own; the same URL again is loaded anew.
    let base = server();
    let quiet = format!("{base}/ok");
    let closed = closed_port_url();
    let urls = vec![
        quiet.clone(),
        format!("{base}/hang"),
        quiet.clone(),
        closed,
        quiet.clone(),
        format!("{base}/slow"),
        format!("{base}/fixture/dialog-alert"),
        format!("{base}/fixture/dialog-alert#again"),
        quiet,
    ];
    let (_, recs) = extract(&["--timeout", "4"], &urls);
    for i in [0, 2, 4, 8] {
        assert!(text(&recs[i]).contains("High water"), "{}", recs[i]);
    }
    for i in [1, 3] {
        let record = recs[i].to_string();
        assert!(!recs[i]["error"].is_null(), "{record}");
        assert!(
            !record.contains("High water"),
            "page {i} shows the previous page: {record}"
        );
    }
    assert_eq!(recs[1]["error"]["kind"], "timeout", "{}", recs[1]);
    assert!(
        text(&recs[5]).contains("ferry leaves at noon"),
        "{}",
        recs[5]
    );
    assert!(!text(&recs[5]).contains("High water"), "{}", recs[5]);
    // The same page with another fragment is loaded again: its alert comes again.
    for i in [6, 7] {
        assert!(text(&recs[i]).contains("lighthouse keeper"), "{}", recs[i]);
        assert_eq!(recs[i]["dialogs"], 1, "{}", recs[i]);
    }
}
