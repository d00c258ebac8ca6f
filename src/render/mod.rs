//! Rendering: the only code that talks to Chromium.
//!
//! A [`Renderer`] owns one browser (launched, or connected with `--browser-ws`) and a pool of
//! reused tabs (opening a tab costs ~150-200 ms of Chromium CPU; reusing one is 2-4x cheaper).
//! [`Renderer::render`] takes an [`Input`] to a [`Rendered`] page: navigate, settle, snapshot,
//! screenshot, each bounded by a deadline. Every await on the browser has a timeout: the
//! crate's own request timeout does not fire on an otherwise idle connection.

pub mod browser;
pub mod serve;
pub mod tab;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use chromiumoxide::cdp::browser_protocol::target::CreateTargetParams;
use tokio::sync::{Mutex, Semaphore};

pub use browser::{find_chrome, BrowserHandle, BrowserSource};
pub use tab::{Rendered, Tab};

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
    /// Quiet window: the page is settled when no request is in flight and the DOM has not
    /// changed for this long after `load` (default 300 ms).
    pub quiet: Duration,
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
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            browser: BrowserSource::Launch(None),
            viewport: (1366, 900),
            timeout: Duration::from_secs(15),
            quiet: Duration::from_millis(300),
            command_timeout: Duration::from_secs(10),
            offline: false,
            screenshot: false,
            max_screenshot_height: 16_384,
            max_nodes: 200_000,
            concurrency: 1,
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
    /// is a file, anything with a scheme is a URL.
    pub fn parse(arg: &str) -> Result<Input, Error> {
        if arg.contains("://") || arg.starts_with("about:") || arg.starts_with("data:") {
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

/// One browser with a pool of tabs.
pub struct Renderer {
    opts: RenderOptions,
    browser: Mutex<Option<Arc<BrowserHandle>>>,
    tabs: Mutex<Vec<Tab>>,
    slots: Semaphore,
    server: serve::Server,
    next_id: std::sync::atomic::AtomicUsize,
    /// Milliseconds the browser took to start.
    pub launch_ms: f64,
}

impl Renderer {
    /// Start the browser.
    pub async fn new(opts: RenderOptions) -> Result<Renderer, Error> {
        let t = Instant::now();
        let handle =
            BrowserHandle::start(&opts.browser, opts.viewport, Duration::from_secs(30)).await?;
        let launch_ms = t.elapsed().as_secs_f64() * 1000.0;
        let server = serve::Server::start(None)
            .await
            .map_err(|e| Error::Launch {
                path: "127.0.0.1".into(),
                message: format!("cannot start the loopback server: {e}"),
            })?;
        Ok(Renderer {
            slots: Semaphore::new(opts.concurrency.max(1)),
            opts,
            browser: Mutex::new(Some(Arc::new(handle))),
            tabs: Mutex::new(Vec::new()),
            server,
            next_id: Default::default(),
            launch_ms,
        })
    }

    /// The options in force.
    pub fn options(&self) -> &RenderOptions {
        &self.opts
    }

    async fn handle(&self) -> Result<Arc<BrowserHandle>, Error> {
        let g = self.browser.lock().await;
        match g.as_ref() {
            Some(h) if !h.is_gone() => Ok(h.clone()),
            _ => Err(Error::BrowserGone {
                message: "the DevTools connection closed".into(),
            }),
        }
    }

    async fn take_tab(&self) -> Result<Tab, Error> {
        if let Some(t) = self.tabs.lock().await.pop() {
            return Ok(t);
        }
        let h = self.handle().await?;
        let page = tokio::time::timeout(
            self.opts.command_timeout,
            h.browser.new_page(CreateTargetParams::new("about:blank")),
        )
        .await
        .map_err(|_| Error::Timeout {
            input: "new tab".into(),
            phase: "opening a tab".into(),
            seconds: self.opts.command_timeout.as_secs_f64(),
        })?
        .map_err(|e| Error::Cdp {
            input: "new tab".into(),
            phase: "opening a tab".into(),
            message: e.to_string(),
        })?;
        Tab::new(page, &self.opts).await
    }

    async fn give_back(&self, tab: Tab) {
        if tab.healthy {
            self.tabs.lock().await.push(tab);
        } else {
            let page = tab.page.clone();
            drop(tab);
            let _ = tokio::time::timeout(Duration::from_secs(2), page.close()).await;
        }
    }

    /// Render one input on a pooled tab. Several calls may run at once, up to `concurrency`.
    pub async fn render(&self, input: &Input) -> Result<Rendered, Error> {
        let _slot = self.slots.acquire().await.expect("semaphore open");
        let name = input.name();
        let (url, served) = match input {
            Input::Url(u) => (u.clone(), None),
            Input::File(p) => {
                let abs = std::fs::canonicalize(p).map_err(|e| Error::Input {
                    input: name.clone(),
                    message: e.to_string(),
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
                let n = self
                    .next_id
                    .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let path = format!("/page-{n}.html");
                let url = self.server.insert(
                    &path,
                    bytes.clone(),
                    &format!("text/html; charset={charset}"),
                );
                (url, Some(path))
            }
        };
        let mut tab = self.take_tab().await?;
        let r = tab.render(&name, &url, &self.opts).await;
        if let Some(p) = served {
            self.server.remove(&p);
        }
        if matches!(r, Err(Error::Crashed { .. })) {
            tab.healthy = false;
        }
        if self.handle().await.is_err() {
            tab.healthy = false;
        }
        self.give_back(tab).await;
        match r {
            Err(e) if self.handle().await.is_err() => Err(Error::BrowserGone {
                message: e.to_string(),
            }),
            r => r,
        }
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
