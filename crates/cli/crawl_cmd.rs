//! `sightline crawl` and `sightline map`: their arguments (the crawl's settings are the
//! library's [`CrawlSettings`], flattened) and glue over the library's
//! [`sightline::Extractor::crawl`] and [`sightline::Extractor::map`].

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Args;

use crate::cli::{self, body_format, exit, ArchiveArgs, RenderArgs};
use sightline::batch::{self, Cancel, Dest, SinkOptions};
use sightline::output::Format;
use sightline::{CrawlConfig, CrawlSettings, Extractor, Options, PageConfig};

#[derive(Debug, Args)]
pub struct CrawlArgs {
    /// Where to start: URLs (a bare host gets https://).
    #[arg(value_name = "SEED", required_unless_present = "seed_list")]
    pub seeds: Vec<String>,
    /// Read more seeds from FILE, one URL a line (# comments and blank lines skipped).
    #[arg(long = "input", short = 'i', value_name = "FILE")]
    pub seed_list: Option<PathBuf>,
    /// text, html, markdown, or json / jsonl (one record per page, with depth, parent,
    /// found_in and links).
    #[arg(long, short, default_value = "text", value_name = "FORMAT")]
    pub format: String,
    /// Into DIR as <slug>.<ext> per page plus DIR/index.jsonl and DIR/frontier.sqlite; with
    /// -f json, FILE.jsonl (and FILE.jsonl.frontier.sqlite).
    #[arg(long, short, value_name = "DIR|FILE.jsonl")]
    pub output: Option<PathBuf>,
    /// Continue the crawl kept beside the output (after a stop, a crash or kill -9): no page
    /// recorded twice, none with a record fetched again.
    #[arg(long, requires = "output")]
    pub resume: bool,
    /// Crawl only the seeds whose registrable domain shard K of N owns: N machines given the
    /// same seeds split them by site, each keeping its own hosts' politeness.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<sightline::batch::Shard>,
    /// Scope, depth, pages and politeness (each flag is a field of the library's
    /// `CrawlSettings`, as `serve`'s and MCP's JSON and Python's keywords are).
    #[command(flatten)]
    pub settings: sightline::CrawlSettings,
    /// The scoring algorithm (as for `extract`).
    #[arg(long, short, default_value = sightline::extract::DEFAULT_ALGORITHM.name(), value_name = "A")]
    pub algorithm: String,
    /// Start markdown output with the page's metadata as YAML front matter.
    #[arg(long)]
    pub front_matter: bool,
    /// Also put each page's body in FORMAT (markdown, text or html) in its JSON record as
    /// `body` (as `extract --body`). -f json only.
    #[arg(long, value_name = "FORMAT", value_parser = body_format)]
    pub body: Option<sightline::Format>,
    /// Refuse targets on this machine and its networks (as `extract --deny-private`), for
    /// the pages and for robots.txt and sitemaps.
    #[arg(long)]
    pub deny_private: bool,
    #[command(flatten)]
    pub archive: ArchiveArgs,
    #[command(flatten)]
    pub render: RenderArgs,
}

#[derive(Debug, Args)]
#[command(mut_arg("max_depth", |a| a.help(
    "Render pages to this many links from a seed and list what they link to (default 1; \
     0: robots.txt and sitemaps only, the seed listed)"
)))]
pub struct MapArgs {
    /// Where to start: URLs (a bare host gets https://).
    #[arg(value_name = "SEED", required = true)]
    pub seeds: Vec<String>,
    /// text (one URL a line) or json (one object a line: url, depth, found_in, parent).
    #[arg(long, short, default_value = "text", value_name = "FORMAT")]
    pub format: String,
    /// Scope, depth, pages and politeness (the library's `CrawlSettings`).
    #[command(flatten)]
    pub settings: sightline::CrawlSettings,
    /// Refuse targets on this machine and its networks.
    #[arg(long)]
    pub deny_private: bool,
    #[command(flatten)]
    pub render: RenderArgs,
}

fn signal_cancel() -> Cancel {
    let cancel = Cancel::new();
    let c2 = cancel.clone();
    tokio::spawn(async move {
        let mut term = crate::term_signal();
        if crate::stop_signal(&mut term).await {
            c2.cancel();
            eprintln!("\ninterrupted: finishing the pages in flight (Ctrl-C again to quit now)");
            if crate::stop_signal(&mut term).await {
                crate::exit_interrupted();
            }
        }
    });
    cancel
}

async fn extractor(
    render: &RenderArgs,
    deny_private: bool,
    page: PageConfig,
    archive: &cli::ArchiveArgs,
) -> Result<Extractor> {
    let mut opts = cli::render_options(render)?;
    // The pages name sightline, as robots.txt and sitemap requests do, unless --user-agent
    // says otherwise: the browser-wide User-Agent (a plan's would give every page a browser
    // context of its own).
    opts.user_agent
        .get_or_insert_with(|| sightline::crawl::USER_AGENT.to_string());
    if deny_private {
        opts.set_target_policy(Some(sightline::NetPolicy::default()));
    }
    let endpoints = cli::browser_endpoints(render)?;
    Ok(Extractor::new(
        archive.apply(
            Options::default()
                .render_options(opts)
                .browser_ws(endpoints)
                .page(page),
            None,
        ),
    )
    .await?)
}

/// The crawl from `seeds` with the flags' settings, checked; `--user-agent` (a rendering
/// flag) is robots.txt's and the sitemaps' too.
fn crawl_config(
    seeds: Vec<String>,
    settings: &CrawlSettings,
    render: &RenderArgs,
) -> Result<CrawlConfig> {
    settings.validate().context("the crawl's flags")?;
    let mut c = CrawlConfig::new(seeds).settings(settings.clone());
    if let Some(ua) = &render.steer.user_agent {
        c = c.user_agent(ua.clone());
    }
    Ok(c)
}

/// `sightline crawl`.
pub async fn run_crawl(a: CrawlArgs, quiet: bool) -> Result<i32> {
    let format: Format = a.format.parse().map_err(anyhow::Error::msg)?;
    let mut params = cli::load_params(&None)?;
    if format != Format::Json {
        params = params.text_only();
    }
    let mut page = PageConfig::default()
        .algorithms(cli::parse_algorithms(&a.algorithm)?)
        .params(params)
        .format(format)
        .charset(a.render.charset.clone())
        .hint(Some(cli::hint))
        .front_matter(a.front_matter)
        .json_body(a.body);
    if a.body.is_some() && format != Format::Json {
        anyhow::bail!("--body needs -f json (the body is a field of the JSON record; -f FORMAT alone writes it)");
    }
    if let Some(plan) = a.render.steer.plan()? {
        page = page.steer(plan);
    }
    let dest = match &a.output {
        None => Dest::Stdout,
        Some(o)
            if format == Format::Json
                && !o.is_dir()
                && o.extension().is_some_and(|e| e == "jsonl" || e == "json") =>
        {
            Dest::File(o.clone())
        }
        Some(o) => Dest::Dir(o.clone()),
    };
    let frontier = dest.frontier_file();
    let mut seeds = a.seeds.clone();
    if let Some(f) = &a.seed_list {
        let text = std::fs::read_to_string(f)
            .map_err(|e| anyhow::anyhow!("cannot read --input {}: {e}", f.display()))?;
        seeds.extend(batch::inputs::parse_list(&text));
    }
    let cfg = crawl_config(seeds, &a.settings, &a.render)?
        .shard(a.shard)
        .frontier(frontier, a.resume);
    let sink_opts = SinkOptions {
        dest,
        format,
        many: true,
        screenshot: None,
        annotate: None,
        resume: a.resume,
    };
    let (mut sink, recorded) = batch::Sink::open(sink_opts, Box::new(std::io::stdout()))?;
    if !quiet && !recorded.is_empty() {
        eprintln!("resume: {} pages already have a record", recorded.len());
    }
    let cancel = signal_cancel();
    let extractor = extractor(&a.render, a.deny_private, page, &a.archive).await?;
    let bar = crate::ui::crawl_spinner(quiet);
    let summary = extractor
        .crawl(&cfg, &cancel, &mut sink, &recorded, |out, s| {
            if let Some(err) = &out.record.error {
                bar.suspend(|| eprintln!("error: {}", err.message));
            }
            bar.set_message(format!("{} pages, {} failed", s.recorded, s.failed));
            bar.inc(1);
        })
        .await;
    bar.finish_and_clear();
    let archived = extractor.finish_archive();
    extractor.shutdown().await;
    archived?;
    let s = summary?;
    if !quiet {
        eprintln!(
            "{} pages recorded: {} failed, {} empty, {} folded into their canonical URL, {} near-duplicates, {} kept out by robots.txt, {} refused by the target policy",
            s.recorded, s.failed, s.empty, s.duplicates, s.near_duplicates, s.disallowed, s.refused
        );
    }
    Ok(if s.interrupted && cancel.is_cancelled() {
        exit::INTERRUPTED
    } else if s.recorded == 0 {
        exit::NOTHING
    } else if s.failed > 0 {
        exit::ERROR
    } else {
        exit::OK
    })
}

/// `sightline map`.
pub async fn run_map(a: MapArgs) -> Result<i32> {
    let json = match a.format.as_str() {
        "text" => false,
        "json" | "jsonl" => true,
        f => bail!("--format {f}: map writes text or json"),
    };
    let cfg = crawl_config(a.seeds.clone(), &a.settings, &a.render)?;
    let mut page = PageConfig::default().hint(Some(cli::hint));
    if let Some(plan) = a.render.steer.plan()? {
        page = page.steer(plan);
    }
    let cancel = signal_cancel();
    let extractor = extractor(
        &a.render,
        a.deny_private,
        page,
        &cli::ArchiveArgs::default(),
    )
    .await?;
    let found = extractor.map(&cfg, &cancel).await;
    extractor.shutdown().await;
    let found = found?;
    let mut out = String::new();
    for m in &found {
        if json {
            out.push_str(&serde_json::to_string(m)?);
        } else {
            out.push_str(&m.url);
        }
        out.push('\n');
    }
    use std::io::Write;
    std::io::stdout().write_all(out.as_bytes())?;
    Ok(if found.is_empty() {
        exit::NOTHING
    } else {
        exit::OK
    })
}
