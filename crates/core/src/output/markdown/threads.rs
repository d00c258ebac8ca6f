//! The replies of a thread (Hacker News, Reddit, Lemmy, a GitHub issue): a page whose opening
//! post the extraction kept and whose discussion, written as comments, holds more text than
//! that post. Extractors trained on articles keep the post and leave the replies out as
//! reader comments; on such a page the replies are what a reader came for, and the markdown
//! keeps them, each where the page has it (replies nested, authors in bold, action links left
//! out: [`super::comments`]). The text and `html` outputs keep the extraction's choice, and
//! `--comments` keeps comments on every page.
//!
//! The rules (markdown writer only):
//! - a *reply* is an element that is a comment ([`super::comments::is_comment`]: a `comment`
//!   class token, `comment-body`, an id `comment-N`), shown, after the first kept text, holding
//!   no kept text, and not inside another reply (a nested reply comes with its parent);
//! - the page is a thread when it has at least [`MIN_REPLIES`] replies (nested ones counted)
//!   and either their text is at least as long as the kept text and that is a short post (at
//!   most [`MAX_POST_CHARS`]: a blog post, however long its comments, is an article), or kept
//!   text is itself in a comment (the opening post written as one, as a GitHub issue's is;
//!   the other comments holding kept text then count as replies);
//! - each reply's shown subtree is kept; or, when the extraction kept text in comments and the
//!   element holding each one's kept text has the same tag and class in more than half of them
//!   (the posts' body, without the author's pane), the reply's elements of that shape.

use std::borrow::Cow;

use crate::snapshot::{NodeId, Tree};

/// The fewest replies that make a discussion.
const MIN_REPLIES: usize = 2;

/// The longest kept text (in characters) that is a thread's opening post when the replies
/// decide by their length: a blog post is longer (its comments, however many, stay out).
const MAX_POST_CHARS: usize = 2000;

/// Keep the replies of a thread (see the module rules). Linear in the page.
pub(super) fn with_replies(tree: &Tree, kept: &mut Cow<[bool]>) {
    let n = tree.len();
    let text = |i: NodeId| tree.node(i).is_text() && tree.own_chars[i] > 0;
    let Some(first) = (0..n).find(|&i| kept[i] && text(i)) else {
        return;
    };
    let kept_chars: usize = (0..n)
        .filter(|&i| kept[i] && text(i))
        .map(|i| tree.own_chars[i])
        .sum();
    let has_text = super::holds_kept_text(tree, kept);
    let mut replies = Vec::new();
    let mut reply_chars = 0;
    let mut i = first + 1;
    while i < n {
        let node = tree.node(i);
        if super::comments::is_comment(node)
            && node.rendered
            && node.visibility == "visible"
            && !has_text[i]
            && tree.chars[i] > 0
        {
            replies.push(i);
            reply_chars += tree.chars[i];
            i = tree.subtree_end(i);
        } else {
            i += 1;
        }
    }
    // Replies nested in replies count (a Reddit thread is one top-level comment and its
    // children).
    let count: usize = replies
        .iter()
        .map(|&r| {
            tree.subtree(r)
                .filter(|&d| super::comments::is_comment(tree.node(d)))
                .count()
        })
        .sum();
    // The opening post written as a comment too (a GitHub issue's first `timeline-comment`):
    // kept text inside a comment (parents come before their children: one pass).
    let mut in_comment = vec![false; n];
    let mut post_is_comment = false;
    for i in 0..n {
        in_comment[i] = super::comments::is_comment(tree.node(i))
            || tree.parent(i).is_some_and(|p| in_comment[p]);
        post_is_comment |= in_comment[i] && kept[i] && text(i);
    }
    // The outermost comments the extraction kept text in. With the post a comment, those
    // after the first are replies already written (Invision: it kept two posts of three).
    let kept_posts: Vec<NodeId> = (1..n)
        .filter(|&i| {
            has_text[i]
                && super::comments::is_comment(tree.node(i))
                && !tree.parent(i).is_some_and(|p| in_comment[p])
        })
        .collect();
    let kept_replies = if post_is_comment {
        kept_posts.len().saturating_sub(1)
    } else {
        0
    };
    let discussion = reply_chars >= kept_chars && kept_chars <= MAX_POST_CHARS;
    if count + kept_replies < MIN_REPLIES || !(discussion || post_is_comment) {
        return;
    }
    let body = post_body(tree, kept, &kept_posts);
    let out = kept.to_mut();
    for r in replies {
        // What the extraction kept of the posts it kept (their body, without the author's
        // pane, rank and reactions), else the whole reply.
        let bodies: Vec<NodeId> = match body {
            Some(shape) => outermost(tree, r, |d| same_shape(tree.node(d), shape)),
            None => Vec::new(),
        };
        let roots = if bodies.is_empty() { vec![r] } else { bodies };
        for b in roots {
            for d in tree.subtree(b) {
                out[d] |= tree.node(d).rendered;
            }
        }
    }
}

/// The element (tag and class) holding all the kept text of each of the kept `posts`, when
/// more than half of them share it and it is not the post itself: the posts' body.
fn post_body<'t>(
    tree: &'t Tree,
    kept: &[bool],
    posts: &[NodeId],
) -> Option<&'t crate::snapshot::Node> {
    let mut shapes: Vec<Option<&crate::snapshot::Node>> = Vec::new();
    for &c in posts {
        // The deepest element holding every kept text of the comment.
        let mut lca: Option<NodeId> = None;
        for t in tree.subtree(c) {
            if !(kept[t] && tree.node(t).is_text() && tree.own_chars[t] > 0) {
                continue;
            }
            let p = tree.parent(t)?;
            lca = Some(match lca {
                None => p,
                Some(l) => {
                    let mut a = l;
                    while !(a <= p && p < tree.subtree_end(a)) {
                        a = tree.parent(a)?;
                    }
                    a
                }
            });
        }
        let Some(l) = lca else { continue };
        if l == c || !(c < l && l < tree.subtree_end(c)) {
            shapes.push(None);
            continue;
        }
        shapes.push(Some(tree.node(l)));
    }
    // The shape most of the kept posts share (the opening post's kept text may reach past its
    // body: a title, an advertisement inside it).
    let mut counts: std::collections::HashMap<
        (&str, Option<&str>),
        (usize, &crate::snapshot::Node),
    > = std::collections::HashMap::new();
    for &node in shapes.iter().flatten() {
        counts
            .entry((node.tag.as_str(), node.class.as_deref()))
            .or_insert((0, node))
            .0 += 1;
    }
    let (n, node) = counts
        .into_values()
        .max_by_key(|&(n, node)| (n, std::cmp::Reverse(node.tag.as_str())))?;
    (2 * n > shapes.len()).then_some(node)
}

/// The same element name and class.
fn same_shape(a: &crate::snapshot::Node, b: &crate::snapshot::Node) -> bool {
    a.tag == b.tag && a.class == b.class
}

/// The outermost elements of a subtree (below its root) that match.
fn outermost(tree: &Tree, root: NodeId, hit: impl Fn(NodeId) -> bool) -> Vec<NodeId> {
    let mut out = Vec::new();
    let end = tree.subtree_end(root);
    let mut d = root + 1;
    while d < end {
        if tree.node(d).is_element() && hit(d) {
            out.push(d);
            d = tree.subtree_end(d);
        } else {
            d += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::extract::{Algorithm, Extraction};
    use crate::output::markdown::render;
    use crate::snapshot::{rect, SnapshotBuilder, Tree};

    /// An opening post (kept) and replies classed `comment` (left out by the extraction), one
    /// nested in another; `post_comment`: the post is classed `comment` too.
    fn thread(post: &str, replies: &[&str], post_comment: bool) -> String {
        thread_marked(post, replies, post_comment, |_| ("comment".into(), None))
    }

    /// As [`thread`], each comment (the post is number 0) given its class and id by `mark`.
    fn thread_marked(
        post: &str,
        replies: &[&str],
        post_comment: bool,
        mark: impl Fn(usize) -> (String, Option<String>),
    ) -> String {
        let mut b = SnapshotBuilder::new(800.0);
        let op = b.el(0, "div", rect(0.0, 0.0, 800.0, 100.0));
        if post_comment {
            let (class, id) = mark(0);
            b.node_mut(op).class = Some(class);
            b.node_mut(op).id = id;
        }
        let p = b.el(op, "p", rect(0.0, 0.0, 800.0, 100.0));
        let t = b.text(p, post);
        let tree_el = b.el(0, "div", rect(0.0, 120.0, 800.0, 300.0));
        let mut parent = tree_el;
        for (k, r) in replies.iter().enumerate() {
            let c = b.el(
                parent,
                "div",
                rect(0.0, 120.0 + 40.0 * k as f64, 800.0, 40.0),
            );
            let (class, id) = mark(k + 1);
            b.node_mut(c).class = Some(class);
            b.node_mut(c).id = id;
            let q = b.el(c, "p", rect(0.0, 120.0 + 40.0 * k as f64, 800.0, 20.0));
            b.text(q, r);
            // The second reply answers the first.
            if k == 0 {
                parent = c;
            }
        }
        let snap = b.build();
        let tree = Tree::new(&snap);
        let mut ex = Extraction::empty(Algorithm::Td, tree.len());
        for i in [p, t] {
            ex.kept[i] = true;
        }
        render(&tree, &ex)
    }

    /// A post and flat replies, each comment marked by `mark` (given its number, the post
    /// 0), the post and the first `kept` replies kept by the extraction.
    fn flat_thread(
        post: &str,
        replies: &[&str],
        kept: usize,
        mark: impl Fn(usize, &mut crate::snapshot::Node),
    ) -> String {
        let mut b = SnapshotBuilder::new(800.0);
        let mut keep = Vec::new();
        for (k, t) in std::iter::once(&post).chain(replies).enumerate() {
            let c = b.el(0, "div", rect(0.0, 100.0 * k as f64, 800.0, 90.0));
            mark(k, b.node_mut(c));
            let p = b.el(c, "p", rect(0.0, 100.0 * k as f64, 800.0, 20.0));
            let txt = b.text(p, t);
            if k <= kept {
                keep.extend([p, txt]);
            }
        }
        let snap = b.build();
        let tree = Tree::new(&snap);
        let mut ex = Extraction::empty(Algorithm::Td, tree.len());
        for i in keep {
            ex.kept[i] = true;
        }
        render(&tree, &ex)
    }

    #[test]
    fn a_brought_reply_keeps_the_body_most_kept_posts_share() {
        // Each post: an author pane and a body. The extraction kept the opening post whole
        // (author too) and the bodies of two replies; the last reply comes without its pane.
        let mut b = SnapshotBuilder::new(800.0);
        let mut keep = Vec::new();
        for k in 0..4 {
            let y = 100.0 * k as f64;
            let c = b.el(0, "article", rect(0.0, y, 800.0, 90.0));
            b.node_mut(c).class = Some("comment".into());
            let pane = b.el(c, "div", rect(0.0, y, 100.0, 20.0));
            b.node_mut(pane).class = Some("author-pane".into());
            let a = b.text(pane, &format!("Member {k}, 120 posts"));
            let body = b.el(c, "div", rect(100.0, y, 700.0, 20.0));
            b.node_mut(body).class = Some("post-body".into());
            let t = b.text(
                body,
                &format!("The text of post {k}, long enough to be a post."),
            );
            match k {
                0 => keep.extend([a, t]),
                1 | 2 => keep.push(t),
                _ => {}
            }
        }
        let snap = b.build();
        let tree = Tree::new(&snap);
        let mut ex = Extraction::empty(Algorithm::Td, tree.len());
        for i in keep {
            ex.kept[i] = true;
        }
        let out = render(&tree, &ex);
        assert!(out.contains("The text of post 3"), "{out}");
        assert!(!out.contains("Member 3"), "{out}");
    }

    #[test]
    fn a_discussion_longer_than_its_post_is_kept_with_it() {
        assert_eq!(
            thread(
                "Show HN: a ledger.",
                &[
                    "How does it merge two edits?",
                    "By transaction, not by line."
                ],
                false
            ),
            "Show HN: a ledger.\n\nHow does it merge two edits?\n\nBy transaction, not by line.\n"
        );
    }

    #[test]
    fn comments_shorter_than_an_article_stay_out_unless_the_post_is_a_comment() {
        let article = "A long article about the kiln, its firing schedule and the glazes that \
                       run when the kiln is too hot for them.";
        let replies = ["Great post!", "Thanks, very useful."];
        assert_eq!(thread(article, &replies, false), format!("{article}\n"));
        // A GitHub issue: the opening post is a comment like its replies.
        assert_eq!(
            thread(article, &replies, true),
            format!("{article}\n\nGreat post!\n\nThanks, very useful.\n")
        );
        // Flarum's posts: `div.PostStream-item[data-type=comment]`.
        let flarum = |_: usize, n: &mut crate::snapshot::Node| {
            n.class = Some("PostStream-item".into());
            n.attrs.insert("data-type".into(), "comment".into());
        };
        assert_eq!(
            flat_thread(article, &replies, 0, flarum),
            format!("{article}\n\nGreat post!\n\nThanks, very useful.\n")
        );
        // Invision's posts: `article#elComment_N`, no `comment` class (`ipsComment`).
        let ips = |k: usize| {
            (
                "cPost ipsComment".to_string(),
                Some(format!("elComment_{k}")),
            )
        };
        assert_eq!(
            thread_marked(article, &replies, true, ips),
            format!("{article}\n\nGreat post!\n\nThanks, very useful.\n")
        );
        // An id that only holds the word (`comment-form`, `comment-5_wrap`) is no comment.
        let not = |k: usize| ("post".to_string(), Some(format!("comment-{k}_wrap")));
        assert_eq!(
            thread_marked(article, &replies, true, not),
            format!("{article}\n")
        );
        // The post and a first reply kept, the last reply not: a thread all the same.
        assert_eq!(
            flat_thread(article, &["Answer.", "Thanks, that was it."], 1, |_, n| {
                n.class = Some("comment".into())
            }),
            format!("{article}\n\nAnswer.\n\nThanks, that was it.\n")
        );
        // One reply is no discussion.
        assert_eq!(
            thread(
                "Short post.",
                &["A much longer reply than the post itself."],
                false
            ),
            "Short post.\n"
        );
    }
}
