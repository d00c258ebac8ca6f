//! `sightline crawl` and `sightline map`: from seeds to every page of a site, through the
//! one batch pipeline ([`crate::batch::render_and_score`]), one record per page.
//!
//! Phases of a crawl ([`crawl`]):
//! 1. **Seeds**: normalised ([`urls::normalize`]) and, with `--shard K/N`, kept when this
//!    shard owns their registrable domain; they open the frontier ([`frontier::Frontier`],
//!    SQLite beside the output, so `--resume` continues it).
//! 2. **Discovery**: each seed host's robots.txt ([`robots`], fetched by [`fetch`]), the
//!    sitemaps it names and `/sitemap.xml` (indexes, gzip, RSS and Atom feeds:
//!    [`sitemaps`]) add their URLs at depth 1.
//! 3. **The loop**: the shallowest queued URL whose host is ready ([`polite::Hosts`]: requests
//!    in flight, delay, backoff) and that the crawl's target policy allows (when it has one:
//!    [`CrawlConfig::policy`]) is rendered and scored; its links (after its scripts ran,
//!    nofollow left out) that are in scope ([`urls::Scope`]), within `--max-depth` and the
//!    per-path-pattern cap join the frontier; `rel=canonical` folds duplicates; a SimHash of
//!    the text marks near-duplicates; its record is written, then marked done.
//!
//! A record is written before its URL is marked done, and on `--resume` every URL that has a
//! record is marked done first: a crawl killed at any point records every page exactly once
//! and fetches none that has a record again.
//!
//! `map` ([`map`]) runs the same discovery and loop to a small depth with renders only (no
//! scoring, no records) and lists the URLs found.

pub mod fetch;
pub mod frontier;
pub mod polite;
pub mod robots;
pub mod sitemaps;
pub mod urls;

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::stream::FuturesUnordered;
use futures::StreamExt;

use crate::batch::{self, Cancel, PageConfig, PageOut, PageRenderer, Shard};
use crate::extract::links::{page_links, PageLink};
use crate::render::{Input, PageRender, Rendered};
use crate::{Error, Tree};

use frontier::{Entry, FoundIn, Frontier, NewUrl};
pub use urls::ScopeKind;

/// The User-Agent of a crawl unless one is given: it names sightline and where to read
/// about it, as robots.txt conventions ask.
pub const USER_AGENT: &str = concat!(
    "Mozilla/5.0 (compatible; sightline/",
    env!("CARGO_PKG_VERSION"),
    "; +https://github.com/sightline-project/sightline)"
);

/// The robots.txt user-agent token sightline's groups are matched by (with another
/// User-Agent, its first product token: `examplebot` of `examplebot/1.0 (+url)`).
pub const ROBOTS_TOKEN: &str = "sightline";

/// The robots.txt token of a User-Agent ([`ROBOTS_TOKEN`] for sightline's own).
fn robots_token(user_agent: &str) -> &str {
    if user_agent == USER_AGENT {
        return ROBOTS_TOKEN;
    }
    user_agent
        .split(['/', ' ', ';', '('])
        .find(|t| !t.is_empty())
        .unwrap_or(ROBOTS_TOKEN)
}

/// Bits within which two pages' SimHash fingerprints make them near-duplicates: 3 of 64, the
/// setting Manku, Jain & Das Sarma found for web pages ("Detecting Near-Duplicates for Web
/// Crawling", WWW 2007, §3: k = 3 for 64-bit fingerprints of 8B pages).
pub const NEAR_DUPLICATE_BITS: u32 = 3;

/// Sitemaps (indexes included) read for one host at most.
const MAX_SITEMAPS: usize = 1000;
/// Attempts at one URL answered 429 or 503.
const MAX_ATTEMPTS: u32 = 3;
/// Bytes of robots.txt read (RFC 9309 §2.5: at least 500 KiB).
const MAX_ROBOTS_BYTES: u64 = 512 << 10;

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
    /// ([`USER_AGENT`] by default: then the browser-wide one, [`RenderOptions::user_agent`],
    /// when the browser has one). The pages' is the browser's: launch it with
    /// [`crate::Options::user_agent`]`(USER_AGENT)` for the pages to name sightline, as
    /// `sightline crawl` does unless `--user-agent` is given.
    ///
    /// [`RenderOptions::user_agent`]: crate::render::RenderOptions::user_agent
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
    /// renderer's, [`RenderOptions::policy`](crate::render::RenderOptions::policy), when it
    /// has one: `crawl --deny-private`, Python's `deny_private=True`). `sightline serve` and
    /// MCP set their own.
    pub policy: Option<crate::render::guard::NetPolicy>,
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
        policy: Option<crate::render::guard::NetPolicy>,
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
    /// The frontier file beside an output: `DIR/frontier.sqlite` for `-o DIR`,
    /// `FILE.frontier.sqlite` for `-o FILE`.
    pub fn frontier_beside(dest: &crate::batch::Dest) -> Option<PathBuf> {
        match dest {
            crate::batch::Dest::Dir(d) => Some(d.join("frontier.sqlite")),
            crate::batch::Dest::File(f) => {
                let mut s = f.clone().into_os_string();
                s.push(".frontier.sqlite");
                Some(PathBuf::from(s))
            }
            crate::batch::Dest::Stdout => None,
        }
    }
}

/// How a crawl ended.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct CrawlSummary {
    /// Records written.
    pub recorded: usize,
    /// Records that are errors.
    pub failed: usize,
    /// Pages that rendered but kept no text.
    pub empty: usize,
    /// Records folded into their canonical URL (`duplicate_of`).
    pub duplicates: usize,
    /// Records marked `near_duplicate_of`.
    pub near_duplicates: usize,
    /// URLs robots.txt kept the crawl from.
    pub disallowed: usize,
    /// URLs the crawl's target policy ([`CrawlConfig::policy`]) refused: never fetched.
    pub refused: usize,
    /// The crawl was cancelled (or hit `--max-pages`) with URLs still queued.
    pub interrupted: bool,
}

/// One URL `map` found.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Mapped {
    pub url: String,
    pub depth: u32,
    /// `seed`, `sitemap`, `link` or `feed`.
    pub found_in: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
}

/// What the loop does with a page: crawl (render, score, record) or map (render, list).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Crawl,
    Map,
}

enum Fetched {
    Scored(Box<batch::page::Finished>),
    Rendered(Box<Rendered>),
}

/// The crawl's state over its loop.
struct Engine<'a> {
    cfg: &'a CrawlConfig,
    scope: urls::Scope,
    frontier: Frontier,
    hosts: polite::Hosts,
    robots: HashMap<String, robots::Robots>,
    /// The User-Agent of robots.txt and sitemap requests (see [`CrawlConfig::user_agent`]).
    user_agent: String,
    fetcher: fetch::Fetcher,
    /// The policy every URL is checked by before it is taken: the crawl's, else the
    /// renderer's.
    policy: Option<crate::render::guard::NetPolicy>,
    prints: Vec<(String, u64)>,
    stop_words: HashSet<&'a str>,
    summary: CrawlSummary,
}

fn seed_url(s: &str) -> Option<String> {
    let s = s.trim();
    if s.contains("://") {
        urls::normalize(s)
    } else {
        urls::normalize(&format!("https://{s}"))
    }
}

fn input_error(input: &str, message: String) -> Error {
    Error::Input {
        input: input.to_string(),
        message,
        source: None,
    }
}

impl<'a> Engine<'a> {
    fn open(
        cfg: &'a CrawlConfig,
        render: &crate::render::RenderOptions,
        mode: Mode,
        stop_words: HashSet<&'a str>,
    ) -> Result<(Engine<'a>, Vec<String>), Error> {
        let mut seeds = Vec::new();
        for s in &cfg.seeds {
            let u = seed_url(s)
                .ok_or_else(|| input_error(s, "not an http(s) URL to crawl from".into()))?;
            let owned = cfg.shard.is_none_or(|sh| {
                let host = url::Url::parse(&u)
                    .ok()
                    .and_then(|x| x.host_str().map(str::to_string))
                    .unwrap_or_default();
                sh.owns(&urls::registrable_domain(&host))
            });
            if owned && !seeds.contains(&u) {
                seeds.push(u);
            }
        }
        let scope = urls::Scope::new(cfg.scope, &seeds, &cfg.include, &cfg.exclude)
            .map_err(|m| input_error("--include/--exclude", m))?;
        let frontier = Frontier::open(
            cfg.frontier.as_deref().filter(|_| mode == Mode::Crawl),
            cfg.resume,
            cfg.max_per_pattern,
        )?;
        let user_agent = match &render.user_agent {
            Some(ua) if cfg.user_agent == USER_AGENT => ua.clone(),
            _ => cfg.user_agent.clone(),
        };
        let policy = cfg.policy.clone().or_else(|| render.policy.clone());
        let fetcher = fetch::Fetcher::new(
            &user_agent,
            render.proxy.as_deref(),
            policy.clone(),
            render.timeout,
        )
        .map_err(|m| input_error("robots.txt and sitemaps", m))?;
        let prints = frontier.prints()?;
        Ok((
            Engine {
                cfg,
                scope,
                frontier,
                hosts: polite::Hosts::new(cfg.per_host, cfg.delay),
                robots: HashMap::new(),
                user_agent,
                fetcher,
                policy,
                prints,
                stop_words,
                summary: CrawlSummary::default(),
            },
            seeds,
        ))
    }

    fn new_url(
        &self,
        url: String,
        depth: u32,
        parent: Option<String>,
        found_in: FoundIn,
    ) -> NewUrl {
        NewUrl {
            host: urls::host_key(&url),
            pattern: urls::path_pattern(&url),
            url,
            depth,
            parent,
            found_in,
        }
    }

    /// The host's robots.txt, fetched once (everything allowed with `--ignore-robots`).
    async fn robots_for(&mut self, url: &str) -> &robots::Robots {
        let host = urls::host_key(url);
        if !self.robots.contains_key(&host) {
            let r = if self.cfg.robots {
                let robots_url = url::Url::parse(url)
                    .and_then(|u| u.join("/robots.txt"))
                    .map(|u| u.to_string())
                    .unwrap_or_default();
                let a = self.fetcher.get(&robots_url, MAX_ROBOTS_BYTES).await;
                robots::Robots::from_answer(robots_token(&self.user_agent), a.status, &a.body)
            } else {
                robots::Robots::allow_all()
            };
            if let Some(d) = r.delay {
                self.hosts.set_crawl_delay(&host, d, Instant::now());
            }
            self.robots.insert(host.clone(), r);
        }
        &self.robots[&host]
    }

    /// Phase 2: robots.txt, its sitemaps and `/sitemap.xml` of each seed's host.
    async fn discover(&mut self, seeds: &[String]) -> Result<(), Error> {
        let mut done_hosts = HashSet::new();
        for seed in seeds {
            let host = urls::host_key(seed);
            let mut queue: Vec<String> = self.robots_for(seed).await.sitemaps.clone();
            if !done_hosts.insert(host.clone()) || !self.cfg.sitemaps || self.cfg.max_depth == 0 {
                continue;
            }
            let flag = format!("sitemaps:{host}");
            if self.frontier.flag(&flag)? {
                continue;
            }
            if let Ok(u) = url::Url::parse(seed).and_then(|u| u.join("/sitemap.xml")) {
                queue.push(u.to_string());
            }
            let mut seen = HashSet::new();
            while let Some(sm) = queue.pop() {
                if !seen.insert(sm.clone()) || seen.len() > MAX_SITEMAPS {
                    continue;
                }
                let a = self.fetcher.get(&sm, sitemaps::MAX_SITEMAP_BYTES).await;
                if !a.status.is_some_and(|s| (200..300).contains(&s)) {
                    continue;
                }
                let listing = sitemaps::parse(a.body);
                queue.extend(listing.sitemaps);
                let found_in = if listing.feed {
                    FoundIn::Feed
                } else {
                    FoundIn::Sitemap
                };
                let allowed = |p: &String| {
                    self.robots
                        .get(&urls::host_key(p))
                        .is_none_or(|r| r.allowed(p))
                };
                let found: Vec<NewUrl> = listing
                    .pages
                    .iter()
                    .filter_map(|p| urls::normalize(p))
                    .filter(|p| self.scope.contains(p) && allowed(p))
                    .map(|p| self.new_url(p, 1, Some(sm.clone()), found_in))
                    .collect();
                self.frontier.add(&found)?;
            }
            self.frontier.set_flag(&flag)?;
        }
        Ok(())
    }

    /// The links of a page that join the frontier.
    fn follow(&self, links: &[PageLink], from: &Entry, base: &str) -> Vec<NewUrl> {
        let depth = from.depth + 1;
        if depth > self.cfg.max_depth {
            return Vec::new();
        }
        let Ok(base) = url::Url::parse(base) else {
            return Vec::new();
        };
        links
            .iter()
            .filter(|l| !l.nofollow)
            .filter_map(|l| urls::normalize_in(&base, &l.url))
            .filter(|u| self.scope.contains(u))
            .filter(|u| {
                // Known robots rules are applied now; others when the URL is taken.
                self.robots
                    .get(&urls::host_key(u))
                    .is_none_or(|r| r.allowed(u))
            })
            .map(|u| self.new_url(u, depth, Some(from.url.clone()), FoundIn::Link))
            .collect()
    }

    /// A SimHash of a page's text (its keywords weighted by their counts).
    fn fingerprint(&self, text: &str) -> Option<u64> {
        use crate::extract::vsse::simhash;
        let kw = simhash::keywords_with(text, &self.stop_words);
        if kw.len() < 8 {
            return None;
        }
        let mut counts: Vec<(String, f64)> = Vec::new();
        let mut at: HashMap<String, usize> = HashMap::new();
        for k in kw {
            match at.get(&k) {
                Some(&i) => counts[i].1 += 1.0,
                None => {
                    at.insert(k.clone(), counts.len());
                    counts.push((k, 1.0));
                }
            }
        }
        simhash::fingerprint(&counts, 64)
    }
}

/// Is this error a host asking the crawl to slow down (429, 503, a rate-limit wall)?
fn rate_limited(e: &Error) -> bool {
    match e {
        Error::Http { status, .. } => matches!(status, 429 | 503),
        Error::Blocked { wall, .. } => wall.kind == crate::walls::WallKind::RateLimited,
        _ => false,
    }
}

/// The wait a rate-limited page asked for (its `Retry-After`, which the renderer keeps on
/// the rate-limit wall it names), if it gave one.
fn retry_after(e: &Error) -> Option<Duration> {
    match e {
        Error::Blocked { wall, .. } => wall.retry_after(),
        _ => None,
    }
}

/// Crawl from `cfg`'s seeds with `renderer`, scoring each page with `page_cfg`, and hand
/// each record to `write` as it completes (one per page, in completion order). `render` is
/// the renderer's options (the proxy and target policy robots.txt and sitemap requests
/// follow). `recorded` holds the inputs a resumed run's output already has. Only a failure
/// of `write` or of the frontier's file ends the crawl early; page failures are records.
pub async fn crawl<R: PageRenderer + ?Sized>(
    renderer: &R,
    page_cfg: Arc<PageConfig>,
    cfg: &CrawlConfig,
    render: &crate::render::RenderOptions,
    cancel: &Cancel,
    recorded: &HashSet<String>,
    write: &mut (dyn FnMut(&mut PageOut, &CrawlSummary) -> Result<(), Error> + Send),
) -> Result<CrawlSummary, Error> {
    run(
        renderer,
        page_cfg,
        cfg,
        render,
        cancel,
        recorded,
        Mode::Crawl,
        write,
    )
    .await
    .map(|(s, _)| s)
}

/// The URLs a crawl from `cfg` would find to `cfg.max_depth` (robots.txt, sitemaps, the
/// rendered pages' links), without scoring or recording: `map`. Pages at the last depth
/// are listed, not rendered.
pub async fn map<R: PageRenderer + ?Sized>(
    renderer: &R,
    page_cfg: Arc<PageConfig>,
    cfg: &CrawlConfig,
    render: &crate::render::RenderOptions,
    cancel: &Cancel,
) -> Result<Vec<Mapped>, Error> {
    let mut none = |_: &mut PageOut, _: &CrawlSummary| -> Result<(), Error> { Ok(()) };
    run(
        renderer,
        page_cfg,
        cfg,
        render,
        cancel,
        &HashSet::new(),
        Mode::Map,
        &mut none,
    )
    .await
    .map(|(_, m)| m)
}

#[allow(clippy::too_many_arguments)]
async fn run<R: PageRenderer + ?Sized>(
    renderer: &R,
    page_cfg: Arc<PageConfig>,
    cfg: &CrawlConfig,
    render: &crate::render::RenderOptions,
    cancel: &Cancel,
    recorded: &HashSet<String>,
    mode: Mode,
    write: &mut (dyn FnMut(&mut PageOut, &CrawlSummary) -> Result<(), Error> + Send),
) -> Result<(CrawlSummary, Vec<Mapped>), Error> {
    // The pages' User-Agent is the browser's ([`RenderOptions::user_agent`]: `sightline
    // crawl` launches its browser with [`USER_AGENT`] unless --user-agent is given); a plan's
    // own would give every page a browser context of its own.
    let stop = crate::extract::vsse::simhash::stop_set(&page_cfg.params.vsse);
    // Phase 1: seeds and the frontier.
    let (mut e, seeds) = Engine::open(cfg, render, mode, stop)?;
    if cfg.resume {
        e.frontier.mark_recorded(recorded.iter())?;
    }
    let seed_urls: Vec<NewUrl> = seeds
        .iter()
        .map(|s| e.new_url(s.clone(), 0, None, FoundIn::Seed))
        .collect();
    e.frontier.add(&seed_urls)?;
    // Phase 2: robots.txt, sitemaps, feeds.
    e.discover(&seeds).await?;
    // Phase 3: the loop.
    let mut done = e.frontier.done_count()?;
    let conc = renderer.concurrency() + 1;
    let mut in_flight = FuturesUnordered::new();
    let mut first = true;
    loop {
        // Start what may start.
        let mut blocked_by_clock = false;
        while in_flight.len() < conc && !cancel.is_cancelled() {
            if cfg.max_pages.is_some_and(|m| done + in_flight.len() >= m) {
                break;
            }
            let now = Instant::now();
            let busy = e.hosts.busy(now);
            let next = e.frontier.next(conc.max(16), &busy)?;
            let Some(entry) = next.into_iter().find(|x| e.hosts.ready(&x.host, now)) else {
                blocked_by_clock = !busy.is_empty();
                break;
            };
            // A seed the renderer's own policy refuses is rendered, so that its record says
            // why (a `forbidden` error naming the fix); what the crawl found is skipped.
            let checked = match (&cfg.policy, &e.policy) {
                (Some(p), _) => Some(p),
                (None, Some(p)) if entry.found_in != FoundIn::Seed => Some(p),
                _ => None,
            };
            if let Some(p) = checked {
                if let Err(r) = p.check(&entry.url).await {
                    tracing::info!("{}: refused by the target policy: {r}", entry.url);
                    e.frontier.skip(entry.id)?;
                    e.summary.refused += 1;
                    continue;
                }
            }
            if !e.robots_for(&entry.url).await.allowed(&entry.url) {
                e.frontier.skip(entry.id)?;
                e.summary.disallowed += 1;
                continue;
            }
            if mode == Mode::Map && entry.depth >= cfg.max_depth {
                e.frontier.list_only(entry.id)?;
                continue;
            }
            if !e.hosts.ready(&entry.host, Instant::now()) {
                // robots.txt just set a crawl delay for this host.
                blocked_by_clock = true;
                break;
            }
            e.frontier.take(entry.id)?;
            e.hosts.start(&entry.host, Instant::now());
            let launch = std::mem::take(&mut first).then(|| renderer.launch_ms());
            let page_cfg = page_cfg.clone();
            in_flight.push(async move {
                let input = Input::Url(entry.url.clone());
                let r = match mode {
                    Mode::Crawl => batch::render_and_score(
                        renderer, &input, &entry.url, page_cfg, None, launch,
                    )
                    .await
                    .map(|f| Fetched::Scored(Box::new(f))),
                    Mode::Map => {
                        let page = PageRender {
                            screenshot: Some(false),
                            steer: page_cfg.steer.clone(),
                            capture: false,
                        };
                        renderer
                            .render_with(&input, &page)
                            .await
                            .map(|r| Fetched::Rendered(Box::new(r)))
                    }
                };
                (entry, r)
            });
        }
        if in_flight.is_empty() {
            let wake = e.hosts.next_wake(Instant::now());
            match wake {
                Some(w) if blocked_by_clock && !cancel.is_cancelled() => {
                    tokio::time::sleep_until(w.into()).await;
                    continue;
                }
                _ => break,
            }
        }
        let wake = e
            .hosts
            .next_wake(Instant::now())
            .filter(|_| blocked_by_clock)
            .unwrap_or_else(|| Instant::now() + Duration::from_secs(3600));
        let (entry, result) = tokio::select! {
            Some(x) = in_flight.next() => x,
            _ = tokio::time::sleep_until(wake.into()) => continue,
        };
        let now = Instant::now();
        match result {
            Err(err) if rate_limited(&err) && entry.attempts + 1 < MAX_ATTEMPTS => {
                e.hosts.finish(&entry.host, false, now);
                let wait = e.hosts.back_off(&entry.host, retry_after(&err), now);
                tracing::info!("{}: {err}; retrying in {wait:?}", entry.url);
                e.frontier.retry(entry.id)?;
            }
            Err(err) => {
                e.hosts.finish(&entry.host, !rate_limited(&err), now);
                if mode == Mode::Crawl {
                    let mut out = PageOut::error_for(&entry.url, &err, &page_cfg);
                    set_place(&mut out, &entry);
                    e.summary.failed += 1;
                    e.summary.recorded += 1;
                    write(&mut out, &e.summary)?;
                }
                e.frontier.done(entry.id)?;
                done += 1;
            }
            Ok(Fetched::Rendered(r)) => {
                e.hosts.finish(&entry.host, true, now);
                let tree = Tree::new(&r.snapshot);
                let links = page_links(&tree, None);
                let found = e.follow(&links, &entry, &r.snapshot.url);
                e.frontier.add(&found)?;
                e.frontier.done(entry.id)?;
                done += 1;
            }
            Ok(Fetched::Scored(f)) => {
                let f = *f;
                e.hosts.finish(&entry.host, true, now);
                let mut out = f.out;
                let tree = Tree::new(&f.snapshot);
                let kept = f.extractions.first().map(|x| x.kept.as_slice());
                let links = page_links(&tree, kept);
                let base = f.snapshot.url.clone();
                let mut found = e.follow(&links, &entry, &base);
                // rel=canonical: a page naming another in-scope URL is folded into it.
                let canonical = out
                    .record
                    .metadata
                    .as_ref()
                    .and_then(|m| m.canonical_url.as_ref())
                    .and_then(|c| urls::normalize(&c.value))
                    .filter(|c| *c != entry.url && e.scope.contains(c));
                if let Some(c) = &canonical {
                    if !e.frontier.known(c)? && entry.depth <= cfg.max_depth {
                        found.push(e.new_url(
                            c.clone(),
                            entry.depth,
                            Some(entry.url.clone()),
                            FoundIn::Link,
                        ));
                    }
                }
                e.frontier.add(&found)?;
                set_place(&mut out, &entry);
                out.record.links = Some(links);
                if let Some(c) = canonical {
                    out.record.duplicate_of = Some(c);
                    out.record.result = None;
                    out.record.algorithms = None;
                    out.body.clear();
                    out.empty = true;
                    e.summary.duplicates += 1;
                } else if let Some(print) = out
                    .record
                    .result
                    .as_ref()
                    .and_then(|r| e.fingerprint(&r.text))
                {
                    let twin = e
                        .prints
                        .iter()
                        .find(|(_, p)| {
                            crate::extract::vsse::simhash::hamming(*p, print) <= NEAR_DUPLICATE_BITS
                        })
                        .map(|(u, _)| u.clone());
                    if twin.is_some() {
                        e.summary.near_duplicates += 1;
                    }
                    out.record.near_duplicate_of = twin;
                    e.frontier.add_print(&entry.url, print)?;
                    e.prints.push((entry.url.clone(), print));
                }
                if out.failed() {
                    e.summary.failed += 1;
                } else if out.empty && out.record.duplicate_of.is_none() {
                    e.summary.empty += 1;
                }
                e.summary.recorded += 1;
                write(&mut out, &e.summary)?;
                e.frontier.done(entry.id)?;
                done += 1;
            }
        }
    }
    let queued = !e.frontier.next(1, &[])?.is_empty();
    e.summary.interrupted = queued && (cancel.is_cancelled() || cfg.max_pages.is_some());
    let mapped = if mode == Mode::Map {
        e.frontier
            .listed()?
            .into_iter()
            .map(|x| Mapped {
                url: x.url,
                depth: x.depth,
                found_in: x.found_in.as_str().to_string(),
                parent: x.parent,
            })
            .collect()
    } else {
        Vec::new()
    };
    Ok((e.summary, mapped))
}

/// The crawl's fields of a record: where the page sits in the crawl.
fn set_place(out: &mut PageOut, entry: &Entry) {
    out.record.depth = Some(entry.depth);
    out.record.parent = entry.parent.clone();
    out.record.found_in = Some(entry.found_in.as_str().to_string());
}
