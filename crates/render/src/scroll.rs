//! The scroll phase: content that loads as you scroll (lazy images, IntersectionObserver
//! sections, infinite lists) is brought in before the snapshot.
//!
//! Phases: probe (document height, viewport, scroll hints) → skip when the document fits the
//! viewport or the page shows no sign of loading on scroll → scroll down one viewport at a
//! time, letting each step settle briefly (the settle rule of `settle.rs` with a short timer
//! horizon) → stop at the bottom or at a bound (`--max-scroll-px`, `--max-scroll-steps`,
//! `--max-scroll-ms`, the page deadline) → return to the top.
//!
//! Each step waits for the page to render two frames at the new position (IntersectionObserver
//! callbacks run in a frame), however long a heavy page takes to render one, up to
//! [`FRAME_WAIT`]: a step that moved on before a frame rendered would never show the page
//! that position.
//!
//! Steps that bring nothing end the phase early: after [`IDLE_STEPS`] steps in a row that added
//! no text to the document (the before-page script counts the text of inserted nodes) and did
//! not make it taller, the page is scrolled once straight to the bottom of what may be scrolled
//! (where comment sections and "load more" sentinels sit); if that brings nothing either, the
//! phase stops (`no-new-content`). On pages whose IntersectionObserver only swaps images and
//! backgrounds in, scrolling the whole page cost up to the time budget and brought no text.
//!
//! The sign of loading on scroll, recorded by the before-page script, is a call to
//! `IntersectionObserver.observe` (how sections, infinite lists and most lazy loaders work).
//! Pages whose only signs are `scroll`/`wheel` listeners or `loading=lazy` images are not
//! scrolled by default (`--always-scroll` does): on the benchmark pages those listeners were
//! debounced UI handlers that made each step wait without bringing in text, and Chromium loads
//! lazy images near the viewport by itself (the images carry no text).

use std::time::{Duration, Instant};

use chromiumoxide::cdp::browser_protocol::page::BringToFrontParams;
use chromiumoxide::Page;
use serde::Serialize;

use super::settle;
use crate::cdp;
use crate::Error;

/// The front of a browser window, shared by the tabs of one browser. Pooled tabs share one
/// window and only its front tab renders frames (a tab behind it still reports itself
/// `visible`), so IntersectionObserver callbacks never run in the others: a tab holds this
/// while it scrolls, in front. Scrolling is rare (pages with observers only), so tabs seldom
/// wait for it.
pub(crate) type Front = std::sync::Arc<tokio::sync::Mutex<()>>;

/// Bounds of the scroll phase: the one declaration of the scroll settings. Their JSON form is
/// RenderOptions' `scroll` object (`{"enabled": false}`, `budget_ms` in milliseconds) and, with
/// the `clap` feature, their flags (`--no-scroll`, `--always-scroll`, `--max-scroll-px`,
/// `--max-scroll-steps`, `--max-scroll-ms`; the CLI flattens them through
/// [`RenderOptions`](crate::RenderOptions)).
#[derive(Debug, Clone, PartialEq, serde::Deserialize, Serialize, schemars::JsonSchema)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
#[serde(default, deny_unknown_fields)]
pub struct ScrollOptions {
    /// Scroll at all (`--no-scroll` turns it off).
    #[cfg_attr(
        feature = "clap",
        arg(
            id = "no_scroll",
            long = "no-scroll",
            action = clap::ArgAction::SetFalse,
            help = "Do not scroll before the snapshot. By default, a page taller than the viewport that registered an IntersectionObserver is scrolled down one viewport at a time, each step settling briefly (at most 600 ms), until the bottom or a bound, then back to the top; after two steps in a row that add no text, it jumps to the bottom once and stops there if that adds none either (`no-new-content`). The JSON record's `scroll` says how far and why it stopped"
        )
    )]
    pub enabled: bool,
    /// Never scroll further down than this, in CSS px (default 15,000).
    #[cfg_attr(
        feature = "clap",
        arg(
            id = "max_scroll_px",
            long = "max-scroll-px",
            default_value_t = 15_000,
            value_name = "PX",
            help = "Scroll no further down than this many CSS px"
        )
    )]
    pub max_px: u32,
    /// At most this many viewport steps (default 16).
    #[cfg_attr(
        feature = "clap",
        arg(
            id = "max_scroll_steps",
            long = "max-scroll-steps",
            default_value_t = 16,
            value_name = "N",
            help = "Scroll at most this many viewport steps"
        )
    )]
    pub max_steps: u32,
    /// Time budget for the whole phase (default 2.5 s; in JSON `budget_ms`, milliseconds).
    #[serde(rename = "budget_ms", with = "crate::settings::millis")]
    #[schemars(rename = "budget_ms", with = "u64")]
    #[cfg_attr(
        feature = "clap",
        arg(
            id = "max_scroll_ms",
            long = "max-scroll-ms",
            default_value = "2500",
            value_name = "MS",
            value_parser = crate::settings::millis_arg,
            help = "Time budget of the scroll phase in ms (infinite scroll never ends)"
        )
    )]
    pub budget: Duration,
    /// Scroll even when the page shows no sign of loading on scroll.
    #[cfg_attr(
        feature = "clap",
        arg(
            id = "always_scroll",
            long = "always-scroll",
            conflicts_with = "no_scroll",
            help = "Scroll every page taller than the viewport, also those without an IntersectionObserver (lazy loaders driven by scroll listeners)"
        )
    )]
    pub always: bool,
}

impl Default for ScrollOptions {
    fn default() -> Self {
        ScrollOptions {
            enabled: true,
            max_px: 15_000,
            max_steps: 16,
            budget: Duration::from_millis(2500),
            always: false,
        }
    }
}

/// What the scroll phase did (the record's `scroll` field).
#[derive(Debug, Clone, Default, Serialize, PartialEq, schemars::JsonSchema)]
pub struct ScrollReport {
    /// The deepest scroll position reached, in CSS px (0 when skipped).
    pub px: f64,
    /// Viewport steps taken.
    pub steps: u32,
    /// Why it stopped: `bottom` (reached the end of the document), `no-new-content` (steps
    /// brought no text, nor did a jump to the bottom), `max-scroll-px`, `max-scroll-steps`,
    /// `time-budget` (`--max-scroll-ms` or the page deadline); or why it did not scroll:
    /// `fits-viewport`, `no-scroll-hints`, `off`, `static` (the static lane, `--render`).
    pub stopped: String,
    /// The document height before and after scrolling, in CSS px.
    pub height_before: f64,
    pub height_after: f64,
    /// Steps after which the page rendered no frame within the step's wait (its
    /// IntersectionObserver callbacks may not have run); omitted when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub frameless_steps: u32,
    /// What was done to a scrolling box (`--scroll-container`, or the box holding most of
    /// the page's text among those that listen to their own scrolling): omitted when none
    /// was scrolled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub container: Option<ContainerReport>,
}

/// What was done to a scrolling box (the record's `scroll.container`; the gathering is
/// `steer/vlist.rs`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct ContainerReport {
    /// The box: the selector named, or the element found (`div.list`).
    pub selector: String,
    /// Found by itself (no `--scroll-container`).
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub found: bool,
    /// Steps scrolled.
    pub steps: u32,
    /// Rows seen (each once).
    pub rows: usize,
    /// Rows the list removed while it scrolled (a virtual list: more than 0).
    pub removed: usize,
    /// Every row seen was put back in the box, in order, un-clipped.
    pub restored: bool,
    /// Why it stopped: `bottom`, `no-new-content`, `max-steps`, `time-budget`, `gone`
    /// (the box left the page); or `not-found` (nothing matches the selector named),
    /// `not-scrollable`.
    pub stopped: String,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl ScrollReport {
    /// True when scrolling ended at a bound rather than at the bottom (or was skipped).
    pub fn bounded(&self) -> bool {
        matches!(
            self.stopped.as_str(),
            "max-scroll-px" | "max-scroll-steps" | "time-budget"
        )
    }
}

/// Document size, viewport, position and hints.
const MEASURE_JS: &str = r#"(() => {
  const de = document.documentElement, b = document.body;
  const h = Math.max(de ? de.scrollHeight : 0, b ? b.scrollHeight : 0);
  const sl = window.__sl;
  const hints = sl ? sl.observed : 0;
  return { height: h, viewport: window.innerHeight, y: window.scrollY, hints, added: sl ? sl.textAdded : 0 };
})()"#;

/// Scroll to Y instantly, then wait two animation frames (IntersectionObserver callbacks
/// run in a frame) or `__FRAME_WAIT__` ms when no frame comes (the tab holds its window's
/// front meanwhile, see [`Front`]), using the page's unwrapped
/// functions so the wait does not count as page activity; returns the measure and a settle
/// probe (`__PROBE__`) in one trip.
const STEP_JS: &str = r#"(async (y) => {
  const raw = (window.__sl && window.__sl.raw) || window;
  if (window.__sl) window.__sl.epoch++;
  window.scrollTo({ top: y, left: 0, behavior: "instant" });
  const framed = await new Promise((res) => {
    let done = false;
    const fin = (f) => { if (!done) { done = true; res(f); } };
    if (raw.requestAnimationFrame) raw.requestAnimationFrame.call(window, () => raw.requestAnimationFrame.call(window, () => fin(true)));
    raw.setTimeout.call(window, () => fin(false), __FRAME_WAIT__);
  });
  return { m: __MEASURE__, p: __PROBE__, framed };
})(__Y__)"#;

/// The measure and a settle probe, without scrolling.
const RECHECK_JS: &str = r#"({ m: __MEASURE__, p: __PROBE__, framed: true })"#;

/// A step waits this long at most for the page to render two frames at its new position
/// (a page renders no frame while a long task runs; a frame usually comes within 16-50 ms).
pub(crate) const FRAME_WAIT: Duration = Duration::from_millis(1000);
/// Steps in a row that bring no text (and do not make the page taller) before the phase
/// jumps to the bottom and, if that brings nothing either, stops.
pub(crate) const IDLE_STEPS: u32 = 2;
/// A step waits at most this long for what it started.
const STEP_MAX: Duration = Duration::from_millis(600);
/// After a step, timers due this soon are waited for.
const STEP_TIMER_HORIZON: Duration = Duration::from_millis(200);
/// After a step, the DOM must be quiet this long.
const STEP_QUIET: Duration = Duration::from_millis(50);

#[derive(Debug, serde::Deserialize)]
struct Step {
    m: Measure,
    p: settle::Probe,
    /// Two frames rendered before the step's wait ran out.
    framed: bool,
}

#[derive(Debug, serde::Deserialize)]
struct Measure {
    height: f64,
    viewport: f64,
    y: f64,
    hints: u32,
    added: f64,
    /// The detection given to [`scroll`] found a scrolling box to gather (`steer/vlist.rs`).
    #[serde(default)]
    list: bool,
}

async fn eval<T: serde::de::DeserializeOwned>(
    page: &Page,
    input: &str,
    js: &str,
    limit: Duration,
) -> Result<T, Error> {
    let r = cdp::execute(page, input, "scrolling the page", limit, cdp::awaited(js)).await?;
    let v = r.result.result.value.unwrap_or_default();
    serde_json::from_value(v).map_err(|e| Error::Script {
        input: input.into(),
        message: format!("scroll probe: {e}"),
    })
}

/// The page a scroll phase runs in: the tab's page, the input (for messages), and the bound
/// of one command.
#[derive(Clone, Copy)]
pub(crate) struct Target<'a> {
    pub page: &'a Page,
    pub input: &'a str,
    pub command_timeout: Duration,
}

impl Target<'_> {
    /// Evaluate `js` in the page and read its value (see [`eval`]).
    async fn eval<T: serde::de::DeserializeOwned>(&self, js: &str) -> Result<T, Error> {
        eval(self.page, self.input, js, self.command_timeout).await
    }
}

/// The scripts of the steps: a step to `__Y__` (measure and probe after it), and the recheck
/// of a step still settling.
struct StepScripts {
    step: String,
    recheck: String,
}

impl StepScripts {
    fn new() -> StepScripts {
        let probe = settle::probe_js_from_now(STEP_TIMER_HORIZON);
        let measure = MEASURE_JS.trim();
        StepScripts {
            step: STEP_JS
                .replace("__FRAME_WAIT__", &FRAME_WAIT.as_millis().to_string())
                .replace("__MEASURE__", measure)
                .replace("__PROBE__", &probe),
            recheck: RECHECK_JS
                .replace("__MEASURE__", measure)
                .replace("__PROBE__", &probe),
        }
    }
}

/// Run the scroll phase on a settled page, in order: the first measure (with `detect`, a
/// JavaScript expression that rides on it, no command of its own: whether it was true, a
/// scrolling box found, see `steer/vlist.rs`, is returned beside the report); the stops
/// before any step (off, fits the viewport, no scroll hints); the window's front held and the
/// tab brought to it; the steps ([`steps`]) until one stop; back to the top. `net` reads the
/// tab's network state. Errors are those of a page that stopped answering; the caller treats
/// them like a failed settle probe.
pub(crate) async fn scroll(
    t: Target<'_>,
    front: &Front,
    opts: &ScrollOptions,
    deadline: Instant,
    net: impl Fn() -> settle::Net,
    detect: Option<&str>,
) -> Result<(ScrollReport, bool), Error> {
    let Target {
        page,
        input,
        command_timeout,
    } = t;
    let mut rep = ScrollReport::default();
    if !opts.enabled {
        rep.stopped = "off".into();
        return Ok((rep, false));
    }
    let first = match detect {
        Some(d) => format!(
            "(() => {{ const m = {}; m.list = {d}; return m; }})()",
            MEASURE_JS.trim()
        ),
        None => MEASURE_JS.to_string(),
    };
    let m: Measure = t.eval(&first).await?;
    let found = m.list;
    rep.height_before = m.height;
    rep.height_after = m.height;
    if m.height <= m.viewport + 1.0 {
        rep.stopped = "fits-viewport".into();
        return Ok((rep, found));
    }
    if m.hints == 0 && !opts.always {
        rep.stopped = "no-scroll-hints".into();
        return Ok((rep, found));
    }
    // Hold the window's front while scrolling (see [`Front`]). The time budget starts once
    // it is held; waiting for it is bounded by the page deadline only (a page that gets it
    // late then stops at `time-budget` at once).
    let _front = tokio::time::timeout_at(deadline.into(), front.lock())
        .await
        .ok();
    let end = deadline.min(Instant::now() + opts.budget);
    match tokio::time::timeout(command_timeout, page.execute(BringToFrontParams::default())).await {
        Ok(Ok(_)) => {}
        Ok(Err(e)) => tracing::debug!("{input}: bringing the tab to the front: {e}"),
        Err(_) => tracing::debug!("{input}: bringing the tab to the front: no answer"),
    }
    let scripts = StepScripts::new();
    let (stopped, height) = steps(t, opts, &scripts, end, &net, &m, &mut rep).await?;
    rep.stopped = stopped.into();
    rep.height_after = height;
    let _: Step = t.eval(&scripts.step.replace("__Y__", "0")).await?;
    Ok((rep, found))
}

/// The steps, from the first measure `m`: each a viewport down (a jump to the bottom after
/// [`IDLE_STEPS`] that brought nothing), let settle within [`STEP_MAX`], until a stop (the
/// bottom, no new content, a step or pixel bound, the time budget at `end`). Counts them in
/// `rep`; returns why they stopped and the page's height then.
async fn steps(
    t: Target<'_>,
    opts: &ScrollOptions,
    scripts: &StepScripts,
    end: Instant,
    net: &impl Fn() -> settle::Net,
    m: &Measure,
    rep: &mut ScrollReport,
) -> Result<(&'static str, f64), Error> {
    let input = t.input;
    let (mut y, mut height, vh) = (m.y, m.height, m.viewport.max(100.0));
    let mut added = m.added;
    // Steps in a row that brought nothing; whether the jump to the bottom was made.
    let (mut idle, mut jumped) = (0, false);
    let stopped = loop {
        if idle >= IDLE_STEPS && jumped {
            break "no-new-content";
        }
        if y + vh >= height - 1.0 {
            break "bottom";
        }
        if rep.steps >= opts.max_steps {
            break "max-scroll-steps";
        }
        if y >= opts.max_px as f64 {
            break "max-scroll-px";
        }
        if Instant::now() >= end {
            break "time-budget";
        }
        let target = if idle >= IDLE_STEPS {
            jumped = true;
            (height - vh).min(opts.max_px as f64)
        } else {
            (y + vh).min(opts.max_px as f64)
        };
        let mut st: Step = t
            .eval(&scripts.step.replace("__Y__", &format!("{target}")))
            .await?;
        rep.steps += 1;
        if !st.framed {
            rep.frameless_steps += 1;
        }
        let m_y = st.m.y;
        // Let what the step started settle, within the step's bound.
        let step_end = end.min(Instant::now() + STEP_MAX);
        while let settle::Verdict::Wait(d, why) = settle::decide(&st.p, net(), STEP_QUIET) {
            tracing::trace!("{input}: scroll step {}: {why}", rep.steps);
            if Instant::now() + d >= step_end {
                break;
            }
            tokio::time::sleep(d).await;
            st = t.eval(&scripts.recheck).await?;
        }
        if st.m.added > added || st.m.height > height + 1.0 {
            idle = 0;
            jumped = false;
        } else {
            idle += 1;
        }
        added = st.m.added;
        height = st.m.height;
        if m_y <= y {
            // The page did not move (scrolling blocked, or already at the end).
            break "bottom";
        }
        y = m_y;
        rep.px = rep.px.max(y);
    };
    Ok((stopped, height))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_stops_are_named() {
        let r = |s: &str| ScrollReport {
            stopped: s.into(),
            ..ScrollReport::default()
        };
        assert!(r("max-scroll-px").bounded());
        assert!(r("time-budget").bounded());
        assert!(!r("bottom").bounded());
        assert!(!r("fits-viewport").bounded());
    }
}
