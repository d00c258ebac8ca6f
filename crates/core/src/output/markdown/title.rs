//! Headings the extraction's mask leaves out or breaks: the page's title and headings whose
//! text is kept without their element ([`with_title`]).
//!
//! Why the writer needs this: an algorithm keeps nodes by their text, and the title of an
//! article usually sits in a header block above the body (`header.post-header h1`, pandoc's
//! `#title-block-header`, a forum topic's title bar), which the mask leaves out with the byline;
//! and a heading holding a permalink widget (VitePress's `a.header-anchor`, Substack's anchor
//! button) can have its text kept and its element not, so its text would be a paragraph. The
//! rules, on the writer's mask only (the text output never sees them):
//! - a heading element whose text is kept joins the mask (not its other children): it is
//!   written as a heading.
//! - when the kept content then holds no `h1`, the page's title joins it: the last `h1`
//!   shown above the content (before its first kept node in document order), not in a
//!   `nav`, `footer` or `aside`, and not the site name (an `h1` linking to the site's root,
//!   marked as a logo, brand or site title, or whose text is the site's part of the document's
//!   `<title>`), with its text but not its permalinks or
//!   buttons. It is written first as `# title`, its links to its own site as their text, and
//!   the sections start from it.
//! - with no such `h1`, the element above the content whose text is the document's `<title>`
//!   (whole, or without the site's name after its last separator or before its first) is the
//!   title ([`document_title`]: Hacker News's title link, Doxygen's `div.title`), and its link
//!   is kept when it leads to another site (a link post); under it, the page's highest
//!   heading level is `##` ([`super::headings`]);
//! - a title inside a kept element (a `<header>` kept for its standfirst) brings the elements
//!   between them, so that it is written in its place;
//! - a page marks its title on a paragraph in some exports (Google Docs writes
//!   `<p class="title">` above sections in `h1`): such a paragraph holding the content's first
//!   text is the `#` heading ([`marked_title`]).

use crate::snapshot::{Node, NodeId, Tree};

/// What separates a page's own title from its site's name in a document's `<title>`.
const TITLE_SEPARATORS: [&str; 7] = [" | ", " - ", " — ", " – ", " · ", " :: ", ": "];

/// The longest text (in characters) a title can have: a longer block is prose.
const MAX_TITLE_CHARS: usize = 300;

/// Add to `kept` the heading elements whose text it keeps and, when the content then holds no
/// `h1`, the page's title (see the module rules); returns the title's node when it is added
/// or marked on a kept paragraph.
pub(crate) fn with_title(tree: &Tree, kept: &mut [bool]) -> Option<NodeId> {
    let n = tree.len();
    let mut has_h1 = false;
    for id in 0..n {
        let node = tree.node(id);
        let Some(level) = node.heading_level() else {
            continue;
        };
        if !kept[id] && tree.subtree(id).any(|i| kept[i] && has_text(tree.node(i))) {
            kept[id] = true;
        }
        has_h1 |= kept[id] && level == 1;
    }
    // The first kept text (the elements around it may be kept too, and start before a title
    // inside them).
    let first = (0..n)
        .find(|&i| kept[i] && has_text(tree.node(i)))
        .or_else(|| (0..n).find(|&i| kept[i]))?;
    if let Some(p) = marked_title(tree, kept, first) {
        return Some(p);
    }
    let title = if has_h1 {
        // The content's `h1`s are its sections (two or more: Wiki.js, a Google Docs export;
        // one is the content's own title, as a README's): the title is the element above them
        // whose text is the document's `<title>` (Wiki.js's `div.headline`), unless a kept
        // `h1` already says it.
        let h1s = (0..n)
            .filter(|&i| kept[i] && tree.node(i).heading_level() == Some(1))
            .count();
        if h1s < 2 {
            return None;
        }
        let t = document_title(tree, first)?;
        let text = crate::snapshot::collapse_ws(&tree.text(t));
        let said = (0..n).any(|i| {
            kept[i]
                && tree.node(i).heading_level() == Some(1)
                && crate::snapshot::collapse_ws(&tree.text(i)).trim() == text.trim()
        });
        if said {
            return None;
        }
        t
    } else {
        (0..first)
            .rev()
            .find(|&id| is_title(tree, id))
            .or_else(|| document_title(tree, first))?
    };
    for i in tree.subtree(title) {
        kept[i] = !tree
            .ancestors(i)
            .chain(std::iter::once(i))
            .take_while(|&a| a >= title)
            .any(|a| is_widget(tree, a));
    }
    // Inside a kept element (a `<header>` kept for the standfirst after the title), the
    // elements between them join too, so that the title is written there, in its place.
    let chain: Vec<NodeId> = tree.ancestors(title).take_while(|&a| !kept[a]).collect();
    if chain
        .last()
        .and_then(|&a| tree.parent(a))
        .is_some_and(|p| kept[p] && p != 0)
    {
        for a in chain {
            kept[a] = true;
        }
    }
    Some(title)
}

/// When no `h1` can be the title: the element above the content (before `first`) whose text
/// is the document's `<title>`, whole or without a site name after its last ` | `, ` - `,
/// ` — `, ` · `, `: ` or before its first (the shorter part) (Hacker News's `span.titleline > a`, a forum's
/// topic line, Doxygen's `div.title` under "project: …"), at least
/// [`MIN_DOCUMENT_TITLE_CHARS`] long, shown, in no heading and holding none (a heading of any
/// level can be it: it is then written `#`), and not in navigation or furniture; the deepest
/// such element.
fn document_title(tree: &Tree, first: NodeId) -> Option<NodeId> {
    let wanted = document_title_texts(tree);
    if wanted.is_empty() {
        return None;
    }
    let lens: Vec<usize> = wanted.iter().map(|t| t.chars().count()).collect();
    (1..first).rev().find(|&id| {
        let n = tree.node(id);
        if !n.is_element() || !n.rendered || n.visibility != "visible" {
            return false;
        }
        // Characters (collapsed white space aside) near a wanted title's, before any string.
        let c = tree.chars[id];
        if !lens.iter().any(|&l| c + 2 >= l && c <= l + 2) {
            return false;
        }
        let text = crate::snapshot::collapse_ws(&tree.text(id));
        // A heading of another level is the title itself (a mailing-list archive's `<h3>`
        // subject under the list's `<h2>`), not an element inside it nor one holding others.
        wanted.iter().any(|t| text.trim() == t)
            && tree
                .subtree(id)
                .skip(1)
                .all(|d| tree.node(d).heading_level().is_none())
            && !tree.ancestors(id).any(|a| {
                let an = tree.node(a);
                matches!(an.tag.as_str(), "nav" | "footer" | "aside")
                    || an.role.as_deref() == Some("navigation")
                    || an.heading_level().is_some()
            })
    })
}

/// The texts a page's own title can have, from the document's `<title>`: whole, or without
/// the site's name after its last separator or before its first (the longer part), at least
/// [`MIN_DOCUMENT_TITLE_CHARS`] long.
fn document_title_texts(tree: &Tree) -> Vec<String> {
    let full = crate::snapshot::collapse_ws(&tree.snap.title);
    let full = full.trim();
    let mut wanted = vec![full.to_string()];
    for sep in TITLE_SEPARATORS {
        // The site's name after the title, or before it (Doxygen's "project: Class
        // Reference").
        if let Some(i) = full.rfind(sep) {
            wanted.push(full[..i].trim().to_string());
        }
        // Only when it is the longer part: the shorter is the site's name ("Far probe reads
        // 85 C - Tinkerbench Forum", whose forum name is a link in the header).
        // Before the first too: a title followed by two names ("Subject - list - site").
        if let Some(i) = full.find(sep) {
            let (site, page) = (full[..i].trim(), full[i + sep.len()..].trim());
            if page.chars().count() > site.chars().count() {
                wanted.push(page.to_string());
            }
            wanted.push(site.to_string());
        }
    }
    wanted.retain(|t| t.chars().count() >= MIN_DOCUMENT_TITLE_CHARS);
    wanted
}

/// The shortest document title [`document_title`] looks for (a shorter one is a site name).
const MIN_DOCUMENT_TITLE_CHARS: usize = 12;

/// Does the node hold text that is not white space?
fn has_text(n: &Node) -> bool {
    n.text.as_deref().is_some_and(|t| !t.trim().is_empty())
}

/// Is node `id` an `h1` that can be the page's title (see the module rules)?
fn is_title(tree: &Tree, id: NodeId) -> bool {
    let n = tree.node(id);
    if n.heading_level() != Some(1) || n.display == "none" || n.visibility != "visible" {
        return false;
    }
    if n.rect.w <= 0.0 || n.rect.h <= 0.0 || is_site_name(n) {
        return false;
    }
    let text = tree.text(id);
    if text.is_empty() || text.chars().count() > MAX_TITLE_CHARS {
        return false;
    }
    // Not in the page's navigation or furniture, nor in the site's header (the `banner`
    // landmark: phpBB's board name above every topic).
    if tree.ancestors(id).any(|a| {
        let an = tree.node(a);
        matches!(an.tag.as_str(), "nav" | "footer" | "aside")
            || an.role.as_deref() == Some("banner")
    }) {
        return false;
    }
    // The site's part of the document's `<title>` ("How do I …? : commandline", Reddit's
    // subreddit name in its header `h1`).
    if names_the_site(&tree.snap.title, text.trim()) {
        return false;
    }
    // A link to the site's root in it: the site's name, as a home link.
    !tree.subtree(id).any(|i| {
        let a = tree.node(i);
        a.tag == "a" && a.href.as_deref().is_some_and(is_site_root)
    })
}

/// Is `text` the site's part of a document title: what follows its last separator (" | ",
/// " - ", " : ", ...), shorter than the page's own title before it? (Only after: in
/// "Python - Wikipedia" the article's `h1` is the part before.)
fn names_the_site(doc_title: &str, text: &str) -> bool {
    let full = crate::snapshot::collapse_ws(doc_title);
    let full = full.trim();
    !text.is_empty()
        && TITLE_SEPARATORS
            .iter()
            .filter_map(|sep| {
                full.rfind(sep)
                    .map(|i| (&full[..i], &full[i + sep.len()..]))
            })
            .any(|(page, site)| {
                site.trim() == text && site.trim().chars().count() < page.trim().chars().count()
            })
}

/// Does an element's class or id mark it as the site's name (a logo, brand, site title)?
fn is_site_name(n: &Node) -> bool {
    let marks = |s: &str| {
        let s = s.to_ascii_lowercase();
        [
            "logo",
            "brand",
            "site-title",
            "site-name",
            "sitename",
            "masthead",
        ]
        .iter()
        .any(|m| s.contains(m))
    };
    n.class.as_deref().is_some_and(marks) || n.id.as_deref().is_some_and(marks)
}

/// Is `href` a site's root (`/`, `https://host/`, `./`, `index.html`)?
fn is_site_root(href: &str) -> bool {
    let path = match href.split_once("://") {
        Some((_, rest)) => rest.find('/').map_or("/", |i| &rest[i..]),
        None => href,
    };
    let path = path.split(['?', '#']).next().unwrap_or("");
    matches!(path, "" | "/" | "./" | "/index.html" | "index.html")
        && !href.starts_with('#')
        && !href.is_empty()
}

/// A permalink or a button inside a title: left out of it (a permalink: a link to a place in
/// the page, or a link whose text is a sign such as `¶` or `#`).
fn is_widget(tree: &Tree, id: NodeId) -> bool {
    let n = tree.node(id);
    matches!(n.tag.as_str(), "button" | "svg")
        || (n.tag == "a"
            && (n.href.as_deref().is_some_and(|h| h.starts_with('#'))
                || !tree.text(id).chars().any(char::is_alphanumeric)))
}

/// The kept paragraph the page marks as its title (class `title`) that holds the content's
/// first kept text.
fn marked_title(tree: &Tree, kept: &[bool], first: NodeId) -> Option<NodeId> {
    let t = (first..tree.len()).find(|&i| kept[i] && has_text(tree.node(i)))?;
    let p = tree.ancestors(t).find(|&a| tree.node(a).tag == "p")?;
    let marked = tree
        .node(p)
        .class
        .as_deref()
        .is_some_and(|c| c.split_whitespace().any(|t| t == "title"))
        || {
            // Or its text is the document's `<title>` (Naver's `se-title-text` paragraph).
            let text = crate::snapshot::collapse_ws(&tree.text(p));
            document_title_texts(tree).iter().any(|w| w == text.trim())
        };
    // A box's own title (Confluence's info macro: `p.title` inside the callout) is not the
    // page's.
    let boxed = tree.ancestors(p).any(|a| {
        let n = tree.node(a);
        matches!(
            n.tag.as_str(),
            "blockquote" | "aside" | "figure" | "td" | "li"
        ) || super::callouts::kind(n).is_some()
            || super::callouts::plain_box(n)
    });
    (marked && !boxed && kept[p] && tree.text(p).chars().count() <= MAX_TITLE_CHARS).then_some(p)
}

#[cfg(test)]
mod site_part_tests {
    use super::names_the_site;

    #[test]
    fn the_part_after_the_last_separator_names_the_site_not_the_part_before() {
        let reddit = "How do I stop a bash script on the first error? : commandline";
        assert!(names_the_site(reddit, "commandline"));
        assert!(!names_the_site(
            reddit,
            "How do I stop a bash script on the first error?"
        ));
        assert!(!names_the_site("Python - Wikipedia", "Python"));
        assert!(names_the_site(
            "Python (programming language) - Wikipedia",
            "Wikipedia"
        ));
        assert!(!names_the_site("Kiln notes", "Kiln notes"));
        assert!(!names_the_site("", ""));
    }
}
