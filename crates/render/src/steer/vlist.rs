//! Scrolling boxes and virtual lists (`--scroll-container SELECTOR`): content inside a
//! scrolling box is scrolled like the window, and the rows a list removes while it scrolls
//! are kept.
//!
//! Phases: find the box (the one named; or, found by itself when the scroll phase runs, among
//! the scrollable boxes that listen to their own `scroll` events, as virtual lists do, the one
//! holding the most text, when it holds at least [`AUTO_TEXT_SHARE`] of the page's text) →
//! collect its rows (the children of its most populous element,
//! each keyed by an index or id attribute, else by its text, so a row is kept once) → scroll
//! it down [`STEP_SHARE`] of its height at a time, waiting two frames and a short settle at
//! each step and collecting the rows it then shows → stop at its bottom, when steps bring
//! nothing ([`crate::scroll::IDLE_STEPS`], then one jump to the bottom), or at a bound
//! → finish: when rows were removed while scrolling (a virtual list), every row seen is put
//! back in the box, in order (by its index attribute, else by where it sat in the list), and
//! the box and its wrappers no longer clip, so the rows are laid out one under another and
//! the snapshot sees them all; otherwise the box is scrolled back to the top and left as it
//! is.
//!
//! A page without a box that listens to its own scrolling, or whose boxes hold little of its
//! text, is not touched: the detection rides on the scroll phase's first measure (no command
//! of its own), and looks only at the boxes the before-page script saw add a `scroll`
//! listener (`window.__sl.scrollBoxes`): walking every element cost ~50 ms on a page of
//! 16,000.

use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::Value;

use super::driver::{self, call, Driver};
use crate::scroll::{ContainerReport, FRAME_WAIT, IDLE_STEPS};
use crate::settle;
use crate::Error;

/// A box found by itself holds at least this share of the page's text (`textContent`,
/// scripts and styles left out): a scrolling box that holds the page's main list or article,
/// not a code listing or a sidebar.
pub(crate) const AUTO_TEXT_SHARE: f64 = 0.4;

/// Each step scrolls the box down this share of its visible height (rows on the edge are
/// seen twice, never skipped).
pub(crate) const STEP_SHARE: f64 = 0.8;

/// A named box is scrolled at most this many steps (a box found by itself: the scroll
/// phase's `--max-scroll-steps`).
pub(crate) const NAMED_MAX_STEPS: u32 = 400;

/// After a step, timers due this soon are waited for.
const STEP_TIMER_HORIZON: Duration = Duration::from_millis(200);
/// A step waits at most this long for what it started.
const STEP_MAX: Duration = Duration::from_millis(600);
/// After a step, the DOM must be quiet this long.
const STEP_QUIET: Duration = Duration::from_millis(50);

/// The box's state after a step (see `js/steer.js`).
#[derive(Debug, Clone, Copy, Default, Deserialize)]
struct Measure {
    top: f64,
    height: f64,
    client: f64,
    rows: usize,
    #[serde(default)]
    added: f64,
}

#[derive(Debug, Deserialize)]
struct Found {
    #[serde(default)]
    ok: bool,
    #[serde(default)]
    why: Option<String>,
    #[serde(default)]
    r#box: String,
    #[serde(flatten)]
    m: Option<Measure>,
}

#[derive(Debug, Deserialize)]
struct Finish {
    restored: bool,
    rows: usize,
    removed: usize,
}

/// The detection the scroll phase's first measure runs when no box is named: a JavaScript
/// expression that keeps the box found as `window.__slList` and is `true` when there is one.
pub(crate) fn detect_js() -> String {
    format!(
        "(() => {{ const f = {}; return !!(f && f.ok); }})()",
        call("listFind", &[Value::Null, Value::from(AUTO_TEXT_SHARE)])
    )
}

/// Scroll and gather the box named `selector`, or (None) the box the scroll phase's measure
/// found and kept; `budget` bounds the time, `max_steps` the steps. None when no box was
/// found by itself.
///
/// Phases: find the box (or take the one found) → name it → unless it does not scroll, scroll
/// it in front ([`scroll_box`]) → put every row seen back ([`finish`]).
pub(crate) async fn gather<D: Driver>(
    d: &mut D,
    selector: Option<&str>,
    budget: Duration,
    max_steps: u32,
) -> Result<Option<ContainerReport>, Error> {
    let input = d.input().to_string();
    let doing = "scrolling the page's list";
    let limit = d.command_timeout();
    let mut rep = ContainerReport {
        selector: selector.unwrap_or_default().into(),
        found: selector.is_none(),
        ..ContainerReport::default()
    };
    let start_js = match selector {
        Some(s) => call(
            "listFind",
            &[Value::from(s), Value::from(0.0)],
        ),
        // Found by the measure: only its first rows to collect.
        None => "(() => { const m = (__STEER__).listCollect(); return m ? { ok: true, box: '', ...m } : { why: 'gone' }; })()"
            .replace("__STEER__", driver::STEER_JS.trim_end()),
    };
    let v = match driver::eval(d.page(), &input, doing, &start_js, limit).await? {
        Ok(v) => v,
        Err(e) => {
            tracing::debug!("{input}: finding the list box: {e}");
            return Ok(None);
        }
    };
    let found: Found = serde_json::from_value(v).map_err(|e| Error::Script {
        input: input.clone(),
        message: format!("list box: {e}"),
    })?;
    let Some(m) = found.m.filter(|_| found.ok) else {
        if selector.is_none() {
            return Ok(None);
        }
        tracing::warn!(
            "{input}: scroll container: {}",
            found.why.as_deref().unwrap_or("not found")
        );
        rep.stopped = "not-found".into();
        return Ok(Some(rep));
    };
    if !found.r#box.is_empty() && selector.is_none() {
        rep.selector = found.r#box;
    }
    if rep.selector.is_empty() {
        rep.selector = describe(d, &input, limit).await;
    }
    if m.height <= m.client + 1.0 {
        rep.stopped = "not-scrollable".into();
        finish(d, &input, limit, &mut rep).await?;
        return Ok(Some(rep));
    }
    let _front = d.front().await;
    rep.stopped = scroll_box(d, &input, limit, m, &mut rep.steps, budget, max_steps)
        .await?
        .into();
    finish(d, &input, limit, &mut rep).await?;
    Ok(Some(rep))
}

/// Scroll the box from measure `m` one step at a time, each step settling (as the scroll
/// phase's do), counting the steps in `steps`, until its bottom, a bound, or steps that bring
/// nothing (then one jump to the bottom); why it stopped.
async fn scroll_box<D: Driver>(
    d: &mut D,
    input: &str,
    limit: Duration,
    mut m: Measure,
    steps: &mut u32,
    budget: Duration,
    max_steps: u32,
) -> Result<&'static str, Error> {
    let end = d.deadline().min(Instant::now() + budget);
    let probe = settle::probe_js_from_now(STEP_TIMER_HORIZON);
    let step_js = |y: f64| {
        format!(
            "(async () => {{ const m = await {}; return m && {{ m, p: {probe} }}; }})()",
            call(
                "listStep",
                &[Value::from(y), Value::from(FRAME_WAIT.as_millis() as u64)]
            )
        )
    };
    let recheck_js = format!(
        "(() => {{ const m = {}; return m && {{ m, p: {probe} }}; }})()",
        call("listCollect", &[])
    );
    let (mut idle, mut jumped) = (0, false);
    let stopped = loop {
        if idle >= IDLE_STEPS && jumped {
            break "no-new-content";
        }
        if m.top + m.client >= m.height - 1.0 {
            break "bottom";
        }
        if *steps >= max_steps {
            break "max-steps";
        }
        if Instant::now() >= end {
            break "time-budget";
        }
        let target = if idle >= IDLE_STEPS {
            jumped = true;
            m.height - m.client
        } else {
            m.top + (m.client * STEP_SHARE).max(1.0)
        };
        let Some(mut st) = step(d, input, &step_js(target), limit).await? else {
            break "gone";
        };
        *steps += 1;
        let step_end = end.min(Instant::now() + STEP_MAX);
        let mut net_now = d.net();
        while let settle::Verdict::Wait(wait, why) = settle::decide(&st.p, net_now, STEP_QUIET) {
            tracing::trace!("{input}: list step {}: {why}", *steps);
            if Instant::now() + wait >= step_end {
                break;
            }
            tokio::time::sleep(wait).await;
            match step(d, input, &recheck_js, limit).await? {
                Some(s) => st = s,
                None => break,
            }
            net_now = d.net();
        }
        let moved = st.m.top > m.top;
        if st.m.rows > m.rows || st.m.added > m.added || st.m.height > m.height + 1.0 {
            idle = 0;
            jumped = false;
        } else {
            idle += 1;
        }
        m = st.m;
        if !moved {
            break "bottom";
        }
    };
    Ok(stopped)
}

#[derive(Debug, Deserialize)]
struct Step {
    m: Measure,
    p: settle::Probe,
}

async fn step<D: Driver>(
    d: &D,
    input: &str,
    js: &str,
    limit: Duration,
) -> Result<Option<Step>, Error> {
    match driver::eval(d.page(), input, "scrolling the page's list", js, limit).await? {
        Ok(Value::Null) => Ok(None),
        Ok(v) => Ok(serde_json::from_value(v).ok()),
        Err(e) => {
            tracing::debug!("{input}: list step: {e}");
            Ok(None)
        }
    }
}

/// The box found, named as `div.list` (when the measure found it).
async fn describe<D: Driver>(d: &D, input: &str, limit: Duration) -> String {
    let js = "(() => { const L = window.__slList; if (!L) return ''; const e = L.el; let s = e.tagName.toLowerCase(); if (e.id) return s + '#' + e.id; if (typeof e.className === 'string' && e.className.trim()) s += '.' + e.className.trim().split(/\\s+/).join('.'); return s; })()";
    match driver::eval(d.page(), input, "scrolling the page's list", js, limit).await {
        Ok(Ok(Value::String(s))) => s,
        _ => String::new(),
    }
}

/// Put the rows back (a virtual list) or scroll the box back up.
async fn finish<D: Driver>(
    d: &D,
    input: &str,
    limit: Duration,
    rep: &mut ContainerReport,
) -> Result<(), Error> {
    let js = call("listFinish", &[]);
    if let Ok(v) = driver::eval(d.page(), input, "scrolling the page's list", &js, limit).await? {
        if let Ok(f) = serde_json::from_value::<Finish>(v) {
            rep.rows = f.rows;
            rep.removed = f.removed;
            rep.restored = f.restored;
        }
    }
    Ok(())
}
