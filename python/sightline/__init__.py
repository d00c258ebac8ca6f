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

Research: :func:`snapshot` / :meth:`Snapshot.load` give a page's layout; ``nodes()`` and
``scores(algorithm)`` are Arrow tables (``to_pandas()``, ``to_polars()``).
"""

import atexit
import sys
import weakref
from typing import Any, Iterable, Iterator, Optional, Union

from . import _sightline
from ._sightline import (
    DEFAULT_ALGORITHM,
    AsyncPageIter,
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

__all__ = [
    "extract",
    "snapshot",
    "evaluate",
    "Browser",
    "Page",
    "Result",
    "Snapshot",
    "Table",
    "algorithms",
    "DEFAULT_ALGORITHM",
    "__version__",
] + list(_errors_all)

_open = weakref.WeakSet()


class Browser(_sightline._Browser):
    """One Chromium with a pool of ``tabs`` tabs, and the scoring settings.

    Args:
        tabs: pages rendered at once, each in its own tab.
        browser_ws: DevTools WebSocket URLs of running browsers to use instead of launching
            one (tabs are spread over them; a lost browser's pages are retried on the others).
        offline: abort every request but the page's own document and same-origin loopback
            resources (nothing leaves the machine).
        timeout: deadline of one page in seconds (navigation, settling, snapshot).
        algorithm: the algorithm (default ``learned``; see :func:`algorithms`).
        params: algorithm parameters, a dict or JSON text (as ``sightline extract --params``).
        screenshot: take a full-page PNG of every page (``Page.screenshot``).
        annotate: also draw the extraction on it (``Page.annotated``).
        chrome: the Chromium executable (default: ``$CHROME``, then chromium-headless-shell or
            chromium on PATH, as the ``sightline`` command finds it).
        viewport: ``(width, height)`` in CSS px (default 1366x900).
        charset: charset of HTML given as bytes or files that do not declare one.
        accept_http_errors: extract pages answered with HTTP >= 400 instead of raising
            :class:`HttpError`.
        comments: keep reader comments after the article (``learned``); default: dropped.
        deny_private: refuse targets on this machine and its networks (loopback, private,
            link-local, metadata addresses), for the page, its redirects and subresources,
            through an egress proxy that connects only to the address it checked.

    Use it as a context manager (``with`` or ``async with``); ``close()`` ends the browser.
    Methods: ``extract``, ``extract_many``, ``snapshot`` and their async twins ``aextract``,
    ``aextract_many``, ``asnapshot``.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        _open.add(self)

    def extract_many(
        self,
        inputs: Iterable[Any],
        *,
        progress: bool = True,
        algorithm: Optional[str] = None,
        params: Any = None,
    ) -> Iterator[Result]:
        """Extract every input with every tab busy (the library's batch runner).

        Yields one :class:`Result` per input, in completion order, with the input's
        ``index`` and its ``page`` or its ``error`` (a :class:`SightlineError` of the
        error's kind, not raised): a failing input never stops the others.

        Args:
            inputs: URLs or paths (str or ``os.PathLike``), or dicts ``{"html": ..., "url":
                ...}``.
            progress: show a progress bar on stderr (tqdm when installed), only when stderr is
                a terminal.
            algorithm, params: override the browser's for this batch.

        Ctrl-C stops the batch (no new page starts, the pages in flight are dropped and
        their tabs closed) and raises ``KeyboardInterrupt``.
        """
        inputs = list(inputs)
        it = self._extract_many(inputs, algorithm=algorithm, params=params)
        if not progress or not sys.stderr.isatty():
            return it
        return _with_progress(it, len(inputs))

    def __repr__(self) -> str:
        return super().__repr__()


def _with_progress(it: PageIter, total: int) -> Iterator[Result]:
    """Wrap a batch iterator in a progress bar on stderr (tqdm, else a counter line)."""
    try:
        from tqdm import tqdm  # type: ignore

        bar = tqdm(total=total, unit="page", file=sys.stderr)
        failed = 0
        try:
            for r in it:
                failed += not r.ok
                bar.set_postfix(failed=failed, refresh=False)
                bar.update(1)
                yield r
        finally:
            bar.close()
            it.close()
        return
    except ImportError:
        pass
    done = failed = 0
    try:
        for r in it:
            done += 1
            failed += not r.ok
            sys.stderr.write(f"\r{done}/{total} pages, {failed} failed")
            sys.stderr.flush()
            yield r
    finally:
        if done:
            sys.stderr.write("\n")
        it.close()


def extract(
    source: Any = None,
    *,
    html: Union[str, bytes, None] = None,
    url: Optional[str] = None,
    algorithm: Optional[str] = None,
    params: Any = None,
    screenshot: bool = False,
    annotate: bool = False,
    offline: bool = False,
    timeout: float = 15.0,
    chrome: Optional[str] = None,
    browser_ws: Optional[list] = None,
    viewport: Optional[tuple] = None,
    charset: Optional[str] = None,
    accept_http_errors: bool = False,
    comments: bool = False,
    deny_private: bool = False,
) -> Page:
    """Render one page in a fresh Chromium and extract its main content.

    Args:
        source: a URL (``https://...``, ``file://...``), a path to an HTML file (str or
            ``os.PathLike``), or a bare host name, as on the command line.
        html: the page's HTML (text or bytes) instead of a source; served to Chromium on a
            loopback port (relative resources resolve only with a ``<base href>``).
        url: the URL to load when no source is given; with ``html=``, the name of the page.
        algorithm: ``learned`` (default), ``td``, ``ctd``, ``htd``, ``ctd-smooth``, ``wang``,
            ``vsse``, ``vsse-records``, ``crunch``, ``blocks`` or ``ensemble``.
        params: algorithm parameters (dict or JSON text; ``sightline extract --params``).
        screenshot: take a full-page PNG (``Page.screenshot``).
        annotate: draw the extraction on the screenshot (``Page.annotated``).
        offline: abort every request but the page's own document and same-origin loopback
            resources.
        timeout: deadline of the page in seconds.
        chrome: the Chromium executable (default: found as the ``sightline`` command does).
        browser_ws: DevTools WebSocket URLs of running browsers to use instead of launching.
        viewport: ``(width, height)`` in CSS px.
        charset: charset of HTML bytes or files that do not declare one.
        accept_http_errors: extract pages answered with HTTP >= 400.
        comments: keep reader comments after the article (``learned``); their blocks have
            ``comment: True``. Default: dropped.
        deny_private: refuse loopback, private and metadata targets (see :class:`Browser`).

    Returns:
        A :class:`Page`: ``.text``, ``.markdown``, ``.html``, ``.title``, ``.url``,
        ``.blocks``, ``.screenshot``, ``.timings``, ``.snapshot``, ``.to_dict()``.

    Raises:
        SightlineError: of the error's kind (:class:`TimeoutError`, :class:`HttpError`, ...).

    For many pages, keep one :class:`Browser` open: launching Chromium takes about a second.
    """
    with Browser(
        1,
        browser_ws=browser_ws,
        offline=offline,
        timeout=timeout,
        algorithm=algorithm,
        params=params,
        screenshot=screenshot,
        annotate=annotate,
        chrome=chrome,
        viewport=viewport,
        charset=charset,
        accept_http_errors=accept_http_errors,
        comments=comments,
        deny_private=deny_private,
    ) as b:
        return b.extract(source, html=html, url=url)


def snapshot(
    source: Any = None,
    *,
    html: Union[str, bytes, None] = None,
    url: Optional[str] = None,
    offline: bool = False,
    timeout: float = 15.0,
    chrome: Optional[str] = None,
    browser_ws: Optional[list] = None,
    viewport: Optional[tuple] = None,
    charset: Optional[str] = None,
) -> Snapshot:
    """Render one page and return its layout :class:`Snapshot` (what ``sightline snapshot``
    saves): every node's box, computed style and text. Arguments as for :func:`extract`."""
    with Browser(
        1,
        browser_ws=browser_ws,
        offline=offline,
        timeout=timeout,
        chrome=chrome,
        viewport=viewport,
        charset=charset,
    ) as b:
        return b.snapshot(source, html=html, url=url)


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
