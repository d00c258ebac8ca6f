"""Browser.crawl / acrawl / map and sightline.crawl / map against a small site served on
127.0.0.1 (as tests/crawl.rs does for the CLI): robots.txt with a disallowed path, a sitemap, a
link added by a script, a nofollow link, a page of another server (off scope); and the
sightline.ray UDF without Ray (and with a local Ray when it is installed)."""

import asyncio
import http.server
import os
import threading

import pytest

import sightline


def _page(title, body):
    return (
        f"<!doctype html><html><head><title>{title}</title></head><body><main><h1>{title}</h1>"
        f"<p>{body} " + "This page of the test site has enough words to be kept as content. " * 4
        + "</p></main></body></html>"
    )


class _Site:
    def __init__(self, routes):
        self.routes = routes
        self.hits = []
        self.agents = {}
        site = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 (http.server's name)
                site.hits.append(self.path)
                site.agents[self.path] = self.headers.get("User-Agent", "")
                route = site.routes(site.base, self.path)
                if route is None:
                    self.send_response(404)
                    self.end_headers()
                    return
                ctype, body = route
                data = body.encode()
                self.send_response(200)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *a):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()


@pytest.fixture(scope="module")
def site():
    other = _Site(lambda base, path: ("text/html", _page("Off", "Off scope.")))

    def routes(base, path):
        html = "text/html"
        if path == "/robots.txt":
            return "text/plain", "User-agent: *\nDisallow: /private/\n"
        if path == "/sitemap.xml":
            return "application/xml", (
                "<?xml version='1.0'?><urlset xmlns='http://www.sitemaps.org/schemas/sitemap/0.9'>"
                f"<url><loc>{base}/from-sitemap</loc></url></urlset>"
            )
        if path == "/":
            return html, (
                "<!doctype html><html><head><title>Home</title></head><body><main><h1>Home</h1>"
                "<p>" + "The home page of the test site, with links to the others. " * 4 + "</p>"
                "<a href='/a'>Page A</a> <a href='/private/secret'>Secret</a> "
                "<a href='/nofollow-target' rel='nofollow'>No</a> "
                f"<a href='{other.base}/offsite'>Elsewhere</a></main>"
                "<script>var a = document.createElement('a'); a.href = '/js-only';"
                "a.textContent = 'Added'; document.querySelector('main').appendChild(a);</script>"
                "</body></html>"
            )
        if path == "/a":
            return html, _page("Page A", "A page linked from the home page.")
        if path in ("/from-sitemap", "/js-only", "/nofollow-target", "/private/secret"):
            return html, _page(path.strip("/"), f"The page at {path}.")
        return None

    s = _Site(routes)
    yield s
    s.httpd.shutdown()
    other.httpd.shutdown()


def _paths(site, pages):
    return sorted(p.input[len(site.base) :] for p in pages)


def test_crawl_yields_each_page_with_its_place_in_the_crawl(site):
    with sightline.Browser(tabs=2, offline=True, timeout=30.0) as b:
        it = b.crawl(f"{site.base}/", per_host=2)
        pages = list(it)
        summary = it.summary
    assert _paths(site, pages) == ["/", "/a", "/from-sitemap", "/js-only"]
    by = {p.input[len(site.base) :]: p for p in pages}
    assert all(p.ok and p.kind is None and p.error is None for p in pages)
    assert by["/"].found_in == "seed" and by["/"].depth == 0 and by["/"].parent is None
    assert by["/from-sitemap"].found_in == "sitemap"
    assert by["/js-only"].found_in == "link" and by["/js-only"].parent == f"{site.base}/"
    assert by["/a"].title == "Page A" and "linked from the home page" in by["/a"].text
    assert "# Page A" in by["/a"].markdown
    links = {l["url"]: l for l in by["/"].links}
    assert links[f"{site.base}/nofollow-target"]["nofollow"] is True
    assert by["/"].to_dict()["found_in"] == "seed"
    # robots.txt's disallowed path and the nofollow link are never fetched.
    assert "/private/secret" not in site.hits and "/nofollow-target" not in site.hits
    assert summary["recorded"] == 4 and summary["failed"] == 0 and summary["disallowed"] == 0
    assert summary["walls"] == {}


def test_acrawl_is_the_same_crawl_and_max_pages_bounds_it(site):
    async def main():
        async with sightline.Browser(tabs=2, offline=True, timeout=30.0) as b:
            return [p async for p in b.acrawl([f"{site.base}/"], max_pages=2, sitemaps=False)]

    pages = asyncio.run(main())
    assert len(pages) == 2 and pages[0].input == f"{site.base}/"


def test_map_lists_urls_and_the_module_functions_open_their_own_browser(site):
    found = sightline.map(f"{site.base}/", offline=True, timeout=30.0)
    urls = {m["url"]: m for m in found}
    assert urls[f"{site.base}/from-sitemap"]["found_in"] == "sitemap"
    assert urls[f"{site.base}/js-only"]["depth"] == 1
    assert f"{site.base}/private/secret" not in urls
    assert not any(u.startswith(f"{site.base}/offsite") for u in urls)
    pages = list(sightline.crawl(f"{site.base}/", tabs=1, offline=True, max_depth=0, sitemaps=False))
    assert [p.input for p in pages] == [f"{site.base}/"]
    # sightline.crawl's pages name sightline, as its robots.txt request does.
    assert site.agents["/"] == sightline.CRAWL_USER_AGENT
    assert site.agents["/robots.txt"] == sightline.CRAWL_USER_AGENT


def test_a_browsers_user_agent_is_its_crawls(site):
    with sightline.Browser(tabs=1, offline=True, timeout=30.0, user_agent="examplebot/1.0") as b:
        pages = list(b.crawl(f"{site.base}/a", max_depth=0, sitemaps=False))
    assert pages[0].ok
    assert site.agents["/a"] == "examplebot/1.0"
    assert site.agents["/robots.txt"] == "examplebot/1.0"


def test_crawl_keywords_are_checked(site, browser):
    with pytest.raises(TypeError, match=r"crawl\(\) got an unexpected keyword argument 'max_page'"):
        browser.crawl(site.base, max_page=3)
    with pytest.raises(TypeError, match=r"map\(\) got an unexpected keyword argument 'resume'"):
        browser.map(site.base, resume=True)
    with pytest.raises(sightline.InputError, match="scope"):
        browser.crawl(site.base, scope="planet")


def test_the_ray_udf_gives_one_row_per_input_failures_included(site):
    import pyarrow as pa

    from sightline.ray import COLUMNS, Extract

    udf = Extract(tabs=2, offline=True, timeout=30.0)
    try:
        urls = [f"{site.base}/a", f"{site.base}/missing", f"{site.base}/from-sitemap"]
        out = udf.extract_batch(pa.table({"url": urls}))
        assert out.column_names == list(COLUMNS)
        rows = out.to_pylist()
        assert [r["url"] for r in rows] == urls
        assert [r["ok"] for r in rows] == [True, False, True]
        assert rows[0]["title"] == "Page A" and "linked from the home page" in rows[0]["text"]
        assert rows[1]["error_kind"] == "http" and rows[1]["text"] is None
        # A dict of columns (Ray's numpy format) gives a dict of lists.
        cols = udf.extract_batch({"url": urls[:1]})
        assert cols["ok"] == [True] and cols["title"] == ["Page A"]
    finally:
        udf.close()


def test_ray_extract_on_a_local_cluster(site):
    # scripts/test-python installs Ray and sets SIGHTLINE_REQUIRE_RAY: there (and in CI) a
    # missing Ray fails the test instead of skipping it.
    if os.environ.get("SIGHTLINE_REQUIRE_RAY"):
        import ray
    else:
        ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'sightline[ray]')")
    import sightline.ray

    ray.init(num_cpus=2, include_dashboard=False, ignore_reinit_error=True, log_to_driver=False)
    try:
        urls = [f"{site.base}/a", f"{site.base}/missing", f"{site.base}/js-only"]
        # Two tabs, batches of one: two batches in flight on the actor at once (its default).
        ds = sightline.ray.extract(urls, tabs=2, concurrency=1, batch_size=1, offline=True, timeout=30.0)
        rows = sorted(ds.take_all(), key=lambda r: urls.index(r["url"]))
        assert [r["ok"] for r in rows] == [True, False, True]
        assert rows[1]["error_kind"] == "http"
        with pytest.raises(ValueError, match="batches_in_flight must be at least 1, not 0"):
            sightline.ray.extract(urls, batches_in_flight=0)
    finally:
        ray.shutdown()
