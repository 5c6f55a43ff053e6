"""One migration catalogue keyed by MXNet 1.9.1's real API: every entry an MXNet construct (or
one form of it), its PyTorch counterpart as a call, and an executed check.

One job per module:

- :mod:`sidebyside.catalogue.model`   — :class:`Entry`, :class:`Check`, the statuses;
- :mod:`sidebyside.catalogue.entries` — the data, one module per namespace;
- :mod:`sidebyside.catalogue.index`   — :func:`lookup` by canonical name and call arguments;
- :mod:`sidebyside.catalogue.run`     — run an entry's check (MXNet and PyTorch);
- :mod:`sidebyside.catalogue.harness` — helpers the checks' snippets call (optimizer steps,
  schedules, initialiser samples);
- :mod:`sidebyside.catalogue.surface` — MXNet's public API, enumerated from the installed
  package, and the operator call sites of real code;
- :mod:`sidebyside.catalogue.render`  — the book's pages.

``model``, ``entries`` and ``index`` use the standard library alone (:mod:`sidebyside.migrate`
reads them); ``run``, ``harness`` and ``surface`` import MXNet and PyTorch.
"""

from __future__ import annotations

from .index import entries, lookup, names
from .model import ARGS, COMPOSITE, RECIPE, RENAMED, SAME, STATUSES, Check, Entry

__all__ = ["entries", "lookup", "names", "Entry", "Check", "SAME", "RENAMED", "ARGS",
           "COMPOSITE", "RECIPE", "STATUSES"]
