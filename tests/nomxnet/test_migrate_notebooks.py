"""Jupyter notebooks in ``sidebyside.migrate``: scanned as their code cells (magics and shell lines
set aside), reported with lines a person can find, and drafted back into a notebook cell by cell
that runs in PyTorch. Runs in both environments (standard library and torch, no MXNet)."""
import json

import pytest
import torch

from sidebyside.migrate import cli, notebooks, report


def cell(kind, source, **extra):
    c = {"cell_type": kind, "metadata": extra.pop("metadata", {}), "source": source}
    if kind == "code":
        c.update(execution_count=extra.pop("count", None), outputs=extra.pop("outputs", []))
    return c


LEGACY = {
    "cells": [
        cell("markdown", ["# A legacy notebook\n", "Gluon, as it was.\n"]),
        cell("code", ["%matplotlib inline\n", "import mxnet as mx\n",
                      "from mxnet import nd, autograd\n", "x = nd.array([1, 2, 3])\n",
                      "!pip list\n"], count=3, metadata={"tags": ["setup"]},
             outputs=[{"output_type": "stream", "name": "stdout", "text": ["MXNet's\n"]}]),
        cell("code", ["%%time\n", "slow = sum(range(10))\n"]),
        cell("raw", "left as it is"),
        cell("code", []),
        cell("code", "y = nd.ones((2, 3))\nz = nd.concat(y, y, dim=0)\ntotal = z.sum()\n"
             "count = z.size"),
    ],
    "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}},
    "nbformat": 4, "nbformat_minor": 5,
}


def test_the_cells_become_one_script_and_come_back_one_by_one():
    text = json.dumps(LEGACY)
    script = notebooks.script_of(text)
    lines = script.splitlines()
    assert lines[0] == "# %% [migrate: cell 1]" and "# %% [migrate: cell 5]" in lines
    assert "# %% [migrate: cell 0]" not in lines and "# %% [migrate: cell 3]" not in lines
    assert "# [migrate: IPython] %matplotlib inline" in lines         # set aside for the scan
    assert "# [migrate: IPython] slow = sum(range(10))" in lines      # a %%time cell, all of it
    compile(script, "nb.py", "exec")
    back = json.loads(notebooks.notebook_of(text, script))          # an unchanged draft
    assert [c["cell_type"] for c in back["cells"]] == [c["cell_type"] for c in LEGACY["cells"]]
    for old, new in zip(LEGACY["cells"], back["cells"]):
        assert new["metadata"] == old["metadata"]
        if old["cell_type"] != "code":
            assert new == old                        # markdown and raw cells: as they were
            continue
        old_src = "".join(old["source"]) if isinstance(old["source"], list) else old["source"]
        assert "".join(new["source"]) == old_src.rstrip("\n"), old_src
        assert new["outputs"] == [] and new["execution_count"] is None
    assert back["metadata"] == LEGACY["metadata"] and back["nbformat"] == 4


@pytest.mark.parametrize("text, why", [
    ("{not json", "not JSON"),
    ('{"cells": 3}', "no list of cells"),
    ("[1, 2]", "no list of cells"),
])
def test_a_file_that_is_no_notebook_is_refused_with_its_reason(text, why):
    with pytest.raises(notebooks.NotANotebook, match=why):
        notebooks.script_of(text)


def test_a_folder_scan_drafts_its_notebooks_and_the_drafts_run(tmp_path, capsys):
    src = tmp_path / "project"
    (src / ".ipynb_checkpoints").mkdir(parents=True)
    (src / "legacy.ipynb").write_text(json.dumps(LEGACY))
    (src / ".ipynb_checkpoints" / "legacy-checkpoint.ipynb").write_text(json.dumps(LEGACY))
    (src / "broken.ipynb").write_text("{not json")
    (src / "train.py").write_text("import mxnet as mx\nx = mx.nd.zeros((2,))\n")
    rep = report.scan(src)
    assert sorted(f.path for f in rep.files) == ["broken.ipynb", "legacy.ipynb", "train.py"]
    broken = next(f for f in rep.files if f.path == "broken.ipynb")
    assert broken.skipped.startswith("a .ipynb file that is not JSON")
    nb = next(f for f in rep.analysed if f.path == "legacy.ipynb")
    # all converted, z.size too: an int in MXNet, a method in torch (numel())
    assert nb.notebook is not None and nb.lines_by_status() == {
        "converted": 7, "decision": 0, "no counterpart": 0}
    # the report's lines are the script's: line 5 is x = nd.array(...), after cell 1's marker
    assert [s.site.line for s in nb.sites if s.site.name == "mx.nd.array"] == [5]
    assert "1 notebook: a notebook's line numbers" in report.render(rep)
    assert json.loads(report.render(rep, "json"))["files"][1]["notebook"] is True

    out = tmp_path / "port"
    assert cli.main([str(src), "--write", str(out)]) == 0
    capsys.readouterr()
    drafted = json.loads((out / "legacy.ipynb").read_text())
    code = ["".join(c["source"]) for c in drafted["cells"] if c["cell_type"] == "code"]
    assert code[0].splitlines()[0] == "%matplotlib inline" and code[0].endswith("!pip list")
    assert code[1] == "%%time\nslow = sum(range(10))" and code[2] == ""
    left = [ln for c in code for ln in c.splitlines()
            if not ln.lstrip().startswith("#") and ("mxnet" in ln or "nd." in ln)]
    assert not left, code
    assert "count = z.numel()" in code[3].splitlines()
    assert all(c["outputs"] == [] for c in drafted["cells"] if c["cell_type"] == "code")
    # run it as Jupyter would, without IPython: the magic and shell lines left out
    namespace = {}
    for c in code:
        if c.startswith("%%"):
            continue
        exec("\n".join(ln for ln in c.splitlines() if not ln.lstrip().startswith(("%", "!"))),
             namespace)
    assert torch.equal(namespace["x"], torch.tensor([1.0, 2.0, 3.0]))
    assert namespace["z"].shape == (4, 3) and float(namespace["total"]) == 12.0
    assert namespace["count"] == 12
    assert not (out / ".ipynb_checkpoints").exists() and (out / "train.py").exists()


def test_one_notebook_scanned_alone(tmp_path, capsys):
    path = tmp_path / "one.ipynb"
    path.write_text(json.dumps(LEGACY))
    assert cli.main([str(path)]) == 0
    assert "one.ipynb:5: mx.nd.array" in capsys.readouterr().out
    notes = tmp_path / "notes.txt"
    notes.write_text("x = 1\n")
    with pytest.raises(report.ScanError, match="not a .py file or a notebook"):
        report.scan(notes)
