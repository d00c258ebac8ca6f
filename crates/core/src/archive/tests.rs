//! The archive writers and reader: records, digests, the index replay reads, WACZ.

use std::io::Read;
use std::time::{Duration, SystemTime};

use super::*;

fn at() -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_millis(1_764_000_000_123)
}

fn exchange(url: &str, ct: &str, body: &[u8]) -> Exchange {
    Exchange {
        url: url.into(),
        method: "GET".into(),
        request_headers: vec![("Accept".into(), "*/*".into())],
        status: 200,
        response_headers: vec![
            ("Content-Type".into(), ct.into()),
            ("Content-Encoding".into(), "gzip".into()),
            ("Set-Cookie".into(), "a=1\nb=2".into()),
        ],
        body: body.to_vec(),
        time: Some(at()),
        ..Exchange::default()
    }
}

fn page() -> PageCapture {
    PageCapture {
        url: "http://127.0.0.1:8080/page.html".into(),
        time: Some(at()),
        exchanges: vec![
            exchange(
                "http://127.0.0.1:8080/page.html",
                "text/html; charset=utf-8",
                b"<p>Hi</p>",
            ),
            exchange(
                "http://127.0.0.1:8080/data.json?b=2&a=1",
                "application/json",
                b"{\"x\":1}",
            ),
        ],
        text: Some("Hi".into()),
        record_json: Some("{\"url\":\"x\"}".into()),
        screenshot: Some(b"\x89PNG".to_vec()),
    }
}

#[test]
fn a_record_has_its_fields_digests_and_crlfs() {
    let x = exchange("http://h.example/a?q=1", "text/html", b"body");
    let mut r = WarcRecord::new("response", Some(&x.url), at());
    let (block, at_) = warc::response_block(&x);
    r.block = block;
    r.payload_at = Some(at_);
    r.content_type = Some("application/http; msgtype=response".into());
    let text = String::from_utf8(r.to_bytes()).unwrap();
    assert!(text.starts_with("WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:"));
    assert!(
        text.contains("WARC-Date: 2025-11-24T16:00:00.123Z\r\n"),
        "{text}"
    );
    assert!(text.contains(&format!(
        "WARC-Payload-Digest: {}\r\n",
        Digest::sha1(b"body").0
    )));
    // SHA-1 of "body" in base32, as warcio writes it.
    assert_eq!(Digest::sha1(b"").0, "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ");
    // The body is stored decoded: its encoding and length headers are the stored body's.
    assert!(!text.to_ascii_lowercase().contains("content-encoding"));
    assert!(text.contains("HTTP/1.1 200 OK\r\n"));
    assert!(text.contains("Content-Length: 4\r\n\r\nbody\r\n\r\n"));
    assert!(text.contains("Set-Cookie: a=1\r\nSet-Cookie: b=2\r\n"));
    let req = warc::request_block(&x);
    assert!(String::from_utf8(req)
        .unwrap()
        .starts_with("GET /a?q=1 HTTP/1.1\r\nHost: h.example\r\nAccept: */*\r\n\r\n"));
}

#[test]
fn a_pages_records_are_gzip_members_that_read_back() {
    let recs = page_records(&page()).unwrap();
    // Two exchanges (response, request), text, screenshot, the JSON record.
    let mut all = String::new();
    let mut d = flate2::read::MultiGzDecoder::new(&recs.bytes[..]);
    let mut raw = Vec::new();
    d.read_to_end(&mut raw).unwrap();
    all.push_str(&String::from_utf8_lossy(&raw));
    let types: Vec<&str> = all
        .lines()
        .filter_map(|l| l.strip_prefix("WARC-Type: "))
        .collect();
    assert_eq!(
        types,
        ["response", "request", "response", "request", "resource", "resource", "metadata"]
    );
    assert!(all.contains("WARC-Target-URI: urn:text:http://127.0.0.1:8080/page.html"));
    assert!(all.contains("WARC-Target-URI: urn:fullPage:http://127.0.0.1:8080/page.html"));
    assert!(all.contains("WARC-Refers-To: <urn:uuid:"));
    // The index points at each member.
    assert_eq!(recs.index.len(), 4);
    for e in &recs.index {
        let member = &recs.bytes[e.offset as usize..(e.offset + e.length) as usize];
        let mut raw = Vec::new();
        flate2::read::GzDecoder::new(member)
            .read_to_end(&mut raw)
            .unwrap();
        let s = String::from_utf8_lossy(&raw);
        assert!(s.contains(&format!("WARC-Target-URI: {}\r\n", e.url)));
    }
    assert_eq!(recs.index[0].status, Some(200));
    assert_eq!(recs.index[0].mime, "text/html");

    // Written after a warcinfo record, the archive answers by URL.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.warc.gz");
    let mut file = warcinfo("a.warc.gz", "sightline test", at()).unwrap();
    file.extend_from_slice(&recs.bytes);
    std::fs::write(&path, &file).unwrap();
    let a = Archive::open(&path).unwrap();
    assert_eq!(a.responses, 2);
    let r = a
        .get("http://127.0.0.1:8080/data.json?b=2&a=1#frag")
        .unwrap();
    assert_eq!((r.status, r.body.as_slice()), (200, &b"{\"x\":1}"[..]));
    assert!(a.get("http://127.0.0.1:8080/missing.js").is_none());
    let html = html_responses(&path).unwrap();
    assert_eq!(html.len(), 1);
    assert_eq!(html[0].url, "http://127.0.0.1:8080/page.html");
    assert_eq!(html[0].charset.as_deref(), Some("utf-8"));

    // A WACZ of it replays too.
    let wacz = dir.path().join("a.wacz");
    let w = Wacz {
        pages: vec![PageEntry {
            id: "p1".into(),
            url: "http://127.0.0.1:8080/page.html".into(),
            title: "T".into(),
            ts: warc_date(at()),
            text: Some("Hi".into()),
        }],
        index: recs.index.clone(),
    };
    w.write(&path, &wacz, "sightline test", at()).unwrap();
    let a = Archive::open(&wacz).unwrap();
    assert_eq!(
        a.get("http://127.0.0.1:8080/page.html").unwrap().body,
        b"<p>Hi</p>"
    );
}

#[test]
fn chunked_and_gzipped_archived_bodies_are_undone() {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gz, b"hello world").unwrap();
    let z = gz.finish().unwrap();
    let mut block = format!(
        "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n{:x}\r\n",
        z.len()
    )
    .into_bytes();
    block.extend_from_slice(&z);
    block.extend_from_slice(b"\r\n0\r\n\r\n");
    let r = read::parse_http(&block).unwrap();
    assert_eq!(r.body, b"hello world");
    assert!(r.headers.iter().all(|(k, _)| k != "Content-Encoding"));
}

#[test]
fn surt_and_cdxj() {
    assert_eq!(
        surt("https://www.Example.com/A/b?z=1&a=2"),
        "com,example)/a/b?a=2&z=1"
    );
    assert_eq!(surt("http://127.0.0.1:8080/x"), "127.0.0.1:8080)/x");
    let e = IndexEntry {
        url: "http://example.com/".into(),
        timestamp: "20251124160000".into(),
        mime: "text/html".into(),
        status: Some(200),
        digest: "sha1:X".into(),
        offset: 10,
        length: 20,
    };
    assert_eq!(
        cdxj_line(&e, "data.warc.gz"),
        "com,example)/ 20251124160000 {\"url\":\"http://example.com/\",\"mime\":\"text/html\",\"status\":\"200\",\"digest\":\"sha1:X\",\"length\":\"20\",\"offset\":\"10\",\"filename\":\"data.warc.gz\"}"
    );
}
