//! The Ratcliff/Obershelp similarity of `blocks` (§3.4 of Griazev & Ramanauskaitė) against
//! Python's difflib. Every expected number was computed with CPython 3's
//! `difflib.SequenceMatcher(None, a, b, autojunk=False)` (`.ratio()` and
//! `.get_matching_blocks()`, the final size-0 sentinel dropped) and is hard-coded here.

use sightline::extract::blocks::{matching_blocks, quick_ratio, ratio, real_quick_ratio};

fn chars(s: &str) -> Vec<char> {
    s.chars().collect()
}

fn toks(s: &str) -> Vec<&str> {
    s.split_whitespace().collect()
}

/// (a, b, difflib ratio, difflib matching blocks).
type Case = (
    &'static str,
    &'static str,
    f64,
    &'static [(usize, usize, usize)],
);

const STRINGS: [Case; 12] = [
    // Greedy recursion: "ab" first, then "cd" in the right part.
    ("abxcd", "abcd", 0.8888888888888888, &[(0, 0, 2), (3, 2, 2)]),
    (
        "qabxcd",
        "abycdf",
        0.6666666666666666,
        &[(1, 0, 2), (4, 3, 2)],
    ),
    // difflib's own documentation pair (there with a junk function; here without).
    (
        "private Thread currentThread;",
        "private volatile Thread currentThread;",
        0.8656716417910447,
        &[(0, 0, 6), (6, 15, 23)],
    ),
    ("abcd", "bcde", 0.75, &[(1, 0, 3)]),
    ("", "", 1.0, &[]),
    ("abc", "", 0.0, &[]),
    // Greedy, not LCS: the earliest 1-long match in a ('t' at 0 with b[3]) leaves nothing on
    // either side, so M = 1 although the LCS is 2.
    ("tide", "diet", 0.25, &[(0, 3, 1)]),
    // The longest block "XXXX" splits the problem: "def" on the right, nothing on the left.
    ("abcXXXXdef", "XXXXabcdef", 0.7, &[(3, 0, 4), (7, 7, 3)]),
    (
        "ab1c2d3",
        "abcd123",
        0.7142857142857143,
        &[(0, 0, 2), (2, 4, 1), (4, 5, 1), (6, 6, 1)],
    ),
    // Two 3-long matches, "aba" (a0, b1) and "bab" (a1, b0): the earlier start in a wins.
    ("abab", "baba", 0.75, &[(0, 1, 3)]),
    ("xabcyabc", "abcxabcy", 0.625, &[(0, 3, 5)]),
    // Among equal-length matches, earliest in a, then earliest in b: 'a' at a0 with b[2].
    ("abcabcabc", "cba", 0.16666666666666666, &[(0, 2, 1)]),
];

#[test]
fn string_ratios_match_difflib() {
    for (a, b, r, blocks) in STRINGS {
        let (va, vb) = (chars(a), chars(b));
        assert_eq!(ratio(&va, &vb), r, "ratio({a:?}, {b:?})");
        assert_eq!(
            matching_blocks(&va, &vb),
            blocks.to_vec(),
            "matching blocks of {a:?}, {b:?}"
        );
        assert!(quick_ratio(&va, &vb) >= r && real_quick_ratio(&va, &vb) >= quick_ratio(&va, &vb));
    }
}

#[test]
fn tag_sequence_ratios_match_difflib() {
    let card = toks("div img /img h3 /h3 p /p a /a /div");
    let card_no_img = toks("div h3 /h3 p /p a /a /div");
    let card_span = toks("div img /img h3 /h3 p span /span /p a /a /div");
    assert_eq!(ratio(&card, &card_no_img), 0.8888888888888888);
    // One extra inline element in a 10-token card already falls below the 0.92 threshold.
    assert_eq!(ratio(&card, &card_span), 0.9090909090909091);
    assert_eq!(ratio(&card, &card), 1.0);
}

#[test]
fn long_tag_lists_match_difflib_with_autojunk_off() {
    // 301 vs 300 tokens: with autojunk on, difflib would junk the popular "div"/"p" and give
    // 0.0066555740432612314; the paper turns autojunk off, giving 0.6655574043261231.
    let mut a: Vec<&str> = std::iter::repeat_n(["div", "p"], 150).flatten().collect();
    a.push("span");
    let b: Vec<&str> = std::iter::repeat_n(["div", "p", "a"], 100)
        .flatten()
        .collect();
    assert_eq!(ratio(&a, &b), 0.6655574043261231);
    // 60 menu items against 59 plus one with an icon (autojunk on: 0.9875518672199171).
    let c: Vec<&str> = std::iter::repeat_n(["li", "a", "/a", "/li"], 60)
        .flatten()
        .collect();
    let mut d: Vec<&str> = std::iter::repeat_n(["li", "a", "/a", "/li"], 59)
        .flatten()
        .collect();
    d.extend(["li", "a", "img", "/img", "/a", "/li"]);
    assert_eq!(ratio(&c, &d), 0.995850622406639);
}
