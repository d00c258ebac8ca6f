//! Request shaping, sessions and the user's proxy, in real Chromium against servers of the
//! test's own on loopback (issue 35, items 4-6): a cookie, a header (and a third-party
//! subresource that must not get it), a user agent with locale, time zone and phone, a login
//! saved and reused through Playwright's `storageState`, a proxy that is the only way to a
//! host name that does not resolve (with and without credentials, with the target policy on),
//! and isolation: the page rendered after a page with a session gets none of it.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use sightline::render::guard::TargetPolicy;
use sightline::render::steer::{self, Steer};
use sightline::render::{EgressPolicy, Input, PageRender, RenderOptions, Renderer};
use std::sync::Mutex;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// One request a test server saw: its path, `Host` and headers (lowercase names).
#[derive(Debug, Clone)]
struct Seen {
    path: String,
    host: String,
    headers: HashMap<String, String>,
}

type SeenLog = Arc<Mutex<Vec<Seen>>>;

/// Read one HTTP request head from `s`: (method, target, headers).
async fn read_head(s: &mut TcpStream) -> Option<(String, String, HashMap<String, String>)> {
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        let b = s.read_u8().await.ok()?;
        head.push(b);
        if head.len() > 64 * 1024 {
            return None;
        }
    }
    let text = String::from_utf8_lossy(&head).to_string();
    let mut lines = text.split("\r\n");
    let mut first = lines.next()?.split_whitespace();
    let method = first.next()?.to_string();
    let target = first.next()?.to_string();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Some((method, target, headers))
}

async fn write_response(s: &mut TcpStream, status: &str, extra: &[(&str, String)], body: &str) {
    let mut r = format!(
        "HTTP/1.1 {status}\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\nCache-Control: max-age=3600\r\n",
        body.len()
    );
    for (k, v) in extra {
        r.push_str(&format!("{k}: {v}\r\n"));
    }
    r.push_str("\r\n");
    r.push_str(body);
    let _ = s.write_all(r.as_bytes()).await;
    let _ = s.shutdown().await;
}

/// The site's pages: what each shows depends on the request's cookies and headers.
fn page(
    path: &str,
    headers: &HashMap<String, String>,
    port: u16,
) -> (String, Vec<(&'static str, String)>) {
    let cookie = headers.get("cookie").cloned().unwrap_or_default();
    let has = |c: &str| cookie.split(';').any(|p| p.trim() == c);
    let wrap = |body: String| {
        format!("<!doctype html><html><head><meta name=viewport content=\"width=device-width\"><title>t</title></head><body><main>{body}</main></body></html>")
    };
    let path = path.split('?').next().unwrap_or(path);
    match path {
        "/cookie" => (
            wrap(if has("sid=s3cret") {
                "<h1>Members</h1><p>Welcome back: the member content is visible with the cookie.</p>".into()
            } else {
                "<h1>Members</h1><p>Please log in to read the member content.</p>".into()
            }),
            vec![],
        ),
        "/header" => (
            wrap(format!(
                "<h1>Header</h1><p>X-Test header: {}.</p><img src=\"http://localhost:{port}/pixel.gif\" width=1 height=1>",
                headers.get("x-test").map_or("absent".to_string(), |v| format!("present ({v})"))
            )),
            vec![],
        ),
        "/env" => (
            wrap(format!(
                "<h1>Environment</h1><p id=ua>Server saw user agent {}.</p><p id=js>pending</p>\
                 <script>document.getElementById('js').textContent = 'Browser says language ' + navigator.language + ', time zone ' + Intl.DateTimeFormat().resolvedOptions().timeZone + ', width ' + innerWidth + ', touch ' + navigator.maxTouchPoints + ', agent ' + navigator.userAgent + '.';</script>",
                headers.get("user-agent").cloned().unwrap_or_default()
            )),
            vec![],
        ),
        "/login" => (
            wrap("<h1>Login</h1><p>You are now logged in; the session is kept.</p><script>localStorage.setItem('token', 't1')</script>".into()),
            vec![("Set-Cookie", "session=abc; Path=/; HttpOnly".into())],
        ),
        "/account" => (
            wrap(format!(
                "<h1>Account</h1><p>Server: {}.</p><p id=ls>pending</p><script>document.getElementById('ls').textContent = 'Stored token: ' + (localStorage.getItem('token') || 'none') + '.';</script>",
                if has("session=abc") { "logged in with the session cookie" } else { "not logged in" }
            )),
            vec![],
        ),
        _ => (wrap("<p>Nothing here but a plain page of text for the test.</p>".into()), vec![]),
    }
}

/// The test's web site on 127.0.0.1 (also reached as `localhost`, another site).
async fn site() -> (u16, SeenLog) {
    let l = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = l.local_addr().unwrap().port();
    let log: SeenLog = Arc::default();
    let log2 = log.clone();
    tokio::spawn(async move {
        loop {
            let Ok((mut s, _)) = l.accept().await else {
                continue;
            };
            let log = log2.clone();
            tokio::spawn(async move {
                let Some((_, target, headers)) = read_head(&mut s).await else {
                    return;
                };
                log.lock().unwrap().push(Seen {
                    path: target.clone(),
                    host: headers.get("host").cloned().unwrap_or_default(),
                    headers: headers.clone(),
                });
                let (body, extra) = page(&target, &headers, port);
                write_response(&mut s, "200 OK", &extra, &body).await;
            });
        }
    });
    (port, log)
}

/// The host name that resolves nowhere: only the test proxy answers for it.
const ONLY_VIA_PROXY: &str = "only-via-proxy.test";

/// A test HTTP proxy on loopback: it answers for [`ONLY_VIA_PROXY`] itself (absolute-form
/// requests, and requests inside a CONNECT tunnel to it) and tunnels CONNECTs to anything
/// else. With `credentials`, it wants them (`Proxy-Authorization: Basic`) or answers 407.
/// The log counts the requests it answered for its own host.
async fn test_proxy(credentials: Option<&str>) -> (u16, SeenLog) {
    use base64::Engine;
    let l = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = l.local_addr().unwrap().port();
    let log: SeenLog = Arc::default();
    let log2 = log.clone();
    let want = credentials.map(|c| {
        format!(
            "Basic {}",
            base64::engine::general_purpose::STANDARD.encode(c)
        )
    });
    tokio::spawn(async move {
        loop {
            let Ok((mut s, _)) = l.accept().await else {
                continue;
            };
            let log = log2.clone();
            let want = want.clone();
            tokio::spawn(async move {
                let Some((method, target, headers)) = read_head(&mut s).await else {
                    return;
                };
                if let Some(w) = &want {
                    if headers.get("proxy-authorization") != Some(w) {
                        write_response(
                            &mut s,
                            "407 Proxy Authentication Required",
                            &[("Proxy-Authenticate", "Basic realm=\"test\"".into())],
                            "auth",
                        )
                        .await;
                        return;
                    }
                }
                let own = |host: &str| {
                    log.lock().unwrap().push(Seen {
                        path: target.clone(),
                        host: host.into(),
                        headers: headers.clone(),
                    });
                };
                let body = "<!doctype html><html><head><title>p</title></head><body><main><h1>Via proxy</h1><p>This page exists only behind the test proxy, which answers for its host name.</p></main></body></html>";
                if method == "CONNECT" {
                    let (host, port) = target.rsplit_once(':').unwrap();
                    if host == ONLY_VIA_PROXY {
                        let _ = s
                            .write_all(b"HTTP/1.1 200 Connection established\r\n\r\n")
                            .await;
                        let Some((_, t2, h2)) = read_head(&mut s).await else {
                            return;
                        };
                        log.lock().unwrap().push(Seen {
                            path: t2,
                            host: host.into(),
                            headers: h2,
                        });
                        write_response(&mut s, "200 OK", &[], body).await;
                        return;
                    }
                    let Ok(mut up) = TcpStream::connect((host, port.parse::<u16>().unwrap())).await
                    else {
                        let _ = s.write_all(b"HTTP/1.1 502 Bad Gateway\r\n\r\n").await;
                        return;
                    };
                    let _ = s
                        .write_all(b"HTTP/1.1 200 Connection established\r\n\r\n")
                        .await;
                    let _ = tokio::io::copy_bidirectional(&mut s, &mut up).await;
                    return;
                }
                let host = url::Url::parse(&target)
                    .ok()
                    .and_then(|u| u.host_str().map(str::to_string))
                    .unwrap_or_default();
                if host == ONLY_VIA_PROXY {
                    own(&host);
                    write_response(&mut s, "200 OK", &[], body).await;
                } else {
                    write_response(&mut s, "502 Bad Gateway", &[], "only-via-proxy only").await;
                }
            });
        }
    });
    (port, log)
}

async fn renderer(opts: RenderOptions) -> Renderer {
    Renderer::new(opts.timeout(Duration::from_secs(20)))
        .await
        .expect("Chromium starts")
}

fn text(r: &sightline::render::Rendered) -> String {
    r.snapshot
        .nodes
        .iter()
        .filter_map(|n| n.text.as_deref())
        .collect::<Vec<_>>()
        .join(" ")
}

async fn render(r: &Renderer, url: &str, steer: Option<Steer>) -> Result<String, sightline::Error> {
    let page = PageRender {
        steer: steer.map(Arc::new),
        ..PageRender::default()
    };
    r.render_with(&Input::Url(url.into()), &page)
        .await
        .map(|x| text(&x))
}

/// HTML given as bytes (served by the renderer's own loopback page server, which is reached
/// directly, never through the user's proxy).
async fn render_bytes(r: &Renderer) -> String {
    let html = "<!doctype html><html><head><title>b</title></head><body><main><p>Bytes given to sightline, served on its own loopback page server.</p></main></body></html>";
    let page = r
        .render(&Input::Html {
            name: "bytes".into(),
            bytes: html.as_bytes().to_vec(),
            charset: "utf-8".into(),
        })
        .await
        .unwrap();
    text(&page)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cookie_opens_the_page_and_the_next_page_does_not_get_it() {
    let (port, log) = site().await;
    let r = renderer(RenderOptions::default()).await;
    let url = format!("http://127.0.0.1:{port}/cookie");
    let with = {
        let mut s = Steer::default();
        s.cookies = vec![steer::parse_cookie("sid=s3cret").unwrap()];
        s
    };
    let t = render(&r, &url, Some(with)).await.unwrap();
    assert!(t.contains("member content is visible"), "{t}");
    // The same renderer, a page without a plan: the cookie stayed in the first page's context.
    let t = render(&r, &url, None).await.unwrap();
    assert!(t.contains("Please log in"), "{t}");
    let seen = log.lock().unwrap().clone();
    let cookies: Vec<Option<&String>> = seen
        .iter()
        .filter(|s| s.path == "/cookie")
        .map(|s| s.headers.get("cookie"))
        .collect();
    assert_eq!(cookies.len(), 2, "{seen:?}");
    assert_eq!(cookies[0].map(String::as_str), Some("sid=s3cret"));
    assert_eq!(
        cookies[1], None,
        "the second page got the first page's cookie"
    );
    r.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_header_goes_to_the_targets_site_only() {
    let (port, log) = site().await;
    let r = renderer(RenderOptions::default()).await;
    let url = format!("http://127.0.0.1:{port}/header");
    let with = {
        let mut s = Steer::default();
        s.headers = vec![steer::parse_header("X-Test: yes").unwrap()];
        s
    };
    let t = render(&r, &url, Some(with)).await.unwrap();
    assert!(t.contains("X-Test header: present (yes)"), "{t}");
    // Another page without it (the same tab pool) gets no header.
    let t = render(&r, &url, None).await.unwrap();
    assert!(t.contains("X-Test header: absent"), "{t}");
    let seen = log.lock().unwrap().clone();
    // The third-party image (http://localhost:PORT, another site) was fetched, without it.
    let pixels: Vec<&Seen> = seen.iter().filter(|s| s.path == "/pixel.gif").collect();
    assert!(
        !pixels.is_empty(),
        "the third-party subresource was requested: {seen:?}"
    );
    assert!(
        pixels
            .iter()
            .all(|s| s.host.starts_with("localhost") && !s.headers.contains_key("x-test")),
        "{pixels:?}"
    );
    r.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn user_agent_locale_time_zone_and_phone_are_the_pages_own() {
    let (port, _log) = site().await;
    let r = renderer(RenderOptions::default()).await;
    let url = format!("http://127.0.0.1:{port}/env");
    let with = {
        let mut s = Steer::default();
        s.user_agent = Some("SightlineTest/1.0".into());
        s.locale = Some("de-DE".into());
        s.timezone = Some("Asia/Tokyo".into());
        s
    };
    let t = render(&r, &url, Some(with)).await.unwrap();
    assert!(t.contains("Server saw user agent SightlineTest/1.0"), "{t}");
    assert!(t.contains("language de-DE"), "{t}");
    assert!(t.contains("time zone Asia/Tokyo"), "{t}");
    assert!(t.contains("agent SightlineTest/1.0"), "{t}");
    let phone = {
        let mut s = Steer::default();
        s.mobile = true;
        s
    };
    let t = render(&r, &url, Some(phone)).await.unwrap();
    assert!(t.contains("width 390"), "{t}");
    assert!(t.contains("Mobile Safari"), "{t}");
    assert!(t.contains("touch 5"), "{t}");
    // The next page is the browser's own again.
    let t = render(&r, &url, None).await.unwrap();
    assert!(
        !t.contains("SightlineTest") && !t.contains("Mobile") && !t.contains("Asia/Tokyo"),
        "{t}"
    );
    assert!(t.contains("width 1366"), "{t}");
    r.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_login_saved_is_a_login_reused() {
    let (port, _log) = site().await;
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state.json");
    let r = renderer(RenderOptions::default()).await;
    let save = {
        let mut s = Steer::default();
        s.save_storage_state = Some(state.clone());
        s
    };
    let t = render(&r, &format!("http://127.0.0.1:{port}/login"), Some(save))
        .await
        .unwrap();
    assert!(t.contains("logged in"), "{t}");
    // Playwright's shape: the session cookie, and the origin's localStorage.
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    let cookies = saved["cookies"].as_array().unwrap();
    assert!(
        cookies.iter().any(|c| c["name"] == "session"
            && c["value"] == "abc"
            && c["httpOnly"] == true
            && c["domain"] == "127.0.0.1"),
        "{saved}"
    );
    assert_eq!(
        saved["origins"][0]["origin"],
        format!("http://127.0.0.1:{port}")
    );
    assert_eq!(saved["origins"][0]["localStorage"][0]["name"], "token");
    let account = format!("http://127.0.0.1:{port}/account");
    let load = {
        let mut s = Steer::default();
        s.storage_state = Some(steer::load_storage_state(&state).unwrap());
        s
    };
    let t = render(&r, &account, Some(load)).await.unwrap();
    assert!(t.contains("logged in with the session cookie"), "{t}");
    assert!(t.contains("Stored token: t1"), "{t}");
    // Without the state, nobody is logged in.
    let t = render(&r, &account, None).await.unwrap();
    assert!(
        t.contains("not logged in") && t.contains("Stored token: none"),
        "{t}"
    );
    r.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_proxy_is_the_only_way_to_its_host() {
    let (pport, plog) = test_proxy(None).await;
    let url = format!("http://{ONLY_VIA_PROXY}/");
    let r =
        renderer(RenderOptions::default().proxy(Some(format!("http://127.0.0.1:{pport}")))).await;
    let t = render(&r, &url, None).await.unwrap();
    assert!(t.contains("only behind the test proxy"), "{t}");
    // A page with a session of its own (its own browser context) takes the proxy too.
    let with = {
        let mut s = Steer::default();
        s.headers = vec![steer::parse_header("X-Test: yes").unwrap()];
        s
    };
    let t = render(&r, &url, Some(with)).await.unwrap();
    assert!(t.contains("only behind the test proxy"), "{t}");
    assert!(plog
        .lock()
        .unwrap()
        .iter()
        .any(|s| s.headers.get("x-test").map(String::as_str) == Some("yes")));
    assert!(render_bytes(&r).await.contains("own loopback page server"));
    r.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_proxy_with_credentials_gets_them() {
    let (pport, plog) = test_proxy(Some("alice:s3cret")).await;
    let r = renderer(
        RenderOptions::default().proxy(Some(format!("http://alice:s3cret@127.0.0.1:{pport}"))),
    )
    .await;
    let t = render(&r, &format!("http://{ONLY_VIA_PROXY}/"), None)
        .await
        .unwrap();
    assert!(t.contains("only behind the test proxy"), "{t}");
    assert!(!plog.lock().unwrap().is_empty());
    assert!(render_bytes(&r).await.contains("own loopback page server"));
    r.shutdown().await;
    // Wrong credentials: the page fails, naming the proxy's answer.
    let r = renderer(
        RenderOptions::default().proxy(Some(format!("http://alice:wrong@127.0.0.1:{pport}"))),
    )
    .await;
    let e = render(&r, &format!("http://{ONLY_VIA_PROXY}/"), None)
        .await
        .unwrap_err();
    assert_eq!(e.kind(), "navigation", "{e}");
    r.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_target_policy_on_the_proxy_works_and_forbidden_targets_stay_refused() {
    let (pport, _plog) = test_proxy(None).await;
    let (port, log) = site().await;
    // As `extract --deny-private` sets it: the tab's check and the egress proxy.
    let mut opts = RenderOptions::default().proxy(Some(format!("http://127.0.0.1:{pport}")));
    opts.set_target_policy(Some(sightline::render::guard::NetPolicy::default()));
    let r = renderer(opts).await;
    assert!(r.egress().is_some());
    let t = render(&r, &format!("http://{ONLY_VIA_PROXY}/"), None)
        .await
        .unwrap();
    assert!(t.contains("only behind the test proxy"), "{t}");
    let e = render(&r, &format!("http://127.0.0.1:{port}/plain"), None)
        .await
        .unwrap_err();
    assert_eq!(e.kind(), "forbidden", "{e}");
    r.shutdown().await;
    // The egress proxy alone (no check in the tab) refuses it too, through the same proxy,
    // for a page in its own browser context as well.
    let r = renderer(
        RenderOptions::default()
            .proxy(Some(format!("http://127.0.0.1:{pport}")))
            .targets(Some(TargetPolicy::proxy_only(EgressPolicy::default()))),
    )
    .await;
    let with = {
        let mut s = Steer::default();
        s.cookies = vec![steer::parse_cookie("sid=s3cret").unwrap()];
        s
    };
    let e = render(&r, &format!("http://127.0.0.1:{port}/cookie"), Some(with))
        .await
        .unwrap_err();
    assert_eq!(e.kind(), "forbidden", "{e}");
    assert!(r.egress().unwrap().refused() >= 1);
    let t = render(&r, &format!("http://{ONLY_VIA_PROXY}/"), None)
        .await
        .unwrap();
    assert!(t.contains("only behind the test proxy"), "{t}");
    assert!(
        log.lock()
            .unwrap()
            .iter()
            .all(|s| s.path != "/plain" && s.path != "/cookie"),
        "a forbidden target was reached"
    );
    r.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn loaders_name_the_file_and_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("cookies.txt");
    std::fs::write(
        &p,
        "# Netscape HTTP Cookie File\n127.0.0.1\tFALSE\t/\tFALSE\t0\tsid\ts3cret\n",
    )
    .unwrap();
    let c = steer::load_cookies(&p).unwrap();
    assert_eq!(
        (
            c[0].name.as_str(),
            c[0].value.as_str(),
            c[0].domain.as_str()
        ),
        ("sid", "s3cret", "127.0.0.1")
    );
    std::fs::write(&p, "garbage line").unwrap();
    let e = steer::load_cookies(&p).unwrap_err();
    assert_eq!(e.kind(), "input");
    assert!(
        e.to_string().contains("cookies.txt") && e.to_string().contains("tab-separated"),
        "{e}"
    );
    let e = steer::load_storage_state(&dir.path().join("nope.json")).unwrap_err();
    assert!(e.to_string().contains("nope.json"), "{e}");
    // A cookie file's cookie for the target's site opens the page.
    let (port, _log) = site().await;
    std::fs::write(&p, "[{\"name\":\"sid\",\"value\":\"s3cret\",\"domain\":\"127.0.0.1\",\"path\":\"/\"},{\"name\":\"x\",\"value\":\"1\",\"domain\":\"tracker.example\",\"path\":\"/\"}]").unwrap();
    let r = renderer(RenderOptions::default()).await;
    let with = {
        let mut s = Steer::default();
        s.cookies = steer::load_cookies(&p).unwrap();
        s
    };
    let t = render(&r, &format!("http://127.0.0.1:{port}/cookie"), Some(with))
        .await
        .unwrap();
    assert!(t.contains("member content is visible"), "{t}");
    r.shutdown().await;
}
