//! Markdown syntax for the writer: escaping inline text, link destinations, code fences and
//! spans and line prefixes (quotes, list items).

/// Escape `t` for markdown inline text and append it. `prev` is the character written
/// before it; `line_start` says `t` begins a line.
pub(super) fn escape_text(out: &mut String, t: &str, prev: Option<char>, line_start: bool) {
    let chars: Vec<char> = t.chars().collect();
    // Index of a character to escape because of what the line starts with.
    let mut escape_at = None;
    if line_start {
        let after = |i: usize| chars.get(i).is_none_or(|&c| c == ' ');
        match chars[0] {
            '#' => {
                let run = chars.iter().take_while(|&&c| c == '#').count();
                if run <= 6 && after(run) {
                    escape_at = Some(0);
                }
            }
            '>' => escape_at = Some(0),
            c @ ('-' | '+' | '=') if after(1) || chars[1] == c => escape_at = Some(0),
            '0'..='9' => {
                let digits = chars.iter().take_while(|c| c.is_ascii_digit()).count();
                if digits <= 9 && matches!(chars.get(digits), Some('.' | ')')) && after(digits + 1)
                {
                    escape_at = Some(digits);
                }
            }
            _ => {}
        }
    }
    let mut prev = prev;
    for (i, &c) in chars.iter().enumerate() {
        let next = chars.get(i + 1).copied();
        let escape = Some(i) == escape_at
            || match c {
                '\\' | '*' | '`' | '[' | ']' | '~' => true,
                '_' => {
                    !(prev.is_some_and(char::is_alphanumeric)
                        && next.is_some_and(char::is_alphanumeric))
                }
                '<' => next.is_some_and(|n| n.is_ascii_alphabetic() || "/!?".contains(n)),
                '&' => is_entity(&chars[i + 1..]),
                _ => false,
            };
        if escape {
            out.push('\\');
        }
        out.push(c);
        prev = Some(c);
    }
}

/// A markdown list item linking `text` to `href`, escaped like every other link this writer
/// produces (used for Crunch's retained links after the content).
pub fn link_item(text: &str, href: &str) -> String {
    let mut t = String::new();
    if !text.is_empty() {
        escape_text(&mut t, text, None, false);
    }
    format!("- [{t}]({})\n", destination(href))
}

/// Does the text after an `&` read as an HTML entity (`amp;`, `#38;`, `#x26;`)?
pub(super) fn is_entity(rest: &[char]) -> bool {
    let body = rest
        .iter()
        .take(32)
        .take_while(|c| c.is_ascii_alphanumeric() || **c == '#')
        .count();
    body > 0 && rest.get(body) == Some(&';')
}

/// A link or image destination: spaces and angle brackets percent-encoded, parentheses
/// escaped, so it never ends early.
pub(super) fn destination(url: &str) -> String {
    let mut o = String::with_capacity(url.len());
    for c in url.chars() {
        match c {
            ' ' => o.push_str("%20"),
            '<' => o.push_str("%3C"),
            '>' => o.push_str("%3E"),
            '\n' | '\r' | '\t' => {}
            '(' | ')' | '\\' => {
                o.push('\\');
                o.push(c);
            }
            _ => o.push(c),
        }
    }
    o
}

/// A backtick run longer than any inside `s` (at least `min`).
pub(super) fn fence(s: &str, min: usize) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in s.chars() {
        if c == '`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    "`".repeat(min.max(longest + 1))
}

/// Backtick delimiter for an inline code span: the shortest run length not found inside.
pub(super) fn code_span_delimiter(s: &str) -> String {
    let mut runs = Vec::new();
    let mut run = 0;
    for c in s.chars().chain(std::iter::once(' ')) {
        if c == '`' {
            run += 1;
        } else if run > 0 {
            runs.push(run);
            run = 0;
        }
    }
    let n = (1..).find(|n| !runs.contains(n)).unwrap_or(1);
    "`".repeat(n)
}

/// Prefix every line of `text`: `first` on the first line, `rest` on the others (empty
/// lines get `rest` without its trailing spaces).
pub(super) fn prefix_lines(text: &str, first: &str, rest: &str) -> String {
    let mut o = String::with_capacity(text.len() + 8);
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            o.push('\n');
        }
        let p = if i == 0 { first } else { rest };
        if line.is_empty() {
            o.push_str(p.trim_end());
        } else {
            o.push_str(p);
            o.push_str(line);
        }
    }
    o
}
