"""Which notebooks' outputs the portability settings change: the measurement behind the choice
of what `make portability` (one thread, scalar kernels, other BLAS paths) must re-run.

`make portability-report` executes every notebook twice more, into a folder outside the
checkout: once as `make test` runs it (``native``) and once with the Makefile's PORTABLE
settings (``portable``); then ``compare`` sorts the notebooks by what changed, cell by cell,
against the stored outputs:

- **changes**: a cell's outputs differ under the portable settings while the native re-run
  gives the stored outputs again: what the notebook shows depends on the kernels;
- **run to run**: nothing the portable run changed stands out, but some cell differs between
  two native runs too (timings, process ids): the outputs cannot tell;
- **same**: every cell gives the stored outputs under both.

The ``threads:`` line that ``sidebyside.threads`` prints (how many threads each framework
runs) is left out: stating the settings is not depending on them. Consecutive stream chunks
are joined (how a kernel splits a print into messages is timing), images compare by their
bytes. Every output counts, the cells tagged ``nbval-ignore-output`` too: the outputs nbval
compares hold no computed float (CONTRIBUTING.md), so what the portable run can break is an
``assert``, and the ignored cells print the values those asserts judge. Outputs only, by
design: an ``assert`` that holds in both runs leaves no trace here.

    python tools/portability_outputs.py execute OUT [--jobs N] [NOTEBOOK ...]
    python tools/portability_outputs.py compare NATIVE PORTABLE [--stored notebooks]
"""
from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
THREADS_LINE = "threads: "       # sidebyside.threads.ThreadReport's line


def _stream_text(text: str) -> str:
    return "".join(line for line in text.splitlines(keepends=True)
                   if not line.startswith(THREADS_LINE))


def cell_outputs(cell: dict) -> list[tuple]:
    """A code cell's outputs as comparable tuples (see the module docstring)."""
    parts: list[tuple] = []
    for out in cell.get("outputs", []):
        kind = out["output_type"]
        if kind == "stream":
            text = _stream_text("".join(out["text"]))
            if parts and parts[-1][:2] == ("stream", out["name"]):
                parts[-1] = ("stream", out["name"], parts[-1][2] + text)
            else:
                parts.append(("stream", out["name"], text))
        elif kind in ("execute_result", "display_data"):
            for mime, value in sorted(out["data"].items()):
                value = "".join(value) if isinstance(value, list) else value
                if not isinstance(value, str):
                    value = json.dumps(value, sort_keys=True)
                if mime.startswith("image/"):
                    value = hashlib.sha256(value.encode()).hexdigest()
                parts.append((kind, mime, value))
        elif kind == "error":
            parts.append(("error", out["ename"], out["evalue"]))
    return [p for p in parts if p[:1] != ("stream",) or p[2]]


def _code_cells(path: Path) -> list[dict]:
    return [c for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code"]


def classify(stored: Path, native: Path, portable: Path) -> tuple[str, list[int], list[int]]:
    """(class, cells the portable run changed, cells that differ run to run), cells counted
    as nbval counts them (code cells from 0)."""
    cells = [_code_cells(p) for p in (stored, native, portable)]
    if not len(cells[0]) == len(cells[1]) == len(cells[2]):
        raise ValueError(f"{stored.name}: the three copies have different code cells")
    changed, noisy = [], []
    for i, (s, n, p) in enumerate(zip(*cells)):
        s, n, p = cell_outputs(s), cell_outputs(n), cell_outputs(p)
        if s != n:
            noisy.append(i)
        elif s != p:
            changed.append(i)
    return ("changes" if changed else "run to run" if noisy else "same"), changed, noisy


def _execute_one(path: Path, dest: Path) -> tuple[float, str]:
    import nbformat
    from nbclient import NotebookClient
    nb = nbformat.read(path, as_version=4)
    start, error = time.perf_counter(), ""
    try:     # cells tagged raises-exception may raise (nbclient honours the tag), no other
        NotebookClient(nb, timeout=900, kernel_name="python3",
                       resources={"metadata": {"path": str(path.parent)}}).execute()
    except Exception as exc:   # noqa: BLE001 — reported per notebook, the command exits 1
        error = f"{type(exc).__name__}: {str(exc).strip().splitlines()[-1] if str(exc).strip() else ''}"
    seconds = time.perf_counter() - start
    dest.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, dest)
    return seconds, error


def all_notebooks(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.ipynb")) + sorted(folder.glob("deep_dives/*.ipynb"))


def execute(out: Path, notebooks: list[Path], jobs: int, base: Path) -> int:
    """Execute copies of ``notebooks`` (the checkout is not written) into ``out``, ``jobs`` at a
    time, longest file first; ``out/times.json`` holds each one's seconds and error."""
    out.mkdir(parents=True, exist_ok=True)
    order = sorted(notebooks, key=lambda p: -p.stat().st_size)
    times = {}
    with concurrent.futures.ProcessPoolExecutor(jobs) as pool:
        futures = {pool.submit(_execute_one, p, out / p.relative_to(base)): p for p in order}
        for future in concurrent.futures.as_completed(futures):
            rel = futures[future].relative_to(base).as_posix()
            seconds, error = future.result()
            times[rel] = {"seconds": round(seconds, 2), "error": error}
            print(f"{seconds:6.1f} s  {rel}{'  FAILED: ' + error if error else ''}", flush=True)
    (out / "times.json").write_text(json.dumps(dict(sorted(times.items())), indent=1) + "\n")
    failed = [rel for rel, t in times.items() if t["error"]]
    if failed:
        print(f"{len(failed)} notebook(s) failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


def compare(native: Path, portable: Path, stored: Path) -> int:
    """Print each notebook's class and the totals, by the portable run's seconds."""
    times = json.loads((portable / "times.json").read_text())
    failed = [rel for run in (native, portable)
              for rel, t in json.loads((run / "times.json").read_text()).items() if t["error"]]
    if failed:
        print(f"a run failed, nothing to compare: {', '.join(sorted(set(failed)))}",
              file=sys.stderr)
        return 1
    groups: dict[str, list[tuple[str, float]]] = {"changes": [], "run to run": [], "same": []}
    print("| notebook | class | cells the portable run changed | cells that vary run to run "
          "| portable s |\n|---|---|---|---|---|")
    for path in all_notebooks(stored):
        rel = path.relative_to(stored).as_posix()
        if rel not in times:
            print(f"{rel}: not in {portable}/times.json (run execute over every notebook)",
                  file=sys.stderr)
            return 1
        kind, changed, noisy = classify(path, native / rel, portable / rel)
        seconds = times[rel]["seconds"]
        groups[kind].append((rel, seconds))
        print(f"| {rel} | {kind} | {', '.join(map(str, changed)) or '—'} "
              f"| {', '.join(map(str, noisy)) or '—'} | {seconds:.1f} |")
    print()
    total = sum(s for group in groups.values() for _, s in group)
    for kind, group in groups.items():
        seconds = sum(s for _, s in group)
        print(f"{kind}: {len(group)} notebooks, {seconds:.1f} s of {total:.1f} s "
              f"({100 * seconds / total:.0f} %)")
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    ex = sub.add_parser("execute", help="execute copies of the notebooks into OUT")
    ex.add_argument("out", type=Path)
    ex.add_argument("notebooks", nargs="*", type=Path,
                    help="default: every notebook under notebooks/")
    ex.add_argument("--jobs", type=int, default=2, help="notebooks at a time (default 2)")
    cmp = sub.add_parser("compare", help="classify the notebooks by two execute folders")
    cmp.add_argument("native", type=Path)
    cmp.add_argument("portable", type=Path)
    cmp.add_argument("--stored", type=Path, default=ROOT / "notebooks",
                     help="the stored notebooks (default: notebooks/)")
    opt = parser.parse_args(argv)
    if opt.command == "execute":
        base = ROOT / "notebooks"
        if opt.jobs < 1:
            parser.error(f"--jobs must be at least 1, got {opt.jobs}")
        notebooks = [p.resolve() for p in opt.notebooks] or all_notebooks(base)
        for p in notebooks:
            if not p.is_file() or p.suffix != ".ipynb" or not p.is_relative_to(base):
                parser.error(f"{p} is not a notebook under {base}")
        if opt.out.resolve().is_relative_to(ROOT):
            parser.error(f"{opt.out} is inside the checkout: give a folder outside it")
        return execute(opt.out, notebooks, opt.jobs, base)
    for run in (opt.native, opt.portable):
        if not (run / "times.json").is_file():
            parser.error(f"{run} has no times.json: make it with `execute {run}`")
    if not opt.stored.is_dir():
        parser.error(f"--stored {opt.stored} is not a folder")
    return compare(opt.native, opt.portable, opt.stored)


if __name__ == "__main__":
    sys.exit(main())
