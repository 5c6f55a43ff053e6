"""The command line shared by the tools that generate book pages (``make_cheatsheet.py``,
``make_error_index.py``, ``make_status.py``): write the page, or ``--check`` that the committed
page is what the tool would write now."""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Callable


def main(render: Callable[[], tuple[str, dict]], out: Path, target: str, description: str,
         argv: list[str] | None = None) -> int:
    """``render()`` gives the page's text and a dict of counts to report; ``target`` is the
    Make target that regenerates ``out``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--check", action="store_true",
                        help=f"write nothing; exit 1 if book/{out.name} is out of date")
    parser.add_argument("--out", type=Path, default=out)
    args = parser.parse_args(argv)
    text, stats = render()
    if args.check:
        same = args.out.exists() and args.out.read_text(encoding="utf-8") == text
        print(f"{args.out.name}: {'up to date' if same else f'OUT OF DATE: run make {target}'}")
        return 0 if same else 1
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out.name}: " + ", ".join(f"{k} {v}" for k, v in stats.items()))
    return 0
