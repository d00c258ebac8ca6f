//! Fault injection: a batch of 200 local pages where 10% loop forever, 5% crash their
//! renderer (runaway allocation under a 32 MB V8 heap), and the browser process is killed once
//! mid-run. Every input must get exactly one record, the healthy pages' content must be right,
//! the hung and crashed pages must fail with their kind, the exit code must say that pages
//! failed, the summary must say the browser was relaunched, and no process of the killed
//! browser may outlive the run.

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use sightline::render::reap;

/// A hang guard, not a speed bound: a run that has not finished after this is taken as hung
/// (it takes about two minutes with 4 tabs on the 2-core dev machine).
const HANG_GUARD: Duration = Duration::from_secs(900);

fn kind(i: usize) -> &'static str {
    if i % 10 == 3 {
        "hang"
    } else if i % 20 == 7 {
        "crash"
    } else {
        "ok"
    }
}

fn child_pids(pid: u32) -> Vec<u32> {
    let out = Command::new("pgrep")
        .args(["-P", &pid.to_string()])
        .output()
        .expect("pgrep");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect()
}

fn comm(pid: u32) -> String {
    std::fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default()
}

#[test]
fn batch_survives_hangs_crashes_and_a_killed_browser() {
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("pages");
    std::fs::create_dir(&pages).unwrap();
    let mut list = String::from("# fault-injection batch\n\n");
    for i in 0..200 {
        let body = match kind(i) {
            "hang" => format!("<p>Page {i} loops forever.</p><script>while (true) {{}}</script>"),
            "crash" => format!(
                "<p>Page {i} exhausts its heap.</p><script>const k = []; for (;;) k.push(new Array(1 << 24).fill(0.5));</script>"
            ),
            _ => format!(
                "<nav><a href='/a'>Home</a> <a href='/b'>News</a></nav><article><h1>Healthy page {i}</h1><p>Healthy page number {i} says hello, with commas, several words, and a full stop.</p></article>"
            ),
        };
        let p = pages.join(format!("p{i:03}.html"));
        std::fs::write(&p, format!("<!DOCTYPE html><html><head><meta charset='utf-8'><title>Page {i}</title></head><body>{body}</body></html>")).unwrap();
        list.push_str(&format!("{}\n", p.display()));
    }
    let list_file = dir.path().join("inputs.txt");
    std::fs::write(&list_file, list).unwrap();
    let out = dir.path().join("out");

    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_sightline"))
        .args(["extract", "--offline", "--timeout", "10", "-j", "4"])
        .args(["--chrome-arg", "js-flags=--max-old-space-size=32"])
        .arg("--input")
        .arg(&list_file)
        .arg("-o")
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let err_thread = std::thread::spawn(move || {
        BufReader::new(stderr)
            .lines()
            .map_while(Result::ok)
            .collect::<Vec<_>>()
    });

    // Kill the browser once, after about 60 records; its processes (zygotes, renderers, GPU
    // and utility processes) are listed first, to check that none outlives the run.
    let index = out.join("index.jsonl");
    let mut killed = false;
    let mut killed_tree = reap::Tree::default();
    let mut listed = 0;
    while start.elapsed() < HANG_GUARD {
        if let Ok(Some(_)) = child.try_wait() {
            break;
        }
        let n = std::fs::read_to_string(&index)
            .map(|s| s.lines().count())
            .unwrap_or(0);
        if !killed && n >= 60 {
            for pid in child_pids(child.id()) {
                if comm(pid).contains("chrom") {
                    killed_tree.merge(&reap::Tree::list(pid, None));
                    listed = killed_tree.alive().len();
                    Command::new("kill")
                        .args(["-9", &pid.to_string()])
                        .status()
                        .unwrap();
                    killed = true;
                }
            }
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    if child.try_wait().unwrap().is_none() {
        let _ = child.kill();
        panic!("the batch did not finish within {HANG_GUARD:?}");
    }
    let status = child.wait().unwrap();
    let took = start.elapsed();
    // The killed browser's helpers end once they notice it is gone; wait for that (the
    // bound only turns a survivor into a failure).
    let mut survivors = killed_tree.alive();
    for _ in 0..500 {
        if survivors.is_empty() {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
        survivors = killed_tree.alive();
    }
    let stderr = err_thread.join().unwrap().join("\n");
    assert!(
        killed,
        "the browser was never killed (no chromium child found)"
    );
    assert!(
        listed >= 3,
        "the browser, a zygote and a renderer were listed before the kill ({listed})"
    );
    assert!(
        survivors.is_empty(),
        "processes of the killed browser outlived the run: {survivors:?}"
    );
    assert_eq!(
        status.code(),
        Some(2),
        "exit code 2: some pages failed\n{stderr}"
    );
    assert!(
        stderr.contains("relaunched"),
        "the summary says the browser was relaunched:\n{stderr}"
    );

    let text = std::fs::read_to_string(&index).unwrap();
    let mut records: HashMap<usize, serde_json::Value> = HashMap::new();
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let i = v["index"].as_u64().unwrap() as usize;
        assert!(records.insert(i, v).is_none(), "input {i} has two records");
    }
    assert_eq!(records.len(), 200, "exactly one record per input");
    for (i, r) in &records {
        let k = kind(*i);
        let log: Vec<&str> = stderr
            .lines()
            .filter(|l| l.contains(&format!("p{i:03}.html")))
            .collect();
        let r = &serde_json::json!({"record": r, "log": log});
        let r = &r["record"];
        match k {
            "ok" => {
                assert!(
                    r.get("error").is_none(),
                    "healthy page {i} failed: {r}\nlog: {log:#?}"
                );
                let file = r["files"][0].as_str().unwrap();
                let content = std::fs::read_to_string(file).unwrap();
                assert!(
                    content.contains(&format!("Healthy page number {i} says hello")),
                    "page {i}: {content}"
                );
                assert!(!content.contains("Home"), "page {i} kept the navigation");
            }
            "hang" => assert_eq!(
                r["error"]["kind"], "timeout",
                "page {i}: {r}\nlog: {log:#?}"
            ),
            _ => assert_eq!(
                r["error"]["kind"], "crashed",
                "page {i}: {r}\nlog: {log:#?}"
            ),
        }
    }
    eprintln!("fault-injection batch: 200 pages in {took:?}");
}
