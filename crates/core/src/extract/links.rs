//! A page's links and which of them are in its content: the `<a href>` of the snapshot, each
//! marked by the extraction (any kept node below it) and by `rel=nofollow` (the link's own
//! `rel`, or the page's `<meta name=robots content=nofollow>`). MCP's `content_links` and
//! the crawl's `links` both read them here.

use serde::Serialize;

use crate::snapshot::Tree;

/// One link of a page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct PageLink {
    /// The absolute URL it points to (as the page resolved it).
    pub url: String,
    /// The link's text, whitespace collapsed (its image's alt text when it has no text).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub text: String,
    /// Inside the extracted content.
    pub content: bool,
    /// `rel=nofollow` (or `ugc`, `sponsored`), or the page's robots meta says `nofollow`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub nofollow: bool,
}

fn followable(href: &str) -> bool {
    !href.is_empty() && !href.starts_with("javascript:")
}

/// Does the page's `<meta name=robots>` (or `sightline`'s own) say `nofollow` or `none`?
pub fn page_nofollow(tree: &Tree) -> bool {
    ["robots", "sightline"].iter().any(|k| {
        tree.snap.head.metas(k).any(|c| {
            c.split(',')
                .map(|t| t.trim().to_ascii_lowercase())
                .any(|t| t == "nofollow" || t == "none")
        })
    })
}

/// Every link of the page (`<a>` and `<area>` with an `href`), in document order, each URL
/// once (its first text and the OR of its marks), `javascript:` links left out. `kept` is an
/// extraction's kept nodes (None: no link is marked as content).
pub fn page_links(tree: &Tree, kept: Option<&[bool]>) -> Vec<PageLink> {
    let all_nofollow = page_nofollow(tree);
    let mut out: Vec<PageLink> = Vec::new();
    let mut at = std::collections::HashMap::new();
    for id in 0..tree.len() {
        let n = tree.node(id);
        let Some(href) = n.href.as_deref() else {
            continue;
        };
        if !matches!(n.tag.as_str(), "a" | "area") || !followable(href) {
            continue;
        }
        let content =
            kept.is_some_and(|k| tree.subtree(id).any(|i| k.get(i).copied().unwrap_or(false)));
        let nofollow = all_nofollow
            || n.rel.as_deref().is_some_and(|r| {
                r.split_whitespace()
                    .any(|t| matches!(t, "nofollow" | "ugc" | "sponsored"))
            });
        let mut text = String::new();
        for i in tree.subtree(id) {
            let node = tree.node(i);
            if let Some(t) = &node.text {
                text.push_str(t);
            } else if let (true, Some(alt)) = (text.trim().is_empty(), &node.alt) {
                text.push_str(alt);
            }
        }
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        match at.get(href) {
            Some(&j) => {
                let l: &mut PageLink = &mut out[j];
                l.content |= content;
                l.nofollow &= nofollow;
            }
            None => {
                at.insert(href.to_string(), out.len());
                out.push(PageLink {
                    url: href.to_string(),
                    text,
                    content,
                    nofollow,
                });
            }
        }
    }
    out
}

/// The links inside the content: every `<a href>` with kept text (or a kept image) below it,
/// in document order, each (text, href) pair once, the text being the kept text only.
/// `javascript:` links are left out.
pub fn content_links(tree: &Tree, kept: &[bool]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for id in 0..tree.len() {
        let n = tree.node(id);
        let Some(href) = n.href.as_deref() else {
            continue;
        };
        if n.tag != "a" || !followable(href) {
            continue;
        }
        let mut text = String::new();
        let mut any = kept.get(id).copied().unwrap_or(false);
        for i in tree.subtree(id) {
            if !kept.get(i).copied().unwrap_or(false) {
                continue;
            }
            let node = tree.node(i);
            if let Some(t) = &node.text {
                text.push_str(t);
                any = true;
            } else if let (true, Some(alt)) = (text.trim().is_empty(), &node.alt) {
                text.push_str(alt);
                any = true;
            }
        }
        if !any {
            continue;
        }
        let link = (
            text.split_whitespace().collect::<Vec<_>>().join(" "),
            href.to_string(),
        );
        if !out.contains(&link) {
            out.push(link);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::{rect, SnapshotBuilder};

    #[test]
    fn links_are_marked_by_the_content_and_nofollow() {
        let mut b = SnapshotBuilder::new(1000.0);
        let main = b.el(0, "article", rect(0.0, 0.0, 800.0, 400.0));
        let a = b.el(main, "a", rect(0.0, 0.0, 100.0, 20.0));
        b.node_mut(a).href = Some("https://e.example/in".into());
        let t = b.text(a, "inside  link");
        let nav = b.el(0, "nav", rect(0.0, 500.0, 800.0, 40.0));
        let n = b.el(nav, "a", rect(0.0, 500.0, 100.0, 20.0));
        b.node_mut(n).href = Some("https://e.example/out".into());
        b.node_mut(n).rel = Some("nofollow noopener".into());
        b.text(n, "nav link");
        let j = b.el(nav, "a", rect(0.0, 520.0, 100.0, 20.0));
        b.node_mut(j).href = Some("javascript:void(0)".into());
        let snap = b.build();
        let tree = Tree::new(&snap);
        let mut kept = vec![false; tree.len()];
        kept[t] = true;
        let links = page_links(&tree, Some(&kept));
        assert_eq!(links.len(), 2);
        assert_eq!(links[0].text, "inside link");
        assert!(links[0].content && !links[0].nofollow);
        assert!(!links[1].content && links[1].nofollow);
        assert_eq!(
            content_links(&tree, &kept),
            vec![(
                "inside link".to_string(),
                "https://e.example/in".to_string()
            )]
        );
        assert!(page_links(&tree, None).iter().all(|l| !l.content));
    }
}
