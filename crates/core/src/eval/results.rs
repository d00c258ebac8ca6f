//! Per-page and per-dataset results of an evaluation: the values the runner, the re-scorer,
//! the peer table and the reports share (kept apart from all of them so none depends on
//! another's module).

use std::collections::BTreeMap;

use serde::Serialize;

use super::bench::DATASETS;
use super::metrics::{MacroScores, PageScore};

/// Report order of datasets: the bench's own first, in [`DATASETS`] order, then others by name.
pub fn dataset_rank(name: &str) -> (usize, String) {
    (
        DATASETS
            .iter()
            .position(|d| *d == name)
            .unwrap_or(DATASETS.len()),
        name.to_string(),
    )
}

/// How many worst pages the reports list per algorithm.
pub const WORST_PAGES: usize = 10;

/// One page's outcome for one algorithm.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PageResult {
    /// Algorithm (or peer tool) name.
    pub algorithm: String,
    /// Dataset name.
    pub dataset: String,
    /// Page id.
    pub id: String,
    /// Why no output was produced (the page then scores as an empty output).
    pub failure: Option<String>,
    /// The page's scores.
    #[serde(flatten)]
    pub score: PageScore,
}

/// Macro scores and counts of one algorithm on one dataset.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// Algorithm (or peer tool) name.
    pub algorithm: String,
    /// Dataset name.
    pub dataset: String,
    /// Macro averages over the pages with non-empty gold (failures score 0 and are included).
    pub scores: MacroScores,
    /// Pages that failed (no output).
    pub failures: usize,
    /// Scored pages whose output, though produced, held no token.
    pub empty_outputs: usize,
    /// Pages attempted per second of wall time, when timed.
    pub pages_per_sec: Option<f64>,
}

impl Summary {
    /// Summarizes the pages of one algorithm on one dataset; `seconds` is the time they took.
    pub fn from_pages(
        algorithm: &str,
        dataset: &str,
        pages: &[PageResult],
        seconds: Option<f64>,
    ) -> Summary {
        Summary {
            algorithm: algorithm.to_string(),
            dataset: dataset.to_string(),
            scores: MacroScores::from_pages(pages.iter().map(|p| &p.score)),
            failures: pages.iter().filter(|p| p.failure.is_some()).count(),
            empty_outputs: pages
                .iter()
                .filter(|p| p.failure.is_none() && p.score.is_scored() && p.score.is_empty_output())
                .count(),
            pages_per_sec: seconds.filter(|s| *s > 0.0).map(|s| pages.len() as f64 / s),
        }
    }
}

/// All results of a run: one summary per algorithm × dataset and every page.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Results {
    /// Algorithm × dataset summaries.
    pub summaries: Vec<Summary>,
    /// Per-page results.
    pub pages: Vec<PageResult>,
}

impl Results {
    /// Groups `pages` by algorithm × dataset and summarizes each group; `seconds` gives the
    /// time of a group, keyed by `(algorithm, dataset)`.
    pub fn from_pages(
        pages: Vec<PageResult>,
        seconds: &BTreeMap<(String, String), f64>,
    ) -> Results {
        let mut groups: Vec<((String, String), Vec<PageResult>)> = Vec::new();
        for p in &pages {
            let key = (p.algorithm.clone(), p.dataset.clone());
            match groups.iter_mut().find(|(k, _)| *k == key) {
                Some((_, v)) => v.push(p.clone()),
                None => groups.push((key, vec![p.clone()])),
            }
        }
        let summaries = groups
            .iter()
            .map(|((a, d), v)| {
                Summary::from_pages(a, d, v, seconds.get(&(a.clone(), d.clone())).copied())
            })
            .collect();
        Results { summaries, pages }
    }

    /// Appends another run's results.
    pub fn extend(&mut self, other: Results) {
        self.summaries.extend(other.summaries);
        self.pages.extend(other.pages);
    }

    /// The summary of `algorithm` on `dataset`.
    pub fn summary(&self, algorithm: &str, dataset: &str) -> Option<&Summary> {
        self.summaries
            .iter()
            .find(|s| s.algorithm == algorithm && s.dataset == dataset)
    }

    /// Algorithms in order of first appearance.
    pub fn algorithms(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for s in &self.summaries {
            if !out.contains(&s.algorithm.as_str()) {
                out.push(&s.algorithm);
            }
        }
        out
    }

    /// The `n` scored pages of `algorithm` with the lowest LCS F1 (ties by dataset, then id).
    pub fn worst_pages(&self, algorithm: &str, n: usize) -> Vec<&PageResult> {
        let mut pages: Vec<&PageResult> = self
            .pages
            .iter()
            .filter(|p| p.algorithm == algorithm && p.score.is_scored())
            .collect();
        pages.sort_by(|a, b| {
            a.score
                .lcs_f1
                .total_cmp(&b.score.lcs_f1)
                .then_with(|| dataset_rank(&a.dataset).cmp(&dataset_rank(&b.dataset)))
                .then_with(|| a.id.cmp(&b.id))
        });
        pages.truncate(n);
        pages
    }
}
