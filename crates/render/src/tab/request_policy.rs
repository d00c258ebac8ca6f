//! The request policy: allow or refuse one request Fetch paused ([`decide`]). Pure: request
//! facts in, decision out, with the URL rules it needs (origins, the main document's URL).

use chromiumoxide::cdp::browser_protocol::network::ErrorReason;

/// What the request policy knows of one request Fetch paused, and of the page it belongs to.
#[derive(Debug, Clone, Copy)]
pub(super) struct RequestFacts<'a> {
    /// The request's URL.
    pub url: &'a str,
    /// Its resource type is Document (a frame's document: the main frame's or a subframe's).
    pub is_document: bool,
    /// It is a request of the tab's main frame.
    pub main_frame: bool,
    /// It follows a redirect.
    pub redirected: bool,
    /// Its network request id.
    pub network_id: Option<&'a str>,
    /// `--offline`: only the page's own document and loopback resources of its origin.
    pub offline: bool,
    /// The page is a `file:` URL (its `file:` resources are allowed offline).
    pub allow_file: bool,
    /// The page's origin.
    pub allow_origin: Option<&'a str>,
    /// The URL this page's navigation asked for.
    pub nav_url: &'a str,
    /// The network id of the page's main document, once known.
    pub main_request: Option<&'a str>,
    /// A target policy (`serve`) is set.
    pub target_policy: bool,
    /// The origin the target policy does not check (the renderer's own loopback page server).
    pub exempt_origin: Option<&'a str>,
}

/// What to do with a paused request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct RequestDecision {
    /// Continue it (when the target policy, if it is checked, allows it too).
    pub allow: bool,
    /// This is the page's main document: its network id becomes the main request.
    pub navigation_document: bool,
    /// A document of the main frame (the page's own, or a navigation away from it).
    pub main_document: bool,
    /// A navigation away from the page, blocked by `--offline`.
    pub blocked_navigation: bool,
    /// How a refused request fails.
    pub refusal: ErrorReason,
    /// The target policy checks this request before it continues.
    pub check_target: bool,
}

/// The request policy: allow or refuse one paused request. Pure: request facts in, decision
/// out.
///
/// - The navigation's own document is the main frame's first document request for the URL
///   asked for (see [`same_document_url`]); a main-frame document for any other URL before it
///   (an event of the previous page still in the queue) is not taken for this page's.
/// - Online, everything is allowed. Offline: the page's own document, `data:`/`blob:` URLs,
///   `file:` resources of a `file:` page, and same-origin requests when the page's origin is
///   loopback.
/// - Offline, a second main-frame document is a navigation away from the page being measured
///   (scripts of saved pages do this once their resources fail): it is blocked, and fails as
///   aborted: Chromium then keeps the loaded document instead of replacing it with its
///   "blocked" error page. (Frames keep BlockedByClient: an aborted frame navigation never ends
///   for chromiumoxide, whose next navigation in the tab would wait for it.)
/// - With a target policy, every request but those of the exempt origin is checked by it.
pub(super) fn decide(f: &RequestFacts) -> RequestDecision {
    let main_document = f.is_document && f.main_frame;
    let navigation_document = f.is_document
        && (f.main_request.is_none() || f.main_request == f.network_id)
        && f.main_frame
        && !f.redirected
        && same_document_url(f.url, f.nav_url);
    let allow = if !f.offline || read_from_memory(f.url) || navigation_document {
        true
    } else if f.url.starts_with("file:") {
        f.allow_file
    } else {
        let o = origin_of(f.url);
        o.is_some()
            && o.as_deref() == f.allow_origin
            && is_loopback_origin(o.as_deref().unwrap_or(""))
    };
    let blocked_navigation = f.offline
        && main_document
        && !navigation_document
        && f.main_request.is_some()
        && !f.redirected;
    let exempt = f.exempt_origin.is_some() && origin_of(f.url).as_deref() == f.exempt_origin;
    RequestDecision {
        allow: allow && !blocked_navigation,
        navigation_document,
        main_document,
        blocked_navigation,
        refusal: if blocked_navigation {
            ErrorReason::Aborted
        } else {
            ErrorReason::BlockedByClient
        },
        check_target: f.target_policy && !exempt,
    }
}

/// `scheme://host:port` of a URL (the `url` crate's ASCII serialisation), for same-origin
/// decisions; None for opaque origins (data:, file:) and non-URLs.
pub(super) fn origin_of(url: &str) -> Option<String> {
    let u = url::Url::parse(url).ok()?;
    match u.origin() {
        o @ url::Origin::Tuple(..) => Some(o.ascii_serialization()),
        url::Origin::Opaque(_) => None,
    }
}

/// Is the origin's host `localhost` or a loopback address?
fn is_loopback_origin(origin: &str) -> bool {
    let Ok(u) = url::Url::parse(origin) else {
        return false;
    };
    match u.host() {
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

/// `data:` and `blob:` URLs are read from memory: always allowed offline, and never waited
/// for (Chromium reports them sent but never finished).
pub(super) fn read_from_memory(url: &str) -> bool {
    url.starts_with("data:") || url.starts_with("blob:")
}

/// Is `seen` (a document request's URL, as Chromium sends it) the URL a navigation asked
/// for? Both are compared as parsed URLs without their fragment (Chromium sends neither the
/// fragment nor a non-canonical form: `HTTP://Host` arrives as `http://host/`); strings that
/// do not parse are compared as they are.
pub(super) fn same_document_url(seen: &str, asked: &str) -> bool {
    fn key(u: &str) -> String {
        match url::Url::parse(u) {
            Ok(mut p) => {
                p.set_fragment(None);
                p.into()
            }
            Err(_) => u.split('#').next().unwrap_or(u).to_string(),
        }
    }
    seen == asked || key(seen) == key(asked)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_and_loopback() {
        assert_eq!(
            origin_of("http://127.0.0.1:8080/a/b?x").as_deref(),
            Some("http://127.0.0.1:8080")
        );
        // Default ports and case are normalised; opaque origins have none.
        assert_eq!(
            origin_of("HTTP://Example.COM:80/x").as_deref(),
            Some("http://example.com")
        );
        assert_eq!(origin_of("data:text/html,x"), None);
        assert!(!is_loopback_origin("http://user@127.0.0.1.evil.com"));
        assert!(is_loopback_origin("http://127.0.0.1:8080"));
        assert!(is_loopback_origin("http://localhost"));
        assert!(is_loopback_origin("http://[::1]:3000"));
        assert!(!is_loopback_origin("https://example.com"));
        assert!(!is_loopback_origin("http://127.0.0.1.evil.com"));
    }

    #[test]
    fn the_main_document_is_the_request_for_the_url_asked_for() {
        let asked = "http://127.0.0.1:8080/page-3.html";
        assert!(same_document_url(asked, asked));
        // Chromium sends the canonical form and no fragment.
        assert!(same_document_url(
            "http://127.0.0.1:8080/page-3.html",
            "HTTP://127.0.0.1:8080/page-3.html#top"
        ));
        assert!(same_document_url(
            "https://example.com/",
            "https://Example.com"
        ));
        // The previous page, one of its frames, or a page it navigates to is not this page's.
        assert!(!same_document_url(
            "http://127.0.0.1:8080/page-2.html",
            asked
        ));
        assert!(!same_document_url(
            "http://127.0.0.1:8080/page-3.html?frame=1",
            asked
        ));
        assert!(!same_document_url("about:blank", asked));
    }

    /// A page at `http://127.0.0.1:8080/page.html`, offline, its main document not yet seen.
    fn facts(url: &str) -> RequestFacts<'_> {
        RequestFacts {
            url,
            is_document: false,
            main_frame: true,
            redirected: false,
            network_id: Some("n1"),
            offline: true,
            allow_file: false,
            allow_origin: Some("http://127.0.0.1:8080"),
            nav_url: "http://127.0.0.1:8080/page.html",
            main_request: None,
            target_policy: false,
            exempt_origin: None,
        }
    }

    #[test]
    fn the_navigation_document_is_allowed_and_becomes_the_main_request() {
        let d = decide(&RequestFacts {
            is_document: true,
            ..facts("http://127.0.0.1:8080/page.html#top")
        });
        assert!(d.allow && d.navigation_document && d.main_document);
        assert!(!d.blocked_navigation);
        // A subframe's document for the same URL is not the page's.
        let d = decide(&RequestFacts {
            is_document: true,
            main_frame: false,
            ..facts("http://127.0.0.1:8080/page.html")
        });
        assert!(!d.navigation_document && !d.main_document);
        // Once the main request is known, another request id is not it.
        let d = decide(&RequestFacts {
            is_document: true,
            main_request: Some("n0"),
            ..facts("http://127.0.0.1:8080/page.html")
        });
        assert!(!d.navigation_document);
    }

    #[test]
    fn offline_allows_memory_same_loopback_origin_and_the_pages_files_only() {
        assert!(decide(&facts("data:text/plain,x")).allow);
        assert!(decide(&facts("blob:http://127.0.0.1:8080/abc")).allow);
        assert!(decide(&facts("http://127.0.0.1:8080/style.css")).allow);
        let d = decide(&facts("https://cdn.example.com/app.js"));
        assert!(!d.allow);
        assert_eq!(d.refusal, ErrorReason::BlockedByClient);
        // A non-loopback page's own origin is not allowed offline either.
        let d = decide(&RequestFacts {
            allow_origin: Some("https://example.com"),
            ..facts("https://example.com/a.css")
        });
        assert!(!d.allow);
        assert!(!decide(&facts("file:///etc/passwd")).allow);
        assert!(
            decide(&RequestFacts {
                allow_file: true,
                ..facts("file:///tmp/page_files/a.css")
            })
            .allow
        );
        // Online, everything is allowed.
        assert!(
            decide(&RequestFacts {
                offline: false,
                ..facts("https://cdn.example.com/app.js")
            })
            .allow
        );
    }

    #[test]
    fn offline_blocks_a_navigation_away_as_aborted_but_not_a_redirect() {
        let away = RequestFacts {
            is_document: true,
            main_request: Some("n0"),
            ..facts("http://127.0.0.1:8080/elsewhere.html")
        };
        let d = decide(&away);
        assert!(!d.allow && d.blocked_navigation);
        assert_eq!(d.refusal, ErrorReason::Aborted);
        // Online it goes ahead.
        assert!(
            decide(&RequestFacts {
                offline: false,
                ..away
            })
            .allow
        );
        // A redirect of the main document is not a navigation away.
        assert!(
            !decide(&RequestFacts {
                redirected: true,
                ..away
            })
            .blocked_navigation
        );
    }

    #[test]
    fn the_target_policy_checks_every_request_but_the_exempt_origins() {
        let f = RequestFacts {
            offline: false,
            target_policy: true,
            exempt_origin: Some("http://127.0.0.1:9000"),
            ..facts("http://10.0.0.1/x")
        };
        assert!(decide(&f).check_target);
        assert!(
            !decide(&RequestFacts {
                url: "http://127.0.0.1:9000/page.html",
                ..f
            })
            .check_target
        );
        assert!(
            !decide(&RequestFacts {
                target_policy: false,
                ..f
            })
            .check_target
        );
    }
}
