//! Emphasis that CommonMark would not read as emphasis, written as HTML instead.
//!
//! The writer wraps `<strong>`, `<em>` and `<del>` in `**`, `*` and `~~`. CommonMark reads a
//! delimiter run as an opener only when it is left-flanking and as a closer only when it is
//! right-flanking (spec 0.31, "Emphasis and strong emphasis"): a closing `**` after punctuation
//! and right before a letter (`**how="left"**는`, common in CJK text, where no space follows a
//! word) or an opening one after a letter and before punctuation (`값**"a"**`) is left as
//! asterisks. [`repair`] finds such pairs in a paragraph the writer built and writes them as
//! `<strong>…</strong>`, `<em>…</em>` or `<del>…</del>`, which every CommonMark reader renders;
//! pairs that read well stay markdown.
//!
//! The paragraph's own asterisks and tildes are escaped by the writer, so an unescaped run is
//! a delimiter it wrote; code spans, math (`$…$`), link destinations and HTML tags are skipped.
//! A run of three or more asterisks (emphasis inside strong emphasis, both ending together) is
//! left as it is: which of its parts closes which is not worth guessing.

/// A delimiter run the writer wrote: where it starts (bytes), its length, and its kind.
#[derive(Debug, Clone, Copy)]
struct Run {
    at: usize,
    len: usize,
    kind: Kind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Em,
    Strong,
    Strike,
}

impl Kind {
    fn tag(self) -> &'static str {
        match self {
            Kind::Em => "em",
            Kind::Strong => "strong",
            Kind::Strike => "del",
        }
    }
}

/// CommonMark's punctuation for flanking (Unicode P and S categories), approximated as
/// neither alphanumeric nor white space.
fn punct(c: char) -> bool {
    !c.is_alphanumeric() && !c.is_whitespace()
}

/// Can the run `[at, at + len)` of `s` open (left-flanking) and close (right-flanking)?
fn flanking(s: &str, at: usize, len: usize) -> (bool, bool) {
    let prev = s[..at].chars().next_back();
    let next = s[at + len..].chars().next();
    let space = |c: Option<char>| c.is_none_or(char::is_whitespace);
    let punctuation = |c: Option<char>| c.is_some_and(punct);
    let left = !space(next) && (!punctuation(next) || space(prev) || punctuation(prev));
    let right = !space(prev) && (!punctuation(prev) || space(next) || punctuation(next));
    (left, right)
}

/// The delimiter runs of a paragraph, outside code spans, math, link destinations, HTML tags
/// and escapes; None when it holds a run of three or more asterisks.
fn runs(s: &str) -> Option<Vec<Run>> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let count = |i: usize, c: u8| b[i..].iter().take_while(|&&x| x == c).count();
    while i < b.len() {
        match b[i] {
            b'\\' if i + 1 < b.len() && b[i + 1].is_ascii_punctuation() => i += 2,
            b'`' => {
                let n = count(i, b'`');
                let fence = &s[i..i + n];
                // The matching run of as many backticks, else they are literal.
                let mut j = i + n;
                let mut end = None;
                while let Some(k) = s[j..].find(fence) {
                    let at = j + k;
                    let m = count(at, b'`');
                    if m == n {
                        end = Some(at + n);
                        break;
                    }
                    j = at + m;
                }
                i = end.unwrap_or(i + n);
            }
            b'$' => {
                let n = if b.get(i + 1) == Some(&b'$') { 2 } else { 1 };
                let close = &s[i..i + n];
                i = match s[i + n..].find(close) {
                    Some(k) => i + n + k + n,
                    None => i + n,
                };
            }
            b']' if b.get(i + 1) == Some(&b'(') => {
                let mut depth = 0usize;
                let mut j = i + 1;
                while j < b.len() {
                    match b[j] {
                        b'\\' => j += 1,
                        b'(' => depth += 1,
                        b')' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    j += 1;
                }
                i = j + 1;
            }
            b'<' if b
                .get(i + 1)
                .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'/' || *c == b'!') =>
            {
                i = s[i..].find('>').map_or(i + 1, |k| i + k + 1);
            }
            b'*' => {
                let n = count(i, b'*');
                let kind = match n {
                    1 => Kind::Em,
                    2 => Kind::Strong,
                    _ => return None,
                };
                out.push(Run {
                    at: i,
                    len: n,
                    kind,
                });
                i += n;
            }
            b'~' => {
                let n = count(i, b'~');
                if n == 2 {
                    out.push(Run {
                        at: i,
                        len: n,
                        kind: Kind::Strike,
                    });
                }
                i += n;
            }
            _ => i += 1,
        }
    }
    Some(out)
}

/// The paragraph `s` with each emphasis pair CommonMark would not read written as HTML (see
/// the module's notes); unchanged when every pair reads.
pub(super) fn repair(s: String) -> String {
    if !s.contains(['*', '~']) {
        return s;
    }
    let Some(runs) = runs(&s) else {
        return s;
    };
    // Pair each kind's runs in order: the writer opens and closes them properly nested.
    let mut open: [Option<Run>; 3] = [None; 3];
    let mut bad: Vec<(Run, Run)> = Vec::new();
    for r in runs {
        let slot = &mut open[r.kind as usize];
        match slot.take() {
            None => *slot = Some(r),
            Some(o) => {
                let opens = flanking(&s, o.at, o.len).0;
                let closes = flanking(&s, r.at, r.len).1;
                if !(opens && closes) {
                    bad.push((o, r));
                }
            }
        }
    }
    if bad.is_empty() {
        return s;
    }
    let mut edits: Vec<(usize, usize, String)> = bad
        .iter()
        .flat_map(|&(o, c)| {
            [
                (o.at, o.len, format!("<{}>", o.kind.tag())),
                (c.at, c.len, format!("</{}>", c.kind.tag())),
            ]
        })
        .collect();
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut s = s;
    for (at, len, with) in edits {
        s.replace_range(at..at + len, &with);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::repair;

    fn r(s: &str) -> String {
        repair(s.to_string())
    }

    #[test]
    fn pairs_that_read_stay_markdown() {
        for s in [
            "A **bold** word and *one* more.",
            "**Note:** the text after it.",
            "He said **\"no\"**, twice.",
            "~~£12.00~~ £9.60",
            "Plain text with no emphasis.",
            "**굵게** 쓴 말",
            "***both***",
        ] {
            assert_eq!(r(s), s);
        }
    }

    #[test]
    fn a_closer_after_punctuation_before_a_letter_is_html() {
        assert_eq!(
            r("**how=\"left\"**는 VLOOKUP처럼, **indicator=True**를 주면"),
            "<strong>how=\"left\"</strong>는 VLOOKUP처럼, **indicator=True**를 주면"
        );
        assert_eq!(r("값*\"a\"*이다"), "값<em>\"a\"</em>이다");
        assert_eq!(r("가격 ~~(12)~~원"), "가격 <del>(12)</del>원");
    }

    #[test]
    fn code_math_links_and_escapes_are_not_delimiters() {
        for s in [
            "`a**b` and **c**.",
            "$a*b*c$ and *d*.",
            "[x](https://e.org/a*b*c) and **y**.",
            "a \\*literal\\* star and **y**.",
            "<span title=\"a*b\">x</span> **y**",
        ] {
            assert_eq!(r(s), s);
        }
        assert_eq!(
            r("`**` then **\"q\"**x"),
            "`**` then <strong>\"q\"</strong>x"
        );
    }
}
