// sightline before-page script: installed with Page.addScriptToEvaluateOnNewDocument, so it
// runs in every document (and same-origin frame) before the page's own scripts. It only
// observes; the page behaves as without it. What it records lives on one non-enumerable
// object, window.__sl, read by the settle probe (src/render/settle.rs), the scroll phase
// (src/render/scroll.rs) and the snapshot (js/snapshot.js):
//   lastDom     performance.now() of the last DOM change made after parsing (0: none)
//   timers      pending one-shot setTimeout callbacks: id -> due time (nested ones too);
//               timerEpoch: id -> the scroll step (sl.epoch) that started it or its chain
//   rafs        pending requestAnimationFrame callbacks requested outside a frame callback
//   requests    fetch / XMLHttpRequest calls not yet settled, and response bodies being read
//               (fetch resolves at the headers; the page inserts what it read from the body);
//               lastRequest: when one settled
//   textAdded   characters of text added to the document after parsing (added nodes' text
//               and changed text nodes), read by the scroll phase to see whether a step
//               brought anything
//   observed    IntersectionObserver.observe calls (the sign that content loads on scroll);
//   scrollListeners  scroll / wheel listeners added (reported, not used to decide)
//   scrollBoxes      elements that listen to their own `scroll` (weakly held, 64 at most)
// Closed shadow roots are kept reachable for the snapshot in a WeakMap under
// Symbol.for("sightline.closedShadowRoots") (open roots are reachable anyway).
(() => {
  if (window.__sl) return;
  const now = () => performance.now();
  const sl = { lastDom: 0, textAdded: 0, timers: new Map(), timerEpoch: new Map(), epoch: 0, rafs: 0, requests: 0, lastRequest: 0, observed: 0, scrollListeners: 0, scrollBoxes: [],
    // The unwrapped functions, for sightline's own waits (not counted as page activity).
    raw: { setTimeout: window.setTimeout, requestAnimationFrame: window.requestAnimationFrame } };
  Object.defineProperty(window, "__sl", { value: sl, enumerable: false });

  // DOM changes after parsing (the parser's own insertions are not script activity).
  const start = () => {
    const target = document.documentElement || document;
    const NO_TEXT = new Set(["SCRIPT", "STYLE", "TEMPLATE", "NOSCRIPT"]);
    const textOf = (n) => (n.nodeType === 3 ? n.data.length
      : n.nodeType === 1 && !NO_TEXT.has(n.nodeName) ? (n.textContent || "").length : 0);
    new MutationObserver((records) => {
      if (document.readyState === "loading") return;
      sl.lastDom = now();
      for (const r of records) {
        if (r.type === "characterData") sl.textAdded += textOf(r.target);
        else for (const n of r.addedNodes) sl.textAdded += textOf(n);
      }
    }).observe(target, { childList: true, subtree: true, characterData: true });
  };
  if (document.documentElement) start(); else document.addEventListener("readystatechange", start, { once: true });

  // One-shot timers with their due time. The settle waits only for those due within a short
  // horizon after `load` (the probe applies it), so polling chains cost at most the horizon.
  // Each timer also carries an epoch: the scroll phase bumps sl.epoch before each step, and a
  // timer set by a timer's callback inherits that timer's epoch, so a step waits only for
  // timers it started (and their chains), not for a polling loop that was running before.
  const st = window.setTimeout, ct = window.clearTimeout;
  let running = -1;
  window.setTimeout = function (fn, delay, ...args) {
    if (typeof fn !== "function") return st.call(window, fn, delay, ...args);
    const epoch = running >= 0 ? running : sl.epoch;
    const id = st.call(window, function () {
      sl.timers.delete(id); sl.timerEpoch.delete(id);
      const outer = running;
      running = epoch;
      try { return fn.apply(this, args); } finally { running = outer; }
    }, delay);
    sl.timers.set(id, now() + Math.max(0, Number(delay) || 0));
    sl.timerEpoch.set(id, epoch);
    return id;
  };
  window.clearTimeout = function (id) { sl.timers.delete(id); sl.timerEpoch.delete(id); return ct.call(window, id); };

  // Animation frames requested outside a frame callback (an animation loop requests its next
  // frame from inside one and is not waited for).
  const raf = window.requestAnimationFrame, caf = window.cancelAnimationFrame;
  const rafIds = new Set();
  let inFrame = 0;
  if (raf) {
    window.requestAnimationFrame = function (fn) {
      if (inFrame > 0 || typeof fn !== "function") return raf.call(window, fn);
      const id = raf.call(window, function (t) {
        if (rafIds.delete(id)) sl.rafs--;
        inFrame++;
        try { return fn(t); } finally { inFrame--; }
      });
      rafIds.add(id); sl.rafs++;
      return id;
    };
    window.cancelAnimationFrame = function (id) {
      if (rafIds.delete(id)) sl.rafs--;
      return caf.call(window, id);
    };
  }

  // Requests made by scripts: the settle waits for them and briefly after them (the page's
  // handler inserts the content once the body is read).
  const settle = () => { sl.requests--; sl.lastRequest = now(); };
  // Reading a response's body counts as a request until it is read: the page's handler then
  // runs in the same microtask checkpoint as `settle`, before any probe can look.
  const R = window.Response && window.Response.prototype;
  if (R) {
    for (const name of ["text", "json", "arrayBuffer", "blob", "formData"]) {
      const read = R[name];
      if (typeof read !== "function") continue;
      R[name] = function (...args) {
        sl.requests++;
        let p;
        try { p = read.apply(this, args); } catch (e) { settle(); throw e; }
        p.then(settle, settle);
        return p;
      };
    }
  }
  const f = window.fetch;
  if (f) {
    window.fetch = function (...args) {
      sl.requests++;
      let p;
      try { p = f.apply(this, args); } catch (e) { settle(); throw e; }
      p.then(settle, settle);
      return p;
    };
  }
  const X = window.XMLHttpRequest && window.XMLHttpRequest.prototype;
  if (X) {
    const send = X.send;
    X.send = function (...args) {
      sl.requests++;
      let done = false;
      const end = () => { if (!done) { done = true; settle(); } };
      this.addEventListener("loadend", end);
      try { return send.apply(this, args); } catch (e) { end(); throw e; }
    };
  }

  // Signs of content that loads on scroll.
  const IO = window.IntersectionObserver && window.IntersectionObserver.prototype;
  if (IO) {
    const observe = IO.observe;
    IO.observe = function (...args) { sl.observed++; return observe.apply(this, args); };
  }
  const ET = window.EventTarget && window.EventTarget.prototype;
  if (ET) {
    const add = ET.addEventListener;
    ET.addEventListener = function (type, ...rest) {
      if (type === "scroll" || type === "wheel") sl.scrollListeners++;
      // Elements listening to their own scrolling (virtual lists do): the boxes the steering
      // looks at first (src/render/steer/vlist.rs). A few, held weakly.
      if (type === "scroll" && this !== window && this !== document && this && this.nodeType === 1 && sl.scrollBoxes.length < 64) sl.scrollBoxes.push(new WeakRef(this));
      return add.call(this, type, ...rest);
    };
  }

  // Closed shadow roots, kept for the snapshot.
  const E = window.Element && window.Element.prototype;
  if (E && E.attachShadow) {
    const closed = new WeakMap();
    Object.defineProperty(window, Symbol.for("sightline.closedShadowRoots"), { value: closed, enumerable: false });
    const attach = E.attachShadow;
    E.attachShadow = function (init) {
      const root = attach.call(this, init);
      if (init && init.mode === "closed") closed.set(this, root);
      return root;
    };
  }
})()
