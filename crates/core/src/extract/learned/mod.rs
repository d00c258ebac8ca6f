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

/// The value of a flag feature: 1 for true, 0 for false.
fn flag(x: bool) -> f64 {
    f64::from(u8::from(x))
}

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
mod tests;
