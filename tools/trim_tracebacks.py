"""Trim the stored tracebacks of notebooks to what a reader needs.

A cell tagged ``raises-exception`` stores its traceback: the reader's own lines, then every
frame inside the libraries, each with the absolute path of this machine's site-packages.
This keeps the header, the frames of the notebook's own cells and the final error line, and
replaces the library frames with one line, before the error line, saying how many were
left out and from which packages. nbval does not compare tracebacks, so trimming changes no
test; ``make notebooks`` runs it after executing.

    python tools/trim_tracebacks.py notebooks/*.ipynb
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

import nbformat

ANSI = re.compile(r"\x1b\[[0-9;]*m")
LIBRARY_FRAME = re.compile(r"^File (?:/|<string>)")   # a file path, or generated code
# where a dropped frame's file lives: an installed package, our own package (installed in
# editable mode, so its frames point into src/), an example script folder or tools/
PLACES = (
    (re.compile(r"/site-packages/([A-Za-z0-9_]+)/"), r"\1"),
    (re.compile(r"/src/(sidebyside)/"), r"\1"),
    (re.compile(r"/(examples/[A-Za-z0-9_]+)/"), r"\1"),
    (re.compile(r"/(tools)/[^/]+\.py"), r"\1"),
    (re.compile(r"/lib/python3\.\d+/[A-Za-z0-9_]+"), "the standard library"),
    (re.compile(r"^File <string>"), "generated code"),     # e.g. MXNet's operator wrappers
)


def _place(frame: str) -> str:
    for pattern, name in PLACES:
        found = pattern.search(frame)
        if found:
            return found.expand(name)
    return "other files"


def trim(traceback: list[str]) -> list[str]:
    """The traceback without library frames; one line stands for the frames left out."""
    kept, dropped = [], []
    for entry in traceback:
        plain = ANSI.sub("", entry)
        if LIBRARY_FRAME.match(plain):
            dropped.append(_place(plain))
            continue
        kept.append(entry)
    if dropped:
        where = ", ".join(sorted(set(dropped)))
        note = f"({len(dropped)} frame{'s' * (len(dropped) > 1)} inside {where} left out)"
        kept.insert(max(len(kept) - 1, 0), note)
    return kept


def trim_notebook(path: Path) -> int:
    """Trim every stored traceback of the notebook in place; return how many changed."""
    nb = nbformat.read(path, as_version=4)
    changed = 0
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            if out.output_type == "error":
                new = trim(out.traceback)
                if new != out.traceback:
                    out.traceback = new
                    changed += 1
    if changed:
        nbformat.write(nb, path)
    return changed


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    for name in argv:
        print(f"{name}: {trim_notebook(Path(name))} traceback(s) trimmed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
