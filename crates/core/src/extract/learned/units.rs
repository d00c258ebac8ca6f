//! The units `learned` decides on. A **unit** is a maximal run of consecutive text nodes
//! (document order) that share their nearest block ancestor: exactly the pieces the text
//! writer joins into one paragraph, so keeping or dropping a unit keeps or drops whole output
//! lines. Also each unit's text statistics (the text features read them).

use std::collections::HashSet;

use crate::extract::text::{is_punct, words};
use crate::snapshot::{NodeId, Tree};

/// One classified unit: a run of text nodes with the same nearest block ancestor.
#[derive(Debug, Clone)]
pub struct Unit {
    /// The nearest block ancestor (the paragraph the writer puts the text in).
    pub block: NodeId,
    /// The text nodes, in document order.
    pub nodes: Vec<NodeId>,
    /// Their text, concatenated as the text writer joins it.
    pub text: String,
    /// The block's parent, grandparent and great-grandparent (the root repeats at the top).
    pub ancestors: [NodeId; 3],
}

impl Unit {
    /// The heading level (1–6) of the unit's block, or else of its parent: the unit is (in)
    /// a heading.
    pub fn heading_level(&self, tree: &Tree) -> Option<u8> {
        [self.block, self.ancestors[0]]
            .into_iter()
            .find_map(|i| tree.node(i).heading_level())
    }
}

/// The units of a page, in document order.
pub fn units(tree: &Tree) -> Vec<Unit> {
    let n = tree.len();
    let mut nearest = vec![0usize; n];
    for i in 0..n {
        nearest[i] = if tree.is_block(i) {
            i
        } else {
            tree.parent(i).map_or(0, |p| nearest[p])
        };
    }
    let mut out: Vec<Unit> = Vec::new();
    let mut last_text: Option<NodeId> = None;
    for i in 0..n {
        let nd = tree.node(i);
        if !nd.is_text() {
            // A block element between two text nodes separates them.
            if tree.is_block(i) {
                last_text = None;
            }
            continue;
        }
        if tree.own_chars[i] == 0 {
            continue;
        }
        let b = tree.parent(i).map_or(0, |p| nearest[p]);
        let t = nd.text.as_deref().unwrap_or("");
        match out.last_mut() {
            Some(u) if u.block == b && last_text.is_some() => {
                u.nodes.push(i);
                u.text.push_str(t);
            }
            _ => {
                let a1 = tree.parent(b).unwrap_or(b);
                let a2 = tree.parent(a1).unwrap_or(a1);
                let a3 = tree.parent(a2).unwrap_or(a2);
                out.push(Unit {
                    block: b,
                    nodes: vec![i],
                    text: t.to_string(),
                    ancestors: [a1, a2, a3],
                })
            }
        }
        last_text = Some(i);
    }
    out
}

/// Text statistics of one unit.
pub(super) struct TextStats {
    pub(super) chars: usize,
    pub(super) link_chars: usize,
    pub(super) words: usize,
    pub(super) punct: usize,
    pub(super) sentence_ends: usize,
    pub(super) stop: usize,
    pub(super) digits: usize,
    pub(super) upper: usize,
    pub(super) letters: usize,
    pub(super) word_len: usize,
    pub(super) separators: usize,
    pub(super) ends_with_stop: bool,
    pub(super) starts_upper: bool,
    pub(super) copyright: bool,
}

/// The statistics of one unit and, when `keep_words`, its lower-cased words that are not
/// stop words (for the title overlap).
pub(super) fn text_stats(
    tree: &Tree,
    u: &Unit,
    stop: &HashSet<&str>,
    keep_words: bool,
) -> (TextStats, HashSet<String>) {
    let mut s = TextStats {
        chars: 0,
        link_chars: 0,
        words: 0,
        punct: 0,
        sentence_ends: 0,
        stop: 0,
        digits: 0,
        upper: 0,
        letters: 0,
        word_len: 0,
        separators: 0,
        ends_with_stop: false,
        starts_upper: false,
        copyright: false,
    };
    for &i in &u.nodes {
        s.chars += tree.own_chars[i];
        if tree.node(i).link {
            s.link_chars += tree.own_chars[i];
        }
    }
    let text = u.text.trim();
    for c in text.chars() {
        if is_punct(c) {
            s.punct += 1;
            if matches!(c, '.' | '!' | '?' | '。' | '！' | '？') {
                s.sentence_ends += 1;
            }
        }
        if c.is_numeric() {
            s.digits += 1;
        }
        if c.is_alphabetic() {
            s.letters += 1;
            if c.is_uppercase() {
                s.upper += 1;
            }
        }
        if matches!(c, '|' | '·' | '»' | '•' | '›' | '/' | '>') {
            s.separators += 1;
        }
        if c == '©' {
            s.copyright = true;
        }
    }
    s.ends_with_stop = text
        .chars()
        .last()
        .is_some_and(|c| matches!(c, '.' | '!' | '?' | '。' | '！' | '？' | '"' | '”' | ':'));
    s.starts_upper = text.chars().next().is_some_and(|c| c.is_uppercase());
    let mut kept = HashSet::new();
    for w in words(text) {
        s.words += 1;
        s.word_len += w.chars().count();
        let lower = w.to_lowercase();
        if stop.contains(lower.as_str()) {
            s.stop += 1;
        } else if keep_words {
            kept.insert(lower);
        }
    }
    (s, kept)
}
