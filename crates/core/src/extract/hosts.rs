//! Advertisement-server hosts for Crunch's ad filter (Gupta et al. §4.2): the shipped list,
//! hosts-file parsing, and host matching. A leaf module: both `params` (the default list) and
//! `crunch` (the filter) use it without depending on each other.

use std::collections::HashSet;
use std::net::IpAddr;

/// The ad-server list shipped with the crate (`src/extract/ad_hosts.txt`).
pub const DEFAULT_AD_HOSTS: &str = include_str!("ad_hosts.txt");

/// Host names that are never ad servers although hosts files list them.
const LOCAL_NAMES: [&str; 6] = [
    "localhost",
    "localhost.localdomain",
    "local",
    "broadcasthost",
    "ip6-localhost",
    "ip6-loopback",
];

/// Parse an ad-server list: one host per line, or hosts-file lines (`0.0.0.0 ads.example.com
/// ads2.example.com`); `#` starts a comment; `*.` or `.` before a host is dropped (a host
/// always covers its subdomains); IP addresses and local names are skipped. Lower-cased,
/// duplicates dropped, in file order.
pub fn parse_ad_hosts(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut seen = HashSet::new();
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("");
        for tok in line.split_whitespace() {
            let h = normalize_host(tok.trim_start_matches("*.").trim_start_matches('.'));
            if h.is_empty() || h.parse::<IpAddr>().is_ok() || LOCAL_NAMES.contains(&h.as_str()) {
                continue;
            }
            if seen.insert(h.clone()) {
                out.push(h);
            }
        }
    }
    out
}

fn normalize_host(h: &str) -> String {
    h.trim_end_matches('.').to_ascii_lowercase()
}

/// The host of an absolute (`scheme://host/...`) or protocol-relative (`//host/...`) URL,
/// lower-cased, without user info, port or trailing dot (parsed by the `url` crate, as a
/// browser would). None for relative URLs, `data:`, `javascript:` and the like.
pub fn url_host(url: &str) -> Option<String> {
    let url = url.trim();
    let parsed = match url.strip_prefix("//") {
        Some(_) => url::Url::parse(&format!("http:{url}")),
        None => url::Url::parse(url),
    }
    .ok()?;
    let host = match parsed.host()? {
        url::Host::Domain(d) => normalize_host(d),
        url::Host::Ipv4(ip) => ip.to_string(),
        url::Host::Ipv6(ip) => ip.to_string(),
    };
    (!host.is_empty()).then_some(host)
}

/// A set of ad-server hosts; a host matches when it or one of its parent domains is listed
/// (label boundaries only: `ad.doubleclick.net` matches `doubleclick.net`,
/// `notdoubleclick.net` does not).
#[derive(Debug, Clone, Default)]
pub struct AdHosts {
    hosts: HashSet<String>,
}

impl AdHosts {
    /// The set of `hosts` (normalized as [`parse_ad_hosts`] does).
    pub fn new(hosts: &[String]) -> AdHosts {
        AdHosts {
            hosts: hosts
                .iter()
                .map(|h| normalize_host(h.trim_start_matches("*.").trim_start_matches('.')))
                .collect(),
        }
    }
    /// Is `host` an ad server or a subdomain of one?
    pub fn matches_host(&self, host: &str) -> bool {
        let mut h = host;
        loop {
            if self.hosts.contains(h) {
                return true;
            }
            match h.find('.') {
                Some(k) => h = &h[k + 1..],
                None => return false,
            }
        }
    }
    /// Does `url` point to an ad server?
    pub fn matches_url(&self, url: &str) -> bool {
        url_host(url).is_some_and(|h| self.matches_host(&h))
    }
}
