//! A launched Chromium leaves nothing behind: after a render and the browser's shutdown, no
//! process that descended from it (zygote, renderer, GPU and utility processes) or that names
//! its profile (the crash handler, started through a double fork) is still alive, and the
//! profile directory is gone.

use std::time::Duration;

use sightline::render::{reap, BrowserHandle, BrowserSource};

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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_chromium_process_outlives_the_shutdown() {
    if !std::path::Path::new("/proc/self/stat").exists() {
        return; // the check reads /proc (Linux)
    }
    let h = BrowserHandle::start(
        &BrowserSource::Launch(None),
        (800, 600),
        Duration::from_secs(30),
        &[],
    )
    .await
    .expect("Chromium launches");
    let pid = h.pid().expect("a launched browser has a pid");
    let profile = h.profile_dir().expect("a temporary profile").to_path_buf();
    // A page, so a renderer runs too.
    let page = tokio::time::timeout(
        Duration::from_secs(20),
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

    let t = std::time::Instant::now();
    h.shutdown().await;
    let took = t.elapsed();

    let alive = living(&tree);
    assert!(alive.is_empty(), "still alive after shutdown: {alive:?}");
    assert!(reap::tree(pid).is_empty());
    assert_eq!(
        naming(&marker),
        Vec::<u32>::new(),
        "processes naming the profile"
    );
    assert!(!profile.exists(), "{}", profile.display());
    // A grace of 50 ms, then SIGKILL: the shutdown does not wait for a clean close. The
    // signal is that every process and the profile are gone (above); the bound here is
    // only a generous deadline against a shutdown that hangs.
    assert!(took < Duration::from_secs(20), "{took:?}");
}

/// The second Ctrl-C exits at once, without the orderly shutdown: Chromium (started with a
/// DevTools port, so it does not notice its parent is gone) and its profile must still go.
#[cfg(unix)]
#[test]
fn a_second_interrupt_leaves_no_chromium_and_no_profile() {
    use std::io::Read;
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
        .args(["extract", "--offline", "--timeout", "60", "-q"])
        .arg(format!("http://127.0.0.1:{port}/never"))
        // The temporary profile is made under TMPDIR: its path names this run's Chromium.
        .env("TMPDIR", tmp.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let marker = tmp.path().display().to_string();
    let t = std::time::Instant::now();
    // The browser names the profile on its command line (Chromium's helpers do too, the
    // headless shell's do not).
    while naming(&marker).is_empty() {
        assert!(
            t.elapsed() < Duration::from_secs(60),
            "Chromium did not start"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // Once Chromium asks for the page, the batch runs; then interrupt twice.
    asked
        .recv_timeout(Duration::from_secs(60))
        .expect("Chromium requested the page");
    // Every Chromium process: the browser and its helpers (renderer, zygote, ...).
    let chromium = reap::tree(child.id());
    assert!(
        chromium.len() >= 3,
        "sightline, the browser and a renderer: {chromium:?}"
    );
    let pid = rustix::process::Pid::from_child(&child);
    rustix::process::kill_process(pid, rustix::process::Signal::INT).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    rustix::process::kill_process(pid, rustix::process::Signal::INT).unwrap();
    let status = child.wait().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert_eq!(status.code(), Some(130), "{err}");
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
