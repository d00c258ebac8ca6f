//! Web archives, pure: what a browser fetched for a page as WARC/1.1 records (ISO 28500), each
//! record its own gzip member, with the conventions Browsertrix and ArchiveWeb.page write; the
//! reader and index that replay answers from; and WACZ 1.1 packages.
//!
//! - `warc`: one record's header and block, its digests (SHA-1 in base32, as warcio and
//!   Browsertrix write them), gzip per record; the HTTP request and response blocks.
//! - `read`: reading records back (`.warc.gz`, `.warc`): the URL index replay answers from,
//!   the HTML responses `--input FILE.warc.gz` renders.
//! - `wacz`: the WACZ 1.1 package (stored zip: `archive/data.warc.gz`, `indexes/index.cdxj`,
//!   `pages/pages.jsonl`, `datapackage.json`, `datapackage-digest.json`) and CDXJ lines.
//!
//! A page's records ([`page_records`]): for each exchange, a `request` and a `response`
//! record tied by `WARC-Concurrent-To`; then `resource` records tied to the page's URL:
//! `urn:text:<url>` (the extracted text, `text/plain`), `urn:fullPage:<url>` (the
//! full-page screenshot, `image/png`), and a `metadata` record for the page's URL holding
//! sightline's JSON record (`application/json`), referring to the page's response.

mod read;
mod wacz;
mod warc;

#[cfg(test)]
mod tests;

pub use read::{html_responses, Archive, ArchivedResponse, HtmlResponse};
pub use wacz::{cdxj_line, surt, PageEntry, Wacz};
pub use warc::{warc_date, Digest, WarcRecord};

use std::time::SystemTime;

/// One HTTP exchange the browser made: the request as it was sent and the response as it
/// came, with the body the browser received (decoded: content and transfer encodings are
/// undone, so the archived headers drop them).
#[derive(Debug, Clone, Default)]
pub struct Exchange {
    /// The request's URL.
    pub url: String,
    /// GET, POST, ...
    pub method: String,
    /// The request headers the browser sent (as CDP reports them).
    pub request_headers: Vec<(String, String)>,
    /// The request body (POST data), if any.
    pub request_body: Option<Vec<u8>>,
    /// The response's status code.
    pub status: i64,
    /// The status line's reason phrase (empty: the standard one for the code).
    pub status_text: String,
    /// The response headers (a header CDP joined with `\n` is one entry per value).
    pub response_headers: Vec<(String, String)>,
    /// The response body as the browser received it (empty for a redirect).
    pub body: Vec<u8>,
    /// When the response came.
    pub time: Option<SystemTime>,
}

/// What one page leaves in an archive: its exchanges and what sightline made of it.
#[derive(Debug, Clone, Default)]
pub struct PageCapture {
    /// The page's URL (the main document's, after redirects).
    pub url: String,
    /// When the page was rendered.
    pub time: Option<SystemTime>,
    /// Every exchange of the page, in the order the responses came.
    pub exchanges: Vec<Exchange>,
    /// The extracted text (`urn:text:<url>`), when something was extracted.
    pub text: Option<String>,
    /// sightline's JSON record of the page (a `metadata` record).
    pub record_json: Option<String>,
    /// The full-page screenshot, PNG (`urn:fullPage:<url>`).
    pub screenshot: Option<Vec<u8>>,
}

/// Where a record sits in the file its page was appended to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexEntry {
    /// The record's target URI.
    pub url: String,
    /// WARC-Date as 14 digits (CDXJ's timestamp).
    pub timestamp: String,
    /// The response's Content-Type without parameters (`resource`: the record's).
    pub mime: String,
    /// The HTTP status (None for resource records).
    pub status: Option<i64>,
    /// `sha1:<base32>` of the payload.
    pub digest: String,
    /// Offset of the record's gzip member from the start of the page's bytes.
    pub offset: u64,
    /// The gzip member's length.
    pub length: u64,
}

/// A page's records, gzipped one by one and concatenated, and the index of its response
/// and resource records (offsets relative to the start of `bytes`).
#[derive(Debug, Clone, Default)]
pub struct PageRecords {
    pub bytes: Vec<u8>,
    pub index: Vec<IndexEntry>,
}

/// The `warcinfo` record that starts a file: the software and the format.
pub fn warcinfo(filename: &str, software: &str, time: SystemTime) -> std::io::Result<Vec<u8>> {
    let fields = format!(
        "software: {software}\r\nformat: WARC File Format 1.1\r\nconformsTo: http://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/\r\n"
    );
    let mut r = WarcRecord::new("warcinfo", None, time);
    r.header("WARC-Filename", filename);
    r.content_type = Some("application/warc-fields".into());
    r.block = fields.into_bytes();
    r.gzipped()
}

/// Every record of one page, in order ([module docs](self)), ready to append.
pub fn page_records(page: &PageCapture) -> std::io::Result<PageRecords> {
    let mut out = PageRecords::default();
    let page_time = page.time.unwrap_or(SystemTime::UNIX_EPOCH);
    let mut page_response: Option<String> = None;
    for x in &page.exchanges {
        let time = x.time.unwrap_or(page_time);
        let mut resp = WarcRecord::new("response", Some(&x.url), time);
        resp.content_type = Some("application/http; msgtype=response".into());
        let (block, payload_at) = warc::response_block(x);
        resp.block = block;
        resp.payload_at = Some(payload_at);
        let mut req = WarcRecord::new("request", Some(&x.url), time);
        req.content_type = Some("application/http; msgtype=request".into());
        req.block = warc::request_block(x);
        req.header("WARC-Concurrent-To", &resp.id);
        if page_response.is_none() && same_url(&x.url, &page.url) && !(300..400).contains(&x.status)
        {
            page_response = Some(resp.id.clone());
        }
        let mime = x
            .response_headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("content-type"))
            .map(|(_, v)| {
                v.split(';')
                    .next()
                    .unwrap_or("")
                    .trim()
                    .to_ascii_lowercase()
            })
            .unwrap_or_else(|| "unk".into());
        push(&mut out, resp, Some((mime, Some(x.status))))?;
        push(&mut out, req, None)?;
    }
    if let Some(text) = &page.text {
        let mut r = WarcRecord::new(
            "resource",
            Some(&format!("urn:text:{}", page.url)),
            page_time,
        );
        r.content_type = Some("text/plain; charset=utf-8".into());
        r.block = text.clone().into_bytes();
        r.payload_at = Some(0);
        push(&mut out, r, Some(("text/plain".into(), None)))?;
    }
    if let Some(png) = &page.screenshot {
        let mut r = WarcRecord::new(
            "resource",
            Some(&format!("urn:fullPage:{}", page.url)),
            page_time,
        );
        r.content_type = Some("image/png".into());
        r.block = png.clone();
        r.payload_at = Some(0);
        push(&mut out, r, Some(("image/png".into(), None)))?;
    }
    if let Some(json) = &page.record_json {
        let mut r = WarcRecord::new("metadata", Some(&page.url), page_time);
        r.content_type = Some("application/json".into());
        if let Some(id) = &page_response {
            r.header("WARC-Refers-To", id);
        }
        r.block = json.clone().into_bytes();
        push(&mut out, r, None)?;
    }
    Ok(out)
}

/// Append one record; an index entry when `mime` (and the status) are given.
fn push(
    out: &mut PageRecords,
    r: WarcRecord,
    indexed: Option<(String, Option<i64>)>,
) -> std::io::Result<()> {
    let bytes = r.gzipped()?;
    if let Some((mime, status)) = indexed {
        out.index.push(IndexEntry {
            url: r.target.clone().unwrap_or_default(),
            timestamp: warc::timestamp14(r.time),
            mime,
            status,
            digest: r.payload_digest().unwrap_or_else(|| r.block_digest()).0,
            offset: out.bytes.len() as u64,
            length: bytes.len() as u64,
        });
    }
    out.bytes.extend_from_slice(&bytes);
    Ok(())
}

/// Two URLs the same but for their fragment.
fn same_url(a: &str, b: &str) -> bool {
    a.split('#').next() == b.split('#').next()
}
