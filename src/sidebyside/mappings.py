"""The notebooks' mapping tables, read from their py:percent sources.

Each notebook ends with a summary table (and some have others in their sections) whose header
names a PyTorch column and a Gluon / MXNet column: ``| | PyTorch | MXNet Gluon |``,
``| PyTorch (`main.py`) | Gluon (`main_gluon.py`) | taught in |``, ``| MXNet 1.x | PyTorch |
note |``, ``| legacy | what it does | the port |`` and so on. :func:`read_notebook` and
:func:`read_all` turn every row of such a table into a :class:`Mapping` — the page, the
section heading it sits under, the PyTorch text, the MXNet text and the other columns — so
that :func:`sidebyside.apimap.find` and ``tools/make_cheatsheet.py`` (the full table,
book/all_mappings.md, and the rows the cheat sheet selects) can search and list them.
The tutorials (``notebooks/NN_*.py``) and the deep dives (``notebooks/deep_dives/*.py``) are
read alike.

A table whose columns are porting *directions* instead of sides (``| task | MXNet → PyTorch |
PyTorch → MXNet |``) holds recipes: each of its rows is a :class:`HowTo`, with the cell of
each direction. A table with neither (the seed-claim tables, a RecordIO byte layout, a list of
kvstores) is not a mapping: it is skipped, and counted in :attr:`Tables.skipped` so that
nothing is dropped silently (:meth:`Tables.report`).

The module also knows the pages themselves: where a page is (:func:`page_link`), what a reader
calls it (:func:`page_label`), the id the book gives a section heading (:func:`section_id`),
and each page's code cells with their section (:func:`code_cells`).

Nothing heavy is imported: this module reads text only.
"""

from __future__ import annotations

import posixpath
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Place", "Mapping", "HowTo", "SkippedTable", "Tables", "NOTEBOOKS", "DEEP_DIVES",
           "column_side", "direction_of", "split_row", "parse_markdown", "read_notebook",
           "read_all", "markdown_lines", "code_cells", "pages", "lead_name", "sort_key",
           "page_link", "page_label", "section_id", "rebase_links"]

#: the repository's notebooks/ folder (this file is src/sidebyside/mappings.py)
NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
#: the deep dives' folder, under notebooks/
DEEP_DIVES = "deep_dives"

_NOTEBOOK_NAME = re.compile(r"(\d+)_\w+")


# ----------------------------------------------------------------------------- pages
def page_link(stem: str, folder: str = "") -> str:
    """A page as a link target relative to book/: ``notebooks/08_optimizers_trainer.ipynb``,
    ``notebooks/deep_dives/data_workers.ipynb``."""
    return "/".join(["notebooks", *([folder] if folder else []), f"{stem}.ipynb"])


def page_label(stem: str, folder: str = "", title: str = "") -> str:
    """What a reader calls a page: ``notebook 8`` for a tutorial, ``deep dive “<title>”``
    for a deep dive (its file name when the title is not known).

    >>> page_label("08_optimizers_trainer")
    'notebook 8'
    >>> page_label("data_workers", "deep_dives", "Worker processes: `num_workers`")
    'deep dive “Worker processes: num_workers”'
    """
    match = _NOTEBOOK_NAME.fullmatch(stem)
    if match and not folder:
        return f"notebook {int(match.group(1))}"
    name = re.sub(r"^Deep dive\s*[·:—-]\s*", "", _plain(title)).strip() or stem
    return f"deep dive “{name}”"


_MD_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_DIGRAPHS = {223: "sz", 230: "ae", 339: "oe", 568: "db", 569: "qp"}
_LETTERS = {248: "o", 273: "d", 295: "h", 305: "i", 322: "l", 359: "t"}


def _plain(markdown: str) -> str:
    """A heading's text as the book shows it: links as their text, no code or emphasis marks."""
    text = _MD_LINK.sub(r"\1", markdown)
    return re.sub(r"`+|\*\*|(?<!\w)\*|\*(?!\w)", "", text).strip()


def section_id(heading: str) -> str:
    """The HTML id the book gives a section whose Markdown heading is ``heading``: its text
    (:func:`_plain`), lower case, letters and digits only, hyphens between, and no leading
    digit — docutils' rule (``docutils.nodes.make_id``), which Sphinx applies to every section.

    >>> section_id("8. The whole map, run")
    'the-whole-map-run'
    >>> section_id("2. Shapes: a tuple, `size` and `numel`, `.T`")
    'shapes-a-tuple-size-and-numel-t'
    """
    text = _plain(heading).lower().translate(_DIGRAPHS).translate(_LETTERS)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^a-z0-9]+", "-", " ".join(text.split()))
    return re.sub(r"^[-0-9]+|-+$", "", text)


_RELATIVE_LINK = re.compile(r"\]\((?![a-z]+:|/|#)([^)\s]+\.ipynb)((?:#[^)\s]*)?)\)")


def rebase_links(text: str, folder: str = "") -> str:
    """Links between pages, written relative to a page in ``notebooks/<folder>``, made
    relative to book/ (where the full table of mappings and the error index are).

    >>> rebase_links("[6](06_blocks.ipynb) §2")
    '[6](notebooks/06_blocks.ipynb) §2'
    >>> rebase_links("[notebook 5](../05_autograd.ipynb)", "deep_dives")
    '[notebook 5](notebooks/05_autograd.ipynb)'
    """
    def fix(m):
        target = posixpath.normpath(posixpath.join("notebooks", folder, m.group(1)))
        return f"]({target}{m.group(2)})"
    return _RELATIVE_LINK.sub(fix, text)


def pages(folder: str | Path | None = None) -> list[Path]:
    """The py:percent pages of the book in reading order: the tutorials ``NN_*.py`` of
    ``folder`` (default: the repository's notebooks/), then its ``deep_dives/*.py``."""
    folder = NOTEBOOKS if folder is None else Path(folder)
    return (sorted(folder.glob("[0-9][0-9]_*.py"))
            + sorted((folder / DEEP_DIVES).glob("*.py")))


def _folder_of(path: Path) -> str:
    return DEEP_DIVES if path.parent.name == DEEP_DIVES else ""


# ------------------------------------------------------------------------------ rows
class Place:
    """Where something is taught: a section of a page. A mixin for dataclasses with the
    fields ``stem``, ``folder``, ``title`` and ``section`` (the section's heading; a class
    whose anchor comes from another heading overrides :attr:`anchor`)."""

    @property
    def where(self) -> str:
        """For a reader: ``"notebook 8, §Summary"`` (only the page before its first heading)."""
        label = page_label(self.stem, self.folder, self.title)
        return f"{label}, §{self.section}" if self.section else label

    @property
    def link(self) -> str:
        """The page, as a link target relative to book/ (``notebooks/NN_x.ipynb``)."""
        return page_link(self.stem, self.folder)

    @property
    def anchor(self) -> str:
        """The HTML id of the section in the book (:func:`section_id`)."""
        return section_id(self.section)

    @property
    def target(self) -> str:
        """The section in the built book, relative to its root: ``notebooks/NN_x.html#id``."""
        base = f"{self.link.removesuffix('.ipynb')}.html"
        return f"{base}#{self.anchor}" if self.anchor else base


@dataclass(frozen=True)
class Mapping(Place):
    """One row of a page's mapping table."""

    notebook: int                  # 8 (0 for a deep dive)
    stem: str                      # "08_optimizers_trainer"
    section: str                   # the heading the table sits under, e.g. "Summary"
    label: str                     # the row's first column when it is not a side ("" if none)
    pytorch: str                   # the PyTorch cell, Markdown as written (``\|`` unescaped)
    mxnet: str                     # the MXNet / Gluon cell
    notes: tuple[tuple[str, str], ...] = ()   # the other columns: (header, cell)
    headers: tuple[str, str] = ("PyTorch", "MXNet")  # the two sides' headers, as written
    line: int = 0                  # 1-based line of the row in the .py file
    mxnet_first: bool = False      # the table's MXNet column comes before its PyTorch one
    folder: str = ""               # "deep_dives" for a deep dive, "" for a tutorial
    title: str = ""                # the page's title

    @property
    def page(self) -> str:
        """The page's path under notebooks/, without the suffix: ``08_optimizers_trainer``,
        ``deep_dives/data_workers``."""
        return f"{self.folder}/{self.stem}" if self.folder else self.stem

    @property
    def key(self) -> str:
        """A short name for the row: ``"08_optimizers_trainer §Summary: optimizer"``."""
        first, second = (self.mxnet, self.pytorch) if self.mxnet_first else (
            self.pytorch, self.mxnet)
        return f"{self.page} §{self.section}: {self.label or first or second}"

    @property
    def text(self) -> str:
        """Everything in the row, for searching."""
        return " ".join([self.label, self.pytorch, self.mxnet, *(c for _, c in self.notes)])


@dataclass(frozen=True)
class HowTo:
    """One row of a table whose columns are porting directions: a task, and how it is done
    each way (``| task | MXNet → PyTorch | PyTorch → MXNet |``)."""

    notebook: int
    stem: str
    section: str
    label: str                                # the task (the first column)
    steps: tuple[tuple[str, str], ...]        # (header, cell) of every other column
    line: int = 0
    folder: str = ""
    title: str = ""

    page = Mapping.page
    where = Mapping.where
    link = Mapping.link
    anchor = Mapping.anchor
    target = Mapping.target

    @property
    def key(self) -> str:
        return f"{self.page} §{self.section}: {self.label}"

    def toward(self, side: str) -> str:
        """The cell of the column that ports *to* ``side`` (``"pytorch"`` or ``"mxnet"``),
        ``""`` when the table has none."""
        return next((c for h, c in self.steps if direction_of(h) == side), "")

    @property
    def text(self) -> str:
        return " ".join([self.label, *(c for _, c in self.steps)])


@dataclass(frozen=True)
class SkippedTable:
    """A table that is neither a mapping (a PyTorch and an MXNet column) nor a how-to table
    (porting directions as columns)."""

    stem: str
    section: str
    header: tuple[str, ...]
    rows: int
    line: int
    folder: str = ""
    title: str = ""


@dataclass
class Tables:
    """What was read: the mapping rows, the how-to rows, and the tables that were neither."""

    rows: list[Mapping] = field(default_factory=list)
    skipped: list[SkippedTable] = field(default_factory=list)
    tables: int = 0  # tables that gave mapping rows
    howtos: list[HowTo] = field(default_factory=list)
    howto_tables: int = 0

    def extend(self, other: Tables) -> None:
        self.rows += other.rows
        self.skipped += other.skipped
        self.tables += other.tables
        self.howtos += other.howtos
        self.howto_tables += other.howto_tables

    def report(self) -> str:
        """One line: rows read, and the tables (with their rows) skipped."""
        pages = len({m.page for m in self.rows} | {h.page for h in self.howtos})
        skipped_rows = sum(t.rows for t in self.skipped)
        return (f"{len(self.rows)} mapping rows from {self.tables} tables and "
                f"{len(self.howtos)} porting tasks from {self.howto_tables} tables in {pages} "
                f"pages; {len(self.skipped)} tables ({skipped_rows} rows) skipped: no PyTorch "
                "column or no MXNet column, and no porting direction")


# ------------------------------------------------------------------------------- columns
_MXNET_WORDS = re.compile(r"mxnet|gluon|module api|mxboard|\blegacy\b")
_VERSION = re.compile(r"^\s*(\d+\.\d+(\.\d+)?|\d+\.x)\b")
_DIRECTION = re.compile(r"→|->|⇄|⇔|↔")
_ONE_WAY = re.compile(r"(.*?)(?:→|->)(.*)")
_PORT = re.compile(r"^(?:the\s+)?port(?:ed)?$")


def _side_word(text: str) -> str | None:
    if "pytorch" in text or re.search(r"\btorch\b", text):
        return "pytorch"
    if _MXNET_WORDS.search(text):
        return "mxnet"
    return None


def column_side(header: str) -> str | None:
    """``"pytorch"``, ``"mxnet"`` or ``None`` for a table header cell.

    A header that names a direction (``MXNet → PyTorch``, ``porting Gluon → PyTorch``) is
    not a side (:func:`direction_of` reads it). An MXNet version alone (``1.9.1``, ``2.x
    (master)``) and ``legacy`` (this book's word for MXNet 1.x code) are an MXNet side.
    """
    h = header.strip().lower()
    if not h or _DIRECTION.search(h):
        return None
    if "pytorch" in h:
        return "pytorch"
    if _MXNET_WORDS.search(h) or _VERSION.match(h):
        return "mxnet"
    return None


def direction_of(header: str) -> str | None:
    """The side a porting-direction header ports *to*: ``"MXNet → PyTorch"`` gives
    ``"pytorch"``, ``"porting PyTorch → Gluon"`` ``"mxnet"``; ``None`` for any other header
    (a side, a note, an arrow between two things that are not the two frameworks)."""
    m = _ONE_WAY.fullmatch(header.strip().lower())
    if not m:
        return None
    source, dest = _side_word(m.group(1)), _side_word(m.group(2))
    return dest if source and dest and source != dest else None


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


def code_cells(py_source: str) -> list[tuple[int, str, str]]:
    """The code cells of a py:percent notebook: (1-based line of the cell's first line, the
    ``## `` section it sits in — ``""`` before the first —, its code). Comment lines are left
    out of the code."""
    out, section, kind, start, lines = [], "", None, 0, []

    def close():
        if kind == "code" and any(ln.strip() for ln in lines):
            out.append((start, section, "\n".join(lines).strip("\n")))

    for number, line in enumerate(py_source.splitlines(), 1):
        if line.startswith("# %%"):
            close()
            kind, start, lines = ("markdown" if "[markdown]" in line else "code"), number + 1, []
            continue
        if kind == "markdown":
            heading = _HEADING.match(line[2:] if line.startswith("# ") else "")
            if heading and len(heading.group(1)) == 2:
                section = heading.group(2).strip()
        elif kind == "code" and not line.lstrip().startswith("#"):
            lines.append(line)
    close()
    return out


def parse_markdown(lines: list[tuple[int, str]], stem: str, folder: str = "") -> Tables:
    """The mapping tables of Markdown ``lines`` ((line number, text) pairs), for the page
    ``stem`` (``"NN_name"``, or a deep dive's name with ``folder="deep_dives"``)."""
    match = _NOTEBOOK_NAME.fullmatch(stem)
    number = int(match.group(1)) if match and not folder else 0
    found, section, title, i = Tables(), "", "", 0
    while i < len(lines):
        at, text = lines[i]
        heading = _HEADING.match(text)
        if heading and len(heading.group(1)) > 1:  # the title (#) is not a section
            section = heading.group(2).strip()
        elif heading and not title:
            title = heading.group(2).strip()
        if (text.lstrip().startswith("|") and i + 1 < len(lines)
                and _is_separator(lines[i + 1][1])):
            header = split_row(text)
            body = []
            i += 2
            while i < len(lines) and lines[i][1].lstrip().startswith("|"):
                body.append((lines[i][0], split_row(lines[i][1])))
                i += 1
            _table(found, (number, stem, folder, title), section, header, body, at)
            continue
        i += 1
    return found


def _table(found: Tables, page: tuple, section: str, header: list[str],
           body: list[tuple[int, list[str]]], at: int) -> None:
    number, stem, folder, title = page
    sides = [column_side(h) for h in header]
    present = {s for s in sides if s}
    if len(present) == 1:  # "| legacy | what it does | the port |": the port is the other side
        other = ({"pytorch", "mxnet"} - present).pop()
        sides = [other if s is None and _PORT.match(h.strip().lower()) else s
                 for s, h in zip(sides, header)]
    torch_cols = [j for j, s in enumerate(sides) if s == "pytorch"]
    mxnet_cols = [j for j, s in enumerate(sides) if s == "mxnet"]
    directions = [j for j, h in enumerate(header) if direction_of(h)]
    if not (torch_cols and mxnet_cols):
        if directions and not present:
            found.howto_tables += 1
            label_col = 0 if 0 not in directions else None
            for line, cells in body:
                cells = cells + [""] * (len(header) - len(cells))
                found.howtos.append(HowTo(
                    notebook=number, stem=stem, section=section,
                    label=cells[label_col] if label_col is not None else "",
                    steps=tuple((header[j], cells[j]) for j in range(len(header))
                                if j != label_col),
                    line=line, folder=folder, title=title))
            return
        found.skipped.append(SkippedTable(stem, section, tuple(header), len(body), at, folder,
                                          title))
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
            line=line, mxnet_first=m < t, folder=folder, title=title))


def read_notebook(path: str | Path) -> Tables:
    """The mapping tables of one py:percent page: ``notebooks/NN_name.py`` or
    ``notebooks/deep_dives/name.py``."""
    path = Path(path)
    return parse_markdown(markdown_lines(path.read_text(encoding="utf-8")), path.stem,
                          _folder_of(path))


def read_all(folder: str | Path | None = None) -> Tables:
    """The mapping tables of every page in ``folder`` (default: the repository's notebooks/)
    in reading order (:func:`pages`: the tutorials, then the deep dives). An absent folder
    gives no rows."""
    found = Tables()
    for path in pages(folder):
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
