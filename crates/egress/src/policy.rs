//! The target policy's decisions, in one place: which names and addresses a page may reach.
//! Pure: a name, a port and the addresses resolved for it go in; the addresses to connect to,
//! or the [`Refusal`], come out. The egress proxy decides every connection of Chromium with it,
//! and the service's check of a request's URL (`guard::NetPolicy::check`) with the same
//! [`EgressPolicy`]. The rule for one address is [`is_forbidden`]; a name is refused when any
//! of its addresses is refused, so no answer can mix an allowed address with a forbidden one.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use ipnet::IpNet;

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

/// What the egress proxy lets through. The default refuses every address
/// [`is_forbidden`] refuses (loopback, private, shared, link-local, unique-local,
/// multicast, metadata, IPv4-mapped forms of these) and resolves names with the system's
/// resolver.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EgressPolicy {
    /// Names allowed whatever they resolve to, as `host` or `host:port` (the service's
    /// `--allow-host`, e.g. an internal mirror). Literal addresses match too
    /// (`127.0.0.1:9000`): the renderer allows its own loopback page server this way.
    pub allow_hosts: Vec<String>,
    /// Address ranges allowed although the address rule refuses them: a network the
    /// operator means pages to reach. Tests use it to let one loopback address stand for a
    /// public one (`127.0.0.2/32`) while the rest of 127.0.0.0/8 stays refused.
    pub allow_nets: Vec<IpNet>,
    /// The DNS server (UDP) the proxy asks for the addresses of a name; `None`: the system
    /// resolver (`getaddrinfo`). Tests point it at a DNS server of their own on loopback.
    pub resolver: Option<SocketAddr>,
}

/// How a target is to be reached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A literal address: nothing to resolve.
    Address(IpAddr),
    /// A name the proxy resolves itself.
    Name(String),
}

impl EgressPolicy {
    /// Is `host:port` named in [`EgressPolicy::allow_hosts`]? (Case-insensitive; IPv6
    /// literals with or without brackets.)
    pub fn host_allowed(&self, host: &str, port: u16) -> bool {
        let host = host.trim_start_matches('[').trim_end_matches(']');
        self.allow_hosts.iter().any(|h| {
            let h = h.trim();
            let (name, p) = match h.rsplit_once(':') {
                // `host:port`, `[v6]:port`; a bare IPv6 literal has colons but no port.
                Some((n, p)) if !n.contains(':') || n.ends_with(']') => (n, p.parse::<u16>().ok()),
                _ => (h, None),
            };
            let name = name.trim_start_matches('[').trim_end_matches(']');
            name.eq_ignore_ascii_case(host) && p.is_none_or(|p| p == port)
        })
    }

    /// Is this address allowed (the address rule, less [`EgressPolicy::allow_nets`])?
    pub fn address_allowed(&self, ip: &IpAddr) -> bool {
        !is_forbidden(ip) || self.allow_nets.iter().any(|n| n.contains(ip))
    }

    /// What to do with a request for `host`, before any lookup: a name to resolve, a literal
    /// address, or a refusal (`localhost` and its subdomains never leave the machine, RFC
    /// 6761, so they are refused without asking any resolver).
    pub fn target(&self, host: &str, port: u16) -> Result<Target, Refusal> {
        let bare = host.trim_start_matches('[').trim_end_matches(']');
        if bare.is_empty() {
            return Err(Refusal::Invalid("no host".into()));
        }
        if let Ok(ip) = bare.parse::<IpAddr>() {
            return Ok(Target::Address(ip));
        }
        let lower = bare.to_ascii_lowercase();
        if (lower == "localhost" || lower.ends_with(".localhost")) && !self.host_allowed(host, port)
        {
            return Err(Refusal::Address {
                host: bare.to_string(),
                ip: IpAddr::V4(Ipv4Addr::LOCALHOST),
            });
        }
        Ok(Target::Name(lower))
    }

    /// The addresses to connect to for `host:port`, given the addresses it resolved to
    /// (`resolved`, in the resolver's order): all of them when each is allowed (or the name
    /// is in `allow_hosts`), else the refusal naming the first forbidden one.
    pub fn decide(
        &self,
        host: &str,
        port: u16,
        resolved: &[IpAddr],
    ) -> Result<Vec<IpAddr>, Refusal> {
        let bare = host.trim_start_matches('[').trim_end_matches(']');
        if resolved.is_empty() {
            return Err(Refusal::Unresolved {
                host: bare.to_string(),
                message: "no addresses".into(),
            });
        }
        if self.host_allowed(host, port) {
            return Ok(resolved.to_vec());
        }
        match resolved.iter().find(|ip| !self.address_allowed(ip)) {
            Some(ip) => Err(Refusal::Address {
                host: bare.to_string(),
                ip: *ip,
            }),
            None => Ok(resolved.to_vec()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    /// Every private, loopback, link-local, unique-local, multicast and metadata range is
    /// refused, as are their IPv4-mapped forms; decided without sending any traffic.
    #[test]
    fn egress_policy_refuses_private_ranges() {
        let p = EgressPolicy::default();
        for s in [
            "127.0.0.1",
            "127.0.0.3",
            "10.1.2.3",
            "172.16.5.4",
            "192.168.0.10",
            "169.254.169.254", // cloud metadata
            "100.100.100.200", // shared address space (another metadata address)
            "224.0.0.251",
            "0.0.0.0",
            "::1",
            "fd12:3456::1",
            "fe80::1",
            "ff02::1",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
            "::ffff:192.168.1.1",
            "64:ff9b::7f00:1", // NAT64 of 127.0.0.1
        ] {
            let r = p.decide("evil.example", 80, &[ip(s)]);
            assert!(
                matches!(r, Err(Refusal::Address { ip: got, .. }) if got == ip(s)),
                "{s} must be refused: {r:?}"
            );
        }
        for s in ["93.184.215.14", "2606:4700::1111", "::ffff:8.8.8.8"] {
            assert_eq!(p.decide("example.com", 443, &[ip(s)]), Ok(vec![ip(s)]));
        }
    }

    #[test]
    fn egress_one_forbidden_answer_refuses_the_name() {
        let p = EgressPolicy::default();
        let r = p.decide("mixed.example", 80, &[ip("8.8.8.8"), ip("10.0.0.1")]);
        assert!(matches!(r, Err(Refusal::Address { ip: got, .. }) if got == ip("10.0.0.1")));
        assert!(matches!(
            p.decide("none.example", 80, &[]),
            Err(Refusal::Unresolved { .. })
        ));
    }

    #[test]
    fn egress_allow_lists() {
        let p = EgressPolicy {
            allow_hosts: vec![
                "mirror.internal:8080".into(),
                "127.0.0.1:9000".into(),
                "[::1]:9001".into(),
                "Wiki.Internal".into(),
            ],
            allow_nets: vec!["127.0.0.2/32".parse().unwrap()],
            resolver: None,
        };
        // Named hosts, on their port only when one is given.
        assert!(p.decide("mirror.internal", 8080, &[ip("10.0.0.5")]).is_ok());
        assert!(p
            .decide("mirror.internal", 8081, &[ip("10.0.0.5")])
            .is_err());
        assert!(p.decide("wiki.internal", 443, &[ip("10.0.0.6")]).is_ok());
        assert!(p.decide("127.0.0.1", 9000, &[ip("127.0.0.1")]).is_ok());
        assert!(p.decide("127.0.0.1", 9002, &[ip("127.0.0.1")]).is_err());
        assert!(p.decide("[::1]", 9001, &[ip("::1")]).is_ok());
        // One allowed net: 127.0.0.2 only, not its neighbours.
        assert!(p.decide("rebind.test", 80, &[ip("127.0.0.2")]).is_ok());
        assert!(p.decide("rebind.test", 80, &[ip("127.0.0.3")]).is_err());
        assert!(p
            .decide("rebind.test", 80, &[ip("127.0.0.2"), ip("127.0.0.3")])
            .is_err());
    }

    #[test]
    fn egress_targets() {
        let p = EgressPolicy::default();
        assert_eq!(
            p.target("127.0.0.3", 80),
            Ok(Target::Address(ip("127.0.0.3")))
        );
        assert_eq!(p.target("[::1]", 80), Ok(Target::Address(ip("::1"))));
        assert_eq!(
            p.target("Rebind.TEST", 80),
            Ok(Target::Name("rebind.test".into()))
        );
        assert!(matches!(
            p.target("localhost", 80),
            Err(Refusal::Address { .. })
        ));
        assert!(matches!(
            p.target("app.LOCALHOST", 80),
            Err(Refusal::Address { .. })
        ));
        assert!(matches!(p.target("", 80), Err(Refusal::Invalid(_))));
    }
}
