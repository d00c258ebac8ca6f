//! One browser tab, reused page after page: request blocking (`--offline`), network and DOM
//! quiet tracking, navigation with a deadline, the snapshot and the screenshot.
//!
//! A tab owns one background task that drains its CDP events: Fetch.requestPaused (allow or
//! abort each request), Network.* (requests in flight; the main document's status and headers,
//! checked by [`super::checks`]; the main document failing to load), Page.javascriptDialogOpening (answered at once, see
//! [`super::dialogs`]) and Inspector.targetCrashed. A fault of the main document (HTTP error
//! status, not HTML, connection refused or reset) ends the navigation at once with its error.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chromiumoxide::cdp::browser_protocol::emulation::SetFocusEmulationEnabledParams;
use chromiumoxide::cdp::browser_protocol::emulation::SetScriptExecutionDisabledParams;
use chromiumoxide::cdp::browser_protocol::fetch::{
    ContinueRequestParams, EnableParams as FetchEnable, EventRequestPaused, FailRequestParams,
    RequestPattern,
};
use chromiumoxide::cdp::browser_protocol::inspector::EventTargetCrashed;
use chromiumoxide::cdp::browser_protocol::network::{
    ErrorReason, EventLoadingFailed, EventLoadingFinished, EventRequestWillBeSent,
    EventResponseReceived, GetResponseBodyParams, ResourceType,
};
use chromiumoxide::cdp::browser_protocol::page::{
    AddScriptToEvaluateOnNewDocumentParams, CaptureScreenshotFormat, CaptureScreenshotParams,
    DialogType, EventJavascriptDialogOpening, GetFrameTreeParams, NavigateParams, Viewport,
};
use chromiumoxide::cdp::js_protocol::runtime::{EvaluateParams, TerminateExecutionParams};
use chromiumoxide::Page;
use futures::StreamExt;

use super::scroll::{self, ScrollReport};
use super::settle::{self, INSTRUMENT_JS};
use super::timings::Timings;
use super::{checks, dialogs, RenderOptions};
use crate::snapshot::Snapshot;
use crate::Error;

/// The snapshot script, compiled into the binary.
pub const SNAPSHOT_JS: &str = include_str!("../../js/snapshot.js");

/// Installed before any page script in `--offline` mode: a saved page whose resources are
/// blocked often calls `document.write` after parsing from a fallback path (ad scripts), which
/// implicitly runs `document.open()` and blanks the whole document. After parsing, such calls
/// are ignored and counted (`Snapshot::document_writes_blocked`); during parsing they work.
const PRESERVE_JS: &str = r#"(() => {
  window.__slBlockedWrites = 0;
  const D = Document.prototype;
  for (const name of ["write", "writeln", "open"]) {
    const orig = D[name];
    Object.defineProperty(D, name, { configurable: true, writable: true, value: function (...args) {
      if (this === document && document.readyState !== "loading" && !(name === "open" && args.length > 2)) {
        window.__slBlockedWrites++;
        return name === "open" ? document : undefined;
      }
      return orig.apply(this, args);
    } });
  }
})()"#;

/// Run after loading a page with JavaScript disabled: each `<noscript>` (whose children
/// the parser then built as elements) becomes a `<div data-sightline-noscript>` holding them,
/// so the snapshot, which skips `noscript`, sees what the browser shows.
const NOSCRIPT_UNWRAP_JS: &str = r#"(() => {
  let n = 0;
  if (!document.body) return 0;
  for (const ns of Array.from(document.body.querySelectorAll("noscript"))) {
    const d = document.createElement("div");
    d.setAttribute("data-sightline-noscript", "");
    while (ns.firstChild) d.appendChild(ns.firstChild);
    ns.replaceWith(d);
    n++;
  }
  return n;
})()"#;

/// After the main document's fault, how long navigation may take to report its end.
const FAULT_SETTLE: Duration = Duration::from_secs(1);

/// After `--offline` refused a navigation away that a script started before `load`, how long
/// the page's own `load` is still waited for. Chromium stops loading a document (its parser
/// included) when a script starts a navigation away, and the refused navigation never ends
/// for chromiumoxide, so `load` would otherwise be waited for until the deadline.
const REFUSED_NAV_GRACE: Duration = Duration::from_millis(500);

/// What the event task knows about the current page.
#[derive(Debug, Default)]
struct State {
    /// Navigation epoch: events of an older page are ignored.
    allow_origin: Option<String>,
    allow_file: bool,
    offline: bool,
    /// The URL this page's navigation asked for: the main document is the main frame's
    /// request for it (see [`same_document_url`]), never whatever document is there.
    nav_url: String,
    /// The tab's main frame (its id is the target's; set once the tab is created).
    main_frame: Option<String>,
    blocked: usize,
    blocked_navigations: usize,
    inflight: HashSet<String>,
    finished: HashSet<String>,
    last_net: Option<Instant>,
    status: Option<i64>,
    crashed: bool,
    /// Target policy of `serve` (None: every target allowed).
    policy: Option<super::guard::NetPolicy>,
    exempt_origin: Option<String>,
    /// Extract main documents with an HTTP error status (`--accept-http-errors`).
    accept_http_errors: bool,
    /// Network request id of the page's main document.
    main_request: Option<String>,
    /// The main document's final (non-redirect) response was checked.
    main_checked: bool,
    /// The charset of the main document's Content-Type.
    main_charset: Option<String>,
    /// Why the main document cannot be extracted (the first reason found wins).
    fault: Option<Fault>,
    /// JavaScript dialogs answered.
    dialogs: usize,
    /// The main document's body and the charset of its Content-Type.
    html: Option<(Vec<u8>, Option<String>)>,
    /// The main document's body being read: since the document finished loading (the event
    /// task starts it at its `Network.loadingFinished`, before `load`), or since
    /// [`Tab::start_body_read`]; checked by [`Tab::finish_body_read`].
    body: Option<BodyRead>,
    /// How long reading the body may take (`RenderOptions::command_timeout`).
    body_limit: Duration,
}

impl State {
    /// Stop a body read of the previous page still running.
    fn abort_body_read(&mut self) {
        if let Some(h) = self.body.take() {
            h.abort();
        }
    }

    /// A document request of the main frame for the URL this page's navigation asked for,
    /// not a redirect's follow-up: the rule that finds the main document, for requests
    /// Fetch pauses and for those it does not (file: URLs).
    fn is_navigation_document(&self, frame: &str, url: &str, redirected: bool) -> bool {
        self.main_frame.as_deref() == Some(frame)
            && !redirected
            && same_document_url(url, &self.nav_url)
    }
}

/// A main document that cannot be extracted, found by the event task.
#[derive(Debug, Clone)]
enum Fault {
    /// HTTP status >= 400.
    Http(i64),
    /// Not HTML (from the headers or the first bytes).
    ContentType(String),
    /// The document did not load (connection refused or reset, DNS, ...).
    Navigation(String),
    /// The document (or a redirect of it) is refused by the service's target policy.
    Forbidden(String),
}

impl Fault {
    fn error(&self, input: &str) -> Error {
        match self {
            Fault::Http(status) => Error::Http {
                input: input.into(),
                status: *status,
            },
            Fault::ContentType(message) => Error::ContentType {
                input: input.into(),
                message: message.clone(),
            },
            Fault::Navigation(message) => Error::Navigation {
                input: input.into(),
                message: message.clone(),
            },
            Fault::Forbidden(message) => Error::Forbidden {
                input: input.into(),
                message: message.clone(),
            },
        }
    }
}

/// The result of rendering one page.
#[derive(Debug)]
pub struct Rendered {
    pub snapshot: Snapshot,
    /// The raw JSON the page returned (what `sightline snapshot` saves).
    pub snapshot_json: String,
    /// HTTP status of the main document, when it was fetched over HTTP.
    pub status: Option<i64>,
    pub screenshot: Option<Vec<u8>>,
    pub timings: Timings,
    /// Requests aborted by `--offline`.
    pub blocked_requests: usize,
    /// Cross-document navigations of the main frame blocked after the first (`--offline`).
    pub blocked_navigations: usize,
    /// The load event did not arrive before the deadline; the page was captured as it was.
    pub load_timed_out: bool,
    /// 1 when the page was retried after a renderer crash or a browser loss.
    pub retries: u32,
    /// The screenshot was cut at the height limit (`document.height` is larger).
    pub screenshot_truncated: bool,
    /// A repair applied to the page's HTML before the render that produced this snapshot.
    pub repaired: Option<String>,
    /// JavaScript dialogs (alert, confirm, prompt, beforeunload) answered automatically.
    pub dialogs: usize,
    /// Non-whitespace characters of text in the HTML the page loaded (tags stripped), when
    /// the HTML was seen.
    pub html_text_chars: Option<usize>,
    /// `Some("disabled-fallback")` when this snapshot comes from a second render with
    /// JavaScript disabled (the first one showed far less text than the HTML holds).
    pub javascript: Option<String>,
    /// What the scroll phase did.
    pub scroll: ScrollReport,
}

/// How a bounded wait ended.
enum Bounded<T> {
    Done(T),
    TimedOut,
    Crashed,
}

impl Rendered {
    /// A page known only from a saved snapshot (no timings, no screenshot).
    pub fn from_snapshot(snapshot: Snapshot, snapshot_json: String) -> Rendered {
        Rendered {
            snapshot,
            snapshot_json,
            status: None,
            screenshot: None,
            timings: Timings::default(),
            blocked_requests: 0,
            blocked_navigations: 0,
            load_timed_out: false,
            retries: 0,
            screenshot_truncated: false,
            repaired: None,
            dialogs: 0,
            html_text_chars: None,
            javascript: None,
            scroll: ScrollReport::default(),
        }
    }
}

/// The main document's body being read: its bytes and whether CDP sent them base64-encoded
/// (binary); None when it could not be read.
type BodyRead = tokio::task::JoinHandle<Option<(Vec<u8>, bool)>>;

/// Read a response's body (Network.getResponseBody) in a task of its own.
fn spawn_body_read(page: Page, id: String, limit: Duration) -> BodyRead {
    tokio::spawn(async move {
        let r = tokio::time::timeout(limit, page.execute(GetResponseBodyParams::new(id))).await;
        let Ok(Ok(r)) = r else { return None };
        let r = r.result;
        if r.base64_encoded {
            use base64::Engine;
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(r.body.as_bytes())
                .unwrap_or_default();
            Some((bytes, true))
        } else {
            Some((r.body.into_bytes(), false))
        }
    })
}

/// A reusable tab.
pub struct Tab {
    pub page: Page,
    state: Arc<Mutex<State>>,
    events: tokio::task::JoinHandle<()>,
    /// False once the tab hung, crashed or failed in a way that makes reuse unsafe (a
    /// navigation that was refused or never ended, a command that did not answer).
    pub healthy: bool,
    /// Script execution is disabled and the tab is ready for its next page: it shows
    /// `about:blank` (`on_blank`), or the last page it rendered cleanly (see [`Tab::park`]).
    parked: bool,
    /// The tab shows `about:blank` (new, or parked there after a page that did not end
    /// cleanly).
    on_blank: bool,
    /// The last render ended with a snapshot of its own document (its `performance.timeOrigin`
    /// seen by the settle): its tab may go straight to the next page.
    clean: bool,
    /// The URL of the tab's last navigation.
    doc_url: Option<String>,
    /// `performance.timeOrigin` of the document the tab shows, when the settle read it.
    doc_origin: Option<f64>,
    /// `performance.timeOrigin` of the previous page's document, left in the tab when this
    /// page's navigation began (None: the tab came from `about:blank`). A probe that reads it
    /// again is still looking at the previous page.
    left_origin: Option<f64>,
    /// The id of the tab's main frame.
    main_frame: String,
    /// Pages this tab has rendered (tabs are recycled after `RenderOptions::recycle_tab_after`).
    pub uses: usize,
    /// Script execution is disabled in this tab (the JavaScript-disabled fallback render).
    js_disabled: bool,
    /// The front of the window this tab shares with the browser's other tabs, held while
    /// scrolling (see [`scroll::Front`]).
    front: scroll::Front,
}

impl Drop for Tab {
    fn drop(&mut self) {
        self.events.abort();
        if let Ok(mut s) = self.state.lock() {
            s.abort_body_read();
        }
    }
}

/// `scheme://host:port` of a URL (the `url` crate's ASCII serialisation), for same-origin
/// decisions; None for opaque origins (data:, file:) and non-URLs.
fn origin_of(url: &str) -> Option<String> {
    let u = url::Url::parse(url).ok()?;
    match u.origin() {
        o @ url::Origin::Tuple(..) => Some(o.ascii_serialization()),
        url::Origin::Opaque(_) => None,
    }
}

/// Is the origin's host `localhost` or a loopback address?
fn is_loopback_origin(origin: &str) -> bool {
    let Ok(u) = url::Url::parse(origin) else {
        return false;
    };
    match u.host() {
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

async fn cmd<T, F: std::future::Future<Output = Result<T, chromiumoxide::error::CdpError>>>(
    input: &str,
    phase: &str,
    limit: Duration,
    f: F,
) -> Result<T, Error> {
    match tokio::time::timeout(limit, f).await {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(Error::Cdp {
            input: input.into(),
            phase: phase.into(),
            message: e.to_string(),
        }),
        Err(_) => Err(Error::Timeout {
            input: input.into(),
            phase: phase.into(),
            seconds: limit.as_secs_f64(),
        }),
    }
}

impl Tab {
    /// Prepare a new page: Fetch interception (decided per page), the DOM-change recorder,
    /// and the event task.
    pub async fn new(page: Page, opts: &RenderOptions) -> Result<Tab, Error> {
        Tab::sharing_front(page, opts, scroll::Front::default()).await
    }

    /// [`Tab::new`] for a tab that shares its window with other tabs of the same browser:
    /// `front` is that window's, shared by them all.
    pub async fn sharing_front(
        page: Page,
        opts: &RenderOptions,
        front: scroll::Front,
    ) -> Result<Tab, Error> {
        let t = opts.command_timeout;
        let state = Arc::new(Mutex::new(State::default()));
        let mut paused = cmd(
            "tab",
            "listening",
            t,
            page.event_listener::<EventRequestPaused>(),
        )
        .await?;
        let mut sent = cmd(
            "tab",
            "listening",
            t,
            page.event_listener::<EventRequestWillBeSent>(),
        )
        .await?;
        let mut done = cmd(
            "tab",
            "listening",
            t,
            page.event_listener::<EventLoadingFinished>(),
        )
        .await?;
        let mut failed = cmd(
            "tab",
            "listening",
            t,
            page.event_listener::<EventLoadingFailed>(),
        )
        .await?;
        let mut resp = cmd(
            "tab",
            "listening",
            t,
            page.event_listener::<EventResponseReceived>(),
        )
        .await?;
        let mut crashed = cmd(
            "tab",
            "listening",
            t,
            page.event_listener::<EventTargetCrashed>(),
        )
        .await?;
        let mut dialog = cmd(
            "tab",
            "listening",
            t,
            page.event_listener::<EventJavascriptDialogOpening>(),
        )
        .await?;
        if opts.offline {
            cmd(
                "tab",
                "installing the document guard",
                t,
                page.execute(AddScriptToEvaluateOnNewDocumentParams::new(PRESERVE_JS)),
            )
            .await?;
        }
        // Every pooled tab behaves as the focused, visible one: a background tab renders no
        // frames, so IntersectionObserver callbacks and animation frames never run in it
        // (Playwright does the same for each page).
        cmd(
            "tab",
            "emulating focus",
            t,
            page.execute(SetFocusEmulationEnabledParams::new(true)),
        )
        .await?;
        cmd(
            "tab",
            "installing the page recorder",
            t,
            page.execute(AddScriptToEvaluateOnNewDocumentParams::new(INSTRUMENT_JS)),
        )
        .await?;
        let pattern = RequestPattern {
            url_pattern: Some("*".into()),
            resource_type: None,
            request_stage: None,
        };
        cmd(
            "tab",
            "enabling request blocking",
            t,
            page.execute(FetchEnable {
                patterns: Some(vec![pattern]),
                handle_auth_requests: None,
            }),
        )
        .await?;
        let tree = cmd(
            "tab",
            "reading the frame tree",
            t,
            page.execute(GetFrameTreeParams::default()),
        )
        .await?;
        let main_frame = tree.result.frame_tree.frame.id.inner().to_string();
        let st = state.clone();
        let pg = page.clone();
        let events = tokio::spawn(async move {
            loop {
                tokio::select! {
                    Some(ev) = paused.next() => {
                        let (allow, blocked_main) = {
                            let mut s = st.lock().expect("tab state");
                            let url = ev.request.url.as_str();
                            let is_doc = ev.resource_type == ResourceType::Document;
                            // Subframe documents are Document requests too: only documents
                            // of the tab's main frame count.
                            let main_doc = is_doc && s.main_frame.as_deref() == Some(ev.frame_id.inner().as_str());
                            // The navigation's own document: the main frame's first request
                            // for the URL asked for. A document of the main frame for any
                            // other URL before it (an event of the previous page still in
                            // the queue) is not taken for this page's.
                            let network_id = ev.network_id.as_ref().map(|n| n.inner().to_string());
                            let first_doc = is_doc
                                && (s.main_request.is_none() || s.main_request == network_id)
                                && s.is_navigation_document(ev.frame_id.inner(), url, ev.redirected_request_id.is_some());
                            if first_doc {
                                s.main_request = network_id;
                            }
                            let allow = if !s.offline || read_from_memory(url) || first_doc {
                                true
                            } else if url.starts_with("file:") {
                                s.allow_file
                            } else {
                                let o = origin_of(url);
                                o.is_some() && o == s.allow_origin && is_loopback_origin(o.as_deref().unwrap_or(""))
                            };
                            // A second main-frame document is a navigation away from the page
                            // being measured (scripts of saved pages do this once their
                            // resources fail): block it in offline mode.
                            let blocked_nav = s.offline
                                && main_doc
                                && !first_doc
                                && s.main_request.is_some()
                                && ev.redirected_request_id.is_none();
                            let allow = allow && !blocked_nav;
                            if !allow { s.blocked += 1; }
                            if blocked_nav { s.blocked_navigations += 1; }
                            (allow, blocked_nav)
                        };
                        let id = ev.request_id.clone();
                        // A refused navigation of the main frame fails as aborted: Chromium
                        // then keeps the loaded document instead of replacing it with its
                        // "blocked" error page. (Frames keep BlockedByClient: an aborted
                        // frame navigation never ends for chromiumoxide, whose next
                        // navigation in the tab would wait for it.)
                        let refusal = if blocked_main {
                            ErrorReason::Aborted
                        } else {
                            ErrorReason::BlockedByClient
                        };
                        let (policy, exempt) = {
                            let s = st.lock().expect("tab state");
                            (s.policy.clone(), s.exempt_origin.clone())
                        };
                        let url = ev.request.url.clone();
                        let exempt = exempt.is_some() && origin_of(&url) == exempt;
                        match policy.filter(|_| !exempt) {
                            // `serve`: every request the page makes is checked first (a
                            // refused target is `forbidden` whatever else would block it;
                            // DNS may take a moment, so off the event loop).
                            Some(policy) => {
                                let pg = pg.clone();
                                let st = st.clone();
                                let main_doc = ev.resource_type == ResourceType::Document
                                    && st.lock().expect("tab state").main_frame.as_deref() == Some(ev.frame_id.inner().as_str());
                                tokio::spawn(async move {
                                    match policy.check(&url).await {
                                        Ok(()) if allow => {
                                            let _ = pg.execute(ContinueRequestParams::new(id)).await;
                                        }
                                        Ok(()) => {
                                            let _ = pg.execute(FailRequestParams::new(id, refusal)).await;
                                        }
                                        Err(why) => {
                                            {
                                                let mut s = st.lock().expect("tab state");
                                                if main_doc && s.fault.is_none() {
                                                    s.fault = Some(Fault::Forbidden(format!("{url}: {why}")));
                                                }
                                            }
                                            tracing::info!("refused {url}: {why}");
                                            let _ = pg.execute(FailRequestParams::new(id, ErrorReason::AccessDenied)).await;
                                        }
                                    }
                                });
                            }
                            None if allow => {
                                let _ = pg.execute(ContinueRequestParams::new(id)).await;
                            }
                            None => {
                                let _ = pg.execute(FailRequestParams::new(id, refusal)).await;
                            }
                        }
                    }
                    Some(ev) = sent.next() => {
                        let mut s = st.lock().expect("tab state");
                        let id = ev.request_id.inner().to_string();
                        // The same rule as for paused requests (documents that Fetch does
                        // not pause, file: URLs, are seen here only).
                        if s.main_request.is_none()
                            && ev.r#type == Some(ResourceType::Document)
                            && ev.frame_id.as_ref().is_some_and(|f| {
                                s.is_navigation_document(f.inner(), &ev.request.url, ev.redirect_response.is_some())
                            })
                        {
                            s.main_request = Some(id.clone());
                        }
                        // Chromium reports memory reads sent but never finished: not waited for.
                        if !read_from_memory(&ev.request.url) && !s.finished.remove(&id) { s.inflight.insert(id); }
                        s.last_net = Some(Instant::now());
                    }
                    Some(ev) = done.next() => {
                        let mut s = st.lock().expect("tab state");
                        let id = ev.request_id.inner().to_string();
                        // The main document is all here: read its body now, while the page
                        // loads its resources (see `Tab::start_body_read`).
                        if s.main_request.as_deref() == Some(id.as_str())
                            && s.main_checked
                            && s.fault.is_none()
                            && s.body.is_none()
                        {
                            s.body = Some(spawn_body_read(pg.clone(), id.clone(), s.body_limit));
                        }
                        if !s.inflight.remove(&id) { s.finished.insert(id); }
                        s.last_net = Some(Instant::now());
                    }
                    Some(ev) = failed.next() => {
                        let mut s = st.lock().expect("tab state");
                        let id = ev.request_id.inner().to_string();
                        // The main document failed to load (refused, reset, DNS): say so
                        // now instead of waiting for Chromium's error page to load.
                        if s.main_request.as_deref() == Some(id.as_str())
                            && s.fault.is_none()
                            && ev.error_text != "net::ERR_ABORTED"
                        {
                            s.fault = Some(Fault::Navigation(ev.error_text.clone()));
                        }
                        if !s.inflight.remove(&id) { s.finished.insert(id); }
                        s.last_net = Some(Instant::now());
                    }
                    Some(ev) = resp.next() => {
                        if ev.r#type == ResourceType::Document {
                            let mut s = st.lock().expect("tab state");
                            if s.main_request.as_deref() == Some(ev.request_id.inner().as_str()) && !s.main_checked {
                                s.main_checked = true;
                                s.status = Some(ev.response.status);
                                s.main_charset = response_charset(&ev.response);
                                let fault = main_response_fault(&ev.response, s.accept_http_errors);
                                if s.fault.is_none() { s.fault = fault; }
                            }
                        }
                    }
                    Some(_) = crashed.next() => {
                        st.lock().expect("tab state").crashed = true;
                    }
                    Some(ev) = dialog.next() => {
                        {
                            // A `beforeunload` dialog is about leaving a page: the previous
                            // page's, as the tab goes straight to the next one (see
                            // `Tab::park`), is answered but not counted for the next page.
                            let mut s = st.lock().expect("tab state");
                            if ev.r#type != DialogType::Beforeunload || same_document_url(&ev.url, &s.nav_url) {
                                s.dialogs += 1;
                            }
                        }
                        tracing::debug!("answering a {} dialog: {:?}", ev.r#type.as_ref(), ev.message);
                        let _ = pg.execute(dialogs::answer(&ev.r#type)).await;
                    }
                    else => break,
                }
            }
        });
        Ok(Tab {
            page,
            state,
            events,
            healthy: true,
            parked: true,
            on_blank: true,
            clean: false,
            doc_url: None,
            doc_origin: None,
            left_origin: None,
            main_frame,
            uses: 0,
            js_disabled: false,
            front,
        })
    }

    fn fault(&self) -> Option<Fault> {
        self.state.lock().expect("tab state").fault.clone()
    }

    fn crashed(&self) -> bool {
        self.state.lock().expect("tab state").crashed
    }

    /// Run `fut` until it finishes, `limit` passes, or the renderer crashes (a crashed
    /// renderer never answers: commands on it hang without an error, so the crash event is
    /// watched alongside every wait).
    async fn bounded<T>(
        &self,
        limit: Duration,
        fut: impl std::future::Future<Output = T>,
    ) -> Bounded<T> {
        let state = self.state.clone();
        let crash = async move {
            loop {
                if state.lock().expect("tab state").crashed {
                    return;
                }
                tokio::time::sleep(Duration::from_millis(25)).await;
            }
        };
        tokio::select! {
            r = tokio::time::timeout(limit, fut) => match r { Ok(v) => Bounded::Done(v), Err(_) => Bounded::TimedOut },
            _ = crash => Bounded::Crashed,
        }
    }

    /// Navigate to `url`, wait for the page to settle, snapshot it (and screenshot it).
    /// Phases: navigate (until `load` or the deadline) → settle (no request in flight and no
    /// DOM change for `quiet`) → snapshot → screenshot (after the snapshot: a full-page
    /// capture can reflow the page).
    pub async fn render(
        &mut self,
        input: &str,
        url: &str,
        opts: &RenderOptions,
    ) -> Result<Rendered, Error> {
        if self.parked
            && !self.on_blank
            && self
                .doc_url
                .as_deref()
                .is_none_or(|u| same_document_url(u, url))
        {
            // The same document again (a re-render, or a URL that differs only in its
            // fragment): a navigation would only scroll the page that is there. From
            // `about:blank`, it loads anew.
            self.parked = false;
            self.clean = false;
        }
        if !self.parked {
            // A tab used without the pool (which parks tabs when they come back to it).
            self.park(opts).await;
            if !self.healthy {
                return Err(Error::Navigation {
                    input: input.into(),
                    message: "the tab could not leave its previous page for about:blank".into(),
                });
            }
        }
        let start = Instant::now();
        let deadline = start + opts.timeout;
        self.uses += 1;
        self.parked = false;
        self.clean = false;
        self.left_origin = if self.on_blank { None } else { self.doc_origin };
        self.doc_origin = None;
        self.on_blank = false;
        self.doc_url = Some(url.to_string());
        {
            let mut s = self.state.lock().expect("tab state");
            s.abort_body_read();
            *s = State {
                nav_url: url.to_string(),
                main_frame: Some(self.main_frame.clone()),
                allow_origin: origin_of(url),
                allow_file: url.starts_with("file:"),
                offline: opts.offline,
                policy: opts.policy.clone(),
                exempt_origin: opts.exempt_origin.clone(),
                accept_http_errors: opts.accept_http_errors,
                body_limit: opts.command_timeout,
                ..State::default()
            };
        }
        let mut timings = Timings::default();

        // navigate
        let load_timed_out = self.navigate(input, url, opts).await?;
        timings.navigate = Some(ms(start.elapsed()));

        // settle (the rule: src/render/settle.rs)
        let settle_start = Instant::now();
        if !load_timed_out {
            let probe_js = settle::probe_js();
            let settle_end = deadline.min(settle_start + settle::SETTLE_MAX);
            loop {
                if self.crashed() {
                    self.healthy = false;
                    return Err(Error::Crashed {
                        input: input.into(),
                    });
                }
                let net = {
                    let s = self.state.lock().expect("tab state");
                    settle::Net {
                        inflight: s.inflight.len(),
                        since_event_after_load: s
                            .last_net
                            .filter(|t| *t > settle_start)
                            .map(|t| t.elapsed()),
                        since_event: s.last_net.map(|t| t.elapsed()),
                    }
                };
                let q = tokio::time::timeout(
                    opts.command_timeout,
                    self.page.execute(
                        EvaluateParams::builder()
                            .expression(probe_js.as_str())
                            .return_by_value(true)
                            .build()
                            .expect("valid params"),
                    ),
                )
                .await;
                let wait = match q {
                    Ok(Ok(r)) => {
                        let v = r.result.result.value.unwrap_or_default();
                        match serde_json::from_value::<settle::Probe>(v) {
                            Ok(p) if self.is_left_page(p.origin) => {
                                // The navigation ended but the previous page is still there.
                                self.healthy = false;
                                return Err(Error::Navigation {
                                    input: input.into(),
                                    message: "the tab still showed the previous page after the navigation ended".into(),
                                });
                            }
                            Ok(p) => {
                                self.doc_origin = p.origin;
                                match settle::decide(&p, net, opts.quiet) {
                                    settle::Verdict::Settled => break,
                                    settle::Verdict::Wait(d, why) => {
                                        tracing::trace!(
                                            "{input}: settling: {why} ({p:?}, {net:?})"
                                        );
                                        d
                                    }
                                }
                            }
                            Err(e) => {
                                tracing::debug!("{input}: settle probe: {e}");
                                settle::POLL
                            }
                        }
                    }
                    Ok(Err(e)) => {
                        tracing::debug!("{input}: settle probe failed: {e}");
                        settle::POLL
                    }
                    Err(_) => {
                        self.recover_hung(opts).await;
                        return Err(Error::Timeout {
                            input: input.into(),
                            phase: "waiting for the page to settle".into(),
                            seconds: start.elapsed().as_secs_f64(),
                        });
                    }
                };
                let now = Instant::now();
                if now + wait >= settle_end {
                    tracing::debug!("{input}: settle bound reached; capturing the page as it is");
                    break;
                }
                tokio::time::sleep(wait).await;
            }
        }
        if let Err(e) = self.finish_body_read(input).await {
            self.reset_after_error(opts).await;
            return Err(e);
        }
        timings.settle = Some(ms(settle_start.elapsed()));

        // scroll (src/render/scroll.rs)
        let scroll_start = Instant::now();
        let scroll_report = if load_timed_out {
            ScrollReport {
                stopped: "load-timed-out".into(),
                ..ScrollReport::default()
            }
        } else {
            let st = self.state.clone();
            let net = move || {
                let s = st.lock().expect("tab state");
                settle::Net {
                    inflight: s.inflight.len(),
                    since_event_after_load: s.last_net.map(|t| t.elapsed()),
                    since_event: s.last_net.map(|t| t.elapsed()),
                }
            };
            match scroll::scroll(
                &self.page,
                &self.front,
                input,
                &opts.scroll,
                opts.command_timeout,
                deadline,
                net,
            )
            .await
            {
                Ok(r) => r,
                Err(e) => {
                    if self.crashed() {
                        self.healthy = false;
                        return Err(Error::Crashed {
                            input: input.into(),
                        });
                    }
                    tracing::debug!("{input}: scrolling failed: {e}");
                    ScrollReport {
                        stopped: "error".into(),
                        ..ScrollReport::default()
                    }
                }
            }
        };
        if scroll_report.steps > 0 {
            timings.scroll = Some(ms(scroll_start.elapsed()));
        }

        // snapshot
        let snap_start = Instant::now();
        let left = deadline
            .saturating_duration_since(Instant::now())
            .max(opts.command_timeout);
        let eval = EvaluateParams::builder()
            .expression(SNAPSHOT_JS)
            .return_by_value(true)
            .build()
            .expect("valid params");
        let res = match self.bounded(left, self.page.execute(eval)).await {
            Bounded::Crashed => {
                self.healthy = false;
                return Err(Error::Crashed {
                    input: input.into(),
                });
            }
            Bounded::Done(Ok(r)) => r,
            Bounded::Done(Err(e)) => {
                if self.lost(&e.to_string()).await {
                    return Err(Error::Crashed {
                        input: input.into(),
                    });
                }
                self.reset_after_error(opts).await;
                return Err(Error::Script {
                    input: input.into(),
                    message: e.to_string(),
                });
            }
            Bounded::TimedOut => {
                self.recover_hung(opts).await;
                return Err(Error::Timeout {
                    input: input.into(),
                    phase: "taking the snapshot".into(),
                    seconds: start.elapsed().as_secs_f64(),
                });
            }
        };
        if let Some(ex) = &res.result.exception_details {
            let msg = ex
                .exception
                .as_ref()
                .and_then(|e| e.description.clone())
                .unwrap_or_else(|| ex.text.clone());
            return Err(Error::Script {
                input: input.into(),
                message: msg,
            });
        }
        let json = match res.result.result.value {
            Some(serde_json::Value::String(s)) => s,
            other => {
                return Err(Error::Script {
                    input: input.into(),
                    message: format!("the snapshot returned {other:?}, not a JSON string"),
                })
            }
        };
        let snapshot = Snapshot::from_json(&json, input)?;
        if snapshot.nodes.len() > opts.max_nodes {
            return Err(Error::TooLarge {
                input: input.into(),
                message: format!(
                    "{} DOM nodes, more than --max-nodes {}",
                    snapshot.nodes.len(),
                    opts.max_nodes
                ),
            });
        }
        timings.snapshot = Some(ms(snap_start.elapsed()));

        // screenshot
        let screenshot = if opts.screenshot {
            let shot_start = Instant::now();
            let h = snapshot
                .document
                .height
                .min(opts.max_screenshot_height as f64)
                .max(1.0);
            let w = snapshot.document.width.max(1.0);
            let params = CaptureScreenshotParams {
                format: Some(CaptureScreenshotFormat::Png),
                quality: None,
                clip: Some(Viewport {
                    x: 0.0,
                    y: 0.0,
                    width: w,
                    height: h,
                    scale: 1.0,
                }),
                from_surface: Some(true),
                capture_beyond_viewport: Some(true),
                optimize_for_speed: Some(true),
            };
            let r = cmd(
                input,
                "taking the screenshot",
                opts.command_timeout * 4,
                self.page.execute(params),
            )
            .await?;
            let bytes = {
                use base64::Engine;
                base64::engine::general_purpose::STANDARD
                    .decode(AsRef::<str>::as_ref(&r.result.data))
                    .map_err(|m| Error::Script {
                        input: input.into(),
                        message: format!("screenshot data: {m}"),
                    })?
            };
            timings.screenshot = Some(ms(shot_start.elapsed()));
            Some(bytes)
        } else {
            None
        };

        let snapshot_h = snapshot.document.height;
        // A later navigation may go straight from this page to the next one (see
        // [`Tab::park`]): the next page's settle can tell its document from this one.
        let s = self.state.lock().expect("tab state");
        // A page that tried to navigate away (refused) goes through `about:blank`.
        self.clean = self.healthy
            && !load_timed_out
            && self.doc_origin.is_some()
            && s.blocked_navigations == 0;
        let html_text_chars = s
            .html
            .as_ref()
            .map(|(b, cs)| checks::html_text_chars(&checks::decode(b, cs.as_deref())));
        Ok(Rendered {
            snapshot,
            snapshot_json: json,
            status: s.status,
            screenshot,
            timings,
            blocked_requests: s.blocked,
            blocked_navigations: s.blocked_navigations,
            load_timed_out,
            retries: 0,
            screenshot_truncated: opts.screenshot && snapshot_h > opts.max_screenshot_height as f64,
            repaired: None,
            dialogs: s.dialogs,
            html_text_chars,
            javascript: None,
            scroll: scroll_report,
        })
    }

    /// The navigate phase: switch script execution as `opts.javascript` asks, go to `url`
    /// and wait for `load`. Ends early with the main document's fault (HTTP error status,
    /// not HTML, connection refused or reset) as soon as the event task finds one. Returns
    /// whether the deadline passed before `load` (the page is then captured as it is).
    async fn navigate(
        &mut self,
        input: &str,
        url: &str,
        opts: &RenderOptions,
    ) -> Result<bool, Error> {
        if self.js_disabled == opts.javascript {
            let r = cmd(
                input,
                "switching JavaScript",
                opts.command_timeout,
                self.page
                    .execute(SetScriptExecutionDisabledParams::new(!opts.javascript)),
            )
            .await;
            if r.is_err() {
                self.healthy = false;
            }
            r?;
            self.js_disabled = !opts.javascript;
        }
        let state = self.state.clone();
        let fault = async move {
            loop {
                if let Some(f) = state.lock().expect("tab state").fault.clone() {
                    return f;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        };
        let state = self.state.clone();
        let refused = async move {
            loop {
                if state.lock().expect("tab state").blocked_navigations > 0 {
                    return;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        };
        let nav = {
            let goto = self.bounded(opts.timeout, self.page.goto(NavigateParams::new(url)));
            tokio::pin!(goto);
            tokio::select! {
                r = &mut goto => Ok(r),
                _ = refused => {
                    // A script navigated away before `load` and --offline refused it: the
                    // page is captured as it is if `load` does not follow at once.
                    match tokio::time::timeout(REFUSED_NAV_GRACE, &mut goto).await {
                        Ok(r) => Ok(r),
                        Err(_) => Err(None),
                    }
                }
                f = fault => {
                    // Page.navigate usually answers soon after. Dropped unanswered, it would
                    // leave chromiumoxide waiting on that navigation and the tab's next one
                    // behind it: such a tab is replaced instead of reused.
                    let ended = tokio::time::timeout(FAULT_SETTLE, &mut goto).await.is_ok();
                    Err(Some((f, ended)))
                }
            }
        };
        let nav = match nav {
            Ok(nav) => nav,
            Err(None) => {
                // The tab is replaced after this page: chromiumoxide still waits on the
                // refused navigation, and the tab's next one would wait behind it.
                tracing::debug!(
                    "{input}: a script navigated away before load (refused); capturing the page as it is"
                );
                self.healthy = false;
                if self.shows_left_page(opts).await {
                    return Err(Error::Navigation {
                        input: input.into(),
                        message: "a script navigated away before the page loaded (refused), and the tab still showed the previous page".into(),
                    });
                }
                self.start_body_read();
                self.finish_body_read(input).await?;
                return Ok(true);
            }
            Err(Some((f, ended))) => {
                if ended {
                    self.reset_after_error(opts).await;
                } else {
                    self.healthy = false;
                }
                return Err(f.error(input));
            }
        };
        match nav {
            Bounded::Crashed => {
                self.healthy = false;
                Err(Error::Crashed {
                    input: input.into(),
                })
            }
            Bounded::Done(Ok(_)) => match self.fault() {
                Some(f) => {
                    self.reset_after_error(opts).await;
                    Err(f.error(input))
                }
                None => {
                    // Read while the page settles; checked after the settle.
                    self.start_body_read();
                    if !opts.javascript {
                        // The snapshot skips <noscript> (with scripts on, it never shows);
                        // with scripts off its content is the page's: unwrap it.
                        cmd(
                            input,
                            "showing <noscript> content",
                            opts.command_timeout,
                            self.page.execute(EvaluateParams::new(NOSCRIPT_UNWRAP_JS)),
                        )
                        .await?;
                    }
                    Ok(false)
                }
            },
            Bounded::Done(Err(e)) => {
                let msg = e.to_string();
                if let Some(f) = self.fault() {
                    self.reset_after_error(opts).await;
                    return Err(f.error(input));
                }
                if self.lost(&msg).await {
                    return Err(Error::Crashed {
                        input: input.into(),
                    });
                }
                self.reset_after_error(opts).await;
                Err(Error::Navigation {
                    input: input.into(),
                    message: msg,
                })
            }
            Bounded::TimedOut => {
                // No load event before the deadline. A page stuck in a script cannot be
                // snapshot; a page waiting on a slow resource can be captured as it is.
                if self.crashed() {
                    self.healthy = false;
                    return Err(Error::Crashed {
                        input: input.into(),
                    });
                }
                let alive = tokio::time::timeout(
                    opts.command_timeout.min(Duration::from_secs(2)),
                    self.page.execute(EvaluateParams::new("location.href")),
                )
                .await;
                let href = match &alive {
                    Ok(Ok(r)) => r.result.result.value.clone(),
                    _ => None,
                };
                let timed_out = || Error::Timeout {
                    input: input.into(),
                    phase: "loading the page".into(),
                    seconds: opts.timeout.as_secs_f64(),
                };
                if !matches!(alive, Ok(Ok(_))) {
                    self.recover_hung(opts).await;
                    return Err(timed_out());
                }
                if (href.as_ref().and_then(|v| v.as_str()) == Some("about:blank")
                    && !same_document_url(url, "about:blank"))
                    || self.shows_left_page(opts).await
                {
                    // The page's document never arrived: the tab still shows the blank
                    // page it waited on, or the previous page. chromiumoxide still waits on the navigation, so
                    // the tab is replaced.
                    self.healthy = false;
                    return Err(timed_out());
                }
                // The page is captured as it is, but chromiumoxide still waits for its
                // `load` (up to 30 s) and would queue the tab's next navigation behind it:
                // that page's own deadline would pass with this page still in the tab. The
                // tab is replaced after this page.
                self.healthy = false;
                Ok(true)
            }
        }
    }

    /// After a successful navigation: start reading the main document's body
    /// (Network.getResponseBody) while the page settles; [`Tab::finish_body_read`] checks it.
    /// The read usually started already, when the document finished loading (the event task
    /// starts it at the main request's `Network.loadingFinished`, before `load`).
    fn start_body_read(&mut self) {
        let mut s = self.state.lock().expect("tab state");
        if s.body.is_some() {
            return;
        }
        let Some(id) = s.main_request.clone() else {
            return;
        };
        s.body = Some(spawn_body_read(self.page.clone(), id, s.body_limit));
    }

    /// The main document's body read by [`Tab::start_body_read`]: sniff binary bodies served
    /// as HTML ([`checks::sniff_binary`], a content-type error) and keep the HTML's text size
    /// for the JavaScript-disabled fallback.
    async fn finish_body_read(&mut self, input: &str) -> Result<(), Error> {
        let Some(h) = self.state.lock().expect("tab state").body.take() else {
            return Ok(());
        };
        let Ok(Some((bytes, base64_encoded))) = h.await else {
            return Ok(());
        };
        if let Some(problem) = checks::sniff_binary(&bytes) {
            return Err(Fault::ContentType(problem).error(input));
        }
        let mut s = self.state.lock().expect("tab state");
        let charset = if base64_encoded {
            s.main_charset.clone()
        } else {
            Some("utf-8".into())
        };
        s.html = Some((bytes, charset));
        Ok(())
    }

    /// Did this call fail because the tab's renderer is gone? chromiumoxide drops a pending
    /// call ("oneshot canceled", "receiver is gone") when its target goes away, which can be
    /// a moment before `Inspector.targetCrashed` arrives (file:// pages share a renderer
    /// process, so one page's crash takes its neighbours' tabs with it).
    async fn lost(&mut self, message: &str) -> bool {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let lost = self.crashed()
            || message.contains("oneshot canceled")
            || message.contains("receiver is gone");
        if lost {
            self.healthy = false;
        }
        lost
    }

    /// After a failed navigation: leave the page at once (see [`Tab::park`]).
    async fn reset_after_error(&mut self, opts: &RenderOptions) {
        self.park(opts).await;
    }

    /// Leave the page for `about:blank` with script execution disabled, so that nothing of
    /// it can run (timers, unload handlers, a navigation it starts) or be captured as the
    /// next page's. Scripts stay disabled until the next page's navigation switches them on
    /// as its options ask. A tab that does not get there (a command that does not answer, a
    /// navigation chromiumoxide still waits on, a document other than `about:blank`) is
    /// marked unhealthy: the pool closes and replaces it instead of reusing it.
    ///
    /// After a clean render (a snapshot of the page's own document, whose
    /// `performance.timeOrigin` the settle read) the tab stays on that page with script
    /// execution disabled, and the next navigation goes straight there: about 50 ms a page less
    /// than a detour through `about:blank`. The next page's settle then refuses a document
    /// with the previous page's time origin (a navigation that ended without replacing it),
    /// and a URL that differs from the previous one only in its fragment goes through
    /// `about:blank` (a navigation would only scroll the page that is there).
    pub async fn park(&mut self, opts: &RenderOptions) {
        if !self.healthy || self.parked {
            return;
        }
        let t = opts.command_timeout;
        let off = tokio::time::timeout(
            t,
            self.page
                .execute(SetScriptExecutionDisabledParams::new(true)),
        )
        .await;
        if !matches!(off, Ok(Ok(_))) {
            self.healthy = false;
            return;
        }
        self.js_disabled = true;
        if self.clean {
            self.parked = true;
            return;
        }
        let blank = self
            .bounded(t, self.page.goto(NavigateParams::new("about:blank")))
            .await;
        if !matches!(blank, Bounded::Done(Ok(_))) {
            self.healthy = false;
            return;
        }
        // The main frame's URL as Chromium last reported it committed (chromiumoxide's frame
        // tree, kept from `Page.frameNavigated`; no round trip to the page, which cost ~10 ms).
        let url = match self.bounded(t, self.page.url()).await {
            Bounded::Done(Ok(u)) => u,
            _ => None,
        };
        if url.as_deref() == Some("about:blank") {
            self.parked = true;
            self.on_blank = true;
            self.doc_origin = None;
        } else {
            tracing::debug!("the tab did not reach about:blank ({url:?}); replacing it");
            self.healthy = false;
        }
    }

    /// Is a document with this `performance.timeOrigin` the previous page's, left in the tab
    /// when this page's navigation began? The one test of the settle probe and of
    /// [`Tab::shows_left_page`]. Never when the tab came from `about:blank`.
    fn is_left_page(&self, origin: Option<f64>) -> bool {
        self.left_origin.is_some() && origin == self.left_origin
    }

    /// Does the tab still show the previous page's document (its `performance.timeOrigin`,
    /// [`Tab::is_left_page`])? False when the tab came from `about:blank`; true when the page
    /// does not answer.
    async fn shows_left_page(&self, opts: &RenderOptions) -> bool {
        if self.left_origin.is_none() {
            return false;
        }
        let r = tokio::time::timeout(
            opts.command_timeout.min(Duration::from_secs(2)),
            self.page
                .execute(EvaluateParams::new("performance.timeOrigin")),
        )
        .await;
        match r {
            Ok(Ok(r)) => self.is_left_page(r.result.result.value.and_then(|v| v.as_f64())),
            _ => true,
        }
    }

    /// May the pool give this tab its next page? Only a healthy tab that reached
    /// `about:blank` after its last page ([`Tab::park`]) and has rendered fewer than
    /// `recycle_after` pages (0: no bound).
    pub fn reusable(&self, recycle_after: usize) -> bool {
        may_reuse(self.healthy, self.parked, self.uses, recycle_after)
    }

    /// Has this tab rendered its `recycle_after` pages (0: no bound)?
    pub fn worn(&self, recycle_after: usize) -> bool {
        worn(self.uses, recycle_after)
    }

    /// A tab stuck in a script: terminate the script, then leave the page. If that does not
    /// answer, the tab is marked unhealthy and will be closed and replaced.
    async fn recover_hung(&mut self, opts: &RenderOptions) {
        let t = tokio::time::timeout(
            Duration::from_secs(2),
            self.page.execute(TerminateExecutionParams::default()),
        )
        .await;
        if !matches!(t, Ok(Ok(_))) {
            self.healthy = false;
            return;
        }
        self.reset_after_error(opts).await;
    }
}

/// The reuse decision of [`Tab::reusable`].
fn may_reuse(healthy: bool, parked: bool, uses: usize, recycle_after: usize) -> bool {
    healthy && parked && !worn(uses, recycle_after)
}

/// The page bound of tab recycling: `recycle_after` pages rendered (0: no bound).
fn worn(uses: usize, recycle_after: usize) -> bool {
    recycle_after > 0 && uses >= recycle_after
}

/// `data:` and `blob:` URLs are read from memory: always allowed offline, and never waited
/// for (Chromium reports them sent but never finished).
fn read_from_memory(url: &str) -> bool {
    url.starts_with("data:") || url.starts_with("blob:")
}

/// Is `seen` (a document request's URL, as Chromium sends it) the URL a navigation asked
/// for? Both are compared as parsed URLs without their fragment (Chromium sends neither the
/// fragment nor a non-canonical form: `HTTP://Host` arrives as `http://host/`); strings that
/// do not parse are compared as they are.
fn same_document_url(seen: &str, asked: &str) -> bool {
    fn key(u: &str) -> String {
        match url::Url::parse(u) {
            Ok(mut p) => {
                p.set_fragment(None);
                p.into()
            }
            Err(_) => u.split('#').next().unwrap_or(u).to_string(),
        }
    }
    seen == asked || key(seen) == key(asked)
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
    let problem = checks::header_problem(headers.iter().map(|(n, v)| (n.as_str(), v.as_str())));
    problem.map(Fault::ContentType)
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

fn ms(d: Duration) -> f64 {
    (d.as_secs_f64() * 1e6).round() / 1e3
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_and_loopback() {
        assert_eq!(
            origin_of("http://127.0.0.1:8080/a/b?x").as_deref(),
            Some("http://127.0.0.1:8080")
        );
        // Default ports and case are normalised; opaque origins have none.
        assert_eq!(
            origin_of("HTTP://Example.COM:80/x").as_deref(),
            Some("http://example.com")
        );
        assert_eq!(origin_of("data:text/html,x"), None);
        assert!(!is_loopback_origin("http://user@127.0.0.1.evil.com"));
        assert!(is_loopback_origin("http://127.0.0.1:8080"));
        assert!(is_loopback_origin("http://localhost"));
        assert!(is_loopback_origin("http://[::1]:3000"));
        assert!(!is_loopback_origin("https://example.com"));
        assert!(!is_loopback_origin("http://127.0.0.1.evil.com"));
    }

    #[test]
    fn a_tab_is_reused_only_when_healthy_and_parked_on_a_blank_page() {
        // Parked on about:blank after a page, within its page bound: reused.
        assert!(may_reuse(true, true, 3, 100));
        assert!(may_reuse(true, true, 3, 0), "0: no page bound");
        // Its navigation was refused or never ended, or it hung: replaced.
        assert!(!may_reuse(false, true, 3, 100));
        // It could not reach about:blank (the previous page may still be there): replaced.
        assert!(!may_reuse(true, false, 3, 100));
        // Worn out: replaced.
        assert!(!may_reuse(true, true, 100, 100));
    }

    #[test]
    fn the_main_document_is_the_request_for_the_url_asked_for() {
        let asked = "http://127.0.0.1:8080/page-3.html";
        assert!(same_document_url(asked, asked));
        // Chromium sends the canonical form and no fragment.
        assert!(same_document_url(
            "http://127.0.0.1:8080/page-3.html",
            "HTTP://127.0.0.1:8080/page-3.html#top"
        ));
        assert!(same_document_url(
            "https://example.com/",
            "https://Example.com"
        ));
        // The previous page, one of its frames, or a page it navigates to is not this page's.
        assert!(!same_document_url(
            "http://127.0.0.1:8080/page-2.html",
            asked
        ));
        assert!(!same_document_url(
            "http://127.0.0.1:8080/page-3.html?frame=1",
            asked
        ));
        assert!(!same_document_url("about:blank", asked));
    }
}
