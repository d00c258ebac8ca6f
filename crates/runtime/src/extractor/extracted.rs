//! [`Page`]: one extracted page, as the front door gives it: the snapshot of its layout, each
//! algorithm's extraction and the record, with the text formats written on demand.

use crate::batch::{page, Record};
use crate::extract::Extraction;
use crate::output::Format;
use crate::render::Timings;
use crate::{Snapshot, Tree};

use super::Options;

/// One extracted page: the snapshot of its layout, each algorithm's extraction, and the
/// record `sightline extract -f json` writes. The text formats are written on demand.
#[derive(Debug, Clone)]
pub struct Page {
    snapshot: Snapshot,
    extractions: Vec<Extraction>,
    record: Record,
    screenshot: Option<Vec<u8>>,
    annotated: Option<Vec<u8>>,
    front_matter: bool,
    writer: crate::output::WriterOptions,
}

impl Page {
    pub(super) fn from_finished(f: page::Finished, cfg: &crate::PageConfig) -> Page {
        Page {
            front_matter: cfg.front_matter,
            writer: cfg.writer.clone(),
            snapshot: f.snapshot,
            extractions: f.extractions,
            record: f.out.record,
            screenshot: f.out.screenshot,
            annotated: f.out.annotated,
        }
    }

    /// Score a saved snapshot (no browser), as a render of it would be scored.
    pub fn from_snapshot(name: &str, snapshot: Snapshot, options: &Options) -> Page {
        let (out, extractions) =
            page::score(name, &snapshot, &options.page, Timings::default(), None);
        Page {
            snapshot,
            extractions,
            record: out.record,
            screenshot: None,
            annotated: None,
            front_matter: options.page.front_matter,
            writer: options.page.writer.clone(),
        }
    }

    /// The content as plain text, one paragraph per line (the CLI's `-f text`).
    pub fn text(&self) -> String {
        self.format(Format::Text)
    }
    /// The content as Markdown (`-f markdown`).
    pub fn markdown(&self) -> String {
        self.format(Format::Markdown)
    }
    /// The content subtrees as cleaned HTML (`-f html`).
    pub fn html(&self) -> String {
        self.format(Format::Html)
    }
    /// The record of `-f json`: URL, title, text, html, content boxes, the algorithm's
    /// details, timings and the render facts.
    pub fn json(&self) -> serde_json::Value {
        serde_json::to_value(&self.record).unwrap_or(serde_json::Value::Null)
    }
    /// The content of the first algorithm in `format` (JSON: the record).
    pub fn format(&self, format: Format) -> String {
        match (format, self.extractions.first()) {
            (Format::Json, _) => serde_json::to_string(&self.record).unwrap_or_default(),
            (_, None) => String::new(),
            (f, Some(ex)) => page::render_document(
                &Tree::new(&self.snapshot),
                ex,
                f,
                self.record.metadata.as_ref().filter(|_| self.front_matter),
                &self.writer,
            ),
        }
    }
    /// The page's metadata (title, authors, dates, site, language, description, canonical
    /// URL, image, tags, categories), each field with where it was read.
    pub fn metadata(&self) -> Option<&crate::extract::metadata::Metadata> {
        self.record.metadata.as_ref()
    }
    /// The page's title (`document.title`).
    pub fn title(&self) -> &str {
        &self.snapshot.title
    }
    /// The page's final URL, after redirects.
    pub fn url(&self) -> &str {
        &self.snapshot.url
    }
    /// The source as given.
    pub fn input(&self) -> &str {
        &self.record.input
    }
    /// The full-page PNG, when screenshots were asked for.
    pub fn screenshot(&self) -> Option<&[u8]> {
        self.screenshot.as_deref()
    }
    /// The screenshot with the extraction drawn on it ([`Options::annotate`]).
    pub fn annotated(&self) -> Option<&[u8]> {
        self.annotated.as_deref()
    }
    /// Milliseconds of each phase (launch, navigate, settle, scroll, snapshot, score,
    /// screenshot).
    pub fn timings(&self) -> Option<&Timings> {
        self.record.timings_ms.as_ref()
    }
    /// The layout the algorithms scored (every node's box, style and text).
    pub fn snapshot(&self) -> &Snapshot {
        &self.snapshot
    }
    /// The first algorithm's extraction (which nodes are content, and its details).
    pub fn extraction(&self) -> Option<&Extraction> {
        self.extractions.first()
    }
    /// Every configured algorithm's extraction, in the configured order.
    pub fn extractions(&self) -> &[Extraction] {
        &self.extractions
    }
    /// The output record, as written with `-f json`.
    pub fn record(&self) -> &Record {
        &self.record
    }
    /// The wall in front of the page's content that left some of it (a paywall, a login or
    /// consent dialog over a lead), or any wall when walls are accepted
    /// ([`crate::Steer::accept_walls`]). A wall that leaves nothing is an
    /// [`Error::Blocked`] instead, carrying the wall.
    pub fn wall(&self) -> Option<&crate::walls::Wall> {
        self.record.wall.as_ref()
    }
    /// Did any algorithm keep text?
    pub fn is_empty(&self) -> bool {
        let tree = Tree::new(&self.snapshot);
        !self.extractions.iter().any(|e| e.has_text(&tree))
    }
}
