"""Loaded for every test pytest collects here, the notebooks' (nbval) included."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "tools"))

# no test file may leave a process running behind it (tools/leftover_children.py)
pytest_plugins = ["leftover_children"]
