//! The `sightline` binary: parse arguments, call the library's front door
//! ([`sightline::Extractor`]), map outcomes to exit codes. The batch runner, the page
//! pipeline and the output layout live in the library ([`sightline::batch`]); the services
//! in `sightline-serve`. This file is glue: `extract`, `snapshot` and `scores`.
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
//! - `eval_cmd`: `sightline eval` (the benchmark, the gate, the quality table).
//! - `serve_cmd`: `sightline serve`: start, bind, serve, drain.
//! - `mcp_cmd`: `sightline mcp` over stdio.
//! - `ui`: progress on stderr.

mod cli;
mod crawl_args;
mod crawl_cmd;
mod eval_cmd;
mod mcp_cmd;
mod scoring_args;
mod serve_cmd;
mod shared;
mod train_args;
mod ui;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::Parser;

use cli::{browser_endpoints, collect_inputs, exit, load_model, load_params, render_options};
use cli::{Cli, Command, ExtractArgs, ScoresArgs, SnapshotArgs};
use sightline::batch::{self, Cancel, Dest, Job, PngTarget, SinkOptions};
use sightline::output::Format;
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
            Command::Extract(a) => run_extract(a, cli.quiet).await,
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

async fn run_extract(a: ExtractArgs, quiet: bool) -> Result<i32> {
    let format: Format = a.format.parse().map_err(anyhow::Error::msg)?;
    let scoring = a.scoring.page()?;
    let mut params = scoring.params.clone();
    // Only the JSON record shows `learned`'s feature contributions.
    if format != Format::Json {
        params = params.text_only();
    }
    if let Some(f) = &a.ad_hosts {
        let list = std::fs::read_to_string(f)
            .with_context(|| format!("cannot read --ad-hosts {}", f.display()))?;
        params.crunch.load_ad_hosts(&list);
    }
    let cfg = scoring
        .params(params)
        .format(format)
        .annotate(a.annotate.is_some())
        .charset(a.render.charset.clone())
        .hint(Some(cli::hint))
        .front_matter(a.front_matter)
        .units(a.units)
        .json_body(a.body);
    if a.units && format != Format::Json {
        bail!("--units needs -f json (the units are a field of the JSON record)");
    }
    if a.body.is_some() && format != Format::Json {
        bail!("--body needs -f json (the body is a field of the JSON record; -f FORMAT alone writes it)");
    }
    let cfg = match a.render.plan()? {
        Some(plan) => cfg.steer(plan),
        None => cfg,
    };

    // Saved snapshot: no browser.
    if let Some(path) = &a.snapshot {
        let json = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read snapshot {}", path.display()))?;
        let name = path.display().to_string();
        let snap = Snapshot::from_json(&json, &name)?;
        let cfg = cfg.annotate(false);
        let out = cfg.score(&name, &snap);
        let body = if format == Format::Json {
            serde_json::to_string(&out.record)? + "\n"
        } else {
            out.body
        };
        write_to(a.output.as_deref(), &body)?;
        return Ok(if out.empty { exit::NOTHING } else { exit::OK });
    }

    let all = collect_inputs(&a)?;
    if all.is_empty() {
        bail!("no inputs: give URLs or files, or --input FILE");
    }
    let many = all.len() > 1 || a.input_list.is_some();
    let dest = match &a.output {
        None => Dest::Stdout,
        Some(o) if o.is_dir() || (many && format != Format::Json) => Dest::Dir(o.clone()),
        Some(o) => Dest::File(o.clone()),
    };
    let png_target = |opt: &Option<PathBuf>, what: &str| -> Result<Option<PngTarget>> {
        match (opt, &dest) {
            (None, _) => Ok(None),
            (Some(p), Dest::Dir(d)) if p.as_os_str().is_empty() => Ok(Some(PngTarget {
                path: d.clone(),
                is_dir: true,
            })),
            (Some(p), _) if p.as_os_str().is_empty() => {
                bail!("--{what} without a value needs -o DIR")
            }
            (Some(p), _) => Ok(Some(PngTarget {
                path: p.clone(),
                is_dir: many || p.is_dir(),
            })),
        }
    };
    let screenshot = png_target(&a.screenshot, "screenshot")?;
    let annotate = png_target(&a.annotate, "annotate")?;
    let sink_opts = SinkOptions {
        dest,
        format,
        many,
        screenshot,
        annotate,
        resume: a.resume,
    };
    let screenshots = sink_opts.screenshot.is_some() || cfg.annotate;
    let (mut sink, skip) = batch::Sink::open(sink_opts, Box::new(std::io::stdout()))?;
    let jobs: Vec<Job> = all
        .iter()
        .enumerate()
        .filter(|(_, i)| a.shard.is_none_or(|s| s.owns(i)))
        .filter(|(_, i)| !skip.contains(*i))
        .map(|(index, input)| Job {
            index,
            input: input.clone(),
        })
        .collect();
    if !quiet {
        if let Some(s) = a.shard {
            eprintln!(
                "shard {s}: {} of {} inputs",
                all.iter().filter(|i| s.owns(i)).count(),
                all.len()
            );
        }
        if !skip.is_empty() {
            eprintln!("resume: {} inputs already have a record", skip.len());
        }
    }

    let mut opts = render_options(&a.render)?;
    opts.screenshot = screenshots;
    if a.deny_private {
        // serve's target policy, and the egress proxy that enforces it.
        opts.set_target_policy(Some(sightline::NetPolicy::default()));
    }
    let endpoints = browser_endpoints(&a.render)?;

    // Ctrl-C or SIGTERM (a batch scheduler stopping the job): stop taking new pages, finish
    // the ones in flight, shut the browser down; a second signal exits at once. Listened
    // for before the browser starts, so a signal during the launch does not kill sightline
    // and leave Chromium running.
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

    let warc_input = a.input_list.as_deref().filter(|l| cli::is_warc(l));
    let extractor = Extractor::new(
        a.archive.apply(
            Options::default()
                .render_options(opts)
                .browser_ws(endpoints)
                .page(cfg),
            warc_input,
        ),
    )
    .await?;

    let total = jobs.len();
    let bar = ui::progress_bar(total as u64, quiet);
    let summary = extractor
        .run(jobs, &cancel, &mut sink, |out, s| {
            if let Some(err) = &out.record.error {
                bar.suspend(|| eprintln!("error: {}", err.message));
            } else if out.empty && !quiet {
                bar.suspend(|| eprintln!("warning: {}: nothing extracted", out.record.input));
            }
            bar.set_message(format!("{} failed", s.failed));
            bar.inc(1);
        })
        .await;
    bar.finish_and_clear();
    let stats = extractor.stats();
    let (relaunches, recycles) = (stats.relaunches, stats.recycles);
    let archived = extractor.finish_archive();
    extractor.shutdown().await;
    archived?;
    let s = summary?;
    if !quiet && (many || s.interrupted) {
        eprintln!(
            "{} of {} inputs recorded: {} failed, {} empty{}",
            s.recorded,
            total,
            s.failed,
            s.empty,
            match (relaunches, recycles) {
                (0, 0) => String::new(),
                (d, 0) => format!(", browser relaunched {d} time(s) after dying"),
                (0, r) => format!(", browser relaunched {r} time(s) at its page or memory bound"),
                (d, r) => format!(
                    ", browser relaunched {d} time(s) after dying and {r} at its page or memory bound"
                ),
            }
        );
    }
    Ok(if s.interrupted {
        exit::INTERRUPTED
    } else if s.failed > 0 {
        exit::ERROR
    } else if s.empty > 0 {
        exit::NOTHING
    } else {
        exit::OK
    })
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
