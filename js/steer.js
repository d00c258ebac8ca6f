// sightline steering helpers: what the steering phase (src/render/steer/) does inside the
// page, evaluated on demand as one expression that yields an object of functions, called as
// `(<this file>).name(args)`. Nothing here is installed before the page: a page without a
// steering plan never sees it. Every function returns plain JSON.
//
//   visible(sel)        an element matching `sel` is visible (a box, not visibility:hidden)
//   text(t)             the page's visible text holds `t` (whitespace collapsed)
//   clickPoint(sel)     scroll the first visible match into view; the point to click, or why
//                       not (nothing visible matches, another element covers it)
//   focus(sel)          focus the first visible match (caret at the end of its value)
//   focused()           the focused element is editable
//   scroll(sel, dir)    scroll the window or the first match by one screen
//   listFind(sel, share)  the scrolling box to gather rows from: the one named, or (sel
//                       null) among the scrollable boxes that listen to their own scrolling
//                       (window.__sl.scrollBoxes, as virtual lists do), the one holding the most
//                       text when it holds at least `share` of the page's text; kept as
//                       window.__slList
//   listStep(y, frameWait)  scroll the box to `y`, wait two frames, collect its rows
//   listCollect()       collect the rows the box shows now
//   listFinish()        when rows were removed while scrolling (a virtual list), put every
//                       row seen back in the box, in order, un-clipped; else scroll it back up
(() => {
  const raw = (window.__sl && window.__sl.raw) || window;
  const bump = () => { if (window.__sl) window.__sl.epoch++; };
  const isVisible = (el) => {
    if (!el || !el.isConnected) return false;
    const r = el.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0) return false;
    return getComputedStyle(el).visibility !== "hidden";
  };
  // The first visible match, or a reason (an invalid selector throws a SyntaxError: said).
  const find = (sel) => {
    let all;
    try { all = document.querySelectorAll(sel); } catch (e) { return { bad: `\`${sel}\` is not a valid CSS selector` }; }
    for (const el of all) if (isVisible(el)) return { el };
    return { none: all.length ? `the elements matching \`${sel}\` are not visible` : `no element matches \`${sel}\`` };
  };
  const describe = (el) => {
    if (!el || !el.tagName) return "another element";
    let d = el.tagName.toLowerCase();
    if (el.id) d += "#" + el.id;
    else if (typeof el.className === "string" && el.className.trim()) d += "." + el.className.trim().split(/\s+/).join(".");
    return d;
  };
  const norm = (s) => s.replace(/\s+/g, " ").trim();
  const editable = (el) => !!el && (el.isContentEditable || el.tagName === "TEXTAREA"
    || (el.tagName === "INPUT" && !/^(button|submit|reset|checkbox|radio|file|image|hidden|range|color)$/i.test(el.type)));

  // Rows of a list: keyed by an index or id attribute when they carry one, else by their text.
  const KEY_ATTRS = ["data-index", "aria-rowindex", "data-row-index", "data-item-index", "data-key", "data-id", "id"];
  const INDEX_ATTRS = new Set(["data-index", "aria-rowindex", "data-row-index", "data-item-index"]);
  const keyOf = (row) => {
    for (const a of KEY_ATTRS) {
      const v = row.getAttribute(a);
      if (v !== null && v !== "") return { key: a + "=" + v, index: INDEX_ATTRS.has(a) && /^-?\d+$/.test(v) ? +v : null };
    }
    const t = norm(row.textContent || "");
    return t ? { key: "t:" + t, index: null } : null;
  };
  // The element whose children are the rows: the one with the most element children within
  // the box (the shallowest on a tie), a few levels down at most.
  const rowParent = (box) => {
    let best = box, n = box.children.length, level = [box];
    for (let depth = 0; depth < 4 && level.length; depth++) {
      const next = [];
      for (const e of level) for (const c of e.children) {
        if (c.children.length > n) { best = c; n = c.children.length; }
        next.push(c);
      }
      level = next.length > 200 ? next.slice(0, 200) : next;
    }
    return best;
  };
  const textLen = (el) => {
    let n = (el.textContent || "").length;
    for (const s of el.querySelectorAll("script,style,noscript,template")) n -= (s.textContent || "").length;
    return n;
  };
  const scrollable = (el) => el.clientHeight > 0 && el.scrollHeight > el.clientHeight + 1;
  const measure = (L) => ({ top: L.el.scrollTop, height: L.el.scrollHeight, client: L.el.clientHeight,
    rows: L.rows.size, removed: L.removed, added: window.__sl ? window.__sl.textAdded : 0 });
  const collect = () => {
    const L = window.__slList;
    if (!L || !L.el.isConnected) return null;
    if (!L.parent || !L.parent.isConnected || !L.el.contains(L.parent)) L.parent = rowParent(L.el);
    const now = new Set();
    const boxTop = L.el.getBoundingClientRect().top - L.el.scrollTop;
    for (const row of L.parent.children) {
      const k = keyOf(row);
      if (!k) continue;
      now.add(k.key);
      if (!L.rows.has(k.key)) {
        const pos = k.index !== null ? k.index : row.getBoundingClientRect().top - boxTop;
        L.rows.set(k.key, { node: row.cloneNode(true), pos, byIndex: k.index !== null, seq: L.seq++ });
      }
    }
    for (const k of L.prev) if (!now.has(k)) L.removed++;
    L.prev = now;
    return measure(L);
  };
  const unclip = (el) => {
    el.style.setProperty("height", "auto", "important");
    el.style.setProperty("max-height", "none", "important");
    el.style.setProperty("min-height", "0", "important");
  };

  return {
    visible: (sel) => { const f = find(sel); return f.bad ? { bad: f.bad } : { ok: !!f.el }; },
    text: (t) => ({ ok: !!document.body && norm(document.body.innerText || "").includes(norm(t)) }),
    clickPoint: (sel) => {
      bump();
      const f = find(sel);
      if (!f.el) return { why: f.bad || f.none };
      f.el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
      const r = f.el.getBoundingClientRect();
      const x = r.left + r.width / 2, y = r.top + r.height / 2;
      const hit = document.elementFromPoint(x, y);
      if (hit && hit !== f.el && !f.el.contains(hit) && !hit.contains(f.el)) {
        return { why: `the element matching \`${sel}\` is covered by ${describe(hit)}` };
      }
      return { ok: true, x, y };
    },
    focus: (sel) => {
      bump();
      const f = find(sel);
      if (!f.el) return { why: f.bad || f.none };
      f.el.scrollIntoView({ block: "center", behavior: "instant" });
      f.el.focus();
      const a = document.activeElement;
      if (a !== f.el && !f.el.contains(a)) return { why: `the element matching \`${sel}\` cannot take the focus` };
      if (!editable(a)) return { why: `the element matching \`${sel}\` (${describe(a)}) does not take text` };
      try { if (typeof a.value === "string" && a.setSelectionRange) a.setSelectionRange(a.value.length, a.value.length); } catch (e) { /* not a text field */ }
      return { ok: true };
    },
    focused: () => {
      bump();
      const a = document.activeElement;
      return editable(a) ? { ok: true } : { why: "no element that takes text has the focus (give the action a selector, or click the field first)" };
    },
    scroll: (sel, dir) => {
      bump();
      const sign = dir === "up" ? -1 : 1;
      if (sel === null) {
        const y = window.scrollY;
        window.scrollBy({ top: sign * window.innerHeight, left: 0, behavior: "instant" });
        return { ok: true, moved: window.scrollY !== y };
      }
      let all;
      try { all = document.querySelectorAll(sel); } catch (e) { return { why: `\`${sel}\` is not a valid CSS selector` }; }
      const el = Array.from(all).find((e) => isVisible(e) && scrollable(e)) || Array.from(all).find(isVisible);
      if (!el) return { why: all.length ? `the elements matching \`${sel}\` are not visible` : `no element matches \`${sel}\`` };
      const y = el.scrollTop;
      el.scrollBy({ top: sign * el.clientHeight, left: 0, behavior: "instant" });
      return { ok: true, moved: el.scrollTop !== y };
    },
    listFind: (sel, share) => {
      let el = null;
      if (sel !== null) {
        let all;
        try { all = document.querySelectorAll(sel); } catch (e) { return { why: `\`${sel}\` is not a valid CSS selector` }; }
        el = Array.from(all).find(scrollable) || all[0] || null;
        if (!el) return { why: `no element matches \`${sel}\`` };
      } else {
        // Only elements that listen to their own scrolling are looked at (a walk of every
        // element cost ~50 ms on a page of 16,000): a virtual list listens to its box.
        const sl = window.__sl;
        const boxes = sl && sl.scrollBoxes ? sl.scrollBoxes.map((w) => w.deref()).filter((e) => e && e.isConnected) : [];
        if (!boxes.length || !document.body) return { why: "no-box" };
        let best = null, most = 0;
        for (const e of boxes) {
          if (!scrollable(e) || e.tagName === "TEXTAREA" || e.tagName === "SELECT") continue;
          if (!/^(auto|scroll|overlay)$/.test(getComputedStyle(e).overflowY)) continue;
          const n = textLen(e);
          if (n > most) { most = n; best = e; }
        }
        if (!best || most < share * textLen(document.body)) return { why: "no-box" };
        el = best;
      }
      window.__slList = { el, parent: null, rows: new Map(), prev: new Set(), seq: 0, removed: 0 };
      const m = collect();
      return { ok: true, box: describe(el), ...m };
    },
    listStep: async (y, frameWait) => {
      const L = window.__slList;
      if (!L || !L.el.isConnected) return null;
      bump();
      L.el.scrollTo({ top: y, left: 0, behavior: "instant" });
      const framed = await new Promise((res) => {
        let done = false;
        const fin = (f) => { if (!done) { done = true; res(f); } };
        if (raw.requestAnimationFrame) raw.requestAnimationFrame.call(window, () => raw.requestAnimationFrame.call(window, () => fin(true)));
        raw.setTimeout.call(window, () => fin(false), frameWait);
      });
      const m = collect();
      return m && { ...m, framed };
    },
    listCollect: () => collect(),
    listFinish: () => {
      const L = window.__slList;
      if (!L) return null;
      delete window.__slList;
      if (!L.el.isConnected) return { restored: false, rows: L.rows.size, removed: L.removed };
      if (L.removed === 0) {
        L.el.scrollTo({ top: 0, left: 0, behavior: "instant" });
        return { restored: false, rows: L.rows.size, removed: 0 };
      }
      const rows = Array.from(L.rows.values());
      const byIndex = rows.every((r) => r.byIndex);
      rows.sort((a, b) => (byIndex || a.byIndex === b.byIndex ? a.pos - b.pos : 0) || a.seq - b.seq);
      const p = L.parent && L.parent.isConnected ? L.parent : rowParent(L.el);
      while (p.firstChild) p.removeChild(p.firstChild);
      for (const r of rows) {
        const n = r.node;
        if (n.style) {
          n.style.setProperty("position", "static", "important");
          n.style.setProperty("top", "auto", "important");
          n.style.setProperty("transform", "none", "important");
          n.style.setProperty("translate", "none", "important");
        }
        p.appendChild(n);
      }
      // The row parent and the wrappers up to the box held the list's whole height (or the
      // spacers' padding): their height is the rows' now. The box no longer clips.
      for (let e = p; e && e !== L.el; e = e.parentElement) {
        unclip(e);
        e.style.setProperty("padding-top", "0", "important");
        e.style.setProperty("padding-bottom", "0", "important");
      }
      unclip(L.el);
      L.el.style.setProperty("overflow", "visible", "important");
      L.el.scrollTop = 0;
      return { restored: true, rows: rows.length, removed: L.removed };
    },
  };
})()
