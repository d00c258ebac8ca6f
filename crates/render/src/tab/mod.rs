//! One browser tab, reused page after page: request blocking (`--offline`), network and DOM
//! quiet tracking, navigation with a deadline, the snapshot and the screenshot.
//!
//! - `config`: what the tab reads of a page's render ([`TabConfig`], narrower than
//!   [`RenderOptions`]).
//! - `events`: the tab's event task (CDP events in, [`State`] updated).
//! - `request_policy`: the pure request policy (`request_policy::decide`: request facts in,
//!   decision out).
//! - `phases`: one page's render, phase by phase (navigate, settle, scroll, snapshot,
//!   screenshot).
//! - `navigate`: the navigate phase (to `load`, the main document's fault, or the page
//!   captured as it is) and the main document's body read while the page settles.
//! - `steering`: the steering phase (wait conditions and actions, `render/steer/`) and what
//!   it needs of the tab: settling after an action, following the navigation it caused.
//! - `capture`: `--warc` (every exchange of the page, from the Network events) and
//!   `--replay` (every request answered from an archive).
//! - `lane`: the render lane in the tab: `auto`'s decision at the main document's response,
//!   what the static lane does not fetch, the document handed to a render that follows.
//! - `consent`: the page's consent dialog answered (autoconsent) before the snapshot kept.
//! - `pdf`: a PDF main document read and laid out as a page of its own text (PDF.js).
//! - `screenshot`: the screenshot phase (the page down to its height limit, as PNG).
//! - `lifecycle`: between pages: parking the tab, recovering from a hang, whether the pool may
//!   reuse it.
//!
//! A fault of the main document (HTTP error status, not HTML, connection refused or reset)
//! ends the navigation at once with its error.

mod capture;
mod config;
mod consent;
mod events;
mod lane;
mod lifecycle;
mod navigate;
mod pdf;
mod phases;
mod request_policy;
mod screenshot;
mod steering;

pub(crate) use config::TabConfig;
pub use consent::{ConsentEnd, ConsentReport};
pub use pdf::Document;

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use chromiumoxide::cdp::browser_protocol::emulation::SetFocusEmulationEnabledParams;
use chromiumoxide::cdp::browser_protocol::fetch::{EnableParams as FetchEnable, RequestPattern};
use chromiumoxide::cdp::browser_protocol::network::GetResponseBodyParams;
use chromiumoxide::cdp::browser_protocol::page::{
    AddScriptToEvaluateOnNewDocumentParams, GetFrameTreeParams,
};
use chromiumoxide::Page;
use parking_lot::Mutex;

use crate::cdp;
use crate::lane::FetchedDocument;
use crate::options::RenderOptions;
use crate::scroll::{self, ScrollReport};
use crate::settle::INSTRUMENT_JS;
use crate::timings::Timings;
use crate::Error;
use request_policy::same_document_url;
use sightline_core::snapshot::Snapshot;

/// The snapshot script, compiled into the binary.
pub(crate) const SNAPSHOT_JS: &str = include_str!("../../../../js/snapshot.js");

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

/// What the event task knows about the current page: the page's rules (what was asked, set
/// when its navigation begins) and what has been seen of it since (the events' effects).
/// Replaced whole at each page ([`State::for_page`]).
#[derive(Debug, Default)]
struct State {
    /// What the page's render asked for: read by the event task, never changed by it.
    rules: Rules,
    /// What happened to the page so far: written by the event task and the phases.
    seen: Seen,
}

/// The page's rules: what its render asked for, fixed for the page (the one exception: the
/// page laid out from a PDF is a navigation of its own, to its own `nav_url`, see
/// `State::reopen_for_pdf` in `tab/pdf.rs`).
#[derive(Debug, Default)]
struct Rules {
    /// The page's own origin: its requests are always allowed (`--offline`).
    allow_origin: Option<String>,
    /// The page is a file: every file: request is allowed (`--offline`).
    allow_file: bool,
    /// Requests other than the page's own are refused (`--offline`).
    offline: bool,
    /// The URL this page's navigation asked for: the main document is the main frame's
    /// request for it (see [`same_document_url`]), never whatever document is there.
    nav_url: String,
    /// The tab's main frame (its id is the target's; set once the tab is created).
    main_frame: Option<String>,
    /// What the page's plan blocks (`--block`, `--block-list`); None: nothing, and no check.
    blocking: Option<crate::steer::block::Blocking>,
    /// Target policy of `serve` (None: every target allowed).
    policy: Option<sightline_egress::guard::NetPolicy>,
    /// An origin exempt from the target policy: the renderer's own loopback server.
    exempt_origin: Option<String>,
    /// The egress proxy's log, when the browser's connections go through it: a main document
    /// it refused is `forbidden`, with its reason.
    egress: Option<Arc<sightline_egress::Log>>,
    /// Extract main documents with an HTTP error status (`--accept-http-errors`).
    accept_http_errors: bool,
    /// How long reading the body may take (`RenderOptions::command_timeout`).
    body_limit: Duration,
    /// The page's extra request headers (`--header`), sent to `site` only.
    headers: Vec<crate::steer::Header>,
    /// The target's own site ([`steer::request::site_of`](crate::steer::request::site_of)).
    site: Option<String>,
    /// The browser connects through the user's proxy (`--proxy`): a name the target policy
    /// cannot resolve here is the proxy's to resolve, and the egress proxy's to decide.
    proxied: bool,
    /// The archive every request is answered from (`RenderOptions::replay`).
    replay: Option<Arc<sightline_core::archive::Archive>>,
    /// The render lane asked for (`RenderOptions::render`).
    render: crate::lane::RenderMode,
    /// A screenshot is taken: the static lane fetches images.
    screenshot: bool,
    /// The main document as an earlier render fetched it: its request is answered with it
    /// (`RenderOptions::fetched`).
    fetched: Option<Arc<FetchedDocument>>,
}

impl Rules {
    /// The rules of the page at `url`, rendered in the tab whose main frame is `main_frame`
    /// and whose connections go through the egress proxy logging to `egress`.
    fn for_page(
        url: &str,
        main_frame: &str,
        opts: &TabConfig,
        egress: Option<Arc<sightline_egress::Log>>,
    ) -> Rules {
        Rules {
            nav_url: url.to_string(),
            main_frame: Some(main_frame.to_string()),
            allow_origin: request_policy::origin_of(url),
            allow_file: url.starts_with("file:"),
            offline: opts.offline,
            blocking: crate::steer::block::Blocking::of(&opts.steer),
            policy: opts.policy.clone(),
            exempt_origin: opts.exempt_origin.clone(),
            egress,
            accept_http_errors: opts.accept_http_errors,
            body_limit: opts.command_timeout,
            headers: opts.steer.headers.clone(),
            site: if opts.steer.headers.is_empty() {
                None
            } else {
                crate::steer::request::site_of_url(url)
            },
            proxied: opts.proxied,
            replay: opts.replay.clone(),
            render: opts.render,
            screenshot: opts.screenshot,
            fetched: opts.fetched.clone(),
        }
    }
}

/// What has happened to the page so far: its requests, its main document, its faults.
#[derive(Debug, Default)]
struct Seen {
    /// Requests refused by `--offline`.
    blocked: usize,
    /// Cross-document navigations of the main frame refused after the first (`--offline`).
    blocked_navigations: usize,
    /// Requests the page's plan skipped.
    skipped: crate::steer::SkippedRequests,
    /// Requests sent and not yet finished or failed.
    inflight: HashSet<String>,
    /// Requests finished or failed (a late `requestWillBeSent` of one is not in flight).
    finished: HashSet<String>,
    /// When the last network event came.
    last_net: Option<Instant>,
    /// The main document's HTTP status.
    status: Option<i64>,
    /// The renderer crashed.
    crashed: bool,
    /// The URL the main document is requested from now (the last redirect's).
    main_url: Option<String>,
    /// The main document's headers that walls are recognised by
    /// ([`sightline_core::walls::RESPONSE_HEADERS`]).
    response_headers: Vec<(String, String)>,
    /// The names of the cookies the main document's response sets (`name=` a line), from
    /// `Network.responseReceivedExtraInfo`.
    main_set_cookie: Option<String>,
    /// An HTTP error status walls answer with ([`checks::WALL_STATUSES`]), not a fault yet:
    /// the page is rendered, and it is an `http` error only if no wall is recognised.
    http_error: Option<i64>,
    /// Network request id of the page's main document.
    main_request: Option<String>,
    /// The main document's final (non-redirect) response was checked.
    main_checked: bool,
    /// The page PDF.js lays a PDF main document out in (`tab/pdf.rs`), base64: the main
    /// document's request is answered with it.
    pdf_view: Option<Arc<String>>,
    /// The main document is requested again to read its body, a PDF (`tab/pdf.rs`): its
    /// response is paused, and answered with the page laid out from it.
    pdf_fetch: bool,
    /// Why that body could not be laid out (`not-pdf`, `too-large`).
    pdf_failed: Option<String>,
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
    /// The main document's `Network.loadingFinished` came: its body is all here.
    main_finished: bool,
    /// Main-frame documents requested after the main document (not its redirects): the
    /// navigations the page itself started (a form submitted by an action). They are not
    /// the main document: its faults and status stay the first document's.
    page_navigations: usize,
    /// The request id of the last of them.
    page_navigation: Option<String>,
    /// The page's exchanges being captured (`RenderOptions::capture`).
    capture: Option<capture::Capture>,
    /// The page's lane: `static` when asked, or as `auto` chose it at the main document's
    /// response (`tab/lane.rs`); None for a full render that was not chosen.
    lane: Option<crate::lane::LaneReport>,
    /// The main document as `auto` read it at its response, for a render that follows.
    fetched: Option<Arc<FetchedDocument>>,
    /// `auto` switched the tab's scripts off for this page (the tab's next page switches them
    /// back on).
    scripts_off_by_lane: bool,
}

impl State {
    /// An http(s) page whose main document has not arrived whole: the server never
    /// answered, or has not finished the body. (Other schemes are read at once.)
    fn main_document_incomplete(&self) -> bool {
        let url = &self.rules.nav_url;
        (url.starts_with("http:") || url.starts_with("https:")) && !self.seen.main_finished
    }

    /// Stop a body read of the previous page still running.
    fn abort_body_read(&mut self) {
        if let Some(h) = self.seen.body.take() {
            h.abort();
        }
    }

    /// A document request of the main frame for the URL this page's navigation asked for,
    /// not a redirect's follow-up: the rule that finds the main document, for requests
    /// Fetch pauses and for those it does not (file: URLs).
    fn is_navigation_document(&self, frame: &str, url: &str, redirected: bool) -> bool {
        self.rules.main_frame.as_deref() == Some(frame)
            && !redirected
            && same_document_url(url, &self.rules.nav_url)
    }
}

/// A main document that cannot be extracted, found by the event task.
#[derive(Debug, Clone)]
enum Fault {
    /// HTTP status >= 400.
    Http(i64),
    /// Not HTML (from the headers or the first bytes).
    ContentType(String),
    /// A PDF (`tab/pdf.rs`), by its Content-Type (None), or maybe one under a generic binary
    /// type or as a download (the content-type problem it is if its bytes are not a PDF's).
    Pdf(Option<String>),
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
            Fault::Pdf(problem) => Error::ContentType {
                input: input.into(),
                message: problem
                    .clone()
                    .unwrap_or_else(|| "Content-Type application/pdf".into()),
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

/// The phases of one page's render, in order (see `phases`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Navigate,
    Settle,
    Steer,
    Scroll,
    Snapshot,
    Screenshot,
}

impl Phase {
    /// What the page was doing, for a timeout's message.
    fn doing(self) -> &'static str {
        match self {
            Phase::Navigate => "loading the page",
            Phase::Settle => "waiting for the page to settle",
            Phase::Steer => "steering the page (its waits and actions)",
            Phase::Scroll => "scrolling the page",
            Phase::Snapshot => "taking the snapshot",
            Phase::Screenshot => "taking the screenshot",
        }
    }

    /// This phase's entry in [`Timings`].
    fn slot(self, t: &mut Timings) -> &mut Option<f64> {
        match self {
            Phase::Navigate => &mut t.navigate,
            Phase::Settle => &mut t.settle,
            Phase::Steer => &mut t.steer,
            Phase::Scroll => &mut t.scroll,
            Phase::Snapshot => &mut t.snapshot,
            Phase::Screenshot => &mut t.screenshot,
        }
    }
}

/// Where one page's render is: the phase running, since when, and the time of each phase
/// done. Kept in the tab, so that a render cut off by its deadline still tells where the time
/// went ([`Tab::timings`]).
#[derive(Debug, Clone)]
struct Progress {
    phase: Phase,
    since: Instant,
    /// The running phase is not recorded (a scroll phase that did not scroll).
    skipped: bool,
    ended: bool,
    timings: Timings,
}

impl Progress {
    /// A render whose navigation started at `start`.
    fn new(start: Instant) -> Progress {
        Progress {
            phase: Phase::Navigate,
            since: start,
            skipped: false,
            ended: false,
            timings: Timings::default(),
        }
    }

    /// Record the running phase and start `next`.
    fn enter(&mut self, next: Phase) {
        self.close();
        self.phase = next;
        self.since = Instant::now();
        self.skipped = false;
    }

    /// Do not record the running phase.
    fn skip(&mut self) {
        self.skipped = true;
    }

    /// Record the running phase: the render is over.
    fn end(&mut self) {
        self.close();
        self.ended = true;
    }

    fn close(&mut self) {
        if !self.skipped && !self.ended {
            *self.phase.slot(&mut self.timings) = Some(ms(self.since.elapsed()));
        }
        self.skipped = true;
    }

    /// The timings so far, the running phase's up to now.
    fn so_far(&self) -> Timings {
        let mut t = self.timings.clone();
        if !self.skipped && !self.ended {
            *self.phase.slot(&mut t) = Some(ms(self.since.elapsed()));
        }
        t
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
    /// Requests the page's steering plan skipped (`--block`, `--block-list`), by reason.
    pub skipped_requests: crate::steer::SkippedRequests,
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
    /// What each of the page's actions did (None: the page had no actions).
    pub actions: Option<Vec<crate::steer::ActionOutcome>>,
    /// The main document's headers that walls are recognised by
    /// ([`sightline_core::walls::RESPONSE_HEADERS`], lower-case names).
    pub headers: Vec<(String, String)>,
    /// The main document's HTTP error status when it is one walls answer with
    /// ([`checks::WALL_STATUSES`]) and HTTP errors are not accepted: the page was rendered
    /// to look for a wall, and is an `http` error if none is found.
    pub http_error: Option<i64>,
    /// The wall recognised in front of the page's content, when it leaves some of it (a
    /// paywall, a login or consent dialog over a lead) or walls are accepted.
    pub wall: Option<sightline_core::walls::Wall>,
    /// The error message a script put in place of the page's article, when the render
    /// shows it and no render with JavaScript disabled did better.
    pub soft_error: Option<String>,
    /// What was done with the page's consent dialog, when its snapshot showed one.
    pub consent: Option<ConsentReport>,
    /// Every HTTP exchange of the page, when it was captured (`RenderOptions::capture`).
    pub exchanges: Option<Vec<sightline_core::archive::Exchange>>,
    /// The document the page was laid out from, when its main document was a PDF.
    pub document: Option<Document>,
    /// The lane of this render and why (`RenderOptions::render` `auto` or `static`; None for
    /// `full`).
    pub render: Option<crate::lane::LaneReport>,
    /// The main document as this render fetched it (`auto`), for a render that follows.
    pub(crate) fetched: Option<Arc<FetchedDocument>>,
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
            skipped_requests: Default::default(),
            load_timed_out: false,
            retries: 0,
            screenshot_truncated: false,
            repaired: None,
            dialogs: 0,
            html_text_chars: None,
            javascript: None,
            scroll: ScrollReport::default(),
            actions: None,
            headers: Vec::new(),
            http_error: None,
            wall: None,
            soft_error: None,
            consent: None,
            exchanges: None,
            document: None,
            render: None,
            fetched: None,
        }
    }
}

/// The main document's body being read: its bytes and whether CDP sent them base64-encoded
/// (binary); None when it could not be read.
type BodyRead = tokio::task::JoinHandle<Option<(Vec<u8>, bool)>>;

/// Read a response's body (Network.getResponseBody) in a task of its own.
fn spawn_body_read(page: Page, id: String, limit: Duration) -> BodyRead {
    tokio::spawn(async move {
        let r = cdp::within(limit, page.execute(GetResponseBodyParams::new(id))).await;
        let Ok(r) = r else { return None };
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
    /// Where the current (or last) page's render is.
    progress: Progress,
    /// The browser's cache is off in this tab (for capture and replay).
    cache_off: bool,
    /// The log of the egress proxy the browser's connections go through (set by the
    /// renderer that owns the proxy).
    pub(crate) egress: Option<Arc<sightline_egress::Log>>,
}

impl Drop for Tab {
    fn drop(&mut self) {
        self.events.abort();
        self.state.lock().abort_body_read();
    }
}

impl Tab {
    /// Prepare a new page: Fetch interception (decided per page), the DOM-change recorder,
    /// and the event task.
    pub async fn new(page: Page, opts: &RenderOptions) -> Result<Tab, Error> {
        Tab::sharing_front(page, &TabConfig::of(opts), scroll::Front::default()).await
    }

    /// [`Tab::new`] for a tab that shares its window with other tabs of the same browser:
    /// `front` is that window's, shared by them all.
    pub(crate) async fn sharing_front(
        page: Page,
        opts: &TabConfig,
        front: scroll::Front,
    ) -> Result<Tab, Error> {
        let t = opts.command_timeout;
        let state = Arc::new(Mutex::new(State::default()));
        let listeners = events::Listeners::open(&page, t).await?;
        if opts.offline {
            cdp::execute(
                &page,
                "tab",
                "installing the document guard",
                t,
                AddScriptToEvaluateOnNewDocumentParams::new(PRESERVE_JS),
            )
            .await?;
        }
        // Every pooled tab behaves as the focused, visible one: a background tab renders no
        // frames, so IntersectionObserver callbacks and animation frames never run in it
        // (Playwright does the same for each page).
        cdp::execute(
            &page,
            "tab",
            "emulating focus",
            t,
            SetFocusEmulationEnabledParams::new(true),
        )
        .await?;
        cdp::execute(
            &page,
            "tab",
            "installing the page recorder",
            t,
            AddScriptToEvaluateOnNewDocumentParams::new(INSTRUMENT_JS),
        )
        .await?;
        let pattern = RequestPattern {
            url_pattern: Some("*".into()),
            resource_type: None,
            request_stage: None,
        };
        cdp::execute(
            &page,
            "tab",
            "enabling request blocking",
            t,
            FetchEnable {
                patterns: Some(vec![pattern]),
                handle_auth_requests: None,
            },
        )
        .await?;
        let tree = cdp::execute(
            &page,
            "tab",
            "reading the frame tree",
            t,
            GetFrameTreeParams::default(),
        )
        .await?;
        let main_frame = tree.result.frame_tree.frame.id.inner().to_string();
        let events = events::spawn(listeners, page.clone(), state.clone());
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
            progress: Progress::new(Instant::now()),
            cache_off: false,
            egress: None,
        })
    }

    /// The phase timings of the last render, up to now if it is still running or was cut off
    /// by its deadline (what a `timeout` record's `timings_ms` shows).
    pub fn timings(&self) -> Timings {
        self.progress.so_far()
    }

    fn fault(&self) -> Option<Fault> {
        self.state.lock().seen.fault.clone()
    }

    fn crashed(&self) -> bool {
        self.state.lock().seen.crashed
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
                if state.lock().seen.crashed {
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
}

/// Milliseconds, rounded to the microsecond (the unit of [`Timings`]).
fn ms(d: Duration) -> f64 {
    (d.as_secs_f64() * 1e6).round() / 1e3
}
