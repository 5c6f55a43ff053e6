"""Every notebook has its jupytext twin, the two say the same, and outputs are stored.

nbval (configured in pyproject.toml) executes every notebook found under notebooks/ and
compares the outputs; this file checks what nbval does not.
"""
import jupytext
import nbformat
import pytest

from conftest import ROOT

NOTEBOOKS = sorted((ROOT / "notebooks").rglob("*.ipynb"))
NOTEBOOKS = [p for p in NOTEBOOKS if ".ipynb_checkpoints" not in p.parts]
SCRIPTS = sorted(p for p in (ROOT / "notebooks").rglob("*.py") if ".ipynb_checkpoints" not in p.parts)


def cells(nb):
    return [(c.cell_type, c.source.strip(), sorted(c.metadata.get("tags", []))) for c in nb.cells]


def test_there_are_notebooks():
    assert NOTEBOOKS, "no notebook found under notebooks/"


def test_every_script_has_a_notebook():
    orphans = [p.name for p in SCRIPTS if not p.with_suffix(".ipynb").exists()]
    assert not orphans, f"jupytext scripts without a notebook: {orphans}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_and_twin_agree(path):
    twin = path.with_suffix(".py")
    assert twin.exists(), f"{path.name} has no py:percent twin: run `make sync`"
    from_ipynb = cells(jupytext.read(path))
    from_py = cells(jupytext.read(twin))
    for i, (a, b) in enumerate(zip(from_ipynb, from_py)):
        assert a == b, f"cell {i} differs between {path.name} and {twin.name}: run `make sync`"
    assert len(from_ipynb) == len(from_py), f"{path.name} and {twin.name} have different cell counts"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_outputs_are_stored_from_one_clean_run(path):
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    counts = [c.execution_count for c in code]
    assert None not in counts, f"{path.name}: cells never executed: run `make notebooks`"
    assert counts == list(range(1, len(code) + 1)), f"{path.name}: not from one top-to-bottom run"
    assert any(c.outputs for c in code), f"{path.name}: no stored outputs"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_anatomy(path):
    nb = nbformat.read(path, as_version=4)
    first = nb.cells[0]
    assert first.cell_type == "markdown" and first.source.startswith("# "), "starts with a title"
    assert "What you will learn" in first.source
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert "## Summary" in text and "## Exercises" in text
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    assert "assert" in code, "a notebook checks what it claims"
