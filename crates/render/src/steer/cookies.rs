//! Cookies: `--cookie name=value`, `--cookies FILE` (a Netscape `cookies.txt`, as curl,
//! wget and browser extensions write it, or JSON: a list of cookies or a Playwright
//! `storageState`), and the conversions to and from CDP's cookies.
//!
//! A page's cookies are set in its own browser context before it loads, for the target's own
//! site only ([`for_target`]): a cookie of another site in a file is left out.

use std::path::Path;

use chromiumoxide::cdp::browser_protocol::network::{CookieParam, CookieSameSite, TimeSinceEpoch};

use super::request::{domain_on_site, site_of_url};
use super::{Cookie, StorageState};
use crate::Error;

/// Read `--cookie 'name=value'`: a cookie for the target's host (its domain is left empty).
pub fn parse_cookie(s: &str) -> Result<Cookie, String> {
    let Some((name, value)) = s.split_once('=') else {
        return Err(format!(
            "`{s}` is not a cookie: write it as 'name=value' (e.g. 'session=abc123')"
        ));
    };
    let name = name.trim();
    if name.is_empty() || name.contains([';', ' ', '\t', '\r', '\n', ',']) {
        return Err(format!(
            "`{name}` is not a cookie name: no spaces, commas or semicolons, as in 'session=abc123'"
        ));
    }
    let value = value.trim();
    if value.contains([';', '\r', '\n']) {
        return Err(format!(
            "the value of cookie `{name}` holds a semicolon or a line break: give one cookie per --cookie"
        ));
    }
    Ok(Cookie {
        name: name.to_string(),
        value: value.to_string(),
        domain: String::new(),
        path: "/".into(),
        expires: -1.0,
        http_only: false,
        secure: false,
        same_site: None,
    })
}

/// Read a cookie file: a Netscape `cookies.txt` (tab-separated, `# Netscape HTTP Cookie
/// File`), or JSON: a list of cookies (Playwright's or a browser extension's shape, with
/// `expirationDate` accepted for `expires`) or a Playwright `storageState` (its cookies).
pub fn load_cookies(path: &Path) -> Result<Vec<Cookie>, Error> {
    let text = read(path, "cookie file")?;
    let trimmed = text.trim_start_matches('\u{feff}').trim_start();
    if trimmed.starts_with('[') || trimmed.starts_with('{') {
        return json_cookies(trimmed).map_err(|m| file_error(path, "cookie file", m));
    }
    netscape(trimmed).map_err(|m| file_error(path, "cookie file", m))
}

/// An input error naming the file and what to give instead.
pub(super) fn file_error(path: &Path, what: &str, message: String) -> Error {
    Error::Input {
        input: path.display().to_string(),
        message: format!("{what}: {message}"),
        source: None,
    }
}

/// A file's text, or an input error naming it.
pub(super) fn read(path: &Path, what: &str) -> Result<String, Error> {
    std::fs::read_to_string(path).map_err(|e| Error::Input {
        input: path.display().to_string(),
        message: format!("{what}: cannot read it: {e}"),
        source: Some(Box::new(e)),
    })
}

/// Cookies in JSON: a list, or an object with `cookies` (a `storageState`).
fn json_cookies(text: &str) -> Result<Vec<Cookie>, String> {
    let v: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("not valid JSON: {e}"))?;
    let list = match &v {
        serde_json::Value::Array(a) => a.clone(),
        serde_json::Value::Object(o) => match o.get("cookies") {
            Some(serde_json::Value::Array(a)) => a.clone(),
            _ => {
                return Err(
                    "a JSON cookie file is a list of cookies or a Playwright storageState ({\"cookies\": [...], \"origins\": [...]})".into(),
                )
            }
        },
        _ => return Err("a JSON cookie file is a list of cookies".into()),
    };
    list.into_iter()
        .enumerate()
        .map(|(i, mut c)| {
            // Browser extensions (EditThisCookie, Cookie-Editor) write `expirationDate` and
            // lowercase `sameSite` values (`no_restriction`, `lax`, `strict`, `unspecified`).
            if let Some(o) = c.as_object_mut() {
                if let Some(e) = o.remove("expirationDate") {
                    o.entry("expires").or_insert(e);
                }
                if let Some(s) = o.get("sameSite").and_then(|s| s.as_str()) {
                    let fixed = match s.to_ascii_lowercase().as_str() {
                        "strict" => Some("Strict"),
                        "lax" => Some("Lax"),
                        "none" | "no_restriction" => Some("None"),
                        _ => None,
                    };
                    o.insert(
                        "sameSite".into(),
                        fixed.map_or(serde_json::Value::Null, |f| f.into()),
                    );
                }
                o.retain(|k, _| {
                    matches!(
                        k.as_str(),
                        "name"
                            | "value"
                            | "domain"
                            | "path"
                            | "expires"
                            | "httpOnly"
                            | "secure"
                            | "sameSite"
                    )
                });
            }
            serde_json::from_value::<Cookie>(c).map_err(|e| format!("cookie {i}: {e}"))
        })
        .collect()
}

/// A Netscape `cookies.txt`: `domain  include-subdomains  path  secure  expires  name  value`,
/// tab-separated; `#HttpOnly_` before a domain marks an HTTP-only cookie; other `#` lines and
/// blank lines are comments.
fn netscape(text: &str) -> Result<Vec<Cookie>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        let (http_only, line) = match line.strip_prefix("#HttpOnly_") {
            Some(rest) => (true, rest),
            None => (false, line),
        };
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() < 7 {
            return Err(format!(
                "line {}: not a cookies.txt line (7 tab-separated fields: domain, subdomains, path, secure, expires, name, value) nor JSON",
                n + 1
            ));
        }
        let subdomains = f[1].eq_ignore_ascii_case("TRUE");
        let domain = f[0].trim();
        let domain = if subdomains && !domain.starts_with('.') {
            format!(".{domain}")
        } else if !subdomains {
            domain.trim_start_matches('.').to_string()
        } else {
            domain.to_string()
        };
        let expires: f64 = f[4]
            .trim()
            .parse()
            .map_err(|_| format!("line {}: expires `{}` is not a number", n + 1, f[4]))?;
        out.push(Cookie {
            name: f[5].to_string(),
            value: f[6..].join("\t"),
            domain,
            path: if f[2].is_empty() {
                "/".into()
            } else {
                f[2].to_string()
            },
            expires: if expires <= 0.0 { -1.0 } else { expires },
            http_only,
            secure: f[3].eq_ignore_ascii_case("TRUE"),
            same_site: None,
        });
    }
    Ok(out)
}

/// The cookies of a page at `target` (its plan's cookies and its storage state's) as CDP
/// sets them: a cookie without a domain is the target's host's (host-only); a cookie of
/// another site than the target's is left out (and counted in the second value).
pub(crate) fn for_target<'a>(
    cookies: impl IntoIterator<Item = &'a Cookie>,
    target: &str,
) -> (Vec<CookieParam>, usize) {
    let site = site_of_url(target);
    let mut dropped = 0;
    let mut out = Vec::new();
    for c in cookies {
        let mut p = CookieParam::new(c.name.clone(), c.value.clone());
        if c.domain.is_empty() {
            // Host-only, for the target's own host.
            if site.is_none() {
                dropped += 1;
                continue;
            }
            p.url = Some(target.to_string());
        } else {
            if !site
                .as_deref()
                .is_some_and(|s| domain_on_site(&c.domain, s))
            {
                dropped += 1;
                continue;
            }
            p.domain = Some(c.domain.clone());
        }
        p.path = Some(if c.path.is_empty() {
            "/".into()
        } else {
            c.path.clone()
        });
        p.secure = Some(c.secure);
        p.http_only = Some(c.http_only);
        p.same_site = match c.same_site.as_deref() {
            Some("Strict") => Some(CookieSameSite::Strict),
            Some("Lax") => Some(CookieSameSite::Lax),
            Some("None") => Some(CookieSameSite::None),
            _ => None,
        };
        if c.expires > 0.0 {
            p.expires = Some(TimeSinceEpoch::new(c.expires));
        }
        out.push(p);
    }
    (out, dropped)
}

/// A CDP cookie in Playwright's `storageState` shape.
pub(crate) fn from_cdp(c: &chromiumoxide::cdp::browser_protocol::network::Cookie) -> Cookie {
    Cookie {
        name: c.name.clone(),
        value: c.value.clone(),
        domain: c.domain.clone(),
        path: c.path.clone(),
        expires: if c.session { -1.0 } else { c.expires },
        http_only: c.http_only,
        secure: c.secure,
        // Playwright writes `Lax` where Chromium has no SameSite attribute (its default).
        same_site: Some(
            match c.same_site {
                Some(CookieSameSite::Strict) => "Strict",
                Some(CookieSameSite::None) => "None",
                _ => "Lax",
            }
            .into(),
        ),
    }
}

/// Every cookie of a storage state and of the plan, the plan's last (a `--cookie` of the same
/// name wins).
pub(crate) fn all<'a>(
    cookies: &'a [Cookie],
    state: Option<&'a StorageState>,
) -> impl Iterator<Item = &'a Cookie> {
    state
        .into_iter()
        .flat_map(|s| s.cookies.iter())
        .chain(cookies.iter())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cookie_flag_is_name_equals_value_for_the_targets_host() {
        let c = parse_cookie("session = a=b ").unwrap();
        assert_eq!(
            (c.name.as_str(), c.value.as_str(), c.domain.as_str()),
            ("session", "a=b", "")
        );
        assert!(parse_cookie("novalue")
            .unwrap_err()
            .contains("'name=value'"));
        assert!(parse_cookie("=x").is_err());
        assert!(parse_cookie("a=b; c=d").is_err());
    }

    #[test]
    fn netscape_cookie_files_read_as_curl_writes_them() {
        let text = "# Netscape HTTP Cookie File\n\n.example.com\tTRUE\t/\tTRUE\t1999999999\tsid\tabc\n#HttpOnly_shop.example.com\tFALSE\t/cart\tFALSE\t0\tcart\t1\tx\n";
        let c = netscape(text).unwrap();
        assert_eq!(c.len(), 2);
        assert_eq!(c[0].domain, ".example.com");
        assert!(c[0].secure && !c[0].http_only);
        assert_eq!(c[0].expires, 1999999999.0);
        assert_eq!(c[1].domain, "shop.example.com");
        assert!(c[1].http_only);
        assert_eq!(c[1].expires, -1.0);
        assert_eq!(c[1].path, "/cart");
        assert_eq!(c[1].value, "1\tx");
        assert!(netscape("example.com TRUE / FALSE 0 a b")
            .unwrap_err()
            .contains("line 1"));
    }

    #[test]
    fn json_cookie_files_are_lists_or_storage_states() {
        let c = json_cookies(
            r#"[{"name":"a","value":"1","domain":".example.com","path":"/","expirationDate":1999999999.5,"sameSite":"no_restriction","hostOnly":false,"storeId":"0"}]"#,
        )
        .unwrap();
        assert_eq!(c[0].expires, 1999999999.5);
        assert_eq!(c[0].same_site.as_deref(), Some("None"));
        let c = json_cookies(r#"{"cookies":[{"name":"b","value":"2","domain":"example.com","path":"/"}],"origins":[]}"#).unwrap();
        assert_eq!(c[0].name, "b");
        assert!(json_cookies("{\"x\":1}")
            .unwrap_err()
            .contains("storageState"));
        assert!(json_cookies("[{\"value\":\"1\"}]")
            .unwrap_err()
            .contains("cookie 0"));
    }

    #[test]
    fn only_the_targets_site_gets_cookies() {
        let mut a = parse_cookie("host=1").unwrap();
        let mut b = a.clone();
        b.name = "site".into();
        b.domain = ".example.com".into();
        a.name = "host".into();
        let mut c = a.clone();
        c.name = "third".into();
        c.domain = "tracker.net".into();
        let (set, dropped) = for_target([&a, &b, &c], "https://www.example.com/x");
        assert_eq!(dropped, 1);
        assert_eq!(set.len(), 2);
        assert_eq!(set[0].url.as_deref(), Some("https://www.example.com/x"));
        assert_eq!(set[1].domain.as_deref(), Some(".example.com"));
        // A page without a host (file:) gets no host-only cookie.
        let (set, dropped) = for_target([&a], "file:///tmp/a.html");
        assert!(set.is_empty() && dropped == 1);
    }
}
