//! MCP end to end with a real MCP client (rmcp's) and real Chromium, on loopback pages only:
//! `sightline mcp` over stdio (the binary as the client's child process), and the `/mcp`
//! endpoint of `sightline serve` over streamable HTTP (its token and target policy). The
//! fixture pages come from `fixtures/` on a 127.0.0.1 port; everything else is refused.

use std::path::PathBuf;
use std::process::Stdio;

use base64::Engine;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{ConfigureCommandExt, StreamableHttpClientTransport, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt};
use serde_json::{json, Value};
use sightline::render::loopback::Server;

mod common;
use common::Service;

const HEADLINE: &str = "Harbour city opens its first tidal power station";

fn fixtures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

type Client = RunningService<RoleClient, ()>;

/// `tools/call` with JSON arguments.
async fn call(client: &Client, tool: &str, args: Value) -> CallToolResult {
    let args = args.as_object().cloned().expect("arguments are an object");
    client
        .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(args))
        .await
        .unwrap_or_else(|e| panic!("{tool}: the call failed at the protocol level: {e}"))
}

/// The text blocks of a result, joined.
fn text_of(r: &CallToolResult) -> String {
    r.content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `sightline mcp` as the client's child process, its stderr shown with the test's output.
async fn stdio_client(args: &[&str]) -> Client {
    let cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_sightline")).configure(|c| {
        c.arg("mcp").args(args).env_remove("SIGHTLINE_TOKEN");
    });
    let (transport, _) = TokioChildProcess::builder(cmd)
        .stderr(Stdio::inherit())
        .spawn()
        .expect("spawn sightline mcp");
    ().serve(transport)
        .await
        .expect("MCP initialize over stdio")
}

/// The tools' names and input schemas are what clients see: each names `url` as required.
async fn check_tools(client: &Client) {
    let tools = client.list_all_tools().await.expect("tools/list");
    let mut names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    names.sort();
    assert_eq!(names, ["crawl", "extract", "map", "screenshot", "snapshot"]);
    for t in &tools {
        let schema = Value::Object((*t.input_schema).clone());
        assert_eq!(schema["type"], "object", "{}: {schema}", t.name);
        assert!(
            schema["properties"]["url"].is_object(),
            "{}: {schema}",
            t.name
        );
        assert_eq!(schema["required"], json!(["url"]), "{}: {schema}", t.name);
        assert!(
            t.description.as_deref().is_some_and(|d| d.len() > 40),
            "{}: no description",
            t.name
        );
    }
    let extract = tools.iter().find(|t| t.name == "extract").unwrap();
    let schema = Value::Object((*extract.input_schema).clone());
    let formats = &schema["properties"]["format"];
    assert!(formats.to_string().contains("markdown"), "{schema}");
    assert!(
        schema["properties"]["algorithm"]
            .to_string()
            .contains("ctd"),
        "{schema}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn stdio_client_lists_the_tools_and_extracts_a_loopback_page() {
    let site = Server::start(Some(fixtures_dir())).await.unwrap();
    let page = site.url("/demo-news/page.html");
    let client = stdio_client(&["--offline", "--allow-private", "-j", "1"]).await;
    let info = client.peer_info().expect("server info");
    assert_eq!(
        info.server_info.as_ref().map(|i| i.name.as_str()),
        Some("sightline")
    );
    check_tools(&client).await;

    // extract, Markdown by default: the content as text, the rest structured.
    let r = call(&client, "extract", json!({ "url": page })).await;
    assert_eq!(r.is_error, Some(false), "{}", text_of(&r));
    let md = r.content[0].as_text().expect("markdown first").text.clone();
    assert!(md.contains(&format!("# {HEADLINE}")), "{md}");
    assert!(!md.contains("Buy the new phone"), "{md}");
    let s = r.structured_content.clone().expect("structured content");
    assert_eq!(s["url"], page.as_str());
    assert!(s["title"].as_str().unwrap().contains(HEADLINE), "{s}");
    let title = s["metadata"]["title"]["value"].as_str().unwrap_or_default();
    assert!(title.contains(HEADLINE), "{s}");
    assert_eq!(s["metadata"]["language"]["value"], "en", "{s}");
    assert_eq!(s["format"], "markdown");
    assert_eq!(s["algorithm"], "learned");
    assert_eq!(s["content"].as_str(), Some(md.as_str()));
    assert!(s["timings_ms"]["navigate"].as_f64().is_some(), "{s}");
    for link in s["links"].as_array().expect("links") {
        assert!(link["href"].as_str().unwrap().starts_with("http"), "{link}");
    }
    // The text block after the content holds the structured result without the content.
    let rest: Value = serde_json::from_str(&r.content[1].as_text().unwrap().text).unwrap();
    assert_eq!(rest["url"], s["url"]);
    assert!(rest.get("content").is_none());

    // Plain text, another algorithm.
    let r = call(
        &client,
        "extract",
        json!({ "url": page, "format": "text", "algorithm": "ctd" }),
    )
    .await;
    assert_eq!(r.is_error, Some(false), "{}", text_of(&r));
    let s = r.structured_content.unwrap();
    assert_eq!(s["algorithm"], "ctd");
    let text = s["content"].as_str().unwrap();
    assert!(text.starts_with(HEADLINE), "{text}");

    // Reader comments: dropped by default, kept after the article with `comments: true`.
    let blog = site.url("/comments-blog/page.html");
    let comment = "the children now check the barrel levels every Monday";
    for keep in [false, true] {
        let r = call(&client, "extract", json!({ "url": blog, "comments": keep })).await;
        assert_eq!(r.is_error, Some(false), "{}", text_of(&r));
        let md = r.structured_content.unwrap()["content"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(md.contains("rainwater"), "{md}");
        assert_eq!(md.contains(comment), keep, "comments: {keep}\n{md}");
    }

    // The writer's choices: links as numbered references on the site of `base_url`, images
    // as their alt text; a base that is not a web URL is refused.
    let starter = site.url("/md-links-references/page.html");
    let args = json!({
        "url": starter,
        "links": "references",
        "images": "alt",
        "base_url": "https://example.org/notes/starter.html"
    });
    let r = call(&client, "extract", args).await;
    assert_eq!(r.is_error, Some(false), "{}", text_of(&r));
    let md = r.structured_content.unwrap()["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(md.contains("[my first loaf][2]"), "{md}");
    assert!(
        md.contains("\n[2]: https://example.org/2023/first-loaf.html\n"),
        "{md}"
    );
    assert!(md.contains("[temperature](#temperature)"), "{md}");
    assert!(
        !md.contains("![") && md.contains("A jar of starter at its peak"),
        "{md}"
    );
    let r = call(
        &client,
        "extract",
        json!({ "url": starter, "base_url": "/notes" }),
    )
    .await;
    assert_eq!(r.is_error, Some(true));
    assert!(text_of(&r).starts_with("error (input)"), "{}", text_of(&r));

    // screenshot: a PNG of the first viewport.
    let r = call(&client, "screenshot", json!({ "url": page })).await;
    assert_eq!(r.is_error, Some(false), "{}", text_of(&r));
    let img = r
        .content
        .iter()
        .find_map(|c| c.as_image())
        .expect("an image block");
    assert_eq!(img.mime_type, "image/png");
    let png = base64::engine::general_purpose::STANDARD
        .decode(&img.data)
        .unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let s = r.structured_content.unwrap();
    assert_eq!(s["full_page"], false);
    assert!(s["width"].as_u64().unwrap() > 0 && s["height"].as_u64().unwrap() > 0);
    assert!(s["title"].as_str().unwrap().contains(HEADLINE));

    // snapshot: the layout in brief.
    let r = call(&client, "snapshot", json!({ "url": page, "max_nodes": 3 })).await;
    assert_eq!(r.is_error, Some(false), "{}", text_of(&r));
    let s = r.structured_content.unwrap();
    assert_eq!(s["viewport"]["width"].as_f64(), Some(1366.0), "{s}");
    assert!(s["page"]["height"].as_f64().unwrap() > 0.0);
    assert!(s["node_count"].as_u64().unwrap() > 10);
    let blocks = s["text_blocks"].as_array().unwrap();
    assert!(!blocks.is_empty() && blocks.len() <= 3, "{s}");
    assert!(blocks[0]["path"].as_str().unwrap().starts_with("body"));
    assert_eq!(blocks[0]["box"].as_array().unwrap().len(), 4);
    let roots = s["content_roots"].as_array().unwrap();
    assert!(
        roots
            .iter()
            .any(|b| b["excerpt"].as_str().unwrap().contains(HEADLINE)),
        "{s}"
    );

    // A page that fails, and a bad argument: tool errors naming the kind and the input.
    let dead = "http://127.0.0.1:1/nothing.html";
    let r = call(&client, "extract", json!({ "url": dead })).await;
    assert_eq!(r.is_error, Some(true));
    let t = text_of(&r);
    assert!(t.starts_with("error ("), "{t}");
    assert!(t.contains(dead), "{t}");
    let r = call(
        &client,
        "extract",
        json!({ "url": page, "algorithm": "nope" }),
    )
    .await;
    assert_eq!(r.is_error, Some(true));
    assert!(text_of(&r).starts_with("error (input)"), "{}", text_of(&r));

    client.cancel().await.expect("close the session");
}

#[tokio::test(flavor = "multi_thread")]
async fn stdio_server_refuses_loopback_targets_by_default() {
    let site = Server::start(Some(fixtures_dir())).await.unwrap();
    let client = stdio_client(&["--offline", "-j", "1"]).await;
    for url in [
        site.url("/demo-news/page.html"),
        format!(
            "file://{}",
            fixtures_dir().join("demo-news/page.html").display()
        ),
    ] {
        let r = call(&client, "extract", json!({ "url": url })).await;
        assert_eq!(r.is_error, Some(true), "{url}");
        let t = text_of(&r);
        assert!(t.starts_with("error (forbidden)"), "{t}");
        assert!(t.contains(&url) && t.contains("--allow-private"), "{t}");
    }
    client.cancel().await.expect("close the session");
}

/// A three-page site in a temporary directory: `index.html` links to `a.html`, `b.html`
/// and `c.html`.
fn small_site() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let page = |title: &str, body: &str| {
        format!(
            "<!doctype html><html><head><title>{title}</title></head><body><main><h1>{title}</h1>\
             <p>{body} {}</p></main></body></html>",
            "Words of the small test site, enough of them to be kept as the content. ".repeat(3)
        )
    };
    let links = "<a href='a.html'>A</a> <a href='b.html'>B</a> <a href='c.html'>C</a>";
    std::fs::write(dir.path().join("index.html"), page("Index", links)).unwrap();
    for p in ["a", "b", "c"] {
        let text = format!("Page {p} of the site.");
        std::fs::write(
            dir.path().join(format!("{p}.html")),
            page(&format!("Page {p}"), &text),
        )
        .unwrap();
    }
    dir
}

#[tokio::test(flavor = "multi_thread")]
async fn crawl_and_map_are_bounded_and_policed() {
    let dir = small_site();
    let site = Server::start(Some(dir.path().to_path_buf())).await.unwrap();
    let seed = site.url("/index.html");
    let client = stdio_client(&["--offline", "--allow-private", "-j", "1"]).await;

    // crawl: bounded by max_pages, the pages' Markdown under their titles, the rest structured.
    let r = call(&client, "crawl", json!({ "url": seed, "max_pages": 2 })).await;
    assert_eq!(r.is_error, Some(false), "{}", text_of(&r));
    let s = r.structured_content.clone().expect("structured content");
    let pages = s["pages"].as_array().unwrap();
    assert_eq!(pages.len(), 2, "{s}");
    assert_eq!(pages[0]["url"], seed.as_str());
    assert_eq!(pages[0]["found_in"], "seed");
    assert_eq!(pages[1]["depth"], 1);
    assert_eq!(pages[1]["found_in"], "link");
    assert_eq!(s["more"], true, "{s}");
    let text = r.content[0].as_text().unwrap().text.clone();
    assert!(text.starts_with("# Index\n<"), "{text}");
    assert!(text.contains("of the site."), "{text}");
    // The JSON text block leaves the contents to the first block.
    let brief = r.content[1].as_text().unwrap().text.clone();
    assert!(!brief.contains("\"content\""), "{brief}");

    // max_chars cuts each page's content and says so.
    let r = call(
        &client,
        "crawl",
        json!({ "url": seed, "max_pages": 1, "max_chars": 10, "format": "text" }),
    )
    .await;
    let s = r.structured_content.clone().expect("structured content");
    assert_eq!(s["pages"][0]["truncated"], true, "{s}");
    assert_eq!(
        s["pages"][0]["content"].as_str().unwrap().chars().count(),
        11
    );

    // map: the seed's links, none extracted.
    let r = call(&client, "map", json!({ "url": seed })).await;
    assert_eq!(r.is_error, Some(false), "{}", text_of(&r));
    let s = r.structured_content.clone().expect("structured content");
    let urls: Vec<&str> = s["urls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["url"].as_str().unwrap())
        .collect();
    for p in ["/index.html", "/a.html", "/b.html", "/c.html"] {
        assert!(urls.contains(&site.url(p).as_str()), "{p}: {urls:?}");
    }
    let r = call(&client, "map", json!({ "url": seed, "limit": 2 })).await;
    let s = r.structured_content.clone().expect("structured content");
    assert_eq!(s["urls"].as_array().unwrap().len(), 2);
    assert_eq!(s["more"], true);
    client.cancel().await.expect("close the session");

    // The target policy: without --allow-private the loopback seed is refused.
    let client = stdio_client(&["--offline", "-j", "1"]).await;
    for tool in ["crawl", "map"] {
        let r = call(&client, tool, json!({ "url": seed })).await;
        assert_eq!(r.is_error, Some(true), "{tool}");
        assert!(
            text_of(&r).starts_with("error (forbidden)"),
            "{}",
            text_of(&r)
        );
    }
    client.cancel().await.expect("close the session");
}

/// `sightline serve` with one tab (tests/common's starter).
fn start_serve(args: &[&str]) -> Service {
    let mut all = vec!["-j", "1"];
    all.extend_from_slice(args);
    common::start(&all)
}

/// A raw JSON-RPC `initialize` message, for requests sent without an MCP client.
fn initialize_request() -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"}}})
}

async fn http_client(url: &str, token: Option<&str>) -> Result<Client, String> {
    let mut cfg = StreamableHttpClientTransportConfig::with_uri(url.to_string());
    if let Some(t) = token {
        cfg = cfg.auth_header(t.to_string());
    }
    ().serve(StreamableHttpClientTransport::from_config(cfg))
        .await
        .map_err(|e| e.to_string())
}

#[tokio::test(flavor = "multi_thread")]
async fn serve_answers_mcp_behind_its_token_and_target_policy() {
    let site = Server::start(Some(fixtures_dir())).await.unwrap();
    let page = site.url("/demo-news/page.html");
    let allowed = page
        .trim_start_matches("http://")
        .split('/')
        .next()
        .unwrap()
        .to_string();
    let svc = start_serve(&["--token", "s3cret", "--allow-host", &allowed]);
    let mcp = format!("{}/mcp", svc.base);

    // Without the token, or with a wrong one: 401 before any MCP message is read.
    let init = initialize_request();
    for auth in [None, Some("Bearer wrong")] {
        let mut req = reqwest::Client::new()
            .post(&mcp)
            .header("accept", "application/json, text/event-stream")
            .json(&init);
        if let Some(a) = auth {
            req = req.header("authorization", a);
        }
        let r = req.send().await.unwrap();
        assert_eq!(r.status().as_u16(), 401, "{auth:?}");
        let body: Value = r.json().await.unwrap();
        assert_eq!(body["error"]["kind"], "unauthorized");
    }
    assert!(http_client(&mcp, None).await.is_err());

    // With it: the tools, an extraction of the allowed loopback host, and the policy.
    let client = http_client(&mcp, Some("s3cret")).await.expect("initialize");
    check_tools(&client).await;
    let r = call(&client, "extract", json!({ "url": page })).await;
    assert_eq!(r.is_error, Some(false), "{}", text_of(&r));
    assert!(text_of(&r).contains(&format!("# {HEADLINE}")));
    assert_eq!(r.structured_content.unwrap()["url"], page.as_str());

    // Another loopback port is refused, as /extract refuses it.
    let other = Server::start(Some(fixtures_dir())).await.unwrap();
    let r = call(
        &client,
        "extract",
        json!({ "url": other.url("/demo-news/page.html") }),
    )
    .await;
    assert_eq!(r.is_error, Some(true));
    assert!(
        text_of(&r).starts_with("error (forbidden)"),
        "{}",
        text_of(&r)
    );
    client.cancel().await.expect("close the session");
    drop(svc);
}

#[tokio::test(flavor = "multi_thread")]
async fn serve_without_a_token_answers_mcp_for_loopback_names_only() {
    let svc = start_serve(&[]);
    let port = svc.base.rsplit(':').next().unwrap().to_string();
    let init = initialize_request();
    // A page in the user's browser that rebinds its own name to 127.0.0.1 sends its name as
    // Host: refused. Loopback names are answered.
    for (host, status) in [
        (format!("127.0.0.1:{port}"), 200),
        (format!("localhost:{port}"), 200),
        (format!("attacker.example:{port}"), 403),
    ] {
        let r = reqwest::Client::new()
            .post(format!("{}/mcp", svc.base))
            .header("host", &host)
            .header("accept", "application/json, text/event-stream")
            .json(&init)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), status, "{host}");
        if status == 200 {
            let body: Value = r.json().await.unwrap();
            assert_eq!(body["result"]["serverInfo"]["name"], "sightline", "{body}");
        }
    }
}

/// Wait until the service's queue gauge reads `n`; fail with `what` otherwise.
async fn queue_reaches(base: &str, n: u32, what: &str) {
    common::metrics::metric_reaches(base, "sightline_queue", f64::from(n), what).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn serve_admits_mcp_calls_within_its_queue_bound() {
    // A page that never answers: the tool call holds its place until the client goes away.
    let hang = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let hang_url = format!("http://{}/", hang.local_addr().unwrap());
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((s, _)) = hang.accept().await {
            held.push(s);
        }
    });
    // One tab and no queue: one place in all, shared by /extract and /mcp. The page's and
    // the call's deadlines are far beyond the test's hang guard: the call holds its place
    // until its client goes away, and nothing else frees it.
    let svc = start_serve(&[
        "--allow-private",
        "--max-queue",
        "0",
        "--timeout",
        "3600",
        "--request-timeout",
        "3600",
    ]);
    let url = format!("{}/mcp", svc.base);
    let client = http_client(&url, None).await.unwrap();
    // The handshake's messages have been answered: their places are free again.
    queue_reaches(&svc.base, 0, "the handshake kept its place").await;
    let call = tokio::spawn(async move {
        let r = call(&client, "extract", json!({"url": hang_url})).await;
        (client, r)
    });
    queue_reaches(&svc.base, 1, "the call was never admitted").await;
    let init = initialize_request();
    let post = || {
        reqwest::Client::new()
            .post(&url)
            .header("accept", "application/json, text/event-stream")
            .json(&init)
            .send()
    };
    let r = post().await.unwrap();
    assert_eq!(r.status().as_u16(), 503);
    assert!(r.headers().get("retry-after").is_some());
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["error"]["kind"], "busy", "{body}");
    // /extract shares the bound.
    let r = reqwest::get(format!("{}/extract?url=http://127.0.0.1:9/", svc.base))
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 503);
    // The client goes away: its place is free again, and the gauge says so.
    call.abort();
    let _ = call.await;
    queue_reaches(&svc.base, 0, "the place was never freed").await;
    assert_eq!(post().await.unwrap().status().as_u16(), 200);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_tools_steer_the_page_under_the_servers_grants() {
    let site = Server::start(Some(fixtures_dir())).await.unwrap();
    let page = site.url("/steer-late-article/page.html");
    let client = stdio_client(&["--offline", "--allow-private", "-j", "1"]).await;
    // Without a plan, the article is still loading; waiting for it, it is there.
    let r = call(&client, "extract", json!({ "url": page, "format": "text" })).await;
    assert!(text_of(&r).contains("Loading…"), "{}", text_of(&r));
    let r = call(
        &client,
        "extract",
        json!({ "url": page, "format": "text", "steer": {"wait_for": "#article p:not(.loading)"} }),
    )
    .await;
    assert_eq!(r.is_error, Some(false), "{}", text_of(&r));
    assert!(text_of(&r).contains("Mairead Quinn"), "{}", text_of(&r));
    // A caller's script needs the server's --allow-scripts.
    let r = call(
        &client,
        "extract",
        json!({ "url": page, "steer": {"actions": [{"type": "executeJavascript", "script": "1"}]} }),
    )
    .await;
    assert_eq!(r.is_error, Some(true));
    assert!(text_of(&r).contains("--allow-scripts"), "{}", text_of(&r));
    let _ = client.cancel().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn extract_archives_the_page_into_the_servers_warc_dir_when_asked() {
    let site = Server::start(Some(fixtures_dir())).await.unwrap();
    let page = site.url("/demo-news/page.html");
    // Without --warc-dir, asking is refused and says how the operator allows it.
    let client = stdio_client(&["--offline", "--allow-private", "-j", "1"]).await;
    let r = call(&client, "extract", json!({ "url": page, "warc": true })).await;
    assert_eq!(r.is_error, Some(true));
    assert!(text_of(&r).contains("--warc-dir"), "{}", text_of(&r));
    let _ = client.cancel().await;

    let dir = tempfile::tempdir().unwrap();
    let warcs = dir.path().join("warcs");
    let client = stdio_client(&[
        "--offline",
        "--allow-private",
        "-j",
        "1",
        "--warc-dir",
        warcs.to_str().unwrap(),
    ])
    .await;
    // Not asked: no archive.
    let r = call(&client, "extract", json!({ "url": page })).await;
    assert_eq!(r.is_error, Some(false), "{}", text_of(&r));
    assert!(r.structured_content.unwrap().get("warc").is_none());
    assert_eq!(std::fs::read_dir(&warcs).unwrap().count(), 0);
    // Asked: the result names a new WARC holding the page's response and its text.
    let r = call(&client, "extract", json!({ "url": page, "warc": true })).await;
    assert_eq!(r.is_error, Some(false), "{}", text_of(&r));
    let s = r.structured_content.clone().unwrap();
    let name = s["warc"].as_str().expect("the WARC's name");
    assert!(name.ends_with(".warc.gz"), "{name}");
    let mut text = String::new();
    std::io::Read::read_to_string(
        &mut flate2::read::MultiGzDecoder::new(std::fs::File::open(warcs.join(name)).unwrap()),
        &mut text,
    )
    .unwrap();
    assert!(
        text.starts_with("WARC/1.1"),
        "{}",
        &text[..80.min(text.len())]
    );
    assert!(
        text.contains(&format!("WARC-Target-URI: {page}")),
        "the page's records"
    );
    assert!(text.contains("WARC-Type: response") && text.contains(HEADLINE));
    let _ = client.cancel().await;
}
