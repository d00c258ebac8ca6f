//! Measurement: the extraction-quality metric of Song et al. (§4.1.2, eq. 6-9, plus
//! bag-of-words F1), the benchmark datasets of `shared/bench`, PEERS.md's published scores, and
//! the markdown/JSON benchmark reports. Nothing here renders: the runner (the runtime crate's
//! `eval::run`) feeds outputs in.
//!
//! - [`metrics`]: [`metrics::score`] one output against its gold → [`metrics::PageScore`];
//!   [`metrics::MacroScores`] averages a dataset.
//! - [`lcs`]: bit-parallel longest-common-subsequence length (Hyyrö / Allison-Dix).
//! - [`bench`]: [`bench::Dataset`]: manifest, gunzipped and decoded pages, gold, peer outputs.
//! - [`peers`]: PEERS.md's tables ([`peers::PeerTable`]) and scoring of peers' saved outputs.
//! - [`rescore`]: scores `DIR/<algorithm>/<dataset>/<id>.txt` against the gold
//!   ([`rescore::rescore_dir`], behind `sightline eval --rescore`).
//! - [`results`]: [`results::Results`], the per-page and per-dataset values everything above
//!   shares (a leaf: no module here depends on another through it).
//! - [`report`]: the pure [`report::markdown`] / [`report::json`] writers.
//! - [`sample`]: the stratified, seeded page sample behind `sightline eval --sample`.
//! - [`gate`]: the CI quality gate (floors per algorithm × dataset in a baseline file; every
//!   bound for the default algorithm).
//! - [`table`]: the README's quality table from a run's `report.json`.
//! - [`train`]: `sightline train`: labels from the gold by LCS alignment, the `learned` model,
//!   leave-one-dataset-out scores.

pub mod bench;
pub mod gate;
pub(crate) mod lcs;
pub mod metrics;
pub mod peers;
pub mod report;
pub mod rescore;
pub(crate) mod results;

pub mod sample;
pub mod table;
pub mod train;

pub use metrics::{score, MacroScores, PageScore};
pub use rescore::rescore_dir;
pub use results::{PageResult, Results, Summary};
