//! Benchmark results (algorithm × dataset macro scores plus per-page scores) and their
//! reports: a markdown table and a JSON document, both pure functions returning `String`.
//!
//! The table puts PEERS.md's published rows for each dataset beside the measured ones,
//! marked as peers, and each algorithm gets its ten worst pages by LCS F1.
//!
//! # JSON schema ([`json`])
//! ```text
//! { "metric": "<how the numbers are computed>",
//!   "rows": [ { "algorithm", "dataset", "peer": bool,
//!               "lcs_p", "lcs_r", "lcs_f1", "ce_score", "bow_f1",     // macro averages
//!               "pages", "skipped_empty_gold", "failures", "empty_outputs",
//!               "pages_per_sec" } ],          // counts and speed are null on peer rows
//!   "worst": { "<algorithm>": [ { "dataset", "id", "lcs_f1", "lcs_p", "lcs_r" } ] },
//!   "pages": [ { "algorithm", "dataset", "id", "failure": string|null,
//!                "lcs_p", "lcs_r", "lcs_f1", "ce_score", "bow_f1",
//!                "out_tokens", "gold_tokens", "lcs" } ] }
//! ```

use std::collections::BTreeMap;
use std::fmt::Write;

use serde::Serialize;

pub use super::results::{PageResult, Results, Summary, WORST_PAGES};

use super::peers::PeerTable;
use super::results::dataset_rank;

/// One line of the score table, measured or peer.
#[derive(Debug, Clone, PartialEq, Serialize)]
struct Row {
    algorithm: String,
    dataset: String,
    peer: bool,
    lcs_p: Option<f64>,
    lcs_r: Option<f64>,
    lcs_f1: Option<f64>,
    ce_score: Option<f64>,
    bow_f1: Option<f64>,
    pages: Option<usize>,
    skipped_empty_gold: Option<usize>,
    failures: Option<usize>,
    empty_outputs: Option<usize>,
    pages_per_sec: Option<f64>,
}

/// The table rows: per dataset (bench order), the measured algorithms in run order, then the
/// peers of PEERS.md in its order.
fn rows(results: &Results, peers: Option<&PeerTable>) -> Vec<Row> {
    let mut datasets: Vec<&str> = Vec::new();
    for s in &results.summaries {
        if !datasets.contains(&s.dataset.as_str()) {
            datasets.push(&s.dataset);
        }
    }
    datasets.sort_by_key(|d| dataset_rank(d));
    let mut out = Vec::new();
    for dataset in datasets {
        for s in results.summaries.iter().filter(|s| s.dataset == dataset) {
            out.push(Row {
                algorithm: s.algorithm.clone(),
                dataset: s.dataset.clone(),
                peer: false,
                lcs_p: Some(s.scores.lcs_p),
                lcs_r: Some(s.scores.lcs_r),
                lcs_f1: Some(s.scores.lcs_f1),
                ce_score: Some(s.scores.ce_score),
                bow_f1: Some(s.scores.bow_f1),
                pages: Some(s.scores.pages),
                skipped_empty_gold: Some(s.scores.skipped_empty_gold),
                failures: Some(s.failures),
                empty_outputs: Some(s.empty_outputs),
                pages_per_sec: s.pages_per_sec,
            });
        }
        let Some(peers) = peers else { continue };
        for tool in &peers.tools {
            let get = |m: &str| peers.get(m, tool, dataset);
            if get("lcs_f1").is_none() {
                continue;
            }
            out.push(Row {
                algorithm: tool.clone(),
                dataset: dataset.to_string(),
                peer: true,
                lcs_p: get("lcs_p"),
                lcs_r: get("lcs_r"),
                lcs_f1: get("lcs_f1"),
                ce_score: get("ce_score"),
                bow_f1: get("bow_f1"),
                pages: None,
                skipped_empty_gold: None,
                failures: None,
                empty_outputs: None,
                pages_per_sec: None,
            });
        }
    }
    out
}

/// What the numbers are, for both reports.
const METRIC_NOTE: &str = "Song et al. eq. 6-9 on word tokens (NFKC, lower-cased runs of Unicode word characters, a run holding CJK split into characters): LCS precision, recall, F1, CleanEval score, bag-of-words F1; macro averages over the pages with non-empty gold; a failed or empty output scores 0";

fn num(v: Option<f64>) -> String {
    v.map_or("–".to_string(), |v| format!("{v:.3}"))
}

fn count(v: Option<usize>) -> String {
    v.map_or("–".to_string(), |v| v.to_string())
}

/// The markdown report: one score table (peers marked) and each algorithm's worst pages.
pub fn markdown(results: &Results, peers: Option<&PeerTable>) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# Benchmark report\n");
    let _ = writeln!(
        s,
        "{METRIC_NOTE}. Rows marked *(peer)* are the published numbers of PEERS.md.\n"
    );
    let _ = writeln!(
        s,
        "| algorithm | dataset | P | R | F1 | CE | BOW F1 | pages | failures | empty | pages/s |"
    );
    let _ = writeln!(s, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for r in rows(results, peers) {
        let name = if r.peer {
            format!("{} *(peer)*", r.algorithm)
        } else {
            r.algorithm.clone()
        };
        let speed = r
            .pages_per_sec
            .map_or("–".to_string(), |v| format!("{v:.1}"));
        let _ = writeln!(
            s,
            "| {name} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {speed} |",
            r.dataset,
            num(r.lcs_p),
            num(r.lcs_r),
            num(r.lcs_f1),
            num(r.ce_score),
            num(r.bow_f1),
            count(r.pages),
            count(r.failures),
            count(r.empty_outputs),
        );
    }
    for algorithm in results.algorithms() {
        let _ = writeln!(s, "\n## Worst pages: {algorithm}\n");
        let _ = writeln!(s, "| dataset | id | F1 | P | R |");
        let _ = writeln!(s, "|---|---|---:|---:|---:|");
        for p in results.worst_pages(algorithm, WORST_PAGES) {
            let id = match &p.failure {
                Some(_) => format!("{} (failed)", p.id),
                None => p.id.clone(),
            };
            let _ = writeln!(
                s,
                "| {} | {id} | {:.3} | {:.3} | {:.3} |",
                p.dataset, p.score.lcs_f1, p.score.lcs_p, p.score.lcs_r
            );
        }
    }
    s
}

/// One of the worst pages in the JSON report.
#[derive(Serialize)]
struct Worst<'a> {
    dataset: &'a str,
    id: &'a str,
    lcs_f1: f64,
    lcs_p: f64,
    lcs_r: f64,
}

/// The JSON report (schema in the module documentation), pretty-printed.
pub fn json(results: &Results, peers: Option<&PeerTable>) -> String {
    #[derive(Serialize)]
    struct Doc<'a> {
        metric: &'a str,
        rows: Vec<Row>,
        worst: BTreeMap<&'a str, Vec<Worst<'a>>>,
        pages: &'a [PageResult],
    }
    let worst = results
        .algorithms()
        .into_iter()
        .map(|a| {
            let pages = results
                .worst_pages(a, WORST_PAGES)
                .into_iter()
                .map(|p| Worst {
                    dataset: &p.dataset,
                    id: &p.id,
                    lcs_f1: p.score.lcs_f1,
                    lcs_p: p.score.lcs_p,
                    lcs_r: p.score.lcs_r,
                })
                .collect();
            (a, pages)
        })
        .collect();
    let doc = Doc {
        metric: METRIC_NOTE,
        rows: rows(results, peers),
        worst,
        pages: &results.pages,
    };
    let mut out = serde_json::to_string_pretty(&doc).expect("report values serialize");
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::metrics::score;
    use crate::eval::peers;

    fn page(
        algorithm: &str,
        dataset: &str,
        id: &str,
        output: Option<&str>,
        gold: &str,
    ) -> PageResult {
        PageResult {
            algorithm: algorithm.into(),
            dataset: dataset.into(),
            id: id.into(),
            failure: output.is_none().then(|| "timeout".to_string()),
            score: score(output.unwrap_or(""), gold),
        }
    }

    fn sample() -> Results {
        let pages = vec![
            page("dens", "l3s-gn1", "n1", Some("a b c d"), "a b c d"), // 1.0
            page("dens", "cleaneval", "c1", Some("a b"), "a b c d"),   // P 1, R .5, F1 .667
            page("dens", "cleaneval", "c2", None, "x y"),              // failed: 0
            page("dens", "cleaneval", "c3", Some(""), "x y"),          // empty: 0
            page("dens", "cleaneval", "c4", Some("q"), "--"),          // empty gold: skipped
            page("vis", "cleaneval", "c1", Some("a b c d e f g h"), "a b c d"), // P .5, R 1
        ];
        let mut seconds = BTreeMap::new();
        seconds.insert(("dens".to_string(), "cleaneval".to_string()), 2.0);
        Results::from_pages(pages, &seconds)
    }

    fn peer_table() -> PeerTable {
        peers::parse("## lcs_f1\n| tool | cleaneval | mean |\n|---|---|---|\n| traf | 0.869 | **0.869** |\n## lcs_p\n| tool | cleaneval | mean |\n|---|---|---|\n| traf | 0.879 | **0.879** |\n").unwrap()
    }

    #[test]
    fn summaries_count_failures_empties_and_speed() {
        let r = sample();
        let s = r.summary("dens", "cleaneval").unwrap();
        assert_eq!(
            (
                s.scores.pages,
                s.scores.skipped_empty_gold,
                s.failures,
                s.empty_outputs
            ),
            (3, 1, 1, 1)
        );
        assert!((s.scores.lcs_f1 - (2.0 / 3.0) / 3.0).abs() < 1e-12);
        assert_eq!(s.pages_per_sec, Some(2.0)); // 4 pages in 2 s
        assert_eq!(r.summary("dens", "l3s-gn1").unwrap().pages_per_sec, None);
        assert_eq!(r.algorithms(), vec!["dens", "vis"]);
        let worst: Vec<&str> = r
            .worst_pages("dens", 10)
            .iter()
            .map(|p| p.id.as_str())
            .collect();
        assert_eq!(worst, vec!["c2", "c3", "c1", "n1"]);
    }

    #[test]
    fn markdown_golden() {
        let expected = "\
# Benchmark report

Song et al. eq. 6-9 on word tokens (NFKC, lower-cased runs of Unicode word characters, a run holding CJK split into characters): LCS precision, recall, F1, CleanEval score, bag-of-words F1; macro averages over the pages with non-empty gold; a failed or empty output scores 0. Rows marked *(peer)* are the published numbers of PEERS.md.

| algorithm | dataset | P | R | F1 | CE | BOW F1 | pages | failures | empty | pages/s |
|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|
| dens | cleaneval | 0.333 | 0.167 | 0.222 | 0.167 | 0.222 | 3 | 1 | 1 | 2.0 |
| vis | cleaneval | 0.500 | 1.000 | 0.667 | 0.500 | 0.667 | 1 | 0 | 0 | – |
| traf *(peer)* | cleaneval | 0.879 | – | 0.869 | – | – | – | – | – | – |
| dens | l3s-gn1 | 1.000 | 1.000 | 1.000 | 1.000 | 1.000 | 1 | 0 | 0 | – |

## Worst pages: dens

| dataset | id | F1 | P | R |
|---|---|---:|---:|---:|
| cleaneval | c2 (failed) | 0.000 | 0.000 | 0.000 |
| cleaneval | c3 | 0.000 | 0.000 | 0.000 |
| cleaneval | c1 | 0.667 | 1.000 | 0.500 |
| l3s-gn1 | n1 | 1.000 | 1.000 | 1.000 |

## Worst pages: vis

| dataset | id | F1 | P | R |
|---|---|---:|---:|---:|
| cleaneval | c1 | 0.667 | 0.500 | 1.000 |
";
        let got = markdown(&sample(), Some(&peer_table()));
        assert_eq!(got, expected, "\n--- got ---\n{got}");
    }

    #[test]
    fn json_golden() {
        let pages = vec![page("dens", "cleaneval", "c1", Some("a b"), "a b c d")];
        let r = Results::from_pages(pages, &BTreeMap::new());
        let expected = r#"{
  "metric": "METRIC",
  "rows": [
    {
      "algorithm": "dens",
      "dataset": "cleaneval",
      "peer": false,
      "lcs_p": 1.0,
      "lcs_r": 0.5,
      "lcs_f1": 0.6666666666666666,
      "ce_score": 0.5,
      "bow_f1": 0.6666666666666666,
      "pages": 1,
      "skipped_empty_gold": 0,
      "failures": 0,
      "empty_outputs": 0,
      "pages_per_sec": null
    },
    {
      "algorithm": "traf",
      "dataset": "cleaneval",
      "peer": true,
      "lcs_p": 0.879,
      "lcs_r": null,
      "lcs_f1": 0.869,
      "ce_score": null,
      "bow_f1": null,
      "pages": null,
      "skipped_empty_gold": null,
      "failures": null,
      "empty_outputs": null,
      "pages_per_sec": null
    }
  ],
  "worst": {
    "dens": [
      {
        "dataset": "cleaneval",
        "id": "c1",
        "lcs_f1": 0.6666666666666666,
        "lcs_p": 1.0,
        "lcs_r": 0.5
      }
    ]
  },
  "pages": [
    {
      "algorithm": "dens",
      "dataset": "cleaneval",
      "id": "c1",
      "failure": null,
      "lcs_p": 1.0,
      "lcs_r": 0.5,
      "lcs_f1": 0.6666666666666666,
      "ce_score": 0.5,
      "bow_f1": 0.6666666666666666,
      "out_tokens": 2,
      "gold_tokens": 4,
      "lcs": 2
    }
  ]
}
"#
        .replace("METRIC", METRIC_NOTE);
        let got = json(&r, Some(&peer_table()));
        assert_eq!(got, expected, "\n--- got ---\n{got}");
        let v: serde_json::Value = serde_json::from_str(&got).unwrap();
        assert_eq!(v["rows"][1]["peer"], true);
    }
}
