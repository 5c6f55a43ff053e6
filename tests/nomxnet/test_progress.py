"""Progress bars of the user tools (sidebyside.progress): drawn on a terminal, absent from a
log or a pipe and with --quiet; the counts they are fed reach the end of the work. Runs in
the environment without MXNet (the tools' install, tqdm included)."""

import io
import re
from pathlib import Path

import pytest

from sidebyside import progress
from sidebyside.mx2torch import codegen
from sidebyside.mx2torch.graph import read_symbol

ROOT = Path(__file__).resolve().parents[2]
GRAPHS = ROOT / "tests" / "fixtures" / "mx2torch" / "graphs"


class _Tty(io.StringIO):
    def isatty(self):
        return True


def test_a_bar_is_drawn_only_on_a_terminal_and_not_when_quiet(monkeypatch):
    monkeypatch.delenv("SIDEBYSIDE_PROGRESS", raising=False)
    assert progress.shown(stream=_Tty()) and not progress.shown(stream=io.StringIO())
    assert not progress.shown(quiet=True, stream=_Tty())
    monkeypatch.setenv("SIDEBYSIDE_PROGRESS", "1")
    assert progress.shown(stream=io.StringIO()) and not progress.shown(quiet=True)
    monkeypatch.setenv("SIDEBYSIDE_PROGRESS", "0")
    assert not progress.shown(stream=_Tty())


def test_a_terminal_gets_tqdms_bar_with_the_count():
    out = _Tty()
    with progress.bar(3, "scanning", unit="file", stream=out) as b:
        for _ in range(3):
            b.update()
    assert "scanning" in out.getvalue() and "/3 [" in out.getvalue()   # (tqdm may skip frames)


def test_translation_reports_every_node_it_walks():
    calls = []
    sym = GRAPHS / "lstm-symbol.json"
    codegen.translation(sym, GRAPHS / "lstm-0000.params",
                        progress=lambda done, total: calls.append((done, total)))
    n = len(read_symbol(sym).reachable())
    assert calls == [(k, n) for k in range(1, n + 1)]


@pytest.mark.parametrize("quiet", [False, True])
def test_mx2torch_check_draws_translate_and_compare_bars(monkeypatch, capsys, quiet):
    from sidebyside.mx2torch import cli

    monkeypatch.setenv("SIDEBYSIDE_PROGRESS", "1")     # as on a terminal
    args = [str(GRAPHS / "cnn-symbol.json"), str(GRAPHS / "cnn-0000.params"),
            "--check", str(GRAPHS / "cnn-check32.npz")]
    assert cli.main(args + (["--quiet"] if quiet else [])) == 0
    out, err = capsys.readouterr()
    assert ("translating" in err and "comparing" in err) is not quiet
    assert "translated cnn-symbol.json" in out               # the report itself is unchanged


def test_mxmigrate_scan_of_a_folder_counts_both_passes(tmp_path, monkeypatch, capsys):
    from sidebyside.migrate import cli

    for k in range(3):
        (tmp_path / f"m{k}.py").write_text("import mxnet as mx\nx = mx.nd.ones((2, 3))\n")
    monkeypatch.setenv("SIDEBYSIDE_PROGRESS", "1")
    assert cli.main([str(tmp_path)]) == 0
    drawn = capsys.readouterr()
    assert "scanning" in drawn.err and "/6 [" in drawn.err
    monkeypatch.delenv("SIDEBYSIDE_PROGRESS")            # capsys's stderr is not a terminal
    assert cli.main([str(tmp_path)]) == 0
    silent = capsys.readouterr()
    assert "scanning" not in silent.err

    def timeless(text):
        return re.sub(r"in \d+\.\d+ s", "in _ s", text)
    assert timeless(silent.out) == timeless(drawn.out)
