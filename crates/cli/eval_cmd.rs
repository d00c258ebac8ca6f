//! `sightline eval`: render the benchmark offline, score, report, gate.
use std::io::{IsTerminal, Write};
use std::path::Path;

use anyhow::{bail, Context, Result};
use sightline::eval::gate::{self, Baseline};
use sightline::eval::peers::PeerTable;
use sightline::eval::report;
use sightline::eval::run::{self, EvalConfig, RunStats};
use sightline::eval::sample::Sample;
use sightline::eval::table;
use sightline::eval::Results;
use sightline::extract::Algorithm;
use sightline::{Extractor, Options};

use crate::cli::{exit, EvalArgs};

/// `sightline eval`, in steps:
/// 1. with `--table REPORT.json`: that saved report's quality table on stdout, and done;
/// 2. [`measure`]: every page scored: re-scored from the texts in `--out` (`--rescore`), or
///    rendered (or read from `--from-snapshots`) and scored, with progress ([`Progress`]);
/// 3. [`write_reports`]: report.md and report.json in `--out`, the report (or with `--table`
///    the quality table) on stdout;
/// 4. with `--gate`, [`check_gate`]: the results checked against the baseline's floors, or written
///    as its new floors (`--update`).
pub async fn run(a: EvalArgs, quiet: bool) -> Result<i32> {
    let default = sightline::extract::DEFAULT_ALGORITHM.name();
    if let Some(report) = a.table.as_ref().filter(|p| !p.as_os_str().is_empty()) {
        print!("{}", table::table_from_file(report, &a.bench, default)?);
        return Ok(exit::OK);
    }
    let (results, stats) = measure(&a, quiet).await?;
    write_reports(&a, &results, stats.as_ref(), quiet)?;
    match &a.gate {
        None => Ok(exit::OK),
        Some(gate_path) => check_gate(&a, &results, gate_path),
    }
}

/// The results of every page: re-scored from `--out` without rendering, or measured by
/// [`render_and_score`] (with the run's statistics).
async fn measure(a: &EvalArgs, quiet: bool) -> Result<(Results, Option<RunStats>)> {
    let names = a.algorithms.iter().map(String::as_str);
    let algorithms =
        Algorithm::parse_list(names, &Algorithm::main_content()).map_err(anyhow::Error::msg)?;
    let params = crate::cli::load_params(&a.params)?;
    let model = crate::cli::load_model(&a.model)?;
    if a.rescore {
        return Ok((
            sightline::eval::rescore::rescore_dir(&a.out, &a.bench)?,
            None,
        ));
    }
    let cfg = EvalConfig {
        root: a.bench.clone(),
        datasets: a.datasets.clone(),
        algorithms: algorithms.clone(),
        limit: a.limit,
        every: a.every,
        sample: a.sample.map(|per_dataset| Sample {
            per_dataset,
            seed: a.seed,
        }),
        out: a.out.clone(),
        params,
        model,
        save_snapshots: a.save_snapshots.clone(),
        from_snapshots: a.from_snapshots.clone(),
        comments_in: (!a.comments_in.is_empty()).then(|| {
            a.comments_in
                .iter()
                .filter(|d| *d != "none")
                .cloned()
                .collect()
        }),
        // The steering flags (`--block images` measures what skipping images changes).
        steer: a.render.plan()?.unwrap_or_default(),
    };
    let (res, st) = render_and_score(a, &cfg, quiet).await?;
    Ok((res, Some(st)))
}

/// Every page of `cfg` rendered offline (or read from `--from-snapshots`) and scored, with
/// progress on stderr; the browser is shut down after.
async fn render_and_score(
    a: &EvalArgs,
    cfg: &EvalConfig,
    quiet: bool,
) -> Result<(Results, RunStats)> {
    let renderer = if a.from_snapshots.is_some() {
        None
    } else {
        let mut opts = crate::cli::render_options(&a.render)?;
        opts.offline = true; // the saved pages' outside resources cannot load here; no tool in PEERS.md had them
        let mut o = Options::default().render_options(opts);
        if let Some(r) = &a.replay.replay {
            o = o.replay(r);
        }
        Some(Extractor::new(o).await?)
    };
    let mut progress = Progress::new(quiet);
    let r = match &renderer {
        Some(x) => x.evaluate(cfg, |p| progress.show(p)).await,
        None => run::from_snapshots(cfg, |p| progress.show(p)).await,
    };
    progress.finish();
    if let Some(r) = renderer {
        r.shutdown().await;
    }
    Ok(r?)
}

/// Progress on stderr: one bar per dataset on a terminal; a line every 50 pages in logs.
struct Progress {
    quiet: bool,
    tty: bool,
    /// The current dataset's bar.
    bar: Option<(String, indicatif::ProgressBar)>,
}

impl Progress {
    fn new(quiet: bool) -> Self {
        Progress {
            quiet,
            tty: std::io::stderr().is_terminal(),
            bar: None,
        }
    }

    fn show(&mut self, p: run::Progress<'_>) {
        if self.quiet {
            return;
        }
        if !self.tty {
            if p.done % 50 == 0 || p.done == p.total {
                eprintln!(
                    "{}: {}/{} pages, {:.2} pages/s, {} failed",
                    p.dataset,
                    p.done,
                    p.total,
                    p.done as f64 / p.elapsed_s.max(1e-9),
                    p.failures
                );
            }
            return;
        }
        if self.bar.as_ref().is_none_or(|(d, _)| d != p.dataset) {
            if let Some((_, b)) = self.bar.take() {
                b.finish();
            }
            let b = crate::ui::progress_bar(p.total as u64, self.quiet);
            b.set_prefix(p.dataset.to_string());
            self.bar = Some((p.dataset.to_string(), b));
        }
        if let Some((_, b)) = &self.bar {
            b.set_position(p.done as u64);
            b.set_message(format!("{} failed", p.failures));
        }
    }

    fn finish(mut self) {
        if let Some((_, b)) = self.bar.take() {
            b.finish();
        }
    }
}

/// report.md (with the run's statistics) and report.json in `--out`; the report, or with
/// `--table` the quality table, on stdout.
fn write_reports(
    a: &EvalArgs,
    results: &Results,
    stats: Option<&RunStats>,
    quiet: bool,
) -> Result<()> {
    let default = sightline::extract::DEFAULT_ALGORITHM.name();
    let peers = PeerTable::load(&a.bench.join("PEERS.md")).ok();
    let mut md = report::markdown(results, peers.as_ref());
    if let Some(st) = stats {
        md.push_str(&run_notes(st));
    }
    std::fs::create_dir_all(&a.out)
        .with_context(|| format!("cannot create {}", a.out.display()))?;
    std::fs::write(a.out.join("report.md"), &md)
        .with_context(|| format!("cannot write {}/report.md", a.out.display()))?;
    let mut json: serde_json::Value = serde_json::from_str(&report::json(results, peers.as_ref()))?;
    if let Some(st) = stats {
        json["run"] = serde_json::to_value(st)?;
    }
    std::fs::write(
        a.out.join("report.json"),
        serde_json::to_string_pretty(&json)?,
    )?;
    let mut out = std::io::stdout().lock();
    if a.table.is_some() {
        let json = serde_json::to_string(&json)?;
        out.write_all(table::table_from_json(&json, "report", &a.bench, default)?.as_bytes())?;
    } else {
        out.write_all(md.as_bytes())?;
    }
    out.flush()?;
    if !quiet {
        eprintln!("report: {}/report.md and report.json", a.out.display());
    }
    Ok(())
}

/// The report's lines on the run: pages, render time, repairs, scoring time, skipped
/// requests, reader comments.
fn run_notes(st: &RunStats) -> String {
    let mut md = String::new();
    md.push_str(&format!(
        "\nRun: {} pages rendered offline; {:.1} s of rendering; pages whose scripts tried to navigate away (blocked): {}; pages whose scripts would have blanked them with document.write after load (blocked): {}; pages re-rendered with an unclosed <title> closed: {}; pages rendered again with JavaScript disabled (the scripted render lost the HTML's text): {}; pages captured without a load event: {}.\nScoring time per algorithm (s): {}\n",
        st.pages,
        st.render_s,
        st.pages_with_blocked_navigation,
        st.pages_with_blocked_document_writes,
        st.pages_repaired,
        st.pages_js_fallback,
        st.pages_load_timed_out,
        st.score_s.iter().map(|(k, v)| format!("{k} {v:.3}")).collect::<Vec<_>>().join(", ")
    ));
    let skipped = &st.requests_skipped;
    if skipped.total() > 0 {
        md.push_str(&format!(
            "Requests skipped (--block): {} images (answered with a placeholder that keeps their boxes), {} media, {} fonts.\n",
            skipped.images, skipped.media, skipped.fonts
        ));
    }
    if !st.lanes.is_empty() {
        md.push_str(&format!(
            "Render lanes (--render): {}.\n",
            st.lanes
                .iter()
                .map(|(k, v)| format!("{v} {k}"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if !st.comments_kept_in.is_empty() {
        md.push_str(&format!(
            "Reader comments: `learned` kept them (`--comments`) on {}, whose gold keeps them; on the other datasets it dropped them, as their gold does (`--comments-in` changes this).\n",
            st.comments_kept_in.join(", ")
        ));
    }
    md
}

/// `--gate FILE`: the results checked against the baseline's floors (exit 2 when one is
/// missed), or with `--update` written as its new floors (refused when one would go down,
/// unless `--allow-regression`).
fn check_gate(a: &EvalArgs, results: &Results, gate_path: &Path) -> Result<i32> {
    let default = sightline::extract::DEFAULT_ALGORITHM.name();
    let base: Baseline = serde_json::from_str(
        &std::fs::read_to_string(gate_path)
            .with_context(|| format!("cannot read baseline {}", gate_path.display()))?,
    )
    .with_context(|| format!("baseline {} is not valid JSON", gate_path.display()))?;
    if a.update {
        match gate::update(results, &base, default, a.allow_regression) {
            Ok(next) => {
                std::fs::write(gate_path, serde_json::to_string_pretty(&next)? + "\n")?;
                eprintln!("gate: floors written to {}", gate_path.display());
                Ok(exit::OK)
            }
            Err(lowered) => bail!(
                "refusing to loosen quality bounds (pass --allow-regression to accept):\n  {}",
                lowered.join("\n  ")
            ),
        }
    } else {
        let missed = gate::check(results, &base, default)
            .map_err(|e| anyhow::anyhow!("gate: {}: {e}", gate_path.display()))?;
        for m in &missed {
            eprintln!("gate: {m}");
        }
        if missed.is_empty() {
            eprintln!(
                "gate: every bound met ({} algorithm × dataset entries; `{default}` on \
                 F1, precision, recall, failures and empty outputs)",
                base.floors.values().map(|m| m.len()).sum::<usize>()
            );
            Ok(exit::OK)
        } else {
            Ok(exit::ERROR)
        }
    }
}
