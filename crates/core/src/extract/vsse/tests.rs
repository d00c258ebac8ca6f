//! Unit tests of VSSE: eq. 1 against the paper's Fig. 3 numbers, eq. 2, aggregation, the
//! SimHash refinement and the HMM descent on small hand-built pages.

use super::*;
use crate::snapshot::{rect, Snapshot, SnapshotBuilder};

/// Fig. 3 of the paper: (a) three paragraphs of content, (b) a navigation list, (c) a
/// recommendation link. The figure prints vvtc 1.25, 1.59, 1.56, 0, 0, 0, 0, 0.17 for nodes
/// (1)-(8) but not their text. With nodes_num = 10 these are exactly 25·5, 53·3, 52·3, 0 and
/// 17·1 characters times punctuation marks over 10², so the page below has ten leaves (the
/// eight numbered text nodes, a logo and a thumbnail) and texts of those lengths.
fn fig3() -> (Snapshot, Vec<NodeId>) {
    let mut b = SnapshotBuilder::new(1000.0);
    let mut numbered = Vec::new();
    let content = b.el(0, "div", rect(0.0, 100.0, 700.0, 300.0));
    for (k, t) in [
        "Rain, wind; hail! Why? 2.",
        "Water reached the old town, on Monday, official said.",
        "Thousands left homes, and schools, shop were closed.",
    ]
    .iter()
    .enumerate()
    {
        let p = b.el(
            content,
            "p",
            rect(0.0, 100.0 + 40.0 * k as f64, 700.0, 40.0),
        );
        numbered.push(b.text(p, t));
    }
    let nav = b.el(0, "ul", rect(0.0, 0.0, 1000.0, 40.0));
    b.el(nav, "img", rect(0.0, 0.0, 40.0, 40.0));
    for w in ["Home", "World", "Sport", "Weather"] {
        let li = b.el(nav, "li", rect(0.0, 0.0, 100.0, 40.0));
        let a = b.el(li, "a", rect(0.0, 0.0, 100.0, 40.0));
        numbered.push(b.text(a, w));
    }
    let rec = b.el(0, "div", rect(700.0, 100.0, 300.0, 200.0));
    b.el(rec, "img", rect(700.0, 100.0, 300.0, 150.0));
    let a = b.el(rec, "a", rect(700.0, 250.0, 300.0, 20.0));
    numbered.push(b.text(a, "See flood photos."));
    (b.build(), numbered)
}

#[test]
fn eq1_reproduces_fig3() {
    let (s, numbered) = fig3();
    let t = Tree::new(&s);
    let leaves = Leaves::of(&t, &VsseParams::default());
    assert_eq!(leaves.count, 10);
    let got: Vec<f64> = numbered
        .iter()
        .map(|&i| (leaves.vvtc[i] * 100.0).round() / 100.0)
        .collect();
    assert_eq!(got, vec![1.25, 1.59, 1.56, 0.0, 0.0, 0.0, 0.0, 0.17]);
    assert!((vvtc(53, 3, 10) - 1.59).abs() < 1e-12);
}

#[test]
fn seeds_by_top_k_and_by_t1() {
    let (s, numbered) = fig3();
    let t = Tree::new(&s);
    let leaves = Leaves::of(&t, &VsseParams::default());
    // "Node (1)-(3) will be extracted if top-3 nodes are reserved."
    let top3 = VsseParams {
        t1: 1.0,
        min_seeds: 3,
        ..VsseParams::default()
    };
    assert_eq!(leaves.seeds(&top3), numbered[..3].to_vec());
    // T1 = 0.8 (§5.2): 1.25 / 1.59 = 0.786 falls short, 1.56 / 1.59 = 0.98 passes.
    let strict = VsseParams {
        min_seeds: 1,
        ..VsseParams::default()
    };
    assert_eq!(leaves.seeds(&strict), numbered[1..3].to_vec());
    // T1 = 0.6, the other end of the paper's good range, takes node (1) too.
    let loose = VsseParams {
        t1: 0.6,
        min_seeds: 1,
        ..VsseParams::default()
    };
    assert_eq!(leaves.seeds(&loose), numbered[..3].to_vec());
    // The 0.17 of node (8) never qualifies: 0.17 / 1.59 = 0.11.
    assert!(!leaves
        .seeds(&VsseParams {
            t1: 0.2,
            ..VsseParams::default()
        })
        .contains(&numbered[7]));
}

#[test]
fn eq2_is_the_longest_common_subsequence() {
    let x: Vec<char> = "ABCBDAB".chars().collect();
    let y: Vec<char> = "BDCABA".chars().collect();
    assert_eq!(pcs(&x, &y), 4);
    assert_eq!(pcs(&x, &[]), 0);
    // On tags alone, eq. 2 is not a prefix: html/body/div/p and body/div/div/p have no
    // common prefix but a common subsequence body/div/p.
    assert_eq!(
        pcs(&["html", "body", "div", "p"], &["body", "div", "div", "p"]),
        3
    );
    assert_eq!(pcs(&["body", "div", "p"], &["body", "div", "div", "p"]), 3);
}

#[test]
fn aggregation_finds_the_common_ancestor() {
    let (s, numbered) = fig3();
    let t = Tree::new(&s);
    let content = t.parent(t.parent(numbered[0]).unwrap()).unwrap();
    assert_eq!(
        tag_path(&t, numbered[1]),
        vec![0, content, t.parent(numbered[1]).unwrap()]
    );
    // Node paths are chains from <body>: eq. 2 on them is the common prefix.
    assert_eq!(
        pcs(&tag_path(&t, numbered[1]), &tag_path(&t, numbered[2])),
        2
    );
    assert_eq!(aggregate(&t, &numbered[..3]), Some(vec![0, content]));
    // One seed: its own paragraph.
    assert_eq!(
        aggregate(&t, &numbered[1..2]),
        Some(tag_path(&t, numbered[1]))
    );
    // A seed in the content and one in the recommendations meet only at <body>.
    assert_eq!(aggregate(&t, &[numbered[0], numbered[7]]), Some(vec![0]));
    assert_eq!(aggregate(&t, &[]), None);
}

#[test]
fn fig3_extracts_the_three_paragraphs() {
    let (s, numbered) = fig3();
    let t = Tree::new(&s);
    let ex = extract(&t, &VsseParams::default());
    for (k, &i) in numbered.iter().enumerate() {
        assert_eq!(ex.kept[i], k < 3, "node ({})", k + 1);
    }
    assert!((ex.threshold.unwrap() - 0.8 * 1.59).abs() < 1e-12);
    assert_eq!(ex.details.to_json()["area"]["tag_path"], "body/div");
    assert_eq!(ex.details.to_json()["seeds"].as_array().unwrap().len(), 2);
}

/// An article whose headline equals the title, with an image caption and a related-links
/// list inside the article container, a navigation bar and a footer outside.
fn article() -> (Snapshot, [NodeId; 5]) {
    let mut b = SnapshotBuilder::new(1200.0);
    b.title("Elbe floods reach Dresden old town");
    let nav = b.el(0, "nav", rect(0.0, 0.0, 1200.0, 50.0));
    for w in ["News", "Sport", "Weather"] {
        let a = b.el(nav, "a", rect(0.0, 0.0, 100.0, 50.0));
        b.text(a, w);
    }
    let art = b.el(0, "article", rect(100.0, 60.0, 800.0, 900.0));
    let h1 = b.el(art, "h1", rect(100.0, 60.0, 800.0, 50.0));
    let headline = b.text(h1, "Elbe floods reach Dresden old town");
    let fig = b.el(art, "figure", rect(100.0, 120.0, 800.0, 300.0));
    b.el(fig, "img", rect(100.0, 120.0, 800.0, 260.0));
    let cap = b.el(fig, "figcaption", rect(100.0, 380.0, 800.0, 20.0));
    let caption = b.text(cap, "Photo Reuters");
    let mut first = 0;
    for (k, t) in [
        "The river Elbe rose above eight metres on Tuesday, flooding streets, cellars and squares in the old town of Dresden.",
        "Firefighters, soldiers and volunteers filled sandbags through the night; the city closed two bridges and a tram line.",
        "Officials said the water should fall by Friday, but warned that more rain is expected upstream in the Czech Republic.",
    ]
    .iter()
    .enumerate()
    {
        let p = b.el(art, "p", rect(100.0, 420.0 + 80.0 * k as f64, 800.0, 80.0));
        let id = b.text(p, t);
        if k == 0 {
            first = id;
        }
    }
    let related = b.el(art, "ul", rect(100.0, 700.0, 800.0, 60.0));
    let li = b.el(related, "li", rect(100.0, 700.0, 800.0, 20.0));
    let a = b.el(li, "a", rect(100.0, 700.0, 800.0, 20.0));
    let link = b.text(a, "Cheap flights to Prague");
    let foot = b.el(0, "footer", rect(0.0, 1000.0, 1200.0, 40.0));
    let fp = b.el(foot, "p", rect(0.0, 1000.0, 1200.0, 40.0));
    b.text(fp, "Copyright 2024 Example News Ltd");
    (b.build(), [headline, caption, first, link, nav + 1])
}

#[test]
fn simhash_keeps_the_headline_and_drops_the_caption() {
    let (s, [headline, caption, first, link, nav_text]) = article();
    let t = Tree::new(&s);
    let ex = extract(&t, &VsseParams::default());
    assert_eq!(ex.details.to_json()["area"]["tag_path"], "body/article");
    assert!(
        ex.kept[first] && ex.kept[first + 2] && ex.kept[first + 4],
        "the paragraphs"
    );
    assert!(ex.kept[headline], "the headline is within T2 of the title");
    assert!(
        !ex.kept[caption] && !ex.kept[link],
        "punctuation-free noise inside the area"
    );
    assert!(!ex.kept[nav_text], "outside the area");
    let dj_paras = ex.details.to_json();
    let paras = &dj_paras["paragraphs"].as_array().unwrap();
    let h = paras
        .iter()
        .find(|p| p["path"] == "body > article > h1")
        .unwrap();
    // Not 0: the headline's keywords are weighted by eq. 4 over the article (Elbe and Dresden
    // recur in the first paragraph), the title's by TF·L alone.
    assert!(h["hamming"].as_u64().unwrap() <= 3);
    let c = paras
        .iter()
        .find(|p| p["path"] == "body > article > figure > figcaption")
        .unwrap();
    assert!(c["hamming"].as_u64().unwrap() > 3);
    // The literal reading tests the paragraphs too, and 64-bit fingerprints of whole
    // paragraphs are never within 3 bits of the title's.
    let literal = extract(
        &t,
        &VsseParams {
            refine_punctuated: true,
            ..VsseParams::default()
        },
    );
    assert!(literal.kept[headline] && !literal.kept[first]);
}

#[test]
fn no_punctuation_no_content() {
    let mut b = SnapshotBuilder::new(800.0);
    let d = b.el(0, "div", rect(0.0, 0.0, 800.0, 20.0));
    b.text(d, "Home About Contact");
    let s = b.build();
    let ex = extract(&Tree::new(&s), &VsseParams::default());
    assert!(ex.kept.iter().all(|&k| !k));
    assert_eq!(ex.details.to_json()["area"], serde_json::Value::Null);
}

/// A product page: navigation, a headline, a gallery, a six-row specification table (each
/// `th` holds "Name:"), a description and a footer. 25 leaves.
fn product() -> (Snapshot, NodeId, NodeId) {
    let mut b = SnapshotBuilder::new(1200.0);
    let header = b.el(0, "div", rect(0.0, 0.0, 1200.0, 60.0));
    b.el(header, "img", rect(0.0, 0.0, 120.0, 60.0));
    for w in ["Home", "Phones", "Laptops", "Deals", "Help"] {
        let a = b.el(header, "a", rect(200.0, 0.0, 100.0, 60.0));
        b.text(a, w);
    }
    let main = b.el(0, "div", rect(0.0, 80.0, 1200.0, 800.0));
    let h1 = b.el(main, "h1", rect(0.0, 80.0, 1200.0, 40.0));
    b.text(h1, "Acme X200 Phone");
    let gallery = b.el(main, "div", rect(0.0, 120.0, 500.0, 400.0));
    b.el(gallery, "img", rect(0.0, 120.0, 500.0, 200.0));
    b.el(gallery, "img", rect(0.0, 320.0, 500.0, 200.0));
    let specs = b.el(main, "div", rect(520.0, 120.0, 680.0, 240.0));
    let table = b.el(specs, "table", rect(520.0, 120.0, 680.0, 240.0));
    let tbody = b.el(table, "tbody", rect(520.0, 120.0, 680.0, 240.0));
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
        let y = 120.0 + 40.0 * k as f64;
        let tr = b.el(tbody, "tr", rect(520.0, y, 680.0, 40.0));
        let th = b.el(tr, "th", rect(520.0, y, 200.0, 40.0));
        b.text(th, a);
        let td = b.el(tr, "td", rect(720.0, y, 480.0, 40.0));
        b.text(td, v);
    }
    let desc = b.el(main, "p", rect(0.0, 540.0, 1200.0, 60.0));
    b.text(
        desc,
        "The X200 has a 6.1-inch screen, two cameras and a battery that lasts two days.",
    );
    let foot = b.el(0, "div", rect(0.0, 900.0, 1200.0, 40.0));
    let fp = b.el(foot, "p", rect(0.0, 900.0, 600.0, 40.0));
    b.text(fp, "© 2024 Acme Store. All rights reserved.");
    for w in ["Privacy", "Terms"] {
        let a = b.el(foot, "a", rect(600.0, 900.0, 100.0, 40.0));
        b.text(a, w);
    }
    (b.build(), main, tbody)
}

#[test]
fn eq3_weights() {
    let (s, main, tbody) = product();
    let t = Tree::new(&s);
    let w = record_weights(&t, &VsseParams::default());
    assert_eq!(w.leaves.count, 25);
    assert_eq!(w.n[tbody], [6, 6]);
    // WVC = 6·ln(25/6) + 6·ln(25/6) = 17.125...
    let want = 12.0 * (25.0f64 / 6.0).ln();
    assert!((w.wvc[tbody] - want).abs() < 1e-12);
    assert!((w.wvc[tbody] - 17.1253).abs() < 1e-4);
    assert_eq!(w.wvc[main], w.wvc[tbody]);
    // One row: 1·ln 25 for each characteristic.
    assert!((w.wvc[tbody + 1] - 2.0 * 25f64.ln()).abs() < 1e-12);
}

#[test]
fn hmm_descends_to_the_specification_table() {
    let (s, main, tbody) = product();
    let t = Tree::new(&s);
    let ex = extract_records(&t, &VsseParams::default());
    assert_eq!(ex.details.to_json()["area"], t.css_path(tbody));
    // δ_1(main) = 1 · (1/3) · 17.125/ln 25; the path is body, main, specs, table, tbody.
    let dj_path = ex.details.to_json();
    let path = &dj_path["path"].as_array().unwrap();
    assert_eq!(path.len(), 5);
    let d1 = (1.0f64 / 3.0 * (12.0 * (25.0f64 / 6.0).ln()) / 25f64.ln()).ln();
    assert!((path[1]["log_delta"].as_f64().unwrap() - d1).abs() < 1e-12);
    assert_eq!(path[1]["path"], t.css_path(main));
    let dj_records = ex.details.to_json();
    let records = &dj_records["records"].as_array().unwrap();
    assert_eq!(records.len(), 6);
    assert_eq!(records[0]["attribute"], "Brand");
    assert_eq!(records[0]["value"], "Acme");
    assert_eq!(records[4]["attribute"], "Price");
    assert_eq!(records[4]["value"], "$199");
    assert!(t.subtree(tbody).all(|i| ex.kept[i]));
    assert!(!ex.kept[main] && !ex.kept[0]);
}

#[test]
fn raw_emission_walks_into_one_record() {
    // With b = WVC unnormalized, a row's 2·ln 25 = 6.4 exceeds the 6 rows it is shared among,
    // so the descent enters the first row and then its first cell: what
    // `normalize_emission` is for.
    let (s, _, tbody) = product();
    let t = Tree::new(&s);
    let ex = extract_records(
        &t,
        &VsseParams {
            normalize_emission: false,
            ..VsseParams::default()
        },
    );
    assert_eq!(ex.details.to_json()["area"], t.css_path(tbody + 2));
    assert_eq!(t.node(tbody + 2).tag, "th");
}

#[test]
fn records_need_a_characteristic() {
    let (s, _) = fig3();
    let ex = extract_records(&Tree::new(&s), &VsseParams::default());
    assert!(ex.kept.iter().all(|&k| !k));
    assert_eq!(
        ex.details.to_json()["characteristic_leaves"],
        serde_json::json!([0, 0])
    );
}

#[test]
fn hidden_text_is_a_seed_only_when_kept() {
    let (mut s, numbered) = fig3();
    // Hide the paragraph with the largest vvtc, (2).
    let p2 = s.nodes[numbered[1]].parent as usize;
    s.nodes[p2].rendered = false;
    s.nodes[numbered[1]].rendered = false;
    let t = Tree::new(&s);
    let paper = Leaves::of(&t, &VsseParams::default());
    assert_eq!(
        paper.seeds(&VsseParams {
            min_seeds: 1,
            ..VsseParams::default()
        }),
        numbered[1..3].to_vec()
    );
    let p = VsseParams {
        drop_hidden: true,
        min_seeds: 1,
        ..VsseParams::default()
    };
    let shown = Leaves::of(&t, &p);
    // Nine leaves left: vvtc of (3) is 52·3/81 = 1.93, of (1) 25·5/81 = 1.54 (ratio 0.8).
    assert_eq!(shown.count, 9);
    assert!((shown.vvtc[numbered[2]] - 156.0 / 81.0).abs() < 1e-12);
    assert_eq!(shown.seeds(&p), vec![numbered[0], numbered[2]]);
}
