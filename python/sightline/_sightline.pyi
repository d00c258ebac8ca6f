"""Type stubs of the extension module (the Rust library through PyO3)."""

import os
from typing import Any, AsyncIterator, Dict, Iterator, List, Literal, Optional, Sequence, Tuple, Union

from typing_extensions import TypedDict, Unpack

from .errors import SightlineError

Source = Union[str, "os.PathLike[str]", Dict[str, Any]]
Params = Union[Dict[str, Any], str, None]

class RenderOptions(TypedDict, total=False):
    """The keyword options of ``Browser(...)`` that load and render pages: also those of
    ``sightline.snapshot(...)``. Each one's default is on its line; ``help(sightline.Browser)``
    says what each does. Declared once in Rust: the render settings (``offline``, ``proxy``,
    ``timeout`` in seconds, ``user_agent``, ``viewport``, ``render``) are fields of the library's
    ``RenderOptions`` (its JSON schema gives their names, defaults and docs), the others are
    in ``python/src/options.rs``; a test holds these lines to them."""

    offline: bool  # default: False
    proxy: Optional[str]  # default: None
    timeout: float  # default: 15.0
    user_agent: Optional[str]  # default: None
    viewport: Optional[Tuple[int, int]]  # default: None
    render: Literal["auto", "full", "static"]  # default: 'full'
    browser_ws: Optional[Sequence[str]]  # default: None
    chrome: Optional[Union[str, "os.PathLike[str]"]]  # default: None
    charset: Optional[str]  # default: None
    steer: Union[Dict[str, Any], str, None]  # default: None

class BrowserOptions(RenderOptions, total=False):
    """Every keyword option of ``Browser(...)`` and ``sightline.extract(...)``: the rendering
    ones, and those that score, capture and police pages."""

    accept_http_errors: bool  # default: False
    algorithm: Optional[str]  # default: None
    comments: bool  # default: False
    page_type: Optional[Literal["article", "product", "listing", "forum", "collection", "service", "documentation"]]  # default: None
    base_url: Optional[str]  # default: None
    images: Literal["keep", "alt", "none"]  # default: 'keep'
    links: Literal["inline", "references", "none"]  # default: 'inline'
    params: Params  # default: None
    screenshot: bool  # default: False
    annotate: bool  # default: False
    units: bool  # default: False
    deny_private: bool  # default: False
    warc: Optional[Union[str, "os.PathLike[str]"]]  # default: None
    wacz: Optional[Union[str, "os.PathLike[str]"]]  # default: None
    replay: Optional[Union[str, "os.PathLike[str]"]]  # default: None

class SnapshotKeywords(TypedDict, total=False):
    """The keywords of ``Browser.snapshot`` and ``asnapshot``: the page's HTML (text or bytes)
    instead of a source (``url`` names it), or the ``url`` to load, and ``steer``: steering
    fields for this call over the browser's (docs/steering.md)."""

    html: Union[str, bytes, None]  # default: None
    url: Optional[str]  # default: None
    steer: Union[Dict[str, Any], str, None]  # default: None

class ExtractKeywords(SnapshotKeywords, total=False):
    """The keywords of ``Browser.extract`` and ``aextract``: the page as for ``snapshot``, and
    another ``algorithm``, ``params`` or ``screenshot`` choice than the browser's (None: the
    browser's)."""

    algorithm: Optional[str]  # default: None
    params: Params  # default: None
    screenshot: Optional[bool]  # default: None

class ExtractManyKeywords(TypedDict, total=False):
    """The keywords of ``Browser.extract_many`` and ``aextract_many``: a progress bar on
    stderr (tqdm when installed, else a counter line; only when stderr is a terminal), and
    another ``algorithm`` or ``params`` than the browser's, and ``steer``: steering fields for
    these pages over the browser's."""

    steer: Union[Dict[str, Any], str, None]  # default: None
    progress: bool  # default: True
    algorithm: Optional[str]  # default: None
    params: Params  # default: None

class MapKeywords(TypedDict, total=False):
    """The keywords of ``Browser.map`` and ``amap``: how far the crawl may go and how it is
    paced (the library's ``CrawlSettings``: the flags of ``sightline map`` and the JSON fields
    of ``serve``'s ``/map``, in the same units: ``delay_ms`` in milliseconds), and ``steer``
    for the rendered pages."""

    delay_ms: int  # default: 0
    exclude: Sequence[str]  # default: []
    include: Sequence[str]  # default: []
    max_depth: Optional[int]  # default: None
    max_pages: Optional[int]  # default: None
    max_per_pattern: int  # default: 1000
    per_host: int  # default: 2
    robots: bool  # default: True
    scope: str  # default: 'host'
    sitemaps: bool  # default: True
    user_agent: Optional[str]  # default: None
    shard: Optional[str]  # default: None
    steer: Union[Dict[str, Any], str, None]  # default: None

class CrawlKeywords(TypedDict, total=False):
    """The keywords of ``Browser.crawl`` and ``acrawl``: the crawl's bounds and pace (the
    library's ``CrawlSettings``: the flags of ``sightline crawl`` and the JSON fields of
    ``serve``'s ``/crawl``, in the same units: ``delay_ms`` in milliseconds), its frontier
    file and ``resume``, and ``steer``,
    ``algorithm`` and ``params`` for its pages."""

    delay_ms: int  # default: 0
    exclude: Sequence[str]  # default: []
    include: Sequence[str]  # default: []
    max_depth: Optional[int]  # default: None
    max_pages: Optional[int]  # default: None
    max_per_pattern: int  # default: 1000
    per_host: int  # default: 2
    robots: bool  # default: True
    scope: str  # default: 'host'
    sitemaps: bool  # default: True
    user_agent: Optional[str]  # default: None
    shard: Optional[str]  # default: None
    frontier: Optional[Union[str, "os.PathLike[str]"]]  # default: None
    resume: bool  # default: False
    steer: Union[Dict[str, Any], str, None]  # default: None
    algorithm: Optional[str]  # default: None
    params: Params  # default: None

DEFAULT_ALGORITHM: str
CRAWL_USER_AGENT: str
__version__: str

def algorithms() -> List[str]:
    """The names of every algorithm, in the order the CLI lists them."""

def load_snapshot(path: Union[str, "os.PathLike[str]"]) -> Snapshot: ...
def _end_all_browsers() -> None: ...
def _keywords() -> List[Tuple[str, List[Tuple[str, Any, str, bool]]]]:
    """The keyword tables (python/src/options.rs): name, default, doc, taken by snapshot()."""
def evaluate(
    bench: Union[str, "os.PathLike[str]"],
    algorithms: Optional[Sequence[str]] = None,
    *,
    datasets: Optional[Sequence[str]] = None,
    limit: Optional[int] = None,
    every: int = 1,
    snapshots: Optional[Union[str, "os.PathLike[str]"]] = None,
    tabs: int = 2,
    out: Optional[Union[str, "os.PathLike[str]"]] = None,
) -> Table:
    """Per-page precision, recall and F1 of each algorithm on a benchmark (``sightline eval``);
    a page whose gold has no token is not scored, and its scores are None."""

class Table:
    """A column table, one row per node; Arrow PyCapsule interface."""

    @property
    def num_rows(self) -> int: ...
    @property
    def column_names(self) -> List[str]: ...
    def __len__(self) -> int: ...
    def __arrow_c_stream__(self, requested_schema: Any = None) -> Any: ...
    def __arrow_c_array__(self, requested_schema: Any = None) -> Tuple[Any, Any]: ...
    def to_pydict(self) -> Dict[str, List[Any]]: ...
    def to_arrow(self) -> Any:
        """A ``pyarrow.Table`` (needs pyarrow)."""
    def to_pandas(self) -> Any:
        """A ``pandas.DataFrame`` (needs pandas)."""
    def to_polars(self) -> Any:
        """A ``polars.DataFrame`` (needs polars)."""

class Snapshot:
    """The layout of one rendered page (the JSON of ``sightline snapshot``)."""

    @staticmethod
    def load(path: Union[str, "os.PathLike[str]"]) -> Snapshot: ...
    @staticmethod
    def from_json(json: str, name: str = "<json>") -> Snapshot: ...
    def save(self, path: Union[str, "os.PathLike[str]"]) -> None: ...
    def to_json(self) -> str: ...
    @property
    def url(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def viewport(self) -> Tuple[float, float]: ...
    @property
    def document_size(self) -> Tuple[float, float]: ...
    def __len__(self) -> int: ...
    def nodes(self) -> Table:
        """One row per node: id, parent, depth, tag, css_path, text, x, y, w, h, rendered,
        display, visibility, position, opacity, font_size, font_weight, link, link_text, href,
        src, alt, id_attr, class, role, chars, tags, link_chars, link_tags. A value a node does
        not have is None: a text node's display, position and opacity; its visibility,
        font_size and font_weight are its parent element's (the ones it renders with)."""
    def scores(self, algorithm: Optional[str] = None, params: Params = None) -> Table:
        """Every per-node quantity of ``algorithm`` (``sightline scores``)."""
    def extract(self, algorithm: Optional[str] = None, params: Params = None) -> Page:
        """Score the snapshot without a browser (``sightline extract --snapshot``)."""

class Page:
    """One extracted page."""

    @property
    def text(self) -> str: ...
    @property
    def markdown(self) -> str: ...
    @property
    def html(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def url(self) -> str: ...
    @property
    def input(self) -> str: ...
    @property
    def algorithm(self) -> Optional[str]: ...
    @property
    def status(self) -> Optional[int]: ...
    @property
    def wall(self) -> Optional[Dict[str, Any]]:
        """The wall that left a lead (paywall, login or consent dialog): kind, vendor, evidence."""
        ...
    @property
    def blocks(self) -> List[Dict[str, Any]]:
        """The kept blocks with their box, scores and (learned) probability."""
    @property
    def sections(self) -> Optional[List[Dict[str, Any]]]:
        """The content cut at its headings: heading_path, level, markdown, span, boxes."""
    @property
    def screenshot(self) -> Optional[bytes]: ...
    @property
    def annotated(self) -> Optional[bytes]: ...
    @property
    def timings(self) -> Optional[Dict[str, float]]: ...
    @property
    def snapshot(self) -> Snapshot: ...
    def to_dict(self) -> Dict[str, Any]:
        """The record of ``sightline extract -f json``."""
    def to_json(self) -> str: ...

class Result:
    """One item of ``extract_many``: ``index`` and either ``page`` or ``error``."""

    @property
    def index(self) -> int: ...
    @property
    def input(self) -> str: ...
    @property
    def page(self) -> Optional[Page]: ...
    @property
    def error(self) -> Optional[SightlineError]: ...
    @property
    def kind(self) -> Optional[str]: ...
    @property
    def ok(self) -> bool: ...

class PageIter(Iterator[Result]):
    def __next__(self) -> Result: ...
    def __len__(self) -> int: ...
    def close(self) -> None: ...

class AsyncPageIter(AsyncIterator[Result]):
    async def __anext__(self) -> Result: ...
    def __len__(self) -> int: ...
    def close(self) -> None: ...

class CrawlPage:
    """One crawled page: its place in the crawl, its links and content, or its error."""

    @property
    def input(self) -> str: ...
    @property
    def url(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def status(self) -> Optional[int]: ...
    @property
    def depth(self) -> int: ...
    @property
    def parent(self) -> Optional[str]: ...
    @property
    def found_in(self) -> str:
        """``seed``, ``sitemap``, ``link`` or ``feed``."""
    @property
    def links(self) -> List[Dict[str, Any]]:
        """The page's out-links: url, text, content (in the extracted content), nofollow."""
    @property
    def text(self) -> str: ...
    @property
    def markdown(self) -> str: ...
    @property
    def duplicate_of(self) -> Optional[str]: ...
    @property
    def near_duplicate_of(self) -> Optional[str]: ...
    @property
    def ok(self) -> bool: ...
    @property
    def kind(self) -> Optional[str]: ...
    @property
    def error(self) -> Optional[SightlineError]: ...
    def to_dict(self) -> Dict[str, Any]:
        """The record of ``sightline crawl -f json``."""

class CrawlIter(Iterator[CrawlPage]):
    def __next__(self) -> CrawlPage: ...
    @property
    def summary(self) -> Optional[Dict[str, Any]]:
        """How the crawl ended (recorded, failed, empty, duplicates, near_duplicates,
        disallowed, refused, interrupted, and walls: pages behind a wall by its kind,
        ``{"challenge": 3}``); None until it has."""
    def close(self) -> None: ...

class AsyncCrawlIter(AsyncIterator[CrawlPage]):
    async def __anext__(self) -> CrawlPage: ...
    @property
    def summary(self) -> Optional[Dict[str, Any]]: ...
    def close(self) -> None: ...

class _Browser:
    def __init__(self, tabs: int = 4, **options: Unpack[BrowserOptions]) -> None: ...
    def extract(self, source: Optional[Source] = None, **kw: Unpack[ExtractKeywords]) -> Page: ...
    async def aextract(self, source: Optional[Source] = None, **kw: Unpack[ExtractKeywords]) -> Page: ...
    def extract_many(self, inputs: Sequence[Source], **kw: Unpack[ExtractManyKeywords]) -> PageIter: ...
    def aextract_many(self, inputs: Sequence[Source], **kw: Unpack[ExtractManyKeywords]) -> AsyncPageIter: ...
    def snapshot(self, source: Optional[Source] = None, **kw: Unpack[SnapshotKeywords]) -> Snapshot: ...
    async def asnapshot(self, source: Optional[Source] = None, **kw: Unpack[SnapshotKeywords]) -> Snapshot: ...
    def crawl(self, seeds: Union[str, Sequence[str]], **kw: Unpack[CrawlKeywords]) -> CrawlIter: ...
    def acrawl(self, seeds: Union[str, Sequence[str]], **kw: Unpack[CrawlKeywords]) -> AsyncCrawlIter: ...
    def map(self, seeds: Union[str, Sequence[str]], **kw: Unpack[MapKeywords]) -> List[Dict[str, Any]]: ...
    async def amap(self, seeds: Union[str, Sequence[str]], **kw: Unpack[MapKeywords]) -> List[Dict[str, Any]]: ...
    @property
    def tabs(self) -> int: ...
    @property
    def closed(self) -> bool: ...
    def close(self) -> None: ...
    def __enter__(self) -> "_Browser": ...
    def __exit__(self, *args: Any) -> bool: ...
    async def __aenter__(self) -> "_Browser": ...
    async def __aexit__(self, *args: Any) -> bool: ...
