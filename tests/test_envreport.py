import importlib.metadata
import os
import subprocess
import sys

import pytest

from sidebyside import envreport
from sidebyside.envreport import known_problems, parse_version


@pytest.mark.parametrize("text, want", [
    ("1.23.5", (1, 23, 5)),
    ("2.14.1+cu130", (2, 14, 1)),
    ("1.0.4.post1", (1, 0, 4)),
    ("2.0.0rc1", (2, 0, 0)),
    ("3", (3,)),
])
def test_parse_version(text, want):
    assert parse_version(text) == want


@pytest.mark.parametrize("bad", ["", "abc", ".1"])
def test_parse_version_rejects_non_versions(bad):
    with pytest.raises(ValueError, match="not a version"):
        parse_version(bad)


def test_parse_version_rejects_non_strings():
    with pytest.raises(TypeError):
        parse_version(1.23)


def test_numpy_124_with_mxnet_is_a_problem_with_its_fix():
    (problem,) = known_problems({"numpy": "1.24.0", "mxnet": "1.9.1"})
    assert "np.bool" in problem.what
    assert problem.fix == "pip install numpy==1.23.5"


def test_numpy_124_without_mxnet_is_fine():
    assert known_problems({"numpy": "2.1.0", "mxnet": None}) == []


def test_protobuf_too_new_for_mxboard():
    (problem,) = known_problems({"protobuf": "3.20.4", "mxboard": "0.1.0"})
    assert "Descriptors cannot be created directly" in problem.what
    assert problem.fix == "pip install 'protobuf<=3.20.3'"
    assert known_problems({"protobuf": "3.20.3", "mxboard": "0.1.0"}) == []
    assert known_problems({"protobuf": "5.29.0", "mxboard": None}) == []


def test_wrong_python_is_a_problem():
    (problem,) = known_problems({}, python=(3, 12))
    assert "3.11" in problem.fix
    assert known_problems({}, python=(3, 11)) == []


def test_pinned_set_has_no_known_problem():
    pins = {"numpy": "1.23.5", "mxnet": "1.9.1", "protobuf": "3.20.3", "mxboard": "0.1.0"}
    assert known_problems(pins, python=(3, 11)) == []


def test_report_of_this_environment():
    rep = envreport.report()
    assert rep.ok, (rep.problems, rep.import_errors)
    assert rep.versions["mxnet"] == importlib.metadata.version("mxnet")
    assert "DIST_KVSTORE" in rep.mxnet_features
    assert isinstance(rep.torch_cuda_available, bool)
    assert "OPENMP" in rep.torch_features
    text = str(rep)
    for name in envreport.PACKAGES:
        assert name in text


def test_report_survives_a_broken_import(monkeypatch):
    real_import = envreport.importlib.import_module

    def broken(name, *args):
        if name == "mxnet":
            raise AttributeError("module 'numpy' has no attribute 'bool'")
        return real_import(name, *args)

    monkeypatch.setattr(envreport.importlib, "import_module", broken)
    rep = envreport.report()
    assert not rep.ok
    assert "np" in rep.import_errors["mxnet"] or "numpy" in rep.import_errors["mxnet"]
    assert "ERROR importing mxnet" in str(rep)


# --- the report in an environment with a bad version installed ---------------------------------

def _report_with(tmp_path, dists, prelude=""):
    """envreport.report() in a fresh interpreter that sees ``dists`` ({name: version}) as
    installed: their metadata comes first on its path. (stdout, exit code 0 when rep.ok)"""
    site = tmp_path / "site"
    for name, version in dists.items():
        meta = site / f"{name}-{version}.dist-info"
        meta.mkdir(parents=True)
        (meta / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    code = (f"{prelude}\nfrom sidebyside import envreport\nrep = envreport.report()\nprint(rep)\n"
            "raise SystemExit(0 if rep.ok else 1)")
    path = os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")]))
    before = sorted(tmp_path.rglob("*"))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, cwd=tmp_path, env=dict(os.environ, PYTHONPATH=path))
    assert sorted(tmp_path.rglob("*")) == before      # the report writes nothing
    return proc.stdout, proc.returncode


def test_numpy_124_installed_names_the_failed_import_and_the_fix(tmp_path):
    """numpy 1.24 as installed: its metadata says 1.24.0, and np.bool is gone (the alias 1.24
    removed), so `import mxnet` fails as it does there."""
    out, rc = _report_with(tmp_path, {"numpy": "1.24.0"},
                           prelude="import numpy; numpy.__deprecated_attrs__.pop('bool')")
    assert rc == 1
    assert ("WARNING: numpy 1.24.0 breaks `import mxnet` (MXNet 1.9.1 uses `np.bool`, removed "
            "in numpy 1.24). Fix: pip install numpy==1.23.5") in out
    assert "ERROR importing mxnet: AttributeError: module 'numpy' has no attribute 'bool'" in out


def test_protobuf_too_new_installed_names_the_fix(tmp_path):
    out, rc = _report_with(tmp_path, {"protobuf": "4.25.8"})
    assert rc == 1
    assert ("WARNING: protobuf 4.25.8 is too new for mxboard (its generated code raises "
            "'Descriptors cannot be created directly'). Fix: pip install 'protobuf<=3.20.3'") in out
