#!/usr/bin/env python3
"""Independent reference for the density tests in src/extract/density.rs.

Song, Sun & Liao (2013), eq. 1-5, written from the paper (not from the Rust code) over the
tree of Example 3.1 with boxes on a 1000 px page (main spans [0, 1000] -> mu = 500, sigma = 500;
story-header [200, 800], story-body [0, 1000], the link [250, 750]). Text leaves take the VI of
their tag's box. Zero denominators are set to 1 (§3.3); for HTD, T = 0 becomes HC/C (§3.4.2)
and a negative HTD is clamped to 0; an all-link node scores 0 (§3.3). DensitySum (eq. 5) sums
element and text children; a childless node's DensitySum is its own density.

Run: python3 tests/reference/song_density.py   (standard library only)
"""
from math import e, erf, log, sqrt


def nz(x):
    return x if x != 0 else 1.0


def ctd(C, T, LC, LT, LCb, Cb):
    if C == 0 or LC >= C:
        return 0.0
    Tn = nz(T)
    base = C / nz(C - LC) * LC + LCb / nz(Cb) * C + e
    return C / Tn * log(C / nz(LC) * Tn / nz(LT)) / nz(log(log(base)))


def htd(C, HC, T, LC, LT, LCb, HCb):
    if C == 0 or HC == 0 or LC >= C:
        return 0.0
    Tn = T if T != 0 else HC / C
    base = HC / nz(C - LC) * LC + LCb / nz(HCb) * HC + e
    v = HC / Tn * log(HC / nz(LC) * Tn / nz(LT)) / nz(log(log(base)))
    return max(v, 0.0)


def phi(z):
    return 0.5 * (1 + erf(z / sqrt(2)))


# name, parent, own characters, is element, is link (text inside <a>), box [x1, x2]
NODES = [
    ("body", None, 0, True, False, (0, 1000)),
    ("main", 0, 0, True, False, (0, 1000)),
    ("article", 1, 0, True, False, (0, 1000)),
    ("header", 2, 0, True, False, (200, 800)),
    ("header#text", 3, 28, False, False, None),  # "Lunch with the FT: Biz Stone"
    ("story-body", 2, 0, True, False, (0, 1000)),
    ("story#text", 5, 35, False, False, None),  # "Though the value of the company was"
    ("a", 5, 0, True, True, (250, 750)),
    ("a#text", 7, 28, False, True, None),  # "recently estimated at $3.7bn"
]
N = len(NODES)
KIDS = [[j for j in range(N) if NODES[j][1] == i] for i in range(N)]
MU, SIGMA = 500.0, 500.0


def subtree(i):
    out = [i]
    for k in KIDS[i]:
        out += subtree(k)
    return out


def vi_text(i):
    x1, x2 = NODES[NODES[i][1]][5]
    return phi((x2 - MU) / SIGMA) - phi((x1 - MU) / SIGMA)


def main():
    C = [sum(NODES[j][2] for j in subtree(i)) for i in range(N)]
    T = [sum(1 for j in subtree(i) if j != i and NODES[j][3]) for i in range(N)]
    LC = [sum(NODES[j][2] for j in subtree(i) if NODES[j][4] and not NODES[j][3]) for i in range(N)]
    LT = [sum(1 for j in subtree(i) if j != i and NODES[j][0] == "a") for i in range(N)]
    HC = [sum(vi_text(j) * NODES[j][2] for j in subtree(i) if not NODES[j][3]) for i in range(N)]
    print("C", C, "T", T, "LC", LC, "LT", LT)
    print("HC", [repr(x) for x in HC])
    for i in (4, 6, 8):
        print("VI", NODES[i][0], repr(vi_text(i)))
    cts = [ctd(C[i], T[i], LC[i], LT[i], LC[0], C[0]) for i in range(N)]
    hts = [htd(C[i], HC[i], T[i], LC[i], LT[i], LC[0], HC[0]) for i in range(N)]
    for name, d in (("CTD", cts), ("HTD", hts)):
        ds = [sum(d[k] for k in KIDS[i]) if KIDS[i] else d[i] for i in range(N)]
        for i in range(N):
            print(name, i, NODES[i][0], repr(d[i]), "DensitySum", repr(ds[i]))


if __name__ == "__main__":
    main()
