//! `sightline crawl` and `map` against a site generated here and served on 127.0.0.1: robots.txt
//! (a disallowed path, Crawl-delay, a sitemap index), a gzip sitemap, an RSS feed, links that
//! exist only after the page's script ran, nofollow, a canonical duplicate, a near-duplicate,
//! a tracking parameter, an endless calendar, an off-scope link; and a crawl killed with
//! SIGKILL, then resumed: every page recorded exactly once, none with a record fetched again.
//! Each behaviour is asserted from the records (and the server's request counts).

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;

#[path = "common/eventually.rs"]
mod eventually;
use eventually::{eventually_blocking, holds};

const BIN: &str = env!("CARGO_BIN_EXE_sightline");

/// A page's body: an article of words drawn from `seed` (distinct pages have distinct texts).
fn article(seed: &str) -> String {
    const VOCAB: &str = "river mountain harbour lantern orchard meadow glacier canyon valley \
        forest island desert prairie marsh tundra volcano lagoon estuary plateau summit ridge \
        quarry village market bakery library theatre museum gallery station bridge tunnel \
        castle cathedral tower garden fountain statue harbourmaster ferry lighthouse beacon \
        compass anchor sail rudder keel mast deck cabin galley hull voyage journey expedition \
        caravan pilgrim merchant scholar painter weaver potter smith carpenter mason farmer \
        shepherd fisher hunter baker brewer miller tanner cooper chandler glazier archivist \
        astronomer botanist geologist chemist physician surgeon lawyer banker clerk sailor \
        soldier captain general admiral minister senator governor mayor judge jury witness";
    let words: Vec<&str> = VOCAB.split_whitespace().collect();
    let mut h: u64 = seed.bytes().fold(0xcbf29ce484222325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100000001b3)
    });
    let mut paras = String::new();
    for _ in 0..4 {
        let mut p = String::new();
        for i in 0..40 {
            h = h
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            p.push_str(words[(h >> 33) as usize % words.len()]);
            p.push_str(if i % 9 == 8 { ". " } else { " " });
        }
        paras.push_str(&format!("<p>{}.</p>\n", p.trim()));
    }
    paras
}

fn page(title: &str, head: &str, nav: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html><html><head><meta charset='utf-8'><title>{title}</title>{head}</head>\
         <body><nav>{nav}</nav><article><h1>{title}</h1>{body}</article>\
         <footer>Footer of the generated site.</footer></body></html>"
    )
}

/// The site: path → (content type, body), and the requests it answered.
struct Site {
    port: u16,
    hits: Arc<Mutex<HashMap<String, usize>>>,
    max_in_flight: Arc<AtomicUsize>,
}

type Route = Box<dyn Fn(&str, u16) -> Option<(&'static str, Vec<u8>)> + Send + Sync>;

/// Serve `route` on a loopback port, one thread a connection; pages (text/html) take
/// `delay` to answer, so several are in flight at once.
fn serve(route: Route, delay: Duration) -> Site {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let hits = Arc::new(Mutex::new(HashMap::new()));
    let max_in_flight = Arc::new(AtomicUsize::new(0));
    let in_flight = Arc::new(AtomicUsize::new(0));
    let route = Arc::new(route);
    let (h, m) = (hits.clone(), max_in_flight.clone());
    std::thread::spawn(move || {
        for conn in listener.incoming() {
            let Ok(conn) = conn else { continue };
            let (route, hits, max, inf) = (route.clone(), h.clone(), m.clone(), in_flight.clone());
            std::thread::spawn(move || answer(conn, port, &route, &hits, &max, &inf, delay));
        }
    });
    Site {
        port,
        hits,
        max_in_flight,
    }
}

fn answer(
    mut conn: TcpStream,
    port: u16,
    route: &Route,
    hits: &Mutex<HashMap<String, usize>>,
    max: &AtomicUsize,
    in_flight: &AtomicUsize,
    delay: Duration,
) {
    let mut reader = BufReader::new(conn.try_clone().unwrap());
    let mut line = String::new();
    if reader.read_line(&mut line).is_err() {
        return;
    }
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).is_err() || h.trim().is_empty() {
            break;
        }
    }
    let path = line.split_whitespace().nth(1).unwrap_or("/").to_string();
    *hits.lock().unwrap().entry(path.clone()).or_default() += 1;
    let (status, ctype, body) = match route(&path, port) {
        Some((t, b)) => ("200 OK", t, b),
        None => ("404 Not Found", "text/plain", b"not found".to_vec()),
    };
    let is_page = ctype == "text/html";
    if is_page {
        let n = in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        max.fetch_max(n, Ordering::SeqCst);
        std::thread::sleep(delay);
    }
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let _ = conn.write_all(head.as_bytes());
    let _ = conn.write_all(&body);
    let _ = conn.flush();
    if is_page {
        in_flight.fetch_sub(1, Ordering::SeqCst);
    }
}

fn gzip(b: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(b).unwrap();
    gz.finish().unwrap()
}

fn html(s: String) -> Option<(&'static str, Vec<u8>)> {
    Some(("text/html", s.into_bytes()))
}

/// The site of the behaviour test. `other` is the port of a second server (off scope).
fn site_route(other: u16) -> Route {
    Box::new(move |path, port| {
        let base = format!("http://127.0.0.1:{port}");
        match path {
            "/robots.txt" => Some((
                "text/plain",
                format!(
                    "User-agent: *\nDisallow: /private/\nCrawl-delay: 0.05\n\n\
                     Sitemap: {base}/sitemap_index.xml\n"
                )
                .into_bytes(),
            )),
            "/sitemap_index.xml" => Some((
                "application/xml",
                format!(
                    "<?xml version='1.0'?><sitemapindex xmlns='http://www.sitemaps.org/schemas/sitemap/0.9'>\
                     <sitemap><loc>{base}/sitemap-pages.xml.gz</loc></sitemap>\
                     <sitemap><loc>{base}/feed.xml</loc></sitemap></sitemapindex>"
                )
                .into_bytes(),
            )),
            "/sitemap-pages.xml.gz" => Some((
                "application/gzip",
                gzip(
                    format!(
                        "<?xml version='1.0'?><urlset xmlns='http://www.sitemaps.org/schemas/sitemap/0.9'>\
                         <url><loc>{base}/from-sitemap</loc></url>\
                         <url><loc>{base}/private/listed</loc></url></urlset>"
                    )
                    .as_bytes(),
                ),
            )),
            "/feed.xml" => Some((
                "application/rss+xml",
                format!(
                    "<?xml version='1.0'?><rss version='2.0'><channel><title>Feed</title>\
                     <link>{base}/</link><item><title>Post</title><link>{base}/from-feed</link>\
                     </item></channel></rss>"
                )
                .into_bytes(),
            )),
            "/" => html(page(
                "The seed page",
                "",
                &format!(
                    "<a href='/a'>Nav to A</a> <a href='/nofollow-target' rel='nofollow'>Sponsor</a> \
                     <a href='http://127.0.0.1:{other}/offsite'>Elsewhere</a> \
                     <a href='/private/secret'>Secret</a> <a href='/calendar/2024/1'>Calendar</a>"
                ),
                &format!(
                    "<p>The harbour report of this week continues in <a href='/a'>the first \
                     article</a>, which the river museum, the mountain library and the old \
                     lighthouse describe at length, with the merchants, the painters and the \
                     weavers of the valley, and with the ferry timetable of the estuary.</p>\
                     {}<p>Read <a href='/a?utm_source=news&amp;utm_medium=mail#top'>the first article</a>, \
                     <a href='/copy'>its copy</a>, <a href='/a-twin'>its twin</a> and \
                     <a href='/dup?utm_campaign=x'>another</a>.</p><div id='more'></div>\
                     <script>document.getElementById('more').innerHTML = \
                     \"<p>Only after the script: <a href='/js-only'>the scripted link</a>.</p>\";</script>",
                    article("seed")
                ),
            )),
            "/a" => html(page("Article A", "", "<a href='/'>Home</a>", &article("a"))),
            "/a-twin" => html(page(
                "Article A",
                "",
                "<a href='/'>Home</a> <a href='/'>Another nav entry of the twin</a>",
                &article("a"),
            )),
            "/copy" => html(page(
                "Copy of A",
                "<link rel='canonical' href='/a'>",
                "",
                &article("copy"),
            )),
            p if p.starts_with("/calendar/") => {
                let mut it = p.trim_start_matches("/calendar/").split('/');
                let y: u32 = it.next()?.parse().ok()?;
                let m: u32 = it.next()?.parse().ok()?;
                let (ny, nm) = if m == 12 { (y + 1, 1) } else { (y, m + 1) };
                html(page(
                    &format!("Calendar {y}-{m}"),
                    "",
                    "",
                    &format!(
                        "{}<p><a href='/calendar/{ny}/{nm}'>Next month</a></p>",
                        article(p)
                    ),
                ))
            }
            "/from-sitemap" | "/from-feed" | "/js-only" | "/dup" | "/nofollow-target"
            | "/private/secret" | "/private/listed" => {
                html(page(path, "", "<a href='/'>Home</a>", &article(path)))
            }
            _ => None,
        }
    })
}

fn records(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

fn by_path<'a>(recs: &'a [Value], base: &str, path: &str) -> Vec<&'a Value> {
    let want = format!("{base}{path}");
    recs.iter()
        .filter(|r| r["input"] == want.as_str())
        .collect()
}

#[test]
fn a_crawl_finds_scopes_folds_and_bounds_the_site() {
    let other = serve(
        Box::new(|_, _| html(page("Off", "", "", "<p>Off scope.</p>"))),
        Duration::ZERO,
    );
    let site = serve(site_route(other.port), Duration::from_millis(50));
    let base = format!("http://127.0.0.1:{}", site.port);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("crawl.jsonl");
    let status = Command::new(BIN)
        .args(["crawl", &format!("{base}/"), "-f", "json", "-o"])
        .arg(&out)
        .args([
            "-j",
            "4",
            "--per-host",
            "2",
            "--max-per-pattern",
            "5",
            "--timeout",
            "30",
            "--body",
            "markdown",
            "-q",
        ])
        .stdin(Stdio::null())
        .status()
        .unwrap();
    let recs = records(&out);
    let inputs: Vec<&str> = recs.iter().map(|r| r["input"].as_str().unwrap()).collect();
    assert!(
        status.code().is_some_and(|c| c == 0 || c == 2),
        "{status:?}: {inputs:#?}"
    );
    // `--body markdown`: each page's record carries its Markdown.
    let with_text: Vec<_> = recs
        .iter()
        .filter(|r| r["text"].as_str().is_some_and(|t| !t.is_empty()))
        .collect();
    assert!(!with_text.is_empty());
    for r in with_text {
        assert_eq!(r["body_format"], "markdown", "{r}");
        assert!(!r["body"].as_str().unwrap().is_empty(), "{r}");
    }
    // Every page once.
    let mut uniq = inputs.clone();
    uniq.sort();
    uniq.dedup();
    assert_eq!(
        uniq.len(),
        inputs.len(),
        "a page recorded twice: {inputs:#?}"
    );
    let one = |p: &str| -> &Value {
        let v = by_path(&recs, &base, p);
        assert_eq!(v.len(), 1, "{p}: {} records in {inputs:#?}", v.len());
        v[0]
    };
    // The seed, and the links of its rendered page (the scripted one too).
    let seed = one("/");
    assert_eq!(seed["found_in"], "seed");
    assert_eq!(seed["depth"], 0);
    let js = one("/js-only");
    assert_eq!(js["found_in"], "link");
    assert_eq!(js["parent"], format!("{base}/"));
    assert_eq!(js["depth"], 1);
    // Sitemap index → gzip sitemap, and the RSS feed it names.
    let sm = one("/from-sitemap");
    assert_eq!(sm["found_in"], "sitemap");
    assert_eq!(sm["parent"], format!("{base}/sitemap-pages.xml.gz"));
    assert_eq!(one("/from-feed")["found_in"], "feed");
    // robots.txt: the disallowed path is never fetched, from a link or a sitemap.
    assert!(by_path(&recs, &base, "/private/secret").is_empty());
    assert!(by_path(&recs, &base, "/private/listed").is_empty());
    assert!(!site.hits.lock().unwrap().contains_key("/private/secret"));
    // nofollow: not followed, but listed as a link of the seed, marked.
    assert!(by_path(&recs, &base, "/nofollow-target").is_empty());
    let links = seed["links"].as_array().unwrap();
    let link = |p: &str| {
        links
            .iter()
            .find(|l| l["url"].as_str().unwrap().ends_with(p))
            .unwrap_or_else(|| panic!("{p} not in {links:#?}"))
    };
    assert_eq!(link("/nofollow-target")["nofollow"], true);
    // Links in the content and out of it.
    assert_eq!(link("/a")["content"], true, "{}", seed["text"]);
    assert_eq!(link("/calendar/2024/1")["content"], false);
    // Off scope: listed, never crawled.
    assert!(link("/offsite")["url"]
        .as_str()
        .unwrap()
        .contains(&other.port.to_string()));
    assert!(inputs.iter().all(|i| i.starts_with(&base)), "{inputs:#?}");
    assert!(other.hits.lock().unwrap().is_empty());
    // Tracking parameters and fragments: /a?utm_…#top is /a, once.
    one("/a");
    one("/dup");
    // rel=canonical folds /copy into /a: a record without content.
    let copy = one("/copy");
    assert_eq!(copy["duplicate_of"], format!("{base}/a"));
    assert!(copy.get("text").is_none(), "{copy}");
    // The twin's text is A's: a near-duplicate of whichever came first.
    let (a, twin) = (one("/a"), one("/a-twin"));
    let marked = [
        a["near_duplicate_of"].as_str(),
        twin["near_duplicate_of"].as_str(),
    ];
    assert!(
        marked.contains(&Some(&format!("{base}/a")))
            || marked.contains(&Some(&format!("{base}/a-twin"))),
        "{marked:?}"
    );
    // The endless calendar stops at the per-pattern cap.
    let cal = inputs.iter().filter(|i| i.contains("/calendar/")).count();
    assert_eq!(cal, 5, "{inputs:#?}");
    // Politeness: never more than --per-host pages of the host in flight.
    assert!(site.max_in_flight.load(Ordering::SeqCst) <= 2);
}

#[test]
fn map_lists_urls_without_extracting() {
    let other = serve(Box::new(|_, _| None), Duration::ZERO);
    let site = serve(site_route(other.port), Duration::ZERO);
    let base = format!("http://127.0.0.1:{}", site.port);
    let out = Command::new(BIN)
        .args(["map", &format!("{base}/"), "--timeout", "30", "-q"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let urls: Vec<&str> = text.lines().collect();
    for p in [
        "/",
        "/from-sitemap",
        "/from-feed",
        "/js-only",
        "/a",
        "/calendar/2024/1",
    ] {
        assert!(
            urls.contains(&format!("{base}{p}").as_str()),
            "{p} not in {urls:#?}"
        );
    }
    assert!(
        !urls
            .iter()
            .any(|u| u.contains("/private/") || u.contains("nofollow")),
        "{urls:#?}"
    );
    // Only the seed was rendered (depth 1: its links are listed, not fetched).
    let hits = site.hits.lock().unwrap();
    assert!(
        !hits.contains_key("/a") && !hits.contains_key("/js-only"),
        "{hits:?}"
    );
}

/// Pids of `pid`'s descendants (Linux /proc), to end a killed crawl's browser too.
fn descendants(pid: u32) -> Vec<u32> {
    let mut parent_of = Vec::new();
    for e in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(p) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else {
            continue;
        };
        let after = stat.rsplit_once(')').map(|x| x.1).unwrap_or("");
        if let Some(pp) = after
            .split_whitespace()
            .nth(1)
            .and_then(|x| x.parse::<u32>().ok())
        {
            parent_of.push((p, pp));
        }
    }
    let mut out = vec![];
    let mut todo = vec![pid];
    while let Some(p) = todo.pop() {
        for &(c, pp) in &parent_of {
            if pp == p {
                out.push(c);
                todo.push(c);
            }
        }
    }
    out
}

#[test]
fn kill_9_then_resume_records_every_page_once_and_fetches_none_twice() {
    const PAGES: usize = 40;
    let route: Route = Box::new(|path, _| {
        let n: usize = match path {
            "/" => 0,
            p => p.strip_prefix("/p/")?.parse().ok()?,
        };
        if n >= PAGES {
            return None;
        }
        // A tree: page n links to 2n+1 and 2n+2.
        let kids: String = [2 * n + 1, 2 * n + 2]
            .iter()
            .filter(|&&k| k < PAGES)
            .map(|k| format!("<a href='/p/{k}'>Page {k}</a> "))
            .collect();
        html(page(
            &format!("Page {n}"),
            "",
            "",
            &format!("{}<p>{kids}</p>", article(path)),
        ))
    });
    let site = serve(route, Duration::from_millis(200));
    let base = format!("http://127.0.0.1:{}", site.port);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("crawl.jsonl");
    let crawl = |resume: bool| {
        let mut c = Command::new(BIN);
        c.args(["crawl", &format!("{base}/"), "-f", "json", "-o"])
            .arg(&out)
            .args([
                "-j",
                "2",
                "--per-host",
                "2",
                "--timeout",
                "30",
                "-q",
                "--no-sitemaps",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::null());
        if resume {
            c.arg("--resume");
        }
        c
    };
    let mut child = crawl(false).spawn().unwrap();
    // Kill it once some pages are recorded and before all are.
    let some = eventually_blocking(Duration::from_secs(120), || {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the crawl ended before it was killed"
        );
        holds(records(&out).len() >= 8)
    });
    let n = records(&out).len();
    assert!(some.is_some(), "the crawl recorded {n} pages in 120 s");
    let kids = descendants(child.id());
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    for k in kids {
        let _ = Command::new("kill").args(["-9", &k.to_string()]).status();
    }
    let first: Vec<String> = records(&out)
        .iter()
        .map(|r| r["input"].as_str().unwrap().to_string())
        .collect();
    assert!(first.len() < PAGES, "killed after the end: {}", first.len());
    let status = crawl(true).status().unwrap();
    assert_eq!(status.code(), Some(0), "{status:?}");
    let all: Vec<String> = records(&out)
        .iter()
        .map(|r| r["input"].as_str().unwrap().to_string())
        .collect();
    let mut uniq = all.clone();
    uniq.sort();
    uniq.dedup();
    assert_eq!(uniq.len(), all.len(), "a page recorded twice");
    assert_eq!(all.len(), PAGES, "{all:#?}");
    let hits = site.hits.lock().unwrap();
    for url in &first {
        let path = url.strip_prefix(&base).unwrap();
        assert_eq!(
            hits.get(path),
            Some(&1),
            "{path} recorded before the kill was fetched again"
        );
    }
    // Only the pages in flight at the kill (at most -j + 1) were fetched twice.
    let twice = hits
        .iter()
        .filter(|(p, &n)| p.starts_with("/p/") && n > 1)
        .count();
    assert!(twice <= 3, "{hits:?}");
}

/// A page answering 429 with `Retry-After: 3` the first time: the renderer may not wait it
/// out (`--max-retry-after 0`), so the crawl backs the host off by the page's own
/// `Retry-After` (not its 1 s doubling start) and records the page from its second answer.
/// The pages' User-Agent is the crawl's, naming sightline (the browser's, set at launch).
#[test]
fn a_pages_own_retry_after_backs_its_host_off() {
    const RETRY_AFTER: u64 = 3;
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    type Hits = Vec<(String, std::time::Instant, String)>;
    let hits: Arc<Mutex<Hits>> = Arc::default();
    let h = hits.clone();
    std::thread::spawn(move || {
        for conn in listener.incoming() {
            let Ok(mut conn) = conn else { continue };
            let h = h.clone();
            std::thread::spawn(move || {
                let mut reader = BufReader::new(conn.try_clone().unwrap());
                let mut line = String::new();
                let _ = reader.read_line(&mut line);
                let mut agent = String::new();
                loop {
                    let mut x = String::new();
                    if reader.read_line(&mut x).is_err() || x.trim().is_empty() {
                        break;
                    }
                    if let Some((k, v)) = x.split_once(':') {
                        if k.eq_ignore_ascii_case("user-agent") {
                            agent = v.trim().to_string();
                        }
                    }
                }
                let path = line.split_whitespace().nth(1).unwrap_or("/").to_string();
                let seen = {
                    let mut h = h.lock().unwrap();
                    h.push((path.clone(), std::time::Instant::now(), agent));
                    h.iter().filter(|(p, _, _)| *p == path).count()
                };
                let (status, extra, body) = match path.as_str() {
                    "/" => (
                        "200 OK",
                        String::new(),
                        page(
                            "Home",
                            "",
                            "",
                            &format!("{}<a href='/slow'>Slow</a>", article("/")),
                        ),
                    ),
                    "/slow" if seen == 1 => (
                        "429 Too Many Requests",
                        format!("Retry-After: {RETRY_AFTER}\r\n"),
                        "<html><body><h1>Too many requests</h1></body></html>".to_string(),
                    ),
                    "/slow" => (
                        "200 OK",
                        String::new(),
                        page("Slow", "", "", &article("/slow")),
                    ),
                    _ => ("404 Not Found", String::new(), "not found".to_string()),
                };
                let head = format!(
                    "HTTP/1.1 {status}\r\nContent-Type: text/html\r\n{extra}Content-Length: {}\r\nConnection: close\r\n\r\n",
                    body.len()
                );
                let _ = conn.write_all(head.as_bytes());
                let _ = conn.write_all(body.as_bytes());
            });
        }
    });
    let base = format!("http://127.0.0.1:{port}");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("crawl.jsonl");
    let status = Command::new(BIN)
        .args(["crawl", &format!("{base}/"), "-f", "json", "-o"])
        .arg(&out)
        .args(["--max-retry-after", "0", "--no-sitemaps", "--ignore-robots"])
        .args(["-j", "1", "--timeout", "30", "-q"])
        .stdin(Stdio::null())
        .status()
        .unwrap();
    let recs = records(&out);
    assert_eq!(status.code(), Some(0), "{recs:#?}");
    let slow = by_path(&recs, &base, "/slow");
    assert_eq!(slow.len(), 1, "{recs:#?}");
    assert!(slow[0].get("error").is_none(), "{:#?}", slow[0]);
    let hits = hits.lock().unwrap();
    let at: Vec<std::time::Instant> = hits
        .iter()
        .filter(|(p, _, _)| p == "/slow")
        .map(|(_, t, _)| *t)
        .collect();
    for (path, _, agent) in hits.iter().filter(|(p, _, _)| p == "/" || p == "/slow") {
        assert_eq!(agent, sightline::crawl::USER_AGENT, "{path}");
    }
    assert_eq!(at.len(), 2, "{hits:?}");
    // The host was not asked again before its Retry-After (a lower bound: never flaky).
    assert!(
        at[1] - at[0] >= Duration::from_secs(RETRY_AFTER),
        "asked again after {:?}",
        at[1] - at[0]
    );
}

/// With no policy of its own, a crawl follows the renderer's (`crawl --deny-private`,
/// Python's `deny_private=True`): a found link to a refused host is skipped, never fetched,
/// and counted as `refused` (before, its refused robots.txt request counted it as
/// `disallowed`, as if the site's robots.txt had said so).
#[tokio::test(flavor = "multi_thread")]
async fn a_crawl_skips_links_the_renderers_policy_refuses() {
    use sightline::{CrawlConfig, Extractor, NetPolicy, Options, RenderOptions};
    let other = serve(
        Box::new(|_, _| html(page("Off", "", "", "<p>Private.</p>"))),
        Duration::ZERO,
    );
    let op = other.port;
    let site = serve(
        Box::new(move |p, _| match p {
            "/" => html(page(
                "Home",
                "",
                &format!("<a href='/a'>A</a> <a href='http://127.0.0.1:{op}/x'>X</a>"),
                &article("home"),
            )),
            "/a" => html(page("Page A", "", "", &article("a"))),
            _ => None,
        }),
        Duration::ZERO,
    );
    let mut render = RenderOptions::default();
    render.set_target_policy(Some(NetPolicy {
        allow_private: false,
        allow_hosts: vec![format!("127.0.0.1:{}", site.port)],
    }));
    let ex = Extractor::new(Options::default().tabs(1).render_options(render))
        .await
        .unwrap();
    let cfg = CrawlConfig::new([format!("http://127.0.0.1:{}/", site.port)])
        .scope(sightline::crawl::ScopeKind::Domain)
        .sitemaps(false)
        .max_depth(2);
    let mut inputs = Vec::new();
    let summary = ex
        .crawl_with(
            &cfg,
            &sightline::Cancel::new(),
            &Default::default(),
            &mut |out, _| {
                inputs.push(out.record.input.clone());
                Ok(())
            },
        )
        .await;
    ex.shutdown().await;
    let summary = summary.unwrap();
    assert_eq!(summary.refused, 1, "{summary:?}: {inputs:?}");
    assert_eq!(summary.failed, 0, "{summary:?}: {inputs:?}");
    assert_eq!(inputs.len(), 2, "{inputs:?}");
    assert!(
        other.hits.lock().unwrap().is_empty(),
        "the refused host got a request"
    );
}
