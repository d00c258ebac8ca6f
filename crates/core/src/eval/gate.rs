//! The CI quality gate: per algorithm × dataset floors in a committed baseline file
//! (`quality/baseline.json`), measured on a fixed stratified sample ([`super::sample`]).
//!
//! The default algorithm ([`crate::extract::DEFAULT_ALGORITHM`], what `sightline extract` runs
//! unless told otherwise) is gated on everything a user sees: LCS F1, precision and recall
//! (floors), failed pages and empty outputs (ceilings), and the number of pages scored (so a
//! changed sample cannot pass against floors set on another). The other algorithms are gated on
//! their F1 (and on any other bound their entry holds). A default algorithm without full floors
//! on a measured dataset is an error that says to run `scripts/quality-gate --update`.
//!
//! `update` writes new bounds from a run: scores minus the tolerance (rounded down to 3
//! decimals), counts plus the count slack. It refuses to loosen any existing bound (a lower
//! floor, a higher ceiling) unless regression is explicitly allowed.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::report::{Results, Summary};

/// The baseline file (`quality/baseline.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Baseline {
    /// How far below the measured F1, precision and recall `update` sets a floor (noise
    /// allowance).
    pub tolerance: f64,
    /// How many failed pages or empty outputs above the measured counts `update` allows (a
    /// page that times out on a loaded CI machine).
    #[serde(default)]
    pub count_slack: usize,
    /// The command that measures the gated sample (documentation for humans).
    #[serde(default)]
    pub command: String,
    /// algorithm → dataset → bounds.
    pub floors: BTreeMap<String, BTreeMap<String, Floor>>,
}

/// The bounds of one algorithm on one dataset. `f1` is always gated; each other bound only when
/// present (the default algorithm must have them all).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Floor {
    /// Minimum macro LCS F1.
    pub f1: f64,
    /// Minimum macro LCS precision.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub precision: Option<f64>,
    /// Minimum macro LCS recall.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recall: Option<f64>,
    /// Maximum number of failed pages (no snapshot).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_failures: Option<usize>,
    /// Maximum number of pages whose output held no token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_empty_outputs: Option<usize>,
    /// The number of scored pages the bounds were set on; a run must score exactly as many.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pages: Option<usize>,
}

impl Floor {
    /// Does this entry hold every bound the default algorithm needs?
    pub fn is_full(&self) -> bool {
        self.precision.is_some()
            && self.recall.is_some()
            && self.max_failures.is_some()
            && self.max_empty_outputs.is_some()
            && self.pages.is_some()
    }
}

/// One bound a run does not meet.
#[derive(Debug, Clone, PartialEq)]
pub struct Miss {
    pub algorithm: String,
    pub dataset: String,
    /// `LCS F1`, `precision`, `recall`, `failures`, `empty outputs` or `pages`.
    pub what: &'static str,
    /// The floor or ceiling.
    pub bound: f64,
    /// What the run measured (NaN when the algorithm × dataset was not measured).
    pub measured: f64,
}

impl fmt::Display for Miss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (a, d) = (&self.algorithm, &self.dataset);
        if self.measured.is_nan() {
            return write!(
                f,
                "{a} on {d}: not measured (the baseline has floors for it; run every algorithm \
                 on every dataset, as scripts/quality-gate does)"
            );
        }
        match self.what {
            "failures" | "empty outputs" => write!(
                f,
                "{a} on {d}: {} {} above the ceiling {}",
                self.measured, self.what, self.bound
            ),
            "pages" => write!(
                f,
                "{a} on {d}: {} pages scored, but the floors were set on {}: run the sample in \
                 the baseline's `command` (or re-baseline with --update)",
                self.measured, self.bound
            ),
            what => write!(
                f,
                "{a} on {d}: {what} {:.3} is below the floor {:.3}",
                self.measured, self.bound
            ),
        }
    }
}

/// Checks `results` against `base`. `default` names the default algorithm: it must have full
/// bounds (see [`Floor::is_full`]) on every dataset it was measured on, else the error says
/// which are missing and to run `--update`. Returns the bounds missed (empty: the gate passes).
pub fn check(results: &Results, base: &Baseline, default: &str) -> Result<Vec<Miss>, String> {
    let has_full = |d: &str| {
        base.floors
            .get(default)
            .and_then(|m| m.get(d))
            .is_some_and(Floor::is_full)
    };
    let lacking: Vec<&str> = measured_datasets(results, default)
        .into_iter()
        .filter(|d| !has_full(d))
        .collect();
    if !lacking.is_empty() || !base.floors.contains_key(default) {
        return Err(format!(
            "the baseline has no full floors (f1, precision, recall, max_failures, \
             max_empty_outputs, pages) for the default algorithm `{default}` on {}: run \
             `scripts/quality-gate --update` to measure and write them, review the diff, and \
             commit quality/baseline.json",
            if lacking.is_empty() {
                "any dataset".to_string()
            } else {
                lacking.join(", ")
            }
        ));
    }
    let mut out = Vec::new();
    for (a, per) in &base.floors {
        for (d, floor) in per {
            let Some(s) = results.summary(a, d) else {
                out.push(Miss {
                    algorithm: a.clone(),
                    dataset: d.clone(),
                    what: "LCS F1",
                    bound: floor.f1,
                    measured: f64::NAN,
                });
                continue;
            };
            let miss = |what, bound: f64, measured: f64| Miss {
                algorithm: a.clone(),
                dataset: d.clone(),
                what,
                bound,
                measured,
            };
            if let Some(n) = floor.pages {
                if n != s.scores.pages {
                    out.push(miss("pages", n as f64, s.scores.pages as f64));
                }
            }
            let lows = [
                ("LCS F1", Some(floor.f1), s.scores.lcs_f1),
                ("precision", floor.precision, s.scores.lcs_p),
                ("recall", floor.recall, s.scores.lcs_r),
            ];
            for (what, bound, got) in lows {
                if let Some(b) = bound {
                    if got.is_nan() || got < b {
                        out.push(miss(what, b, got));
                    }
                }
            }
            let highs = [
                ("failures", floor.max_failures, s.failures),
                ("empty outputs", floor.max_empty_outputs, s.empty_outputs),
            ];
            for (what, bound, got) in highs {
                if let Some(b) = bound {
                    if got > b {
                        out.push(miss(what, b as f64, got as f64));
                    }
                }
            }
        }
    }
    Ok(out)
}

/// Datasets on which `algorithm` was measured, in run order.
fn measured_datasets<'a>(results: &'a Results, algorithm: &str) -> Vec<&'a str> {
    results
        .summaries
        .iter()
        .filter(|s| s.algorithm == algorithm)
        .map(|s| s.dataset.as_str())
        .collect()
}

/// `x` rounded down to 3 decimals (floors never round up past a measurement).
fn floor3(x: f64) -> f64 {
    // The small epsilon keeps 0.98 (stored as 0.97999…) at 0.98.
    ((x * 1000.0) + 1e-9).floor() / 1000.0
}

/// The bounds a run sets: scores minus the tolerance, counts plus the slack. `full` adds
/// precision, recall and the count ceilings to the F1 floor.
fn measured_floor(s: &Summary, base: &Baseline, full: bool) -> Floor {
    let low = |x: f64| floor3(x - base.tolerance).max(0.0);
    Floor {
        f1: low(s.scores.lcs_f1),
        precision: full.then(|| low(s.scores.lcs_p)),
        recall: full.then(|| low(s.scores.lcs_r)),
        max_failures: full.then_some(s.failures + base.count_slack),
        max_empty_outputs: full.then_some(s.empty_outputs + base.count_slack),
        pages: Some(s.scores.pages),
    }
}

/// The bounds `new` would loosen relative to `old`, as sentences.
fn loosened(old: &Floor, new: &Floor) -> Vec<String> {
    let mut out = Vec::new();
    let lows = [
        ("F1", Some(old.f1), Some(new.f1)),
        ("precision", old.precision, new.precision),
        ("recall", old.recall, new.recall),
    ];
    for (what, o, n) in lows {
        if let (Some(o), Some(n)) = (o, n) {
            if n < o {
                out.push(format!("{what} floor {o:.3} would drop to {n:.3}"));
            }
        }
    }
    let highs = [
        ("failures", old.max_failures, new.max_failures),
        (
            "empty outputs",
            old.max_empty_outputs,
            new.max_empty_outputs,
        ),
    ];
    for (what, o, n) in highs {
        if let (Some(o), Some(n)) = (o, n) {
            if n > o {
                out.push(format!("{what} ceiling {o} would rise to {n}"));
            }
        }
    }
    out
}

/// New bounds from `results`. The default algorithm, and any algorithm × dataset whose entry
/// already has precision, gets full bounds; the others an F1 floor. Bounds of algorithm ×
/// datasets not in `results` are kept. Unless `allow_regression`, a bound that would loosen is
/// an error (every such bound is listed) and nothing is written.
pub fn update(
    results: &Results,
    base: &Baseline,
    default: &str,
    allow_regression: bool,
) -> Result<Baseline, Vec<String>> {
    let mut next = base.clone();
    let mut refused = Vec::new();
    for s in &results.summaries {
        let old = base
            .floors
            .get(&s.algorithm)
            .and_then(|m| m.get(&s.dataset));
        let full = s.algorithm == default || old.is_some_and(|f| f.precision.is_some());
        let new = measured_floor(s, base, full);
        if let Some(old) = old {
            let worse = loosened(old, &new);
            if !worse.is_empty() && !allow_regression {
                refused.extend(
                    worse
                        .into_iter()
                        .map(|w| format!("{} on {}: {w}", s.algorithm, s.dataset)),
                );
                continue;
            }
        }
        next.floors
            .entry(s.algorithm.clone())
            .or_default()
            .insert(s.dataset.clone(), new);
    }
    if refused.is_empty() {
        Ok(next)
    } else {
        Err(refused)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::report::{PageResult, Results};
    use crate::eval::rescore::page_result;

    /// One htd page on cleaneval with gold `a b c d`.
    fn results(out: &str) -> Results {
        results_of(&[("htd", "cleaneval", Ok(out))])
    }

    fn results_of(pages: &[(&str, &str, Result<&str, String>)]) -> Results {
        let pages: Vec<PageResult> = pages
            .iter()
            .enumerate()
            .map(|(i, (a, d, o))| page_result(a, d, &i.to_string(), o.clone(), "a b c d"))
            .collect();
        Results::from_pages(pages, &BTreeMap::new())
    }

    fn full(f1: f64, p: f64, r: f64) -> Floor {
        Floor {
            f1,
            precision: Some(p),
            recall: Some(r),
            max_failures: Some(0),
            max_empty_outputs: Some(0),
            pages: Some(1),
        }
    }

    fn f1_only(f1: f64) -> Floor {
        Floor {
            f1,
            precision: None,
            recall: None,
            max_failures: None,
            max_empty_outputs: None,
            pages: None,
        }
    }

    impl Floor {
        fn with_pages(self, n: usize) -> Floor {
            Floor {
                pages: Some(n),
                ..self
            }
        }
    }

    fn base(floors: &[(&str, &str, Floor)]) -> Baseline {
        let mut m: BTreeMap<String, BTreeMap<String, Floor>> = BTreeMap::new();
        for (a, d, f) in floors {
            m.entry(a.to_string())
                .or_default()
                .insert(d.to_string(), *f);
        }
        Baseline {
            tolerance: 0.02,
            count_slack: 1,
            command: String::new(),
            floors: m,
        }
    }

    #[test]
    fn passes_at_or_above_the_floors_and_names_each_miss() {
        let b = base(&[("htd", "cleaneval", full(1.0, 1.0, 1.0))]);
        assert!(check(&results("a b c d"), &b, "htd").unwrap().is_empty());
        // `a b`: P = 1, R = 0.5, F1 = 2/3: F1 and recall miss, precision holds.
        let miss = check(&results("a b"), &b, "htd").unwrap();
        let whats: Vec<&str> = miss.iter().map(|m| m.what).collect();
        assert_eq!(whats, vec!["LCS F1", "recall"]);
        assert!((miss[0].measured - 2.0 / 3.0).abs() < 1e-9);
        assert_eq!(
            miss[1].to_string(),
            "htd on cleaneval: recall 0.500 is below the floor 1.000"
        );
        // Precision alone: `a b c d x x x x` has P = 0.5, R = 1.
        let b = base(&[("htd", "cleaneval", full(0.0, 0.9, 0.9))]);
        let miss = check(&results("a b c d x x x x"), &b, "htd").unwrap();
        assert_eq!(miss.len(), 1);
        assert_eq!(miss[0].what, "precision");
    }

    #[test]
    fn failures_empty_outputs_and_sample_size_are_bounded() {
        let b = base(&[("htd", "cleaneval", full(0.0, 0.0, 0.0))]);
        let failed = results_of(&[("htd", "cleaneval", Err("timeout".into()))]);
        let miss = check(&failed, &b, "htd").unwrap();
        assert_eq!(miss.len(), 1, "{miss:?}");
        assert_eq!(
            miss[0].to_string(),
            "htd on cleaneval: 1 failures above the ceiling 0"
        );
        let empty = check(&results(""), &b, "htd").unwrap();
        assert_eq!(empty.len(), 1);
        assert_eq!(empty[0].what, "empty outputs");
        let two = results_of(&[
            ("htd", "cleaneval", Ok("a b c d")),
            ("htd", "cleaneval", Ok("a b c d")),
        ]);
        let miss = check(&two, &b, "htd").unwrap();
        assert_eq!(miss.len(), 1);
        assert_eq!(miss[0].what, "pages");
        assert!(miss[0].to_string().contains("set on 1"), "{}", miss[0]);
    }

    #[test]
    fn other_algorithms_are_gated_on_f1_and_a_missing_measurement_fails() {
        let b = base(&[
            ("htd", "cleaneval", full(0.0, 0.0, 0.0)),
            ("ctd", "cleaneval", f1_only(0.9)),
            ("htd", "wcxb-dev", full(0.0, 0.0, 0.0)),
        ]);
        let r = results_of(&[
            ("htd", "cleaneval", Ok("a b c d")),
            ("ctd", "cleaneval", Ok("a b")),
        ]);
        let miss = check(&r, &b, "htd").unwrap();
        assert_eq!(miss.len(), 2, "{miss:?}");
        assert_eq!(
            (miss[0].algorithm.as_str(), miss[0].what),
            ("ctd", "LCS F1")
        );
        assert!(miss[1].measured.is_nan() && miss[1].dataset == "wcxb-dev");
        assert!(miss[1].to_string().contains("not measured"));
    }

    #[test]
    fn a_default_without_full_floors_is_an_error_naming_update() {
        let b = base(&[("htd", "cleaneval", full(0.5, 0.5, 0.5))]);
        let r = results_of(&[
            ("htd", "cleaneval", Ok("a b c d")),
            ("ctd", "cleaneval", Ok("a b c d")),
        ]);
        let e = check(&r, &b, "ctd").unwrap_err();
        assert!(
            e.contains("`ctd`") && e.contains("cleaneval") && e.contains("--update"),
            "{e}"
        );
        // An F1-only entry is not enough for the default either.
        let b = base(&[("ctd", "cleaneval", f1_only(0.5))]);
        assert!(check(&r, &b, "ctd").is_err());
        // After --update the default has full floors and the gate passes.
        let next = update(&r, &b, "ctd", false).unwrap();
        assert!(next.floors["ctd"]["cleaneval"].is_full());
        assert_eq!(next.floors["htd"]["cleaneval"], f1_only(0.98).with_pages(1));
        assert!(check(&r, &next, "ctd").unwrap().is_empty());
        // No floors at all for the default: an error even when it was not measured.
        let e = check(&r, &base(&[]), "learned").unwrap_err();
        assert!(e.contains("`learned`") && e.contains("any dataset"), "{e}");
    }

    #[test]
    fn update_sets_floors_below_the_measurement_and_refuses_to_loosen_them() {
        let loose = Floor {
            max_failures: Some(5),
            max_empty_outputs: Some(5),
            ..full(0.5, 0.5, 0.5)
        };
        let b = base(&[("htd", "cleaneval", loose)]);
        let up = update(&results("a b c d"), &b, "htd", false).unwrap();
        let f = up.floors["htd"]["cleaneval"];
        assert_eq!(
            (f.f1, f.precision, f.recall),
            (0.98, Some(0.98), Some(0.98))
        );
        assert_eq!(
            (f.max_failures, f.max_empty_outputs, f.pages),
            (Some(1), Some(1), Some(1))
        );

        // `a b`: F1 2/3 − 0.02 = 0.6466… → 0.646 (rounded down), recall 0.48: both lower.
        let err = update(&results("a b"), &up, "htd", false).unwrap_err();
        assert_eq!(err.len(), 2, "{err:?}");
        assert!(
            err[0].contains("F1 floor 0.980 would drop to 0.646"),
            "{err:?}"
        );
        assert!(err[1].contains("recall"), "{err:?}");
        let low = update(&results("a b"), &up, "htd", true).unwrap();
        assert_eq!(low.floors["htd"]["cleaneval"].f1, 0.646);

        // A failure raises the failures ceiling: refused too.
        let failed = results_of(&[("htd", "cleaneval", Err("timeout".into()))]);
        let b0 = base(&[("htd", "cleaneval", full(0.0, 0.0, 0.0))]);
        let err = update(&failed, &b0, "htd", false).unwrap_err();
        assert!(
            err.iter()
                .any(|e| e.contains("failures ceiling 0 would rise to 2")),
            "{err:?}"
        );

        // A non-default algorithm new to the baseline gets an F1 floor only.
        let r = results_of(&[
            ("htd", "cleaneval", Ok("a b c d")),
            ("td", "cleaneval", Ok("a b c d")),
        ]);
        let up = update(&r, &b, "htd", false).unwrap();
        assert_eq!(up.floors["td"]["cleaneval"].precision, None);
        assert_eq!(up.floors["td"]["cleaneval"].f1, 0.98);
    }

    #[test]
    fn the_committed_baseline_gates_the_default_algorithm() {
        let text = include_str!("../../../../quality/baseline.json");
        let b: Baseline = serde_json::from_str(text).expect("quality/baseline.json parses");
        let default = crate::extract::DEFAULT_ALGORITHM.name();
        let per = b.floors.get(default).unwrap_or_else(|| {
            panic!(
                "quality/baseline.json has no floors for the default algorithm `{default}`: \
                 run scripts/quality-gate --update and commit the file"
            )
        });
        for d in crate::eval::bench::DATASETS {
            let f = per
                .get(d)
                .unwrap_or_else(|| panic!("{default} on {d}: no floors"));
            assert!(
                f.is_full(),
                "{default} on {d}: not every bound: {f:?}; run --update"
            );
        }
    }
}
