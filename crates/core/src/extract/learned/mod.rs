//! `learned`: sightline's own extractor. A small gradient-boosted-trees classifier decides, for
//! every text unit of the rendered page (a run of text nodes in one block: one output
//! paragraph), whether it is main content, from every signal the render gives: the five
//! papers' scores, Readability.js's article detection ([`readability`]), the geometry of the
//! box, DOM and text statistics, class/id tokens, the unit compared with the rest of its page
//! and repeated records ([`context`]), and the unit's neighbourhood ([`features`]), on text units ([`units`]). A second pass smooths the decisions across the reading
//! order by reading the neighbours' first-pass probabilities (stacking; trained on
//! out-of-fold first-pass predictions, see `eval::train`).
//!
//! Phases: [`features::page_features`] → pass 1 → [`pass2::pass2_features`] → pass 2 →
//! keep the units that maximise the page's expected F1, read on probabilities shifted down in
//! log-odds except for headlines ([`decide_shifted`], [`headline_units`]; or, with the
//! `threshold` decision, those reaching a threshold) → quotations of text kept elsewhere
//! dropped ([`quoted_copies`]) → elements whose text is all kept →
//! explanations (probability and, when asked for, top feature contributions of each kept
//! block).
//!
//! The model is `models/learned.json`, built into the binary ([`model::Model::shipped`]) and
//! reproduced by `sightline train`.

pub(crate) mod context;
pub mod features;
pub mod model;
pub mod pass2;
pub(crate) mod readability;
pub mod schema;
pub(crate) mod tokens;
pub(crate) mod units;

use self::features::PageFeatures;
use self::model::{sigmoid, Model};
use self::schema::{FEATURES, PASS2_FEATURES};
pub use super::details::{BlockExplanation, Contribution, LearnedDetails};
use super::text::eval_token_count;
use super::{Algorithm, Extraction, Params};
use crate::snapshot::{NodeId, Tree};

/// How many feature contributions each kept block reports, per pass.
pub const TOP_CONTRIBUTIONS: usize = 5;

/// The per-unit outcome of both passes.
#[derive(Debug, Clone)]
pub struct Classified {
    pub features: PageFeatures,
    /// Pass-2 feature rows, row-major.
    pub pass2_rows: Vec<f64>,
    pub p1: Vec<f64>,
    pub p2: Vec<f64>,
}

/// Run both passes of `model` on a page.
pub fn classify(tree: &Tree, model: &Model, params: &Params) -> Classified {
    let pf = features::page_features(tree, params);
    let (f1, f2) = model.forests();
    let p1 = f1.predict(&pf.rows, FEATURES.len());
    let pass2_rows = pass2::pass2_features(&pf, &p1);
    let p2 = f2.predict(&pass2_rows, PASS2_FEATURES.len());
    Classified {
        features: pf,
        pass2_rows,
        p1,
        p2,
    }
}

/// Is unit `u` in a reader-comment region: inside (or itself) an element whose class, id or
/// role names a comment (`anc_comment`, `own_comment`), and outside the article chosen by the
/// Readability port (`rd_in_article`)? The comment model decides which of these are comment
/// text ([`model::Model::comments`]); training relabels them by each dataset's policy.
pub fn comment_candidate(pf: &PageFeatures, u: usize) -> bool {
    let f = |name: &str| pf.row(u)[schema::feature_index(name)];
    (f("anc_comment") > 0.0 || f("own_comment") > 0.0) && f("rd_in_article") <= 0.0
}

/// With [`crate::extract::params::LearnedParams::comments`]: the units to add as reader
/// comments (not kept as article, a comment candidate, comment probability ≥ `threshold`) and
/// each unit's comment probability (0 for the others). Nothing without a comment model.
pub fn comment_units(
    pf: &PageFeatures,
    model: &Model,
    keep: &[bool],
    threshold: f64,
) -> (Vec<bool>, Vec<f64>) {
    let n = pf.units.len();
    let (mut add, mut p) = (vec![false; n], vec![0.0; n]);
    let Some(forest) = model.comment_forest() else {
        return (add, p);
    };
    for u in 0..n {
        if !keep[u] && comment_candidate(pf, u) {
            p[u] = sigmoid(forest.score(pf.row(u)));
            add[u] = p[u] >= threshold;
        }
    }
    (add, p)
}

/// Images narrower or lower than this (CSS px) are never kept as content: tracking pixels,
/// icons, small avatars and badges.
pub const MEDIA_MIN_PX: f64 = 64.0;

/// Is node `i` an image that can be content: an `<img>` or `<picture>` shown with a box of
/// at least [`MEDIA_MIN_PX`] on each side?
fn content_image(tree: &Tree, i: usize) -> bool {
    let n = tree.node(i);
    matches!(n.tag.as_str(), "img" | "picture")
        && n.display != "none"
        && n.visibility == "visible"
        && n.rect.w >= MEDIA_MIN_PX
        && n.rect.h >= MEDIA_MIN_PX
}

/// Keep flags per node from per-unit decisions: the kept units' text nodes, and every
/// element that holds text, all of it kept. A line break between two kept texts or in a kept
/// element is kept too. So is an image of at least [`MEDIA_MIN_PX`] a side (with its
/// subtree) in a kept element, or after a kept text or before one, between the page's first
/// and last kept texts: the lead image after a dropped byline, a figure between two
/// paragraphs; not an image before the first kept text or after the last.
pub fn kept_nodes(tree: &Tree, pf: &PageFeatures, keep: &[bool]) -> Vec<bool> {
    let n = tree.len();
    let mut kept = vec![false; n];
    for (u, &k) in pf.units.iter().zip(keep) {
        if k {
            for &i in &u.nodes {
                kept[i] = true;
            }
        }
    }
    let mut all = vec![true; n];
    let mut any = vec![false; n];
    for i in (0..n).rev() {
        let nd = tree.node(i);
        if nd.is_text() {
            // Blank text nodes follow their parent.
            if tree.own_chars[i] > 0 {
                all[i] = kept[i];
                any[i] = kept[i];
            }
        } else {
            kept[i] = any[i] && all[i];
        }
        if let Some(q) = tree.parent(i) {
            all[q] &= all[i];
            any[q] |= any[i];
        }
    }
    // A line break between two kept texts is kept: it has no text of its own, so the rule
    // above drops it, and "Glaze.<br>Dishwasher" would be written as one word.
    let text_kept: Vec<Option<bool>> = (0..n)
        .map(|i| (tree.node(i).is_text() && tree.own_chars[i] > 0).then_some(kept[i]))
        .collect();
    // Per node: is the text just before it kept, and is any text before it kept?
    let mut prev = vec![(false, false); n];
    let (mut last, mut any_before) = (false, false);
    for (p, t) in prev.iter_mut().zip(&text_kept) {
        *p = (last, any_before);
        if let Some(k) = *t {
            last = k;
            any_before |= k;
        }
    }
    let (mut next, mut any_after) = (false, false);
    for i in (0..n).rev() {
        if let Some(k) = text_kept[i] {
            next = k;
            any_after |= k;
        } else if !kept[i] {
            let in_kept_parent = tree.parent(i).is_some_and(|q| kept[q]);
            let (before, any_before) = prev[i];
            if tree.node(i).tag == "br" {
                kept[i] = in_kept_parent || (before && next);
            } else if content_image(tree, i) {
                kept[i] = in_kept_parent || ((before || next) && any_before && any_after);
            }
        }
    }
    // A kept image's subtree (a <picture>'s <source> and <img>) goes with it, and so do its
    // ancestors that hold no text (a <figure>, a link around it) up to a kept element, so the
    // writers put it where it is on the page, not after the element it sits in.
    for i in 0..n {
        if kept[i] && content_image(tree, i) {
            let mut q = tree.parent(i);
            while let Some(p) = q {
                if kept[p] || any[p] {
                    break;
                }
                kept[p] = true;
                q = tree.parent(p);
            }
        }
    }
    for i in 0..n {
        if !kept[i]
            && tree
                .parent(i)
                .is_some_and(|q| kept[q] && content_image(tree, q))
        {
            kept[i] = true;
        }
    }
    kept
}

fn top(names: &[&str], row: &[f64], contribs: &[f64]) -> Vec<Contribution> {
    let mut idx: Vec<usize> = (0..names.len()).filter(|&j| contribs[j] != 0.0).collect();
    // Largest magnitude first, ties by feature order: select the top few, then sort them.
    let order = |a: &usize, b: &usize| {
        contribs[*b]
            .abs()
            .total_cmp(&contribs[*a].abs())
            .then(a.cmp(b))
    };
    if idx.len() > TOP_CONTRIBUTIONS {
        idx.select_nth_unstable_by(TOP_CONTRIBUTIONS, order);
        idx.truncate(TOP_CONTRIBUTIONS);
    }
    idx.sort_by(order);
    idx.into_iter()
        .map(|j| Contribution {
            feature: names[j].to_string(),
            value: row[j],
            contribution: contribs[j],
        })
        .collect()
}

/// Which units to keep: those whose probability reaches `threshold`; when none does, those
/// within `fallback` (a share) of the page's highest probability (see
/// [`crate::extract::params::LearnedParams::empty_fallback`]).
pub fn decide(p: &[f64], threshold: f64, fallback: f64) -> Vec<bool> {
    let max = p.iter().copied().fold(0.0, f64::max);
    let t = if max >= threshold || fallback <= 0.0 {
        threshold
    } else {
        fallback * max
    };
    p.iter().map(|&q| q >= t && q > 0.0).collect()
}

/// Which units to keep so that the page's expected F1 is highest, from each unit's
/// probability `p` and token count `n` ([`super::params::Decision::ExpectedF1`]).
///
/// The F1 of keeping a set K is `2·TP / (|K| + |gold|)` in tokens; with independent units its
/// plug-in expectation is `2 Σ_K p·n / (Σ_K n + Σ_all p·n)`. For a given size of K this is
/// largest when K holds the most probable units, so the best set is a prefix of the units
/// sorted by probability: the prefix with the highest estimate is kept, extended to every unit
/// tied with its last one. Returns the decisions and the page's cutoff (the lowest kept
/// probability; 1 when nothing is kept, which happens only when every probability is 0).
pub fn decide_expected_f1(p: &[f64], n: &[usize]) -> (Vec<bool>, f64) {
    let pn: Vec<f64> = p.iter().zip(n).map(|(&q, &k)| q * k as f64).collect();
    let expected_gold: f64 = pn.iter().sum();
    if expected_gold <= 0.0 {
        return (vec![false; p.len()], 1.0);
    }
    let mut order: Vec<usize> = (0..p.len()).collect();
    order.sort_by(|&a, &b| p[b].total_cmp(&p[a]).then(a.cmp(&b)));
    let (mut kept_n, mut kept_pn) = (0.0, 0.0);
    let (mut best, mut cutoff) = (f64::NEG_INFINITY, 1.0);
    for &u in &order {
        kept_n += n[u] as f64;
        kept_pn += pn[u];
        let f = 2.0 * kept_pn / (kept_n + expected_gold);
        if f > best {
            best = f;
            cutoff = p[u];
        }
    }
    (p.iter().map(|&q| q >= cutoff && q > 0.0).collect(), cutoff)
}

/// The units the log-odds shift leaves alone: a heading (the block or its parent is `h1`–`h6`)
/// or a unit that is most of the page's `<title>` (`title_overlap` at least
/// [`HEADLINE_TITLE_OVERLAP`]). They are short, so the expected-F1 decision gains little from
/// them either way, and a shifted headline at even odds is dropped; a reader wants it kept.
/// Held out by site, shifting them too dropped a title-like line on 122 of the 1,409 pages
/// that had one; sparing them, on 11.
pub fn headline_units(tree: &Tree, pf: &PageFeatures) -> Vec<bool> {
    let overlap = schema::feature_index("title_overlap");
    pf.units
        .iter()
        .enumerate()
        .map(|(k, u)| {
            u.heading_level(tree).is_some() || pf.row(k)[overlap] >= HEADLINE_TITLE_OVERLAP
        })
        .collect()
}

/// A unit whose `title_overlap` (shared words over the larger of the unit's and the title's
/// word sets) reaches this is a headline for [`headline_units`]: at least half of both.
pub const HEADLINE_TITLE_OVERLAP: f64 = 0.5;

/// [`decide_expected_f1`] on the probabilities with `shift` added to their log-odds
/// ([`super::params::LearnedParams::log_odds_shift`]), except the `exempt` units' (missing
/// entries are not exempt). The cutoff returned is the lowest kept probability as the model
/// gave it (1 when nothing is kept).
pub fn decide_shifted(p: &[f64], n: &[usize], shift: f64, exempt: &[bool]) -> (Vec<bool>, f64) {
    let q: Vec<f64> = p
        .iter()
        .enumerate()
        .map(|(u, &x)| {
            if exempt.get(u).copied().unwrap_or(false) {
                x
            } else {
                shift_log_odds(x, shift)
            }
        })
        .collect();
    let (keep, _) = decide_expected_f1(&q, n);
    let cutoff = p
        .iter()
        .zip(&keep)
        .filter(|(_, &k)| k)
        .map(|(&x, _)| x)
        .fold(1.0, f64::min);
    (keep, cutoff)
}

/// `p` with `shift` added to its log-odds. 0 and 1 stay as they are, and so does every `p`
/// when `shift` is 0.
pub fn shift_log_odds(p: f64, shift: f64) -> f64 {
    if shift == 0.0 || p <= 0.0 || p >= 1.0 {
        return p;
    }
    sigmoid((p / (1.0 - p)).ln() + shift)
}

/// A unit of fewer words than this is never a quoted copy for [`quoted_copies`]: a quoted
/// "Thanks" or a name repeats without copying a post.
pub const QUOTE_MIN_WORDS: usize = 3;

/// The kept units that are quoted copies: inside a `<blockquote>` (the `in_blockquote`
/// feature), with the text (case and white space aside, at least [`QUOTE_MIN_WORDS`] words)
/// of another kept unit that is not in a quotation or comes before. A forum reply quoting the
/// post above it, or a pull quote repeating a paragraph of the article: the text is kept once,
/// where it was written ([`super::params::LearnedParams::keep_quoted_copies`]).
pub fn quoted_copies(pf: &PageFeatures, keep: &[bool]) -> Vec<usize> {
    let in_quote = schema::feature_index("in_blockquote");
    let key = |u: &units::Unit| {
        let text = crate::snapshot::collapse_ws(&u.text);
        (text.split(' ').count() >= QUOTE_MIN_WORDS).then(|| text.to_lowercase())
    };
    // Per kept text: is it kept outside a quotation, and the first quoted copy.
    let mut plain = std::collections::HashSet::new();
    let mut first_quote = std::collections::HashMap::new();
    let mut candidates = Vec::new();
    for (u, unit) in pf.units.iter().enumerate() {
        if !keep.get(u).copied().unwrap_or(false) {
            continue;
        }
        let Some(k) = key(unit) else { continue };
        if pf.row(u)[in_quote] > 0.0 {
            first_quote.entry(k.clone()).or_insert(u);
            candidates.push((u, k));
        } else {
            plain.insert(k);
        }
    }
    candidates
        .into_iter()
        .filter(|(u, k)| plain.contains(k) || first_quote[k] != *u)
        .map(|(u, _)| u)
        .collect()
}

/// Run `learned` with a given model.
pub fn extract_with(tree: &Tree, model: &Model, params: &Params) -> Extraction {
    let c = classify(tree, model, params);
    let (keep, threshold) = match params.learned.cut(model.threshold) {
        Some(t) => (decide(&c.p2, t, params.learned.empty_fallback), t),
        None => {
            let n: Vec<usize> = c
                .features
                .units
                .iter()
                .map(|u| eval_token_count(&u.text))
                .collect();
            let exempt = headline_units(tree, &c.features);
            decide_shifted(&c.p2, &n, params.learned.log_odds_shift, &exempt)
        }
    };
    let (comment, comment_p) = if params.learned.comments {
        comment_units(&c.features, model, &keep, params.learned.comment_threshold)
    } else {
        (vec![false; keep.len()], Vec::new())
    };
    let mut keep: Vec<bool> = keep.iter().zip(&comment).map(|(&a, &b)| a || b).collect();
    if !params.learned.keep_quoted_copies {
        for u in quoted_copies(&c.features, &keep) {
            keep[u] = false;
        }
    }
    let kept = kept_nodes(tree, &c.features, &keep);

    // Explanations of the kept units (their feature contributions only when asked for).
    let n2 = PASS2_FEATURES.len();
    let (f1, f2) = model.forests();
    let blocks: Vec<BlockExplanation> = (0..keep.len())
        .filter(|&u| keep[u])
        .map(|u| {
            let unit = &c.features.units[u];
            let row1 = c.features.row(u);
            let row2 = &c.pass2_rows[u * n2..(u + 1) * n2];
            let (pass1_top, pass2_top) = if params.learned.explain {
                (
                    top(FEATURES, row1, &f1.contributions(row1)),
                    top(PASS2_FEATURES, row2, &f2.contributions(row2)),
                )
            } else {
                (Vec::new(), Vec::new())
            };
            BlockExplanation {
                path: tree.css_path(unit.block),
                rect: tree.node(unit.block).rect,
                chars: unit.nodes.iter().map(|&i| tree.own_chars[i]).sum(),
                probability: if comment[u] { comment_p[u] } else { c.p2[u] },
                pass1_probability: c.p1[u],
                pass1_top,
                pass2_top,
                comment: comment[u],
            }
        })
        .collect();
    let heat = c
        .features
        .units
        .iter()
        .zip(&c.p2)
        .map(|(u, &p)| {
            let r = tree.node(u.block).rect;
            [r.x, r.y, r.w, r.h, p]
        })
        .collect();
    let details = LearnedDetails {
        model: model.description.clone(),
        decision: params.learned.rule(),
        threshold,
        units: c.features.units.len(),
        blocks,
        heat,
        error: None,
    };
    Extraction {
        algorithm: Algorithm::Learned,
        kept,
        threshold: Some(threshold),
        scores: None,
        details: super::Details::Learned(details),
    }
}

/// Run `learned` with `model` (`--model FILE`), or else the model built into the binary. If
/// the built-in model cannot be read (a build with a placeholder model), nothing is kept and
/// `details.error` says why.
pub fn extract(tree: &Tree, params: &Params, model: Option<&Model>) -> Extraction {
    if let Some(m) = model {
        return extract_with(tree, m, params);
    }
    match Model::shipped() {
        Ok(m) => extract_with(tree, m, params),
        Err(e) => {
            let mut ex = Extraction::empty(Algorithm::Learned, tree.len());
            ex.details = super::Details::Learned(LearnedDetails {
                model: String::new(),
                decision: params.learned.rule(),
                threshold: 0.0,
                units: 0,
                blocks: Vec::new(),
                heat: Vec::new(),
                error: Some(e.to_string()),
            });
            ex
        }
    }
}

/// One text unit's probabilities and explanations, for every unit of the page (kept or
/// not), as `scores::node_scores` reports them.
#[derive(Debug, Clone)]
pub(crate) struct UnitScore {
    /// The unit's block element.
    pub block: NodeId,
    /// Its text nodes.
    pub nodes: Vec<NodeId>,
    pub probability: f64,
    pub pass1_probability: f64,
    pub pass1_top: Vec<Contribution>,
    pub pass2_top: Vec<Contribution>,
}

/// Every unit's [`UnitScore`] with the model [`extract`] uses (the same [`classify`] and
/// contributions as the kept blocks' explanations); an error when that model cannot be read.
pub(crate) fn unit_scores(
    tree: &Tree,
    params: &Params,
    model: Option<&Model>,
) -> Result<Vec<UnitScore>, String> {
    let model: &Model = match model {
        Some(m) => m,
        None => Model::shipped().map_err(|e| e.to_string())?,
    };
    let c = classify(tree, model, params);
    let n2 = PASS2_FEATURES.len();
    let (f1, f2) = model.forests();
    Ok(c.features
        .units
        .iter()
        .enumerate()
        .map(|(u, unit)| {
            let row1 = c.features.row(u);
            let row2 = &c.pass2_rows[u * n2..(u + 1) * n2];
            UnitScore {
                block: unit.block,
                nodes: unit.nodes.clone(),
                probability: c.p2[u],
                pass1_probability: c.p1[u],
                pass1_top: top(FEATURES, row1, &f1.contributions(row1)),
                pass2_top: top(PASS2_FEATURES, row2, &f2.contributions(row2)),
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::{
        decide, decide_expected_f1, decide_shifted, extract_with, headline_units, quoted_copies,
        schema::PASS2_FEATURES, shift_log_odds, Model,
    };
    use crate::snapshot::{rect, SnapshotBuilder, Tree};

    /// Pass 2 reads the pass-1 probabilities of a unit's neighbours: `p1_prev1` of unit 1 is
    /// unit 0's probability, and unit 0 has none before it (-1).
    #[test]
    fn pass2_rows_read_the_neighbours_probabilities() {
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
}
