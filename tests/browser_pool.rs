//! Several browsers behind one batch (`--browser-ws` repeated): one of two Chromium
//! processes is killed mid-batch, and every input still gets exactly one successful record
//! (its pages are retried on the other browser).

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

struct Chrome {
    child: Child,
    ws: String,
    _profile: tempfile::TempDir,
}

impl Drop for Chrome {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A headless Chromium with a DevTools port, as a browser container would run it.
fn chrome() -> Chrome {
    let exe = sightline::render::find_chrome(None).expect("Chromium installed");
    let profile = tempfile::tempdir().unwrap();
    let mut child = Command::new(exe)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--remote-debugging-address=127.0.0.1",
            "--remote-debugging-port=0",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("about:blank")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    // Owned by the guard from here on: a failed start kills and reaps the child.
    let mut c = Chrome {
        child,
        ws: String::new(),
        _profile: profile,
    };
    let t = Instant::now();
    let mut line = String::new();
    loop {
        line.clear();
        assert!(err.read_line(&mut line).unwrap() > 0, "chromium exited");
        if let Some(ws) = line.trim().strip_prefix("DevTools listening on ") {
            c.ws = ws.to_string();
            std::thread::spawn(move || for _ in err.lines() {});
            return c;
        }
        assert!(
            t.elapsed() < Duration::from_secs(30),
            "no DevTools endpoint"
        );
    }
}

#[test]
fn a_killed_endpoint_costs_no_record() {
    let mut a = chrome();
    let b = chrome();
    let page = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/layout-article/page.html");
    let n = 60;
    let list: String = (0..n)
        .map(|i| format!("file://{}?n={i}\n", page.display()))
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let list_path = dir.path().join("urls.txt");
    std::fs::write(&list_path, list).unwrap();
    let mut run = Command::new(env!("CARGO_BIN_EXE_sightline"))
        .args(["extract", "--offline", "-f", "jsonl", "-q", "-j", "2"])
        .args(["--browser-ws", &a.ws, "--browser-ws", &b.ws])
        .arg("--input")
        .arg(&list_path)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let out = BufReader::new(run.stdout.take().unwrap());
    let mut recs = Vec::new();
    for line in out.lines() {
        let line = line.unwrap();
        recs.push(serde_json::from_str::<serde_json::Value>(&line).unwrap());
        if recs.len() == 10 {
            // Kill one browser mid-batch.
            a.child.kill().unwrap();
            a.child.wait().unwrap();
        }
    }
    let status = run.wait().unwrap();
    assert_eq!(recs.len(), n, "one record per input");
    let mut idx: Vec<u64> = recs.iter().map(|r| r["index"].as_u64().unwrap()).collect();
    idx.sort();
    assert_eq!(idx, (0..n as u64).collect::<Vec<_>>());
    for r in &recs {
        assert!(
            r.get("error").is_none(),
            "retried on the other browser: {r}"
        );
        assert!(r["text"]
            .as_str()
            .unwrap()
            .contains("Water is an odd liquid"));
    }
    assert_eq!(status.code(), Some(0));
    drop(b);
}
