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
//!   heading) is rendered as a plain container: markdown links cannot hold blocks.
//! - text is escaped where markdown would read it as syntax: `` \ * ` [ ] ~ `` always, `_` unless
//!   inside a word, `<` before a tag-like character, `&` before an entity, and line starts that
//!   would open a heading, quote, list or rule (`#`, `>`, `-`, `+`, `=`, `1.`, `1)`).
//! - `<pre>`: a fenced code block of the raw text of its kept text nodes, newlines kept when
//!   the snapshot has them (today's snapshot collapses whitespace, so code arrives on one
//!   line); the language comes from a `language-X`/`lang-X` class on `pre` or `code`.
//! - tables: GFM pipe tables; the first row is the header (promoted when it has no `<th>`).
//!   A table whose cells hold anything but paragraphs (lists, headings, code, nested tables:
//!   a layout table) is rendered cell by cell as ordinary blocks.
//! - `<br>`: a hard break (`\` at the end of the line), `<br>` inside table cells.
//! - links without text and `javascript:` links keep only their text; `data:` images become
//!   their alt text (a data URI can be megabytes); form controls, scripts and media are skipped.

use crate::extract::Extraction;
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
        escape_text(&mut self.out, t, prev, line_start);
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

    /// The paragraph so far, without trailing spaces or breaks; the builder is emptied.
    fn take(&mut self) -> String {
        loop {
            self.trim_end_spaces();
            if self.out.ends_with("\\\n") {
                self.out.truncate(self.out.len() - 2);
            } else {
                break;
            }
        }
        std::mem::take(&mut self.out)
    }
}

/// Escape `t` for markdown inline text and append it. `prev` is the character written
/// before it; `line_start` says `t` begins a line.
fn escape_text(out: &mut String, t: &str, prev: Option<char>, line_start: bool) {
    let chars: Vec<char> = t.chars().collect();
    // Index of a character to escape because of what the line starts with.
    let mut escape_at = None;
    if line_start {
        let after = |i: usize| chars.get(i).is_none_or(|&c| c == ' ');
        match chars[0] {
            '#' => {
                let run = chars.iter().take_while(|&&c| c == '#').count();
                if run <= 6 && after(run) {
                    escape_at = Some(0);
                }
            }
            '>' => escape_at = Some(0),
            c @ ('-' | '+' | '=') if after(1) || chars[1] == c => escape_at = Some(0),
            '0'..='9' => {
                let digits = chars.iter().take_while(|c| c.is_ascii_digit()).count();
                if digits <= 9 && matches!(chars.get(digits), Some('.' | ')')) && after(digits + 1)
                {
                    escape_at = Some(digits);
                }
            }
            _ => {}
        }
    }
    let mut prev = prev;
    for (i, &c) in chars.iter().enumerate() {
        let next = chars.get(i + 1).copied();
        let escape = Some(i) == escape_at
            || match c {
                '\\' | '*' | '`' | '[' | ']' | '~' => true,
                '_' => {
                    !(prev.is_some_and(char::is_alphanumeric)
                        && next.is_some_and(char::is_alphanumeric))
                }
                '<' => next.is_some_and(|n| n.is_ascii_alphabetic() || "/!?".contains(n)),
                '&' => is_entity(&chars[i + 1..]),
                _ => false,
            };
        if escape {
            out.push('\\');
        }
        out.push(c);
        prev = Some(c);
    }
}

/// A markdown list item linking `text` to `href`, escaped like every other link this writer
/// produces (used for Crunch's retained links after the content).
pub fn link_item(text: &str, href: &str) -> String {
    let mut t = String::new();
    if !text.is_empty() {
        escape_text(&mut t, text, None, false);
    }
    format!("- [{t}]({})\n", destination(href))
}

/// Does the text after an `&` read as an HTML entity (`amp;`, `#38;`, `#x26;`)?
fn is_entity(rest: &[char]) -> bool {
    let body = rest
        .iter()
        .take(32)
        .take_while(|c| c.is_ascii_alphanumeric() || **c == '#')
        .count();
    body > 0 && rest.get(body) == Some(&';')
}

/// A link or image destination: spaces and angle brackets percent-encoded, parentheses
/// escaped, so it never ends early.
fn destination(url: &str) -> String {
    let mut o = String::with_capacity(url.len());
    for c in url.chars() {
        match c {
            ' ' => o.push_str("%20"),
            '<' => o.push_str("%3C"),
            '>' => o.push_str("%3E"),
            '\n' | '\r' | '\t' => {}
            '(' | ')' | '\\' => {
                o.push('\\');
                o.push(c);
            }
            _ => o.push(c),
        }
    }
    o
}

/// A backtick run longer than any inside `s` (at least `min`).
fn fence(s: &str, min: usize) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in s.chars() {
        if c == '`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    "`".repeat(min.max(longest + 1))
}

/// Backtick delimiter for an inline code span: the shortest run length not found inside.
fn code_span_delimiter(s: &str) -> String {
    let mut runs = Vec::new();
    let mut run = 0;
    for c in s.chars().chain(std::iter::once(' ')) {
        if c == '`' {
            run += 1;
        } else if run > 0 {
            runs.push(run);
            run = 0;
        }
    }
    let n = (1..).find(|n| !runs.contains(n)).unwrap_or(1);
    "`".repeat(n)
}

/// Prefix every line of `text`: `first` on the first line, `rest` on the others (empty
/// lines get `rest` without its trailing spaces).
fn prefix_lines(text: &str, first: &str, rest: &str) -> String {
    let mut o = String::with_capacity(text.len() + 8);
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            o.push('\n');
        }
        let p = if i == 0 { first } else { rest };
        if line.is_empty() {
            o.push_str(p.trim_end());
        } else {
            o.push_str(p);
            o.push_str(line);
        }
    }
    o
}

/// The language of a code block from a `language-X` or `lang-X` class.
fn language(class: Option<&str>) -> Option<&str> {
    class?.split_whitespace().find_map(|c| {
        c.strip_prefix("language-")
            .or_else(|| c.strip_prefix("lang-"))
            .filter(|l| !l.is_empty() && !l.contains('`'))
    })
}

struct Writer<'t, 'a> {
    tree: &'t Tree<'a>,
    kept: &'t [bool],
    /// Does the node's kept subtree (below it) hold a block element?
    has_block: Vec<bool>,
    /// Elements open in the recursive descent (see [`MAX_DEPTH`]).
    depth: std::cell::Cell<usize>,
}

/// How deep the writer descends into nested elements; below that, a subtree's text is written
/// as plain text (no markdown structure), walked without recursion, so that a page nested
/// 100,000 levels deep cannot overflow the stack of a 2 MiB worker thread.
const MAX_DEPTH: usize = 96;

impl<'t, 'a> Writer<'t, 'a> {
    fn new(tree: &'t Tree<'a>, ex: &'t Extraction) -> Self {
        let n = tree.len();
        let mut w = Writer {
            tree,
            kept: &ex.kept,
            has_block: vec![false; n],
            depth: std::cell::Cell::new(0),
        };
        for id in (1..n).rev() {
            if !w.kept[id] {
                continue;
            }
            let base = w.base_kind(id);
            if base == Kind::Skip {
                continue;
            }
            if let Some(p) = tree.parent(id) {
                w.has_block[p] |= w.has_block[id] || base == Kind::Block;
            }
        }
        w
    }

    /// The node's kind from its tag and display alone.
    fn base_kind(&self, id: NodeId) -> Kind {
        let n = self.tree.node(id);
        let tag = n.tag.as_str();
        if n.is_text() {
            Kind::Text
        } else if SKIP.contains(&tag) || tag == "svg" {
            Kind::Skip
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
        match self.base_kind(id) {
            Kind::Inline if self.has_block[id] => Kind::Block,
            k => k,
        }
    }

    /// Kept children of a node.
    fn kids(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        self.tree.children[id]
            .iter()
            .copied()
            .filter(|&k| self.kept[k])
    }

    /// Render a sequence of sibling nodes as blocks: inline runs become paragraphs.
    fn container(&self, ids: impl Iterator<Item = NodeId>, blocks: &mut Vec<Block>) {
        let mut inl = Inline::default();
        for c in ids {
            match self.kind(c) {
                Kind::Skip => {}
                Kind::Block => {
                    flush(&mut inl, blocks);
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
        match n.tag.as_str() {
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => self.heading(id, blocks),
            "ul" | "ol" => self.list(id, blocks),
            "pre" => self.code_block(id, blocks),
            "blockquote" => {
                let inner = join(&self.children_blocks(id));
                if !inner.is_empty() {
                    blocks.push(Block {
                        kind: BlockKind::Other,
                        text: prefix_lines(&inner, "> ", "> "),
                    });
                }
            }
            "table" => self.table(id, blocks),
            "hr" => blocks.push(Block {
                kind: BlockKind::Other,
                text: "---".into(),
            }),
            _ => self.container(self.kids(id), blocks),
        }
    }

    /// `# Title`: the heading's content on one line.
    fn heading(&self, id: NodeId, blocks: &mut Vec<Block>) {
        let level = usize::from(self.tree.node(id).tag.as_bytes()[1] - b'0');
        let parts = self.children_blocks(id);
        let mut text = parts
            .iter()
            .map(|b| b.text.replace("\\\n", " ").replace('\n', " "))
            .collect::<Vec<_>>()
            .join(" ");
        if text.is_empty() {
            return;
        }
        // A trailing `#` run would be read as the closing sequence.
        if text.ends_with('#') {
            let at = text.trim_end_matches('#').len();
            text.insert(at, '\\');
        }
        blocks.push(Block {
            kind: BlockKind::Other,
            text: format!("{} {text}", "#".repeat(level)),
        });
    }

    /// `- item` / `1. item`, nested content indented under the marker.
    fn list(&self, id: NodeId, blocks: &mut Vec<Block>) {
        let ordered = self.tree.node(id).tag == "ol";
        let mut items = Vec::new();
        for c in self.kids(id) {
            let parts = match self.kind(c) {
                Kind::Skip => continue,
                Kind::Block if self.tree.node(c).tag == "li" => self.children_blocks(c),
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
            let marker = if ordered {
                format!("{}. ", items.len() + 1)
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

    /// A fenced code block of the raw kept text under `<pre>`.
    fn code_block(&self, id: NodeId, blocks: &mut Vec<Block>) {
        let mut raw = String::new();
        let mut lang = language(self.tree.node(id).class.as_deref());
        for i in self.tree.subtree(id).skip(1) {
            if !self.kept[i] {
                continue;
            }
            let n = self.tree.node(i);
            if let Some(t) = n.raw.as_ref().or(n.text.as_ref()) {
                raw.push_str(t);
            } else if n.tag == "br" {
                raw.push('\n');
            } else if lang.is_none() && n.tag == "code" {
                lang = language(n.class.as_deref());
            }
        }
        let raw = raw.replace("\r\n", "\n");
        let code = if raw.contains('\n') {
            // Real newlines: keep indentation, drop blank edges.
            let start = raw
                .find(|c: char| c != '\n' && c != '\r')
                .unwrap_or(raw.len());
            let start = raw[..start].rfind('\n').map_or(0, |i| i + 1);
            raw[start..].trim_end().to_string()
        } else {
            raw.trim().to_string()
        };
        if code.is_empty() {
            return;
        }
        let f = fence(&code, 3);
        blocks.push(Block {
            kind: BlockKind::Other,
            text: format!("{f}{}\n{code}\n{f}", lang.unwrap_or("")),
        });
    }

    /// A GFM pipe table, or the cells as blocks when it is a layout table.
    fn table(&self, id: NodeId, blocks: &mut Vec<Block>) {
        let mut caption = Vec::new();
        let mut rows: Vec<(NodeId, bool)> = Vec::new();
        for c in self.kids(id) {
            match self.tree.node(c).tag.as_str() {
                "caption" => caption.extend(self.children_blocks(c)),
                "tr" => rows.push((c, false)),
                t @ ("thead" | "tbody" | "tfoot") => rows.extend(
                    self.kids(c)
                        .filter(|&r| self.tree.node(r).tag == "tr")
                        .map(|r| (r, t == "thead")),
                ),
                _ => {}
            }
        }
        let mut cells: Vec<(Vec<String>, bool)> = Vec::new();
        for &(r, in_head) in &rows {
            let mut row = Vec::new();
            let mut all_th = true;
            for c in self.kids(r) {
                let tag = self.tree.node(c).tag.as_str();
                if tag != "td" && tag != "th" {
                    continue;
                }
                all_th &= tag == "th";
                let parts = self.children_blocks(c);
                if parts.iter().any(|b| b.kind != BlockKind::Para) {
                    // A layout table: write its content as ordinary blocks.
                    self.container(self.kids(id), blocks);
                    return;
                }
                let text = parts
                    .iter()
                    .map(|b| b.text.replace("\\\n", "<br>"))
                    .collect::<Vec<_>>()
                    .join("<br>")
                    .replace('|', "\\|");
                row.push(text);
            }
            if row.iter().any(|t| !t.is_empty()) {
                cells.push((row, in_head || all_th));
            }
        }
        blocks.extend(caption);
        if cells.is_empty() {
            return;
        }
        let ncols = cells.iter().map(|(r, _)| r.len()).max().unwrap_or(0);
        let line = |r: &[String]| {
            let mut s = String::from("|");
            for i in 0..ncols {
                s.push(' ');
                s.push_str(r.get(i).map_or("", String::as_str));
                s.push_str(" |");
            }
            s
        };
        let mut lines = vec![line(&cells[0].0)];
        lines.push(format!("|{}", " --- |".repeat(ncols)));
        lines.extend(cells[1..].iter().map(|(r, _)| line(r)));
        blocks.push(Block {
            kind: BlockKind::Other,
            text: lines.join("\n"),
        });
    }

    /// Render an inline node (text or inline element) into the paragraph being built.
    fn inline(&self, id: NodeId, inl: &mut Inline) {
        if self.deeper(|| self.inline_at_depth(id, inl)).is_none() {
            self.flat_text(id, inl);
        }
    }

    fn inline_at_depth(&self, id: NodeId, inl: &mut Inline) {
        let n = self.tree.node(id);
        if let Some(t) = &n.text {
            // Texts the layout shows apart are two words, as in the text writer; not right
            // after a marker ("[" or "*" may open what this text is in).
            let before = inl.out.chars().next_back();
            if let Some(prev) = inl.last_box {
                if !before.is_some_and(|c| "[*~_`".contains(c))
                    && super::text::space_between(before, prev, t, n.rect)
                {
                    inl.out.push(' ');
                }
            }
            inl.last_box = Some(n.rect);
            inl.text(t);
            return;
        }
        match n.tag.as_str() {
            "br" => inl.hard_break(),
            "img" => self.image(id, inl),
            "code" | "kbd" | "samp" | "tt" => self.code_span(id, inl),
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
            "del" | "s" | "strike" if inl.strike == 0 => {
                inl.strike += 1;
                self.wrap(id, inl, "~~", "~~");
                inl.strike -= 1;
            }
            "a" => match n.href.as_deref() {
                Some(h)
                    if !h
                        .trim_start()
                        .to_ascii_lowercase()
                        .starts_with("javascript:") =>
                {
                    self.wrap(id, inl, "[", &format!("]({})", destination(h)));
                }
                _ => self.inline_children(id, inl),
            },
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
        let start = inl.out.len();
        self.inline_children(id, inl);
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

    /// `` `code` ``: the raw text of the subtree, whitespace collapsed, no escaping.
    fn code_span(&self, id: NodeId, inl: &mut Inline) {
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

    /// `![alt](src)`; a `data:` image is written as its alt text.
    fn image(&self, id: NodeId, inl: &mut Inline) {
        let n = self.tree.node(id);
        let alt = crate::snapshot::collapse_ws(n.alt.as_deref().unwrap_or(""));
        match n.src.as_deref() {
            Some(src) if !src.is_empty() && !src.starts_with("data:") => {
                let mut a = String::new();
                if !alt.is_empty() {
                    escape_text(&mut a, &alt, None, false);
                }
                inl.out
                    .push_str(&format!("![{a}]({})", destination(src.trim())));
            }
            _ if !alt.is_empty() => inl.text(&alt),
            _ => {}
        }
    }

    /// All content roots, in document order; inline roots that share a block ancestor
    /// form one paragraph.
    fn roots(&self, ex: &Extraction) -> Vec<Block> {
        let mut blocks = Vec::new();
        let mut inl = Inline::default();
        let mut cur = None;
        for r in ex.roots(self.tree) {
            match self.kind(r) {
                Kind::Skip => {}
                Kind::Block => {
                    flush(&mut inl, &mut blocks);
                    self.block(r, &mut blocks);
                }
                Kind::Text | Kind::Inline => {
                    let b = self
                        .tree
                        .ancestors(r)
                        .find(|&a| self.tree.is_block(a))
                        .unwrap_or(0);
                    if cur != Some(b) {
                        flush(&mut inl, &mut blocks);
                        cur = Some(b);
                    }
                    self.inline(r, &mut inl);
                }
            }
        }
        flush(&mut inl, &mut blocks);
        blocks
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

/// The content subtrees as markdown, blocks separated by blank lines, with a final newline
/// when not empty.
pub fn render(tree: &Tree, ex: &Extraction) -> String {
    let w = Writer::new(tree, ex);
    let md = join(&w.roots(ex));
    if md.is_empty() {
        md
    } else {
        md + "\n"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::Algorithm;
    use crate::snapshot::{rect, Snapshot, SnapshotBuilder};

    /// Keep every node of the snapshot except the listed subtrees.
    fn keep_all_but(snap: &Snapshot, drop: &[NodeId]) -> Extraction {
        let tree = Tree::new(snap);
        let mut ex = Extraction::empty(Algorithm::Td, snap.nodes.len());
        ex.kept = vec![true; snap.nodes.len()];
        for &d in drop {
            for i in tree.subtree(d) {
                ex.kept[i] = false;
            }
        }
        ex
    }

    fn md(snap: &Snapshot, drop: &[NodeId]) -> String {
        let tree = Tree::new(snap);
        render(&tree, &keep_all_but(snap, drop))
    }

    /// `<p>` holding one text node.
    fn para(b: &mut SnapshotBuilder, parent: NodeId, y: f64, text: &str) -> NodeId {
        let p = b.el(parent, "p", rect(0.0, y, 600.0, 20.0));
        b.text(p, text);
        p
    }

    fn li(b: &mut SnapshotBuilder, list: NodeId, y: f64, text: &str) -> NodeId {
        let l = b.el(list, "li", rect(40.0, y, 560.0, 20.0));
        b.node_mut(l).display = "list-item".into();
        b.text(l, text);
        l
    }

    /// An article page with every construct the writer handles, plus a nav and a share
    /// paragraph that are not content.
    fn article() -> (Snapshot, Vec<NodeId>) {
        let mut b = SnapshotBuilder::new(1000.0);
        let nav = b.el(0, "nav", rect(0.0, 0.0, 1000.0, 40.0));
        let home = b.el(nav, "a", rect(0.0, 0.0, 80.0, 40.0));
        b.node_mut(home).href = Some("https://example.com/".into());
        b.text(home, "Home");
        let art = b.el(0, "article", rect(0.0, 50.0, 600.0, 900.0));
        let h1 = b.el(art, "h1", rect(0.0, 50.0, 600.0, 40.0));
        b.text(h1, "Fast pages");
        // Snapshot text is collapsed but not trimmed: " Read " starts with a space.
        let p = b.el(art, "p", rect(0.0, 100.0, 600.0, 40.0));
        b.text(p, " Read ");
        let a = b.el(p, "a", rect(40.0, 100.0, 80.0, 20.0));
        b.node_mut(a).href = Some("https://example.com/docs/a_(b)".into());
        b.text(a, "the docs");
        b.text(p, "; it is ");
        let em = b.el(p, "em", rect(200.0, 100.0, 50.0, 20.0));
        b.text(em, "really");
        b.text(p, " ");
        let st = b.el(p, "strong", rect(260.0, 100.0, 50.0, 20.0));
        b.text(st, "fast ");
        b.text(p, "now. ");
        let share = para(&mut b, art, 140.0, "Share this on social media");
        let h2 = b.el(art, "h2", rect(0.0, 160.0, 600.0, 30.0));
        b.text(h2, "Lists");
        let ul = b.el(art, "ul", rect(0.0, 200.0, 600.0, 80.0));
        let one = li(&mut b, ul, 200.0, "one");
        let inner = b.el(one, "ul", rect(40.0, 220.0, 560.0, 40.0));
        li(&mut b, inner, 220.0, "one.a");
        li(&mut b, inner, 240.0, "one.b");
        li(&mut b, ul, 260.0, "two");
        let ol = b.el(art, "ol", rect(0.0, 290.0, 600.0, 60.0));
        li(&mut b, ol, 290.0, "first");
        let second = li(&mut b, ol, 310.0, "second");
        let inner = b.el(second, "ol", rect(40.0, 330.0, 560.0, 20.0));
        li(&mut b, inner, 330.0, " 2. not a sub-list ");
        let t = b.el(art, "table", rect(0.0, 360.0, 600.0, 60.0));
        let th = b.el(t, "thead", rect(0.0, 360.0, 600.0, 20.0));
        let tr = b.el(th, "tr", rect(0.0, 360.0, 600.0, 20.0));
        for h in ["Name", "Score"] {
            let c = b.el(tr, "th", rect(0.0, 360.0, 300.0, 20.0));
            b.text(c, h);
        }
        let tb = b.el(t, "tbody", rect(0.0, 380.0, 600.0, 40.0));
        for row in [["Ann | Bo", "3"], ["Cy", "4"]] {
            let tr = b.el(tb, "tr", rect(0.0, 380.0, 600.0, 20.0));
            for v in row {
                let c = b.el(tr, "td", rect(0.0, 380.0, 300.0, 20.0));
                b.text(c, v);
            }
        }
        let pre = b.el(art, "pre", rect(0.0, 430.0, 600.0, 60.0));
        let code = b.el(pre, "code", rect(0.0, 430.0, 600.0, 60.0));
        b.node_mut(code).class = Some("hljs language-rust".into());
        b.text(code, "fn main() {\n    println!(\"hi\");\n}\n");
        let fig = b.el(art, "p", rect(0.0, 500.0, 600.0, 200.0));
        let img = b.el(fig, "img", rect(0.0, 500.0, 600.0, 200.0));
        b.node_mut(img).src = Some("https://example.com/cat.png".into());
        b.node_mut(img).alt = Some("A [cat]".into());
        para(&mut b, art, 710.0, "1. not a list");
        para(&mut b, art, 730.0, "# not a heading");
        para(
            &mut b,
            art,
            750.0,
            "2*3 and _x_ snake_case <b> &amp; AT&T ~ 10) x",
        );
        (b.build(), vec![nav, share])
    }

    #[test]
    fn article_golden() {
        let (snap, drop) = article();
        let expected = "\
# Fast pages

Read [the docs](https://example.com/docs/a_\\(b\\)); it is *really* **fast** now.

## Lists

- one
  - one.a
  - one.b
- two

1. first
2. second
   1. 2\\. not a sub-list

| Name | Score |
| --- | --- |
| Ann \\| Bo | 3 |
| Cy | 4 |

```rust
fn main() {
    println!(\"hi\");
}
```

![A \\[cat\\]](https://example.com/cat.png)

1\\. not a list

\\# not a heading

2\\*3 and \\_x\\_ snake_case \\<b> \\&amp; AT&T \\~ 10) x
";
        assert_eq!(md(&snap, &drop), expected);
    }

    #[test]
    fn nodes_not_kept_are_absent() {
        let (snap, drop) = article();
        let out = md(&snap, &drop);
        assert!(!out.contains("Home"));
        assert!(!out.contains("Share"));
        // Keeping them brings them back (the test can fail).
        let all = md(&snap, &[]);
        assert!(all.starts_with("[Home](https://example.com/)\n\n# Fast pages\n"));
        assert!(all.contains("\n\nShare this on social media\n\n"));
    }

    #[test]
    fn empty_extraction_is_empty() {
        let (snap, _) = article();
        let tree = Tree::new(&snap);
        let ex = Extraction::empty(Algorithm::Td, snap.nodes.len());
        assert_eq!(render(&tree, &ex), "");
    }

    #[test]
    fn collapsed_pre_is_one_line_and_fence_outgrows_backticks() {
        // Today's snapshot collapses <pre> whitespace: the block is one line.
        let mut b = SnapshotBuilder::new(800.0);
        let pre = b.el(0, "pre", rect(0.0, 0.0, 800.0, 60.0));
        b.node_mut(pre).class = Some("lang-sh".into());
        b.text(pre, " echo ``` done ");
        assert_eq!(md(&b.build(), &[]), "````sh\necho ``` done\n````\n");
    }

    #[test]
    fn escapes_line_starts_after_breaks_and_headings() {
        let mut b = SnapshotBuilder::new(800.0);
        let p = b.el(0, "p", rect(0.0, 0.0, 800.0, 60.0));
        b.text(p, "first ");
        b.el(p, "br", rect(0.0, 20.0, 0.0, 0.0));
        b.text(p, " - second");
        b.el(p, "br", rect(0.0, 40.0, 0.0, 0.0));
        b.el(p, "br", rect(0.0, 40.0, 0.0, 0.0));
        b.text(p, "> third");
        b.el(p, "br", rect(0.0, 60.0, 0.0, 0.0));
        let h = b.el(0, "h3", rect(0.0, 80.0, 800.0, 30.0));
        b.text(h, "Why C #");
        para(&mut b, 0, 120.0, "=== #hashtag");
        assert_eq!(
            md(&b.build(), &[]),
            "first\\\n\\- second\\\n\\> third\n\n### Why C \\#\n\n\\=== #hashtag\n"
        );
    }

    #[test]
    fn inline_edges_code_spans_and_odd_links() {
        let mut b = SnapshotBuilder::new(800.0);
        let p = b.el(0, "p", rect(0.0, 0.0, 800.0, 20.0));
        b.text(p, "Use");
        let c = b.el(p, "code", rect(0.0, 0.0, 50.0, 20.0));
        b.text(c, " a `tick` ");
        b.text(p, "and");
        let em = b.el(p, "em", rect(0.0, 0.0, 50.0, 20.0));
        b.text(em, " nested ");
        let em2 = b.el(em, "i", rect(0.0, 0.0, 50.0, 20.0));
        b.text(em2, "italics");
        let empty = b.el(p, "a", rect(0.0, 0.0, 10.0, 20.0));
        b.node_mut(empty).href = Some("https://example.com/e".into());
        let js = b.el(p, "a", rect(0.0, 0.0, 10.0, 20.0));
        b.node_mut(js).href = Some("javascript:void(0)".into());
        b.text(js, " click");
        let del = b.el(p, "del", rect(0.0, 0.0, 10.0, 20.0));
        b.text(del, " old");
        let img = b.el(p, "img", rect(0.0, 0.0, 10.0, 10.0));
        b.node_mut(img).src = Some("data:image/png;base64,AAAA".into());
        b.node_mut(img).alt = Some("tiny".into());
        assert_eq!(
            md(&b.build(), &[]),
            "Use `` a `tick` `` and *nested italics* click ~~old~~tiny\n"
        );
    }

    #[test]
    fn breaks_at_emphasis_edges_stay_outside_the_markers() {
        let mut b = SnapshotBuilder::new(800.0);
        let p = b.el(0, "p", rect(0.0, 0.0, 800.0, 60.0));
        b.text(p, "a");
        let s = b.el(p, "b", rect(0.0, 0.0, 50.0, 60.0));
        b.el(s, "br", rect(0.0, 20.0, 0.0, 0.0));
        b.text(s, "x ");
        b.el(s, "br", rect(0.0, 40.0, 0.0, 0.0));
        b.text(p, "y");
        let only = b.el(p, "em", rect(0.0, 40.0, 50.0, 20.0));
        b.el(only, "br", rect(0.0, 60.0, 0.0, 0.0));
        b.text(p, "z");
        assert_eq!(md(&b.build(), &[]), "a\\\n**x**\\\ny\\\nz\n");
    }

    #[test]
    fn card_link_around_blocks_and_layout_table() {
        let mut b = SnapshotBuilder::new(800.0);
        let a = b.el(0, "a", rect(0.0, 0.0, 800.0, 80.0));
        b.node_mut(a).href = Some("https://example.com/card".into());
        let h = b.el(a, "h2", rect(0.0, 0.0, 800.0, 30.0));
        b.text(h, "Card title");
        para(&mut b, a, 40.0, "Card text");
        let t = b.el(0, "table", rect(0.0, 100.0, 800.0, 100.0));
        let tr = b.el(t, "tr", rect(0.0, 100.0, 800.0, 100.0));
        let td = b.el(tr, "td", rect(0.0, 100.0, 400.0, 100.0));
        let ul = b.el(td, "ul", rect(0.0, 100.0, 400.0, 40.0));
        li(&mut b, ul, 100.0, "menu");
        let td2 = b.el(tr, "td", rect(400.0, 100.0, 400.0, 100.0));
        b.text(td2, "body text");
        let t2 = b.el(0, "table", rect(0.0, 220.0, 800.0, 40.0));
        let tr = b.el(t2, "tr", rect(0.0, 220.0, 800.0, 20.0));
        for v in ["a", "b"] {
            let c = b.el(tr, "td", rect(0.0, 220.0, 400.0, 20.0));
            b.text(c, v);
        }
        let tr = b.el(t2, "tr", rect(0.0, 240.0, 800.0, 20.0));
        let c = b.el(tr, "td", rect(0.0, 240.0, 400.0, 20.0));
        b.text(c, "c");
        assert_eq!(
            md(&b.build(), &[]),
            "## Card title\n\nCard text\n\n- menu\n\nbody text\n\n| a | b |\n| --- | --- |\n| c |  |\n"
        );
    }

    #[test]
    fn blockquote_with_list_and_inline_roots() {
        let mut b = SnapshotBuilder::new(800.0);
        let q = b.el(0, "blockquote", rect(0.0, 0.0, 800.0, 80.0));
        para(&mut b, q, 0.0, "Quoted");
        let ol = b.el(q, "ol", rect(0.0, 20.0, 800.0, 40.0));
        let item = li(&mut b, ol, 20.0, "para one");
        para(&mut b, item, 40.0, "para two");
        let p = b.el(0, "p", rect(0.0, 100.0, 800.0, 20.0));
        let lead = b.text(p, "Lead ");
        let s = b.el(p, "strong", rect(0.0, 100.0, 50.0, 20.0));
        b.text(s, "bold");
        let snap = b.build();
        let tree = Tree::new(&snap);
        let mut ex = keep_all_but(&snap, &[]);
        // Only the two inline nodes of the last paragraph are kept, not the <p>: they are
        // roots of their own and still form one paragraph.
        ex.kept[0] = false;
        ex.kept[p] = false;
        assert!(ex.kept[lead]);
        assert_eq!(
            render(&tree, &ex),
            "> Quoted\n>\n> 1. para one\n>\n>    para two\n\nLead **bold**\n"
        );
    }

    /// Timing check, run by hand:
    /// `cargo test --lib output::markdown -- --ignored --nocapture`.
    /// Measured on the 2-core dev machine in the test profile (unoptimized crate code, so an
    /// upper bound for release): 5,006 nodes (46 kB of markdown) in 11-20 ms (shared
    /// machine; release is faster still).
    #[test]
    #[ignore]
    fn speed_5000_nodes() {
        let mut b = SnapshotBuilder::new(1000.0);
        let art = b.el(0, "article", rect(0.0, 0.0, 1000.0, 1000.0));
        let mut n = 2;
        let mut i = 0;
        while n < 5000 {
            let p = b.el(art, "p", rect(0.0, i as f64, 1000.0, 20.0));
            b.text(p, "Some text with *stars* and a ");
            let a = b.el(p, "a", rect(0.0, i as f64, 50.0, 20.0));
            b.node_mut(a).href = Some(format!("https://example.com/{i}"));
            b.text(a, "link");
            let ul = b.el(art, "ul", rect(0.0, i as f64, 1000.0, 20.0));
            let l = li(&mut b, ul, i as f64, "item");
            let em = b.el(l, "em", rect(0.0, i as f64, 50.0, 20.0));
            b.text(em, " emphasis");
            n += 9;
            i += 1;
        }
        let snap = b.build();
        let tree = Tree::new(&snap);
        let ex = keep_all_but(&snap, &[]);
        let t = std::time::Instant::now();
        let out = render(&tree, &ex);
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        eprintln!(
            "{} nodes -> {} bytes in {ms:.2} ms",
            snap.nodes.len(),
            out.len()
        );
    }
}
