//! Dates as pages state them, to ISO 8601: machine formats (RFC 3339, RFC 2822 and their
//! relatives, through chrono) and dates written in text in the bench's languages.

/// A stated date as ISO 8601: RFC 3339 and its common relatives (`2024-03-05T10:00:00Z`,
/// `2024-03-05 10:00:00`, `2024-03-05`), RFC 2822 (`Tue, 5 Mar 2024 10:00:00 +0000`), and
/// written dates ([`text_date`]).
pub fn iso_date(s: &str) -> Option<String> {
    use chrono::{DateTime, NaiveDate, NaiveDateTime};
    let s = s.trim();
    if s.is_empty() || s.len() > 80 {
        return None;
    }
    if let Ok(d) = DateTime::parse_from_rfc3339(s) {
        return Some(d.to_rfc3339());
    }
    for f in [
        "%Y-%m-%dT%H:%M:%S%.f%z",
        "%Y-%m-%dT%H:%M%z",
        "%Y-%m-%d %H:%M:%S%.f%z",
    ] {
        if let Ok(d) = DateTime::parse_from_str(s, f) {
            return Some(d.to_rfc3339());
        }
    }
    if let Ok(d) = DateTime::parse_from_rfc2822(s) {
        return Some(d.to_rfc3339());
    }
    for f in [
        "%Y-%m-%dT%H:%M:%S%.f",
        "%Y-%m-%dT%H:%M",
        "%Y-%m-%d %H:%M:%S",
        "%Y-%m-%d %H:%M",
    ] {
        if let Ok(d) = NaiveDateTime::parse_from_str(s, f) {
            return Some(d.format("%Y-%m-%dT%H:%M:%S").to_string());
        }
    }
    let day = s.get(..10).unwrap_or(s);
    for f in ["%Y-%m-%d", "%Y/%m/%d", "%Y%m%d"] {
        if let Ok(d) = NaiveDate::parse_from_str(day, f) {
            return plausible(d);
        }
    }
    text_date(s)
}

pub(super) fn plausible(d: chrono::NaiveDate) -> Option<String> {
    use chrono::Datelike;
    (1990..=2100)
        .contains(&d.year())
        .then(|| d.format("%Y-%m-%d").to_string())
}

/// Month names of the bench's languages (English, German, French, Dutch, Spanish, Italian,
/// Polish, in full and abbreviated), lower case, by month.
const MONTHS: [&[&str]; 12] = [
    &[
        "january", "jan", "januar", "janvier", "januari", "enero", "gennaio", "stycznia", "styczeń",
    ],
    &[
        "february", "feb", "februar", "février", "fevrier", "februari", "febrero", "febbraio",
        "lutego",
    ],
    &[
        "march", "mar", "märz", "maerz", "mars", "maart", "marzo", "marca",
    ],
    &["april", "apr", "avril", "abril", "aprile", "kwietnia"],
    &["may", "mai", "mei", "mayo", "maggio", "maja"],
    &["june", "jun", "juni", "juin", "junio", "giugno", "czerwca"],
    &["july", "jul", "juli", "juillet", "julio", "luglio", "lipca"],
    &[
        "august", "aug", "août", "aout", "augustus", "agosto", "sierpnia",
    ],
    &[
        "september",
        "sep",
        "sept",
        "septembre",
        "septiembre",
        "settembre",
        "września",
    ],
    &[
        "october",
        "oct",
        "oktober",
        "octobre",
        "octubre",
        "ottobre",
        "okt",
        "października",
    ],
    &["november", "nov", "novembre", "noviembre", "listopada"],
    &[
        "december",
        "dec",
        "dezember",
        "décembre",
        "decembre",
        "diciembre",
        "dicembre",
        "dez",
        "grudnia",
    ],
];

/// A date written in a short text: `5 March 2024`, `March 5, 2024`, `5. März 2024`,
/// `05.03.2024`, `le 5 mars 2024`; day-first for numeric dates with dots (the European
/// order), and only years 1990–2100.
pub fn text_date(s: &str) -> Option<String> {
    if s.chars().count() > 120 {
        return None;
    }
    let lower = s.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| c.is_whitespace() || c == ',' || c == '|')
        .filter(|w| !w.is_empty())
        .collect();
    let num = |w: &str| -> Option<u32> {
        w.trim_end_matches(['.', 'h', 't', 's', 'n', 'r', 'd'])
            .parse()
            .ok()
    };
    let month = |w: &str| -> Option<u32> {
        let w = w.trim_end_matches('.');
        MONTHS
            .iter()
            .position(|names| names.contains(&w))
            .map(|i| i as u32 + 1)
    };
    let make = |y: u32, mo: u32, d: u32| {
        chrono::NaiveDate::from_ymd_opt(y as i32, mo, d).and_then(plausible)
    };
    for i in 0..words.len() {
        // 5 March 2024 / 5. März 2024
        if i + 2 < words.len() {
            if let (Some(d), Some(mo), Some(y)) =
                (num(words[i]), month(words[i + 1]), num(words[i + 2]))
            {
                if let Some(x) = make(y, mo, d) {
                    return Some(x);
                }
            }
            // March 5, 2024
            if let (Some(mo), Some(d), Some(y)) =
                (month(words[i]), num(words[i + 1]), num(words[i + 2]))
            {
                if let Some(x) = make(y, mo, d) {
                    return Some(x);
                }
            }
        }
        // 05.03.2024 (day first) and 2024.03.05
        let parts: Vec<&str> = words[i].trim_end_matches('.').split('.').collect();
        if parts.len() == 3
            && parts
                .iter()
                .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
        {
            let n: Vec<u32> = parts.iter().filter_map(|p| p.parse().ok()).collect();
            let x = if parts[0].len() == 4 {
                make(n[0], n[1], n[2])
            } else {
                make(n[2], n[1], n[0])
            };
            if x.is_some() {
                return x;
            }
        }
    }
    None
}
