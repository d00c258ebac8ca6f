//! A launched Chromium leaves nothing behind: after a render and the browser's shutdown, no
//! process that descended from it (zygote, renderer, GPU and utility processes) or that names
//! its profile (the crash handler, started through a double fork) is still alive, and the
//! profile directory is gone.

use std::time::Duration;

use sightline::render::{reap, BrowserHandle, BrowserSource};

#[path = "common/eventually.rs"]
mod eventually;
use eventually::{eventually, eventually_blocking, holds};

/// How long a test waits for a condition before it fails: a hang guard, not a speed bound
/// (each condition below holds within seconds).
const HANG_GUARD: Duration = Duration::from_secs(120);

/// Live processes (not zombies) whose command line contains `needle`.
fn naming(needle: &str) -> Vec<u32> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
            continue;
        };
        let stat = std::fs::read_to_string(e.path().join("stat")).unwrap_or_default();
        let zombie = stat
            .rsplit_once(')')
            .is_some_and(|(_, r)| r.trim_start().starts_with('Z'));
        let cmd = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
        if !zombie && String::from_utf8_lossy(&cmd).contains(needle) {
            out.push(pid);
        }
    }
    out
}

/// The processes of `pids` still running (not exited, not zombies).
fn living(pids: &[u32]) -> Vec<u32> {
    pids.iter()
        .copied()
        .filter(|p| {
            std::fs::read_to_string(format!("/proc/{p}/stat")).is_ok_and(|s| {
                !s.rsplit_once(')')
                    .is_some_and(|(_, r)| r.trim_start().starts_with('Z'))
            })
        })
        .collect()
}

/// A launched browser, where `/proc` can be read (Linux); None elsewhere.
async fn launch() -> Option<BrowserHandle> {
    if !std::path::Path::new("/proc/self/stat").exists() {
        return None;
    }
    let h = BrowserHandle::start(
        &BrowserSource::Launch(None),
        (800, 600),
        Duration::from_secs(30),
        &[],
    )
    .await
    .expect("Chromium launches");
    Some(h)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_chromium_process_outlives_the_shutdown() {
    let Some(h) = launch().await else {
        return; // the check reads /proc (Linux)
    };
    let pid = h.pid().expect("a launched browser has a pid");
    let profile = h.profile_dir().expect("a temporary profile").to_path_buf();
    // A page, so a renderer runs too.
    let page = tokio::time::timeout(
        HANG_GUARD,
        h.browser.new_page("data:text/html,<p>hello</p>"),
    )
    .await
    .expect("in time")
    .expect("a page");
    drop(page);
    let tree = reap::tree(pid);
    assert!(tree.len() >= 3, "browser, zygote and helpers: {tree:?}");
    let marker = profile.display().to_string();
    assert!(!naming(&marker).is_empty());

    // A grace of 50 ms, then SIGKILL: the shutdown does not wait for a clean close. The
    // signal is that every process and the profile are gone (below); the guard only turns a
    // shutdown that hangs into a failure.
    tokio::time::timeout(HANG_GUARD, h.shutdown())
        .await
        .expect("the shutdown hung");

    let alive = living(&tree);
    assert!(alive.is_empty(), "still alive after shutdown: {alive:?}");
    assert!(reap::tree(pid).is_empty());
    assert_eq!(
        naming(&marker),
        Vec::<u32>::new(),
        "processes naming the profile"
    );
    assert!(!profile.exists(), "{}", profile.display());
}

/// A launched browser dropped without a shutdown (the last reference let go by a relaunch, a
/// panic or a cancelled task) is killed with its whole tree (`BrowserHandle`'s `Drop`). The
/// processes also went before that `Drop` existed, so this guards the property rather than
/// proving a fix.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_browser_leaves_no_process() {
    let Some(h) = launch().await else {
        return; // the check reads /proc (Linux)
    };
    let pid = h.pid().expect("a launched browser has a pid");
    let marker = h.profile_dir().expect("a profile").display().to_string();
    let tree = reap::tree(pid);
    assert!(tree.len() >= 2, "the browser and its helpers: {tree:?}");
    drop(h);
    // SIGKILL is sent by the drop; the processes are gone once the kernel has ended them.
    let gone = || living(&tree).is_empty() && naming(&marker).is_empty();
    let ended = eventually(HANG_GUARD, || async { holds(gone()) }).await;
    assert!(
        ended.is_some(),
        "still alive after the drop: {:?} {:?}",
        living(&tree),
        naming(&marker)
    );
}

/// The second Ctrl-C exits at once, without the orderly shutdown: Chromium (started with a
/// DevTools port, so it does not notice its parent is gone) and its profile must still go.
#[cfg(unix)]
#[test]
fn a_second_interrupt_leaves_no_chromium_and_no_profile() {
    use std::io::{BufRead, BufReader, Read};
    use std::process::{Command, Stdio};
    let tmp = tempfile::tempdir().unwrap();
    // A server that accepts and never answers: the page stays in flight.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let (requested, asked) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for s in listener.incoming().flatten() {
            held.push(s);
            let _ = requested.send(());
        }
    });
    let mut child = Command::new(env!("CARGO_BIN_EXE_sightline"))
        .args([
            "extract",
            "--offline",
            "--timeout",
            "60",
            "-q",
            "-f",
            "json",
        ])
        .arg(format!("http://127.0.0.1:{port}/never"))
        // The temporary profile is made under TMPDIR: its path names this run's Chromium.
        .env("TMPDIR", tmp.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // sightline's stderr, line by line as it comes, and all of it at the end.
    let (line_tx, lines) = std::sync::mpsc::channel::<String>();
    let stderr = BufReader::new(child.stderr.take().unwrap());
    let stderr = std::thread::spawn(move || {
        let mut all = String::new();
        for l in stderr.lines().map_while(Result::ok) {
            all.push_str(&l);
            all.push('\n');
            let _ = line_tx.send(l);
        }
        all
    });
    let marker = tmp.path().display().to_string();
    // Once Chromium asks for the page, the batch runs; then interrupt twice.
    asked
        .recv_timeout(HANG_GUARD)
        .expect("Chromium requested the page");
    // The browser names the profile on its command line (Chromium's helpers do too, the
    // headless shell's do not).
    assert!(!naming(&marker).is_empty(), "no process names {marker}");
    // Every Chromium process: the browser and its helpers (renderer, zygote, ...).
    let chromium = reap::tree(child.id());
    assert!(
        chromium.len() >= 3,
        "sightline, the browser and a renderer: {chromium:?}"
    );
    let pid = rustix::process::Pid::from_child(&child);
    let interrupt = || rustix::process::kill_process(pid, rustix::process::Signal::INT);
    interrupt().unwrap();
    // The first one is taken when sightline says so.
    loop {
        let line = lines
            .recv_timeout(HANG_GUARD)
            .expect("sightline never said it was interrupted");
        if line.contains("interrupted: finishing the pages in flight") {
            break;
        }
    }
    // The second one, sent once: sightline keeps its signal streams from the start, so a
    // signal that lands before it waits again is kept, not lost (it was, with a new
    // `ctrl_c()` future made after the line). It must exit within the hang guard.
    interrupt().unwrap();
    let status = eventually_blocking(HANG_GUARD, || child.try_wait().unwrap());
    let Some(status) = status else {
        let _ = child.kill();
        panic!("sightline did not exit after a second interrupt");
    };
    let err = stderr.join().unwrap();
    assert_eq!(status.code(), Some(130), "{err}");
    // It exited at once: the page in flight (whose deadline is 60 s away) has no record. An
    // orderly stop would have waited for it and written its `timeout` record.
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    assert_eq!(out, "", "a record was written: {err}");
    assert_eq!(
        naming(&marker),
        Vec::<u32>::new(),
        "Chromium processes outlived sightline"
    );
    let alive = living(&chromium);
    assert!(
        alive.is_empty(),
        "Chromium processes outlived sightline: {alive:?}"
    );
    let left: Vec<_> = std::fs::read_dir(tmp.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert!(left.is_empty(), "profile left behind: {left:?}");
}
