//! Request shaping: `--header` (sent to the target's own site only), "the target's own site"
//! itself (the registrable domain of the page's URL, from the public suffix list), and the
//! identity a page is shown with: `--user-agent`, `--locale`, `--timezone`, `--mobile`.
//!
//! Headers are added by the tab's request policy to each request Fetch pauses whose host is
//! on the target's site ([`with_headers`]): a redirect or subresource to another site never
//! gets them. The identity is emulated on a tab of the page's own browser context (see
//! [`super::context`]), which is closed after the page, so nothing of it reaches another page.

use chromiumoxide::cdp::browser_protocol::emulation::{
    SetDeviceMetricsOverrideParams, SetLocaleOverrideParams, SetTimezoneOverrideParams,
    SetTouchEmulationEnabledParams, SetUserAgentOverrideParams,
};
use chromiumoxide::cdp::browser_protocol::fetch::HeaderEntry;
use chromiumoxide::cdp::browser_protocol::network::Headers;
use chromiumoxide::Page;

use super::{Header, Steer};
use crate::cdp;
use crate::Error;

/// The viewport of `--mobile`: a 390x844 phone screen at 3x (an iPhone 12-14 class screen,
/// the size Playwright's and Chrome's device lists use most).
pub(crate) const MOBILE_VIEWPORT: (i64, i64, f64) = (390, 844, 3.0);

/// Read `--header 'Name: value'`. The name must be a valid HTTP token, the value must not
/// hold line breaks.
pub fn parse_header(s: &str) -> Result<Header, String> {
    let Some((name, value)) = s.split_once(':') else {
        return Err(format!(
            "`{s}` is not a header: write it as 'Name: value' (e.g. 'Authorization: Bearer TOKEN')"
        ));
    };
    let name = name.trim();
    let value = value.trim();
    if name.is_empty() || !name.bytes().all(is_token_byte) {
        return Err(format!(
            "`{name}` is not a header name: letters, digits and !#$%&'*+-.^_`|~ only, as in 'X-Api-Key: value'"
        ));
    }
    if value.contains(['\r', '\n', '\0']) {
        return Err(format!("the value of header `{name}` holds a line break"));
    }
    if name.eq_ignore_ascii_case("host") {
        return Err("the Host header is the URL's: change the URL instead".into());
    }
    Ok(Header {
        name: name.to_string(),
        value: value.to_string(),
    })
}

/// An HTTP token character (RFC 9110 section 5.6.2).
fn is_token_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// The site of a host: its registrable domain (`news.example.co.uk` → `example.co.uk`), from
/// the public suffix list; an IP address, `localhost`, a single label or a name that is a
/// public suffix itself is its own site. Lowercase, without brackets or a trailing dot.
pub(crate) fn site_of(host: &str) -> String {
    let h = host
        .trim_start_matches('[')
        .trim_end_matches(']')
        .trim_end_matches('.')
        .to_ascii_lowercase();
    if h.parse::<std::net::IpAddr>().is_ok() {
        return h;
    }
    match psl::domain_str(&h) {
        Some(d) => d.to_string(),
        None => h,
    }
}

/// The site of a URL's host (None: no host, as `file:`, `data:` or `about:` URLs).
pub(crate) fn site_of_url(url: &str) -> Option<String> {
    let u = url::Url::parse(url).ok()?;
    u.host_str().map(site_of)
}

/// Is `url`'s host on `site` (the target's site, [`site_of`])? Schemes and ports do not
/// matter; a host that is `site` or ends with `.site` is.
pub(crate) fn on_site(url: &str, site: &str) -> bool {
    let Ok(u) = url::Url::parse(url) else {
        return false;
    };
    if !matches!(u.scheme(), "http" | "https" | "ws" | "wss") {
        return false;
    }
    u.host_str().is_some_and(|h| site_of(h) == site)
}

/// Is a cookie domain (`example.com`, `.example.com`, `www.example.com`) on `site`?
pub(crate) fn domain_on_site(domain: &str, site: &str) -> bool {
    let d = domain.trim_start_matches('.');
    !d.is_empty() && site_of(d) == site
}

/// The request's headers with the page's `extra` headers set (replacing any of the same
/// name), for `Fetch.continueRequest`.
pub(crate) fn with_headers(request: &Headers, extra: &[Header]) -> Vec<HeaderEntry> {
    let mut out: Vec<HeaderEntry> = request
        .inner()
        .as_object()
        .map(|o| {
            o.iter()
                .filter(|(k, _)| !extra.iter().any(|h| h.name.eq_ignore_ascii_case(k)))
                .map(|(k, v)| HeaderEntry::new(k.clone(), v.as_str().unwrap_or("").to_string()))
                .collect()
        })
        .unwrap_or_default();
    out.extend(
        extra
            .iter()
            .map(|h| HeaderEntry::new(h.name.clone(), h.value.clone())),
    );
    out
}

/// The user agent of `--mobile` for this browser's version (read from its own user agent,
/// `... HeadlessChrome/131.0.6778.0 Safari/537.36`): Chrome on Android, as Chrome's own device
/// emulation sends it (the reduced form, minor versions zero).
pub(crate) fn mobile_user_agent(browser_ua: &str) -> String {
    let major = browser_ua
        .split_whitespace()
        .find_map(|t| {
            t.strip_prefix("HeadlessChrome/")
                .or_else(|| t.strip_prefix("Chrome/"))
        })
        .and_then(|v| v.split('.').next())
        .filter(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
        .unwrap_or("131");
    format!(
        "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/{major}.0.0.0 Mobile Safari/537.36"
    )
}

/// Emulate the page's identity on its tab (before it loads): the user agent (with the
/// locale as `Accept-Language`), the locale (`Intl`, `navigator.language`), the time zone,
/// and a phone's screen and touch. Sends nothing when the plan asks for none of them.
pub(crate) async fn emulate(
    page: &Page,
    steer: &Steer,
    input: &str,
    t: std::time::Duration,
) -> Result<(), Error> {
    use chromiumoxide::cdp::js_protocol::runtime::EvaluateParams;
    if steer.user_agent.is_some() || steer.locale.is_some() || steer.mobile {
        let ua = match &steer.user_agent {
            Some(ua) => ua.clone(),
            None => {
                let v = cdp::execute(
                    page,
                    input,
                    "reading the browser's user agent",
                    t,
                    EvaluateParams::new("navigator.userAgent"),
                )
                .await?;
                let ua = v
                    .result
                    .result
                    .value
                    .as_ref()
                    .and_then(|v| v.as_str())
                    .unwrap_or_default()
                    .to_string();
                if steer.mobile {
                    mobile_user_agent(&ua)
                } else {
                    ua
                }
            }
        };
        let mut p = SetUserAgentOverrideParams::new(ua);
        p.accept_language = steer.locale.clone();
        if steer.mobile {
            p.platform = Some("Linux armv81".into());
        }
        cdp::execute(page, input, "setting the user agent", t, p).await?;
    }
    if let Some(locale) = &steer.locale {
        let r = cdp::answered(
            input,
            "setting the locale",
            t,
            page.execute(SetLocaleOverrideParams {
                locale: Some(locale.clone()),
            }),
        )
        .await?;
        r.map_err(|e| Error::Input {
            input: input.into(),
            message: format!(
                "--locale {locale}: Chromium refused it ({e}); give a BCP 47 tag such as de-DE or en-US"
            ),
            source: None,
        })?;
    }
    if let Some(tz) = &steer.timezone {
        let tz_params = SetTimezoneOverrideParams::new(tz.clone());
        let r = cdp::answered(input, "setting the time zone", t, page.execute(tz_params)).await?;
        r.map_err(|e| Error::Input {
            input: input.into(),
            message: format!(
                "--timezone {tz}: Chromium refused it ({e}); give an IANA time zone such as Europe/Berlin or America/New_York"
            ),
            source: None,
        })?;
    }
    if steer.mobile {
        let (w, h, scale) = MOBILE_VIEWPORT;
        let phone = SetDeviceMetricsOverrideParams::new(w, h, scale, true);
        cdp::execute(page, input, "emulating a phone", t, phone).await?;
        let mut touch = SetTouchEmulationEnabledParams::new(true);
        touch.max_touch_points = Some(5);
        cdp::execute(page, input, "emulating touch", t, touch).await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_parse_as_name_colon_value() {
        let h = parse_header("Authorization:  Bearer a:b ").unwrap();
        assert_eq!(
            (h.name.as_str(), h.value.as_str()),
            ("Authorization", "Bearer a:b")
        );
        assert_eq!(parse_header("X-Empty:").unwrap().value, "");
        assert!(parse_header("no colon")
            .unwrap_err()
            .contains("'Name: value'"));
        assert!(parse_header("Bad Name: x")
            .unwrap_err()
            .contains("header name"));
        assert!(parse_header(": x").is_err());
        assert!(parse_header("X: a\r\nEvil: b").is_err());
        assert!(parse_header("Host: example.com").is_err());
    }

    #[test]
    fn a_site_is_the_registrable_domain() {
        assert_eq!(site_of("news.example.co.uk"), "example.co.uk");
        assert_eq!(site_of("WWW.Example.COM."), "example.com");
        assert_eq!(site_of("127.0.0.1"), "127.0.0.1");
        assert_eq!(site_of("[::1]"), "::1");
        assert_eq!(site_of("localhost"), "localhost");
        // A public suffix is its own site: foo.github.io and bar.github.io are not one.
        assert_eq!(site_of("foo.github.io"), "foo.github.io");
        let site = site_of_url("https://www.example.com:8443/a").unwrap();
        assert!(on_site("http://api.example.com/x", &site));
        assert!(on_site("https://example.com/", &site));
        assert!(!on_site("https://example.com.evil.net/", &site));
        assert!(!on_site("https://notexample.com/", &site));
        assert!(!on_site("data:text/plain,x", &site));
        // Loopback: an address is its own site, whatever the port; a name is another site.
        let site = site_of_url("http://127.0.0.1:8080/").unwrap();
        assert!(on_site("http://127.0.0.1:9000/a.js", &site));
        assert!(!on_site("http://localhost:8080/a.js", &site));
        assert!(!on_site("http://127.0.0.2:8080/a.js", &site));
        assert!(domain_on_site(".example.com", "example.com"));
        assert!(domain_on_site("shop.example.com", "example.com"));
        assert!(!domain_on_site("tracker.net", "example.com"));
        assert!(!domain_on_site("", "example.com"));
    }

    #[test]
    fn extra_headers_replace_those_of_the_same_name() {
        let req = Headers::new(serde_json::json!({"Accept": "*/*", "x-token": "old"}));
        let h = with_headers(
            &req,
            &[Header {
                name: "X-Token".into(),
                value: "new".into(),
            }],
        );
        let mut v: Vec<(String, String)> = h.into_iter().map(|e| (e.name, e.value)).collect();
        v.sort();
        assert_eq!(
            v,
            vec![
                ("Accept".to_string(), "*/*".to_string()),
                ("X-Token".to_string(), "new".to_string())
            ]
        );
    }

    #[test]
    fn the_mobile_user_agent_follows_the_browser_version() {
        let ua = mobile_user_agent(
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.6778.0 Safari/537.36",
        );
        assert!(ua.contains("Chrome/131.0.0.0 Mobile Safari"), "{ua}");
        assert!(ua.contains("Android"));
    }
}
