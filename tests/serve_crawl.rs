//! `sightline serve`'s `POST /crawl` and `POST /map` end to end in real Chromium, against a
//! small site served here on 127.0.0.1 (robots.txt with a disallowed path and a sitemap, links,
//! a page linking to another loopback port): one NDJSON line a page with its place in the
//! crawl, the summary line, the operator's page cap, the token, and the target policy on the
//! seeds (403) and on every link found (a refused link is never fetched). Asserted from the
//! lines and the site's request counts.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::http::{header, Uri};
use axum::response::IntoResponse;
use serde_json::{json, Value};

mod common;
use common::metrics::{metric, metric_reaches};
use common::start;

/// A site on a loopback port, and the paths it was asked for.
struct Site {
    port: u16,
    hits: Arc<Mutex<HashMap<String, usize>>>,
}

impl Site {
    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }
    fn hits(&self, path: &str) -> usize {
        self.hits.lock().unwrap().get(path).copied().unwrap_or(0)
    }
}

/// A page with a title, some prose of its own, and links.
fn page(title: &str, links: &[&str]) -> String {
    let nav: String = links
        .iter()
        .map(|l| format!("<a href='{l}'>{l}</a> "))
        .collect();
    format!(
        "<!DOCTYPE html><html><head><meta charset='utf-8'><title>{title}</title></head><body>\
         <nav>{nav}</nav><article><h1>{title}</h1>\
         <p>This is the page called {title}. The river rose through the night, and by morning \
         the old bridge stood alone in brown water; engineers said the piers would hold.</p>\
         <p>Residents of {title} gathered on the hill to watch, trading stories about the last \
         great flood, which had come forty years earlier and taken the mill with it.</p>\
         </article></body></html>"
    )
}

/// Serve `route` (path → content type and body; None: 404) on a loopback port.
async fn serve(
    route: impl Fn(&str, u16) -> Option<(&'static str, String)> + Send + Sync + 'static,
) -> Site {
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = l.local_addr().unwrap().port();
    let hits = Arc::new(Mutex::new(HashMap::new()));
    let (h, route) = (hits.clone(), Arc::new(route));
    let app = axum::Router::new().fallback(move |uri: Uri| {
        let (h, route) = (h.clone(), route.clone());
        async move {
            *h.lock().unwrap().entry(uri.path().to_string()).or_default() += 1;
            match route(uri.path(), port) {
                Some((ct, body)) => ([(header::CONTENT_TYPE, ct)], body).into_response(),
                None => (axum::http::StatusCode::NOT_FOUND, "not found").into_response(),
            }
        }
    });
    tokio::spawn(async move { axum::serve(l, app).await.unwrap() });
    Site { port, hits }
}

/// The site: `/` links `/a` and `/private` (disallowed by robots.txt), `/a` links `/b`, the
/// sitemap lists `/s1`, and `/leak` links `other`'s `/secret` on another loopback port.
async fn site(other: u16) -> Site {
    serve(move |path, port| {
        const HTML: &str = "text/html; charset=utf-8";
        Some(match path {
            "/robots.txt" => (
                "text/plain",
                format!(
                    "User-agent: *\nDisallow: /private\nSitemap: http://127.0.0.1:{port}/sitemap.xml\n"
                ),
            ),
            "/sitemap.xml" => (
                "application/xml",
                format!(
                    "<?xml version='1.0' encoding='UTF-8'?>\
                     <urlset xmlns='http://www.sitemaps.org/schemas/sitemap/0.9'>\
                     <url><loc>http://127.0.0.1:{port}/s1</loc></url></urlset>"
                ),
            ),
            "/" => (HTML, page("Home", &["/a", "/private"])),
            "/a" => (HTML, page("Alpha", &["/b"])),
            "/b" => (HTML, page("Bravo", &[])),
            "/s1" => (HTML, page("Sierra", &[])),
            "/private" => (HTML, page("Private", &[])),
            "/leak" => (
                HTML,
                page("Leak", &[&format!("http://127.0.0.1:{other}/secret")]),
            ),
            _ => return None,
        })
    })
    .await
}

fn client() -> reqwest::Client {
    // A hang guard, not a speed bound.
    reqwest::Client::builder()
        .timeout(Duration::from_secs(120))
        .build()
        .unwrap()
}

/// POST `body` to `base` + `path` with the token; the status, content type and body.
async fn post(base: &str, path: &str, token: Option<&str>, body: Value) -> (u16, String, String) {
    let mut r = client().post(format!("{base}{path}")).json(&body);
    if let Some(t) = token {
        r = r.bearer_auth(t);
    }
    let r = r.send().await.unwrap();
    let status = r.status().as_u16();
    let ct = r
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    (status, ct, r.text().await.unwrap())
}

/// An NDJSON answer: the page lines, then the summary (which must be the last line).
fn lines(body: &str) -> (Vec<Value>, Value) {
    let mut v: Vec<Value> = body
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();
    let last = v.pop().expect("no line at all");
    let summary = last["summary"].clone();
    assert!(
        summary.is_object(),
        "the last line is not the summary: {last}"
    );
    assert!(
        v.iter().all(|p| p.get("summary").is_none()),
        "one summary, last"
    );
    (v, summary)
}

fn by_input(pages: &[Value]) -> HashMap<String, &Value> {
    pages
        .iter()
        .map(|p| (p["input"].as_str().unwrap().to_string(), p))
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn crawls_and_maps_a_loopback_site_within_the_policy_and_the_cap() {
    let other = serve(|_, _| Some(("text/html", page("Secret", &[])))).await;
    let site = site(other.port).await;
    // Only the site's own host:port is allowed: the other loopback port stands for a private
    // address the policy refuses.
    let allow = format!("127.0.0.1:{}", site.port);
    let svc = start(&[
        "--allow-host",
        &allow,
        "--token",
        "s3cret",
        "--max-crawl-pages",
        "3",
        "-j",
        "2",
    ]);
    let tok = Some("s3cret");

    // The token, as on /extract.
    let seed = json!({"seeds": site.url("/")});
    for path in ["/crawl", "/map"] {
        let (st, _, body) = post(&svc.base, path, None, seed.clone()).await;
        assert_eq!(st, 401, "{path}: {body}");
        let (st, _, _) = post(&svc.base, path, Some("wrong"), seed.clone()).await;
        assert_eq!(st, 401, "{path}");
    }

    // A crawl to depth 1: the seed, its link and the sitemap's page, one line each.
    let (st, ct, body) = post(
        &svc.base,
        "/crawl",
        tok,
        json!({"seeds": [site.url("/")], "max_depth": 1, "format": "json"}),
    )
    .await;
    assert_eq!(st, 200, "{body}");
    assert_eq!(ct, "application/x-ndjson");
    let (pages, summary) = lines(&body);
    let got = by_input(&pages);
    assert_eq!(pages.len(), 3, "{body}");
    let home = got[&site.url("/")];
    assert_eq!(home["depth"], 0);
    assert_eq!(home["found_in"], "seed");
    assert!(home.get("parent").is_none(), "{home}");
    assert!(
        home["links"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["url"] == site.url("/a")),
        "{home}"
    );
    let a = got[&site.url("/a")];
    assert_eq!(
        (a["depth"].clone(), a["found_in"].clone()),
        (json!(1), json!("link"))
    );
    assert_eq!(a["parent"], site.url("/"));
    let s1 = got[&site.url("/s1")];
    assert_eq!(
        (s1["depth"].clone(), s1["found_in"].clone()),
        (json!(1), json!("sitemap"))
    );
    assert_eq!(s1["parent"], site.url("/sitemap.xml"));
    assert!(pages.iter().all(|p| p.get("error").is_none()), "{body}");
    assert!(pages.iter().all(|p| p["text"].is_string()), "{body}");
    assert_eq!(summary["recorded"], 3, "{summary}");
    assert_eq!(summary["failed"], 0, "{summary}");
    assert_eq!(summary["interrupted"], false, "{summary}");
    assert_eq!(summary["max_pages"], 3, "{summary}");
    assert_eq!(site.hits("/private"), 0, "robots.txt disallows /private");

    // Asking for 50 pages gets the operator's 3: the fourth page (/b) stays queued.
    let (st, _, body) = post(
        &svc.base,
        "/crawl",
        tok,
        json!({"seeds": site.url("/"), "max_pages": 50, "format": "markdown"}),
    )
    .await;
    assert_eq!(st, 200, "{body}");
    let (pages, summary) = lines(&body);
    assert_eq!(pages.len(), 3, "{body}");
    assert!(
        pages.iter().all(|p| p["body_format"] == "markdown"
            && p["body"].as_str().is_some_and(|c| c.contains("river rose"))),
        "each line has the page's markdown: {body}"
    );
    assert_eq!(summary["recorded"], 3, "{summary}");
    assert_eq!(summary["max_pages"], 3, "{summary}");
    assert_eq!(summary["interrupted"], true, "{summary}");
    // The crawled pages count in the service's pages (two crawls of 3, nothing else yet).
    assert_eq!(
        metric(&svc.base, "sightline_pages_total", tok).await,
        Some(6.0)
    );

    // A link to an address the policy refuses is skipped, never fetched.
    let (st, _, body) = post(
        &svc.base,
        "/crawl",
        tok,
        json!({"seeds": site.url("/leak"), "scope": "domain", "sitemaps": false}),
    )
    .await;
    assert_eq!(st, 200, "{body}");
    let (pages, summary) = lines(&body);
    assert_eq!(pages.len(), 1, "{body}");
    assert_eq!(pages[0]["input"], site.url("/leak"));
    assert!(
        pages[0]["links"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["url"] == other.url("/secret")),
        "the page links the refused address: {body}"
    );
    assert_eq!(summary["refused"], 1, "{summary}");
    assert_eq!(summary["recorded"], 1, "{summary}");
    assert_eq!(other.hits("/secret"), 0, "the refused link was fetched");
    assert_eq!(other.hits("/robots.txt"), 0, "the refused host was asked");

    // The map: the seed, its link and the sitemap's URL, with their places.
    let (st, ct, body) = post(
        &svc.base,
        "/map",
        tok,
        json!({"seeds": site.url("/"), "max_depth": 1}),
    )
    .await;
    assert_eq!(st, 200, "{body}");
    assert!(ct.starts_with("application/json"), "{ct}");
    let v: Value = serde_json::from_str(&body).unwrap();
    let urls: HashMap<String, Value> = v["urls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| (u["url"].as_str().unwrap().to_string(), u.clone()))
        .collect();
    let mut listed: Vec<&String> = urls.keys().collect();
    listed.sort();
    assert_eq!(
        listed,
        [&site.url("/"), &site.url("/a"), &site.url("/s1")],
        "{body}"
    );
    assert_eq!(urls[&site.url("/")]["found_in"], "seed");
    assert_eq!(urls[&site.url("/a")]["depth"], 1);
    assert_eq!(urls[&site.url("/a")]["parent"], site.url("/"));
    assert_eq!(urls[&site.url("/s1")]["found_in"], "sitemap");
    assert_eq!(v["more"], false);

    // Requests the service refuses before crawling: more seeds than pages, a bad pattern,
    // a steering field that needs a grant.
    let many: Vec<String> = (0..4).map(|i| site.url(&format!("/x{i}"))).collect();
    for (body, status) in [
        (json!({"seeds": many}), 400),
        (json!({"seeds": site.url("/"), "include": ["("]}), 400),
        (
            json!({"seeds": site.url("/"), "headers": {"X-A": "1"}}),
            403,
        ),
        (json!({"seeds": []}), 400),
    ] {
        let (st, _, answer) = post(&svc.base, "/crawl", tok, body.clone()).await;
        assert_eq!(st, status, "{body}: {answer}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_default_policy_refuses_a_loopback_seed() {
    let site = site(9).await;
    let svc = start(&["-j", "1"]);
    for path in ["/crawl", "/map"] {
        let (st, _, body) = post(&svc.base, path, None, json!({"seeds": site.url("/")})).await;
        assert_eq!(st, 403, "{path}: {body}");
        let v: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(v["error"]["kind"], "forbidden", "{body}");
        assert!(
            v["error"]["message"]
                .as_str()
                .unwrap()
                .contains("127.0.0.1"),
            "{body}"
        );
    }
    // Nothing was fetched: not even robots.txt.
    assert_eq!(site.hits.lock().unwrap().values().sum::<usize>(), 0);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_client_that_goes_away_drops_its_crawl() {
    // The seed's document never comes: its render would hold the only tab for the page
    // deadline (600 s) unless the crawl is dropped.
    let asked = Arc::new(tokio::sync::Notify::new());
    let a2 = asked.clone();
    let app = axum::Router::new().fallback(move |uri: Uri| {
        let asked = a2.clone();
        async move {
            if uri.path() == "/hang" {
                asked.notify_one();
                std::future::pending::<()>().await;
            }
            (axum::http::StatusCode::NOT_FOUND, "not found").into_response()
        }
    });
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = l.local_addr().unwrap().port();
    tokio::spawn(async move { axum::serve(l, app).await.unwrap() });
    let allow = format!("127.0.0.1:{port}");
    let svc = start(&["--allow-host", &allow, "-j", "1", "--timeout", "600"]);
    let url = format!("{}/crawl", svc.base);
    let seed = json!({"seeds": format!("http://127.0.0.1:{port}/hang"), "sitemaps": false});
    let abandoned = tokio::spawn(async move {
        let r = client().post(&url).json(&seed).send().await.unwrap();
        assert_eq!(r.status().as_u16(), 200);
        r.text().await
    });
    tokio::time::timeout(Duration::from_secs(120), asked.notified())
        .await
        .expect("the crawl never asked for its seed");
    metric_reaches(&svc.base, "sightline_busy_tabs", 1.0, "the seed's render").await;
    abandoned.abort();
    assert!(
        matches!(abandoned.await, Err(e) if e.is_cancelled()),
        "the crawl answered before the client gave up"
    );
    metric_reaches(
        &svc.base,
        "sightline_queue",
        0.0,
        "the abandoned crawl's place",
    )
    .await;
    metric_reaches(
        &svc.base,
        "sightline_busy_tabs",
        0.0,
        "the abandoned crawl's tab",
    )
    .await;
}
