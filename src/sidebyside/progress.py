"""Progress bars for the user tools' long runs (a tree scan, a large graph's translation and
check, a model sweep): tqdm's bar on standard error when it is a terminal, nothing otherwise.

:func:`bar` returns an object with ``update(n=1)`` and ``close()`` (and works as a context
manager); it is silent, and costs nothing, when ``quiet`` is set, when standard error is not a
terminal (a CI log, a pipe, a file: the output there stays what it was), or when tqdm is not
installed (``mxmigrate`` runs on the standard library alone). ``SIDEBYSIDE_PROGRESS=1`` shows
the bar on a stream that is not a terminal, ``=0`` hides it on one.
"""

from __future__ import annotations

import os
import sys


class _Silent:
    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def shown(quiet: bool = False, stream=None) -> bool:
    """Whether a bar would be drawn on ``stream`` (default: standard error)."""
    if quiet:
        return False
    forced = os.environ.get("SIDEBYSIDE_PROGRESS")
    if forced in ("0", "1"):
        return forced == "1"
    stream = sys.stderr if stream is None else stream
    return bool(getattr(stream, "isatty", lambda: False)())


def bar(total: int | None, desc: str, *, quiet: bool = False, unit: str = "it", stream=None):
    """A progress bar of ``total`` steps, or a silent stand-in (see the module's text)."""
    if not shown(quiet, stream):
        return _Silent()
    try:
        from tqdm import tqdm
    except ImportError:
        return _Silent()
    return tqdm(total=total, desc=desc, unit=unit, file=sys.stderr if stream is None else stream,
                leave=False, dynamic_ncols=True)


class Steps:
    """A callback ``steps(done, total)`` for a loop that learns its length as it starts: the
    bar is made on the first call (``done`` counts from 1) and closed at ``total`` or by
    :meth:`close`."""

    def __init__(self, desc: str, *, quiet: bool = False, unit: str = "it"):
        self.desc, self.quiet, self.unit, self._bar, self._at = desc, quiet, unit, None, 0

    def __call__(self, done: int, total: int) -> None:
        if self._bar is None:
            self._bar = bar(total, self.desc, quiet=self.quiet, unit=self.unit)
        self._bar.update(done - self._at)
        self._at = done
        if done >= total:
            self.close()

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None
        self._at = 0
