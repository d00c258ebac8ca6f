//! Tests of the markdown writer.

use super::*;
use crate::extract::Algorithm;
use crate::snapshot::{rect, Snapshot, SnapshotBuilder};

/// Keep every node of the snapshot except the listed subtrees.
fn keep_all_but(snap: &Snapshot, drop: &[NodeId]) -> Extraction {
    let tree = Tree::new(snap);
    let mut ex = Extraction::empty(Algorithm::Td, snap.nodes.len());
    ex.kept = vec![true; snap.nodes.len()];
    for &d in drop {
        for i in tree.subtree(d) {
            ex.kept[i] = false;
        }
    }
    ex
}

fn md(snap: &Snapshot, drop: &[NodeId]) -> String {
    let tree = Tree::new(snap);
    render(&tree, &keep_all_but(snap, drop))
}

/// `<p>` holding one text node.
fn para(b: &mut SnapshotBuilder, parent: NodeId, y: f64, text: &str) -> NodeId {
    let p = b.el(parent, "p", rect(0.0, y, 600.0, 20.0));
    b.text(p, text);
    p
}

fn li(b: &mut SnapshotBuilder, list: NodeId, y: f64, text: &str) -> NodeId {
    let l = b.el(list, "li", rect(40.0, y, 560.0, 20.0));
    b.node_mut(l).display = "list-item".into();
    b.text(l, text);
    l
}

/// An article page with every construct the writer handles, plus a nav and a share
/// paragraph that are not content.
fn article() -> (Snapshot, Vec<NodeId>) {
    let mut b = SnapshotBuilder::new(1000.0);
    let nav = b.el(0, "nav", rect(0.0, 0.0, 1000.0, 40.0));
    let home = b.el(nav, "a", rect(0.0, 0.0, 80.0, 40.0));
    b.node_mut(home).href = Some("https://example.com/".into());
    b.text(home, "Home");
    let art = b.el(0, "article", rect(0.0, 50.0, 600.0, 900.0));
    let h1 = b.el(art, "h1", rect(0.0, 50.0, 600.0, 40.0));
    b.text(h1, "Fast pages");
    // Snapshot text is collapsed but not trimmed: " Read " starts with a space.
    let p = b.el(art, "p", rect(0.0, 100.0, 600.0, 40.0));
    b.text(p, " Read ");
    let a = b.el(p, "a", rect(40.0, 100.0, 80.0, 20.0));
    b.node_mut(a).href = Some("https://example.com/docs/a_(b)".into());
    b.text(a, "the docs");
    b.text(p, "; it is ");
    let em = b.el(p, "em", rect(200.0, 100.0, 50.0, 20.0));
    b.text(em, "really");
    b.text(p, " ");
    let st = b.el(p, "strong", rect(260.0, 100.0, 50.0, 20.0));
    b.text(st, "fast ");
    b.text(p, "now. ");
    let share = para(&mut b, art, 140.0, "Share this on social media");
    let h2 = b.el(art, "h2", rect(0.0, 160.0, 600.0, 30.0));
    b.text(h2, "Lists");
    let ul = b.el(art, "ul", rect(0.0, 200.0, 600.0, 80.0));
    let one = li(&mut b, ul, 200.0, "one");
    let inner = b.el(one, "ul", rect(40.0, 220.0, 560.0, 40.0));
    li(&mut b, inner, 220.0, "one.a");
    li(&mut b, inner, 240.0, "one.b");
    li(&mut b, ul, 260.0, "two");
    let ol = b.el(art, "ol", rect(0.0, 290.0, 600.0, 60.0));
    li(&mut b, ol, 290.0, "first");
    let second = li(&mut b, ol, 310.0, "second");
    let inner = b.el(second, "ol", rect(40.0, 330.0, 560.0, 20.0));
    li(&mut b, inner, 330.0, " 2. not a sub-list ");
    let t = b.el(art, "table", rect(0.0, 360.0, 600.0, 60.0));
    let th = b.el(t, "thead", rect(0.0, 360.0, 600.0, 20.0));
    let tr = b.el(th, "tr", rect(0.0, 360.0, 600.0, 20.0));
    for h in ["Name", "Score"] {
        let c = b.el(tr, "th", rect(0.0, 360.0, 300.0, 20.0));
        b.text(c, h);
    }
    let tb = b.el(t, "tbody", rect(0.0, 380.0, 600.0, 40.0));
    for row in [["Ann | Bo", "3"], ["Cy", "4"]] {
        let tr = b.el(tb, "tr", rect(0.0, 380.0, 600.0, 20.0));
        for v in row {
            let c = b.el(tr, "td", rect(0.0, 380.0, 300.0, 20.0));
            b.text(c, v);
        }
    }
    let pre = b.el(art, "pre", rect(0.0, 430.0, 600.0, 60.0));
    let code = b.el(pre, "code", rect(0.0, 430.0, 600.0, 60.0));
    b.node_mut(code).class = Some("hljs language-rust".into());
    b.text(code, "fn main() {\n    println!(\"hi\");\n}\n");
    let fig = b.el(art, "p", rect(0.0, 500.0, 600.0, 200.0));
    let img = b.el(fig, "img", rect(0.0, 500.0, 600.0, 200.0));
    b.node_mut(img).src = Some("https://example.com/cat.png".into());
    b.node_mut(img).alt = Some("A [cat]".into());
    para(&mut b, art, 710.0, "1. not a list");
    para(&mut b, art, 730.0, "# not a heading");
    para(
        &mut b,
        art,
        750.0,
        "2*3 and _x_ snake_case <b> &amp; AT&T ~ 10) x",
    );
    (b.build(), vec![nav, share])
}

#[test]
fn article_golden() {
    let (snap, drop) = article();
    let expected = "\
# Fast pages

Read [the docs](https://example.com/docs/a_\\(b\\)); it is *really* **fast** now.

## Lists

- one
  - one.a
  - one.b
- two

1. first
2. second
   1. 2\\. not a sub-list

| Name | Score |
| --- | --- |
| Ann \\| Bo | 3 |
| Cy | 4 |

```rust
fn main() {
    println!(\"hi\");
}
```

![A \\[cat\\]](https://example.com/cat.png)

1\\. not a list

\\# not a heading

2\\*3 and \\_x\\_ snake_case \\<b> \\&amp; AT&T \\~ 10) x
";
    assert_eq!(md(&snap, &drop), expected);
}

#[test]
fn nodes_not_kept_are_absent() {
    let (snap, drop) = article();
    let out = md(&snap, &drop);
    assert!(!out.contains("Home"));
    assert!(!out.contains("Share"));
    // Keeping them brings them back (the test can fail).
    let all = md(&snap, &[]);
    assert!(all.starts_with("[Home](https://example.com/)\n\n# Fast pages\n"));
    assert!(all.contains("\n\nShare this on social media\n\n"));
}

#[test]
fn empty_extraction_is_empty() {
    let (snap, _) = article();
    let tree = Tree::new(&snap);
    let ex = Extraction::empty(Algorithm::Td, snap.nodes.len());
    assert_eq!(render(&tree, &ex), "");
}

#[test]
fn collapsed_pre_is_one_line_and_fence_outgrows_backticks() {
    // Today's snapshot collapses <pre> whitespace: the block is one line.
    let mut b = SnapshotBuilder::new(800.0);
    let pre = b.el(0, "pre", rect(0.0, 0.0, 800.0, 60.0));
    b.node_mut(pre).class = Some("lang-sh".into());
    b.text(pre, " echo ``` done ");
    assert_eq!(md(&b.build(), &[]), "````sh\necho ``` done\n````\n");
}

#[test]
fn escapes_line_starts_after_breaks_and_headings() {
    let mut b = SnapshotBuilder::new(800.0);
    let p = b.el(0, "p", rect(0.0, 0.0, 800.0, 60.0));
    b.text(p, "first ");
    b.el(p, "br", rect(0.0, 20.0, 0.0, 0.0));
    b.text(p, " - second");
    b.el(p, "br", rect(0.0, 40.0, 0.0, 0.0));
    b.el(p, "br", rect(0.0, 40.0, 0.0, 0.0));
    b.text(p, "> third");
    b.el(p, "br", rect(0.0, 60.0, 0.0, 0.0));
    let h = b.el(0, "h3", rect(0.0, 80.0, 800.0, 30.0));
    b.text(h, "Why C #");
    para(&mut b, 0, 120.0, "=== #hashtag");
    assert_eq!(
        md(&b.build(), &[]),
        "first\\\n\\- second\\\n\\> third\n\n# Why C \\#\n\n\\=== #hashtag\n"
    );
}

#[test]
fn inline_edges_code_spans_and_odd_links() {
    let mut b = SnapshotBuilder::new(800.0);
    let p = b.el(0, "p", rect(0.0, 0.0, 800.0, 20.0));
    b.text(p, "Use");
    let c = b.el(p, "code", rect(0.0, 0.0, 50.0, 20.0));
    b.text(c, " a `tick` ");
    b.text(p, "and");
    let em = b.el(p, "em", rect(0.0, 0.0, 50.0, 20.0));
    b.text(em, " nested ");
    let em2 = b.el(em, "i", rect(0.0, 0.0, 50.0, 20.0));
    b.text(em2, "italics");
    let empty = b.el(p, "a", rect(0.0, 0.0, 10.0, 20.0));
    b.node_mut(empty).href = Some("https://example.com/e".into());
    let js = b.el(p, "a", rect(0.0, 0.0, 10.0, 20.0));
    b.node_mut(js).href = Some("javascript:void(0)".into());
    b.text(js, " click");
    let del = b.el(p, "del", rect(0.0, 0.0, 10.0, 20.0));
    b.text(del, " old");
    let img = b.el(p, "img", rect(0.0, 0.0, 10.0, 10.0));
    b.node_mut(img).src = Some("data:image/png;base64,AAAA".into());
    b.node_mut(img).alt = Some("tiny".into());
    assert_eq!(
        md(&b.build(), &[]),
        "Use `` a `tick` `` and *nested italics* click ~~old~~tiny\n"
    );
}

#[test]
fn breaks_at_emphasis_edges_stay_outside_the_markers() {
    let mut b = SnapshotBuilder::new(800.0);
    let p = b.el(0, "p", rect(0.0, 0.0, 800.0, 60.0));
    b.text(p, "a");
    let s = b.el(p, "b", rect(0.0, 0.0, 50.0, 60.0));
    b.el(s, "br", rect(0.0, 20.0, 0.0, 0.0));
    b.text(s, "x ");
    b.el(s, "br", rect(0.0, 40.0, 0.0, 0.0));
    b.text(p, "y");
    let only = b.el(p, "em", rect(0.0, 40.0, 50.0, 20.0));
    b.el(only, "br", rect(0.0, 60.0, 0.0, 0.0));
    b.text(p, "z");
    assert_eq!(md(&b.build(), &[]), "a\\\n**x**\\\ny\\\nz\n");
}

#[test]
fn card_link_around_blocks_and_layout_table() {
    let mut b = SnapshotBuilder::new(800.0);
    let a = b.el(0, "a", rect(0.0, 0.0, 800.0, 80.0));
    b.node_mut(a).href = Some("https://example.com/card".into());
    let h = b.el(a, "h2", rect(0.0, 0.0, 800.0, 30.0));
    b.text(h, "Card title");
    para(&mut b, a, 40.0, "Card text");
    let t = b.el(0, "table", rect(0.0, 100.0, 800.0, 100.0));
    let tr = b.el(t, "tr", rect(0.0, 100.0, 800.0, 100.0));
    let td = b.el(tr, "td", rect(0.0, 100.0, 400.0, 100.0));
    let ul = b.el(td, "ul", rect(0.0, 100.0, 400.0, 40.0));
    li(&mut b, ul, 100.0, "menu");
    let td2 = b.el(tr, "td", rect(400.0, 100.0, 400.0, 100.0));
    b.text(td2, "body text");
    let t2 = b.el(0, "table", rect(0.0, 220.0, 800.0, 40.0));
    let tr = b.el(t2, "tr", rect(0.0, 220.0, 800.0, 20.0));
    for v in ["a", "b"] {
        let c = b.el(tr, "td", rect(0.0, 220.0, 400.0, 20.0));
        b.text(c, v);
    }
    let tr = b.el(t2, "tr", rect(0.0, 240.0, 800.0, 20.0));
    let c = b.el(tr, "td", rect(0.0, 240.0, 400.0, 20.0));
    b.text(c, "c");
    assert_eq!(
        md(&b.build(), &[]),
        "# Card title\n\nCard text\n\n- menu\n\nbody text\n\n| a | b |\n| --- | --- |\n| c |  |\n"
    );
}

#[test]
fn blockquote_with_list_and_inline_roots() {
    let mut b = SnapshotBuilder::new(800.0);
    let q = b.el(0, "blockquote", rect(0.0, 0.0, 800.0, 80.0));
    para(&mut b, q, 0.0, "Quoted");
    let ol = b.el(q, "ol", rect(0.0, 20.0, 800.0, 40.0));
    let item = li(&mut b, ol, 20.0, "para one");
    para(&mut b, item, 40.0, "para two");
    let p = b.el(0, "p", rect(0.0, 100.0, 800.0, 20.0));
    let lead = b.text(p, "Lead ");
    let s = b.el(p, "strong", rect(0.0, 100.0, 50.0, 20.0));
    b.text(s, "bold");
    let snap = b.build();
    let tree = Tree::new(&snap);
    let mut ex = keep_all_but(&snap, &[]);
    // Only the two inline nodes of the last paragraph are kept, not the <p>: they are
    // roots of their own and still form one paragraph.
    ex.kept[0] = false;
    ex.kept[p] = false;
    assert!(ex.kept[lead]);
    assert_eq!(
        render(&tree, &ex),
        "> Quoted\n>\n> 1. para one\n>\n>    para two\n\nLead **bold**\n"
    );
}
