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
import dataclasses
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
from . import catalogue, gotchas, names, notebooks, resolve, rewrite

__all__ = ["DIRECTIONS", "ScanError", "SiteReport", "FileReport", "Report", "scan",
           "scan_source", "scan_sources", "rank", "counterpart_text", "markers_for", "render", "NOT_IN_MAP"]

#: --to: the framework a port goes to, and the one its scripts are written for
DIRECTIONS = {"torch": names.MXNET, "gluon": names.TORCH}
NOT_IN_MAP = "not in the map"
#: how a notebook's line numbers read (its code cells as one script, see :mod:`.notebooks`)
NOTEBOOK_LINES = ("a notebook's line numbers are those of its code cells as one script, each "
                  "cell after a line `# %% [migrate: cell K]` (K: the cell's index in the "
                  "notebook; `jupytext --to py:percent` reads alike); the draft (--write) is "
                  "the notebook again, each code cell drafted, outputs cleared")
#: folders a scan never enters
SKIP_DIRS = {".git", ".hg", ".svn", "__pycache__", "node_modules", "site-packages",
             ".ipynb_checkpoints", ".tox", ".mypy_cache", ".pytest_cache", "_build"}
MAX_BYTES = 5_000_000  # a .py file larger than this is generated data, not a script


#: what stops a port beyond one call: a kind → what to do about it
BLOCKERS = {
    "symbol-module": "the Symbol/Module API: translate the saved model with "
                     "`python -m sidebyside.mx2torch`, port the loop by hand (notebook 17)",
    "mxnet-library": "a library built on MXNet (GluonCV, GluonNLP, Horovod's or DALI's MXNet "
                     "plugin): its PyTorch counterpart is another library",
    "amp": "mixed precision through mx.contrib.amp: torch.autocast and GradScaler",
    "kvstore": "a kvstore (several devices or machines): DistributedDataParallel, which "
               "averages gradients where the parameter server sums them (notebook 9)",
}
#: top-level packages built on MXNet (an import of one is a blocker)
MXNET_LIBRARIES = {"gluoncv": "GluonCV", "gluonnlp": "GluonNLP", "gluonts": "GluonTS",
                   "autogluon": "AutoGluon", "horovod.mxnet": "Horovod (MXNet)",
                   "nvidia.dali.plugin.mxnet": "DALI (MXNet plugin)", "d2l.mxnet": "d2l (MXNet)",
                   "insightface": "InsightFace", "mxboard": "MXBoard", "sockeye": "Sockeye",
                   "keras_mxnet": "Keras-MXNet"}


def _blockers(analysis, sites) -> list[tuple[int, str, str]]:
    out = []
    for node in analysis.nodes():
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            mods = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""]
            for mod in mods:
                for lib, label in MXNET_LIBRARIES.items():
                    if mod == lib or mod.startswith(lib + "."):
                        out.append((node.lineno, "mxnet-library", label))
    for s in sites:
        name = s.site.name
        if name.startswith(("mx.sym.", "mx.symbol.", "mx.mod.", "mx.module.", "mx.model.")):
            out.append((s.site.line, "symbol-module", name))
        elif name.startswith(("mx.contrib.amp", "mx.amp")):
            out.append((s.site.line, "amp", name))
        elif s.rewrite is not None:
            continue   # the draft carries it (a kvstore of one process, split_and_load)
        elif name.startswith(("mx.kv.", "mx.kvstore.")) or name == "mx.gluon.utils.split_and_load":
            out.append((s.site.line, "kvstore", name))
    return sorted(set(out))


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
        written = "".join(self.site.text.split())
        if not written:
            return False
        # the same method with the same arguments, on the object the site calls it on
        # (fake.detach() is tensor.detach(), the catalogue's entry checked the same)
        same = re.fullmatch(r"(?:tensor|x|metric)(\.\w+(?:\(\))?)", plain)
        if c.status == "same" and same and same.group(1).split("(")[0] == "." + self.site.tail \
                and self.site.kind in ("method", "attribute") and written.endswith(same.group(1)):
            return True
        return plain == written

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
    #: a notebook's own JSON text (its code cells were scanned as one script, see
    #: :mod:`.notebooks`), else None
    notebook: str | None = None
    #: the lines that use the source framework, by what the draft did with them (see
    #: :func:`line_status`): "converted", "decision", "no counterpart"
    line_status: dict[int, str] = field(default_factory=dict)
    #: what a draft cannot carry alone: (line, kind, what), kinds in :data:`BLOCKERS`
    blockers: list[tuple[int, str, str]] = field(default_factory=list)
    #: the scanned text (a notebook's: its code cells as one script)
    source: str = field(default="", repr=False)
    #: with ``--prove``: each block the draft made a module, proven or not (:mod:`.prove`)
    proofs: list | None = None

    def lines_by_status(self) -> dict[str, int]:
        counts = collections.Counter(self.line_status.values())
        return {k: counts.get(k, 0) for k in ("converted", "decision", "no counterpart")}

    @property
    def line_rate(self) -> float | None:
        """PaConvert's conversion rate: the lines that use the source framework which the
        draft converted, as a share of all such lines."""
        n = len(self.line_status)
        return self.lines_by_status()["converted"] / n if n else None

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
        """The share of sites with an executed counterpart (not the conversion rate: that is
        :attr:`line_rate`)."""
        return self.mapped / self.found if self.found else None


@dataclass
class Report:
    """A whole scan."""

    root: str
    direction: str                  # "torch" or "gluon" (the --to)
    files: list[FileReport]
    ignored: int = 0                # files that are not .py or .ipynb in the scanned folders
    seconds: float = 0.0

    @property
    def analysed(self) -> list[FileReport]:
        return [f for f in self.files if f.skipped is None]

    @property
    def skipped(self) -> list[FileReport]:
        return [f for f in self.files if f.skipped is not None]

    def notebooks(self) -> list[FileReport]:
        """The notebooks (.ipynb) analysed."""
        return [f for f in self.analysed if f.notebook is not None]

    def proved(self) -> bool:
        """Whether the blocks were proven (``--prove``)."""
        return any(f.proofs is not None for f in self.analysed)

    def proof_sentence(self) -> str:
        proofs = [p for f in self.analysed for p in (f.proofs or [])]
        c = collections.Counter(p.status for p in proofs)
        return (f"Blocks proven in float64 against Gluon: {c['proven']} of the {len(proofs)} "
                f"block classes the drafts made modules ({c['differs']} differ, "
                f"{c['not built']} not built; each file says which and why).")

    def totals(self) -> dict:
        files = self.analysed
        found = sum(f.found for f in files)
        mapped = sum(f.mapped for f in files)
        by = collections.Counter()
        for f in files:
            by.update(f.lines_by_status())
        used = sum(len(f.line_status) for f in files)
        return {"files": len(files), "lines": sum(f.lines for f in files),
                "constructs": found, "mapped": mapped,
                "with_gotchas": sum(f.with_gotchas for f in files),
                "unmapped": found - mapped, "rewritten": sum(f.rewritten for f in files),
                "lines_using": used, "lines_converted": by["converted"],
                "lines_decision": by["decision"], "lines_no_counterpart": by["no counterpart"],
                "rate": by["converted"] / used if used else None,
                "mapped_rate": mapped / found if found else None,
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

    def blocker_counts(self) -> dict[str, collections.Counter]:
        """Each blocker kind: what, and at how many places."""
        out: dict[str, collections.Counter] = {}
        for f in self.analysed:
            for _, kind, what in f.blockers:
                out.setdefault(kind, collections.Counter())[what] += 1
        return out

    def no_counterpart_names(self) -> collections.Counter:
        """The constructs with no counterpart (not in the map, or a recipe), most used first."""
        return collections.Counter(
            s.site.name for f in self.analysed for s in f.sites if s.rewrite is None
            and (not s.mapped or s.counterpart.status == "no counterpart"))

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
                local_classes: dict[str, str] | None = None,
                mode_free: frozenset[str] = frozenset(), scope_group: bool = False,
                analysis: resolve.Analysis | None = None) -> FileReport:
    """One file's report, from its source text (``local_classes``: see
    :func:`resolve.analyse`; ``mode_free``: the modules it imports, as it spells them, that
    hold no layer acting differently in training; ``scope_group``: the file follows Gluon's
    training scope with others of the scan, see :func:`_scope_group`; ``analysis``: the
    file's analysis, if the caller has it and it used no local class). Raises
    ``SyntaxError`` for code that does not parse."""
    if direction not in DIRECTIONS:
        raise ValueError(f"direction must be one of {sorted(DIRECTIONS)}, not {direction!r}")
    written_for = DIRECTIONS[direction]
    if analysis is None:
        analysis = resolve.analyse(source, path, written_for, local_classes)
    analysis.mode_free_modules = mode_free
    analysis.scope_group = scope_group
    found = gotchas.detect_all(analysis, direction)
    sites = [s for s in analysis.sites if s.framework == written_for and s.kind != "import"]
    if not any(s.kind == "import" and s.framework == written_for for s in analysis.sites) \
            and not any(names.framework_of(b) == written_for
                        for b in analysis.block_classes.values()):
        sites = [s for s in sites if s.how != "guessed"]   # no import of it: only guesses
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
    _, rewritten, consumed = rewrite.plan(analysis) if target == "torch" else ((), (), ())
    fired = collections.defaultdict(list)
    for line, rule in sorted(rewritten):
        fired[line].append(rule)
    rules = {r.name: r for r in rewrite.RULES}
    taken = {(line, col): rule for line, col, rule in consumed}
    for r in reports:
        for rule in fired.get(r.site.line, ()):
            if r.site.name in rules[rule].mxnet:
                r.rewrite = rule
                break
        else:   # rewritten as part of another construct's rewrite
            r.rewrite = taken.get((r.site.line, r.site.col))
    for r in reports:  # a gotcha the rewrite settles is reported, no longer a decision
        settled = rewrite.RULE_RESOLVES.get(r.rewrite or "", ())
        r.findings = [dataclasses.replace(g, decision=False, message=(
            f"{g.message} — handled by the draft ({r.rewrite})")) if g.rule in settled
            else g for g in r.findings]
    report = FileReport(path, len(source.splitlines()), reports,
                        [s for s in analysis.sites if s.kind == "import"
                         and s.framework == written_for], source=source)
    markers = markers_for(reports, direction) + [
        rewrite.Marker(g.line, g.rule, g.message, gotchas.by_name(g.rule).where,
                       f"{gotchas.by_name(g.rule).link}#{gotchas.by_name(g.rule).anchor}")
        for g in orphans if g.decision]
    report.draft = rewrite.draft(analysis, _dedupe(markers), target)
    report.line_status = line_status(report, direction)
    if direction == "torch":
        report.blockers = _blockers(analysis, reports)
    if orphans:  # a finding on a line with no site of its own: keep it, on a site of its own
        for g in orphans:
            site = resolve.Site(path, g.line, 0, g.line, 0, g.site_name, "call", written_for,
                                "guessed", f"named by the {g.rule} detector", "")
            report.sites.append(SiteReport(site, list(_lookup(g.site_name, direction)), [g]))
        report.sites.sort(key=lambda r: (r.site.line, r.site.col))
    return report


_FRAMEWORK_IMPORT = {"torch": re.compile(r"^\s*(import|from)\s+mxnet\b"),
                     "gluon": re.compile(r"^\s*(import|from)\s+(torch|torchvision)\b")}


def line_status(report: FileReport, direction: str = "torch") -> dict[int, str]:
    """Each line of the file that uses the source framework, by what the draft did with it:
    ``"converted"`` (every construct on it rewritten, or spelled as its counterpart already,
    and no gotcha there asking for a decision; an import line, when the draft no longer has
    it), ``"no counterpart"`` (a construct on it has none: not in the map, or an entry whose
    PyTorch side is a recipe), else ``"decision"`` (a counterpart exists, the port is a
    choice the draft marks)."""
    out: dict[int, str] = {}
    kept = {line.strip() for line in (report.draft.source if report.draft else "").splitlines()
            if _FRAMEWORK_IMPORT[direction].match(line)}
    for imp in report.imports:
        text = imp.text.strip()
        out[imp.line] = "decision" if text in kept or not text else "converted"
    by_line: dict[int, list[SiteReport]] = collections.defaultdict(list)
    for s in report.sites:
        by_line[s.site.line].append(s)
    for line, sites in by_line.items():
        if any(not s.mapped or s.counterpart.status == "no counterpart" for s in sites
               if s.rewrite is None):
            out[line] = "no counterpart"
        elif all((s.rewrite is not None or s.same_spelling(direction))
                 and not any(g.decision for g in s.findings) for s in sites):
            out[line] = "converted"
        else:
            out[line] = "decision"
    return dict(sorted(out.items()))


def _python_files(root: Path) -> tuple[list[Path], int]:
    files, ignored = [], 0
    for folder, dirs, names_ in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith(".")
                         and not (Path(folder, d) / "pyvenv.cfg").exists())
        for n in sorted(names_):
            if n.endswith((".py", ".ipynb")):
                files.append(Path(folder, n))
            else:
                ignored += 1
    return files, ignored


_ENCODINGS: dict[str, str] = {}  # str(path) -> the encoding _read decoded it with
_NOTEBOOKS: dict[str, str] = {}  # str(path) -> a notebook's JSON text (_read gave its script)


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
        if path.suffix == ".ipynb":
            try:
                script = notebooks.script_of(source)
            except notebooks.NotANotebook as err:
                return None, f"a .ipynb file that is {err}"
            _NOTEBOOKS[str(path)] = source
            return script, None
        return source, None
    except (UnicodeDecodeError, LookupError) as err:
        where = f" (byte {err.start})" if isinstance(err, UnicodeDecodeError) else ""
        return None, f"not {encoding} text{where}: not Python source (no other encoding " \
                     "is declared)"


def _first_analysis(source: str, shown: str, written_for: str):
    """The file analysed alone (None if it cannot be): what it offers the others."""
    try:
        return resolve.analyse(source, shown, written_for)
    except (SyntaxError, RecursionError, MemoryError, ValueError):
        return None


def _uses_local(analysis, local: dict[str, str]) -> bool:
    """Whether a file imports from the scan a module, class or function that ``local``
    (:func:`resolve.module_classes`' answers) knows: analysed alone, it missed them."""
    if not local:
        return False
    mods = set()
    for node in analysis.nodes():
        if isinstance(node, ast.Import):
            mods.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            mods.add(node.module)
            mods.update(f"{node.module}.{a.name}" for a in node.names)
    prefixes = {k.rsplit(".", 1)[0] for k in local} | {k.removesuffix("()") for k in local}
    return bool(mods & prefixes)


#: what Python 3's parser says of Python 2's print statement, except clause, exec and octals
_PYTHON2 = ("Missing parentheses in call to 'print'", "Missing parentheses in call to 'exec'",
            "multiple exception types must be parenthesized",
            "leading zeros in decimal integer literals are not permitted")


#: a word that may mark a module's layer as acting one way in training and another in
#: prediction, or an API the scope rules leave alone (a module holding none is mode-free)
_MODE_TEXT = re.compile(r"Dropout|BatchNorm|InstanceNorm|train_mode|predict_mode|is_training"
                        r"|set_training|model_zoo|SymbolBlock|\b(?:rnn|sym|symbol|mod|Module)\b")


def _module_imports(source: str) -> tuple[list[tuple[int, str, tuple[str, ...]]],
                                           list[str]] | None:
    """Each import of a module: (level, module, names imported from it); and the relative
    folders the file puts on ``sys.path`` (``sys.path.append('../')``: string literals, read
    from the script's folder, where it is meant to run). None if the source does not
    parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    out, dirs = [], []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(0, a.name, ()) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            out.append((node.level, node.module or "", tuple(a.name for a in node.names)))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("append", "insert") and node.args \
                and ast.unparse(node.func.value) == "sys.path":
            folder = node.args[-1]
            if isinstance(folder, ast.Constant) and isinstance(folder.value, str) \
                    and folder.value and not posixpath.isabs(folder.value):
                dirs.append(folder.value)
    return out, dirs


def _local_targets(shown: str, level: int, module: str, names, files: set[str],
                   extra: list[str] = ()) -> list[str]:
    """The scanned files an import can mean: the module and each name as a submodule, found
    beside the importing file (the script's folder is first on sys.path), in the package a
    relative import names, in a relative folder the file adds to sys.path (``extra``), or
    from the scan's root: those of the first of these folders that has any, as Python's
    import takes the first."""
    here = posixpath.dirname(shown.replace(os.sep, "/"))
    if level:
        for _ in range(level - 1):
            here = posixpath.dirname(here)
        bases = [here]
    else:
        bases = [here, ""] if here else [""]
        for folder in extra:
            base = posixpath.normpath(posixpath.join(here, folder.replace("\\", "/")))
            if not base.startswith(".."):
                bases.append("" if base == "." else base)
    parts = [p for p in module.split(".") if p]
    for base in bases:   # in sys.path's order: the first folder that has it is the one
        found = []
        for tail in [parts] + [parts + [n] for n in names if n != "*"]:
            if not tail:
                continue
            stem = posixpath.join(base, *tail)
            found += [c for c in (stem + ".py", posixpath.join(stem, "__init__.py"))
                      if c in files]
        if found:
            return found
    return []


def _import_targets(items):
    """(sources, imports, targets) of the scan's ``.py`` files, by their shown path: each
    file's imports (:func:`_module_imports`) and, for each, (module, the scan's files it
    can mean)."""
    sources = {s.replace(os.sep, "/"): src for s, src, _ in items
               if src is not None and s.endswith(".py")}
    files = set(sources)
    parsed = {s: _module_imports(src) for s, src in sources.items()}
    imports = {s: p[0] for s, p in parsed.items() if p is not None}
    targets = {s: [(mod, _local_targets(s, lvl, mod, names, files, parsed[s][1]))
                   for lvl, mod, names in imps]
               for s, imps in imports.items()}
    return sources, imports, targets


def _scope_group(items, reports, parsed=None) -> set[str]:
    """The files of the scan whose drafts follow Gluon's training scope together: the files
    that set it (``record()``, ``train_mode()``, ``predict_mode()``) and every file of the
    scan they import, in turn, when each of those is *own* (it uses no Symbol, Module or
    model-zoo API, nothing of mx.gluon.rnn but its LSTM, GRU and RNN layers, and imports, beyond the scan's files, only modules that hold no MXNet
    model) and is imported only by own files: the layers the scopes reach are then all in
    files whose drafts read the one flag (:class:`~.draft_helpers.GluonMode`), and no file
    outside drives them with a ``.train()`` that they would not follow."""
    _, _, targets = parsed or _import_targets(items)
    by_path = {r.path.replace(os.sep, "/"): r for r in reports}
    names = {p: {s.site.name for s in r.sites} for p, r in by_path.items()
             if r.skipped is None and p in targets}
    own = {p for p, ns in names.items()
           if not any(rewrite.other_api(n) for n in ns)
           and all(found or rewrite.holds_no_model(mod) for mod, found in targets[p])}
    importers: dict[str, set[str]] = collections.defaultdict(set)
    for p, imps in targets.items():
        for _, found in imps:
            for t in found:
                importers[t].add(p)

    def reach(p):
        seen, todo = set(), [p]
        while todo:
            q = todo.pop()
            if q not in seen:
                seen.add(q)
                todo += [t for _, found in targets.get(q, ()) for t in found]
        return seen

    group = set()
    for p in own:
        if names[p] & rewrite._SCOPES_SET:
            closure = reach(p)
            if len(closure) > 1 and closure <= own \
                    and all(importers[q] <= own for q in closure):
                group |= closure
    return group


def _mode_free_imports(items, parsed=None) -> dict[str, frozenset[str]]:
    """For each scanned file, the modules it imports (as it spells them) that are files of
    the scan holding no layer that acts differently in training (:data:`_MODE_TEXT`) and
    importing, in turn, only such files or modules that hold no MXNet model (``parsed``:
    :func:`_import_targets`' answer, if the caller has it)."""
    sources, imports, targets = parsed or _import_targets(items)

    safe: set[str] = set()
    changed = True
    while changed:   # a fixed point: a file is safe once everything it imports is
        changed = False
        for s, imps in targets.items():
            if s in safe or _MODE_TEXT.search(sources[s]):
                continue
            if all(found and all(t in safe or t == s for t in found) or
                   (not found and rewrite.holds_no_model(mod)) for mod, found in imps):
                safe.add(s)
                changed = True
    out = {}
    for s, imps in targets.items():
        ok = {("." * lvl) + mod for (lvl, mod, _), (_, found) in zip(imports[s], imps)
              if found and all(t in safe for t in found)}
        if ok:
            out[s] = frozenset(ok)
    return out


def scan_sources(items, direction: str = "torch", progress=None) -> list[FileReport]:
    """The reports of several files read together: ``items`` are ``(shown path, source or
    None, why it is skipped)``. A class one file defines on a framework base types what
    another file builds from it (``from data import FirstBatches``); a module of the scan
    that holds no layer acting differently in training does not keep a file that imports it
    from following Gluon's training scope (:func:`_mode_free_imports`); a training script
    and the model files it imports follow that scope together (:func:`_scope_group`: drafted
    again, in the group)."""
    written_for = DIRECTIONS[direction]
    local: dict[str, str] = {}
    quiet: dict[str, frozenset[str]] = {}
    parsed = None
    first: dict[str, object] = {}
    passes = 2 if len(items) > 1 else 1
    total, done = passes * len(items), 0

    def step():
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total)
    if len(items) > 1:
        for shown, source, _ in items:
            step()
            if source is not None and ("class " in source or "return " in source):
                first[shown] = _first_analysis(source, shown, written_for)
                if first[shown] is not None:
                    local.update(resolve.module_classes(first[shown], shown))
                    local.update({f"{m}.{c}:own-batches": "mx.io.DataIter"   # its drafts'
                                  for c in rewrite._own_iterators(first[shown])  # batches
                                  for m in resolve.module_name(shown)})
                    local.update({f"{m}.{f}():own-iterators": shape   # and the functions
                                  for f, shape in rewrite._iterator_factories(   # returning
                                      first[shown]).items()                      # them
                                  for m in resolve.module_name(shown)})
        if direction == "torch":
            parsed = _import_targets(items)
            quiet = _mode_free_imports(items, parsed)
    reports = []
    for shown, source, why in items:
        step()
        if source is None:
            reports.append(FileReport(shown, skipped=why))
            continue
        alone = first.get(shown)   # analysed alone already, and nothing of the scan it uses
        try:
            reports.append(scan_source(source, shown, direction, local,
                                       quiet.get(shown.replace(os.sep, "/"), frozenset()),
                                       analysis=alone if alone is not None
                                       and not _uses_local(alone, local) else None))
        except SyntaxError as err:
            py2 = any(k in (err.msg or "") for k in _PYTHON2)
            reports.append(FileReport(shown, len(source.splitlines()), skipped=(
                f"Python 2 source ({err.msg}, line {err.lineno}): port it to Python 3 first "
                "(2to3 or by hand), then scan it" if py2 else
                f"does not parse: {err.msg} (line {err.lineno})")))
        except (RecursionError, MemoryError, ValueError) as err:
            reports.append(FileReport(shown, skipped=f"cannot be analysed: "
                                                     f"{type(err).__name__}"))
    if direction == "torch" and len(items) > 1:
        group = _scope_group(items, reports, parsed)
        for i, (shown, source, _) in enumerate(items):   # drafted again, in the group
            if shown.replace(os.sep, "/") in group:
                reports[i] = scan_source(source, shown, direction, local,
                                         quiet.get(shown.replace(os.sep, "/"), frozenset()),
                                         scope_group=True)
    return reports


def scan(path: str | Path, direction: str = "torch", progress=None) -> Report:
    """Scan a ``.py`` file or every ``.py`` file under a folder (hidden folders, virtual
    environments and caches skipped). A file that cannot be analysed (a syntax error,
    binary, not UTF-8) is kept in the report with the reason; the scan goes on. Raises
    :class:`ScanError` for a path that does not exist, a file that is not ``.py``, or a
    folder without one. ``progress(done, total)``: called as files are analysed (twice over
    for a folder: a first pass learns its classes)."""
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
            raise ScanError(f"{path}: no .py or .ipynb files in this folder"
                            + (f" ({ignored} other files)" if ignored else " (it is empty)"))
    else:
        if root.suffix not in (".py", ".ipynb"):
            raise ScanError(f"{path}: not a .py file or a notebook (.ipynb): migrate reads "
                            "Python scripts and Jupyter notebooks")
        files, ignored = [root], 0
    items = []
    for f in files:
        shown = str(f.relative_to(root)) if root.is_dir() else str(f)
        source, why = _read(f)
        items.append((shown, source, why))
    reports = scan_sources(items, direction, progress)
    for f, rep in zip(files, reports):
        rep.encoding = _ENCODINGS.pop(str(f), "utf-8")
        rep.notebook = _NOTEBOOKS.pop(str(f), None)
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


#: the JSON report's layout; raised when a field changes meaning or goes
SCHEMA_VERSION = 2


def _planning(report: Report, n: int = 10) -> dict:
    return {
        "no_counterpart": dict(report.no_counterpart_names().most_common(n)),
        "blockers": {kind: {"what": BLOCKERS[kind], "uses": dict(c.most_common())}
                     for kind, c in report.blocker_counts().items()},
        "effort": [{"path": f.path, "lines_using": len(f.line_status),
                    **{k.replace(" ", "_"): v for k, v in f.lines_by_status().items()},
                    "blockers": len(f.blockers)}
                   for f in sorted(report.analysed, key=_effort, reverse=True)
                   if f.line_status],
    }


def _effort(f: FileReport):
    by = f.lines_by_status()
    return (len(f.blockers), by["no counterpart"], by["decision"])


def to_json(report: Report, base: str = "") -> str:
    data = {"tool": "sidebyside.migrate", "schema_version": SCHEMA_VERSION,
            "path": report.root, "to": report.direction,
            "summary": report.totals(),
            "read_first": [{"where": w, "url": _link(base, u), "sites": k}
                           for w, u, k in report.read_first()],
            "gotchas": dict(report.gotcha_counts().most_common()),
            "planning": _planning(report),
            "files": [{"path": f.path, "notebook": f.notebook is not None,
                       "lines": f.lines, "skipped": f.skipped,
                       "constructs": f.found, "mapped": f.mapped, "rate": f.line_rate,
                       "mapped_rate": f.rate, "rewritten": f.rewritten,
                       "line_status": {str(k): v for k, v in f.line_status.items()},
                       "blockers": [{"line": ln, "kind": k, "what": w}
                                    for ln, k, w in f.blockers],
                       **({"proofs": [dataclasses.asdict(p) for p in f.proofs]}
                          if f.proofs is not None else {}),
                       "sites": [_site_json(s, base, report.direction) for s in f.sites]}
                      for f in report.files]}
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def to_sarif(report: Report, base: str = "") -> str:
    """SARIF 2.1.0, one run: a result per site that the draft leaves to a person (level
    ``error`` for no counterpart, ``warning`` for a decision) and per gotcha (``warning`` where
    it needs a decision, else ``note``); rules: ``port``, ``not-in-map`` and each detector."""
    from .. import __version__

    rules: dict[str, dict] = {
        "port": {"id": "port", "shortDescription": {"text": "A construct the draft leaves to "
                                                             "a person: port it by hand"}},
        "not-in-map": {"id": "not-in-map", "shortDescription": {
            "text": "A construct with no checked counterpart"}},
    }
    results = []

    root = Path(report.root)
    base = (root if root.is_dir() else root.parent).resolve()

    def location(path, line, col):
        # a folder's files are named relative to it; a file scanned alone by its own name,
        # both relative to SRCROOT (the folder, or the file's own folder)
        rel = path if root.is_dir() else Path(path).resolve().relative_to(base).as_posix()
        return [{"physicalLocation": {"artifactLocation": {"uri": rel.replace(os.sep, "/"),
                                                           "uriBaseId": "SRCROOT"},
                                      "region": {"startLine": line, "startColumn": col + 1}}}]

    for f in report.analysed:
        for r in f.sites:
            s, c = r.site, r.counterpart
            if r.rewrite is None and not r.same_spelling(report.direction):
                if c is None or c.status == "no counterpart":
                    text = f"{s.name}: {NOT_IN_MAP}" if c is None else \
                        f"{s.name}: no counterpart; {_plain_links(counterpart_text(c, report.direction))}"
                    results.append({"ruleId": "not-in-map", "level": "error",
                                    "message": {"text": text},
                                    "locations": location(f.path, s.line, s.col)})
                else:
                    results.append({"ruleId": "port", "level": "warning", "message": {
                        "text": f"{s.name} → {_plain_links(counterpart_text(c, report.direction))}"
                                f" ({c.tolerance}; {c.where})"},
                        "locations": location(f.path, s.line, s.col)})
            for g in r.findings:
                d = gotchas.by_name(g.rule)
                rules.setdefault(g.rule, {"id": g.rule, "shortDescription": {"text": d.title},
                                          "helpUri": _link(base, f"{d.link}#{d.anchor}")})
                results.append({"ruleId": g.rule, "level": "warning" if g.decision else "note",
                                "message": {"text": g.message},
                                "locations": location(f.path, g.line, 0)})
    log = {"$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0",
           "runs": [{"tool": {"driver": {"name": "sidebyside.migrate", "version": __version__,
                                         "rules": list(rules.values())}},
                     "originalUriBaseIds": {"SRCROOT": {"uri": base.as_uri() + "/"}},
                     "results": results}]}
    return json.dumps(log, indent=1, ensure_ascii=False) + "\n"


def _side(direction):
    return ("MXNet", "PyTorch") if direction == "torch" else ("PyTorch", "Gluon")


#: a Markdown link to a page (not code such as ``TABLE[name](args)``)
_MD_LINK = re.compile(r"\[([^\]]*)\]\((?=[^()\s]*(?:\.ipynb|\.md|\.html|#|://))[^()\s]*\)")


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


def _helper_note(rule: str) -> str:
    """``, with the draft's helper GluonAccuracy`` for a rule whose rewrite calls a helper
    the draft carries (its PyTorch side is then that helper, not the entry shown)."""
    helpers = rewrite.RULE_HELPERS.get(rule, ())
    return f", with the draft's helper {', '.join(helpers)}" if helpers else ""


def _lines_sentence(t: dict, src: str) -> str:
    return (f"{t['lines_using']} lines use {src}: {t['lines_converted']} converted in the draft, "
            f"{t['lines_decision']} need a decision, {t['lines_no_counterpart']} have no "
            f"counterpart; conversion rate {_pct(t['rate'])}")


def _gotchas_by_rule(f: FileReport) -> list[tuple[str, list[int], list[str], bool]]:
    """Each gotcha of a file once: (rule, its lines, its distinct messages, a decision?)."""
    seen: dict[str, tuple[list[int], list[str], list[bool]]] = {}
    for s in f.sites:
        for g in s.findings:
            lines, messages, decisions = seen.setdefault(g.rule, ([], [], []))
            if g.line not in lines:
                lines.append(g.line)
            if g.message not in messages:
                messages.append(g.message)
            decisions.append(g.decision)
    return [(rule, lines, messages, any(d)) for rule, (lines, messages, d) in seen.items()]


def to_markdown(report: Report, base: str = "", title: str | None = None) -> str:
    src, dst = _side(report.direction)
    t = report.totals()
    out = [f"# {title or f'Migration report: {report.root}'}", "",
           f"{src} → {dst}, by `python -m sidebyside.migrate` "
           f"(`--to {report.direction}`). Each counterpart is an entry the collection "
           "executes; each gotcha is a detector whose behaviour a notebook section asserts. "
           "The conversion rate counts lines, as PaConvert does: the lines that use "
           f"{src} which the draft converts, of all such lines.", "",
           "## Summary", "",
           f"| files | lines | lines using {src} | converted | need a decision | no counterpart "
           "| conversion rate | constructs | mapped | with gotchas |",
           "|---|---|---|---|---|---|---|---|---|---|",
           f"| {t['files']} | {t['lines']} | {t['lines_using']} | {t['lines_converted']} | "
           f"{t['lines_decision']} | {t['lines_no_counterpart']} | {_pct(t['rate'])} | "
           f"{t['constructs']} | {t['mapped']} | {t['with_gotchas']} |", ""]
    if report.notebooks():
        out += [NOTEBOOK_LINES, ""]
    if report.proved():
        out += [report.proof_sentence(), ""]
    if len(report.analysed) > 1:
        out += [f"| file | lines using {src} | converted | need a decision | no counterpart | "
                "gotchas | blockers | conversion rate |", "|---|---|---|---|---|---|---|---|"]
        for f in report.analysed:
            by = f.lines_by_status()
            out.append(f"| `{f.path}` | {len(f.line_status)} | {by['converted']} | "
                       f"{by['decision']} | {by['no counterpart']} | {f.with_gotchas} | "
                       f"{len(f.blockers)} | {_pct(f.line_rate)} |")
        out.append("")
    plan = _planning(report)
    if plan["blockers"] or plan["no_counterpart"] or plan["effort"]:
        out += ["## Planning", ""]
        left = [e for e in plan["effort"] if e["decision"] or e["no_counterpart"] or
                e["blockers"]]
        if left:
            out.append(
                f"- **Work left by hand**: {t['lines_decision']} lines to decide and "
                f"{t['lines_no_counterpart']} without a counterpart, in {len(left)} of "
                f"{len(plan['effort'])} files; the most first: " + ", ".join(
                    f"`{e['path']}` ({e['decision']} to decide, {e['no_counterpart']} "
                    f"without, {e['blockers']} blocker{'' if e['blockers'] == 1 else 's'})"
                    for e in left[:5]) + ".")
        for kind, info in plan["blockers"].items():
            uses = ", ".join(f"`{w}` ({k})" for w, k in info["uses"].items())
            out.append(f"- **Blocker, {kind}**: {_md_cell(info['what'])}. Here: {uses}.")
        if plan["no_counterpart"]:
            out.append("- **No counterpart**, most used first: " + ", ".join(
                f"`{n}` ({k})" for n, k in plan["no_counterpart"].items()) + ".")
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
                    there += f"; draft: rewritten (`{r.rewrite}`{_helper_note(r.rewrite)})"
                taught = f"[{_md_cell(c.where)}]({_link(base, c.url)})"
            else:
                there, taught = f"**{NOT_IN_MAP}** (`{s.name}`)", ""
            bites = ", ".join(
                f"[`{g.rule}`]({_link(base, gotchas.by_name(g.rule).link)}#"
                f"{gotchas.by_name(g.rule).anchor})" for g in r.findings)
            out.append(f"| {s.line} | {what} | {there} | {bites} | {taught} |")
        out.append("")
        out += _proof_lines(f, "- ")
        found = _gotchas_by_rule(f)
        if found:
            out += ["Gotchas in this file, each once:", ""]
            for rule, lines, messages, decision in found:
                d = gotchas.by_name(rule)
                where = ", ".join(map(str, lines))
                said = _md_cell(messages[0]) + (
                    f" (and {len(messages) - 1} other wording{'s' if len(messages) > 2 else ''}"
                    " at the other lines)" if len(messages) > 1 else "")
                out.append(f"- [`{rule}`]({_link(base, d.link)}#{d.anchor}), line"
                           f"{'s' if len(lines) > 1 else ''} {where}"
                           f"{' (a decision)' if decision else ''}: {said}")
            out.append("")
    return "\n".join(out).rstrip() + "\n"


def _proof_lines(f: FileReport, bullet: str) -> list[str]:
    """With ``--prove``: a line per block the draft made a module (none without it)."""
    if f.proofs is None:
        return []
    if not f.proofs:
        return [f"{bullet}No block proven: the draft turned no Gluon block class into a "
                "module.", ""] if bullet == "- " else []
    out = ["Blocks proven (Gluon vs the draft, float64, weights copied in order):", ""] \
        if bullet == "- " else []
    for p in f.proofs:
        shape = f" on an input of shape {tuple(p.input_shape)}" if p.input_shape else ""
        out.append(f"{bullet}{p.block}{p.args}: {p.status}{shape}: {p.detail}")
    return out + ([""] if bullet == "- " else [])


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
                done = f"  (draft: rewritten by {r.rewrite}{_helper_note(r.rewrite)})" \
                    if r.rewrite else ""
                out.append(f"    {dst}: {_plain_links(counterpart_text(c, report.direction))}"
                           f"  [{c.tolerance}]{done}")
                out.append(f"    taught in {c.where}: {_link(base, c.url)}")
            else:
                out.append(f"    {NOT_IN_MAP}")
            for g in r.findings:
                d = gotchas.by_name(g.rule)
                out.append(f"    gotcha {g.rule}: {g.message}")
                out.append(f"      shown in {d.where}: {_link(base, d.link)}#{d.anchor}")
        out += _proof_lines(f, f"{f.path}: block ")
    t = report.totals()
    out += ["", f"{_n(t['files'], 'file')}, {_n(t['lines'], 'line')}, {t['constructs']} {src} "
                f"construct{'' if t['constructs'] == 1 else 's'}: "
                f"{t['mapped']} mapped, {t['with_gotchas']} with gotchas, {t['unmapped']} "
                f"{NOT_IN_MAP}, {t['rewritten']} rewritten in a draft",
            _lines_sentence(t, src)]
    for f in report.analysed:
        if len(report.analysed) > 1 and f.line_status:
            by = f.lines_by_status()
            out.append(f"  {f.path}: {by['converted']}/{len(f.line_status)} lines converted "
                       f"({_pct(f.line_rate)}), {by['decision']} to decide, "
                       f"{by['no counterpart']} without counterpart")
    for kind, c in report.blocker_counts().items():
        out.append(f"blocker, {kind}: " + ", ".join(f"{w} ({k})" for w, k in c.most_common())
                   + f" — {BLOCKERS[kind]}")
    missing = report.no_counterpart_names().most_common(10)
    if missing:
        out.append("no counterpart, most used first: " + ", ".join(
            f"{n} ({k})" for n, k in missing))
    if report.proved():
        out.append(report.proof_sentence())
    if report.skipped:
        out.append(f"{len(report.skipped)} files skipped (reasons above)")
    if report.ignored:
        out.append(f"{report.ignored} files that are not .py or .ipynb ignored")
    if report.notebooks():
        out.append(f"{_n(len(report.notebooks()), 'notebook')}: {NOTEBOOK_LINES}")
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
    if fmt == "sarif":
        return to_sarif(report, base)
    raise ValueError(f"format must be text, md, json or sarif, not {fmt!r}")
