//! The pool of reused tabs of one renderer: the slots that bound how many pages render at
//! once, the idle tabs (with the browser generation each was opened in), opening a tab when
//! none is idle, handing one back or closing it, and the sweeps that close page targets no
//! tab owns (pop-ups a page opened, a tab whose close did not go through).

use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use chromiumoxide::cdp::browser_protocol::browser::BrowserContextId;
use chromiumoxide::cdp::browser_protocol::target::CreateTargetParams;
use tokio::sync::{Mutex, Semaphore, SemaphorePermit};

use super::browser::{BrowserHandle, BrowserSource};
use super::launch::Launcher;
use super::options::RenderOptions;
use super::scroll;
use super::steer;
use super::tab::{Tab, TabConfig};
use crate::error::BrowserError;
use crate::Error;

/// A new tab of a connected browser gets [`RenderOptions::user_agent`] (a launched browser
/// started with it); nothing is sent without one.
async fn connected_user_agent(
    page: &chromiumoxide::Page,
    opts: &RenderOptions,
) -> Result<(), Error> {
    use chromiumoxide::cdp::browser_protocol::emulation::SetUserAgentOverrideParams;
    let (Some(ua), BrowserSource::Connect(_)) = (&opts.user_agent, &opts.browser) else {
        return Ok(());
    };
    let phase = "setting the browser-wide user agent";
    tokio::time::timeout(
        opts.command_timeout,
        page.execute(SetUserAgentOverrideParams::new(ua.clone())),
    )
    .await
    .map_err(|_| Error::Timeout {
        input: "new tab".into(),
        phase: phase.into(),
        seconds: opts.command_timeout.as_secs_f64(),
    })?
    .map_err(|e| {
        Error::from(BrowserError::Cdp {
            input: "new tab".into(),
            phase: phase.into(),
            message: e.to_string(),
            source: None,
        })
    })?;
    Ok(())
}

/// Pages between two sweeps for page targets no tab owns.
const SWEEP_EVERY: usize = 25;

/// The phase named by a timeout while opening a tab (retried once by the renderer).
pub(super) const OPENING_A_TAB: &str = "opening a tab";

/// Tabs are replaced after `recycle_tab_after` pages; every [`SWEEP_EVERY`] pages, page
/// targets of a launched browser that no tab owns are closed once seen in two sweeps.
pub(super) struct TabPool {
    /// One permit per page rendering now, `size` in all.
    slots: Semaphore,
    size: usize,
    /// Tabs between two pages, with the generation of the browser they were opened in.
    idle: Mutex<Vec<(u64, Tab)>>,
    /// Target ids of the tabs this renderer opened and has not closed.
    owned: parking_lot::Mutex<HashSet<String>>,
    /// Unowned page targets seen by the last sweep.
    suspects: parking_lot::Mutex<HashSet<String>>,
    /// Page targets closed because no tab owned them.
    reaped: AtomicUsize,
    /// Held by the tab that is scrolling (only the front tab of a window renders frames).
    front: scroll::Front,
}

impl TabPool {
    /// A pool for `concurrency` pages at once (at least one).
    pub(super) fn new(concurrency: usize) -> TabPool {
        let size = concurrency.max(1);
        TabPool {
            slots: Semaphore::new(size),
            size,
            idle: Mutex::new(Vec::new()),
            owned: parking_lot::Mutex::new(HashSet::new()),
            suspects: parking_lot::Mutex::new(HashSet::new()),
            reaped: AtomicUsize::new(0),
            front: scroll::Front::default(),
        }
    }

    /// Wait for a free slot; the page renders while it holds it.
    pub(super) async fn slot(&self) -> SemaphorePermit<'_> {
        self.slots.acquire().await.expect("semaphore open")
    }

    /// Tabs rendering a page now.
    pub(super) fn busy(&self) -> usize {
        self.size - self.slots.available_permits()
    }

    /// Page targets closed because no tab owned them.
    pub(super) fn reaped(&self) -> usize {
        self.reaped.load(Ordering::SeqCst)
    }

    /// Let go of every tab (a browser is being replaced): the idle ones are dropped, and no
    /// target is owned or suspected any more.
    pub(super) async fn reset(&self) {
        self.idle.lock().await.clear();
        self.owned.lock().clear();
        self.suspects.lock().clear();
    }

    /// A tab's target is closed, or about to be: it is no longer owned.
    pub(super) fn disown(&self, id: &str) {
        self.owned.lock().remove(id);
    }

    /// Test only: panic while holding the set of owned targets, as a bug would in the middle
    /// of [`TabPool::take`] (see `PANIC_HOLDING_THE_TAB_POOL`).
    #[cfg(feature = "test-hooks")]
    pub(super) fn panic_holding_owned(&self) -> ! {
        let _owned = self.owned.lock();
        panic!("injected panic while holding the tab pool's owned targets");
    }

    /// An idle tab of the live browser, or a new one. An error names the generation of the
    /// browser it was opened on when it got that far (so the caller can tell that browser
    /// died under it: another page may have relaunched it already).
    pub(super) async fn take(
        &self,
        browser: &Launcher,
        opts: &RenderOptions,
    ) -> Result<(u64, Tab), (Option<u64>, Error)> {
        loop {
            let popped = self.idle.lock().await.pop();
            match popped {
                // The generation is read after `is_gone`, which waits out a relaunch in
                // progress: a tab of the dead browser must not be handed out after it.
                Some((gen, t)) if !browser.is_gone().await && gen == browser.generation() => {
                    return Ok((gen, t))
                }
                Some(_) => continue,
                None => break,
            }
        }
        let (gen, h) = browser
            .handle(opts, self.reset())
            .await
            .map_err(|e| (None, e))?;
        let at = |e| (Some(gen), e);
        let page = tokio::time::timeout(
            opts.command_timeout,
            h.browser.new_page(CreateTargetParams::new("about:blank")),
        )
        .await
        .map_err(|_| {
            at(Error::Timeout {
                input: "new tab".into(),
                phase: OPENING_A_TAB.into(),
                seconds: opts.command_timeout.as_secs_f64(),
            })
        })?
        .map_err(|e| {
            at(Error::from(BrowserError::Cdp {
                input: "new tab".into(),
                phase: OPENING_A_TAB.into(),
                message: e.to_string(),
                source: None,
            }))
        })?;
        let id = page.target_id().inner().clone();
        self.owned.lock().insert(id.clone());
        let ready = async {
            connected_user_agent(&page, opts).await?;
            Tab::sharing_front(page.clone(), &TabConfig::of(opts), self.front.clone()).await
        };
        match ready.await {
            Ok(mut t) => {
                t.egress = browser.egress();
                Ok((gen, t))
            }
            Err(e) => {
                self.owned.lock().remove(&id);
                h.close_target(&id, Duration::from_secs(2)).await;
                Err(at(e))
            }
        }
    }

    /// A fresh tab in a browser context of its own for a page that carries its own session
    /// ([`Steer::has_session`](crate::steer::Steer::has_session)), prepared for `target` (cookies,
    /// localStorage, emulation; see [`steer::context`]). It is never pooled: hand it to
    /// [`TabPool::close_private`] after the page.
    pub(super) async fn take_private(
        &self,
        browser: &Launcher,
        opts: &RenderOptions,
        target: &str,
        input: &str,
    ) -> Result<(u64, Tab, BrowserContextId), (Option<u64>, Error)> {
        let (gen, h) = browser
            .handle(opts, self.reset())
            .await
            .map_err(|e| (None, e))?;
        let at = |e| (Some(gen), e);
        let t = opts.command_timeout;
        let (ctx, page) = steer::context::open(&h.browser, &browser.context_proxy(), t)
            .await
            .map_err(at)?;
        let id = page.target_id().inner().clone();
        self.owned.lock().insert(id.clone());
        let ready = async {
            // The browser-wide User-Agent first: the plan's emulation may replace it.
            connected_user_agent(&page, opts).await?;
            steer::context::prepare(&page, &opts.steer, target, input, t).await?;
            Tab::sharing_front(page.clone(), &TabConfig::of(opts), self.front.clone()).await
        };
        match ready.await {
            Ok(mut tab) => {
                tab.egress = browser.egress();
                Ok((gen, tab, ctx))
            }
            Err(e) => {
                self.owned.lock().remove(&id);
                steer::context::dispose(&h.browser, &ctx, Duration::from_secs(2)).await;
                Err(at(e))
            }
        }
    }

    /// Close a page's own tab and its browser context in the background (the page's record
    /// does not wait for it).
    pub(super) async fn close_private(&self, browser: &Launcher, tab: Tab, ctx: BrowserContextId) {
        let page = tab.page.clone();
        drop(tab);
        self.disown(page.target_id().inner());
        let h = browser.current().await;
        tokio::spawn(async move {
            let _ = tokio::time::timeout(Duration::from_secs(2), page.close()).await;
            if let Some(h) = h.filter(|h| !h.is_gone()) {
                steer::context::dispose(&h.browser, &ctx, Duration::from_secs(2)).await;
            }
        });
    }

    /// Put a tab back in the pool for its next page, or close it. A tab that is kept has its
    /// scripts disabled first, and leaves its page for `about:blank` unless the page rendered
    /// cleanly ([`Tab::park`]); one that
    /// cannot, or whose last navigation was refused or left it in doubt, is closed (the next
    /// page opens a fresh tab).
    pub(super) async fn give_back(
        &self,
        browser: &Launcher,
        opts: &RenderOptions,
        gen: u64,
        mut tab: Tab,
    ) {
        if !tab.worn(opts.recycle_tab_after)
            && gen == browser.generation()
            && !browser.is_gone().await
        {
            tab.park(&TabConfig::of(opts)).await;
        }
        if tab.reusable(opts.recycle_tab_after)
            && gen == browser.generation()
            && !browser.is_gone().await
        {
            self.idle.lock().await.push((gen, tab));
        } else {
            let page = tab.page.clone();
            drop(tab);
            self.close_page(browser, page).await;
        }
    }

    /// Close a tab's target in the background (the page's record does not wait for it): from
    /// its own session, and from the browser's when that does not answer (a renderer whose
    /// scripts never yield, a navigation that never ends). If neither goes through, the next
    /// sweeps find the target unowned and close it.
    async fn close_page(&self, browser: &Launcher, page: chromiumoxide::Page) {
        let id = page.target_id().inner().clone();
        self.disown(&id);
        let h = browser.current().await;
        tokio::spawn(async move {
            if !matches!(
                tokio::time::timeout(Duration::from_secs(2), page.close()).await,
                Ok(Ok(()))
            ) {
                if let Some(h) = h.filter(|h| !h.is_gone()) {
                    h.close_target(&id, Duration::from_secs(2)).await;
                }
            }
        });
    }

    /// After the `n`th page of the launched browser `h`: sweep every [`SWEEP_EVERY`] pages.
    pub(super) async fn sweep_after(&self, n: usize, h: &BrowserHandle) {
        if n % SWEEP_EVERY == 0 {
            self.sweep(h).await;
        }
    }

    /// Close page targets of the browser that no tab owns and that the previous sweep saw
    /// already (a tab being opened is not owned yet for a moment).
    async fn sweep(&self, h: &BrowserHandle) {
        let Ok(targets) = h.page_targets(Duration::from_secs(2)).await else {
            return;
        };
        let unowned: HashSet<String> = {
            let owned = self.owned.lock();
            targets
                .into_iter()
                .map(|(id, _)| id)
                .filter(|id| !owned.contains(id))
                .collect()
        };
        let stale: Vec<String> = {
            let mut prev = self.suspects.lock();
            let stale = unowned.intersection(&prev).cloned().collect();
            *prev = unowned;
            stale
        };
        for id in &stale {
            h.close_target(id, Duration::from_secs(2)).await;
            self.suspects.lock().remove(id);
        }
        if !stale.is_empty() {
            self.reaped.fetch_add(stale.len(), Ordering::SeqCst);
            tracing::info!("closed {} page target(s) no tab owned", stale.len());
        }
    }
}
