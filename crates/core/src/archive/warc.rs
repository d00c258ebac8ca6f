//! One WARC/1.1 record: its named fields, its block, its digests, gzipped as a member of its
//! own; and the HTTP request and response blocks of an [`Exchange`].

use std::io::Write;
use std::time::SystemTime;

use sha1::{Digest as _, Sha1};

use super::Exchange;

/// `sha1:<base32>`: the digest form warcio, Browsertrix and pywb write and check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Digest(pub String);

impl Digest {
    /// The SHA-1 of `bytes` in WARC's form.
    pub fn sha1(bytes: &[u8]) -> Digest {
        let h = Sha1::digest(bytes);
        Digest(format!("sha1:{}", data_encoding::BASE32.encode(&h)))
    }
}

/// One record before it is written.
#[derive(Debug, Clone)]
pub struct WarcRecord {
    /// WARC-Type: warcinfo, request, response, resource, metadata.
    pub kind: String,
    /// WARC-Record-ID, `<urn:uuid:...>`.
    pub id: String,
    /// WARC-Target-URI.
    pub target: Option<String>,
    /// WARC-Date.
    pub time: SystemTime,
    /// Content-Type of the block.
    pub content_type: Option<String>,
    /// Other named fields, in order.
    pub fields: Vec<(String, String)>,
    /// The block.
    pub block: Vec<u8>,
    /// Where the payload starts in the block (after the HTTP headers), for a
    /// WARC-Payload-Digest; None: no payload digest.
    pub payload_at: Option<usize>,
}

impl WarcRecord {
    /// A record of this type, with a fresh random id.
    pub fn new(kind: &str, target: Option<&str>, time: SystemTime) -> WarcRecord {
        WarcRecord {
            kind: kind.into(),
            id: format!("<urn:uuid:{}>", uuid::Uuid::new_v4()),
            target: target.map(str::to_string),
            time,
            content_type: None,
            fields: Vec::new(),
            block: Vec::new(),
            payload_at: None,
        }
    }

    /// Add a named field.
    pub fn header(&mut self, name: &str, value: &str) {
        self.fields.push((name.into(), one_line(value)));
    }

    /// The block's digest.
    pub fn block_digest(&self) -> Digest {
        Digest::sha1(&self.block)
    }

    /// The payload's digest (the block after its HTTP headers), when it has one.
    pub fn payload_digest(&self) -> Option<Digest> {
        self.payload_at
            .map(|at| Digest::sha1(self.block.get(at..).unwrap_or_default()))
    }

    /// The record as written, uncompressed: version line, fields, blank line, block, CRLF CRLF.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut h = String::from("WARC/1.1\r\n");
        let mut line = |k: &str, v: &str| {
            h.push_str(k);
            h.push_str(": ");
            h.push_str(v);
            h.push_str("\r\n");
        };
        line("WARC-Type", &self.kind);
        line("WARC-Record-ID", &self.id);
        line("WARC-Date", &warc_date(self.time));
        if let Some(t) = &self.target {
            line("WARC-Target-URI", &one_line(t));
        }
        for (k, v) in &self.fields {
            line(k, v);
        }
        if let Some(d) = self.payload_digest() {
            line("WARC-Payload-Digest", &d.0);
        }
        line("WARC-Block-Digest", &self.block_digest().0);
        if let Some(ct) = &self.content_type {
            line("Content-Type", ct);
        }
        line("Content-Length", &self.block.len().to_string());
        h.push_str("\r\n");
        let mut out = h.into_bytes();
        out.extend_from_slice(&self.block);
        out.extend_from_slice(b"\r\n\r\n");
        out
    }

    /// The record as one gzip member (what `.warc.gz` files are made of).
    pub fn gzipped(&self) -> std::io::Result<Vec<u8>> {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(&self.to_bytes())?;
        gz.finish()
    }
}

/// WARC-Date: ISO 8601 UTC with milliseconds (WARC/1.1 allows fractions of a second).
pub fn warc_date(t: SystemTime) -> String {
    let d: chrono::DateTime<chrono::Utc> = t.into();
    d.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
}

/// CDXJ's 14-digit timestamp.
pub(super) fn timestamp14(t: SystemTime) -> String {
    let d: chrono::DateTime<chrono::Utc> = t.into();
    d.format("%Y%m%d%H%M%S").to_string()
}

/// A field value on one line (CR and LF become spaces).
fn one_line(v: &str) -> String {
    v.replace(['\r', '\n'], " ")
}

/// Headers the archived response drops: the body is stored decoded, so its content and
/// transfer encodings no longer apply, and its length is the stored one.
const DROPPED_RESPONSE_HEADERS: [&str; 3] =
    ["content-encoding", "transfer-encoding", "content-length"];

/// The response block (`HTTP/1.1 <status> <reason>`, headers, blank line, body) and where the
/// body starts.
pub(super) fn response_block(x: &Exchange) -> (Vec<u8>, usize) {
    let reason = if x.status_text.is_empty() {
        reason_phrase(x.status)
    } else {
        x.status_text.as_str()
    };
    let mut h = format!("HTTP/1.1 {} {}\r\n", x.status, one_line(reason));
    for (k, v) in &x.response_headers {
        if DROPPED_RESPONSE_HEADERS.contains(&k.to_ascii_lowercase().as_str()) || k.starts_with(':')
        {
            continue;
        }
        for v in v.split('\n') {
            h.push_str(&format!("{}: {}\r\n", one_line(k), one_line(v)));
        }
    }
    h.push_str(&format!("Content-Length: {}\r\n\r\n", x.body.len()));
    let mut b = h.into_bytes();
    let at = b.len();
    b.extend_from_slice(&x.body);
    (b, at)
}

/// The request block: request line with the URL's path and query, `Host`, the headers the
/// browser sent, and the body.
pub(super) fn request_block(x: &Exchange) -> Vec<u8> {
    let (target, host) = match url::Url::parse(&x.url) {
        Ok(u) => {
            let mut t = u.path().to_string();
            if let Some(q) = u.query() {
                t.push('?');
                t.push_str(q);
            }
            let host = u.host_str().map(|h| match u.port() {
                Some(p) => format!("{h}:{p}"),
                None => h.to_string(),
            });
            (t, host)
        }
        Err(_) => (x.url.clone(), None),
    };
    let method = if x.method.is_empty() {
        "GET"
    } else {
        &x.method
    };
    let mut h = format!("{} {} HTTP/1.1\r\n", one_line(method), one_line(&target));
    let has_host = x
        .request_headers
        .iter()
        .any(|(k, _)| k.eq_ignore_ascii_case("host"));
    if let (Some(host), false) = (host, has_host) {
        h.push_str(&format!("Host: {host}\r\n"));
    }
    for (k, v) in &x.request_headers {
        if k.starts_with(':') {
            continue;
        }
        for v in v.split('\n') {
            h.push_str(&format!("{}: {}\r\n", one_line(k), one_line(v)));
        }
    }
    h.push_str("\r\n");
    let mut b = h.into_bytes();
    if let Some(body) = &x.request_body {
        b.extend_from_slice(body);
    }
    b
}

/// The standard reason phrase of a status (HTTP/2 responses have none of their own).
fn reason_phrase(status: i64) -> &'static str {
    match status {
        200 => "OK",
        201 => "Created",
        204 => "No Content",
        206 => "Partial Content",
        301 => "Moved Permanently",
        302 => "Found",
        303 => "See Other",
        304 => "Not Modified",
        307 => "Temporary Redirect",
        308 => "Permanent Redirect",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        410 => "Gone",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        _ => "Unknown",
    }
}
