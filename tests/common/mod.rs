//! Helpers shared by the integration tests: the benchmark in `../shared/bench`, HTML
//! rendered in a fresh offline browser, and a `sightline serve` that is stopped, with its
//! browser, when dropped. (Each test crate uses some of them.)
#![allow(dead_code)]

pub mod eventually;
pub mod http;
pub mod metrics;

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use sightline::render::reap;

use sightline::render::{Input, RenderOptions, Rendered, Renderer};

/// Every rendered text of a snapshot, joined by spaces (what the page shows, in document order).
pub fn shown_text(snap: &sightline::Snapshot) -> String {
    snap.nodes
        .iter()
        .filter(|n| n.rendered)
        .filter_map(|n| n.text.as_deref())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Render HTML bytes offline in a fresh browser, which is shut down after the page.
pub async fn render_html(name: &str, html: &str) -> Result<Rendered, sightline::Error> {
    let r = Renderer::new(RenderOptions::default().offline(true))
        .await
        .unwrap();
    let page = r
        .render(&Input::Html {
            name: name.into(),
            bytes: html.as_bytes().to_vec(),
            charset: "utf-8".into(),
        })
        .await;
    r.shutdown().await;
    page
}

/// The benchmark root (`$SIGHTLINE_BENCH`, else `../shared/bench`), or None when it is absent:
/// the test is then skipped with one line on stderr naming `SIGHTLINE_BENCH`, so that the
/// suite passes on a fresh clone with nothing beside it. With `SIGHTLINE_REQUIRE_BENCH=1`
/// (set by `.ci/run`) a missing benchmark fails the test instead: CI never skips silently.
pub fn bench_root() -> Option<PathBuf> {
    let root = std::env::var_os("SIGHTLINE_BENCH")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/bench"));
    if root.join("PEERS.md").is_file() {
        return Some(root);
    }
    if std::env::var("SIGHTLINE_REQUIRE_BENCH").as_deref() == Ok("1") {
        panic!(
            "benchmark data not found at {} and SIGHTLINE_REQUIRE_BENCH=1: put shared/bench \
             beside the project or set SIGHTLINE_BENCH=DIR",
            root.display()
        );
    }
    // Written to stderr directly: libtest captures `eprintln!` of a passing test, and this
    // line must show in a plain `cargo test`.
    use std::io::Write as _;
    let _ = writeln!(
        std::io::stderr(),
        "skipped: no benchmark at {} (set SIGHTLINE_BENCH=DIR to run this test)",
        root.display()
    );
    None
}

/// A running `sightline serve`, stopped with SIGTERM when dropped.
pub struct Service {
    pub child: Child,
    pub base: String,
}

impl Drop for Service {
    /// Stop the service as an operator would (SIGTERM: it drains and shuts its browser down).
    /// If it has not exited after 10 s, SIGKILL it with its whole process tree: a SIGKILL-ed
    /// service cannot close its Chromium, which would otherwise outlive the test run.
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let exited = eventually::eventually_blocking(Duration::from_secs(10), || {
            self.child.try_wait().ok().flatten()
        });
        if exited.is_some() {
            return;
        }
        // Listed before the kill: once the service is gone, its browser is no longer found
        // from it.
        for pid in reap::tree(self.child.id()) {
            let _ = Command::new("kill")
                .args(["-KILL", &pid.to_string()])
                .status();
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Start `sightline serve` on an ephemeral port and wait for its "listening on" line.
pub fn start(args: &[&str]) -> Service {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sightline"))
        .args(["serve", "--listen", "127.0.0.1:0", "--offline"])
        .args(args)
        .env_remove("SIGHTLINE_TOKEN")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let err = BufReader::new(child.stderr.take().unwrap());
    // Owned by the guard from here on: a failed start kills and reaps the child.
    let mut svc = Service {
        child,
        base: String::new(),
    };
    // stderr is read in a thread for the service's whole life (it never blocks on a full
    // pipe); its lines come here until the "listening on" one.
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in err.lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    loop {
        // A hang guard, not a speed bound: the service listens within seconds.
        let line = rx
            .recv_timeout(Duration::from_secs(120))
            .expect("serve exited or did not start listening");
        if let Some(rest) = line.split("listening on ").nth(1) {
            svc.base = rest.split_whitespace().next().unwrap().to_string();
            return svc;
        }
    }
}
