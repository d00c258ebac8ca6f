//! Tests of `learned`: the pass-2 rows, the nodes kept units keep (line breaks, images), the
//! decisions (threshold, expected F1, the shifted log-odds, headlines) and quoted copies.

use super::{
    decide, decide_expected_f1, decide_shifted, extract_with, headline_units, quoted_copies,
    shift_log_odds, Model,
};
use crate::snapshot::{rect, SnapshotBuilder, Tree};

/// Pass 2 reads the pass-1 probabilities of a unit's neighbours: `p1_prev1` of unit 1 is
/// unit 0's probability, and unit 0 has none before it (-1).
#[test]
fn pass2_rows_read_the_neighbours_probabilities() {
    use super::schema::PASS2_FEATURES;
    let mut bld = SnapshotBuilder::new(1000.0);
    for (i, t) in [
        "Storm hits the coast",
        "The storm came in at night.",
        "More later.",
    ]
    .iter()
    .enumerate()
    {
        let p = bld.el(0, "p", rect(100.0, 60.0 * i as f64, 700.0, 40.0));
        bld.text(p, t);
    }
    let snap = bld.build();
    let tree = Tree::new(&snap);
    let pf = super::features::page_features(&tree, &crate::Params::default());
    assert_eq!(pf.units.len(), 3);
    let p2 = super::pass2::pass2_features(&pf, &[0.9, 0.8, 0.1]);
    assert_eq!(p2.len(), 3 * PASS2_FEATURES.len());
    assert_eq!(PASS2_FEATURES[1], "p1_prev1");
    assert_eq!(p2[PASS2_FEATURES.len() + 1], 0.9);
    assert_eq!(p2[1], -1.0);
}

/// `kept_nodes` for the page `b` builds, every unit kept but those whose text holds one of
/// `dropped`.
fn kept_dropping(b: SnapshotBuilder, dropped: &[&str]) -> Vec<bool> {
    let snap = b.build();
    let tree = Tree::new(&snap);
    let pf = super::features::page_features(&tree, &crate::Params::default());
    let keep: Vec<bool> = pf
        .units
        .iter()
        .map(|u| !dropped.iter().any(|d| u.text.contains(d)))
        .collect();
    super::kept_nodes(&tree, &pf, &keep)
}

#[test]
fn line_breaks_between_kept_texts_are_kept() {
    // <div> a. <br> B <p>menu</p> <br> </div> <p>c</p> <br> <p>d</p>
    let mut b = SnapshotBuilder::new(1000.0);
    let div = b.el(0, "div", rect(0.0, 0.0, 800.0, 200.0));
    let a = b.text(div, "First line.");
    let br1 = b.el(div, "br", rect(0.0, 20.0, 0.0, 0.0));
    let bb = b.text(div, "Second line.");
    let menu = b.el(div, "p", rect(0.0, 60.0, 800.0, 20.0));
    b.text(menu, "Menu");
    let br2 = b.el(div, "br", rect(0.0, 80.0, 0.0, 0.0));
    let pc = b.el(0, "p", rect(0.0, 300.0, 800.0, 20.0));
    b.text(pc, "Kept later.");
    let br3 = b.el(0, "br", rect(0.0, 320.0, 0.0, 0.0));
    let pd = b.el(0, "p", rect(0.0, 340.0, 800.0, 20.0));
    b.text(pd, "Dropped.");
    let kept = kept_dropping(b, &["Menu", "Dropped"]);
    assert!(kept[a] && kept[bb]);
    // Between two kept texts, though its parent (holding the dropped menu) is not kept.
    assert!(!kept[div]);
    assert!(kept[br1]);
    // After a dropped text, or before one: not kept.
    assert!(!kept[br2]);
    assert!(!kept[br3]);
}

#[test]
fn images_between_kept_texts_are_kept_small_or_trailing_ones_are_not() {
    // <img before> <h1>Title</h1> <p>byline</p> <figure><img lead></figure>
    // <p>Body <img pixel 1x1></p> <picture><source><img></picture> <p>More body</p>
    // <img after> <p>Related</p>
    let mut b = SnapshotBuilder::new(2000.0);
    let before = b.el(0, "img", rect(0.0, 0.0, 300.0, 100.0));
    let h1 = b.el(0, "h1", rect(0.0, 0.0, 800.0, 40.0));
    b.text(h1, "A headline of the article");
    let by = b.el(0, "p", rect(0.0, 40.0, 800.0, 10.0));
    b.text(by, "By a reporter, Monday");
    let fig = b.el(0, "figure", rect(0.0, 50.0, 800.0, 400.0));
    let lead = b.el(fig, "img", rect(0.0, 50.0, 800.0, 400.0));
    let p1 = b.el(0, "p", rect(0.0, 460.0, 800.0, 60.0));
    b.text(p1, "The first paragraph of the article body.");
    let pixel = b.el(p1, "img", rect(0.0, 500.0, 1.0, 1.0));
    let pic = b.el(0, "picture", rect(0.0, 530.0, 600.0, 300.0));
    let source = b.el(pic, "source", rect(0.0, 0.0, 0.0, 0.0));
    let inner = b.el(pic, "img", rect(0.0, 530.0, 600.0, 300.0));
    let p2 = b.el(0, "p", rect(0.0, 840.0, 800.0, 60.0));
    b.text(p2, "The second paragraph of the article body.");
    let after = b.el(0, "img", rect(0.0, 910.0, 300.0, 200.0));
    let hidden = b.el(0, "img", rect(0.0, 910.0, 300.0, 200.0));
    b.node_mut(hidden).visibility = "hidden".into();
    let p3 = b.el(0, "p", rect(0.0, 1120.0, 800.0, 20.0));
    b.text(p3, "Related stories elsewhere.");
    let kept = kept_dropping(b, &["Related", "reporter"]);
    assert!(
        kept[lead],
        "the lead image, after a dropped byline, before the body"
    );
    assert!(!kept[before], "an image before the first kept text");
    assert!(kept[fig], "its text-less figure too (written in place)");
    assert!(
        kept[pic] && kept[source] && kept[inner],
        "a picture with its subtree"
    );
    assert!(!kept[pixel], "a 1x1 pixel inside a kept paragraph");
    assert!(!kept[after], "an image after the last kept text");
    assert!(!kept[hidden]);
}

#[test]
fn the_expected_f1_decision_keeps_the_best_prefix_by_probability() {
    // p = 0.9, 0.6, 0.3, 10 tokens each: expected gold 18 tokens. Keeping 1, 2, 3 units:
    // 2·9/(10+18) = 0.643, 2·15/(20+18) = 0.789, 2·18/(30+18) = 0.75: the first two.
    let (k, cut) = decide_expected_f1(&[0.9, 0.3, 0.6], &[10, 10, 10]);
    assert_eq!(k, [true, false, true]);
    assert_eq!(cut, 0.6);
    // Two unsure units of 10 tokens (p 0.45): one gives 2·4.5/(10+9) = 0.474, both
    // 2·9/(20+9) = 0.621: both are kept, though a 0.5 threshold keeps neither.
    assert_eq!(decide_expected_f1(&[0.45, 0.45], &[10, 10]).0, [true, true]);
    // A long unsure unit after a sure short one: 0.9 × 5 tokens, 0.3 × 100 tokens.
    // Expected gold 34.5; one: 9/(5+34.5) = 0.228; both: 2·34.5/(105+34.5) = 0.495.
    assert_eq!(decide_expected_f1(&[0.9, 0.3], &[5, 100]).0, [true, true]);
    // But not when it is unlikely: 0.9 × 50 tokens, 0.1 × 100: one 90/(50+55) = 0.857,
    // both 110/(150+55) = 0.537.
    assert_eq!(decide_expected_f1(&[0.9, 0.1], &[50, 100]).0, [true, false]);
    // Ties with the last kept unit are kept too; all-zero pages keep nothing.
    assert_eq!(
        decide_expected_f1(&[0.8, 0.8, 0.1], &[10, 10, 10]).0,
        [true, true, false]
    );
    assert_eq!(
        decide_expected_f1(&[0.0, 0.0], &[5, 5]),
        (vec![false, false], 1.0)
    );
    assert_eq!(decide_expected_f1(&[], &[]).0, Vec::<bool>::new());
}

#[test]
fn headings_and_title_lines_are_spared_the_shift() {
    let mut b = SnapshotBuilder::new(1000.0);
    b.title("Harbour city opens its tidal power station");
    let h = b.el(0, "h2", rect(0.0, 0.0, 800.0, 40.0));
    b.text(h, "Section heading");
    let t = b.el(0, "div", rect(0.0, 50.0, 800.0, 30.0));
    b.text(t, "Harbour city opens its tidal power station");
    let p = b.el(0, "p", rect(0.0, 90.0, 800.0, 60.0));
    b.text(
        p,
        "Engineers spent four years fitting twelve turbines into the channel, near the city.",
    );
    let snap = b.build();
    let tree = Tree::new(&snap);
    let pf = super::features::page_features(&tree, &crate::Params::default());
    let texts: Vec<&str> = pf.units.iter().map(|u| u.text.trim()).collect();
    assert_eq!(texts.len(), 3, "{texts:?}");
    assert_eq!(headline_units(&tree, &pf), [true, true, false], "{texts:?}");
}

#[test]
fn a_quoted_copy_of_kept_text_is_dropped_once_kept() {
    let mut b = SnapshotBuilder::new(1000.0);
    let post = b.el(0, "p", rect(0.0, 0.0, 800.0, 40.0));
    b.text(post, "Which Qt version ships with Ubuntu 24.04?");
    let reply = b.el(0, "div", rect(0.0, 50.0, 800.0, 200.0));
    let q = b.el(reply, "blockquote", rect(0.0, 50.0, 800.0, 40.0));
    let qp = b.el(q, "p", rect(0.0, 50.0, 800.0, 40.0));
    b.text(qp, "which qt  version ships with Ubuntu 24.04?");
    let q2 = b.el(reply, "blockquote", rect(0.0, 100.0, 800.0, 40.0));
    b.text(q2, "Only quoted here, never written above.");
    let q3 = b.el(reply, "blockquote", rect(0.0, 150.0, 800.0, 40.0));
    b.text(q3, "Only quoted here, never written above.");
    let q4 = b.el(reply, "blockquote", rect(0.0, 200.0, 800.0, 20.0));
    b.text(q4, "Thanks!");
    let p = b.el(reply, "p", rect(0.0, 220.0, 800.0, 30.0));
    b.text(p, "Thanks!");
    let snap = b.build();
    let tree = Tree::new(&snap);
    let pf = super::features::page_features(&tree, &crate::Params::default());
    let texts: Vec<&str> = pf.units.iter().map(|u| u.text.trim()).collect();
    assert_eq!(texts.len(), 6, "{texts:?}");
    // The quote of the post (case and spaces aside) and the second of two quotes of the
    // same text go; a one-word quote is never a copy.
    assert_eq!(quoted_copies(&pf, &[true; 6]), [1, 3], "{texts:?}");
    // A quote of text that is not kept is the text's only copy, and stays; so does a
    // quote whose earlier copy is not kept.
    assert_eq!(
        quoted_copies(&pf, &[false, true, true, true, true, true]),
        [3],
        "{texts:?}"
    );
    assert!(quoted_copies(&pf, &[false, true, false, true, true, true]).is_empty());
    // The extraction drops the copy unless asked to keep it.
    let model = Model::shipped().unwrap();
    let mut params = crate::Params::default();
    // A shift this large keeps every unit.
    params.learned.log_odds_shift = 10.0;
    // The kept text nodes that hold the post's words.
    let kept = |params: &crate::Params| {
        let ex = extract_with(&tree, model, params);
        (0..tree.len())
            .filter(|&i| {
                ex.kept[i]
                    && tree
                        .node(i)
                        .text
                        .as_deref()
                        .is_some_and(|t| t.contains("ships with Ubuntu"))
            })
            .count()
    };
    assert_eq!(kept(&params), 1);
    params.learned.keep_quoted_copies = true;
    assert_eq!(kept(&params), 2);
}

#[test]
fn a_log_odds_shift_lowers_the_probabilities_the_decision_reads() {
    // 0.3 → odds 3/7, times e^-1: 0.1577, p 0.136; 0.9 → odds 9/e = 3.311, p 0.768.
    assert!((shift_log_odds(0.3, -1.0) - 0.136_19).abs() < 1e-5);
    assert!((shift_log_odds(0.9, -1.0) - 0.768_03).abs() < 1e-5);
    assert_eq!(shift_log_odds(0.3, 0.0), 0.3);
    assert_eq!(
        (shift_log_odds(0.0, -1.0), shift_log_odds(1.0, -1.0)),
        (0.0, 1.0)
    );
    // Unshifted, 0.9 × 5 tokens and 0.3 × 100 keep both (0.495 against 0.228). Shifted by
    // -1: expected gold 0.768·5 + 0.136·100 = 17.46; one unit 2·3.84/(5+17.46) = 0.342,
    // both 2·17.46/(105+17.46) = 0.285: the long unsure unit is dropped. The cutoff is
    // the kept unit's own probability.
    assert_eq!(
        decide_shifted(&[0.9, 0.3], &[5, 100], 0.0, &[]).0,
        [true, true]
    );
    assert_eq!(
        decide_shifted(&[0.9, 0.3], &[5, 100], -1.0, &[]),
        (vec![true, false], 0.9)
    );
    assert_eq!(
        decide_shifted(&[0.9, 0.3, 0.6], &[10, 10, 10], 0.0, &[]),
        decide_expected_f1(&[0.9, 0.3, 0.6], &[10, 10, 10])
    );
    assert_eq!(decide_shifted(&[0.0], &[5], -0.5, &[]), (vec![false], 1.0));
    // An exempt unit decides on its own probability.
    assert_eq!(
        decide_shifted(&[0.9, 0.3], &[5, 100], -1.0, &[false, true]).0,
        [true, true]
    );
}

#[test]
fn units_reaching_the_threshold_are_kept() {
    assert_eq!(
        decide(&[0.9, 0.2, 0.5, 0.45], 0.5, 0.5),
        [true, false, true, false]
    );
}

#[test]
fn a_page_with_no_unit_at_the_threshold_keeps_those_near_its_best() {
    // Best 0.4: the fallback keeps what reaches 0.2.
    assert_eq!(
        decide(&[0.4, 0.1, 0.25, 0.19], 0.5, 0.5),
        [true, false, true, false]
    );
    // Turned off: nothing.
    assert_eq!(decide(&[0.4, 0.1], 0.5, 0.0), [false, false]);
    // All zero: nothing.
    assert_eq!(decide(&[0.0, 0.0], 0.5, 0.5), [false, false]);
}
