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
//!   body carries ([`ARTICLE_CLASSES`]: GitHub's `markdown-body`, MediaWiki's
//!   `mw-parser-output`, WordPress's `entry-content`, MDN's `main-page-content`, ...);
//!   or, when no element is marked, where the kept text is: the deepest element holding
//!   [`MIN_CONTENT_SHARE`] of it ([`text_home`]: Gitea's `div.markup`, Starlight's
//!   `div.sl-markdown-content`), unless it holds a thread (signed posts of one class,
//!   [`is_thread`]); found this way, past its last kept text only a section under a heading
//!   or a callout joins, and a list of links never does;
//! - the extraction chose it: at least [`MIN_KEPT_SHARE`] of its text is kept, and that is at
//!   least [`MIN_CONTENT_SHARE`] of all the kept text;
//! - the elements around kept content in it are kept (a list whose items are kept is a
//!   list, an `<aside>` callout a callout), not a table's parts nor what holds them;
//! - a block of it (a child, or a child of a partly kept `section`, `div`, `details`, list
//!   or figure in it, [`MAX_DESCENT`] levels down; not an inline element, not a code
//!   block's wrapper) with nothing
//!   kept joins when it comes after the article's first kept text, is shown, is not page
//!   furniture (`aside`, `nav`, `header`, `footer`, `form`, a landmark role, a class or id that
//!   names sharing, comments, related posts, tags, bylines and the like, [`FURNITURE`], or a
//!   heading that does; a callout is never furniture), holds no form, navigation or code (the
//!   code writer places code, [`super::gaps`]), and holds two words or more (not a control's
//!   label) or a badge image; a figure's caption without a content image or table (a video
//!   player's) stays out; a
//!   block that is mostly links joins only as a section led by its own heading, or right
//!   under a heading ("See also"),
//!   and headings alone after the last kept text (a form's call to action) stay out;
//! - at most [`MAX_ADDED_SHARE`] of the article's kept text is added, in page order: a block
//!   past that bound and every block after it stay out.

use std::borrow::Cow;

use super::class_tokens as tokens;
use crate::snapshot::{Node, NodeId, Tree};

/// Class tokens of an article's body.
const ARTICLE_CLASSES: [&str; 10] = [
    "markdown-body",
    "mw-parser-output",
    "entry-content",
    "post-content",
    "article-body",
    "article-content",
    "post-body",
    "main-page-content",
    "article__body",
    "story-body",
];

/// Partly kept elements whose blocks are looked at one by one (a `section` of the article, a
/// `div` of a docs page, a `details` of a rustdoc impl, a list with some items kept).
const DESCEND: [&str; 8] = [
    "section", "div", "details", "ol", "ul", "main", "article", "figure",
];
/// How deep the blocks are looked for below the article.
const MAX_DESCENT: usize = 6;

/// The share of the kept text a thread's posts hold together ([`is_thread`]).
const MIN_THREAD_SHARE: f64 = 0.5;
/// The most kept characters a listing's card holds on average ([`is_thread`]); an article's
/// sections hold more.
const MAX_CARD_CHARS: usize = 400;

/// The share of the article's text the extraction must have kept.
const MIN_KEPT_SHARE: f64 = 0.5;
/// The share of all kept text the article must hold.
const MIN_CONTENT_SHARE: f64 = 0.8;
/// The most text added, as a share of the article's kept text.
const MAX_ADDED_SHARE: f64 = 0.5;

/// Parts of class names and ids (lower-case) of page furniture inside an article.
const FURNITURE: [&str; 32] = [
    "license",
    "copyright",
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
const FURNITURE_HEADINGS: [&str; 32] = [
    "feedback",
    "table of contents",
    "contents",
    "in this article",
    "on this page",
    "more articles",
    "other articles",
    "good articles",
    "similar posts",
    "similar articles",
    "similar stories",
    "you might",
    "also read",
    "was this page helpful",
    "reuse",
    "license",
    "licence",
    "copyright",
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

/// Is this element furniture by its own tag or landmark role (`nav`, `aside`, a form, a
/// `navigation` or `banner` role...), a callout excepted (an `<aside>` though it is:
/// Starlight's, MDN's)? The part of [`furniture`] that needs no look at names or content.
pub(super) fn furniture_element(n: &crate::snapshot::Node) -> bool {
    if super::callouts::kind(n).is_some() || super::callouts::plain_box(n) {
        return false;
    }
    matches!(
        n.tag.as_str(),
        "aside" | "nav" | "header" | "footer" | "form" | "button" | "menu" | "dialog" | "iframe"
    ) || n.role.as_deref().is_some_and(|r| {
        matches!(
            r,
            "navigation"
                | "complementary"
                | "contentinfo"
                | "banner"
                | "search"
                | "dialog"
                | "alert"
                | "alertdialog"
                | "status"
                | "tooltip"
        )
    })
}

/// Is this element page furniture by its tag, role, class, id or heading (not by what it
/// holds: [`holds_furniture`])?
fn furniture(tree: &Tree, i: NodeId) -> bool {
    let n = tree.node(i);
    if super::callouts::kind(n).is_some() || super::callouts::plain_box(n) {
        return false;
    }
    if furniture_element(n) {
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
    // Or most of its text is in furniture so named (a post's tail: its licence and share
    // boxes).
    let mut in_named = 0;
    let mut d = i + 1;
    while d < tree.subtree_end(i) {
        let dn = tree.node(d);
        if named(dn.class.as_deref()) || named(dn.id.as_deref()) {
            in_named += tree.chars[d];
            d = tree.subtree_end(d);
        } else {
            d += 1;
        }
    }
    if tree.chars[i] > 0 && 2 * in_named >= tree.chars[i] {
        return true;
    }
    // A heading that names furniture, on the block or as its first element.
    if let Some(h) = leading_heading(tree, i) {
        let t = tree.text(h).to_lowercase();
        if FURNITURE_HEADINGS.iter().any(|f| t.starts_with(f)) {
            return true;
        }
    }
    false
}

/// Does block `i` hold a form, navigation or an `<aside>` that is no callout (a block that
/// joins whole must not bring them; a partly kept one is still looked into, block by block)?
fn holds_furniture(tree: &Tree, i: NodeId) -> bool {
    tree.subtree(i).skip(1).any(|d| {
        let dn = tree.node(d);
        matches!(dn.tag.as_str(), "form" | "nav")
            || (dn.tag == "aside"
                && super::callouts::kind(dn).is_none()
                && !super::callouts::plain_box(dn))
    })
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

/// Does the block's text hold a word (not only rules of underscores or dots) that the page
/// shows (not in a 1-pixel `sr-only` box: Starlight's "Section titled …" anchors)?
fn worded(tree: &Tree, s: NodeId) -> bool {
    tree.subtree(s).any(|d| {
        tree.own_chars[d] > 0
            && tree.parent(d).is_some_and(|p| {
                let r = &tree.node(p).rect;
                r.w > 0.0 && r.h > 0.0 && !super::pixel_box(r)
            })
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
    let chosen = |i: NodeId| {
        kept_chars[i] as f64 >= MIN_KEPT_SHARE * tree.chars[i] as f64
            && kept_chars[i] as f64 >= MIN_CONTENT_SHARE * total as f64
    };
    let marked = (1..n).find(|&i| is_article(tree, i, &nested) && chosen(i));
    let home = || {
        text_home(tree, &kept_chars, total)
            .filter(|&i| chosen(i) && !is_thread(tree, i, &kept_chars, total))
    };
    // Found from where the kept text is, the article's end is less sure: past its last kept
    // text only a section under a heading joins.
    let found = marked.is_none();
    let Some(article) = marked.or_else(home) else {
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
        // Blocks wholly before the first kept text stay out (a byline, a date, a
        // standfirst the extraction judged); the one holding it is looked into.
        if !node.is_element() || tree.subtree_end(s) <= first {
            continue;
        }
        if any_kept(s) {
            if depth < MAX_DESCENT
                && DESCEND.contains(&node.tag.as_str())
                && !furniture(tree, s)
                && !super::code::is_wrapper(tree, s)
            {
                stack.extend(tree.children[s].iter().rev().map(|&c| (c, depth + 1)));
            }
            continue;
        }
        if !node.rendered
            || node.visibility != "visible"
            || furniture(tree, s)
            || holds_furniture(tree, s)
        {
            continue;
        }
        // Beside kept text, only blocks join: an inline element there is a heading's
        // permalink or "[edit]" link (MediaWiki's `span.mw-editsection`), a toast's time.
        if depth > 0 && (super::INLINE.contains(&node.tag.as_str()) || node.tag == "span") {
            continue;
        }
        // Code blocks and their wrappers' labels are the code writer's ([`super::gaps`]).
        if tree.subtree(s).any(|d| super::code::is_root(tree, d)) {
            continue;
        }
        let badges = tree
            .subtree(s)
            .any(|d| super::images::is_badge(tree.node(d)));
        if !badges && !worded(tree, s) {
            continue;
        }
        // A caption whose video or image the writers do not show (a player) is no content.
        // A caption joins with its figure's image or table (Quarto's "Table 1: …" above a
        // kept table).
        let caption = tree.subtree(s).any(|d| tree.node(d).tag == "figcaption");
        let scope = if node.tag == "figcaption" {
            tree.parent(s).unwrap_or(s)
        } else {
            s
        };
        if caption
            && !tree.subtree(scope).any(|d| {
                let dn = tree.node(d);
                super::images::content_image(dn) || dn.tag == "table"
            })
        {
            continue;
        }
        // Links ("Read the full transcript", "Related reports include …") join only as a
        // section under a heading of their own ("See also").
        // (A heading holding most of the block's text leads it too: rustdoc's impl summary,
        // a "Source" link and a `§` before its `<h3>`.)
        let led = leading_heading(tree, s).is_some() || headed(tree, s);
        // Or right under one: the element before it is a heading, or a heading's wrapper
        // (MediaWiki's `div.mw-heading` around the `<h2>` and its "edit" link; the extraction
        // kept the "See also" heading but not its list).
        let under = tree.parent(s).is_some_and(|p| {
            let sibs = &tree.children[p];
            let at = sibs.iter().position(|&c| c == s).unwrap_or(0);
            sibs[..at]
                .iter()
                .rev()
                .find(|&&c| tree.node(c).is_element())
                .is_some_and(|&c| headed(tree, c))
        });
        // (Found from where the kept text is, not marked, a list of links never joins: on a
        // listing, the other listings.)
        let linky = 2 * tree.link_chars[s] >= tree.chars[s];
        if !badges && linky && (found || (!led && !under)) {
            continue;
        }
        // A word alone is a control's label ("Back", "Menu"), not the article's.
        if !badges && !phrase(&tree.text(s)) {
            continue;
        }
        let callout = super::callouts::kind(node).is_some() || super::callouts::plain_box(node);
        if found && s > last && !led && !under && !callout {
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
    if !add.is_empty() {
        let out = kept.to_mut();
        for s in add {
            for d in tree.subtree(s) {
                let dn = tree.node(d);
                out[d] |= dn.rendered || dn.tag == "br" || d == s;
            }
        }
    }
    // The containers of what is kept, up to the article: a list whose items are kept is
    // written as a list, a callout as a callout (the extraction keeps the units, not
    // always the elements around them).
    // Not a table's parts: a table the extraction kept cells of, not the table, is a layout;
    // nor the elements above such a table (the writer would put what is kept in its cells
    // after their other content: kept text is written from its outermost kept element).
    let mut up = vec![false; n];
    let mut cut = vec![false; n];
    for d in tree.subtree(article).rev() {
        if d == article {
            continue;
        }
        let Some(p) = tree.parent(d).filter(|&p| p != article) else {
            continue;
        };
        let table_part = matches!(
            tree.node(p).tag.as_str(),
            "table" | "thead" | "tbody" | "tfoot" | "tr" | "td" | "th"
        );
        if kept[d] || up[d] {
            if table_part && !kept[p] {
                cut[p] = true;
            } else {
                up[p] = true;
            }
        }
        cut[p] |= cut[d];
    }
    if tree.subtree(article).any(|d| up[d] && !cut[d] && !kept[d]) {
        let out = kept.to_mut();
        for d in tree.subtree(article) {
            out[d] |= up[d] && !cut[d];
        }
    }
}

/// A list's items stand together: in a `<ul>`/`<ol>` of at least [`MIN_LIST_ITEMS`] shown
/// items with text, of which the extraction kept text in more than half, the others join
/// (Confluence's last task, a recipe's equipment item that is an affiliate link). Items of a
/// navigation, a form or a footer are never completed.
pub(super) fn complete_lists(tree: &Tree, kept: &mut Cow<[bool]>) {
    let n = tree.len();
    // Kept text per subtree, bottom-up.
    let has_kept = super::holds_kept_text(tree, kept);
    for l in 1..n {
        let node = tree.node(l);
        if !matches!(node.tag.as_str(), "ul" | "ol") || !has_kept[l] {
            continue;
        }
        let items: Vec<NodeId> = tree.children[l]
            .iter()
            .copied()
            .filter(|&c| {
                let li = tree.node(c);
                li.tag == "li" && li.rendered && li.visibility == "visible" && tree.chars[c] > 0
            })
            .collect();
        let with = items.iter().filter(|&&c| has_kept[c]).count();
        if items.len() < MIN_LIST_ITEMS || 2 * with <= items.len() || with == items.len() {
            continue;
        }
        let furniture = tree.ancestors(l).chain([l]).any(|a| {
            let an = tree.node(a);
            matches!(an.tag.as_str(), "nav" | "form" | "footer")
                || matches!(
                    an.role.as_deref(),
                    Some("navigation" | "menu" | "contentinfo")
                )
        });
        if furniture {
            continue;
        }
        let k = kept.to_mut();
        k[l] = true;
        for &c in items.iter().filter(|&&c| !has_kept[c]) {
            keep_shown(tree, k, c);
        }
    }
}

/// A key-value table stands whole: one whose values the extraction kept in at least half of
/// its rows, and not its keys (Amazon's specification tables: short labels in `th`, scored
/// low), is kept, so that it is written as a table and not as loose values.
pub(super) fn complete_key_values(tree: &Tree, kept: &mut Cow<[bool]>) {
    let has_kept = super::holds_kept_text(tree, kept);
    let mut bring = Vec::new();
    for t in 1..tree.len() {
        if !has_kept[t] || kept[t] {
            continue;
        }
        let Some(rows) = super::tables::key_value_rows(tree, t) else {
            continue;
        };
        if 2 * rows.iter().filter(|&&r| has_kept[r]).count() >= rows.len() {
            bring.push(t);
        }
    }
    if bring.is_empty() {
        return;
    }
    let k = kept.to_mut();
    for t in bring {
        keep_shown(tree, k, t);
    }
}

/// The fewest shown items a list needs for [`complete_lists`] to complete it.
const MIN_LIST_ITEMS: usize = 3;

/// A definition stands with its term: a `<dd>` with kept text brings the shown `<dt>`s just
/// before it that the extraction left out (Sphinx's method signatures, scored low for their
/// punctuation, above their kept descriptions).
pub(super) fn complete_terms(tree: &Tree, kept: &mut Cow<[bool]>) {
    let has_kept = super::holds_kept_text(tree, kept);
    let mut bring = Vec::new();
    // Each parent's children once, in order: the run of `<dt>`s since its last other
    // element, brought by the `<dd>` that follows it.
    let mut run: Vec<NodeId> = Vec::new();
    for p in 0..tree.len() {
        if !tree.children[p].iter().any(|&c| tree.node(c).tag == "dd") {
            continue;
        }
        run.clear();
        for &c in &tree.children[p] {
            let cn = tree.node(c);
            match cn.tag.as_str() {
                _ if !cn.is_element() => {}
                "dt" => run.push(c),
                "dd" => {
                    if has_kept[c] {
                        bring.extend(run.iter().copied().filter(|&t| {
                            let tn = tree.node(t);
                            !has_kept[t] && tn.rendered && tn.visibility == "visible"
                        }));
                    }
                    run.clear();
                }
                _ => run.clear(),
            }
        }
    }
    if bring.is_empty() {
        return;
    }
    let k = kept.to_mut();
    for t in bring {
        keep_shown(tree, k, t);
    }
}

/// More than a control's label: two words or more, or in a script written without spaces
/// (Japanese, Chinese) at least [`MIN_CJK_PHRASE`] characters ("戻る" is a label, a sentence
/// is not).
fn phrase(text: &str) -> bool {
    text.split_whitespace().nth(1).is_some()
        || text
            .chars()
            .filter(|&c| crate::extract::text::is_cjk(c))
            .count()
            >= MIN_CJK_PHRASE
}

/// The fewest CJK characters that make a phrase rather than a label ([`phrase`]).
const MIN_CJK_PHRASE: usize = 8;

/// Is element `c` a heading, or does a heading in it hold most of its text (rustdoc's impl
/// summary with its "Source" link; MediaWiki's `div.mw-heading` around an `<h2>` and its
/// "edit" link)?
fn headed(tree: &Tree, c: NodeId) -> bool {
    tree.subtree(c)
        .any(|d| tree.node(d).heading_level().is_some() && 2 * tree.chars[d] >= tree.chars[c])
}

/// Keep what is rendered of a subtree the completion rules bring ([`complete_lists`],
/// [`complete_terms`], [`complete_key_values`]).
fn keep_shown(tree: &Tree, kept: &mut [bool], root: NodeId) {
    for d in tree.subtree(root) {
        kept[d] = tree.node(d).rendered;
    }
}

/// Does the element hold a thread or a listing rather than one article: siblings whose class
/// starts the same, holding together at least [`MIN_THREAD_SHARE`] of the kept text, that are
/// two or more signed posts (holding a byline, [`signs`]: phpBB's `div.post.bg1` and
/// `div.post.bg2`, XenForo's `article.message`) or three or more short cards (at most
/// [`MAX_CARD_CHARS`] kept characters each on average: a shop's products, a course list)?
fn is_thread(tree: &Tree, home: NodeId, kept_chars: &[usize], total: usize) -> bool {
    let need = MIN_THREAD_SHARE * total as f64;
    // Which subtrees are signed, bottom-up in one pass (a page nested 100,000 deep stays
    // linear).
    let mut signed = vec![false; tree.len()];
    for i in tree.subtree(home).rev() {
        signed[i] |= signs(tree.node(i));
        if let Some(p) = tree.parent(i).filter(|_| i != home) {
            signed[p] |= signed[i];
        }
    }
    tree.subtree(home).any(|p| {
        // Per first class token: siblings, their kept characters, the signed ones.
        let mut groups: std::collections::HashMap<&str, (usize, usize, usize)> =
            std::collections::HashMap::new();
        for &c in &tree.children[p] {
            if kept_chars[c] == 0 {
                continue;
            }
            let Some(first) = tree
                .node(c)
                .class
                .as_deref()
                .and_then(|k| k.split_whitespace().next())
            else {
                continue;
            };
            let g = groups.entry(first).or_default();
            g.0 += 1;
            g.1 += kept_chars[c];
            g.2 += usize::from(signed[c]);
        }
        groups.values().any(|&(n, chars, signed)| {
            let posts = signed >= 2;
            let cards = n >= 3 && chars <= n * MAX_CARD_CHARS;
            (posts || cards) && chars as f64 >= need
        })
    })
}

/// Does the element name a writer or a date, as a post's byline does (an article's
/// sections, `section.level2` twice, hold none)?
fn signs(n: &Node) -> bool {
    n.tag == "time"
        || n.attrs.get("itemprop").is_some_and(|p| p == "author")
        || tokens(n).any(|t| {
            let t = t.to_ascii_lowercase();
            ["author", "user", "profile", "avatar"]
                .iter()
                .any(|w| t.contains(w))
        })
}

/// Where the kept text lives when no element is marked as the article: the deepest element
/// holding at least [`MIN_CONTENT_SHARE`] of it (Gitea's `div.markup`, Starlight's
/// `div.sl-markdown-content`, rustdoc's `section#main-content`); not `body`, which holds the
/// page's furniture too.
fn text_home(tree: &Tree, kept_chars: &[usize], total: usize) -> Option<NodeId> {
    let need = MIN_CONTENT_SHARE * total as f64;
    let mut at = 0;
    while let Some(&c) = tree.children[at]
        .iter()
        .find(|&&c| kept_chars[c] as f64 >= need)
    {
        at = c;
    }
    let n = tree.node(at);
    (at > 0 && n.is_element() && !matches!(n.tag.as_str(), "html" | "body")).then_some(at)
}
