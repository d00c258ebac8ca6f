//! Tables: a GFM pipe table when the table is regular, clean HTML when GFM cannot hold it,
//! and the content alone when the table only places boxes on the page.
//!
//! Rules, in order:
//! 0. a table is a `<table>`, an ARIA `role="table"` or `"grid"` of `row`s and `cell`s, or a
//!    CSS grid classed as a table whose children are its cells ([`is_div_table`]).
//! 1. the grid: rows from `thead`, `tbody`, `tfoot` and bare `tr`; a cell's `colspan` and
//!    `rowspan` (capped at [`MAX_SPAN`]) repeat its text into every slot it covers.
//! 2. a *layout table* is unwrapped (its cells written as ordinary blocks): `role=presentation`
//!    or `none` (unless every row is a `th` and its `td`: a key-value table); one column; one row of several cells; or a cell holding a heading, or a big
//!    block of content (at least [`BIG_CELL_PX`] tall holding more than one block), which is
//!    how pages placed boxes before CSS layout.
//! 3. a table whose cells hold block content (lists, more than [`MAX_CELL_PARAS`] paragraphs,
//!    code, a nested table)
//!    is written as HTML with minimal tags (`table`, `tr`, `th`, `td` with their spans, `p`,
//!    lists, `a href`, `img src alt`, emphasis, code; no class or style): never one cell per
//!    paragraph.
//! 4. otherwise a GFM table. Its header is the first row when it is in `thead`, all `th`, or
//!    styled as one (every text of the row bold); without one the first row is promoted (GFM
//!    needs a header row). `|` is escaped and line breaks become `<br>`.

use super::{images, math, Block, BlockKind, Kind, Writer};
use crate::snapshot::{NodeId, Tree};

/// The largest `colspan`/`rowspan` honoured (HTML caps colspan at 1000 and rowspan at 65534; a
/// page's typo must not make a million-cell grid).
const MAX_SPAN: usize = 64;
/// A cell at least this tall (CSS px) holding more than one block places a box of content:
/// the table is a layout table.
const BIG_CELL_PX: f64 = 300.0;
/// The most paragraphs a GFM cell holds (as lines joined by `<br>`); more is block content.
const MAX_CELL_PARAS: usize = 2;
/// Font weight from which a row's text counts as bold (a header row styled as one).
const BOLD: u32 = 600;

struct Cell {
    node: NodeId,
    blocks: Vec<Block>,
}

fn span(w: &Writer, id: NodeId, name: &str) -> usize {
    w.tree
        .node(id)
        .attrs
        .get(name)
        .and_then(|v| v.trim().parse::<usize>().ok())
        .unwrap_or(1)
        .clamp(1, MAX_SPAN)
}

/// The rows of a key-value `<table>`: at least two, each a `th` (the key) and a `td` (its
/// value), and nothing else; `None` for any other table.
pub(super) fn key_value_rows(tree: &Tree, id: NodeId) -> Option<Vec<NodeId>> {
    if tree.node(id).tag != "table" {
        return None;
    }
    let elements = |p: NodeId| {
        tree.children[p]
            .iter()
            .copied()
            .filter(|&c| tree.node(c).is_element())
    };
    let mut rows = Vec::new();
    for c in elements(id) {
        match tree.node(c).tag.as_str() {
            "tr" => rows.push(c),
            "thead" | "tbody" | "tfoot" => {
                for r in elements(c) {
                    if tree.node(r).tag != "tr" {
                        return None;
                    }
                    rows.push(r);
                }
            }
            "caption" | "colgroup" => {}
            _ => return None,
        }
    }
    let pair = |r: NodeId| {
        let tags: Vec<&str> = elements(r).map(|c| tree.node(c).tag.as_str()).collect();
        tags == ["th", "td"]
    };
    (rows.len() >= 2 && rows.iter().all(|&r| pair(r))).then_some(rows)
}

/// ARIA roles of a table's cells.
const CELL_ROLES: [&str; 4] = ["cell", "gridcell", "columnheader", "rowheader"];

/// Is this element a table built of `div`s: ARIA's `role="table"`/`"grid"` with `row`s and
/// `cell`s (GitBook's tables), or a CSS grid classed as a table whose cells are its children
/// (Javadoc's `div.summary-table`)?
pub(super) fn is_div_table(tree: &Tree, id: NodeId) -> bool {
    let n = tree.node(id);
    if n.tag == "table" || !n.is_element() {
        return false;
    }
    matches!(n.role.as_deref(), Some("table" | "grid")) || css_grid(tree, id).is_some()
}

/// A table of `div`s the extraction kept part of is kept whole (its cells' text scores low
/// for an extractor, but a table with empty cells says nothing).
pub(super) fn keep_div_tables(tree: &Tree, kept: &mut std::borrow::Cow<[bool]>) {
    let mut i = 1;
    while i < tree.len() {
        let end = tree.subtree_end(i);
        if !is_div_table(tree, i) {
            i += 1;
            continue;
        }
        if (i..end).any(|d| kept[d]) && (i..end).any(|d| !kept[d] && tree.node(d).rendered) {
            for (d, k) in kept.to_mut()[i..end].iter_mut().enumerate() {
                *k |= tree.node(i + d).rendered;
            }
        }
        i = end;
    }
}

/// A CSS grid classed as a table (`summary-table`): its columns (the children on the first
/// child's line, at least two, the children filling whole rows) and its cells in order.
fn css_grid(tree: &Tree, id: NodeId) -> Option<(usize, Vec<NodeId>)> {
    let n = tree.node(id);
    let tabled = n.display == "grid"
        && n.class
            .as_deref()
            .is_some_and(|c| c.split_whitespace().any(|t| t.contains("table")));
    if !tabled {
        return None;
    }
    let kids: Vec<NodeId> = tree.children[id]
        .iter()
        .copied()
        .filter(|&c| tree.node(c).is_element() && tree.node(c).rendered)
        .collect();
    let y = tree.node(*kids.first()?).rect.y;
    let cols = kids
        .iter()
        .take_while(|&&c| (tree.node(c).rect.y - y).abs() < 1.0)
        .count();
    (cols >= 2 && kids.len() % cols == 0 && kids.len() > cols).then_some((cols, kids))
}

/// The cell elements of a row: its kept `td`/`th` (or ARIA cells), and its empty ones, so
/// that an empty corner cell keeps its column (a cell with text the extraction left out, a
/// layout table's sidebar, stays out).
fn row_cells(w: &Writer, r: NodeId) -> Vec<NodeId> {
    w.tree.children[r]
        .iter()
        .copied()
        .filter(|&c| {
            let n = w.tree.node(c);
            n.rendered
                && !w.hide[c]
                && (w.kept[c] || w.tree.chars[c] == 0)
                && (matches!(n.tag.as_str(), "td" | "th")
                    || n.role.as_deref().is_some_and(|r| CELL_ROLES.contains(&r)))
        })
        .collect()
}

/// Is this cell a header cell (`th`, or an ARIA column or row header)?
fn is_header_cell(w: &Writer, c: NodeId) -> bool {
    let n = w.tree.node(c);
    n.tag == "th" || matches!(n.role.as_deref(), Some("columnheader" | "rowheader"))
}

/// Write a table (see the module rules).
pub(super) fn table(w: &Writer, id: NodeId, blocks: &mut Vec<Block>) {
    let tree = w.tree;
    let mut caption = Vec::new();
    // Each row's cells, and whether the row is in the table's head.
    let mut rows: Vec<(Vec<NodeId>, bool)> = Vec::new();
    if let Some((cols, kids)) = css_grid(tree, id) {
        for (i, chunk) in kids.chunks(cols).enumerate() {
            // Javadoc's header cells: `div.table-header`.
            let head = i == 0
                && chunk.iter().all(|&c| {
                    tree.node(c)
                        .class
                        .as_deref()
                        .is_some_and(|k| k.contains("header"))
                });
            rows.push((chunk.to_vec(), head));
        }
    } else if tree.node(id).tag != "table" {
        // ARIA: rows, directly or in row groups.
        for c in w.kids(id) {
            let role = tree.node(c).role.as_deref().unwrap_or("");
            let group: Vec<NodeId> = match role {
                "row" => vec![c],
                "rowgroup" => w
                    .kids(c)
                    .filter(|&r| tree.node(r).role.as_deref() == Some("row"))
                    .collect(),
                _ => continue,
            };
            for r in group {
                let cells = row_cells(w, r);
                let head = !cells.is_empty()
                    && cells
                        .iter()
                        .all(|&k| tree.node(k).role.as_deref() == Some("columnheader"));
                rows.push((cells, head));
            }
        }
    } else {
        for c in w.kids(id) {
            match tree.node(c).tag.as_str() {
                "caption" => caption.extend(w.children_blocks(c)),
                "tr" => rows.push((row_cells(w, c), false)),
                t @ ("thead" | "tbody" | "tfoot") => rows.extend(
                    w.kids(c)
                        .filter(|&r| tree.node(r).tag == "tr")
                        .map(|r| (row_cells(w, r), t == "thead")),
                ),
                _ => {}
            }
        }
    }
    let role = tree.node(id).role.as_deref().unwrap_or("");
    // The cells are written once here to decide the table's form; a layout table is then
    // written again as blocks, so the images these drafts wrote (once per source) are
    // forgotten first.
    let seen = w.seen.borrow().clone();
    let mut cells: Vec<Vec<Cell>> = Vec::new();
    for (r, _) in &rows {
        let row: Vec<Cell> = r
            .iter()
            .map(|&c| Cell {
                node: c,
                blocks: w.children_blocks(c),
            })
            .collect();
        cells.push(row);
    }
    // 1. The grid, spans repeated.
    let nrows = cells.len();
    let mut grid: Vec<Vec<Option<(usize, usize)>>> = vec![Vec::new(); nrows];
    for (r, row) in cells.iter().enumerate() {
        let mut col = 0;
        for (k, cell) in row.iter().enumerate() {
            while grid[r].get(col).is_some_and(Option::is_some) {
                col += 1;
            }
            let (cs, rs) = (span(w, cell.node, "colspan"), span(w, cell.node, "rowspan"));
            for gr in grid.iter_mut().skip(r).take(rs) {
                if gr.len() < col + cs {
                    gr.resize(col + cs, None);
                }
                for slot in &mut gr[col..col + cs] {
                    *slot = Some((r, k));
                }
            }
            col += cs;
        }
    }
    // A column of empty cells only (a spacer beside a layout table's content) is no column;
    // an empty corner cell above a column of row labels keeps its column.
    let width = grid.iter().map(Vec::len).max().unwrap_or(0);
    let empty_col: Vec<bool> = (0..width)
        .map(|col| {
            grid.iter().all(|row| {
                row.get(col)
                    .copied()
                    .flatten()
                    .is_none_or(|(r, k)| cells[r][k].blocks.is_empty())
            })
        })
        .collect();
    if empty_col.iter().any(|&e| e) {
        for row in &mut grid {
            let mut col = 0;
            row.retain(|_| {
                col += 1;
                !empty_col[col - 1]
            });
        }
    }
    let ncols = grid.iter().map(Vec::len).max().unwrap_or(0);
    // 2. Layout tables: unwrapped.
    let all: Vec<&Cell> = cells.iter().flatten().collect();
    let holds_heading = |c: &Cell| {
        w.tree
            .subtree(c.node)
            .any(|i| w.kept[i] && w.tree.node(i).heading_level().is_some())
    };
    let big = |c: &Cell| tree.node(c.node).rect.h >= BIG_CELL_PX && c.blocks.len() > 1;
    // A key-value table is data whatever its role says (Amazon marks its specification
    // tables `role="presentation"`).
    let layout = (matches!(role, "presentation" | "none") && key_value_rows(tree, id).is_none())
        || ncols <= 1
        || nrows == 1
        || all.iter().any(|c| holds_heading(c) || big(c));
    if layout {
        blocks.extend(caption);
        *w.seen.borrow_mut() = seen;
        w.container(w.kids(id), blocks);
        return;
    }
    blocks.extend(caption);
    if all.is_empty() {
        return;
    }
    // 3. Block content: HTML.
    // (Two paragraphs are one cell's lines: Javadoc's "Deprecated." above its note.)
    let blocky = all.iter().any(|c| {
        c.blocks.len() > MAX_CELL_PARAS || c.blocks.iter().any(|b| b.kind != BlockKind::Para)
    });
    if blocky {
        let mut out = String::from("<table>\n");
        for row in &cells {
            out.push_str("<tr>");
            for c in row {
                let tag = if is_header_cell(w, c.node) {
                    "th"
                } else {
                    "td"
                };
                out.push('<');
                out.push_str(tag);
                for a in ["colspan", "rowspan"] {
                    if span(w, c.node, a) > 1 {
                        out.push_str(&format!(" {a}=\"{}\"", span(w, c.node, a)));
                    }
                }
                out.push('>');
                inner_html(w, c.node, &mut out, 0);
                out.push_str(&format!("</{tag}>"));
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</table>");
        blocks.push(Block {
            kind: BlockKind::Other,
            text: out,
        });
        return;
    }
    // 4. GFM.
    let text = |c: &Cell| {
        c.blocks
            .iter()
            .map(|b| b.text.replace("\\\n", "<br>").replace('\n', "<br>"))
            .collect::<Vec<_>>()
            .join("<br>")
            .replace('|', "\\|")
    };
    let texts: Vec<Vec<String>> = cells.iter().map(|r| r.iter().map(text).collect()).collect();
    let line = |r: usize, header: bool| {
        let mut s = String::from("|");
        for col in 0..ncols {
            let t = grid[r]
                .get(col)
                .copied()
                .flatten()
                .map_or("", |(rr, k)| texts[rr][k].as_str());
            let t = if header { unbold(t) } else { t };
            s.push(' ');
            s.push_str(t);
            s.push_str(" |");
        }
        s
    };
    // Rows above the header made of one data cell across the whole table (an infobox's
    // image and caption) are no row of it: written above it, as the reader sees them. (A
    // header cell across it, a title, stays the header: each column names it.)
    let spanning = |r: usize| {
        grid[r].len() == ncols
            && !cells[r].is_empty()
            && !is_header_cell(w, cells[r][0].node)
            && grid[r]
                .iter()
                .all(|s| s.is_some_and(|(rr, k)| rr == r && k == 0))
    };
    let mut lead = 0;
    while lead + 2 < nrows && spanning(lead) && !rows[lead].1 {
        lead += 1;
    }
    for row in cells.iter_mut().take(lead) {
        blocks.append(&mut row[0].blocks);
    }
    let keep: Vec<usize> = (lead..nrows)
        .filter(|&r| {
            grid[r]
                .iter()
                .flatten()
                .any(|&(rr, k)| !texts[rr][k].is_empty())
        })
        .collect();
    let Some(&first) = keep.first() else { return };
    let header = header_row(w, &cells[first], rows[first].1);
    let mut lines = vec![line(first, header)];
    lines.push(format!("|{}", " --- |".repeat(ncols)));
    lines.extend(keep[1..].iter().map(|&r| line(r, false)));
    blocks.push(Block {
        kind: BlockKind::Other,
        text: lines.join("\n"),
    });
}

/// Is the row a header: in `thead`, all `th`, or every text in it bold?
fn header_row(w: &Writer, row: &[Cell], in_head: bool) -> bool {
    if in_head || row.iter().all(|c| is_header_cell(w, c.node)) {
        return true;
    }
    let mut any = false;
    for c in row {
        for i in w.tree.subtree(c.node) {
            let n = w.tree.node(i);
            if !w.kept[i] || !n.is_text() || w.tree.own_chars[i] == 0 {
                continue;
            }
            any = true;
            let p = w.tree.parent(i).map_or(400, |p| w.tree.node(p).font_weight);
            if p < BOLD {
                return false;
            }
        }
    }
    any
}

/// A header cell's text without the `**` of a bold cell (the header is bold already).
fn unbold(t: &str) -> &str {
    match t.strip_prefix("**").and_then(|s| s.strip_suffix("**")) {
        Some(s) if !s.is_empty() && !s.contains("**") => s,
        _ => t,
    }
}

/// Escape text for HTML content or a double-quoted attribute (`&`, `<`, `>`, `"`).
fn escape(s: &str) -> std::borrow::Cow<'_, str> {
    html_escape::encode_double_quoted_attribute(s)
}

/// Tags kept in a table written as HTML; other elements are unwrapped.
const HTML_KEEP: [&str; 27] = [
    "p",
    "ul",
    "ol",
    "li",
    "dl",
    "dt",
    "dd",
    "table",
    "thead",
    "tbody",
    "tr",
    "td",
    "th",
    "a",
    "strong",
    "b",
    "em",
    "i",
    "code",
    "pre",
    "br",
    "sup",
    "sub",
    "blockquote",
    "h4",
    "h5",
    "h6",
];

/// The kept content of a cell as HTML with minimal tags (see [`HTML_KEEP`]); past a depth of
/// 32 elements, text only.
fn inner_html(w: &Writer, id: NodeId, out: &mut String, depth: usize) {
    for c in w.kids(id) {
        let n = w.tree.node(c);
        if let Some(t) = &n.text {
            let t = if out.ends_with(['>', ' ']) || out.is_empty() {
                t.trim_start()
            } else {
                t.as_str()
            };
            out.push_str(&escape(t));
            continue;
        }
        if math::is_math(n) {
            if let Some((tex, display)) = math::formula(n) {
                let d = if display { "$$" } else { "$" };
                out.push_str(&escape(&format!("{d}{tex}{d}")));
            }
            continue;
        }
        if w.kind(c) == Kind::Skip {
            continue;
        }
        let tag = n.tag.as_str();
        if tag == "img" {
            if let Some(src) = n.src.as_deref().filter(|s| !s.starts_with("data:")) {
                if images::content_image(n) {
                    out.push_str(&format!(
                        "<img src=\"{}\" alt=\"{}\">",
                        escape(src),
                        escape(n.alt.as_deref().unwrap_or(""))
                    ));
                }
            }
            continue;
        }
        if depth > 32 || !HTML_KEEP.contains(&tag) {
            if w.tree.is_block(c) && !out.ends_with(['>', ' ']) && !out.is_empty() {
                out.push(' ');
            }
            inner_html(w, c, out, depth + 1);
            continue;
        }
        out.push('<');
        out.push_str(tag);
        if tag == "a" {
            if let Some(h) = &n.href {
                out.push_str(&format!(" href=\"{}\"", escape(h)));
            }
        }
        for a in ["colspan", "rowspan"] {
            if matches!(tag, "td" | "th") && span(w, c, a) > 1 {
                out.push_str(&format!(" {a}=\"{}\"", span(w, c, a)));
            }
        }
        out.push('>');
        if tag == "br" {
            continue;
        }
        inner_html(w, c, out, depth + 1);
        let trimmed = out.trim_end_matches(' ').len();
        out.truncate(trimmed);
        out.push_str(&format!("</{tag}>"));
    }
}

#[cfg(test)]
mod tests {
    use crate::extract::{Algorithm, Extraction};
    use crate::output::markdown::render;
    use crate::snapshot::{rect, NodeId, SnapshotBuilder, Tree};

    fn md(b: &SnapshotBuilder) -> String {
        let snap = b.build();
        let tree = Tree::new(&snap);
        let mut ex = Extraction::empty(Algorithm::Td, tree.len());
        ex.kept = vec![true; tree.len()];
        render(&tree, &ex)
    }

    /// A table of rows of (tag, text, colspan, rowspan) cells.
    fn table(b: &mut SnapshotBuilder, rows: &[&[(&str, &str, u32, u32)]]) -> Vec<NodeId> {
        let t = b.el(0, "table", rect(0.0, 0.0, 600.0, 100.0));
        let mut cells = Vec::new();
        for row in rows {
            let tr = b.el(t, "tr", rect(0.0, 0.0, 600.0, 20.0));
            for &(tag, text, cs, rs) in row.iter() {
                let c = b.el(tr, tag, rect(0.0, 0.0, 150.0, 20.0));
                if cs > 1 {
                    b.node_mut(c).attrs.insert("colspan".into(), cs.to_string());
                }
                if rs > 1 {
                    b.node_mut(c).attrs.insert("rowspan".into(), rs.to_string());
                }
                if !text.is_empty() {
                    b.text(c, text);
                }
                cells.push(c);
            }
        }
        cells
    }

    #[test]
    fn spans_repeat_into_the_cells_they_cover() {
        let mut b = SnapshotBuilder::new(800.0);
        table(
            &mut b,
            &[
                &[("th", "A", 1, 1), ("th", "B", 1, 1), ("th", "C", 1, 1)],
                &[("td", "wide", 2, 1), ("td", "tall", 1, 2)],
                &[("td", "x", 1, 1), ("td", "y|z", 1, 1)],
            ],
        );
        assert_eq!(
            md(&b),
            "| A | B | C |\n| --- | --- | --- |\n| wide | wide | tall |\n| x | y\\|z | tall |\n"
        );
    }

    #[test]
    fn an_infobox_image_row_across_the_table_is_written_above_it() {
        let mut b = SnapshotBuilder::new(800.0);
        table(
            &mut b,
            &[
                &[("td", "The mill from the harbour side", 2, 1)],
                &[("th", "Location", 1, 1), ("td", "Brenner", 1, 1)],
                &[("th", "Built", 1, 1), ("td", "1788", 1, 1)],
            ],
        );
        assert_eq!(
            md(&b),
            "The mill from the harbour side\n\n| Location | Brenner |\n| --- | --- |\n\
             | Built | 1788 |\n"
        );
        // A title in a header cell across the table stays its header.
        let mut b = SnapshotBuilder::new(800.0);
        table(
            &mut b,
            &[
                &[("th", "City Library", 2, 1)],
                &[("th", "Opened", 1, 1), ("td", "1904", 1, 1)],
                &[("th", "Books", 1, 1), ("td", "1.2 million", 1, 1)],
            ],
        );
        assert_eq!(
            md(&b),
            "| City Library | City Library |\n| --- | --- |\n| Opened | 1904 |\n\
             | Books | 1.2 million |\n"
        );
        // A row across a two-row table stays: nothing would be left to tabulate.
        let mut b = SnapshotBuilder::new(800.0);
        table(
            &mut b,
            &[
                &[("td", "Totals", 2, 1)],
                &[("td", "a", 1, 1), ("td", "1", 1, 1)],
            ],
        );
        assert_eq!(md(&b), "| Totals | Totals |\n| --- | --- |\n| a | 1 |\n");
    }

    #[test]
    fn a_bold_first_row_is_the_header() {
        // Nodes in document order: the bold row built by hand.
        let mut b = SnapshotBuilder::new(800.0);
        let t = b.el(0, "table", rect(0.0, 0.0, 600.0, 100.0));
        let tr = b.el(t, "tr", rect(0.0, 0.0, 600.0, 20.0));
        for h in ["Name", "Size"] {
            let c = b.el(tr, "td", rect(0.0, 0.0, 150.0, 20.0));
            let s = b.el(c, "strong", rect(0.0, 0.0, 50.0, 20.0));
            b.node_mut(s).font_weight = 700;
            b.text(s, h);
        }
        let tr = b.el(t, "tr", rect(0.0, 20.0, 600.0, 20.0));
        for v in ["1", "2"] {
            let c = b.el(tr, "td", rect(0.0, 20.0, 150.0, 20.0));
            b.text(c, v);
        }
        assert_eq!(md(&b), "| Name | Size |\n| --- | --- |\n| 1 | 2 |\n");
    }

    #[test]
    fn block_cells_give_html_and_layout_tables_their_content() {
        let mut b = SnapshotBuilder::new(800.0);
        let cells = table(
            &mut b,
            &[
                &[("th", "Plan", 1, 1), ("th", "Has", 1, 1)],
                &[("td", "Basic", 1, 1), ("td", "", 1, 1)],
            ],
        );
        let ul = b.el(cells[3], "ul", rect(0.0, 0.0, 100.0, 40.0));
        b.node_mut(ul).class = Some("list".into());
        for t in ["one & two", "three"] {
            let li = b.el(ul, "li", rect(0.0, 0.0, 100.0, 20.0));
            b.node_mut(li).display = "list-item".into();
            b.text(li, t);
        }
        assert_eq!(
            md(&b),
            "<table>\n<tr><th>Plan</th><th>Has</th></tr>\n\
             <tr><td>Basic</td><td><ul><li>one &amp; two</li><li>three</li></ul></td></tr>\n</table>\n"
        );
        // One column, or one row of boxes: a layout table, written as its content.
        let mut b = SnapshotBuilder::new(800.0);
        table(
            &mut b,
            &[&[("td", "Only", 1, 1)], &[("td", "column", 1, 1)]],
        );
        assert_eq!(md(&b), "Only\n\ncolumn\n");
        let mut b = SnapshotBuilder::new(800.0);
        table(
            &mut b,
            &[&[("td", "Main text", 1, 1), ("td", "Sidebar", 1, 1)]],
        );
        assert_eq!(md(&b), "Main text\n\nSidebar\n");
        // An image in a layout table (an e-mail's image card) is written once, not lost to
        // the draft that decided the table's form.
        let mut b = SnapshotBuilder::new(800.0);
        let cells = table(
            &mut b,
            &[&[("td", "", 1, 1)], &[("td", "A caption.", 1, 1)]],
        );
        let img = b.el(cells[0], "img", rect(0.0, 0.0, 560.0, 300.0));
        b.node_mut(img).display = "inline".into();
        b.node_mut(img).src = Some("https://example.org/seedlings.jpg".into());
        b.node_mut(img).alt = Some("Seedlings".into());
        assert_eq!(
            md(&b),
            "![Seedlings](https://example.org/seedlings.jpg)\n\nA caption.\n"
        );
    }
}
