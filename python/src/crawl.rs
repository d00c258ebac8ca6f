//! `Browser.crawl` / `acrawl`: a running crawl ([`sightline::Extractor::crawl_with`] on the
//! module's runtime, sending each page as it is recorded) behind both iterators,
//! `CrawlIter` (sync) and `AsyncCrawlIter` (`async for`), which differ only in how they wait
//! for [`Crawl::next`] ([`bridge::wait`] or [`bridge::awaitable`]), as `extract_many`'s
//! iterators do; and `CrawlPage`, one crawled page (its record: the page's place in the
//! crawl, its links, its text and Markdown, or its error).

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use pyo3::exceptions::PyStopAsyncIteration;
use pyo3::prelude::*;
use tokio::sync::mpsc::UnboundedReceiver;

use sightline::{Cancel, CrawlConfig, CrawlSummary, Error, Extractor, PageConfig, PageOut};

use crate::bridge;
use crate::convert;

/// What the crawl's task sends: a page, then how the crawl ended.
enum Item {
    Page(Box<PageOut>),
    End(Result<CrawlSummary, Error>),
}

/// One crawled page: its record (`sightline crawl -f json`'s), with the page's place in the
/// crawl (`depth`, `parent`, `found_in`), its `links`, and its `text` and `markdown`; or its
/// error (`ok` is False, `kind` and `error` say why).
#[pyclass(module = "sightline", frozen)]
pub struct CrawlPage {
    out: PageOut,
}

fn json(py: Python<'_>, v: &impl serde::Serialize) -> PyResult<Py<PyAny>> {
    let v = serde_json::to_value(v).unwrap_or(serde_json::Value::Null);
    convert::json_to_py(py, &v)
}

#[pymethods]
impl CrawlPage {
    /// The URL the crawl took (normalised).
    #[getter]
    fn input(&self) -> &str {
        &self.out.record.input
    }
    /// The final URL, after redirects (the input when the page failed before loading).
    #[getter]
    fn url(&self) -> &str {
        self.out
            .record
            .url
            .as_deref()
            .unwrap_or(&self.out.record.input)
    }
    /// `document.title` ("" for a failed page).
    #[getter]
    fn title(&self) -> &str {
        self.out.record.title.as_deref().unwrap_or("")
    }
    /// HTTP status of the page's document.
    #[getter]
    fn status(&self) -> Option<i64> {
        self.out.record.status
    }
    /// Links followed from a seed to reach it (0: a seed; sitemap pages are at 1).
    #[getter]
    fn depth(&self) -> u32 {
        self.out.record.depth.unwrap_or(0)
    }
    /// The page (or sitemap, or feed) it was found in; None for a seed.
    #[getter]
    fn parent(&self) -> Option<&str> {
        self.out.record.parent.as_deref()
    }
    /// `seed`, `sitemap`, `link` or `feed`.
    #[getter]
    fn found_in(&self) -> &str {
        self.out.record.found_in.as_deref().unwrap_or("seed")
    }
    /// The page's out-links: `{"url", "text", "content", "nofollow"}` each (`content`: in
    /// the extracted content).
    #[getter]
    fn links(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        json(py, &self.out.record.links.clone().unwrap_or_default())
    }
    /// The content as plain text ("" when nothing was kept or the page was folded).
    #[getter]
    fn text(&self) -> &str {
        self.out
            .record
            .result
            .as_ref()
            .map_or("", |r| r.text.as_str())
    }
    /// The content as Markdown.
    #[getter]
    fn markdown(&self) -> &str {
        &self.out.body
    }
    /// The canonical URL this page was folded into (`rel=canonical`); its text is not kept.
    #[getter]
    fn duplicate_of(&self) -> Option<&str> {
        self.out.record.duplicate_of.as_deref()
    }
    /// An earlier page whose text this one nearly repeats (SimHash within 3 bits of 64).
    #[getter]
    fn near_duplicate_of(&self) -> Option<&str> {
        self.out.record.near_duplicate_of.as_deref()
    }
    /// True when the page rendered and was extracted.
    #[getter]
    fn ok(&self) -> bool {
        self.out.record.error.is_none()
    }
    /// The error's kind (timeout, navigation, http, blocked, ...), or None.
    #[getter]
    fn kind(&self) -> Option<&str> {
        self.out.record.error.as_ref().map(|e| e.kind.as_str())
    }
    /// The error (a `sightline.SightlineError` of its kind; not raised), or None.
    #[getter]
    fn error(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        let r = &self.out.record;
        r.error
            .as_ref()
            .map(|e| convert::error_object(py, &e.kind, &e.message, r.status))
            .transpose()
    }
    /// The record of `sightline crawl -f json`.
    fn to_dict(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        json(py, &self.out.record)
    }
    fn __repr__(&self) -> String {
        match self.kind() {
            None => format!(
                "<sightline.CrawlPage depth={} {}>",
                self.depth(),
                self.url()
            ),
            Some(k) => format!("<sightline.CrawlPage {k} {}>", self.url()),
        }
    }
}

/// The state both iterators share with the futures they wait on.
struct Shared {
    rx: tokio::sync::Mutex<UnboundedReceiver<Item>>,
    summary: Mutex<Option<CrawlSummary>>,
}

/// One running crawl: the library's crawl on the module's runtime, sending each page as it
/// is recorded. Stopping it (or dropping it) takes no new page and drops those in flight.
pub(crate) struct Crawl {
    shared: Arc<Shared>,
    task: tokio::task::JoinHandle<()>,
    cancel: Cancel,
}

impl Crawl {
    /// Start crawling with `ex`'s browsers, scoring with `page` (whose format should be
    /// Markdown: the pages' `markdown` is the body it writes).
    pub(crate) fn start(ex: Arc<Extractor>, cfg: CrawlConfig, page: PageConfig) -> Crawl {
        let cancel = Cancel::new();
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        let stop = cancel.clone();
        let task = bridge::runtime().spawn(async move {
            // `ex` (the Browser's) is held to the end, so closing the Browser waits for it.
            let crawler = ex.with_config(page);
            let mut write = |out: &mut PageOut, _: &CrawlSummary| -> Result<(), Error> {
                // A closed receiver: the iterator is gone and has cancelled the crawl.
                let _ = tx.send(Item::Page(Box::new(out.clone())));
                Ok(())
            };
            let end = crawler
                .crawl_with(&cfg, &stop, &HashSet::new(), &mut write)
                .await;
            let _ = tx.send(Item::End(end));
            drop(crawler);
            drop(ex);
        });
        Crawl {
            shared: Arc::new(Shared {
                rx: tokio::sync::Mutex::new(rx),
                summary: Mutex::new(None),
            }),
            task,
            cancel,
        }
    }

    /// The next page, in the order they are recorded (None: the crawl is over; an error
    /// that ended it early is raised): the one future both iterators wait on.
    fn next(
        &self,
    ) -> impl std::future::Future<Output = PyResult<Option<CrawlPage>>> + Send + 'static {
        let shared = self.shared.clone();
        async move {
            let item = shared.rx.lock().await.recv().await;
            match item {
                Some(Item::Page(out)) => Ok(Some(CrawlPage { out: *out })),
                Some(Item::End(Ok(s))) => {
                    if let Ok(mut g) = shared.summary.lock() {
                        *g = Some(s);
                    }
                    Ok(None)
                }
                Some(Item::End(Err(e))) => Err(convert::err(e)),
                None => Ok(None),
            }
        }
    }

    fn summary(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        let s = self.shared.summary.lock().ok().and_then(|g| g.clone());
        let Some(s) = s else { return Ok(None) };
        let v = serde_json::json!({
            "recorded": s.recorded,
            "failed": s.failed,
            "empty": s.empty,
            "duplicates": s.duplicates,
            "near_duplicates": s.near_duplicates,
            "disallowed": s.disallowed,
            "refused": s.refused,
            "interrupted": s.interrupted,
            "walls": s.walls,
        });
        convert::json_to_py(py, &v).map(Some)
    }

    fn stop(&self) {
        self.cancel.cancel();
        self.task.abort();
    }
}

impl Drop for Crawl {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The iterator `Browser.crawl` returns: one `CrawlPage` per page, as the crawl records
/// them. Ctrl-C while waiting stops the crawl and raises `KeyboardInterrupt`.
#[pyclass(module = "sightline")]
pub struct CrawlIter {
    crawl: Crawl,
}

impl CrawlIter {
    pub(crate) fn new(crawl: Crawl) -> CrawlIter {
        CrawlIter { crawl }
    }
}

#[pymethods]
impl CrawlIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }
    fn __next__(&self, py: Python<'_>) -> PyResult<Option<CrawlPage>> {
        bridge::wait(py, self.crawl.next()).inspect_err(|_| self.crawl.stop())
    }
    /// How the crawl ended (`recorded`, `failed`, `empty`, `duplicates`,
    /// `near_duplicates`, `disallowed`, `refused`, `interrupted`, and `walls`: pages behind a
    /// wall by its kind); None until it has.
    #[getter]
    fn summary(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        self.crawl.summary(py)
    }
    /// Stop the crawl: no new page starts, and pages in flight are dropped.
    fn close(&self) {
        self.crawl.stop();
    }
}

/// The async iterator `Browser.acrawl` returns (`async for page in ...`): as `CrawlIter`.
#[pyclass(module = "sightline")]
pub struct AsyncCrawlIter {
    crawl: Crawl,
}

impl AsyncCrawlIter {
    pub(crate) fn new(crawl: Crawl) -> AsyncCrawlIter {
        AsyncCrawlIter { crawl }
    }
}

#[pymethods]
impl AsyncCrawlIter {
    fn __aiter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }
    fn __anext__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let next = self.crawl.next();
        bridge::awaitable(py, async move {
            next.await?.ok_or_else(|| PyStopAsyncIteration::new_err(()))
        })
    }
    /// As `CrawlIter.summary`.
    #[getter]
    fn summary(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        self.crawl.summary(py)
    }
    /// Stop the crawl: no new page starts, and pages in flight are dropped.
    fn close(&self) {
        self.crawl.stop();
    }
}
