"""Helpers for the checks of entries/ops_create.py and entries/ops_random.py: a temporary
folder per process for the save/load round trips."""
from __future__ import annotations

import functools
import os
import shutil
import tempfile

__all__ = ["workdir", "path"]


@functools.lru_cache(maxsize=1)
def workdir() -> str:
    """A temporary folder for this process (removed when the interpreter exits)."""
    import atexit

    where = tempfile.mkdtemp(prefix="sidebyside-create-")
    atexit.register(shutil.rmtree, where, True)
    return where


def path(name: str) -> str:
    """``name`` inside :func:`workdir` (the same path on both sides of a check)."""
    return os.path.join(workdir(), name)
