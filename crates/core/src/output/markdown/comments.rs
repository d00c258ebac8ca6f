//! Reader comments (kept with `--comments`): each comment is written where the page has it
//! (a list item of the comment list, replies in nested lists), with its author in bold and
//! its date as the page shows it; the comment's action links ("Reply", "Report", "Like",
//! "Share", "Permalink", `.comment-reply-link`, a control drawn in symbols only: "[–]") are
//! dropped.
//!
//! A comment is an element whose class has a `comment` token (`comment`, `comment-body`,
//! WordPress's `li.comment`, Disqus-like `.post`s are not recognised) or whose id is
//! `comment-N`; its author is the first element inside classed `comment-author`, `author`,
//! `fn`, `username` or with `itemprop="author"`.
//!
//! A forum quote's attribution line (phpBB's `<cite>name wrote: ↑ date</cite>` at the top of
//! the `<blockquote>`, vBulletin's "Originally Posted by name" line) is dropped: it names who
//! is quoted, which the quote's text does not need, and its arrow and date are navigation
//! ([`hide_quote_attributions`]). A forum's own markup is read here too: a post's body that
//! is a `<blockquote>` is no quote, a quote box is one ([`is_quote`]), and a post's signature
//! is left out ([`signature`]).

use std::collections::HashSet;

use super::class_tokens as tokens;
use crate::snapshot::{Node, NodeId, Tree};

/// Texts of a comment's action links (lower-case).
const ACTIONS: [&str; 8] = [
    "reply",
    "report",
    "like",
    "share",
    "permalink",
    "flag",
    "quote",
    "edit",
];

/// Author class tokens.
const AUTHOR_CLASSES: [&str; 5] = [
    "comment-author",
    "author",
    "fn",
    "username",
    "comment-author-name",
];

/// Is `<blockquote>` node `n` a post's body, not a quote (vBulletin's posts are
/// `blockquote.postcontent`)? Its class names a post's content (`postcontent`,
/// `post-content`, `post_content`, `postbody`).
fn post_body(n: &Node) -> bool {
    tokens(n).any(|t| {
        let t = t.to_ascii_lowercase().replace(['-', '_'], "");
        t == "postcontent" || t == "postbody"
    })
}

/// Is node `n` a quote: a `<blockquote>` that is not a post's body ([`post_body`]), or a quote
/// drawn as a box (vBulletin's `div.bbcode_quote`)? The one test of the writer, the
/// attribution rule and the media rule ([`super::images`]).
pub(super) fn is_quote(n: &Node) -> bool {
    (n.tag == "blockquote" && !post_body(n))
        || (n.tag == "div" && tokens(n).any(|t| t == "bbcode_quote"))
}

/// Is node `i` a forum post's signature: classed `signature` (vBulletin's
/// `blockquote.signature`, phpBB's and SMF's `div.signature`) or XenForo's
/// `message-signature`, inside an element whose class names a post or a message? (Not an API
/// page's `member-signature` or `tsd-signature`.)
pub(super) fn signature(tree: &Tree, i: NodeId) -> bool {
    tokens(tree.node(i)).any(|t| t.eq_ignore_ascii_case("signature") || t == "message-signature")
        && tree.ancestors(i).take(12).any(|a| {
            tokens(tree.node(a)).any(|t| {
                let t = t.to_ascii_lowercase();
                t.contains("post") || t.contains("message")
            })
        })
}

/// A comment: a `comment` or `comment-body` class token, an id naming a comment by its
/// number (`comment-N`, Invision's `elComment_N` post), or `data-type="comment"` (Flarum's
/// `PostStream-item`).
pub(super) fn is_comment(n: &Node) -> bool {
    n.is_element()
        && (tokens(n).any(|t| t == "comment" || t == "comment-body")
            || n.id.as_deref().is_some_and(numbered_comment_id)
            || n.attrs.get("data-type").is_some_and(|t| t == "comment"))
}

/// `comment-123`, `elComment_123`: the word `comment` (any case) first or after a lower-case
/// prefix, a `-` or `_`, and only digits after it (not Invision's inner `comment-123_wrap`).
fn numbered_comment_id(id: &str) -> bool {
    let lower = id.to_ascii_lowercase();
    let Some(at) = lower.find("comment") else {
        return false;
    };
    let prefix = &id[..at];
    let rest = &lower[at + "comment".len()..];
    prefix.chars().all(|c| c.is_ascii_lowercase())
        && rest
            .strip_prefix(['-', '_'])
            .is_some_and(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()))
}

/// Hide the kept comments' action links; return their authors' elements.
pub(super) fn prepare(tree: &Tree, kept: &[bool], hide: &mut [bool]) -> HashSet<NodeId> {
    let mut authors = HashSet::new();
    let n = tree.len();
    let mut i = 1;
    while i < n {
        if !kept[i] || !is_comment(tree.node(i)) {
            i += 1;
            continue;
        }
        let end = tree.subtree_end(i);
        let mut author = None;
        for d in i + 1..end {
            let dn = tree.node(d);
            if dn.is_text() || is_comment(dn) {
                continue;
            }
            if dn.tag == "a" || dn.tag == "button" {
                let label = tree.text(d);
                // An action's word, or a control drawn in symbols only (Reddit's "[–]" that
                // folds a comment, a "▲" vote).
                let action = tokens(dn)
                    .any(|t| t.contains("reply-link") || t.contains("comment-reply"))
                    || (tree.chars[d] <= 12
                        && (ACTIONS.contains(&label.to_lowercase().as_str())
                            || (!label.trim().is_empty()
                                && !label.chars().any(char::is_alphanumeric))));
                if action {
                    hide[d..tree.subtree_end(d)].fill(true);
                }
            }
            if author.is_none()
                && tree.chars[d] > 0
                && tree.chars[d] <= 80
                && (tokens(dn).any(|t| AUTHOR_CLASSES.contains(&t))
                    || dn.attrs.get("itemprop").is_some_and(|v| v == "author"))
                && tree
                    .ancestors(d)
                    .take_while(|&a| a != i)
                    .all(|a| !is_comment(tree.node(a)))
            {
                author = Some(d);
            }
        }
        authors.extend(author);
        i += 1;
    }
    authors
}

/// Words of a forum quote's attribution ("stallhorn wrote:", "Alice said:").
const ATTRIBUTION_WORDS: [&str; 12] = [
    "wrote",
    "said",
    "writes",
    "posted",
    // SMF's "Quote from: name on date".
    "quote",
    "schrieb",
    "écrit",
    "escribió",
    "scrisse",
    "писал",
    "написал",
    "发表于",
];

/// How far into a quote its attribution's first text may be, in nodes.
const ATTRIBUTION_DEPTH: usize = 8;

/// An attribution line is hidden only when the quote holds more than this many characters
/// besides it (a quote that is all one line keeps it).
const MIN_QUOTED_CHARS: usize = 3;

/// The longest attribution line, in characters.
const MAX_ATTRIBUTION_CHARS: usize = 120;

/// Hide the attribution `<cite>` (or line) that opens a kept blockquote or quote box (see the
/// module header).
pub(super) fn hide_quote_attributions(tree: &Tree, kept: &[bool], hide: &mut [bool]) {
    for q in 1..tree.len() {
        if !kept[q] || !(is_quote(tree.node(q)) || super::callouts::plain_box(tree.node(q))) {
            continue;
        }
        // A "Quote:" label just before the quote (vBulletin's `div.bbcode_description`): the
        // sibling whose subtree ends right before it (found from the node before, not by a
        // search of the siblings: a parent of 10,000 quotes stays linear).
        let before = tree.parent(q).and_then(|p| {
            let mut next = q;
            // White space between them is skipped (a few siblings at most).
            for _ in 0..3 {
                let mut a = next.checked_sub(1).filter(|&a| a != p)?;
                while tree.parent(a) != Some(p) {
                    a = tree.parent(a)?;
                }
                if !tree.text(a).trim().is_empty() {
                    return Some(a);
                }
                next = a;
            }
            None
        });
        if let Some(label) = before {
            let t = tree.text(label).trim().trim_end_matches(':').to_lowercase();
            if t == "quote" {
                hide[label..tree.subtree_end(label)].fill(true);
            }
        }
        // The first text of the quote, and the `<cite>` it is in (a few nodes in: quotes
        // nested 100,000 deep stay linear).
        let Some(first) = tree
            .subtree(q)
            .take(ATTRIBUTION_DEPTH)
            .find(|&d| tree.own_chars[d] > 0 && kept[d])
        else {
            continue;
        };
        // The `<cite>` it is in, or its own line: the block under the quote holding it, when
        // the quote has more to say (vBulletin's `div.bbcode_postedby`, "Originally Posted
        // by hallam_r").
        let cite = tree
            .ancestors(first)
            .take_while(|&a| a != q)
            .find(|&a| tree.node(a).tag == "cite")
            .or_else(|| {
                tree.ancestors(first)
                    .take_while(|&a| a != q)
                    .find(|&a| tree.is_block(a))
                    .filter(|&a| tree.chars[q] > tree.chars[a] + MIN_QUOTED_CHARS)
            });
        let Some(cite) = cite else {
            continue;
        };
        let text = tree.text(cite).to_lowercase();
        let attribution = tree.chars[cite] <= MAX_ATTRIBUTION_CHARS
            && text
                .split(|c: char| !c.is_alphanumeric())
                .any(|w| ATTRIBUTION_WORDS.contains(&w));
        if attribution {
            hide[cite..tree.subtree_end(cite)].fill(true);
        }
    }
}
