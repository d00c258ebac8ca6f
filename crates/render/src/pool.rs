//! Several browsers behind one renderer: `--browser-ws` given more than once (Chromium
//! containers on other hosts, for instance). Each page goes to the live browser with the
//! most free tabs; a browser whose connection is lost is taken out of the pool and its page
//! is retried on another one, so a dead endpoint costs no record. With no endpoint the pool
//! holds one launched browser (relaunched by its [`Renderer`] when it dies).
//!
//! Limit: pages given as HTML bytes (stdin, `--charset` files, `eval`) are served from a
//! loopback port of this machine, which a browser on another host cannot reach; give remote
//! browsers URLs.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::browser::BrowserSource;
use crate::error::BrowserError;
use crate::options::{Input, PageRender, RenderOptions};
use crate::tab::Rendered;
use crate::Error;
use crate::Renderer;

struct Member {
    renderer: Renderer,
    name: String,
    /// Connected (not launched): a lost connection takes it out for good.
    remote: bool,
    dead: AtomicBool,
}

/// One or more browsers, each with its own pool of tabs.
pub struct BrowserPool {
    members: Vec<Member>,
    opts: RenderOptions,
}

impl BrowserPool {
    /// Launch a browser (`endpoints` empty), or connect to every endpoint. Endpoints that do
    /// not answer at start are left out with a warning; none answering is an error.
    pub async fn new(opts: RenderOptions, endpoints: &[String]) -> Result<BrowserPool, Error> {
        let mut members = Vec::new();
        if endpoints.is_empty() {
            members.push(Member {
                renderer: Renderer::new(opts.clone()).await?,
                name: "launched".into(),
                remote: matches!(opts.browser, BrowserSource::Connect(_)),
                dead: AtomicBool::new(false),
            });
        } else {
            let mut last = None;
            for ep in endpoints {
                let mut o = opts.clone();
                o.browser = BrowserSource::Connect(ep.clone());
                match Renderer::new(o).await {
                    Ok(r) => members.push(Member {
                        renderer: r,
                        name: ep.clone(),
                        remote: true,
                        dead: AtomicBool::new(false),
                    }),
                    Err(e) if endpoints.len() > 1 => {
                        tracing::warn!("{ep}: left out of the browser pool: {e}");
                        last = Some(e);
                    }
                    Err(e) => return Err(e),
                }
            }
            if members.is_empty() {
                return Err(last.unwrap_or(Error::from(BrowserError::BrowserGone {
                    message: "no browser endpoint".into(),
                })));
            }
        }
        Ok(BrowserPool { members, opts })
    }

    /// The options in force (per browser: `concurrency` tabs each).
    pub fn options(&self) -> &RenderOptions {
        &self.opts
    }

    /// Browsers still in the pool.
    pub fn alive(&self) -> usize {
        self.members
            .iter()
            .filter(|m| !m.dead.load(Ordering::SeqCst))
            .count()
    }

    /// Tabs that can render at once over the live browsers.
    pub fn capacity(&self) -> usize {
        self.alive().max(1) * self.opts.concurrency.max(1)
    }

    /// Tabs rendering now.
    pub fn busy(&self) -> usize {
        self.members.iter().map(|m| m.renderer.busy()).sum()
    }

    /// Relaunches of launched browsers.
    pub fn relaunches(&self) -> usize {
        self.members.iter().map(|m| m.renderer.relaunches()).sum()
    }

    /// Planned relaunches of healthy launched browsers (page or memory bound).
    pub fn recycles(&self) -> usize {
        self.members.iter().map(|m| m.renderer.recycles()).sum()
    }

    /// Page targets closed because no tab owned them.
    pub fn reaped(&self) -> usize {
        self.members.iter().map(|m| m.renderer.reaped()).sum()
    }

    /// Connections the browsers' egress proxies refused (see [`sightline_egress`]).
    pub fn egress_refused(&self) -> u64 {
        self.members
            .iter()
            .filter_map(|m| m.renderer.egress())
            .map(|l| l.refused())
            .sum()
    }

    /// Milliseconds the first browser took to start or connect.
    pub fn launch_ms(&self) -> f64 {
        self.members.first().map_or(0.0, |m| m.renderer.launch_ms)
    }

    /// Render on the live browser with the most free tabs; a page whose browser was lost
    /// is retried on the others.
    pub async fn render_with(&self, input: &Input, page: &PageRender) -> Result<Rendered, Error> {
        self.render_timed(input, page).await.0
    }

    /// [`BrowserPool::render_with`], with the phase timings of a failed page too (see
    /// [`Renderer::render_timed`]).
    pub async fn render_timed(
        &self,
        input: &Input,
        page: &PageRender,
    ) -> (Result<Rendered, Error>, crate::timings::Timings) {
        let mut tried = vec![false; self.members.len()];
        loop {
            let pick = self
                .members
                .iter()
                .enumerate()
                .filter(|(i, m)| !tried[*i] && !m.dead.load(Ordering::SeqCst))
                .min_by_key(|(_, m)| m.renderer.busy());
            let Some((i, m)) = pick else {
                return (
                    Err(Error::from(BrowserError::BrowserGone {
                        message: format!(
                            "every browser of the pool is gone ({})",
                            self.members
                                .iter()
                                .map(|m| m.name.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    })),
                    Default::default(),
                );
            };
            tried[i] = true;
            match m.renderer.render_timed(input, page).await {
                (Err(e), _) if BrowserError::is_gone(&e) && m.remote && self.members.len() > 1 => {
                    if !m.dead.swap(true, Ordering::SeqCst) {
                        tracing::warn!("{}: taken out of the browser pool: {e}", m.name);
                    }
                    continue;
                }
                r => return r,
            }
        }
    }

    /// [`BrowserPool::render_with`] as the options say.
    pub async fn render(&self, input: &Input) -> Result<Rendered, Error> {
        self.render_with(input, &PageRender::default()).await
    }

    /// Close every tab and browser (launched ones are reaped).
    pub async fn shutdown(self) {
        for m in self.members {
            m.renderer.shutdown().await;
        }
    }
}
