//! The pass-2 (smoothing) features of `learned`: for each unit, the pass-1 probabilities of
//! its neighbours in reading order and of the units sharing an ancestor, their running maxima
//! and the page's rank, then a few pass-1 features (names in
//! [`super::schema::PASS2_FEATURES`]).

use super::features::PageFeatures;
use super::schema::{feature_index, PASS2_FEATURES};
use crate::snapshot::NodeId;

/// Pass-2 feature rows (row-major, `PASS2_FEATURES.len()` each) from the pass-1
/// probabilities `p1` of the page's units.
pub fn pass2_features(pf: &PageFeatures, p1: &[f64]) -> Vec<f64> {
    let nu = pf.units.len();
    let m = PASS2_FEATURES.len();
    let mut out = Vec::with_capacity(nu * m);
    if nu == 0 {
        return out;
    }
    let copied: Vec<usize> = PASS2_FEATURES[17..]
        .iter()
        .map(|n| feature_index(n))
        .collect();
    let chars: Vec<f64> = (0..nu).map(|k| pf.row(k)[0].exp_m1().max(1.0)).collect();
    // Character-weighted mean of p1 over a window.
    let mut cum_w = vec![0.0; nu + 1];
    let mut cum_wp = vec![0.0; nu + 1];
    for k in 0..nu {
        cum_w[k + 1] = cum_w[k] + chars[k];
        cum_wp[k + 1] = cum_wp[k] + chars[k] * p1[k];
    }
    let window = |k: usize, r: usize| {
        let (a, z) = (k.saturating_sub(r), (k + r + 1).min(nu));
        (cum_wp[z] - cum_wp[a]) / (cum_w[z] - cum_w[a]).max(1e-9)
    };
    // Character-weighted mean p1 of the units under each ancestor level of the block.
    let group = |level: usize| -> Vec<f64> {
        let key: Vec<NodeId> = pf.units.iter().map(|u| u.ancestors[level - 1]).collect();
        let mut sums: std::collections::HashMap<NodeId, (f64, f64)> = Default::default();
        for k in 0..nu {
            let e = sums.entry(key[k]).or_default();
            e.0 += chars[k];
            e.1 += chars[k] * p1[k];
        }
        (0..nu)
            .map(|k| {
                let (w, wp) = sums[&key[k]];
                wp / w.max(1e-9)
            })
            .collect()
    };
    let g1 = group(1);
    let g2 = group(2);
    let g3 = group(3);
    let max = p1.iter().copied().fold(0.0, f64::max);
    let kept_share = (0..nu)
        .filter(|&k| p1[k] >= 0.5)
        .map(|k| chars[k])
        .sum::<f64>()
        / cum_w[nu].max(1e-9);
    let mut order: Vec<usize> = (0..nu).collect();
    order.sort_by(|&a, &b| p1[b].total_cmp(&p1[a]).then(a.cmp(&b)));
    let mut rank = vec![0.0; nu];
    for (r, &k) in order.iter().enumerate() {
        rank[k] = r as f64 / nu as f64;
    }
    // Running maxima before and after each unit.
    let mut before_max = vec![0.0; nu];
    let mut after_max = vec![0.0; nu];
    let mut m_ = 0.0f64;
    for k in 0..nu {
        before_max[k] = m_;
        m_ = m_.max(p1[k]);
    }
    m_ = 0.0;
    for k in (0..nu).rev() {
        after_max[k] = m_;
        m_ = m_.max(p1[k]);
    }
    let at = |k: isize| {
        if k >= 0 && (k as usize) < nu {
            p1[k as usize]
        } else {
            -1.0
        }
    };
    for k in 0..nu {
        let ki = k as isize;
        out.push(p1[k]);
        out.push(at(ki - 1));
        out.push(at(ki + 1));
        out.push(at(ki - 2));
        out.push(at(ki + 2));
        out.push(at(ki - 3));
        out.push(at(ki + 3));
        out.push(window(k, 5));
        out.push(window(k, 15));
        out.push(g1[k]);
        out.push(g2[k]);
        out.push(g3[k]);
        out.push(max);
        out.push(kept_share);
        out.push(rank[k]);
        out.push(before_max[k]);
        out.push(after_max[k]);
        let row = pf.row(k);
        for &c in &copied {
            out.push(row[c]);
        }
    }
    debug_assert_eq!(out.len(), nu * m);
    out
}
