//! Reports: the markdown table of held-out and cross-validated rows, scores by page type,
//! page scores as JSON lines, and the description stored in a model.

use std::collections::BTreeMap;
use std::path::Path;

use super::{Row, Scored, TrainConfig, CV_KIND, SITE_KIND};
use crate::eval::metrics::{MacroScores, PageScore};
use crate::Error;

/// Macro scores by page type: pages and scores of each type.
pub type TypeScores = BTreeMap<String, (usize, MacroScores)>;

/// Macro scores per `page_type` of the scored pages that have one (WCXB's, over every dataset
/// that gives page types).
pub fn by_page_type(scored: &[Scored]) -> TypeScores {
    let mut groups: BTreeMap<String, Vec<&PageScore>> = BTreeMap::new();
    for s in scored {
        if let Some(t) = &s.page_type {
            groups.entry(t.clone()).or_default().push(&s.score);
        }
    }
    groups
        .into_iter()
        .map(|(k, v)| (k, (v.len(), MacroScores::from_pages(v))))
        .collect()
}

/// The markdown report: one row per (kind, dataset), the mean of the held-out rows and of
/// the cross-validated rows, and page types for each of those (labelled).
pub fn markdown(rows: &[Row], types: &[(String, TypeScores)]) -> String {
    // A run that only exports the matrix scores nothing: stdout stays empty.
    if rows.is_empty() && types.is_empty() {
        return String::new();
    }
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
        (SITE_KIND, "held out by site"),
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
            "\nBy page type, the pages that have one ({label}):\n\n| page type | pages | LCS F1 | LCS P | LCS R |\n|---|---:|---:|---:|---:|\n"
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
        "sightline train: forust-ml GradientBooster (logloss), pass 1 {} trees, pass 2 {} trees, depth {}, learning rate {}, l2 {}, subsample {}, seed {}{}, typed pages weigh {}, out-of-fold {}; trained on {}",
        l.trees,
        l.trees2,
        l.max_depth,
        l.learning_rate,
        l.l2,
        l.subsample,
        l.seed,
        if l.bag > 1 {
            format!(", {} seeds averaged (seed step {})", l.bag, super::BAG_SEED_STEP)
        } else {
            String::new()
        },
        l.typed_page_weight,
        if l.folds_by_dataset {
            "by dataset"
        } else {
            "by alternate pages"
        },
        datasets.join(", ")
    ) + &comments
}

/// One JSON line per held-out page: `{"dataset", "id", "page_type", "lcs_f1", "lcs_p",
/// "lcs_r", "out_tokens", "gold_tokens"}` (no page text), in dataset and page order: where
/// the held-out mean is lost, page by page.
pub fn write_page_scores(scored: &[Scored], path: &Path) -> Result<(), Error> {
    let mut out = String::new();
    for s in scored {
        let mut line = serde_json::json!({
            "dataset": s.dataset,
            "id": s.id,
            "page_type": s.page_type,
            "lcs_f1": s.score.lcs_f1,
            "lcs_p": s.score.lcs_p,
            "lcs_r": s.score.lcs_r,
            "out_tokens": s.score.out_tokens,
            "gold_tokens": s.score.gold_tokens,
        });
        if let Some(f) = s.fold {
            line["fold"] = f.into();
        }
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
pub(super) fn wrote_scores(scored: &[Scored], what: &str, path: &Path) -> String {
    format!(
        "wrote {} {what} page scores to {}",
        scored.len(),
        path.display()
    )
}
