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

pub mod browser;
pub mod checks;
pub mod dialogs;
pub mod egress;
pub mod guard;
pub mod loopback;
mod options;
pub mod pool;
pub mod reap;
pub mod scroll;
pub mod settle;
pub mod tab;
mod timings;
pub mod wrapper;

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use chromiumoxide::cdp::browser_protocol::target::CreateTargetParams;
use tokio::sync::{Mutex, RwLock, Semaphore};

pub use browser::{find_chrome, BrowserHandle, BrowserSource};
pub use egress::EgressPolicy;
pub use options::{Input, RenderOptions};
pub use pool::BrowserPool;
pub use scroll::{ScrollOptions, ScrollReport};
pub use tab::{Rendered, Tab};
pub use timings::Timings;

use options::{local_html, repair_unclosed_title};

use crate::Error;
/// Pages between two sweeps for page targets no tab owns.
const SWEEP_EVERY: usize = 25;
/// Pages between two reads of the browser's memory.
const MEMORY_EVERY: usize = 10;

/// The phase named by a timeout while opening a tab (retried once by the pool).
const OPENING_A_TAB: &str = "opening a tab";

/// One browser with a pool of tabs. A browser that dies (killed, crashed) is relaunched and
/// the pages that were in flight are retried once; a crashed tab is replaced and its page
/// retried once on a fresh tab.
///
/// Long runs stay bounded: tabs are replaced after `recycle_tab_after` pages; every
/// [`SWEEP_EVERY`] pages, page targets of a launched browser that no tab owns (pop-ups a page
/// opened, a tab whose close did not go through) are closed once seen in two sweeps; and a
/// launched browser is relaunched after `recycle_browser_after` pages or when its memory
/// passes `max_browser_memory`, after the pages in flight finish (a write lock on `gate`,
/// which every page holds for reading).
pub struct Renderer {
    opts: RenderOptions,
    browser: Mutex<Option<Arc<BrowserHandle>>>,
    generation: AtomicU64,
    tabs: Mutex<Vec<(u64, Tab)>>,
    slots: Semaphore,
    server: loopback::Server,
    next_id: AtomicUsize,
    relaunches: AtomicUsize,
    gate: RwLock<()>,
    /// Target ids of the tabs this renderer opened and has not closed.
    owned: std::sync::Mutex<HashSet<String>>,
    /// Unowned page targets seen by the last sweep.
    suspects: std::sync::Mutex<HashSet<String>>,
    /// Pages rendered by the current browser.
    pages: AtomicUsize,
    recycling: AtomicBool,
    recycles: AtomicUsize,
    reaped: AtomicUsize,
    /// Held by the tab that is scrolling (only the front tab of a window renders frames).
    front: scroll::Front,
    /// The egress proxy every connection of the launched browser goes through
    /// ([`RenderOptions::egress`]).
    egress: Option<egress::EgressProxy>,
    /// The extra Chromium flags of every launch: the caller's, and the proxy's.
    launch_args: Vec<String>,
    /// Milliseconds the browser took to start.
    pub launch_ms: f64,
}

impl Renderer {
    /// Start the browser.
    pub async fn new(opts: RenderOptions) -> Result<Renderer, Error> {
        let server = loopback::Server::start(None)
            .await
            .map_err(|e| Error::Launch {
                path: "127.0.0.1".into(),
                message: format!("cannot start the loopback server: {e}"),
                source: Some(Box::new(e)),
            })?;
        let (egress, launch_args) = Self::start_egress(&opts, &server).await?;
        let t = Instant::now();
        let handle =
            BrowserHandle::start(&opts.browser, opts.viewport, LAUNCH_TIMEOUT, &launch_args)
                .await?;
        let launch_ms = t.elapsed().as_secs_f64() * 1000.0;
        Ok(Renderer {
            slots: Semaphore::new(opts.concurrency.max(1)),
            opts,
            browser: Mutex::new(Some(Arc::new(handle))),
            generation: AtomicU64::new(0),
            tabs: Mutex::new(Vec::new()),
            server,
            next_id: AtomicUsize::new(0),
            relaunches: AtomicUsize::new(0),
            gate: RwLock::new(()),
            owned: std::sync::Mutex::new(HashSet::new()),
            suspects: std::sync::Mutex::new(HashSet::new()),
            pages: AtomicUsize::new(0),
            recycling: AtomicBool::new(false),
            recycles: AtomicUsize::new(0),
            reaped: AtomicUsize::new(0),
            front: scroll::Front::default(),
            egress,
            launch_args,
            launch_ms,
        })
    }

    /// The egress proxy of [`RenderOptions::egress`] (for a launched browser), allowing the
    /// renderer's own page server `server` by address and port, and the launch flags with
    /// the proxy's.
    async fn start_egress(
        opts: &RenderOptions,
        server: &loopback::Server,
    ) -> Result<(Option<egress::EgressProxy>, Vec<String>), Error> {
        let mut args = opts.chrome_args.clone();
        let Some(policy) = &opts.egress else {
            return Ok((None, args));
        };
        if let BrowserSource::Connect(url) = &opts.browser {
            tracing::warn!(
                "{url}: a browser sightline connects to keeps its own proxy settings; the egress proxy covers launched browsers only (requests are still checked by the target policy)"
            );
            return Ok((None, args));
        }
        let mut policy = policy.clone();
        policy
            .allow_hosts
            .push(format!("127.0.0.1:{}", server.port()));
        let proxy = egress::EgressProxy::start(policy)
            .await
            .map_err(|e| Error::Launch {
                path: "127.0.0.1".into(),
                message: format!("cannot start the egress proxy: {e}"),
                source: Some(Box::new(e)),
            })?;
        tracing::debug!("egress proxy on {}", proxy.addr());
        args.extend(proxy.chrome_args());
        Ok((Some(proxy), args))
    }

    /// The egress proxy's refusals, failures and counts (None without one).
    pub fn egress(&self) -> Option<std::sync::Arc<egress::Log>> {
        self.egress.as_ref().map(|p| p.log())
    }

    /// The options in force.
    pub fn options(&self) -> &RenderOptions {
        &self.opts
    }

    /// Tabs rendering a page now.
    pub fn busy(&self) -> usize {
        self.opts.concurrency.max(1) - self.slots.available_permits()
    }

    /// How many times the browser was relaunched after dying.
    pub fn relaunches(&self) -> usize {
        self.relaunches.load(Ordering::SeqCst)
    }

    /// How many times a healthy browser was relaunched at its page or memory bound.
    pub fn recycles(&self) -> usize {
        self.recycles.load(Ordering::SeqCst)
    }

    /// Page targets closed because no tab owned them.
    pub fn reaped(&self) -> usize {
        self.reaped.load(Ordering::SeqCst)
    }

    /// Page targets the browser has open now (tabs, pop-ups), or None when it does not answer.
    pub async fn page_targets(&self) -> Option<usize> {
        let h = self.browser.lock().await.clone()?;
        h.page_targets(Duration::from_secs(2))
            .await
            .ok()
            .map(|t| t.len())
    }

    /// After a failed page: is the browser still there? Pending calls can fail ("oneshot
    /// canceled") a moment before the handler reports the closed connection, so a browser
    /// that does not answer `Browser.getVersion` within 2 s is marked gone.
    async fn probe_gone(&self, e: &Error) -> bool {
        if matches!(
            e,
            Error::Input { .. }
                | Error::Charset { .. }
                | Error::TooLarge { .. }
                | Error::Http { .. }
                | Error::ContentType { .. }
        ) {
            return self.is_gone().await;
        }
        let h = match self.browser.lock().await.as_ref() {
            Some(h) if !h.is_gone() => h.clone(),
            _ => return true,
        };
        let alive = matches!(
            tokio::time::timeout(Duration::from_secs(2), h.browser.version()).await,
            Ok(Ok(_))
        );
        if !alive {
            h.gone.store(true, Ordering::SeqCst);
        }
        !alive
    }

    async fn is_gone(&self) -> bool {
        self.browser
            .lock()
            .await
            .as_ref()
            .is_none_or(|h| h.is_gone())
    }

    /// The live browser and its generation; a dead launched browser is replaced first.
    async fn handle(&self) -> Result<(u64, Arc<BrowserHandle>), Error> {
        let mut g = self.browser.lock().await;
        if let Some(h) = g.as_ref().filter(|h| !h.is_gone()) {
            return Ok((self.generation.load(Ordering::SeqCst), h.clone()));
        }
        if let BrowserSource::Connect(url) = &self.opts.browser {
            return Err(Error::BrowserGone {
                message: format!("the browser at {url} closed the connection"),
            });
        }
        if let Some(old) = g.take() {
            if let Ok(old) = Arc::try_unwrap(old) {
                old.kill().await;
            }
        }
        tracing::warn!("the browser died; relaunching it");
        let r = self.launch_into(&mut g).await;
        self.relaunches.fetch_add(1, Ordering::SeqCst);
        r
    }

    /// Launch a browser into the empty slot `g`: a new generation, with no tabs.
    async fn launch_into(
        &self,
        g: &mut Option<Arc<BrowserHandle>>,
    ) -> Result<(u64, Arc<BrowserHandle>), Error> {
        self.tabs.lock().await.clear();
        self.owned.lock().expect("owned").clear();
        self.suspects.lock().expect("suspects").clear();
        self.pages.store(0, Ordering::SeqCst);
        let h = Arc::new(
            BrowserHandle::start(
                &self.opts.browser,
                self.opts.viewport,
                LAUNCH_TIMEOUT,
                &self.launch_args,
            )
            .await?,
        );
        let gen = self.generation.fetch_add(1, Ordering::SeqCst) + 1;
        *g = Some(h.clone());
        Ok((gen, h))
    }

    /// After a page: count it, sweep for unowned targets now and then, and relaunch the
    /// browser when it reached its page or memory bound. Runs after the page let go of
    /// `gate` (the relaunch waits for the other pages in flight).
    async fn after_page(&self) {
        let n = self.pages.fetch_add(1, Ordering::SeqCst) + 1;
        let h = match self.browser.lock().await.as_ref() {
            Some(h) if h.launched() && !h.is_gone() => h.clone(),
            _ => return,
        };
        if n % SWEEP_EVERY == 0 {
            self.sweep(&h).await;
        }
        let mut why = None;
        if self.opts.recycle_browser_after > 0 && n >= self.opts.recycle_browser_after {
            why = Some(format!("after {n} pages"));
        } else if let Some(max) = self.opts.max_browser_memory {
            if n % MEMORY_EVERY == 0 {
                if let Some(m) = h.memory_bytes().filter(|&m| m > max) {
                    why = Some(format!(
                        "its processes use {} MiB, over the {} MiB bound",
                        m >> 20,
                        max >> 20
                    ));
                }
            }
        }
        drop(h);
        if let Some(why) = why {
            self.recycle(&why).await;
        }
    }

    /// Close page targets of the browser that no tab owns and that the previous sweep saw
    /// already (a tab being opened is not owned yet for a moment).
    async fn sweep(&self, h: &BrowserHandle) {
        let Ok(targets) = h.page_targets(Duration::from_secs(2)).await else {
            return;
        };
        let unowned: HashSet<String> = {
            let owned = self.owned.lock().expect("owned");
            targets
                .into_iter()
                .map(|(id, _)| id)
                .filter(|id| !owned.contains(id))
                .collect()
        };
        let stale: Vec<String> = {
            let mut prev = self.suspects.lock().expect("suspects");
            let stale = unowned.intersection(&prev).cloned().collect();
            *prev = unowned;
            stale
        };
        for id in &stale {
            h.close_target(id, Duration::from_secs(2)).await;
            self.suspects.lock().expect("suspects").remove(id);
        }
        if !stale.is_empty() {
            self.reaped.fetch_add(stale.len(), Ordering::SeqCst);
            tracing::info!("closed {} page target(s) no tab owned", stale.len());
        }
    }

    /// Relaunch a healthy launched browser: wait until no page is in flight (new pages wait
    /// too), close it, and start a fresh one.
    async fn recycle(&self, why: &str) {
        if self.recycling.swap(true, Ordering::SeqCst) {
            return;
        }
        let gate = self.gate.write().await;
        let mut g = self.browser.lock().await;
        if let Some(old) = g.take() {
            // Its tabs are dropped by `launch_into`.
            match Arc::try_unwrap(old) {
                Ok(old) => old.shutdown().await,
                // Still referenced (cannot happen with no page in flight): dropping the last
                // reference kills the process.
                Err(old) => old.gone.store(true, Ordering::SeqCst),
            }
        }
        match self.launch_into(&mut g).await {
            Ok(_) => {
                self.recycles.fetch_add(1, Ordering::SeqCst);
                tracing::info!("relaunched the browser {why}");
            }
            // The next page tries again, and reports the error if it fails again.
            Err(e) => tracing::warn!("relaunching the browser {why} failed: {e}"),
        }
        drop(g);
        drop(gate);
        self.recycling.store(false, Ordering::SeqCst);
    }

    /// A pooled tab of the live browser, or a new one. An error names the generation of the
    /// browser it was opened on when it got that far (so the caller can tell that browser
    /// died under it: another page may have relaunched it already).
    async fn take_tab(&self) -> Result<(u64, Tab), (Option<u64>, Error)> {
        loop {
            let popped = self.tabs.lock().await.pop();
            match popped {
                // The generation is read after `is_gone`, which waits out a relaunch in
                // progress: a tab of the dead browser must not be handed out after it.
                Some((gen, t))
                    if !self.is_gone().await && gen == self.generation.load(Ordering::SeqCst) =>
                {
                    return Ok((gen, t))
                }
                Some(_) => continue,
                None => break,
            }
        }
        let (gen, h) = self.handle().await.map_err(|e| (None, e))?;
        let at = |e| (Some(gen), e);
        let page = tokio::time::timeout(
            self.opts.command_timeout,
            h.browser.new_page(CreateTargetParams::new("about:blank")),
        )
        .await
        .map_err(|_| {
            at(Error::Timeout {
                input: "new tab".into(),
                phase: OPENING_A_TAB.into(),
                seconds: self.opts.command_timeout.as_secs_f64(),
            })
        })?
        .map_err(|e| {
            at(Error::Cdp {
                input: "new tab".into(),
                phase: OPENING_A_TAB.into(),
                message: e.to_string(),
            })
        })?;
        let id = page.target_id().inner().clone();
        self.owned.lock().expect("owned").insert(id.clone());
        match Tab::sharing_front(page.clone(), &self.opts, self.front.clone()).await {
            Ok(mut t) => {
                t.egress = self.egress();
                Ok((gen, t))
            }
            Err(e) => {
                self.owned.lock().expect("owned").remove(&id);
                h.close_target(&id, Duration::from_secs(2)).await;
                Err(at(e))
            }
        }
    }

    /// Put a tab back in the pool for its next page, or close it. A tab that is kept has its
    /// scripts disabled first, and leaves its page for `about:blank` unless the page rendered
    /// cleanly ([`Tab::park`]); one that
    /// cannot, or whose last navigation was refused or left it in doubt, is closed (the next
    /// page opens a fresh tab).
    async fn give_back(&self, gen: u64, mut tab: Tab) {
        if !tab.worn(self.opts.recycle_tab_after)
            && gen == self.generation.load(Ordering::SeqCst)
            && !self.is_gone().await
        {
            tab.park(&self.opts).await;
        }
        if tab.reusable(self.opts.recycle_tab_after)
            && gen == self.generation.load(Ordering::SeqCst)
            && !self.is_gone().await
        {
            self.tabs.lock().await.push((gen, tab));
        } else {
            let page = tab.page.clone();
            drop(tab);
            self.close_page(page).await;
        }
    }

    /// Close a tab's target in the background (the page's record does not wait for it): from
    /// its own session, and from the browser's when that does not answer (a renderer whose
    /// scripts never yield, a navigation that never ends). If neither goes through, the next
    /// sweeps find the target unowned and close it.
    async fn close_page(&self, page: chromiumoxide::Page) {
        let id = page.target_id().inner().clone();
        self.owned.lock().expect("owned").remove(&id);
        let h = self.browser.lock().await.clone();
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

    /// Render one input on a pooled tab. Several calls may run at once, up to `concurrency`.
    /// A crashed renderer or a lost browser gets one retry (on a fresh tab, in a relaunched
    /// browser); `Rendered::retries` says when that happened.
    pub async fn render(&self, input: &Input) -> Result<Rendered, Error> {
        self.render_with(input, self.opts.screenshot).await
    }

    /// [`Renderer::render`] with the screenshot asked for per page (the service decides per
    /// request). Dropping the returned future (a client that went away) closes its tab.
    pub async fn render_with(&self, input: &Input, screenshot: bool) -> Result<Rendered, Error> {
        self.render_timed(input, screenshot).await.0
    }

    /// [`Renderer::render_with`], with the phase timings of a failed page too (a `timeout`
    /// record shows where its time went); on success they are the page's own.
    pub async fn render_timed(
        &self,
        input: &Input,
        screenshot: bool,
    ) -> (Result<Rendered, Error>, Timings) {
        let slot = self.slots.acquire().await.expect("semaphore open");
        let gate = self.gate.read().await;
        let r = self.render_retrying(input, screenshot).await;
        drop(gate);
        drop(slot);
        self.after_page().await;
        r
    }

    /// One page: its attempts (a retry after a crash or a lost browser is a new navigation
    /// with a deadline of its own), and the renders that may follow a successful one (the
    /// title repair, the JavaScript-disabled fallback), which share its deadline.
    async fn render_retrying(
        &self,
        input: &Input,
        screenshot: bool,
    ) -> (Result<Rendered, Error>, Timings) {
        let mut opts = self.opts.clone();
        opts.screenshot = screenshot;
        let first = &opts;
        let mut retries = 0;
        loop {
            let started = Instant::now();
            let (used, r, timings) = self.render_once(input, first).await;
            let r = self
                .after_attempt(input, first, started, used, r, &mut retries)
                .await;
            match r {
                Attempt::Break(r) => return (r, timings),
                Attempt::Continue(()) => continue,
            }
        }
    }

    /// The options of a render that follows a successful one at `started`: the time left of
    /// that page's deadline, or None when less than [`FOLLOW_UP_MIN`] is left.
    fn follow_up(opts: &RenderOptions, started: Instant) -> Option<RenderOptions> {
        let left = (started + opts.timeout).saturating_duration_since(Instant::now());
        (left >= FOLLOW_UP_MIN).then(|| RenderOptions {
            timeout: left,
            ..opts.clone()
        })
    }

    /// What follows one attempt: the page (perhaps re-rendered), its error, or a retry.
    async fn after_attempt(
        &self,
        input: &Input,
        opts: &RenderOptions,
        started: Instant,
        used: Option<u64>,
        r: Result<Rendered, Error>,
        retries: &mut u32,
    ) -> Attempt {
        // The attempt's browser is gone if another page already replaced it, or if it does
        // not answer now.
        let gone = match &r {
            Ok(_) => false,
            Err(e) => {
                used.is_some_and(|g| g != self.generation.load(Ordering::SeqCst))
                    || self.probe_gone(e).await
            }
        };
        match r {
            Ok(mut r) => {
                r.retries = *retries;
                if let Some(fixed) = repair_unclosed_title(input, &r.snapshot) {
                    if let Some(left) = Self::follow_up(opts, started) {
                        tracing::info!("{}: the page's <title> is never closed; rendering it with the title closed", input.name());
                        let (_, again, _) = self.render_once(&fixed, &left).await;
                        if let Ok(mut again) = again {
                            again.repaired = Some("unclosed <title>".into());
                            return Attempt::Break(Ok(again));
                        }
                    }
                }
                Attempt::Break(Ok(self.javascript_fallback(input, r, opts, started).await))
            }
            // The page's scripts left nothing to walk (the root element removed, a document
            // emptied): try the page as its HTML has it, with JavaScript off.
            Err(e @ (Error::Script { .. } | Error::Snapshot { .. }))
                if opts.javascript && !gone =>
            {
                let again = match Self::follow_up(opts, started) {
                    Some(left) => Some(self.render_without_js(input, &left).await),
                    None => None,
                };
                Attempt::Break(match again {
                    Some(Ok(mut again)) if checks::snapshot_text_chars(&again.snapshot) > 0 => {
                        tracing::info!(
                            "{}: {e}; using the render with JavaScript disabled",
                            input.name()
                        );
                        again.retries = *retries;
                        Ok(again)
                    }
                    _ => Err(e),
                })
            }
            Err(e) => {
                // A tab that could not be opened in time (a loaded machine) gets one more try
                // too: nothing of the page ran yet. One that failed on a browser that died a
                // moment ago is `gone` (its generation is the dead browser's).
                let retryable = matches!(e, Error::Crashed { .. } | Error::BrowserGone { .. })
                    || matches!(&e, Error::Timeout { phase, .. } if phase == OPENING_A_TAB)
                    || gone;
                if *retries == 0 && retryable {
                    tracing::warn!("{}: {e}; retrying once on a fresh tab", input.name());
                    *retries += 1;
                    return Attempt::Continue(());
                }
                Attempt::Break(Err(if gone && !matches!(e, Error::BrowserGone { .. }) {
                    Error::BrowserGone {
                        message: e.to_string(),
                    }
                } else {
                    e
                }))
            }
        }
    }

    /// When the render shows far less text than the page's HTML holds (a script-built wall
    /// replaced the article, or the script that inserts it never ran and only `<noscript>`
    /// or a template holds it), render the page once more with JavaScript disabled and keep
    /// that snapshot if it shows much more text ([`checks::needs_js_fallback`],
    /// [`checks::fallback_is_better`]); `Rendered::javascript` then says
    /// `"disabled-fallback"`.
    /// The page rendered once more with script execution off, marked `"disabled-fallback"`:
    /// the one fallback render for both a render that shows too little and one whose scripts
    /// left nothing to snapshot.
    async fn render_without_js(
        &self,
        input: &Input,
        opts: &RenderOptions,
    ) -> Result<Rendered, Error> {
        let mut off = opts.clone();
        off.javascript = false;
        let mut again = self.render_once(input, &off).await.1?;
        again.javascript = Some("disabled-fallback".into());
        Ok(again)
    }

    async fn javascript_fallback(
        &self,
        input: &Input,
        mut r: Rendered,
        opts: &RenderOptions,
        started: Instant,
    ) -> Rendered {
        let decoded_as = r.snapshot.charset.as_str();
        let misread_possible = !decoded_as.is_empty() && !decoded_as.eq_ignore_ascii_case("utf-8");
        if r.html_text_chars.is_none() || misread_possible {
            if let Some((bytes, charset)) = local_html(input) {
                // A file given without --charset, decoded as its own `<meta charset>` says,
                // whose bytes are UTF-8: extracted as a browser shows it, and said.
                if misread_possible
                    && matches!(input, Input::File(_))
                    && crate::charset::is_utf8_text(&bytes)
                {
                    tracing::warn!(
                        "{}: Chromium read it as {decoded_as}, as the page declares, but its bytes are UTF-8; if the text looks garbled, pass --charset utf-8",
                        input.name()
                    );
                }
                if r.html_text_chars.is_none() {
                    r.html_text_chars =
                        Some(checks::html_text_chars(&checks::decode(&bytes, charset)));
                }
            }
        }
        let Some(html) = r.html_text_chars else {
            return r;
        };
        let shown = checks::snapshot_text_chars(&r.snapshot);
        if !checks::needs_js_fallback(shown, html) {
            return r;
        }
        let Some(left) = Self::follow_up(opts, started) else {
            tracing::debug!(
                "{}: the render shows {shown} of the HTML's {html} characters of text, but too little of the page's deadline is left for a render with JavaScript disabled",
                input.name()
            );
            return r;
        };
        let again = self.render_without_js(input, &left).await;
        if let Ok(a) = &again {
            tracing::debug!(
                "{}: the render shows {shown} of the HTML's {html} characters of text; with JavaScript disabled, {}",
                input.name(),
                checks::snapshot_text_chars(&a.snapshot)
            );
        }
        match again {
            Ok(mut again)
                if checks::fallback_is_better(
                    shown,
                    checks::snapshot_text_chars(&again.snapshot),
                ) =>
            {
                tracing::info!(
                    "{}: the render showed {shown} of the HTML's {html} characters of text; using the render with JavaScript disabled",
                    input.name()
                );
                again.retries = r.retries;
                again.repaired = r.repaired.take();
                again.dialogs += r.dialogs;
                again.blocked_requests += r.blocked_requests;
                again.blocked_navigations += r.blocked_navigations;
                again
            }
            Ok(_) => r,
            Err(e) => {
                tracing::debug!(
                    "{}: the JavaScript-disabled render failed: {e}",
                    input.name()
                );
                r
            }
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
            owned: &self.owned,
            served,
            page: None,
        };
        let (gen, mut tab) = match self.take_tab().await {
            Ok(t) => t,
            Err((gen, e)) => return (gen, Err(e), Timings::default()),
        };
        guard.page = Some(tab.page.clone());
        let mut page_opts;
        let opts = if guard.served.is_some() && opts.policy.is_some() {
            page_opts = opts.clone();
            page_opts.exempt_origin = Some(self.server.url(""));
            &page_opts
        } else {
            opts
        };
        let r = tab.render(&input.name(), &url, opts).await;
        let timings = tab.timings();
        guard.page = None;
        drop(guard);
        self.give_back(gen, tab).await;
        (Some(gen), r, timings)
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
                let n = self.next_id.fetch_add(1, Ordering::SeqCst);
                let path = format!("/page-{n}.html");
                let url = self.server.insert(
                    &path,
                    bytes.clone(),
                    &format!("text/html; charset={charset}"),
                );
                (url, Some(path))
            }
        };
        Ok((url, served))
    }

    /// Close every tab and the browser, reap it and remove its profile.
    pub async fn shutdown(self) {
        self.tabs.lock().await.clear();
        if let Some(h) = self.browser.lock().await.take() {
            if let Ok(h) = Arc::try_unwrap(h) {
                h.shutdown().await;
            }
        }
    }
}

/// A page being rendered: on drop (finished, or its future dropped because the caller went
/// away) the page's HTML is unpublished, and a tab not handed back is closed in the
/// background so Chromium does not keep it (if that close does not go through, the next
/// sweeps find the target unowned and close it from the browser).
struct InFlight<'a> {
    server: &'a loopback::Server,
    owned: &'a std::sync::Mutex<HashSet<String>>,
    served: Option<String>,
    page: Option<chromiumoxide::Page>,
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        if let Some(p) = self.served.take() {
            self.server.remove(&p);
        }
        if let Some(page) = self.page.take() {
            if let Ok(mut owned) = self.owned.lock() {
                owned.remove(page.target_id().inner());
            }
            if let Ok(rt) = tokio::runtime::Handle::try_current() {
                rt.spawn(async move {
                    let _ = tokio::time::timeout(Duration::from_secs(2), page.close()).await;
                });
            }
        }
    }
}
/// How an attempt at a page ended: the page's result, or another attempt.
type Attempt = std::ops::ControlFlow<Result<Rendered, Error>>;

/// The least time left of a page's deadline for a render that follows its first (the title
/// repair, the JavaScript-disabled fallback); with less, the first render stands.
const FOLLOW_UP_MIN: Duration = Duration::from_secs(1);

/// How long a browser may take to start.
const LAUNCH_TIMEOUT: Duration = Duration::from_secs(30);
