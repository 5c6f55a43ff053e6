"""Write book/migrate_report.md: ``sidebyside.migrate``'s reports on the collection's own scripts.

The page is a pure function of the scripts and the tool: the legacy MXNet script of notebook
16 (``examples/image_classification/image_classification.py`` and its ``data.py``) scanned
``--to torch``, and the PyTorch script of notebook 15 (``examples/mnist/main.py``) scanned
``--to gluon``, each rendered as the Markdown report the command line writes (``--format
md``), with links relative to the book. ``make migrate-page`` writes it; ``--check`` exits 1
when the committed page differs (tests/nomxnet/test_migrate_capstones.py checks the same).
"""
from __future__ import annotations

import html
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
import pagegen  # noqa: E402  (tools/pagegen.py)

from sidebyside.migrate import report  # noqa: E402

OUT = ROOT / "book" / "migrate_report.md"
TARGET = "migrate-page"
#: (title, direction, the files, relative to the checkout)
SCANS = (
    ("`image_classification.py` → PyTorch", "torch",
     ("examples/image_classification/image_classification.py",
      "examples/image_classification/data.py")),
    ("`mnist/main.py` → Gluon", "gluon", ("examples/mnist/main.py",)),
)

INTRO = """\
# Migration reports of the collection's own scripts

What `python -m sidebyside.migrate` says about the two scripts the capstones port by hand:
the legacy MXNet script of [notebook 16](notebooks/16_capstone_mxnet_to_pytorch.ipynb) and
the PyTorch script of [notebook 15](notebooks/15_capstone_mnist_to_gluon.ipynb). Every
counterpart is a row the collection executes, every gotcha a behaviour a notebook section
asserts; [notebook 21](notebooks/21_migrate_your_script.ipynb) walks through the first
report. This page is generated (`make migrate-page`); to get the same for your code:

```
python -m sidebyside.migrate path/to/your/code --format md --out plan.md
python -m sidebyside.migrate path/to/your/code --write ../draft-port
```
"""


def scan_files(paths, direction: str) -> report.Report:
    """One report over several files (relative names, as a folder scan gives them)."""
    files = report.scan_sources([(p, (ROOT / p).read_text(encoding="utf-8"), None)
                                 for p in paths], direction)
    return report.Report(", ".join(Path(p).name for p in paths), direction, files)


_SECTION_LINK = re.compile(r"\[((?:[^\[\]]|\[[^\]]*\])*)\]"
                           r"\((notebooks/[^)#\s]+|mxnet_api)\.(?:ipynb|md)#([^)\s]+)\)")


def _html_section_links(markdown: str) -> str:
    """Links to a notebook's section, or to an entry's row of the API page, as the built
    book's HTML targets (``notebooks/NN_x.html#id``, ``mxnet_api.html#api-…``): MyST resolves
    a link to a page, not to a heading's or a row's id, so such a link is written as an HTML
    anchor, which the browser check then follows."""
    def fix(m):
        text = html.escape(m.group(1).replace("\\|", "|"), quote=False)
        text = re.sub(r"`([^`]*)`", r"<code>\1</code>", text)
        return f'<a href="{m.group(2)}.html#{m.group(3)}">{text}</a>'
    return _SECTION_LINK.sub(fix, markdown)


def _demote(markdown: str) -> str:
    return "\n".join("#" + line if line.startswith("#") else line
                     for line in markdown.splitlines())


def render() -> tuple[str, dict]:
    parts, stats = [INTRO], {}
    for title, direction, paths in SCANS:
        rep = scan_files(paths, direction)
        parts.append(_html_section_links(_demote(report.render(rep, "md", title=title))))
        t = rep.totals()
        stats[Path(paths[0]).name] = f"{t['mapped']}/{t['constructs']} mapped"
    return "\n".join(parts).rstrip() + "\n", stats


if __name__ == "__main__":
    sys.exit(pagegen.main(render, OUT, TARGET, __doc__.splitlines()[0]))
