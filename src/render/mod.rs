//! Rendering: the only code that talks to Chromium.
//!
//! A [`Renderer`] owns one browser (launched, or connected with `--browser-ws`) and a pool of
//! reused tabs (opening a tab costs ~150-200 ms of Chromium CPU; reusing one is 2-4x cheaper).
//! [`Renderer::render`] takes an [`Input`] to a [`Rendered`] page: navigate, settle, snapshot,
//! screenshot, each bounded by a deadline. Every await on the browser has a timeout: the
//! crate's own request timeout does not fire on an otherwise idle connection.

pub mod browser;
pub mod checks;
pub mod dialogs;
pub mod guard;
pub mod loopback;
pub mod pool;
pub mod reap;
pub mod scroll;
pub mod settle;
pub mod tab;
mod timings;
pub mod wrapper;

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use chromiumoxide::cdp::browser_protocol::target::CreateTargetParams;
use tokio::sync::{Mutex, RwLock, Semaphore};

pub use browser::{find_chrome, BrowserHandle, BrowserSource};
pub use pool::BrowserPool;
pub use scroll::{ScrollOptions, ScrollReport};
pub use tab::{Rendered, Tab};
pub use timings::Timings;

use crate::Error;

/// How pages are rendered.
#[derive(Debug, Clone)]
pub struct RenderOptions {
    /// Where the browser comes from.
    pub browser: BrowserSource,
    /// Viewport in CSS px (default 1366x900).
    pub viewport: (u32, u32),
    /// Deadline for one page: navigation, settling and snapshot (default 15 s).
    pub timeout: Duration,
    /// DOM quiet window of the settle rule (`settle.rs`): after `load`, a DOM change made by a
    /// script must be followed by this long without one (default 100 ms).
    pub quiet: Duration,
    /// The scroll phase before the snapshot (`scroll.rs`).
    pub scroll: ScrollOptions,
    /// Limit for one small browser command (default 10 s).
    pub command_timeout: Duration,
    /// Abort every request but the page's own document and same-origin loopback resources.
    pub offline: bool,
    /// Take a full-page PNG after the snapshot.
    pub screenshot: bool,
    /// Screenshots are cut at this height in CSS px (default 16,384).
    pub max_screenshot_height: u32,
    /// Pages with more snapshot nodes fail with a too-large error (default 200,000).
    pub max_nodes: usize,
    /// Tabs used at once (default 1).
    pub concurrency: usize,
    /// Extra Chromium flags, without leading dashes (`js-flags=--max-old-space-size=128`).
    pub chrome_args: Vec<String>,
    /// Close a tab and open a fresh one after it rendered this many pages (0: never), so a
    /// long run does not keep growing one renderer's memory (default 100).
    pub recycle_tab_after: usize,
    /// Relaunch a launched browser after it rendered this many pages (0: never). In-flight
    /// pages finish first and new ones wait for the fresh browser, so no page is lost
    /// (default 2,000).
    pub recycle_browser_after: usize,
    /// Relaunch a launched browser the same way when the summed resident memory of its
    /// processes passes this many bytes (checked every few pages; None: no bound). The CLI
    /// sets 1 GiB plus 512 MiB per tab unless told otherwise.
    pub max_browser_memory: Option<u64>,
    /// Targets the page may reach, checked by the browser for every request (redirects and
    /// subresources included); `None` checks nothing (the CLI). `sightline serve` sets it.
    pub policy: Option<guard::NetPolicy>,
    /// An origin exempt from `policy`: the renderer's own loopback server, which serves the
    /// HTML a caller sent (set per page by the renderer).
    pub exempt_origin: Option<String>,
    /// Extract main documents answered with an HTTP error status (>= 400) instead of
    /// failing them with an `http` error.
    pub accept_http_errors: bool,
    /// Run the page's scripts (default). The JavaScript-disabled fallback render turns this
    /// off for one page.
    pub javascript: bool,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            browser: BrowserSource::Launch(None),
            viewport: (1366, 900),
            timeout: Duration::from_secs(15),
            quiet: Duration::from_millis(100),
            scroll: ScrollOptions::default(),
            command_timeout: Duration::from_secs(10),
            offline: false,
            screenshot: false,
            max_screenshot_height: 16_384,
            max_nodes: 200_000,
            concurrency: 1,
            chrome_args: Vec::new(),
            recycle_tab_after: 100,
            recycle_browser_after: 2_000,
            max_browser_memory: None,
            policy: None,
            exempt_origin: None,
            accept_http_errors: false,
            javascript: true,
        }
    }
}

/// A page to render.
#[derive(Debug, Clone)]
pub enum Input {
    /// A URL (http, https, file, about, data).
    Url(String),
    /// A local file.
    File(PathBuf),
    /// HTML bytes with a charset (stdin, benchmark pages): served on a loopback server with
    /// the charset in `Content-Type`, so pages without a `<meta charset>` decode right.
    Html {
        name: String,
        bytes: Vec<u8>,
        charset: String,
    },
}

impl Input {
    /// Interpret a command-line argument: `-` is stdin (read by the caller), an existing path
    /// is a file, anything with a scheme is a URL. A URL whose scheme sightline does not
    /// render (ftp:, ws:, ...) is an input error naming the schemes it does
    /// ([`checks::SUPPORTED_SCHEMES`]).
    pub fn parse(arg: &str) -> Result<Input, Error> {
        if arg.contains("://") || arg.starts_with("about:") || arg.starts_with("data:") {
            checks::check_url(arg).map_err(|message| Error::Input {
                input: arg.into(),
                message,
                source: None,
            })?;
            return Ok(Input::Url(arg.to_string()));
        }
        let p = PathBuf::from(arg);
        if p.is_file() {
            return Ok(Input::File(p));
        }
        if p.exists() {
            return Err(Error::Input {
                input: arg.into(),
                message: "is not a file".into(),
                source: None,
            });
        }
        if arg.contains('.')
            && !arg.contains('/')
            && !arg.ends_with(".html")
            && !arg.ends_with(".htm")
        {
            return Ok(Input::Url(format!("https://{arg}")));
        }
        Err(Error::Input {
            input: arg.into(),
            message: "no such file, and not a URL (URLs need a scheme such as https://)".into(),
            source: None,
        })
    }

    /// The name used in messages and records.
    pub fn name(&self) -> String {
        match self {
            Input::Url(u) => u.clone(),
            Input::File(p) => p.display().to_string(),
            Input::Html { name, .. } => name.clone(),
        }
    }
}

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
    /// Milliseconds the browser took to start.
    pub launch_ms: f64,
}

impl Renderer {
    /// Start the browser.
    pub async fn new(opts: RenderOptions) -> Result<Renderer, Error> {
        let t = Instant::now();
        let handle = BrowserHandle::start(
            &opts.browser,
            opts.viewport,
            LAUNCH_TIMEOUT,
            &opts.chrome_args,
        )
        .await?;
        let launch_ms = t.elapsed().as_secs_f64() * 1000.0;
        let server = loopback::Server::start(None)
            .await
            .map_err(|e| Error::Launch {
                path: "127.0.0.1".into(),
                message: format!("cannot start the loopback server: {e}"),
                source: Some(Box::new(e)),
            })?;
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
            launch_ms,
        })
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
                &self.opts.chrome_args,
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

    async fn take_tab(&self) -> Result<(u64, Tab), Error> {
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
        let (gen, h) = self.handle().await?;
        let page = tokio::time::timeout(
            self.opts.command_timeout,
            h.browser.new_page(CreateTargetParams::new("about:blank")),
        )
        .await
        .map_err(|_| Error::Timeout {
            input: "new tab".into(),
            phase: OPENING_A_TAB.into(),
            seconds: self.opts.command_timeout.as_secs_f64(),
        })?
        .map_err(|e| Error::Cdp {
            input: "new tab".into(),
            phase: OPENING_A_TAB.into(),
            message: e.to_string(),
        })?;
        let id = page.target_id().inner().clone();
        self.owned.lock().expect("owned").insert(id.clone());
        match Tab::sharing_front(page.clone(), &self.opts, self.front.clone()).await {
            Ok(t) => Ok((gen, t)),
            Err(e) => {
                self.owned.lock().expect("owned").remove(&id);
                h.close_target(&id, Duration::from_secs(2)).await;
                Err(e)
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

    /// Close a tab's target: from its own session, and from the browser's when that does
    /// not answer (a renderer whose scripts never yield).
    async fn close_page(&self, page: chromiumoxide::Page) {
        let id = page.target_id().inner().clone();
        self.owned.lock().expect("owned").remove(&id);
        if !matches!(
            tokio::time::timeout(Duration::from_secs(2), page.close()).await,
            Ok(Ok(()))
        ) {
            let h = self.browser.lock().await.clone();
            if let Some(h) = h.filter(|h| !h.is_gone()) {
                h.close_target(&id, Duration::from_secs(2)).await;
            }
        }
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
        let slot = self.slots.acquire().await.expect("semaphore open");
        let gate = self.gate.read().await;
        let r = self.render_retrying(input, screenshot).await;
        drop(gate);
        drop(slot);
        self.after_page().await;
        r
    }

    async fn render_retrying(&self, input: &Input, screenshot: bool) -> Result<Rendered, Error> {
        let mut opts = self.opts.clone();
        opts.screenshot = screenshot;
        let opts = &opts;
        let mut retries = 0;
        loop {
            let (used, r) = self.render_once(input, opts).await;
            // The attempt's browser is gone if another page already replaced it, or if it
            // does not answer now.
            let gone = match &r {
                Ok(_) => false,
                Err(e) => {
                    used.is_some_and(|g| g != self.generation.load(Ordering::SeqCst))
                        || self.probe_gone(e).await
                }
            };
            match r {
                Ok(mut r) => {
                    r.retries = retries;
                    if let Some(fixed) = repair_unclosed_title(input, &r.snapshot) {
                        tracing::info!("{}: the page's <title> is never closed; rendering it with the title closed", input.name());
                        let (_, again) = self.render_once(&fixed, opts).await;
                        if let Ok(mut again) = again {
                            again.repaired = Some("unclosed <title>".into());
                            return Ok(again);
                        }
                    }
                    return Ok(self.javascript_fallback(input, r, opts).await);
                }
                // The page's scripts left nothing to walk (the root element removed, a
                // document emptied): try the page as its HTML has it, with JavaScript off.
                Err(e @ (Error::Script { .. } | Error::Snapshot { .. }))
                    if opts.javascript && !gone =>
                {
                    return match self.render_without_js(input, opts).await {
                        Ok(mut again) if checks::snapshot_text_chars(&again.snapshot) > 0 => {
                            tracing::info!(
                                "{}: {e}; using the render with JavaScript disabled",
                                input.name()
                            );
                            again.retries = retries;
                            Ok(again)
                        }
                        _ => Err(e),
                    };
                }
                Err(e) => {
                    // A tab that could not be opened in time (a loaded machine) gets one
                    // more try too: nothing of the page ran yet.
                    let retryable = matches!(e, Error::Crashed { .. } | Error::BrowserGone { .. })
                        || matches!(&e, Error::Timeout { phase, .. } if phase == OPENING_A_TAB)
                        || gone;
                    if retries == 0 && retryable {
                        tracing::warn!("{}: {e}; retrying once on a fresh tab", input.name());
                        retries += 1;
                        continue;
                    }
                    return Err(if gone && !matches!(e, Error::BrowserGone { .. }) {
                        Error::BrowserGone {
                            message: e.to_string(),
                        }
                    } else {
                        e
                    });
                }
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
    ) -> Rendered {
        let decoded_as = r.snapshot.charset.as_str();
        let misread_possible = !decoded_as.is_empty() && !decoded_as.eq_ignore_ascii_case("utf-8");
        if r.html_text_chars.is_none() || misread_possible {
            if let Some((bytes, charset)) = local_html(input) {
                // A file given without --charset, decoded as its own `<meta charset>` says,
                // whose bytes are UTF-8: extracted as a browser shows it, and said.
                if misread_possible
                    && matches!(input, Input::File(_))
                    && checks::is_utf8_text(&bytes)
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
        let again = self.render_without_js(input, opts).await;
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
    ) -> (Option<u64>, Result<Rendered, Error>) {
        let (url, served) = match self.prepare(input) {
            Err(e) => return (None, Err(e)),
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
            Err(e) => return (None, Err(e)),
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
        guard.page = None;
        drop(guard);
        self.give_back(gen, tab).await;
        (Some(gen), r)
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

/// The HTML of a file or byte input and the charset it was given with (URL inputs get
/// theirs from the main document's response).
fn local_html(input: &Input) -> Option<(std::borrow::Cow<'_, [u8]>, Option<&str>)> {
    match input {
        Input::Url(_) => None,
        Input::File(p) => Some((std::fs::read(p).ok()?.into(), None)),
        Input::Html { bytes, charset, .. } => {
            Some((bytes.as_slice().into(), Some(charset.as_str())))
        }
    }
}

/// A page whose `<title>` is never closed is all title to an HTML parser (the body stays
/// empty); lenient parsers end the title at the next tag. For HTML given as bytes whose
/// render came out with no text and a title longer than 1,000 characters, the bytes with
/// `</title>` inserted before the first tag after `<title>`.
fn repair_unclosed_title(input: &Input, snap: &crate::Snapshot) -> Option<Input> {
    let Input::Html {
        name,
        bytes,
        charset,
    } = input
    else {
        return None;
    };
    if snap.title.chars().count() <= 1000 || snap.nodes.iter().any(|n| n.text.is_some()) {
        return None;
    }
    let lower: Vec<u8> = bytes.iter().map(|b| b.to_ascii_lowercase()).collect();
    let find = |hay: &[u8], needle: &[u8], from: usize| {
        hay[from..]
            .windows(needle.len())
            .position(|w| w == needle)
            .map(|p| p + from)
    };
    let open = find(&lower, b"<title", 0)?;
    let start = find(&lower, b">", open)? + 1;
    // An end tag is `</title` followed by whitespace, `/` or `>` (`</titlevalue="x">` is not).
    let mut from = start;
    while let Some(at) = find(&lower, b"</title", from) {
        match lower.get(at + 7) {
            None | Some(b'\t' | b'\n' | b'\x0c' | b'\r' | b' ' | b'/' | b'>') => return None,
            Some(_) => from = at + 7,
        }
    }
    let end = find(&lower, b"<", start).unwrap_or(bytes.len());
    let mut fixed = bytes[..end].to_vec();
    fixed.extend_from_slice(b"</title>");
    fixed.extend_from_slice(&bytes[end..]);
    Some(Input::Html {
        name: name.clone(),
        bytes: fixed,
        charset: charset.clone(),
    })
}

/// How long a browser may take to start.
const LAUNCH_TIMEOUT: Duration = Duration::from_secs(30);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::SnapshotBuilder;

    #[test]
    fn an_unclosed_title_is_closed_before_the_next_tag() {
        let html = b"<html><head><TITLE>News story(Site)broken script text</head><body><p>Body</p></body></html>".to_vec();
        let input = Input::Html {
            name: "p".into(),
            bytes: html,
            charset: "utf-8".into(),
        };
        let mut b = SnapshotBuilder::new(1000.0);
        b.title(&"x".repeat(1200));
        let snap = b.build();
        let Some(Input::Html { bytes, .. }) = repair_unclosed_title(&input, &snap) else {
            panic!("repaired")
        };
        assert_eq!(
            String::from_utf8(bytes).unwrap(),
            "<html><head><TITLE>News story(Site)broken script text</title></head><body><p>Body</p></body></html>"
        );
        // `</titlevalue="true" -->` (a broken template comment) does not end the title.
        let input = Input::Html {
            name: "p".into(),
            bytes: b"<head><title>Story</titlevalue=\"true\" --></head><body><p>Body</p></body>"
                .to_vec(),
            charset: "utf-8".into(),
        };
        let Some(Input::Html { bytes, .. }) = repair_unclosed_title(&input, &snap) else {
            panic!("repaired")
        };
        assert!(String::from_utf8(bytes)
            .unwrap()
            .starts_with("<head><title>Story</title></titlevalue"));
        // A real end tag, even with an attribute-like tail, is left alone.
        let input = Input::Html {
            name: "p".into(),
            bytes: b"<head><title>Story</title ></head><body><p>Body</p></body>".to_vec(),
            charset: "utf-8".into(),
        };
        assert!(repair_unclosed_title(&input, &snap).is_none());
        // A normal page, or a page with text, is left alone.
        let short = SnapshotBuilder::new(1000.0).build();
        assert!(repair_unclosed_title(&input, &short).is_none());
        let mut with_text = SnapshotBuilder::new(1000.0);
        with_text.title(&"x".repeat(1200));
        with_text.text(0, "visible");
        assert!(repair_unclosed_title(&input, &with_text.build()).is_none());
    }
}
