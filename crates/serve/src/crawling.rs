//! The bounded crawl and map the services share: the HTTP service's `POST /crawl` and
//! `POST /map` and the MCP `crawl` and `map` tools. A caller gives the library's
//! [`CrawlSettings`] (the same JSON fields on both transports); [`admit`] is the one door a
//! request goes through, holding it to the bounds the operator keeps: the pages capped
//! (`--max-crawl-pages` for `serve`, [`MAX_CRAWL_PAGES`] otherwise), robots.txt obeyed, the
//! requests to a host held to the service's tabs and their delay to [`MAX_DELAY`], every seed
//! checked by the target policy before anything is fetched and every URL the crawl finds
//! checked by it again before it is taken ([`sightline::CrawlConfig::policy`]: a link to
//! 127.0.0.1 is skipped, never fetched), the frontier in memory; and a deadline at which the
//! crawl takes no new page ([`within_deadline`]).

use std::time::Duration;

use sightline::{Cancel, CrawlConfig, CrawlSettings, Error, Mapped, NetPolicy, SettingsError};

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

/// What a request asks for: a crawl (pages recorded) or a map (URLs listed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Job {
    Crawl,
    Map,
}

/// The operator's bounds a request is held to.
#[derive(Debug, Clone, Copy)]
pub struct Bounds<'a> {
    /// Every seed and every URL found is checked by it.
    pub policy: &'a NetPolicy,
    /// The most pages one crawl records.
    pub max_crawl_pages: usize,
    /// The service's tabs: the most requests in flight to one host.
    pub tabs: usize,
}

/// Why a crawl or map request was refused before anything was fetched. Each transport maps
/// [`Refusal::kind`] to its status (`input`: 400, `forbidden`: 403).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Refusal {
    /// The settings do not hold (a pattern that is not a regular expression, ...).
    #[error(transparent)]
    Settings(#[from] SettingsError),
    /// No seed, or more seeds than pages.
    #[error("{0}")]
    Seeds(String),
    /// `robots: false`: the service always obeys robots.txt.
    #[error("robots is false: this service always obeys robots.txt")]
    Robots,
    /// A seed the target policy refuses.
    #[error(transparent)]
    Forbidden(Error),
}

impl Refusal {
    /// `input` or `forbidden`, as the library's errors name their kinds.
    pub fn kind(&self) -> &'static str {
        match self {
            Refusal::Settings(_) | Refusal::Seeds(_) => "input",
            Refusal::Robots | Refusal::Forbidden(_) => "forbidden",
        }
    }

    /// The refusal as the library's error (a `forbidden` seed keeps its own).
    pub fn into_error(self, input: &str) -> Error {
        match self {
            Refusal::Forbidden(e) => e,
            Refusal::Robots => Error::Forbidden {
                input: input.to_string(),
                message: Refusal::Robots.to_string(),
            },
            other => Error::Input {
                input: input.to_string(),
                message: other.to_string(),
                source: Some(Box::new(other)),
            },
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
pub fn page_bound(asked: Option<usize>, cap: usize) -> usize {
    asked.unwrap_or(DEFAULT_CRAWL_PAGES).clamp(1, cap.max(1))
}

/// The one door of a crawl or map request: `settings` checked
/// ([`CrawlSettings::validate`]), robots.txt obeyed, the seeds (some, at most as many as
/// pages, each allowed by the policy) and the settings held to the operator's `bounds`. A
/// crawl records at most [`page_bound`] pages to `max_depth` (default
/// [`DEFAULT_CRAWL_DEPTH`]); a map renders at most [`MAP_RENDERS`] pages to `max_depth`
/// (default 1, at most [`MAX_MAP_DEPTH`]). The frontier is in memory.
pub async fn admit(
    job: Job,
    seeds: Vec<String>,
    mut settings: CrawlSettings,
    bounds: &Bounds<'_>,
) -> Result<CrawlConfig, Refusal> {
    let seeds: Vec<String> = seeds.iter().map(|s| seed_url(s)).collect();
    if seeds.is_empty() {
        return Err(Refusal::Seeds(
            "seeds is empty: give one URL or a list".into(),
        ));
    }
    settings.validate()?;
    if !settings.robots {
        return Err(Refusal::Robots);
    }
    let (pages, depth) = match job {
        Job::Crawl => (
            page_bound(settings.max_pages, bounds.max_crawl_pages),
            settings.max_depth.unwrap_or(DEFAULT_CRAWL_DEPTH),
        ),
        Job::Map => (
            settings
                .max_pages
                .unwrap_or(MAP_RENDERS)
                .clamp(1, MAP_RENDERS),
            settings.depth(true).clamp(1, MAX_MAP_DEPTH),
        ),
    };
    if seeds.len() > pages {
        return Err(Refusal::Seeds(format!(
            "{} seeds: at most {pages} in one request",
            seeds.len()
        )));
    }
    check_seeds(bounds.policy, &seeds)
        .await
        .map_err(Refusal::Forbidden)?;
    settings.max_pages = Some(pages);
    settings.max_depth = Some(depth);
    settings.per_host = settings.per_host.clamp(1, bounds.tabs.max(1));
    settings.delay_ms = settings.delay_ms.min(MAX_DELAY.as_millis() as u64);
    Ok(CrawlConfig::new(seeds)
        .settings(settings)
        .policy(Some(bounds.policy.clone())))
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

    fn bounds(p: &NetPolicy) -> Bounds<'_> {
        Bounds {
            policy: p,
            max_crawl_pages: 100,
            tabs: 2,
        }
    }

    #[tokio::test]
    async fn the_config_carries_the_policy_and_the_bounds() {
        let p = NetPolicy::default();
        let s: CrawlSettings = serde_json::from_value(serde_json::json!({
            "scope": "domain", "max_depth": 9, "per_host": 8, "delay_ms": 60_000
        }))
        .unwrap();
        let c = admit(Job::Map, vec!["93.184.215.14".into()], s, &bounds(&p))
            .await
            .unwrap();
        assert_eq!(c.seeds, ["https://93.184.215.14"]);
        assert_eq!(c.settings.max_depth, Some(MAX_MAP_DEPTH));
        assert_eq!(c.settings.max_pages, Some(MAP_RENDERS));
        assert_eq!((c.settings.per_host, c.settings.delay()), (2, MAX_DELAY));
        assert_eq!(c.policy, Some(p));
        assert!(c.frontier.is_none());
    }

    #[tokio::test]
    async fn refusals_have_their_kinds() {
        let p = NetPolicy::default();
        let b = bounds(&p);
        let seed = || vec!["https://93.184.215.14/".to_string()];
        let refuse = |v: serde_json::Value| serde_json::from_value::<CrawlSettings>(v).unwrap();
        let kind = |r: Result<CrawlConfig, Refusal>| r.unwrap_err().kind();
        let bad = refuse(serde_json::json!({"include": ["("]}));
        assert_eq!(kind(admit(Job::Crawl, seed(), bad, &b).await), "input");
        let robots = refuse(serde_json::json!({"robots": false}));
        assert_eq!(
            kind(admit(Job::Crawl, seed(), robots, &b).await),
            "forbidden"
        );
        let none = CrawlSettings::default();
        assert_eq!(
            kind(admit(Job::Crawl, vec![], none.clone(), &b).await),
            "input"
        );
        let local = vec!["http://127.0.0.1:9/".to_string()];
        assert_eq!(kind(admit(Job::Map, local, none, &b).await), "forbidden");
    }
}
