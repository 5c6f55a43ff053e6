"""The catalogue's entries, one data module per namespace (``nn``, ``loss``, ``ops_math``, …).

Each module defines ``ENTRIES``, a list of :class:`sidebyside.catalogue.model.Entry`; this
package gathers them in the order of :func:`modules` (alphabetical), each entry's ``group``
set to its module's name. Standard library only.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import pkgutil

__all__ = ["modules", "all_entries"]


def modules() -> list[str]:
    """The data modules' names, alphabetical."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))


@functools.lru_cache(maxsize=1)
def all_entries() -> tuple:
    out = []
    for name in modules():
        mod = importlib.import_module(f"{__name__}.{name}")
        for e in mod.ENTRIES:
            out.append(dataclasses.replace(e, group=name))
    return tuple(out)
