//! Plain-text writer: kept text in document order, one paragraph per block element (and per
//! `<br>`), one paragraph per line; text whose line breaks the page shows (code blocks,
//! `white-space: pre`) keeps them, one line each.

use crate::extract::Extraction;
use crate::snapshot::{collapse_ws, NodeId, Tree};

/// The nearest block ancestor of a node (or the root).
fn block_of(tree: &Tree, id: NodeId) -> NodeId {
    tree.ancestors(id).find(|&a| tree.is_block(a)).unwrap_or(0)
}

fn is_cell(tree: &Tree, id: NodeId) -> bool {
    let n = tree.node(id);
    n.display == "table-cell" || n.tag == "td" || n.tag == "th"
}

/// The extraction as paragraphs of text (table rows: one line, cells separated by spaces).
pub fn paragraphs(tree: &Tree, ex: &Extraction) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut cur_block: Option<NodeId> = None;
    // The paragraph holds text whose line breaks the page shows (code, `white-space: pre`):
    // one output line per line.
    let mut lines = false;
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
        }
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
