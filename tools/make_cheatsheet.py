"""Write book/cheatsheet.md (the cheat sheet) and book/all_mappings.md (every mapping).

The cheat sheet is the few dozen spellings a port meets most, grouped by topic, with the five
worst gotchas: one A4 page read from PyTorch and one read from MXNet (tests/
test_cheatsheet_print.py prints it in Chromium and counts the pages). It is not written by
hand: :data:`SHEET` lists *selectors*, each naming one executed row — an API-map row
(``sidebyside.apimap``, run in notebook 2: ``"map: arange"``) or a row of a notebook's mapping
table (``sidebyside.mappings``, by its ``Mapping.key``: ``"08_optimizers_trainer §Summary:
default SGD rate"``, a numbered section by its number: ``"08_optimizers_trainer §7: ..."``) — and :data:`GOTCHAS` names detectors of ``sidebyside.migrate.gotchas``
(each the behaviour a notebook section asserts). A selector that matches no row or several,
a cell of more than one line or longer than :data:`MAX_CELL` characters, or a cell holding a
link stops the tool (:class:`SelectorError`): the sheet cannot drift from the rows.

book/all_mappings.md is the searchable index: every row of the map and of every mapping
table, one line a side, sorted by the MXNet name and again by the PyTorch name, each with the
section that shows it; then the porting tasks (the tables whose columns are directions), the
helper package's modules and the tables that are not mappings.

Run ``make cheatsheet`` (or this file) after changing a notebook's table or the API map;
``--check`` exits 1 when a committed page differs from what would be written
(tests/test_mappings.py checks the same).
"""

from __future__ import annotations

import argparse
import html
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from sidebyside import apimap, mappings
from sidebyside.apimap import helpers
from sidebyside.migrate import gotchas

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "book" / "cheatsheet.md"
OUT_ALL = ROOT / "book" / "all_mappings.md"
PDF = "cheatsheet.pdf"  # written next to cheatsheet.html by book/_ext/cheatsheet_pdf.py

MAP = "map: "  # the selector prefix of an API-map row (its key follows)
API = "api: "  # the selector prefix of a catalogue entry keyed by MXNet's API (its key follows)
MAX_CELL = 64  # characters a cheat-sheet cell may show (code marks not counted)

#: The cheat sheet: topics, each with the selectors of its rows (order within a topic is the
#: sheet's sort, by the name in the first column).
SHEET: dict[str, tuple[str, ...]] = {
    "Tensors": (
        "map: ones",
        "map: arange",
        "map: tensor",
        "02_tensor_ops §Summary: `torch.from_numpy(a)` keeps float64",
        "02_tensor_ops §Summary: `x.numpy()` shares memory",
        "02_tensor_ops §Summary: `x.item()`",
        "02_tensor_ops §Summary: `x.size()`, `x.numel()`",
        "map: view",
        "api: mx.nd.transpose [axes]",
        "api: mx.nd.concat",
        "map: unsqueeze",
        "map: sum",
        "map: type(dtype)",
        "02_tensor_ops §Summary: `x.repeat(2)` / `repeat_interleave`",
    ),
    "Layers": (
        "07_hybridize_export §Summary: a block that can become a graph",
        "06_blocks §Summary: layer sizes",
        "06_blocks §Summary: `Linear` on 3-D input",
        "06_blocks §Summary: convolution",
        "06_blocks §Summary: BatchNorm momentum",
        "15_capstone_mnist_to_gluon §Summary: `nn.Dropout(p)`",
        "06_blocks §Summary: initialise a network",
        "20_sequence_models §Summary: LSTM",
        "07_hybridize_export §Summary: graph mode",
    ),
    "Losses": (
        "10_losses §Summary: `nn.CrossEntropyLoss()(logits, y)`",
        "10_losses §Summary: `nn.BCEWithLogitsLoss()(logits, y)`",
        "10_losses §Summary: `nn.MSELoss()(x, y)`",
        "10_losses §Summary: `reduction=\"mean\"`",
    ),
    "Optimizer and Trainer": (
        "17_legacy_module_api §Summary: `torch.optim.SGD(params, lr=lr, weight_decay=wd)`",
        "03_mnist_mlp §Summary: update",
        "03_mnist_mlp §Summary: gradients",
        "08_optimizers_trainer §Summary: change the rate",
        "08_optimizers_trainer §7: `StepLR(opt, step_size, gamma)`",
        "08_optimizers_trainer §Summary: clip by norm",
        "03_mnist_mlp §Summary: scalar",
    ),
    "Autograd": (
        "05_autograd §Summary: mark a tensor",
        "03_mnist_mlp §Summary: forward for backward",
        "05_autograd §Summary: stop recording",
        "map: detach",
        "05_autograd §Summary: second order",
    ),
    "Data": (
        "04_data_loading §Summary: dataset of arrays",
        "04_data_loading §Summary: short last batch",
        "04_data_loading §Summary: merge samples",
        "04_data_loading §Summary: image-only transform",
        "18_legacy_data_recordio §Summary: `transforms.ToTensor()`",
    ),
    "Devices": (
        "17_legacy_module_api §Summary: `x.to(device)`",
        "17_legacy_module_api §Summary: `torch.device('cpu')`",
        "map: device",
        "04_data_loading §8: `torch.accelerator.is_available()`",
        "15_capstone_mnist_to_gluon §Summary: `torch.manual_seed(seed)`",
    ),
    "Saving and loading": (
        "13_serialization §Summary: save weights",
        "13_serialization §Summary: load weights",
        "13_serialization §Summary: a missing layer",
        "map: save",
    ),
}

#: The five gotchas: a short tag each, and the detector (``sidebyside.migrate.gotchas``) whose
#: title says it; the detector knows the section that asserts it.
GOTCHAS: tuple[tuple[str, str], ...] = (
    ("indices", "argmax-float"),
    ("SGD rate", "sgd-default-lr"),
    ("several workers", "kvstore-sums"),
    ("mx.sym BatchNorm", "symbol-batchnorm-defaults"),
    ("clipping", "float64-clip-global-norm"),
)

SIDES = {"pytorch": "PyTorch", "mxnet": "MXNet Gluon"}
#: the line under each sheet (printed too)
LEGEND = ("§: the section that shows the row (<em>8 §2</em>: notebook 8, section 2; "
          "<em>8</em>: its summary). Every row is one the book runs. "
          "<em>PyTorch ⇄ MXNet Gluon, side by side</em>: cheatsheet.html; every mapping: "
          "all_mappings.html")


class SelectorError(ValueError):
    """A cheat-sheet selector that does not name exactly one row, or a row the sheet cannot
    show (a cell of several lines, too long, or holding a link)."""


@dataclass(frozen=True)
class Entry:
    mxnet: str         # Markdown, one line
    pytorch: str       # Markdown, one line
    mxnet_name: str | None
    pytorch_name: str | None
    note: str          # Markdown
    check: str         # Markdown
    source: str        # HTML: a short link to the section that shows the row
    key: str = ""      # the row's selector


# ------------------------------------------------------------------------ Markdown text
_SPANS = re.compile(r"(`[^`]*`|\[[^\]]*\]\([^)]*\))")  # code spans and links: left alone
_BARE = re.compile(r"(?<![\w`/\\])([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)(\([^()]*\))?")
_NOT_CODE = {"e.g", "i.e", "etc"}


def protect(text: str, folder: str = "") -> str:
    """Markdown for a table cell: bare dotted names (``x.to(d)``, ``mx.np``) in backticks, so
    that MyST's linkify does not take them for web addresses; links between pages (written
    from a page in ``notebooks/<folder>``) made relative to book/; ``|`` escaped."""
    parts = _SPANS.split(text)
    for i in range(0, len(parts), 2):  # the text between code spans and links
        parts[i] = _BARE.sub(
            lambda m: m.group(0) if m.group(1) in _NOT_CODE else f"`{m.group(0)}`", parts[i])
    text = mappings.rebase_links("".join(parts), folder)
    return re.sub(r"(?<!\\)\|", r"\\|", text)


def code(snippet: str) -> str:
    """One line of code as a code span (``|`` escaped); a snippet of several lines is an
    error: a table shows spellings, not programs."""
    lines = [ln.strip() for ln in snippet.splitlines() if ln.strip()]
    if len(lines) != 1:
        raise SelectorError(f"not one line: {snippet!r}")
    return f"`{lines[0]}`".replace("|", "\\|")


def visible(cell: str) -> str:
    """A Markdown cell's text as a reader sees it: no code marks, emphasis or escapes."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", cell)
    return re.sub(r"`|\*\*|(?<!\w)\*|\*(?!\w)|\\(?=\|)", "", text)


def tolerance(value: float) -> str:
    """``1e-05`` as ``1e-5``."""
    return re.sub(r"e([+-])0*(\d)", lambda m: f"e{'-' if m.group(1) == '-' else ''}{m.group(2)}",
                  f"{value:g}")


_NUMBERED = re.compile(r"(\d+(?:\.\d+)*)\.?\s")


def short_place(stem: str, folder: str, section: str, compact: bool = False) -> str:
    """A section as a short link text: ``8 §2`` (notebook 8, section 2), ``8 §Summary`` —
    ``8`` alone with ``compact`` —, ``deep dive §3``."""
    match = re.fullmatch(r"(\d+)_\w+", stem)
    page = str(int(match.group(1))) if match and not folder else "deep dive"
    number = _NUMBERED.match(section)
    if number:
        return f"{page} §{number.group(1)}"
    if not section or (compact and section == "Summary"):
        return page
    return f"{page} §{mappings._plain(section)}"


def section_link(target: str, where: str, text: str) -> str:
    """An HTML link to a section of the built book (``notebooks/NN_x.html#id``): MyST links to
    a page, not to a heading's id. ``where`` is its title (the tooltip)."""
    return (f'<a class="sbs-sec" href="{html.escape(target)}" '
            f'title="{html.escape(where)}">{html.escape(text)}</a>')


def _target(link: str, anchor: str) -> str:
    return f"{link.removesuffix('.ipynb')}.html" + (f"#{anchor}" if anchor else "")


# --------------------------------------------------------------------------- the entries
def _torch_name(r: apimap.Row) -> str | None:
    key = r.key.removesuffix("()")
    if re.fullmatch(r"[A-Za-z_]\w*", key):
        return key
    return mappings.lead_name(f"`{r.torch.splitlines()[-1]}`")


def torch_spelling(r: apimap.Row) -> str:
    """The row's PyTorch side as one line: its ``spelling``, or its one-line snippet."""
    return r.spelling or r.torch


def mxnet_spelling(r: apimap.Row) -> str | None:
    """The row's MXNet side as one line of code (``mx_spelling``, or a one-line ``nd`` — or
    ``mx.np`` where ``nd`` has nothing — snippet), ``None`` if there is none."""
    if r.mx_spelling:
        return r.mx_spelling
    snippet = r.nd if r.nd is not None else r.np
    if snippet is not None and len(snippet.strip().splitlines()) == 1:
        return snippet.strip()
    return None


def _check(r: apimap.Row) -> str:
    if r.kind == "close":
        how = f"rtol {tolerance(r.rtol)}, atol {tolerance(r.atol)}"
    elif r.kind == "random":
        how = f"statistic, {apimap.N_RANDOM} draws"
    else:
        how = "semantics"
    return f"run: {how}"


def _map_source(r: apimap.Row, compact: bool = False) -> str:
    return section_link(r.target, r.where, short_place(apimap.MAP_NOTEBOOK, "",
                                                       apimap.MAP_SECTION, compact))


_SECTION_2 = re.compile(r"^# ## (\d+(?:\.\d+)*)\.?\s")


def _numbered_section(m) -> str:
    """The row's section heading, or — for an unnumbered ``###`` subsection — the number of
    the ``## N.`` section it sits in, read from the page's source above the row
    (``"3. …"``), so that its short link says ``6 §3``."""
    if _NUMBERED.match(m.section) or m.section == "Summary" or not m.line:
        return m.section
    source = mappings.NOTEBOOKS / (m.page + ".py")
    lines = source.read_text(encoding="utf-8").splitlines()[:m.line]
    for line in reversed(lines):
        number = _SECTION_2.match(line)
        if number:
            return f"{number.group(1)}. {m.section}"
    return m.section


def _row_source(m, compact: bool = False) -> str:
    """A short link to the section of a table row (a Mapping or a HowTo)."""
    return section_link(m.target, m.where,
                        short_place(m.stem, m.folder, _numbered_section(m), compact))


def map_entries() -> list[Entry]:
    out = []
    for r in apimap.ROWS:
        names = ", ".join(f"`{n.strip()}`" for n in r.api.split(", "))
        mxnet = names if r.mxnet_name else protect(r.api)
        note = r.what if r.from_seed else f"{r.what}; {r.verdict}"
        out.append(Entry(
            mxnet=mxnet, pytorch=code(torch_spelling(r)), mxnet_name=r.mxnet_name,
            pytorch_name=_torch_name(r), note=protect(f"*{r.status}*; {note}"), check=_check(r),
            source=_map_source(r), key=MAP + r.key))
    return out


def notebook_entries(found: mappings.Tables) -> list[Entry]:
    out = []
    for m in found.rows:
        notes = ([m.label] if m.label else []) + [
            f"{h}: {c}" if h else c for h, c in m.notes if c not in ("", "—")]
        out.append(Entry(
            mxnet=protect(m.mxnet, m.folder) or "—", pytorch=protect(m.pytorch, m.folder) or "—",
            mxnet_name=mappings.lead_name(m.mxnet), pytorch_name=mappings.lead_name(m.pytorch),
            note=protect("; ".join(notes), m.folder), check="shown", source=_row_source(m),
            key=m.key))
    return out


def table(entries: list[Entry], side: str) -> list[str]:
    """The table for readers coming from ``side`` ("mxnet" or "pytorch")."""
    first, second = ("MXNet", "PyTorch") if side == "mxnet" else ("PyTorch", "MXNet")
    lines = [f"| {first} | {second} | what, note | check | § |", "|---|---|---|---|---|"]

    def name(e):
        return e.mxnet_name if side == "mxnet" else e.pytorch_name

    named = True
    for e in sorted(entries, key=lambda e: mappings.sort_key(
            name(e), e.mxnet if side == "mxnet" else e.pytorch)):
        if named and name(e) is None:
            named = False
            lines.append(f"| *no one {first} API name:* | | | | |")
        a, b = (e.mxnet, e.pytorch) if side == "mxnet" else (e.pytorch, e.mxnet)
        lines.append(f"| {a} | {b} | {e.note} | {e.check} | {e.source} |")
    return lines


def howto_table(found: mappings.Tables) -> list[str]:
    """The porting tasks: each way's cell, and the page."""
    lines = ["| task | MXNet → PyTorch | PyTorch → MXNet | § |", "|---|---|---|---|"]
    for h in found.howtos:
        cells = [protect(h.label, h.folder) or "—"] + [
            protect(h.toward(side), h.folder) or "—" for side in ("pytorch", "mxnet")]
        lines.append(f"| {' | '.join(cells)} | {_row_source(h)} |")
    return lines


def helper_table(found: tuple[helpers.Helper, ...]) -> list[str]:
    """One row per module of the helper package: what it does, its public names, and the
    first sections that use it."""
    lines = ["| module | what it does | public names | used in |", "|---|---|---|---|"]
    for module in [h for h in found if not h.name]:
        names = [h.name for h in found if h.module == module.module and h.name]
        uses = ", ".join(section_link(_target(u.link, u.anchor if u.section else ""),
                                      u.where, short_place(u.stem, u.folder, u.section))
                         for u in module.uses[:3]) or "no notebook (see its docstring)"
        if len(module.uses) > 3:
            uses += f"; {len(module.uses) - 3} more"
        lines.append(f"| `sidebyside.{module.module}` | {protect(module.summary)} | "
                     f"{', '.join(f'`{n}`' for n in names) or '—'} | {uses} |")
    return lines


def skipped_list(found: mappings.Tables) -> list[str]:
    lines = []
    for t in found.skipped:
        label = mappings.page_label(t.stem, t.folder, t.title)
        header = ", ".join(protect(h) for h in t.header if h) or "none"
        rows = f"{t.rows} row" + ("s" if t.rows != 1 else "")
        lines.append(f"- [{label}]({mappings.page_link(t.stem, t.folder)}) "
                     f"§{protect(t.section, t.folder)}: columns {header}; {rows}")
    return lines


# ------------------------------------------------------------------------- the cheat sheet
def _sheet_cell(text: str, selector: str, side: str) -> str:
    if "\n" in text.strip() or "<br>" in text:
        raise SelectorError(f"{selector!r}: the {side} cell is not one line: {text!r}")
    if re.search(r"\]\(|<a\b", text):
        raise SelectorError(f"{selector!r}: the {side} cell holds a link: {text!r}")
    if len(visible(text)) > MAX_CELL:
        raise SelectorError(f"{selector!r}: the {side} cell is {len(visible(text))} characters "
                            f"(at most {MAX_CELL} fit a printed line): {visible(text)!r}")
    return text


def short_key(m: mappings.Mapping) -> str:
    """A row's key with its section's number for the heading: ``"08_optimizers_trainer §7:
    `StepLR(opt, step_size, gamma)`"`` (the key itself where the section has no number)."""
    number = _NUMBERED.match(m.section)
    if not number:
        return m.key
    return f"{m.page} §{number.group(1)}: " + m.key.split(f" §{m.section}: ", 1)[1]


def resolve(selector: str, found: mappings.Tables) -> Entry:
    """The cheat-sheet entry a selector names: ``"map: <key>"`` for an API-map row, a
    ``Mapping.key`` (or its :func:`short_key`) for a row of a notebook's table. Raises :class:`SelectorError` unless
    exactly one row matches and both of its cells are one short line without links."""
    if selector.startswith(API):
        return _resolve_api(selector)
    if selector.startswith(MAP):
        rows = [r for r in apimap.ROWS if r.key == selector[len(MAP):]]
    else:
        rows = [m for m in found.rows if selector in (m.key, short_key(m))]
    if len(rows) != 1:
        raise SelectorError(f"cheat-sheet selector {selector!r} matches {len(rows)} rows, "
                            "not one (edit SHEET in tools/make_cheatsheet.py)")
    (row,) = rows
    if isinstance(row, apimap.Row):
        mx = mxnet_spelling(row)
        if mx is None:
            raise SelectorError(f"{selector!r}: the API-map row has no one-line MXNet spelling "
                                "(give it mx_spelling= in src/sidebyside/apimap/rows.py)")
        if "\n" in torch_spelling(row).strip():
            raise SelectorError(f"{selector!r}: the API-map row's torch snippet has several "
                                "lines and no spelling=")
        pytorch, mxnet = code(torch_spelling(row)), code(mx)
        source = _map_source(row, compact=True)
    else:
        pytorch, mxnet = protect(row.pytorch, row.folder), protect(row.mxnet, row.folder)
        source = _row_source(row, compact=True)
    return Entry(mxnet=_sheet_cell(mxnet, selector, "MXNet"),
                 pytorch=_sheet_cell(pytorch, selector, "PyTorch"),
                 mxnet_name=mappings.lead_name(mxnet), pytorch_name=mappings.lead_name(pytorch),
                 note="", check="", source=source, key=selector)


def _resolve_api(selector: str) -> Entry:
    """A catalogue entry (``"api: mx.nd.concat"``): the MXNet name as a script spells it, the
    checked counterpart, a link to the section that teaches it (else its row on the page of
    MXNet's API)."""
    from sidebyside.catalogue import index

    e = index.by_key().get(selector[len(API):])
    if e is None or e.check is None:
        raise SelectorError(f"cheat-sheet selector {selector!r}: no checked catalogue entry "
                            "has that key (see book/mxnet_api.md)")
    spelled = e.mx.removeprefix("mx.").removeprefix("gluon.")
    mxnet = code(f"{spelled}(…)" + (f" [{e.form}]" if e.form else ""))
    stem, folder, heading = e._teach_parts()
    label = short_place(stem, folder, heading, compact=True) if stem else "API"
    return Entry(mxnet=_sheet_cell(mxnet, selector, "MXNet"),
                 pytorch=_sheet_cell(code(e.torch), selector, "PyTorch"),
                 mxnet_name=mappings.lead_name(mxnet), pytorch_name=mappings.lead_name(
                     code(e.torch)), note="", check="",
                 source=section_link(e.target, e.where, label), key=selector)


def resolve_sheet(found: mappings.Tables, sheet: dict[str, tuple[str, ...]] | None = None
                  ) -> dict[str, list[Entry]]:
    """Every topic's entries; a selector used twice is an error too."""
    sheet = SHEET if sheet is None else sheet
    seen: set[str] = set()
    out = {}
    for topic, selectors in sheet.items():
        for s in selectors:
            if s in seen:
                raise SelectorError(f"cheat-sheet selector {s!r} is listed twice")
            seen.add(s)
        out[topic] = [resolve(s, found) for s in selectors]
    return out


def resolve_gotchas(chosen=None) -> list[tuple[str, gotchas.Detector]]:
    chosen = GOTCHAS if chosen is None else chosen
    out = []
    for tag, name in chosen:
        try:
            out.append((tag, gotchas.by_name(name)))
        except KeyError as err:
            raise SelectorError(str(err)) from None
    return out


def _topic_row(topic: str) -> str:
    return f'| <span class="sbs-topic">{html.escape(topic)}</span> | | |'


def sheet_lines(topics: dict[str, list[Entry]], found_gotchas, side: str) -> list[str]:
    """One sheet: the table for readers coming from ``side``, rows sorted within each topic
    by the name in the first column, then the gotchas."""
    first, second = ("mxnet", "pytorch") if side == "mxnet" else ("pytorch", "mxnet")
    lines = [f":::{{div}} sbs-sheet sbs-sheet-{side}", "",
             f"| {SIDES[first]} | {SIDES[second]} | § |", "|---|---|---|"]
    for topic, entries in topics.items():
        lines.append(_topic_row(topic))
        for e in sorted(entries, key=lambda e: mappings.sort_key(
                getattr(e, f"{first}_name"), visible(getattr(e, first)))):
            lines.append(f"| {getattr(e, first)} | {getattr(e, second)} | {e.source} |")
    lines += ["", '<p class="sbs-gotchas-title">Five gotchas, each asserted in the section '
              "linked</p>", ""]
    for i, (tag, d) in enumerate(found_gotchas, 1):
        link = section_link(_target(d.link, d.anchor), d.where,
                            short_place(Path(d.link).stem, Path(d.link).parent.name
                                        if Path(d.link).parent.name == mappings.DEEP_DIVES
                                        else "", d.where.split(", §", 1)[-1]))
        lines.append(f"{i}. **{tag}**: {protect(d.title)} ({link})")
    return lines + ["", f'<p class="sbs-legend">{LEGEND}</p>', "", ":::"]


def render_sheet() -> tuple[str, dict]:
    found = mappings.read_all()
    topics = resolve_sheet(found)
    picked = resolve_gotchas()
    rows = sum(len(v) for v in topics.values())
    from_map = sum(e.key.startswith(MAP) for v in topics.values() for e in v)
    from_api = sum(e.key.startswith(API) for v in topics.values() for e in v)
    from_tables = rows - from_map - from_api
    stats = {"topics": len(topics), "rows": rows, "API-map rows": from_map,
             "catalogue entries": from_api, "notebook rows": from_tables,
             "gotchas": len(picked)}
    lines = [
        "---",
        "html_theme.sidebar_secondary.remove: true",
        "---",
        "",
        "% Written by tools/make_cheatsheet.py (`make cheatsheet`) from the rows it selects: edit",
        "% the notebooks' tables, src/sidebyside/apimap/rows.py or the tool's SHEET, not this file.",
        "",
        "# Cheat sheet: PyTorch ⇄ MXNet Gluon",
        "",
        ":::{div} sbs-cheatsheet",
        "",
        f"The {rows} spellings a port meets most, in {len(topics)} topics, and the "
        f"{len(picked)} worst gotchas. Each row is one the book runs — {from_map} from the "
        f"executable API map of notebook 2, {from_api} from the catalogue keyed by MXNet's "
        f"API (<a href=\"mxnet_api.html\">all of MXNet's API</a>, each entry checked), "
        f"{from_tables} from the notebooks' tables — "
        "with a link to the section that shows it. Two sheets, one A4 page each: from "
        "PyTorch, then from MXNet, each sorted within a topic by the name in its first column.",
        "",
        f'<p class="sbs-screen-only"><a class="sbs-pdf" href="{PDF}" download>Download the two '
        "sheets as a PDF (A4)</a> · or print this page · every mapping, searchable: "
        '<a href="all_mappings.html">all mappings</a></p>',
        "",
        ":::",
        "",
        "## From PyTorch to MXNet Gluon",
        "",
        *sheet_lines(topics, picked, "pytorch"),
        "",
        "## From MXNet Gluon to PyTorch",
        "",
        *sheet_lines(topics, picked, "mxnet"),
        "",
    ]
    return "\n".join(lines), stats


# ----------------------------------------------------------------------- all the mappings
def render_all() -> tuple[str, dict]:
    found = mappings.read_all()
    entries = map_entries() + notebook_entries(found)
    package = helpers.read_all()
    modules = [h for h in package if not h.name]
    stats = {"API map rows": len(apimap.ROWS), "notebook rows": len(found.rows),
             "rows per table": len(entries), "notebook tables read": found.tables,
             "porting tasks": len(found.howtos), "porting tables": found.howto_tables,
             "helper modules": len(modules), "helper names": len(package) - len(modules),
             "tables skipped": len(found.skipped),
             "rows of skipped tables": sum(t.rows for t in found.skipped)}
    pages = len({m.page for m in found.rows})
    lines = [
        "---",
        "html_theme.sidebar_secondary.remove: true",
        "---",
        "",
        "% Written by tools/make_cheatsheet.py (`make cheatsheet`): edit the notebooks or",
        "% src/sidebyside/apimap/rows.py, not this file.",
        "",
        "# All mappings: MXNet ⇄ PyTorch",
        "",
        ":::{div} sbs-all-mappings",
        "",
        f"Every mapping in this book on one page: the {len(apimap.ROWS)} rows of the executable "
        f"API map ([notebook 2](notebooks/{apimap.MAP_NOTEBOOK}.ipynb)) and the "
        f"{len(found.rows)} rows of the mapping tables of {pages} notebooks and deep dives. "
        "The first table is sorted by the MXNet name, the second by the PyTorch name (by the "
        "last part of the name: `nd.linalg.gemm2` under *gemm2*); rows that name no single "
        "API come last in each. *check* says how a row is known to hold: *run* — notebook 2 "
        "runs both sides on the same inputs and compares them within the tolerance given (or "
        "a statistic of random samples, or the semantics) —, *shown* — a row of a notebook's "
        "table, whose section shows it working. *§* links to that section: *8 §2* is "
        "notebook 8, section 2. After the two tables: the "
        f"{len(found.howtos)} porting tasks of the tables written by direction, the helper "
        f"package's {len(modules)} modules, and the tables that are not mappings. The "
        '<a href="cheatsheet.html">cheat sheet</a> holds the few dozen rows a port meets most.',
        "",
        ":::",
        "",
        "```{tip}",
        "Looking for one name? Type it in the book's search box (this page is indexed), or use "
        "your browser's find on this page (Ctrl+F / ⌘F): every name appears in both tables. "
        "From Python, `sidebyside.apimap.find(\"Dense\")` returns these rows, and also the "
        "[error index](errors.md)'s entries and the helpers that hold the name, each with the "
        "notebook section that teaches it; a pasted line such as "
        "`find(\"Dense(128, activation='relu')\")` finds the rows of the names it uses.",
        "```",
        "",
        "## MXNet → PyTorch",
        "",
        *table(entries, "mxnet"),
        "",
        "## PyTorch → MXNet",
        "",
        *table(entries, "pytorch"),
        "",
        "## Porting tasks, either way",
        "",
        "The tables whose columns are the two directions of a port.",
        "",
        *howto_table(found),
        "",
        "## The helper package",
        "",
        "`sidebyside`'s modules, their public names and the first sections that use them "
        "(`sidebyside.apimap.find` knows every name and each section that uses it).",
        "",
        *helper_table(package),
        "",
        "## Tables that are not mappings",
        "",
        f"The other {stats['tables skipped']} tables ({stats['rows of skipped tables']} rows) "
        "have no PyTorch column and no MXNet column, and no porting direction: the seed claims "
        "each notebook checks, byte layouts, lists of one framework's options.",
        "",
        *skipped_list(found),
        "",
    ]
    return "\n".join(lines), stats


# ------------------------------------------------------------------------------ command
PAGES = ((OUT, render_sheet), (OUT_ALL, render_all))


def render() -> dict[Path, tuple[str, dict]]:
    """Each page's path, text and counts."""
    return {path: make() for path, make in PAGES}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if book/cheatsheet.md or "
                             "book/all_mappings.md is out of date")
    parser.add_argument("--out-dir", type=Path, default=OUT.parent,
                        help="the folder to write (or check) the two pages in (default book/)")
    args = parser.parse_args(argv)
    try:
        pages = render()
    except SelectorError as err:
        print(f"make_cheatsheet: {err}", file=sys.stderr)
        return 2
    status = 0
    for path, (text, stats) in pages.items():
        out = args.out_dir / path.name
        if args.check:
            same = out.exists() and out.read_text(encoding="utf-8") == text
            print(f"{out.name}: {'up to date' if same else 'OUT OF DATE: run make cheatsheet'}")
            status |= 0 if same else 1
        else:
            out.write_text(text, encoding="utf-8")
            print(f"wrote {out.name}: " + ", ".join(f"{k} {v}" for k, v in stats.items()))
    return status


if __name__ == "__main__":
    sys.exit(main())
