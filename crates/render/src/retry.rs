//! The attempts at one page: a retry after a crashed tab or a lost browser (a new navigation
//! with a deadline of its own, on a fresh tab, in a relaunched browser), and the renders that
//! may follow a successful one within its deadline: the unclosed-`<title>` repair and the
//! JavaScript-disabled fallback (a render that shows far less text than the page's HTML
//! holds, or whose scripts left nothing to snapshot).
//!
//! Last, the walls: a rate limit's `Retry-After` is waited out and the page rendered again
//! (within the page's deadline and [`Steer::max_retry_after`]), then the wall in front of
//! the content is recognised ([`sightline_core::walls::recognise`]): a `blocked` error when it leaves
//! none of the page, the `http` error of a status walls answer with when there is none.
//!
//! A policy over [`Renderer::render_once`], with no state of its own: what it reads of the
//! browser (its generation, whether it is gone) is the renderer's launcher.

use std::time::{Duration, Instant};

use super::checks;
use super::lane::{self, Lane, LaneParams, LaneReport, RenderMode};
use super::options::{local_html, repair_unclosed_title, Input, PageRender, RenderOptions};
use super::steer::Steer;
use super::tab::Rendered;
use super::tab_pool::OPENING_A_TAB;
use super::timings::Timings;
use super::Renderer;
use crate::error::BrowserError;
use crate::Error;
use sightline_core::walls;

/// How an attempt at a page ended: the page's result, or another attempt.
type Attempt = std::ops::ControlFlow<Result<Rendered, Error>>;

/// At most this many renders again after a `Retry-After`.
const RETRY_AFTER_TRIES: usize = 2;

/// The least time left of a page's deadline for a render that follows its first (the title
/// repair, the JavaScript-disabled fallback); with less, the first render stands.
const FOLLOW_UP_MIN: Duration = Duration::from_secs(1);

impl Renderer {
    /// One page: its attempts (a retry after a crash or a lost browser is a new navigation
    /// with a deadline of its own), and the renders that may follow a successful one (the
    /// title repair, the JavaScript-disabled fallback), which share its deadline.
    pub(super) async fn render_retrying(
        &self,
        input: &Input,
        page: &PageRender,
    ) -> (Result<Rendered, Error>, Timings) {
        let mut opts = self.opts.clone();
        if let Some(shot) = page.screenshot {
            opts.screenshot = shot;
        }
        opts.capture |= page.capture;
        if let Some(steer) = &page.steer {
            opts.steer = steer.clone();
        }
        let asked = opts.render;
        let chosen = match Self::lane_before(input, &mut opts) {
            Ok(c) => c,
            Err(e) => return (Err(e), Timings::default()),
        };
        let first = &opts;
        let mut retries = 0;
        loop {
            let started = Instant::now();
            let (used, r, timings) = self.render_once(input, first).await;
            let r = self
                .after_attempt(input, first, started, used, r, &mut retries)
                .await;
            match r {
                Attempt::Break(r) => {
                    let r = match r {
                        Ok(mut r) => {
                            if let Some(c) = &chosen {
                                r.render = Some(c.clone());
                            }
                            Ok(if asked == RenderMode::Auto {
                                self.static_fallback(input, r, first, started).await
                            } else {
                                r
                            })
                        }
                        Err(e) => Err(e),
                    };
                    return (self.walls(input, r, first, started).await, timings);
                }
                Attempt::Continue(()) => continue,
            }
        }
    }

    /// The lane settled before the render, into `opts.render`: a plan that waits, acts or
    /// scrolls a box needs scripts (`static` refuses it, `auto` renders it in full); `auto`
    /// decides a page given as a file or as HTML from its bytes ([`lane::choose`]), with
    /// nothing fetched. Returns the lane so chosen, for the record; None when the tab decides
    /// (a URL under `auto`, at its response) or nothing was chosen (`full`, `static`).
    fn lane_before(input: &Input, opts: &mut RenderOptions) -> Result<Option<LaneReport>, Error> {
        let steered = opts.steer.needs_scripts();
        match opts.render {
            RenderMode::Full => Ok(None),
            RenderMode::Static => match opts.check_plan(&opts.steer) {
                Ok(()) => Ok(None),
                Err(e) => Err(Error::Input {
                    input: input.name(),
                    message: format!("{} {}", e.flag(), e.message),
                    source: None,
                }),
            },
            RenderMode::Auto if steered => {
                opts.render = RenderMode::Full;
                Ok(Some(LaneReport::new(
                    Lane::Full,
                    "steered: the page's waits, actions or scroll box need its scripts",
                )))
            }
            RenderMode::Auto => {
                // A file (a path, or a file: URL, which the browser reads without a response
                // to hold) is decided from its bytes.
                let file_url = match input {
                    Input::Url(u) if u.starts_with("file:") => url::Url::parse(u)
                        .ok()
                        .and_then(|u| u.to_file_path().ok())
                        .and_then(|p| std::fs::read(p).ok()),
                    _ => None,
                };
                let (bytes, charset) = match (local_html(input), file_url) {
                    (Some(local), _) => local,
                    (None, Some(bytes)) => (bytes.into(), None),
                    (None, None) => return Ok(None),
                };
                let html = checks::decode(&bytes, charset);
                let c = lane::choose(200, "", &html, &LaneParams::default());
                opts.render = match c.lane {
                    Lane::Static => RenderMode::Static,
                    Lane::Full => RenderMode::Full,
                };
                Ok(Some(LaneReport::new(c.lane, c.reason)))
            }
        }
    }

    /// `auto`'s page rendered static that shows too little, a soft error or a wall
    /// ([`lane::after_static`]) is rendered again in full, within its deadline, its main
    /// document answered with the body the static render fetched; the full render is kept
    /// when it succeeds (its `render` says why, and `renders: 2`).
    async fn static_fallback(
        &self,
        input: &Input,
        r: Rendered,
        opts: &RenderOptions,
        started: Instant,
    ) -> Rendered {
        if r.render.as_ref().is_none_or(|l| l.mode != Lane::Static) {
            return r;
        }
        let params = LaneParams::default();
        let wp = walls::WallParams::default();
        let resp = walls::Response {
            status: r.status,
            headers: r.headers.clone(),
            html_text_chars: r.html_text_chars,
        };
        let wall = walls::recognise(&r.snapshot, &resp, &wp).map(|v| v.wall.kind);
        let shown = checks::snapshot_text_chars(&r.snapshot);
        let soft = r
            .html_text_chars
            .and_then(|html| walls::soft_error(&r.snapshot, html, &wp));
        let seen = lane::StaticShown {
            text_chars: shown,
            wall: wall.as_ref().map(|k| k.as_str()),
            soft_error: soft,
        };
        let Some(why) = lane::after_static(&seen, &params) else {
            return r;
        };
        let Some(mut full) = Self::follow_up(opts, started) else {
            tracing::debug!(
                "{}: {why}, but too little of the page's deadline is left to render it in full",
                input.name()
            );
            return r;
        };
        full.render = RenderMode::Full;
        full.fetched = r.fetched.clone();
        match self.render_once(input, &full).await.1 {
            Ok(mut again) => {
                tracing::info!("{}: {why}; rendered it in full", input.name());
                again.retries = r.retries;
                again.render = Some(LaneReport {
                    mode: Lane::Full,
                    reason: why,
                    renders: 2,
                });
                again
            }
            Err(e) => {
                tracing::debug!("{}: {why}; the full render failed: {e}", input.name());
                r
            }
        }
    }

    /// The walls of a rendered page (see the module's header): `Retry-After` waited out and
    /// the page rendered again, at most [`RETRY_AFTER_TRIES`] times; then the wall
    /// recognised. A wall that leaves none of the page is [`Error::Blocked`] unless
    /// [`Steer::accept_walls`]; one that leaves a lead is kept on [`Rendered::wall`].
    async fn walls(
        &self,
        input: &Input,
        r: Result<Rendered, Error>,
        opts: &RenderOptions,
        started: Instant,
    ) -> Result<Rendered, Error> {
        let mut r = r?;
        let steer: &Steer = &opts.steer;
        for _ in 0..RETRY_AFTER_TRIES {
            let resp = walls::Response {
                status: r.status,
                headers: r.headers.clone(),
                html_text_chars: r.html_text_chars,
            };
            let Some(secs) = resp
                .retry_after()
                .filter(|_| matches!(r.status, Some(429 | 503)))
            else {
                break;
            };
            let wait = Duration::from_secs_f64(secs);
            let left = (started + opts.timeout).saturating_duration_since(Instant::now());
            if wait > steer.max_retry_after || wait + FOLLOW_UP_MIN > left {
                tracing::info!(
                    "{}: status {:?} asks to retry after {secs} s, past --max-retry-after ({} s) or the page's deadline",
                    input.name(),
                    r.status,
                    steer.max_retry_after.as_secs_f64()
                );
                break;
            }
            tracing::info!(
                "{}: status {:?}; retrying after {secs} s as Retry-After asks",
                input.name(),
                r.status
            );
            tokio::time::sleep(wait).await;
            let Some(again) = Self::follow_up(opts, started) else {
                break;
            };
            let retries = r.retries;
            r = self.render_once(input, &again).await.1?;
            r.retries = retries;
        }
        let resp = walls::Response {
            status: r.status,
            headers: r.headers.clone(),
            html_text_chars: r.html_text_chars,
        };
        match walls::recognise(&r.snapshot, &resp, &walls::WallParams::default()) {
            Some(v) if v.blocking && !steer.accept_walls => Err(Error::Blocked {
                input: input.name(),
                wall: Box::new(v.wall),
            }),
            Some(v) => {
                if steer.accept_walls {
                    r.http_error = None;
                } else {
                    // The wall's own box (a subscription offer, a dialog) is not the page's
                    // content: the text is what it leaves free.
                    v.strip(&mut r.snapshot);
                }
                r.wall = Some(v.wall);
                Ok(r)
            }
            None => match r.http_error {
                Some(status) => Err(Error::Http {
                    input: input.name(),
                    status,
                }),
                None => Ok(r),
            },
        }
    }

    /// The options of a render that follows a successful one at `started`: the time left of
    /// that page's deadline, or None when less than [`FOLLOW_UP_MIN`] is left.
    fn follow_up(opts: &RenderOptions, started: Instant) -> Option<RenderOptions> {
        let left = (started + opts.timeout).saturating_duration_since(Instant::now());
        (left >= FOLLOW_UP_MIN).then(|| RenderOptions {
            timeout: left,
            ..opts.clone()
        })
    }

    /// What follows one attempt: the page (perhaps re-rendered), its error, or a retry.
    async fn after_attempt(
        &self,
        input: &Input,
        opts: &RenderOptions,
        started: Instant,
        used: Option<u64>,
        r: Result<Rendered, Error>,
        retries: &mut u32,
    ) -> Attempt {
        // The attempt's browser is gone if another page already replaced it, or if it does
        // not answer now.
        let gone = match &r {
            Ok(_) => false,
            Err(e) => {
                used.is_some_and(|g| g != self.browser.generation())
                    || self.browser.probe_gone(e).await
            }
        };
        match r {
            Ok(mut r) => {
                r.retries = *retries;
                if let Some(fixed) = repair_unclosed_title(input, &r.snapshot) {
                    if let Some(left) = Self::follow_up(opts, started) {
                        tracing::info!("{}: the page's <title> is never closed; rendering it with the title closed", input.name());
                        let (_, again, _) = self.render_once(&fixed, &left).await;
                        if let Ok(mut again) = again {
                            again.repaired = Some("unclosed <title>".into());
                            return Attempt::Break(Ok(again));
                        }
                    }
                }
                Attempt::Break(Ok(self.javascript_fallback(input, r, opts, started).await))
            }
            // The page's scripts left nothing to walk (the root element removed, a document
            // emptied): try the page as its HTML has it, with JavaScript off.
            Err(e @ (Error::Script { .. } | Error::Snapshot { .. }))
                if opts.javascript && !gone =>
            {
                let again = match Self::follow_up(opts, started) {
                    Some(left) => Some(self.render_without_js(input, &left).await),
                    None => None,
                };
                Attempt::Break(match again {
                    Some(Ok(mut again)) if checks::snapshot_text_chars(&again.snapshot) > 0 => {
                        tracing::info!(
                            "{}: {e}; using the render with JavaScript disabled",
                            input.name()
                        );
                        again.retries = *retries;
                        Ok(again)
                    }
                    _ => Err(e),
                })
            }
            Err(e) => {
                // A tab that could not be opened in time (a loaded machine) gets one more try
                // too: nothing of the page ran yet. One that failed on a browser that died a
                // moment ago is `gone` (its generation is the dead browser's).
                let retryable = BrowserError::is_crashed(&e)
                    || BrowserError::is_gone(&e)
                    || matches!(&e, Error::Timeout { phase, .. } if phase == OPENING_A_TAB)
                    || gone;
                if *retries == 0 && retryable {
                    tracing::warn!("{}: {e}; retrying once on a fresh tab", input.name());
                    *retries += 1;
                    return Attempt::Continue(());
                }
                Attempt::Break(Err(if gone && !BrowserError::is_gone(&e) {
                    Error::from(BrowserError::BrowserGone {
                        message: e.to_string(),
                    })
                } else {
                    e
                }))
            }
        }
    }

    /// The page rendered once more with script execution off, marked `"disabled-fallback"`:
    /// the one fallback render for both a render that shows too little and one whose scripts
    /// left nothing to snapshot.
    async fn render_without_js(
        &self,
        input: &Input,
        opts: &RenderOptions,
    ) -> Result<Rendered, Error> {
        let mut off = opts.clone();
        off.javascript = false;
        let mut again = self.render_once(input, &off).await.1?;
        again.javascript = Some("disabled-fallback".into());
        Ok(again)
    }

    /// When the render shows far less text than the page's HTML holds (a script-built wall
    /// replaced the article, or the script that inserts it never ran and only `<noscript>`
    /// or a template holds it), render the page once more with JavaScript disabled and keep
    /// that snapshot if it shows much more text ([`checks::needs_js_fallback`],
    /// [`checks::fallback_is_better`]); `Rendered::javascript` then says
    /// `"disabled-fallback"`.
    async fn javascript_fallback(
        &self,
        input: &Input,
        mut r: Rendered,
        opts: &RenderOptions,
        started: Instant,
    ) -> Rendered {
        let decoded_as = r.snapshot.charset.as_str();
        let misread_possible = !decoded_as.is_empty() && !decoded_as.eq_ignore_ascii_case("utf-8");
        if r.html_text_chars.is_none() || misread_possible {
            if let Some((bytes, charset)) = local_html(input) {
                // A file given without --charset, decoded as its own `<meta charset>` says,
                // whose bytes are UTF-8: extracted as a browser shows it, and said.
                if misread_possible
                    && matches!(input, Input::File(_))
                    && sightline_core::charset::is_utf8_text(&bytes)
                {
                    tracing::warn!(
                        "{}: Chromium read it as {decoded_as}, as the page declares, but its bytes are UTF-8; if the text looks garbled, pass --charset utf-8",
                        input.name()
                    );
                }
                if r.html_text_chars.is_none() {
                    r.html_text_chars =
                        Some(checks::html_text_chars(&checks::decode(&bytes, charset)));
                }
            }
        }
        let Some(html) = r.html_text_chars else {
            return r;
        };
        if r.render.as_ref().is_some_and(|l| l.mode == Lane::Static) {
            // A static render ran no scripts: `auto`'s own fallback decides
            // (`static_fallback`).
            return r;
        }
        if opts.steer.steers_page() {
            // The page the plan waited for or acted on is not the one a render without
            // scripts shows (its waits would not hold, its actions not work).
            return r;
        }
        let shown = checks::snapshot_text_chars(&r.snapshot);
        let soft = walls::soft_error(&r.snapshot, html, &walls::WallParams::default());
        if !checks::needs_js_fallback(shown, html) && soft.is_none() {
            return r;
        }
        // A script's error message in place of the article: kept as the page's soft error
        // unless the render with JavaScript disabled does better.
        r.soft_error = soft.map(|w| {
            format!("the render shows \"{w}\" ({shown} of the HTML's {html} characters of text)")
        });
        let Some(left) = Self::follow_up(opts, started) else {
            tracing::debug!(
                "{}: the render shows {shown} of the HTML's {html} characters of text, but too little of the page's deadline is left for a render with JavaScript disabled",
                input.name()
            );
            return r;
        };
        let again = self.render_without_js(input, &left).await;
        if let Ok(a) = &again {
            tracing::debug!(
                "{}: the render shows {shown} of the HTML's {html} characters of text; with JavaScript disabled, {}",
                input.name(),
                checks::snapshot_text_chars(&a.snapshot)
            );
        }
        match again {
            Ok(mut again)
                if checks::fallback_is_better(
                    shown,
                    checks::snapshot_text_chars(&again.snapshot),
                ) =>
            {
                tracing::info!(
                    "{}: the render showed {shown} of the HTML's {html} characters of text; using the render with JavaScript disabled",
                    input.name()
                );
                again.retries = r.retries;
                again.repaired = r.repaired.take();
                again.dialogs += r.dialogs;
                again.blocked_requests += r.blocked_requests;
                again.blocked_navigations += r.blocked_navigations;
                again.skipped_requests.add(&r.skipped_requests);
                again
            }
            Ok(_) => r,
            Err(e) => {
                tracing::debug!(
                    "{}: the JavaScript-disabled render failed: {e}",
                    input.name()
                );
                r
            }
        }
    }
}
