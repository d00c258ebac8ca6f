//! Cleaned-HTML writer: each content subtree with its structure (tags) kept and presentation
//! (class, style, scripts, event handlers) dropped; links keep `href`, images `src` and `alt`,
//! table cells their `colspan` and `rowspan`. The images and formulas of the kept content join
//! it as in the markdown writer ([`super::markdown::with_media`]); a formula is written as its
//! TeX between `\(…\)` (display: `\[…\]`) in place of the page's rendering.

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
fn write_node(tree: &Tree, kept: &[bool], id: NodeId, out: &mut String) {
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
        if let Some((tex, display)) = super::markdown::formula(n) {
            let (o, c) = if display {
                ("\\[", "\\]")
            } else {
                ("\\(", "\\)")
            };
            out.push_str(&escape(&format!("{o}{tex}{c}")));
            continue;
        }
        if super::markdown::is_math(n) || super::markdown::is_mathjax_render(n) {
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
        for name in ["colspan", "rowspan"] {
            if let (true, Some(v)) = (matches!(tag, "td" | "th"), n.attrs.get(name)) {
                out.push_str(&format!(" {name}=\"{}\"", escape(v)));
            }
        }
        out.push('>');
        if VOID.contains(&tag) {
            continue;
        }
        stack.push(Step::Close(tag));
        for &k in tree.children[id].iter().rev() {
            if kept[k] {
                stack.push(Step::Open(k));
            }
        }
    }
}

/// The content subtrees as one HTML fragment, one root per line, in document order.
pub fn render(tree: &Tree, ex: &Extraction) -> String {
    let mut out = String::new();
    let kept = super::markdown::with_media(tree, &ex.kept);
    let roots = (0..kept.len()).filter(|&i| kept[i] && tree.parent(i).is_none_or(|p| !kept[p]));
    for r in roots {
        write_node(tree, &kept, r, &mut out);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::Algorithm;
    use crate::snapshot::{rect, SnapshotBuilder};

    #[test]
    fn escape_covers_text_and_double_quoted_attributes() {
        assert_eq!(
            escape(r#"a < b && "c" > d's"#),
            "a &lt; b &amp;&amp; &quot;c&quot; &gt; d's"
        );
        assert_eq!(escape("plain"), "plain");
    }

    #[test]
    fn only_kept_subtrees_are_written_without_presentation() {
        let mut b = SnapshotBuilder::new(800.0);
        let art = b.el(0, "article", rect(0.0, 0.0, 800.0, 300.0));
        b.node_mut(art).class = Some("story".into());
        let p = b.el(art, "p", rect(0.0, 0.0, 800.0, 40.0));
        b.text(p, "Fish & <chips> ");
        let a = b.el(p, "a", rect(0.0, 0.0, 80.0, 20.0));
        b.node_mut(a).href = Some("https://example.com/?a=1&b=\"2\"".into());
        b.text(a, "more");
        let ad = b.el(art, "div", rect(0.0, 50.0, 800.0, 40.0));
        b.text(ad, "Buy now");
        let img = b.el(art, "img", rect(0.0, 100.0, 200.0, 100.0));
        b.node_mut(img).src = Some("cat.png".into());
        b.node_mut(img).alt = Some("A \"cat\"".into());
        let nav = b.el(0, "nav", rect(0.0, 400.0, 800.0, 40.0));
        b.text(nav, "Home");
        let snap = b.build();
        let tree = Tree::new(&snap);
        let mut ex = Extraction::empty(Algorithm::Td, tree.len());
        for i in art..tree.len() {
            ex.kept[i] = i < ad || i >= img && i < nav;
        }
        assert_eq!(
            render(&tree, &ex),
            "<article><p>Fish &amp; &lt;chips&gt; <a href=\"https://example.com/?a=1&amp;b=&quot;2&quot;\">more</a></p>\
             <img src=\"cat.png\" alt=\"A &quot;cat&quot;\"></article>\n"
        );
        // Two roots, one a line each; the root node is written as a div.
        let mut ex = Extraction::empty(Algorithm::Td, tree.len());
        ex.kept[p] = true;
        ex.kept[p + 1] = true;
        ex.kept[nav] = true;
        ex.kept[nav + 1] = true;
        // The image between two kept texts joins them (markdown::with_media).
        assert_eq!(
            render(&tree, &ex),
            "<p>Fish &amp; &lt;chips&gt; </p>\n<img src=\"cat.png\" alt=\"A &quot;cat&quot;\">\n<nav>Home</nav>\n"
        );
        let all = Extraction {
            kept: vec![true; tree.len()],
            ..Extraction::empty(Algorithm::Td, tree.len())
        };
        assert!(render(&tree, &all).starts_with("<div><article>"));
        assert_eq!(
            render(&tree, &Extraction::empty(Algorithm::Td, tree.len())),
            ""
        );
    }
}
