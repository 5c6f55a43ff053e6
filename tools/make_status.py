"""Write book/status.md: the state of each notebook's stored run, read from the notebooks.

Per notebook: title, cells and code cells, the execution time of the stored run (the sum
over code cells of ``metadata.execution``: ``iopub.execute_input`` → ``shell.execute_reply``),
the date of that run, whether any cell not tagged ``raises-exception`` stored an error, the
Python version of the kernel, and the devices line the notebook printed (a column whose value
is the same in every row is said once, above the table). The versions come from notebook 1's
stored environment report. The page says which run each build of the book shows: ``make
book`` executes the notebooks (``execute_notebooks: cache``), the offline test build renders
the stored outputs.

Everything comes from the committed .ipynb files, so the page is a pure function of them:
``make status`` (or this file) rewrites it after ``make notebooks``; ``--check`` exits 1 when
the committed page differs from what would be written (tests/test_reference_pages.py checks
the same).
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
import pagegen  # noqa: E402  (tools/pagegen.py)

OUT = ROOT / "book" / "status.md"
NOTEBOOKS = ROOT / "notebooks"
MUTATION = ROOT / "benchmarks" / "results" / "mutation.json"
ENV_NOTEBOOK = "01_install_and_environment"
VERSION_KEYS = ("python", "torch", "torchvision", "mxnet", "numpy")
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
DEVICE_LINE = re.compile(r"^(torch|mxnet): (\S+(?: \S+)*?)(?: — .*)?$", re.M)


@dataclass(frozen=True)
class Status:
    stem: str                  # "05_autograd", or "deep_dives/predict_mode" for a deep dive
    number: int | None         # None: a deep dive
    title: str
    cells: int
    code_cells: int
    seconds: float | None      # None: no timestamps stored
    timed_cells: int
    dates: tuple[str, ...]     # the distinct dates of the run, sorted
    raising: int               # cells tagged raises-exception
    unexpected: tuple[int, ...]  # cells with an error output that are not tagged
    silent: tuple[int, ...]    # tagged cells without an error output
    python: str
    devices: str               # "torch: cpu · mxnet: cpu(0)", or ""

    @property
    def ok(self) -> bool:
        return not self.unexpected and not self.silent


def _source(cell) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def _text(output) -> str:
    """The text of a stream, result or display output."""
    text = output.get("text") or output.get("data", {}).get("text/plain") or ""
    return ANSI.sub("", "".join(text) if isinstance(text, list) else text)


def _stamp(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def read(path: Path) -> Status:
    nb = json.loads(path.read_text(encoding="utf-8"))
    cells = nb["cells"]
    code = [c for c in cells if c["cell_type"] == "code"]
    first = _source(cells[0]).strip().splitlines()[0] if cells else ""
    title = re.sub(r"^#\s*(\d+\s*·\s*)?", "", first).strip()
    seconds, timed, dates = 0.0, 0, set()
    unexpected, silent, raising = [], [], 0
    devices = {}
    for i, cell in enumerate(cells):
        if cell["cell_type"] != "code":
            continue
        run = cell.get("metadata", {}).get("execution", {})
        start, end = run.get("iopub.execute_input"), run.get("shell.execute_reply")
        if start and end:
            seconds += (_stamp(end) - _stamp(start)).total_seconds()
            timed += 1
            dates.add(_stamp(start).date().isoformat())
        tagged = "raises-exception" in cell.get("metadata", {}).get("tags", [])
        errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
        raising += tagged
        if errors and not tagged:
            unexpected.append(i)
        if tagged and not errors:
            silent.append(i)
        for out in cell.get("outputs", []):
            for fw, dev in DEVICE_LINE.findall(_text(out)):
                devices.setdefault(fw, dev)
    python = nb.get("metadata", {}).get("language_info", {}).get("version", "")
    return Status(
        stem=f"deep_dives/{path.stem}" if path.parent.name == "deep_dives" else path.stem,
        number=None if path.parent.name == "deep_dives" else int(path.name[:2]),
        title=title, cells=len(cells),
        code_cells=len(code), seconds=seconds if timed else None, timed_cells=timed,
        dates=tuple(sorted(dates)), raising=raising, unexpected=tuple(unexpected),
        silent=tuple(silent), python=python,
        devices=" · ".join(f"{fw}: {devices[fw]}" for fw in ("torch", "mxnet") if fw in devices))


def versions(path: Path) -> dict[str, str]:
    """Notebook 1's environment report (``name   version`` lines), as stored."""
    found: dict[str, str] = {}
    nb = json.loads(path.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        for out in cell.get("outputs", []) if cell["cell_type"] == "code" else []:
            for name, value in re.findall(r"^(\w[\w .()]*?)\s{2,}(\S.*)$", _text(out), re.M):
                found.setdefault(name.strip(), value.strip())
    return found


def read_all(notebooks: Path = NOTEBOOKS) -> list[Status]:
    """The tutorials in order, then the deep dives (notebooks/deep_dives/)."""
    return [read(p) for p in sorted(notebooks.glob("[0-9][0-9]_*.ipynb"))] + [
        read(p) for p in sorted(notebooks.glob("deep_dives/*.ipynb"))]


def _seconds(s: float | None) -> str:
    if s is None:
        return "not recorded"
    return f"{s:.1f} s" if s < 120 else f"{s:.1f} s ({s / 60:.1f} min)"


def _status(s: Status) -> str:
    if s.ok:
        return "ok"
    parts = []
    if s.unexpected:
        parts.append("**error** in cell " + ", ".join(map(str, s.unexpected)))
    if s.silent:
        parts.append("**no error** in tagged cell " + ", ".join(map(str, s.silent)))
    return "; ".join(parts)


def _escape(text: str) -> str:
    return text.replace("|", "\\|")


def mutation_lines(path: Path = MUTATION) -> list[str]:
    """The mutation run's section (tools/mutate.py's ``status_section``), or a line saying that
    no full run is committed."""
    if not path.exists():
        return ["## Mutation run", "",
                f"No mutation run is committed (`{path.relative_to(ROOT)}`): `make mutate` "
                "writes it.", ""]
    import mutate  # noqa: PLC0415  (tools/mutate.py: only its standard-library part is used)

    results = json.loads(path.read_text())
    return [mutate.status_section(results).rstrip("\n"), ""]


# the time budget of a stored run on two cores (CONTRIBUTING.md, "One sitting per notebook")
BUDGET_NOTEBOOK = 60.0        # seconds, any notebook, deep dives included
BUDGET_NUMBERED = 300.0       # seconds, the numbered notebooks together


def budget_line(rows: list[Status]) -> str:
    """The budget, what the stored runs spend of it, and every notebook over it."""
    numbered = sum(s.seconds or 0 for s in rows if s.number is not None)
    deep = sum(s.seconds or 0 for s in rows if s.number is None)
    over = [f"{s.number or s.stem} ({s.seconds:.1f} s)" for s in rows
            if s.seconds is not None and s.seconds > BUDGET_NOTEBOOK]
    verdict = "within" if numbered <= BUDGET_NUMBERED else "**over**"
    return (f"Time budget (two cores): each notebook at most {BUDGET_NOTEBOOK:.0f} s, the "
            f"numbered notebooks together at most {BUDGET_NUMBERED:.0f} s. The stored runs: "
            f"numbered notebooks {numbered:.1f} s ({verdict}), deep dives {deep:.1f} s; over "
            f"{BUDGET_NOTEBOOK:.0f} s: " + (", ".join(f"**{o}**" for o in over) or "none") + ".")


def render(notebooks: Path = NOTEBOOKS, mutation: Path = MUTATION) -> tuple[str, dict]:
    rows = read_all(notebooks)
    env_path = notebooks / f"{ENV_NOTEBOOK}.ipynb"
    env = versions(env_path) if env_path.exists() else {}
    timed = [s.seconds for s in rows if s.seconds is not None]
    total = sum(timed)
    dates = sorted({d for s in rows for d in s.dates})
    stats = {"notebooks": len(rows), "cells": sum(s.cells for s in rows),
             "code cells": sum(s.code_cells for s in rows), "seconds": round(total, 1),
             "ok": sum(s.ok for s in rows)}
    when = (dates[0] if len(dates) == 1 else f"{dates[0]} to {dates[-1]}") if dates else \
        "not recorded"
    lines = [
        "% Written by tools/make_status.py (`make status`): edit the notebooks, not this file.",
        "",
        "# Status of the notebooks",
        "",
        "The numbers on this page are those of the **stored outputs**: the outputs committed "
        "in each notebook, from one run by its maintainer. Which run a copy of the book shows "
        "depends on how it was built. `make book` (and `make all`) executes the notebooks on "
        "the machine that builds it (`execute_notebooks: cache` in `book/_config.yml`; "
        "jupyter-cache keeps a notebook's outputs until its code or its environment changes), "
        "so that book shows that machine's run, not the one counted here. The offline test "
        "build (`tests/test_book.py`) turns execution off and renders the stored outputs, the "
        "run counted here. CI re-executes every notebook with nbval and compares what it "
        "prints with the stored outputs. Timings, dates and devices below are therefore those "
        "of the machine and the day of the stored run, not of your machine. To refresh them: "
        "`make notebooks && make status`.",
        "",
        f"Stored run: {when}. Total: {stats['notebooks']} notebooks, {stats['cells']} cells, "
        f"{stats['code cells']} code cells, {_seconds(total if timed else None)} of execution "
        f"({len(timed)} of {len(rows)} notebooks timed); {stats['ok']} of {len(rows)} "
        "without an unexpected error.",
        "",
        budget_line(rows),
        "",
        "## Versions",
        "",
        f"From the environment report stored in [notebook 1](notebooks/{ENV_NOTEBOOK}.ipynb):",
        "",
        "| package | version |",
        "|---|---|",
        *[f"| {k} | {_escape(env[k])} |" for k in VERSION_KEYS if k in env],
        *[f"| {k} | {_escape(env[k])} |" for k in ("torch built for CUDA", "mxnet GPUs visible",
                                                  "torch.cuda.is_available()") if k in env],
        "",
        "## Notebooks",
        "",
        "*Status* is **ok** when no cell stored an error except those tagged "
        "`raises-exception` (listed in the [index of error messages](errors.md)), and each "
        "of those did.",
        "",
    ]
    # a column with the same value in every row is said once, above the table
    pythons = {s.python or "—" for s in rows}
    device_sets = {_escape(s.devices) or "—" for s in rows}
    same = []
    if len(pythons) == 1:
        same.append(f"ran on Python {next(iter(pythons))}")
    if len(device_sets) == 1:
        same.append(f"printed `{next(iter(device_sets))}` in its device check")
    if same:
        lines += [f"Every notebook's stored run {', and '.join(same)}.", ""]
    extra = [name for name, values in (("Python", pythons), ("devices", device_sets))
             if len(values) > 1]
    if "devices" in extra:
        lines[-1:-1] = ["*Devices* is what the notebook's device check printed."]
    lines += [
        "| notebook | title | cells | code cells | execution time | run on | status | "
        "errors shown |" + "".join(f" {name} |" for name in extra),
        "|---|---|---|---|---|---|---|---|" + "---|" * len(extra),
    ]
    for s in rows:
        run = " to ".join(dict.fromkeys((s.dates[0], s.dates[-1]))) if s.dates else \
            "not recorded"
        values = {"Python": s.python or "—", "devices": _escape(s.devices) or "—"}
        lines.append(
            f"| [{s.number or 'deep dive'}](notebooks/{s.stem}.ipynb) | {_escape(s.title)} | "
            f"{s.cells} | "
            f"{s.code_cells} | {_seconds(s.seconds)} | {run} | {_status(s)} | {s.raising} |"
            + "".join(f" {values[name]} |" for name in extra))
    lines += [
        f"| **total** | | {stats['cells']} | {stats['code cells']} | "
        f"{_seconds(total if timed else None)} | | {stats['ok']} ok | "
        f"{sum(s.raising for s in rows)} |" + " |" * len(extra),
        "",
    ]
    lines += mutation_lines(mutation)
    return "\n".join(lines), stats


def main(argv: list[str] | None = None) -> int:
    return pagegen.main(render, OUT, "status", __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    sys.exit(main())
