"""sightline vs Playwright + Readability.js, same pages, same run (scripts/bench-speed peer).

Usage: python3 scripts/lib/bench_peer.py PAGES_PER_DATASET REPS BENCH  (NODE_PATH set)
"""
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from benchserve import Server, load_pages  # noqa: E402

per, reps, bench = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
exe = "./target/release/sightline"


def chromium_binary():
    """The binary both tools run: the one sightline launches ($CHROME, else the headless shell
    first, seen through Debian's launcher scripts), as its `-v` log names it. Playwright runs
    the same file (its own default for headless pages is a headless shell too)."""
    r = subprocess.run([exe, "-v", "extract", "--offline", "-f", "json", "fixtures/layout-article/page.html"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    m = re.search(r"launching (\S+)", re.sub(r"\x1b\[[0-9;]*m", "", r.stderr))
    if not m:
        sys.exit(f"sightline did not launch Chromium:\n{r.stderr}")
    return m.group(1)


os.environ["CHROME"] = chromium_binary()
# When that is the headless shell and Debian's full chromium is installed too, the peer also
# runs on the full browser (a Playwright user given `executablePath: "/usr/bin/chromium"`):
# there a new tab costs much more, which the ratio against the shell's peer does not show.
FULL = "/usr/lib/chromium/chromium"
also_full = "headless" in os.path.basename(os.environ["CHROME"]) and os.access(FULL, os.X_OK)
tmp = tempfile.mkdtemp(prefix="sightline-peer-")
srv = Server()
urls = []
for ds, pid, body, cs in load_pages(bench, per):
    urls.append(srv.add(f"/{ds}/{pid}.html", body, f"text/html; charset={cs}"))
lst = os.path.join(tmp, "urls.txt")
open(lst, "w").write("\n".join(urls) + "\n")


CPU = {}


def cpu_now():
    """CPU seconds the whole machine spent outside idle and nice-d processes (/proc/stat):
    the tool, every Chromium process (rusage misses Chromium's helpers, which are reaped by
    init), and anything else running, so run it on an otherwise quiet machine."""
    f = open("/proc/stat").readline().split()
    user, _nice, system, _idle, _iowait, irq, softirq, steal = (int(x) for x in f[1:9])
    return (user + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def timed(tool, tabs, args, env=None):
    """Wall time of one run; its CPU time (the tool and every Chromium process) goes to CPU."""
    c, t = cpu_now(), time.monotonic()
    subprocess.run(args, check=tool.startswith("peer"), stdout=subprocess.DEVNULL, env=env)
    wall = time.monotonic() - t
    CPU.setdefault((tool, tabs), []).append(cpu_now() - c)
    return wall


# LANES="full auto static": sightline in each render lane (issue 49: each lane's ratio to the
# peer and to the load floor); the default is `full`, the lane `extract` takes unless asked.
LANES = os.environ.get("LANES", "full").split()


def sightline(tabs, out, lane="full"):
    tool = "sightline" if lane == "full" else f"sightline --render {lane}"
    return timed(tool, tabs, [exe, "extract", "--input", lst, "-j", str(tabs), "--offline", "-q",
                              "--render", lane, "--format", "jsonl", "-o", out])


def floor(tabs, out):
    return timed("load-only floor", tabs, ["node", "scripts/peer-readability.mjs", lst, str(tabs), out, "--load-only"])


def peer(tabs, out):
    return timed("peer", tabs, ["node", "scripts/peer-readability.mjs", lst, str(tabs), out])


def peer_full(tabs, out):
    return timed("peer on chromium", tabs, ["node", "scripts/peer-readability.mjs", lst, str(tabs), out],
                 env=dict(os.environ, CHROME=FULL))


print(f"sightline vs Playwright + Readability.js: {len(urls)} bench pages ({per} per dataset, every 7th id), "
      f"served on 127.0.0.1, outside requests blocked in both; median wall of {reps} runs, alternating; "
      f"both on {os.environ['CHROME']}" + (f"; the peer also on {FULL}" if also_full else ""))
extra = " peer on chromium s | ratio to it |" if also_full else ""
print("\n| tabs | lane | sightline s | peer s | ratio sightline/peer | sightline pages/s | peer pages/s | load-only floor s | ratio sightline/floor |"
      + extra + "\n|---:|---|---:|---:|---:|---:|---:|---:|---:|" + ("---:|---:|" if also_full else ""))
phases = {}
for tabs in [1, 4]:
    ws, wp, wf, wq = {lane: [] for lane in LANES}, [], [], []
    for r in range(reps):
        o = os.path.join(tmp, f"sl-{tabs}-{r}.jsonl")
        for lane in (LANES if r % 2 == 0 else LANES[::-1]):
            ws[lane].append(sightline(tabs, o if lane == LANES[0] else os.path.join(tmp, f"sl-{lane}-{tabs}-{r}.jsonl"), lane))
        wp.append(peer(tabs, os.path.join(tmp, f"peer-{tabs}-{r}.jsonl")))
        wf.append(floor(tabs, os.path.join(tmp, f"floor-{tabs}-{r}.jsonl")))
        if also_full:
            wq.append(peer_full(tabs, os.path.join(tmp, f"peer-full-{tabs}-{r}.jsonl")))
        if tabs == 1:
            for line in open(o, encoding="utf-8"):
                rec = json.loads(line)
                for k, v in (rec.get("timings_ms") or {}).items():
                    phases.setdefault(k, []).append(v)
                sc = rec.get("scroll") or {}
                phases.setdefault("_scrolled", []).append(1 if sc.get("steps") else 0)
    p, f = statistics.median(wp), statistics.median(wf)
    for lane in LANES:
        s = statistics.median(ws[lane])
        print(f"| {tabs} | {lane} | {s:.2f} | {p:.2f} | {s / p:.2f} | {len(urls) / s:.2f} | {len(urls) / p:.2f} "
              f"| {f:.2f} | {s / f:.2f} |"
              + (f" {statistics.median(wq):.2f} | {s / statistics.median(wq):.2f} |" if also_full else ""))
print("\nCPU seconds per page (whole machine, nice-d processes excluded, median of the runs):")
for (tool, tabs), v in sorted(CPU.items()):
    print(f"  {tool} at {tabs} tab(s): {statistics.median(v) / len(urls):.3f}")
print(f"\nsightline ({LANES[0]}) per-page phases at 1 tab (mean ms over all runs' records):")
n = len(phases.get("_scrolled", [])) or 1
for k in ["navigate", "settle", "scroll", "snapshot", "score"]:
    v = phases.get(k, [])
    if v:
        print(f"  {k}: mean {sum(v) / n:.1f} ms a page (present in {len(v)}/{n} records, median where present {statistics.median(v):.1f})")
print(f"  pages scrolled: {sum(phases.get('_scrolled', []))}/{n}")
print("(load-only floor: Playwright, one reused tab per worker, waiting for `load` and nothing else.)")
errs = sum(1 for f in os.listdir(tmp) if f.startswith("peer-") for l in open(os.path.join(tmp, f)) if json.loads(l).get("error"))
print(f"peer errors (all runs): {errs}")
