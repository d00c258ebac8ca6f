//! Images and the media the extraction's mask leaves out: which `<img>` is a content image
//! (by its rendered size), which formulas and images join the kept content though they hold no
//! text ([`with_media`]), and how an image is written (`![alt](src)`, once per source; a formula
//! image as its LaTeX).
//!
//! Why the writers need this: an algorithm keeps nodes by their text, and an image, like a
//! MathJax 3 or MathML formula, has none, so a mask built from text leaves it out even when the
//! sentence or the figure around it is kept. The rules:
//! - a *content image* is an `<img>` shown (not `display: none`, not hidden) with a box of at
//!   least [`MIN_SIDE`] px on both sides; or, when its box shows nothing (a side under 2 px: a
//!   lazy image that never loaded, a collapsed placeholder), whose declared `width` and
//!   `height` attributes are both at least [`MIN_SIDE`], or, none declared, that has alt
//!   text and a lazy loader's class (`lazy`, `lazyload`, `rocket-lazyload`, ...); or an image
//!   that did not load and shows its alt text (the snapshot marks it `broken`), outside a
//!   link, whose alt text describes a picture (three words, or an image file's name), or whose
//!   declared size is at least [`MIN_SIDE`] both ways (or [`ONE_SIDE`] on the one side it
//!   declares). A badge (in a link, its source naming one, also behind a camo proxy) is
//!   content. A lead image (in a `<figure>` before any kept text, or after some when not in a
//!   link, and followed by kept text, in the `<article>` or `<main>` holding it) joins too; so
//!   does a shop gallery's large image before any kept text, in no link or in a lightbox's
//!   link to its own full size.
//!   Tracking pixels, spacers, icons and avatars are smaller and dropped, even inside kept
//!   content.
//! - a content image or a formula that the mask left out joins it when its parent is kept, or
//!   when it sits between kept text (the text just before or after it kept, for an image in
//!   a figure or not in a link with at most a label's [`LABEL_SLACK`] characters of unkept
//!   text between, and kept text on both sides somewhere: a figure between two paragraphs,
//!   a lead picture above its byline); an inline formula needs the text just before and just
//!   after it kept (its sentence), or just before it when only punctuation follows it in its
//!   block (a sentence's last formula, its full stop kept with it); a display formula joins as
//!   an image does. It brings its ancestors that hold no kept text (a `<figure>`,
//!   `<picture>`, a link around it), and a figure brought so brings its `<figcaption>`; so does a kept figure
//!   showing a content image.
//! - a data table ([`is_data_table`]) or a `<blockquote>` (a quoted reply, a pull
//!   quote: its text repeats text elsewhere, which the extraction scores low) that the mask
//!   left out or cut joins it whole when its parent is kept, when part of its text is kept, or
//!   (a table) when the text just before it is kept and the text just after it or the heading
//!   just before it is too, (a quote) when it sits between kept text as an image does; a
//!   wrapper holding no kept text (a `<figure>` with its caption) counts as the table or quote.
//! - a tiny image whose alt text is an emoji (WordPress draws emoji as images) is that emoji.
//! - each image source is written once (carousels repeat their slides; `<picture>` holds one
//!   `<img>`); a `data:` image is written as its alt text.

use super::math;

use super::{Inline, Writer};
use crate::snapshot::{Node, NodeId, Tree};

/// Images smaller than this on a side (CSS px) are not content: tracking pixels, spacers,
/// icons, badges, avatars (most sites draw those at 16 to 40 px).
pub(super) const MIN_SIDE: f64 = 48.0;

/// A declared `width`/`height` attribute in px (`"640"`, `"640px"`), if any.
fn declared(n: &Node, name: &str) -> Option<f64> {
    let v = n.attrs.get(name)?;
    v.trim().trim_end_matches("px").trim().parse::<f64>().ok()
}

/// A badge: an image in a link whose source names one (`badge` in its URL, shields.io,
/// badgen.net), as READMEs show their build status and version. Drawn at 20 px high, it is
/// smaller than any content image, but a reader of a README expects it.
pub(super) fn is_badge(n: &Node) -> bool {
    n.tag == "img"
        && n.link
        && n.display != "none"
        && n.visibility == "visible"
        && n.src.as_deref().is_some_and(|s| {
            let names = |s: &str| {
                let s = s.to_ascii_lowercase();
                s.contains("badge") || s.contains("shields.io") || s.contains("badgen.net")
            };
            !s.starts_with("data:") && (names(s) || camo_origin(s).is_some_and(|o| names(&o)))
        })
}

/// The image a camo proxy serves (GitHub's `camo.githubusercontent.com`, PyPI's
/// `warehouse-camo`): its path ends with the original URL in hex.
fn camo_origin(src: &str) -> Option<String> {
    let url = url::Url::parse(src).ok()?;
    if !url.host_str()?.contains("camo") {
        return None;
    }
    let hex = url.path_segments()?.next_back()?;
    if hex.len() < 16 || hex.len() % 2 != 0 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let bytes = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).ok())
        .collect::<Option<Vec<u8>>>()?;
    String::from_utf8(bytes).ok()
}

/// Is node `n` an `<img>` that can be content (see the module rules)?
pub(super) fn content_image(n: &Node) -> bool {
    if n.tag != "img" || n.display == "none" || n.visibility != "visible" {
        return false;
    }
    if is_badge(n) {
        return true;
    }
    let (w, h) = (n.rect.w, n.rect.h);
    if w >= MIN_SIDE && h >= MIN_SIDE {
        return true;
    }
    if w < 2.0 || h < 2.0 {
        return match (declared(n, "width"), declared(n, "height")) {
            (Some(a), Some(b)) => a >= MIN_SIDE && b >= MIN_SIDE,
            // A lazy loader's 1 px placeholder, nothing declared: its alt text says it is
            // content (tracking pixels and spacers have none; an icon that failed to load
            // has no lazy-loading class).
            (None, None) => {
                n.alt.as_deref().is_some_and(|a| !a.trim().is_empty())
                    && n.class.as_deref().is_some_and(|c| c.contains("lazy"))
            }
            _ => false,
        };
    }
    // An image that did not load (its host did not answer) shows its alt text in a box of
    // the text's size: its alt text, when it describes a picture (three words or more: not
    // an icon's "Facebook", an avatar's name) or names an image file (a forum's
    // attachment), says it is content ...
    // (Not in a link: a listing's product tiles, whose alt texts name the products.)
    if n.attrs.contains_key(crate::snapshot::computed::BROKEN)
        && !n.link
        && describes(n.alt.as_deref().unwrap_or(""))
    {
        return true;
    }
    // ... or the size the page declares for it does.
    // With one side declared (an e-mail's `width="564"`), the broken box takes that side.
    n.alt.as_deref().is_some_and(|a| !a.trim().is_empty())
        && match (declared(n, "width"), declared(n, "height")) {
            (Some(a), Some(b)) => a >= MIN_SIDE && b >= MIN_SIDE,
            (Some(a), None) => a >= ONE_SIDE && w >= ONE_SIDE,
            (None, Some(b)) => b >= ONE_SIDE && h >= ONE_SIDE,
            (None, None) => false,
        }
}

/// Is `ext` (after a file name's last dot) an image format's?
fn image_extension(ext: &str) -> bool {
    ["png", "jpg", "jpeg", "gif", "webp", "svg", "avif"]
        .contains(&ext.to_ascii_lowercase().as_str())
}

/// Does an image's alt text describe a picture: three words or more, or an image file's
/// name (`carb-icing-chart.png`)?
fn describes(alt: &str) -> bool {
    let alt = alt.trim();
    let file = alt
        .rsplit_once('.')
        .is_some_and(|(stem, ext)| !stem.is_empty() && !stem.contains(' ') && image_extension(ext));
    file || alt
        .split_whitespace()
        .filter(|w| w.chars().any(char::is_alphanumeric))
        .nth(2)
        .is_some()
}

/// Unkept text between an image and kept text, up to this many characters, still leaves the
/// image next to that text: a label ("Attachments"), a byline ("By Lucas Ferreira") or a
/// file's size line between a post's or an article's text and its picture.
const LABEL_SLACK: usize = 40;

/// A lead image outside any figure (a shop's product gallery) is at least this large on both
/// sides (CSS px).
const LEAD_SIDE: f64 = 160.0;

/// A broken image that declares one side only is content when that side, and the drawn box
/// on that axis, are at least this large (CSS px): an e-mail's `width="564"` banner, not an
/// icon. The same size as [`LEAD_SIDE`], chosen apart.
const ONE_SIDE: f64 = 160.0;

/// The alt text of a small image that is an emoji (WordPress's `img.emoji`): at most four
/// characters, not all ASCII.
fn emoji(n: &Node) -> Option<&str> {
    let alt = n.alt.as_deref()?.trim();
    (n.tag == "img" && !alt.is_empty() && alt.chars().count() <= 4 && !alt.is_ascii())
        .then_some(alt)
}

/// Does node `n` join the content when its surroundings are kept (`Some(true)`: only in its
/// sentence)?
fn media(n: &Node) -> Option<bool> {
    if math::is_math(n) || formula_image(n).is_some() || (emoji(n).is_some() && !content_image(n)) {
        Some(true)
    } else if content_image(n) {
        Some(false)
    } else {
        None
    }
}

/// Is node `id` a data table that the extraction's mask can leave out and the writer brings back
/// ([`with_media`]): a `<table>` shown, not inside another table or code, not marked as layout
/// (`role=presentation`/`none`), with no table or `<pre>` inside it, and with a header cell (`th`) or at
/// least two rows of at least two cells. Its text is the page's data (a table of units, of
/// results), which a model trained on prose may score low though the paragraphs on both sides
/// are kept.
fn is_data_table(tree: &Tree, id: NodeId) -> bool {
    let n = tree.node(id);
    if n.tag != "table" || n.display == "none" || n.visibility != "visible" {
        return false;
    }
    if matches!(n.role.as_deref(), Some("presentation" | "none"))
        || tree
            .ancestors(id)
            .any(|a| matches!(tree.node(a).tag.as_str(), "table" | "pre" | "code"))
    {
        return false;
    }
    let (mut th, mut rows) = (false, 0);
    for i in tree.subtree(id).skip(1) {
        match tree.node(i).tag.as_str() {
            // A nested table, or code laid out in a table (line-number gutters: highlight.js,
            // Rouge, Pygments), which the code writer reads.
            "table" | "pre" => return false,
            "th" => th = true,
            "tr" => {
                let cells = tree.children[i]
                    .iter()
                    .filter(|&&c| matches!(tree.node(c).tag.as_str(), "td" | "th"))
                    .count();
                rows += usize::from(cells >= 2);
            }
            _ => {}
        }
    }
    th || rows >= 2
}

/// What a node the mask left out can join it as ([`with_media`]).
#[derive(Debug, Clone, Copy)]
enum Cand {
    Formula,
    Image,
    Table,
    Quote,
}

/// Is node `id` a quote ([`super::comments::is_quote`]) shown, not inside another quote?
fn is_quote(tree: &Tree, id: NodeId) -> bool {
    let n = tree.node(id);
    super::comments::is_quote(n)
        && n.display != "none"
        && n.visibility == "visible"
        && n.rect.w > 0.0
        && n.rect.h > 0.0
        && !tree
            .ancestors(id)
            .any(|a| super::comments::is_quote(tree.node(a)))
}

/// A lead image: in a `<figure>` (or `<picture>`) that comes before any kept text (a
/// `<figure>`: or after some) and is followed by kept text, inside the `<article>` or
/// `<main>` that holds that text (a news page's picture between its headline and standfirst
/// and the body the extraction kept).
fn lead_figure(
    tree: &Tree,
    img: NodeId,
    before: &[(bool, bool)],
    after: &[(bool, bool)],
    near_after: &[bool],
    has_text: &[bool],
    landmarks: bool,
) -> bool {
    let Some(fig) = tree
        .ancestors(img)
        .take(3)
        .find(|&a| matches!(tree.node(a).tag.as_str(), "figure" | "picture"))
    else {
        return lead_gallery_image(tree, img, before, after, has_text, landmarks);
    };
    // The outermost figure-like wrapper (a `<picture>` inside a `<figure>`, or a box
    // holding its caption: CNN's `div.image` with `div.image__caption`).
    let fig = tree
        .ancestors(fig)
        .take(3)
        .find(|&a| tree.node(a).tag == "figure")
        .or_else(|| captioned_wrapper(tree, img, has_text).map(|(w, _)| w))
        .unwrap_or(fig);
    let end = tree.subtree_end(fig);
    let next_kept = end < tree.len() && (after[end - 1].0 || near_after[end - 1]);
    // Before any kept text; or, a `<figure>` of the article not in a link (a teaser's),
    // after the standfirst the extraction kept and before the body (the New York Times'
    // lead picture under its summary).
    let none_before = !before[fig].1 || (tree.node(fig).tag == "figure" && !tree.node(img).link);
    (next_kept && none_before && in_kept_article(tree, fig, has_text, landmarks))
        // A shop's gallery picture in a `<figure>` (BigCommerce's `figure.productView-image`)
        // with the title, the price and the options between it and the kept description.
        || lead_gallery_image(tree, img, before, after, has_text, landmarks)
}

/// The box up to [`CAPTION_LEVELS`] above an image that holds a caption of it and no kept
/// text (a figure without `<figure>`: CNN's `div.image` around the `<picture>` and its
/// `div.image__caption`), if any.
fn captioned_wrapper(tree: &Tree, img: NodeId, has_text: &[bool]) -> Option<(NodeId, Vec<NodeId>)> {
    tree.ancestors(img)
        .take(CAPTION_LEVELS)
        // (Not past a link holding text: a teaser card's headline is no caption.)
        .take_while(|&a| a != 0 && !has_text[a] && !(tree.node(a).link && tree.chars[a] > 0))
        .find_map(|a| {
            let caps = captions(tree, a, img);
            (!caps.is_empty()).then_some((a, caps))
        })
}

/// How far above an image its caption's box may be ([`captioned_wrapper`]).
const CAPTION_LEVELS: usize = 4;

/// The longest caption kept with its image, in characters.
const CAPTION_MAX_CHARS: usize = 600;

/// The captions in `wrapper` beside image `img`: `<figcaption>`s, and elements classed as a
/// caption (`caption`, `image__caption`, `wp-caption-text`) or a credit, outside the image's
/// own ancestors, each with some text and at most [`CAPTION_MAX_CHARS`] characters; the
/// outermost of nested ones.
fn captions(tree: &Tree, wrapper: NodeId, img: NodeId) -> Vec<NodeId> {
    let mut out = Vec::new();
    let mut d = wrapper + 1;
    let end = tree.subtree_end(wrapper);
    while d < end {
        let n = tree.node(d);
        let named = n.tag == "figcaption"
            || super::class_tokens(n).any(|t| {
                let t = t.to_ascii_lowercase();
                t.contains("caption") || t.ends_with("credit")
            });
        if named
            && !tree.contains(d, img)
            && tree.chars[d] > 0
            && tree.chars[d] <= CAPTION_MAX_CHARS
        {
            out.push(d);
            d = tree.subtree_end(d);
        } else {
            d += 1;
        }
    }
    out
}

/// Is node `id` inside the nearest `<article>` or `<main>`, and does that hold kept text? On
/// a page with neither (an Etsy listing), the nearest ancestor holding kept text stands for
/// it when it is at most [`LEAD_LEVELS`] levels up and not the page's `<body>`.
fn in_kept_article(tree: &Tree, id: NodeId, has_text: &[bool], landmarks: bool) -> bool {
    if let Some(a) = tree
        .ancestors(id)
        .take(64)
        .find(|&a| matches!(tree.node(a).tag.as_str(), "article" | "main"))
    {
        return has_text[a];
    }
    !landmarks
        && tree
            .ancestors(id)
            .take(LEAD_LEVELS)
            .find(|&a| has_text[a])
            .is_some_and(|a| !matches!(tree.node(a).tag.as_str(), "body" | "html") && a != 0)
}

/// How far above a lead image, on a page with no `<main>` or `<article>`, the block holding
/// the content may be (an Etsy listing's image in its carousel pane, list, wrapper and column).
const LEAD_LEVELS: usize = 7;

/// A large image outside any figure before the first kept text of the `<main>` or `<article>`
/// holding that text (a shop's product gallery beside its title and description; a post's
/// header image): not a link (a promotion's tile), at least [`LEAD_SIDE`] on both sides, with
/// alt text and a source of its own (a card grid's decorative placeholders have neither).
fn lead_gallery_image(
    tree: &Tree,
    img: NodeId,
    before: &[(bool, bool)],
    after: &[(bool, bool)],
    has_text: &[bool],
    landmarks: bool,
) -> bool {
    let n = tree.node(img);
    // A link to the picture's own full size (a shop gallery's lightbox: WooCommerce's
    // `a[href=…/tin.jpg]` around `tin-600x600.jpg`) is no promotion, and says the picture is one.
    let lightbox = n.link && lightbox_link(tree, img);
    let own_src = n.src.as_deref().is_some_and(|s| !s.starts_with("data:"));
    let described = own_src && (lightbox || n.alt.as_deref().is_some_and(|a| !a.trim().is_empty()));
    if (n.link && !lightbox)
        || !described
        || n.rect.w < LEAD_SIDE
        || n.rect.h < LEAD_SIDE
        || before[img].1
    {
        return false;
    }
    let end = tree.subtree_end(img);
    end < tree.len() && after[end - 1].1 && in_kept_article(tree, img, has_text, landmarks)
}

/// Is the link around image `img` (its nearest, holding no text) one to an image file (a
/// lightbox's full size picture)?
fn lightbox_link(tree: &Tree, img: NodeId) -> bool {
    tree.ancestors(img)
        .take(3)
        .find(|&a| tree.node(a).tag == "a")
        .filter(|&a| tree.chars[a] == 0)
        .and_then(|a| tree.node(a).href.as_deref())
        .is_some_and(|h| {
            let path = h.split(['?', '#']).next().unwrap_or("");
            path.rsplit_once('/')
                .map_or(path, |(_, file)| file)
                .rsplit_once('.')
                .is_some_and(|(_, ext)| image_extension(ext))
        })
}

/// Does node `id` end its block, but for punctuation (a sentence's last formula, "… so
/// $\lim f = 1$.")? Then the texts of that punctuation (to keep with it), else None.
fn ends_block(tree: &Tree, id: NodeId) -> Option<Vec<NodeId>> {
    let block = tree.ancestors(id).find(|&a| tree.is_block(a))?;
    let (from, to) = (tree.subtree_end(id), tree.subtree_end(block));
    // Stops at the first word (linear in what follows the formula up to that word).
    let mut rest = Vec::new();
    for j in from..to {
        if !tree.node(j).is_text() || tree.own_chars[j] == 0 {
            continue;
        }
        let punctuation = tree
            .text(j)
            .chars()
            .all(|c| c.is_whitespace() || matches!(c, '.' | ',' | ';' | ':' | '!' | '?' | ')'));
        if !punctuation || rest.len() == 4 {
            return None;
        }
        rest.push(j);
    }
    Some(rest)
}

/// The keep mask with the media the extraction left out (see the module rules). Linear.
pub(crate) fn with_media(tree: &Tree, kept: &[bool]) -> Vec<bool> {
    let n = tree.len();
    let mut out = kept.to_vec();
    let text_kept =
        |i: NodeId| (tree.node(i).is_text() && tree.own_chars[i] > 0).then_some(kept[i]);
    // Any candidate at all? Most pages' media are already kept or absent: no second pass.
    let cands: Vec<(NodeId, Cand)> = (1..n)
        .filter(|&i| !kept[i] && tree.node(i).is_element())
        .filter_map(|i| match media(tree.node(i)) {
            Some(true) => Some((i, Cand::Formula)),
            Some(false) => Some((i, Cand::Image)),
            None if is_data_table(tree, i) => Some((i, Cand::Table)),
            None if is_quote(tree, i) => Some((i, Cand::Quote)),
            None => None,
        })
        .collect();
    let figures = (1..n).any(|i| tree.node(i).tag == "figure");
    let kept_images = (1..n).any(|i| kept[i] && tree.node(i).tag == "img");
    if cands.is_empty() && !figures && !kept_images {
        return out;
    }
    // Per node: the text just before it kept / any kept text before it; same after.
    let mut before = vec![(false, false); n];
    let (mut last, mut any) = (false, false);
    for (i, b) in before.iter_mut().enumerate() {
        *b = (last, any);
        if let Some(k) = text_kept(i) {
            last = k;
            any |= k;
        }
    }
    let mut after = vec![(false, false); n];
    let (mut next, mut any) = (false, false);
    for i in (0..n).rev() {
        // A node's subtree follows it: the text after it is after its subtree.
        after[i] = (next, any);
        if let Some(k) = text_kept(i) {
            next = k;
            any |= k;
        }
    }
    // Per node: kept text before it (after it) with at most LABEL_SLACK characters of unkept
    // text between.
    let near = |order: &mut dyn Iterator<Item = NodeId>| {
        let mut out = vec![false; n];
        let mut unkept = usize::MAX;
        for i in order {
            out[i] = unkept <= LABEL_SLACK;
            match text_kept(i) {
                Some(true) => unkept = 0,
                Some(false) => unkept = unkept.saturating_add(tree.own_chars[i]),
                None => {}
            }
        }
        out
    };
    let near_before = near(&mut (0..n));
    let near_after = near(&mut (0..n).rev());
    // Does the page mark its main content (`<main>`, `<article>`)? (See `in_kept_article`.)
    let landmarks = (1..n).any(|i| matches!(tree.node(i).tag.as_str(), "article" | "main"));
    // Kept text in the subtree (ancestors holding some are left alone when climbing).
    let has_text = super::holds_kept_text(tree, kept);
    for (i, kind) in cands {
        if out[i] {
            continue;
        }
        // A table or a quote is placed by its outermost wrapper that holds no kept text (a `<figure>`
        // with its caption, a scrolling `<div>`): the text around that decides.
        let mut at = i;
        if matches!(kind, Cand::Table | Cand::Quote) && !has_text[i] {
            while let Some(p) = tree.parent(at).filter(|&p| !kept[p] && !has_text[p]) {
                at = p;
            }
        }
        let end = tree.subtree_end(at);
        let (b, any_b) = before[at];
        let (a, any_a) = if end < n {
            after[end - 1]
        } else {
            (false, false)
        };
        let in_kept = tree.parent(at).is_some_and(|p| kept[p]);
        // The node before it is a kept heading: the table is that heading's section.
        let under_heading = tree.parent(at).is_some_and(|p| {
            let sibs = &tree.children[p];
            let k = sibs.iter().position(|&c| c == at).unwrap_or(0);
            k > 0 && has_text[sibs[k - 1]] && tree.node(sibs[k - 1]).heading_level().is_some()
        });
        // A sentence's last inline formula: its punctuation joins with it.
        let mut trailing = None;
        let join = match kind {
            // A display formula stands apart (LaTeXML's equation table, its number beside
            // it): kept text on one side right next to it is enough, as for an image.
            Cand::Formula => {
                in_kept
                    || (b && a)
                    || (b && {
                        trailing = ends_block(tree, at);
                        trailing.is_some()
                    })
                    || (math::formula(tree.node(i)).is_some_and(|f| f.1)
                        && (b || a)
                        && any_b
                        && any_a)
            }
            Cand::Image => {
                // (Not a linked image outside a figure: a listing's card tiles sit a short
                // title apart; a wiki's linked thumbnail is in its figure.)
                let figure = || {
                    tree.ancestors(i)
                        .take(3)
                        .any(|a| tree.node(a).tag == "figure")
                };
                let near = (!tree.node(i).link || figure())
                    && (near_before[at] || (end < n && near_after[end - 1]));
                in_kept
                    || ((b || a || near) && any_b && any_a)
                    || lead_figure(tree, i, &before, &after, &near_after, &has_text, landmarks)
            }
            // Between kept text, or partly kept (the mask cut it).
            Cand::Table => in_kept || (b && (a || under_heading)) || has_text[i],
            Cand::Quote => in_kept || ((b || a) && any_b && any_a) || has_text[i],
        };
        if !join {
            continue;
        }
        for j in tree.subtree(i).chain(trailing.into_iter().flatten()) {
            out[j] = true;
        }
        let mut q = tree.parent(i);
        while let Some(p) = q {
            if out[p] || has_text[p] {
                break;
            }
            out[p] = true;
            if tree.node(p).tag == "figure" {
                for &c in &tree.children[p] {
                    if tree.node(c).tag == "figcaption" {
                        tree.subtree(c).for_each(|j| out[j] = true);
                    }
                }
            }
            q = tree.parent(p);
        }
    }
    // A kept image's caption in the box around it (Blogger's `tr-caption-container` table,
    // CNN's `div.image`), which the extraction left out.
    for i in 1..n {
        if out[i] && media(tree.node(i)) == Some(false) {
            if let Some((_, caps)) = captioned_wrapper(tree, i, &has_text) {
                for c in caps {
                    tree.subtree(c).for_each(|j| out[j] = true);
                }
            }
        }
    }
    caption_figures(tree, &mut out);
    out
}

/// A figure's caption goes with what it shows (an image, a table, code or a diagram drawn in
/// text: an RFC's artwork, whose caption is below it), though the extraction left the
/// caption out. Run again after the
/// writer's other passes have kept code ([`super::gaps`]).
pub(crate) fn caption_figures(tree: &Tree, out: &mut [bool]) {
    for f in 1..tree.len() {
        if tree.node(f).tag != "figure" {
            continue;
        }
        // Its captions, as ranges of node ids (a caption's own content shows nothing).
        let captions: Vec<std::ops::Range<NodeId>> = tree.children[f]
            .iter()
            .filter(|&&c| tree.node(c).tag == "figcaption")
            .map(|&c| tree.subtree(c))
            .collect();
        if captions.is_empty() {
            continue;
        }
        let shown = tree.subtree(f).find(|&j| {
            let d = tree.node(j);
            out[j]
                && (content_image(d) || matches!(d.tag.as_str(), "pre" | "table"))
                && !captions.iter().any(|r| r.contains(&j))
        });
        let Some(shown) = shown else {
            continue;
        };
        // Above code, a figcaption is the code's file name (Hexo's, rehype-pretty-code's),
        // which the code writer leaves out: only a caption below it joins.
        let image = content_image(tree.node(shown));
        for &c in &tree.children[f] {
            if tree.node(c).tag == "figcaption" && (image || c > shown) {
                tree.subtree(c).for_each(|j| out[j] = true);
            }
        }
    }
}

/// The LaTeX of a formula image (its alt text) and whether it is a display formula: an image
/// whose class names LaTeX (`latex`, `tex`, `wp-latex`, MediaWiki's `mwe-math-fallback-image-*`)
/// or whose source is a LaTeX renderer (`latex` or `mathtex` in its file name or query,
/// `codecogs`, `/math/render/`, a `tex=` parameter with a math class: Zhihu's
/// `img.ztext-math` from `/equation?tex=…`). A display formula: `display` in its class, or
/// laid out as a block (Zhihu's; [`math::write`] drops the `\\` ending each of them).
pub(super) fn formula_image(n: &Node) -> Option<(String, bool)> {
    if n.tag != "img" {
        return None;
    }
    let alt = n.alt.as_deref()?.trim();
    if alt.is_empty() {
        return None;
    }
    let class = n.class.as_deref().unwrap_or("");
    let tokens: Vec<String> = class.split(' ').map(str::to_ascii_lowercase).collect();
    let by_class = tokens.iter().any(|c| {
        c == "latex" || c == "tex" || c.starts_with("wp-latex") || c.starts_with("mwe-math")
    });
    let math_class = tokens.iter().any(|c| c == "math" || c.ends_with("-math"));
    // A renderer is named by its host, its file or its query (`latex.php?latex=…`,
    // `mathtex.cgi?…`), never by a directory the page sits in (`/latex-notes/x1.png`).
    let src = n.src.as_deref().unwrap_or("").to_ascii_lowercase();
    let (path, query) = src.split_once('?').unwrap_or((&src, ""));
    let file = path.rsplit('/').next().unwrap_or("");
    let by_src = src.contains("codecogs")
        || src.contains("/math/render/")
        || ["latex", "mathtex"]
            .iter()
            .any(|k| file.contains(k) || query.contains(k))
        || (math_class && query.split('&').any(|p| p.starts_with("tex=")));
    if !by_class && !by_src {
        return None;
    }
    let display = class.contains("display") || n.display == "block";
    Some((math::clean_tex(alt), display))
}

/// Write an image into the paragraph: `![alt](src)` once per source; a formula image as its
/// LaTeX; a `data:` image as its alt text; nothing for a tiny image (see [`content_image`]).
pub(super) fn image(w: &Writer, n: &Node, inl: &mut Inline) {
    if let Some((tex, display)) = formula_image(n) {
        return math::write(inl, &tex, display);
    }
    let alt = crate::snapshot::collapse_ws(n.alt.as_deref().unwrap_or(""));
    let src = n.src.as_deref().map(str::trim).unwrap_or("");
    if !src.is_empty() && !src.starts_with("data:") {
        if !content_image(n) {
            if let Some(e) = emoji(n) {
                inl.text(e);
            }
            return;
        }
        if !w.seen.borrow_mut().insert(src.to_string()) {
            return;
        }
        // Images side by side (a gallery) are set apart by a space, also when each is linked.
        if inl.out.ends_with(")[") {
            inl.out.insert(inl.out.len() - 1, ' ');
        } else if inl.out.ends_with(')') {
            inl.out.push(' ');
        }
        w.images_mode(inl, &alt, Some(src));
    } else {
        w.images_mode(inl, &alt, None);
    }
}

#[cfg(test)]
mod tests {
    use crate::extract::{Algorithm, Extraction};
    use crate::output::markdown::render;
    use crate::snapshot::{rect, NodeId, SnapshotBuilder, Tree};

    fn img(b: &mut SnapshotBuilder, p: NodeId, w: f64, h: f64, src: &str, alt: &str) -> NodeId {
        let i = b.el(p, "img", rect(0.0, 0.0, w, h));
        b.node_mut(i).display = "inline".into();
        b.node_mut(i).src = Some(src.into());
        b.node_mut(i).alt = Some(alt.into());
        i
    }

    /// Markdown with only the text nodes (and their parents, when all their text is) kept,
    /// as a text-based algorithm keeps them.
    fn md_text_kept(b: &SnapshotBuilder, keep_text: &[NodeId], keep_el: &[NodeId]) -> String {
        let snap = b.build();
        let tree = Tree::new(&snap);
        let mut ex = Extraction::empty(Algorithm::Td, tree.len());
        for &i in keep_text.iter().chain(keep_el) {
            ex.kept[i] = true;
        }
        render(&tree, &ex)
    }

    #[test]
    fn images_join_the_kept_content_they_sit_in_and_tiny_ones_are_dropped() {
        let mut b = SnapshotBuilder::new(800.0);
        let art = b.el(0, "article", rect(0.0, 0.0, 800.0, 900.0));
        let p1 = b.el(art, "p", rect(0.0, 0.0, 600.0, 40.0));
        let t1 = b.text(p1, "First paragraph. ");
        let icon = img(&mut b, p1, 20.0, 20.0, "icon.png", "Share");
        let pix = img(&mut b, p1, 1.0, 1.0, "pixel.gif", "");
        let in_p = img(&mut b, p1, 300.0, 200.0, "inline.png", "Inline photo");
        let fig = b.el(art, "figure", rect(0.0, 50.0, 600.0, 400.0));
        img(&mut b, fig, 600.0, 360.0, "photo.jpg", "A photo");
        let cap = b.el(fig, "figcaption", rect(0.0, 410.0, 600.0, 20.0));
        b.text(cap, "The caption.");
        // A carousel's clone of the same picture, and a lazy image that never loaded.
        let slide = b.el(art, "div", rect(0.0, 460.0, 600.0, 360.0));
        img(&mut b, slide, 600.0, 360.0, "photo.jpg", "A photo");
        let lazy = b.el(art, "div", rect(0.0, 830.0, 600.0, 1.0));
        let l1 = img(&mut b, lazy, 600.0, 1.0, "lazy.jpg", "Lazy one");
        b.node_mut(l1).attrs.insert("width".into(), "640".into());
        b.node_mut(l1).attrs.insert("height".into(), "1".into());
        let l2 = img(&mut b, lazy, 1.0, 1.0, "lazy2.jpg", "Lazy two");
        b.node_mut(l2).class = Some("lazyload".into());
        // An icon that did not load, alt text but no lazy loader: not content.
        img(&mut b, lazy, 0.0, 0.0, "icon.svg", "Icon: tools");
        let p2 = b.el(art, "p", rect(0.0, 840.0, 600.0, 40.0));
        let t2 = b.text(p2, "Second paragraph.");
        let nav = b.el(0, "nav", rect(0.0, 900.0, 800.0, 20.0));
        img(&mut b, nav, 200.0, 100.0, "logo.png", "Logo");
        let md = md_text_kept(&b, &[t1, t2], &[p1, p2]);
        assert_eq!(
            md,
            "First paragraph. ![Inline photo](inline.png)\n\n![A photo](photo.jpg)\n\n\
             The caption.\n\n![Lazy two](lazy2.jpg)\n\nSecond paragraph.\n"
        );
        assert!(!md.contains("icon.png") && !md.contains("pixel") && !md.contains("logo"));
        let _ = (icon, pix, in_p);
    }

    #[test]
    fn a_broken_image_is_content_when_its_alt_describes_a_picture_and_camo_badges_are_badges() {
        let mut b = SnapshotBuilder::new(800.0);
        let p = b.el(0, "p", rect(0.0, 0.0, 600.0, 40.0));
        let t = b.text(p, "Here is the trace: ");
        // Images whose host did not answer: alt text in a box of the text's size, no size
        // declared.
        let shot = img(
            &mut b,
            p,
            420.0,
            18.0,
            "https://cdn.example/t.png",
            "Event trace of two writes",
        );
        let file = img(
            &mut b,
            p,
            150.0,
            18.0,
            "https://cdn.example/a",
            "carb-icing-chart.png",
        );
        let icon = img(
            &mut b,
            p,
            70.0,
            18.0,
            "https://cdn.example/f.svg",
            "Facebook",
        );
        for i in [shot, file, icon] {
            b.node_mut(i)
                .attrs
                .insert(crate::snapshot::computed::BROKEN.into(), String::new());
        }
        // The same alt text on an image that loaded small is an icon's.
        img(
            &mut b,
            p,
            20.0,
            18.0,
            "https://cdn.example/s.png",
            "Small loaded picture here",
        );
        // PyPI's camo proxy of a shields.io badge, in a link.
        let a = b.el(p, "a", rect(0.0, 0.0, 90.0, 20.0));
        b.node_mut(a).href = Some("https://pypi.org/project/x/".into());
        let badge = img(
            &mut b,
            a,
            90.0,
            20.0,
            "https://warehouse-camo.ingress.cmh1.psfhosted.org/e431d4/68747470733a2f2f696d672e736869656c64732e696f2f707970692f762f782e737667",
            "PyPI version",
        );
        b.node_mut(badge).link = true;
        b.node_mut(a).display = "inline".into();
        let t2 = b.text(p, " and the rest.");
        let md = md_text_kept(&b, &[t, t2], &[p]);
        assert!(
            md.contains("![Event trace of two writes](https://cdn.example/t.png)"),
            "{md}"
        );
        assert!(
            md.contains("![carb-icing-chart.png](https://cdn.example/a)"),
            "{md}"
        );
        assert!(
            md.contains("[![PyPI version](https://warehouse-camo"),
            "{md}"
        );
        assert!(!md.contains("Facebook") && !md.contains("s.png"), "{md}");
    }

    #[test]
    fn a_lead_figure_and_an_image_that_did_not_load_join_the_content() {
        let mut b = SnapshotBuilder::new(800.0);
        let art = b.el(0, "article", rect(0.0, 0.0, 800.0, 900.0));
        let h = b.el(art, "h1", rect(0.0, 0.0, 600.0, 40.0));
        b.text(h, "Headline");
        // A lead picture whose host did not answer: its alt text in a box of the text's size,
        // its declared size a photo's.
        let fig = b.el(art, "figure", rect(0.0, 50.0, 600.0, 40.0));
        let pic = b.el(fig, "picture", rect(0.0, 50.0, 320.0, 18.0));
        let lead = img(&mut b, pic, 320.0, 18.0, "ferry.jpg", "A ferry at night");
        b.node_mut(lead).attrs.insert("width".into(), "460".into());
        b.node_mut(lead).attrs.insert("height".into(), "276".into());
        let cap = b.el(fig, "figcaption", rect(0.0, 70.0, 600.0, 20.0));
        b.text(cap, "The ferry at the quay.");
        // A small icon that did not load, declared small: not content.
        let icon = img(&mut b, fig, 60.0, 16.0, "share.svg", "Share");
        b.node_mut(icon).attrs.insert("width".into(), "16".into());
        b.node_mut(icon).attrs.insert("height".into(), "16".into());
        let p = b.el(art, "p", rect(0.0, 100.0, 600.0, 40.0));
        let t = b.text(p, "The body the extraction kept.");
        let md = md_text_kept(&b, &[t], &[p]);
        assert_eq!(
            md,
            "# Headline\n\n![A ferry at night](ferry.jpg)\n\nThe ferry at the quay.\n\n\
             The body the extraction kept.\n"
        );
    }

    #[test]
    fn a_lead_picture_in_a_box_with_its_caption_joins_with_the_caption() {
        // CNN: `div.image` holding the `<picture>` and `div.image__metadata` with a caption
        // and a credit; no `<figure>`, no `<main>` or `<article>`.
        let mut b = SnapshotBuilder::new(1200.0);
        let body = b.el(0, "body", rect(0.0, 0.0, 1200.0, 1500.0));
        let h = b.el(body, "h1", rect(0.0, 0.0, 800.0, 40.0));
        let th = b.text(h, "Heat dome");
        let main = b.el(body, "div", rect(0.0, 60.0, 800.0, 1000.0));
        b.node_mut(main).class = Some("article__main".into());
        let wrap = b.el(main, "div", rect(0.0, 60.0, 800.0, 520.0));
        b.node_mut(wrap).class = Some("image".into());
        let pic = b.el(wrap, "picture", rect(0.0, 60.0, 800.0, 450.0));
        img(
            &mut b,
            pic,
            800.0,
            450.0,
            "beach.jpg",
            "People at the beach",
        );
        let meta = b.el(wrap, "div", rect(0.0, 515.0, 800.0, 60.0));
        let cap = b.el(meta, "div", rect(0.0, 515.0, 800.0, 20.0));
        b.node_mut(cap).class = Some("image__caption attribution".into());
        b.text(cap, "People cool off at the beach on Monday.");
        let credit = b.el(meta, "figcaption", rect(0.0, 540.0, 800.0, 20.0));
        b.text(credit, "A. Photographer/Agency");
        let content = b.el(main, "div", rect(0.0, 600.0, 800.0, 400.0));
        let p = b.el(content, "p", rect(0.0, 600.0, 800.0, 40.0));
        let t = b.text(p, "A dome of high pressure is building.");
        let md = md_text_kept(&b, &[th, t], &[h, content]);
        assert_eq!(
            md,
            "# Heat dome\n\n![People at the beach](beach.jpg)\n\n\
             People cool off at the beach on Monday.\n\nA. Photographer/Agency\n\n\
             A dome of high pressure is building.\n"
        );
    }

    #[test]
    fn a_kept_images_caption_in_a_caption_table_joins() {
        // Blogger: `table.tr-caption-container`, the linked image in one row and
        // `td.tr-caption` in the next; the extraction kept the image, not the caption.
        let mut b = SnapshotBuilder::new(1000.0);
        let post = b.el(0, "div", rect(0.0, 0.0, 800.0, 900.0));
        let p = b.el(post, "p", rect(0.0, 0.0, 800.0, 40.0));
        let t = b.text(p, "The feeder at dawn.");
        let table = b.el(post, "table", rect(0.0, 50.0, 400.0, 340.0));
        b.node_mut(table).class = Some("tr-caption-container".into());
        let tbody = b.el(table, "tbody", rect(0.0, 50.0, 400.0, 340.0));
        let tr = b.el(tbody, "tr", rect(0.0, 50.0, 400.0, 300.0));
        let td = b.el(tr, "td", rect(0.0, 50.0, 400.0, 300.0));
        let a = b.el(td, "a", rect(0.0, 50.0, 400.0, 300.0));
        b.node_mut(a).href = Some("big.jpg".into());
        b.node_mut(a).link = true;
        let im = img(&mut b, a, 400.0, 300.0, "tit.jpg", "A great tit");
        b.node_mut(im).link = true;
        let tr2 = b.el(tbody, "tr", rect(0.0, 350.0, 400.0, 40.0));
        let cap = b.el(tr2, "td", rect(0.0, 350.0, 400.0, 40.0));
        b.node_mut(cap).class = Some("tr-caption".into());
        b.text(cap, "One of the snapshots.");
        let p2 = b.el(post, "p", rect(0.0, 400.0, 800.0, 40.0));
        let t2 = b.text(p2, "More birds.");
        let md = md_text_kept(&b, &[t, im, t2], &[p, a, p2]);
        assert!(md.contains("One of the snapshots."), "{md}");
    }

    #[test]
    fn a_lead_gallery_image_in_a_lightbox_link_joins_and_a_promotion_does_not() {
        // WooCommerce: the gallery's image links to its own full size; a tile links to a page.
        let mut b = SnapshotBuilder::new(1200.0);
        let main = b.el(0, "main", rect(0.0, 0.0, 1200.0, 1500.0));
        let linked = |b: &mut SnapshotBuilder, href: &str, src: &str, y: f64| {
            let a = b.el(main, "a", rect(0.0, y, 600.0, 600.0));
            b.node_mut(a).href = Some(href.into());
            b.node_mut(a).link = true;
            let i = img(b, a, 600.0, 600.0, src, "");
            b.node_mut(i).link = true;
        };
        linked(
            &mut b,
            "https://shop.example/up/tin.jpg",
            "https://shop.example/up/tin-600x600.jpg",
            0.0,
        );
        linked(
            &mut b,
            "https://shop.example/sale",
            "https://shop.example/up/sale.jpg",
            600.0,
        );
        let h = b.el(main, "h1", rect(620.0, 0.0, 500.0, 40.0));
        let th = b.text(h, "Lapsang Souchong");
        let p = b.el(main, "p", rect(620.0, 50.0, 500.0, 40.0));
        let t = b.text(p, "Pine-smoked black tea.");
        let md = md_text_kept(&b, &[th, t], &[h, p]);
        assert_eq!(
            md,
            "[![](https://shop.example/up/tin-600x600.jpg)](https://shop.example/up/tin.jpg)\n\n\
             # Lapsang Souchong\n\nPine-smoked black tea.\n"
        );
    }

    #[test]
    fn a_product_gallery_and_a_broken_image_with_one_declared_side_join() {
        let mut b = SnapshotBuilder::new(1200.0);
        let main = b.el(0, "main", rect(0.0, 0.0, 1200.0, 1500.0));
        // A shop's gallery (no figure) in the left column, the title and text on the right.
        let list = b.el(main, "ul", rect(0.0, 0.0, 600.0, 1400.0));
        for (k, src) in ["front.jpg", "inside.jpg"].iter().enumerate() {
            let li = b.el(list, "li", rect(0.0, 700.0 * k as f64, 600.0, 700.0));
            img(&mut b, li, 600.0, 700.0, src, "The tote");
        }
        // A thumbnail strip's tiny copies, and a promotion's linked tile: not lead images.
        let thumb = img(&mut b, list, 80.0, 80.0, "thumb.jpg", "Thumb");
        b.node_mut(thumb).rect.y = 1400.0;
        let promo = img(&mut b, main, 600.0, 300.0, "promo.jpg", "Sale");
        b.node_mut(promo).link = true;
        let h = b.el(main, "h1", rect(620.0, 0.0, 500.0, 40.0));
        let th = b.text(h, "The tote");
        let p = b.el(main, "p", rect(620.0, 50.0, 500.0, 40.0));
        let t = b.text(p, "A bag for the market.");
        // An e-mail's image whose host did not answer, only its width declared.
        let e = img(&mut b, main, 564.0, 20.0, "seedlings.jpg", "Seedlings");
        b.node_mut(e).attrs.insert("width".into(), "564".into());
        let p2 = b.el(main, "p", rect(620.0, 120.0, 500.0, 40.0));
        let t2 = b.text(p2, "More text.");
        // A broken icon with only a small width: not content.
        let i = img(&mut b, main, 24.0, 20.0, "fb.png", "Facebook");
        b.node_mut(i).attrs.insert("width".into(), "24".into());
        let md = md_text_kept(&b, &[th, t, t2], &[h, p, p2]);
        assert_eq!(
            md,
            "![The tote](front.jpg)\n\n![The tote](inside.jpg)\n\n# The tote\n\nA bag for the market.\n\n\
             ![Seedlings](seedlings.jpg)\n\nMore text.\n"
        );
    }

    #[test]
    fn formula_images_are_latex_and_data_images_their_alt() {
        let mut b = SnapshotBuilder::new(800.0);
        let p = b.el(0, "p", rect(0.0, 0.0, 600.0, 40.0));
        let t = b.text(p, "So ");
        let f = img(
            &mut b,
            p,
            40.0,
            16.0,
            "https://s0.wp.com/latex.php?latex=x",
            "x^2",
        );
        b.node_mut(f).class = Some("latex".into());
        let m = img(&mut b, p, 60.0, 16.0, "e.svg", "{\\displaystyle e^{i\\pi}}");
        b.node_mut(m).class = Some("mwe-math-fallback-image-inline".into());
        let t2 = b.text(p, " and ");
        img(
            &mut b,
            p,
            100.0,
            100.0,
            "data:image/png;base64,AAAA",
            "a *dot*",
        );
        let e = img(&mut b, p, 16.0, 16.0, "1f600.png", "😀");
        b.node_mut(e).class = Some("emoji".into());
        let md = md_text_kept(&b, &[t, t2], &[p]);
        assert_eq!(md, "So $x^2$ $e^{i\\pi}$ and a \\*dot\\*😀\n");
    }

    #[test]
    fn zhihu_formula_images_are_latex_inline_and_as_blocks() {
        let mut b = SnapshotBuilder::new(800.0);
        let art = b.el(0, "div", rect(0.0, 0.0, 600.0, 200.0));
        let p = b.el(art, "p", rect(0.0, 0.0, 600.0, 40.0));
        let t = b.text(p, "Let ");
        let f = img(
            &mut b,
            p,
            20.0,
            16.0,
            "/equation?tex=%5Ctheta_t",
            "\\theta_t",
        );
        b.node_mut(f).class = Some("ztext-math".into());
        let t2 = b.text(p, " be the value:");
        let d = img(
            &mut b,
            p,
            300.0,
            24.0,
            "/equation?tex=v_t+%3D+%5Cbeta+v+%5C%5C",
            "v_t = \\beta v \\\\",
        );
        b.node_mut(d).class = Some("ztext-math".into());
        b.node_mut(d).display = "block".into();
        // A math class without a `tex=` source is a picture.
        let q = img(&mut b, p, 300.0, 200.0, "/figures/plot.png", "A plot");
        b.node_mut(q).class = Some("post-math".into());
        let md = md_text_kept(&b, &[t, t2], &[p]);
        assert!(
            md.starts_with("Let $\\theta_t$ be the value:\n\n$$\nv_t = \\beta v\n$$"),
            "{md}"
        );
        assert!(md.contains("![A plot](/figures/plot.png)"), "{md}");
    }
}
