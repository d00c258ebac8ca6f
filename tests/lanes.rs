//! The render lanes in real Chromium (`--render auto|full|static`, `crates/render/src/lane.rs`), on
//! fixture pages served by a loopback server that counts the requests for each path:
//!
//! - `static`: the record says `render: {"mode": "static", "reason": "asked"}`, the content a
//!   script builds is absent, the page's image and external script are not fetched (refused
//!   by the lane's Content-Security-Policy in Chromium: never requested, so not even counted
//!   in `skipped_requests`), nothing scrolls, and a `javascript:` frame (whose `load` never
//!   comes with scripts off) does not hold the page to its deadline;
//! - `full` (the default): no `render` in the record, the script-built content is there;
//! - `auto`: a server-rendered article is static, a page whose story a script fetches is full
//!   (decided from the response), and a page that looks server-rendered but whose static render
//!   shows too little is rendered again in full: two renders, one request for the page;
//! - a `<noscript>` in a page rendered without scripts shows its elements, never its markup as
//!   text (in `static`, and in `auto` where it chose `static`);
//! - a plan that waits is refused by `static` (an `input` error) and renders `auto` in full.
//!
//! Assertions are on the record, the snapshot and the server's request counts.

mod common;

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

use common::http::{answering, Answer};
use sightline::{Extractor, Options, Page, RenderMode, Steer};

fn fixture(path: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures")
            .join(path),
    )
    .unwrap()
}

/// A page that looks server-rendered (a heading, no sign of a script-built body) whose text
/// its one external script writes.
const THIN: &str = r#"<!doctype html><html><head><meta charset="utf-8"><title>Tide tables</title></head>
<body><h1>Tide tables</h1><img src="/harbour.png" width="320" height="200" alt=""><div id="tides"></div>
<script src="/tides.js"></script></body></html>"#;

const TIDES_JS: &str = r#"document.getElementById("tides").innerHTML = "<p>High water at the harbour mouth comes forty minutes after it reaches the lighthouse, and the spring tides of March and September cover the causeway for nearly three hours, so walkers should check the board by the slipway before they set out across the sands.</p>";"#;

/// A page with a frame whose `javascript:` URL never runs with scripts off (so `load` never
/// comes in the static lane).
const JS_FRAME: &str = r#"<!doctype html><html><head><meta charset="utf-8"><title>Frames</title></head>
<body><h1>The ferry</h1><p>The ferry leaves at nine.</p><iframe src="javascript:false"></iframe></body></html>"#;

/// A server-rendered article with a `<noscript>` holding markup (a tracking pixel, a line for
/// readers without scripts), once as elements and once escaped as text, as a page saved by a
/// serializer that escapes it holds it (`readability/yahoo-4`): without scripts its content
/// shows as elements, never as markup.
fn noscript_page() -> String {
    let para = "The lock keeper opens the upper gates at dawn, when the river is at its calmest, and the first barges of the day slide into the chamber one behind the other while the water drops beneath them. ";
    format!(
        r#"<!doctype html><html><head><meta charset="utf-8"><title>The lock</title></head>
<body><h1>The lock</h1><p>{}</p><p>{}</p>
<noscript><div style="position:absolute"><img src="/pixel.gif" width="1" height="1" alt=""></div><p class="nojs">Comments need scripts to load.</p></noscript>
<noscript>&lt;div style="position:absolute"&gt;&lt;img src="/pixel2.gif" width=1 height=1 alt=""&gt;&lt;/div&gt;&lt;p&gt;Ratings need scripts too.&lt;/p&gt;</noscript>
</body></html>"#,
        para.repeat(4),
        para.repeat(3)
    )
}

/// The loopback server: each path's answer, and how many times it was asked for.
fn server() -> (String, Arc<Mutex<HashMap<String, usize>>>) {
    let counts = Arc::new(Mutex::new(HashMap::new()));
    let seen = counts.clone();
    let base = answering(move |req| {
        let path = req.path.split('?').next().unwrap_or("").to_string();
        *seen.lock().unwrap().entry(path.clone()).or_insert(0) += 1;
        match path.as_str() {
            "/article" => Answer::html(200, fixture("layout-article/page.html")),
            "/late" => Answer::html(200, fixture("js-late-fetch/page.html")),
            "/story.json" => Answer::bare(200, fixture("js-late-fetch/story.json"))
                .with("Content-Type", "application/json"),
            "/thin" => Answer::html(200, THIN),
            "/js-frame" => Answer::html(200, JS_FRAME),
            "/noscript" => Answer::html(200, noscript_page()),
            "/tides.js" => Answer::bare(200, TIDES_JS).with("Content-Type", "text/javascript"),
            _ => Answer::html(404, "<p>not here</p>"),
        }
    });
    (base, counts)
}

/// Every rendered text of the snapshot, joined.
fn shown(p: &Page) -> String {
    common::shown_text(p.snapshot())
}

async fn extractor(mode: RenderMode) -> Extractor {
    Extractor::new(Options::default().tabs(1).offline(true).render_mode(mode))
        .await
        .expect("Chromium must be installed: scripts/test installs it")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_lane_renders_as_it_says_and_auto_fetches_each_page_once() {
    let (base, counts) = server();
    let url = |p: &str| format!("{base}{p}");

    // static
    let ex = extractor(RenderMode::Static).await;
    let late = ex.extract(&url("/late")).await.expect("/late static");
    let thin = ex.extract(&url("/thin")).await.expect("/thin static");
    let frame = ex
        .extract(&url("/js-frame"))
        .await
        .expect("/js-frame static");
    let noscript = ex
        .extract(&url("/noscript"))
        .await
        .expect("/noscript static");
    let mut waits = Steer::default();
    waits.wait_for = Some("#app h1".into());
    let cfg = Arc::new(
        Options::default()
            .offline(true)
            .page_config()
            .clone()
            .steer(waits.clone()),
    );
    let refused = ex.extract_with(&url("/late"), cfg, None).await;
    ex.shutdown().await;
    let record = late.json();
    assert_eq!(
        record["render"],
        serde_json::json!({"mode": "static", "reason": "asked", "renders": 1}),
        "{record}"
    );
    assert_eq!(record["scroll"]["stopped"], "static", "{record}");
    let text = shown(&late);
    assert!(
        text.contains("Story loading"),
        "the placeholder stays: {text}"
    );
    assert!(
        !text.contains("ran again on Friday"),
        "no script ran: {text}"
    );
    assert_eq!(counts.lock().unwrap().get("/story.json"), None);
    // Its image and script are never asked for: the lane's policy refuses them in Chromium
    // (no request reaches the interception to be skipped and counted there).
    assert!(
        thin.json().get("skipped_requests").is_none(),
        "{}",
        thin.json()
    );
    assert_eq!(counts.lock().unwrap().get("/harbour.png"), None);
    assert_eq!(counts.lock().unwrap().get("/tides.js"), None);
    // A `javascript:` frame holds `load` back for good with scripts off: the static lane
    // captures the page once it is here and quiet, long before the 15 s deadline.
    let nav = frame.json()["timings_ms"]["navigate"].as_f64().unwrap();
    assert!(nav < 10_000.0, "{}", frame.json());
    assert!(shown(&frame).contains("The ferry leaves at nine"));
    // The `<noscript>` shows what a browser without scripts shows: its elements, not the
    // markup its parser (set up with scripts on) held as text.
    let text = shown(&noscript);
    assert!(text.contains("Comments need scripts to load"), "{text}");
    assert!(text.contains("Ratings need scripts too"), "{text}");
    assert!(!text.contains("<img") && !text.contains("<div"), "{text}");
    let Err(e) = refused else {
        panic!("static refuses a plan that waits")
    };
    assert_eq!(e.kind(), "input", "{e}");
    assert!(e.to_string().contains("--render full"), "{e}");

    // full, the default: no `render` in the record
    let ex = extractor(RenderMode::Full).await;
    let late = ex.extract(&url("/late")).await.expect("/late full");
    ex.shutdown().await;
    assert!(late.json().get("render").is_none(), "{}", late.json());
    assert!(shown(&late).contains("ran again on Friday"));

    // auto
    counts.lock().unwrap().clear();
    let ex = extractor(RenderMode::Auto).await;
    let article = ex.extract(&url("/article")).await.expect("/article auto");
    let late = ex.extract(&url("/late")).await.expect("/late auto");
    let thin = ex.extract(&url("/thin")).await.expect("/thin auto");
    let noscript = ex.extract(&url("/noscript")).await.expect("/noscript auto");
    // A file: URL (no response to hold) is decided from the file's bytes.
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/layout-article/page.html");
    let file_url = format!("file://{}", file.display());
    let from_file = ex.extract(&file_url).await.expect("file: URL auto");
    let cfg = Arc::new(
        Options::default()
            .offline(true)
            .page_config()
            .clone()
            .steer(waits),
    );
    let steered = ex
        .extract_with(&url("/late"), cfg, None)
        .await
        .expect("/late auto, steered");
    ex.shutdown().await;
    let r = &article.json()["render"];
    assert_eq!(r["mode"], "static", "{r}");
    assert!(
        r["reason"].as_str().unwrap().starts_with("server-rendered"),
        "{r}"
    );
    let r = &late.json()["render"];
    assert_eq!(
        (r["mode"].as_str(), r["renders"].as_u64()),
        (Some("full"), Some(1)),
        "{r}"
    );
    assert!(
        r["reason"].as_str().unwrap().starts_with("script-fills"),
        "{r}"
    );
    assert!(shown(&late).contains("ran again on Friday"));
    let r = &thin.json()["render"];
    assert_eq!(
        (r["mode"].as_str(), r["renders"].as_u64()),
        (Some("full"), Some(2)),
        "{r}"
    );
    assert!(
        r["reason"]
            .as_str()
            .unwrap()
            .contains("the static render showed"),
        "{r}"
    );
    assert!(shown(&thin).contains("High water at the harbour mouth"));
    assert_eq!(
        noscript.json()["render"]["mode"],
        "static",
        "{}",
        noscript.json()
    );
    let text = shown(&noscript);
    assert!(text.contains("Comments need scripts to load"), "{text}");
    assert!(text.contains("Ratings need scripts too"), "{text}");
    assert!(!text.contains("<img") && !text.contains("<div"), "{text}");
    let r = &from_file.json()["render"];
    assert_eq!(r["mode"], "static", "{r}");
    let r = &steered.json()["render"];
    assert_eq!(r["mode"], "full", "{r}");
    assert!(r["reason"].as_str().unwrap().starts_with("steered"), "{r}");
    // Each page fetched once (the steered /late a second time: it is another extraction).
    let counts = counts.lock().unwrap();
    assert_eq!(counts.get("/article"), Some(&1), "{counts:?}");
    assert_eq!(counts.get("/thin"), Some(&1), "{counts:?}");
    assert_eq!(counts.get("/late"), Some(&2), "{counts:?}");
}

/// The command line refuses `--render static` with a plan that needs scripts before any page
/// (exit 2, the flag and the fix named on stderr).
#[test]
fn the_command_line_refuses_a_static_lane_with_waits() {
    let page = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/layout-article/page.html");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sightline"))
        .args([
            "extract",
            "--offline",
            "--render",
            "static",
            "--wait-for",
            "h1",
        ])
        .arg(&page)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--render static runs no scripts"), "{err}");
    assert!(err.contains("use --render full"), "{err}");
    assert!(out.stdout.is_empty());
}
