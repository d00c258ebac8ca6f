//! When is a page settled? The event-driven rule that replaces a fixed quiet window after
//! `load`, as a pure decision over one probe of the page (`SETTLE_PROBE_JS`, reading what the
//! before-page script [`INSTRUMENT_JS`] recorded) and the tab's network state.
//!
//! # The rule
//! After `load`, the page is settled as soon as all of these hold:
//! 1. `document.readyState` is `complete` (a reused tab can report a stale `load`);
//! 2. no request is in flight (every resource type, from the Network events), unless the
//!    network has been silent for [`NET_IDLE`]: a request with no event for that long is
//!    taken as hung (a long poll) or as a stale entry of the tab's previous page, and no longer
//!    waited for (the page's own fetch/XHR are still counted by condition 3);
//! 3. no `fetch`/XHR made by a script is pending, and none settled in the last
//!    [`REQUEST_QUIET`] (its handler inserts the content after reading the body); likewise no
//!    network event of a request started after `load` (a script or image a script inserted)
//!    in the last [`REQUEST_QUIET`];
//! 4. no one-shot `setTimeout` is pending whose due time is within [`TIMER_HORIZON`] after
//!    `load` (a fetch or an insert scheduled "1 s after load" is waited for; timers set by timers
//!    count too, so a chain of short timers is followed up to the horizon);
//! 5. no animation frame requested outside a frame callback is pending (animation loops are
//!    not waited for), for at most [`RAF_WAIT`] after `load`;
//! 6. the DOM has not changed for `quiet` (`--quiet-ms`, default 100 ms), counting only
//!    changes made after parsing.
//!
//! A page without scripts meets every condition at its first probe, right after `load`.
//! Bounds: the whole settle stops at [`SETTLE_MAX`] after `load` (a request that never ends,
//! a page that mutates forever) or at the page deadline, whichever comes first; the page is
//! then captured as it is.

use std::time::Duration;

use sightline_core::walls::markers::{CONSENT_GLOBALS, CONSENT_ROOTS};

/// The before-page script (DOM changes, timers, frames, script requests, scroll hints,
/// closed shadow roots), compiled into the binary.
pub(crate) const INSTRUMENT_JS: &str = include_str!("../../../js/instrument.js");

/// Short timers due up to this long after `load` are waited for. 1.5 s: the issue's target is
/// a fetch issued up to 1 s after `load`, plus slack for a slow machine firing it late.
pub(crate) const TIMER_HORIZON: Duration = Duration::from_millis(1500);

/// After a script's fetch/XHR settles, the page gets this long to read the body and insert it.
pub(crate) const REQUEST_QUIET: Duration = Duration::from_millis(50);

/// Requests in flight with no network event for this long are not waited for.
pub(crate) const NET_IDLE: Duration = Duration::from_millis(300);

/// One-shot animation frames are waited for at most this long after `load`.
pub(crate) const RAF_WAIT: Duration = Duration::from_millis(200);

/// The settle never lasts longer than this after `load`.
pub(crate) const SETTLE_MAX: Duration = Duration::from_secs(5);

/// How often the page is probed while something is pending.
pub(crate) const POLL: Duration = Duration::from_millis(40);

/// Reads the state recorded by [`INSTRUMENT_JS`]. `readyState` comes from the document's real
/// prototype chain (named elements and replaced globals cannot reach it). A page where the
/// before-page script did not run (scripts disabled) reports no activity.
pub(crate) const SETTLE_PROBE_JS: &str = r#"(() => {
  let o = Object.getPrototypeOf(document);
  while (o && !Object.getOwnPropertyDescriptor(o, "readyState")) o = Object.getPrototypeOf(o);
  const state = o ? Object.getOwnPropertyDescriptor(o, "readyState").get.call(document) : "complete";
  const t = performance.now();
  const nav = performance.getEntriesByType("navigation")[0];
  const loadAt = nav && nav.loadEventStart > 0 ? nav.loadEventStart : t;
  const sl = window.__sl;
  let due = -1;
  if (sl) {
    const from = __FROM_EPOCH__;
    for (const [id, d] of sl.timers) {
      if (from > 0 && !((sl.timerEpoch && sl.timerEpoch.get(id)) >= from)) continue;
      if (d <= __BASE__ + __HORIZON__ && (due < 0 || d < due)) due = d;
    }
  }
  return {
    complete: state === "complete",
    since_load: t - loadAt,
    dom_quiet: sl && sl.lastDom > 0 ? t - sl.lastDom : -1,
    timer_in: due < 0 ? -1 : Math.max(0, due - t),
    rafs: sl ? sl.rafs : 0,
    requests: sl ? sl.requests : 0,
    request_quiet: sl && sl.lastRequest > 0 ? t - sl.lastRequest : -1,
    origin: performance.timeOrigin,
    consent: __CONSENT__,
  };
})()"#;

/// The consent platform the page shows, for the probe's `consent` (`__GLOBALS__` and
/// `__ROOTS__` are [`CONSENT_GLOBALS`] and [`CONSENT_ROOTS`] as JSON): the question
/// [`sightline_core::walls::consent_platform`] asks of a snapshot, asked of the live page. A global
/// first; then the first element in document order whose id or class holds a root and that is
/// rendered as the snapshot means it (it paints: a box with an area on the page, not hidden; or one of its
/// first 200 descendants does: a dialog's root is often an empty box holding a fixed one).
/// It costs 0.1-0.3 ms a probe on the largest bench pages (3,400-7,900 elements), measured in
/// the page against the 40 ms between probes; nothing is kept in the page between probes.
const CONSENT_PROBE_JS: &str = r#"(() => {
  const G = __GLOBALS__, R = __ROOTS__;
  for (const [g, v] of G) {
    try { if (Object.getOwnPropertyDescriptor(window, g) !== undefined) return v; } catch (e) {}
  }
  try {
    const sel = R.map(([r]) => `[id*="${r}" i],[class*="${r}" i]`).join(",");
    const els = Array.from(Document.prototype.querySelectorAll.call(document, sel)).slice(0, 64);
    const paints = (e) => {
      const r = e.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && r.right + scrollX > 0 && r.bottom + scrollY > 0
        && (!e.checkVisibility || e.checkVisibility({ visibilityProperty: true }));
    };
    const rendered = (e) => {
      if (paints(e)) return true;
      const d = e.getElementsByTagName("*");
      for (let i = 0; i < d.length && i < 200; i++) if (paints(d[i])) return true;
      return false;
    };
    for (const el of els) {
      if (!rendered(el)) continue;
      const id = String(el.getAttribute("id") || "").toLowerCase();
      const cl = String(el.getAttribute("class") || "").toLowerCase();
      const hit = R.find(([r]) => id.includes(r) || cl.includes(r));
      if (hit) return hit[1];
    }
  } catch (e) {}
  return null;
})()"#;

/// [`CONSENT_PROBE_JS`] with the lists of `sightline_core::walls::markers` filled in.
fn consent_probe_js() -> String {
    let json = |l: &[(&str, &str)]| serde_json::to_string(l).unwrap_or_else(|_| "[]".into());
    CONSENT_PROBE_JS
        .replace("__GLOBALS__", &json(CONSENT_GLOBALS))
        .replace("__ROOTS__", &json(CONSENT_ROOTS))
}

/// The probe script for the settle after `load`: timers due within [`TIMER_HORIZON`] after
/// `load` are pending.
pub(crate) fn probe_js() -> String {
    SETTLE_PROBE_JS
        .replace("__BASE__", "loadAt")
        .replace("__HORIZON__", &TIMER_HORIZON.as_millis().to_string())
        .replace("__FROM_EPOCH__", "0")
        .replace("__CONSENT__", "null")
}

/// [`probe_js`] that also reports the consent platform the page shows (the probe's
/// `consent`), for the settle after `load` when the plan answers consent dialogs: the
/// dialog is then answered before the page is steered and scrolled (`tab/consent.rs`).
pub(crate) fn probe_js_with_consent() -> String {
    SETTLE_PROBE_JS
        .replace("__BASE__", "loadAt")
        .replace("__HORIZON__", &TIMER_HORIZON.as_millis().to_string())
        .replace("__FROM_EPOCH__", "0")
        .replace("__CONSENT__", &consent_probe_js())
}

/// The probe script for a short settle after a scroll step: timers due within `horizon` from
/// now are pending, and only those the current step started (`window.__sl.epoch`, bumped by
/// the step, and the chains they started): a page's own polling loop, running since before
/// the step, is not waited for at every step.
pub(crate) fn probe_js_from_now(horizon: Duration) -> String {
    SETTLE_PROBE_JS
        .replace("__BASE__", "t")
        .replace("__HORIZON__", &horizon.as_millis().to_string())
        .replace("__FROM_EPOCH__", "(sl.epoch || 0)")
        .replace("__CONSENT__", "null")
}

/// One reading of the page (milliseconds; -1 where nothing happened).
#[derive(Debug, Clone, PartialEq, serde::Deserialize)]
pub(crate) struct Probe {
    pub complete: bool,
    pub since_load: f64,
    pub dom_quiet: f64,
    pub timer_in: f64,
    pub rafs: u32,
    pub requests: u32,
    pub request_quiet: f64,
    /// `performance.timeOrigin` of the document probed: tells a page's document from the
    /// previous page's in a reused tab (see `Tab::park`).
    #[serde(default)]
    pub origin: Option<f64>,
    /// The consent platform the page shows ([`probe_js_with_consent`]; None from the other
    /// probes): the name [`sightline_core::walls::consent_platform`] would give.
    #[serde(default)]
    pub consent: Option<String>,
}

/// What to do after a probe.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Verdict {
    /// Settled: take the snapshot.
    Settled,
    /// Probe again after this long; the reason names the pending condition.
    Wait(Duration, &'static str),
}

fn ms(v: f64) -> Duration {
    Duration::from_secs_f64(v.max(0.0) / 1000.0)
}

/// The tab's network state at a probe.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct Net {
    /// Requests in flight (every resource type).
    pub inflight: usize,
    /// Time since the last network event, when one happened after `load`.
    pub since_event_after_load: Option<Duration>,
    /// Time since the last network event of any time (None: none seen).
    pub since_event: Option<Duration>,
}

/// Apply the rule to one probe; `quiet` is the DOM quiet window.
pub(crate) fn decide(p: &Probe, net: Net, quiet: Duration) -> Verdict {
    let inflight = net.inflight;
    if !p.complete {
        return Verdict::Wait(POLL, "document loading");
    }
    if inflight > 0 && net.since_event.is_none_or(|d| d < NET_IDLE) {
        return Verdict::Wait(POLL, "requests in flight");
    }
    if p.requests > 0 {
        return Verdict::Wait(POLL, "script requests pending");
    }
    let rq = REQUEST_QUIET.as_secs_f64() * 1000.0;
    if p.request_quiet >= 0.0 && p.request_quiet < rq {
        return Verdict::Wait(ms(rq - p.request_quiet), "after a script request");
    }
    if let Some(d) = net.since_event_after_load.filter(|d| *d < REQUEST_QUIET) {
        return Verdict::Wait(REQUEST_QUIET - d, "after a request made after load");
    }
    if p.timer_in >= 0.0 {
        // Wake just after the timer is due (+5 ms for it to run), polling meanwhile.
        return Verdict::Wait(ms(p.timer_in + 5.0).min(POLL), "short timers pending");
    }
    if p.rafs > 0 && p.since_load < RAF_WAIT.as_secs_f64() * 1000.0 {
        return Verdict::Wait(Duration::from_millis(16), "animation frames pending");
    }
    let q = quiet.as_secs_f64() * 1000.0;
    if p.dom_quiet >= 0.0 && p.dom_quiet < q {
        return Verdict::Wait(ms(q - p.dom_quiet), "DOM changing");
    }
    Verdict::Settled
}

#[cfg(test)]
mod tests {
    use super::*;

    fn idle() -> Probe {
        Probe {
            complete: true,
            since_load: 3.0,
            dom_quiet: -1.0,
            timer_in: -1.0,
            rafs: 0,
            requests: 0,
            request_quiet: -1.0,
            origin: None,
            consent: None,
        }
    }

    const Q: Duration = Duration::from_millis(100);

    #[test]
    fn a_page_without_scripts_settles_at_the_first_probe() {
        assert_eq!(decide(&idle(), Net::default(), Q), Verdict::Settled);
    }

    #[test]
    fn each_pending_condition_waits() {
        let wait = |p: Probe, inflight| {
            let net = Net {
                inflight,
                since_event_after_load: None,
                since_event: Some(Duration::from_millis(20)),
            };
            matches!(decide(&p, net, Q), Verdict::Wait(..))
        };
        let late = Net {
            inflight: 0,
            since_event_after_load: Some(Duration::from_millis(10)),
            since_event: Some(Duration::from_millis(10)),
        };
        assert!(matches!(decide(&idle(), late, Q), Verdict::Wait(..)));
        // A request with no network event for NET_IDLE is not waited for.
        let hung = Net {
            inflight: 1,
            since_event_after_load: None,
            since_event: Some(NET_IDLE),
        };
        assert_eq!(decide(&idle(), hung, Q), Verdict::Settled);
        assert!(wait(
            Probe {
                complete: false,
                ..idle()
            },
            0
        ));
        assert!(wait(idle(), 1));
        assert!(wait(
            Probe {
                requests: 1,
                ..idle()
            },
            0
        ));
        assert!(wait(
            Probe {
                request_quiet: 10.0,
                ..idle()
            },
            0
        ));
        assert!(wait(
            Probe {
                timer_in: 900.0,
                ..idle()
            },
            0
        ));
        assert!(wait(Probe { rafs: 1, ..idle() }, 0));
        assert!(wait(
            Probe {
                dom_quiet: 20.0,
                ..idle()
            },
            0
        ));
    }

    #[test]
    fn the_consent_probe_asks_what_consent_platform_asks() {
        // One source for the lists: the probe embeds core's lists, and the snapshot reads each
        // global `consent_platform` looks for.
        let js = probe_js_with_consent();
        let snapshot_js = include_str!("../../../js/snapshot.js");
        for (g, v) in CONSENT_GLOBALS {
            assert!(js.contains(&format!("[\"{g}\",\"{v}\"]")), "{g}");
            assert!(
                snapshot_js.contains(&format!("\"{g}\"")),
                "snapshot.js reads {g}"
            );
        }
        for (r, v) in CONSENT_ROOTS {
            assert!(js.contains(&format!("[\"{r}\",\"{v}\"]")), "{r}");
            // Matched against the lower-cased id and class, and put in a CSS selector.
            assert_eq!(r.to_ascii_lowercase(), *r);
            assert!(r
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
        }
        for ph in [
            "__GLOBALS__",
            "__ROOTS__",
            "__CONSENT__",
            "__BASE__",
            "__HORIZON__",
        ] {
            assert!(!js.contains(ph), "{ph} left in the probe");
        }
        // The other probes do not look.
        for p in [probe_js(), probe_js_from_now(TIMER_HORIZON)] {
            assert!(p.contains("consent: null") && !p.contains("OneTrust"));
        }
    }

    #[test]
    fn bounded_waits_end() {
        // An animation frame pending long after load, a DOM quiet long enough, a request
        // that settled long ago: settled.
        let p = Probe {
            rafs: 1,
            since_load: 500.0,
            dom_quiet: 150.0,
            request_quiet: 400.0,
            ..idle()
        };
        assert_eq!(decide(&p, Net::default(), Q), Verdict::Settled);
        // A timer due soon is polled no later than it fires.
        let p = Probe {
            timer_in: 10.0,
            ..idle()
        };
        assert_eq!(
            decide(&p, Net::default(), Q),
            Verdict::Wait(Duration::from_millis(15), "short timers pending")
        );
    }
}
