//! `Browser` (one [`sightline::Extractor`]: a Chromium with a pool of tabs), the `Page` it
//! returns, and `extract_many`'s results and iterators, sync and async. Every call runs the
//! library's future on the module's tokio runtime: sync calls with the GIL released and
//! Ctrl-C checked every 100 ms ([`crate::block_on`]), async calls as asyncio awaitables
//! (pyo3-async-runtimes), usable inside a running event loop such as Jupyter's.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use pyo3::exceptions::{PyRuntimeError, PyStopAsyncIteration, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};

use sightline::batch::{Cancel, PageConfig};
use sightline::{Error, Extractor, Options, Source};

use crate::convert::{self, json_to_py};
use crate::snapshot::Snapshot;
use crate::{block_on, runtime};

/// A source from Python: a URL or path string (as on the command line), an `os.PathLike`, or
/// `html=` text or bytes (named by `url=`).
fn source(
    py: Python<'_>,
    src: Option<&Bound<'_, PyAny>>,
    html: Option<&Bound<'_, PyAny>>,
    url: Option<String>,
) -> PyResult<Source> {
    if let Some(h) = html {
        let bytes: Vec<u8> = if let Ok(s) = h.cast::<PyString>() {
            s.extract::<String>()?.into_bytes()
        } else {
            h.extract()?
        };
        return Ok(Source::html(url.unwrap_or_else(|| "<html>".into()), bytes));
    }
    match src {
        Some(s) => item_source(py, s),
        None => match url {
            Some(u) => Ok(Source::Url(u)),
            None => Err(PyTypeError::new_err(
                "give a source (URL or path), url=, or html=",
            )),
        },
    }
}

/// One input of `extract_many`: a string, an `os.PathLike`, or a dict with `html` (and
/// `url`) or `url`.
fn item_source(py: Python<'_>, s: &Bound<'_, PyAny>) -> PyResult<Source> {
    if let Ok(t) = s.cast::<PyString>() {
        return Ok(Source::Arg(t.extract::<String>()?));
    }
    if let Ok(d) = s.cast::<PyDict>() {
        let html = d.get_item("html")?;
        let url: Option<String> = d.get_item("url")?.map(|u| u.extract()).transpose()?;
        return source(py, None, html.as_ref(), url);
    }
    if let Ok(p) = s.extract::<PathBuf>() {
        return Ok(Source::Path(p));
    }
    Err(PyTypeError::new_err(format!(
        "a source is a URL or path string, an os.PathLike, or a dict with html=/url=, not {}",
        s.get_type().name()?
    )))
}

/// One extracted page.
#[pyclass(module = "sightline", frozen)]
pub struct Page {
    page: sightline::Page,
}

impl Page {
    pub(crate) fn new(page: sightline::Page) -> Page {
        Page { page }
    }
}

#[pymethods]
impl Page {
    /// The content as plain text, one paragraph per line (`extract -f text`).
    #[getter]
    fn text(&self, py: Python<'_>) -> String {
        py.detach(|| self.page.text())
    }
    /// The content as Markdown (`extract -f markdown`).
    #[getter]
    fn markdown(&self, py: Python<'_>) -> String {
        py.detach(|| self.page.markdown())
    }
    /// The content subtrees as cleaned HTML (`extract -f html`).
    #[getter]
    fn html(&self, py: Python<'_>) -> String {
        py.detach(|| self.page.html())
    }
    /// `document.title`.
    #[getter]
    fn title(&self) -> &str {
        self.page.title()
    }
    /// The final URL, after redirects.
    #[getter]
    fn url(&self) -> &str {
        self.page.url()
    }
    /// The source as given.
    #[getter]
    fn input(&self) -> &str {
        self.page.input()
    }
    /// The algorithm that produced `text`, `markdown`, `html` and `blocks`.
    #[getter]
    fn algorithm(&self) -> Option<&'static str> {
        self.page.extraction().map(|e| e.algorithm.name())
    }
    /// HTTP status of the main document (None for files).
    #[getter]
    fn status(&self) -> Option<i64> {
        self.page.record().status
    }
    /// The kept blocks: for `learned`, each block's `path`, `box` `[x, y, w, h]`, `chars`,
    /// `probability`, `pass1_probability` and top feature contributions (`pass1_top`,
    /// `pass2_top`); for the other algorithms, each content root's `path`, `tag`, `box`,
    /// `chars` and (density algorithms) `scores` (td, ctd, vi, htd, density_sum).
    #[getter]
    fn blocks(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let rec = self.page.json();
        let learned = &rec["details"]["blocks"];
        let v = if rec["algorithm"] == "learned" && learned.is_array() {
            learned
        } else {
            &rec["content"]
        };
        json_to_py(py, v)
    }
    /// The full-page PNG (bytes), when screenshots were asked for.
    #[getter]
    fn screenshot<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyBytes>> {
        self.page.screenshot().map(|b| PyBytes::new(py, b))
    }
    /// The screenshot with the extraction drawn on it (`annotate=True`).
    #[getter]
    fn annotated<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyBytes>> {
        self.page.annotated().map(|b| PyBytes::new(py, b))
    }
    /// Milliseconds of each phase: launch, navigate, settle, scroll, snapshot, score,
    /// screenshot.
    #[getter]
    fn timings(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        json_to_py(py, &self.page.json()["timings_ms"])
    }
    /// The layout snapshot the algorithms scored.
    #[getter]
    fn snapshot(&self) -> Snapshot {
        Snapshot::new(self.page.snapshot().clone(), self.page.input().to_string())
    }
    /// The record of `sightline extract -f json` as a dict.
    fn to_dict(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        json_to_py(py, &self.page.json())
    }
    /// The record of `sightline extract -f json` as JSON text.
    fn to_json(&self) -> String {
        self.page.format(sightline::Format::Json)
    }
    fn __repr__(&self) -> String {
        format!(
            "<sightline.Page {} {:?}>",
            self.page.url(),
            self.page.title()
        )
    }
}

/// One item of `extract_many`: the input's `index` and either its `page` or its `error` (an
/// exception instance of the error's kind; not raised).
#[pyclass(module = "sightline", frozen, name = "Result")]
pub struct BatchResult {
    /// Position of the input in the list given.
    #[pyo3(get)]
    index: usize,
    /// The input as given (its name).
    #[pyo3(get)]
    input: String,
    /// The page, or None when the input failed.
    #[pyo3(get)]
    page: Option<Py<Page>>,
    /// The error (a `sightline.SightlineError`), or None.
    #[pyo3(get)]
    error: Option<Py<PyAny>>,
    /// The error's kind (timeout, navigation, http, ...), or None.
    #[pyo3(get)]
    kind: Option<&'static str>,
}

#[pymethods]
impl BatchResult {
    /// True when the input extracted.
    #[getter]
    fn ok(&self) -> bool {
        self.page.is_some()
    }
    fn __repr__(&self) -> String {
        match self.kind {
            None => format!("<sightline.Result #{} ok {}>", self.index, self.input),
            Some(k) => format!("<sightline.Result #{} {k} {}>", self.index, self.input),
        }
    }
}

fn batch_result(
    py: Python<'_>,
    names: &[String],
    index: usize,
    r: Result<sightline::Page, Error>,
) -> PyResult<BatchResult> {
    let input = names.get(index).cloned().unwrap_or_default();
    Ok(match r {
        Ok(p) => BatchResult {
            index,
            input,
            page: Some(Py::new(py, Page::new(p))?),
            error: None,
            kind: None,
        },
        Err(e) => BatchResult {
            index,
            input,
            page: None,
            error: Some(convert::to_pyerr(py, &e).into_value(py).into_any()),
            kind: Some(e.kind()),
        },
    })
}

type Item = (usize, Result<sightline::Page, Error>);

/// Run `extract_many` on the runtime, sending each item as it completes.
fn spawn_many(
    ex: Arc<Extractor>,
    sources: Vec<Source>,
    cfg: Arc<PageConfig>,
    cancel: Cancel,
) -> (
    tokio::sync::mpsc::UnboundedReceiver<Item>,
    tokio::task::JoinHandle<()>,
) {
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    let task = runtime().spawn(async move {
        use futures::StreamExt;
        let stream = ex.extract_many_with(sources, cfg, cancel);
        futures::pin_mut!(stream);
        while let Some(item) = stream.next().await {
            if tx.send(item).is_err() {
                break;
            }
        }
    });
    (rx, task)
}

/// The iterator `Browser.extract_many` returns: one `Result` per input, in completion order.
/// Ctrl-C while waiting stops the batch (no new page starts, pages in flight are dropped and
/// their tabs closed) and raises `KeyboardInterrupt`.
#[pyclass(module = "sightline")]
pub struct PageIter {
    rx: Mutex<tokio::sync::mpsc::UnboundedReceiver<Item>>,
    task: tokio::task::JoinHandle<()>,
    cancel: Cancel,
    names: Vec<String>,
}

#[pymethods]
impl PageIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }
    fn __next__(&self, py: Python<'_>) -> PyResult<Option<BatchResult>> {
        loop {
            let got = py.detach(|| {
                let Ok(mut rx) = self.rx.lock() else {
                    return Some(None);
                };
                runtime().block_on(async {
                    tokio::time::timeout(Duration::from_millis(100), rx.recv())
                        .await
                        .ok()
                })
            });
            match got {
                Some(Some((i, r))) => return batch_result(py, &self.names, i, r).map(Some),
                Some(None) => return Ok(None),
                None => {
                    if let Err(e) = py.check_signals() {
                        self.stop();
                        return Err(e);
                    }
                }
            }
        }
    }
    /// Number of inputs.
    fn __len__(&self) -> usize {
        self.names.len()
    }
    /// Stop the batch: no new page starts, and pages in flight are dropped.
    fn close(&self) {
        self.stop();
    }
}

impl PageIter {
    fn stop(&self) {
        self.cancel.cancel();
        self.task.abort();
    }
}

impl Drop for PageIter {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The async iterator `Browser.aextract_many` returns (`async for r in ...`).
#[pyclass(module = "sightline")]
pub struct AsyncPageIter {
    rx: Arc<tokio::sync::Mutex<tokio::sync::mpsc::UnboundedReceiver<Item>>>,
    task: tokio::task::JoinHandle<()>,
    cancel: Cancel,
    names: Arc<Vec<String>>,
}

#[pymethods]
impl AsyncPageIter {
    fn __aiter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }
    fn __anext__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let rx = self.rx.clone();
        let names = self.names.clone();
        pyo3_async_runtimes::tokio::future_into_py(py, async move {
            let item = rx.lock().await.recv().await;
            match item {
                Some((i, r)) => Python::attach(|py| batch_result(py, &names, i, r)),
                None => Err(PyStopAsyncIteration::new_err(())),
            }
        })
    }
    /// Number of inputs.
    fn __len__(&self) -> usize {
        self.names.len()
    }
    /// Stop the batch: no new page starts, and pages in flight are dropped.
    fn close(&self) {
        self.cancel.cancel();
        self.task.abort();
    }
}

impl Drop for AsyncPageIter {
    fn drop(&mut self) {
        self.cancel.cancel();
        self.task.abort();
    }
}

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

    /// The page settings of one call: the browser's, with another algorithm or parameters.
    fn call_cfg(
        &self,
        py: Python<'_>,
        algorithm: Option<&str>,
        params: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Arc<PageConfig>> {
        if algorithm.is_none() && params.is_none() {
            return Ok(self.cfg.clone());
        }
        let mut cfg = (*self.cfg).clone();
        if let Some(a) = algorithm {
            cfg.algorithms = vec![convert::algorithm(Some(a))?];
        }
        if params.is_some() {
            cfg.params = convert::params(py, params)?;
        }
        Ok(Arc::new(cfg))
    }

    fn names(sources: &[Source]) -> Vec<String> {
        sources.iter().map(Source::name).collect()
    }
}

#[pymethods]
impl Browser {
    /// Launch Chromium (found as the CLI finds it: `chrome`, then `$CHROME`, then
    /// chromium-headless-shell or chromium on PATH), or connect to running browsers.
    #[new]
    #[pyo3(signature = (tabs=4, *, browser_ws=None, offline=false, timeout=15.0, algorithm=None,
        params=None, screenshot=false, annotate=false, chrome=None, viewport=None, charset=None,
        accept_http_errors=false, comments=false, deny_private=false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        tabs: usize,
        browser_ws: Option<Vec<String>>,
        offline: bool,
        timeout: f64,
        algorithm: Option<&str>,
        params: Option<&Bound<'_, PyAny>>,
        screenshot: bool,
        annotate: bool,
        chrome: Option<PathBuf>,
        viewport: Option<(u32, u32)>,
        charset: Option<String>,
        accept_http_errors: bool,
        comments: bool,
        deny_private: bool,
    ) -> PyResult<Browser> {
        if !(timeout.is_finite() && timeout > 0.0) {
            return Err(convert::input_err(format!(
                "timeout must be a positive number of seconds, not {timeout}"
            )));
        }
        let mut o = Options::default()
            .tabs(tabs)
            .offline(offline)
            .timeout(Duration::from_secs_f64(timeout))
            .screenshot(screenshot)
            .annotate(annotate)
            .algorithm(convert::algorithm(algorithm)?)
            .params({
                let mut p = convert::params(py, params)?;
                p.learned.comments |= comments;
                p
            })
            .accept_http_errors(accept_http_errors)
            .deny_private(deny_private);
        if let Some(ws) = browser_ws.filter(|w| !w.is_empty()) {
            o = o.browser_ws(ws);
        }
        if let Some(c) = chrome {
            o = o.chrome(c);
        }
        if let Some((w, h)) = viewport {
            o = o.viewport(w, h);
        }
        if let Some(c) = charset {
            o = o.charset(c);
        }
        let ex = block_on(py, Extractor::new(o))?.map_err(|e| convert::to_pyerr(py, &e))?;
        let cfg = ex.page_config().clone();
        Ok(Browser {
            inner: Mutex::new(Some(Arc::new(ex))),
            cfg,
        })
    }

    /// Render and extract one page. `source` is a URL or a path (as on the command line) or
    /// an `os.PathLike`; or give `html=` (text or bytes; `url=` names it). `algorithm` and
    /// `params` override the browser's for this page; `screenshot` too when not None.
    #[pyo3(signature = (source=None, *, html=None, url=None, algorithm=None, params=None, screenshot=None))]
    #[allow(clippy::too_many_arguments)]
    fn extract(
        &self,
        py: Python<'_>,
        source: Option<&Bound<'_, PyAny>>,
        html: Option<&Bound<'_, PyAny>>,
        url: Option<String>,
        algorithm: Option<&str>,
        params: Option<&Bound<'_, PyAny>>,
        screenshot: Option<bool>,
    ) -> PyResult<Page> {
        let src = self::source(py, source, html, url)?;
        let cfg = self.call_cfg(py, algorithm, params)?;
        let ex = self.extractor()?;
        let r = block_on(
            py,
            async move { ex.extract_with(src, &cfg, screenshot).await },
        )?;
        r.map(Page::new).map_err(|e| convert::to_pyerr(py, &e))
    }

    /// Async [`extract`]: `await browser.aextract(...)`, inside any running asyncio loop.
    #[pyo3(signature = (source=None, *, html=None, url=None, algorithm=None, params=None, screenshot=None))]
    #[allow(clippy::too_many_arguments)]
    fn aextract<'py>(
        &self,
        py: Python<'py>,
        source: Option<&Bound<'py, PyAny>>,
        html: Option<&Bound<'py, PyAny>>,
        url: Option<String>,
        algorithm: Option<&str>,
        params: Option<&Bound<'py, PyAny>>,
        screenshot: Option<bool>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let src = self::source(py, source, html, url)?;
        let cfg = self.call_cfg(py, algorithm, params)?;
        let ex = self.extractor()?;
        pyo3_async_runtimes::tokio::future_into_py(py, async move {
            ex.extract_with(src, &cfg, screenshot)
                .await
                .map(Page::new)
                .map_err(convert::err)
        })
    }

    /// Extract every input with every tab busy (the library's batch runner): an iterator of
    /// `Result`s, one per input, in completion order, each with the input's `index` and its
    /// `page` or its `error`. A failing input never stops the others.
    #[pyo3(signature = (inputs, *, algorithm=None, params=None))]
    fn _extract_many(
        &self,
        py: Python<'_>,
        inputs: &Bound<'_, PyAny>,
        algorithm: Option<&str>,
        params: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PageIter> {
        let sources: Vec<Source> = inputs
            .try_iter()?
            .map(|s| item_source(py, &s?))
            .collect::<PyResult<_>>()?;
        let names = Browser::names(&sources);
        let cancel = Cancel::new();
        let (rx, task) = spawn_many(
            self.extractor()?,
            sources,
            self.call_cfg(py, algorithm, params)?,
            cancel.clone(),
        );
        Ok(PageIter {
            rx: Mutex::new(rx),
            task,
            cancel,
            names,
        })
    }

    /// Async `extract_many`: `async for r in browser.aextract_many(inputs)`.
    #[pyo3(signature = (inputs, *, algorithm=None, params=None))]
    fn aextract_many(
        &self,
        py: Python<'_>,
        inputs: &Bound<'_, PyAny>,
        algorithm: Option<&str>,
        params: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<AsyncPageIter> {
        let sources: Vec<Source> = inputs
            .try_iter()?
            .map(|s| item_source(py, &s?))
            .collect::<PyResult<_>>()?;
        let names = Arc::new(Browser::names(&sources));
        let cancel = Cancel::new();
        let (rx, task) = spawn_many(
            self.extractor()?,
            sources,
            self.call_cfg(py, algorithm, params)?,
            cancel.clone(),
        );
        Ok(AsyncPageIter {
            rx: Arc::new(tokio::sync::Mutex::new(rx)),
            task,
            cancel,
            names,
        })
    }

    /// Render one page and return its layout snapshot, without scoring it.
    #[pyo3(signature = (source=None, *, html=None, url=None))]
    fn snapshot(
        &self,
        py: Python<'_>,
        source: Option<&Bound<'_, PyAny>>,
        html: Option<&Bound<'_, PyAny>>,
        url: Option<String>,
    ) -> PyResult<Snapshot> {
        let src = self::source(py, source, html, url)?;
        let name = src.name();
        let ex = self.extractor()?;
        let r = block_on(py, async move { ex.snapshot(src).await })?;
        r.map(|s| Snapshot::new(s, name))
            .map_err(|e| convert::to_pyerr(py, &e))
    }

    /// Async [`snapshot`].
    #[pyo3(signature = (source=None, *, html=None, url=None))]
    fn asnapshot<'py>(
        &self,
        py: Python<'py>,
        source: Option<&Bound<'py, PyAny>>,
        html: Option<&Bound<'py, PyAny>>,
        url: Option<String>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let src = self::source(py, source, html, url)?;
        let name = src.name();
        let ex = self.extractor()?;
        pyo3_async_runtimes::tokio::future_into_py(py, async move {
            ex.snapshot(src)
                .await
                .map(|s| Snapshot::new(s, name))
                .map_err(convert::err)
        })
    }

    /// Tabs rendering at once.
    #[getter]
    fn tabs(&self) -> PyResult<usize> {
        Ok(sightline::batch::PageRenderer::concurrency(
            self.extractor()?.browsers(),
        ))
    }

    /// Is the browser closed?
    #[getter]
    fn closed(&self) -> bool {
        self.inner.lock().map(|g| g.is_none()).unwrap_or(true)
    }

    /// Close every tab and end the browser (its processes and profile are removed). Safe to
    /// call twice.
    fn close(&self, py: Python<'_>) -> PyResult<()> {
        let Some(mut ex) = self.inner.lock().ok().and_then(|mut g| g.take()) else {
            return Ok(());
        };
        // Batches that were stopped let go of the extractor as their tasks end.
        for _ in 0..50 {
            match Arc::try_unwrap(ex) {
                Ok(e) => return block_on(py, e.shutdown()),
                Err(again) => {
                    ex = again;
                    py.detach(|| std::thread::sleep(Duration::from_millis(20)));
                }
            }
        }
        // Still shared (an iterator alive): the last holder's drop ends the browser.
        drop(ex);
        Ok(())
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    #[pyo3(signature = (*_args))]
    fn __exit__(&self, py: Python<'_>, _args: &Bound<'_, pyo3::types::PyTuple>) -> PyResult<bool> {
        self.close(py)?;
        Ok(false)
    }

    fn __aenter__<'py>(slf: Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let me = slf.unbind();
        pyo3_async_runtimes::tokio::future_into_py(py, async move { Ok(me) })
    }

    #[pyo3(signature = (*_args))]
    fn __aexit__<'py>(
        &self,
        py: Python<'py>,
        _args: &Bound<'py, pyo3::types::PyTuple>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let ex = self.inner.lock().ok().and_then(|mut g| g.take());
        pyo3_async_runtimes::tokio::future_into_py(py, async move {
            if let Some(mut ex) = ex {
                for _ in 0..50 {
                    match Arc::try_unwrap(ex) {
                        Ok(e) => {
                            e.shutdown().await;
                            return Ok(false);
                        }
                        Err(again) => {
                            ex = again;
                            tokio::time::sleep(Duration::from_millis(20)).await;
                        }
                    }
                }
            }
            Ok(false)
        })
    }

    fn __repr__(&self) -> String {
        if self.closed() {
            "<sightline.Browser closed>".into()
        } else {
            format!("<sightline.Browser tabs={}>", self.tabs().unwrap_or(0))
        }
    }
}
