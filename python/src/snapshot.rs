//! `Snapshot`'s methods (the struct is in `page.rs`, beside the `Page` it gives): one rendered
//! page's layout ([`sightline::Snapshot`]), loaded from or saved to the JSON of `sightline
//! snapshot`, as a node table (`nodes()`), per-node scores (`scores()`,
//! [`sightline::scores::node_scores`]) and extractions without a browser (`extract()`,
//! [`sightline::Page::from_snapshot`]).

use std::path::PathBuf;

use arrow_array::ArrayRef;
use pyo3::prelude::*;

use sightline::snapshot::Node;

use crate::convert;
use crate::page::{Page, Snapshot};
use crate::table::{bools, floats, ints, strings, Table};

/// Read a snapshot JSON file (as `sightline snapshot -o FILE` writes it).
#[pyfunction]
pub fn load_snapshot(py: Python<'_>, path: PathBuf) -> PyResult<Snapshot> {
    let name = path.display().to_string();
    let json = std::fs::read_to_string(&path).map_err(|e| {
        convert::to_pyerr(
            py,
            &sightline::Error::input_io(name.clone(), "the snapshot", e),
        )
    })?;
    Snapshot::parse(py, &json, name)
}

impl Snapshot {
    fn parse(py: Python<'_>, json: &str, name: String) -> PyResult<Snapshot> {
        let snap = py
            .detach(|| sightline::Snapshot::from_json(json, &name))
            .map_err(|e| convert::to_pyerr(py, &e))?;
        Ok(Snapshot::new(snap, name))
    }
}

#[pymethods]
impl Snapshot {
    /// Read a snapshot JSON file (as `sightline snapshot -o FILE` writes it).
    #[staticmethod]
    fn load(py: Python<'_>, path: PathBuf) -> PyResult<Snapshot> {
        load_snapshot(py, path)
    }

    /// Parse snapshot JSON text; `name` names it in error messages.
    #[staticmethod]
    #[pyo3(signature = (json, name="<json>"))]
    fn from_json(py: Python<'_>, json: &str, name: &str) -> PyResult<Snapshot> {
        Snapshot::parse(py, json, name.to_string())
    }

    /// Write the snapshot as JSON, readable by `sightline extract --snapshot` and
    /// `sightline scores`.
    fn save(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        let json = self.snap.to_json() + "\n";
        std::fs::write(&path, json).map_err(|e| {
            convert::to_pyerr(
                py,
                &sightline::Error::Output {
                    path: path.display().to_string(),
                    message: e.to_string(),
                    source: None,
                },
            )
        })
    }

    /// The snapshot as JSON text.
    fn to_json(&self) -> String {
        self.snap.to_json()
    }

    /// The page's URL after navigation.
    #[getter]
    fn url(&self) -> &str {
        &self.snap.url
    }
    /// `document.title`.
    #[getter]
    fn title(&self) -> &str {
        &self.snap.title
    }
    /// The layout viewport `(width, height)` in CSS px.
    #[getter]
    fn viewport(&self) -> (f64, f64) {
        (self.snap.viewport.width, self.snap.viewport.height)
    }
    /// The scrollable document size `(width, height)` in CSS px.
    #[getter]
    fn document_size(&self) -> (f64, f64) {
        (self.snap.document.width, self.snap.document.height)
    }
    fn __len__(&self) -> usize {
        self.snap.nodes.len()
    }
    fn __repr__(&self) -> String {
        format!(
            "<sightline.Snapshot {} ({} nodes)>",
            self.snap.url,
            self.snap.nodes.len()
        )
    }

    /// One row per node, `id` being the node's index (node 0 is `<body>`): `id`, `parent`
    /// (-1 for the root), `depth`, `tag` (`#text` for text nodes), `css_path`, `text` (text
    /// nodes), `x`, `y`, `w`, `h` (the box in CSS px, document coordinates), `rendered`,
    /// `display`, `visibility`, `position`, `opacity`, `font_size`, `font_weight`, `link`
    /// (inside a link), `link_text` (a text node's text when inside a link), `href`, `src`,
    /// `alt`, `id_attr`, `class`, `role`, and the subtree counts `chars`, `tags`,
    /// `link_chars`, `link_tags`. A value a node does not have is None (null), never 0 or
    /// "": a text node has no style of its own, so its `display`, `position` and `opacity`
    /// are None, and its `visibility`, `font_size` and `font_weight` are the ones it renders
    /// with, its parent element's (CSS inherits them).
    fn nodes(&self, py: Python<'_>) -> PyResult<Table> {
        let snap = self.snap.clone();
        let cols = py.detach(move || node_columns(&snap));
        Table::from_columns(cols.iter().map(|(n, a)| (*n, a.clone())).collect())
    }

    /// Every per-node quantity of `algorithm` (default `learned`) as columns on the node ids
    /// (`id`, `kept`, then the algorithm's own: TD/CTD/VI/HTD/DensitySum, Wang's weights,
    /// VSSE's vvtc, Crunch's filters, the block ids of `blocks`, `learned`'s probability and
    /// top contributions). The same values as `sightline scores SNAPSHOT -a ALGORITHM`.
    /// `params`: algorithm parameters as a dict or JSON (`sightline extract --params`).
    #[pyo3(signature = (algorithm=None, params=None))]
    fn scores(
        &self,
        py: Python<'_>,
        algorithm: Option<&str>,
        params: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Table> {
        let a = convert::algorithm(algorithm)?;
        let p = convert::params(py, params)?;
        let snap = self.snap.clone();
        let s =
            py.detach(move || sightline::scores::node_scores(&sightline::Tree::new(&snap), a, &p));
        Table::from_scores(&s)
    }

    /// Score the snapshot with `algorithm` (default `learned`), without a browser: the `Page`
    /// that rendering it would give (text, markdown, html, blocks, `to_dict()`), as
    /// `sightline extract --snapshot FILE` does.
    #[pyo3(signature = (algorithm=None, params=None))]
    fn extract(
        &self,
        py: Python<'_>,
        algorithm: Option<&str>,
        params: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Page> {
        let a = convert::algorithm(algorithm)?;
        let p = convert::params(py, params)?;
        let snap = (*self.snap).clone();
        let name = self.name.clone();
        let page = py.detach(move || {
            let opts = sightline::Options::default().algorithm(a).params(p);
            sightline::Page::from_snapshot(&name, snap, &opts)
        });
        Ok(Page::new(page))
    }
}

type Columns = Vec<(&'static str, ArrayRef)>;

/// An element's own computed style; none for a text node.
fn own(x: &Node) -> Option<&Node> {
    x.is_element().then_some(x)
}

/// The node table's columns (see `nodes()` for what a node without a value gets).
fn node_columns(snap: &sightline::Snapshot) -> Columns {
    let tree = sightline::Tree::new(snap);
    let nodes = &snap.nodes;
    let n = nodes.len();
    let mut depth = vec![0i64; n];
    for i in 1..n {
        depth[i] = depth[nodes[i].parent as usize] + 1;
    }
    // The element whose inherited style a node renders with: itself, or a text node's parent.
    let style: Vec<Option<&Node>> = nodes
        .iter()
        .map(|x| match x.is_element() {
            true => Some(x),
            false => usize::try_from(x.parent)
                .ok()
                .and_then(|p| nodes.get(p))
                .filter(|p| p.is_element()),
        })
        .collect();
    let s = |g: &dyn Fn(&Node) -> Option<&str>| strings(nodes.iter().map(g));
    let f = |g: &dyn Fn(&Node) -> f64| floats(nodes.iter().map(|x| Some(g(x))));
    let b = |g: &dyn Fn(&Node) -> bool| bools(nodes.iter().map(g));
    let counts = |v: &[usize]| ints(v.iter().map(|&x| Some(x as i64)));
    vec![
        ("id", ints((0..n as i64).map(Some))),
        ("parent", ints(nodes.iter().map(|x| Some(x.parent)))),
        ("depth", ints(depth.into_iter().map(Some))),
        ("tag", s(&|x| Some(x.tag.as_str()))),
        ("css_path", strings((0..n).map(|i| Some(tree.css_path(i))))),
        ("text", s(&|x| x.text.as_deref())),
        ("x", f(&|x| x.rect.x)),
        ("y", f(&|x| x.rect.y)),
        ("w", f(&|x| x.rect.w)),
        ("h", f(&|x| x.rect.h)),
        ("rendered", b(&|x| x.rendered)),
        ("display", s(&|x| own(x).map(|e| e.display.as_str()))),
        (
            "visibility",
            strings(style.iter().map(|e| e.map(|e| e.visibility.as_str()))),
        ),
        ("position", s(&|x| own(x).map(|e| e.position.as_str()))),
        (
            "opacity",
            floats(nodes.iter().map(|x| own(x).map(|e| e.opacity))),
        ),
        (
            "font_size",
            floats(style.iter().map(|e| e.map(|e| e.font_size))),
        ),
        (
            "font_weight",
            ints(style.iter().map(|e| e.map(|e| i64::from(e.font_weight)))),
        ),
        ("link", b(&|x| x.link)),
        (
            "link_text",
            s(&|x| if x.link { x.text.as_deref() } else { None }),
        ),
        ("href", s(&|x| x.href.as_deref())),
        ("src", s(&|x| x.src.as_deref())),
        ("alt", s(&|x| x.alt.as_deref())),
        ("id_attr", s(&|x| x.id.as_deref())),
        ("class", s(&|x| x.class.as_deref())),
        ("role", s(&|x| x.role.as_deref())),
        ("chars", counts(&tree.chars)),
        ("tags", counts(&tree.tags)),
        ("link_chars", counts(&tree.link_chars)),
        ("link_tags", counts(&tree.link_tags)),
    ]
}
