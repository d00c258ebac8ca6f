//! The user's proxy (`--proxy URL`) as the egress proxy's way out: parsing its URL, and
//! opening a tunnel through it to one host and port, with `CONNECT` for an `http://` proxy
//! (credentials as `Proxy-Authorization: Basic`) or the SOCKS5 handshake for a `socks5://`
//! one (credentials by RFC 1929's username/password method).
//!
//! Chromium's `--proxy-server` takes no credentials, and it cannot answer a proxy's challenge
//! here (chromiumoxide answers every `Fetch.authRequired` itself), nor speak SOCKS5 with a
//! password at all: a proxy with credentials is therefore reached through the egress proxy,
//! which Chromium uses without any, and which adds them upstream.

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The kinds of proxy `--proxy` takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProxyScheme {
    /// An HTTP proxy (`CONNECT` tunnels, absolute-form requests).
    Http,
    /// An HTTP proxy reached over TLS (Chromium only: without credentials or a target policy).
    Https,
    /// A SOCKS5 proxy (names resolved by the proxy).
    Socks5,
}

/// A parsed `--proxy` URL.
#[derive(Clone, PartialEq, Eq)]
pub struct ProxyUrl {
    pub scheme: ProxyScheme,
    pub host: String,
    pub port: u16,
    /// `user:password` from the URL (percent-decoded).
    pub credentials: Option<(String, String)>,
}

impl std::fmt::Debug for ProxyUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ProxyUrl({})", self.redacted())
    }
}

impl ProxyUrl {
    /// Read `http://[user:pass@]host[:port]`, `https://...` or `socks5://...` (`socks5h://`
    /// too: SOCKS5 names are always resolved by the proxy). Ports default to 80, 443 and 1080.
    pub fn parse(s: &str) -> Result<ProxyUrl, String> {
        let u = url::Url::parse(s.trim()).map_err(|e| {
            format!("`{}` is not a proxy URL ({e}): write it as http://host:port, http://user:password@host:port or socks5://host:port", redact(s))
        })?;
        let scheme = match u.scheme() {
            "http" => ProxyScheme::Http,
            "https" => ProxyScheme::Https,
            "socks5" | "socks5h" => ProxyScheme::Socks5,
            other => {
                return Err(format!(
                    "proxy scheme `{other}` is not supported: http, https or socks5"
                ))
            }
        };
        let host = u
            .host_str()
            .filter(|h| !h.is_empty())
            .ok_or_else(|| format!("`{}` names no proxy host", redact(s)))?
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_string();
        if u.path() != "/" && !u.path().is_empty() || u.query().is_some() {
            return Err(format!(
                "`{}`: a proxy URL has no path or query, only scheme://host:port",
                redact(s)
            ));
        }
        let port = u.port().unwrap_or(match scheme {
            ProxyScheme::Http => 80,
            ProxyScheme::Https => 443,
            ProxyScheme::Socks5 => 1080,
        });
        let credentials = (!u.username().is_empty()).then(|| {
            (
                percent_decode(u.username()),
                percent_decode(u.password().unwrap_or("")),
            )
        });
        Ok(ProxyUrl {
            scheme,
            host,
            port,
            credentials,
        })
    }

    /// The proxy as Chromium's `--proxy-server` takes it (no credentials).
    pub fn chromium_server(&self) -> String {
        let scheme = match self.scheme {
            ProxyScheme::Http => "http",
            ProxyScheme::Https => "https",
            ProxyScheme::Socks5 => "socks5",
        };
        format!("{scheme}://{}:{}", bracket(&self.host), self.port)
    }

    /// The URL with its password hidden, for messages.
    pub fn redacted(&self) -> String {
        let user = match &self.credentials {
            Some((u, _)) => format!("{u}:***@"),
            None => String::new(),
        };
        let s = self.chromium_server();
        let (scheme, rest) = s.split_once("://").expect("scheme://");
        format!("{scheme}://{user}{rest}")
    }

    /// Open a tunnel through this proxy to `host:port` (a name or an address).
    pub async fn connect(
        &self,
        host: &str,
        port: u16,
        limit: Duration,
    ) -> Result<TcpStream, String> {
        let at = format!("{}:{}", bracket(&self.host), self.port);
        let work = async {
            let mut s = TcpStream::connect((self.host.as_str(), self.port))
                .await
                .map_err(|e| format!("cannot connect to the proxy {at}: {e}"))?;
            let _ = s.set_nodelay(true);
            match self.scheme {
                ProxyScheme::Http => http_connect(&mut s, host, port, self.credentials.as_ref()).await,
                ProxyScheme::Socks5 => socks5_connect(&mut s, host, port, self.credentials.as_ref()).await,
                ProxyScheme::Https => Err("an https:// proxy is reached by Chromium only (without credentials or a target policy)".into()),
            }
            .map_err(|e| format!("proxy {at}: {e}"))?;
            Ok(s)
        };
        tokio::time::timeout(limit, work).await.map_err(|_| {
            format!("the proxy {at} did not open a tunnel to {host}:{port} within {limit:?}")
        })?
    }
}

fn bracket(host: &str) -> String {
    if host.contains(':') && !host.starts_with('[') {
        format!("[{host}]")
    } else {
        host.to_string()
    }
}

/// Hide the credentials of a URL-looking string (all before its last `@`, past the scheme).
fn redact(s: &str) -> String {
    match s.rfind('@') {
        Some(b) => {
            let start = s.find("://").map_or(0, |a| a + 3).min(b);
            format!("{}***{}", &s[..start], &s[b..])
        }
        None => s.to_string(),
    }
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let hex = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            if let (Some(h), Some(l)) = (hex(b[i + 1]), hex(b[i + 2])) {
                out.push(h * 16 + l);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `CONNECT host:port` through an HTTP proxy; Ok once it answers 2xx.
async fn http_connect(
    s: &mut TcpStream,
    host: &str,
    port: u16,
    creds: Option<&(String, String)>,
) -> Result<(), String> {
    let authority = format!("{}:{port}", bracket(host));
    let mut req = format!("CONNECT {authority} HTTP/1.1\r\nHost: {authority}\r\n");
    if let Some((u, p)) = creds {
        use base64::Engine;
        let token = base64::engine::general_purpose::STANDARD.encode(format!("{u}:{p}"));
        req.push_str(&format!("Proxy-Authorization: Basic {token}\r\n"));
    }
    req.push_str("\r\n");
    s.write_all(req.as_bytes())
        .await
        .map_err(|e| e.to_string())?;
    // The answer's head, byte by byte (nothing of the tunnel may be read past it).
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        if head.len() > 16 * 1024 {
            return Err("its answer to CONNECT has no end".into());
        }
        let b = s
            .read_u8()
            .await
            .map_err(|e| format!("no answer to CONNECT: {e}"))?;
        head.push(b);
    }
    let text = String::from_utf8_lossy(&head);
    let status = text.lines().next().unwrap_or("");
    let code: u16 = status
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    match code {
        200..=299 => Ok(()),
        407 => Err(format!("it asks for credentials ({status}): give them in the URL, http://user:password@host:port")),
        _ => Err(format!("CONNECT {authority} refused: {status}")),
    }
}

/// The SOCKS5 handshake (RFC 1928), with username/password authentication (RFC 1929) when
/// credentials are given; the target goes as a name (the proxy resolves it) or an address.
async fn socks5_connect(
    s: &mut TcpStream,
    host: &str,
    port: u16,
    creds: Option<&(String, String)>,
) -> Result<(), String> {
    let io = |e: std::io::Error| e.to_string();
    let methods: &[u8] = if creds.is_some() {
        &[0x00, 0x02]
    } else {
        &[0x00]
    };
    let mut hello = vec![0x05, methods.len() as u8];
    hello.extend_from_slice(methods);
    s.write_all(&hello).await.map_err(io)?;
    let mut r = [0u8; 2];
    s.read_exact(&mut r).await.map_err(io)?;
    if r[0] != 0x05 {
        return Err("not a SOCKS5 proxy".into());
    }
    match (r[1], creds) {
        (0x00, _) => {}
        (0x02, Some((u, p))) => {
            if u.len() > 255 || p.len() > 255 {
                return Err("SOCKS5 user names and passwords are 255 bytes at most".into());
            }
            let mut a = vec![0x01, u.len() as u8];
            a.extend_from_slice(u.as_bytes());
            a.push(p.len() as u8);
            a.extend_from_slice(p.as_bytes());
            s.write_all(&a).await.map_err(io)?;
            let mut r = [0u8; 2];
            s.read_exact(&mut r).await.map_err(io)?;
            if r[1] != 0x00 {
                return Err("it refused the user name and password".into());
            }
        }
        (0x02, None) => {
            return Err(
                "it asks for credentials: give them in the URL, socks5://user:password@host:port"
                    .into(),
            )
        }
        _ => return Err("it accepts none of the authentication methods offered".into()),
    }
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    let mut req = vec![0x05, 0x01, 0x00];
    match bare.parse::<std::net::IpAddr>() {
        Ok(std::net::IpAddr::V4(v4)) => {
            req.push(0x01);
            req.extend_from_slice(&v4.octets());
        }
        Ok(std::net::IpAddr::V6(v6)) => {
            req.push(0x04);
            req.extend_from_slice(&v6.octets());
        }
        Err(_) => {
            if bare.len() > 255 {
                return Err(format!("the host name {bare} is too long for SOCKS5"));
            }
            req.push(0x03);
            req.push(bare.len() as u8);
            req.extend_from_slice(bare.as_bytes());
        }
    }
    req.extend_from_slice(&port.to_be_bytes());
    s.write_all(&req).await.map_err(io)?;
    let mut r = [0u8; 4];
    s.read_exact(&mut r).await.map_err(io)?;
    if r[1] != 0x00 {
        let why = match r[1] {
            0x01 => "general failure",
            0x02 => "not allowed by its rules",
            0x03 => "network unreachable",
            0x04 => "host unreachable",
            0x05 => "connection refused",
            0x06 => "TTL expired",
            0x07 => "command not supported",
            0x08 => "address type not supported",
            _ => "unknown error",
        };
        return Err(format!("it could not connect to {bare}:{port} ({why})"));
    }
    let skip = match r[3] {
        0x01 => 4,
        0x04 => 16,
        0x03 => s.read_u8().await.map_err(io)? as usize,
        _ => return Err("a malformed SOCKS5 answer".into()),
    };
    let mut rest = vec![0u8; skip + 2];
    s.read_exact(&mut rest).await.map_err(io)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proxy_urls_parse_with_credentials_hidden_in_messages() {
        let p = ProxyUrl::parse("http://al%40ice:s%3Acret@proxy.example:3128").unwrap();
        assert_eq!(p.scheme, ProxyScheme::Http);
        assert_eq!((p.host.as_str(), p.port), ("proxy.example", 3128));
        assert_eq!(
            p.credentials,
            Some(("al@ice".to_string(), "s:cret".to_string()))
        );
        assert_eq!(p.chromium_server(), "http://proxy.example:3128");
        assert!(!format!("{p:?}").contains("cret"));
        assert_eq!(ProxyUrl::parse("socks5h://h").unwrap().port, 1080);
        assert_eq!(
            ProxyUrl::parse("socks5://h:1").unwrap().chromium_server(),
            "socks5://h:1"
        );
        let e = ProxyUrl::parse("ftp://u:pw@h").unwrap_err();
        assert!(e.contains("http, https or socks5"), "{e}");
        let e = ProxyUrl::parse("nonsense u:secret@").unwrap_err();
        assert!(!e.contains("secret"), "{e}");
        assert!(ProxyUrl::parse("http://h:1/path").is_err());
    }

    /// A one-shot SOCKS5 server that wants `u`/`p` and answers success.
    #[tokio::test]
    async fn socks5_with_a_password_opens_a_tunnel() {
        let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = l.local_addr().unwrap();
        let server = tokio::spawn(async move {
            let (mut c, _) = l.accept().await.unwrap();
            let mut b = [0u8; 4];
            c.read_exact(&mut b).await.unwrap();
            assert_eq!(b, [5, 2, 0, 2]);
            c.write_all(&[5, 2]).await.unwrap();
            let mut b = [0u8; 5];
            c.read_exact(&mut b).await.unwrap();
            assert_eq!(b, [1, 1, b'u', 1, b'p']);
            c.write_all(&[1, 0]).await.unwrap();
            let mut head = [0u8; 5];
            c.read_exact(&mut head).await.unwrap();
            assert_eq!(&head[..4], &[5, 1, 0, 3]);
            let mut name = vec![0u8; head[4] as usize + 2];
            c.read_exact(&mut name).await.unwrap();
            assert_eq!(&name[..name.len() - 2], b"only-via-proxy.test");
            c.write_all(&[5, 0, 0, 1, 0, 0, 0, 0, 0, 0]).await.unwrap();
            c.write_all(b"hello").await.unwrap();
        });
        let p = ProxyUrl::parse(&format!("socks5://u:p@{addr}")).unwrap();
        let mut s = p
            .connect("only-via-proxy.test", 80, Duration::from_secs(5))
            .await
            .unwrap();
        let mut got = [0u8; 5];
        s.read_exact(&mut got).await.unwrap();
        assert_eq!(&got, b"hello");
        server.await.unwrap();
    }
}
