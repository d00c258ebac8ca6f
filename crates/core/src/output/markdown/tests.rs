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
    // Marked as a share box, as real ones are: an unmarked paragraph of the chosen article
    // that the extraction left out comes back in the markdown (markdown/article.rs).
    let share = para(&mut b, art, 140.0, "Share this on social media");
    b.node_mut(share).class = Some("share-box".into());
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

/// Superscripts and subscripts are written as HTML (markdown has none), empty ones not at all,
/// and a footnote reference inside a `<sup>` is `[^n]` alone.
#[test]
fn superscripts_and_subscripts_stay_html_but_around_footnote_references() {
    let mut b = SnapshotBuilder::new(800.0);
    let p = b.el(0, "p", rect(0.0, 0.0, 800.0, 20.0));
    b.text(p, "An area of 4 m");
    let sup = b.el(p, "sup", rect(0.0, 0.0, 10.0, 20.0));
    b.text(sup, "2");
    b.text(p, " holds CO");
    let sub = b.el(p, "sub", rect(0.0, 0.0, 10.0, 20.0));
    b.text(sub, "2");
    b.text(p, " at last.");
    b.el(p, "sup", rect(0.0, 0.0, 0.0, 0.0));
    let r = b.el(p, "sup", rect(0.0, 0.0, 10.0, 20.0));
    let a = b.el(r, "a", rect(0.0, 0.0, 10.0, 20.0));
    b.node_mut(a).href = Some("#fn1".into());
    b.node_mut(a).class = Some("footnote-ref".into());
    b.text(a, "1");
    let ol = b.el(0, "ol", rect(0.0, 40.0, 800.0, 20.0));
    let item = li(&mut b, ol, 40.0, "The note.");
    b.node_mut(item).id = Some("fn1".into());
    assert_eq!(
        md(&b.build(), &[]),
        "An area of 4 m<sup>2</sup> holds CO<sub>2</sub> at last.[^1]\n\n[^1]: The note.\n"
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

/// Render with the kept mask `keep` gives from the all-kept one.
fn md_with(snap: &Snapshot, keep: impl Fn(&Tree, &mut Vec<bool>)) -> String {
    let tree = Tree::new(snap);
    let mut ex = keep_all_but(snap, &[]);
    keep(&tree, &mut ex.kept);
    render(&tree, &ex)
}

/// A header with the site's name and the article's title above a body of one section.
fn titled_page(site_h1: bool) -> (Snapshot, NodeId, NodeId) {
    let mut b = SnapshotBuilder::new(1000.0);
    let header = b.el(0, "header", rect(0.0, 0.0, 1000.0, 60.0));
    if site_h1 {
        let site = b.el(header, "h1", rect(0.0, 0.0, 200.0, 40.0));
        let home = b.el(site, "a", rect(0.0, 0.0, 200.0, 40.0));
        b.node_mut(home).href = Some("https://example.com/".into());
        b.text(home, "Example Blog");
    }
    let top = b.el(0, "div", rect(0.0, 60.0, 600.0, 60.0));
    let h1 = b.el(top, "h1", rect(0.0, 60.0, 600.0, 40.0));
    b.text(h1, "Bread hydration");
    let perma = b.el(h1, "a", rect(580.0, 60.0, 20.0, 40.0));
    b.node_mut(perma).href = Some("#bread".into());
    b.text(perma, "¶");
    let byline = para(&mut b, top, 100.0, "By Ann, 3 May");
    let body = b.el(0, "article", rect(0.0, 130.0, 600.0, 200.0));
    para(&mut b, body, 130.0, "Water over flour.");
    let h2 = b.el(body, "h2", rect(0.0, 160.0, 600.0, 30.0));
    b.text(h2, "Terms");
    para(&mut b, body, 200.0, "Autolyse is a rest.");
    (b.build(), top, byline)
}

#[test]
fn the_title_above_the_content_is_written_first_and_starts_the_sections() {
    let (snap, top, _) = titled_page(true);
    let tree = Tree::new(&snap);
    let mut ex = keep_all_but(&snap, &[top, 1]);
    ex.kept[0] = false;
    let out = write(&tree, &ex, &WriterOptions::default());
    // The nearest h1 above the content, not the site's; its permalink and links left out.
    assert_eq!(
        out.markdown,
        "# Bread hydration\n\nWater over flour.\n\n## Terms\n\nAutolyse is a rest.\n"
    );
    let paths: Vec<_> = out
        .sections
        .iter()
        .map(|s| s.heading_path.clone())
        .collect();
    assert_eq!(
        paths,
        [vec!["Bread hydration"], vec!["Bread hydration", "Terms"]]
    );
}

#[test]
fn the_site_name_is_never_the_title() {
    let (mut snap, top, _) = titled_page(true);
    // The article's h1 is not shown: only the site's name (an h1 linking home) is above.
    let h1 = Tree::new(&snap).children[top][0];
    snap.nodes[h1].rect = rect(0.0, 0.0, 0.0, 0.0);
    let out = md_with(&snap, |t, k| {
        k[0] = false;
        for d in [1, top] {
            t.subtree(d).for_each(|i| k[i] = false);
        }
    });
    assert!(out.starts_with("Water over flour."), "{out}");
}

#[test]
fn a_kept_content_h1_means_no_title_is_added() {
    let (snap, top, byline) = titled_page(false);
    let md = md_with(&snap, |t, k| {
        k[0] = false;
        k[top] = false;
        k[t.children[top][0]] = false;
        t.subtree(byline).for_each(|i| k[i] = false);
    });
    // The h1's text is kept but not its element: it is still a heading, its permalink dropped.
    assert!(
        md.starts_with("# Bread hydration\n\nWater over flour."),
        "{md}"
    );
    assert_eq!(md.matches("Bread hydration").count(), 1, "{md}");
}

#[test]
fn a_paragraph_marked_title_first_is_the_h1() {
    let mut b = SnapshotBuilder::new(800.0);
    let t = para(&mut b, 0, 0.0, "Volunteer handbook");
    b.node_mut(t).class = Some("c0 title".into());
    para(&mut b, 0, 30.0, "Welcome.");
    let h = b.el(0, "h1", rect(0.0, 60.0, 800.0, 30.0));
    b.text(h, "First shift");
    let sub = para(&mut b, 0, 100.0, "Not a title");
    b.node_mut(sub).class = Some("subtitle".into());
    assert_eq!(
        md(&b.build(), &[]),
        "# Volunteer handbook\n\nWelcome.\n\n# First shift\n\nNot a title\n"
    );
}

#[test]
fn a_data_table_or_a_quote_the_mask_left_out_joins_between_kept_text() {
    let mut b = SnapshotBuilder::new(800.0);
    let art = b.el(0, "article", rect(0.0, 0.0, 800.0, 400.0));
    para(&mut b, art, 0.0, "Units:");
    let fig = b.el(art, "figure", rect(0.0, 30.0, 800.0, 80.0));
    let cap = b.el(fig, "figcaption", rect(0.0, 30.0, 800.0, 20.0));
    b.text(cap, "Table 1");
    let t = b.el(fig, "table", rect(0.0, 50.0, 800.0, 60.0));
    for (y, row) in [(50.0, ["Column", "Unit"]), (70.0, ["temp", "°C"])] {
        let tr = b.el(t, "tr", rect(0.0, y, 800.0, 20.0));
        for v in row {
            let c = b.el(tr, "td", rect(0.0, y, 400.0, 20.0));
            b.text(c, v);
        }
    }
    para(&mut b, art, 120.0, "Said the director:");
    let aside = b.el(art, "aside", rect(0.0, 150.0, 800.0, 40.0));
    let q = b.el(aside, "blockquote", rect(0.0, 150.0, 800.0, 40.0));
    para(&mut b, q, 150.0, "The grid sets the timetable");
    para(&mut b, art, 200.0, "A second cable is due.");
    // A layout table (one column) is not brought back.
    let lt = b.el(0, "table", rect(0.0, 300.0, 800.0, 40.0));
    let tr = b.el(lt, "tr", rect(0.0, 300.0, 800.0, 20.0));
    let c = b.el(tr, "td", rect(0.0, 300.0, 800.0, 20.0));
    b.text(c, "Sidebar");
    let snap = b.build();
    let out = md_with(&snap, |t, k| {
        k[0] = false;
        k[art] = false;
        for id in [fig, aside, lt] {
            t.subtree(id).for_each(|i| k[i] = false);
        }
    });
    assert_eq!(
        out,
        "Units:\n\nTable 1\n\n| Column | Unit |\n| --- | --- |\n| temp | °C |\n\nSaid the director:\n\n> The grid sets the timetable\n\nA second cable is due.\n"
    );
}

#[test]
fn an_image_the_mask_left_out_joins_across_a_short_label_not_across_a_paragraph() {
    // A post's text, its attachment under an "Attachments" label and a file-size line, then
    // more kept text: the image joins. Behind 60 characters of unkept text on both sides it
    // does not (a sidebar's picture).
    let page = |label: &str| {
        let mut b = SnapshotBuilder::new(800.0);
        let art = b.el(0, "article", rect(0.0, 0.0, 800.0, 600.0));
        para(&mut b, art, 0.0, "Pull carb heat before you reduce power.");
        para(&mut b, art, 30.0, label);
        let a = b.el(art, "figure", rect(0.0, 60.0, 400.0, 300.0));
        let img = b.el(a, "img", rect(0.0, 60.0, 400.0, 300.0));
        b.node_mut(img).src = Some("https://forum.example/file?id=1&t=1".into());
        b.node_mut(img).alt = Some("icing-chart.png".into());
        para(&mut b, art, 370.0, label);
        para(&mut b, art, 400.0, "The chart shows the icing range.");
        (b.build(), art, img)
    };
    for (label, joins) in [
        ("Attachments", true),
        (
            "Posted by a member of the flying club on the second of March",
            false,
        ),
    ] {
        let (snap, art, img) = page(label);
        let out = md_with(&snap, |t, k| {
            k[0] = false;
            k[art] = false;
            for (i, n) in snap.nodes.iter().enumerate() {
                if n.text.as_deref() == Some(label) || t.ancestors(i).any(|a| a == img) {
                    k[i] = false;
                }
            }
            k[img] = false;
            k[t.parent(img).unwrap()] = false;
        });
        assert_eq!(out.contains("![icing-chart.png]"), joins, "{label}: {out}");
        assert!(!out.contains(label), "{out}");
    }
}

#[test]
fn a_lead_gallery_on_a_page_without_main_or_article_joins_within_its_block() {
    // An Etsy listing: the gallery beside the title and description, no landmark on the
    // page. A banner straight under the page's body before the content stays out.
    let mut b = SnapshotBuilder::new(1000.0);
    let banner = b.el(0, "img", rect(0.0, 0.0, 1000.0, 200.0));
    b.node_mut(banner).src = Some("https://shop.example/banner.jpg".into());
    b.node_mut(banner).alt = Some("Our winter sale banner with mugs".into());
    let listing = b.el(0, "div", rect(0.0, 220.0, 1000.0, 600.0));
    let gallery = b.el(listing, "div", rect(0.0, 220.0, 600.0, 600.0));
    let ul = b.el(gallery, "ul", rect(0.0, 220.0, 600.0, 600.0));
    let li = b.el(ul, "li", rect(0.0, 220.0, 600.0, 600.0));
    let img = b.el(li, "img", rect(0.0, 220.0, 600.0, 600.0));
    b.node_mut(img).src = Some("https://shop.example/mug.jpg".into());
    b.node_mut(img).alt = Some("A speckled stoneware mug on a table".into());
    let info = b.el(listing, "div", rect(620.0, 220.0, 380.0, 600.0));
    let p = para(
        &mut b,
        info,
        220.0,
        "Speckled stoneware mug, twelve ounces, oatmeal glaze.",
    );
    let snap = b.build();
    let out = md_with(&snap, |t, k| {
        k.iter_mut().for_each(|x| *x = false);
        for i in t.subtree(p) {
            k[i] = true;
        }
    });
    assert_eq!(
        out,
        "![A speckled stoneware mug on a table](https://shop.example/mug.jpg)\n\nSpeckled stoneware mug, twelve ounces, oatmeal glaze.\n"
    );
}
