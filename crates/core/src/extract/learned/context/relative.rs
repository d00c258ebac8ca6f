//! Page-relative features: a unit's size, link density, type size, width and left edge
//! compared with the rest of its page (ranks, z-scores, shares), so that one page's scale
//! (long or short paragraphs, large or small type, wide or narrow layout) does not matter.

use super::super::units::Unit;
use crate::snapshot::Tree;

/// The page-wide quantities the page-relative features of each unit read.
pub(super) struct Relative<'a> {
    tree: &'a Tree<'a>,
    units: &'a [Unit],
    chars: &'a [usize],
    page_chars: f64,
    vw: f64,
    chars_rank: Vec<f64>,
    chars_z: Vec<f64>,
    link_z: Vec<f64>,
    font_rank: Vec<f64>,
    /// The widest unit block (px, at least 1).
    widest: f64,
    /// The character-weighted median left edge of the page's text.
    text_x: f64,
}

impl<'a> Relative<'a> {
    /// `chars`, `link_ratio` and `font` are the units' character counts, link ratios and font
    /// sizes (px); `page_chars` their characters in all (at least 1), `vw` the viewport's
    /// width (at least 1).
    pub(super) fn new(
        tree: &'a Tree<'a>,
        units: &'a [Unit],
        chars: &'a [usize],
        link_ratio: &[f64],
        font: &[f64],
        page_chars: f64,
        vw: f64,
    ) -> Relative<'a> {
        let ln_chars: Vec<f64> = chars.iter().map(|&c| (c as f64).ln_1p()).collect();
        let widest = units
            .iter()
            .map(|u| tree.node(u.block).rect.w)
            .fold(0.0f64, f64::max)
            .max(1.0);
        let mut xs: Vec<(f64, usize)> = units
            .iter()
            .zip(chars)
            .map(|(u, &c)| (tree.node(u.block).rect.x, c))
            .collect();
        xs.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut acc = 0;
        let mut text_x = 0.0;
        for (x, c) in &xs {
            acc += c;
            if acc as f64 * 2.0 >= page_chars {
                text_x = *x;
                break;
            }
        }
        Relative {
            tree,
            units,
            chars,
            page_chars,
            vw,
            chars_rank: ranks(&ln_chars),
            chars_z: zscores(&ln_chars),
            link_z: zscores(link_ratio),
            font_rank: ranks(font),
            widest,
            text_x,
        }
    }

    /// The page-relative features of unit `k`, `chars_rank` … `x_rel_text`.
    pub(super) fn push(&self, k: usize, out: &mut Vec<f64>) {
        let r = self.tree.node(self.units[k].block).rect;
        out.push(self.chars_rank[k]);
        out.push(self.chars[k] as f64 / self.page_chars);
        out.push(self.chars_z[k]);
        out.push(self.link_z[k]);
        out.push(self.font_rank[k]);
        out.push(r.w / self.widest);
        out.push((r.x - self.text_x) / self.vw);
    }
}

/// Rank of each value among `v` in [0, 1] (ties get their mean rank).
fn ranks(v: &[f64]) -> Vec<f64> {
    let n = v.len();
    let mut idx: Vec<usize> = (0..n).collect();
    idx.sort_by(|&a, &b| v[a].total_cmp(&v[b]));
    let mut out = vec![0.0; n];
    let mut i = 0;
    while i < n {
        let mut j = i;
        while j + 1 < n && v[idx[j + 1]] == v[idx[i]] {
            j += 1;
        }
        let r = (i + j) as f64 / 2.0 / (n.max(2) - 1) as f64;
        for &k in &idx[i..=j] {
            out[k] = r;
        }
        i = j + 1;
    }
    out
}

/// z-scores of `v` (0 when the page has no spread).
fn zscores(v: &[f64]) -> Vec<f64> {
    let n = v.len().max(1) as f64;
    let mean = v.iter().sum::<f64>() / n;
    let var = v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n;
    let sd = var.sqrt();
    v.iter()
        .map(|x| {
            if sd > 1e-9 {
                ((x - mean) / sd).clamp(-5.0, 5.0)
            } else {
                0.0
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_and_z_scores() {
        assert_eq!(ranks(&[3.0, 1.0, 2.0, 2.0]), vec![1.0, 0.0, 0.5, 0.5]);
        let z = zscores(&[1.0, 3.0]);
        assert_eq!(z, vec![-1.0, 1.0]);
        assert_eq!(zscores(&[2.0, 2.0]), vec![0.0, 0.0]);
    }
}
