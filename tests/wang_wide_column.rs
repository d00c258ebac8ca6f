//! The `wang-wide-column` fixture as a hand-made snapshot with the boxes Chromium gives it on
//! a 1280 px viewport: the article column (60%) beats the denser sidebar (20%) only because of
//! its rendered width. Checks the fixture's `expect.json` on the mirror, and the numbers:
//! article leaves 6, 50, 55, 45 words (mean NodeImp 39, weight 0.6 × 39 = 23.4), sidebar one
//! leaf of 70 words (weight 0.2 × 70 = 14). Checks the committed Chromium `snapshot.json` too.

use std::path::Path;

use sightline::extract::{extract, Algorithm, Params};
use sightline::output::text;
use sightline::snapshot::{rect, Rect, Snapshot, SnapshotBuilder};
use sightline::Tree;

const H1: &str = "The old bridge reopens to traffic";
const P1: &str = "After three years of repairs the old stone bridge across the river opened again today and the first buses crossed it shortly after six. Engineers replaced the worn arches with new stone cut from the same quarry that supplied the original builders a century ago and the deck was widened.";
const P2: &str = "The city council approved the repair plan by one vote after a public debate about the cost and about whether a new steel bridge would serve the growing suburbs better than the old one. In the end the council chose to keep the historic structure and to add a separate crossing for cyclists and walkers.";
const P3: &str = "Traffic on the ring road is expected to fall by a third now the bridge is open. Shop owners in the old town said that trade had suffered during the closure and that they hoped the return of the buses would bring their customers back.";
const SIDE: &str = "From our archive the story of the bridge begins in 1887 when a flood swept away the wooden crossing and the town raised money for a stone bridge that could resist the spring ice which built up against its piers every year and threatened the mills downstream until the dam was finished in 1921 and the river was finally tamed by engineers from the capital who stayed for a decade";
const FOOT: &str = "Example Gazette 2024";

fn dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/wang-wide-column")
}

fn leaf(b: &mut SnapshotBuilder, parent: usize, tag: &str, r: Rect, t: &str) -> usize {
    let id = b.el(parent, tag, r);
    b.text(id, t);
    id
}

fn link(b: &mut SnapshotBuilder, parent: usize, r: Rect, t: &str) {
    let a = b.el(parent, "a", r);
    b.node_mut(a).display = "inline".into();
    b.node_mut(a).href = Some(format!("http://127.0.0.1/{}", t.to_lowercase()));
    b.text(a, t);
}

fn mirror() -> Snapshot {
    let mut b = SnapshotBuilder::new(1280.0);
    b.title("The old bridge reopens to traffic");
    let nav = b.el(0, "ul", rect(0.0, 0.0, 1280.0, 40.0));
    for (k, t) in ["Home", "City", "Sport"].iter().enumerate() {
        let x = 12.0 + 80.0 * k as f64;
        let li = b.el(nav, "li", rect(x, 8.0, 50.0, 24.0));
        b.node_mut(li).display = "list-item".into();
        link(&mut b, li, rect(x, 8.0, 50.0, 24.0), t);
    }
    let wrap = b.el(0, "div", rect(0.0, 40.0, 1280.0, 720.0));
    let main = b.el(wrap, "div", rect(0.0, 40.0, 768.0, 720.0));
    leaf(&mut b, main, "h1", rect(0.0, 61.0, 768.0, 37.0), H1);
    leaf(&mut b, main, "p", rect(12.0, 120.0, 744.0, 120.0), P1);
    leaf(&mut b, main, "p", rect(12.0, 252.0, 744.0, 144.0), P2);
    leaf(&mut b, main, "p", rect(12.0, 408.0, 744.0, 120.0), P3);
    let side = b.el(wrap, "aside", rect(1024.0, 40.0, 256.0, 560.0));
    leaf(&mut b, side, "p", rect(1036.0, 40.0, 232.0, 548.0), SIDE);
    let foot = b.el(0, "div", rect(0.0, 760.0, 1280.0, 40.0));
    leaf(&mut b, foot, "p", rect(0.0, 772.0, 1280.0, 18.0), FOOT);
    let mut snap = b.build();
    snap.keywords = "bridge, river, city council, traffic".into();
    snap
}

#[derive(serde::Deserialize)]
struct Expect {
    algorithm: String,
    contains: Vec<String>,
    excludes: Vec<String>,
}

fn check_expect(snap: &Snapshot) -> serde_json::Value {
    let expect: Expect =
        serde_json::from_str(&std::fs::read_to_string(dir().join("expect.json")).unwrap()).unwrap();
    assert_eq!(expect.algorithm, "wang");
    let tree = Tree::new(snap);
    let ex = extract(snap, Algorithm::Wang, &Params::default());
    let txt = text::render(&tree, &ex);
    for s in &expect.contains {
        assert!(txt.contains(s.as_str()), "text lacks {s:?}:\n{txt}");
    }
    for s in &expect.excludes {
        assert!(!txt.contains(s.as_str()), "text contains {s:?}:\n{txt}");
    }
    ex.details.to_json()
}

#[test]
fn mirror_matches_the_page() {
    let html = std::fs::read_to_string(dir().join("page.html")).unwrap();
    for t in [H1, P1, P2, P3, SIDE, FOOT] {
        assert!(html.contains(t), "page.html lacks {t:?}");
    }
}

#[test]
fn wide_column_wins_by_width() {
    let d = check_expect(&mirror());
    let subs = d["subtrees"].as_array().unwrap();
    let get = |root: &str, k: &str| {
        subs.iter()
            .find(|s| s["root"] == root)
            .unwrap_or_else(|| panic!("no subtree {root}"))[k]
            .as_f64()
            .unwrap()
    };
    let main = "body > div:nth-of-type(1) > div";
    let side = "body > div:nth-of-type(1) > aside";
    assert!((get(main, "width_attr") - 0.6).abs() < 1e-9);
    assert!(
        (get(main, "mean_node_imp") - 39.0).abs() < 1e-9,
        "(6 + 50 + 55 + 45) / 4"
    );
    assert!((get(main, "weight") - 23.4).abs() < 1e-9);
    assert!((get(side, "width_attr") - 0.2).abs() < 1e-9);
    assert!(
        (get(side, "mean_node_imp") - 70.0).abs() < 1e-9,
        "denser than the article"
    );
    assert!((get(side, "weight") - 14.0).abs() < 1e-9);
    assert_eq!(get("body > ul", "weight"), 0.0, "link-only leaves");
    assert!(
        (get("body > div:nth-of-type(2)", "weight") - 3.0).abs() < 1e-9,
        "footer: 1.0 × 3"
    );
    assert_eq!(d["chosen"]["root"], main);
    assert_eq!(d["title"], "The old bridge reopens to traffic");
    assert_eq!(
        d["meta_keywords"],
        serde_json::json!(["bridge", "river", "city council", "traffic"])
    );
}

/// The same page rendered by Chromium (`sightline snapshot ... -o snapshot.json`, committed).
/// A missing or unreadable snapshot fails the test: it must not pass by checking nothing.
#[test]
fn rendered_snapshot_passes_expect_json() {
    let path = dir().join("snapshot.json");
    let json = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; regenerate it with `sightline snapshot fixtures/wang-wide-column/page.html --offline -o fixtures/wang-wide-column/snapshot.json`",
            path.display()
        )
    });
    let snap = Snapshot::from_json(&json, &path.display().to_string()).unwrap();
    let d = check_expect(&snap);
    assert_eq!(d["chosen"]["root"], "body > div:nth-of-type(1) > div");
}
