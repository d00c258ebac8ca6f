//! Steering through every front end: the CLI's flags (`--actions`, `--header`, ...), `serve`'s
//! JSON body and MCP's `steer` argument reach the one plan (`sightline::Steer`), and a shared
//! service takes a caller's scripts, headers and cookies only with its operator's
//! `--allow-scripts`, `--allow-headers`, `--allow-cookies`. What each step does to a page is
//! tested in real Chromium by `tests/steer_*.rs`; this file tests the doors.

use std::process::Command;

use serde_json::{json, Value};

mod common;
use common::start;

fn sightline(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_sightline"))
        .args(args)
        .output()
        .expect("run sightline")
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `sightline ARGS` fails, and its stderr holds every one of `words`.
fn fails_saying(args: &[&str], words: &[&str]) {
    let o = sightline(args);
    let e = stderr(&o);
    assert!(!o.status.success(), "{args:?} succeeded: {e}");
    for w in words {
        assert!(e.contains(w), "{args:?}: no {w:?} in {e}");
    }
}

#[test]
fn bad_steering_flags_name_the_flag_and_the_fix() {
    let page = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/demo-news/page.html");
    let hover = r#"[{"type":"hover","selector":"a"}]"#;
    for (args, words) in [
        (
            vec!["extract", page, "--actions", hover],
            vec!["--actions", "executeJavascript"],
        ),
        (
            vec!["extract", page, "--actions", "/nonexistent/actions.json"],
            vec!["cannot read --actions"],
        ),
        (
            vec!["extract", page, "--header", "X-Token 1"],
            vec!["--header", "Name: value"],
        ),
        (
            vec!["extract", page, "--cookie", "novalue"],
            vec!["--cookie", "name=value"],
        ),
        (
            vec!["extract", page, "--block", "videos"],
            vec!["images, media or fonts"],
        ),
        (
            vec!["extract", page, "--cookies", "/nonexistent/cookies.txt"],
            vec!["--cookies", "cookies.txt"],
        ),
        (
            vec![
                "serve",
                "--save-storage-state",
                "/tmp/x.json",
                "--listen",
                "127.0.0.1:0",
            ],
            vec!["--save-storage-state is for"],
        ),
    ] {
        fails_saying(&args, &words);
    }
}

async fn post(base: &str, body: Value) -> (u16, Value) {
    let r = reqwest::Client::new()
        .post(format!("{base}/extract"))
        .json(&body)
        .send()
        .await
        .expect("POST /extract");
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

#[tokio::test(flavor = "multi_thread")]
async fn serve_takes_a_callers_scripts_headers_and_cookies_only_when_its_operator_allows() {
    let svc = start(&[]);
    let url = "https://example.com/";
    for (field, value, flag) in [
        ("headers", json!({"X-Token": "1"}), "--allow-headers"),
        ("user_agent", json!("bot/1"), "--allow-headers"),
        ("cookies", json!(["sid=1"]), "--allow-cookies"),
        ("wait_for_js", json!("window.ready"), "--allow-scripts"),
        (
            "actions",
            json!([{"type": "executeJavascript", "script": "1"}]),
            "--allow-scripts",
        ),
    ] {
        let (status, body) = post(&svc.base, json!({"url": url, field: value})).await;
        assert_eq!(status, 403, "{field}: {body}");
        assert_eq!(body["error"]["kind"], "forbidden", "{field}: {body}");
        let m = body["error"]["message"].as_str().unwrap();
        assert!(m.contains(flag), "{field}: {m}");
    }
    let (status, body) = post(
        &svc.base,
        json!({"url": url, "save_storage_state": "/tmp/s.json"}),
    )
    .await;
    assert_eq!(
        (status, body["error"]["kind"].as_str()),
        (403, Some("forbidden")),
        "{body}"
    );
    // A misspelt field is named, with the fields there are.
    let (status, body) = post(&svc.base, json!({"url": url, "wait_fro": "#main"})).await;
    assert_eq!(status, 400, "{body}");
    let m = body["error"]["message"].as_str().unwrap();
    assert!(m.contains("wait_fro") && m.contains("wait_for_text"), "{m}");
    // A malformed action is named.
    let (status, body) = post(
        &svc.base,
        json!({"url": url, "actions": [{"type": "hover"}]}),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    // Steering goes in a POST body; a query's unknown key is still an unknown key.
    let r = reqwest::get(format!("{}/extract?url={url}&wait_for=%23main", svc.base))
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 400);
    let body: Value = r.json().await.unwrap();
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("POST JSON body"),
        "{body}"
    );
    let r = reqwest::get(format!("{}/extract?url={url}&colour=red", svc.base))
        .await
        .unwrap();
    let body: Value = r.json().await.unwrap();
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("unknown field `colour`"),
        "{body}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn serve_with_the_grants_passes_the_plan_on() {
    // With the grants, the same plan is taken: the page is then refused by the target policy
    // (example.com is not reachable offline), not by the steering gate.
    let svc = start(&["--allow-headers", "--allow-cookies", "--allow-scripts"]);
    let (status, body) = post(
        &svc.base,
        json!({"url": "http://127.0.0.1:9/", "headers": {"X-Token": "1"}, "cookies": ["sid=1"],
               "actions": [{"type": "executeJavascript", "script": "1"}]}),
    )
    .await;
    assert_eq!(body["error"]["kind"], "forbidden", "{body}");
    let m = body["error"]["message"].as_str().unwrap();
    assert!(
        m.contains("loopback address") && !m.contains("--allow-headers"),
        "{m}"
    );
    assert_eq!(status, 403);
}

fn fixture(slug: &str) -> String {
    format!("{}/fixtures/{slug}/page.html", env!("CARGO_MANIFEST_DIR"))
}

/// The "Load more" list clicked until its button is gone: 40 harbours, 3 clicks.
fn assert_load_more(record: &Value) {
    let text = record["text"].as_str().unwrap_or_default();
    assert!(text.contains("Harbour 40"), "{record}");
    assert_eq!(record["actions"][0]["clicks"], 3, "{record}");
    assert_eq!(record["actions"][0]["outcome"], "ok", "{record}");
}

const LOAD_MORE: &str = r##"[{"type":"click","selector":"#more","repeat":10}]"##;

#[test]
fn the_cli_steers_with_its_flags() {
    // A wait condition: the article filled 4 s after load.
    let o = sightline(&[
        "extract",
        &fixture("steer-late-article"),
        "--offline",
        "--wait-for",
        "#article p:not(.loading)",
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        out.contains("Mairead Quinn") && !out.contains("Loading…"),
        "{out}"
    );
    // Actions, inline, and from a file.
    let o = sightline(&[
        "extract",
        &fixture("steer-load-more"),
        "--offline",
        "-f",
        "json",
        "--actions",
        LOAD_MORE,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_load_more(&serde_json::from_slice(&o.stdout).unwrap());
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("actions.json");
    std::fs::write(&file, LOAD_MORE).unwrap();
    let o = sightline(&[
        "extract",
        &fixture("steer-load-more"),
        "--offline",
        "-f",
        "json",
        "--actions",
        file.to_str().unwrap(),
    ]);
    assert_load_more(&serde_json::from_slice(&o.stdout).unwrap());
    // A condition that never holds: a timeout record naming it.
    let o = sightline(&[
        "extract",
        &fixture("steer-late-article"),
        "--offline",
        "-f",
        "json",
        "--timeout",
        "3",
        "--wait-for",
        "#comments",
    ]);
    let rec: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(rec["error"]["kind"], "timeout", "{rec}");
    assert!(
        rec["error"]["message"]
            .as_str()
            .unwrap()
            .contains("#comments"),
        "{rec}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn serve_steers_a_page_from_its_post_body() {
    let svc = start(&["--allow-private"]);
    let url = format!("file://{}", fixture("steer-load-more"));
    let actions: Value = serde_json::from_str(LOAD_MORE).unwrap();
    let (status, body) = post(
        &svc.base,
        json!({"url": url, "format": "json", "actions": actions}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_load_more(&body);
}
