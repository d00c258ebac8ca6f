//! `sightline._sightline`: the Python binding of the sightline library (PyO3). Thin by design:
//! every operation is a call into the crate's public API ([`sightline::Extractor`],
//! [`sightline::Page`], [`sightline::Snapshot`], [`sightline::scores::node_scores`]); this
//! crate converts values and exceptions, releases the GIL while Rust works, and bridges
//! tokio futures to asyncio. The pure-Python package `sightline` re-exports it.
//!
//! # Layout
//! - [`browser`]: `Browser` (one [`sightline::Extractor`]): each operation's one future, for
//!   the sync method and its async twin.
//! - [`batch`]: `extract_many`'s running batch, its `Result`s and progress bar, behind the
//!   sync and the async iterator.
//! - [`crawl`]: `crawl`'s running crawl and its `CrawlPage`s, behind the sync and the
//!   async iterator.
//! - [`page`]: `Page`, and the data of `Snapshot` (a leaf: both classes give the other).
//! - [`snapshot`]: `Snapshot`'s methods (load, save, nodes, scores, extract without a
//!   browser).
//! - [`options`]: the keyword arguments, each declared once, mapped onto the library's
//!   options; sources.
//! - [`bridge`]: the tokio runtime; a future as a sync call (GIL released, Ctrl-C) or as an
//!   asyncio awaitable.
//! - [`table`]: `Table`, a column table exported through the Arrow C data interface.
//! - [`eval`]: `evaluate()`, the benchmark runner's per-page scores as a `Table`.
//! - [`convert`]: JSON values to Python objects, library errors to typed exceptions.

mod batch;
mod bridge;
mod browser;
mod convert;
mod crawl;
mod eval;
mod options;
mod page;
mod snapshot;
mod table;

use pyo3::prelude::*;

/// End every browser this process launched, at once (with their profiles). The package calls
/// it at interpreter exit, for browsers whose `Browser` was never closed.
#[pyfunction]
fn _end_all_browsers() {
    sightline::end_all_now();
}

/// The names of every algorithm, in the order the CLI lists them.
#[pyfunction]
fn algorithms() -> Vec<&'static str> {
    sightline::Algorithm::ALL.iter().map(|a| a.name()).collect()
}

/// The keyword tables (`options.rs`): `{"Browser": [(name, default, doc, render)], "extract":
/// [...], "extract_many": [...], "snapshot": [...], "crawl": [...], "map": [...]}`, `render` marking the options
/// `sightline.snapshot()` takes. The package builds its signatures and docs from them.
#[pyfunction]
fn _keywords(py: Python<'_>) -> PyResult<Vec<(&'static str, Vec<options::Described>)>> {
    options::tables(py)
}

#[pymodule]
fn _sightline(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<browser::Browser>()?;
    m.add_class::<page::Page>()?;
    m.add_class::<batch::BatchResult>()?;
    m.add_class::<batch::PageIter>()?;
    m.add_class::<batch::AsyncPageIter>()?;
    m.add_class::<crawl::CrawlPage>()?;
    m.add_class::<crawl::CrawlIter>()?;
    m.add_class::<crawl::AsyncCrawlIter>()?;
    m.add_class::<page::Snapshot>()?;
    m.add_class::<table::Table>()?;
    m.add_function(wrap_pyfunction!(snapshot::load_snapshot, m)?)?;
    m.add_function(wrap_pyfunction!(algorithms, m)?)?;
    m.add_function(wrap_pyfunction!(eval::evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(_end_all_browsers, m)?)?;
    m.add_function(wrap_pyfunction!(_keywords, m)?)?;
    m.add(
        "DEFAULT_ALGORITHM",
        sightline::extract::DEFAULT_ALGORITHM.name(),
    )?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("CRAWL_USER_AGENT", sightline::crawl::USER_AGENT)?;
    Ok(())
}
