//! Recognition from hand-made snapshots and responses: each kind, the vendors, and pages that
//! only talk about walls.

use super::*;
use crate::snapshot::{rect, Snapshot, SnapshotBuilder};

fn resp(status: i64, headers: &[(&str, &str)]) -> Response {
    Response {
        status: Some(status),
        headers: headers
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect(),
        html_text_chars: None,
    }
}

fn ok() -> Response {
    resp(200, &[])
}

/// A page with a centred box of 400 px holding `text`.
fn boxed(title: &str, text: &str) -> SnapshotBuilder {
    let mut b = SnapshotBuilder::new(1280.0);
    b.title(title);
    let d = b.el(0, "div", rect(440.0, 200.0, 400.0, 200.0));
    let p = b.el(d, "p", rect(440.0, 200.0, 400.0, 40.0));
    b.text(p, text);
    b
}

/// An article of `words` words, with `extra` as a paragraph in it.
fn article(extra: &str, words: usize) -> SnapshotBuilder {
    let mut b = SnapshotBuilder::new(1280.0);
    b.title("An article");
    let a = b.el(0, "article", rect(100.0, 0.0, 800.0, 3000.0));
    for i in 0..words / 20 {
        let p = b.el(a, "p", rect(100.0, i as f64 * 60.0, 800.0, 50.0));
        b.text(
            p,
            "The turbines were installed along the ridge last spring and the council says \
             they now supply most of the valley's homes with power through winter.",
        );
    }
    let p = b.el(a, "p", rect(100.0, 2900.0, 800.0, 50.0));
    b.text(p, extra);
    b
}

fn see(snap: &Snapshot, r: &Response) -> Option<Verdict> {
    recognise(snap, r, &WallParams::default())
}

#[test]
fn cloudflare_challenge_by_header_and_title() {
    let s = boxed(
        "Just a moment...",
        "Verifying you are human. This may take a few seconds.",
    )
    .build();
    let v = see(
        &s,
        &resp(
            403,
            &[("cf-mitigated", "challenge"), ("server", "cloudflare")],
        ),
    )
    .unwrap();
    assert_eq!(v.wall.kind, WallKind::Challenge);
    assert_eq!(v.wall.vendor.as_deref(), Some("cloudflare"));
    assert!(v.blocking);
    assert_eq!(v.wall.evidence[0], "status 403");
    assert!(v
        .wall
        .evidence
        .iter()
        .any(|e| e == "header cf-mitigated: challenge"));
    // Served with 200, the page's own words and global still give it away.
    let b = boxed(
        "Just a moment...",
        "Checking your browser before accessing example.com",
    );
    let mut s = b.build();
    s.signals.globals.push("_cf_chl_opt".into());
    let v = see(&s, &ok()).unwrap();
    assert_eq!(v.wall.kind, WallKind::Challenge);
    assert_eq!(v.wall.vendor.as_deref(), Some("cloudflare"));
}

#[test]
fn captcha_vendors() {
    let mut b = boxed("example.com", "Please enable JS and disable any ad blocker");
    let f = b.el(0, "iframe", rect(490.0, 260.0, 300.0, 300.0));
    b.node_mut(f).src = Some("https://geo.captcha-delivery.com/captcha/?initialCid=x".into());
    let s = b.build();
    let v = see(&s, &resp(403, &[("x-datadome", "protected")])).unwrap();
    assert_eq!(v.wall.kind, WallKind::Captcha);
    assert_eq!(v.wall.vendor.as_deref(), Some("datadome"));

    let mut b = boxed(
        "Access to this page has been denied",
        "Press & Hold to confirm you are a human (and not a bot).",
    );
    let d = b.el(0, "div", rect(540.0, 300.0, 200.0, 60.0));
    b.node_mut(d).id = Some("px-captcha".into());
    let v = see(&b.build(), &resp(403, &[])).unwrap();
    assert_eq!(v.wall.kind, WallKind::Captcha);
    assert_eq!(v.wall.vendor.as_deref(), Some("perimeterx"));

    let s = boxed(
        "Robot Check",
        "Enter the characters you see below. Sorry, we just need to make sure you're not a robot.",
    )
    .build();
    let v = see(&s, &ok()).unwrap();
    assert_eq!(v.wall.kind, WallKind::Captcha);
    assert_eq!(v.wall.vendor.as_deref(), Some("amazon"));
}

#[test]
fn access_denied_vendors() {
    let s = boxed("Access Denied", "You don't have permission to access \"http://www.example.com/\" on this server. Reference #18.1c2b3c4d.1700000000.abcdef").build();
    let v = see(&s, &resp(403, &[("server", "AkamaiGHost")])).unwrap();
    assert_eq!(v.wall.kind, WallKind::AccessDenied);
    assert_eq!(v.wall.vendor.as_deref(), Some("akamai"));

    let s = boxed(
        "Attention Required! | Cloudflare",
        "Sorry, you have been blocked. You are unable to access example.com",
    )
    .build();
    let v = see(&s, &resp(403, &[("server", "cloudflare")])).unwrap();
    assert_eq!(v.wall.kind, WallKind::AccessDenied);
    assert_eq!(v.wall.vendor.as_deref(), Some("cloudflare"));

    let s = boxed("Request Rejected", "The requested URL was rejected. Please consult with your administrator. Your support ID is: 123").build();
    let v = see(&s, &ok()).unwrap();
    assert_eq!(v.wall.kind, WallKind::AccessDenied);
    assert_eq!(v.wall.vendor.as_deref(), Some("f5"));
}

#[test]
fn plain_403_is_no_wall() {
    let s = boxed("403 Forbidden", "Forbidden. nginx").build();
    assert_eq!(see(&s, &resp(403, &[("server", "nginx")])), None);
    let s = boxed("404 Not Found", "Not Found").build();
    assert_eq!(see(&s, &resp(404, &[])), None);
}

#[test]
fn rate_limits() {
    let s = boxed("Error", "Slow down").build();
    let v = see(&s, &resp(429, &[("retry-after", "120")])).unwrap();
    assert_eq!(v.wall.kind, WallKind::RateLimited);
    assert!(v.wall.evidence.iter().any(|e| e == "retry-after: 120"));
    assert_eq!(
        v.wall.retry_after(),
        Some(std::time::Duration::from_secs(120))
    );
    let v = see(&s, &resp(503, &[("retry-after", "5")])).unwrap();
    assert_eq!(v.wall.kind, WallKind::RateLimited);
    assert_eq!(see(&s, &resp(503, &[])), None);
    // A rate limit named by its words keeps its Retry-After too; other walls have none.
    let s = boxed("Error", "Too many requests").build();
    let v = see(&s, &resp(429, &[("retry-after", "3")])).unwrap();
    assert_eq!(
        v.wall.retry_after(),
        Some(std::time::Duration::from_secs(3))
    );
    let v = see(&s, &resp(429, &[])).unwrap();
    assert_eq!(v.wall.retry_after(), None);
    assert_eq!(
        resp(503, &[("Retry-After", " 5 ")]).retry_after(),
        Some(5.0)
    );
    // An HTTP date counts from the response's own Date, in each of the three forms.
    for at in [
        "Wed, 21 Oct 2015 07:28:00 GMT",
        "Wednesday, 21-Oct-15 07:28:00 GMT",
        "Wed Oct 21 07:28:00 2015",
    ] {
        let r = resp(
            503,
            &[
                ("retry-after", at),
                ("date", "Wed, 21 Oct 2015 07:27:30 GMT"),
            ],
        );
        assert_eq!(r.retry_after(), Some(30.0), "{at}");
    }
    // A date already past is no wait; a date that is not one is no answer.
    let past = resp(
        429,
        &[
            ("retry-after", "Wed, 21 Oct 2015 07:28:00 GMT"),
            ("date", "Thu, 22 Oct 2015 07:28:00 GMT"),
        ],
    );
    assert_eq!(past.retry_after(), Some(0.0));
    assert_eq!(resp(429, &[("retry-after", "soon")]).retry_after(), None);
    // Kasada's challenge answers 429: the marker wins over the status.
    let mut s = boxed("", "").build();
    s.signals.globals.push("KPSDK".into());
    let v = see(&s, &resp(429, &[("x-kpsdk-ct", "abc")])).unwrap();
    assert_eq!(v.wall.kind, WallKind::Challenge);
    assert_eq!(v.wall.vendor.as_deref(), Some("kasada"));
}

#[test]
fn layout_of_an_unknown_vendor() {
    // A centred box holding a small cross-origin frame and a line of text, from no vendor
    // in the table.
    let mut b = boxed("one moment", "Please wait while we check your request");
    let f = b.el(0, "iframe", rect(490.0, 260.0, 300.0, 80.0));
    b.node_mut(f).src = Some("https://shield.unknown-vendor.example/widget".into());
    let v = see(&b.build(), &ok()).unwrap();
    assert_eq!(v.wall.kind, WallKind::Captcha);
    assert_eq!(v.wall.vendor, None);
    assert!(
        v.wall.evidence[0].starts_with("a centred box of"),
        "{:?}",
        v.wall.evidence
    );
    // A video with a caption is not.
    let mut b = boxed("Our trailer", "Watch the trailer");
    let f = b.el(0, "iframe", rect(490.0, 260.0, 300.0, 200.0));
    b.node_mut(f).src = Some("https://www.youtube.com/embed/xyz".into());
    assert_eq!(see(&b.build(), &ok()), None);
    // A form on a short page that answered 200 (a search page) is not.
    let mut b = boxed("Search", "Search the catalogue");
    b.el(0, "input", rect(540.0, 300.0, 200.0, 30.0));
    assert_eq!(see(&b.build(), &ok()), None);
    // The same form on a 403 is a block.
    let v = see(&b.build(), &resp(403, &[])).unwrap();
    assert_eq!(v.wall.kind, WallKind::AccessDenied);
}

#[test]
fn login_walls() {
    let mut b = boxed("Sign in", "Sign in to continue");
    b.el(0, "input", rect(540.0, 300.0, 200.0, 30.0));
    let mut s = b.build();
    s.signals.password_inputs = 1;
    let v = see(&s, &ok()).unwrap();
    assert_eq!(v.wall.kind, WallKind::Login);
    assert!(v.blocking);
    // A short "page not found" with a sidebar's login form is not one.
    let mut b = boxed(
        "Page Not Found",
        "We're sorry - the page you tried to access could not be found. Member login: username, password",
    );
    b.el(0, "input", rect(20.0, 300.0, 200.0, 30.0));
    let mut s = b.build();
    s.signals.password_inputs = 1;
    assert_eq!(see(&s, &ok()), None);
    // A login box in an article's sidebar is not a wall.
    let mut b = article("Members: log in here", 400);
    b.el(0, "input", rect(1000.0, 100.0, 200.0, 30.0));
    let mut s = b.build();
    s.signals.password_inputs = 1;
    assert_eq!(see(&s, &ok()), None);
    // A login dialog over an article leaves its lead.
    let mut b = article("", 400);
    let d = b.el(0, "div", rect(0.0, 0.0, 1280.0, 900.0));
    b.node_mut(d).position = "fixed".into();
    b.el(d, "input", rect(540.0, 300.0, 200.0, 30.0));
    let mut s = b.build();
    s.signals.password_inputs = 1;
    let v = see(&s, &ok()).unwrap();
    assert_eq!(v.wall.kind, WallKind::Login);
    assert!(!v.blocking);
}

#[test]
fn paywalls() {
    let mut b = article("", 60);
    let d = b.el(0, "div", rect(100.0, 3000.0, 800.0, 300.0));
    b.node_mut(d).class = Some("article-paywall".into());
    b.text(
        d,
        "Subscribe to continue reading. Already a subscriber? Sign in",
    );
    let v = see(&b.build(), &ok()).unwrap();
    assert_eq!(v.wall.kind, WallKind::Paywall);
    assert!(!v.blocking, "the lead is left");
    // Words alone (an article about paywalls) are not one.
    let s = article(
        "Publishers ask readers to subscribe to continue reading.",
        400,
    )
    .build();
    assert_eq!(see(&s, &ok()), None);
}

#[test]
fn consent() {
    // A banner beside the article is not a wall.
    let mut b = article("", 400);
    let d = b.el(0, "div", rect(0.0, 800.0, 1280.0, 100.0));
    b.node_mut(d).id = Some("onetrust-banner-sdk".into());
    b.text(d, "We use cookies. Accept all. Reject all.");
    assert_eq!(see(&b.build(), &ok()), None);
    // A dialog over the whole screen is, and leaves the article's text.
    let mut b = article("", 400);
    let d = b.el(0, "div", rect(0.0, 0.0, 1280.0, 900.0));
    b.node_mut(d).id = Some("sp_message_container_123".into());
    b.text(d, "We value your privacy. Accept all, or reject all.");
    let v = see(&b.build(), &ok()).unwrap();
    assert_eq!(v.wall.kind, WallKind::Consent);
    assert_eq!(v.wall.vendor.as_deref(), Some("sourcepoint"));
    assert!(!v.blocking);
    // Yahoo's interstitial is a page of its own.
    let mut s = boxed(
        "Yahoo is part of the Yahoo family of brands",
        "Accept all Reject all",
    )
    .build();
    s.url = "https://consent.yahoo.com/v2/collectConsent?sessionId=x".into();
    let v = see(&s, &ok()).unwrap();
    assert_eq!(v.wall.kind, WallKind::Consent);
    assert!(v.blocking);
}

#[test]
fn pages_that_talk_about_walls_are_not_walls() {
    for words in [
        "Cloudflare said its network was checking your browser before accessing the site.",
        "How to make a CAPTCHA: verify you are human with a puzzle. Too many requests from bots.",
        "Sorry, you have been blocked is what users saw. Access denied. Request blocked.",
    ] {
        let mut s = article(words, 400).build();
        s.signals
            .scripts
            .push("https://www.google.com/recaptcha/api.js".into());
        s.signals.globals.push("grecaptcha".into());
        assert_eq!(see(&s, &ok()), None, "{words}");
        assert_eq!(
            see(
                &s,
                &resp(
                    200,
                    &[
                        ("server", "cloudflare"),
                        ("set-cookie", "__cf_bm=x; path=/")
                    ]
                )
            ),
            None
        );
    }
}

#[test]
fn sensor_scripts_on_ordinary_pages_are_no_wall() {
    // HUMAN's, Kasada's and AWS WAF's sensors run on every page a site protects: an article
    // whose render shows little (its content behind a script) is not their wall.
    let mut s = boxed(
        "Focusrite Scarlett 4i4 review",
        "The Scarlett gets a serious overhaul",
    )
    .build();
    s.signals.globals.extend([
        "_pxAppId".into(),
        "KPSDK".into(),
        "AwsWafIntegration".into(),
    ]);
    assert_eq!(see(&s, &ok()), None);
    // A short render of a page whose HTML holds an article is not a short page.
    let s = boxed("Shop", "Too many requests").build();
    let mut r = ok();
    r.html_text_chars = Some(20_000);
    assert_eq!(see(&s, &r), None);
}

#[test]
fn cookies_are_named() {
    let r = resp(
        200,
        &[("set-cookie", "datadome=abc; Path=/\nincap_ses_1=x")],
    );
    assert_eq!(r.cookies().collect::<Vec<_>>(), ["datadome", "incap_ses_1"]);
}

#[test]
fn from_json() {
    // A snapshot as `js/snapshot.js` writes it, with its signals.
    let json = r##"{"schema_version":1,"url":"https://shop.example/","title":"Just a moment...",
      "viewport":{"width":1280,"height":900},"document":{"width":1280,"height":900},
      "signals":{"scripts":["/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1?ray=1"]},
      "nodes":[{"parent":-1,"tag":"body","box":[0,0,1280,900],"rendered":true},
               {"parent":0,"tag":"#text","text":"Enable JavaScript and cookies to continue","box":[500,400,300,20],"rendered":true}]}"##;
    let s = Snapshot::from_json(json, "test").unwrap();
    let v = see(&s, &resp(503, &[])).unwrap();
    assert_eq!(v.wall.kind, WallKind::Challenge);
    assert_eq!(v.wall.vendor.as_deref(), Some("cloudflare"));
}

#[test]
fn soft_errors() {
    let s = boxed("百度百科", "抱歉，您所访问的页面不存在").build();
    assert_eq!(
        soft_error(&s, 6985 * 3, &WallParams::default()),
        Some("页面不存在")
    );
    assert_eq!(soft_error(&s, 20, &WallParams::default()), None);
    for (shown, phrase) in [
        ("Oops! That page can't be found.", "page can't be found"),
        (
            "Die Seite wurde nicht gefunden",
            "seite wurde nicht gefunden",
        ),
        ("Sayfa bulunamadı", "sayfa bulunamadı"),
        ("페이지를 찾을 수 없습니다", "페이지를 찾을 수 없습니다"),
    ] {
        let s = boxed("", shown).build();
        let p = WallParams::default();
        assert_eq!(soft_error(&s, 5000, &p), Some(phrase), "{shown}");
    }
    // A page that talks about missing pages at length is not one.
    let long = "Why a page not found error hurts a site, and what to do about it. ".repeat(40);
    let s = boxed("", &long).build();
    assert_eq!(soft_error(&s, 50_000, &WallParams::default()), None);
}

/// Wall pages in the shapes other anti-bot detectors test against (their words, our
/// snapshots): each named with its kind, and the vendor where the page says it.
#[test]
fn wall_pages_in_other_detectors_shapes() {
    use WallKind::*;
    let cases: &[(&str, &str, i64, WallKind, Option<&str>)] = &[
        ("Access to this page has been denied", "Press & Hold to confirm you are a human (and not a bot). Reference ID c74752d2", 403, Captcha, Some("perimeterx")),
        ("Access Denied", "You do not have permission to view this. Your access has been blocked due to suspicious activity.", 403, AccessDenied, None),
        ("Bot Detected", "We have detected unusual traffic from your computer network.", 403, Captcha, Some("google")),
        ("Too Many Requests", "Rate limit exceeded. Please slow down your requests.", 429, RateLimited, None),
        ("Redirecting...", "Please wait while we verify your browser...", 200, Challenge, None),
        ("Incapsula incident ID", "This site requires JavaScript and Cookies to be enabled.", 200, AccessDenied, Some("imperva")),
        ("Attention Required! | Cloudflare", "Sorry, you have been blocked. Cloudflare Ray ID: 8f3a2b1c", 403, AccessDenied, Some("cloudflare")),
        ("Just a moment...", "Enable JavaScript and cookies to continue", 200, Challenge, Some("cloudflare")),
        ("Pardon Our Interruption", "As you were browsing something about your browser made us think you were a bot.", 200, Challenge, Some("imperva")),
        ("Are you a robot?", "Please confirm you are not a robot.", 200, Captcha, None),
        ("Website unavailable", "The requested URL was rejected. Please consult with your administrator.", 200, AccessDenied, Some("f5")),
    ];
    for (title, text, status, kind, vendor) in cases {
        let v = see(&boxed(title, text).build(), &resp(*status, &[]))
            .unwrap_or_else(|| panic!("{title}: no wall"));
        assert_eq!(v.wall.kind, *kind, "{title}: {v:?}");
        assert_eq!(v.wall.vendor.as_deref(), *vendor, "{title}: {v:?}");
    }
}

/// A snapshot from its JSON (as `js/snapshot.js` writes it): `title`, the `signals` object,
/// and `nodes` as `(parent, tag, text, [x, y, w, h], extra fields)`.
fn json_snap(title: &str, signals: &str, nodes: &[(i64, &str, &str, [f64; 4], &str)]) -> Snapshot {
    let nodes: Vec<String> = nodes
        .iter()
        .map(|(parent, tag, text, b, extra)| {
            let text = if text.is_empty() {
                String::new()
            } else {
                format!(",\"text\":{}", serde_json::to_string(text).unwrap())
            };
            format!(
                "{{\"parent\":{parent},\"tag\":\"{tag}\"{text},\"box\":[{},{},{},{}],\"rendered\":true{extra}}}",
                b[0], b[1], b[2], b[3]
            )
        })
        .collect();
    let json = format!(
        "{{\"schema_version\":1,\"url\":\"https://shop.example/p\",\"title\":{},\
         \"viewport\":{{\"width\":1280,\"height\":900}},\"document\":{{\"width\":1280,\"height\":900}},\
         \"signals\":{signals},\"nodes\":[{}]}}",
        serde_json::to_string(title).unwrap(),
        nodes.join(",")
    );
    Snapshot::from_json(&json, "test").unwrap()
}

/// A bare wall page: a body and a centred paragraph of `text`.
fn bare(title: &str, signals: &str, text: &str) -> Snapshot {
    json_snap(
        title,
        signals,
        &[
            (-1, "body", "", [0.0, 0.0, 1280.0, 900.0], ""),
            (0, "p", "", [440.0, 400.0, 400.0, 40.0], ""),
            (1, "#text", text, [440.0, 400.0, 400.0, 40.0], ""),
        ],
    )
}

#[test]
fn the_kind_comes_from_the_strongest_evidence() {
    // A captcha widget beats a CDN's name and its challenge header.
    let s = bare(
        "Just a moment...",
        r#"{"scripts":["https://challenges.cloudflare.com/turnstile/v0/api.js"]}"#,
        "Verify you are human by completing the action below.",
    );
    let v = see(&s, &resp(403, &[("cf-mitigated", "challenge")])).unwrap();
    assert_eq!(v.wall.kind, WallKind::Captcha, "{v:?}");
    assert_eq!(v.wall.vendor.as_deref(), Some("cloudflare"));
    assert!(
        v.wall
            .evidence
            .iter()
            .any(|e| e.starts_with("captcha widget")),
        "{v:?}"
    );
    // The same page without the widget is the challenge the header names.
    let s = bare("Just a moment...", "{}", "Checking your browser.");
    let v = see(&s, &resp(403, &[("cf-mitigated", "challenge")])).unwrap();
    assert_eq!(v.wall.kind, WallKind::Challenge);
    // A block page's words with a captcha widget: a captcha (Cloudflare's old hCaptcha page).
    let s = bare(
        "Attention Required! | Cloudflare",
        r#"{"scripts":["https://js.hcaptcha.com/1/api.js"]}"#,
        "Please complete the security check to access shop.example. Cloudflare Ray ID: 8f3a2b1c",
    );
    let v = see(&s, &resp(403, &[("server", "cloudflare")])).unwrap();
    assert_eq!(v.wall.kind, WallKind::Captcha, "{v:?}");
    // A WAF's reference number and no widget: access-denied, whatever else it says.
    let s = bare(
        "Error",
        "{}",
        "The request was stopped by our security layer. Incident ID: 1211000120-77000",
    );
    let v = see(&s, &resp(403, &[("set-cookie", "visid_incap_1=x")])).unwrap();
    assert_eq!(v.wall.kind, WallKind::AccessDenied, "{v:?}");
    assert_eq!(v.wall.vendor.as_deref(), Some("imperva"));
    assert!(v
        .wall
        .evidence
        .iter()
        .any(|e| e == "reference \"incident id 1211000120-77000\""));
}

#[test]
fn the_status_is_evidence_on_a_bare_page() {
    // 403 with a bot manager's cookie and no words of a known vendor: access-denied.
    let s = bare("403", "{}", "Sorry, your request was blocked.");
    let v = see(&s, &resp(403, &[("set-cookie", "_abck=x; Path=/")])).unwrap();
    assert_eq!(v.wall.kind, WallKind::AccessDenied);
    assert_eq!(v.wall.vendor.as_deref(), Some("akamai"));
    assert_eq!(v.wall.evidence[0], "status 403");
    // 401 with a script and wall words: a challenge.
    let s = bare(
        "One moment",
        r#"{"scripts":["/static/pow.js"]}"#,
        "Checking that you are not a bot. This needs JavaScript.",
    );
    let v = see(&s, &resp(401, &[])).unwrap();
    assert_eq!(v.wall.kind, WallKind::Challenge, "{v:?}");
    // A server's own 401 (basic authentication) is not one.
    let s = bare(
        "401 Unauthorized",
        "{}",
        "This server could not verify that you are authorized to access the document requested.",
    );
    assert_eq!(see(&s, &resp(401, &[])), None);
    // Status 200 from behind a bot manager, with a bot's words: the words' kind.
    let s = bare("shop", "{}", "Our systems think you might be a robot.");
    let v = see(&s, &resp(200, &[("x-datadome", "protected")])).unwrap();
    assert_eq!(v.wall.kind, WallKind::Captcha);
    assert_eq!(v.wall.vendor.as_deref(), Some("datadome"));
    // The same words behind a plain CDN are no evidence.
    assert_eq!(see(&s, &resp(200, &[("server", "cloudflare")])), None);
    // A site's own 403 with its navigation stays an HTTP error.
    let mut nodes = vec![
        (-1, "body", "", [0.0, 0.0, 1280.0, 900.0], ""),
        (0, "nav", "", [0.0, 0.0, 1280.0, 60.0], ""),
    ];
    for i in 0..12 {
        nodes.push((
            1,
            "a",
            "",
            [i as f64 * 100.0, 0.0, 90.0, 20.0],
            ",\"href\":\"/s\"",
        ));
        nodes.push((
            1 + 2 * i + 1,
            "#text",
            "Section",
            [i as f64 * 100.0, 0.0, 90.0, 20.0],
            "",
        ));
    }
    nodes.push((0, "p", "", [100.0, 200.0, 800.0, 40.0], ""));
    let p = nodes.len() as i64 - 1;
    nodes.push((
        p,
        "#text",
        "Access denied: this page is for staff. Request blocked.",
        [100.0, 200.0, 800.0, 40.0],
        "",
    ));
    let s = json_snap("Access denied", "{}", &nodes);
    assert_eq!(see(&s, &resp(403, &[("server", "nginx")])), None);
}

#[test]
fn an_empty_render_naming_a_challenge_platform_is_a_challenge() {
    let s = bare(
        "",
        r#"{"scripts":["https://a1.edge.sdk.awswaf.com/a1/b2/challenge.js"]}"#,
        "",
    );
    let v = see(&s, &ok()).unwrap();
    assert_eq!(v.wall.kind, WallKind::Challenge);
    assert_eq!(v.wall.vendor.as_deref(), Some("aws-waf"));
    assert!(v.wall.evidence[0].starts_with("an empty render"), "{v:?}");
    // A sensor's global or a contact form's captcha on an empty render is not one.
    let s = bare(
        "",
        r#"{"globals":["_pxAppId"],"scripts":["https://www.google.com/recaptcha/api.js"]}"#,
        "",
    );
    assert_eq!(see(&s, &ok()), None);
}

#[test]
fn a_paywall_keeps_its_lead_and_leaves_its_box() {
    let lead = "The harbour authority finished dredging the northern channel this week. ".repeat(5);
    let json_ld = r#"{"@context":"https://schema.org","@type":"NewsArticle","isAccessibleForFree":false,"hasPart":{"@type":"WebPageElement","isAccessibleForFree":false,"cssSelector":".paywall"}}"#;
    let mut s = json_snap(
        "Channel opens",
        "{}",
        &[
            (-1, "body", "", [0.0, 0.0, 1280.0, 900.0], ""),
            (0, "article", "", [300.0, 0.0, 700.0, 800.0], ""),
            (1, "p", "", [300.0, 0.0, 700.0, 300.0], ""),
            (2, "#text", &lead, [300.0, 0.0, 700.0, 300.0], ""),
            (
                1,
                "aside",
                "",
                [300.0, 320.0, 700.0, 200.0],
                ",\"class\":\"offer\"",
            ),
            (
                4,
                "#text",
                "Subscribe to keep reading. Get unlimited access.",
                [300.0, 320.0, 700.0, 40.0],
                "",
            ),
            (
                4,
                "a",
                "",
                [300.0, 380.0, 100.0, 20.0],
                ",\"href\":\"/subscribe\",\"link\":true",
            ),
            (
                6,
                "#text",
                "Subscribe",
                [300.0, 380.0, 100.0, 20.0],
                ",\"link\":true",
            ),
        ],
    );
    s.head.json_ld.push(json_ld.to_string());
    let v = see(&s, &ok()).unwrap();
    assert_eq!(v.wall.kind, WallKind::Paywall);
    assert!(!v.blocking);
    assert!(
        v.wall
            .evidence
            .iter()
            .any(|e| e == "json-ld hasPart .paywall"),
        "{v:?}"
    );
    assert_eq!(v.wall_nodes, Some(4..8));
    v.strip(&mut s);
    let text: String = s
        .nodes
        .iter()
        .filter(|n| n.rendered)
        .filter_map(|n| n.text.as_deref())
        .collect();
    assert!(
        text.contains("northern channel") && !text.contains("Subscribe"),
        "{text}"
    );
}

#[test]
fn dialogs_over_a_lead_sign_up_and_consent() {
    let article = "Pilots say the deeper water lets larger ships in at any tide. ".repeat(20);
    let dialog = |words: &str| {
        json_snap(
            "Answers",
            "{}",
            &[
                (-1, "body", "", [0.0, 0.0, 1280.0, 2000.0], ""),
                (0, "main", "", [300.0, 0.0, 700.0, 2000.0], ""),
                (1, "#text", &article, [300.0, 0.0, 700.0, 2000.0], ""),
                (
                    0,
                    "div",
                    "",
                    [0.0, 0.0, 1280.0, 900.0],
                    ",\"position\":\"fixed\"",
                ),
                (3, "#text", words, [440.0, 400.0, 400.0, 40.0], ""),
                (3, "button", "", [540.0, 450.0, 200.0, 30.0], ""),
            ],
        )
    };
    let v = see(
        &dialog("Sign up to continue reading. Continue with Google"),
        &ok(),
    )
    .unwrap();
    assert_eq!(v.wall.kind, WallKind::Login);
    assert!(!v.blocking);
    assert_eq!(v.wall_nodes, Some(3..6));
    let v = see(
        &dialog("Before you continue: we and our partners use cookies. Accept all"),
        &ok(),
    )
    .unwrap();
    assert_eq!(v.wall.kind, WallKind::Consent);
    assert!(!v.blocking);
    // A newsletter modal is neither.
    assert_eq!(
        see(&dialog("Get our newsletter every morning"), &ok()),
        None
    );
}
