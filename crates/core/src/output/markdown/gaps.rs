//! What the extraction left out between kept texts but a reader of the markdown expects in
//! place: a code block, an embedded video, a link card or a side note that sits right next to
//! kept text,
//! a list right after the kept sentence that introduces it with a colon,
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

fn candidate(tree: &Tree, id: NodeId, in_furniture: &[bool]) -> bool {
    let n = tree.node(id);
    if !n.rendered && n.tag != "iframe" {
        return false;
    }
    super::video::is_video(n)
        || introduced_list(tree, id, in_furniture)
        || link_card(tree, id, in_furniture)
        || n.tag == "pre"
        || super::code::is_widget(n)
        || n.class.as_deref().is_some_and(|c| {
            c.split_whitespace()
                .any(|t| t == "sidenote" || t == "marginnote")
        })
}

/// A list the kept sentence before it introduces with a colon ("so I can compare the two:"
/// and a task list): an `ul`, `ol` or `dl` outside site furniture (`in_furniture`, from
/// [`furniture_mask`]), at most half of its text in links.
fn introduced_list(tree: &Tree, id: NodeId, in_furniture: &[bool]) -> bool {
    matches!(tree.node(id).tag.as_str(), "ul" | "ol" | "dl")
        && tree.chars[id] > 0
        && 2 * tree.link_chars[id] <= tree.chars[id]
        && !in_furniture[id]
}

/// A link card: a link to a web page laid out as a box (not a run of text) holding its title
/// and a line or two more (a summary, the site's address): Naver's `a.se-oglink-info`, Zhihu's
/// `a.LinkCard`, a bookmark card; [`LINK_CARD_CHARS`] characters at most, no picture, outside
/// lists and site furniture. Between kept texts it is the author's own pointer.
fn link_card(tree: &Tree, id: NodeId, in_furniture: &[bool]) -> bool {
    let n = tree.node(id);
    let texts = tree
        .subtree(id)
        .filter(|&d| tree.node(d).is_text() && tree.own_chars[d] > 0)
        .count();
    n.tag == "a"
        && n.href
            .as_deref()
            .is_some_and(|h| h.starts_with("http://") || h.starts_with("https://"))
        && matches!(n.display.as_str(), "block" | "flex" | "grid")
        && (1..=LINK_CARD_CHARS).contains(&tree.chars[id])
        && texts >= 2
        && !in_furniture[id]
        // A teaser with its picture, or one of a list of links ("Mehr zum Thema"), is the
        // site's, not the author's.
        && !tree.subtree(id).any(|d| tree.node(d).tag == "img")
        && !tree.ancestors(id).any(|a| tree.node(a).tag == "li")
}

/// The most characters a link card ([`link_card`]) holds: a title and a summary.
const LINK_CARD_CHARS: usize = 300;

/// Per node: is it, or an ancestor, furniture by its tag or role
/// ([`super::article::furniture_element`])?
fn furniture_mask(tree: &Tree) -> Vec<bool> {
    let mut mask = vec![false; tree.len()];
    for i in 0..tree.len() {
        mask[i] = super::article::furniture_element(tree.node(i))
            || tree.parent(i).is_some_and(|p| mask[p]);
    }
    mask
}

/// How many times the gaps are looked for: a code block kept in one round is kept text for the
/// next, so a run of blocks (a notebook's code cell, its output, the next cell) joins whole.
const ROUNDS: usize = 3;

/// Keep the code blocks, videos and side notes that sit between kept texts.
pub(super) fn keep_between(tree: &Tree, kept: &mut Cow<[bool]>) {
    let in_furniture = furniture_mask(tree);
    for _ in 0..ROUNDS {
        if !keep_between_once(tree, kept, &in_furniture) {
            break;
        }
    }
}

/// One round of [`keep_between`]; did it keep anything?
fn keep_between_once(tree: &Tree, kept: &mut Cow<[bool]>, in_furniture: &[bool]) -> bool {
    let n = tree.len();
    // Per node: the state of the last text before it (None: no text), any kept text before.
    let mut before = vec![(None, false); n];
    // Per node: does the last text before it end with a colon (it introduces what follows)?
    // (Or the last text is a heading's: the block opens the heading's section, "Examples".)
    let mut colon = vec![false; n];
    // The same, a colon only (not a heading): what a list needs.
    let mut colon_only = vec![false; n];
    let mut in_heading = vec![false; n];
    let (mut last, mut any, mut ends, mut ends_colon) = (None, false, false, false);
    for (i, b) in before.iter_mut().enumerate() {
        *b = (last, any);
        colon[i] = ends;
        colon_only[i] = ends_colon;
        in_heading[i] =
            tree.node(i).heading_level().is_some() || tree.parent(i).is_some_and(|p| in_heading[p]);
        if tree.node(i).is_text() && tree.own_chars[i] > 0 {
            last = Some(kept[i]);
            any |= kept[i];
            ends_colon = tree
                .node(i)
                .text
                .as_deref()
                .is_some_and(|t| t.trim_end().ends_with(':'));
            ends = in_heading[i] || ends_colon;
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
        if !candidate(tree, i, in_furniture) {
            i += 1;
            continue;
        }
        let end = tree.subtree_end(i);
        if (i..end).any(|d| kept[d]) {
            // A partly kept link card is kept whole (its title without its address line).
            if link_card(tree, i, in_furniture)
                && (i..end).any(|d| !kept[d] && tree.node(d).rendered)
            {
                add.push((i, end));
            }
            // A partly kept list may hold a code block the extraction left out.
            i = if introduced_list(tree, i, in_furniture) {
                i + 1
            } else {
                end
            };
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
        // A list joins only when a sentence introduces it (its items' text was the
        // extraction's to judge).
        let list = introduced_list(tree, i, in_furniture);
        let introduced = prev == Some(true)
            && if list {
                colon_only[outer]
            } else {
                colon[outer]
            };
        let between = any_before && any_after && (prev == Some(true) || next == Some(true));
        if (between && !list) || introduced {
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

/// The most characters a section's body may hold to be brought back ([`keep_sections`]): a
/// reference list, not the rest of a site.
const SECTION_MAX_CHARS: usize = 20_000;

/// Bring back the body of a section whose heading was kept, with the next heading, while
/// nothing between them was ("6.1. Normative References" and its list of references): the
/// page says the section holds it, and a heading with nothing under it reads as a gap. The
/// body is everything between the two headings' texts, when all of it is in lists,
/// definition lists or tables (not a card's teaser and button), it holds no heading of its own,
/// no site furniture (by tag or role: `nav`, `aside`, `footer`, a navigation role), no form
/// control, at most [`SECTION_MAX_CHARS`] characters and at most half of them in links, and
/// the heading is not the first kept (the title's, under which a page puts its header).
pub(super) fn keep_sections(tree: &Tree, kept: &mut Cow<[bool]>) {
    let n = tree.len();
    let heading_text = |i: NodeId| {
        tree.ancestors(i)
            .any(|a| tree.node(a).heading_level().is_some())
    };
    // The texts in document order: (node, kept, in a heading).
    let texts: Vec<(NodeId, bool, bool)> = (0..n)
        .filter(|&i| tree.node(i).is_text() && tree.own_chars[i] > 0 && tree.node(i).rendered)
        .map(|i| (i, kept[i], heading_text(i)))
        .collect();
    // The title's heading opens no section: what sits under it is the page's header (a
    // shop's buttons, a topic's first author).
    let Some(first_heading) = texts.iter().position(|t| t.1 && t.2) else {
        return;
    };
    let in_furniture = furniture_mask(tree);
    let mut add = Vec::new();
    let mut k = 0;
    while k < texts.len() {
        let (_, kept_k, head_k) = texts[k];
        if !(kept_k && head_k) {
            k += 1;
            continue;
        }
        // The run of texts after this heading's last text that nothing kept.
        let mut j = k + 1;
        while j < texts.len()
            && texts[j].2
            && texts[j].1
            && same_heading(tree, texts[k].0, texts[j].0)
        {
            j += 1;
        }
        let start = j;
        while j < texts.len() && !texts[j].1 {
            j += 1;
        }
        if j > start && j < texts.len() && texts[j].2 && !texts[start..j].iter().any(|t| t.2) {
            let b = texts[j].0;
            let h = tree
                .ancestors(texts[start - 1].0)
                .find(|&x| tree.node(x).heading_level().is_some());
            let chars: usize = texts[start..j].iter().map(|t| tree.own_chars[t.0]).sum();
            let furniture = texts[start..j].iter().any(|t| in_furniture[t.0]);
            let links: usize = texts[start..j]
                .iter()
                .filter(|t| tree.node(t.0).link)
                .map(|t| tree.own_chars[t.0])
                .sum();
            let controls = (texts[start].0..b).any(|d| {
                matches!(
                    tree.node(d).tag.as_str(),
                    "button" | "input" | "select" | "textarea" | "form"
                )
            });
            // A list, a definition list or a table, not prose and links (a card grid's
            // teasers under their kept titles, which the extraction left out for a reason).
            let listed = h.is_some_and(|h| {
                let from = tree.subtree_end(h);
                texts[start..j].iter().all(|t| {
                    tree.ancestors(t.0).any(|a| {
                        a >= from
                            && tree.subtree_end(a) <= b
                            && matches!(tree.node(a).tag.as_str(), "ul" | "ol" | "dl" | "table")
                    })
                })
            });
            let ok = listed
                && k > first_heading
                && chars <= SECTION_MAX_CHARS
                && 2 * links <= chars
                && !furniture
                && !controls;
            if let (Some(h), true) = (h, ok) {
                add.push((h, b));
            }
        }
        k = j.max(k + 1);
    }
    if add.is_empty() {
        return;
    }
    let kv = kept.to_mut();
    for (h, b) in add {
        // The elements wholly after the heading and before the next heading's text (an
        // element holding the next heading, a section, is looked into).
        let mut i = tree.subtree_end(h);
        while i < b {
            let end = tree.subtree_end(i);
            if end <= b {
                for (d, kd) in kv.iter_mut().enumerate().take(end).skip(i) {
                    *kd |= tree.node(d).rendered || tree.node(d).tag == "br";
                }
                i = end;
            } else {
                i += 1;
            }
        }
    }
}

/// Are texts `a` and `b` in the same heading element?
fn same_heading(tree: &Tree, a: NodeId, b: NodeId) -> bool {
    tree.ancestors(a)
        .find(|&x| tree.node(x).heading_level().is_some())
        .is_some_and(|h| tree.contains(h, b))
}
