//! Ensemble: a per-text-node majority vote over several of the paper algorithms, all run on
//! the one snapshot. Combining content-extraction heuristics is the idea of Gupta et al.'s
//! Crunch ("a well-chosen combination ... can provide better results than a single approach",
//! as Song et al. §2 summarise it) and of Gottron's CombinE; the voters here are the
//! published algorithms themselves, unchanged.
//!
//! Default voters: htd, blocks and vsse, 2 of 3 (see `EnsembleParams`).
//!
//! Phases: run each voter → count, for every text node, the voters that kept it → keep the
//! text nodes with at least `min_votes` → keep an element when every text node under it is
//! kept (so HTML output has whole subtrees where the voters agree).

use super::learned::model::Model;
use super::params::EnsembleParams;
use super::{extract_tree_with, Algorithm, Extraction, Params};
use crate::snapshot::Tree;

/// Run the ensemble. `params` supplies the voters' own parameters, `model` the `learned`
/// model when it votes (`None`: the built-in one).
pub fn extract(
    tree: &Tree,
    p: &EnsembleParams,
    params: &Params,
    model: Option<&Model>,
) -> Extraction {
    let n = tree.len();
    let (votes, voters) = votes(tree, p, params, model);
    let mut kept = vec![false; n];
    for i in 0..n {
        kept[i] = tree.node(i).is_text() && votes[i] >= p.min_votes;
    }
    // Elements: kept when they hold text and all of it is kept (bottom-up).
    let mut all = vec![true; n];
    let mut any = vec![false; n];
    for i in (0..n).rev() {
        if tree.node(i).is_text() {
            all[i] = kept[i];
            any[i] = kept[i];
        } else {
            kept[i] = any[i] && all[i];
        }
        if let Some(q) = tree.parent(i) {
            all[q] &= all[i];
            any[q] |= any[i];
        }
    }
    Extraction {
        algorithm: Algorithm::Ensemble,
        kept,
        threshold: Some(p.min_votes as f64),
        scores: None,
        details: super::Details::Ensemble(super::details::EnsembleDetails {
            voters: voters.iter().map(|a| a.name()).collect(),
            min_votes: p.min_votes,
        }),
    }
}

/// How many voters keep each node, and the voters (the ensemble itself never votes).
pub(crate) fn votes(
    tree: &Tree,
    p: &EnsembleParams,
    params: &Params,
    model: Option<&Model>,
) -> (Vec<usize>, Vec<Algorithm>) {
    let mut votes = vec![0usize; tree.len()];
    let voters: Vec<Algorithm> = p
        .voters
        .iter()
        .copied()
        .filter(|a| *a != Algorithm::Ensemble)
        .collect();
    for &a in &voters {
        let ex = extract_tree_with(tree, a, params, model);
        for (v, &k) in votes.iter_mut().zip(&ex.kept) {
            *v += usize::from(k);
        }
    }
    (votes, voters)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::{rect, SnapshotBuilder};

    #[test]
    fn keeps_text_that_a_majority_keeps() {
        let mut b = SnapshotBuilder::new(1000.0);
        let nav = b.el(0, "div", rect(0.0, 0.0, 1000.0, 40.0));
        for w in ["Home", "News", "Sport", "Weather", "Contact"] {
            let a = b.el(nav, "a", rect(0.0, 0.0, 100.0, 20.0));
            b.text(a, w);
        }
        let art = b.el(0, "article", rect(150.0, 50.0, 700.0, 600.0));
        for k in 0..4 {
            let p = b.el(art, "p", rect(150.0, 50.0 + 150.0 * k as f64, 700.0, 140.0));
            b.text(
                p,
                &"A long paragraph of the article, with commas, clauses, and a full stop. "
                    .repeat(4),
            );
        }
        let snap = b.build();
        let tree = Tree::new(&snap);
        let params = Params::default();
        let ex = extract(&tree, &params.ensemble, &params, None);
        assert!(
            tree.subtree(art).all(|i| ex.kept[i]),
            "the article is kept whole"
        );
        assert!(
            tree.subtree(nav).all(|i| !ex.kept[i]),
            "the navigation is not"
        );
        // With an impossible quorum nothing is kept.
        let none = EnsembleParams {
            min_votes: 99,
            ..EnsembleParams::default()
        };
        assert!(!extract(&tree, &none, &params, None).kept.iter().any(|&k| k));
    }
}
