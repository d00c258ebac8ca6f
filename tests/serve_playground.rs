//! The playground of `sightline serve` (`GET /`) and the API it calls: the page is served
//! with a strict Content-Security-Policy and under 200 KB, says when the service requires a
//! token (and the API then refuses calls without it); `POST /score` scores a saved snapshot
//! with no browser; `units: true` adds each text unit's box, probability, contributions and
//! keeping algorithms to the record, and records without it have no `units` key. The page
//! itself is driven in a browser by python/tests/test_playground.py.

mod common;

use std::time::Duration;

use common::start;
use serde_json::{json, Value};

fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(60))
        .build()
        .unwrap()
}

fn snapshot() -> Value {
    let p = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/wang-wide-column/snapshot.json"
    );
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

async fn post(url: &str, token: Option<&str>, body: &Value) -> (u16, String, String) {
    let mut r = client().post(url).json(body);
    if let Some(t) = token {
        r = r.bearer_auth(t);
    }
    let r = r.send().await.unwrap();
    let status = r.status().as_u16();
    let ct = r
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    (status, ct, r.text().await.unwrap())
}

#[tokio::test(flavor = "multi_thread")]
async fn the_page_is_served_small_and_locked_down() {
    let svc = start(&[]);
    let r = client().get(format!("{}/", svc.base)).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let h = r.headers().clone();
    assert!(h["content-type"].to_str().unwrap().starts_with("text/html"));
    let csp = h["content-security-policy"].to_str().unwrap().to_string();
    for part in [
        "default-src 'none'",
        "script-src 'sha256-",
        "style-src 'sha256-",
        "connect-src 'self'",
        "img-src data: blob:",
        "frame-ancestors 'none'",
    ] {
        assert!(csp.contains(part), "{part} in {csp}");
    }
    assert!(!csp.contains("unsafe-inline"), "{csp}");
    assert_eq!(h["x-content-type-options"], "nosniff");
    let body = r.text().await.unwrap();
    assert!(body.len() < 200 * 1024, "{} bytes", body.len());
    assert!(body.contains(r#"<label for="url">URL</label>"#));
    assert!(body.contains(r#"<meta name="sightline-token" content="optional">"#));
    // Self-contained: nothing loaded from anywhere.
    for outside in ["<script src", "<link ", "@import", "http://"] {
        assert!(!body.contains(outside), "{outside}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn with_a_token_the_page_asks_for_it_and_the_api_requires_it() {
    let svc = start(&["--token", "s3cret"]);
    let r = client().get(format!("{}/", svc.base)).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let body = r.text().await.unwrap();
    assert!(body.contains(r#"<meta name="sightline-token" content="required">"#));
    let req = json!({"snapshot": snapshot(), "format": "json"});
    let (st, _, b) = post(&format!("{}/score", svc.base), None, &req).await;
    assert_eq!(st, 401, "{b}");
    let (st, _, b) = post(&format!("{}/score", svc.base), Some("wrong"), &req).await;
    assert_eq!(st, 401, "{b}");
    let (st, _, b) = post(&format!("{}/score", svc.base), Some("s3cret"), &req).await;
    assert_eq!(st, 200, "{b}");
}

#[tokio::test(flavor = "multi_thread")]
async fn score_takes_a_snapshot_and_answers_as_extract_does() {
    let svc = start(&[]);
    let url = format!("{}/score", svc.base);
    // The record, with the units the playground draws.
    let (st, ct, b) = post(
        &url,
        None,
        &json!({"snapshot": snapshot(), "format": "json", "units": true, "name": "bridge.json"}),
    )
    .await;
    assert_eq!(st, 200, "{b}");
    assert!(ct.starts_with("application/json"), "{ct}");
    let rec: Value = serde_json::from_str(&b).unwrap();
    assert_eq!(rec["input"], "bridge.json");
    assert_eq!(rec["algorithm"], "learned");
    assert!(rec["text"].as_str().unwrap().contains("bridge"), "{rec}");
    let units = rec["units"].as_array().unwrap();
    assert!(units.len() > 3, "{}", units.len());
    let heat = rec["details"]["heat"].as_array().unwrap();
    assert_eq!(units.len(), heat.len());
    let mut kept_by_learned = 0;
    for (u, h) in units.iter().zip(heat) {
        assert_eq!(u["box"].as_array().unwrap().len(), 4);
        assert_eq!(u["p"], h[4], "the units' probability is learned's");
        assert!(u["top"].is_array() && u["kept_by"].is_array());
        let kept: Vec<&str> = u["kept_by"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap())
            .collect();
        assert!(
            !kept.contains(&"vsse-records"),
            "main-content algorithms only"
        );
        kept_by_learned += usize::from(kept.contains(&"learned"));
    }
    assert!(kept_by_learned > 0);
    // Without units: no key (records stay as they were).
    let (st, _, b) = post(
        &url,
        None,
        &json!({"snapshot": snapshot(), "format": "json"}),
    )
    .await;
    assert_eq!(st, 200, "{b}");
    assert!(serde_json::from_str::<Value>(&b)
        .unwrap()
        .get("units")
        .is_none());
    // A body format, another algorithm.
    let (st, ct, b) = post(
        &url,
        None,
        &json!({"snapshot": snapshot(), "format": "markdown", "algorithm": "htd"}),
    )
    .await;
    assert_eq!(st, 200, "{b}");
    assert!(ct.starts_with("text/markdown"), "{ct}");
    assert!(b.contains("bridge"), "{b}");
    // Refusals name the problem.
    for (body, kind) in [
        (json!({"snapshot": {"nodes": []}}), "snapshot"),
        (json!({"snapshot": snapshot(), "units": true}), "input"),
        (json!({"snapshot": snapshot(), "wait_for": "#a"}), "input"),
        (
            json!({"snapshot": snapshot(), "algorithm": "nope"}),
            "input",
        ),
        (json!({"url": "https://example.com/"}), "input"),
    ] {
        let (st, _, b) = post(&url, None, &body).await;
        assert_eq!(st, 400, "{body}: {b}");
        let e: Value = serde_json::from_str(&b).unwrap();
        assert_eq!(e["error"]["kind"], kind, "{b}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn extract_adds_units_when_asked() {
    let svc = start(&[]);
    let html = "<html><head><title>Units</title></head><body><nav><a href='/a'>Home</a></nav>\
        <article><h1>A headline of the story</h1><p>The river rose through the night, and by \
        morning the old bridge stood alone in brown water, while engineers argued.</p><p>Residents \
        gathered on the hill to watch, trading stories about the last great flood.</p></article>\
        </body></html>";
    let (st, _, b) = post(
        &format!("{}/extract", svc.base),
        None,
        &json!({"html": html, "format": "json", "units": true, "screenshot": true}),
    )
    .await;
    assert_eq!(st, 200, "{b}");
    let rec: Value = serde_json::from_str(&b).unwrap();
    assert!(rec["screenshot"]
        .as_str()
        .unwrap()
        .starts_with("data:image/png;base64,"));
    let units = rec["units"].as_array().unwrap();
    let para = units
        .iter()
        .find(|u| u["text"].as_str().unwrap().starts_with("The river rose"))
        .unwrap_or_else(|| panic!("{units:?}"));
    assert!(para["p"].as_f64().unwrap() > 0.5, "{para}");
    assert!(!para["top"].as_array().unwrap().is_empty());
    // The body in another format rides in the same record (`body`): one render.
    let (st, _, b) = post(
        &format!("{}/extract", svc.base),
        None,
        &json!({"html": html, "format": "json", "body": "markdown"}),
    )
    .await;
    assert_eq!(st, 200, "{b}");
    let rec: Value = serde_json::from_str(&b).unwrap();
    assert_eq!(rec["body_format"], "markdown", "{b}");
    let md = rec["body"].as_str().unwrap();
    assert!(md.starts_with("# A headline of the story"), "{md}");
    assert!(md.contains("The river rose through the night"), "{md}");
    assert!(rec.get("units").is_none(), "{b}");
    for bad in [
        json!({"html": html, "format": "markdown", "body": "markdown"}),
        json!({"html": html, "format": "json", "body": "json"}),
        json!({"html": html, "format": "json", "body": "pdf"}),
    ] {
        let (st, _, b) = post(&format!("{}/extract", svc.base), None, &bad).await;
        assert_eq!(st, 400, "{bad}: {b}");
        assert!(b.contains("body") || b.contains("format"), "{b}");
    }
    // Without it, no key (records stay as they were).
    let (_, _, b) = post(
        &format!("{}/extract", svc.base),
        None,
        &json!({"html": html, "format": "json"}),
    )
    .await;
    let rec: Value = serde_json::from_str(&b).unwrap();
    assert!(
        rec.get("body").is_none() && rec.get("body_format").is_none(),
        "{b}"
    );
    // The query takes it too, and it needs the JSON format.
    let r = client()
        .get(format!(
            "{}/extract?url=https%3A%2F%2Fexample.com%2F&units=true",
            svc.base
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 400);
    let e: Value = r.json().await.unwrap();
    assert!(e["error"]["message"]
        .as_str()
        .unwrap()
        .contains("format=json"));
}
