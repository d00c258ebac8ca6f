//! Repetition features: whether a unit sits in a repeated record (the items of a listing, the
//! posts of a forum, the cards of a collection: siblings with the same tag and class), the
//! share of the page's text in its group of records and in records at all, and the records'
//! layout (cards in a row of a grid, the page's largest group, its width).

use std::collections::HashMap;

use super::super::units::Unit;
use super::flag;
use crate::snapshot::{NodeId, Tree};

/// How many siblings of the same signature make a record.
const MIN_RECORDS: usize = 3;

/// The repeated records of a page, found once; [`Records::push`] writes a unit's features.
pub(super) struct Records<'a> {
    tree: &'a Tree<'a>,
    units: &'a [Unit],
    page_chars: f64,
    vw: f64,
    /// Per unit: the most siblings of the same signature at any of [`levels`], that level
    /// (-1: none has more than one), and the same count for the block's parent.
    rep: Vec<(usize, f64, usize)>,
    /// Characters of the page's text in records.
    record_chars: f64,
    /// Characters in records per group ([`Records::group_key`]).
    group_chars: HashMap<(NodeId, usize), f64>,
    /// The largest of `group_chars` (0 without records).
    largest_group: f64,
    /// [`Records::grid_cols`] per record root.
    row_cache: HashMap<NodeId, usize>,
}

/// The levels a record is looked for at: the unit's block and its three ancestors.
fn levels(u: &Unit) -> [NodeId; 4] {
    [u.block, u.ancestors[0], u.ancestors[1], u.ancestors[2]]
}

/// A signature of one element for the repeated-record test: its tag and class.
fn signature<'a>(tree: &Tree<'a>, i: NodeId) -> (&'a str, &'a str) {
    let nd = tree.node(i);
    (nd.tag.as_str(), nd.class.as_deref().unwrap_or(""))
}

impl<'a> Records<'a> {
    /// `chars`: the units' character counts; `page_chars` their characters in all (at least
    /// 1), `vw` the viewport's width (at least 1).
    pub(super) fn new(
        tree: &'a Tree<'a>,
        units: &'a [Unit],
        chars: &[usize],
        page_chars: f64,
        vw: f64,
    ) -> Records<'a> {
        // Repetition: for the block and its three ancestors, how many siblings share its tag
        // and class. Counted once per parent.
        let mut same_cache: HashMap<NodeId, usize> = HashMap::new();
        let mut same = |i: NodeId| -> usize {
            if let Some(&c) = same_cache.get(&i) {
                return c;
            }
            let c = match tree.parent(i) {
                None => 1,
                Some(p) => {
                    let s = signature(tree, i);
                    tree.children[p]
                        .iter()
                        .filter(|&&c| tree.node(c).is_element() && signature(tree, c) == s)
                        .count()
                }
            };
            same_cache.insert(i, c);
            c
        };
        let mut rep = Vec::with_capacity(units.len());
        for u in units {
            let (mut best, mut level) = (1usize, -1.0);
            for (l, &a) in levels(u).iter().enumerate() {
                if a == 0 {
                    break;
                }
                let c = same(a);
                // A record has siblings; a paragraph among paragraphs is not one, so the block
                // level counts only for non-paragraph tags.
                if l == 0 && matches!(tree.node(a).tag.as_str(), "p" | "br") {
                    continue;
                }
                if c > best {
                    best = c;
                    level = l as f64;
                }
            }
            // The same tag path (tags only) among the grandparent's descendants' parents.
            let p = u.ancestors[0];
            let pp = same(p);
            rep.push((best, level, pp));
        }
        let record_chars: f64 = rep
            .iter()
            .zip(chars)
            .filter(|(r, _)| r.0 >= MIN_RECORDS)
            .map(|(_, &c)| c as f64)
            .sum();
        let mut records = Records {
            tree,
            units,
            page_chars,
            vw,
            rep,
            record_chars,
            group_chars: HashMap::new(),
            largest_group: 0.0,
            row_cache: HashMap::new(),
        };
        // Per record root: share of the page's text in records with the same parent.
        for (k, &c) in chars.iter().enumerate() {
            if records.rep[k].0 >= MIN_RECORDS {
                let key = records.group_key(k);
                *records.group_chars.entry(key).or_default() += c as f64;
            }
        }
        records.largest_group = records.group_chars.values().copied().fold(0.0f64, f64::max);
        records
    }

    /// The element unit `k`'s record is: its block's ancestor at the record's level (the block
    /// without one).
    fn record_root(&self, k: usize) -> NodeId {
        let l = self.rep[k].1;
        if l >= 0.0 {
            levels(&self.units[k])[l as usize]
        } else {
            self.units[k].block
        }
    }

    /// The group of unit `k`'s record: the record root's parent and the level.
    fn group_key(&self, k: usize) -> (NodeId, usize) {
        let node = self.record_root(k);
        let l = self.rep[k].1;
        (self.tree.parent(node).unwrap_or(0), l.max(0.0) as usize)
    }

    /// Cards in a grid: the record's siblings of the same signature whose top edge is on the
    /// record's row (within 4 px), itself included. Only the real layout shows this.
    fn grid_cols(&mut self, k: usize) -> usize {
        if self.rep[k].0 < MIN_RECORDS {
            return 1;
        }
        let node = self.record_root(k);
        if let Some(&c) = self.row_cache.get(&node) {
            return c;
        }
        let tree = self.tree;
        let c = match tree.parent(node) {
            None => 1,
            Some(p) => {
                let sig = signature(tree, node);
                let y = tree.node(node).rect.y;
                tree.children[p]
                    .iter()
                    .filter(|&&c| {
                        let n = tree.node(c);
                        n.is_element()
                            && n.rect.w > 0.0
                            && (n.rect.y - y).abs() <= 4.0
                            && signature(tree, c) == sig
                    })
                    .count()
                    .max(1)
            }
        };
        self.row_cache.insert(node, c);
        c
    }

    /// The repetition features of unit `k`, `rep_ln_same` … `group_w_rel`.
    pub(super) fn push(&mut self, k: usize, out: &mut Vec<f64>) {
        let (best, level, pp) = self.rep[k];
        let group = (best >= MIN_RECORDS).then(|| self.group_key(k));
        let group_chars = group.map_or(0.0, |g| self.group_chars.get(&g).copied().unwrap_or(0.0));
        out.push((best as f64).ln());
        out.push(level);
        out.push(flag(group.is_some()));
        out.push(if group.is_some() {
            group_chars / self.page_chars
        } else {
            0.0
        });
        out.push((pp as f64).ln());
        out.push(self.record_chars / self.page_chars);
        out.push((self.grid_cols(k) as f64).ln());
        out.push(flag(
            group.is_some() && self.largest_group > 0.0 && group_chars >= self.largest_group,
        ));
        out.push(group.map_or(0.0, |(parent, _)| {
            (self.tree.node(parent).rect.w / self.vw).clamp(0.0, 2.0)
        }));
    }
}
