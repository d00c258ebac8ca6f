//! VSSE §4.3.2: the area holding structured records. Each leaf is tested against the
//! characteristics container (attribute-value delimiters, the attribute dictionary); eq. 3
//! weighs every non-leaf node bottom-up; a Viterbi pass over the DOM tree (the HMM λ = (π, A,
//! B)) descends from `<body>` to the record area.
//!
//! Readings of the paper's HMM, where it is ambiguous:
//! - Phase 2 writes δ_k(i) = π_j·a_ji·b(O_i); Viterbi's recursion uses the previous time's
//!   δ_{k-1}(j) in place of π_j, and so does this code. Each node has one parent, so the max
//!   over j is that parent.
//! - a_ji = 1 / (number of children of j): the "equi-probability" initialization.
//! - b(O_i) = WVC(i), in units of ln N with [`VsseParams::normalize_emission`].
//! - States are the non-leaf nodes (eq. 3 weighs non-leaf nodes only); time t_k is depth k.
//! - Phase 3's "if ψ(m) ≥ ψ(m+1), terminate": ψ holds node numbers, which only grow down the
//!   tree; the comparison is read as between the weights they point at,
//!   δ_m(ψ(m)) ≥ δ_{m+1}(ψ(m+1)). The area is ψ(m); the reported path is its Viterbi
//!   backtrack (its ancestors).

use super::super::details::{HmmStep, RecordsDetails, VsseRecord};
use super::super::params::VsseParams;
use super::super::text::is_punct;
use super::super::{Algorithm, Details, Extraction};
use super::Leaves;
use crate::snapshot::{collapse_ws, NodeId, Tree};

/// Names of the characteristics in the container, in the order of [`RecordWeights::n`].
pub const CHARACTERISTICS: [&str; 2] = ["delimiter", "attribute_name"];

/// Eq. 3 for every node.
#[derive(Debug, Clone)]
pub struct RecordWeights {
    /// The leaves of the page.
    pub leaves: Leaves,
    /// n_k(i): leaves of the subtree of i that satisfy characteristic k.
    pub n: Vec<[usize; 2]>,
    /// WVC(i) = Σ_k n_k · ln(N / n_k), N = number of leaves (a term with n_k = 0 is 0).
    pub wvc: Vec<f64>,
}

/// The label of a leaf text: what stands before its first delimiter (or all of it), trimmed of
/// white space and punctuation, lower-cased.
fn label(text: &str, p: &VsseParams) -> String {
    let head = text
        .split(|c| p.delimiters.contains(&c))
        .next()
        .unwrap_or("");
    head.trim_matches(|c: char| c.is_whitespace() || is_punct(c))
        .to_lowercase()
}

/// Which characteristics a leaf text satisfies.
fn characteristics(text: &str, p: &VsseParams) -> [bool; 2] {
    let delimiter = text.chars().any(|c| p.delimiters.contains(&c));
    let l = label(text, p);
    let name = !l.is_empty() && p.attribute_names.iter().any(|a| a.to_lowercase() == l);
    [delimiter, name]
}

/// §4.3.2 A: test each leaf, sum the counts bottom-up, weigh every node by eq. 3.
pub fn record_weights(tree: &Tree, p: &VsseParams) -> RecordWeights {
    let leaves = Leaves::of(tree, p);
    let big_n = leaves.count as f64;
    let mut n = vec![[0usize; 2]; tree.len()];
    for i in (0..tree.len()).rev() {
        if !leaves.active[i] {
            continue;
        }
        if let (true, Some(t)) = (leaves.is_leaf[i], &tree.node(i).text) {
            for (k, hit) in characteristics(t, p).into_iter().enumerate() {
                n[i][k] += usize::from(hit);
            }
        }
        if let Some(q) = tree.parent(i) {
            let child = n[i];
            for (total, x) in n[q].iter_mut().zip(child) {
                *total += x;
            }
        }
    }
    let wvc = n
        .iter()
        .map(|nk| {
            nk.iter()
                .filter(|&&x| x > 0)
                .map(|&x| x as f64 * (big_n / x as f64).ln())
                .sum()
        })
        .collect();
    RecordWeights { leaves, n, wvc }
}

/// §4.3.2 B: the Viterbi pass. Returns ln δ of every node (−∞ for leaves and inactive nodes)
/// and the area ψ(m).
fn viterbi(tree: &Tree, w: &RecordWeights, p: &VsseParams) -> (Vec<f64>, NodeId) {
    let n = tree.len();
    let unit = if p.normalize_emission {
        (w.leaves.count as f64).ln()
    } else {
        1.0
    };
    let unit = if unit > 0.0 { unit } else { 1.0 };
    let state = |i: NodeId| w.leaves.active[i] && !w.leaves.is_leaf[i];
    let mut log_delta = vec![f64::NEG_INFINITY; n];
    let mut depth = vec![0usize; n];
    // Phase 1: δ_0(0) = π_0 = 1 at <body>.
    log_delta[0] = 0.0;
    // Phase 2: δ_k(i) = δ_{k-1}(j) · a_ji · b(O_i), j the parent of i.
    for i in 1..n {
        let j = tree.parent(i).expect("every node but <body> has a parent");
        depth[i] = depth[j] + 1;
        if state(i) && log_delta[j].is_finite() {
            let deg = tree.children[j]
                .iter()
                .filter(|&&k| w.leaves.active[k])
                .count() as f64;
            log_delta[i] = log_delta[j] - deg.ln() + (w.wvc[i] / unit).ln();
        }
    }
    // ψ(k): the first node in document order with the largest δ at depth k.
    let max_depth = depth.iter().copied().max().unwrap_or(0);
    let mut psi: Vec<Option<NodeId>> = vec![None; max_depth + 1];
    for i in 0..n {
        if log_delta[i].is_finite() && psi[depth[i]].is_none_or(|b| log_delta[i] > log_delta[b]) {
            psi[depth[i]] = Some(i);
        }
    }
    // Phase 3: stop at the first m with δ_m(ψ(m)) ≥ δ_{m+1}(ψ(m+1)).
    let mut area = 0;
    for next in psi.iter().skip(1) {
        match next {
            Some(b) if log_delta[*b] > log_delta[area] => area = *b,
            _ => break,
        }
    }
    (log_delta, area)
}

/// One record: a child of the area, split into attribute and value at its first delimiter,
/// or else into its first text leaf and the rest.
fn record(tree: &Tree, w: &RecordWeights, id: NodeId, p: &VsseParams) -> Option<VsseRecord> {
    let text = tree.text(id);
    if text.is_empty() {
        return None;
    }
    let (attribute, value) = match text.split_once(|c| p.delimiters.contains(&c)) {
        Some((a, v)) if !a.trim().is_empty() => (Some(a.trim().to_string()), v.trim().to_string()),
        _ => {
            let texts: Vec<String> = tree
                .subtree(id)
                .filter(|&i| w.leaves.is_leaf[i])
                .filter_map(|i| tree.node(i).text.as_deref().map(collapse_ws))
                .filter(|t| !t.is_empty())
                .collect();
            match texts.split_first() {
                Some((a, rest)) if !rest.is_empty() => {
                    let a = a
                        .trim_end_matches(|c: char| p.delimiters.contains(&c))
                        .trim();
                    (Some(a.to_string()), rest.join(" "))
                }
                _ => (None, text.clone()),
            }
        }
    };
    Some(VsseRecord {
        path: tree.css_path(id),
        text,
        attribute,
        value,
    })
}

/// Run VSSE structured-record extraction.
///
/// Phases: [`record_weights`] (characteristics, eq. 3) → `viterbi` (initialization, iteration,
/// termination) → the extraction: the area's subtree, and its children as records.
///
/// `details`: `{ leaves, characteristics: ["delimiter", "attribute_name"],
/// characteristic_leaves: [n_1, n_2], area: css path | null, path: [{path, tag, wvc, log_delta}],
/// records: [{path, text, attribute: string | null, value}] }`.
pub fn extract_records(tree: &Tree, p: &VsseParams) -> Extraction {
    let w = record_weights(tree, p);
    let mut ex = Extraction::empty(Algorithm::VsseRecords, tree.len());
    // Without a single characteristic leaf there is no weight to follow.
    let found = (w.wvc[0] > 0.0).then(|| viterbi(tree, &w, p));
    let (mut path, mut records) = (Vec::new(), Vec::new());
    if let Some((log_delta, area)) = &found {
        for i in tree.subtree(*area) {
            ex.kept[i] = w.leaves.active[i];
        }
        let mut chain: Vec<NodeId> = std::iter::once(*area)
            .chain(tree.ancestors(*area))
            .collect();
        chain.reverse();
        path = chain
            .iter()
            .map(|&i| HmmStep {
                path: tree.css_path(i),
                tag: tree.node(i).tag.clone(),
                wvc: w.wvc[i],
                log_delta: log_delta[i],
            })
            .collect();
        records = tree.children[*area]
            .iter()
            .filter(|&&c| w.leaves.active[c])
            .filter_map(|&c| record(tree, &w, c, p))
            .collect();
    }
    ex.details = Details::VsseRecords(RecordsDetails {
        leaves: w.leaves.count,
        characteristics: CHARACTERISTICS,
        characteristic_leaves: w.n[0],
        area: found.map(|(_, a)| tree.css_path(a)),
        path,
        records,
    });
    ex
}
