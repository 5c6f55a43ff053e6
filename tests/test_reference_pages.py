"""The generated reference pages (book/errors.md, book/status.md) do not drift from the notebooks."""

import importlib.util
import json
import re
import sys

import pytest

from conftest import ROOT

NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
DEEP_DIVES = sorted((ROOT / "notebooks" / "deep_dives").glob("*.ipynb"))
MACHINE_PATH = re.compile(r"(/tmp/|/work/|/root/|/home/|/Users/|site-packages|/usr/lib)")


def _tool(name):
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module      # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def errors_tool():
    return _tool("make_error_index")


@pytest.fixture(scope="module")
def status_tool():
    return _tool("make_status")


@pytest.fixture(scope="module")
def errors_page(errors_tool):
    return errors_tool.render()[0]


@pytest.fixture(scope="module")
def status_page(status_tool):
    return status_tool.render()[0]


def _raising_notebooks():
    """The pages (``NN_x``, ``deep_dives/x``) with a cell tagged raises-exception."""
    out = set()
    for path in NOTEBOOKS + DEEP_DIVES:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        if any("raises-exception" in c.get("metadata", {}).get("tags", []) for c in cells):
            out.add(f"deep_dives/{path.stem}" if path in DEEP_DIVES else path.stem)
    return out


# ------------------------------------------------------------------------ book/errors.md
def test_committed_error_index_is_what_the_tool_writes(errors_page):
    committed = (ROOT / "book" / "errors.md").read_text(encoding="utf-8")
    assert committed == errors_page, "book/errors.md is out of date: run `make errors`"


def test_error_index_has_an_entry_per_notebook_that_raises(errors_page, errors_tool):
    linked = set(re.findall(r"\]\(notebooks/((?:deep_dives/)?\w+)\.ipynb\)", errors_page))
    raising = _raising_notebooks()
    assert raising and raising <= linked
    entries = errors_tool.read_all()
    assert {e.page for e in entries} == raising
    assert errors_page.count("\n- **`") == len(entries)


def test_error_index_leaks_no_machine_path_or_colour(errors_page):
    assert not MACHINE_PATH.search(errors_page), MACHINE_PATH.search(errors_page)
    assert "\x1b" not in errors_page


def test_error_index_known_entries(errors_tool):
    entries = errors_tool.read_all()
    by_message = {(e.framework, e.ename, e.message) for e in entries}
    assert ("MXNet", "MXNetError", "Invalid context string 3") in by_message
    assert ("PyTorch", "RuntimeError",
            "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)") in by_message
    assert any(f == "sidebyside" and n == "RecordIOError" for f, n, _ in by_message)
    first = next(e for e in entries if e.message == "Invalid context string 3")
    assert first.stem == "01_install_and_environment" and first.cause
    assert all(len(e.message) <= errors_tool.MAX_MESSAGE for e in entries)
    # sorted by framework, then message
    ordered = sorted(entries, key=errors_tool.sort_key)
    assert [e.framework for e in ordered] == sorted(
        (e.framework for e in entries), key=errors_tool.FRAMEWORKS.index)


@pytest.mark.parametrize("evalue, line", [
    ('Traceback (most recent call last):\n  File "../src/x.h", line 5\n'
     "MXNetError: Check failed: bad", "Check failed: bad"),
    ("opened /tmp/tmpab12/cut.rec: no", "opened …: no"),
    ("in /work/main/.venv/lib/python3.11/site-packages/torch/x.py", "in …"),
    ("\x1b[1mbold\x1b[0m text\nsecond line", "bold text"),
])
def test_error_message_first_line(errors_tool, evalue, line):
    assert errors_tool.first_line("MXNetError", evalue) == line


def test_error_summary_is_the_first_sentence(errors_tool):
    text = ("### A heading\n\nMXNet does not. `nd.ones(5, 3)` reads the `3` as the *context*:"
            " more. And more.")
    assert errors_tool.summary(text) == \
        "MXNet does not. `nd.ones(5, 3)` reads the `3` as the *context*: more."
    assert errors_tool.summary("**Gluon**") is None
    assert errors_tool.summary("It is shown again in [notebook 1](01_x.ipynb). Then.") == \
        "It is shown again in [notebook 1](notebooks/01_x.ipynb)."
    assert errors_tool.code_span("a `b` c") == "`` a `b` c ``"


def _notebook(cells):
    return {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


def test_error_index_reads_the_deep_dives_too(tmp_path, errors_tool):
    md = lambda text: {"cell_type": "markdown", "metadata": {}, "source": text}  # noqa: E731
    err = {"output_type": "error", "ename": "MXNetError", "traceback": [],
           "evalue": "Traceback (most recent call last):\n  File \"../src/x.h\", line 5\n"
                     "MXNetError: Check failed: bad shape"}
    raising = {"cell_type": "code", "metadata": {"tags": ["raises-exception"]},
               "source": "nd.ones(3).reshape((2,))", "outputs": [err], "execution_count": 1}
    (tmp_path / "deep_dives").mkdir()
    (tmp_path / "deep_dives" / "a_survey.ipynb").write_text(json.dumps(_notebook([
        md("# Deep dive · A survey\n\nBack to [notebook 5](../05_autograd.ipynb) §2."),
        md("## 1. Shapes\n\nA reshape to the wrong size fails, as [notebook 2]"
           "(../02_tensor_ops.ipynb) says. More."), raising])))
    (tmp_path / "07_x.ipynb").write_text(json.dumps(_notebook([md("# 7 · X"), raising])))
    entries = errors_tool.read_all(tmp_path)
    assert [(e.page, e.number) for e in entries] == [("07_x", 7), ("deep_dives/a_survey", 0)]
    deep = entries[1]
    assert (deep.message, deep.section, deep.heading) == ("Check failed: bad shape", "1 Shapes",
                                                          "1. Shapes")
    # the cause's link is made relative to book/ from the deep dive's folder
    assert deep.cause == ("A reshape to the wrong size fails, as [notebook 2]"
                          "(notebooks/02_tensor_ops.ipynb) says.")
    assert deep.where == "deep dive “A survey”, §1 Shapes" and deep.anchor == "shapes"
    page = errors_tool.render(tmp_path)[0]
    assert "shown in [deep dive “A survey”](notebooks/deep_dives/a_survey.ipynb) §1 Shapes" in page
    assert "in 2 notebooks and deep dives" in page


# ------------------------------------------------------------------------ book/status.md
def test_committed_status_page_is_what_the_tool_writes(status_page):
    committed = (ROOT / "book" / "status.md").read_text(encoding="utf-8")
    assert committed == status_page, "book/status.md is out of date: run `make status`"


def test_status_page_lists_every_notebook(status_page):
    for path in NOTEBOOKS:
        assert f"](notebooks/{path.name}) |" in status_page, path.name


def test_status_page_totals_are_numbers(status_page, status_tool):
    rows = status_tool.read_all()
    total = next(ln for ln in status_page.splitlines() if ln.startswith("| **total** |"))
    cells = [c.strip() for c in total.strip("|").split("|")]
    assert int(cells[2]) == sum(s.cells for s in rows) > 0
    assert int(cells[3]) == sum(s.code_cells for s in rows) > 0
    assert cells[4] == "not recorded" or re.fullmatch(r"\d+\.\d s( \(\d+\.\d min\))?", cells[4])
    assert re.fullmatch(r"\d+ ok", cells[6])
    assert int(cells[7]) == sum(s.raising for s in rows)
    assert "make notebooks && make status" in status_page
    assert not MACHINE_PATH.search(status_page)


def test_status_reads_timings_and_errors(tmp_path, status_tool):
    def code(tags=(), outputs=(), start=None, end=None):
        meta = {"tags": list(tags)}
        if start:
            meta["execution"] = {"iopub.execute_input": start, "shell.execute_reply": end}
        return {"cell_type": "code", "metadata": meta, "source": "x", "outputs": list(outputs),
                "execution_count": 1}
    err = {"output_type": "error", "ename": "E", "evalue": "v", "traceback": []}
    dev = {"output_type": "stream", "name": "stdout",
           "text": "torch: cpu — no GPU\nmxnet: cpu(0) — no CUDA\n"}
    nb = {"cells": [{"cell_type": "markdown", "metadata": {}, "source": "# 98 · Synthetic"},
                    code(outputs=[dev], start="2026-01-02T10:00:00.000Z",
                         end="2026-01-02T10:00:01.500Z"),
                    code(tags=["raises-exception"], outputs=[err],
                         start="2026-01-02T10:00:02Z", end="2026-01-02T10:00:03Z"),
                    code(outputs=[err])],
          "metadata": {"language_info": {"version": "3.11.7"}}, "nbformat": 4,
          "nbformat_minor": 5}
    (tmp_path / "98_synthetic.ipynb").write_text(json.dumps(nb))
    s = status_tool.read(tmp_path / "98_synthetic.ipynb")
    assert s.title == "Synthetic" and (s.cells, s.code_cells, s.raising) == (4, 3, 1)
    assert s.seconds == pytest.approx(2.5) and s.dates == ("2026-01-02",)
    assert s.unexpected == (3,) and not s.ok
    assert s.devices == "torch: cpu · mxnet: cpu(0)"
    nb["cells"] = nb["cells"][:1] + [code()]
    (tmp_path / "98_synthetic.ipynb").write_text(json.dumps(nb))
    s = status_tool.read(tmp_path / "98_synthetic.ipynb")
    assert s.seconds is None and s.ok
    assert "not recorded" in status_tool.render(tmp_path)[0]


def test_reference_pages_are_in_the_toc():
    toc = (ROOT / "book" / "_toc.yml").read_text()
    assert "- file: errors" in toc and "- file: status" in toc
