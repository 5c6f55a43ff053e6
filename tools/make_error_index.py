"""Write book/errors.md: every error the notebooks raise on purpose, with its cause and fix.

The entries are the code cells tagged ``raises-exception`` in the tutorials
(notebooks/NN_*.ipynb) and the deep dives (notebooks/deep_dives/*.ipynb), read from their
stored error outputs by ``sidebyside.apimap.errorindex`` (which ``sidebyside.apimap.find``
searches too): the exception's type and the first line of its message (MXNet's C++ traceback
banner dropped, ANSI colours stripped, machine paths replaced by ``…``), a cause (the whole
first sentences of the prose nearest before the cell, a sentence split around a code cell
joined), a fix or follow-up (those of the first Markdown cell after it, left out when that
cell opens a section or a topic of its own or introduces the next error), and a link to the
page and its section. Entries are grouped by framework (MXNet, PyTorch,
sidebyside, other) and sorted by message.

Run ``make errors`` (or this file) after re-executing the notebooks; ``--check`` exits 1 when
the committed page differs from what would be written (tests/test_reference_pages.py checks
the same). The page depends on the committed notebooks and src/sidebyside only.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from sidebyside import mappings
from sidebyside.apimap.errorindex import (  # noqa: F401  (the tests read them from here)
    FRAMEWORKS, MAX_MESSAGE, MAX_SUMMARY, Entry, first_line, read_all, scrub, sort_key,
    summary)

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
import pagegen  # noqa: E402  (tools/pagegen.py)

OUT = ROOT / "book" / "errors.md"
NOTEBOOKS = ROOT / "notebooks"


def code_span(text: str) -> str:
    """``text`` as one inline code span, whatever backticks it holds."""
    if not text:
        return "*(no message)*"
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if longest or text.startswith(("`", " ")) or text.endswith(("`", " ")) else ""
    return f"{fence}{pad}{text}{pad}{fence}"


# ---------------------------------------------------------------------------- the page
def render_entry(e: Entry) -> list[str]:
    where = f"[{mappings.page_label(e.stem, e.folder, e.title)}]({e.link})"
    if e.section:
        where += f" §{e.section}"
    lines = [f"- **`{e.ename}`** {code_span(e.message)}"]
    if e.cause:
        lines.append(f"  - *cause:* {e.cause}")
    if e.fix:
        lines.append(f"  - *fix, or what follows:* {e.fix}")
    lines.append(f"  - shown in {where}")
    return lines


def render(notebooks: Path = NOTEBOOKS) -> tuple[str, dict]:
    entries = sorted(read_all(notebooks), key=sort_key)
    per = {fw: [e for e in entries if e.framework == fw] for fw in FRAMEWORKS}
    pages = len({e.page for e in entries})
    stats = {"entries": len(entries), **{fw: len(v) for fw, v in per.items()},
             "notebooks": pages}
    counts = ", ".join(f"{len(v)} {fw}" for fw, v in per.items() if v)
    lines = [
        "% Written by tools/make_error_index.py (`make errors`): edit the notebooks, not this",
        "% file.",
        "",
        "# Index of error messages",
        "",
        f"Every error the notebooks raise on purpose — {len(entries)} cells tagged "
        f"`raises-exception` in {pages} notebooks and deep dives ({counts}) — with the exact "
        "type and the first line of the message, as stored in the notebook's last run. "
        "Search this page for the message you got (Ctrl+F / ⌘F, or the book's search box), "
        "or ask `sidebyside.apimap.find` for a name in it. "
        "MXNet's C++ traceback banner (`Traceback …`, `File \"../src/…\", line …`) is left "
        "out, messages are cut at 200 characters, and machine paths are shown as `…`.",
        "",
        "Each entry gives the first whole sentences of the text nearest before the cell in "
        "the notebook (*cause*) and, where the next text is about the same error, those of "
        "the text after it (*fix, or what follows*); the notebook section has the full story "
        "and the check that asserts it. "
        "Entries are grouped by the framework that raised them and sorted by message.",
        "",
    ]
    for fw in FRAMEWORKS:
        if not per[fw]:
            continue
        lines += [f"## {fw}", ""]
        for e in per[fw]:
            lines += render_entry(e)
        lines.append("")
    return "\n".join(lines), stats


def main(argv: list[str] | None = None) -> int:
    return pagegen.main(render, OUT, "errors", __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    sys.exit(main())
