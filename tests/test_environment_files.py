"""requirements.txt and environment.yml pin the same versions, and they are what is installed."""
import importlib.metadata
import re

import yaml

from conftest import ROOT

REQ_LINE = re.compile(r"^([A-Za-z0-9_.\-\[\]]+)\s*(==|<=|>=|~=|<|>)\s*([^\s;#]+)")


def parse(lines):
    pins, other = {}, []
    for raw in lines:
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        m = REQ_LINE.match(line)
        if m:
            name = re.sub(r"[-_.]+", "-", m.group(1)).lower()
            assert name not in pins, f"{name} listed twice"
            pins[name] = (m.group(2), m.group(3))
        else:
            other.append(line)
    return pins, other


def requirements():
    return parse((ROOT / "requirements.txt").read_text().splitlines())


def conda_env():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    deps = env["dependencies"]
    pip = next(d["pip"] for d in deps if isinstance(d, dict))
    conda = [d for d in deps if isinstance(d, str)]
    return conda, parse(pip)


def test_requirements_are_exact_pins():
    pins, other = requirements()
    assert other == ["-c constraints.txt", "-e ."]
    loose = {k: v for k, v in pins.items() if v[0] != "=="}
    assert not loose, f"pin these exactly: {loose}"
    for must in ("mxnet", "numpy", "torch", "torchvision", "mxboard", "protobuf", "tensorboard",
                 "matplotlib", "jupyterlab", "jupytext", "nbval", "pytest", "tqdm", "jupyter-book"):
        assert must in pins, must
    assert pins["mxnet"] == ("==", "1.9.1") and pins["numpy"] == ("==", "1.23.5")


def test_environment_yml_matches_requirements():
    conda, (pip_pins, pip_other) = conda_env()
    assert "python=3.11" in conda
    assert pip_pins == requirements()[0]
    assert pip_other == ["-c constraints.txt", "-e ."]


def constraints():
    pins, other = parse((ROOT / "constraints.txt").read_text().splitlines())
    assert other == [], f"constraints.txt holds only exact pins, not {other}"
    return pins


def test_constraints_lock_the_same_pins():
    locked = constraints()
    assert all(op == "==" for op, _ in locked.values())
    drift = {k: (v, locked.get(k)) for k, v in requirements()[0].items() if locked.get(k) != v}
    assert not drift, f"requirements.txt vs constraints.txt: {drift}"


def test_installed_versions_are_the_locked_ones():
    wrong = {}
    for name, (_, version) in constraints().items():
        have = importlib.metadata.version(name).split("+")[0]
        if have != version:
            wrong[name] = (version, have)
    assert not wrong, f"pinned vs installed: {wrong} (run `make setup` again)"
