//! Sessions in Playwright's `storageState` JSON: loading one (`--storage-state FILE`: its
//! cookies and each origin's localStorage, put in the page's own browser context before the
//! page loads) and saving one (`--save-storage-state FILE`, written after the page and its
//! actions, atomically: a temporary file in the same folder renamed over the target).
//!
//! localStorage is seeded as Playwright seeds it: the page's fresh tab visits each origin
//! once, its document answered by the tab itself (`Fetch.fulfillRequest`, nothing goes to
//! the network), and sets the items there; then it goes back to `about:blank`.

use std::path::Path;
use std::time::Duration;

use chromiumoxide::cdp::browser_protocol::browser::BrowserContextId;
use chromiumoxide::cdp::browser_protocol::fetch::{
    DisableParams as FetchDisable, EnableParams as FetchEnable, EventRequestPaused,
    FulfillRequestParams, HeaderEntry, RequestPattern,
};
use chromiumoxide::cdp::browser_protocol::page::NavigateParams;
use chromiumoxide::cdp::browser_protocol::storage::GetCookiesParams;
use chromiumoxide::cdp::js_protocol::runtime::EvaluateParams;
use chromiumoxide::{Browser, Page};
use futures::StreamExt;

use super::cookies::{file_error, from_cdp, read};
use super::request::{on_site, site_of_url};
use super::{NameValue, OriginStorage, StorageState};
use crate::cdp;
use crate::error::BrowserError;
use crate::Error;

/// Read `--storage-state FILE`: Playwright's `storageState` JSON (`{"cookies": [...],
/// "origins": [{"origin": ..., "localStorage": [...]}]}`), as `context.storageState({path})`
/// writes it.
pub fn load_storage_state(path: &Path) -> Result<StorageState, Error> {
    let text = read(path, "storage state")?;
    parse_storage_state(&text).map_err(|m| file_error(path, "storage state", m))
}

fn parse_storage_state(text: &str) -> Result<StorageState, String> {
    let v: serde_json::Value = serde_json::from_str(text.trim_start_matches('\u{feff}'))
        .map_err(|e| format!("not valid JSON: {e}"))?;
    if !v.is_object() || !(v.get("cookies").is_some() || v.get("origins").is_some()) {
        return Err(
            "not a Playwright storageState: expected {\"cookies\": [...], \"origins\": [...]} (save one with context.storageState({path}) or --save-storage-state)".into(),
        );
    }
    serde_json::from_value(v).map_err(|e| format!("not a Playwright storageState: {e}"))
}

/// Write a storage state to `path` atomically (a temporary file beside it, then a rename),
/// as Playwright writes it (two-space indented JSON).
pub fn write_storage_state(path: &Path, state: &StorageState) -> Result<(), Error> {
    let out = |message: String, source: Option<std::io::Error>| Error::Output {
        path: path.display().to_string(),
        message,
        source: source.map(|e| Box::new(e) as _),
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let json = serde_json::to_string_pretty(state).expect("a storage state serializes");
    let mut tmp = tempfile::Builder::new()
        .prefix(".storage-state-")
        .tempfile_in(dir)
        .map_err(|e| {
            out(
                format!(
                    "--save-storage-state: cannot create a file in {}: {e}",
                    dir.display()
                ),
                Some(e),
            )
        })?;
    use std::io::Write;
    tmp.write_all(json.as_bytes())
        .and_then(|_| tmp.flush())
        .map_err(|e| out(format!("--save-storage-state: {e}"), Some(e)))?;
    tmp.persist(path)
        .map_err(|e| out(format!("--save-storage-state: {}", e.error), Some(e.error)))?;
    Ok(())
}

/// The origins of a storage state whose localStorage the page at `target` gets: those of the
/// target's own site, with items.
pub(crate) fn origins_for<'a>(state: &'a StorageState, target: &str) -> Vec<&'a OriginStorage> {
    let Some(site) = site_of_url(target) else {
        return Vec::new();
    };
    state
        .origins
        .iter()
        .filter(|o| !o.local_storage.is_empty() && on_site(&o.origin, &site))
        .collect()
}

/// The empty document each origin is visited with while its localStorage is set.
const BLANK_DOCUMENT: &str = "<!doctype html><title></title>";

/// Set each origin's localStorage in the context of `page` (a fresh tab of the page's own
/// context, before its request policy is installed): visit the origin with a document the
/// tab answers itself, set the items, and go back to `about:blank`.
pub(crate) async fn seed_local_storage(
    page: &Page,
    origins: &[&OriginStorage],
    input: &str,
    t: Duration,
) -> Result<(), Error> {
    if origins.is_empty() {
        return Ok(());
    }
    let fail = |m: cdp::Failure| {
        Error::from(BrowserError::Cdp {
            input: input.into(),
            phase: "loading the storage state's localStorage".into(),
            message: m.to_string(),
            source: None,
        })
    };
    let mut paused = page
        .event_listener::<EventRequestPaused>()
        .await
        .map_err(|e| fail(cdp::Failure::Cdp(e)))?;
    let pattern = RequestPattern {
        url_pattern: Some("*".into()),
        resource_type: None,
        request_stage: None,
    };
    cdp::within(
        t,
        page.execute(FetchEnable {
            patterns: Some(vec![pattern]),
            handle_auth_requests: None,
        }),
    )
    .await
    .map_err(fail)?;
    // Every request of this tab meanwhile is answered with the empty document.
    let pg = page.clone();
    let answer = tokio::spawn(async move {
        use base64::Engine;
        let body = base64::engine::general_purpose::STANDARD.encode(BLANK_DOCUMENT);
        while let Some(ev) = paused.next().await {
            let mut p = FulfillRequestParams::new(ev.request_id.clone(), 200);
            p.response_headers = Some(vec![HeaderEntry::new(
                "Content-Type",
                "text/html; charset=utf-8",
            )]);
            p.body = Some(body.clone().into());
            let _ = pg.execute(p).await;
        }
    });
    let r = async {
        for o in origins {
            let url = format!("{}/", o.origin.trim_end_matches('/'));
            cdp::within(t, page.goto(NavigateParams::new(url.clone()))).await?;
            let items = serde_json::to_string(&o.local_storage).expect("items serialize");
            let js = format!(
                "(() => {{ for (const {{name, value}} of {items}) localStorage.setItem(name, value); return location.origin; }})()"
            );
            cdp::within(t, page.execute(EvaluateParams::new(js))).await?;
        }
        cdp::within(t, page.goto(NavigateParams::new("about:blank"))).await?;
        Ok::<(), cdp::Failure>(())
    }
    .await;
    let _ = cdp::within(t, page.execute(FetchDisable::default())).await;
    answer.abort();
    r.map_err(fail)
}

/// Reads the page's own origin's localStorage (all of it, in key order).
const READ_LOCAL_STORAGE: &str = r#"(() => {
  try {
    const s = window.localStorage, out = [];
    for (let i = 0; i < s.length; i++) { const k = s.key(i); out.push({ name: k, value: s.getItem(k) }); }
    return JSON.stringify({ origin: location.origin, items: out });
  } catch (e) { return JSON.stringify({ origin: location.origin, items: [] }); }
})()"#;

/// The storage state of a page's own browser context after the page: every cookie of the
/// context, the localStorage of the page's origin (read from the page), and the other origins
/// of the state it was loaded with, as they were.
pub(crate) async fn capture(
    browser: &Browser,
    context: &BrowserContextId,
    page: &Page,
    loaded: Option<&StorageState>,
    input: &str,
    t: Duration,
) -> Result<StorageState, Error> {
    let fail = |m: cdp::Failure| {
        Error::from(BrowserError::Cdp {
            input: input.into(),
            phase: "reading the page's cookies and localStorage".into(),
            message: m.to_string(),
            source: None,
        })
    };
    let p = GetCookiesParams {
        browser_context_id: Some(context.clone()),
    };
    let cookies = cdp::within(t, browser.execute(p))
        .await
        .map_err(fail)?
        .result
        .cookies;
    let r = cdp::within(t, page.execute(EvaluateParams::new(READ_LOCAL_STORAGE)))
        .await
        .map_err(fail)?;
    #[derive(serde::Deserialize)]
    struct Read {
        origin: String,
        items: Vec<NameValue>,
    }
    let read: Option<Read> = r
        .result
        .result
        .value
        .and_then(|v| v.as_str().map(str::to_string))
        .and_then(|s| serde_json::from_str(&s).ok());
    let mut origins: Vec<OriginStorage> = loaded
        .map(|s| s.origins.clone())
        .unwrap_or_default()
        .into_iter()
        .filter(|o| read.as_ref().is_none_or(|r| r.origin != o.origin))
        .collect();
    if let Some(r) = read.filter(|r| r.origin != "null" && !r.items.is_empty()) {
        origins.push(OriginStorage {
            origin: r.origin,
            local_storage: r.items,
        });
    }
    Ok(StorageState {
        cookies: cookies.iter().map(from_cdp).collect(),
        origins,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_storage_state_file_is_checked_for_its_shape() {
        let s = parse_storage_state(
            r#"{"cookies":[],"origins":[{"origin":"http://127.0.0.1:8080","localStorage":[{"name":"k","value":"v"}]}]}"#,
        )
        .unwrap();
        assert_eq!(s.origins[0].local_storage[0].name, "k");
        assert!(parse_storage_state("[]")
            .unwrap_err()
            .contains("storageState"));
        assert!(parse_storage_state("{").unwrap_err().contains("JSON"));
    }

    #[test]
    fn a_saved_state_is_written_whole_and_reads_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.json");
        std::fs::write(&path, "old").unwrap();
        let s = StorageState {
            cookies: vec![super::super::cookies::parse_cookie("a=1").unwrap()],
            origins: vec![],
        };
        write_storage_state(&path, &s).unwrap();
        let back = load_storage_state(&path).unwrap();
        assert_eq!(back, s);
        // Only the file itself is left in the folder.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        let e = write_storage_state(&dir.path().join("no/such/dir/s.json"), &s).unwrap_err();
        assert_eq!(e.kind(), "output");
        let e = load_storage_state(&dir.path().join("missing.json")).unwrap_err();
        assert!(e.to_string().contains("missing.json"), "{e}");
    }

    #[test]
    fn only_the_targets_site_gets_its_local_storage() {
        let s: StorageState = serde_json::from_str(
            r#"{"origins":[{"origin":"https://app.example.com","localStorage":[{"name":"k","value":"v"}]},
                           {"origin":"https://tracker.net","localStorage":[{"name":"t","value":"1"}]},
                           {"origin":"https://example.com","localStorage":[]}]}"#,
        )
        .unwrap();
        let o = origins_for(&s, "https://www.example.com/");
        assert_eq!(o.len(), 1);
        assert_eq!(o[0].origin, "https://app.example.com");
    }
}
