"""sightline: render web pages in headless Chromium and extract their main content from the
real layout, with five published algorithms and a learned model.

A thin layer over the Rust library (the extension ``sightline._sightline``): every page is
rendered, snapshotted and scored by the same code as the ``sightline`` command.

    >>> import sightline
    >>> page = sightline.extract("https://example.com/", offline=False)
    >>> print(page.markdown)

    >>> with sightline.Browser(tabs=4) as browser:
    ...     for r in browser.extract_many(urls):
    ...         print(r.index, r.page.title if r.ok else r.error)

A site: ``for page in sightline.crawl("https://docs.example.com/", max_pages=100)``
(:meth:`Browser.crawl`, ``acrawl``); ``sightline.map(seed)`` lists its URLs. Many machines:
:mod:`sightline.ray`.

Research: :func:`snapshot` / :meth:`Snapshot.load` give a page's layout; ``nodes()`` and
``scores(algorithm)`` are Arrow tables (``to_pandas()``, ``to_polars()``).
"""

import atexit
import inspect
import re
import textwrap
import weakref
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple, Union

from . import _sightline
from ._sightline import (
    CRAWL_USER_AGENT,
    DEFAULT_ALGORITHM,
    AsyncCrawlIter,
    AsyncPageIter,
    CrawlIter,
    CrawlPage,
    Page,
    PageIter,
    Result,
    Snapshot,
    Table,
    __version__,
    algorithms,
)
from .errors import *  # noqa: F401,F403
from .errors import SightlineError, __all__ as _errors_all

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from ._sightline import BrowserOptions, CrawlKeywords, MapKeywords, RenderOptions

__all__ = [
    "extract",
    "snapshot",
    "crawl",
    "map",
    "evaluate",
    "Browser",
    "Page",
    "CrawlPage",
    "Result",
    "Snapshot",
    "Table",
    "algorithms",
    "DEFAULT_ALGORITHM",
    "CRAWL_USER_AGENT",
    "__version__",
] + list(_errors_all)

_open = weakref.WeakSet()

# The keyword options, declared once in Rust (python/src/options.rs): (name, default, doc,
# taken by snapshot()). The signatures and docs below are made from them.
_OPTIONS: List[Tuple[str, Any, str, bool]] = dict(_sightline._keywords())["Browser"]
_RENDER_OPTIONS = [o for o in _OPTIONS if o[3]]
_BROWSER_NAMES = {o[0] for o in _OPTIONS}
# The keywords of Browser.crawl and Browser.map that are not Browser options (algorithm,
# params and steer are: sightline.crawl gives them to its Browser).
_CRAWL_OPTIONS = [o for o in dict(_sightline._keywords())["crawl"] if o[0] not in _BROWSER_NAMES]
_MAP_OPTIONS = [o for o in dict(_sightline._keywords())["map"] if o[0] not in _BROWSER_NAMES]


class Browser(_sightline._Browser):
    """One Chromium with a pool of ``tabs`` tabs, and the scoring settings.

    Use it as a context manager (``with`` or ``async with``); ``close()`` ends the browser.
    Methods: ``extract``, ``extract_many``, ``snapshot``, ``crawl``, ``map`` and their async
    twins ``aextract``, ``aextract_many``, ``asnapshot``, ``acrawl``, ``amap``.

    Args:
        tabs: pages rendered at once, each in its own tab.
    """

    def __init__(self, tabs: int = 4, **options: "Unpack[BrowserOptions]") -> None:
        _open.add(self)

    def __repr__(self) -> str:
        return super().__repr__()


def extract(
    source: Any = None,
    *,
    html: Union[str, bytes, None] = None,
    url: Optional[str] = None,
    **options: "Unpack[BrowserOptions]",
) -> Page:
    """Render one page in a fresh Chromium and extract its main content.

    Args:
        source: a URL (``https://...``, ``file://...``), a path to an HTML file (str or
            ``os.PathLike``), or a bare host name, as on the command line.
        html: the page's HTML (text or bytes) instead of a source; served to Chromium on a
            loopback port (relative resources resolve only with a ``<base href>``).
        url: the URL to load when no source is given; with ``html=``, the name of the page.

    Returns:
        A :class:`Page`: ``.text``, ``.markdown``, ``.html``, ``.title``, ``.url``,
        ``.blocks``, ``.screenshot``, ``.timings``, ``.snapshot``, ``.to_dict()``.

    Raises:
        SightlineError: of the error's kind (:class:`TimeoutError`, :class:`HttpError`, ...).

    For many pages, keep one :class:`Browser` open: launching Chromium takes about a second.
    The options are those of :class:`Browser`:
    """
    with Browser(1, **options) as b:
        return b.extract(source, html=html, url=url)


def snapshot(
    source: Any = None,
    *,
    html: Union[str, bytes, None] = None,
    url: Optional[str] = None,
    **options: "Unpack[RenderOptions]",
) -> Snapshot:
    """Render one page and return its layout :class:`Snapshot` (what ``sightline snapshot``
    saves): every node's box, computed style and text. ``source``, ``html`` and ``url`` as for
    :func:`extract`; the options are the rendering ones of :class:`Browser`:
    """
    for name in options:
        if all(name != o[0] for o in _RENDER_OPTIONS):
            raise TypeError(f"snapshot() got an unexpected keyword argument '{name}'")
    with Browser(1, **options) as b:
        return b.snapshot(source, html=html, url=url)


def _split(options: Dict[str, Any], own: list) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """`options` as (Browser's, the call's): the call's are those named in `own`."""
    names = {o[0] for o in own}
    call = {k: v for k, v in options.items() if k in names}
    return {k: v for k, v in options.items() if k not in names}, call


def crawl(
    seeds: Union[str, Sequence[str]],
    *,
    tabs: int = 2,
    **options: Any,
) -> Iterator[CrawlPage]:
    """Crawl a site in a fresh Chromium (as ``sightline crawl``): robots.txt, sitemaps and
    feeds, and the links of the rendered pages, in scope and polite. Yields a
    :class:`CrawlPage` per page as the crawl records it (``url``, ``depth``, ``parent``,
    ``found_in``, ``links``, ``title``, ``text``, ``markdown``, ``ok``/``kind``/``error``);
    the browser ends when the iteration does.

    Args:
        seeds: a URL, or a list of URLs, to start from (a bare host gets ``https://``).
        tabs: pages rendered at once.

    The options are the crawl's and those of :class:`Browser`:
    """
    browser, call = _split(options, _CRAWL_OPTIONS)
    # The pages name sightline (or send user_agent=), as robots.txt and sitemap requests do.
    browser.setdefault("user_agent", _sightline.CRAWL_USER_AGENT)
    with Browser(tabs, **browser) as b:
        it = b.crawl(seeds, **call)
        try:
            yield from it
        finally:
            it.close()


def map(  # noqa: A001 (sightline.map, as `sightline map`)
    seeds: Union[str, Sequence[str]],
    **options: Any,
) -> List[Dict[str, Any]]:
    """The URLs a crawl from ``seeds`` finds (robots.txt, sitemaps and feeds, the rendered
    seeds' links to ``max_depth``, 1 by default), without extracting, in a fresh Chromium (as
    ``sightline map``): a list of ``{"url", "depth", "found_in", "parent"}``.

    The options are the crawl's and the rendering ones of :class:`Browser`:
    """
    browser, call = _split(options, _MAP_OPTIONS)
    browser.setdefault("user_agent", _sightline.CRAWL_USER_AGENT)
    with Browser(1, **browser) as b:
        return b.map(seeds, **call)


def _document(f: Callable[..., Any], leading: List[inspect.Parameter], options: list) -> None:
    """Give `f` its full signature and the doc of its keyword options, from the Rust table."""
    P = inspect.Parameter
    sig = inspect.signature(f)
    params = leading + [P(name, P.KEYWORD_ONLY, default=default) for name, default, _, _ in options]
    f.__signature__ = sig.replace(parameters=params)  # type: ignore[attr-defined]
    lines = ["", "    Options:"]
    for name, default, doc, _ in options:
        doc = re.sub(r"`([^`]+)`", r"``\1``", doc)
        lines += textwrap.wrap(
            f"{name}: {doc} Default: {default!r}.",
            width=92,
            initial_indent=" " * 8,
            subsequent_indent=" " * 12,
        )
    f.__doc__ = (f.__doc__ or "").rstrip() + "\n" + "\n".join(lines) + "\n"


_P = inspect.Parameter
_document(Browser, [_P("tabs", _P.POSITIONAL_OR_KEYWORD, default=4)], _OPTIONS)
_document(
    extract,
    [_P("source", _P.POSITIONAL_OR_KEYWORD, default=None)]
    + [_P(k, _P.KEYWORD_ONLY, default=None) for k in ("html", "url")],
    _OPTIONS,
)
_document(
    snapshot,
    [_P("source", _P.POSITIONAL_OR_KEYWORD, default=None)]
    + [_P(k, _P.KEYWORD_ONLY, default=None) for k in ("html", "url")],
    _RENDER_OPTIONS,
)

_document(
    crawl,
    [_P("seeds", _P.POSITIONAL_OR_KEYWORD), _P("tabs", _P.KEYWORD_ONLY, default=2)],
    _CRAWL_OPTIONS + _OPTIONS,
)
_document(map, [_P("seeds", _P.POSITIONAL_OR_KEYWORD)], _MAP_OPTIONS + _OPTIONS)

evaluate = _sightline.evaluate


@atexit.register
def _close_all() -> None:
    """At interpreter exit, end the browsers of every Browser still open."""
    for b in list(_open):
        try:
            b.close()
        except Exception:  # noqa: BLE001 (exit: end the rest anyway)
            pass
    _sightline._end_all_browsers()
