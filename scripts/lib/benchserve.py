"""Serve benchmark pages (and variants built from them) on 127.0.0.1 for the bench scripts.

Pages are read from ../shared/bench at run time and kept in memory or a temp dir; nothing from
the benchmark is written into the repository.
"""
import gzip
import http.server
import json
import os
import random
import struct
import threading
import zlib


def load_pages(bench, per_dataset, every=7, no_scripts=False):
    """[(dataset, id, html_bytes, charset)]: every `every`-th page of each dataset, at most
    `per_dataset` per dataset (sorted ids, as `sightline eval --every` picks them)."""
    out = []
    for ds in sorted(os.listdir(bench)):
        man = os.path.join(bench, ds, "manifest.jsonl")
        if not os.path.isfile(man):
            continue
        rows = [json.loads(l) for l in open(man, encoding="utf-8") if l.strip()]
        rows.sort(key=lambda r: r["id"])
        rows = rows[::every]
        if no_scripts:
            rows = [r for r in rows if r.get("script_src", 0) == 0]
        for r in rows[:per_dataset]:
            p = os.path.join(bench, ds, "html", r["id"] + ".html")
            if os.path.isfile(p + ".gz"):
                body = gzip.open(p + ".gz").read()
            elif os.path.isfile(p):
                body = open(p, "rb").read()
            else:
                continue
            out.append((ds, r["id"], body, serve_charset(r.get("suggested_charset"), body)))
    return out


def serve_charset(suggested, body):
    """The manifest's charset, but UTF-8 for bytes that are valid UTF-8 and not ASCII (a page
    converted to UTF-8 that kept its old declaration), as `serve_charset` in
    src/eval/bench.rs; labels that are no encoding (`0`, `iso-1252`) give UTF-8 too."""
    try:
        body.decode("utf-8")
        if not body.isascii():
            return "utf-8"
    except UnicodeDecodeError:
        pass
    cs = (suggested or "utf-8").strip()
    try:
        import codecs
        codecs.lookup(cs)
    except LookupError:
        return "utf-8"
    # Python's spellings (`iso8859_1`, `euc_kr`) as the labels browsers know.
    return cs.replace("_", "-") if cs not in ("0", "iso-1252") else "utf-8"


class Server:
    """A threaded HTTP server on 127.0.0.1 over a dict path -> (bytes, content type)."""

    def __init__(self):
        self.files = {}
        files = self.files

        class H(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                f = files.get(self.path.split("?")[0])
                if f is None:
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                body, ctype = f
                self.send_response(200)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *a):
                pass

        class S(http.server.ThreadingHTTPServer):
            # The default listen backlog (5) overflows when several tabs request a page's
            # dozens of same-origin resources at once: refused SYNs are retried after 1 s, 3 s...
            request_queue_size = 512

        self.httpd = S(("127.0.0.1", 0), H)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def add(self, path, body, ctype):
        self.files[path] = (body, ctype)
        return f"http://127.0.0.1:{self.port}{path}"


def png(w, h, seed):
    """Noise of four colours (a palette PNG), about what a JPEG photo of that size weighs
    (as scripts/bench-block makes them)."""
    rnd = random.Random(seed)
    four = bytes(range(4)) * 64
    raw = b"".join(b"\x00" + rnd.randbytes(w).translate(four) for _ in range(h))

    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0))
            + chunk(b"PLTE", bytes([200, 120, 40, 40, 120, 200, 60, 160, 90, 230, 230, 220]))
            + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))
