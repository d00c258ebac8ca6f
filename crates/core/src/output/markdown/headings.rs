//! Heading levels kept relative, with one `#` for the title: the page's highest heading level
//! becomes 1 (a page whose title is an `<h2>` and whose sections are `<h3>`s gives `#` and
//! `##`); the page's, not the content's, so that the sections of an article whose title the
//! extraction left out keep `##`. Under a title that is no heading (a `div.title` the
//! document's `<title>` names), the highest level becomes 2 (1 when it is `<h1>`).

use std::collections::HashMap;

use crate::snapshot::{NodeId, Tree};

/// Each written heading's markdown level, and the paragraphs written as headings because the
/// page draws them as headings ([`styled_headings`]).
#[derive(Debug, Default)]
pub(super) struct Levels {
    /// Heading elements' levels, where they differ from their own.
    levels: HashMap<NodeId, u8>,
    /// Paragraphs written as headings, and their levels.
    styled: HashMap<NodeId, u8>,
}

impl Levels {
    pub(super) fn new(
        tree: &Tree,
        kept: &[bool],
        hide: &[bool],
        moved: &[bool],
        title: Option<NodeId>,
    ) -> Levels {
        let levels = element_levels(tree, kept, hide, moved, title);
        let mut styled = styled_headings(tree, kept, hide, title);
        styled.extend(xml_headings(tree, kept, hide, &levels));
        Levels { levels, styled }
    }

    /// The markdown level of a heading (its own when not seen).
    pub(super) fn level(&self, id: NodeId, own: u8) -> u8 {
        self.levels.get(&id).copied().unwrap_or(own)
    }

    /// The level of a paragraph the page draws as a heading ([`styled_headings`]).
    pub(super) fn styled(&self, id: NodeId) -> Option<u8> {
        self.styled.get(&id).copied()
    }
}

/// The written heading elements' markdown levels (see the module rules).
fn element_levels(
    tree: &Tree,
    kept: &[bool],
    hide: &[bool],
    moved: &[bool],
    title: Option<NodeId>,
) -> HashMap<NodeId, u8> {
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
        return HashMap::new();
    };
    // A title that is no heading (Doxygen's `div.title`, a forum's topic line) is the
    // `#`; the page's highest heading level is then `##`, unless the page has `<h1>`s
    // (a Google Docs export's title paragraph above its `<h1>` sections keeps them `#`).
    let top = if title
        .is_some_and(|t| tree.node(t).heading_level().is_none() && !hs.iter().any(|&(h, _)| h == t))
    {
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
    hs.iter()
        .map(|&(id, l)| {
            let level = if lower_title.is_some_and(|(t, _)| t == id) {
                1
            } else {
                (l.saturating_sub(base) + top).clamp(floor, 6)
            };
            (id, level)
        })
        .collect()
}

/// The `<heading>` elements of patent full texts (Google Patents shows a description's
/// `<heading id="h-0001">BACKGROUND</heading>` as it comes from the patent's XML): kept, shown,
/// one short run of inline content, each is a heading one level below the written heading
/// before it (`levels`: the heading elements' markdown levels), `##` at least.
fn xml_headings(
    tree: &Tree,
    kept: &[bool],
    hide: &[bool],
    levels: &HashMap<NodeId, u8>,
) -> Vec<(NodeId, u8)> {
    let mut out = Vec::new();
    let mut above = 1;
    for i in 1..tree.len() {
        let node = tree.node(i);
        if let Some(&written) = levels.get(&i) {
            above = written;
            continue;
        }
        let inline = || {
            tree.subtree(i)
                .skip(1)
                .all(|d| tree.node(d).is_text() || !tree.is_block(d))
        };
        if node.tag == "heading"
            && kept[i]
            && !hide[i]
            && node.rendered
            && (1..=STYLED_MAX_CHARS).contains(&tree.chars[i])
            && inline()
        {
            out.push((i, (above + 1).clamp(2, 6)));
        }
    }
    out
}

/// How much larger than the content's body text a paragraph's text must be drawn to be a
/// heading (bold); unbolded, [`STYLED_PLAIN_RATIO`].
const STYLED_BOLD_RATIO: f64 = 1.2;
const STYLED_PLAIN_RATIO: f64 = 1.4;
/// The longest text (in characters) of a paragraph drawn as a heading.
const STYLED_MAX_CHARS: usize = 100;
/// A paragraph drawn as a heading is one line: its box no taller than this many times its
/// text's size (two lines at a line height of 1.6).
const STYLED_MAX_HEIGHT: f64 = 2.0 * 1.6;

/// A font size as a whole number of half pixels (sizes compared and counted so).
fn half_px(size: f64) -> u64 {
    (size * 2.0).round() as u64
}

/// Paragraphs the page draws as headings in content that has no heading element but its title
/// (Naver's SmartEditor `se-sectionTitle`, editors that style a paragraph instead of using
/// `<h2>`): a kept `p` (or a `div` of inline content) of one short line of text, not ending as
/// a sentence does, every text of it drawn at least [`STYLED_BOLD_RATIO`] times the body text's
/// size and bold (or [`STYLED_PLAIN_RATIO`] times), outside lists, tables, quotes, figures,
/// code and furniture, and not mostly a link. The largest size drawn so is `##`, the next
/// `###`, any smaller `####`.
fn styled_headings(
    tree: &Tree,
    kept: &[bool],
    hide: &[bool],
    title: Option<NodeId>,
) -> HashMap<NodeId, u8> {
    let n = tree.len();
    let shown = |i: NodeId| kept[i] && !hide[i] && tree.node(i).rendered;
    // Any heading element kept (but the title): the page marks its headings itself.
    if (1..n).any(|i| {
        shown(i) && tree.node(i).heading_level().is_some() && tree.chars[i] > 0 && Some(i) != title
    }) {
        return HashMap::new();
    }
    // The body text's size: the size most of the kept text is drawn at.
    let size_of = |t: NodeId| tree.parent(t).map_or(0.0, |p| tree.node(p).font_size);
    let mut sizes: HashMap<u64, usize> = HashMap::new();
    for (i, &k) in kept.iter().enumerate().take(n).skip(1) {
        if k && shown_text(tree, i) {
            *sizes.entry(half_px(size_of(i))).or_default() += tree.own_chars[i];
        }
    }
    let Some(body) = sizes
        .iter()
        .max_by_key(|&(s, c)| (*c, *s))
        .map(|(s, _)| *s as f64 / 2.0)
        .filter(|&b| b > 0.0)
    else {
        return HashMap::new();
    };
    let mut found: Vec<(NodeId, f64)> = Vec::new();
    for i in 1..n {
        let node = tree.node(i);
        if !shown(i) || !matches!(node.tag.as_str(), "p" | "div") || Some(i) == title {
            continue;
        }
        if title.is_some_and(|t| tree.contains(t, i) || tree.contains(i, t)) {
            continue;
        }
        let chars = tree.chars[i];
        if !(2..=STYLED_MAX_CHARS).contains(&chars) || tree.link_chars[i] * 2 > chars {
            continue;
        }
        // Inline content only (a `div` holding paragraphs is not one).
        if tree.subtree(i).skip(1).any(|d| {
            let dn = tree.node(d);
            matches!(
                dn.tag.as_str(),
                "p" | "div" | "ul" | "ol" | "table" | "pre" | "img" | "br" | "blockquote"
            )
        }) {
            continue;
        }
        if tree.ancestors(i).any(|a| {
            let an = tree.node(a);
            super::article::furniture_element(an)
                || super::callouts::kind(an).is_some()
                || matches!(
                    an.tag.as_str(),
                    "li" | "td"
                        | "th"
                        | "dl"
                        | "blockquote"
                        | "figure"
                        | "figcaption"
                        | "pre"
                        | "code"
                        | "details"
                        | "summary"
                )
        }) {
            continue;
        }
        let text = crate::snapshot::collapse_ws(&tree.text(i));
        let text = text.trim();
        if !text.chars().any(char::is_alphabetic)
            || text.ends_with(['.', ',', ';', ':', '…', '。', '，', '；', '：', '、'])
        {
            continue;
        }
        // One line: no taller than two of its lines.
        let texts: Vec<NodeId> = tree.subtree(i).filter(|&d| shown_text(tree, d)).collect();
        let Some(min) = texts.iter().map(|&t| size_of(t)).reduce(f64::min) else {
            continue;
        };
        if node.rect.h > STYLED_MAX_HEIGHT * min {
            continue;
        }
        let bold = texts.iter().all(|&t| {
            tree.parent(t)
                .is_some_and(|p| tree.node(p).font_weight >= 600)
        });
        let ratio = if bold {
            STYLED_BOLD_RATIO
        } else {
            STYLED_PLAIN_RATIO
        };
        if min >= ratio * body {
            found.push((i, min));
        }
    }
    let mut by_size: Vec<u64> = found.iter().map(|&(_, s)| half_px(s)).collect();
    by_size.sort_unstable_by(|a, b| b.cmp(a));
    by_size.dedup();
    found
        .into_iter()
        .map(|(i, s)| {
            let rank = by_size.iter().position(|&b| b == half_px(s)).unwrap_or(0);
            (i, (2 + rank as u8).min(4))
        })
        .collect()
}

/// A text node holding more than white space, drawn.
fn shown_text(tree: &Tree, id: NodeId) -> bool {
    tree.node(id).is_text()
        && tree.own_chars[id] > 0
        && tree.parent(id).is_some_and(|p| tree.node(p).rendered)
}
