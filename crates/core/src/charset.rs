//! Charset facts about raw page bytes, shared by the renderer (`render::checks`) and the
//! benchmark reader (`eval::bench`), so the pure part of the crate needs no renderer.

/// Bytes that are valid UTF-8 and hold non-ASCII text. Legacy encodings practically never
/// give such bytes, so a page whose bytes are this and which declares another charset was
/// converted to UTF-8 and kept its old declaration (read as declared, it shows mojibake).
pub fn is_utf8_text(bytes: &[u8]) -> bool {
    !bytes.is_ascii() && std::str::from_utf8(bytes).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_text_is_valid_utf8_with_non_ascii() {
        assert!(is_utf8_text("Grüße, 新电脑".as_bytes()));
        assert!(!is_utf8_text(b"plain ascii"));
        assert!(!is_utf8_text(b"caf\xe9"));
        assert!(!is_utf8_text(b"\xd0\xc2\xb5\xe7"));
    }
}
