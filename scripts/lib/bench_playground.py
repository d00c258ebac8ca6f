"""scripts/bench-playground: how long the playground takes to draw its overlay on a page of
about 5,000 DOM nodes once the record has arrived, measured inside the page with
performance.now() (`receivedAt`: the answer's bytes are in; `drawnAt`: the screenshot is
decoded and every unit is drawn). Optionally saves a picture of the playground.

Usage: python scripts/lib/bench_playground.py RUNS [SHOT_PATH]
"""

import functools
import http.server
import pathlib
import statistics
import sys
import threading

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "python" / "tests"))
from test_playground import FIXTURES, Service, chromium_binary  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402


def large_page(target=5100):
    """A page of about `target` DOM nodes (elements and text nodes): navigation, an article,
    a sidebar, a comment thread and a footer."""
    parts = ['<!DOCTYPE html><html><head><meta charset="utf-8"><title>A long page</title></head><body>']
    parts.append("<header><nav><ul>" + "".join(f'<li><a href="/s{i}">Section {i}</a></li>' for i in range(60)) + "</ul></nav></header>")
    parts.append("<div class=wrap><main><article><h1>The long page of the benchmark</h1>")
    for i in range(120):
        parts.append(
            f"<p>Paragraph {i} of the article tells of the river, the bridge and the town, with commas, "
            f'full stops, and a <a href="/ref{i}">reference</a> to <em>another story</em> in it.</p>'
        )
        if i % 10 == 0:
            parts.append(f"<h2>Part {i // 10 + 1}</h2>")
    parts.append("</article><section class=comments><h2>Comments</h2>")
    i = 0
    # Each comment: div, span(author), text, time, text, p, text, a, text = 9 nodes.
    while True:
        parts.append(
            f'<div class=comment><span class=author>Reader {i}</span><time>2 hours ago</time>'
            f'<p>Comment {i}: I remember the last flood well.</p><a href="/reply{i}">Reply</a></div>'
        )
        i += 1
        if 60 * 3 + 1 + 120 * 8 + 12 * 2 + 2 + i * 9 + 40 * 4 + 50 * 2 >= target:
            break
    parts.append("</section></main><aside><ul>" + "".join(f'<li><a href="/t{i}">Trending {i}</a></li>' for i in range(40)) + "</ul></aside></div>")
    parts.append("<footer>" + "".join(f'<a href="/f{i}">Footer link {i}</a>' for i in range(50)) + "</footer></body></html>")
    return "".join(parts)


def count_nodes(browser, html):
    """Elements and non-blank text nodes of `html` once parsed (what the snapshot walks)."""
    pg = browser.new_page()
    pg.set_content(html)
    n = pg.evaluate(
        """() => { let n = 0; const w = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
          for (let x = w.currentNode; x; x = w.nextNode()) if (x.nodeType === 1 || x.textContent.trim()) n++; return n; }"""
    )
    pg.close()
    return n


def bench(browser, base, html, runs):
    pg = browser.new_page(viewport={"width": 1400, "height": 1000})
    pg.set_default_timeout(300_000)
    pg.goto(base + "/")
    pg.get_by_label("From HTML").check()
    pg.get_by_label("HTML", exact=True).fill(html)
    out = []
    for _ in range(runs):
        before = pg.evaluate("window.sightlinePlayground.drawnAt || 0")
        pg.locator("#src-html button").click()
        pg.wait_for_function(
            "(t) => { const s = window.sightlinePlayground; return s.drawnAt > t && s.drawnAt > s.receivedAt && s.image; }",
            arg=before,
        )
        pg.wait_for_function("() => document.getElementById('phases').textContent.length > 0")
        ms, units, size, ph = pg.evaluate(
            "() => { const s = window.sightlinePlayground; return [s.drawnAt - s.receivedAt, s.units.length,"
            " [s.image.naturalWidth, s.image.naturalHeight], s.phases]; }"
        )
        out.append((ph["units"], ms))
        print(
            f"  run {len(out)}: units shown {ph['units']:.0f} ms, whole picture {ms:.0f} ms after the record arrived (parse {ph['parse']:.0f}, "
            f"screenshot decode {ph['decode']:.0f}, draw {ph['draw']:.0f}; {units} units, screenshot {size[0]}x{size[1]})"
        )
        # The body fetch of the same run must finish before the next run starts.
        pg.wait_for_function("() => document.getElementById('out-body').textContent.length > 0")
    pg.close()
    return out


def shot(browser, base, path):
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(FIXTURES))
    handler.log_message = lambda *a, **k: None
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        pg = browser.new_page(viewport={"width": 1400, "height": 1250})
        pg.set_default_timeout(120_000)
        pg.goto(base + "/")
        pg.get_by_label("URL", exact=True).fill(f"http://127.0.0.1:{httpd.server_address[1]}/demo-news/page.html")
        pg.get_by_label("URL", exact=True).press("Enter")
        pg.wait_for_function("() => window.sightlinePlayground.drawnAt > (window.sightlinePlayground.receivedAt || 0) && window.sightlinePlayground.image")
        pg.wait_for_function("() => document.getElementById('out-body').textContent.length > 0")
        # Hover the first paragraph learned keeps, so the picture shows a unit's explanation.
        box = pg.evaluate(
            "(() => { const s = window.sightlinePlayground; const u = s.units.find((u) => u.kept_by.includes('learned') && u.text.length > 80); return [u.box, s.scale]; })()"
        )
        (x, y, w, h), scale = box
        r = pg.locator("#sizer").bounding_box()
        pg.mouse.move(r["x"] + (x + w / 2) * scale, r["y"] + (y + h / 2) * scale)
        pg.locator("#tip").wait_for(state="visible")
        pg.screenshot(path=path)
        pg.close()
        print(f"saved {path}")
    finally:
        httpd.shutdown()


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    shot_path = sys.argv[2] if len(sys.argv) > 2 and sys.argv[2] else None
    svc = Service()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium_binary(), headless=True)
            html = large_page()
            nodes = count_nodes(browser, html)
            print(f"page: {nodes} DOM nodes ({len(html)} bytes of HTML); playground on {svc.base}")
            ms = bench(browser, svc.base, html, runs)
            units, whole = [u for u, _ in ms], [w for _, w in ms]
            print(
                f"after the record arrived, over {len(ms)} runs: units shown in median {statistics.median(units):.0f} ms "
                f"(max {max(units):.0f}); the whole picture, screenshot decoded, in median {statistics.median(whole):.0f} ms (max {max(whole):.0f})"
            )
            if shot_path:
                shot(browser, svc.base, shot_path)
            browser.close()
    finally:
        svc.stop()


if __name__ == "__main__":
    main()
