//! `Browser` (one [`sightline::Extractor`]: a Chromium with a pool of tabs). Each operation
//! has one body, a method that reads the call's keywords ([`crate::options`]) and returns the
//! operation's future; the sync method waits for that future ([`bridge::wait`]: GIL released,
//! Ctrl-C checked every 100 ms) and its async twin returns it as an awaitable
//! ([`bridge::awaitable`]). `close()` and `__aexit__` share [`shutdown`] the same way.

use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use sightline::Extractor;
use sightline::PageConfig;

use crate::batch::{AsyncPageIter, Batch, PageIter};
use crate::bridge;
use crate::convert;
use crate::crawl::{AsyncCrawlIter, Crawl, CrawlIter};
use crate::options::{self, Call};
use crate::page::{Page, Snapshot};

/// One Chromium (or several with `browser_ws`) with a pool of `tabs` tabs, and the scoring
/// settings. Use it as a context manager; `close()` ends the browser.
#[pyclass(module = "sightline", frozen, subclass, name = "_Browser")]
pub struct Browser {
    inner: Mutex<Option<Arc<Extractor>>>,
    cfg: Arc<PageConfig>,
}

impl Browser {
    fn extractor(&self) -> PyResult<Arc<Extractor>> {
        self.inner
            .lock()
            .map_err(|_| PyRuntimeError::new_err("the browser's lock is poisoned"))?
            .clone()
            .ok_or_else(|| PyRuntimeError::new_err("the Browser is closed"))
    }

    /// The body of `extract` and `aextract`: render and extract one page.
    fn extract_op(
        &self,
        py: Python<'_>,
        func: &str,
        source: Option<&Bound<'_, PyAny>>,
        kw: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<impl Future<Output = PyResult<Page>> + Send + 'static> {
        let call = Call::parse(func, Some(options::EXTRACT), kw)?;
        let src = call.source(py, source)?;
        let cfg = call.page_config(py, &self.cfg)?;
        let ex = self.extractor()?;
        let screenshot = call.screenshot;
        Ok(async move {
            ex.extract_with(src, cfg, screenshot)
                .await
                .map(Page::new)
                .map_err(convert::err)
        })
    }

    /// The body of `snapshot` and `asnapshot`: render one page and take its layout snapshot.
    fn snapshot_op(
        &self,
        py: Python<'_>,
        func: &str,
        source: Option<&Bound<'_, PyAny>>,
        kw: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<impl Future<Output = PyResult<Snapshot>> + Send + 'static> {
        let call = Call::parse(func, Some(options::SNAPSHOT), kw)?;
        let src = call.source(py, source)?;
        let name = src.name();
        let mut ex = self.extractor()?;
        if call.steer.is_some() {
            let cfg = call.page_config(py, &self.cfg)?;
            ex = Arc::new(ex.with_config((*cfg).clone()));
        }
        Ok(async move {
            ex.snapshot(src)
                .await
                .map(|s| Snapshot::new(s, name))
                .map_err(convert::err)
        })
    }

    /// The body of `extract_many` and `aextract_many`: start the batch.
    fn batch(
        &self,
        py: Python<'_>,
        func: &str,
        inputs: &Bound<'_, PyAny>,
        kw: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Batch> {
        let call = Call::parse(func, Some(options::EXTRACT_MANY), kw)?;
        let sources = options::sources(py, inputs)?;
        let cfg = call.page_config(py, &self.cfg)?;
        Ok(Batch::start(
            py,
            self.extractor()?,
            sources,
            cfg,
            call.progress,
        ))
    }

    /// The body of `crawl` and `acrawl`: start the crawl. Pages are scored with the
    /// browser's settings (or the call's `algorithm`, `params`, `steer`) and written as
    /// Markdown (the pages' `markdown`).
    fn crawl_op(
        &self,
        py: Python<'_>,
        func: &str,
        seeds: &Bound<'_, PyAny>,
        kw: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Crawl> {
        let (settings, run, call) = options::crawl_keywords(py, func, None, options::CRAWL, kw)?;
        let cfg = run.config(seeds, settings)?;
        let page = (*call.page_config(py, &self.cfg)?)
            .clone()
            .format(sightline::output::Format::Markdown);
        Ok(Crawl::start(self.extractor()?, cfg, page))
    }

    /// The body of `map` and `amap`: the URLs a crawl would find, as dicts.
    fn map_op(
        &self,
        py: Python<'_>,
        func: &str,
        seeds: &Bound<'_, PyAny>,
        kw: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<impl Future<Output = PyResult<Py<PyAny>>> + Send + 'static> {
        let (settings, run, call) =
            options::crawl_keywords(py, func, Some(options::MAP_RUN), options::MAP, kw)?;
        let cfg = run.config(seeds, settings)?;
        let mut ex = self.extractor()?;
        if call.steer.is_some() {
            let page = call.page_config(py, &self.cfg)?;
            ex = Arc::new(ex.with_config((*page).clone()));
        }
        Ok(async move {
            let cancel = sightline::Cancel::new();
            let found = ex.map(&cfg, &cancel).await.map_err(convert::err)?;
            let v = serde_json::to_value(&found).unwrap_or(serde_json::Value::Null);
            Python::attach(|py| convert::json_to_py(py, &v))
        })
    }

    /// Let go of the extractor (the browser is closed from here on).
    fn take(&self) -> Option<Arc<Extractor>> {
        self.inner.lock().ok().and_then(|mut g| g.take())
    }
}

/// End the browser once the batches that shared it have let go of it (stopped batches do as
/// their tasks end): the one shutdown of `close()` and `__aexit__`. Still shared after a
/// second (an iterator alive), the last holder's drop ends the browser.
async fn shutdown(ex: Option<Arc<Extractor>>) -> PyResult<()> {
    let Some(mut ex) = ex else { return Ok(()) };
    for _ in 0..50 {
        match Arc::try_unwrap(ex) {
            Ok(e) => {
                let archived = e.finish_archive();
                e.shutdown().await;
                archived.map_err(crate::convert::err)?;
                return Ok(());
            }
            Err(again) => {
                ex = again;
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
    }
    Ok(())
}

#[pymethods]
impl Browser {
    /// Launch Chromium (found as the CLI finds it: `chrome`, then `$CHROME`, then
    /// chromium-headless-shell or chromium on PATH), or connect to running browsers. The
    /// keyword options are the render settings and `BrowserOptions`' own (`options.rs`).
    #[new]
    #[pyo3(signature = (tabs=4, **options))]
    fn new(py: Python<'_>, tabs: usize, options: Option<&Bound<'_, PyDict>>) -> PyResult<Browser> {
        let (own, render, scoring, writer) = options::browser_keywords(py, "Browser", options)?;
        let o = own.options(py, tabs, render, scoring, writer)?;
        let ex = bridge::wait(
            py,
            async move { Extractor::new(o).await.map_err(convert::err) },
        )?;
        let cfg = ex.page_config().clone();
        Ok(Browser {
            inner: Mutex::new(Some(Arc::new(ex))),
            cfg,
        })
    }

    /// Render and extract one page. `source` is a URL or a path (as on the command line) or
    /// an `os.PathLike`; or give `html=` (text or bytes; `url=` names it). `algorithm` and
    /// `params` override the browser's for this page; `screenshot` too when not None.
    #[pyo3(signature = (source=None, **kw))]
    fn extract(
        &self,
        py: Python<'_>,
        source: Option<&Bound<'_, PyAny>>,
        kw: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Page> {
        bridge::wait(py, self.extract_op(py, "extract", source, kw)?)
    }

    /// Async `extract`: `await browser.aextract(...)`, inside any running asyncio loop.
    #[pyo3(signature = (source=None, **kw))]
    fn aextract<'py>(
        &self,
        py: Python<'py>,
        source: Option<&Bound<'py, PyAny>>,
        kw: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        bridge::awaitable(py, self.extract_op(py, "aextract", source, kw)?)
    }

    /// Extract every input with every tab busy (the library's batch runner): an iterator of
    /// `Result`s, one per input, in completion order, each with the input's `index` and its
    /// `page` or its `error`. A failing input never stops the others. `progress`: a bar on
    /// stderr when it is a terminal; `algorithm` and `params` override the browser's.
    #[pyo3(signature = (inputs, **kw))]
    fn extract_many(
        &self,
        py: Python<'_>,
        inputs: &Bound<'_, PyAny>,
        kw: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PageIter> {
        Ok(PageIter::new(self.batch(py, "extract_many", inputs, kw)?))
    }

    /// Async `extract_many`: `async for r in browser.aextract_many(inputs)`.
    #[pyo3(signature = (inputs, **kw))]
    fn aextract_many(
        &self,
        py: Python<'_>,
        inputs: &Bound<'_, PyAny>,
        kw: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<AsyncPageIter> {
        Ok(AsyncPageIter::new(self.batch(
            py,
            "aextract_many",
            inputs,
            kw,
        )?))
    }

    /// Crawl a site from `seeds` (a URL or a list of URLs): robots.txt, sitemaps and feeds,
    /// and the rendered pages' links, in scope and polite (as `sightline crawl`). An iterator
    /// of `CrawlPage`s, one per page as each is recorded; a failing page is a `CrawlPage`
    /// whose `ok` is False. The keywords are the crawl's (`max_depth`, `max_pages`, `scope`,
    /// ...) and `algorithm`, `params`, `steer` for its pages.
    #[pyo3(signature = (seeds, **kw))]
    fn crawl(
        &self,
        py: Python<'_>,
        seeds: &Bound<'_, PyAny>,
        kw: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<CrawlIter> {
        Ok(CrawlIter::new(self.crawl_op(py, "crawl", seeds, kw)?))
    }

    /// Async `crawl`: `async for page in browser.acrawl(seeds)`.
    #[pyo3(signature = (seeds, **kw))]
    fn acrawl(
        &self,
        py: Python<'_>,
        seeds: &Bound<'_, PyAny>,
        kw: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<AsyncCrawlIter> {
        Ok(AsyncCrawlIter::new(self.crawl_op(py, "acrawl", seeds, kw)?))
    }

    /// The URLs a crawl from `seeds` finds (robots.txt, sitemaps, the rendered seeds' links
    /// to `max_depth`, 1 by default), without extracting (as `sightline map`): a list of
    /// `{"url", "depth", "found_in", "parent"}`.
    #[pyo3(signature = (seeds, **kw))]
    fn map(
        &self,
        py: Python<'_>,
        seeds: &Bound<'_, PyAny>,
        kw: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        bridge::wait(py, self.map_op(py, "map", seeds, kw)?)
    }

    /// Async `map`.
    #[pyo3(signature = (seeds, **kw))]
    fn amap<'py>(
        &self,
        py: Python<'py>,
        seeds: &Bound<'py, PyAny>,
        kw: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        bridge::awaitable(py, self.map_op(py, "amap", seeds, kw)?)
    }

    /// Render one page and return its layout snapshot, without scoring it.
    #[pyo3(signature = (source=None, **kw))]
    fn snapshot(
        &self,
        py: Python<'_>,
        source: Option<&Bound<'_, PyAny>>,
        kw: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Snapshot> {
        bridge::wait(py, self.snapshot_op(py, "snapshot", source, kw)?)
    }

    /// Async `snapshot`.
    #[pyo3(signature = (source=None, **kw))]
    fn asnapshot<'py>(
        &self,
        py: Python<'py>,
        source: Option<&Bound<'py, PyAny>>,
        kw: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        bridge::awaitable(py, self.snapshot_op(py, "asnapshot", source, kw)?)
    }

    /// Tabs rendering at once.
    #[getter]
    fn tabs(&self) -> PyResult<usize> {
        Ok(self.extractor()?.tabs())
    }

    /// Is the browser closed?
    #[getter]
    fn closed(&self) -> bool {
        self.inner.lock().map(|g| g.is_none()).unwrap_or(true)
    }

    /// Close every tab and end the browser (its processes and profile are removed). Safe to
    /// call twice.
    fn close(&self, py: Python<'_>) -> PyResult<()> {
        bridge::wait(py, shutdown(self.take()))
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    #[pyo3(signature = (*_args))]
    fn __exit__(&self, py: Python<'_>, _args: &Bound<'_, PyTuple>) -> PyResult<bool> {
        self.close(py)?;
        Ok(false)
    }

    fn __aenter__<'py>(slf: Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let me = slf.unbind();
        bridge::awaitable(py, async move { Ok(me) })
    }

    #[pyo3(signature = (*_args))]
    fn __aexit__<'py>(
        &self,
        py: Python<'py>,
        _args: &Bound<'py, PyTuple>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let ex = self.take();
        bridge::awaitable(py, async move { shutdown(ex).await.map(|()| false) })
    }

    fn __repr__(&self) -> String {
        if self.closed() {
            "<sightline.Browser closed>".into()
        } else {
            format!("<sightline.Browser tabs={}>", self.tabs().unwrap_or(0))
        }
    }
}
