"""The tables the package returns say None where a row has no value, never a made-up 0 or ""."""

import json

import sightline

from conftest import FIXTURES


def check_nodes(nodes, raw):
    """Text nodes: no display, position or opacity (None) and their parent element's inherited
    style; elements: their own. No text node holds an element-only value, and no string
    column an empty string the page does not have."""
    assert any(node["tag"] == "#text" for node in raw) and len(nodes["id"]) == len(raw)
    for i, node in enumerate(raw):
        for column in ["text", "href", "src", "id_attr", "class", "role", "link_text"]:
            assert nodes[column][i] != "", (column, i)
        if node["tag"] != "#text":
            assert nodes["font_size"][i] == node["font_size"], i
            assert nodes["font_weight"][i] == node.get("font_weight", 400), i
            assert nodes["display"][i] == node.get("display", "block"), i
            assert nodes["opacity"][i] == node.get("opacity", 1), i
            continue
        parent = raw[node["parent"]]
        assert parent["tag"] != "#text"
        assert nodes["font_size"][i] == parent["font_size"] and nodes["font_size"][i] > 0, i
        assert nodes["font_weight"][i] == parent.get("font_weight", 400), i
        assert nodes["visibility"][i] == parent.get("visibility", "visible"), i
        for column in ["display", "position", "opacity", "href", "src", "alt", "id_attr", "class", "role"]:
            assert nodes[column][i] is None, (column, i)


def test_text_nodes_have_their_parents_font_size_not_zero():
    path = FIXTURES / "crunch-portal" / "snapshot.json"
    nodes = sightline.Snapshot.load(path).nodes().to_pydict()
    check_nodes(nodes, json.loads(path.read_text())["nodes"])


def test_a_rendered_text_node_reports_the_size_it_renders_with(browser, tmp_path):
    html = '<p style="font-size: 13px">Small print <b style="font-size: 21px; font-weight: 700">bold</b></p>'
    snap = browser.snapshot(html=html, url="sizes")
    nodes = snap.nodes().to_pydict()
    texts = {t: i for i, t in enumerate(nodes["text"]) if t}
    assert nodes["font_size"][texts["Small print "]] == 13.0
    assert nodes["font_size"][texts["bold"]] == 21.0 and nodes["font_weight"][texts["bold"]] == 700
    path = tmp_path / "s.json"
    snap.save(path)
    check_nodes(nodes, json.loads(path.read_text())["nodes"])


def test_evaluate_leaves_unscored_pages_none(tmp_path):
    """A page whose gold is empty is not scored: None in every score column, not 0."""
    ds = tmp_path / "bench" / "mini"
    (ds / "gold").mkdir(parents=True)
    snaps = tmp_path / "snapshots" / "mini"
    snaps.mkdir(parents=True)
    source = FIXTURES / "crunch-portal" / "snapshot.json"
    (ds / "manifest.jsonl").write_text('{"id": "scored"}\n{"id": "no-gold"}\n')
    (ds / "gold" / "scored.txt").write_text("Local council approves the new harbour budget\n")
    (ds / "gold" / "no-gold.txt").write_text("")
    for page in ["scored", "no-gold"]:
        (snaps / f"{page}.json").write_text(source.read_text())
    t = sightline.evaluate(tmp_path / "bench", ["htd"], snapshots=tmp_path / "snapshots").to_pydict()
    rows = {page: i for i, page in enumerate(t["id"])}
    for column in ["precision", "recall", "f1", "ce_score", "bow_f1"]:
        assert isinstance(t[column][rows["scored"]], float), column
        assert t[column][rows["no-gold"]] is None, column
    assert t["gold_tokens"][rows["no-gold"]] == 0 and t["failure"] == [None, None]
