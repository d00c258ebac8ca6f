//! Definition lists (`<dl>`): each term in bold on its own line, each definition under it
//! after `: ` (the PHP Markdown Extra and pandoc form, which reads as plain text too),
//! continuation lines indented; groups separated by a blank line. A list nested in a
//! definition follows it, at the same level.

use super::syntax::prefix_lines;
use super::{join, Block, BlockKind, Inline, Writer};
use crate::snapshot::NodeId;

impl Writer<'_, '_> {
    /// The kept `dt`/`dd` children of a `dl`, through `div` wrappers (HTML allows them); with
    /// `shown`, every shown one, kept or not.
    fn dl_items(&self, id: NodeId, shown: bool, out: &mut Vec<NodeId>) {
        let kids: Vec<NodeId> = if shown {
            self.tree.children[id]
                .iter()
                .copied()
                .filter(|&k| self.tree.node(k).rendered)
                .collect()
        } else {
            self.kids(id).collect()
        };
        for k in kids {
            match self.tree.node(k).tag.as_str() {
                "dt" | "dd" => out.push(k),
                "div" => self.dl_items(k, shown, out),
                _ => {}
            }
        }
    }

    /// The list's numbers when its terms are only the numbers 1, 2, 3, ... (as text, or as
    /// the alt text of a marker image: O'Reilly's and DocBook's code callout lists, whose
    /// terms are the callout markers), each followed by one definition: the first number.
    fn numbered_terms(&self, items: &[NodeId]) -> Option<u32> {
        let mut first = None;
        let mut next = 0u32;
        for pair in items.chunks(2) {
            let [dt, dd] = pair else { return None };
            if self.tree.node(*dt).tag != "dt" || self.tree.node(*dd).tag != "dd" {
                return None;
            }
            let mut label = self.tree.text(*dt).trim().to_string();
            if label.is_empty() {
                label = self
                    .tree
                    .subtree(*dt)
                    .find_map(|d| self.tree.node(d).alt.clone())
                    .unwrap_or_default();
            }
            let n: u32 = label
                .trim()
                .trim_matches(|c: char| matches!(c, '(' | ')' | '[' | ']' | '.'))
                .parse()
                .ok()?;
            if first.is_some() && n != next {
                return None;
            }
            first.get_or_insert(n);
            next = n + 1;
        }
        first
    }

    pub(super) fn definition_list(&self, id: NodeId, blocks: &mut Vec<Block>) {
        // Numbered markers as terms are often left out by the extraction with their
        // definitions kept: the shown items decide.
        let mut shown = Vec::new();
        self.dl_items(id, true, &mut shown);
        if let Some(start) = self.numbered_terms(&shown) {
            let lines: Vec<String> = shown
                .chunks(2)
                .zip(start..)
                .filter(|(pair, _)| self.kept[pair[1]])
                .map(|(pair, n)| {
                    let marker = format!("{n}. ");
                    let pad = " ".repeat(marker.len());
                    prefix_lines(&join(&self.children_blocks(pair[1])), &marker, &pad)
                })
                .collect();
            blocks.push(Block {
                kind: BlockKind::List,
                text: lines.join("\n"),
            });
            return;
        }
        let mut items = Vec::new();
        self.dl_items(id, false, &mut items);
        let mut groups: Vec<String> = Vec::new();
        let mut cur = String::new();
        let mut last_dd = false;
        for k in items {
            if self.tree.node(k).tag == "dt" {
                let mut inl = Inline {
                    strong: 1,
                    ..Inline::default()
                };
                self.inline_children_or_flat(k, &mut inl);
                let term = inl.take().replace("\\\n", " ").replace('\n', " ");
                if term.is_empty() {
                    continue;
                }
                if last_dd && !cur.is_empty() {
                    groups.push(std::mem::take(&mut cur));
                }
                if !cur.is_empty() {
                    cur.push('\n');
                }
                cur.push_str(&format!("**{term}**"));
                last_dd = false;
            } else {
                // A list nested in the definition (Sphinx's methods and field lists inside a
                // class's `<dd>`) follows it at the same level: markdown has no nested
                // definition list that its parsers agree on.
                let is_dl = |c: &NodeId| self.tree.node(*c).tag == "dl";
                let mut body = Vec::new();
                self.container(self.kids(k).filter(|c| !is_dl(c)), &mut body);
                let body = join(&body);
                let nested: Vec<String> = self
                    .kids(k)
                    .filter(is_dl)
                    .map(|c| {
                        let mut b = Vec::new();
                        self.block(c, &mut b);
                        join(&b)
                    })
                    .filter(|t| !t.is_empty())
                    .collect();
                if body.is_empty() && nested.is_empty() {
                    continue;
                }
                if !body.is_empty() {
                    if !cur.is_empty() {
                        cur.push('\n');
                    }
                    cur.push_str(&prefix_lines(&body, ": ", "  "));
                }
                for t in nested {
                    if !cur.is_empty() {
                        groups.push(std::mem::take(&mut cur));
                    }
                    groups.push(t);
                }
                last_dd = true;
            }
        }
        if !cur.is_empty() {
            groups.push(cur);
        }
        if !groups.is_empty() {
            blocks.push(Block {
                kind: BlockKind::Other,
                text: groups.join("\n\n"),
            });
        }
    }

    /// A term's content on one line: its inline content, or the text of its blocks.
    fn inline_children_or_flat(&self, id: NodeId, inl: &mut Inline) {
        if self.has_block[id] {
            self.flat_text(id, inl);
        } else {
            self.inline_children(id, inl);
        }
    }
}
