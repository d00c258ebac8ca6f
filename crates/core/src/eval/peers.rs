//! The peer tools' published scores (`shared/bench/PEERS.md`) and scoring of their saved
//! outputs (`<dataset>/peers/<tool>/<id>.txt`).
//!
//! PEERS.md has one `## <metric>` section per metric, each holding a markdown table with a
//! `tool` column, one column per dataset and a `mean` column (values may be `**bold**`).
//! Sections whose heading is not a single word (e.g. the speed table) are not metric tables
//! and are ignored.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Serialize;

use super::bench::{read_utf8, Dataset};
use super::rescore::score_dataset;
use super::results::Results;
use crate::Error;

/// metric → tool → dataset → value.
pub type PeerScores = BTreeMap<String, BTreeMap<String, BTreeMap<String, f64>>>;

/// The metric tables of PEERS.md.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct PeerTable {
    /// metric → tool → dataset → value (the `mean` column excluded).
    pub scores: PeerScores,
    /// metric → tool → the table's `mean` column.
    pub means: BTreeMap<String, BTreeMap<String, f64>>,
    /// Tools in the order of their first appearance.
    pub tools: Vec<String>,
}

impl PeerTable {
    /// Reads and parses a PEERS.md file.
    pub fn load(path: &Path) -> Result<PeerTable, Error> {
        let text = read_utf8(path)?;
        parse(&text).map_err(|message| Error::Input {
            input: path.display().to_string(),
            message: format!("{message} (expected `## metric` sections with `| tool | <datasets> | mean |` tables)"),
            source: None,
        })
    }

    /// The value of `metric` for `tool` on `dataset`.
    pub fn get(&self, metric: &str, tool: &str, dataset: &str) -> Option<f64> {
        self.scores.get(metric)?.get(tool)?.get(dataset).copied()
    }

    /// Datasets that have a value for any metric, sorted.
    pub fn datasets(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .scores
            .values()
            .flat_map(|t| t.values())
            .flat_map(|d| d.keys().cloned())
            .collect();
        out.sort();
        out.dedup();
        out
    }
}

/// Parses the text of PEERS.md. Errors name the offending line.
pub fn parse(text: &str) -> Result<PeerTable, String> {
    let mut table = PeerTable::default();
    let mut metric: Option<String> = None;
    let mut header: Option<Vec<String>> = None;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if let Some(heading) = line.strip_prefix("## ") {
            let heading = heading.trim();
            let is_metric =
                !heading.is_empty() && heading.chars().all(|c| c.is_alphanumeric() || c == '_');
            metric = is_metric.then(|| heading.to_string());
            header = None;
            continue;
        }
        let Some(metric) = &metric else { continue };
        if !line.starts_with('|') {
            if !line.is_empty() {
                header = None;
            }
            continue;
        }
        let cells: Vec<String> = line
            .trim_matches('|')
            .split('|')
            .map(|c| c.trim().trim_matches('*').trim().to_string())
            .collect();
        if cells
            .iter()
            .all(|c| c.chars().all(|ch| ch == '-' || ch == ':'))
        {
            continue; // separator row
        }
        let Some(head) = &header else {
            if cells.first().map(String::as_str) != Some("tool") {
                return Err(format!(
                    "line {}: table under `## {metric}` must start with a `tool` column",
                    i + 1
                ));
            }
            header = Some(cells);
            continue;
        };
        if cells.len() != head.len() {
            return Err(format!(
                "line {}: {} cells, the header has {}",
                i + 1,
                cells.len(),
                head.len()
            ));
        }
        let tool = cells[0].clone();
        if !table.tools.contains(&tool) {
            table.tools.push(tool.clone());
        }
        for (column, cell) in head.iter().zip(&cells).skip(1) {
            let value: f64 = cell.parse().map_err(|_| {
                format!("line {}: `{cell}` under `{column}` is not a number", i + 1)
            })?;
            if column == "mean" {
                table
                    .means
                    .entry(metric.clone())
                    .or_default()
                    .insert(tool.clone(), value);
            } else {
                table
                    .scores
                    .entry(metric.clone())
                    .or_default()
                    .entry(tool.clone())
                    .or_default()
                    .insert(column.clone(), value);
            }
        }
    }
    if table.scores.is_empty() {
        return Err("no metric table found".to_string());
    }
    Ok(table)
}

/// Scores a peer tool's saved outputs (`<root>/<dataset>/peers/<tool>/<id>.txt`, a missing file
/// counting as a failed, empty output) against the gold of each of `datasets`; the algorithm
/// name of the results is `tool`.
pub fn score_peer(root: &Path, tool: &str, datasets: &[&str]) -> Result<Results, Error> {
    let mut results = Results::default();
    for name in datasets {
        let dataset = Dataset::open(root, name)?;
        let dir = dataset.dir.join("peers").join(tool);
        let part = score_dataset(&dataset, &[(tool.to_string(), dir)])?;
        results.extend(part);
    }
    Ok(results)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "# Scores\n\nintro | not a table\n\n## lcs_f1\n\n| tool | cleaneval | wcxb-dev | mean |\n|---|---|---|---|\n| trafilatura | 0.869 | 0.844 | **0.857** |\n| justext | 0.867 | 0.662 | **0.765** |\n\n## ce_score\n\n| tool | cleaneval | wcxb-dev | mean |\n|---|---|---|---|\n| trafilatura | 0.807 | 0.783 | **0.795** |\n\n## Speed (pages per CPU-second)\n| tool | pages / CPU-second |\n|---|---|\n| resiliparse | 544 |\n";

    #[test]
    fn parses_metric_tables_and_skips_speed() {
        let t = parse(SAMPLE).unwrap();
        assert_eq!(t.get("lcs_f1", "trafilatura", "cleaneval"), Some(0.869));
        assert_eq!(t.get("lcs_f1", "justext", "wcxb-dev"), Some(0.662));
        assert_eq!(t.get("ce_score", "trafilatura", "wcxb-dev"), Some(0.783));
        assert_eq!(t.get("ce_score", "justext", "cleaneval"), None);
        assert_eq!(t.means["lcs_f1"]["trafilatura"], 0.857);
        assert_eq!(t.tools, vec!["trafilatura", "justext"]);
        assert_eq!(t.datasets(), vec!["cleaneval", "wcxb-dev"]);
        assert_eq!(t.scores.len(), 2, "the speed table is not a metric");
    }

    #[test]
    fn bad_tables_name_the_line() {
        let e = parse("## lcs_f1\n| tool | a |\n|---|---|\n| x | zero |\n").unwrap_err();
        assert!(e.contains("line 4") && e.contains("zero"), "{e}");
        assert!(parse("# nothing here\n").is_err());
    }

    #[test]
    fn parses_the_real_peers_file_when_present() {
        // The same rule as the integration tests' `bench_root` (tests/common/mod.rs).
        let root = std::env::var_os("SIGHTLINE_BENCH")
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/bench"));
        let path = root.join("PEERS.md");
        if !path.is_file() {
            assert!(
                std::env::var("SIGHTLINE_REQUIRE_BENCH").as_deref() != Ok("1"),
                "{} not found and SIGHTLINE_REQUIRE_BENCH=1: set SIGHTLINE_BENCH=DIR",
                path.display()
            );
            // Straight to stderr: libtest would capture `eprintln!` of a passing test.
            use std::io::Write as _;
            let _ = writeln!(
                std::io::stderr(),
                "skipped: no benchmark at {} (set SIGHTLINE_BENCH=DIR to run this test)",
                root.display()
            );
            return;
        }
        let t = PeerTable::load(&path).unwrap();
        assert_eq!(
            t.datasets(),
            vec!["cleaneval", "l3s-gn1", "readability", "wcxb-dev"]
        );
        assert_eq!(t.scores.len(), 5);
        assert_eq!(t.get("lcs_f1", "trafilatura", "cleaneval"), Some(0.869));
        assert_eq!(
            t.get("bow_f1", "boilerpy3-lenient", "wcxb-dev"),
            Some(0.688)
        );
    }
}
