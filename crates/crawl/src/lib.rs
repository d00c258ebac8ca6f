//! `sightline crawl` and `sightline map`: from seeds to every page of a site, one record per
//! page, through the front door's pipeline behind one seam ([`Pages`]: render and score a
//! URL, or render it for its links), so this crate never touches Chromium or the scorers.
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
//!
//! # Layout
//! - `config`: [`CrawlSettings`], what bounds and paces a crawl, declared once for every
//!   front end with its defaults, units and checks; [`CrawlConfig`], a crawl's settings with
//!   its seeds.
//! - `seam`: what the crawl needs of the pipeline ([`Pages`], [`CrawlRecord`]).
//! - `engine`: the crawl's state: scope, frontier, hosts, robots.txt, duplicates.
//! - `run`: [`crawl`] and [`map`], the loop.
//! - [`fetch`]: the plain HTTP client of robots.txt and sitemaps.
//! - [`frontier`]: the frontier on disk (SQLite).
//! - [`polite`]: per-host concurrency, delay and backoff.
//! - [`robots`]: robots.txt rules and Crawl-delay.
//! - [`sitemaps`]: sitemaps, sitemap indexes and feeds.
//! - [`urls`]: normalisation, scope, path patterns.
//! - `tests`: the loop over a scripted pipeline on tokio's paused clock (delay, backoff,
//!   Retry-After, bounds).
#![forbid(unsafe_code)]
#![warn(unreachable_pub)]

mod config;
mod engine;
pub(crate) mod fetch;
pub(crate) mod frontier;
pub(crate) mod polite;
pub(crate) mod robots;
mod run;
mod seam;
pub(crate) mod sitemaps;
#[cfg(test)]
mod tests;
pub(crate) mod urls;

pub use config::{
    CrawlConfig, CrawlSettings, SettingsError, DEFAULT_MAP_DEPTH, DEFAULT_MAX_DEPTH,
    DEFAULT_MAX_PER_PATTERN, DEFAULT_PER_HOST,
};
pub use run::{crawl, map};
pub use seam::{CrawlRecord, Pages, Scored};
pub use urls::ScopeKind;

use sightline_core::Error;

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

/// Bits within which two pages' SimHash fingerprints make them near-duplicates: 3 of 64, the
/// setting Manku, Jain & Das Sarma found for web pages ("Detecting Near-Duplicates for Web
/// Crawling", WWW 2007, §3: k = 3 for 64-bit fingerprints of 8B pages).
pub const NEAR_DUPLICATE_BITS: u32 = 3;

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
    /// Records whose page is behind a wall, by the wall's kind (`{"challenge": 3,
    /// "paywall": 1}`): `blocked` errors and successes that name a wall. A site that starts
    /// blocking the crawl shows here first.
    pub walls: std::collections::BTreeMap<String, usize>,
    /// Records by the render lane their snapshot came from (`--render auto` or `static`):
    /// `static`, `full`, `static-then-full`; empty without a lane.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub lanes: std::collections::BTreeMap<String, usize>,
}

impl CrawlSummary {
    /// Count a record's wall in [`CrawlSummary::walls`].
    pub(crate) fn count_wall(&mut self, kind: Option<sightline_core::walls::WallKind>) {
        if let Some(k) = kind {
            *self.walls.entry(k.as_str().to_string()).or_default() += 1;
        }
    }

    /// Count a record's lane in [`CrawlSummary::lanes`].
    pub(crate) fn count_lane(&mut self, lane: Option<&str>) {
        if let Some(l) = lane {
            *self.lanes.entry(l.to_string()).or_default() += 1;
        }
    }
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

fn input_error(input: &str, message: String) -> Error {
    Error::Input {
        input: input.to_string(),
        message,
        source: None,
    }
}
