//! The keyword arguments of the binding, each declared once. The keywords that are settings of
//! the library are its settings types' fields, read from their JSON schema for the tables and
//! from their JSON form for the values (one conversion, with the type's names, units and
//! checks): the render settings of `Browser(...)` ([`RENDER`], fields of [`RenderOptions`]),
//! the crawl's ([`crawl_keywords`], every field of [`CrawlSettings`]), the scoring ones of
//! `Browser(...)` (`algorithm`, `comments`: every field of [`Scoring`]) and `steer` (a dict of
//! `sightline::Steer`'s fields). The keywords only Python has are declared in tables that
//! give their type, default and meaning ([`keywords!`]): [`BrowserOptions`] (`Browser(...)`,
//! and through it `sightline.extract(...)` and, the rendering ones, `sightline.snapshot(...)`),
//! [`Call`] (the keywords of one call: `extract`, `extract_many`, `snapshot`, each shared with
//! its async twin) and [`CrawlRun`]. A table parses a `**kwargs` dict (an unknown keyword is a
//! `TypeError`, as in a Python signature) and maps onto the library's [`Options`] and
//! [`PageConfig`]; the package reads the tables (`_keywords()`) for its signatures and docs,
//! and its tests hold the `.pyi` stub to them. Sources (a URL or path, an `os.PathLike`,
//! `html=`/`url=`, a batch item) become [`Source`]s here too.

use std::path::PathBuf;
use std::sync::Arc;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyString};
use pyo3::IntoPyObjectExt;

use sightline::{CrawlSettings, PageConfig, Scoring, WriterOptions};
use sightline::{Options, RenderOptions, Source};

use crate::convert;

/// One keyword as the package sees it: name, default, meaning, and whether
/// `sightline.snapshot()` takes it (the options of rendering; the others score).
pub(crate) type Described = (String, Py<PyAny>, String, bool);

/// Declares a table of keyword arguments: the struct (one field a keyword, with its type,
/// default and doc comment), its `Default`, `parse` (a `**kwargs` dict into the struct, for a
/// function that takes some of the keywords) and `describe` (the keywords for Python). A
/// field marked `render` is an option `sightline.snapshot()` takes.
macro_rules! keywords {
    (
        $(#[doc = $sdoc:literal])*
        pub(crate) struct $name:ident {
            $(
                $(#[doc = $doc:literal])*
                $field:ident: $ty:ty = $default:expr $(, $flag:ident)?;
            )*
        }
    ) => {
        $(#[doc = $sdoc])*
        pub(crate) struct $name {
            $( $(#[doc = $doc])* pub(crate) $field: $ty, )*
        }

        impl Default for $name {
            fn default() -> Self {
                $name { $( $field: $default, )* }
            }
        }

        impl $name {
            /// The keywords of `func`, which takes those named in `allowed` (None: all), from
            /// its `**kwargs`; the others keep their defaults.
            pub(crate) fn parse(
                func: &str,
                allowed: Option<&[&str]>,
                kw: Option<&Bound<'_, PyDict>>,
            ) -> PyResult<$name> {
                let mut o = $name::default();
                for (k, v) in kw.into_iter().flatten() {
                    let k: String = k.extract()?;
                    match k.as_str() {
                        $(
                            stringify!($field) if allowed.is_none_or(|a| a.contains(&stringify!($field))) => {
                                o.$field = value(&v, func, &k)?
                            }
                        )*
                        _ => return Err(unexpected(func, &k)),
                    }
                }
                Ok(o)
            }

            /// The keywords named in `names` (None: all), in table order, as the package
            /// sees them.
            pub(crate) fn describe(
                py: Python<'_>,
                names: Option<&[&str]>,
            ) -> PyResult<Vec<Described>> {
                let d = $name::default();
                let mut out = Vec::new();
                $(
                    if names.is_none_or(|n| n.contains(&stringify!($field))) {
                        out.push((
                            stringify!($field).to_string(),
                            d.$field.into_py_any(py)?,
                            doc(&[$($doc),*]),
                            keywords!(@render $($flag)?),
                        ));
                    }
                )*
                Ok(out)
            }
        }
    };
    (@render render) => { true };
    (@render) => { false };
}

keywords! {
    /// The keyword options of `Browser(tabs, **options)`: how pages are loaded, rendered and
    /// scored ([`BrowserOptions::options`] maps them onto the library's [`Options`]).
    pub(crate) struct BrowserOptions {
        /// DevTools WebSocket URLs of running browsers to use instead of launching one (tabs
        /// are spread over them; a lost browser's pages are retried on the others).
        browser_ws: Option<Vec<String>> = None, render;
        /// The Chromium executable (None: `$CHROME`, then chromium-headless-shell or chromium
        /// on PATH, as the `sightline` command finds it).
        chrome: Option<PathBuf> = None, render;
        /// Charset of HTML given as bytes or files that do not declare one.
        charset: Option<String> = None, render;
        /// Steer every page before it is read: a dict (or JSON text) with the fields of
        /// docs/steering.md, as `serve` takes them: `wait_for`, `actions` (Firecrawl's shape),
        /// `scroll_container`, `headers`, `cookies`, `user_agent`, `locale`, `timezone`,
        /// `mobile`, `storage_state` (a dict, or the path of a Playwright storageState file),
        /// `save_storage_state`, `block`, `consent`, `accept_walls`, ...
        steer: Option<Py<PyAny>> = None, render;
        /// Algorithm parameters, a dict or JSON text (as `sightline extract --params`).
        params: Option<Py<PyAny>> = None;
        /// Take a full-page PNG of every page (`Page.screenshot`).
        screenshot: bool = false;
        /// Also draw the extraction on it (`Page.annotated`).
        annotate: bool = false;
        /// Add each page's text units to its record (`Page.to_dict()["units"]`): every unit's
        /// box, text, `learned` probability, top feature contributions and the algorithms
        /// that keep it (what the playground of `serve` draws). Runs every main-content
        /// algorithm once more; off by default.
        units: bool = false;
        /// Refuse targets on this machine and its networks (loopback, private, link-local,
        /// metadata addresses), for the page, its redirects and subresources, through an
        /// egress proxy that connects only to the address it checked.
        deny_private: bool = false;
        /// Archive every page into this WARC/1.1 file (`.warc.gz`): each request and response
        /// with bodies, then the page's text, record and screenshot (docs/archives.md);
        /// finished when the browser closes.
        warc: Option<PathBuf> = None;
        /// Package the archive as this WACZ 1.1 file when the browser closes.
        wacz: Option<PathBuf> = None;
        /// Answer every request from this archive (`.warc.gz`, `.warc`, `.wacz`), nothing
        /// from the network; a request it lacks fails as offline.
        replay: Option<PathBuf> = None;
    }
}

keywords! {
    /// The keywords of one call on a `Browser`; each call takes some of them ([`EXTRACT`],
    /// [`EXTRACT_MANY`], [`SNAPSHOT`]), its async twin the same.
    pub(crate) struct Call {
        /// The page's HTML (text or bytes) instead of a source; served to Chromium on a
        /// loopback port (relative resources resolve only with a `<base href>`).
        html: Option<Py<PyAny>> = None;
        /// The URL to load when no source is given; with `html=`, the name of the page.
        url: Option<String> = None;
        /// Steering fields for this call over the browser's `steer` (the same dict).
        steer: Option<Py<PyAny>> = None;
        /// Show a progress bar on stderr (tqdm when installed, else a counter line), only when
        /// stderr is a terminal.
        progress: bool = true;
        /// Another algorithm than the browser's for this call.
        algorithm: Option<String> = None;
        /// Other algorithm parameters than the browser's for this call (a dict or JSON text).
        params: Option<Py<PyAny>> = None;
        /// With or without a screenshot (None: as the browser says).
        screenshot: Option<bool> = None;
    }
}

keywords! {
    /// The keywords of `crawl` and `map` (and their async twins) beside the crawl's settings
    /// (the library's [`CrawlSettings`], read as JSON: [`crawl_keywords`]): what only a
    /// program gives.
    pub(crate) struct CrawlRun {
        /// The User-Agent of robots.txt and sitemap requests, and the robots.txt token (None:
        /// one naming sightline and its URL).
        user_agent: Option<String> = None;
        /// `K/N`: crawl only the seeds whose registrable domain this shard owns.
        shard: Option<String> = None;
        /// The frontier's SQLite file (None: in memory); with `resume=True`, continue the
        /// crawl it holds (pages done there are not fetched again).
        frontier: Option<PathBuf> = None;
        /// Continue the crawl kept in `frontier`.
        resume: bool = false;
    }
}

/// The keywords of `crawl` and `acrawl` beside the settings and [`CrawlRun`]'s.
pub(crate) const CRAWL: &[&str] = &["algorithm", "params", "steer"];
/// The keywords of `map` and `amap` beside the settings and [`MAP_RUN`].
pub(crate) const MAP: &[&str] = &["steer"];
/// The [`CrawlRun`] keywords `map` takes (it records nothing, so has no frontier to resume).
pub(crate) const MAP_RUN: &[&str] = &["user_agent", "shard"];

/// The keywords of `func` split into the crawl's settings (every field of [`CrawlSettings`],
/// one conversion: the keywords as a JSON object, read by the library), its [`CrawlRun`]
/// keywords (those named in `run`) and its [`Call`] keywords (named in `call`). An unknown
/// keyword or a value of the wrong type is a `TypeError`; a value the settings refuse
/// ([`CrawlSettings::validate`], an unknown `scope`) an `InputError`.
pub(crate) fn crawl_keywords(
    py: Python<'_>,
    func: &str,
    run: Option<&[&str]>,
    call: &[&str],
    kw: Option<&Bound<'_, PyDict>>,
) -> PyResult<(CrawlSettings, CrawlRun, Call)> {
    let settings = PyDict::new(py);
    let mine = PyDict::new(py);
    let rest = PyDict::new(py);
    let fields: Vec<String> = CrawlSettings::described()
        .into_iter()
        .map(|d| d.0)
        .collect();
    let run_names: Vec<String> = CrawlRun::describe(py, run)?
        .into_iter()
        .map(|d| d.0)
        .collect();
    for (k, v) in kw.into_iter().flatten() {
        let name: String = k.extract()?;
        let to = if fields.contains(&name) {
            &settings
        } else if run_names.contains(&name) {
            &mine
        } else {
            &rest
        };
        to.set_item(k, v)?;
    }
    Ok((
        crawl_settings(py, func, &settings)?,
        CrawlRun::parse(func, run, Some(&mine))?,
        Call::parse(func, Some(call), Some(&rest))?,
    ))
}

/// The settings keywords as the library's [`CrawlSettings`], checked; an error names the
/// keyword at fault.
fn crawl_settings(py: Python<'_>, func: &str, kw: &Bound<'_, PyDict>) -> PyResult<CrawlSettings> {
    let settings: CrawlSettings = from_keywords(py, func, kw)?;
    settings
        .validate()
        .map_err(|e| convert::input_err(format!("{func}(): {e}")))?;
    Ok(settings)
}

/// Keywords as a settings type, read as its JSON form (the one conversion: its names, its
/// units): a value of the wrong type is a `TypeError`, another refusal (an unknown `scope`)
/// an `InputError`, each naming the keyword at fault.
fn from_keywords<T: serde::de::DeserializeOwned>(
    py: Python<'_>,
    func: &str,
    kw: &Bound<'_, PyDict>,
) -> PyResult<T> {
    let json = convert::py_to_json(py, kw)?;
    serde_json::from_value(json.clone()).map_err(|e| {
        // The keyword at fault: the first that is refused alone (every field has a default).
        let culprit = json.as_object().into_iter().flatten().find(|(k, v)| {
            let alone = serde_json::json!({ k.as_str(): v });
            serde_json::from_value::<T>(alone).is_err()
        });
        let name = culprit.map_or("?", |(k, _)| k.as_str());
        let message = format!("{func}() argument '{name}': {e}");
        let text = e.to_string();
        if text.starts_with("invalid type") || text.starts_with("invalid length") {
            PyTypeError::new_err(message)
        } else {
            convert::input_err(message)
        }
    })
}

impl CrawlRun {
    /// The library's crawl from `seeds` (a URL or a list of URLs) with `settings`.
    pub(crate) fn config(
        &self,
        seeds: &Bound<'_, PyAny>,
        settings: CrawlSettings,
    ) -> PyResult<sightline::CrawlConfig> {
        let seeds: Vec<String> = match seeds.cast::<PyString>() {
            Ok(s) => vec![s.extract()?],
            Err(_) => seeds
                .try_iter()?
                .map(|s| s?.extract::<String>())
                .collect::<PyResult<_>>()?,
        };
        if seeds.is_empty() {
            return Err(convert::input_err(
                "crawl from at least one seed URL".into(),
            ));
        }
        let shard = self
            .shard
            .as_deref()
            .map(|s| s.parse::<sightline::batch::Shard>())
            .transpose()
            .map_err(|m| convert::input_err(format!("shard={m}")))?;
        let mut c = sightline::CrawlConfig::new(seeds)
            .settings(settings)
            .shard(shard)
            .frontier(self.frontier.clone(), self.resume);
        if let Some(ua) = &self.user_agent {
            c = c.user_agent(ua.clone());
        }
        Ok(c)
    }
}

/// The keywords of `extract` and `aextract`.
pub(crate) const EXTRACT: &[&str] = &["html", "url", "algorithm", "params", "screenshot", "steer"];
/// The keywords of `extract_many` and `aextract_many`.
pub(crate) const EXTRACT_MANY: &[&str] = &["progress", "algorithm", "params", "steer"];
/// The keywords of `snapshot` and `asnapshot`.
pub(crate) const SNAPSHOT: &[&str] = &["html", "url", "steer"];

/// Every keyword table, for the package (`_keywords()`): `Browser`'s options, and the
/// keywords of each call (`crawl` and `map`: their settings and [`CrawlRun`], then their [`Call`]
/// keywords).
pub(crate) fn tables(py: Python<'_>) -> PyResult<Vec<(&'static str, Vec<Described>)>> {
    Ok(vec![
        ("Browser", browser_table(py)?),
        ("extract", Call::describe(py, Some(EXTRACT))?),
        ("extract_many", Call::describe(py, Some(EXTRACT_MANY))?),
        ("snapshot", Call::describe(py, Some(SNAPSHOT))?),
        ("crawl", crawl_table(py, None, CRAWL)?),
        ("map", crawl_table(py, Some(MAP_RUN), MAP)?),
    ])
}

/// The keywords of `crawl` or `map`: the crawl's settings (each field of [`CrawlSettings`]
/// with its default and doc), its [`CrawlRun`] keywords, then the call's.
fn crawl_table(py: Python<'_>, run: Option<&[&str]>, call: &[&str]) -> PyResult<Vec<Described>> {
    let mut t = Vec::new();
    for (name, default, doc) in CrawlSettings::described() {
        t.push((name, convert::json_to_py(py, &default)?, doc, false));
    }
    t.extend(CrawlRun::describe(py, run)?);
    t.extend(Call::describe(py, Some(call))?);
    Ok(t)
}

/// A keyword of `Browser(...)` that is a field of [`RenderOptions`]' JSON form: its name,
/// type, default, units and doc are the field's ([`RenderOptions::described`]); the fields
/// not listed in [`RENDER`] are the command line's only.
struct RenderKeyword {
    /// The field's JSON name, the keyword's.
    name: &'static str,
    /// `sightline.snapshot()` takes it too.
    snapshot: bool,
    /// Python's default is `None`, which means the field's default.
    none: bool,
}

/// The keywords of `Browser(...)` that are render settings: the one place Python maps onto
/// [`RenderOptions`] (units as its JSON form has them: `timeout` in seconds).
const RENDER: &[RenderKeyword] = &[
    RenderKeyword::snapshot("offline"),
    RenderKeyword::snapshot("proxy"),
    RenderKeyword::snapshot("timeout"),
    RenderKeyword::snapshot("user_agent"),
    RenderKeyword::snapshot("viewport").none_default(),
    RenderKeyword::snapshot("render"),
    RenderKeyword::browser("accept_http_errors"),
];

impl RenderKeyword {
    /// A keyword of `Browser(...)` and `sightline.snapshot()`.
    const fn snapshot(name: &'static str) -> RenderKeyword {
        RenderKeyword {
            name,
            snapshot: true,
            none: false,
        }
    }

    /// A keyword of `Browser(...)` only.
    const fn browser(name: &'static str) -> RenderKeyword {
        RenderKeyword {
            snapshot: false,
            ..RenderKeyword::snapshot(name)
        }
    }

    /// Python's default is `None`, the field's default.
    const fn none_default(self) -> RenderKeyword {
        RenderKeyword { none: true, ..self }
    }
}

/// The keywords of `Browser(...)`: first those `sightline.snapshot()` takes (the render
/// settings of [`RENDER`], then [`BrowserOptions`]' marked `render`), then the others.
fn browser_table(py: Python<'_>) -> PyResult<Vec<Described>> {
    let fields = RenderOptions::described();
    let own = BrowserOptions::describe(py, None)?;
    let mut t = Vec::new();
    for snapshot in [true, false] {
        for k in RENDER.iter().filter(|k| k.snapshot == snapshot) {
            let Some((_, default, doc)) = fields.iter().find(|f| f.0 == k.name) else {
                return Err(PyTypeError::new_err(format!(
                    "{} is not a field of RenderOptions",
                    k.name
                )));
            };
            let (default, doc) = if k.none {
                (serde_json::Value::Null, format!("{doc} (None: {default})"))
            } else {
                (default.clone(), doc.clone())
            };
            t.push((
                k.name.to_string(),
                convert::json_to_py(py, &default)?,
                doc,
                snapshot,
            ));
        }
        if !snapshot {
            // The scoring keywords: the fields of `sightline::Scoring` (one declaration).
            for (name, default, doc) in Scoring::described() {
                t.push((name, convert::json_to_py(py, &default)?, doc, false));
            }
            // The writers' keywords: the fields of `sightline::WriterOptions`.
            for (name, default, doc) in WriterOptions::described() {
                t.push((name, convert::json_to_py(py, &default)?, doc, false));
            }
        }
        for d in &own {
            if d.3 == snapshot {
                t.push((d.0.clone(), d.1.clone_ref(py), d.2.clone(), d.3));
            }
        }
    }
    Ok(t)
}

/// The keywords of `Browser(...)`: the render settings ([`RENDER`], one conversion: a JSON
/// object read as [`RenderOptions`] and checked by [`RenderOptions::validate`]), the scoring
/// settings (every field of [`Scoring`], read the same way), the writers' (every field of
/// [`WriterOptions`], checked by [`WriterOptions::validate`]) and [`BrowserOptions`]' own. A keyword whose Python default is `None` given as `None` keeps
/// the field's default.
pub(crate) fn browser_keywords(
    py: Python<'_>,
    func: &str,
    kw: Option<&Bound<'_, PyDict>>,
) -> PyResult<(BrowserOptions, RenderOptions, Scoring, WriterOptions)> {
    let render = PyDict::new(py);
    let scoring = PyDict::new(py);
    let writer = PyDict::new(py);
    let own = PyDict::new(py);
    let scoring_fields = Scoring::described();
    let writer_fields = WriterOptions::described();
    for (k, v) in kw.into_iter().flatten() {
        let name: String = k.extract()?;
        let score = scoring_fields.iter().find(|f| f.0 == name);
        match RENDER.iter().find(|r| r.name == name) {
            Some(r) if r.none && v.is_none() => {}
            Some(_) => render.set_item(k, v)?,
            // A flag is a Python bool (its JSON form also reads a query string's "true").
            None if score.is_some_and(|f| f.1.is_boolean()) && !v.is_instance_of::<PyBool>() => {
                return Err(PyTypeError::new_err(format!(
                    "{func}() argument '{name}': expected a bool"
                )));
            }
            None if score.is_some() => scoring.set_item(k, v)?,
            None if writer_fields.iter().any(|f| f.0 == name) => {
                if !v.is_none() {
                    writer.set_item(k, v)?
                }
            }
            None => own.set_item(k, v)?,
        }
    }
    let opts: RenderOptions = from_keywords(py, func, &render)?;
    opts.validate()
        .map_err(|e| convert::input_err(format!("{}: {}", e.setting, e.message)))?;
    let scoring: Scoring = from_keywords(py, func, &scoring)?;
    let writer: WriterOptions = from_keywords(py, func, &writer)?;
    writer
        .validate()
        .map_err(|e| convert::input_err(e.to_string()))?;
    Ok((
        BrowserOptions::parse(func, None, Some(&own))?,
        opts,
        scoring,
        writer,
    ))
}

impl BrowserOptions {
    /// The library's options for a browser of `tabs` tabs rendering with `render`.
    pub(crate) fn options(
        &self,
        py: Python<'_>,
        tabs: usize,
        render: RenderOptions,
        scoring: Scoring,
        writer: WriterOptions,
    ) -> PyResult<Options> {
        let params = convert::params(py, self.params.as_ref().map(|p| p.bind(py)))?;
        let tabs = tabs.max(1);
        let mut o = Options::default()
            .render_options(render)
            .tabs(tabs)
            .max_browser_memory(Some(RenderOptions::default_memory_bound(tabs)))
            .screenshot(self.screenshot)
            .annotate(self.annotate)
            .params(params)
            .scoring(&scoring)
            .map_err(convert::input_err)?
            .deny_private(self.deny_private)
            .writer(writer)
            .units(self.units);
        if let Some(ws) = self.browser_ws.clone().filter(|w| !w.is_empty()) {
            o = o.browser_ws(ws);
        }
        if let Some(c) = &self.chrome {
            o = o.chrome(c);
        }
        if let Some(c) = &self.charset {
            o = o.charset(c.clone());
        }
        if let Some(s) = &self.steer {
            o = o.steer(convert::steer(
                py,
                &sightline::Steer::default(),
                s.bind(py),
            )?);
        }
        if let Some(w) = &self.warc {
            o = o.warc(w);
        }
        if let Some(z) = &self.wacz {
            o = o.wacz(z);
        }
        if let Some(r) = &self.replay {
            o = o.replay(r);
        }
        Ok(o)
    }
}

impl Call {
    /// The page of this call: `source` (a URL or path string, as on the command line, or an
    /// `os.PathLike`), or `html=` text or bytes (named by `url=`), or `url=`.
    pub(crate) fn source(
        &self,
        py: Python<'_>,
        source: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Source> {
        page_source(
            py,
            source,
            self.html.as_ref().map(|h| h.bind(py)),
            self.url.clone(),
        )
    }

    /// The page settings of this call: `base` (the browser's), with this call's algorithm or
    /// parameters. Reader comments the browser keeps (`comments=True`) stay kept.
    pub(crate) fn page_config(
        &self,
        py: Python<'_>,
        base: &Arc<PageConfig>,
    ) -> PyResult<Arc<PageConfig>> {
        if self.algorithm.is_none() && self.params.is_none() && self.steer.is_none() {
            return Ok(base.clone());
        }
        let mut cfg = (**base).clone();
        if let Some(s) = &self.steer {
            let own = base.steer.as_deref().cloned().unwrap_or_default();
            cfg.steer = Some(Arc::new(convert::steer(py, &own, s.bind(py))?));
        }
        if let Some(a) = &self.algorithm {
            cfg.algorithms = vec![convert::algorithm(Some(a))?];
        }
        if let Some(p) = &self.params {
            cfg.params = convert::params(py, Some(p.bind(py)))?;
            cfg.params.learned.comments |= base.params.learned.comments;
        }
        Ok(Arc::new(cfg))
    }
}

/// The inputs of a batch: each a string, an `os.PathLike`, or a dict with `html` (and `url`)
/// or `url`.
pub(crate) fn sources(py: Python<'_>, inputs: &Bound<'_, PyAny>) -> PyResult<Vec<Source>> {
    inputs.try_iter()?.map(|s| item_source(py, &s?)).collect()
}

fn page_source(
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

fn item_source(py: Python<'_>, s: &Bound<'_, PyAny>) -> PyResult<Source> {
    if let Ok(t) = s.cast::<PyString>() {
        return Ok(Source::Arg(t.extract::<String>()?));
    }
    if let Ok(d) = s.cast::<PyDict>() {
        let html = d.get_item("html")?;
        let url: Option<String> = d.get_item("url")?.map(|u| u.extract()).transpose()?;
        return page_source(py, None, html.as_ref(), url);
    }
    if let Ok(p) = s.extract::<PathBuf>() {
        return Ok(Source::Path(p));
    }
    Err(PyTypeError::new_err(format!(
        "a source is a URL or path string, an os.PathLike, or a dict with html=/url=, not {}",
        s.get_type().name()?
    )))
}

/// A doc comment's lines as one paragraph.
fn doc(lines: &[&str]) -> String {
    lines.iter().map(|l| l.trim()).collect::<Vec<_>>().join(" ")
}

fn unexpected(func: &str, name: &str) -> PyErr {
    PyTypeError::new_err(format!(
        "{func}() got an unexpected keyword argument '{name}'"
    ))
}

/// The value of keyword `name` of `func` as `T`; a `TypeError` naming both if it is not one.
fn value<'a, 'py, T: FromPyObject<'a, 'py>>(
    v: &'a Bound<'py, PyAny>,
    func: &str,
    name: &str,
) -> PyResult<T> {
    v.extract::<T>().map_err(|e| {
        let e: PyErr = e.into();
        PyTypeError::new_err(format!("{func}() argument '{name}': {}", e.value(v.py())))
    })
}
