"""The API map as Markdown tables: the map itself from either side, what the seed said, and
the rows added to the seed's."""

from __future__ import annotations

from .. import mappings
from .rows import ROWS, SOURCES
from .run import Result

__all__ = ["NO_API_NAME", "to_markdown", "seed_markdown", "added_markdown"]

NO_API_NAME = "*no one MXNet name:*"  # heads the rows to_markdown(direction="mxnet") puts last


def _cell(code: str | None) -> str:
    if code is None:
        return "—"
    return "<br>".join(f"`{ln}`" for ln in code.splitlines() if ln.strip()).replace(
        "|", "\\|")


def _text(s: str) -> str:
    return s.replace("|", "\\|")


def _check_cell(res: Result | None) -> str:
    if res is None:
        return "not run"
    if not res.ok:
        return "✘ " + _text(res.summary)
    if res.row.kind == "close":
        worst = max(res.max_diff.values())
        return "✔ exact" if worst == 0 else f"✔ Δ≤{worst:.0e}"
    return "✔ " + ("statistic" if res.row.kind == "random" else "semantics")


def _added(source: str) -> str:
    return f"<br>*(added for {_text(SOURCES.get(source, source))})*"


def to_markdown(results: list[Result] | None = None, rows=ROWS, table: str | None = None,
                direction: str = "torch") -> str:
    """A Markdown table of the map (of one of its tables, ``"tensor"``, ``"nn"`` or
    ``"device"``, with ``table``).

    ``direction="torch"`` lists PyTorch first (a reader coming from PyTorch);
    ``direction="mxnet"`` sorts by the MXNet name (:attr:`Row.mxnet_name`, by its last
    component: ``nd.linalg.gemm2`` under *gemm2*) and puts the MXNet side first (coming from
    Gluon); the rows whose MXNet side is no one API (``arithmetic``) come last, under a
    :data:`NO_API_NAME` line.
    Each row shows its status; with ``results`` also its check: ✔ and the largest difference for
    deterministic rows, ✔ statistic / semantics for the others, ✘ and the reason on failure.
    A row that is not the seed's says what it was added for under its status.
    :func:`seed_markdown` lists what the seed said for each row.
    """
    if direction not in ("torch", "mxnet"):
        raise ValueError("direction must be 'torch' or 'mxnet'")
    by_row = {r.row.key: r for r in results or []}
    rows = [r for r in rows if table is None or r.table == table]
    if direction == "mxnet":
        # by the MXNet name (nd.arccos under "arccos"); rows that name no API go last
        rows = sorted(rows, key=lambda r: mappings.sort_key(r.mxnet_name, r.api))
        head = ["MXNet names", "MXNet", "PyTorch"]
    else:
        head = ["row", "PyTorch", "MXNet"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    named = True
    for r in rows:
        if direction == "mxnet" and named and r.mxnet_name is None:
            named = False  # the rows sorted last name no API: head them
            lines.append(f"| {NO_API_NAME} |" + " |" * (len(head) - 1))
        mxnet = "<br>".join(f"{api}:<br>{_cell(code)}" for api, code in (
            ("`mx.nd`", r.nd), ("`mx.np` / `npx`", r.np)) if code is not None) or "—"
        mark = "" if r.from_seed else _added(r.source)
        label = f"**{_text(r.key)}**<br>*{r.status}*{mark}"
        if results is not None:
            label += "<br>" + _check_cell(by_row.get(r.key))
        if direction == "mxnet":
            cells = [f"{_text(r.api)}<br>*{r.status}*{mark}", mxnet, _cell(r.torch)]
        else:
            cells = [label, _cell(r.torch), mxnet]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def seed_markdown(rows=ROWS, only_notes: bool = True) -> str:
    """What the seed's MXNet cell said for each row, and what is true.

    The cell is shown as intended (:data:`SEED_AS_INTENDED`), with the scraped text beside
    it where the two differ. With ``only_notes`` the rows whose verdict is a plain "right"
    are left out. Rows that are not the seed's are never listed (see :func:`added_markdown`).
    """
    lines = ["| row | the seed's MXNet cell | verdict |", "|---|---|---|"]
    for r in rows:
        if not r.from_seed or (only_notes and r.verdict == "right"):
            continue
        cell = _cell(r.seed_mxnet_intended)
        if r.seed_mxnet_intended != r.seed_mxnet:
            cell += f"<br>*(scraped as* `{_text(r.seed_mxnet)}`*)*"
        lines.append(f"| **{_text(r.key)}** | {cell} | {_text(r.verdict)} |")
    return "\n".join(lines)


def added_markdown(rows=ROWS, source: str | None = None) -> str:
    """The rows that are not the seed's (those of one ``source`` with it): what each was
    added for, its status and its note."""
    lines = ["| row | added for | status | note |", "|---|---|---|---|"]
    for r in rows:
        if not r.from_seed and source in (None, r.source):
            lines.append(f"| **{_text(r.key)}** | {_text(SOURCES.get(r.source, r.source))} | "
                         f"{r.status} | "
                         f"{_text(r.verdict)} |")
    return "\n".join(lines)
