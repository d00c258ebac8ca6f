//! The egress proxy against DNS rebinding, on loopback only.
//!
//! Every test uses 127.0.0.0/8: 127.0.0.2 stands for a public address (the policy's
//! `allow_nets` lets it through, as an operator's allow-list would) and 127.0.0.3 stays
//! forbidden, like the rest of loopback. A DNS server of the test's own on 127.0.0.1 (UDP)
//! answers a public-looking name first with 127.0.0.2 and then with 127.0.0.3, and the
//! proxy's resolver is pointed at it, so Chromium never resolves a name itself. Servers on
//! 127.0.0.3 count every connection they get: the assertion is that they get none. The
//! private ranges themselves are checked by the unit tests of the address policy
//! (`render::egress::policy`), without sending them anything.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hickory_proto::op::{Message, MessageType, ResponseCode};
use hickory_proto::rr::rdata::A;
use hickory_proto::rr::{RData, Record, RecordType};
use sightline::render::egress::{EgressProxy, Log, Outcome};
use sightline::render::guard::TargetPolicy;
use sightline::render::{EgressPolicy, Input, RenderOptions, Renderer};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream, UdpSocket};

#[path = "common/eventually.rs"]
mod eventually;
use eventually::{eventually, holds};

const PUBLIC: Ipv4Addr = Ipv4Addr::new(127, 0, 0, 2);
const FORBIDDEN: Ipv4Addr = Ipv4Addr::new(127, 0, 0, 3);

/// A DNS server on 127.0.0.1 (UDP): each name has a list of A answers, given in turn (the
/// last one repeats); AAAA questions get an empty answer; other names NXDOMAIN. Counts the A
/// questions per name.
struct Dns {
    addr: SocketAddr,
    asked: Arc<Mutex<HashMap<String, usize>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Dns {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Dns {
    async fn start(zone: &[(&str, &[Ipv4Addr])]) -> Dns {
        let sock = UdpSocket::bind("127.0.0.1:0").await.unwrap();
        let addr = sock.local_addr().unwrap();
        let zone: HashMap<String, Vec<Ipv4Addr>> = zone
            .iter()
            .map(|(n, ips)| (format!("{n}."), ips.to_vec()))
            .collect();
        let asked = Arc::new(Mutex::new(HashMap::new()));
        let a2 = asked.clone();
        let task = tokio::spawn(async move {
            let mut buf = vec![0u8; 1500];
            loop {
                let Ok((n, from)) = sock.recv_from(&mut buf).await else {
                    continue;
                };
                let Ok(q) = Message::from_vec(&buf[..n]) else {
                    continue;
                };
                let Some(query) = q.queries().first().cloned() else {
                    continue;
                };
                let name = query.name().to_ascii().to_ascii_lowercase();
                let mut r = Message::new();
                r.set_id(q.id())
                    .set_message_type(MessageType::Response)
                    .set_recursion_desired(true)
                    .set_recursion_available(true)
                    .add_query(query.clone());
                match zone.get(&name) {
                    None => {
                        r.set_response_code(ResponseCode::NXDomain);
                    }
                    Some(ips) if query.query_type() == RecordType::A => {
                        let k = {
                            let mut a = a2.lock().unwrap();
                            let k = a.entry(name.clone()).or_insert(0);
                            *k += 1;
                            *k
                        };
                        let ip = ips[(k - 1).min(ips.len() - 1)];
                        r.add_answer(Record::from_rdata(query.name().clone(), 0, RData::A(A(ip))));
                    }
                    Some(_) => {}
                }
                let _ = sock.send_to(&r.to_vec().unwrap(), from).await;
            }
        });
        Dns { addr, asked, task }
    }

    /// A questions asked for `name`.
    fn asked(&self, name: &str) -> usize {
        *self
            .asked
            .lock()
            .unwrap()
            .get(&format!("{name}."))
            .unwrap_or(&0)
    }
}

/// An HTTP server on one address that counts the connections it accepts and answers each
/// path from a table (404 otherwise; a `Location` entry answers 302).
struct Web {
    hits: Arc<AtomicUsize>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Web {
    fn drop(&mut self) {
        self.task.abort();
    }
}

#[derive(Clone)]
enum Answer {
    Page(&'static str, String),
    Redirect(String),
}

impl Web {
    fn serve(listener: TcpListener, pages: Vec<(&'static str, Answer)>) -> Web {
        let hits = Arc::new(AtomicUsize::new(0));
        let h2 = hits.clone();
        let pages: Arc<HashMap<&'static str, Answer>> = Arc::new(pages.into_iter().collect());
        let task = tokio::spawn(async move {
            while let Ok((mut s, _)) = listener.accept().await {
                h2.fetch_add(1, Ordering::SeqCst);
                let pages = pages.clone();
                tokio::spawn(async move {
                    let mut buf = Vec::new();
                    let mut chunk = [0u8; 4096];
                    while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
                        match s.read(&mut chunk).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => buf.extend_from_slice(&chunk[..n]),
                        }
                    }
                    let head = String::from_utf8_lossy(&buf).to_string();
                    let path = head.split_whitespace().nth(1).unwrap_or("/").to_string();
                    let resp = match pages.get(path.as_str()) {
                        Some(Answer::Page(ct, body)) => format!(
                            "HTTP/1.1 200 OK\r\nContent-Type: {ct}\r\nContent-Length: {}\r\nConnection: close\r\nCache-Control: no-store\r\n\r\n{body}",
                            body.len()
                        ),
                        Some(Answer::Redirect(to)) => format!(
                            "HTTP/1.1 302 Found\r\nLocation: {to}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                        ),
                        None => "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".to_string(),
                    };
                    let _ = s.write_all(resp.as_bytes()).await;
                    let _ = s.shutdown().await;
                });
            }
        });
        Web { hits, task }
    }

    fn hits(&self) -> usize {
        self.hits.load(Ordering::SeqCst)
    }
}

/// Listeners on 127.0.0.2 and 127.0.0.3 with the same port (a URL names one port; its host
/// resolves to either address).
async fn twin_listeners() -> (TcpListener, TcpListener, u16) {
    for _ in 0..50 {
        let a = TcpListener::bind((PUBLIC, 0)).await.unwrap();
        let port = a.local_addr().unwrap().port();
        if let Ok(b) = TcpListener::bind((FORBIDDEN, port)).await {
            return (a, b, port);
        }
    }
    panic!("no port free on both 127.0.0.2 and 127.0.0.3");
}

/// The policy of every test: 127.0.0.2 counts as public, the rest of loopback is refused,
/// names are asked of `dns`.
fn policy(dns: &Dns) -> EgressPolicy {
    EgressPolicy {
        allow_nets: vec![format!("{PUBLIC}/32").parse().unwrap()],
        resolver: Some(dns.addr),
        ..EgressPolicy::default()
    }
}

/// A launched browser whose connections all go through the egress proxy (no target policy:
/// the proxy alone decides).
async fn renderer(p: EgressPolicy) -> Renderer {
    Renderer::new(
        RenderOptions::default()
            .targets(Some(TargetPolicy::proxy_only(p)))
            .timeout(Duration::from_secs(20)),
    )
    .await
    .expect("browser")
}

/// Wait until the proxy has refused `n` connections (a subresource is refused while the page
/// settles; the record does not wait for it), polling for up to 10 s.
async fn refused_at_least(log: &Log, n: u64) -> u64 {
    let guard = Duration::from_secs(10);
    eventually(guard, || async { holds(log.refused() >= n) }).await;
    log.refused()
}

const ARTICLE: &str = "<p>The harbour lights came on one by one as the ferry rounded the point, \
and the passengers gathered at the rail to watch the town rise out of the dusk. Nobody spoke \
until the engines slowed and the gulls took up their evening argument over the fish market.</p>";

/// The page's own name answers 127.0.0.2 first; its subresources and its script's fetches ask
/// again, get 127.0.0.3, and are refused: the server there sees no connection.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn egress_a_rebound_name_never_reaches_the_forbidden_address() {
    let (a, b, port) = twin_listeners().await;
    let dns = Dns::start(&[("rebind.test", &[PUBLIC, FORBIDDEN])]).await;
    let page = format!(
        "<!doctype html><html><head><title>Harbour</title></head><body><article><h1>Harbour</h1>{ARTICLE}\
<img src=\"/pixel.png\" width=1 height=1></article>\
<script>fetch('/data.json').then(r => r.text()).catch(() => 0)</script></body></html>"
    );
    let public = Web::serve(
        a,
        vec![
            ("/", Answer::Page("text/html", page)),
            ("/pixel.png", Answer::Page("image/png", String::new())),
            ("/data.json", Answer::Page("application/json", "{}".into())),
        ],
    );
    let secret = Web::serve(
        b,
        vec![(
            "/data.json",
            Answer::Page("application/json", "{\"secret\": 1}".into()),
        )],
    );
    let r = renderer(policy(&dns)).await;
    let log = r.egress().expect("the proxy runs");
    let page = r
        .render(&Input::Url(format!("http://rebind.test:{port}/")))
        .await;
    let refused = refused_at_least(&log, 1).await;
    r.shutdown().await;
    let page = page.expect("the page itself is served from 127.0.0.2");
    assert_eq!(page.snapshot.title, "Harbour");
    assert!(public.hits() >= 1);
    assert!(
        dns.asked("rebind.test") >= 2,
        "the proxy resolved the name for each request (asked {} times)",
        dns.asked("rebind.test")
    );
    assert!(refused >= 1, "the second lookup's address was refused");
    assert_eq!(secret.hits(), 0, "nothing reached 127.0.0.3");
    assert!(matches!(
        log.outcome_for("rebind.test", port),
        Some(Outcome::Refused(why)) if why.contains("127.0.0.3") && why.contains("loopback")
    ));
}

/// A main document whose name (or whose redirect's target) is forbidden fails as the
/// service's own check fails a target: `forbidden`, naming the policy.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn egress_a_forbidden_document_or_redirect_is_a_forbidden_error() {
    let (a, b, port) = twin_listeners().await;
    let dns = Dns::start(&[("start.test", &[PUBLIC]), ("rebind.test", &[FORBIDDEN])]).await;
    let public = Web::serve(
        a,
        vec![
            (
                "/to-name",
                Answer::Redirect(format!("http://rebind.test:{port}/secret")),
            ),
            (
                "/to-address",
                Answer::Redirect(format!("http://127.0.0.3:{port}/secret")),
            ),
        ],
    );
    let secret = Web::serve(
        b,
        vec![("/secret", Answer::Page("text/html", "<p>secret</p>".into()))],
    );
    let r = renderer(policy(&dns)).await;
    let mut errors = Vec::new();
    for url in [
        format!("http://rebind.test:{port}/secret"),
        format!("http://start.test:{port}/to-name"),
        format!("http://start.test:{port}/to-address"),
        format!("http://localhost:{port}/secret"),
    ] {
        errors.push((url.clone(), r.render(&Input::Url(url)).await));
    }
    r.shutdown().await;
    for (url, e) in errors {
        let e = e.expect_err(&url);
        assert_eq!(e.kind(), "forbidden", "{url}: {e}");
        let m = e.to_string();
        assert!(
            m.contains("egress proxy") && m.contains("loopback"),
            "{url}: {m}"
        );
    }
    assert!(
        public.hits() >= 2,
        "both redirects were served from 127.0.0.2"
    );
    assert_eq!(secret.hits(), 0, "nothing reached 127.0.0.3");
}

/// A UDP socket on 127.0.0.3 counting the packets it gets (a STUN server, for WebRTC).
fn stun_server() -> (u16, Arc<AtomicUsize>, tokio::task::JoinHandle<()>) {
    let std_sock = std::net::UdpSocket::bind((FORBIDDEN, 0)).unwrap();
    std_sock.set_nonblocking(true).unwrap();
    let port = std_sock.local_addr().unwrap().port();
    let sock = UdpSocket::from_std(std_sock).unwrap();
    let hits = Arc::new(AtomicUsize::new(0));
    let h2 = hits.clone();
    let task = tokio::spawn(async move {
        let mut buf = [0u8; 1500];
        while sock.recv_from(&mut buf).await.is_ok() {
            h2.fetch_add(1, Ordering::SeqCst);
        }
    });
    (port, hits, task)
}

/// What [`sockets_page`] writes into itself once WebRTC has gathered its candidates.
const ICE_DONE: &str = "ICE gathering complete.";

/// A page that opens WebSockets to `ws.test` and 127.0.0.3, prefetches and preconnects to
/// 127.0.0.3, and gathers WebRTC candidates with a STUN server there. When the gathering is
/// complete, it adds a paragraph saying [`ICE_DONE`]; until then a 50 ms timer chain keeps
/// the page from settling (the settle follows short timers up to its horizon).
fn sockets_page(port: u16, stun_port: u16) -> String {
    format!(
        "<!doctype html><html><head><title>Sockets</title>\
<link rel=prefetch href=\"http://127.0.0.3:{port}/prefetch\">\
<link rel=preconnect href=\"http://127.0.0.3:{port}\">\
<link rel=dns-prefetch href=\"http://ws.test:{port}\"></head>\
<body><article><h1>Sockets</h1>{ARTICLE}</article><script>\
for (const u of ['ws://ws.test:{port}/', 'ws://127.0.0.3:{port}/', 'wss://ws.test:{port}/']) {{\
  try {{ new WebSocket(u); }} catch (e) {{}}\
}}\
try {{\
  const pc = new RTCPeerConnection({{iceServers: [{{urls: 'stun:127.0.0.3:{stun_port}'}}]}});\
  pc.createDataChannel('x');\
  pc.createOffer().then(o => pc.setLocalDescription(o));\
  (function gathered() {{\
    if (pc.iceGatheringState !== 'complete') {{ setTimeout(gathered, 50); return; }}\
    const p = document.createElement('p'); p.textContent = '{ICE_DONE}';\
    document.querySelector('article').append(p);\
  }})();\
}} catch (e) {{}}\
</script></body></html>"
    )
}

/// The control of the next test: without the proxy, the same page's WebSocket, prefetch and
/// STUN packets do reach 127.0.0.3 (so the zero counts below mean something).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn egress_control_without_the_proxy_the_page_reaches_127_0_0_3() {
    let (a, b, port) = twin_listeners().await;
    let (stun_port, stun_hits, stun_task) = stun_server();
    let public = Web::serve(
        a,
        vec![(
            "/",
            Answer::Page("text/html", sockets_page(port, stun_port)),
        )],
    );
    let secret = Web::serve(b, vec![]);
    let r = Renderer::new(RenderOptions::default())
        .await
        .expect("browser");
    let page = r
        .render(&Input::Url(format!("http://127.0.0.2:{port}/")))
        .await;
    let reached = || secret.hits() > 0 && stun_hits.load(Ordering::SeqCst) > 0;
    eventually(Duration::from_secs(5), || async { holds(reached()) }).await;
    r.shutdown().await;
    stun_task.abort();
    page.expect("the page renders");
    assert!(public.hits() >= 1);
    eprintln!(
        "control: {} TCP connections, {} UDP packets reached 127.0.0.3",
        secret.hits(),
        stun_hits.load(Ordering::SeqCst)
    );
    assert!(secret.hits() > 0);
    assert!(stun_hits.load(Ordering::SeqCst) > 0);
}

/// WebSockets (Chromium tunnels them with CONNECT, host name and all), a prefetch, a
/// preconnect and WebRTC's STUN to a forbidden address: none reaches it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn egress_websocket_prefetch_and_webrtc_are_refused() {
    let (a, b, port) = twin_listeners().await;
    let dns = Dns::start(&[("www.test", &[PUBLIC]), ("ws.test", &[FORBIDDEN])]).await;
    let (stun_port, stun_hits, stun_task) = stun_server();
    let page = sockets_page(port, stun_port);
    let public = Web::serve(a, vec![("/", Answer::Page("text/html", page))]);
    let secret = Web::serve(b, vec![]);
    let r = renderer(policy(&dns)).await;
    let log = r.egress().expect("the proxy runs");
    let page = r
        .render(&Input::Url(format!("http://www.test:{port}/")))
        .await;
    // Three WebSockets and the prefetch are refused by the proxy (the prefetch is Chromium's
    // to schedule: it is not counted on).
    let refused = refused_at_least(&log, 4).await;
    r.shutdown().await;
    stun_task.abort();
    let page = page.expect("the page renders");
    // WebRTC had finished gathering its candidates (it sends nothing to its STUN server after
    // that) before the page was captured, so the UDP count below is final.
    let text: String = page
        .snapshot
        .nodes
        .iter()
        .filter_map(|n| n.text.as_deref())
        .collect();
    assert!(text.contains(ICE_DONE), "WebRTC never finished: {text}");
    assert!(public.hits() >= 1);
    assert!(refused >= 3, "refused {refused}");
    // Chromium sent the proxy the host name, not an address it resolved itself.
    assert!(matches!(
        log.outcome_for("ws.test", port),
        Some(Outcome::Refused(_))
    ));
    assert!(matches!(
        log.outcome_for("127.0.0.3", port),
        Some(Outcome::Refused(_))
    ));
    assert_eq!(secret.hits(), 0, "no TCP connection reached 127.0.0.3");
    assert_eq!(
        stun_hits.load(Ordering::SeqCst),
        0,
        "no UDP packet reached 127.0.0.3"
    );
}

/// HTML given as bytes is served from the renderer's own loopback server, which the proxy
/// allows by address and port, with the service's target policy on as `serve` runs it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn egress_html_given_as_bytes_still_renders() {
    let (_, b, port) = twin_listeners().await;
    let secret = Web::serve(b, vec![]);
    let policy = sightline::render::guard::NetPolicy::default();
    let r = Renderer::new(RenderOptions::default().targets(Some(TargetPolicy::new(policy))))
        .await
        .expect("browser");
    let page = r
        .render(&Input::Html {
            name: "posted".into(),
            bytes: format!(
                "<title>Posted</title><article>{ARTICLE}<img src=\"http://127.0.0.3:{port}/x.png\"></article>"
            )
            .into_bytes(),
            charset: "utf-8".into(),
        })
        .await;
    r.shutdown().await;
    assert_eq!(page.expect("renders").snapshot.title, "Posted");
    assert_eq!(secret.hits(), 0);
}

/// Read one HTTP answer's head from `s`.
async fn head(s: &mut TcpStream) -> String {
    let mut buf = Vec::new();
    let mut b = [0u8; 1];
    while !buf.ends_with(b"\r\n\r\n") {
        match tokio::time::timeout(Duration::from_secs(10), s.read(&mut b)).await {
            Ok(Ok(1)) => buf.push(b[0]),
            _ => break,
        }
    }
    String::from_utf8_lossy(&buf).to_string()
}

/// The proxy on its own, as any HTTP client sees it: a CONNECT to the name's first answer
/// tunnels to 127.0.0.2; the next CONNECT to the same name gets the second answer and a 403
/// with the reason; absolute-form requests are decided the same way.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn egress_proxy_connects_to_the_address_it_checked() {
    let (a, b, port) = twin_listeners().await;
    let dns = Dns::start(&[("rebind.test", &[PUBLIC, FORBIDDEN])]).await;
    let public = Web::serve(a, vec![("/", Answer::Page("text/plain", "public".into()))]);
    let secret = Web::serve(b, vec![]);
    let proxy = EgressProxy::start(policy(&dns)).await.unwrap();
    let pa = proxy.addr();
    assert_eq!(pa.ip(), IpAddr::V4(Ipv4Addr::LOCALHOST));

    let mut s = TcpStream::connect(pa).await.unwrap();
    s.write_all(
        format!("CONNECT rebind.test:{port} HTTP/1.1\r\nHost: rebind.test:{port}\r\n\r\n")
            .as_bytes(),
    )
    .await
    .unwrap();
    let h = head(&mut s).await;
    assert!(h.starts_with("HTTP/1.1 200"), "{h}");
    s.write_all(b"GET / HTTP/1.1\r\nHost: rebind.test\r\n\r\n")
        .await
        .unwrap();
    let mut body = String::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), s.read_to_string(&mut body)).await;
    assert!(body.ends_with("public"), "{body}");

    for req in [
        format!("CONNECT rebind.test:{port} HTTP/1.1\r\nHost: rebind.test:{port}\r\n\r\n"),
        format!("GET http://rebind.test:{port}/ HTTP/1.1\r\nHost: rebind.test:{port}\r\n\r\n"),
        format!("CONNECT 127.0.0.3:{port} HTTP/1.1\r\nHost: 127.0.0.3:{port}\r\n\r\n"),
        format!("CONNECT [::1]:{port} HTTP/1.1\r\nHost: [::1]:{port}\r\n\r\n"),
        format!("CONNECT localhost:{port} HTTP/1.1\r\nHost: localhost:{port}\r\n\r\n"),
        format!("GET http://[::ffff:127.0.0.3]:{port}/ HTTP/1.1\r\nHost: x\r\n\r\n"),
    ] {
        let mut s = TcpStream::connect(pa).await.unwrap();
        s.write_all(req.as_bytes()).await.unwrap();
        let h = head(&mut s).await;
        assert!(h.starts_with("HTTP/1.1 403"), "{req}: {h}");
        let lower = h.to_ascii_lowercase();
        assert!(
            lower.contains("x-sightline-egress: refused") && lower.contains("loopback"),
            "{req}: {h}"
        );
    }
    // An unknown name is a failure (502), not a refusal.
    let mut s = TcpStream::connect(pa).await.unwrap();
    s.write_all(b"CONNECT nowhere.test:80 HTTP/1.1\r\nHost: nowhere.test:80\r\n\r\n")
        .await
        .unwrap();
    let h = head(&mut s).await;
    assert!(h.starts_with("HTTP/1.1 502"), "{h}");
    assert_eq!(public.hits(), 1);
    assert_eq!(secret.hits(), 0);
    assert_eq!(proxy.log().refused(), 6);
    assert!(proxy
        .chrome_args()
        .contains(&"proxy-bypass-list=<-loopback>".to_string()));
}

/// The library's switch (`Options::deny_private`, Python's `deny_private=True`, the CLI's
/// `extract --deny-private`): a page on loopback is refused with the `forbidden` kind, and the
/// same extractor without it reads the page.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn options_deny_private_refuses_a_loopback_page_with_the_forbidden_kind() {
    use sightline::{Extractor, Options};
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let server = sightline::render::loopback::Server::start(Some(root))
        .await
        .expect("loopback server");
    let url = server.url("/comments-blog/page.html");
    let denied = Extractor::new(Options::default().tabs(1).deny_private(true))
        .await
        .expect("Chromium must be installed: scripts/test installs it");
    let err = denied
        .extract(url.as_str())
        .await
        .expect_err("a loopback target is refused");
    denied.shutdown().await;
    assert_eq!(err.kind(), "forbidden", "{err}");
    assert!(err.to_string().contains("127.0.0.1"), "{err}");
    // The library names its policy, not a front end's flag (Python adds deny_private=False).
    assert!(!err.to_string().contains("--"), "{err}");
    let open = Extractor::new(Options::default().tabs(1).offline(true))
        .await
        .expect("Chromium");
    let page = open
        .extract(url.as_str())
        .await
        .expect("allowed without the switch");
    open.shutdown().await;
    assert!(page.text().contains("rainwater"));
}
