//! URLs as the crawl sees them: normalised (so one page has one key), the scope a seed sets
//! (`host`, `domain`, `prefix`), the `--include`/`--exclude` patterns, the path pattern
//! that caps trap-like families of pages, and the registrable domain that `--shard` splits
//! by. Pure: no network.

use std::fmt;
use std::str::FromStr;

use url::Url;

use crate::config::{compile, SettingsError};

/// Query parameters dropped by [`normalize`]: click trackers and session ids, which make
/// one page look like many (`utm_*` and `_hs*` by prefix, the rest by name).
const TRACKING_PREFIXES: &[&str] = &["utm_", "_hs", "pk_", "mtm_"];
const TRACKING_NAMES: &[&str] = &[
    "gclid",
    "gclsrc",
    "dclid",
    "fbclid",
    "msclkid",
    "yclid",
    "twclid",
    "igshid",
    "mc_cid",
    "mc_eid",
    "_ga",
    "_gl",
    "ref_src",
    "sessionid",
    "session_id",
    "sid",
    "phpsessid",
    "jsessionid",
    "aspsessionid",
    "cfid",
    "cftoken",
];

fn is_tracking(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    TRACKING_PREFIXES.iter().any(|p| n.starts_with(p)) || TRACKING_NAMES.contains(&n.as_str())
}

/// The one form of a URL the crawl keys its frontier on: `http`/`https` only; scheme and
/// host lower-cased and the default port dropped (the `url` crate's parse does both); the
/// fragment dropped; `;jsessionid=…` path parameters and tracking or session query
/// parameters ([`TRACKING_NAMES`], `utm_*`) dropped; the remaining query parameters sorted
/// (stable for equal names) and an empty query removed. `None` for other schemes
/// (`mailto:`, `javascript:`) and for what does not parse.
pub(crate) fn normalize(raw: &str) -> Option<String> {
    normalize_url(Url::parse(raw.trim()).ok()?)
}

/// [`normalize`] of `raw` resolved against `base`.
pub(crate) fn normalize_in(base: &Url, raw: &str) -> Option<String> {
    normalize_url(base.join(raw.trim()).ok()?)
}

fn normalize_url(mut u: Url) -> Option<String> {
    if !matches!(u.scheme(), "http" | "https") || u.host_str().is_none_or(str::is_empty) {
        return None;
    }
    u.set_fragment(None);
    let path = u.path().to_string();
    if let Some(i) = path.to_ascii_lowercase().find(";jsessionid=") {
        u.set_path(&path[..i]);
    }
    if u.query().is_some() {
        let mut pairs: Vec<(String, String)> = u
            .query_pairs()
            .filter(|(k, _)| !is_tracking(k))
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect();
        pairs.sort_by(|a, b| a.0.cmp(&b.0));
        if pairs.is_empty() {
            u.set_query(None);
        } else {
            u.query_pairs_mut().clear().extend_pairs(pairs);
        }
    }
    Some(u.to_string())
}

/// The host a URL's politeness is kept per: its host name (with `:port` when it is not the
/// scheme's default, so two loopback servers are two hosts).
pub(crate) fn host_key(url: &str) -> String {
    match Url::parse(url) {
        Ok(u) => match (u.host_str(), u.port()) {
            (Some(h), Some(p)) => format!("{h}:{p}"),
            (Some(h), None) => h.to_string(),
            _ => String::new(),
        },
        Err(_) => String::new(),
    }
}

/// The registrable domain of a host (`news.example.co.uk` → `example.co.uk`, by the Public
/// Suffix List); an IP address or a name the list does not know is its own domain.
pub(crate) fn registrable_domain(host: &str) -> String {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    if host.parse::<std::net::IpAddr>().is_ok() || host.starts_with('[') {
        return host;
    }
    match psl::domain_str(&host) {
        Some(d) => d.to_string(),
        None => host,
    }
}

/// How far from its seed a crawl may go (`scope`; the CLI's `--scope`).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum ScopeKind {
    /// The seed's host (`www.` aside: `example.com` and `www.example.com` are one host).
    #[default]
    Host,
    /// The seed's registrable domain and every subdomain of it.
    Domain,
    /// URLs that start with the seed's URL up to its last `/`.
    Prefix,
}

impl FromStr for ScopeKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "host" => Ok(ScopeKind::Host),
            "domain" => Ok(ScopeKind::Domain),
            "prefix" => Ok(ScopeKind::Prefix),
            _ => Err(format!("--scope {s}: expected host, domain or prefix")),
        }
    }
}

impl fmt::Display for ScopeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ScopeKind::Host => "host",
            ScopeKind::Domain => "domain",
            ScopeKind::Prefix => "prefix",
        })
    }
}

fn bare_host(h: &str) -> &str {
    h.strip_prefix("www.").unwrap_or(h)
}

/// The scope of a crawl: what its seeds allow, narrowed by the include and exclude
/// patterns (regular expressions matched anywhere in the normalised URL).
#[derive(Debug, Clone)]
pub(crate) struct Scope {
    kind: ScopeKind,
    /// (host with port, registrable domain, prefix) of each seed.
    seeds: Vec<(String, String, String)>,
    include: Vec<regex::Regex>,
    exclude: Vec<regex::Regex>,
}

impl Scope {
    /// The scope of these (normalised) seeds; `Err` names a pattern that is not a regular
    /// expression (as [`crate::CrawlSettings::validate`] does).
    pub(crate) fn new(
        kind: ScopeKind,
        seeds: &[String],
        include: &[String],
        exclude: &[String],
    ) -> Result<Scope, SettingsError> {
        let seeds = seeds
            .iter()
            .filter_map(|s| {
                let u = Url::parse(s).ok()?;
                let host = host_key(s);
                let domain = registrable_domain(u.host_str()?);
                let prefix = match s.rfind('/') {
                    Some(i) if i >= u.scheme().len() + 3 + u.host_str()?.len() => {
                        s[..=i].to_string()
                    }
                    _ => format!("{s}/"),
                };
                Some((host, domain, prefix))
            })
            .collect();
        Ok(Scope {
            kind,
            seeds,
            include: compile("include", include)?,
            exclude: compile("exclude", exclude)?,
        })
    }

    /// Is this normalised URL inside the seeds' scope (and the patterns)?
    pub(crate) fn contains(&self, url: &str) -> bool {
        self.in_seed_scope(url) && self.patterns_allow(url)
    }

    /// Do `--include` (any, when given) and `--exclude` (none) allow this URL?
    pub(crate) fn patterns_allow(&self, url: &str) -> bool {
        (self.include.is_empty() || self.include.iter().any(|r| r.is_match(url)))
            && !self.exclude.iter().any(|r| r.is_match(url))
    }

    /// Is this URL inside the seeds' host, domain or prefix (patterns aside)?
    pub(crate) fn in_seed_scope(&self, url: &str) -> bool {
        let Ok(u) = Url::parse(url) else {
            return false;
        };
        let Some(h) = u.host_str() else {
            return false;
        };
        let host = host_key(url);
        self.seeds.iter().any(|(sh, sd, sp)| match self.kind {
            ScopeKind::Host => bare_host(&host) == bare_host(sh),
            ScopeKind::Domain => registrable_domain(h) == *sd,
            ScopeKind::Prefix => url.starts_with(sp.as_str()) || format!("{url}/") == *sp,
        })
    }
}

/// The family a URL belongs to for the per-pattern page cap: its host and path with every
/// run of digits as `N` and every segment that looks like an identifier (long hex, UUID) as
/// `X`, and its query's sorted parameter names (values dropped). An endless calendar
/// (`/calendar/2024/05`, `?month=2024-06`) or a faceted filter is one family.
pub(crate) fn path_pattern(url: &str) -> String {
    let Ok(u) = Url::parse(url) else {
        return url.to_string();
    };
    let mut out = host_key(url);
    for seg in u.path().split('/').skip(1) {
        out.push('/');
        let hexish = seg.len() >= 16
            && seg.chars().all(|c| c.is_ascii_hexdigit() || c == '-')
            && seg.chars().any(|c| c.is_ascii_digit());
        if hexish {
            out.push('X');
            continue;
        }
        let mut digits = false;
        for c in seg.chars() {
            if c.is_ascii_digit() {
                if !digits {
                    out.push('N');
                }
                digits = true;
            } else {
                digits = false;
                out.push(c);
            }
        }
    }
    let mut names: Vec<String> = u.query_pairs().map(|(k, _)| k.into_owned()).collect();
    names.sort();
    names.dedup();
    if !names.is_empty() {
        out.push('?');
        out.push_str(&names.join("&"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalisation_folds_one_page_to_one_key() {
        let n = |s| normalize(s).unwrap();
        assert_eq!(n("HTTP://Example.COM:80/a#top"), "http://example.com/a");
        assert_eq!(n("https://example.com:443/"), "https://example.com/");
        assert_eq!(
            n("https://example.com/a?utm_source=x&b=2&a=1&fbclid=y"),
            "https://example.com/a?a=1&b=2"
        );
        assert_eq!(
            n("https://example.com/a?utm_medium=x"),
            "https://example.com/a"
        );
        assert_eq!(
            n("https://example.com/a;jsessionid=ABC123?x=1&PHPSESSID=9"),
            "https://example.com/a?x=1"
        );
        assert_eq!(
            n("https://example.com/a/../b/./c"),
            "https://example.com/b/c"
        );
        assert_eq!(normalize("mailto:a@example.com"), None);
        assert_eq!(normalize("javascript:void(0)"), None);
        let base = Url::parse("https://example.com/dir/page").unwrap();
        assert_eq!(
            normalize_in(&base, "other?utm_campaign=z#x").unwrap(),
            "https://example.com/dir/other"
        );
    }

    #[test]
    fn scopes() {
        let seeds = vec!["https://www.example.co.uk/docs/intro".to_string()];
        let s = |k| Scope::new(k, &seeds, &[], &[]).unwrap();
        let host = s(ScopeKind::Host);
        assert!(host.contains("https://example.co.uk/other"));
        assert!(!host.contains("https://blog.example.co.uk/"));
        let dom = s(ScopeKind::Domain);
        assert!(dom.contains("https://blog.example.co.uk/"));
        assert!(!dom.contains("https://other.co.uk/"));
        let pre = s(ScopeKind::Prefix);
        assert!(pre.contains("https://www.example.co.uk/docs/next"));
        assert!(!pre.contains("https://www.example.co.uk/blog/"));
        let pat = Scope::new(
            ScopeKind::Host,
            &seeds,
            &["/docs/".into()],
            &["/docs/old".into()],
        )
        .unwrap();
        assert!(pat.contains("https://www.example.co.uk/docs/a"));
        assert!(!pat.contains("https://www.example.co.uk/docs/old/a"));
        assert!(!pat.contains("https://www.example.co.uk/blog"));
        assert!(Scope::new(ScopeKind::Host, &seeds, &["(".into()], &[]).is_err());
        // Ports are part of the host: two loopback servers are two sites.
        let lo = Scope::new(
            ScopeKind::Host,
            &["http://127.0.0.1:8000/".into()],
            &[],
            &[],
        )
        .unwrap();
        assert!(lo.contains("http://127.0.0.1:8000/a"));
        assert!(!lo.contains("http://127.0.0.1:9000/a"));
    }

    #[test]
    fn registrable_domains() {
        assert_eq!(registrable_domain("news.example.co.uk"), "example.co.uk");
        assert_eq!(registrable_domain("a.b.example.com"), "example.com");
        assert_eq!(registrable_domain("127.0.0.1"), "127.0.0.1");
    }

    #[test]
    fn trap_families_share_a_pattern() {
        assert_eq!(
            path_pattern("https://e.com/calendar/2024/05"),
            path_pattern("https://e.com/calendar/1999/12")
        );
        assert_eq!(
            path_pattern("https://e.com/shop?color=red&size=2"),
            path_pattern("https://e.com/shop?size=9&color=blue")
        );
        assert_ne!(
            path_pattern("https://e.com/shop?color=red"),
            path_pattern("https://e.com/shop?size=1")
        );
        assert_eq!(
            path_pattern("https://e.com/s/0123456789abcdef0123"),
            "e.com/s/X"
        );
    }
}
