//! Markdown writer (CommonMark with GFM tables and strikethrough): the content subtrees as
//! headings, paragraphs, nested lists, links, emphasis, tables, fenced code blocks and images.
//!
//! It walks the snapshot tree directly instead of feeding [`super::html::render`] to an
//! HTML-to-markdown crate: snapshot text is whitespace-collapsed but not trimmed (`" 1. item "`),
//! and a converter that escapes a text node before trimming it lets such text turn into list
//! items and headings (htmd 0.5.6 does: `<p> 1. item</p>` gives a list). Walking the tree
//! also needs no second parse and no dependency.
//!
//! Rules:
//! - block vs inline: markdown tags decide (`p`, `h1`-`h6`, lists, `pre`, `table`, ... are
//!   blocks; `a`, `em`, `code`, `img`, ... are inline); other tags follow the computed
//!   display ([`Tree::is_block`]). An inline element holding a block (a card link around a
//!   heading) is rendered as a plain container: markdown links cannot hold blocks; but a link
//!   whose blocks are one line of content (an image in a `<div>`, a card of short `<div>`s)
//!   is one inline link.
//! - text is escaped where markdown would read it as syntax: `` \ * ` [ ] ~ `` always, `_` unless
//!   inside a word, `<` before a tag-like character, `&` before an entity, and line starts that
//!   would open a heading, quote, list or rule (`#`, `>`, `-`, `+`, `=`, `1.`, `1)`).
//! - `<pre>`: a fenced code block of the raw text of its kept text nodes, newlines kept when
//!   the snapshot has them (today's snapshot collapses whitespace, so code arrives on one
//!   line); the language comes from a `language-X`/`lang-X` class on `pre` or `code`.
//! - tables: GFM pipe tables, spans repeated; HTML when cells hold blocks; layout tables
//!   unwrapped (see [`tables`]).
//! - images and formulas: the extraction's mask gains the images and formulas of the kept
//!   content, which hold no text ([`images::with_media`]); images are written once per source,
//!   tiny ones dropped (see [`images`]); formulas as `$…$` / `$$…$$` (see [`math`]).
//! - `<br>`: a hard break (`\` at the end of the line), `<br>` inside table cells.
//! - links without text and `javascript:` links keep only their text; `data:` images become
//!   their alt text (a data URI can be megabytes); form controls, scripts and media are skipped.
//! - links and images as [`WriterOptions`] asks (`links.rs`: `--links`, `--images`,
//!   `--base-url`, in-page anchors as `#id`); the headings cut the output into sections
//!   (`sections.rs`, the JSON record's `sections`).

pub(crate) use self::images::with_media;
pub(crate) use self::math::{formula, is_math, is_mathjax_render};

mod article;
mod callouts;
mod code;
mod comments;
mod deflists;
mod emphasis;
mod footnotes;
mod gaps;
mod headings;
mod images;
mod links;
mod math;
mod sections;
#[cfg(test)]
mod structure_tests;
mod syntax;
mod tables;
#[cfg(test)]
mod tests;
mod threads;
mod title;
mod video;

pub use self::sections::Section;
pub use self::syntax::link_item;
use self::syntax::{code_span_delimiter, prefix_lines};
use crate::extract::Extraction;
use crate::output::options::WriterOptions;
use crate::snapshot::{NodeId, Tree};

/// Tags that are always inline, whatever their computed display.
const INLINE: [&str; 33] = [
    "a", "abbr", "b", "bdi", "bdo", "big", "br", "cite", "code", "data", "del", "dfn", "em",
    "font", "i", "img", "ins", "kbd", "mark", "nobr", "picture", "q", "s", "samp", "small",
    "strike", "strong", "sub", "sup", "time", "tt", "u", "var",
];

/// Tags that are markdown blocks (or parts of one), whatever their computed display.
const BLOCK: [&str; 30] = [
    "address",
    "article",
    "aside",
    "blockquote",
    "body",
    "caption",
    "dd",
    "div",
    "dl",
    "dt",
    "figcaption",
    "figure",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "hr",
    "li",
    "ol",
    "p",
    "pre",
    "section",
    "table",
    "tbody",
    "td",
    "tfoot",
    "th",
    "ul",
];

/// Tags whose content is not prose: skipped with their subtree.
const SKIP: [&str; 17] = [
    "audio", "canvas", "datalist", "embed", "head", "iframe", "input", "math", "noscript",
    "object", "optgroup", "option", "script", "select", "style", "template", "textarea",
];

/// How a node takes part in the markdown layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Not written, nor its subtree.
    Skip,
    /// A text node.
    Text,
    /// Inline element: part of the surrounding paragraph.
    Inline,
    /// Block element: starts its own block(s).
    Block,
}

/// What a rendered block is, for joining list items and checking table cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BlockKind {
    Para,
    List,
    /// A heading, from this element: a section starts here ([`sections`]).
    Heading(NodeId),
    Other,
}

#[derive(Debug)]
struct Block {
    kind: BlockKind,
    text: String,
}

/// Inline markdown being built for one paragraph.
#[derive(Debug, Default)]
struct Inline {
    out: String,
    /// Nesting depth of `em`-like and `strong`-like elements (inner ones write no markers).
    em: u32,
    strong: u32,
    strike: u32,
    /// The box of the last text written (to tell texts the layout shows apart).
    last_box: Option<crate::snapshot::Rect>,
}

impl Inline {
    /// Nothing written yet on the current line.
    fn line_empty(&self) -> bool {
        self.out.is_empty() || self.out.ends_with('\n')
    }

    /// Append a text node's text: whitespace runs become one space, a space after a space or
    /// at a line start is dropped, markdown syntax is escaped.
    fn text(&mut self, t: &str) {
        let mut collapsed = String::with_capacity(t.len());
        let mut space = false;
        for c in t.chars() {
            if c.is_whitespace() {
                space = true;
            } else {
                if space {
                    collapsed.push(' ');
                }
                space = false;
                collapsed.push(c);
            }
        }
        if space {
            collapsed.push(' ');
        }
        let line_start = self.line_empty();
        let t = if line_start || self.out.ends_with(' ') {
            collapsed.trim_start_matches(' ')
        } else {
            collapsed.as_str()
        };
        if t.is_empty() {
            return;
        }
        let prev = self.out.chars().next_back();
        math::text_with_tex(&mut self.out, t, prev, line_start);
    }

    /// A hard line break (`<br>`); none at the start of a line (markdown has no empty lines
    /// inside a paragraph).
    fn hard_break(&mut self) {
        self.trim_end_spaces();
        if !self.line_empty() {
            self.out.push_str("\\\n");
        }
    }

    fn trim_end_spaces(&mut self) {
        let n = self.out.trim_end_matches(' ').len();
        self.out.truncate(n);
    }

    /// The paragraph so far, without trailing spaces or breaks, its emphasis that CommonMark
    /// would not read written as HTML ([`emphasis::repair`]); the builder is emptied.
    fn take(&mut self) -> String {
        loop {
            self.trim_end_spaces();
            if self.out.ends_with("\\\n") {
                self.out.truncate(self.out.len() - 2);
            } else if self.out.ends_with('\n') {
                self.out.truncate(self.out.len() - 1);
            } else {
                break;
            }
        }
        emphasis::repair(std::mem::take(&mut self.out))
    }
}

struct Writer<'t, 'a> {
    tree: &'t Tree<'a>,
    /// The extraction's mask with the content's images and formulas ([`with_media`]), plus
    /// the footnote definitions its references point at and the code blocks, videos and side
    /// notes between kept texts.
    kept: std::borrow::Cow<'t, [bool]>,
    /// Nodes never written: code gutters, copy buttons, language labels, footnote backlinks.
    hide: Vec<bool>,
    /// Nodes written elsewhere: footnote definitions and their sections (at the end).
    moved: Vec<bool>,
    notes: footnotes::Notes,
    /// The code blocks, with the languages found in their visible labels.
    code: code::CodeBlocks,
    headings: headings::Levels,
    /// Reader comments' author elements (written in bold).
    authors: std::collections::HashSet<NodeId>,
    /// Does any node hide or move (else content roots need no ancestor check)?
    hiding: bool,
    /// Does the page have a quote or callout (else content roots need no ancestor check)?
    quotes: bool,
    /// Lists whose items carry their numbers as text (a reference list's `<span
    /// class="label">1.</span>`): written ordered, the labels hidden ([`number_labels`]).
    labelled: std::collections::HashSet<NodeId>,
    /// Image sources written so far (each once).
    seen: std::cell::RefCell<std::collections::HashSet<String>>,
    /// Does the node's kept subtree (below it) hold a block element?
    has_block: Vec<bool>,
    /// Elements open in the recursive descent (see [`MAX_DEPTH`]).
    depth: std::cell::Cell<usize>,
    /// How links and images are written, and the reference list ([`links`]).
    links: links::Links,
    /// The page's title when the writer added it or a paragraph marks it ([`title`]).
    title: Option<NodeId>,
}

/// The longest text of a link whose blocks are written as one inline link
/// ([`Writer::flat_link`]).
const FLAT_LINK_MAX_CHARS: usize = 300;

/// How deep the writer descends into nested elements; below that, a subtree's text is written
/// as plain text (no markdown structure), walked without recursion, so that a page nested
/// 100,000 levels deep cannot overflow the stack of a 2 MiB worker thread.
const MAX_DEPTH: usize = 96;

impl<'t, 'a> Writer<'t, 'a> {
    fn new(tree: &'t Tree<'a>, ex: &'t Extraction, opts: &WriterOptions) -> Self {
        let n = tree.len();
        let mut kept: std::borrow::Cow<[bool]> =
            std::borrow::Cow::Owned(with_media(tree, &ex.kept));
        gaps::keep_between(tree, &mut kept);
        article::with_article_rest(tree, &mut kept);
        gaps::keep_sections(tree, &mut kept);
        threads::with_replies(tree, &mut kept);
        article::complete_lists(tree, &mut kept);
        article::complete_terms(tree, &mut kept);
        article::complete_key_values(tree, &mut kept);
        notion_lists(tree, &mut kept);
        images::caption_figures(tree, kept.to_mut());
        tables::keep_div_tables(tree, &mut kept);
        // A callout without a kind is written whole (its emoji holds no text to score); the
        // outermost one of nested boxes, so that each node is visited once.
        let mut i = 1;
        while i < n {
            if !callouts::plain_box(tree.node(i)) {
                i += 1;
                continue;
            }
            let end = tree.subtree_end(i);
            if (i..end).any(|d| kept[d]) {
                for (d, kd) in kept.to_mut()[i..end].iter_mut().enumerate() {
                    *kd |= tree.node(i + d).rendered;
                }
            }
            i = end;
        }
        let title = title::with_title(tree, kept.to_mut());
        let mut hide = vec![false; n];
        let mut moved = vec![false; n];
        let notes = footnotes::Notes::find(tree, &mut kept, &mut hide, &mut moved);
        let code = code::prepare(tree, &mut kept, &mut hide);
        let authors = comments::prepare(tree, &kept, &mut hide);
        comments::hide_quote_attributions(tree, &kept, &mut hide);
        hide_marked(tree, &mut hide);
        hide_navigation_titles(tree, &kept, &mut hide);
        let labelled = number_labels(tree, &kept, &mut hide);
        let headings = headings::Levels::new(tree, &kept, &hide, &moved, title);
        let hiding = hide.iter().chain(&moved).any(|&h| h);
        let quotes = tree.snap.nodes.iter().any(quote_or_callout);
        // In-page anchors resolve to what the writer shows (the article's rest too).
        let links = links::Links::new(tree, &kept, opts);
        let mut w = Writer {
            tree,
            kept,
            hide,
            moved,
            notes,
            code,
            headings,
            authors,
            hiding,
            quotes,
            labelled,
            seen: Default::default(),
            has_block: vec![false; n],
            depth: std::cell::Cell::new(0),
            links,
            title,
        };
        for id in (1..n).rev() {
            if !w.kept[id] || w.hide[id] || w.notes.is_ref(id) {
                continue;
            }
            let base = w.base_kind(id);
            if base == Kind::Skip {
                continue;
            }
            if w.has_block[id] && w.flat_link(id) {
                w.has_block[id] = false;
            }
            if let Some(p) = tree.parent(id) {
                // A formula is written whole, whatever its rendering's boxes.
                let inner = w.has_block[id] && !math::is_math(tree.node(id));
                w.has_block[p] |= inner || base == Kind::Block;
            }
        }
        w
    }

    /// Is this a link whose blocks are one line of content, written as one inline link: an
    /// image in a `<div>` (Substack's image links), a card of short `<div>`s (Ghost's bookmark
    /// cards)? Not when it holds a heading, a list, a table, code, a quote or a paragraph (a
    /// card link around an article's teaser keeps its blocks), nor over
    /// [`FLAT_LINK_MAX_CHARS`] characters.
    fn flat_link(&self, id: NodeId) -> bool {
        let n = self.tree.node(id);
        n.tag == "a"
            && n.href.is_some()
            && self.tree.chars[id] <= FLAT_LINK_MAX_CHARS
            && !self.tree.subtree(id).skip(1).any(|d| {
                self.kept[d]
                    && matches!(
                        self.tree.node(d).tag.as_str(),
                        "h1" | "h2"
                            | "h3"
                            | "h4"
                            | "h5"
                            | "h6"
                            | "p"
                            | "ul"
                            | "ol"
                            | "li"
                            | "dl"
                            | "table"
                            | "pre"
                            | "blockquote"
                            | "figure"
                            | "a"
                    )
            })
    }

    /// The node's kind from its tag and display alone.
    fn base_kind(&self, id: NodeId) -> Kind {
        let n = self.tree.node(id);
        let tag = n.tag.as_str();
        if n.is_text() {
            Kind::Text
        } else if math::is_math(n) {
            Kind::Inline
        } else if video::is_video(n) {
            Kind::Block
        } else if SKIP.contains(&tag) || tag == "svg" || math::is_mathjax_render(n) {
            Kind::Skip
        } else if tag == "code" && code::is_block_code(self.tree, id) {
            Kind::Block
        } else if INLINE.contains(&tag) {
            Kind::Inline
        } else if BLOCK.contains(&tag) || tag == "tr" || tag == "thead" || self.tree.is_block(id) {
            Kind::Block
        } else {
            Kind::Inline
        }
    }

    /// The node's kind, an inline element holding a block counting as a block.
    fn kind(&self, id: NodeId) -> Kind {
        if self.notes.is_ref(id) {
            return Kind::Inline;
        }
        match self.base_kind(id) {
            Kind::Inline if self.has_block[id] && !math::is_math(self.tree.node(id)) => Kind::Block,
            k => k,
        }
    }

    /// Is the node, or an ancestor, hidden or written elsewhere? (For content roots, whose
    /// ancestors the descent did not pass.)
    fn gone(&self, id: NodeId) -> bool {
        self.hide[id]
            || self.moved[id]
            || (self.hiding
                && self
                    .tree
                    .ancestors(id)
                    .any(|a| self.hide[a] || self.moved[a]))
    }

    /// Kept children of a node.
    fn kids(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        self.tree.children[id]
            .iter()
            .copied()
            .filter(|&k| self.kept[k] && !self.hide[k] && !self.moved[k])
    }

    /// Render a sequence of sibling nodes as blocks: inline runs become paragraphs.
    fn container(&self, ids: impl Iterator<Item = NodeId>, blocks: &mut Vec<Block>) {
        let mut inl = Inline::default();
        let mut ids = ids.peekable();
        while let Some(c) = ids.next() {
            match self.kind(c) {
                Kind::Skip => {}
                Kind::Block => {
                    flush(&mut inl, blocks);
                    // Notion's list items are sibling blocks with no list around them.
                    if let Some(ordered) = notion_item(self.tree.node(c)) {
                        let mut items = vec![c];
                        while let Some(&d) = ids.peek() {
                            if notion_item(self.tree.node(d)) != Some(ordered) {
                                break;
                            }
                            items.push(d);
                            ids.next();
                        }
                        self.items(&items, ordered, 1, blocks);
                        continue;
                    }
                    self.block(c, blocks);
                }
                Kind::Text | Kind::Inline => self.inline(c, &mut inl),
            }
        }
        flush(&mut inl, blocks);
    }

    fn children_blocks(&self, id: NodeId) -> Vec<Block> {
        let mut b = Vec::new();
        self.container(self.kids(id), &mut b);
        b
    }

    /// The kept text of a subtree, in document order, into `inl` (iterative: the fallback of
    /// [`MAX_DEPTH`]).
    fn flat_text(&self, id: NodeId, inl: &mut Inline) {
        let mut stack = vec![id];
        while let Some(id) = stack.pop() {
            if self.base_kind(id) == Kind::Skip {
                continue;
            }
            if let Some(t) = &self.tree.node(id).text {
                inl.text(t);
            }
            stack.extend(self.kids(id).collect::<Vec<_>>().into_iter().rev());
        }
    }

    /// Run `f` one level deeper, or None past [`MAX_DEPTH`].
    fn deeper<T>(&self, f: impl FnOnce() -> T) -> Option<T> {
        let d = self.depth.get();
        if d >= MAX_DEPTH {
            return None;
        }
        self.depth.set(d + 1);
        let r = f();
        self.depth.set(d);
        Some(r)
    }

    /// Render one block element.
    fn block(&self, id: NodeId, blocks: &mut Vec<Block>) {
        if self.deeper(|| self.block_at_depth(id, blocks)).is_none() {
            let mut inl = Inline::default();
            self.flat_text(id, &mut inl);
            flush(&mut inl, blocks);
        }
    }

    fn block_at_depth(&self, id: NodeId, blocks: &mut Vec<Block>) {
        let n = self.tree.node(id);
        if let Some(level) = self.heading_level(id) {
            return self.heading(id, self.headings.level(id, level), blocks);
        }
        if code::is_widget(n)
            || code::code_element(self.tree, id)
            || code::code_div(self.tree, id)
            || code::mono_block(self.tree, id)
            || code::mono_list(self.tree, id)
        {
            return self.code_block(id, blocks);
        }
        if let Some(kind) = callouts::kind(n).or_else(|| callouts::legacy_kind(self.tree, id)) {
            return self.callout(id, kind, blocks);
        }
        if tables::is_div_table(self.tree, id) {
            return tables::table(self, id, blocks);
        }
        match n.tag.as_str() {
            "ul" | "ol" => self.list(id, blocks),
            _ if n.role.as_deref() == Some("list") => self.list(id, blocks),
            "dl" => self.definition_list(id, blocks),
            "pre" | "code" => self.code_block(id, blocks),
            "iframe" | "video" | "embed" | "object" => self.video(id, blocks),
            _ if comments::is_quote(n) || callouts::plain_box(n) => {
                let inner = join(&self.children_blocks(id));
                if !inner.is_empty() {
                    blocks.push(Block {
                        kind: BlockKind::Other,
                        text: prefix_lines(&inner, "> ", "> "),
                    });
                }
            }
            "table" => tables::table(self, id, blocks),
            "hr" => blocks.push(Block {
                kind: BlockKind::Other,
                text: "---".into(),
            }),
            _ => self.container(self.kids(id), blocks),
        }
    }

    /// The level of a heading element, or 1 for the page's title ([`title`]).
    fn heading_level(&self, id: NodeId) -> Option<u8> {
        if self.title == Some(id) {
            return Some(1);
        }
        if let Some(l) = self.headings.styled(id) {
            return Some(l);
        }
        self.tree.node(id).heading_level()
    }

    /// Is node `id` in the page's title (whose links are written as their text)?
    fn in_title(&self, id: NodeId) -> bool {
        self.title.is_some_and(|t| self.tree.contains(t, id))
    }

    /// Is node `id` inside a heading element?
    fn in_heading(&self, id: NodeId) -> bool {
        self.tree
            .ancestors(id)
            .any(|a| self.tree.node(a).heading_level().is_some())
    }

    /// `# Title`: the heading's content on one line.
    fn heading(&self, id: NodeId, level: u8, blocks: &mut Vec<Block>) {
        let level = usize::from(level);
        // The title found in a link (Hacker News's `titleline`) is written as that link.
        let parts = if self.title == Some(id) && self.tree.node(id).tag == "a" {
            let mut inl = Inline::default();
            self.link(id, &mut inl);
            let mut b = Vec::new();
            flush(&mut inl, &mut b);
            b
        } else {
            self.children_blocks(id)
        };
        let mut text = parts
            .iter()
            .map(|b| b.text.replace("\\\n", " ").replace('\n', " "))
            .collect::<Vec<_>>()
            .join(" ");
        if text.is_empty() {
            return;
        }
        // A heading's text is never a list: `## 1. Introduction` needs no `1\.` (RFCs, specs
        // and manuals number their sections so).
        let digits = text.len() - text.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if digits > 0 && text[digits..].starts_with("\\.") {
            text.remove(digits);
        }
        // A trailing `#` run would be read as the closing sequence.
        if text.ends_with('#') {
            let at = text.trim_end_matches('#').len();
            text.insert(at, '\\');
        }
        blocks.push(Block {
            kind: BlockKind::Heading(id),
            text: format!("{} {text}", "#".repeat(level)),
        });
    }

    /// Does every kept item of the list open with a heading (Javadoc's `ul.member-list > li >
    /// section > h3`)? Such a list only stacks sections: its items are written as blocks.
    fn sectioning_list(&self, id: NodeId) -> bool {
        self.every_item(id, |li| {
            self.tree
                .subtree(li)
                .find(|&d| self.kept[d] && self.tree.own_chars[d] > 0)
                .is_some_and(|t| {
                    self.tree
                        .ancestors(t)
                        .take_while(|&a| a != li)
                        .any(|a| self.tree.node(a).heading_level().is_some())
                })
        })
    }

    /// Does the list have a kept `<li>`, and does `f` hold for each?
    fn every_item(&self, id: NodeId, f: impl Fn(NodeId) -> bool) -> bool {
        let mut items = self
            .kids(id)
            .filter(|&c| self.tree.node(c).tag == "li")
            .peekable();
        items.peek().is_some() && items.all(f)
    }

    /// A gallery marked up as a list (a shop's product images, a carousel's slides): every
    /// item kept shows an image and no kept text. Its images are written one after another,
    /// not as list items.
    fn gallery_list(&self, id: NodeId) -> bool {
        self.every_item(id, |li| {
            let (mut image, mut text) = (false, false);
            for d in self.tree.subtree(li).filter(|&d| self.kept[d]) {
                image |= self.tree.node(d).tag == "img";
                text |= self.tree.own_chars[d] > 0;
            }
            image && !text
        })
    }

    /// Is every kept item of this `<ul>` drawn with a number (the snapshot's computed
    /// `list-style-type`)? Then it is an ordered list, as the reader sees it.
    fn numbered_items(&self, id: NodeId) -> bool {
        self.every_item(id, |li| {
            self.tree
                .node(li)
                .attrs
                .contains_key(crate::snapshot::computed::LIST_STYLE_TYPE)
        })
    }

    /// `- item` / `1. item`, nested content indented under the marker.
    fn list(&self, id: NodeId, blocks: &mut Vec<Block>) {
        if self.sectioning_list(id) || self.gallery_list(id) {
            for li in self.kids(id) {
                self.container(self.kids(li), blocks);
            }
            return;
        }
        // An ARIA list of steps (Mintlify's `data-component-part="steps"`) is numbered.
        let node = self.tree.node(id);
        let ordered = node.tag == "ol"
            || self.labelled.contains(&id)
            || self.numbered_items(id)
            || (node.tag != "ul"
                && (node.class.iter().chain(node.attrs.values()))
                    .any(|v| v.to_ascii_lowercase().contains("step")));
        // `<ol start>`: the first item's number.
        let start = (self.tree.node(id).attrs.get("start"))
            .and_then(|v| v.trim().parse::<i64>().ok())
            .filter(|n| (0..1_000_000_000).contains(n))
            .unwrap_or(1);
        let kids: Vec<NodeId> = self.kids(id).collect();
        self.items(&kids, ordered, start, blocks);
    }

    /// A list of these items (`li`s, or blocks written as items), numbered from `start` when
    /// ordered.
    fn items(&self, kids: &[NodeId], ordered: bool, start: i64, blocks: &mut Vec<Block>) {
        let mut items = Vec::new();
        for &c in kids {
            let parts = match self.kind(c) {
                Kind::Skip => continue,
                Kind::Block
                    if self.tree.node(c).tag == "li"
                        || self.tree.node(c).role.as_deref() == Some("listitem")
                        || notion_item(self.tree.node(c)).is_some() =>
                {
                    self.children_blocks(c)
                }
                _ => {
                    let mut b = Vec::new();
                    self.container(std::iter::once(c), &mut b);
                    b
                }
            };
            let mut body = String::new();
            for (i, b) in parts.iter().enumerate() {
                if i > 0 {
                    // A nested list follows its item's text without a blank line (tight list).
                    body.push_str(if b.kind == BlockKind::List {
                        "\n"
                    } else {
                        "\n\n"
                    });
                }
                body.push_str(&b.text);
            }
            if body.is_empty() {
                continue;
            }
            if let Some(done) = self.task_box(c) {
                body = format!("[{}] {body}", if done { 'x' } else { ' ' });
            }
            let marker = if ordered {
                format!("{}. ", start + items.len() as i64)
            } else {
                "- ".to_string()
            };
            let indent = " ".repeat(marker.len());
            items.push(prefix_lines(&body, &marker, &indent));
        }
        if !items.is_empty() {
            blocks.push(Block {
                kind: BlockKind::List,
                text: items.join("\n"),
            });
        }
    }

    /// A task-list item's box (GitHub's `<li><input type="checkbox" checked>`): ticked or not;
    /// None for an ordinary item. The box is looked for first in the item; in a list classed as
    /// a task list whose boxes are drawn by CSS (Confluence's `ul.inline-task-list`), an item
    /// classed `checked` is ticked.
    fn task_box(&self, li: NodeId) -> Option<bool> {
        let drawn = self.tree.parent(li).is_some_and(|ul| {
            self.tree.node(ul).class.as_deref().is_some_and(|c| {
                c.split_whitespace()
                    .any(|t| matches!(t, "inline-task-list" | "task-list" | "checklist"))
            })
        });
        let has_input = self
            .tree
            .subtree(li)
            .any(|k| self.tree.node(k).tag == "input");
        if drawn && !has_input {
            return Some(self.tree.node(li).class.as_deref().is_some_and(|c| {
                c.split_whitespace()
                    .any(|t| matches!(t, "checked" | "is-checked" | "done" | "completed"))
            }));
        }
        self.tree
            .subtree(li)
            .skip(1)
            .take(4)
            .map(|k| self.tree.node(k))
            .find(|n| {
                n.tag == "input"
                    && n.attrs
                        .get("type")
                        .is_some_and(|t| t.eq_ignore_ascii_case("checkbox"))
            })
            .map(|n| n.attrs.contains_key("checked"))
    }

    /// Render an inline node (text or inline element) into the paragraph being built.
    fn inline(&self, id: NodeId, inl: &mut Inline) {
        if self.deeper(|| self.inline_at_depth(id, inl)).is_none() {
            self.flat_text(id, inl);
        }
    }

    fn inline_at_depth(&self, id: NodeId, inl: &mut Inline) {
        let n = self.tree.node(id);
        if let Some(label) = self.notes.label(id) {
            inl.out.push_str("[^");
            inl.out.push_str(label);
            inl.out.push(']');
            inl.last_box = Some(n.rect);
            return;
        }
        if let Some(t) = &n.text {
            // Texts the layout shows apart are two words, as in the text writer; not right
            // after a marker ("[" or "*" may open what this text is in).
            let before = inl.out.chars().next_back();
            if let Some(prev) = inl.last_box {
                if !before.is_some_and(|c| "[*~_`".contains(c))
                    && super::text::space_between(before, prev, t, n.first_line())
                {
                    inl.out.push(' ');
                }
            }
            inl.last_box = Some(n.last_line());
            inl.text(t);
            return;
        }
        if math::is_math(n) {
            if let Some((tex, display)) = math::formula(n) {
                math::write(inl, &tex, display);
                // The text after it keeps its own spacing (the rendering's boxes are not text).
                inl.last_box = None;
            }
            return;
        }
        if inl.strong == 0 && !self.authors.is_empty() && self.authors.contains(&id) {
            inl.strong += 1;
            self.wrap(id, inl, "**", "**");
            inl.strong -= 1;
            return;
        }
        match n.tag.as_str() {
            "br" => inl.hard_break(),
            "img" => images::image(self, n, inl),
            "code" | "kbd" | "samp" | "tt" => self.code_span(id, inl),
            _ if code::mono_span(self.tree, id) => self.code_span(id, inl),
            "em" | "i" | "cite" | "dfn" | "var" if inl.em == 0 => {
                inl.em += 1;
                self.wrap(id, inl, "*", "*");
                inl.em -= 1;
            }
            "strong" | "b" if inl.strong == 0 => {
                inl.strong += 1;
                self.wrap(id, inl, "**", "**");
                inl.strong -= 1;
            }
            "q" => {
                // The page's quote marks are CSS: the text after the quote follows the box.
                self.wrap(id, inl, "\"", "\"");
                inl.last_box = Some(n.rect);
            }
            "del" | "s" | "strike" if inl.strike == 0 => {
                inl.strike += 1;
                self.wrap(id, inl, "~~", "~~");
                inl.strike -= 1;
            }
            // Superscripts and subscripts stay what they are (`m<sup>2</sup>`, `CO<sub>2</sub>`,
            // a citation's `<sup>[1]</sup>`): markdown has no syntax for them and GFM renders
            // the HTML. Not around a footnote reference, which is `[^n]` itself.
            "sup" | "sub" if !self.tree.subtree(id).any(|d| self.notes.is_ref(d)) => {
                let (open, close) = if n.tag == "sup" {
                    ("<sup>", "</sup>")
                } else {
                    ("<sub>", "</sub>")
                };
                self.wrap(id, inl, open, close);
            }
            "a" if n.href.is_some() => self.link(id, inl),
            _ => self.inline_children(id, inl),
        }
    }

    fn inline_children(&self, id: NodeId, inl: &mut Inline) {
        for c in self.kids(id) {
            match self.kind(c) {
                Kind::Skip => {}
                _ => self.inline(c, inl),
            }
        }
    }

    /// Render the children, then put `open`/`close` around them, with the spaces and hard
    /// breaks at their edges moved outside (`** bold **` is not emphasis). Only those edges
    /// are written when the content is empty.
    fn wrap(&self, id: NodeId, inl: &mut Inline, open: &str, close: &str) {
        self.wrap_with(inl, &|w, inl| w.inline_children(id, inl), open, close);
    }

    /// [`Writer::wrap`] around what `content` writes.
    fn wrap_with(
        &self,
        inl: &mut Inline,
        content: &dyn Fn(&Self, &mut Inline),
        open: &str,
        close: &str,
    ) {
        let start = inl.out.len();
        content(self, inl);
        let inner = inl.out.split_off(start);
        let mut body = inner.as_str();
        loop {
            body = body.trim_start_matches(' ');
            match body.strip_prefix("\\\n") {
                Some(rest) => body = rest,
                None => break,
            }
        }
        let head = &inner[..inner.len() - body.len()];
        loop {
            body = body.trim_end_matches(' ');
            match body.strip_suffix("\\\n") {
                Some(rest) => body = rest,
                None => break,
            }
        }
        let tail = &inner[head.len() + body.len()..];
        inl.out.push_str(head);
        if !body.is_empty() {
            inl.out.push_str(open);
            inl.out.push_str(body);
            inl.out.push_str(close);
        }
        inl.out.push_str(tail);
    }

    /// `` `code` ``: the raw text of the subtree, whitespace collapsed, no escaping. A code
    /// element whose text is one link's (`<code><a href>forward_range</a></code>`:
    /// cppreference, Javadoc) is that link around the code: ``[`forward_range`](url)``.
    fn code_span(&self, id: NodeId, inl: &mut Inline) {
        let n = self.tree.node(id);
        if !n.link && self.tree.link_chars[id] > 0 {
            let mut links = self
                .tree
                .subtree(id)
                .skip(1)
                .filter(|&d| self.tree.node(d).tag == "a" && self.tree.node(d).href.is_some());
            if let (Some(a), None) = (links.next(), links.next()) {
                if self.tree.text(a).trim() == self.tree.text(id).trim() {
                    return self.link_around(a, inl, &|w, inl| w.code_span_text(id, inl));
                }
            }
        }
        self.code_span_text(id, inl);
    }

    /// A code span's text (see [`Writer::code_span`]).
    fn code_span_text(&self, id: NodeId, inl: &mut Inline) {
        let mut raw = String::new();
        for i in self.tree.subtree(id).skip(1) {
            if let (true, Some(t)) = (self.kept[i], &self.tree.node(i).text) {
                raw.push_str(t);
            }
        }
        let code = crate::snapshot::collapse_ws(&raw);
        let lead = raw.starts_with(char::is_whitespace);
        let trail = raw.ends_with(char::is_whitespace);
        if lead && !inl.line_empty() && !inl.out.ends_with(' ') {
            inl.out.push(' ');
        }
        if code.is_empty() {
            return;
        }
        let d = code_span_delimiter(&code);
        let pad = if code.starts_with('`') || code.ends_with('`') {
            " "
        } else {
            ""
        };
        inl.out.push_str(&format!("{d}{pad}{code}{pad}{d}"));
        if trail {
            inl.out.push(' ');
        }
    }

    /// All content roots, in document order; inline roots that share a block ancestor
    /// form one paragraph.
    fn roots(&self) -> Vec<Block> {
        let mut blocks = Vec::new();
        let mut inl = Inline::default();
        let mut cur = None;
        let mut last_code = None;
        let roots = (0..self.tree.len())
            .filter(|&i| self.kept[i] && self.tree.parent(i).is_none_or(|p| !self.kept[p]));
        // Roots inside a quote or callout the extraction did not keep whole are written in it.
        let mut quote: Option<(NodeId, Vec<Block>)> = None;
        for r in roots {
            let q = self.quote_around(r);
            if quote.as_ref().map(|x| x.0) != q {
                cur = None;
                match quote.take() {
                    Some((qid, mut inner)) => {
                        flush(&mut inl, &mut inner);
                        self.push_quote(qid, inner, &mut blocks);
                    }
                    None => flush(&mut inl, &mut blocks),
                }
                if let Some(qid) = q {
                    quote = Some((qid, Vec::new()));
                }
            }
            let out = match quote.as_mut() {
                Some((_, inner)) => inner,
                None => &mut blocks,
            };
            if self.gone(r) {
                continue;
            }
            // Text kept inside a code block: the whole block, once.
            if let Some(c) = self.code.around(self.tree, r) {
                if last_code != Some(c) {
                    last_code = Some(c);
                    flush(&mut inl, out);
                    self.block(c, out);
                }
                continue;
            }
            // The page's title found in an inline element (Hacker News's title link).
            if self.title == Some(r) && self.kind(r) != Kind::Block {
                flush(&mut inl, out);
                cur = None;
                self.heading(r, 1, out);
                continue;
            }
            match self.kind(r) {
                Kind::Skip => {}
                Kind::Block => {
                    flush(&mut inl, out);
                    self.block(r, out);
                }
                Kind::Text | Kind::Inline => {
                    let b = self
                        .tree
                        .ancestors(r)
                        .find(|&a| self.tree.is_block(a))
                        .unwrap_or(0);
                    if cur != Some(b) {
                        flush(&mut inl, out);
                        cur = Some(b);
                    }
                    self.inline(r, &mut inl);
                }
            }
        }
        match quote.take() {
            Some((qid, mut inner)) => {
                flush(&mut inl, &mut inner);
                self.push_quote(qid, inner, &mut blocks);
            }
            None => flush(&mut inl, &mut blocks),
        }
        blocks
    }

    /// The quote or callout (not kept) a content root is in, when the page has any.
    fn quote_around(&self, r: NodeId) -> Option<NodeId> {
        if !self.quotes {
            return None;
        }
        self.tree
            .ancestors(r)
            .find(|&a| quote_or_callout(self.tree.node(a)))
    }

    /// A quote's or callout's blocks, prefixed.
    fn push_quote(&self, id: NodeId, inner: Vec<Block>, blocks: &mut Vec<Block>) {
        let body = join(&inner);
        if body.is_empty() {
            return;
        }
        let text = match callouts::kind(self.tree.node(id)) {
            Some(k) => format!("> [!{k}]\n{}", prefix_lines(&body, "> ", "> ")),
            None => prefix_lines(&body, "> ", "> "),
        };
        blocks.push(Block {
            kind: BlockKind::Other,
            text,
        });
    }
}

/// End the paragraph being built, if it has any text.
fn flush(inl: &mut Inline, blocks: &mut Vec<Block>) {
    let text = inl.take();
    if !text.is_empty() {
        blocks.push(Block {
            kind: BlockKind::Para,
            text,
        });
    }
}

/// Blocks separated by blank lines.
fn join(blocks: &[Block]) -> String {
    blocks
        .iter()
        .map(|b| b.text.as_str())
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// The content subtrees as markdown with the default [`WriterOptions`] ([`write`]).
pub fn render(tree: &Tree, ex: &Extraction) -> String {
    write(tree, ex, &WriterOptions::default()).markdown
}

/// One run of the markdown writer: the markdown and its sections.
#[derive(Debug, Clone, PartialEq)]
pub struct Markdown {
    /// Blocks separated by blank lines, then the reference list (`links = references`), with
    /// a final newline when not empty.
    pub markdown: String,
    /// The content cut at its headings; each `span` indexes `markdown` in characters.
    pub sections: Vec<Section>,
}

/// The content subtrees as markdown, written as `opts` asks, and its sections.
pub fn write(tree: &Tree, ex: &Extraction, opts: &WriterOptions) -> Markdown {
    let w = Writer::new(tree, ex, opts);
    let (mut md, sections) = w.sections(&w.roots());
    // Footnote definitions, then the reference list: after every section.
    let mut notes = Vec::new();
    w.footnote_definitions(&mut notes);
    for tail in notes
        .iter()
        .map(|b| b.text.clone())
        .chain([w.links.definitions()])
    {
        if !tail.is_empty() {
            md.push_str(if md.is_empty() { "" } else { "\n\n" });
            md.push_str(&tail);
        }
    }
    if !md.is_empty() {
        md.push('\n');
    }
    Markdown {
        markdown: md,
        sections,
    }
}

/// Class tokens of page furniture written into content: equation numbers beside a display
/// formula (Sphinx's and MyST's `span.eqno` with its `#` permalink: the TeX is the formula,
/// its number the page's layout) and MediaWiki's "[edit]" links inside section headings
/// (`mw-editsection`; `editsection` in older skins and wikis such as cppreference).
const HIDDEN_CLASSES: [&str; 4] = [
    "eqno",
    "mw-editsection",
    "editsection",
    // Notion's list marker (a CSS bullet, or the item's number as text): the list writes it.
    "notion-list-item-box-left",
];

/// A node's class tokens (the writers' one reading of `class`).
pub(super) fn class_tokens(n: &crate::snapshot::Node) -> impl Iterator<Item = &str> {
    n.class.as_deref().unwrap_or("").split_whitespace()
}

/// Notion's list items holding kept text join the mask with their parent and the elements
/// between them and the kept text, so that the writer meets them side by side and writes them
/// as one list ([`notion_item`]).
fn notion_lists(tree: &Tree, kept: &mut std::borrow::Cow<[bool]>) {
    let n = tree.len();
    let items: Vec<NodeId> = (1..n)
        .filter(|&i| notion_item(tree.node(i)).is_some())
        .collect();
    if items.is_empty() {
        return;
    }
    // The parents of items holding kept text; then every kept text under such a parent brings
    // the elements up to it, so that the parent writes its items and the rest in page order.
    let mut parents: Vec<NodeId> = items
        .iter()
        .filter(|&&item| (item..tree.subtree_end(item)).any(|d| kept[d] && tree.node(d).is_text()))
        .filter_map(|&item| tree.parent(item))
        .collect();
    parents.dedup();
    let mut add = Vec::new();
    for p in parents {
        add.push(p);
        for t in (p..tree.subtree_end(p)).filter(|&d| kept[d] && tree.node(d).is_text()) {
            add.extend(tree.ancestors(t).take_while(|&a| a > p));
        }
    }
    let k = kept.to_mut();
    for i in add {
        k[i] = true;
    }
}

/// A Notion list item (`div.notion-bulleted_list-block`, `notion-numbered_list-block`,
/// `notion-to_do-block`): whether its list is ordered.
fn notion_item(n: &crate::snapshot::Node) -> Option<bool> {
    class_tokens(n).find_map(|t| match t {
        "notion-bulleted_list-block" | "notion-to_do-block" => Some(false),
        "notion-numbered_list-block" => Some(true),
        _ => None,
    })
}

/// Is node `n` written as a quote or a callout ([`comments::is_quote`], a callout, a plain
/// box)?
fn quote_or_callout(n: &crate::snapshot::Node) -> bool {
    comments::is_quote(n) || callouts::kind(n).is_some() || callouts::plain_box(n)
}

/// The largest side of a box drawn for screen readers only (the `sr-only`,
/// `screen-reader-text`, `visually-hidden` pattern: 1 x 1 px, clipped): what it holds, a
/// reader of the page never sees.
const SCREEN_READER_SIDE: f64 = 1.5;

/// Is the box at most a pixel each way (a screen-reader box, [`SCREEN_READER_SIDE`])?
pub(super) fn pixel_box(r: &crate::snapshot::Rect) -> bool {
    r.w <= SCREEN_READER_SIDE && r.h <= SCREEN_READER_SIDE
}

/// Which nodes hold kept text (a kept, non-empty text node at or below them), bottom-up in one
/// pass: the writer's passes that ask whether a block is partly kept share it.
pub(super) fn holds_kept_text(tree: &Tree, kept: &[bool]) -> Vec<bool> {
    let mut below = vec![false; tree.len()];
    for i in (0..tree.len()).rev() {
        below[i] |= kept[i] && tree.node(i).is_text() && tree.own_chars[i] > 0;
        if let (true, Some(p)) = (below[i], tree.parent(i)) {
            below[p] = true;
        }
    }
    below
}

/// Hide a kept heading that only titles a navigation the extraction left out (an RFC's or a
/// wiki's "Table of Contents" above its `nav`): its next shown sibling is a `nav`, a
/// `role="navigation"` or a `toc`-classed element with no kept text, and nothing else of its
/// parent is kept.
fn hide_navigation_titles(tree: &Tree, kept: &[bool], hide: &mut [bool]) {
    let below = holds_kept_text(tree, kept);
    let kept_text = |r: NodeId| below[r];
    for (h, _) in kept.iter().enumerate().skip(1).filter(|(_, &k)| k) {
        if tree.node(h).heading_level().is_none() {
            continue;
        }
        let Some(p) = tree.parent(h) else { continue };
        let sibs = &tree.children[p];
        let at = sibs.iter().position(|&c| c == h).unwrap_or(0);
        let Some(&next) = sibs[at + 1..]
            .iter()
            .find(|&&c| tree.node(c).is_element() && tree.node(c).rendered)
        else {
            continue;
        };
        let navigation = |x: NodeId| {
            let nn = tree.node(x);
            nn.tag == "nav"
                || nn.role.as_deref() == Some("navigation")
                || class_tokens(nn).any(|t| t == "toc")
        };
        // Its next sibling is the navigation, or (CSDN's `div.toc > h3 + ul`) its parent is.
        let titles = (navigation(next) && !kept_text(next)) || navigation(p);
        if titles && !sibs.iter().any(|&c| c != h && kept_text(c)) {
            tree.subtree(h).for_each(|d| hide[d] = true);
        }
    }
}

/// Is element `i` a display formula's number ("(1)", "(2.3)", "(4a)") beside it: its text is
/// such a number and an earlier sibling is or holds a display formula (ScienceDirect's
/// `span.label` after the formula's MathJax script; the TeX is the formula, its number the
/// page's layout)?
fn equation_number(tree: &Tree, i: NodeId) -> bool {
    let n = tree.node(i);
    if !n.is_element() || tree.chars[i] > 12 {
        return false;
    }
    let text = tree.text(i);
    let Some(inner) = text
        .trim()
        .strip_prefix('(')
        .and_then(|t| t.strip_suffix(')'))
    else {
        return false;
    };
    let inner = inner.trim_end_matches(|c: char| c.is_ascii_lowercase());
    let numbered = !inner.is_empty()
        && inner
            .split('.')
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()));
    let Some(p) = tree.parent(i).filter(|_| numbered) else {
        return false;
    };
    tree.children[p].iter().take_while(|&&c| c != i).any(|&c| {
        tree.subtree(c)
            .any(|d| tree.node(d).tex_display && math::is_math(tree.node(d)))
    })
}

/// Hide the elements classed with [`HIDDEN_CLASSES`], text for screen readers only, a forum
/// post's signature ([`comments::signature`]), a display formula's number
/// ([`equation_number`]) and the controls inside a heading
/// ([`hide_heading_controls`]).
fn hide_marked(tree: &Tree, hide: &mut [bool]) {
    let mut i = 1;
    while i < tree.len() {
        let n = tree.node(i);
        let eqno = n
            .class
            .as_deref()
            .is_some_and(|c| c.split_whitespace().any(|t| HIDDEN_CLASSES.contains(&t)));
        // Text for screen readers only: an absolutely placed box of one pixel (the `sr-only`,
        // `screen-reader-text`, `visually-hidden` pattern: WooCommerce's "Original price
        // was: £12.00."). The reader of the page never sees it.
        let screen_reader = n.is_element()
            && matches!(n.position.as_str(), "absolute" | "fixed")
            && pixel_box(&n.rect)
            && tree.chars[i] > 0;
        if eqno || screen_reader || comments::signature(tree, i) || equation_number(tree, i) {
            let end = tree.subtree_end(i);
            hide[i..end].fill(true);
            i = end;
        } else {
            if n.heading_level().is_some() {
                hide_heading_controls(tree, i, hide);
            }
            i += 1;
        }
    }
}

/// The kept lists (`ul`, `ol`) of two items or more whose items each open with their own
/// number as a label of its own (PubMed Central's reference list: `<li><span
/// class="label">1.</span><cite>…`; "[1]" and "1)" too), numbered 1, 2, 3, … in order: the
/// labels are hidden and the list is written ordered. Linear in the page.
fn number_labels(
    tree: &Tree,
    kept: &[bool],
    hide: &mut [bool],
) -> std::collections::HashSet<NodeId> {
    let mut out = std::collections::HashSet::new();
    for (l, _) in kept.iter().enumerate().skip(1).filter(|(_, &k)| k) {
        if !matches!(tree.node(l).tag.as_str(), "ul" | "ol") {
            continue;
        }
        let items: Vec<NodeId> = tree.children[l]
            .iter()
            .copied()
            .filter(|&c| tree.node(c).tag == "li")
            .collect();
        if items.len() < 2 {
            continue;
        }
        let mut labels = Vec::with_capacity(items.len());
        for (k, &li) in items.iter().enumerate() {
            // The item's first text, a few nodes in, alone in its element.
            let Some(t) = tree
                .subtree(li)
                .take(6)
                .find(|&d| tree.node(d).is_text() && tree.own_chars[d] > 0)
            else {
                break;
            };
            // "1." "1)" "[1]": not a bare "1" (a recipe's amount).
            let text = tree.text(t);
            let text = text.trim();
            let digits = text
                .strip_prefix('[')
                .and_then(|t| t.strip_suffix(']'))
                .or_else(|| text.strip_suffix('.'))
                .or_else(|| text.strip_suffix(')'));
            if digits.and_then(|d| d.parse::<usize>().ok()) != Some(k + 1) {
                break;
            }
            let Some(label) = tree
                .parent(t)
                .filter(|&p| p != li && tree.chars[p] == tree.chars[t])
            else {
                break;
            };
            labels.push(label);
        }
        if labels.len() == items.len() {
            for label in labels {
                hide[label..tree.subtree_end(label)].fill(true);
            }
            out.insert(l);
        }
    }
    out
}

/// Is node `n` a control (a button, a select, an input, `role="button"` or a switch)?
fn is_control(n: &crate::snapshot::Node) -> bool {
    matches!(n.tag.as_str(), "button" | "select" | "input" | "textarea")
        || matches!(n.role.as_deref(), Some("button" | "switch" | "tab"))
}

/// Hide the controls inside heading `h` (a recipe card's "1x 2x 3x" servings and "US
/// Customary / Metric" toggles beside "Ingredients") when the heading has text of its own
/// outside them; a heading whose text is all one control (an accordion's `<h3><button>`)
/// keeps it.
fn hide_heading_controls(tree: &Tree, h: NodeId, hide: &mut [bool]) {
    let mut controls = Vec::new();
    let mut j = h + 1;
    let end = tree.subtree_end(h);
    while j < end {
        if is_control(tree.node(j)) {
            controls.push(j);
            j = tree.subtree_end(j);
        } else {
            j += 1;
        }
    }
    let in_controls: usize = controls.iter().map(|&c| tree.chars[c]).sum();
    if controls.is_empty() || tree.chars[h] <= in_controls {
        return;
    }
    for c in controls {
        hide[c..tree.subtree_end(c)].fill(true);
    }
}
