//! The navigate phase: script execution switched as the page asks, `Page.navigate` to the
//! page's URL, and the wait for `load`, which ends early with the main document's fault (HTTP
//! error status, not HTML, connection refused or reset) as soon as the event task finds one,
//! or with the page captured as it is when the deadline passes or `--offline` refused a
//! navigation away. Then the main document's body, read while the page settles.

use std::time::{Duration, Instant};

use chromiumoxide::cdp::browser_protocol::emulation::SetScriptExecutionDisabledParams;
use chromiumoxide::cdp::browser_protocol::page::NavigateParams;
use chromiumoxide::cdp::js_protocol::runtime::EvaluateParams;
use chromiumoxide::error::CdpError;

use super::config::TabConfig;
use super::{same_document_url, spawn_body_read, Bounded, Fault, Tab};
use crate::cdp;
use crate::checks;
use crate::error::BrowserError;
use crate::Error;

/// Run after loading a page with JavaScript disabled: each `<noscript>` becomes a
/// `<div data-sightline-noscript>` holding its children, so the snapshot, which skips
/// `noscript`, sees what a browser without scripts shows. A `<noscript>` holding only text
/// has that text parsed as HTML (in an inert `<template>`): a page saved by a serializer that
/// escapes `<noscript>` content (`&lt;img …&gt;`, as some of the bench's saved pages) would
/// otherwise show its markup as words; plain text parses to itself.
const NOSCRIPT_UNWRAP_JS: &str = r#"(() => {
  let n = 0;
  if (!document.body) return 0;
  for (const ns of Array.from(document.body.querySelectorAll("noscript"))) {
    const d = document.createElement("div");
    d.setAttribute("data-sightline-noscript", "");
    const raw = ns.childNodes.length > 0 &&
      Array.from(ns.childNodes).every((c) => c.nodeType === Node.TEXT_NODE);
    if (raw) {
      const t = document.createElement("template");
      t.innerHTML = ns.textContent;
      d.appendChild(t.content);
    } else {
      while (ns.firstChild) d.appendChild(ns.firstChild);
    }
    ns.replaceWith(d);
    n++;
  }
  return n;
})()"#;

/// How long a page whose `load` did not come by the deadline may take to answer whether it
/// is alive (a page that answers is captured as it is; one that does not is a `timeout`).
const ALIVE_CHECK: Duration = Duration::from_millis(500);

/// After the main document's fault, how long navigation may take to report its end.
const FAULT_SETTLE: Duration = Duration::from_secs(1);

/// After `--offline` refused a navigation away that a script started before `load`, how long
/// the page's own `load` is still waited for. Chromium stops loading a document (its parser
/// included) when a script starts a navigation away, and the refused navigation never ends
/// for chromiumoxide, so `load` would otherwise be waited for until the deadline.
const REFUSED_NAV_GRACE: Duration = Duration::from_millis(500);

/// How the wait for `load` ended, when it did not end with `Page.navigate`'s answer.
enum Cut {
    /// `--offline` refused a navigation away that a script started before `load`, and
    /// `load` did not follow at once.
    Refused,
    /// The event task found the main document's fault; whether `Page.navigate` answered
    /// soon after.
    Fault(Fault, bool),
    /// The static lane: the document is all here and the network quiet for
    /// [`STATIC_QUIET`], and `load` has not come (a frame whose `javascript:` URL never runs
    /// with scripts off holds it back for good).
    StaticQuiet,
}

/// In the static lane, the document all here and no request for this long ends the wait for
/// `load`: what `load` would still wait for there is nothing a snapshot needs.
const STATIC_QUIET: Duration = Duration::from_millis(300);

/// After [`Cut::StaticQuiet`], how long the parser may still take to finish the document.
const STATIC_PARSE_WAIT: Duration = Duration::from_secs(2);

impl Tab {
    /// The navigate phase, in order: [`Tab::switch_javascript`] as `opts.javascript` asks,
    /// [`Tab::go`] to `url` and wait for `load`, then what the wait's end means:
    /// [`Tab::after_refused`] (a navigation away refused), the fault's error,
    /// [`Tab::after_load`], [`Tab::after_nav_error`] or [`Tab::after_load_timeout`]. Returns
    /// whether the deadline passed before `load` (the page is then captured as it is).
    pub(super) async fn navigate(
        &mut self,
        input: &str,
        url: &str,
        opts: &TabConfig,
        deadline: Instant,
    ) -> Result<bool, Error> {
        self.switch_javascript(input, opts).await?;
        let went = self.go(url, deadline).await;
        if self.state.lock().seen.scripts_off_by_lane {
            // `auto` chose the static lane at the response and switched scripts off.
            self.js_disabled = true;
        }
        match went {
            Err(Cut::Refused) => self.after_refused(input, opts).await,
            Err(Cut::StaticQuiet) => self.after_static_quiet(input).await,
            Err(Cut::Fault(f, ended)) => {
                if ended {
                    self.reset_after_error(opts).await;
                } else {
                    self.healthy = false;
                }
                Err(f.error(input))
            }
            Ok(Bounded::Crashed) => {
                self.healthy = false;
                Err(Error::from(BrowserError::Crashed {
                    input: input.into(),
                }))
            }
            Ok(Bounded::Done(Ok(()))) => self.after_load(input, opts).await,
            Ok(Bounded::Done(Err(e))) => self.after_nav_error(input, opts, e).await,
            Ok(Bounded::TimedOut) => self.after_load_timeout(input, url, opts).await,
        }
    }

    /// Switch script execution as `opts.javascript` asks, when the tab's differs (a tab whose
    /// switch failed is not reused).
    async fn switch_javascript(&mut self, input: &str, opts: &TabConfig) -> Result<(), Error> {
        if self.js_disabled == opts.javascript {
            let r = cdp::execute(
                &self.page,
                input,
                "switching JavaScript",
                opts.command_timeout,
                SetScriptExecutionDisabledParams::new(!opts.javascript),
            )
            .await;
            if r.is_err() {
                self.healthy = false;
            }
            r?;
            self.js_disabled = !opts.javascript;
        }
        Ok(())
    }

    /// `Page.navigate` to `url`, waited for until `load`, the deadline or a crash; cut short
    /// by a navigation away that `--offline` refused, or by the main document's fault.
    async fn go(&self, url: &str, deadline: Instant) -> Result<Bounded<Result<(), CdpError>>, Cut> {
        let state = self.state.clone();
        let fault = async move {
            loop {
                if let Some(f) = state.lock().seen.fault.clone() {
                    return f;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        };
        let state = self.state.clone();
        let refused = async move {
            loop {
                if state.lock().seen.blocked_navigations > 0 {
                    return;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        };
        let state = self.state.clone();
        let static_quiet = async move {
            loop {
                tokio::time::sleep(Duration::from_millis(50)).await;
                let s = state.lock();
                if super::lane::is_static(&s)
                    && s.seen.main_finished
                    && s.seen.inflight.is_empty()
                    && s.seen.last_net.is_some_and(|t| t.elapsed() >= STATIC_QUIET)
                {
                    return;
                }
            }
        };
        let goto = self.bounded(deadline.saturating_duration_since(Instant::now()), async {
            self.page.goto(NavigateParams::new(url)).await.map(drop)
        });
        tokio::pin!(goto);
        tokio::select! {
            r = &mut goto => Ok(r),
            _ = refused => {
                // A script navigated away before `load` and --offline refused it: the
                // page is captured as it is if `load` does not follow at once.
                match tokio::time::timeout(REFUSED_NAV_GRACE, &mut goto).await {
                    Ok(r) => Ok(r),
                    Err(_) => Err(Cut::Refused),
                }
            }
            _ = static_quiet => Err(Cut::StaticQuiet),
            f = fault => {
                // Page.navigate usually answers soon after. Dropped unanswered, it would
                // leave chromiumoxide waiting on that navigation and the tab's next one
                // behind it: such a tab is replaced instead of reused.
                let ended = tokio::time::timeout(FAULT_SETTLE, &mut goto).await.is_ok();
                Err(Cut::Fault(f, ended))
            }
        }
    }

    /// A script navigated away before `load` and `--offline` refused it: the page is
    /// captured as it is. The tab is replaced after this page: chromiumoxide still waits on
    /// the refused navigation, and the tab's next one would wait behind it.
    async fn after_refused(&mut self, input: &str, opts: &TabConfig) -> Result<bool, Error> {
        tracing::debug!(
            "{input}: a script navigated away before load (refused); capturing the page as it is"
        );
        self.healthy = false;
        if self.shows_left_page(opts).await {
            return Err(Error::Navigation {
                input: input.into(),
                message: "a script navigated away before the page loaded (refused), and the tab still showed the previous page".into(),
            });
        }
        self.start_body_read();
        self.finish_body_read(input).await?;
        Ok(true)
    }

    /// The static lane's page is all here but `load` never came ([`Cut::StaticQuiet`]): the
    /// page is captured as it is, its `<noscript>` shown, after the main document's fault if
    /// there is one. The tab is replaced after this page: chromiumoxide still waits on the
    /// navigation.
    async fn after_static_quiet(&mut self, input: &str) -> Result<bool, Error> {
        tracing::debug!("{input}: static lane: the page is here and quiet, but no load event; capturing it as it is");
        self.healthy = false;
        if let Some(f) = self.fault() {
            return Err(f.error(input));
        }
        self.start_body_read();
        self.finish_body_read(input).await?;
        // The parser may still be at work on a large document: its end is waited for (at
        // most STATIC_PARSE_WAIT).
        let parsed = async {
            loop {
                let r = self
                    .page
                    .execute(EvaluateParams::new("document.readyState"))
                    .await;
                match r {
                    Ok(r)
                        if r.result.result.value.as_ref().and_then(|v| v.as_str())
                            == Some("loading") =>
                    {
                        tokio::time::sleep(Duration::from_millis(50)).await
                    }
                    _ => return,
                }
            }
        };
        let _ = tokio::time::timeout(STATIC_PARSE_WAIT, parsed).await;
        let _ = tokio::time::timeout(
            ALIVE_CHECK,
            self.page.execute(EvaluateParams::new(NOSCRIPT_UNWRAP_JS)),
        )
        .await;
        Ok(true)
    }

    /// `load` came: the main document's fault if the event task found one; else its body is
    /// read while the page settles, and with scripts off its `<noscript>` content shown.
    async fn after_load(&mut self, input: &str, opts: &TabConfig) -> Result<bool, Error> {
        if let Some(f) = self.fault() {
            self.reset_after_error(opts).await;
            return Err(f.error(input));
        }
        // Read while the page settles; checked after the settle.
        self.start_body_read();
        if !opts.javascript || super::lane::is_static(&self.state.lock()) {
            // The snapshot skips <noscript> (with scripts on, it never shows); with scripts
            // off its content is the page's: unwrap it.
            cdp::execute(
                &self.page,
                input,
                "showing <noscript> content",
                opts.command_timeout,
                EvaluateParams::new(NOSCRIPT_UNWRAP_JS),
            )
            .await?;
        }
        Ok(false)
    }

    /// `Page.navigate` failed: the main document's fault if the event task found one, a
    /// crash if the tab is lost, else a `navigation` error with the browser's message.
    async fn after_nav_error(
        &mut self,
        input: &str,
        opts: &TabConfig,
        e: CdpError,
    ) -> Result<bool, Error> {
        let msg = e.to_string();
        if let Some(f) = self.fault() {
            self.reset_after_error(opts).await;
            return Err(f.error(input));
        }
        if self.lost(&msg).await {
            return Err(Error::from(BrowserError::Crashed {
                input: input.into(),
            }));
        }
        self.reset_after_error(opts).await;
        Err(Error::Navigation {
            input: input.into(),
            message: msg,
        })
    }

    /// No `load` before the deadline. A page stuck in a script cannot be snapshot, nor one
    /// whose document never arrived whole; a page waiting on a slow resource is captured as
    /// it is. Either way the tab is replaced after this page.
    async fn after_load_timeout(
        &mut self,
        input: &str,
        url: &str,
        opts: &TabConfig,
    ) -> Result<bool, Error> {
        if self.crashed() {
            self.healthy = false;
            return Err(Error::from(BrowserError::Crashed {
                input: input.into(),
            }));
        }
        let timed_out = |phase: &str| Error::Timeout {
            input: input.into(),
            phase: phase.into(),
            seconds: opts.timeout.as_secs_f64(),
        };
        // The server never answered, never finished the document, or dribbles it: there is
        // no page to capture, and chromiumoxide still waits on the navigation (the tab's next
        // one would queue behind it): the tab is replaced.
        if self.state.lock().main_document_incomplete() {
            self.healthy = false;
            return Err(timed_out(
                "loading the page (the server did not send the whole document)",
            ));
        }
        let alive = tokio::time::timeout(
            ALIVE_CHECK,
            self.page.execute(EvaluateParams::new("location.href")),
        )
        .await;
        let href = match &alive {
            Ok(Ok(r)) => r.result.result.value.clone(),
            _ => None,
        };
        if !matches!(alive, Ok(Ok(_))) {
            // Stuck in a script: the deadline passed, so no recovery here; the pool replaces
            // the tab.
            self.healthy = false;
            return Err(timed_out("loading the page"));
        }
        if (href.as_ref().and_then(|v| v.as_str()) == Some("about:blank")
            && !same_document_url(url, "about:blank"))
            || self.shows_left_page(opts).await
        {
            // The page's document never arrived: the tab still shows the blank page it
            // waited on, or the previous page. chromiumoxide still waits on the navigation,
            // so the tab is replaced.
            self.healthy = false;
            return Err(timed_out("loading the page"));
        }
        // The page is captured as it is, but chromiumoxide still waits for its `load` (up to
        // 30 s) and would queue the tab's next navigation behind it: that page's own deadline
        // would pass with this page still in the tab. The tab is replaced after this page.
        self.healthy = false;
        Ok(true)
    }

    /// After a successful navigation: start reading the main document's body
    /// (Network.getResponseBody) while the page settles; [`Tab::finish_body_read`] checks it.
    /// The read usually started already, when the document finished loading (the event task
    /// starts it at the main request's `Network.loadingFinished`, before `load`).
    pub(super) fn start_body_read(&mut self) {
        let mut s = self.state.lock();
        if s.seen.body.is_some() || s.seen.pdf_view.is_some() {
            return;
        }
        let Some(id) = s.seen.main_request.clone() else {
            return;
        };
        s.seen.body = Some(spawn_body_read(self.page.clone(), id, s.rules.body_limit));
    }

    /// The main document's body read by [`Tab::start_body_read`]: sniff binary bodies served
    /// as HTML ([`checks::sniff_binary`], a content-type error) and keep the HTML's text size
    /// for the JavaScript-disabled fallback.
    pub(super) async fn finish_body_read(&mut self, input: &str) -> Result<(), Error> {
        let Some(h) = self.state.lock().seen.body.take() else {
            return Ok(());
        };
        if self.state.lock().seen.pdf_view.is_some() {
            // The page laid out from a PDF (tab/pdf.rs): its HTML is sightline's.
            h.abort();
            return Ok(());
        }
        let Ok(Some((bytes, base64_encoded))) = h.await else {
            return Ok(());
        };
        if let Some(problem) = checks::sniff_binary(&bytes) {
            return Err(Fault::ContentType(problem).error(input));
        }
        let mut s = self.state.lock();
        let charset = if base64_encoded {
            s.seen.main_charset.clone()
        } else {
            Some("utf-8".into())
        };
        s.seen.html = Some((bytes, charset));
        Ok(())
    }
}
