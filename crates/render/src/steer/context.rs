//! A page's own browser context: where a page with a session of its own renders (cookies, a
//! storage state, headers, a user agent, a locale, a time zone, a phone).
//!
//! Tabs are reused page after page and `serve` renders different users' pages in one browser,
//! whose default context shares its cookies, storage and HTTP cache between all its tabs. A
//! page whose plan [`Steer::has_session`] gets a fresh context (`Target.createBrowserContext`:
//! its own cookie jar, storage and cache) and a fresh tab in it, prepared before it loads
//! ([`prepare`]: cookies, localStorage, emulation) and closed with its context after it
//! ([`dispose`]); nothing of it is left for another page, and nothing of another page's is
//! there for it. The context takes the launch's proxy settings explicitly, so the egress proxy
//! decides its connections as it decides the default context's.

use std::time::Duration;

use chromiumoxide::cdp::browser_protocol::browser::BrowserContextId;
use chromiumoxide::cdp::browser_protocol::network::SetCookiesParams;
use chromiumoxide::cdp::browser_protocol::target::{
    CreateBrowserContextParams, CreateTargetParams, DisposeBrowserContextParams,
};
use chromiumoxide::{Browser, Page};

use super::{cookies, request, storage, Steer};
use crate::cdp;
use crate::error::BrowserError;
use crate::Error;

/// The proxy settings of the browser's launch (`--proxy-server`, `--proxy-bypass-list`),
/// given to each context created for a page.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ContextProxy {
    pub server: Option<String>,
    pub bypass: Option<String>,
}

impl ContextProxy {
    /// The proxy flags among a launch's Chromium flags (without leading dashes).
    pub(crate) fn from_args(args: &[String]) -> ContextProxy {
        let get = |flag: &str| {
            args.iter().rev().find_map(|a| {
                a.trim_start_matches('-')
                    .strip_prefix(flag)
                    .map(str::to_string)
            })
        };
        ContextProxy {
            server: get("proxy-server="),
            bypass: get("proxy-bypass-list="),
        }
    }
}

/// Open a fresh browser context and a tab in it (on `about:blank`).
pub(crate) async fn open(
    browser: &Browser,
    proxy: &ContextProxy,
    t: Duration,
) -> Result<(BrowserContextId, Page), Error> {
    let fail = |m: String| {
        Error::from(BrowserError::Cdp {
            input: "new tab".into(),
            phase: "opening the page's own browser context".into(),
            message: m,
            source: None,
        })
    };
    let p = CreateBrowserContextParams {
        proxy_server: proxy.server.clone(),
        proxy_bypass_list: proxy.bypass.clone(),
        ..Default::default()
    };
    let id = match cdp::within(t, browser.execute(p)).await {
        Ok(r) => r.result.browser_context_id,
        Err(f) => return Err(fail(f.to_string())),
    };
    let mut target = CreateTargetParams::new("about:blank");
    target.browser_context_id = Some(id.clone());
    match tokio::time::timeout(t, browser.new_page(target)).await {
        Ok(Ok(page)) => Ok((id, page)),
        r => {
            dispose(browser, &id, t).await;
            Err(fail(match r {
                Ok(Err(e)) => e.to_string(),
                _ => format!("no tab within {t:?}"),
            }))
        }
    }
}

/// Put the page's session in its fresh tab before it loads `target`: its cookies (and its
/// storage state's) for the target's own site, the storage state's localStorage of that site,
/// and the emulated identity (user agent, locale, time zone, phone).
pub(crate) async fn prepare(
    page: &Page,
    steer: &Steer,
    target: &str,
    input: &str,
    t: Duration,
) -> Result<(), Error> {
    let (set, dropped) = cookies::for_target(
        cookies::all(&steer.cookies, steer.storage_state.as_ref()),
        target,
    );
    if dropped > 0 {
        tracing::info!(
            "{input}: {dropped} cookie(s) of other sites than the target's left out (cookies go to the target's own site only)"
        );
    }
    if !set.is_empty() {
        let r = tokio::time::timeout(t, page.execute(SetCookiesParams::new(set))).await;
        match r {
            Ok(Ok(_)) => {}
            Ok(Err(e)) => {
                return Err(Error::Input {
                    input: input.into(),
                    message: format!(
                        "Chromium refused the page's cookies ({e}): check their names, domains and paths"
                    ),
                    source: None,
                })
            }
            Err(_) => {
                return Err(Error::Timeout {
                    input: input.into(),
                    phase: "setting the page's cookies".into(),
                    seconds: t.as_secs_f64(),
                })
            }
        }
    }
    if let Some(state) = &steer.storage_state {
        let origins = storage::origins_for(state, target);
        storage::seed_local_storage(page, &origins, input, t).await?;
    }
    request::emulate(page, steer, input, t).await
}

/// Close a page's browser context (and the tabs still in it).
pub(crate) async fn dispose(browser: &Browser, id: &BrowserContextId, t: Duration) {
    let r = tokio::time::timeout(
        t,
        browser.execute(DisposeBrowserContextParams::new(id.clone())),
    )
    .await;
    match r {
        Ok(Ok(_)) => {}
        Ok(Err(e)) => tracing::debug!("disposing a page's browser context failed: {e}"),
        Err(_) => tracing::debug!("disposing a page's browser context: no answer within {t:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_launchs_proxy_flags_are_found() {
        let p = ContextProxy::from_args(&[
            "js-flags=--x".into(),
            "proxy-server=http://127.0.0.1:3128".into(),
            "--proxy-bypass-list=<-loopback>".into(),
        ]);
        assert_eq!(p.server.as_deref(), Some("http://127.0.0.1:3128"));
        assert_eq!(p.bypass.as_deref(), Some("<-loopback>"));
        assert_eq!(ContextProxy::from_args(&[]), ContextProxy::default());
    }
}
