"""The notebooks' mapping tables, read back; the cheat sheet built from them does not drift."""

import functools
import importlib.util
import sys

import pytest

from conftest import ROOT
from sidebyside import mappings


@pytest.fixture(scope="module")
def found():
    return mappings.read_all()


def _rows(found, stem):
    return [m for m in found.rows if m.stem == stem]


def test_known_rows_of_notebooks_8_and_15(found):
    nb08 = _rows(found, "08_optimizers_trainer")
    row = next(m for m in nb08 if m.section == "Summary" and m.label == "optimizer")
    assert row.notebook == 8 and row.pytorch.startswith("`torch.optim.SGD(params")
    assert row.mxnet.startswith('`gluon.Trainer(params, "sgd"')
    assert row.headers == ("PyTorch", "MXNet Gluon 1.9.1")
    assert ("to take the same steps", "equal; MXNet rounds hyper-parameters to float32") in row.notes
    # a section table, with both sides named in the header
    sched = next(m for m in nb08 if m.pytorch == "`StepLR(opt, step_size, gamma)`")
    assert sched.mxnet == "`FactorScheduler(step, factor, base_lr)`"
    assert sched.section.startswith("7. Learning-rate schedules")
    # notebook 16's summary puts MXNet first
    nb16 = _rows(found, "16_capstone_mxnet_to_pytorch")
    xavier = next(m for m in nb16 if "mx.init.Xavier(magnitude=2.24)" in m.mxnet)
    assert xavier.mxnet_first and xavier.section == "Summary"
    assert xavier.pytorch.startswith("`xavier_uniform_(w, gain=√(2.24/3))`")
    assert ("taught in", "§2, [6](06_blocks.ipynb) §2") in xavier.notes
    assert xavier.key.startswith("16_capstone_mxnet_to_pytorch §Summary: `net.initialize(")


@pytest.mark.parametrize("stem, pytorch, mxnet", [
    ("03_mnist_mlp", "`CrossEntropyLoss()` → batch mean", "`SoftmaxCrossEntropyLoss()`"),
    ("06_blocks", "`nn.Linear(d_in, d_out)`", "`gluon.nn.Dense(d_out)`"),
    ("10_losses", "`MSELoss`", "`L2Loss`, **½·MSE**"),
    ("13_serialization", '`torch.save(model.state_dict(), "m.pt")`',
     '`net.save_parameters("m.params")`'),
    ("15_capstone_mnist_to_gluon", "`optim.Adadelta(params, lr=1.0)`", "`gluon.Trainer(params, "),
    ("17_legacy_module_api", "`x.to(d)`", "`x.as_in_context(d)`"),
    ("18_legacy_data_recordio", "", ""),
])
def test_column_names_that_vary(found, stem, pytorch, mxnet):
    rows = _rows(found, stem)
    assert rows, stem
    assert any(m.pytorch.startswith(pytorch) and m.mxnet.startswith(mxnet) for m in rows)


def test_gluon_column_chosen_among_several_mxnet_columns(found):
    nb02 = next(m for m in _rows(found, "02_tensor_ops") if m.pytorch == "`torch.ones(2, 3)`")
    assert nb02.mxnet == "`nd.ones((2, 3))`" and nb02.headers[1] == "Gluon (`mx.nd`)"
    assert ("Gluon (`mx.np`/`npx`)", "`mx.np.ones((2, 3))`") in nb02.notes
    nb17 = [m for m in _rows(found, "17_legacy_module_api") if m.pytorch == "`x.to(d)`"]
    assert nb17[0].headers == ("PyTorch", "1.9.1")  # not "2.x (master)"


def test_tables_without_both_sides_are_counted_not_dropped(found):
    skipped = {(t.stem, t.header) for t in found.skipped}
    assert ("14_converting_models", ("task", "MXNet → PyTorch", "PyTorch → MXNet")) in skipped
    assert ("08_optimizers_trainer", ("seed claim", "verdict", "shown in")) in skipped
    assert all(t.rows > 0 for t in found.skipped)
    report = found.report()
    assert f"{len(found.rows)} mapping rows from {found.tables} tables" in report
    assert f"{len(found.skipped)} tables ({sum(t.rows for t in found.skipped)} rows) skipped" \
        in report
    assert len(found.rows) > 250 and len(found.skipped) >= 10


SYNTHETIC = """\
# %% [markdown]
# # 99 · A title, not a section
#
# ## 1. First
#
# | | PyTorch (`a.py`) | Gluon `F` | watch out |
# |---|:---|---:|---|
# | join | `torch.cat(ts)` | `nd.concat(*ts, dim=0)` | default `dim=1` \\| axis |
# | short | `x.item()` | `x.asscalar()` |

# %%
# | not | a table | in code |
# |---|---|---|
x = 1

# %% [markdown]
# ### 1.1 Words only
#
# | kvstore | what |
# |---|---|
# | `local` | here |
#
# | MXNet 1.x | PyTorch | note |
# |---|---|---|
# | `mx.sym.var('x')` | a tensor | |
"""


def test_a_synthetic_notebook(tmp_path):
    path = tmp_path / "99_synthetic.py"
    path.write_text(SYNTHETIC)
    found = mappings.read_notebook(path)
    assert [(m.section, m.label, m.pytorch, m.mxnet) for m in found.rows] == [
        ("1. First", "join", "`torch.cat(ts)`", "`nd.concat(*ts, dim=0)`"),
        ("1. First", "short", "`x.item()`", "`x.asscalar()`"),
        ("1.1 Words only", "", "a tensor", "`mx.sym.var('x')`"),
    ]
    first = found.rows[0]
    assert first.notebook == 99 and first.line == 8 and first.link == "notebooks/99_synthetic.ipynb"
    assert first.notes == (("watch out", "default `dim=1` | axis"),)  # \| unescaped
    assert found.rows[1].notes == ()  # a short row is padded, empty cells are no notes
    assert found.rows[2].mxnet_first and not first.mxnet_first
    assert [(t.section, t.header, t.rows) for t in found.skipped] == [
        ("1.1 Words only", ("kvstore", "what"), 1)]
    assert found.tables == 2 and "3 mapping rows from 2 tables in 1 notebooks" in found.report()
    assert mappings.read_all(tmp_path).rows == found.rows
    assert mappings.read_all(tmp_path / "absent").rows == []


@pytest.mark.parametrize("header, side", [
    ("PyTorch", "pytorch"), ("PyTorch (`main.py`)", "pytorch"), ("Gluon", "mxnet"),
    ("MXNet Gluon 1.9.1", "mxnet"), ("MXNet (`mx.metric`)", "mxnet"), ("1.9.1", "mxnet"),
    ("2.x (master)", "mxnet"), ("Module API", "mxnet"), ("MXNet (MXBoard)", "mxnet"),
    ("MXNet → PyTorch", None), ("porting PyTorch → Gluon", None), ("note", None), ("", None),
    ("taught in", None)])
def test_column_side(header, side):
    assert mappings.column_side(header) == side


@pytest.mark.parametrize("cell, name", [
    ("`gluon.Trainer(params, 'sgd')` and more", "gluon.Trainer"),
    ("`with autograd.record():`", "autograd.record"), ('`"nag"`', "nag"),
    ("`.to(device)`", "to"), ("`def forward(self, x)`", "forward"),
    ("none (`grad_req='write'` overwrites)", None), ("—", None), ("", None)])
def test_lead_name(cell, name):
    assert mappings.lead_name(cell) == name


def test_sort_key_by_last_component_names_first():
    names = ["nd.linalg.gemm2", None, "gluon.Trainer", "mx.np.arccos", "Dense"]
    assert sorted(names, key=mappings.sort_key) == [
        "mx.np.arccos", "Dense", "nd.linalg.gemm2", "gluon.Trainer", None]


@functools.lru_cache(maxsize=1)
def _tool():
    spec = importlib.util.spec_from_file_location("make_cheatsheet",
                                                  ROOT / "tools" / "make_cheatsheet.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_committed_cheatsheet_is_what_the_tool_writes():
    tool = _tool()
    text, stats = tool.render()
    committed = (ROOT / "book" / "cheatsheet.md").read_text(encoding="utf-8")
    assert committed == text, "book/cheatsheet.md is out of date: run `make cheatsheet`"
    # two tables, each with every row once, plus its header, separator and group line
    mx_part, torch_part = text.split("## MXNet → PyTorch")[1].split("## PyTorch → MXNet")
    for part in (mx_part, torch_part):
        rows = [ln for ln in part.splitlines() if ln.startswith("| ")]
        assert len(rows) == stats["rows per table"] + 2
    assert stats["rows per table"] == stats["API map rows"] + stats["notebook rows"]
    assert "- file: cheatsheet" in (ROOT / "book" / "_toc.yml").read_text()
    assert "executed in notebook 2: rtol 1e-05, atol 1e-06" in text
    assert "](notebooks/08_optimizers_trainer.ipynb) §Summary" in text
    assert "](06_blocks.ipynb)" not in text  # links between notebooks made relative to book/
    # the section the API-map rows point to exists in notebook 2
    from sidebyside import apimap
    nb02 = (ROOT / "notebooks" / f"{apimap.MAP_NOTEBOOK}.py").read_text()
    assert f"# ## {apimap.MAP_SECTION}\n" in nb02


@pytest.mark.parametrize("text, expected", [
    ("use x.to(d) here", "use `x.to(d)` here"),
    ("`x.to(d)` and mx.np", "`x.to(d)` and `mx.np`"),
    ("see [6](06_blocks.ipynb) §2, e.g. this", "see [6](notebooks/06_blocks.ipynb) §2, e.g. this"),
    ("a | b", "a \\| b")])
def test_cheatsheet_text_is_protected_from_linkify(text, expected):
    assert _tool().protect(text) == expected
