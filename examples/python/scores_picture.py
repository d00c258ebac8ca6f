"""Per-node scores of a page as a DataFrame, and a picture of the page with each text box
coloured by its score.

Renders a bundled fixture once (screenshot included), joins the node table (boxes, fonts,
text) with two algorithms' per-node scores (HTD, the hybrid text density of Song et al., and
the `learned` model's probability), prints the most probable text nodes, and draws every
text node's box over the screenshot: green for content, red for boilerplate.

    pip install ./python pandas pillow
    python examples/python/scores_picture.py [FIXTURE_PAGE] [OUT.png]

Defaults: fixtures/demo-news/page.html and scores.png.
"""

import io
import pathlib
import sys

import pandas as pd
from PIL import Image, ImageDraw

import sightline

ROOT = pathlib.Path(__file__).resolve().parents[2]


def main() -> None:
    page_path = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "fixtures/demo-news/page.html"
    out = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else pathlib.Path("scores.png")

    # One render: the page's layout snapshot and its screenshot.
    page = sightline.extract(page_path, offline=True, screenshot=True)
    snap = page.snapshot

    # Nodes (box, font, text) joined with each algorithm's per-node quantities on `id`.
    nodes = snap.nodes().to_pandas()
    htd = snap.scores("htd").to_pandas()[["id", "htd", "density_sum"]]
    learned = snap.scores("learned").to_pandas()[["id", "probability", "kept"]]
    df = nodes.merge(htd, on="id").merge(learned, on="id")
    text = df[(df.tag == "#text") & df.probability.notna() & (df.w > 0) & (df.h > 0)]
    cols = ["id", "css_path", "font_size", "htd", "probability", "kept", "text"]
    print(text.sort_values("probability", ascending=False)[cols].head(8).to_string(max_colwidth=40))

    # Each text node's box over the screenshot, coloured by the learned probability.
    shot = Image.open(io.BytesIO(page.screenshot)).convert("RGBA")
    overlay = Image.new("RGBA", shot.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(overlay)
    scale = shot.width / snap.viewport[0]
    for r in text.itertuples():
        p = float(r.probability)
        colour = (int(230 * (1 - p)), int(180 * p), 40)
        box = [r.x * scale, r.y * scale, (r.x + r.w) * scale, (r.y + r.h) * scale]
        draw.rectangle(box, fill=colour + (90,), outline=colour + (255,), width=2)
    picture = Image.alpha_composite(shot, overlay).convert("RGB")
    picture = picture.crop((0, 0, picture.width, min(picture.height, int(1400 * scale))))
    picture.thumbnail((800, 1000))
    picture.quantize(colors=64).save(out, optimize=True)
    print(f"{len(text)} text nodes drawn: {out}")


if __name__ == "__main__":
    main()
