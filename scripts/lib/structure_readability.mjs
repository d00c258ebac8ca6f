// The markdown peer of scripts/structure-score: Readability.js + Turndown, the pipeline of Jina
// Reader. Playwright (playwright-core) drives Debian's Chromium, a new tab per page, waits for
// `load`, runs Readability (@mozilla/readability) on a clone of the live DOM and converts its
// `content` with Turndown (`turndown`, atx headings, fenced code, `-` bullets) and the GFM plugin
// (`turndown-plugin-gfm`: tables, strikethrough, task lists, highlight-* code languages), inside
// the page. Requests that leave 127.0.0.0/8 are aborted, as sightline's --offline does.
//
// Usage: node scripts/lib/structure_readability.mjs LIST OUT.jsonl [TABS]
//   LIST: one URL per line. Writes one JSON line per URL, in LIST's order:
//   {url, title, markdown, error?}.
// Needs NODE_PATH pointing at a node_modules with playwright-core, @mozilla/readability, turndown
// and turndown-plugin-gfm (scripts/structure-score installs them in the cache directory that
// scripts/bench-speed uses, outside the repository).
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { loopbackBrowser } from "./loopback_browser.mjs";

const require = createRequire(process.env.NODE_PATH.split(":")[0] + "/");
const readabilitySrc = readFileSync(require.resolve("@mozilla/readability/Readability.js"), "utf8");
const turndownSrc = readFileSync(require.resolve("turndown/lib/turndown.browser.umd.js"), "utf8");
const gfmSrc = readFileSync(require.resolve("turndown-plugin-gfm/dist/turndown-plugin-gfm.js"), "utf8");

const [list, out, tabsArg] = process.argv.slice(2);
const urls = readFileSync(list, "utf8").split("\n").map((s) => s.trim()).filter(Boolean);
const tabs = Number(tabsArg) || 2;
const { browser, context } = await loopbackBrowser();
const results = new Array(urls.length);
let next = 0;
async function worker() {
  while (next < urls.length) {
    const i = next++;
    const url = urls[i];
    const page = await context.newPage();
    let r = { url, title: "", markdown: "" };
    try {
      await page.goto(url, { waitUntil: "load", timeout: 20000 });
      // Scripts of the page may define `module`/`define`: the UMD builds then skip the global.
      await page.addScriptTag({ content: readabilitySrc });
      await page.addScriptTag({ content: `(function(){var module=undefined,exports=undefined,define=undefined;${turndownSrc};window.__TurndownService=TurndownService;})();` });
      await page.addScriptTag({ content: `(function(){var module=undefined,exports=undefined,define=undefined;${gfmSrc};window.__turndownPluginGfm=turndownPluginGfm;})();` });
      const got = await page.evaluate(() => {
        // eslint-disable-next-line no-undef
        const a = new Readability(document.cloneNode(true)).parse();
        if (!a) return { title: "", markdown: "" };
        const td = new window.__TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" });
        td.use(window.__turndownPluginGfm.gfm);
        return { title: a.title || "", markdown: td.turndown(a.content || "") };
      });
      r = { url, ...got };
    } catch (e) {
      r.error = String(e).split("\n")[0].slice(0, 300);
    }
    await page.close();
    results[i] = r;
    process.stderr.write(`readability ${i + 1}/${urls.length}\r`);
  }
}
await Promise.all(Array.from({ length: tabs }, worker));
await browser.close();
process.stderr.write("\n");
writeFileSync(out, results.map((r) => JSON.stringify(r)).join("\n") + "\n");
