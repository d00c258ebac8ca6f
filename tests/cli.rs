//! The binary end to end in real Chromium: exit codes, one record per input, bad inputs that
//! fail alone and within the deadline, and a saved snapshot scored without a browser.

use std::path::Path;
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sightline"))
}

fn fixture(slug: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(slug)
        .join("page.html")
        .display()
        .to_string()
}

/// A loopback port with nothing listening on it.
/// `sightline snapshot` of a fixture, saved in `dir`: its path.
fn snapshot_of(slug: &str, dir: &std::path::Path) -> std::path::PathBuf {
    let snap = dir.join(format!("{slug}.json"));
    let out = bin()
        .args(["snapshot", "--offline", "-o"])
        .arg(&snap)
        .arg(fixture(slug))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    snap
}

fn closed_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

#[test]
fn bad_inputs_fail_alone_with_clear_errors_within_the_deadline() {
    let closed = format!("http://127.0.0.1:{}/", closed_port());
    let out = bin()
        .args(["extract", "--offline", "--timeout", "4", "-f", "json", "-q"])
        .arg(fixture("layout-article"))
        .arg(&closed)
        .arg("/no/such/page.html")
        .arg(fixture("script-hang"))
        .arg(fixture("demo-news"))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "some inputs failed: exit 2\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let mut recs: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(recs.len(), 5, "one record per input:\n{stdout}");
    // Records are written as pages finish; `index` is the input's position.
    recs.sort_by_key(|r| r["index"].as_u64().unwrap());
    assert!(recs[0]["text"]
        .as_str()
        .unwrap()
        .contains("Water is an odd liquid"));
    assert_eq!(recs[1]["error"]["kind"], "navigation", "{}", recs[1]);
    assert!(recs[1]["error"]["message"]
        .as_str()
        .unwrap()
        .contains("ERR_CONNECTION_REFUSED"));
    assert_eq!(recs[2]["error"]["kind"], "input");
    assert!(recs[2]["error"]["message"]
        .as_str()
        .unwrap()
        .contains("/no/such/page.html"));
    // The hung page ends at its deadline: the one configured (4 s), spent loading the page,
    // with no later phase.
    assert_eq!(recs[3]["error"]["kind"], "timeout", "{}", recs[3]);
    let msg = recs[3]["error"]["message"].as_str().unwrap();
    assert!(
        msg.contains("timed out after 4.0s while loading the page"),
        "{msg}"
    );
    let t = &recs[3]["timings_ms"];
    assert!(
        t["navigate"].as_f64().unwrap_or(0.0) >= 4000.0 * 0.99,
        "{t}"
    );
    assert!(t["snapshot"].is_null(), "{t}");
    assert!(
        recs[4]["text"]
            .as_str()
            .unwrap()
            .contains("tidal power station"),
        "the input after the hung page still works"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("script-hang") && stderr.contains("timed out"),
        "errors go to stderr: {stderr}"
    );
}

#[test]
fn exit_code_1_when_nothing_is_extracted_and_snapshot_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.html");
    std::fs::write(&empty, "<html><body></body></html>").unwrap();
    let out = bin()
        .args(["extract", "--offline", "-q"])
        .arg(&empty)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let snap = snapshot_of("layout-article", dir.path());
    let direct = bin()
        .args(["extract", "--offline", "-a", "ctd"])
        .arg(fixture("layout-article"))
        .output()
        .unwrap();
    let saved = bin()
        .args(["extract", "-a", "ctd", "--snapshot"])
        .arg(&snap)
        .output()
        .unwrap();
    assert!(saved.status.success());
    assert_eq!(
        String::from_utf8_lossy(&direct.stdout),
        String::from_utf8_lossy(&saved.stdout)
    );
}

#[test]
fn html_on_stdin_and_screenshot() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("shot.png");
    let mut child = bin()
        .args(["extract", "-", "--offline", "-q", "--screenshot"])
        .arg(&png)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all("<html><body><article><p>Grüße aus Köln, a paragraph read from standard input, with commas.</p></article></body></html>".as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("Grüße aus Köln"));
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "a PNG was written");
}

#[test]
fn a_missing_model_file_names_the_file_and_the_fix() {
    let out = bin()
        .args(["extract", "--model", "/no/such/model.json"])
        .arg(fixture("layout-article"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("/no/such/model.json") && err.contains("sightline train"),
        "{err}"
    );
}

#[test]
fn chromium_missing_names_the_fix() {
    let out = bin()
        .args(["extract", "--chrome", "/no/chromium"])
        .arg(fixture("layout-article"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("apt-get install -y chromium"), "{err}");
}

#[test]
fn algorithm_all_renders_once_and_reports_every_algorithm() {
    use std::io::{Read, Write};
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    // A loopback server that counts the requests for the page.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let page = std::fs::read(fixture("layout-article")).unwrap();
    let hits = Arc::new(AtomicUsize::new(0));
    let h2 = hits.clone();
    std::thread::spawn(move || {
        for mut sock in listener.incoming().flatten() {
            let mut buf = [0u8; 4096];
            let n = sock.read(&mut buf).unwrap_or(0);
            let req = String::from_utf8_lossy(&buf[..n]);
            let body: &[u8] = if req.starts_with("GET /page.html") {
                h2.fetch_add(1, Ordering::SeqCst);
                &page
            } else {
                b""
            };
            let head = format!(
                "HTTP/1.1 {}\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                if body.is_empty() { "404 Not Found" } else { "200 OK" },
                body.len()
            );
            let _ = sock.write_all(head.as_bytes());
            let _ = sock.write_all(body);
        }
    });
    let out = bin()
        .args(["extract", "--offline", "-q", "-a", "all", "-f", "json"])
        .arg(format!("http://127.0.0.1:{port}/page.html"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        hits.load(Ordering::SeqCst),
        1,
        "one navigation for every algorithm"
    );
    let rec: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let algos = rec["algorithms"].as_object().unwrap();
    assert_eq!(algos.len(), sightline::Algorithm::ALL.len());
    for (name, r) in algos {
        assert!(r["score_ms"].is_number(), "{name} reports its scoring time");
    }
    assert!(algos["htd"]["text"]
        .as_str()
        .unwrap()
        .contains("Water is an odd liquid"));
}

#[test]
fn sigterm_stops_a_batch_like_ctrl_c() {
    // A batch scheduler stops a job with SIGTERM: the pages in flight are recorded, no new
    // page starts, the browser is shut down, and the exit code says "interrupted".
    use std::io::{BufRead, BufReader};
    let page = fixture("layout-article");
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("urls.txt");
    let urls: String = (0..40).map(|i| format!("file://{page}?n={i}\n")).collect();
    std::fs::write(&list, urls).unwrap();
    let mut child = bin()
        .args([
            "extract",
            "--offline",
            "-q",
            "-j",
            "2",
            "-f",
            "jsonl",
            "--input",
        ])
        .arg(&list)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    let pid = child.id().to_string();
    assert!(Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap()
        .success());
    let rest: Vec<String> = out.lines().map(|l| l.unwrap()).collect();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "interrupted");
    let n = 1 + rest.len();
    assert!(n < 40, "no new pages after SIGTERM ({n} records)");
    for l in std::iter::once(first.trim_end().to_string()).chain(rest) {
        let v: serde_json::Value = serde_json::from_str(&l).unwrap();
        assert!(v["text"]
            .as_str()
            .unwrap()
            .contains("Water is an odd liquid"));
    }
}

/// A saved page converted to UTF-8 that kept its old `<meta charset>`: Chromium reads it as
/// declared (mojibake, as a browser shows it), and stderr says so with the fix; with
/// `--charset utf-8` the text is right and nothing is said.
#[test]
fn a_utf8_file_declaring_another_charset_is_named_with_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("converted.html");
    let article =
        "Grüße aus Köln: die Straßenbahn fährt wieder über die Brücke, sagte die Stadt am Montag.";
    std::fs::write(
        &page,
        format!("<html><head><meta charset=\"iso-8859-1\"><title>Köln</title></head><body><article><p>{article}</p><p>{article}</p></article></body></html>"),
    )
    .unwrap();
    let extract = |extra: &[&str]| {
        let out = bin()
            .args(["extract", "--offline", "-a", "htd"])
            .args(extra)
            .arg(&page)
            .output()
            .unwrap();
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (stdout, stderr) = extract(&[]);
    assert!(stdout.contains("GrÃ¼ÃŸe"), "read as declared: {stdout}");
    assert!(stderr.contains("windows-1252"), "{stderr}");
    assert!(stderr.contains("--charset utf-8"), "{stderr}");

    let (stdout, stderr) = extract(&["--charset", "utf-8"]);
    assert!(stdout.contains("Grüße aus Köln"), "{stdout}");
    assert!(!stderr.contains("--charset utf-8"), "{stderr}");
}

/// `extract --deny-private`: a loopback target is refused with the `forbidden` kind, and the
/// message names the flag that lifts it (this front end's, not the service's --allow-private).
#[test]
fn deny_private_refuses_loopback_and_names_its_own_flag() {
    let url = format!("http://127.0.0.1:{}/page", closed_port());
    let out = bin()
        .args([
            "extract",
            "--deny-private",
            "--timeout",
            "10",
            "-f",
            "json",
            "-q",
        ])
        .arg(&url)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rec: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(rec["error"]["kind"], "forbidden", "{rec}");
    let msg = rec["error"]["message"].as_str().unwrap();
    assert!(
        msg.contains("loopback") && msg.contains("drop --deny-private"),
        "{msg}"
    );
    assert!(!msg.contains("--allow-private"), "{msg}");
}

#[test]
fn body_puts_the_chosen_format_in_the_json_record() {
    let dir = tempfile::tempdir().unwrap();
    let snap = snapshot_of("layout-article", dir.path());
    let run = |args: &[&str]| {
        bin()
            .args(["extract", "-q", "--snapshot"])
            .arg(&snap)
            .args(args)
            .output()
            .unwrap()
    };
    for f in ["markdown", "text", "html"] {
        let body = run(&["-f", f]);
        assert!(body.status.success());
        let rec = run(&["-f", "json", "--body", f]);
        assert!(
            rec.status.success(),
            "{}",
            String::from_utf8_lossy(&rec.stderr)
        );
        let rec: serde_json::Value = serde_json::from_slice(&rec.stdout).unwrap();
        assert_eq!(rec["body_format"], f);
        assert_eq!(
            rec["body"].as_str().unwrap(),
            String::from_utf8_lossy(&body.stdout),
            "the record's body is what -f {f} writes"
        );
    }
    let plain = run(&["-f", "json"]);
    let plain: serde_json::Value = serde_json::from_slice(&plain.stdout).unwrap();
    assert!(plain.get("body").is_none() && plain.get("body_format").is_none());
    // It needs the JSON format, and a body format.
    let e = run(&["-f", "markdown", "--body", "markdown"]);
    assert_eq!(
        e.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&e.stderr)
    );
    assert!(String::from_utf8_lossy(&e.stderr).contains("--body needs -f json"));
    let e = run(&["-f", "json", "--body", "json"]);
    assert_eq!(e.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&e.stderr).contains("the body is markdown, text or html"));
}

/// The record names the page's type: predicted (a blog post with comments is an article,
/// surely), or as `--page-type` states it; a type it does not know fails before any page.
#[test]
fn the_record_names_the_page_type_predicted_or_stated() {
    let dir = tempfile::tempdir().unwrap();
    let snap = snapshot_of("comments-blog", dir.path());
    let run = |args: &[&str]| {
        bin()
            .args(["extract", "-q", "-f", "json", "--snapshot"])
            .arg(&snap)
            .args(args)
            .output()
            .unwrap()
    };
    let rec: serde_json::Value = serde_json::from_slice(&run(&[]).stdout).unwrap();
    assert_eq!(rec["page_type"]["type"], "article", "{rec}");
    assert_eq!(rec["page_type"]["source"], "predicted");
    assert!(
        rec["page_type"]["probability"].as_f64().unwrap() > 0.8,
        "{rec}"
    );
    let rec: serde_json::Value =
        serde_json::from_slice(&run(&["--page-type", "forum"]).stdout).unwrap();
    assert_eq!(
        rec["page_type"],
        serde_json::json!({"type": "forum", "probability": 1.0, "source": "stated"})
    );
    let e = run(&["--page-type", "blog"]);
    assert_eq!(
        e.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&e.stderr)
    );
    let err = String::from_utf8_lossy(&e.stderr);
    assert!(
        err.contains("blog") && err.contains("documentation"),
        "{err}"
    );
}

/// A batch's summary on stderr counts the pages behind walls by kind (`fixtures/walls/`): a
/// challenge (a `blocked` record) and a paywall after a lead (a success that names it).
#[test]
fn the_batch_summary_counts_walls_by_kind() {
    let wall = |name: &str| {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/walls")
            .join(name)
            .display()
            .to_string()
    };
    let out = bin()
        .args(["extract", "--offline", "-f", "json"])
        .arg(wall("challenge.html"))
        .arg(wall("paywall.html"))
        .arg(fixture("layout-article"))
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let kinds: Vec<String> = stdout
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter_map(|r| r["wall"]["kind"].as_str().map(str::to_string))
        .collect();
    assert_eq!(kinds.len(), 2, "{stdout}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("3 of 3 inputs recorded")
            && stderr.contains("2 behind walls (1 challenge, 1 paywall)"),
        "{stderr}"
    );
}

#[test]
fn a_saved_page_gives_its_sites_links_as_references_with_sections_in_the_record() {
    let page = fixture("md-links-references");
    let writer = [
        "--links",
        "references",
        "--base-url",
        "https://example.org/a/",
        "--images",
        "alt",
    ];
    let out = bin()
        .args(["extract", "--offline", "-q", "-f", "markdown"])
        .args(writer)
        .arg(&page)
        .output()
        .unwrap();
    let md = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!md.contains("file://"), "{md}");
    assert!(md.contains("By [Mina Okafor][1]"), "{md}");
    assert!(
        md.contains("\n[1]: https://example.org/authors/mina/\n"),
        "{md}"
    );
    assert!(md.contains("[my first loaf][2]"), "{md}");
    assert!(
        md.contains("\n[2]: https://example.org/2023/first-loaf.html\n"),
        "{md}"
    );
    assert!(md.contains("[same guide][3]"), "{md}");
    assert!(md.contains("[temperature](#temperature)"), "{md}");
    assert!(
        md.contains("\n\nA jar of starter at its peak, bubbles pressed against the glass\n\n"),
        "{md}"
    );
    assert!(
        md.contains("setups in the comments"),
        "an anchor to nothing kept: text only\n{md}"
    );

    // The JSON record: the same markdown, cut at its headings.
    let out = bin()
        .args(["extract", "--offline", "-q", "-f", "json"])
        .args(writer)
        .arg(&page)
        .output()
        .unwrap();
    let rec: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(rec["markdown"].as_str(), Some(md.as_str()));
    let sections = rec["sections"].as_array().unwrap();
    let paths: Vec<String> = sections
        .iter()
        .map(|s| {
            s["heading_path"]
                .as_array()
                .unwrap()
                .last()
                .unwrap()
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(
        paths,
        ["Tuning a sourdough starter", "Feeding", "Temperature"]
    );
    for s in sections {
        let sec: sightline::output::markdown::Section = serde_json::from_value(s.clone()).unwrap();
        assert_eq!(sec.slice(&md), sec.markdown);
        assert!(!s["boxes"].as_array().unwrap().is_empty(), "{s}");
    }

    // A base URL that is not one: exit 2, the flag named with the fix.
    let out = bin()
        .args(["extract", "--offline", "--base-url", "example.org/a"])
        .arg(&page)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--base-url example.org/a") && err.contains("https://"),
        "{err}"
    );
}
