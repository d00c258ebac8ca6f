//! The model file of the `learned` algorithm: two gradient-boosted tree ensembles (forust-ml
//! `GradientBooster`, logistic loss) and the feature names they were trained on.
//!
//! The shipped model (`models/learned.json`, made by `sightline train`) is compiled into the
//! binary with `include_str!`, so `--algorithm learned` needs neither a file nor a network. It
//! holds tree structure and leaf weights only: no page text.

use std::sync::OnceLock;

use forust_ml::gradientbooster::ContributionsMethod;
use forust_ml::{GradientBooster, Matrix};
use serde::{Deserialize, Serialize};

use super::features::{FEATURES, PASS2_FEATURES};
use crate::Error;

/// Version of the model file layout; bumped on an incompatible change.
pub const MODEL_FORMAT: u32 = 1;

/// The shipped model's JSON (see `models/README.md`).
pub const SHIPPED_JSON: &str = include_str!("../../../models/learned.json");

/// A trained two-pass classifier.
#[derive(Serialize, Deserialize)]
pub struct Model {
    /// [`MODEL_FORMAT`] at training time.
    pub format: u32,
    /// How the model was made (training sets, command, learner settings).
    pub description: String,
    /// Pass-1 feature names, in column order; must equal [`FEATURES`].
    pub features: Vec<String>,
    /// Pass-2 feature names; must equal [`PASS2_FEATURES`].
    pub pass2_features: Vec<String>,
    /// A unit is content when its pass-2 probability reaches this.
    pub threshold: f64,
    /// Pass 1: one unit's own features → probability of being content.
    pub pass1: GradientBooster,
    /// Pass 2 (smoothing): the pass-1 probabilities around the unit → probability.
    pub pass2: GradientBooster,
}

impl std::fmt::Debug for Model {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Model")
            .field("description", &self.description)
            .field("threshold", &self.threshold)
            .field("pass1_trees", &self.pass1.trees.len())
            .field("pass2_trees", &self.pass2.trees.len())
            .finish()
    }
}

/// The logistic function.
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Row-major rows → the column-major layout forust's [`Matrix`] reads.
pub fn column_major(rows: &[f64], cols: usize) -> Vec<f64> {
    let n = rows.len() / cols.max(1);
    let mut out = vec![0.0; rows.len()];
    for i in 0..n {
        for j in 0..cols {
            out[j * n + i] = rows[i * cols + j];
        }
    }
    out
}

/// Probabilities of a booster over row-major `rows` of `cols` features (single-threaded).
pub fn predict(booster: &GradientBooster, rows: &[f64], cols: usize) -> Vec<f64> {
    let n = rows.len() / cols.max(1);
    if n == 0 {
        return Vec::new();
    }
    let data = column_major(rows, cols);
    let m = Matrix::new(&data, n, cols);
    booster
        .predict(&m, false)
        .into_iter()
        .map(sigmoid)
        .collect()
}

/// Per-feature contributions in log-odds (Saabas: the change of the node value along each
/// tree's path, summed over trees), `cols + 1` values per row, the last the bias.
pub fn contributions(booster: &GradientBooster, rows: &[f64], cols: usize) -> Vec<f64> {
    let n = rows.len() / cols.max(1);
    if n == 0 {
        return Vec::new();
    }
    let data = column_major(rows, cols);
    let m = Matrix::new(&data, n, cols);
    booster.predict_contributions(&m, ContributionsMethod::Weight, false)
}

impl Model {
    /// Parse a model file; `source` names it in errors. Refuses a model whose feature list
    /// differs from this build's.
    pub fn from_json(json: &str, source: &str) -> Result<Model, Error> {
        let bad = |message: String| Error::Input {
            input: source.to_string(),
            message,
        };
        let m: Model = serde_json::from_str(json).map_err(|e| {
            bad(format!(
                "not a learned-model file ({e}); make one with `sightline train`"
            ))
        })?;
        if m.format != MODEL_FORMAT {
            return Err(bad(format!(
                "model format {} is not supported (this build reads {MODEL_FORMAT}); retrain with `sightline train`",
                m.format
            )));
        }
        if m.features != FEATURES || m.pass2_features != PASS2_FEATURES {
            return Err(bad(
                "the model was trained on other features than this build computes; retrain with `sightline train`"
                    .into(),
            ));
        }
        Ok(m)
    }

    /// Serialize (deterministic: same model, same bytes).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a model always serializes") + "\n"
    }

    /// The model compiled into the binary, parsed once.
    pub fn shipped() -> Result<&'static Model, Error> {
        static SHIPPED: OnceLock<Result<Model, String>> = OnceLock::new();
        SHIPPED
            .get_or_init(|| {
                Model::from_json(SHIPPED_JSON, "models/learned.json (built in)")
                    .map_err(|e| e.to_string())
            })
            .as_ref()
            .map_err(|e| Error::Input {
                input: "models/learned.json (built in)".into(),
                message: e.clone(),
            })
    }
}
