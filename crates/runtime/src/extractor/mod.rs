//! The library's front door: an [`Extractor`] holds a browser (or several, with
//! [`Options::browser_ws`]) and a pool of tabs, and turns each [`Source`] into a [`Page`].
//!
//! ```no_run
//! # async fn run() -> Result<(), sightline::Error> {
//! use sightline::{Extractor, Options};
//!
//! let extractor = Extractor::new(Options::default().offline(true)).await?;
//! let page = extractor.extract("fixtures/demo-news/page.html").await?;
//! println!("{}\n{}", page.title(), page.markdown());
//! extractor.shutdown().await;
//! # Ok(()) }
//! ```
//!
//! Phases of one page, in order: the source becomes a render input (files, URLs, HTML bytes
//! served on loopback) → the browser renders it and the snapshot script reads the layout
//! ([`crate::render`]) → every configured algorithm scores the snapshot, on tokio's blocking
//! pool ([`crate::batch::render_and_score`]) → a [`Page`] keeps the snapshot, the extractions
//! and the record the CLI writes with `-f json`. The writers run when a format is asked for.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use futures::Stream;

use crate::batch::{self, page, Cancel, Job, PageConfig, PageOut, Sink, Summary};
use crate::eval::run::{EvalConfig, Progress, RunStats};
use crate::eval::Results;
use crate::extract::{Algorithm, Params};
use crate::output::Format;
use crate::render::{BrowserPool, BrowserSource, Input, RenderMode, RenderOptions};
use crate::{Error, Snapshot};

/// How an [`Extractor`] renders and scores pages. `Options::default()` launches the Chromium
/// found on this machine (`$CHROME`, then the headless shell, then `chromium` on `PATH`) with
/// one tab, a 15 s deadline a page, and the default algorithm (`learned`).
#[derive(Debug, Clone)]
pub struct Options {
    render: RenderOptions,
    endpoints: Vec<String>,
    page: PageConfig,
    memory_bound_set: bool,
    /// `--warc`, `--wacz`: the files opened by [`Extractor::new`].
    warc: Option<PathBuf>,
    wacz: Option<PathBuf>,
    /// `--replay`: the archive indexed by [`Extractor::new`].
    replay: Option<PathBuf>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            render: RenderOptions::default(),
            endpoints: Vec::new(),
            page: PageConfig {
                format: Format::Json,
                ..PageConfig::default()
            },
            memory_bound_set: false,
            warc: None,
            wacz: None,
            replay: None,
        }
    }
}

impl Options {
    /// The defaults (see [`Options`]).
    pub fn new() -> Options {
        Options::default()
    }
    /// Pages rendered at once, each in its own tab (default 1).
    pub fn tabs(mut self, n: usize) -> Options {
        self.render.concurrency = n.max(1);
        self
    }
    /// Abort every request but the page's own document and same-origin loopback resources:
    /// nothing leaves the machine (tests, benchmarks, saved pages).
    pub fn offline(mut self, on: bool) -> Options {
        self.render.offline = on;
        self
    }
    /// How pages are rendered: `full` (the default), `static` (scripts off, only stylesheets
    /// fetched, no scroll) or `auto` (per page, from its response) ([`RenderMode`]).
    pub fn render_mode(mut self, mode: RenderMode) -> Options {
        self.render.render = mode;
        self
    }
    /// The deadline of one page, from the start of navigation to its snapshot (default 15 s).
    pub fn timeout(mut self, t: Duration) -> Options {
        self.render.timeout = t;
        self
    }
    /// Take a full-page PNG of every page ([`Page::screenshot`]).
    pub fn screenshot(mut self, on: bool) -> Options {
        self.render.screenshot = on;
        self
    }
    /// Also draw the extraction on the screenshot ([`Page::annotated`]); implies
    /// [`Options::screenshot`].
    pub fn annotate(mut self, on: bool) -> Options {
        self.page.annotate = on;
        if on {
            self.render.screenshot = true;
        }
        self
    }
    /// The viewport in CSS pixels (default 1366x900).
    pub fn viewport(mut self, width: u32, height: u32) -> Options {
        self.render.viewport = (width, height);
        self
    }
    /// Launch this Chromium executable instead of the one found on the machine.
    pub fn chrome(mut self, path: impl Into<PathBuf>) -> Options {
        self.render.browser = BrowserSource::Launch(Some(path.into()));
        self
    }
    /// Connect to running browsers (their DevTools WebSocket URLs) instead of launching one;
    /// pages go to the browser with the most free tabs, and a lost browser's pages are
    /// retried on the others.
    pub fn browser_ws<S: Into<String>>(
        mut self,
        endpoints: impl IntoIterator<Item = S>,
    ) -> Options {
        self.endpoints = endpoints.into_iter().map(Into::into).collect();
        if let Some(first) = self.endpoints.first() {
            self.render.browser = BrowserSource::Connect(first.clone());
        }
        self
    }
    /// Score with this algorithm (default [`Algorithm::Learned`]).
    pub fn algorithm(mut self, a: Algorithm) -> Options {
        self.page.algorithms = vec![a];
        self
    }
    /// Score with each of these algorithms on the one render; [`Page::text`] and the other
    /// formats show the first, [`Page::extractions`] and [`Page::json`] all of them.
    pub fn algorithms(mut self, a: impl IntoIterator<Item = Algorithm>) -> Options {
        let v: Vec<Algorithm> = a.into_iter().collect();
        if !v.is_empty() {
            self.page.algorithms = v;
        }
        self
    }
    /// Steer every page before its snapshot: wait for it, act on it, send its cookies and
    /// headers, block what is not needed, answer its consent dialog ([`crate::Steer`]; a
    /// call's own [`PageConfig::steer`] replaces it).
    pub fn steer(mut self, plan: crate::Steer) -> Options {
        self.page.steer = Some(Arc::new(plan));
        self
    }
    /// Connect through this proxy (`http://user:pass@host:port`, `socks5://host:port`); with
    /// a target policy, sightline's egress proxy still checks every connection first.
    pub fn proxy(mut self, url: impl Into<String>) -> Options {
        self.render.proxy = Some(url.into());
        self
    }
    /// The User-Agent of every page, browser-wide ([`RenderOptions::user_agent`]): unlike a
    /// plan's, it gives no page a browser context of its own. A crawl's pages name sightline
    /// with [`crate::crawl::USER_AGENT`] (what `sightline crawl` launches with).
    pub fn user_agent(mut self, ua: impl Into<String>) -> Options {
        self.render.user_agent = Some(ua.into());
        self
    }
    /// The caller's scoring choices over these options ([`crate::Scoring::apply`]: its
    /// algorithm, reader comments and page type where set); give the parameters first, as
    /// `comments` is one of them. `Err` names the choice and what to give.
    pub fn scoring(mut self, s: &crate::Scoring) -> Result<Options, String> {
        s.apply(&mut self.page)?;
        Ok(self)
    }
    /// State every page's type (the record's `page_type`) instead of predicting it.
    pub fn page_type(mut self, kind: Option<crate::extract::page_type::PageKind>) -> Options {
        self.page.page_type = kind;
        self
    }
    /// Start [`Page::markdown`] with the page's metadata as YAML front matter.
    pub fn front_matter(mut self, on: bool) -> Options {
        self.page.front_matter = on;
        self
    }
    /// How [`Page::markdown`] and the record's `markdown` and `sections` write images and
    /// links: `images` (keep, alt, none), `links` (inline, references, none) and `base_url`
    /// (a saved page's address on its site; check it with [`crate::output::WriterOptions::validate`]).
    pub fn writer(mut self, w: crate::output::WriterOptions) -> Options {
        self.page.writer = w;
        self
    }
    /// Add each page's text units to its record (`units`: every unit's box, text, `learned`
    /// probability, top feature contributions and the algorithms that keep it; what the
    /// playground draws). Runs every main-content algorithm once more; off by default.
    pub fn units(mut self, on: bool) -> Options {
        self.page.units = on;
        self
    }
    /// The algorithms' parameters (every paper constant; see [`Params`]).
    pub fn params(mut self, p: Params) -> Options {
        self.page.params = p;
        self
    }
    /// The charset of HTML given as bytes ([`Source::Html`]) and of files, when the page does
    /// not declare it (a WHATWG label such as `utf-8` or `windows-1252`).
    pub fn charset(mut self, label: impl Into<String>) -> Options {
        self.page.charset = Some(label.into());
        self
    }
    /// Extract main documents answered with an HTTP error status (>= 400) instead of failing
    /// them with an `http` error.
    pub fn accept_http_errors(mut self, on: bool) -> Options {
        self.render.accept_http_errors = on;
        self
    }
    /// Refuse targets on this machine and its networks, as `sightline serve` does: loopback,
    /// private, link-local, unique-local, multicast and metadata addresses, checked for the
    /// page and every redirect and subresource, and enforced by an egress proxy that connects
    /// only to the address it resolved and checked (so DNS rebinding reaches none of them).
    /// `false` (the default) turns both off.
    pub fn deny_private(mut self, on: bool) -> Options {
        self.render
            .set_target_policy(on.then(crate::render::guard::NetPolicy::default));
        self
    }
    /// Pages with more DOM nodes than this fail with a `too-large` error (default 200,000).
    pub fn max_nodes(mut self, n: usize) -> Options {
        self.render.max_nodes = n;
        self
    }
    /// Pages with more text than this many bytes fail with a `too-large` error (default 20 MB).
    pub fn max_text_bytes(mut self, n: usize) -> Options {
        self.page.max_text_bytes = n;
        self
    }
    /// Relaunch a launched browser when its processes' memory passes this many bytes (`None`:
    /// no bound; default 1 GiB plus 512 MiB a tab).
    pub fn max_browser_memory(mut self, bytes: Option<u64>) -> Options {
        self.render.max_browser_memory = bytes;
        self.memory_bound_set = true;
        self
    }
    /// Every render setting at once (settling, scrolling, recycling, Chromium flags, the
    /// network policy), for what the setters above do not cover.
    pub fn render_options(mut self, opts: RenderOptions) -> Options {
        self.render = opts;
        self.memory_bound_set = true;
        self
    }
    /// Every scoring setting at once (algorithms, params, the model, the format of
    /// [`Page::format`]'s JSON and of [`Extractor::run`]'s sink, limits, the error hint).
    pub fn page(mut self, cfg: PageConfig) -> Options {
        self.page = cfg;
        self
    }
    /// Archive every page to a WARC/1.1 file (`.warc.gz`, a gzip member a record): each
    /// request and response the browser made, with bodies, then the page's extracted text
    /// (`urn:text:<url>`), its JSON record (a `metadata` record) and its screenshot
    /// (`urn:fullPage:<url>`). Created by [`Extractor::new`]; finished by
    /// [`Extractor::finish_archive`] (or when the last clone of the extractor goes).
    pub fn warc(mut self, path: impl Into<PathBuf>) -> Options {
        self.warc = Some(path.into());
        self
    }
    /// Package the archive as a WACZ 1.1 file when it is finished (with [`Options::warc`],
    /// of that WARC; alone, of a WARC kept beside it until then).
    pub fn wacz(mut self, path: impl Into<PathBuf>) -> Options {
        self.wacz = Some(path.into());
        self
    }
    /// Answer every request of every page from this archive (`.warc.gz`, `.warc` or
    /// `.wacz`), nothing from the network: a request it lacks fails as offline.
    pub fn replay(mut self, path: impl Into<PathBuf>) -> Options {
        self.replay = Some(path.into());
        self
    }
    /// The render settings in force.
    pub fn render(&self) -> &RenderOptions {
        &self.render
    }
    /// The scoring settings in force.
    pub fn page_config(&self) -> &PageConfig {
        &self.page
    }
}

/// What to extract: a URL, a local file, or HTML given as bytes.
#[derive(Debug, Clone)]
pub enum Source {
    /// An `http`, `https`, `file`, `data` or `about` URL.
    Url(String),
    /// A local HTML file.
    Path(PathBuf),
    /// HTML bytes, served to the browser on a loopback port of this machine (so relative
    /// resources do not resolve unless the page has a `<base href>`).
    Html {
        /// The name used in records and messages.
        name: String,
        /// The page's bytes.
        html: Vec<u8>,
        /// Its charset when the page does not declare one (default `utf-8`).
        charset: Option<String>,
    },
    /// A command-line style argument: a URL, an existing path, or a bare host name.
    Arg(String),
}

impl Source {
    /// HTML given as a string, named `name` in records.
    pub fn html(name: impl Into<String>, html: impl Into<Vec<u8>>) -> Source {
        Source::Html {
            name: name.into(),
            html: html.into(),
            charset: None,
        }
    }
    /// The name records and messages use for this source.
    pub fn name(&self) -> String {
        match self {
            Source::Url(u) | Source::Arg(u) => u.clone(),
            Source::Path(p) => p.display().to_string(),
            Source::Html { name, .. } => name.clone(),
        }
    }
    fn to_input(&self, default_charset: &Option<String>) -> Result<Input, Error> {
        match self {
            Source::Url(u) => match Input::parse(u)? {
                i @ Input::Url(_) => Ok(i),
                _ => Err(Error::Input {
                    input: u.clone(),
                    message: "not a URL (URLs need a scheme such as https://)".into(),
                    source: None,
                }),
            },
            Source::Path(p) => {
                page::to_input(&p.display().to_string(), default_charset).and_then(|i| match i {
                    Input::Url(_) => Err(Error::Input {
                        input: p.display().to_string(),
                        message: "no such file".into(),
                        source: None,
                    }),
                    i => Ok(i),
                })
            }
            Source::Html {
                name,
                html,
                charset,
            } => Ok(Input::Html {
                name: name.clone(),
                bytes: html.clone(),
                charset: charset
                    .clone()
                    .or_else(|| default_charset.clone())
                    .unwrap_or_else(|| "utf-8".into()),
            }),
            Source::Arg(a) => page::to_input(a, default_charset),
        }
    }
}

impl From<&str> for Source {
    fn from(s: &str) -> Source {
        Source::Arg(s.to_string())
    }
}
impl From<String> for Source {
    fn from(s: String) -> Source {
        Source::Arg(s)
    }
}
impl From<&String> for Source {
    fn from(s: &String) -> Source {
        Source::Arg(s.clone())
    }
}
impl From<&Path> for Source {
    fn from(p: &Path) -> Source {
        Source::Path(p.to_path_buf())
    }
}
impl From<PathBuf> for Source {
    fn from(p: PathBuf) -> Source {
        Source::Path(p)
    }
}
impl From<url::Url> for Source {
    fn from(u: url::Url) -> Source {
        Source::Url(u.to_string())
    }
}

/// A browser with a pool of tabs, and the scoring settings: the one type a Rust user needs.
/// Rendering is async (tokio); scoring runs on tokio's blocking pool. Dropping an
/// `Extractor` ends its browser; [`Extractor::shutdown`] does it in an orderly way.
///
/// Cloning an `Extractor` is cheap and shares its browsers (`sightline serve` gives one to
/// its HTTP endpoints and to MCP); [`Extractor::with_config`] shares them with other scoring
/// settings.
#[derive(Clone)]
pub struct Extractor {
    pool: Arc<BrowserPool>,
    cfg: Arc<PageConfig>,
}

/// The state of an [`Extractor`]'s browsers (`/healthz`, `/metrics`, the CLI's summary).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct BrowserStats {
    /// Pages rendered at once (tabs over every browser).
    pub tabs: usize,
    /// Browsers alive.
    pub browsers: usize,
    /// Tabs rendering a page now.
    pub busy_tabs: usize,
    /// Relaunches of a launched browser after it died.
    pub relaunches: usize,
    /// Relaunches at the page or memory bound ([`RenderOptions::recycle_browser_after`],
    /// [`RenderOptions::max_browser_memory`]).
    pub recycles: usize,
    /// Stray page targets closed by the sweeps.
    pub reaped_targets: usize,
    /// Connections the egress proxy refused.
    pub egress_refused: u64,
}

impl Extractor {
    /// Launch the browser (or connect to [`Options::browser_ws`]).
    pub async fn new(options: Options) -> Result<Extractor, Error> {
        let Options {
            mut render,
            endpoints,
            mut page,
            memory_bound_set,
            warc,
            wacz,
            replay,
        } = options;
        page.writer.validate()?;
        if let Some(path) = &replay {
            render.replay = Some(Arc::new(open_replay(path)?));
        }
        if warc.is_some() || wacz.is_some() {
            let w = crate::batch::ArchiveWriter::create(warc.as_deref(), wacz.as_deref())?;
            page.archive = Some(Arc::new(w));
            render.capture = true;
        }
        if !memory_bound_set && render.max_browser_memory.is_none() {
            render.max_browser_memory =
                Some(RenderOptions::default_memory_bound(render.concurrency));
        }
        let pool = BrowserPool::new(render, &endpoints).await?;
        Ok(Extractor {
            pool: Arc::new(pool),
            cfg: Arc::new(page),
        })
    }

    /// An extractor sharing these browsers, scoring with `page` (MCP's settings beside
    /// `serve`'s). [`Extractor::shutdown`] ends the browsers only when the last holder does.
    pub fn with_config(&self, page: PageConfig) -> Extractor {
        Extractor {
            pool: self.pool.clone(),
            cfg: Arc::new(page),
        }
    }

    /// Finish the archive of [`Options::warc`] / [`Options::wacz`]: close the WARC and make
    /// the WACZ. Later pages are not archived. Without an archive, nothing.
    pub fn finish_archive(&self) -> Result<(), Error> {
        match &self.cfg.archive {
            Some(w) => w.finish(),
            None => Ok(()),
        }
    }

    /// Render and extract one page.
    pub async fn extract(&self, source: impl Into<Source>) -> Result<Page, Error> {
        self.extract_with(source, self.cfg.clone(), None).await
    }

    /// [`Extractor::extract`] with other scoring settings for this page (algorithms, params)
    /// and, when `screenshot` is `Some`, with or without a screenshot.
    pub async fn extract_with(
        &self,
        source: impl Into<Source>,
        cfg: Arc<PageConfig>,
        screenshot: Option<bool>,
    ) -> Result<Page, Error> {
        let launch = Some(self.pool.launch_ms());
        self.finished(&source.into(), cfg.clone(), screenshot, launch)
            .await
            .map(|f| Page::from_finished(f, &cfg))
    }

    /// One source rendered and scored with `cfg` (what [`Extractor::extract_with`] and
    /// [`Extractor::record_with`] share).
    async fn finished(
        &self,
        source: &Source,
        cfg: Arc<PageConfig>,
        screenshot: Option<bool>,
        launch_ms: Option<f64>,
    ) -> Result<page::Finished, Error> {
        let input = source.to_input(&cfg.charset)?;
        let name = source.name();
        batch::render_and_score(
            self.pool.as_ref(),
            &input,
            &name,
            cfg,
            screenshot,
            launch_ms,
        )
        .await
    }

    /// One page as a batch writes it, never failing: its record (an error record when it
    /// failed), its body in `cfg.format` and its pictures (what `sightline serve` answers).
    pub async fn record_with(
        &self,
        source: impl Into<Source>,
        cfg: Arc<PageConfig>,
        screenshot: Option<bool>,
    ) -> PageOut {
        let source = source.into();
        match self.finished(&source, cfg.clone(), screenshot, None).await {
            Ok(f) => f.out,
            Err(e) => PageOut::error_for(&source.name(), &e, &cfg),
        }
    }

    /// Score a saved snapshot with this extractor's settings, no browser: the record and
    /// body [`Extractor::record_with`] gives for a render of the page (what `serve`'s `POST
    /// /score` answers; [`PageConfig::score`] is the same with no extractor, as the CLI's
    /// `extract --snapshot`). `name` is the record's `input`.
    pub fn score(&self, name: &str, snapshot: &Snapshot) -> PageOut {
        self.cfg.score(name, snapshot)
    }

    /// Extract many pages with every tab busy: one item per input, `(index of the input,
    /// its page or its error)`, in completion order. Failures are values; the stream never
    /// ends early. Dropping the stream stops taking new inputs.
    pub fn extract_many<'a, S: Into<Source>>(
        &'a self,
        inputs: impl IntoIterator<Item = S>,
    ) -> impl Stream<Item = (usize, Result<Page, Error>)> + 'a {
        self.extract_many_with(inputs, self.cfg.clone(), Cancel::new())
    }

    /// [`Extractor::extract_many`] with other scoring settings, and a [`Cancel`] that stops
    /// it taking new inputs (the pages in flight still finish and are yielded).
    pub fn extract_many_with<'a, S: Into<Source>>(
        &'a self,
        inputs: impl IntoIterator<Item = S>,
        cfg: Arc<PageConfig>,
        cancel: Cancel,
    ) -> impl Stream<Item = (usize, Result<Page, Error>)> + 'a {
        let items: Vec<(usize, Source)> = inputs.into_iter().map(Into::into).enumerate().collect();
        // One page more than there are tabs: while a page is scored, the next one renders.
        let conc = self.tabs() + 1;
        batch::pipeline(items, conc, cancel, move |(i, s)| {
            let cfg = cfg.clone();
            async move { (i, self.extract_with(s, cfg, None).await) }
        })
    }

    /// Run `jobs` through the batch pipeline and write each page to `sink` as it completes:
    /// one record per job, in completion order (what `sightline extract` does with many
    /// inputs). `on_page` sees each page after it is written. Only a failure to write output
    /// stops the run early; page failures are records.
    pub async fn run(
        &self,
        jobs: Vec<Job>,
        cancel: &Cancel,
        sink: &mut Sink,
        on_page: impl FnMut(&PageOut, &Summary),
    ) -> Result<Summary, Error> {
        batch::run(self.pool.as_ref(), jobs, &self.cfg, cancel, sink, on_page).await
    }

    /// Crawl a site from `cfg`'s seeds (robots.txt, sitemaps and feeds, the rendered pages'
    /// links, in scope and polite; see [`crate::crawl`]) and write each page to `sink` as it
    /// completes: one record per page, as [`Extractor::run`] writes them, with `depth`,
    /// `parent`, `found_in` and `links` (what `sightline crawl` does). `recorded` is what
    /// [`Sink::open`] returned (the pages a resumed output already holds); `on_page` sees
    /// each page after it is written.
    pub async fn crawl(
        &self,
        cfg: &crate::CrawlConfig,
        cancel: &Cancel,
        sink: &mut Sink,
        recorded: &std::collections::HashSet<String>,
        mut on_page: impl FnMut(&PageOut, &crate::CrawlSummary) + Send,
    ) -> Result<crate::CrawlSummary, Error> {
        let mut write = |out: &mut PageOut, s: &crate::CrawlSummary| -> Result<(), Error> {
            sink.write(out)?;
            on_page(out, s);
            Ok(())
        };
        self.crawl_with(cfg, cancel, recorded, &mut write).await
    }

    /// [`Extractor::crawl`] handing each page to `write` instead of a [`Sink`] (a binding's
    /// stream or queue; an `Err` from `write` ends the crawl). Pages are scored with this
    /// extractor's settings ([`Extractor::page_config`]).
    pub async fn crawl_with(
        &self,
        cfg: &crate::CrawlConfig,
        cancel: &Cancel,
        recorded: &std::collections::HashSet<String>,
        write: &mut (dyn FnMut(&mut PageOut, &crate::CrawlSummary) -> Result<(), Error> + Send),
    ) -> Result<crate::CrawlSummary, Error> {
        let pipeline = crate::crawl::Pipeline {
            renderer: self.pool.as_ref(),
            page: self.cfg.clone(),
            render: self.pool.options(),
            cancel,
        };
        crate::crawl::crawl(&pipeline, cfg, recorded, write).await
    }

    /// The URLs a crawl from `cfg` finds to `cfg.max_depth` (robots.txt, sitemaps, the
    /// rendered pages' links), without extracting (what `sightline map` prints); pages at the
    /// last depth are listed, not rendered.
    pub async fn map(
        &self,
        cfg: &crate::CrawlConfig,
        cancel: &Cancel,
    ) -> Result<Vec<crate::Mapped>, Error> {
        let pipeline = crate::crawl::Pipeline {
            renderer: self.pool.as_ref(),
            page: self.cfg.clone(),
            render: self.pool.options(),
            cancel,
        };
        crate::crawl::map(&pipeline, cfg).await
    }

    /// Render and score the benchmark `cfg` names with these browsers (what `sightline
    /// eval` does; [`crate::eval::run::from_snapshots`] scores saved snapshots without one).
    pub async fn evaluate(
        &self,
        cfg: &EvalConfig,
        progress: impl FnMut(Progress<'_>),
    ) -> Result<(Results, RunStats), Error> {
        crate::eval::run::run(Some(self.pool.as_ref()), cfg, progress).await
    }

    /// Render one page and return its layout snapshot, without scoring it (what `sightline
    /// snapshot` saves; [`Snapshot::to_json`] writes it).
    pub async fn snapshot(&self, source: impl Into<Source>) -> Result<Snapshot, Error> {
        self.render_only(source.into()).await.map(|r| r.snapshot)
    }

    /// [`Extractor::snapshot`] as the snapshot script returned it, byte for byte (what
    /// `sightline snapshot` writes).
    pub async fn snapshot_json(&self, source: impl Into<Source>) -> Result<String, Error> {
        self.render_only(source.into())
            .await
            .map(|r| r.snapshot_json)
    }

    async fn render_only(&self, source: Source) -> Result<crate::render::Rendered, Error> {
        let input = source.to_input(&self.cfg.charset)?;
        let page = crate::render::PageRender {
            screenshot: Some(false),
            steer: self.cfg.steer.clone(),
            capture: false,
        };
        batch::PageRenderer::render_with(self.pool.as_ref(), &input, &page).await
    }

    /// The scoring settings of [`Extractor::extract`].
    pub fn page_config(&self) -> &Arc<PageConfig> {
        &self.cfg
    }

    /// Pages rendered at once (tabs over every browser).
    pub fn tabs(&self) -> usize {
        self.pool.capacity()
    }

    /// The render settings the browsers run with.
    pub fn render_options(&self) -> &RenderOptions {
        self.pool.options()
    }

    /// The state of the browsers: tabs, busy tabs, relaunches, sweeps, egress refusals.
    pub fn stats(&self) -> BrowserStats {
        let p = &self.pool;
        BrowserStats {
            tabs: p.capacity(),
            browsers: p.alive(),
            busy_tabs: p.busy(),
            relaunches: p.relaunches(),
            recycles: p.recycles(),
            reaped_targets: p.reaped(),
            egress_refused: p.egress_refused(),
        }
    }

    /// Close every tab and end the launched browser (its processes and profile are removed).
    /// Browsers still shared with a clone ([`Extractor::with_config`]) are left running for
    /// it.
    pub async fn shutdown(self) {
        if let Ok(pool) = Arc::try_unwrap(self.pool) {
            pool.shutdown().await;
        }
    }
}

/// Index an archive for replay (`--replay`, [`Options::replay`]).
pub(crate) fn open_replay(path: &std::path::Path) -> Result<crate::archive::Archive, Error> {
    crate::archive::Archive::open(path).map_err(|message| Error::Input {
        input: path.display().to_string(),
        message: format!("cannot read the archive to replay: {message}"),
        source: None,
    })
}

mod extracted;

pub use extracted::Page;

#[cfg(test)]
mod tests;
