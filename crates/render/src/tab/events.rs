//! The tab's event task: it drains the CDP events of one tab and keeps [`State`] current.
//!
//! Fetch.requestPaused (allow or abort each request, by [`decide`], the pure request policy
//! of `request_policy`),
//! Network.* (requests in flight; the main document's status and headers, checked by
//! [`checks`]; the main document failing to load), Page.javascriptDialogOpening (answered at
//! once, see [`dialogs`]) and Inspector.targetCrashed.

use std::sync::Arc;
use std::time::{Duration, Instant};

use chromiumoxide::cdp::browser_protocol::fetch::{
    ContinueRequestParams, EventRequestPaused, FailRequestParams, HeaderEntry, RequestId,
};
use chromiumoxide::cdp::browser_protocol::inspector::EventTargetCrashed;
use chromiumoxide::cdp::browser_protocol::network::{
    ErrorReason, EventLoadingFailed, EventLoadingFinished, EventRequestWillBeSent,
    EventResponseReceived, EventResponseReceivedExtraInfo, ResourceType,
};
use chromiumoxide::cdp::browser_protocol::page::{DialogType, EventJavascriptDialogOpening};
use chromiumoxide::listeners::EventStream;
use chromiumoxide::Page;
use futures::StreamExt;
use parking_lot::Mutex;

use super::request_policy::{
    decide, read_from_memory, same_document_url, RequestDecision, RequestFacts,
};
use super::{capture, spawn_body_read, Fault, State};
use crate::cdp;
use crate::steer::block;
use crate::Error;
use crate::{checks, dialogs, steer};
use sightline_core::archive::Archive;
use sightline_egress::guard::NetPolicy;

/// The event streams of one tab, opened before its event task starts.
pub(super) struct Listeners {
    paused: EventStream<EventRequestPaused>,
    sent: EventStream<EventRequestWillBeSent>,
    done: EventStream<EventLoadingFinished>,
    failed: EventStream<EventLoadingFailed>,
    resp: EventStream<EventResponseReceived>,
    extra: EventStream<EventResponseReceivedExtraInfo>,
    crashed: EventStream<EventTargetCrashed>,
    dialog: EventStream<EventJavascriptDialogOpening>,
}

impl Listeners {
    /// Open every stream the event task reads (each command bounded by `t`).
    pub(super) async fn open(page: &Page, t: Duration) -> Result<Listeners, Error> {
        let l = "listening";
        Ok(Listeners {
            paused: cdp::timed("tab", l, t, page.event_listener::<EventRequestPaused>()).await?,
            sent: cdp::timed("tab", l, t, page.event_listener::<EventRequestWillBeSent>()).await?,
            done: cdp::timed("tab", l, t, page.event_listener::<EventLoadingFinished>()).await?,
            failed: cdp::timed("tab", l, t, page.event_listener::<EventLoadingFailed>()).await?,
            resp: cdp::timed("tab", l, t, page.event_listener::<EventResponseReceived>()).await?,
            extra: cdp::timed(
                "tab",
                l,
                t,
                page.event_listener::<EventResponseReceivedExtraInfo>(),
            )
            .await?,
            crashed: cdp::timed("tab", l, t, page.event_listener::<EventTargetCrashed>()).await?,
            dialog: cdp::timed(
                "tab",
                l,
                t,
                page.event_listener::<EventJavascriptDialogOpening>(),
            )
            .await?,
        })
    }
}

/// Start the event task of a tab whose main frame is the one in `state`.
pub(super) fn spawn(
    listeners: Listeners,
    page: Page,
    state: Arc<Mutex<State>>,
) -> tokio::task::JoinHandle<()> {
    let Listeners {
        mut paused,
        mut sent,
        mut done,
        mut failed,
        mut resp,
        mut extra,
        mut crashed,
        mut dialog,
    } = listeners;
    let st = state;
    let pg = page;
    tokio::spawn(async move {
        loop {
            tokio::select! {
                Some(ev) = paused.next() => on_paused(&pg, &st, &ev).await,
                Some(ev) = sent.next() => on_sent(&mut st.lock(), &ev),
                Some(ev) = done.next() => on_finished(&pg, &mut st.lock(), &ev),
                Some(ev) = failed.next() => on_failed(&mut st.lock(), &ev),
                Some(ev) = resp.next() => on_response(&st, &ev),
                Some(ev) = extra.next() => on_extra_info(&mut st.lock(), &ev),
                Some(_) = crashed.next() => {
                    st.lock().seen.crashed = true;
                }
                Some(ev) = dialog.next() => on_dialog(&pg, &st, &ev).await,
                else => break,
            }
        }
    })
}

/// Network.requestWillBeSent: the main document's request found (or a navigation the page
/// started counted), the request in flight.
fn on_sent(s: &mut State, ev: &EventRequestWillBeSent) {
    let id = ev.request_id.inner().to_string();
    // The same rule as for paused requests (documents that Fetch does not pause, file: URLs,
    // are seen here only).
    if s.seen.main_request.is_none()
        && ev.r#type == Some(ResourceType::Document)
        && ev.frame_id.as_ref().is_some_and(|f| {
            s.is_navigation_document(f.inner(), &ev.request.url, ev.redirect_response.is_some())
        })
    {
        s.seen.main_request = Some(id.clone());
    }
    // Another document of the main frame, after the page's own: a navigation the page
    // started (an action submitted a form). Counted, never taken for the main document
    // (whose faults and status stay the first one's).
    else if s.seen.main_request.as_deref().is_some_and(|m| m != id)
        && ev.r#type == Some(ResourceType::Document)
        && ev.redirect_response.is_none()
        && ev
            .frame_id
            .as_ref()
            .is_some_and(|f| s.rules.main_frame.as_deref() == Some(f.inner().as_str()))
    {
        s.seen.page_navigations += 1;
        s.seen.page_navigation = Some(id.clone());
    }
    // A redirect keeps its request id: the main document's URL now.
    if s.seen.main_request.as_deref() == Some(id.as_str()) {
        s.seen.main_url = Some(ev.request.url.clone());
    }
    if let Some(c) = s.seen.capture.as_mut() {
        c.sent(ev);
    }
    // Chromium reports memory reads sent but never finished: not waited for.
    if !read_from_memory(&ev.request.url) && !s.seen.finished.remove(&id) {
        s.seen.inflight.insert(id);
    }
    s.seen.last_net = Some(Instant::now());
}

/// Network.loadingFinished: the main document's body read at once (while the page loads its
/// resources, see `Tab::start_body_read`), the request no longer in flight.
fn on_finished(pg: &Page, s: &mut State, ev: &EventLoadingFinished) {
    let id = ev.request_id.inner().to_string();
    if s.seen.main_request.as_deref() == Some(id.as_str())
        && s.seen.main_checked
        && s.seen.fault.is_none()
        && s.seen.body.is_none()
        && s.seen.pdf_view.is_none()
    {
        s.seen.body = Some(spawn_body_read(pg.clone(), id.clone(), s.rules.body_limit));
    }
    if s.seen.main_request.as_deref() == Some(id.as_str()) {
        s.seen.main_finished = true;
    }
    let limit = s.rules.body_limit;
    if let Some(c) = s.seen.capture.as_mut() {
        c.finished(pg, &id, limit);
    }
    if !s.seen.inflight.remove(&id) {
        s.seen.finished.insert(id);
    }
    s.seen.last_net = Some(Instant::now());
}

/// Network.loadingFailed: a main document that failed to load (refused, reset, DNS) is a
/// fault now, instead of waiting for Chromium's error page to load.
fn on_failed(s: &mut State, ev: &EventLoadingFailed) {
    let id = ev.request_id.inner().to_string();
    if s.seen.main_request.as_deref() == Some(id.as_str())
        && s.seen.fault.is_none()
        && ev.error_text != "net::ERR_ABORTED"
    {
        s.seen.fault = Some(
            tunnel_fault(s, &ev.error_text)
                .unwrap_or_else(|| Fault::Navigation(ev.error_text.clone())),
        );
    }
    if let Some(c) = s.seen.capture.as_mut() {
        c.failed(&id);
    }
    if !s.seen.inflight.remove(&id) {
        s.seen.finished.insert(id);
    }
    s.seen.last_net = Some(Instant::now());
}

/// Network.responseReceived: the main document's final response checked once (its status,
/// charset and wall headers; its fault, if any).
fn on_response(st: &Mutex<State>, ev: &EventResponseReceived) {
    if let Some(c) = st.lock().seen.capture.as_mut() {
        c.response(ev);
    }
    if ev.r#type != ResourceType::Document {
        return;
    }
    let mut s = st.lock();
    if s.seen.main_request.as_deref() == Some(ev.request_id.inner().as_str())
        && !s.seen.main_checked
    {
        s.seen.main_checked = true;
        s.seen.status = Some(ev.response.status);
        s.seen.main_charset = response_charset(&ev.response);
        s.seen.response_headers = wall_headers(&ev.response);
        // A status walls answer with is rendered: a wall is named after the snapshot, and
        // the page is an `http` error if none is.
        let defer =
            !s.rules.accept_http_errors && checks::WALL_STATUSES.contains(&ev.response.status);
        if defer {
            s.seen.http_error = Some(ev.response.status);
        }
        let fault = s
            .rules
            .egress
            .as_ref()
            .and_then(|_| proxy_answer_fault(&ev.response))
            .or_else(|| main_response_fault(&ev.response, s.rules.accept_http_errors || defer));
        if s.seen.fault.is_none() {
            s.seen.fault = fault;
        }
    }
}

/// Network.responseReceivedExtraInfo: the names of the cookies the main document's response
/// sets (`Network.responseReceived` leaves `Set-Cookie` out), for the walls; a redirect's
/// hop is replaced by the next one's.
fn on_extra_info(s: &mut State, ev: &EventResponseReceivedExtraInfo) {
    if s.seen.main_request.as_deref() != Some(ev.request_id.inner().as_str()) {
        return;
    }
    let Some(o) = ev.headers.inner().as_object() else {
        return;
    };
    s.seen.main_set_cookie = o
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("set-cookie"))
        .and_then(|(_, v)| v.as_str())
        .map(|v| {
            // Names only: a cookie's value is the site's business.
            v.lines()
                .filter_map(|c| c.split('=').next())
                .map(|n| format!("{}=", n.trim()))
                .collect::<Vec<_>>()
                .join("\n")
        });
}

/// Page.javascriptDialogOpening: answered at once ([`dialogs`]), and counted.
async fn on_dialog(pg: &Page, st: &Mutex<State>, ev: &EventJavascriptDialogOpening) {
    {
        // A `beforeunload` dialog is about leaving a page: the previous page's, as the tab
        // goes straight to the next one (see `Tab::park`), is answered but not counted for
        // the next page.
        let mut s = st.lock();
        if ev.r#type != DialogType::Beforeunload || same_document_url(&ev.url, &s.rules.nav_url) {
            s.seen.dialogs += 1;
        }
    }
    tracing::debug!(
        "answering a {} dialog: {:?}",
        ev.r#type.as_ref(),
        ev.message
    );
    let _ = pg.execute(dialogs::answer(&ev.r#type)).await;
}

/// A paused request: decide ([`decide`]), count, then continue or fail it (after the target
/// policy's check, off the event loop, when there is one). A request the page's plan skips
/// ([`block::Blocking::skip`]) is answered at once, without the target policy's check: it
/// goes nowhere.
async fn on_paused(pg: &Page, st: &Arc<Mutex<State>>, ev: &EventRequestPaused) {
    if super::pdf::answer_request(pg, st, ev).await {
        return;
    }
    // `auto`: the main document's response, read and decided (tab/lane.rs).
    if super::lane::answer_response(pg, st, ev).await {
        return;
    }
    let Paused {
        d,
        policy,
        headers,
        skip,
        replay,
        pdf_fetch,
        decide_lane,
        fetched,
    } = paused_request(&mut st.lock(), ev);
    let id = ev.request_id.clone();
    if let Some(why) = skip {
        block::answer(pg, id, why, ev.resource_type.as_ref()).await;
        return;
    }
    // The main document as an earlier render fetched it (`auto`): not fetched again.
    if let Some(doc) = fetched {
        capture::fulfil_fetched(pg, id, &doc).await;
        return;
    }
    // `--replay`: answered from the archive, never from the network.
    if let Some(archive) = replay {
        let url = ev.request.url.clone();
        capture::replay(pg, st, archive, id, url, d.navigation_document);
        return;
    }
    let url = ev.request.url.clone();
    let go = move |id: RequestId| {
        let mut p = ContinueRequestParams::new(id);
        p.headers = headers;
        p.intercept_response = (pdf_fetch || decide_lane).then_some(true);
        p
    };
    match policy {
        // `serve`: every request the page makes is checked first (a refused target is
        // `forbidden` whatever else would block it; DNS may take a moment, so off the event
        // loop).
        Some((policy, proxied)) => {
            let pg = pg.clone();
            let st = st.clone();
            tokio::spawn(async move {
                check_then_answer(&pg, &st, (policy, proxied), d, id, url, go).await;
            });
        }
        None if d.allow => {
            let _ = pg.execute(go(id)).await;
        }
        None => {
            let _ = pg
                .execute(FailRequestParams::new(id, d.refusal.clone()))
                .await;
        }
    }
}

/// What is done with one paused request, decided under the state's lock.
struct Paused {
    /// The request policy's decision ([`decide`]).
    d: RequestDecision,
    /// The target policy to check the request against first, and whether the browser
    /// connects through the user's proxy.
    policy: Option<(NetPolicy, bool)>,
    /// The request's headers with the page's own (`--header`), when it goes to the site.
    headers: Option<Vec<HeaderEntry>>,
    /// Why the page's plan skips it.
    skip: Option<block::Skip>,
    /// The archive it is answered from (`--replay`).
    replay: Option<Arc<Archive>>,
    /// The PDF's request again (`tab/pdf.rs`): its response is paused, to read the PDF.
    pdf_fetch: bool,
    /// The main document under `auto`: its response is paused, to choose the lane
    /// (`tab/lane.rs`).
    decide_lane: bool,
    /// The main document as an earlier render fetched it: the request is answered with it.
    fetched: Option<Arc<crate::lane::FetchedDocument>>,
}

/// Decide a paused request ([`decide`]) and count it.
fn paused_request(s: &mut State, ev: &EventRequestPaused) -> Paused {
    let network_id = ev.network_id.as_ref().map(|n| n.inner().to_string());
    let d = decide(&RequestFacts {
        url: ev.request.url.as_str(),
        is_document: ev.resource_type == ResourceType::Document,
        main_frame: s.rules.main_frame.as_deref() == Some(ev.frame_id.inner().as_str()),
        redirected: ev.redirected_request_id.is_some(),
        network_id: network_id.as_deref(),
        offline: s.rules.offline,
        allow_file: s.rules.allow_file,
        allow_origin: s.rules.allow_origin.as_deref(),
        nav_url: &s.rules.nav_url,
        main_request: s.seen.main_request.as_deref(),
        target_policy: s.rules.policy.is_some(),
        exempt_origin: s.rules.exempt_origin.as_deref(),
    });
    if d.navigation_document {
        s.seen.main_request.clone_from(&network_id);
    }
    // The navigation's document, or a redirect of it.
    let main_hop = d.main_document
        && d.allow
        && (d.navigation_document
            || (ev.redirected_request_id.is_some()
                && network_id.is_some()
                && s.seen.main_request == network_id));
    if !d.allow {
        s.seen.blocked += 1;
    }
    if d.blocked_navigation {
        s.seen.blocked_navigations += 1;
    }
    // The page's plan may skip what the policy allowed (`--block`, `--block-list`).
    let skip = s.rules.blocking.as_ref().filter(|_| d.allow).and_then(|b| {
        let page = s.seen.main_url.as_deref().unwrap_or(&s.rules.nav_url);
        let kind = ev.resource_type.as_ref();
        b.skip(&ev.request.url, page, kind, d.main_document)
    });
    // The static lane does not fetch scripts, media, fonts (nor images, but for a
    // screenshot).
    let skip = skip.or_else(|| {
        (d.allow && !d.main_document && super::lane::is_static(s))
            .then(|| super::lane::static_skip(&ev.resource_type, s.rules.screenshot))
            .flatten()
    });
    if let Some(why) = skip {
        s.seen.skipped.count(why);
    }
    let decide_lane = super::lane::pauses_response(s, main_hop);
    let fetched = s.rules.fetched.clone().filter(|_| d.navigation_document);
    // `tab/pdf.rs`: the PDF's request again, its response paused to read the PDF.
    let pdf_fetch = s.seen.pdf_fetch && d.main_document && d.navigation_document;
    let policy = s.rules.policy.clone().filter(|_| d.check_target);
    // `--header`: to the target's own site only (each redirect hop is paused and
    // decided again, so a redirect to another site goes without them).
    let headers = s
        .rules
        .site
        .as_deref()
        .filter(|site| steer::request::on_site(&ev.request.url, site))
        .map(|_| steer::request::with_headers(&ev.request.headers, &s.rules.headers));
    let replay = s
        .rules
        .replay
        .clone()
        .filter(|_| d.allow && !read_from_memory(&ev.request.url));
    Paused {
        d,
        policy: policy.map(|p| (p, s.rules.proxied)),
        headers,
        skip,
        replay,
        pdf_fetch,
        decide_lane,
        fetched,
    }
}

/// The target policy's check of a request the page makes (`proxied`: the browser connects
/// through the user's proxy), then the request continued with
/// `go`, failed as the request policy said, or refused (a main document refused is the
/// page's `forbidden` fault).
async fn check_then_answer(
    pg: &Page,
    st: &Mutex<State>,
    (policy, proxied): (NetPolicy, bool),
    d: RequestDecision,
    id: RequestId,
    url: String,
    go: impl FnOnce(RequestId) -> ContinueRequestParams,
) {
    let checked = match policy.check(&url).await {
        // Through the user's proxy, a name unknown here is the proxy's to
        // resolve; the egress proxy still decides the connection.
        Err(sightline_egress::guard::Refusal::Unresolved { .. }) if proxied => Ok(()),
        r => r,
    };
    match checked {
        Ok(()) if d.allow => {
            let _ = pg.execute(go(id)).await;
        }
        Ok(()) => {
            let _ = pg
                .execute(FailRequestParams::new(id, d.refusal.clone()))
                .await;
        }
        Err(why) => {
            {
                let mut s = st.lock();
                if d.main_document && s.seen.fault.is_none() {
                    s.seen.fault = Some(Fault::Forbidden(format!("{url}: {why}")));
                }
            }
            tracing::info!("refused {url}: {why}");
            let _ = pg
                .execute(FailRequestParams::new(id, ErrorReason::AccessDenied))
                .await;
        }
    }
}

/// The main document failed with `error_text` while its connections go through the egress
/// proxy: a tunnel the proxy refused is `forbidden` with the proxy's reason, one whose lookup
/// or connection failed says why. (Chromium reports both as a failed tunnel.)
fn tunnel_fault(s: &State, error_text: &str) -> Option<Fault> {
    use sightline_egress::Outcome;
    if error_text != "net::ERR_TUNNEL_CONNECTION_FAILED" {
        return None;
    }
    let url = s.seen.main_url.as_deref().unwrap_or(&s.rules.nav_url);
    match s.rules.egress.as_ref()?.outcome_for_url(url)? {
        Outcome::Refused(why) => Some(Fault::Forbidden(format!("{url}: egress proxy: {why}"))),
        Outcome::Failed(why) => Some(Fault::Navigation(format!(
            "{error_text} (egress proxy: {why})"
        ))),
    }
}

/// An answer of the egress proxy itself to the main document's plain-HTTP request (it marks
/// its answers with [`EGRESS_HEADER`](sightline_egress::EGRESS_HEADER) and removes that
/// header from upstream answers): a refusal is `forbidden`, a failure a navigation error.
fn proxy_answer_fault(
    r: &chromiumoxide::cdp::browser_protocol::network::Response,
) -> Option<Fault> {
    use sightline_egress::{EGRESS_HEADER, REASON_HEADER};
    let o = r.headers.inner().as_object()?;
    let get = |name: &str| {
        o.iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .and_then(|(_, v)| v.as_str())
    };
    let why = get(REASON_HEADER).unwrap_or("refused");
    match get(EGRESS_HEADER)? {
        "refused" => Some(Fault::Forbidden(format!("{}: egress proxy: {why}", r.url))),
        _ => Some(Fault::Navigation(format!("egress proxy: {why}"))),
    }
}

/// The main document's response: an HTTP error status (unless accepted) or a non-HTML
/// Content-Type or download ([`checks::header_problem`]) is a fault.
fn main_response_fault(
    r: &chromiumoxide::cdp::browser_protocol::network::Response,
    accept_http_errors: bool,
) -> Option<Fault> {
    if r.status >= 400 && !accept_http_errors {
        return Some(Fault::Http(r.status));
    }
    let headers: Vec<(String, String)> = r
        .headers
        .inner()
        .as_object()
        .map(|o| {
            o.iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap_or("").to_string()))
                .collect()
        })
        .unwrap_or_default();
    let problem = checks::header_problem(headers.iter().map(|(n, v)| (n.as_str(), v.as_str())))?;
    // A PDF (by type, or maybe one under a generic binary type: its bytes decide) is read
    // and laid out instead (`tab/pdf.rs`).
    match checks::pdf_hint(headers.iter().map(|(n, v)| (n.as_str(), v.as_str()))) {
        Some(true) => Some(Fault::Pdf(None)),
        Some(false) => Some(Fault::Pdf(Some(problem))),
        None => Some(Fault::ContentType(problem)),
    }
}

/// The headers of a response that walls are recognised by
/// ([`sightline_core::walls::RESPONSE_HEADERS`]), names in lower case.
fn wall_headers(
    r: &chromiumoxide::cdp::browser_protocol::network::Response,
) -> Vec<(String, String)> {
    let Some(o) = r.headers.inner().as_object() else {
        return Vec::new();
    };
    o.iter()
        .filter(|(k, _)| {
            sightline_core::walls::RESPONSE_HEADERS
                .iter()
                .any(|h| k.eq_ignore_ascii_case(h))
        })
        .map(|(k, v)| (k.to_ascii_lowercase(), v.as_str().unwrap_or("").to_string()))
        .collect()
}

/// The charset of a response's Content-Type.
fn response_charset(r: &chromiumoxide::cdp::browser_protocol::network::Response) -> Option<String> {
    let o = r.headers.inner().as_object()?;
    let headers: Vec<(&str, &str)> = o
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str().unwrap_or("")))
        .collect();
    checks::header_charset(headers)
}
