//! Skipping what is not needed, in real Chromium (`Steer::block`, `Steer::block_list`):
//! `fixtures/steer-block/` is served from loopback with its images, web font, video, script
//! and stylesheet, and read three ways by one extractor:
//!
//! - as it is: nothing is skipped and the record has no `skipped_requests`;
//! - images, media and fonts blocked: each is refused and counted, the page's text is the
//!   same, and the images sized by their attributes keep their boxes (the same size in the
//!   snapshot as with the images loaded, the one sized by CSS and the ratio of its attributes
//!   too);
//! - with the fixture's block list (Adblock Plus syntax): the script and the stylesheet it
//!   names are refused, so the script's note is missing and the paragraph the stylesheet hid
//!   shows.
//!
//! Assertions are on the record and the snapshot only.

use std::path::Path;
use std::sync::Arc;

use sightline::render::steer::{load_block_list, Blocked};
use sightline::{Extractor, Options, Page, Snapshot, Steer};

/// The extractor's options: one tab, offline (loopback only).
fn options() -> Options {
    Options::default().tabs(1).offline(true)
}

fn fixture_root() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// The snapshot's visible text, node by node.
fn texts(s: &Snapshot) -> Vec<String> {
    s.nodes
        .iter()
        .filter(|n| n.rendered)
        .filter_map(|n| n.text.clone())
        .collect()
}

/// The `[x, y, w, h]` of the element with this id.
fn rect_of(s: &Snapshot, id: &str) -> [f64; 4] {
    let n = s
        .nodes
        .iter()
        .find(|n| n.id.as_deref() == Some(id))
        .unwrap_or_else(|| panic!("#{id} is in the snapshot"));
    [n.rect.x, n.rect.y, n.rect.w, n.rect.h]
}

/// Extract `url` with this page's steering plan.
async fn read(ex: &Extractor, url: &str, steer: Steer) -> Page {
    let cfg = Arc::new(options().page_config().clone().steer(steer));
    ex.extract_with(url, cfg, None)
        .await
        .unwrap_or_else(|e| panic!("{url}: {e}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn blocked_types_and_a_block_list_skip_their_requests_and_keep_the_text_and_image_boxes() {
    let server = sightline::render::loopback::Server::start(Some(fixture_root()))
        .await
        .expect("loopback server");
    let url = server.url("/steer-block/page.html");
    let list = load_block_list(&fixture_root().join("steer-block/block-list.txt"))
        .expect("the fixture's block list loads");
    let ex = Extractor::new(options())
        .await
        .expect("Chromium must be installed: scripts/test installs it");

    let plain = read(&ex, &url, Steer::default()).await;
    let mut types = Steer::default();
    types.block = vec![Blocked::Images, Blocked::Media, Blocked::Fonts];
    let blocked = read(&ex, &url, types).await;
    let mut by_list = Steer::default();
    by_list.block_list = Some(list);
    let listed = read(&ex, &url, by_list).await;
    ex.shutdown().await;

    // As it is: nothing skipped, no field in the record; the script ran and the stylesheet
    // applied.
    let rec = plain.json();
    assert!(rec.get("skipped_requests").is_none(), "{rec}");
    assert!(plain
        .snapshot()
        .nodes
        .iter()
        .any(|n| n.id.as_deref() == Some("tracker-note")));
    let shown = texts(plain.snapshot());
    assert!(
        !shown.iter().any(|t| t.contains("hidden by the stylesheet")),
        "{shown:?}"
    );

    // Images, media and fonts blocked: each counted, the text the same, the boxes of images
    // sized by their attributes (one also by CSS) the same.
    let rec = blocked.json();
    let skipped = &rec["skipped_requests"];
    assert_eq!(skipped["images"], 3, "{rec}");
    assert_eq!(skipped["fonts"], 1, "{rec}");
    assert!(skipped["media"].as_u64().unwrap_or(0) >= 1, "{rec}");
    assert!(skipped.get("block_list").is_none(), "{rec}");
    assert_eq!(texts(blocked.snapshot()), texts(plain.snapshot()));
    assert_eq!(blocked.text(), plain.text());
    // (Their positions move by what the image without a size, above #fluid, changed.)
    for id in ["sized", "fluid", "clip"] {
        assert_eq!(
            rect_of(blocked.snapshot(), id)[2..],
            rect_of(plain.snapshot(), id)[2..],
            "#{id} keeps its size"
        );
    }
    // The images keep their sources (the Markdown still links them).
    let src = |p: &Page| {
        p.snapshot()
            .nodes
            .iter()
            .find(|n| n.id.as_deref() == Some("sized"))
            .and_then(|n| n.src.clone())
    };
    assert_eq!(src(&blocked), src(&plain));
    assert!(src(&blocked).is_some_and(|s| s.ends_with("/steer-block/sized.png")));

    // The block list: the named script and stylesheet refused (and nothing else).
    let rec = listed.json();
    assert_eq!(rec["skipped_requests"]["block_list"], 2, "{rec}");
    assert!(rec["skipped_requests"].get("images").is_none(), "{rec}");
    assert!(!listed
        .snapshot()
        .nodes
        .iter()
        .any(|n| n.id.as_deref() == Some("tracker-note")));
    let shown = texts(listed.snapshot());
    assert!(
        shown.iter().any(|t| t.contains("hidden by the stylesheet")),
        "{shown:?}"
    );
}

/// A block list that is not one is refused when it is loaded, naming the file and the fix.
#[test]
fn a_file_without_filters_is_not_a_block_list() {
    let page = fixture_root().join("steer-block/page.html");
    let e = load_block_list(&page).expect_err("an HTML page is not a filter list");
    assert_eq!(e.kind(), "input");
    let m = e.to_string();
    assert!(m.contains("page.html") && m.contains("Adblock Plus"), "{m}");
}

/// [`read`] for pages that may fail (the benchmark's).
async fn read_or_fail(ex: &Extractor, url: &str, steer: Steer) -> Result<Page, sightline::Error> {
    let cfg = Arc::new(options().page_config().clone().steer(steer));
    ex.extract_with(url, cfg, None).await
}

/// The measurement behind `scripts/bench-block` (not a test: it runs only when the script
/// builds its set of pages and names it in `SIGHTLINE_BLOCK_SET`). Each page of the set is
/// rendered with its images loaded and with them blocked, `SIGHTLINE_BLOCK_REPS` times each,
/// alternating; it prints the render time, how far the layout moved and the quality against
/// the benchmark's gold, both ways.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement: run scripts/bench-block"]
async fn measure_image_blocking() {
    use sightline::eval::bench::Dataset;
    use sightline::eval::metrics::score;
    let Some(set) = std::env::var_os("SIGHTLINE_BLOCK_SET").map(std::path::PathBuf::from) else {
        eprintln!("skipped: SIGHTLINE_BLOCK_SET is not set (run scripts/bench-block)");
        return;
    };
    let bench =
        std::path::PathBuf::from(std::env::var("SIGHTLINE_BENCH").expect("SIGHTLINE_BENCH"));
    let reps: usize = std::env::var("SIGHTLINE_BLOCK_REPS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3);
    let mut pages: Vec<String> = std::fs::read_dir(set.join("pages"))
        .expect("the set's pages/")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    pages.sort();
    let server = sightline::render::loopback::Server::start(Some(set.clone()))
        .await
        .expect("loopback");
    let ex = Extractor::new(options()).await.expect("Chromium");
    let mut block = Steer::default();
    block.block = vec![Blocked::Images];
    let render_ms = |p: &Page| {
        let t = p.timings().expect("timings");
        [t.navigate, t.settle, t.scroll, t.snapshot]
            .iter()
            .map(|v| v.unwrap_or(0.0))
            .sum::<f64>()
    };
    let median = |mut v: Vec<f64>| {
        v.sort_by(|a, b| a.partial_cmp(b).unwrap());
        v[v.len() / 2]
    };
    let (mut ms_loaded, mut ms_blocked) = (Vec::new(), Vec::new());
    let (mut f1_loaded, mut f1_blocked, mut f1_agree) = (Vec::new(), Vec::new(), Vec::new());
    let (mut text_nodes, mut moved, mut shift_px) = (0usize, 0usize, 0.0f64);
    let (mut imgs, mut imgs_same, mut skipped_images) = (0usize, 0usize, 0u64);
    let mut unmatched = 0;
    for name in &pages {
        let (ds, id) = name
            .trim_end_matches(".html")
            .split_once("__")
            .expect("DATASET__ID.html");
        let gold = Dataset::open(&bench, ds)
            .and_then(|d| d.gold(id))
            .expect("gold");
        let url = server.url(&format!("/pages/{name}"));
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let (mut loaded, mut blocked) = (None, None);
        for r in 0..reps {
            for first in [r % 2 == 0, r % 2 == 1] {
                let steer = if first {
                    Steer::default()
                } else {
                    block.clone()
                };
                let Ok(p) = read_or_fail(&ex, &url, steer).await else {
                    continue;
                };
                if first {
                    a.push(render_ms(&p));
                    loaded = Some(p);
                } else {
                    b.push(render_ms(&p));
                    blocked = Some(p);
                }
            }
        }
        let (Some(loaded), Some(blocked)) = (loaded, blocked) else {
            continue;
        };
        ms_loaded.push(median(a));
        ms_blocked.push(median(b));
        skipped_images += blocked.json()["skipped_requests"]["images"]
            .as_u64()
            .unwrap_or(0);
        f1_loaded.push(score(&loaded.text(), &gold).lcs_f1);
        f1_blocked.push(score(&blocked.text(), &gold).lcs_f1);
        f1_agree.push(score(&blocked.text(), &loaded.text()).lcs_f1);
        let boxes = |p: &Page, img: bool| -> Vec<[f64; 4]> {
            p.snapshot()
                .nodes
                .iter()
                .filter(|n| {
                    n.rendered
                        && if img {
                            n.tag == "img"
                        } else {
                            n.text.is_some()
                        }
                })
                .map(|n| [n.rect.x, n.rect.y, n.rect.w, n.rect.h])
                .collect()
        };
        let (ta, tb) = (boxes(&loaded, false), boxes(&blocked, false));
        if ta.len() == tb.len() {
            for (x, y) in ta.iter().zip(&tb) {
                text_nodes += 1;
                let d = (x[0] - y[0]).abs().max((x[1] - y[1]).abs());
                if d > 1.0 {
                    moved += 1;
                }
                shift_px += (x[1] - y[1]).abs();
            }
        } else {
            unmatched += 1;
        }
        let (ia, ib) = (boxes(&loaded, true), boxes(&blocked, true));
        if ia.len() == ib.len() {
            for (x, y) in ia.iter().zip(&ib) {
                imgs += 1;
                if (x[2] - y[2]).abs() <= 1.0 && (x[3] - y[3]).abs() <= 1.0 {
                    imgs_same += 1;
                }
            }
        }
    }
    ex.shutdown().await;
    let n = ms_loaded.len();
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
    println!("\n{n} pages with images ({} images skipped when blocked), median of {reps} renders each; one tab, offline, loopback", skipped_images);
    println!("\n| | images loaded | images blocked |\n|---|---:|---:|");
    println!(
        "| render ms a page (mean of medians) | {:.0} | {:.0} |",
        mean(&ms_loaded),
        mean(&ms_blocked)
    );
    println!(
        "| render s, all pages | {:.1} | {:.1} |",
        ms_loaded.iter().sum::<f64>() / 1e3,
        ms_blocked.iter().sum::<f64>() / 1e3
    );
    println!(
        "| mean LCS-F1 against the gold | {:.4} | {:.4} |",
        mean(&f1_loaded),
        mean(&f1_blocked)
    );
    println!(
        "\nLayout: {moved} of {text_nodes} text nodes moved by more than 1 px ({:.1}%), mean vertical shift {:.1} px; {imgs_same} of {imgs} image boxes kept their size ({:.1}%); {unmatched} pages' text nodes did not pair up.",
        100.0 * moved as f64 / text_nodes.max(1) as f64,
        shift_px / text_nodes.max(1) as f64,
        100.0 * imgs_same as f64 / imgs.max(1) as f64
    );
    println!(
        "Output agreement (LCS-F1 of the blocked output against the loaded one): mean {:.4}",
        mean(&f1_agree)
    );
}
