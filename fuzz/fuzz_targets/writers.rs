//! Fuzz target: the writers (text, markdown, html) over snapshots built from the input bytes,
//! past the JSON reader: each 6 bytes make one node (its parent among the earlier elements,
//! its tag, a text from a small vocabulary of words, markup characters and odd Unicode, its
//! box, whether it is a link, kept or not), so the writers see every nesting of tags, kept
//! and dropped nodes, links around blocks, code in lists, and boxes of any size.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sightline_core::extract::{Algorithm, Extraction, Params};
use sightline_core::output;
use sightline_core::snapshot::{rect, Snapshot, SnapshotBuilder, Tree};

const TAGS: &[&str] = &[
    "div", "p", "a", "span", "h1", "h3", "ul", "ol", "li", "pre", "code", "em", "strong", "br",
    "img", "table", "tr", "td", "th", "blockquote", "hr", "del", "kbd", "figure", "source",
    "button", "section", "script", "svg", "b", "i", "thead", "sup", "dl", "dt", "dd", "aside",
    "figcaption", "q", "iframe", "video", "math", "details", "summary", "h2",
];
const TEXTS: &[&str] = &[
    "word", " ", "*", "_", "`", "```", "#", "> ", "1.", "-", "[x]", "](", "<b>", "&amp;", "\\",
    "\n", "  \n  ", "東京", "é", "\u{200b}", "|", "~~", "http://a/b", "!", "a b c", "",
];

fn snapshot(data: &[u8]) -> (Snapshot, Vec<bool>) {
    let mut b = SnapshotBuilder::new(800.0);
    let mut elements = vec![0usize];
    let mut kept = vec![true];
    for c in data.chunks_exact(6) {
        let parent = elements[c[0] as usize % elements.len()];
        let r = rect(
            f64::from(c[3] % 64) * 10.0,
            f64::from(c[4]) * 7.0,
            f64::from(c[3] / 64) * 200.0,
            f64::from(c[4] % 16) * 5.0,
        );
        let id = if c[1] % 3 == 0 {
            b.text(parent, TEXTS[c[2] as usize % TEXTS.len()])
        } else {
            let id = b.el(parent, TAGS[c[2] as usize % TAGS.len()], r);
            elements.push(id);
            id
        };
        let n = b.node_mut(id);
        if c[5] & 1 == 1 {
            n.href = Some(TEXTS[(c[5] >> 1) as usize % TEXTS.len()].to_string());
        }
        if c[5] & 2 == 2 {
            n.raw = n.text.clone().map(|t| format!("{t}\n  {t}"));
        }
        if c[5] & 8 == 8 {
            // Table spans, a language, a callout kind, footnote markers.
            let (k, v) = [
                ("colspan", "3"),
                ("rowspan", "70000"),
                ("data-lang", "rust"),
                ("data-callout", "warning"),
                ("data-footnote-ref", ""),
            ][(c[5] >> 4) as usize % 5];
            n.attrs.insert(k.into(), v.into());
        }
        if c[5] & 16 == 16 {
            n.id = Some(TEXTS[(c[5] >> 3) as usize % TEXTS.len()].to_string());
            n.class = Some(["admonition note", "footnotes", "line-numbers", "katex"][c[2] as usize % 4].into());
        }
        n.rect = r;
        kept.push(c[5] & 4 == 0);
    }
    (b.build(), kept)
}

fuzz_target!(|data: &[u8]| {
    let (snap, kept) = snapshot(data);
    let tree = Tree::new(&snap);
    // The writers on an arbitrary choice of kept nodes ...
    let mut ex = sightline_core::extract::extract_tree(&tree, Algorithm::Td, &Params::default());
    ex.kept = kept;
    write_all(&tree, &ex);
    // ... and on what each algorithm keeps.
    for a in [Algorithm::Crunch, Algorithm::Wang, Algorithm::Learned] {
        let ex = sightline_core::extract::extract_tree(&tree, a, &Params::default());
        write_all(&tree, &ex);
    }
});

fn write_all(tree: &Tree, ex: &Extraction) {
    output::text::render(tree, ex);
    output::markdown::render(tree, ex);
    output::html::render(tree, ex);
    // Links as references re-resolved against a base URL, images as their alt text: every
    // section must be its span of the markdown.
    let opts = output::options::WriterOptions {
        images: output::ImagesMode::Alt,
        links: output::LinksMode::References,
        base_url: Some("https://example.org/a/".into()),
    };
    let md = output::markdown::write(tree, ex, &opts);
    for s in &md.sections {
        assert_eq!(s.slice(&md.markdown), s.markdown);
    }
}
