//! The units the `learned` classifier decides on and the features it reads.
//!
//! A **unit** is a maximal run of consecutive text nodes (document order) that share their
//! nearest block ancestor: exactly the pieces the text writer joins into one paragraph, so
//! keeping or dropping a unit keeps or drops whole output lines.
//!
//! Pass-1 features ([`page_features`]) describe one unit from the snapshot alone:
//! - paper scores on the unit's block and its ancestors: TD, CTD, HTD, VI (Song et al.),
//!   DensitySum relative to the page maximum, the §3.5.2 threshold test, the maximum-DensitySum
//!   subtree, and whether HTD, Wang & Liu, VSSE and Crunch keep the unit, VSSE's vvtc;
//! - geometry: box relative to viewport and page, overlap with the main column (the
//!   maximum-DensitySum box), above the fold, fixed or sticky ancestors, visible area, font size
//!   and weight relative to the page's body text;
//! - DOM and text: tag, depth, link density, punctuation, stop-word share, sentence length,
//!   class/id/role token groups (comment, nav, footer, share, related, cookie, ...) on the
//!   block and on any ancestor;
//! - neighbourhood: position in reading order, neighbours' size and link density, the share of
//!   the page's text under the block's parent and grandparent, similarity to the title.
//! - Readability.js's article detection ([`readability`]): inside its top candidate, its
//!   joined article, its output; removed as unlikely or cleaned; the score of the nearest
//!   scored ancestor relative to the top score; class weights along the path;
//! - context ([`context`]): the unit's size, link density, type size, width and left edge
//!   relative to the rest of its page; repeated records (siblings with the same tag and class)
//!   and the share of the page's text in them; price, rating, date, "ago" and forum patterns.
//!
//! Pass-2 features ([`pass2_features`]) add the pass-1 probabilities of the neighbours in
//! reading order and of the units sharing an ancestor (the smoothing pass).

use std::collections::{HashMap, HashSet};

use super::{context, readability};
use crate::extract::text::{is_punct, words};
use crate::extract::{crunch, density, vsse, weight, Algorithm, Params};
use crate::snapshot::{NodeId, Tree};

/// One classified unit: a run of text nodes with the same nearest block ancestor.
#[derive(Debug, Clone)]
pub struct Unit {
    /// The nearest block ancestor (the paragraph the writer puts the text in).
    pub block: NodeId,
    /// The text nodes, in document order.
    pub nodes: Vec<NodeId>,
    /// Their text, concatenated as the text writer joins it.
    pub text: String,
    /// The block's parent, grandparent and great-grandparent (the root repeats at the top).
    pub ancestors: [NodeId; 3],
}

/// Every unit of a page, with its pass-1 feature row (`FEATURES.len()` values each).
#[derive(Debug, Clone)]
pub struct PageFeatures {
    pub units: Vec<Unit>,
    /// Row-major: `rows[u * FEATURES.len() + f]`.
    pub rows: Vec<f64>,
}

impl PageFeatures {
    /// The feature row of unit `u`.
    pub fn row(&self, u: usize) -> &[f64] {
        let n = FEATURES.len();
        &self.rows[u * n..(u + 1) * n]
    }
}

/// Class/id/role token groups: (group name, tokens). A token of 5 or more letters matches
/// inside a longer class word (`commentlist`); shorter ones must equal a whole word.
pub const TOKEN_GROUPS: [(&str, &[&str]); 20] = [
    (
        "comment",
        &[
            "comment",
            "comments",
            "reply",
            "replies",
            "disqus",
            "respond",
            "discussion",
        ],
    ),
    (
        "nav",
        &[
            "nav",
            "navbar",
            "navigation",
            "menu",
            "dropdown",
            "pagination",
            "pager",
            "toc",
            "skip",
            "search",
        ],
    ),
    (
        "footer",
        &["footer", "copyright", "legal", "colophon", "imprint"],
    ),
    (
        "share",
        &[
            "share",
            "sharing",
            "social",
            "facebook",
            "twitter",
            "tweet",
            "whatsapp",
            "linkedin",
            "pinterest",
            "print",
            "email",
        ],
    ),
    (
        "related",
        &[
            "related",
            "recommend",
            "recommended",
            "more",
            "also",
            "popular",
            "trending",
            "teaser",
            "outbrain",
            "taboola",
            "next",
            "prev",
            "previous",
            "latest",
            "most",
        ],
    ),
    (
        "cookie",
        &[
            "cookie", "cookies", "consent", "gdpr", "privacy", "onetrust", "didomi", "cmp",
        ],
    ),
    (
        "newsletter",
        &[
            "newsletter",
            "subscribe",
            "subscription",
            "signup",
            "paywall",
            "register",
            "login",
            "modal",
            "popup",
            "overlay",
            "dialog",
        ],
    ),
    (
        "sidebar",
        &["sidebar", "aside", "widget", "widgets", "rail", "side"],
    ),
    (
        "breadcrumb",
        &["breadcrumb", "breadcrumbs", "crumb", "crumbs"],
    ),
    (
        "byline",
        &[
            "byline",
            "author",
            "authors",
            "writer",
            "contributor",
            "dateline",
            "by",
        ],
    ),
    (
        "meta",
        &[
            "meta",
            "date",
            "time",
            "published",
            "timestamp",
            "updated",
            "info",
            "posted",
        ],
    ),
    (
        "caption",
        &[
            "caption", "credit", "figure", "photo", "image", "img", "media", "gallery",
        ],
    ),
    (
        "tags",
        &[
            "tag",
            "tags",
            "category",
            "categories",
            "topic",
            "topics",
            "keywords",
            "label",
        ],
    ),
    (
        "ad",
        &[
            "ad",
            "ads",
            "advert",
            "advertisement",
            "sponsor",
            "sponsored",
            "promo",
            "dfp",
        ],
    ),
    (
        "content",
        &[
            "article", "content", "post", "entry", "story", "body", "text", "main", "blog",
            "prose", "richtext",
        ],
    ),
    (
        "header",
        &["header", "masthead", "top", "brand", "logo", "banner"],
    ),
    ("title", &["title", "headline", "heading"]),
    (
        "hidden",
        &[
            "hidden",
            "hide",
            "sr",
            "visually",
            "screenreader",
            "offscreen",
            "collapsed",
        ],
    ),
    (
        "list",
        &[
            "list", "item", "items", "card", "cards", "grid", "tile", "feed",
        ],
    ),
    (
        "product",
        &[
            "product",
            "price",
            "review",
            "reviews",
            "rating",
            "spec",
            "specs",
            "description",
        ],
    ),
];

/// Tags of the unit's block with an indicator feature each; other tags set none.
const BLOCK_TAGS: [&str; 16] = [
    "p",
    "div",
    "li",
    "td",
    "th",
    "h1",
    "h2",
    "h3",
    "h4",
    "dd",
    "dt",
    "pre",
    "blockquote",
    "figcaption",
    "span",
    "section",
];

/// Ancestor tags with an "inside" indicator each.
const INSIDE_TAGS: [&str; 18] = [
    "a",
    "nav",
    "header",
    "footer",
    "aside",
    "article",
    "main",
    "form",
    "li",
    "table",
    "h",
    "figure",
    "blockquote",
    "button",
    "label",
    "time",
    "address",
    "select",
];

/// ARIA roles mapped to token groups (role, group name).
const ROLES: [(&str, &str); 9] = [
    ("navigation", "nav"),
    ("menu", "nav"),
    ("search", "nav"),
    ("banner", "header"),
    ("contentinfo", "footer"),
    ("complementary", "sidebar"),
    ("main", "content"),
    ("article", "content"),
    ("dialog", "newsletter"),
];

macro_rules! names {
    ($($n:expr),* $(,)?) => { &[$($n),*] };
}

/// The column of the pass-1 feature `name` in a unit's row ([`PageFeatures::row`]). Panics on a
/// name that is not in [`FEATURES`] (a programming error, not an input one).
pub fn feature_index(name: &str) -> usize {
    FEATURES
        .iter()
        .position(|f| *f == name)
        .unwrap_or_else(|| panic!("{name:?} is not a pass-1 feature"))
}

/// Names of the pass-1 features, in row order (the model file stores them and refuses a
/// mismatch).
pub const FEATURES: &[&str] = names![
    // text
    "ln_chars",
    "ln_words",
    "link_ratio",
    "punct_ratio",
    "sentence_ends",
    "words_per_sentence",
    "stopword_share",
    "ends_with_stop",
    "digit_ratio",
    "upper_ratio",
    "starts_upper",
    "mean_word_len",
    "separator_ratio",
    "copyright",
    "ln_text_nodes",
    "title_overlap",
    // DOM
    "depth",
    "depth_rel",
    "tag_p",
    "tag_div",
    "tag_li",
    "tag_td",
    "tag_th",
    "tag_h1",
    "tag_h2",
    "tag_h3",
    "tag_h4",
    "tag_dd",
    "tag_dt",
    "tag_pre",
    "tag_blockquote",
    "tag_figcaption",
    "tag_span",
    "tag_section",
    "tag_h5_h6",
    "in_a",
    "in_nav",
    "in_header",
    "in_footer",
    "in_aside",
    "in_article",
    "in_main",
    "in_form",
    "in_li",
    "in_table",
    "in_h",
    "in_figure",
    "in_blockquote",
    "in_button",
    "in_label",
    "in_time",
    "in_address",
    "in_select",
    "own_comment",
    "own_nav",
    "own_footer",
    "own_share",
    "own_related",
    "own_cookie",
    "own_newsletter",
    "own_sidebar",
    "own_breadcrumb",
    "own_byline",
    "own_meta",
    "own_caption",
    "own_tags",
    "own_ad",
    "own_content",
    "own_header",
    "own_title",
    "own_hidden",
    "own_list",
    "own_product",
    "anc_comment",
    "anc_nav",
    "anc_footer",
    "anc_share",
    "anc_related",
    "anc_cookie",
    "anc_newsletter",
    "anc_sidebar",
    "anc_breadcrumb",
    "anc_byline",
    "anc_meta",
    "anc_caption",
    "anc_tags",
    "anc_ad",
    "anc_content",
    "anc_header",
    "anc_title",
    "anc_hidden",
    "anc_list",
    "anc_product",
    "same_tag_siblings",
    "ln_siblings",
    // geometry
    "x_rel",
    "right_rel",
    "w_rel",
    "y_fold",
    "y_page",
    "h_rel",
    "center_offset",
    "above_fold",
    "area_rel",
    "zero_area",
    "rendered",
    "fixed",
    "sticky",
    "absolute",
    "transparent",
    "font_rel",
    "bold",
    "main_overlap",
    "in_main_node",
    "main_vertical",
    // paper scores
    "ln_td",
    "ln_ctd",
    "htd",
    "vi",
    "ln_td_parent",
    "ln_ctd_parent",
    "htd_parent",
    "ln_ctd_grand",
    "htd_grand",
    "density_sum_rel",
    "density_sum_rel_parent",
    "above_threshold",
    "above_threshold_parent",
    "htd_kept",
    "wang_kept",
    "vsse_kept",
    "crunch_kept",
    "ln_vvtc",
    "ln_vvtc_parent",
    // neighbourhood
    "position",
    "chars_before",
    "ln_chars_prev",
    "ln_chars_next",
    "link_ratio_prev",
    "link_ratio_next",
    "ln_chars_prev2",
    "ln_chars_next2",
    "parent_share",
    "grand_share",
    "parent_link_ratio",
    "grand_link_ratio",
    "ln_parent_units",
    "after_h1",
    "units_from_h1",
    "page_ln_units",
    "page_link_ratio",
    // Readability.js's article detection (readability.rs)
    "rd_in_top",
    "rd_in_article",
    "rd_output",
    "rd_removed",
    "rd_cleaned",
    "rd_nearest_rel",
    "rd_parent_rel",
    "rd_class_weight_path",
    "rd_top_share",
    "rd_article_share",
    "rd_attempt",
    // page-relative, repetition and patterns (context.rs, CONTEXT_FEATURES in order)
    "chars_rank",
    "chars_share",
    "chars_z",
    "link_ratio_z",
    "font_rank",
    "width_rel_widest",
    "x_rel_text",
    "rep_ln_same",
    "rep_level",
    "in_record",
    "record_share",
    "rep_ln_same_parent_path",
    "page_record_share",
    "has_price",
    "has_rating",
    "has_date",
    "has_time_ago",
    "forum_words",
    "short_label",
];

/// Names of the pass-2 (smoothing) features: the pass-1 probabilities around the unit, then
/// a few pass-1 features.
pub const PASS2_FEATURES: &[&str] = names![
    "p1",
    "p1_prev1",
    "p1_next1",
    "p1_prev2",
    "p1_next2",
    "p1_prev3",
    "p1_next3",
    "p1_window5",
    "p1_window15",
    "p1_parent",
    "p1_grand",
    "p1_great",
    "p1_page_max",
    "p1_page_kept_share",
    "p1_rank",
    "p1_before_max",
    "p1_after_max",
    "ln_chars",
    "link_ratio",
    "tag_h1",
    "tag_h2",
    "in_h",
    "fixed",
    "sticky",
    "own_cookie",
    "anc_cookie",
    "anc_newsletter",
    "anc_comment",
    "title_overlap",
    "position",
    "rd_output",
    "rd_nearest_rel",
    "in_record",
];

/// Split a class or id attribute into lower-case words (on non-alphanumerics and camelCase).
fn class_words(s: &str, out: &mut Vec<String>) {
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in s.chars() {
        if c.is_alphanumeric() {
            if c.is_uppercase() && prev_lower && !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            prev_lower = c.is_lowercase();
            cur.extend(c.to_lowercase());
        } else {
            prev_lower = false;
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
}

/// The token-group bit mask of one class/id word.
fn word_mask(w: &str) -> u32 {
    let mut mask = 0u32;
    for (g, (_, toks)) in TOKEN_GROUPS.iter().enumerate() {
        let hit = toks
            .iter()
            .any(|t| w == *t || (t.len() >= 5 && w.len() > t.len() && w.contains(t)));
        if hit {
            mask |= 1 << g;
        }
    }
    mask
}

/// The token-group bit mask of one element's class, id and role.
pub fn group_mask(class: Option<&str>, id: Option<&str>, role: Option<&str>) -> u32 {
    group_mask_cached(class, id, role, &mut HashMap::new())
}

/// [`group_mask`] remembering each word's mask in `words` (pages repeat their class words).
fn group_mask_cached(
    class: Option<&str>,
    id: Option<&str>,
    role: Option<&str>,
    words: &mut HashMap<String, u32>,
) -> u32 {
    let mut ws = Vec::new();
    for s in [class, id].into_iter().flatten() {
        class_words(s, &mut ws);
    }
    let mut mask = 0u32;
    for w in ws {
        mask |= match words.get(&w) {
            Some(&m) => m,
            None => {
                let m = word_mask(&w);
                words.insert(w, m);
                m
            }
        };
    }
    if let Some(r) = role {
        for (name, group) in ROLES {
            if r.split_whitespace().any(|x| x.eq_ignore_ascii_case(name)) {
                if let Some(g) = TOKEN_GROUPS.iter().position(|(n, _)| *n == group) {
                    mask |= 1 << g;
                }
            }
        }
    }
    mask
}

fn inside_bit(tag: &str) -> Option<usize> {
    let t = if matches!(tag, "h1" | "h2" | "h3" | "h4" | "h5" | "h6") {
        "h"
    } else {
        tag
    };
    INSIDE_TAGS.iter().position(|x| *x == t)
}

/// The units of a page, in document order.
pub fn units(tree: &Tree) -> Vec<Unit> {
    let n = tree.len();
    let mut nearest = vec![0usize; n];
    for i in 0..n {
        nearest[i] = if tree.is_block(i) {
            i
        } else {
            tree.parent(i).map_or(0, |p| nearest[p])
        };
    }
    let mut out: Vec<Unit> = Vec::new();
    let mut last_text: Option<NodeId> = None;
    for i in 0..n {
        let nd = tree.node(i);
        if !nd.is_text() {
            // A block element between two text nodes separates them.
            if tree.is_block(i) {
                last_text = None;
            }
            continue;
        }
        if tree.own_chars[i] == 0 {
            continue;
        }
        let b = tree.parent(i).map_or(0, |p| nearest[p]);
        let t = nd.text.as_deref().unwrap_or("");
        match out.last_mut() {
            Some(u) if u.block == b && last_text.is_some() => {
                u.nodes.push(i);
                u.text.push_str(t);
            }
            _ => {
                let a1 = tree.parent(b).unwrap_or(b);
                let a2 = tree.parent(a1).unwrap_or(a1);
                let a3 = tree.parent(a2).unwrap_or(a2);
                out.push(Unit {
                    block: b,
                    nodes: vec![i],
                    text: t.to_string(),
                    ancestors: [a1, a2, a3],
                })
            }
        }
        last_text = Some(i);
    }
    out
}

/// Signed log: sign(x)·ln(1 + |x|).
fn slog(x: f64) -> f64 {
    if x.is_finite() {
        x.signum() * x.abs().ln_1p()
    } else {
        0.0
    }
}

fn b(x: bool) -> f64 {
    if x {
        1.0
    } else {
        0.0
    }
}

/// Text statistics of one unit.
struct TextStats {
    chars: usize,
    link_chars: usize,
    words: usize,
    punct: usize,
    sentence_ends: usize,
    stop: usize,
    digits: usize,
    upper: usize,
    letters: usize,
    word_len: usize,
    separators: usize,
    ends_with_stop: bool,
    starts_upper: bool,
    copyright: bool,
}

/// The statistics of one unit and, when `keep_words`, its lower-cased words that are not
/// stop words (for the title overlap).
fn text_stats(
    tree: &Tree,
    u: &Unit,
    stop: &HashSet<&str>,
    keep_words: bool,
) -> (TextStats, HashSet<String>) {
    let mut s = TextStats {
        chars: 0,
        link_chars: 0,
        words: 0,
        punct: 0,
        sentence_ends: 0,
        stop: 0,
        digits: 0,
        upper: 0,
        letters: 0,
        word_len: 0,
        separators: 0,
        ends_with_stop: false,
        starts_upper: false,
        copyright: false,
    };
    for &i in &u.nodes {
        s.chars += tree.own_chars[i];
        if tree.node(i).link {
            s.link_chars += tree.own_chars[i];
        }
    }
    let text = u.text.trim();
    for c in text.chars() {
        if is_punct(c) {
            s.punct += 1;
            if matches!(c, '.' | '!' | '?' | '。' | '！' | '？') {
                s.sentence_ends += 1;
            }
        }
        if c.is_numeric() {
            s.digits += 1;
        }
        if c.is_alphabetic() {
            s.letters += 1;
            if c.is_uppercase() {
                s.upper += 1;
            }
        }
        if matches!(c, '|' | '·' | '»' | '•' | '›' | '/' | '>') {
            s.separators += 1;
        }
        if c == '©' {
            s.copyright = true;
        }
    }
    s.ends_with_stop = text
        .chars()
        .last()
        .is_some_and(|c| matches!(c, '.' | '!' | '?' | '。' | '！' | '？' | '"' | '”' | ':'));
    s.starts_upper = text.chars().next().is_some_and(|c| c.is_uppercase());
    let mut kept = HashSet::new();
    for w in words(text) {
        s.words += 1;
        s.word_len += w.chars().count();
        let lower = w.to_lowercase();
        if stop.contains(lower.as_str()) {
            s.stop += 1;
        } else if keep_words {
            kept.insert(lower);
        }
    }
    (s, kept)
}

/// Compute the units and pass-1 feature rows of one page. Runs the paper algorithms it reads
/// (HTD with its scores, Wang & Liu, VSSE, Crunch) with `params`.
pub fn page_features(tree: &Tree, params: &Params) -> PageFeatures {
    let n = tree.len();
    let snap = tree.snap;
    let units = units(tree);
    let nf = FEATURES.len();
    let mut rows = Vec::with_capacity(units.len() * nf);
    if units.is_empty() {
        return PageFeatures { units, rows };
    }

    // Paper algorithms.
    let htd = density::extract(tree, Algorithm::Htd, &params.density);
    let scores = htd.scores.clone().unwrap_or_default();
    let threshold = htd.threshold.unwrap_or(0.0);
    let wang = weight::kept(tree, &params.wang);
    let vsse = vsse::kept(tree, &params.vsse);
    let crunch = crunch::extract(tree, &params.crunch).kept;
    let max_node = (0..n)
        .filter(|&i| tree.node(i).is_element())
        .fold(0, |best, i| {
            if scores.density_sum.get(i) > scores.density_sum.get(best) {
                i
            } else {
                best
            }
        });
    let ds_max = scores
        .density_sum
        .get(max_node)
        .copied()
        .unwrap_or(0.0)
        .max(1e-9);
    let main_box = tree.node(max_node).rect;
    let main_end = tree.subtree_end(max_node);

    // Top-down inherited flags: token groups, inside tags, fixed/sticky/absolute, opacity.
    let mut own_mask = vec![0u32; n];
    let mut anc_mask = vec![0u32; n];
    let mut inside = vec![0u32; n];
    let mut pos_flags = vec![0u8; n]; // 1 fixed, 2 sticky, 4 absolute, 8 transparent
    let mut depth = vec![0usize; n];
    // Keyed by (class, id, role).
    let mut mask_cache: HashMap<[Option<&str>; 3], u32> = HashMap::new();
    let mut word_cache: HashMap<String, u32> = HashMap::new();
    for i in 0..n {
        let nd = tree.node(i);
        let parent = tree.parent(i);
        let (pm, pi, pf, pd) = parent.map_or((0, 0, 0, 0), |p| {
            (anc_mask[p], inside[p], pos_flags[p], depth[p] + 1)
        });
        depth[i] = pd;
        if nd.is_text() {
            anc_mask[i] = pm;
            inside[i] = pi;
            pos_flags[i] = pf;
            continue;
        }
        // Pages repeat the same class/id/role strings: match each distinct triple once.
        let key = [nd.class.as_deref(), nd.id.as_deref(), nd.role.as_deref()];
        own_mask[i] = if key == [None, None, None] {
            0
        } else {
            *mask_cache
                .entry(key)
                .or_insert_with(|| group_mask_cached(key[0], key[1], key[2], &mut word_cache))
        };
        anc_mask[i] = pm | own_mask[i];
        inside[i] = pi | inside_bit(&nd.tag).map_or(0, |k| 1 << k);
        let mut f = pf;
        match nd.position.as_str() {
            "fixed" => f |= 1,
            "sticky" => f |= 2,
            "absolute" => f |= 4,
            _ => {}
        }
        if nd.opacity < 0.1 {
            f |= 8;
        }
        pos_flags[i] = f;
    }
    let max_depth = depth.iter().copied().max().unwrap_or(1).max(1) as f64;

    // Punctuation per subtree (for vvtc).
    let mut punct = vec![0usize; n];
    for i in (0..n).rev() {
        if let Some(t) = &tree.node(i).text {
            punct[i] += t.chars().filter(|&c| is_punct(c)).count();
        }
        if let Some(p) = tree.parent(i) {
            punct[p] += punct[i];
        }
    }

    // Body font size: the character-weighted median of the text's font sizes.
    let mut sizes: Vec<(f64, usize)> = units
        .iter()
        .flat_map(|u| u.nodes.iter())
        .map(|&i| {
            let p = tree.parent(i).unwrap_or(0);
            (tree.node(p).font_size, tree.own_chars[i])
        })
        .collect();
    sizes.sort_by(|a, b| a.0.total_cmp(&b.0));
    let total_chars: usize = sizes.iter().map(|s| s.1).sum();
    let mut acc = 0;
    let mut body_fs = 16.0;
    for (fs, c) in &sizes {
        acc += c;
        if acc * 2 >= total_chars {
            body_fs = if *fs > 0.0 { *fs } else { 16.0 };
            break;
        }
    }

    let stop: HashSet<&str> = params.vsse.stop_words.iter().map(String::as_str).collect();
    let title_words: HashSet<String> = words(&snap.title)
        .into_iter()
        .map(|w| w.to_lowercase())
        .filter(|w| !stop.contains(w.as_str()))
        .collect();
    let (stats, unit_words): (Vec<TextStats>, Vec<HashSet<String>>) = units
        .iter()
        .map(|u| text_stats(tree, u, &stop, !title_words.is_empty()))
        .unzip();
    let page_chars: usize = stats.iter().map(|s| s.chars).sum::<usize>().max(1);
    let page_link: usize = stats.iter().map(|s| s.link_chars).sum();
    // Units per parent of block.
    let mut parent_units: std::collections::HashMap<NodeId, usize> = Default::default();
    for u in &units {
        *parent_units
            .entry(tree.parent(u.block).unwrap_or(0))
            .or_default() += 1;
    }
    let first_h1 = units.iter().position(|u| tree.node(u.block).tag == "h1");

    // Readability.js's article detection and the context features.
    let rd = readability::grab_article(tree);
    let mut cw_path = vec![0.0f64; n];
    for i in 0..n {
        cw_path[i] = tree.parent(i).map_or(0.0, |p| cw_path[p]) + rd.class_weight[i];
    }
    let rd_top_share = tree.chars[rd.top] as f64 / tree.chars[0].max(1) as f64;
    let rd_article_share = rd.article_chars as f64 / tree.chars[0].max(1) as f64;
    let unit_fs: Vec<f64> = units
        .iter()
        .map(|u| {
            let tp = tree.node(tree.parent(u.nodes[0]).unwrap_or(u.block));
            if tp.font_size > 0.0 {
                tp.font_size
            } else {
                tree.node(u.block).font_size
            }
        })
        .collect();
    let unit_chars: Vec<usize> = stats.iter().map(|s| s.chars).collect();
    let unit_lr: Vec<f64> = stats
        .iter()
        .map(|s| s.link_chars as f64 / s.chars.max(1) as f64)
        .collect();
    let ctx = context::context_features(tree, &units, &unit_chars, &unit_lr, &unit_fs);
    let nctx = context::CONTEXT_FEATURES.len();

    let vw = snap.viewport.width.max(1.0);
    let vh = snap.viewport.height.max(1.0);
    let dh = snap.document.height.max(vh);
    let nu = units.len();
    let mut before = 0usize;
    let lnc = |k: usize| (stats[k].chars as f64).ln_1p();
    let lr = |k: usize| stats[k].link_chars as f64 / stats[k].chars.max(1) as f64;
    for (k, u) in units.iter().enumerate() {
        let s = &stats[k];
        let bl = u.block;
        let bn = tree.node(bl);
        let par = tree.parent(bl).unwrap_or(bl);
        let grand = tree.parent(par).unwrap_or(par);
        let text_parent = tree.parent(u.nodes[0]).unwrap_or(bl);
        let tp = tree.node(text_parent);
        let first = u.nodes[0];
        let r = bn.rect;
        let row_start = rows.len();
        // text
        rows.push(lnc(k));
        rows.push((s.words as f64).ln_1p());
        rows.push(lr(k));
        rows.push(s.punct as f64 / s.chars.max(1) as f64);
        rows.push(s.sentence_ends as f64);
        rows.push(s.words as f64 / s.sentence_ends.max(1) as f64);
        rows.push(s.stop as f64 / s.words.max(1) as f64);
        rows.push(b(s.ends_with_stop));
        rows.push(s.digits as f64 / s.chars.max(1) as f64);
        rows.push(s.upper as f64 / s.letters.max(1) as f64);
        rows.push(b(s.starts_upper));
        rows.push(s.word_len as f64 / s.words.max(1) as f64);
        rows.push(s.separators as f64 / s.chars.max(1) as f64);
        rows.push(b(s.copyright));
        rows.push((u.nodes.len() as f64).ln_1p());
        let overlap = if title_words.is_empty() {
            0.0
        } else {
            let ws = &unit_words[k];
            let inter = ws.intersection(&title_words).count();
            inter as f64 / (ws.len().max(title_words.len())).max(1) as f64
        };
        rows.push(overlap);
        // DOM
        rows.push(depth[bl] as f64);
        rows.push(depth[bl] as f64 / max_depth);
        for t in BLOCK_TAGS {
            rows.push(b(bn.tag == t));
        }
        rows.push(b(bn.tag == "h5" || bn.tag == "h6"));
        let ins = inside[first];
        for k2 in 0..INSIDE_TAGS.len() {
            rows.push(b(ins & (1 << k2) != 0));
        }
        let own = own_mask[bl] | own_mask[text_parent];
        for g in 0..TOKEN_GROUPS.len() {
            rows.push(b(own & (1 << g) != 0));
        }
        let anc = anc_mask[first];
        for g in 0..TOKEN_GROUPS.len() {
            rows.push(b(anc & (1 << g) != 0));
        }
        let sibs = &tree.children[par];
        let same = sibs.iter().filter(|&&c| tree.node(c).tag == bn.tag).count();
        rows.push(same as f64 / sibs.len().max(1) as f64);
        rows.push((sibs.len() as f64).ln_1p());
        // geometry
        rows.push(r.x / vw);
        rows.push(r.right() / vw);
        rows.push(r.w / vw);
        rows.push((r.y / vh).min(50.0));
        rows.push(r.y / dh);
        rows.push((r.h / vh).min(50.0));
        rows.push(((r.x + r.w / 2.0) - vw / 2.0).abs() / vw);
        rows.push(b(r.y < vh));
        rows.push((r.w * r.h / (vw * vh)).min(50.0));
        rows.push(b(r.w <= 0.0 || r.h <= 0.0));
        rows.push(b(tree.node(first).rendered && bn.visibility == "visible"));
        let pf = pos_flags[first];
        rows.push(b(pf & 1 != 0));
        rows.push(b(pf & 2 != 0));
        rows.push(b(pf & 4 != 0));
        rows.push(b(pf & 8 != 0));
        let fs = if tp.font_size > 0.0 {
            tp.font_size
        } else {
            bn.font_size
        };
        rows.push(fs / body_fs);
        rows.push(b(tp.font_weight >= 600 || bn.font_weight >= 600));
        let ov = (r.right().min(main_box.right()) - r.x.max(main_box.x)).max(0.0);
        rows.push(if r.w > 0.0 { ov / r.w } else { 0.0 });
        rows.push(b(bl >= max_node && bl < main_end));
        rows.push(b(
            r.y >= main_box.y - 1.0 && r.bottom() <= main_box.bottom() + 1.0
        ));
        // paper scores
        let g = |v: &Vec<f64>, i: usize| v.get(i).copied().unwrap_or(0.0);
        rows.push(slog(g(&scores.td, bl)));
        rows.push(slog(g(&scores.ctd, bl)));
        rows.push(slog(g(&scores.htd, bl)));
        rows.push(g(&scores.vi, bl));
        rows.push(slog(g(&scores.td, par)));
        rows.push(slog(g(&scores.ctd, par)));
        rows.push(slog(g(&scores.htd, par)));
        rows.push(slog(g(&scores.ctd, grand)));
        rows.push(slog(g(&scores.htd, grand)));
        rows.push(g(&scores.density_sum, bl) / ds_max);
        rows.push(g(&scores.density_sum, par) / ds_max);
        rows.push(b(g(&scores.htd, bl) >= threshold));
        rows.push(b(g(&scores.htd, par) >= threshold));
        let frac = |kept: &Vec<bool>| {
            u.nodes.iter().filter(|&&i| kept[i]).count() as f64 / u.nodes.len() as f64
        };
        rows.push(frac(&htd.kept));
        rows.push(frac(&wang));
        rows.push(frac(&vsse));
        rows.push(frac(&crunch));
        let vv = |i: usize| vsse::vvtc(tree.chars[i], punct[i], tree.tags[i] + 1).ln_1p();
        rows.push(vv(bl));
        rows.push(vv(par));
        // neighbourhood
        rows.push(k as f64 / nu as f64);
        rows.push(before as f64 / page_chars as f64);
        rows.push(if k > 0 { lnc(k - 1) } else { -1.0 });
        rows.push(if k + 1 < nu { lnc(k + 1) } else { -1.0 });
        rows.push(if k > 0 { lr(k - 1) } else { -1.0 });
        rows.push(if k + 1 < nu { lr(k + 1) } else { -1.0 });
        rows.push(if k > 1 { lnc(k - 2) } else { -1.0 });
        rows.push(if k + 2 < nu { lnc(k + 2) } else { -1.0 });
        rows.push(tree.chars[par] as f64 / page_chars as f64);
        rows.push(tree.chars[grand] as f64 / page_chars as f64);
        rows.push(tree.link_chars[par] as f64 / tree.chars[par].max(1) as f64);
        rows.push(tree.link_chars[grand] as f64 / tree.chars[grand].max(1) as f64);
        rows.push((parent_units.get(&par).copied().unwrap_or(1) as f64).ln_1p());
        rows.push(b(first_h1.is_some_and(|h| k >= h)));
        rows.push(first_h1.map_or(0.0, |h| (k as f64 - h as f64) / nu as f64));
        rows.push((nu as f64).ln_1p());
        rows.push(page_link as f64 / page_chars as f64);
        // Readability.js
        rows.push(b(rd.in_top[first]));
        rows.push(b(rd.in_article[first]));
        rows.push(b(rd.output(first)));
        rows.push(b(rd.removed[first]));
        rows.push(b(rd.cleaned[first]));
        rows.push(rd.nearest_rel(tree, bl).clamp(-3.0, 3.0));
        rows.push(if rd.score[par].is_nan() {
            0.0
        } else {
            (rd.score[par] / rd.top_score).clamp(-3.0, 3.0)
        });
        rows.push((cw_path[text_parent] / 25.0).clamp(-6.0, 6.0));
        rows.push(rd_top_share);
        rows.push(rd_article_share);
        rows.push(rd.attempt as f64);
        // context
        rows.extend_from_slice(&ctx[k * nctx..(k + 1) * nctx]);
        debug_assert_eq!(rows.len() - row_start, nf, "feature row length");
        before += s.chars;
    }
    PageFeatures { units, rows }
}

/// Pass-2 feature rows (row-major, `PASS2_FEATURES.len()` each) from the pass-1
/// probabilities `p1` of the page's units.
pub fn pass2_features(pf: &PageFeatures, p1: &[f64]) -> Vec<f64> {
    let nu = pf.units.len();
    let m = PASS2_FEATURES.len();
    let mut out = Vec::with_capacity(nu * m);
    if nu == 0 {
        return out;
    }
    let copied: Vec<usize> = PASS2_FEATURES[17..]
        .iter()
        .map(|n| feature_index(n))
        .collect();
    let chars: Vec<f64> = (0..nu).map(|k| pf.row(k)[0].exp_m1().max(1.0)).collect();
    // Character-weighted mean of p1 over a window.
    let mut cum_w = vec![0.0; nu + 1];
    let mut cum_wp = vec![0.0; nu + 1];
    for k in 0..nu {
        cum_w[k + 1] = cum_w[k] + chars[k];
        cum_wp[k + 1] = cum_wp[k] + chars[k] * p1[k];
    }
    let window = |k: usize, r: usize| {
        let (a, z) = (k.saturating_sub(r), (k + r + 1).min(nu));
        (cum_wp[z] - cum_wp[a]) / (cum_w[z] - cum_w[a]).max(1e-9)
    };
    // Character-weighted mean p1 of the units under each ancestor level of the block.
    let group = |level: usize| -> Vec<f64> {
        let key: Vec<NodeId> = pf.units.iter().map(|u| u.ancestors[level - 1]).collect();
        let mut sums: std::collections::HashMap<NodeId, (f64, f64)> = Default::default();
        for k in 0..nu {
            let e = sums.entry(key[k]).or_default();
            e.0 += chars[k];
            e.1 += chars[k] * p1[k];
        }
        (0..nu)
            .map(|k| {
                let (w, wp) = sums[&key[k]];
                wp / w.max(1e-9)
            })
            .collect()
    };
    let g1 = group(1);
    let g2 = group(2);
    let g3 = group(3);
    let max = p1.iter().copied().fold(0.0, f64::max);
    let kept_share = (0..nu)
        .filter(|&k| p1[k] >= 0.5)
        .map(|k| chars[k])
        .sum::<f64>()
        / cum_w[nu].max(1e-9);
    let mut order: Vec<usize> = (0..nu).collect();
    order.sort_by(|&a, &b| p1[b].total_cmp(&p1[a]).then(a.cmp(&b)));
    let mut rank = vec![0.0; nu];
    for (r, &k) in order.iter().enumerate() {
        rank[k] = r as f64 / nu as f64;
    }
    // Running maxima before and after each unit.
    let mut before_max = vec![0.0; nu];
    let mut after_max = vec![0.0; nu];
    let mut m_ = 0.0f64;
    for k in 0..nu {
        before_max[k] = m_;
        m_ = m_.max(p1[k]);
    }
    m_ = 0.0;
    for k in (0..nu).rev() {
        after_max[k] = m_;
        m_ = m_.max(p1[k]);
    }
    let at = |k: isize| {
        if k >= 0 && (k as usize) < nu {
            p1[k as usize]
        } else {
            -1.0
        }
    };
    for k in 0..nu {
        let ki = k as isize;
        out.push(p1[k]);
        out.push(at(ki - 1));
        out.push(at(ki + 1));
        out.push(at(ki - 2));
        out.push(at(ki + 2));
        out.push(at(ki - 3));
        out.push(at(ki + 3));
        out.push(window(k, 5));
        out.push(window(k, 15));
        out.push(g1[k]);
        out.push(g2[k]);
        out.push(g3[k]);
        out.push(max);
        out.push(kept_share);
        out.push(rank[k]);
        out.push(before_max[k]);
        out.push(after_max[k]);
        let row = pf.row(k);
        for &c in &copied {
            out.push(row[c]);
        }
    }
    debug_assert_eq!(out.len(), nu * m);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::{rect, SnapshotBuilder};

    #[test]
    fn context_names_close_the_feature_list() {
        let (n, m) = (FEATURES.len(), context::CONTEXT_FEATURES.len());
        assert_eq!(&FEATURES[n - m..], &context::CONTEXT_FEATURES[..]);
        let mut seen = HashSet::new();
        assert!(
            FEATURES.iter().all(|f| seen.insert(*f)),
            "feature names are unique"
        );
    }

    #[test]
    fn class_words_split_on_case_and_punctuation() {
        let mut w = Vec::new();
        class_words("commentList site-footer__inner", &mut w);
        assert_eq!(w, vec!["comment", "list", "site", "footer", "inner"]);
    }

    #[test]
    fn group_masks_match_words_and_long_substrings() {
        let bit = |name: &str| 1u32 << TOKEN_GROUPS.iter().position(|g| g.0 == name).unwrap();
        assert_eq!(
            group_mask(Some("cookie-banner"), None, None) & bit("cookie"),
            bit("cookie")
        );
        assert_ne!(
            group_mask(Some("commentlist"), None, None) & bit("comment"),
            0
        );
        // Short tokens must be whole words: "ad" is not in "header" or "shadow".
        assert_eq!(group_mask(Some("shadow"), None, None) & bit("ad"), 0);
        assert_ne!(group_mask(Some("ad-slot"), None, None) & bit("ad"), 0);
        assert_ne!(group_mask(None, None, Some("navigation")) & bit("nav"), 0);
        assert_eq!(group_mask(None, None, None), 0);
    }

    #[test]
    fn units_follow_blocks_and_feature_rows_are_complete() {
        let mut bld = SnapshotBuilder::new(1000.0);
        bld.title("Storm hits the coast");
        let art = bld.el(0, "article", rect(100.0, 0.0, 700.0, 800.0));
        let h = bld.el(art, "h1", rect(100.0, 0.0, 700.0, 40.0));
        bld.text(h, "Storm hits the coast");
        let p = bld.el(art, "p", rect(100.0, 50.0, 700.0, 100.0));
        bld.text(p, "The storm came in at night, ");
        let a = bld.el(p, "a", rect(100.0, 50.0, 100.0, 20.0));
        bld.node_mut(a).display = "inline".into();
        bld.text(a, "officials said");
        bld.text(p, ". More later.");
        let foot = bld.el(0, "footer", rect(0.0, 900.0, 1000.0, 50.0));
        bld.node_mut(foot).position = "fixed".into();
        bld.text(foot, "© 2024 Example");
        let snap = bld.build();
        let tree = Tree::new(&snap);
        let params = Params::default();
        let pf = page_features(&tree, &params);
        assert_eq!(pf.units.len(), 3);
        // The shared "kept only" paths give the paper algorithms' own decisions.
        assert_eq!(
            vsse::kept(&tree, &params.vsse),
            vsse::extract(&tree, &params.vsse).kept
        );
        assert_eq!(
            weight::kept(&tree, &params.wang),
            weight::extract(&tree, &params.wang).kept
        );
        assert_eq!(
            pf.units[1].nodes.len(),
            3,
            "inline link joins its paragraph"
        );
        assert_eq!(
            pf.units[1].text,
            "The storm came in at night, officials said. More later."
        );
        assert_eq!(pf.rows.len(), 3 * FEATURES.len());
        let f = |u: usize, name: &str| pf.row(u)[FEATURES.iter().position(|x| *x == name).unwrap()];
        assert_eq!(f(0, "tag_h1"), 1.0);
        assert!(f(0, "title_overlap") > 0.9);
        assert!((f(1, "link_ratio") - 14.0 / 54.0).abs() < 1e-9);
        assert_eq!(f(2, "fixed"), 1.0);
        assert_eq!(f(2, "in_footer"), 1.0);
        assert_eq!(f(2, "copyright"), 1.0);
        assert_eq!(f(1, "fixed"), 0.0);
        assert!(f(1, "position") > f(0, "position"));
        let p2 = pass2_features(&pf, &[0.9, 0.8, 0.1]);
        assert_eq!(p2.len(), 3 * PASS2_FEATURES.len());
        // p1_prev1 of unit 1 is unit 0's probability; unit 0 has none before it.
        assert_eq!(p2[PASS2_FEATURES.len() + 1], 0.9);
        assert_eq!(p2[1], -1.0);
    }
}
