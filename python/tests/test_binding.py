"""The binding's keywords: each is declared once (in Rust: a settings type's field, read from its
JSON schema, or a Python-only keyword of python/src/options.rs), and the typed stub, the
signatures, the docs and the errors follow the tables made from them."""

import ast
import inspect
import pathlib
import re

import pytest

import sightline
from sightline import _sightline

from conftest import FIXTURES

STUB = pathlib.Path(sightline.__file__).with_name("_sightline.pyi")
TABLES = dict(_sightline._keywords())


def stub_classes():
    tree = ast.parse(STUB.read_text())
    return {c.name: c for c in tree.body if isinstance(c, ast.ClassDef)}


def typed_dict(name):
    """The keys of a TypedDict of the stub (its bases' first) with the defaults their
    `# default:` comments give."""
    lines = STUB.read_text().splitlines()
    cls = stub_classes()[name]
    out = {}
    for base in cls.bases:
        if isinstance(base, ast.Name) and base.id != "TypedDict":
            out.update(typed_dict(base.id))
    for item in cls.body:
        if isinstance(item, ast.AnnAssign):
            m = re.search(r"# default: (.+)$", lines[item.lineno - 1])
            assert m, f"{name}.{item.target.id} has no `# default:` comment"
            out[item.target.id] = ast.literal_eval(m.group(1))
    return out


def test_the_stubs_typed_dicts_are_the_rust_keyword_tables():
    def table(name, render=False):
        return [(k, default) for k, default, _, r in TABLES[name] if r or not render]

    assert list(typed_dict("BrowserOptions").items()) == table("Browser")
    assert list(typed_dict("RenderOptions").items()) == table("Browser", render=True)
    stub = {
        "extract": "ExtractKeywords",
        "extract_many": "ExtractManyKeywords",
        "snapshot": "SnapshotKeywords",
        "crawl": "CrawlKeywords",
        "map": "MapKeywords",
    }
    for name, typed in stub.items():
        assert list(typed_dict(typed).items()) == table(name), name
    # Each call and its async twin take the same keywords.
    for item in stub_classes()["_Browser"].body:
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.args.kwarg:
            name = item.name[1:] if item.name.startswith("a") else item.name
            want = "BrowserOptions" if name == "__init__" else stub[name]
            assert ast.unparse(item.args.kwarg.annotation) == f"Unpack[{want}]", item.name


def test_signatures_and_docs_come_from_the_table():
    options = [(name, default) for name, default, _, _ in TABLES["Browser"]]
    render = [(name, default) for name, default, _, r in TABLES["Browser"] if r]

    def keywords(f):
        return [(p.name, p.default) for p in inspect.signature(f).parameters.values() if p.kind == p.KEYWORD_ONLY]

    assert list(inspect.signature(sightline.Browser).parameters)[0] == "tabs"
    assert keywords(sightline.Browser) == options
    assert keywords(sightline.extract) == [("html", None), ("url", None)] + options
    assert keywords(sightline.snapshot) == [("html", None), ("url", None)] + render
    for name, default in options:
        assert f"{name}: " in sightline.Browser.__doc__ and f"{name}: " in sightline.extract.__doc__


def test_unknown_or_mistyped_keywords_are_type_errors():
    with pytest.raises(TypeError, match=r"Browser\(\) got an unexpected keyword argument 'tab'"):
        sightline.Browser(tab=2)
    with pytest.raises(TypeError, match="argument 'offline'"):
        sightline.Browser(offline="yes please")
    # snapshot() takes the rendering options only, as before.
    with pytest.raises(TypeError, match="snapshot\\(\\) got an unexpected keyword argument 'algorithm'"):
        sightline.snapshot(FIXTURES / "demo-news" / "page.html", algorithm="htd")
    with pytest.raises(sightline.InputError, match="timeout"):
        sightline.Browser(timeout=0.0)


def test_calls_refuse_the_keywords_of_other_calls(browser):
    with pytest.raises(TypeError, match="extract\\(\\) got an unexpected keyword argument 'progress'"):
        browser.extract(FIXTURES / "demo-news" / "page.html", progress=False)
    with pytest.raises(TypeError, match="asnapshot\\(\\) got an unexpected keyword argument 'screenshot'"):
        browser.asnapshot(FIXTURES / "demo-news" / "page.html", screenshot=True)
    with pytest.raises(TypeError, match="extract_many\\(\\) got an unexpected keyword argument 'html'"):
        browser.extract_many([], html="<p>x</p>")


def test_a_calls_own_params_keep_the_browsers_comments(server):
    url = f"{server}/comments-blog/page.html"
    comment = "the children now check the barrel levels every Monday"
    with sightline.Browser(tabs=1, offline=True, comments=True) as b:
        assert comment in b.extract(url, params={}).text
        assert comment in b.extract(url, algorithm="learned", params="{}").text


def test_the_record_names_the_page_type_predicted_or_stated(server):
    # The Rust twin: tests/cli.rs the_record_names_the_page_type_predicted_or_stated.
    url = f"{server}/comments-blog/page.html"
    with sightline.Browser(tabs=1, offline=True) as b:
        kind = b.extract(url).to_dict()["page_type"]
        assert kind["type"] == "article" and kind["source"] == "predicted", kind
        assert kind["probability"] > 0.8, kind
    with sightline.Browser(tabs=1, offline=True, page_type="forum") as b:
        kind = b.extract(url).to_dict()["page_type"]
        assert kind == {"type": "forum", "probability": 1.0, "source": "stated"}, kind
    with pytest.raises(ValueError, match="blog.*documentation"):
        sightline.Browser(tabs=1, offline=True, page_type="blog")


def test_steer_waits_acts_and_names_a_failing_action(browser):
    late = FIXTURES / "steer-late-article" / "page.html"
    assert "Loading" in browser.extract(late).text
    page = browser.extract(late, steer={"wait_for": "#article p:not(.loading)"})
    assert "Mairead Quinn" in page.text
    more = FIXTURES / "steer-load-more" / "page.html"
    page = browser.extract(more, steer={"actions": [{"type": "click", "selector": "#more", "repeat": 10}]})
    assert "Harbour 40" in page.text
    assert page.to_dict()["actions"][0]["clicks"] == 3
    with pytest.raises(sightline.ActionError, match="action 0"):
        browser.extract(more, steer={"actions": [{"type": "click", "selector": "#nothing-here"}]})
    with pytest.raises(sightline.InputError, match="hover"):
        browser.extract(more, steer={"actions": [{"type": "hover"}]})
    # The same plan as JSON text, and a snapshot steered the same way.
    snap = browser.snapshot(late, steer='{"wait_for_text": "never once gone out"}')
    assert any("Mairead Quinn" in (t or "") for t in snap.nodes().to_pydict()["text"])


def test_the_writers_keywords_reach_the_markdown_and_its_sections(server):
    url = f"{server}/md-links-references/page.html"
    opts = dict(links="references", images="alt", base_url="https://example.org/notes/starter.html")
    with sightline.Browser(tabs=1, offline=True, **opts) as b:
        page = b.extract(url)
    md = page.markdown
    assert "[2]: https://example.org/2023/first-loaf.html" in md
    assert "[temperature](#temperature)" in md and "![" not in md
    record = page.to_dict()
    assert record["markdown"] == md
    sections = page.sections
    assert [s["heading_path"][-1] for s in sections] == [
        "Tuning a sourdough starter", "Feeding", "Temperature"]
    for s in sections:
        start, end = s["span"]
        assert md[start:end] == s["markdown"]
        assert s["boxes"] and all(len(b) == 4 for b in s["boxes"])
    with pytest.raises(sightline.InputError, match="base_url `example.org`"):
        sightline.Browser(tabs=1, offline=True, base_url="example.org")
