//! Text patterns of one unit: a price, a rating, a date or a clock time, "3 hours ago", the
//! words of forum chrome, a short label, and machine identifiers (hashes, UUIDs, session
//! tokens). Each reads the unit's text alone.

use super::flag;

/// The pattern features of one unit's (trimmed) `text`, `has_price` … `short_label`.
pub(super) fn push(text: &str, out: &mut Vec<f64>) {
    out.push(flag(has_price(text)));
    out.push(flag(has_rating(text)));
    out.push(flag(has_date(text)));
    out.push(flag(has_time_ago(text)));
    out.push(forum_words(text));
    let words = text.split_whitespace().count();
    out.push(flag(words <= 3 && !text.ends_with('.')));
}

/// Does `text` hold a price: a currency sign or code next to a digit?
pub fn has_price(text: &str) -> bool {
    let cs: Vec<char> = text.chars().collect();
    let sign = |c: char| matches!(c, '$' | '€' | '£' | '¥' | '₹' | '₽' | '₩' | '元');
    for (i, &c) in cs.iter().enumerate() {
        if sign(c) {
            let near = |k: Option<usize>| {
                k.and_then(|k| cs.get(k))
                    .is_some_and(|d| d.is_ascii_digit())
            };
            let skip = |k: usize| cs.get(k).is_some_and(|d| *d == ' ');
            if near(i.checked_sub(1))
                || near(Some(i + 1))
                || (skip(i + 1) && near(Some(i + 2)))
                || (i >= 2 && skip(i - 1) && near(Some(i - 2)))
            {
                return true;
            }
        }
    }
    let lower = text.to_lowercase();
    ["usd", "eur", "gbp", "price", "preis", "prix", "precio"]
        .iter()
        .any(|w| lower.contains(w))
        && text.chars().any(|c| c.is_ascii_digit())
}

/// Does `text` look like a rating (stars, "4.5/5", "out of 5", "stars")?
pub fn has_rating(text: &str) -> bool {
    if text.chars().any(|c| matches!(c, '★' | '☆' | '⭐')) {
        return true;
    }
    let lower = text.to_lowercase();
    lower.contains("/5")
        || lower.contains("out of 5")
        || lower.contains("stars")
        || lower.contains("rating")
}

const MONTHS: [&str; 24] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec", "januar",
    "februar", "märz", "mai", "juni", "juli", "okt", "dez", "janvier", "février", "mars", "avril",
];

/// Does `text` hold a date: `2024-05-01`, `1/5/2024`, `01.05.2024`, or a month name next to
/// a number?
pub fn has_date(text: &str) -> bool {
    let cs: Vec<char> = text.chars().collect();
    // digit groups separated by - / . with a 4-digit or 2-digit group
    let mut i = 0;
    while i < cs.len() {
        if cs[i].is_ascii_digit() {
            let mut groups = 1;
            let mut j = i;
            let mut sep = None;
            loop {
                while j < cs.len() && cs[j].is_ascii_digit() {
                    j += 1;
                }
                if j + 1 < cs.len()
                    && matches!(cs[j], '-' | '/' | '.')
                    && sep.is_none_or(|s| s == cs[j])
                    && cs[j + 1].is_ascii_digit()
                {
                    sep = Some(cs[j]);
                    groups += 1;
                    j += 1;
                } else {
                    break;
                }
            }
            if groups >= 3 && j - i <= 10 {
                return true;
            }
            i = j.max(i + 1);
        } else {
            i += 1;
        }
    }
    if !text.chars().any(|c| c.is_ascii_digit()) {
        return false;
    }
    let lower = text.to_lowercase();
    lower
        .split(|c: char| !c.is_alphabetic())
        .any(|w| w.len() >= 3 && MONTHS.iter().any(|m| w.starts_with(m)) && w.len() <= 9)
}

/// "3 hours ago", "vor 2 Tagen", "yesterday", or a clock time `12:30`.
pub fn has_time_ago(text: &str) -> bool {
    let lower = text.to_lowercase();
    if ["ago", "yesterday", "vor ", "il y a", "hace "]
        .iter()
        .any(|w| lower.contains(w))
        && lower.chars().any(|c| c.is_ascii_digit() || c == 'y')
    {
        return true;
    }
    let cs: Vec<char> = text.chars().collect();
    cs.windows(4).any(|w| {
        w[0].is_ascii_digit() && w[1] == ':' && w[2].is_ascii_digit() && w[3].is_ascii_digit()
    })
}

/// Words of forum and comment chrome: "reply", "quote", "posts:", "joined", "report".
pub fn forum_words(text: &str) -> f64 {
    let lower = text.to_lowercase();
    [
        "reply",
        "quote",
        "posts:",
        "joined",
        "report",
        "permalink",
        "member",
        "likes",
        "upvote",
        "points",
    ]
    .iter()
    .filter(|w| lower.contains(*w))
    .count() as f64
}

/// Is `word` a machine identifier rather than a word: a hexadecimal string or UUID, or a long
/// mix of letters and digits (tracking ids, hashes, session tokens)? Punctuation around it is
/// ignored; short codes ("A2A1K-BBBB", "SM7dB", "2024") are words.
pub fn is_machine_token(word: &str) -> bool {
    if word.len() < 12 {
        return false; // fewer bytes than 12, so fewer characters
    }
    let w = word.trim_matches(|c: char| !c.is_alphanumeric());
    let len = w.chars().count();
    if len < 12
        || !w
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return false;
    }
    let digits = w.chars().filter(|c| c.is_ascii_digit()).count();
    let letters = w.chars().filter(|c| c.is_ascii_alphabetic()).count();
    let hex = w.chars().all(|c| c.is_ascii_hexdigit() || c == '-');
    (hex && digits >= 4 && letters >= 2) || (len >= 16 && digits >= 3 && letters >= 3)
}

/// The share of `text`'s words that are [machine tokens](is_machine_token).
pub fn machine_token_share(text: &str) -> f64 {
    let (mut n, mut m) = (0usize, 0usize);
    for w in text.split_whitespace() {
        n += 1;
        m += usize::from(is_machine_token(w));
    }
    if n == 0 {
        0.0
    } else {
        m as f64 / n as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns() {
        assert!(has_price("Now $19.99"));
        assert!(has_price("19,99 €"));
        assert!(has_price("Price: 20 USD"));
        assert!(!has_price("We paid a lot"));
        assert!(has_rating("★★★★☆ 120 reviews"));
        assert!(has_rating("4.5/5"));
        assert!(!has_rating("A quiet day"));
        assert!(has_date("Posted 2024-05-01"));
        assert!(has_date("on 12/3/2021 at noon"));
        assert!(has_date("May 3, 2021"));
        assert!(!has_date("version 2.1"));
        assert!(!has_date("Call us"));
        assert!(has_time_ago("3 hours ago"));
        assert!(has_time_ago("at 12:30"));
        assert!(!has_time_ago("A quiet day"));
        assert_eq!(forum_words("Reply · Quote · Report"), 3.0);
        assert!(is_machine_token("3f2b9c1e-8a4d-4e1b-9c7a-1d2e3f4a5b6c"));
        assert!(is_machine_token("a1b2c3d4e5f60718"));
        assert!(is_machine_token("(sess_9KfL2mQ7xZ83pRt)"));
        assert!(!is_machine_token("A2A1K-BBBB"));
        assert!(!is_machine_token("Physique-accentuating"));
        assert!(!is_machine_token("2024-05-01"));
        assert_eq!(machine_token_share("id 3f2b9c1e8a4d4e1b"), 0.5);
    }
}
