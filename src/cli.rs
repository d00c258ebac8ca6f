//! Command-line arguments (clap derive). Thin: parsing only; `main.rs` calls the library.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// Exit codes, documented in `--help`.
pub mod exit {
    /// Every input extracted.
    pub const OK: i32 = 0;
    /// Every input rendered, but at least one produced no content.
    pub const NOTHING: i32 = 1;
    /// At least one input failed (bad input, timeout, crash, browser error, bad arguments).
    pub const ERROR: i32 = 2;
    /// Interrupted (Ctrl-C): in-flight pages were recorded, no new page was started.
    pub const INTERRUPTED: i32 = 130;
}

const AFTER_HELP: &str = "\
Exit codes:
  0    every input extracted
  1    every input rendered, but at least one produced no content
  2    at least one input failed (its error is on stderr and in its output record)
  130  interrupted (Ctrl-C)

Chromium is found from --chrome, then $CHROME, then chromium / chromium-browser /
google-chrome on PATH (Debian: apt-get install -y chromium).";

/// Render pages in headless Chromium and extract their main content from the real layout.
#[derive(Debug, Parser)]
#[command(name = "sightline", version, about, after_help = AFTER_HELP)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// More logging on stderr (-v info, -vv debug).
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,
    /// No progress or log output on stderr (errors are still printed).
    #[arg(short, long, global = true)]
    pub quiet: bool,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Render pages and extract their main content.
    ///
    /// INPUT is a URL, a path to an HTML file, or - for HTML on stdin. Several inputs share
    /// one browser and its tab pool. Example:
    ///   sightline extract https://example.com/article --format json
    #[command(after_help = AFTER_HELP)]
    Extract(ExtractArgs),
    /// Render a page and save its layout snapshot (JSON) for later scoring without a browser.
    ///
    /// Example: sightline snapshot page.html -o page.json
    ///          sightline extract --snapshot page.json --algorithm ctd
    #[command(after_help = AFTER_HELP)]
    Snapshot(SnapshotArgs),
    /// Measure extraction quality against the benchmark's human gold text.
    ///
    /// Renders each page once (offline), runs every requested algorithm on the one snapshot,
    /// scores it (Song et al. eq. 6-9) and writes OUT/<algorithm>/<dataset>/<id>.txt and a
    /// report. Example: sightline eval --dataset cleaneval --limit 50 --algorithm htd
    Eval(EvalArgs),
    /// Train the `learned` model from the benchmark's gold and saved snapshots (no browser).
    ///
    /// Reads only --bench (manifests, gold) and --snapshots (from `eval --save-snapshots`).
    /// Deterministic: the same inputs give a byte-identical model. Example:
    ///   sightline train --snapshots snaps --model models/learned.json --lodo
    Train(TrainArgs),
}

/// Options of the browser and of page loading, shared by every rendering subcommand.
#[derive(Debug, Args, Clone)]
pub struct RenderArgs {
    /// Chromium executable (default: $CHROME, then chromium on PATH).
    #[arg(long, value_name = "PATH")]
    pub chrome: Option<PathBuf>,
    /// Use an already running Chromium (its DevTools WebSocket URL) instead of launching one.
    #[arg(long, value_name = "ws://...")]
    pub browser_ws: Option<String>,
    /// Abort every request except the page's own document and same-origin loopback
    /// resources: nothing leaves the machine (tests and benchmarks use this).
    #[arg(long)]
    pub offline: bool,
    /// Deadline for one page in seconds (navigation, settling, snapshot).
    #[arg(long, default_value_t = 15.0, value_name = "SECONDS")]
    pub timeout: f64,
    /// The page is settled after load when no request is in flight and the DOM has not
    /// changed for this many milliseconds.
    #[arg(long, default_value_t = 300, value_name = "MS")]
    pub quiet_ms: u64,
    /// Viewport size in CSS px.
    #[arg(long, default_value = "1366x900", value_name = "WxH")]
    pub viewport: String,
    /// Tabs rendering at once (one browser, a pool of reused tabs; default: the number of
    /// cores, at most 8).
    #[arg(long, short = 'j', value_name = "N")]
    pub concurrency: Option<usize>,
    /// Extra Chromium flag, without leading dashes (repeatable).
    #[arg(long = "chrome-arg", value_name = "FLAG")]
    pub chrome_args: Vec<String>,
    /// Charset of file and stdin inputs when the page does not declare one (served with it
    /// in Content-Type).
    #[arg(long, value_name = "LABEL")]
    pub charset: Option<String>,
    /// Fail pages whose snapshot has more nodes than this.
    #[arg(long, default_value_t = 200_000, value_name = "N")]
    pub max_nodes: usize,
}

#[derive(Debug, Args)]
pub struct ExtractArgs {
    /// URLs, HTML files, or - for HTML on stdin.
    #[arg(value_name = "INPUT", required_unless_present_any = ["snapshot", "input_list"])]
    pub inputs: Vec<String>,
    /// Read inputs from FILE, one URL or path per line (# comments and blank lines skipped);
    /// - reads the list from stdin.
    #[arg(
        long = "input",
        short = 'i',
        value_name = "FILE",
        conflicts_with = "snapshot"
    )]
    pub input_list: Option<PathBuf>,
    /// Score a saved snapshot (from `sightline snapshot`) instead of rendering; no browser.
    #[arg(long, value_name = "FILE", conflicts_with = "inputs")]
    pub snapshot: Option<PathBuf>,
    /// learned (sightline's classifier, the default), td, ctd, htd, ctd-smooth, wang, vsse,
    /// vsse-records, crunch, blocks, ensemble, or all (one render, every algorithm).
    #[arg(long, short, default_value = "learned", value_name = "A")]
    pub algorithm: String,
    /// text (one paragraph per line), html (cleaned content subtrees), markdown, or json /
    /// jsonl (everything: scores, content nodes, timings; exactly one object per input per
    /// line, errors included).
    #[arg(long, short, default_value = "text", value_name = "FORMAT")]
    pub format: String,
    /// Write to FILE, or into DIR as <slug>.<ext> per page plus DIR/index.jsonl (one record
    /// per input). Several inputs in a non-JSON format always go to a directory.
    #[arg(long, short, value_name = "FILE|DIR")]
    pub output: Option<PathBuf>,
    /// Skip inputs that already have a record in the output (DIR/index.jsonl or the JSON
    /// Lines FILE), appending the rest: an interrupted run continues where it stopped.
    #[arg(long, requires = "output")]
    pub resume: bool,
    /// Full-page PNG taken after the snapshot: to FILE, into DIR for several inputs, or with
    /// no value next to the outputs in -o DIR.
    #[arg(long, value_name = "FILE|DIR", num_args = 0..=1, default_missing_value = "")]
    pub screenshot: Option<PathBuf>,
    /// The screenshot with the extraction drawn on it (content outlined, removed boxes shaded,
    /// density heat map or block tree): to FILE, into DIR, or with no value into -o DIR.
    #[arg(long, value_name = "FILE|DIR", num_args = 0..=1, default_missing_value = "")]
    pub annotate: Option<PathBuf>,
    /// Cut screenshots at this height in CSS px (the record says `screenshot_truncated`).
    #[arg(long, default_value_t = 16_384, value_name = "PX")]
    pub max_screenshot_height: u32,
    /// Fail pages whose visible text is larger than this many bytes.
    #[arg(long, default_value_t = 20_000_000, value_name = "BYTES")]
    pub max_text_bytes: usize,
    /// Algorithm parameters as JSON (any subset of the fields of `Params`; see README).
    #[arg(long, value_name = "FILE")]
    pub params: Option<PathBuf>,
    /// Replace the Crunch advertisement-host list with FILE (one host per line).
    #[arg(long, value_name = "FILE")]
    pub ad_hosts: Option<PathBuf>,
    #[command(flatten)]
    pub render: RenderArgs,
}

#[derive(Debug, Args)]
pub struct SnapshotArgs {
    /// A URL, an HTML file, or - for HTML on stdin.
    #[arg(value_name = "INPUT")]
    pub input: String,
    /// Where to write the snapshot JSON (default: stdout).
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub render: RenderArgs,
}

#[derive(Debug, Args)]
pub struct EvalArgs {
    /// Benchmark root holding <dataset>/manifest.jsonl, html/, gold/.
    #[arg(long, default_value = "../shared/bench", value_name = "DIR")]
    pub bench: PathBuf,
    /// Datasets to run (default: every dataset under --bench).
    #[arg(long = "dataset", value_name = "NAME")]
    pub datasets: Vec<String>,
    /// Algorithms to score (default: all), from one render per page.
    #[arg(long = "algorithm", short, value_name = "A")]
    pub algorithms: Vec<String>,
    /// At most N pages per dataset (the first N ids in sorted order).
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// Take every K-th page (with --limit: a spread sample instead of the first pages).
    #[arg(long, default_value_t = 1, value_name = "K")]
    pub every: usize,
    /// Output directory for texts and reports.
    #[arg(long, default_value = "out/eval", value_name = "DIR")]
    pub out: PathBuf,
    /// Re-score the texts already in --out without rendering.
    #[arg(long)]
    pub rescore: bool,
    /// Save every page's snapshot as DIR/<dataset>/<id>.json (to re-score later without a
    /// browser).
    #[arg(long, value_name = "DIR")]
    pub save_snapshots: Option<PathBuf>,
    /// Score snapshots saved with --save-snapshots instead of rendering (no browser).
    #[arg(long, value_name = "DIR", conflicts_with = "save_snapshots")]
    pub from_snapshots: Option<PathBuf>,
    /// Check the results against a baseline of F1 floors (the CI quality gate).
    #[arg(long, value_name = "FILE")]
    pub gate: Option<PathBuf>,
    /// With --gate: write the measured F1 (minus the tolerance) as the new floors.
    #[arg(long, requires = "gate")]
    pub update: bool,
    /// With --update: allow a floor to go down.
    #[arg(long, requires = "update")]
    pub allow_regression: bool,
    /// Algorithm parameters as JSON.
    #[arg(long, value_name = "FILE")]
    pub params: Option<PathBuf>,
    #[command(flatten)]
    pub render: RenderArgs,
}

#[derive(Debug, Args)]
pub struct TrainArgs {
    /// Benchmark root holding <dataset>/manifest.jsonl and gold/.
    #[arg(long, default_value = "../shared/bench", value_name = "DIR")]
    pub bench: PathBuf,
    /// Saved snapshots, DIR/<dataset>/<id>.json (`sightline eval --save-snapshots DIR`).
    #[arg(long, value_name = "DIR")]
    pub snapshots: PathBuf,
    /// Datasets to train on (default: cleaneval, l3s-gn1, readability, wcxb-dev).
    #[arg(long = "dataset", value_name = "NAME")]
    pub datasets: Vec<String>,
    /// Write the model trained on every dataset to FILE (the shipped one is
    /// models/learned.json, built into the binary).
    #[arg(long, value_name = "FILE")]
    pub model: Option<PathBuf>,
    /// Leave-one-dataset-out: fit on all datasets but one, score that one, for each; print
    /// the held-out table (markdown, stdout).
    #[arg(long)]
    pub lodo: bool,
    /// Worker threads for reading snapshots and scoring.
    #[arg(long, default_value_t = 2, value_name = "N")]
    pub threads: usize,
    /// With --lodo: also score each held-out set at these decision thresholds (comma list).
    #[arg(long, value_delimiter = ',', value_name = "P,..")]
    pub sweep: Vec<f64>,
}

impl TrainArgs {
    /// The library's description of this run.
    pub fn to_run(&self) -> sightline::eval::train::TrainRun {
        use sightline::eval::train::{Learner, TrainConfig, TrainRun};
        TrainRun {
            cfg: TrainConfig {
                bench: self.bench.clone(),
                snapshots: self.snapshots.clone(),
                datasets: self.datasets.clone(),
                learner: Learner::default(),
                params: sightline::Params::default(),
                threads: self.threads,
                sweep: self.sweep.clone(),
            },
            model_out: self.model.clone(),
            lodo: self.lodo,
        }
    }
}
