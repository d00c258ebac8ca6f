//! The `crunch-portal` fixture as a hand-made snapshot: a navigation bar, a layout table with a
//! section link list, the article, and a right column with an ad link, an ad iframe and a
//! headline list; a spacer table, a hidden notice and a link footer. Checks the fixture's
//! `expect.json` on the mirror and each filter's exact removals. Checks the committed Chromium
//! `snapshot.json` too (a missing one fails).

use std::path::Path;

use serde_json::json;
use sightline::extract::{extract, Algorithm, Params};
use sightline::output::text;
use sightline::snapshot::{rect, Rect, Snapshot, SnapshotBuilder};
use sightline::Tree;

const H1: &str = "Library opens late on weekdays";
const P1: &str = "The central library will stay open until ten in the evening from Monday to Friday, the city announced on Tuesday, after a survey found that most students could only visit after work or evening classes.";
const P2: &str = "The longer hours will be paid for by closing the reading room on Sunday mornings, when fewer than twenty visitors came in on average last year. Staff will rotate between early and late shifts, and no new positions are planned.";
const P3A: &str = "The head librarian said the change was a trial for six months and that the ";
const P3LINK: &str = "full survey results";
const P3B: &str =
    " would be published next week, together with figures on how many people use the late hours.";

fn dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/crunch-portal")
}

fn r(x: f64, y: f64, w: f64, h: f64) -> Rect {
    rect(x, y, w, h)
}

fn link(b: &mut SnapshotBuilder, parent: usize, bx: Rect, t: &str, href: &str) -> usize {
    let a = b.el(parent, "a", bx);
    b.node_mut(a).display = "inline".into();
    b.node_mut(a).href = Some(href.into());
    b.text(a, t);
    a
}

fn inline(b: &mut SnapshotBuilder, parent: usize, tag: &str, bx: Rect) -> usize {
    let e = b.el(parent, tag, bx);
    b.node_mut(e).display = "inline".into();
    e
}

fn mirror() -> Snapshot {
    let site = "http://127.0.0.1:8000";
    let mut b = SnapshotBuilder::new(1280.0);
    b.title("Portal Daily: Library opens late on weekdays");
    let nav = b.el(0, "nav", r(0.0, 0.0, 1280.0, 34.0));
    let ul = b.el(nav, "ul", r(0.0, 0.0, 1280.0, 34.0));
    for (k, (t, h)) in [
        ("Front", "/"),
        ("Local", "/local"),
        ("World", "/world"),
        ("Money", "/money"),
        ("Weather", "/weather"),
        ("Sign in", "/login"),
    ]
    .iter()
    .enumerate()
    {
        let x = 6.0 + 80.0 * k as f64;
        let li = b.el(ul, "li", r(x, 6.0, 66.0, 22.0));
        b.node_mut(li).display = "list-item".into();
        link(&mut b, li, r(x, 6.0, 60.0, 22.0), t, &format!("{site}{h}"));
    }
    let table = b.el(0, "table", r(0.0, 34.0, 1280.0, 520.0));
    b.node_mut(table).display = "table".into();
    let tbody = b.el(table, "tbody", r(0.0, 34.0, 1280.0, 520.0));
    let tr = b.el(tbody, "tr", r(0.0, 34.0, 1280.0, 520.0));
    let left = b.el(tr, "td", r(0.0, 34.0, 256.0, 520.0));
    let bold = inline(&mut b, left, "b", r(8.0, 42.0, 70.0, 20.0));
    b.text(bold, "Sections");
    for (k, (t, h)) in [
        ("Arts and culture", "/arts"),
        ("Schools", "/schools"),
        ("Transport", "/transport"),
        ("Parks and gardens", "/parks"),
        ("Letters to the editor", "/letters"),
        ("Archive", "/archive"),
    ]
    .iter()
    .enumerate()
    {
        // Chromium gives a <br> no box: zero size, not rendered.
        let br = inline(&mut b, left, "br", r(8.0, 60.0 + 20.0 * k as f64, 0.0, 0.0));
        b.node_mut(br).rendered = false;
        link(
            &mut b,
            left,
            r(8.0, 62.0 + 20.0 * k as f64, 150.0, 20.0),
            t,
            &format!("{site}{h}"),
        );
    }
    let main = b.el(tr, "td", r(256.0, 34.0, 704.0, 520.0));
    let h1 = b.el(main, "h1", r(264.0, 42.0, 688.0, 40.0));
    b.text(h1, H1);
    for t in [P1, P2] {
        let p = b.el(main, "p", r(264.0, 100.0, 688.0, 90.0));
        b.text(p, t);
    }
    let p3 = b.el(main, "p", r(264.0, 300.0, 688.0, 90.0));
    b.text(p3, P3A);
    link(
        &mut b,
        p3,
        r(700.0, 300.0, 150.0, 22.0),
        P3LINK,
        "https://library.example.org/survey",
    );
    b.text(p3, P3B);
    let right = b.el(tr, "td", r(960.0, 34.0, 320.0, 520.0));
    let ad = b.el(right, "div", r(968.0, 42.0, 304.0, 130.0));
    let ad_a = link(
        &mut b,
        ad,
        r(972.0, 46.0, 296.0, 122.0),
        "Win a free cruise today",
        "https://ad.doubleclick.net/clk;123;456",
    );
    let img = inline(&mut b, ad_a, "img", r(972.0, 46.0, 250.0, 120.0));
    b.node_mut(img).src = Some("https://tpc.googlesyndication.com/simgad/banner.gif".into());
    let iframe = inline(&mut b, right, "iframe", r(968.0, 180.0, 250.0, 200.0));
    b.node_mut(iframe).src =
        Some("https://securepubads.g.doubleclick.net/gampad/ads?sz=300x250".into());
    let boxed = b.el(right, "div", r(968.0, 390.0, 304.0, 150.0));
    let bb = inline(&mut b, boxed, "b", r(968.0, 390.0, 120.0, 20.0));
    b.text(bb, "More headlines");
    let hl = b.el(boxed, "ul", r(968.0, 410.0, 304.0, 130.0));
    for (k, t) in [
        "Bus fares to rise in spring",
        "New bike lanes on Elm Street",
        "Council delays park budget",
        "Market hall gets a new roof",
        "Record crowds at the fair",
    ]
    .iter()
    .enumerate()
    {
        let li = b.el(hl, "li", r(1008.0, 410.0 + 22.0 * k as f64, 264.0, 22.0));
        b.node_mut(li).display = "list-item".into();
        link(
            &mut b,
            li,
            r(1008.0, 410.0 + 22.0 * k as f64, 200.0, 22.0),
            t,
            &format!("{site}/h{}", k + 1),
        );
    }
    let spacer = b.el(0, "table", r(0.0, 554.0, 1280.0, 30.0));
    let stb = b.el(spacer, "tbody", r(0.0, 554.0, 1280.0, 30.0));
    let str_ = b.el(stb, "tr", r(0.0, 554.0, 1280.0, 30.0));
    b.el(str_, "td", r(0.0, 554.0, 20.0, 30.0));
    let notice = b.el(0, "div", r(0.0, 0.0, 0.0, 0.0));
    b.node_mut(notice).display = "none".into();
    b.node_mut(notice).rendered = false;
    b.text(notice, "Your session has expired, please sign in again.");
    let foot = b.el(0, "div", r(0.0, 584.0, 1280.0, 36.0));
    for (k, (t, h)) in [
        ("About us", "/about"),
        ("Contact", "/contact"),
        ("Jobs", "/jobs"),
        ("Privacy", "/privacy"),
    ]
    .iter()
    .enumerate()
    {
        if k > 0 {
            b.text(foot, " | ");
        }
        link(
            &mut b,
            foot,
            r(8.0 + 80.0 * k as f64, 592.0, 70.0, 20.0),
            t,
            &format!("{site}{h}"),
        );
    }
    b.text(foot, " Portal Daily 2024");
    b.build()
}

#[derive(serde::Deserialize)]
struct Expect {
    algorithm: String,
    contains: Vec<String>,
    excludes: Vec<String>,
}

fn check_expect(snap: &Snapshot, params: &Params) -> (String, serde_json::Value) {
    let expect: Expect =
        serde_json::from_str(&std::fs::read_to_string(dir().join("expect.json")).unwrap()).unwrap();
    assert_eq!(expect.algorithm, "crunch");
    let tree = Tree::new(snap);
    let ex = extract(snap, Algorithm::Crunch, params);
    let txt = text::render(&tree, &ex);
    for s in &expect.contains {
        assert!(txt.contains(s.as_str()), "text lacks {s:?}:\n{txt}");
    }
    for s in &expect.excludes {
        assert!(!txt.contains(s.as_str()), "text contains {s:?}:\n{txt}");
    }
    (txt, ex.details.to_json())
}

fn filter<'a>(d: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    d["filters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == name)
        .unwrap()
}

#[test]
fn mirror_matches_the_page() {
    let html = std::fs::read_to_string(dir().join("page.html")).unwrap();
    for t in [H1, P1, P2, P3A.trim_end(), P3LINK, P3B.trim_end()] {
        assert!(html.contains(t), "page.html lacks {t:?}");
    }
}

#[test]
fn portal_filters_remove_exactly_the_clutter() {
    let (txt, d) = check_expect(&mirror(), &Params::default());
    assert_eq!(
        txt,
        format!("{H1}\n{P1}\n{P2}\n{P3A}{P3LINK}{P3B}\n"),
        "only the article is left"
    );
    let paths = |name: &str| filter(&d, name)["paths"].clone();
    assert_eq!(paths("hidden"), json!(["body > div:nth-of-type(1)"]));
    assert_eq!(
        paths("advertisements"),
        json!([
            "body > table:nth-of-type(1) > tbody > tr > td:nth-of-type(3) > div:nth-of-type(1) > a",
            "body > table:nth-of-type(1) > tbody > tr > td:nth-of-type(3) > iframe"
        ])
    );
    // Blocks scope: the nav (6 links, no words), the section cell (6 links / (8 letters / 5)
    // = 3.75), the right column (5 headline links / (13 / 5) ≈ 1.92; the ad link is already
    // gone) and the footer (4 links / (15 / 5) ≈ 1.33). The article cell: 1 link / 117 words.
    assert_eq!(
        paths("link_lists"),
        json!([
            "body > nav",
            "body > table:nth-of-type(1) > tbody > tr > td:nth-of-type(1)",
            "body > table:nth-of-type(1) > tbody > tr > td:nth-of-type(3)",
            "body > div:nth-of-type(2)"
        ])
    );
    // The paper's scope would leave the nav bar and the footer.
    assert_eq!(d["link_lists"]["would_remove"]["table-cells"]["count"], 2);
    assert_eq!(
        paths("empty_tables"),
        json!(["body > table:nth-of-type(2)"])
    );
    assert_eq!(filter(&d, "images")["enabled"], false);
    assert_eq!(d["retained_links"], json!([]));
}

#[test]
fn retainer_lists_the_removed_text_links() {
    let mut params = Params::default();
    params.crunch.retain_removed_links = true;
    let (_, d) = check_expect(&mirror(), &params);
    let texts: Vec<&str> = d["retained_links"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap())
        .collect();
    // nav 6 + sections 6 + ad 1 (the paper retains every removed text link) + headlines 5 +
    // footer 4; the hidden notice has no link.
    assert_eq!(texts.len(), 22);
    assert_eq!(texts[12], "Win a free cruise today");
    params.crunch.retain_ad_links = false;
    let (_, d) = check_expect(&mirror(), &params);
    assert_eq!(d["retained_links"].as_array().unwrap().len(), 21);
}

/// The same page rendered by Chromium (`sightline snapshot ... -o snapshot.json`, committed).
/// A missing or unreadable snapshot fails the test: it must not pass by checking nothing.
#[test]
fn rendered_snapshot_passes_expect_json() {
    let path = dir().join("snapshot.json");
    let json = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; regenerate it with `sightline snapshot fixtures/crunch-portal/page.html --offline -o fixtures/crunch-portal/snapshot.json`",
            path.display()
        )
    });
    let snap = Snapshot::from_json(&json, &path.display().to_string()).unwrap();
    let (_, d) = check_expect(&snap, &Params::default());
    assert_eq!(filter(&d, "advertisements")["removed"], 2);
}
