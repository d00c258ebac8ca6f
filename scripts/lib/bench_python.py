"""The Python package against the CLI, same pages, same run (scripts/bench-python).
Usage: python scripts/lib/bench_python.py PAGES_PER_DATASET REPS BENCH  (sightline installed)
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from benchserve import Server, load_pages  # noqa: E402

import sightline  # noqa: E402

per, reps, bench = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
exe = "./target/release/sightline"
tmp = tempfile.mkdtemp(prefix="sightline-bench-python-")
srv = Server()
urls = [srv.add(f"/{ds}/{pid}.html", body, f"text/html; charset={cs}")
        for ds, pid, body, cs in load_pages(bench, per)]
lst = os.path.join(tmp, "urls.txt")
open(lst, "w").write("\n".join(urls) + "\n")

PY = """
import sys, sightline
urls = [l.strip() for l in open(sys.argv[1]) if l.strip()]
with sightline.Browser(int(sys.argv[2]), offline=True) as b:
    for r in b.extract_many(urls, progress=False):
        if r.ok:
            r.page.text
"""


def timed(args):
    t = time.monotonic()
    subprocess.run(args, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.monotonic() - t


print(f"Python package vs CLI, {len(urls)} pages ({per} per dataset, every 7th id), offline, "
      f"default algorithm ({sightline.DEFAULT_ALGORITHM}), median of {reps} runs, browser launch included")
print("\n| tabs | CLI pages/s | Python pages/s | Python / CLI |\n|---:|---:|---:|---:|")
for tabs in [1, 4]:
    cli, py = [], []
    for r in range(reps):
        runs = [("cli", [exe, "extract", "--input", lst, "-j", str(tabs), "--offline", "-q",
                         "--format", "jsonl", "-o", os.path.join(tmp, f"cli-{tabs}-{r}.jsonl")]),
                ("py", [sys.executable, "-c", PY, lst, str(tabs)])]
        if r % 2:
            runs.reverse()
        for name, args in runs:
            (cli if name == "cli" else py).append(timed(args))
    c, p = len(urls) / statistics.median(cli), len(urls) / statistics.median(py)
    print(f"| {tabs} | {c:.2f} | {p:.2f} | {p / c:.3f} |")

# Snapshot.nodes() on a 5,000-node page: 1,250 paragraphs of text with a link (p, its text,
# a, the link's text).
html = "<!doctype html><title>5000 nodes</title><body>" + "".join(
    f"<p>Paragraph {i} of the generated page, with a <a href='#{i}'>link</a></p>" for i in range(1249)
) + "<p>end</p></body>"
snap = sightline.snapshot(html=html, url="generated-5000", offline=True)


def median_ms(f, n=30):
    ts = []
    for _ in range(n):
        t = time.perf_counter()
        f()
        ts.append((time.perf_counter() - t) * 1000)
    return statistics.median(ts)


print(f"\nSnapshot of {len(snap)} nodes, median of 30 calls:\n\n| call | ms |\n|---|---:|")
print(f"| `snap.nodes()` | {median_ms(snap.nodes):.2f} |")
print(f"| `snap.nodes().to_pandas()` | {median_ms(lambda: snap.nodes().to_pandas()):.2f} |")
print(f"| `snap.scores(\"htd\")` | {median_ms(lambda: snap.scores('htd')):.2f} |")
print(f"| `snap.scores(\"learned\")` | {median_ms(lambda: snap.scores('learned'), 10):.2f} |")
