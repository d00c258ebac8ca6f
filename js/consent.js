// sightline consent: answers a page's consent dialog with DuckDuckGo's autoconsent
// (js/vendor/autoconsent/, MPL-2.0), then returns ONE JSON string:
//   { cmp: name|null, popup: bool, action: "optOut"|"optIn", result: bool|null,
//     clicks: n|null, cosmetic: bool|null, ended: why the wait ended }
// Run with Runtime.evaluate (awaitPromise) on the page being read, only when its settle or
// its snapshot shows a consent platform: nothing stays for the next page (a navigation drops it).
// The renderer replaces __ACTION__, __WAIT_MS__, __SHOWN_MS__, __QUIET_MS__, __DIALOG_WORDS__, __ROOTS__, the
// rules and the bundle below.
//
// The wait ends as soon as one of these holds (`ended`):
//   answered     autoconsent answered the dialog it found (autoconsentDone)
//   failed       it found a dialog but its answer did not go through
//   no-platform  it recognised no platform after its retries
//   no-dialog    the platform's own API says it loaded and shows no dialog (IAB TCF's
//                `__tcfapi('ping')`: cmpLoaded with displayStatus hidden or disabled; IAB GPP's
//                `__gpp('ping')`: cmpStatus loaded with cmpDisplayStatus hidden or disabled),
//                after __SHOWN_MS__, while no dialog is found or painted
//   quiet        (in a child frame, only once autoconsent's first search found no platform)
//                no dialog found or painted and the page quiet (no element added or removed,
//                and in the main world no fetch or XHR pending or settled) for __QUIET_MS__:
//                the platform loaded, or failed to, without showing one (the settle before
//                this already waited for the page's requests and timers)
//   timeout      __WAIT_MS__ passed
// A dialog autoconsent found is always waited for, up to __WAIT_MS__; so is one whose root
// (`__ROOTS__`, the roots of sightline_core::walls::markers) paints a box of at least 2% of
// the viewport and shows words, which autoconsent has not found yet.
(async () => {
  const action = "__ACTION__", waitMs = __WAIT_MS__, shownMs = __SHOWN_MS__, quietMs = __QUIET_MS__, dialogWords = __DIALOG_WORDS__;
  const ROOTS = __ROOTS__;
  const rules = /*RULES*/;
  const report = { cmp: null, popup: false, action, result: null, clicks: null, cosmetic: null, ended: null };
  // sightline's own waits are not page activity (js/instrument.js keeps the unwrapped timer).
  const sl = window.__sl;
  const later = (f, ms) => ((sl && sl.raw && sl.raw.setTimeout) || setTimeout).call(window, f, ms);
  const t0 = performance.now();
  // In a child frame (a platform's dialog frame, Sourcepoint's), `quiet` waits for autoconsent's
  // first search for a platform to have finished and found none: a frame's dialog shows no
  // root of __ROOTS__, so before that search the wait would end on a loaded machine before
  // autoconsent had looked (the main frame's container holds only the frame: no words).
  let inFrame = true;
  try { inFrame = window.top !== window; } catch (e) {}
  let searched = false;
  let finish;
  const finished = new Promise((r) => { finish = r; });
  const end = (why) => { if (!report.ended) { report.ended = why; finish(); } };
  window.autoconsentSendMessage = (m) => {
    // Once the step ended without a dialog, this run of autoconsent stops at its next
    // message (it would otherwise keep looking for a while and answer a dialog that opens
    // later unseen): a dialog that opens during the steering or the scroll is answered
    // after the snapshot, by a run of its own.
    if (report.ended && !report.popup) throw new Error("sightline: the consent step ended");
    if (!m || typeof m !== "object") return;
    switch (m.type) {
      case "cmpDetected": report.cmp = report.cmp || m.cmp; break;
      case "popupFound": report.cmp = m.cmp; report.popup = true; break;
      case "optOutResult":
      case "optInResult":
        report.cmp = m.cmp; report.result = !!m.result;
        if (!m.result) end("failed");
        break;
      case "autoconsentDone":
        report.cmp = m.cmp; report.clicks = m.totalClicks ?? null; report.cosmetic = !!m.isCosmetic;
        end("answered");
        break;
      case "report":
        // No platform found after the retries: nothing to wait for.
        if (m.state && m.state.lifecycle === "nothingDetected") end("no-platform");
        // A second search began: the first one found no platform.
        if (m.state && (m.state.findCmpAttempts || 0) >= 2) searched = true;
        break;
      default: break;
    }
  };

  // The page's activity while autoconsent looks: elements added or removed.
  let lastDom = t0;
  let observer = null;
  try {
    observer = new MutationObserver(() => { lastDom = performance.now(); });
    observer.observe(document.documentElement || document, { childList: true, subtree: true });
  } catch (e) {}
  const requestsQuiet = (now) => !sl || (sl.requests === 0 && !(sl.lastRequest > now - quietMs));

  // A dialog's root that paints a box of at least 2% of the viewport (a floating "cookie
  // settings" button inside the platform's container does not count) and shows words (an
  // empty container whose dialog is a frame, answered in the frame's own run, or whose
  // frame did not load, does not count).
  const painted = () => {
    try {
      const sel = ROOTS.map(([r]) => `[id*="${r}" i],[class*="${r}" i]`).join(",");
      if (!sel) return false;
      const min = 0.02 * innerWidth * innerHeight;
      const els = Array.from(document.querySelectorAll(sel)).slice(0, 32);
      for (const root of els) {
        if ((root.innerText || "").trim().length < dialogWords) continue;
        const d = root.getElementsByTagName("*");
        for (let i = -1; i < d.length && i < 200; i++) {
          const e = i < 0 ? root : d[i];
          const r = e.getBoundingClientRect();
          if (r.width * r.height < min) continue;
          if (e.checkVisibility && !e.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
          return true;
        }
      }
    } catch (e) {}
    return false;
  };

  // The platform's API: loaded, and its dialog not shown. The stubs answer `ping` at once
  // (cmpLoaded false until the platform's script has run).
  let apiHidden = false;
  const hidden = (s) => s === "hidden" || s === "disabled";
  const askApi = () => {
    try {
      if (typeof window.__tcfapi === "function") {
        window.__tcfapi("ping", 2, (p) => {
          if (p && p.cmpLoaded === true && hidden(p.displayStatus)) apiHidden = true;
        });
      }
    } catch (e) {}
    try {
      if (typeof window.__gpp === "function") {
        const seen = (p) => {
          if (p && p.cmpStatus === "loaded" && hidden(p.cmpDisplayStatus)) apiHidden = true;
        };
        seen(window.__gpp("ping", seen));
      }
    } catch (e) {}
  };

  const look = () => {
    if (report.ended) return;
    const now = performance.now();
    if (now - t0 >= waitMs) return end("timeout");
    if (!report.popup && !painted()) {
      askApi();
      if (apiHidden && now - t0 >= shownMs) return end("no-dialog");
      const looked = !inFrame || (searched && !report.cmp);
      if (looked && now - t0 >= quietMs && now - lastDom >= quietMs && requestsQuiet(now)) return end("quiet");
    }
    later(look, 50);
  };
  // A fresh autoconsent for this run (the bundle keeps the first one it finds).
  window.autoconsentReceiveMessage = undefined;
/*BUNDLE*/
  if (window.autoconsentReceiveMessage) {
    window.autoconsentReceiveMessage({
      type: "initResp",
      config: {
        enabled: true, autoAction: action, disabledCmps: [], enablePrehide: false,
        enableCosmeticRules: true, enableGeneratedRules: true, enableHeuristicDetection: false,
        enablePopupMutationObserver: false, detectRetries: 5, isMainWorld: true,
        prehideTimeout: 0, visualTest: false,
        logs: { lifecycle: false, rulesteps: false, detectionsteps: false, evals: false,
          errors: false, messages: false, waits: false },
      },
      rules: { compact: rules },
    });
  }
  later(look, 50);
  await finished;
  if (observer) observer.disconnect();
  return JSON.stringify(report);
})()
