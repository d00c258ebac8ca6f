//! Rendering: the only code that talks to Chromium.
//!
//! A [`Renderer`] owns one browser (launched, or connected with `--browser-ws`) and a pool of
//! reused tabs (opening a tab costs ~150-200 ms of Chromium CPU; reusing one is 2-4x cheaper).
//! [`Renderer::render`] takes an [`Input`] to a [`Rendered`] page: navigate, settle, snapshot,
//! screenshot, each bounded by a deadline. Every await on the browser has a timeout: the
//! crate's own request timeout does not fire on an otherwise idle connection.
//!
//! With [`RenderOptions::egress`], a launched browser's every connection goes through the
//! renderer's [`egress`] proxy, which resolves and checks each host itself and connects to the
//! address it checked.
//!
//! The renderer is a composition of its parts: `launch` (the browser's lifetime: launch,
//! relaunch, recycling, generations, the egress proxy it keeps), `tab_pool` (the slots, the
//! reused tabs and the sweeps) and `retry` (the attempts at a page: retries and the renders
//! that follow one); the loopback server serves the pages given as HTML bytes.
//!
//! # Layout
//! This crate is the only code that talks to Chromium; it depends on the pure core
//! (`sightline-core`: the snapshot, walls, archives) and on the network boundary
//! (`sightline-egress`, re-exported as [`egress`] and [`guard`]).
//! - `browser`: finding, launching or connecting to Chromium ([`BrowserSource`]).
//! - `cdp`: one CDP command with a named timeout, and one `Runtime.evaluate`.
//! - `checks`: which URLs and schemes a page may be.
//! - `dialogs`: JavaScript dialogs answered so no page hangs.
//! - `error`: [`BrowserError`], the failures of the browser itself (the library's
//!   `Error::Browser` keeps it whole as its source).
//! - [`lane`]: the render lanes (`--render auto|full|static`): [`RenderMode`], the lane a
//!   page took ([`lane::LaneReport`]) and `auto`'s pure rules with their thresholds.
//! - `launch`: the browser's lifetime: launch, relaunch, recycling, the egress proxy it keeps.
//! - [`loopback`]: the local server of pages given as HTML bytes.
//! - `options`: [`RenderOptions`] (the render settings, with their JSON form and, with the
//!   `clap` feature, their flags) and [`Input`].
//! - `pool`: [`BrowserPool`], several browsers behind one renderer.
//! - [`reap`]: every process of a launched browser killed and reaped at exit.
//! - `retry`: the attempts at a page: retries and the renders that follow one.
//! - `scroll`: the scroll phase before the snapshot.
//! - [`settings`]: what the settings types ([`RenderOptions`], [`Steer`]) share: the typed
//!   error of their `validate()` ([`SettingsError`]), durations in the front ends' units.
//! - `settle`: the settle rule after `load` and the script installed before the page's.
//! - [`steer`]: waits, actions, cookies, headers, blocking, consent: a page's [`Steer`] plan
//!   (every steering option declared once: JSON, schema and flag).
//! - `tab`: one page in one tab: navigation, the phases, events, capture, PDF, screenshot.
//! - `tab_pool`: the slots, the reused tabs and the sweeps.
//! - `timings`: per-phase timings ([`Timings`]).
//! - [`wrapper`]: Debian's `chromium` launcher script, seen through (the binary it execs).
#![forbid(unsafe_code)]
#![warn(unreachable_pub)]

pub(crate) mod browser;
pub(crate) mod cdp;
pub(crate) mod checks;
pub(crate) mod dialogs;
mod error;
// `options.rs` names the archive (and its tests the snapshot) through the crate root.
pub(crate) use sightline_core::archive;
#[cfg(test)]
pub(crate) use sightline_core::snapshot;
pub use sightline_core::{Error, Snapshot};
pub use sightline_egress::{self as egress, guard};
pub mod lane;
mod launch;
pub mod loopback;
mod options;
pub(crate) mod pool;
pub mod reap;
mod retry;
pub(crate) mod scroll;
pub mod settings;
pub(crate) mod settle;
pub mod steer;
pub(crate) mod tab;
mod tab_pool;
mod timings;
pub mod wrapper;

use std::time::Duration;

pub use browser::{find_chrome, BrowserHandle, BrowserSource};
pub use egress::EgressPolicy;
pub use error::BrowserError;
pub use lane::RenderMode;
pub use options::{Input, PageRender, RenderOptions};
pub use pool::BrowserPool;
pub use scroll::{ScrollOptions, ScrollReport};
pub use settings::SettingsError;
pub use steer::Steer;
pub use tab::{ConsentEnd, ConsentReport, Document, Rendered, Tab};
pub use timings::Timings;

use launch::Launcher;
use tab_pool::TabPool;

/// One browser with a pool of tabs. A browser that dies (killed, crashed) is relaunched and
/// the pages that were in flight are retried once; a crashed tab is replaced and its page
/// retried once on a fresh tab.
///
/// Long runs stay bounded: tabs are replaced after `recycle_tab_after` pages; now and then,
/// page targets of a launched browser that no tab owns (pop-ups a page opened, a tab whose
/// close did not go through) are closed once seen in two sweeps; and a launched browser is
/// relaunched after `recycle_browser_after` pages or when its memory passes
/// `max_browser_memory`, after the pages in flight finish.
pub struct Renderer {
    opts: RenderOptions,
    /// The browser's lifetime: the live browser, its generation, relaunches and recycles,
    /// and the egress proxy of its launches.
    browser: Launcher,
    /// The slots, the reused tabs, and the sweeps for targets no tab owns.
    tabs: TabPool,
    /// Serves the pages given as HTML bytes.
    server: loopback::Server,
    /// Milliseconds the browser took to start.
    pub launch_ms: f64,
}

impl Renderer {
    /// Start the browser.
    pub async fn new(opts: RenderOptions) -> Result<Renderer, Error> {
        let server = loopback::Server::start(None).await.map_err(|e| {
            Error::from(BrowserError::Launch {
                path: "127.0.0.1".into(),
                message: format!("cannot start the loopback server: {e}"),
                source: Some(Box::new(e)),
            })
        })?;
        let (browser, launch_ms) = Launcher::start(&opts, server.port()).await?;
        Ok(Renderer {
            tabs: TabPool::new(opts.concurrency),
            opts,
            browser,
            server,
            launch_ms,
        })
    }

    /// The egress proxy's refusals, failures and counts (None without one).
    pub fn egress(&self) -> Option<std::sync::Arc<egress::Log>> {
        self.browser.egress()
    }

    /// The options in force.
    pub fn options(&self) -> &RenderOptions {
        &self.opts
    }

    /// Tabs rendering a page now.
    pub fn busy(&self) -> usize {
        self.tabs.busy()
    }

    /// How many times the browser was relaunched after dying.
    pub fn relaunches(&self) -> usize {
        self.browser.relaunches()
    }

    /// How many times a healthy browser was relaunched at its page or memory bound.
    pub fn recycles(&self) -> usize {
        self.browser.recycles()
    }

    /// Page targets closed because no tab owned them.
    pub fn reaped(&self) -> usize {
        self.tabs.reaped()
    }

    /// Page targets the browser has open now (tabs, pop-ups), or None when it does not answer.
    pub async fn page_targets(&self) -> Option<usize> {
        let h = self.browser.current().await?;
        h.page_targets(Duration::from_secs(2))
            .await
            .ok()
            .map(|t| t.len())
    }

    /// Render one input on a pooled tab. Several calls may run at once, up to `concurrency`.
    /// A crashed renderer or a lost browser gets one retry (on a fresh tab, in a relaunched
    /// browser); `Rendered::retries` says when that happened.
    pub async fn render(&self, input: &Input) -> Result<Rendered, Error> {
        self.render_with(input, &PageRender::default()).await
    }

    /// [`Renderer::render`] with the page's own asks: the screenshot (the service decides per
    /// request) and the steering plan. Dropping the returned future (a client that went away)
    /// closes its tab.
    pub async fn render_with(&self, input: &Input, page: &PageRender) -> Result<Rendered, Error> {
        self.render_timed(input, page).await.0
    }

    /// [`Renderer::render_with`], with the phase timings of a failed page too (a `timeout`
    /// record shows where its time went); on success they are the page's own.
    pub async fn render_timed(
        &self,
        input: &Input,
        page: &PageRender,
    ) -> (Result<Rendered, Error>, Timings) {
        let slot = self.tabs.slot().await;
        let gate = self.browser.enter().await;
        let r = self.render_retrying(input, page).await;
        drop(gate);
        drop(slot);
        self.after_page().await;
        r
    }

    /// After a page: count it, sweep for unowned targets now and then, and relaunch the
    /// browser when it reached its page or memory bound. Runs after the page let go of the
    /// browser (the relaunch waits for the other pages in flight).
    async fn after_page(&self) {
        let n = self.browser.count_page();
        let Some(h) = self.browser.launched_alive().await else {
            return;
        };
        self.tabs.sweep_after(n, &h).await;
        let why = self.browser.recycle_reason(&self.opts, n, &h);
        drop(h);
        if let Some(why) = why {
            self.browser
                .recycle(&why, &self.opts, self.tabs.reset())
                .await;
        }
    }

    /// One attempt; returns the browser generation it ran in (None when it never got a tab).
    /// If the future is dropped mid-page, the guard closes the tab and unpublishes the page.
    async fn render_once(
        &self,
        input: &Input,
        opts: &RenderOptions,
    ) -> (Option<u64>, Result<Rendered, Error>, Timings) {
        let (url, served) = match self.prepare(input) {
            Err(e) => return (None, Err(e), Timings::default()),
            Ok(x) => x,
        };
        let mut guard = InFlight {
            server: &self.server,
            tabs: &self.tabs,
            served,
            page: None,
            context: None,
        };
        #[cfg(feature = "test-hooks")]
        if input.name().ends_with(PANIC_HOLDING_THE_TAB_POOL) {
            self.tabs.panic_holding_owned();
        }
        // A page with a session of its own (cookies, headers, a storage state, emulation)
        // renders on a fresh tab in a browser context of its own, closed after it.
        let own = opts.steer.has_session();
        let taken = if own {
            self.tabs
                .take_private(&self.browser, opts, &url, &input.name())
                .await
                .map(|(gen, tab, ctx)| (gen, tab, Some(ctx)))
        } else {
            self.tabs
                .take(&self.browser, &self.opts)
                .await
                .map(|(gen, tab)| (gen, tab, None))
        };
        let (gen, mut tab, ctx) = match taken {
            Ok(t) => t,
            Err((gen, e)) => return (gen, Err(e), Timings::default()),
        };
        guard.page = Some(tab.page.clone());
        if let Some(ctx) = &ctx {
            guard.context = self.browser.current().await.map(|h| (h, ctx.clone()));
        }
        let mut page_opts;
        let opts = if guard.served.is_some() && opts.policy().is_some() {
            page_opts = opts.clone();
            page_opts.exempt_origin = Some(self.server.url(""));
            &page_opts
        } else {
            opts
        };
        let mut r = tab.render(&input.name(), &url, opts).await;
        let timings = tab.timings();
        if let (Ok(_), Some(ctx)) = (&r, &ctx) {
            if let Err(e) = self
                .save_storage_state(&input.name(), &tab, ctx, opts)
                .await
            {
                r = Err(e);
            }
        }
        guard.page = None;
        guard.context = None;
        drop(guard);
        match ctx {
            Some(ctx) => self.tabs.close_private(&self.browser, tab, ctx).await,
            None => {
                self.tabs
                    .give_back(&self.browser, &self.opts, gen, tab)
                    .await
            }
        }
        (Some(gen), r, timings)
    }

    /// `--save-storage-state`: after the page and its actions, its context's cookies and its
    /// origin's localStorage, written atomically in Playwright's `storageState` shape. Not
    /// after the JavaScript-disabled fallback render (its page ran no script to keep a
    /// session with): the first render's file stands.
    async fn save_storage_state(
        &self,
        input: &str,
        tab: &Tab,
        ctx: &chromiumoxide::cdp::browser_protocol::browser::BrowserContextId,
        opts: &RenderOptions,
    ) -> Result<(), Error> {
        let Some(path) = opts.steer.save_storage_state.as_deref() else {
            return Ok(());
        };
        if !opts.javascript {
            return Ok(());
        }
        let Some(h) = self.browser.current().await else {
            return Err(Error::from(BrowserError::BrowserGone {
                message: "the browser went away before the storage state was saved".into(),
            }));
        };
        let state = steer::storage::capture(
            &h.browser,
            ctx,
            &tab.page,
            opts.steer.storage_state.as_ref(),
            input,
            opts.command_timeout,
        )
        .await?;
        steer::write_storage_state(path, &state)
    }

    /// The URL to load for an input (HTML bytes are put on the loopback server; the path to
    /// remove afterwards is returned too).
    fn prepare(&self, input: &Input) -> Result<(String, Option<String>), Error> {
        let name = input.name();
        let (url, served) = match input {
            Input::Url(u) => (u.clone(), None),
            Input::File(p) => {
                let abs = std::fs::canonicalize(p).map_err(|e| Error::Input {
                    input: name.clone(),
                    message: e.to_string(),
                    source: Some(Box::new(e)),
                })?;
                (format!("file://{}", abs.display()), None)
            }
            Input::Html { bytes, charset, .. } => {
                if encoding_rs::Encoding::for_label(charset.as_bytes()).is_none() {
                    return Err(Error::Charset {
                        input: name.clone(),
                        charset: charset.clone(),
                    });
                }
                let (url, path) = self
                    .server
                    .publish(bytes.clone(), &format!("text/html; charset={charset}"));
                (url, Some(path))
            }
        };
        Ok((url, served))
    }

    /// Close every tab and the browser, reap it and remove its profile.
    pub async fn shutdown(self) {
        self.tabs.reset().await;
        self.browser.shutdown().await;
    }
}

/// Test only: a page whose name ends with this panics in [`Renderer::render`] while it
/// holds the tab pool's set of owned targets, a lock every page takes (the batch tests check
/// that the next page is still served).
#[cfg(feature = "test-hooks")]
pub const PANIC_HOLDING_THE_TAB_POOL: &str = "panic-holding-the-tab-pool.html";

/// A page being rendered: on drop (finished, or its future dropped because the caller went
/// away) the page's HTML is unpublished, and a tab not handed back is closed in the
/// background so Chromium does not keep it (if that close does not go through, the next
/// sweeps find the target unowned and close it from the browser).
struct InFlight<'a> {
    server: &'a loopback::Server,
    tabs: &'a TabPool,
    served: Option<String>,
    page: Option<chromiumoxide::Page>,
    /// The page's own browser context (with the browser it is in), disposed on drop.
    context: Option<(
        std::sync::Arc<BrowserHandle>,
        chromiumoxide::cdp::browser_protocol::browser::BrowserContextId,
    )>,
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        if let Some(p) = self.served.take() {
            self.server.remove(&p);
        }
        if let Some(page) = self.page.take() {
            self.tabs.disown(page.target_id().inner());
            if let Ok(rt) = tokio::runtime::Handle::try_current() {
                rt.spawn(async move {
                    let _ = tokio::time::timeout(Duration::from_secs(2), page.close()).await;
                });
            }
        }
        if let Some((h, ctx)) = self.context.take() {
            if let Ok(rt) = tokio::runtime::Handle::try_current() {
                rt.spawn(async move {
                    steer::context::dispose(&h.browser, &ctx, Duration::from_secs(2)).await;
                });
            }
        }
    }
}
