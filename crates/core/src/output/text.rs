//! Plain-text writer: kept text in document order, one paragraph per block element (and per
//! `<br>`), one paragraph per line; text whose line breaks the page shows (code blocks,
//! `white-space: pre`) keeps them, one line each.

use crate::extract::Extraction;
use crate::snapshot::{collapse_ws, NodeId, Rect, Tree};

/// The nearest block ancestor of a node (or the root).
fn block_of(tree: &Tree, id: NodeId) -> NodeId {
    tree.ancestors(id).find(|&a| tree.is_block(a)).unwrap_or(0)
}

fn is_cell(tree: &Tree, id: NodeId) -> bool {
    let n = tree.node(id);
    n.display == "table-cell" || n.tag == "td" || n.tag == "th"
}

/// Does the layout show text box `b` apart from text box `a` before it: on the same line
/// with a gap of at least [`WORD_GAP_PX`], or wholly below it (wrapped to a later line, which
/// no word does without a break)? Texts run together ("foo<b>bar</b>") touch; boxes without
/// size say nothing.
pub fn apart(a: Rect, b: Rect) -> bool {
    if a.w <= 0.0 || b.w <= 0.0 || a.h <= 0.0 || b.h <= 0.0 {
        return false;
    }
    let t = LINE_OVERLAP_PX;
    if b.y >= a.y + a.h - t {
        return true;
    }
    let same_line = a.y < b.y + b.h - t;
    same_line && b.x - (a.x + a.w) >= WORD_GAP_PX
}

/// Does a space go between text already written, ending in `before`, from a text node with
/// box `prev`, and the next text node `(text, rect)`? Only where neither side has whitespace
/// already, the layout shows them [`apart`], and neither side is Chinese or Japanese (which
/// wrap between any two characters), nor before closing punctuation (the gap after a padded
/// `<code>` box is no word space: "`start_link/1`."). The text and markdown writers both ask
/// this.
pub fn space_between(before: Option<char>, prev: Rect, text: &str, rect: Rect) -> bool {
    let written = |c: Option<char>| c.is_some_and(|c| !c.is_whitespace() && !is_cjk(c));
    let next = text.chars().next();
    written(before)
        && written(next)
        && !next.is_some_and(|c| matches!(c, '.' | ',' | ';' | ':' | '!' | '?' | ')' | ']' | '}'))
        && apart(prev, rect)
}

/// Han, kana, hangul and their punctuation and full-width forms: scripts written without
/// spaces between words.
fn is_cjk(c: char) -> bool {
    matches!(c, '\u{3000}'..='\u{9fff}' | '\u{ac00}'..='\u{d7af}' | '\u{f900}'..='\u{faff}' | '\u{ff00}'..='\u{ffef}')
}

/// The smallest horizontal gap between two texts on one line that separates words (px): a
/// space is about a quarter of the font size, kerning and rounding (boxes are kept to
/// 0.1 px) under one pixel.
pub const WORD_GAP_PX: f64 = 2.0;

/// How far (px) two boxes on consecutive lines may overlap vertically and still count as
/// different lines (line boxes touch; rounding).
pub const LINE_OVERLAP_PX: f64 = 1.0;

/// The extraction as paragraphs of text (table rows: one line, cells separated by spaces).
pub fn paragraphs(tree: &Tree, ex: &Extraction) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut cur_block: Option<NodeId> = None;
    // The paragraph holds text whose line breaks the page shows (code, `white-space: pre`):
    // one output line per line.
    let mut lines = false;
    // The last text node written into the current paragraph.
    let mut prev: Option<NodeId> = None;
    let flush = |cur: &mut String, lines: &mut bool, out: &mut Vec<String>| {
        if *lines {
            out.extend(cur.split('\n').map(collapse_ws).filter(|l| !l.is_empty()));
        } else {
            let p = collapse_ws(cur);
            if !p.is_empty() {
                out.push(p);
            }
        }
        cur.clear();
        *lines = false;
    };
    for id in 0..tree.len() {
        let n = tree.node(id);
        if n.tag == "br" && ex.kept[id] {
            flush(&mut cur, &mut lines, &mut out);
            continue;
        }
        if !ex.kept[id] || !n.is_text() {
            continue;
        }
        let b = block_of(tree, id);
        if cur_block != Some(b) {
            // Cells of one table row stay on one line, separated by a space.
            let same_row = cur_block.is_some_and(|c| {
                is_cell(tree, c) && is_cell(tree, b) && tree.parent(c) == tree.parent(b)
            });
            if same_row {
                cur.push(' ');
            } else {
                flush(&mut cur, &mut lines, &mut out);
            }
            cur_block = Some(b);
            prev = None;
        }
        // Two texts of one paragraph that the layout shows apart (side by side with a gap,
        // as inline-blocks with a margin, or the second on a later line) are two words.
        if let Some(p) = prev {
            let text = n.text.as_deref().unwrap_or("");
            let (a, b) = (tree.node(p).last_line(), n.first_line());
            if space_between(cur.chars().next_back(), a, text, b) {
                cur.push(' ');
            }
        }
        prev = Some(id);
        match &n.raw {
            Some(raw) => {
                cur.push_str(raw);
                lines = true;
            }
            None => cur.push_str(n.text.as_deref().unwrap_or("")),
        }
    }
    flush(&mut cur, &mut lines, &mut out);
    out
}

/// The extraction as text: paragraphs joined by newlines, with a final newline when not empty.
pub fn render(tree: &Tree, ex: &Extraction) -> String {
    let p = paragraphs(tree, ex);
    if p.is_empty() {
        String::new()
    } else {
        p.join("\n") + "\n"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::{Algorithm, Extraction};
    use crate::snapshot::{rect, SnapshotBuilder};

    #[test]
    fn a_text_on_several_lines_is_spaced_from_where_its_last_line_ends() {
        // A caption wrapping to a second line that ends at x=200, then its credit in a box of
        // its own 7 px further on that line: two words ("propane. Annika").
        let mut b = SnapshotBuilder::new(800.0);
        let p = b.el(0, "p", rect(0.0, 0.0, 600.0, 40.0));
        let cap = b.el(p, "span", rect(0.0, 0.0, 600.0, 40.0));
        b.node_mut(cap).display = "inline".into();
        let t1 = b.text(cap, "most of them in houses that used to burn propane.");
        b.node_mut(t1).rect = rect(0.0, 0.0, 600.0, 40.0);
        b.node_mut(t1).lines = Some([rect(0.0, 0.0, 600.0, 20.0), rect(0.0, 20.0, 200.0, 20.0)]);
        let credit = b.el(p, "span", rect(207.0, 20.0, 150.0, 20.0));
        b.node_mut(credit).display = "inline-block".into();
        let t2 = b.text(credit, "Annika Sorensen");
        b.node_mut(t2).rect = rect(207.0, 20.0, 150.0, 20.0);
        let snap = b.build();
        let tree = Tree::new(&snap);
        let mut ex = Extraction::empty(Algorithm::Td, tree.len());
        ex.kept = vec![true; tree.len()];
        assert_eq!(
            paragraphs(&tree, &ex),
            vec!["most of them in houses that used to burn propane. Annika Sorensen".to_string()]
        );
        // Without the line boxes, the bounding box hides the gap.
        let mut snap = snap;
        snap.nodes[t1].lines = None;
        let tree = Tree::new(&snap);
        assert_eq!(
            paragraphs(&tree, &ex),
            vec!["most of them in houses that used to burn propane.Annika Sorensen".to_string()]
        );
    }

    #[test]
    fn texts_the_layout_shows_apart_are_two_words() {
        // Touching on one line ("foo<b>bar</b>"): one word.
        assert!(!apart(
            rect(0.0, 0.0, 30.0, 18.0),
            rect(30.0, 0.0, 20.0, 18.0)
        ));
        assert!(!apart(
            rect(0.0, 0.0, 30.0, 18.0),
            rect(31.5, 1.0, 20.0, 16.0)
        ));
        // A margin between inline-blocks: two words.
        assert!(apart(
            rect(0.0, 0.0, 30.0, 18.0),
            rect(38.0, 0.0, 20.0, 18.0)
        ));
        // Wrapped to the next line: two words.
        assert!(apart(
            rect(500.0, 0.0, 60.0, 18.0),
            rect(0.0, 18.0, 40.0, 18.0)
        ));
        // After a text of several lines, on its last line: its box says nothing.
        assert!(!apart(
            rect(0.0, 0.0, 600.0, 54.0),
            rect(200.0, 36.0, 40.0, 18.0)
        ));
        // No size: nothing known.
        assert!(!apart(
            rect(0.0, 0.0, 0.0, 0.0),
            rect(50.0, 0.0, 20.0, 18.0)
        ));
    }

    #[test]
    fn the_writer_separates_inline_blocks_but_not_scripts_without_spaces() {
        let mut b = SnapshotBuilder::new(1000.0);
        let div = b.el(0, "div", rect(0.0, 0.0, 800.0, 40.0));
        for (k, w) in ["Baking", "Bread", "Easy"].iter().enumerate() {
            let s = b.el(div, "span", rect(70.0 * k as f64, 0.0, 60.0, 18.0));
            b.node_mut(s).display = "inline-block".into();
            let t = b.text(s, w);
            b.node_mut(t).rect = rect(70.0 * k as f64, 0.0, 60.0, 18.0);
        }
        let p = b.el(0, "p", rect(0.0, 50.0, 100.0, 36.0));
        let t1 = b.text(p, "中文");
        b.node_mut(t1).rect = rect(60.0, 50.0, 40.0, 18.0);
        let em = b.el(p, "em", rect(0.0, 68.0, 20.0, 18.0));
        b.node_mut(em).display = "inline".into();
        let t2 = b.text(em, "字");
        b.node_mut(t2).rect = rect(0.0, 68.0, 20.0, 18.0);
        let snap = b.build();
        let tree = Tree::new(&snap);
        let ex = Extraction {
            kept: vec![true; tree.len()],
            ..Extraction::empty(Algorithm::Htd, tree.len())
        };
        assert_eq!(paragraphs(&tree, &ex), ["Baking Bread Easy", "中文字"]);
    }
}
