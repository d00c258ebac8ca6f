//! The evaluation protocols: score a model on held-out pages exactly as `sightline eval`
//! does, k-fold cross-validation by page, and leave-one-dataset-out.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::data::read_snapshot;
use super::fit::write_model;
use super::{describe, fit, Page, TrainConfig};
use crate::eval::metrics::{self, MacroScores, PageScore};
use crate::extract::learned::{self, model::Model};
use crate::output::text;
use crate::{Error, Tree};

/// Scores of one evaluated page.
#[derive(Debug, Clone)]
pub struct Scored {
    pub dataset: String,
    pub id: String,
    pub page_type: Option<String>,
    pub score: PageScore,
    /// The cross-validation fold that scored the page (None outside `--cv`).
    pub fold: Option<usize>,
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
    let ds = cfg.dataset(dataset)?;
    let mut params = cfg.params.text_only();
    params.learned.comments |= cfg.comments_in.iter().any(|d| d == dataset);
    let params = &params;
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
                                fold: None,
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
        let ds = cfg.dataset(&name)?;
        let mut ids: Vec<&str> = ds.ids().collect();
        ids.sort_unstable();
        for (i, id) in ids.into_iter().enumerate() {
            folds.insert((name.clone(), id.to_string()), i % k.max(1));
        }
    }
    Ok(folds)
}

/// The site-held-out fold of every page: a stable hash of its site ([`super::site_key`])
/// modulo `k`, so all pages of one site (across datasets too) fall in one fold and a fold's
/// pages are scored by a model that never saw their site. Keys are `(dataset, id)`; every
/// manifest page is assigned, with or without a snapshot.
pub fn site_folds(cfg: &TrainConfig, k: usize) -> Result<HashMap<(String, String), usize>, Error> {
    let mut folds = HashMap::new();
    for name in cfg.dataset_names() {
        let ds = cfg.dataset(&name)?;
        for e in &ds.entries {
            let site = super::site_key(e.url.as_deref(), &name, &e.id);
            let f = (crate::hash::stable_hash64(&[site.as_bytes()]) % k.max(1) as u64) as usize;
            folds.insert((name.clone(), e.id.clone()), f);
        }
    }
    Ok(folds)
}

/// How pages are dealt into cross-validation folds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FoldBy {
    /// [`cv_folds`]: by position among each dataset's sorted ids.
    #[default]
    Page,
    /// [`site_folds`]: by site, so no fold's site is seen in training.
    Site,
}

/// K-fold cross-validation: the pages of every dataset are dealt into `k` folds by page
/// ([`cv_folds`]) or by site ([`site_folds`]); for each fold a model is fit on the pages of the
/// other folds (all datasets) and scores the fold's pages. By page, every page is scored by a
/// model that never saw it, but that saw other pages of its dataset and of its site; by site,
/// the model never saw the page's site either: the estimate for pages of sites outside the
/// benchmark. Returns one row per dataset and the page scores (each with its fold).
///
/// With `models_dir`, fold `f`'s model is also written there as `fold-<f>.json`, so the
/// fold's pages can be extracted again and read (`sightline eval --from-snapshots S --model
/// DIR/fold-<f>.json --out O`, keeping the pages whose `fold` is `f`).
pub fn cross_validate(
    cfg: &TrainConfig,
    pages: &[Page],
    k: usize,
    by: FoldBy,
    models_dir: Option<&Path>,
    mut log: impl FnMut(&str),
) -> Result<(Vec<Row>, Vec<Scored>), Error> {
    let folds = match by {
        FoldBy::Page => cv_folds(cfg, k)?,
        FoldBy::Site => site_folds(cfg, k)?,
    };
    let kind = match by {
        FoldBy::Page => CV_KIND,
        FoldBy::Site => SITE_KIND,
    };
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
            "{kind}, fold {} of {k}: fitting on {} pages",
            f + 1,
            train.len()
        ));
        let m = fit(&train, &cfg.learner, &format!("{kind} fold {f} of {k}"))?;
        if let Some(dir) = models_dir {
            let path = write_fold_model(&m, dir, &format!("fold-{f}.json"))?;
            log(&format!("wrote fold {f}'s model to {}", path.display()));
        }
        for name in &names {
            let scored = score_pages(cfg, &m, name, |id| fold_of(name, id) == Some(f))?;
            all.extend(scored.into_iter().map(|s| Scored { fold: Some(f), ..s }));
        }
    }
    let mut rows = Vec::new();
    for name in &names {
        let mut scored: Vec<&Scored> = all.iter().filter(|s| s.dataset == *name).collect();
        scored.sort_by(|a, b| a.id.cmp(&b.id));
        let ms = MacroScores::from_pages(scored.iter().map(|s| &s.score));
        log(&format!(
            "{kind} {name}: F1 {:.3} P {:.3} R {:.3}",
            ms.lcs_f1, ms.lcs_p, ms.lcs_r
        ));
        rows.push(Row {
            kind: format!("{kind} ({k} folds, all datasets)"),
            dataset: name.clone(),
            pages: scored.len(),
            scores: ms,
        });
    }
    all.sort_by(|a, b| (&a.dataset, &a.id).cmp(&(&b.dataset, &b.id)));
    Ok((rows, all))
}

/// Write a fold's model as `dir/name`, creating `dir` first; returns the file's path.
fn write_fold_model(m: &Model, dir: &Path, name: &str) -> Result<PathBuf, Error> {
    std::fs::create_dir_all(dir).map_err(|e| Error::Output {
        path: dir.display().to_string(),
        message: format!("cannot create the directory for the fold models: {e}"),
        source: Some(Box::new(e)),
    })?;
    let path = dir.join(name);
    write_model(m, &path)?;
    Ok(path)
}

/// How cross-validated rows are labelled in the report.
pub const CV_KIND: &str = "cross-validated by page";

/// How site-held-out rows are labelled in the report.
pub const SITE_KIND: &str = "held out by site";

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
        // Pages of another dataset from a site of the held-out one (WCXB's dev pages are
        // split over two sets) would leak the site: they are left out of training too.
        let held_sites: std::collections::HashSet<&str> = pages
            .iter()
            .filter(|p| p.dataset == *held)
            .map(|p| p.site.as_str())
            .collect();
        let train: Vec<&Page> = pages
            .iter()
            .filter(|p| p.dataset != *held && !held_sites.contains(p.site.as_str()))
            .collect();
        let others: Vec<String> = names.iter().filter(|d| *d != held).cloned().collect();
        let shared = pages
            .iter()
            .filter(|p| p.dataset != *held && held_sites.contains(p.site.as_str()))
            .count();
        log(&format!(
            "held out {held}: fitting on {} pages of {} ({shared} pages of {held}'s sites left out)",
            train.len(),
            others.join(", ")
        ));
        let m = fit(&train, &cfg.learner, &describe(&others, cfg))?;
        if let Some(dir) = models_dir {
            let path = write_fold_model(&m, dir, &format!("without-{held}.json"))?;
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
