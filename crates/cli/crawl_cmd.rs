//! `sightline crawl` and `sightline map`: their arguments and glue over the library's
//! [`sightline::Extractor::crawl`] and [`sightline::Extractor::map`].

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Result};
use clap::Args;

use crate::cli::{self, exit, RenderArgs};
use sightline::batch::{self, Cancel, Dest, SinkOptions};
use sightline::output::Format;
use sightline::{CrawlConfig, Extractor, Options, PageConfig, ScopeKind};

/// What bounds and paces a crawl (shared by `crawl` and `map`).
#[derive(Debug, Args, Clone)]
pub struct ScopeArgs {
    /// How far from the seeds to go: host (the seed's host, www. aside), domain (its
    /// registrable domain and subdomains) or prefix (URLs under the seed's path).
    #[arg(long, default_value = "host", value_name = "host|domain|prefix")]
    pub scope: ScopeKind,
    /// Follow only URLs matching this regular expression (repeatable: any of them).
    #[arg(long, value_name = "REGEX")]
    pub include: Vec<String>,
    /// Never follow URLs matching this regular expression (repeatable).
    #[arg(long, value_name = "REGEX")]
    pub exclude: Vec<String>,
    /// Do not read robots.txt (by default its rules and Crawl-delay are obeyed).
    #[arg(long)]
    pub ignore_robots: bool,
    /// Do not read sitemaps and feeds (robots.txt's Sitemap: lines and /sitemap.xml).
    #[arg(long)]
    pub no_sitemaps: bool,
    /// Requests in flight to one host.
    #[arg(long, default_value_t = 2, value_name = "N")]
    pub per_host: usize,
    /// Milliseconds between the starts of two requests to one host (robots.txt's
    /// Crawl-delay when larger).
    #[arg(long, default_value_t = 0, value_name = "MS")]
    pub delay: u64,
    /// At most this many pages of one path pattern (digits and ids folded, query values
    /// dropped: /calendar/2024/05 and /calendar/1999/12 are one pattern); 0: no cap.
    #[arg(long, default_value_t = 1000, value_name = "N")]
    pub max_per_pattern: usize,
}

impl ScopeArgs {
    /// The crawl's settings; `user_agent` is the rendering flags' `--user-agent`, which
    /// robots.txt and sitemap requests send too.
    fn config(&self, seeds: &[String], max_depth: u32, user_agent: Option<&str>) -> CrawlConfig {
        let mut c = CrawlConfig::new(seeds.iter().cloned())
            .scope(self.scope)
            .include(self.include.clone())
            .exclude(self.exclude.clone())
            .robots(!self.ignore_robots)
            .sitemaps(!self.no_sitemaps)
            .per_host(self.per_host)
            .delay(Duration::from_millis(self.delay))
            .max_per_pattern(self.max_per_pattern)
            .max_depth(max_depth);
        if let Some(ua) = user_agent {
            c = c.user_agent(ua);
        }
        c
    }
}

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
    pub shard: Option<batch::Shard>,
    /// Links to follow from a seed at most (pages a sitemap lists are at depth 1).
    #[arg(long, default_value_t = 25, value_name = "N")]
    pub max_depth: u32,
    /// Record at most this many pages.
    #[arg(long, value_name = "N")]
    pub max_pages: Option<usize>,
    #[command(flatten)]
    pub scope: ScopeArgs,
    /// The scoring algorithm (as for `extract`).
    #[arg(long, short, default_value = sightline::extract::DEFAULT_ALGORITHM.name(), value_name = "A")]
    pub algorithm: String,
    /// Start markdown output with the page's metadata as YAML front matter.
    #[arg(long)]
    pub front_matter: bool,
    /// Refuse targets on this machine and its networks (as `extract --deny-private`), for
    /// the pages and for robots.txt and sitemaps.
    #[arg(long)]
    pub deny_private: bool,
    #[command(flatten)]
    pub render: RenderArgs,
}

#[derive(Debug, Args)]
pub struct MapArgs {
    /// Where to start: URLs (a bare host gets https://).
    #[arg(value_name = "SEED", required = true)]
    pub seeds: Vec<String>,
    /// Render pages to this many links from a seed and list what they link to (0: robots.txt
    /// and sitemaps only, the seed listed).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub max_depth: u32,
    /// text (one URL a line) or json (one object a line: url, depth, found_in, parent).
    #[arg(long, short, default_value = "text", value_name = "FORMAT")]
    pub format: String,
    #[command(flatten)]
    pub scope: ScopeArgs,
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

async fn extractor(render: &RenderArgs, deny_private: bool, page: PageConfig) -> Result<Extractor> {
    let mut opts = cli::render_options(render)?;
    if deny_private {
        opts.set_target_policy(Some(sightline::NetPolicy::default()));
    }
    let endpoints = cli::browser_endpoints(render)?;
    Ok(Extractor::new(
        Options::default()
            .render_options(opts)
            .browser_ws(endpoints)
            .page(page),
    )
    .await?)
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
        .front_matter(a.front_matter);
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
    let frontier = CrawlConfig::frontier_beside(&dest);
    let mut seeds = a.seeds.clone();
    if let Some(f) = &a.seed_list {
        let text = std::fs::read_to_string(f)
            .map_err(|e| anyhow::anyhow!("cannot read --input {}: {e}", f.display()))?;
        seeds.extend(batch::inputs::parse_list(&text));
    }
    let cfg = a
        .scope
        .config(&seeds, a.max_depth, a.render.steer.user_agent.as_deref())
        .max_pages(a.max_pages)
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
    let extractor = extractor(&a.render, a.deny_private, page).await?;
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
    extractor.shutdown().await;
    let s = summary?;
    if !quiet {
        eprintln!(
            "{} pages recorded: {} failed, {} empty, {} folded into their canonical URL, {} near-duplicates, {} kept out by robots.txt",
            s.recorded, s.failed, s.empty, s.duplicates, s.near_duplicates, s.disallowed
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
    let cfg = a
        .scope
        .config(&a.seeds, a.max_depth, a.render.steer.user_agent.as_deref());
    let mut page = PageConfig::default().hint(Some(cli::hint));
    if let Some(plan) = a.render.steer.plan()? {
        page = page.steer(plan);
    }
    let cancel = signal_cancel();
    let extractor = extractor(&a.render, a.deny_private, page).await?;
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
