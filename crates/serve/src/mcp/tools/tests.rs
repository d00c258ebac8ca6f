//! The MCP tools' answers from hand-made snapshots and pages, without a browser.

use super::*;
use sightline::snapshot::{rect, Snapshot, SnapshotBuilder};
use sightline::Options;

/// An article with two links inside and a navigation link outside, and which nodes of it
/// an extraction keeps (the article's subtree).
fn linked() -> (Snapshot, Vec<bool>) {
    let mut b = SnapshotBuilder::new(1000.0);
    b.title("Links");
    let nav = b.el(0, "nav", rect(0.0, 0.0, 1000.0, 40.0));
    let home = b.el(nav, "a", rect(0.0, 0.0, 80.0, 20.0));
    b.node_mut(home).href = Some("https://example.com/".into());
    b.text(home, "Home");
    let art = b.el(0, "article", rect(100.0, 60.0, 700.0, 600.0));
    let p = b.el(art, "p", rect(100.0, 60.0, 700.0, 80.0));
    b.text(p, "Read the ");
    let a = b.el(p, "a", rect(160.0, 60.0, 80.0, 20.0));
    b.node_mut(a).href = Some("https://example.com/report".into());
    b.text(a, "full   report");
    b.text(p, " and the ");
    let again = b.el(p, "a", rect(260.0, 60.0, 80.0, 20.0));
    b.node_mut(again).href = Some("https://example.com/report".into());
    b.text(again, "full report");
    let js = b.el(p, "a", rect(360.0, 60.0, 80.0, 20.0));
    b.node_mut(js).href = Some("javascript:void(0)".into());
    b.text(js, "menu");
    let fig = b.el(art, "a", rect(100.0, 200.0, 300.0, 200.0));
    b.node_mut(fig).href = Some("https://example.com/big.png".into());
    let img = b.el(fig, "img", rect(100.0, 200.0, 300.0, 200.0));
    b.node_mut(img).alt = Some("The chart".into());
    let snap = b.build();
    let tree = Tree::new(&snap);
    let kept = (0..snap.nodes.len())
        .map(|i| i == art || tree.contains(art, i))
        .collect();
    (snap, kept)
}

#[test]
fn links_are_those_inside_the_content_each_once() {
    let (snap, kept) = linked();
    let links = content_links(&Tree::new(&snap), &kept);
    let got: Vec<(&str, &str)> = links
        .iter()
        .map(|l| (l.text.as_str(), l.href.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("full report", "https://example.com/report"),
            ("The chart", "https://example.com/big.png"),
        ]
    );
}

#[test]
fn a_snapshot_summary_lists_roots_and_the_largest_blocks() {
    let mut b = SnapshotBuilder::new(1000.0);
    b.title("A page");
    let main = b.el(0, "article", rect(100.0, 100.0, 700.0, 600.0));
    for i in 0..4 {
        let p = b.el(
            main,
            "p",
            rect(100.0, 100.0 + 100.0 * i as f64, 700.0, 80.0),
        );
        let words = "More words, and more. ".repeat(i + 2);
        b.text(p, &format!("Paragraph {i} of the article. {words}"));
    }
    let page = Page::from_snapshot("a.json", b.build(), &Options::default());
    let s = summarise(&page, 2);
    assert_eq!(s.title, "A page");
    assert_eq!(s.node_count, 10); // body, article, 4 x (p, text)
    assert_eq!(s.viewport.width, 1000.0);
    assert_eq!(s.text_blocks.len(), 2);
    assert!(s.text_blocks[0].excerpt.starts_with("Paragraph 3"));
    assert!(s.text_blocks[1].excerpt.starts_with("Paragraph 2"));
    assert_eq!(s.text_blocks[0].path, "body > article > p:nth-of-type(4)");
    assert!(s.text_blocks[0].chars > s.text_blocks[1].chars);
    assert!(!s.content_roots.is_empty());
    assert_eq!(s.algorithm, "learned");
}

#[test]
fn a_viewport_screenshot_is_cut_at_the_viewport() {
    let img = image::RgbImage::from_pixel(200, 500, image::Rgb([200, 10, 10]));
    let mut png = std::io::Cursor::new(Vec::new());
    image::DynamicImage::ImageRgb8(img)
        .write_to(&mut png, image::ImageFormat::Png)
        .unwrap();
    let png = png.into_inner();
    // A 100 CSS px wide viewport on a 200 px wide image: device scale 2.
    let (cut, w, h) = fit(&png, Some((100.0, 90.0))).unwrap();
    assert_eq!((w, h), (200, 180));
    let back = image::load_from_memory(&cut).unwrap();
    assert_eq!((back.width(), back.height()), (200, 180));
    let (same, w, h) = fit(&png, None).unwrap();
    assert_eq!((same.len(), w, h), (png.len(), 200, 500));
    assert!(fit(b"not a png", None).is_err());
}

#[test]
fn a_wall_is_a_tool_error_naming_the_wall_with_it_as_structured_content() {
    let e = Error::Blocked {
        input: "https://shop.example/".into(),
        wall: Box::new(sightline::walls::Wall {
            kind: sightline::walls::WallKind::Challenge,
            vendor: Some("cloudflare".into()),
            evidence: vec!["header cf-mitigated: challenge".into()],
        }),
    };
    let r = error_result(&e, &PageConfig::default());
    assert_eq!(r.is_error, Some(true));
    let t = &r.content[0].as_text().unwrap().text;
    assert!(
        t.starts_with(
            "error (blocked): https://shop.example/: blocked by cloudflare anti-bot challenge"
        ),
        "{t}"
    );
    let s = r.structured_content.unwrap();
    assert_eq!(s["wall"]["kind"], "challenge");
    assert_eq!(s["wall"]["vendor"], "cloudflare");
}

#[test]
fn a_failed_page_is_a_tool_error_naming_its_kind() {
    let e = Error::Timeout {
        input: "https://example.com/".into(),
        phase: "settling".into(),
        seconds: 15.0,
    };
    let cfg = PageConfig::default().hint(Some(|_| Some("raise --timeout".into())));
    let r = error_result(&e, &cfg);
    assert_eq!(r.is_error, Some(true));
    let t = &r.content[0].as_text().unwrap().text;
    assert!(
        t.starts_with("error (timeout): https://example.com/"),
        "{t}"
    );
    assert!(t.ends_with("(raise --timeout)"), "{t}");
}

#[test]
fn the_page_tools_list_the_steering_fields_at_the_top_level() {
    use rmcp::handler::server::common::schema_for_type;
    for (name, schema) in [
        ("extract", schema_for_type::<ExtractParams>()),
        ("screenshot", schema_for_type::<ScreenshotParams>()),
        ("snapshot", schema_for_type::<SnapshotParams>()),
    ] {
        let s = serde_json::Value::Object((*schema).clone());
        assert_eq!(s["required"], serde_json::json!(["url"]), "{name}: {s}");
        for k in ["url", "wait_for", "actions", "consent", "steer"] {
            assert!(s["properties"][k].is_object(), "{name}: no {k}: {s}");
        }
    }
    let s = serde_json::Value::Object((*schema_for_type::<ExtractParams>()).clone());
    for k in [
        "format",
        "algorithm",
        "comments",
        "warc",
        "images",
        "links",
        "base_url",
    ] {
        assert!(s["properties"][k].is_object(), "extract: no {k}: {s}");
    }
}

#[test]
fn the_steer_object_is_an_alias_of_the_top_level_fields() {
    let p: ExtractParams = serde_json::from_value(serde_json::json!({
        "url": "https://example.com/",
        "format": "text",
        "wait_for": "#a",
        "steer": {"consent": "accept"}
    }))
    .unwrap();
    assert_eq!(p.page.format.as_deref(), Some("text"));
    let all = p.page.steer.merged();
    assert_eq!(
        (all["wait_for"].as_str(), all["consent"].as_str()),
        (Some("#a"), Some("accept"))
    );
}

#[test]
fn crawl_takes_the_steering_fields_as_extract_does() {
    use rmcp::handler::server::common::schema_for_type;
    let s = serde_json::Value::Object((*schema_for_type::<CrawlParams>()).clone());
    for k in [
        "url",
        "max_pages",
        "max_chars",
        "wait_for",
        "consent",
        "steer",
    ] {
        assert!(s["properties"][k].is_object(), "crawl: no {k}: {s}");
    }
    let p: CrawlParams = serde_json::from_value(serde_json::json!({
        "url": "https://example.com/",
        "max_pages": 2,
        "wait_for": "#a",
        "steer": {"consent": "accept"}
    }))
    .unwrap();
    assert_eq!(p.settings.max_pages, Some(2));
    let all = p.steer.merged();
    assert_eq!(
        (all["wait_for"].as_str(), all["consent"].as_str()),
        (Some("#a"), Some("accept"))
    );
}
