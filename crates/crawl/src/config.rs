//! [`CrawlSettings`]: what bounds and paces a crawl, declared once for every front end (the
//! CLI's flags, the JSON bodies of `serve` and MCP, Python's keywords) with its defaults, its
//! units (counts, and milliseconds for the delay) and [`CrawlSettings::validate`]; and
//! [`CrawlConfig`]: a crawl's settings with its seeds and what only a program gives (the
//! User-Agent, the shard, the frontier's file, the target policy).

use std::path::PathBuf;
use std::time::Duration;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use sightline_core::inputs::Shard;
use sightline_egress::guard::NetPolicy;

#[cfg(doc)]
use crate::{CrawlSummary, Pages};
use crate::{ScopeKind, USER_AGENT};

/// Links a crawl follows from a seed when `max_depth` is not given.
pub const DEFAULT_MAX_DEPTH: u32 = 25;
/// Links a map follows from a seed when `max_depth` is not given.
pub const DEFAULT_MAP_DEPTH: u32 = 1;
/// Requests in flight to one host when `per_host` is not given.
pub const DEFAULT_PER_HOST: usize = 2;
/// Pages of one path pattern when `max_per_pattern` is not given.
pub const DEFAULT_MAX_PER_PATTERN: usize = 1000;

/// What bounds and paces a crawl: the options every front end takes, under the same names
/// (the CLI's flags are their kebab-case) and in the same units (counts; `delay_ms` in
/// milliseconds). The CLI flattens it (the `clap` feature), `serve`'s `/crawl` and `/map`
/// bodies and MCP's `crawl` and `map` arguments are it in JSON, and Python's keywords are
/// read as that JSON. A field left out takes its default; [`CrawlSettings::validate`] checks
/// what a type cannot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(default)]
#[non_exhaustive]
pub struct CrawlSettings {
    /// How far from the seeds to go: host (the seed's host, www. aside), domain (its
    /// registrable domain and subdomains) or prefix (URLs under the seed's path).
    #[cfg_attr(
        feature = "clap",
        arg(long, value_enum, default_value_t, value_name = "host|domain|prefix")
    )]
    pub scope: ScopeKind,
    /// Follow only URLs matching this regular expression (repeatable: any of them).
    #[cfg_attr(feature = "clap", arg(long, value_name = "REGEX"))]
    pub include: Vec<String>,
    /// Never follow URLs matching this regular expression (repeatable).
    #[cfg_attr(feature = "clap", arg(long, value_name = "REGEX"))]
    pub exclude: Vec<String>,
    /// Links to follow from a seed at most (default 25 for a crawl, 1 for a map; pages a
    /// sitemap lists are at depth 1).
    #[cfg_attr(feature = "clap", arg(long, value_name = "N"))]
    pub max_depth: Option<u32>,
    /// Record at most this many pages (a map: render at most this many; default: no bound).
    #[cfg_attr(feature = "clap", arg(long, value_name = "N"))]
    pub max_pages: Option<usize>,
    /// At most this many pages of one path pattern (digits and ids folded, query values
    /// dropped: /calendar/2024/05 and /calendar/1999/12 are one pattern); 0: no cap.
    #[cfg_attr(
        feature = "clap",
        arg(long, default_value_t = DEFAULT_MAX_PER_PATTERN, value_name = "N")
    )]
    pub max_per_pattern: usize,
    /// Obey robots.txt: its rules and Crawl-delay (default true).
    #[cfg_attr(
        feature = "clap",
        arg(
            long = "ignore-robots",
            action = clap::ArgAction::SetFalse,
            help = "Do not read robots.txt (by default its rules and Crawl-delay are obeyed)"
        )
    )]
    pub robots: bool,
    /// Read the sitemaps and feeds robots.txt names and /sitemap.xml (default true).
    #[cfg_attr(
        feature = "clap",
        arg(
            long = "no-sitemaps",
            action = clap::ArgAction::SetFalse,
            help = "Do not read sitemaps and feeds (robots.txt's Sitemap: lines and /sitemap.xml)"
        )
    )]
    pub sitemaps: bool,
    /// Requests in flight to one host (at least 1).
    #[cfg_attr(
        feature = "clap",
        arg(long, default_value_t = DEFAULT_PER_HOST, value_name = "N")
    )]
    pub per_host: usize,
    /// Milliseconds between the starts of two requests to one host (robots.txt's
    /// Crawl-delay when larger).
    #[cfg_attr(
        feature = "clap",
        arg(
            long = "delay",
            alias = "delay-ms",
            default_value_t = 0,
            value_name = "MS"
        )
    )]
    pub delay_ms: u64,
}

impl Default for CrawlSettings {
    fn default() -> Self {
        CrawlSettings {
            scope: ScopeKind::Host,
            include: Vec::new(),
            exclude: Vec::new(),
            max_depth: None,
            max_pages: None,
            max_per_pattern: DEFAULT_MAX_PER_PATTERN,
            robots: true,
            sitemaps: true,
            per_host: DEFAULT_PER_HOST,
            delay_ms: 0,
        }
    }
}

/// Settings that cannot be crawled with, each naming the field at fault.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SettingsError {
    /// An `include` or `exclude` pattern that is not a regular expression.
    #[error("{field} {pattern:?} is not a regular expression: {source}")]
    Pattern {
        /// `include` or `exclude`.
        field: &'static str,
        pattern: String,
        #[source]
        source: Box<regex::Error>,
    },
    /// `per_host` is 0: no request could start.
    #[error("per_host is 0: at least one request to a host must be allowed in flight")]
    PerHost,
}

impl From<SettingsError> for sightline_core::Error {
    fn from(e: SettingsError) -> Self {
        let input = match &e {
            SettingsError::Pattern { field, .. } => *field,
            SettingsError::PerHost => "per_host",
        };
        sightline_core::Error::Input {
            input: input.to_string(),
            message: e.to_string(),
            source: Some(Box::new(e)),
        }
    }
}

/// `patterns` compiled; the first that is not a regular expression is an error naming
/// `field`.
pub(crate) fn compile(
    field: &'static str,
    patterns: &[String],
) -> Result<Vec<regex::Regex>, SettingsError> {
    patterns
        .iter()
        .map(|p| {
            regex::Regex::new(p).map_err(|e| SettingsError::Pattern {
                field,
                pattern: p.clone(),
                source: Box::new(e),
            })
        })
        .collect()
}

impl CrawlSettings {
    /// What a type cannot check: every pattern is a regular expression, `per_host` at least 1.
    pub fn validate(&self) -> Result<(), SettingsError> {
        compile("include", &self.include)?;
        compile("exclude", &self.exclude)?;
        if self.per_host == 0 {
            return Err(SettingsError::PerHost);
        }
        Ok(())
    }

    /// Links followed from a seed at most: `max_depth`, else [`DEFAULT_MAP_DEPTH`] for a
    /// map and [`DEFAULT_MAX_DEPTH`] for a crawl.
    pub fn depth(&self, map: bool) -> u32 {
        self.max_depth.unwrap_or(if map {
            DEFAULT_MAP_DEPTH
        } else {
            DEFAULT_MAX_DEPTH
        })
    }

    /// Each field as a keyword table reads it: its JSON name, its default and its doc (from
    /// the JSON schema), in name order. Python's keywords are made from it.
    pub fn described() -> Vec<(String, serde_json::Value, String)> {
        let defaults = serde_json::to_value(CrawlSettings::default()).ok();
        sightline_core::described::described(&schemars::schema_for!(CrawlSettings), defaults)
    }

    /// `delay_ms` as a duration.
    pub fn delay(&self) -> Duration {
        Duration::from_millis(self.delay_ms)
    }
}

/// Setters that replace a field of [`CrawlConfig::settings`] with the value given
/// (`fn name(self, v) -> Self`), each with its doc.
macro_rules! settings_setters {
    ($( $(#[doc = $doc:literal])* $field:ident: $ty:ty, )*) => {
        $(
            $(#[doc = $doc])*
            pub fn $field(mut self, v: $ty) -> Self {
                self.settings.$field = v;
                self
            }
        )*
    };
}

/// A crawl: its seeds, its [`CrawlSettings`], and what only a program gives. Build it with
/// [`CrawlConfig::new`] and the setters (the struct is `#[non_exhaustive]`); the fields stay
/// readable.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct CrawlConfig {
    /// Where the crawl starts (URLs; a bare host gets `https://`).
    pub seeds: Vec<String>,
    /// What bounds and paces it.
    pub settings: CrawlSettings,
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
    /// A crawl from these seeds with the default settings.
    pub fn new<S: Into<String>>(seeds: impl IntoIterator<Item = S>) -> CrawlConfig {
        CrawlConfig {
            seeds: seeds.into_iter().map(Into::into).collect(),
            settings: CrawlSettings::default(),
            user_agent: USER_AGENT.to_string(),
            shard: None,
            frontier: None,
            resume: false,
            policy: None,
        }
    }
    /// All the settings at once (as a front end read them).
    pub fn settings(mut self, settings: CrawlSettings) -> Self {
        self.settings = settings;
        self
    }
    settings_setters! {
        /// How far from the seeds to go.
        scope: ScopeKind,
        /// `include` patterns (regular expressions).
        include: Vec<String>,
        /// `exclude` patterns (regular expressions).
        exclude: Vec<String>,
        /// Pages recorded at most.
        max_pages: Option<usize>,
        /// Pages of one path pattern (0: no cap).
        max_per_pattern: usize,
        /// Obey robots.txt.
        robots: bool,
        /// Read sitemaps and feeds.
        sitemaps: bool,
        /// Requests in flight to one host (at least 1).
        per_host: usize,
        /// Milliseconds between the starts of two requests to one host.
        delay_ms: u64,
    }
    /// Links followed from a seed at most.
    pub fn max_depth(mut self, n: u32) -> Self {
        self.settings.max_depth = Some(n);
        self
    }
    /// `--shard K/N`.
    pub fn shard(mut self, shard: Option<Shard>) -> Self {
        self.shard = shard;
        self
    }
    /// The target policy every URL is checked by before it is taken.
    pub fn policy(mut self, policy: Option<NetPolicy>) -> Self {
        self.policy = policy;
        self
    }
    /// The User-Agent of robots.txt and sitemap requests.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_fields_take_the_defaults_and_the_delay_is_in_milliseconds() {
        let s: CrawlSettings =
            serde_json::from_str(r#"{"scope": "domain", "delay_ms": 250}"#).unwrap();
        assert_eq!(s.scope, ScopeKind::Domain);
        assert_eq!(s.delay(), Duration::from_millis(250));
        assert_eq!(s.per_host, DEFAULT_PER_HOST);
        assert!(s.robots && s.sitemaps);
        assert_eq!((s.depth(false), s.depth(true)), (25, 1));
    }

    #[test]
    fn validate_names_the_field_at_fault() {
        let mut s = CrawlSettings {
            exclude: vec!["(".into()],
            ..Default::default()
        };
        let e = s.validate().unwrap_err();
        assert!(
            matches!(
                e,
                SettingsError::Pattern {
                    field: "exclude",
                    ..
                }
            ),
            "{e}"
        );
        s.exclude.clear();
        s.per_host = 0;
        assert!(matches!(s.validate(), Err(SettingsError::PerHost)));
    }

    #[test]
    fn every_field_is_described_with_its_default() {
        let d = CrawlSettings::described();
        let per_host = d.iter().find(|(n, ..)| n == "per_host").unwrap();
        assert_eq!(per_host.1, serde_json::json!(DEFAULT_PER_HOST));
        assert!(
            per_host.2.starts_with("Requests in flight"),
            "{}",
            per_host.2
        );
        assert_eq!(d.len(), 10);
    }

    /// The services flatten the settings into a body that refuses unknown fields.
    #[test]
    fn flattened_settings_keep_unknown_fields_refused() {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct Body {
            url: String,
            #[serde(flatten)]
            settings: CrawlSettings,
        }
        let b: Body = serde_json::from_str(r#"{"url": "x", "max_pages": 3}"#).unwrap();
        assert_eq!(b.settings.max_pages, Some(3));
        assert!(serde_json::from_str::<Body>(r#"{"url": "x", "max_page": 3}"#).is_err());
    }
}
