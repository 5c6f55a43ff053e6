"""tools/mutate.py: the catalogue is checked against the files, a scratch copy never touches
the checkout, the scratch copy's package is the one imported (in nbval's kernels too), runs are
classified killed / survived / timed out / equivalent, and the CI smoke runs for real."""
import json
import os
import shutil
import subprocess
import sys
from collections import Counter

import pytest
from conftest import ROOT

import mutants as catalogue
import mutate
from mutate import CatalogueError, Mutant

NAMED_NOTEBOOKS = ("02", "03", "06", "08", "10", "12", "13", "14", "15", "16", "17")
HELPERS = ("src/sidebyside/transfer.py", "src/sidebyside/initmap.py", "src/sidebyside/optim.py",
           "src/sidebyside/recordio.py", "src/sidebyside/convert/", "src/sidebyside/mx2torch/")


# ----------------------------------------------------------------------------- the catalogue
def test_the_catalogue_matches_the_files_and_the_issue():
    mutate.validate(catalogue.MUTANTS, ROOT, catalogue.OPERATORS)
    mutants = catalogue.MUTANTS
    assert len(mutants) >= 150
    per_file = Counter(m.file for m in mutants)
    for num in NAMED_NOTEBOOKS:
        assert per_file[catalogue.NOTEBOOKS[num]] >= 8, num
    for helper in HELPERS:
        assert sum(n for f, n in per_file.items() if f.startswith(helper)) >= 5, helper
    assert {m.operator for m in mutants} == set(catalogue.OPERATORS)
    for m in mutants:
        assert m.models.strip() and m.covering
        assert m.equivalent is None or len(m.equivalent.split()) >= 10, m.id
    smoke = [next(m for m in mutants if m.id == i) for i in catalogue.SMOKE]
    assert [m.equivalent is None for m in smoke].count(True) >= 1
    assert [m.equivalent is not None for m in smoke].count(True) >= 1


@pytest.fixture
def tree(tmp_path):
    """A tiny git repository: a package in src/, its test, a notebook."""
    root = tmp_path / "repo"
    (root / "src" / "calc").mkdir(parents=True)
    (root / "src" / "calc" / "__init__.py").write_text(
        "def add(a, b):\n    return a + b\n\n\ndef unused(a):\n    return a\n\n\n"
        "def twice(a):\n    return a + a\n")
    (root / "test_calc.py").write_text(
        "import calc\n\n\ndef test_add():\n    assert calc.add(2, 3) == 5\n"
        "    assert calc.twice(2) == 4\n")
    (root / "test_broken.py").write_text("def test_broken():\n    assert False\n")
    nb = {"cells": [{"cell_type": "code", "execution_count": 1, "id": "a", "metadata": {},
                     "outputs": [], "source": ["x = 1\n", "y = x + 1\n"]},
                    {"cell_type": "code", "execution_count": 2, "id": "b", "metadata": {},
                     "outputs": [], "source": ["z = x + 1\n"]}],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (root / "nb.ipynb").write_text(json.dumps(nb, indent=1) + "\n")
    os.symlink("src", root / "link")
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    subprocess.run(["git", "add", "."], cwd=root, check=True)
    return root


def M(id="m", file="src/calc/__init__.py", original="return a + b", replacement="return a - b",
      **kw):
    kw.setdefault("targets", ("test_calc.py",))
    return Mutant(id, file, original, replacement, "scale", "a test mutant", **kw)


@pytest.mark.parametrize("mutant, message", [
    (M(original="return a * b"), "m: original text 'return a * b' not found in src/calc"),
    (M(original="return a"), "m: original text 'return a' occurs 3 times in src/calc/__init__.py: "
                             "give occurrence=1..3"),
    (M(original="return a", occurrence=4), "m: occurrence=4 but 'return a' occurs 3 time(s)"),
    (M(replacement="return a + b"), "m: the replacement equals the original"),
    (M(file="src/calc/gone.py"), "m: file src/calc/gone.py does not exist"),
    (M(targets=("test_gone.py",)), "m: target test_gone.py does not exist"),
    (M(file="nb.ipynb", original="x + 1", replacement="x - 1", cell="x"),
     "m: cell 'x' matches 2 code cells of nb.ipynb, not exactly one"),
    (M(file="nb.ipynb", original="x + 1", replacement="x - 1"), "m: a notebook mutant needs cell="),
    (Mutant("m", "src/calc/__init__.py", "return a + b", "return b + a", "no-such-op", "x",
            ("test_calc.py",)),
     "m: unknown operator 'no-such-op'"),
    (M(equivalent="same"), "m: an equivalent mutant needs its argument"),
])
def test_validation_refuses_a_mutant_that_does_not_apply(tree, mutant, message):
    with pytest.raises(CatalogueError) as err:
        mutate.validate([mutant], tree, {"scale": "x"})
    assert message in str(err.value)
    assert str(err.value).count("\n  ") == 1      # one line for the one problem


def test_validation_refuses_repeated_ids_and_lists_every_problem(tree):
    with pytest.raises(CatalogueError) as err:
        mutate.validate([M(), M(), M(id="n", original="nope")], tree, {"scale": "x"})
    lines = str(err.value).splitlines()[1:]
    assert lines == ["  m: the id repeats",
                     "  n: original text 'nope' not found in src/calc/__init__.py"]


def test_the_occurrence_and_the_cell_pick_the_text(tree):
    text = mutate.mutated_text(M(original="return a", replacement="return -a", occurrence=2), tree)
    assert "def unused(a):\n    return -a\n" in text and text.count("return -a") == 1
    nb = json.loads(mutate.mutated_text(M(file="nb.ipynb", original="x + 1", replacement="x - 1",
                                          cell="z ="), tree))
    assert [c["source"] for c in nb["cells"]] == [["x = 1\n", "y = x + 1\n"], ["z = x - 1\n"]]
    assert nb["cells"][1]["outputs"] == [] and nb["nbformat"] == 4


def test_the_real_catalogue_fails_loudly_when_a_notebook_drifts(tmp_path, capsys, monkeypatch):
    """A notebook edited so a mutant's text is gone: --check exits 2 naming the mutant."""
    m = next(m for m in catalogue.MUTANTS if m.id == "nb02-fmod-as-modulo")
    assert m.cell != m.original
    fake = tmp_path / "root"
    (fake / m.file).parent.mkdir(parents=True)
    nb = json.loads((ROOT / m.file).read_text())
    for cell in nb["cells"]:
        cell["source"] = [line.replace(m.original, "edited") for line in cell["source"]]
    (fake / m.file).write_text(json.dumps(nb))
    with pytest.raises(CatalogueError, match=f"{m.id}: .*not found in {m.file} cell"):
        mutate.mutated_text(m, fake)
    monkeypatch.setattr(catalogue, "MUTANTS", [m, m])
    assert mutate.main(["--check"]) == 2
    err = capsys.readouterr().err
    assert f"{m.id}: the id repeats" in err and err.count("\n") == 2


# ----------------------------------------------------------------------------- the scratch copy
def test_the_scratch_copy_never_writes_into_the_checkout(tree, tmp_path):
    before = {p: p.read_bytes() for p in tree.rglob("*") if p.is_file() and ".git" not in p.parts}
    files = mutate.tracked_files(tree)
    scratch = mutate.make_scratch(tree, files, M(), str(tmp_path))
    mutated, original = scratch / "src/calc/__init__.py", tree / "src/calc/__init__.py"
    assert "return a - b" in mutated.read_text() and "return a + b" in original.read_text()
    assert mutated.stat().st_ino != original.stat().st_ino and mutated.stat().st_nlink == 1
    for rel in files:              # every copy is a file of its own, or the same symlink
        if (tree / rel).is_symlink():
            assert os.readlink(scratch / rel) == os.readlink(tree / rel)
        else:
            assert (scratch / rel).stat().st_ino != (tree / rel).stat().st_ino
            (scratch / rel).write_text("scribbled")
    assert {p: p.read_bytes() for p in before} == before
    shutil.rmtree(scratch)


def test_the_scratch_copy_sidebyside_is_the_one_imported_even_in_nbval_kernels(monkeypatch):
    files = mutate.tracked_files(ROOT)
    mutate.probe_import(ROOT, files, sys.executable)
    # without PYTHONPATH the editable install of the checkout wins, and the probe says so
    plain = mutate.run_env
    monkeypatch.setattr(mutate, "run_env", lambda scratch: {
        k: v for k, v in plain(scratch).items() if k != "PYTHONPATH"})
    with pytest.raises(RuntimeError, match="the scratch copy's sidebyside is not the one imported"):
        mutate.probe_import(ROOT, files, sys.executable)


# ----------------------------------------------------------------------------- the classification
def test_runs_are_classified_killed_survived_timed_out_equivalent(tree):
    mutants = [
        M("killed"),
        M("survived", original="return a\n", replacement="return a + 0\n"),
        M("timed", replacement="import time\n    time.sleep(60)\n    return a + b"),
        M("equivalent", original="return a + a", replacement="return 2 * a",
          equivalent="a + a and 2 * a are the same number for the integers the test uses"),
        M("argued-wrongly", original="return a + a", replacement="return a * a + 1",
          equivalent="this argument is wrong on purpose, and the run must say so"),
        M("baseline", targets=("test_broken.py",)),
    ]
    # 15 s: a pytest run of the tiny tree takes 2-5 s, more on a loaded machine (8 s once
    # timed out the killed mutant); the timed one sleeps 60 s
    results = mutate.run(mutants, root=tree, jobs=2, timeout=15, python=sys.executable,
                         probe=False, log=lambda line: None)
    outcome = {r["id"]: r["outcome"] for r in results["mutants"]}
    assert outcome == {"killed": "killed", "survived": "survived", "timed": "timed_out",
                       "equivalent": "equivalent", "argued-wrongly": "equivalent_killed",
                       "baseline": "baseline_failed"}
    assert results["baselines"]["test_calc.py"]["ok"] and not results["baselines"][
        "test_broken.py"]["ok"]
    timed = next(r for r in results["mutants"] if r["id"] == "timed")
    assert 15 <= timed["seconds"] < 45
    s = results["summary"]["src/calc/__init__.py"]
    assert (s["mutants"], s["killed"], s["survived"], s["timed_out"], s["equivalent"],
            s["equivalent_killed"], s["baseline_failed"]) == (6, 1, 1, 1, 1, 1, 1)
    assert s["killed_percent"] == 75.0            # (killed + argued-wrongly + timed) / 4
    assert results["machine"]["cores"] == os.cpu_count() and results["machine"]["cpu"]
    section = mutate.status_section(results)
    assert "| `src/calc/__init__.py` | 6 | 2 | 1 | 1 | 1 | 75 % |" in section
    assert "- `survived` (scale, `src/calc/__init__.py:6`): a test mutant" in section
    assert "**Argued equivalent, yet killed**" in section and "`argued-wrongly`" in section
    assert "**Baselines that failed**" in section and "`test_broken.py`" in section


def test_selection_messages_and_a_fixed_sample():
    mutants = catalogue.MUTANTS
    with pytest.raises(ValueError, match="unknown mutant id\\(s\\): nope"):
        mutate.select(mutants, only=["nope"])
    with pytest.raises(ValueError, match="unknown target\\(s\\): notebooks/99_x.ipynb"):
        mutate.select(mutants, targets=["notebooks/99_x.ipynb"])
    a = mutate.select(mutants, sample=10, seed=3)
    assert a == mutate.select(mutants, sample=10, seed=3) != mutate.select(mutants, sample=10,
                                                                           seed=4)
    nb03 = mutate.select(mutants, targets=["notebooks/03_mnist_mlp.ipynb"])
    assert nb03 and {m.file for m in nb03} == {"notebooks/03_mnist_mlp.ipynb"}
    quick = mutate.select(mutants, quick=True, slow=catalogue.SLOW)
    assert len(quick) == mutate.QUICK_SAMPLE and not {t for m in quick for t in m.covering} & set(
        catalogue.SLOW)


@pytest.mark.parametrize("argv, message", [
    (["--only", "nope"], "unknown mutant id(s): nope (see tools/mutants.py)"),
    (["--target", "notebooks/99_x.ipynb"],
     "unknown target(s): notebooks/99_x.ipynb: no mutant covers or mutates them"),
    (["--sample", "0"], "--sample must be at least 1, not 0"),
    (["-j", "-1"], "-j must be 1 or more, not -1"),
    (["--timeout", "0"], "--timeout must be positive, not 0.0"),
])
def test_a_bad_input_gets_one_message_and_nothing_is_written(argv, message, tmp_path, capsys):
    out = tmp_path / "results.json"
    assert mutate.main([*argv, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err == f"tools/mutate.py: error: {message}\n"
    assert not out.exists()
    assert mutate.main(["--smoke", "--out", str(tmp_path / "no" / "r.json")]) == 2
    assert "--out" in capsys.readouterr().err and not (tmp_path / "no").exists()


# ----------------------------------------------------------------------------- the smoke, for real
def test_the_smoke_kills_one_and_confirms_one_equivalent(tmp_path, capsys):
    watched = [ROOT / m.file for m in catalogue.MUTANTS if m.id in catalogue.SMOKE]
    before = [p.read_bytes() for p in watched]
    status = subprocess.run(["git", "status", "--porcelain", "--", *map(str, watched)],
                            cwd=ROOT, capture_output=True, text=True).stdout
    out = tmp_path / "smoke.json"
    assert mutate.main(["--smoke", "-j", "1", "--out", str(out)]) == 0
    results = json.loads(out.read_text())
    outcome = {r["id"]: r["outcome"] for r in results["mutants"]}
    assert outcome == {"initmap-fans-swapped": "killed",
                       "initmap-xavier-magnitude-default": "equivalent"}
    assert results["scope"] == "smoke" and results["date"] and results["machine"]["cores"]
    assert all(r["seconds"] > 0 and r["line"] for r in results["mutants"])
    assert "| `sidebyside.initmap` | 2 | 1 | 0 | 0 | 1 | 100 % |" in capsys.readouterr().out
    assert [p.read_bytes() for p in watched] == before
    assert subprocess.run(["git", "status", "--porcelain", "--", *map(str, watched)], cwd=ROOT,
                          capture_output=True, text=True).stdout == status


def test_merging_parts_keeps_each_mutants_last_result_and_says_so():
    def part(date, jobs, records):
        return {"date": date, "finished": date, "jobs": jobs, "scope": "subset",
                "machine": {"cores": 2, "cpu": "test cpu"}, "baselines": {},
                "mutants": [{"id": i, "outcome": o, "seconds": 60.0, "file": "src/x.py",
                             "line": 3, "operator": "scale", "models": "m"}
                            for i, o in records]}
    first = part("2026-01-01T00:00:00", 1, [("a", "killed"), ("b", "survived")])
    second = part("2026-01-02T00:00:00", 2, [("b", "killed")])
    order = [Mutant(i, "src/x.py", "x", "y", operator="scale", models="m", targets=("t.py",))
             for i in ("b", "a", "c")]
    merged = mutate.merge([first, second], order)
    assert [(r["id"], r["outcome"]) for r in merged["mutants"]] == [("b", "killed"),
                                                                     ("a", "killed")]
    assert merged["date"] == first["date"] and merged["finished"] == second["finished"]
    assert merged["scope"] == "2 of the catalogue's 3 mutants"
    assert merged["summary"]["src/x.py"]["killed_percent"] == 100.0
    section = mutate.status_section(merged)
    assert ("in 2 parts merged (2026-01-01: 2 mutants, 1 at a time; 2026-01-02: 1 mutants, "
            "2 at a time;" in section) and "add up to 2 min" in section
    assert "1 at a time" in mutate.status_section(first) and "parts" not in \
        mutate.status_section(first)
    third = part("2026-01-03T00:00:00", 2, [("c", "killed")])
    again = mutate.merge([merged, third], order)     # a merged run keeps its parts
    assert [r["date"][:10] for r in again["runs"]] == ["2026-01-01", "2026-01-02", "2026-01-03"]
    assert again["scope"] == "whole catalogue"
    assert "unless a part says otherwise" not in mutate.status_section(again)
    third["machine"] = {"cores": 2, "cpu": "other cpu"}
    mixed = mutate.status_section(mutate.merge([merged, third], order))
    assert "(other cpu, unless a part says otherwise)" in mixed
    assert "2026-01-01: 2 mutants, 1 at a time, test cpu;" in mixed
