//! Golden fixtures in real Chromium: every `fixtures/<slug>/page.html` that has an
//! `expect.json` is served on 127.0.0.1, rendered once with outside requests blocked, and
//! scored by each algorithm the expectation names. The extracted text must contain and exclude
//! the listed strings, and the text, HTML and JSON outputs must equal the golden files in
//! `fixtures/<slug>/expected/` (regenerate with `scripts/bless-fixtures`, review the diff).

use std::path::{Path, PathBuf};

use sightline::extract::{extract_tree, Algorithm, Params};
use sightline::output::json::AlgorithmResult;
use sightline::output::{html, text};
use sightline::render::serve::Server;
use sightline::render::{Input, RenderOptions, Renderer};
use sightline::Tree;

#[derive(serde::Deserialize)]
struct Expect {
    algorithm: serde_json::Value,
    #[serde(default)]
    contains: Vec<String>,
    #[serde(default)]
    excludes: Vec<String>,
}

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// The JSON output with what varies between runs removed (timings, loopback port) and floats
/// rounded, so it can be compared with a golden file.
fn normalized_json(r: &AlgorithmResult) -> String {
    fn round(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Number(n) if n.is_f64() => {
                let x = n.as_f64().unwrap_or(0.0);
                *v = serde_json::json!((x * 100.0).round() / 100.0);
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(round),
            serde_json::Value::Object(o) => {
                o.remove("score_ms");
                o.values_mut().for_each(round)
            }
            _ => {}
        }
    }
    let mut v = serde_json::to_value(r).expect("serializes");
    round(&mut v);
    serde_json::to_string_pretty(&v).expect("serializes") + "\n"
}

fn framed_diff(slug: &str, file: &str, want: &str, got: &str) -> String {
    let mut out = format!("\n==== fixture {slug}: {file} differs (- golden, + now) ====\n");
    let (w, g): (Vec<&str>, Vec<&str>) = (want.lines().collect(), got.lines().collect());
    for i in 0..w.len().max(g.len()) {
        match (w.get(i), g.get(i)) {
            (Some(a), Some(b)) if a == b => {}
            (a, b) => {
                if let Some(a) = a {
                    out.push_str(&format!("- {a}\n"));
                }
                if let Some(b) = b {
                    out.push_str(&format!("+ {b}\n"));
                }
            }
        }
    }
    out + "==== regenerate with scripts/bless-fixtures if the change is intended ====\n"
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fixtures_render_and_extract_in_real_chromium() {
    let bless = std::env::var_os("SIGHTLINE_BLESS").is_some();
    let server = Server::start(Some(fixtures_dir()))
        .await
        .expect("loopback server");
    let opts = RenderOptions {
        offline: true,
        ..RenderOptions::default()
    };
    let renderer = Renderer::new(opts)
        .await
        .expect("Chromium must be installed: scripts/test installs it");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(fixtures_dir())
        .expect("fixtures/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("page.html").is_file() && p.join("expect.json").is_file())
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 2, "expected the fixture pages in fixtures/");
    let mut failures = Vec::new();
    let params = Params::default();
    for dir in &dirs {
        let slug = dir.file_name().unwrap().to_string_lossy().to_string();
        let expect: Expect =
            serde_json::from_str(&std::fs::read_to_string(dir.join("expect.json")).unwrap())
                .unwrap_or_else(|e| panic!("fixtures/{slug}/expect.json: {e}"));
        let algos: Vec<Algorithm> = match &expect.algorithm {
            serde_json::Value::String(s) => vec![s.parse().unwrap()],
            serde_json::Value::Array(a) => a
                .iter()
                .map(|s| s.as_str().unwrap().parse().unwrap())
                .collect(),
            _ => panic!("fixtures/{slug}/expect.json: algorithm must be a name or a list"),
        };
        let input = Input::Url(server.url(&format!("/{slug}/page.html")));
        let rendered = match renderer.render(&input).await {
            Ok(r) => r,
            Err(e) => {
                failures.push(format!("fixture {slug}: render failed: {e}"));
                continue;
            }
        };
        let tree = Tree::new(&rendered.snapshot);
        // Resolved links carry the server's ephemeral port: golden files name a fixed origin.
        let origin = server.url("");
        let stable = |s: String| s.replace(&origin, "http://fixtures.test");
        for a in algos {
            let ex = extract_tree(&tree, a, &params);
            let txt = text::render(&tree, &ex);
            for s in &expect.contains {
                if !txt.contains(s.as_str()) {
                    failures.push(format!(
                        "fixture {slug} [{a}]: text lacks {s:?}\n--- text ---\n{txt}"
                    ));
                }
            }
            for s in &expect.excludes {
                if txt.contains(s.as_str()) {
                    failures.push(format!(
                        "fixture {slug} [{a}]: text contains {s:?}\n--- text ---\n{txt}"
                    ));
                }
            }
            let outputs = [
                (format!("{a}.txt"), stable(txt.clone())),
                (format!("{a}.html"), stable(html::render(&tree, &ex))),
                (
                    format!("{a}.json"),
                    stable(normalized_json(&AlgorithmResult::new(&tree, &ex, None))),
                ),
            ];
            let gold_dir = dir.join("expected");
            for (file, got) in outputs {
                let path = gold_dir.join(&file);
                if bless {
                    std::fs::create_dir_all(&gold_dir).unwrap();
                    std::fs::write(&path, &got).unwrap();
                    continue;
                }
                match std::fs::read_to_string(&path) {
                    Ok(want) if want == got => {}
                    Ok(want) => failures.push(framed_diff(&slug, &file, &want, &got)),
                    Err(_) => failures.push(format!("fixture {slug}: golden file expected/{file} is missing: run scripts/bless-fixtures")),
                }
            }
        }
    }
    renderer.shutdown().await;
    assert!(
        failures.is_empty(),
        "{} fixture failure(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}
