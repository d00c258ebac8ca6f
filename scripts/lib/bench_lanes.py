"""`scripts/bench-speed lanes`: the render lanes side by side on the benchmark pages.

Every `every`-th page of each dataset (at most PER a dataset), served over HTTP on 127.0.0.1 (so
`auto` decides from the response, as on the web), extracted with
`sightline extract --input LIST -j N --offline --render MODE -f json -o DIR` for MODE in
static, auto and full, alternating the order each repetition; at 1 and 4 tabs. Reported: the
median wall time of each mode and its ratio to `full`, the median render time a page
(navigate + settle + scroll + snapshot, from the records' `timings_ms`), the lanes `auto`
took, and how many pages' extracted text is the same as `full`'s.

With ASSETS=1, every <img> of the pages is pointed at a PNG served from the same loopback origin
(as scripts/bench-block does), so that `full` fetches images as a live page would.
With QUALITY=1, also `sightline eval --render auto` against `--render full` on the same pages
(LCS F1 against the gold, per dataset; eval serves the pages itself).
Nothing from the benchmark is written into the repository.
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
from benchserve import Server, load_pages, png  # noqa: E402

EXE = "./target/release/sightline"
MODES = ["static", "auto", "full"]


def records(out):
    with open(os.path.join(out, "index.jsonl"), encoding="utf-8") as f:
        return [json.loads(l) for l in f if l.strip()]


def run(lst, tabs, mode, out):
    os.makedirs(out, exist_ok=True)
    t = time.monotonic()
    subprocess.run(
        [EXE, "extract", "--input", lst, "-j", str(tabs), "--offline", "-q", "--render", mode,
         "-f", "json", "-o", out],
        check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.monotonic() - t


def render_ms(rec):
    t = rec.get("timings_ms") or {}
    return sum(t.get(k) or 0.0 for k in ("navigate", "settle", "scroll", "snapshot"))


def texts(recs):
    return {r["input"]: r.get("text") for r in recs if "error" not in r}


def with_loopback_images(body, cs, srv):
    """ASSETS=1: every <img> of the page points at a PNG of its size (width/height, else
    640x480) served from the same loopback origin, so `full` fetches and decodes them as a
    live page would (offline, the page's own image URLs are refused in every mode)."""
    html = body.decode(cs, errors="replace")

    def num(tag, name):
        m = re.search(r'\s%s\s*=\s*["\']?(\d+)' % name, tag, re.I)
        return int(m.group(1)) if m and 0 < int(m.group(1)) <= 2000 else None

    def rewrite(m):
        tag = m.group(0)
        w, h = num(tag, "width") or 640, num(tag, "height") or 480
        path = f"/img/{w}x{h}.png"
        if path not in srv.files:
            srv.add(path, png(w, h, w * 10000 + h), "image/png")
        tag = re.sub(r'\s(src|srcset|sizes|data-src|data-srcset|loading)\s*=\s*("[^"]*"|\'[^\']*\'|[^\s>]+)', "", tag, flags=re.I)
        return re.sub(r"^<img", f'<img src="{path}"', tag, flags=re.I)

    html = re.sub(r"<(source|base)\b[^>]*>", "", html, flags=re.I)
    html = re.sub(r"<img\b[^>]*>", rewrite, html, flags=re.I)
    html = re.sub(r"<meta[^>]+charset[^>]*>", "", html, flags=re.I)
    return ('<meta charset="utf-8">' + html).encode("utf-8"), "utf-8"


def speed(per, reps, bench, tmp):
    pages = load_pages(bench, per)
    srv = Server()
    urls = []
    assets = bool(os.environ.get("ASSETS"))
    for ds, pid, body, cs in pages:
        if assets:
            body, cs = with_loopback_images(body, cs, srv)
        urls.append(srv.add(f"/{ds}/{pid}.html", body, f"text/html; charset={cs}"))
    lst = os.path.join(tmp, "urls.txt")
    with open(lst, "w") as f:
        f.write("\n".join(urls) + "\n")
    n = len(urls)
    print(f"render lanes: {n} benchmark pages ({per} per dataset, every 7th id) over HTTP on "
          f"127.0.0.1, offline, `extract --input LIST -f json -o DIR`, median of {reps} alternating runs"
          + (f"; ASSETS=1: images from loopback ({len(srv.files) - n} PNG sizes)" if assets else "") + "\n")
    print("| tabs | mode | wall | pages/s | wall / full | render ms a page (median) | errors | lanes | same text as full |")
    print("|---:|---|---:|---:|---:|---:|---:|---|---:|")
    for tabs in (1, 4):
        walls = {m: [] for m in MODES}
        last = {}
        for r in range(reps):
            order = MODES[r % 3:] + MODES[:r % 3]
            for mode in order:
                out = os.path.join(tmp, f"{mode}-{tabs}-{r}")
                walls[mode].append(run(lst, tabs, mode, out))
                last[mode] = records(out)
        full_w = statistics.median(walls["full"])
        full_text = texts(last["full"])
        for mode in MODES:
            w = statistics.median(walls[mode])
            recs = last[mode]
            errors = sum(1 for x in recs if "error" in x)
            lanes = {}
            for x in recs:
                rr = x.get("render")
                if rr:
                    key = "static-then-full" if rr["mode"] == "full" and rr.get("renders", 1) > 1 else rr["mode"]
                    lanes[key] = lanes.get(key, 0) + 1
            lane_s = ", ".join(f"{v} {k}" for k, v in sorted(lanes.items())) or "–"
            ms = statistics.median([render_ms(x) for x in recs if "error" not in x] or [0])
            same = sum(1 for k, v in texts(recs).items() if full_text.get(k) == v)
            print(f"| {tabs} | {mode} | {w:.2f} s | {n / w:.2f} | {w / full_w:.2f} | {ms:.0f} | {errors} | {lane_s} | {same}/{n} |")
    if os.environ.get("SHOW_AUTO_FULL"):
        print("\nPages `auto` rendered full, by the first word of the reason:")
        reasons = {}
        for x in last["auto"]:
            rr = x.get("render")
            if rr and rr["mode"] == "full":
                k = rr["reason"].split(":")[0]
                reasons[k] = reasons.get(k, 0) + 1
        for k, v in sorted(reasons.items(), key=lambda kv: -kv[1]):
            print(f"- {k}: {v}")


def quality(per, bench, tmp):
    print(f"\nLCS F1 (`learned`) against the gold, `sightline eval --bench BENCH --limit {per} --every 7 "
          "-j 2 --render MODE` (eval serves the pages itself; one run each):\n")
    reps = {}
    for mode in ("full", "auto", "static"):
        out = os.path.join(tmp, f"eval-{mode}")
        subprocess.run([EXE, "eval", "--bench", bench, "--limit", str(per), "--every", "7", "-j", "2",
                        "-q", "--render", mode, "--out", out], check=True, stdout=subprocess.DEVNULL)
        reps[mode] = json.load(open(os.path.join(out, "report.json")))

    def f1(mode, ds):
        rows = [r for r in reps[mode]["rows"] if r["algorithm"] == "learned" and r["dataset"] == ds]
        return rows[0]["lcs_f1"], rows[0]["pages"]

    datasets = sorted({r["dataset"] for r in reps["full"]["rows"]})
    print("| dataset | pages | full | auto | static |\n|---|---:|---:|---:|---:|")
    for ds in datasets:
        print(f"| {ds} | {f1('full', ds)[1]} | " + " | ".join(f"{f1(m, ds)[0]:.3f}" for m in reps) + " |")
    print("| mean | | " + " | ".join(f"{statistics.mean(f1(m, ds)[0] for ds in datasets):.3f}" for m in reps) + " |")
    for m, rep in reps.items():
        run = rep["run"]
        print(f"- {m}: render {run['render_s']:.1f} s (2 tabs), lanes {run.get('lanes', {})}")


def main():
    per, reps, bench = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    tmp = tempfile.mkdtemp(prefix="sightline-lanes-")
    speed(per, reps, bench, tmp)
    if os.environ.get("QUALITY"):
        quality(per, bench, tmp)


if __name__ == "__main__":
    main()
