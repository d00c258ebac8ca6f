//! [`CrawlConfig`]: what bounds and paces a crawl, with its defaults.

use std::path::PathBuf;
use std::time::Duration;

use sightline_core::inputs::Shard;
use sightline_egress::guard::NetPolicy;

#[cfg(doc)]
use crate::{CrawlSummary, Pages};
use crate::{ScopeKind, USER_AGENT};

/// Setters that replace a field with the value given (`fn name(self, v) -> Self`), each
/// with its doc: [`CrawlConfig`]'s.
macro_rules! same_setters {
    ($( $(#[doc = $doc:literal])* $field:ident: $ty:ty, )*) => {
        $(
            $(#[doc = $doc])*
            pub fn $field(mut self, v: $ty) -> Self {
                self.$field = v;
                self
            }
        )*
    };
}

/// How a crawl finds, bounds and paces its pages. Build it with [`CrawlConfig::new`] and
/// the setters (the struct is `#[non_exhaustive]`); the fields stay readable.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct CrawlConfig {
    /// Where the crawl starts (URLs; a bare host gets `https://`).
    pub seeds: Vec<String>,
    /// How far from the seeds it may go (default: the seed's host).
    pub scope: ScopeKind,
    /// Regular expressions; when any is given, a URL must match one (`--include`).
    pub include: Vec<String>,
    /// Regular expressions a URL must match none of (`--exclude`).
    pub exclude: Vec<String>,
    /// Links followed from a seed at most (default 25; sitemap pages are at depth 1).
    pub max_depth: u32,
    /// Pages recorded at most (None: no bound).
    pub max_pages: Option<usize>,
    /// Pages one path pattern ([`urls::path_pattern`]: digits and ids folded, query values
    /// dropped) may admit (default 1,000; 0: no cap): the bound on calendars and filters.
    pub max_per_pattern: usize,
    /// Obey robots.txt (default; `--ignore-robots` turns it off).
    pub robots: bool,
    /// Read the sitemaps and feeds robots.txt names and `/sitemap.xml` (default).
    pub sitemaps: bool,
    /// Requests in flight to one host (default 2).
    pub per_host: usize,
    /// Time between the starts of two requests to one host (default 0; robots.txt's
    /// `Crawl-delay` when larger).
    pub delay: Duration,
    /// The User-Agent of robots.txt and sitemap requests, and the robots.txt token
    /// ([`USER_AGENT`] by default: then the browser-wide one, [`Pages::user_agent`],
    /// when the browser has one). The pages' is the browser's: launch it with
    /// `sightline::Options::user_agent(USER_AGENT)` for the pages to name sightline, as
    /// `sightline crawl` does unless `--user-agent` is given.
    pub user_agent: String,
    /// With `K/N`, crawl only the seeds whose registrable domain this shard owns.
    pub shard: Option<Shard>,
    /// The frontier's SQLite file (None: in memory, no resume).
    pub frontier: Option<PathBuf>,
    /// Continue the crawl kept in `frontier`.
    pub resume: bool,
    /// A target policy every URL is checked by before it is taken (seeds, sitemap and link
    /// URLs alike): a refused URL is skipped, never fetched, and counted in
    /// [`CrawlSummary::refused`]; robots.txt and sitemap requests follow it too (None: the
    /// renderer's, [`Pages::policy`], when it
    /// has one: `crawl --deny-private`, Python's `deny_private=True`). `sightline serve` and
    /// MCP set their own.
    pub policy: Option<NetPolicy>,
}

impl CrawlConfig {
    /// A crawl from these seeds with the defaults.
    pub fn new<S: Into<String>>(seeds: impl IntoIterator<Item = S>) -> CrawlConfig {
        CrawlConfig {
            seeds: seeds.into_iter().map(Into::into).collect(),
            scope: ScopeKind::Host,
            include: Vec::new(),
            exclude: Vec::new(),
            max_depth: 25,
            max_pages: None,
            max_per_pattern: 1000,
            robots: true,
            sitemaps: true,
            per_host: 2,
            delay: Duration::ZERO,
            user_agent: USER_AGENT.to_string(),
            shard: None,
            frontier: None,
            resume: false,
            policy: None,
        }
    }
    same_setters! {
        /// `--scope`.
        scope: ScopeKind,
        /// `--include` patterns (regular expressions).
        include: Vec<String>,
        /// `--exclude` patterns (regular expressions).
        exclude: Vec<String>,
        /// `--max-depth`.
        max_depth: u32,
        /// `--max-pages`.
        max_pages: Option<usize>,
        /// `--max-per-pattern` (0: no cap).
        max_per_pattern: usize,
        /// Obey robots.txt (`false`: `--ignore-robots`).
        robots: bool,
        /// Read sitemaps and feeds.
        sitemaps: bool,
        /// `--delay`.
        delay: Duration,
        /// `--shard K/N`.
        shard: Option<Shard>,
        /// The target policy every URL is checked by before it is taken.
        policy: Option<NetPolicy>,
    }
    /// `--per-host` (at least 1).
    pub fn per_host(mut self, n: usize) -> Self {
        self.per_host = n.max(1);
        self
    }
    /// `--user-agent`.
    pub fn user_agent(mut self, ua: impl Into<String>) -> Self {
        self.user_agent = ua.into();
        self
    }
    /// The frontier's file and whether to resume it.
    pub fn frontier(mut self, path: Option<PathBuf>, resume: bool) -> Self {
        self.frontier = path;
        self.resume = resume;
        self
    }
}
