//! The `sightline` binary: parse arguments, call the library, map outcomes to exit codes.

mod cli;

use std::collections::{BTreeMap, HashSet};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use clap::Parser;
use futures::StreamExt;

use cli::{exit, Cli, Command, ExtractArgs, RenderArgs, SnapshotArgs};
use sightline::extract::{extract_tree, Algorithm, Params};
use sightline::output::json::{AlgorithmResult, ErrorInfo, Record, Timings};
use sightline::output::{annotate, html, markdown, text, Format};
use sightline::render::{BrowserSource, Input, RenderOptions, Renderer};
use sightline::{Snapshot, Tree};

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
            Command::Snapshot(a) => run_snapshot(a).await,
            Command::Eval(a) => eval_cmd::run(a, cli.quiet).await,
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
        match r {
            Ok(code) => code,
            Err(e) => {
                eprintln!("error: {e:#}");
                exit::ERROR
            }
        }
    });
    rt.shutdown_timeout(Duration::from_secs(2));
    std::process::exit(code);
}

mod eval_cmd {
    //! `sightline eval`: render the benchmark offline, score, report, gate.
    use std::io::{IsTerminal, Write};

    use anyhow::{bail, Context, Result};
    use sightline::eval::gate::{self, Baseline};
    use sightline::eval::peers::PeerTable;
    use sightline::eval::report;
    use sightline::eval::run::{self, EvalConfig};
    use sightline::extract::Algorithm;
    use sightline::render::Renderer;

    use super::cli::{exit, EvalArgs};

    pub async fn run(a: EvalArgs, quiet: bool) -> Result<i32> {
        let algorithms: Vec<Algorithm> =
            if a.algorithms.is_empty() || a.algorithms.iter().any(|x| x == "all") {
                Algorithm::ALL
                    .iter()
                    .copied()
                    .filter(|x| *x != Algorithm::VsseRecords)
                    .collect()
            } else {
                a.algorithms
                    .iter()
                    .flat_map(|s| s.split(','))
                    .map(|s| s.trim().parse::<Algorithm>().map_err(anyhow::Error::msg))
                    .collect::<Result<_>>()?
            };
        let params = super::load_params(&a.params)?;
        let (results, stats) = if a.rescore {
            (
                sightline::eval::rescore::rescore_dir(&a.out, &a.bench)?,
                None,
            )
        } else {
            let renderer = if a.from_snapshots.is_some() {
                None
            } else {
                let mut opts = super::render_options(&a.render)?;
                opts.offline = true; // the saved pages' outside resources cannot load here; no tool in PEERS.md had them
                Some(Renderer::new(opts).await?)
            };
            let cfg = EvalConfig {
                root: a.bench.clone(),
                datasets: a.datasets.clone(),
                algorithms: algorithms.clone(),
                limit: a.limit,
                every: a.every,
                out: a.out.clone(),
                params,
                save_snapshots: a.save_snapshots.clone(),
                from_snapshots: a.from_snapshots.clone(),
            };
            let tty = std::io::stderr().is_terminal();
            let r = run::run(renderer.as_ref(), &cfg, |p| {
                if quiet || !(tty || p.done % 50 == 0 || p.done == p.total) {
                    return;
                }
                let rate = p.done as f64 / p.elapsed_s.max(1e-9);
                let eta = (p.total - p.done) as f64 / rate.max(1e-9);
                let line = format!(
                    "{}: {}/{} pages, {:.2} pages/s, {} failed, ETA {:.0}s",
                    p.dataset, p.done, p.total, rate, p.failures, eta
                );
                if tty {
                    eprint!("\r\x1b[2K{line}");
                    if p.done == p.total {
                        eprintln!();
                    }
                } else {
                    eprintln!("{line}");
                }
            })
            .await;
            if let Some(r) = renderer {
                r.shutdown().await;
            }
            let (res, st) = r?;
            (res, Some(st))
        };
        let peers = PeerTable::load(&a.bench.join("PEERS.md")).ok();
        let mut md = report::markdown(&results, peers.as_ref());
        if let Some(st) = &stats {
            md.push_str(&format!(
                "\nRun: {} pages rendered offline; {:.1} s of rendering; pages whose scripts tried to navigate away (blocked): {}; pages whose scripts would have blanked them with document.write after load (blocked): {}; pages re-rendered with an unclosed <title> closed: {}; pages captured without a load event: {}.\nScoring time per algorithm (s): {}\n",
                st.pages,
                st.render_s,
                st.pages_with_blocked_navigation,
                st.pages_with_blocked_document_writes,
                st.pages_repaired,
                st.pages_load_timed_out,
                st.score_s.iter().map(|(k, v)| format!("{k} {v:.3}")).collect::<Vec<_>>().join(", ")
            ));
        }
        std::fs::create_dir_all(&a.out)
            .with_context(|| format!("cannot create {}", a.out.display()))?;
        std::fs::write(a.out.join("report.md"), &md)
            .with_context(|| format!("cannot write {}/report.md", a.out.display()))?;
        let mut json: serde_json::Value =
            serde_json::from_str(&report::json(&results, peers.as_ref()))?;
        if let Some(st) = &stats {
            json["run"] = serde_json::to_value(st)?;
        }
        std::fs::write(
            a.out.join("report.json"),
            serde_json::to_string_pretty(&json)?,
        )?;
        let mut out = std::io::stdout().lock();
        out.write_all(md.as_bytes())?;
        out.flush()?;
        if !quiet {
            eprintln!("report: {}/report.md and report.json", a.out.display());
        }

        let Some(gate_path) = &a.gate else {
            return Ok(exit::OK);
        };
        let base: Baseline = serde_json::from_str(
            &std::fs::read_to_string(gate_path)
                .with_context(|| format!("cannot read baseline {}", gate_path.display()))?,
        )
        .with_context(|| format!("baseline {} is not valid JSON", gate_path.display()))?;
        if a.update {
            match gate::update(&results, &base, a.allow_regression) {
                Ok(next) => {
                    std::fs::write(gate_path, serde_json::to_string_pretty(&next)? + "\n")?;
                    eprintln!("gate: floors written to {}", gate_path.display());
                    Ok(exit::OK)
                }
                Err(lowered) => bail!(
                    "refusing to lower quality floors (pass --allow-regression to accept):\n  {}",
                    lowered.join("\n  ")
                ),
            }
        } else {
            let missed = gate::check(&results, &base);
            for (alg, ds, floor, got) in &missed {
                eprintln!("gate: {alg} on {ds}: LCS F1 {got:.3} is below the floor {floor:.3}");
            }
            if missed.is_empty() {
                eprintln!(
                    "gate: every floor met ({} checked)",
                    base.floors.values().map(|m| m.len()).sum::<usize>()
                );
                Ok(exit::OK)
            } else {
                Ok(exit::ERROR)
            }
        }
    }
}

/// Render options from the shared flags.
fn render_options(r: &RenderArgs) -> Result<RenderOptions> {
    let (w, h) = r
        .viewport
        .split_once(['x', 'X'])
        .and_then(|(w, h)| Some((w.trim().parse::<u32>().ok()?, h.trim().parse::<u32>().ok()?)))
        .with_context(|| {
            format!(
                "--viewport {}: expected WIDTHxHEIGHT such as 1366x900",
                r.viewport
            )
        })?;
    if r.timeout.is_nan() || r.timeout <= 0.0 {
        bail!(
            "--timeout {}: must be a positive number of seconds",
            r.timeout
        );
    }
    Ok(RenderOptions {
        browser: match &r.browser_ws {
            Some(ws) => BrowserSource::Connect(ws.clone()),
            None => BrowserSource::Launch(r.chrome.clone()),
        },
        viewport: (w, h),
        timeout: Duration::from_secs_f64(r.timeout),
        quiet: Duration::from_millis(r.quiet_ms),
        offline: r.offline,
        max_nodes: r.max_nodes,
        concurrency: r
            .concurrency
            .unwrap_or_else(|| {
                std::thread::available_parallelism()
                    .map_or(1, |n| n.get())
                    .min(8)
            })
            .max(1),
        chrome_args: r.chrome_args.clone(),
        ..RenderOptions::default()
    })
}

/// Load `--params FILE` (any subset of `Params` as JSON).
fn load_params(p: &Option<PathBuf>) -> Result<Params> {
    match p {
        None => Ok(Params::default()),
        Some(path) => {
            let s = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read --params {}", path.display()))?;
            serde_json::from_str(&s)
                .with_context(|| format!("--params {}: not valid parameters JSON", path.display()))
        }
    }
}

fn parse_algorithms(s: &str) -> Result<Vec<Algorithm>> {
    if s == "all" {
        return Ok(Algorithm::ALL.to_vec());
    }
    s.split(',')
        .map(|a| a.trim().parse::<Algorithm>().map_err(anyhow::Error::msg))
        .collect()
}

/// Turn command-line inputs into render inputs; stdin is read here.
fn to_input(arg: &str, charset: &Option<String>) -> Result<Input, sightline::Error> {
    if arg == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| sightline::Error::Input {
                input: "-".into(),
                message: e.to_string(),
            })?;
        return Ok(Input::Html {
            name: "-".into(),
            bytes,
            charset: charset.clone().unwrap_or_else(|| "utf-8".into()),
        });
    }
    match (Input::parse(arg)?, charset) {
        (Input::File(p), Some(cs)) => {
            let bytes = std::fs::read(&p).map_err(|e| sightline::Error::Input {
                input: arg.into(),
                message: e.to_string(),
            })?;
            Ok(Input::Html {
                name: arg.into(),
                bytes,
                charset: cs.clone(),
            })
        }
        (i, _) => Ok(i),
    }
}

/// One page's outcome, ready to write.
struct PageOut {
    record: Record,
    body: String,
    screenshot: Option<Vec<u8>>,
    annotated: Option<Vec<u8>>,
    empty: bool,
}

/// What to do with each page besides scoring.
struct PageConfig<'a> {
    algos: &'a [Algorithm],
    params: &'a Params,
    format: Format,
    annotate: bool,
    max_text_bytes: usize,
}

/// Score a snapshot with each algorithm and build the record and the formatted body.
fn score_snapshot(
    input: &str,
    snap: &Snapshot,
    cfg: &PageConfig,
    mut timings: Timings,
    png: Option<&[u8]>,
) -> PageOut {
    let tree = Tree::new(snap);
    let mut results = BTreeMap::new();
    let mut bodies = Vec::new();
    let mut total = 0.0;
    let mut empty = true;
    let mut annotated = None;
    for &a in cfg.algos {
        let t = Instant::now();
        let ex = extract_tree(&tree, a, cfg.params);
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        total += ms;
        empty &= !ex.has_text(&tree);
        let mut body = match cfg.format {
            Format::Text => text::render(&tree, &ex),
            Format::Html => html::render(&tree, &ex),
            Format::Markdown => markdown::render(&tree, &ex),
            Format::Json => String::new(),
        };
        body.push_str(&retained_links(&ex, cfg.format));
        if cfg.algos.len() > 1 && cfg.format != Format::Json {
            bodies.push(format!("==> {} <==\n{body}", a.name()));
        } else {
            bodies.push(body);
        }
        if let (true, None, Some(png)) = (cfg.annotate, &annotated, png) {
            annotated =
                match annotate::annotate(png, &tree, &ex, &annotate::AnnotateOptions::default()) {
                    Ok(b) => Some(b),
                    Err(e) => {
                        tracing::warn!("{input}: cannot annotate the screenshot: {e}");
                        None
                    }
                };
        }
        results.insert(
            a.name().to_string(),
            AlgorithmResult::new(&tree, &ex, Some(ms)),
        );
    }
    timings.score = Some((total * 1000.0).round() / 1000.0);
    let mut record = Record {
        input: input.to_string(),
        url: Some(snap.url.clone()),
        title: Some(snap.title.clone()),
        timings_ms: Some(timings),
        ..Record::default()
    };
    if cfg.algos.len() == 1 {
        record.result = results.into_values().next();
    } else {
        record.algorithms = Some(results);
    }
    let body = if cfg.format == Format::Json {
        String::new()
    } else {
        bodies.concat()
    };
    PageOut {
        record,
        body,
        screenshot: None,
        annotated,
        empty,
    }
}

/// Crunch's removed-link retainer: the removed links appended after the content.
fn retained_links(ex: &sightline::Extraction, format: Format) -> String {
    let Some(links) = ex.details.get("retained_links").and_then(|l| l.as_array()) else {
        return String::new();
    };
    if links.is_empty() || format == Format::Json {
        return String::new();
    }
    let mut out = String::from(if format == Format::Html {
        "<hr>\n<ul class=\"retained-links\">\n"
    } else {
        "\nLinks:\n"
    });
    for l in links {
        let t = l.get("text").and_then(|v| v.as_str()).unwrap_or("");
        let h = l.get("href").and_then(|v| v.as_str()).unwrap_or("");
        out.push_str(&match format {
            Format::Html => format!(
                "<li><a href=\"{}\">{}</a></li>\n",
                html::escape(h),
                html::escape(t)
            ),
            Format::Markdown => format!("- [{t}]({h})\n"),
            _ => format!("{t} <{h}>\n"),
        });
    }
    if format == Format::Html {
        out.push_str("</ul>\n");
    }
    out
}

fn error_out(input: &str, e: &sightline::Error) -> PageOut {
    let record = Record {
        input: input.to_string(),
        error: Some(ErrorInfo {
            kind: e.kind().to_string(),
            message: e.to_string(),
        }),
        ..Record::default()
    };
    PageOut {
        record,
        body: String::new(),
        screenshot: None,
        annotated: None,
        empty: true,
    }
}

/// A stable file-name slug for an input: readable part plus a hash of the whole input, so
/// two inputs never share files and a resumed run names them the same.
fn slug(input: &str) -> String {
    let s = input.split_once("://").map(|x| x.1).unwrap_or(input);
    let mut out: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    while out.contains("--") {
        out = out.replace("--", "-");
    }
    let out: String = out.trim_matches('-').chars().take(60).collect();
    // FNV-1a, 32 bits: stable across runs and platforms.
    let h = input.bytes().fold(0x811c_9dc5u32, |h, b| {
        (h ^ b as u32).wrapping_mul(0x0100_0193)
    });
    format!("{}-{h:08x}", if out.is_empty() { "page" } else { &out })
}

/// Inputs from the arguments and `--input FILE|-`.
fn collect_inputs(a: &ExtractArgs) -> Result<Vec<String>> {
    let mut inputs = a.inputs.clone();
    if let Some(list) = &a.input_list {
        let text = if list.as_os_str() == "-" {
            let mut s = String::new();
            std::io::stdin()
                .read_to_string(&mut s)
                .context("cannot read the input list from stdin")?;
            s
        } else {
            std::fs::read_to_string(list)
                .with_context(|| format!("cannot read --input {}", list.display()))?
        };
        inputs.extend(
            text.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .map(str::to_string),
        );
    }
    if inputs.iter().filter(|i| *i == "-").count() > 1
        || (inputs.iter().any(|i| i == "-") && a.input_list.as_deref() == Some(Path::new("-")))
    {
        bail!("stdin can be read once: use - for one HTML page or --input - for a list, not both");
    }
    Ok(inputs)
}

/// Inputs that already have a record in a JSON Lines file (for --resume).
fn recorded_inputs(path: &Path) -> Result<HashSet<String>> {
    let mut done = HashSet::new();
    let Ok(text) = std::fs::read_to_string(path) else {
        return Ok(done);
    };
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        // A line cut by a crash is not a record: its input runs again.
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(line) {
            if let Some(i) = v.get("input").and_then(|i| i.as_str()) {
                done.insert(i.to_string());
            }
        }
    }
    Ok(done)
}

/// Where records and page bodies go.
enum Dest {
    Stdout,
    File(PathBuf),
    Dir(PathBuf),
}

async fn run_extract(a: ExtractArgs, quiet: bool) -> Result<i32> {
    let format: Format = a.format.parse().map_err(anyhow::Error::msg)?;
    let algos = parse_algorithms(&a.algorithm)?;
    let mut params = load_params(&a.params)?;
    if let Some(f) = &a.ad_hosts {
        let list = std::fs::read_to_string(f)
            .with_context(|| format!("cannot read --ad-hosts {}", f.display()))?;
        params.crunch.load_ad_hosts(&list);
    }
    let annotate_on = a.annotate.is_some();
    let cfg = PageConfig {
        algos: &algos,
        params: &params,
        format,
        annotate: annotate_on,
        max_text_bytes: a.max_text_bytes,
    };

    // Saved snapshot: no browser.
    if let Some(path) = &a.snapshot {
        let json = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read snapshot {}", path.display()))?;
        let snap = Snapshot::from_json(&json, &path.display().to_string())?;
        let out = score_snapshot(
            &path.display().to_string(),
            &snap,
            &PageConfig {
                annotate: false,
                ..cfg
            },
            Timings::default(),
            None,
        );
        let body = if format == Format::Json {
            serde_json::to_string(&out.record)? + "\n"
        } else {
            out.body
        };
        write_to(a.output.as_deref(), &body)?;
        return Ok(if out.empty { exit::NOTHING } else { exit::OK });
    }

    let inputs = collect_inputs(&a)?;
    if inputs.is_empty() {
        bail!("no inputs: give URLs or files, or --input FILE");
    }
    let many = inputs.len() > 1 || a.input_list.is_some();
    let dest = match &a.output {
        None => Dest::Stdout,
        Some(o) if o.is_dir() || (many && format != Format::Json) => Dest::Dir(o.clone()),
        Some(o) => Dest::File(o.clone()),
    };
    let file_target = |opt: &Option<PathBuf>, what: &str| -> Result<Option<(PathBuf, bool)>> {
        match (opt, &dest) {
            (None, _) => Ok(None),
            (Some(p), Dest::Dir(d)) if p.as_os_str().is_empty() => Ok(Some((d.clone(), true))),
            (Some(p), _) if p.as_os_str().is_empty() => {
                bail!("--{what} without a value needs -o DIR")
            }
            (Some(p), _) => Ok(Some((p.clone(), many || p.is_dir()))),
        }
    };
    let shot_target = file_target(&a.screenshot, "screenshot")?;
    let annotate_target = file_target(&a.annotate, "annotate")?;
    for (d, is_dir) in [&shot_target, &annotate_target].into_iter().flatten() {
        if *is_dir {
            std::fs::create_dir_all(d)
                .with_context(|| format!("cannot create directory {}", d.display()))?;
        }
    }
    let records_file = match &dest {
        Dest::Dir(d) => {
            std::fs::create_dir_all(d)
                .with_context(|| format!("cannot create output directory {}", d.display()))?;
            Some(d.join("index.jsonl"))
        }
        Dest::File(f) if format == Format::Json => Some(f.clone()),
        _ => None,
    };
    let skip = match (&records_file, a.resume) {
        (Some(f), true) => recorded_inputs(f)?,
        (None, true) => bail!("--resume needs -o DIR, or -o FILE with --format jsonl"),
        _ => HashSet::new(),
    };
    let mut records_out = match &records_file {
        Some(f) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .write(true)
                .append(a.resume)
                .truncate(!a.resume)
                .open(f)
                .with_context(|| format!("cannot open {}", f.display()))?,
        ),
        None => None,
    };
    let todo: Vec<(usize, String)> = inputs
        .iter()
        .cloned()
        .enumerate()
        .filter(|(_, i)| !skip.contains(i))
        .collect();
    if !skip.is_empty() && !quiet {
        eprintln!(
            "resume: {} of {} inputs already have a record",
            inputs.len() - todo.len(),
            inputs.len()
        );
    }

    let mut opts = render_options(&a.render)?;
    opts.screenshot = shot_target.is_some() || annotate_on;
    opts.max_screenshot_height = a.max_screenshot_height;
    let owned = Renderer::new(opts.clone()).await?;
    let launch_ms = owned.launch_ms;
    let renderer = &owned;
    let cfg = &cfg;
    let charset = &a.render.charset;

    // Ctrl-C: stop taking new pages, finish the ones in flight; a second Ctrl-C exits at once.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let stop2 = stop.clone();
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            stop2.store(true, std::sync::atomic::Ordering::SeqCst);
            eprintln!("\ninterrupted: finishing the pages in flight (Ctrl-C again to quit now)");
            if tokio::signal::ctrl_c().await.is_ok() {
                std::process::exit(exit::INTERRUPTED);
            }
        }
    });

    let bar = progress_bar(todo.len() as u64, quiet);
    let total = todo.len();
    let (mut failed, mut empty) = (0usize, 0usize);
    {
        let stop = &stop;
        let pages = futures::stream::iter(todo)
            .take_while(|_| futures::future::ready(!stop.load(std::sync::atomic::Ordering::SeqCst)))
            .map(|(i, arg)| async move {
                let input = match to_input(&arg, charset) {
                    Ok(inp) => inp,
                    Err(e) => return (i, error_out(&arg, &e)),
                };
                let out = match renderer.render(&input).await {
                    Ok(r) => {
                        let text_bytes: usize = r
                            .snapshot
                            .nodes
                            .iter()
                            .filter_map(|n| n.text.as_ref())
                            .map(|t| t.len())
                            .sum();
                        if text_bytes > cfg.max_text_bytes {
                            let e = sightline::Error::TooLarge {
                                input: arg.clone(),
                                message: format!(
                                    "{text_bytes} bytes of text, more than --max-text-bytes {}",
                                    cfg.max_text_bytes
                                ),
                            };
                            return (i, error_out(&arg, &e));
                        }
                        let mut t = r.timings.clone();
                        if i == 0 {
                            t.launch = Some((launch_ms * 1000.0).round() / 1000.0);
                        }
                        let mut out =
                            score_snapshot(&arg, &r.snapshot, cfg, t, r.screenshot.as_deref());
                        out.record.status = r.status;
                        out.record.retries = (r.retries > 0).then_some(r.retries);
                        out.record.screenshot_truncated = r.screenshot_truncated;
                        out.record.repaired = r.repaired.clone();
                        out.screenshot = r.screenshot;
                        out
                    }
                    Err(e) => error_out(&arg, &e),
                };
                (i, out)
            })
            .buffer_unordered(opts.concurrency);
        futures::pin_mut!(pages);
        let mut stdout = std::io::stdout().lock();
        while let Some((i, mut out)) = pages.next().await {
            out.record.index = Some(i);
            let name = out.record.input.clone();
            if let Some(err) = &out.record.error {
                failed += 1;
                bar.suspend(|| eprintln!("error: {}", err.message));
            } else if out.empty {
                empty += 1;
                if !quiet {
                    bar.suspend(|| eprintln!("warning: {name}: nothing extracted"));
                }
            }
            let s = slug(&name);
            let write_png = |bytes: &Option<Vec<u8>>,
                             target: &Option<(PathBuf, bool)>,
                             suffix: &str|
             -> Result<Option<String>> {
                let (Some(png), Some((t, is_dir))) = (bytes, target) else {
                    return Ok(None);
                };
                let p = if *is_dir {
                    t.join(format!("{s}{suffix}.png"))
                } else {
                    t.clone()
                };
                std::fs::write(&p, png).with_context(|| format!("cannot write {}", p.display()))?;
                Ok(Some(p.display().to_string()))
            };
            if let Some(p) = write_png(&out.screenshot, &shot_target, "")? {
                out.record.screenshot = Some(p.clone());
                out.record.files.push(p);
            }
            if let Some(p) = write_png(&out.annotated, &annotate_target, ".annotated")? {
                out.record.files.push(p);
            }
            match &dest {
                Dest::Dir(d) if out.record.error.is_none() => {
                    let p = d.join(format!("{s}.{}", format.extension()));
                    let body = if format == Format::Json {
                        serde_json::to_string_pretty(&out.record)? + "\n"
                    } else {
                        out.body.clone()
                    };
                    std::fs::write(&p, body)
                        .with_context(|| format!("cannot write {}", p.display()))?;
                    out.record.files.insert(0, p.display().to_string());
                }
                Dest::File(f) if format != Format::Json => {
                    std::fs::write(f, &out.body)
                        .with_context(|| format!("cannot write {}", f.display()))?;
                }
                Dest::Stdout => {
                    if format == Format::Json {
                        writeln!(stdout, "{}", serde_json::to_string(&out.record)?)?;
                    } else if out.record.error.is_none() {
                        if many {
                            writeln!(stdout, "==> {name} <==")?;
                        }
                        stdout.write_all(out.body.as_bytes())?;
                    }
                    stdout.flush()?;
                }
                _ => {}
            }
            if let Some(f) = records_out.as_mut() {
                // The index holds the record without the bulky content (it is in the page's file).
                let mut rec = out.record.clone();
                if matches!(dest, Dest::Dir(_)) {
                    strip_bodies(&mut rec);
                }
                writeln!(f, "{}", serde_json::to_string(&rec)?)?;
                f.flush()?;
            }
            bar.set_message(format!("{failed} failed"));
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
    let interrupted = stop.load(std::sync::atomic::Ordering::SeqCst);
    if !quiet && (many || interrupted) {
        eprintln!(
            "{} of {} inputs recorded: {} failed, {} empty{}",
            bar.position(),
            total,
            failed,
            empty,
            if owned.relaunches() > 0 {
                format!(", browser relaunched {} time(s)", owned.relaunches())
            } else {
                String::new()
            }
        );
    }
    owned.shutdown().await;
    Ok(if interrupted {
        exit::INTERRUPTED
    } else if failed > 0 {
        exit::ERROR
    } else if empty > 0 {
        exit::NOTHING
    } else {
        exit::OK
    })
}

/// Drop text, html and content from a record (the index of `-o DIR` keeps only metadata).
fn strip_bodies(rec: &mut Record) {
    let strip = |r: &mut AlgorithmResult| {
        r.text.clear();
        r.html.clear();
        r.content.clear();
    };
    if let Some(r) = rec.result.as_mut() {
        strip(r);
    }
    if let Some(m) = rec.algorithms.as_mut() {
        m.values_mut().for_each(strip);
    }
}

/// A progress bar on stderr: pages done/total, pages/s, failures, ETA. Hidden when stderr is
/// not a terminal or with --quiet.
fn progress_bar(len: u64, quiet: bool) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if quiet || !std::io::stderr().is_terminal() || len < 2 {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:30} {pos}/{len} pages  {per_sec}  {msg}  ETA {eta}",
        )
        .expect("valid template"),
    );
    bar
}

async fn run_snapshot(a: SnapshotArgs) -> Result<i32> {
    let opts = render_options(&a.render)?;
    let input = to_input(&a.input, &a.render.charset)?;
    let renderer = Renderer::new(opts).await?;
    let r = renderer.render(&input).await;
    renderer.shutdown().await;
    let r = r?;
    write_to(a.output.as_deref(), &(r.snapshot_json + "\n"))?;
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
