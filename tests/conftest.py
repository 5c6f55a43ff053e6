from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]


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
