"""tools/portability_outputs.py: which notebooks' outputs the portability settings change."""
import json
import sys

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from conftest import ROOT

sys.path.insert(0, str(ROOT / "tools"))
import portability_outputs as po  # noqa: E402


def stream(text, name="stdout"):
    return new_output("stream", name=name, text=text)


def write(path, *cells):
    path.parent.mkdir(parents=True, exist_ok=True)
    nb = new_notebook(cells=[new_markdown_cell("# t"),
                             *[new_code_cell("x", outputs=outs) for outs in cells]])
    nbformat.write(nb, path)
    return path


def test_outputs_join_stream_chunks_drop_the_threads_line_and_hash_images():
    cell = {"outputs": [stream("a\nthreads: PyTorch 2, MXNet operators 1\n"), stream("b\n"),
                        stream("e\n", "stderr"),
                        new_output("display_data", data={"image/png": "AAAA", "text/plain": "F"})]}
    parts = po.cell_outputs(cell)
    assert parts[:2] == [("stream", "stdout", "a\nb\n"), ("stream", "stderr", "e\n")]
    assert parts[2][:2] == ("display_data", "image/png") and parts[2][2] != "AAAA"
    assert parts[3] == ("display_data", "text/plain", "F")
    # a print that only stated the threads leaves nothing; one thread or two is the same cell
    assert po.cell_outputs({"outputs": [stream("threads: PyTorch 1\n")]}) == []
    one = {"outputs": [stream("x 1\nthreads: PyTorch 1, MXNet operators 1\n")]}
    two = {"outputs": [stream("x 1\nthreads: PyTorch 2, MXNet operators 1\n")]}
    assert po.cell_outputs(one) == po.cell_outputs(two)
    other_png = {"outputs": [new_output("display_data", data={"image/png": "AAAB"})]}
    assert po.cell_outputs(other_png) != po.cell_outputs({"outputs": [new_output(
        "display_data", data={"image/png": "AAAA"})]})


@pytest.mark.parametrize("native, portable, expect", [
    (["0.1\n", "2\n"], ["0.1\n", "2\n"], ("same", [], [])),
    (["0.1\n", "2\n"], ["0.1\n", "3\n"], ("changes", [1], [])),       # cell 1 (code cells)
    (["0.2\n", "2\n"], ["0.1\n", "2\n"], ("run to run", [], [0])),    # native differs
    (["0.2\n", "2\n"], ["0.2\n", "3\n"], ("changes", [1], [0])),
])
def test_classify_against_the_stored_outputs(tmp_path, native, portable, expect):
    stored = write(tmp_path / "s" / "a.ipynb", [stream("0.1\n")], [stream("2\n")])
    nat = write(tmp_path / "n" / "a.ipynb", *[[stream(t)] for t in native])
    por = write(tmp_path / "p" / "a.ipynb", *[[stream(t)] for t in portable])
    assert po.classify(stored, nat, por) == expect


def test_classify_refuses_copies_of_other_notebooks(tmp_path):
    a = write(tmp_path / "a.ipynb", [], [])
    b = write(tmp_path / "b.ipynb", [])
    with pytest.raises(ValueError, match="different code cells"):
        po.classify(a, a, b)


def runs(tmp_path, errors=None):
    """stored: notebooks/ with 01 and deep_dives/d; native and portable runs of both."""
    stored, native, portable = (tmp_path / n for n in ("stored", "native", "portable"))
    for folder, last in ((stored, "1\n"), (native, "1\n"), (portable, "1.0000001\n")):
        write(folder / "01_a.ipynb", [stream("threads: PyTorch 2\nok\n")], [stream(last)])
        write(folder / "deep_dives" / "d.ipynb", [stream("same\n")])
    for folder, secs in ((native, (4.0, 1.0)), (portable, (6.0, 2.0))):
        errs = (errors or {}).get(folder.name, {})
        (folder / "times.json").write_text(json.dumps({
            "01_a.ipynb": {"seconds": secs[0], "error": errs.get("01_a.ipynb", "")},
            "deep_dives/d.ipynb": {"seconds": secs[1], "error": ""}}))
    return stored, native, portable


def test_compare_prints_each_notebook_and_the_totals_by_the_portable_seconds(tmp_path, capsys):
    stored, native, portable = runs(tmp_path)
    assert po.main(["compare", str(native), str(portable), "--stored", str(stored)]) == 0
    out = capsys.readouterr().out
    assert "| 01_a.ipynb | changes | 1 | — | 6.0 |" in out
    assert "| deep_dives/d.ipynb | same | — | — | 2.0 |" in out
    assert "changes: 1 notebooks, 6.0 s of 8.0 s (75 %)" in out
    assert "same: 1 notebooks, 2.0 s of 8.0 s (25 %)" in out
    assert "run to run: 0 notebooks, 0.0 s of 8.0 s (0 %)" in out


def test_compare_refuses_a_failed_run_and_a_missing_one(tmp_path, capsys):
    stored, native, portable = runs(tmp_path, {"portable": {"01_a.ipynb": "ValueError: x"}})
    assert po.main(["compare", str(native), str(portable), "--stored", str(stored)]) == 1
    assert "a run failed, nothing to compare: 01_a.ipynb" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        po.main(["compare", str(native), str(tmp_path / "none"), "--stored", str(stored)])
    assert exit_.value.code == 2
    assert "has no times.json: make it with `execute" in capsys.readouterr().err


def test_execute_runs_copies_and_reports_a_failing_notebook(tmp_path, capsys):
    base = tmp_path / "notebooks"
    ok = base / "01_ok.ipynb"
    (base / "deep_dives").mkdir(parents=True)
    shows_an_error = new_code_cell("1 / 0", metadata={"tags": ["raises-exception"]})
    nbformat.write(new_notebook(cells=[new_code_cell("print(6 * 7)"), shows_an_error]), ok)
    bad = base / "deep_dives" / "bad.ipynb"
    nbformat.write(new_notebook(cells=[new_code_cell("raise ValueError('no such file')")]), bad)
    before = ok.read_text(), bad.read_text()
    out = tmp_path / "run"
    assert po.execute(out, [ok, bad], jobs=2, base=base) == 1
    assert (ok.read_text(), bad.read_text()) == before          # the originals stay as they were
    times = json.loads((out / "times.json").read_text())
    assert list(times) == ["01_ok.ipynb", "deep_dives/bad.ipynb"]
    assert times["01_ok.ipynb"]["error"] == "" and times["01_ok.ipynb"]["seconds"] > 0
    assert "ValueError" in times["deep_dives/bad.ipynb"]["error"]
    [first, second] = [c for c in nbformat.read(out / "01_ok.ipynb", 4).cells]
    assert first.outputs[0]["text"] == "42\n" and second.outputs[0]["ename"] == "ZeroDivisionError"
    assert "1 notebook(s) failed: deep_dives/bad.ipynb" in capsys.readouterr().err


@pytest.mark.parametrize("args, message", [
    (["execute", str(ROOT / "notebooks" / "out")], "is inside the checkout"),
    (["execute", "/tmp/x", "--jobs", "0"], "--jobs must be at least 1, got 0"),
    (["execute", "/tmp/x", str(ROOT / "README.md")], "is not a notebook under"),
])
def test_execute_refuses_bad_arguments(args, message, capsys):
    with pytest.raises(SystemExit) as exit_:
        po.main(args)
    assert exit_.value.code == 2 and message in capsys.readouterr().err
