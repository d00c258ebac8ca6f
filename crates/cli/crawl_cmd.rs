//! `sightline crawl` and `sightline map`: glue over the library's
//! [`sightline::Extractor::crawl`] and [`sightline::Extractor::map`].

use anyhow::{bail, Context, Result};

use crate::cli::{self, exit, CrawlArgs, MapArgs, RenderArgs};
use sightline::batch::{self, Dest, SinkOptions};
use sightline::output::Format;
use sightline::{CrawlConfig, CrawlSettings, Extractor, Options, PageConfig};

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
    if let Some(ua) = &render.options.user_agent {
        c = c.user_agent(ua.clone());
    }
    Ok(c)
}

/// `sightline crawl`.
pub async fn run_crawl(a: CrawlArgs, quiet: bool) -> Result<i32> {
    let format: Format = a.crawl.format.parse().map_err(anyhow::Error::msg)?;
    let mut params = cli::load_params(&None)?;
    if format != Format::Json {
        params = params.text_only();
    }
    let mut page = PageConfig::default()
        .algorithms(cli::parse_algorithms(&a.crawl.algorithm)?)
        .params(params)
        .format(format)
        .charset(a.render.charset.clone())
        .hint(Some(cli::hint))
        .front_matter(a.crawl.front_matter)
        .writer(cli::writer_options(&a.crawl.writer)?)
        .json_body(a.crawl.body);
    if a.crawl.body.is_some() && format != Format::Json {
        anyhow::bail!("--body needs -f json (the body is a field of the JSON record; -f FORMAT alone writes it)");
    }
    if let Some(plan) = a.render.plan()? {
        page = page.steer(plan);
    }
    let dest = match &a.crawl.output {
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
    let mut seeds = a.crawl.seeds.clone();
    if let Some(f) = &a.crawl.seed_list {
        let text = std::fs::read_to_string(f)
            .map_err(|e| anyhow::anyhow!("cannot read --input {}: {e}", f.display()))?;
        seeds.extend(batch::inputs::parse_list(&text));
    }
    let cfg = crawl_config(seeds, &a.crawl.settings, &a.render)?
        .shard(a.crawl.shard)
        .frontier(frontier, a.crawl.resume);
    let sink_opts = SinkOptions {
        dest,
        format,
        many: true,
        screenshot: None,
        annotate: None,
        resume: a.crawl.resume,
    };
    let (mut sink, recorded) = batch::Sink::open(sink_opts, Box::new(std::io::stdout()))?;
    if !quiet && !recorded.is_empty() {
        eprintln!("resume: {} pages already have a record", recorded.len());
    }
    let cancel = crate::signal_cancel();
    let extractor = extractor(&a.render, a.crawl.deny_private, page, &a.archive).await?;
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
            "{} pages recorded: {} failed, {} empty, {} folded into their canonical URL, {} near-duplicates, {} kept out by robots.txt, {} refused by the target policy{}{}",
            s.recorded, s.failed, s.empty, s.duplicates, s.near_duplicates, s.disallowed, s.refused,
            crate::ui::walls_part(&s.walls),
            crate::ui::lanes_part(&s.lanes)
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
    let json = match a.map.format.as_str() {
        "text" => false,
        "json" | "jsonl" => true,
        f => bail!("--format {f}: map writes text or json"),
    };
    let cfg = crawl_config(a.map.seeds.clone(), &a.map.settings, &a.render)?;
    let mut page = PageConfig::default().hint(Some(cli::hint));
    if let Some(plan) = a.render.plan()? {
        page = page.steer(plan);
    }
    let cancel = crate::signal_cancel();
    let extractor = extractor(
        &a.render,
        a.map.deny_private,
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
