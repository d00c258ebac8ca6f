//! The flags of `sightline crawl` and `sightline map` beside the rendering and archive ones
//! (`cli.rs`): the seeds, the output, and the crawl's settings, which are the library's
//! [`CrawlSettings`] flattened (the fields `serve`'s and MCP's JSON and Python's keywords
//! are, in the same units).

use std::path::PathBuf;

use clap::Args;

use crate::shared::body_format;
#[cfg(doc)]
use sightline::CrawlSettings;

/// The flags of `sightline crawl` beside the archive and rendering ones.
#[derive(Debug, Args)]
pub struct CrawlFlags {
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
    /// How the markdown writes images and links, and a saved site's address: --images,
    /// --links, --base-url (as for `extract`).
    #[command(flatten)]
    pub writer: sightline::WriterOptions,
    /// Also put each page's body in FORMAT (markdown, text or html) in its JSON record as
    /// `body` (as `extract --body`). -f json only.
    #[arg(long, value_name = "FORMAT", value_parser = body_format)]
    pub body: Option<sightline::Format>,
    /// Refuse targets on this machine and its networks (as `extract --deny-private`), for
    /// the pages and for robots.txt and sitemaps.
    #[arg(long)]
    pub deny_private: bool,
}

/// The flags of `sightline map` beside the rendering ones.
#[derive(Debug, Args)]
#[command(mut_arg("max_depth", |a| a.help(
    "Render pages to this many links from a seed and list what they link to (default 1; \
     0: robots.txt and sitemaps only, the seed listed)"
)))]
pub struct MapFlags {
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
}
