//! Sections for retrieval: the markdown cut at its headings, from the same writer run as the
//! markdown (the heading blocks mark the cuts, so each section's span is exact), each with
//! its heading path, its markdown, its character span in the whole markdown and the page
//! boxes its content covers, merged.

use serde::{Deserialize, Serialize};

use super::{Block, BlockKind, Writer};
use crate::snapshot::{NodeId, Rect};

/// Two boxes of one section are one box when they overlap horizontally and the gap between
/// them is at most this many CSS px: a column's paragraphs, with their margins, a figure
/// between them, merge; a side column and a block far down the page stay apart.
const MERGE_GAP_PX: f64 = 48.0;

/// One section of the content: a heading and what follows it up to the next heading (of any
/// level), or the content before the first heading (its `heading_path` empty, `level` 0).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Section {
    /// The texts of the headings the section is under, from the top down, its own last (empty
    /// for the content before the first heading).
    pub heading_path: Vec<String>,
    /// Its heading's level (1 to 6; 0 before the first heading).
    pub level: u8,
    /// The section's markdown: its heading line and the blocks up to the next heading.
    pub markdown: String,
    /// Where `markdown` is in the whole markdown: `[start, end)` in characters (Unicode
    /// scalar values, as Python indexes a `str`).
    pub span: [usize; 2],
    /// The page boxes the section's text and images cover (`[x, y, w, h]`, CSS px, document
    /// coordinates), boxes of one column merged.
    pub boxes: Vec<Rect>,
}

impl Section {
    /// This section's part of `markdown` (the whole markdown it was cut from): `span` read as
    /// character offsets. Empty when the span is not inside `markdown` (another page's).
    pub fn slice<'m>(&self, markdown: &'m str) -> &'m str {
        let byte = |c: usize| {
            markdown
                .char_indices()
                .map(|(i, _)| i)
                .chain([markdown.len()])
                .nth(c)
        };
        match (byte(self.span[0]), byte(self.span[1])) {
            (Some(a), Some(b)) if a <= b => &markdown[a..b],
            _ => "",
        }
    }
}

impl Writer<'_, '_> {
    /// The top-level blocks joined by blank lines (the markdown without its final newline),
    /// and the sections they make: a section starts at each heading block.
    pub(super) fn sections(&self, blocks: &[Block]) -> (String, Vec<Section>) {
        let mut md = String::new();
        let mut chars = 0;
        // Each section's first block: (block index, char start, heading node).
        let mut starts: Vec<(usize, usize, Option<NodeId>)> = Vec::new();
        let mut ends = Vec::with_capacity(blocks.len());
        for (i, b) in blocks.iter().enumerate() {
            if i > 0 {
                md.push_str("\n\n");
                chars += 2;
            }
            match b.kind {
                BlockKind::Heading(h) => starts.push((i, chars, Some(h))),
                _ if i == 0 => starts.push((0, 0, None)),
                _ => {}
            }
            md.push_str(&b.text);
            chars += b.text.chars().count();
            ends.push(chars);
        }
        let mut path: Vec<(u8, String)> = Vec::new();
        let mut out = Vec::with_capacity(starts.len());
        for (k, &(first, start, heading)) in starts.iter().enumerate() {
            let next = starts.get(k + 1);
            let last = next.map_or(blocks.len(), |s| s.0) - 1;
            let end = ends[last];
            let level = heading.and_then(|h| self.heading_level(h));
            if let (Some(h), Some(level)) = (heading, level) {
                while path.last().is_some_and(|(l, _)| *l >= level) {
                    path.pop();
                }
                path.push((level, self.plain_text(h)));
            }
            let from = heading.unwrap_or(0);
            let to = next.and_then(|s| s.2).unwrap_or(self.tree.len());
            out.push(Section {
                heading_path: path.iter().map(|(_, t)| t.clone()).collect(),
                level: level.unwrap_or(0),
                markdown: blocks[first..=last]
                    .iter()
                    .map(|b| b.text.as_str())
                    .collect::<Vec<_>>()
                    .join("\n\n"),
                span: [start, end],
                boxes: self.boxes(from, to),
            });
        }
        (md, out)
    }

    /// The kept text of a subtree, whitespace collapsed and trimmed (a heading's path entry).
    fn plain_text(&self, id: NodeId) -> String {
        let mut t = String::new();
        for i in self.tree.subtree(id) {
            if let (true, Some(s)) = (self.kept[i], &self.tree.node(i).text) {
                t.push_str(s);
            }
        }
        crate::snapshot::collapse_ws(&t).trim().to_string()
    }

    /// The boxes of the kept texts and images among the nodes `from..to` (document order),
    /// merged down a column ([`MERGE_GAP_PX`]).
    fn boxes(&self, from: NodeId, to: NodeId) -> Vec<Rect> {
        let mut out: Vec<Rect> = Vec::new();
        for i in from..to.min(self.tree.len()) {
            let n = self.tree.node(i);
            let shows = n.text.as_deref().is_some_and(|t| !t.trim().is_empty()) || n.tag == "img";
            let r = n.rect;
            if !self.kept[i] || !shows || r.w <= 0.0 || r.h <= 0.0 {
                continue;
            }
            match out.last_mut() {
                Some(b)
                    if r.x < b.x + b.w
                        && b.x < r.x + r.w
                        && r.y <= b.y + b.h + MERGE_GAP_PX
                        && b.y <= r.y + r.h + MERGE_GAP_PX =>
                {
                    let (x, y) = (b.x.min(r.x), b.y.min(r.y));
                    let (x2, y2) = ((b.x + b.w).max(r.x + r.w), (b.y + b.h).max(r.y + r.h));
                    // A tenth of a pixel, as the snapshot gives boxes (no float noise).
                    let tenth = |v: f64| (v * 10.0).round() / 10.0;
                    *b = Rect {
                        x,
                        y,
                        w: tenth(x2 - x),
                        h: tenth(y2 - y),
                    };
                }
                _ => out.push(r),
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::write;
    use crate::extract::{Algorithm, Extraction};
    use crate::output::options::WriterOptions;
    use crate::snapshot::{rect, Rect, SnapshotBuilder, Tree};

    #[test]
    fn a_span_counts_characters_and_one_outside_the_markdown_is_empty() {
        let sec = |a, b| super::Section {
            heading_path: vec![],
            level: 0,
            markdown: String::new(),
            span: [a, b],
            boxes: vec![],
        };
        let md = "# Ålesund\n\nÉtude";
        assert_eq!(sec(0, 9).slice(md), "# Ålesund");
        assert_eq!(sec(11, 16).slice(md), "Étude");
        assert_eq!(sec(11, 99).slice(md), "");
    }

    #[test]
    fn sections_cut_the_markdown_at_its_headings_with_exact_spans() {
        let mut b = SnapshotBuilder::new(1000.0);
        let art = b.el(0, "article", rect(0.0, 0.0, 600.0, 900.0));
        let mut y = 0.0;
        let mut el = |b: &mut SnapshotBuilder, tag: &str, text: &str| {
            let e = b.el(art, tag, rect(0.0, y, 600.0, 30.0));
            b.text(e, text);
            y += 40.0;
            e
        };
        el(&mut b, "p", "Lead «before» any heading.");
        el(&mut b, "h1", "Café guide");
        el(&mut b, "p", "Intro text.");
        el(&mut b, "h2", "Beans");
        el(&mut b, "p", "Arabica ☕ and robusta.");
        el(&mut b, "h3", "Roasts");
        el(&mut b, "p", "Light and dark.");
        el(&mut b, "h2", "Water");
        el(&mut b, "p", "Soft.");
        // A side column far to the right: a box of its own in the last section.
        let aside = b.el(art, "p", rect(800.0, 0.0, 200.0, 30.0));
        b.text(aside, "Side note.");
        let snap = b.build();
        let tree = Tree::new(&snap);
        let mut ex = Extraction::empty(Algorithm::Td, snap.nodes.len());
        ex.kept = vec![true; snap.nodes.len()];
        let out = write(&tree, &ex, &WriterOptions::default());
        let paths: Vec<(Vec<String>, u8)> = out
            .sections
            .iter()
            .map(|s| (s.heading_path.clone(), s.level))
            .collect();
        let p = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            paths,
            vec![
                (p(&[]), 0),
                (p(&["Café guide"]), 1),
                (p(&["Café guide", "Beans"]), 2),
                (p(&["Café guide", "Beans", "Roasts"]), 3),
                (p(&["Café guide", "Water"]), 2),
            ]
        );
        for s in &out.sections {
            assert_eq!(s.slice(&out.markdown), s.markdown, "{s:?}");
        }
        assert_eq!(out.sections[0].markdown, "Lead «before» any heading.");
        assert_eq!(
            out.sections[2].markdown,
            "## Beans\n\nArabica ☕ and robusta."
        );
        assert_eq!(out.sections[4].markdown, "## Water\n\nSoft.\n\nSide note.");
        // A heading and its paragraph merge into one box; the side column stays apart.
        assert_eq!(out.sections[2].boxes, vec![rect(0.0, 120.0, 600.0, 70.0)]);
        let last: &[Rect] = &out.sections[4].boxes;
        assert_eq!(
            last,
            [rect(0.0, 280.0, 600.0, 70.0), rect(800.0, 0.0, 200.0, 30.0)]
        );
        // The whole markdown is the sections joined by blank lines.
        let joined: Vec<&str> = out.sections.iter().map(|s| s.markdown.as_str()).collect();
        assert_eq!(out.markdown, joined.join("\n\n") + "\n");
    }

    #[test]
    fn no_content_no_sections_and_a_heading_first_has_no_lead() {
        let mut b = SnapshotBuilder::new(800.0);
        let h = b.el(0, "h2", rect(0.0, 0.0, 800.0, 30.0));
        b.text(h, "Only");
        let snap = b.build();
        let tree = Tree::new(&snap);
        let mut ex = Extraction::empty(Algorithm::Td, snap.nodes.len());
        assert!(write(&tree, &ex, &WriterOptions::default())
            .sections
            .is_empty());
        ex.kept = vec![true; snap.nodes.len()];
        let out = write(&tree, &ex, &WriterOptions::default());
        assert_eq!(out.sections.len(), 1);
        assert_eq!(out.sections[0].heading_path, ["Only"]);
        assert_eq!(out.sections[0].span, [0, 6]);
    }
}
