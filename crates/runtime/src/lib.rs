//! sightline renders web pages in headless Chromium and extracts their main content from the
//! real layout: every DOM node's rendered box, computed style and visibility, scored with the
//! published content-extraction algorithms.
//!
//! # Layout
//! Data flows one way: input → render → snapshot → score → extraction → output. This crate
//! is the runtime: the only code that talks to Chromium, and the batch pipeline behind the one
//! front door, [`Extractor`]. The pure layer (snapshot, algorithms, writers, metrics,
//! training) is the `sightline-core` crate, re-exported here module by module ([`snapshot`],
//! [`extract`], [`output`], [`scores`], [`archive`], and [`eval`] with the runner added), so the compiler
//! refuses an import from it back into the runtime. The services (`serve`, MCP) are the
//! `sightline-serve` crate, and the command line is the `sightline` binary, both over this
//! front door.
//! - [`render`]: launch or connect, a pool of reused tabs, navigation, settling, request
//!   blocking (`--offline`), the egress proxy and target policy, snapshot and screenshot,
//!   capture of every exchange (`--warc`) and replay from an archive (`--replay`).
//! - [`batch`]: the one runner every front end shares (`extract`, `eval`, `serve`, MCP,
//!   Python): inputs through the renderer and the algorithms to records (and to the run's
//!   archive, `batch::ArchiveWriter`), with cancellation,
//!   resume and sharding.
//! - [`crawl`]: `sightline crawl` and `map`: seeds, robots.txt, sitemaps and feeds, scope,
//!   politeness, the frontier on disk, through the batch pipeline to one record a page.
//! - `extractor` (its items re-exported here): [`Extractor`], [`Options`], [`Page`],
//!   [`Source`]: the front door.
//! - [`eval`]: the core's metrics and gate, plus [`eval::run`], the runner that renders each
//!   benchmark page once, offline, runs every algorithm on its snapshot and scores the outputs.
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

pub use sightline_core::{archive, extract, output, overlay, scores, snapshot, walls};
// Crate-internal paths (`crate::charset`, `crate::hash`) to the core's helpers.
use sightline_core::{charset, hash};

pub mod batch;
pub mod crawl;
pub mod eval;
mod extractor;
pub mod render;

pub use batch::{Cancel, Job, PageConfig, PageOut, Record, Summary};
pub use crawl::{CrawlConfig, CrawlSummary, Mapped, ScopeKind};
pub use extractor::{BrowserStats, Extractor, Options, Page, Source};
pub use render::guard::NetPolicy;
pub use render::reap::end_all_now;
pub use render::steer::{Action, Steer};
pub use render::{BrowserSource, RenderOptions, ScrollOptions, Timings};
pub use sightline_core::{
    Algorithm, BoxError, Error, Extraction, Format, Metadata, Params, Snapshot, Tree,
};
