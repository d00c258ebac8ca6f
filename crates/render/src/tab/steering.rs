//! The steering phase of one page (between the settle and the scroll phase: the plan's wait
//! conditions, then its actions, `render/steer/`), the gathering of a scrolling box's rows
//! (in the scroll phase, `steer/vlist.rs`), and what both need of the tab
//! ([`Driver`]): settling after an action, and following a navigation an action caused to
//! its new document (seen by the event task as another main-frame document, and by a new
//! `performance.timeOrigin`), which then settles as a page does after `load`.

use std::time::{Duration, Instant};

use chromiumoxide::cdp::browser_protocol::page::BringToFrontParams;
use chromiumoxide::cdp::js_protocol::runtime::EvaluateParams;
use chromiumoxide::Page;

use super::config::TabConfig;
use super::Tab;
use crate::error::BrowserError;
use crate::settle;
use crate::steer::driver::Driver;
use crate::steer::{actions, vlist, wait, ActionOutcome, ContainerReport};
use crate::Error;

/// After a click, a key press or a script, how long the page is given to start a navigation
/// (a form's submission is requested within a few milliseconds of the event).
pub(super) const NAV_GRACE: Duration = Duration::from_millis(150);

/// A navigation an action started whose request ended without a new document (a 204, a
/// download, one `--offline` refused) is given up this long after it began.
const NAV_NO_DOCUMENT: Duration = Duration::from_secs(1);

/// How often the new document of a navigation is looked for.
const NAV_POLL: Duration = Duration::from_millis(40);

/// The tab, as the steering sees it during one page.
struct TabDriver<'a> {
    tab: &'a mut Tab,
    input: &'a str,
    opts: &'a TabConfig,
    start: Instant,
    deadline: Instant,
}

impl Driver for TabDriver<'_> {
    fn page(&self) -> &Page {
        &self.tab.page
    }

    fn input(&self) -> &str {
        self.input
    }

    fn command_timeout(&self) -> Duration {
        self.opts.command_timeout
    }

    fn deadline(&self) -> Instant {
        self.deadline
    }

    fn timeout_secs(&self) -> f64 {
        self.opts.timeout.as_secs_f64()
    }

    fn net(&self) -> settle::Net {
        let s = self.tab.state.lock();
        settle::Net {
            inflight: s.seen.inflight.len(),
            since_event_after_load: s.seen.last_net.map(|t| t.elapsed()),
            since_event: s.seen.last_net.map(|t| t.elapsed()),
        }
    }

    fn navigations(&self) -> usize {
        self.tab.state.lock().seen.page_navigations
    }

    async fn after_action(
        &mut self,
        may_navigate: bool,
        navigations_before: usize,
    ) -> Result<bool, Error> {
        let mut navigated = false;
        if may_navigate {
            let until = (Instant::now() + NAV_GRACE).min(self.deadline);
            loop {
                if self.navigations() > navigations_before {
                    navigated = true;
                    break;
                }
                if Instant::now() >= until {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        }
        let now = Instant::now();
        let probe = if navigated && self.follow_navigation().await? {
            // A new document: it settles as a page does after `load`.
            settle::probe_js()
        } else {
            // Timers the action started count from now.
            settle::probe_js_from_now(settle::TIMER_HORIZON)
        };
        self.tab
            .settle(
                self.input,
                self.opts,
                self.start,
                self.deadline,
                now,
                &probe,
            )
            .await?;
        Ok(navigated)
    }

    async fn front(&mut self) -> Option<tokio::sync::OwnedMutexGuard<()>> {
        let g = tokio::time::timeout_at(self.deadline.into(), self.tab.front.clone().lock_owned())
            .await
            .ok()?;
        match tokio::time::timeout(
            self.opts.command_timeout,
            self.tab.page.execute(BringToFrontParams::default()),
        )
        .await
        {
            Ok(Ok(_)) => {}
            _ => tracing::debug!("{}: bringing the tab to the front failed", self.input),
        }
        Some(g)
    }
}

impl TabDriver<'_> {
    /// Wait for the document of the navigation an action started (a `performance.timeOrigin`
    /// other than the one the settle last read). False when its request ended without one
    /// (the page stays); a `timeout` when the deadline passes first.
    async fn follow_navigation(&mut self) -> Result<bool, Error> {
        let old = self.tab.doc_origin;
        let began = Instant::now();
        let refused = self.tab.state.lock().seen.blocked_navigations;
        loop {
            if self.tab.crashed() {
                self.tab.healthy = false;
                return Err(Error::from(BrowserError::Crashed {
                    input: self.input.into(),
                }));
            }
            let r = tokio::time::timeout(
                self.opts.command_timeout.min(Duration::from_secs(1)),
                self.tab
                    .page
                    .execute(EvaluateParams::new("performance.timeOrigin")),
            )
            .await;
            if let Ok(Ok(r)) = r {
                let origin = r.result.result.value.and_then(|v| v.as_f64());
                if origin.is_some() && origin != old {
                    tracing::debug!("{}: an action navigated; following it", self.input);
                    self.tab.doc_origin = origin;
                    return Ok(true);
                }
            }
            let (pending, blocked) = {
                let s = self.tab.state.lock();
                let pending = s
                    .seen
                    .page_navigation
                    .as_ref()
                    .is_some_and(|id| s.seen.inflight.contains(id));
                (pending, s.seen.blocked_navigations > refused)
            };
            if blocked {
                tracing::debug!(
                    "{}: a navigation an action started was refused (offline); the page stays",
                    self.input
                );
                return Ok(false);
            }
            if !pending && began.elapsed() >= NAV_NO_DOCUMENT {
                tracing::debug!(
                    "{}: a navigation an action started brought no new document",
                    self.input
                );
                return Ok(false);
            }
            if Instant::now() + NAV_POLL >= self.deadline {
                return Err(Error::Timeout {
                    input: self.input.into(),
                    phase: "loading the page an action led to".into(),
                    seconds: self.opts.timeout.as_secs_f64(),
                });
            }
            tokio::time::sleep(NAV_POLL).await;
        }
    }
}

impl Tab {
    /// The steering phase: the plan's wait conditions, then its actions (see
    /// `render/steer/`). The outcome of each action, None when the plan has none.
    pub(super) async fn steer(
        &mut self,
        input: &str,
        opts: &TabConfig,
        start: Instant,
        deadline: Instant,
    ) -> Result<Option<Vec<ActionOutcome>>, Error> {
        let plan = opts.steer.clone();
        if self.doc_origin.is_none() {
            // The settle did not read the document (`load` did not come): read it now, so
            // that a navigation an action causes is told from this document.
            let r = tokio::time::timeout(
                opts.command_timeout,
                self.page
                    .execute(EvaluateParams::new("performance.timeOrigin")),
            )
            .await;
            if let Ok(Ok(r)) = r {
                self.doc_origin = r.result.result.value.and_then(|v| v.as_f64());
            }
        }
        let mut d = TabDriver {
            tab: self,
            input,
            opts,
            start,
            deadline,
        };
        let r = async {
            wait::wait_all(&mut d, &plan).await?;
            if plan.actions.is_empty() {
                return Ok(None);
            }
            actions::run(&mut d, &plan.actions).await.map(Some)
        }
        .await;
        if r.is_err() && self.crashed() {
            self.healthy = false;
            return Err(Error::from(BrowserError::Crashed {
                input: input.into(),
            }));
        }
        r
    }

    /// Scroll and gather a scrolling box's rows (`steer/vlist.rs`): the box the plan names,
    /// or (`found`) the one the scroll phase's measure found. None when there was none.
    pub(super) async fn gather_list(
        &mut self,
        input: &str,
        opts: &TabConfig,
        start: Instant,
        deadline: Instant,
        found: bool,
    ) -> Result<Option<ContainerReport>, Error> {
        let named = opts.steer.scroll_container.clone();
        if named.is_none() && !found {
            return Ok(None);
        }
        let (budget, steps) = match named {
            Some(_) => (opts.timeout, vlist::NAMED_MAX_STEPS),
            None => (opts.scroll.budget, opts.scroll.max_steps),
        };
        let mut d = TabDriver {
            tab: self,
            input,
            opts,
            start,
            deadline,
        };
        let r = vlist::gather(&mut d, named.as_deref(), budget, steps).await;
        if r.is_err() && self.crashed() {
            self.healthy = false;
            return Err(Error::from(BrowserError::Crashed {
                input: input.into(),
            }));
        }
        r
    }
}
