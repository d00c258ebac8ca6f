//! Plans read from files: cookies (Netscape `cookies.txt`, or JSON: a list of cookies or a
//! Playwright `storageState`) and storage states. Errors name the file and what it should
//! hold.

use std::path::Path;

use super::{Cookie, StorageState};
use crate::Error;

fn read(path: &Path, what: &str) -> Result<String, Error> {
    std::fs::read_to_string(path).map_err(|e| Error::Input {
        input: path.display().to_string(),
        message: format!("cannot read the {what} file: {e}"),
        source: Some(Box::new(e)),
    })
}

fn invalid(path: &Path, message: String) -> Error {
    Error::Input {
        input: path.display().to_string(),
        message,
        source: None,
    }
}

/// Cookies from a file: Netscape `cookies.txt` (what curl, wget and browser extensions
/// export), a JSON list of cookies, or a Playwright `storageState` (its cookies).
pub fn load_cookies(path: &Path) -> Result<Vec<Cookie>, Error> {
    let text = read(path, "cookies")?;
    let t = text.trim_start_matches('\u{feff}').trim_start();
    if t.starts_with('[') {
        return serde_json::from_str(t).map_err(|e| {
            invalid(path, format!("not a JSON list of cookies ({e}); each needs name and value, and may have domain, path, expires, httpOnly, secure, sameSite"))
        });
    }
    if t.starts_with('{') {
        return load_storage_state_text(path, t).map(|s| s.cookies);
    }
    parse_netscape(&text).map_err(|m| invalid(path, m))
}

/// A Playwright `storageState` JSON file (`{"cookies": [...], "origins": [...]}`).
pub fn load_storage_state(path: &Path) -> Result<StorageState, Error> {
    let text = read(path, "storage state")?;
    load_storage_state_text(path, text.trim_start_matches('\u{feff}'))
}

fn load_storage_state_text(path: &Path, text: &str) -> Result<StorageState, Error> {
    serde_json::from_str(text).map_err(|e| {
        invalid(path, format!("not a Playwright storageState ({e}): expected {{\"cookies\": [...], \"origins\": [{{\"origin\": ..., \"localStorage\": [...]}}]}}"))
    })
}

/// Netscape `cookies.txt`: tab-separated `domain  include-subdomains  path  secure  expires
/// name  value`; `#HttpOnly_` before the domain marks an HttpOnly cookie; other `#` lines and
/// blank lines are comments.
fn parse_netscape(text: &str) -> Result<Vec<Cookie>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        let (line, http_only) = match line.strip_prefix("#HttpOnly_") {
            Some(rest) => (rest, true),
            None => (line, false),
        };
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() < 7 {
            return Err(format!(
                "line {}: not a Netscape cookies.txt line (7 tab-separated fields: domain, include-subdomains, path, secure, expires, name, value), nor JSON",
                n + 1
            ));
        }
        let expires: f64 = f[4].trim().parse().map_err(|_| {
            format!(
                "line {}: expires `{}` is not a number of seconds",
                n + 1,
                f[4]
            )
        })?;
        out.push(Cookie {
            name: f[5].to_string(),
            value: f[6..].join("\t"),
            domain: f[0].to_string(),
            path: f[2].to_string(),
            expires: if expires <= 0.0 { -1.0 } else { expires },
            http_only,
            secure: f[3].eq_ignore_ascii_case("TRUE"),
            same_site: None,
        });
    }
    if out.is_empty() {
        return Err("holds no cookie (Netscape cookies.txt lines or JSON expected)".into());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn netscape_cookies_read_as_curl_writes_them() {
        let c = parse_netscape(
            "# Netscape HTTP Cookie File\n\n.example.com\tTRUE\t/\tFALSE\t0\tsid\tabc\n#HttpOnly_example.org\tFALSE\t/a\tTRUE\t1999999999\ttok\tx y\n",
        )
        .unwrap();
        assert_eq!(c.len(), 2);
        assert_eq!((c[0].domain.as_str(), c[0].expires), (".example.com", -1.0));
        assert!(c[1].http_only && c[1].secure);
        assert_eq!(c[1].value, "x y");
        let e = parse_netscape("example.com TRUE / FALSE 0 sid abc").unwrap_err();
        assert!(e.contains("line 1"), "{e}");
    }

    #[test]
    fn cookie_files_in_json_and_storage_states_load() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("c.json");
        std::fs::write(&p, r#"[{"name":"a","value":"1","domain":"example.com"}]"#).unwrap();
        assert_eq!(load_cookies(&p).unwrap()[0].name, "a");
        std::fs::write(
            &p,
            r#"{"cookies":[{"name":"b","value":"2","domain":"x.org","path":"/"}],"origins":[]}"#,
        )
        .unwrap();
        assert_eq!(load_cookies(&p).unwrap()[0].name, "b");
        assert_eq!(load_storage_state(&p).unwrap().cookies.len(), 1);
        std::fs::write(&p, "{nope").unwrap();
        let e = load_storage_state(&p).unwrap_err().to_string();
        assert!(e.contains("storageState") && e.contains("c.json"), "{e}");
        let e = load_cookies(&dir.path().join("missing.txt"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("missing.txt"), "{e}");
    }
}
