//! `Page`, one extracted page ([`sightline::Page`]), and the data of `Snapshot`, one page's
//! layout: a leaf of the binding, so that `Browser` (which makes both), `Snapshot` (whose
//! `extract()` gives a `Page`, in `snapshot.rs` with the rest of its methods) and `Page`
//! (whose `snapshot` gives a `Snapshot`) need nothing of each other.

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::convert::json_to_py;

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
    /// The wall in front of the content that left some of it (a paywall, a login or consent
    /// dialog over a lead), as `{"kind", "vendor", "evidence"}`; None without one. A wall that
    /// leaves nothing raises `sightline.BlockedError` instead.
    #[getter]
    fn wall(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        match self.page.wall() {
            Some(w) => {
                let v = serde_json::to_value(w).unwrap_or(serde_json::Value::Null);
                Ok(Some(crate::convert::json_to_py(py, &v)?))
            }
            None => Ok(None),
        }
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
    /// The content cut at its headings, for retrieval: each section's `heading_path` (the
    /// heading texts from the top down), `level`, `markdown`, `span` (`[start, end)`: indexes
    /// of the record's markdown, `page.to_dict()["markdown"][start:end]`) and `boxes` (the
    /// page boxes it covers, `[x, y, w, h]`).
    #[getter]
    fn sections(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        json_to_py(py, &self.page.json()["sections"])
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

/// The layout of one rendered page: every element and text node under `<body>`, in document
/// order, with its box, computed style and text. Compatible with `sightline snapshot` files.
/// Its methods are in `snapshot.rs`.
#[pyclass(module = "sightline", frozen)]
pub struct Snapshot {
    pub(crate) snap: Arc<sightline::Snapshot>,
    pub(crate) name: String,
}

impl Snapshot {
    pub(crate) fn new(snap: sightline::Snapshot, name: String) -> Snapshot {
        Snapshot {
            snap: Arc::new(snap),
            name,
        }
    }
}
