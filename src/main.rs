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
use sightline::output::{html, markdown, text, Format};
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
            Command::Eval(a) => sightline_eval(a, cli.quiet).await,
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

async fn sightline_eval(a: cli::EvalArgs, quiet: bool) -> Result<i32> {
    eval_cmd::run(a, quiet).await
}

mod eval_cmd {
    //! `sightline eval`: see issue 4; implemented in `eval_run`.
    pub async fn run(a: super::cli::EvalArgs, quiet: bool) -> anyhow::Result<i32> {
        let _ = (a, quiet);
        anyhow::bail!("sightline eval is not available in this build yet")
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
        concurrency: r.concurrency.max(1),
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
    empty: bool,
}

/// Score a snapshot with each algorithm and build the record and the formatted body.
fn score_snapshot(
    input: &str,
    snap: &Snapshot,
    algos: &[Algorithm],
    params: &Params,
    format: Format,
    mut timings: Timings,
) -> PageOut {
    let tree = Tree::new(snap);
    let mut results = BTreeMap::new();
    let mut bodies = Vec::new();
    let mut total = 0.0;
    let mut empty = true;
    for &a in algos {
        let t = Instant::now();
        let ex = extract_tree(&tree, a, params);
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        total += ms;
        empty &= !ex.has_text(&tree);
        let body = match format {
            Format::Text => text::render(&tree, &ex),
            Format::Html => html::render(&tree, &ex),
            Format::Markdown => markdown::render(&tree, &ex),
            Format::Json => String::new(),
        };
        if algos.len() > 1 && format != Format::Json {
            bodies.push(format!("==> {} <==\n{body}", a.name()));
        } else {
            bodies.push(body);
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
    if algos.len() == 1 {
        record.result = results.into_values().next();
    } else {
        record.algorithms = Some(results);
    }
    let body = if format == Format::Json {
        serde_json::to_string(&record).expect("records serialize") + "\n"
    } else {
        bodies.concat()
    };
    PageOut {
        record,
        body,
        screenshot: None,
        empty,
    }
}

fn error_out(input: &str, e: &sightline::Error, format: Format) -> PageOut {
    let record = Record {
        input: input.to_string(),
        error: Some(ErrorInfo {
            kind: e.kind().to_string(),
            message: e.to_string(),
        }),
        ..Record::default()
    };
    let body = if format == Format::Json {
        serde_json::to_string(&record).expect("records serialize") + "\n"
    } else {
        String::new()
    };
    PageOut {
        record,
        body,
        screenshot: None,
        empty: true,
    }
}

/// A file-name slug for an input.
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
    let out = out.trim_matches('-');
    let out: String = out.chars().take(80).collect();
    if out.is_empty() {
        "page".into()
    } else {
        out
    }
}

async fn run_extract(a: ExtractArgs, quiet: bool) -> Result<i32> {
    let format: Format = a.format.parse().map_err(anyhow::Error::msg)?;
    let algos = parse_algorithms(&a.algorithm)?;
    let params = load_params(&a.params)?;

    // Saved snapshot: no browser.
    if let Some(path) = &a.snapshot {
        let json = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read snapshot {}", path.display()))?;
        let snap = Snapshot::from_json(&json, &path.display().to_string())?;
        let out = score_snapshot(
            &path.display().to_string(),
            &snap,
            &algos,
            &params,
            format,
            Timings::default(),
        );
        write_to(a.output.as_deref(), &out.body)?;
        return Ok(if out.empty { exit::NOTHING } else { exit::OK });
    }

    let mut opts = render_options(&a.render)?;
    opts.screenshot = a.screenshot.is_some();
    let many = a.inputs.len() > 1;
    let dir_out = a.output.as_ref().filter(|o| many || o.is_dir()).cloned();
    let shot_dir = a
        .screenshot
        .as_ref()
        .filter(|o| many || o.is_dir())
        .cloned();
    for d in [&dir_out, &shot_dir].into_iter().flatten() {
        std::fs::create_dir_all(d)
            .with_context(|| format!("cannot create output directory {}", d.display()))?;
    }

    let owned = Renderer::new(opts.clone()).await?;
    let launch_ms = owned.launch_ms;
    let concurrency = opts.concurrency;
    let renderer = &owned;
    let (params, algos) = (&params, &algos);
    let charset = &a.render.charset;
    let (done, failed, empty, interrupted) = {
        let pages = futures::stream::iter(a.inputs.iter().enumerate())
            .map(|(i, arg)| async move {
                let input = match to_input(arg, charset) {
                    Ok(i) => i,
                    Err(e) => return error_out(arg, &e, format),
                };
                match renderer.render(&input).await {
                    Ok(r) => {
                        let mut t = r.timings.clone();
                        if i == 0 {
                            t.launch = Some((launch_ms * 1000.0).round() / 1000.0);
                        }
                        let mut out = score_snapshot(arg, &r.snapshot, algos, params, format, t);
                        out.screenshot = r.screenshot;
                        out
                    }
                    Err(e) => error_out(arg, &e, format),
                }
            })
            .buffered(concurrency);
        futures::pin_mut!(pages);

        let mut stdout = std::io::stdout().lock();
        let mut used = HashSet::new();
        let (mut failed, mut empty, mut done) = (0usize, 0usize, 0usize);
        let total = a.inputs.len();
        let ctrl_c = tokio::signal::ctrl_c();
        futures::pin_mut!(ctrl_c);
        let mut interrupted = false;
        loop {
            let out = tokio::select! {
                o = pages.next() => match o { Some(o) => o, None => break },
                _ = &mut ctrl_c => { interrupted = true; break; }
            };
            done += 1;
            let name = out.record.input.clone();
            if let Some(err) = &out.record.error {
                failed += 1;
                eprintln!("error: {}", err.message);
            } else if out.empty {
                empty += 1;
                if !quiet {
                    eprintln!("warning: {name}: nothing extracted");
                }
            }
            let mut s = slug(&name);
            if used.contains(&s) {
                s = format!("{s}-{done}");
            }
            used.insert(s.clone());
            if let Some(d) = &dir_out {
                let p = d.join(format!("{s}.{}", format.extension()));
                if out.record.error.is_none() || format == Format::Json {
                    std::fs::write(&p, &out.body)
                        .with_context(|| format!("cannot write {}", p.display()))?;
                }
            } else if let Some(f) = &a.output {
                std::fs::write(f, &out.body)
                    .with_context(|| format!("cannot write {}", f.display()))?;
            } else {
                if many && format != Format::Json && out.record.error.is_none() {
                    writeln!(stdout, "==> {name} <==")?;
                }
                stdout.write_all(out.body.as_bytes())?;
                stdout.flush()?;
            }
            if let (Some(png), Some(target)) = (&out.screenshot, &a.screenshot) {
                let p = match &shot_dir {
                    Some(d) => d.join(format!("{s}.png")),
                    None => target.clone(),
                };
                std::fs::write(&p, png)
                    .with_context(|| format!("cannot write screenshot {}", p.display()))?;
                if !quiet {
                    eprintln!("screenshot: {}", p.display());
                }
            }
            if !quiet && many {
                eprintln!("[{done}/{total}] {name}");
            }
        }
        (done, failed, empty, interrupted)
    };
    if interrupted {
        eprintln!("interrupted after {done} of {} inputs", a.inputs.len());
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
