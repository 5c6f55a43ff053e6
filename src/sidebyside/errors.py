"""Run a call that is meant to fail, and keep what a reader needs of the error.

Notebooks show an error twice: once as a cell tagged ``raises-exception`` (the reader sees
the real traceback), and once caught, so that a check can assert on it::

    >>> from mxnet import nd
    >>> from sidebyside import errors
    >>> failure = errors.catch(lambda: nd.ones(5, 3))
    >>> failure.type, failure.line
    ('MXNetError', 'Invalid context string 3')

:func:`where_raised` asks the question MXNet's lazy engine raises: is an error raised by the
call itself, only when the result is waited for, or never?

MXNet's messages start with a C++ traceback banner (``Traceback …``, ``File "…/base.h"``)
and repeat the class name (``MXNetError: …``); :attr:`Failure.message` drops both, so the
first line is what went wrong. :attr:`Failure.reason` is the gist of that line: the part
after MXNet's ``Check failed: <expression>:`` prefix, up to the first full stop.

A message that names a file in a notebook's temporary folder differs from machine to machine;
:func:`short` writes the folder as ``<dir>``, so the message can be a compared output.
"""
from __future__ import annotations

import contextlib
import io
import os
import re
from dataclasses import dataclass, field
from typing import Any, Callable

__all__ = ["Failure", "catch", "Surfaced", "where_raised", "short"]

_BANNER = re.compile(r'^(Traceback \(most recent call last\):|\s+File ".*", line \d+)')


def _clean(exc: BaseException) -> str:
    """The message without MXNet's C++ traceback banner and class-name prefix."""
    lines = [ln for ln in str(exc).strip().splitlines() if not _BANNER.match(ln)]
    text = "\n".join(lines).strip()
    prefix = f"{type(exc).__name__}: "
    while text.startswith(prefix):
        text = text[len(prefix):]
    return text


@dataclass(frozen=True)
class Failure:
    """An exception, reduced to what a reader needs: its type, its message, what it printed."""

    type: str                   # the exception's class name, e.g. 'MXNetError'
    message: str                # the message, without MXNet's C++ traceback banner
    stderr: str = ""            # what the call wrote to Python's sys.stderr meanwhile
    exception: BaseException | None = field(default=None, compare=False, repr=False)

    @property
    def line(self) -> str:
        """The first line of the message ('' for an exception without one)."""
        return self.message.splitlines()[0].strip() if self.message else ""

    @property
    def reason(self) -> str:
        """The gist: the first line after its last ': ', up to the first '. '."""
        gist = self.line.rsplit(": ", 1)[-1]
        return gist.split(". ")[0].strip()

    @property
    def brief(self) -> tuple[str, str]:
        """``(type, line)``: what a check usually compares."""
        return self.type, self.line

    def __str__(self) -> str:
        return f"{self.type}: {self.line}" if self.line else self.type


def catch(fn: Callable[..., Any], *args, expect: type[BaseException] | tuple = Exception,
          **kwargs) -> Failure:
    """Call ``fn(*args, **kwargs)``, which must raise ``expect``; return the :class:`Failure`.

    Raises AssertionError when the call returns normally (a check that expected an error
    must not pass silently); an exception that is not an ``expect`` propagates unchanged.
    Writes to ``sys.stderr`` during the call are captured in :attr:`Failure.stderr`
    (Gluon's ``DataLoader`` writes an "Exception ignored in ``__del__``" message there when
    its constructor fails). :attr:`Failure.exception` is kept without its traceback, so that
    what the failed call's frames held is freed inside the capture.
    """
    if not callable(fn):
        raise TypeError(f"catch() needs a callable, got {type(fn).__name__}")
    noise = io.StringIO()
    caught = None
    with contextlib.redirect_stderr(noise):
        try:
            result = fn(*args, **kwargs)
        except expect as exc:
            # Drop the traceback now: the frames it holds keep objects alive (a half-built
            # DataLoader), whose __del__ would then write to stderr after the capture.
            exc.__traceback__ = None
            caught = exc
    if caught is not None:
        return Failure(type(caught).__name__, _clean(caught), noise.getvalue(), caught)
    shown = repr(result)
    shown = shown if len(shown) <= 80 else shown[:77] + "..."
    names = (expect.__name__ if isinstance(expect, type)
             else " or ".join(e.__name__ for e in expect))
    raise AssertionError(f"expected {names}, but the call returned {shown}")


@dataclass(frozen=True)
class Surfaced:
    """Where an MXNet call's error surfaced, and what a second read of the result did."""

    where: str                       # "at the call", "at the sync point" or "never"
    failure: Failure | None = None   # the error, when there was one
    second_read: str | None = None   # after a sync-point error: "silent" or "raises again"

    def __str__(self) -> str:
        if self.failure is None:
            return f"{self.where}: no error"
        again = f"; 2nd read {self.second_read}" if self.second_read else ""
        return f"{self.where}: {self.failure.type}{again}"


def where_raised(make: Callable[[], Any]) -> Surfaced:
    """Call ``make()``, then wait for the array it returns (``wait_to_read()``).

    An MXNet operator can fail when it is called (shape checks) or only when the engine runs
    it (value checks): then the error is raised at the first sync point, and a second read
    of the same array returns without complaint. This says which, for one call.
    """
    try:
        out = make()
    except Exception as exc:  # noqa: BLE001 - MXNetError, or IndexError for indices
        return Surfaced("at the call", Failure(type(exc).__name__, _clean(exc)))
    try:
        out.wait_to_read()
    except Exception as exc:  # noqa: BLE001
        try:
            out.asnumpy()                      # read the same array again
            again = "silent"
        except Exception:  # noqa: BLE001
            again = "raises again"
        return Surfaced("at the sync point", Failure(type(exc).__name__, _clean(exc)), again)
    return Surfaced("never")


def short(text: Any, folder: str | os.PathLike, placeholder: str = "<dir>") -> str:
    """``str(text)`` with the folder ``folder`` written as ``placeholder``.

    Both spellings of the folder are replaced: as given, and with its symbolic links resolved
    (a temporary folder under ``/tmp`` on one machine is under ``/private/tmp`` on another).

    >>> short("cannot open /tmp/x1/model.params", "/tmp/x1")
    'cannot open <dir>/model.params'
    """
    folder = os.fspath(folder)
    if not folder:
        raise ValueError("short() needs a folder to hide, not an empty path")
    out = str(text)
    for spelling in sorted({folder, os.path.realpath(folder)}, key=len, reverse=True):
        out = out.replace(spelling, placeholder)
    return out
