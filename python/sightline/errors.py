"""The exceptions of sightline, one class per error kind of the output record.

Every error raised by sightline (and every ``Result.error`` of ``extract_many``) is a
:class:`SightlineError`; its class says what happened, ``kind`` is the record's kind string
(``timeout``, ``navigation``, ``http``, ...), and the message is the library's own: it names
the input and what to do.
"""

import builtins
from typing import Optional

__all__ = [
    "SightlineError",
    "TimeoutError",
    "NavigationError",
    "HttpError",
    "BlockedError",
    "ContentTypeError",
    "DocumentError",
    "ForbiddenError",
    "CrashedError",
    "ScriptError",
    "TooLargeError",
    "CharsetError",
    "InputError",
    "BrowserError",
    "SnapshotError",
    "OutputError",
    "InternalError",
    "ActionError",
]


class SightlineError(Exception):
    """Base class of every sightline error. ``kind`` is the record's error kind."""

    kind: str = "internal"

    def __init__(self, message: str, kind: Optional[str] = None, status: Optional[int] = None):
        super().__init__(message)
        self.message = message
        if kind is not None:
            self.kind = kind
        self.status = status

    def __str__(self) -> str:
        return self.message


class TimeoutError(SightlineError, builtins.TimeoutError):  # noqa: A001 (the record's name)
    """The page did not finish within the deadline (``timeout=``)."""

    kind = "timeout"

    def __init__(self, message: str, kind: Optional[str] = None, status: Optional[int] = None):
        SightlineError.__init__(self, message, kind, status)

    def __str__(self) -> str:
        return self.message


class NavigationError(SightlineError):
    """The page did not load (DNS, connection refused, a bad certificate...)."""

    kind = "navigation"


class HttpError(SightlineError):
    """The main document answered with an HTTP error; ``status`` holds the status code."""

    kind = "http"
    status: Optional[int]


class BlockedError(SightlineError):
    """A wall stands in front of the content (an anti-bot challenge, a captcha, a block page,
    a rate limit, a full login or consent wall). ``wall`` holds it as the record has it:
    ``{"kind": ..., "vendor": ... or None, "evidence": [...]}``. sightline names walls; it
    does not pass them."""

    kind = "blocked"
    wall: Optional[dict] = None


class ContentTypeError(SightlineError):
    """The main document is not HTML or a PDF (an image, an archive, a download)."""

    kind = "content-type"


class DocumentError(SightlineError):
    """The main document is a PDF that cannot be read: encrypted (it needs a password),
    broken, or image-only (no text layer: it needs OCR, which sightline does not do)."""

    kind = "document"


class ForbiddenError(SightlineError):
    """The target is refused by the network policy."""

    kind = "forbidden"


class CrashedError(SightlineError):
    """The page's renderer crashed (after one retry on a fresh tab)."""

    kind = "crashed"


class ScriptError(SightlineError):
    """The snapshot script failed inside the page."""

    kind = "script"


class TooLargeError(SightlineError):
    """The page is larger than the configured limits."""

    kind = "too-large"


class CharsetError(SightlineError, ValueError):
    """An unknown charset label was given."""

    kind = "charset"


class InputError(SightlineError, ValueError):
    """An input could not be read or is not a URL or file; or an argument is invalid."""

    kind = "input"


class BrowserError(SightlineError):
    """Chromium was not found, could not start, or its connection was lost."""

    kind = "browser"


class SnapshotError(SightlineError, ValueError):
    """A snapshot JSON is invalid or of another schema version."""

    kind = "snapshot"


class OutputError(SightlineError):
    """Output could not be written."""

    kind = "output"


class InternalError(SightlineError):
    """A bug in sightline: please report it with the page."""

    kind = "internal"


class ActionError(SightlineError):
    """A step of the page's actions (``steer={"actions": [...]}``) failed and was not
    optional; the message names the action's index and why."""

    kind = "action"


_BY_KIND = {
    cls.kind: cls
    for cls in (
        TimeoutError,
        NavigationError,
        HttpError,
        BlockedError,
        ContentTypeError,
        DocumentError,
        ForbiddenError,
        CrashedError,
        ScriptError,
        TooLargeError,
        CharsetError,
        InputError,
        BrowserError,
        SnapshotError,
        OutputError,
        InternalError,
        ActionError,
    )
}


def _from_kind(kind: str, message: str, status: Optional[int] = None) -> SightlineError:
    """The exception instance for a library error (called by the extension)."""
    cls = _BY_KIND.get(kind, SightlineError)
    return cls(message, kind, status)
