"""The set-up step refuses the wrong interpreter with a message that says what to install."""
import glob
import importlib.util
import os
import shutil
import subprocess
import sys

import pytest

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


def other_python():
    """(path, "3.X") of an interpreter on this machine that is not Python 3.11; else skip."""
    found = [shutil.which(f"python3.{minor}") for minor in range(6, 16) if minor != 11]
    found += sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/*/bin/python3")))
    for path in filter(None, found):
        try:
            proc = subprocess.run([path, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                                  capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            continue
        version = proc.stdout.strip()
        if proc.returncode == 0 and version and version != "3.11":
            return path, version
    pytest.skip("no Python other than 3.11 on this machine")


def test_make_setup_with_another_python(tmp_path):
    python, version = other_python()
    proc = subprocess.run(
        ["make", "-C", str(ROOT), "setup", f"PYTHON={python}", f"VENV={tmp_path / 'venv'}"],
        capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0
    assert proc.stderr.lstrip().startswith("This project needs Python 3.11; ")
    assert f" is Python {version}." in proc.stderr and "make setup PYTHON=" in proc.stderr
    assert not (tmp_path / "venv").exists()


def test_make_setup_from_a_folder_that_is_no_wheelhouse(tmp_path):
    """`make all WHEELHOUSE=...` with a wrong folder stops before creating anything. (The
    wheelhouse path itself is what .ci/run installs CI's environment from.)"""
    empty = tmp_path / "usb-stick"
    empty.mkdir()
    proc = subprocess.run(
        ["make", "-C", str(ROOT), "setup", f"VENV={tmp_path / 'venv'}", f"WHEELHOUSE={empty}"],
        capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0
    assert f"WHEELHOUSE={empty} has no wheels/ folder" in proc.stderr
    assert "make wheelhouse WHEELHOUSE=" in proc.stderr
    assert not (tmp_path / "venv").exists() and list(empty.iterdir()) == []


def test_make_wheelhouse_without_dataset_files(tmp_path):
    """Without dataset files to carry, the wheelhouse is refused before any download."""
    env = dict(os.environ, SIDEBYSIDE_DATA=str(tmp_path / "no-data"), HOME=str(tmp_path))
    target = tmp_path / "wh"
    proc = subprocess.run(
        ["make", "-C", str(ROOT), "wheelhouse", f"WHEELHOUSE={target}",
         "WHEELHOUSE_DATASETS=MNIST"],        # Debian has no MNIST package: nothing to copy
        capture_output=True, text=True, timeout=60, env=env)
    assert proc.returncode != 0
    assert "no dataset files to put in the wheelhouse" in proc.stderr
    assert not target.exists()


def test_wheelhouse_data_collects_then_installs_and_refuses_a_bad_file(tmp_path):
    """tools/wheelhouse_data.py, both halves: `collect` copies the dataset files a wheelhouse
    carries from the data folder; `install` checks them and prepares the notebooks' data
    folder from them, and with one corrupted file stops with its name and writes nothing."""
    from sidebyside import data
    source = data.raw_dir("fashion-mnist")
    if not any(source.glob("*-ubyte.gz")):
        data.prepare("fashion-mnist")      # the data folder the rest of the suite reads
    tool = [sys.executable, str(ROOT / "tools" / "wheelhouse_data.py")]
    wheelhouse = tmp_path / "wh"
    proc = subprocess.run([*tool, "collect", str(wheelhouse), "FashionMNIST"],
                          capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, SIDEBYSIDE_DATA=str(data.data_root())))
    assert proc.returncode == 0, proc.stderr
    carried = wheelhouse / "data" / "FashionMNIST"
    assert sorted(p.name for p in carried.iterdir()) == sorted(
        f"{name}.gz" for name in data.FILES)
    target = tmp_path / "data"
    proc = subprocess.run([*tool, "install", str(wheelhouse)], capture_output=True, text=True,
                          timeout=120, env=dict(os.environ, SIDEBYSIDE_DATA=str(target)))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(f"fashion-mnist -> {target / 'FashionMNIST' / 'raw'}")
    assert len(data.load("fashion-mnist", train=False, root=target).torch) == 10000

    import gzip
    (carried / "t10k-labels-idx1-ubyte.gz").write_bytes(gzip.compress(b"not the labels"))
    other = tmp_path / "data2"
    proc = subprocess.run([*tool, "install", str(wheelhouse)], capture_output=True, text=True,
                          timeout=120, env=dict(os.environ, SIDEBYSIDE_DATA=str(other)))
    assert proc.returncode == 1
    assert proc.stderr.startswith("install: DataIntegrityError: ")
    assert "t10k-labels-idx1-ubyte.gz is not the original FashionMNIST file" in proc.stderr
    assert "Traceback" not in proc.stderr and not other.exists()
