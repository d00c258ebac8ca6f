"""`scripts/bench-speed lanes`: the render lanes side by side on the benchmark pages.

Every `every`-th page of each dataset (at most PER a dataset), served over HTTP on 127.0.0.1 (so
`auto` decides from the response, as on the web), extracted with
`sightline extract --input LIST -j N --offline --render MODE -f json -o DIR` for MODE in
static, auto and full, alternating the order each repetition; at 1 and 4 tabs. Reported: the
median wall time of each mode and its ratio to `full`, the median render time a page
(navigate + settle + scroll + snapshot, from the records' `timings_ms`), the lanes `auto`
took, and how many pages' extracted text is the same as `full`'s.

With QUALITY=1, also `sightline eval --render auto` against `--render full` on the same pages
(LCS F1 against the gold, per dataset; eval serves the pages itself).
Nothing from the benchmark is written into the repository.
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from benchserve import Server, load_pages  # noqa: E402

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


def speed(per, reps, bench, tmp):
    pages = load_pages(bench, per)
    srv = Server()
    urls = []
    for ds, pid, body, cs in pages:
        urls.append(srv.add(f"/{ds}/{pid}.html", body, f"text/html; charset={cs}"))
    lst = os.path.join(tmp, "urls.txt")
    with open(lst, "w") as f:
        f.write("\n".join(urls) + "\n")
    n = len(urls)
    print(f"render lanes: {n} benchmark pages ({per} per dataset, every 7th id) over HTTP on "
          f"127.0.0.1, offline, `extract --input LIST -f json -o DIR`, median of {reps} alternating runs\n")
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
    print(f"\nLCS F1 against the gold, `sightline eval --bench BENCH --limit {per} --every 7 -j 2`, "
          "`--render auto` against `--render full` (one run each):\n")
    f1 = {}
    for mode in ("full", "auto"):
        out = os.path.join(tmp, f"eval-{mode}")
        subprocess.run([EXE, "eval", "--bench", bench, "--limit", str(per), "--every", "7", "-j", "2",
                        "-q", "--render", mode, "--out", out], check=True, stdout=subprocess.DEVNULL)
        rep = json.load(open(os.path.join(out, "report.json")))
        f1[mode] = rep
    print(json.dumps({m: f1[m].get("run", {}).get("lanes") for m in f1}))
    return f1


def main():
    per, reps, bench = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    tmp = tempfile.mkdtemp(prefix="sightline-lanes-")
    speed(per, reps, bench, tmp)
    if os.environ.get("QUALITY"):
        rep = quality(per, bench, tmp)
        with open(os.path.join(tmp, "quality.json"), "w") as f:
            json.dump(rep, f)
        print(f"reports: {tmp}/eval-full/report.json, {tmp}/eval-auto/report.json")


if __name__ == "__main__":
    main()
