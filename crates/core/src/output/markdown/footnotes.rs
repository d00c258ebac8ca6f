//! Footnotes: references as `[^n]` where they stand, definitions as `[^n]: text` after the
//! content, backlinks dropped.
//!
//! A reference is a link to an element of the same page (`#id`, or the page's own URL with a
//! fragment; never written as a `file:///…#fn1` link) that is marked as a note reference: a
//! `data-footnote-ref` attribute (GitHub), `role="doc-noteref"` (pandoc), a class naming a
//! footnote or reference (`footnote-ref`, `footnote-reference`, `reference`, `fn`), or a `<sup>`
//! around or inside it, with a short text (`1`, `[1]`, `*`). Its target is the definition, or,
//! when the target is an inline anchor (Google Docs' `#ftnt1`, Word's `name="_ftn1"`), the
//! block holding it. Tufte CSS side and margin notes (`.sidenote`, `.marginnote`) and
//! Distill's `<d-footnote>` are both: the reference where they stand and the definition. A
//! note shown on hover (LaTeXML's `span.ltx_note`: a marker, and the note's text in a hidden
//! element the snapshot keeps as `hidden-text`) is the reference; the hidden text its definition.
//!
//! Labels are the reference's number when it has one and it is free, else the next free
//! number, in the order of first reference. A definition is written even when the extraction
//! dropped it (a reference list below the article), and is not written where it stands; its
//! list and its section (`section.footnotes`, `ol.references`, `div.reflist`, `[data-footnotes]`,
//! `.wp-block-footnotes`, ...) are not either, nor a "References"/"Notes"/"Footnotes" heading
//! right before that section, nor markdown-it's `hr.footnotes-sep`. Items of such a section
//! that nothing references are written as definitions too, when the extraction kept them.
//! Inside a definition, backlinks (links back to a reference, `data-footnote-backref`,
//! `role="doc-backlink"`, `↩`/`^`/`↑` links, Wikipedia's `.mw-cite-backlink`) and a leading
//! number label (pulldown-cmark's `sup.footnote-definition-label`) are dropped.

use std::borrow::Cow;
use std::collections::HashMap;

use super::syntax::prefix_lines;
use super::{join, Block, BlockKind, Writer};
use crate::snapshot::computed::HIDDEN_TEXT;
use crate::snapshot::{Node, NodeId, Tree};

/// The longest reference text (after trimming brackets) taken for a note marker.
const MAX_MARKER_CHARS: usize = 6;

/// Class tokens (or parts) of footnote sections.
const SECTION_CLASSES: [&str; 8] = [
    "footnotes",
    "footnote-list",
    "references",
    "reflist",
    "endnotes",
    "wp-block-footnotes",
    "footnote-definitions",
    "mw-references-wrap",
];

/// Headings of footnote sections (lower-case).
const SECTION_HEADINGS: [&str; 8] = [
    "footnotes",
    "notes",
    "references",
    "endnotes",
    "notes and references",
    "sources",
    "citations",
    "reference",
];

/// Texts of backlinks.
const BACKLINK_TEXTS: [&str; 7] = ["↩", "↩\u{fe0e}", "↩\u{fe0f}", "^", "↑", "⤴", "⮌"];

/// The page's footnotes.
#[derive(Debug, Default)]
pub(super) struct Notes {
    /// Reference node → index in `defs`.
    refs: HashMap<NodeId, usize>,
    /// Definitions in label order: (label, node).
    defs: Vec<(String, NodeId)>,
}

fn classes(n: &Node) -> impl Iterator<Item = &str> {
    n.class.as_deref().unwrap_or("").split_whitespace()
}

/// The addresses of the page's own document: its URL, its canonical URL, and that URL's path
/// on the page's host (a saved article links its notes as `/article/…#Fn1`, its canonical
/// path, wherever it is served from). Without fragments.
pub(super) struct Here {
    urls: Vec<String>,
}

impl Here {
    pub(super) fn of(tree: &Tree) -> Here {
        let page = tree.snap.url.split('#').next().unwrap_or("").to_string();
        let mut urls = vec![page.clone()];
        let canonical = tree
            .snap
            .head
            .links
            .iter()
            .find(|(rel, _)| {
                rel.split_whitespace()
                    .any(|r| r.eq_ignore_ascii_case("canonical"))
            })
            .map(|(_, href)| href.split('#').next().unwrap_or("").to_string());
        if let Some(c) = canonical.filter(|c| !c.is_empty() && *c != page) {
            if let (Ok(p), Ok(cu)) = (url::Url::parse(&page), url::Url::parse(&c)) {
                if p.host_str() != cu.host_str() && cu.path() != "/" {
                    let mut on_page = p.clone();
                    on_page.set_path(cu.path());
                    on_page.set_query(cu.query());
                    urls.push(on_page.to_string());
                }
            }
            urls.push(c);
        }
        Here { urls }
    }

    /// Is `base` (a link's address without its fragment) this document?
    fn is(&self, base: &str) -> bool {
        base.is_empty() || self.urls.iter().any(|u| u == base)
    }
}

/// The fragment of a same-page link, percent-decoded.
fn fragment<'h>(href: &'h str, here: &Here) -> Option<Cow<'h, str>> {
    let (base, frag) = href.split_once('#')?;
    if !here.is(base) || frag.is_empty() {
        return None;
    }
    Some(super::links::percent_decoded(frag))
}

/// A reference's marker text without brackets, when short enough to be one.
fn marker(text: &str) -> Option<&str> {
    let t = text
        .trim()
        .trim_start_matches('[')
        .trim_end_matches(']')
        .trim();
    (!t.is_empty() && t.chars().count() <= MAX_MARKER_CHARS).then_some(t)
}

/// Is this link marked as a note reference?
fn is_ref_link(tree: &Tree, a: NodeId) -> bool {
    let n = tree.node(a);
    if n.attrs.contains_key("data-footnote-ref") || n.role.as_deref() == Some("doc-noteref") {
        return true;
    }
    let noteish = |n: &Node| {
        classes(n).any(|c| {
            let c = c.to_ascii_lowercase();
            c.contains("footnote")
                || c.contains("fnref")
                || c == "fn"
                || c == "reference"
                || c.contains("noteref")
                || c.contains("cite")
        })
    };
    noteish(n)
        || tree.ancestors(a).take(2).any(|p| {
            let pn = tree.node(p);
            pn.tag == "sup" || noteish(pn)
        })
        || tree.children[a].iter().any(|&k| {
            let kn = tree.node(k);
            kn.tag == "sup" || noteish(kn)
        })
}

/// Does the target `t` of link `a` link back to `a` (by `a`'s own `id` or `name`)? A marker and
/// a note that point at each other are a reference and its definition, however they are
/// classed (legislation.gov.uk's `a.LegCommentaryLink` "I1" and its annotation's "I1").
fn links_back(tree: &Tree, a: NodeId, t: NodeId, page: &Here) -> bool {
    let n = tree.node(a);
    let own: Vec<&str> = [n.id.as_deref(), n.attrs.get("name").map(String::as_str)]
        .into_iter()
        .flatten()
        .collect();
    if own.is_empty() {
        return false;
    }
    tree.subtree(t).any(|x| {
        let xn = tree.node(x);
        xn.tag == "a"
            && x != a
            && xn
                .href
                .as_deref()
                .and_then(|h| fragment(h, page))
                .is_some_and(|f| own.contains(&f.as_ref()))
    })
}

/// Is this link a definition's way back to its reference (by its marks or its text)?
fn is_backlink(tree: &Tree, a: NodeId) -> bool {
    let n = tree.node(a);
    n.attrs.contains_key("data-footnote-backref")
        || n.role.as_deref() == Some("doc-backlink")
        || classes(n)
            .any(|c| c.contains("backref") || c.contains("footnote-back") || c == "reversefootnote")
        || tree
            .ancestors(a)
            .take(2)
            .any(|p| classes(tree.node(p)).any(|c| c == "mw-cite-backlink"))
        || BACKLINK_TEXTS.contains(&tree.text(a).as_str())
}

/// Tags that are a definition themselves rather than an anchor inside one.
fn is_block_tag(tag: &str) -> bool {
    matches!(
        tag,
        "li" | "p" | "div" | "aside" | "section" | "dd" | "td" | "footer" | "article"
    )
}

impl Notes {
    /// Find the references of the kept content and their definitions; force the definitions
    /// kept, mark them and their sections moved, and hide backlinks and labels.
    pub(super) fn find(
        tree: &Tree,
        kept: &mut Cow<[bool]>,
        hide: &mut [bool],
        moved: &mut [bool],
    ) -> Notes {
        let mut notes = Notes::default();
        let n = tree.len();
        let page = &Here::of(tree);
        let has_links = (1..n).any(|i| {
            let nd = tree.node(i);
            nd.href.as_deref().is_some_and(|h| h.contains('#'))
                || classes(nd).any(|c| c == "sidenote" || c == "marginnote")
                || nd.tag == "d-footnote"
                || nd.attrs.contains_key(HIDDEN_TEXT)
        });
        if !has_links {
            return notes;
        }
        let mut ids: HashMap<&str, NodeId> = HashMap::new();
        for i in 0..n {
            let nd = tree.node(i);
            if let Some(id) = nd.id.as_deref() {
                ids.entry(id).or_insert(i);
            }
            if nd.tag == "a" {
                if let Some(name) = nd.attrs.get("name") {
                    ids.entry(name.as_str()).or_insert(i);
                }
            }
        }
        let mut by_def: HashMap<NodeId, usize> = HashMap::new();
        let mut used: std::collections::HashSet<String> = std::collections::HashSet::new();
        let mut ref_nodes: Vec<NodeId> = Vec::new();
        let mut i = 1;
        while i < n {
            if !kept[i] {
                i += 1;
                continue;
            }
            let nd = tree.node(i);
            let side = nd.is_element()
                && (classes(nd).any(|c| c == "sidenote" || c == "marginnote")
                    || nd.tag == "d-footnote")
                && tree.chars[i] > 0;
            let def = if side {
                Some(i)
            } else if let Some(h) = hover_note(tree, i) {
                Some(h)
            } else if nd.tag == "a"
                && !is_backlink(tree, i)
                && !tree.ancestors(i).any(|a| by_def.contains_key(&a))
            {
                nd.href
                    .as_deref()
                    .and_then(|h| fragment(h, page))
                    .and_then(|f| ids.get(f.as_ref()).copied())
                    .filter(|&t| !in_bibliography(tree, t))
                    .filter(|&t| is_ref_link(tree, i) || links_back(tree, i, t, page))
                    .filter(|_| marker(&tree.text(i)).is_some())
                    .and_then(|t| definition(tree, t, i))
            } else {
                None
            };
            let Some(def) = def else {
                i += 1;
                continue;
            };
            let idx = *by_def.entry(def).or_insert_with(|| {
                let text = tree.text(i);
                let m = marker(&text).unwrap_or("");
                let label = if !side && m.chars().all(|c| c.is_ascii_digit()) && !used.contains(m) {
                    m.to_string()
                } else {
                    (1..)
                        .map(|k: usize| k.to_string())
                        .find(|k| !used.contains(k))
                        .unwrap_or_default()
                };
                used.insert(label.clone());
                notes.defs.push((label, def));
                notes.defs.len() - 1
            });
            notes.refs.insert(i, idx);
            ref_nodes.push(i);
            // A reference's own content is the marker: skip it.
            i = tree.subtree_end(i);
        }
        if notes.defs.is_empty() {
            return notes;
        }
        // Ids a backlink may point at: the references and their wrappers.
        let mut ref_ids: std::collections::HashSet<&str> = std::collections::HashSet::new();
        for &r in &ref_nodes {
            for a in std::iter::once(r).chain(tree.ancestors(r).take(2)) {
                let an = tree.node(a);
                if let Some(id) = an.id.as_deref() {
                    ref_ids.insert(id);
                }
                if let Some(name) = an.attrs.get("name") {
                    ref_ids.insert(name.as_str());
                }
            }
        }
        let defs: Vec<NodeId> = notes.defs.iter().map(|d| d.1).collect();
        let kept = kept.to_mut();
        for &d in &defs {
            if notes.refs.contains_key(&d) {
                // A side note: written where it stands as its reference.
                for x in tree.subtree(d) {
                    kept[x] |= tree.node(x).rendered;
                }
                hide_in_definition(tree, d, page, &ref_ids, hide);
                continue;
            }
            moved[d] = true;
            for x in tree.subtree(d) {
                kept[x] |= tree.node(x).rendered;
            }
            hide_in_definition(tree, d, page, &ref_ids, hide);
        }
        // Sections of definitions.
        let original_kept: Vec<bool> = kept.to_vec();
        let mut sections = Vec::new();
        for &d in &defs {
            if notes.refs.contains_key(&d) {
                continue;
            }
            for a in tree.ancestors(d).take(4) {
                if a == 0 {
                    break;
                }
                let an = tree.node(a);
                let named = classes(an).any(|c| {
                    let c = c.to_ascii_lowercase();
                    SECTION_CLASSES
                        .iter()
                        .any(|s| c == *s || c.starts_with("footnotes"))
                }) || an.attrs.contains_key("data-footnotes")
                    || an.role.as_deref() == Some("doc-endnotes")
                    || an
                        .id
                        .as_deref()
                        .is_some_and(|i| i == "footnotes" || i == "references");
                if named && !moved[a] {
                    moved[a] = true;
                    sections.push(a);
                }
            }
        }
        for &s in &sections {
            // Unreferenced items of a section the extraction kept.
            for x in tree.subtree(s) {
                if tree.node(x).tag == "li"
                    && original_kept[x]
                    && !defs.contains(&x)
                    && !defs
                        .iter()
                        .any(|&d| tree.contains(x, d) || tree.contains(d, x))
                {
                    let label = (1..)
                        .map(|k: usize| k.to_string())
                        .find(|k| !used.contains(k))
                        .unwrap_or_default();
                    used.insert(label.clone());
                    notes.defs.push((label, x));
                    moved[x] = true;
                    hide_in_definition(tree, x, page, &ref_ids, hide);
                }
            }
            // The section's heading right before it.
            let mut cur = s;
            for _ in 0..2 {
                let Some(p) = tree.parent(cur) else { break };
                let sibs = &tree.children[p];
                let at = sibs.iter().position(|&k| k == cur).unwrap_or(0);
                if let Some(&prev) = sibs[..at]
                    .iter()
                    .rev()
                    .find(|&&k| tree.node(k).is_element())
                {
                    let heading = tree.node(prev).heading_level().is_some()
                        || tree.children[prev]
                            .iter()
                            .any(|&k| tree.node(k).heading_level().is_some());
                    let t = tree.text(prev).to_lowercase();
                    if heading && SECTION_HEADINGS.contains(&t.trim_end_matches(':')) {
                        moved[prev] = true;
                        break;
                    }
                    if prev != cur && tree.node(prev).tag == "hr" {
                        moved[prev] = true;
                    }
                }
                if sibs.iter().filter(|&&k| tree.node(k).is_element()).count() > 2 {
                    break;
                }
                cur = p;
            }
        }
        for i in 1..n {
            let nd = tree.node(i);
            if nd.tag == "hr" && classes(nd).any(|c| c == "footnotes-sep") {
                moved[i] = true;
            }
            // Tufte CSS's toggles (a "⊕" for margin notes).
            if nd.tag == "label" && classes(nd).any(|c| c == "margin-toggle") {
                hide[i] = true;
            }
        }
        notes
    }

    /// Is this node a reference (written as `[^n]`)?
    pub(super) fn is_ref(&self, id: NodeId) -> bool {
        !self.refs.is_empty() && self.refs.contains_key(&id)
    }

    /// The label of a reference node.
    pub(super) fn label(&self, id: NodeId) -> Option<&str> {
        if self.refs.is_empty() {
            return None;
        }
        self.refs.get(&id).map(|&i| self.defs[i].0.as_str())
    }
}

/// Is the target an entry of a bibliography (LaTeXML's `li.ltx_bibitem` in `ul.ltx_biblist`,
/// a `#bib.bib1` id, Springer Nature's `ol.c-article-references` of `#ref-CR1`s)? A citation
/// of it (`[1]`) stays a link to the list, which stays a list: the bibliography is the
/// paper's, not notes.
fn in_bibliography(tree: &Tree, target: NodeId) -> bool {
    std::iter::once(target)
        .chain(tree.ancestors(target).take(3))
        .any(|a| {
            let n = tree.node(a);
            n.id.as_deref()
                .is_some_and(|i| i.starts_with("bib") || i.starts_with("ref-"))
                || classes(n).any(|c| {
                    let c = c.to_ascii_lowercase();
                    c.contains("bib") || c.contains("article-references")
                })
        })
}

/// A note shown on hover (LaTeXML's `span.ltx_note` holding its `sup.ltx_note_mark` and a
/// hidden `span.ltx_note_outer`): an element classed a note whose shown text is a marker and
/// that holds a hidden element with the note's text. That element is the definition.
fn hover_note(tree: &Tree, i: NodeId) -> Option<NodeId> {
    let nd = tree.node(i);
    if !nd.is_element()
        || !classes(nd).any(|c| {
            let c = c.to_ascii_lowercase();
            c == "note" || c == "footnote" || c == "ltx_note"
        })
    {
        return None;
    }
    marker(&tree.text(i))?;
    tree.subtree(i)
        .skip(1)
        .find(|&d| tree.node(d).attrs.contains_key(HIDDEN_TEXT))
}

/// The definition a reference's target stands for: the target, or the block holding an
/// inline anchor; None when it holds the reference itself or a heading (a section).
fn definition(tree: &Tree, target: NodeId, reference: NodeId) -> Option<NodeId> {
    let mut d = target;
    while !is_block_tag(&tree.node(d).tag) {
        d = tree.parent(d)?;
        if d == 0 {
            return None;
        }
    }
    if d == 0 || tree.contains(d, reference) || tree.chars[d] == 0 {
        return None;
    }
    let has_heading = tree
        .subtree(d)
        .any(|x| tree.node(x).heading_level().is_some());
    (!has_heading).then_some(d)
}

/// Hide a definition's backlinks and its leading number label.
fn hide_in_definition(
    tree: &Tree,
    def: NodeId,
    page: &Here,
    ref_ids: &std::collections::HashSet<&str>,
    hide: &mut [bool],
) {
    let mut first_text = true;
    for x in tree.subtree(def).skip(1) {
        let n = tree.node(x);
        if n.is_text() {
            if !n.text.as_deref().unwrap_or("").trim().is_empty() {
                first_text = false;
            }
            continue;
        }
        let back = n.tag == "a"
            && (is_backlink(tree, x)
                || n.href
                    .as_deref()
                    .and_then(|h| fragment(h, page))
                    .is_some_and(|f| ref_ids.contains(f.as_ref())));
        let cite_back =
            classes(n).any(|c| c == "mw-cite-backlink" || c == "footnote-definition-label");
        let label = first_text
            && matches!(
                n.tag.as_str(),
                "sup" | "span" | "a" | "label" | "b" | "strong"
            )
            && tree.chars[x] <= MAX_MARKER_CHARS + 3
            && marker(tree.text(x).trim_end_matches(['.', ':', ')']))
                .is_some_and(|m| m.chars().all(|c| c.is_ascii_digit()));
        if back || cite_back || label {
            for d in tree.subtree(x) {
                hide[d] = true;
            }
        }
    }
}

impl Writer<'_, '_> {
    /// Append the definitions, `[^n]: text`, continuation lines indented.
    pub(super) fn footnote_definitions(&self, blocks: &mut Vec<Block>) {
        let mut lines = Vec::new();
        for (label, d) in &self.notes.defs {
            let body = match self.tree.node(*d).attrs.get(HIDDEN_TEXT) {
                Some(t) => {
                    // LaTeXML repeats the marker at the note's start ("1Code and data").
                    let t = t
                        .strip_prefix(label.as_str())
                        .filter(|r| !r.starts_with(|c: char| c.is_ascii_digit()))
                        .map_or(t.as_str(), str::trim_start);
                    let mut out = String::new();
                    super::syntax::escape_text(&mut out, t, None, true);
                    out
                }
                None => join(&self.children_blocks(*d)),
            };
            let body = body.trim();
            if body.is_empty() {
                continue;
            }
            lines.push(prefix_lines(body, &format!("[^{label}]: "), "    "));
        }
        if !lines.is_empty() {
            blocks.push(Block {
                kind: BlockKind::Other,
                text: lines.join("\n"),
            });
        }
    }
}
