//! Heading levels kept relative, with one `#` for the title: the page's highest heading level
//! becomes 1 (a page whose title is an `<h2>` and whose sections are `<h3>`s gives `#` and
//! `##`); the page's, not the content's, so that the sections of an article whose title the
//! extraction left out keep `##`.

use std::collections::HashMap;

use crate::snapshot::{NodeId, Tree};

/// Each written heading's markdown level.
#[derive(Debug, Default)]
pub(super) struct Levels(HashMap<NodeId, u8>);

impl Levels {
    pub(super) fn new(tree: &Tree, kept: &[bool], hide: &[bool], moved: &[bool]) -> Levels {
        let mut hs: Vec<(NodeId, u8)> = Vec::new();
        let mut i = 1;
        let n = tree.len();
        while i < n {
            if !kept[i] || hide[i] || moved[i] {
                i = if hide[i] || moved[i] {
                    tree.subtree_end(i)
                } else {
                    i + 1
                };
                continue;
            }
            if let Some(l) = tree.node(i).heading_level() {
                if tree.chars[i] > 0 {
                    hs.push((i, l));
                }
                i = tree.subtree_end(i);
                continue;
            }
            i += 1;
        }
        // The page's highest level (a title the extraction dropped still counts: the
        // content's `<h2>`s then stay `##`).
        let Some(min) = (1..n)
            .filter(|&i| tree.node(i).rendered && tree.chars[i] > 0)
            .filter_map(|i| tree.node(i).heading_level())
            .min()
        else {
            return Levels::default();
        };
        let map = hs
            .iter()
            .map(|&(id, l)| (id, (l.saturating_sub(min) + 1).min(6)))
            .collect();
        Levels(map)
    }

    /// The markdown level of a heading (its own when not seen).
    pub(super) fn level(&self, id: NodeId, own: u8) -> u8 {
        self.0.get(&id).copied().unwrap_or(own)
    }
}
