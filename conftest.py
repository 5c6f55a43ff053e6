"""Loaded for every test pytest collects here, the notebooks' (nbval) included."""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "book" / "_ext"))   # the book's Sphinx extension

# no test file may leave a process running behind it (tools/leftover_children.py)
pytest_plugins = ["leftover_children"]


def pytest_configure(config):
    # nbval compares outputs after these substitutions (device names only), so the stored
    # notebooks pass on a GPU runner too; an absolute path, whatever folder pytest runs from
    if getattr(config.option, "nbval_sanitize_with", "unset") is None:
        config.option.nbval_sanitize_with = str(ROOT / "tools" / "nbval_sanitize.cfg")
