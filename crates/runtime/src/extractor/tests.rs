//! The front door's tests without a browser: pages scored from hand-made snapshots.

use super::*;
use crate::snapshot::{rect, SnapshotBuilder};

fn article() -> Snapshot {
    let mut b = SnapshotBuilder::new(1000.0);
    b.title("A page");
    let main = b.el(0, "article", rect(100.0, 100.0, 700.0, 600.0));
    for i in 0..4 {
        let p = b.el(
            main,
            "p",
            rect(100.0, 100.0 + 100.0 * i as f64, 700.0, 80.0),
        );
        b.text(
            p,
            &format!(
                "Paragraph {i} of the article holds a long sentence, with commas, and more words."
            ),
        );
    }
    b.build()
}

#[test]
fn a_page_writes_every_format_from_one_scoring() {
    let opts = Options::default().algorithm(Algorithm::Learned);
    let page = Page::from_snapshot("a.json", article(), &opts);
    assert_eq!(page.title(), "A page");
    assert!(page.text().contains("Paragraph 0 of the article"));
    assert!(page.markdown().contains("Paragraph 3"));
    assert!(page.html().contains("<p>"));
    let j = page.json();
    assert_eq!(j["algorithm"], "learned");
    assert_eq!(j["text"].as_str().unwrap().trim(), page.text().trim());
    assert!(!page.is_empty());
    assert_eq!(page.extractions().len(), 1);
}

/// `Options::writer`: the markdown and the record's `markdown` and `sections` are written with
/// the same settings; a base URL that is not a web URL is refused before any browser starts.
#[tokio::test]
async fn the_writer_settings_reach_the_markdown_and_the_record() {
    let mut b = SnapshotBuilder::new(1000.0);
    let main = b.el(0, "article", rect(100.0, 100.0, 700.0, 600.0));
    for i in 0..4 {
        let p = b.el(
            main,
            "p",
            rect(100.0, 100.0 + 100.0 * i as f64, 700.0, 80.0),
        );
        b.text(
            p,
            &format!("Paragraph {i} of the article holds a long sentence, with commas, and "),
        );
        let a = b.el(p, "a", rect(100.0, 140.0 + 100.0 * i as f64, 200.0, 20.0));
        b.node_mut(a).href = Some("file:///home/u/saved/next.html".into());
        b.text(a, "the next part");
        b.text(p, ", and more words after it.");
    }
    let mut snap = b.build();
    snap.url = "file:///home/u/saved/post.html".into();
    let writer = crate::WriterOptions {
        links: crate::output::LinksMode::References,
        base_url: Some("https://example.org/blog/post".into()),
        ..Default::default()
    };
    let opts = Options::default().writer(writer.clone());
    let page = Page::from_snapshot("a.json", snap, &opts);
    let md = page.markdown();
    assert!(
        md.ends_with("[1]: https://example.org/blog/next.html\n"),
        "{md}"
    );
    assert_eq!(page.json()["markdown"].as_str(), Some(md.as_str()));
    assert_eq!(page.json()["sections"][0]["span"][0], 0);
    let bad = crate::WriterOptions {
        base_url: Some("blog/post".into()),
        ..writer
    };
    let Err(e) = Extractor::new(Options::default().writer(bad)).await else {
        panic!("an extractor with base_url `blog/post`");
    };
    assert_eq!(e.kind(), "input");
    assert!(e.to_string().contains("base_url"), "{e}");
}

/// `Options::units` (Python's `units=True`): each text unit in the record, asked for only.
#[test]
fn units_are_in_the_record_when_asked_for() {
    let plain = Page::from_snapshot("a.json", article(), &Options::default());
    assert!(plain.record().units.is_none());
    assert!(plain.json().get("units").is_none());
    let page = Page::from_snapshot("a.json", article(), &Options::default().units(true));
    let units = page.record().units.as_ref().expect("units");
    assert_eq!(units.len(), 4, "one a paragraph");
    assert!(units[0].text.starts_with("Paragraph 0 of the article"));
    assert!(units.iter().all(|u| (0.0..=1.0).contains(&u.p)));
}

#[test]
fn several_algorithms_score_one_snapshot() {
    let opts = Options::default().algorithms([Algorithm::Htd, Algorithm::Wang]);
    let page = Page::from_snapshot("a.json", article(), &opts);
    assert_eq!(page.extractions().len(), 2);
    assert_eq!(page.extractions()[1].algorithm, Algorithm::Wang);
    assert!(page.json()["algorithms"]["wang"].is_object());
}

#[test]
fn sources_say_what_they_are() {
    let e = Source::Url("not a url".into()).to_input(&None).unwrap_err();
    assert_eq!(e.kind(), "input");
    let e = Source::Path("/no/such/page.html".into())
        .to_input(&None)
        .unwrap_err();
    assert_eq!(e.kind(), "input");
    assert!(e.to_string().contains("/no/such/page.html"), "{e}");
    match Source::html("inline", "<p>x</p>").to_input(&None).unwrap() {
        Input::Html { charset, name, .. } => {
            assert_eq!(charset, "utf-8");
            assert_eq!(name, "inline");
        }
        i => panic!("{i:?}"),
    }
    assert!(matches!(
        Source::from("https://example.com/")
            .to_input(&None)
            .unwrap(),
        Input::Url(_)
    ));
}
