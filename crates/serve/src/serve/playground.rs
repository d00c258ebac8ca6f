//! `GET /`: the playground, one self-contained page (`crates/serve/playground/index.html`,
//! its script and style inline, no request of its own beyond the public API) that shows what
//! sightline saw and decided: the screenshot with each text unit coloured by its `learned`
//! probability, the text, the record, the wall or error, the timings.
//!
//! The page is served to anyone who can reach the service: a browser cannot send a bearer
//! token when it opens a URL, and the page holds nothing but itself. What it does goes through
//! the API: it sends `Authorization: Bearer <token>` on every `/extract` and `/score` call,
//! asking for the token when the service requires one (the page is told so by a `<meta>`).
//!
//! Its Content-Security-Policy allows only its own inline script and style (by SHA-256),
//! `data:`/`blob:` images (the screenshot), and connections to its own origin.

use std::sync::{Arc, LazyLock};

use axum::extract::State;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use base64::Engine;
use sha2::{Digest, Sha256};

use super::AppState;

/// The page, as the repository holds it.
pub const PAGE: &str = include_str!("../../playground/index.html");

/// The `<meta>` the page reads to know whether the service requires a token.
const TOKEN_META: &str = r#"<meta name="sightline-token" content="optional">"#;

/// The page's Content-Security-Policy: its inline script and style by hash, nothing else.
pub static CSP: LazyLock<String> = LazyLock::new(|| {
    let hashes = |tag: &str| -> String {
        inline_blocks(PAGE, tag)
            .into_iter()
            .map(|b| {
                let d = Sha256::digest(b.as_bytes());
                format!(
                    "'sha256-{}'",
                    base64::engine::general_purpose::STANDARD.encode(d)
                )
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    format!(
        "default-src 'none'; script-src {}; style-src {}; img-src data: blob:; \
         connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        hashes("script"),
        hashes("style")
    )
});

/// The contents of each `<tag>…</tag>` block of `html` (blocks without attributes).
fn inline_blocks<'a>(html: &'a str, tag: &str) -> Vec<&'a str> {
    let (open, close) = (format!("<{tag}>"), format!("</{tag}>"));
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(i) = rest.find(&open) {
        let body = &rest[i + open.len()..];
        let Some(j) = body.find(&close) else { break };
        out.push(&body[..j]);
        rest = &body[j + close.len()..];
    }
    out
}

/// `GET /`: the page, with the service's token requirement in its `<meta>`.
pub(super) async fn page(State(state): State<Arc<AppState>>) -> Response {
    let body = if state.cfg.token.is_some() {
        PAGE.replacen(
            TOKEN_META,
            r#"<meta name="sightline-token" content="required">"#,
            1,
        )
    } else {
        PAGE.to_string()
    };
    let mut r = ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], body).into_response();
    let h = r.headers_mut();
    if let Ok(v) = HeaderValue::from_str(&CSP) {
        h.insert(header::CONTENT_SECURITY_POLICY, v);
    }
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_is_one_small_file_with_one_script_and_one_style() {
        assert!(PAGE.len() < 200 * 1024, "{} bytes", PAGE.len());
        assert_eq!(inline_blocks(PAGE, "script").len(), 1);
        assert_eq!(inline_blocks(PAGE, "style").len(), 1);
        assert!(PAGE.contains(TOKEN_META));
        // Nothing is loaded from elsewhere.
        for bad in ["<script src", "<link", "@import", "url(http", "src=\"http"] {
            assert!(!PAGE.contains(bad), "{bad}");
        }
        assert!(CSP.contains("script-src 'sha256-"), "{}", *CSP);
    }

    #[test]
    fn blocks_are_found_in_order() {
        let h = "<style>a</style><script>b</script><script>c</script>";
        assert_eq!(inline_blocks(h, "script"), vec!["b", "c"]);
        assert_eq!(inline_blocks(h, "style"), vec!["a"]);
    }
}
