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

mod attempt;
mod clean;
#[cfg(test)]
mod tests;

use std::collections::HashMap;

use self::attempt::attempt_article;
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

/// Per-node counts of one attempt over its kept nodes.
#[derive(Clone, Copy)]
struct Counts<'a> {
    chars: &'a [usize],
    link: &'a [usize],
    commas: &'a [usize],
    as_p: &'a [bool],
    virtual_p: &'a [usize],
}
