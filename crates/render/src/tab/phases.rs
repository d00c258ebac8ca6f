//! One page's render, phase by phase: navigate (until `load` or the deadline) → settle (no
//! request in flight and no DOM change for `quiet`) → consent (a dialog the settle saw is
//! answered, then the page settles again) → steer → scroll → snapshot (a dialog only the
//! snapshot shows is answered, and the page snapshotted again) → screenshot (after the
//! snapshot: a full-page capture can reflow the page). Each phase is a method of [`Tab`]
//! called in that order by [`Tab::render`], and each is bounded by the page's deadline or by
//! a named command timeout.

use std::time::{Duration, Instant};

use super::config::TabConfig;
use super::{
    same_document_url, Bounded, ConsentEnd, ConsentReport, Document, Fault, Phase, Progress,
    Rendered, Rules, Seen, State, Tab, SNAPSHOT_JS,
};
use crate::cdp;
use crate::checks;
use crate::error::BrowserError;
use crate::lane::{Lane, LaneReport, RenderMode};
use crate::options::RenderOptions;
use crate::scroll::{self, ScrollReport};
use crate::settle;
use crate::steer::{vlist, Consent};
use crate::Error;
use sightline_core::snapshot::Snapshot;

/// How long past the page's deadline its capture may run (the snapshot, and the screenshot,
/// of a page captured as it is when `load` did not come in time); beyond it the page is a
/// `timeout`.
pub(crate) const DEADLINE_GRACE: Duration = Duration::from_secs(1);

/// What one page's phases produced, for its record ([`Tab::finish`]).
struct Phased {
    snapshot: Snapshot,
    json: String,
    screenshot: Option<Vec<u8>>,
    load_timed_out: bool,
    scroll: ScrollReport,
    actions: Option<Vec<crate::steer::ActionOutcome>>,
    consent: Option<ConsentReport>,
    document: Option<Document>,
}

impl Tab {
    /// Navigate to `url`, wait for the page to settle, snapshot it (and screenshot it): the
    /// phases of this module, in order.
    pub async fn render(
        &mut self,
        input: &str,
        url: &str,
        opts: &RenderOptions,
    ) -> Result<Rendered, Error> {
        let config = TabConfig::of(opts);
        let opts = &config;
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

    /// The phases of one page, in order, from the start of its navigation:
    /// 1. [`Tab::begin`]: the tab takes the page (its rules, the cache for capture);
    /// 2. navigate ([`Tab::navigate_or_pdf`]): to `load`; a PDF main document is read and laid
    ///    out as a page of its own (tab/pdf.rs), which the phases below take as any page;
    /// 3. settle ([`Tab::settle_page`]), the main document's body checked;
    /// 4. consent ([`Tab::answer_consent_early`]): only when the settle saw a consent platform;
    /// 5. steer ([`Tab::steer`]): only for a plan that steers the page;
    /// 6. scroll ([`Tab::scroll_page`]);
    /// 7. snapshot ([`Tab::snapshot_page`]), with the consent dialog only it shows answered;
    /// 8. screenshot ([`Tab::screenshot_page`]);
    /// 9. [`Tab::finish`]: the page's record.
    async fn phases(
        &mut self,
        input: &str,
        url: &str,
        opts: &TabConfig,
    ) -> Result<Rendered, Error> {
        let start = Instant::now();
        let deadline = start + opts.timeout;
        self.begin(input, url, opts, start).await?;
        let (load_timed_out, document) = self.navigate_or_pdf(input, url, opts, deadline).await?;
        // The static lane (asked, or chosen at the response): no consent step (its dialogs
        // are scripts'), no scroll.
        let static_lane = super::lane::is_static(&self.state.lock());
        let platform = self
            .settle_page(input, opts, start, deadline, load_timed_out)
            .await?
            .filter(|_| !static_lane);
        let early = platform.is_some() || static_lane;
        let consent = self
            .answer_consent_early(input, opts, start, deadline, platform)
            .await?;
        // The step ran after the settle and ended because no dialog showed: a dialog that
        // opens later (on the scroll, an action) is still answered after the snapshot. (A step
        // that waited out its bound over a dialog it could not answer is not run again.)
        let searched = consent.as_ref().is_some_and(|c| {
            !c.popup
                && !c.answered
                && matches!(c.ended, Some(ConsentEnd::Quiet | ConsentEnd::NoDialog))
        });
        // steer (src/render/steer/): wait conditions, then actions; only for a plan that has
        // some (a passive plan sends nothing)
        let actions = if opts.steer.steers_page() {
            self.progress.enter(Phase::Steer);
            self.steer(input, opts, start, deadline).await?
        } else {
            None
        };
        let scroll = if static_lane {
            ScrollReport {
                stopped: "static".into(),
                ..ScrollReport::default()
            }
        } else {
            self.scroll_page(input, opts, start, deadline, load_timed_out)
                .await?
        };
        let ((snapshot, json), late) = self
            .snapshot_page(input, opts, start, deadline, early && !searched, searched)
            .await?;
        let screenshot = self.screenshot_page(input, opts, &snapshot).await?;
        self.progress.end();
        let page = Phased {
            snapshot,
            json,
            screenshot,
            load_timed_out,
            scroll,
            actions,
            consent: match (consent, late) {
                (Some(e), Some(mut l)) if l.popup || l.answered => {
                    l.waited_ms += e.waited_ms;
                    Some(l)
                }
                (Some(mut e), l) => {
                    e.waited_ms += l.map_or(0, |l| l.waited_ms);
                    Some(e)
                }
                (None, l) => l,
            },
            document,
        };
        Ok(self.finish(url, opts, page).await)
    }

    /// The tab takes the page at `url`: its bookkeeping, the page's [`State`] (its rules,
    /// nothing seen yet), the cache switched for capture and replay, and the phases' clock
    /// started at `start`.
    async fn begin(
        &mut self,
        input: &str,
        url: &str,
        opts: &TabConfig,
        start: Instant,
    ) -> Result<(), Error> {
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
            if s.seen.scripts_off_by_lane {
                // `auto` switched the previous page's scripts off (tab/lane.rs).
                self.js_disabled = true;
            }
            *s = State {
                rules: Rules::for_page(url, &self.main_frame, opts, self.egress.clone()),
                seen: Seen {
                    capture: opts.capture.then(Default::default),
                    lane: (opts.render == RenderMode::Static)
                        .then(|| LaneReport::new(Lane::Static, "asked")),
                    ..Seen::default()
                },
            };
        }
        // Capture and replay see every request: the cache off (one command, only when
        // capture or replay starts or ends in this tab).
        let cache_off = opts.capture || opts.replay.is_some();
        if cache_off != self.cache_off {
            use chromiumoxide::cdp::browser_protocol::network::SetCacheDisabledParams;
            cdp::execute(
                &self.page,
                input,
                "turning the cache off for capture",
                opts.command_timeout,
                SetCacheDisabledParams::new(cache_off),
            )
            .await?;
            self.cache_off = cache_off;
        }
        self.progress = Progress::new(start);
        Ok(())
    }

    /// The navigate phase ([`Tab::navigate`]); a PDF main document is read and laid out as a
    /// page of its own (tab/pdf.rs). Returns whether `load` timed out, and the PDF's document.
    async fn navigate_or_pdf(
        &mut self,
        input: &str,
        url: &str,
        opts: &TabConfig,
        deadline: Instant,
    ) -> Result<(bool, Option<Document>), Error> {
        match self.navigate(input, url, opts, deadline).await {
            Ok(t) => Ok((t, None)),
            Err(e) => match self.fault() {
                Some(Fault::Pdf(problem)) if !self.crashed() => {
                    drop(e);
                    let d = self.open_pdf(input, url, opts, deadline, problem).await?;
                    Ok((false, Some(d)))
                }
                _ => Err(e),
            },
        }
    }

    /// The settle phase (the rule: src/render/settle.rs), skipped when `load` timed out, then
    /// the main document's body checked. When the plan answers consent dialogs, the settle's
    /// probe also tells whether the page shows a consent platform: returned.
    async fn settle_page(
        &mut self,
        input: &str,
        opts: &TabConfig,
        start: Instant,
        deadline: Instant,
        load_timed_out: bool,
    ) -> Result<Option<String>, Error> {
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
        Ok(platform)
    }

    /// Consent (tab/consent.rs), early: only when the settle saw a consent `platform`, before
    /// the steering and the scroll (a modal dialog locks the page until it is answered); the
    /// page settles again when the answer changed it.
    async fn answer_consent_early(
        &mut self,
        input: &str,
        opts: &TabConfig,
        start: Instant,
        deadline: Instant,
        platform: Option<String>,
    ) -> Result<Option<ConsentReport>, Error> {
        let Some(platform) = platform else {
            return Ok(None);
        };
        let consent = self
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
        Ok(consent)
    }

    /// The scroll phase ([`Tab::scroll`]); not recorded in the timings when nothing scrolled.
    async fn scroll_page(
        &mut self,
        input: &str,
        opts: &TabConfig,
        start: Instant,
        deadline: Instant,
        load_timed_out: bool,
    ) -> Result<ScrollReport, Error> {
        self.progress.enter(Phase::Scroll);
        let report = self
            .scroll(input, opts, start, deadline, load_timed_out)
            .await?;
        if report.steps == 0 && report.container.as_ref().is_none_or(|c| c.steps == 0) {
            self.progress.skip();
        }
        Ok(report)
    }

    /// The snapshot phase ([`Tab::snapshot`]): the browser's own error page is a `navigation`
    /// error; unless a dialog was answered after the settle (`early`), a dialog the snapshot
    /// shows (one that came during the steering or the scroll) is answered and the page
    /// snapshotted again: after the settle saw no consent platform, any platform the snapshot
    /// shows; after a step that found no dialog (`searched`), only a dialog's root rendered.
    /// Returns the snapshot kept and what was done with that late dialog.
    async fn snapshot_page(
        &mut self,
        input: &str,
        opts: &TabConfig,
        start: Instant,
        deadline: Instant,
        early: bool,
        searched: bool,
    ) -> Result<((Snapshot, String), Option<ConsentReport>), Error> {
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
        // A step after the settle that ended because no dialog showed (`searched`) may have
        // looked before the dialog came (a dialog frame still loading on a busy machine):
        // the snapshot's dialog is answered then, as after a page with no platform.
        if early && !searched {
            return Ok((first, None));
        }
        self.answer_consent_late(input, opts, start, deadline, first, searched)
            .await
    }

    /// The screenshot phase, when the page asks for one: overlays hidden first when the plan
    /// says so.
    async fn screenshot_page(
        &mut self,
        input: &str,
        opts: &TabConfig,
        snapshot: &Snapshot,
    ) -> Result<Option<Vec<u8>>, Error> {
        if !opts.screenshot {
            return Ok(None);
        }
        self.progress.enter(Phase::Screenshot);
        if opts.steer.hide_overlays {
            self.hide_overlays(input, opts).await;
        }
        Ok(Some(self.screenshot(input, opts, snapshot).await?))
    }

    /// The page's record, after its phases: the timings, the exchanges captured (the bodies
    /// still being read), what the event task saw; and whether the tab may go straight from
    /// this page to the next one (see [`Tab::park`]).
    async fn finish(&mut self, url: &str, opts: &TabConfig, page: Phased) -> Rendered {
        let Phased {
            mut snapshot,
            json,
            screenshot,
            load_timed_out,
            scroll,
            actions,
            consent,
            document,
        } = page;
        let timings = self.progress.timings.clone();
        // capture: the bodies still being read
        let capture = self.state.lock().seen.capture.take();
        let exchanges = match capture {
            Some(c) => Some(c.collect().await),
            None => None,
        };
        if document.is_some() {
            // A PDF read from a file is laid out at a URL of its own (tab/pdf.rs).
            snapshot.url = url.to_string();
        }
        let snapshot_h = snapshot.document.height;
        // A later navigation may go straight from this page to the next one (see
        // [`Tab::park`]): the next page's settle can tell its document from this one.
        let s = self.state.lock();
        let seen = &s.seen;
        // A page that tried to navigate away (refused) goes through `about:blank`.
        self.clean = self.healthy
            && !load_timed_out
            && self.doc_origin.is_some()
            && seen.blocked_navigations == 0;
        let html_text_chars = seen
            .html
            .as_ref()
            .map(|(b, cs)| checks::html_text_chars(&checks::decode(b, cs.as_deref())));
        Rendered {
            snapshot,
            snapshot_json: json,
            status: seen.status,
            screenshot,
            timings,
            blocked_requests: seen.blocked,
            blocked_navigations: seen.blocked_navigations,
            skipped_requests: seen.skipped,
            load_timed_out,
            retries: 0,
            screenshot_truncated: opts.screenshot && snapshot_h > opts.max_screenshot_height as f64,
            repaired: None,
            dialogs: seen.dialogs,
            html_text_chars,
            javascript: None,
            scroll,
            actions,
            headers: with_cookies(&seen.response_headers, seen.main_set_cookie.as_deref()),
            http_error: seen.http_error,
            wall: None,
            soft_error: None,
            consent,
            exchanges,
            document,
            render: seen.lane.clone().or_else(|| {
                (opts.render == RenderMode::Auto).then(|| {
                    LaneReport::new(
                        Lane::Full,
                        "the main document was not seen at its response (not fetched over HTTP)",
                    )
                })
            }),
            fetched: seen.fetched.clone(),
        }
    }

    /// The settle phase: poll the page (`probe_js`: [`settle::probe_js`] after `load`) until
    /// [`settle::decide`] says it settled, or its bound or the deadline passes (the page is
    /// then captured as it is). The steering settles with it after each action. Returns the
    /// consent platform the last probe saw (only [`settle::probe_js_with_consent`] looks).
    pub(super) async fn settle(
        &mut self,
        input: &str,
        opts: &TabConfig,
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
                return Err(Error::from(BrowserError::Crashed {
                    input: input.into(),
                }));
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
        opts: &TabConfig,
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
        let target = scroll::Target {
            page: &self.page,
            input,
            command_timeout: opts.command_timeout,
        };
        let (mut report, found) = match scroll::scroll(
            target,
            &self.front,
            &opts.scroll,
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
                    return Err(Error::from(BrowserError::Crashed {
                        input: input.into(),
                    }));
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
            Err(e) if BrowserError::is_crashed(&e) => return Err(e),
            Err(e) => tracing::debug!("{input}: scrolling the list box failed: {e}"),
        }
        Ok(report)
    }

    /// The snapshot phase: run [`SNAPSHOT_JS`] in the page (bounded by what is left of the
    /// deadline, at least one command timeout) and read its JSON.
    pub(super) async fn snapshot(
        &mut self,
        input: &str,
        opts: &TabConfig,
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
                return Err(Error::from(BrowserError::Crashed {
                    input: input.into(),
                }));
            }
            Bounded::Done(Ok(r)) => r,
            Bounded::Done(Err(e)) => {
                if self.lost(&e.to_string()).await {
                    return Err(Error::from(BrowserError::Crashed {
                        input: input.into(),
                    }));
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
}

/// The main document's wall headers with the names of the cookies it set (from the extra
/// info), when the headers themselves do not hold them.
fn with_cookies(headers: &[(String, String)], cookies: Option<&str>) -> Vec<(String, String)> {
    let mut h = headers.to_vec();
    if let Some(c) = cookies.filter(|c| !c.is_empty()) {
        if !h.iter().any(|(n, _)| n == "set-cookie") {
            h.push(("set-cookie".to_string(), c.to_string()));
        }
    }
    h
}
