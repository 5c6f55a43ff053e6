from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


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
