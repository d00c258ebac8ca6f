//! The service's own edges: what a client can hold or send before a page is ever rendered.
//!
//! - **Connections**: at most [`Limits::max_connections`] open at once; a connection over the
//!   cap is accepted and closed at once (the listener keeps accepting, so the backlog never
//!   fills with clients that wait).
//! - **Headers**: the request line and headers must arrive within
//!   [`Limits::header_timeout`] (slowloris), and an idle keep-alive connection is closed after
//!   the same time; hyper closes such a connection without an answer. A head larger than
//!   hyper's buffer ([`HEAD_BUFFER`]) gets hyper's bare `431`; within it, the limits below
//!   answer with the service's JSON errors: a request target over [`Limits::max_uri_bytes`]
//!   is `414`, headers over [`Limits::max_header_bytes`] or [`Limits::max_headers`] are
//!   `431`.
//! - **Bodies**: a body declared larger than [`Limits::max_body_bytes`] is `413` before a
//!   byte of it is read; a body that grows past it is `413` as soon as it does; a body that
//!   does not arrive within [`Limits::body_timeout`] is `408`.
//!
//! hyper (HTTP/1.1) serves each connection; the router is axum's.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, StatusCode};
use axum::response::Response;
use axum::Router;
use futures::StreamExt;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::sync::Semaphore;

use super::error_response;

/// hyper's read buffer for one connection: the largest request head it parses (larger heads
/// get its bare `431`). Above [`Limits::max_uri_bytes`] + [`Limits::max_header_bytes`], so
/// that those limits answer in JSON.
pub(super) const HEAD_BUFFER: usize = 64 * 1024;

/// The service's edge limits (see the module documentation).
#[derive(Debug, Clone)]
pub struct Limits {
    /// Connections open at once (`--max-connections`).
    pub max_connections: usize,
    /// Time for a request's line and headers, and for an idle keep-alive connection
    /// (`--header-timeout`).
    pub header_timeout: Duration,
    /// Time for a request's body (`--body-timeout`).
    pub body_timeout: Duration,
    /// Largest request body (`--max-body`): HTML posted for rendering.
    pub max_body_bytes: usize,
    /// Largest request target (path and query).
    pub max_uri_bytes: usize,
    /// Largest sum of header names and values.
    pub max_header_bytes: usize,
    /// Most headers in one request.
    pub max_headers: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_connections: 1024,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(30),
            max_body_bytes: 16 * 1024 * 1024,
            max_uri_bytes: 16 * 1024,
            max_header_bytes: 16 * 1024,
            max_headers: 64,
        }
    }
}

/// Serve `app` on `listener` within `limits` until `shutdown` resolves; then stop
/// accepting and wait for the connections in flight, at most `drain`.
pub async fn serve(
    listener: tokio::net::TcpListener,
    app: Router,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    drain: Duration,
    limits: &Limits,
) -> std::io::Result<()> {
    let open = Arc::new(Semaphore::new(limits.max_connections));
    let graceful = GracefulShutdown::new();
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_buf_size(HEAD_BUFFER)
        .max_headers(limits.max_headers.saturating_add(1));
    let mut shutdown = std::pin::pin!(shutdown);
    let mut over_cap: u64 = 0;
    loop {
        let (stream, _) = tokio::select! {
            a = listener.accept() => match a {
                Ok(a) => a,
                Err(e) => {
                    // Out of file descriptors and the like: wait a moment rather than spin.
                    tracing::warn!("accepting a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = &mut shutdown => break,
        };
        let Ok(permit) = open.clone().try_acquire_owned() else {
            over_cap += 1;
            if over_cap.is_power_of_two() {
                tracing::warn!(
                    "{over_cap} connections refused so far: {} open (--max-connections)",
                    limits.max_connections
                );
            }
            drop(stream);
            continue;
        };
        let svc = TowerToHyperService::new(app.clone());
        let conn = http.serve_connection(TokioIo::new(stream), svc);
        let conn = graceful.watch(conn);
        tokio::spawn(async move {
            if let Err(e) = conn.await {
                tracing::debug!("connection: {e}");
            }
            drop(permit);
        });
    }
    drop(listener);
    tokio::select! {
        _ = graceful.shutdown() => {}
        _ = tokio::time::sleep(drain) => {
            tracing::warn!("shutdown: requests still running after {drain:?}; exiting");
        }
    }
    Ok(())
}

/// Middleware: the request target and header limits, answered in JSON (`414`, `431`).
pub(super) async fn check_head(
    limits: Arc<Limits>,
    req: Request,
    next: axum::middleware::Next,
) -> Result<Response, Infallible> {
    if let Some(problem) = head_problem(&limits, &req) {
        return Ok(problem);
    }
    Ok(next.run(req).await)
}

/// The first limit a request's head breaks, as its answer.
fn head_problem(limits: &Limits, req: &Request) -> Option<Response> {
    let target = req.uri().path_and_query().map_or(0, |pq| pq.as_str().len());
    if target > limits.max_uri_bytes {
        return Some(error_response(
            StatusCode::URI_TOO_LONG,
            "too-large",
            &format!(
                "the request target is {target} bytes, more than {}: send long input (html) in a POST body",
                limits.max_uri_bytes
            ),
        ));
    }
    if let Some(q) = req.uri().query() {
        if !query_is_utf8(q) {
            return Some(error_response(
                StatusCode::BAD_REQUEST,
                "input",
                "the query string is not UTF-8 once percent-decoded: encode each value as UTF-8, then percent-encode it",
            ));
        }
    }
    let headers = req.headers();
    let size: usize = headers
        .iter()
        .map(|(n, v)| n.as_str().len() + v.len())
        .sum();
    if headers.len() > limits.max_headers || size > limits.max_header_bytes {
        return Some(error_response(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            "too-large",
            &format!(
                "{} headers of {size} bytes: at most {} headers of {} bytes in all",
                headers.len(),
                limits.max_headers,
                limits.max_header_bytes
            ),
        ));
    }
    None
}

/// Does a query string decode (`%XX` escapes and `+`) to UTF-8? (axum's query parser would
/// replace invalid bytes with U+FFFD and carry on.)
fn query_is_utf8(q: &str) -> bool {
    let b = q.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        match b[i] {
            b'%' if i + 2 < b.len() => match (hex(b[i + 1]), hex(b[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push((h * 16 + l) as u8);
                    i += 3;
                    continue;
                }
                _ => out.push(b'%'),
            },
            b'&' | b'=' => {
                if std::str::from_utf8(&out).is_err() {
                    return false;
                }
                out.clear();
            }
            c => out.push(c),
        }
        i += 1;
    }
    std::str::from_utf8(&out).is_ok()
}

/// Read a request body within the limits: `413` for one declared or grown too large, `408`
/// for one that does not arrive in time, `400` for one that breaks off.
pub(super) async fn read_body(
    limits: &Limits,
    headers: &axum::http::HeaderMap,
    body: Body,
) -> Result<Vec<u8>, Response> {
    let too_large = |n: String| {
        error_response(
            StatusCode::PAYLOAD_TOO_LARGE,
            "too-large",
            &format!(
                "the request body is {n} bytes, more than {} (--max-body)",
                limits.max_body_bytes
            ),
        )
    };
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if let Some(n) = declared.filter(|n| *n > limits.max_body_bytes as u64) {
        return Err(too_large(n.to_string()));
    }
    let read = async {
        let mut out = Vec::new();
        let mut stream = body.into_data_stream();
        while let Some(chunk) = stream.next().await {
            let chunk = chunk.map_err(|e| {
                error_response(
                    StatusCode::BAD_REQUEST,
                    "input",
                    &format!("reading the request body: {e}"),
                )
            })?;
            if out.len() + chunk.len() > limits.max_body_bytes {
                return Err(too_large("more than that".into()));
            }
            out.extend_from_slice(&chunk);
        }
        Ok(out)
    };
    match tokio::time::timeout(limits.body_timeout, read).await {
        Ok(r) => r,
        Err(_) => Err(error_response(
            StatusCode::REQUEST_TIMEOUT,
            "timeout",
            &format!(
                "the request body did not arrive within {:.0} s (--body-timeout)",
                limits.body_timeout.as_secs_f64()
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(uri: &str, headers: &[(&str, String)]) -> Request {
        let mut b = Request::builder().uri(uri);
        for (n, v) in headers {
            b = b.header(*n, v.as_str());
        }
        b.body(Body::empty()).unwrap()
    }

    #[test]
    fn head_limits_answer_414_and_431() {
        let l = Limits::default();
        assert!(head_problem(&l, &request("/extract?url=https://example.com/", &[])).is_none());
        let long = format!("/extract?format={}", "x".repeat(l.max_uri_bytes));
        let r = head_problem(&l, &request(&long, &[])).unwrap();
        assert_eq!(r.status(), StatusCode::URI_TOO_LONG);
        let many: Vec<(&str, String)> = (0..=l.max_headers).map(|_| ("x-a", "1".into())).collect();
        let r = head_problem(&l, &request("/healthz", &many)).unwrap();
        assert_eq!(r.status(), StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE);
        let big = [("x-big", "y".repeat(l.max_header_bytes))];
        let r = head_problem(&l, &request("/healthz", &big)).unwrap();
        assert_eq!(r.status(), StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE);
    }

    #[test]
    fn queries_must_decode_to_utf8() {
        assert!(query_is_utf8(
            "url=https%3A%2F%2Fexample.com%2F&format=text"
        ));
        assert!(query_is_utf8("q=%C3%A9t%C3%A9&x=%&y=%4"));
        assert!(!query_is_utf8("url=%FF%FE"));
        // A split sequence across two values is not UTF-8 either.
        assert!(!query_is_utf8("a=%C3&b=%A9"));
    }

    #[tokio::test]
    async fn bodies_over_the_limit_are_413_declared_or_not() {
        let l = Limits {
            max_body_bytes: 10,
            ..Limits::default()
        };
        let mut h = axum::http::HeaderMap::new();
        h.insert(header::CONTENT_LENGTH, "1000000000".parse().unwrap());
        let r = read_body(&l, &h, Body::empty()).await.unwrap_err();
        assert_eq!(r.status(), StatusCode::PAYLOAD_TOO_LARGE);
        let none = axum::http::HeaderMap::new();
        let r = read_body(&l, &none, Body::from("x".repeat(11)))
            .await
            .unwrap_err();
        assert_eq!(r.status(), StatusCode::PAYLOAD_TOO_LARGE);
        assert_eq!(
            read_body(&l, &none, Body::from("0123456789"))
                .await
                .unwrap(),
            b"0123456789"
        );
    }

    #[tokio::test]
    async fn a_body_that_never_arrives_is_408() {
        let l = Limits {
            body_timeout: Duration::from_millis(50),
            ..Limits::default()
        };
        let never = Body::from_stream(futures::stream::pending::<Result<Vec<u8>, Infallible>>());
        let r = read_body(&l, &axum::http::HeaderMap::new(), never)
            .await
            .unwrap_err();
        assert_eq!(r.status(), StatusCode::REQUEST_TIMEOUT);
    }
}
