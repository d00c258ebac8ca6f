//! Tests of the content-block segmentation and extraction.

use super::*;
use crate::snapshot::{rect, Rect, Snapshot, SnapshotBuilder};
use serde_json::json;

const R: Rect = Rect {
    x: 0.0,
    y: 0.0,
    w: 800.0,
    h: 100.0,
};

/// A `<footer>` with text as the last child of `<body>`, so that the element under test
/// is not `<body>`'s only child (which would fold it into the `<body>` block's range).
fn footer(b: &mut SnapshotBuilder) {
    let f = b.el(0, "footer", R);
    b.text(f, "Footer");
}

fn range_of(s: &Snapshot, block: NodeId) -> Vec<NodeId> {
    boundary_estimation(&Tree::new(s), block, &BlocksParams::default())
}

#[test]
fn hamming_distance_is_normalized_and_pads_the_shorter_string() {
    assert_eq!(hamming_distance("karolin", "kathrin"), 3.0 / 7.0);
    assert_eq!(hamming_distance("abc", "abcd"), 0.25);
    assert_eq!(hamming_distance("", ""), 0.0);
    assert_eq!(hamming_distance("", "x"), 1.0);
    // Counted in characters, not bytes.
    assert_eq!(hamming_distance("°C", "°F"), 0.5);
}

/// `<div><p>{text}</p><span>{noise}</span></div>`: the parent's clean text is the
/// child's plus trailing noise (§3.3: separator symbols at the end of a menu).
fn noisy(text: &str, noise: &str) -> (Snapshot, NodeId, NodeId) {
    let mut b = SnapshotBuilder::new(800.0);
    let div = b.el(0, "div", R);
    let p = b.el(div, "p", R);
    b.text(p, text);
    let span = b.el(div, "span", R);
    b.text(span, noise);
    (b.build(), div, p)
}

#[test]
fn hamming_below_the_threshold_descends_to_the_child() {
    // 19 + 1 characters: d = 1/20 = 0.05 < 0.1, so the <p> is still the same block.
    let (s, div, p) = noisy("abcdefghijklmnopqrs", "»");
    assert_eq!(
        hamming_distance("abcdefghijklmnopqrs", "abcdefghijklmnopqrs»"),
        0.05
    );
    assert_eq!(range_of(&s, div), vec![div, p]);
}

#[test]
fn hamming_at_the_threshold_stops_at_the_parent() {
    // 18 + 2 characters: d = 2/20 = 0.1, and Algorithm 2 stops at distance >= 0.1.
    let (s, div, _) = noisy("abcdefghijklmnopqr", "»»");
    assert_eq!(
        hamming_distance("abcdefghijklmnopqr", "abcdefghijklmnopqr»»"),
        0.1
    );
    assert_eq!(range_of(&s, div), vec![div]);
    // Just above: 17 + 3 characters, d = 0.15.
    let (s, div, _) = noisy("abcdefghijklmnopq", "»»»");
    assert_eq!(range_of(&s, div), vec![div]);
}

#[test]
fn a_chain_of_single_children_with_the_same_text_collapses_into_one_range() {
    // header > div > section > nav > (a, a): Figure 2's shape; the nav's first link has
    // only part of the text, so the minimum boundary is the <nav>.
    let mut b = SnapshotBuilder::new(800.0);
    let header = b.el(0, "header", R);
    let div = b.el(header, "div", R);
    let section = b.el(div, "section", R);
    let nav = b.el(section, "nav", R);
    for t in ["Home", "About"] {
        let a = b.el(nav, "a", R);
        b.text(a, t);
    }
    let alone = b.build();
    // As <body>'s only child the whole chain is the <body> block's range.
    assert_eq!(range_of(&alone, 0), vec![0, header, div, section, nav]);
    footer(&mut b);
    let s = b.build();
    assert_eq!(range_of(&s, 0), vec![0]);
    assert_eq!(range_of(&s, header), vec![header, div, section, nav]);
    let t = Tree::new(&s);
    let seg = segment(&t, &BlocksParams::default());
    assert_eq!(seg.blocks.len(), 5, "body, header..nav, two links, footer");
    assert_eq!((seg.blocks[1].max, seg.blocks[1].min), (header, nav));
    assert_eq!(seg.blocks[1].children, vec![2, 3]);
    assert_eq!(
        t.css_path(seg.blocks[1].min),
        "body > header > div > section > nav"
    );
}

#[test]
fn empty_parent_with_one_child_descends_to_the_image() {
    // <div class="logo"><a><img></a></div>: no text, a single child at each step.
    let mut b = SnapshotBuilder::new(800.0);
    let div = b.el(0, "div", R);
    let a = b.el(div, "a", R);
    let img = b.el(a, "img", rect(0.0, 0.0, 120.0, 40.0));
    footer(&mut b);
    let s = b.build();
    assert_eq!(range_of(&s, div), vec![div, a, img]);
    // The block is not empty (it holds an image), so Algorithm 1 keeps it.
    let seg = segment(&Tree::new(&s), &BlocksParams::default());
    assert_eq!(seg.blocks.len(), 3);
    assert_eq!((seg.blocks[1].max, seg.blocks[1].min), (div, img));
}

#[test]
fn empty_parent_with_two_children_is_its_own_minimum() {
    // <div><img><img></div>: no text and two children: distance 1, stop.
    let mut b = SnapshotBuilder::new(800.0);
    let div = b.el(0, "div", R);
    let i1 = b.el(div, "img", R);
    let i2 = b.el(div, "img", R);
    footer(&mut b);
    let s = b.build();
    assert_eq!(range_of(&s, div), vec![div]);
    // The two images are child blocks and variants of each other.
    let seg = segment(&Tree::new(&s), &BlocksParams::default());
    let kids: Vec<NodeId> = seg.blocks[1]
        .children
        .iter()
        .map(|&k| seg.blocks[k].max)
        .collect();
    assert_eq!(kids, vec![i1, i2]);
    assert_eq!(seg.groups, vec![vec![2, 3]]);
}

#[test]
fn image_count_check_keeps_an_image_sibling_inside_the_block() {
    // <div><p>Text</p><img></div>: same text, two children, but the parent holds one
    // image and the <p> none: distance 1, the <div> is the minimum boundary.
    let mut b = SnapshotBuilder::new(800.0);
    let div = b.el(0, "div", R);
    let p = b.el(div, "p", R);
    b.text(p, "Caption text");
    b.el(div, "img", R);
    let s = b.build();
    assert_eq!(range_of(&s, div), vec![div]);
}

#[test]
fn image_count_check_passes_over_an_empty_decorative_sibling() {
    // <div><p>Text</p><span></span></div>: same text, two children, 0 = 0 images:
    // distance 0, the descent goes on to the <p>.
    let mut b = SnapshotBuilder::new(800.0);
    let div = b.el(0, "div", R);
    let p = b.el(div, "p", R);
    b.text(p, "Caption text");
    b.el(div, "span", R);
    footer(&mut b);
    let s = b.build();
    assert_eq!(range_of(&s, div), vec![div, p]);
    // The empty <span> is not a block (Algorithm 1: "if analyzed block is not empty"):
    // body, div..p, footer.
    let seg = segment(&Tree::new(&s), &BlocksParams::default());
    assert_eq!(seg.blocks.len(), 3);
}

#[test]
fn hidden_text_is_not_clean_text() {
    // <div><p>Visible</p><span hidden>Hidden words</span></div>: the hidden span is
    // neither text nor a child, so the <div> collapses onto the <p>.
    let mut b = SnapshotBuilder::new(800.0);
    let div = b.el(0, "div", R);
    let p = b.el(div, "p", R);
    b.text(p, "Visible");
    let span = b.el(div, "span", R);
    let t = b.text(span, "Hidden words");
    b.node_mut(span).rendered = false;
    b.node_mut(t).rendered = false;
    let s = b.build();
    assert_eq!(range_of(&s, div), vec![div, p]);
}

#[test]
fn five_similar_cards_are_one_variation_group_and_the_odd_sibling_none() {
    let mut b = SnapshotBuilder::new(800.0);
    let list = b.el(0, "ul", R);
    let mut cards = Vec::new();
    for k in 0..5 {
        let li = b.el(list, "li", R);
        b.el(li, "img", R);
        let h = b.el(li, "h3", R);
        b.text(h, &format!("Product {k}"));
        let p = b.el(li, "p", R);
        b.text(p, &"cheap ".repeat(k + 1));
        let a = b.el(li, "a", R);
        b.text(a, "Buy");
        cards.push(li);
    }
    let odd = b.el(list, "li", R);
    let strong = b.el(odd, "strong", R);
    b.text(strong, "Free shipping on all orders");
    footer(&mut b);
    let s = b.build();
    let t = Tree::new(&s);
    let p = BlocksParams::default();
    assert_eq!(
        structure(&t, cards[0], &p),
        ["li", "img", "/img", "h3", "/h3", "p", "/p", "a", "/a", "/li"]
    );
    let seg = segment(&t, &p);
    let list_block = seg
        .blocks
        .iter()
        .position(|b| b.range.contains(&list))
        .expect("list block");
    let kids = &seg.blocks[list_block].children;
    assert_eq!(kids.len(), 6);
    let g = seg.blocks[kids[0]].group.expect("the cards have a group");
    assert_eq!(seg.groups[g], kids[..5].to_vec());
    assert_eq!(seg.blocks[kids[5]].group, None);
    // The odd one's structure [li strong /strong /li] vs a card's: M = 2 (li, /li), 2·2/14
    // (difflib: 0.2857142857142857).
    assert_eq!(
        ratio(&structure(&t, odd, &p), &structure(&t, cards[0], &p)),
        0.2857142857142857
    );
}

#[test]
fn a_card_with_one_extra_element_is_not_a_variant() {
    // 10 tokens vs 12: ratio 2·10/22 = 0.909 ≤ 0.92 (difflib gives 0.9090909090909091).
    let mut b = SnapshotBuilder::new(800.0);
    let list = b.el(0, "div", R);
    for k in 0..2 {
        let card = b.el(list, "div", R);
        b.el(card, "img", R);
        let h = b.el(card, "h3", R);
        b.text(h, "Name");
        let p = b.el(card, "p", R);
        if k == 1 {
            let sp = b.el(p, "span", R);
            b.text(sp, "new");
        }
        b.text(p, "Text");
        let a = b.el(card, "a", R);
        b.text(a, "Buy");
    }
    footer(&mut b);
    let s = b.build();
    let cards = |seg: &Segmentation| -> Vec<Option<usize>> {
        seg.blocks
            .iter()
            .filter(|b| b.parent.is_some_and(|q| seg.blocks[q].max == list))
            .map(|b| b.group)
            .collect()
    };
    let seg = segment(&Tree::new(&s), &BlocksParams::default());
    assert_eq!(cards(&seg), vec![None, None]);
    // At threshold 0.9 the same pair would be variants.
    let p = BlocksParams {
        variation_threshold: 0.9,
        ..BlocksParams::default()
    };
    let seg = segment(&Tree::new(&s), &p);
    assert_eq!(cards(&seg), vec![Some(0), Some(0)]);
}

#[test]
fn kept_is_the_majority_block_without_its_link_list() {
    // body > (nav of links, article > (p, p, ul of links)): the article holds all the
    // non-link text; inside it no paragraph holds more than half; the link list goes.
    let mut b = SnapshotBuilder::new(800.0);
    let nav = b.el(0, "nav", R);
    for t in ["Home", "News"] {
        let a = b.el(nav, "a", R);
        b.text(a, t);
    }
    let art = b.el(0, "article", R);
    let p1 = b.el(art, "p", R);
    let t1 = b.text(p1, "First paragraph of the story.");
    let p2 = b.el(art, "p", R);
    let t2 = b.text(p2, "Second paragraph, a bit longer.");
    let ul = b.el(art, "ul", R);
    let li = b.el(ul, "li", R);
    let a = b.el(li, "a", R);
    let ta = b.text(a, "Share");
    let s = b.build();
    let ex = extract(&Tree::new(&s), &BlocksParams::default());
    assert!(ex.kept[art] && ex.kept[t1] && ex.kept[t2]);
    assert!(!ex.kept[ul] && !ex.kept[ta] && !ex.kept[nav] && !ex.kept[0]);
    assert_eq!(ex.details.to_json()["main_blocks"], json!([4]));
}

#[test]
fn the_headline_before_the_article_body_is_kept() {
    // body > (nav, main > (h1, p.byline, article > (p, p, p))): the descent ends in the
    // <article> (most of main's text); the <h1> before it is kept, the byline is not.
    let mut b = SnapshotBuilder::new(800.0);
    let nav = b.el(0, "nav", R);
    for t in ["Home", "News"] {
        let a = b.el(nav, "a", R);
        b.text(a, t);
    }
    let main = b.el(0, "main", R);
    let h1 = b.el(main, "h1", R);
    let th = b.text(h1, "Headline");
    let by = b.el(main, "p", R);
    let tb = b.text(by, "By a reporter");
    let art = b.el(main, "article", R);
    for t in [
        "One paragraph here.",
        "Two paragraphs here.",
        "Three of them here.",
    ] {
        let p = b.el(art, "p", R);
        b.text(p, t);
    }
    let s = b.build();
    let ex = extract(&Tree::new(&s), &BlocksParams::default());
    assert!(ex.kept[th] && ex.kept[art] && !ex.kept[tb] && !ex.kept[nav]);
    // Blocks: body 0, nav 1, links 2-3, main 4, h1 5, byline 6, article 7.
    assert_eq!(ex.details.to_json()["main_blocks"], json!([7]));
    assert_eq!(ex.details.to_json()["headline_blocks"], json!([5]));
    // Without the rule the headline goes.
    let p = BlocksParams {
        headline_tags: Vec::new(),
        ..BlocksParams::default()
    };
    assert!(!extract(&Tree::new(&s), &p).kept[th]);
}

#[test]
fn an_empty_body_has_no_blocks_and_keeps_nothing() {
    let s = SnapshotBuilder::new(800.0).build();
    let ex = extract(&Tree::new(&s), &BlocksParams::default());
    assert_eq!(ex.kept, vec![false]);
    assert_eq!(ex.details.to_json()["blocks"], json!([]));
}
