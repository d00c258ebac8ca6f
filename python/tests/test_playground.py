"""The playground of `sightline serve` (GET /), driven as a person uses it, with Playwright in
the Chromium sightline itself uses (no `playwright install`: the browser is the machine's).

A `sightline serve` (the binary `cargo test` built) renders pages of fixtures/ served on
127.0.0.1; the test types a fixture's URL, presses Enter, reads the text, sees the picture,
hovers a text unit and reads its probability, moves through the units with the keyboard,
compares two algorithms, loads a snapshot file (scored with no browser), and gives the token a
service asks for. Every test fails on a console error of the page or on a request of the page
that leaves loopback.

The fixtures here are the module's own (not conftest's) so that the module also runs alone:
`pytest --noconftest python/tests/test_playground.py` needs no built wheel.
"""

import functools
import http.server
import json
import os
import pathlib
import re
import shutil
import subprocess
import threading
import urllib.parse

import pytest
from playwright import sync_api as playwright_api

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
SNAPSHOT = FIXTURES / "wang-wide-column" / "snapshot.json"
TIMEOUT_MS = 120_000  # a hang guard, not a speed bound


def chromium_binary():
    """The Chromium sightline launches: $CHROME, else the headless shell or Debian's chromium.
    Debian's /usr/bin names are shell wrappers (`/usr/lib/chromium/chromium-headless-shell
    "$@"`); Playwright is given the binary they run."""
    names = [os.environ.get("CHROME")] + [
        shutil.which(n)
        for n in ("chromium-headless-shell", "chrome-headless-shell", "chromium", "chromium-browser")
    ]
    for p in filter(None, names):
        path = pathlib.Path(p)
        if not path.exists():
            continue
        with open(path, "rb") as f:
            head = f.read(2)
        if head != b"#!":
            return str(path)
        # A wrapper script: the first absolute path in it that is an executable file.
        for token in re.findall(r"(/[\w./+-]+)", path.read_text(errors="replace")):
            t = pathlib.Path(token)
            if t.is_file() and os.access(t, os.X_OK) and t.name != "sh" and "bin/sh" not in token:
                return str(t)
    pytest.fail("no Chromium found: scripts/ensure-chromium installs one (or set $CHROME)")


def sightline_binary():
    exe = pathlib.Path(os.environ.get("SIGHTLINE_BIN", ROOT / "target" / "debug" / "sightline"))
    assert exe.exists(), f"{exe} is missing: run `cargo build` first (scripts/test does)"
    return str(exe)


class Service:
    """`sightline serve` on an ephemeral loopback port; stopped with SIGTERM."""

    def __init__(self, *args):
        self.proc = subprocess.Popen(
            [sightline_binary(), "serve", "--listen", "127.0.0.1:0", "--offline", "--allow-private", "-j", "2", *args],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env={k: v for k, v in os.environ.items() if k != "SIGHTLINE_TOKEN"},
        )
        self.base = None
        for line in self.proc.stderr:
            m = re.search(r"listening on (http://\S+)", line)
            if m:
                self.base = m.group(1)
                break
        assert self.base, "sightline serve did not start listening"
        # Keep draining stderr so the service never blocks on a full pipe.
        threading.Thread(target=lambda: [None for _ in self.proc.stderr], daemon=True).start()

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture(scope="module")
def site():
    """fixtures/ on 127.0.0.1."""
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(FIXTURES))
    handler.log_message = lambda *a, **k: None
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


@pytest.fixture(scope="module")
def service():
    s = Service()
    yield s.base
    s.stop()


@pytest.fixture(scope="module")
def chromium():
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_binary(), headless=True)
        yield b
        b.close()


@pytest.fixture()
def page(chromium):
    """A page whose console errors and requests off loopback fail the test."""
    ctx = chromium.new_context(viewport={"width": 1400, "height": 1000})
    errors, outside = [], []

    def check(route):
        u = urllib.parse.urlsplit(route.request.url)
        if u.scheme in ("data", "blob") or u.hostname in ("127.0.0.1", "localhost", "::1"):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    ctx.route("**/*", check)
    pg = ctx.new_page()
    pg.set_default_timeout(TIMEOUT_MS)
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.console_errors = errors
    pg.extract_calls = []
    pg.on("request", lambda r: pg.extract_calls.append(r.url) if urllib.parse.urlsplit(r.url).path == "/extract" else None)
    yield pg
    ctx.close()
    assert not outside, f"requests left loopback: {outside}"
    assert not errors, f"console errors: {errors}"


def expected_failures(page, status):
    """Forget Chromium's console line for a failed response the test asked for."""
    page.console_errors[:] = [e for e in page.console_errors if f"status of {status}" not in e]


def wait_drawn(page, with_image):
    page.wait_for_function(
        "(img) => { const s = window.sightlinePlayground; return s.drawnAt > (s.receivedAt || 0)"
        " && s.units.length > 0 && (!img || s.image !== null); }",
        arg=with_image,
    )


def unit_centre(page, pick):
    """Client coordinates of the centre of a unit chosen by the JS predicate `pick`, scrolled
    into view, and that unit."""
    u = page.evaluate(
        f"""() => {{
          const s = window.sightlinePlayground;
          const u = s.units.filter({pick}).sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3])
            .find((u) => s.units.every((v) => v === u || !(v.box[0] <= u.box[0] + u.box[2] / 2 &&
              u.box[0] + u.box[2] / 2 <= v.box[0] + v.box[2] && v.box[1] <= u.box[1] + u.box[3] / 2 &&
              u.box[1] + u.box[3] / 2 <= v.box[1] + v.box[3] && v.box[2] * v.box[3] < u.box[2] * u.box[3])));
          const view = document.getElementById('view');
          view.scrollIntoView();
          view.scrollTop = Math.max(0, u.box[1] * s.scale - 100);
          return u;
        }}"""
    )
    r = page.locator("#sizer").bounding_box()
    scale = page.evaluate("window.sightlinePlayground.scale")
    x, y, w, h = u["box"]
    return r["x"] + (x + w / 2) * scale, r["y"] + (y + h / 2) * scale, u


def test_a_url_typed_and_entered_shows_the_text_the_picture_and_each_units_probability(page, service, site):
    page.goto(service + "/")
    assert page.locator("#token-row").is_hidden(), "this service asks for no token"
    page.get_by_label("URL", exact=True).fill(f"{site}/demo-news/page.html")
    page.get_by_label("URL", exact=True).press("Enter")
    page.wait_for_function(
        "() => document.getElementById('out-text').textContent.includes('switched on its first tidal power station')"
    )
    wait_drawn(page, True)
    rec = page.evaluate("window.sightlinePlayground.record")
    assert rec["screenshot"].startswith("data:image/png;base64,")
    assert len(rec["units"]) > 5
    size = page.evaluate("[document.getElementById('overlay').width, document.getElementById('overlay').height]")
    assert size[0] > 100 and size[1] > 100
    assert "Buy the new phone" not in page.locator("#out-text").text_content()
    # The body of the chosen format (markdown) came in the same record (`body`): one render.
    page.wait_for_function("() => document.getElementById('out-body').textContent.includes('tidal power station')")
    assert rec["body_format"] == "markdown" and "tidal power station" in rec["body"]
    assert len(page.extract_calls) == 1, page.extract_calls
    assert page.locator("#timings").text_content().count("navigate") == 1
    assert page.locator("#meta").text_content().count("learned") >= 1
    assert page.locator("#error").is_hidden()

    # Hover a paragraph learned keeps: its probability shows.
    x, y, u = unit_centre(page, "(u) => u.kept_by.includes('learned') && u.text.includes('tidal power station')")
    page.mouse.move(x, y)
    tip = page.locator("#tip")
    tip.wait_for(state="visible")
    assert f"p = {u['p']:.3f}" in tip.text_content()
    line = page.locator("#unit-line").text_content()
    assert f"p = {u['p']:.3f}" in line and "learned" in line
    assert page.locator("#unit table").count() >= 1, "top feature contributions"

    # The keyboard reaches the picture and moves through the units in reading order.
    page.locator("#overlay").focus()
    page.keyboard.press("Home")
    assert page.locator("#unit-line").text_content().startswith("Unit 1 of ")
    page.keyboard.press("ArrowDown")
    assert page.locator("#unit-line").text_content().startswith("Unit 2 of ")

    # Two algorithms in two colours.
    page.get_by_label("Colour by").select_option("compare")
    page.get_by_label("B", exact=True).select_option("htd")
    page.wait_for_function(
        "() => document.getElementById('overlay').getAttribute('aria-label').includes('what learned and htd keep')"
    )
    assert page.locator("#legend-c").is_visible()

    # The JSON record tab holds the record; the tabs are keyboard-operable.
    page.get_by_role("tab", name="JSON record").click()
    assert json.loads(page.locator("#out-json").text_content())["title"] == rec["title"]
    page.keyboard.press("ArrowLeft")
    assert page.get_by_role("tab", name="Text").get_attribute("aria-selected") == "true"


def test_a_snapshot_file_is_scored_with_no_browser_and_a_record_file_shown_as_it_is(page, service, tmp_path):
    page.goto(service + "/")
    page.get_by_label("From a snapshot or record file").check()
    with page.expect_response(lambda r: r.url.endswith("/score") and r.status == 200):
        page.get_by_label("Snapshot or record JSON").set_input_files(str(SNAPSHOT))
    wait_drawn(page, False)
    page.wait_for_function("() => document.getElementById('out-text').textContent.length > 50")
    assert "bridge" in page.locator("#out-text").text_content().lower()
    assert page.evaluate("window.sightlinePlayground.image") is None
    x, y, u = unit_centre(page, "(u) => u.text.length > 40")
    page.mouse.move(x, y)
    page.locator("#tip").wait_for(state="visible")
    assert f"p = {u['p']:.3f}" in page.locator("#tip").text_content()

    # The record just drawn, saved and loaded again: shown with no call to the service.
    record = tmp_path / "record.json"
    record.write_text(page.evaluate("JSON.stringify(window.sightlinePlayground.record)"))
    text = page.locator("#out-text").text_content()
    page.goto(page.url)
    calls = []
    page.on("request", lambda r: calls.append(r.url) if r.method == "POST" else None)
    page.get_by_label("From a snapshot or record file").check()
    page.get_by_label("Snapshot or record JSON").set_input_files(str(record))
    wait_drawn(page, False)
    assert page.locator("#out-text").text_content() == text
    assert not calls, calls


def test_a_failed_page_shows_its_kind_and_the_fix(page, service, site):
    page.goto(service + "/")
    page.get_by_label("URL", exact=True).fill(f"{site}/no-such-page.html")
    page.get_by_label("URL", exact=True).press("Enter")
    err = page.locator("#error")
    err.wait_for(state="visible")
    assert "Error: http" in page.locator("#error-title").text_content()
    assert page.locator("#error-fix").text_content().startswith("Fix: ")
    expected_failures(page, 502)


def test_a_service_with_a_token_asks_for_it(page, site):
    svc = Service("--token", "s3cret")
    try:
        page.goto(svc.base + "/")
        token = page.get_by_label("Token")
        assert token.is_visible()
        page.get_by_label("From a snapshot or record file").check()
        page.get_by_label("Snapshot or record JSON").set_input_files(str(SNAPSHOT))
        page.locator("#error").wait_for(state="visible")
        assert "unauthorized" in page.locator("#error-title").text_content()
        expected_failures(page, 401)
        token.fill("s3cret")
        page.get_by_label("Snapshot or record JSON").set_input_files([])
        with page.expect_response(lambda r: r.url.endswith("/score") and r.status == 200):
            page.get_by_label("Snapshot or record JSON").set_input_files(str(SNAPSHOT))
        wait_drawn(page, False)
        assert page.locator("#error").is_hidden()
    finally:
        svc.stop()
