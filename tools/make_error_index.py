"""Write book/errors.md: every error the notebooks raise on purpose, with its cause and fix.

The entries are the code cells tagged ``raises-exception`` in notebooks/*.ipynb, read from
their stored error outputs: the exception's type and the first line of its message (MXNet's
C++ traceback banner dropped, ANSI colours stripped, machine paths replaced by ``…``), a
one-sentence cause taken from the Markdown cell before the cell, a fix or follow-up taken
from the first Markdown cell after it (left out when that cell starts a new section or
introduces the next error), and a link to the notebook and its section. Entries are grouped
by framework (MXNet, PyTorch, sidebyside, other) and sorted by message.

Run ``make errors`` (or this file) after re-executing the notebooks; ``--check`` exits 1 when
the committed page differs from what would be written (tests/test_reference_pages.py checks
the same). The page depends on the committed notebooks and src/sidebyside only.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
import pagegen  # noqa: E402  (tools/pagegen.py)

OUT = ROOT / "book" / "errors.md"
NOTEBOOKS = ROOT / "notebooks"
FRAMEWORKS = ("MXNet", "PyTorch", "sidebyside", "other")
MAX_MESSAGE = 200
MAX_SUMMARY = 300

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
# MXNet's C++ banner: "Traceback (most recent call last):" and '  File "../src/x.h", line 1'
BANNER = re.compile(r'^\s*(Traceback \(most recent call last\):|File ".*", line \d+)')
# absolute machine paths (a temporary folder, the checkout, a home, an installed package)
MACHINE_PATH = re.compile(
    r"""(?:[A-Za-z]:\\|/)(?:tmp|work|root|home|Users|private|var|opt|usr)\b[^\s'"`),;:]*"""
    r"""|[^\s'"`(]*site-packages[^\s'"`),;:]*""")
# tools/trim_tracebacks.py's note: "(3 frames inside generated code, mxnet left out)"
FRAMES_NOTE = re.compile(r"\(\d+ frames? inside (.*) left out\)")
MXNET_TYPES = {"MXNetError", "DeferredInitializationError", "NotImplementedForSymbol"}
TORCH_PACKAGES = {"torch", "torchvision", "torchmetrics", "torchaudio", "tensorboardX"}
MXNET_CODE = re.compile(r"\b(?:mx|nd|gluon|mnp|npx|autograd)\.|\b(?:nd|mx)_\w|\.asnumpy\(|"
                        r"\bcollect_params\(|\bas_in_context\(")
TORCH_CODE = re.compile(r"\btorch\b|\bpt_\w")
NOTEBOOK_LINK = re.compile(r"\]\((\d\d_\w+\.ipynb)")


@dataclass(frozen=True)
class Entry:
    framework: str
    ename: str
    message: str
    cause: str | None
    fix: str | None
    stem: str          # 05_autograd
    number: int        # 5
    section: str       # "1. Recording › Forgetting to record"
    cell: int          # index of the cell in the notebook


# ---------------------------------------------------------------------------- text helpers
def scrub(text: str) -> str:
    """No ANSI colours, no absolute machine paths."""
    return MACHINE_PATH.sub("…", ANSI.sub("", text))


def first_line(ename: str, evalue: str) -> str:
    """The first line of the message, without MXNet's banner and repeated class name."""
    lines = [ln for ln in scrub(evalue).strip().splitlines() if not BANNER.match(ln)]
    text = "\n".join(lines).strip()
    prefix = f"{ename}: "
    while text.startswith(prefix):
        text = text[len(prefix):].lstrip()
    line = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    line = re.sub(r"\s+", " ", line)
    return line if len(line) <= MAX_MESSAGE else line[:MAX_MESSAGE - 1].rstrip() + "…"


def code_span(text: str) -> str:
    """``text`` as one inline code span, whatever backticks it holds."""
    if not text:
        return "*(no message)*"
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if longest or text.startswith(("`", " ")) or text.endswith(("`", " ")) else ""
    return f"{fence}{pad}{text}{pad}{fence}"


_ATOMS = re.compile(r"(`[^`]*`|\[[^\]]*\]\([^)]*\))")  # code spans and links stay whole


def summary(markdown: str) -> str | None:
    """The first sentence of the first prose paragraph (two when the first is very short),
    cleaned: one line, notebook links made relative to book/, a closing colon made a stop."""
    paragraphs = []
    for para in re.split(r"\n\s*\n", markdown.strip()):
        lines = [ln for ln in para.splitlines() if not ln.lstrip().startswith("#")]
        if not lines or lines[0].lstrip().startswith(("|", "```", ":::", "<", "-", "*  ")):
            continue
        text = " ".join(ln.strip() for ln in lines).strip()
        if re.fullmatch(r"\*\*[^*]+\*\*:?", text):        # "**Gluon**": a label, not prose
            continue
        paragraphs.append(text)
    if not paragraphs:
        return None
    atoms: list[str] = []

    def hold(m):
        atoms.append(m.group(0))
        return f"\x00{len(atoms) - 1}\x00"

    held = _ATOMS.sub(hold, paragraphs[0])
    sentences = re.split(r"(?<=[.!?])\s+(?=[A-Z*_\x00(\[])", held)
    out = sentences[0]
    for nxt in sentences[1:]:
        if len(re.findall(r"\S+", out)) >= 6:
            break
        out = f"{out} {nxt}"
    if len(out) > MAX_SUMMARY:
        cut = out[:MAX_SUMMARY].rsplit(" ", 1)[0]
        out = re.sub(r"\x00\d*$", "", cut).rstrip(" ,;—") + " …"
    out = re.sub(r"\x00(\d+)\x00", lambda m: atoms[int(m.group(1))], out).strip()
    out = re.sub(r"[:;,]$", ".", out)
    out = NOTEBOOK_LINK.sub(r"](notebooks/\1", out)
    return scrub(out)


# ---------------------------------------------------------------------------- the entries
def sidebyside_exceptions() -> set[str]:
    """The exception classes defined in src/sidebyside (read from the source, not imported)."""
    names = set()
    for path in sorted((ROOT / "src" / "sidebyside").glob("*.py")):
        names |= set(re.findall(r"^class (\w+)\([\w., ]*(?:Error|Exception|Mismatch|Failed)"
                                r"[\w., ]*\)", path.read_text(encoding="utf-8"), re.M))
    return names


def framework(ename: str, traceback: str, source: str, ours: set[str]) -> str:
    if ename in MXNET_TYPES:
        return "MXNet"
    if ename in ours:
        return "sidebyside"
    note = FRAMES_NOTE.search(traceback)
    packages = {p.strip() for p in note.group(1).split(",")} - {"generated code"} if note else set()
    if "mxnet" in packages:
        return "MXNet"
    if packages & TORCH_PACKAGES:
        return "PyTorch"
    if "sidebyside" in packages:
        return "sidebyside"
    if packages:
        return "other"
    raising = [ln.split("----> ", 1)[1] for ln in traceback.splitlines() if "----> " in ln]
    for text in raising + [source]:
        mx_hit, pt_hit = bool(MXNET_CODE.search(text)), bool(TORCH_CODE.search(text))
        if mx_hit != pt_hit:
            return "MXNet" if mx_hit else "PyTorch"
    return "other"


def _tags(cell) -> set[str]:
    return set(cell.get("metadata", {}).get("tags", []))


def _source(cell) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def _section(cells, index: int) -> str:
    """'1. Title › Subsection' of the cell at ``index`` ('' before the first section)."""
    section = sub = ""
    for cell in cells[:index]:
        if cell["cell_type"] != "markdown":
            continue
        for line in _source(cell).splitlines():
            if line.startswith("## "):
                section, sub = line[3:].strip(), ""
            elif line.startswith("### ") and section:
                sub = line[4:].strip()
    name = re.sub(r"^(\d+)\.\s*", r"\1 ", section)
    return f"{name} › {sub}" if sub else name


def _starts_new_topic(cells, j: int) -> bool:
    """The Markdown cell ``j`` opens a section, or introduces another error cell."""
    if _source(cells[j]).lstrip().startswith("#"):
        return True
    for cell in cells[j + 1:]:
        if cell["cell_type"] == "markdown":
            return False
        if "raises-exception" in _tags(cell):
            return True
    return False


def _cause(cells, i: int) -> str | None:
    """From the Markdown cells before cell ``i``: the nearest with a sentence, not past the
    start of the section."""
    for j in range(i - 1, -1, -1):
        cell = cells[j]
        if cell["cell_type"] != "markdown":
            continue
        text = summary(_source(cell))
        if text:
            return text
        if re.search(r"^## ", _source(cell), re.M):
            return None
    return None


def _fix(cells, i: int) -> str | None:
    j = next((k for k in range(i + 1, len(cells)) if cells[k]["cell_type"] == "markdown"), None)
    if j is None or _starts_new_topic(cells, j):
        return None
    return summary(_source(cells[j]))


def notebook_entries(path: Path, ours: set[str]) -> list[Entry]:
    nb = json.loads(path.read_text(encoding="utf-8"))
    cells = nb["cells"]
    number = int(path.name[:2])
    out = []
    for i, cell in enumerate(cells):
        if cell["cell_type"] != "code" or "raises-exception" not in _tags(cell):
            continue
        for err in (o for o in cell.get("outputs", []) if o.get("output_type") == "error"):
            traceback = ANSI.sub("", "\n".join(err.get("traceback", [])))
            out.append(Entry(
                framework=framework(err["ename"], traceback, _source(cell), ours),
                ename=scrub(err["ename"]), message=first_line(err["ename"], err["evalue"]),
                cause=_cause(cells, i), fix=_fix(cells, i), stem=path.stem, number=number,
                section=scrub(_section(cells, i)), cell=i))
    return out


def read_all(notebooks: Path = NOTEBOOKS) -> list[Entry]:
    ours = sidebyside_exceptions()
    entries = []
    for path in sorted(notebooks.glob("[0-9][0-9]_*.ipynb")):
        entries += notebook_entries(path, ours)
    return entries


def sort_key(e: Entry):
    """By framework, then by message (leading quotes and punctuation ignored)."""
    text = re.sub(r"^\W+", "", e.message).casefold()
    return (FRAMEWORKS.index(e.framework), text, e.ename, e.number, e.cell)


# ---------------------------------------------------------------------------- the page
def render_entry(e: Entry) -> list[str]:
    where = f"[notebook {e.number}](notebooks/{e.stem}.ipynb)"
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
    stats = {"entries": len(entries), **{fw: len(v) for fw, v in per.items()},
             "notebooks": len({e.stem for e in entries})}
    counts = ", ".join(f"{len(v)} {fw}" for fw, v in per.items() if v)
    lines = [
        "% Written by tools/make_error_index.py (`make errors`): edit the notebooks, not this",
        "% file.",
        "",
        "# Index of error messages",
        "",
        f"Every error the notebooks raise on purpose — {len(entries)} cells tagged "
        f"`raises-exception` in {stats['notebooks']} notebooks ({counts}) — with the exact "
        "type and the first line of the message, as stored in the notebook's last run. "
        "Search this page for the message you got (Ctrl+F / ⌘F, or the book's search box). "
        "MXNet's C++ traceback banner (`Traceback …`, `File \"../src/…\", line …`) is left "
        "out, messages are cut at 200 characters, and machine paths are shown as `…`.",
        "",
        "Each entry gives the sentence before the cell in the notebook (*cause*) and, where "
        "the next text is about the same error, the sentence after it (*fix, or what "
        "follows*); the notebook section has the full story and the check that asserts it. "
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
