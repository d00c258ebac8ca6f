//! Per-page extraction quality (Song et al. §4.1.2, eq. 6-9, as `shared/bench/PEERS.md` applies
//! it) and its macro average over a dataset.
//!
//! Tokens are [`crate::extract::text::eval_tokens`]. With `LCS` the longest common subsequence
//! of the output and gold token sequences: precision `P = LCS/|output|` (eq. 6), recall
//! `R = LCS/|gold|` (eq. 7), `F1 = 2PR/(P+R)` (eq. 8), and the CleanEval score
//! `LCS/(|output| + |gold| − LCS)` (eq. 9). The bag-of-words F1 uses the multiset overlap of
//! the two token bags instead of the LCS. An empty output scores 0 on every metric; a page
//! whose gold has no token is not scored (it is skipped by the macro average).

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::lcs::lcs_len_ids;
use crate::extract::text::eval_tokens;

/// The scores of one output against its gold text.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct PageScore {
    /// LCS precision, eq. 6.
    pub lcs_p: f64,
    /// LCS recall, eq. 7.
    pub lcs_r: f64,
    /// LCS F1, eq. 8.
    pub lcs_f1: f64,
    /// CleanEval score, eq. 9: `LCS / (|output| + |gold| − LCS)`.
    pub ce_score: f64,
    /// Bag-of-words F1 from the multiset overlap of the token bags.
    pub bow_f1: f64,
    /// Number of output tokens.
    pub out_tokens: usize,
    /// Number of gold tokens; 0 means the page is not scored.
    pub gold_tokens: usize,
    /// Length of the longest common subsequence.
    pub lcs: usize,
}

impl PageScore {
    /// Does this page count in a macro average (its gold has at least one token)?
    pub fn is_scored(&self) -> bool {
        self.gold_tokens > 0
    }

    /// Is the output empty (no token)?
    pub fn is_empty_output(&self) -> bool {
        self.out_tokens == 0
    }
}

/// Scores `output` against `gold` (both plain text).
pub fn score(output: &str, gold: &str) -> PageScore {
    score_tokens(&eval_tokens(output), &eval_tokens(gold))
}

/// Scores already tokenized texts (see [`eval_tokens`]); lets a caller tokenize a gold text once
/// for many outputs.
pub fn score_tokens<'a, S: AsRef<str>>(output: &'a [S], gold: &'a [S]) -> PageScore {
    let mut score = PageScore {
        out_tokens: output.len(),
        gold_tokens: gold.len(),
        ..PageScore::default()
    };
    if output.is_empty() || gold.is_empty() {
        return score;
    }
    // Intern tokens; ids index both the LCS match masks and the bag counts.
    let mut ids: HashMap<&'a str, u32> = HashMap::new();
    let mut intern = |t: &'a S| {
        let next = ids.len() as u32;
        *ids.entry(t.as_ref()).or_insert(next)
    };
    let out_ids: Vec<u32> = output.iter().map(&mut intern).collect();
    let gold_ids: Vec<u32> = gold.iter().map(&mut intern).collect();
    let symbols = ids.len();

    let lcs = lcs_len_ids(&out_ids, &gold_ids);
    let (n_out, n_gold) = (output.len() as f64, gold.len() as f64);
    score.lcs = lcs;
    score.lcs_p = lcs as f64 / n_out;
    score.lcs_r = lcs as f64 / n_gold;
    score.lcs_f1 = f1(score.lcs_p, score.lcs_r);
    score.ce_score = lcs as f64 / (n_out + n_gold - lcs as f64);

    let mut bag = vec![0i64; symbols];
    for &t in &out_ids {
        bag[t as usize] += 1;
    }
    let mut overlap = 0usize;
    for &t in &gold_ids {
        if bag[t as usize] > 0 {
            bag[t as usize] -= 1;
            overlap += 1;
        }
    }
    score.bow_f1 = f1(overlap as f64 / n_out, overlap as f64 / n_gold);
    score
}

/// Harmonic mean, 0 when both are 0.
fn f1(p: f64, r: f64) -> f64 {
    if p + r > 0.0 {
        2.0 * p * r / (p + r)
    } else {
        0.0
    }
}

/// Macro averages of [`PageScore`]s over the scored pages of one dataset.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct MacroScores {
    /// Mean LCS precision.
    pub lcs_p: f64,
    /// Mean LCS recall.
    pub lcs_r: f64,
    /// Mean LCS F1.
    pub lcs_f1: f64,
    /// Mean CleanEval score.
    pub ce_score: f64,
    /// Mean bag-of-words F1.
    pub bow_f1: f64,
    /// Pages averaged (gold with at least one token).
    pub pages: usize,
    /// Pages skipped because their gold has no token.
    pub skipped_empty_gold: usize,
}

impl MacroScores {
    /// The macro average of `scores`; pages whose gold has no token are counted as skipped.
    pub fn from_pages<'a>(scores: impl IntoIterator<Item = &'a PageScore>) -> MacroScores {
        let mut m = MacroScores::default();
        for s in scores {
            if !s.is_scored() {
                m.skipped_empty_gold += 1;
                continue;
            }
            m.pages += 1;
            m.lcs_p += s.lcs_p;
            m.lcs_r += s.lcs_r;
            m.lcs_f1 += s.lcs_f1;
            m.ce_score += s.ce_score;
            m.bow_f1 += s.bow_f1;
        }
        if m.pages > 0 {
            let n = m.pages as f64;
            m.lcs_p /= n;
            m.lcs_r /= n;
            m.lcs_f1 /= n;
            m.ce_score /= n;
            m.bow_f1 /= n;
        }
        m
    }

    /// The value of a metric by its PEERS.md name (`lcs_p`, `lcs_r`, `lcs_f1`, `ce_score`,
    /// `bow_f1`).
    pub fn metric(&self, name: &str) -> Option<f64> {
        Some(match name {
            "lcs_p" => self.lcs_p,
            "lcs_r" => self.lcs_r,
            "lcs_f1" => self.lcs_f1,
            "ce_score" => self.ce_score,
            "bow_f1" => self.bow_f1,
            _ => return None,
        })
    }
}

/// The metric names, in report order, as PEERS.md spells them.
pub const METRICS: [&str; 5] = ["lcs_p", "lcs_r", "lcs_f1", "ce_score", "bow_f1"];

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn worked_example() {
        // output: the cat sat on the mat (6) ; gold: a cat sat on a red mat (7)
        // LCS = cat sat on mat = 4 -> P = 4/6, R = 4/7, CE = 4/(6+7-4) = 4/9.
        // Bags: overlap {cat, sat, on, mat} = 4 (the/a differ) -> same as LCS here.
        let s = score("The cat sat on the mat.", "A cat sat on a red mat");
        assert_eq!((s.out_tokens, s.gold_tokens, s.lcs), (6, 7, 4));
        assert!(close(s.lcs_p, 4.0 / 6.0));
        assert!(close(s.lcs_r, 4.0 / 7.0));
        assert!(close(
            s.lcs_f1,
            2.0 * (4.0 / 6.0) * (4.0 / 7.0) / (4.0 / 6.0 + 4.0 / 7.0)
        ));
        assert!(close(s.lcs_f1, 8.0 / 13.0));
        assert!(close(s.ce_score, 4.0 / 9.0));
        assert!(close(s.bow_f1, 8.0 / 13.0));
    }

    #[test]
    fn bag_of_words_ignores_order_lcs_does_not() {
        // Reversed: LCS = 1, bags identical.
        let s = score("one two three four", "four three two one");
        assert_eq!(s.lcs, 1);
        assert!(close(s.lcs_f1, 0.25));
        assert!(close(s.ce_score, 1.0 / 7.0));
        assert!(close(s.bow_f1, 1.0));
        // Multiset overlap counts repeats at most as often as both hold them.
        let s = score("a a a b", "a b b");
        // overlap: a×1 + b×1 = 2 ; P = 2/4, R = 2/3 -> F1 = 4/7
        assert!(close(s.bow_f1, 4.0 / 7.0));
    }

    #[test]
    fn empty_output_scores_zero_and_empty_gold_is_skipped() {
        let s = score("  ...  ", "some gold");
        assert_eq!((s.out_tokens, s.gold_tokens), (0, 2));
        assert!(s.is_scored() && s.is_empty_output());
        assert_eq!(s.lcs_f1 + s.lcs_p + s.lcs_r + s.ce_score + s.bow_f1, 0.0);
        let g = score("some output", " — ");
        assert!(!g.is_scored());
        let none = score("x y", "z w");
        assert_eq!(none.lcs_f1, 0.0);

        let perfect = score("Same words", "same, WORDS!");
        assert!(close(perfect.lcs_f1, 1.0) && close(perfect.ce_score, 1.0));
        let m = MacroScores::from_pages(&[perfect, s, g]);
        assert_eq!((m.pages, m.skipped_empty_gold), (2, 1));
        assert!(close(m.lcs_f1, 0.5) && close(m.ce_score, 0.5) && close(m.bow_f1, 0.5));
        assert_eq!(m.metric("ce_score"), Some(0.5));
        assert_eq!(m.metric("nope"), None);
    }

    #[test]
    fn cjk_runs_are_split_into_characters() {
        // 中文 splits into two tokens; the gold lacks 文.
        let s = score("中文abc", "中 abc");
        // tokens: out = 中 文 a b c (a run holding CJK is split whole), gold = 中 abc
        assert_eq!((s.out_tokens, s.gold_tokens, s.lcs), (5, 2, 1));
    }
}
