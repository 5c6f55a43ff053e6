"""The generated reference pages (book/errors.md, book/status.md) do not drift from the notebooks."""

import json
import re

import pytest

from conftest import ROOT, load_tool

NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
DEEP_DIVES = sorted((ROOT / "notebooks" / "deep_dives").glob("*.ipynb"))
MACHINE_PATH = re.compile(r"(/tmp/|/work/|/root/|/home/|/Users/|site-packages|/usr/lib)")



@pytest.fixture(scope="module")
def errors_tool():
    return load_tool("make_error_index")


@pytest.fixture(scope="module")
def status_tool():
    return load_tool("make_status")


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


# words that open a sentence only by leaning on the one before it
LEANING = re.compile(r"(?:and|but|or|nor|so|yet|then|also|first|second|third|fourth|finally|"
                     r"next|last)\b", re.I)


def _sentence_problem(text):
    """Why ``text`` is not a sentence a reader can take alone, or None."""
    if text[:1].islower() or text.startswith(("…", "...")):
        return "starts in the middle of a sentence"
    if LEANING.match(re.sub(r"^\W+", "", text)):
        return "starts with a word that leans on the sentence before"
    if not re.search(r"[.!?]\)?$", text) or text.endswith(("…", "….")):
        return "does not end with a full stop"
    if text.count("`") % 2:
        return "cuts a code span"
    return None


def test_error_index_causes_and_fixes_are_whole_sentences(errors_tool):
    problems = [(e.stem, e.cell, kind, why, text)
                for e in errors_tool.read_all()
                for kind, text in (("cause", e.cause), ("fix", e.fix)) if text
                for why in [_sentence_problem(text)] if why]
    assert not problems, "\n".join(map(str, problems))
    assert _sentence_problem("and `mx.np.ones(5, 3)` reads it as the *dtype*.")
    assert _sentence_problem("Second, leaving the graph for numpy.")
    assert _sentence_problem("… a convolution in `NHWC` does not.")


def test_error_index_fix_comes_from_the_error_s_own_section(errors_tool):
    """A fix is read from the first Markdown cell after the error's cell (or after a run of
    raising cells), in the same section; that cell does not introduce the next error, and
    it never opens a topic of its own ("**`addmm`**. The seed writes …")."""
    from sidebyside.apimap import errorindex

    checked = 0
    for e in errorindex.read_all():
        if not e.fix:
            continue
        path = ROOT / "notebooks" / e.folder / f"{e.stem}.ipynb"
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        j = next(k for k in range(e.cell + 1, len(cells)) if cells[k]["cell_type"] == "markdown")
        assert errorindex._section(cells, j)[0] == e.section, (e.key, e.fix)
        assert not errorindex._source(cells[j]).lstrip().startswith("#"), e.key
        after = next((c for c in cells[j + 1:] if c["cell_type"] == "markdown"
                      or "raises-exception" in c.get("metadata", {}).get("tags", [])), None)
        assert not after or after["cell_type"] == "markdown", (e.key, "introduces the next error")
        assert not errorindex.TOPIC_LABEL.match(e.fix), (e.key, e.fix)
        checked += 1
    assert checked >= 30


def test_error_index_known_causes_and_fixes(errors_tool):
    entries = errors_tool.read_all()

    def entry(stem, needle):
        return next(e for e in entries if e.stem == stem and needle in e.code)
    split = entry("02_tensor_ops", "nd.split(")
    assert not split.fix or ("addmm" not in split.fix and "linalg_gemm" not in split.fix)
    init = entry("03_mnist_mlp", "gluon.nn.Dense(10)(")
    assert "`initialize()`" in init.cause and "`initialize()`" in init.fix
    dtype = entry("01_install_and_environment", "mnp.ones(5, 3)")
    assert dtype.cause.startswith("`nd.ones(5, 3)` reads") and "*dtype*" in dtype.cause
    late = entry("05_autograd", "mx_late_doubled.asnumpy()")
    assert late.cause.startswith("Take index 7") and "first sync point" in late.cause
    shape = entry("05_autograd", "nd.dot(")
    assert shape.cause.startswith("A *shape* error")      # not the paragraph above its heading


def test_error_index_joins_a_sentence_split_around_a_cell(tmp_path, errors_tool):
    md = lambda text: {"cell_type": "markdown", "metadata": {}, "source": text}  # noqa: E731

    def code(source, raises=False):
        out = [{"output_type": "error", "ename": "E", "evalue": "bad", "traceback": []}]
        return {"cell_type": "code", "metadata": {"tags": ["raises-exception"] if raises else []},
                "source": source, "outputs": out if raises else [], "execution_count": 1}
    nb = {"cells": [
        md("# 7 · X"), md("## 1. Layouts\n\nOld text, before the heading.\n\n### Pooling\n\n"
                          "**Gluon**: transpose first. Pooling in `NHWC` works …"),
        code("pool(x)"), md("… a convolution in `NHWC` does not:"), code("conv(x)", True),
        md("**`addmm`**. The seed writes `gemm(M, a, b)`: the matrix to add goes last."),
        code("gemm(a, b, M)", True), md("The fix: `gemm(a, b, M)`, the other order."),
        md("`flatten` matters:"), md("PyTorch raises on the same line:"), code("t(x)", True),
        md("and Gluon at the sync point:"), code("g(x)", True)],
        "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (tmp_path / "07_x.ipynb").write_text(json.dumps(nb))
    conv, gemm, pt, gl = errors_tool.read_all(tmp_path)
    assert conv.cause == "Pooling in `NHWC` works; a convolution in `NHWC` does not."
    assert conv.fix is None                            # the next text opens another topic
    assert gemm.cause.startswith("**`addmm`**. The seed writes")
    assert gemm.fix == "The fix: `gemm(a, b, M)`, the other order."
    assert pt.fix is None                              # it introduces the next error
    assert gl.cause == "PyTorch raises on the same line, and Gluon at the sync point."


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


def test_status_budget_names_what_is_over_it(status_tool):
    def row(number, stem, seconds):
        return status_tool.Status(stem, number, "t", 1, 1, seconds, 1, (), 0, (), (), "", "")
    within = [row(1, "01_a", 59.9), row(2, "02_b", 40.1), row(None, "deep_dives/x", 12)]
    line = status_tool.budget_line(within)
    assert "numbered notebooks 100.0 s (within), deep dives 12.0 s" in line
    assert line.endswith("over 60 s: none.")
    over = [row(1, "01_a", 60.5), row(2, "02_b", 250.0), row(None, "deep_dives/x", 61),
            row(None, "deep_dives/y", None)]
    line = status_tool.budget_line(over)
    assert "numbered notebooks 310.5 s (**over**)" in line
    assert line.endswith("over 60 s: **1 (60.5 s)**, **2 (250.0 s)**, **deep_dives/x (61.0 s)**.")


def test_reference_pages_are_in_the_toc():
    toc = (ROOT / "book" / "_toc.yml").read_text()
    assert "- file: errors" in toc and "- file: status" in toc


def test_status_page_says_which_run_each_book_shows(status_page):
    prose = status_page.split("## Versions")[0]
    assert "The book shows those outputs" not in prose
    assert "`make book`" in prose and "execute_notebooks: cache" in prose
    assert "that machine's run" in prose and "`tests/test_book.py`" in prose


def test_status_table_has_no_column_with_one_value(status_page, status_tool):
    table = [ln for ln in status_page.split("## Notebooks")[1].splitlines()
             if ln.startswith("| [")]
    assert len(table) == len(status_tool.read_all())
    columns = list(zip(*[[c.strip() for c in ln.strip("|").split("|")] for ln in table]))
    assert len(columns) >= 8
    # the status column is the page's point, even when every row is "ok"
    constant = [i for i, col in enumerate(columns) if len(set(col)) == 1 and i != 6]
    assert not constant, f"columns {constant} have the same value in every row"
    rows = status_tool.read_all()
    if len({s.python for s in rows}) == 1:
        assert f"ran on Python {rows[0].python}" in status_page
