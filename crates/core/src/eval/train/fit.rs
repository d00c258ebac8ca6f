//! Fitting: both passes of the `learned` model (forust-ml gradient boosting), the
//! out-of-fold pass-1 probabilities pass 2 is fit on, and the threshold choice.

use std::path::Path;

use forust_ml::objective::ObjectiveType;
use forust_ml::sampler::SampleMethod;
use forust_ml::{GradientBooster, Matrix};

use super::{Learner, Page};
use crate::extract::learned::model::{self, Model, MODEL_FORMAT};
use crate::extract::learned::pass2::pass2_features;
use crate::extract::learned::schema::{FEATURES, PASS2_FEATURES};
use crate::Error;

pub(super) fn booster(l: &Learner, trees: usize, seed_offset: u64) -> GradientBooster {
    GradientBooster::default()
        .set_objective_type(ObjectiveType::LogLoss)
        .set_iterations(trees)
        .set_learning_rate(l.learning_rate)
        .set_max_depth(l.max_depth)
        .set_max_leaves(usize::MAX)
        .set_l2(l.l2)
        .set_min_leaf_weight(l.min_leaf_weight)
        .set_subsample(l.subsample)
        // forust samples rows only when a sample method is set: without it `subsample` is
        // stored and ignored (as it was in the releases before this one).
        .set_sample_method(if l.subsample < 1.0 {
            SampleMethod::Random
        } else {
            SampleMethod::None
        })
        .set_nbins(l.nbins)
        .set_seed(l.seed + seed_offset)
        .set_parallel(true)
        .set_num_threads(Some(2))
}

/// The seed step between the members of a bag ([`Learner::bag`]): member `b` is fit with
/// seed `seed + BAG_SEED_STEP·b` (member 0 with the learner's own seed).
pub const BAG_SEED_STEP: u64 = 7919;

/// Fit [`Learner::bag`] boosters of `trees` trees (seed offset `seed_offset`) on row-major
/// `rows`, differing only in their seed, and [`average`] them. With a bag of 1 this is the
/// one booster.
fn fit_booster(
    l: &Learner,
    trees: usize,
    seed_offset: u64,
    rows: &[f64],
    cols: usize,
    y: &[f64],
    w: &[f64],
) -> Result<GradientBooster, Error> {
    let n = y.len();
    let data = model::column_major(rows, cols);
    let m = Matrix::new(&data, n, cols);
    let mut members = Vec::with_capacity(l.bag.max(1));
    for b in 0..l.bag.max(1) {
        let mut g = booster(l, trees, seed_offset + BAG_SEED_STEP * b as u64);
        g.fit(&m, y, w, None).map_err(|e| Error::Input {
            input: "training data".into(),
            message: format!("the learner failed: {e}"),
            source: Some(Box::new(e)),
        })?;
        members.push(g);
    }
    Ok(average(members))
}

/// One booster that scores every row at the mean of the members' log-odds: the members'
/// trees in turn, every node's weight divided by their number, and the mean base score.
/// Averaging boosters fit with different seeds (bagging) lowers the variance of each unit's
/// probability; held out by site it did not raise the mean (docs/training.md, Seeds).
pub fn average(mut members: Vec<GradientBooster>) -> GradientBooster {
    let k = members.len();
    if k <= 1 {
        return members.pop().expect("at least one member");
    }
    let base = members.iter().map(|b| b.base_score).sum::<f64>() / k as f64;
    let mut out = members.remove(0);
    let mut trees = std::mem::take(&mut out.trees);
    if let Some(n) = out.prediction_iteration.take() {
        trees.truncate(n);
    }
    for mut b in members {
        let n = b.prediction_iteration.unwrap_or(b.trees.len());
        trees.extend(b.trees.drain(..n));
    }
    for t in &mut trees {
        for nd in &mut t.nodes {
            nd.weight_value /= k as f32;
        }
    }
    out.base_score = base;
    out.iterations = trees.len();
    out.trees = trees;
    out
}

fn stack<'a>(pages: impl Iterator<Item = &'a Page>, l: &Learner) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let (mut rows, mut y, mut w) = (Vec::new(), Vec::new(), Vec::new());
    for p in pages {
        rows.extend_from_slice(&p.features.rows);
        y.extend_from_slice(&p.labels);
        w.extend(unit_weights(p, l));
    }
    (rows, y, w)
}

/// The loss weights of `p`'s units: their share of the page's tokens, times
/// [`Learner::typed_page_weight`] on a page of a type other than `article`.
pub(super) fn unit_weights<'a>(p: &'a Page, l: &Learner) -> impl Iterator<Item = f64> + 'a {
    let typed = p.page_type.as_deref().is_some_and(|t| t != "article");
    let k = if typed { l.typed_page_weight } else { 1.0 };
    p.weights.iter().map(move |w| w * k)
}

/// Train both passes on `pages`. Pass 2 reads out-of-fold pass-1 probabilities: two folds of
/// alternate pages, each scored by a pass-1 model fit on the other (or, with
/// [`Learner::folds_by_dataset`], one fold per training dataset). With
/// `Learner::threshold` None, the threshold is chosen on out-of-fold pass-2 probabilities of
/// the same folds. Both options are off by default and reachable from the library only: they
/// lowered held-out l3s-gn1 when tried (README).
pub fn fit(pages: &[&Page], l: &Learner, description: &str) -> Result<Model, Error> {
    let nf = FEATURES.len();
    let n2 = PASS2_FEATURES.len();
    // One fold per training dataset (or two folds of alternate pages), see `Learner`.
    let mut names: Vec<&str> = pages.iter().map(|p| p.dataset.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    let by_dataset = l.folds_by_dataset && names.len() >= 2;
    let fold_of = |k: usize, p: &Page| -> usize {
        if by_dataset {
            names.iter().position(|n| *n == p.dataset).unwrap_or(0)
        } else {
            k % 2
        }
    };
    let nfolds = if by_dataset { names.len() } else { 2 };
    let fold_of = &fold_of;
    let oof = out_of_fold(
        pages,
        Folds {
            n: nfolds,
            of: fold_of,
        },
        |k| &pages[k].features.rows,
        nf,
        l,
        l.trees,
        1,
    )?;
    let (rows, y, w) = stack(pages.iter().copied(), l);
    let pass1 = fit_booster(l, l.trees, 0, &rows, nf, &y, &w)?;
    let page_rows2: Vec<Vec<f64>> = pages
        .iter()
        .enumerate()
        .map(|(k, p)| pass2_features(&p.features, &oof[k]))
        .collect();
    let rows2: Vec<f64> = page_rows2.concat();
    let pass2 = fit_booster(l, l.trees2, 100, &rows2, n2, &y, &w)?;
    let (threshold, description) = match l.threshold {
        Some(t) => (t, description.to_string()),
        None => {
            // Out-of-fold pass-2 probabilities (the same folds), then the threshold that
            // maximises the training pages' mean F1.
            let oof2 = out_of_fold(
                pages,
                Folds {
                    n: nfolds,
                    of: fold_of,
                },
                |k| &page_rows2[k],
                n2,
                l,
                l.trees2,
                200,
            )?;
            let t = choose_threshold(pages, &oof2);
            (
                t,
                format!("{description}; threshold {t} chosen on the training pages (out-of-fold)"),
            )
        }
    };
    let comments = fit_comments(pages, l)?;
    Ok(Model {
        format: MODEL_FORMAT,
        description,
        features: FEATURES.iter().map(|s| s.to_string()).collect(),
        pass2_features: PASS2_FEATURES.iter().map(|s| s.to_string()).collect(),
        threshold,
        pass1,
        pass2,
        comments,
        forests: Default::default(),
        comment_forest: Default::default(),
    })
}

/// Fewest comment-region units the comment model is fit on; with fewer (no training dataset
/// keeps comments) the model has none and `--comments` keeps nothing.
pub const MIN_COMMENT_ROWS: usize = 50;

/// The comment model ([`Model::comments`]): pass-1 features of the comment-region units of
/// the pages whose gold keeps reader comments, labelled by the gold (a unit is comment text
/// when at least half of its tokens align with it), weighted as the article passes are.
fn fit_comments(pages: &[&Page], l: &Learner) -> Result<Option<GradientBooster>, Error> {
    let nf = FEATURES.len();
    let (mut rows, mut y, mut w) = (Vec::new(), Vec::new(), Vec::new());
    for p in pages.iter().filter(|p| p.keeps_comments) {
        for u in 0..p.candidate.len() {
            if p.candidate[u] {
                rows.extend_from_slice(p.features.row(u));
                y.push(f64::from(u8::from(p.share[u] >= 0.5)));
                w.push(p.weights[u]);
            }
        }
    }
    let positives = y.iter().filter(|&&v| v > 0.0).count();
    if y.len() < MIN_COMMENT_ROWS || positives == 0 || positives == y.len() {
        return Ok(None);
    }
    fit_booster(l, l.trees2, 300, &rows, nf, &y, &w).map(Some)
}

/// How pages are split into folds: `n` folds, page `k` in fold `of(k, page)`.
#[derive(Clone, Copy)]
struct Folds<'a> {
    n: usize,
    of: &'a dyn Fn(usize, &Page) -> usize,
}

/// Probabilities of each page's units from a model that never saw the page: for each fold,
/// a booster of `trees` trees (seed offset `seed + fold`) fit on the pages of the other folds.
/// `rows_of(k)`: page `k`'s feature rows, `n` values each.
fn out_of_fold<'r>(
    pages: &[&Page],
    Folds {
        n: nfolds,
        of: fold_of,
    }: Folds<'_>,
    rows_of: impl Fn(usize) -> &'r [f64],
    n: usize,
    l: &Learner,
    trees: usize,
    seed: u64,
) -> Result<Vec<Vec<f64>>, Error> {
    let mut oof: Vec<Vec<f64>> = pages.iter().map(|_| Vec::new()).collect();
    for f in 0..nfolds {
        let (mut rows, mut y, mut w) = (Vec::new(), Vec::new(), Vec::new());
        for (k, p) in pages.iter().enumerate() {
            if fold_of(k, p) != f {
                rows.extend_from_slice(rows_of(k));
                y.extend_from_slice(&p.labels);
                w.extend(unit_weights(p, l));
            }
        }
        let b = fit_booster(l, trees, seed + f as u64, &rows, n, &y, &w)?;
        let forest = model::Forest::of(&b);
        for (k, p) in pages.iter().enumerate() {
            if fold_of(k, p) == f {
                oof[k] = forest.predict(rows_of(k), n);
            }
        }
    }
    Ok(oof)
}

/// The decision threshold (0.2 to 0.8 by 0.025) that maximises the mean over `pages` of an
/// estimate of each page's LCS F1 from probabilities `probs`: kept tokens are the tokens of
/// the units at or above it, true positives their tokens aligned with the gold. Ties go to
/// the lowest threshold.
pub fn choose_threshold(pages: &[&Page], probs: &[Vec<f64>]) -> f64 {
    let mut best = (f64::NEG_INFINITY, 0.5);
    for step in 0..=24 {
        let t = (8 + step) as f64 / 40.0;
        let mut sum = 0.0;
        for (p, pr) in pages.iter().zip(probs) {
            let (mut kept, mut tp) = (0.0, 0.0);
            for ((&q, &n), &s) in pr.iter().zip(&p.lens).zip(&p.share) {
                if q >= t {
                    kept += n as f64;
                    tp += s * n as f64;
                }
            }
            if tp > 0.0 {
                let (pr_, rc) = (tp / kept, tp / p.gold_tokens.max(1) as f64);
                sum += 2.0 * pr_ * rc / (pr_ + rc);
            }
        }
        let mean = sum / pages.len().max(1) as f64;
        if mean > best.0 + 1e-12 {
            best = (mean, t);
        }
    }
    (best.1 * 1000.0).round() / 1000.0
}

/// Write a model file; returns its size in bytes.
pub(super) fn write_model(m: &Model, path: &Path) -> Result<usize, Error> {
    write_json(&m.to_json(), path)
}

/// Write a model's JSON (or an export's JSON lines) to `path`: its length, or an
/// [`Error::Output`] naming the file.
pub(super) fn write_json(json: &str, path: &Path) -> Result<usize, Error> {
    std::fs::write(path, json).map_err(|e| Error::Output {
        path: path.display().to_string(),
        message: e.to_string(),
        source: Some(Box::new(e)),
    })?;
    Ok(json.len())
}
