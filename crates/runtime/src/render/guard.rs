//! Which network targets a page may reach. A service that renders URLs for others must not
//! become a way into the machine's own network (SSRF): by default `sightline serve` refuses
//! non-http(s) schemes and any host that resolves to a loopback, private (RFC 1918),
//! shared (RFC 6598), link-local (169.254.0.0/16 holds cloud metadata services), unique-local,
//! multicast, broadcast or unspecified address. The check runs when a request arrives and
//! again inside Chromium for every request the page makes (redirects and subresources), so a
//! public name that redirects to 127.0.0.1 is refused too.
//!
//! The name is resolved here and again when the connection is made. With the egress proxy
//! ([`super::egress`], [`NetPolicy::egress`]), which `serve` runs, Chromium resolves nothing:
//! the proxy resolves each host once, checks those addresses and connects to them, so a DNS
//! answer that changes between the two lookups (DNS rebinding) reaches nothing forbidden.

use std::net::IpAddr;

use url::Url;

/// A target policy.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NetPolicy {
    /// Allow every address (`--allow-private`).
    pub allow_private: bool,
    /// `host:port` pairs allowed even though they resolve to private addresses
    /// (`--allow-host`, e.g. an internal mirror).
    pub allow_hosts: Vec<String>,
}

/// Why a target was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Not http or https.
    Scheme(String),
    /// The host is, or resolves to, a forbidden address.
    Address { host: String, ip: IpAddr },
    /// The name does not resolve.
    Unresolved { host: String, message: String },
    /// Not a URL.
    Invalid(String),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Scheme(s) => write!(f, "scheme `{s}` is not allowed (http and https only)"),
            Refusal::Address { host, ip } => write!(
                f,
                "{host} is a {} address ({ip}); refused to protect the local network",
                class(ip)
            ),
            Refusal::Unresolved { host, message } => write!(f, "cannot resolve {host}: {message}"),
            Refusal::Invalid(m) => write!(f, "not a valid URL: {m}"),
        }
    }
}

/// Is this address one a public service must not reach?
pub fn is_forbidden(ip: &IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            let o = v4.octets();
            v4.is_loopback()
                || v4.is_private()
                || v4.is_link_local()
                || v4.is_unspecified()
                || v4.is_broadcast()
                || v4.is_multicast()
                || o[0] == 0 // "this network" 0.0.0.0/8
                || (o[0] == 100 && (o[1] & 0xc0) == 64) // shared address space 100.64.0.0/10
                || (o[0] == 192 && o[1] == 0 && o[2] == 0) // IETF protocol assignments
                || o[0] >= 240 // reserved
        }
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_forbidden(&IpAddr::V4(v4));
            }
            let s = v6.segments();
            v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (s[0] & 0xfe00) == 0xfc00 // unique local fc00::/7
                || (s[0] & 0xffc0) == 0xfe80 // link local fe80::/10
                || (s[0] & 0xffc0) == 0xfec0 // site local (deprecated) fec0::/10
                || (s[0] == 0x64 && s[1] == 0xff9b) // NAT64 can reach private IPv4
                || (s[0] == 0 && s[1] == 0 && s[2] == 0 && s[3] == 0 && s[4] == 0 && s[5] == 0)
            // IPv4-compatible
        }
    }
}

fn class(ip: &IpAddr) -> &'static str {
    if let IpAddr::V6(v6) = ip {
        if let Some(v4) = v6.to_ipv4_mapped() {
            return class(&IpAddr::V4(v4));
        }
    }
    match ip {
        IpAddr::V4(v4) if v4.is_loopback() => "loopback",
        IpAddr::V6(v6) if v6.is_loopback() => "loopback",
        IpAddr::V4(v4) if v4.is_private() => "private",
        IpAddr::V4(v4) if v4.is_link_local() => "link-local",
        IpAddr::V6(v6) if (v6.segments()[0] & 0xffc0) == 0xfe80 => "link-local",
        IpAddr::V6(v6) if (v6.segments()[0] & 0xfe00) == 0xfc00 => "unique-local",
        ip if ip.is_unspecified() => "unspecified",
        _ => "non-public",
    }
}

impl NetPolicy {
    /// The egress proxy's policy for this target policy: the same addresses refused and the
    /// same `allow_hosts`; `None` when private targets are allowed (nothing to refuse).
    pub fn egress(&self) -> Option<super::egress::EgressPolicy> {
        (!self.allow_private).then(|| super::egress::EgressPolicy {
            allow_hosts: self.allow_hosts.clone(),
            ..Default::default()
        })
    }

    /// Check a URL: its scheme, and every address its host resolves to.
    pub async fn check(&self, url: &str) -> Result<(), Refusal> {
        if self.allow_private {
            return Ok(());
        }
        let u = Url::parse(url).map_err(|e| Refusal::Invalid(format!("{url}: {e}")))?;
        match u.scheme() {
            "http" | "https" => {}
            "data" | "blob" | "about" => return Ok(()), // no network
            s => return Err(Refusal::Scheme(s.to_string())),
        }
        let host = u.host_str().unwrap_or("").to_string();
        let port = u.port_or_known_default().unwrap_or(80);
        if self
            .allow_hosts
            .iter()
            .any(|h| *h == format!("{host}:{port}") || *h == host)
        {
            return Ok(());
        }
        let ips: Vec<IpAddr> = match u.host() {
            Some(url::Host::Ipv4(ip)) => vec![IpAddr::V4(ip)],
            Some(url::Host::Ipv6(ip)) => vec![IpAddr::V6(ip)],
            Some(url::Host::Domain(d)) => {
                // `localhost` and its subdomains never leave the machine (RFC 6761).
                if d.eq_ignore_ascii_case("localhost")
                    || d.to_ascii_lowercase().ends_with(".localhost")
                {
                    return Err(Refusal::Address {
                        host,
                        ip: IpAddr::V4(std::net::Ipv4Addr::LOCALHOST),
                    });
                }
                tokio::net::lookup_host((d, port))
                    .await
                    .map_err(|e| Refusal::Unresolved {
                        host: host.clone(),
                        message: e.to_string(),
                    })?
                    .map(|a| a.ip())
                    .collect()
            }
            None => return Err(Refusal::Invalid(format!("{url}: no host"))),
        };
        match ips.iter().find(|ip| is_forbidden(ip)) {
            Some(ip) => Err(Refusal::Address { host, ip: *ip }),
            None if ips.is_empty() => Err(Refusal::Unresolved {
                host,
                message: "no addresses".into(),
            }),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn forbidden_addresses() {
        for s in [
            "127.0.0.1",
            "127.8.9.10",
            "10.0.0.1",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "255.255.255.255",
            "224.0.0.1",
            "::1",
            "::",
            "fd00::1",
            "fc00::1",
            "fe80::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "::ffff:169.254.169.254",
            "64:ff9b::a00:1",
        ] {
            assert!(is_forbidden(&ip(s)), "{s} must be refused");
        }
        for s in [
            "93.184.215.14",
            "8.8.8.8",
            "172.32.0.1",
            "100.128.0.1",
            "2606:4700::1111",
            "::ffff:8.8.8.8",
        ] {
            assert!(!is_forbidden(&ip(s)), "{s} is public");
        }
    }

    #[tokio::test]
    async fn urls_are_checked_without_traffic() {
        // Only literal addresses and `localhost` here: a unit test resolves nothing.
        let p = NetPolicy::default();
        for u in [
            "http://127.0.0.1:8080/",
            "http://[::1]/",
            "http://10.0.0.1/x",
            "http://169.254.169.254/latest/meta-data/",
            "http://[fd00::1]/",
            "http://0.0.0.0/",
            "http://localhost:3000/",
            "http://app.localhost/",
            "http://2130706433/", // 127.0.0.1 as one number: the url crate normalises it
            "http://0x7f.1/",
        ] {
            assert!(
                matches!(p.check(u).await, Err(Refusal::Address { .. })),
                "{u} must be refused"
            );
        }
        for u in [
            "file:///etc/passwd",
            "ftp://example.com/",
            "gopher://x/",
            "chrome://settings",
        ] {
            assert!(matches!(p.check(u).await, Err(Refusal::Scheme(_))), "{u}");
        }
        assert!(p.check("http://8.8.8.8/").await.is_ok());
        let open = NetPolicy {
            allow_private: true,
            ..NetPolicy::default()
        };
        assert!(open.check("http://127.0.0.1/").await.is_ok());
        let one = NetPolicy {
            allow_hosts: vec!["127.0.0.1:9000".into()],
            ..NetPolicy::default()
        };
        assert!(one.check("http://127.0.0.1:9000/a").await.is_ok());
        assert!(one.check("http://127.0.0.1:9001/a").await.is_err());
        let msg = p.check("http://10.0.0.1/").await.unwrap_err().to_string();
        // The library names the policy; each front end adds the flag that lifts it.
        assert!(
            msg.contains("private") && msg.contains("10.0.0.1") && !msg.contains("--"),
            "{msg}"
        );
    }
}
