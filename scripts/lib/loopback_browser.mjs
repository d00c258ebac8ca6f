// The browser both Readability.js peers run in (scripts/peer-readability.mjs, the speed peer;
// scripts/lib/structure_readability.mjs, the markdown peer): playwright-core driving Debian's
// Chromium ($CHROME, default /usr/bin/chromium), headless, one 1366x900 context whose requests
// that leave 127.0.0.0/8 are aborted, as sightline's --offline does. Returns
// { require, browser, context }; `require` resolves in the first NODE_PATH entry.
import { createRequire } from "node:module";

export async function loopbackBrowser() {
  const require = createRequire(process.env.NODE_PATH.split(":")[0] + "/");
  const { chromium } = require("playwright-core");
  const browser = await chromium.launch({
    executablePath: process.env.CHROME || "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox"],
  });
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  await context.route("**/*", (route) => {
    const u = route.request().url();
    if (/^(https?:\/\/(127\.\d+\.\d+\.\d+|localhost)(:\d+)?\/|data:|blob:)/.test(u)) return route.continue();
    return route.abort("blockedbyclient");
  });
  return { require, browser, context };
}
