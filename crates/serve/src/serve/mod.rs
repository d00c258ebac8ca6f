//! `sightline serve`: the extraction pipeline as an HTTP service (axum on tokio).
//!
//! Endpoints:
//! - `GET /extract?url=…&format=text|markdown|html|json&algorithm=…&screenshot=true&comments=true`
//! - `POST /extract` with a JSON body of the same fields, or `html` (and `charset`) in place
//!   of `url`, and the steering fields: the one request shape of a page
//!   ([`crate::admission::PageRequest`], admitted by [`crate::admission::admit`], as MCP's
//!   `extract` is)
//! - `POST /score` with a JSON body `{"snapshot": {...}, ...}`: a saved snapshot scored with
//!   no browser ([`Extractor::score`]; the same `format`, `algorithm`, `comments`, `units`,
//!   `body` fields)
//! - `POST /crawl` with a JSON body `{"seeds": ..., "max_pages", "max_depth", "scope", ...}`:
//!   a site's pages as NDJSON while the crawl runs, then a summary line; `POST /map`: a
//!   site's URLs ([`crawl`], bounded as the MCP tools are: [`crate::crawling`])
//! - `GET /`: the playground ([`playground`]), one self-contained page that calls `/extract`
//!   and `/score` as any client does
//! - `GET /healthz`
//! - `POST /mcp`: the MCP tools of [`crate::mcp`] over streamable HTTP, behind the same token
//!   and target policy, rendering with the same browsers
//! - `GET /metrics` (Prometheus text: pages, failures by kind, latency histogram, busy tabs,
//!   queue depth, refusals)
//!
//! Every page goes through [`Extractor::record_with`] (a crawl's through
//! [`Extractor::crawl_with`]), the front door's pipeline `extract` uses: `format=json` answers with the same record as `extract -f jsonl`. Errors are JSON
//! `{"error": {"kind", "message"}}` with a fitting status (400 bad request, 401 token, 403
//! refused target, 413 too large, 502 the page failed, 503 queue full with `Retry-After`,
//! 504 deadline).
//!
//! Safety: targets are checked against a [`NetPolicy`] when the request arrives (a crawl's
//! seeds, and each URL it finds before it is taken) and again by the browser for every
//! request the page makes; and when the
//! browsers were launched with [`RenderOptions::egress`](sightline::RenderOptions::egress) (the
//! command line does, unless `--allow-private`), every connection of the browser goes through
//! the egress proxy, which connects only to addresses it resolved and checked itself
//! ([`sightline::render::egress`]). Backpressure:
//! at most `concurrency + max_queue` requests (`/extract`, `/map`, and `POST /crawl` and
//! `POST /mcp` until their answer's body is sent) are admitted; the rest get 503 at once. Each
//! request has a deadline; a client that disconnects drops its request, which closes its tab.
//! Shutdown: stop accepting, let the pages in flight finish within a bound.

mod crawl;
mod edges;
mod metrics;
pub mod playground;

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::{Query, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use base64::Engine;
use serde::Deserialize;
use tokio::sync::Semaphore;

use sightline::output::Format;
use sightline::{Error, Extractor, NetPolicy, PageConfig, PageOut, Source};

use crate::admission::{self, Admitted, Operator, PageRequest, Refusal, RefusalKind};

pub use edges::Limits;
pub use metrics::Metrics;

/// How the service runs.
#[derive(Debug, Clone)]
pub struct ServeConfig {
    /// Requests admitted beyond the ones rendering (the rest get 503).
    pub max_queue: usize,
    /// Deadline of one request, queueing included.
    pub request_timeout: Duration,
    /// Bearer token required on `/extract`, `/score`, `/crawl`, `/map`, `/metrics` and `/mcp`
    /// (not on `/healthz`, nor on the playground page at `/`, which asks for it and sends it
    /// on its calls).
    pub token: Option<String>,
    /// Which targets may be rendered.
    pub policy: NetPolicy,
    /// Defaults of each page (algorithm, params, limits); requests override format,
    /// algorithm and screenshot.
    pub page: PageConfig,
    /// The service's edges: connections, header and body timeouts, size limits.
    pub limits: Limits,
    /// What of a caller's steering plan the operator allows (`--allow-scripts`,
    /// `--allow-headers`, `--allow-cookies`); the operator's own plan is `page.steer`.
    pub grants: Vec<sightline::render::steer::Grant>,
    /// Where a request's `warc: true` writes the page's WARC (`--warc-dir`; None: refused).
    pub warc_dir: Option<std::path::PathBuf>,
    /// The most pages one `POST /crawl` (or MCP `crawl` call) records
    /// (`--max-crawl-pages`).
    pub max_crawl_pages: usize,
    /// Deadline of one `POST /crawl` or `/map` (`--crawl-timeout`): at it the crawl takes no
    /// new page, and answers when the pages in flight end.
    pub crawl_timeout: Duration,
}

/// What `/extract` takes (query string or JSON body): the page, by `url` or as `html`, and
/// the one request shape of a page's choices ([`PageRequest`]: format, algorithm, comments,
/// units, body, screenshot, warc, and the steering fields of `sightline::Steer` at the top
/// level, checked by [`crate::admission::admit`]).
#[derive(Debug, Default, Deserialize)]
pub struct ExtractRequest {
    pub url: Option<String>,
    /// HTML to render instead of a URL (POST only).
    pub html: Option<String>,
    /// Charset label of `html` (default utf-8).
    pub charset: Option<String>,
    /// The page's choices and steering fields.
    #[serde(flatten)]
    pub page: PageRequest,
}

struct AppState {
    extractor: Extractor,
    cfg: ServeConfig,
    admitted: Arc<Semaphore>,
    metrics: Metrics,
}

/// The service's routes over running browsers (`extractor`'s; its scoring settings are
/// replaced by `cfg.page`).
pub fn router(extractor: &Extractor, cfg: ServeConfig) -> Router {
    let extractor = extractor.with_config(cfg.page.clone());
    let admitted = Arc::new(Semaphore::new(extractor.tabs() + cfg.max_queue));
    let limits = Arc::new(cfg.limits.clone());
    let mcp = crate::mcp::http_service(
        crate::mcp::McpServer::new(
            &extractor,
            crate::mcp::McpConfig {
                policy: cfg.policy.clone(),
                page: cfg.page.clone(),
                call_timeout: Some(cfg.request_timeout),
                grants: cfg.grants.clone(),
                max_crawl_pages: cfg.max_crawl_pages,
                warc_dir: cfg.warc_dir.clone(),
            },
        ),
        cfg.token.is_some(),
    );
    let state = Arc::new(AppState {
        extractor,
        cfg,
        admitted,
        metrics: Metrics::new(),
    });
    Router::new()
        .route("/", get(playground::page))
        .route("/extract", get(extract_get).post(extract_post))
        .route("/score", axum::routing::post(score_post))
        .route("/crawl", axum::routing::post(crawl::crawl_post))
        .route("/map", axum::routing::post(crawl::map_post))
        .route("/healthz", get(healthz))
        .route("/metrics", get(metrics_text))
        .merge(
            Router::new()
                .route_service("/mcp", mcp)
                .layer(middleware::from_fn_with_state(state.clone(), mcp_gate)),
        )
        .with_state(state)
        .layer(axum::middleware::from_fn(move |req, next| {
            edges::check_head(limits.clone(), req, next)
        }))
}

/// In front of `/mcp`: the bearer token, as on `/extract`, and admission. A `POST` (a
/// JSON-RPC message, such as a tool call that renders a page) takes one of the
/// `concurrency + max_queue` places `/extract` takes, or gets 503 at once; it holds the place
/// until its response body has been sent or dropped (a client that goes away frees it).
async fn mcp_gate(State(state): State<Arc<AppState>>, req: Request, next: Next) -> Response {
    if !authorized(&state, req.headers()) {
        return unauthorized(&state);
    }
    if req.method() != axum::http::Method::POST {
        return next.run(req).await;
    }
    let Some(admission) = Admission::take(&state) else {
        return queue_full();
    };
    // The body owns the place: it is freed when the body is dropped, after its last frame
    // was sent or when the client went away.
    let resp = next.run(req).await;
    resp.map(|body| {
        use http_body_util::BodyExt;
        axum::body::Body::new(body.map_frame(move |frame| {
            let _owned = &admission;
            frame
        }))
    })
}

/// One admitted request: a place among `concurrency + max_queue`, counted in the queue
/// gauge until dropped.
struct Admission {
    _permit: tokio::sync::OwnedSemaphorePermit,
    state: Arc<AppState>,
}

impl Admission {
    /// A place, or `None` when every place is taken (counted as a `queue-full` refusal;
    /// answer with [`queue_full`]).
    fn take(state: &Arc<AppState>) -> Option<Admission> {
        let Ok(permit) = state.admitted.clone().try_acquire_owned() else {
            state.metrics.refused("queue-full");
            return None;
        };
        state.metrics.queued(1);
        Some(Admission {
            _permit: permit,
            state: state.clone(),
        })
    }
}

impl Drop for Admission {
    fn drop(&mut self) {
        self.state.metrics.queued(-1);
    }
}

/// 503 with `Retry-After`: every place is taken.
fn queue_full() -> Response {
    let mut r = error_response(
        StatusCode::SERVICE_UNAVAILABLE,
        "busy",
        "the queue is full (--max-queue); retry later",
    );
    r.headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    r
}

/// Serve on `listener` until `shutdown` resolves; then stop accepting and wait for the
/// requests in flight, at most `drain`. Connections, headers and bodies are held to `limits`
/// (see [`Limits`]).
pub use edges::serve;

/// A JSON error response.
fn error_response(status: StatusCode, kind: &str, message: &str) -> Response {
    let body = serde_json::json!({"error": {"kind": kind, "message": message}});
    (status, Json(body)).into_response()
}

/// A message that may quote what a client sent, cut to a readable length (a 1 MB `format`
/// is not echoed back).
fn clip(m: &str) -> String {
    const MAX: usize = 300;
    if m.len() <= MAX {
        return m.to_string();
    }
    let mut end = MAX;
    while !m.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes in all)", &m[..end], m.len())
}

/// The HTTP status for a failed page.
fn status_of(kind: &str) -> StatusCode {
    match kind {
        "input" | "charset" => StatusCode::BAD_REQUEST,
        "forbidden" => StatusCode::FORBIDDEN,
        "too-large" => StatusCode::PAYLOAD_TOO_LARGE,
        "timeout" => StatusCode::GATEWAY_TIMEOUT,
        "browser" => StatusCode::SERVICE_UNAVAILABLE,
        _ => StatusCode::BAD_GATEWAY, // navigation, http, blocked, content-type, crashed, script
    }
}

/// 401 for a request without the service's token (counted as an `unauthorized` refusal).
fn unauthorized(state: &AppState) -> Response {
    state.metrics.refused("unauthorized");
    error_response(
        StatusCode::UNAUTHORIZED,
        "unauthorized",
        "missing or wrong bearer token: send Authorization: Bearer <token> (the --token or $SIGHTLINE_TOKEN of the service)",
    )
}

fn authorized(state: &AppState, headers: &HeaderMap) -> bool {
    let Some(token) = &state.cfg.token else {
        return true;
    };
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .is_some_and(|t| constant_time_eq(t.trim().as_bytes(), token.as_bytes()))
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

async fn extract_get(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    query: Result<Query<ExtractRequest>, axum::extract::rejection::QueryRejection>,
) -> Response {
    let req = match query {
        Ok(Query(req)) => req,
        Err(e) => {
            return error_response(
                StatusCode::BAD_REQUEST,
                "input",
                &format!(
                    "{}: send a query such as ?url=https%3A%2F%2Fexample.com%2F&format=text (UTF-8, percent-encoded)",
                    clip(&e.body_text())
                ),
            )
        }
    };
    if req.html.is_some() {
        return error_response(
            StatusCode::BAD_REQUEST,
            "input",
            "html is accepted in a POST body only",
        );
    }
    if let Some(k) = req.page.steer.first() {
        let steering = sightline::Steer::field_names();
        let m = if k == "steer" || steering.iter().any(|s| s == k) {
            format!("{k}: steering fields are accepted in a POST JSON body only")
        } else {
            format!("unknown field `{k}`: the query takes url, format, algorithm, screenshot, comments, warc, units and body")
        };
        return error_response(StatusCode::BAD_REQUEST, "input", &m);
    }
    handle(state, headers, req).await
}

async fn extract_post(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    body: axum::body::Body,
) -> Response {
    let body = match edges::read_body(&state.cfg.limits, &headers, body).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    match serde_json::from_slice::<ExtractRequest>(&body) {
        Ok(req) => handle(state, headers, req).await,
        Err(e) => error_response(
            StatusCode::BAD_REQUEST,
            "input",
            &format!("the body is not a valid extract request ({}); send JSON such as {{\"url\": \"https://example.com/\", \"format\": \"json\"}}", clip(&e.to_string())),
        ),
    }
}

async fn handle(state: Arc<AppState>, headers: HeaderMap, req: ExtractRequest) -> Response {
    let started = Instant::now();
    if !authorized(&state, &headers) {
        return unauthorized(&state);
    }
    let (input, cfg) = match request_to_page(&state, req).await {
        Ok(x) => x,
        Err(resp) => return resp,
    };
    let Some(admission) = Admission::take(&state) else {
        return queue_full();
    };
    let name = input.name();
    let work = state
        .extractor
        .record_with(input, Arc::new(cfg.page.clone()), Some(cfg.screenshot));
    let out = tokio::time::timeout(state.cfg.request_timeout, work).await;
    drop(admission);
    let out = match (out, &cfg.warc) {
        (Ok(mut o), Some((name, w))) if o.record.error.is_none() => match w.finish() {
            Ok(()) => {
                o.record.warc = Some(name.clone());
                Ok(o)
            }
            Err(e) => Ok(PageOut::error_for(&o.record.input, &e, &cfg.page)),
        },
        (o, _) => o,
    };
    let secs = started.elapsed().as_secs_f64();
    let out = match out {
        Ok(o) => o,
        Err(_) => {
            let e = Error::Timeout {
                input: name.clone(),
                phase: "serving the request".into(),
                seconds: state.cfg.request_timeout.as_secs_f64(),
            };
            PageOut::error_for(&name, &e, &cfg.page)
        }
    };
    state
        .metrics
        .page(out.record.error.as_ref().map(|e| e.kind.as_str()), secs);
    respond(out, &cfg)
}

/// The operator's rules of this service, for [`admission::admit`].
fn operator(state: &AppState) -> Operator<'_> {
    Operator {
        page: &state.cfg.page,
        grants: &state.cfg.grants,
        policy: &state.cfg.policy,
        warc_dir: state.cfg.warc_dir.as_deref(),
    }
}

/// A refusal as the service answers it: 400 (input), 403 (forbidden, counted as a
/// `forbidden` refusal) or 500 (output), with a JSON error.
fn refused(state: &AppState, r: Refusal) -> Response {
    let status = match r.kind {
        RefusalKind::Input => StatusCode::BAD_REQUEST,
        RefusalKind::Forbidden => {
            state.metrics.refused("forbidden");
            StatusCode::FORBIDDEN
        }
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    };
    error_response(status, r.kind_name(), &clip(&r.message))
}

/// The page a request names (its `url`, or the `html` it sent) and its admission.
async fn request_to_page(
    state: &AppState,
    req: ExtractRequest,
) -> Result<(Source, Admitted), Response> {
    let bad = |m: &str| error_response(StatusCode::BAD_REQUEST, "input", m);
    let url = match (&req.url, &req.html) {
        (Some(_), Some(_)) => return Err(bad("give url or html, not both")),
        (None, None) => {
            return Err(bad(
                "missing url: GET /extract?url=https://example.com/ (or POST {\"html\": …})",
            ))
        }
        (url, _) => url.as_deref(),
    };
    let admitted = admission::admit(&operator(state), &req.page, url)
        .await
        .map_err(|r| refused(state, r))?;
    let input = match (req.url, req.html) {
        (Some(url), _) => Source::Url(url),
        (None, html) => Source::Html {
            name: "request".into(),
            html: html.unwrap_or_default().into_bytes(),
            charset: Some(req.charset.unwrap_or_else(|| "utf-8".into())),
        },
    };
    Ok((input, admitted))
}

/// What `POST /score` takes: a snapshot (the JSON of `sightline snapshot`, or of the MCP
/// `snapshot` tool) and the choices of the one request shape ([`PageRequest`]) that need no
/// browser: `format`, `algorithm`, `comments`, `units`, `body`.
#[derive(Debug, Deserialize)]
pub struct ScoreRequest {
    /// The snapshot, as `js/snapshot.js` returns it (with its `schema_version`).
    pub snapshot: serde_json::Value,
    /// The name of the input in the record (default `snapshot`).
    pub name: Option<String>,
    /// The page's choices; those that need a browser (screenshot, warc, steering) are
    /// refused.
    #[serde(flatten)]
    pub page: PageRequest,
}

/// The choices of a `POST /score`: a snapshot renders nothing, so screenshot, warc and the
/// steering fields are refused.
fn score_choices(base: &PageConfig, req: &PageRequest) -> Result<PageConfig, String> {
    let browser = [("screenshot", req.screenshot), ("warc", req.warc)]
        .into_iter()
        .find_map(|(k, on)| on.then_some(k));
    if let Some(k) = browser.or(req.steer.first()) {
        return Err(format!(
            "`{k}`: POST /score renders nothing; it takes snapshot, name, format, algorithm, comments, units and body (screenshots, archives and steering are for /extract)"
        ));
    }
    admission::choose(base, req).map_err(|r| r.message)
}

/// `POST /score`: a posted snapshot scored with no browser, answered as `/extract` answers.
async fn score_post(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    body: axum::body::Body,
) -> Response {
    let started = Instant::now();
    if !authorized(&state, &headers) {
        return unauthorized(&state);
    }
    let body = match edges::read_body(&state.cfg.limits, &headers, body).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    let bad = |m: String| error_response(StatusCode::BAD_REQUEST, "input", &clip(&m));
    let req = match serde_json::from_slice::<ScoreRequest>(&body) {
        Ok(r) => r,
        Err(e) => {
            return bad(format!(
                "the body is not a valid score request ({e}); send JSON such as {{\"snapshot\": {{…the JSON of `sightline snapshot`…}}, \"format\": \"json\"}}"
            ))
        }
    };
    let page = match score_choices(&state.cfg.page, &req.page) {
        Ok(p) => p,
        Err(m) => return bad(m),
    };
    let name = req.name.unwrap_or_else(|| "snapshot".into());
    let snap = match sightline::Snapshot::from_json(&req.snapshot.to_string(), &name) {
        Ok(s) => s,
        Err(e) => return error_response(StatusCode::BAD_REQUEST, e.kind(), &page.message(&e)),
    };
    let Some(admission) = Admission::take(&state) else {
        return queue_full();
    };
    let scorer = state.extractor.with_config(page.clone());
    let cfg = Admitted {
        page,
        screenshot: false,
        warc: None,
    };
    let work = tokio::task::spawn_blocking(move || scorer.score(&name, &snap));
    let out = tokio::time::timeout(state.cfg.request_timeout, work).await;
    drop(admission);
    let out = match out {
        Ok(Ok(o)) => o,
        Ok(Err(e)) => {
            return error_response(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal",
                &format!("scoring the snapshot failed: {e}"),
            )
        }
        Err(_) => {
            return error_response(
                StatusCode::GATEWAY_TIMEOUT,
                "timeout",
                "scoring the snapshot took longer than --request-timeout",
            )
        }
    };
    state.metrics.page(
        out.record.error.as_ref().map(|e| e.kind.as_str()),
        started.elapsed().as_secs_f64(),
    );
    respond(out, &cfg)
}

fn respond(mut out: PageOut, cfg: &Admitted) -> Response {
    if let Some(e) = &out.record.error {
        // A wall: 502, with the record (its `wall`) as the body.
        if e.kind == "blocked" {
            return (status_of(&e.kind), Json(out.record)).into_response();
        }
        return error_response(status_of(&e.kind), &e.kind, &e.message);
    }
    if cfg.page.format == Format::Json {
        if let Some(png) = out.screenshot.take() {
            out.record.screenshot = Some(format!(
                "data:image/png;base64,{}",
                base64::engine::general_purpose::STANDARD.encode(png)
            ));
        }
        return Json(out.record).into_response();
    }
    let ct = match cfg.page.format {
        Format::Html => "text/html; charset=utf-8",
        Format::Markdown => "text/markdown; charset=utf-8",
        _ => "text/plain; charset=utf-8",
    };
    ([(header::CONTENT_TYPE, ct)], out.body).into_response()
}

async fn healthz(State(state): State<Arc<AppState>>) -> Response {
    let stats = state.extractor.stats();
    Json(serde_json::json!({
        "status": "ok",
        "tabs": stats.tabs,
        "browsers": stats.browsers,
        "busy_tabs": stats.busy_tabs,
        "relaunches": stats.relaunches,
        "recycles": stats.recycles,
        "reaped_targets": stats.reaped_targets,
        "egress_refused": stats.egress_refused,
    }))
    .into_response()
}

async fn metrics_text(State(state): State<Arc<AppState>>, headers: HeaderMap) -> Response {
    if !authorized(&state, &headers) {
        return unauthorized(&state);
    }
    let stats = state.extractor.stats();
    let body = state.metrics.encode(stats.busy_tabs, stats.egress_refused);
    (
        [(
            header::CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        body,
    )
        .into_response()
}
