//! What the extraction left out between kept texts but a reader of the markdown expects in
//! place: a code block, an embedded video or a side note that sits right next to kept text,
//! with kept text both before and after it (as `learned` does for images), or right after the
//! kept sentence that introduces it with a colon or the kept heading whose section it opens (a
//! page's last example). Extractors score
//! text, and a code block or a video player has little prose to score.
//!
//! The element counts with its wrapper (up to [`WRAPPER_LEVELS`] ancestors holding at most
//! [`WRAPPER_EXTRA_CHARS`] characters beyond its own and nothing kept: a title bar, a
//! caption, a copy button), so the text right before or after the wrapper decides; only the element itself is
//! kept, not its wrapper's labels.

use std::borrow::Cow;

use crate::snapshot::{NodeId, Tree};

// How many ancestors may wrap an element, and how many characters beyond its own they may
// hold: a code block's wrapper's ([`super::code`]).
use super::code::{WRAPPER_EXTRA_CHARS, WRAPPER_LEVELS};

fn candidate(tree: &Tree, id: NodeId) -> bool {
    let n = tree.node(id);
    if !n.rendered && n.tag != "iframe" {
        return false;
    }
    super::video::is_video(n)
        || n.tag == "pre"
        || super::code::is_widget(n)
        || n.class.as_deref().is_some_and(|c| {
            c.split_whitespace()
                .any(|t| t == "sidenote" || t == "marginnote")
        })
}

/// How many times the gaps are looked for: a code block kept in one round is kept text for the
/// next, so a run of blocks (a notebook's code cell, its output, the next cell) joins whole.
const ROUNDS: usize = 3;

/// Keep the code blocks, videos and side notes that sit between kept texts.
pub(super) fn keep_between(tree: &Tree, kept: &mut Cow<[bool]>) {
    for _ in 0..ROUNDS {
        if !keep_between_once(tree, kept) {
            break;
        }
    }
}

/// One round of [`keep_between`]; did it keep anything?
fn keep_between_once(tree: &Tree, kept: &mut Cow<[bool]>) -> bool {
    let n = tree.len();
    // Per node: the state of the last text before it (None: no text), any kept text before.
    let mut before = vec![(None, false); n];
    // Per node: does the last text before it end with a colon (it introduces what follows)?
    // (Or the last text is a heading's: the block opens the heading's section, "Examples".)
    let mut colon = vec![false; n];
    let mut in_heading = vec![false; n];
    let (mut last, mut any, mut ends) = (None, false, false);
    for (i, b) in before.iter_mut().enumerate() {
        *b = (last, any);
        colon[i] = ends;
        in_heading[i] =
            tree.node(i).heading_level().is_some() || tree.parent(i).is_some_and(|p| in_heading[p]);
        if tree.node(i).is_text() && tree.own_chars[i] > 0 {
            last = Some(kept[i]);
            any |= kept[i];
            ends = in_heading[i]
                || tree
                    .node(i)
                    .text
                    .as_deref()
                    .is_some_and(|t| t.trim_end().ends_with(':'));
        }
    }
    // Per node: the state of the first text at or after it, any kept text at or after.
    let mut after = vec![(None, false); n + 1];
    let (mut next, mut any) = (None, false);
    for i in (0..n).rev() {
        if tree.node(i).is_text() && tree.own_chars[i] > 0 {
            next = Some(kept[i]);
            any |= kept[i];
        }
        after[i] = (next, any);
    }
    let mut add = Vec::new();
    let mut i = 1;
    while i < n {
        if !candidate(tree, i) {
            i += 1;
            continue;
        }
        let end = tree.subtree_end(i);
        if (i..end).any(|d| kept[d]) {
            i = end;
            continue;
        }
        let mut outer = i;
        for a in tree.ancestors(i).take(WRAPPER_LEVELS) {
            if a == 0
                || tree.chars[a] > tree.chars[i] + WRAPPER_EXTRA_CHARS
                || tree.subtree(a).any(|d| kept[d])
            {
                break;
            }
            outer = a;
        }
        let (prev, any_before) = before[outer];
        let (next, any_after) = after[tree.subtree_end(outer)];
        // Between kept texts; or right after the kept sentence that introduces it ("with a
        // pause between batches:") or the kept heading it opens the section of ("Examples"),
        // though nothing is kept after it (a page's last example).
        let introduced = prev == Some(true) && colon[outer];
        if (any_before && any_after && (prev == Some(true) || next == Some(true))) || introduced {
            add.push((i, end));
        }
        i = end;
    }
    if add.is_empty() {
        return false;
    }
    let k = kept.to_mut();
    for (s, e) in add {
        for (d, kd) in k.iter_mut().enumerate().take(e).skip(s) {
            let dn = tree.node(d);
            *kd |= dn.rendered || dn.tag == "br" || d == s;
        }
    }
    true
}
