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

    let alive: Vec<u32> = tree
        .iter()
        .copied()
        .filter(|p| {
            std::fs::read_to_string(format!("/proc/{p}/stat")).is_ok_and(|s| {
                !s.rsplit_once(')')
                    .is_some_and(|(_, r)| r.trim_start().starts_with('Z'))
            })
        })
        .collect();
    assert!(alive.is_empty(), "still alive after shutdown: {alive:?}");
    assert!(reap::tree(pid).is_empty());
    assert_eq!(
        naming(&marker),
        Vec::<u32>::new(),
        "processes naming the profile"
    );
    assert!(!profile.exists(), "{}", profile.display());
    // A grace of 50 ms, then SIGKILL: well under the seconds a clean close can take.
    assert!(took < Duration::from_secs(3), "{took:?}");
}
