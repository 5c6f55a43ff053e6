"""Print a short list of records as an aligned plain-text table, for a notebook's output.

A survey cell (one row per operator, per layer, per mode) prints a few columns; a ``dict``
display wraps them unreadably and pandas is not a dependency. :func:`show` prints a header
and one line per row, each column as wide as its widest entry::

    >>> from sidebyside import table
    >>> table.show([{"op": "relu", "same": True}, {"op": "max_pool2d", "same": False}])
    op          same
    relu        True
    max_pool2d  False

Values are printed with ``str``; the rows must share the first row's keys.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

__all__ = ["show", "lines"]


def lines(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """The table :func:`show` prints, one string per line (header first)."""
    if not rows:
        raise ValueError("table.lines: no rows to show")
    keys = list(rows[0])
    for i, row in enumerate(rows):
        if list(row) != keys:
            raise ValueError(f"table.lines: row {i} has keys {list(row)}, row 0 has {keys}")
    width = {k: max(len(str(k)), *(len(str(r[k])) for r in rows)) for k in keys}
    return ["  ".join(str(r[k]).ljust(width[k]) for k in keys).rstrip()
            for r in [dict(zip(keys, keys)), *rows]]


def show(rows: Sequence[Mapping[str, Any]]) -> None:
    """Print ``rows`` (dicts with the same keys) as an aligned table."""
    print("\n".join(lines(rows)))
