//! Context features of the `learned` classifier: what a unit is *compared with the rest of
//! its page*, so that one page's scale does not matter, and whether it sits in a repeated
//! record or reads like a price, a rating, a date or a post's metadata; short edge lines and a
//! shop's chrome (as a line, or as the heading a unit is under); machine identifiers.
//!
//! [`context_features`] gives [`CONTEXT_FEATURES`]`.len()` values per unit, in that list's
//! order (`schema::FEATURES` ends with it), from one group after the other:
//! - `relative`: size, link density, type size, width and left edge against the page;
//! - `records`: repeated records (siblings with the same tag and class) and their layout;
//! - `patterns`: price, rating, date, "ago", forum words, short labels, machine identifiers;
//! - `phrases`: the phrase lists of edge lines and shop chrome, and the heading scope.

pub(crate) mod patterns;
mod phrases;
mod records;
mod relative;

use super::flag;
use super::schema::CONTEXT_FEATURES;
use super::units::Unit;
use crate::snapshot::Tree;

/// The context features of each unit: `CONTEXT_FEATURES.len()` values per unit, row-major.
/// `chars`, `link_ratio` and `font` are the units' character counts, link ratios and font
/// sizes (px).
///
/// Phases: the page's scales (its characters, the viewport's width) → the page-relative
/// measures ([`relative::Relative`]) → the repeated records ([`records::Records`]) → per unit,
/// in reading order: page-relative, repetition, pattern, edge-line and shop features, the
/// heading it is under ([`phrases::HeadingScope`]), its machine tokens.
pub fn context_features(
    tree: &Tree,
    units: &[Unit],
    chars: &[usize],
    link_ratio: &[f64],
    font: &[f64],
) -> Vec<f64> {
    let nu = units.len();
    let m = CONTEXT_FEATURES.len();
    let mut out = Vec::with_capacity(nu * m);
    if nu == 0 {
        return out;
    }
    let page_chars = chars.iter().sum::<usize>().max(1) as f64;
    let vw = tree.snap.viewport.width.max(1.0);
    let relative = relative::Relative::new(tree, units, chars, link_ratio, font, page_chars, vw);
    let mut records = records::Records::new(tree, units, chars, page_chars, vw);
    let mut scope = phrases::HeadingScope::default();
    for (k, unit) in units.iter().enumerate() {
        let text = unit.text.trim();
        relative.push(k, &mut out);
        records.push(k, &mut out);
        patterns::push(text, &mut out);
        out.extend(phrases::edge_kinds(text));
        let (shop, related) = scope.read(unit.heading_level(tree), text);
        out.push(flag(shop));
        out.push(flag(related));
        out.push(patterns::machine_token_share(text));
    }
    debug_assert_eq!(out.len(), nu * m);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::{rect, SnapshotBuilder};

    /// The context features of the page `b` builds, which has `n` units, by unit and name
    /// (no links, 16 px type).
    fn columns(b: SnapshotBuilder, n: usize) -> impl Fn(usize, &str) -> f64 {
        let snap = b.build();
        let tree = Tree::new(&snap);
        let units = super::super::units::units(&tree);
        assert_eq!(units.len(), n);
        let chars: Vec<usize> = units
            .iter()
            .map(|u| u.text.trim().chars().count())
            .collect();
        let f = context_features(&tree, &units, &chars, &vec![0.0; n], &vec![16.0; n]);
        let m = CONTEXT_FEATURES.len();
        move |u: usize, name: &str| {
            f[u * m + CONTEXT_FEATURES.iter().position(|x| *x == name).unwrap()]
        }
    }

    #[test]
    fn repeated_records_are_found() {
        let mut b = SnapshotBuilder::new(1000.0);
        let art = b.el(0, "article", rect(0.0, 0.0, 700.0, 300.0));
        let p = b.el(art, "p", rect(0.0, 0.0, 700.0, 100.0));
        b.text(p, "A long paragraph of the article, with words.");
        let ul = b.el(0, "ul", rect(0.0, 400.0, 700.0, 300.0));
        for k in 0..4 {
            let li = b.el(ul, "li", rect(0.0, 400.0 + 50.0 * k as f64, 700.0, 50.0));
            b.node_mut(li).class = Some("item".into());
            b.text(li, "Item for sale $5");
        }
        let col = columns(b, 5);
        assert_eq!(col(0, "in_record"), 0.0);
        assert_eq!(col(1, "in_record"), 1.0);
        assert!((col(1, "rep_ln_same") - 4f64.ln()).abs() < 1e-12);
        assert_eq!(col(1, "rep_level"), 0.0);
        assert_eq!(col(1, "has_price"), 1.0);
        assert_eq!(col(0, "chars_rank"), 1.0);
        let rec = 4.0 * 16.0 / (44.0 + 4.0 * 16.0);
        assert!((col(0, "page_record_share") - rec).abs() < 1e-12);
        assert!((col(2, "record_share") - rec).abs() < 1e-12);
        // One item a row: no grid; the list is the page's only (so largest) group.
        assert_eq!(col(1, "grid_cols"), 0.0);
        assert_eq!(col(1, "group_largest"), 1.0);
        assert_eq!(col(0, "group_largest"), 0.0);
        assert!((col(1, "group_w_rel") - 0.7).abs() < 1e-12);
    }

    #[test]
    fn cards_in_a_row_are_a_grid_and_the_larger_group_is_marked() {
        let mut b = SnapshotBuilder::new(1000.0);
        let grid = b.el(0, "div", rect(0.0, 0.0, 900.0, 400.0));
        for k in 0..6 {
            let (x, y) = (300.0 * (k % 3) as f64, 200.0 * (k / 3) as f64);
            let card = b.el(grid, "div", rect(x, y, 280.0, 180.0));
            b.node_mut(card).class = Some("card".into());
            b.text(card, "A product card with a longer name $12");
        }
        let side = b.el(0, "ul", rect(920.0, 0.0, 80.0, 300.0));
        for k in 0..3 {
            let li = b.el(side, "li", rect(920.0, 30.0 * k as f64, 80.0, 30.0));
            b.text(li, "Link");
        }
        let col = columns(b, 9);
        assert!((col(0, "grid_cols") - 3f64.ln()).abs() < 1e-12);
        assert!((col(5, "grid_cols") - 3f64.ln()).abs() < 1e-12);
        assert_eq!(col(0, "group_largest"), 1.0);
        assert_eq!(col(6, "in_record"), 1.0);
        assert_eq!(col(6, "grid_cols"), 0.0);
        assert_eq!(col(6, "group_largest"), 0.0);
        assert!((col(0, "group_w_rel") - 0.9).abs() < 1e-12);
    }
}
