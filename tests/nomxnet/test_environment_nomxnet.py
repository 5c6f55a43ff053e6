"""sidebyside.mx2torch needs no MXNet, and .venv-nomxnet is the environment that proves it.

Everywhere: importing sidebyside.mx2torch and every module it has imports no ``mxnet`` (checked
in a fresh interpreter, so other tests' imports do not count), and requirements-nomxnet.txt /
constraints-nomxnet.txt agree with the main set on everything but numpy. In .venv-nomxnet
(``make test-nomxnet`` sets ``SIDEBYSIDE_NOMXNET=1``): ``import mxnet`` fails there, numpy is
2 or newer, and the installed versions are the locked ones.

Runs in both environments: imports nothing but the standard library and pytest, and no
conftest (the main suite's are not loaded in .venv-nomxnet, and tests/nomxnet has none of its
own: the Makefile's test-nomxnet says why).
"""
import importlib.metadata
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
IN_NOMXNET_ENV = os.environ.get("SIDEBYSIDE_NOMXNET") == "1"
nomxnet_env_only = pytest.mark.skipif(
    not IN_NOMXNET_ENV, reason="only in .venv-nomxnet (make test-nomxnet: SIDEBYSIDE_NOMXNET=1)")

# what a fresh interpreter imports: the package, then every module under it that exists now
# (__main__ would run the command line); reports the modules and any mxnet* in sys.modules
PROBE = """
import importlib, json, pkgutil, sys
import sidebyside.mx2torch as package
names = ["sidebyside.mx2torch"]
for info in pkgutil.walk_packages(package.__path__, "sidebyside.mx2torch."):
    if info.name.rsplit(".", 1)[-1] != "__main__":
        importlib.import_module(info.name)
        names.append(info.name)
mx = sorted(m for m in sys.modules if m == "mxnet" or m.startswith("mxnet."))
print(json.dumps({"modules": names, "mxnet": mx}))
"""


def probe_imports(tmp_path):
    result = subprocess.run([sys.executable, "-c", PROBE], cwd=tmp_path, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, f"importing sidebyside.mx2torch failed:\n{result.stderr}"
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_mx2torch_and_its_modules_import_no_mxnet(tmp_path):
    found = probe_imports(tmp_path)
    assert "sidebyside.mx2torch.ndfile" in found["modules"], \
        f"sidebyside.mx2torch.ndfile is missing (found {found['modules']})"
    assert found["mxnet"] == [], \
        f"importing {found['modules']} imported {found['mxnet'][:5]}: mx2torch must not need MXNet"


@nomxnet_env_only
def test_mxnet_cannot_be_imported_here():
    with pytest.raises(ImportError) as caught:
        import mxnet  # noqa: F401
    assert isinstance(caught.value, ModuleNotFoundError) and caught.value.name == "mxnet", \
        f"`import mxnet` must fail for want of mxnet itself, not with {caught.value!r}"


@nomxnet_env_only
def test_numpy_is_2_or_newer_here():
    import numpy

    assert int(numpy.__version__.split(".")[0]) >= 2, numpy.__version__


REQ_LINE = re.compile(r"^([A-Za-z0-9_.\-\[\]]+)\s*==\s*([^\s;#]+)")


def pins(name):
    """``{package: version}`` of a requirements or constraints file, and its other lines."""
    found, other = {}, []
    for raw in (ROOT / name).read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        m = REQ_LINE.match(line)
        if m:
            key = re.sub(r"[-_.]+", "-", m.group(1)).lower()
            assert key not in found, f"{name}: {key} listed twice"
            found[key] = m.group(2)
        else:
            other.append(line)
    return found, other


def test_requirements_nomxnet_is_the_main_torch_and_numpy_2_without_mxnet():
    """torch, torchvision (translated detectors' box operators), pytest and hypothesis (the
    readers' fuzz test) at the main pins; numpy 2."""
    req, other = pins("requirements-nomxnet.txt")
    assert other == ["-c constraints-nomxnet.txt", "-e .[tools]"]
    assert set(req) == {"torch", "torchvision", "numpy", "pytest", "hypothesis"}, req
    main, _ = pins("requirements.txt")
    assert all(req[k] == main[k] for k in ("torch", "torchvision", "pytest", "hypothesis"))
    assert int(req["numpy"].split(".")[0]) >= 2


def test_constraints_nomxnet_share_the_main_lock_but_numpy():
    """One torch (and one of each of its dependencies) serves both sets in a wheelhouse."""
    locked, other = pins("constraints-nomxnet.txt")
    assert other == [], f"constraints-nomxnet.txt holds only exact pins, not {other}"
    req, _ = pins("requirements-nomxnet.txt")
    assert {k: locked.get(k) for k in req} == req, "requirements-nomxnet.txt vs its lock"
    main, _ = pins("constraints.txt")
    differ = {k: (v, main.get(k)) for k, v in locked.items() if k != "numpy" and main.get(k) != v}
    assert differ == {}, f"constraints-nomxnet.txt vs constraints.txt: {differ}"
    banned = [k for k in locked if k.startswith(("mxnet", "nbval", "jupyter"))]
    assert banned == [], f"the nomxnet set must not lock {banned}"


@nomxnet_env_only
def test_installed_versions_are_the_nomxnet_lock():
    locked, _ = pins("constraints-nomxnet.txt")
    wrong = {}
    for name, version in locked.items():
        have = importlib.metadata.version(name).split("+")[0]
        if have != version:
            wrong[name] = (version, have)
    assert not wrong, f"pinned vs installed: {wrong} (run `make setup-nomxnet` again)"


@nomxnet_env_only
def test_the_tools_extra_installed_the_console_scripts(tmp_path):
    """`pip install '.[tools]'` (requirements-nomxnet.txt) puts mx2torch and mxmigrate beside
    this interpreter; each answers --version and --help, and the tools extra's packages
    import (LibCST for the drafts, tqdm for the bars)."""
    import sidebyside

    bindir = Path(sys.executable).parent
    for name in ("mx2torch", "mxmigrate"):
        exe = bindir / name
        assert exe.exists(), f"{exe}: the console script is not installed"
        r = subprocess.run([str(exe), "--version"], capture_output=True, text=True, timeout=120,
                           cwd=tmp_path)
        assert r.returncode == 0 and r.stdout.startswith(f"{name} {sidebyside.__version__} ")
        r = subprocess.run([str(exe), "--bogus"], capture_output=True, text=True, timeout=120,
                           cwd=tmp_path)
        assert r.returncode == 2 and f"usage: {name} " in r.stderr
    extras = importlib.metadata.metadata("sidebyside").get_all("Requires-Dist")
    tools = sorted(re.split(r"[ ;<>=]", e)[0] for e in extras if "extra == \"tools\"" in e)
    assert tools == ["libcst", "numpy", "torch", "torchvision", "tqdm"]
    for module in ("libcst", "tqdm", "torchvision"):
        importlib.import_module(module)
