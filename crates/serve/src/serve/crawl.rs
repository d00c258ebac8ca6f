//! `POST /crawl` and `POST /map`: a site's pages from seeds, as NDJSON streamed while the crawl
//! runs (one line a page, the record `sightline crawl -f json` writes, then a summary line),
//! and a site's URLs as one JSON answer. The bounds are the shared ones ([`crate::crawling`]):
//! the operator's page cap, every seed and every found URL checked by the service's target
//! policy, a frontier in memory, the crawl deadline. A crawl takes one of the service's
//! places (as `/extract` does, 503 when none is free) and renders in the service's tabs; the
//! place is held by the response body, so a client that goes away drops the crawl (its pages
//! in flight close their tabs).

use std::collections::HashSet;
use std::convert::Infallible;
use std::sync::Arc;

use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

use sightline::output::Format;
use sightline::{Cancel, CrawlConfig, CrawlSettings, CrawlSummary, Error, PageOut};

use super::{
    authorized, clip, edges, error_response, operator, queue_full, refused, status_of,
    unauthorized, Admission, AppState,
};
use crate::admission::{self, PageRequest, Refusal};
use crate::crawling::{self, Bounds, Job};

/// One seed or a list of them.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(super) enum Seeds {
    One(String),
    Many(Vec<String>),
}

impl Seeds {
    fn urls(self) -> Vec<String> {
        match self {
            Seeds::One(s) => vec![s],
            Seeds::Many(v) => v,
        }
    }
}

/// The body of `POST /crawl`: the seeds, the crawl's settings (the library's
/// [`CrawlSettings`], as MCP's `crawl` and the CLI's flags take them), and each page's
/// choices and steering fields in the one request shape of a page ([`PageRequest`], admitted
/// by [`admission::admit`] as on `POST /extract`; `units`, `body`, `screenshot` and `warc`
/// are refused: every line is a record, with the body in `format`).
#[derive(Debug, Deserialize)]
pub(super) struct CrawlRequest {
    /// Where to start: one http(s) URL or a list (at most as many as pages).
    pub seeds: Seeds,
    /// Scope, patterns, depth (default 2), pages (default 10, at most the service's
    /// `--max-crawl-pages`), `per_host` (at most the service's tabs), `delay_ms` (at most
    /// 10,000), sitemaps.
    #[serde(flatten)]
    pub settings: CrawlSettings,
    /// `format` (`text`, the default, `markdown`, `html` or `json`), `algorithm`, `comments`
    /// and the steering fields.
    #[serde(flatten)]
    pub page: PageRequest,
}

/// The body of `POST /map`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct MapRequest {
    /// The site: one http(s) URL or a list.
    pub seeds: Seeds,
    /// The crawl's settings; `max_depth` 1 (default): the seeds' links and their sitemaps'
    /// URLs; 2: the links of those pages too (at most 20 pages rendered).
    #[serde(flatten)]
    pub settings: CrawlSettings,
    /// URLs to list at most (default and most 5,000).
    pub limit: Option<u32>,
}

/// A body that is not JSON of the expected shape: 400 with an example.
fn not_a_request(what: &str, e: serde_json::Error, example: &str) -> Response {
    error_response(
        StatusCode::BAD_REQUEST,
        "input",
        &format!(
            "the body is not a valid {what} request ({}); send JSON such as {example}",
            clip(&e.to_string())
        ),
    )
}

/// The request through the services' one door ([`crawling::admit`]): its configuration, or
/// the refusal as a response (400 or 403).
async fn admitted(
    state: &AppState,
    job: Job,
    seeds: Seeds,
    settings: CrawlSettings,
    page: &sightline::PageConfig,
) -> Result<CrawlConfig, Response> {
    let bounds = Bounds {
        policy: &state.cfg.policy,
        max_crawl_pages: state.cfg.max_crawl_pages,
        tabs: state.extractor.tabs(),
    };
    crawling::admit(job, seeds.urls(), settings, &bounds)
        .await
        .map_err(|r| {
            let kind = r.kind();
            if kind == "forbidden" {
                state.metrics.refused("forbidden");
            }
            let message = match r {
                crawling::Refusal::Forbidden(e) => page.message(&e),
                r => clip(&r.to_string()),
            };
            error_response(status_of(kind), kind, &message)
        })
}

/// The pages' configuration of a crawl: the request's choices and steering fields admitted as
/// `/extract`'s ([`admission::admit`], no target: the seeds are the crawl's); the choices a
/// crawl's line has no place for are refused.
async fn crawl_page(state: &AppState, req: &PageRequest) -> Result<sightline::PageConfig, Refusal> {
    let unused = [
        ("units", req.units),
        ("body", req.body.is_some()),
        ("screenshot", req.screenshot),
        ("warc", req.warc),
    ];
    if let Some((k, _)) = unused.into_iter().find(|(_, given)| *given) {
        return Err(Refusal::input(format!(
            "`{k}`: POST /crawl takes seeds, the crawl's settings, format, algorithm, comments and the steering fields (every line is the page's record, with its body in `format`)"
        )));
    }
    Ok(admission::admit(&operator(state), req, None).await?.page)
}

/// `POST /crawl`.
pub(super) async fn crawl_post(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    body: axum::body::Body,
) -> Response {
    if !authorized(&state, &headers) {
        return unauthorized(&state);
    }
    let body = match edges::read_body(&state.cfg.limits, &headers, body).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    let req = match serde_json::from_slice::<CrawlRequest>(&body) {
        Ok(r) => r,
        Err(e) => return not_a_request(
            "crawl",
            e,
            "{\"seeds\": \"https://example.com/\", \"max_pages\": 10, \"format\": \"markdown\"}",
        ),
    };
    let mut page = match crawl_page(&state, &req.page).await {
        Ok(p) => p,
        Err(r) => return refused(&state, r),
    };
    let cfg = match admitted(&state, Job::Crawl, req.seeds, req.settings, &page).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    let Some(admission) = Admission::take(&state) else {
        return queue_full();
    };
    // Every line is a record; in another format the record carries the body (`body`,
    // `body_format`), as `crawl -f json --body FORMAT` writes it.
    if page.format != Format::Json {
        let f = page.format;
        page = page.format(Format::Json).json_body(Some(f));
    }
    let crawler = state.extractor.with_config(page);
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel::<String>();
    let task = tokio::spawn(stream_crawl(state.clone(), crawler, cfg, tx));
    let body = futures::stream::unfold(
        (rx, AbortOnDrop(task), admission),
        |(mut rx, task, admission)| async move {
            rx.recv()
                .await
                .map(|line| (Ok::<_, Infallible>(line), (rx, task, admission)))
        },
    );
    (
        [(header::CONTENT_TYPE, "application/x-ndjson")],
        axum::body::Body::from_stream(body),
    )
        .into_response()
}

/// The crawl behind a `/crawl` answer: each record sent to `tx` as a line as it is written,
/// then the summary line (with `max_pages` and `deadline_reached`, or the `error` that ended
/// it). At `--crawl-timeout` it takes no new page; after the deadline the pages in flight end
/// within their own deadline, and a crawl still running a request timeout later (a host that
/// never answers robots.txt or a sitemap in time) is dropped.
async fn stream_crawl(
    state: Arc<AppState>,
    crawler: sightline::Extractor,
    cfg: CrawlConfig,
    tx: tokio::sync::mpsc::UnboundedSender<String>,
) {
    let (deadline, grace) = (state.cfg.crawl_timeout, state.cfg.request_timeout);
    let cancel = Cancel::new();
    let mut last = CrawlSummary::default();
    let ended = {
        let lines = tx.clone();
        let last = &mut last;
        let mut write = |out: &mut PageOut, s: &CrawlSummary| -> Result<(), Error> {
            *last = s.clone();
            state
                .metrics
                .crawled(out.record.error.as_ref().map(|e| e.kind.as_str()));
            lines.send(page_line(out)).map_err(|_| Error::Output {
                path: "the crawl's response".into(),
                message: "the client went away".into(),
                source: None,
            })
        };
        let recorded = HashSet::new();
        let work = crawler.crawl_with(&cfg, &cancel, &recorded, &mut write);
        let bounded = crawling::within_deadline(work, &cancel, Some(deadline));
        tokio::time::timeout(deadline + grace, bounded).await
    };
    let mut end = match ended {
        Ok(Ok(s)) => json!({"summary": s}),
        Ok(Err(e)) => json!({
            "summary": last,
            "error": {"kind": e.kind(), "message": e.to_string()},
        }),
        Err(_) => {
            last.interrupted = true;
            json!({
                "summary": last,
                "error": {"kind": "timeout", "message": format!(
                    "the crawl was still running {:.0} s after its deadline of {:.0} s (--crawl-timeout) and was stopped",
                    grace.as_secs_f64(), deadline.as_secs_f64()
                )},
            })
        }
    };
    end["summary"]["max_pages"] = json!(cfg.settings.max_pages);
    end["summary"]["deadline_reached"] = json!(cancel.is_cancelled());
    let _ = tx.send(format!("{end}\n"));
}

/// A crawl's task, aborted when the response body that owns it is dropped (the client went
/// away, or the service stopped waiting for it).
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// One page's line: its record (with the crawl's `depth`, `parent`, `found_in`, `links`, and
/// in a format other than `json` its `body`).
fn page_line(out: &PageOut) -> String {
    let v = serde_json::to_value(&out.record).unwrap_or(Value::Null);
    format!("{v}\n")
}

/// `POST /map`.
pub(super) async fn map_post(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    body: axum::body::Body,
) -> Response {
    if !authorized(&state, &headers) {
        return unauthorized(&state);
    }
    let body = match edges::read_body(&state.cfg.limits, &headers, body).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    let req = match serde_json::from_slice::<MapRequest>(&body) {
        Ok(r) => r,
        Err(e) => {
            return not_a_request(
                "map",
                e,
                "{\"seeds\": \"https://example.com/\", \"max_depth\": 1}",
            )
        }
    };
    let page = state.extractor.page_config().clone();
    let cfg = match admitted(&state, Job::Map, req.seeds, req.settings, &page).await {
        Ok(c) => c,
        Err(r) => return r,
    };
    let Some(admission) = Admission::take(&state) else {
        return queue_full();
    };
    let cancel = Cancel::new();
    let work = state.extractor.map(&cfg, &cancel);
    let deadline = state.cfg.crawl_timeout;
    let bounded = crawling::within_deadline(work, &cancel, Some(deadline));
    let found = tokio::time::timeout(deadline + state.cfg.request_timeout, bounded).await;
    drop(admission);
    match found {
        Ok(Ok(found)) => {
            let (urls, more) = crawling::map_listing(found, req.limit);
            Json(json!({"urls": urls, "more": more})).into_response()
        }
        Ok(Err(e)) => error_response(status_of(e.kind()), e.kind(), &page.message(&e)),
        Err(_) => error_response(
            StatusCode::GATEWAY_TIMEOUT,
            "timeout",
            "the map was still running after --crawl-timeout and --request-timeout",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crawl_request_splits_into_settings_page_choices_and_steering() {
        let r: CrawlRequest = serde_json::from_value(json!({
            "seeds": "https://a.test/", "max_pages": 3, "per_host": 1,
            "format": "markdown", "comments": true, "wait_for": "#a"
        }))
        .unwrap();
        assert_eq!((r.settings.max_pages, r.settings.per_host), (Some(3), 1));
        assert_eq!(r.page.format.as_deref(), Some("markdown"));
        assert_eq!(r.page.scoring.comments, Some(true));
        let steer = r.page.steer.merged();
        assert_eq!(steer.keys().collect::<Vec<_>>(), ["wait_for"]);
    }
}
