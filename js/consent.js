// sightline consent: answers a page's consent dialog with DuckDuckGo's autoconsent
// (js/vendor/autoconsent/, MPL-2.0), then returns ONE JSON string:
//   { cmp: name|null, popup: bool, action: "optOut"|"optIn", result: bool|null,
//     clicks: n|null, cosmetic: bool|null }
// Run with Runtime.evaluate (awaitPromise) on the page being read, only when its snapshot
// shows a consent platform: nothing stays for the next page (a navigation drops it).
// The renderer replaces __ACTION__, __WAIT_MS__, the rules and the bundle below.
(async () => {
  const action = "__ACTION__", waitMs = __WAIT_MS__;
  const rules = /*RULES*/;
  const report = { cmp: null, popup: false, action, result: null, clicks: null, cosmetic: null };
  let finish;
  const finished = new Promise((r) => { finish = r; });
  window.autoconsentSendMessage = async (m) => {
    if (!m || typeof m !== "object") return;
    switch (m.type) {
      case "cmpDetected": report.cmp = report.cmp || m.cmp; break;
      case "popupFound": report.cmp = m.cmp; report.popup = true; break;
      case "optOutResult":
      case "optInResult":
        report.cmp = m.cmp; report.result = !!m.result;
        if (!m.result) finish();
        break;
      case "autoconsentDone":
        report.cmp = m.cmp; report.clicks = m.totalClicks ?? null; report.cosmetic = !!m.isCosmetic;
        finish();
        break;
      case "report":
        // No platform found after the retries: nothing to wait for.
        if (m.state && m.state.lifecycle === "nothingDetected") finish();
        break;
      default: break;
    }
  };
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
  await Promise.race([finished, new Promise((r) => setTimeout(r, waitMs))]);
  return JSON.stringify(report);
})()
