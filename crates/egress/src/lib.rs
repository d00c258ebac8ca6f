//! The egress proxy: every connection Chromium makes goes through an HTTP forward proxy inside
//! sightline, which resolves the host itself, checks every address against the policy, and
//! connects to the very address it checked. A DNS answer that changes between a check and
//! the connection (DNS rebinding) therefore cannot steer a page to a forbidden address:
//! there is one lookup, and it is the one the connection uses. Stripe's smokescreen is the
//! model.
//!
//! What goes through it (Chromium launched with [`EgressProxy::chrome_args`]):
//! - `https:` and `wss:`, and every WebSocket (`ws:` too): `CONNECT host:port` tunnels.
//! - `http:`: absolute-form requests (`GET http://host/path`), forwarded one upstream
//!   connection per request.
//! - loopback: `--proxy-bypass-list=<-loopback>` removes Chromium's implicit bypass, so
//!   `127.0.0.1` and `localhost` come here too (and are refused, but for the renderer's own
//!   page server, allowed by address and port).
//! - `<link rel=prefetch>`, `preload`, speculation-rules prefetches, beacons and workers'
//!   fetches are ordinary requests of the network service: they take the proxy like any
//!   other. `preconnect` opens a connection to the proxy only.
//! - WebRTC: `--force-webrtc-ip-handling-policy=disable_non_proxied_udp` leaves it no UDP
//!   (its only path is TCP through the proxy, under the same policy).
//! - DNS: Chromium sends the proxy host names, never addresses it resolved; with
//!   `--host-resolver-rules` every name Chromium would resolve itself (DNS prefetch) fails,
//!   so it asks no DNS server either.
//!
//! A refusal is answered `403 Forbidden` with the reason (a lookup or connection failure:
//! `502`), logged, counted, and kept for a moment in the [`Log`] so the tab can name the
//! policy in the page's error (`forbidden`, as the service's own check says).
//!
//! Limit: a browser sightline connects to (`--browser-ws`) was launched by someone else, with
//! its own proxy settings: the proxy covers launched browsers only.
//!
//! # Layout
//! This crate is the network boundary of rendering: it never touches Chromium (the renderer,
//! `sightline-render`, launches Chromium pointed at [`EgressProxy`]).
//! - [`guard`]: the target policy ([`guard::NetPolicy`]): which URLs a page may reach, checked
//!   when a request arrives and for every request the browser makes.
//! - `policy`: forbidden address ranges and the proxy's [`EgressPolicy`].
//! - `resolve`: the proxy's own DNS lookups.
//! - [`upstream`]: the user's proxy (`--proxy`) the egress proxy connects through.
#![forbid(unsafe_code)]
#![warn(unreachable_pub)]

pub mod guard;
mod policy;
mod resolve;
pub mod upstream;

use std::collections::VecDeque;
use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use http_body_util::{combinators::BoxBody, BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::header::{HeaderName, HeaderValue};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use parking_lot::Mutex;
use tokio::net::{TcpListener, TcpStream};

pub use policy::{is_forbidden, EgressPolicy, Refusal, Target};
pub use upstream::{ProxyScheme, ProxyUrl};

/// The header of every answer the proxy itself gives (`refused` or `failed`); the same name
/// from an upstream server is removed, so a page cannot forge it.
pub const EGRESS_HEADER: &str = "x-sightline-egress";
/// The header carrying the reason of a refusal or failure (ASCII).
pub const REASON_HEADER: &str = "x-sightline-egress-reason";

/// How long the proxy may take to connect to an upstream address.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a refusal or failure stays in the [`Log`] for the tab to find.
const LOG_KEEP: Duration = Duration::from_secs(60);
/// Entries kept in the [`Log`] at most.
const LOG_MAX: usize = 256;

/// Why the proxy did not connect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The policy refused the target (403).
    Refused(String),
    /// A lookup or connection failed (502).
    Failed(String),
}

/// The proxy's recent refusals and failures, by `host:port`, and its counts.
#[derive(Debug, Default)]
pub struct Log {
    refused: AtomicU64,
    failed: AtomicU64,
    allowed: AtomicU64,
    recent: Mutex<VecDeque<(Instant, String, Outcome)>>,
}

impl Log {
    /// Targets refused by the policy since the start.
    pub fn refused(&self) -> u64 {
        self.refused.load(Ordering::Relaxed)
    }

    /// Connections that failed (lookup or connect) since the start.
    pub fn failed(&self) -> u64 {
        self.failed.load(Ordering::Relaxed)
    }

    /// Connections made since the start.
    pub fn allowed(&self) -> u64 {
        self.allowed.load(Ordering::Relaxed)
    }

    /// The latest refusal or failure for `host:port` within the last minute.
    pub fn outcome_for(&self, host: &str, port: u16) -> Option<Outcome> {
        let key = authority_key(host, port);
        let recent = self.recent.lock();
        recent
            .iter()
            .rev()
            .take_while(|(at, _, _)| at.elapsed() < LOG_KEEP)
            .find(|(_, k, _)| *k == key)
            .map(|(_, _, o)| o.clone())
    }

    /// The latest refusal or failure for the host and port of `url`.
    pub fn outcome_for_url(&self, url: &str) -> Option<Outcome> {
        let u = url::Url::parse(url).ok()?;
        self.outcome_for(u.host_str()?, u.port_or_known_default()?)
    }

    fn record(&self, host: &str, port: u16, o: Outcome) {
        match &o {
            Outcome::Refused(why) => {
                self.refused.fetch_add(1, Ordering::Relaxed);
                tracing::info!("egress: refused {host}:{port}: {why}");
            }
            Outcome::Failed(why) => {
                self.failed.fetch_add(1, Ordering::Relaxed);
                tracing::debug!("egress: {host}:{port} failed: {why}");
            }
        }
        let mut recent = self.recent.lock();
        if recent.len() >= LOG_MAX {
            recent.pop_front();
        }
        recent.push_back((Instant::now(), authority_key(host, port), o));
    }
}

fn authority_key(host: &str, port: u16) -> String {
    let h = host.trim_start_matches('[').trim_end_matches(']');
    format!("{}:{port}", h.to_ascii_lowercase())
}

/// A running egress proxy on an ephemeral port of 127.0.0.1. Dropping it stops it (tunnels
/// already open end with their connections).
pub struct EgressProxy {
    addr: SocketAddr,
    log: Arc<Log>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for EgressProxy {
    fn drop(&mut self) {
        self.task.abort();
    }
}

struct Shared {
    /// The target policy (None: a relay to the user's proxy that decides nothing).
    policy: Option<EgressPolicy>,
    /// The user's proxy (`--proxy`): every connection but those to `direct` goes through it.
    upstream: Option<ProxyUrl>,
    /// `host:port`s connected to directly (the renderer's own loopback page server).
    direct: Vec<String>,
    log: Arc<Log>,
}

type Body = BoxBody<Bytes, hyper::Error>;

impl EgressProxy {
    /// Start the proxy with this policy.
    pub async fn start(policy: EgressPolicy) -> std::io::Result<EgressProxy> {
        EgressProxy::start_with(Some(policy), None, Vec::new()).await
    }

    /// Start the proxy with this policy (None: decide nothing), connecting through the user's
    /// proxy `upstream` (None: directly), and directly to the `host:port`s of `direct`.
    pub async fn start_with(
        policy: Option<EgressPolicy>,
        upstream: Option<ProxyUrl>,
        direct: Vec<String>,
    ) -> std::io::Result<EgressProxy> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let log = Arc::new(Log::default());
        let shared = Arc::new(Shared {
            policy,
            upstream,
            direct,
            log: log.clone(),
        });
        let task = tokio::spawn(async move {
            loop {
                let (sock, _) = match listener.accept().await {
                    Ok(x) => x,
                    Err(e) => {
                        // Out of file descriptors and the like: wait, never spin.
                        tracing::warn!("egress proxy: accept failed: {e}");
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                };
                let _ = sock.set_nodelay(true);
                let shared = shared.clone();
                tokio::spawn(async move {
                    let svc = hyper::service::service_fn(move |req| {
                        let shared = shared.clone();
                        async move { Ok::<_, Infallible>(handle(req, &shared).await) }
                    });
                    let _ = hyper::server::conn::http1::Builder::new()
                        .preserve_header_case(true)
                        .title_case_headers(true)
                        .serve_connection(TokioIo::new(sock), svc)
                        .with_upgrades()
                        .await;
                });
            }
        });
        Ok(EgressProxy { addr, log, task })
    }

    /// The proxy's address (127.0.0.1 and an ephemeral port).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Its refusals, failures and counts.
    pub fn log(&self) -> Arc<Log> {
        self.log.clone()
    }

    /// The Chromium flags (without leading dashes) that send every connection through this
    /// proxy; see the module's documentation for what each covers.
    pub fn chrome_args(&self) -> Vec<String> {
        vec![
            format!("proxy-server=http://{}", self.addr),
            "proxy-bypass-list=<-loopback>".into(),
            "force-webrtc-ip-handling-policy=disable_non_proxied_udp".into(),
            format!(
                "host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE {}",
                self.addr.ip()
            ),
        ]
    }
}

/// One request from Chromium: a `CONNECT` tunnel or an absolute-form HTTP request.
async fn handle(req: Request<Incoming>, shared: &Shared) -> Response<Body> {
    if req.method() == Method::CONNECT {
        return connect(req, shared).await;
    }
    forward(req, shared).await
}

/// Resolve (unless a literal), check, and connect to the first checked address that
/// answers, directly or through the user's proxy. Refusals and failures are recorded and
/// answered by the caller.
async fn open(shared: &Shared, host: &str, port: u16) -> Result<TcpStream, Outcome> {
    let direct = shared
        .direct
        .iter()
        .any(|d| d.eq_ignore_ascii_case(&authority_key(host, port)));
    let upstream = shared.upstream.as_ref().filter(|_| !direct);
    let Some(p) = &shared.policy else {
        // A relay: nothing to decide.
        return match upstream {
            Some(up) => up
                .connect(host, port, CONNECT_TIMEOUT)
                .await
                .map_err(Outcome::Failed),
            None => tokio::time::timeout(CONNECT_TIMEOUT, TcpStream::connect((host, port)))
                .await
                .map_err(|_| {
                    Outcome::Failed(format!(
                        "{host}:{port}: no connection within {CONNECT_TIMEOUT:?}"
                    ))
                })?
                .map_err(|e| Outcome::Failed(format!("cannot connect to {host}:{port} ({e})"))),
        };
    };
    let addrs: Vec<IpAddr> = match p.target(host, port) {
        Err(r) => return Err(Outcome::Refused(r.to_string())),
        Ok(Target::Address(ip)) => vec![ip],
        Ok(Target::Name(name)) => match resolve::lookup(p.resolver, &name, port).await {
            Ok(v) => v,
            // Through the user's proxy, a name that does not resolve here is the proxy's to
            // resolve (an intranet name behind it, a name only it knows).
            Err(_) if upstream.is_some() => {
                let up = upstream.expect("checked");
                return up
                    .connect(&name, port, CONNECT_TIMEOUT)
                    .await
                    .map_err(Outcome::Failed);
            }
            Err(message) => {
                return Err(Outcome::Failed(
                    Refusal::Unresolved {
                        host: name,
                        message,
                    }
                    .to_string(),
                ))
            }
        },
    };
    let checked = match p.decide(host, port, &addrs) {
        Ok(v) => v,
        Err(r @ Refusal::Unresolved { .. }) => return Err(Outcome::Failed(r.to_string())),
        Err(r) => return Err(Outcome::Refused(r.to_string())),
    };
    let mut last = String::from("no address");
    // The addresses checked, and no other: never a second lookup (through the user's proxy
    // too: it is asked for the checked address, not the name).
    for ip in checked {
        let sa = SocketAddr::new(ip, port);
        if let Some(up) = upstream {
            match up.connect(&ip.to_string(), port, CONNECT_TIMEOUT).await {
                Ok(s) => return Ok(s),
                Err(e) => last = e,
            }
            continue;
        }
        match tokio::time::timeout(CONNECT_TIMEOUT, TcpStream::connect(sa)).await {
            Ok(Ok(s)) => {
                let _ = s.set_nodelay(true);
                return Ok(s);
            }
            Ok(Err(e)) => last = format!("{sa}: {e}"),
            Err(_) => last = format!("{sa}: no connection within {CONNECT_TIMEOUT:?}"),
        }
    }
    Err(Outcome::Failed(format!(
        "cannot connect to {host}:{port} ({last})"
    )))
}

/// `CONNECT host:port`: open the checked connection, answer 200, then copy bytes both ways
/// once hyper hands over the client's connection.
async fn connect(req: Request<Incoming>, shared: &Shared) -> Response<Body> {
    let Some((host, port)) = req
        .uri()
        .authority()
        .map(|a| (a.host().to_string(), a.port_u16().unwrap_or(443)))
    else {
        return answer(StatusCode::BAD_REQUEST, "failed", "CONNECT needs host:port");
    };
    let upstream = match open(shared, &host, port).await {
        Ok(s) => s,
        Err(o) => return refuse(shared, &host, port, o),
    };
    shared.log.allowed.fetch_add(1, Ordering::Relaxed);
    tokio::spawn(async move {
        match hyper::upgrade::on(req).await {
            Ok(up) => {
                let mut client = TokioIo::new(up);
                let mut upstream = upstream;
                let _ = tokio::io::copy_bidirectional(&mut client, &mut upstream).await;
            }
            Err(e) => tracing::debug!("egress: CONNECT {host}:{port} not upgraded: {e}"),
        }
    });
    Response::new(empty())
}

/// An absolute-form request (`GET http://host:port/path`): open the checked connection and
/// send the request there in origin form, without the hop-by-hop headers.
async fn forward(mut req: Request<Incoming>, shared: &Shared) -> Response<Body> {
    let uri = req.uri().clone();
    let (Some(scheme), Some(auth)) = (uri.scheme_str(), uri.authority()) else {
        return answer(
            StatusCode::BAD_REQUEST,
            "failed",
            "this is an HTTP proxy: send absolute-form requests (GET http://host/path) or CONNECT",
        );
    };
    if !scheme.eq_ignore_ascii_case("http") {
        return answer(
            StatusCode::BAD_REQUEST,
            "failed",
            &format!("scheme {scheme} is not proxied in absolute form (CONNECT tunnels carry https and WebSockets)"),
        );
    }
    let host = auth.host().to_string();
    let port = auth.port_u16().unwrap_or(80);
    let upstream = match open(shared, &host, port).await {
        Ok(s) => s,
        Err(o) => return refuse(shared, &host, port, o),
    };
    shared.log.allowed.fetch_add(1, Ordering::Relaxed);
    let (mut sender, conn) = match hyper::client::conn::http1::Builder::new()
        .preserve_header_case(true)
        .title_case_headers(true)
        .handshake::<_, Incoming>(TokioIo::new(upstream))
        .await
    {
        Ok(x) => x,
        Err(e) => {
            return refuse(
                shared,
                &host,
                port,
                Outcome::Failed(format!("{host}:{port}: {e}")),
            )
        }
    };
    tokio::spawn(async move {
        let _ = conn.await;
    });
    let path = uri.path_and_query().map_or("/", |p| p.as_str()).to_string();
    *req.uri_mut() = path.parse().expect("a path of a parsed URI");
    strip_hop_by_hop(req.headers_mut());
    if !req.headers().contains_key(hyper::header::HOST) {
        if let Ok(v) = HeaderValue::from_str(auth.as_str()) {
            req.headers_mut().insert(hyper::header::HOST, v);
        }
    }
    match sender.send_request(req).await {
        Ok(mut resp) => {
            strip_hop_by_hop(resp.headers_mut());
            resp.headers_mut().remove(EGRESS_HEADER);
            resp.headers_mut().remove(REASON_HEADER);
            resp.map(|b| b.boxed())
        }
        Err(e) => answer(
            StatusCode::BAD_GATEWAY,
            "failed",
            &format!("{host}:{port}: {e}"),
        ),
    }
}

/// Record a refusal or failure and answer it (403 or 502).
fn refuse(shared: &Shared, host: &str, port: u16, o: Outcome) -> Response<Body> {
    shared.log.record(host, port, o.clone());
    match o {
        Outcome::Refused(why) => answer(StatusCode::FORBIDDEN, "refused", &why),
        Outcome::Failed(why) => answer(StatusCode::BAD_GATEWAY, "failed", &why),
    }
}

/// An answer of the proxy's own, with [`EGRESS_HEADER`] and [`REASON_HEADER`].
fn answer(status: StatusCode, kind: &'static str, why: &str) -> Response<Body> {
    let ascii: String = why
        .chars()
        .map(|c| {
            if c.is_ascii_graphic() || c == ' ' {
                c
            } else {
                '?'
            }
        })
        .collect();
    let mut r = Response::new(
        Full::new(Bytes::from(format!("sightline egress proxy: {why}\n")))
            .map_err(|never| match never {})
            .boxed(),
    );
    *r.status_mut() = status;
    let h = r.headers_mut();
    h.insert(
        hyper::header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    h.insert(
        HeaderName::from_static(EGRESS_HEADER),
        HeaderValue::from_static(kind),
    );
    if let Ok(v) = HeaderValue::from_str(&ascii) {
        h.insert(HeaderName::from_static(REASON_HEADER), v);
    }
    h.insert(hyper::header::CONNECTION, HeaderValue::from_static("close"));
    r
}

fn empty() -> Body {
    Full::new(Bytes::new())
        .map_err(|never| match never {})
        .boxed()
}

/// Remove the headers that concern one hop only (RFC 9110 section 7.6.1), and the headers
/// the `Connection` header names.
fn strip_hop_by_hop(h: &mut hyper::HeaderMap) {
    let named: Vec<String> = h
        .get_all(hyper::header::CONNECTION)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(',').map(|s| s.trim().to_ascii_lowercase()))
        .filter(|s| !s.is_empty())
        .collect();
    for n in named {
        h.remove(n.as_str());
    }
    for n in [
        "connection",
        "proxy-connection",
        "keep-alive",
        "proxy-authorization",
        "proxy-authenticate",
        "te",
        "trailer",
        "upgrade",
    ] {
        h.remove(n);
    }
}
