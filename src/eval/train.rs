//! `sightline train`: make the `learned` model from the benchmark's gold text and saved
//! snapshots, and measure it honestly (leave-one-dataset-out).
//!
//! Inputs are only `<bench>/<dataset>/{manifest.jsonl, gold/<id>.txt}` and
//! `<snapshots>/<dataset>/<id>.json` (from `sightline eval --save-snapshots`); nothing is
//! rendered and nothing else is read.
//!
//! Phases: [`load_pages`] (snapshot → units and pass-1 features; gold → labels by
//! [`align_labels`]) → [`fit`] (pass 1 on every training page; pass 2 on out-of-fold pass-1
//! probabilities, two folds of alternate pages, so the smoothing pass never sees a
//! probability of a page the first pass was fit on; the model's threshold 0.5 is used only by
//! the `threshold` decision, the default keeps the units of highest expected F1) → [`lodo`] (for each
//! dataset: fit on the others, score the
//! held-out pages exactly as `sightline eval` does: the text writer's output against the gold
//! with [`metrics::score`]).
//!
//! Everything is seeded and single-order: the same inputs give a byte-identical model file.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use forust_ml::objective::ObjectiveType;
use forust_ml::sampler::SampleMethod;
use forust_ml::{GradientBooster, Matrix};
use serde::Serialize;

use super::bench::{Dataset, DATASETS};
use super::lcs::lcs_alignment;
use super::metrics::{self, MacroScores, PageScore};
use crate::extract::learned::features::{self, PageFeatures, FEATURES, PASS2_FEATURES};
use crate::extract::learned::model::{self, Model, MODEL_FORMAT};
use crate::extract::learned::{self};
use crate::extract::text::eval_tokens;
use crate::extract::Params;
use crate::output::text;
use crate::{Error, Snapshot, Tree};

/// Learner settings (forust-ml `GradientBooster`, logistic loss). Small, regularised trees:
/// the model must generalise to pages outside the benchmark.
#[derive(Debug, Clone, Serialize)]
pub struct Learner {
    /// Boosting rounds of pass 1.
    pub trees: usize,
    /// Boosting rounds of pass 2.
    pub trees2: usize,
    pub learning_rate: f32,
    pub max_depth: usize,
    /// L2 penalty on leaf weights.
    pub l2: f32,
    /// Minimum hessian (weighted) in a leaf.
    pub min_leaf_weight: f32,
    /// Share of the rows each tree is fit on, drawn at random (seeded) per tree; 1 fits every
    /// tree on every row. Until the release of 2026-11-24 this was stored in the model's
    /// description but not applied (forust samples only with a sample method set): the models
    /// before it were fit on every row.
    pub subsample: f32,
    /// Histogram bins per feature.
    pub nbins: u16,
    /// Folds of the out-of-fold predictions (pass 2's inputs and the threshold choice):
    /// one per training dataset (each dataset's probabilities come from a model that never
    /// saw that dataset, as on an unseen site), or, when false or with one dataset, two
    /// folds of alternate pages.
    pub folds_by_dataset: bool,
    pub seed: u64,
    /// Decision threshold on the pass-2 probability; `None`: chosen on the training pages
    /// only, by [`choose_threshold`] over out-of-fold pass-2 probabilities.
    pub threshold: Option<f64>,
}

impl Default for Learner {
    fn default() -> Self {
        Learner {
            trees: 150,
            trees2: 60,
            learning_rate: 0.12,
            max_depth: 5,
            l2: 1.0,
            min_leaf_weight: 5.0,
            subsample: 0.8,
            nbins: 128,
            folds_by_dataset: false,
            seed: 20_241_123,
            threshold: Some(0.5),
        }
    }
}

/// What to train on.
#[derive(Debug, Clone)]
pub struct TrainConfig {
    /// Benchmark root (`../shared/bench`).
    pub bench: PathBuf,
    /// Saved snapshots, `<dir>/<dataset>/<id>.json`.
    pub snapshots: PathBuf,
    /// Datasets (default: the four of [`DATASETS`]).
    pub datasets: Vec<String>,
    pub learner: Learner,
    pub params: Params,
    /// Worker threads for loading pages and scoring.
    pub threads: usize,
    /// Extra decision thresholds to score the held-out sets with (LODO only; rows labelled).
    pub sweep: Vec<f64>,
    /// LODO only: hold out just these datasets (empty: each in turn). For quick experiments;
    /// the published held-out table is the full run.
    pub held_out: Vec<String>,
    /// Datasets whose reader comments are labelled boilerplate for training
    /// ([`comment_outside_article`]) whatever their gold says (none by default). Scores are
    /// always against the gold as it is.
    pub relabel_comments: Vec<String>,
}

/// Reader comments, measured on the bench (token-weighted share of the units inside a comment
/// container and outside the Readability port's article that align with the gold): CleanEval
/// 0.94; Readability 0.02, L3S-GN1 0.003, WCXB 0.17 (0.003 on its article pages, 0.32 on forum
/// pages). CleanEval's gold keeps them and the others' does not; the survey of pages
/// outside the bench counts them among the wrongly kept text. [`TrainConfig::relabel_comments`]
/// lets `train` learn one convention (`--relabel-comments cleaneval`); it is off by default
/// because it did not raise the held-out mean (README, Quality).
///
/// Whether unit `u` is such a reader comment: inside (or itself) an element whose class, id or
/// role names a comment (`anc_comment`, `own_comment`), and outside the article chosen by the
/// Readability port (`rd_in_article`).
pub fn comment_outside_article(pf: &PageFeatures, u: usize) -> bool {
    let f = |name: &str| pf.row(u)[features::feature_index(name)];
    (f("anc_comment") > 0.0 || f("own_comment") > 0.0) && f("rd_in_article") <= 0.0
}

impl TrainConfig {
    /// Training on the bench at `bench` with the snapshots in `snapshots`: every dataset, the
    /// default learner and parameters, 2 threads, no sweep, every fold, no relabelling.
    pub fn new(bench: PathBuf, snapshots: PathBuf) -> TrainConfig {
        TrainConfig {
            bench,
            snapshots,
            datasets: Vec::new(),
            learner: Learner::default(),
            params: Params::default(),
            threads: 2,
            sweep: Vec::new(),
            held_out: Vec::new(),
            relabel_comments: Vec::new(),
        }
    }

    /// The datasets to read: `datasets`, or the four of [`DATASETS`] when none is given.
    pub fn dataset_names(&self) -> Vec<String> {
        if self.datasets.is_empty() {
            DATASETS.iter().map(|s| s.to_string()).collect()
        } else {
            self.datasets.clone()
        }
    }
}

/// One training page: its units' features and labels.
#[derive(Debug, Clone)]
pub struct Page {
    pub dataset: String,
    pub id: String,
    pub page_type: Option<String>,
    pub features: PageFeatures,
    /// 1 when at least half of the unit's tokens align with the gold.
    pub labels: Vec<f64>,
    /// Loss weight of each unit: its share of the page's tokens (every page weighs the same,
    /// as in the macro-averaged metric).
    pub weights: Vec<f64>,
    /// Share of each unit's tokens aligned with the gold ([`align_labels`]).
    pub share: Vec<f64>,
    /// Tokens of each unit.
    pub lens: Vec<usize>,
    /// Tokens of the gold text.
    pub gold_tokens: usize,
}

/// Align the gold text with the units of a page: each unit's share of tokens that lie on a
/// longest common subsequence of the page's tokens (units in document order, eval
/// tokenisation) and the gold's tokens. Also returns the token count of each unit.
pub fn align_labels(units: &[features::Unit], gold: &str) -> (Vec<f64>, Vec<usize>) {
    let mut ids: HashMap<String, u32> = HashMap::new();
    let mut intern = |t: String| {
        let next = ids.len() as u32;
        *ids.entry(t).or_insert(next)
    };
    let mut seq = Vec::new();
    let mut lens = Vec::with_capacity(units.len());
    for u in units {
        let toks = eval_tokens(&u.text);
        lens.push(toks.len());
        seq.extend(toks.into_iter().map(&mut intern));
    }
    let gold_ids: Vec<u32> = eval_tokens(gold).into_iter().map(&mut intern).collect();
    let matched = lcs_alignment(&seq, &gold_ids);
    let mut out = Vec::with_capacity(units.len());
    let mut at = 0;
    for &n in &lens {
        let m = matched[at..at + n].iter().filter(|&&x| x).count();
        out.push(if n == 0 { 0.0 } else { m as f64 / n as f64 });
        at += n;
    }
    (out, lens)
}

/// Read one snapshot file.
fn read_snapshot(path: &Path) -> Result<Snapshot, Error> {
    let json = std::fs::read_to_string(path).map_err(|e| Error::Input {
        input: path.display().to_string(),
        message: format!("{e} (make snapshots with `sightline eval --save-snapshots DIR`)"),
        source: Some(Box::new(e)),
    })?;
    Snapshot::from_json(&json, &path.display().to_string())
}

/// The pages of the selected datasets that have a snapshot and a non-empty gold, in dataset
/// then sorted-id order. Missing snapshots are counted, not fatal.
pub fn load_pages(
    cfg: &TrainConfig,
    mut progress: impl FnMut(&str, usize, usize),
) -> Result<(Vec<Page>, usize), Error> {
    let names = cfg.dataset_names();
    let mut pages = Vec::new();
    let mut missing = 0;
    for name in &names {
        let ds = Dataset::open(&cfg.bench, name)?;
        let mut ids: Vec<String> = ds.ids().map(str::to_string).collect();
        ids.sort();
        let threads = cfg.threads.max(1);
        let chunk = ids.len().div_ceil(threads).max(1);
        let ds_ref = &ds;
        let loaded: Vec<Result<Vec<Option<Page>>, Error>> = std::thread::scope(|scope| {
            let handles: Vec<_> = ids
                .chunks(chunk)
                .map(|part| {
                    scope.spawn(move || {
                        part.iter()
                            .map(|id| load_page(cfg, ds_ref, id))
                            .collect::<Result<Vec<_>, Error>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("loading thread panicked"))
                .collect()
        });
        let before = pages.len();
        for part in loaded {
            for p in part? {
                match p {
                    Some(p) => pages.push(p),
                    None => missing += 1,
                }
            }
        }
        progress(name, pages.len() - before, ids.len());
    }
    Ok((pages, missing))
}

/// One page, or None when its snapshot is missing or its gold has no token.
fn load_page(cfg: &TrainConfig, ds: &Dataset, id: &str) -> Result<Option<Page>, Error> {
    let path = cfg.snapshots.join(&ds.name).join(format!("{id}.json"));
    if !path.is_file() {
        return Ok(None);
    }
    let gold = ds.gold(id)?;
    let gold_tokens = eval_tokens(&gold).len();
    if gold_tokens == 0 {
        return Ok(None);
    }
    let snap = read_snapshot(&path)?;
    let tree = Tree::new(&snap);
    let pf = features::page_features(&tree, &cfg.params);
    let (share, lens) = align_labels(&pf.units, &gold);
    let total: f64 = lens.iter().map(|&n| (n + 1) as f64).sum::<f64>().max(1.0);
    let relabel = cfg.relabel_comments.contains(&ds.name);
    let labels = share
        .iter()
        .enumerate()
        .map(|(u, &s)| {
            let content = s >= 0.5 && !(relabel && comment_outside_article(&pf, u));
            f64::from(u8::from(content))
        })
        .collect();
    let weights = lens
        .iter()
        .map(|&n| 100.0 * (n + 1) as f64 / total)
        .collect();
    Ok(Some(Page {
        dataset: ds.name.clone(),
        id: id.to_string(),
        page_type: ds.entry(id).and_then(|e| e.page_type.clone()),
        features: pf,
        labels,
        weights,
        share,
        lens,
        gold_tokens,
    }))
}

fn booster(l: &Learner, trees: usize, seed_offset: u64) -> GradientBooster {
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

/// Fit one booster on row-major `rows`.
fn fit_booster(
    mut b: GradientBooster,
    rows: &[f64],
    cols: usize,
    y: &[f64],
    w: &[f64],
) -> Result<GradientBooster, Error> {
    let n = y.len();
    let data = model::column_major(rows, cols);
    let m = Matrix::new(&data, n, cols);
    b.fit(&m, y, w, None).map_err(|e| Error::Input {
        input: "training data".into(),
        message: format!("the learner failed: {e}"),
        source: Some(Box::new(e)),
    })?;
    Ok(b)
}

fn stack<'a>(pages: impl Iterator<Item = &'a Page>) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let (mut rows, mut y, mut w) = (Vec::new(), Vec::new(), Vec::new());
    for p in pages {
        rows.extend_from_slice(&p.features.rows);
        y.extend_from_slice(&p.labels);
        w.extend_from_slice(&p.weights);
    }
    (rows, y, w)
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
        nfolds,
        fold_of,
        |k| &pages[k].features.rows,
        nf,
        l,
        l.trees,
        1,
    )?;
    let (rows, y, w) = stack(pages.iter().copied());
    let pass1 = fit_booster(booster(l, l.trees, 0), &rows, nf, &y, &w)?;
    let page_rows2: Vec<Vec<f64>> = pages
        .iter()
        .enumerate()
        .map(|(k, p)| features::pass2_features(&p.features, &oof[k]))
        .collect();
    let rows2: Vec<f64> = page_rows2.concat();
    let pass2 = fit_booster(booster(l, l.trees2, 100), &rows2, n2, &y, &w)?;
    let (threshold, description) = match l.threshold {
        Some(t) => (t, description.to_string()),
        None => {
            // Out-of-fold pass-2 probabilities (the same folds), then the threshold that
            // maximises the training pages' mean F1.
            let oof2 = out_of_fold(
                pages,
                nfolds,
                fold_of,
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
    Ok(Model {
        format: MODEL_FORMAT,
        description,
        features: FEATURES.iter().map(|s| s.to_string()).collect(),
        pass2_features: PASS2_FEATURES.iter().map(|s| s.to_string()).collect(),
        threshold,
        pass1,
        pass2,
        forests: Default::default(),
    })
}

/// Probabilities of each page's units from a model that never saw the page: for each fold,
/// a booster of `trees` trees (seed offset `seed + fold`) fit on the pages of the other folds.
/// `rows_of(k)`: page `k`'s feature rows, `n` values each.
#[allow(clippy::too_many_arguments)]
fn out_of_fold<'r>(
    pages: &[&Page],
    nfolds: usize,
    fold_of: &dyn Fn(usize, &Page) -> usize,
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
                w.extend_from_slice(&p.weights);
            }
        }
        let b = fit_booster(booster(l, trees, seed + f as u64), &rows, n, &y, &w)?;
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

/// Scores of one evaluated page.
#[derive(Debug, Clone)]
pub struct Scored {
    pub dataset: String,
    pub id: String,
    pub page_type: Option<String>,
    pub score: PageScore,
}

/// Score `model` on every page of `dataset` exactly as `sightline eval --from-snapshots`
/// does: the `learned` extraction rendered by the text writer, against the gold. A page
/// without a snapshot scores as an empty output; pages with an empty gold are skipped.
pub fn score_dataset(
    cfg: &TrainConfig,
    model: &Model,
    dataset: &str,
) -> Result<Vec<Scored>, Error> {
    score_pages(cfg, model, dataset, |_| true)
}

/// [`score_dataset`] restricted to the pages whose id passes `keep`.
pub fn score_pages(
    cfg: &TrainConfig,
    model: &Model,
    dataset: &str,
    keep: impl Fn(&str) -> bool,
) -> Result<Vec<Scored>, Error> {
    let ds = Dataset::open(&cfg.bench, dataset)?;
    let params = &cfg.params.text_only();
    let mut ids: Vec<String> = ds.ids().filter(|id| keep(id)).map(str::to_string).collect();
    ids.sort();
    let threads = cfg.threads.max(1);
    let chunk = ids.len().div_ceil(threads).max(1);
    let ds_ref = &ds;
    let parts: Vec<Result<Vec<Option<Scored>>, Error>> = std::thread::scope(|scope| {
        let handles: Vec<_> = ids
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|id| {
                            let gold = ds_ref.gold(id)?;
                            let path = cfg.snapshots.join(dataset).join(format!("{id}.json"));
                            let out = if path.is_file() {
                                let snap = read_snapshot(&path)?;
                                let tree = Tree::new(&snap);
                                let ex = learned::extract_with(&tree, model, params);
                                text::render(&tree, &ex)
                            } else {
                                String::new()
                            };
                            let score = metrics::score(&out, &gold);
                            Ok(score.is_scored().then(|| Scored {
                                dataset: dataset.to_string(),
                                id: id.clone(),
                                page_type: ds_ref.entry(id).and_then(|e| e.page_type.clone()),
                                score,
                            }))
                        })
                        .collect::<Result<Vec<_>, Error>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("scoring thread panicked"))
            .collect()
    });
    let mut out = Vec::new();
    for p in parts {
        out.extend(p?.into_iter().flatten());
    }
    Ok(out)
}

/// The cross-validation fold of every page of each dataset: the page's position among the
/// dataset's manifest ids in sorted order, modulo `k` (deterministic, and stratified: each
/// fold holds about 1/k of every dataset). Keys are `(dataset, id)`.
pub fn cv_folds(cfg: &TrainConfig, k: usize) -> Result<HashMap<(String, String), usize>, Error> {
    let mut folds = HashMap::new();
    for name in cfg.dataset_names() {
        let ds = Dataset::open(&cfg.bench, &name)?;
        let mut ids: Vec<&str> = ds.ids().collect();
        ids.sort_unstable();
        for (i, id) in ids.into_iter().enumerate() {
            folds.insert((name.clone(), id.to_string()), i % k.max(1));
        }
    }
    Ok(folds)
}

/// K-fold cross-validation by page: the pages of every dataset are dealt into `k` folds
/// ([`cv_folds`]); for each fold a model is fit on the pages of the other folds (all
/// datasets) and scores the fold's pages. Every page is scored by a model that never saw it,
/// but that saw other pages of its dataset (unlike [`lodo`]): the estimate for new pages like
/// the benchmark's, such as the shipped model meets. Returns one row per dataset and the page
/// scores.
pub fn cross_validate(
    cfg: &TrainConfig,
    pages: &[Page],
    k: usize,
    mut log: impl FnMut(&str),
) -> Result<(Vec<Row>, Vec<Scored>), Error> {
    let folds = cv_folds(cfg, k)?;
    let fold_of = |ds: &str, id: &str| folds.get(&(ds.to_string(), id.to_string())).copied();
    let mut names: Vec<String> = pages.iter().map(|p| p.dataset.clone()).collect();
    names.dedup();
    let mut all: Vec<Scored> = Vec::new();
    for f in 0..k {
        let train: Vec<&Page> = pages
            .iter()
            .filter(|p| fold_of(&p.dataset, &p.id) != Some(f))
            .collect();
        log(&format!(
            "cross-validation fold {} of {k}: fitting on {} pages",
            f + 1,
            train.len()
        ));
        let m = fit(&train, &cfg.learner, &format!("cv fold {f} of {k}"))?;
        for name in &names {
            all.extend(score_pages(cfg, &m, name, |id| {
                fold_of(name, id) == Some(f)
            })?);
        }
    }
    let mut rows = Vec::new();
    for name in &names {
        let mut scored: Vec<&Scored> = all.iter().filter(|s| s.dataset == *name).collect();
        scored.sort_by(|a, b| a.id.cmp(&b.id));
        let ms = MacroScores::from_pages(scored.iter().map(|s| &s.score));
        log(&format!(
            "cross-validated {name}: F1 {:.3} P {:.3} R {:.3}",
            ms.lcs_f1, ms.lcs_p, ms.lcs_r
        ));
        rows.push(Row {
            kind: format!("{CV_KIND} ({k} folds, all datasets)"),
            dataset: name.clone(),
            pages: scored.len(),
            scores: ms,
        });
    }
    all.sort_by(|a, b| (&a.dataset, &a.id).cmp(&(&b.dataset, &b.id)));
    Ok((rows, all))
}

/// How cross-validated rows are labelled in the report.
pub const CV_KIND: &str = "cross-validated by page";

/// One row of the report.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    /// What the number is: "held out (trained on ...)" or "in-sample (shipped model)".
    pub kind: String,
    pub dataset: String,
    pub pages: usize,
    pub scores: MacroScores,
}

/// Leave-one-dataset-out: for each dataset, fit on the others and score it. Returns the rows
/// and the held-out page scores (for breakdowns such as wcxb-dev's page types).
///
/// With `models_dir`, each fold's model is also written there as `without-<dataset>.json`:
/// byte for byte what `sightline train --dataset <the others> --model FILE` writes, so a held-out
/// set can be scored again with other parameters (`sightline eval --model ... --params ...`).
pub fn lodo(
    cfg: &TrainConfig,
    pages: &[Page],
    models_dir: Option<&Path>,
    mut log: impl FnMut(&str),
) -> Result<(Vec<Row>, Vec<Scored>), Error> {
    let mut names: Vec<String> = pages.iter().map(|p| p.dataset.clone()).collect();
    names.dedup();
    let mut rows = Vec::new();
    let mut all = Vec::new();
    for held in &names {
        if !cfg.held_out.is_empty() && !cfg.held_out.contains(held) {
            continue;
        }
        let train: Vec<&Page> = pages.iter().filter(|p| p.dataset != *held).collect();
        let others: Vec<String> = names.iter().filter(|d| *d != held).cloned().collect();
        log(&format!(
            "held out {held}: fitting on {} pages of {}",
            train.len(),
            others.join(", ")
        ));
        let m = fit(&train, &cfg.learner, &describe(&others, cfg))?;
        if let Some(dir) = models_dir {
            std::fs::create_dir_all(dir).map_err(|e| Error::Output {
                path: dir.display().to_string(),
                message: format!("cannot create the directory for the fold models: {e}"),
                source: Some(Box::new(e)),
            })?;
            let path = dir.join(format!("without-{held}.json"));
            write_model(&m, &path)?;
            log(&format!(
                "wrote the model without {held} to {}",
                path.display()
            ));
        }
        for &t in &cfg.sweep {
            let mut c = cfg.clone();
            c.params.learned.threshold = Some(t);
            let sc = score_dataset(&c, &m, held)?;
            rows.push(Row {
                kind: format!("held out, threshold {t} (sweep)"),
                dataset: held.clone(),
                pages: sc.len(),
                scores: MacroScores::from_pages(sc.iter().map(|s| &s.score)),
            });
        }
        let scored = score_dataset(cfg, &m, held)?;
        let ms = MacroScores::from_pages(scored.iter().map(|s| &s.score));
        let decision = match cfg.params.learned.cut(m.threshold) {
            Some(t) => format!("decision: threshold {t}"),
            None => "decision: expected F1".to_string(),
        };
        log(&format!(
            "held out {held}: F1 {:.3} P {:.3} R {:.3} ({decision})",
            ms.lcs_f1, ms.lcs_p, ms.lcs_r
        ));
        rows.push(Row {
            kind: format!("held out (trained on {})", others.join(", ")),
            dataset: held.clone(),
            pages: scored.len(),
            scores: ms,
        });
        all.extend(scored);
    }
    Ok((rows, all))
}

/// Macro scores by page type: pages and scores of each type.
pub type TypeScores = BTreeMap<String, (usize, MacroScores)>;

/// Macro scores per `page_type` of the scored pages of one dataset.
pub fn by_page_type(scored: &[Scored], dataset: &str) -> TypeScores {
    let mut groups: BTreeMap<String, Vec<&PageScore>> = BTreeMap::new();
    for s in scored.iter().filter(|s| s.dataset == dataset) {
        groups
            .entry(s.page_type.clone().unwrap_or_else(|| "unknown".into()))
            .or_default()
            .push(&s.score);
    }
    groups
        .into_iter()
        .map(|(k, v)| (k, (v.len(), MacroScores::from_pages(v))))
        .collect()
}

/// The markdown report: one row per (kind, dataset), the mean of the held-out rows and of
/// the cross-validated rows, and wcxb-dev by page type for each of those (labelled).
pub fn markdown(rows: &[Row], types: &[(String, TypeScores)]) -> String {
    let mut s = String::from(
        "| model | dataset | pages | LCS F1 | LCS P | LCS R |\n|---|---|---:|---:|---:|---:|\n",
    );
    for r in rows {
        s += &format!(
            "| {} | {} | {} | {:.3} | {:.3} | {:.3} |\n",
            r.kind, r.dataset, r.pages, r.scores.lcs_f1, r.scores.lcs_p, r.scores.lcs_r
        );
    }
    for (prefix, label) in [
        ("held out (trained", "held out"),
        (CV_KIND, "cross-validated by page"),
    ] {
        let sel: Vec<&Row> = rows.iter().filter(|r| r.kind.starts_with(prefix)).collect();
        if sel.is_empty() {
            continue;
        }
        let n = sel.len() as f64;
        let mean = |f: fn(&MacroScores) -> f64| sel.iter().map(|r| f(&r.scores)).sum::<f64>() / n;
        s += &format!(
            "| {label}, mean of {} datasets | | | {:.3} | {:.3} | {:.3} |\n",
            sel.len(),
            mean(|m| m.lcs_f1),
            mean(|m| m.lcs_p),
            mean(|m| m.lcs_r)
        );
    }
    for (label, types) in types {
        if types.is_empty() {
            continue;
        }
        s += &format!(
            "\nwcxb-dev by page type ({label}):\n\n| page type | pages | LCS F1 | LCS P | LCS R |\n|---|---:|---:|---:|---:|\n"
        );
        for (t, (n, m)) in types {
            s += &format!(
                "| {t} | {n} | {:.3} | {:.3} | {:.3} |\n",
                m.lcs_f1, m.lcs_p, m.lcs_r
            );
        }
    }
    s
}

/// The description stored in a model trained on `datasets`.
pub fn describe(datasets: &[String], cfg: &TrainConfig) -> String {
    let l = &cfg.learner;
    let relabelled: Vec<&str> = datasets
        .iter()
        .filter(|d| cfg.relabel_comments.contains(d))
        .map(String::as_str)
        .collect();
    let comments = if relabelled.is_empty() {
        String::new()
    } else {
        format!(
            "; comments outside the article labelled boilerplate in {}",
            relabelled.join(", ")
        )
    };
    format!(
        "sightline train: forust-ml GradientBooster (logloss), pass 1 {} trees, pass 2 {} trees, depth {}, learning rate {}, l2 {}, subsample {}, seed {}, out-of-fold {}; trained on {}",
        l.trees,
        l.trees2,
        l.max_depth,
        l.learning_rate,
        l.l2,
        l.subsample,
        l.seed,
        if l.folds_by_dataset {
            "by dataset"
        } else {
            "by alternate pages"
        },
        datasets.join(", ")
    ) + &comments
}

/// What `sightline train` does.
#[derive(Debug, Clone)]
pub struct TrainRun {
    pub cfg: TrainConfig,
    /// Write the model trained on every dataset here (None: do not train it).
    pub model_out: Option<PathBuf>,
    /// Also run leave-one-dataset-out and report it.
    pub lodo: bool,
    /// Write the training matrix here (see [`export`]).
    pub export: Option<PathBuf>,
    /// With `lodo`: write every held-out page's scores here (JSON lines, see
    /// [`write_page_scores`]).
    pub lodo_pages: Option<PathBuf>,
    /// Also run k-fold cross-validation by page ([`cross_validate`]) with this many folds.
    pub cv: Option<usize>,
    /// With `cv`: write every cross-validated page's scores here (as `lodo_pages`).
    pub cv_pages: Option<PathBuf>,
    /// With `lodo`: write each fold's model here as `without-<dataset>.json`.
    pub lodo_models: Option<PathBuf>,
}

/// Write a model file; returns its size in bytes.
fn write_model(m: &Model, path: &Path) -> Result<usize, Error> {
    let json = m.to_json();
    std::fs::write(path, &json).map_err(|e| Error::Output {
        path: path.display().to_string(),
        message: e.to_string(),
        source: Some(Box::new(e)),
    })?;
    Ok(json.len())
}

/// One JSON line per held-out page: `{"dataset", "id", "page_type", "lcs_f1", "lcs_p",
/// "lcs_r", "out_tokens", "gold_tokens"}` (no page text), in dataset and page order: where
/// the held-out mean is lost, page by page.
pub fn write_page_scores(scored: &[Scored], path: &Path) -> Result<(), Error> {
    let mut out = String::new();
    for s in scored {
        let line = serde_json::json!({
            "dataset": s.dataset,
            "id": s.id,
            "page_type": s.page_type,
            "lcs_f1": s.score.lcs_f1,
            "lcs_p": s.score.lcs_p,
            "lcs_r": s.score.lcs_r,
            "out_tokens": s.score.out_tokens,
            "gold_tokens": s.score.gold_tokens,
        });
        out += &line.to_string();
        out.push('\n');
    }
    std::fs::write(path, out).map_err(|e| Error::Output {
        path: path.display().to_string(),
        message: e.to_string(),
        source: Some(Box::new(e)),
    })
}

/// The progress line after [`write_page_scores`].
fn wrote_scores(scored: &[Scored], what: &str, path: &Path) -> String {
    format!(
        "wrote {} {what} page scores to {}",
        scored.len(),
        path.display()
    )
}

/// Write the training matrix of `pages` to `dir` for experiments outside sightline:
/// `features.txt` (one pass-1 feature name per line), `rows.f32` (every unit's feature row,
/// little-endian f32, row-major, pages in order; numpy:
/// `np.fromfile(p, '<f4').reshape(-1, len(names))`) and `pages.jsonl` (per page, in the same
/// order: dataset, id, page type, unit count, gold tokens, and per unit its label, aligned
/// share, token count and loss weight). No page text is written.
pub fn export(pages: &[Page], dir: &Path) -> Result<(), Error> {
    let fail = |path: &Path, e: std::io::Error| Error::Output {
        path: path.display().to_string(),
        message: e.to_string(),
        source: Some(Box::new(e)),
    };
    std::fs::create_dir_all(dir).map_err(|e| fail(dir, e))?;
    let names = dir.join("features.txt");
    std::fs::write(&names, FEATURES.join("\n") + "\n").map_err(|e| fail(&names, e))?;
    let rows_path = dir.join("rows.f32");
    let mut rows = Vec::new();
    let mut meta = String::new();
    for p in pages {
        for &v in &p.features.rows {
            rows.extend_from_slice(&(v as f32).to_le_bytes());
        }
        let line = serde_json::json!({
            "dataset": p.dataset,
            "id": p.id,
            "page_type": p.page_type,
            "units": p.labels.len(),
            "gold_tokens": p.gold_tokens,
            "labels": p.labels,
            "share": p.share,
            "lens": p.lens,
            "weights": p.weights,
        });
        meta.push_str(&line.to_string());
        meta.push('\n');
    }
    std::fs::write(&rows_path, rows).map_err(|e| fail(&rows_path, e))?;
    let meta_path = dir.join("pages.jsonl");
    std::fs::write(&meta_path, meta).map_err(|e| fail(&meta_path, e))?;
    Ok(())
}

/// Run `sightline train`: load, optionally LODO, fit and write the model, and return the
/// markdown report (held-out rows, then the shipped model's in-sample rows). Progress goes to
/// `log` (stderr in the CLI).
pub fn run(r: &TrainRun, mut log: impl FnMut(&str)) -> Result<String, Error> {
    let t0 = std::time::Instant::now();
    if let Some(k) = r.cv.filter(|&k| k < 2) {
        return Err(Error::Input {
            input: format!("--cv {k}"),
            message: "cross-validation needs at least 2 folds (5 is usual)".into(),
            source: None,
        });
    }
    let (pages, missing) = load_pages(&r.cfg, |ds, n, total| {
        log(&format!(
            "{ds}: {n} of {total} pages have a snapshot and gold"
        ))
    })?;
    if pages.is_empty() {
        return Err(Error::Input {
            input: r.cfg.snapshots.display().to_string(),
            message: "no page has both a snapshot and a gold text: make snapshots with `sightline eval --save-snapshots DIR`".into(),
            source: None,
        });
    }
    let units: usize = pages.iter().map(|p| p.labels.len()).sum();
    log(&format!(
        "{} pages, {units} units, {missing} without snapshot or gold ({:.0} s)",
        pages.len(),
        t0.elapsed().as_secs_f64()
    ));
    if let Some(dir) = &r.export {
        export(&pages, dir)?;
        log(&format!("wrote the training matrix to {}", dir.display()));
    }
    let mut rows = Vec::new();
    let mut types = Vec::new();
    if r.lodo {
        let (held, scored) = lodo(&r.cfg, &pages, r.lodo_models.as_deref(), &mut log)?;
        if let Some(path) = &r.lodo_pages {
            write_page_scores(&scored, path)?;
            log(&wrote_scores(&scored, "held-out", path));
        }
        rows.extend(held);
        types.push(("held out".to_string(), by_page_type(&scored, "wcxb-dev")));
    }
    if let Some(k) = r.cv {
        let (cv_rows, scored) = cross_validate(&r.cfg, &pages, k, &mut log)?;
        if let Some(path) = &r.cv_pages {
            write_page_scores(&scored, path)?;
            log(&wrote_scores(&scored, "cross-validated", path));
        }
        rows.extend(cv_rows);
        types.push((
            format!("{CV_KIND}, {k} folds"),
            by_page_type(&scored, "wcxb-dev"),
        ));
    }
    if let Some(out) = &r.model_out {
        let mut names: Vec<String> = pages.iter().map(|p| p.dataset.clone()).collect();
        names.dedup();
        let all: Vec<&Page> = pages.iter().collect();
        log(&format!("fitting the model on {} pages", all.len()));
        let m = fit(&all, &r.cfg.learner, &describe(&names, &r.cfg))?;
        let bytes = write_model(&m, out)?;
        log(&format!("wrote {} ({bytes} bytes)", out.display()));
        let kind = in_sample_kind(&names);
        for name in &names {
            let scored = score_dataset(&r.cfg, &m, name)?;
            rows.push(Row {
                kind: kind.clone(),
                dataset: name.clone(),
                pages: scored.len(),
                scores: MacroScores::from_pages(scored.iter().map(|s| &s.score)),
            });
        }
    }
    log(&format!("done in {:.0} s", t0.elapsed().as_secs_f64()));
    Ok(markdown(&rows, &types))
}

/// The label of the rows scored by the model written with `--model`: in-sample, and trained on
/// which datasets (the shipped model is trained on all four; `--dataset` may name fewer).
fn in_sample_kind(names: &[String]) -> String {
    let all =
        DATASETS.len() == names.len() && DATASETS.iter().all(|d| names.iter().any(|n| n == d));
    if all {
        "in-sample (trained on all four, as the shipped model)".into()
    } else {
        format!("in-sample (trained on {})", names.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::{rect, SnapshotBuilder};

    #[test]
    fn the_row_subsample_is_applied_not_only_stored() {
        let l = Learner::default();
        assert!(l.subsample < 1.0);
        assert_eq!(booster(&l, 3, 0).sample_method, SampleMethod::Random);
        let all_rows = Learner {
            subsample: 1.0,
            ..Learner::default()
        };
        assert_eq!(booster(&all_rows, 3, 0).sample_method, SampleMethod::None);
    }

    #[test]
    fn in_sample_rows_name_the_datasets_the_model_saw() {
        let four: Vec<String> = DATASETS.iter().map(|s| s.to_string()).collect();
        assert_eq!(
            in_sample_kind(&four),
            "in-sample (trained on all four, as the shipped model)"
        );
        let three = &four[..3];
        assert_eq!(
            in_sample_kind(three),
            "in-sample (trained on cleaneval, l3s-gn1, readability)"
        );
    }

    #[test]
    fn cross_validation_folds_deal_each_dataset_evenly_by_sorted_id() {
        let dir = tempfile::tempdir().unwrap();
        for (name, n) in [("a", 7), ("b", 3)] {
            let d = dir.path().join(name);
            std::fs::create_dir_all(&d).unwrap();
            // Manifest order is not id order: folds follow sorted ids.
            let manifest: String = (0..n)
                .rev()
                .map(|i| format!("{{\"id\": \"p{i}\"}}\n"))
                .collect();
            std::fs::write(d.join("manifest.jsonl"), manifest).unwrap();
        }
        let cfg = TrainConfig {
            datasets: vec!["a".into(), "b".into()],
            threads: 1,
            ..TrainConfig::new(dir.path().to_path_buf(), dir.path().to_path_buf())
        };
        let folds = cv_folds(&cfg, 3).unwrap();
        assert_eq!(folds.len(), 10);
        let f = |d: &str, id: &str| folds[&(d.to_string(), id.to_string())];
        assert_eq!(
            (0..7).map(|i| f("a", &format!("p{i}"))).collect::<Vec<_>>(),
            [0, 1, 2, 0, 1, 2, 0]
        );
        assert_eq!(
            (0..3).map(|i| f("b", &format!("p{i}"))).collect::<Vec<_>>(),
            [0, 1, 2]
        );
        // The same inputs, the same folds.
        assert_eq!(cv_folds(&cfg, 3).unwrap(), folds);
    }

    #[test]
    fn the_report_labels_cross_validated_rows_and_their_mean_apart_from_held_out_ones() {
        let ms = |f1: f64| MacroScores {
            lcs_f1: f1,
            ..MacroScores::default()
        };
        let rows = vec![
            Row {
                kind: "held out (trained on b)".into(),
                dataset: "a".into(),
                pages: 3,
                scores: ms(0.5),
            },
            Row {
                kind: format!("{CV_KIND} (5 folds, all datasets)"),
                dataset: "a".into(),
                pages: 3,
                scores: ms(0.8),
            },
            Row {
                kind: format!("{CV_KIND} (5 folds, all datasets)"),
                dataset: "b".into(),
                pages: 2,
                scores: ms(0.6),
            },
        ];
        let md = markdown(&rows, &[]);
        assert!(
            md.contains("| held out, mean of 1 datasets | | | 0.500 |"),
            "{md}"
        );
        assert!(
            md.contains("| cross-validated by page, mean of 2 datasets | | | 0.700 |"),
            "{md}"
        );
    }

    #[test]
    fn held_out_page_scores_are_one_json_line_a_page_without_text() {
        let scored = vec![
            Scored {
                dataset: "wcxb-dev".into(),
                id: "dev-1".into(),
                page_type: Some("forum".into()),
                score: PageScore {
                    lcs_p: 0.5,
                    lcs_r: 1.0,
                    lcs_f1: 2.0 / 3.0,
                    out_tokens: 8,
                    gold_tokens: 4,
                    ..PageScore::default()
                },
            },
            Scored {
                dataset: "cleaneval".into(),
                id: "7".into(),
                page_type: None,
                score: PageScore::default(),
            },
        ];
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pages.jsonl");
        write_page_scores(&scored, &path).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0]["id"], "dev-1");
        assert_eq!(lines[0]["page_type"], "forum");
        assert_eq!(lines[0]["lcs_p"], 0.5);
        assert_eq!(lines[0]["out_tokens"], 8);
        assert!(lines[1]["page_type"].is_null());
        assert_eq!(lines[1]["gold_tokens"], 0);
        let missing = dir.path().join("no-such-dir").join("pages.jsonl");
        let err = write_page_scores(&scored, &missing)
            .unwrap_err()
            .to_string();
        assert!(err.contains("no-such-dir"), "{err}");
    }

    #[test]
    fn the_threshold_maximises_the_estimated_f1_of_the_training_pages() {
        let page = Page {
            dataset: "d".into(),
            id: "1".into(),
            page_type: None,
            features: PageFeatures {
                units: Vec::new(),
                rows: Vec::new(),
            },
            labels: vec![1.0, 1.0, 0.0],
            weights: vec![1.0; 3],
            share: vec![1.0, 1.0, 0.0],
            lens: vec![10, 10, 10],
            gold_tokens: 20,
        };
        // Keeping all three units: P 2/3, R 1; the first two: P = R = 1; the first: R 1/2.
        // The lowest grid threshold above 0.3 keeps exactly the first two.
        let t = choose_threshold(&[&page], &[vec![0.9, 0.6, 0.3]]);
        assert_eq!(t, 0.325);
    }

    #[test]
    fn labels_mark_units_whose_tokens_align_with_the_gold() {
        let mut b = SnapshotBuilder::new(1000.0);
        let nav = b.el(0, "div", rect(0.0, 0.0, 1000.0, 30.0));
        b.text(nav, "Home News Sport");
        let p1 = b.el(0, "p", rect(0.0, 40.0, 1000.0, 30.0));
        b.text(p1, "The cat sat on the mat.");
        let p2 = b.el(0, "p", rect(0.0, 80.0, 1000.0, 30.0));
        b.text(p2, "It was a sunny day, news said.");
        let foot = b.el(0, "div", rect(0.0, 120.0, 1000.0, 30.0));
        b.text(foot, "Share on Twitter");
        let snap = b.build();
        let tree = Tree::new(&snap);
        let units = features::units(&tree);
        let gold = "The cat sat on the mat. It was a sunny day, said the news.";
        let (share, lens) = align_labels(&units, gold);
        assert_eq!(lens, vec![3, 6, 7, 3]);
        assert_eq!(share[0], 0.0, "navigation shares no aligned token");
        assert_eq!(share[1], 1.0);
        // "it was a sunny day ... said": 6 of 7 tokens ("news" is out of order).
        assert!((share[2] - 6.0 / 7.0).abs() < 1e-12, "{}", share[2]);
        assert_eq!(share[3], 0.0);
    }
}
