//! Which network targets a page may reach. A service that renders URLs for others must not
//! become a way into the machine's own network (SSRF): by default `sightline serve` refuses
//! non-http(s) schemes and any host that resolves to a loopback, private (RFC 1918),
//! shared (RFC 6598), link-local (169.254.0.0/16 holds cloud metadata services), unique-local,
//! multicast, broadcast or unspecified address. The check runs when a request arrives and
//! again inside Chromium for every request the page makes (redirects and subresources), so a
//! public name that redirects to 127.0.0.1 is refused too.
//!
//! The name is resolved here and again when the connection is made. With the egress proxy
//! ([the egress proxy](crate), [`NetPolicy::egress`]), which `serve` runs, Chromium resolves nothing:
//! the proxy resolves each host once, checks those addresses and connects to them, so a DNS
//! answer that changes between the two lookups (DNS rebinding) reaches nothing forbidden.

use std::net::IpAddr;

use url::Url;

use crate::Target;

/// A target policy.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NetPolicy {
    /// Allow every address (`--allow-private`).
    pub allow_private: bool,
    /// `host:port` pairs allowed even though they resolve to private addresses
    /// (`--allow-host`, e.g. an internal mirror).
    pub allow_hosts: Vec<String>,
}

pub use crate::{is_forbidden, Refusal};

/// Which targets pages may reach, and how that is enforced, as one value: the browser checks
/// the page and every request it makes against the target policy ([`TargetPolicy::policy`]),
/// and a launched browser's every connection goes through the egress proxy with the policy
/// that target policy implies ([`TargetPolicy::egress`], [`NetPolicy::egress`]). The two can
/// only be set together, so a browser never runs with a check but without its proxy.
#[derive(Debug, Clone, PartialEq)]
pub struct TargetPolicy {
    policy: Option<NetPolicy>,
    egress: Option<crate::EgressPolicy>,
}

impl TargetPolicy {
    /// `policy`, checked by the browser and enforced by the egress proxy it implies (none
    /// when it allows private targets: nothing to refuse).
    pub fn new(policy: NetPolicy) -> TargetPolicy {
        TargetPolicy {
            egress: policy.egress(),
            policy: Some(policy),
        }
    }

    /// The egress proxy alone, with a policy of its own (addresses allowed, its resolver):
    /// no check in the browser, every connection decided by the proxy.
    pub fn proxy_only(egress: crate::EgressPolicy) -> TargetPolicy {
        TargetPolicy {
            policy: None,
            egress: Some(egress),
        }
    }

    /// The target policy the browser checks requests against, if any.
    pub fn policy(&self) -> Option<&NetPolicy> {
        self.policy.as_ref()
    }

    /// The egress proxy's policy, if the browser's connections go through one.
    pub fn egress(&self) -> Option<&crate::EgressPolicy> {
        self.egress.as_ref()
    }
}

impl NetPolicy {
    /// The egress proxy's policy for this target policy: the same addresses refused and the
    /// same `allow_hosts`; `None` when private targets are allowed (nothing to refuse).
    pub fn egress(&self) -> Option<crate::EgressPolicy> {
        (!self.allow_private).then(|| crate::EgressPolicy {
            allow_hosts: self.allow_hosts.clone(),
            ..Default::default()
        })
    }

    /// Check a URL: its scheme, and every address its host resolves to. The decisions are
    /// the egress proxy's ([`NetPolicy::egress`]): one host matcher for `allow_hosts` (case
    /// and IPv6 brackets aside), one address rule, one `localhost` rule.
    pub async fn check(&self, url: &str) -> Result<(), Refusal> {
        let Some(policy) = self.egress() else {
            return Ok(());
        };
        let u = Url::parse(url).map_err(|e| Refusal::Invalid(format!("{url}: {e}")))?;
        match u.scheme() {
            "http" | "https" => {}
            "data" | "blob" | "about" => return Ok(()), // no network
            s => return Err(Refusal::Scheme(s.to_string())),
        }
        let Some(host) = u.host_str() else {
            return Err(Refusal::Invalid(format!("{url}: no host")));
        };
        let port = u.port_or_known_default().unwrap_or(80);
        if policy.host_allowed(host, port) {
            return Ok(());
        }
        let ips: Vec<IpAddr> = match policy.target(host, port)? {
            Target::Address(ip) => vec![ip],
            Target::Name(name) => tokio::net::lookup_host((name.as_str(), port))
                .await
                .map_err(|e| Refusal::Unresolved {
                    host: host.to_string(),
                    message: e.to_string(),
                })?
                .map(|a| a.ip())
                .collect(),
        };
        policy.decide(host, port, &ips).map(|_| ())
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

    /// One host matcher for the service's check and the egress proxy: `allow_hosts` matches
    /// whatever the case, and IPv6 literals with or without brackets (the check compared
    /// strings exactly before, so `Mirror.LOCALHOST:8080` allowed nothing).
    #[tokio::test]
    async fn allow_hosts_match_as_the_egress_proxy_matches() {
        let p = NetPolicy {
            allow_private: false,
            allow_hosts: vec!["Mirror.LOCALHOST:8080".into(), "[::1]:9000".into()],
        };
        assert_eq!(p.check("http://mirror.localhost:8080/a").await, Ok(()));
        assert_eq!(p.check("http://[::1]:9000/a").await, Ok(()));
        let e = p.egress().unwrap();
        assert!(e.host_allowed("mirror.localhost", 8080));
        assert!(e.host_allowed("[::1]", 9000));
        // Another port of the same names is refused by both.
        assert!(matches!(
            p.check("http://mirror.localhost:8081/").await,
            Err(Refusal::Address { .. })
        ));
        assert!(matches!(
            p.check("http://[::1]:9001/").await,
            Err(Refusal::Address { .. })
        ));
        assert!(!e.host_allowed("[::1]", 9001));
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
