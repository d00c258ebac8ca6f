//! Length of the longest common subsequence of two token sequences, bit-parallel.
//!
//! The algorithm is Allison & Dix (1986) in Hyyrö's formulation ("Bit-parallel LCS-length
//! computation revisited", 2004): bit `i` of the row vector `V` is 0 where the LCS row grows
//! at pattern position `i`; each text symbol updates it with one add and one and-not,
//! `V' = (V + (V & M[c])) | (V & !M[c])`, where `M[c]` marks the pattern positions holding
//! symbol `c`. The pattern (the shorter sequence) is split into `u64` blocks and the addition
//! carries from block to block, so a page of `m` and `n` tokens costs `n · ⌈m/64⌉` word
//! operations instead of the `n · m` cells of the dynamic-programming table.
//!
//! Match masks are stored sparsely (per symbol, the blocks where it occurs), so memory is
//! linear in the pattern length whatever the vocabulary.

/// Length of the longest common subsequence of `a` and `b` (the tests' reference entry).
#[cfg(test)]
pub fn lcs_len<T: Eq + std::hash::Hash>(a: &[T], b: &[T]) -> usize {
    // Intern the tokens of both sequences as dense ids.
    let mut ids: std::collections::HashMap<&T, u32> = std::collections::HashMap::new();
    let mut intern = |t| {
        let next = ids.len() as u32;
        *ids.entry(t).or_insert(next)
    };
    let a_ids: Vec<u32> = a.iter().map(&mut intern).collect();
    let b_ids: Vec<u32> = b.iter().map(&mut intern).collect();
    lcs_len_ids(&a_ids, &b_ids)
}

/// Length of the longest common subsequence of two sequences of token ids (ids are dense
/// small integers, e.g. from interning; any `u32` works but memory grows with the largest).
pub fn lcs_len_ids(a: &[u32], b: &[u32]) -> usize {
    // A common prefix and suffix are part of some LCS; strip them (cheap, and outputs that
    // nearly equal the gold are common).
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let (a, b) = (&a[prefix..], &b[prefix..]);
    let suffix = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (a, b) = (&a[..a.len() - suffix], &b[..b.len() - suffix]);
    let common = prefix + suffix;
    if a.is_empty() || b.is_empty() {
        return common;
    }
    // The shorter sequence is the bit pattern.
    let (pattern, text) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    common + bit_parallel(pattern, text)
}

/// Sparse match masks: for each symbol, the (block, bits) pairs where it occurs in the
/// pattern, in block order (compressed-row layout).
struct MatchMasks {
    /// `start[c]..start[c + 1]` indexes `entries` for symbol `c`.
    start: Vec<u32>,
    entries: Vec<(u32, u64)>,
}

impl MatchMasks {
    fn new(pattern: &[u32]) -> MatchMasks {
        let symbols = pattern.iter().map(|&c| c as usize + 1).max().unwrap_or(0);
        // Per symbol, its positions in increasing order.
        let mut count = vec![0u32; symbols + 1];
        for &c in pattern {
            count[c as usize + 1] += 1;
        }
        for i in 1..count.len() {
            count[i] += count[i - 1];
        }
        let mut fill = count.clone();
        let mut positions = vec![0u32; pattern.len()];
        for (i, &c) in pattern.iter().enumerate() {
            positions[fill[c as usize] as usize] = i as u32;
            fill[c as usize] += 1;
        }
        // Collapse positions into (block, bits) entries.
        let mut start = Vec::with_capacity(symbols + 1);
        let mut entries: Vec<(u32, u64)> = Vec::new();
        for c in 0..symbols {
            start.push(entries.len() as u32);
            let first = entries.len();
            for &p in &positions[count[c] as usize..count[c + 1] as usize] {
                let (block, bit) = (p / 64, p % 64);
                let len = entries.len();
                match entries.last_mut() {
                    Some(last) if len > first && last.0 == block => last.1 |= 1 << bit,
                    _ => entries.push((block, 1 << bit)),
                }
            }
        }
        start.push(entries.len() as u32);
        MatchMasks { start, entries }
    }

    /// The entries of symbol `c` (empty if it does not occur in the pattern).
    fn of(&self, c: u32) -> &[(u32, u64)] {
        let c = c as usize;
        if c + 1 >= self.start.len() {
            return &[];
        }
        &self.entries[self.start[c] as usize..self.start[c + 1] as usize]
    }
}

/// Hyyrö's bit-vector LCS over `u64` blocks with the carry passed from block to block.
fn bit_parallel(pattern: &[u32], text: &[u32]) -> usize {
    let masks = MatchMasks::new(pattern);
    let blocks = pattern.len().div_ceil(64);
    // Bits past the pattern's end start at 1 and stay 1: their match bits are 0, so
    // `V & !M` keeps them set whatever the carry does.
    let mut v = vec![u64::MAX; blocks];
    for &c in text {
        let entries = masks.of(c);
        let Some(&(first_block, _)) = entries.first() else {
            continue; // no match anywhere: V' = (V + 0) | V = V
        };
        // Blocks before the symbol's first occurrence have M = 0 and no incoming carry.
        let mut next = entries.iter().peekable();
        let mut carry = false;
        for (k, vk) in v.iter_mut().enumerate().skip(first_block as usize) {
            let m = match next.peek() {
                Some(&&(block, bits)) if block as usize == k => {
                    next.next();
                    bits
                }
                _ => 0,
            };
            if m == 0 && !carry {
                if next.peek().is_none() {
                    break; // nothing left to change in this or later blocks
                }
                continue;
            }
            let u = *vk & m;
            let (sum, c1) = vk.overflowing_add(u);
            let (sum, c2) = sum.overflowing_add(carry as u64);
            carry = c1 || c2;
            *vk = sum | (*vk & !m);
        }
    }
    v.iter().map(|b| b.count_zeros() as usize).sum()
}

/// One longest common subsequence of `a` and `b`, as a flag per position of `a`: is `a[i]`
/// part of it? Used to label page tokens with the gold tokens they align to (training
/// labels). The `V` rows of [`bit_parallel`] are kept for every symbol of `a` (memory
/// `|a| · ⌈|b|/64⌉` words) and traced back from the end: equal symbols always match (an LCS
/// through them exists), otherwise the walk leaves `a[j-1]` unmatched when the LCS of
/// `a[..j-1]` and `b[..i]` is as long, and drops `b[i-1]` when not.
pub fn lcs_alignment(a: &[u32], b: &[u32]) -> Vec<bool> {
    let mut matched = vec![false; a.len()];
    // Common prefix and suffix are part of an LCS.
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    for m in matched.iter_mut().take(prefix) {
        *m = true;
    }
    for m in matched.iter_mut().rev().take(suffix) {
        *m = true;
    }
    let (ma, mb) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
    if ma.is_empty() || mb.is_empty() {
        return matched;
    }
    let masks = MatchMasks::new(mb);
    let blocks = mb.len().div_ceil(64);
    // rows[j]: V after the first j symbols of `ma`; bit i is 0 where L(j, i+1) = L(j, i) + 1.
    let mut rows: Vec<u64> = vec![u64::MAX; blocks * (ma.len() + 1)];
    for (j, &c) in ma.iter().enumerate() {
        let (done, rest) = rows.split_at_mut((j + 1) * blocks);
        let prev = &done[j * blocks..];
        let v = &mut rest[..blocks];
        v.copy_from_slice(prev);
        let mut carry = false;
        let entries = masks.of(c);
        let mut next = entries.iter().peekable();
        let Some(&&(first, _)) = next.peek() else {
            continue;
        };
        for (k, vk) in v.iter_mut().enumerate().skip(first as usize) {
            let m = match next.peek() {
                Some(&&(block, bits)) if block as usize == k => {
                    next.next();
                    bits
                }
                _ => 0,
            };
            if m == 0 && !carry {
                if next.peek().is_none() {
                    break;
                }
                continue;
            }
            let u = *vk & m;
            let (sum, c1) = vk.overflowing_add(u);
            let (sum, c2) = sum.overflowing_add(carry as u64);
            carry = c1 || c2;
            *vk = sum | (*vk & !m);
        }
    }
    // L(j, i): zero bits of row j below position i.
    let l = |j: usize, i: usize| -> usize {
        let row = &rows[j * blocks..(j + 1) * blocks];
        let full = i / 64;
        let mut n: usize = row[..full].iter().map(|w| w.count_zeros() as usize).sum();
        let rem = i % 64;
        if rem > 0 {
            n += (!row[full] & ((1u64 << rem) - 1)).count_ones() as usize;
        }
        n
    };
    let (mut j, mut i) = (ma.len(), mb.len());
    let mut cur = l(j, i);
    while j > 0 && i > 0 && cur > 0 {
        if ma[j - 1] == mb[i - 1] {
            matched[prefix + j - 1] = true;
            j -= 1;
            i -= 1;
            cur -= 1;
        } else if l(j - 1, i) == cur {
            j -= 1;
        } else {
            i -= 1;
        }
    }
    matched
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The textbook O(n·m) table, the reference the bit-parallel version must equal.
    fn lcs_dp(a: &[u32], b: &[u32]) -> usize {
        let mut prev = vec![0usize; b.len() + 1];
        let mut cur = vec![0usize; b.len() + 1];
        for x in a {
            for (j, y) in b.iter().enumerate() {
                cur[j + 1] = if x == y {
                    prev[j] + 1
                } else {
                    prev[j + 1].max(cur[j])
                };
            }
            std::mem::swap(&mut prev, &mut cur);
        }
        prev[b.len()]
    }

    /// SplitMix64: a small seeded generator, enough for property tests.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
        fn seq(&mut self, len: usize, alphabet: u64) -> Vec<u32> {
            (0..len).map(|_| self.below(alphabet) as u32).collect()
        }
    }

    #[test]
    fn known_cases() {
        let s = |x: &str| x.chars().collect::<Vec<char>>();
        assert_eq!(lcs_len(&s("ABCBDAB"), &s("BDCABA")), 4); // CLRS: BCBA
        assert_eq!(lcs_len(&s("AGGTAB"), &s("GXTXAYB")), 4); // GTAB
        assert_eq!(lcs_len(&s("abc"), &s("abc")), 3);
        assert_eq!(lcs_len(&s("abc"), &s("def")), 0);
        assert_eq!(lcs_len(&s(""), &s("abc")), 0);
        assert_eq!(lcs_len(&s("abc"), &s("")), 0);
        assert_eq!(lcs_len(&s("a"), &s("a")), 1);
        fn w(x: &str) -> Vec<&str> {
            x.split(' ').collect()
        }
        assert_eq!(
            lcs_len(&w("the cat sat on the mat"), &w("a cat sat on a mat today")),
            4
        );
    }

    #[test]
    fn carries_cross_block_boundaries() {
        // 200 = three full blocks plus 8 bits; the text shifted by one forces carries.
        let a: Vec<u32> = (0..200).map(|i| i % 7).collect();
        let b: Vec<u32> = (1..201).map(|i| i % 7).collect();
        assert_eq!(lcs_len_ids(&a, &b), lcs_dp(&a, &b));
        // A carry that must ripple through a whole all-ones block: A, 127 fillers absent from
        // the text, B; text B A. LCS = 1 (dropping the carry would count 2).
        let mut a: Vec<u32> = vec![0];
        a.extend(10..137);
        a.push(1);
        // (`bit_parallel` directly: `lcs_len_ids` would take the shorter text as the pattern.)
        assert_eq!(bit_parallel(&a, &[1, 0]), 1);
        assert_eq!(bit_parallel(&a, &[0, 1]), 2);
        // Exactly 64 and 128 long, reversed: LCS of a permutation and its reverse is 1.
        for n in [64u32, 128] {
            let a: Vec<u32> = (0..n).collect();
            let b: Vec<u32> = (0..n).rev().collect();
            assert_eq!(lcs_len_ids(&a, &b), 1);
            assert_eq!(lcs_len_ids(&a, &a), n as usize);
        }
    }

    #[test]
    fn equals_dynamic_programming_on_random_sequences() {
        let mut rng = Rng(0x5EED_1CE5);
        for case in 0..600 {
            let alphabet = [2, 3, 5, 20, 300][case % 5];
            let la = rng.below(260) as usize;
            let lb = rng.below(260) as usize;
            let mut a = rng.seq(la, alphabet);
            let mut b = rng.seq(lb, alphabet);
            if case % 3 == 0 {
                // Near-copies: shared prefix/suffix and scattered edits, like real outputs.
                b = a.clone();
                for _ in 0..rng.below(12) {
                    if b.is_empty() {
                        break;
                    }
                    let i = rng.below(b.len() as u64) as usize;
                    match rng.below(3) {
                        0 => b[i] = rng.below(alphabet) as u32,
                        1 => {
                            b.remove(i);
                        }
                        _ => b.insert(i, rng.below(alphabet) as u32),
                    }
                }
                if case % 2 == 0 {
                    std::mem::swap(&mut a, &mut b);
                }
            }
            assert_eq!(
                lcs_len_ids(&a, &b),
                lcs_dp(&a, &b),
                "case {case}: a={a:?} b={b:?}"
            );
            assert_eq!(lcs_len_ids(&b, &a), lcs_dp(&a, &b), "case {case} swapped");
        }
    }

    #[test]
    fn long_sparse_patterns_equal_dynamic_programming() {
        // Long patterns with rare matches leave whole blocks all ones, so carries must ripple
        // through them; short texts drawn from the pattern's own symbols.
        let mut rng = Rng(0xB10C);
        for case in 0..200 {
            let len = 64 + rng.below(600) as usize;
            let a = rng.seq(len, 5_000);
            let b: Vec<u32> = (0..1 + rng.below(40))
                .map(|_| a[rng.below(a.len() as u64) as usize])
                .collect();
            assert_eq!(bit_parallel(&a, &b), lcs_dp(&a, &b), "case {case}");
        }
    }

    #[test]
    fn twenty_thousand_tokens_is_fast() {
        let mut rng = Rng(7);
        let a = rng.seq(20_000, 3_000);
        let mut b = a.clone();
        for i in (0..b.len()).step_by(5) {
            b[i] = rng.below(3_000) as u32;
        }
        b.reverse(); // defeat the prefix/suffix shortcut
        let t = std::time::Instant::now();
        let n = lcs_len_ids(&a, &b);
        assert!(n > 0 && n < 20_000);
        assert!(t.elapsed().as_secs_f64() < 5.0, "took {:?}", t.elapsed());
    }

    #[test]
    fn alignment_is_a_longest_common_subsequence() {
        let mut rng = Rng(7);
        for case in 0..300 {
            let a = rng.seq((case % 150) + 1, 2 + (case as u64 % 9));
            let b = rng.seq(((case * 7) % 170) + 1, 2 + (case as u64 % 9));
            let m = lcs_alignment(&a, &b);
            let picked: Vec<u32> = a
                .iter()
                .zip(&m)
                .filter(|(_, &k)| k)
                .map(|(&x, _)| x)
                .collect();
            assert_eq!(picked.len(), lcs_dp(&a, &b), "case {case}: length");
            // The picked symbols form a subsequence of b.
            let mut it = b.iter();
            assert!(
                picked.iter().all(|x| it.any(|y| y == x)),
                "case {case}: subsequence"
            );
        }
        assert_eq!(
            lcs_alignment(&[1, 2, 3, 4], &[2, 4]),
            vec![false, true, false, true]
        );
        assert_eq!(lcs_alignment(&[], &[1]), Vec::<bool>::new());
        assert_eq!(lcs_alignment(&[5, 6], &[]), vec![false, false]);
    }
}
