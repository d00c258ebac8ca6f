//! The text-density family of Song, Sun & Liao (2013): Text Density (eq. 1), Composite Text
//! Density (eq. 2), Hybrid Text Density (eq. 4), DensitySum (eq. 5), the threshold of §3.5.2
//! and ExtractContent (Algorithm 2); plus the smoothing comparator CECTD-S (§4.1.3).
//!
//! Details the paper leaves to its reference implementation (Sun's ContentExtraction code)
//! follow that code and are documented in [`DensityParams`]:
//! - the threshold is the minimum density on the path from the maximum-DensitySum node up to
//!   and including `<body>` (`GetThreshold`);
//! - ExtractContent marks the maximum-DensitySum node of the subtree of every node whose
//!   density reaches the threshold and whose ancestors all did (`MarkContent`);
//! - a marked node keeps its whole subtree; nothing else is output (`CleanTreeByMark`).

use super::params::DensityParams;
use super::visual::VisualFrame;
use super::{Algorithm, DensityScores, Extraction};
use crate::snapshot::{NodeId, Tree};

/// Counts of Song et al. §3.2-3.3 for every node, after optionally dropping hidden nodes.
#[derive(Debug, Clone)]
pub struct Counts {
    /// C_i
    pub c: Vec<f64>,
    /// T_i
    pub t: Vec<f64>,
    /// LC_i
    pub lc: Vec<f64>,
    /// LT_i
    pub lt: Vec<f64>,
    /// Whether the node takes part (false for hidden nodes when `drop_hidden`).
    pub active: Vec<bool>,
}

impl Counts {
    /// The tree's counts; with `drop_hidden` (`drop_fixed`), non-rendered (fixed-position)
    /// nodes and their subtrees count 0.
    pub fn of(tree: &Tree, p: &DensityParams) -> Counts {
        let n = tree.len();
        let f = |v: &Vec<usize>| v.iter().map(|&x| x as f64).collect::<Vec<f64>>();
        if !p.drop_hidden && !p.drop_fixed {
            return Counts {
                c: f(&tree.chars),
                t: f(&tree.tags),
                lc: f(&tree.link_chars),
                lt: f(&tree.link_tags),
                active: vec![true; n],
            };
        }
        let mut active = vec![true; n];
        for i in 0..n {
            let parent_active = tree.parent(i).is_none_or(|q| active[q]);
            let nd = tree.node(i);
            let hidden = p.drop_hidden && !nd.rendered;
            let fixed = p.drop_fixed && nd.position == "fixed";
            active[i] = parent_active && (i == 0 || !(hidden || fixed));
        }
        let mut c = vec![0.0; n];
        let mut t = vec![0.0; n];
        let mut lc = vec![0.0; n];
        let mut lt = vec![0.0; n];
        for i in (0..n).rev() {
            if !active[i] {
                continue;
            }
            let nd = tree.node(i);
            c[i] += tree.own_chars[i] as f64;
            if nd.link {
                lc[i] += tree.own_chars[i] as f64;
            }
            if let Some(q) = tree.parent(i) {
                c[q] += c[i];
                lc[q] += lc[i];
                if nd.is_element() {
                    t[q] += t[i] + 1.0;
                    lt[q] += lt[i]
                        + if crate::snapshot::is_link_tag(&nd.tag) {
                            1.0
                        } else {
                            0.0
                        };
                }
            }
        }
        Counts {
            c,
            t,
            lc,
            lt,
            active,
        }
    }
}

fn nz(x: f64, p: &DensityParams) -> f64 {
    if x == 0.0 {
        p.zero_denominator
    } else {
        x
    }
}

/// Text Density, eq. 1: TD_i = C_i / T_i, T_i = 0 set to 1.
pub fn text_density(c: f64, t: f64, p: &DensityParams) -> f64 {
    c / nz(t, p)
}

/// Composite Text Density, eq. 2 (as defined in Sun, Song & Liao, SIGIR 2011):
/// CTD_i = (C_i/T_i) · log_{ln((C_i/¬LC_i)·LC_i + (LC_b/C_b)·C_i + e)} ((C_i/LC_i)·(T_i/LT_i)),
/// ¬LC_i = C_i − LC_i, every zero denominator set to 1. The change of base puts ln(ln(·)) in a
/// denominator too; it is 0 only when LC_i = 0 on a page with no link text at all (the base
/// is then exactly e), and is set to 1 like every other zero denominator — the paper's own
/// reading gives such pages "an infinite density" (§3.3). A node whose text is all link text
/// gets 0 (§3.3: "a node's density will be zero if there are only hyperlinks in its subtree").
/// `ratio_b` = LC_b / C_b of `<body>`.
pub fn composite_density(c: f64, t: f64, lc: f64, lt: f64, ratio_b: f64, p: &DensityParams) -> f64 {
    if c <= 0.0 || lc >= c {
        return 0.0;
    }
    let base = (c / nz(c - lc, p)) * lc + ratio_b * c + std::f64::consts::E;
    let num = ((c / nz(lc, p)) * (nz(t, p) / nz(lt, p))).ln();
    (c / nz(t, p)) * num / nz(base.ln().ln(), p)
}

/// Hybrid Text Density, eq. 4: eq. 2 with C_i and C_b replaced by the Hybrid CharNumbers HC_i
/// and HC_b, and T_i = 0 adapted to HC_i / C_i (§3.4.2). `ratio_b` = LC_b / HC_b.
pub fn hybrid_density(
    c: f64,
    hc: f64,
    t: f64,
    lc: f64,
    lt: f64,
    ratio_b: f64,
    p: &DensityParams,
) -> f64 {
    if c <= 0.0 || hc <= 0.0 || lc >= c {
        return 0.0;
    }
    let t = if t == 0.0 { hc / c } else { t };
    let base = (hc / nz(c - lc, p)) * lc + ratio_b * hc + std::f64::consts::E;
    let num = ((hc / nz(lc, p)) * (t / nz(lt, p))).ln();
    let v = (hc / t) * num / nz(base.ln().ln(), p);
    if p.clamp_negative {
        v.max(0.0)
    } else {
        v
    }
}

/// All scores of one page.
#[derive(Debug, Clone)]
pub struct Scored {
    pub scores: DensityScores,
    /// The density the algorithm decides with (TD, CTD or HTD; smoothed CTD for CECTD-S).
    pub density: Vec<f64>,
    /// The node with the maximum DensitySum.
    pub max_node: NodeId,
    /// The threshold of §3.5.2.
    pub threshold: f64,
    pub counts: Counts,
}

/// Compute TD, CTD, VI, HTD and the DensitySum of the chosen density for every node.
/// Phases: counts → visual importance and Hybrid CharNumbers → TD, CTD, HTD → DensitySum →
/// maximum-DensitySum node and threshold.
pub fn score(tree: &Tree, algorithm: Algorithm, p: &DensityParams) -> Scored {
    let n = tree.len();
    let counts = Counts::of(tree, p);
    let Counts {
        c,
        t,
        lc,
        lt,
        active,
    } = &counts;

    // Visual importance of every node, and HC: VI·C on text leaves, summed upwards.
    let frame = VisualFrame::of(tree, p);
    let vi: Vec<f64> = (0..n)
        .map(|i| {
            if active[i] {
                frame.node_importance(tree, i)
            } else {
                0.0
            }
        })
        .collect();
    let mut hc = vec![0.0; n];
    for i in (0..n).rev() {
        if !active[i] {
            continue;
        }
        if tree.node(i).is_text() {
            hc[i] += vi[i] * tree.own_chars[i] as f64;
        }
        if let Some(q) = tree.parent(i) {
            hc[q] += hc[i];
        }
    }

    let ratio_c = lc[0] / nz(c[0], p);
    let ratio_h = lc[0] / nz(hc[0], p);
    let td: Vec<f64> = (0..n).map(|i| text_density(c[i], t[i], p)).collect();
    let ctd: Vec<f64> = (0..n)
        .map(|i| composite_density(c[i], t[i], lc[i], lt[i], ratio_c, p))
        .collect();
    let htd: Vec<f64> = (0..n)
        .map(|i| hybrid_density(c[i], hc[i], t[i], lc[i], lt[i], ratio_h, p))
        .collect();

    let mut density = match algorithm {
        Algorithm::Td => td.clone(),
        Algorithm::Htd => htd.clone(),
        _ => ctd.clone(),
    };
    for (d, &a) in density.iter_mut().zip(active) {
        if !a {
            *d = 0.0;
        }
    }
    let density_sum = density_sums(tree, &density, active, p);
    let max_node = (0..n)
        .filter(|&i| tree.node(i).is_element() && active[i])
        .fold(0, |best, i| {
            if density_sum[i] > density_sum[best] {
                i
            } else {
                best
            }
        });
    let threshold = std::iter::once(max_node)
        .chain(tree.ancestors(max_node))
        .map(|i| density[i])
        .fold(f64::INFINITY, f64::min);

    if algorithm == Algorithm::CtdSmooth {
        density = smooth(tree, &density, p);
    }
    Scored {
        scores: DensityScores {
            td,
            ctd,
            vi,
            htd,
            density_sum,
        },
        density,
        max_node,
        threshold,
        counts,
    }
}

/// DensitySum, eq. 5: the sum of the children's densities (text children included, see
/// [`DensityParams::text_children_in_density_sum`]); a childless node's is its own density,
/// as in the reference code.
pub fn density_sums(tree: &Tree, density: &[f64], active: &[bool], p: &DensityParams) -> Vec<f64> {
    (0..tree.len())
        .map(|i| {
            let kids: Vec<NodeId> = tree.children[i]
                .iter()
                .copied()
                .filter(|&k| {
                    active[k] && (p.text_children_in_density_sum || tree.node(k).is_element())
                })
                .collect();
            if kids.is_empty() {
                density[i]
            } else {
                kids.iter().map(|&k| density[k]).sum()
            }
        })
        .collect()
}

/// CECTD-S smoothing: each node's density averaged with its previous and next siblings with
/// [`DensityParams::smoothing_weights`]; a missing sibling drops out of the average.
pub fn smooth(tree: &Tree, density: &[f64], p: &DensityParams) -> Vec<f64> {
    let mut out = density.to_vec();
    let [wp, ws, wn] = p.smoothing_weights;
    for kids in &tree.children {
        for (j, &k) in kids.iter().enumerate() {
            let mut sum = ws * density[k];
            let mut w = ws;
            if j > 0 {
                sum += wp * density[kids[j - 1]];
                w += wp;
            }
            if j + 1 < kids.len() {
                sum += wn * density[kids[j + 1]];
                w += wn;
            }
            out[k] = sum / w;
        }
    }
    out
}

/// Run one density algorithm.
/// Phases: [`score`] → mark content (Algorithm 2 for the DensitySum variants, leaf descent on
/// smoothed densities for CECTD-S) → the extraction.
pub fn extract(tree: &Tree, algorithm: Algorithm, p: &DensityParams) -> Extraction {
    let s = score(tree, algorithm, p);
    let kept = if algorithm == Algorithm::CtdSmooth {
        mark_smoothed(tree, &s)
    } else {
        mark_density_sum(tree, &s)
    };
    let details = super::Details::Density(super::details::DensityDetails {
        max_density_sum_node: tree.css_path(s.max_node),
        max_density_sum: s.scores.density_sum[s.max_node],
    });
    Extraction {
        algorithm,
        kept,
        threshold: Some(s.threshold),
        scores: Some(s.scores),
        details,
    }
}

/// ExtractContent (Algorithm 2) with the reference code's MarkContent: the maximum-DensitySum
/// node's subtree is content; then, from `<body>` down, every node whose density reaches the
/// threshold marks the maximum-DensitySum node of its own subtree and passes the test on to
/// its children. Iterative, so a 10,000-deep DOM cannot overflow the stack.
fn mark_density_sum(tree: &Tree, s: &Scored) -> Vec<bool> {
    let n = tree.len();
    let ds = &s.scores.density_sum;
    // best[i]: the first node in document order with the maximum DensitySum in subtree(i).
    let mut best: Vec<NodeId> = (0..n).collect();
    for i in (0..n).rev() {
        for &k in &tree.children[i] {
            if s.counts.active[k] && ds[best[k]] > ds[best[i]] {
                best[i] = best[k];
            }
        }
    }
    let mut kept = vec![false; n];
    let mark = |root: NodeId, kept: &mut Vec<bool>| {
        if !kept[root] {
            for i in tree.subtree(root) {
                kept[i] = s.counts.active[i];
            }
        }
    };
    mark(s.max_node, &mut kept);
    let eps = f64::EPSILON;
    let mut stack = vec![0usize];
    while let Some(i) = stack.pop() {
        if kept[i] || !s.counts.active[i] || s.density[i] < s.threshold - eps {
            continue;
        }
        mark(best[i], &mut kept);
        stack.extend(tree.children[i].iter().rev());
    }
    kept
}

/// CECTD-S: data smoothing instead of DensitySum. The paper (§3.5.1, §4.1.3) describes the
/// comparator as labelling nodes "as content or noise just according to the threshold" after
/// "weighted averaging with sibling nodes"; the reading here: every leaf-level node (a text
/// node, or an element without element children) whose smoothed density reaches the
/// threshold is content with its subtree. The threshold is the one of §3.5.2, so the variants
/// differ only in how nodes are selected.
fn mark_smoothed(tree: &Tree, s: &Scored) -> Vec<bool> {
    let n = tree.len();
    let mut kept = vec![false; n];
    for i in 0..n {
        if !s.counts.active[i]
            || kept[i]
            || tree.children[i].iter().any(|&k| tree.node(k).is_element())
        {
            continue;
        }
        if s.density[i] >= s.threshold - f64::EPSILON && s.counts.c[i] > 0.0 {
            for j in tree.subtree(i) {
                kept[j] = s.counts.active[j];
            }
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::{rect, Snapshot, SnapshotBuilder};

    /// Example 3.1 of the paper (the FT page fragment).
    fn example_3_1() -> (Snapshot, [NodeId; 5]) {
        let mut b = SnapshotBuilder::new(1000.0);
        let r = rect(0.0, 0.0, 1000.0, 100.0);
        let main = b.el(0, "div", r);
        let article = b.el(main, "div", r);
        let header = b.el(article, "div", r);
        b.text(header, "\n      Lunch with the FT: Biz Stone");
        let body = b.el(article, "div", r);
        b.text(body, "\n      Though the value of the company was\n      ");
        let a = b.el(body, "a", r);
        b.text(a, "recently estimated at $3.7bn");
        (b.build(), [main, article, header, body, a])
    }

    #[test]
    fn example_3_2_text_densities() {
        let (s, ids) = example_3_1();
        let t = Tree::new(&s);
        let p = DensityParams::default();
        let expect = [
            (91, 4, 22.75),
            (91, 3, 91.0 / 3.0),
            (28, 1, 28.0),
            (63, 1, 63.0),
            (28, 1, 28.0),
        ];
        for (id, (c, tags, d)) in ids.iter().zip(expect) {
            assert_eq!(t.chars[*id], c, "chars of node {id}");
            assert_eq!(t.tags[*id].max(1), tags, "tags of node {id}");
            let td = text_density(t.chars[*id] as f64, t.tags[*id] as f64, &p);
            assert!((td - d).abs() < 1e-12, "TD of node {id}: {td} != {d}");
        }
        // The paper prints 30.33 for <div "article">.
        assert_eq!(format!("{:.2}", text_density(91.0, 3.0, &p)), "30.33");
    }

    #[test]
    fn ctd_of_all_link_node_is_zero_and_of_plain_text_positive() {
        let p = DensityParams::default();
        assert_eq!(composite_density(28.0, 0.0, 28.0, 0.0, 0.3, &p), 0.0);
        assert_eq!(
            composite_density(40.0, 2.0, 40.0, 1.0, 0.3, &p),
            0.0,
            "li > a > span"
        );
        assert!(composite_density(63.0, 1.0, 28.0, 1.0, 0.3, &p) > 0.0);
    }

    #[test]
    fn ctd_matches_numbers_worked_by_hand() {
        // story-body of Example 3.1: C = 63, T = 1, LC = 28, LT = 1, ¬LC = 35; <body> has
        // C_b = 91, LC_b = 28. By hand (eq. 2, every step rounded to 6 digits):
        //   base      = (63/35)·28 + (28/91)·63 + e = 50.4 + 19.384615 + 2.718282 = 72.502897
        //   ln(base)  = 4.283627,  ln ln(base) = 1.454800
        //   log arg   = (63/28)·(1/1) = 2.25,  ln 2.25 = 0.810930
        //   CTD       = (63/1) · 0.810930 / 1.454800 = 35.1173
        // Full precision (Python: 63*log(2.25)/log(log(63/35*28 + 28/91*63 + e))):
        // 35.11727021139057.
        let p = DensityParams::default();
        let got = composite_density(63.0, 1.0, 28.0, 1.0, 28.0 / 91.0, &p);
        assert!((got - 35.117_270_211_390_57).abs() < 1e-9, "{got}");
        // story-header: C = 28, T = 0 (→ 1), no link: base = (28/91)·28 + e = 11.333666,
        // ln ln = 0.886976, log arg = 28·1 → ln 28 = 3.332205; CTD = 28 · 3.332205 / 0.886976
        // = 105.1908 (Python: 105.19077921354466).
        let got = composite_density(28.0, 0.0, 0.0, 0.0, 28.0 / 91.0, &p);
        assert!((got - 105.190_779_213_544_66).abs() < 1e-9, "{got}");
    }

    #[test]
    fn ctd_on_a_page_without_links_is_finite() {
        // No link anywhere: base = 0 + 0 + e, ln ln e = 0 → set to 1 (a zero denominator);
        // CTD = (100/1) · ln(100/1 · 1/1) = 100 · 4.605170 = 460.517 (Python: 460.51701859880916).
        let p = DensityParams::default();
        let v = composite_density(100.0, 0.0, 0.0, 0.0, 0.0, &p);
        assert!((v - 460.517_018_598_809_16).abs() < 1e-9, "{v}");
    }

    /// Example 3.1 with boxes on a 1000 px page: main (Node_L) spans [0, 1000], so μ = 500 and
    /// σ = 500; story-header spans [200, 800], story-body [0, 1000], the link [250, 750].
    fn example_3_1_with_boxes() -> (Snapshot, [NodeId; 5]) {
        let mut b = SnapshotBuilder::new(1000.0);
        let full = rect(0.0, 0.0, 1000.0, 100.0);
        let main = b.el(0, "div", full);
        let article = b.el(main, "div", full);
        let header = b.el(article, "div", rect(200.0, 0.0, 600.0, 20.0));
        b.text(header, "\n      Lunch with the FT: Biz Stone");
        let body = b.el(article, "div", full);
        b.text(body, "\n      Though the value of the company was\n      ");
        let a = b.el(body, "a", rect(250.0, 20.0, 500.0, 20.0));
        b.text(a, "recently estimated at $3.7bn");
        (b.build(), [main, article, header, body, a])
    }

    /// Every score of Example 3.1 against an independent implementation of eq. 1-5
    /// (`tests/reference/song_density.py`: Python over the same tree, `math.erf` for Φ, no code
    /// shared with this crate; its printed values are pasted here):
    /// - VI (eq. 3) of the text leaves, from their tag's box: header Φ(0.6) − Φ(−0.6) =
    ///   0.451494, story-body Φ(1) − Φ(−1) = 0.682689, link Φ(0.5) − Φ(−0.5) = 0.382925;
    /// - HC = VI·C: header 28 · 0.451494 = 12.641825, story-body 35 · 0.682689 + 28 · 0.382925
    ///   = 23.894132 + 10.721898 = 34.616030, <body> 47.257855;
    /// - CTD (eq. 2) and HTD (eq. 4) with zero denominators set to 1, T = 0 → HC/C for HTD,
    ///   a negative HTD clamped to 0 (none is here), and 0 for an all-link node;
    /// - DensitySum (eq. 5): the sum over element and text children.
    #[test]
    fn example_3_1_scores_match_an_independent_implementation() {
        let (s, [main, article, header, body, a]) = example_3_1_with_boxes();
        let t = Tree::new(&s);
        let p = DensityParams::default();
        let close = |what: &str, got: f64, want: f64| {
            assert!(
                (got - want).abs() <= 1e-9 * want.abs().max(1.0),
                "{what}: {got} != {want}"
            );
        };
        // node, CTD, HTD, DensitySum of CTD, DensitySum of HTD
        let want = [
            (
                0,
                34.984_878_726_562_58,
                14.685_816_771_951_348,
                40.231_102_919_902_746,
                16.436_694_165_455_254,
            ),
            (
                main,
                40.231_102_919_902_746,
                16.436_694_165_455_254,
                47.625_098_589_354_3,
                18.614_186_701_010_368,
            ),
            (
                article,
                47.625_098_589_354_3,
                18.614_186_701_010_368,
                140.308_049_424_935_23,
                63.221_641_827_189_71,
            ),
            (
                header,
                105.190_779_213_544_66,
                57.857_106_434_575_535,
                105.190_779_213_544_66,
                57.857_106_434_575_535,
            ),
            (
                body,
                35.117_270_211_390_57,
                5.364_535_392_614_174,
                130.138_582_305_141_2,
                94.066_227_965_166_08,
            ),
            (
                body + 1,
                130.138_582_305_141_2,
                94.066_227_965_166_08,
                130.138_582_305_141_2,
                94.066_227_965_166_08,
            ),
            (a, 0.0, 0.0, 0.0, 0.0),
        ];
        let ctd = score(&t, Algorithm::Ctd, &p);
        let htd = score(&t, Algorithm::Htd, &p);
        close(
            "VI header text",
            htd.scores.vi[header + 1],
            0.451_493_764_499_852_85,
        );
        close(
            "VI story-body text",
            htd.scores.vi[body + 1],
            0.682_689_492_137_085_9,
        );
        close(
            "VI link text",
            htd.scores.vi[a + 1],
            0.382_924_922_548_026_24,
        );
        for (id, c, h, cs, hs) in want {
            close(&format!("CTD of node {id}"), ctd.scores.ctd[id], c);
            close(&format!("HTD of node {id}"), htd.scores.htd[id], h);
            close(
                &format!("CTD DensitySum of node {id}"),
                ctd.scores.density_sum[id],
                cs,
            );
            close(
                &format!("HTD DensitySum of node {id}"),
                htd.scores.density_sum[id],
                hs,
            );
        }
        // CTD: the article has the largest DensitySum; the threshold is the least CTD on the
        // path article → main → body: min(47.625, 40.231, 34.985).
        assert_eq!(ctd.max_node, article);
        close("CTD threshold", ctd.threshold, 34.984_878_726_562_58);
        // HTD: the story-body wins (94.07 > 63.22); threshold min(5.365, 18.61, 16.44, 14.69).
        assert_eq!(htd.max_node, body);
        close("HTD threshold", htd.threshold, 5.364_535_392_614_174);
    }

    #[test]
    fn htd_adaptation_sets_t_to_hc_over_c() {
        let p = DensityParams::default();
        // A centred leaf without links: C = 100, HC = 50, T = 0 → T' = HC/C = 0.5. The base is
        // e (no links), ln ln e = 0 → 1. HTD = (50/0.5) · ln(50/1 · 0.5/1) = 100 · ln 25
        // = 100 · 3.218876 = 321.8876 (Python: 321.88758248682007).
        let got = hybrid_density(100.0, 50.0, 0.0, 0.0, 0.0, 0.0, &p);
        assert!((got - 321.887_582_486_820_07).abs() < 1e-9, "{got}");
        // A leaf far off-centre: HC = 5 → T' = 0.05, ln(5 · 0.05) = ln 0.25 < 0; the clamp keeps 0.
        assert_eq!(hybrid_density(100.0, 5.0, 0.0, 0.0, 0.0, 0.0, &p), 0.0);
    }

    /// body > [nav > 4 links, article > 3 paragraphs, footer > short text]
    fn page() -> (Snapshot, NodeId, NodeId, NodeId) {
        let mut b = SnapshotBuilder::new(1000.0);
        let nav = b.el(0, "div", rect(0.0, 0.0, 1000.0, 50.0));
        for w in ["Home", "World", "Business", "Sport"] {
            let a = b.el(nav, "a", rect(0.0, 0.0, 100.0, 20.0));
            b.text(a, w);
        }
        let art = b.el(0, "div", rect(100.0, 60.0, 800.0, 600.0));
        for k in 0..3 {
            let para = b.el(art, "p", rect(100.0, 60.0 + 200.0 * k as f64, 800.0, 180.0));
            b.text(
                para,
                &"The quick brown fox jumps over the lazy dog again. ".repeat(6),
            );
            if k == 1 {
                let a = b.el(para, "a", rect(100.0, 100.0, 80.0, 20.0));
                b.text(a, "a link");
            }
        }
        let foot = b.el(0, "div", rect(0.0, 700.0, 1000.0, 40.0));
        b.text(foot, "© 2024 ");
        for w in ["Terms of use", "Privacy policy", "Contact us"] {
            let a = b.el(foot, "a", rect(0.0, 700.0, 100.0, 20.0));
            b.text(a, w);
        }
        (b.build(), nav, art, foot)
    }

    #[test]
    fn density_sum_and_threshold_on_a_hand_built_tree() {
        let (s, nav, art, foot) = page();
        let t = Tree::new(&s);
        let p = DensityParams::default();
        let sc = score(&t, Algorithm::Ctd, &p);
        assert_eq!(sc.max_node, art, "the article has the maximum DensitySum");
        let kids_sum: f64 = t.children[art].iter().map(|&k| sc.density[k]).sum();
        assert!((sc.scores.density_sum[art] - kids_sum).abs() < 1e-9);
        let want = sc.density[art].min(sc.density[0]);
        assert_eq!(
            sc.threshold, want,
            "min density on the path article -> body"
        );
        let ex = extract(&t, Algorithm::Ctd, &p);
        assert!(t.subtree(art).all(|i| ex.kept[i]));
        assert!(!ex.kept[nav] && !ex.kept[foot] && !ex.kept[0]);
    }

    #[test]
    fn every_density_variant_extracts_the_article() {
        let (s, nav, art, _) = page();
        let t = Tree::new(&s);
        for a in [
            Algorithm::Td,
            Algorithm::Ctd,
            Algorithm::Htd,
            Algorithm::CtdSmooth,
        ] {
            let ex = extract(&t, a, &DensityParams::default());
            let text: String = t
                .subtree(art)
                .filter(|&i| ex.kept[i])
                .filter_map(|i| s.nodes[i].text.clone())
                .collect();
            assert!(text.contains("quick brown fox"), "{a} lost the article");
            assert!(!ex.kept[nav + 1], "{a} kept the navigation");
        }
    }

    #[test]
    fn hidden_text_has_no_hybrid_weight() {
        let (mut s, _, _, foot) = page();
        s.nodes[foot].rendered = false;
        s.nodes[foot + 1].rendered = false;
        let t = Tree::new(&s);
        let sc = score(&t, Algorithm::Htd, &DensityParams::default());
        assert_eq!(sc.scores.vi[foot + 1], 0.0);
        assert_eq!(sc.scores.htd[foot], 0.0);
        assert!(
            sc.scores.ctd[foot] > 0.0,
            "CTD ignores visibility, as in the paper"
        );
    }
}
