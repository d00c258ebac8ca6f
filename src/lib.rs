//! sightline renders web pages in headless Chromium and extracts their main content from the
//! real layout: every DOM node's rendered box, computed style and visibility, scored with the
//! published content-extraction algorithms.
//!
//! # Layout
//! Data flows one way: input → render → snapshot → score → extraction → output.
//! - [`render`]: the only code that talks to Chromium — launch or connect, a pool of reused
//!   tabs, navigation, settling, request blocking (`--offline`), snapshot and screenshot.
//! - [`snapshot`]: the [`Snapshot`] value `js/snapshot.js` returns, and the node [`Tree`] with
//!   derived counts (characters, tags, link characters, link tags).
//! - [`extract`]: pure, synchronous scoring, one file per paper (`density`, `visual`,
//!   `weight`, `vsse/`, `crunch`, `blocks/`), `ensemble`, and `learned/` (units, token
//!   vocabulary, feature schema, pass-1 and pass-2 features, the Readability.js port, the
//!   model); every constant in [`extract::params`], every algorithm's report in
//!   [`extract::details`]. The `learned` model is passed in
//!   ([`extract::extract_tree_with`]), never a parameter.
//! - [`scores`]: every algorithm's per-node quantities as named columns ([`scores::node_scores`]),
//!   for `sightline scores` and the Python package.
//! - [`output`]: pure writers from an extraction to text, HTML, markdown (`markdown/`) and
//!   JSON, and the annotated screenshot (`annotate/`: layers, canvas, legend).
//! - [`eval`]: the metrics of Song et al. eq. 6-9, the benchmark runner, the quality gate, and
//!   `train/` (data and labels, fitting, cross-validation and leave-one-dataset-out, reports).
//! - [`batch`]: the one runner every front end shares (`extract`, `eval`, `serve`): inputs
//!   through the renderer and the algorithms to records, with cancellation, resume and
//!   sharding.
//! - [`serve`]: the pipeline as an HTTP service (axum), with a target policy against SSRF.
//! - [`mcp`]: the pipeline as Model Context Protocol tools for LLM agents (`extract`,
//!   `screenshot`, `snapshot`), over stdio (`sightline mcp`) and on `serve` at `/mcp`.
//! - `hash` (crate-private): the one stable hash (FNV-1a 64 with the SplitMix64 finaliser).
//! - `src/bin/sightline/`: the command-line binary (argument parsing, exit codes, progress).
//!
//! Scoring never touches the browser: `extract(&Snapshot, Algorithm, &Params)` is a plain
//! function, so every algorithm runs from a saved JSON snapshot.
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
//! let page = extractor.extract("fixtures/demo-news/page.html").await?;
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

#[cfg(feature = "browser")]
pub mod batch;
mod charset;
mod error;
pub mod eval;
pub mod extract;
#[cfg(feature = "browser")]
mod extractor;
mod hash;
#[cfg(feature = "browser")]
pub mod mcp;
pub mod output;
#[cfg(feature = "browser")]
pub mod render;
pub mod scores;
#[cfg(feature = "browser")]
pub mod serve;
pub mod snapshot;

pub use error::{BoxError, Error};
pub use extract::metadata::Metadata;
pub use extract::{extract, Algorithm, Extraction, Params};
#[cfg(feature = "browser")]
pub use extractor::{Extractor, Options, Page, Source};
pub use output::Format;
#[cfg(feature = "browser")]
pub use render::{RenderOptions, Timings};
pub use snapshot::{Snapshot, Tree};
