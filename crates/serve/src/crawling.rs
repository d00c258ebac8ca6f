//! The bounded crawl and map the services share: the HTTP service's `POST /crawl` and
//! `POST /map` and the MCP `crawl` and `map` tools. One definition of what a caller may ask
//! (scope, patterns, depth, pages) and of the bounds the operator keeps: the pages capped
//! (`--max-crawl-pages` for `serve`, [`MAX_CRAWL_PAGES`] otherwise), every seed checked by the
//! target policy before anything is fetched ([`check_seeds`]) and every URL the crawl finds
//! checked by it again before it is taken ([`sightline::CrawlConfig::policy`]: a link to
//! 127.0.0.1 is skipped, never fetched), the frontier in memory, and a deadline at which the
//! crawl takes no new page ([`within_deadline`]).

use std::time::Duration;

use rmcp::schemars;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use sightline::{Cancel, CrawlConfig, Error, Mapped, NetPolicy};

/// Pages a crawl records when `max_pages` is not given.
pub const DEFAULT_CRAWL_PAGES: usize = 10;
/// The most pages one crawl records unless the operator says otherwise (`serve
/// --max-crawl-pages`).
pub const MAX_CRAWL_PAGES: usize = 100;
/// Links a crawl follows from its seed when `max_depth` is not given.
pub const DEFAULT_CRAWL_DEPTH: u32 = 2;
/// The most URLs one map lists.
pub const MAX_MAP_URLS: usize = 5000;
/// The deepest map (1: the seed's links, robots.txt's and `/sitemap.xml`'s URLs; 2: the
/// links of those pages too).
pub const MAX_MAP_DEPTH: u32 = 2;
/// Pages one map renders at most (the seeds, and at depth 2 the pages they link to).
pub const MAP_RENDERS: usize = 20;
/// The longest wait between two requests to one host a caller may ask for (`delay_ms`).
pub const MAX_DELAY: Duration = Duration::from_secs(10);

/// How far from the seed a crawl or map may go.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum CrawlScope {
    /// The seed's host (default; `www.` aside).
    #[default]
    Host,
    /// The seed's registrable domain and its subdomains.
    Domain,
    /// URLs under the seed's path (up to its last `/`).
    Prefix,
}

impl From<CrawlScope> for sightline::ScopeKind {
    fn from(s: CrawlScope) -> Self {
        match s {
            CrawlScope::Host => sightline::ScopeKind::Host,
            CrawlScope::Domain => sightline::ScopeKind::Domain,
            CrawlScope::Prefix => sightline::ScopeKind::Prefix,
        }
    }
}

/// A seed as the crawl reads it: a URL, or a bare host with `https://` (the library's rule),
/// so that the policy checks what will be fetched.
pub fn seed_url(s: &str) -> String {
    let s = s.trim();
    if s.contains("://") {
        s.to_string()
    } else {
        format!("https://{s}")
    }
}

/// Every seed checked by the target policy: the first refused one is a `forbidden` error
/// naming it (nothing is fetched).
pub async fn check_seeds(policy: &NetPolicy, seeds: &[String]) -> Result<(), Error> {
    for s in seeds {
        if let Err(r) = policy.check(s).await {
            return Err(Error::Forbidden {
                input: s.clone(),
                message: r.to_string(),
            });
        }
    }
    Ok(())
}

/// Pages one crawl records: the caller's `max_pages` (default [`DEFAULT_CRAWL_PAGES`]) held
/// to `1..=cap`.
pub fn page_bound(asked: Option<u32>, cap: usize) -> usize {
    let cap = cap.max(1);
    asked
        .map_or(DEFAULT_CRAWL_PAGES, |n| n as usize)
        .clamp(1, cap)
}

/// A crawl from `seeds` within `scope` and the patterns, every URL checked by `policy`
/// before it is taken, the frontier in memory; recording at most `max_pages`, to
/// `max_depth` (default [`DEFAULT_CRAWL_DEPTH`]).
pub fn crawl_config(
    seeds: Vec<String>,
    scope: CrawlScope,
    include: Vec<String>,
    exclude: Vec<String>,
    max_depth: Option<u32>,
    max_pages: usize,
    policy: &NetPolicy,
) -> CrawlConfig {
    CrawlConfig::new(seeds)
        .scope(scope.into())
        .include(include)
        .exclude(exclude)
        .max_depth(max_depth.unwrap_or(DEFAULT_CRAWL_DEPTH))
        .max_pages(Some(max_pages))
        .policy(Some(policy.clone()))
}

/// A map from `seeds`: [`crawl_config`] to `max_depth` (default 1, at most
/// [`MAX_MAP_DEPTH`]), rendering at most [`MAP_RENDERS`] pages.
pub fn map_config(
    seeds: Vec<String>,
    scope: CrawlScope,
    include: Vec<String>,
    exclude: Vec<String>,
    max_depth: Option<u32>,
    policy: &NetPolicy,
) -> CrawlConfig {
    let depth = max_depth.unwrap_or(1).clamp(1, MAX_MAP_DEPTH);
    crawl_config(
        seeds,
        scope,
        include,
        exclude,
        Some(depth),
        MAP_RENDERS,
        policy,
    )
}

/// The URLs a map lists: at most `limit` (default and most [`MAX_MAP_URLS`]), and whether it
/// found more.
pub fn map_listing(mut found: Vec<Mapped>, limit: Option<u32>) -> (Vec<Mapped>, bool) {
    let limit = limit
        .map_or(MAX_MAP_URLS, |n| n as usize)
        .clamp(1, MAX_MAP_URLS);
    let more = found.len() > limit;
    found.truncate(limit);
    (found, more)
}

/// A crawl or map within a deadline: at `stop_taking`, `cancel` stops it taking new pages,
/// and what it has is answered when the pages in flight end (each within its own deadline).
pub async fn within_deadline<T>(
    work: impl std::future::Future<Output = Result<T, Error>>,
    cancel: &Cancel,
    stop_taking: Option<Duration>,
) -> Result<T, Error> {
    let Some(t) = stop_taking else {
        return work.await;
    };
    tokio::pin!(work);
    tokio::select! {
        r = &mut work => r,
        _ = tokio::time::sleep(t) => {
            cancel.cancel();
            work.await
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_are_held_to_the_operators_cap() {
        assert_eq!(page_bound(None, 100), DEFAULT_CRAWL_PAGES);
        assert_eq!(page_bound(Some(500), 100), 100);
        assert_eq!(page_bound(Some(50), 3), 3);
        assert_eq!(page_bound(Some(0), 3), 1);
        assert_eq!(page_bound(None, 0), 1);
    }

    #[test]
    fn a_bare_host_is_an_https_seed() {
        assert_eq!(seed_url(" example.com "), "https://example.com");
        assert_eq!(seed_url("http://a.test/x"), "http://a.test/x");
    }

    #[tokio::test]
    async fn a_loopback_seed_is_forbidden_by_the_default_policy() {
        let seeds = vec![
            "https://93.184.215.14/".to_string(),
            "http://127.0.0.1:9/".to_string(),
        ];
        let e = check_seeds(&NetPolicy::default(), &seeds)
            .await
            .unwrap_err();
        assert_eq!(e.kind(), "forbidden");
        assert!(e.to_string().contains("127.0.0.1"), "{e}");
        let allow = NetPolicy {
            allow_private: true,
            ..Default::default()
        };
        assert!(check_seeds(&allow, &seeds).await.is_ok());
    }

    #[test]
    fn the_config_carries_the_policy_and_the_bounds() {
        let p = NetPolicy::default();
        let c = map_config(
            vec!["https://a.test/".into()],
            CrawlScope::Domain,
            vec![],
            vec![],
            Some(9),
            &p,
        );
        assert_eq!(c.max_depth, MAX_MAP_DEPTH);
        assert_eq!(c.max_pages, Some(MAP_RENDERS));
        assert_eq!(c.policy, Some(p));
        assert!(c.frontier.is_none());
    }
}
