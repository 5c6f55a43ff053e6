"""The notebooks changed since a git revision, for `make test-fast` (one path per line).

A notebook counts as changed when its ``.ipynb`` or its py:percent twin (``.py`` beside it)
differs from ``--since`` (default ``HEAD``: the uncommitted edits) or is new and not ignored.
Only notebooks that exist are listed (a deleted one has nothing to run), each once, sorted.

    python tools/changed_notebooks.py                 # edits since the last commit
    python tools/changed_notebooks.py --since main    # everything this branch changed
"""
from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _git(root: Path, *args: str) -> list[str]:
    proc = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)} failed: {proc.stderr.strip()}")
    return [line for line in proc.stdout.splitlines() if line]


def changed_notebooks(since: str = "HEAD", root: Path = ROOT) -> list[str]:
    """The ``notebooks/**.ipynb`` paths (relative to ``root``) changed since ``since``."""
    _git(root, "rev-parse", "--verify", "--quiet", f"{since}^{{commit}}")
    paths = _git(root, "diff", "--name-only", since, "--", "notebooks")
    paths += _git(root, "ls-files", "--others", "--exclude-standard", "--", "notebooks")
    found = set()
    for path in paths:
        p = Path(path)
        if p.suffix in (".py", ".ipynb"):
            ipynb = p.with_suffix(".ipynb")
            if (root / ipynb).is_file():
                found.add(ipynb.as_posix())
    return sorted(found)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--since", default="HEAD",
                        help="a git revision (default HEAD: the uncommitted edits)")
    opt = parser.parse_args(argv)
    try:
        notebooks = changed_notebooks(opt.since)
    except RuntimeError:
        parser.error(f"--since {opt.since!r} is not a commit of this repository")
    print("\n".join(notebooks))
    return 0


if __name__ == "__main__":
    sys.exit(main())
