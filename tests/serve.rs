//! `sightline serve` end to end in real Chromium: extraction over HTTP, the target policy
//! (loopback, IPv6 loopback, file:// and a redirect to loopback refused; `--allow-private`
//! lifts it), the token, backpressure under 100 concurrent requests, and SIGTERM draining
//! the pages in flight. Everything stays on 127.0.0.1: private, link-local and unique-local
//! addresses are unit tests of `render::guard`, never traffic.

use std::net::SocketAddr;
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Notify;

mod common;
use common::metrics::{metric, metric_reaches, HANG_GUARD};
use common::start;

use axum::response::{Html, IntoResponse, Redirect};
use axum::routing::get;

const ARTICLE: &str = "<html><head><title>Served article</title></head><body>\
<nav><a href='/a'>Home</a> <a href='/b'>News</a></nav><article><h1>Served article</h1>\
<p>The river rose through the night, and by morning the old bridge stood alone in brown water. \
Engineers said the piers would hold, though nobody wanted to test that claim in person.</p>\
<p>Residents gathered on the hill to watch, trading stories about the last great flood, \
which had come forty years earlier and taken the mill with it.</p></article></body></html>";

/// An article with links: next to the page, to a place in it, elsewhere; and an image.
const LINKED: &str = "<html><head><title>Linked article</title></head><body>\
<article><h1 id=top>Linked article</h1>\
<p>The river rose through the night, and by morning the old bridge stood alone in brown water; \
read <a href='/river/history.html'>the river's history</a> or skip to <a href='#later'>what came later</a>. \
Engineers said the piers would hold, though nobody wanted to test that claim in person.</p>\
<p><img alt='The bridge at dawn' width=320 height=180 \
src=\"data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='320' height='180'%3E%3Crect width='320' height='180' fill='%23abc'/%3E%3C/svg%3E\"> \
The bridge at dawn, seen from the hill where residents gathered.</p>\
<h2 id=later>Later</h2><p>Residents gathered on the hill to watch, trading stories about the last great flood, \
which had come forty years earlier and taken the mill with it, as <a href='https://example.com/mill'>the mill's page</a> tells.</p>\
</article></body></html>";

/// A loopback site for the tests (see [`site`]); its address is what `{site}` prints.
struct Site {
    addr: SocketAddr,
    /// Notified when a page asks for `/slow-data`: that page is mid-render, waiting on it.
    slow_data: Arc<Notify>,
    /// Notified when a page asks for `/slower-data`.
    slower_data: Arc<Notify>,
}

impl std::fmt::Display for Site {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.addr.fmt(f)
    }
}

impl Site {
    fn port(&self) -> u16 {
        self.addr.port()
    }
}

/// A loopback site for the tests: `/article`, `/slow` (an article whose data arrives after
/// 1.5 s), `/slower` (after 6 s), `/to-loopback?port=P` (302 to 127.0.0.1:P/article).
async fn site() -> Site {
    let slow_data = Arc::new(Notify::new());
    let slower_data = Arc::new(Notify::new());
    let (slow, slower) = (slow_data.clone(), slower_data.clone());
    let app = axum::Router::new()
        .route("/article", get(|| async { Html(ARTICLE) }))
        .route("/linked", get(|| async { Html(LINKED) }))
        .route(
            "/slow",
            get(|| async {
                Html(
                    "<html><body><article id=a><p>Loading…</p></article><script>\
                     fetch('/slow-data').then(r => r.text()).then(t => {\
                     document.getElementById('a').innerHTML = t; });</script></body></html>",
                )
            }),
        )
        .route(
            "/slow-data",
            get(|| async move {
                slow.notify_one();
                tokio::time::sleep(Duration::from_millis(1500)).await;
                "<p>The late paragraph arrived after a long wait, which the drained service still delivered in full to its client.</p>"
            }),
        )
        .route(
            "/slower",
            get(|| async {
                Html(
                    "<html><body><article id=a><p>Loading…</p></article><script>\
                     fetch('/slower-data').then(r => r.text()).then(t => {\
                     document.getElementById('a').innerHTML = t; });</script></body></html>",
                )
            }),
        )
        .route(
            "/slower-data",
            get(|| async move {
                slower.notify_one();
                tokio::time::sleep(Duration::from_secs(6)).await;
                "<p>Too late.</p>"
            }),
        )
        .route(
            "/to-loopback",
            get(|q: axum::extract::Query<std::collections::HashMap<String, String>>| async move {
                Redirect::temporary(&format!(
                    "http://127.0.0.1:{}/article",
                    q.get("port").cloned().unwrap_or_default()
                ))
                .into_response()
            }),
        );
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = l.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(l, app).await.unwrap() });
    Site {
        addr,
        slow_data,
        slower_data,
    }
}

/// Wait (at most [`HANG_GUARD`]) until `n` notifies; fail with `what` otherwise.
async fn notified(n: &Notify, what: &str) {
    tokio::time::timeout(HANG_GUARD, n.notified())
        .await
        .unwrap_or_else(|_| panic!("{what}"));
}

fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(60))
        .build()
        .unwrap()
}

async fn get_json(url: &str) -> (u16, serde_json::Value) {
    let r = client().get(url).send().await.unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(serde_json::Value::Null))
}

fn q(s: &str) -> String {
    url::form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn extracts_loopback_pages_when_private_targets_are_allowed() {
    let site = site().await;
    let svc = start(&["--allow-private", "-j", "2"]);
    let page = format!("http://{site}/article");
    let (st, rec) = get_json(&format!(
        "{}/extract?url={}&format=json",
        svc.base,
        q(&page)
    ))
    .await;
    assert_eq!(st, 200, "{rec}");
    assert_eq!(rec["title"], "Served article");
    assert!(
        rec["text"]
            .as_str()
            .unwrap()
            .contains("old bridge stood alone"),
        "{rec}"
    );
    assert!(rec["timings_ms"]["navigate"].as_f64().is_some());
    // Plain text and markdown bodies.
    let r = client()
        .get(format!(
            "{}/extract?url={}&format=markdown",
            svc.base,
            q(&page)
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    assert!(r.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/markdown"));
    assert!(r.text().await.unwrap().contains("forty years earlier"));
    // The writer's choices reach the markdown and the record's sections.
    let linked = format!("http://{site}/linked");
    let (st, rec) = get_json(&format!(
        "{}/extract?url={}&format=json&links=references&images=none&base_url={}",
        svc.base,
        q(&linked),
        q("https://example.org/a/")
    ))
    .await;
    assert_eq!(st, 200, "{rec}");
    let md = rec["markdown"].as_str().unwrap();
    assert!(md.contains("[the river's history][1]"), "{md}");
    assert!(
        md.contains("\n[1]: https://example.org/a/river/history.html\n"),
        "{md}"
    );
    assert!(md.contains("[what came later](#later)"), "{md}");
    assert!(md.contains("[2]: https://example.com/mill"), "{md}");
    assert!(
        md.contains("\nThe bridge at dawn, seen"),
        "images=none: no alt text\n{md}"
    );
    let sections = rec["sections"].as_array().unwrap();
    assert_eq!(sections.len(), 2, "{rec}");
    assert_eq!(
        sections[1]["heading_path"],
        serde_json::json!(["Linked article", "Later"])
    );
    for s in sections {
        let sec: sightline::output::markdown::Section = serde_json::from_value(s.clone()).unwrap();
        assert_eq!(sec.slice(md), sec.markdown);
    }
    let (st, e) = get_json(&format!(
        "{}/extract?url={}&base_url=example.org",
        svc.base,
        q(&linked)
    ))
    .await;
    assert_eq!(
        (st, e["error"]["kind"].as_str()),
        (400, Some("input")),
        "{e}"
    );
    let r = client()
        .get(format!(
            "{}/extract?url={}&format=markdown",
            svc.base,
            q(&linked)
        ))
        .send()
        .await
        .unwrap();
    let md = r.text().await.unwrap();
    assert!(
        md.contains("The bridge at dawn The bridge at dawn, seen"),
        "images=keep: a data: image's alt text\n{md}"
    );
    assert!(md.contains("[the river's history](http://"), "{md}");
    // POST with HTML instead of a URL, and a screenshot in the JSON record.
    let r = client()
        .post(format!("{}/extract", svc.base))
        .json(&serde_json::json!({"html": ARTICLE, "format": "json", "screenshot": true}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let rec: serde_json::Value = r.json().await.unwrap();
    assert!(rec["text"].as_str().unwrap().contains("Engineers said"));
    assert!(rec["screenshot"]
        .as_str()
        .unwrap()
        .starts_with("data:image/png;base64,iVBOR"));
    // Bad requests say what is wrong.
    let (st, e) = get_json(&format!(
        "{}/extract?url={}&algorithm=nope",
        svc.base,
        q(&page)
    ))
    .await;
    assert_eq!(st, 400);
    assert!(e["error"]["message"]
        .as_str()
        .unwrap()
        .contains("unknown algorithm"));
    let (st, e) = get_json(&format!("{}/extract", svc.base)).await;
    assert_eq!((st, e["error"]["kind"].as_str()), (400, Some("input")));
    let (st, h) = get_json(&format!("{}/healthz", svc.base)).await;
    assert_eq!((st, h["status"].as_str()), (200, Some("ok")));
    let m = client()
        .get(format!("{}/metrics", svc.base))
        .send()
        .await
        .unwrap();
    let m = m.text().await.unwrap();
    assert!(m.contains("sightline_pages_total 5"), "{m}");
    assert!(
        m.contains("sightline_request_duration_seconds_bucket"),
        "{m}"
    );
    assert!(m.contains("sightline_busy_tabs"), "{m}");
}

#[tokio::test(flavor = "multi_thread")]
async fn refuses_loopback_file_and_redirects_to_loopback() {
    let site = site().await;
    // The redirect host alone is allowed (standing in for a public name).
    let allow = format!("127.0.0.1:{}", site.port());
    let redirector = start(&["--allow-host", &allow, "-j", "1"]);
    let plain = start(&["-j", "1"]);
    for target in [
        format!("http://{site}/article"),
        format!("http://[::1]:{}/article", site.port()),
        "http://localhost/".to_string(),
        "file:///etc/passwd".to_string(),
    ] {
        let (st, e) = get_json(&format!("{}/extract?url={}", plain.base, q(&target))).await;
        assert_eq!(st, 403, "{target}: {e}");
        assert_eq!(e["error"]["kind"], "forbidden");
        let msg = e["error"]["message"].as_str().unwrap();
        assert!(msg.contains("--allow-private"), "{target}: {msg}");
    }
    // Allowed on arrival, but the redirect leads to another loopback port: the browser
    // refuses that hop.
    let other = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let other_port = other.local_addr().unwrap().port();
    let via = format!("http://{site}/to-loopback?port={other_port}");
    let (st, e) = get_json(&format!("{}/extract?url={}", redirector.base, q(&via))).await;
    assert_eq!(st, 403, "{e}");
    assert_eq!(e["error"]["kind"], "forbidden", "{e}");
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains(&format!("127.0.0.1:{other_port}")),
        "{e}"
    );
    // Refused when the redirect came, not at a deadline: the service counted the page as
    // failed `forbidden`, and none as `timeout`.
    let failures = |kind: &str| format!("sightline_failures_total{{kind=\"{kind}\"}}");
    assert_eq!(
        metric(&redirector.base, &failures("forbidden"), None).await,
        Some(1.0)
    );
    assert_eq!(
        metric(&redirector.base, &failures("timeout"), None).await,
        None
    );
    // Nothing ever connected to the refused target.
    let accepted = tokio::time::timeout(Duration::from_millis(200), other.accept()).await;
    assert!(accepted.is_err(), "the refused target was contacted");
    // The allowed host itself renders.
    let (st, _) = get_json(&format!(
        "{}/extract?url={}",
        redirector.base,
        q(&format!("http://{site}/article"))
    ))
    .await;
    assert_eq!(st, 200);
}

#[tokio::test(flavor = "multi_thread")]
async fn token_is_required_when_set() {
    let svc = start(&["--allow-private", "--token", "s3cret", "-j", "1"]);
    let body = serde_json::json!({"html": ARTICLE});
    let r = client()
        .post(format!("{}/extract", svc.base))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 401);
    let r = client()
        .post(format!("{}/extract", svc.base))
        .bearer_auth("wrong")
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 401);
    let r = client()
        .post(format!("{}/extract", svc.base))
        .bearer_auth("s3cret")
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let (st, _) = get_json(&format!("{}/healthz", svc.base)).await;
    assert_eq!(st, 200, "health checks need no token");
}

fn rss_kib(pid: u32) -> u64 {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    s.lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_hundred_concurrent_requests_are_all_answered() {
    let svc = start(&[
        "--allow-private",
        "-j",
        "2",
        "--max-queue",
        "6",
        "--request-timeout",
        "30",
    ]);
    let body = serde_json::json!({"html": ARTICLE, "format": "json"});
    let c = client();
    // Warm up, then measure the service's own memory across two rounds.
    let r = c
        .post(format!("{}/extract", svc.base))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let mut rss = Vec::new();
    // Pages answered so far (the warm-up's).
    let mut answered = 1.0;
    for _round in 0..2 {
        let reqs = (0..100).map(|_| {
            let c = c.clone();
            let url = format!("{}/extract", svc.base);
            let body = body.clone();
            tokio::spawn(async move {
                let r = c.post(url).json(&body).send().await.unwrap();
                let st = r.status().as_u16();
                let retry = r.headers().get("retry-after").is_some();
                (st, retry)
            })
        });
        let answers = futures::future::join_all(reqs).await;
        let (mut ok, mut busy) = (0, 0);
        for a in answers {
            match a.unwrap() {
                (200, _) => ok += 1,
                (503, true) => busy += 1,
                other => panic!("unexpected answer {other:?}"),
            }
        }
        assert_eq!(ok + busy, 100);
        assert!(
            ok >= 8,
            "the admitted requests render ({ok} ok, {busy} busy)"
        );
        assert!(busy > 0, "the queue bound is enforced");
        // No request hung past its deadline (it would have been a 504 `timeout` above): every
        // admitted request was answered and its place freed, each 200 is one page answered,
        // and none failed.
        answered += f64::from(ok);
        metric_reaches(&svc.base, "sightline_queue", 0.0, "an admitted request").await;
        assert_eq!(
            metric(&svc.base, "sightline_pages_total", None).await,
            Some(answered)
        );
        assert_eq!(
            metric(
                &svc.base,
                "sightline_failures_total{kind=\"timeout\"}",
                None
            )
            .await,
            None
        );
        rss.push(rss_kib(svc.child.id()));
    }
    // The service process does not grow between rounds (the browser is a separate process).
    assert!(
        rss[1] < rss[0] + 64 * 1024,
        "RSS grew from {} to {} KiB",
        rss[0],
        rss[1]
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn sigterm_drains_the_pages_in_flight() {
    let site = site().await;
    let mut svc = start(&["--allow-private", "-j", "1", "--drain-timeout", "20"]);
    let url = format!(
        "{}/extract?url={}&format=json",
        svc.base,
        q(&format!("http://{site}/slow"))
    );
    let pending = tokio::spawn(async move { get_json(&url).await });
    // The page is in flight once it asks for its late data.
    notified(&site.slow_data, "the page never asked for its data").await;
    let pid = svc.child.id().to_string();
    assert!(Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap()
        .success());
    let (st, rec) = pending.await.unwrap();
    assert_eq!(st, 200, "{rec}");
    assert!(
        rec["text"]
            .as_str()
            .unwrap()
            .contains("late paragraph arrived"),
        "{rec}"
    );
    let exited = common::eventually::eventually(HANG_GUARD, || {
        let code = svc.child.try_wait().unwrap().map(|s| s.code());
        async move { code }
    });
    let code = exited.await.expect("serve did not exit after draining");
    assert_eq!(code, Some(0));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_client_that_disconnects_frees_its_tab() {
    let site = site().await;
    let svc = start(&["--allow-private", "-j", "1"]);
    // The only tab starts a page that waits 6 s for its data; once the page has asked for
    // it (it is mid-render), the client gives up.
    let slow = format!(
        "{}/extract?url={}",
        svc.base,
        q(&format!("http://{site}/slower"))
    );
    let abandoned = tokio::spawn(async move { client().get(&slow).send().await });
    notified(&site.slower_data, "the page never asked for its data").await;
    abandoned.abort();
    assert!(
        matches!(abandoned.await, Err(e) if e.is_cancelled()),
        "the request was answered before the client gave up"
    );
    // The next request gets the tab and is answered; the abandoned page is never answered
    // or counted (its handler went with the client). Whether the tab was freed at once or
    // after the abandoned render's settle cap (5 s) is not asserted here: no record or
    // metric tells the two apart, only a clock would.
    let (st, rec) = get_json(&format!(
        "{}/extract?url={}&format=json",
        svc.base,
        q(&format!("http://{site}/article"))
    ))
    .await;
    assert_eq!(st, 200, "{rec}");
    assert!(
        rec["text"]
            .as_str()
            .unwrap()
            .contains("old bridge stood alone"),
        "{rec}"
    );
    assert_eq!(
        metric(&svc.base, "sightline_pages_total", None).await,
        Some(1.0),
        "the abandoned page was rendered to the end"
    );
    metric_reaches(&svc.base, "sightline_queue", 0.0, "the abandoned request").await;
}

/// A page behind a wall is `502 Bad Gateway` with the record as its body: the error of kind
/// `blocked` names the wall, and the record carries it; `accept_walls` extracts it anyway.
#[tokio::test(flavor = "multi_thread")]
async fn a_wall_is_a_bad_gateway_with_the_record() {
    let captcha = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/walls/captcha.html"
    ))
    .unwrap();
    let svc = start(&["-j", "1"]);
    let post = |body: serde_json::Value| {
        client()
            .post(format!("{}/extract", svc.base))
            .json(&body)
            .send()
    };
    let r = post(serde_json::json!({"html": captcha, "format": "json"}))
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 502);
    let rec: serde_json::Value = r.json().await.unwrap();
    assert_eq!(rec["error"]["kind"], "blocked", "{rec}");
    assert_eq!(rec["wall"]["kind"], "captcha", "{rec}");
    assert!(rec["error"]["message"]
        .as_str()
        .unwrap()
        .contains("captcha"));
    let r = post(serde_json::json!({"html": captcha, "format": "json", "accept_walls": true}))
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let rec: serde_json::Value = r.json().await.unwrap();
    assert!(rec["error"].is_null(), "{rec}");
    assert_eq!(rec["wall"]["kind"], "captcha", "{rec}");
}
