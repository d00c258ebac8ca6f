//! Heading levels kept relative, with one `#` for the title: the content's highest heading
//! level becomes 1 (an article whose title is an `<h2>` starts with `#`); when several
//! headings share that level and the first of them comes first, it is the title and the
//! others move one level down (`h1, h1, h2` → `#`, `##`, `###`); when several share it and
//! another heading comes first, none is the title and all move one level down. Levels stop
//! at 6.

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
        let Some(min) = hs.iter().map(|h| h.1).min() else {
            return Levels::default();
        };
        let at_min = hs.iter().filter(|h| h.1 == min).count();
        let first_is_title = hs[0].1 == min;
        let map = hs
            .iter()
            .enumerate()
            .map(|(k, &(id, l))| {
                let rel = l - min + 1;
                let lvl = if at_min == 1 || (first_is_title && k == 0) {
                    rel
                } else {
                    rel + 1
                };
                (id, lvl.min(6))
            })
            .collect();
        Levels(map)
    }

    /// The markdown level of a heading (its own when not seen).
    pub(super) fn level(&self, id: NodeId, own: u8) -> u8 {
        self.0.get(&id).copied().unwrap_or(own)
    }
}
