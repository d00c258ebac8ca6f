"""Fixtures of the Python tests: the repository's fixture pages served on 127.0.0.1, the
`sightline` binary built by `cargo test` (the CLI the package is compared with), and one
offline Browser shared by the tests of a module."""

import functools
import http.server
import os
import pathlib
import threading

import pytest

import sightline

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"


@pytest.fixture(scope="session")
def server():
    """Base URL of fixtures/ served on loopback (a missing path answers 404)."""
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(FIXTURES))
    handler.log_message = lambda *a, **k: None
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    t = threading.Thread(target=httpd.serve_forever, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


@pytest.fixture(scope="session")
def cli():
    """Path of the `sightline` binary ($SIGHTLINE_BIN, else target/debug/sightline)."""
    exe = pathlib.Path(os.environ.get("SIGHTLINE_BIN", ROOT / "target" / "debug" / "sightline"))
    assert exe.exists(), f"{exe} is missing: run `cargo build` first (scripts/test does)"
    return str(exe)


@pytest.fixture(scope="module")
def browser():
    with sightline.Browser(tabs=2, offline=True, timeout=30.0) as b:
        yield b
