//! Ratcliff/Obershelp similarity, exactly as Python's `difflib.SequenceMatcher(None, a, b,
//! autojunk=False)`: the measure Griazev & Ramanauskaitė use for block variations
//! (Algorithm 3). Checked against Python on 12 pairs (`tests/blocks_difflib.rs`).

use std::collections::HashMap;
use std::hash::Hash;

/// A matching block `(i, j, size)`: `a[i..i + size] == b[j..j + size]` (difflib's `Match`).
pub type Match = (usize, usize, usize);

/// A sequence of small integer symbols with difflib's `b2j` index (the ascending positions
/// of each symbol) and its symbol histogram, built once and compared many times.
pub(super) struct Indexed {
    pub(super) seq: Vec<u32>,
    b2j: Vec<Vec<usize>>,
    hist: Vec<u32>,
}

impl Indexed {
    pub(super) fn new(seq: Vec<u32>) -> Indexed {
        let alphabet = seq.iter().map(|&x| x as usize + 1).max().unwrap_or(0);
        let mut b2j = vec![Vec::new(); alphabet];
        let mut hist = vec![0; alphabet];
        for (j, &y) in seq.iter().enumerate() {
            b2j[y as usize].push(j);
            hist[y as usize] += 1;
        }
        Indexed { seq, b2j, hist }
    }
}

/// Map the elements of two sequences to small integers (equal elements, equal integers).
fn intern<'t, T: Eq + Hash>(a: &'t [T], b: &'t [T]) -> (Vec<u32>, Vec<u32>) {
    let mut ids: HashMap<&'t T, u32> = HashMap::new();
    let mut map = |s: &'t [T]| -> Vec<u32> {
        s.iter()
            .map(|x| {
                let next = ids.len() as u32;
                *ids.entry(x).or_insert(next)
            })
            .collect()
    };
    let ia = map(a);
    let ib = map(b);
    (ia, ib)
}

/// Reusable rows for [`find_longest_match`], all zero between calls.
#[derive(Default)]
pub(super) struct Scratch {
    j2len: Vec<usize>,
    new: Vec<usize>,
    touched: Vec<usize>,
    new_touched: Vec<usize>,
}

impl Scratch {
    /// Make the rows long enough for a `b` of this length.
    pub(super) fn fit(&mut self, len: usize) {
        if self.j2len.len() < len {
            self.j2len.resize(len, 0);
            self.new.resize(len, 0);
        }
    }
}

/// difflib's `find_longest_match(alo, ahi, blo, bhi)` with no junk: the longest block of `a`
/// and `b` inside the ranges, the one starting earliest in `a`, and of those the one starting
/// earliest in `b`. `b2j` maps each symbol of `b` to its ascending positions.
fn find_longest_match(
    a: &[u32],
    b2j: &[Vec<usize>],
    (alo, ahi, blo, bhi): (usize, usize, usize, usize),
    scratch: &mut Scratch,
) -> Match {
    let (mut besti, mut bestj, mut bestsize) = (alo, blo, 0);
    // j2len[j]: length of the longest match ending with a[i - 1] and b[j] (difflib's dict,
    // here two dense rows reset through the list of entries each row touched).
    let Scratch {
        j2len,
        new,
        touched,
        new_touched,
    } = scratch;
    for (i, &x) in a.iter().enumerate().take(ahi).skip(alo) {
        if let Some(js) = b2j.get(x as usize) {
            for &j in js {
                if j < blo {
                    continue;
                }
                if j >= bhi {
                    break;
                }
                let k = if j > 0 { j2len[j - 1] } else { 0 } + 1;
                new[j] = k;
                new_touched.push(j);
                if k > bestsize {
                    besti = i + 1 - k;
                    bestj = j + 1 - k;
                    bestsize = k;
                }
            }
        }
        for &j in touched.iter() {
            j2len[j] = 0;
        }
        touched.clear();
        std::mem::swap(j2len, new);
        std::mem::swap(touched, new_touched);
    }
    for &j in touched.iter() {
        j2len[j] = 0;
    }
    touched.clear();
    // With no junk and autojunk off, difflib's four extension loops never extend a match
    // (the dynamic programme above already found it maximal), so they are omitted.
    (besti, bestj, bestsize)
}

/// The matching blocks of `a` against an indexed `b`, sorted, adjacent blocks merged.
fn matching_blocks_indexed(a: &[u32], b: &Indexed, scratch: &mut Scratch) -> Vec<Match> {
    scratch.fit(b.seq.len());
    // difflib uses an explicit queue (a stack); the set of blocks does not depend on the
    // order, and they are sorted afterwards.
    let mut queue = vec![(0, a.len(), 0, b.seq.len())];
    let mut blocks = Vec::new();
    while let Some((alo, ahi, blo, bhi)) = queue.pop() {
        let (i, j, k) = find_longest_match(a, &b.b2j, (alo, ahi, blo, bhi), scratch);
        if k > 0 {
            blocks.push((i, j, k));
            if alo < i && blo < j {
                queue.push((alo, i, blo, j));
            }
            if i + k < ahi && j + k < bhi {
                queue.push((i + k, ahi, j + k, bhi));
            }
        }
    }
    blocks.sort_unstable();
    let mut merged: Vec<Match> = Vec::with_capacity(blocks.len());
    for (i, j, k) in blocks {
        match merged.last_mut() {
            Some(last) if last.0 + last.2 == i && last.1 + last.2 == j => last.2 += k,
            _ => merged.push((i, j, k)),
        }
    }
    merged
}

/// difflib's `get_matching_blocks()` without the final `(len a, len b, 0)` sentinel: the
/// matching blocks of the recursive longest-match split, sorted, adjacent blocks merged.
pub fn matching_blocks<T: Eq + Hash>(a: &[T], b: &[T]) -> Vec<Match> {
    let (ia, ib) = intern(a, b);
    matching_blocks_indexed(&ia, &Indexed::new(ib), &mut Scratch::default())
}

/// [`ratio`] of an indexed pair.
pub(super) fn ratio_indexed(a: &Indexed, b: &Indexed, scratch: &mut Scratch) -> f64 {
    let m = matching_blocks_indexed(&a.seq, b, scratch)
        .iter()
        .map(|m| m.2)
        .sum();
    calculate_ratio(m, a.seq.len() + b.seq.len())
}

/// [`quick_ratio`] of an indexed pair, from the two histograms.
pub(super) fn quick_ratio_indexed(a: &Indexed, b: &Indexed) -> f64 {
    let m: u32 = a.hist.iter().zip(&b.hist).map(|(x, y)| *x.min(y)).sum();
    calculate_ratio(m as usize, a.seq.len() + b.seq.len())
}

/// 2·M/T as difflib's `_calculate_ratio`: 1.0 when both sequences are empty.
fn calculate_ratio(matches: usize, length: usize) -> f64 {
    if length == 0 {
        1.0
    } else {
        2.0 * matches as f64 / length as f64
    }
}

/// difflib's `SequenceMatcher(None, a, b, autojunk=False).ratio()`: 2·M/T where M is the
/// number of matched elements and T the total length of both sequences.
pub fn ratio<T: Eq + Hash>(a: &[T], b: &[T]) -> f64 {
    let (ia, ib) = intern(a, b);
    ratio_indexed(
        &Indexed::new(ia),
        &Indexed::new(ib),
        &mut Scratch::default(),
    )
}

/// difflib's `quick_ratio()`: an upper bound on [`ratio`] from the multiset intersection.
pub fn quick_ratio<T: Eq + Hash>(a: &[T], b: &[T]) -> f64 {
    let mut avail: HashMap<&T, i64> = HashMap::new();
    for y in b {
        *avail.entry(y).or_default() += 1;
    }
    let mut m = 0;
    for x in a {
        if let Some(n) = avail.get_mut(x) {
            if *n > 0 {
                m += 1;
            }
            *n -= 1;
        }
    }
    calculate_ratio(m, a.len() + b.len())
}

/// difflib's `real_quick_ratio()`: an upper bound on [`ratio`] from the lengths alone.
pub fn real_quick_ratio<T>(a: &[T], b: &[T]) -> f64 {
    calculate_ratio(a.len().min(b.len()), a.len() + b.len())
}
