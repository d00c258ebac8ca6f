//! `evaluate()`: the benchmark runner of `sightline eval` ([`sightline::eval::run`]) from
//! Python, returning the per-page scores as a [`Table`].

use std::path::PathBuf;

use pyo3::prelude::*;

use sightline::eval::run::EvalConfig;
use sightline::eval::PageResult;
use sightline::{Extractor, Options, RenderOptions};

use crate::bridge;
use crate::convert;
use crate::table::{floats, ints, strings, Table};

/// Per-page precision, recall and F1 (Song et al. eq. 6-9, bag-of-words F1) of `algorithms`
/// on a benchmark laid out as `shared/bench` (`<dataset>/manifest.jsonl`, `html/`, `gold/`):
/// one row per algorithm × page with `algorithm`, `dataset`, `id`, `failure`, `precision`,
/// `recall`, `f1` (LCS), `ce_score`, `bow_f1`, `out_tokens`, `gold_tokens`; a page whose
/// gold has no token is not scored, and its five scores are None (a failed page scores as an
/// empty output: 0, as in the macro averages). Pages are
/// rendered offline in `tabs` tabs, or scored from `snapshots` (a directory of
/// `eval --save-snapshots`) without a browser. `every` and `limit` select pages as `sightline
/// eval --every/--limit` do.
#[pyfunction]
#[pyo3(signature = (bench, algorithms=None, *, datasets=None, limit=None, every=1, snapshots=None, tabs=2, out=None))]
#[allow(clippy::too_many_arguments)]
pub fn evaluate(
    py: Python<'_>,
    bench: PathBuf,
    algorithms: Option<Vec<String>>,
    datasets: Option<Vec<String>>,
    limit: Option<usize>,
    every: usize,
    snapshots: Option<PathBuf>,
    tabs: usize,
    out: Option<PathBuf>,
) -> PyResult<Table> {
    let algorithms = match algorithms {
        None => vec![sightline::extract::DEFAULT_ALGORITHM],
        Some(v) => v
            .iter()
            .map(|a| convert::algorithm(Some(a)))
            .collect::<PyResult<_>>()?,
    };
    let tmp = tempfile_dir()?;
    let cfg = EvalConfig {
        root: bench,
        datasets: datasets.unwrap_or_default(),
        algorithms,
        limit,
        every: every.max(1),
        sample: None,
        out: out.unwrap_or_else(|| tmp.clone()),
        params: sightline::Params::default(),
        model: None,
        save_snapshots: None,
        from_snapshots: snapshots.clone(),
        comments_in: None,
        steer: sightline::Steer::default(),
    };
    // Run on this thread (the runner's future is not provably Send to rustc, so it is not
    // spawned): the GIL is released, but Ctrl-C is handled only after the run.
    let r = py.detach(move || {
        bridge::runtime().block_on(async move {
            if snapshots.is_some() {
                return sightline::eval::run::from_snapshots(&cfg, quiet).await;
            }
            let opts = RenderOptions::default()
                .offline(true)
                .concurrency(tabs.max(1));
            let extractor = Extractor::new(Options::default().render_options(opts)).await?;
            let r = extractor.evaluate(&cfg, quiet).await;
            extractor.shutdown().await;
            r
        })
    });
    let _ = std::fs::remove_dir_all(&tmp);
    let (results, _) = r.map_err(|e| convert::to_pyerr(py, &e))?;
    let p = &results.pages;
    let s = |g: &dyn Fn(&PageResult) -> Option<&str>| strings(p.iter().map(g));
    // A page whose gold has no token is not scored (the macro averages leave it out): its
    // scores are None, not 0.
    let f = |g: &dyn Fn(&PageResult) -> f64| {
        floats(p.iter().map(|x| x.score.is_scored().then(|| g(x))))
    };
    let i = |g: &dyn Fn(&PageResult) -> usize| ints(p.iter().map(|x| Some(g(x) as i64)));
    Table::from_columns(vec![
        ("algorithm", s(&|x| Some(x.algorithm.as_str()))),
        ("dataset", s(&|x| Some(x.dataset.as_str()))),
        ("id", s(&|x| Some(x.id.as_str()))),
        ("failure", s(&|x| x.failure.as_deref())),
        ("precision", f(&|x| x.score.lcs_p)),
        ("recall", f(&|x| x.score.lcs_r)),
        ("f1", f(&|x| x.score.lcs_f1)),
        ("ce_score", f(&|x| x.score.ce_score)),
        ("bow_f1", f(&|x| x.score.bow_f1)),
        ("out_tokens", i(&|x| x.score.out_tokens)),
        ("gold_tokens", i(&|x| x.score.gold_tokens)),
    ])
}

/// No progress report.
fn quiet(_: sightline::eval::run::Progress<'_>) {}

/// A fresh directory for the run's output texts (removed afterwards).
fn tempfile_dir() -> PyResult<PathBuf> {
    let d = std::env::temp_dir().join(format!(
        "sightline-py-eval-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0)
    ));
    std::fs::create_dir_all(&d)
        .map_err(|e| pyo3::exceptions::PyOSError::new_err(format!("{}: {e}", d.display())))?;
    Ok(d)
}
