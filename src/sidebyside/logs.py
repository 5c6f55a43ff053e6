"""Collect the lines a block logs through Python's ``logging``, to show or assert on them.

MXNet's Module API, its callbacks (``Speedometer``, ``do_checkpoint``, ``log_train_metric``)
and ``mx.metric`` write to the *root* logger at level INFO, which a notebook does not show
(the root logger's level is WARNING unless a script called ``logging.basicConfig``).
:func:`captured` takes the root logger over for a block: its messages go to a list, and the
logger's level and handlers are given back afterwards, also when the block raises::

    >>> import logging
    >>> from sidebyside import logs
    >>> with logs.captured() as lines:
    ...     logging.info("Epoch[0] Train-accuracy=%f", 0.5)
    ...     logging.debug("not at INFO")
    >>> lines
    ['Epoch[0] Train-accuracy=0.500000']
"""
from __future__ import annotations

import contextlib
import logging
from typing import Iterator

__all__ = ["captured"]


class _Lines(logging.Handler):
    """A handler that keeps each record's formatted message."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


@contextlib.contextmanager
def captured(level: int = logging.INFO) -> Iterator[list[str]]:
    """The messages logged to the root logger at ``level`` or above inside the block.

    The root logger's own handlers are taken off for the block (nothing is printed twice)
    and put back, with its level, when the block ends.
    """
    root, handler = logging.getLogger(), _Lines()
    old_level, old_handlers = root.level, root.handlers[:]
    root.handlers = [handler]
    root.setLevel(level)
    try:
        yield handler.lines
    finally:
        root.handlers = old_handlers
        root.setLevel(old_level)
