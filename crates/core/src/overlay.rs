//! The page's text units as a picture needs them (the record's opt-in `units`, drawn by the
//! playground of `sightline serve`): each `learned` text unit with its box, its text, its
//! `learned` probability, its largest feature contributions, and which algorithms keep it.
//!
//! Nothing here scores on its own: the probabilities and contributions are `learned`'s
//! ([`crate::extract::learned::unit_scores`], the numbers `sightline scores` reports), and
//! `kept_by` reads each algorithm's own [`Extraction`](crate::Extraction) of the same tree.

use serde::Serialize;

use crate::extract::learned::model::Model;
use crate::extract::learned::{self, Contribution};
use crate::extract::{extract_tree_with, Algorithm, Params};
use crate::snapshot::{Rect, Tree};

/// The longest text a unit carries in [`UnitView::text`] (characters); longer text is cut
/// with `…` (the full text is in the snapshot; the overlay shows a glimpse).
pub const UNIT_TEXT_CHARS: usize = 280;

/// One text unit of the page: a run of text nodes in one block, the piece `learned` keeps or
/// drops (one output paragraph).
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct UnitView {
    /// The unit's index in reading order.
    pub id: usize,
    /// The node id (index in the snapshot's `nodes`) of the unit's block element.
    pub node: usize,
    /// The block element's box, `[x, y, w, h]` in CSS px of the page scrolled to its top.
    #[serde(rename = "box")]
    pub rect: Rect,
    /// The unit's text (cut at [`UNIT_TEXT_CHARS`] characters).
    pub text: String,
    /// `learned`'s pass-2 probability that the unit is main content (the model's own,
    /// before the decision's log-odds shift).
    pub p: f64,
    /// The largest contributions to the pass-1 log-odds (the unit's own features).
    pub top: Vec<Contribution>,
    /// The largest contributions to the pass-2 log-odds (the neighbours' probabilities).
    pub top2: Vec<Contribution>,
    /// The algorithms that keep the unit (at least half of its characters), by name, in
    /// [`Algorithm::ALL`] order.
    pub kept_by: Vec<String>,
}

/// The algorithms [`units`] reports in `kept_by`: every one whose kept text is the page's
/// main content ([`Algorithm::main_content`]: the papers', `ensemble` and `learned`).
pub fn compared_algorithms() -> Vec<Algorithm> {
    Algorithm::main_content()
}

/// Every text unit of `tree` as [`UnitView`]s, with the `learned` model `model` (None: the
/// built-in one) and `params` (those of the extraction); `kept_by` runs each of
/// [`compared_algorithms`] once. An error when the model cannot be read.
pub fn units(tree: &Tree, params: &Params, model: Option<&Model>) -> Result<Vec<UnitView>, String> {
    let scored = learned::unit_scores(tree, params, model)?;
    let algorithms = compared_algorithms();
    let kept: Vec<Vec<bool>> = algorithms
        .iter()
        .map(|&a| extract_tree_with(tree, a, params, model).kept)
        .collect();
    let text = learned::units::units(tree);
    Ok(scored
        .into_iter()
        .enumerate()
        .map(|(u, s)| {
            let chars: usize = s.nodes.iter().map(|&i| tree.own_chars[i]).sum();
            let kept_by = algorithms
                .iter()
                .zip(&kept)
                .filter(|(_, k)| {
                    let kept_chars: usize = s
                        .nodes
                        .iter()
                        .filter(|&&i| k[i])
                        .map(|&i| tree.own_chars[i])
                        .sum();
                    if chars == 0 {
                        s.nodes.iter().any(|&i| k[i])
                    } else {
                        2 * kept_chars >= chars && kept_chars > 0
                    }
                })
                .map(|(a, _)| a.name().to_string())
                .collect();
            UnitView {
                id: u,
                node: s.block,
                rect: tree.node(s.block).rect,
                text: clip(text.get(u).map_or("", |t| t.text.as_str())),
                p: s.probability,
                top: s.pass1_top,
                top2: s.pass2_top,
                kept_by,
            }
        })
        .collect())
}

/// `t` with collapsed white space, cut at [`UNIT_TEXT_CHARS`] characters.
fn clip(t: &str) -> String {
    let t = crate::snapshot::collapse_ws(t);
    match t.char_indices().nth(UNIT_TEXT_CHARS) {
        Some((end, _)) => format!("{}…", &t[..end]),
        None => t,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::Details;

    use crate::snapshot::fixtures::nav_and_article as page;

    #[test]
    fn every_unit_has_its_box_probability_and_the_algorithms_that_keep_it() {
        let snap = page();
        let tree = Tree::new(&snap);
        let params = Params::default();
        let u = units(&tree, &params, None).unwrap();
        let ex = crate::extract::extract_tree(&tree, Algorithm::Learned, &params);
        let Details::Learned(d) = &ex.details else {
            panic!("learned details")
        };
        assert_eq!(u.len(), d.units);
        for (i, v) in u.iter().enumerate() {
            assert_eq!(v.id, i);
            assert_eq!(v.rect, tree.node(v.node).rect);
            assert!((0.0..=1.0).contains(&v.p));
            assert!(!v.top.is_empty(), "unit {i} has contributions");
        }
        // The paragraphs are kept by learned; the heat map's probabilities are the same.
        let para = u
            .iter()
            .find(|v| v.text.starts_with("A paragraph"))
            .unwrap();
        assert!(para.kept_by.iter().any(|a| a == "learned"), "{para:?}");
        for (v, h) in u.iter().zip(&d.heat) {
            assert_eq!(v.p, h[4]);
        }
        let home = u.iter().find(|v| v.text == "Home").unwrap();
        assert!(home.p < para.p);
        assert!(!home.kept_by.iter().any(|a| a == "learned"));
    }

    #[test]
    fn long_text_is_cut() {
        let long = "word ".repeat(200);
        let c = clip(&long);
        assert_eq!(c.chars().count(), UNIT_TEXT_CHARS + 1);
        assert!(c.ends_with('…'));
        assert_eq!(clip(" a  b "), "a b");
    }
}
