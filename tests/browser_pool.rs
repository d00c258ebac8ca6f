//! Several browsers behind one batch (`--browser-ws` repeated): one of two Chromium
//! processes is killed mid-batch, and every input still gets exactly one successful record
//! (its pages are retried on the other browser). The test's own browsers leave nothing
//! behind: each runs in a process group of its own, is ended by killing the whole group, and
//! the test fails if any process of that group, or naming its profile, is still alive after.
//! A connected browser's tabs get the browser-wide User-Agent (`RenderOptions::user_agent`,
//! `sightline crawl`'s by default), which a launch flag cannot give them.

use std::io::{BufRead, BufReader};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use rustix::process::{kill_process_group, Pid, Signal};

#[path = "common/eventually.rs"]
mod eventually;
use eventually::{eventually_blocking, holds};

/// A hang guard, not a speed bound: Chromium prints its DevTools endpoint in well under a
/// second; only a browser that never starts waits this long.
const START_GUARD: Duration = Duration::from_secs(120);

/// How long [`Chrome::left`] is looked at for survivors after the kill: a SIGKILL-ed process is
/// gone within milliseconds, so this only turns a survivor into a failure.
const REAP_GUARD: Duration = Duration::from_secs(10);

/// A Chromium started by this test (not by sightline): the browser binary itself, leader of a
/// process group of its own, so that its zygotes, renderers and GPU and utility processes
/// (all in that group) are killed with it.
struct Chrome {
    child: Child,
    ws: String,
    profile: tempfile::TempDir,
    ended: bool,
}

/// A live process (not a zombie): its process group and command line, from `/proc`.
fn proc_info(pid: u32) -> Option<(u32, String)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // After the command name (which may hold spaces and parentheses): state, ppid, pgrp.
    let f: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    if f.first() == Some(&"Z") {
        return None;
    }
    let pgrp = f.get(2)?.parse().ok()?;
    let cmd = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
    Some((pgrp, String::from_utf8_lossy(&cmd).replace('\0', " ")))
}

/// The start of a command line, for a failure message.
fn short(cmd: &str) -> String {
    cmd.chars().take(120).collect()
}

impl Chrome {
    /// Live processes of this browser: those of its process group, and any naming its
    /// profile (a process that left the group would still name it).
    fn left(&self) -> Vec<(u32, String)> {
        let group = self.child.id();
        let marker = self.profile.path().display().to_string();
        let mut out = Vec::new();
        for e in std::fs::read_dir("/proc").unwrap().flatten() {
            let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
                continue;
            };
            if let Some((pgrp, cmd)) = proc_info(pid) {
                if pgrp == group || cmd.contains(&marker) {
                    out.push((pid, short(&cmd)));
                }
            }
        }
        out
    }

    /// SIGKILL the browser's whole process group, reap the browser, and wait until none of
    /// its processes is alive; returns those still alive after [`REAP_GUARD`].
    fn end(&mut self) -> Vec<(u32, String)> {
        self.ended = true;
        if let Some(pg) = i32::try_from(self.child.id()).ok().and_then(Pid::from_raw) {
            let _ = kill_process_group(pg, Signal::KILL);
        }
        let _ = self.child.wait();
        eventually_blocking(REAP_GUARD, || holds(self.left().is_empty()));
        self.left()
    }

    /// [`Chrome::end`], failing when a process of the browser survives.
    fn kill(&mut self) {
        let left = self.end();
        assert!(
            left.is_empty(),
            "Chromium processes outlived the kill: {left:#?}"
        );
    }
}

impl Drop for Chrome {
    /// End the browser (once) and fail the test if any of its processes is still alive.
    /// During a panic the browser is still ended, but nothing more is asserted (a second
    /// panic would abort the test binary).
    fn drop(&mut self) {
        let left = if self.ended { self.left() } else { self.end() };
        if !std::thread::panicking() {
            assert!(
                left.is_empty(),
                "Chromium processes outlived the test: {left:#?}"
            );
        }
    }
}

/// A headless Chromium with a DevTools port, as a browser container would run it. The
/// binary is launched directly, not through Debian's launcher script (which runs it as a
/// child of `/bin/sh` without `exec`), as sightline itself does ([`wrapper::resolve`]).
///
/// [`wrapper::resolve`]: sightline::render::wrapper::resolve
fn chrome() -> Chrome {
    let exe = sightline::render::wrapper::resolve(
        &sightline::render::find_chrome(None).expect("Chromium installed"),
    );
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
        // Its own process group: one kill reaches every process of the browser.
        .process_group(0)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let err = BufReader::new(child.stderr.take().unwrap());
    // Owned by the guard from here on: a failed start kills the group and checks it.
    let mut c = Chrome {
        child,
        ws: String::new(),
        profile,
        ended: false,
    };
    // stderr is read in a thread for the rest of the browser's life (it never blocks on a
    // full pipe); its lines come here until the endpoint is found.
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in err.lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    loop {
        let line = rx
            .recv_timeout(START_GUARD)
            .expect("chromium exited or printed no DevTools endpoint");
        if let Some(ws) = line.trim().strip_prefix("DevTools listening on ") {
            c.ws = ws.to_string();
            return c;
        }
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
            // Kill one browser mid-batch: all of it, and it is gone when this returns.
            a.kill();
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
    // Each guard kills its browser's group and fails the test if a process of it is left.
    drop(b);
    drop(a);
}

/// A loopback page that records the User-Agent of each request for `/`.
fn ua_site() -> (u16, std::sync::Arc<std::sync::Mutex<Vec<String>>>) {
    use std::io::Write;
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let agents = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = agents.clone();
    std::thread::spawn(move || {
        for conn in listener.incoming() {
            let Ok(mut conn) = conn else { continue };
            let mut reader = BufReader::new(conn.try_clone().unwrap());
            let mut line = String::new();
            let _ = reader.read_line(&mut line);
            let mut agent = String::new();
            loop {
                let mut h = String::new();
                if reader.read_line(&mut h).is_err() || h.trim().is_empty() {
                    break;
                }
                if let Some((k, v)) = h.split_once(':') {
                    if k.eq_ignore_ascii_case("user-agent") {
                        agent = v.trim().to_string();
                    }
                }
            }
            let page = line.split_whitespace().nth(1) == Some("/");
            if page {
                seen.lock().unwrap().push(agent);
            }
            let (status, body) = if page {
                (
                    "200 OK",
                    "<html><head><title>UA</title></head><body><article><h1>UA</h1><p>A page that \
                     reads who asked for it, with enough words in it to be kept as content.</p>\
                     </article></body></html>",
                )
            } else {
                ("404 Not Found", "not found")
            };
            let _ = write!(
                conn,
                "HTTP/1.1 {status}\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    (port, agents)
}

#[test]
fn a_connected_browsers_tabs_get_the_browser_wide_user_agent() {
    let c = chrome();
    let (port, agents) = ua_site();
    let url = format!("http://127.0.0.1:{port}/");
    let crawl = Command::new(env!("CARGO_BIN_EXE_sightline"))
        .args([
            "crawl",
            &url,
            "--max-depth",
            "0",
            "--no-sitemaps",
            "-q",
            "-j",
            "1",
        ])
        .args(["--browser-ws", &c.ws])
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert_eq!(crawl.code(), Some(0));
    let extract = Command::new(env!("CARGO_BIN_EXE_sightline"))
        .args(["extract", &url, "-q", "--user-agent", "examplebot/1.0"])
        .args(["--browser-ws", &c.ws])
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert_eq!(extract.code(), Some(0));
    let seen = agents.lock().unwrap().clone();
    assert_eq!(
        seen,
        [
            sightline::crawl::USER_AGENT.to_string(),
            "examplebot/1.0".into()
        ]
    );
    drop(c);
}
