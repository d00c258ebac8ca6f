//! The shipped `learned` model: it loads from the binary, classifies a hand-built page
//! sensibly (article and headline kept; navigation, cookie banner, footer dropped), and
//! explains each kept block.

use sightline::extract::learned::model::Model;
use sightline::extract::params::Decision;
use sightline::extract::{extract, Algorithm, Params};
use sightline::output::text;
use sightline::snapshot::{rect, SnapshotBuilder};
use sightline::Tree;

fn page() -> sightline::Snapshot {
    let mut b = SnapshotBuilder::new(1366.0);
    b.title("Harbour bridge reopens after two years of repairs | Example News");
    let header = b.el(0, "header", rect(0.0, 0.0, 1366.0, 80.0));
    let nav = b.el(header, "nav", rect(0.0, 40.0, 1366.0, 40.0));
    b.node_mut(nav).class = Some("main-menu".into());
    let ul = b.el(nav, "ul", rect(0.0, 40.0, 1366.0, 40.0));
    for (k, w) in ["Home", "World", "Business", "Sport", "Culture", "Weather"]
        .iter()
        .enumerate()
    {
        let li = b.el(ul, "li", rect(100.0 * k as f64, 40.0, 100.0, 40.0));
        b.node_mut(li).display = "inline-block".into();
        let a = b.el(li, "a", rect(100.0 * k as f64, 40.0, 100.0, 40.0));
        b.text(a, w);
    }
    let main = b.el(0, "main", rect(283.0, 100.0, 800.0, 1400.0));
    let art = b.el(main, "article", rect(283.0, 100.0, 800.0, 1400.0));
    let h1 = b.el(art, "h1", rect(283.0, 100.0, 800.0, 90.0));
    b.node_mut(h1).font_size = 36.0;
    b.node_mut(h1).font_weight = 700;
    b.text(h1, "Harbour bridge reopens after two years of repairs");
    let paragraphs = [
        "The harbour bridge reopened to traffic on Monday morning, two years after engineers closed it to replace its corroded steel cables, the city council said.",
        "Commuters who had faced a forty-minute detour through the industrial district welcomed the news, although some complained that tolls would rise next spring.",
        "Engineers said the new cables, made of galvanised steel strands, should last at least eighty years if they are inspected regularly and repainted every decade.",
        "The repairs cost about 140 million euros, slightly more than the original estimate, because of delays caused by storms during the first winter of the works.",
        "A ceremony with the mayor and the workers who rebuilt the deck is planned for the weekend, when the bridge will be open to pedestrians only.",
    ];
    for (k, t) in paragraphs.iter().enumerate() {
        let p = b.el(
            art,
            "p",
            rect(283.0, 210.0 + 140.0 * k as f64, 800.0, 120.0),
        );
        b.node_mut(p).font_size = 18.0;
        b.text(p, t);
    }
    let footer = b.el(0, "footer", rect(0.0, 1600.0, 1366.0, 120.0));
    b.node_mut(footer).class = Some("site-footer".into());
    for (k, w) in ["About us", "Contact", "Terms of use", "Privacy policy"]
        .iter()
        .enumerate()
    {
        let a = b.el(footer, "a", rect(150.0 * k as f64, 1600.0, 140.0, 20.0));
        b.node_mut(a).font_size = 12.0;
        b.text(a, w);
    }
    let legal = b.el(footer, "p", rect(0.0, 1650.0, 1366.0, 20.0));
    b.node_mut(legal).font_size = 12.0;
    b.text(legal, "© 2024 Example News Ltd. All rights reserved.");
    let banner = b.el(0, "div", rect(0.0, 780.0, 1366.0, 120.0));
    b.node_mut(banner).position = "fixed".into();
    b.node_mut(banner).class = Some("cookie-consent".into());
    let bp = b.el(banner, "p", rect(20.0, 790.0, 900.0, 40.0));
    b.node_mut(bp).font_size = 14.0;
    b.text(
        bp,
        "We use cookies to improve your experience. By continuing you accept our use of cookies.",
    );
    for (k, w) in ["Accept all", "Settings"].iter().enumerate() {
        let btn = b.el(
            banner,
            "button",
            rect(1000.0 + 150.0 * k as f64, 800.0, 140.0, 40.0),
        );
        b.text(btn, w);
    }
    b.build()
}

#[test]
fn shipped_model_loads() {
    let m = Model::shipped().expect("the built-in model parses");
    assert!(m.threshold > 0.0 && m.threshold < 1.0);
    assert!(!m.pass1.trees.is_empty() && !m.pass2.trees.is_empty());
}

#[test]
fn shipped_model_keeps_the_article_and_drops_the_chrome() {
    let snap = page();
    let tree = Tree::new(&snap);
    let ex = extract(&snap, Algorithm::Learned, &Params::default());
    let out = text::render(&tree, &ex);
    for must in [
        "Harbour bridge reopens after two years of repairs",
        "The harbour bridge reopened to traffic",
        "should last at least eighty years",
        "open to pedestrians only.",
    ] {
        assert!(out.contains(must), "missing {must:?} in:\n{out}");
    }
    for never in [
        "We use cookies",
        "Accept all",
        "Business",
        "Terms of use",
        "All rights reserved",
    ] {
        assert!(!out.contains(never), "kept {never:?} in:\n{out}");
    }
    let sightline::extract::Details::Learned(d) = ex.details.clone() else {
        panic!("learned details")
    };
    assert!(d.error.is_none());
    assert_eq!(d.heat.len(), d.units);
    assert!(
        d.blocks.len() >= 6,
        "headline and five paragraphs explained"
    );
    // The default decision keeps exactly the units at or above the page's cutoff.
    assert_eq!(d.decision, Decision::ExpectedF1);
    assert_eq!(
        d.heat.iter().filter(|h| h[4] >= d.threshold).count(),
        d.blocks.len()
    );
    for blk in &d.blocks {
        assert!(blk.probability >= d.threshold);
        assert!(
            !blk.pass1_top.is_empty(),
            "every kept block has contributions"
        );
    }
}

/// The first page a new user renders (`scripts/demo`): with `learned`, the default, the
/// article comes out whole and the fixed cookie banner, the ads and the footer do not.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn demo_page_has_no_cookie_banner_in_real_chromium() {
    use sightline::render::loopback::Server;
    use sightline::render::{Input, RenderOptions, Renderer};
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let server = Server::start(Some(dir)).await.expect("loopback server");
    let renderer = Renderer::new(RenderOptions::default().offline(true))
        .await
        .expect("Chromium must be installed: scripts/test installs it");
    let rendered = renderer
        .render(&Input::Url(server.url("/demo-news/page.html")))
        .await
        .expect("demo page renders");
    renderer.shutdown().await;
    let tree = Tree::new(&rendered.snapshot);
    let ex = sightline::extract::extract_tree(&tree, Algorithm::Learned, &Params::default());
    let out = text::render(&tree, &ex);
    assert!(
        out.contains("switched on its first tidal power station on Monday"),
        "{out}"
    );
    assert!(
        out.contains("no measurable change in the sediment"),
        "{out}"
    );
    for never in [
        "We use cookies",
        "Accept all",
        "Terms of use",
        "Buy the new phone",
    ] {
        assert!(!out.contains(never), "kept {never:?} in:\n{out}");
    }
}

/// `--model FILE`: a model passed to `extract_tree_with` replaces the built-in one.
#[test]
fn a_given_model_replaces_the_built_in_one() {
    let snap = page();
    let mut m = Model::from_json(
        sightline::extract::learned::model::SHIPPED_JSON,
        "shipped copy",
    )
    .unwrap();
    m.threshold = 2.0; // no probability reaches it: nothing is kept
    m.description = "a user's model".into();
    let mut params = Params::default();
    let tree = Tree::new(&snap);
    let run = |params: &Params| {
        sightline::extract::extract_tree_with(&tree, Algorithm::Learned, params, Some(&m))
    };
    // The model's threshold is used by the threshold decision (the default, expected F1,
    // needs none).
    params.learned.decision = Decision::Threshold;
    params.learned.empty_fallback = 0.0; // and no fallback to the page's best units
    let ex = run(&params);
    let sightline::extract::Details::Learned(d) = &ex.details else {
        panic!("learned details")
    };
    assert_eq!(d.model, "a user's model");
    assert!(d.blocks.is_empty());
    assert!(!ex.kept.iter().any(|&k| k));

    // With the default fallback, a page where no unit reaches the threshold keeps the units
    // near its best instead of nothing.
    params.learned.empty_fallback = Params::default().learned.empty_fallback;
    let ex = run(&params);
    assert!(ex.kept.iter().any(|&k| k), "the fallback keeps something");
}

/// `explain: false` (what `eval`, `train` and the text formats run) drops only the feature
/// contributions: the same units are kept with the same probabilities and the same text.
#[test]
fn turning_explanations_off_changes_no_decision() {
    let snap = page();
    let tree = Tree::new(&snap);
    let with = extract(&snap, Algorithm::Learned, &Params::default());
    let mut params = Params::default();
    params.learned.explain = false;
    let without = extract(&snap, Algorithm::Learned, &params);
    assert_eq!(with.kept, without.kept);
    assert_eq!(text::render(&tree, &with), text::render(&tree, &without));
    let (sightline::extract::Details::Learned(a), sightline::extract::Details::Learned(b)) =
        (&with.details, &without.details)
    else {
        panic!("learned details")
    };
    assert_eq!(a.blocks.len(), b.blocks.len());
    assert!(!a.blocks.is_empty());
    for (x, y) in a.blocks.iter().zip(&b.blocks) {
        assert_eq!((x.probability, &x.path), (y.probability, &y.path));
        assert!(!x.pass1_top.is_empty() && !x.pass2_top.is_empty());
        assert!(y.pass1_top.is_empty() && y.pass2_top.is_empty());
    }
}
