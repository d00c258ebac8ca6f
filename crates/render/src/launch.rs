//! The browser's lifetime behind one renderer: the first launch (with its egress proxy, kept
//! for the renderer's life), the relaunch of a browser that died, the recycling of a healthy
//! one at its page or memory bound, and the generation that tells a tab of the live browser
//! from one of a browser gone.
//!
//! What a relaunch does to the tabs is the caller's: each relaunch path takes a `reset`
//! future (the tab pool's), awaited before the new browser starts, so this module knows
//! nothing of tabs.

use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::{Mutex, RwLock, RwLockReadGuard};

use super::browser::{BrowserHandle, BrowserSource};
use super::options::RenderOptions;
use crate::error::BrowserError;
use crate::Error;
use sightline_egress::upstream::{ProxyScheme, ProxyUrl};
use sightline_egress::{EgressPolicy, EgressProxy, Log};

/// Pages between two reads of the browser's memory.
const MEMORY_EVERY: usize = 10;

/// How long a browser may take to start.
const LAUNCH_TIMEOUT: Duration = Duration::from_secs(30);

/// Clears its flag when dropped.
struct Clear<'a>(&'a AtomicBool);

impl Drop for Clear<'_> {
    fn drop(&mut self) {
        self.0.store(false, Ordering::SeqCst);
    }
}

/// The live browser of a renderer, its generation, and what its launches need.
///
/// A launched browser is relaunched after `recycle_browser_after` pages or when its memory
/// passes `max_browser_memory`, after the pages in flight finish: a write lock on `gate`,
/// which every page holds for reading ([`Launcher::enter`]).
pub(super) struct Launcher {
    /// The live browser (None while one is being replaced, and after shutdown).
    browser: Mutex<Option<Arc<BrowserHandle>>>,
    /// Bumped at each launch; a tab carries the generation it was opened in.
    generation: AtomicU64,
    /// The extra Chromium flags of every launch: the caller's, and the proxy's.
    launch_args: Vec<String>,
    /// The egress proxy every connection of the launched browser goes through
    /// ([`RenderOptions::egress`]).
    egress: Option<EgressProxy>,
    /// Pages rendered by the current browser.
    pages: AtomicUsize,
    /// Held for reading by every page in flight, for writing by a recycle.
    gate: RwLock<()>,
    /// A recycle is under way (a second one is not started).
    recycling: AtomicBool,
    /// Relaunches after the browser died.
    relaunches: AtomicUsize,
    /// Planned relaunches of a healthy browser (at its page or memory bound).
    recycles: AtomicUsize,
}

impl Launcher {
    /// Start the egress proxy (when `opts` asks for one) and launch, or connect to, the
    /// browser; with the milliseconds the browser took to start.
    pub(super) async fn start(
        opts: &RenderOptions,
        page_server_port: u16,
    ) -> Result<(Launcher, f64), Error> {
        let connected = match &opts.browser {
            BrowserSource::Connect(url) => Some(url.as_str()),
            _ => None,
        };
        let mut chrome_args = opts.chrome_args.clone();
        if let (Some(ua), None) = (&opts.user_agent, connected) {
            // Browser-wide, browser contexts included (a connected browser's tabs get it
            // one by one: `TabPool`).
            chrome_args.push(format!("user-agent={ua}"));
        }
        let (egress, launch_args) = egress_for_launch(
            opts.egress(),
            connected,
            page_server_port,
            chrome_args,
            opts.proxy.as_deref(),
        )
        .await?;
        let t = Instant::now();
        let handle =
            BrowserHandle::start(&opts.browser, opts.viewport, LAUNCH_TIMEOUT, &launch_args)
                .await?;
        let launch_ms = t.elapsed().as_secs_f64() * 1000.0;
        let launcher = Launcher {
            browser: Mutex::new(Some(Arc::new(handle))),
            generation: AtomicU64::new(0),
            launch_args,
            egress,
            pages: AtomicUsize::new(0),
            gate: RwLock::new(()),
            recycling: AtomicBool::new(false),
            relaunches: AtomicUsize::new(0),
            recycles: AtomicUsize::new(0),
        };
        Ok((launcher, launch_ms))
    }

    /// The egress proxy's refusals, failures and counts (None without one).
    pub(super) fn egress(&self) -> Option<Arc<Log>> {
        self.egress.as_ref().map(|p| p.log())
    }

    /// The proxy settings of this renderer's launches, for the browser contexts it creates
    /// for pages with a session of their own.
    pub(super) fn context_proxy(&self) -> super::steer::context::ContextProxy {
        super::steer::context::ContextProxy::from_args(&self.launch_args)
    }

    /// How many times the browser was relaunched after dying.
    pub(super) fn relaunches(&self) -> usize {
        self.relaunches.load(Ordering::SeqCst)
    }

    /// How many times a healthy browser was relaunched at its page or memory bound.
    pub(super) fn recycles(&self) -> usize {
        self.recycles.load(Ordering::SeqCst)
    }

    /// The generation of the live browser.
    pub(super) fn generation(&self) -> u64 {
        self.generation.load(Ordering::SeqCst)
    }

    /// The browser now, dead or alive (None while it is being replaced).
    pub(super) async fn current(&self) -> Option<Arc<BrowserHandle>> {
        self.browser.lock().await.clone()
    }

    /// A page starts: it holds this until it is done, so a recycle waits for it.
    pub(super) async fn enter(&self) -> RwLockReadGuard<'_, ()> {
        self.gate.read().await
    }

    /// After a failed page: is the browser still there? Pending calls can fail ("oneshot
    /// canceled") a moment before the handler reports the closed connection, so a browser
    /// that does not answer `Browser.getVersion` within 2 s is marked gone.
    pub(super) async fn probe_gone(&self, e: &Error) -> bool {
        if matches!(
            e,
            Error::Input { .. }
                | Error::Charset { .. }
                | Error::TooLarge { .. }
                | Error::Http { .. }
                | Error::ContentType { .. }
                | Error::Document { .. }
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

    /// Is the browser gone (or being replaced)? Waits out a relaunch in progress.
    pub(super) async fn is_gone(&self) -> bool {
        self.browser
            .lock()
            .await
            .as_ref()
            .is_none_or(|h| h.is_gone())
    }

    /// The live browser and its generation; a dead launched browser is replaced first,
    /// after `reset` (the tabs of the dead one are let go).
    pub(super) async fn handle(
        &self,
        opts: &RenderOptions,
        reset: impl Future<Output = ()>,
    ) -> Result<(u64, Arc<BrowserHandle>), Error> {
        let mut g = self.browser.lock().await;
        if let Some(h) = g.as_ref().filter(|h| !h.is_gone()) {
            return Ok((self.generation.load(Ordering::SeqCst), h.clone()));
        }
        if let BrowserSource::Connect(url) = &opts.browser {
            return Err(Error::from(BrowserError::BrowserGone {
                message: format!("the browser at {url} closed the connection"),
            }));
        }
        if let Some(old) = g.take() {
            if let Ok(old) = Arc::try_unwrap(old) {
                old.kill().await;
            }
        }
        tracing::warn!("the browser died; relaunching it");
        let r = self.launch_into(&mut g, opts, reset).await;
        self.relaunches.fetch_add(1, Ordering::SeqCst);
        r
    }

    /// Launch a browser into the empty slot `g`, after `reset`: a new generation, with no
    /// tabs and no pages yet.
    async fn launch_into(
        &self,
        g: &mut Option<Arc<BrowserHandle>>,
        opts: &RenderOptions,
        reset: impl Future<Output = ()>,
    ) -> Result<(u64, Arc<BrowserHandle>), Error> {
        reset.await;
        self.pages.store(0, Ordering::SeqCst);
        let h = Arc::new(
            BrowserHandle::start(
                &opts.browser,
                opts.viewport,
                LAUNCH_TIMEOUT,
                &self.launch_args,
            )
            .await?,
        );
        let gen = self.generation.fetch_add(1, Ordering::SeqCst) + 1;
        *g = Some(h.clone());
        Ok((gen, h))
    }

    /// Count a page of the current browser; returns how many it rendered.
    pub(super) fn count_page(&self) -> usize {
        self.pages.fetch_add(1, Ordering::SeqCst) + 1
    }

    /// The browser, when this renderer launched it and it is alive (only such a browser is
    /// swept and recycled).
    pub(super) async fn launched_alive(&self) -> Option<Arc<BrowserHandle>> {
        match self.browser.lock().await.as_ref() {
            Some(h) if h.launched() && !h.is_gone() => Some(h.clone()),
            _ => None,
        }
    }

    /// Why the launched browser `h`, after its `n`th page, is to be recycled: its page bound
    /// reached, or (read every [`MEMORY_EVERY`] pages) its memory bound passed.
    pub(super) fn recycle_reason(
        &self,
        opts: &RenderOptions,
        n: usize,
        h: &BrowserHandle,
    ) -> Option<String> {
        if opts.recycle_browser_after > 0 && n >= opts.recycle_browser_after {
            return Some(format!("after {n} pages"));
        }
        let max = opts.max_browser_memory?;
        if n % MEMORY_EVERY != 0 {
            return None;
        }
        let m = h.memory_bytes().filter(|&m| m > max)?;
        Some(format!(
            "its processes use {} MiB, over the {} MiB bound",
            m >> 20,
            max >> 20
        ))
    }

    /// Relaunch a healthy launched browser: wait until no page is in flight (new pages wait
    /// too), close it, `reset`, and start a fresh one.
    pub(super) async fn recycle(
        &self,
        why: &str,
        opts: &RenderOptions,
        reset: impl Future<Output = ()>,
    ) {
        if self.recycling.swap(true, Ordering::SeqCst) {
            return;
        }
        // Cleared however this ends: a caller whose future is dropped while it waits for
        // the pages in flight must not leave `recycling` set, or no recycle would start again.
        let _clear = Clear(&self.recycling);
        let gate = self.gate.write().await;
        let mut g = self.browser.lock().await;
        if let Some(old) = g.take() {
            // Its tabs are let go by `reset`.
            match Arc::try_unwrap(old) {
                Ok(old) => old.shutdown().await,
                // Still referenced (cannot happen with no page in flight): the last
                // reference's drop kills its process tree (`BrowserHandle`'s `Drop`).
                Err(old) => old.gone.store(true, Ordering::SeqCst),
            }
        }
        match self.launch_into(&mut g, opts, reset).await {
            Ok(_) => {
                self.recycles.fetch_add(1, Ordering::SeqCst);
                tracing::info!("relaunched the browser {why}");
            }
            // The next page tries again, and reports the error if it fails again.
            Err(e) => tracing::warn!("relaunching the browser {why} failed: {e}"),
        }
        drop(g);
        drop(gate);
    }

    /// Close the browser (a launched one is reaped and its profile removed).
    pub(super) async fn shutdown(&self) {
        if let Some(h) = self.browser.lock().await.take() {
            if let Ok(h) = Arc::try_unwrap(h) {
                h.shutdown().await;
            }
        }
    }
}

/// The proxy of a renderer's launched browser, started before its first launch and kept
/// for the renderer's life (its relaunches use the same one), and the Chromium flags of
/// every launch: `chrome_args` (the caller's), then the proxy's. The renderer's own page
/// server on 127.0.0.1:`page_server_port` is allowed by address and port (and reached
/// directly, never through the user's proxy).
///
/// - With a `policy` ([`RenderOptions::egress`]): the egress proxy decides every
///   connection, and connects through the user's `proxy` when there is one.
/// - Without one, a `proxy` with credentials is reached through the egress proxy acting
///   as a relay that decides nothing (Chromium's `--proxy-server` takes no credentials);
///   one without is given to Chromium itself, with `--proxy-bypass-list=<-loopback>` so
///   loopback targets take it too (but the page server).
/// - A browser sightline connects to (`connected`, its URL) keeps its own proxy settings:
///   the policy is then checked by the tab only, and a `proxy` is an error.
pub(crate) async fn egress_for_launch(
    policy: Option<&EgressPolicy>,
    connected: Option<&str>,
    page_server_port: u16,
    chrome_args: Vec<String>,
    proxy: Option<&str>,
) -> Result<(Option<EgressProxy>, Vec<String>), Error> {
    let mut args = chrome_args;
    let proxy_error = |message: String| Error::Input {
        input: "the proxy".into(),
        message,
        source: None,
    };
    let proxy = proxy
        .map(ProxyUrl::parse)
        .transpose()
        .map_err(proxy_error)?;
    if let (Some(url), Some(p)) = (connected, &proxy) {
        return Err(proxy_error(format!(
            "{}: a browser sightline connects to ({url}) keeps its own proxy settings; start it with --proxy-server, or let sightline launch the browser",
            p.redacted()
        )));
    }
    let page_server = format!("127.0.0.1:{page_server_port}");
    let policy = match (policy, connected) {
        (Some(_), Some(url)) => {
            tracing::warn!(
                "{url}: a browser sightline connects to keeps its own proxy settings; the egress proxy covers launched browsers only (requests are still checked by the target policy)"
            );
            return Ok((None, args));
        }
        (p, _) => p.cloned(),
    };
    if let Some(p) = &proxy {
        if p.scheme == ProxyScheme::Https && (policy.is_some() || p.credentials.is_some()) {
            return Err(proxy_error(format!(
                "{}: an https:// proxy works without credentials and without the target policy only (sightline's egress proxy reaches its upstream over plain HTTP or SOCKS5); use an http:// or socks5:// proxy",
                p.redacted()
            )));
        }
    }
    let relay = proxy.as_ref().is_some_and(|p| p.credentials.is_some());
    if policy.is_none() && !relay {
        if let Some(p) = &proxy {
            args.push(format!("proxy-server={}", p.chromium_server()));
            args.push(format!("proxy-bypass-list=<-loopback>;{page_server}"));
        }
        return Ok((None, args));
    }
    let policy = policy.map(|mut policy| {
        policy.allow_hosts.push(page_server.clone());
        policy
    });
    let proxy = EgressProxy::start_with(policy, proxy, vec![page_server])
        .await
        .map_err(|e| {
            Error::from(BrowserError::Launch {
                path: "127.0.0.1".into(),
                message: format!("cannot start the egress proxy: {e}"),
                source: Some(Box::new(e)),
            })
        })?;
    tracing::debug!("egress proxy on {}", proxy.addr());
    args.extend(proxy.chrome_args());
    Ok((Some(proxy), args))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A recycle whose caller goes away while it waits for the pages in flight leaves the
    /// next recycle free to run (before, `recycling` stayed set and the browser was never
    /// relaunched at its bound again).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_recycle_dropped_while_waiting_does_not_block_the_next() {
        let opts = RenderOptions::default();
        let (l, _) = Launcher::start(&opts, 0).await.expect("Chromium launches");
        let page = l.enter().await;
        {
            let waiting = l.recycle("test", &opts, async {});
            tokio::pin!(waiting);
            // It cannot finish while a page is in flight: it waits for the gate.
            assert!(futures::poll!(waiting.as_mut()).is_pending());
            assert!(l.recycling.load(Ordering::SeqCst));
        }
        assert!(!l.recycling.load(Ordering::SeqCst), "cleared by the drop");
        drop(page);
        l.recycle("test", &opts, async {}).await;
        assert_eq!(l.recycles(), 1);
        l.shutdown().await;
    }
}
