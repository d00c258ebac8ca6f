//! The rest of the article the extraction chose: blocks of that article it left out after its
//! first kept text (a task list after a table, a note, a "See also" list of links, the last
//! paragraph under a kept heading, a README's badge row). Extractors score blocks by their
//! text; a short list, a link list or a row of badges scores low though the page shows it as
//! part of the article, and a reader of the markdown expects it there.
//!
//! The rules, for the markdown writer only (the text and `html` outputs keep the extraction's
//! choice):
//! - the *article* is an element marked as one: an `<article>` holding no other `<article>`
//!   (a feed of posts is not one article), an `itemprop="articleBody"`, or a class an article
//!   body carries ([`ARTICLE_CLASSES`]: GitHub's `markdown-body`, WordPress's `entry-content`,
//!   MDN's `main-page-content`, ...);
//! - the extraction chose it: at least [`MIN_KEPT_SHARE`] of its text is kept, and that is at
//!   least [`MIN_CONTENT_SHARE`] of all the kept text;
//! - a block of it (a child, or a child of a partly kept `section` in it) with nothing
//!   kept joins when it comes after the article's first kept text, is shown, is not page
//!   furniture (`aside`, `nav`, `header`, `footer`, `form`, a landmark role, a class or id that
//!   names sharing, comments, related posts, tags, bylines and the like, [`FURNITURE`], or a
//!   heading that does), holds no form, navigation or code (the code writer places code,
//!   [`super::gaps`]), and holds words or a badge image; a
//!   figure's caption without a content image (a video player's) stays out; a
//!   block that is mostly links joins only as a section led by its own heading, or right
//!   under a heading ("See also"),
//!   and headings alone after the last kept text (a form's call to action) stay out;
//! - at most [`MAX_ADDED_SHARE`] of the article's kept text is added, in page order: a block
//!   past that bound and every block after it stay out.

use std::borrow::Cow;

use crate::snapshot::{Node, NodeId, Tree};

/// Class tokens of an article's body.
const ARTICLE_CLASSES: [&str; 9] = [
    "markdown-body",
    "entry-content",
    "post-content",
    "article-body",
    "article-content",
    "post-body",
    "main-page-content",
    "article__body",
    "story-body",
];

/// The share of the article's text the extraction must have kept.
const MIN_KEPT_SHARE: f64 = 0.5;
/// The share of all kept text the article must hold.
const MIN_CONTENT_SHARE: f64 = 0.8;
/// The most text added, as a share of the article's kept text.
const MAX_ADDED_SHARE: f64 = 0.5;

/// Parts of class names and ids (lower-case) of page furniture inside an article.
const FURNITURE: [&str; 30] = [
    "share",
    "social",
    "comment",
    "related",
    "recommend",
    "newsletter",
    "subscribe",
    "signup",
    "promo",
    "sponsor",
    "advert",
    "-ad-",
    "banner",
    "author",
    "byline",
    "meta",
    "tags",
    "breadcrumb",
    "pagination",
    "pager",
    "toc",
    "sidebar",
    "footer",
    "nav",
    "rating",
    "vote",
    "cookie",
    "popup",
    "hidden",
    "widget",
];

/// Headings (lower-case, a prefix) of furniture sections.
const FURNITURE_HEADINGS: [&str; 14] = [
    "related",
    "recommended",
    "more from",
    "more stories",
    "read more",
    "read next",
    "popular",
    "trending",
    "you may also like",
    "share",
    "comments",
    "newsletter",
    "subscribe",
    "advertisement",
];

fn tokens(n: &Node) -> impl Iterator<Item = &str> {
    n.class.as_deref().unwrap_or("").split_whitespace()
}

/// Is node `i` an article (see the module rules)? `nested[i]`: an `<article>` below it.
fn is_article(tree: &Tree, i: NodeId, nested: &[bool]) -> bool {
    let n = tree.node(i);
    if !n.is_element() {
        return false;
    }
    if n.tag == "article" {
        return !nested[i];
    }
    n.attrs.get("itemprop").is_some_and(|p| p == "articleBody")
        || tokens(n).any(|c| ARTICLE_CLASSES.contains(&c.to_ascii_lowercase().as_str()))
}

/// Is this element page furniture by its tag, role, class, id or heading?
fn furniture(tree: &Tree, i: NodeId) -> bool {
    let n = tree.node(i);
    if matches!(
        n.tag.as_str(),
        "aside" | "nav" | "header" | "footer" | "form" | "button" | "menu" | "dialog" | "iframe"
    ) {
        return true;
    }
    if n.role.as_deref().is_some_and(|r| {
        matches!(
            r,
            "navigation" | "complementary" | "contentinfo" | "banner" | "search" | "dialog"
        )
    }) {
        return true;
    }
    let named = |s: Option<&str>| {
        s.is_some_and(|s| {
            let s = s.to_ascii_lowercase();
            FURNITURE.iter().any(|f| s.contains(f))
        })
    };
    if named(n.class.as_deref()) || named(n.id.as_deref()) {
        return true;
    }
    // A heading that names furniture, on the block or as its first element.
    if let Some(h) = leading_heading(tree, i) {
        let t = tree.text(h).to_lowercase();
        if FURNITURE_HEADINGS.iter().any(|f| t.starts_with(f)) {
            return true;
        }
    }
    tree.subtree(i)
        .skip(1)
        .any(|d| matches!(tree.node(d).tag.as_str(), "form" | "nav" | "aside"))
}

/// The heading that opens block `i` (itself, or its first heading with no text before it).
fn leading_heading(tree: &Tree, i: NodeId) -> Option<NodeId> {
    let h = tree
        .subtree(i)
        .find(|&d| tree.node(d).heading_level().is_some())?;
    (!tree
        .subtree(i)
        .take_while(|&d| d < h)
        .any(|d| tree.own_chars[d] > 0))
    .then_some(h)
}

/// Does the block's text hold a word (not only rules of underscores or dots)?
fn worded(tree: &Tree, s: NodeId) -> bool {
    tree.subtree(s).any(|d| {
        tree.own_chars[d] > 0
            && tree
                .node(d)
                .text
                .as_deref()
                .is_some_and(|t| t.chars().any(char::is_alphanumeric))
    })
}

/// The kept mask with the rest of the chosen article (see the module rules).
pub(super) fn with_article_rest(tree: &Tree, kept: &mut Cow<[bool]>) {
    let n = tree.len();
    // Kept text characters per subtree.
    let mut kept_chars = vec![0usize; n];
    let mut total = 0usize;
    for i in (0..n).rev() {
        if kept[i] && tree.node(i).is_text() {
            kept_chars[i] += tree.own_chars[i];
            total += tree.own_chars[i];
        }
        if let Some(p) = tree.parent(i) {
            kept_chars[p] += kept_chars[i];
        }
    }
    if total == 0 {
        return;
    }
    // One pass each, bottom-up and top-down, so that a page nested 100,000 deep costs n:
    // an `<article>` below each node; a heading at or above each node.
    let mut nested = vec![false; n];
    for i in (1..n).rev() {
        if let Some(p) = tree.parent(i) {
            nested[p] |= nested[i] || tree.node(i).tag == "article";
        }
    }
    let mut in_heading = vec![false; n];
    for i in 1..n {
        in_heading[i] =
            tree.node(i).heading_level().is_some() || tree.parent(i).is_some_and(|p| in_heading[p]);
    }
    let Some(article) = (1..n).find(|&i| {
        is_article(tree, i, &nested)
            && kept_chars[i] as f64 >= MIN_KEPT_SHARE * tree.chars[i] as f64
            && kept_chars[i] as f64 >= MIN_CONTENT_SHARE * total as f64
    }) else {
        return;
    };
    let Some(first) = tree
        .subtree(article)
        .find(|&d| kept[d] && tree.node(d).is_text() && tree.own_chars[d] > 0)
    else {
        return;
    };
    let last = tree
        .subtree(article)
        .rev()
        .find(|&d| kept[d] && tree.node(d).is_text() && tree.own_chars[d] > 0)
        .unwrap_or(first);
    let any_kept = |i: NodeId| tree.subtree(i).any(|d| kept[d]);
    let budget = (MAX_ADDED_SHARE * kept_chars[article] as f64) as usize;
    let mut added = 0usize;
    let mut add: Vec<NodeId> = Vec::new();
    // Blocks in page order: the article's children, and the children of its partly kept
    // sections and divs (three levels down at most).
    let mut stack: Vec<(NodeId, usize)> = tree.children[article]
        .iter()
        .rev()
        .map(|&c| (c, 0))
        .collect();
    while let Some((s, depth)) = stack.pop() {
        let node = tree.node(s);
        if !node.is_element() || s < first {
            continue;
        }
        if any_kept(s) {
            if depth < 3 && node.tag == "section" && !furniture(tree, s) {
                stack.extend(tree.children[s].iter().rev().map(|&c| (c, depth + 1)));
            }
            continue;
        }
        if !node.rendered || node.visibility != "visible" || furniture(tree, s) {
            continue;
        }
        // Code blocks and their wrappers' labels are the code writer's ([`super::gaps`]).
        if tree
            .subtree(s)
            .any(|d| tree.node(d).tag == "pre" || super::code::is_widget(tree.node(d)))
        {
            continue;
        }
        let badges = tree
            .subtree(s)
            .any(|d| super::images::is_badge(tree.node(d)));
        if !badges && !worded(tree, s) {
            continue;
        }
        // A caption whose video or image the writers do not show (a player) is no content.
        let caption = tree.subtree(s).any(|d| tree.node(d).tag == "figcaption");
        if caption
            && !tree
                .subtree(s)
                .any(|d| super::images::content_image(tree.node(d)))
        {
            continue;
        }
        // Links ("Read the full transcript", "Related reports include …") join only as a
        // section under a heading of their own ("See also").
        let led = leading_heading(tree, s).is_some();
        // Or right under one: the element before it is a heading (the extraction kept the
        // "See also" heading but not its list).
        let under = tree.parent(s).is_some_and(|p| {
            let sibs = &tree.children[p];
            let at = sibs.iter().position(|&c| c == s).unwrap_or(0);
            sibs[..at]
                .iter()
                .rev()
                .find(|&&c| tree.node(c).is_element())
                .is_some_and(|&c| tree.node(c).heading_level().is_some())
        });
        if !badges && !led && !under && 2 * tree.link_chars[s] >= tree.chars[s] {
            continue;
        }
        // Headings and nothing else after the last kept text (a form's call to action).
        if s > last
            && tree
                .subtree(s)
                .all(|d| tree.own_chars[d] == 0 || in_heading[d])
        {
            continue;
        }
        if added + tree.chars[s] > budget {
            break;
        }
        added += tree.chars[s];
        add.push(s);
    }
    if add.is_empty() {
        return;
    }
    let out = kept.to_mut();
    for s in add {
        for d in tree.subtree(s) {
            let dn = tree.node(d);
            out[d] |= dn.rendered || dn.tag == "br" || d == s;
        }
    }
}
