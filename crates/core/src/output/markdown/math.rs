//! Formulas as LaTeX: `$…$` inline, `$$…$$` on lines of their own for display formulas, in the
//! reading order.
//!
//! Sources, as the snapshot records them ([`Node::tex`], [`Node::mathml`],
//! [`Node::tex_display`]): KaTeX's TeX annotation, MathJax 2's `<script type="math/tex">`,
//! MathJax 3's assistive MathML, plain MathML (its TeX annotation or `alttext`, else its
//! presentation markup converted here by [`mathml_to_tex`]); formula images (see
//! [`super::images::formula_image`]); and raw `$…$`, `\(…\)`, `\[…\]` text that a renderer
//! never replaced, kept unescaped ([`text_with_tex`]). MathJax 2's rendered glyphs
//! (`.MathJax`, `.MathJax_Display`, `.MathJax_Preview`, `.MJX_Assistive_MathML`, ...) are
//! skipped: its `script` node carries the formula once.

use quick_xml::events::Event;

use super::syntax::escape_text;
use super::Inline;
use crate::snapshot::Node;

/// Does the node carry a formula (TeX or MathML)?
pub(crate) fn is_math(n: &Node) -> bool {
    n.tex.is_some() || n.mathml.is_some()
}

/// MathJax 2's rendered output, skipped: the formula comes from its `script` node.
pub(crate) fn is_mathjax_render(n: &Node) -> bool {
    n.class.as_deref().is_some_and(|c| {
        c.split(' ').any(|c| {
            matches!(
                c,
                "MathJax"
                    | "MathJax_Display"
                    | "MathJax_Preview"
                    | "MJX_Assistive_MathML"
                    | "MathJax_SVG"
                    | "MathJax_SVG_Display"
                    | "MathJax_CHTML"
                    | "MathJax_MathML"
                    | "mjx-chtml"
            )
        })
    })
}

/// The formula's LaTeX and display flag, or None when it has neither TeX nor convertible
/// MathML.
pub(crate) fn formula(n: &Node) -> Option<(String, bool)> {
    let tex = match (&n.tex, &n.mathml) {
        (Some(t), _) => clean_tex(t),
        (None, Some(m)) => mathml_to_tex(m)?,
        _ => return None,
    };
    (!tex.is_empty()).then_some((tex, n.tex_display))
}

/// TeX as a page stores it, tidied for `$…$`: whitespace runs collapsed, MediaWiki's
/// `{\displaystyle …}` wrapper and surrounding `$`, `\(…\)`, `\[…\]` delimiters removed.
pub(crate) fn clean_tex(t: &str) -> String {
    let mut s = crate::snapshot::collapse_ws(t).trim().to_string();
    for (open, close) in [("$$", "$$"), ("\\[", "\\]"), ("\\(", "\\)"), ("$", "$")] {
        if s.len() >= open.len() + close.len() && s.starts_with(open) && s.ends_with(close) {
            s = s[open.len()..s.len() - close.len()].trim().to_string();
            break;
        }
    }
    for style in ["{\\displaystyle", "{\\textstyle"] {
        if s.starts_with(style) && s.ends_with('}') && balanced(&s[1..s.len() - 1]) {
            s = s[style.len()..s.len() - 1].trim().to_string();
        }
    }
    s
}

/// Are the braces of `s` balanced (so that stripping an outer pair is safe)?
fn balanced(s: &str) -> bool {
    let mut depth = 0i32;
    let mut esc = false;
    for c in s.chars() {
        match c {
            _ if esc => esc = false,
            '\\' => esc = true,
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth < 0 {
                    return false;
                }
            }
            _ => {}
        }
    }
    depth == 0
}

/// Write a formula into the paragraph: `$tex$` inline (a space kept before it after a word),
/// or `$$` / tex / `$$` on lines of their own.
pub(super) fn write(inl: &mut Inline, tex: &str, display: bool) {
    if display {
        // A line break ending a display formula breaks to nothing (Zhihu ends each one with
        // `\\`).
        let tex = tex.strip_suffix("\\\\").map_or(tex, str::trim_end);
        inl.trim_end_spaces();
        if !inl.out.is_empty() {
            inl.out.push_str("\n\n");
        }
        inl.out.push_str("$$\n");
        inl.out.push_str(tex);
        inl.out.push_str("\n$$\n\n");
    } else {
        // `$ x$` is not math for most readers: the TeX has no edge spaces (clean_tex); two
        // formulas in a row must not read as `$$`.
        if inl.out.ends_with('$') {
            inl.out.push(' ');
        }
        inl.out.push('$');
        inl.out.push_str(tex);
        inl.out.push('$');
    }
}

/// Escape text as [`escape_text`] does, except raw formulas a renderer never replaced:
/// `\(…\)` and `$…$` (pandoc's rule: no space inside the dollars, no digit after the closing
/// one) become `$…$`, `\[…\]` and `$$…$$` become `$$…$$`, their backslashes kept.
pub(super) fn text_with_tex(out: &mut String, t: &str, prev: Option<char>, line_start: bool) {
    if !t.contains('$') && !t.contains('\\') {
        return escape_text(out, t, prev, line_start);
    }
    let mut rest = t;
    let mut prev = prev;
    let mut line_start = line_start;
    while let Some((at, len, inner, display)) = find_raw_tex(rest) {
        if at > 0 {
            escape_text(out, &rest[..at], prev, line_start);
            line_start = false;
        }
        let d = if display { "$$" } else { "$" };
        out.push_str(d);
        out.push_str(inner.trim());
        out.push_str(d);
        prev = Some('$');
        rest = &rest[at + len..];
    }
    if !rest.is_empty() {
        escape_text(out, rest, prev, line_start);
    }
}

/// The first raw formula in `t`: (start, length, inner TeX, display).
/// LaTeX's display math environments, found as raw text when no renderer ran.
const MATH_ENVIRONMENTS: [&str; 12] = [
    "equation",
    "equation*",
    "align",
    "align*",
    "gather",
    "gather*",
    "multline",
    "multline*",
    "eqnarray",
    "eqnarray*",
    "displaymath",
    "flalign",
];

fn find_raw_tex(t: &str) -> Option<(usize, usize, &str, bool)> {
    let b = t.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' if i + 1 < b.len() && (b[i + 1] == b'(' || b[i + 1] == b'[') => {
                let close = if b[i + 1] == b'(' { "\\)" } else { "\\]" };
                if let Some(e) = t[i + 2..].find(close) {
                    let inner = &t[i + 2..i + 2 + e];
                    if !inner.trim().is_empty() {
                        return Some((i, e + 4, inner, b[i + 1] == b'['));
                    }
                }
                i += 2;
            }
            b'\\' if t[i..].starts_with("\\begin{") => {
                // A display environment MathJax never typeset (ACM's `\begin{equation} …
                // \end{equation}`): the whole environment, as a display formula.
                let name_at = i + "\\begin{".len();
                if let Some(ne) = t[name_at..].find('}') {
                    let name = &t[name_at..name_at + ne];
                    let end_tag = format!("\\end{{{name}}}");
                    if MATH_ENVIRONMENTS.contains(&name) {
                        if let Some(e) = t[name_at..].find(&end_tag) {
                            let stop = name_at + e + end_tag.len();
                            return Some((i, stop - i, &t[i..stop], true));
                        }
                    }
                }
                i += 2;
            }
            b'\\' => i += 2,
            b'$' if t[i..].starts_with("$$") => {
                if let Some(e) = t[i + 2..].find("$$") {
                    let inner = &t[i + 2..i + 2 + e];
                    if !inner.trim().is_empty() {
                        return Some((i, e + 4, inner, true));
                    }
                }
                i += 2;
            }
            b'$' => {
                let open_ok = b.get(i + 1).is_some_and(|c| !c.is_ascii_whitespace());
                if open_ok {
                    // The closing `$`: not after a space, not before a digit, unescaped.
                    let mut j = i + 1;
                    while j < b.len() {
                        if b[j] == b'\\' {
                            j += 2;
                            continue;
                        }
                        if b[j] == b'$' {
                            let ok = !b[j - 1].is_ascii_whitespace()
                                && !b.get(j + 1).is_some_and(u8::is_ascii_digit);
                            if ok && j > i + 1 {
                                return Some((i, j + 1 - i, &t[i + 1..j], false));
                            }
                            break;
                        }
                        j += 1;
                    }
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    None
}

/// A parsed MathML element.
#[derive(Debug, Default)]
struct El {
    name: String,
    attrs: Vec<(String, String)>,
    kids: Vec<Item>,
}

#[derive(Debug)]
enum Item {
    El(El),
    Text(String),
}

impl El {
    fn attr(&self, k: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.as_str())
    }
    fn els(&self) -> impl Iterator<Item = &El> {
        self.kids.iter().filter_map(|k| match k {
            Item::El(e) => Some(e),
            Item::Text(_) => None,
        })
    }
    fn text(&self) -> String {
        let mut s = String::new();
        for k in &self.kids {
            match k {
                Item::Text(t) => s.push_str(t),
                Item::El(e) => s.push_str(&e.text()),
            }
        }
        s.trim().to_string()
    }
}

/// How deep MathML may nest before the converter gives up (a hostile page).
const MAX_MATH_DEPTH: usize = 64;

/// Parse serialized MathML (HTML's `outerHTML`: entities of HTML decoded) into a tree.
fn parse(s: &str) -> Option<El> {
    let mut r = quick_xml::Reader::from_str(s);
    r.config_mut().check_end_names = false;
    let mut stack: Vec<El> = vec![El::default()];
    let local = |n: &[u8]| {
        let n = String::from_utf8_lossy(n).to_ascii_lowercase();
        n.rsplit(':').next().unwrap_or("").to_string()
    };
    let attrs_of = |e: &quick_xml::events::BytesStart| {
        e.attributes()
            .flatten()
            .map(|a| {
                (
                    local(a.key.as_ref()),
                    html_escape::decode_html_entities(&String::from_utf8_lossy(&a.value))
                        .into_owned(),
                )
            })
            .collect::<Vec<_>>()
    };
    loop {
        match r.read_event().ok()? {
            Event::Start(e) => {
                if stack.len() > MAX_MATH_DEPTH {
                    return None;
                }
                stack.push(El {
                    name: local(e.name().as_ref()),
                    attrs: attrs_of(&e),
                    kids: Vec::new(),
                });
            }
            Event::Empty(e) => {
                let el = El {
                    name: local(e.name().as_ref()),
                    attrs: attrs_of(&e),
                    kids: Vec::new(),
                };
                stack.last_mut()?.kids.push(Item::El(el));
            }
            Event::End(_) => {
                if stack.len() < 2 {
                    return None;
                }
                let el = stack.pop()?;
                stack.last_mut()?.kids.push(Item::El(el));
            }
            Event::Text(t) => {
                let raw = String::from_utf8_lossy(t.as_ref()).into_owned();
                let t = html_escape::decode_html_entities(&raw).into_owned();
                if !t.trim().is_empty() {
                    stack.last_mut()?.kids.push(Item::Text(t));
                }
            }
            Event::CData(t) => {
                let t = String::from_utf8_lossy(t.as_ref()).into_owned();
                stack.last_mut()?.kids.push(Item::Text(t));
            }
            Event::Eof => break,
            _ => {}
        }
    }
    let mut root = stack.into_iter().next()?;
    match root.kids.len() {
        1 => match root.kids.pop()? {
            Item::El(e) => Some(e),
            Item::Text(_) => None,
        },
        _ => Some(root),
    }
}

/// Presentation MathML as LaTeX (None when it does not parse or holds nothing). Covers the
/// token elements (`mi`, `mn`, `mo`, `mtext`, `mspace`, `ms`), `mrow`, scripts (`msup`, `msub`,
/// `msubsup`, `mover`, `munder`, `munderover`), `mfrac`, `msqrt`, `mroot`, `mfenced`, tables
/// (`mtable` as a `matrix`) and the common operators and Greek letters; `semantics` gives its
/// TeX annotation when it has one.
pub(crate) fn mathml_to_tex(s: &str) -> Option<String> {
    let root = parse(s)?;
    let mut out = String::new();
    conv(&root, &mut out, 0);
    let out = out.trim().to_string();
    (!out.is_empty()).then_some(out)
}

/// Append a LaTeX piece, with a space where a command would run into a letter (`\alpha x`).
fn push(out: &mut String, piece: &str) {
    if piece.is_empty() {
        return;
    }
    let needs_space = piece.starts_with(|c: char| c.is_ascii_alphabetic()) && {
        let tail = out.trim_end_matches(|c: char| c.is_ascii_alphabetic());
        tail.ends_with('\\') && tail.len() < out.len()
    };
    if needs_space {
        out.push(' ');
    }
    out.push_str(piece);
}

/// A group: `x` for one character, `{…}` otherwise.
fn group(el: Option<&El>, depth: usize) -> String {
    let mut s = String::new();
    if let Some(e) = el {
        conv(e, &mut s, depth + 1);
    }
    let s = s.trim().to_string();
    if s.chars().count() == 1 {
        s
    } else {
        format!("{{{s}}}")
    }
}

fn conv(e: &El, out: &mut String, depth: usize) {
    if depth > MAX_MATH_DEPTH {
        return;
    }
    let kids: Vec<&El> = e.els().collect();
    let nth = |i: usize| kids.get(i).copied();
    match e.name.as_str() {
        "annotation" | "annotation-xml" | "mphantom" | "none" | "mprescripts" => {}
        "semantics" => {
            let ann = kids.iter().find(|k| {
                k.name == "annotation"
                    && k.attr("encoding")
                        .is_some_and(|v| v.eq_ignore_ascii_case("application/x-tex"))
            });
            match ann {
                Some(a) => push(out, &clean_tex(&a.text())),
                None => {
                    if let Some(first) = nth(0) {
                        conv(first, out, depth + 1)
                    }
                }
            }
        }
        "mi" => push(out, &identifier(&e.text(), e.attr("mathvariant"))),
        "mn" => push(out, &tex_specials(&e.text())),
        "mo" => push(out, &operator(&e.text())),
        "mtext" | "ms" => {
            let t = tex_specials(&e.text());
            if !t.is_empty() {
                push(out, &format!("\\text{{{t}}}"));
            }
        }
        "mspace" => push(out, "\\,"),
        "msup" => {
            push(out, &base(nth(0), depth));
            // A prime is written after its base (`x'`), not as a superscript.
            let sup = group(nth(1), depth);
            if !sup.is_empty() && sup.chars().all(|c| c == '\'') {
                push(out, &sup);
            } else {
                push(out, &format!("^{sup}"));
            }
        }
        "msub" => {
            push(out, &base(nth(0), depth));
            push(out, &format!("_{}", group(nth(1), depth)));
        }
        "msubsup" => {
            push(out, &base(nth(0), depth));
            push(out, &format!("_{}", group(nth(1), depth)));
            push(out, &format!("^{}", group(nth(2), depth)));
        }
        "mfrac" => {
            let (a, b) = (group(nth(0), depth), group(nth(1), depth));
            let lt = e.attr("linethickness").is_some_and(|v| v.trim() == "0");
            let cmd = if lt { "\\binom" } else { "\\frac" };
            push(out, &format!("{cmd}{}{}", brace(&a), brace(&b)));
        }
        "msqrt" => {
            let mut s = String::new();
            kids.iter().for_each(|k| conv(k, &mut s, depth + 1));
            push(out, &format!("\\sqrt{{{}}}", s.trim()));
        }
        "mroot" => {
            let (b, i) = (group(nth(0), depth), group(nth(1), depth));
            push(out, &format!("\\sqrt[{}]{}", unbrace(&i), brace(&b)));
        }
        "mover" | "munder" | "munderover" => {
            let b = nth(0);
            let big = b.is_some_and(|b| {
                b.name == "mo" && BIG_OPS.contains(&b.text().as_str())
                    || b.name == "mi"
                        && ["lim", "max", "min", "sup", "inf"].contains(&b.text().as_str())
            });
            let (under, over) = match e.name.as_str() {
                "mover" => (None, nth(1)),
                "munder" => (nth(1), None),
                _ => (nth(1), nth(2)),
            };
            if big {
                push(out, &base(b, depth));
                if let Some(u) = under {
                    push(out, &format!("_{}", group(Some(u), depth)));
                }
                if let Some(o) = over {
                    push(out, &format!("^{}", group(Some(o), depth)));
                }
                return;
            }
            let mut s = base(b, depth);
            if let Some(o) = over {
                let accent = match o.text().as_str() {
                    "^" | "ˆ" | "\u{302}" => Some("\\hat"),
                    "¯" | "‾" | "_" | "\u{304}" | "\u{305}" => Some("\\overline"),
                    "→" | "\u{20d7}" => Some("\\vec"),
                    "~" | "˜" | "\u{303}" => Some("\\tilde"),
                    "˙" | "." | "\u{307}" => Some("\\dot"),
                    "¨" | "\u{308}" => Some("\\ddot"),
                    "⏞" => Some("\\overbrace"),
                    _ => None,
                };
                s = match accent {
                    Some(a) => format!("{a}{}", brace(&s)),
                    None => format!("\\overset{}{}", brace(&group(Some(o), depth)), brace(&s)),
                };
            }
            if let Some(u) = under {
                s = match u.text().as_str() {
                    "_" | "¯" | "‾" => format!("\\underline{}", brace(&s)),
                    "⏟" => format!("\\underbrace{}", brace(&s)),
                    _ => format!("\\underset{}{}", brace(&group(Some(u), depth)), brace(&s)),
                };
            }
            push(out, &s);
        }
        "mfenced" => {
            let open = e.attr("open").unwrap_or("(");
            let close = e.attr("close").unwrap_or(")");
            let sep = e.attr("separators").unwrap_or(",").trim().to_string();
            push(out, &fence(open));
            for (i, k) in kids.iter().enumerate() {
                if i > 0 {
                    let c = sep.chars().nth(i - 1).or(sep.chars().last()).unwrap_or(',');
                    push(out, &c.to_string());
                }
                conv(k, out, depth + 1);
            }
            push(out, &fence(close));
        }
        "mtable" => {
            let rows: Vec<String> = kids
                .iter()
                .filter(|r| r.name == "mtr" || r.name == "mlabeledtr")
                .map(|r| {
                    r.els()
                        .filter(|c| c.name == "mtd")
                        .map(|c| {
                            let mut s = String::new();
                            conv(c, &mut s, depth + 1);
                            s.trim().to_string()
                        })
                        .collect::<Vec<_>>()
                        .join(" & ")
                })
                .collect();
            push(
                out,
                &format!("\\begin{{matrix}} {} \\end{{matrix}}", rows.join(" \\\\ ")),
            );
        }
        _ => {
            // math, mrow, mstyle, mpadded, menclose, merror, mtd, ...: the children in order.
            for k in &e.kids {
                match k {
                    Item::El(c) => conv(c, out, depth + 1),
                    Item::Text(t) if e.name != "math" && e.name != "mrow" => push(out, t.trim()),
                    Item::Text(_) => {}
                }
            }
        }
    }
}

/// A script's base: wrapped in braces when it is more than one token.
fn base(el: Option<&El>, depth: usize) -> String {
    let mut s = String::new();
    if let Some(e) = el {
        conv(e, &mut s, depth + 1);
    }
    let s = s.trim().to_string();
    // A number (`10^{-2}`) is written bare as people write it.
    let simple = s.chars().count() == 1
        || s.chars().all(|c| c.is_ascii_digit() || c == '.')
        || (s.starts_with('\\') && s[1..].chars().all(|c| c.is_ascii_alphabetic()))
        || s.ends_with('}') && s.starts_with("\\") && !s.contains(' ');
    if simple || s.is_empty() {
        s
    } else {
        format!("{{{s}}}")
    }
}

fn brace(s: &str) -> String {
    if s.starts_with('{') && s.ends_with('}') && balanced(&s[1..s.len() - 1]) {
        s.to_string()
    } else {
        format!("{{{s}}}")
    }
}

fn unbrace(s: &str) -> &str {
    if s.starts_with('{') && s.ends_with('}') && balanced(&s[1..s.len() - 1]) {
        &s[1..s.len() - 1]
    } else {
        s
    }
}

fn fence(f: &str) -> String {
    match f {
        "{" => "\\{".into(),
        "}" => "\\}".into(),
        "⟨" | "〈" => "\\langle".into(),
        "⟩" | "〉" => "\\rangle".into(),
        "‖" => "\\|".into(),
        _ => f.into(),
    }
}

/// Operators written as commands in LaTeX.
const BIG_OPS: [&str; 8] = ["∑", "∏", "∫", "∬", "∮", "⋃", "⋂", "∐"];

fn operator(t: &str) -> String {
    let s = match t {
        "\u{2061}" | "\u{2062}" | "\u{2063}" | "\u{2064}" => "",
        "−" => "-",
        "∑" => "\\sum",
        "∏" => "\\prod",
        "∐" => "\\coprod",
        "∫" => "\\int",
        "∬" => "\\iint",
        "∮" => "\\oint",
        "⋃" => "\\bigcup",
        "⋂" => "\\bigcap",
        "≤" | "⩽" => "\\leq",
        "≥" | "⩾" => "\\geq",
        "≠" => "\\neq",
        "≈" => "\\approx",
        "≡" => "\\equiv",
        "∼" => "\\sim",
        "≃" => "\\simeq",
        "≅" => "\\cong",
        "∝" => "\\propto",
        "×" => "\\times",
        "÷" => "\\div",
        "⋅" | "·" => "\\cdot",
        "∗" => "\\ast",
        "±" => "\\pm",
        "∓" => "\\mp",
        "→" => "\\to",
        "←" => "\\leftarrow",
        "↔" => "\\leftrightarrow",
        "⇒" => "\\Rightarrow",
        "⇐" => "\\Leftarrow",
        "⇔" => "\\Leftrightarrow",
        "↦" => "\\mapsto",
        "∞" => "\\infty",
        "∂" => "\\partial",
        "∇" => "\\nabla",
        "∈" => "\\in",
        "∉" => "\\notin",
        "∋" => "\\ni",
        "⊂" => "\\subset",
        "⊃" => "\\supset",
        "⊆" => "\\subseteq",
        "⊇" => "\\supseteq",
        "∪" => "\\cup",
        "∩" => "\\cap",
        "∖" => "\\setminus",
        "∅" => "\\emptyset",
        "∀" => "\\forall",
        "∃" => "\\exists",
        "¬" => "\\neg",
        "∧" => "\\wedge",
        "∨" => "\\vee",
        "⊕" => "\\oplus",
        "⊗" => "\\otimes",
        "∘" => "\\circ",
        "…" => "\\ldots",
        "⋯" => "\\cdots",
        "⋮" => "\\vdots",
        "⋱" => "\\ddots",
        "⟨" | "〈" => "\\langle",
        "⟩" | "〉" => "\\rangle",
        "{" => "\\{",
        "}" => "\\}",
        "|" => "|",
        "′" => "'",
        "″" => "''",
        "°" => "^\\circ",
        "‖" | "∥" => "\\|",
        _ => return tex_specials(t),
    };
    s.to_string()
}

/// A MathML token's text with TeX's special characters escaped (`%` would start a comment,
/// `#`, `&` and `$` are syntax): every token element's text goes through it.
fn tex_specials(t: &str) -> String {
    let mut out = String::with_capacity(t.len());
    for c in t.chars() {
        if matches!(c, '%' | '#' | '&' | '$') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Function names LaTeX has a command for.
const FUNCTIONS: [&str; 22] = [
    "sin", "cos", "tan", "cot", "sec", "csc", "sinh", "cosh", "tanh", "arcsin", "arccos", "arctan",
    "log", "ln", "exp", "lim", "max", "min", "sup", "inf", "det", "gcd",
];

fn identifier(t: &str, variant: Option<&str>) -> String {
    if let Some(g) = greek(t) {
        return g.to_string();
    }
    if t.chars().count() > 1 {
        if FUNCTIONS.contains(&t) {
            return format!("\\{t}");
        }
        return format!("\\mathrm{{{t}}}");
    }
    match variant {
        Some("normal") if t.chars().all(|c| c.is_ascii_alphabetic()) => format!("\\mathrm{{{t}}}"),
        Some("bold") => format!("\\mathbf{{{t}}}"),
        Some("double-struck") => format!("\\mathbb{{{t}}}"),
        Some("script") => format!("\\mathcal{{{t}}}"),
        _ => match t {
            "ℝ" => "\\mathbb{R}".into(),
            "ℕ" => "\\mathbb{N}".into(),
            "ℤ" => "\\mathbb{Z}".into(),
            "ℚ" => "\\mathbb{Q}".into(),
            "ℂ" => "\\mathbb{C}".into(),
            "ℓ" => "\\ell".into(),
            "ℏ" => "\\hbar".into(),
            _ => tex_specials(t),
        },
    }
}

fn greek(t: &str) -> Option<&'static str> {
    Some(match t {
        "α" => "\\alpha",
        "β" => "\\beta",
        "γ" => "\\gamma",
        "δ" => "\\delta",
        "ε" | "ϵ" => "\\epsilon",
        "ζ" => "\\zeta",
        "η" => "\\eta",
        "θ" => "\\theta",
        "ϑ" => "\\vartheta",
        "ι" => "\\iota",
        "κ" => "\\kappa",
        "λ" => "\\lambda",
        "μ" => "\\mu",
        "ν" => "\\nu",
        "ξ" => "\\xi",
        "π" => "\\pi",
        "ρ" => "\\rho",
        "σ" => "\\sigma",
        "ς" => "\\varsigma",
        "τ" => "\\tau",
        "υ" => "\\upsilon",
        "φ" => "\\phi",
        "ϕ" => "\\phi",
        "χ" => "\\chi",
        "ψ" => "\\psi",
        "ω" => "\\omega",
        "Γ" => "\\Gamma",
        "Δ" => "\\Delta",
        "Θ" => "\\Theta",
        "Λ" => "\\Lambda",
        "Ξ" => "\\Xi",
        "Π" => "\\Pi",
        "Σ" => "\\Sigma",
        "Φ" => "\\Phi",
        "Ψ" => "\\Psi",
        "Ω" => "\\Omega",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presentation_mathml_becomes_latex() {
        let m = r#"<math xmlns="http://www.w3.org/1998/Math/MathML"><mrow><msup><mi>x</mi><mn>2</mn></msup><mo>+</mo><mfrac><mn>1</mn><mi>α</mi></mfrac></mrow></math>"#;
        assert_eq!(mathml_to_tex(m).unwrap(), "x^2+\\frac{1}{\\alpha}");
        let q = r#"<math display="block"><mi>x</mi><mo>=</mo><mfrac><mrow><mo>−</mo><mi>b</mi><mo>±</mo><msqrt><msup><mi>b</mi><mn>2</mn></msup><mo>−</mo><mn>4</mn><mi>a</mi><mi>c</mi></msqrt></mrow><mrow><mn>2</mn><mi>a</mi></mrow></mfrac></math>"#;
        assert_eq!(
            mathml_to_tex(q).unwrap(),
            "x=\\frac{-b\\pm\\sqrt{b^2-4ac}}{2a}"
        );
        let s = r#"<math><munderover><mo>∑</mo><mrow><mi>i</mi><mo>=</mo><mn>1</mn></mrow><mi>n</mi></munderover><msub><mi>a</mi><mi>i</mi></msub><mover><mi>v</mi><mo>→</mo></mover><mroot><mi>x</mi><mn>3</mn></mroot></math>"#;
        assert_eq!(
            mathml_to_tex(s).unwrap(),
            "\\sum_{i=1}^na_i\\vec{v}\\sqrt[3]{x}"
        );
        let f = r#"<math><mi>sin</mi><mo>&#x2061;</mo><mi>θ</mi><mfenced><mi>a</mi><mi>b</mi></mfenced><mtext>if</mtext></math>"#;
        assert_eq!(mathml_to_tex(f).unwrap(), "\\sin\\theta(a,b)\\text{if}");
        let t = r#"<math><mtable><mtr><mtd><mn>1</mn></mtd><mtd><mn>0</mn></mtd></mtr><mtr><mtd><mn>0</mn></mtd><mtd><mn>1</mn></mtd></mtr></mtable></math>"#;
        assert_eq!(
            mathml_to_tex(t).unwrap(),
            "\\begin{matrix} 1 & 0 \\\\ 0 & 1 \\end{matrix}"
        );
        let a = r#"<math><semantics><mi>y</mi><annotation encoding="application/x-tex">y</annotation></semantics></math>"#;
        assert_eq!(mathml_to_tex(a).unwrap(), "y");
        assert_eq!(mathml_to_tex("<math><mi>x</mi>"), None);
        assert_eq!(mathml_to_tex(""), None);
    }

    /// ScienceDirect's MathML: a percent sign escaped (else TeX reads a comment), a prime after
    /// its base, a number's power without braces, `ℓ` and `‖` as commands.
    #[test]
    fn percent_primes_powers_and_letterlike_symbols() {
        let p = r#"<math><mn>100</mn><mo>%</mo></math>"#;
        assert_eq!(mathml_to_tex(p).unwrap(), "100\\%");
        let x = r#"<math><msup><mi mathvariant="bold">x</mi><mo>′</mo></msup></math>"#;
        assert_eq!(mathml_to_tex(x).unwrap(), "\\mathbf{x}'");
        let t = r#"<math><mn>5.3</mn><mo>×</mo><msup><mn>10</mn><mrow><mo>−</mo><mn>2</mn></mrow></msup></math>"#;
        assert_eq!(mathml_to_tex(t).unwrap(), "5.3\\times10^{-2}");
        let l = r#"<math><mo>‖</mo><mi>v</mi><mo>‖</mo><mo>/</mo><mi>ℓ</mi></math>"#;
        assert_eq!(mathml_to_tex(l).unwrap(), "\\|v\\|/\\ell");
        let m = r#"<math><mtext>50% of</mtext><mi>#</mi></math>"#;
        assert_eq!(mathml_to_tex(m).unwrap(), "\\text{50\\% of}\\#");
    }

    #[test]
    fn tex_is_cleaned_of_wrappers_and_delimiters() {
        assert_eq!(clean_tex("{\\displaystyle x^{2}}"), "x^{2}");
        assert_eq!(clean_tex(" \\( a+b \\) "), "a+b");
        assert_eq!(clean_tex("$$\n E = mc^2\n$$"), "E = mc^2");
        assert_eq!(clean_tex("{a}{b}"), "{a}{b}");
    }

    #[test]
    fn raw_formulas_in_text_keep_their_backslashes() {
        let w = |t: &str| {
            let mut s = String::new();
            text_with_tex(&mut s, t, None, false);
            s
        };
        assert_eq!(w("so \\(\\alpha_1\\) holds"), "so $\\alpha_1$ holds");
        assert_eq!(w("area $\\pi r^2$ here"), "area $\\pi r^2$ here");
        assert_eq!(w("\\[x=1\\] and $$y$$"), "$$x=1$$ and $$y$$");
        // A display environment left as text (ACM); not a document's environment.
        assert_eq!(
            w("\\begin{equation} p_i = 1 - q_f. \\end{equation} "),
            "$$\\begin{equation} p_i = 1 - q_f. \\end{equation}$$ "
        );
        assert_eq!(
            w("\\begin{itemize} x \\end{itemize}"),
            "\\\\begin{itemize} x \\\\end{itemize}"
        );
        // Prices are not math; text outside formulas is escaped as before.
        assert_eq!(w("from $5 to $10 *now*"), "from $5 to $10 \\*now\\*");
        assert_eq!(w("a \\ b"), "a \\\\ b");
    }
}

#[cfg(test)]
mod writer_tests {
    use crate::extract::{Algorithm, Extraction};
    use crate::output::markdown::render;
    use crate::snapshot::{rect, SnapshotBuilder, Tree};

    #[test]
    fn formulas_are_written_once_in_the_sentence() {
        let mut b = SnapshotBuilder::new(800.0);
        let p = b.el(0, "p", rect(0.0, 0.0, 600.0, 40.0));
        let t1 = b.text(p, "Let ");
        // KaTeX: the TeX on the .katex span, its glyphs below it.
        let k = b.el(p, "span", rect(30.0, 0.0, 40.0, 20.0));
        b.node_mut(k).class = Some("katex".into());
        b.node_mut(k).display = "inline".into();
        b.node_mut(k).tex = Some("x_1".into());
        let g = b.text(k, "x1");
        let t2 = b.text(p, " and ");
        // MathJax 2: the rendering skipped, the script node written.
        let mj = b.el(p, "span", rect(80.0, 0.0, 40.0, 20.0));
        b.node_mut(mj).class = Some("MathJax".into());
        b.node_mut(mj).display = "inline".into();
        let g2 = b.text(mj, "y≠0");
        let s = b.el(p, "script", rect(80.0, 0.0, 40.0, 20.0));
        b.node_mut(s).tex = Some("y \\ne 0".into());
        b.node_mut(s).display = "none".into();
        let t3 = b.text(p, ", so");
        // MathJax 3 in display: no text, not in the mask; MathML converted.
        let c = b.el(p, "mjx-container", rect(0.0, 20.0, 600.0, 20.0));
        b.node_mut(c).mathml = Some("<math><msqrt><mi>y</mi></msqrt></math>".into());
        b.node_mut(c).tex_display = true;
        let t4 = b.text(p, "holds.");
        let snap = b.build();
        let tree = Tree::new(&snap);
        let mut ex = Extraction::empty(Algorithm::Td, tree.len());
        for i in [p, t1, k, g, t2, mj, g2, t3, t4] {
            ex.kept[i] = true;
        }
        assert_eq!(
            render(&tree, &ex),
            "Let $x_1$ and $y \\ne 0$, so\n\n$$\n\\sqrt{y}\n$$\n\nholds.\n"
        );
    }

    #[test]
    fn a_sentences_last_formula_joins_with_its_full_stop() {
        // LibreTexts: "… estimate <MathJax 2 script>." with the paragraph itself not in the
        // mask, nor its full stop; a formula followed by more words in its block needs them.
        let page = |after: &str| {
            let mut b = SnapshotBuilder::new(800.0);
            let p = b.el(0, "p", rect(0.0, 0.0, 600.0, 20.0));
            let t1 = b.text(p, "Use a table of values to estimate ");
            let s = b.el(p, "script", rect(0.0, 0.0, 0.0, 0.0));
            b.node_mut(s).tex = Some("\\lim_{x \\to 0} f(x)".into());
            b.node_mut(s).display = "none".into();
            b.text(p, after);
            let q = b.el(0, "p", rect(0.0, 30.0, 600.0, 20.0));
            let t2 = b.text(q, "Solution follows.");
            let snap = b.build();
            let tree = Tree::new(&snap);
            let mut ex = Extraction::empty(Algorithm::Td, tree.len());
            for i in [t1, q, t2] {
                ex.kept[i] = true;
            }
            render(&tree, &ex)
        };
        assert_eq!(
            page("."),
            "Use a table of values to estimate $\\lim_{x \\to 0} f(x)$.\n\nSolution follows.\n"
        );
        assert_eq!(
            page(" and then some words"),
            "Use a table of values to estimate\n\nSolution follows.\n"
        );
    }
}
