// sightline snapshot: runs inside the rendered page, walks the DOM once and
// returns ONE JSON string (JSON.stringify here, parsed by Rust: ~2x faster
// than returning the object over CDP for a 10,000-node page).
//
// Schema (schema_version 1), mirrored by `src/snapshot/mod.rs`:
//   nodes[i] = { parent, tag ("#text" for text), text?, id?, class?, role?,
//                href?, src? (resolved; for <img> its widest srcset candidate, else the image shown: see imageSrc), alt?,
//                rel? (of <a> and <area>), attrs? (WRITER_ATTRS, as written), link?,
//                tex?, mathml?, tex_display? (formulas: see mathOf),
//                box: [x, y, w, h] (CSS px, document
//                coordinates), lines? ([first, last] line boxes of a text on several
//                lines), display?, visibility?, position?, opacity?, font_size?,
//                font_weight?, rendered }
// Nodes are in flattened-tree (pre-)order; nodes[0] is <body> (or the root
// element for a frameset page) and every parent index is smaller than its child's.
// script, style, noscript, template and comments are never emitted (but for MathJax 2's
// `<script type="math/tex">`, a `script` node with `tex`); neither are whitespace-only
// text nodes or the inside of <svg>/<math>.
// Shadow DOM: a host's children are its shadow root's children (open roots, and
// closed roots recorded by the before-page script `js/instrument.js`); a <slot>
// is not emitted: the light-DOM nodes assigned to it (flattened) take its place,
// or its fallback content when nothing is assigned.
// Same-origin iframes: the frame document's <body> is emitted as the iframe
// node's child, boxes offset by the iframe's content box (document coordinates
// of the top page). Cross-origin frames stay opaque (their document is not
// readable from the page); so do frames of the page's own URL and frames whose
// document answered with an HTTP error.
// React streaming server rendering: a late content segment arrives as
// <div hidden id="S:n"> followed by an inline script ($RC / $RS) that moves it to
// its placeholder (<template id="B:n"> of a Suspense boundary, or <template
// id="P:n">). When that script never ran (a saved copy without its scripts, or
// JavaScript disabled), the snapshot first does what it would have done, as
// React's completeBoundary / completeSegment do, and counts it in
// `streamed_segments`.
(() => {
  const SKIP = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "HEAD", "META",
    "LINK", "TITLE", "BASE", "#comment"]);
  // (`MML:MATH`: MathML written with a namespace prefix, as JATS articles are (PubMed
  // Central), which an HTML parser makes an unknown element; its TeX is its `alttext`.)
  const OPAQUE = new Set(["SVG", "MATH", "MML:MATH", "IFRAME", "OBJECT", "EMBED", "CANVAS", "VIDEO", "AUDIO"]);
  const LINKISH = new Set(["A", "BUTTON", "SELECT"]);
  // List markers that count (a `<ul>` drawn so is an ordered list).
  const NUMBERED = /^(decimal|decimal-leading-zero|lower-alpha|upper-alpha|lower-latin|upper-latin|lower-roman|upper-roman|lower-greek)$/;
  // Attributes copied into `attrs` for the writers (crates/core/src/snapshot WRITER_ATTRS).
  // Classes of a note whose text shows on hover (see `hidden-text`).
  const NOTEISH = /(^|[\s_-])(foot)?note([\s_-]|$)|ltx_note/i;
  // A monospace font stack: its generic family last (`…, Courier, monospace`) or a
  // monospace face first (`Menlo`, `"Roboto Mono"`, `ui-monospace`).
  const MONO_FACE = /^(ui-monospace|monospace|sfmono-regular|sf mono|menlo|monaco|consolas|courier( new)?|.*\bmono\b.*|fira code|source code pro|cascadia code|inconsolata|hack)$/i;
  const CODE_TAGS = new Set(["PRE", "CODE", "KBD", "SAMP", "TT", "TEXTAREA"]);
  const isMono = (ff) => {
    const fams = String(ff || "").split(",").map((f) => f.trim().replace(/^["']|["']$/g, ""));
    return fams[fams.length - 1].toLowerCase() === "monospace" || MONO_FACE.test(fams[0]);
  };
  // All hidden notes' text together is bounded (a page of hidden tooltips classed `note`).
  let hiddenBudget = 200000;
  const WRITER_ATTRS = ["aria-describedby", "aria-hidden", "aria-label", "checked", "colspan", "data-callout",
    "data-callout-type", "data-code-block-lang", "data-code-language", "data-component-part", "data-footnote-backref",
    "data-footnote-ref", "data-lang", "data-language", "data-mode-id", "data-syntax", "data-syntaxhighlighter-params", "data-type", "datetime", "display", "encoding", "height",
    "itemprop", "lang", "language", "name",
    "reversed", "rowspan", "scope", "start", "title", "type", "width"];
  // Accessors found on the real prototype chains of `document` and its root element: a
  // <form> with an <input name="id"> makes `form.id` an element (DOM clobbering), named
  // elements shadow `document.title`, and old libraries replace the globals `Element` and
  // `Document`; none of that reaches these.
  const find = (obj, name) => {
    for (let o = Object.getPrototypeOf(obj); o; o = Object.getPrototypeOf(o)) {
      const d = Object.getOwnPropertyDescriptor(o, name);
      if (d) return d.get || d.value;
    }
    return undefined;
  };
  const docEl = find(document, "documentElement").call(document);
  // A script removed the root element (or `document.open()` left an empty document): no
  // nodes; the renderer then tries the page with JavaScript disabled.
  if (!docEl) {
    return JSON.stringify({
      schema_version: 1, url: String(location.href), title: "", description: "", keywords: "",
      lang: "", viewport: { width: window.innerWidth, height: window.innerHeight },
      document_writes_blocked: window.__slBlockedWrites || 0, shadow_roots: 0, frames: 0,
      document: { width: 0, height: 0 }, nodes: [],
    });
  }
  const onEl = (name) => find(docEl, name);
  const tagNameOf = onEl("tagName");
  const childNodesOf = onEl("childNodes");
  const nodeTypeOf = onEl("nodeType");
  const prevSiblingOf = onEl("previousSibling");
  const parentNodeOf = onEl("parentNode");
  const shadowRootOf = onEl("shadowRoot");
  const closedRoots = window[Symbol.for("sightline.closedShadowRoots")];
  const hostRoot = (el) => shadowRootOf.call(el) || (closedRoots ? closedRoots.get(el) : null) || null;
  const createEl = find(document, "createElement");
  const assignedNodesOf = find(createEl.call(document, "slot"), "assignedNodes");
  const frameDocOf = find(createEl.call(document, "iframe"), "contentDocument");
  const getAttr = onEl("getAttribute"), hasAttribute = onEl("hasAttribute"), bcr = onEl("getBoundingClientRect");
  const attr = (el, name) => getAttr.call(el, name);
  const hasAttr = (el, name) => hasAttribute.call(el, name);
  const rectOf = (el) => bcr.call(el);
  // The document's own `querySelectorAll` (a named element cannot shadow it), for every pass.
  const allOf = find(document, "querySelectorAll");
  const queryAll = (sel) => Array.from(allOf.call(document, sel));
  // Streamed segments whose completion script never ran (see the header), through the DOM's
  // own functions: a named element must not break this either (<img name="getElementById">).
  const streamed = (() => {
    const byId = find(document, "getElementById");
    const parentOf = onEl("parentNode"), firstOf = onEl("firstChild"), prevOf = onEl("previousSibling"),
      nextOf = onEl("nextSibling"), insert = onEl("insertBefore"), remove = onEl("removeChild");
    const get = (id) => byId.call(document, id);
    const isTemplate = (el) => el && nodeTypeOf.call(el) === 1 && String(tagNameOf.call(el)).toUpperCase() === "TEMPLATE";
    const moveKids = (from, parent, before) => {
      for (let c = firstOf.call(from); c; c = firstOf.call(from)) insert.call(parent, c, before);
    };
    let n = 0;
    try {
      const segs = queryAll('div[hidden][id^="S:"]');
      for (const seg of segs) {
        const k = String(getAttr.call(seg, "id")).slice(2);
        const segParent = parentOf.call(seg);
        if (!/^[0-9]+$/.test(k) || !segParent) continue;
        const slot = get("P:" + k), boundary = get("B:" + k);
        if (isTemplate(slot) && parentOf.call(slot)) {
          // completeSegment: the segment's nodes take the placeholder's place.
          remove.call(segParent, seg);
          const parent = parentOf.call(slot);
          moveKids(seg, parent, slot);
          remove.call(parent, slot);
          n++;
        } else if (isTemplate(boundary) && parentOf.call(boundary)) {
          // completeBoundary: the fallback, from the template to the boundary's matching
          // <!--/$-->, is replaced by the segment's nodes. Without the <!--$?--> ... <!--/$-->
          // markers (a copy that dropped comments) the fallback is left in place.
          remove.call(segParent, seg);
          const parent = parentOf.call(boundary);
          const start = prevOf.call(boundary);
          let end = null;
          if (start && nodeTypeOf.call(start) === 8 && start.data === "$?") {
            let depth = 0;
            for (let d = nextOf.call(boundary); d; d = nextOf.call(d)) {
              if (nodeTypeOf.call(d) !== 8) continue;
              if (d.data === "/$") { if (depth === 0) { end = d; break; } depth--; }
              else if (d.data === "$" || d.data === "$?" || d.data === "$!") depth++;
            }
          }
          if (end) {
            for (let d = boundary; d && d !== end;) { const next = nextOf.call(d); remove.call(parent, d); d = next; }
            moveKids(seg, parent, end);
            start.data = "$";
          } else {
            moveKids(seg, parent, boundary);
            remove.call(parent, boundary);
          }
          n++;
        }
      }
    } catch (e) { /* a page that broke the DOM's own functions: snapshot it as it is */ }
    return n;
  })();
  // Content hidden until found (`hidden="until-found"`: Wikipedia's mobile sections, a FAQ's
  // collapsed answers) is what a reader's find-in-page reveals: the snapshot does what a find
  // does (`beforematch` fired at it, so that the page's own handler opens its section, then
  // `hidden` removed); when the page's CSS still hides it (its handler never ran: scripts
  // off or blocked), it is shown as a block.
  (() => {
    try {
      const removeAttr = onEl("removeAttribute"), dispatch = onEl("dispatchEvent");
      for (const el of queryAll('[hidden="until-found"]')) {
        try { dispatch.call(el, new Event("beforematch", { bubbles: true })); } catch (e) { /* the page's handler threw */ }
        removeAttr.call(el, "hidden");
        if (getComputedStyle(el).display === "none") el.style.setProperty("display", "block", "important");
      }
    } catch (e) { /* a page that broke the DOM's own functions: snapshot it as it is */ }
  })();
  // A lazy image's placeholder beside its `<noscript>` copy (MediaWiki's mobile
  // `lazy-image-placeholder`, whose `data-src` a script swaps for an `<img>` when scrolled
  // to): when no script swapped it, the `<noscript>`'s one image takes its place, as the
  // loader would have put it (its source, size and alt text only). With scripts off the
  // `<noscript>`'s image is already an element (its content is not text): nothing to do.
  (() => {
    try {
      const nextEl = onEl("nextElementSibling"), prevEl = onEl("previousElementSibling");
      const qs = onEl("querySelector"), replace = onEl("replaceWith");
      for (const ns of queryAll("body noscript")) {
        const html = String(ns.textContent || "");
        if (!/<img\b/i.test(html)) continue;
        const ph = [nextEl.call(ns), prevEl.call(ns)].find((e) => e
          && !/^(IMG|NOSCRIPT|PICTURE)$/.test(String(tagNameOf.call(e)).toUpperCase())
          && hasAttr(e, "data-src") && !qs.call(e, "img"));
        if (!ph) continue;
        const imgs = new DOMParser().parseFromString(html, "text/html").body.querySelectorAll("img");
        if (imgs.length !== 1) continue;
        const img = createEl.call(document, "img");
        for (const a of ["src", "srcset", "sizes", "alt", "width", "height", "class", "title"]) {
          const v = imgs[0].getAttribute(a);
          if (v !== null) img.setAttribute(a, v);
        }
        replace.call(ph, img);
      }
    } catch (e) { /* a page that broke the DOM's own functions: snapshot it as it is */ }
  })();
  const doc = (name) => find(document, name).call(document);
  const baseURI = doc("baseURI");
  const resolve = (v) => { try { return new URL(v, baseURI).href; } catch (e) { return v; } };
  // An image's source is what the browser shows (`currentSrc`: the srcset candidate or the
  // <picture> source it chose); when that is a placeholder (a `data:` pixel) or nothing was
  // loaded yet, the real URL a lazy loader would swap in (`data-src` and its variants, then
  // the widest `srcset` / `data-srcset` candidate), else the `src` attribute.
  const currentSrcOf = find(createEl.call(document, "img"), "currentSrc");
  // Discuz!'s attachments: `zoomfile` (the full size) and `file` over a `none.gif`.
  const LAZY_SRC = ["data-src", "data-lazy-src", "data-original", "data-lazy", "data-url",
    "data-original-src", "data-hi-res-src", "data-full-src", "zoomfile", "file"];
  const isData = (u) => /^\s*data:/i.test(u);
  // A lazy loader's stand-in picture, named for what it is (Invision's `spacer.png`, a
  // `blank.gif`, `placeholder.svg`, `1x1.png`): with a lazy source beside it, that is the image.
  const PLACEHOLDER = /\/(spacer|blank|none|placeholder|transparent|pixel|grey|gray|1x1|lazy[-_]?load(ing|er)?)[^/]*\.(gif|png|svg|jpe?g|webp)([?#]|$)/i;
  // Or a blurred, low-quality copy of the picture that the lazy loader replaces (Naver's
  // `?type=w80_blur`, an LQIP): named so in its address.
  const LQIP = /[^a-z](blur(red)?|lqip|low-?res)([^a-z]|$)/i;
  const widest = (set) => {
    let best = null, bestW = -1;
    for (const part of String(set).split(/,\s+/)) {
      const [url, d] = part.trim().split(/\s+/);
      if (!url) continue;
      const m = /^([0-9.]+)([wx])$/.exec(d || "1x");
      const w = m ? parseFloat(m[1]) * (m[2] === "x" ? 1000 : 1) : 0;
      if (w > bestW) { best = url; bestW = w; }
    }
    return best;
  };
  const imageSrc = (el) => {
    // The widest candidate the image's own `srcset` offers, whether or not the browser has
    // loaded one yet (a lazy image's `currentSrc` follows when it was scrolled into view: not
    // a source to depend on); else the one the browser shows (a `<picture>`'s choice).
    const own = attr(el, "srcset");
    const wide = own && widest(own);
    if (wide && !isData(wide)) return resolve(wide);
    const cur = currentSrcOf ? String(currentSrcOf.call(el) || "") : "";
    if (cur && !isData(cur) && !((PLACEHOLDER.test(cur) || LQIP.test(cur)) && LAZY_SRC.some((n) => hasAttr(el, n)))) {
      return cur;
    }
    for (const n of LAZY_SRC) {
      const v = attr(el, n);
      if (v && v.trim() && !isData(v)) return resolve(v.trim());
    }
    for (const n of ["data-srcset", "data-lazy-srcset"]) {
      const v = attr(el, n);
      const c = v && widest(v);
      if (c && !isData(c)) return resolve(c);
    }
    return hasAttr(el, "src") ? resolve(attr(el, "src")) : null;
  };
  // Math (read by the markdown writer, crates/core/src/output/markdown/math.rs): the TeX of a
  // formula and whether it is shown as a block. KaTeX keeps its source in an
  // `annotation encoding="application/x-tex"` inside `.katex` (display inside
  // `.katex-display`); MathJax 3 puts a MathML copy in `mjx-assistive-mml` (display when
  // `display="true"`); plain MathML may carry a TeX annotation or `alttext`, else its
  // presentation markup is kept (`mathml`, cut at MATHML_MAX) for the writer to convert.
  // MathJax 2 leaves its source in `<script type="math/tex">` (emitted as a `script` node).
  const qsOf = onEl("querySelector"), closestOf = onEl("closest"), outerOf = onEl("outerHTML");
  const MATHML_MAX = 20000;
  const TEX_ANN = 'annotation[encoding="application/x-tex" i], annotation[encoding="TeX" i]';
  const mathOf = (el, tagU, cls) => {
    let m = null, display = false;
    if (tagU === "MJX-CONTAINER") {
      m = qsOf.call(el, "math");
      const d = attr(el, "display");
      display = d === "true" || d === "block";
    } else if (tagU === "MATH" || tagU === "MML:MATH") {
      if (closestOf.call(el, ".katex, mjx-container, .MathJax, .MathJax_Display, .MJX_Assistive_MathML")) return null;
      m = el;
      display = attr(el, "display") === "block";
    } else if (tagU === "D-MATH") {
      // Distill's `<d-math>` holds its TeX as text until its script renders it (offline it
      // never does); `block` marks a display formula.
      if (qsOf.call(el, "math, .katex")) return null;
      const t = String(textOfEl.call(el) || "").trim();
      return t ? { tex: t, display: hasAttr(el, "block") } : null;
    } else if (cls && /(^|\s)katex(\s|$)/.test(cls)) {
      m = qsOf.call(el, "math");
      display = !!closestOf.call(el, ".katex-display");
      if (!m) {
        const a = qsOf.call(el, TEX_ANN);
        return a ? { tex: textOfEl.call(a).trim(), display } : null;
      }
    } else {
      return null;
    }
    const out = { display };
    if (!m) return out;
    const a = qsOf.call(m, TEX_ANN);
    if (a) out.tex = textOfEl.call(a).trim();
    else if (hasAttr(m, "alttext") && String(attr(m, "alttext")).trim()) out.tex = String(attr(m, "alttext")).trim();
    else out.mathml = String(outerOf.call(m) || "").slice(0, MATHML_MAX);
    if (attr(m, "display") === "block") out.display = true;
    return out;
  };
  const textOfEl = onEl("textContent"), prevElOf = onEl("previousElementSibling");
  const sx = window.scrollX, sy = window.scrollY;
  const r1 = (v) => (Number.isFinite(v) ? Math.round(v * 10) / 10 : 0);
  // A client rect as the snapshot's `[x, y, w, h]` in document coordinates.
  const boxOf = (r, ctx) => [r1(r.left + ctx.ox), r1(r.top + ctx.oy), r1(r.width), r1(r.height)];
  // Per document: the offset from its viewport to top-page document coordinates, and a Range
  // for measuring its text nodes.
  const topCtx = { ox: sx, oy: sy, range: find(document, "createRange").call(document) };
  const root = doc("body") || docEl;
  const scrollW = onEl("scrollWidth"), scrollH = onEl("scrollHeight");
  const docW = Math.max(docEl ? scrollW.call(docEl) : 0, root ? scrollW.call(root) : 0);
  const docH = Math.max(docEl ? scrollH.call(docEl) : 0, root ? scrollH.call(root) : 0);
  const nodes = [];
  let shadowRoots = 0, frames = 0;
  const paints = []; // own box paints something (before the bottom-up pass)
  const monos = []; // drawn in a monospace font (elements; a text node as its parent)
  const meta = (name) => {
    const m = find(document, "querySelector").call(document, `meta[name="${name}" i]`);
    return m ? (attr(m, "content") || "") : "";
  };
  // Page metadata as the document states it (read by `src/extract/metadata.rs`): <meta>
  // name/property/itemprop pairs, JSON-LD blocks, <link rel> targets, and microdata and
  // <time> values. Bounded in count and length: a hostile page cannot grow the snapshot.
  const head = (() => {
    const textOf = onEl("textContent");
    const q = (sel, max) => {
      const out = [], list = allOf.call(document, sel);
      for (let i = 0; i < list.length && out.length < max; i++) out.push(list[i]);
      return out;
    };
    const cut = (v, n) => String(v == null ? "" : v).slice(0, n);
    const text = (el) => cut(textOf.call(el), 2000).replace(/\s+/g, " ").trim();
    const metas = [];
    for (const m of q("meta[name], meta[property], meta[itemprop]", 300)) {
      const k = attr(m, "property") || attr(m, "name") || attr(m, "itemprop");
      const c = attr(m, "content");
      if (k && c) metas.push([cut(k, 100).toLowerCase(), cut(c, 4000)]);
    }
    const json_ld = q('script[type="application/ld+json" i]', 20)
      .map((s) => cut(textOf.call(s), 200000));
    const links = [];
    for (const l of q("link[rel][href]", 100)) {
      const rel = String(attr(l, "rel") || "").toLowerCase();
      if (/\b(canonical|author|image_src|shortlink)\b/.test(rel)) links.push([cut(rel, 100), cut(find(l, "href").call(l), 4000)]);
    }
    const items = [];
    for (const el of q("[itemprop]:not(meta), time[datetime]", 200)) {
      const prop = String(attr(el, "itemprop") || "time").toLowerCase();
      const value = attr(el, "datetime") || attr(el, "content") || "";
      items.push([cut(prop, 100), cut(value, 1000), text(el).slice(0, 300)]);
    }
    return { metas, json_ld, links, items };
  })();
  const onPage = (r, c) => r.width > 0 && r.height > 0 && r.right + c.ox > 0 && r.bottom + c.oy > 0;
  // The nodes rendered in place of an element's children (flattened tree).
  const kidsOf = (el, tagU) => {
    const sr = hostRoot(el);
    if (sr) return childNodesOf.call(sr);
    if (tagU === "SLOT") {
      const assigned = assignedNodesOf.call(el, { flatten: true });
      if (assigned.length) return assigned;
    }
    return childNodesOf.call(el);
  };
  // A same-origin iframe's body and its context, or null.
  const frameOf = (el, r, cs, pc) => {
    let d = null;
    try { d = frameDocOf.call(el); } catch (e) { d = null; }
    if (!d) return null;
    const w0 = d.defaultView;
    // Not a frame of the page itself (src="#" and the like repeat the page), and not an
    // error page (a frame whose document answered 4xx/5xx).
    const noHash = (u) => String(u).split("#")[0];
    if (noHash(d.URL) === noHash(location.href)) return null;
    try {
      const nav = w0 && w0.performance.getEntriesByType("navigation")[0];
      if (nav && nav.responseStatus >= 400) return null;
    } catch (e) { /* keep the frame */ }
    const b = find(d, "body");
    const body = b ? b.call(d) : null;
    if (!body) return null;
    const w = d.defaultView;
    const c = {
      ox: pc.ox + r.left + (parseFloat(cs.borderLeftWidth) || 0) + (parseFloat(cs.paddingLeft) || 0) + (w ? w.scrollX : 0),
      oy: pc.oy + r.top + (parseFloat(cs.borderTopWidth) || 0) + (parseFloat(cs.paddingTop) || 0) + (w ? w.scrollY : 0),
      range: find(d, "createRange").call(d),
    };
    return [body, c];
  };

  // Iterative pre-order walk: [node, parentIndex, inLink, parentVisibility, ctx, keepsWhitespace].
  const stack = root ? [[root, -1, false, "visible", topCtx, false]] : [];
  let lastText = -1; // index in `nodes` of the last text node emitted
  // A blank that opens an element in preserved whitespace (a line's indentation before its
  // first token: `<div class="cm-line">    <span>return`) and the element's index: it goes
  // to the next text inside that element, not to the line before.
  let lead = "", leadParent = -1;
  const appendRaw = (t) => {
    if (lastText >= 0 && nodes[lastText].raw !== undefined) nodes[lastText].raw += t;
  };
  // A lead no text of its element took: it was a blank between tokens after all.
  const flushLead = () => {
    if (lead) appendRaw(lead);
    lead = "";
    leadParent = -1;
  };
  const PRE_WS = new Set(["pre", "pre-wrap", "pre-line", "break-spaces"]);
  const asWritten = (t) => t.replace(/\r\n?/g, "\n"); // `raw`: line breaks as \n
  // Outside preserved white space, a line indented with no-break spaces (a forum's code box
  // under `white-space: nowrap`: `<br>&nbsp; &nbsp; x`) shows every space, which collapsing
  // would lose: `raw` keeps them, as the layout does (spaces starting a line go, a space
  // after a no-break space stays).
  const nbspIndent = (node) => {
    const d = node.data;
    if (d.indexOf("\u00a0") < 0) return undefined;
    const before = prevSiblingOf.call(node);
    if (before !== null && !(nodeTypeOf.call(before) === 1
      && String(tagNameOf.call(before)).toUpperCase() === "BR")) return undefined;
    const shown = d.replace(/^[ \t\n\r\f]+/, "").replace(/[ \t\n\r\f]+/g, " ");
    if (!/^\u00a0[\u00a0 ]/.test(shown)) return undefined;
    return shown.replace(/\u00a0/g, " ");
  };
  while (stack.length) {
    const [node, parent, inLink, parentVis, ctx, pre] = stack.pop();
    const type = nodeTypeOf.call(node);
    if (type === 3) {
      const text = node.data.replace(/\s+/g, " ");
      if (text.trim() === "") {
        // In preserved whitespace (code) a blank between two tokens may be a line break.
        // A blank first in its element, or right after a <br>, indents the line's next text.
        const before = prevSiblingOf.call(node);
        const afterBreak = before !== null && nodeTypeOf.call(before) === 1
          && String(tagNameOf.call(before)).toUpperCase() === "BR";
        if (pre && parent >= 0 && (before === null || afterBreak)) {
          flushLead();
          lead = asWritten(node.data);
          leadParent = parent;
          // An element holding only the indentation (Expressive Code's `<span class="indent">`,
          // SyntaxHighlighter's `<code class="spaces">`) or a blank line: the lead belongs to
          // the line that opens with it, the outermost element it is first in, below the code
          // block's `<pre>` (or its `<pre><code>`).
          if (before === null) {
            let el = parentNodeOf.call(node);
            const isBlockRoot = (i) => nodes[i].tag === "pre"
              || (nodes[i].tag === "code" && nodes[i].parent >= 0 && nodes[nodes[i].parent].tag === "pre");
            while (el && nodeTypeOf.call(el) === 1 && prevSiblingOf.call(el) === null
              && !isBlockRoot(leadParent)) {
              const up = nodes[leadParent].parent, pe = parentNodeOf.call(el);
              if (up < 0 || !pe || nodeTypeOf.call(pe) !== 1
                || nodes[up].tag !== String(tagNameOf.call(pe)).toLowerCase()) break;
              leadParent = up;
              el = pe;
            }
            // An element holding only the blank right after a <br> (TypeDoc's
            // `<br/><span>  </span><span>throw`): the indentation of the line the <br> opens,
            // for the next text in the element that holds both.
            const sib = el && nodeTypeOf.call(el) === 1 ? prevSiblingOf.call(el) : null;
            if (sib && nodeTypeOf.call(sib) === 1 && String(tagNameOf.call(sib)).toUpperCase() === "BR"
              && nodes[leadParent].parent >= 0) {
              leadParent = nodes[leadParent].parent;
            }
          }
        } else if (pre) {
          flushLead();
          appendRaw(asWritten(node.data));
        }
        // A blank text node still separates words ("<b>a</b> <i>b</i>", and
        // "a.<span>&nbsp;</span>B" where the blank is inside an element of its own): keep it
        // as a trailing space on the previous text node instead of emitting a node.
        const prev = lastText >= 0 ? nodes[lastText] : null;
        if (prev && !prev.text.endsWith(" ")) prev.text += " ";
        continue;
      }
      ctx.range.selectNodeContents(node);
      const r = ctx.range.getBoundingClientRect();
      let indent = "";
      if (pre && lead && leadParent >= 0) {
        let p = parent;
        while (p > leadParent) p = nodes[p].parent;
        if (p === leadParent) {
          indent = lead;
          lead = "";
        }
      }
      flushLead();
      lastText = nodes.length;
      const t = { parent, tag: "#text", text, link: inLink || undefined,
        raw: pre ? indent + asWritten(node.data) : nbspIndent(node),
        box: boxOf(r, ctx) };
      // Drawn on more than one line: its first and last lines' boxes (`lines`), where the
      // bounding box cannot say where it starts and ends on a line.
      if (!pre && r.height > 1.6 * ((nodes[parent] && nodes[parent].font_size) || 16)) {
        const rs = ctx.range.getClientRects();
        if (rs.length > 1) {
          t.lines = [boxOf(rs[0], ctx), boxOf(rs[rs.length - 1], ctx)];
        }
      }
      nodes.push(t);
      paints.push(parentVis === "visible" && onPage(r, ctx));
      monos.push(parent >= 0 && monos[parent]);
      continue;
    }
    if (type !== 1) continue;
    const tagU = String(tagNameOf.call(node)).toUpperCase();
    if (tagU === "SCRIPT") {
      // MathJax 2's source, a node where the formula shows, with the box of the rendering
      // just before it (the rendering itself, SVG glyphs or a clipped assistive copy, is
      // skipped): TeX (`math/tex`, `math/tex; mode=display`), or MathML (`math/mml`,
      // Elsevier's ScienceDirect), converted by the writer, display when its `<math>` says so.
      const ty = String(attr(node, "type") || "").toLowerCase();
      const tex = /^math\/tex/.test(ty), mml = /^math\/mml/.test(ty);
      const src = tex || mml ? String(textOfEl.call(node) || "").trim() : "";
      if (tex || (src && src.length <= MATHML_MAX)) {
        const prev = prevElOf.call(node);
        const r = prev ? rectOf(prev) : null;
        const o = { parent, tag: "script" };
        if (tex) {
          o.tex = src.slice(0, MATHML_MAX);
          o.tex_display = /mode\s*=\s*display/.test(ty) || undefined;
        } else {
          o.mathml = src;
          o.tex_display = /<(?:[a-z]+:)?math\b[^>]*\bdisplay\s*=\s*["']block/i.test(src) || undefined;
        }
        o.box = r ? boxOf(r, ctx) : [0, 0, 0, 0];
        o.display = "none";
        nodes.push(o);
        paints.push(false);
        monos.push(false);
      }
      continue;
    }
    if (SKIP.has(tagU)) continue;
    if (tagU === "SLOT") {
      // Not rendered itself (display: contents): what it shows takes its place.
      const kids = kidsOf(node, tagU);
      for (let k = kids.length - 1; k >= 0; k--) stack.push([kids[k], parent, inLink, parentVis, ctx, pre]);
      continue;
    }
    const cs = getComputedStyle(node);
    const r = rectOf(node);
    const link = inLink || LINKISH.has(tagU);
    const o = { parent, tag: tagU.toLowerCase(),
      box: boxOf(r, ctx) };
    const id = attr(node, "id");
    if (id) o.id = id;
    const cls = attr(node, "class");
    if (cls && cls.trim()) o.class = cls.trim().replace(/\s+/g, " ");
    const role = attr(node, "role");
    if (role) o.role = role;
    if (hasAttr(node, "href")) o.href = resolve(attr(node, "href"));
    if (tagU === "IMG") {
      const src = imageSrc(node);
      if (src !== null) o.src = src;
      // An image whose source did not load (its host refused or unreachable; the static
      // lane fetches none): the computed fact, as `broken` (not an attribute of the page).
      if (node.complete && node.naturalWidth === 0 && node.currentSrc) (o.attrs || (o.attrs = {}))["broken"] = "";
    } else if (hasAttr(node, "src")) o.src = resolve(attr(node, "src"));
    else if (tagU === "VIDEO") {
      // <video><source src>: the first source (the markdown writer links the video).
      const s = find(node, "querySelector").call(node, "source[src]");
      if (s) o.src = resolve(attr(s, "src"));
    }
    if (hasAttr(node, "alt")) o.alt = attr(node, "alt");
    if ((tagU === "A" || tagU === "AREA") && hasAttr(node, "rel")) {
      const rel = String(attr(node, "rel") || "").trim().toLowerCase().replace(/\s+/g, " ");
      if (rel) o.rel = rel.slice(0, 100);
    }
    for (const n of WRITER_ATTRS) {
      if (hasAttr(node, n)) (o.attrs || (o.attrs = {}))[n] = String(attr(node, n) || "").slice(0, 300);
    }
    // A `<ul>`'s item drawn with numbers (WP Recipe Maker's steps: `li { list-style-type:
    // decimal }`): the computed style, as `list-style-type` (not an attribute of the page).
    if (tagU === "LI" && nodes[parent] && nodes[parent].tag === "ul" && NUMBERED.test(cs.listStyleType)) {
      (o.attrs || (o.attrs = {}))["list-style-type"] = cs.listStyleType;
    }
    const mi = mathOf(node, tagU, cls);
    if (mi) {
      if (mi.tex !== undefined) o.tex = mi.tex.slice(0, MATHML_MAX);
      if (mi.mathml !== undefined) o.mathml = mi.mathml;
      if (mi.display) o.tex_display = true;
    }
    if (link) o.link = true;
    if (cs.display !== "block") o.display = cs.display;
    if (cs.visibility !== "visible") o.visibility = cs.visibility;
    if (cs.position !== "static") o.position = cs.position;
    const op = parseFloat(cs.opacity);
    if (op !== 1 && Number.isFinite(op)) o.opacity = op;
    o.font_size = parseFloat(cs.fontSize) || 0;
    const fw = parseInt(cs.fontWeight, 10);
    if (fw !== 400 && Number.isFinite(fw)) o.font_weight = fw;
    // A note's text the page shows only on hover (LaTeXML's `ltx_note_outer`): an element
    // not displayed, itself or its parent classed a note, keeps its text as `hidden-text`
    // (not an attribute of the page) for the footnote writer.
    if (hiddenBudget > 0 && cs.display === "none" && NOTEISH.test((cls || "") + " " + ((nodes[parent] && nodes[parent].class) || ""))) {
      const t = String(textOfEl.call(node) || "").replace(/\s+/g, " ").trim().slice(0, 4000);
      if (t) { (o.attrs || (o.attrs = {}))["hidden-text"] = t; hiddenBudget -= t.length; }
    }
    // Where a monospace font starts (its parent's font is not one): `font-mono` (not an
    // attribute of the page), which shows code that no code element marks (Notion's spans).
    const mono = isMono(cs.fontFamily);
    if (mono && !(parent >= 0 && monos[parent]) && !CODE_TAGS.has(tagU)) (o.attrs || (o.attrs = {}))["font-mono"] = "";
    const idx = nodes.length;
    nodes.push(o);
    paints.push(cs.display !== "none" && cs.visibility === "visible" && onPage(r, ctx));
    monos.push(mono);
    if (cs.display === "none") continue;
    if (tagU === "IFRAME" || tagU === "FRAME") {
      const f = frameOf(node, r, cs, ctx);
      if (f) { frames++; stack.push([f[0], idx, link, cs.visibility, f[1], false]); }
      continue;
    }
    if (OPAQUE.has(tagU)) continue;
    if (hostRoot(node)) shadowRoots++;
    const kids = kidsOf(node, tagU);
    const keeps = PRE_WS.has(cs.whiteSpace);
    for (let k = kids.length - 1; k >= 0; k--) stack.push([kids[k], idx, link, cs.visibility, ctx, keeps]);
  }
  // rendered = paints itself, or holds something that does (a zero-height
  // float container still shows its floated children).
  const rendered = paints.slice();
  for (let i = nodes.length - 1; i > 0; i--) {
    if (rendered[i]) rendered[nodes[i].parent] = true;
  }
  for (let i = 0; i < nodes.length; i++) nodes[i].rendered = rendered[i];
  // Wall signals (read by `crates/core/src/walls`): the external scripts' URLs as written,
  // which of a few vendor globals the page's scripts defined (own properties of `window`
  // only: a named element is not one), and the visible password fields. Bounded.
  const signals = (() => {
    const scripts = [];
    const list = allOf.call(document, "script[src]");
    for (let i = 0; i < list.length && scripts.length < 64; i++) {
      const s = String(attr(list[i], "src") || "").slice(0, 300);
      if (s) scripts.push(s);
    }
    const globals = ["_cf_chl_opt", "_pxAppId", "_pxUuid", "AwsWafIntegration", "KPSDK",
      "grecaptcha", "hcaptcha", "turnstile", "__tcfapi", "__cmp", "OneTrust", "Optanon",
      "Didomi", "_sp_", "__uspapi", "googlefc", "sucuri_cloudproxy_js", "AwsWafCaptcha",
      "bmak"].filter((g) => {
      try { return Object.getOwnPropertyDescriptor(window, g) !== undefined; } catch (e) { return false; }
    });
    let password_inputs = 0;
    const pw = allOf.call(document, 'input[type="password" i]');
    for (let i = 0; i < pw.length && i < 50; i++) {
      const r = rectOf(pw[i]);
      if (r.width > 0 && r.height > 0) password_inputs++;
    }
    const out = {};
    if (scripts.length) out.scripts = scripts;
    if (globals.length) out.globals = globals;
    if (password_inputs) out.password_inputs = password_inputs;
    return out;
  })();
  return JSON.stringify({
    schema_version: 1,
    url: String(location.href),
    title: String(doc("title") || ""),
    description: meta("description"),
    keywords: meta("keywords"),
    lang: (docEl && attr(docEl, "lang")) || "",
    charset: String(doc("characterSet") || ""),
    viewport: { width: window.innerWidth, height: window.innerHeight },
    document_writes_blocked: window.__slBlockedWrites || 0,
    shadow_roots: shadowRoots,
    frames,
    streamed_segments: streamed,
    head,
    ...(Object.keys(signals).length ? { signals } : {}),
    document: { width: docW, height: docH },
    nodes,
  });
})()
