//! Tests of the Readability.js port.

use super::*;
use crate::snapshot::{rect, SnapshotBuilder, Tree};

const PARA: &str = "The storm came in at night, and by morning the river had risen, \
        flooding the lower town, the bridge and the old mill, officials said on Monday.";

#[test]
fn class_weights_follow_the_positive_and_negative_patterns() {
    assert_eq!(class_weight(Some("article-body"), None), 25.0);
    assert_eq!(class_weight(Some("sidebar"), Some("main")), 0.0);
    assert_eq!(class_weight(Some("comment-list"), None), -25.0);
    assert_eq!(class_weight(Some("x hid y"), None), -25.0);
    assert_eq!(class_weight(Some("hidden-entry"), None), 0.0);
    assert_eq!(class_weight(None, None), 0.0);
}

/// A body with an article of four paragraphs, a comment section and a link list.
fn page() -> (crate::Snapshot, [NodeId; 6]) {
    let mut b = SnapshotBuilder::new(1000.0);
    let nav = b.el(0, "div", rect(0.0, 0.0, 1000.0, 30.0));
    b.node_mut(nav).class = Some("menu".into());
    let a = b.el(nav, "a", rect(0.0, 0.0, 100.0, 30.0));
    b.text(a, "Home");
    let art = b.el(0, "div", rect(100.0, 40.0, 700.0, 800.0));
    b.node_mut(art).class = Some("story".into());
    let mut ps = Vec::new();
    for _ in 0..4 {
        let p = b.el(art, "p", rect(100.0, 40.0, 700.0, 100.0));
        b.text(p, PARA);
        ps.push(p);
    }
    let com = b.el(0, "div", rect(100.0, 900.0, 700.0, 200.0));
    b.node_mut(com).class = Some("contact-box".into());
    let cp = b.el(com, "p", rect(100.0, 900.0, 700.0, 100.0));
    b.text(cp, PARA);
    // Two paragraphs: a div holding a single `p` would be replaced by it.
    let cp2 = b.el(com, "p", rect(100.0, 1000.0, 700.0, 100.0));
    b.text(cp2, PARA);
    let links = b.el(0, "ul", rect(800.0, 40.0, 200.0, 300.0));
    let li = b.el(links, "li", rect(800.0, 40.0, 200.0, 30.0));
    let la = b.el(li, "a", rect(800.0, 40.0, 200.0, 30.0));
    b.node_mut(la).display = "inline".into();
    b.text(la, "Another story about the weather, and the river");
    (b.build(), [nav, art, ps[0], com, cp, links])
}

#[test]
fn scores_by_hand_and_top_candidate() {
    let (snap, [nav, art, p0, com, cp, links]) = page();
    let tree = Tree::new(&snap);
    let r = grab_article(&tree);
    // Each paragraph: 1 + (4 commas + 1) + min(143 / 100, 3) = 7 points. The story div:
    // 5 (div) + 25 (class "story") + 4 × 7 = 58; the body gets half of each paragraph.
    assert_eq!(PARA.trim().chars().count(), 143);
    assert_eq!(PARA.matches(',').count(), 4);
    // The article has 4 × 143 >= 500 characters: the first attempt stands.
    assert_eq!(r.attempt, 0);
    assert_eq!(r.article_chars, 4 * 143);
    assert!(r.removed[nav], "class \"menu\" is an unlikely candidate");
    assert!((r.score[art] - 58.0).abs() < 1e-9, "{}", r.score[art]);
    assert!(
        r.score[p0].is_nan(),
        "paragraphs themselves are not candidates"
    );
    assert_eq!(r.top, art);
    assert!(r.in_top[p0] && r.in_article[p0] && r.output(p0));
    // "contact" is not unlikely but weighs -25, and the box scores below the sibling
    // threshold max(10, 58 / 5): 5 - 25 + 2 × 7 = -6.
    assert!((r.score[com] - -6.0).abs() < 1e-9, "{}", r.score[com]);
    assert!(!r.in_article[cp]);
    assert!(!r.in_article[nav] && !r.in_article[links]);
    let _ = com;
    assert!((r.nearest_rel(&tree, p0) - 1.0).abs() < 1e-12);
    assert!(r.nearest_rel(&tree, cp) < 0.0);
}

#[test]
fn unlikely_candidates_are_stripped_when_the_article_is_long_enough() {
    let mut b = SnapshotBuilder::new(1000.0);
    let art = b.el(0, "article", rect(0.0, 0.0, 700.0, 800.0));
    for _ in 0..4 {
        let p = b.el(art, "p", rect(0.0, 0.0, 700.0, 100.0));
        b.text(p, PARA);
    }
    let side = b.el(0, "div", rect(700.0, 0.0, 300.0, 800.0));
    b.node_mut(side).class = Some("sidebar".into());
    let sp = b.el(side, "p", rect(700.0, 0.0, 300.0, 100.0));
    b.text(sp, PARA);
    let snap = b.build();
    let tree = Tree::new(&snap);
    let r = grab_article(&tree);
    assert_eq!(r.attempt, 0);
    assert!(r.removed[sp] && !r.output(sp));
    assert_eq!(r.top, art);
    assert_eq!(r.article_chars, 4 * 143);
}

#[test]
fn link_heavy_lists_are_cleaned_out_of_the_article() {
    let mut b = SnapshotBuilder::new(1000.0);
    let art = b.el(0, "div", rect(0.0, 0.0, 700.0, 800.0));
    for _ in 0..4 {
        let p = b.el(art, "p", rect(0.0, 0.0, 700.0, 100.0));
        b.text(p, PARA);
    }
    let more = b.el(art, "div", rect(0.0, 500.0, 700.0, 100.0));
    let mp = b.el(more, "p", rect(0.0, 500.0, 700.0, 30.0));
    let a = b.el(mp, "a", rect(0.0, 500.0, 700.0, 30.0));
    b.node_mut(a).display = "inline".into();
    let t = b.text(a, "Read more stories about the weather");
    let snap = b.build();
    let tree = Tree::new(&snap);
    let r = grab_article(&tree);
    assert_eq!(r.top, art);
    assert!(r.in_article[t] && r.cleaned[more] && !r.output(t));
}

#[test]
fn no_candidate_means_the_whole_body() {
    let mut b = SnapshotBuilder::new(1000.0);
    let p = b.el(0, "span", rect(0.0, 0.0, 100.0, 20.0));
    let t = b.text(p, "Short.");
    let snap = b.build();
    let tree = Tree::new(&snap);
    let r = grab_article(&tree);
    assert_eq!(r.top, 0);
    assert!(r.in_article[t] && r.in_top[t]);
}
