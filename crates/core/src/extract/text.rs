//! Text units shared by the algorithms and the metric: words (Unicode word segmentation, a CJK
//! character counting as one word), punctuation (Unicode general category P*, CJK punctuation
//! included) and the evaluation tokens of Song et al. §4.1.2.

use icu_normalizer::ComposingNormalizerBorrowed;
use unicode_general_category::{get_general_category, GeneralCategory as G};
use unicode_segmentation::UnicodeSegmentation;

/// Is `c` a CJK ideograph, kana or hangul syllable (a character that is a word on its own)?
pub fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF      // Hiragana, Katakana
        | 0x3400..=0x4DBF    // CJK Extension A
        | 0x4E00..=0x9FFF    // CJK Unified Ideographs
        | 0xAC00..=0xD7AF    // Hangul syllables
        | 0xF900..=0xFAFF    // CJK Compatibility Ideographs
        | 0x20000..=0x2FA1F) // CJK Extensions B-F, Compatibility Supplement
}

/// Is `c` punctuation (Unicode general category Pc, Pd, Ps, Pe, Pi, Pf or Po)? This covers
/// ASCII punctuation and CJK punctuation such as `，。、！？「」`.
pub fn is_punct(c: char) -> bool {
    matches!(
        get_general_category(c),
        G::ConnectorPunctuation
            | G::DashPunctuation
            | G::OpenPunctuation
            | G::ClosePunctuation
            | G::InitialPunctuation
            | G::FinalPunctuation
            | G::OtherPunctuation
    )
}

/// Number of punctuation characters in `s`.
pub fn punct_count(s: &str) -> usize {
    s.chars().filter(|&c| is_punct(c)).count()
}

/// Words of `s` by Unicode word segmentation (UAX #29), each CJK character its own word.
pub fn words(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for w in s.unicode_words() {
        if w.chars().any(is_cjk) {
            let mut start = 0;
            for (i, c) in w.char_indices() {
                if is_cjk(c) {
                    if start < i {
                        out.push(&w[start..i]);
                    }
                    out.push(&w[i..i + c.len_utf8()]);
                    start = i + c.len_utf8();
                }
            }
            if start < w.len() {
                out.push(&w[start..]);
            }
        } else {
            out.push(w);
        }
    }
    out
}

/// Number of words of `s` (see [`words`]).
pub fn word_count(s: &str) -> usize {
    words(s).len()
}

/// Evaluation tokens (Song et al. §4.1.2 as PEERS.md applies it): the text is NFKC-normalised
/// and lower-cased, then split into runs of Unicode word characters (see [`is_word_char`]:
/// letters, marks, numbers, connector punctuation); a run holding CJK characters is split into
/// single characters.
///
/// This is the reading that reproduces every trafilatura number of `shared/bench/PEERS.md` to
/// three decimals (`tests/eval_peers.rs`). Python's `re.findall(r"\w+", s.lower())` misses
/// three of the twenty: it keeps `™` out of `kosovoâ€™s`-style mojibake (NFKC turns it into
/// `tm`), and its `\w` has no marks, so `⬇️` gives no token and Devanagari or Thai words break
/// at every vowel sign.
pub fn eval_tokens(s: &str) -> Vec<String> {
    let normalized = ComposingNormalizerBorrowed::new_nfkc().normalize(s);
    let mut out = Vec::new();
    for_each_token(&normalized.to_lowercase(), |t| out.push(t.to_string()));
    out
}

/// The number of [`eval_tokens`] of `s`, without building them (lower-casing does not move a
/// token boundary, so it is skipped).
pub fn eval_token_count(s: &str) -> usize {
    let normalized = ComposingNormalizerBorrowed::new_nfkc().normalize(s);
    let mut n = 0;
    for_each_token(&normalized, |_| n += 1);
    n
}

/// Call `f` with each token of an NFKC-normalised text: runs of word characters, a run
/// holding CJK split into single characters.
fn for_each_token<'a>(s: &'a str, mut f: impl FnMut(&'a str)) {
    for run in s.split(|c: char| !is_word_char(c)) {
        if run.is_empty() {
            continue;
        }
        if run.chars().any(is_cjk) {
            for (i, c) in run.char_indices() {
                f(&run[i..i + c.len_utf8()]);
            }
        } else {
            f(run);
        }
    }
}

/// A Unicode word character as UTS #18 defines `\w` (the regex crate's and Python `regex`'s
/// `\w`): a letter (L*), a mark (M*), a number (N*) or connector punctuation (Pc, e.g. `_`).
/// Unlike Python `re`'s `\w` this keeps combining marks inside the word they belong to.
pub fn is_word_char(c: char) -> bool {
    if c.is_ascii() {
        // Fast path (the category lookup dominates tokenizing otherwise).
        return c.is_ascii_alphanumeric() || c == '_';
    }
    matches!(
        get_general_category(c),
        G::UppercaseLetter
            | G::LowercaseLetter
            | G::TitlecaseLetter
            | G::ModifierLetter
            | G::OtherLetter
            | G::NonspacingMark
            | G::SpacingMark
            | G::EnclosingMark
            | G::DecimalNumber
            | G::LetterNumber
            | G::OtherNumber
            | G::ConnectorPunctuation
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cjk_characters_are_words() {
        assert_eq!(words("Hello 世界 ok"), vec!["Hello", "世", "界", "ok"]);
        assert_eq!(word_count("It's $3.7bn, fine."), 3);
    }

    #[test]
    fn punctuation_includes_cjk() {
        assert_eq!(punct_count("a, b. c!"), 3);
        assert_eq!(punct_count("你好，世界。「好」"), 4);
        assert_eq!(punct_count("$ + ="), 0, "symbols are not punctuation");
    }

    #[test]
    fn eval_tokens_lowercase_and_split_cjk() {
        assert_eq!(
            eval_tokens("The Cat's 3.7bn 中文abc"),
            vec!["the", "cat", "s", "3", "7bn", "中", "文", "a", "b", "c"]
        );
    }

    #[test]
    fn eval_token_count_counts_the_eval_tokens() {
        for s in [
            "The Cat's 3.7bn 中文abc",
            "",
            "  -- ",
            "ﬁne ligatures™ and İstanbul",
            "naïve café ⬇️ हिन्दी ไทย",
            "日本語のテキスト、かな混じり。English too_under_score",
        ] {
            assert_eq!(eval_token_count(s), eval_tokens(s).len(), "{s:?}");
        }
        assert_eq!(eval_token_count("The Cat's 3.7bn 中文abc"), 10);
    }
}
