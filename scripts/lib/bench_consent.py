"""What the consent step costs on the bench pages that name a consent platform
(scripts/bench-speed consent).

Usage: python3 scripts/lib/bench_consent.py REPS BENCH [BEFORE_EXE]

1. Every bench page whose saved HTML names a consent platform's global or dialog root (the
   lists of sightline_core::walls::markers) is served on 127.0.0.1.
2. One pass `--consent reject -j 2` picks the pages whose record has `consent` (the settle saw
   the platform and the step ran).
3. Those pages, REPS alternating runs at one tab each with `--consent reject` and
   `--consent keep` (and with BEFORE_EXE's `--consent reject` when given: an older build):
   per page the median of `timings_ms.settle` plus `timings_ms.snapshot` (the step after the
   settle counts in the settle, a dialog answered after the snapshot in the snapshot), and the
   record's `consent.ended` and `consent.waited_ms`.

Reported: for the pages whose step found no dialog and for those with one, the median of
settle plus snapshot each way and the median and largest difference per page; and whether the text is the same.
"""
import gzip
import hashlib
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from benchserve import Server, serve_charset  # noqa: E402

reps, bench = int(sys.argv[1]), sys.argv[2]
before = sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] else None
exe = "./target/release/sightline"


def markers():
    """CONSENT_GLOBALS and CONSENT_ROOTS, read from the source (one list, not a copy)."""
    src = open("crates/core/src/walls/markers.rs", encoding="utf-8").read()
    out = []
    for name in ["CONSENT_GLOBALS", "CONSENT_ROOTS"]:
        m = re.search(name + r": &\[\(&str, &str\)\] = &\[(.*?)\];", src, re.S)
        out += [a for a, _ in re.findall(r'\("([^"]+)",\s*"([^"]+)"\)', m.group(1))]
    return out


words = [w.lower().encode() for w in markers()]
srv = Server()
urls = []
for ds in sorted(os.listdir(bench)):
    hd = os.path.join(bench, ds, "html")
    man = os.path.join(bench, ds, "manifest.jsonl")
    if not os.path.isdir(hd) or not os.path.isfile(man):
        continue
    cs = {r["id"]: r.get("suggested_charset") for r in map(json.loads, filter(str.strip, open(man, encoding="utf-8")))}
    for f in sorted(os.listdir(hd)):
        p = os.path.join(hd, f)
        body = gzip.open(p).read() if f.endswith(".gz") else open(p, "rb").read()
        low = body.lower()
        if not any(w in low for w in words):
            continue
        pid = f.removesuffix(".gz").removesuffix(".html")
        urls.append(srv.add(f"/{ds}/{pid}.html", body, f"text/html; charset={serve_charset(cs.get(pid), body)}"))
tmp = tempfile.mkdtemp(prefix="sightline-consent-")


def run(binary, lst, consent, tabs, out):
    subprocess.run([binary, "extract", "--input", lst, "-j", str(tabs), "--offline", "-q", "--consent", consent,
                    "--format", "jsonl", "-o", out], stdout=subprocess.DEVNULL)
    recs = {}
    for line in open(out, encoding="utf-8"):
        r = json.loads(line)
        recs[r["input"]] = r
    return recs


lst = os.path.join(tmp, "all.txt")
open(lst, "w").write("\n".join(urls) + "\n")
first = run(exe, lst, "reject", 2, os.path.join(tmp, "pick.jsonl"))
picked = sorted(u for u, r in first.items() if r.get("consent"))
print(f"consent step on the bench: {len(urls)} pages whose HTML names a consent global or root "
      f"(served on 127.0.0.1, offline); the step ran on {len(picked)} (`--consent reject -j 2`).")
if not picked:
    sys.exit(0)
lst = os.path.join(tmp, "picked.txt")
open(lst, "w").write("\n".join(picked) + "\n")
modes = [("reject", exe, "reject"), ("keep", exe, "keep")] + ([("reject, before", before, "reject")] if before else [])
settle = {m: {u: [] for u in picked} for m, _, _ in modes}
text = {m: {} for m, _, _ in modes}
consent = {m: {u: [] for u in picked} for m, _, _ in modes}
for r in range(reps):
    for m, binary, c in modes:
        recs = run(binary, lst, c, 1, os.path.join(tmp, f"{m}-{r}.jsonl".replace(", ", "-")))
        for u in picked:
            rec = recs.get(u) or {}
            tm = rec.get("timings_ms") or {}
            if tm.get("settle") is not None:
                settle[m][u].append(tm["settle"] + (tm.get("snapshot") or 0))
            text[m].setdefault(u, hashlib.sha1((rec.get("text") or "").encode()).hexdigest())
            if rec.get("consent"):
                consent[m][u].append(rec["consent"])


def med(v):
    return statistics.median(v) if v else float("nan")


def found(u):
    """The step found a dialog in most runs."""
    cs = consent["reject"][u]
    return sum(1 for c in cs if c.get("popup") or c.get("answered")) * 2 > len(cs)


groups = [("no dialog", [u for u in picked if not found(u)]), ("a dialog", [u for u in picked if found(u)])]
print(f"\nmedian of {reps} alternating runs a page, one tab; settle + snapshot ms (the consent step's wait counts in them)\n")
print("| pages | n | " + " | ".join(f"{m}" for m, _, _ in modes)
      + " | reject - keep, median | reject - keep, largest | waited_ms, median | same text as keep |")
print("|---|---:|" + "---:|" * len(modes) + "---:|---:|---:|---:|")
for name, us in groups:
    if not us:
        continue
    cols = [med([med(settle[m][u]) for u in us]) for m, _, _ in modes]
    diff = [med(settle["reject"][u]) - med(settle["keep"][u]) for u in us]
    waited = [c.get("waited_ms") for u in us for c in consent["reject"][u] if c.get("waited_ms") is not None]
    same = sum(1 for u in us if text["reject"].get(u) == text["keep"].get(u))
    print(f"| {name} | {len(us)} | " + " | ".join(f"{c:.0f}" for c in cols)
          + f" | {med(diff):.0f} | {max(diff):.0f} | {med(waited):.0f} | {same}/{len(us)} |")
ends = {}
for u in picked:
    for c in consent["reject"][u]:
        ends[c.get("ended", "-")] = ends.get(c.get("ended", "-"), 0) + 1
print("\nwhy the step stopped waiting (consent.ended, all reject runs): "
      + ", ".join(f"{k} {v}" for k, v in sorted(ends.items(), key=lambda kv: -kv[1])))
print("\nper page (settle + snapshot ms, median: " + ", ".join(m for m, _, _ in modes) + "; consent.ended)")
for u in picked:
    e = sorted({c.get("ended", "-") for c in consent["reject"][u]})
    print(f"  {u.split('/', 3)[-1]}: " + " / ".join(f"{med(settle[m][u]):.0f}" for m, _, _ in modes) + f"; {','.join(e)}")
