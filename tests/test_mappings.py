"""The pages' mapping tables (tutorials and deep dives), read back; the cheat sheet and the
full table built from them (tools/make_cheatsheet.py) do not drift, and say what they hold
truly."""

import functools
import importlib.util
import re
import sys

import pytest

from conftest import ROOT
from sidebyside import apimap, mappings
from sidebyside.apimap import helpers


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
    assert any(h == "to take the same steps" and c.startswith(
        "equal; MXNet rounds hyper-parameters to float32") for h, c in row.notes)
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
    ("10_losses", "`nn.MSELoss()", "`gluon.loss.L2Loss("),
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
    assert ("08_optimizers_trainer", ("seed claim", "verdict", "shown in")) in skipped
    assert all(t.rows > 0 for t in found.skipped)
    report = found.report()
    assert f"{len(found.rows)} mapping rows from {found.tables} tables" in report
    assert f"{len(found.howtos)} porting tasks from {found.howto_tables} tables" in report
    assert f"{len(found.skipped)} tables ({sum(t.rows for t in found.skipped)} rows) skipped" \
        in report
    assert len(found.rows) > 250 and len(found.skipped) >= 10


def test_what_is_skipped_names_no_framework_and_no_direction(found):
    """A skipped table is not a mapping: no header cell names either framework, a porting
    direction or a port (the seed-claim tables, byte layouts, one framework's lists)."""
    words = re.compile(r"(?i)pytorch|\btorch\b|mxnet|gluon|\blegacy\b|\bport\b|→|->|⇄")
    for t in found.skipped:
        assert not any(words.search(h) for h in t.header), (t.stem, t.section, t.header)


def test_a_table_by_direction_is_read_into_porting_tasks(found):
    """Notebook 14's summary (`| task | MXNet → PyTorch | PyTorch → MXNet |`): its columns
    are how-tos, not sides; each row is a task with each way's cell."""
    tasks = [h for h in found.howtos if h.stem == "14_converting_models"]
    assert len(tasks) >= 5 and all(h.section == "Summary" for h in tasks)
    assert not any(m.stem == "14_converting_models" and m.section == "Summary"
                   for m in found.rows)
    checks = next(h for h in tasks if h.label == "with checks")
    assert checks.toward("pytorch").startswith("`convert.params_to_state_dict(")
    assert checks.toward("mxnet").startswith("`convert.state_dict_to_params(")
    assert checks.key == "14_converting_models §Summary: with checks"
    assert checks.where == "notebook 14, §Summary"
    assert checks.link == "notebooks/14_converting_models.ipynb" and checks.anchor == "summary"


def test_legacy_and_the_port_are_the_two_sides(found):
    """Notebook 16's modes table, `| legacy | what it does | the port |`: the legacy MXNet
    script's mode, and its PyTorch port."""
    modes = [m for m in found.rows if m.stem == "16_capstone_mxnet_to_pytorch"
             and m.headers == ("the port", "legacy")]
    assert len(modes) >= 3 and all(m.mxnet_first for m in modes)
    hybrid = next(m for m in modes if m.mxnet == "`--mode hybrid`")
    assert hybrid.pytorch.startswith("eager; `torch.compile`")
    assert ("what it does", hybrid.notes[0][1]) == hybrid.notes[0]


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

# %% [markdown]
# ## 2. Both ways
#
# | task | MXNet → PyTorch | PyTorch → MXNet |
# |---|---|---|
# | weights | `nd.load(f)` → [6](06_blocks.ipynb) | `torch.load(f)` |
#
# | legacy | what it does | the port |
# |---|---|---|
# | `--mode hybrid` | a graph | eager |
"""


def test_a_synthetic_notebook(tmp_path):
    path = tmp_path / "99_synthetic.py"
    path.write_text(SYNTHETIC)
    found = mappings.read_notebook(path)
    assert [(m.section, m.label, m.pytorch, m.mxnet) for m in found.rows] == [
        ("1. First", "join", "`torch.cat(ts)`", "`nd.concat(*ts, dim=0)`"),
        ("1. First", "short", "`x.item()`", "`x.asscalar()`"),
        ("1.1 Words only", "", "a tensor", "`mx.sym.var('x')`"),
        ("2. Both ways", "", "eager", "`--mode hybrid`"),
    ]
    assert found.rows[3].notes == (("what it does", "a graph"),) and found.rows[3].mxnet_first
    [task] = found.howtos
    assert (task.label, task.section, task.toward("pytorch"), task.toward("mxnet")) == (
        "weights", "2. Both ways", "`nd.load(f)` → [6](06_blocks.ipynb)", "`torch.load(f)`")
    assert task.title == "99 · A title, not a section" and found.howto_tables == 1
    first = found.rows[0]
    assert first.notebook == 99 and first.line == 8 and first.link == "notebooks/99_synthetic.ipynb"
    assert first.notes == (("watch out", "default `dim=1` | axis"),)  # \| unescaped
    assert found.rows[1].notes == ()  # a short row is padded, empty cells are no notes
    assert found.rows[2].mxnet_first and not first.mxnet_first
    assert [(t.section, t.header, t.rows) for t in found.skipped] == [
        ("1.1 Words only", ("kvstore", "what"), 1)]
    assert found.tables == 3 and "4 mapping rows from 3 tables" in found.report()
    assert mappings.read_all(tmp_path).rows == found.rows
    assert mappings.read_all(tmp_path / "absent").rows == []


def test_a_deep_dive_is_read_like_a_tutorial(tmp_path):
    (tmp_path / "99_synthetic.py").write_text(SYNTHETIC)
    (tmp_path / "deep_dives").mkdir()
    (tmp_path / "deep_dives" / "a_survey.py").write_text(
        "# %% [markdown]\n# # Deep dive · A survey\n#\n# Back to [notebook 5](../05_autograd.ipynb)."
        "\n#\n# ## 1. Layers\n#\n# | PyTorch | Gluon |\n# |---|---|\n"
        "# | `nn.Linear` | `nn.Dense`, see [5](../05_autograd.ipynb) |\n")
    assert [p.name for p in mappings.pages(tmp_path)] == ["99_synthetic.py", "a_survey.py"]
    found = mappings.read_all(tmp_path)
    deep = found.rows[-1]
    assert (deep.folder, deep.stem, deep.notebook, deep.section) == (
        "deep_dives", "a_survey", 0, "1. Layers")
    assert deep.page == "deep_dives/a_survey" and deep.key == "deep_dives/a_survey §1. Layers: `nn.Linear`"
    assert deep.where == "deep dive “A survey”, §1. Layers"
    assert deep.link == "notebooks/deep_dives/a_survey.ipynb"
    assert deep.target == "notebooks/deep_dives/a_survey.html#layers"
    # its links, relative to the deep dive, become links relative to book/
    tool = _tool()
    assert tool.protect(deep.mxnet, deep.folder) == \
        "`nn.Dense`, see [5](notebooks/05_autograd.ipynb)"


def test_the_real_deep_dives_are_read(found):
    folders = {p.parent.name for p in mappings.pages()}
    if "deep_dives" not in folders:
        pytest.skip("no deep dive yet")
    skipped_or_read = {m.page for m in found.rows} | {t.stem for t in found.skipped
                                                      if t.folder == "deep_dives"}
    assert any(t.folder == "deep_dives" for t in found.skipped) or any(
        m.folder == "deep_dives" for m in found.rows), skipped_or_read


@pytest.mark.parametrize("heading, anchor", [
    ("8. The whole map, run", "the-whole-map-run"), ("Summary", "summary"),
    ("2. Shapes: a tuple, `size` and `numel`, `.T`", "shapes-a-tuple-size-and-numel-t"),
    ("6. [Notebook 3](03_mnist_mlp.ipynb)'s MLP on the test set", "notebook-3-s-mlp-on-the-test-set"),
    ("1. `mx.io.NDArrayIter` ↔ `TensorDataset` + `DataLoader`",
     "mx-io-ndarrayiter-tensordataset-dataloader"),
    ("When the saved keys do *not* match", "when-the-saved-keys-do-not-match"), ("", "")])
def test_section_id(heading, anchor):
    assert mappings.section_id(heading) == anchor


def test_code_cells_with_their_sections():
    source = ("# %%\nimport x\n\n# %% [markdown]\n# ## 1. One\n\n# %%\n# a comment\ny = 1\n"
              "\n# %% [markdown]\n# ### 1.1 Sub\n\n# %% tags=[\"hide-cell\"]\nz = 2\n")
    assert mappings.code_cells(source) == [(2, "", "import x"), (8, "1. One", "y = 1"),
                                           (15, "1. One", "z = 2")]


@pytest.mark.parametrize("header, side", [
    ("PyTorch", "pytorch"), ("PyTorch (`main.py`)", "pytorch"), ("Gluon", "mxnet"),
    ("MXNet Gluon 1.9.1", "mxnet"), ("MXNet (`mx.metric`)", "mxnet"), ("1.9.1", "mxnet"),
    ("2.x (master)", "mxnet"), ("Module API", "mxnet"), ("MXNet (MXBoard)", "mxnet"),
    ("MXNet → PyTorch", None), ("porting PyTorch → Gluon", None), ("note", None), ("", None),
    ("taught in", None), ("legacy", "mxnet"), ("the port", None)])
def test_column_side(header, side):
    assert mappings.column_side(header) == side


@pytest.mark.parametrize("header, side", [
    ("MXNet → PyTorch", "pytorch"), ("PyTorch → MXNet", "mxnet"),
    ("porting PyTorch → Gluon", "mxnet"), ("porting Gluon -> PyTorch", "pytorch"),
    ("PyTorch", None), ("a → b", None), ("MXNet → MXNet 2.x", None), ("task", None)])
def test_direction_of(header, side):
    assert mappings.direction_of(header) == side


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


def _between(text, start, end=None):
    part = text.split(start, 1)[1]
    return part.split(end, 1)[0] if end else part


def _table_rows(part):
    return [ln for ln in part.splitlines() if ln.startswith("| ")]


# ------------------------------------------------------------------------ all mappings
def test_all_mappings_says_truly_what_it_holds(found):
    """"Every mapping in this book on one page": each row of the map and of every mapping
    table is in both tables, each porting task and each helper module in its section, each
    skipped table named, and the counts the page states are the ones read."""
    tool = _tool()
    text, stats = tool.render_all()
    mx_part = _between(text, "## MXNet → PyTorch", "## PyTorch → MXNet")
    torch_part = _between(text, "## PyTorch → MXNet", "## Porting tasks, either way")
    tasks = _between(text, "## Porting tasks, either way", "## The helper package")
    package = _between(text, "## The helper package", "## Tables that are not mappings")
    skipped = _between(text, "## Tables that are not mappings")
    for part in (mx_part, torch_part):
        for m in found.rows:
            cell = tool.protect(m.pytorch, m.folder) or "—"
            assert f"| {cell} |" in part, (m.key, cell)
        for r in apimap.ROWS:
            assert f"| {tool.code(tool.torch_spelling(r))} |" in part, r.key
    for h in found.howtos:
        assert f"| {tool.protect(h.label, h.folder)} |" in tasks, h.key
    assert tasks.count("\n| ") == len(found.howtos) + 1
    modules = [h for h in helpers.read_all() if not h.name]
    for h in modules:
        assert f"| `sidebyside.{h.module}` |" in package
    for name in ("params_to_state_dict", "gluon_to_torch", "seed_everything", "find"):
        assert f"`{name}`" in package, name
    assert skipped.count("\n- [") == len(found.skipped) == stats["tables skipped"]
    intro = text.split("```{tip}")[0]
    assert (f"the {len(apimap.ROWS)} rows of the executable API map" in intro
            and f"the {len(found.rows)} rows of the mapping tables" in intro
            and f"the {len(found.howtos)} porting tasks" in intro
            and f"{len(modules)} modules" in intro)
    assert stats["rows per table"] == len(apimap.ROWS) + len(found.rows)


def test_all_mappings_rows_are_one_line_a_side():
    """No test program in a cell: every row of both tables is one physical line, no cell
    holds a line break, and each API-map row's PyTorch cell is one code span."""
    text, stats = _tool().render_all()
    for title in ("## MXNet → PyTorch", "## PyTorch → MXNet"):
        rows = _table_rows(_between(text, title, "\n## "))
        assert len(rows) == stats["rows per table"] + 2  # the header and the group line
        for row in rows:
            assert "<br>" not in row, row[:120]
    multi = [r for r in apimap.ROWS if len(r.torch.strip().splitlines()) > 1]
    assert len(multi) >= 30  # the rows that needed a spelling
    for r in multi:
        cell = _tool().code(r.spelling)
        assert cell.count("`") == 2 and f"| {cell} |" in text, r.key


def test_a_multi_line_cell_is_refused():
    with pytest.raises(_tool().SelectorError):
        _tool().code("u = x.clone()\nu")
    assert _tool().code("  x.t()  ") == "`x.t()`"


def test_each_spelling_calls_what_its_snippet_calls():
    """A spelling is display only: each name it calls (``x.apply_(fn)``: ``apply_``) is
    called, or read, by the row's snippet, so a spelling cannot name an API the row does not
    run. A spelling is one line, and only rows whose snippet is several lines have one."""
    for r in apimap.ROWS:
        for spelling, snippet in ((r.spelling, r.torch), (r.mx_spelling, r.nd or r.np)):
            if not spelling:
                continue
            assert "\n" not in spelling, r.key
            for name in re.findall(r"([A-Za-z_]\w*)\(", spelling):
                assert re.search(rf"\b{re.escape(name)}\b", snippet), (r.key, name)
            assert len(snippet.strip().splitlines()) > 1 or spelling.strip() != snippet.strip()
        if r.spelling:
            assert len(r.torch.strip().splitlines()) > 1, f"{r.key}: a spelling it needs not"


def test_the_check_column_is_short():
    text, _ = _tool().render_all()
    rows = _table_rows(_between(text, "## MXNet → PyTorch", "## PyTorch → MXNet"))[1:]
    checks = [row.split(" | ")[-2] for row in rows if "no one MXNet API name" not in row]
    assert checks.count("shown") == len(mappings.read_all().rows)
    assert "run: rtol 1e-5, atol 1e-6" in checks
    assert max(len(c) for c in checks) <= 40
    assert "shown in the notebook" not in text and "executed in notebook 2" not in text


def test_section_links_are_short_and_go_to_the_section():
    tool = _tool()
    assert tool.short_place("08_optimizers_trainer", "", "2. SGD with momentum") == "8 §2"
    assert tool.short_place("08_optimizers_trainer", "", "Summary") == "8 §Summary"
    assert tool.short_place("08_optimizers_trainer", "", "Summary", compact=True) == "8"
    assert tool.short_place("data_workers", "deep_dives", "3. Workers") == "deep dive §3"
    text, _ = tool.render_all()
    assert ('<a class="sbs-sec" href="notebooks/08_optimizers_trainer.html#summary" '
            'title="notebook 8, §Summary">8 §Summary</a>') in text
    # the section the API-map rows point to exists in notebook 2
    nb02 = (ROOT / "notebooks" / f"{apimap.MAP_NOTEBOOK}.py").read_text()
    assert f"# ## {apimap.MAP_SECTION}\n" in nb02
    assert f'href="notebooks/{apimap.MAP_NOTEBOOK}.html#the-whole-map-run"' in text
    assert "](06_blocks.ipynb)" not in text  # links between notebooks made relative to book/


# ----------------------------------------------------------------------- the cheat sheet
def test_committed_pages_are_what_the_tool_writes():
    tool = _tool()
    for path, (text, _) in tool.render().items():
        committed = path.read_text(encoding="utf-8")
        assert committed == text, f"book/{path.name} is out of date: run `make cheatsheet`"
    toc = (ROOT / "book" / "_toc.yml").read_text()
    assert "- file: cheatsheet" in toc and "- file: all_mappings" in toc
    assert tool.main(["--check"]) == 0


def test_check_fails_on_a_stale_page(tmp_path, capsys):
    tool = _tool()
    for path, (text, _) in tool.render().items():
        (tmp_path / path.name).write_text(text, encoding="utf-8")
    assert tool.main(["--check", "--out-dir", str(tmp_path)]) == 0
    (tmp_path / "all_mappings.md").write_text("stale", encoding="utf-8")
    assert tool.main(["--check", "--out-dir", str(tmp_path)]) == 1
    assert "all_mappings.md: OUT OF DATE" in capsys.readouterr().out


def _sheets(text):
    return (_between(text, "## From PyTorch to MXNet Gluon", "## From MXNet Gluon to PyTorch"),
            _between(text, "## From MXNet Gluon to PyTorch"))


def test_the_cheat_sheet_is_the_selected_rows_both_ways(found):
    tool = _tool()
    text, stats = tool.render_sheet()
    selectors = [s for group in tool.SHEET.values() for s in group]
    assert 40 <= len(selectors) <= 60 and stats["rows"] == len(selectors)
    assert set(tool.SHEET) >= {"Tensors", "Layers", "Losses", "Optimizer and Trainer",
                               "Autograd", "Data", "Devices", "Saving and loading"}
    entries = [e for group in tool.resolve_sheet(found).values() for e in group]
    torch_sheet, mx_sheet = _sheets(text)
    for sheet, first in ((torch_sheet, "pytorch"), (mx_sheet, "mxnet")):
        rows = _table_rows(sheet)
        assert len(rows) == 1 + len(tool.SHEET) + len(selectors)  # the header, topics, rows
        assert rows[0] == ("| PyTorch | MXNet Gluon | § |" if first == "pytorch"
                           else "| MXNet Gluon | PyTorch | § |")
        for e in entries:
            a, b = (e.pytorch, e.mxnet) if first == "pytorch" else (e.mxnet, e.pytorch)
            assert f"| {a} | {b} | {e.source} |" in sheet, e.key
        for row in rows[1:]:
            assert "<br>" not in row and (row.count(" | ") == 2 or "sbs-topic" in row), row
    # the two orders differ: within a topic each sheet sorts by its own first column
    firsts = [[r.split(" | ")[0] for r in _table_rows(s)[1:]] for s in (torch_sheet, mx_sheet)]
    assert firsts[0] != firsts[1]
    tensors = _between(torch_sheet, "Tensors</span>", "Layers</span>")
    assert tensors.index("`torch.arange(5)`") < tensors.index("`w.view(16)`")


def test_each_sheet_row_is_a_row_that_runs(found):
    """A selected API-map row shows its spellings; a selected table row its cells."""
    tool = _tool()
    e = tool.resolve("map: arange", found)
    assert (e.pytorch, e.mxnet) == ("`torch.arange(5)`", "`nd.arange(5, dtype='int64')`")
    assert apimap.row("arange").mx_spelling in apimap.row("arange").nd
    assert "2 §8</a>" in e.source and "#the-whole-map-run" in e.source
    e = tool.resolve("08_optimizers_trainer §7: `StepLR(opt, step_size, gamma)`", found)
    assert e.mxnet == "`FactorScheduler(step, factor, base_lr)`" and "8 §7</a>" in e.source
    e = tool.resolve("17_legacy_module_api §Summary: `x.to(device)`", found)
    assert (e.pytorch, e.mxnet) == ("`x.to(device)`", "`x.as_in_context(ctx)`")
    assert ">17</a>" in e.source


@pytest.mark.parametrize("selector, why", [
    ("map: no such row", "matches 0 rows"),
    ("08_optimizers_trainer §Summary: no such label", "matches 0 rows"),
    ("map: apply_", "no one-line MXNet spelling"),
    ("08_optimizers_trainer §Summary: optimizer", "characters"),   # too long to print
    ("06_blocks §Summary: custom block", "holds a link"),
])
def test_a_selector_that_does_not_name_one_printable_row_fails(found, selector, why):
    tool = _tool()
    with pytest.raises(tool.SelectorError, match=why):
        tool.resolve(selector, found)
    with pytest.raises(tool.SelectorError):
        tool.resolve_sheet(found, {"Tensors": ("map: ones", selector)})


def test_a_selector_that_names_several_rows_fails(found):
    """Two rows with one key (two tables of one section, rows written alike): which one the
    sheet meant is not known."""
    tool = _tool()
    row = next(m for m in found.rows if m.key == "17_legacy_module_api §Summary: `x.to(device)`")
    twice = mappings.Tables(rows=[row, row])
    with pytest.raises(tool.SelectorError, match="matches 2 rows"):
        tool.resolve(row.key, twice)
    assert tool.resolve(row.key, mappings.Tables(rows=[row])).mxnet == "`x.as_in_context(ctx)`"


def test_a_selector_listed_twice_fails(found):
    tool = _tool()
    with pytest.raises(tool.SelectorError, match="twice"):
        tool.resolve_sheet(found, {"Tensors": ("map: ones",), "Layers": ("map: ones",)})


def test_the_tool_fails_on_a_bad_selector(monkeypatch, tmp_path, capsys):
    tool = _tool()
    monkeypatch.setitem(tool.SHEET, "Tensors", ("map: ones", "map: no such row"))
    assert tool.main(["--out-dir", str(tmp_path)]) == 2
    assert "no such row" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())  # nothing written


def test_the_five_gotchas_link_the_section_that_asserts_them(found):
    from sidebyside.migrate import gotchas

    tool = _tool()
    text, stats = tool.render_sheet()
    assert len(tool.GOTCHAS) == stats["gotchas"] == 5
    for sheet in _sheets(text):
        items = [ln for ln in sheet.splitlines() if re.match(r"\d\. \*\*", ln)]
        assert len(items) == 5
        for (tag, name), item in zip(tool.GOTCHAS, items):
            d = gotchas.by_name(name)
            assert item.startswith(f"{items.index(item) + 1}. **{tag}**: ")
            assert f'href="{d.link.removesuffix(".ipynb")}.html#{d.anchor}"' in item
            # the section exists: its heading is in the notebook's source
            py = ROOT / d.link.removesuffix(".ipynb")
            assert mappings.section_id(d.where.split(", §", 1)[1]) == d.anchor
            assert py.with_suffix(".py").exists()
    with pytest.raises(tool.SelectorError):
        tool.resolve_gotchas((("x", "no-such-detector"),))


def test_the_cheat_sheet_links_its_pdf_and_the_full_table():
    text, _ = _tool().render_sheet()
    assert '<a class="sbs-pdf" href="cheatsheet.pdf" download>' in text
    assert 'href="all_mappings.html"' in text
    assert ":::{div} sbs-cheatsheet" in text and ":::{div} sbs-sheet sbs-sheet-mxnet" in text
    # no MyST link: the page builds alone (tests/test_cheatsheet_print.py) with -W
    assert not re.search(r"\]\((?!#)[^)]*\)", text)


@pytest.mark.parametrize("text, expected", [
    ("use x.to(d) here", "use `x.to(d)` here"),
    ("`x.to(d)` and mx.np", "`x.to(d)` and `mx.np`"),
    ("see [6](06_blocks.ipynb) §2, e.g. this", "see [6](notebooks/06_blocks.ipynb) §2, e.g. this"),
    ("[x](https://a.org/b.ipynb) [y](#here)", "[x](https://a.org/b.ipynb) [y](#here)"),
    ("a | b", "a \\| b")])
def test_cheatsheet_text_is_protected_from_linkify(text, expected):
    assert _tool().protect(text) == expected


@pytest.mark.parametrize("value, text", [(1e-5, "1e-5"), (1e-6, "1e-6"), (0.001, "0.001"),
                                         (2e-3, "0.002"), (1e-12, "1e-12")])
def test_tolerance(value, text):
    assert _tool().tolerance(value) == text
