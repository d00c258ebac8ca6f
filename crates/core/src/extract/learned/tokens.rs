//! The vocabulary `learned` reads from the markup: class/id/role token groups (comment, nav,
//! footer, share, cookie, ...), the block tags and the ancestor tags with an indicator
//! feature each, and the tokenisation of class and id attributes into words.

use std::collections::HashMap;

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
pub(super) const BLOCK_TAGS: [&str; 16] = [
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
pub(super) const INSIDE_TAGS: [&str; 18] = [
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

/// Split a class or id attribute into lower-case words (on non-alphanumerics and camelCase).
pub(crate) fn class_words(s: &str, out: &mut Vec<String>) {
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

#[cfg(test)]
/// The token-group bit mask of one element's class, id and role.
pub fn group_mask(class: Option<&str>, id: Option<&str>, role: Option<&str>) -> u32 {
    group_mask_cached(class, id, role, &mut HashMap::new())
}

/// [`group_mask`] remembering each word's mask in `words` (pages repeat their class words).
pub(super) fn group_mask_cached(
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

/// The bit of an ancestor tag in the "inside" mask (`h1`..`h6` share `h`), if it has one.
pub(super) fn inside_bit(tag: &str) -> Option<usize> {
    let t = if matches!(tag, "h1" | "h2" | "h3" | "h4" | "h5" | "h6") {
        "h"
    } else {
        tag
    };
    INSIDE_TAGS.iter().position(|x| *x == t)
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
