//! Consent dialogs answered before the page is steered, scrolled and snapshotted: when the
//! settle's last probe ([`crate::settle::probe_js_with_consent`]) saw a consent
//! platform (the question [`sightline_core::walls::consent_platform`] asks of a snapshot, from the
//! same lists: its globals or its dialog's root), DuckDuckGo's autoconsent
//! (`js/vendor/autoconsent/`, its rule set compiled in) runs in the page through
//! `js/consent.js` with one `Runtime.evaluate`, and the page settles again. The script
//! answers a dialog that is there, and stops waiting as soon as the platform shows none: its
//! API says so (`no-dialog`), or no dialog is found or painted while the page stays quiet for
//! [`CONSENT_QUIET`] (`quiet`); [`CONSENT_WAIT`] bounds it all (the record's `consent.ended`
//! says which, `consent.waited_ms` how long). A dialog the settle did not see, or that
//! opened after a step that found none, but the snapshot shows (it came during the steering
//! or the scroll) is answered after the snapshot, and the page snapshotted again (`late` in
//! the report). A page without a platform pays nothing: no command is sent.
//! Platforms whose dialog is a frame from another origin (Sourcepoint's) are answered inside
//! it: the same script runs, at the same time, in an isolated world of each child frame
//! (`Page.createIsolatedWorld`; cross-site frames share their page's process, see
//! `browser.rs`'s flags), and the first frame that found the dialog speaks for the page.
//! Nothing is installed for later documents, so a reused tab's next page starts clean.
//!
//! With [`Steer::hide_overlays`](crate::steer::Steer::hide_overlays), overlays that are not consent (a newsletter modal,
//! "ad blocker detected") are hidden before the screenshot ([`HIDE_OVERLAYS_JS`]).

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use chromiumoxide::cdp::browser_protocol::page::{
    CreateIsolatedWorldParams, FrameId, FrameTree, GetFrameTreeParams,
};
use serde::{Deserialize, Serialize};

use super::config::TabConfig;
use super::{Bounded, Tab};
use crate::cdp;
use crate::error::BrowserError;
use crate::steer::Consent;
use crate::Error;
use sightline_core::snapshot::Snapshot;
use sightline_core::walls::markers::CONSENT_ROOTS;

/// The glue (`js/consent.js`), the bundle and its rules.
const GLUE: &str = include_str!("../../../../js/consent.js");
const BUNDLE: &str = include_str!("../../../../js/vendor/autoconsent/autoconsent.playwright.js");
const RULES: &str = include_str!("../../../../js/vendor/autoconsent/compact-rules.json");

/// Hides what covers the page without being it: every fixed element that is visible and covers
/// at least a quarter of the viewport, and is not a consent platform's dialog (answered or
/// named as a wall, not hidden); scrolling locked by a modal is released. Returns how many were
/// hidden.
const HIDE_OVERLAYS_JS: &str = r#"(() => {
  const vw = window.innerWidth, vh = window.innerHeight;
  const consent = /onetrust|didomi|sp_message|qc-cmp2|cybotcookiebot|truste|usercentrics|cmpbox|fc-consent/i;
  let n = 0;
  for (const el of document.querySelectorAll("body *")) {
    const cs = getComputedStyle(el);
    if (cs.position !== "fixed" || cs.display === "none" || cs.visibility === "hidden") continue;
    const r = el.getBoundingClientRect();
    const w = Math.min(r.right, vw) - Math.max(r.left, 0), h = Math.min(r.bottom, vh) - Math.max(r.top, 0);
    if (w <= 0 || h <= 0 || w * h < 0.25 * vw * vh) continue;
    let c = false;
    for (let a = el; a && !c; a = a.parentElement) c = consent.test(String(a.id) + " " + String(a.className));
    if (c) continue;
    el.style.setProperty("display", "none", "important");
    n++;
  }
  if (n) for (const e of [document.documentElement, document.body]) if (e) e.style.setProperty("overflow", "auto", "important");
  return n;
})()"#;

/// At most this many child frames are searched for a dialog (the first in document order).
const MAX_CONSENT_FRAMES: usize = 8;

/// How long autoconsent may look for the dialog and answer it, at most.
const CONSENT_WAIT: Duration = Duration::from_secs(4);

/// How long autoconsent may look before the platform's own API saying it shows no dialog
/// ends the wait (`no-dialog`): time for its first search for the platform and its dialog
/// (its later searches come 500 ms apart), so a dialog the API does not know of (another
/// platform's, on the same page) is still found.
const CONSENT_SHOWN: Duration = Duration::from_millis(150);

/// How long the page must stay quiet (no element added or removed, no fetch or XHR), with no
/// dialog found or painted, for the wait to end (`quiet`): the platform loaded, or failed to,
/// without showing one. The settle before the consent step already waited for the page's
/// requests and timers, so a dialog still to come has nothing left to come from; one that
/// opens later (on a scroll, an action) is answered after the snapshot.
const CONSENT_QUIET: Duration = Duration::from_millis(300);

/// Why the consent step stopped waiting (the record's `consent.ended`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum ConsentEnd {
    /// The dialog was found and answered.
    Answered,
    /// The dialog was found but the answer did not go through.
    Failed,
    /// The platform's own API (IAB TCF's `__tcfapi('ping')`, IAB GPP's `__gpp('ping')`) said
    /// it loaded and shows no dialog.
    NoDialog,
    /// No dialog was found or painted and the page stayed quiet (no element added or removed,
    /// no fetch or XHR) for 300 ms: the platform loaded, or failed to, without showing one.
    Quiet,
    /// autoconsent recognised no platform.
    NoPlatform,
    /// The 4 s bound passed (a dialog found but not answered in time, or a page that never
    /// stayed quiet).
    Timeout,
}

/// What was done with a page's consent dialog (the record's `consent`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ConsentReport {
    /// The consent platform autoconsent recognised (its rule's name: `onetrust`,
    /// `Sourcepoint-frame`, ...), or the platform the page showed when autoconsent found
    /// none.
    pub cmp: String,
    /// `reject` or `accept`.
    pub action: String,
    /// The dialog was found open.
    pub popup: bool,
    /// The answer went through (the dialog is gone).
    pub answered: bool,
    /// Clicks made, when autoconsent counted them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clicks: Option<u32>,
    /// The dialog was hidden by a style rule rather than answered by clicks.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub hidden: bool,
    /// Answered after the snapshot, and the page snapshotted again: the settle had not seen
    /// the platform (a dialog that came during the steering or the scroll), so the steering
    /// and the scroll ran behind it. Absent when it was answered right after the settle.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub late: bool,
    /// Why the step stopped waiting (absent when the script gave no report).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended: Option<ConsentEnd>,
    /// How long the step waited for the dialog and its answer, in milliseconds (the second
    /// settle after an answer not included): the same page with `consent: keep` does not
    /// spend it. When a dialog is answered after the snapshot on a page whose settle saw its
    /// platform, the two steps' waits added.
    #[serde(default)]
    pub waited_ms: u64,
}

/// What `js/consent.js` returns.
#[derive(Debug, Deserialize)]
struct Raw {
    cmp: Option<String>,
    popup: bool,
    result: Option<bool>,
    clicks: Option<u32>,
    cosmetic: Option<bool>,
    #[serde(default)]
    ended: Option<ConsentEnd>,
}

/// [`CONSENT_ROOTS`] as the JSON the glue reads.
fn roots_json() -> String {
    serde_json::to_string(CONSENT_ROOTS).unwrap_or_else(|_| "[]".into())
}

/// Whether the snapshot shows a consent dialog: a rendered element whose id or class holds
/// one of [`CONSENT_ROOTS`] and that holds words (at least [`DIALOG_WORDS`] characters; an
/// empty container whose dialog frame did not load is none), not only a platform's global.
/// After a consent step that found no dialog, only this brings the step back after the
/// snapshot (the glue's own test, asked of the snapshot).
fn dialog_shown(snap: &Snapshot) -> bool {
    let is_root = |n: &sightline_core::snapshot::Node| {
        if !n.rendered || n.is_text() {
            return false;
        }
        let id = n.id.as_deref().unwrap_or("").to_ascii_lowercase();
        let class = n.class.as_deref().unwrap_or("").to_ascii_lowercase();
        (!id.is_empty() || !class.is_empty())
            && CONSENT_ROOTS
                .iter()
                .any(|(r, _)| id.contains(r) || class.contains(r))
    };
    if !snap.nodes.iter().any(is_root) {
        return false;
    }
    let tree = sightline_core::snapshot::Tree::new(snap);
    (0..snap.nodes.len())
        .filter(|&i| is_root(&snap.nodes[i]))
        .any(|i| tree.text(i).chars().count() >= DIALOG_WORDS)
}

/// Characters of text a consent dialog's root must hold to count as a dialog shown (the
/// glue's `painted` asks the same of the live page).
const DIALOG_WORDS: usize = 20;

/// The script for one action (`optOut` or `optIn`), built once.
fn script(action: Consent) -> &'static str {
    static OUT: OnceLock<String> = OnceLock::new();
    static IN: OnceLock<String> = OnceLock::new();
    let (cell, name) = match action {
        Consent::Accept => (&IN, "optIn"),
        _ => (&OUT, "optOut"),
    };
    cell.get_or_init(|| {
        GLUE.replace("__ACTION__", name)
            .replace("__WAIT_MS__", &CONSENT_WAIT.as_millis().to_string())
            .replace("__SHOWN_MS__", &CONSENT_SHOWN.as_millis().to_string())
            .replace("__QUIET_MS__", &CONSENT_QUIET.as_millis().to_string())
            .replace("__DIALOG_WORDS__", &DIALOG_WORDS.to_string())
            .replace("__ROOTS__", &roots_json())
            .replace("/*RULES*/", RULES.trim())
            .replace("/*BUNDLE*/", BUNDLE)
    })
}

impl Tab {
    /// Hide overlays that are not consent before the screenshot (`hide_overlays`); returns
    /// how many were hidden. A failure leaves the page as it is.
    pub(super) async fn hide_overlays(&mut self, input: &str, opts: &TabConfig) -> usize {
        let eval = cdp::by_value(HIDE_OVERLAYS_JS);
        match self
            .bounded(opts.command_timeout, self.page.execute(eval))
            .await
        {
            Bounded::Done(Ok(r)) => {
                let n = r.result.result.value.and_then(|v| v.as_u64()).unwrap_or(0) as usize;
                tracing::debug!("{input}: {n} overlays hidden before the screenshot");
                n
            }
            _ => 0,
        }
    }

    /// Answer the page's consent dialog after its snapshot, when none was answered before the
    /// steering but the snapshot shows one and the plan does not keep it: a dialog that came
    /// during the steering or the scroll. When the settle saw no platform (`searched` false),
    /// a platform in the snapshot (a global or a dialog's root) brings the step; when the
    /// step already ran after the settle and found no dialog (`searched` true), only a
    /// dialog's root rendered in the snapshot does. The page is then snapshotted again.
    /// Returns the snapshot to keep and what was done (None: nothing was tried).
    pub(super) async fn answer_consent_late(
        &mut self,
        input: &str,
        opts: &TabConfig,
        start: Instant,
        deadline: Instant,
        snapshot: (Snapshot, String),
        searched: bool,
    ) -> Result<((Snapshot, String), Option<ConsentReport>), Error> {
        if opts.steer.consent == Consent::Keep {
            return Ok((snapshot, None));
        }
        if searched && !dialog_shown(&snapshot.0) {
            return Ok((snapshot, None));
        }
        let Some(platform) = sightline_core::walls::consent_platform(&snapshot.0) else {
            return Ok((snapshot, None));
        };
        let Some(mut report) = self.answer_consent(input, opts, deadline, platform).await? else {
            return Ok((snapshot, None));
        };
        report.late = true;
        if !report.popup && !report.answered {
            return Ok((snapshot, Some(report)));
        }
        let again = self.snapshot(input, opts, start, deadline).await?;
        Ok((again, Some(report)))
    }

    /// Answer the page's consent dialog, on a page that shows `platform` (the settle's probe
    /// or the snapshot saw it), unless the plan keeps it. Returns what was done (None: nothing
    /// was tried: the plan keeps dialogs, or too little of the deadline is left).
    pub(super) async fn answer_consent(
        &mut self,
        input: &str,
        opts: &TabConfig,
        deadline: Instant,
        platform: &str,
    ) -> Result<Option<ConsentReport>, Error> {
        let action = opts.steer.consent;
        if action == Consent::Keep {
            return Ok(None);
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left < CONSENT_WAIT + opts.command_timeout {
            tracing::debug!("{input}: a {platform} consent dialog, but too little of the deadline is left to answer it");
            return Ok(None);
        }
        let limit = CONSENT_WAIT + opts.command_timeout;
        let began = Instant::now();
        let frames = self.child_frames(opts).await;
        // The main frame and the child frames at once. A dialog found in the main frame
        // ends the search; otherwise the first frame that found one speaks for the page.
        let found = |r: &Raw| r.popup || r.result == Some(true);
        let (main_raw, frame_raw, crashed) = {
            let main = self.run_consent(action, None, limit);
            let mut inside: futures::stream::FuturesUnordered<_> = frames
                .iter()
                .map(|f| self.run_consent(action, Some(f.clone()), limit))
                .collect();
            tokio::pin!(main);
            let (mut main_raw, mut frame_raw, mut main_done, mut crashed) =
                (None, None, false, false);
            loop {
                tokio::select! {
                    r = &mut main, if !main_done => {
                        main_done = true;
                        match r {
                            Ok(raw) => main_raw = raw,
                            Err(()) => crashed = true,
                        }
                        if crashed || main_raw.as_ref().is_some_and(found) {
                            break;
                        }
                    }
                    Some(r) = futures::StreamExt::next(&mut inside), if frame_raw.is_none() => {
                        match r {
                            Ok(Some(raw)) if found(&raw) => frame_raw = Some(raw),
                            Ok(_) => {}
                            Err(()) => {
                                crashed = true;
                                break;
                            }
                        }
                    }
                    else => break,
                }
                if main_done && (frame_raw.is_some() || inside.is_empty()) {
                    break;
                }
            }
            (main_raw, frame_raw, crashed)
        };
        if crashed {
            self.healthy = false;
            return Err(Error::from(BrowserError::Crashed {
                input: input.into(),
            }));
        }
        let raw = match main_raw {
            Some(m) if found(&m) => Some(m),
            m => frame_raw.or(m),
        };
        let report = ConsentReport {
            cmp: raw
                .as_ref()
                .and_then(|r| r.cmp.clone())
                .unwrap_or_else(|| platform.to_string()),
            action: match action {
                Consent::Accept => "accept",
                _ => "reject",
            }
            .into(),
            popup: raw.as_ref().is_some_and(|r| r.popup),
            answered: raw.as_ref().and_then(|r| r.result).unwrap_or(false),
            clicks: raw.as_ref().and_then(|r| r.clicks),
            hidden: raw.as_ref().and_then(|r| r.cosmetic).unwrap_or(false),
            late: false,
            ended: raw.as_ref().and_then(|r| r.ended),
            waited_ms: began.elapsed().as_millis() as u64,
        };
        tracing::debug!("{input}: consent: {report:?}");
        Ok(Some(report))
    }

    /// Run the consent script in the main frame (`frame` None) or in an isolated world of a
    /// child frame; its report (None: it gave none), or `Err` when the tab crashed.
    async fn run_consent(
        &self,
        action: Consent,
        frame: Option<FrameId>,
        limit: Duration,
    ) -> Result<Option<Raw>, ()> {
        let mut eval = cdp::awaited(script(action));
        if let Some(frame) = frame {
            let world = CreateIsolatedWorldParams::builder()
                .frame_id(frame)
                .world_name("sightline-consent")
                .build()
                .expect("valid params");
            match self.bounded(limit, self.page.execute(world)).await {
                Bounded::Done(Ok(w)) => eval.context_id = Some(w.result.execution_context_id),
                Bounded::Crashed => return Err(()),
                _ => return Ok(None),
            }
        }
        match self.bounded(limit, self.page.execute(eval)).await {
            Bounded::Done(Ok(r)) => Ok(match r.result.result.value {
                Some(serde_json::Value::String(s)) => serde_json::from_str::<Raw>(&s).ok(),
                _ => None,
            }),
            Bounded::Crashed => Err(()),
            _ => Ok(None),
        }
    }

    /// The page's child frames, in document order, at most [`MAX_CONSENT_FRAMES`] (none
    /// when the frame tree cannot be read).
    async fn child_frames(&self, opts: &TabConfig) -> Vec<FrameId> {
        fn walk(t: &FrameTree, out: &mut Vec<FrameId>) {
            for c in t.child_frames.iter().flatten() {
                out.push(c.frame.id.clone());
                walk(c, out);
            }
        }
        let mut out = Vec::new();
        if let Bounded::Done(Ok(r)) = self
            .bounded(
                opts.command_timeout,
                self.page.execute(GetFrameTreeParams::default()),
            )
            .await
        {
            walk(&r.result.frame_tree, &mut out);
        }
        out.truncate(MAX_CONSENT_FRAMES);
        out
    }
}
