//! The `sightline` binary: parse arguments, call the library's front door
//! ([`sightline::Extractor`]), map outcomes to exit codes. The batch runner, the page
//! pipeline and the output layout live in the library ([`sightline::batch`]); the services
//! in `sightline-serve`. This file is glue: `snapshot` and `scores`, the signals.
//!
//! # Layout
//! - `crawl_args`: the flags of `crawl` and `map` beside the rendering ones (the library's
//!   `CrawlSettings` flattened).
//! - `crawl_cmd`: `sightline crawl` and `sightline map`.
//! - `cli`: the arguments (clap), their conversion to library options, exit codes, hints.
//! - `scoring_args`: the flags that choose how each page is scored, shared by `extract`,
//!   `serve` and `mcp`.
//! - `shared`: the exit codes, the hints on library errors, the loaders of `--params` and `--model`.
//! - `train_args`: the flags of `sightline train`, read into one training run.
//! - `extract_cmd`: `sightline extract`: inputs, options, extractor, run, report.
//! - `eval_cmd`: `sightline eval` (the benchmark, the gate, the quality table).
//! - `serve_cmd`: `sightline serve`: start, bind, serve, drain.
//! - `mcp_cmd`: `sightline mcp` over stdio.
//! - `ui`: progress on stderr.

mod cli;
mod crawl_args;
mod crawl_cmd;
mod eval_cmd;
mod extract_cmd;
mod mcp_cmd;
mod scoring_args;
mod serve_cmd;
mod shared;
mod train_args;
mod ui;

use std::io::Write;
use std::path::Path;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::Parser;

use cli::{exit, load_model, load_params, render_options};
use cli::{Cli, Command, ScoresArgs, SnapshotArgs};
use sightline::batch::Cancel;
use sightline::{Extractor, Options, Snapshot, Tree};

fn main() {
    let cli = Cli::parse();
    let level = if cli.quiet {
        "error"
    } else {
        match cli.verbose {
            0 => "warn",
            1 => "info",
            _ => "debug",
        }
    };
    let filter =
        tracing_subscriber::EnvFilter::try_from_env("SIGHTLINE_LOG").unwrap_or_else(|_| {
            tracing_subscriber::EnvFilter::new(format!("sightline={level},chromiumoxide=error"))
        });
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(filter)
        .with_target(false)
        .init();
    let rt = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            std::process::exit(exit::ERROR);
        }
    };
    let code = rt.block_on(async {
        let r = match cli.command {
            Command::Extract(a) => extract_cmd::run(a, cli.quiet).await,
            Command::Crawl(a) => crawl_cmd::run_crawl(a, cli.quiet).await,
            Command::Map(a) => crawl_cmd::run_map(a).await,
            Command::Snapshot(a) => {
                exit_on_signal();
                run_snapshot(a).await
            }
            Command::Scores(a) => run_scores(a),
            Command::Eval(a) => {
                exit_on_signal();
                eval_cmd::run(a, cli.quiet).await
            }
            Command::Serve(a) => serve_cmd::run(a, cli.quiet).await,
            Command::Mcp(a) => mcp_cmd::run(a, cli.quiet).await,
            Command::Train(a) => sightline::eval::train::run(&a.to_run(), |m| {
                if !cli.quiet {
                    eprintln!("{m}")
                }
            })
            .map(|report| {
                print!("{report}");
                exit::OK
            })
            .map_err(Into::into),
        };
        r.unwrap_or_else(|e| {
            eprintln!("error: {}", report(&e));
            exit::ERROR
        })
    });
    rt.shutdown_timeout(Duration::from_secs(2));
    // Browsers a task still held when the runtime stopped waiting (normally none).
    sightline::end_all_now();
    std::process::exit(code);
}

/// An error for stderr: its chain of causes, each said once (a library error's message
/// often quotes its source already), and the CLI's hint for a library error.
fn report(e: &anyhow::Error) -> String {
    let mut s = String::new();
    let mut hint = None;
    for cause in e.chain() {
        let m = cause.to_string();
        if !s.contains(&m) {
            if !s.is_empty() {
                s.push_str(": ");
            }
            s.push_str(&m);
        }
        if let Some(se) = cause.downcast_ref::<sightline::Error>() {
            hint = hint.or_else(|| cli::hint(se));
        }
    }
    match hint {
        Some(h) => format!("{s} ({h})"),
        None => s,
    }
}

/// Ctrl-C or SIGTERM (a batch scheduler stopping the job) for `extract` and `crawl`: stop
/// taking new pages, finish the ones in flight, shut the browser down; a second signal exits
/// at once. Call it before the browser starts, so a signal during the launch does not kill
/// sightline and leave Chromium running.
fn signal_cancel() -> Cancel {
    let cancel = Cancel::new();
    let c2 = cancel.clone();
    tokio::spawn(async move {
        let mut term = term_signal();
        if stop_signal(&mut term).await {
            c2.cancel();
            eprintln!("\ninterrupted: finishing the pages in flight (Ctrl-C again to quit now)");
            if stop_signal(&mut term).await {
                exit_interrupted();
            }
        }
    });
    cancel
}

/// For commands without an orderly stop (`eval`, `snapshot`): on Ctrl-C or SIGTERM, end every
/// browser this process launched (with its profile) and exit 130, instead of the default
/// action, which would leave Chromium running.
fn exit_on_signal() {
    tokio::spawn(async {
        let mut term = term_signal();
        if stop_signal(&mut term).await {
            eprintln!("\ninterrupted");
            exit_interrupted();
        }
    });
}

/// Exit 130 at once, skipping the orderly shutdown: Chromium would outlive such an exit, so
/// every browser this process launched is ended (with its profile) first.
fn exit_interrupted() -> ! {
    sightline::end_all_now();
    std::process::exit(exit::INTERRUPTED);
}

/// SIGINT (Ctrl-C) and SIGTERM, as streams made once: a signal that arrives while nobody is
/// waiting on them (a second Ctrl-C right after the first, before its message is printed) is
/// kept for the next wait, not lost, as it would be between two `ctrl_c()` futures.
#[cfg(unix)]
struct TermSignal {
    int: Option<tokio::signal::unix::Signal>,
    term: Option<tokio::signal::unix::Signal>,
}
#[cfg(not(unix))]
type TermSignal = ();

#[cfg(unix)]
fn term_signal() -> TermSignal {
    use tokio::signal::unix::{signal, SignalKind};
    TermSignal {
        int: signal(SignalKind::interrupt()).ok(),
        term: signal(SignalKind::terminate()).ok(),
    }
}
#[cfg(not(unix))]
fn term_signal() -> TermSignal {}

/// Wait for Ctrl-C or SIGTERM; true when one arrived.
async fn stop_signal(signals: &mut TermSignal) -> bool {
    #[cfg(unix)]
    match (signals.int.as_mut(), signals.term.as_mut()) {
        (Some(i), Some(t)) => {
            return tokio::select! {
                r = i.recv() => r.is_some(),
                r = t.recv() => r.is_some(),
            }
        }
        (Some(i), None) => return i.recv().await.is_some(),
        (None, Some(t)) => {
            return tokio::select! {
                r = tokio::signal::ctrl_c() => r.is_ok(),
                r = t.recv() => r.is_some(),
            }
        }
        (None, None) => {}
    }
    let _ = signals;
    tokio::signal::ctrl_c().await.is_ok()
}

async fn run_snapshot(a: SnapshotArgs) -> Result<i32> {
    let mut opts = Options::default().render_options(render_options(&a.render)?);
    if let Some(c) = &a.render.charset {
        opts = opts.charset(c);
    }
    if let Some(plan) = a.render.plan()? {
        opts = opts.steer(plan);
    }
    let extractor = Extractor::new(opts).await?;
    let r = extractor.snapshot_json(a.input.as_str()).await;
    extractor.shutdown().await;
    write_to(a.output.as_deref(), &(r? + "\n"))?;
    Ok(exit::OK)
}

/// `sightline scores`: one algorithm's per-node quantities of a saved snapshot.
fn run_scores(a: ScoresArgs) -> Result<i32> {
    let algorithm: sightline::Algorithm = a.algorithm.parse().map_err(anyhow::Error::msg)?;
    let params = load_params(&a.params)?;
    let model = load_model(&a.model)?;
    let json = std::fs::read_to_string(&a.snapshot)
        .with_context(|| format!("cannot read snapshot {}", a.snapshot.display()))?;
    let snap = Snapshot::from_json(&json, &a.snapshot.display().to_string())?;
    let scores = sightline::scores::node_scores_with(
        &Tree::new(&snap),
        algorithm,
        &params,
        model.as_deref(),
    );
    let body = match a.format.as_str() {
        "csv" => sightline::output::scores::csv(&scores),
        "jsonl" | "json" => sightline::output::scores::jsonl(&scores),
        f => bail!("unknown format `{f}`: expected csv or jsonl"),
    };
    write_to(a.output.as_deref(), &body)?;
    Ok(exit::OK)
}

fn write_to(path: Option<&Path>, body: &str) -> Result<()> {
    match path {
        None => {
            let mut o = std::io::stdout().lock();
            o.write_all(body.as_bytes())?;
            o.flush()?;
        }
        Some(p) => {
            std::fs::write(p, body).with_context(|| format!("cannot write {}", p.display()))?
        }
    }
    Ok(())
}
