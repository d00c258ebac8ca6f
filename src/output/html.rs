//! Cleaned-HTML writer: each content subtree with its structure (tags) kept and presentation
//! (class, style, scripts, event handlers) dropped; links keep `href`, images `src` and `alt`.

use crate::extract::Extraction;
use crate::snapshot::{NodeId, Tree};

const VOID: [&str; 8] = ["br", "hr", "img", "input", "wbr", "source", "area", "col"];

/// Escape text for HTML content or a double-quoted attribute.
pub fn escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            _ => o.push(c),
        }
    }
    o
}

/// Write the kept subtree of `id`. Iterative (an explicit stack of open elements), so that a
/// page nested 100,000 levels deep does not overflow the stack.
fn write_node(tree: &Tree, ex: &Extraction, id: NodeId, out: &mut String) {
    enum Step<'a> {
        Open(NodeId),
        Close(&'a str),
    }
    let mut stack = vec![Step::Open(id)];
    while let Some(step) = stack.pop() {
        let id = match step {
            Step::Close(tag) => {
                out.push_str("</");
                out.push_str(tag);
                out.push('>');
                continue;
            }
            Step::Open(id) => id,
        };
        let n = tree.node(id);
        if n.is_text() {
            out.push_str(&escape(n.text.as_deref().unwrap_or("")));
            continue;
        }
        let tag = if id == 0 { "div" } else { n.tag.as_str() };
        // A <picture>'s <source> candidates: its <img> carries the one the browser chose.
        if tag == "source" {
            continue;
        }
        out.push('<');
        out.push_str(tag);
        for (name, v) in [("href", &n.href), ("src", &n.src), ("alt", &n.alt)] {
            if let Some(v) = v {
                out.push_str(&format!(" {name}=\"{}\"", escape(v)));
            }
        }
        out.push('>');
        if VOID.contains(&tag) {
            continue;
        }
        stack.push(Step::Close(tag));
        for &k in tree.children[id].iter().rev() {
            if ex.kept[k] {
                stack.push(Step::Open(k));
            }
        }
    }
}

/// The content subtrees as one HTML fragment, one root per line, in document order.
pub fn render(tree: &Tree, ex: &Extraction) -> String {
    let mut out = String::new();
    for r in ex.roots(tree) {
        write_node(tree, ex, r, &mut out);
        out.push('\n');
    }
    out
}
