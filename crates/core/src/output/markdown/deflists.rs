//! Definition lists (`<dl>`): each term in bold on its own line, each definition under it
//! after `: ` (the PHP Markdown Extra and pandoc form, which reads as plain text too),
//! continuation lines indented; groups separated by a blank line.

use super::syntax::prefix_lines;
use super::{join, Block, BlockKind, Inline, Writer};
use crate::snapshot::NodeId;

impl Writer<'_, '_> {
    /// The `dt`/`dd` children of a `dl`, through `div` wrappers (HTML allows them).
    fn dl_items(&self, id: NodeId, out: &mut Vec<NodeId>) {
        for k in self.kids(id) {
            match self.tree.node(k).tag.as_str() {
                "dt" | "dd" => out.push(k),
                "div" => self.dl_items(k, out),
                _ => {}
            }
        }
    }

    pub(super) fn definition_list(&self, id: NodeId, blocks: &mut Vec<Block>) {
        let mut items = Vec::new();
        self.dl_items(id, &mut items);
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
                let body = join(&self.children_blocks(k));
                if body.is_empty() {
                    continue;
                }
                if !cur.is_empty() {
                    cur.push('\n');
                }
                cur.push_str(&prefix_lines(&body, ": ", "  "));
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
