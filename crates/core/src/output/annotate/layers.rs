//! Which nodes get what: the removed subtrees, the heat cells and their ramp, and the heat,
//! probability and block-tree layers drawn from an extraction.

use super::canvas::Canvas;
use super::{Paint, BLOCK_DEPTH, GROUP_COLOURS, GROUP_FILL_ALPHA, HEAT_ALPHA, HEAT_STOPS};
use crate::extract::{Algorithm, Details, Extraction};
use crate::snapshot::{NodeId, Rect, Tree};

/// The removed subtrees to shade, in document order: rendered elements with text and no
/// kept node in their subtree, whose parent is `<body>` or holds kept content.
pub fn removed(tree: &Tree, kept: &[bool]) -> Vec<NodeId> {
    let n = tree.len();
    let mut holds_kept: Vec<bool> = (0..n)
        .map(|i| kept.get(i).copied().unwrap_or(false))
        .collect();
    for i in (1..n).rev() {
        if holds_kept[i] {
            if let Some(p) = tree.parent(i) {
                holds_kept[p] = true;
            }
        }
    }
    (1..n)
        .filter(|&i| {
            let node = tree.node(i);
            node.is_element()
                && node.rendered
                && tree.chars[i] > 0
                && !holds_kept[i]
                && tree.parent(i).is_some_and(|p| p == 0 || holds_kept[p])
        })
        .collect()
}

/// The heat cells: rendered elements with a non-blank text child of their own.
pub fn heat_cells(tree: &Tree) -> Vec<NodeId> {
    (0..tree.len())
        .filter(|&i| {
            let node = tree.node(i);
            node.is_element()
                && node.rendered
                && tree.children[i]
                    .iter()
                    .any(|&k| tree.node(k).is_text() && tree.own_chars[k] > 0)
        })
        .collect()
}

/// Rank normalization: for each score its average rank among all, divided by n − 1, so the
/// lowest is 0 and the highest 1; ties share their average rank; a single score is 0.5.
/// NaN scores rank lowest.
pub fn rank01(scores: &[f64]) -> Vec<f64> {
    let n = scores.len();
    if n == 1 {
        return vec![0.5];
    }
    let key = |v: f64| if v.is_nan() { f64::NEG_INFINITY } else { v };
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| key(scores[a]).total_cmp(&key(scores[b])));
    let mut out = vec![0.0; n];
    let mut start = 0;
    while start < n {
        let mut end = start + 1;
        while end < n && key(scores[order[end]]) == key(scores[order[start]]) {
            end += 1;
        }
        let avg = (start + end - 1) as f64 / 2.0;
        for &i in &order[start..end] {
            out[i] = avg / (n - 1) as f64;
        }
        start = end;
    }
    out
}

/// The heat ramp at `t` in [0, 1]: blue at 0, yellow at 0.5, red at 1, linear between.
pub fn ramp(t: f64) -> [u8; 3] {
    let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
    let (a, b, f) = if t < 0.5 {
        (HEAT_STOPS[0], HEAT_STOPS[1], t * 2.0)
    } else {
        (HEAT_STOPS[1], HEAT_STOPS[2], (t - 0.5) * 2.0)
    };
    let mix = |x: u8, y: u8| (x as f64 + (y as f64 - x as f64) * f).round() as u8;
    [mix(a[0], b[0]), mix(a[1], b[1]), mix(a[2], b[2])]
}

/// Fill every heat cell with the ramp colour of its density's rank. False when the
/// extraction has no density scores.
pub(super) fn draw_heat(canvas: &mut Canvas, tree: &Tree, ex: &Extraction) -> bool {
    let Some(scores) = &ex.scores else {
        return false;
    };
    let density = match ex.algorithm {
        Algorithm::Td => &scores.td,
        Algorithm::Htd => &scores.htd,
        _ => &scores.ctd,
    };
    let cells = heat_cells(tree);
    let values: Vec<f64> = cells
        .iter()
        .map(|&i| density.get(i).copied().unwrap_or(0.0))
        .collect();
    for (&i, t) in cells.iter().zip(rank01(&values)) {
        let rgb = ramp(t);
        canvas.fill(
            tree.node(i).rect,
            Paint {
                rgb,
                alpha: HEAT_ALPHA,
            },
        );
    }
    true
}

/// Fill each text unit's block box with the ramp colour of its content probability (the
/// `learned` algorithm's `heat`, `[x, y, w, h, p]` per unit). False for other algorithms.
pub(super) fn draw_probability(canvas: &mut Canvas, details: &Details) -> bool {
    let Details::Learned(d) = details else {
        return false;
    };
    for &[x, y, w, h, p] in &d.heat {
        if !p.is_finite() {
            continue;
        }
        canvas.fill(
            Rect { x, y, w, h },
            Paint {
                rgb: ramp(p.clamp(0.0, 1.0)),
                alpha: HEAT_ALPHA,
            },
        );
    }
    true
}

/// Outline the block tree of the `blocks` algorithm from its typed details (each block's
/// box, parent and variation group), parents before children. False for other algorithms.
pub(super) fn draw_blocks(canvas: &mut Canvas, details: &Details) -> bool {
    let Details::Blocks(d) = details else {
        return false;
    };
    let mut depth = vec![0usize; d.blocks.len()];
    for (i, b) in d.blocks.iter().enumerate() {
        // Blocks are in pre-order, so a parent's depth is known before its children's.
        if let Some(p) = b.parent.filter(|&p| p < i) {
            depth[i] = depth[p] + 1;
        }
        let [x, y, w, h] = b.bbox;
        let r = Rect { x, y, w, h };
        match b.variation_group {
            Some(g) => {
                let rgb = GROUP_COLOURS[g % GROUP_COLOURS.len()];
                canvas.fill(
                    r,
                    Paint {
                        rgb,
                        alpha: GROUP_FILL_ALPHA,
                    },
                );
                canvas.outline(r, 2, paint_of(rgb));
            }
            None => canvas.outline(r, 1, paint_of(BLOCK_DEPTH[depth[i] % BLOCK_DEPTH.len()])),
        }
    }
    true
}

/// An opaque paint of `rgb`.
pub(super) fn paint_of(rgb: [u8; 3]) -> Paint {
    Paint { rgb, alpha: 1.0 }
}
