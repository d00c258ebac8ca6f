//! The snapshot: one rendered page as data (`Snapshot`, deserialized from the JSON string
//! `js/snapshot.js` returns) and the node tree with the counts every algorithm derives from it
//! (`Tree`: children, characters, tags, link characters, link tags, words, punctuation).
//!
//! A `Snapshot` is the only thing scoring ever sees, so every algorithm can be run and tested
//! from a JSON file with no browser. Fixtures store exactly this JSON.

use std::collections::BTreeMap;
use std::collections::HashMap;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::Error;

/// Version of the snapshot JSON schema; bumped on any incompatible change to `js/snapshot.js`.
pub const SCHEMA_VERSION: u32 = 1;

/// Index of a node in [`Snapshot::nodes`]. Node 0 is `<body>`.
pub type NodeId = usize;

/// One rendered page: page-level facts and every element and non-blank text node under
/// `<body>` in document order, with its rendered box and computed style.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
pub struct Snapshot {
    /// Schema version the JSON was written with ([`SCHEMA_VERSION`]).
    pub schema_version: u32,
    /// URL of the page after navigation (redirects followed).
    pub url: String,
    /// `document.title`.
    #[serde(default)]
    pub title: String,
    /// `<meta name="description">` content, or empty.
    #[serde(default)]
    pub description: String,
    /// `<meta name="keywords">` content, or empty.
    #[serde(default)]
    pub keywords: String,
    /// `<html lang>`, or empty.
    #[serde(default)]
    pub lang: String,
    /// The encoding Chromium decoded the document with (`document.characterSet`: `UTF-8`,
    /// `windows-1252`, `GBK`, ...), or empty (older snapshots).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub charset: String,
    /// The layout viewport in CSS px.
    pub viewport: Size,
    /// Calls to `document.write`/`open` after parsing that `--offline` ignored (they would
    /// have blanked the page); 0 otherwise.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub document_writes_blocked: u32,
    /// Shadow roots walked (open ones, and closed ones recorded by the before-page script);
    /// their nodes are in `nodes` in flattened-tree order.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub shadow_roots: u32,
    /// Same-origin iframes whose document was walked (nodes under the iframe node).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub frames: u32,
    /// Content segments of React's streaming server rendering (`<div hidden id="S:n">`)
    /// that the snapshot put in their place because the page's inline script that does so
    /// never ran (a saved copy without its scripts, or JavaScript disabled).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub streamed_segments: u32,
    /// Metadata as the document states it (`<meta>`, JSON-LD, `<link rel>`, microdata and
    /// `<time>`), read by [`crate::extract::metadata`]; empty in older snapshots.
    #[serde(default, skip_serializing_if = "Head::is_empty")]
    pub head: Head,
    /// What the walls' recognition reads beyond the nodes (script URLs, vendor globals,
    /// password fields); empty in older snapshots.
    #[serde(default, skip_serializing_if = "Signals::is_empty")]
    pub signals: Signals,
    /// The scrollable document size in CSS px.
    pub document: Size,
    /// Every node in document order; `nodes[0]` is `<body>`; a parent precedes its children.
    pub nodes: Vec<Node>,
}

/// The page's signals for [`crate::walls`], bounded in count and length by the snapshot script.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default, schemars::JsonSchema)]
pub struct Signals {
    /// The `src` of each `<script src>`, as written (up to 64, each cut at 300 characters).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scripts: Vec<String>,
    /// Which of a fixed list of vendor globals (`_cf_chl_opt`, `_pxAppId`, `grecaptcha`,
    /// `__tcfapi`, ...) the page's scripts defined on `window`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub globals: Vec<String>,
    /// Visible `<input type=password>` fields.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub password_inputs: u32,
}

impl Signals {
    /// Nothing recorded.
    pub fn is_empty(&self) -> bool {
        self.scripts.is_empty() && self.globals.is_empty() && self.password_inputs == 0
    }
}

/// The page's stated metadata, bounded in count and length by the snapshot script.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default, schemars::JsonSchema)]
pub struct Head {
    /// `[key, content]` of each `<meta name|property|itemprop content>`; keys lower-cased
    /// (`og:title`, `article:published_time`, `author`, `description`).
    #[serde(default)]
    pub metas: Vec<(String, String)>,
    /// The text of each `<script type="application/ld+json">`.
    #[serde(default)]
    pub json_ld: Vec<String>,
    /// `[rel, absolute href]` of `<link rel>` naming the canonical URL, the author or the
    /// page's image.
    #[serde(default)]
    pub links: Vec<(String, String)>,
    /// `[itemprop, datetime or content attribute, text]` of microdata elements and of
    /// `<time datetime>` (itemprop `time`), in document order.
    #[serde(default)]
    pub items: Vec<(String, String, String)>,
}

impl Head {
    /// Nothing was stated.
    pub fn is_empty(&self) -> bool {
        self.metas.is_empty()
            && self.json_ld.is_empty()
            && self.links.is_empty()
            && self.items.is_empty()
    }
    /// The content of the first `<meta>` with this (lower-case) key.
    pub fn meta(&self, key: &str) -> Option<&str> {
        self.metas
            .iter()
            .find(|(k, v)| k == key && !v.trim().is_empty())
            .map(|(_, v)| v.trim())
    }
    /// Every non-empty content of `<meta>` with this key, in document order.
    pub fn metas<'a>(&'a self, key: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.metas
            .iter()
            .filter(move |(k, v)| k == key && !v.trim().is_empty())
            .map(|(_, v)| v.trim())
    }
}

/// A width and height in CSS px.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Default, schemars::JsonSchema)]
pub struct Size {
    pub width: f64,
    pub height: f64,
}

/// A rectangle in CSS px in document coordinates (the page scrolled to its top).
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Default, schemars::JsonSchema)]
#[serde(from = "[f64; 4]", into = "[f64; 4]")]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

impl From<[f64; 4]> for Rect {
    fn from(a: [f64; 4]) -> Self {
        Rect {
            x: a[0],
            y: a[1],
            w: a[2],
            h: a[3],
        }
    }
}
impl From<Rect> for [f64; 4] {
    fn from(r: Rect) -> Self {
        [r.x, r.y, r.w, r.h]
    }
}
impl Rect {
    /// Right edge.
    pub fn right(&self) -> f64 {
        self.x + self.w
    }
    /// Bottom edge.
    pub fn bottom(&self) -> f64 {
        self.y + self.h
    }
}

fn is_zero(v: &u32) -> bool {
    *v == 0
}
fn is_false(b: &bool) -> bool {
    !*b
}
fn default_display() -> String {
    "block".into()
}
fn is_block(s: &String) -> bool {
    s == "block"
}
fn default_visibility() -> String {
    "visible".into()
}
fn is_visible(s: &String) -> bool {
    s == "visible"
}
fn default_position() -> String {
    "static".into()
}
fn is_static(s: &String) -> bool {
    s == "static"
}
fn one() -> f64 {
    1.0
}
fn is_one(v: &f64) -> bool {
    *v == 1.0
}
fn w400() -> u32 {
    400
}
fn is_400(v: &u32) -> bool {
    *v == 400
}

/// Names the snapshot script gives in [`Node::attrs`] to what it computes, which no page
/// writes as an attribute (kept in step with `js/snapshot.js`; a test checks).
pub mod computed {
    /// An `<li>` of a `<ul>` drawn with numbers: its computed `list-style-type`.
    pub const LIST_STYLE_TYPE: &str = "list-style-type";
    /// An `<img>` whose source did not load (empty value).
    pub const BROKEN: &str = "broken";
    /// An element not displayed, itself or its parent classed a note: its text (a hover note).
    pub const HIDDEN_TEXT: &str = "hidden-text";
    /// An element drawn in a monospace font whose parent's font is not one (empty value).
    pub const FONT_MONO: &str = "font-mono";
    /// Every name above.
    pub const ALL: [&str; 4] = [LIST_STYLE_TYPE, BROKEN, HIDDEN_TEXT, FONT_MONO];
}

/// The attributes the snapshot script copies into [`Node::attrs`] when an element has them
/// (kept in step with `WRITER_ATTRS` in `js/snapshot.js`; a test checks).
pub const WRITER_ATTRS: [&str; 33] = [
    "aria-describedby",
    "aria-hidden",
    "aria-label",
    "checked",
    "colspan",
    "data-callout",
    "data-callout-type",
    "data-code-block-lang",
    "data-code-language",
    "data-component-part",
    "data-footnote-backref",
    "data-footnote-ref",
    "data-lang",
    "data-language",
    "data-mode-id",
    "data-syntax",
    "data-syntaxhighlighter-params",
    "data-type",
    "datetime",
    "display",
    "encoding",
    "height",
    "itemprop",
    "lang",
    "language",
    "name",
    "reversed",
    "rowspan",
    "scope",
    "start",
    "title",
    "type",
    "width",
];

/// One element or text node. Text nodes have `tag == "#text"` and carry `text`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
pub struct Node {
    /// Index of the parent node, or -1 for the root.
    pub parent: i64,
    /// Lower-case tag name, or `#text`.
    pub tag: String,
    /// Text of a text node, whitespace runs collapsed to one space (not trimmed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// The text as written, line breaks and indentation kept, for text whose whitespace
    /// the page preserves (`white-space: pre`, `pre-wrap`, `pre-line`, `break-spaces`: code
    /// blocks, poems); blank text between such nodes is appended to the one before (a
    /// line break between two highlighted tokens). The writers use it for code and line
    /// breaks; every score reads `text`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// Resolved `href`, when the element has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub href: Option<String>,
    /// Resolved `src`, when the element has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub src: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alt: Option<String>,
    /// The `rel` of a link (`<a>`, `<area>`), lower-cased, when it has one (`nofollow`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rel: Option<String>,
    /// Inside (or itself) a link; buttons and select lists count as links (Song §4.1.3).
    #[serde(default, skip_serializing_if = "is_false")]
    pub link: bool,
    /// The attributes the writers read beyond the ones above, as written (values cut at 300
    /// characters): table spans (`colspan`, `rowspan`), list numbering (`start`,
    /// `reversed`), task-list boxes (`checked`), code languages (`data-lang`, `data-language`), titles and labels
    /// (`title`, `aria-label`), `datetime`, footnote markers (`data-footnote-ref`,
    /// `data-footnote-backref`, `aria-describedby`), `itemprop`, and the rest of
    /// [`WRITER_ATTRS`]; and, not attributes, `list-style-type`: the computed numbering
    /// (`decimal`, `lower-alpha`, ...) of an `<li>` of a `<ul>` drawn with numbers,
    /// `broken` (empty) on an `<img>` whose source did not load, and `hidden-text` (cut at
    /// 4,000 characters) on an element not displayed that is, or whose parent is, classed a
    /// note (LaTeXML's hover footnotes). Scores never read them.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub attrs: BTreeMap<String, String>,
    /// The TeX source of a formula, when the page keeps it: KaTeX's
    /// `annotation encoding="application/x-tex"` (on the `.katex` element), MathJax 2's
    /// `<script type="math/tex">` (a `script` node of its own where the formula shows), the
    /// TeX annotation or `alttext` of MathML (on `<math>` or MathJax 3's `mjx-container`).
    /// Values cut at 20,000 characters. Scores never read it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tex: Option<String>,
    /// A formula's presentation MathML as serialized (`outerHTML` of its `<math>`, cut at
    /// 20,000 characters), when it has no TeX; the markdown writer converts it to LaTeX.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mathml: Option<String>,
    /// The formula (`tex` or `mathml`) is shown as a block (KaTeX's `.katex-display`, MathJax's
    /// `mode=display` and `display="true"`, MathML's `display="block"`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub tex_display: bool,
    /// Bounding box in CSS px, document coordinates.
    #[serde(rename = "box", default)]
    pub rect: Rect,
    /// A text drawn on more than one line: the boxes of its first and last lines (CSS px,
    /// document coordinates), where the bounding box cannot say where on a line it starts
    /// and ends. The writers read them to space two texts the layout shows apart.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<[Rect; 2]>,
    /// Computed `display` (elements only).
    #[serde(default = "default_display", skip_serializing_if = "is_block")]
    pub display: String,
    /// Computed `visibility` (elements only).
    #[serde(default = "default_visibility", skip_serializing_if = "is_visible")]
    pub visibility: String,
    /// Computed `position` (elements only): static, relative, absolute, fixed or sticky.
    #[serde(default = "default_position", skip_serializing_if = "is_static")]
    pub position: String,
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub opacity: f64,
    /// Computed font size in px (elements only; 0 for text nodes).
    #[serde(default)]
    pub font_size: f64,
    #[serde(default = "w400", skip_serializing_if = "is_400")]
    pub font_weight: u32,
    /// False for display:none, visibility:hidden, zero-size or off-page boxes, unless a
    /// descendant paints (a collapsed float container still shows its children).
    pub rendered: bool,
}

impl Node {
    /// A text node.
    pub fn is_text(&self) -> bool {
        self.tag == "#text"
    }
    /// An element.
    pub fn is_element(&self) -> bool {
        !self.is_text()
    }
    /// The level of a heading element (`h1` → 1 … `h6` → 6), or `None`.
    pub fn heading_level(&self) -> Option<u8> {
        match self.tag.as_bytes() {
            [b'h', d @ b'1'..=b'6'] => Some(d - b'0'),
            _ => None,
        }
    }
}

impl Snapshot {
    /// Parse and validate the JSON produced by `js/snapshot.js` (or saved with `sightline
    /// snapshot`). `source` names the input in error messages.
    pub fn from_json(json: &str, source: &str) -> Result<Snapshot, Error> {
        let snap: Snapshot = serde_json::from_str(json).map_err(|e| Error::Snapshot {
            source_name: source.to_string(),
            message: e.to_string(),
            source: Some(Box::new(e)),
        })?;
        snap.validate(source)?;
        let mut snap = snap;
        snap.cap_depth(MAX_DEPTH);
        Ok(snap)
    }

    /// Flatten nesting below `max` levels: a node that would sit deeper becomes the next
    /// sibling of its parent (at depth `max`), so text keeps its document order. Chromium's
    /// HTML parser caps nesting at 512 levels the same way; only a script builds deeper trees,
    /// and no algorithm or writer then pays for the depth. Linear in nodes. Returns how many
    /// nodes moved.
    pub fn cap_depth(&mut self, max: usize) -> usize {
        let mut depth = vec![0usize; self.nodes.len()];
        let mut moved = 0;
        for i in 1..self.nodes.len() {
            let mut p = self.nodes[i].parent as usize;
            if depth[p] >= max {
                p = self.nodes[p].parent as usize;
                self.nodes[i].parent = p as i64;
                moved += 1;
            }
            depth[i] = depth[p] + 1;
        }
        moved
    }

    /// Check the invariants scoring relies on: known schema, a root, parents before children.
    pub fn validate(&self, source: &str) -> Result<(), Error> {
        let bad = |message: String| Error::Snapshot {
            source_name: source.to_string(),
            message,
            source: None,
        };
        if self.schema_version != SCHEMA_VERSION {
            return Err(bad(format!(
                "schema_version {} is not supported (this build reads {}); re-create it with `sightline snapshot`",
                self.schema_version, SCHEMA_VERSION
            )));
        }
        if self.nodes.is_empty() {
            return Err(bad("the snapshot has no nodes (no <body>?)".into()));
        }
        for (i, n) in self.nodes.iter().enumerate() {
            if i == 0 && n.parent != -1 {
                return Err(bad("nodes[0] must be the root (parent -1)".into()));
            }
            if i > 0 && (n.parent < 0 || n.parent as usize >= i) {
                return Err(bad(format!(
                    "nodes[{i}].parent {} must point to an earlier node",
                    n.parent
                )));
            }
            if i > 0 && self.nodes[n.parent as usize].is_text() {
                return Err(bad(format!("nodes[{i}] has a text node as parent")));
            }
        }
        Ok(())
    }

    /// Serialize to JSON (the same schema `js/snapshot.js` writes).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a snapshot always serializes")
    }
}

/// The deepest nesting a snapshot keeps ([`Snapshot::cap_depth`]): Chromium's HTML parser's
/// own limit.
pub const MAX_DEPTH: usize = 512;

/// Tags whose content the counting ignores although a snapshot may hold them.
const LINK_TAGS: [&str; 3] = ["a", "button", "select"];

/// Is this a link-like tag (Song §4.1.3: buttons and drop-down lists count as hyperlinks)?
pub fn is_link_tag(tag: &str) -> bool {
    LINK_TAGS.contains(&tag)
}

/// Tags rendered as blocks when no computed display is known, for paragraph breaks in text.
const BLOCK_TAGS: [&str; 36] = [
    "address",
    "article",
    "aside",
    "blockquote",
    "body",
    "dd",
    "details",
    "dialog",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hr",
    "li",
    "main",
    "nav",
    "ol",
    "p",
    "pre",
    "section",
    "table",
    "td",
    "th",
    "tr",
    "ul",
];

/// The snapshot as a tree, with the per-node counts of Song et al. §3.2-3.3 and the word and
/// punctuation counts the other papers use. Built once per snapshot in O(n).
#[derive(Debug, Clone)]
pub struct Tree<'a> {
    pub snap: &'a Snapshot,
    /// Children of each node in document order.
    pub children: Vec<Vec<NodeId>>,
    /// Trimmed character count of each text node's own text (0 for elements).
    pub own_chars: Vec<usize>,
    /// CharNumber C_i: characters of all text in the subtree (text nodes trimmed).
    pub chars: Vec<usize>,
    /// TagNumber T_i: element descendants (not counting the node itself).
    pub tags: Vec<usize>,
    /// LinkCharNumber LC_i: characters of the subtree's text that lies inside links.
    pub link_chars: Vec<usize>,
    /// LinkTagNumber LT_i: link elements (a, button, select) among the descendants.
    pub link_tags: Vec<usize>,
    /// Each node's `:nth-of-type` index among its parent's children, 0 when no sibling shares
    /// its tag: computed once for the whole page, on the first [`Tree::css_path`].
    nth_of_type: OnceLock<Vec<u32>>,
}

impl<'a> Tree<'a> {
    /// Build the tree and its bottom-up counts.
    pub fn new(snap: &'a Snapshot) -> Tree<'a> {
        let n = snap.nodes.len();
        let mut children = vec![Vec::new(); n];
        for (i, node) in snap.nodes.iter().enumerate().skip(1) {
            children[node.parent as usize].push(i);
        }
        let own_chars: Vec<usize> = snap
            .nodes
            .iter()
            .map(|nd| {
                nd.text
                    .as_deref()
                    .map(|t| t.trim().chars().count())
                    .unwrap_or(0)
            })
            .collect();
        let mut chars = own_chars.clone();
        let mut link_chars: Vec<usize> = snap
            .nodes
            .iter()
            .zip(&own_chars)
            .map(|(nd, &c)| if nd.link { c } else { 0 })
            .collect();
        let mut tags = vec![0usize; n];
        let mut link_tags = vec![0usize; n];
        for i in (1..n).rev() {
            let p = snap.nodes[i].parent as usize;
            chars[p] += chars[i];
            link_chars[p] += link_chars[i];
            if snap.nodes[i].is_element() {
                tags[p] += tags[i] + 1;
                link_tags[p] += link_tags[i] + usize::from(is_link_tag(&snap.nodes[i].tag));
            }
        }
        Tree {
            snap,
            children,
            own_chars,
            chars,
            tags,
            link_chars,
            link_tags,
            nth_of_type: OnceLock::new(),
        }
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.snap.nodes.len()
    }
    /// True when the snapshot has no nodes (never after validation).
    pub fn is_empty(&self) -> bool {
        self.snap.nodes.is_empty()
    }
    /// The node with this id.
    pub fn node(&self, id: NodeId) -> &'a Node {
        &self.snap.nodes[id]
    }
    /// Parent id, None for the root.
    pub fn parent(&self, id: NodeId) -> Option<NodeId> {
        let p = self.snap.nodes[id].parent;
        (p >= 0).then_some(p as usize)
    }
    /// Ids of the subtree rooted at `id` (itself first), in document order. Pre-order ids make
    /// every subtree a contiguous range.
    pub fn subtree(&self, id: NodeId) -> std::ops::Range<NodeId> {
        id..self.subtree_end(id)
    }
    /// One past the last id of the subtree of `id`.
    pub fn subtree_end(&self, id: NodeId) -> NodeId {
        let mut end = id + 1;
        let mut cur = id;
        while let Some(&last) = self.children[cur].last() {
            end = last + 1;
            cur = last;
        }
        end
    }
    /// Is `anc` an ancestor of (or equal to) `id`?
    pub fn contains(&self, anc: NodeId, id: NodeId) -> bool {
        id >= anc && id < self.subtree_end(anc)
    }
    /// Ancestors of `id` from its parent up to the root.
    pub fn ancestors(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        std::iter::successors(self.parent(id), move |&p| self.parent(p))
    }
    /// Depth (root = 0).
    pub fn depth(&self, id: NodeId) -> usize {
        self.ancestors(id).count()
    }
    /// All text of the subtree, text nodes joined by single spaces where they were separated
    /// by whitespace, trimmed. Block boundaries are not marked (see `output::text`).
    pub fn text(&self, id: NodeId) -> String {
        let mut out = String::new();
        for i in self.subtree(id) {
            if let Some(t) = &self.snap.nodes[i].text {
                out.push_str(t);
            }
        }
        collapse_ws(&out)
    }
    /// Does this element start a new block (paragraph) in text output? Uses the computed
    /// display, and the tag when the display is inline-level but the tag is a block tag.
    pub fn is_block(&self, id: NodeId) -> bool {
        let n = &self.snap.nodes[id];
        if n.is_text() {
            return false;
        }
        let d = n.display.as_str();
        matches!(
            d,
            "block"
                | "flex"
                | "grid"
                | "list-item"
                | "table"
                | "table-row"
                | "table-caption"
                | "flow-root"
        ) || (d != "inline" && BLOCK_TAGS.contains(&n.tag.as_str()))
            || n.tag == "br"
    }
    /// A CSS selector path from `<body>` to the node, exact in the rendered DOM:
    /// `body > div:nth-of-type(2) > p`. Text nodes get their parent's path.
    ///
    /// Each step is the element's tag, with `:nth-of-type(k)` when a sibling shares the tag;
    /// the root is its bare tag. The indices are computed once for the whole page (linear),
    /// so a path costs its depth.
    pub fn css_path(&self, id: NodeId) -> String {
        let id = if self.snap.nodes[id].is_text() {
            self.parent(id).unwrap_or(0)
        } else {
            id
        };
        let nth = self.nth_of_type();
        let mut steps: Vec<NodeId> = Vec::new();
        let mut cur = id;
        while let Some(p) = self.parent(cur) {
            steps.push(cur);
            cur = p;
        }
        let mut out = self.snap.nodes[cur].tag.clone();
        for &s in steps.iter().rev() {
            out.push_str(" > ");
            out.push_str(&self.snap.nodes[s].tag);
            if nth[s] > 0 {
                use std::fmt::Write as _;
                let _ = write!(out, ":nth-of-type({})", nth[s]);
            }
        }
        out
    }

    /// Each node's `:nth-of-type` index among its siblings (0: its tag is unique there).
    fn nth_of_type(&self) -> &[u32] {
        self.nth_of_type.get_or_init(|| {
            let mut nth = vec![0u32; self.len()];
            let mut count: HashMap<&str, u32> = HashMap::new();
            let mut seen: HashMap<&str, u32> = HashMap::new();
            for kids in self.children.iter().filter(|k| k.len() > 1) {
                count.clear();
                seen.clear();
                for &k in kids {
                    *count.entry(self.snap.nodes[k].tag.as_str()).or_default() += 1;
                }
                for &k in kids {
                    let tag = self.snap.nodes[k].tag.as_str();
                    let s = seen.entry(tag).or_default();
                    *s += 1;
                    if count[tag] > 1 {
                        nth[k] = *s;
                    }
                }
            }
            nth
        })
    }
}

/// Collapse whitespace runs to one space and trim.
pub fn collapse_ws(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut space = false;
    for ch in s.chars() {
        if ch.is_whitespace() {
            space = true;
        } else {
            if space && !out.is_empty() {
                out.push(' ');
            }
            space = false;
            out.push(ch);
        }
    }
    out
}

/// A small builder for hand-made snapshots in tests and examples: elements and text nodes
/// with boxes, in document order.
#[derive(Debug, Clone)]
pub struct SnapshotBuilder {
    snap: Snapshot,
}

impl SnapshotBuilder {
    /// A page of the given viewport width with an empty `<body>` spanning it.
    pub fn new(width: f64) -> Self {
        let body = Node::element(
            -1,
            "body",
            Rect {
                x: 0.0,
                y: 0.0,
                w: width,
                h: 1000.0,
            },
        );
        SnapshotBuilder {
            snap: Snapshot {
                schema_version: SCHEMA_VERSION,
                url: "about:test".into(),
                title: String::new(),
                description: String::new(),
                keywords: String::new(),
                lang: String::new(),
                charset: String::new(),
                viewport: Size {
                    width,
                    height: 900.0,
                },
                document_writes_blocked: 0,
                shadow_roots: 0,
                frames: 0,
                streamed_segments: 0,
                head: Head::default(),
                signals: Signals::default(),
                document: Size {
                    width,
                    height: 1000.0,
                },
                nodes: vec![body],
            },
        }
    }
    /// Add an element under `parent`; returns its id.
    pub fn el(&mut self, parent: NodeId, tag: &str, rect: Rect) -> NodeId {
        let mut n = Node::element(parent as i64, tag, rect);
        n.link = self.snap.nodes[parent].link || is_link_tag(tag);
        self.snap.nodes.push(n);
        self.snap.nodes.len() - 1
    }
    /// Add a text node under `parent` with the parent's box; returns its id.
    pub fn text(&mut self, parent: NodeId, text: &str) -> NodeId {
        let p = &self.snap.nodes[parent];
        let n = Node {
            parent: parent as i64,
            tag: "#text".into(),
            text: Some(text.into()),
            link: p.link,
            rect: p.rect,
            rendered: p.rendered,
            ..Node::element(parent as i64, "#text", p.rect)
        };
        self.snap.nodes.push(n);
        self.snap.nodes.len() - 1
    }
    /// Mutable access to a node (to hide it, set a class, ...).
    pub fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.snap.nodes[id]
    }
    /// Set the page title.
    pub fn title(&mut self, t: &str) -> &mut Self {
        self.snap.title = t.into();
        self
    }
    /// The finished snapshot (validated).
    pub fn build(&self) -> Snapshot {
        self.snap
            .validate("builder")
            .expect("builder makes valid snapshots");
        self.snap.clone()
    }
}

impl Node {
    /// The box of the node's first line (its bounding box unless it is a text drawn on more
    /// than one line, [`Node::lines`]).
    pub fn first_line(&self) -> Rect {
        self.lines.map_or(self.rect, |l| l[0])
    }
    /// The box of the node's last line (see [`Node::first_line`]).
    pub fn last_line(&self) -> Rect {
        self.lines.map_or(self.rect, |l| l[1])
    }
    /// A rendered element with this box and default style.
    pub fn element(parent: i64, tag: &str, rect: Rect) -> Node {
        Node {
            parent,
            tag: tag.into(),
            text: None,
            raw: None,
            id: None,
            class: None,
            role: None,
            href: None,
            src: None,
            alt: None,
            rel: None,
            link: false,
            attrs: BTreeMap::new(),
            tex: None,
            mathml: None,
            tex_display: false,
            rect,
            lines: None,
            display: if tag == "#text" {
                "inline".into()
            } else {
                "block".into()
            },
            visibility: "visible".into(),
            position: "static".into(),
            opacity: 1.0,
            font_size: 16.0,
            font_weight: 400,
            rendered: true,
        }
    }
}

/// Shorthand for a [`Rect`].
pub fn rect(x: f64, y: f64, w: f64, h: f64) -> Rect {
    Rect { x, y, w, h }
}

#[cfg(test)]
pub(crate) mod fixtures;
#[cfg(test)]
mod tests;
