//! The evaluation tokenizer on tricky input. Expected tokens come from the Python reference
//! `[t for w in runs(unicodedata.normalize("NFKC", s).lower()) for t in (list(w) if cjk(w) else [w])]`
//! with runs of characters of category L*, M*, N* or Pc: the reading that reproduces PEERS.md
//! (see tests/eval_peers.rs). Where Python's `re.findall(r"\w+", s.lower())` differs, its
//! tokens are given in the comment.

use sightline::extract::text::eval_tokens;

fn check(input: &str, expected: &[&str]) {
    assert_eq!(eval_tokens(input), expected, "tokens of {input:?}");
}

#[test]
fn case_folding_follows_python_lower() {
    // re: ["i", "stanbul", ...]: İ lowers to i + U+0307 (a mark, not \w in `re`).
    check(
        "İstanbul ΟΔΟΣ ΣΑΣ Straße",
        &["i\u{307}stanbul", "οδος", "σας", "straße"],
    );
    check("3.7bn, it's", &["3", "7bn", "it", "s"]);
}

#[test]
fn marks_stay_inside_their_word() {
    // re: ["ह", "न", "द", "भ", "ष"] (every vowel sign and virama breaks the word).
    check("हिन्दी भाषा", &["हिन्दी", "भाषा"]);
    // re: ["e", "x"]; NFKC composes e + U+0301 to é, U+0302 stays a mark in the word.
    check("e\u{301}\u{302}x", &["é\u{302}x"]);
    // re: ["pic"]: the emoji variation selector is a mark, so it is a token of its own.
    check("⬇\u{fe0f} pic", &["\u{fe0f}", "pic"]);
    // Composed and decomposed forms are the same token (re: ["café", "cafe"]).
    check("café = cafe\u{301}", &["café", "café"]);
}

#[test]
fn nfkc_folds_compatibility_forms() {
    // re: ["x²", "½", "①", "ﬁne", "ａｂｃ１２"].
    check(
        "x² ½ ① ﬁne ＡＢＣ１２",
        &["x2", "1", "2", "1", "fine", "abc12"],
    );
    // re: [] (circled letters are So).
    check("Ⓐ ⓑ", &["a", "b"]);
    // Mojibake of ’ (re: ["kosovoâ", "s"]): ™ becomes "tm".
    check("Kosovoâ€™s", &["kosovoâ", "tms"]);
    check("snake_case foo‿bar", &["snake_case", "foo‿bar"]); // re: [..., "foo", "bar"]
}

#[test]
fn cjk_runs_split_into_characters() {
    check(
        "東京タワーは333m",
        &["東", "京", "タ", "ワ", "ー", "は", "3", "3", "3", "m"],
    );
    // Half-width katakana become full-width (NFKC) and split (re: ["ｶﾀｶﾅ", ...]).
    check(
        "ｶﾀｶﾅ 한국어abc",
        &["カ", "タ", "カ", "ナ", "한", "국", "어", "a", "b", "c"],
    );
}

#[test]
fn format_characters_split_words() {
    check("a\u{ad}b", &["a", "b"]); // soft hyphen (Cf)
    check("\u{feff}bom", &["bom"]);
    check("", &[]);
    check(" — … ", &[]);
}
