//! The CI quality gate: per algorithm × dataset LCS-F1 floors in a committed baseline file.
//! A run passes when every measured F1 is at least its floor. `update` writes new floors
//! (measured F1 minus the tolerance, so noise does not fail the next run) and refuses to lower
//! any floor unless regression is explicitly allowed.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::report::Results;

/// The baseline file (`quality/baseline.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Baseline {
    /// How far below the measured F1 a floor is set by `update` (noise allowance).
    pub tolerance: f64,
    /// The command that measures the gated subset (documentation for humans).
    #[serde(default)]
    pub command: String,
    /// algorithm → dataset → minimum macro LCS F1.
    pub floors: BTreeMap<String, BTreeMap<String, f64>>,
}

/// Floors the results fall below: `(algorithm, dataset, floor, measured)`. A floor whose
/// algorithm × dataset was not measured counts as missed (measured NaN).
pub fn check(results: &Results, base: &Baseline) -> Vec<(String, String, f64, f64)> {
    let mut out = Vec::new();
    for (a, per) in &base.floors {
        for (d, &floor) in per {
            let got = results
                .summary(a, d)
                .map(|s| s.scores.lcs_f1)
                .unwrap_or(f64::NAN);
            if got.is_nan() || got < floor {
                out.push((a.clone(), d.clone(), floor, got));
            }
        }
    }
    out
}

/// New floors from `results`: measured F1 − tolerance, rounded down to 3 decimals. Returns the
/// floors that would go down as an error unless `allow_regression`.
pub fn update(
    results: &Results,
    base: &Baseline,
    allow_regression: bool,
) -> Result<Baseline, Vec<String>> {
    let mut next = base.clone();
    let mut lowered = Vec::new();
    for s in &results.summaries {
        let new = ((s.scores.lcs_f1 - base.tolerance) * 1000.0).floor() / 1000.0;
        let slot = next
            .floors
            .entry(s.algorithm.clone())
            .or_default()
            .entry(s.dataset.clone())
            .or_insert(f64::NEG_INFINITY);
        if new < *slot && !allow_regression {
            lowered.push(format!(
                "{} on {}: floor {:.3} would drop to {:.3}",
                s.algorithm, s.dataset, slot, new
            ));
            continue;
        }
        *slot = new.max(if allow_regression {
            f64::NEG_INFINITY
        } else {
            *slot
        });
    }
    if lowered.is_empty() {
        Ok(next)
    } else {
        Err(lowered)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::report::{PageResult, Results};
    use crate::eval::rescore::page_result;

    fn results(f1_text: &str) -> Results {
        let pages: Vec<PageResult> =
            vec![page_result("htd", "cleaneval", "1", Ok(f1_text), "a b c d")];
        Results::from_pages(pages, &BTreeMap::new())
    }

    fn base(floor: f64) -> Baseline {
        let mut floors = BTreeMap::new();
        floors.insert(
            "htd".to_string(),
            BTreeMap::from([("cleaneval".to_string(), floor)]),
        );
        Baseline {
            tolerance: 0.02,
            command: String::new(),
            floors,
        }
    }

    #[test]
    fn passes_at_or_above_the_floor_and_fails_below() {
        assert!(check(&results("a b c d"), &base(1.0)).is_empty());
        let miss = check(&results("a b"), &base(0.9));
        assert_eq!(miss.len(), 1);
        assert!((miss[0].3 - 2.0 / 3.0).abs() < 1e-9);
    }

    #[test]
    fn a_missing_measurement_fails() {
        let mut b = base(0.5);
        b.floors
            .get_mut("htd")
            .unwrap()
            .insert("wcxb-dev".into(), 0.5);
        assert_eq!(check(&results("a b c d"), &b).len(), 1);
    }

    #[test]
    fn update_raises_floors_and_refuses_to_lower_them() {
        let up = update(&results("a b c d"), &base(0.5), false).unwrap();
        assert_eq!(up.floors["htd"]["cleaneval"], 0.98);
        let err = update(&results("a b"), &base(0.9), false).unwrap_err();
        assert!(err[0].contains("would drop"), "{err:?}");
        let low = update(&results("a b"), &base(0.9), true).unwrap();
        assert!((low.floors["htd"]["cleaneval"] - 0.646).abs() < 1e-9);
    }
}
