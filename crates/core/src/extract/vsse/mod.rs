//! VSSE: the unified extraction framework of the paper "visual punctuation characteristics,
//! tag paths and content semantics" (`shared/papers/vsse-punctuation-paths.txt`).
//!
//! Text content (`vsse`, [`extract`]):
//! 1. §4.2 eq. 1: the Visual Value of Text Characteristics of every leaf,
//!    vvtc_a = (text_length_a / nodes_num) · (punc_num_a / nodes_num); leaves whose vvtc reaches
//!    T1 · MaxVVTC are the seeds ("effective text nodes");
//! 2. §4.3.1 eq. 2: the seeds' tag paths are aggregated by `pcs` into one common path; the
//!    subtree it locates is the content area;
//! 3. §4.4 eq. 4: every paragraph of the area gets a SimHash of its TF-IDF-weighted keywords;
//!    a paragraph is kept when its Hamming distance to the SimHash of title + description is
//!    at most T2 (see [`VsseParams::refine_punctuated`] for which paragraphs are tested).
//!
//! Structured records (`vsse-records`, [`extract_records`], in `records`): eq. 3 weights and
//! the HMM / Viterbi descent of §4.3.2.
//!
//! Reading of "tag path": the paper's paths are sequences of tags from the root to a leaf,
//! compared tag by tag in eq. 2, whose result "constructed by the first pcs(X,i,Y,j) tags of
//! X" locates a subtree. With tags alone, sibling paragraphs share one path and
//! `body/div/p` would locate every `p` of every `div`; here each step of a path is the DOM
//! element itself (a tag at a position, as an XPath with indices), so eq. 2, computed
//! literally, gives the length of the common prefix and the area is the subtree of the
//! seeds' deepest common ancestor — the "maximum common path prefix" §4.3.1 names. A text
//! leaf's path ends at its parent element (text is not a tag).

mod records;
pub mod simhash;

use super::details::{VsseArea, VsseDetails, VsseParagraph, VsseSeed};
use super::params::VsseParams;
use super::text::punct_count;
use super::{Algorithm, Details, Extraction};
use crate::snapshot::{collapse_ws, NodeId, Tree};

pub use records::{extract_records, record_weights, RecordWeights};

/// The leaves of the page (§3: "leaf nodes holding web page information") and the vvtc of
/// each (eq. 1).
#[derive(Debug, Clone)]
pub struct Leaves {
    /// Does the node take part (false for hidden nodes with [`VsseParams::drop_hidden`])?
    pub active: Vec<bool>,
    /// Is the node a leaf: active, and without active children (text nodes, and elements such
    /// as `img` or `br`)?
    pub is_leaf: Vec<bool>,
    /// nodes_num: the number of leaves.
    pub count: usize,
    /// vvtc of every node (0 for elements and for nodes that are not leaves).
    pub vvtc: Vec<f64>,
}

impl Leaves {
    /// Find the leaves and compute eq. 1 for each.
    pub fn of(tree: &Tree, p: &VsseParams) -> Leaves {
        let n = tree.len();
        let mut active = vec![true; n];
        if p.drop_hidden {
            for i in 1..n {
                active[i] = tree.parent(i).is_none_or(|q| active[q]) && tree.node(i).rendered;
            }
        }
        let is_leaf: Vec<bool> = (0..n)
            .map(|i| active[i] && !tree.children[i].iter().any(|&k| active[k]))
            .collect();
        let count = is_leaf.iter().filter(|&&l| l).count();
        let vvtc = (0..n)
            .map(|i| match &tree.node(i).text {
                Some(t) if is_leaf[i] => vvtc(tree.own_chars[i], punct_count(t), count),
                _ => 0.0,
            })
            .collect();
        Leaves {
            active,
            is_leaf,
            count,
            vvtc,
        }
    }

    /// The largest vvtc of the page (MaxVVTC, §5.2).
    pub fn max_vvtc(&self) -> f64 {
        self.vvtc.iter().copied().fold(0.0, f64::max)
    }

    /// The seeds, in document order: leaves with vvtc > 0 and vvtc / MaxVVTC ≥ T1; when
    /// fewer than [`VsseParams::min_seeds`] pass, the top-k leaves by vvtc instead (ties in
    /// document order).
    pub fn seeds(&self, p: &VsseParams) -> Vec<NodeId> {
        let max = self.max_vvtc();
        if max <= 0.0 {
            return Vec::new();
        }
        let mut ranked: Vec<NodeId> = (0..self.vvtc.len())
            .filter(|&i| self.vvtc[i] > 0.0)
            .collect();
        ranked.sort_by(|&a, &b| self.vvtc[b].total_cmp(&self.vvtc[a]).then(a.cmp(&b)));
        let passing = ranked
            .iter()
            .take_while(|&&i| self.vvtc[i] / max >= p.t1)
            .count();
        ranked.truncate(passing.max(p.min_seeds));
        ranked.sort_unstable();
        ranked
    }
}

/// Eq. 1: vvtc_a = (text_length_a / nodes_num) · (punc_num_a / nodes_num).
pub fn vvtc(text_length: usize, punc_num: usize, nodes_num: usize) -> f64 {
    let n = nodes_num.max(1) as f64;
    (text_length as f64 / n) * (punc_num as f64 / n)
}

/// Eq. 2, computed as written: pcs(X, i, Y, j) over the first i steps of X and the first j of
/// Y (the longest common subsequence). One row of the table at a time, so two paths 10,000
/// elements deep need 10,000 cells, not 10^8.
pub fn pcs<T: PartialEq>(x: &[T], y: &[T]) -> usize {
    let mut prev = vec![0usize; y.len() + 1];
    let mut cur = vec![0usize; y.len() + 1];
    for xi in x {
        for (j, yj) in y.iter().enumerate() {
            cur[j + 1] = if xi == yj {
                prev[j] + 1
            } else {
                cur[j].max(prev[j + 1])
            };
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[y.len()]
}

/// The tag path of a node: the elements from `<body>` down to it (to its parent, for a text
/// node).
pub fn tag_path(tree: &Tree, id: NodeId) -> Vec<NodeId> {
    let last = if tree.node(id).is_text() {
        tree.parent(id).unwrap_or(0)
    } else {
        id
    };
    let mut path: Vec<NodeId> = std::iter::once(last).chain(tree.ancestors(last)).collect();
    path.reverse();
    path
}

/// §4.3.1: aggregate the seeds' tag paths. Starting from the first seed's path, each further
/// seed's path Y shortens the aggregate A to its first pcs(A, Y) steps. Returns the
/// aggregated path (never empty: every path starts at `<body>`), or None without seeds.
pub fn aggregate(tree: &Tree, seeds: &[NodeId]) -> Option<Vec<NodeId>> {
    let (first, rest) = seeds.split_first()?;
    let mut area = tag_path(tree, *first);
    for &s in rest {
        let k = pcs(&area, &tag_path(tree, s));
        area.truncate(k.max(1));
    }
    Some(area)
}

/// One paragraph of the content area: the leaves whose nearest block-level ancestor (within
/// the area) is `block`.
#[derive(Debug, Clone)]
struct Paragraph {
    block: NodeId,
    leaves: Vec<NodeId>,
    text: String,
}

/// Group the leaves of the area's subtree by their nearest block ancestor, capped at the area
/// root, in document order. §4.3.1: "a paragraph of text is often organized by multiple HTML
/// tag pairs ... which separates a paragraph of text into several short text block[s]".
fn paragraphs(tree: &Tree, leaves: &Leaves, area: NodeId) -> Vec<Paragraph> {
    let mut out: Vec<Paragraph> = Vec::new();
    let mut index = std::collections::HashMap::new();
    for id in tree.subtree(area).filter(|&i| leaves.is_leaf[i]) {
        let block = std::iter::once(id)
            .chain(tree.ancestors(id))
            .take_while(|&a| a != area)
            .skip(1)
            .find(|&a| tree.is_block(a))
            .unwrap_or(area);
        let k = *index.entry(block).or_insert_with(|| {
            out.push(Paragraph {
                block,
                leaves: Vec::new(),
                text: String::new(),
            });
            out.len() - 1
        });
        out[k].leaves.push(id);
        if let Some(t) = &tree.node(id).text {
            out[k].text.push_str(t);
        }
    }
    for para in &mut out {
        para.text = collapse_ws(&para.text);
    }
    out
}

/// The §4.4 decision for one paragraph.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Decision {
    punctuated: bool,
    hamming: Option<u32>,
    kept: bool,
}

/// §4.4: SimHash every paragraph of the area with keyword weights from eq. 4 over the area,
/// SimHash title + description as a one-paragraph area of its own ("repeating the above
/// process"), and decide each paragraph by T2. Returns the decisions and the title
/// fingerprint. With `all_distances` false, the Hamming distance is computed only where it
/// decides (paragraphs the T2 test applies to); the `kept` decisions are the same.
fn refine(
    tree: &Tree,
    paras: &[Paragraph],
    p: &VsseParams,
    all_distances: bool,
) -> (Vec<Decision>, Option<u64>) {
    let summary = format!("{} {}", tree.snap.title, tree.snap.description);
    let stop = simhash::stop_set(p);
    let title = simhash::tf_idf(&[simhash::keywords_with(&summary, &stop)], p.idf_constant);
    let title_fp = simhash::fingerprint(&title[0], p.simhash_bits);
    let kws: Vec<Vec<String>> = paras
        .iter()
        .map(|para| simhash::keywords_with(&para.text, &stop))
        .collect();
    let df = simhash::document_frequencies(&kws);
    let decisions = paras
        .iter()
        .zip(&kws)
        .map(|(para, kw)| {
            let punctuated = punct_count(&para.text) > 0;
            let tested = all_distances || !punctuated || p.refine_punctuated;
            let hamming = if tested {
                let w = simhash::weights(kw, &df, kws.len(), p.idf_constant);
                title_fp
                    .zip(simhash::fingerprint(&w, p.simhash_bits))
                    .map(|(a, b)| simhash::hamming(a, b))
            } else {
                None
            };
            let close = hamming.is_some_and(|d| d <= p.t2);
            let kept = !para.text.is_empty() && (close || (punctuated && !p.refine_punctuated));
            Decision {
                punctuated,
                hamming,
                kept,
            }
        })
        .collect();
    (decisions, title_fp)
}

/// The aggregated path's area: its nodes, its paragraphs, their decisions, and the title's
/// fingerprint.
type Area = (Vec<NodeId>, Vec<Paragraph>, Vec<Decision>, Option<u64>);

/// The phases of [`extract`] up to the decisions, shared with [`kept`].
struct Decided {
    leaves: Leaves,
    seeds: Vec<NodeId>,
    /// The aggregated path and, per paragraph of its area, the paragraph and its decision.
    area: Option<Area>,
}

fn decide(tree: &Tree, p: &VsseParams, all_distances: bool) -> Decided {
    let leaves = Leaves::of(tree, p);
    let seeds = leaves.seeds(p);
    let area = aggregate(tree, &seeds).map(|area_path| {
        let area = *area_path.last().expect("an aggregated path holds <body>");
        let paras = paragraphs(tree, &leaves, area);
        let (decisions, title_fp) = refine(tree, &paras, p, all_distances);
        (area_path, paras, decisions, title_fp)
    });
    Decided {
        leaves,
        seeds,
        area,
    }
}

/// Mark each kept paragraph's leaves and their ancestors up to the area root.
fn mark(tree: &Tree, d: &Decided, kept: &mut [bool]) {
    let Some((area_path, paras, decisions, _)) = &d.area else {
        return;
    };
    let area = *area_path.last().expect("an aggregated path holds <body>");
    for (para, dec) in paras.iter().zip(decisions) {
        if !dec.kept {
            continue;
        }
        for &leaf in &para.leaves {
            for a in std::iter::once(leaf).chain(tree.ancestors(leaf)) {
                if kept[a] {
                    break;
                }
                kept[a] = true;
                if a == area {
                    break;
                }
            }
        }
    }
}

/// What [`extract`] keeps, without building its details (for algorithms that read VSSE's
/// decision as a signal, such as `learned`): the same flags, at less cost.
pub fn kept(tree: &Tree, p: &VsseParams) -> Vec<bool> {
    let d = decide(tree, p, false);
    let mut kept = vec![false; tree.len()];
    mark(tree, &d, &mut kept);
    kept
}

/// Run VSSE text-content extraction.
///
/// Phases: [`Leaves::of`] (leaves and eq. 1) → [`Leaves::seeds`] (T1) → [`aggregate`] (eq. 2,
/// the content area) → `paragraphs` → `refine` (eq. 4, SimHash, T2) → the extraction: each kept
/// paragraph's leaves and their ancestors up to the area root.
///
/// `threshold` is the vvtc cut-off T1 · MaxVVTC. `details`:
/// `{ leaves, max_vvtc, seeds: [{path, vvtc, ratio}], area: {path, tag_path, prefix_len}
/// | null, title_simhash: hex | null, paragraphs: [{path, punctuated, hamming, kept}] }`.
pub fn extract(tree: &Tree, p: &VsseParams) -> Extraction {
    let d = decide(tree, p, true);
    let leaves = &d.leaves;
    let max = leaves.max_vvtc();
    let mut ex = Extraction::empty(Algorithm::Vsse, tree.len());
    ex.threshold = Some(p.t1 * max);
    let seed_list: Vec<VsseSeed> = d
        .seeds
        .iter()
        .map(|&s| VsseSeed {
            path: tree.css_path(s),
            vvtc: leaves.vvtc[s],
            ratio: leaves.vvtc[s] / max,
        })
        .collect();
    mark(tree, &d, &mut ex.kept);
    let Some((area_path, paras, decisions, title_fp)) = &d.area else {
        ex.details = Details::Vsse(VsseDetails {
            leaves: leaves.count,
            max_vvtc: max,
            seeds: seed_list,
            area: None,
            title_simhash: None,
            paragraphs: Vec::new(),
        });
        return ex;
    };
    let area = *area_path.last().expect("an aggregated path holds <body>");
    let tags: Vec<&str> = area_path
        .iter()
        .map(|&i| tree.node(i).tag.as_str())
        .collect();
    ex.details = Details::Vsse(VsseDetails {
        leaves: leaves.count,
        max_vvtc: max,
        seeds: seed_list,
        area: Some(VsseArea {
            path: tree.css_path(area),
            tag_path: tags.join("/"),
            prefix_len: area_path.len(),
        }),
        title_simhash: title_fp.map(|f| format!("{f:016x}")),
        paragraphs: paras
            .iter()
            .zip(decisions)
            .map(|(para, d)| VsseParagraph {
                path: tree.css_path(para.block),
                punctuated: d.punctuated,
                hamming: d.hamming,
                kept: d.kept,
            })
            .collect(),
    });
    ex
}

#[cfg(test)]
mod tests;
