//! Decisions about what a page is, made without the browser: which URL schemes sightline
//! renders, whether a main document is HTML (from its headers and its first bytes), how much
//! text a page's HTML holds, and when a render lost so much of it that the page is rendered
//! again with JavaScript disabled.
//!
//! All functions here are pure; `tab.rs` feeds them the main document's headers and body
//! (Network.responseReceived and Network.getResponseBody) and `mod.rs` the HTML of file and byte inputs.

use sightline_core::snapshot::Snapshot;

/// The URL schemes sightline renders.
pub(crate) const SUPPORTED_SCHEMES: [&str; 5] = ["http", "https", "file", "data", "about"];

/// Check a URL given as input: it must parse and use a supported scheme. The error message
/// names the supported schemes.
pub(crate) fn check_url(url: &str) -> Result<(), String> {
    let parsed = url::Url::parse(url).map_err(|e| format!("not a valid URL: {e}"))?;
    let scheme = parsed.scheme();
    if SUPPORTED_SCHEMES.contains(&scheme) {
        Ok(())
    } else {
        Err(format!(
            "unsupported URL scheme `{scheme}:`; sightline renders {} URLs",
            SUPPORTED_SCHEMES.join(", ")
        ))
    }
}

/// Why a main document with these response headers is not a page to extract, or `None` when
/// it may be one (HTML, XHTML, XML or other text, or no Content-Type: then the body decides).
pub(crate) fn header_problem<'a>(
    headers: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Option<String> {
    let mut content_type = None;
    for (name, value) in headers {
        if name.eq_ignore_ascii_case("content-disposition")
            && value
                .trim_start()
                .to_ascii_lowercase()
                .starts_with("attachment")
        {
            return Some(format!(
                "a download (Content-Disposition: {})",
                value.trim()
            ));
        }
        if name.eq_ignore_ascii_case("content-type") {
            content_type = Some(value);
        }
    }
    let essence = content_type?
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    let textual = essence.is_empty()
        || essence.starts_with("text/")
        || essence == "application/xhtml+xml"
        || essence == "application/xml"
        || (essence.ends_with("+xml") && !essence.starts_with("image/"));
    (!textual).then(|| format!("Content-Type {essence}"))
}

/// How a main document's headers name a PDF: `Some(true)` when its Content-Type is a PDF's,
/// `Some(false)` when it is a generic binary type (or a download) that may hold one (its first
/// bytes decide, [`is_pdf`]), `None` otherwise.
pub(crate) fn pdf_hint<'a>(headers: impl IntoIterator<Item = (&'a str, &'a str)>) -> Option<bool> {
    let mut attachment = false;
    let mut essence = String::new();
    for (name, value) in headers {
        if name.eq_ignore_ascii_case("content-disposition") {
            attachment = value
                .trim_start()
                .to_ascii_lowercase()
                .starts_with("attachment");
        }
        if name.eq_ignore_ascii_case("content-type") {
            essence = value
                .split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase();
        }
    }
    match essence.as_str() {
        "application/pdf" | "application/x-pdf" | "application/acrobat" => Some(true),
        "application/octet-stream"
        | "binary/octet-stream"
        | "application/download"
        | "application/x-download"
        | "application/force-download"
        | "" => Some(false),
        _ if attachment => Some(false),
        _ => None,
    }
}

/// How far into a file the `%PDF-` signature may start (readers accept leading bytes; the
/// PDF 1.7 implementation notes name 1024).
const PDF_SIGNATURE_WITHIN: usize = 1024;

/// Whether `body` is a PDF: `%PDF-` within its first bytes.
pub(crate) fn is_pdf(body: &[u8]) -> bool {
    body[..body.len().min(PDF_SIGNATURE_WITHIN)]
        .windows(5)
        .any(|w| w == b"%PDF-")
}

/// The `charset` parameter of the Content-Type among `headers`.
pub(crate) fn header_charset<'a>(
    headers: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Option<String> {
    headers
        .into_iter()
        .filter(|(n, _)| n.eq_ignore_ascii_case("content-type"))
        .find_map(|(_, v)| {
            v.split(';').skip(1).find_map(|p| {
                let (k, val) = p.split_once('=')?;
                k.trim()
                    .eq_ignore_ascii_case("charset")
                    .then(|| val.trim().trim_matches('"').to_string())
            })
        })
}

/// How many leading bytes the binary sniff reads.
const SNIFF_BYTES: usize = 4096;

/// Share of control bytes (other than tab, newline, form feed, carriage return and escape)
/// above which a body is binary. Text in any ASCII-compatible charset has none; random bytes
/// have about 9% (23 of 256 values).
const MAX_CONTROL_SHARE: f64 = 0.02;

/// Share of U+FFFD in a body delivered as text above which it is binary that was decoded
/// as text.
const MAX_REPLACEMENT_SHARE: f64 = 0.25;

/// Why a body is not HTML, from its first bytes: a known binary signature (PDF, images,
/// archives, executables), or many control bytes. UTF-16 text (with a byte-order mark) is
/// text.
pub(crate) fn sniff_binary(body: &[u8]) -> Option<String> {
    let start = body
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(body.len());
    let head = &body[start..body.len().min(start + SNIFF_BYTES)];
    const SIGNATURES: [(&[u8], &str); 10] = [
        (b"%PDF-", "a PDF document"),
        (b"\x89PNG\r\n\x1a\n", "a PNG image"),
        (b"GIF87a", "a GIF image"),
        (b"GIF89a", "a GIF image"),
        (b"\xff\xd8\xff", "a JPEG image"),
        (b"PK\x03\x04", "a ZIP archive"),
        (b"\x1f\x8b", "gzip data"),
        (b"\x7fELF", "an executable"),
        (b"%!PS", "a PostScript document"),
        (b"\xd0\xcf\x11\xe0", "an Office document"),
    ];
    for (sig, what) in SIGNATURES {
        if head.starts_with(sig) {
            return Some(format!("the body is {what}"));
        }
    }
    if head.len() >= 12 && &head[..4] == b"RIFF" && &head[8..12] == b"WEBP" {
        return Some("the body is a WebP image".into());
    }
    if head.starts_with(b"\xff\xfe") || head.starts_with(b"\xfe\xff") || head.is_empty() {
        return None;
    }
    let control = head
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r' | 0x1b))
        .count();
    if control as f64 > head.len() as f64 * MAX_CONTROL_SHARE {
        return Some(format!(
            "the body is binary ({} of its first {} bytes are control bytes)",
            control,
            head.len()
        ));
    }
    // Binary that was decoded as text once already (and saved as UTF-8): mostly U+FFFD.
    let replacement = head.windows(3).filter(|w| w == b"\xef\xbf\xbd").count();
    let chars = String::from_utf8_lossy(head).chars().count();
    if replacement as f64 > chars as f64 * MAX_REPLACEMENT_SHARE {
        return Some("the body is binary data decoded as text (mostly U+FFFD)".into());
    }
    None
}

/// Decode HTML bytes with `charset` (a WHATWG label; UTF-8 when absent or unknown).
pub(crate) fn decode(bytes: &[u8], charset: Option<&str>) -> String {
    let enc = charset
        .and_then(|c| encoding_rs::Encoding::for_label(c.as_bytes()))
        .unwrap_or(encoding_rs::UTF_8);
    enc.decode(bytes).0.into_owned()
}

/// Non-whitespace characters of text in an HTML document, counted by stripping tags: the
/// contents of `script`, `style`, `template` and comments are skipped; `noscript` and hidden
/// elements count (this is what the HTML holds, not what a browser shows).
pub(crate) fn html_text_chars(html: &str) -> usize {
    let lower = html.to_ascii_lowercase();
    let b = lower.as_bytes();
    let mut i = 0;
    let mut n = 0;
    while i < b.len() {
        if b[i] == b'<' {
            if lower[i..].starts_with("<!--") {
                i = lower[i + 4..]
                    .find("-->")
                    .map_or(b.len(), |p| i + 4 + p + 3);
                continue;
            }
            let name: String = lower[i + 1..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect();
            let Some(end) = lower[i..].find('>') else {
                break;
            };
            i += end + 1;
            if matches!(name.as_str(), "script" | "style" | "template") {
                let close = format!("</{name}");
                i = lower[i..].find(&close).map_or(b.len(), |p| i + p);
            }
            continue;
        }
        let next = lower[i..].find('<').map_or(b.len(), |p| i + p);
        n += html[i..next].chars().filter(|c| !c.is_whitespace()).count();
        i = next;
    }
    n
}

/// Non-whitespace characters of the snapshot's text nodes (what the render shows).
pub(crate) fn snapshot_text_chars(snap: &Snapshot) -> usize {
    snap.nodes
        .iter()
        .filter_map(|n| n.text.as_deref())
        .map(|t| t.chars().filter(|c| !c.is_whitespace()).count())
        .sum()
}

/// HTTP error statuses walls answer with (a login's or a proof-of-work challenge's 401, a
/// block's 403, AWS WAF's captcha's 405, ModSecurity's 406, a rate limit's 429, a
/// challenge's 503): a main document with one is rendered, so that the wall can be named,
/// and is an `http` error only when none is recognised.
pub(crate) const WALL_STATUSES: &[i64] = &[401, 403, 405, 406, 429, 503];

/// The HTML must hold at least this many characters of text for a render to count as lossy.
pub(crate) const FALLBACK_MIN_HTML_CHARS: usize = 500;

/// A render is lossy when it shows less than this share of the HTML's text.
pub(crate) const FALLBACK_MAX_SHARE: f64 = 0.2;

/// Should a page whose render shows `rendered` characters of text, from HTML holding `html`,
/// be rendered again with JavaScript disabled? (A script-built wall replaced the article, or
/// the script that inserts the article never ran and only `<noscript>` holds it.)
pub(crate) fn needs_js_fallback(rendered: usize, html: usize) -> bool {
    html >= FALLBACK_MIN_HTML_CHARS && (rendered as f64) < html as f64 * FALLBACK_MAX_SHARE
}

/// Is the render without JavaScript (`nojs` characters of text) better than the one with it
/// (`js`)? It must show at least twice as much text, so that a page whose scripts merely hide
/// menus keeps its JavaScript render.
pub(crate) fn fallback_is_better(js: usize, nojs: usize) -> bool {
    nojs > js.saturating_mul(2) && nojs > 0
}

#[cfg(test)]
mod tests {
    #[test]
    fn pdfs_by_type_and_by_signature() {
        use super::{is_pdf, pdf_hint};
        assert_eq!(pdf_hint([("Content-Type", "application/pdf")]), Some(true));
        assert_eq!(
            pdf_hint([("content-type", "application/octet-stream")]),
            Some(false)
        );
        assert_eq!(
            pdf_hint([
                ("content-type", "application/zip"),
                ("content-disposition", "attachment; filename=a.pdf")
            ]),
            Some(false)
        );
        assert_eq!(pdf_hint([("content-type", "image/png")]), None);
        assert!(is_pdf(b"%PDF-1.7\n..."));
        assert!(is_pdf(b"\xef\xbb\xbf%PDF-1.4"));
        assert!(!is_pdf(b"<html>%PDF-"[..4].as_ref()));
    }

    use super::*;

    #[test]
    fn schemes() {
        assert!(check_url("https://example.com/").is_ok());
        assert!(check_url("data:text/html,<p>x").is_ok());
        assert!(check_url("about:blank").is_ok());
        assert!(check_url("file:///tmp/x.html").is_ok());
        let e = check_url("ftp://x").unwrap_err();
        assert!(
            e.contains("`ftp:`") && e.contains("http, https, file, data, about"),
            "{e}"
        );
        assert!(check_url("http://").is_err());
    }

    #[test]
    fn headers() {
        assert_eq!(
            header_problem([("Content-Type", "text/html; charset=utf-8")]),
            None
        );
        assert_eq!(
            header_problem([("content-type", "application/xhtml+xml")]),
            None
        );
        assert_eq!(header_problem([("x", "y")]), None);
        assert_eq!(
            header_problem([("Content-Type", "application/pdf")]).as_deref(),
            Some("Content-Type application/pdf")
        );
        assert!(header_problem([("Content-Type", "image/svg+xml")]).is_some());
        assert!(header_problem([
            ("Content-Type", "text/html"),
            ("Content-Disposition", "attachment; filename=a.html")
        ])
        .unwrap()
        .contains("download"));
        assert_eq!(
            header_charset([("Content-Type", "text/html; charset=\"ISO-8859-1\"")]).as_deref(),
            Some("ISO-8859-1")
        );
    }

    #[test]
    fn sniffing() {
        assert!(sniff_binary(b"%PDF-1.4\n...").unwrap().contains("PDF"));
        assert!(sniff_binary(b"\x89PNG\r\n\x1a\n\0\0")
            .unwrap()
            .contains("PNG"));
        assert_eq!(sniff_binary(b"<!doctype html><p>caf\xe9</p>"), None);
        assert_eq!(sniff_binary("<p>日本語</p>".as_bytes()), None);
        assert_eq!(sniff_binary(b"\xff\xfe<\0h\0t\0m\0l\0>\0"), None);
        // Pseudo-random bytes.
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let noise: Vec<u8> = (0..200_000)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x >> 24) as u8
            })
            .collect();
        assert!(sniff_binary(&noise).unwrap().contains("binary"));
        let replaced = "\u{fffd}".repeat(100) + "<p>x</p>";
        assert!(sniff_binary(replaced.as_bytes()).is_some());
    }

    #[test]
    fn html_text() {
        let html = "<html><head><title>T</title><style>p{}</style>\
            <script>var a = '<p>no</p>';</script></head><body><!-- c -->\
            <p>Hello  world</p><script type=\"text/template\"><p>Tmpl</p></script>\
            <noscript><p>Shown</p></noscript></body></html>";
        assert_eq!(html_text_chars(html), "THelloworldShown".len());
        assert_eq!(decode(b"caf\xe9", Some("iso-8859-1")), "café");
    }

    #[test]
    fn fallback_rule() {
        assert!(needs_js_fallback(50, 5000));
        assert!(!needs_js_fallback(2000, 5000));
        assert!(!needs_js_fallback(0, 100));
        assert!(fallback_is_better(50, 4000));
        assert!(!fallback_is_better(1000, 1500));
    }
}
