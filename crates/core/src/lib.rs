//! sightline's pure layer: everything that turns a rendered page's [`Snapshot`] into an
//! extraction, an output and a score, synchronously, with no browser, HTTP or async
//! dependency. The runtime crate (`sightline`) renders pages into snapshots and re-exports
//! every module here, so users write `sightline::snapshot::...`; this crate alone builds the
//! fuzz targets and anything that scores saved snapshots.
//!
//! # Layout
//! Data flows one way: snapshot → score → extraction → output (→ metrics).
//! - [`snapshot`]: the [`Snapshot`] value `js/snapshot.js` returns, and the node [`Tree`] with
//!   derived counts (characters, tags, link characters, link tags).
//! - [`extract`]: pure, synchronous scoring, one file per paper (`density`, `visual`,
//!   `weight`, `vsse/`, `crunch`, `blocks/`), `ensemble`, `metadata/`, and `learned/` (units,
//!   token vocabulary, feature schema, pass-1 and pass-2 features, the Readability.js port,
//!   the model); every constant in [`extract::params`], every algorithm's report in
//!   [`extract::details`]. The `learned` model is passed in
//!   ([`extract::extract_tree_with`]), never a parameter.
//! - [`scores`]: every algorithm's per-node quantities as named columns
//!   ([`scores::node_scores`]), for `sightline scores` and the Python package.
//! - [`overlay`]: each `learned` text unit with its box, text, probability, top feature
//!   contributions and the algorithms that keep it (the record's opt-in `units`, which the
//!   playground of `sightline serve` draws).
//! - [`output`]: pure writers from an extraction to text, HTML, markdown (`markdown/`) and
//!   JSON, front matter, and the annotated screenshot (`annotate/`: layers, canvas, legend).
//! - [`eval`]: the metrics of Song et al. eq. 6-9, the benchmark datasets, the quality gate,
//!   and `train/` (data and labels, fitting, cross-validation and leave-one-dataset-out,
//!   reports). The runner that renders the benchmark is the runtime crate's `eval::run`.
//! - [`error`]: the library's [`Error`] (shared by every layer; the runtime's variants name
//!   the browser).
//! - [`charset`]: charset facts about raw page bytes, shared by the renderer and the
//!   benchmark reader.
//! - [`walls`]: what stands in front of a page's content (challenge, captcha, block, rate
//!   limit, login, paywall, consent), recognised from the response and the layout.
//! - [`archive`]: web archives: WARC/1.1 records of what the browser fetched (`warc`), reading
//!   them back for replay (`read`), WACZ packages and CDXJ (`wacz`).
//! - [`described`]: a settings type's fields (name, default, doc) from its JSON schema, as
//!   Python's keyword tables read them.
//! - [`hash`]: the one stable hash (FNV-1a 64 with the SplitMix64 finaliser).
//! - [`inputs`]: input lists, shards of them (`--shard K/N`) and the slugs that name each
//!   input's files, shared by the batch and the crawl.
//!
//! Scoring never touches the browser: `extract(&Snapshot, Algorithm, &Params)` is a plain
//! function, so every algorithm runs from a saved JSON snapshot.
#![forbid(unsafe_code)]

pub mod archive;
pub mod charset;
pub mod described;
pub mod error;
pub mod eval;
pub mod extract;
pub mod hash;
pub mod inputs;
pub mod output;
pub mod overlay;
pub mod scores;
pub mod snapshot;
pub mod walls;

pub use error::{BoxError, Error};
pub use extract::metadata::Metadata;
pub use extract::{extract, Algorithm, Extraction, Params};
pub use output::Format;
pub use snapshot::{Snapshot, Tree};
