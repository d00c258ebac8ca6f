"""Behaviour of the Python package in real Chromium, on the repository's fixture pages served
on loopback, compared with the `sightline` command where both can do the same thing."""

import asyncio
import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

import sightline

from conftest import FIXTURES, ROOT


def run_cli(cli, *args):
    r = subprocess.run([cli, "-q", *args], capture_output=True, text=True, timeout=300)
    assert r.returncode in (0, 1), r.stderr
    return r.stdout


def test_extract_gives_every_format_as_the_cli_does(browser, server, cli):
    url = f"{server}/demo-news/page.html"
    page = browser.extract(url)
    assert page.title.startswith("Harbour city opens")
    assert page.url == url and page.status == 200 and page.algorithm == "learned"
    for fmt, value in [("text", page.text), ("markdown", page.markdown), ("html", page.html)]:
        assert value.strip(), fmt
        assert value.strip() == run_cli(cli, "extract", "--offline", "-f", fmt, url).strip(), fmt
    record = page.to_dict()
    cli_record = json.loads(run_cli(cli, "extract", "--offline", "-f", "json", url))
    for key in ["input", "url", "title", "algorithm", "text", "html", "content"]:
        assert record[key] == cli_record[key], key
    assert json.loads(page.to_json())["text"] == record["text"]
    assert page.blocks and all("probability" in b and len(b["box"]) == 4 for b in page.blocks)
    assert set(page.timings) >= {"navigate", "settle", "snapshot", "score"}


def test_extract_html_and_other_algorithms_and_screenshot(browser):
    html = (FIXTURES / "layout-article" / "page.html").read_text()
    page = browser.extract(html=html, url="inline-article", algorithm="htd", screenshot=True)
    assert page.input == "inline-article" and page.algorithm == "htd"
    assert page.screenshot[:8] == b"\x89PNG\r\n\x1a\n"
    assert page.blocks and "scores" in page.blocks[0]
    assert page.text


def test_module_level_extract_launches_and_ends_its_own_browser():
    page = sightline.extract(FIXTURES / "demo-news" / "page.html", offline=True)
    assert "tidal" in page.text


def test_a_batch_with_failing_inputs_gives_one_result_each(browser, server):
    inputs = [
        f"{server}/demo-news/page.html",
        "/no/such/page.html",
        f"{server}/no-such-page.html",
        {"html": "<title>t</title><p>Inline page with a sentence of text in it.</p>", "url": "inline"},
    ]
    results = list(browser.extract_many(inputs, progress=False))
    assert sorted(r.index for r in results) == [0, 1, 2, 3]
    by = {r.index: r for r in results}
    assert by[0].ok and "tidal" in by[0].page.text
    assert by[1].kind == "input" and isinstance(by[1].error, sightline.InputError)
    assert "/no/such/page.html" in str(by[1].error)
    assert by[2].kind == "http" and by[2].error.status == 404
    assert isinstance(by[2].error, sightline.HttpError)
    assert by[3].ok and by[3].input == "inline"


def test_async_twins_work_inside_a_running_loop(server):
    url = f"{server}/demo-news/page.html"

    async def main():
        assert asyncio.get_running_loop().is_running()
        async with sightline.Browser(tabs=2, offline=True) as b:
            page, snap = await asyncio.gather(b.aextract(url), b.asnapshot(url))
            got = [r async for r in b.aextract_many([url, "/no/such.html"])]
            with pytest.raises(sightline.HttpError):
                await b.aextract(f"{server}/missing.html")
        return page, snap, got

    page, snap, got = asyncio.run(main())
    assert "tidal" in page.text and len(snap) > 10
    assert sorted((r.index, r.ok) for r in got) == [(0, True), (1, False)]


def test_snapshot_nodes_and_scores_equal_the_clis(browser, server, cli, tmp_path):
    snap = browser.snapshot(f"{server}/demo-news/page.html")
    path = tmp_path / "snap.json"
    snap.save(path)
    again = sightline.Snapshot.load(path)
    assert again.to_json() == snap.to_json()
    nodes = snap.nodes().to_pydict()
    raw = json.loads(path.read_text())["nodes"]
    assert nodes["id"] == list(range(len(raw)))
    assert nodes["parent"] == [n["parent"] for n in raw]
    assert nodes["tag"] == [n["tag"] for n in raw]
    assert nodes["x"] == [n["box"][0] for n in raw] and nodes["h"] == [n["box"][3] for n in raw]
    assert nodes["depth"][0] == 0 and nodes["css_path"][0] == "body"
    for algorithm in sightline.algorithms():
        ours = snap.scores(algorithm).to_pydict()
        rows = [json.loads(l) for l in run_cli(cli, "scores", str(path), "-a", algorithm, "-f", "jsonl").splitlines()]
        assert list(ours) == list(rows[0]), algorithm
        for name in ours:
            assert ours[name] == [r[name] for r in rows], (algorithm, name)
    # Scoring the saved snapshot without a browser is the CLI's --snapshot extraction.
    page = again.extract("htd")
    assert page.text.strip() == run_cli(cli, "extract", "--snapshot", str(path), "-a", "htd").strip()


def test_tables_cross_as_arrow():
    snap = sightline.Snapshot.load(FIXTURES / "crunch-portal" / "snapshot.json")
    t = snap.scores("htd")
    assert t.num_rows == len(snap) and t.column_names[:2] == ["id", "kept"]
    schema, array = t.__arrow_c_array__()
    assert type(schema).__name__ == "PyCapsule" and type(array).__name__ == "PyCapsule"
    pa = pytest.importorskip("pyarrow")
    table = pa.table(snap.nodes())
    assert table.num_rows == len(snap) and table.column("tag")[0].as_py() == "body"
    assert pa.record_batch(t).column(0).to_pylist() == list(range(len(snap)))


def test_walls_are_blocked_errors_with_the_wall_or_a_pages_wall(browser, server):
    with pytest.raises(sightline.BlockedError) as e:
        browser.extract(f"{server}/walls/challenge.html")
    assert e.value.kind == "blocked"
    assert e.value.wall["kind"] == "challenge" and e.value.wall["vendor"] == "cloudflare"
    assert "cloudflare anti-bot challenge" in str(e.value)
    page = browser.extract(f"{server}/walls/paywall.html")
    assert page.wall["kind"] == "paywall" and page.wall["evidence"]
    assert browser.extract(f"{server}/walls/talks.html").wall is None


def test_errors_are_typed_and_name_the_input(browser, server, tmp_path):
    with pytest.raises(sightline.HttpError) as e:
        browser.extract(f"{server}/missing.html")
    assert e.value.status == 404 and e.value.kind == "http" and "missing.html" in str(e.value)
    with pytest.raises(sightline.InputError, match="no/such"):
        browser.extract("/no/such/file.html")
    with pytest.raises(sightline.InputError, match="unknown algorithm"):
        browser.extract(f"{server}/demo-news/page.html", algorithm="nope")
    bad = tmp_path / "bad.json"
    bad.write_text('{"schema_version": 99}')
    with pytest.raises(sightline.SnapshotError, match="bad.json"):
        sightline.Snapshot.load(bad)
    with sightline.Browser(tabs=1, offline=True, timeout=1.0) as b:
        with pytest.raises(sightline.TimeoutError) as e:
            b.extract(FIXTURES / "script-hang" / "page.html")
    assert isinstance(e.value, TimeoutError) and "script-hang" in str(e.value)
    with pytest.raises(sightline.BrowserError, match="Chromium"):
        sightline.Browser(tabs=1, chrome="/no/such/chromium")


def chromium_children(pid):
    """Pids of the Chromium processes under `pid` (by /proc's parent links)."""
    kids = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                stat = open(f"/proc/{d}/stat").read()
                kids.setdefault(int(stat.rsplit(")", 1)[1].split()[1]), []).append(int(d))
            except OSError:
                pass
    out, todo = [], [pid]
    while todo:
        for k in kids.get(todo.pop(), []):
            out.append(k)
            todo.append(k)
    return [p for p in out if "chrom" in _cmd(p) or "headless" in _cmd(p)]


def renderer_cpu_seconds(pids):
    """CPU seconds the renderer processes among `pids` have used (/proc's utime + stime)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for p in pids:
        if "--type=renderer" not in _cmd(p):
            continue
        try:
            fields = open(f"/proc/{p}/stat").read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / ticks
        except (OSError, IndexError, ValueError):
            pass
    return total


def _cmd(pid):
    try:
        return open(f"/proc/{pid}/cmdline", "rb").read().decode(errors="replace")
    except OSError:
        return ""


def test_ctrl_c_cancels_the_batch_and_leaves_no_chromium(tmp_path):
    hang = FIXTURES / "script-hang" / "page.html"
    script = textwrap.dedent(f"""
        import sys, sightline
        with sightline.Browser(tabs=2, offline=True, timeout=60.0) as b:
            print("ready", flush=True)
            try:
                for r in b.extract_many([{str(hang)!r}] * 6, progress=False):
                    print(r, flush=True)
            except KeyboardInterrupt:
                print("interrupted", flush=True)
                raise
    """)
    p = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, cwd=tmp_path)
    assert p.stdout.readline().strip() == "ready"
    deadline = time.monotonic() + 30
    while not chromium_children(p.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    chromium = chromium_children(p.pid)
    assert chromium, "the browser runs under the Python process"
    # The hanging pages are in their tabs once a renderer spins in their endless script.
    deadline = time.monotonic() + 30
    while renderer_cpu_seconds(chromium_children(p.pid)) < 0.3 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert renderer_cpu_seconds(chromium_children(p.pid)) >= 0.3, "no page's script ran"
    chromium = chromium_children(p.pid)
    p.send_signal(signal.SIGINT)
    out, _ = p.communicate(timeout=60)
    assert "interrupted" in out and p.returncode != 0
    deadline = time.monotonic() + 10
    while any(os.path.exists(f"/proc/{c}") for c in chromium) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [c for c in chromium if os.path.exists(f"/proc/{c}") and "chrom" in _cmd(c)]
    assert not left, f"Chromium left running: {left}"


def test_comments_and_deny_private(server):
    url = f"{server}/comments-blog/page.html"
    comment = "the children now check the barrel levels every Monday"
    with sightline.Browser(tabs=1, offline=True) as b:
        assert comment not in b.extract(url).text
    with sightline.Browser(tabs=1, offline=True, comments=True) as b:
        page = b.extract(url)
    assert comment in page.text
    assert any(block.get("comment") for block in page.blocks)
    # The fixture server is on loopback: a browser that denies private targets refuses it.
    with sightline.Browser(tabs=1, deny_private=True) as b:
        with pytest.raises(sightline.ForbiddenError, match="deny_private=False"):
            b.extract(url)


def test_units_add_each_text_unit_to_the_record(server):
    url = f"{server}/demo-news/page.html"
    with sightline.Browser(tabs=1, offline=True) as b:
        assert "units" not in b.extract(url).to_dict()
    with sightline.Browser(tabs=1, offline=True, units=True) as b:
        units = b.extract(url).to_dict()["units"]
    tidal = [u for u in units if "tidal power station" in u["text"]]
    assert tidal and all(0.0 <= u["p"] <= 1.0 for u in units)
    assert "learned" in tidal[0]["kept_by"] and tidal[0]["top"]


def test_a_pdf_is_extracted_and_an_encrypted_one_is_a_document_error(browser):
    # fixtures/pdf (docs/pdf.md): a two-page report printed by Chromium with a running
    # header and page numbers, and the same report encrypted.
    page = browser.extract(FIXTURES / "pdf" / "report.pdf")
    assert "Tidal turbines placed in small harbours" in page.text
    assert "Harbour Trust" not in page.text
    assert "# Tidal Energy in Small Harbours" in page.markdown
    assert page.to_dict()["document"] == {"type": "pdf", "pages": 2, "dropped_lines": 4}
    with pytest.raises(sightline.DocumentError) as e:
        browser.extract(FIXTURES / "pdf" / "encrypted.pdf")
    assert e.value.kind == "document" and "password" in str(e.value)
