//! Golden fixtures in real Chromium: every `fixtures/<slug>/page.html` that has an
//! `expect.json` is served on 127.0.0.1, rendered once with outside requests blocked, and
//! scored by each algorithm the expectation names. The extracted text must contain and exclude
//! the listed strings (and the markdown its `markdown_contains`, written with the
//! expectation's `writer` settings), each section of the JSON output must be its span of the
//! markdown, and the text, HTML and markdown outputs must equal the golden files in
//! `fixtures/<slug>/expected/` (regenerate with `scripts/bless-fixtures`, review the diff).
//! The JSON outputs are compared structurally: strings, counts and keys exactly, boxes within
//! 2 px, text-derived scores within a relative 1e-6 and box-derived scores within 1% (see
//! [`tolerance`]), so a pixel of Chromium layout drift does not fail the suite while a changed
//! score or text does.

use std::path::{Path, PathBuf};

use serde_json::Value;
use sightline::extract::{extract_tree, Algorithm, Params};
use sightline::output::json::AlgorithmResult;
use sightline::output::{html, markdown, text};
use sightline::render::loopback::Server;
use sightline::render::{Input, RenderOptions, Renderer};
use sightline::Tree;

#[derive(serde::Deserialize)]
struct Expect {
    algorithm: serde_json::Value,
    #[serde(default)]
    contains: Vec<String>,
    #[serde(default)]
    excludes: Vec<String>,
    /// Strings the markdown output must hold, and must not (after the loopback origin is
    /// replaced by `http://fixtures.test`).
    #[serde(default)]
    markdown_contains: Vec<String>,
    #[serde(default)]
    markdown_excludes: Vec<String>,
    /// The writers' settings the markdown and JSON outputs are written with (default: the
    /// defaults).
    #[serde(default)]
    writer: sightline::WriterOptions,
}

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// The JSON output with what varies between runs removed (timings). Floats keep their full
/// precision: [`json_mismatches`] compares them with a tolerance instead.
fn normalized_json(r: &AlgorithmResult) -> String {
    fn strip(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Array(a) => a.iter_mut().for_each(strip),
            serde_json::Value::Object(o) => {
                o.remove("score_ms");
                o.values_mut().for_each(strip)
            }
            _ => {}
        }
    }
    let mut v = serde_json::to_value(r).expect("serializes");
    strip(&mut v);
    serde_json::to_string_pretty(&v).expect("serializes") + "\n"
}

/// Geometry (CSS px): a Chromium or font update may move a box by a pixel or two.
const BOX_TOLERANCE_PX: f64 = 2.0;
/// Scores computed from text and tag counts alone: identical up to float summation order.
const TEXT_SCORE_REL: f64 = 1e-6;
/// Scores computed from boxes (VI, HTD and its DensitySum and threshold, Wang's WidthAttr and
/// weight; VSSE's vvtc and path weights count text and are text scores): a 2 px move of a box of 200 px or more changes them by at most
/// about 1%; a small value may instead move by 0.01 absolute.
const LAYOUT_SCORE_REL: f64 = 1e-2;
const LAYOUT_SCORE_ABS: f64 = 1e-2;

/// How closely a float of `algorithm`'s JSON must match, from the object keys on its path.
enum Tol {
    Px,
    Text,
    Layout,
}

fn tolerance(algorithm: &str, path: &[String]) -> Tol {
    let in_box = path.iter().any(|k| matches!(k.as_str(), "box" | "min_box"));
    let key = path.last().map(String::as_str).unwrap_or("");
    if in_box || key == "page_width" {
        return Tol::Px;
    }
    // Every number of the learned classifier reads the layout: probabilities,
    // contributions and feature values within 1%; its heat cells hold boxes.
    if algorithm == "learned" {
        return if path.iter().any(|k| k == "heat") {
            Tol::Px
        } else {
            Tol::Layout
        };
    }
    let layout_key = matches!(key, "vi" | "htd" | "width_attr" | "weight");
    // The chosen density's DensitySum and threshold depend on boxes only for HTD.
    let density_key = matches!(key, "density_sum" | "max_density_sum" | "threshold");
    if layout_key || (density_key && algorithm == "htd") {
        Tol::Layout
    } else {
        Tol::Text
    }
}

fn floats_match(tol: Tol, want: f64, got: f64) -> bool {
    let d = (want - got).abs();
    let scale = want.abs().max(got.abs());
    match tol {
        Tol::Px => d <= BOX_TOLERANCE_PX,
        Tol::Text => d <= TEXT_SCORE_REL * scale.max(1.0),
        Tol::Layout => d <= LAYOUT_SCORE_REL * scale || d <= LAYOUT_SCORE_ABS,
    }
}

/// Where `got` differs from the golden `want` beyond the tolerances above: strings, integers,
/// booleans, keys and array lengths must be equal; floats within [`tolerance`]. Each entry
/// names the JSON path.
fn json_mismatches(algorithm: &str, want: &Value, got: &Value) -> Vec<String> {
    fn walk(alg: &str, path: &mut Vec<String>, w: &Value, g: &Value, out: &mut Vec<String>) {
        let at = |path: &[String]| format!("/{}", path.join("/"));
        match (w, g) {
            (Value::Object(wo), Value::Object(go)) => {
                for k in wo.keys().filter(|k| !go.contains_key(*k)) {
                    out.push(format!("{}/{k}: missing now", at(path)));
                }
                for k in go.keys().filter(|k| !wo.contains_key(*k)) {
                    out.push(format!("{}/{k}: new key", at(path)));
                }
                for (k, wv) in wo {
                    if let Some(gv) = go.get(k) {
                        path.push(k.clone());
                        walk(alg, path, wv, gv, out);
                        path.pop();
                    }
                }
            }
            (Value::Array(wa), Value::Array(ga)) if wa.len() == ga.len() => {
                for (i, (wv, gv)) in wa.iter().zip(ga).enumerate() {
                    path.push(i.to_string());
                    walk(alg, path, wv, gv, out);
                    path.pop();
                }
            }
            (Value::Array(wa), Value::Array(ga)) => out.push(format!(
                "{}: {} elements in the golden file, {} now",
                at(path),
                wa.len(),
                ga.len()
            )),
            (Value::Number(wn), Value::Number(gn)) if wn.is_f64() || gn.is_f64() => {
                let (wf, gf) = (
                    wn.as_f64().unwrap_or(f64::NAN),
                    gn.as_f64().unwrap_or(f64::NAN),
                );
                // Keys are object names; array indices are skipped when choosing the tolerance.
                let keys: Vec<String> = path
                    .iter()
                    .filter(|k| k.parse::<usize>().is_err())
                    .cloned()
                    .collect();
                if !floats_match(tolerance(alg, &keys), wf, gf) {
                    out.push(format!("{}: {wf} in the golden file, {gf} now", at(path)));
                }
            }
            (w, g) if w == g => {}
            (w, g) => out.push(format!("{}: {w} in the golden file, {g} now", at(path))),
        }
    }
    let mut out = Vec::new();
    walk(algorithm, &mut Vec::new(), want, got, &mut out);
    out
}

/// A line diff of the golden file against the new output (Myers, the `similar` crate), so an
/// inserted line shows as one insertion rather than a shifted tail.
fn framed_diff(slug: &str, file: &str, want: &str, got: &str) -> String {
    let mut out = format!("\n==== fixture {slug}: {file} differs (- golden, + now) ====\n");
    let diff = similar::TextDiff::from_lines(want, got);
    for group in diff.grouped_ops(2) {
        for op in group {
            for change in diff.iter_changes(&op) {
                let sign = match change.tag() {
                    similar::ChangeTag::Delete => "- ",
                    similar::ChangeTag::Insert => "+ ",
                    similar::ChangeTag::Equal => "  ",
                };
                out.push_str(sign);
                out.push_str(change.value().trim_end_matches('\n'));
                out.push('\n');
            }
        }
        out.push_str("  ...\n");
    }
    out + "==== regenerate with scripts/bless-fixtures if the change is intended ====\n"
}

/// Compares one output with its golden file: `.json` outputs structurally with tolerances
/// (listing the paths that differ, then the line diff), the text and HTML outputs exactly.
fn compare(slug: &str, algorithm: &str, file: &str, want: &str, got: &str) -> Option<String> {
    if file.ends_with(".json") {
        let parse = |s: &str, what: &str| -> Result<Value, String> {
            serde_json::from_str(s)
                .map_err(|e| format!("fixture {slug}: {what} {file} is not JSON: {e}"))
        };
        let (w, g) = match (parse(want, "golden"), parse(got, "new")) {
            (Ok(w), Ok(g)) => (w, g),
            (Err(e), _) | (_, Err(e)) => return Some(e),
        };
        let mism = json_mismatches(algorithm, &w, &g);
        if mism.is_empty() {
            return None;
        }
        return Some(format!(
            "\nfixture {slug}: {file}: beyond tolerance (boxes ±{BOX_TOLERANCE_PX} px, text scores \
             relative {TEXT_SCORE_REL:e}, layout scores relative {LAYOUT_SCORE_REL:e}):\n  {}{}",
            mism.join("\n  "),
            framed_diff(slug, file, want, got)
        ));
    }
    (want != got).then(|| framed_diff(slug, file, want, got))
}

#[test]
fn framed_diff_shows_an_inserted_line_as_one_insertion() {
    let d = framed_diff("s", "f.txt", "a\nb\nc\n", "a\nnew\nb\nc\n");
    let changed: Vec<&str> = d
        .lines()
        .filter(|l| l.starts_with("+ ") || l.starts_with("- "))
        .collect();
    assert_eq!(changed, vec!["+ new"], "{d}");
}

#[test]
fn golden_json_tolerates_pixel_moves_but_not_score_or_text_changes() {
    let want = serde_json::json!({
        "algorithm": "ctd",
        "content": [{"box": [393.0, 42.6, 600.0, 449.3], "chars": 763,
                     "scores": {"ctd": 651.5312, "vi": 0.34}}],
        "text": "a b c"
    });
    let moved = serde_json::json!({
        "algorithm": "ctd",
        "content": [{"box": [394.5, 41.0, 600.0, 450.0], "chars": 763,
                     "scores": {"ctd": 651.531_200_1, "vi": 0.341}}],
        "text": "a b c"
    });
    assert!(json_mismatches("ctd", &want, &moved).is_empty());
    let mut far = moved.clone();
    far["content"][0]["box"][0] = serde_json::json!(396.0);
    assert_eq!(json_mismatches("ctd", &want, &far).len(), 1);
    let mut score = moved.clone();
    score["content"][0]["scores"]["ctd"] = serde_json::json!(651.54);
    let m = json_mismatches("ctd", &want, &score);
    assert_eq!(m.len(), 1);
    assert!(m[0].starts_with("/content/0/scores/ctd"), "{m:?}");
    let mut count = moved.clone();
    count["content"][0]["chars"] = serde_json::json!(764);
    assert_eq!(json_mismatches("ctd", &want, &count).len(), 1);
    let mut text = moved.clone();
    text["text"] = serde_json::json!("a b");
    assert_eq!(json_mismatches("ctd", &want, &text).len(), 1);
    let mut more = moved;
    more["content"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({}));
    assert_eq!(json_mismatches("ctd", &want, &more).len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fixtures_render_and_extract_in_real_chromium() {
    let bless = std::env::var_os("SIGHTLINE_BLESS").is_some();
    let server = Server::start(Some(fixtures_dir()))
        .await
        .expect("loopback server");
    // The scroll phase is bounded by steps and pixels here, not by its time budget, so a
    // loaded machine scrolls an infinite page exactly as far as an idle one (the page
    // deadline still caps it).
    let opts = RenderOptions::default()
        .offline(true)
        .scroll(sightline::render::ScrollOptions {
            budget: std::time::Duration::from_secs(12),
            ..sightline::render::ScrollOptions::default()
        });
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
            let md = stable(markdown::write(&tree, &ex, &expect.writer).markdown);
            for s in &expect.markdown_contains {
                if !md.contains(s.as_str()) {
                    failures.push(format!(
                        "fixture {slug} [{a}]: markdown lacks {s:?}\n--- markdown ---\n{md}"
                    ));
                }
            }
            for s in &expect.markdown_excludes {
                if md.contains(s.as_str()) {
                    failures.push(format!(
                        "fixture {slug} [{a}]: markdown contains {s:?}\n--- markdown ---\n{md}"
                    ));
                }
            }
            let result = AlgorithmResult::new(&tree, &ex, None, &expect.writer);
            for s in &result.sections {
                if s.slice(&result.markdown) != s.markdown {
                    failures.push(format!(
                        "fixture {slug} [{a}]: section {:?} is not its span of the markdown",
                        s.heading_path
                    ));
                }
            }
            let outputs = [
                (format!("{a}.txt"), stable(txt.clone())),
                (format!("{a}.html"), stable(html::render(&tree, &ex))),
                (format!("{a}.md"), md),
                (format!("{a}.json"), stable(normalized_json(&result))),
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
                    Ok(want) => failures.extend(compare(&slug, a.name(), &file, &want, &got)),
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
