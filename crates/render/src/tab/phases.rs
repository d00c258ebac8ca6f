//! One page's render, phase by phase: navigate (until `load` or the deadline) → settle (no
//! request in flight and no DOM change for `quiet`) → consent (a dialog the settle saw is
//! answered, then the page settles again) → steer → scroll → snapshot (a dialog only the
//! snapshot shows is answered, and the page snapshotted again) → screenshot (after the
//! snapshot: a full-page capture can reflow the page). Each phase is a method of [`Tab`]
//! called in that order by [`Tab::render`], and each is bounded by the page's deadline or by
//! a named command timeout.

use std::time::{Duration, Instant};

use chromiumoxide::cdp::browser_protocol::emulation::SetScriptExecutionDisabledParams;
use chromiumoxide::cdp::browser_protocol::page::NavigateParams;
use chromiumoxide::cdp::js_protocol::runtime::EvaluateParams;

use super::{
    same_document_url, spawn_body_read, Bounded, Fault, Phase, Progress, Rendered, Rules, Seen,
    State, Tab, SNAPSHOT_JS,
};
use crate::cdp;
use crate::scroll::{self, ScrollReport};
use crate::settle;
use crate::snapshot::Snapshot;
use crate::steer::{vlist, Consent};
use crate::Error;
use crate::{checks, RenderOptions};

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

/// How long past the page's deadline its capture may run (the snapshot, and the screenshot,
/// of a page captured as it is when `load` did not come in time); beyond it the page is a
/// `timeout`.
pub(crate) const DEADLINE_GRACE: Duration = Duration::from_secs(1);

/// How long a page whose `load` did not come by the deadline may take to answer whether it
/// is alive (a page that answers is captured as it is; one that does not is a `timeout`).
const ALIVE_CHECK: Duration = Duration::from_millis(500);

/// After the main document's fault, how long navigation may take to report its end.
const FAULT_SETTLE: Duration = Duration::from_secs(1);

/// After `--offline` refused a navigation away that a script started before `load`, how long
/// the page's own `load` is still waited for. Chromium stops loading a document (its parser
/// included) when a script starts a navigation away, and the refused navigation never ends
/// for chromiumoxide, so `load` would otherwise be waited for until the deadline.
const REFUSED_NAV_GRACE: Duration = Duration::from_millis(500);

impl Tab {
    /// Navigate to `url`, wait for the page to settle, snapshot it (and screenshot it): the
    /// phases of this module, in order.
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
        // The page's deadline, held whatever the server or the page does: the phases below
        // bound each wait by it, and this bound (plus DEADLINE_GRACE for the capture of a
        // page whose `load` never came) cuts whatever still runs. A tab cut off mid-phase is
        // replaced, never reused.
        let limit = opts.timeout + DEADLINE_GRACE;
        let phases = self.phases(input, url, opts);
        match tokio::time::timeout(limit, phases).await {
            Ok(r) => r,
            Err(_) => {
                self.healthy = false;
                tracing::debug!(
                    "{input}: the deadline passed while {}; replacing the tab",
                    self.progress.phase.doing()
                );
                Err(Error::Timeout {
                    input: input.into(),
                    phase: self.progress.phase.doing().into(),
                    seconds: opts.timeout.as_secs_f64(),
                })
            }
        }
    }

    /// The phases of one page, in order, from the start of its navigation.
    async fn phases(
        &mut self,
        input: &str,
        url: &str,
        opts: &RenderOptions,
    ) -> Result<Rendered, Error> {
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
            let mut s = self.state.lock();
            s.abort_body_read();
            *s = State {
                rules: Rules::for_page(url, &self.main_frame, opts, self.egress.clone()),
                seen: Seen {
                    capture: opts.capture.then(Default::default),
                    ..Seen::default()
                },
            };
        }
        // Capture and replay see every request: the cache off (one command, only when
        // capture or replay starts or ends in this tab).
        let cache_off = opts.capture || opts.replay.is_some();
        if cache_off != self.cache_off {
            use chromiumoxide::cdp::browser_protocol::network::SetCacheDisabledParams;
            cdp::timed(
                input,
                "turning the cache off for capture",
                opts.command_timeout,
                self.page.execute(SetCacheDisabledParams::new(cache_off)),
            )
            .await?;
            self.cache_off = cache_off;
        }
        self.progress = Progress::new(start);

        // navigate; a PDF main document is read and laid out as a page of its own
        // (tab/pdf.rs), which the phases below take as any page
        let (load_timed_out, document) = match self.navigate(input, url, opts, deadline).await {
            Ok(t) => (t, None),
            Err(e) => match self.fault() {
                Some(Fault::Pdf(problem)) if !self.crashed() => {
                    drop(e);
                    let d = self.open_pdf(input, url, opts, deadline, problem).await?;
                    (false, Some(d))
                }
                _ => return Err(e),
            },
        };

        // settle (the rule: src/render/settle.rs); when the plan answers consent dialogs,
        // its probe also tells whether the page shows a consent platform
        self.progress.enter(Phase::Settle);
        let settle_start = Instant::now();
        let answers_consent = opts.steer.consent != Consent::Keep;
        let mut platform = None;
        if !load_timed_out {
            let probe = if answers_consent {
                settle::probe_js_with_consent()
            } else {
                settle::probe_js()
            };
            platform = self
                .settle(input, opts, start, deadline, settle_start, &probe)
                .await?;
        }
        if let Err(e) = self.finish_body_read(input).await {
            self.reset_after_error(opts).await;
            return Err(e);
        }

        // consent (tab/consent.rs): only when the settle saw a consent platform, before the
        // steering and the scroll (a modal dialog locks the page until it is answered); the
        // page settles again when the answer changed it
        let early = platform.is_some();
        let mut consent = None;
        if let Some(platform) = platform {
            consent = self
                .answer_consent(input, opts, deadline, &platform)
                .await?;
            if consent.as_ref().is_some_and(|c| c.popup || c.answered) {
                self.settle(
                    input,
                    opts,
                    start,
                    deadline,
                    Instant::now(),
                    &settle::probe_js(),
                )
                .await?;
            }
        }

        // steer (src/render/steer/): wait conditions, then actions; only for a plan that has
        // some (a passive plan sends nothing)
        let actions = if opts.steer.steers_page() {
            self.progress.enter(Phase::Steer);
            self.steer(input, opts, start, deadline).await?
        } else {
            None
        };

        // scroll (src/render/scroll.rs)
        self.progress.enter(Phase::Scroll);
        let scroll_report = self
            .scroll(input, opts, start, deadline, load_timed_out)
            .await?;
        if scroll_report.steps == 0
            && scroll_report
                .container
                .as_ref()
                .is_none_or(|c| c.steps == 0)
        {
            self.progress.skip();
        }

        // snapshot
        self.progress.enter(Phase::Snapshot);
        let first = self.snapshot(input, opts, start, deadline).await?;
        // The browser's own error page (a navigation that failed where no event said so,
        // e.g. a refused port reached through the capture-as-it-is path) is never content.
        if first.0.url.starts_with("chrome-error://") {
            self.reset_after_error(opts).await;
            return Err(Error::Navigation {
                input: input.into(),
                message: "the navigation failed: the browser showed its own error page".into(),
            });
        }
        // consent, late (tab/consent.rs): only when the settle saw no consent platform but
        // the snapshot shows one (a dialog that came during the steering or the scroll); the
        // page is then snapshotted again
        let (snapshot, json) = if early {
            first
        } else {
            let (again, late) = self
                .answer_consent_late(input, opts, start, deadline, first)
                .await?;
            consent = late;
            again
        };

        // screenshot
        let screenshot = if opts.screenshot {
            self.progress.enter(Phase::Screenshot);
            if opts.steer.hide_overlays {
                self.hide_overlays(input, opts).await;
            }
            Some(self.screenshot(input, opts, &snapshot).await?)
        } else {
            None
        };
        self.progress.end();
        let timings = self.progress.timings.clone();
        // capture: the bodies still being read
        let capture = self.state.lock().seen.capture.take();
        let exchanges = match capture {
            Some(c) => Some(c.collect().await),
            None => None,
        };

        let mut snapshot = snapshot;
        if document.is_some() {
            // A PDF read from a file is laid out at a URL of its own (tab/pdf.rs).
            snapshot.url = url.to_string();
        }
        let snapshot_h = snapshot.document.height;
        // A later navigation may go straight from this page to the next one (see
        // [`Tab::park`]): the next page's settle can tell its document from this one.
        let s = self.state.lock();
        // A page that tried to navigate away (refused) goes through `about:blank`.
        self.clean = self.healthy
            && !load_timed_out
            && self.doc_origin.is_some()
            && s.seen.blocked_navigations == 0;
        let html_text_chars = s
            .seen
            .html
            .as_ref()
            .map(|(b, cs)| checks::html_text_chars(&checks::decode(b, cs.as_deref())));
        Ok(Rendered {
            snapshot,
            snapshot_json: json,
            status: s.seen.status,
            screenshot,
            timings,
            blocked_requests: s.seen.blocked,
            blocked_navigations: s.seen.blocked_navigations,
            skipped_requests: s.seen.skipped,
            load_timed_out,
            retries: 0,
            screenshot_truncated: opts.screenshot && snapshot_h > opts.max_screenshot_height as f64,
            repaired: None,
            dialogs: s.seen.dialogs,
            html_text_chars,
            javascript: None,
            scroll: scroll_report,
            actions,
            headers: s.seen.response_headers.clone(),
            http_error: s.seen.http_error,
            wall: None,
            soft_error: None,
            consent,
            exchanges,
            document,
        })
    }

    /// The settle phase: poll the page (`probe_js`: [`settle::probe_js`] after `load`) until
    /// [`settle::decide`] says it settled, or its bound or the deadline passes (the page is
    /// then captured as it is). The steering settles with it after each action. Returns the
    /// consent platform the last probe saw (only [`settle::probe_js_with_consent`] looks).
    pub(super) async fn settle(
        &mut self,
        input: &str,
        opts: &RenderOptions,
        start: Instant,
        deadline: Instant,
        settle_start: Instant,
        probe_js: &str,
    ) -> Result<Option<String>, Error> {
        let settle_end = deadline.min(settle_start + settle::SETTLE_MAX);
        let mut consent = None;
        loop {
            if self.crashed() {
                self.healthy = false;
                return Err(Error::Crashed {
                    input: input.into(),
                });
            }
            let net = {
                let s = self.state.lock();
                settle::Net {
                    inflight: s.seen.inflight.len(),
                    since_event_after_load: s
                        .seen
                        .last_net
                        .filter(|t| *t > settle_start)
                        .map(|t| t.elapsed()),
                    since_event: s.seen.last_net.map(|t| t.elapsed()),
                }
            };
            let q = tokio::time::timeout(
                opts.command_timeout,
                self.page.execute(cdp::by_value(probe_js)),
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
                            consent.clone_from(&p.consent);
                            match settle::decide(&p, net, opts.quiet) {
                                settle::Verdict::Settled => break,
                                settle::Verdict::Wait(d, why) => {
                                    tracing::trace!("{input}: settling: {why} ({p:?}, {net:?})");
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
        Ok(consent)
    }

    /// The scroll phase ([`scroll::scroll`]), then the scrolling box's rows
    /// (`steer/vlist.rs`: the box the plan names, or the one the scroll phase's first
    /// measure found); skipped when `load` did not come.
    async fn scroll(
        &mut self,
        input: &str,
        opts: &RenderOptions,
        start: Instant,
        deadline: Instant,
        load_timed_out: bool,
    ) -> Result<ScrollReport, Error> {
        if load_timed_out {
            return Ok(ScrollReport {
                stopped: "load-timed-out".into(),
                ..ScrollReport::default()
            });
        }
        let st = self.state.clone();
        let net = move || {
            let s = st.lock();
            settle::Net {
                inflight: s.seen.inflight.len(),
                since_event_after_load: s.seen.last_net.map(|t| t.elapsed()),
                since_event: s.seen.last_net.map(|t| t.elapsed()),
            }
        };
        // A box named needs no detection; otherwise the box is looked for as the page is
        // measured.
        let detect = opts.steer.scroll_container.is_none().then(vlist::detect_js);
        let (mut report, found) = match scroll::scroll(
            &self.page,
            &self.front,
            input,
            &opts.scroll,
            opts.command_timeout,
            deadline,
            net,
            detect.as_deref(),
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
                let r = ScrollReport {
                    stopped: "error".into(),
                    ..ScrollReport::default()
                };
                (r, false)
            }
        };
        match self.gather_list(input, opts, start, deadline, found).await {
            Ok(c) => report.container = c,
            Err(e @ Error::Crashed { .. }) => return Err(e),
            Err(e) => tracing::debug!("{input}: scrolling the list box failed: {e}"),
        }
        Ok(report)
    }

    /// The snapshot phase: run [`SNAPSHOT_JS`] in the page (bounded by what is left of the
    /// deadline, at least one command timeout) and read its JSON.
    pub(super) async fn snapshot(
        &mut self,
        input: &str,
        opts: &RenderOptions,
        start: Instant,
        deadline: Instant,
    ) -> Result<(Snapshot, String), Error> {
        let left = deadline
            .saturating_duration_since(Instant::now())
            .max(opts.command_timeout);
        let eval = cdp::by_value(SNAPSHOT_JS);
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
        Ok((snapshot, json))
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
        deadline: Instant,
    ) -> Result<bool, Error> {
        if self.js_disabled == opts.javascript {
            let r = cdp::timed(
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
                if let Some(f) = state.lock().seen.fault.clone() {
                    return f;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        };
        let state = self.state.clone();
        let refused = async move {
            loop {
                if state.lock().seen.blocked_navigations > 0 {
                    return;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        };
        let nav = {
            let goto = self.bounded(
                deadline.saturating_duration_since(Instant::now()),
                self.page.goto(NavigateParams::new(url)),
            );
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
                        cdp::timed(
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
                let timed_out = |phase: &str| Error::Timeout {
                    input: input.into(),
                    phase: phase.into(),
                    seconds: opts.timeout.as_secs_f64(),
                };
                // The server never answered, never finished the document, or dribbles it:
                // there is no page to capture, and chromiumoxide still waits on the
                // navigation (the tab's next one would queue behind it): the tab is replaced.
                if self.state.lock().main_document_incomplete() {
                    self.healthy = false;
                    return Err(timed_out(
                        "loading the page (the server did not send the whole document)",
                    ));
                }
                let alive = tokio::time::timeout(
                    ALIVE_CHECK,
                    self.page.execute(EvaluateParams::new("location.href")),
                )
                .await;
                let href = match &alive {
                    Ok(Ok(r)) => r.result.result.value.clone(),
                    _ => None,
                };
                if !matches!(alive, Ok(Ok(_))) {
                    // Stuck in a script: the deadline passed, so no recovery here; the
                    // pool replaces the tab.
                    self.healthy = false;
                    return Err(timed_out("loading the page"));
                }
                if (href.as_ref().and_then(|v| v.as_str()) == Some("about:blank")
                    && !same_document_url(url, "about:blank"))
                    || self.shows_left_page(opts).await
                {
                    // The page's document never arrived: the tab still shows the blank
                    // page it waited on, or the previous page. chromiumoxide still waits on the navigation, so
                    // the tab is replaced.
                    self.healthy = false;
                    return Err(timed_out("loading the page"));
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
        let mut s = self.state.lock();
        if s.seen.body.is_some() || s.seen.pdf_view.is_some() {
            return;
        }
        let Some(id) = s.seen.main_request.clone() else {
            return;
        };
        s.seen.body = Some(spawn_body_read(self.page.clone(), id, s.rules.body_limit));
    }

    /// The main document's body read by [`Tab::start_body_read`]: sniff binary bodies served
    /// as HTML ([`checks::sniff_binary`], a content-type error) and keep the HTML's text size
    /// for the JavaScript-disabled fallback.
    async fn finish_body_read(&mut self, input: &str) -> Result<(), Error> {
        let Some(h) = self.state.lock().seen.body.take() else {
            return Ok(());
        };
        if self.state.lock().seen.pdf_view.is_some() {
            // The page laid out from a PDF (tab/pdf.rs): its HTML is sightline's.
            h.abort();
            return Ok(());
        }
        let Ok(Some((bytes, base64_encoded))) = h.await else {
            return Ok(());
        };
        if let Some(problem) = checks::sniff_binary(&bytes) {
            return Err(Fault::ContentType(problem).error(input));
        }
        let mut s = self.state.lock();
        let charset = if base64_encoded {
            s.seen.main_charset.clone()
        } else {
            Some("utf-8".into())
        };
        s.seen.html = Some((bytes, charset));
        Ok(())
    }
}
