// pdf_view.js: the page sightline builds for a PDF main document (docs/pdf.md). It runs as a
// module script in an HTML page that `render/tab/pdf.rs` serves at the PDF's own URL, with
// `window.__slPdfSrc = {lib, worker, data}`: PDF.js's library and worker sources
// (js/vendor/pdfjs) and the PDF's bytes in base64. It lays out each PDF page's text as
// positioned elements at their place and font size, so the snapshot, the extraction and the
// screenshot work on it as on any page:
//
//   1. open the document with PDF.js (an encrypted, broken or text-less one is an error);
//   2. lines: each page's text items (in the PDF's content order) joined into lines by baseline;
//   3. running lines dropped: a line in the page's top or bottom band that repeats at the same
//      place on other pages (digits aside), and bare page numbers there;
//   4. blocks: consecutive lines of one size and weight, close together, become a paragraph;
//      a block larger than the body size (the size most characters have) is a heading, h1 for
//      the largest size, h2 for the next, h3 below; a short bold block at body size is a heading
//      one level below the sized ones;
//   5. the page is written: one <section> per PDF page, each block positioned in it.
//
// The outcome is left in `window.__slPdf` ({done, pages, dropped, chars} or {done, error,
// message}) for the runtime to read.
(async () => {
  const state = (window.__slPdf = { done: false });
  const src = window.__slPdfSrc || {};
  delete window.__slPdfSrc;
  for (const s of Array.from(document.querySelectorAll("script"))) s.remove();

  // CSS pixels per PDF point.
  const SCALE = 96 / 72;
  // Share of the page height, at its top and at its bottom, where running headers, footers
  // and page numbers are looked for.
  const BAND = 0.12;
  // How far (px) a running line may move between pages and still be the same line.
  const SAME_PLACE = 8;
  // A block at least this much larger than the body text is a heading.
  const HEADING_RATIO = 1.15;
  // Lines whose baselines are closer than this share of the font size are one line.
  const SAME_LINE = 0.4;
  // A horizontal gap between two text items wider than this share of the font size is a
  // space where PDF.js put none.
  const WORD_GAP = 0.15;
  // A vertical gap larger than this share of the font size starts a new block.
  const BLOCK_GAP = 0.75;

  let worker = null;
  const finish = (o) => {
    Object.assign(state, o, { done: true });
    if (worker) worker.terminate();
  };

  try {
    const url = (text) => URL.createObjectURL(new Blob([text], { type: "text/javascript" }));
    const lib = await import(url(src.lib));
    worker = new Worker(url(src.worker), { type: "module" });
    lib.GlobalWorkerOptions.workerPort = worker;
    const raw = atob(src.data || "");
    const bytes = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);

    // 1. open
    let doc;
    try {
      doc = await lib.getDocument({ data: bytes, isEvalSupported: false, stopAtErrors: false })
        .promise;
    } catch (e) {
      const name = (e && e.name) || "";
      if (name === "PasswordException") {
        return finish({ error: "encrypted", message: "the PDF is encrypted and needs a password" });
      }
      return finish({ error: "broken", message: `PDF.js cannot read it: ${(e && e.message) || e}` });
    }
    const pages = doc.numPages;
    let title = "";
    try {
      const meta = await doc.getMetadata();
      title = ((meta && meta.info && meta.info.Title) || "").trim();
    } catch (_) {}

    // 2. lines
    const all = [];
    const sizes = [];
    for (let p = 1; p <= pages; p++) {
      const page = await doc.getPage(p);
      const vp = page.getViewport({ scale: SCALE });
      sizes.push({ w: vp.width, h: vp.height });
      const tc = await page.getTextContent();
      const bold = {};
      try {
        // Fonts are known to the page's objects once its operators are read.
        await page.getOperatorList();
        for (const it of tc.items) {
          if (!it.fontName || it.fontName in bold) continue;
          let b = false;
          if (page.commonObjs.has(it.fontName)) {
            const f = page.commonObjs.get(it.fontName);
            b = !!(f && (f.bold || f.black || /bold|black|heavy|semibold|demi/i.test(f.name || "")));
          }
          bold[it.fontName] = b;
        }
      } catch (_) {}
      const lines = [];
      let cur = null;
      const close = () => {
        if (cur && cur.text.trim()) lines.push(cur);
        cur = null;
      };
      for (const it of tc.items) {
        if (typeof it.str !== "string") continue;
        const t = it.transform;
        const size = Math.hypot(t[2], t[3]) * SCALE;
        const [x, base] = vp.convertToViewportPoint(t[4], t[5]);
        const w = (it.width || 0) * SCALE;
        if (it.str.length && size > 0) {
          const joins =
            cur &&
            Math.abs(base - cur.base) < SAME_LINE * Math.max(size, cur.size) &&
            x > cur.x0 - size &&
            x - cur.x1 < 4 * Math.max(size, cur.size);
          if (!joins) {
            close();
            cur = { page: p, text: "", x0: x, x1: x, base, size: 0, chars: 0, boldChars: 0 };
          }
          const gap = x - cur.x1;
          if (cur.text && gap > WORD_GAP * size && !/\s$/.test(cur.text) && !/^\s/.test(it.str)) {
            cur.text += " ";
          }
          cur.text += it.str;
          cur.x0 = Math.min(cur.x0, x);
          cur.x1 = Math.max(cur.x1, x + w);
          const n = it.str.replace(/\s/g, "").length;
          cur.size = Math.max(cur.size, size);
          cur.chars += n;
          if (bold[it.fontName]) cur.boldChars += n;
        }
        if (it.hasEOL) close();
      }
      close();
      for (const l of lines) {
        l.text = l.text.replace(/\s+/g, " ").trim();
        l.top = l.base - 0.85 * l.size;
        l.bottom = l.base + 0.25 * l.size;
        l.bold = l.chars > 0 && l.boldChars / l.chars > 0.7;
        l.pageH = vp.height;
        all.push(l);
      }
      page.cleanup();
    }
    const chars = all.reduce((n, l) => n + l.chars, 0);
    if (chars === 0) {
      return finish({
        error: "image-only",
        pages,
        message: `the PDF has no text layer (${pages} page${pages === 1 ? "" : "s"} of images only)`,
      });
    }

    // 3. running lines
    const norm = (t) => t.toLowerCase().replace(/\d+/g, "#").replace(/\s+/g, " ").trim();
    const inBand = (l) => l.top < l.pageH * BAND || l.bottom > l.pageH * (1 - BAND);
    const PAGE_NUMBER = /^[-–—(\[]?\s*(page\s+|p\.\s*)?([0-9]+|[ivxlcdm]+)(\s*(\/|of)\s*[0-9]+)?\s*[-–—)\]]?$/i;
    const seen = new Map();
    for (const l of all) {
      if (!inBand(l)) continue;
      const k = norm(l.text);
      if (!seen.has(k)) seen.set(k, []);
      seen.get(k).push(l);
    }
    const need = Math.max(2, Math.ceil(0.3 * pages));
    let dropped = 0;
    for (const l of all) {
      if (!inBand(l)) continue;
      const same = seen.get(norm(l.text)) || [];
      const onPages = new Set(same.filter((o) => Math.abs(o.top - l.top) <= SAME_PLACE).map((o) => o.page));
      if ((pages > 1 && onPages.size >= need) || PAGE_NUMBER.test(l.text)) {
        l.drop = true;
        dropped++;
      }
    }
    const kept = all.filter((l) => !l.drop);

    // 4. blocks
    const weight = new Map();
    for (const l of kept) {
      const s = Math.round(l.size * 2) / 2;
      weight.set(s, (weight.get(s) || 0) + l.chars);
    }
    let body = 0;
    let most = -1;
    for (const [s, n] of weight) if (n > most) (most = n), (body = s);
    const blocks = [];
    let b = null;
    for (const l of kept) {
      const prev = b && b.lines[b.lines.length - 1];
      const starts =
        !prev ||
        prev.page !== l.page ||
        Math.abs(l.size - prev.size) > 0.1 * prev.size ||
        l.bold !== prev.bold ||
        l.top - prev.bottom > BLOCK_GAP * prev.size ||
        l.top < prev.top ||
        l.x0 > b.x1 ||
        l.x1 < b.x0;
      if (starts) {
        b = { page: l.page, lines: [], x0: l.x0, x1: l.x1, top: l.top, bottom: l.bottom, size: l.size, bold: l.bold };
        blocks.push(b);
      }
      b.lines.push(l);
      b.x0 = Math.min(b.x0, l.x0);
      b.x1 = Math.max(b.x1, l.x1);
      b.bottom = Math.max(b.bottom, l.bottom);
    }
    const big = (bl) => bl.size >= body * HEADING_RATIO && bl.lines.length <= 4;
    const headingSizes = [...new Set(blocks.filter(big).map((bl) => Math.round(bl.size * 2) / 2))].sort((a, c) => c - a);
    for (const bl of blocks) {
      const text = bl.lines.map((l) => l.text).join("\n");
      if (big(bl)) {
        bl.level = Math.min(3, headingSizes.indexOf(Math.round(bl.size * 2) / 2) + 1);
      } else if (bl.bold && bl.lines.length <= 2 && text.length <= 120 && !/[.:;,]$/.test(text)) {
        bl.level = Math.min(6, Math.min(3, headingSizes.length) + 1);
      }
    }

    // 5. the page
    const join = (lines) =>
      lines.reduce((acc, l) => {
        if (!acc) return l.text;
        if (/[a-z]-$/.test(acc) && /^[a-z]/.test(l.text)) return acc.slice(0, -1) + l.text;
        return acc + " " + l.text;
      }, "");
    if (!title) {
      const h = blocks.find((bl) => bl.level === 1) || blocks.find((bl) => bl.level);
      title = h ? join(h.lines) : "";
    }
    if (title) document.title = title;
    const GAP = 16;
    let y = GAP;
    const frag = document.createDocumentFragment();
    const sections = [];
    for (let p = 1; p <= pages; p++) {
      const s = document.createElement("section");
      s.className = "sl-pdf-page";
      s.dataset.page = String(p);
      s.setAttribute("aria-label", `Page ${p}`);
      s.style.cssText = `position:absolute;left:${GAP}px;top:${y}px;width:${sizes[p - 1].w}px;height:${sizes[p - 1].h}px`;
      y += sizes[p - 1].h + GAP;
      sections.push(s);
      frag.appendChild(s);
    }
    for (const bl of blocks) {
      const el = document.createElement(bl.level ? `h${bl.level}` : "p");
      const lh = bl.lines.length > 1 ? (bl.bottom - bl.top) / bl.lines.length : bl.size * 1.15;
      el.style.cssText =
        `left:${bl.x0.toFixed(1)}px;top:${bl.top.toFixed(1)}px;width:${Math.max(1, bl.x1 - bl.x0 + 2).toFixed(1)}px;` +
        `font-size:${bl.size.toFixed(2)}px;line-height:${lh.toFixed(2)}px;font-weight:${bl.bold ? 700 : 400}`;
      el.textContent = join(bl.lines);
      sections[bl.page - 1].appendChild(el);
    }
    const main = document.createElement("main");
    main.style.cssText = `position:relative;height:${y}px`;
    main.appendChild(frag);
    document.body.appendChild(main);
    try {
      await doc.destroy();
    } catch (_) {}
    finish({ pages, dropped, chars, title });
  } catch (e) {
    finish({ error: "broken", message: `PDF.js failed: ${(e && e.message) || e}` });
  }
})();
