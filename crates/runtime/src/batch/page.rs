//! One page through the pipeline: input argument → [`Input`] → render → size limits →
//! every requested algorithm → a [`Record`] and the formatted body. Shared by `extract`,
//! `serve` and the tests; pure apart from the render call.

use std::collections::BTreeMap;
use std::io::Read;
use std::sync::Arc;
use std::time::Instant;

use super::record::{ErrorInfo, Record};
use crate::extract::learned::model::Model;
use crate::extract::{extract_tree_with, Algorithm, Params};
use crate::output::json::AlgorithmResult;
use crate::output::{annotate, html, markdown, text, Format};
use crate::render::Timings;
use crate::render::{Input, Rendered};
use crate::{Error, Extraction, Snapshot, Tree};

/// What to do with each page besides rendering it.
///
/// Build it from [`PageConfig::default`] with the setters below (the struct is
/// `#[non_exhaustive]`, so a new setting never breaks a front end); the fields stay readable.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct PageConfig {
    /// Algorithms to run on the one snapshot (several: the record holds each).
    pub algorithms: Vec<Algorithm>,
    pub params: Params,
    /// The `learned` model to run instead of the one built into the binary (`--model FILE`).
    pub model: Option<Arc<Model>>,
    pub format: Format,
    /// Draw the extraction on the screenshot (needs a screenshot).
    pub annotate: bool,
    /// Pages whose snapshot holds more text than this fail with a `too-large` record.
    pub max_text_bytes: usize,
    /// Charset of file and stdin inputs served as bytes (`--charset`).
    pub charset: Option<String>,
    /// A front end's hint appended to error records (the CLI names its flags: "pass a larger
    /// --timeout"); the library's own messages speak of the library.
    pub hint: Option<fn(&Error) -> Option<String>>,
    /// Markdown bodies start with the page's metadata as YAML front matter.
    pub front_matter: bool,
    /// How the markdown writes images and links (`images`, `links`, `base_url`); the
    /// record's `markdown` and `sections` are written with it too.
    pub writer: crate::output::WriterOptions,
    /// How each page is steered before its snapshot (None: the render options' plan, which
    /// by default does nothing).
    pub steer: Option<Arc<crate::render::Steer>>,
    /// Where each page's exchanges and outcome are archived (`--warc`, `--wacz`); the
    /// render options must capture ([`crate::RenderOptions::capture`]).
    pub archive: Option<Arc<super::ArchiveWriter>>,
    /// Add the page's text units to the record (`units`: [`crate::overlay::units`]): each
    /// unit's box, probability, contributions and the algorithms that keep it. Runs every
    /// main-content algorithm once more; off by default.
    pub units: bool,
    /// With [`Format::Json`], also put the page's body in this format (markdown, text, html)
    /// in the record's `body` (one render gives the record and the body: the service's
    /// `body`, the CLI's `--body`). Ignored for the other formats.
    pub json_body: Option<Format>,
    /// The page's type as the caller states it (`--page-type`); None: predicted from each
    /// page ([`crate::extract::page_type`]). The record's `page_type` says which.
    pub page_type: Option<crate::extract::page_type::PageKind>,
}

impl PageConfig {
    /// Run these algorithms on the one snapshot (several: the record holds each).
    pub fn algorithms(mut self, a: Vec<Algorithm>) -> PageConfig {
        self.algorithms = a;
        self
    }
    /// The algorithms' parameters.
    pub fn params(mut self, p: Params) -> PageConfig {
        self.params = p;
        self
    }
    /// Run this `learned` model instead of the one built in.
    pub fn model(mut self, m: Option<Arc<Model>>) -> PageConfig {
        self.model = m;
        self
    }
    /// The format of the body each page writes.
    pub fn format(mut self, f: Format) -> PageConfig {
        self.format = f;
        self
    }
    /// Draw the extraction on the screenshot.
    pub fn annotate(mut self, on: bool) -> PageConfig {
        self.annotate = on;
        self
    }
    /// Pages whose snapshot holds more text than this many bytes fail as `too-large`.
    pub fn max_text_bytes(mut self, n: usize) -> PageConfig {
        self.max_text_bytes = n;
        self
    }
    /// The charset of file and stdin inputs served as bytes.
    pub fn charset(mut self, label: Option<String>) -> PageConfig {
        self.charset = label;
        self
    }
    /// The front end's hint appended to error messages.
    pub fn hint(mut self, h: Option<fn(&Error) -> Option<String>>) -> PageConfig {
        self.hint = h;
        self
    }
    /// State every page's type instead of predicting it (the record's `page_type`).
    pub fn page_type(mut self, kind: Option<crate::extract::page_type::PageKind>) -> PageConfig {
        self.page_type = kind;
        self
    }
    /// Start Markdown bodies with the page's metadata as YAML front matter.
    pub fn front_matter(mut self, on: bool) -> PageConfig {
        self.front_matter = on;
        self
    }
    /// How the markdown writes images and links ([`PageConfig::writer`]).
    pub fn writer(mut self, w: crate::output::WriterOptions) -> PageConfig {
        self.writer = w;
        self
    }
    /// Archive each page to this writer (its exchanges, text, record and screenshot).
    pub fn archive(mut self, w: Option<Arc<super::ArchiveWriter>>) -> PageConfig {
        self.archive = w;
        self
    }
    /// Steer each page with this plan before its snapshot.
    pub fn steer(mut self, plan: crate::render::Steer) -> PageConfig {
        self.steer = Some(Arc::new(plan));
        self
    }

    /// Add the page's text units to the record ([`PageConfig::units`]).
    pub fn units(mut self, on: bool) -> PageConfig {
        self.units = on;
        self
    }

    /// With [`Format::Json`], add the body in `f` to each record ([`PageConfig::json_body`]).
    pub fn json_body(mut self, f: Option<Format>) -> PageConfig {
        self.json_body = f.filter(|f| *f != Format::Json);
        self
    }

    /// An error's message for this front end: the library's (with its causes), then the
    /// front end's hint (`hint`) in parentheses when it has one.
    pub fn message(&self, e: &Error) -> String {
        let m = e.detail();
        match self.hint.and_then(|h| h(e)) {
            Some(hint) => format!("{m} ({hint})"),
            None => m,
        }
    }

    /// Score a saved snapshot with these settings, no browser: the record and the body a
    /// render of the page would give (the size limit, every algorithm), as
    /// [`crate::Extractor::score`] does with an extractor's settings. Errors are records
    /// (`too-large`, with this front end's hint); `name` is the record's `input`.
    pub fn score(&self, name: &str, snapshot: &Snapshot) -> PageOut {
        match within_text_limit(name, snapshot, self) {
            Ok(()) => score(name, snapshot, self, Timings::default(), None).0,
            Err(e) => PageOut::error_for(name, &e, self),
        }
    }
}

impl Default for PageConfig {
    fn default() -> Self {
        PageConfig {
            algorithms: vec![crate::extract::DEFAULT_ALGORITHM],
            params: Params::default(),
            model: None,
            format: Format::Text,
            annotate: false,
            max_text_bytes: 20_000_000,
            charset: None,
            hint: None,
            front_matter: false,
            writer: crate::output::WriterOptions::default(),
            steer: None,
            archive: None,
            units: false,
            json_body: None,
            page_type: None,
        }
    }
}

/// One page's outcome, ready to write.
#[derive(Debug, Clone)]
pub struct PageOut {
    /// The JSON record (errors are records too).
    pub record: Record,
    /// The formatted content (empty for JSON and for errors).
    pub body: String,
    pub screenshot: Option<Vec<u8>>,
    pub annotated: Option<Vec<u8>>,
    /// No algorithm kept any text (or the page failed).
    pub empty: bool,
}

impl PageOut {
    /// The record of a page that failed.
    pub fn error(input: &str, e: &Error) -> PageOut {
        PageOut {
            record: Record {
                input: input.to_string(),
                error: Some(ErrorInfo {
                    kind: e.kind().to_string(),
                    message: e.detail(),
                    reason: match e {
                        Error::Document { reason, .. } => Some(reason.clone()),
                        _ => None,
                    },
                }),
                wall: match e {
                    Error::Blocked { wall, .. } => Some((**wall).clone()),
                    _ => None,
                },
                ..Record::default()
            },
            body: String::new(),
            screenshot: None,
            annotated: None,
            empty: true,
        }
    }

    /// The record of a page that failed, with the front end's hint (`cfg.hint`).
    pub fn error_for(input: &str, e: &Error, cfg: &PageConfig) -> PageOut {
        let mut out = PageOut::error(input, e);
        if let Some(info) = out.record.error.as_mut() {
            info.message = cfg.message(e);
        }
        out
    }

    /// Did the page fail?
    pub fn failed(&self) -> bool {
        self.record.error.is_some()
    }
}

/// Turn an input argument into a render input: `-` reads HTML from stdin; a file with
/// `charset` set is read and served as bytes with that charset.
pub(crate) fn to_input(arg: &str, charset: &Option<String>) -> Result<Input, Error> {
    if arg == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| Error::Input {
                input: "-".into(),
                message: e.to_string(),
                source: Some(Box::new(e)),
            })?;
        return Ok(Input::Html {
            name: "-".into(),
            bytes,
            charset: charset.clone().unwrap_or_else(|| "utf-8".into()),
        });
    }
    match (Input::parse(arg)?, charset) {
        (Input::File(p), Some(cs)) => {
            let bytes = std::fs::read(&p).map_err(|e| Error::Input {
                input: arg.into(),
                message: e.to_string(),
                source: Some(Box::new(e)),
            })?;
            Ok(Input::Html {
                name: arg.into(),
                bytes,
                charset: cs.clone(),
            })
        }
        (i, _) => Ok(i),
    }
}

/// A page scored by every algorithm: what the writers need ([`PageOut`]) and what the
/// library's [`crate::Page`] keeps (the snapshot and each algorithm's extraction).
#[derive(Debug)]
pub(crate) struct Finished {
    pub out: PageOut,
    pub snapshot: Snapshot,
    /// One extraction per configured algorithm, in `cfg.algorithms` order.
    pub extractions: Vec<Extraction>,
}

/// The page's rendered outcome: the size limit, every algorithm, and the render facts
/// (status, retries, repairs) copied into the record, keeping the snapshot and the
/// extractions; a page over the size limit is an error.
pub(crate) fn finish_page(
    input: &str,
    r: Rendered,
    cfg: &PageConfig,
    launch_ms: Option<f64>,
) -> Result<Finished, Error> {
    within_text_limit(input, &r.snapshot, cfg)?;
    let mut t = r.timings.clone();
    if let Some(ms) = launch_ms {
        t.launch = Some((ms * 1000.0).round() / 1000.0);
    }
    let (mut out, extractions) = score(input, &r.snapshot, cfg, t, r.screenshot.as_deref());
    out.record.status = r.status;
    out.record.retries = (r.retries > 0).then_some(r.retries);
    out.record.screenshot_truncated = r.screenshot_truncated;
    out.record.repaired = r.repaired.clone();
    out.record.dialogs = (r.dialogs > 0).then_some(r.dialogs);
    out.record.skipped_requests = (r.skipped_requests.total() > 0).then_some(r.skipped_requests);
    let streamed = r.snapshot.streamed_segments;
    out.record.streamed_segments = (streamed > 0).then_some(streamed);
    out.record.javascript = r.javascript.clone();
    out.record.render = r.render.clone();
    out.record.scroll = Some(r.scroll.clone());
    out.record.actions = r.actions.clone();
    out.record.wall = r.wall.clone();
    out.record.soft_error = r.soft_error.clone();
    out.record.consent = r.consent.clone();
    out.record.document = r.document.clone();
    if let (Some(w), Some(exchanges)) = (&cfg.archive, r.exchanges) {
        archive_page(
            w,
            &out,
            exchanges,
            &r.snapshot,
            &extractions,
            r.screenshot.as_deref(),
        );
    }
    out.screenshot = r.screenshot;
    Ok(Finished {
        out,
        snapshot: r.snapshot,
        extractions,
    })
}

/// Append a page to the run's archive: its exchanges, the first algorithm's text, its
/// record, its screenshot. A failure to write is logged (the page's record still goes out).
fn archive_page(
    w: &super::ArchiveWriter,
    out: &PageOut,
    exchanges: Vec<crate::archive::Exchange>,
    snap: &Snapshot,
    extractions: &[Extraction],
    png: Option<&[u8]>,
) {
    let text = extractions
        .first()
        .map(|ex| text::render(&Tree::new(snap), ex));
    let page = crate::archive::PageCapture {
        url: out.record.url.clone().unwrap_or_else(|| snap.url.clone()),
        time: Some(std::time::SystemTime::now()),
        exchanges,
        text,
        record_json: serde_json::to_string(&out.record).ok(),
        screenshot: png.map(<[u8]>::to_vec),
    };
    if let Err(e) = w.write_page(&page, &snap.title) {
        tracing::error!("{}: {e}", out.record.input);
    }
}

/// The size limit of [`PageConfig::max_text_bytes`] on a snapshot's visible text.
fn within_text_limit(input: &str, snap: &Snapshot, cfg: &PageConfig) -> Result<(), Error> {
    let text_bytes: usize = snap
        .nodes
        .iter()
        .filter_map(|n| n.text.as_ref())
        .map(|t| t.len())
        .sum();
    if text_bytes > cfg.max_text_bytes {
        return Err(Error::TooLarge {
            input: input.to_string(),
            message: format!(
                "{text_bytes} bytes of text, more than the limit of {} (max_text_bytes)",
                cfg.max_text_bytes
            ),
        });
    }
    Ok(())
}

/// The record's page type: the stated one, else the shipped model's prediction from the
/// snapshot, read at the page's address on its site when `base_url` gives one.
fn page_type(
    input: &str,
    snap: &Snapshot,
    cfg: &PageConfig,
) -> Option<crate::extract::page_type::PageType> {
    use crate::extract::page_type;
    if let Some(kind) = cfg.page_type {
        return Some(page_type::PageType::stated(kind));
    }
    match page_type::predict(snap, cfg.writer.base_url.as_deref()) {
        Ok(t) => Some(t),
        Err(e) => {
            tracing::warn!("{input}: no page type: {e}");
            None
        }
    }
}

/// Score a snapshot with each algorithm and build the record and the formatted body.
pub(crate) fn score(
    input: &str,
    snap: &Snapshot,
    cfg: &PageConfig,
    mut timings: Timings,
    png: Option<&[u8]>,
) -> (PageOut, Vec<Extraction>) {
    let tree = Tree::new(snap);
    let metadata = crate::extract::metadata::metadata(snap, &tree);
    let mut extractions = Vec::with_capacity(cfg.algorithms.len());
    let mut results = BTreeMap::new();
    let mut bodies = Vec::new();
    let mut total = 0.0;
    let mut empty = true;
    let mut annotated = None;
    let many = cfg.algorithms.len() > 1;
    for &a in &cfg.algorithms {
        let t = Instant::now();
        let ex = extract_tree_with(&tree, a, &cfg.params, cfg.model.as_deref());
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        total += ms;
        empty &= !ex.has_text(&tree);
        // The body's format: the page's, or with JSON the record's `body`'s.
        let format = match (cfg.format, cfg.json_body) {
            (Format::Json, Some(f)) => f,
            (f, _) => f,
        };
        let body = render_document(
            &tree,
            &ex,
            format,
            cfg.front_matter.then_some(&metadata),
            &cfg.writer,
        );
        if many && format != Format::Json {
            bodies.push(format!("==> {} <==\n{body}", a.name()));
        } else {
            bodies.push(body);
        }
        if let (true, None, Some(png)) = (cfg.annotate, &annotated, png) {
            annotated =
                match annotate::annotate(png, &tree, &ex, &annotate::AnnotateOptions::default()) {
                    Ok(b) => Some(b),
                    Err(e) => {
                        tracing::warn!("{input}: cannot annotate the screenshot: {e}");
                        None
                    }
                };
        }
        results.insert(
            a.name().to_string(),
            AlgorithmResult::new(&tree, &ex, Some(ms), &cfg.writer),
        );
        extractions.push(ex);
    }
    timings.score = Some((total * 1000.0).round() / 1000.0);
    let mut record = Record {
        input: input.to_string(),
        url: Some(snap.url.clone()),
        title: Some(snap.title.clone()),
        metadata: (!metadata.is_empty()).then_some(metadata),
        page_type: page_type(input, snap, cfg),
        timings_ms: Some(timings),
        ..Record::default()
    };
    if cfg.units {
        match crate::overlay::units(&tree, &cfg.params, cfg.model.as_deref()) {
            Ok(u) => record.units = Some(u),
            Err(e) => tracing::warn!("{input}: no units for the record: {e}"),
        }
    }
    if many {
        record.algorithms = Some(results);
    } else {
        record.result = results.into_values().next();
    }
    let body = match (cfg.format, cfg.json_body) {
        (Format::Json, None) => String::new(),
        (Format::Json, Some(f)) => {
            record.body = Some(bodies.concat());
            record.body_format = Some(f.name().to_string());
            String::new()
        }
        _ => bodies.concat(),
    };
    (
        PageOut {
            record,
            body,
            screenshot: None,
            annotated,
            empty,
        },
        extractions,
    )
}

/// The document a page's text formats write: [`render_body`], after the metadata's YAML
/// front matter when `front_matter` is given and the format is Markdown (the one place the
/// front matter is prepended: the batch's bodies and [`crate::Page::format`] both call it).
pub(crate) fn render_document(
    tree: &Tree,
    ex: &Extraction,
    format: Format,
    front_matter: Option<&crate::Metadata>,
    writer: &crate::output::WriterOptions,
) -> String {
    let body = render_body(tree, ex, format, writer);
    match front_matter {
        Some(m) if format == Format::Markdown => crate::output::front_matter::render(m) + &body,
        _ => body,
    }
}

/// The content of one extraction in a non-JSON format, with Crunch's retained links after it.
fn render_body(
    tree: &Tree,
    ex: &Extraction,
    format: Format,
    writer: &crate::output::WriterOptions,
) -> String {
    let mut body = match format {
        Format::Text => text::render(tree, ex),
        Format::Html => html::render(tree, ex),
        Format::Markdown => markdown::write(tree, ex, writer).markdown,
        Format::Json => return String::new(),
    };
    body.push_str(&crate::output::retained_links(ex, format));
    body
}
