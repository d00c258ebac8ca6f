//! The walls' recognition over saved snapshots: which pages it flags, and what it costs. Every
//! page of the benchmark holds content (its gold), so every page flagged is a false alarm.
//!
//! Usage: cargo run --release --example wall_scan -- DIR...
//! where each DIR holds `<dataset>/<id>.json` (`sightline eval --save-snapshots DIR`). Each
//! snapshot is read as a page served with status 200 and no vendor header (as the bench
//! serves it on 127.0.0.1). Prints one line per flagged page (`dataset/id kind vendor
//! evidence`), then `pages N flagged K`, the recognition's time per page, and how many pages
//! show a consent platform (the pages whose consent dialog the renderer answers).

#![forbid(unsafe_code)]

use std::time::{Duration, Instant};

use sightline::walls::{consent_platform, recognise, Response, WallParams};
use sightline::Snapshot;

fn main() {
    let dirs: Vec<String> = std::env::args().skip(1).collect();
    if dirs.is_empty() {
        eprintln!("usage: wall_scan DIR...");
        std::process::exit(2);
    }
    let resp = Response {
        status: Some(200),
        headers: Vec::new(),
        html_text_chars: None,
    };
    let params = WallParams::default();
    let (mut pages, mut flagged, mut spent) = (0usize, 0usize, Duration::ZERO);
    let mut platforms = 0usize;
    let mut by_set: std::collections::BTreeMap<String, (usize, usize)> = Default::default();
    for dir in &dirs {
        let mut sets: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{dir}: {e}"))
            .flatten()
            .filter(|e| e.path().is_dir())
            .collect();
        sets.sort_by_key(|e| e.path());
        for set in sets {
            let name = set.file_name().to_string_lossy().to_string();
            let mut files: Vec<_> = std::fs::read_dir(set.path())
                .unwrap()
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "json"))
                .collect();
            files.sort();
            for f in files {
                let json = std::fs::read_to_string(&f).unwrap();
                let Ok(snap) = Snapshot::from_json(&json, &f.display().to_string()) else {
                    continue;
                };
                pages += 1;
                let e = by_set.entry(name.clone()).or_default();
                e.0 += 1;
                let t = Instant::now();
                let v = recognise(&snap, &resp, &params);
                spent += t.elapsed();
                if consent_platform(&snap).is_some() {
                    platforms += 1;
                }
                if let Some(v) = v {
                    flagged += 1;
                    e.1 += 1;
                    println!(
                        "{name}/{} {} {} {:?}",
                        f.file_stem().unwrap().to_string_lossy(),
                        v.wall.kind,
                        v.wall.vendor.as_deref().unwrap_or("-"),
                        v.wall.evidence
                    );
                }
            }
        }
    }
    for (set, (n, k)) in &by_set {
        println!("{set}: pages {n} flagged {k}");
    }
    println!(
        "pages {pages} flagged {flagged}; recognition {:.3} ms per page; pages showing a consent platform (answered before the snapshot) {platforms}",
        spent.as_secs_f64() * 1000.0 / pages.max(1) as f64
    );
}
