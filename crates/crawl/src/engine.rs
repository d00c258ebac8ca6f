//! The crawl's state over its loop ([`Engine`]): the scope, the frontier, the hosts'
//! politeness, each host's robots.txt, and the fingerprints that mark near-duplicates.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use tokio::time::Instant;

use sightline_core::extract::links::PageLink;
use sightline_egress::guard::NetPolicy;

use crate::frontier::{Entry, FoundIn, Frontier, NewUrl};
use crate::{
    fetch, input_error, polite, robots, sitemaps, urls, CrawlConfig, CrawlSummary, Error, Pages,
    ROBOTS_TOKEN, USER_AGENT,
};

/// What the loop does with a page: crawl (render, score, record) or map (render, list).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    Crawl,
    Map,
}

/// Sitemaps (indexes included) read for one host at most.
const MAX_SITEMAPS: usize = 1000;
/// Bytes of robots.txt read (RFC 9309 §2.5: at least 500 KiB).
const MAX_ROBOTS_BYTES: u64 = 512 << 10;

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

/// The crawl's state over its loop.
pub(crate) struct Engine<'a> {
    pub(crate) cfg: &'a CrawlConfig,
    pub(crate) scope: urls::Scope,
    pub(crate) frontier: Frontier,
    pub(crate) hosts: polite::Hosts,
    /// Links followed from a seed at most ([`crate::CrawlSettings::depth`] for the mode).
    pub(crate) depth_limit: u32,
    robots: HashMap<String, robots::Robots>,
    /// The User-Agent of robots.txt and sitemap requests (see [`CrawlConfig::user_agent`]).
    user_agent: String,
    fetcher: fetch::Fetcher,
    /// The policy every URL is checked by before it is taken: the crawl's, else the
    /// renderer's.
    pub(crate) policy: Option<NetPolicy>,
    pub(crate) prints: Vec<(String, u64)>,
    stop_words: HashSet<&'a str>,
    pub(crate) summary: CrawlSummary,
}

fn seed_url(s: &str) -> Option<String> {
    let s = s.trim();
    if s.contains("://") {
        urls::normalize(s)
    } else {
        urls::normalize(&format!("https://{s}"))
    }
}

impl<'a> Engine<'a> {
    /// Phase 1: the seeds this shard owns, the scope, the frontier and the fetcher.
    pub(crate) fn open(
        cfg: &'a CrawlConfig,
        pages: &(impl Pages + ?Sized),
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
        let set = &cfg.settings;
        set.validate()?;
        let scope = urls::Scope::new(set.scope, &seeds, &set.include, &set.exclude)?;
        let frontier = Frontier::open(
            cfg.frontier.as_deref().filter(|_| mode == Mode::Crawl),
            cfg.resume,
            set.max_per_pattern,
        )?;
        let user_agent = match pages.user_agent() {
            Some(ua) if cfg.user_agent == USER_AGENT => ua.to_string(),
            _ => cfg.user_agent.clone(),
        };
        let policy = cfg.policy.clone().or_else(|| pages.policy().cloned());
        let fetcher =
            fetch::Fetcher::new(&user_agent, pages.proxy(), policy.clone(), pages.timeout())
                .map_err(|m| input_error("robots.txt and sitemaps", m))?;
        let prints = frontier.prints()?;
        Ok((
            Engine {
                cfg,
                scope,
                frontier,
                hosts: polite::Hosts::new(set.per_host, set.delay()),
                depth_limit: set.depth(mode == Mode::Map),
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

    pub(crate) fn new_url(
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
    pub(crate) async fn robots_for(&mut self, url: &str) -> &robots::Robots {
        let host = urls::host_key(url);
        if !self.robots.contains_key(&host) {
            let r = if self.cfg.settings.robots {
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
    pub(crate) async fn discover(&mut self, seeds: &[String]) -> Result<(), Error> {
        let mut done_hosts = HashSet::new();
        for seed in seeds {
            let host = urls::host_key(seed);
            let mut queue: Vec<String> = self.robots_for(seed).await.sitemaps.clone();
            if !done_hosts.insert(host.clone())
                || !self.cfg.settings.sitemaps
                || self.depth_limit == 0
            {
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
    pub(crate) fn follow(&self, links: &[PageLink], from: &Entry, base: &str) -> Vec<NewUrl> {
        let depth = from.depth + 1;
        if depth > self.depth_limit {
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
    pub(crate) fn fingerprint(&self, text: &str) -> Option<u64> {
        use sightline_core::extract::vsse::simhash;
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
pub(crate) fn rate_limited(e: &Error) -> bool {
    match e {
        Error::Http { status, .. } => matches!(status, 429 | 503),
        Error::Blocked { wall, .. } => wall.kind == sightline_core::walls::WallKind::RateLimited,
        _ => false,
    }
}

/// The wait a rate-limited page asked for (its `Retry-After`, which the renderer keeps on
/// the rate-limit wall it names), if it gave one.
pub(crate) fn retry_after(e: &Error) -> Option<Duration> {
    match e {
        Error::Blocked { wall, .. } => wall.retry_after(),
        _ => None,
    }
}
