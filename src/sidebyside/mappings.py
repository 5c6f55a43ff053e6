"""The notebooks' mapping tables, read from their py:percent sources.

Each notebook ends with a summary table (and some have others in their sections) whose header
names a PyTorch column and a Gluon / MXNet column: ``| | PyTorch | MXNet Gluon |``,
``| PyTorch (`main.py`) | Gluon (`main_gluon.py`) | taught in |``, ``| MXNet 1.x | PyTorch |
note |`` and so on. :func:`read_notebook` and :func:`read_all` turn every row of such a table
into a :class:`Mapping` — the notebook, the section heading it sits under, the PyTorch text,
the MXNet text and the other columns — so that :func:`sidebyside.apimap.find` and
``tools/make_cheatsheet.py`` can search and list them.

A table without a recognisable PyTorch column *and* MXNet column (the seed-claim tables, a
RecordIO byte layout, a list of kvstores) is not a mapping: it is skipped, and counted in
:attr:`Tables.skipped` so that nothing is dropped silently (:meth:`Tables.report`).

Nothing heavy is imported: this module reads text only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Mapping", "SkippedTable", "Tables", "NOTEBOOKS", "column_side", "split_row",
           "parse_markdown", "read_notebook", "read_all", "markdown_lines", "lead_name",
           "sort_key"]

#: the repository's notebooks/ folder (this file is src/sidebyside/mappings.py)
NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"

_NOTEBOOK_NAME = re.compile(r"(\d+)_\w+")


@dataclass(frozen=True)
class Mapping:
    """One row of a notebook's mapping table."""

    notebook: int                  # 8
    stem: str                      # "08_optimizers_trainer"
    section: str                   # the heading the table sits under, e.g. "Summary"
    label: str                     # the row's first column when it is not a side ("" if none)
    pytorch: str                   # the PyTorch cell, Markdown as written (``\|`` unescaped)
    mxnet: str                     # the MXNet / Gluon cell
    notes: tuple[tuple[str, str], ...] = ()   # the other columns: (header, cell)
    headers: tuple[str, str] = ("PyTorch", "MXNet")  # the two sides' headers, as written
    line: int = 0                  # 1-based line of the row in the .py file
    mxnet_first: bool = False      # the table's MXNet column comes before its PyTorch one

    @property
    def key(self) -> str:
        """A short name for the row: ``"08_optimizers_trainer §Summary: optimizer"``."""
        first, second = (self.mxnet, self.pytorch) if self.mxnet_first else (
            self.pytorch, self.mxnet)
        return f"{self.stem} §{self.section}: {self.label or first or second}"

    @property
    def where(self) -> str:
        """Where the row is, for a reader: ``"notebook 8, §Summary"``."""
        return f"notebook {self.notebook}, §{self.section}"

    @property
    def link(self) -> str:
        """The notebook, as a link target relative to book/ (``notebooks/NN_x.ipynb``)."""
        return f"notebooks/{self.stem}.ipynb"

    @property
    def text(self) -> str:
        """Everything in the row, for searching."""
        return " ".join([self.label, self.pytorch, self.mxnet, *(c for _, c in self.notes)])


@dataclass(frozen=True)
class SkippedTable:
    """A table that has no PyTorch column or no MXNet column."""

    stem: str
    section: str
    header: tuple[str, ...]
    rows: int
    line: int


@dataclass
class Tables:
    """What was read: the mapping rows, and the tables that were not mappings."""

    rows: list[Mapping] = field(default_factory=list)
    skipped: list[SkippedTable] = field(default_factory=list)
    tables: int = 0  # tables that gave rows

    def extend(self, other: Tables) -> None:
        self.rows += other.rows
        self.skipped += other.skipped
        self.tables += other.tables

    def report(self) -> str:
        """One line: rows read, and the tables (with their rows) skipped."""
        notebooks = len({m.stem for m in self.rows})
        skipped_rows = sum(t.rows for t in self.skipped)
        return (f"{len(self.rows)} mapping rows from {self.tables} tables in {notebooks} "
                f"notebooks; {len(self.skipped)} tables ({skipped_rows} rows) skipped: no "
                "PyTorch column or no MXNet column")


# ------------------------------------------------------------------------------- columns
_MXNET_WORDS = re.compile(r"mxnet|gluon|module api|mxboard")
_VERSION = re.compile(r"^\s*(\d+\.\d+(\.\d+)?|\d+\.x)\b")
_DIRECTION = re.compile(r"→|->|⇄|⇔|↔")


def column_side(header: str) -> str | None:
    """``"pytorch"``, ``"mxnet"`` or ``None`` for a table header cell.

    A header that names a direction (``MXNet → PyTorch``, ``porting Gluon → PyTorch``) is
    not a side. An MXNet version alone (``1.9.1``, ``2.x (master)``) is an MXNet side.
    """
    h = header.strip().lower()
    if not h or _DIRECTION.search(h):
        return None
    if "pytorch" in h:
        return "pytorch"
    if _MXNET_WORDS.search(h) or _VERSION.match(h):
        return "mxnet"
    return None


def _mxnet_rank(header: str) -> int:
    """Among several MXNet columns the Gluon 1.9.1 one is *the* MXNet side."""
    h = header.lower()
    return 2 if ("gluon" in h or "1.9.1" in h or "1.x" in h) else 1


# --------------------------------------------------------------------------------- parsing
def split_row(line: str) -> list[str]:
    """The cells of a Markdown table row, split at unescaped ``|``; ``\\|`` becomes ``|``."""
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    cells = re.split(r"(?<!\\)\|", body)
    return [c.strip().replace("\\|", "|") for c in cells]


_SEPARATOR = re.compile(r"^\|?(\s*:?-+:?\s*\|)+\s*(:?-+:?\s*)?$")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def _is_separator(line: str) -> bool:
    return bool(_SEPARATOR.match(line.strip()))


def markdown_lines(py_source: str) -> list[tuple[int, str]]:
    """The Markdown of a py:percent notebook: (1-based line number, text) for every line of
    its ``# %% [markdown]`` cells, with the comment mark (``# `` or ``#``) removed."""
    out, in_markdown = [], False
    for number, line in enumerate(py_source.splitlines(), 1):
        if line.startswith("# %%"):
            in_markdown = "[markdown]" in line
            continue
        if not in_markdown:
            continue
        if line.startswith("# "):
            out.append((number, line[2:]))
        elif line.startswith("#"):
            out.append((number, line[1:]))
        else:  # a blank line between cells
            out.append((number, ""))
    return out


def parse_markdown(lines: list[tuple[int, str]], stem: str) -> Tables:
    """The mapping tables of Markdown ``lines`` ((line number, text) pairs), for notebook
    ``stem`` (``"NN_name"``)."""
    match = _NOTEBOOK_NAME.fullmatch(stem)
    number = int(match.group(1)) if match else 0
    found, section, i = Tables(), "", 0
    while i < len(lines):
        at, text = lines[i]
        heading = _HEADING.match(text)
        if heading and len(heading.group(1)) > 1:  # the title (#) is not a section
            section = heading.group(2).strip()
        if (text.lstrip().startswith("|") and i + 1 < len(lines)
                and _is_separator(lines[i + 1][1])):
            header = split_row(text)
            body = []
            i += 2
            while i < len(lines) and lines[i][1].lstrip().startswith("|"):
                body.append((lines[i][0], split_row(lines[i][1])))
                i += 1
            _table(found, stem, number, section, header, body, at)
            continue
        i += 1
    return found


def _table(found: Tables, stem: str, number: int, section: str, header: list[str],
           body: list[tuple[int, list[str]]], at: int) -> None:
    sides = [column_side(h) for h in header]
    torch_cols = [j for j, s in enumerate(sides) if s == "pytorch"]
    mxnet_cols = [j for j, s in enumerate(sides) if s == "mxnet"]
    if not torch_cols or not mxnet_cols:
        found.skipped.append(SkippedTable(stem, section, tuple(header), len(body), at))
        return
    t = torch_cols[0]
    m = max(mxnet_cols, key=lambda j: (_mxnet_rank(header[j]), -j))
    label_col = 0 if 0 not in (t, m) and sides[0] is None else None
    found.tables += 1
    for line, cells in body:
        cells = cells + [""] * (len(header) - len(cells))
        notes = tuple((header[j], cells[j]) for j in range(len(header))
                      if j not in (t, m, label_col) and cells[j])
        found.rows.append(Mapping(
            notebook=number, stem=stem, section=section,
            label=cells[label_col] if label_col is not None else "",
            pytorch=cells[t], mxnet=cells[m], notes=notes, headers=(header[t], header[m]),
            line=line, mxnet_first=m < t))


def read_notebook(path: str | Path) -> Tables:
    """The mapping tables of one py:percent notebook ``notebooks/NN_name.py``."""
    path = Path(path)
    return parse_markdown(markdown_lines(path.read_text(encoding="utf-8")), path.stem)


def read_all(folder: str | Path | None = None) -> Tables:
    """The mapping tables of every ``NN_*.py`` notebook in ``folder`` (default: the
    repository's notebooks/), in notebook order. An absent folder gives no rows."""
    folder = NOTEBOOKS if folder is None else Path(folder)
    found = Tables()
    for path in sorted(folder.glob("[0-9][0-9]_*.py")):
        found.extend(read_notebook(path))
    return found


# ------------------------------------------------------------------------- names, sorting
_CODE_FIRST = re.compile(r"^\s*`([^`]+)`")
_KEYWORD = re.compile(r"^(?:with|def|class|for|import|from|return|await)\s+")
_LEAD = re.compile(r"^[\"'.\-]*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)")


def lead_name(cell: str) -> str | None:
    """The API a table cell starts with, or ``None`` when the cell does not start with code.

    ``"`gluon.Trainer(params, 'sgd')` ..."`` gives ``"gluon.Trainer"``; ``"`with
    autograd.record():`"`` gives ``"autograd.record"``; ``"`"nag"`"`` gives ``"nag"``,
    ``"`.to(device)`"`` gives ``"to"``; ``"none (`grad_req='write'`)"`` and ``"—"`` give
    ``None``: a cell in words names no API.
    """
    code = _CODE_FIRST.match(cell)
    if not code:
        return None
    text = _KEYWORD.sub("", code.group(1).strip())
    name = _LEAD.match(text)
    return name.group(1) if name else None


def sort_key(name: str | None, text: str = "") -> tuple:
    """Order rows by an API name's last component (``nd.linalg.gemm2`` → ``gemm2``,
    ``gluon.Trainer`` → ``trainer``), case-insensitively; rows without a name go last."""
    if not name:
        return (1, "", text.lower())
    return (0, name.rsplit(".", 1)[-1].lower().strip("_"), name.lower(), text.lower())
