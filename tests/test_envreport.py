import importlib.metadata

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
