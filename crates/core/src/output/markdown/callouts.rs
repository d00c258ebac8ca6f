//! Callouts and admonitions as GitHub alerts: `> [!NOTE]` (or `TIP`, `IMPORTANT`, `WARNING`,
//! `CAUTION`) blockquotes.
//!
//! Recognised: GitHub (`.markdown-alert-note`), Docusaurus (`.theme-admonition-tip`, older
//! `.admonition-note`), MkDocs Material and Sphinx (`.admonition.note`, `details.note`),
//! Hugo and Docsy (`.alert`, `.callout` with a kind), Bootstrap alerts (`.alert-info`, ...),
//! VitePress and VuePress (`.custom-block.tip`), MDN (`.notecard.note`), Starlight
//! (`.starlight-aside--note`), GitBook (`.hint-info`, `.hint.bg-info`), Gitea
//! (`.attention-note`), Hexo NexT (`.note.info`), rustdoc (`div.warning`), Bookdown
//! (`.rmdnote`), Zenn (`aside.msg.message`, `.msg.alert` a warning), Hugo Book
//! (`.book-hint.info`), Just the Docs (`blockquote.note-title`), w3.css (`.w3-panel.w3-note`),
//! YARD (`.note.notetag`), GitHub's older
//! `> **Note**` quotes,
//! DokuWiki (`.wrap_info.plugin_wrap`), Confluence (`.confluence-information-macro-tip`),
//! Obsidian (`.callout[data-callout="warning"]`) and `<aside>`s classed with a kind. A title
//! that is a kind's name decides the kind (Microsoft Learn draws a warning with the danger
//! style: `div.alert.is-danger` titled "Warning"). Other kinds
//! map onto the five: info/abstract/summary/example/quote → NOTE, hint/success/check →
//! TIP, question/help → IMPORTANT, attention → WARNING, danger/error/bug/failure → CAUTION.
//! The callout's title (its `.*-title`/`.*-heading` child, `<summary>`, or a leading heading)
//! is dropped when it only repeats the kind, else written in bold on the first line; so is a
//! bold lead-in that only repeats it (MDN's `<strong>Note:</strong> …`). A callout without a
//! kind (Notion's, Ghost's callout card: an emoji and a sentence; Sphinx's "See also" and its
//! custom-titled admonitions, `div.admonition` with no kind) is a plain quote, whole.

use super::syntax::prefix_lines;
use super::{join, Block, BlockKind, Writer};
use crate::snapshot::{Node, NodeId, Tree};

/// How surely a word names a callout's kind.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Sureness {
    /// Only with a callout container beside it (`primary`, `light`: a theme's colours,
    /// which name a box's look; `example`, `question`).
    Weak,
    /// Beyond doubt wherever it is written (`data-type="warning"`, the modifier in
    /// `notice--info`, a kind before a box word).
    Strong,
    /// Even as an element's only class (`<div class="note">`): GitHub's five and `danger`.
    Sole,
}
use Sureness::{Sole, Strong, Weak};

/// Class tokens (or `data-callout`) naming a kind, the alert they become, and how surely.
const KINDS: [(&str, &str, Sureness); 36] = [
    ("note", "NOTE", Sole),
    ("info", "NOTE", Strong),
    ("information", "NOTE", Weak),
    ("abstract", "NOTE", Weak),
    ("summary", "NOTE", Weak),
    ("tldr", "NOTE", Weak),
    ("todo", "NOTE", Weak),
    ("example", "NOTE", Weak),
    ("quote", "NOTE", Weak),
    ("cite", "NOTE", Weak),
    ("primary", "NOTE", Weak),
    ("secondary", "NOTE", Weak),
    ("light", "NOTE", Weak),
    ("dark", "NOTE", Weak),
    ("tip", "TIP", Sole),
    ("hint", "TIP", Strong),
    ("success", "TIP", Strong),
    ("check", "TIP", Weak),
    ("done", "TIP", Weak),
    ("important", "IMPORTANT", Sole),
    ("question", "IMPORTANT", Weak),
    ("help", "IMPORTANT", Weak),
    ("faq", "IMPORTANT", Weak),
    ("warning", "WARNING", Sole),
    ("warn", "WARNING", Sole),
    ("attention", "WARNING", Strong),
    // Docusaurus and Starlight draw a caution as a warning (yellow); GitHub's CAUTION is
    // their danger.
    ("caution", "WARNING", Sole),
    ("danger", "CAUTION", Sole),
    ("error", "CAUTION", Strong),
    ("bug", "CAUTION", Weak),
    ("failure", "CAUTION", Weak),
    ("fail", "CAUTION", Weak),
    ("missing", "CAUTION", Weak),
    ("critical", "CAUTION", Weak),
    ("negative", "CAUTION", Weak),
    ("positive", "TIP", Weak),
];

/// Class tokens that make an element a callout when it also names a kind.
const CONTAINERS: [&str; 16] = [
    "admonition",
    // Hugo Book's `blockquote.book-hint.info`; YARD's `div.note.notetag`.
    "book-hint",
    "notetag",
    // DokuWiki's wrap plugin: `div.wrap_info.plugin_wrap`.
    "plugin_wrap",
    // Confluence's info, tip, note and warning macros.
    "confluence-information-macro",
    // VuePress's `div.custom-container.tip`.
    "custom-container",
    "hint",
    "custom-block",
    "notecard",
    "starlight-aside",
    "callout",
    "alert",
    "markdown-alert",
    "theme-admonition",
    "notice",
    "admonitionblock",
];

/// Class prefixes that carry the kind in the same token (`alert-info`).
const PREFIXES: [&str; 15] = [
    "markdown-alert-",
    // Bookdown's `div.rmdnote`, `rmdtip`, `rmdwarning`.
    "rmd",
    "wrap_",
    "confluence-information-macro-",
    // Jekyll Chirpy's `blockquote.prompt-tip`.
    "prompt-",
    "bg-",
    "attention-",
    "starlight-aside--",
    "hint-",
    "theme-admonition-",
    "admonition-",
    "alert-",
    "callout-",
    "notice-",
    "is-",
];

fn alert(word: &str) -> Option<&'static str> {
    alert_at_least(word, Weak)
}

/// The alert of a word that names a kind at least this surely.
fn alert_at_least(word: &str, least: Sureness) -> Option<&'static str> {
    let w = word.trim().to_ascii_lowercase();
    KINDS
        .iter()
        .find(|(k, _, s)| *k == w && *s >= least)
        .map(|(_, v, _)| *v)
}

/// The alert a node is, if it is a callout.
/// A callout that names no kind: Notion's `figure.callout` and Ghost's `.kg-callout-card`, an
/// emoji beside a sentence. Written as a plain `>` quote, the emoji included.
pub(super) fn plain_box(n: &Node) -> bool {
    matches!(n.tag.as_str(), "div" | "figure" | "aside")
        && n.class.as_deref().is_some_and(|c| {
            c.split_whitespace().any(|t| {
                // The GOV.UK and NHS design systems' inset text.
                matches!(
                    t,
                    "callout"
                        | "kg-callout-card"
                        | "govuk-inset-text"
                        | "nhsuk-inset-text"
                        // Sphinx's `seealso` and custom-titled admonitions.
                        | "admonition"
                )
            })
        })
        && kind(n).is_none()
}

pub(super) fn kind(n: &Node) -> Option<&'static str> {
    // Doxygen writes its notes as `<dl class="section note"><dt>Note</dt><dd>…`.
    let doxygen = n.tag == "dl"
        && n.class
            .as_deref()
            .is_some_and(|c| c.split_whitespace().any(|t| t == "section"));
    if !matches!(
        n.tag.as_str(),
        "div" | "aside" | "details" | "section" | "blockquote" | "p"
    ) && !doxygen
    {
        return None;
    }
    // Obsidian's `data-callout`, Mintlify's `data-callout-type`.
    if let Some(k) = n
        .attrs
        .get("data-callout")
        .or_else(|| n.attrs.get("data-callout-type"))
    {
        return Some(alert(k).unwrap_or("NOTE"));
    }
    // HTMLBook (O'Reilly's books): `<div data-type="note">`.
    if let Some(k) = n.attrs.get("data-type").and_then(|t| strong_kind(t)) {
        return Some(k);
    }
    let class = n.class.as_deref()?;
    let toks: Vec<&str> = class.split_whitespace().collect();
    // A paragraph classed with a kind alone (Docsify's `p.tip` and `p.warn`); not `p.note`,
    // which pages use for small print as often as for a box.
    // Or a box's name and a kind (BookStack's `p.callout.info`, `p.callout.warning`).
    if n.tag == "p" {
        return match toks.as_slice() {
            [only] if !only.eq_ignore_ascii_case("note") => alert_at_least(only, Sole),
            [a, b] if CONTAINERS.contains(a) => alert(b),
            [a, b] if CONTAINERS.contains(b) => alert(a),
            _ => None,
        };
    }
    if let Some(k) = nextra_kind(&toks) {
        return Some(k);
    }
    // Zenn's `:::message` (`aside.msg.message`) and `:::message alert` (`aside.msg.alert`).
    if toks.contains(&"msg") && (toks.contains(&"message") || toks.contains(&"alert")) {
        return Some(if toks.contains(&"alert") {
            "WARNING"
        } else {
            "NOTE"
        });
    }
    // GOV.UK's warning text; a kind before a box's name (`info-notice`, `warning-box`,
    // NHS's `nhsuk-warning-callout`), or after it (`box-note`).
    if toks.contains(&"govuk-warning-text") {
        return Some("WARNING");
    }
    for t in &toks {
        let words: Vec<&str> = t.split(['-', '_']).filter(|w| !w.is_empty()).collect();
        if let [.., kind, boxed] = words.as_slice() {
            if BOX_WORDS.contains(boxed) {
                if let Some(k) = strong_kind(kind) {
                    return Some(k);
                }
            }
        }
        // A box's name before its kind (LibreTexts' `box-note`, `box-warning`; not YARD's
        // `box_info`, its metadata box).
        if let [boxed, kind] = words.as_slice() {
            if BOX_WORDS.contains(boxed) && t.contains('-') {
                if let Some(k) = strong_kind(kind) {
                    return Some(k);
                }
            }
        }
        // Just the Docs' titled callouts: `blockquote.important-title`.
        if let [kind, "title"] = words.as_slice() {
            if n.tag == "blockquote" {
                if let Some(k) = alert_at_least(kind, Sole) {
                    return Some(k);
                }
            }
        }
    }
    // A box and its kind as two tokens of one prefix (w3.css's `w3-panel w3-note`).
    for t in &toks {
        let Some((prefix, boxed)) = t.rsplit_once('-') else {
            continue;
        };
        if !BOX_WORDS.contains(&boxed) {
            continue;
        }
        let kind = toks.iter().find_map(|u| {
            u.strip_prefix(prefix)
                .and_then(|r| r.strip_prefix('-'))
                .and_then(strong_kind)
        });
        if kind.is_some() {
            return kind;
        }
    }
    // A base class and its modifier naming a kind (`callout callout--info`,
    // `archwiki-template-box archwiki-template-box-tip`, `panel panel-warning`).
    for t in &toks {
        for base in &toks {
            let modifier = t
                .strip_prefix(base)
                .filter(|m| m.starts_with(['-', '_']))
                .map(|m| m.trim_start_matches(['-', '_']));
            if let Some(k) = modifier.and_then(strong_kind) {
                return Some(k);
            }
        }
    }
    let container = toks.iter().any(|t| CONTAINERS.contains(t))
        || n.tag == "details"
        || n.tag == "aside"
        || doxygen;
    for t in &toks {
        for p in PREFIXES {
            // BEM's doubled dash too (`alert--info`).
            if let Some(k) = t
                .strip_prefix(p)
                .map(|k| k.trim_start_matches('-'))
                .and_then(alert)
            {
                // `is-info` (Bulma) and `bg-info` (GitBook's `div.hint.bg-info`, a
                // background elsewhere) need the container token too; a quote box is one
                // (Wiki.js's `blockquote.is-info`, `is-warning`, `is-success`).
                if (p != "is-" && p != "bg-") || container || (p == "is-" && n.tag == "blockquote")
                {
                    return Some(k);
                }
            }
        }
    }
    if container {
        // MkDocs `.admonition.note`, `details.warning`, `aside.tip`.
        return toks.iter().find_map(|t| alert(t));
    }
    // A box classed with nothing but kinds: Hexo NexT's `div.note.info` (the last names
    // it), rustdoc's `div.warning`.
    if toks.len() >= 2 && toks.iter().all(|t| alert(t).is_some()) {
        return toks.last().and_then(|t| alert(t));
    }
    if let [only] = toks.as_slice() {
        if n.tag != "section" {
            return alert_at_least(only, Sole);
        }
    }
    None
}

/// Names of a box after its kind in one class token (`info-notice`, `warning-box`).
const BOX_WORDS: [&str; 6] = ["notice", "callout", "box", "alert", "admonition", "panel"];

/// The alert of a word that names a callout's kind beyond doubt (not `primary`, `light` and
/// the other colours of a theme, which name a box's look).
fn strong_kind(word: &str) -> Option<&'static str> {
    alert_at_least(word, Strong)
}

/// Nextra's callout (`div.nextra-callout`) says its kind only by its colour classes
/// (`x:bg-blue-100`): blue a note, green a tip, yellow or orange a warning, purple important,
/// red a caution, as Nextra draws GitHub's alerts.
fn nextra_kind(toks: &[&str]) -> Option<&'static str> {
    if !toks.contains(&"nextra-callout") {
        return None;
    }
    toks.iter()
        .find_map(|t| {
            let colour = t.trim_start_matches("x:").strip_prefix("bg-")?;
            let name = colour.split('-').next()?;
            match name {
                "blue" => Some("NOTE"),
                "green" => Some("TIP"),
                "yellow" | "orange" | "amber" => Some("WARNING"),
                "purple" | "violet" => Some("IMPORTANT"),
                "red" => Some("CAUTION"),
                _ => None,
            }
        })
        .or(Some("NOTE"))
}

/// The kind of a blockquote that opens with a bold kind on a line of its own: GitHub's
/// older alert syntax (`> **Note**` / `> text`), which Gitea and many READMEs still write.
pub(super) fn legacy_kind(tree: &Tree, id: NodeId) -> Option<&'static str> {
    if tree.node(id).tag != "blockquote" {
        return None;
    }
    let p = *tree.children[id]
        .iter()
        .find(|&&c| tree.node(c).is_element())?;
    if tree.node(p).tag != "p" {
        return None;
    }
    let bold = *tree.children[p]
        .iter()
        .find(|&&c| tree.node(c).is_element() && tree.node(c).tag != "svg")?;
    if !matches!(tree.node(bold).tag.as_str(), "strong" | "b") {
        return None;
    }
    // Nothing but blanks before the bold word; after it, the paragraph's end or a line break.
    let kids = &tree.children[p];
    let at = kids.iter().position(|&c| c == bold)?;
    if kids[..at].iter().any(|&c| !tree.text(c).trim().is_empty()) {
        return None;
    }
    let next = kids[at + 1..]
        .iter()
        .find(|&&c| !tree.text(c).trim().is_empty() || tree.node(c).tag == "br");
    if next.is_some_and(|&c| tree.node(c).tag != "br") {
        return None;
    }
    let word = tree.text(bold);
    let word = word.trim().trim_end_matches(':').trim();
    LEGACY
        .iter()
        .find(|(k, _)| word.eq_ignore_ascii_case(k))
        .map(|(_, v)| *v)
}

/// The words of GitHub's older alerts.
const LEGACY: [(&str, &str); 5] = [
    ("Note", "NOTE"),
    ("Tip", "TIP"),
    ("Important", "IMPORTANT"),
    ("Warning", "WARNING"),
    ("Caution", "CAUTION"),
];

/// Does the title only repeat the kind ("Note", "Warning:")?
fn repeats_kind(title: &str) -> bool {
    let t = title
        .trim()
        .trim_end_matches([':', '.', '!'])
        .trim()
        .to_ascii_lowercase();
    t.is_empty() || alert(&t).is_some() || t == "see also" || t == "warning!"
}

/// A paragraph without its bold lead-in when that is a label that only repeats the kind:
/// `**Note:** text` (MDN), or `**Note**` on a line of its own (GitHub's older alerts, Gitea's
/// `<p><svg/><strong>Note</strong></p>`, which leaves the paragraph empty); `**Done!** text`
/// stays.
fn without_kind_lead_in(para: &str) -> String {
    let Some(rest) = para.strip_prefix("**") else {
        return para.to_string();
    };
    let Some(end) = rest.find("**") else {
        return para.to_string();
    };
    let (lead, after) = (&rest[..end], &rest[end + 2..]);
    // A label ("Note:", or the word on its own line), not a sentence that starts with a
    // kind's word ("Done! It worked.").
    let own_line = after.trim_start_matches(':').is_empty() || after.starts_with("\\\n");
    let label = lead.trim_end().ends_with(':') || after.starts_with(':') || own_line;
    if !label || lead.trim().is_empty() || !repeats_kind(lead) {
        return para.to_string();
    }
    after
        .trim_start_matches(':')
        .trim_start_matches("\\\n")
        .trim_start()
        .to_string()
}

impl Writer<'_, '_> {
    /// The callout's title element: a child classed `*title*`/`*heading*`/`*header*` (Quarto's
    /// `.callout-header`), a `<summary>`, a first child heading, or a first child whose text is
    /// only the kind's name.
    fn callout_title(&self, id: NodeId) -> Option<NodeId> {
        let first = self.kids(id).find(|&k| self.tree.node(k).is_element())?;
        let n = self.tree.node(first);
        let titled = n.class.as_deref().is_some_and(|c| {
            let c = c.to_ascii_lowercase();
            c.contains("title")
                || c.contains("heading")
                || c.contains("header")
                || c.contains("legend")
        });
        // Or a first block whose whole text is a kind's name (DocC's `p.label` "Note").
        (titled
            || matches!(n.tag.as_str(), "summary" | "dt" | "legend")
            || n.heading_level().is_some()
            || ((1..=24).contains(&self.tree.chars[first])
                && self.tree.is_block(first)
                && self.tree.chars[id] > self.tree.chars[first]
                && repeats_kind(&self.tree.text(first))))
        .then_some(first)
    }

    /// `> [!KIND]` and the callout's content.
    pub(super) fn callout(&self, id: NodeId, kind: &str, blocks: &mut Vec<Block>) {
        let title = self.callout_title(id);
        // The reader sees the title's word, whatever colour the class gives the box.
        let titled = title.and_then(|t| {
            let text = self.tree.text(t);
            alert(text.trim().trim_end_matches([':', '.', '!']).trim())
        });
        let kind = titled.unwrap_or(kind);
        let mut inner = Vec::new();
        if let Some(t) = title {
            let text = self.tree.text(t);
            if !repeats_kind(&text) {
                let parts = self.children_blocks(t);
                let line = parts
                    .iter()
                    .map(|b| b.text.replace("\\\n", " ").replace('\n', " "))
                    .collect::<Vec<_>>()
                    .join(" ");
                if !line.is_empty() {
                    inner.push(Block {
                        kind: BlockKind::Para,
                        text: format!("**{}**", line.trim_matches('*')),
                    });
                }
            }
        }
        self.container(self.kids(id).filter(|&k| Some(k) != title), &mut inner);
        if let Some(first) = inner.first_mut() {
            first.text = without_kind_lead_in(&first.text);
            if first.text.trim().is_empty() {
                inner.remove(0);
            }
        }
        let body = join(&inner);
        let text = if body.is_empty() {
            format!("> [!{kind}]")
        } else {
            format!("> [!{kind}]\n{}", prefix_lines(&body, "> ", "> "))
        };
        blocks.push(Block {
            kind: BlockKind::Other,
            text,
        });
    }
}
