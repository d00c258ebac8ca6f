//! Capture and replay in real Chromium (`Options::warc`, `Options::wacz`, `Options::replay`,
//! `--input FILE.warc.gz`): `fixtures/capture-fetch/` (an article that arrives by `fetch()`
//! from a script file, a stylesheet, an image) is served from loopback and extracted with a
//! WARC and a WACZ; the WARC holds a request and a response record for each of the five
//! exchanges, with bodies, then the page's text, its record and its screenshot, tied to the
//! page's URL. Then the server is stopped and the page replayed from the WARC and from the
//! WACZ: the same text, byte for byte. A page the archive lacks is a `navigation` error.
//!
//! The records are read here with flate2 alone (every record its own gzip member); the
//! Python tests read the same files with warcio and `wacz validate`.

use std::io::Read;
use std::path::Path;

use sightline::{Extractor, Options};

mod common;

fn fixture_root() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// Each record of a `.warc.gz`: its header lines and its block.
fn records(path: &Path) -> Vec<(String, Vec<u8>)> {
    let bytes = std::fs::read(path).unwrap();
    let mut rest: &[u8] = &bytes;
    let mut out = Vec::new();
    while !rest.is_empty() {
        // One gzip member, one record.
        let mut d = flate2::bufread::GzDecoder::new(rest);
        let mut raw = Vec::new();
        d.read_to_end(&mut raw).unwrap();
        rest = d.into_inner();
        let at = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
        let head = String::from_utf8(raw[..at].to_vec()).unwrap();
        let len: usize = field(&head, "Content-Length").unwrap().parse().unwrap();
        let block = raw[at + 4..at + 4 + len].to_vec();
        assert_eq!(
            &raw[at + 4 + len..],
            b"\r\n\r\n",
            "a record ends with CRLF CRLF"
        );
        out.push((head, block));
    }
    out
}

fn field<'a>(head: &'a str, name: &str) -> Option<&'a str> {
    head.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(": "))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_capture_keeps_every_exchange_and_replays_the_same_text_offline() {
    let dir = tempfile::tempdir().unwrap();
    let warc = dir.path().join("capture.warc.gz");
    let wacz = dir.path().join("capture.wacz");
    let server = sightline::render::loopback::Server::start(Some(fixture_root()))
        .await
        .expect("loopback server");
    let url = server.url("/capture-fetch/page.html");
    let ex = Extractor::new(
        Options::default()
            .tabs(1)
            .screenshot(true)
            .warc(&warc)
            .wacz(&wacz),
    )
    .await
    .expect("Chromium must be installed: scripts/test installs it");
    let live = ex.extract(url.as_str()).await.expect("the live page");
    ex.finish_archive().expect("the archive is written");
    ex.shutdown().await;
    assert!(
        live.text()
            .contains("the two keepers of the northern light"),
        "the fetched article is in the live text: {}",
        live.text()
    );

    let recs = records(&warc);
    let kinds: Vec<(&str, &str)> = recs
        .iter()
        .map(|(h, _)| {
            (
                field(h, "WARC-Type").unwrap(),
                field(h, "WARC-Target-URI").unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(kinds[0].0, "warcinfo");
    for (i, (h, _)) in recs.iter().enumerate() {
        assert!(h.starts_with("WARC/1.1\r\n"), "record {i}");
        assert!(field(h, "WARC-Record-ID")
            .unwrap()
            .starts_with("<urn:uuid:"));
        assert!(field(h, "WARC-Date").is_some());
        assert!(field(h, "WARC-Block-Digest").unwrap().starts_with("sha1:"));
    }
    // Every exchange of the page: a response and its request, tied by WARC-Concurrent-To.
    for name in [
        "page.html",
        "style.css",
        "app.js",
        "article.json",
        "pic.png",
    ] {
        let target = server.url(&format!("/capture-fetch/{name}"));
        let resp = recs
            .iter()
            .find(|(h, _)| {
                field(h, "WARC-Type") == Some("response")
                    && field(h, "WARC-Target-URI") == Some(target.as_str())
            })
            .unwrap_or_else(|| panic!("a response record for {name}: {kinds:?}"));
        let body = std::fs::read(fixture_root().join("capture-fetch").join(name)).unwrap();
        assert!(
            resp.1.starts_with(b"HTTP/1.1 200 ") && resp.1.ends_with(&body),
            "{name}: the response with its body"
        );
        assert!(field(&resp.0, "WARC-Payload-Digest")
            .unwrap()
            .starts_with("sha1:"));
        let id = field(&resp.0, "WARC-Record-ID").unwrap();
        let req = recs
            .iter()
            .find(|(h, _)| {
                field(h, "WARC-Type") == Some("request")
                    && field(h, "WARC-Concurrent-To") == Some(id)
            })
            .unwrap_or_else(|| panic!("a request record for {name}"));
        assert!(req.1.starts_with(b"GET /capture-fetch/"), "{name}");
    }
    // The page's text, screenshot and record, tied to its URL (Browsertrix's conventions).
    let text = recs
        .iter()
        .find(|(h, _)| field(h, "WARC-Target-URI") == Some(format!("urn:text:{url}").as_str()))
        .expect("urn:text: record");
    assert_eq!(field(&text.0, "WARC-Type"), Some("resource"));
    assert_eq!(String::from_utf8(text.1.clone()).unwrap(), live.text());
    let shot = recs
        .iter()
        .find(|(h, _)| field(h, "WARC-Target-URI") == Some(format!("urn:fullPage:{url}").as_str()))
        .expect("urn:fullPage: record");
    assert!(shot.1.starts_with(b"\x89PNG"));
    let meta = recs
        .iter()
        .find(|(h, _)| field(h, "WARC-Type") == Some("metadata"))
        .expect("metadata record");
    let record: serde_json::Value = serde_json::from_slice(&meta.1).unwrap();
    assert_eq!(record["url"], url.as_str());
    assert!(field(&meta.0, "WARC-Refers-To").is_some());

    // The WACZ: a zip whose WARC is stored.
    let zip = std::fs::read(&wacz).unwrap();
    assert!(zip.starts_with(b"PK\x03\x04"));
    for name in [
        "archive/data.warc.gz",
        "indexes/index.cdxj",
        "pages/pages.jsonl",
        "datapackage.json",
        "datapackage-digest.json",
    ] {
        assert!(
            zip.windows(name.len()).any(|w| w == name.as_bytes()),
            "{name} in the WACZ"
        );
    }

    // The site is gone: replayed from the WARC and from the WACZ, the same text.
    drop(server);
    for archive in [&warc, &wacz] {
        let ex = Extractor::new(Options::default().tabs(1).replay(archive))
            .await
            .unwrap();
        let again = ex.extract(url.as_str()).await.unwrap_or_else(|e| {
            panic!("{}: replay: {e}", archive.display());
        });
        let missing = ex
            .extract(url.replace("page.html", "missing.html").as_str())
            .await;
        ex.shutdown().await;
        assert_eq!(again.text(), live.text(), "{}", archive.display());
        assert_eq!(
            again.record().result.as_ref().map(|r| &r.text),
            live.record().result.as_ref().map(|r| &r.text)
        );
        let e = missing.expect_err("a page the archive lacks");
        assert_eq!(e.kind(), "navigation", "{e}");
    }

    // `--input FILE.warc.gz`: each HTML response is an input, rendered from the WARC.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sightline"))
        .args(["extract", "-j", "1", "--input"])
        .arg(&warc)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        stdout.trim_end(),
        format!("==> {url} <==\n{}", live.text().trim_end()),
        "one input, the page's URL, the same text"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_writes_a_requests_warc_into_its_warc_dir_and_refuses_without_one() {
    let dir = tempfile::tempdir().unwrap();
    let site = sightline::render::loopback::Server::start(Some(fixture_root()))
        .await
        .expect("loopback server");
    let page = site.url("/capture-fetch/page.html");
    let q: String = url::form_urlencoded::byte_serialize(page.as_bytes()).collect();
    let get = |url: String| async move {
        let r = reqwest::get(url).await.unwrap();
        (
            r.status().as_u16(),
            r.json::<serde_json::Value>().await.unwrap(),
        )
    };

    let warc_dir = dir.path().to_str().unwrap();
    let svc = common::start(&["--allow-private", "-j", "1", "--warc-dir", warc_dir]);
    let (st, rec) = get(format!(
        "{}/extract?url={q}&format=json&warc=true",
        svc.base
    ))
    .await;
    assert_eq!(st, 200, "{rec}");
    let name = rec["warc"].as_str().expect("the record names its WARC");
    let recs = records(&dir.path().join(name));
    let article = site.url("/capture-fetch/article.json");
    assert!(recs
        .iter()
        .any(|(h, _)| field(h, "WARC-Type") == Some("response")
            && field(h, "WARC-Target-URI") == Some(article.as_str())));
    // A request without `warc` archives nothing and its record has no `warc`.
    let (st, rec) = get(format!("{}/extract?url={q}&format=json", svc.base)).await;
    assert_eq!(st, 200, "{rec}");
    assert!(rec.get("warc").is_none());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    drop(svc);

    // Without --warc-dir, `warc: true` is refused.
    let svc = common::start(&["--allow-private", "-j", "1"]);
    let (st, rec) = get(format!(
        "{}/extract?url={q}&format=json&warc=true",
        svc.base
    ))
    .await;
    assert_eq!(st, 403, "{rec}");
}
