//! PDF main documents in real Chromium, through the library's front door
//! ([`sightline::Extractor`]): `fixtures/pdf/report.pdf` (printed by Chromium from
//! `fixtures/pdf/report.html`: a heading, ten paragraphs over two pages, a running header and
//! page numbers) served on 127.0.0.1 as `application/pdf`, as `application/octet-stream` (its
//! `%PDF-` signature decides) and read as a `file:` URL gives the report's text in order, its
//! heading in the markdown, no header or page-number line, and `document.pages`; an encrypted,
//! a broken and an image-only PDF are `document` errors naming what to do.

use std::path::{Path, PathBuf};

use sightline::render::loopback::Server;
use sightline::{Extractor, Options};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/pdf")
}

fn read(name: &str) -> Vec<u8> {
    std::fs::read(dir().join(name)).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pdf_documents_are_read_in_order_without_running_lines() {
    let server = Server::start(Some(dir())).await.expect("loopback server");
    let (typed, _) = server.publish(read("report.pdf"), "application/pdf");
    // The loopback server serves `.pdf` files as application/octet-stream.
    let octet = server.url("/report.pdf");
    let file = format!("file://{}", dir().join("report.pdf").display());
    let ex = Extractor::new(Options::default().offline(true).tabs(1))
        .await
        .expect("Chromium must be installed: scripts/test installs it");
    for url in [&typed, &octet, &file] {
        let page = ex
            .extract(url.as_str())
            .await
            .unwrap_or_else(|e| panic!("{url}: {e}"));
        let text = page.text();
        let at = |needle: &str| {
            text.find(needle)
                .unwrap_or_else(|| panic!("{url}: {needle:?} missing from:\n{text}"))
        };
        // In reading order, across the page break.
        let first = at("Tidal turbines placed in small harbours produce a steady trickle");
        let second = at("The second part of this report looks at maintenance.");
        let storms = at("neither storm damaged a blade or a mooring chain.");
        let schools = at("Schools visited the harbours on open days");
        let last = at("whether a turbine would suit their own harbour and their own tides.");
        assert!(first < second && second < storms && storms < schools && schools < last);
        // The running header and the page numbers are dropped.
        assert!(!text.contains("Harbour Trust"), "{url}: {text}");
        for line in text.lines() {
            assert!(
                line.trim().parse::<u32>().is_err(),
                "{url}: a page number line {line:?}"
            );
        }
        let md = page.markdown();
        assert!(
            md.contains("# Tidal Energy in Small Harbours"),
            "{url}: {md}"
        );
        let rec = page.json();
        assert_eq!(rec["document"]["type"], "pdf", "{url}: {rec}");
        assert_eq!(rec["document"]["pages"], 2, "{url}: {rec}");
        assert!(
            rec["document"]["dropped_lines"].as_u64().unwrap() >= 4,
            "{rec}"
        );
        assert_eq!(page.url(), url.as_str());
    }

    // Documents that cannot be read: typed errors that say what to do.
    for (name, needle) in [
        ("encrypted.pdf", "password"),
        ("broken.pdf", "damaged"),
        ("image-only.pdf", "OCR"),
    ] {
        let (url, _) = server.publish(read(name), "application/pdf");
        let e = match ex.extract(url.as_str()).await {
            Ok(p) => panic!("{name}: extracted {:?}", p.text()),
            Err(e) => e,
        };
        assert_eq!(e.kind(), "document", "{name}: {e}");
        assert!(e.to_string().contains(needle), "{name}: {e}");
        assert!(e.to_string().contains(&url), "{name}: {e}");
    }

    // An HTML page's record has no `document`.
    let html = server.url("/report.html");
    let page = ex.extract(html.as_str()).await.expect("the HTML extracts");
    assert!(page.json().get("document").is_none());
    assert!(page
        .text()
        .contains("Tidal turbines placed in small harbours"));
    ex.shutdown().await;
}
