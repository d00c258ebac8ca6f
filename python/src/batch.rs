//! `extract_many`'s running batch and its results: one [`Batch`] (the library's batch runner
//! on the module's runtime, the results it has yet to hand out, the progress bar) behind both
//! iterators, `PageIter` (sync) and `AsyncPageIter` (`async for`), which differ only in how
//! they wait for [`Batch::next`] ([`bridge::wait`] or [`bridge::awaitable`]).

use std::sync::{Arc, Mutex};

use pyo3::exceptions::PyStopAsyncIteration;
use pyo3::prelude::*;
use pyo3::sync::MutexExt;
use pyo3::types::PyDict;
use tokio::sync::mpsc::UnboundedReceiver;

use sightline::{Cancel, PageConfig};
use sightline::{Error, Extractor, Source};

use crate::bridge;
use crate::convert;
use crate::page::Page;

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

type Item = (usize, Result<sightline::Page, Error>);

/// A batch's progress bar on stderr: tqdm's when tqdm is installed, else a counter line
/// (`3/10 pages, 1 failed`); shown only when asked for and stderr is a terminal. Display
/// errors are ignored (the bar is decoration; the results are the data).
enum Progress {
    Off,
    Tqdm {
        bar: Py<PyAny>,
        failed: usize,
    },
    Line {
        done: usize,
        failed: usize,
        total: usize,
    },
}

impl Progress {
    fn new(py: Python<'_>, on: bool, total: usize) -> Progress {
        let tty = || -> PyResult<bool> { stderr(py)?.call_method0("isatty")?.extract() };
        if !on || !tty().unwrap_or(false) {
            return Progress::Off;
        }
        let tqdm = || -> PyResult<Py<PyAny>> {
            let kw = PyDict::new(py);
            kw.set_item("total", total)?;
            kw.set_item("unit", "page")?;
            kw.set_item("file", stderr(py)?)?;
            Ok(py
                .import("tqdm")?
                .getattr("tqdm")?
                .call((), Some(&kw))?
                .unbind())
        };
        match tqdm() {
            Ok(bar) => Progress::Tqdm { bar, failed: 0 },
            Err(_) => Progress::Line {
                done: 0,
                failed: 0,
                total,
            },
        }
    }

    /// One more result.
    fn tick(&mut self, py: Python<'_>, ok: bool) {
        let _ = match self {
            Progress::Off => Ok(()),
            Progress::Tqdm { bar, failed } => {
                *failed += usize::from(!ok);
                let bar = bar.bind(py);
                let kw = PyDict::new(py);
                (|| {
                    kw.set_item("failed", *failed)?;
                    kw.set_item("refresh", false)?;
                    bar.call_method("set_postfix", (), Some(&kw))?;
                    bar.call_method1("update", (1,)).map(drop)
                })()
            }
            Progress::Line {
                done,
                failed,
                total,
            } => {
                *done += 1;
                *failed += usize::from(!ok);
                write(py, &format!("\r{done}/{total} pages, {failed} failed"))
            }
        };
    }

    /// End the bar (a second call does nothing).
    fn close(&mut self, py: Python<'_>) {
        let _ = match std::mem::replace(self, Progress::Off) {
            Progress::Off => Ok(()),
            Progress::Tqdm { bar, .. } => bar.bind(py).call_method0("close").map(drop),
            Progress::Line { done, .. } if done > 0 => write(py, "\n"),
            Progress::Line { .. } => Ok(()),
        };
    }
}

fn stderr(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    py.import("sys")?.getattr("stderr")
}

fn write(py: Python<'_>, text: &str) -> PyResult<()> {
    let err = stderr(py)?;
    err.call_method1("write", (text,))?;
    err.call_method0("flush").map(drop)
}

/// The state both iterators share with the futures they wait on. The progress bar's lock is
/// taken with the GIL released while waiting (`lock_py_attached`): its holder may be writing
/// to stderr, which releases the GIL.
struct Shared {
    rx: tokio::sync::Mutex<UnboundedReceiver<Item>>,
    names: Vec<String>,
    progress: Mutex<Progress>,
}

impl Shared {
    /// An item as a `Result` (counted on the progress bar); None, the batch is done.
    fn deliver(&self, py: Python<'_>, item: Option<Item>) -> PyResult<Option<BatchResult>> {
        let mut progress = self
            .progress
            .lock_py_attached(py)
            .unwrap_or_else(|e| e.into_inner());
        let Some((index, r)) = item else {
            progress.close(py);
            return Ok(None);
        };
        progress.tick(py, r.is_ok());
        let input = self.names.get(index).cloned().unwrap_or_default();
        Ok(Some(match r {
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
        }))
    }
}

/// One running `extract_many`: the library's batch runner on the module's runtime, sending
/// each item as it completes. Stopping it (or dropping it) takes no new input, drops the
/// pages in flight (closing their tabs) and ends the progress bar.
pub(crate) struct Batch {
    shared: Arc<Shared>,
    task: tokio::task::JoinHandle<()>,
    cancel: Cancel,
}

impl Batch {
    pub(crate) fn start(
        py: Python<'_>,
        ex: Arc<Extractor>,
        sources: Vec<Source>,
        cfg: Arc<PageConfig>,
        progress: bool,
    ) -> Batch {
        let names: Vec<String> = sources.iter().map(Source::name).collect();
        let cancel = Cancel::new();
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        let stop = cancel.clone();
        let task = bridge::runtime().spawn(async move {
            use futures::StreamExt;
            let stream = ex.extract_many_with(sources, cfg, stop);
            futures::pin_mut!(stream);
            while let Some(item) = stream.next().await {
                if tx.send(item).is_err() {
                    break;
                }
            }
        });
        let shared = Arc::new(Shared {
            rx: tokio::sync::Mutex::new(rx),
            progress: Mutex::new(Progress::new(py, progress, names.len())),
            names,
        });
        Batch {
            shared,
            task,
            cancel,
        }
    }

    /// The next result, in completion order (None: every input has its result): the one
    /// future both iterators wait on.
    fn next(
        &self,
    ) -> impl std::future::Future<Output = PyResult<Option<BatchResult>>> + Send + 'static {
        let shared = self.shared.clone();
        async move {
            let item = shared.rx.lock().await.recv().await;
            Python::attach(|py| shared.deliver(py, item))
        }
    }

    fn len(&self) -> usize {
        self.shared.names.len()
    }

    fn stop(&self) {
        self.cancel.cancel();
        self.task.abort();
        Python::try_attach(|py| {
            let progress = self.shared.progress.lock_py_attached(py);
            let mut progress = progress.unwrap_or_else(|e| e.into_inner());
            progress.close(py);
        });
    }
}

impl Drop for Batch {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The iterator `Browser.extract_many` returns: one `Result` per input, in completion order.
/// Ctrl-C while waiting stops the batch (no new page starts, pages in flight are dropped and
/// their tabs closed) and raises `KeyboardInterrupt`.
#[pyclass(module = "sightline")]
pub struct PageIter {
    batch: Batch,
}

impl PageIter {
    pub(crate) fn new(batch: Batch) -> PageIter {
        PageIter { batch }
    }
}

#[pymethods]
impl PageIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }
    fn __next__(&self, py: Python<'_>) -> PyResult<Option<BatchResult>> {
        bridge::wait(py, self.batch.next()).inspect_err(|_| self.batch.stop())
    }
    /// Number of inputs.
    fn __len__(&self) -> usize {
        self.batch.len()
    }
    /// Stop the batch: no new page starts, and pages in flight are dropped.
    fn close(&self) {
        self.batch.stop();
    }
}

/// The async iterator `Browser.aextract_many` returns (`async for r in ...`): as `PageIter`.
#[pyclass(module = "sightline")]
pub struct AsyncPageIter {
    batch: Batch,
}

impl AsyncPageIter {
    pub(crate) fn new(batch: Batch) -> AsyncPageIter {
        AsyncPageIter { batch }
    }
}

#[pymethods]
impl AsyncPageIter {
    fn __aiter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }
    fn __anext__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let next = self.batch.next();
        bridge::awaitable(py, async move {
            next.await?.ok_or_else(|| PyStopAsyncIteration::new_err(()))
        })
    }
    /// Number of inputs.
    fn __len__(&self) -> usize {
        self.batch.len()
    }
    /// Stop the batch: no new page starts, and pages in flight are dropped.
    fn close(&self) {
        self.batch.stop();
    }
}
