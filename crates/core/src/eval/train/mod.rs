//! `sightline train`: make the `learned` model from the benchmark's gold text and saved
//! snapshots, and measure it honestly (leave-one-dataset-out).
//!
//! Inputs are only `<bench>/<dataset>/{manifest.jsonl, gold/<id>.txt}` and
//! `<snapshots>/<dataset>/<id>.json` (from `sightline eval --save-snapshots`); nothing is
//! rendered and nothing else is read.
//!
//! Files: `data` (pages, labels, the exported matrix), `fit` (both passes, out-of-fold
//! probabilities, the threshold), `protocol` (held-out scoring, cross-validation,
//! leave-one-dataset-out), `report` (the markdown table, page scores, model descriptions).
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

mod data;
mod fit;
pub mod page_type;
mod protocol;
mod report;
#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};

use serde::Serialize;

pub use self::data::{
    align_labels, comment_policy, export, export_regions, load_pages, site_key, Page,
};
use self::fit::write_model;
pub use self::fit::{average, choose_threshold, fit, BAG_SEED_STEP};
pub use self::protocol::{
    cross_validate, cv_folds, lodo, score_dataset, score_pages, site_folds, FoldBy, Row, Scored,
    CV_KIND, SITE_KIND,
};
use self::report::wrote_scores;
pub use self::report::{by_page_type, describe, markdown, write_page_scores, TypeScores};
use super::bench::{list_datasets, Dataset, DATASETS};
use super::metrics::MacroScores;
use crate::extract::Params;
use crate::Error;

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
    /// Loss weight of a page whose manifest names a page type other than `article`
    /// (product, listing, forum, collection, service, documentation) against 1 for the
    /// others: those types are a quarter of the pages, and each page otherwise weighs the
    /// same, so the fit would favour articles.
    pub typed_page_weight: f64,
    /// Boosters per ensemble (pass 1, pass 2, the comment model and the out-of-fold ones),
    /// fit with different seeds and averaged in log-odds ([`fit::average`]): the model is
    /// `bag` times larger and its probabilities vary less with the seed.
    pub bag: usize,
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
            typed_page_weight: 2.0,
            bag: 1,
        }
    }
}

/// What to train on.
#[derive(Debug, Clone)]
pub struct TrainConfig {
    /// Benchmark root (`../shared/bench`).
    pub bench: PathBuf,
    /// More benchmark roots (`../shared/bench-extra`): their datasets are trained on and
    /// scored beside `bench`'s. A dataset name is looked up in `bench` first, then in these in
    /// order.
    pub extra_benches: Vec<PathBuf>,
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
    /// ([`crate::extract::learned::comment_candidate`]) whatever their gold says (none by default). Scores are
    /// always against the gold as it is.
    pub relabel_comments: Vec<String>,
    /// The datasets scored with reader comments kept (`--comments`), because their gold keeps
    /// them. `run` sets it from the gold ([`comment_policy`]).
    pub comments_in: Vec<String>,
}

impl TrainConfig {
    /// Training on the bench at `bench` with the snapshots in `snapshots`: every dataset, the
    /// default learner and parameters, 2 threads, no sweep, every fold, no relabelling.
    pub fn new(bench: PathBuf, snapshots: PathBuf) -> TrainConfig {
        TrainConfig {
            bench,
            extra_benches: Vec::new(),
            snapshots,
            datasets: Vec::new(),
            learner: Learner::default(),
            params: Params::default(),
            threads: 2,
            sweep: Vec::new(),
            held_out: Vec::new(),
            relabel_comments: Vec::new(),
            comments_in: Vec::new(),
        }
    }

    /// The datasets to read: `datasets`, or the four of [`DATASETS`] and every dataset of the
    /// extra roots when none is given.
    pub fn dataset_names(&self) -> Vec<String> {
        if self.datasets.is_empty() {
            let mut names: Vec<String> = DATASETS.iter().map(|s| s.to_string()).collect();
            for root in &self.extra_benches {
                for name in list_datasets(root).unwrap_or_default() {
                    if !names.contains(&name) {
                        names.push(name);
                    }
                }
            }
            names
        } else {
            self.datasets.clone()
        }
    }

    /// The benchmark root that holds dataset `name`: `bench`, else the first extra root with a
    /// `<name>/manifest.jsonl`.
    pub fn root_of(&self, name: &str) -> &Path {
        std::iter::once(&self.bench)
            .chain(&self.extra_benches)
            .find(|r| r.join(name).join("manifest.jsonl").is_file())
            .unwrap_or(&self.bench)
    }

    /// Open dataset `name` from the root that holds it ([`TrainConfig::root_of`]).
    pub fn dataset(&self, name: &str) -> Result<Dataset, Error> {
        Dataset::open(self.root_of(name), name)
    }
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
    /// Also run k-fold cross-validation ([`cross_validate`]) with this many folds.
    pub cv: Option<usize>,
    /// How `cv` deals pages into folds: by page, or by site.
    pub cv_by: FoldBy,
    /// With `cv`: write every cross-validated page's scores here (as `lodo_pages`).
    pub cv_pages: Option<PathBuf>,
    /// With `lodo`: write each fold's model here as `without-<dataset>.json`.
    pub lodo_models: Option<PathBuf>,
    /// With `cv`: write each fold's model here as `fold-<f>.json`.
    pub cv_models: Option<PathBuf>,
    /// Fit the page-type model ([`page_type`]) on the typed pages and write it here, after its
    /// held-out-by-site report (None: neither).
    pub page_type_out: Option<PathBuf>,
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
    let mut report = String::new();
    if let Some(out) = &r.page_type_out {
        report = page_types(r, out, &mut log)?;
        let more = r.model_out.is_some() || r.lodo || r.cv.is_some() || r.export.is_some();
        if !more {
            log(&format!("done in {:.0} s", t0.elapsed().as_secs_f64()));
            return Ok(report);
        }
    }
    let (mut pages, missing) = load_pages(&r.cfg, |ds, n, total| {
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
    // Each dataset's reader-comment policy, measured from its gold: where the gold keeps
    // comments, the comment units train the comment model and are boilerplate to the article
    // passes (the labels of all datasets then agree), and scoring keeps comments there.
    let mut cfg = r.cfg.clone();
    for (name, (share, tokens)) in comment_policy(&pages) {
        let keeps = share > 0.5;
        log(&format!(
            "{name}: the gold holds {share:.2} of the {tokens} tokens in reader-comment regions: {}",
            if keeps {
                "it keeps comments (the comment model learns from them; scored with --comments)"
            } else {
                "it drops comments"
            }
        ));
        if keeps {
            cfg.comments_in.push(name.clone());
            // The same relabelling as `--relabel-comments`, so the model's description says so.
            let already = cfg.relabel_comments.contains(&name);
            if !already {
                cfg.relabel_comments.push(name.clone());
            }
            for p in pages.iter_mut().filter(|p| p.dataset == name) {
                p.keeps_comments = true;
                if !already {
                    p.relabel_comments();
                }
            }
        }
    }
    let cfg = &cfg;
    if let Some(dir) = &r.export {
        export(&pages, dir)?;
        export_regions(cfg, &pages, dir)?;
        log(&format!("wrote the training matrix to {}", dir.display()));
    }
    let mut rows = Vec::new();
    let mut types = Vec::new();
    if r.lodo {
        let (held, scored) = lodo(cfg, &pages, r.lodo_models.as_deref(), &mut log)?;
        if let Some(path) = &r.lodo_pages {
            write_page_scores(&scored, path)?;
            log(&wrote_scores(&scored, "held-out", path));
        }
        rows.extend(held);
        types.push(("held out".to_string(), by_page_type(&scored)));
    }
    if let Some(k) = r.cv {
        let (cv_rows, scored) =
            cross_validate(cfg, &pages, k, r.cv_by, r.cv_models.as_deref(), &mut log)?;
        if let Some(path) = &r.cv_pages {
            write_page_scores(&scored, path)?;
            log(&wrote_scores(&scored, "cross-validated", path));
        }
        rows.extend(cv_rows);
        let kind = match r.cv_by {
            FoldBy::Page => CV_KIND,
            FoldBy::Site => SITE_KIND,
        };
        types.push((format!("{kind}, {k} folds"), by_page_type(&scored)));
    }
    if let Some(out) = &r.model_out {
        let mut names: Vec<String> = pages.iter().map(|p| p.dataset.clone()).collect();
        names.dedup();
        let all: Vec<&Page> = pages.iter().collect();
        log(&format!("fitting the model on {} pages", all.len()));
        let m = fit(&all, &cfg.learner, &describe(&names, cfg))?;
        let bytes = write_model(&m, out)?;
        log(&format!("wrote {} ({bytes} bytes)", out.display()));
        let kind = in_sample_kind(&names);
        for name in &names {
            let scored = score_dataset(cfg, &m, name)?;
            rows.push(Row {
                kind: kind.clone(),
                dataset: name.clone(),
                pages: scored.len(),
                scores: MacroScores::from_pages(scored.iter().map(|s| &s.score)),
            });
        }
    }
    log(&format!("done in {:.0} s", t0.elapsed().as_secs_f64()));
    Ok(report + &markdown(&rows, &types))
}

/// The page-type part of [`run`]: the held-out-by-site report, then the model fit on every
/// typed page written to `out`.
fn page_types(r: &TrainRun, out: &Path, log: &mut impl FnMut(&str)) -> Result<String, Error> {
    let pages = page_type::load_type_pages(&r.cfg, &mut *log)?;
    if pages.is_empty() {
        return Err(Error::Input {
            input: r.cfg.snapshots.display().to_string(),
            message: "no page whose manifest names a page_type has a snapshot: give --dataset wcxb-dev (and --extra-bench ../shared/bench-extra) with their snapshots from `sightline eval --save-snapshots DIR`".into(),
            source: None,
        });
    }
    let pred =
        page_type::held_out_types(&pages, page_type::TYPE_FOLDS, page_type::TYPE_C, &mut *log);
    let report = page_type::type_report(&pages, &pred, page_type::TYPE_FOLDS);
    let mut names: Vec<&str> = pages.iter().map(|p| p.dataset.as_str()).collect();
    names.dedup();
    let description = format!(
        "multinomial logistic regression (C {}, {} hashed buckets) on the {} typed pages of {} (sightline train --page-type-model)",
        page_type::TYPE_C,
        1usize << crate::extract::page_type::HASH_BITS,
        pages.len(),
        names.join(", ")
    );
    let bytes = page_type::write_type_model(&pages, out, &description)?;
    log(&format!("wrote {} ({bytes} bytes)", out.display()));
    Ok(report + "\n")
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
