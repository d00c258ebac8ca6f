//! The features `--render auto` reads in a main document, and the lane its rules choose, for
//! every page of a benchmark root: the inputs of `scripts/lane-classifier` (issue 49's learned
//! decision).
//!
//! Usage: cargo run --release --example lane_features -- BENCH_ROOT > features.jsonl
//! where BENCH_ROOT holds `<dataset>/manifest.jsonl` and `<dataset>/html/<id>.html.gz`. One
//! JSON line per page: `dataset`, `id`, `lane` and `reason` (the rules' choice, as served
//! with status 200 as `text/html`), and the features (`sightline_render::lane::LaneFeatures`).
//! Pages are decoded as UTF-8, invalid bytes replaced: the features count ASCII markup.

#![forbid(unsafe_code)]

use std::io::{BufRead, Read, Write};

use sightline_render::lane::{choose, features, Lane, LaneParams};

fn main() -> anyhow::Result<()> {
    let Some(root) = std::env::args().nth(1) else {
        anyhow::bail!("usage: lane_features BENCH_ROOT (a directory of <dataset>/manifest.jsonl)");
    };
    let p = LaneParams::default();
    let mut out = std::io::stdout().lock();
    let mut datasets: Vec<_> = std::fs::read_dir(&root)?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|d| d.join("manifest.jsonl").is_file())
        .collect();
    datasets.sort();
    for d in datasets {
        let name = d
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let manifest = std::io::BufReader::new(std::fs::File::open(d.join("manifest.jsonl"))?);
        for line in manifest.lines() {
            let line = line?;
            if line.trim().is_empty() {
                continue;
            }
            let m: serde_json::Value = serde_json::from_str(&line)?;
            let Some(id) = m.get("id").and_then(|v| v.as_str()) else {
                continue;
            };
            let path = d.join("html").join(format!("{id}.html.gz"));
            let mut bytes = Vec::new();
            flate2::read::GzDecoder::new(std::fs::File::open(&path)?).read_to_end(&mut bytes)?;
            let html = String::from_utf8_lossy(&bytes);
            let c = choose(200, "text/html", &html, &p);
            let mut v = serde_json::to_value(features(&html, &p))?;
            v["dataset"] = name.clone().into();
            v["id"] = id.into();
            v["lane"] = if c.lane == Lane::Static {
                "static"
            } else {
                "full"
            }
            .into();
            v["reason"] = c.reason.into();
            writeln!(out, "{v}")?;
        }
    }
    Ok(())
}
