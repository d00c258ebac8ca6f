//! The flags that bound and pace a crawl (scope, include and exclude patterns, robots.txt,
//! sitemaps, politeness, the per-pattern cap), shared by `crawl` and `map`, and their
//! conversion to the library's [`sightline::CrawlConfig`].

use std::time::Duration;

use clap::Args;

/// What bounds and paces a crawl (shared by `crawl` and `map`).
#[derive(Debug, Args, Clone)]
pub struct ScopeArgs {
    /// How far from the seeds to go: host (the seed's host, www. aside), domain (its
    /// registrable domain and subdomains) or prefix (URLs under the seed's path).
    #[arg(long, default_value = "host", value_name = "host|domain|prefix")]
    pub scope: sightline::ScopeKind,
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
    pub fn config(
        &self,
        seeds: &[String],
        max_depth: u32,
        user_agent: Option<&str>,
    ) -> sightline::CrawlConfig {
        let mut c = sightline::CrawlConfig::new(seeds.iter().cloned())
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
