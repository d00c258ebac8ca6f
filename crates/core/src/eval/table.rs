//! The README's quality table, from a run's `report.json` (see [`super::report`] for its
//! schema), so the published numbers are regenerated rather than copied by hand
//! (`scripts/quality-table`, behind `sightline eval --table`).
//!
//! One row per measured algorithm, then one per PEERS.md tool, each group by mean F1, best
//! first. A cell is the LCS F1 with (precision/recall); an F1 above the best peer's on that
//! dataset is **bold**; the last column is the mean F1 over the datasets (a row missing a
//! dataset has no mean). Below the table: failures and empty outputs of the default algorithm
//! per dataset, pages scored, the run's counters when the report has them, and the default
//! algorithm's F1 per wcxb-dev page type when the manifest is given.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

use serde::Deserialize;

use super::bench::{read_utf8, Dataset, ManifestEntry, DATASETS};
use super::rescore::dataset_rank;
use crate::Error;

/// A `rows` entry of `report.json`, measured or peer.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Row {
    pub algorithm: String,
    pub dataset: String,
    pub peer: bool,
    pub lcs_p: Option<f64>,
    pub lcs_r: Option<f64>,
    pub lcs_f1: Option<f64>,
    #[serde(default)]
    pub pages: Option<usize>,
    #[serde(default)]
    pub failures: Option<usize>,
    #[serde(default)]
    pub empty_outputs: Option<usize>,
}

/// A `pages` entry of `report.json` (the fields the table uses).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct PageRow {
    pub algorithm: String,
    pub dataset: String,
    pub id: String,
    pub lcs_f1: f64,
    #[serde(default)]
    pub gold_tokens: usize,
}

/// The parts of `report.json` the table reads.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct Report {
    pub rows: Vec<Row>,
    #[serde(default)]
    pub pages: Vec<PageRow>,
    /// The run's counters (`RunStats`), absent for a `--rescore` report.
    #[serde(default)]
    pub run: Option<serde_json::Value>,
}

impl Report {
    /// Parses the text of a `report.json`.
    pub fn parse(json: &str) -> Result<Report, serde_json::Error> {
        serde_json::from_str(json)
    }
}

/// `1866` → `1,866`.
fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The markdown table and the lines below it. `default` is the default algorithm's name;
/// `wcxb_manifest` the wcxb-dev manifest, for the per-page-type line.
pub fn readme_table(
    report: &Report,
    default: &str,
    wcxb_manifest: Option<&[ManifestEntry]>,
) -> String {
    let mut datasets: Vec<&str> = Vec::new();
    for r in &report.rows {
        if !datasets.contains(&r.dataset.as_str()) {
            datasets.push(&r.dataset);
        }
    }
    datasets.sort_by_key(|d| dataset_rank(d));
    let cell = |r: &Row| (r.lcs_f1, r.lcs_p, r.lcs_r);
    // name → dataset → (F1, P, R), for measured and peer rows apart; names in first-seen order.
    let mut order: Vec<(&str, bool)> = Vec::new();
    let mut cells: BTreeMap<(&str, bool), BTreeMap<&str, Row>> = BTreeMap::new();
    for r in &report.rows {
        let key = (r.algorithm.as_str(), r.peer);
        if !order.contains(&key) {
            order.push(key);
        }
        cells
            .entry(key)
            .or_default()
            .insert(r.dataset.as_str(), r.clone());
    }
    let best_peer: BTreeMap<&str, f64> = datasets
        .iter()
        .filter_map(|d| {
            report
                .rows
                .iter()
                .filter(|r| r.peer && r.dataset == *d)
                .filter_map(|r| r.lcs_f1)
                .max_by(f64::total_cmp)
                .map(|v| (*d, v))
        })
        .collect();
    let mean = |key: &(&str, bool)| -> Option<f64> {
        let row = &cells[key];
        let v: Option<Vec<f64>> = datasets
            .iter()
            .map(|d| row.get(d).and_then(|r| r.lcs_f1))
            .collect();
        v.filter(|v| !v.is_empty())
            .map(|v| v.iter().sum::<f64>() / v.len() as f64)
    };
    let mut measured: Vec<(&str, bool)> = order.iter().copied().filter(|k| !k.1).collect();
    measured.sort_by(|a, b| {
        mean(b)
            .unwrap_or(f64::NEG_INFINITY)
            .total_cmp(&mean(a).unwrap_or(f64::NEG_INFINITY))
            .then(a.0.cmp(b.0))
    });
    let mut peers: Vec<(&str, bool)> = order.iter().copied().filter(|k| k.1).collect();
    // Stable: peers without a mean keep PEERS.md's order, after the others.
    peers.sort_by(|a, b| {
        mean(b)
            .unwrap_or(f64::NEG_INFINITY)
            .total_cmp(&mean(a).unwrap_or(f64::NEG_INFINITY))
    });

    let mut s = String::new();
    let _ = writeln!(s, "| extractor | {} | mean F1 |", datasets.join(" | "));
    let _ = writeln!(s, "|---|{}---:|", "---:|".repeat(datasets.len()));
    for key in measured.iter().chain(&peers) {
        let name = if key.1 {
            format!("{} *(PEERS.md)*", key.0)
        } else {
            format!("sightline `{}`", key.0)
        };
        let mut line = format!("| {name} |");
        for d in &datasets {
            let c = cells[key].get(d).map(cell);
            let text = match c {
                Some((Some(f1), p, r)) => {
                    let f = format!("{f1:.3}");
                    let f = if !key.1 && best_peer.get(d).is_some_and(|b| f1 > *b) {
                        format!("**{f}**")
                    } else {
                        f
                    };
                    match (p, r) {
                        (Some(p), Some(r)) => format!("{f} ({p:.2}/{r:.2})"),
                        _ => f,
                    }
                }
                _ => "–".to_string(),
            };
            let _ = write!(line, " {text} |");
        }
        let m = mean(key).map_or("–".to_string(), |m| format!("{m:.3}"));
        let _ = writeln!(s, "{line} {m} |");
    }
    s.push('\n');

    if let Some(rows) = cells.get(&(default, false)) {
        let fe: Vec<String> = datasets
            .iter()
            .filter_map(|d| rows.get(d))
            .map(|r| {
                format!(
                    "{} {}/{}",
                    r.dataset,
                    r.failures.map_or("–".into(), |v| v.to_string()),
                    r.empty_outputs.map_or("–".into(), |v| v.to_string())
                )
            })
            .collect();
        let _ = writeln!(
            s,
            "Failures (no snapshot) and empty outputs per dataset, `{default}`: {}.",
            fe.join(", ")
        );
        let pages: Vec<String> = datasets
            .iter()
            .filter_map(|d| rows.get(d))
            .filter_map(|r| Some(format!("{} {}", r.dataset, thousands(r.pages? as u64))))
            .collect();
        let _ = writeln!(s, "Pages scored: {}.", pages.join(", "));
    }
    if let Some(run) = &report.run {
        let n = |k: &str| run.get(k).and_then(|v| v.as_u64()).unwrap_or(0);
        let score: BTreeMap<String, f64> = run
            .get("score_s")
            .and_then(|v| serde_json::from_value(v.clone()).ok())
            .unwrap_or_default();
        let total: f64 = score.values().sum();
        let _ = writeln!(
            s,
            "Run: {} pages rendered offline; {} had an unclosed `<title>` repaired and were \
             re-rendered; {} were captured without a `load` event (deadline); scoring the {} \
             algorithms took {:.1} s in total, `{default}` alone {:.1} s.",
            thousands(n("pages")),
            n("pages_repaired"),
            n("pages_load_timed_out"),
            score.len(),
            total,
            score.get(default).copied().unwrap_or(f64::NAN),
        );
    }
    if let Some(manifest) = wcxb_manifest {
        let types: BTreeMap<&str, &str> = manifest
            .iter()
            .filter_map(|e| Some((e.id.as_str(), e.page_type.as_deref()?)))
            .collect();
        let mut by_type: BTreeMap<&str, (f64, usize)> = BTreeMap::new();
        for p in report
            .pages
            .iter()
            .filter(|p| p.algorithm == default && p.dataset == DATASETS[3] && p.gold_tokens > 0)
        {
            if let Some(t) = types.get(p.id.as_str()) {
                let e = by_type.entry(t).or_default();
                e.0 += p.lcs_f1;
                e.1 += 1;
            }
        }
        if !by_type.is_empty() {
            let mut v: Vec<(&str, f64, usize)> = by_type
                .into_iter()
                .map(|(t, (sum, n))| (t, sum / n as f64, n))
                .collect();
            v.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
            let parts: Vec<String> = v
                .iter()
                .map(|(t, f, n)| format!("{t} {f:.3} ({n})"))
                .collect();
            let _ = writeln!(
                s,
                "wcxb-dev by page type, `{default}` mean F1 (pages): {}.",
                parts.join(", ")
            );
        }
    }
    s
}

/// The table of a `report.json`'s text, with the wcxb-dev manifest read from `bench` when it
/// is there (for the per-page-type line). `input` names the report in errors.
pub fn table_from_json(
    json: &str,
    input: &str,
    bench: &Path,
    default: &str,
) -> Result<String, Error> {
    let report = Report::parse(json).map_err(|e| Error::Input {
        input: input.to_string(),
        message: format!(
            "not a sightline eval report.json ({e}); pass the report.json that \
             `sightline eval --out DIR` wrote"
        ),
        source: Some(Box::new(e)),
    })?;
    let wcxb = Dataset::open(bench, DATASETS[3]).ok();
    Ok(readme_table(
        &report,
        default,
        wcxb.as_ref().map(|d| d.entries.as_slice()),
    ))
}

/// [`table_from_json`] of a `report.json` file.
pub fn table_from_file(path: &Path, bench: &Path, default: &str) -> Result<String, Error> {
    let json = read_utf8(path)?;
    table_from_json(&json, &path.display().to_string(), bench, default)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(a: &str, d: &str, peer: bool, f1: f64, p: f64, r: f64) -> serde_json::Value {
        let counts = if peer {
            serde_json::json!({"pages": null, "failures": null, "empty_outputs": null})
        } else {
            serde_json::json!({"pages": 700, "failures": 1, "empty_outputs": 2})
        };
        let mut v = serde_json::json!({"algorithm": a, "dataset": d, "peer": peer,
            "lcs_f1": f1, "lcs_p": p, "lcs_r": r, "ce_score": 0.5, "bow_f1": 0.5});
        v.as_object_mut()
            .unwrap()
            .extend(counts.as_object().unwrap().clone());
        v
    }

    #[test]
    fn table_orders_rows_bolds_above_the_best_peer_and_averages() {
        let rows = vec![
            row("td", "l3s-gn1", false, 0.80, 0.75, 0.9),
            row("td", "cleaneval", false, 0.95, 0.951, 0.949),
            row("htd", "cleaneval", false, 0.9, 0.91, 0.92),
            row("htd", "l3s-gn1", false, 0.9041, 0.88, 0.95),
            row("peer-a", "cleaneval", true, 0.904, 0.92, 0.92),
            row("peer-a", "l3s-gn1", true, 0.904, 0.92, 0.94),
            row("peer-b", "cleaneval", true, 0.91, 0.9, 0.9),
        ];
        let json = serde_json::json!({"metric": "m", "rows": rows, "worst": {},
            "pages": [
                {"algorithm": "htd", "dataset": "wcxb-dev", "id": "1", "lcs_f1": 0.5, "gold_tokens": 3},
                {"algorithm": "htd", "dataset": "wcxb-dev", "id": "2", "lcs_f1": 1.0, "gold_tokens": 3},
                {"algorithm": "htd", "dataset": "wcxb-dev", "id": "3", "lcs_f1": 0.2, "gold_tokens": 3},
                {"algorithm": "td", "dataset": "wcxb-dev", "id": "1", "lcs_f1": 0.0, "gold_tokens": 3}
            ],
            "run": {"pages": 1866, "pages_repaired": 7, "pages_load_timed_out": 23,
                    "score_s": {"htd": 0.61, "td": 0.4}}});
        let report = Report::parse(&json.to_string()).unwrap();
        let manifest: Vec<ManifestEntry> = [("1", "forum"), ("2", "forum"), ("3", "article")]
            .iter()
            .map(|(id, t)| {
                serde_json::from_value(serde_json::json!({"id": id, "page_type": t})).unwrap()
            })
            .collect();
        let t = readme_table(&report, "htd", Some(&manifest));
        let want = "\
| extractor | cleaneval | l3s-gn1 | mean F1 |
|---|---:|---:|---:|
| sightline `htd` | 0.900 (0.91/0.92) | **0.904** (0.88/0.95) | 0.902 |
| sightline `td` | **0.950** (0.95/0.95) | 0.800 (0.75/0.90) | 0.875 |
| peer-a *(PEERS.md)* | 0.904 (0.92/0.92) | 0.904 (0.92/0.94) | 0.904 |
| peer-b *(PEERS.md)* | 0.910 (0.90/0.90) | – | – |

Failures (no snapshot) and empty outputs per dataset, `htd`: cleaneval 1/2, l3s-gn1 1/2.
Pages scored: cleaneval 700, l3s-gn1 700.
Run: 1,866 pages rendered offline; 7 had an unclosed `<title>` repaired and were re-rendered; 23 were captured without a `load` event (deadline); scoring the 2 algorithms took 1.0 s in total, `htd` alone 0.6 s.
wcxb-dev by page type, `htd` mean F1 (pages): forum 0.750 (2), article 0.200 (1).
";
        assert_eq!(t, want, "\n{t}");
    }

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
