"""sightline.ray: extraction as a Ray Data stage, for many machines.

    >>> import ray, sightline.ray
    >>> ds = ray.data.read_parquet("s3://bucket/urls/")          # a column "url"
    >>> pages = sightline.ray.extract(ds, concurrency=8, tabs=4)  # 8 actors x 4 tabs
    >>> pages.write_parquet("s3://bucket/pages/")

:func:`extract` maps the dataset's batches through :class:`Extract`, a callable class: Ray
makes ``concurrency`` actors of it, and each keeps one :class:`sightline.Browser` open for
its life (launching Chromium once, not per batch) and extracts a batch with every tab busy
(``Browser.aextract_many``), with ``batches_in_flight`` batches at once so that the tabs a
batch no longer needs go to the next one. Each input gives one row, a failing one included:

    url, ok, error_kind, error_message, title, text, markdown, metadata (JSON text),
    timings (JSON text)

Ray is imported only by :func:`extract` (``pip install 'sightline[ray]'``); :class:`Extract`
needs only pyarrow when given Arrow batches, so it can run (and be tested) without Ray.
"""

import inspect
import json
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Union

from . import Browser

if TYPE_CHECKING:  # pragma: no cover
    import ray.data

__all__ = ["extract", "Extract", "COLUMNS"]

#: The columns of each output row, in order.
COLUMNS = ("url", "ok", "error_kind", "error_message", "title", "text", "markdown", "metadata", "timings")


def _row(url: str, result: Any) -> Dict[str, Any]:
    """One output row from an ``extract_many`` result."""
    if not result.ok:
        err = result.error
        return {
            "url": url,
            "ok": False,
            "error_kind": result.kind,
            "error_message": str(err) if err is not None else None,
            "title": None,
            "text": None,
            "markdown": None,
            "metadata": None,
            "timings": None,
        }
    page = result.page
    record = page.to_dict()
    return {
        "url": url,
        "ok": True,
        "error_kind": None,
        "error_message": None,
        "title": page.title,
        "text": page.text,
        "markdown": page.markdown,
        "metadata": json.dumps(record.get("metadata")) if record.get("metadata") is not None else None,
        "timings": json.dumps(page.timings) if page.timings is not None else None,
    }


def _urls(batch: Any, column: str) -> "tuple[List[str], bool]":
    """A batch's URLs, and whether it is Arrow (a ``pyarrow.Table``) or a dict of columns."""
    arrow = hasattr(batch, "column_names") and hasattr(batch, "column")
    if arrow:
        return [str(u) for u in batch.column(column).to_pylist()], True
    return [str(u) for u in batch[column]], False


def _output(rows: List[Optional[Dict[str, Any]]], arrow: bool) -> Any:
    """The rows as the batch came: a ``pyarrow.Table`` for Arrow, else a dict of lists."""
    cols = {c: [row[c] for row in rows if row is not None] for c in COLUMNS}
    if arrow:
        import pyarrow as pa

        return pa.table(cols)
    return cols


class Extract:
    """The Ray Data UDF of :func:`extract`: one Browser per instance (per actor), one row per
    input of each batch, in the batch's order.

    Its ``__call__`` is asynchronous, so Ray Data runs several batches of an actor at once on
    the actor's event loop: they share the browser's tabs, and a batch waiting for its slowest
    page leaves its idle tabs to the next batch (a blocking UDF would leave them idle).
    Outside Ray, :meth:`extract_batch` does the same for one batch and waits.

    Args:
        url_column: the column holding each row's URL (or path).
        tabs: pages each actor renders at once.
        **options: the options of :class:`sightline.Browser` (``timeout``, ``offline``,
            ``algorithm``, ``steer``, ...).
    """

    def __init__(self, url_column: str = "url", tabs: int = 4, **options: Any) -> None:
        self.url_column = url_column
        self.browser = Browser(tabs, **options)

    async def __call__(self, batch: Any) -> Any:
        """A batch (a ``pyarrow.Table``, or a dict of columns as Ray's ``numpy`` and
        ``default`` formats give) to its rows, yielded once: a ``pyarrow.Table`` for Arrow
        input, else a dict of lists. An async generator, as Ray Data's async UDFs are."""
        urls, arrow = _urls(batch, self.url_column)
        rows: List[Optional[Dict[str, Any]]] = [None] * len(urls)
        async for r in self.browser.aextract_many(urls, progress=False):
            rows[r.index] = _row(urls[r.index], r)
        yield _output(rows, arrow)

    def extract_batch(self, batch: Any) -> Any:
        """:meth:`__call__` for one batch, blocking: its rows, as :meth:`__call__` yields them."""
        urls, arrow = _urls(batch, self.url_column)
        rows: List[Optional[Dict[str, Any]]] = [None] * len(urls)
        for r in self.browser.extract_many(urls, progress=False):
            rows[r.index] = _row(urls[r.index], r)
        return _output(rows, arrow)

    def close(self) -> None:
        """End the browser (Ray ends it with the actor otherwise)."""
        self.browser.close()

    def __del__(self) -> None:
        try:
            self.browser.close()
        except Exception:  # noqa: BLE001 (at teardown, nothing to report to)
            pass


def extract(
    data: Union["ray.data.Dataset", Sequence[str]],
    *,
    url_column: str = "url",
    tabs: int = 4,
    concurrency: int = 1,
    batch_size: int = 16,
    batches_in_flight: Optional[int] = None,
    num_cpus: float = 1,
    **options: Any,
) -> "ray.data.Dataset":
    """Extract every URL of ``data`` on a Ray cluster: a Dataset of one row per input
    (:data:`COLUMNS`), failures included (``ok`` False, ``error_kind``, ``error_message``).

    Args:
        data: a Ray Dataset with a ``url_column``, or a list of URLs (made into one).
        url_column: the column of URLs (or paths).
        tabs: pages each actor renders at once.
        concurrency: actors, each with its own Chromium.
        batch_size: rows handed to an actor at once (keep it at least ``tabs``).
        batches_in_flight: batches an actor works on at once, sharing its tabs (Ray's
            ``max_concurrency`` for the actor); ``tabs`` by default. With 1, each batch waits
            for its slowest page while the actor's other tabs idle; with ``tabs`` batches, a
            tab idles only when every batch in flight has no page left to start.
        num_cpus: CPUs Ray reserves for each actor.
        **options: the options of :class:`sightline.Browser`.
    """
    import ray.data

    if batches_in_flight is None:
        batches_in_flight = tabs
    if batches_in_flight < 1:
        raise ValueError(f"batches_in_flight must be at least 1, not {batches_in_flight}")
    if not hasattr(data, "map_batches"):
        data = ray.data.from_items([{url_column: u} for u in data])
    kw: Dict[str, Any] = {}
    pool = ray.data.ActorPoolStrategy
    if "max_concurrent_calls_per_actor" in inspect.signature(pool.__init__).parameters:
        kw["compute"] = pool(size=concurrency, max_concurrent_calls_per_actor=batches_in_flight)
    else:  # Ray before the named parameter: the actor's own max_concurrency
        kw.update(concurrency=concurrency, max_concurrency=batches_in_flight)
    return data.map_batches(
        Extract,
        fn_constructor_kwargs={"url_column": url_column, "tabs": tabs, **options},
        batch_size=batch_size,
        batch_format="pyarrow",
        num_cpus=num_cpus,
        **kw,
    )
