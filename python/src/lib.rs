//! `sightline._sightline`: the Python binding of the sightline library (PyO3). Thin by design:
//! every operation is a call into the crate's public API ([`sightline::Extractor`],
//! [`sightline::Page`], [`sightline::Snapshot`], [`sightline::scores::node_scores`]); this
//! crate converts values and exceptions, releases the GIL while Rust works, and bridges
//! tokio futures to asyncio. The pure-Python package `sightline` re-exports it.
//!
//! - [`browser`]: `Browser` (one [`sightline::Extractor`]), `Page`, `Result`, the sync and
//!   async iterators of `extract_many`.
//! - [`snapshot`]: `Snapshot` (load, save, nodes, scores, extract without a browser).
//! - [`table`]: `Table`, a column table exported through the Arrow C data interface.
//! - [`eval`]: `evaluate()`, the benchmark runner's per-page scores as a `Table`.
//! - [`convert`]: JSON values to Python objects, library errors to typed exceptions.

mod browser;
mod convert;
mod eval;
mod snapshot;
mod table;

use std::future::Future;
use std::time::Duration;

use pyo3::prelude::*;

/// The tokio runtime every Rust future of this module runs on (pyo3-async-runtimes' own, so
/// the sync and the async calls share one).
pub(crate) fn runtime() -> &'static tokio::runtime::Runtime {
    pyo3_async_runtimes::tokio::get_runtime()
}

/// Run `fut` on the module's runtime with the GIL released, waking every 100 ms to let Python
/// handle signals: a Ctrl-C aborts the task (dropping the future, which closes its tab) and
/// raises `KeyboardInterrupt`.
pub(crate) fn block_on<T: Send + 'static>(
    py: Python<'_>,
    fut: impl Future<Output = T> + Send + 'static,
) -> PyResult<T> {
    let mut handle = runtime().spawn(fut);
    loop {
        let done = py.detach(|| {
            runtime().block_on(async {
                tokio::time::timeout(Duration::from_millis(100), &mut handle)
                    .await
                    .ok()
            })
        });
        match done {
            Some(Ok(v)) => return Ok(v),
            Some(Err(e)) if e.is_panic() => {
                return Err(pyo3::exceptions::PyRuntimeError::new_err(format!(
                    "sightline panicked: {e}"
                )))
            }
            Some(Err(e)) => {
                return Err(pyo3::exceptions::PyRuntimeError::new_err(format!(
                    "the task ended: {e}"
                )))
            }
            None => {
                if let Err(e) = py.check_signals() {
                    handle.abort();
                    return Err(e);
                }
            }
        }
    }
}

/// End every browser this process launched, at once (with their profiles). The package calls
/// it at interpreter exit, for browsers whose `Browser` was never closed.
#[pyfunction]
fn _end_all_browsers() {
    sightline::render::reap::end_all_now();
}

/// The names of every algorithm, in the order the CLI lists them.
#[pyfunction]
fn algorithms() -> Vec<&'static str> {
    sightline::Algorithm::ALL.iter().map(|a| a.name()).collect()
}

#[pymodule]
fn _sightline(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<browser::Browser>()?;
    m.add_class::<browser::Page>()?;
    m.add_class::<browser::BatchResult>()?;
    m.add_class::<browser::PageIter>()?;
    m.add_class::<browser::AsyncPageIter>()?;
    m.add_class::<snapshot::Snapshot>()?;
    m.add_class::<table::Table>()?;
    m.add_function(wrap_pyfunction!(snapshot::load_snapshot, m)?)?;
    m.add_function(wrap_pyfunction!(algorithms, m)?)?;
    m.add_function(wrap_pyfunction!(eval::evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(_end_all_browsers, m)?)?;
    m.add(
        "DEFAULT_ALGORITHM",
        sightline::extract::DEFAULT_ALGORITHM.name(),
    )?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
