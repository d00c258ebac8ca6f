//! sightline renders web pages in headless Chromium and extracts their main content from the
//! real layout: every DOM node's rendered box, computed style and visibility, scored with the
//! published content-extraction algorithms.
//!
//! # Layout
//! Data flows one way: input → render → snapshot → score → extraction → output. This crate
//! is the front door, [`Extractor`], and the batch pipeline behind it, over crates the
//! compiler keeps apart, each re-exported here: the pure layer `sightline-core` (snapshot,
//! algorithms, writers, metrics, training: [`snapshot`], [`extract`], [`output`],
//! [`scores`], [`archive`], [`inputs`], and [`eval`] with the runner added), the renderer
//! `sightline-render` ([`render`]: launch or connect, a pool of reused tabs, navigation,
//! settling, steering, snapshot and screenshot, capture and replay; with the target policy
//! and egress proxy of `sightline-egress` as [`render::guard`] and [`render::egress`]), and the
//! crawler `sightline-crawl` ([`crawl`]). The services (`serve`, MCP) are the
//! `sightline-serve` crate, and the command line is the `sightline` binary, both over this
//! front door.
//! - [`batch`]: the one runner every front end shares (`extract`, `eval`, `serve`, MCP,
//!   Python): inputs through the renderer and the algorithms to records (and to the run's
//!   archive, `batch::ArchiveWriter`), with cancellation,
//!   resume and sharding.
//! - [`crawl`]: `sightline crawl` and `map` (`sightline-crawl`: seeds, robots.txt, sitemaps
//!   and feeds, scope, politeness, the frontier on disk) over the batch pipeline, one record
//!   a page: the crawl's seam implemented here.
//! - `extractor` (its items re-exported here): [`Extractor`], [`Options`], [`Page`],
//!   [`Source`]: the front door.
//! - [`eval`]: the core's metrics and gate, plus [`eval::run`], the runner that renders each
//!   benchmark page once, offline, runs every algorithm on its snapshot and scores the outputs.
//! - [`scoring`]: [`Scoring`], the caller's scoring choices (algorithm, reader comments)
//!   declared once for every front end, and [`scoring::flag`], booleans from a query string.
//!
//! # Extract a page
//! [`Extractor`] is the front door: it holds a browser with a pool of tabs and turns each
//! URL, file or HTML string into a [`Page`] (text, Markdown, HTML, the JSON record, the
//! screenshot, the snapshot and every algorithm's extraction).
//!
//! ```
//! use sightline::{Extractor, Options};
//!
//! # fn main() -> Result<(), sightline::Error> {
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! let extractor = Extractor::new(Options::default().offline(true)).await?;
//! # let page_html = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/demo-news/page.html");
//! let page = extractor.extract(page_html).await?;
//! assert!(page.markdown().contains("# "));
//! println!("{}", page.text());
//! extractor.shutdown().await;
//! # Ok(()) })
//! # }
//! ```
//!
//! Many pages at once: [`Extractor::extract_many`] yields `(index, Result<Page, Error>)` in
//! completion order; errors are values with a [`Error::kind`], and a page that fails never
//! stops the others.
#![forbid(unsafe_code)]
#![warn(unreachable_pub)]

pub use sightline_core::{archive, extract, inputs, output, overlay, scores, snapshot, walls};
pub use sightline_render as render;

pub mod batch;
pub mod crawl;
pub mod eval;
mod extractor;
pub mod scoring;

pub use batch::{Cancel, Job, PageConfig, PageOut, Record, Summary};
pub use crawl::{CrawlConfig, CrawlSettings, CrawlSummary, Mapped, ScopeKind, SettingsError};
pub use extractor::{BrowserStats, Extractor, Options, Page, Source};
pub use render::guard::NetPolicy;
pub use render::reap::end_all_now;
pub use render::steer::{Action, Steer};
pub use render::{BrowserSource, RenderMode, RenderOptions, ScrollOptions, Timings};
pub use scoring::Scoring;
pub use sightline_core::{
    output::WriterOptions, Algorithm, BoxError, Error, Extraction, Format, Metadata, Params,
    Snapshot, Tree,
};
