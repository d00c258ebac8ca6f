// The peer users would pick instead of sightline: Playwright (playwright-core) driving
// Debian's Chromium, a new tab per page, waiting for `load`, then Readability.js
// (@mozilla/readability) on the live DOM. Requests that leave 127.0.0.0/8 are aborted, as
// sightline's --offline does.
//
// Usage: node scripts/peer-readability.mjs LIST TABS OUT.jsonl [--load-only]
//   --load-only: the floor of any tool on these pages: each worker reuses one tab and only
//   waits for `load` (no new tab, no Readability).
//   LIST: one URL per line. Writes one JSON line per page {url, ms, chars, text}, and prints
//   {"wall_s": ...} (whole run, browser launch included) on stdout.
// Needs NODE_PATH pointing at a node_modules with playwright-core and @mozilla/readability
// (scripts/bench-speed installs them in a cache directory outside the repository).
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { loopbackBrowser } from "./lib/loopback_browser.mjs";

const require = createRequire(process.env.NODE_PATH.split(":")[0] + "/");
const readabilitySrc = readFileSync(require.resolve("@mozilla/readability/Readability.js"), "utf8");

const [list, tabsArg, out, mode] = process.argv.slice(2);
const loadOnly = mode === "--load-only";
const urls = readFileSync(list, "utf8").split("\n").map((s) => s.trim()).filter(Boolean);
const tabs = Number(tabsArg) || 1;
const t0 = performance.now();
const { browser, context } = await loopbackBrowser();
const results = new Array(urls.length);
let next = 0;
async function worker() {
  const kept = loadOnly ? await context.newPage() : null;
  while (next < urls.length) {
    const i = next++;
    const url = urls[i];
    const s = performance.now();
    if (kept) {
      let error;
      try {
        await kept.goto(url, { waitUntil: "load", timeout: 15000 });
      } catch (e) {
        error = String(e).slice(0, 200);
      }
      results[i] = { url, ms: performance.now() - s, chars: 0, text: "", error };
      continue;
    }
    const page = await context.newPage();
    let text = "", error;
    try {
      await page.goto(url, { waitUntil: "load", timeout: 15000 });
      await page.addScriptTag({ content: readabilitySrc });
      text = await page.evaluate(() => {
        // eslint-disable-next-line no-undef
        const r = new Readability(document.cloneNode(true)).parse();
        return r ? r.textContent || "" : "";
      });
    } catch (e) {
      error = String(e).slice(0, 200);
    }
    await page.close();
    results[i] = { url, ms: performance.now() - s, chars: text.length, text, error };
  }
}
await Promise.all(Array.from({ length: tabs }, worker));
await browser.close();
const wall = (performance.now() - t0) / 1000;
writeFileSync(out, results.map((r) => JSON.stringify(r)).join("\n") + "\n");
console.log(JSON.stringify({ wall_s: wall, pages: urls.length, tabs }));
