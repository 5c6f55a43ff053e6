"""The set-up step refuses the wrong interpreter with a message that says what to install."""
import importlib.util
import subprocess
import sys

from conftest import ROOT


def load_check_python():
    spec = importlib.util.spec_from_file_location("check_python", ROOT / "tools" / "check_python.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_python_311_passes(capsys):
    assert load_check_python().main() == 0
    assert "OK" in capsys.readouterr().out


def test_other_pythons_get_a_clear_message(monkeypatch, capsys):
    check = load_check_python()
    monkeypatch.setattr(sys, "version_info", (3, 12, 1, "final", 0))
    assert check.main() == 1
    err = capsys.readouterr().err
    assert "needs Python 3.11" in err and "is Python 3.12" in err
    assert "apt-get install python3.11" in err and "conda env create -f environment.yml" in err


def test_make_setup_without_the_interpreter(tmp_path):
    proc = subprocess.run(
        ["make", "-C", str(ROOT), "setup", "PYTHON=/nonexistent/python3.11", f"VENV={tmp_path / 'venv'}"],
        capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0
    assert "'/nonexistent/python3.11' was not found" in proc.stderr
    assert "This project needs Python 3.11" in proc.stderr
    assert not (tmp_path / "venv").exists()
