"""tools/prefill_book_cache.py: the notebooks `make book` executes several at once into the cache
that myst-nb then reads (a real kernel runs two tiny notebooks here)."""
import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook

from conftest import ROOT, load_tool

prefill = load_tool("prefill_book_cache")


def _write(path, *sources):
    nb = new_notebook(cells=[new_code_cell(s) for s in sources])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nbformat.write(nb, path)
    return path


def test_the_book_settings_are_read_from_its_config():
    timeout, allow_errors = prefill.book_settings()
    assert (timeout, allow_errors) == (900, False)      # book/_config.yml's execute section


def test_stored_seconds_and_which_notebooks_time_themselves():
    nb = new_notebook(cells=[new_code_cell("x = 1"), new_code_cell("y = 2")])
    assert prefill.stored_seconds(nb) == 0.0             # never executed
    nb.cells[0].metadata["execution"] = {"iopub.execute_input": "2026-12-04T06:00:00.5Z"}
    nb.cells[1].metadata["execution"] = {"shell.execute_reply": "2026-12-04T06:00:12.0Z"}
    assert prefill.stored_seconds(nb) == pytest.approx(11.5)
    assert not prefill.times_itself(nb)
    nb.cells.append(new_code_cell("t0 = time.perf_counter()"))
    assert prefill.times_itself(nb)
    assert prefill.times_itself(new_notebook(cells=[new_code_cell("timing.median_seconds(f)")]))
    assert prefill.times_itself(new_notebook(cells=[new_code_cell("%timeit f()")]))


def test_executed_notebooks_are_what_the_book_build_then_finds(tmp_path, monkeypatch):
    from jupyter_cache import get_cache

    monkeypatch.delenv("OMP_WAIT_POLICY", raising=False)     # `make test` sets it
    wait = "os.environ.get('OMP_WAIT_POLICY')"
    ok = _write(tmp_path / "ok.ipynb", "import os\nprint(os.getcwd())", "2 + 2", wait)
    timed = _write(tmp_path / "timed.ipynb", "import os, time\nt0 = time.perf_counter()", wait)
    bad = _write(tmp_path / "bad.ipynb", "raise ValueError('on purpose')")
    cache_dir = tmp_path / "cache"
    lines = []
    failures = prefill.prefill(cache_dir, [str(ok), str(timed), str(bad)], 2, 60, False,
                               log=lines.append)
    assert list(failures) == [str(bad)] and "ValueError: on purpose" in failures[str(bad)]
    assert "executing 2, 2 at a time, then 1 that time themselves" in lines[0]
    cache = get_cache(str(cache_dir))
    record = cache.match_cache_notebook(nbformat.read(ok, as_version=4))   # myst-nb's lookup
    _, merged = cache.merge_match_into_notebook(nbformat.read(ok, as_version=4))
    assert merged.cells[0].outputs[0]["text"].strip() == str(tmp_path)     # run in its folder
    assert merged.cells[1].outputs[0]["data"]["text/plain"] == "4"
    assert record.data["execution_seconds"] > 0
    # executed together: idle OpenMP threads sleep; timing itself, alone: the environment as is
    assert merged.cells[2].outputs[0]["data"]["text/plain"] == "'PASSIVE'"
    cache.match_cache_notebook(nbformat.read(timed, as_version=4))
    _, merged = cache.merge_match_into_notebook(nbformat.read(timed, as_version=4))
    assert "outputs" in merged.cells[1] and merged.cells[1].outputs == []   # None: no output
    with pytest.raises(KeyError):                        # a failed notebook is not cached
        cache.match_cache_notebook(nbformat.read(bad, as_version=4))
    # a second call executes only what is missing
    lines.clear()
    assert list(prefill.prefill(cache_dir, [str(ok), str(timed)], 2, 60, False,
                                log=lines.append)) == []
    assert lines == ["2 notebooks cached already; executing 0, 2 at a time, then 0 that time "
                     "themselves, one at a time"]


def test_the_command_line_refuses_bad_input(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        prefill.main([str(tmp_path / "cache"), str(tmp_path / "missing.ipynb")])
    assert exit_.value.code == 2
    assert "no such notebook:" in capsys.readouterr().err
    nb = _write(tmp_path / "x.ipynb", "1")
    with pytest.raises(SystemExit):
        prefill.main([str(tmp_path / "cache"), str(nb), "--jobs", "0"])
    assert "--jobs must be 1 or more, not 0" in capsys.readouterr().err
    assert not (tmp_path / "cache").exists()             # nothing written on bad input


def test_make_book_prefills_before_it_builds():
    makefile = (ROOT / "Makefile").read_text()
    recipe = makefile[makefile.index("\nbook: setup"):]
    assert recipe.index("tools/prefill_book_cache.py $(BOOK_CACHE) $(NOTEBOOKS)") \
        < recipe.index("jupyter-book build book")
