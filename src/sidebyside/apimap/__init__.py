"""The PyTorch ⇄ MXNet tensor API map, as data that runs, and a lookup from either side.

Each row (:class:`Row`) holds one mapping: the PyTorch call as it works today, the legacy
``mx.nd`` equivalent, the NumPy-style ``mx.np`` / ``npx`` equivalent where it differs, a
status and a note — and for the rows taken from the seed article's *Tensor / NDArray* and
*GPU* tables, what the seed claimed. The code strings are the code that :func:`check`
executes, on the same inputs, and then compares — so the table a reader sees is the table
that was run (notebook 2, §8).

One job per module:

- :mod:`sidebyside.apimap.rows`       — the rows, written with keywords (:data:`ROWS`);
- :mod:`sidebyside.apimap.run`        — the inputs, running a snippet, :func:`check`,
  :func:`check_all`, :func:`summary`;
- :mod:`sidebyside.apimap.render`     — :func:`to_markdown` (either direction),
  :func:`seed_markdown`, :func:`added_markdown`;
- :mod:`sidebyside.apimap.lookup`     — :func:`find`: any name, from either side, in the map,
  the pages' tables, the error index and the helper package;
- :mod:`sidebyside.apimap.errorindex` — the errors the notebooks raise on purpose (the
  entries of ``book/errors.md``);
- :mod:`sidebyside.apimap.helpers`    — the helper package's public names and the sections
  that use them.

Every name is importable from here (``sidebyside.apimap.find``); the modules that run rows
import PyTorch and MXNet when first used, so ``sidebyside.apimap.errorindex`` and
``sidebyside.apimap.helpers`` stay light.
"""

from __future__ import annotations

import importlib

__all__ = [
    # rows
    "STATUSES", "SAME", "RENAMED", "SEMANTICS", "COMPOSITE", "MISSING", "NOT_AVAILABLE",
    "SEED", "PORTS", "BOOK", "ISSUE_13", "SOURCES", "TABLES", "NOT_IN_SEED", "MAP_NOTEBOOK",
    "MAP_SECTION", "N_RANDOM", "Row", "ROWS", "SEED_AS_INTENDED", "row", "verdict_kind",
    "api_name",
    # run
    "inputs", "device_pair", "run_snippet", "Result", "check", "check_all", "summary",
    # render
    "NO_API_NAME", "to_markdown", "seed_markdown", "added_markdown",
    # lookup
    "find", "names_in", "query_names",
]

_MODULES = ("rows", "run", "render", "lookup")  # where the names above live


def __getattr__(name: str):
    if name in __all__:
        for module in _MODULES:
            found = importlib.import_module(f"{__name__}.{module}")
            if name in found.__all__:
                globals()[name] = value = getattr(found, name)
                return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
