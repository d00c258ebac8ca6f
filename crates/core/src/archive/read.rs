//! Reading WARC records back: from a `.warc.gz` (one gzip member a record, as every
//! modern tool writes), a plain `.warc`, or the WARCs stored inside a `.wacz`. The
//! [`Archive`] indexes the responses once (URL → where the record is) and reads a record
//! when replay asks for it; [`html_responses`] lists the HTML documents of a WARC
//! (`--input FILE.warc.gz`).

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// A response as the archive holds it, ready to answer a request with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArchivedResponse {
    pub status: i64,
    pub reason: String,
    /// Headers, minus the transfer and content encodings undone on `body`.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

/// An HTML document of a WARC: its URL and body (the `--input FILE.warc.gz` pages).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HtmlResponse {
    pub url: String,
    pub body: Vec<u8>,
    /// The charset of its Content-Type, if given.
    pub charset: Option<String>,
}

/// Where one record is: its offset in the archive's file, gzipped or not.
#[derive(Debug, Clone)]
struct Slot {
    offset: u64,
    gz: bool,
}

/// An archive opened for replay: every `response` record indexed by its URL (without the
/// fragment; the first record of a URL wins, as a browser's first fetch would).
#[derive(Debug)]
pub struct Archive {
    path: PathBuf,
    index: HashMap<String, Slot>,
    /// Records indexed.
    pub responses: usize,
}

/// The key a URL is indexed by: parsed and serialised again, without its fragment.
fn key(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut u) => {
            u.set_fragment(None);
            u.into()
        }
        Err(_) => url.split('#').next().unwrap_or(url).to_string(),
    }
}

impl Archive {
    /// Index `path` (`.warc.gz`, `.warc` or `.wacz`).
    pub fn open(path: &Path) -> Result<Archive, String> {
        let mut index = HashMap::new();
        let mut responses = 0;
        let sections = sections(path)?;
        for (offset, length) in sections {
            let mut f = File::open(path).map_err(|e| e.to_string())?;
            f.seek(SeekFrom::Start(offset)).map_err(|e| e.to_string())?;
            let r = Counting::new(BufReader::new(f.take(length)), offset);
            each_record(r, |at, gz, head, _| {
                if field(head, "WARC-Type").as_deref() == Some("response") {
                    if let Some(url) = field(head, "WARC-Target-URI") {
                        responses += 1;
                        index
                            .entry(key(url.trim_matches(['<', '>'])))
                            .or_insert(Slot { offset: at, gz });
                    }
                }
            })?;
        }
        Ok(Archive {
            path: path.to_path_buf(),
            index,
            responses,
        })
    }

    /// The archived response for `url`, if the archive has one.
    pub fn get(&self, url: &str) -> Option<ArchivedResponse> {
        let slot = self.index.get(&key(url))?;
        let mut f = File::open(&self.path).ok()?;
        f.seek(SeekFrom::Start(slot.offset)).ok()?;
        let mut r = BufReader::new(f);
        let rec = if slot.gz {
            let mut d = flate2::bufread::GzDecoder::new(&mut r);
            read_one(&mut d).ok()??
        } else {
            read_one(&mut r).ok()??
        };
        parse_http(&rec.1)
    }

    /// Does the archive hold a response for `url`?
    pub fn contains(&self, url: &str) -> bool {
        self.index.contains_key(&key(url))
    }
}

/// The HTML `response` records of a WARC (`.warc.gz` or `.warc`), in file order: status 200,
/// Content-Type `text/html` or `application/xhtml+xml`.
pub fn html_responses(path: &Path) -> Result<Vec<HtmlResponse>, String> {
    let mut out = Vec::new();
    for (offset, length) in sections(path)? {
        let mut f = File::open(path).map_err(|e| e.to_string())?;
        f.seek(SeekFrom::Start(offset)).map_err(|e| e.to_string())?;
        let r = Counting::new(BufReader::new(f.take(length)), offset);
        each_record(r, |_, _, head, block| {
            if field(head, "WARC-Type").as_deref() != Some("response") {
                return;
            }
            let Some(url) = field(head, "WARC-Target-URI") else {
                return;
            };
            let Some(resp) = parse_http(block) else {
                return;
            };
            let ct = resp
                .headers
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case("content-type"))
                .map(|(_, v)| v.to_ascii_lowercase())
                .unwrap_or_default();
            let html = ct.starts_with("text/html") || ct.starts_with("application/xhtml+xml");
            if resp.status == 200 && html {
                let charset = ct
                    .split(';')
                    .filter_map(|p| p.trim().strip_prefix("charset="))
                    .map(|c| c.trim_matches('"').to_string())
                    .next();
                out.push(HtmlResponse {
                    url: url.trim_matches(['<', '>']).to_string(),
                    body: resp.body,
                    charset,
                });
            }
        })?;
    }
    Ok(out)
}

/// The byte ranges of a file that hold WARC records: the whole file, or each `.warc` /
/// `.warc.gz` entry stored (not deflated) in a `.wacz` (a zip).
fn sections(path: &Path) -> Result<Vec<(u64, u64)>, String> {
    let len = std::fs::metadata(path).map_err(|e| e.to_string())?.len();
    let mut f = File::open(path).map_err(|e| e.to_string())?;
    let mut magic = [0u8; 4];
    let n = f.read(&mut magic).map_err(|e| e.to_string())?;
    if n == 4 && magic == *b"PK\x03\x04" {
        let entries = super::wacz::zip_entries(path)?;
        let warcs: Vec<(u64, u64)> = entries
            .into_iter()
            .filter(|e| e.name.starts_with("archive/") && (e.name.ends_with(".warc.gz") || e.name.ends_with(".warc")))
            .map(|e| {
                if e.stored {
                    Ok((e.data_offset, e.size))
                } else {
                    Err(format!(
                        "{}: {} is compressed inside the WACZ (WACZ stores its WARCs uncompressed): unzip it and replay the WARC",
                        path.display(),
                        e.name
                    ))
                }
            })
            .collect::<Result<_, _>>()?;
        if warcs.is_empty() {
            return Err(format!(
                "{}: a zip without archive/*.warc.gz: not a WACZ",
                path.display()
            ));
        }
        return Ok(warcs);
    }
    Ok(vec![(0, len)])
}

/// A `BufRead` that counts what it consumed (the offset of the next record).
struct Counting<R> {
    inner: R,
    pos: u64,
}

impl<R> Counting<R> {
    fn new(inner: R, pos: u64) -> Counting<R> {
        Counting { inner, pos }
    }
}

impl<R: BufRead> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.pos += n as u64;
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Counting<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        self.inner.fill_buf()
    }
    fn consume(&mut self, n: usize) {
        self.pos += n as u64;
        self.inner.consume(n);
    }
}

/// Call `f(offset, gzipped, header, block)` for every record of a section.
fn each_record<R: BufRead>(
    mut r: Counting<R>,
    mut f: impl FnMut(u64, bool, &str, &[u8]),
) -> Result<(), String> {
    loop {
        let at = r.pos;
        let buf = r.fill_buf().map_err(|e| e.to_string())?;
        if buf.is_empty() {
            return Ok(());
        }
        if buf.starts_with(&[0x1f, 0x8b]) {
            // One gzip member: usually one record (a whole file gzipped as one member holds
            // them all: each is read, the offset then is the member's).
            let mut d = flate2::bufread::GzDecoder::new(&mut r);
            while let Some((head, block)) =
                read_one(&mut d).map_err(|e| format!("at byte {at}: {e}"))?
            {
                f(at, true, &head, &block);
            }
        } else if buf.iter().all(|b| b.is_ascii_whitespace()) {
            let n = buf.len();
            r.consume(n);
        } else {
            match read_one(&mut r).map_err(|e| format!("at byte {at}: {e}"))? {
                Some((head, block)) => f(at, false, &head, &block),
                None => return Ok(()),
            }
        }
    }
}

/// One record from `r`: its header (the text up to the blank line) and its block; None at
/// the end. The two CRLFs after the block are read too.
fn read_one<R: Read>(r: &mut R) -> std::io::Result<Option<(String, Vec<u8>)>> {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    // Skip blank lines between records.
    loop {
        if r.read(&mut byte)? == 0 {
            return Ok(None);
        }
        if !byte[0].is_ascii_whitespace() {
            head.push(byte[0]);
            break;
        }
    }
    while !head.ends_with(b"\r\n\r\n") && !head.ends_with(b"\n\n") {
        if r.read(&mut byte)? == 0 {
            return Err(std::io::Error::other("a record header without its end"));
        }
        head.push(byte[0]);
        if head.len() > 1 << 20 {
            return Err(std::io::Error::other("a record header over 1 MiB"));
        }
    }
    let head = String::from_utf8_lossy(&head).into_owned();
    if !head.starts_with("WARC/") {
        return Err(std::io::Error::other(
            "not a WARC record (no WARC/ version line)",
        ));
    }
    let len: u64 = field(&head, "Content-Length")
        .and_then(|v| v.trim().parse().ok())
        .ok_or_else(|| std::io::Error::other("a record without Content-Length"))?;
    let mut block = Vec::new();
    r.take(len).read_to_end(&mut block)?;
    if (block.len() as u64) < len {
        return Err(std::io::Error::other("a record cut short"));
    }
    let mut tail = [0u8; 4];
    let _ = r.read_exact(&mut tail);
    Ok(Some((head, block)))
}

/// A named field of a record header (names are case-insensitive).
fn field(head: &str, name: &str) -> Option<String> {
    head.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.trim()
            .eq_ignore_ascii_case(name)
            .then(|| v.trim().to_string())
    })
}

/// An `application/http` response block: status line, headers, body (chunked transfer and
/// gzip/deflate content encodings undone, their headers dropped).
pub(super) fn parse_http(block: &[u8]) -> Option<ArchivedResponse> {
    let end = block
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|p| (p, p + 4))
        .or_else(|| {
            block
                .windows(2)
                .position(|w| w == b"\n\n")
                .map(|p| (p, p + 2))
        })?;
    let head = String::from_utf8_lossy(&block[..end.0]);
    let mut lines = head.lines();
    let status_line = lines.next()?;
    let mut parts = status_line.splitn(3, ' ');
    if !parts.next()?.starts_with("HTTP/") {
        return None;
    }
    let status: i64 = parts.next()?.trim().parse().ok()?;
    let reason = parts.next().unwrap_or("").trim().to_string();
    let mut headers: Vec<(String, String)> = lines
        .filter_map(|l| {
            let (k, v) = l.split_once(':')?;
            Some((k.trim().to_string(), v.trim().to_string()))
        })
        .collect();
    let mut body = block[end.1..].to_vec();
    let get = |h: &[(String, String)], n: &str| {
        h.iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(n))
            .map(|(_, v)| v.to_ascii_lowercase())
    };
    if get(&headers, "transfer-encoding").is_some_and(|v| v.contains("chunked")) {
        if let Some(b) = dechunk(&body) {
            body = b;
        }
        headers.retain(|(k, _)| !k.eq_ignore_ascii_case("transfer-encoding"));
    }
    match get(&headers, "content-encoding").as_deref() {
        Some("gzip" | "x-gzip") => {
            let mut out = Vec::new();
            if flate2::read::MultiGzDecoder::new(&body[..])
                .read_to_end(&mut out)
                .is_ok()
            {
                body = out;
                headers.retain(|(k, _)| !k.eq_ignore_ascii_case("content-encoding"));
            }
        }
        Some("deflate") => {
            let mut out = Vec::new();
            if flate2::read::ZlibDecoder::new(&body[..])
                .read_to_end(&mut out)
                .is_ok()
            {
                body = out;
                headers.retain(|(k, _)| !k.eq_ignore_ascii_case("content-encoding"));
            }
        }
        _ => {}
    }
    headers.retain(|(k, _)| !k.eq_ignore_ascii_case("content-length"));
    headers.push(("Content-Length".into(), body.len().to_string()));
    Some(ArchivedResponse {
        status,
        reason,
        headers,
        body,
    })
}

/// A chunked body, joined; None when it is not well formed.
fn dechunk(mut b: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    loop {
        let nl = b.windows(2).position(|w| w == b"\r\n")?;
        let size_text = std::str::from_utf8(&b[..nl]).ok()?;
        let size = usize::from_str_radix(size_text.split(';').next()?.trim(), 16).ok()?;
        b = &b[nl + 2..];
        if size == 0 {
            return Some(out);
        }
        out.extend_from_slice(b.get(..size)?);
        b = b.get(size + 2..)?;
    }
}
