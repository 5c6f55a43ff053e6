"""Mutation run: does each migration step's check catch a plausible wrong port of it?

Each mutant in the catalogue (``tools/mutants.py``) swaps one exact piece of the migration
code a reader copies (a notebook's code cell, an example script, a mapping helper in
``src/sidebyside``) for a plausible wrong one. For every mutant the tool copies the tracked
tree into a scratch folder, writes the mutated file there (a fresh file: the checkout is never
written), and runs only the notebooks or test files that cover the line, with nbval and the
stored outputs, under a time limit::

    python tools/mutate.py --check                  # validate the catalogue, run nothing
    python tools/mutate.py                          # the whole catalogue (make mutate)
    python tools/mutate.py --sample 25 --seed 0     # a fixed sample (make mutate-quick)
    python tools/mutate.py --smoke --out /tmp/m.json
    python tools/mutate.py --only nb02-fmod-remainder,transfer-no-transpose -j 1
    python tools/mutate.py --target notebooks/03_mnist_mlp.ipynb

Outcomes: ``killed`` (the covering run failed), ``survived`` (it passed: the check is too
weak), ``timed_out``, ``equivalent`` (the catalogue argues the mutant changes nothing that
matters, and the run passed: the argument held), ``equivalent_killed`` (argued equivalent,
yet the run failed: the argument is wrong; it counts as killed and is listed), ``error``
(pytest could not run: no tests collected, an internal error), ``baseline_failed`` (the
unmutated target failed first: the mutant is not counted).

The results (date, machine, per mutant outcome and seconds, a summary per target) go to
``--out`` as JSON (default ``benchmarks/results/mutation.json`` for the whole catalogue,
``benchmarks/results/mutation_quick.json`` for ``--quick``; any other selection writes
nothing unless ``--out`` is given; ``--merge`` joins partial runs), and a Markdown report is
printed. ``benchmarks/results/`` is where the collection keeps its other measured runs with
their date and machine (``latest.json``, ``mx2torch_sweep.json``). :func:`status_section` renders
a results dict as a Markdown section for a page generator.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import datetime as _dt
import json
import os
import platform
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV_PYTHON = ROOT / ".venv" / "bin" / "python"
DEFAULT_OUT = ROOT / "benchmarks" / "results" / "mutation.json"
QUICK_OUT = ROOT / "benchmarks" / "results" / "mutation_quick.json"
QUICK_SAMPLE, QUICK_SEED = 20, 28
COUNTED = ("killed", "survived", "timed_out", "equivalent", "equivalent_killed")


class CatalogueError(ValueError):
    """The catalogue does not match the files it mutates (one line per problem)."""


@dataclass(frozen=True)
class Mutant:
    """One plausible wrong port: ``original`` (exact text) becomes ``replacement`` in ``file``.

    ``file`` is relative to the repository root; for a notebook it is the ``.ipynb`` (the
    file nbval runs) and ``cell`` a substring that picks exactly one code cell, in which
    ``original`` is looked up. ``occurrence`` (1-based) picks one of several matches; without
    it, the original must occur exactly once. ``targets``: the notebooks or test files that
    cover the line (a notebook mutant covers its own notebook when left empty).
    ``equivalent``: the argument why the mutant cannot change behaviour, if it is one."""
    id: str
    file: str
    original: str
    replacement: str
    operator: str
    models: str
    targets: tuple[str, ...] = ()
    cell: str | None = None
    occurrence: int | None = None
    equivalent: str | None = None

    @property
    def covering(self) -> tuple[str, ...]:
        if self.targets:
            return tuple(self.targets)
        if self.file.endswith(".ipynb"):
            return (self.file,)
        return ()


# ----------------------------------------------------------------------------- applying
def _cells(nb: dict, mutant: Mutant) -> list[int]:
    return [i for i, c in enumerate(nb["cells"])
            if c.get("cell_type") == "code" and mutant.cell in "".join(c["source"])]


def _replace(text: str, mutant: Mutant, where: str) -> str:
    """``text`` with the chosen occurrence of the original replaced (CatalogueError if absent)."""
    count = text.count(mutant.original)
    if count == 0:
        raise CatalogueError(f"{mutant.id}: original text {mutant.original!r} not found in {where}")
    if mutant.occurrence is None and count > 1:
        raise CatalogueError(f"{mutant.id}: original text {mutant.original!r} occurs {count} "
                             f"times in {where}: give occurrence=1..{count}")
    n = mutant.occurrence or 1
    if not 1 <= n <= count:
        raise CatalogueError(f"{mutant.id}: occurrence={n} but {mutant.original!r} occurs "
                             f"{count} time(s) in {where}")
    start = -1
    for _ in range(n):
        start = text.index(mutant.original, start + 1)
    return text[:start] + mutant.replacement + text[start + len(mutant.original):]


def mutated_text(mutant: Mutant, root: Path = ROOT) -> str:
    """The mutated file's whole text (raises CatalogueError when the mutant does not apply)."""
    path = root / mutant.file
    if not path.is_file():
        raise CatalogueError(f"{mutant.id}: file {mutant.file} does not exist")
    text = path.read_text(encoding="utf-8")
    if not mutant.file.endswith(".ipynb"):
        if mutant.cell is not None:
            raise CatalogueError(f"{mutant.id}: cell= is only for notebooks ({mutant.file})")
        return _replace(text, mutant, mutant.file)
    if not mutant.cell:
        raise CatalogueError(f"{mutant.id}: a notebook mutant needs cell= (a substring of "
                             f"the code cell to mutate in {mutant.file})")
    nb = json.loads(text)
    found = _cells(nb, mutant)
    if len(found) != 1:
        raise CatalogueError(f"{mutant.id}: cell {mutant.cell!r} matches {len(found)} code "
                             f"cells of {mutant.file}, not exactly one")
    cell = nb["cells"][found[0]]
    source = _replace("".join(cell["source"]), mutant, f"{mutant.file} cell {found[0]}")
    cell["source"] = source.splitlines(keepends=True)
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def validate(mutants, root: Path = ROOT, operators: dict | None = None) -> None:
    """Raise CatalogueError listing every problem: repeated ids, a replacement equal to its
    original, an unknown operator, a text not found or ambiguous, a missing target."""
    problems, seen = [], set()
    for m in mutants:
        if m.id in seen:
            problems.append(f"{m.id}: the id repeats")
        seen.add(m.id)
        if m.replacement == m.original:
            problems.append(f"{m.id}: the replacement equals the original")
        if not m.original:
            problems.append(f"{m.id}: empty original text")
        if operators is not None and m.operator not in operators:
            problems.append(f"{m.id}: unknown operator {m.operator!r}")
        if not m.models.strip():
            problems.append(f"{m.id}: no 'models' sentence")
        if m.equivalent is not None and len(m.equivalent.split()) < 4:
            problems.append(f"{m.id}: an equivalent mutant needs its argument, "
                            f"not {m.equivalent!r}")
        if not m.covering:
            problems.append(f"{m.id}: no covering targets")
        for t in m.covering:  # a file, or a test in one: path::test_name[id]
            if not (root / t.partition("::")[0]).is_file():
                problems.append(f"{m.id}: target {t} does not exist")
        try:
            if m.replacement != m.original:
                mutated_text(m, root)
        except CatalogueError as e:
            problems.append(str(e))
    if problems:
        raise CatalogueError("the mutation catalogue does not match the files:\n  "
                             + "\n  ".join(problems))


# ----------------------------------------------------------------------------- scratch
def tracked_files(root: Path) -> list[str]:
    out = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True, check=True)
    return [p for p in out.stdout.decode().split("\0") if p]


def make_scratch(root: Path, files: list[str], mutant: Mutant | None = None,
                 parent: str | None = None) -> Path:
    """A temporary folder holding a copy of ``files`` (real copies, symlinks kept as links:
    nothing a test writes there can reach ``root``) and, for a mutant, its mutated file
    written as a new file."""
    scratch = Path(tempfile.mkdtemp(prefix="mutate-", dir=parent))
    for rel in files:
        src, dst = root / rel, scratch / rel
        if not src.exists() and not src.is_symlink():
            continue                      # deleted in the working tree, not yet committed
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_symlink():
            os.symlink(os.readlink(src), dst)
        else:
            shutil.copy2(src, dst)
    if mutant is not None:
        text = mutated_text(mutant, root)
        dst = scratch / mutant.file
        dst.unlink()
        dst.write_text(text, encoding="utf-8")
    return scratch


def run_env(scratch: Path) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(scratch / "src")]
                                        + [p for p in [env.get("PYTHONPATH")] if p])
    env.setdefault("SIDEBYSIDE_DATASET", "fashion-mnist")
    env["SIDEBYSIDE_MUTATE_SCRATCH"] = str(scratch)
    env.pop("PYTEST_ADDOPTS", None)
    return env


def run_targets(scratch: Path, targets, timeout: float, python: str) -> tuple[str, float, str]:
    """Run pytest on ``targets`` in ``scratch``: (outcome, seconds, output tail)."""
    cmd = [python, "-m", "pytest", "-p", "no:cacheprovider", "-x", "-q", *targets]
    start = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=scratch, env=run_env(scratch), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
        outcome = {0: "survived", 1: "killed", 2: "killed"}.get(proc.returncode, "error")
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)   # the pytest run and its kernels, only ours
        out, _ = proc.communicate()
        outcome = "timed_out"
    seconds = time.monotonic() - start
    tail = out.decode(errors="replace").strip().splitlines()[-6:]
    return outcome, seconds, "\n".join(tail)


PROBE_NB = {
    "cells": [{"cell_type": "code", "execution_count": 1, "id": "probe", "metadata": {},
               "outputs": [],
               "source": ["import os, sidebyside\n",
                          "assert sidebyside.__file__.startswith("
                          "os.environ['SIDEBYSIDE_MUTATE_SCRATCH']), sidebyside.__file__\n"]}],
    "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                "name": "python3"}},
    "nbformat": 4, "nbformat_minor": 5}


def probe_import(root: Path, files: list[str], python: str, parent: str | None = None) -> None:
    """Check that a scratch copy's ``sidebyside`` is the one imported, in pytest and inside
    nbval's kernels (not the editable install of the checkout); raise RuntimeError if not."""
    scratch = make_scratch(root, [f for f in files if f in ("pyproject.toml", "conftest.py")
                                  or f.startswith(("src/", "tools/"))], parent=parent)
    try:
        (scratch / "mutate_probe.ipynb").write_text(json.dumps(PROBE_NB))
        (scratch / "test_mutate_probe.py").write_text(
            "import os, sidebyside\n\ndef test_probe():\n    assert sidebyside.__file__."
            "startswith(os.environ['SIDEBYSIDE_MUTATE_SCRATCH']), sidebyside.__file__\n")
        outcome, _, tail = run_targets(scratch, ["test_mutate_probe.py", "mutate_probe.ipynb"],
                                       300, python)
        if outcome != "survived":
            raise RuntimeError("the scratch copy's sidebyside is not the one imported (in "
                               f"pytest or in nbval's kernel):\n{tail}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


# ----------------------------------------------------------------------------- the run
def machine() -> dict:
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cores": os.cpu_count(), "cpu": model, "host": platform.node(),
            "python": platform.python_version(), "system": platform.platform()}


def classify(mutant: Mutant, outcome: str) -> str:
    if mutant.equivalent is None:
        return outcome
    return {"survived": "equivalent", "killed": "equivalent_killed"}.get(outcome, outcome)


def run(mutants, *, root: Path = ROOT, jobs: int = 0, timeout: float | None = None,
        python: str | None = None, probe: bool = True, log=print, scratch_parent=None,
        scope: str = "subset", checkpoint: Path | None = None) -> dict:
    """Baselines, then every mutant, ``jobs`` at a time; returns the results dict.
    ``checkpoint``: a JSON file rewritten after every mutant with the results so far (scope
    "interrupted"), so a run stopped half-way keeps what it measured."""
    python = python or (str(VENV_PYTHON) if VENV_PYTHON.exists() else sys.executable)
    jobs = jobs or os.cpu_count() or 1
    files = tracked_files(root)
    if probe:
        probe_import(root, files, python, scratch_parent)
    started = _dt.datetime.now(_dt.timezone.utc)

    def one(targets, mutant=None, limit=None):
        scratch = make_scratch(root, files, mutant, scratch_parent)
        try:
            return run_targets(scratch, list(targets), limit, python)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)

    needed = sorted({t for m in mutants for t in m.covering})
    baselines = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(one, [t], None, timeout or 1800): t for t in needed}
        for f in concurrent.futures.as_completed(futures):
            outcome, seconds, tail = f.result()
            t = futures[f]
            baselines[t] = {"ok": outcome == "survived", "seconds": round(seconds, 1),
                            **({} if outcome == "survived" else {"tail": tail})}
            log(f"baseline {t}: {'passes' if outcome == 'survived' else 'FAILS'} "
                f"({seconds:.1f} s)")
        records = {}

        def limit_for(m):
            return timeout or 3 * sum(baselines[t]["seconds"] for t in m.covering) + 30

        futures = {}
        for m in mutants:
            if all(baselines[t]["ok"] for t in m.covering):
                futures[pool.submit(one, m.covering, m, limit_for(m))] = m
            else:
                records[m.id] = {"outcome": "baseline_failed", "seconds": 0.0}
        for f in concurrent.futures.as_completed(futures):
            m = futures[f]
            outcome, seconds, tail = f.result()
            outcome = classify(m, outcome)
            caught = [line[:200] for line in tail.splitlines()
                      if line.startswith(("FAILED ", "ERROR "))][:1]
            records[m.id] = {"outcome": outcome, "seconds": round(seconds, 1),
                             **({"caught_by": caught[0]} if caught else {}),
                             **({"tail": tail} if outcome in ("error", "timed_out") else {})}
            log(f"{outcome:>17}  {m.id}  ({seconds:.1f} s)")
            if checkpoint is not None:
                done = [m for m in mutants if m.id in records]
                partial = _results(done, records, baselines, started, jobs, timeout,
                                   f"interrupted ({len(done)} of {len(mutants)} run)", root)
                checkpoint.write_text(json.dumps(partial, indent=1, ensure_ascii=False) + "\n")
    return _results(mutants, records, baselines, started, jobs, timeout, scope, root)


def _results(mutants, records, baselines, started, jobs, timeout, scope, root) -> dict:
    results = {
        "date": started.isoformat(timespec="seconds"),
        "finished": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "machine": machine(), "jobs": jobs, "scope": scope,
        "timeout": timeout if timeout else "3 x baseline + 30 s",
        "baselines": baselines,
        "mutants": [{"id": m.id, "file": m.file, "line": line_of(m, root),
                     "operator": m.operator, "models": m.models, "targets": list(m.covering),
                     **({"equivalent": m.equivalent} if m.equivalent else {}),
                     **records[m.id]} for m in mutants],
    }
    results["summary"] = summarize(results)
    return results


def line_of(mutant: Mutant, root: Path = ROOT) -> int | None:
    """The 1-based line of the mutated text in the file a reader edits: the file itself, or
    for a notebook its ``.py`` twin (the first match after the cell's substring there)."""
    path, start, n = root / mutant.file, -1, mutant.occurrence or 1
    if mutant.file.endswith(".ipynb"):
        path = path.with_suffix(".py")
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return None
    if mutant.cell:
        start = text.find(mutant.cell) - 1
        if start < -1:
            return None
    for _ in range(n):
        start = text.find(mutant.original, start + 1)
        if start < 0:
            return None
    return text.count("\n", 0, start) + 1


def group_of(mutant_record: dict) -> str:
    """The report's group: a notebook, an example, or a helper module / package."""
    f = mutant_record["file"]
    if f.startswith("src/sidebyside/"):
        parts = f.removeprefix("src/sidebyside/").split("/")
        return "sidebyside." + (parts[0] if len(parts) > 1 else parts[0].removesuffix(".py"))
    return f


def summarize(results: dict) -> dict:
    summary = {}
    for r in results["mutants"]:
        s = summary.setdefault(group_of(r), {k: 0 for k in (*COUNTED, "error",
                                                            "baseline_failed")}
                               | {"mutants": 0, "seconds": 0.0})
        s["mutants"] += 1
        s[r["outcome"]] = s.get(r["outcome"], 0) + 1
        s["seconds"] = round(s["seconds"] + r["seconds"], 1)
    for s in summary.values():
        killed = s["killed"] + s["equivalent_killed"]
        scored = killed + s["survived"] + s["timed_out"]
        s["killed_percent"] = round(100 * (killed + s["timed_out"]) / scored, 1) if scored \
            else None
    return summary


def status_section(results: dict) -> str:
    """A Markdown section for a status page: per target the killed share (timed-out mutants
    count as detected, equivalent ones are left out), then every surviving mutant."""
    summary = results.get("summary") or summarize(results)
    m = results["machine"]
    runs = results.get("runs") or [{"date": results["date"], "jobs": results["jobs"],
                                     "mutants": len(results["mutants"])}]
    if len(runs) == 1:
        how = f"{runs[0]['jobs']} at a time"
    else:   # merged: what each part ran, and how many at a time
        how = (f"in {len(runs)} parts merged (" + "; ".join(
            f"{r['date'][:10]}: {r['mutants']} mutants, {r['jobs']} at a time"
            + (f", {r['cpu']}" if r.get("cpu") and r["cpu"] != m["cpu"] else "")
            for r in runs) + "; a mutant run again keeps its last part's result)")
    seconds = sum(r.get("seconds") or 0 for r in results["mutants"])
    where = ", unless a part says otherwise" if any(
        r.get("cpu") and r["cpu"] != m["cpu"] for r in runs) else ""
    lines = ["## Mutation run", "",
             f"{len(results['mutants'])} mutants ({results.get('scope', 'subset')}), run "
             f"{results['date'][:10]} on {m['cores']} cores ({m['cpu']}{where}), {how}. The mutants' "
             f"own runs add up to {seconds / 60:.0f} min (baselines not counted). A mutant "
             "swaps one migration step for a plausible wrong one (`tools/mutants.py`); "
             "*killed* means the covering notebook or test caught it.",
             "", "| target | mutants | killed | survived | timed out | equivalent | killed % |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for group in sorted(summary):
        s = summary[group]
        pct = "–" if s["killed_percent"] is None else f"{s['killed_percent']:.0f} %"
        lines.append(f"| `{group}` | {s['mutants']} | {s['killed'] + s['equivalent_killed']} | "
                     f"{s['survived']} | {s['timed_out']} | {s['equivalent']} | {pct} |")
    survivors = [r for r in results["mutants"] if r["outcome"] == "survived"]
    lines += ["", f"**Surviving mutants** ({len(survivors)}):" if survivors
              else "**No mutant survived.**", ""]
    for r in survivors:
        where = f"{r['file']}:{r['line']}" if r.get("line") else r["file"]
        lines.append(f"- `{r['id']}` ({r['operator']}, `{where}`): {r['models']}")
    wrong = [r for r in results["mutants"] if r["outcome"] == "equivalent_killed"]
    if wrong:
        lines += ["", "**Argued equivalent, yet killed** (the argument is wrong):", ""]
        lines += [f"- `{r['id']}`: {r['equivalent']}" for r in wrong]
    failed = [t for t, b in results.get("baselines", {}).items() if not b["ok"]]
    if failed:
        lines += ["", "**Baselines that failed** (their mutants are not counted): "
                  + ", ".join(f"`{t}`" for t in failed)]
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------------- CLI
def select(mutants, *, only=None, targets=None, sample=None, seed=0, smoke=False, smoke_ids=(),
           quick=False, slow=()):
    """The mutants a run takes; ValueError (one message) on an unknown id or target.
    ``quick``: the fixed sample of ``make mutate-quick``, QUICK_SAMPLE mutants drawn with
    QUICK_SEED from those whose covering targets are not in ``slow``."""
    chosen = list(mutants)
    by_id = {m.id: m for m in chosen}
    if smoke:
        chosen = [by_id[i] for i in smoke_ids]
    if quick:
        fast = [m for m in chosen if not set(m.covering) & set(slow)]
        chosen = sorted(random.Random(QUICK_SEED).sample(fast, min(QUICK_SAMPLE, len(fast))),
                        key=fast.index)
    if only:
        unknown = [i for i in only if i not in by_id]
        if unknown:
            raise ValueError(f"unknown mutant id(s): {', '.join(unknown)} (see tools/mutants.py)")
        chosen = [m for m in chosen if m.id in set(only)]
    if targets:
        known = {t for m in mutants for t in m.covering} | {m.file for m in mutants}
        unknown = [t for t in targets if t not in known]
        if unknown:
            raise ValueError(f"unknown target(s): {', '.join(unknown)}: no mutant covers or "
                             "mutates them")
        chosen = [m for m in chosen if m.file in targets or set(m.covering) & set(targets)]
    if sample is not None:
        if sample < 1:
            raise ValueError(f"--sample must be at least 1, not {sample}")
        chosen = sorted(random.Random(seed).sample(chosen, min(sample, len(chosen))),
                        key=chosen.index)
    return chosen


def merge(runs: list, mutants=()) -> dict:
    """One results dict from several runs (partial runs of one catalogue, one after the
    other): per mutant the last run's record, in catalogue order; the scope says how much of
    the catalogue is covered."""
    order = {m.id: i for i, m in enumerate(mutants)}
    records, baselines = {}, {}
    for r in runs:
        baselines.update(r.get("baselines", {}))
        records.update({m["id"]: m for m in r["mutants"]})
    merged = dict(runs[-1])
    merged["date"] = min(r["date"] for r in runs)
    merged["finished"] = max(r.get("finished", r["date"]) for r in runs)
    merged["runs"] = [part for r in runs for part in (  # a merged run brings its own parts
        r.get("runs") or [{"date": r["date"], "scope": r.get("scope"),
                           "mutants": len(r["mutants"]), "jobs": r.get("jobs"),
                           "cpu": r["machine"]["cpu"]}])]
    merged["baselines"] = baselines
    merged["mutants"] = sorted(records.values(), key=lambda m: order.get(m["id"], len(order)))
    merged["scope"] = (f"{len(records)} of the catalogue's {len(order)} mutants"
                       if order and len(records) < len(order) else "whole catalogue")
    merged["summary"] = summarize(merged)
    return merged


def markdown_report(results: dict) -> str:
    text = status_section(results)
    slow = sorted(results["mutants"], key=lambda r: -r["seconds"])[:5]
    text += "\nSlowest: " + ", ".join(f"`{r['id']}` {r['seconds']:.0f} s" for r in slow) + "\n"
    return text


def main(argv=None) -> int:
    here = str(Path(__file__).resolve().parent)
    if here not in sys.path:
        sys.path.insert(0, here)
    import mutants as catalogue

    p = argparse.ArgumentParser(prog="tools/mutate.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--check", action="store_true",
                   help="validate the catalogue against the files and exit (runs nothing)")
    p.add_argument("--list", action="store_true", help="list the selected mutants and exit")
    p.add_argument("--only", help="comma-separated mutant ids")
    p.add_argument("--target", action="append",
                   help="only mutants covered by (or mutating) this file; repeatable")
    p.add_argument("--sample", type=int, help="a seeded random sample of N mutants")
    p.add_argument("--seed", type=int, default=0, help="the sample's seed (default 0)")
    p.add_argument("--quick", action="store_true",
                   help=f"the fixed sample of make mutate-quick: {QUICK_SAMPLE} mutants (seed "
                        f"{QUICK_SEED}) of those whose targets are not in mutants.SLOW")
    p.add_argument("--merge", nargs="+", metavar="JSON",
                   help="merge these results files (later ones win for a mutant run twice) "
                        "into --out, with the summary recomputed; runs nothing")
    p.add_argument("--smoke", action="store_true",
                   help="the CI smoke: one known killed, one known equivalent mutant")
    p.add_argument("-j", "--jobs", type=int, default=0,
                   help="mutants run at a time (default: the core count)")
    p.add_argument("--timeout", type=float,
                   help="seconds per mutant (default: 3 x the target's baseline + 30)")
    p.add_argument("--out", help="results JSON (default: benchmarks/results/mutation.json for "
                                 "the whole catalogue, mutation_quick.json for --quick; any "
                                 "other selection writes none unless given)")
    a = p.parse_args(argv)
    try:
        validate(catalogue.MUTANTS, ROOT, catalogue.OPERATORS)
    except CatalogueError as e:
        print(f"tools/mutate.py: {e}", file=sys.stderr)
        return 2
    if a.check:
        print(f"catalogue ok: {len(catalogue.MUTANTS)} mutants, "
              f"{len({m.file for m in catalogue.MUTANTS})} files, "
              f"{len({m.operator for m in catalogue.MUTANTS})} operators")
        return 0
    try:
        if a.merge:
            if not a.out:
                raise ValueError("--merge needs --out")
            merged = merge([json.loads(Path(f).read_text()) for f in a.merge], catalogue.MUTANTS)
            Path(a.out).write_text(json.dumps(merged, indent=1, ensure_ascii=False) + "\n")
            print(f"wrote {a.out}\n")
            print(markdown_report(merged))
            return 0
        if a.jobs < 0:
            raise ValueError(f"-j must be 1 or more, not {a.jobs}")
        if a.timeout is not None and a.timeout <= 0:
            raise ValueError(f"--timeout must be positive, not {a.timeout}")
        chosen = select(catalogue.MUTANTS, only=a.only.split(",") if a.only else None,
                        targets=a.target, sample=a.sample, seed=a.seed, smoke=a.smoke,
                        smoke_ids=catalogue.SMOKE, quick=a.quick, slow=catalogue.SLOW)
        whole = len(chosen) == len(catalogue.MUTANTS)
        out = Path(a.out) if a.out else (DEFAULT_OUT if whole else QUICK_OUT if a.quick
                                          else None)
        if out is not None and not out.parent.is_dir():
            raise ValueError(f"--out {out}: the folder {out.parent} does not exist")
        if not chosen:
            raise ValueError("the selection is empty")
    except (ValueError, OSError) as e:
        print(f"tools/mutate.py: error: {e}", file=sys.stderr)
        return 2
    if a.list:
        for m in chosen:
            print(f"{m.id:40} {m.operator:18} {m.file}")
        return 0
    results = run(chosen, jobs=a.jobs, timeout=a.timeout, checkpoint=out,
                  scope="whole catalogue" if whole else "smoke" if a.smoke else "subset")
    if out is not None:
        out.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n")
        print(f"wrote {out}")
    print(markdown_report(results))
    return 1 if any(r["outcome"] == "error" for r in results["mutants"]) else 0


if __name__ == "__main__":
    sys.exit(main())
