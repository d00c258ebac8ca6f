//! A tab between pages: leaving a page (parked on it or on `about:blank`, scripts off),
//! recovering from a hang or a lost renderer, and whether the pool may give the tab its next
//! page or must replace it.

use std::time::Duration;

use chromiumoxide::cdp::browser_protocol::emulation::SetScriptExecutionDisabledParams;
use chromiumoxide::cdp::browser_protocol::page::NavigateParams;
use chromiumoxide::cdp::js_protocol::runtime::{EvaluateParams, TerminateExecutionParams};

use super::config::TabConfig;
use super::{Bounded, Tab};

impl Tab {
    /// Did this call fail because the tab's renderer is gone? chromiumoxide drops a pending
    /// call ("oneshot canceled", "receiver is gone") when its target goes away, which can be
    /// a moment before `Inspector.targetCrashed` arrives (file:// pages share a renderer
    /// process, so one page's crash takes its neighbours' tabs with it).
    pub(super) async fn lost(&mut self, message: &str) -> bool {
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
    pub(super) async fn reset_after_error(&mut self, opts: &TabConfig) {
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
    pub(crate) async fn park(&mut self, opts: &TabConfig) {
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
    pub(super) fn is_left_page(&self, origin: Option<f64>) -> bool {
        self.left_origin.is_some() && origin == self.left_origin
    }

    /// Does the tab still show the previous page's document (its `performance.timeOrigin`,
    /// [`Tab::is_left_page`])? False when the tab came from `about:blank`; true when the page
    /// does not answer.
    pub(super) async fn shows_left_page(&self, opts: &TabConfig) -> bool {
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
    pub(super) async fn recover_hung(&mut self, opts: &TabConfig) {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
