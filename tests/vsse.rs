//! VSSE on the `fixtures/vsse-*` pages, built by hand as the snapshots Chromium gives them
//! (boxes and computed `display` as rendered at 1200 px), checked against each fixture's
//! `expect.json`. The real-Chromium harness checks the same files from the rendered pages.

use std::path::Path;

use sightline::extract::{extract_tree, Algorithm, Params};
use sightline::output::text;
use sightline::snapshot::{rect, NodeId, Rect, Snapshot, SnapshotBuilder};
use sightline::Tree;

/// Add an element with a computed display other than block.
fn el(b: &mut SnapshotBuilder, parent: NodeId, tag: &str, display: &str, r: Rect) -> NodeId {
    let id = b.el(parent, tag, r);
    b.node_mut(id).display = display.into();
    id
}

/// Check an extraction of `snap` against `fixtures/<name>/expect.json`; returns the text.
fn check(name: &str, snap: &Snapshot) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(name)
        .join("expect.json");
    let expect: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("expect.json"))
            .expect("valid JSON");
    let algorithm: Algorithm = expect["algorithm"].as_str().unwrap().parse().unwrap();
    let tree = Tree::new(snap);
    let ex = extract_tree(&tree, algorithm, &Params::default());
    let out = text::render(&tree, &ex);
    for s in expect["contains"].as_array().unwrap() {
        let s = s.as_str().unwrap();
        assert!(out.contains(s), "{name}: `{s}` missing from\n---\n{out}---");
    }
    for s in expect["excludes"].as_array().unwrap() {
        let s = s.as_str().unwrap();
        assert!(
            !out.contains(s),
            "{name}: `{s}` should not be in\n---\n{out}---"
        );
    }
    out
}

/// fixtures/vsse-article/page.html
fn article() -> Snapshot {
    let mut b = SnapshotBuilder::new(1200.0);
    b.title("Elbe floods reach Dresden old town");
    let nav = b.el(0, "nav", rect(0.0, 0.0, 1200.0, 50.0));
    for (k, w) in ["News", "Sport", "Weather", "Culture"].iter().enumerate() {
        let a = el(
            &mut b,
            nav,
            "a",
            "inline-block",
            rect(90.0 * k as f64, 0.0, 90.0, 48.0),
        );
        b.text(a, w);
    }
    let main = el(&mut b, 0, "main", "flex", rect(0.0, 50.0, 1200.0, 760.0));
    let art = b.el(main, "article", rect(40.0, 50.0, 800.0, 760.0));
    let h1 = b.el(art, "h1", rect(40.0, 71.0, 800.0, 48.0));
    b.text(h1, "Elbe floods reach Dresden old town");
    let fig = b.el(art, "figure", rect(40.0, 140.0, 800.0, 284.0));
    b.el(fig, "div", rect(40.0, 140.0, 800.0, 260.0));
    let cap = b.el(fig, "figcaption", rect(40.0, 400.0, 800.0, 24.0));
    b.text(cap, "Photo Reuters");
    let p1 = b.el(art, "p", rect(40.0, 440.0, 800.0, 48.0));
    b.text(p1, "The river Elbe rose above eight metres on Tuesday, flooding streets, cellars and squares in the ");
    let bold = el(&mut b, p1, "b", "inline", rect(300.0, 464.0, 70.0, 24.0));
    b.text(bold, "old town");
    b.text(p1, " of Dresden.");
    let p2 = b.el(art, "p", rect(40.0, 504.0, 800.0, 48.0));
    b.text(p2, "Firefighters, soldiers and volunteers filled sandbags through the night; the city closed two bridges and a tram line.");
    let p3 = b.el(art, "p", rect(40.0, 568.0, 800.0, 48.0));
    b.text(p3, "Officials said the water should fall by Friday, but warned that more rain is expected upstream in the Czech Republic.");
    let ul = b.el(art, "ul", rect(40.0, 632.0, 800.0, 24.0));
    let li = el(
        &mut b,
        ul,
        "li",
        "list-item",
        rect(80.0, 632.0, 760.0, 24.0),
    );
    let a = el(&mut b, li, "a", "inline", rect(80.0, 632.0, 180.0, 24.0));
    b.text(a, "Cheap flights to Prague");
    let aside = b.el(main, "aside", rect(880.0, 50.0, 300.0, 200.0));
    let h2 = b.el(aside, "h2", rect(880.0, 70.0, 300.0, 36.0));
    b.text(h2, "Most read");
    let ul = b.el(aside, "ul", rect(880.0, 120.0, 300.0, 66.0));
    for (k, w) in [
        "Transfer news live",
        "Ten best beaches in Europe",
        "Quiz of the week",
    ]
    .iter()
    .enumerate()
    {
        let li = el(
            &mut b,
            ul,
            "li",
            "list-item",
            rect(920.0, 120.0 + 22.0 * k as f64, 260.0, 22.0),
        );
        let a = el(
            &mut b,
            li,
            "a",
            "inline",
            rect(920.0, 120.0 + 22.0 * k as f64, 200.0, 22.0),
        );
        b.text(a, w);
    }
    let foot = b.el(0, "footer", rect(0.0, 810.0, 1200.0, 60.0));
    let fp = b.el(foot, "p", rect(10.0, 826.0, 1180.0, 24.0));
    b.text(fp, "Copyright 2024 Example News Ltd");
    let mut s = b.build();
    s.description = "The Elbe flooded the old town of Dresden".into();
    s
}

/// fixtures/vsse-product/page.html
fn product() -> Snapshot {
    let mut b = SnapshotBuilder::new(1200.0);
    b.title("Acme X200 Phone | Acme Store");
    let header = b.el(0, "div", rect(0.0, 0.0, 1200.0, 60.0));
    el(&mut b, header, "img", "inline", rect(0.0, 0.0, 120.0, 60.0));
    for (k, w) in ["Home", "Phones", "Laptops", "Deals", "Help"]
        .iter()
        .enumerate()
    {
        let a = el(
            &mut b,
            header,
            "a",
            "inline",
            rect(136.0 + 90.0 * k as f64, 40.0, 60.0, 18.0),
        );
        b.text(a, w);
    }
    let main = b.el(0, "div", rect(0.0, 60.0, 1200.0, 560.0));
    let h1 = b.el(main, "h1", rect(0.0, 81.0, 1200.0, 37.0));
    b.text(h1, "Acme X200 Phone");
    let gallery = b.el(main, "div", rect(0.0, 140.0, 500.0, 400.0));
    b.el(gallery, "img", rect(0.0, 140.0, 500.0, 200.0));
    b.el(gallery, "img", rect(0.0, 340.0, 500.0, 200.0));
    let specs = b.el(main, "div", rect(520.0, 140.0, 680.0, 150.0));
    let table = el(
        &mut b,
        specs,
        "table",
        "table",
        rect(520.0, 140.0, 400.0, 150.0),
    );
    let tbody = el(
        &mut b,
        table,
        "tbody",
        "table-row-group",
        rect(522.0, 142.0, 396.0, 146.0),
    );
    for (k, (a, v)) in [
        ("Brand:", "Acme"),
        ("Model:", "X200"),
        ("Color:", "Black"),
        ("Weight:", "174 g"),
        ("Price:", "$199"),
        ("Warranty:", "2 years"),
    ]
    .iter()
    .enumerate()
    {
        let y = 142.0 + 24.0 * k as f64;
        let tr = el(
            &mut b,
            tbody,
            "tr",
            "table-row",
            rect(522.0, y, 396.0, 24.0),
        );
        let th = el(&mut b, tr, "th", "table-cell", rect(522.0, y, 200.0, 24.0));
        b.text(th, a);
        let td = el(&mut b, tr, "td", "table-cell", rect(724.0, y, 194.0, 24.0));
        b.text(td, v);
    }
    let desc = b.el(main, "p", rect(0.0, 556.0, 1200.0, 22.0));
    b.text(
        desc,
        "The X200 has a 6.1-inch screen, two cameras and a battery that lasts two days.",
    );
    let foot = b.el(0, "div", rect(0.0, 620.0, 1200.0, 40.0));
    let fp = b.el(foot, "p", rect(0.0, 636.0, 1200.0, 22.0));
    b.text(fp, "© 2024 Acme Store. All rights reserved.");
    for (k, w) in ["Privacy", "Terms"].iter().enumerate() {
        let a = el(
            &mut b,
            foot,
            "a",
            "inline",
            rect(60.0 * k as f64, 674.0, 50.0, 18.0),
        );
        b.text(a, w);
    }
    b.build()
}

#[test]
fn vsse_article_fixture() {
    let s = article();
    check("vsse-article", &s);
    let tree = Tree::new(&s);
    let ex = extract_tree(&tree, Algorithm::Vsse, &Params::default());
    // The second paragraph has the largest vvtc (117 chars · 3 marks); T1 = 0.8 leaves it
    // alone, so min_seeds adds the next best, the third (117 · 2 marks: 2/3 of it; the first
    // paragraph's leaves are split by <b>, its longest holds 95 · 2), and the area is the
    // article.
    let dj_seeds = ex.details.to_json();
    let seeds = &dj_seeds["seeds"].as_array().unwrap();
    assert_eq!(seeds.len(), 2);
    assert_eq!(seeds[0]["ratio"], 1.0);
    assert!((seeds[1]["ratio"].as_f64().unwrap() - 2.0 / 3.0).abs() < 1e-12);
    assert_eq!(
        ex.details.to_json()["area"]["path"],
        "body > main > article"
    );
    // The bold words are part of the first paragraph's block, which carries punctuation.
    assert!(text::render(&tree, &ex).contains("in the old town of Dresden."));
}

#[test]
fn vsse_product_fixture() {
    let s = product();
    check("vsse-product", &s);
    let tree = Tree::new(&s);
    let ex = extract_tree(&tree, Algorithm::VsseRecords, &Params::default());
    assert_eq!(
        ex.details.to_json()["area"],
        "body > div:nth-of-type(2) > div:nth-of-type(2) > table > tbody"
    );
    let dj_attrs = ex.details.to_json();
    let attrs: Vec<&str> = dj_attrs["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["attribute"].as_str().unwrap())
        .collect();
    assert_eq!(
        attrs,
        ["Brand", "Model", "Color", "Weight", "Price", "Warranty"]
    );
}
