//! `sightline extract`: inputs → options → extractor → run → report ([`run`] lists the
//! steps).

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use sightline::batch::{self, Dest, Job, PngTarget, SinkOptions, Summary};
use sightline::output::Format;
use sightline::{Extractor, Options, PageConfig, RenderOptions, Snapshot};

use crate::cli::{self, browser_endpoints, collect_inputs, exit, render_options, ExtractArgs};

/// `sightline extract`, in steps:
/// 1. [`page`]: how each page is scored and written (format, parameters, steering), checked
///    against the format;
/// 2. with `--snapshot`, [`saved_snapshot`]: the saved snapshot scored and written, no
///    browser, and done;
/// 3. [`inputs`]: the inputs, the output sink and the jobs left to do (shard, resume);
/// 4. [`options`]: the render options (screenshots, target policy);
/// 5. [`extractor`]: Ctrl-C and SIGTERM listened for, then the front door built;
/// 6. [`run_jobs`]: every job rendered, scored and recorded, with progress on stderr;
/// 7. [`report`]: the extractor shut down, the summary on stderr and the exit code.
pub async fn run(a: ExtractArgs, quiet: bool) -> Result<i32> {
    let format: Format = a.format.parse().map_err(anyhow::Error::msg)?;
    let cfg = page(&a, format)?;
    if let Some(path) = &a.snapshot {
        return saved_snapshot(&a, format, cfg, path);
    }
    let batch = inputs(&a, format, cfg.annotate, quiet)?;
    let opts = options(&a, batch.screenshots)?;
    let (extractor, cancel) = extractor(&a, opts, cfg).await?;
    let (total, many) = (batch.jobs.len(), batch.many);
    let summary = run_jobs(&extractor, &cancel, batch, quiet).await;
    report(extractor, summary, total, many, quiet).await
}

/// The page configuration of `--format` and the scoring flags; `--units` and `--body` need
/// `-f json`.
fn page(a: &ExtractArgs, format: Format) -> Result<PageConfig> {
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
        .writer(cli::writer_options(&a.writer)?)
        .units(a.units)
        .json_body(a.body);
    if a.units && format != Format::Json {
        bail!("--units needs -f json (the units are a field of the JSON record)");
    }
    if a.body.is_some() && format != Format::Json {
        bail!("--body needs -f json (the body is a field of the JSON record; -f FORMAT alone writes it)");
    }
    Ok(match a.render.plan()? {
        Some(plan) => {
            a.render
                .options
                .check_plan(&plan)
                .map_err(cli::flag_error)?;
            cfg.steer(plan)
        }
        None => cfg,
    })
}

/// `--snapshot FILE`: score the saved snapshot and write it, no browser.
fn saved_snapshot(a: &ExtractArgs, format: Format, cfg: PageConfig, path: &Path) -> Result<i32> {
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
    crate::write_to(a.output.as_deref(), &body)?;
    Ok(if out.empty { exit::NOTHING } else { exit::OK })
}

/// The work of one run: the jobs left to do and where their records go.
struct Batch {
    /// The jobs of this shard without a record yet.
    jobs: Vec<Job>,
    /// Where the records, bodies and PNGs go.
    sink: batch::Sink,
    /// More than one input (or a list): a summary on stderr, outputs in a directory.
    many: bool,
    /// Pages need a screenshot (`--screenshot` or `--annotate`).
    screenshots: bool,
}

/// The inputs, the sink they are written to (`-o`, `--screenshot`, `--annotate`, `--resume`)
/// and the jobs of this shard that have no record yet; says on stderr what the shard and
/// `--resume` left out.
fn inputs(a: &ExtractArgs, format: Format, annotating: bool, quiet: bool) -> Result<Batch> {
    let all = collect_inputs(a)?;
    if all.is_empty() {
        bail!("no inputs: give URLs or files, or --input FILE");
    }
    let many = all.len() > 1 || a.input_list.is_some();
    let dest = match &a.output {
        None => Dest::Stdout,
        Some(o) if o.is_dir() || (many && format != Format::Json) => Dest::Dir(o.clone()),
        Some(o) => Dest::File(o.clone()),
    };
    let screenshot = png_target(&a.screenshot, "screenshot", &dest, many)?;
    let annotate = png_target(&a.annotate, "annotate", &dest, many)?;
    let sink_opts = SinkOptions {
        dest,
        format,
        many,
        screenshot,
        annotate,
        resume: a.resume,
    };
    let screenshots = sink_opts.screenshot.is_some() || annotating;
    let (sink, skip) = batch::Sink::open(sink_opts, Box::new(std::io::stdout()))?;
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
    Ok(Batch {
        jobs,
        sink,
        many,
        screenshots,
    })
}

/// Where `--screenshot` or `--annotate` (`what`) writes its PNGs: the FILE or DIR given, or,
/// given without a value, the `-o DIR`.
fn png_target(
    opt: &Option<PathBuf>,
    what: &str,
    dest: &Dest,
    many: bool,
) -> Result<Option<PngTarget>> {
    match (opt, dest) {
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
}

/// The render options of the flags, with screenshots when the sink writes them and, with
/// `--deny-private`, serve's target policy.
fn options(a: &ExtractArgs, screenshots: bool) -> Result<RenderOptions> {
    let mut opts = render_options(&a.render)?;
    opts.screenshot = screenshots;
    if a.deny_private {
        // serve's target policy, and the egress proxy that enforces it.
        opts.set_target_policy(Some(sightline::NetPolicy::default()));
    }
    Ok(opts)
}

/// The front door, with the browser endpoints and the archive flags. Ctrl-C and SIGTERM are
/// listened for before the browser starts ([`crate::signal_cancel`]), so a signal during the
/// launch does not kill sightline and leave Chromium running.
async fn extractor(
    a: &ExtractArgs,
    opts: RenderOptions,
    cfg: PageConfig,
) -> Result<(Extractor, batch::Cancel)> {
    let endpoints = browser_endpoints(&a.render)?;
    let cancel = crate::signal_cancel();
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
    Ok((extractor, cancel))
}

/// Every job rendered, scored and written to the sink, with a progress bar and each page's
/// error or emptiness on stderr.
async fn run_jobs(
    extractor: &Extractor,
    cancel: &batch::Cancel,
    mut batch: Batch,
    quiet: bool,
) -> Result<Summary, sightline::Error> {
    let bar = crate::ui::progress_bar(batch.jobs.len() as u64, quiet);
    let summary = extractor
        .run(batch.jobs, cancel, &mut batch.sink, |out, s| {
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
    summary
}

/// The archive finished and the extractor shut down; then, for several inputs or an
/// interrupted run, the summary on stderr; the exit code.
async fn report(
    extractor: Extractor,
    summary: Result<Summary, sightline::Error>,
    total: usize,
    many: bool,
    quiet: bool,
) -> Result<i32> {
    let stats = extractor.stats();
    let (relaunches, recycles) = (stats.relaunches, stats.recycles);
    let archived = extractor.finish_archive();
    extractor.shutdown().await;
    archived?;
    let s = summary?;
    if !quiet && (many || s.interrupted) {
        eprintln!(
            "{} of {} inputs recorded: {} failed, {} empty{}{}{}",
            s.recorded,
            total,
            s.failed,
            s.empty,
            crate::ui::walls_part(&s.walls),
            crate::ui::lanes_part(&s.lanes),
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
