"""Write book/cheatsheet.md: every mapping of the book on one page, from either side.

Two tables: "MXNet → PyTorch" sorted by the MXNet name, "PyTorch → MXNet" sorted by the
PyTorch name. The rows are the API map's (``sidebyside.apimap``: each executed in notebook 2,
with its tolerance) and the mapping tables of the tutorials and deep dives
(``sidebyside.mappings``), each with a link to the page that shows it. Then the porting tasks
(the tables whose columns are directions, ``MXNet → PyTorch | PyTorch → MXNet``), the helper
package's modules with their public names and where they are used, and the tables that are
not mappings, each named. Run ``make cheatsheet`` (or this file) after changing any of them;
``--check`` exits 1 when the committed page differs from what would be written
(tests/test_mappings.py checks the same).
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

from sidebyside import apimap, mappings
from sidebyside.apimap import helpers

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
import pagegen  # noqa: E402  (tools/pagegen.py)

OUT = ROOT / "book" / "cheatsheet.md"


@dataclass(frozen=True)
class Entry:
    mxnet: str         # Markdown
    pytorch: str       # Markdown
    mxnet_name: str | None
    pytorch_name: str | None
    note: str          # Markdown
    check: str         # Markdown
    source: str        # Markdown: a link to the notebook, and the section


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
    """Code lines as code spans, one per line."""
    return "<br>".join(f"`{ln.strip()}`" for ln in snippet.splitlines() if ln.strip()
                       ).replace("|", "\\|")


# --------------------------------------------------------------------------- the entries
def _torch_name(r: apimap.Row) -> str | None:
    key = r.key.removesuffix("()")
    if re.fullmatch(r"[A-Za-z_]\w*", key):
        return key
    return mappings.lead_name(f"`{r.torch.splitlines()[-1]}`")


def _check(r: apimap.Row) -> str:
    if r.kind == "close":
        how = f"rtol {r.rtol:g}, atol {r.atol:g}"
    elif r.kind == "random":
        how = f"a statistic of {apimap.N_RANDOM} samples"
    else:
        how = "its semantics"
    return f"*{r.status}*; executed in notebook 2: {how}"


def map_entries() -> list[Entry]:
    out = []
    for r in apimap.ROWS:
        names = ", ".join(f"`{n.strip()}`" for n in r.api.split(", "))
        mxnet = names if r.mxnet_name else protect(r.api)
        note = r.what if r.from_seed else f"{r.what}; {r.verdict}"
        out.append(Entry(
            mxnet=mxnet, pytorch=code(r.torch), mxnet_name=r.mxnet_name,
            pytorch_name=_torch_name(r), note=protect(note), check=_check(r),
            source=f"[notebook 2]({r.link}) §{protect(apimap.MAP_SECTION)}"))
    return out


def _shown_in(m) -> str:
    """A link to the page of a table row (a Mapping or a HowTo), and its section."""
    label = mappings.page_label(m.stem, m.folder, m.title)
    return f"[{protect(label)}]({m.link}) §{protect(m.section, m.folder)}"


def notebook_entries(found: mappings.Tables) -> list[Entry]:
    out = []
    for m in found.rows:
        notes = ([m.label] if m.label else []) + [
            f"{h}: {c}" if h else c for h, c in m.notes if c not in ("", "—")]
        out.append(Entry(
            mxnet=protect(m.mxnet, m.folder) or "—", pytorch=protect(m.pytorch, m.folder) or "—",
            mxnet_name=mappings.lead_name(m.mxnet), pytorch_name=mappings.lead_name(m.pytorch),
            note=protect("; ".join(notes), m.folder), check="shown in the notebook",
            source=_shown_in(m)))
    return out


def table(entries: list[Entry], side: str) -> list[str]:
    """The table for readers coming from ``side`` ("mxnet" or "pytorch")."""
    first, second = ("MXNet", "PyTorch") if side == "mxnet" else ("PyTorch", "MXNet")
    lines = [f"| {first} | {second} | what, note | check | shown in |",
             "|---|---|---|---|---|"]
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
    lines = ["| task | MXNet → PyTorch | PyTorch → MXNet | shown in |", "|---|---|---|---|"]
    for h in found.howtos:
        cells = [protect(h.label, h.folder) or "—"] + [
            protect(h.toward(side), h.folder) or "—" for side in ("pytorch", "mxnet")]
        lines.append(f"| {' | '.join(cells)} | {_shown_in(h)} |")
    return lines


def helper_table(found: tuple[helpers.Helper, ...]) -> list[str]:
    """One row per module of the helper package: what it does, its public names, and the
    first sections that use it."""
    lines = ["| module | what it does | public names | used in |", "|---|---|---|---|"]
    for module in [h for h in found if not h.name]:
        names = [h.name for h in found if h.module == module.module and h.name]
        uses = "; ".join(f"[{protect(mappings.page_label(u.stem, u.folder, u.title))}]({u.link})"
                         + (f" §{protect(u.section, u.folder)}" if u.section else "")
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


def render() -> tuple[str, dict]:
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
        "# Cheat sheet: MXNet ⇄ PyTorch",
        "",
        f"Every mapping in this book on one page: the {len(apimap.ROWS)} rows of the executable "
        f"API map ([notebook 2](notebooks/{apimap.MAP_NOTEBOOK}.ipynb), each run on the same "
        f"inputs on both sides and compared within the tolerance shown) and the "
        f"{len(found.rows)} rows of the mapping tables of {pages} notebooks and deep dives, each "
        "linked to the page that shows it. The first table is sorted by the MXNet name, the "
        "second by the PyTorch name (by the last part of the name: `nd.linalg.gemm2` under "
        "*gemm2*); rows that name no single API come last in each. After them: the "
        f"{len(found.howtos)} porting tasks of the tables written by direction, the helper "
        f"package's {len(modules)} modules, and the tables that are not mappings.",
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


def main(argv: list[str] | None = None) -> int:
    return pagegen.main(render, OUT, "cheatsheet", __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    sys.exit(main())
