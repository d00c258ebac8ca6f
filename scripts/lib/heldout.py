"""What the held-out experiment scripts share (scripts/learning-curve, scripts/token-experiment,
scripts/region-experiment): reading the matrix `sightline train --export DIR` writes, folds by
site, the expected-F1 cut, the token-level estimate of LCS F1 from the exported aligned shares,
and a unit's hashed-token strings."""
import json
import re
import sys
import zlib

import numpy as np

TYPES = ["article", "product", "listing", "forum", "collection", "service", "documentation"]


def load_matrix(d):
    """(feature names, rows as float32 [units x features], pages.jsonl records); exits with the
    command that writes the matrix when it is missing or malformed."""
    try:
        names = [l.strip() for l in open(f"{d}/features.txt", encoding="utf-8") if l.strip()]
        meta = [json.loads(l) for l in open(f"{d}/pages.jsonl", encoding="utf-8")]
        x = np.fromfile(f"{d}/rows.f32", dtype="<f4")
    except OSError as e:
        sys.exit(f"{d}: {e}; write it with `sightline train --snapshots S --export {d}`")
    if any("site" not in p for p in meta):
        sys.exit(f"{d}/pages.jsonl has no `site`: export it again with this sightline")
    counts = [p["units"] for p in meta]
    if x.size != sum(counts) * len(names):
        sys.exit(f"{d}: rows.f32 holds {x.size} values, not {sum(counts)} units x {len(names)} features")
    return names, x.reshape(-1, len(names)), meta


def site_folds(meta, k):
    """Each page's fold: a hash of its site mod k (every page of a site in one fold)."""
    return np.array([zlib.crc32(p["site"].encode()) % k for p in meta])


def decide(q, n):
    """The expected-F1 cut: keep units in order of probability while the expected F1 grows."""
    pn = q * n
    eg = pn.sum()
    if eg <= 0:
        return np.zeros(len(q), bool)
    o = np.lexsort((np.arange(len(q)), -q))
    f = 2 * np.cumsum(pn[o]) / (np.cumsum(n[o]) + eg)
    cut = q[o[int(np.argmax(f))]]
    return (q >= cut) & (q > 0)


def page_f1(share, n, gold, keep):
    """(F1, precision, recall) of keeping `keep`, counting each unit's aligned tokens correct."""
    tp = (share * n)[keep].sum()
    out = n[keep].sum()
    if out == 0 or gold == 0 or tp == 0:
        return 0.0, 0.0, 0.0
    p, r = tp / out, tp / gold
    return 2 * p * r / (p + r), p, r


WORD = re.compile(r"\w+")
PART = re.compile(r"[^0-9a-z]+")


def unit_tokens(nodes, block, ancestors, text_nodes):
    """A unit's token strings (issue 50): its words (w:, the first 60) and word bigrams (b:, the
    first 30); the class and id parts (c/i), role (r), itemprop (p) and tag (t) of its block (K=0)
    and three ancestors (K=1..3); the four tags as one path. `nodes` are the snapshot's."""
    toks = []
    words = WORD.findall(" ".join(nodes[i].get("text", "") for i in text_nodes).lower())
    toks += ["w:" + w for w in words[:60]]
    toks += ["b:" + a + "_" + b for a, b in zip(words[:30], words[1:31])]
    tags = []
    for k, i in enumerate([block] + list(ancestors)):
        n = nodes[i] if 0 <= i < len(nodes) else {}
        tag = n.get("tag", "")
        tags.append(tag)
        toks.append(f"t{k}:{tag}")
        for name, key in (("c", "class"), ("i", "id")):
            for part in PART.split((n.get(key) or "").lower()):
                if part and not part.isdigit():
                    toks.append(f"{name}{k}:{part}")
        if n.get("role"):
            toks.append(f"r{k}:{n['role'].lower()}")
        prop = (n.get("attrs") or {}).get("itemprop")
        if prop:
            toks.append(f"p{k}:{prop.lower()}")
    toks.append("path:" + ">".join(tags))
    return toks
