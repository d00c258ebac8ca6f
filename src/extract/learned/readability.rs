//! The core of Mozilla Readability's article detection (`grabArticle` and the conditional
//! cleaning of `prepArticle`), ported to pure Rust over a [`Tree`], as features for the
//! `learned` classifier (it is not an algorithm of its own).
//!
//! Source: Readability.js 0.6 (Mozilla, Apache-2.0),
//! <https://github.com/mozilla/readability/blob/main/Readability.js>: `_grabArticle`,
//! `_initializeNode`, `_getClassWeight`, `_getLinkDensity`, `_cleanConditionally` and the
//! `REGEXPS` / `DEFAULT_TAGS_TO_SCORE` / `DIV_TO_P_ELEMS` / `UNLIKELY_ROLES` constants.
//!
//! What it does, as Readability does it:
//! 1. drop hidden nodes and, on the first attempt, "unlikely candidates" (class/id matching
//!    `unlikelyCandidates` and not `okMaybeItsACandidate`, outside tables and code; unlikely
//!    ARIA roles);
//! 2. score paragraph-like nodes (`section, h2-h6, p, td, pre`, divs without block children,
//!    runs of phrasing content inside divs that have block children): `1 + (commas + 1) +
//!    min(len / 100, 3)` when the text has at least 25 characters, added to up to 5
//!    ancestors (parent in full, grandparent half, the level-`k` ancestor `1 / (3k)`), each
//!    ancestor starting from its tag score and class weight (±25 by the `positive` /
//!    `negative` patterns on class and id);
//! 3. scale every candidate by `1 - link density`; the best is the top candidate, moved up
//!    to a common ancestor of 3 near-equal alternatives, or to a parent scoring more, then
//!    through single-child parents;
//! 4. join the top candidate's siblings whose score (plus a bonus for the same class)
//!    reaches `max(10, top / 5)`, and paragraphs that read like text;
//! 5. retry without stripping unlikely candidates, then without class weights, while the
//!    article has fewer than 500 characters (the longest attempt wins if none has);
//! 6. mark what `prepArticle` would clean out of the article (`aside`, `footer`, forms and
//!    buttons, "share" boxes, negative headers, and the `_cleanConditionally` tests on
//!    `form, fieldset, table, ul, ol, div`).
//!
//! Simplifications (a snapshot is not a DOM): text lengths are the sums of trimmed text
//! nodes; link density counts every link-like node (`a`, `button`, `select`) without the
//! 0.3 weight of `#` links; conditional cleaning judges every element on the unmodified
//! article rather than after the removals of its descendants; node order is document order.

use std::collections::HashMap;

use crate::snapshot::{NodeId, Tree};

/// `DEFAULT_TAGS_TO_SCORE`.
const TAGS_TO_SCORE: [&str; 9] = ["section", "h2", "h3", "h4", "h5", "h6", "p", "td", "pre"];
/// `DIV_TO_P_ELEMS`: a div holding any of these is not a paragraph.
const DIV_TO_P_ELEMS: [&str; 9] = [
    "blockquote",
    "dl",
    "div",
    "img",
    "ol",
    "p",
    "pre",
    "table",
    "ul",
];
/// `UNLIKELY_ROLES`.
const UNLIKELY_ROLES: [&str; 7] = [
    "menu",
    "menubar",
    "complementary",
    "navigation",
    "alert",
    "alertdialog",
    "dialog",
];
/// `REGEXPS.unlikelyCandidates` (alternatives, matched as case-insensitive substrings).
const UNLIKELY: [&str; 31] = [
    "-ad-",
    "ai2html",
    "banner",
    "breadcrumbs",
    "combx",
    "comment",
    "community",
    "cover-wrap",
    "disqus",
    "extra",
    "footer",
    "gdpr",
    "header",
    "legends",
    "menu",
    "related",
    "remark",
    "replies",
    "rss",
    "shoutbox",
    "sidebar",
    "skyscraper",
    "social",
    "sponsor",
    "supplemental",
    "ad-break",
    "agegate",
    "pagination",
    "pager",
    "popup",
    "yom-remote",
];
/// `REGEXPS.okMaybeItsACandidate`.
const OK_MAYBE: [&str; 8] = [
    "and", "article", "body", "column", "content", "main", "mathjax", "shadow",
];
/// `REGEXPS.positive`.
const POSITIVE: [&str; 13] = [
    "article",
    "body",
    "content",
    "entry",
    "hentry",
    "h-entry",
    "main",
    "page",
    "pagination",
    "post",
    "text",
    "blog",
    "story",
];
/// `REGEXPS.negative` (the `hid` alternatives are a whole space-separated word, below).
const NEGATIVE: [&str; 24] = [
    "-ad-",
    "hidden",
    "banner",
    "combx",
    "comment",
    "com-",
    "contact",
    "footer",
    "gdpr",
    "masthead",
    "media",
    "meta",
    "outbrain",
    "promo",
    "related",
    "scroll",
    "share",
    "shoutbox",
    "sidebar",
    "skyscraper",
    "sponsor",
    "shopping",
    "tags",
    "widget",
];
/// Readability's `DEFAULT_CHAR_THRESHOLD`: an article shorter than this triggers a retry.
pub const CHAR_THRESHOLD: usize = 500;
/// `DEFAULT_N_TOP_CANDIDATES`.
const N_TOP_CANDIDATES: usize = 5;
/// `MINIMUM_TOPCANDIDATES` of the alternative-candidates rule.
const MIN_TOP_CANDIDATES: usize = 3;

fn any_in(s: &str, pats: &[&str]) -> bool {
    pats.iter().any(|p| s.contains(p))
}

/// `REGEXPS.negative` on one lower-cased attribute value.
fn negative(s: &str) -> bool {
    s == "hid"
        || s.starts_with("hid ")
        || s.ends_with(" hid")
        || s.contains(" hid ")
        || any_in(s, &NEGATIVE)
}

/// `_getClassWeight`: ±25 for the class and ±25 for the id.
pub fn class_weight(class: Option<&str>, id: Option<&str>) -> f64 {
    let mut w = 0.0;
    for s in [class, id].into_iter().flatten() {
        if s.is_empty() {
            continue;
        }
        let s = s.to_lowercase();
        if negative(&s) {
            w -= 25.0;
        }
        if any_in(&s, &POSITIVE) {
            w += 25.0;
        }
    }
    w
}

/// `_initializeNode`'s tag score.
fn tag_score(tag: &str) -> f64 {
    match tag {
        "div" => 5.0,
        "pre" | "td" | "blockquote" => 3.0,
        "address" | "ol" | "ul" | "dl" | "dd" | "dt" | "li" | "form" => -3.0,
        "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "th" => -5.0,
        _ => 0.0,
    }
}

fn is_comma(c: char) -> bool {
    matches!(
        c,
        '\u{002C}'
            | '\u{060C}'
            | '\u{FE50}'
            | '\u{FE10}'
            | '\u{FE11}'
            | '\u{2E41}'
            | '\u{2E34}'
            | '\u{2E32}'
            | '\u{FF0C}'
    )
}

/// The outcome of Readability's article detection on one page.
#[derive(Debug, Clone)]
pub struct Readability {
    /// Candidate score of each node Readability scored (after link-density scaling); NaN for
    /// nodes it never scored.
    pub score: Vec<f64>,
    /// The top candidate (the root when Readability found none and took the whole body).
    pub top: NodeId,
    /// The top candidate's score (at least 1e-9).
    pub top_score: f64,
    /// Nodes inside the top candidate.
    pub in_top: Vec<bool>,
    /// Nodes inside the joined article (top candidate and the siblings it joins).
    pub in_article: Vec<bool>,
    /// Nodes removed before scoring (hidden, or unlikely candidates on the attempt used).
    pub removed: Vec<bool>,
    /// Nodes `prepArticle` would clean out of the article.
    pub cleaned: Vec<bool>,
    /// `_getClassWeight` of each element (0 for text nodes).
    pub class_weight: Vec<f64>,
    /// Characters of the article's text (removed and cleaned nodes excluded).
    pub article_chars: usize,
    /// Which attempt gave the article: 0 all flags, 1 without stripping unlikely
    /// candidates, 2 also without class weights, 3 also without conditional cleaning.
    pub attempt: usize,
}

impl Readability {
    /// Is node `i` in what Readability would output (in the article, neither removed nor
    /// cleaned)?
    pub fn output(&self, i: NodeId) -> bool {
        self.in_article[i] && !self.removed[i] && !self.cleaned[i]
    }

    /// The score of the nearest scored node among `i` and its ancestors, relative to the top
    /// score (0 when none is scored).
    pub fn nearest_rel(&self, tree: &Tree, i: NodeId) -> f64 {
        std::iter::once(i)
            .chain(tree.ancestors(i))
            .find(|&a| !self.score[a].is_nan())
            .map_or(0.0, |a| self.score[a] / self.top_score)
    }
}

/// An element's class and id attributes.
type ClassId<'a> = (Option<&'a str>, Option<&'a str>);

/// Per-page facts every attempt reads.
struct Base {
    /// Does the element's "class id" match `REGEXPS.unlikelyCandidates` and not
    /// `okMaybeItsACandidate`?
    unlikely: Vec<bool>,
    hidden: Vec<bool>,
    in_table_or_code: Vec<bool>,
}

/// Run Readability's article detection on `tree`.
pub fn grab_article(tree: &Tree) -> Readability {
    let n = tree.len();
    let mut base = Base {
        unlikely: vec![false; n],
        hidden: vec![false; n],
        in_table_or_code: vec![false; n],
    };
    let mut class_weights = vec![0.0; n];
    // Pages repeat their class and id values: match each distinct pair once.
    let mut matched: HashMap<ClassId, (bool, f64)> = HashMap::new();
    for (i, weight) in class_weights.iter_mut().enumerate() {
        let nd = tree.node(i);
        if nd.is_element() {
            let key = (nd.class.as_deref(), nd.id.as_deref());
            let (unlikely, w) = *matched.entry(key).or_insert_with(|| {
                let m = format!(
                    "{} {}",
                    key.0.unwrap_or("").to_lowercase(),
                    key.1.unwrap_or("").to_lowercase()
                );
                (
                    any_in(&m, &UNLIKELY) && !any_in(&m, &OK_MAYBE),
                    class_weight(key.0, key.1),
                )
            });
            base.unlikely[i] = unlikely;
            *weight = w;
        }
        if let Some(p) = tree.parent(i) {
            base.hidden[i] = base.hidden[p];
            base.in_table_or_code[i] =
                base.in_table_or_code[p] || matches!(tree.node(p).tag.as_str(), "table" | "code");
        }
        if nd.is_element() && (nd.display == "none" || nd.visibility == "hidden") {
            base.hidden[i] = true;
        }
    }
    let mut best: Option<Readability> = None;
    for attempt in 0..4 {
        let r = attempt_article(tree, &base, &class_weights, attempt);
        if r.article_chars >= CHAR_THRESHOLD {
            return r;
        }
        if best
            .as_ref()
            .is_none_or(|b| r.article_chars > b.article_chars)
        {
            best = Some(r);
        }
    }
    best.expect("four attempts ran")
}

/// One `grabArticle` attempt: 0 with every flag, 1 without stripping unlikely candidates,
/// 2 also without class weights, 3 also without conditional cleaning.
fn attempt_article(tree: &Tree, base: &Base, class_weights: &[f64], attempt: usize) -> Readability {
    let n = tree.len();
    let strip = attempt == 0;
    let weigh = attempt <= 1;
    let clean_conditionally = attempt <= 2;
    let cw = |i: usize| if weigh { class_weights[i] } else { 0.0 };

    // 1. Removal of hidden nodes and unlikely candidates.
    let mut removed = vec![false; n];
    for i in 1..n {
        let p = tree.parent(i).unwrap_or(0);
        if removed[p] || base.hidden[i] {
            removed[i] = true;
            continue;
        }
        let nd = tree.node(i);
        if nd.is_text() || !strip {
            continue;
        }
        if base.unlikely[i] && !base.in_table_or_code[i] && nd.tag != "a" {
            removed[i] = true;
            continue;
        }
        if nd
            .role
            .as_deref()
            .is_some_and(|r| UNLIKELY_ROLES.contains(&r.trim()))
        {
            removed[i] = true;
        }
    }

    // Bottom-up counts over the kept nodes.
    let mut chars = vec![0usize; n];
    let mut link = vec![0usize; n];
    let mut commas = vec![0usize; n];
    let mut block_desc = vec![false; n]; // a DIV_TO_P element below
    let mut elem_children = vec![0usize; n];
    for i in (0..n).rev() {
        if removed[i] {
            continue;
        }
        let nd = tree.node(i);
        if nd.is_text() {
            chars[i] = tree.own_chars[i];
            if nd.link {
                link[i] = chars[i];
            }
            commas[i] = nd
                .text
                .as_deref()
                .map_or(0, |t| t.chars().filter(|&c| is_comma(c)).count());
        }
        if let Some(p) = tree.parent(i) {
            chars[p] += chars[i];
            link[p] += link[i];
            commas[p] += commas[i];
            if nd.is_element() {
                elem_children[p] += 1;
                if block_desc[i] || DIV_TO_P_ELEMS.contains(&nd.tag.as_str()) {
                    block_desc[p] = true;
                }
            }
        }
    }
    let density = |i: usize| link[i] as f64 / chars[i].max(1) as f64;

    // 2. Paragraph-like nodes. A div without block descendants is a paragraph (`as_p`); a
    // div with one `p` child, no text of its own and little link text is replaced by that
    // `p` (`collapsed`); runs of phrasing content in other divs become paragraphs.
    let mut as_p = vec![false; n];
    let mut collapsed = vec![false; n];
    // (first ancestor, text length, commas) of each paragraph to score, in document order.
    let mut paragraphs: Vec<(NodeId, usize, usize)> = Vec::new();
    let mut virtual_p = vec![0usize; n]; // paragraphs made from phrasing runs, per div
    for i in 0..n {
        let nd = tree.node(i);
        if removed[i] || nd.is_text() {
            continue;
        }
        let tag = nd.tag.as_str();
        if tag == "div" {
            let kids: Vec<NodeId> = tree.children[i]
                .iter()
                .copied()
                .filter(|&c| !removed[c])
                .collect();
            let own_text: usize = kids
                .iter()
                .filter(|&&c| tree.node(c).is_text())
                .map(|&c| chars[c])
                .sum();
            let elems: Vec<NodeId> = kids
                .iter()
                .copied()
                .filter(|&c| tree.node(c).is_element())
                .collect();
            if elems.len() == 1
                && tree.node(elems[0]).tag == "p"
                && own_text == 0
                && density(i) < 0.25
            {
                collapsed[i] = true;
                continue;
            }
            if !block_desc[i] {
                as_p[i] = true;
                if let Some(p) = tree.parent(i) {
                    paragraphs.push((p, chars[i], commas[i]));
                }
                continue;
            }
            // Runs of phrasing content (text, inline elements without block descendants).
            let (mut len, mut cm, mut open) = (0usize, 0usize, false);
            for &c in &kids {
                let cn = tree.node(c);
                let phrasing = cn.is_text() || (!tree.is_block(c) && !block_desc[c]);
                if phrasing {
                    if open || chars[c] > 0 {
                        open = true;
                        len += chars[c];
                        cm += commas[c];
                    }
                } else if open {
                    paragraphs.push((i, len, cm));
                    virtual_p[i] += 1;
                    (len, cm, open) = (0, 0, false);
                }
            }
            if open {
                paragraphs.push((i, len, cm));
                virtual_p[i] += 1;
            }
        } else if TAGS_TO_SCORE.contains(&tag) {
            if let Some(p) = tree.parent(i) {
                paragraphs.push((p, chars[i], commas[i]));
            }
        }
    }

    // Scoring: up to 5 ancestors (collapsed divs are gone from the DOM).
    let mut score = vec![f64::NAN; n];
    let mut order: Vec<NodeId> = Vec::new();
    for &(first, len, cm) in &paragraphs {
        if len < 25 {
            continue;
        }
        let content = 1.0 + (cm + 1) as f64 + (len / 100).min(3) as f64;
        let mut level = 0usize;
        let mut cur = Some(first);
        while let Some(a) = cur {
            cur = tree.parent(a);
            if collapsed[a] {
                continue;
            }
            if score[a].is_nan() {
                let tag = if as_p[a] {
                    "p"
                } else {
                    tree.node(a).tag.as_str()
                };
                score[a] = tag_score(tag) + cw(a);
                order.push(a);
            }
            let divider = match level {
                0 => 1.0,
                1 => 2.0,
                l => l as f64 * 3.0,
            };
            score[a] += content / divider;
            level += 1;
            if level == 5 {
                break;
            }
        }
    }

    // 3. Link-density scaling and the top candidate.
    for &c in &order {
        score[c] *= 1.0 - density(c);
    }
    let mut ranked = order.clone();
    ranked.sort_by(|&a, &b| score[b].total_cmp(&score[a]));
    ranked.truncate(N_TOP_CANDIDATES);
    let mut in_article = vec![false; n];
    let mut in_top = vec![false; n];
    let whole = |removed: &[bool], flags: &mut [bool]| {
        for (f, r) in flags.iter_mut().zip(removed) {
            *f = !r;
        }
    };
    let top0 = ranked.first().copied().filter(|&t| t != 0);
    let (top, top_score) = match top0 {
        None => {
            whole(&removed, &mut in_article);
            whole(&removed, &mut in_top);
            (0, 1e-9)
        }
        Some(mut top) => {
            let top_raw = score[top];
            // Alternatives within 75 % of the top: move up to an ancestor holding 3 of them.
            let alts: Vec<NodeId> = ranked[1..]
                .iter()
                .copied()
                .filter(|&c| top_raw != 0.0 && score[c] / top_raw >= 0.75)
                .collect();
            if alts.len() >= MIN_TOP_CANDIDATES {
                let mut p = tree.parent(top);
                while let Some(a) = p.filter(|&a| a != 0) {
                    let holding = alts
                        .iter()
                        .filter(|&&c| c != a && tree.contains(a, c))
                        .count();
                    if holding >= MIN_TOP_CANDIDATES {
                        top = a;
                        break;
                    }
                    p = tree.parent(a);
                }
            }
            if score[top].is_nan() {
                score[top] = tag_score(tree.node(top).tag.as_str()) + cw(top);
            }
            // A parent scoring more than the top takes over, while scores stay above a third.
            let mut last = score[top];
            let threshold = last / 3.0;
            let mut p = tree.parent(top);
            while let Some(a) = p.filter(|&a| a != 0) {
                if score[a].is_nan() {
                    p = tree.parent(a);
                    continue;
                }
                if score[a] < threshold {
                    break;
                }
                if score[a] > last {
                    top = a;
                    break;
                }
                last = score[a];
                p = tree.parent(a);
            }
            // Up through single-child parents.
            while let Some(a) = tree
                .parent(top)
                .filter(|&a| a != 0 && elem_children[a] == 1)
            {
                top = a;
            }
            if score[top].is_nan() {
                score[top] = tag_score(tree.node(top).tag.as_str()) + cw(top);
            }
            let ts = score[top];
            for i in tree.subtree(top) {
                in_top[i] = !removed[i];
            }
            // 4. Siblings.
            let sib_threshold = (ts * 0.2).max(10.0);
            let parent = tree.parent(top).unwrap_or(0);
            let top_class = tree.node(top).class.as_deref().unwrap_or("");
            for &s in &tree.children[parent] {
                if removed[s]
                    || tree.node(s).is_element()
                        && s != top
                        && !joins(
                            tree,
                            s,
                            top,
                            top_class,
                            ts,
                            sib_threshold,
                            &score,
                            &collapsed,
                            &as_p,
                            &chars,
                            density(s),
                            &removed,
                        )
                {
                    continue;
                }
                if tree.node(s).is_text() {
                    continue;
                }
                for i in tree.subtree(s) {
                    in_article[i] = !removed[i];
                }
            }
            (top, ts.abs().max(1e-9))
        }
    };

    // 6. prepArticle's cleaning.
    let cleaned = clean(
        tree,
        &removed,
        &in_article,
        &Counts {
            chars: &chars,
            link: &link,
            commas: &commas,
            as_p: &as_p,
            virtual_p: &virtual_p,
        },
        class_weights,
        weigh,
        clean_conditionally,
    );
    let article_chars = (0..n)
        .filter(|&i| tree.node(i).is_text() && in_article[i] && !removed[i] && !cleaned[i])
        .map(|i| tree.own_chars[i])
        .sum();
    Readability {
        score,
        top,
        top_score,
        in_top,
        in_article,
        removed,
        cleaned,
        class_weight: class_weights.to_vec(),
        article_chars,
        attempt,
    }
}

/// Does sibling `s` join the top candidate's article?
#[allow(clippy::too_many_arguments)]
fn joins(
    tree: &Tree,
    s: NodeId,
    _top: NodeId,
    top_class: &str,
    top_score: f64,
    threshold: f64,
    score: &[f64],
    collapsed: &[bool],
    as_p: &[bool],
    chars: &[usize],
    link_density: f64,
    removed: &[bool],
) -> bool {
    let nd = tree.node(s);
    // A collapsed div stands for its paragraph.
    let sc = if collapsed[s] {
        tree.children[s]
            .iter()
            .copied()
            .find(|&c| tree.node(c).is_element())
            .unwrap_or(s)
    } else {
        s
    };
    let bonus = if !top_class.is_empty() && nd.class.as_deref() == Some(top_class) {
        top_score * 0.2
    } else {
        0.0
    };
    if !score[sc].is_nan() && score[sc] + bonus >= threshold {
        return true;
    }
    if tree.node(sc).tag == "p" || as_p[sc] {
        let len = chars[sc];
        if len > 80 && link_density < 0.25 {
            return true;
        }
        if len < 80 && len > 0 && link_density == 0.0 {
            let mut text = String::new();
            for i in tree.subtree(sc) {
                if !removed[i] {
                    if let Some(t) = &tree.node(i).text {
                        text.push_str(t);
                    }
                }
            }
            let t = text.trim_end();
            return t.ends_with('.') || t.contains(". ");
        }
    }
    false
}

/// What `prepArticle` removes from the article: `aside`, `footer` and form controls,
/// "share" boxes under 500 characters, `h1`/`h2` with a negative class weight, and the
/// `_cleanConditionally` tests on `form, fieldset, table, ul, ol, div`.
#[allow(clippy::too_many_arguments)]
fn clean(
    tree: &Tree,
    removed: &[bool],
    in_article: &[bool],
    counts: &Counts,
    class_weights: &[f64],
    weigh: bool,
    clean_conditionally: bool,
) -> Vec<bool> {
    let Counts {
        chars,
        link,
        commas,
        as_p,
        virtual_p,
    } = *counts;
    let n = tree.len();
    // Bottom-up element counts and text under headings / "textish" tags.
    let mut cnt_p = vec![0usize; n];
    let mut cnt_img = vec![0usize; n];
    let mut cnt_li = vec![0usize; n];
    let mut cnt_input = vec![0usize; n];
    let mut cnt_embed = vec![0usize; n];
    let mut heading = vec![0usize; n];
    let mut textish = vec![0usize; n];
    let mut list_text = vec![0usize; n];
    let mut data_table_below = vec![false; n];
    let mut rows = vec![0usize; n];
    let mut cells_max = vec![0usize; n];
    let mut table_marks = vec![false; n]; // th, caption, thead, tfoot, col(group) below
    let mut nested_table = vec![false; n];
    let mut data_table = vec![false; n];
    for i in (0..n).rev() {
        if removed[i] {
            continue;
        }
        let nd = tree.node(i);
        if nd.is_text() {
            continue;
        }
        let tag = nd.tag.as_str();
        // Direct phrasing text of a div with block children sits in made-up paragraphs.
        if virtual_p[i] > 0 {
            textish[i] += tree.children[i]
                .iter()
                .filter(|&&c| !removed[c] && (tree.node(c).is_text() || !tree.is_block(c)))
                .map(|&c| chars[c])
                .sum::<usize>();
        }
        if tag == "table" {
            data_table[i] = !nested_table[i]
                && (table_marks[i]
                    || rows[i] >= 10
                    || cells_max[i] > 4
                    || rows[i] * cells_max[i] > 10);
            data_table[i] |= table_marks[i];
        }
        if tag == "tr" {
            let cells = tree.children[i]
                .iter()
                .filter(|&&c| matches!(tree.node(c).tag.as_str(), "td" | "th"))
                .count();
            cells_max[i] = cells_max[i].max(cells);
            rows[i] += 1;
        }
        if let Some(p) = tree.parent(i) {
            let is_p = tag == "p" || as_p[i];
            cnt_p[p] += cnt_p[i] + usize::from(is_p) + virtual_p[i];
            cnt_img[p] += cnt_img[i] + usize::from(tag == "img");
            cnt_li[p] += cnt_li[i] + usize::from(tag == "li");
            cnt_input[p] += cnt_input[i] + usize::from(tag == "input");
            cnt_embed[p] +=
                cnt_embed[i] + usize::from(matches!(tag, "object" | "embed" | "iframe"));
            let is_h = matches!(tag, "h1" | "h2" | "h3" | "h4" | "h5" | "h6");
            heading[p] += if is_h { chars[i] } else { heading[i] };
            let is_textish =
                matches!(tag, "span" | "li" | "td") || DIV_TO_P_ELEMS.contains(&tag) || as_p[i];
            textish[p] += if is_textish { chars[i] } else { textish[i] };
            list_text[p] += if matches!(tag, "ul" | "ol") {
                chars[i]
            } else {
                list_text[i]
            };
            data_table_below[p] |= data_table_below[i] || data_table[i];
            if tag != "table" {
                rows[p] += rows[i];
                cells_max[p] = cells_max[p].max(cells_max[i]);
                table_marks[p] |= table_marks[i]
                    || matches!(
                        tag,
                        "th" | "caption" | "thead" | "tfoot" | "colgroup" | "col"
                    );
                nested_table[p] |= nested_table[i];
            } else {
                nested_table[p] = true;
            }
        }
    }
    let mut cleaned = vec![false; n];
    let mut in_data_table = vec![false; n];
    let mut in_figure = vec![false; n];
    let mut in_code = vec![false; n];
    for i in 0..n {
        if let Some(p) = tree.parent(i) {
            in_data_table[i] = in_data_table[p] || data_table[p];
            in_figure[i] = in_figure[p] || tree.node(p).tag == "figure";
            in_code[i] = in_code[p] || tree.node(p).tag == "code";
            if cleaned[p] {
                cleaned[i] = true;
                continue;
            }
        }
        let nd = tree.node(i);
        if !in_article[i] || removed[i] || nd.is_text() {
            continue;
        }
        let tag = nd.tag.as_str();
        let w = if weigh { class_weights[i] } else { 0.0 };
        let class_id = format!(
            "{} {}",
            nd.class.as_deref().unwrap_or(""),
            nd.id.as_deref().unwrap_or("")
        )
        .to_lowercase();
        let drop = match tag {
            "aside" | "footer" | "object" | "embed" | "iframe" | "input" | "textarea"
            | "select" | "button" | "link" => true,
            "h1" | "h2" => w < 0.0,
            _ if class_id.contains("share") && chars[i] < CHAR_THRESHOLD => true,
            "form" | "fieldset" | "table" | "ul" | "ol" | "div"
                if clean_conditionally && !as_p[i] =>
            {
                conditionally(ConditionalInput {
                    tag,
                    chars: chars[i],
                    link: link[i],
                    commas: commas[i],
                    p: cnt_p[i],
                    img: cnt_img[i],
                    li: cnt_li[i],
                    input: cnt_input[i],
                    embed: cnt_embed[i],
                    heading: heading[i],
                    textish: textish[i],
                    list_text: list_text[i],
                    weight: w,
                    data_table: data_table[i] || in_data_table[i] || data_table_below[i],
                    in_figure: in_figure[i],
                    in_code: in_code[i],
                    text: || tree.text(i),
                })
            }
            _ => false,
        };
        cleaned[i] = drop;
    }
    cleaned
}

/// Per-node counts of one attempt over its kept nodes.
#[derive(Clone, Copy)]
struct Counts<'a> {
    chars: &'a [usize],
    link: &'a [usize],
    commas: &'a [usize],
    as_p: &'a [bool],
    virtual_p: &'a [usize],
}

/// The counts `_cleanConditionally` reads for one element.
struct ConditionalInput<'a, F: Fn() -> String> {
    tag: &'a str,
    chars: usize,
    link: usize,
    commas: usize,
    p: usize,
    img: usize,
    li: usize,
    input: usize,
    embed: usize,
    heading: usize,
    textish: usize,
    list_text: usize,
    weight: f64,
    data_table: bool,
    in_figure: bool,
    in_code: bool,
    text: F,
}

/// `_cleanConditionally`'s decision for one element.
fn conditionally<F: Fn() -> String>(c: ConditionalInput<'_, F>) -> bool {
    if c.data_table || c.in_code {
        return false;
    }
    let is_list =
        matches!(c.tag, "ul" | "ol") || (c.chars > 0 && c.list_text as f64 / c.chars as f64 > 0.9);
    if c.weight < 0.0 {
        return true;
    }
    if c.commas >= 10 {
        return false;
    }
    if c.chars < 20 {
        let t = (c.text)().to_lowercase();
        let t = t.trim().trim_end_matches("...").trim_end_matches('…');
        if matches!(
            t,
            "ad" | "advertising"
                | "advertisement"
                | "pub"
                | "publicité"
                | "werb"
                | "werbung"
                | "广告"
                | "реклама"
                | "anuncio"
                | "loading"
                | "正在加载"
                | "загрузка"
                | "chargement"
                | "cargando"
        ) {
            return true;
        }
    }
    let len = c.chars as f64;
    let ld = c.link as f64 / len.max(1.0);
    let heading_density = if c.chars == 0 {
        0.0
    } else {
        c.heading as f64 / len
    };
    let text_density = if c.chars == 0 {
        0.0
    } else {
        c.textish as f64 / len
    };
    let li = c.li as f64 - 100.0;
    let p = c.p as f64;
    let img = c.img as f64;
    let remove = (!c.in_figure && img > 1.0 && p / img < 0.5)
        || (!is_list && li > p)
        || (c.input as f64 > (p / 3.0).floor())
        || (!is_list
            && !c.in_figure
            && heading_density < 0.9
            && c.chars < 25
            && (c.img == 0 || c.img > 2)
            && ld > 0.0)
        || (!is_list && c.weight < 25.0 && ld > 0.2)
        || (c.weight >= 25.0 && ld > 0.5)
        || ((c.embed == 1 && c.chars < 75) || c.embed > 1)
        || (c.img == 0 && text_density == 0.0);
    if is_list && remove && c.img > 0 && c.img == c.li {
        return false;
    }
    remove
}

#[cfg(test)]
mod tests {
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
}
