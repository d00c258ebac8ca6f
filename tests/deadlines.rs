//! `--timeout` is a deadline whatever the server does. A server that accepts and never
//! answers, one that sends the headers and part of the body and never finishes, and one that
//! dribbles the body a byte a second each give a `timeout` record whose `timings_ms` shows the
//! time went to loading the page, and at `-j 1` every quick page after them is still
//! extracted (the tab is replaced in the background; how soon the next page follows is a
//! speed, printed by `scripts/bench-deadlines`, not asserted here).
//!
//! The assertions are on structured signals only (the record order, the error kind, the
//! deadline and phase its message names, the phases in `timings_ms`), never on how long the
//! test took: how soon after its deadline a record comes is a speed, measured by
//! `scripts/bench-deadlines`, not asserted here.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

use tokio::io::AsyncWriteExt;

mod common;
use common::http::Answer;

/// The deadline of each page in these tests, in seconds.
const TIMEOUT: u64 = 3;

const OK_PAGE: &str = "<!doctype html><html><head><title>Tide tables</title></head><body><article><h1>Tide tables</h1><p>High water at the harbour is at six in the morning, and low water at noon on market days.</p></article></body></html>";

/// A loopback server: `/hang` reads the request and sends nothing; `/partial` sends the
/// headers and part of the body, then nothing; `/dribble` sends the body one byte a second;
/// anything else is [`OK_PAGE`].
fn server() -> String {
    common::http::serve(|req, mut s| async move {
        let head = |len: usize| {
            format!("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {len}\r\n\r\n")
        };
        match req.path.as_str() {
            "/hang" => tokio::time::sleep(Duration::from_secs(120)).await,
            "/partial" => {
                let _ = s.write_all(head(100_000).as_bytes()).await;
                let _ = s
                    .write_all(b"<html><body><p>The first part of a page that never ends.</p>")
                    .await;
                tokio::time::sleep(Duration::from_secs(120)).await;
            }
            "/dribble" => {
                let _ = s.write_all(head(100_000).as_bytes()).await;
                for b in b"<html><body><p>".iter().chain([b'x'; 200].iter()) {
                    if s.write_all(&[*b]).await.is_err() {
                        return;
                    }
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
            }
            _ => Answer::html(200, OK_PAGE).send(&mut s).await,
        }
    })
}

#[test]
fn hostile_servers_cost_the_deadline_and_never_hold_the_batch() {
    let base = server();
    let paths = ["/hang", "/ok1", "/partial", "/ok2", "/dribble", "/ok3"];
    let urls: Vec<String> = paths.iter().map(|p| format!("{base}{p}")).collect();
    let mut child = Command::new(env!("CARGO_BIN_EXE_sightline"))
        .args(["extract", "--offline", "-f", "json", "-q", "-j", "1"])
        .args(["--timeout", &TIMEOUT.to_string()])
        .args(&urls)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut records = Vec::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        records.push(serde_json::from_str::<serde_json::Value>(&line).unwrap());
    }
    child.wait().unwrap();
    assert_eq!(records.len(), paths.len(), "one record per input");
    for (i, (r, path)) in records.iter().zip(paths).enumerate() {
        // -j 1: the records come in input order.
        assert_eq!(r["index"].as_u64(), Some(i as u64), "{r}");
        if path.starts_with("/ok") {
            assert!(r["error"].is_null(), "{path}: {r}");
            assert!(
                r["text"].as_str().unwrap_or("").contains("High water"),
                "{path}: {r}"
            );
            continue;
        }
        assert_eq!(r["error"]["kind"], "timeout", "{path}: {r}");
        // The configured deadline, not however long the page took, and the phase it hit.
        let message = r["error"]["message"].as_str().unwrap();
        assert!(
            message.contains(&format!(
                "timed out after {TIMEOUT}.0s while loading the page"
            )),
            "{path}: {message}"
        );
        // Where the time went: the whole deadline in the navigate phase, no later phase.
        let t = &r["timings_ms"];
        let navigate = t["navigate"].as_f64().unwrap_or_else(|| panic!("{r}"));
        assert!(navigate >= (TIMEOUT * 1000) as f64 * 0.99, "{path}: {t}");
        for later in ["settle", "scroll", "snapshot", "screenshot"] {
            assert!(t[later].is_null(), "{path}: {t}");
        }
    }
}
