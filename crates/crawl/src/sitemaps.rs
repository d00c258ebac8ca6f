//! Sitemaps (sitemaps.org: `<urlset>`, `<sitemapindex>`, plain-text lists, gzip) and feeds
//! (RSS 2.0 `<item><link>`, Atom `<entry><link href>`) read into the URLs they list, with
//! quick-xml. Pure: the bytes come from [`super::fetch`].

use std::io::Read;

use quick_xml::events::Event;

/// Bytes of one document at most after gunzip (sitemaps.org caps a sitemap at 50 MB).
pub(crate) const MAX_SITEMAP_BYTES: u64 = 50 << 20;

/// What a sitemap or feed lists.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Listing {
    /// Page URLs (`<urlset><url><loc>`, feed items' links, lines of a text sitemap).
    pub pages: Vec<String>,
    /// Further sitemaps (`<sitemapindex><sitemap><loc>`).
    pub sitemaps: Vec<String>,
    /// The document was a feed (RSS or Atom), not a sitemap.
    pub feed: bool,
}

/// Gunzip `bytes` when they start with gzip's magic number (a `.xml.gz` sitemap, or a
/// server that sent one without `Content-Encoding`), up to [`MAX_SITEMAP_BYTES`].
pub(crate) fn gunzip_if_needed(bytes: Vec<u8>) -> Vec<u8> {
    if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::new();
        let d = flate2::read::MultiGzDecoder::new(&bytes[..]);
        if d.take(MAX_SITEMAP_BYTES).read_to_end(&mut out).is_ok() {
            return out;
        }
    }
    bytes
}

/// The URLs a sitemap, sitemap index or feed lists (gzip or not). A document that is not
/// XML is read as a text sitemap: one absolute URL a line.
pub(crate) fn parse(bytes: Vec<u8>) -> Listing {
    let bytes = gunzip_if_needed(bytes);
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(512)]).to_string();
    if !head.trim_start().starts_with('<') {
        return Listing {
            pages: String::from_utf8_lossy(&bytes)
                .lines()
                .map(str::trim)
                .filter(|l| l.starts_with("http://") || l.starts_with("https://"))
                .map(str::to_string)
                .collect(),
            ..Listing::default()
        };
    }
    let mut reader = quick_xml::Reader::from_reader(&bytes[..]);
    reader.config_mut().trim_text(true);
    let mut out = Listing::default();
    let mut stack: Vec<Vec<u8>> = Vec::new();
    let mut buf = Vec::new();
    let mut text = String::new();
    loop {
        match reader.read_event_into(&mut buf) {
            Ok(Event::Start(e)) => {
                let name = e.local_name().as_ref().to_ascii_lowercase();
                if matches!(name.as_slice(), b"rss" | b"feed" | b"rdf") {
                    out.feed = true;
                }
                text.clear();
                stack.push(name);
            }
            Ok(Event::Empty(e)) => {
                // Atom: <entry><link rel="alternate" href="..."/></entry>
                let in_entry = stack.last().is_some_and(|p| p == b"entry");
                if e.local_name().as_ref().eq_ignore_ascii_case(b"link") && in_entry {
                    let mut href = None;
                    let mut rel = None;
                    for a in e.attributes().flatten() {
                        let v = a.unescape_value().map(|v| v.into_owned()).ok();
                        match a.key.local_name().as_ref() {
                            b"href" => href = v,
                            b"rel" => rel = v,
                            _ => {}
                        }
                    }
                    if let (Some(h), true) = (href, rel.as_deref().is_none_or(|r| r == "alternate"))
                    {
                        out.pages.push(h);
                    }
                }
            }
            Ok(Event::Text(t)) => {
                if let Ok(s) = t.unescape() {
                    text.push_str(&s);
                }
            }
            Ok(Event::CData(c)) => text.push_str(&String::from_utf8_lossy(&c)),
            Ok(Event::End(_)) => {
                let name = stack.pop().unwrap_or_default();
                let parent = stack.last().map(Vec::as_slice).unwrap_or(b"");
                let value = text.trim().to_string();
                text.clear();
                if value.is_empty() {
                    continue;
                }
                match (name.as_slice(), parent) {
                    (b"loc", b"url") => out.pages.push(value),
                    (b"loc", b"sitemap") => out.sitemaps.push(value),
                    (b"link", b"item") => out.pages.push(value),
                    _ => {}
                }
            }
            Ok(Event::Eof) | Err(_) => break,
            _ => {}
        }
        buf.clear();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn urlsets_indexes_feeds_and_gzip() {
        let set = r#"<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
            <url><loc> https://e.example/a </loc><lastmod>2024-01-01</lastmod></url>
            <url><loc>https://e.example/b?x=1&amp;y=2</loc></url></urlset>"#;
        let l = parse(set.as_bytes().to_vec());
        assert_eq!(
            l.pages,
            vec!["https://e.example/a", "https://e.example/b?x=1&y=2"]
        );
        assert!(!l.feed);
        let index = r#"<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
            <sitemap><loc>https://e.example/s1.xml.gz</loc></sitemap></sitemapindex>"#;
        assert_eq!(
            parse(index.into()).sitemaps,
            vec!["https://e.example/s1.xml.gz"]
        );
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(set.as_bytes()).unwrap();
        assert_eq!(parse(gz.finish().unwrap()).pages.len(), 2);
        let rss = r#"<rss version="2.0"><channel><link>https://e.example/</link>
            <item><title>T</title><link>https://e.example/post</link></item></channel></rss>"#;
        let l = parse(rss.into());
        assert!(l.feed);
        assert_eq!(l.pages, vec!["https://e.example/post"]);
        let atom = r#"<feed xmlns="http://www.w3.org/2005/Atom"><link href="https://e.example/"/>
            <entry><link rel="alternate" href="https://e.example/atom-post"/></entry></feed>"#;
        assert_eq!(
            parse(atom.into()).pages,
            vec!["https://e.example/atom-post"]
        );
        let text = "https://e.example/t1\n\nhttps://e.example/t2\n";
        assert_eq!(parse(text.into()).pages.len(), 2);
    }
}
