//! Measurement: the extraction-quality metric of Song et al. (§4.1.2, eq. 6-9, plus
//! bag-of-words F1), the benchmark datasets of `shared/bench`, PEERS.md's published scores, and
//! the markdown/JSON benchmark reports. Nothing here renders: the runner feeds outputs in.
//!
//! - [`metrics`]: [`metrics::score`] one output against its gold → [`metrics::PageScore`];
//!   [`metrics::MacroScores`] averages a dataset.
//! - [`lcs`]: bit-parallel longest-common-subsequence length (Hyyrö / Allison-Dix).
//! - [`bench`]: [`bench::Dataset`]: manifest, gunzipped and decoded pages, gold, peer outputs.
//! - [`peers`]: PEERS.md's tables ([`peers::PeerTable`]) and scoring of peers' saved outputs.
//! - [`rescore`]: scores `DIR/<algorithm>/<dataset>/<id>.txt` against the gold
//!   ([`rescore::rescore_dir`], behind `sightline eval --rescore`).
//! - [`report`]: [`report::Results`] and the pure [`report::markdown`] / [`report::json`] writers.
//! - [`run`]: the runner behind `sightline eval`: renders each page once, offline, runs every
//!   algorithm on its snapshot and scores the outputs.
//! - [`gate`]: the CI quality gate (F1 floors in a baseline file).
//! - [`train`]: `sightline train`: labels from the gold by LCS alignment, the `learned` model,
//!   leave-one-dataset-out scores.

pub mod bench;
pub mod gate;
pub mod lcs;
pub mod metrics;
pub mod peers;
pub mod report;
pub mod rescore;
pub mod run;
pub mod train;

pub use metrics::{score, MacroScores, PageScore};
pub use report::{PageResult, Results, Summary};
pub use rescore::rescore_dir;
