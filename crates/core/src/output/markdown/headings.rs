//! Heading levels kept relative, with one `#` for the title: the page's highest heading level
//! becomes 1 (a page whose title is an `<h2>` and whose sections are `<h3>`s gives `#` and
//! `##`); the page's, not the content's, so that the sections of an article whose title the
//! extraction left out keep `##`. Under a title that is no heading (a `div.title` the
//! document's `<title>` names), the highest level becomes 2 (1 when it is `<h1>`).

use std::collections::HashMap;

use crate::snapshot::{NodeId, Tree};

/// Each written heading's markdown level.
#[derive(Debug, Default)]
pub(super) struct Levels(HashMap<NodeId, u8>);

impl Levels {
    pub(super) fn new(
        tree: &Tree,
        kept: &[bool],
        hide: &[bool],
        moved: &[bool],
        title: Option<NodeId>,
    ) -> Levels {
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
        // A title that is no heading (Doxygen's `div.title`, a forum's topic line) is the
        // `#`; the page's highest heading level is then `##`, unless the page has `<h1>`s
        // (a Google Docs export's title paragraph above its `<h1>` sections keeps them `#`).
        let top = if title.is_some_and(|t| {
            tree.node(t).heading_level().is_none() && !hs.iter().any(|&(h, _)| h == t)
        }) {
            min.min(2)
        } else {
            1
        };
        // A heading below the page's highest level that the document's `<title>` names (see
        // `title::document_title`) is the `#`, and the content's headings go under it (`##`
        // at least), counted from its level.
        let lower_title = title
            .and_then(|t| Some((t, tree.node(t).heading_level()?)))
            .filter(|&(t, l)| {
                l > min
                    && !tree
                        .ancestors(t)
                        .any(|a| tree.node(a).heading_level().is_some())
            });
        let (base, top, floor) = match lower_title {
            Some((_, l)) => (l, 1, 2),
            None => (min, top, 1),
        };
        let map = hs
            .iter()
            .map(|&(id, l)| {
                let level = if lower_title.is_some_and(|(t, _)| t == id) {
                    1
                } else {
                    (l.saturating_sub(base) + top).clamp(floor, 6)
                };
                (id, level)
            })
            .collect();
        Levels(map)
    }

    /// The markdown level of a heading (its own when not seen).
    pub(super) fn level(&self, id: NodeId, own: u8) -> u8 {
        self.0.get(&id).copied().unwrap_or(own)
    }
}
