"""Jupyter notebooks for :mod:`sidebyside.migrate`: a notebook's code cells as one script to scan
and draft, and the drafted script back into a notebook, cell by cell.

The script holds each code cell after a marker line (``# %% [migrate: cell 3]``: the cell's index
among all cells, jupytext's percent format, which JupyterLab and VS Code read too), so the report's
line numbers are those of that script; IPython's magics and shell lines (``%matplotlib``,
``!pip``, a ``%%time`` cell) are commented out for the scan and restored in the drafted notebook.
The drafted notebook keeps every cell, its kind and metadata; code cells get their drafted text and
lose their outputs (MXNet's). Standard library only (``json``): nbformat is not needed to read or
write the notebook format's JSON.
"""

from __future__ import annotations

import copy
import json
import re

__all__ = ["MARKER", "script_of", "notebook_of", "NotANotebook"]

MARKER = "# %% [migrate: cell {index}]"
_MARKER_LINE = re.compile(r"^# %% \[migrate: cell (\d+)\]$")
_MAGIC = "# [migrate: IPython] "


class NotANotebook(ValueError):
    """The file is not a Jupyter notebook (not JSON, or no list of cells)."""


def _cells(text: str) -> tuple[dict, list]:
    try:
        nb = json.loads(text)
    except json.JSONDecodeError as err:
        raise NotANotebook(f"not JSON ({err.msg}, line {err.lineno})") from None
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
        raise NotANotebook("no list of cells: not a Jupyter notebook (nbformat 4)")
    return nb, nb["cells"]


def _source(cell: dict) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else str(src)


def script_of(text: str) -> str:
    """The notebook ``text`` (its JSON) as one Python script: each code cell after its marker
    line, magics and shell lines commented. Raises :class:`NotANotebook`."""
    _, cells = _cells(text)
    lines = []
    for index, cell in enumerate(cells):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        lines.append(MARKER.format(index=index))
        body = _source(cell)
        whole = body.lstrip().startswith("%%")          # a cell magic: the cell is not Python
        for line in body.splitlines():
            if whole or line.lstrip().startswith(("%", "!")):
                lines.append(_MAGIC + line)
            else:
                lines.append(line)
    return "\n".join(lines) + "\n"


def notebook_of(text: str, drafted: str) -> str:
    """The notebook ``text`` with each code cell's source replaced by its part of ``drafted``
    (a draft of :func:`script_of`'s script), outputs and execution counts cleared; JSON
    indented as Jupyter writes it. Lines the draft put before the first marker go to the first
    code cell."""
    nb, cells = _cells(text)
    nb = copy.deepcopy(nb)
    parts: dict[int, list[str]] = {}
    lead: list[str] = []
    current = None
    for line in drafted.splitlines():
        m = _MARKER_LINE.match(line)
        if m:
            current = int(m.group(1))
            parts[current] = []
            continue
        line = line[len(_MAGIC):] if line.startswith(_MAGIC) else line
        (lead if current is None else parts[current]).append(line)
    code = [i for i, c in enumerate(nb["cells"]) if isinstance(c, dict)
            and c.get("cell_type") == "code"]
    if code and lead:
        parts[code[0]] = lead + parts.get(code[0], [])
    for i in code:
        cell = nb["cells"][i]
        body = "\n".join(parts.get(i, [])).strip("\n")
        cell["source"] = [ln + "\n" for ln in body.split("\n")[:-1]] + [body.split("\n")[-1]] \
            if body else []
        cell["outputs"] = []
        cell["execution_count"] = None
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"
