"""The errors the notebooks raise on purpose, read from their stored outputs.

Every code cell tagged ``raises-exception`` in a tutorial (``notebooks/NN_*.ipynb``) or a deep
dive (``notebooks/deep_dives/*.ipynb``) gives an :class:`Entry`: the exception's type and the
first line of its message (MXNet's C++ traceback banner dropped, ANSI colours stripped,
machine paths replaced by ``…``), a cause, a fix or follow-up, the framework that raised it and
where it is shown. The cause is the first whole sentences of the prose paragraph nearest before
the cell, not past a heading; a paragraph that goes on with a sentence begun above the cell
before it ("and `mx.np.ones(5, 3)` reads it …", "… a convolution does not") is joined to that
sentence. The fix is the first whole sentences of the first Markdown cell after the cell, left
out when that cell opens a section or a topic of its own (a bold label such as
"**`addmm`**.") or introduces the next error. Sentences are never cut, except one longer than
``2 * MAX_SUMMARY`` characters. ``tools/make_error_index.py`` writes ``book/errors.md`` from these entries, and
:func:`sidebyside.apimap.find` searches them.

Nothing heavy is imported: the notebooks are read as JSON.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from .. import mappings

__all__ = ["Entry", "FRAMEWORKS", "MAX_MESSAGE", "MAX_SUMMARY", "read_all", "notebook_entries",
           "first_line", "summary", "scrub", "framework", "sidebyside_exceptions", "sort_key"]

PACKAGE = Path(__file__).resolve().parents[1]   # src/sidebyside
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


@dataclass(frozen=True)
class Entry(mappings.Place):
    framework: str
    ename: str
    message: str
    cause: str | None
    fix: str | None
    stem: str          # 05_autograd
    number: int        # 5 (0 for a deep dive)
    section: str       # "1 Recording › Forgetting to record"
    cell: int          # index of the cell in the notebook
    folder: str = ""   # "deep_dives" for a deep dive
    title: str = ""    # the page's title
    heading: str = ""  # the section's heading as written ("1. Recording")
    code: str = ""     # the cell's source

    @property
    def page(self) -> str:
        return f"{self.folder}/{self.stem}" if self.folder else self.stem

    @property
    def key(self) -> str:
        return f"{self.ename}: {self.message}"

    @property
    def anchor(self) -> str:
        """The HTML id of the heading as written (``section`` is its path, for reading)."""
        return mappings.section_id(self.heading)

    @property
    def text(self) -> str:
        """What :func:`sidebyside.apimap.find` searches: the type, the message, the cause,
        the fix and the code that raised it."""
        return " ".join(filter(None, (self.ename, self.message, self.cause, self.fix,
                                      self.code)))


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


_ATOMS = re.compile(r"(`[^`]*`|\[[^\]]*\]\([^)]*\))")  # code spans and links stay whole
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z*_\x00(\[])")
_FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.M | re.S)
# a paragraph that goes on with a sentence begun before the cell above it: "and …", "… a
# convolution"; a lower-case word or an ellipsis
CONTINUATION = re.compile(r"(?:…|\.\.\.|[a-z])")
CONJUNCTIONS = ("and", "but", "or", "nor", "so", "yet", "then")
MIN_WORDS = 6


def _prose(markdown: str) -> list[tuple[str, str]]:
    """The blocks of a Markdown cell, in order: ``("heading", text)`` for a heading and
    ``("prose", text)`` for a paragraph of prose, on one line. Code blocks, tables, lists,
    directives and HTML are left out, and so are bold labels alone ("**Gluon**")."""
    out = []
    for para in re.split(r"\n\s*\n", _FENCE.sub("", markdown.strip())):
        lines = para.splitlines()
        heads = [ln for ln in lines if ln.lstrip().startswith("#")]
        out += [("heading", ln.lstrip("# ").strip()) for ln in heads]
        lines = [ln for ln in lines if not ln.lstrip().startswith("#")]
        if not lines or lines[0].lstrip().startswith(("|", "```", ":::", "<", "-", "*  ")):
            continue
        text = " ".join(ln.strip() for ln in lines).strip()
        if re.fullmatch(r"\*\*[^*]+\*\*:?", text):        # "**Gluon**": a label, not prose
            continue
        out.append(("prose", text))
    return out


def _sentences(text: str) -> list[str]:
    """``text`` cut into sentences (a code span or a link is never cut)."""
    atoms: list[str] = []

    def hold(m):
        atoms.append(m.group(0))
        return f"\x00{len(atoms) - 1}\x00"

    held = _ATOMS.sub(hold, text)
    return [re.sub(r"\x00(\d+)\x00", lambda m: atoms[int(m.group(1))], s).strip()
            for s in _SENTENCE_END.split(held)]


def _shown(text: str) -> int:
    """How many characters ``text`` shows: no backticks, no link targets."""
    return len(re.sub(r"\]\([^)]*\)", "]", text).replace("`", ""))


def _lead(sentences: list[str]) -> str:
    """The first sentence, and the next ones while what is taken is very short
    (:data:`MIN_WORDS`) and all of it shows at most :data:`MAX_SUMMARY` characters: whole
    sentences. Only a first sentence longer than twice that is cut (with " …")."""
    out = sentences[0]
    for nxt in sentences[1:]:
        if len(re.findall(r"\S+", out)) >= MIN_WORDS or _shown(f"{out} {nxt}") > MAX_SUMMARY:
            break
        out = f"{out} {nxt}"
    if _shown(out) > 2 * MAX_SUMMARY:          # one sentence too long: cut it, and say so
        cut = out[:2 * MAX_SUMMARY].rsplit(" ", 1)[0]
        while cut.count("`") % 2:              # never inside a code span
            cut = cut[:cut.rindex("`")].rstrip()
        out = cut.rstrip(" ,;—") + " …"
    return out


def _clean(text: str, folder: str) -> str:
    """One line, a closing colon made a stop, links made relative to book/."""
    text = re.sub(r"\s*[:;,]$", ".", text.strip())
    return scrub(mappings.rebase_links(text, folder))


def continues(paragraph: str) -> bool:
    """The paragraph goes on with a sentence begun before it ("and the error appears …",
    "… a convolution in `NHWC` does not")."""
    return bool(CONTINUATION.match(paragraph.lstrip()))


def join(before: str, after: str) -> str:
    """A sentence begun in ``before`` and continued in ``after``, as one sentence: "works
    on the CPU …" + "… a convolution does not" is "works on the CPU; a convolution does
    not", "the *context*:" + "and `mx.np` …" is "the *context*, and `mx.np` …"."""
    before, after = before.rstrip(), after.lstrip()
    after = re.sub(r"^(?:…|\.\.\.)\s*", "", after)
    before = re.sub(r"\s*(?:…|\.\.\.|[:;,])$", "", before)
    first = re.match(r"\w+", after)
    sep = ", " if first and first.group(0).lower() in CONJUNCTIONS else "; "
    return f"{before}{sep}{after}"


def summary(markdown: str, folder: str = "") -> str | None:
    """The first sentence of the first prose paragraph (two when the first is very short),
    cleaned: one line, links between pages made relative to book/ (from a page in
    ``notebooks/<folder>``), a closing colon made a stop."""
    paragraphs = [text for kind, text in _prose(markdown) if kind == "prose"]
    if not paragraphs:
        return None
    return _clean(_lead(_sentences(paragraphs[0])), folder)


# ---------------------------------------------------------------------------- the entries
def sidebyside_exceptions(package: Path = PACKAGE) -> set[str]:
    """The exception classes defined in the helper package (read from the source, not
    imported), its subpackages included."""
    names = set()
    for path in sorted(package.rglob("*.py")):
        names |= set(re.findall(r"^class (\w+)\([\w., ]*(?:Error|Exception|Mismatch|Failed)"
                                r"[\w., ]*\)", path.read_text(encoding="utf-8"), re.M))
    return names


def framework(ename: str, traceback: str, source: str, ours: set[str]) -> str:
    """Which framework raised the error: ``"MXNet"``, ``"PyTorch"``, ``"sidebyside"`` or
    ``"other"``, from the type, the frames the trimmed traceback names, or the code."""
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


def _section(cells, index: int) -> tuple[str, str]:
    """('1 Title › Subsection', '1. Title') of the cell at ``index`` (empty before the
    first section)."""
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
    return (f"{name} › {sub}" if sub else name), section


def _title(cells) -> str:
    first = _source(cells[0]) if cells else ""
    match = re.match(r"#\s+(.*)", first.strip())
    return match.group(1).strip() if match else ""


def _raises(cell) -> bool:
    return cell["cell_type"] == "code" and "raises-exception" in _tags(cell)


def _cause(cells, i: int, folder: str) -> str | None:
    """The prose nearest before cell ``i``, not past a heading: its first whole sentences
    (:func:`summary`'s rule). A paragraph that goes on with a sentence begun above it
    (:func:`continues`) is joined to that sentence, so the cause is the whole sentence."""
    paragraphs = []                    # nearest first
    for j in range(i - 1, -1, -1):
        if cells[j]["cell_type"] != "markdown":
            continue
        blocks = _prose(_source(cells[j]))
        for kind, text in reversed(blocks):
            if kind == "heading":
                break
            paragraphs.append(text)
        else:
            continue
        break
    if not paragraphs:
        return None
    k = 0
    while k + 1 < len(paragraphs) and continues(paragraphs[k]):
        k += 1
    if k == 0:
        return _clean(_lead(_sentences(paragraphs[0])), folder)
    text = _sentences(paragraphs[k])[-1]          # the sentence that goes on below
    for m in range(k - 1, -1, -1):
        text = join(text, paragraphs[m])
    return _clean(_lead(_sentences(text)), folder)


# a paragraph that opens a topic of its own: "**`addmm`**. The seed writes …"; not a
# framework's or a check's label ("**Gluon**: …", "**Check**: …")
TOPIC_LABEL = re.compile(r"\*\*(?!(?:PyTorch|Gluon|MXNet|Check)\b)[^*]+\*\*[.:]?\s")


def _fix(cells, i: int, folder: str) -> str | None:
    """The first sentences of the first Markdown cell after cell ``i`` (:func:`summary`'s
    rule), where it is about the same error: not when it opens a section or a topic of its
    own (a bold label: :data:`TOPIC_LABEL`), nor when it introduces another cell that
    raises."""
    j = next((k for k in range(i + 1, len(cells)) if cells[k]["cell_type"] == "markdown"), None)
    if j is None:
        return None
    source = _source(cells[j]).lstrip()
    if source.startswith("#") or TOPIC_LABEL.match(source):
        return None
    following = next((c for c in cells[j + 1:] if c["cell_type"] == "markdown"
                      or _raises(c)), None)
    if following is not None and _raises(following):
        return None
    blocks = _prose(source)
    if not blocks or blocks[0][0] != "prose":
        return None
    return _clean(_lead(_sentences(blocks[0][1])), folder)


def notebook_entries(path: Path, ours: set[str]) -> list[Entry]:
    """The entries of one notebook (a tutorial, or a deep dive in ``deep_dives/``)."""
    nb = json.loads(Path(path).read_text(encoding="utf-8"))
    cells = nb["cells"]
    folder = mappings.DEEP_DIVES if path.parent.name == mappings.DEEP_DIVES else ""
    number = int(path.name[:2]) if not folder and path.name[:2].isdigit() else 0
    title = _title(cells)
    out = []
    for i, cell in enumerate(cells):
        if cell["cell_type"] != "code" or "raises-exception" not in _tags(cell):
            continue
        section, heading = _section(cells, i)
        for err in (o for o in cell.get("outputs", []) if o.get("output_type") == "error"):
            traceback = ANSI.sub("", "\n".join(err.get("traceback", [])))
            out.append(Entry(
                framework=framework(err["ename"], traceback, _source(cell), ours),
                ename=scrub(err["ename"]), message=first_line(err["ename"], err["evalue"]),
                cause=_cause(cells, i, folder), fix=_fix(cells, i, folder), stem=path.stem,
                number=number, section=scrub(section), cell=i, folder=folder, title=title,
                heading=heading, code=scrub(_source(cell))))
    return out


def read_all(notebooks: Path | None = None) -> list[Entry]:
    """Every entry of the tutorials ``NN_*.ipynb`` in ``notebooks`` (default: the
    repository's notebooks/), then of its deep dives, in reading order."""
    notebooks = mappings.NOTEBOOKS if notebooks is None else Path(notebooks)
    ours = sidebyside_exceptions()
    entries = []
    for path in (sorted(notebooks.glob("[0-9][0-9]_*.ipynb"))
                 + sorted((notebooks / mappings.DEEP_DIVES).glob("*.ipynb"))):
        entries += notebook_entries(path, ours)
    return entries


def sort_key(e: Entry):
    """By framework, then by message (leading quotes and punctuation ignored)."""
    text = re.sub(r"^\W+", "", e.message).casefold()
    return (FRAMEWORKS.index(e.framework), text, e.ename, e.folder, e.number, e.stem, e.cell)
