import importlib.util
import os
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]


def load_tool(name: str, path: Path | None = None):
    """The script ``tools/<name>.py`` (or ``path``) imported as module ``name``. It is put in
    ``sys.modules`` first: dataclasses look their module up while the class is made."""
    spec = importlib.util.spec_from_file_location(name, path or ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def chromium_or_skip(find_chromium):
    """The Chromium binary ``find_chromium()`` finds. Without one the test fails, unless
    SIDEBYSIDE_NO_BROWSER=1 says this machine has no browser by choice (then it is skipped)."""
    binary = find_chromium()
    if binary is None:
        if os.environ.get("SIDEBYSIDE_NO_BROWSER") == "1":
            pytest.skip("SIDEBYSIDE_NO_BROWSER=1: no browser on this machine, by choice")
        pytest.fail("chromium is not installed: apt-get install chromium "
                    "(CI installs it; set SIDEBYSIDE_NO_BROWSER=1 to leave these tests out)")
    return binary


def offline_book_config(folder: Path) -> tuple[dict, Path]:
    """book/_config.yml with execution off, written into ``folder`` for ``jupyter-book build
    --config``: the book then renders the stored outputs. Paths that jupyter-book resolves
    against the config file's folder (``sphinx: local_extensions``) are made absolute."""
    config = yaml.safe_load((ROOT / "book" / "_config.yml").read_text())
    config["execute"]["execute_notebooks"] = "off"
    local = config.get("sphinx", {}).get("local_extensions", {})
    for name, path in local.items():
        local[name] = str((ROOT / "book" / path).resolve())
    path = folder / "_config.yml"
    path.write_text(yaml.safe_dump(config, allow_unicode=True))
    return config, path


@pytest.fixture
def isolated_data_env(monkeypatch, tmp_path):
    """A data root of its own and none of the SIDEBYSIDE_* variables of the caller."""
    for var in ("SIDEBYSIDE_DATASET", "SIDEBYSIDE_DATA", "SIDEBYSIDE_IDX_DIR"):
        monkeypatch.delenv(var, raising=False)
    return tmp_path


@pytest.fixture
def no_downloads(monkeypatch):
    """Point torchvision's MNIST-family mirrors at a closed port on loopback."""
    import torchvision

    for cls in (torchvision.datasets.MNIST, torchvision.datasets.FashionMNIST):
        monkeypatch.setattr(cls, "mirrors", ["http://127.0.0.1:9/"])


def debian_fashion_mnist():
    from sidebyside.data import DEBIAN_FASHION_MNIST

    if not DEBIAN_FASHION_MNIST.is_dir():
        pytest.skip(f"{DEBIAN_FASHION_MNIST} is missing: apt-get install dataset-fashion-mnist")
    return DEBIAN_FASHION_MNIST
