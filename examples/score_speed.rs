//! Scoring-only throughput of an algorithm over saved snapshots, on one thread: loads the
//! snapshots first (not timed), then times tree building + extraction + the text writer for
//! every page, and, for `learned`, its phases (features, pass 1, pass 2). `learned` runs as
//! `sightline eval` re-scores: without the JSON explanations' feature contributions. The
//! record's page type (`extract::page_type::predict`), made once a page beside the
//! algorithms, is timed apart: its mean and 90th percentile.
//!
//! Usage: cargo run --release --example score_speed -- DIR [EVERY=1] [ALGORITHM=learned] [REPS=1]
//! where DIR holds `<dataset>/<id>.json` (`sightline eval --save-snapshots DIR`); every
//! EVERY-th file (sorted) of each dataset is used. Prints one line of pages/s on stdout.

#![forbid(unsafe_code)]

use std::time::{Duration, Instant};

use sightline::extract::learned::{features, model::Model, pass2, schema};
use sightline::{Algorithm, Params, Snapshot, Tree};

/// This thread's user + system CPU seconds (Linux `/proc/thread-self/stat`, clock ticks of
/// 1/100 s); 0 elsewhere. The machine may be shared: CPU time is the steadier measure.
fn thread_cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/thread-self/stat") else {
        return 0.0;
    };
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<&str> = rest.split_whitespace().collect();
    let tick = |k: usize| f.get(k).and_then(|x| x.parse::<f64>().ok()).unwrap_or(0.0);
    (tick(11) + tick(12)) / 100.0
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = std::path::PathBuf::from(args.first().map_or("snapshots", String::as_str));
    let every: usize = args.get(1).map_or(Ok(1), |s| s.parse())?;
    let algorithm: Algorithm = match args.get(2) {
        Some(a) => a.parse().map_err(|e| anyhow::anyhow!("{e}"))?,
        None => Algorithm::Learned,
    };
    let reps: usize = args.get(3).map_or(Ok(1), |s| s.parse())?;
    let mut files = Vec::new();
    let mut sets: Vec<_> = std::fs::read_dir(&dir)?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    sets.sort();
    for s in sets {
        let mut fs: Vec<_> = std::fs::read_dir(&s)?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        fs.sort();
        files.extend(fs.into_iter().step_by(every.max(1)));
    }
    let snaps: Vec<Snapshot> = files
        .iter()
        .map(|p| {
            let json = std::fs::read_to_string(p)?;
            Ok(Snapshot::from_json(&json, &p.display().to_string())?)
        })
        .collect::<anyhow::Result<_>>()?;
    eprintln!("loaded {} snapshots from {}", snaps.len(), dir.display());
    // As `sightline eval` re-scores (text only): no feature contributions.
    let params = Params::default().text_only();
    let model = Model::shipped()?;
    let (mut t_tree, mut t_feat, mut t_p1, mut t_p2, mut t_all) = (
        Duration::ZERO,
        Duration::ZERO,
        Duration::ZERO,
        Duration::ZERO,
        Duration::ZERO,
    );
    let mut sink = 0usize;
    let mut t_type = Vec::with_capacity(snaps.len());
    for snap in &snaps {
        let t = Instant::now();
        let kind = sightline::extract::page_type::predict(snap, None)?;
        t_type.push(t.elapsed().as_secs_f64() * 1000.0);
        sink += kind.kind.name().len();
    }
    t_type.sort_by(f64::total_cmp);
    if !t_type.is_empty() {
        eprintln!(
            "page type, ms a page: mean {:.2}, 90th percentile {:.2}, max {:.2}",
            t_type.iter().sum::<f64>() / t_type.len() as f64,
            t_type[(t_type.len() * 9 / 10).min(t_type.len() - 1)],
            t_type[t_type.len() - 1]
        );
    }
    let cpu0 = thread_cpu_seconds();
    for _ in 0..reps {
        for snap in &snaps {
            let t = Instant::now();
            let tree = Tree::new(snap);
            let ex = sightline::extract::extract_tree(&tree, algorithm, &params);
            sink += sightline::output::text::render(&tree, &ex).len();
            t_all += t.elapsed();
            if algorithm == Algorithm::Learned {
                let t = Instant::now();
                let tree = Tree::new(snap);
                t_tree += t.elapsed();
                let t = Instant::now();
                let pf = features::page_features(&tree, &params);
                t_feat += t.elapsed();
                let t = Instant::now();
                let (f1, f2) = model.forests();
                let p1 = f1.predict(&pf.rows, schema::FEATURES.len());
                t_p1 += t.elapsed();
                let t = Instant::now();
                let rows2 = pass2::pass2_features(&pf, &p1);
                let p2 = f2.predict(&rows2, schema::PASS2_FEATURES.len());
                t_p2 += t.elapsed();
                sink += p2.len();
            }
        }
    }
    let cpu = thread_cpu_seconds() - cpu0;
    let n = (snaps.len() * reps) as f64;
    let ms = |d: Duration| d.as_secs_f64() * 1000.0 / n;
    if algorithm == Algorithm::Learned {
        eprintln!(
            "phases, ms a page: tree {:.2}, features {:.2}, pass 1 {:.2}, pass 2 {:.2}",
            ms(t_tree),
            ms(t_feat),
            ms(t_p1),
            ms(t_p2)
        );
    }
    // With the learned phases timed too, the loop's CPU time covers more than the pipeline:
    // scale it by the pipeline's share of the wall time.
    let timed = t_all + t_tree + t_feat + t_p1 + t_p2;
    let cpu_all = cpu * t_all.as_secs_f64() / timed.as_secs_f64().max(1e-9);
    println!(
        "{algorithm}: {:.2} ms a page, {:.0} pages/s on one thread by wall time; {:.2} CPU-ms a page, {:.0} pages/s by this thread's CPU time ({} pages x {reps}, tree + extract + text writer; checksum {sink})",
        ms(t_all),
        n / t_all.as_secs_f64(),
        cpu_all * 1000.0 / n,
        n / cpu_all.max(1e-9),
        snaps.len()
    );
    Ok(())
}
