//! Content blocks with extended properties: Griazev & Ramanauskaitė (2023), "Web Page Content
//! Block Identification with Extended Block Properties", Appl. Sci. 13(9) 5680.
//!
//! The page is segmented top-down from `<body>` (Algorithm 1). Each block has a range: a
//! maximum boundary (the element the descent starts from) and a minimum boundary found by
//! `boundaryEstimation` (Algorithm 2), which walks down through first children while a child's
//! clean text stays within normalized Hamming distance 0.1 of its parent's, with the
//! empty-parent rule and the image-count check of §3.3. The non-empty element children of the
//! minimum boundary are the child blocks. Sibling blocks whose tag structures have a
//! Ratcliff/Obershelp similarity (Python difflib's `SequenceMatcher.ratio`, autojunk off) above
//! 0.92 are variants (Algorithm 3), grouped into variation groups.
//!
//! Reading of Algorithm 2 (its pseudocode never updates `parentBlock` and assigns the first
//! child to `minBoundary` even on the failing iteration; taken literally it returns a child of
//! the wrong block): the comparison is between the current tag and its first child (§3.3: "Any
//! comparison of parent and child tags that produces a value below 0.1 means that we still
//! haven't found the minimum boundary. As soon as we get a comparison value of 0.1 or above we
//! know that the minimum boundary was reached during the previous iteration"), and "number of
//! children" counts the current tag's children, as in the pseudocode's
//! `getChildren with block` before `set block to first children`.
//!
//! The paper defines no main content; `kept` follows the rule documented in
//! [`BlocksParams::main_share`], [`BlocksParams::own_text_share`],
//! [`BlocksParams::headline_tags`] and [`BlocksParams::link_dominated`]: a majority descent
//! over the block tree, plus the variation group and a preceding `<h1>` block, minus
//! link-dominated child blocks.

use std::collections::HashMap;

mod difflib;
#[cfg(test)]
mod tests;

pub use difflib::{matching_blocks, quick_ratio, ratio, real_quick_ratio, Match};
use difflib::{quick_ratio_indexed, ratio_indexed, Indexed, Scratch};

use super::details::{Bbox, BlockReport, BlocksDetails, GroupReport};
use super::params::BlocksParams;
use super::{Algorithm, Details, Extraction};
use crate::snapshot::{collapse_ws, NodeId, Tree};

// ---------------------------------------------------------------------------------------------
// Content of a node: clean text, images, children (§3.3).
// ---------------------------------------------------------------------------------------------

/// Normalized Hamming distance (§3.3, ref. 34) between two strings, in Unicode scalar values:
/// positions of the longer string that are missing from the shorter count as mismatches,
/// d = (mismatches + |len_a − len_b|) / max(len_a, len_b); 0 for two empty strings.
pub fn hamming_distance(a: &str, b: &str) -> f64 {
    let (la, lb) = (a.chars().count(), b.chars().count());
    let n = la.max(lb);
    if n == 0 {
        return 0.0;
    }
    let mismatches = a.chars().zip(b.chars()).filter(|(x, y)| x != y).count() + la.abs_diff(lb);
    mismatches as f64 / n as f64
}

/// Per-node content facts the algorithm reads, computed once.
struct Content<'t, 'a> {
    tree: &'t Tree<'a>,
    p: &'t BlocksParams,
    /// Visible characters of the subtree (rendered text nodes, trimmed).
    chars: Vec<usize>,
    /// Visible characters inside links.
    link_chars: Vec<usize>,
    /// Rendered image elements in the subtree, itself included (`getImageCount`).
    images: Vec<usize>,
}

impl<'t, 'a> Content<'t, 'a> {
    fn new(tree: &'t Tree<'a>, p: &'t BlocksParams) -> Self {
        let n = tree.len();
        let mut chars = vec![0; n];
        let mut link_chars = vec![0; n];
        let mut images = vec![0; n];
        for i in (0..n).rev() {
            let nd = tree.node(i);
            if nd.rendered {
                if nd.is_text() {
                    chars[i] += tree.own_chars[i];
                    if nd.link {
                        link_chars[i] += tree.own_chars[i];
                    }
                } else if Self::is_image_tag(p, &nd.tag) {
                    images[i] += 1;
                }
            }
            if let Some(q) = tree.parent(i) {
                chars[q] += chars[i];
                link_chars[q] += link_chars[i];
                images[q] += images[i];
            }
        }
        Content {
            tree,
            p,
            chars,
            link_chars,
            images,
        }
    }

    fn is_image_tag(p: &BlocksParams, tag: &str) -> bool {
        p.image_tags.iter().any(|t| t == tag)
    }

    /// The clean text of §3.3: the visible text of the subtree with the tags stripped,
    /// whitespace collapsed ("Only the actual data that the user would see").
    fn clean_text(&self, id: NodeId) -> String {
        let mut out = String::new();
        for i in self.tree.subtree(id) {
            let n = self.tree.node(i);
            if n.rendered {
                if let Some(t) = &n.text {
                    out.push_str(t);
                }
            }
        }
        collapse_ws(&out)
    }

    /// `getChildren`: the rendered element children; none for an image element, which is a
    /// leaf of content.
    fn children(&self, id: NodeId) -> Vec<NodeId> {
        if Self::is_image_tag(self.p, &self.tree.node(id).tag) {
            return Vec::new();
        }
        self.tree.children[id]
            .iter()
            .copied()
            .filter(|&c| {
                let n = self.tree.node(c);
                n.is_element() && n.rendered
            })
            .collect()
    }

    /// Algorithm 1 `if analyzed block is not empty`: no visible text and no image.
    fn is_empty(&self, id: NodeId) -> bool {
        self.chars[id] == 0 && self.images[id] == 0
    }

    /// Visible characters outside links.
    fn non_link_chars(&self, id: NodeId) -> usize {
        self.chars[id] - self.link_chars[id]
    }
}

// ---------------------------------------------------------------------------------------------
// Algorithm 2: boundaryEstimation.
// ---------------------------------------------------------------------------------------------

/// The distance of one step of Algorithm 2 between the current tag `parent` (with its
/// `n_children` children) and its first child `child`:
/// - parent clean text empty: 0 if it has at most one child (the empty-parent rule), else 1;
/// - texts equal and more than one child: 0 if both hold the same number of images, else 1;
/// - otherwise the normalized Hamming distance of the two clean texts.
fn step_distance(
    c: &Content,
    parent: NodeId,
    parent_text: &str,
    child: NodeId,
    child_text: &str,
    n_children: usize,
) -> f64 {
    if parent_text.is_empty() {
        if n_children <= 1 {
            0.0
        } else {
            1.0
        }
    } else if parent_text == child_text && n_children > 1 {
        if c.images[parent] == c.images[child] {
            0.0
        } else {
            1.0
        }
    } else {
        hamming_distance(child_text, parent_text)
    }
}

/// Algorithm 2 from the maximum boundary `block`: the range of the block, from its maximum
/// boundary (first) down to its minimum boundary (last). The descent moves to the current
/// tag's first child while the step distance stays below `hamming_threshold`.
fn boundary_range(c: &Content, block: NodeId) -> Vec<NodeId> {
    let mut range = vec![block];
    let mut cur = block;
    let mut cur_text = c.clean_text(cur);
    loop {
        let children = c.children(cur);
        let Some(&first) = children.first() else {
            break;
        };
        let first_text = c.clean_text(first);
        let d = step_distance(c, cur, &cur_text, first, &first_text, children.len());
        if d >= c.p.hamming_threshold {
            break;
        }
        cur = first;
        cur_text = first_text;
        range.push(cur);
    }
    range
}

/// Algorithm 2 on one element: its range from the maximum boundary `block` (first) to the
/// minimum boundary (last).
pub fn boundary_estimation(tree: &Tree, block: NodeId, p: &BlocksParams) -> Vec<NodeId> {
    boundary_range(&Content::new(tree, p), block)
}

// ---------------------------------------------------------------------------------------------
// Algorithm 3: getVariations.
// ---------------------------------------------------------------------------------------------

/// One token of a block's structure: an opening (`false`) or closing (`true`) tag.
pub type Token<'a> = (bool, &'a str);

/// The structure of a block for §3.4: opening and closing tag tokens of its rendered elements
/// in pre-order, image elements atomic, no text or attributes.
fn structure_of<'a>(c: &Content<'_, 'a>, id: NodeId) -> Vec<Token<'a>> {
    let mut out = Vec::new();
    // (node, closing?) stack for an iterative pre-order walk.
    let mut stack = vec![(id, false)];
    while let Some((n, close)) = stack.pop() {
        let tag = c.tree.snap.nodes[n].tag.as_str();
        out.push((close, tag));
        if !close {
            stack.push((n, true));
            for &k in c.children(n).iter().rev() {
                stack.push((k, false));
            }
        }
    }
    out
}

/// The structure of the element `id` as strings (`div`, `/div`), for reports and tests.
pub fn structure(tree: &Tree, id: NodeId, p: &BlocksParams) -> Vec<String> {
    let c = Content::new(tree, p);
    structure_of(&c, id)
        .into_iter()
        .map(|(close, t)| {
            if close {
                format!("/{t}")
            } else {
                t.to_string()
            }
        })
        .collect()
}

/// Union-find root.
fn find(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

/// Algorithm 3 over the maximum boundaries of sibling blocks: for each sibling, the index of
/// its variation class (siblings linked by similarity > `variation_threshold`, closed
/// transitively), or None when it has no variant. Identical structures are compared once;
/// pairs are skipped when difflib's upper bounds already rule them out or they are already
/// linked, which does not change the classes.
fn variation_classes(c: &Content, siblings: &[NodeId]) -> Vec<Option<usize>> {
    let n = siblings.len();
    if n < 2 {
        // "Blocks with a single child block are ignored" (§3.4).
        return vec![None; n];
    }
    // Tokens interned to small integers, so that comparing them is cheap.
    let mut ids: HashMap<Token, u32> = HashMap::new();
    let structures: Vec<Vec<u32>> = siblings
        .iter()
        .map(|&s| {
            structure_of(c, s)
                .into_iter()
                .map(|t| {
                    let next = ids.len() as u32;
                    *ids.entry(t).or_insert(next)
                })
                .collect()
        })
        .collect();
    let mut uf: Vec<usize> = (0..n).collect();
    let mut first_of: HashMap<&[u32], usize> = HashMap::new();
    let mut distinct = Vec::new();
    for (k, s) in structures.iter().enumerate() {
        match first_of.get(s.as_slice()) {
            Some(&f) => {
                let (a, b) = (find(&mut uf, f), find(&mut uf, k));
                uf[b] = a;
            }
            None => {
                first_of.insert(s.as_slice(), k);
                distinct.push(k);
            }
        }
    }
    // Shortest first: for a fixed i, real_quick_ratio = 2·len_i/(len_i + len_j) only falls as
    // len_j grows, so the inner loop stops at the first j it rules out.
    distinct.sort_by_key(|&k| structures[k].len());
    let indexed: Vec<Indexed> = distinct
        .iter()
        .map(|&k| Indexed::new(structures[k].clone()))
        .collect();
    let mut scratch = Scratch::default();
    let thr = c.p.variation_threshold;
    for x in 0..distinct.len() {
        for y in x + 1..distinct.len() {
            let (a, b) = (&indexed[x], &indexed[y]);
            if real_quick_ratio(&a.seq, &b.seq) <= thr {
                break;
            }
            let (ri, rj) = (find(&mut uf, distinct[x]), find(&mut uf, distinct[y]));
            if ri == rj || quick_ratio_indexed(a, b) <= thr {
                continue;
            }
            if ratio_indexed(a, b, &mut scratch) > thr {
                uf[rj] = ri;
            }
        }
    }
    let roots: Vec<usize> = (0..n).map(|k| find(&mut uf, k)).collect();
    let mut size: HashMap<usize, usize> = HashMap::new();
    for &r in &roots {
        *size.entry(r).or_default() += 1;
    }
    roots.iter().map(|&r| (size[&r] > 1).then_some(r)).collect()
}

// ---------------------------------------------------------------------------------------------
// Algorithm 1: segmentation.
// ---------------------------------------------------------------------------------------------

/// One content block.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    /// Maximum boundary: the widest element holding only this block's content.
    pub max: NodeId,
    /// Minimum boundary: the deepest element still holding all of it.
    pub min: NodeId,
    /// The elements from `max` down to `min`, both included (the block's range).
    pub range: Vec<NodeId>,
    /// Parent block (index into [`Segmentation::blocks`]).
    pub parent: Option<usize>,
    /// Child blocks, in document order.
    pub children: Vec<usize>,
    /// Variation group (index into [`Segmentation::groups`]), when the block has variants.
    pub group: Option<usize>,
}

/// The block tree of a page.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Segmentation {
    /// Blocks in pre-order; block 0 is the `<body>` block.
    pub blocks: Vec<Block>,
    /// Variation groups: each lists its member blocks (siblings, at least two).
    pub groups: Vec<Vec<usize>>,
}

/// Algorithm 1 with Algorithms 2 and 3: the block tree of the page.
pub fn segment(tree: &Tree, p: &BlocksParams) -> Segmentation {
    let c = Content::new(tree, p);
    let mut seg = segmentation(&c);
    variations(&c, &mut seg);
    seg
}

/// Algorithm 1 with Algorithm 2: the blocks and their ranges, no variations yet.
fn segmentation(c: &Content) -> Segmentation {
    let mut seg = Segmentation::default();
    if c.tree.is_empty() {
        return seg;
    }
    // Algorithm 1 starts with block = parentBlock = <body>; its recursion, made iterative so a
    // deep DOM cannot overflow the stack. Popping children pushed in reverse gives pre-order.
    let mut stack: Vec<(NodeId, Option<usize>)> = vec![(0, None)];
    while let Some((node, parent)) = stack.pop() {
        if c.is_empty(node) {
            continue;
        }
        let range = boundary_range(c, node);
        let min = *range.last().expect("a range holds its maximum boundary");
        let id = seg.blocks.len();
        seg.blocks.push(Block {
            max: node,
            min,
            range,
            parent,
            children: Vec::new(),
            group: None,
        });
        if let Some(pb) = parent {
            seg.blocks[pb].children.push(id);
        }
        for &k in c.children(min).iter().rev() {
            stack.push((k, Some(id)));
        }
    }
    seg
}

/// Algorithm 3 over each block's children (Algorithm 1 calls getVariations before recursing;
/// the result does not depend on the order). Group ids follow document order.
fn variations(c: &Content, seg: &mut Segmentation) {
    for b in 0..seg.blocks.len() {
        let kids = seg.blocks[b].children.clone();
        let maxes: Vec<NodeId> = kids.iter().map(|&k| seg.blocks[k].max).collect();
        let classes = variation_classes(c, &maxes);
        let mut class_group: HashMap<usize, usize> = HashMap::new();
        for (k, class) in kids.iter().zip(classes) {
            if let Some(cl) = class {
                let g = *class_group.entry(cl).or_insert_with(|| {
                    seg.groups.push(Vec::new());
                    seg.groups.len() - 1
                });
                seg.groups[g].push(*k);
                seg.blocks[*k].group = Some(g);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Main content (not in the paper; see BlocksParams::main_share).
// ---------------------------------------------------------------------------------------------

/// Visible non-link characters of a block (of its maximum boundary's subtree).
fn block_text(c: &Content, seg: &Segmentation, b: usize) -> usize {
    c.non_link_chars(seg.blocks[b].max)
}

/// Does the block hold most of its non-link text itself, outside its child blocks?
fn is_text_unit(c: &Content, seg: &Segmentation, b: usize) -> bool {
    let all = block_text(c, seg, b);
    let in_children: usize = seg.blocks[b]
        .children
        .iter()
        .map(|&k| block_text(c, seg, k))
        .sum();
    all > 0 && (all - in_children) as f64 > c.p.own_text_share * all as f64
}

/// The main-content blocks: the majority descent's block and its variation group.
fn main_blocks(c: &Content, seg: &Segmentation) -> Vec<usize> {
    if seg.blocks.is_empty() {
        return Vec::new();
    }
    let mut cur = 0;
    loop {
        let here = block_text(c, seg, cur) as f64;
        let best = seg.blocks[cur]
            .children
            .iter()
            .copied()
            .max_by_key(|&k| (block_text(c, seg, k), std::cmp::Reverse(k)));
        match best {
            Some(k)
                if block_text(c, seg, k) as f64 > c.p.main_share * here
                    && !is_text_unit(c, seg, k) =>
            {
                cur = k
            }
            _ => break,
        }
    }
    match seg.blocks[cur].group {
        Some(g) => seg.groups[g].clone(),
        None => vec![cur],
    }
}

/// Is this block's visible text mostly link text?
fn link_dominated(c: &Content, node: NodeId) -> bool {
    let chars = c.chars[node];
    chars > 0 && c.link_chars[node] as f64 > c.p.link_dominated * chars as f64
}

/// The headline blocks: sibling blocks before the main blocks (under the same parent block)
/// that hold a rendered headline element ([`BlocksParams::headline_tags`]) and are not
/// link-dominated.
fn headline_blocks(c: &Content, seg: &Segmentation, main: &[usize]) -> Vec<usize> {
    let Some(&first) = main.first() else {
        return Vec::new();
    };
    let Some(parent) = seg.blocks[first].parent else {
        return Vec::new();
    };
    let tree = c.tree;
    let has_headline = |node: NodeId| {
        tree.subtree(node).any(|i| {
            let n = tree.node(i);
            n.rendered && c.p.headline_tags.contains(&n.tag)
        })
    };
    seg.blocks[parent]
        .children
        .iter()
        .copied()
        .take_while(|&k| k != first)
        .filter(|&k| {
            !main.contains(&k)
                && has_headline(seg.blocks[k].max)
                && !link_dominated(c, seg.blocks[k].max)
        })
        .collect()
}

/// `kept`: the rendered nodes of the main blocks' maximum-boundary subtrees, minus their
/// link-dominated direct child blocks. Returns the kept flags and the dropped blocks.
fn mark(c: &Content, seg: &Segmentation, main: &[usize]) -> (Vec<bool>, Vec<usize>) {
    let tree = c.tree;
    let mut kept = vec![false; tree.len()];
    let mut dropped = Vec::new();
    for &b in main {
        for i in tree.subtree(seg.blocks[b].max) {
            kept[i] = tree.node(i).rendered;
        }
        for &k in &seg.blocks[b].children {
            if link_dominated(c, seg.blocks[k].max) {
                dropped.push(k);
                for i in tree.subtree(seg.blocks[k].max) {
                    kept[i] = false;
                }
            }
        }
    }
    (kept, dropped)
}

// ---------------------------------------------------------------------------------------------
// Entry point and report.
// ---------------------------------------------------------------------------------------------

fn bbox(tree: &Tree, id: NodeId) -> Bbox {
    let r = tree.node(id).rect;
    [r.x, r.y, r.w, r.h]
}

/// The block tree as the typed `details`.
fn report(
    c: &Content,
    seg: &Segmentation,
    main: &[usize],
    headlines: &[usize],
    dropped: &[usize],
) -> BlocksDetails {
    let tree = c.tree;
    let blocks = seg
        .blocks
        .iter()
        .enumerate()
        .map(|(i, b)| BlockReport {
            id: i,
            max: tree.css_path(b.max),
            min: tree.css_path(b.min),
            max_node: b.max,
            min_node: b.min,
            range: b.range.iter().map(|&n| tree.css_path(n)).collect(),
            bbox: bbox(tree, b.max),
            min_box: bbox(tree, b.min),
            parent: b.parent,
            children: b.children.clone(),
            variation_group: b.group,
            chars: c.chars[b.max],
            link_chars: c.link_chars[b.max],
            images: c.images[b.max],
        })
        .collect();
    let groups = seg
        .groups
        .iter()
        .enumerate()
        .map(|(g, members)| GroupReport {
            id: g,
            parent: seg.blocks[members[0]].parent,
            blocks: members.clone(),
        })
        .collect();
    BlocksDetails {
        blocks,
        groups,
        main_blocks: main.to_vec(),
        headline_blocks: headlines.to_vec(),
        dropped_blocks: dropped.to_vec(),
    }
}

/// Content blocks (Griazev & Ramanauskaitė 2023). Phases:
/// 1. content facts: visible clean text, link text and image counts per node;
/// 2. segmentation (Algorithm 1) from `<body>`, each block's range by boundaryEstimation
///    (Algorithm 2), skipping empty elements;
/// 3. variations (Algorithm 3) among each block's children;
/// 4. main content: majority descent over the block tree, stopping above text units, plus
///    the variation group ([`BlocksParams::main_share`], [`BlocksParams::own_text_share`]);
/// 5. headline: preceding sibling blocks holding an `<h1>` ([`BlocksParams::headline_tags`]);
/// 6. marking: the main and headline blocks' subtrees minus link-dominated child blocks
///    ([`BlocksParams::link_dominated`]);
/// 7. report: the block tree in `details`.
pub fn extract(tree: &Tree, p: &BlocksParams) -> Extraction {
    let c = Content::new(tree, p);
    let mut seg = segmentation(&c);
    variations(&c, &mut seg);
    let main = main_blocks(&c, &seg);
    let headlines = headline_blocks(&c, &seg, &main);
    let marked: Vec<usize> = headlines.iter().chain(&main).copied().collect();
    let (kept, dropped) = mark(&c, &seg, &marked);
    let details = report(&c, &seg, &main, &headlines, &dropped);
    Extraction {
        algorithm: Algorithm::Blocks,
        kept,
        threshold: Some(p.main_share),
        scores: None,
        details: Details::Blocks(details),
    }
}
