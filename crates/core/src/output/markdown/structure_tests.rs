//! Tests of the markdown writer's structure rules: code blocks, footnotes, callouts,
//! definition lists, videos, quotes and heading levels.

use super::*;
use crate::extract::Algorithm;
use crate::snapshot::{rect, Snapshot, SnapshotBuilder};

fn md_kept(snap: &Snapshot, kept: Option<&[NodeId]>) -> String {
    let tree = Tree::new(snap);
    let mut ex = Extraction::empty(Algorithm::Td, snap.nodes.len());
    match kept {
        None => ex.kept = vec![true; snap.nodes.len()],
        Some(roots) => {
            for &r in roots {
                for i in tree.subtree(r) {
                    ex.kept[i] = true;
                }
            }
        }
    }
    render(&tree, &ex)
}

fn md(snap: &Snapshot) -> String {
    md_kept(snap, None)
}

fn el(b: &mut SnapshotBuilder, parent: NodeId, tag: &str, class: &str) -> NodeId {
    let id = b.el(parent, tag, rect(0.0, 0.0, 600.0, 20.0));
    if !class.is_empty() {
        b.node_mut(id).class = Some(class.into());
    }
    id
}

/// An inline element (`span`, `a`, `sup`, ...).
fn span(b: &mut SnapshotBuilder, parent: NodeId, tag: &str, class: &str) -> NodeId {
    let id = el(b, parent, tag, class);
    b.node_mut(id).display = "inline".into();
    id
}

/// A text node with `raw` (preserved whitespace).
fn raw(b: &mut SnapshotBuilder, parent: NodeId, t: &str) -> NodeId {
    let id = b.text(parent, &crate::snapshot::collapse_ws(t));
    b.node_mut(id).raw = Some(t.into());
    id
}

#[test]
fn code_language_from_classes_and_attributes() {
    let mut b = SnapshotBuilder::new(1000.0);
    let d = el(&mut b, 0, "div", "highlight highlight-source-python");
    let pre = el(&mut b, d, "pre", "");
    raw(&mut b, pre, "print(1)\n");
    let pre = el(&mut b, 0, "pre", "brush: js; notranslate");
    raw(&mut b, pre, "let a = 1;");
    let pre = el(&mut b, 0, "pre", "");
    b.node_mut(pre)
        .attrs
        .insert("data-language".into(), "go".into());
    let code = span(&mut b, pre, "code", "");
    raw(&mut b, code, "package main");
    let d = el(&mut b, 0, "div", "highlight-default notranslate");
    let pre = el(&mut b, d, "pre", "");
    raw(&mut b, pre, "x");
    assert_eq!(
        md(&b.build()),
        "```python\nprint(1)\n```\n\n```js\nlet a = 1;\n```\n\n```go\npackage main\n```\n\n```\nx\n```\n"
    );
}

#[test]
fn code_label_above_the_block_leaves_the_code_and_names_the_language() {
    // GitHub docs: a header with the language and a copy button above the `<pre>`.
    let mut b = SnapshotBuilder::new(1000.0);
    let p = el(&mut b, 0, "p", "");
    b.text(p, "Install it:");
    let wrap = el(&mut b, 0, "div", "code-extra");
    let head = el(&mut b, wrap, "header", "");
    let label = span(&mut b, head, "span", "");
    b.text(label, "Shell");
    let btn = span(&mut b, head, "button", "");
    b.text(btn, "Copy");
    let pre = el(&mut b, wrap, "pre", "");
    let code = span(&mut b, pre, "code", "");
    raw(&mut b, code, "npm install sightline\n");
    // A label inside the `<pre>`, before the code.
    let pre = el(&mut b, 0, "pre", "");
    let lab = el(&mut b, pre, "div", "code-lang");
    b.text(lab, "python");
    let code = span(&mut b, pre, "code", "");
    raw(&mut b, code, "import os");
    assert_eq!(
        md(&b.build()),
        "Install it:\n\n```shell\nnpm install sightline\n```\n\n```python\nimport os\n```\n"
    );
}

#[test]
fn a_heading_naming_a_language_is_not_a_label() {
    let mut b = SnapshotBuilder::new(1000.0);
    let sec = el(&mut b, 0, "section", "");
    let h = el(&mut b, sec, "h2", "");
    b.text(h, "Python");
    let pre = el(&mut b, sec, "pre", "");
    raw(&mut b, pre, "import os");
    assert_eq!(md(&b.build()), "# Python\n\n```\nimport os\n```\n");
}

#[test]
fn code_lines_from_br_div_and_span_lines() {
    let mut b = SnapshotBuilder::new(1000.0);
    // A `<br>` per line, in a `<pre>` whose text the snapshot collapsed.
    let pre = el(&mut b, 0, "pre", "");
    b.text(pre, "a = 1");
    span(&mut b, pre, "br", "");
    // The newline after the `<br>` (MyBB's `a<br />\nb`), collapsed to a space, shows nothing.
    let t = b.text(pre, "b = 2");
    b.node_mut(t).text = Some(" b = 2".into());
    // A `<div>` per line, an empty line holding a `<br>`.
    let pre = el(&mut b, 0, "pre", "");
    let code = span(&mut b, pre, "code", "language-c");
    for line in ["int x;", "", "  x++;"] {
        let d = el(&mut b, code, "div", "");
        if line.is_empty() {
            span(&mut b, d, "br", "");
        } else {
            raw(&mut b, d, line);
        }
    }
    // Shiki: `span.line` per line, inline, with the newline text between them.
    let pre = el(&mut b, 0, "pre", "shiki");
    let code = span(&mut b, pre, "code", "");
    let l1 = span(&mut b, code, "span", "line");
    let t = span(&mut b, l1, "span", "");
    raw(&mut b, t, "one\n");
    let l2 = span(&mut b, code, "span", "line");
    raw(&mut b, l2, "two");
    assert_eq!(
        md(&b.build()),
        "```\na = 1\nb = 2\n```\n\n```c\nint x;\n\n  x++;\n```\n\n```\none\ntwo\n```\n"
    );
}

#[test]
fn gutters_line_numbers_and_copy_buttons_are_dropped() {
    let mut b = SnapshotBuilder::new(1000.0);
    // Pygments `linenos="table"`.
    let d = el(&mut b, 0, "div", "highlight-python");
    let t = el(&mut b, d, "table", "highlighttable");
    let tr = el(&mut b, t, "tr", "");
    let td = el(&mut b, tr, "td", "linenos");
    let nd = el(&mut b, td, "div", "linenodiv");
    let pre = el(&mut b, nd, "pre", "");
    raw(&mut b, pre, "1\n2");
    let td = el(&mut b, tr, "td", "code");
    let pre = el(&mut b, td, "pre", "");
    raw(&mut b, pre, "a = 1\nb = 2\n");
    // Prism line numbers and a copy button inside the block.
    let pre = el(&mut b, 0, "pre", "line-numbers language-js");
    let code = span(&mut b, pre, "code", "");
    raw(&mut b, code, "f();\ng();");
    let rows = span(&mut b, code, "span", "line-numbers-rows");
    span(&mut b, rows, "span", "");
    let btn = span(&mut b, pre, "button", "copy-btn");
    b.text(btn, "Copied!");
    // Chroma inline line numbers.
    let pre = el(&mut b, 0, "pre", "chroma");
    let code = span(&mut b, pre, "code", "language-go");
    let ln = span(&mut b, code, "span", "ln");
    b.text(ln, "1");
    raw(&mut b, code, "x := 1\n");
    assert_eq!(
        md(&b.build()),
        "```python\na = 1\nb = 2\n```\n\n```js\nf();\ng();\n```\n\n```go\nx := 1\n```\n"
    );
}

#[test]
fn editor_widgets_are_one_block_of_their_lines() {
    let mut b = SnapshotBuilder::new(1000.0);
    // CodeMirror 6: `.cm-line` divs, a gutter.
    let ed = el(&mut b, 0, "div", "cm-editor");
    let sc = el(&mut b, ed, "div", "cm-scroller");
    let g = el(&mut b, sc, "div", "cm-gutters");
    b.text(g, "1 2");
    let content = el(&mut b, sc, "div", "cm-content");
    for line in ["def f():", "    return 1"] {
        let l = el(&mut b, content, "div", "cm-line");
        raw(&mut b, l, line);
    }
    // Monaco: lines out of document order, placed by their boxes.
    let ed = el(&mut b, 0, "div", "monaco-editor");
    let lines = el(&mut b, ed, "div", "view-lines");
    for (y, line) in [(40.0, "b();"), (20.0, "a();")] {
        let l = b.el(lines, "div", rect(0.0, y, 600.0, 20.0));
        b.node_mut(l).class = Some("view-line".into());
        let s = span(&mut b, l, "span", "");
        b.text(s, line);
    }
    // CodeMirror 5: a `pre.CodeMirror-line` per line.
    let ed = el(&mut b, 0, "div", "CodeMirror cm-s-default");
    let code = el(&mut b, ed, "div", "CodeMirror-code");
    for line in ["x = 1", "y = 2"] {
        let l = el(&mut b, code, "pre", "CodeMirror-line");
        let s = span(&mut b, l, "span", "");
        raw(&mut b, s, line);
    }
    assert_eq!(
        md(&b.build()),
        "```\ndef f():\n    return 1\n```\n\n```\na();\nb();\n```\n\n```\nx = 1\ny = 2\n```\n"
    );
}

#[test]
fn inline_code_stays_inline_with_the_right_delimiter() {
    let mut b = SnapshotBuilder::new(1000.0);
    let p = el(&mut b, 0, "p", "");
    b.text(p, "Call ");
    let c = span(&mut b, p, "code", "");
    b.text(c, "a`b");
    b.text(p, " now.");
    assert_eq!(md(&b.build()), "Call ``a`b`` now.\n");
}

/// A paragraph with a reference `<sup><a href="#fn1">1</a></sup>` (pandoc / markdown-it
/// shape) and its definitions list.
fn footnoted(section_kept: bool) -> (Snapshot, Vec<NodeId>) {
    let mut b = SnapshotBuilder::new(1000.0);
    let art = el(&mut b, 0, "article", "");
    let p = el(&mut b, art, "p", "");
    b.text(p, "Water expands");
    let sup = span(&mut b, p, "sup", "footnote-ref");
    let a = span(&mut b, sup, "a", "");
    b.node_mut(a).href = Some("about:test#fn1".into());
    b.node_mut(a).id = Some("fnref1".into());
    b.text(a, "[1]");
    b.text(p, " when it freezes.");
    let sep = el(&mut b, 0, "hr", "footnotes-sep");
    let sec = el(&mut b, 0, "section", "footnotes");
    let ol = el(&mut b, sec, "ol", "footnotes-list");
    let li = el(&mut b, ol, "li", "footnote-item");
    b.node_mut(li).id = Some("fn1".into());
    let lp = el(&mut b, li, "p", "");
    b.text(lp, "By about 9%. ");
    let back = span(&mut b, lp, "a", "footnote-backref");
    b.node_mut(back).href = Some("about:test#fnref1".into());
    b.text(back, "↩︎");
    let kept = if section_kept {
        vec![art, sep, sec]
    } else {
        vec![art]
    };
    (b.build(), kept)
}

#[test]
fn footnotes_as_references_and_definitions_at_the_end() {
    let want = "Water expands[^1] when it freezes.\n\n[^1]: By about 9%.\n";
    let (snap, kept) = footnoted(true);
    assert_eq!(md_kept(&snap, Some(&kept)), want);
    // A definition the extraction dropped is still written.
    let (snap, kept) = footnoted(false);
    assert_eq!(md_kept(&snap, Some(&kept)), want);
}

#[test]
fn wikipedia_and_google_docs_footnotes() {
    let mut b = SnapshotBuilder::new(1000.0);
    let p = el(&mut b, 0, "p", "");
    b.text(p, "Ice floats.");
    let sup = span(&mut b, p, "sup", "reference");
    b.node_mut(sup).id = Some("cite_ref-2".into());
    let a = span(&mut b, sup, "a", "");
    b.node_mut(a).href = Some("#cite_note-2".into());
    b.text(a, "[2]");
    b.text(p, " Docs say so.");
    let sup = span(&mut b, p, "sup", "");
    let a = span(&mut b, sup, "a", "");
    b.node_mut(a).href = Some("#ftnt1".into());
    b.node_mut(a).id = Some("ftnt_ref1".into());
    b.text(a, "[1]");
    // Wikipedia's heading and reference list.
    let h = el(&mut b, 0, "h2", "");
    b.text(h, "References");
    let rl = el(&mut b, 0, "div", "reflist");
    let ol = el(&mut b, rl, "ol", "references");
    let li = el(&mut b, ol, "li", "");
    b.node_mut(li).id = Some("cite_note-2".into());
    let back = span(&mut b, li, "span", "mw-cite-backlink");
    let ba = span(&mut b, back, "a", "");
    b.node_mut(ba).href = Some("#cite_ref-2".into());
    b.text(ba, "^");
    let rt = span(&mut b, li, "span", "reference-text");
    b.text(rt, "Smith 2005, p. 3.");
    // Google Docs: the target is the anchor inside the note's paragraph.
    let d = el(&mut b, 0, "div", "");
    let np = el(&mut b, d, "p", "");
    let na = span(&mut b, np, "a", "");
    b.node_mut(na).href = Some("#ftnt_ref1".into());
    b.node_mut(na).id = Some("ftnt1".into());
    b.text(na, "[1]");
    b.text(np, " A note from the doc.");
    assert_eq!(
        md(&b.build()),
        "Ice floats.[^2] Docs say so.[^1]\n\n[^2]: Smith 2005, p. 3.\n[^1]: A note from the doc.\n"
    );
}

#[test]
fn sidenotes_and_numbered_definition_labels() {
    let mut b = SnapshotBuilder::new(1000.0);
    // Tufte CSS: the side note stands where it is referenced.
    let p = el(&mut b, 0, "p", "");
    b.text(p, "Tufte wrote");
    let lab = span(&mut b, p, "label", "margin-toggle sidenote-number");
    let _ = lab;
    let sn = el(&mut b, p, "span", "sidenote");
    b.text(sn, "In 1983.");
    b.text(p, " a book.");
    // pulldown-cmark: `div.footnote-definition` with its number label.
    let p = el(&mut b, 0, "p", "");
    b.text(p, "Rust");
    let sup = span(&mut b, p, "sup", "footnote-reference");
    let a = span(&mut b, sup, "a", "");
    b.node_mut(a).href = Some("#note".into());
    b.text(a, "2");
    let d = el(&mut b, 0, "div", "footnote-definition");
    b.node_mut(d).id = Some("note".into());
    let l = span(&mut b, d, "sup", "footnote-definition-label");
    b.text(l, "2");
    let dp = el(&mut b, d, "p", "");
    b.text(dp, "A language.");
    assert_eq!(
        md(&b.build()),
        "Tufte wrote[^1] a book.\n\nRust[^2]\n\n[^1]: In 1983.\n[^2]: A language.\n"
    );
}

#[test]
fn hover_notes_and_distill_footnotes_are_notes_and_a_bibliography_stays_cited() {
    let mut b = SnapshotBuilder::new(1000.0);
    // LaTeXML: the marker shows, the note's text is in a hidden element (`hidden-text`).
    let p = el(&mut b, 0, "p", "");
    b.text(p, "We model the height");
    let cite = span(&mut b, p, "cite", "ltx_cite");
    b.text(cite, " [");
    let a = span(&mut b, cite, "a", "ltx_ref");
    b.node_mut(a).href = Some("#bib.bib1".into());
    b.text(a, "1");
    b.text(cite, "]");
    b.text(p, " of a site.");
    let note = span(&mut b, p, "span", "ltx_note ltx_role_footnote");
    let mark = span(&mut b, note, "sup", "ltx_note_mark");
    b.text(mark, "1");
    let outer = span(&mut b, note, "span", "ltx_note_outer");
    b.node_mut(outer).display = "none".into();
    b.node_mut(outer).rendered = false;
    b.node_mut(outer)
        .attrs
        .insert("hidden-text".into(), "1 Code and data: release 3.".into());
    // Distill with its template script blocked: the note's text shows in the sentence.
    let p2 = el(&mut b, 0, "p", "");
    b.text(p2, "Its variance is large");
    let d = span(&mut b, p2, "d-footnote", "");
    b.text(d, "The correction fixes the mean.");
    b.text(p2, ".");
    let bib = el(&mut b, 0, "ul", "ltx_biblist");
    let li = el(&mut b, bib, "li", "ltx_bibitem");
    b.node_mut(li).id = Some("bib.bib1".into());
    b.text(li, "A. Marsh (2019) Harmonic tides revisited.");
    assert_eq!(
        md(&b.build()),
        "We model the height *\\[[1](#bib.bib1)\\]* of a site.[^1]\n\n\
         Its variance is large[^2].\n\n- A. Marsh (2019) Harmonic tides revisited.\n\n\
         [^1]: Code and data: release 3.\n[^2]: The correction fixes the mean.\n"
    );
}

#[test]
fn a_key_value_table_whose_values_are_kept_is_a_table_whatever_its_role() {
    // Amazon's specification table: `role="presentation"`, a `th` key and a `td` value a
    // row; the extraction kept the values only.
    let mut b = SnapshotBuilder::new(1000.0);
    let t = el(&mut b, 0, "table", "prodDetTable");
    b.node_mut(t).role = Some("presentation".into());
    let body = el(&mut b, t, "tbody", "");
    let mut values = Vec::new();
    for (k, v) in [
        ("Capacity", "32 ounces"),
        ("Material", "Steel"),
        ("Colour", "Glacier"),
    ] {
        let tr = el(&mut b, body, "tr", "");
        let th = el(&mut b, tr, "th", "");
        b.text(th, k);
        let td = el(&mut b, tr, "td", "");
        values.push(b.text(td, v));
    }
    // A presentation table of two plain cells a row stays a layout.
    let lay = el(&mut b, 0, "table", "");
    b.node_mut(lay).role = Some("presentation".into());
    let mut cells = Vec::new();
    for row in [["Left box.", "Right box."], ["More left.", "More right."]] {
        let tr = el(&mut b, lay, "tr", "");
        for c in row {
            let td = el(&mut b, tr, "td", "");
            cells.push(b.text(td, c));
        }
    }
    let kept: Vec<NodeId> = values[..2].iter().chain(&cells).copied().collect();
    assert_eq!(
        md_kept(&b.build(), Some(&kept)),
        "| Capacity | 32 ounces |\n| --- | --- |\n| Material | Steel |\n| Colour | Glacier |\n\n\
         Left box.\n\nRight box.\n\nMore left.\n\nMore right.\n"
    );
}

#[test]
fn in_page_links_that_are_not_notes_stay_links() {
    let mut b = SnapshotBuilder::new(1000.0);
    let p = el(&mut b, 0, "p", "");
    let a = span(&mut b, p, "a", "");
    b.node_mut(a).href = Some("#setup".into());
    b.text(a, "See the setup section");
    let h = el(&mut b, 0, "h2", "");
    b.node_mut(h).id = Some("setup".into());
    b.text(h, "Setup");
    assert_eq!(
        md(&b.build()),
        "[See the setup section](#setup)\n\n# Setup\n"
    );
}

#[test]
fn callouts_as_alerts_with_repeated_titles_dropped() {
    let mut b = SnapshotBuilder::new(1000.0);
    // GitHub.
    let d = el(&mut b, 0, "div", "markdown-alert markdown-alert-warning");
    let t = el(&mut b, d, "p", "markdown-alert-title");
    b.text(t, "Warning");
    let p = el(&mut b, d, "p", "");
    b.text(p, "Back up first.");
    // MkDocs with a title of its own.
    let d = el(&mut b, 0, "div", "admonition tip");
    let t = el(&mut b, d, "p", "admonition-title");
    b.text(t, "Faster builds");
    let p = el(&mut b, d, "p", "");
    b.text(p, "Use a cache.");
    // Bootstrap and Obsidian.
    let d = el(&mut b, 0, "div", "alert alert-danger");
    b.node_mut(d).role = Some("alert".into());
    b.text(d, "Do not unplug.");
    let d = el(&mut b, 0, "div", "callout");
    b.node_mut(d)
        .attrs
        .insert("data-callout".into(), "abstract".into());
    let t = el(&mut b, d, "div", "callout-title");
    b.text(t, "Abstract");
    let c = el(&mut b, d, "div", "callout-content");
    b.text(c, "In short.");
    // A plain `alert` class without a kind is not a callout.
    let d = el(&mut b, 0, "div", "alert");
    b.text(d, "Plain.");
    assert_eq!(
        md(&b.build()),
        "> [!WARNING]\n> Back up first.\n\n> [!TIP]\n> **Faster builds**\n>\n> Use a cache.\n\n\
         > [!CAUTION]\n> Do not unplug.\n\n> [!NOTE]\n> In short.\n\nPlain.\n"
    );
}

#[test]
fn vitepress_mdn_and_starlight_callouts_drop_a_lead_in_that_repeats_the_kind() {
    let mut b = SnapshotBuilder::new(1000.0);
    // VitePress: the title paragraph repeats the kind.
    let d = el(&mut b, 0, "div", "danger custom-block");
    let t = el(&mut b, d, "p", "custom-block-title");
    b.text(t, "DANGER");
    let p = el(&mut b, d, "p", "");
    b.text(p, "Never commit secrets.");
    // MDN: a bold lead-in that repeats the kind.
    let d = el(&mut b, 0, "div", "notecard note");
    let p = el(&mut b, d, "p", "");
    let s = span(&mut b, p, "strong", "");
    b.text(s, "Note:");
    b.text(p, " Keys are compared by identity.");
    // Starlight, whose bold lead-in says more than the kind: kept.
    let d = el(&mut b, 0, "aside", "starlight-aside starlight-aside--tip");
    let p = el(&mut b, d, "p", "");
    let s = span(&mut b, p, "strong", "");
    b.text(s, "Cache it:");
    b.text(p, " builds get faster.");
    assert_eq!(
        md(&b.build()),
        "> [!CAUTION]\n> Never commit secrets.\n\n> [!NOTE]\n> Keys are compared by identity.\n\n\
         > [!TIP]\n> **Cache it:** builds get faster.\n"
    );
}

#[test]
fn task_lists_and_numbered_lists_that_start_later() {
    let mut b = SnapshotBuilder::new(1000.0);
    let ul = el(&mut b, 0, "ul", "contains-task-list");
    for (done, text) in [(true, "gzip input"), (false, "zstd input")] {
        let li = el(&mut b, ul, "li", "task-list-item");
        let input = span(&mut b, li, "input", "task-list-item-checkbox");
        b.node_mut(input)
            .attrs
            .insert("type".into(), "checkbox".into());
        if done {
            b.node_mut(input)
                .attrs
                .insert("checked".into(), String::new());
        }
        b.text(li, text);
    }
    let ol = el(&mut b, 0, "ol", "");
    b.node_mut(ol).attrs.insert("start".into(), "4".into());
    for text in ["Fourth", "Fifth"] {
        let li = el(&mut b, ol, "li", "");
        b.text(li, text);
    }
    assert_eq!(
        md(&b.build()),
        "- [x] gzip input\n- [ ] zstd input\n\n4. Fourth\n5. Fifth\n"
    );
}

#[test]
fn definition_lists_quotes_and_videos() {
    let mut b = SnapshotBuilder::new(1000.0);
    let dl = el(&mut b, 0, "dl", "");
    let dt = el(&mut b, dl, "dt", "");
    b.text(dt, "Latency");
    let dd = el(&mut b, dl, "dd", "");
    b.text(dd, "Time to first byte.");
    let dt = el(&mut b, dl, "dt", "");
    b.text(dt, "Throughput");
    let dd = el(&mut b, dl, "dd", "");
    b.text(dd, "Pages a second.");
    let bq = el(&mut b, 0, "blockquote", "");
    let p = el(&mut b, bq, "p", "");
    b.text(p, "Simple is better.");
    let p = el(&mut b, 0, "p", "");
    b.text(p, "He said ");
    let q = span(&mut b, p, "q", "");
    b.text(q, "hello");
    b.text(p, ".");
    let f = el(&mut b, 0, "iframe", "");
    b.node_mut(f).src = Some("https://www.youtube-nocookie.com/embed/abc123?rel=0".into());
    b.node_mut(f)
        .attrs
        .insert("title".into(), "How ice forms".into());
    let f = el(&mut b, 0, "iframe", "");
    b.node_mut(f).src = Some("https://player.vimeo.com/video/42".into());
    b.node_mut(f)
        .attrs
        .insert("title".into(), "Vimeo video player".into());
    let v = el(&mut b, 0, "video", "");
    b.node_mut(v).src = Some("https://example.com/clip.mp4".into());
    b.node_mut(v)
        .attrs
        .insert("aria-label".into(), "Clip [1]".into());
    let f = el(&mut b, 0, "iframe", "");
    b.node_mut(f).src = Some("https://ads.example.com/frame".into());
    assert_eq!(
        md(&b.build()),
        "**Latency**\n: Time to first byte.\n\n**Throughput**\n: Pages a second.\n\n\
         > Simple is better.\n\nHe said \"hello\".\n\n\
         [Video: How ice forms](https://www.youtube.com/watch?v=abc123)\n\n\
         [Video](https://vimeo.com/42)\n\n[Video: Clip \\[1\\]](https://example.com/clip.mp4)\n"
    );
}

#[test]
fn a_nested_definition_list_follows_its_definition_and_a_kept_definition_brings_its_term() {
    // Sphinx: a class's `<dd>` holds its description and a `<dl>` of methods; the
    // extraction kept the descriptions, not the signatures.
    let mut b = SnapshotBuilder::new(1000.0);
    let dl = el(&mut b, 0, "dl", "py class");
    let dt = el(&mut b, dl, "dt", "sig");
    b.text(dt, "class Chunker(size)");
    let dd = el(&mut b, dl, "dd", "");
    let p = el(&mut b, dd, "p", "");
    let t1 = b.text(p, "Collect items into groups of a size.");
    let inner = el(&mut b, dd, "dl", "py method");
    let mdt = el(&mut b, inner, "dt", "sig");
    b.text(mdt, "feed(item)");
    let mdd = el(&mut b, inner, "dd", "");
    let mp = el(&mut b, mdd, "p", "");
    let t2 = b.text(mp, "Add one item to the group.");
    let snap = b.build();
    let tree = Tree::new(&snap);
    let mut ex = Extraction::empty(Algorithm::Td, snap.nodes.len());
    for i in [dl, dd, p, t1, inner, mdd, mp, t2] {
        ex.kept[i] = true;
    }
    let out = render(&tree, &ex);
    assert_eq!(
        out,
        "**class Chunker(size)**\n: Collect items into groups of a size.\n\n\
         **feed(item)**\n: Add one item to the group.\n"
    );
}

#[test]
fn heading_levels_relative_with_one_title() {
    let mut b = SnapshotBuilder::new(1000.0);
    for (tag, t) in [("h2", "Title"), ("h3", "Part"), ("h4", "Detail")] {
        let h = el(&mut b, 0, tag, "");
        b.text(h, t);
    }
    assert_eq!(md(&b.build()), "# Title\n\n## Part\n\n### Detail\n");
    let mut b = SnapshotBuilder::new(1000.0);
    for (tag, t) in [("h3", "Title"), ("h4", "Part")] {
        let h = el(&mut b, 0, tag, "");
        b.text(h, t);
    }
    assert_eq!(md(&b.build()), "# Title\n\n## Part\n");
    // A title the extraction left out still counts: the sections keep `##`, and the title is
    // written above them (`title.rs`).
    let mut b = SnapshotBuilder::new(1000.0);
    let h1 = el(&mut b, 0, "h1", "");
    b.text(h1, "Title");
    let h2 = el(&mut b, 0, "h2", "");
    b.text(h2, "Part");
    assert_eq!(md_kept(&b.build(), Some(&[h2])), "# Title\n\n## Part\n");
}

#[test]
fn partly_kept_code_is_written_whole_and_gaps_between_kept_texts_are_filled() {
    let mut b = SnapshotBuilder::new(1000.0);
    let art = el(&mut b, 0, "article", "");
    let p1 = el(&mut b, art, "p", "");
    b.text(p1, "Before.");
    // A Prism block with a line per `span` and `<br>`; the extraction kept one line's text.
    let pre = el(&mut b, art, "pre", "language-js");
    let code = span(&mut b, pre, "code", "");
    let l1 = span(&mut b, code, "span", "token-line");
    let kept_line = raw(&mut b, l1, "a();");
    span(&mut b, l1, "br", "");
    let l2 = span(&mut b, code, "span", "token-line");
    raw(&mut b, l2, "b();");
    // A video between kept paragraphs, not kept.
    let f = el(&mut b, art, "iframe", "");
    b.node_mut(f).src = Some("https://www.youtube.com/embed/xyz".into());
    let p2 = el(&mut b, art, "p", "");
    b.text(p2, "After.");
    // A quote of which one paragraph was kept: written whole, with its attribution.
    let bq = el(&mut b, art, "blockquote", "");
    let qp = el(&mut b, bq, "p", "");
    b.text(qp, "Quoted.");
    let cite = el(&mut b, bq, "footer", "");
    b.text(cite, "Someone");
    let snap = b.build();
    assert_eq!(
        md_kept(&snap, Some(&[p1, kept_line, p2, qp])),
        "Before.\n\n```js\na();\nb();\n```\n\n[Video](https://www.youtube.com/watch?v=xyz)\n\n\
         After.\n\n> Quoted.\n>\n> Someone\n"
    );
}

#[test]
fn comments_with_their_author_in_bold_replies_nested_and_no_action_links() {
    let mut b = SnapshotBuilder::new(1000.0);
    let ol = el(&mut b, 0, "ol", "comment-list");
    let c1 = el(&mut b, ol, "li", "comment");
    b.node_mut(c1).display = "list-item".into();
    let meta = el(&mut b, c1, "div", "comment-meta");
    let au = span(&mut b, meta, "span", "comment-author");
    b.text(au, "Tom");
    b.text(meta, " · ");
    let t = span(&mut b, meta, "time", "");
    b.text(t, "15 March 2026");
    let body = el(&mut b, c1, "p", "");
    b.text(body, "Nice barrels.");
    let r = el(&mut b, c1, "div", "reply");
    let a = span(&mut b, r, "a", "comment-reply-link");
    b.node_mut(a).href = Some("#respond".into());
    b.text(a, "Reply");
    let kids = el(&mut b, c1, "ol", "children");
    let c2 = el(&mut b, kids, "li", "comment");
    b.node_mut(c2).display = "list-item".into();
    let meta = el(&mut b, c2, "div", "comment-meta");
    let au = span(&mut b, meta, "span", "comment-author");
    b.text(au, "Ann");
    let body = el(&mut b, c2, "p", "");
    b.text(body, "Thanks!");
    assert_eq!(
        md(&b.build()),
        "1. **Tom** · 15 March 2026\n\n   Nice barrels.\n   1. **Ann**\n\n      Thanks!\n"
    );
}

/// A README: a kept title, intro and table, then a task list, a note and a last paragraph
/// under a kept heading that the extraction left out; a badge row after the title.
fn readme(b: &mut SnapshotBuilder) -> (NodeId, Vec<NodeId>) {
    let art = el(b, 0, "article", "markdown-body entry-content");
    let h = el(b, art, "h1", "");
    b.text(h, "tally");
    let badges = el(b, art, "p", "");
    let a = span(b, badges, "a", "");
    b.node_mut(a).href = Some("https://ci.example.com/q/tally".into());
    let img = b.el(a, "img", rect(0.0, 30.0, 90.0, 20.0));
    let n = b.node_mut(img);
    n.src = Some("https://camo.example.com/4e1f/badge-ci.svg".into());
    n.alt = Some("CI".into());
    n.display = "inline".into();
    n.link = true;
    let intro = el(b, art, "p", "");
    b.text(intro, "tally counts matching lines in log files, grouped by a field, and prints the top entries of each group.");
    let usage = el(b, art, "p", "");
    b.text(usage, "Run it over any log, plain or compressed, and it streams the lines so that a huge file needs no more memory than a small one.");
    let tasks = el(b, art, "ul", "contains-task-list");
    let item = el(b, tasks, "li", "task-list-item");
    b.text(item, "gzip input");
    let see = el(b, art, "section", "");
    let h2 = el(b, see, "h2", "");
    b.text(h2, "See also");
    let list = el(b, see, "ul", "");
    let li = el(b, list, "li", "");
    let a = span(b, li, "a", "");
    b.node_mut(a).href = Some("https://example.org/grep".into());
    b.text(a, "grep");
    let share = el(b, art, "div", "share-buttons");
    b.text(share, "Share this on every network");
    let meta = el(b, 0, "footer", "");
    b.text(meta, "Site footer");
    (art, vec![h, intro, usage])
}

#[test]
fn the_rest_of_the_chosen_article_joins_the_markdown() {
    let mut b = SnapshotBuilder::new(1000.0);
    let (_, kept) = readme(&mut b);
    let out = md_kept(&b.build(), Some(&kept));
    assert!(
        out.contains(
            "[![CI](https://camo.example.com/4e1f/badge-ci.svg)](https://ci.example.com/q/tally)"
        ),
        "{out}"
    );
    assert!(out.contains("- gzip input"), "{out}");
    assert!(
        out.contains("## See also\n\n- [grep](https://example.org/grep)"),
        "{out}"
    );
    assert!(!out.contains("Share this"), "furniture by its class: {out}");
    assert!(!out.contains("Site footer"), "outside the article: {out}");
}

#[test]
fn the_block_holding_the_first_kept_text_is_looked_into() {
    // The article's first block holds the kept text and, after it, a list the mask left
    // out (pkg.go.dev's index under its overview): the list joins, the byline before the
    // kept text does not.
    let mut b = SnapshotBuilder::new(1000.0);
    let art = el(&mut b, 0, "article", "");
    let body = el(&mut b, art, "div", "");
    let by = el(&mut b, body, "p", "");
    b.text(by, "Posted on a Tuesday");
    let p = el(&mut b, body, "p", "");
    b.text(
        p,
        &"The kept paragraph of the article, long enough to be chosen. ".repeat(4),
    );
    let list = el(&mut b, body, "ul", "");
    for t in ["first item of the list", "second item of the list"] {
        let li = el(&mut b, list, "li", "");
        b.text(li, t);
    }
    let out = md_kept(&b.build(), Some(&[p]));
    assert!(
        out.contains("- first item of the list\n- second item of the list"),
        "{out}"
    );
    assert!(!out.contains("Tuesday"), "{out}");
}

#[test]
fn a_sentence_without_spaces_joins_the_article_a_label_does_not() {
    // Japanese: a sentence is one run of characters with no space; "戻る" ("back") is a
    // label. (Zenn: the body's wrapper also holds the author's `<aside>`, which does not stop
    // the wrapper being looked into, and stays out.)
    let mut b = SnapshotBuilder::new(1000.0);
    let art = el(&mut b, 0, "article", "");
    let wrap = el(&mut b, art, "div", "View_container");
    let mut kept = Vec::new();
    for t in [
        "最初の段落です。",
        "浮動小数点の誤差があるので比較してください。",
        "戻る",
        "最後の段落です。",
    ] {
        let p = el(&mut b, wrap, "p", "");
        b.text(p, &t.repeat(if kept.is_empty() { 12 } else { 1 }));
        kept.push(p);
    }
    let aside = el(&mut b, wrap, "aside", "AsideAuthor_container");
    b.text(aside, "著者のプロフィールと他の記事の一覧です。");
    let out = md_kept(&b.build(), Some(&[kept[0], kept[3]]));
    assert!(
        out.contains("浮動小数点の誤差があるので比較してください。"),
        "{out}"
    );
    assert!(!out.contains("戻る"), "{out}");
    assert!(!out.contains("著者"), "{out}");
}

#[test]
fn an_article_the_extraction_did_not_choose_brings_nothing() {
    let mut b = SnapshotBuilder::new(1000.0);
    let (_, mut kept) = readme(&mut b);
    // Most kept text outside the article: the extraction chose something else.
    let other = el(&mut b, 0, "div", "");
    b.text(
        other,
        &"A long text the extraction kept outside the article. ".repeat(12),
    );
    kept.push(other);
    let out = md_kept(&b.build(), Some(&kept));
    assert!(!out.contains("gzip input"), "{out}");
    assert!(!out.contains("See also"), "{out}");
}

#[test]
fn a_formula_image_is_named_by_its_renderer_not_by_a_folder() {
    let mut b = SnapshotBuilder::new(1000.0);
    let p = el(&mut b, 0, "p", "");
    let img = b.el(p, "img", rect(0.0, 0.0, 538.0, 300.0));
    let n = b.node_mut(img);
    n.src = Some("https://example.org/papers/arxiv-latexml/x1.png".into());
    n.alt = Some("Refer to caption".into());
    n.class = Some("ltx_graphics".into());
    let img = b.el(p, "img", rect(0.0, 300.0, 60.0, 20.0));
    let n = b.node_mut(img);
    n.src = Some("https://s0.wp.com/latex.php?latex=x%5E2&bg=ffffff".into());
    n.alt = Some("x^2".into());
    n.display = "inline".into();
    assert_eq!(
        md(&b.build()),
        "![Refer to caption](https://example.org/papers/arxiv-latexml/x1.png)$x^2$\n"
    );
}

#[test]
fn a_link_around_one_line_of_blocks_is_one_inline_link() {
    let mut b = SnapshotBuilder::new(1000.0);
    // Substack: an image in a div in a link; Ghost: a bookmark card of short divs.
    let fig = el(&mut b, 0, "figure", "");
    let a = span(&mut b, fig, "a", "image-link");
    b.node_mut(a).href = Some("https://cdn.example.com/full.jpeg".into());
    let inset = el(&mut b, a, "div", "image2-inset");
    let img = b.el(inset, "img", rect(0.0, 0.0, 600.0, 400.0));
    let n = b.node_mut(img);
    n.src = Some("https://cdn.example.com/w_1456.jpeg".into());
    n.alt = Some("A workbench".into());
    let fig = el(&mut b, 0, "figure", "kg-bookmark-card");
    let card = span(&mut b, fig, "a", "kg-bookmark-container");
    b.node_mut(card).href = Some("https://film.example.org/push".into());
    let t = b.el(card, "div", rect(0.0, 420.0, 600.0, 20.0));
    b.text(t, "A practical guide");
    let d = b.el(card, "div", rect(0.0, 440.0, 600.0, 20.0));
    b.text(d, "When to push.");
    // A card link around a heading keeps its blocks: tests.rs, card_link_around_blocks.
    let out = md(&b.build());
    assert!(
        out.contains("[![A workbench](https://cdn.example.com/w_1456.jpeg)](https://cdn.example.com/full.jpeg)"),
        "{out}"
    );
    assert!(
        out.contains("[A practical guide When to push.](https://film.example.org/push)"),
        "{out}"
    );
}

#[test]
fn a_callout_without_a_kind_is_a_quote_with_its_emoji() {
    // Notion's callout: the emoji in one div, the sentence in another; only the sentence kept.
    let mut b = SnapshotBuilder::new(1000.0);
    let p = el(&mut b, 0, "p", "");
    b.text(p, "Before the callout.");
    let fig = el(&mut b, 0, "figure", "block-color-gray_background callout");
    let icon = el(&mut b, fig, "div", "");
    let s = span(&mut b, icon, "span", "icon");
    b.text(s, "⚠️");
    let body = el(&mut b, fig, "div", "");
    b.text(body, "Raw schemas are reloaded nightly.");
    let snap = b.build();
    let out = md_kept(&snap, Some(&[p, body]));
    assert_eq!(
        out,
        "Before the callout.\n\n> ⚠️\n>\n> Raw schemas are reloaded nightly.\n"
    );
}

#[test]
fn a_see_also_admonition_is_a_quote_with_its_title() {
    // Sphinx's `seealso` (and a custom-titled admonition) names no alert kind: a plain quote
    // that keeps its title, while `admonition note` stays a note.
    let mut b = SnapshotBuilder::new(1000.0);
    for (class, title, text) in [
        (
            "admonition seealso",
            "See also",
            "The batched() helper covers tuples.",
        ),
        ("admonition note", "Note", "Windows are new tuples."),
    ] {
        let d = el(&mut b, 0, "div", class);
        let t = el(&mut b, d, "p", "admonition-title");
        b.text(t, title);
        let p = el(&mut b, d, "p", "");
        b.text(p, text);
    }
    assert_eq!(
        md(&b.build()),
        "> See also\n>\n> The batched() helper covers tuples.\n\n> [!NOTE]\n> Windows are new tuples.\n"
    );
}

#[test]
fn alerts_in_older_and_platform_shapes() {
    let mut b = SnapshotBuilder::new(1000.0);
    // GitHub's older alert: a bold kind on its own line, then the text (a `<br>` between).
    let q = el(&mut b, 0, "blockquote", "");
    let p = el(&mut b, q, "p", "");
    let s = span(&mut b, p, "strong", "");
    b.text(s, "Note");
    span(&mut b, p, "br", "");
    b.text(p, "Backups run nightly.");
    // Gitea: the kind in a paragraph of its own, classed `attention-warning`.
    let q = el(
        &mut b,
        0,
        "blockquote",
        "attention-header attention-warning",
    );
    let p = el(&mut b, q, "p", "");
    let s = span(&mut b, p, "strong", "attention-warning");
    b.text(s, "Warning");
    let p = el(&mut b, q, "p", "");
    b.text(p, "Keys rotate monthly.");
    // rustdoc's `div.warning`, Hexo's `div.note.info`, GitBook's `div.hint.bg-success`.
    for class in ["warning", "note info", "hint bg-success"] {
        let d = el(&mut b, 0, "div", class);
        let p = el(&mut b, d, "p", "");
        b.text(p, class);
    }
    // A bold word that is not a kind opens an ordinary quote.
    let q = el(&mut b, 0, "blockquote", "");
    let p = el(&mut b, q, "p", "");
    let s = span(&mut b, p, "strong", "");
    b.text(s, "Update");
    b.text(p, " it shipped.");
    assert_eq!(
        md(&b.build()),
        "> [!NOTE]\n> Backups run nightly.\n\n> [!WARNING]\n> Keys rotate monthly.\n\n\
         > [!WARNING]\n> warning\n\n> [!NOTE]\n> note info\n\n> [!TIP]\n> hint bg-success\n\n\
         > **Update** it shipped.\n"
    );
}

#[test]
fn code_languages_named_by_the_block_itself() {
    let mut b = SnapshotBuilder::new(1000.0);
    let pre = el(&mut b, 0, "pre", "rust rust-example-rendered");
    raw(&mut b, pre, "let x = 1;");
    let pre = el(&mut b, 0, "pre", "sourceCode r");
    raw(&mut b, pre, "x <- 1");
    let d = el(&mut b, 0, "div", "highlight hl-ipython3");
    let pre = el(&mut b, d, "pre", "");
    raw(&mut b, pre, "import numpy");
    let f = el(&mut b, 0, "figure", "highlight python");
    let pre = el(&mut b, f, "pre", "");
    raw(&mut b, pre, "print(1)");
    // Pygments' console lexer (Real Python).
    let d = el(&mut b, 0, "div", "highlight pycon");
    let pre = el(&mut b, d, "pre", "");
    raw(&mut b, pre, ">>> 1 + 1");
    // A wrapper's class that happens to be a language's name names nothing.
    let d = el(&mut b, 0, "div", "go");
    let pre = el(&mut b, d, "pre", "");
    raw(&mut b, pre, "plain");
    assert_eq!(
        md(&b.build()),
        "```rust\nlet x = 1;\n```\n\n```r\nx <- 1\n```\n\n```python\nimport numpy\n```\n\n\
         ```python\nprint(1)\n```\n\n```pycon\n>>> 1 + 1\n```\n\n```\nplain\n```\n"
    );
}

#[test]
fn an_empty_line_element_is_a_blank_line_of_the_code() {
    // Expressive Code: a `div.ec-line` per line; a blank line's holds no text.
    let mut b = SnapshotBuilder::new(1000.0);
    let pre = el(&mut b, 0, "pre", "");
    for line in ["import a;", "", "run(a);"] {
        let l = el(&mut b, pre, "div", "ec-line");
        let c = el(&mut b, l, "div", "code");
        if !line.is_empty() {
            raw(&mut b, c, line);
        }
    }
    assert_eq!(md(&b.build()), "```\nimport a;\n\nrun(a);\n```\n");
}

#[test]
fn div_tables_aria_and_css_grid() {
    let mut b = SnapshotBuilder::new(1000.0);
    // ARIA: a header row of column headers, then rows of cells.
    let t = el(&mut b, 0, "div", "");
    b.node_mut(t).role = Some("table".into());
    for (i, row) in [["Event", "Retries"], ["sent", "5"], ["bounced", "none"]]
        .iter()
        .enumerate()
    {
        let r = el(&mut b, t, "div", "");
        b.node_mut(r).role = Some("row".into());
        for cell in row {
            let c = el(&mut b, r, "div", "");
            b.node_mut(c).role = Some(if i == 0 { "columnheader" } else { "cell" }.into());
            b.text(c, cell);
        }
    }
    // Javadoc's summary table: a CSS grid, three cells a row (by their boxes).
    let g = el(&mut b, 0, "div", "summary-table three-column-summary");
    b.node_mut(g).display = "grid".into();
    let cells = [
        ("table-header col-first", "Type"),
        ("table-header col-second", "Method"),
        ("table-header col-last", "Description"),
        ("col-first", "int"),
        ("col-second", "size()"),
        ("col-last", "The count."),
    ];
    for (k, (class, text)) in cells.iter().enumerate() {
        let c = b.el(
            g,
            "div",
            rect(
                200.0 * (k % 3) as f64,
                100.0 + 20.0 * (k / 3) as f64,
                200.0,
                20.0,
            ),
        );
        b.node_mut(c).class = Some((*class).into());
        b.text(c, text);
    }
    assert_eq!(
        md(&b.build()),
        "| Event | Retries |\n| --- | --- |\n| sent | 5 |\n| bounced | none |\n\n\
         | Type | Method | Description |\n| --- | --- | --- |\n| int | size() | The count. |\n"
    );
}

#[test]
fn a_list_of_sections_is_written_as_its_sections() {
    // Javadoc: `ul.member-list > li > section > h3` stacks sections, not list items.
    let mut b = SnapshotBuilder::new(1000.0);
    let ul = el(&mut b, 0, "ul", "member-list");
    for name in ["size", "clear"] {
        let li = el(&mut b, ul, "li", "");
        let sec = el(&mut b, li, "section", "detail");
        let h = el(&mut b, sec, "h3", "");
        b.text(h, name);
        let p = el(&mut b, sec, "p", "");
        b.text(p, "Does it.");
    }
    // A list whose items are not all sections stays a list.
    let ul = el(&mut b, 0, "ul", "");
    let li = el(&mut b, ul, "li", "");
    let h = el(&mut b, li, "h4", "");
    b.text(h, "Heading item");
    let li = el(&mut b, ul, "li", "");
    b.text(li, "plain item");
    assert_eq!(
        md(&b.build()),
        "# size\n\nDoes it.\n\n# clear\n\nDoes it.\n\n- ## Heading item\n- plain item\n"
    );
}

#[test]
fn a_forum_quote_loses_its_attribution_line() {
    // phpBB: `<blockquote><div><cite>name wrote: ↑ date</cite>text</div></blockquote>`.
    let mut b = SnapshotBuilder::new(1000.0);
    let q = el(&mut b, 0, "blockquote", "");
    let d = el(&mut b, q, "div", "");
    let c = span(&mut b, d, "cite", "");
    let a = span(&mut b, c, "a", "");
    b.node_mut(a).href = Some("https://forum.example/u/7".into());
    b.text(a, "stallhorn");
    b.text(c, " wrote: ");
    b.text(d, "why at idle?");
    // SMF: `<blockquote><cite><a>Quote from: name on date</a></cite>text</blockquote>`.
    let q = el(&mut b, 0, "blockquote", "bbc_standard_quote");
    let c = span(&mut b, q, "cite", "");
    let a = span(&mut b, c, "a", "");
    b.node_mut(a).href = Some("https://forum.example/index.php?topic=9.msg8#msg8".into());
    b.text(a, "Quote from: kettleblack on March 14, 2026, 08:41:12 PM");
    b.text(q, "the far probe reads 85 C.");
    // A cite that is the quote's source, not a poster, stays.
    let q = el(&mut b, 0, "blockquote", "");
    let p = el(&mut b, q, "p", "");
    b.text(p, "Less is more.");
    let c = span(&mut b, q, "cite", "");
    b.text(c, "Mies van der Rohe");
    assert_eq!(
        md(&b.build()),
        "> why at idle?\n\n> the far probe reads 85 C.\n\n> Less is more.\n>\n> *Mies van der Rohe*\n"
    );
}

#[test]
fn a_sign_alone_linking_into_the_page_is_a_permalink() {
    // Sphinx: `<dt id="term-x">Term<a class="headerlink" href="#term-x">#</a></dt>`.
    let mut b = SnapshotBuilder::new(1000.0);
    let p = el(&mut b, 0, "p", "");
    b.node_mut(p).id = Some("term-x".into());
    b.text(p, "Term");
    let a = span(&mut b, p, "a", "headerlink");
    b.node_mut(a).href = Some("https://docs.example/glossary.html#term-x".into());
    b.text(a, "#");
    b.text(p, " and ");
    let a = span(&mut b, p, "a", "");
    b.node_mut(a).href = Some("https://docs.example/glossary.html#term-x".into());
    b.text(a, "a worded anchor");
    let mut snap = b.build();
    snap.url = "https://docs.example/glossary.html".into();
    assert_eq!(md(&snap), "Term and [a worded anchor](#term-x)\n");
}

/// A page with no element marked as the article: a `div` holding two kept paragraphs around a
/// list the extraction left out; with `posts`, the paragraphs are two signed posts of a thread.
fn unmarked_page(posts: bool) -> (Snapshot, Vec<NodeId>) {
    let mut b = SnapshotBuilder::new(1000.0);
    let body = el(&mut b, 0, "div", "markup");
    let long = "A paragraph long enough to be the content the extraction chose for this page. ";
    let mut kept = Vec::new();
    let post = |b: &mut SnapshotBuilder, text: &str| {
        let wrap = if posts {
            let d = el(b, body, "div", "post bg1");
            let a = span(b, d, "span", "author");
            b.text(a, "stallhorn");
            d
        } else {
            body
        };
        let p = el(b, wrap, "p", "");
        b.text(p, &text.repeat(3));
        p
    };
    kept.push(post(&mut b, long));
    let ul = el(&mut b, body, "ul", "");
    for item in ["Batch inserts", "Predicted tides"] {
        let li = el(&mut b, ul, "li", "");
        b.text(li, item);
    }
    kept.push(post(&mut b, long));
    (b.build(), kept)
}

#[test]
fn the_article_is_found_where_the_kept_text_is_unless_it_is_a_thread() {
    let (snap, kept) = unmarked_page(false);
    let out = md_kept(&snap, Some(&kept));
    assert!(out.contains("- Batch inserts\n- Predicted tides"), "{out}");
    let (snap, kept) = unmarked_page(true);
    let out = md_kept(&snap, Some(&kept));
    assert!(!out.contains("Batch inserts"), "{out}");
}

#[test]
fn code_without_pre_syntaxhighlighter_and_doxygen() {
    let mut b = SnapshotBuilder::new(1000.0);
    // SyntaxHighlighter: a gutter cell and a cell of `div.line`s of `<code>` tokens.
    let w = el(&mut b, 0, "div", "syntaxhighlighter php");
    let bar = el(&mut b, w, "div", "toolbar");
    let a = span(&mut b, bar, "a", "");
    b.text(a, "?");
    let t = el(&mut b, w, "table", "");
    let tr = el(&mut b, t, "tr", "");
    let g = el(&mut b, tr, "td", "gutter");
    for n in ["1", "2"] {
        let l = el(&mut b, g, "div", "line");
        b.text(l, n);
    }
    let c = el(&mut b, tr, "td", "code");
    let box_ = el(&mut b, c, "div", "container");
    for (indent, tok) in [("", "if ($a) {"), ("\u{a0}\u{a0}\u{a0}\u{a0}", "run();")] {
        let l = el(&mut b, box_, "div", "line");
        let code = span(&mut b, l, "code", "php plain");
        raw(&mut b, code, &format!("{indent}{tok}"));
    }
    // Doxygen: `div.fragment` of `div.line`s, each with its `span.lineno`.
    let f = el(&mut b, 0, "div", "fragment");
    for (n, tok) in [("1", "int x;"), ("2", "x++;")] {
        let l = el(&mut b, f, "div", "line");
        let num = span(&mut b, l, "span", "lineno");
        b.text(num, n);
        raw(&mut b, l, tok);
    }
    assert_eq!(
        md(&b.build()),
        "```php\nif ($a) {\n    run();\n```\n\n```\nint x;\nx++;\n```\n"
    );
}

#[test]
fn a_hidden_callout_number_keeps_its_line_break() {
    // Asciidoctor: `key: v <b class="conum">(1)</b>` then the next line; the snapshot gives
    // the line break to the number's text.
    let mut b = SnapshotBuilder::new(1000.0);
    let pre = el(&mut b, 0, "pre", "");
    let code = span(&mut b, pre, "code", "language-yaml");
    raw(&mut b, code, "max_age: 7d ");
    let n = span(&mut b, code, "b", "conum");
    raw(&mut b, n, "(1)\n");
    raw(&mut b, code, "max_size: 20GiB ");
    let n = span(&mut b, code, "b", "conum");
    raw(&mut b, n, "(2)");
    assert_eq!(
        md(&b.build()),
        "```yaml\nmax_age: 7d\nmax_size: 20GiB\n```\n"
    );
}

#[test]
fn doxygen_notes_aria_lists_and_mintlify_attributes() {
    let mut b = SnapshotBuilder::new(1000.0);
    let dl = el(&mut b, 0, "dl", "section note");
    let dt = el(&mut b, dl, "dt", "");
    b.text(dt, "Note");
    let dd = el(&mut b, dl, "dd", "");
    b.text(dd, "Not thread-safe.");
    let d = el(&mut b, 0, "div", "callout");
    b.node_mut(d)
        .attrs
        .insert("data-callout-type".into(), "tip".into());
    let p = el(&mut b, d, "p", "");
    b.text(p, "Test first.");
    let list = el(&mut b, 0, "div", "");
    b.node_mut(list).role = Some("list".into());
    b.node_mut(list)
        .attrs
        .insert("data-component-part".into(), "steps".into());
    for step in ["Create it", "Store it"] {
        let item = el(&mut b, list, "div", "");
        b.node_mut(item).role = Some("listitem".into());
        b.text(item, step);
    }
    let pre = el(&mut b, 0, "pre", "shiki");
    b.node_mut(pre)
        .attrs
        .insert("language".into(), "bash".into());
    raw(&mut b, pre, "curl x");
    assert_eq!(
        md(&b.build()),
        "> [!NOTE]\n> Not thread-safe.\n\n> [!TIP]\n> Test first.\n\n1. Create it\n2. Store it\n\n\
         ```bash\ncurl x\n```\n"
    );
}

#[test]
fn vuepress_and_chirpy_callouts_and_mermaid_sources() {
    let mut b = SnapshotBuilder::new(1000.0);
    let d = el(&mut b, 0, "div", "custom-container danger");
    let t = el(&mut b, d, "p", "custom-container-title");
    b.text(t, "DANGER");
    let p = el(&mut b, d, "p", "");
    b.text(p, "Never change the options.");
    let q = el(&mut b, 0, "blockquote", "prompt-tip");
    let p = el(&mut b, q, "p", "");
    b.text(p, "Test restores monthly.");
    let pre = el(&mut b, 0, "pre", "mermaid");
    raw(&mut b, pre, "graph TD\n  A --> B");
    assert_eq!(
        md(&b.build()),
        "> [!CAUTION]\n> Never change the options.\n\n> [!TIP]\n> Test restores monthly.\n\n\
         ```mermaid\ngraph TD\n  A --> B\n```\n"
    );
}

#[test]
fn an_empty_corner_keeps_its_column_and_a_spacer_column_goes() {
    // pandas: an empty corner `th` above the row labels.
    let mut b = SnapshotBuilder::new(1000.0);
    let t = el(&mut b, 0, "table", "dataframe");
    for (i, row) in [["", "level"], ["0", "1.41"], ["1", "1.47"]]
        .iter()
        .enumerate()
    {
        let tr = el(&mut b, t, "tr", "");
        for cell in row {
            let c = el(&mut b, tr, if i == 0 { "th" } else { "td" }, "");
            if !cell.is_empty() {
                b.text(c, cell);
            }
        }
    }
    // An old layout: an empty spacer cell beside each line of content is no column.
    let t = el(&mut b, 0, "table", "");
    for line in ["First line of the story.", "Second line of the story."] {
        let tr = el(&mut b, t, "tr", "");
        el(&mut b, tr, "td", "spacer");
        let c = el(&mut b, tr, "td", "");
        b.text(c, line);
    }
    assert_eq!(
        md(&b.build()),
        "|  | level |\n| --- | --- |\n| 0 | 1.41 |\n| 1 | 1.47 |\n\n\
         First line of the story.\n\nSecond line of the story.\n"
    );
}

#[test]
fn dokuwiki_and_confluence_boxes_and_a_title_that_names_the_kind() {
    let mut b = SnapshotBuilder::new(1000.0);
    let d = el(&mut b, 0, "div", "wrap_important plugin_wrap");
    let p = el(&mut b, d, "p", "");
    b.text(p, "Back up first.");
    let d = el(
        &mut b,
        0,
        "div",
        "confluence-information-macro confluence-information-macro-tip conf-macro",
    );
    let body = el(&mut b, d, "div", "confluence-information-macro-body");
    let p = el(&mut b, body, "p", "");
    b.text(p, "Use a prompt.");
    // Microsoft Learn draws a warning in the danger style: its title says which.
    let d = el(&mut b, 0, "div", "alert is-danger");
    let t = el(&mut b, d, "p", "alert-title");
    b.text(t, " Warning");
    let p = el(&mut b, d, "p", "");
    b.text(p, "Keys rotate hourly.");
    assert_eq!(
        md(&b.build()),
        "> [!IMPORTANT]\n> Back up first.\n\n> [!TIP]\n> Use a prompt.\n\n\
         > [!WARNING]\n> Keys rotate hourly.\n"
    );
}

#[test]
fn a_numbered_heading_is_not_escaped_but_a_numbered_paragraph_is() {
    let mut b = SnapshotBuilder::new(1000.0);
    let h = el(&mut b, 0, "h1", "");
    b.text(h, "RFC 9999");
    let h = el(&mut b, 0, "h2", "");
    b.text(h, "1. Introduction");
    let p = el(&mut b, 0, "p", "");
    b.text(p, "2. Not a list item.");
    assert_eq!(
        md(&b.build()),
        "# RFC 9999\n\n## 1. Introduction\n\n2\\. Not a list item.\n"
    );
}

#[test]
fn a_list_drawn_with_numbers_is_ordered_and_confluence_names_its_brush() {
    let mut b = SnapshotBuilder::new(1000.0);
    let ul = el(&mut b, 0, "ul", "wprm-recipe-instructions");
    for step in ["Melt the butter.", "Bake."] {
        let li = el(&mut b, ul, "li", "");
        b.node_mut(li)
            .attrs
            .insert("list-style-type".into(), "decimal".into());
        b.text(li, step);
    }
    let pre = el(&mut b, 0, "pre", "syntaxhighlighter-pre");
    b.node_mut(pre).attrs.insert(
        "data-syntaxhighlighter-params".into(),
        "brush: sql; gutter: false; theme: Confluence".into(),
    );
    raw(&mut b, pre, "SELECT 1;");
    assert_eq!(
        md(&b.build()),
        "1. Melt the butter.\n2. Bake.\n\n```sql\nSELECT 1;\n```\n"
    );
}

#[test]
fn a_task_list_drawn_by_css_and_a_boxed_title_paragraph() {
    let mut b = SnapshotBuilder::new(1000.0);
    // Confluence's info macro titles its box with `p.title`: not the page's title.
    let d = el(
        &mut b,
        0,
        "div",
        "confluence-information-macro confluence-information-macro-information",
    );
    let t = el(&mut b, d, "p", "title");
    b.text(t, "Before you start");
    let p = el(&mut b, d, "p", "");
    b.text(p, "Get the role.");
    let ul = el(&mut b, 0, "ul", "inline-task-list");
    for (cls, text) in [("checked", "Ticket approved"), ("", "Role dropped")] {
        let li = el(&mut b, ul, "li", cls);
        b.text(li, text);
    }
    assert_eq!(
        md(&b.build()),
        "> [!NOTE]\n> **Before you start**\n>\n> Get the role.\n\n\
         - [x] Ticket approved\n- [ ] Role dropped\n"
    );
}

#[test]
fn a_list_mostly_kept_is_kept_whole_but_not_a_menu() {
    let mut b = SnapshotBuilder::new(1000.0);
    let ul = el(&mut b, 0, "ul", "");
    let mut keep = Vec::new();
    for t in ["Blender", "Baking sheet", "Pastry cutter"] {
        let li = el(&mut b, ul, "li", "");
        let a = span(&mut b, li, "a", "");
        b.text(a, t);
        if t != "Pastry cutter" {
            keep.push(li);
        }
    }
    let nav = el(&mut b, 0, "nav", "");
    let ul = el(&mut b, nav, "ul", "");
    for t in ["Home", "About", "Blog"] {
        let li = el(&mut b, ul, "li", "");
        b.text(li, t);
        if t != "Blog" {
            keep.push(li);
        }
    }
    let snap = b.build();
    assert_eq!(
        md_kept(&snap, Some(&keep)),
        "- Blender\n- Baking sheet\n- Pastry cutter\n\nHome\n\nAbout\n"
    );
}

#[test]
fn a_heading_over_a_left_out_toc_goes_and_a_figure_keeps_its_artwork_caption() {
    let mut b = SnapshotBuilder::new(1000.0);
    let h1 = el(&mut b, 0, "h1", "");
    let t1 = b.text(h1, "Retry budgets");
    let toc = el(&mut b, 0, "section", "");
    let h = el(&mut b, toc, "h2", "");
    let th = b.text(h, "Table of Contents");
    let nav = el(&mut b, toc, "nav", "toc");
    let a = span(&mut b, nav, "a", "");
    b.text(a, "1. Introduction");
    let p = el(&mut b, 0, "p", "");
    let tp = b.text(p, "Clients retry.");
    let fig = el(&mut b, 0, "figure", "");
    let pre = el(&mut b, fig, "pre", "");
    let tpre = raw(&mut b, pre, "+--+\n|  |\n+--+");
    let cap = el(&mut b, fig, "figcaption", "");
    b.text(cap, "Figure 1: A window");
    let snap = b.build();
    assert_eq!(
        md_kept(&snap, Some(&[t1, th, tp, fig, pre, tpre])),
        "# Retry budgets\n\nClients retry.\n\n```\n+--+\n|  |\n+--+\n```\n\nFigure 1: A window\n"
    );
}

#[test]
fn a_captions_links_to_its_own_figure_are_its_text() {
    let mut b = SnapshotBuilder::new(1000.0);
    let fig = el(&mut b, 0, "figure", "");
    b.node_mut(fig).id = Some("figure-1".into());
    let pre = el(&mut b, fig, "pre", "");
    raw(&mut b, pre, "+--+");
    let cap = el(&mut b, fig, "figcaption", "");
    let a = span(&mut b, cap, "a", "selfRef");
    b.node_mut(a).href = Some("#figure-1".into());
    b.text(a, "Figure 1");
    b.text(cap, ": A window");
    assert_eq!(md(&b.build()), "```\n+--+\n```\n\nFigure 1: A window\n");
}

#[test]
fn bem_htmlbook_and_nextra_callouts() {
    let mut b = SnapshotBuilder::new(1000.0);
    for (class, text) in [
        ("callout callout--warning", "Zendesk."),
        (
            "archwiki-template-box archwiki-template-box-tip",
            "ArchWiki.",
        ),
        (
            "nextra-callout x:flex x:bg-purple-100 x:text-purple-600",
            "Nextra.",
        ),
        ("card card-primary", "Not a callout."),
        ("rmdtip", "Bookdown."),
        ("msg message", "Zenn."),
        ("msg alert", "Zenn's alert."),
        ("book-hint danger", "Hugo Book."),
        ("important-title", "Just the Docs."),
        ("w3-panel w3-note", "w3.css."),
        ("note notetag", "YARD."),
        ("box_info", "Not a callout: YARD's metadata box."),
        ("is-success", "Wiki.js."),
        (
            "is-warning",
            "Not a callout: a div with Bulma's modifier alone.",
        ),
    ] {
        let tag = match (class, text) {
            (c, _) if c.starts_with("msg") => "aside",
            ("book-hint danger" | "important-title" | "is-success", _) => "blockquote",
            _ => "div",
        };
        let d = el(&mut b, 0, tag, class);
        let p = el(&mut b, d, "p", "");
        b.text(p, text);
    }
    let d = el(&mut b, 0, "div", "");
    b.node_mut(d)
        .attrs
        .insert("data-type".into(), "note".into());
    let h = el(&mut b, d, "h6", "");
    b.text(h, "Note");
    let p = el(&mut b, d, "p", "");
    b.text(p, "O'Reilly.");
    assert_eq!(
        md(&b.build()),
        "> [!WARNING]\n> Zendesk.\n\n> [!TIP]\n> ArchWiki.\n\n> [!IMPORTANT]\n> Nextra.\n\n\
         Not a callout.\n\n> [!TIP]\n> Bookdown.\n\n> [!NOTE]\n> Zenn.\n\n\
         > [!WARNING]\n> Zenn's alert.\n\n> [!CAUTION]\n> Hugo Book.\n\n\
         > [!IMPORTANT]\n> Just the Docs.\n\n> [!NOTE]\n> w3.css.\n\n> [!NOTE]\n> YARD.\n\n\
         Not a callout: YARD's metadata box.\n\n> [!TIP]\n> Wiki.js.\n\n\
         Not a callout: a div with Bulma's modifier alone.\n\n> [!NOTE]\n> O'Reilly.\n"
    );
}

#[test]
fn text_for_screen_readers_only_is_left_out() {
    let mut b = SnapshotBuilder::new(1000.0);
    let p = el(&mut b, 0, "p", "price");
    let del = span(&mut b, p, "del", "");
    b.text(del, "£12.00");
    let sr = span(&mut b, p, "span", "screen-reader-text");
    b.node_mut(sr).position = "absolute".into();
    b.node_mut(sr).rect = rect(0.0, 0.0, 1.0, 1.0);
    b.text(sr, "Original price was: £12.00.");
    b.text(p, " £9.60");
    assert_eq!(md(&b.build()), "~~£12.00~~ £9.60\n");
}

#[test]
fn a_callout_list_of_numbered_markers_is_an_ordered_list() {
    let mut b = SnapshotBuilder::new(1000.0);
    let dl = el(&mut b, 0, "dl", "calloutlist");
    for (n, text) in [("1", "The limit."), ("2", "The wait.")] {
        let dt = el(&mut b, dl, "dt", "");
        let a = span(&mut b, dt, "a", "co");
        let img = span(&mut b, a, "img", "");
        b.node_mut(img).alt = Some(n.into());
        b.node_mut(img).src = Some(format!("https://example.org/callouts/{n}.png"));
        b.node_mut(img).rect = rect(0.0, 0.0, 12.0, 12.0);
        let dd = el(&mut b, dl, "dd", "");
        let p = el(&mut b, dd, "p", "");
        b.text(p, text);
    }
    // Terms that are words stay a definition list.
    let dl = el(&mut b, 0, "dl", "");
    let dt = el(&mut b, dl, "dt", "");
    b.text(dt, "KiB");
    let dd = el(&mut b, dl, "dd", "");
    b.text(dd, "Binary units.");
    assert_eq!(
        md(&b.build()),
        "1. The limit.\n2. The wait.\n\n**KiB**\n: Binary units.\n"
    );
}

#[test]
fn code_lines_lose_the_blanks_at_their_ends() {
    let mut b = SnapshotBuilder::new(1000.0);
    let pre = el(&mut b, 0, "pre", "");
    raw(
        &mut b,
        pre,
        "queue = Queue(100)  \nawait queue.put(r)\t\n    done()",
    );
    assert_eq!(
        md(&b.build()),
        "```\nqueue = Queue(100)\nawait queue.put(r)\n    done()\n```\n"
    );
}

#[test]
fn the_element_holding_the_documents_title_is_the_title_when_no_h1_is() {
    let mut b = SnapshotBuilder::new(1000.0);
    b.title("Show HN: A plain-text ledger | Hacker News");
    let td = el(&mut b, 0, "td", "title");
    let line = span(&mut b, td, "span", "titleline");
    let a = span(&mut b, line, "a", "");
    b.node_mut(a).href = Some("https://ledger.example/".into());
    b.text(a, "Show HN: A plain-text ledger");
    let site = span(&mut b, line, "span", "sitebit");
    b.text(site, " (ledger.example)");
    let p = el(&mut b, 0, "div", "toptext");
    let t = b.text(p, "I built a ledger.");
    let mut snap = b.build();
    assert_eq!(
        md_kept(&snap, Some(&[t])),
        "# Show HN: A plain-text ledger\n\nI built a ledger.\n"
    );
    // On the web, a title's link to another site is what the post is about: kept; a link
    // to the page's own site is its permalink: its text.
    snap.url = "https://news.ycombinator.com/item?id=1".into();
    assert_eq!(
        md_kept(&snap, Some(&[t])),
        "# [Show HN: A plain-text ledger](https://ledger.example/)\n\nI built a ledger.\n"
    );
    snap.nodes[a].href = Some("https://www.news.ycombinator.com/item?id=1".into());
    assert_eq!(
        md_kept(&snap, Some(&[t])),
        "# Show HN: A plain-text ledger\n\nI built a ledger.\n"
    );
}

#[test]
fn the_site_name_before_a_titles_separator_is_no_title() {
    // "page - site": the header's link to the forum is the shorter part, the site's name.
    let mut b = SnapshotBuilder::new(1000.0);
    b.title("Far probe reads 85 C - Tinkerbench Forum");
    let header = el(&mut b, 0, "div", "header");
    let a = span(&mut b, header, "a", "");
    b.node_mut(a).href = Some("/index.php".into());
    b.text(a, "Tinkerbench Forum");
    let p = el(&mut b, 0, "div", "inner");
    let t = b.text(p, "The far probe resets.");
    assert_eq!(md_kept(&b.build(), Some(&[t])), "The far probe resets.\n");
}

#[test]
fn a_lower_heading_the_document_title_names_is_the_title() {
    // HyperKitty: the list's name in an `<h2>`, the thread's subject in an `<h3>` above the
    // emails (no `<h1>`); an `<h4>` in an email is a section under the title.
    let mut b = SnapshotBuilder::new(1000.0);
    b.title("Log rotation drops lines - devel - Fernwood lists");
    let list = el(&mut b, 0, "h2", "");
    b.text(list, "devel");
    let subject = el(&mut b, 0, "h3", "");
    b.text(subject, "Log rotation drops lines");
    let p = el(&mut b, 0, "p", "");
    let t = b.text(p, "After each rotation lines go missing.");
    let h4 = el(&mut b, 0, "h4", "");
    let h = b.text(h4, "Steps");
    let p2 = el(&mut b, 0, "p", "");
    let t2 = b.text(p2, "Rotate in a loop.");
    assert_eq!(
        md_kept(&b.build(), Some(&[t, h, t2])),
        "# Log rotation drops lines\n\nAfter each rotation lines go missing.\n\n## Steps\n\n\
         Rotate in a loop.\n"
    );
}

#[test]
fn under_a_title_that_is_no_heading_the_highest_heading_is_a_section() {
    // Doxygen: `<title>project: Class Reference</title>`, a `div.title`, `<h2>` sections.
    let page = |h: &str| {
        let mut b = SnapshotBuilder::new(1000.0);
        b.title("tidekit: tide::RingBuffer Class Reference");
        let t = el(&mut b, 0, if h == "h1" { "p" } else { "div" }, "title");
        b.text(t, "tide::RingBuffer Class Reference");
        let h2 = el(&mut b, 0, h, "");
        let a = b.text(h2, "Detailed Description");
        let p = el(&mut b, 0, "p", "");
        let c = b.text(p, "A fixed-capacity circular buffer.");
        let mut kept = vec![a, c];
        if h == "h1" {
            kept.push(t);
        }
        md_kept(&b.build(), Some(&kept))
    };
    assert_eq!(
        page("h2"),
        "# tide::RingBuffer Class Reference\n\n## Detailed Description\n\n\
         A fixed-capacity circular buffer.\n"
    );
    // A page with `<h1>` sections under a kept `p.title` (Google Docs) keeps them `#`.
    assert_eq!(
        page("h1"),
        "# tide::RingBuffer Class Reference\n\n# Detailed Description\n\n\
         A fixed-capacity circular buffer.\n"
    );
}

#[test]
fn a_pre_lang_names_its_code_unless_it_is_a_human_language() {
    let mut b = SnapshotBuilder::new(1000.0);
    let pre = el(&mut b, 0, "pre", "");
    b.node_mut(pre)
        .attrs
        .insert("lang".into(), "python3".into());
    raw(&mut b, pre, "print(1)");
    let pre = el(&mut b, 0, "pre", "");
    b.node_mut(pre).attrs.insert("lang".into(), "en-GB".into());
    raw(&mut b, pre, "a poem");
    assert_eq!(
        md(&b.build()),
        "```python3\nprint(1)\n```\n\n```\na poem\n```\n"
    );
}

#[test]
fn govuk_boxes_and_a_kind_before_a_box_name() {
    let mut b = SnapshotBuilder::new(1000.0);
    for (class, text) in [
        ("application-notice info-notice", "No need to register."),
        ("gem-c-inset-text govuk-inset-text", "It takes 15 minutes."),
        (
            "gem-c-warning-text govuk-warning-text",
            "You could be fined.",
        ),
        ("nhsuk-warning-callout", "Call 999."),
    ] {
        let d = el(&mut b, 0, "div", class);
        let p = el(&mut b, d, "p", "");
        b.text(p, text);
    }
    assert_eq!(
        md(&b.build()),
        "> [!NOTE]\n> No need to register.\n\n> It takes 15 minutes.\n\n\
         > [!WARNING]\n> You could be fined.\n\n> [!WARNING]\n> Call 999.\n"
    );
}

#[test]
fn a_title_in_a_kept_header_is_written_in_its_place() {
    // NYT: `header > div > h1` and the standfirst `p`; the extraction kept the standfirst
    // (so its `header`), not the title.
    let mut b = SnapshotBuilder::new(1000.0);
    let art = el(&mut b, 0, "article", "");
    let header = el(&mut b, art, "header", "");
    let d = el(&mut b, header, "div", "");
    let h1 = el(&mut b, d, "h1", "");
    b.text(h1, "In a Minnesota Town Built on Propane");
    let p = el(&mut b, header, "p", "");
    let s = b.text(p, "Minnesota's coldest towns were supposed to be the last.");
    let sec = el(&mut b, art, "section", "");
    let p2 = el(&mut b, sec, "p", "");
    let t2 = b.text(p2, "On the coldest morning of the winter.");
    let snap = b.build();
    let tree = Tree::new(&snap);
    let mut ex = Extraction::empty(Algorithm::Td, snap.nodes.len());
    for i in [p, s, sec, p2, t2] {
        ex.kept[i] = true;
    }
    assert_eq!(
        render(&tree, &ex),
        "# In a Minnesota Town Built on Propane\n\n\
         Minnesota's coldest towns were supposed to be the last.\n\n\
         On the coldest morning of the winter.\n"
    );
}

#[test]
fn mediawiki_highlighters_name_the_language_and_old_edit_links_go() {
    let mut b = SnapshotBuilder::new(1000.0);
    let h = el(&mut b, 0, "h3", "");
    b.text(h, "Example");
    let edit = span(&mut b, h, "span", "editsection");
    b.text(edit, "[edit]");
    let d = el(&mut b, 0, "div", "t-example mw-geshi source-cpp");
    let pre = el(&mut b, d, "pre", "de1");
    raw(&mut b, pre, "int main() {}");
    let d = el(&mut b, 0, "div", "mw-highlight mw-highlight-lang-python");
    let pre = el(&mut b, d, "pre", "");
    raw(&mut b, pre, "print(1)");
    // `source-` alone names no language (a site's `div.source-code`).
    let d = el(&mut b, 0, "div", "source-code");
    let pre = el(&mut b, d, "pre", "");
    raw(&mut b, pre, "x = 1");
    assert_eq!(
        md(&b.build()),
        "# Example\n\n```cpp\nint main() {}\n```\n\n```python\nprint(1)\n```\n\n```\nx = 1\n```\n"
    );
}

#[test]
fn a_link_inside_inline_code_is_written_around_it() {
    let mut b = SnapshotBuilder::new(1000.0);
    let p = el(&mut b, 0, "p", "");
    b.text(p, "for ");
    let code = span(&mut b, p, "code", "");
    let a = span(&mut b, code, "a", "");
    b.node_mut(a).href = Some("https://en.cppreference.com/w/cpp/ranges/forward_range".into());
    let t = b.text(a, "forward_range");
    b.node_mut(t).link = true;
    b.node_mut(a).link = true;
    b.text(p, "s, and ");
    let code = span(&mut b, p, "code", "");
    b.text(code, "take(n)");
    b.text(p, ".");
    assert_eq!(
        md(&b.build()),
        "for [`forward_range`](https://en.cppreference.com/w/cpp/ranges/forward_range)s, and `take(n)`.\n"
    );
}

#[test]
fn a_code_block_after_the_kept_sentence_that_introduces_it_joins() {
    let mk = |intro: &str| {
        let mut b = SnapshotBuilder::new(1000.0);
        let heading = intro == "Examples";
        let p = el(&mut b, 0, if heading { "h2" } else { "p" }, "");
        let t = b.text(p, intro);
        let pre = el(&mut b, 0, "pre", "");
        raw(
            &mut b,
            pre,
            "for batch in batched(rows, 500):\n    upload(batch)",
        );
        let side = el(&mut b, 0, "div", "sidebar");
        b.text(side, "Table of Contents");
        let snap = b.build();
        let tree = Tree::new(&snap);
        let mut ex = Extraction::empty(Algorithm::Td, snap.nodes.len());
        ex.kept[p] = true;
        ex.kept[t] = true;
        render(&tree, &ex)
    };
    assert_eq!(
        mk("Sending rows in batches of 500:"),
        "Sending rows in batches of 500:\n\n```\nfor batch in batched(rows, 500):\n    upload(batch)\n```\n"
    );
    // Not introduced: the code after the last kept text stays out.
    assert_eq!(mk("That is all."), "That is all.\n");
    // Under the kept heading whose section it opens (pkgdown's "Examples"), it joins.
    assert_eq!(
        mk("Examples"),
        "# Examples\n\n```\nfor batch in batched(rows, 500):\n    upload(batch)\n```\n"
    );
}

#[test]
fn a_fragment_is_percent_decoded_once_for_links_and_footnotes() {
    use super::links::percent_decoded;
    assert_eq!(percent_decoded("%C3%A9t%C3%A9"), "été");
    assert!(matches!(
        percent_decoded("fn1"),
        std::borrow::Cow::Borrowed("fn1")
    ));
    // Not an escape: a sign or one digit after `%` stays as written.
    assert_eq!(percent_decoded("a%+5b%4"), "a%+5b%4");
}

#[test]
fn controls_inside_a_heading_go_unless_they_are_its_text() {
    let mut b = SnapshotBuilder::new(1000.0);
    // A recipe card's "Ingredients" with its servings and units toggles.
    let h = el(&mut b, 0, "h3", "wprm-recipe-header");
    b.text(h, "Ingredients");
    let actions = el(&mut b, h, "div", "wprm-recipe-header-actions");
    for t in ["1x", "2x"] {
        let a = span(&mut b, actions, "a", "wprm-toggle");
        b.node_mut(a).role = Some("button".into());
        b.text(a, t);
    }
    let units = el(&mut b, actions, "button", "wprm-unit-conversion");
    b.text(units, "Metric");
    let p = el(&mut b, 0, "p", "");
    b.text(p, "Two cups of flour.");
    // An accordion's heading is its button.
    let h = el(&mut b, 0, "h3", "accordion-header");
    let btn = el(&mut b, h, "button", "accordion-button");
    b.text(btn, "How long does it keep?");
    let p = el(&mut b, 0, "p", "");
    b.text(p, "A week in the fridge.");
    assert_eq!(
        md(&b.build()),
        "# Ingredients\n\nTwo cups of flour.\n\n# How long does it keep?\n\nA week in the fridge.\n"
    );
}

#[test]
fn a_vbulletin_post_is_no_quote_its_quote_box_is_and_its_labels_and_signature_go() {
    let mut b = SnapshotBuilder::new(1000.0);
    let post = el(&mut b, 0, "li", "postbitlegacy");
    let body = el(&mut b, post, "blockquote", "postcontent restore");
    // A quote box with its "Quote:" label and its attribution line.
    let cont = el(&mut b, body, "div", "bbcode_container");
    let label = el(&mut b, cont, "div", "bbcode_description");
    b.text(label, "Quote:");
    let q = el(&mut b, cont, "div", "bbcode_quote");
    let by = el(&mut b, q, "div", "bbcode_postedby");
    b.text(by, "Originally Posted by hallam_r");
    let m = el(&mut b, q, "div", "message");
    b.text(m, "The rear sensor is switching.");
    let p = el(&mut b, body, "p", "");
    b.text(p, "That is your answer right there.");
    // A code box with its "Code:" label.
    let cont = el(&mut b, body, "div", "bbcode_container");
    let label = el(&mut b, cont, "div", "bbcode_description");
    b.text(label, "Code:");
    let pre = el(&mut b, cont, "pre", "bbcode_code");
    raw(&mut b, pre, "MID 21  TID 80");
    let sig = el(&mut b, post, "blockquote", "signature restore");
    b.text(sig, "2009 Civic 1.8 SE in Polished Metal");
    assert_eq!(
        md(&b.build()),
        "> The rear sensor is switching.\n\nThat is your answer right there.\n\n```\nMID 21  TID 80\n```\n"
    );
}

#[test]
fn items_carrying_their_numbers_as_labels_are_an_ordered_list_but_amounts_are_not() {
    let list = |labels: [&str; 2], texts: [&str; 2]| {
        let mut b = SnapshotBuilder::new(1000.0);
        let ul = el(&mut b, 0, "ul", "ref-list");
        for (l, t) in labels.iter().zip(texts) {
            let li = el(&mut b, ul, "li", "");
            let s = span(&mut b, li, "span", "label");
            b.text(s, l);
            let c = span(&mut b, li, "span", "");
            b.text(c, t);
        }
        md(&b.build())
    };
    assert_eq!(
        list(
            ["1.", "2."],
            ["Hale R. A review. 2021.", "Sato K. Disposition. 2020."]
        ),
        "1. Hale R. A review. 2021.\n2. Sato K. Disposition. 2020.\n"
    );
    assert_eq!(
        list(["[1]", "[2]"], ["Hale R.", "Sato K."]),
        "1. Hale R.\n2. Sato K.\n"
    );
    // A recipe's amounts, and numbers out of order, are text.
    assert_eq!(
        list(["1", "2"], [" cup flour", " eggs"]),
        "- 1 cup flour\n- 2 eggs\n"
    );
    assert_eq!(list(["2.", "1."], [" b", " a"]), "- 2\\. b\n- 1\\. a\n");
}

#[test]
fn notions_list_blocks_are_lists() {
    // Notion Sites: each item a sibling block, its marker a box of its own (a CSS bullet, or
    // the number as text).
    let mut b = SnapshotBuilder::new(1000.0);
    let page = el(&mut b, 0, "div", "notion-page-content");
    let p = el(&mut b, page, "div", "notion-text-block");
    let mut kept = vec![b.text(p, "Before a shift:")];
    for (class, marker, text) in [
        ("notion-bulleted_list-block", "", "Check the pager."),
        ("notion-bulleted_list-block", "", "Read the handover."),
        ("notion-numbered_list-block", "1.", "List the pods."),
        (
            "notion-numbered_list-block",
            "2.",
            "Restart the deployment.",
        ),
    ] {
        let item = el(&mut b, page, "div", &format!("notion-selectable {class}"));
        let m = el(&mut b, item, "div", "notion-list-item-box-left");
        if !marker.is_empty() {
            b.text(m, marker);
        }
        let body = el(&mut b, item, "div", "");
        kept.push(b.text(body, text));
    }
    // The extraction kept the texts only, not the blocks around them.
    assert_eq!(
        md_kept(&b.build(), Some(&kept)),
        "Before a shift:\n\n- Check the pager.\n- Read the handover.\n\n\
         1. List the pods.\n2. Restart the deployment.\n"
    );
}

#[test]
fn a_div_classed_as_code_with_br_lines_is_a_code_block() {
    // w3schools: `div.w3-code.pythonHigh`, colour spans, `<br>` between lines.
    let mut b = SnapshotBuilder::new(1000.0);
    let d = el(&mut b, 0, "div", "w3-code notranslate pythonHigh");
    // The `<br>`s inside the colour span that holds the lines.
    let c = span(&mut b, d, "span", "pythoncolor");
    for (k, line) in ["for w in words:", "  print(w)"].iter().enumerate() {
        if k > 0 {
            span(&mut b, c, "br", "");
        }
        let s = span(&mut b, c, "span", "pythonkeywordcolor");
        raw(&mut b, s, line);
    }
    // A `div.code` of prose with no line breaks stays a paragraph.
    let p = el(&mut b, 0, "div", "code");
    b.text(p, "Codes of conduct apply.");
    assert_eq!(
        md(&b.build()),
        "```python\nfor w in words:\n  print(w)\n```\n\nCodes of conduct apply.\n"
    );
}

#[test]
fn a_paragraph_classed_with_a_kind_is_a_callout_and_a_code_keyword_is_no_copy_button() {
    let mut b = SnapshotBuilder::new(1000.0);
    // Docsify's `p.warn` and `p.tip`; a `p.lead` is a paragraph.
    for (class, text) in [
        ("warn", "Add a .nojekyll file."),
        ("lead", "Docs in one page."),
    ] {
        let p = el(&mut b, 0, "p", class);
        b.text(p, text);
    }
    // Prism's Dockerfile tokens: `COPY` is code, the button after the code is not.
    let pre = el(&mut b, 0, "pre", "");
    b.node_mut(pre)
        .attrs
        .insert("data-lang".into(), "dockerfile".into());
    let code = el(&mut b, pre, "code", "lang-dockerfile");
    let k = span(&mut b, code, "span", "token keyword");
    raw(&mut b, k, "COPY");
    raw(&mut b, code, " docs/ /srv/docs/");
    let btn = span(&mut b, pre, "button", "docsify-copy-code-button");
    b.text(btn, "Copy");
    assert_eq!(
        md(&b.build()),
        "> [!WARNING]\n> Add a .nojekyll file.\n\nDocs in one page.\n\n```dockerfile\nCOPY docs/ /srv/docs/\n```\n"
    );
}

#[test]
fn a_box_named_before_its_kind_is_a_callout_and_its_legend_is_its_title() {
    let mut b = SnapshotBuilder::new(1000.0);
    let d = el(&mut b, 0, "div", "box-note");
    let l = el(&mut b, d, "p", "box-legend");
    let s = span(&mut b, l, "span", "");
    b.text(s, "Note");
    let p = el(&mut b, d, "p", "");
    b.text(p, "The limit does not depend on f(a).");
    let d = el(&mut b, 0, "div", "box-example");
    let p = el(&mut b, d, "p", "");
    b.text(p, "Estimate the limit.");
    assert_eq!(
        md(&b.build()),
        "> [!NOTE]\n> The limit does not depend on f(a).\n\nEstimate the limit.\n"
    );
}

#[test]
fn a_custom_code_element_is_a_code_block_with_its_language() {
    let mut b = SnapshotBuilder::new(1000.0);
    let c = el(&mut b, 0, "d-code", "");
    b.node_mut(c)
        .attrs
        .insert("language".into(), "python".into());
    raw(&mut b, c, "def f(x):\n    return x\n");
    // A custom element named for something else stays text.
    let d = el(&mut b, 0, "d-byline", "");
    raw(&mut b, d, "By Ada\nand Grace");
    assert_eq!(
        md(&b.build()),
        "```python\ndef f(x):\n    return x\n```\n\nBy Ada and Grace\n"
    );
}

#[test]
fn monospace_without_a_code_element_is_code_where_it_starts() {
    use crate::snapshot::computed::FONT_MONO;
    let mono = |b: &mut SnapshotBuilder, id: NodeId| {
        b.node_mut(id).attrs.insert(FONT_MONO.into(), String::new());
    };
    // Notion: inline code is a monospace `span` in running text; a code block is a `div` of
    // token spans in a monospace font with its white space kept, and a "Bash" label beside it.
    let mut b = SnapshotBuilder::new(1000.0);
    let p = el(&mut b, 0, "div", "notion-text-block");
    b.text(p, "Restart the ");
    let s = span(&mut b, p, "span", "notion-enable-hover");
    mono(&mut b, s);
    b.text(s, "ledger-worker");
    b.text(p, " pods:");
    let wrap = el(&mut b, 0, "div", "notion-code-block");
    // The label is the language picker, a button; the first token names a language too.
    let label = el(&mut b, wrap, "div", "");
    b.node_mut(label).role = Some("button".into());
    b.text(label, "Bash");
    let code = el(&mut b, wrap, "div", "");
    mono(&mut b, code);
    let t = span(&mut b, code, "span", "token function");
    raw(&mut b, t, "python");
    raw(&mut b, code, " -m timeit\n  x");
    // A monospace date alone in its block is no code; a monospace block of prose
    // (paragraphs inside) nor one of links (a signature) is no code block.
    let d = el(&mut b, 0, "div", "date");
    let ds = span(&mut b, d, "span", "");
    mono(&mut b, ds);
    b.text(ds, "2024-03-01");
    let prose = el(&mut b, 0, "div", "terminal-theme");
    mono(&mut b, prose);
    let pp = el(&mut b, prose, "p", "");
    raw(&mut b, pp, "Plain words.");
    let sig = el(&mut b, 0, "div", "member-signature");
    mono(&mut b, sig);
    let t = raw(&mut b, sig, "public ");
    b.node_mut(t).text = Some("public ".into());
    let a = span(&mut b, sig, "a", "");
    b.node_mut(a).href = Some("https://example.org/T.html".into());
    b.node_mut(a).link = true;
    let at = b.text(a, "T");
    b.node_mut(at).link = true;
    let t = raw(&mut b, sig, " get()");
    b.node_mut(t).text = Some(" get()".into());
    assert_eq!(
        md(&b.build()),
        "Restart the `ledger-worker` pods:\n\n```bash\npython -m timeit\n  x\n```\n\n\
         2024-03-01\n\nPlain words.\n\npublic [T](https://example.org/T.html) get()\n"
    );
}

#[test]
fn a_kept_heading_brings_its_section_of_references_but_not_a_cards_teaser() {
    let mut b = SnapshotBuilder::new(1000.0);
    let mut kept = Vec::new();
    let heading = |b: &mut SnapshotBuilder, tag: &str, text: &str| {
        let h = el(b, 0, tag, "");
        b.text(h, text);
        h
    };
    kept.push(heading(&mut b, "h1", "Retry budgets"));
    let p = el(&mut b, 0, "p", "");
    kept.push(p);
    b.text(p, "Clients retry too often.");
    kept.push(heading(&mut b, "h2", "References"));
    // The section's body, a definition list of references the extraction left out.
    let dl = el(&mut b, 0, "dl", "references");
    let dt = el(&mut b, dl, "dt", "");
    b.text(dt, "[HTTP]");
    let dd = el(&mut b, dl, "dd", "");
    b.text(dd, "Fielding, R., HTTP Semantics, RFC 9110.");
    kept.push(heading(&mut b, "h2", "Related products"));
    // Cards: each title kept, its teaser and button not (a card's body is no list).
    for (title, teaser) in [("Sparkling", "$11.00"), ("Junmai", "$14.00")] {
        let card = el(&mut b, 0, "div", "card");
        let h = el(&mut b, card, "h3", "");
        b.text(h, title);
        kept.push(h);
        let t = el(&mut b, card, "div", "price");
        b.text(t, teaser);
    }
    let end = heading(&mut b, "h2", "Acknowledgements");
    kept.push(end);
    assert_eq!(
        md_kept(&b.build(), Some(&kept)),
        "# Retry budgets\n\nClients retry too often.\n\n## References\n\n**\\[HTTP\\]**\n: Fielding, R., \
         HTTP Semantics, RFC 9110.\n\n## Related products\n\n### Sparkling\n\n### Junmai\n\n\
         ## Acknowledgements\n"
    );
}

#[test]
fn a_list_joins_after_the_sentence_that_introduces_it_with_a_colon() {
    let mut b = SnapshotBuilder::new(1000.0);
    let list = |b: &mut SnapshotBuilder, items: &[&str]| {
        let ul = el(b, 0, "ul", "");
        for t in items {
            let li = el(b, ul, "li", "");
            b.text(li, t);
        }
        ul
    };
    // Obsidian's task list after "…on similar cards:", which the extraction left out.
    let p = el(&mut b, 0, "p", "");
    b.text(p, "I compare the two on similar cards:");
    list(&mut b, &["Move the deck", "Export the log"]);
    // A list under a kept heading, or between kept paragraphs with no colon, stays out
    // (the extraction judged its items' text).
    let h = el(&mut b, 0, "h2", "");
    b.text(h, "Related");
    list(&mut b, &["Another note"]);
    let p2 = el(&mut b, 0, "p", "");
    b.text(p2, "Closing words.");
    list(&mut b, &["Share"]);
    let p3 = el(&mut b, 0, "p", "");
    b.text(p3, "The end.");
    assert_eq!(
        md_kept(&b.build(), Some(&[p, h, p2, p3])),
        "I compare the two on similar cards:\n\n- Move the deck\n- Export the log\n\n# Related\n\n\
         Closing words.\n\nThe end.\n"
    );
}

#[test]
fn a_link_card_between_kept_paragraphs_joins_but_not_a_listed_teaser() {
    let mut b = SnapshotBuilder::new(1000.0);
    let card = |b: &mut SnapshotBuilder, parent: NodeId, href: &str, title: &str| {
        let a = el(b, parent, "a", "LinkCard");
        b.node_mut(a).href = Some(href.into());
        b.node_mut(a).display = "flex".into();
        let t = el(b, a, "span", "LinkCard-title");
        b.text(t, title);
        let d = el(b, a, "span", "LinkCard-desc");
        b.node_mut(d).rect = rect(0.0, 20.0, 600.0, 20.0);
        b.text(d, "docs.example.org/ewm");
        a
    };
    let p = el(&mut b, 0, "p", "");
    b.text(p, "The library does this for you:");
    card(&mut b, 0, "https://docs.example.org/ewm", "DataFrame.ewm");
    let p2 = el(&mut b, 0, "p", "");
    b.text(p2, "Its alpha is one minus beta.");
    // A list of teasers ("Related") between kept paragraphs stays out.
    let ul = el(&mut b, 0, "ul", "");
    let li = el(&mut b, ul, "li", "");
    card(
        &mut b,
        li,
        "https://news.example.org/other",
        "Another story",
    );
    let p3 = el(&mut b, 0, "p", "");
    b.text(p3, "The end.");
    let out = md_kept(&b.build(), Some(&[p, p2, p3]));
    assert!(
        out.contains("[DataFrame.ewm docs.example.org/ewm](https://docs.example.org/ewm)"),
        "{out}"
    );
    assert!(!out.contains("Another story"), "{out}");
}

#[test]
fn notes_linked_through_the_canonical_path_are_footnotes_and_references_stay_links() {
    // A saved Springer article: its links name its canonical path on whatever host serves
    // it; `#Fn1` is a note, `#ref-CR1` an entry of the article's references.
    let page = "http://127.0.0.1:8000/saved/page.html";
    let article = "http://127.0.0.1:8000/article/10.1007/x";
    let mut b = SnapshotBuilder::new(1000.0);
    let p = el(&mut b, 0, "p", "");
    b.text(p, "The channel was surveyed");
    let sup = span(&mut b, p, "sup", "");
    let a = span(&mut b, sup, "a", "");
    b.node_mut(a).href = Some(format!("{article}#Fn1"));
    b.text(a, "1");
    b.text(p, " as before");
    let c = span(&mut b, p, "a", "");
    b.node_mut(c).href = Some(format!("{article}#ref-CR1"));
    b.text(c, "2");
    b.text(p, ".");
    let refs = el(&mut b, 0, "ol", "c-article-references");
    let li = el(&mut b, refs, "li", "c-article-references__item");
    let rp = el(&mut b, li, "p", "c-article-references__text");
    b.node_mut(rp).id = Some("ref-CR1".into());
    b.text(rp, "Oke, T. R. The urban heat island (1982).");
    let notes = el(&mut b, 0, "ol", "c-article-footnote");
    let li = el(&mut b, notes, "li", "");
    b.node_mut(li).id = Some("Fn1".into());
    b.text(li, "Four surveys.");
    let mut snap = b.build();
    snap.url = page.into();
    snap.head.links.push((
        "canonical".into(),
        "https://link.springer.example/article/10.1007/x".into(),
    ));
    assert_eq!(
        md(&snap),
        format!(
            "The channel was surveyed[^1] as before[2]({article}#ref-CR1).\n\n\
             1. Oke, T. R. The urban heat island (1982).\n\n[^1]: Four surveys.\n"
        )
    );
}

#[test]
fn bookstack_and_docc_callouts_and_a_data_syntax_language() {
    let mut b = SnapshotBuilder::new(1000.0);
    // BookStack: a paragraph classed `callout info`.
    let p = el(&mut b, 0, "p", "callout info");
    b.text(p, "Restore to a new server.");
    // Swift-DocC: `aside.note` whose first paragraph, its label, only names the kind; its
    // code listing names the language in `data-syntax`.
    let aside = el(&mut b, 0, "aside", "note");
    let label = el(&mut b, aside, "p", "label");
    b.text(label, "Note");
    let body = el(&mut b, aside, "p", "");
    b.text(body, "Counts never go negative.");
    let listing = el(&mut b, 0, "div", "code-listing");
    b.node_mut(listing)
        .attrs
        .insert("data-syntax".into(), "swift".into());
    let pre = el(&mut b, listing, "pre", "");
    let code = span(&mut b, pre, "code", "");
    raw(&mut b, code, "var t = Tally<String>()");
    assert_eq!(
        md(&b.build()),
        "> [!NOTE]\n> Restore to a new server.\n\n> [!NOTE]\n> Counts never go negative.\n\n\
         ```swift\nvar t = Tally<String>()\n```\n"
    );
}
