//! Code blocks: fenced, with their language, their lines as the page shows them, and nothing
//! the site adds around the code (line numbers, gutters, copy buttons, language labels).
//!
//! - A code block is a `<pre>` (the outermost one), a `<code>` laid out as a block, an editor
//!   widget (CodeMirror 5 `.CodeMirror`, CodeMirror 6 `.cm-editor`, Monaco `.monaco-editor`)
//!   or a table of code lines (GitHub's `table.js-file-line-container`, highlight.js's
//!   `table.hljs-ln`).
//! - Lines: the `raw` text where the snapshot has it (whitespace as written), a `<br>` per line
//!   break, and a line per line element (`div`/`p`/`tr`, anything laid out as a block, and the
//!   classes `line`, `cm-line`, `CodeMirror-line`, `view-line`). Monaco positions its lines
//!   absolutely, so its lines are ordered by their box, top to bottom.
//! - Dropped: gutters and line numbers (Pygments `linenos`, Prism `.line-numbers-rows`,
//!   Rouge `.gutter`/`.lineno`, Chroma `.lnt`/`.ln`, highlight.js `.hljs-ln-numbers`,
//!   CodeMirror and Monaco gutters and their measuring and cursor layers), `aria-hidden`
//!   numbers, unselectable prompt spans (`.no-select`, `.select-none`), and copy buttons
//!   (`<button>`s, and elements classed `copy`/`clipboard`) in the block or its wrapper.
//! - The language: a `language-X`, `lang-X`, `highlight-X`, `highlight-source-X`,
//!   `mw-highlight-lang-X` (or GeSHi's `source-X` beside `mw-geshi`) or `brush: X` class,
//!   or a `data-lang`/`data-language`/`data-code-language` attribute (Monaco's
//!   `data-mode-id`), on the
//!   block, its `<code>` or a wrapper up to three levels up; else a visible label naming a
//!   language (a title bar above the code, or an element before the `<code>` inside the
//!   `<pre>`), which is then not written. A wrapper is an ancestor whose text beyond the block
//!   is at most [`WRAPPER_EXTRA_CHARS`] (labels and buttons), so a section's heading is never
//!   taken for a label.

use std::borrow::Cow;
use std::collections::HashMap;

use super::syntax::fence;
use super::{Block, BlockKind, Writer};
use crate::snapshot::{Node, NodeId, Tree};

/// How many characters beyond the code block's own a wrapper may hold (labels, buttons).
pub(super) const WRAPPER_EXTRA_CHARS: usize = 40;
/// How many levels above a code block its wrapper may be.
pub(super) const WRAPPER_LEVELS: usize = 3;

/// Class tokens of gutters, line numbers and editor layers that hold no code.
const GUTTER_CLASSES: [&str; 35] = [
    // Asciidoctor's callout numbers (`<b class="conum">(1)</b>`), explained below the code.
    "conum",
    // SyntaxHighlighter's toolbar ("?").
    "toolbar",
    "linenos",
    "linenodiv",
    "lineno",
    "lineno-wrapper",
    "line-numbers-rows",
    "line-number",
    "line-numbers",
    "linenumber",
    "line-num",
    "gutter",
    "gl",
    "rouge-gutter",
    "lnt",
    "ln",
    "hljs-ln-numbers",
    "hljs-ln-n",
    "blob-num",
    "code-line-number",
    "CodeMirror-gutters",
    "CodeMirror-gutter-wrapper",
    "CodeMirror-linenumber",
    "CodeMirror-measure",
    "CodeMirror-cursors",
    "cm-gutters",
    "cm-gutter",
    "cm-cursorLayer",
    "cm-selectionLayer",
    "cm-tooltip",
    "margin",
    "minimap",
    "no-select",
    "noselect",
    "select-none",
];

/// Class tokens of the table cells and wrappers that hold a block of line numbers.
const GUTTER_CELLS: [&str; 7] = [
    "linenos",
    "linenodiv",
    "gutter",
    "rouge-gutter",
    "lineno",
    "hljs-ln-numbers",
    "line-numbers-rows",
];

/// Words of copy buttons (compared lower-case), in the languages of the sites' own buttons.
const COPY_WORDS: [&str; 24] = [
    "copy",
    "copied",
    "copied!",
    "copy code",
    "copy to clipboard",
    "copy code to clipboard",
    "copied to clipboard",
    "copy snippet",
    "复制代码",
    "复制",
    "複製",
    "複製程式碼",
    "复制成功",
    "코드 복사",
    "복사",
    "コピー",
    "コードをコピー",
    "kopieren",
    "code kopieren",
    "copier",
    "copier le code",
    "copiar",
    "copiar código",
    "копировать",
];

/// Language names as labels write them (lower-case) and the fence info they give.
const LABELS: [(&str, &str); 65] = [
    ("bash", "bash"),
    ("c", "c"),
    ("c#", "csharp"),
    ("c++", "cpp"),
    ("clojure", "clojure"),
    ("cmd", "bat"),
    ("console", "console"),
    ("cpp", "cpp"),
    ("csharp", "csharp"),
    ("css", "css"),
    ("dart", "dart"),
    ("diff", "diff"),
    ("docker", "dockerfile"),
    ("dockerfile", "dockerfile"),
    ("elixir", "elixir"),
    ("erlang", "erlang"),
    ("f#", "fsharp"),
    ("go", "go"),
    ("golang", "go"),
    ("graphql", "graphql"),
    ("haskell", "haskell"),
    ("html", "html"),
    ("ini", "ini"),
    ("java", "java"),
    ("javascript", "javascript"),
    ("js", "js"),
    ("json", "json"),
    ("jsx", "jsx"),
    ("julia", "julia"),
    ("kotlin", "kotlin"),
    ("lua", "lua"),
    ("makefile", "makefile"),
    ("markdown", "markdown"),
    ("matlab", "matlab"),
    ("mermaid", "mermaid"),
    ("nginx", "nginx"),
    ("objective-c", "objectivec"),
    ("perl", "perl"),
    ("php", "php"),
    ("plain text", "text"),
    ("plaintext", "text"),
    ("powershell", "powershell"),
    // Pygments' Python console and traceback lexers (Real Python's `div.highlight.pycon`).
    ("pycon", "pycon"),
    ("pytb", "pytb"),
    ("python", "python"),
    ("python3", "python"),
    ("r", "r"),
    ("ruby", "ruby"),
    ("rust", "rust"),
    ("scala", "scala"),
    ("scss", "scss"),
    ("sh", "sh"),
    ("shell", "shell"),
    ("shell session", "console"),
    ("sql", "sql"),
    ("swift", "swift"),
    ("terminal", "console"),
    ("text", "text"),
    ("toml", "toml"),
    ("ts", "ts"),
    ("tsx", "tsx"),
    ("typescript", "typescript"),
    ("xml", "xml"),
    ("yaml", "yaml"),
    ("zsh", "zsh"),
];

fn has_class(n: &Node, name: &str) -> bool {
    n.class
        .as_deref()
        .is_some_and(|c| c.split_whitespace().any(|t| t == name))
}

/// An editor widget or a table of code lines, written as one code block.
pub(super) fn is_widget(n: &Node) -> bool {
    match n.tag.as_str() {
        // SyntaxHighlighter (WordPress's SyntaxHighlighter Evolved): a table of a gutter
        // and `div.line`s of `<code>` tokens, no `<pre>`; Doxygen's `div.fragment` of
        // `div.line`s with their `span.lineno`.
        "div" => [
            "CodeMirror",
            "cm-editor",
            "monaco-editor",
            "syntaxhighlighter",
            "fragment",
        ]
        .iter()
        .any(|c| has_class(n, c)),
        "table" => ["hljs-ln", "js-file-line-container"]
            .iter()
            .any(|c| has_class(n, c)),
        _ => false,
    }
}

/// A `<code>` outside `<pre>` that the page lays out as a block of lines (its text keeps
/// line breaks, or it has `<br>`s).
pub(super) fn is_block_code(tree: &Tree, id: NodeId) -> bool {
    let n = tree.node(id);
    n.display == "block"
        && tree.parent(id).is_none_or(|p| tree.node(p).tag != "pre")
        && tree.children[id].iter().any(|&k| {
            let kn = tree.node(k);
            kn.tag == "br" || kn.raw.as_deref().is_some_and(|r| r.contains('\n'))
        })
}

/// Is the element a code block's wrapper: it holds a code block and at most
/// [`WRAPPER_EXTRA_CHARS`] more (a title bar, a language label, a copy button)?
pub(super) fn is_wrapper(tree: &Tree, id: NodeId) -> bool {
    tree.subtree(id)
        .any(|d| is_root(tree, d) && tree.chars[id] <= tree.chars[d] + WRAPPER_EXTRA_CHARS)
}

/// Is this node a code block's root (the outermost)?
pub(super) fn is_root(tree: &Tree, id: NodeId) -> bool {
    let n = tree.node(id);
    n.tag == "pre"
        || is_widget(n)
        || (n.tag == "code" && is_block_code(tree, id))
        || code_element(tree, id)
        || code_div(tree, id)
        || mono_block(tree, id)
        || mono_list(tree, id)
}

/// A list whose items are the lines of a code block, each drawn in a monospace font (Discuz!'s
/// `div.blockcode > ol > li`, one item a line, numbered by the list's markers): every shown
/// item where a monospace font starts (the snapshot's `font-mono`) or the list in one, no
/// link, and no prose element, heading or nested list in an item.
pub(super) fn mono_list(tree: &Tree, id: NodeId) -> bool {
    let n = tree.node(id);
    if !matches!(n.tag.as_str(), "ol" | "ul") || tree.chars[id] == 0 || tree.link_chars[id] > 0 {
        return false;
    }
    let mono = |d: NodeId| {
        tree.node(d)
            .attrs
            .contains_key(crate::snapshot::computed::FONT_MONO)
    };
    let mut items = tree.children[id]
        .iter()
        .copied()
        .filter(|&k| tree.node(k).tag == "li" && tree.node(k).rendered)
        .peekable();
    items.peek().is_some()
        && (mono(id) || items.all(mono))
        && tree.parent(id).is_none_or(|p| !is_root(tree, p))
        && !tree.subtree(id).skip(1).any(|d| {
            let dn = tree.node(d);
            (dn.tag != "li" && PROSE_TAGS.contains(&dn.tag.as_str()))
                || dn.heading_level().is_some()
                || dn.tag == "pre"
                || dn.tag == "img"
        })
}

/// Tags whose presence below an element says it holds prose, not code lines (and headings).
const PROSE_TAGS: [&str; 7] = ["p", "ul", "ol", "li", "dl", "table", "blockquote"];

/// A block drawn in a monospace font that keeps its white space, with no code element
/// (Notion's code block: a `div` of token spans, `white-space: pre`, in `SFMono-Regular, …,
/// monospace`): where the font starts (the snapshot's `font-mono`), not laid out inline,
/// holding text whose white space is kept and no link, prose element or code block of its own.
pub(super) fn mono_block(tree: &Tree, id: NodeId) -> bool {
    let n = tree.node(id);
    n.attrs.contains_key(crate::snapshot::computed::FONT_MONO)
        && !n.display.starts_with("inline")
        && !matches!(n.tag.as_str(), "td" | "th" | "tr" | "li" | "a" | "button")
        && tree.chars[id] > 0
        // A signature of links (Javadoc's `member-signature`) is prose set in code's font.
        && tree.link_chars[id] == 0
        && tree.parent(id).is_none_or(|p| !is_root(tree, p))
        && tree.subtree(id).skip(1).any(|d| tree.node(d).raw.is_some())
        && !holds_code_block(tree, id)
        && !tree.subtree(id).skip(1).any(|d| {
            let dn = tree.node(d);
            PROSE_TAGS.contains(&dn.tag.as_str()) || dn.heading_level().is_some()
        })
}

/// Does element `id` hold a code block of its own (a `<pre>`, a block `<code>`, an editor
/// widget): a wrapper, not the block (Confluence's `div.code.panel`)?
fn holds_code_block(tree: &Tree, id: NodeId) -> bool {
    tree.subtree(id).skip(1).any(|d| {
        let dn = tree.node(d);
        dn.tag == "pre" || (dn.tag == "code" && dn.display == "block") || is_widget(dn)
    })
}

/// An inline element drawn in a monospace font in running text (Notion's inline code: a
/// `span` styled `font-family: "SFMono-Regular", …, monospace`, no `<code>`): where the font
/// starts (the snapshot's `font-mono`), laid out inline, one line of at most
/// [`MONO_SPAN_CHARS`], no link, image or formula inside, beside other text of its block.
pub(super) fn mono_span(tree: &Tree, id: NodeId) -> bool {
    let n = tree.node(id);
    if !n.attrs.contains_key(crate::snapshot::computed::FONT_MONO)
        || !n.display.starts_with("inline")
        || n.tag == "a"
        || n.link
        || tree.chars[id] == 0
        || tree.chars[id] > MONO_SPAN_CHARS
        || tree.link_chars[id] > 0
    {
        return false;
    }
    if tree.subtree(id).skip(1).any(|d| {
        let dn = tree.node(d);
        matches!(dn.tag.as_str(), "br" | "img" | "svg" | "math") || dn.tex.is_some()
    }) {
        return false;
    }
    tree.ancestors(id)
        .find(|&a| tree.is_block(a))
        .is_some_and(|b| tree.chars[b] > tree.chars[id] + 1)
}

/// The longest text a monospace span is taken for inline code with ([`mono_span`]).
const MONO_SPAN_CHARS: usize = 200;

/// A `div` classed as code whose lines are `<br>`-separated (w3schools' `div.w3-code`, its
/// `<br>`s inside colour spans): a class token `code`, or ending in `-code`/`_code`, laid out
/// as a block of lines.
pub(super) fn code_div(tree: &Tree, id: NodeId) -> bool {
    let n = tree.node(id);
    n.tag == "div"
        && super::class_tokens(n).any(|t| {
            let t = t.to_ascii_lowercase();
            t == "code" || t.ends_with("-code") || t.ends_with("_code")
        })
        && n.display == "block"
        && tree.parent(id).is_none_or(|p| !is_root(tree, p))
        && tree.subtree(id).skip(1).any(|d| tree.node(d).tag == "br")
        && !holds_code_block(tree, id)
}

/// A custom element for code laid out as a block (Distill's `<d-code language="python">`,
/// a `<code-block>`): a tag with a hyphen and a `code` word, drawn as a block, whose text
/// keeps its line breaks or that names a language.
pub(super) fn code_element(tree: &Tree, id: NodeId) -> bool {
    let n = tree.node(id);
    n.tag.contains('-')
        && n.tag.split('-').any(|w| w == "code")
        && n.display != "inline"
        && (n.attrs.contains_key("language")
            || tree.children[id].iter().any(|&c| {
                tree.node(c)
                    .raw
                    .as_deref()
                    .is_some_and(|r| r.contains('\n'))
            }))
}

/// Attributes that name a block's language: `data-lang`/`data-language` (many highlighters),
/// `data-code-language`, Medium's `data-code-block-lang`, Monaco's `data-mode-id`.
const LANGUAGE_ATTRS: [&str; 8] = [
    "data-lang",
    // Swift-DocC's `div.code-listing[data-syntax="swift"]`.
    "data-syntax",
    // Mintlify's `<pre language="bash">`.
    "language",
    "data-language",
    "data-code-language",
    "data-code-block-lang",
    "data-mode-id",
    // Confluence's code macro: `data-syntaxhighlighter-params="brush: sql; gutter: false"`.
    "data-syntaxhighlighter-params",
];

/// A language from a node's classes and attributes.
fn node_language(n: &Node) -> Option<String> {
    for a in LANGUAGE_ATTRS {
        if let Some(v) = n.attrs.get(a) {
            let v = if a == "data-syntaxhighlighter-params" {
                brush(v).unwrap_or_default()
            } else {
                v.as_str()
            };
            if let Some(l) = clean(v) {
                return Some(l);
            }
        }
    }
    // `<pre lang="python3">` (PyPI's and older GitHub READMEs): on a code element `lang`
    // names the code's language unless it is a human language's tag (`en`, `de-CH`).
    if matches!(n.tag.as_str(), "pre" | "code") {
        if let Some(l) = n.attrs.get("lang").filter(|v| !human_language_tag(v)) {
            if let Some(l) = clean(l) {
                return Some(l);
            }
        }
    }
    let class = n.class.as_deref()?;
    // MediaWiki's syntax highlighters: GeSHi's `div.mw-geshi.source-cpp`, Pygments'
    // `div.mw-highlight.mw-highlight-lang-cpp`.
    let geshi = class.split_whitespace().any(|t| t == "mw-geshi");
    let mut toks = class.split_whitespace();
    while let Some(t) = toks.next() {
        let l = if t == "brush:" {
            toks.next().map(|s| s.trim_end_matches(';'))
        } else if geshi && t.starts_with("source-") {
            t.strip_prefix("source-")
        } else {
            t.strip_prefix("language-")
                .or_else(|| t.strip_prefix("mw-highlight-lang-"))
                .or_else(|| t.strip_prefix("lang-"))
                .or_else(|| t.strip_prefix("highlight-source-"))
                .or_else(|| t.strip_prefix("highlight-"))
                .or_else(|| t.strip_prefix("hl-"))
                .or_else(|| t.strip_prefix("brush:"))
        };
        if let Some(l) = l.and_then(clean) {
            return Some(l);
        }
    }
    // w3schools' highlighter: `div.w3-code.pythonHigh`, `jsHigh`, `htmlHigh`.
    if let Some(l) = class.split_whitespace().find_map(|t| {
        let base = t.strip_suffix("High")?.to_ascii_lowercase();
        LABELS
            .iter()
            .find(|(k, _)| *k == base)
            .map(|(_, v)| (*v).to_string())
    }) {
        return Some(l);
    }
    // A class that is a language's own name, on the block itself: rustdoc's `pre.rust`,
    // pandoc's `pre.sourceCode.r`, or beside `highlight` (Hexo's `figure.highlight.python`);
    // not on another wrapper, where `c` or `go` may mean anything.
    if matches!(n.tag.as_str(), "pre" | "code")
        || class
            .split_whitespace()
            .any(|t| matches!(t, "highlight" | "sourceCode" | "syntaxhighlighter"))
    {
        return class.split_whitespace().find_map(|t| {
            let t = t.to_ascii_lowercase();
            LABELS
                .iter()
                .find(|(k, _)| *k == t && !NOT_CLASS_LANGUAGES.contains(k))
                .map(|(_, v)| (*v).to_string())
        });
    }
    None
}

/// A BCP 47 tag's shape: a two- or three-letter language, then optional subtags of two to
/// eight letters or digits (`en`, `pt-BR`, `zh-Hant-TW`).
fn human_language_tag(v: &str) -> bool {
    let mut parts = v.trim().split('-');
    let first = parts.next().unwrap_or("");
    (2..=3).contains(&first.len())
        && first.chars().all(|c| c.is_ascii_alphabetic())
        && parts.all(|p| (2..=8).contains(&p.len()) && p.chars().all(|c| c.is_ascii_alphanumeric()))
}

/// The `brush` of SyntaxHighlighter's parameters (`brush: sql; gutter: false`).
fn brush(params: &str) -> Option<&str> {
    params.split(';').find_map(|kv| {
        let (k, v) = kv.split_once(':')?;
        (k.trim() == "brush").then(|| v.trim())
    })
}

/// Label names that, as a class, style a block rather than name its language.
const NOT_CLASS_LANGUAGES: [&str; 5] = ["text", "plaintext", "terminal", "console", "cmd"];

/// A usable fence language: no backticks or spaces, not a placeholder.
fn clean(l: &str) -> Option<String> {
    let l = l.trim();
    let ok = !l.is_empty()
        && l.len() <= 40
        && !l.contains(|c: char| c == '`' || c.is_whitespace())
        && !matches!(l, "none" | "default" | "name" | "plain");
    // IPython's lexers (nbconvert's `hl-ipython3`) highlight Python.
    let l = match l.to_ascii_lowercase().as_str() {
        "ipython" | "ipython2" | "ipython3" => "python",
        _ => l,
    };
    ok.then(|| l.to_string())
}

/// The fence language a visible label names, if its text is a language name (a forum's
/// "PHP:" or "PHP Code:" too).
fn label_language(text: &str) -> Option<&'static str> {
    let t = crate::snapshot::collapse_ws(text).to_lowercase();
    let t = t.trim().trim_end_matches(':').trim_end();
    let t = t.strip_suffix(" code").unwrap_or(t);
    if t.is_empty() || t.len() > 20 {
        return None;
    }
    LABELS.iter().find(|(k, _)| *k == t).map(|(_, v)| *v)
}

/// A label that says only that code follows: a forum's "Code:" (vBulletin's
/// `div.bbcode_description`, SMF's "Code: [Select]"), "Source code:".
fn generic_label(text: &str) -> bool {
    let t = crate::snapshot::collapse_ws(text).to_lowercase();
    let t = t.trim().trim_end_matches(':').trim_end();
    matches!(
        t,
        "code" | "source code" | "code: [select]" | "code [select]"
    )
}

/// Is node `d` of code block `root` part of the code's text (inside its `<code>`, or a
/// highlighter's token: Prism's `span.token`, highlight.js's `hljs-*`), where "COPY" is a
/// Dockerfile's keyword, not a button?
fn in_code_text(tree: &Tree, d: NodeId, root: NodeId) -> bool {
    super::class_tokens(tree.node(d)).any(|t| t == "token" || t.starts_with("hljs"))
        || tree
            .ancestors(d)
            .take_while(|&a| a != root)
            .any(|a| tree.node(a).tag == "code")
}

fn is_copy_button(tree: &Tree, id: NodeId) -> bool {
    let n = tree.node(id);
    if n.tag == "button" || n.role.as_deref() == Some("button") {
        return true;
    }
    let copyish = n.class.as_deref().is_some_and(|c| {
        let c = c.to_ascii_lowercase();
        c.contains("copy") || c.contains("clipboard")
    });
    let chars = tree.chars[id];
    chars <= 30
        && (copyish
            || (chars >= 2 && {
                let t = tree.text(id).to_lowercase();
                COPY_WORDS.contains(&t.trim())
            }))
}

/// The code blocks of the kept content.
#[derive(Debug, Default)]
pub(super) struct CodeBlocks {
    /// Languages read from labels (or stated), by block root.
    pub(super) langs: HashMap<NodeId, String>,
    /// The blocks' roots, in document order.
    pub(super) roots: Vec<NodeId>,
}

impl CodeBlocks {
    /// The code block holding this node, if any.
    pub(super) fn around(&self, tree: &Tree, id: NodeId) -> Option<NodeId> {
        let at = self.roots.partition_point(|&r| r <= id);
        let r = *self.roots.get(at.checked_sub(1)?)?;
        tree.contains(r, id).then_some(r)
    }
}

/// A list inside a code block whose items are its line numbers, 1, 2, 3, … in order (CSDN's
/// `ul.pre-numbering` after the `<code>`): a gutter, whatever its class.
fn numbered_gutter(tree: &Tree, l: NodeId) -> bool {
    if !matches!(tree.node(l).tag.as_str(), "ul" | "ol") {
        return false;
    }
    let items: Vec<NodeId> = tree.children[l]
        .iter()
        .copied()
        .filter(|&c| tree.node(c).is_element())
        .collect();
    items.len() >= 2
        && items
            .iter()
            .enumerate()
            .all(|(k, &li)| tree.text(li).trim() == (k + 1).to_string())
}

/// Find the code blocks with kept text (all of whose text is then kept): hide their gutters, copy buttons and labels,
/// and return the languages read from labels (by block root).
pub(super) fn prepare(tree: &Tree, kept: &mut Cow<[bool]>, hide: &mut [bool]) -> CodeBlocks {
    let mut found = CodeBlocks::default();
    let langs = &mut found.langs;
    let n = tree.len();
    let mut i = 1;
    while i < n {
        if !is_root(tree, i) {
            i += 1;
            continue;
        }
        let end = tree.subtree_end(i);
        if !(i..end).any(|d| kept[d]) {
            i = end;
            continue;
        }
        // Some of the block's text kept: all of it is (code is not cut into lines).
        let shown = |d: NodeId| tree.node(d).rendered || tree.node(d).tag == "br";
        if (i..end).any(|d| !kept[d] && shown(d)) {
            for (d, k) in kept.to_mut()[i..end].iter_mut().enumerate() {
                *k |= shown(i + d);
            }
        }
        found.roots.push(i);
        // A block in a gutter (Pygments' `td.linenos`): only line numbers.
        if wrappers(tree, i).any(|a| GUTTER_CELLS.iter().any(|c| has_class(tree.node(a), c))) {
            hide[i..end].fill(true);
            i = end;
            continue;
        }
        // Gutters and decorations inside the block.
        for (d, h) in hide.iter_mut().enumerate().take(end).skip(i + 1) {
            let dn = tree.node(d);
            if dn.is_text() {
                continue;
            }
            if GUTTER_CLASSES.iter().any(|c| has_class(dn, c))
                || numbered_gutter(tree, d)
                || (dn.attrs.get("aria-hidden").is_some_and(|v| v == "true")
                    && tree
                        .text(d)
                        .chars()
                        .all(|c| c.is_ascii_digit() || c.is_whitespace()))
                || (is_copy_button(tree, d) && !in_code_text(tree, d, i))
            {
                *h = true;
            }
        }
        let mut lang = own_language(tree, i);
        // A label inside the block, before its code: a box of its own, or before a `<code>`
        // (not a first token that names a language: `<span class="token">python</span> -m`).
        let code_child = tree.children[i].iter().any(|&k| tree.node(k).tag == "code");
        for &k in &tree.children[i] {
            let kn = tree.node(k);
            if kn.is_text() || kn.tag == "code" {
                break;
            }
            if !(code_child || tree.is_block(k)) {
                continue;
            }
            if let Some(l) = label_language(&tree.text(k)) {
                hide[k] = true;
                lang.get_or_insert_with(|| l.to_string());
                break;
            }
        }
        // Labels and buttons in the block's wrapper.
        let mut cur = i;
        for _ in 0..WRAPPER_LEVELS {
            let Some(p) = tree.parent(cur) else { break };
            if p == 0 || tree.chars[p] > tree.chars[i] + WRAPPER_EXTRA_CHARS {
                break;
            }
            for s in tree.subtree(p) {
                if tree.contains(i, s) || tree.contains(s, i) || hide[s] || tree.node(s).is_text() {
                    continue;
                }
                let label = (s < i && tree.node(s).heading_level().is_none()).then(|| {
                    let text = tree.text(s);
                    let leaf = tree.children[s].iter().all(|&k| tree.node(k).is_text())
                        || tree.children[s].len() == 1;
                    (leaf, text)
                });
                // A language picker is a button whose text names the language (Notion's).
                let named = label
                    .as_ref()
                    .and_then(|(leaf, text)| leaf.then(|| label_language(text)).flatten());
                if let Some(l) = named {
                    hide[s] = true;
                    lang.get_or_insert_with(|| l.to_string());
                } else if is_copy_button(tree, s)
                    || is_fold_label(tree, s)
                    || is_code_title(tree, s, i)
                    || label.is_some_and(|(leaf, text)| leaf && generic_label(&text))
                {
                    for d in tree.subtree(s) {
                        hide[d] = true;
                    }
                }
            }
            cur = p;
        }
        if let Some(l) = lang {
            langs.insert(i, l);
        }
        i = end;
    }
    found
}

/// A code block's title above it in its wrapper (Asciidoctor's `div.title`, Docusaurus's
/// `codeBlockTitle`, Hexo's `figcaption`): a file name the page shows over the code, not a
/// line of it. Written nowhere, as the language label is.
fn is_code_title(tree: &Tree, id: NodeId, code: NodeId) -> bool {
    let n = tree.node(id);
    id < code
        && tree.chars[id] > 0
        && tree.chars[id] <= MAX_TITLE_CHARS
        && n.heading_level().is_none()
        && (n.tag == "figcaption"
            || n.class.as_deref().is_some_and(|c| {
                c.split_whitespace().any(|t| {
                    let t = t.to_ascii_lowercase();
                    t == "title"
                        || t.ends_with("-title")
                        || t.ends_with("title_")
                        || t.starts_with("codeblocktitle")
                })
            }))
}

/// The longest code title ([`is_code_title`]), in characters.
const MAX_TITLE_CHARS: usize = 60;

/// The `<summary>` of a `<details>` that folds a code block ("Code", "Show code": Quarto's
/// and R Markdown's code folding), not a title of the code.
fn is_fold_label(tree: &Tree, id: NodeId) -> bool {
    let n = tree.node(id);
    if n.tag != "summary" || tree.chars[id] > 24 {
        return false;
    }
    let t = tree.text(id).to_lowercase();
    t.split(|c: char| !c.is_alphanumeric())
        .any(|w| w == "code" || w == "source")
}

/// The language stated by the block, its `<code>` or a wrapper's classes and attributes.
fn own_language(tree: &Tree, root: NodeId) -> Option<String> {
    if let Some(l) = node_language(tree.node(root)) {
        return Some(l);
    }
    for d in tree.subtree(root).skip(1).take(64) {
        let dn = tree.node(d);
        // An editor widget's `<pre>` or highlighter `div` (nbconvert's
        // `div.cm-editor > div.highlight.hl-ipython3 > pre`).
        if matches!(dn.tag.as_str(), "code" | "pre" | "div")
            || LANGUAGE_ATTRS.iter().any(|a| dn.attrs.contains_key(*a))
        {
            if let Some(l) = node_language(dn) {
                return Some(l);
            }
        }
    }
    wrappers(tree, root).find_map(|a| node_language(tree.node(a)))
}

/// The ancestors a code block's wrapper may be: [`WRAPPER_LEVELS`] of them, the parts of a
/// table (Pygments' and Chroma's line-number tables) not counted.
fn wrappers<'t>(tree: &'t Tree, root: NodeId) -> impl Iterator<Item = NodeId> + 't {
    let mut levels = 0;
    tree.ancestors(root)
        .take(WRAPPER_LEVELS + 4)
        .take_while(move |&a| {
            if !matches!(tree.node(a).tag.as_str(), "table" | "tbody" | "tr" | "td") {
                levels += 1;
            }
            a != 0 && levels <= WRAPPER_LEVELS
        })
}

/// Is this element a line of code (a line break before and after it)?
fn is_line(tree: &Tree, id: NodeId) -> bool {
    let n = tree.node(id);
    matches!(n.tag.as_str(), "div" | "p" | "tr" | "li")
        || (n.tag != "br" && n.tag != "code" && tree.is_block(id))
        || [
            "line",
            "cm-line",
            "CodeMirror-line",
            "view-line",
            "code-line",
        ]
        .iter()
        .any(|c| has_class(n, c))
}

impl Writer<'_, '_> {
    /// The code of a block: its kept, shown text with its line breaks.
    fn code_text(&self, root: NodeId) -> String {
        if has_class(self.tree.node(root), "monaco-editor") {
            return self.monaco_lines(root);
        }
        let mut out = String::new();
        // Line elements just closed: the next text starts a new line.
        let mut pending = false;
        // (node, entering, the output's length when a line element opened)
        let mut stack: Vec<(NodeId, bool, usize)> = self
            .code_kids(root)
            .into_iter()
            .map(|k| (k, true, 0))
            .collect();
        stack.reverse();
        while let Some((id, enter, opened)) = stack.pop() {
            let n = self.tree.node(id);
            // A hidden element's line break: the line ends there.
            if self.hide[id] {
                if let Some(tail) = self.hidden_break(id) {
                    out.truncate(out.trim_end_matches([' ', '\t']).len());
                    out.push_str(tail);
                }
                continue;
            }
            if !enter {
                // A line element with nothing in it is a blank line (Expressive Code's
                // `<div class="ec-line"><div class="code">\n</div></div>`), unless a blank
                // line already ends the output (Shiki's newline between its lines).
                if out.len() == opened && !out.is_empty() && !out.ends_with("\n\n") {
                    out.push('\n');
                }
                pending = true;
                continue;
            }
            if let Some(t) = n.raw.as_ref().or(n.text.as_ref()) {
                if pending && !out.is_empty() && !out.ends_with('\n') {
                    out.push('\n');
                }
                pending = false;
                // Collapsed white space (no `raw`) opening a line shows nothing: MyBB's
                // `<code>a<br />\nb` is `a` and `b`, not ` b`.
                let t = if n.raw.is_none() && (out.is_empty() || out.ends_with('\n')) {
                    t.trim_start()
                } else {
                    t
                };
                out.push_str(t);
                continue;
            }
            if n.tag == "br" {
                out.push('\n');
                pending = false;
                continue;
            }
            if self.base_kind(id) == super::Kind::Skip {
                continue;
            }
            let line = is_line(self.tree, id);
            if line {
                if !out.is_empty() && !out.ends_with('\n') {
                    out.push('\n');
                }
                pending = false;
                stack.push((id, false, out.len()));
            }
            stack.extend(self.code_kids(id).into_iter().rev().map(|k| (k, true, 0)));
        }
        out.replace('\u{a0}', " ")
    }

    /// The children of a code element to write: its kept ones, and a hidden one (a callout
    /// number, a toolbar) whose text carried a line break, which the snapshot gives to the
    /// text before it ([`Self::hidden_break`]).
    fn code_kids(&self, id: NodeId) -> Vec<NodeId> {
        self.tree.children[id]
            .iter()
            .copied()
            .filter(|&k| {
                self.kept[k] && !self.moved[k] && (!self.hide[k] || self.hidden_break(k).is_some())
            })
            .collect()
    }

    /// The line break (and the next line's indentation) at the end of a hidden element's
    /// text, if any.
    fn hidden_break(&self, id: NodeId) -> Option<&str> {
        let last = self
            .tree
            .subtree(id)
            .rev()
            .find(|&d| self.tree.node(d).raw.is_some())?;
        let raw = self.tree.node(last).raw.as_deref()?;
        let tail = &raw[raw.trim_end().len()..];
        tail.contains('\n').then_some(tail)
    }

    /// Monaco's lines (`.view-line`), ordered by their box.
    fn monaco_lines(&self, root: NodeId) -> String {
        let mut lines: Vec<(f64, String)> = Vec::new();
        let mut stack: Vec<NodeId> = self.kids(root).collect();
        while let Some(id) = stack.pop() {
            let n = self.tree.node(id);
            if has_class(n, "view-line") {
                let mut s = String::new();
                for d in self.tree.subtree(id) {
                    if self.kept[d] && !self.hide[d] {
                        let dn = self.tree.node(d);
                        if let Some(t) = dn.raw.as_ref().or(dn.text.as_ref()) {
                            s.push_str(t);
                        }
                    }
                }
                lines.push((n.rect.y, s.replace('\u{a0}', " ")));
            } else {
                stack.extend(self.kids(id));
            }
        }
        lines.sort_by(|a, b| a.0.total_cmp(&b.0));
        lines
            .into_iter()
            .map(|(_, l)| l.trim_end().to_string())
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// A fenced code block of a `<pre>`, block `<code>`, editor widget or table of lines.
    pub(super) fn code_block(&self, id: NodeId, blocks: &mut Vec<Block>) {
        let raw = self.code_text(id);
        let code = if raw.contains('\n') {
            // Real newlines: keep indentation, drop blank edges.
            let start = raw
                .find(|c: char| c != '\n' && c != '\r')
                .unwrap_or(raw.len());
            let start = raw[..start].rfind('\n').map_or(0, |i| i + 1);
            // White space at a line's end shows nothing (a callout marker left it behind).
            raw[start..]
                .trim_end()
                .lines()
                .map(str::trim_end)
                .collect::<Vec<_>>()
                .join("\n")
        } else {
            raw.trim().to_string()
        };
        if code.trim().is_empty() {
            return;
        }
        let lang = self
            .code
            .langs
            .get(&id)
            .cloned()
            .or_else(|| own_language(self.tree, id))
            .unwrap_or_default();
        let f = fence(&code, 3);
        blocks.push(Block {
            kind: BlockKind::Other,
            text: format!("{f}{lang}\n{code}\n{f}"),
        });
    }
}
