"""Capture and replay from Python (`Browser(warc=..., wacz=..., replay=...)`): the
capture-fetch fixture (its article arrives by fetch()) is archived, the files are read with
webrecorder's own tools (warcio, with every digest checked, and `wacz validate`), and the page
replayed once its server is gone gives the same text."""

import functools
import http.server
import pathlib
import subprocess
import sys
import threading

import pytest

import sightline

warcio = pytest.importorskip("warcio")
from warcio.archiveiterator import ArchiveIterator  # noqa: E402

FIXTURES = pathlib.Path(__file__).resolve().parents[2] / "fixtures"
BIN = pathlib.Path(sys.executable).parent


def serve():
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(FIXTURES))
    handler.log_message = lambda *a, **k: None
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


def test_a_capture_reads_with_warcio_validates_as_wacz_and_replays_offline(tmp_path):
    warc = tmp_path / "capture.warc.gz"
    wacz = tmp_path / "capture.wacz"
    httpd = serve()
    url = f"http://127.0.0.1:{httpd.server_address[1]}/capture-fetch/page.html"
    try:
        with sightline.Browser(tabs=1, screenshot=True, warc=warc, wacz=wacz) as b:
            live = b.extract(url)
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert "northern light" in live.text

    # warcio reads every record, and every digest verifies.
    kinds = []
    with open(warc, "rb") as f:
        for rec in ArchiveIterator(f, check_digests="raise"):
            rec.content_stream().read()
            kinds.append((rec.rec_type, rec.rec_headers.get_header("WARC-Target-URI")))
    assert kinds[0][0] == "warcinfo"
    responses = {u.rsplit("/", 1)[-1] for t, u in kinds if t == "response"}
    assert {"page.html", "style.css", "app.js", "article.json", "pic.png"} <= responses
    assert sum(t == "request" for t, _ in kinds) == sum(t == "response" for t, _ in kinds)
    assert ("resource", f"urn:text:{url}") in kinds
    assert ("resource", f"urn:fullPage:{url}") in kinds
    assert ("metadata", url) in kinds
    check = subprocess.run([str(BIN / "warcio"), "check", str(warc)], capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr

    # wacz validate (webrecorder's py-wacz) accepts the package.
    v = subprocess.run([str(BIN / "wacz"), "validate", "-f", str(wacz)], capture_output=True, text=True)
    assert v.returncode == 0 and "is valid" in v.stdout, v.stdout + v.stderr

    # The server is gone: replayed from each archive, the same text.
    for archive in (warc, wacz):
        with sightline.Browser(tabs=1, replay=archive) as b:
            again = b.extract(url)
        assert again.text == live.text, archive
