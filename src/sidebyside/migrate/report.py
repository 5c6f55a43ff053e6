"""A script or a folder, scanned: every construct, its counterpart, its gotchas (:func:`scan`),
written as text, Markdown or JSON (:func:`render`).

For each use site of the source framework (MXNet when porting ``--to torch``, PyTorch when
porting ``--to gluon``): the construct's canonical name and how it was resolved
(:mod:`.resolve`), the counterpart from the collection's executed rows with the tolerance it
was checked to (:mod:`.catalogue`), every gotcha detector that fires at the site
(:mod:`.gotchas`), whether the draft port rewrites it mechanically (:mod:`.rewrite`), and the
notebook section that teaches it. Sites with no counterpart are listed as *not in the map*.

Standard library only.
"""

from __future__ import annotations

import ast
import collections
import functools
import io
import json
import os
import posixpath
import re
import time
import tokenize
from dataclasses import dataclass, field
from pathlib import Path

from .. import mappings
from . import catalogue, gotchas, names, resolve, rewrite

__all__ = ["DIRECTIONS", "ScanError", "SiteReport", "FileReport", "Report", "scan",
           "scan_source", "scan_sources", "rank", "counterpart_text", "markers_for", "render", "NOT_IN_MAP"]

#: --to: the framework a port goes to, and the one its scripts are written for
DIRECTIONS = {"torch": names.MXNET, "gluon": names.TORCH}
NOT_IN_MAP = "not in the map"
#: folders a scan never enters
SKIP_DIRS = {".git", ".hg", ".svn", "__pycache__", "node_modules", "site-packages",
             ".ipynb_checkpoints", ".tox", ".mypy_cache", ".pytest_cache", "_build"}
MAX_BYTES = 5_000_000  # a .py file larger than this is generated data, not a script


class ScanError(Exception):
    """A path that cannot be scanned at all (missing, empty folder, not Python)."""


@dataclass
class SiteReport:
    """One use site, with what the collection knows about it."""

    site: resolve.Site
    counterparts: list[catalogue.Entry]
    findings: list[gotchas.Finding]
    rewrite: str | None = None     # the draft's rule that rewrites it, if any

    @property
    def counterpart(self) -> catalogue.Entry | None:
        return self.counterparts[0] if self.counterparts else None

    @property
    def mapped(self) -> bool:
        return bool(self.counterparts)

    def same_spelling(self, direction: str = "torch") -> bool:
        """Whether the counterpart is spelled as the site already is (``metric.reset()`` on a
        torchmetrics metric, an API-map row of status *same name*): nothing to decide there
        once the object it is called on is ported."""
        c = self.counterpart
        if c is None:
            return False
        owner = self.site.name.rpartition(".")[0].rpartition(".")[2]
        if not owner[:1].isupper():
            return False  # a call through an MXNet namespace (mx.nd.zeros) is always ported
        if c.status == "same name":
            return True  # x.shape, x.sum(): the method carries over with its object
        plain = "".join(counterpart_text(c, direction).replace("`", "").split())
        return bool(self.site.text) and plain == "".join(self.site.text.split())

    def needs_decision(self, direction: str = "torch") -> bool:
        """Whether the draft marks this site: not rewritten (and not already spelled as the
        counterpart), or a gotcha here needs a decision."""
        return (self.rewrite is None and not self.same_spelling(direction)) or any(
            g.decision for g in self.findings)


@dataclass
class FileReport:
    """One file's sites (imports apart), or why it was skipped."""

    path: str
    lines: int = 0
    sites: list[SiteReport] = field(default_factory=list)
    imports: list[resolve.Site] = field(default_factory=list)
    skipped: str | None = None     # why the file was not analysed
    draft: rewrite.Draft | None = None
    encoding: str = "utf-8"        # the file's (PEP 263 or a BOM): its draft is written so

    @property
    def found(self) -> int:
        return len(self.sites)

    @property
    def mapped(self) -> int:
        return sum(s.mapped for s in self.sites)

    @property
    def with_gotchas(self) -> int:
        return sum(bool(s.findings) for s in self.sites)

    @property
    def rewritten(self) -> int:
        return sum(s.rewrite is not None for s in self.sites)

    @property
    def rate(self) -> float | None:
        """The conversion rate: the share of sites with an executed counterpart."""
        return self.mapped / self.found if self.found else None


@dataclass
class Report:
    """A whole scan."""

    root: str
    direction: str                  # "torch" or "gluon" (the --to)
    files: list[FileReport]
    ignored: int = 0                # files that are not .py in the scanned folders
    seconds: float = 0.0

    @property
    def analysed(self) -> list[FileReport]:
        return [f for f in self.files if f.skipped is None]

    @property
    def skipped(self) -> list[FileReport]:
        return [f for f in self.files if f.skipped is not None]

    def totals(self) -> dict:
        files = self.analysed
        found = sum(f.found for f in files)
        mapped = sum(f.mapped for f in files)
        return {"files": len(files), "lines": sum(f.lines for f in files),
                "constructs": found, "mapped": mapped,
                "with_gotchas": sum(f.with_gotchas for f in files),
                "unmapped": found - mapped, "rewritten": sum(f.rewritten for f in files),
                "rate": mapped / found if found else None,
                "skipped": len(self.skipped), "ignored": self.ignored,
                "seconds": self.seconds}

    def gotcha_counts(self) -> collections.Counter:
        return collections.Counter(g.rule for f in self.analysed for s in f.sites
                                   for g in s.findings)

    def read_first(self, n: int = 5) -> list[tuple[str, str, int]]:
        """The notebooks this codebase needs most: (where, link, sites taught there), most
        first. A gotcha counts three times: it is what bites."""
        score: collections.Counter = collections.Counter()
        label = {}
        for f in self.analysed:
            for s in f.sites:
                if s.counterpart:
                    c = s.counterpart
                    score[c.link] += 1
                    label.setdefault(c.link, c.where.split(",")[0])
                for g in s.findings:
                    d = gotchas.by_name(g.rule)
                    score[d.link] += 3
                    label.setdefault(d.link, d.where.split(",")[0])
        return [(label[link], link, k) for link, k in score.most_common(n)]

    def unmapped_names(self) -> collections.Counter:
        return collections.Counter(s.site.name for f in self.analysed for s in f.sites
                                   if not s.mapped)


_KEYWORD = re.compile(r"\b([A-Za-z_][A-Za-z0-9_]*)\s*=(?!=)")
_LITERAL = re.compile(r"""['"]([A-Za-z0-9_.-]+)['"]""")


def _words(code: str) -> tuple[set[str], set[str]]:
    """The keyword names and the short string literals of a piece of code."""
    return set(_KEYWORD.findall(code)), set(_LITERAL.findall(code))


@functools.lru_cache(maxsize=8192)
def _lookup(name: str, direction: str) -> tuple[catalogue.Entry, ...]:
    return tuple(catalogue.lookup(name, direction))


def _counterparts(site: resolve.Site, direction: str, analysis) -> list[catalogue.Entry]:
    """A site's counterparts, best first: for an MXNet script, the catalogue's entries with
    the form the call's arguments select first; for a PyTorch script, the rows ranked by
    :func:`rank`."""
    if direction == "torch":
        if isinstance(site.node, ast.Call):
            return catalogue.lookup(site.name, direction, call=site.node)
        return list(_lookup(site.name, direction))
    return rank(site, list(_lookup(site.name, direction)), analysis)


def _names_inside(site: resolve.Site, analysis) -> set[str]:
    """The canonical names of the constructs inside a site's node (``mx.init.Normal`` in
    ``net.initialize(mx.init.Normal(0.02))``), the site's own included."""
    out = {site.name}
    if analysis is not None and site.node is not None:
        for sub in ast.walk(site.node):
            name = analysis.qualname(sub) if isinstance(sub, (ast.Call, ast.Attribute)) \
                else None
            if name:
                out.add(name)
    return out


_INCIDENTAL = {"ctx", "context", "device", "name", "prefix", "dtype"}
_NEGATION = re.compile(r"\s*(?:nothing|none|no |—|-|outside|not )", re.I)
_CODE_SPAN = re.compile(r"`[^`]*`")


def _prose(cell: str) -> list[str]:
    """The words of a table cell outside its code spans and links: a row spelled as code
    has none, a row that describes has some."""
    text = _MD_LINK.sub(" ", _CODE_SPAN.sub(" ", cell))
    return re.findall(r"[A-Za-z]{2,}", text)


_LEAD = re.compile(r"`\s*(?:[A-Za-z_]\w*\s*=\s*)?([A-Za-z_][\w.]*)")


def _lead_tail(spelled: str) -> str:
    """The last component of the name a table cell's first code span starts with:
    ``"`net.initialize(mx.init.Xavier())`"`` → ``"initialize"``; a bare keyword
    (``ctx=…``) has none."""
    if "`" not in spelled:  # an API-map row's names: "nd.split, mx.np.split"
        m = re.match(r"\s*([A-Za-z_][\w.]*)(?![\w.]|\s*=)", spelled)
        return m.group(1).rsplit(".", 1)[-1] if m else ""
    m = _LEAD.search(spelled)
    if not m or re.match(r"`\s*[A-Za-z_]\w*\s*=", spelled[m.start():]):
        return ""
    return m.group(1).rsplit(".", 1)[-1]


def rank(site: resolve.Site, entries: list[catalogue.Entry], analysis=None
         ) -> list[catalogue.Entry]:
    """The counterparts of one site, the best fit first. Points for an entry whose MXNet
    spelling uses the keywords, string options and constructs the site uses
    (``from_logits=True``, ``'adam'``, ``mx.init.Normal`` inside ``initialize``), against one
    that needs others or lacks the site's; for an entry about this construct alone, or led by
    it; ties keep the catalogue's order (the API map's rows before the tables')."""
    code = (analysis.segment(site.node) if analysis and site.node else "") or site.text
    keys, literals = _words(code)
    keys -= _INCIDENTAL  # where it runs, what it is called: not what a row is about
    inside = _names_inside(site, analysis)

    def score(item):
        order, e = item
        e_keys, e_literals = _words(e.mxnet if site.framework == names.MXNET else e.torch)
        e_keys -= _INCIDENTAL
        own = set(e.mxnet_names if site.framework == names.MXNET else e.torch_names)
        first = (e.mxnet_names if site.framework == names.MXNET else e.torch_names)[:1]
        spelled = e.mxnet if site.framework == names.MXNET else e.torch
        points = 2 * len(keys & e_keys) - len(e_keys - keys) - len(keys - e_keys)
        points += 3 * len(literals & e_literals) - 2 * len(e_literals - literals)
        points += 2 * len((own & inside) - {site.name}) - 2 * len(own - inside)
        points += (len(own) == 1) + (first == (site.name,))
        points += 2 * (_lead_tail(spelled) == site.tail)  # the row is spelled with this call
        if not e.from_map:  # a table row that is a spelling, not a remark about one
            points -= 4 * bool(_NEGATION.match(spelled)) + min(3, len(_prose(spelled)))
        return (-points, order)
    return [e for _, e in sorted(enumerate(entries), key=score)]


def counterpart_text(entry: catalogue.Entry, direction: str) -> str:
    """The spelling a port writes: the PyTorch side ``--to torch``, the Gluon side ``--to
    gluon``."""
    return entry.torch if direction == "torch" else entry.mxnet


def markers_for(sites: list[SiteReport], direction: str = "torch") -> list[rewrite.Marker]:
    """The draft's marker comments: every site the draft does not rewrite (its counterpart,
    or *not in the map*), and every gotcha that needs a decision, rewritten or not."""
    out = []
    for s in sites:
        if s.rewrite is None and not s.same_spelling(direction):
            c = s.counterpart
            if c:
                out.append(rewrite.Marker(s.site.line, "port", f"{s.site.text.strip()} → "
                                          f"{_plain_links(counterpart_text(c, direction))}", c.where,
                                          c.url))
            else:
                out.append(rewrite.Marker(s.site.line, "not-in-map",
                                          f"{s.site.name}: {NOT_IN_MAP}"))
        for g in s.findings:
            if g.decision:
                d = gotchas.by_name(g.rule)
                out.append(rewrite.Marker(g.line, g.rule, g.message, d.where,
                                          f"{d.link}#{d.anchor}"))
    return out


def _dedupe(markers: list[rewrite.Marker]) -> list[rewrite.Marker]:
    seen, out = set(), []
    for m in markers:
        key = (m.line, m.rule, m.message)
        if key not in seen:
            seen.add(key)
            out.append(m)
    return out


def scan_source(source: str, path: str = "<string>", direction: str = "torch",
                local_classes: dict[str, str] | None = None) -> FileReport:
    """One file's report, from its source text (``local_classes``: see
    :func:`resolve.analyse`). Raises ``SyntaxError`` for code that does not parse."""
    if direction not in DIRECTIONS:
        raise ValueError(f"direction must be one of {sorted(DIRECTIONS)}, not {direction!r}")
    written_for = DIRECTIONS[direction]
    analysis = resolve.analyse(source, path, written_for, local_classes)
    found = gotchas.detect_all(analysis, direction)
    sites = [s for s in analysis.sites if s.framework == written_for and s.kind != "import"]
    by_site: dict[int, list] = collections.defaultdict(list)
    orphans = []
    for g in found:
        # the finding's own construct on its line, else the line's first site; of two
        # alike sites on one line (two Dense in one add()), the first without this rule yet
        same = [s for s in sites if s.line == g.line and s.name == g.site_name] or \
            [s for s in sites if s.line == g.line]
        free = [s for s in same if g.rule not in {f.rule for f in by_site[id(s)]}]
        if free or same:
            by_site[id((free or same)[0])].append(g)
        else:
            orphans.append(g)
    reports = [SiteReport(s, _counterparts(s, direction, analysis), by_site[id(s)])
               for s in sites]
    target = "torch" if direction == "torch" else "mxnet"  # rewrite.draft's names
    probe = rewrite.draft(analysis, [], target)
    fired = collections.defaultdict(list)
    for line, rule in probe.rewritten:
        fired[line].append(rule)
    rules = {r.name: r for r in rewrite.RULES}
    for r in reports:
        for rule in fired.get(r.site.line, ()):
            if r.site.name in rules[rule].mxnet:
                r.rewrite = rule
                break
    report = FileReport(path, len(source.splitlines()), reports,
                        [s for s in analysis.sites if s.kind == "import"
                         and s.framework == written_for])
    markers = markers_for(reports, direction) + [
        rewrite.Marker(g.line, g.rule, g.message, gotchas.by_name(g.rule).where,
                       f"{gotchas.by_name(g.rule).link}#{gotchas.by_name(g.rule).anchor}")
        for g in orphans if g.decision]
    report.draft = rewrite.draft(analysis, _dedupe(markers), target)
    if orphans:  # a finding on a line with no site of its own: keep it, on a site of its own
        for g in orphans:
            site = resolve.Site(path, g.line, 0, g.line, 0, g.site_name, "call", written_for,
                                "guessed", f"named by the {g.rule} detector", "")
            report.sites.append(SiteReport(site, list(_lookup(g.site_name, direction)), [g]))
        report.sites.sort(key=lambda r: (r.site.line, r.site.col))
    return report


def _python_files(root: Path) -> tuple[list[Path], int]:
    files, ignored = [], 0
    for folder, dirs, names_ in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith(".")
                         and not (Path(folder, d) / "pyvenv.cfg").exists())
        for n in sorted(names_):
            if n.endswith(".py"):
                files.append(Path(folder, n))
            else:
                ignored += 1
    return files, ignored


_ENCODINGS: dict[str, str] = {}  # str(path) -> the encoding _read decoded it with


def _read(path: Path) -> tuple[str | None, str | None]:
    """(source, None) or (None, why it is skipped); the encoding used is kept for the
    draft (:func:`encoding_of`)."""
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            return None, f"larger than {MAX_BYTES // 1_000_000} MB ({size:,} bytes): " \
                         "generated data, not a script"
        raw = path.read_bytes()
    except OSError as err:
        return None, f"cannot be read ({err.strerror or err})"
    if b"\0" in raw[:8192]:
        return None, "a binary file (it holds NUL bytes), not Python source"
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(raw).readline)  # PEP 263, BOM
    except SyntaxError as err:  # bytes that are not UTF-8, and no declaration saying what
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as bad:
            return None, f"not UTF-8 text (byte {bad.start}): not Python source (no other " \
                         "encoding is declared)"
        return None, f"its encoding declaration is not valid ({err})"
    try:
        source = raw.decode(encoding)
        _ENCODINGS[str(path)] = encoding
        return source, None
    except (UnicodeDecodeError, LookupError) as err:
        where = f" (byte {err.start})" if isinstance(err, UnicodeDecodeError) else ""
        return None, f"not {encoding} text{where}: not Python source (no other encoding " \
                     "is declared)"


def _classes_of(source: str, shown: str, written_for: str) -> dict[str, str]:
    try:
        return resolve.module_classes(resolve.analyse(source, shown, written_for), shown)
    except (SyntaxError, RecursionError, MemoryError, ValueError):
        return {}


def scan_sources(items, direction: str = "torch") -> list[FileReport]:
    """The reports of several files read together: ``items`` are ``(shown path, source or
    None, why it is skipped)``. A class one file defines on a framework base types what
    another file builds from it (``from data import FirstBatches``)."""
    written_for = DIRECTIONS[direction]
    local: dict[str, str] = {}
    if len(items) > 1:
        for shown, source, _ in items:
            if source is not None and "class " in source:
                local.update(_classes_of(source, shown, written_for))
    reports = []
    for shown, source, why in items:
        if source is None:
            reports.append(FileReport(shown, skipped=why))
            continue
        try:
            reports.append(scan_source(source, shown, direction, local))
        except SyntaxError as err:
            reports.append(FileReport(shown, len(source.splitlines()), skipped=(
                f"does not parse: {err.msg} (line {err.lineno})")))
        except (RecursionError, MemoryError, ValueError) as err:
            reports.append(FileReport(shown, skipped=f"cannot be analysed: "
                                                     f"{type(err).__name__}"))
    return reports


def scan(path: str | Path, direction: str = "torch") -> Report:
    """Scan a ``.py`` file or every ``.py`` file under a folder (hidden folders, virtual
    environments and caches skipped). A file that cannot be analysed (a syntax error,
    binary, not UTF-8) is kept in the report with the reason; the scan goes on. Raises
    :class:`ScanError` for a path that does not exist, a file that is not ``.py``, or a
    folder without one."""
    if direction not in DIRECTIONS:
        raise ScanError(f"--to must be one of {', '.join(sorted(DIRECTIONS))}, "
                        f"not {direction!r}")
    root = Path(path)
    start = time.perf_counter()
    if not root.exists():
        raise ScanError(f"{path}: no such file or folder")
    if root.is_dir():
        files, ignored = _python_files(root)
        if not files:
            raise ScanError(f"{path}: no .py files in this folder"
                            + (f" ({ignored} other files)" if ignored else " (it is empty)"))
    else:
        if root.suffix != ".py":
            raise ScanError(f"{path}: not a .py file (migrate reads Python scripts; for a "
                            "notebook, jupytext --to py first)")
        files, ignored = [root], 0
    items = []
    for f in files:
        shown = str(f.relative_to(root)) if root.is_dir() else str(f)
        source, why = _read(f)
        items.append((shown, source, why))
    reports = scan_sources(items, direction)
    for f, rep in zip(files, reports):
        rep.encoding = _ENCODINGS.pop(str(f), "utf-8")
    return Report(str(path), direction, reports, ignored, time.perf_counter() - start)


# -- rendering ---------------------------------------------------------------------------------

def _n(count: int, word: str) -> str:
    """``1 file``, ``2 files``."""
    return f"{count} {word}" + ("" if count == 1 else "s")


def _pct(rate):
    return "—" if rate is None else f"{100 * rate:.0f} %"


def _link(base: str, url: str) -> str:
    return f"{base}{url}" if url else ""


def _site_json(r: SiteReport, base: str, direction: str) -> dict:
    s, c = r.site, r.counterpart
    return {
        "line": s.line, "col": s.col, "construct": s.name, "kind": s.kind, "how": s.how,
        "reason": s.reason, "code": s.text,
        "counterpart": None if c is None else {
            "mxnet": c.mxnet, "torch": c.torch, "write": counterpart_text(c, direction), "tolerance": c.tolerance, "where": c.where,
            "url": _link(base, c.url), "origin": c.origin, "status": c.status},
        "gotchas": [{"rule": g.rule, "message": g.message, "decision": g.decision,
                     "where": gotchas.by_name(g.rule).where,
                     "url": _link(base, f"{gotchas.by_name(g.rule).link}#"
                                        f"{gotchas.by_name(g.rule).anchor}")}
                    for g in r.findings],
        "rewrite": r.rewrite}


def to_json(report: Report, base: str = "") -> str:
    data = {"tool": "sidebyside.migrate", "path": report.root, "to": report.direction,
            "summary": report.totals(),
            "read_first": [{"where": w, "url": _link(base, u), "sites": k}
                           for w, u, k in report.read_first()],
            "gotchas": dict(report.gotcha_counts().most_common()),
            "files": [{"path": f.path, "lines": f.lines, "skipped": f.skipped,
                       "constructs": f.found, "mapped": f.mapped, "rate": f.rate,
                       "rewritten": f.rewritten,
                       "sites": [_site_json(s, base, report.direction) for s in f.sites]}
                      for f in report.files]}
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def _side(direction):
    return ("MXNet", "PyTorch") if direction == "torch" else ("PyTorch", "Gluon")


_MD_LINK = re.compile(r"\[([^\]]*)\]\([^)\s]*\)")


def _plain_links(text: str) -> str:
    """``[notebook 7](07_hybridize_export.ipynb)`` as ``notebook 7``: for the terminal."""
    return _MD_LINK.sub(r"\1", text)


def _rebased(text: str, entry, base: str) -> str:
    """A table cell's links (relative to its notebook) made relative to the book's root, then
    prefixed with ``base``."""
    folder = posixpath.dirname(entry.link)
    folder = folder[len("notebooks/"):] if folder.startswith("notebooks/") else ""
    text = mappings.rebase_links(text, folder)
    return text.replace("](notebooks/", f"]({base}notebooks/") if base else text


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _code(text: str) -> str:
    text = _md_cell(text)
    return f"`{text}`" if text and "`" not in text else text


def to_markdown(report: Report, base: str = "", title: str | None = None) -> str:
    src, dst = _side(report.direction)
    t = report.totals()
    out = [f"# {title or f'Migration report: {report.root}'}", "",
           f"{src} → {dst}, by `python -m sidebyside.migrate` "
           f"(`--to {report.direction}`). Each counterpart is a row the collection executes; "
           "each gotcha is a detector whose behaviour a notebook section asserts.", "",
           "## Summary", "",
           "| files | lines | constructs | mapped | with gotchas | not in the map | "
           "rewritten in the draft | conversion rate |", "|---|---|---|---|---|---|---|---|",
           f"| {t['files']} | {t['lines']} | {t['constructs']} | {t['mapped']} | "
           f"{t['with_gotchas']} | {t['unmapped']} | {t['rewritten']} | {_pct(t['rate'])} |",
           ""]
    if len(report.analysed) > 1:
        out += ["| file | constructs | mapped | conversion rate |", "|---|---|---|---|"]
        out += [f"| `{f.path}` | {f.found} | {f.mapped} | {_pct(f.rate)} |"
                for f in report.analysed]
        out.append("")
    first = report.read_first()
    if first:
        out += ["Read first, for this code:", ""]
        out += [f"{i}. [{w}]({_link(base, u)}) ({k})" for i, (w, u, k) in
                enumerate(first, 1)]
        out.append("")
    if report.skipped:
        out += ["Skipped:", ""] + [f"- `{f.path}`: {f.skipped}" for f in report.skipped] + [""]
    for f in report.analysed:
        out += [f"## `{f.path}`", ""]
        if not f.sites:
            out += [f"No {src} constructs.", ""]
            continue
        out += [f"| line | {src} | {dst} (checked to) | gotchas | taught in |",
                "|---|---|---|---|---|"]
        for r in f.sites:
            s, c = r.site, r.counterpart
            what = _code(s.text or s.name)
            if s.how != "import":
                what += f" ({s.how}: {_md_cell(s.reason)})"
            if c:
                spelled = _rebased(counterpart_text(c, report.direction), c, base)
                there = f"{_code(spelled)} ({_md_cell(c.tolerance)})"
                if r.rewrite:
                    there += f"; draft: rewritten (`{r.rewrite}`)"
                taught = f"[{_md_cell(c.where)}]({_link(base, c.url)})"
            else:
                there, taught = f"**{NOT_IN_MAP}** (`{s.name}`)", ""
            bites = "<br>".join(
                f"[`{g.rule}`]({_link(base, gotchas.by_name(g.rule).link)}#"
                f"{gotchas.by_name(g.rule).anchor}): {_md_cell(g.message)}" for g in r.findings)
            out.append(f"| {s.line} | {what} | {there} | {bites} | {taught} |")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def to_text(report: Report, base: str = "") -> str:
    src, dst = _side(report.direction)
    out = []
    for f in report.files:
        if f.skipped:
            out.append(f"{f.path}: skipped: {f.skipped}")
            continue
        for r in f.sites:
            s, c = r.site, r.counterpart
            guess = f"  [{s.how}: {s.reason}]" if s.how != "import" else ""
            out.append(f"{f.path}:{s.line}: {s.name}{guess}")
            if c:
                done = f"  (draft: rewritten by {r.rewrite})" if r.rewrite else ""
                out.append(f"    {dst}: {_plain_links(counterpart_text(c, report.direction))}"
                           f"  [{c.tolerance}]{done}")
                out.append(f"    taught in {c.where}: {_link(base, c.url)}")
            else:
                out.append(f"    {NOT_IN_MAP}")
            for g in r.findings:
                d = gotchas.by_name(g.rule)
                out.append(f"    gotcha {g.rule}: {g.message}")
                out.append(f"      shown in {d.where}: {_link(base, d.link)}#{d.anchor}")
    t = report.totals()
    out += ["", f"{_n(t['files'], 'file')}, {_n(t['lines'], 'line')}, {t['constructs']} {src} "
                f"construct{'' if t['constructs'] == 1 else 's'}: "
                f"{t['mapped']} mapped, {t['with_gotchas']} with gotchas, {t['unmapped']} "
                f"{NOT_IN_MAP}, {t['rewritten']} rewritten in a draft; conversion rate "
                f"{_pct(t['rate'])}"]
    for f in report.analysed:
        if len(report.analysed) > 1:
            out.append(f"  {f.path}: {f.mapped}/{f.found} ({_pct(f.rate)})")
    if report.skipped:
        out.append(f"{len(report.skipped)} files skipped (reasons above)")
    if report.ignored:
        out.append(f"{report.ignored} files that are not .py ignored")
    first = report.read_first()
    if first:
        out.append("read first: " + "; ".join(f"{w} ({_link(base, u)})" for w, u, _ in first))
    out.append(f"scanned in {t['seconds']:.2f} s")
    return "\n".join(out) + "\n"


def render(report: Report, fmt: str = "text", base: str = "", title: str | None = None) -> str:
    """The report as ``"text"`` (the terminal's), ``"md"`` or ``"json"``. ``base`` prefixes
    every link (the links are relative to the book's root: ``notebooks/NN_topic.ipynb#…``)."""
    if fmt == "json":
        return to_json(report, base)
    if fmt == "md":
        return to_markdown(report, base, title)
    if fmt == "text":
        return to_text(report, base)
    raise ValueError(f"format must be text, md or json, not {fmt!r}")
