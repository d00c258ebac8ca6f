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

use super::schema::{FEATURES, PASS2_FEATURES};
use crate::Error;

/// Version of the model file layout; bumped on an incompatible change.
pub const MODEL_FORMAT: u32 = 1;

/// The shipped model's JSON (see `models/README.md`).
pub const SHIPPED_JSON: &str = include_str!("../../../../../models/learned.json");

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
    /// With the `threshold` decision ([`crate::extract::params::Decision`]), a unit is content
    /// when its pass-2 probability reaches this; the default decision does not read it.
    pub threshold: f64,
    /// Pass 1: one unit's own features → probability of being content.
    pub pass1: GradientBooster,
    /// Pass 2 (smoothing): the pass-1 probabilities around the unit → probability.
    pub pass2: GradientBooster,
    /// The comment model: for a unit in a reader-comment region
    /// ([`super::comment_candidate`]), its pass-1 features → probability that it is comment
    /// text a reader would keep (the comment itself, its author and date; not "Reply", the
    /// reply form or "Load more"). Trained on the datasets whose gold keeps reader comments;
    /// absent in models trained on none. Read only with [`LearnedParams::comments`].
    ///
    /// [`LearnedParams::comments`]: crate::extract::params::LearnedParams::comments
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comments: Option<GradientBooster>,
    /// Both passes flattened for prediction, built on first use.
    #[serde(skip)]
    pub forests: OnceLock<(Forest, Forest)>,
    /// The comment model flattened, built on first use.
    #[serde(skip)]
    pub comment_forest: OnceLock<Option<Forest>>,
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

/// One node of a [`Forest`]: a split (`feature`, `split`, children) or a leaf (`value`).
#[derive(Debug, Clone, Copy)]
struct FlatNode {
    /// Split value (`x < split` goes left); unused in a leaf.
    split: f64,
    /// The node's weight: a leaf's value; for a split, what Saabas contributions start from.
    value: f64,
    /// Split feature; `u32::MAX` marks a leaf.
    feature: u32,
    left: u32,
    right: u32,
    missing: u32,
}

/// A booster's trees flattened into one array for fast single-threaded prediction over
/// row-major rows. Gives exactly forust's `GradientBooster::predict` (same comparisons, the
/// same sum in the same order: base score, then tree by tree), without its column-major copy
/// and per-tree vectors.
#[derive(Debug, Clone)]
pub struct Forest {
    base: f64,
    missing: f64,
    nodes: Vec<FlatNode>,
    roots: Vec<u32>,
}

impl Forest {
    /// Flatten the prediction trees of `b`.
    pub fn of(b: &GradientBooster) -> Forest {
        let n_trees = b.prediction_iteration.unwrap_or(b.trees.len());
        let mut nodes = Vec::new();
        let mut roots = Vec::with_capacity(n_trees);
        for t in &b.trees[..n_trees] {
            let off = nodes.len() as u32;
            roots.push(off);
            // forust numbers nodes by their index in `Tree::nodes`.
            for nd in &t.nodes {
                nodes.push(if nd.is_leaf {
                    FlatNode {
                        split: 0.0,
                        value: nd.weight_value as f64,
                        feature: u32::MAX,
                        left: 0,
                        right: 0,
                        missing: 0,
                    }
                } else {
                    FlatNode {
                        split: nd.split_value,
                        value: nd.weight_value as f64,
                        feature: nd.split_feature as u32,
                        left: off + nd.left_child as u32,
                        right: off + nd.right_child as u32,
                        missing: off + nd.missing_node as u32,
                    }
                });
            }
        }
        Forest {
            base: b.base_score,
            missing: b.missing,
            nodes,
            roots,
        }
    }

    /// The child of split node `nd` that `row` goes to.
    fn child(&self, nd: &FlatNode, row: &[f64]) -> usize {
        let v = row[nd.feature as usize];
        let missing = if self.missing.is_nan() {
            v.is_nan()
        } else {
            v == self.missing
        };
        (if missing {
            nd.missing
        } else if v < nd.split {
            nd.left
        } else {
            nd.right
        }) as usize
    }

    /// The raw score (log-odds) of one row.
    pub fn score(&self, row: &[f64]) -> f64 {
        let mut acc = self.base;
        for &r in &self.roots {
            let mut i = r as usize;
            loop {
                let nd = &self.nodes[i];
                if nd.feature == u32::MAX {
                    acc += nd.value;
                    break;
                }
                i = self.child(nd, row);
            }
        }
        acc
    }

    /// Saabas contributions of one row (forust's `ContributionsMethod::Weight`, same sums in
    /// the same order): `row.len() + 1` values, the last the bias.
    pub fn contributions(&self, row: &[f64]) -> Vec<f64> {
        let mut c = vec![0.0; row.len() + 1];
        let bias = row.len();
        c[bias] += self.base;
        for &r in &self.roots {
            let mut i = r as usize;
            c[bias] += self.nodes[i].value;
            loop {
                let nd = &self.nodes[i];
                if nd.feature == u32::MAX {
                    break;
                }
                let k = self.child(nd, row);
                c[nd.feature as usize] += self.nodes[k].value - nd.value;
                i = k;
            }
        }
        c
    }

    /// Probabilities over row-major `rows` of `cols` features.
    pub fn predict(&self, rows: &[f64], cols: usize) -> Vec<f64> {
        rows.chunks_exact(cols.max(1))
            .map(|r| sigmoid(self.score(r)))
            .collect()
    }
}

/// Probabilities of a booster over row-major `rows` of `cols` features (single-threaded,
/// through forust's own predict; [`Forest::predict`] gives the same numbers faster).
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
            source: None,
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

    /// Pass 1 and pass 2 flattened for prediction.
    pub fn forests(&self) -> &(Forest, Forest) {
        self.forests
            .get_or_init(|| (Forest::of(&self.pass1), Forest::of(&self.pass2)))
    }

    /// The comment model flattened for prediction, if the model has one.
    pub fn comment_forest(&self) -> Option<&Forest> {
        self.comment_forest
            .get_or_init(|| self.comments.as_ref().map(Forest::of))
            .as_ref()
    }

    /// Read a model file written by `sightline train --model FILE`. A missing, unreadable or
    /// invalid file is an [`Error::Input`] naming the file and the fix.
    pub fn from_file(path: &std::path::Path) -> Result<Model, Error> {
        let source = path.display().to_string();
        let json = std::fs::read_to_string(path).map_err(|e| Error::Input {
            input: source.clone(),
            message: format!(
                "cannot read the model file ({e}); pass a file written by `sightline train --model FILE`"
            ),
            source: Some(Box::new(e)),
        })?;
        Model::from_json(&json, &source)
    }

    /// Serialize (deterministic: same model, same bytes).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a model always serializes") + "\n"
    }

    /// The model compiled into the binary, parsed once.
    pub fn shipped() -> Result<&'static Model, Error> {
        static SHIPPED: OnceLock<Result<Model, String>> = OnceLock::new();
        built_in(&SHIPPED, "models/learned.json", || {
            Model::from_json(SHIPPED_JSON, "models/learned.json (built in)")
        })
    }
}

/// A model compiled into the binary, parsed on first use into `cell`; a parse error (a
/// broken build) is an [`Error::Input`] naming the file, every time it is asked for.
pub(crate) fn built_in<T>(
    cell: &'static OnceLock<Result<T, String>>,
    file: &str,
    parse: impl FnOnce() -> Result<T, Error>,
) -> Result<&'static T, Error> {
    cell.get_or_init(|| parse().map_err(|e| e.to_string()))
        .as_ref()
        .map_err(|e| Error::Input {
            input: format!("{file} (built in)"),
            message: e.clone(),
            source: None,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flat_forest_predicts_exactly_as_forust() {
        let m = Model::shipped().expect("the shipped model loads");
        let nf = FEATURES.len();
        // Rows that reach many branches: a deterministic spread of values per feature.
        let rows: Vec<f64> = (0..40 * nf)
            .map(|k| ((k * 7919 % 997) as f64 / 997.0 - 0.2) * ((k % 5) as f64 + 0.5))
            .collect();
        let (f1, f2) = m.forests();
        assert_eq!(f1.predict(&rows, nf), predict(&m.pass1, &rows, nf));
        let flat: Vec<f64> = rows.chunks(nf).flat_map(|r| f1.contributions(r)).collect();
        assert_eq!(flat, contributions(&m.pass1, &rows, nf));
        let n2 = PASS2_FEATURES.len();
        let rows2: Vec<f64> = (0..40 * n2).map(|k| (k % 13) as f64 / 12.0).collect();
        assert_eq!(f2.predict(&rows2, n2), predict(&m.pass2, &rows2, n2));
    }

    #[test]
    fn model_files_load_or_fail_with_a_named_error() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("nope.json");
        let e = Model::from_file(&missing).unwrap_err().to_string();
        assert!(
            e.contains("nope.json") && e.contains("sightline train"),
            "{e}"
        );
        let bad = dir.path().join("bad.json");
        std::fs::write(&bad, "{\"format\": 1}").unwrap();
        let e = Model::from_file(&bad).unwrap_err().to_string();
        assert!(
            e.contains("bad.json") && e.contains("not a learned-model file"),
            "{e}"
        );
        let good = dir.path().join("good.json");
        std::fs::write(&good, SHIPPED_JSON).unwrap();
        let m = Model::from_file(&good).unwrap();
        assert_eq!(m.threshold, Model::shipped().unwrap().threshold);
    }
}
