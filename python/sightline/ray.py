"""sightline.ray: extraction as a Ray Data stage, for many machines.

    >>> import ray, sightline.ray
    >>> ds = ray.data.read_parquet("s3://bucket/urls/")          # a column "url"
    >>> pages = sightline.ray.extract(ds, concurrency=8, tabs=4)  # 8 actors x 4 tabs
    >>> pages.write_parquet("s3://bucket/pages/")

:func:`extract` maps the dataset's batches through :class:`Extract`, a callable class: Ray
makes ``concurrency`` actors of it, and each keeps one :class:`sightline.Browser` open for
its life (launching Chromium once, not per batch) and extracts a batch with every tab busy
(``Browser.extract_many``). Each input gives one row, a failing one included:

    url, ok, error_kind, error_message, title, text, markdown, metadata (JSON text),
    timings (JSON text)

Ray is imported only by :func:`extract` (``pip install 'sightline[ray]'``); :class:`Extract`
needs only pyarrow when given Arrow batches, so it can run (and be tested) without Ray.
"""

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


class Extract:
    """The Ray Data UDF of :func:`extract`: one Browser per instance (per actor), one row per
    input of each batch, in the batch's order.

    Args:
        url_column: the column holding each row's URL (or path).
        tabs: pages each actor renders at once.
        **options: the options of :class:`sightline.Browser` (``timeout``, ``offline``,
            ``algorithm``, ``steer``, ...).
    """

    def __init__(self, url_column: str = "url", tabs: int = 4, **options: Any) -> None:
        self.url_column = url_column
        self.browser = Browser(tabs, **options)

    def __call__(self, batch: Any) -> Any:
        """A batch (a ``pyarrow.Table``, or a dict of columns as Ray's ``numpy`` and
        ``default`` formats give) to its rows: a ``pyarrow.Table`` for Arrow input, else a
        dict of lists."""
        arrow = hasattr(batch, "column_names") and hasattr(batch, "column")
        if arrow:
            urls = [str(u) for u in batch.column(self.url_column).to_pylist()]
        else:
            urls = [str(u) for u in batch[self.url_column]]
        rows: List[Optional[Dict[str, Any]]] = [None] * len(urls)
        for r in self.browser.extract_many(urls, progress=False):
            rows[r.index] = _row(urls[r.index], r)
        cols = {c: [row[c] for row in rows if row is not None] for c in COLUMNS}
        if arrow:
            import pyarrow as pa

            return pa.table(cols)
        return cols

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
        num_cpus: CPUs Ray reserves for each actor.
        **options: the options of :class:`sightline.Browser`.
    """
    import ray.data

    if not hasattr(data, "map_batches"):
        data = ray.data.from_items([{url_column: u} for u in data])
    return data.map_batches(
        Extract,
        fn_constructor_kwargs={"url_column": url_column, "tabs": tabs, **options},
        batch_size=batch_size,
        batch_format="pyarrow",
        concurrency=concurrency,
        num_cpus=num_cpus,
    )
