"""Look a name up from either side: :func:`find`.

The index holds every entry of the catalogue keyed by MXNet's API
(:class:`sidebyside.catalogue.Entry`: found first by its MXNet names), every row of the API map (:class:`~sidebyside.apimap.Row`), every row of the
pages' mapping and porting tables (:class:`sidebyside.mappings.Mapping`,
:class:`~sidebyside.mappings.HowTo`), every error the notebooks raise on purpose
(:class:`~sidebyside.apimap.errorindex.Entry`) and every public name of the helper package
(:class:`~sidebyside.apimap.helpers.Helper`). Each hit has ``key``, ``where`` (the notebook or
deep dive and the section that teaches it), ``link`` (the page, relative to book/), ``anchor``
(the section's HTML id) and ``target`` (the section in the built book).

Names are compared whole, component by component and case-insensitively: ``arccos`` finds
``nd.arccos`` and ``mx.np.arccos``, ``linalg.gemm2`` finds ``nd.linalg.gemm2``, but ``cat``
does not find ``scatter_`` nor ``nd.exp`` find ``nd.expand_dims``. A leading ``mx.`` is the
same name without it (``mx.nd.load`` is ``nd.load``), PyTorch's in-place ``_`` is dropped
(``exponential`` finds ``exponential_``), and a dotted name that is not found whole is also
found by its tail (``torch.nn.functional.nll_loss`` by ``nll_loss``, ``trainer.step`` by
``step``), after the rows that hold it whole. Punctuation around a name and a call's arguments
are ignored: ``Trainer(`` and ``.params`` are ``Trainer`` and ``params``.
"""

from __future__ import annotations

import ast
import functools
import re

from .. import mappings
from ..catalogue.model import Entry as CatalogueEntry
from . import errorindex, helpers
from .rows import ROWS, Row

__all__ = ["find", "names_in", "query_names"]

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
_ROOT = ("mx", "mxnet")  # mx.nd.load is nd.load
#: namespaces: a name's tail is never one of these alone (``gluon.nn`` does not find every
#: ``torch.nn`` row)
_NAMESPACES = {"torch", "nn", "f", "functional", "optim", "utils", "data", "nd", "np", "npx",
               "onp", "numpy", "gluon", "autograd", "init", "loss", "rnn", "vision", "contrib",
               "linalg", "random", "sym", "symbol", "metric", "io", "image", "kv", "kvstore",
               "optimizer", "lr_scheduler", "model_zoo", "transforms", "cuda", "ndarray",
               "sidebyside", "torchvision", "mx", "mxnet", "block"}


def _parts(name: str) -> tuple[str, ...]:
    parts = tuple(p.rstrip("_") or p for p in name.lower().split("."))
    while len(parts) > 1 and parts[0] in _ROOT:
        parts = parts[1:]
    return parts


def names_in(text: str) -> set[tuple[str, ...]]:
    """Every dotted name in ``text`` and each run of its components, lower case:
    ``nd.linalg.gemm2`` gives ``('nd', 'linalg', 'gemm2')``, ``('linalg', 'gemm2')``,
    ``('nd', 'linalg')``, ``('gemm2',)`` and so on.

    >>> sorted(names_in("mx.nd.load(path)"))
    [('load',), ('nd',), ('nd', 'load'), ('path',)]
    """
    out = set()
    for match in _NAME.findall(text):
        parts = _parts(match)
        out.update(parts[i:j] for i in range(len(parts)) for j in range(i + 1, len(parts) + 1))
    return out


def _dotted(node) -> str:
    """``a.b.c`` for an attribute chain; the attribute alone when the chain starts at a call
    or a subscript (``x.asnumpy().mean`` gives ``mean``)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = _dotted(node.value)
        return f"{head}.{node.attr}" if head else node.attr
    return ""


def _code_names(tree: ast.AST) -> list[str]:
    """The API names of pasted code: what is called, every attribute chain, what is imported,
    what a ``def`` or ``class`` defines. Variables alone, keyword names, strings and numbers
    are not names."""
    out, inner = [], set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute):
            inner.add(id(node.value))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            out.append(node.func.id)
        elif isinstance(node, ast.Attribute) and id(node) not in inner:
            out.append(_dotted(node))
        elif isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            out += [f"{node.module}.{a.name}" if node.module else a.name for a in node.names]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.append(node.name)
    return [n for n in dict.fromkeys(out) if n]


def query_names(query: str) -> tuple[list[tuple[str, ...]], bool]:
    """The names a query asks for, and whether it is code (a pasted line: any of its names
    may be found) rather than a list of names (all must be found in one row).

    >>> query_names("Dense(128, activation='relu')")
    ([('dense',)], True)
    >>> query_names("log softmax")
    ([('log',), ('softmax',)], False)
    """
    text = query.strip()
    try:
        tree = ast.parse(text)
    except SyntaxError:
        tree = None
    bare = (tree is not None and len(tree.body) == 1 and isinstance(tree.body[0], ast.Expr)
            and isinstance(tree.body[0].value, (ast.Name, ast.Attribute)))
    if tree is not None and not bare:
        names = _code_names(tree)
        if names:
            return list(dict.fromkeys(_parts(n) for n in names)), True
    return list(dict.fromkeys(_parts(n) for n in _NAME.findall(text))), False


def _tails(term: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The shorter runs a dotted name is also found by: its tails, longest first, that are
    not a namespace alone."""
    return [term[i:] for i in range(1, len(term))
            if not (len(term) - i == 1 and term[-1] in _NAMESPACES)]


def _headline(entry) -> str:
    """The names an entry is *about* (a row's own name, a table row's leading calls, an
    error's type, a helper's name), as opposed to those it merely mentions."""
    if isinstance(entry, CatalogueEntry):
        return " ".join(entry.names)  # about its MXNet names (PyTorch's: the rows are)
    if isinstance(entry, Row):
        last = entry.torch.splitlines()[-1]
        return " ".join(filter(None, (entry.key, entry.mxnet_name,
                                      mappings.lead_name(f"`{last}`"))))
    if isinstance(entry, mappings.Mapping):
        return " ".join(filter(None, (mappings.lead_name(entry.label), mappings.lead_name(
            entry.pytorch), mappings.lead_name(entry.mxnet))))
    if isinstance(entry, mappings.HowTo):
        return entry.label
    if isinstance(entry, errorindex.Entry):
        return entry.ename
    return entry.key


@functools.lru_cache(maxsize=1)
def _index() -> tuple[tuple[object, frozenset, frozenset, int], ...]:
    """(entry, its names, the names it is about, its kind's rank) for everything
    :func:`find` searches."""
    tables = mappings.read_all()
    from ..catalogue import index as catalogue

    entries = [(e, 0) for e in catalogue.entries()]  # keyed by MXNet's API: first for its names
    entries += [(r, 0) for r in ROWS]
    entries += [(m, 1) for m in tables.rows] + [(h, 1) for h in tables.howtos]
    entries += [(e, 2) for e in errorindex.read_all()]
    entries += [(h, 3) for h in helpers.read_all()]
    return tuple((e, frozenset(names_in(e.text)), _about(e), rank) for e, rank in entries)


def _about(entry) -> frozenset:
    """The names an entry is about; a catalogue entry is about each of its MXNet names and
    their tails (``mx.gluon.rnn.GRU.begin_state``: ``begin_state``, ``GRU.begin_state``, …),
    not the classes and namespaces on the way (``GRU``)."""
    if isinstance(entry, CatalogueEntry):
        out = set()
        for n in entry.names:
            parts = _parts(n)
            out.update(parts[i:] for i in range(len(parts)))
        return frozenset(out)
    return frozenset(names_in(_headline(entry)))


def find(name: str, notebooks: bool = True) -> list:
    """What holds the name ``name``, looked up from either side (see the module's notes on
    how names match).

    The hits are the API map's rows (:class:`~sidebyside.apimap.Row`) and, with
    ``notebooks`` (the default), the rows of the pages' mapping tables and porting tables,
    the errors of the error index and the helper package's public names. Every hit has
    ``key``, ``where``, ``link``, ``anchor`` and ``target``.

    Several names (``"log softmax"``) must all be in one hit. A line of code (``x =
    nd.concat(a, b, dim=1)``, ``Dense(128, activation='relu')``) finds what holds any of the
    names it uses — called, attributes, imports; not its variables, keywords or literals.

    The order: the hits that hold more of the names first; then those that hold them whole
    (before those found by a tail); then those that are *about* the name (a row named
    ``bmm`` for ``bmm``, ``sidebyside.transfer`` for ``transfer``, a table row that starts
    with the call) before those that only mention it; then the map's rows, the tables' rows
    (in reading order), the errors and the helpers, each in their own order.

    The index is read once per process (the pages' tables, the stored error outputs, the
    package's source): a kernel that edits a notebook sees the change after a restart.
    """
    if not isinstance(name, str) or not name.strip():
        raise ValueError("find() needs a non-empty name, e.g. 'arccos' or 'gather'")
    terms, code = query_names(name)
    if not terms:
        raise ValueError(f"find() found no name in {name!r}; give one, e.g. 'arccos'")
    hits = []
    for order, (entry, names, about, rank) in enumerate(_index()):
        if rank and not notebooks:
            continue
        whole = sum(t in names for t in terms)
        found = sum(t in names or any(s in names for s in _tails(t)) for t in terms)
        if found == 0 or (not code and found < len(terms)):
            continue
        own = sum(t in about for t in terms)
        hits.append(((-found, -whole, -own, rank, order), entry))
    return [entry for _, entry in sorted(hits, key=lambda h: h[0])]
