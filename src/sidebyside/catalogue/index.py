"""Look an MXNet construct up in the catalogue: :func:`lookup`, :func:`entries`, :func:`names`.

Names are canonical (:func:`sidebyside.migrate.names.canonical`: ``mx.nd.topk``,
``mx.gluon.nn.Dense``, ``mx.gluon.Trainer.step``); ``F.X`` inside ``hybrid_forward`` is
``mx.nd.X``. A name is found when an entry is keyed by it or lists it among its aliases
(``tests/test_catalogue.py`` checks each alias against the installed MXNet), or when it invokes
the same registered operator as an entry's name: ``mx.sym.Reshape``, ``mx.nd.reshape`` and the
fluent ``mx.sym.Symbol.reshape`` are one operator (``operators.json``, read off MXNet). A method found on a Gluon class is also found on its subclasses, where the subclass
inherits that very method (:data:`INHERITS`, checked the same way). Nothing else is matched:
an answer is only ever the one checked for that construct.

Where a construct has forms (``topk(ret_typ='both')``, ``Dense(flatten=False)``), the call's
arguments pick the form (:func:`lookup`'s ``keywords`` and ``positional``); an argument given
as an expression the reader must evaluate makes every form a candidate, the default first.

Standard library only.
"""

from __future__ import annotations

import ast
import functools

from .model import Entry, parse_when

__all__ = ["entries", "lookup", "names", "by_key", "INHERITS", "SUBCLASS_METHODS", "mx2torch_note",
           "NOT_LITERAL", "Match",
           "call_arguments"]

#: a subclass → the base class it inherits methods from (the first that has the method wins)
INHERITS = {
    "mx.gluon.HybridBlock": "mx.gluon.Block",
    "mx.gluon.SymbolBlock": "mx.gluon.HybridBlock",
    "mx.gluon.nn.Sequential": "mx.gluon.Block",
    "mx.gluon.nn.HybridSequential": "mx.gluon.HybridBlock",
    "mx.gluon.nn.Block": "mx.gluon.Block",
    "mx.gluon.nn.HybridBlock": "mx.gluon.HybridBlock",
    "mx.gluon.nn.SymbolBlock": "mx.gluon.SymbolBlock",
    "mx.gluon.loss.Loss": "mx.gluon.HybridBlock",
    "mx.gluon.rnn.HybridRecurrentCell": "mx.gluon.rnn.RecurrentCell",
    **{f"mx.gluon.rnn.{c}": "mx.gluon.rnn.HybridRecurrentCell" for c in (
        "LSTMCell", "GRUCell", "RNNCell", "HybridSequentialRNNCell", "BidirectionalCell",
        "DropoutCell", "ModifierCell")},
    **{f"mx.gluon.rnn.{c}": "mx.gluon.rnn.ModifierCell" for c in (
        "ResidualCell", "ZoneoutCell")},
    "mx.gluon.rnn.SequentialRNNCell": "mx.gluon.rnn.RecurrentCell",
    "mx.gluon.rnn.RecurrentCell": "mx.gluon.Block",
    "mx.gluon.contrib.nn.HybridConcurrent": "mx.gluon.nn.HybridSequential",
    "mx.gluon.contrib.nn.Concurrent": "mx.gluon.nn.Sequential",
    "mx.mod.Module": "mx.mod.BaseModule",
    "mx.io.NDArrayIter": "mx.io.DataIter",
    "mx.io.MXDataIter": "mx.io.DataIter",
    **{f"mx.metric.{m}": "mx.metric.EvalMetric" for m in (
        "Accuracy", "TopKAccuracy", "F1", "MCC", "MAE", "MSE", "RMSE", "CrossEntropy",
        "NegativeLogLikelihood", "Perplexity", "PearsonCorrelation", "PCC", "Loss",
        "CustomMetric", "CompositeEvalMetric")},
    "mx.metric.Torch": "mx.metric.Loss", "mx.metric.Caffe": "mx.metric.Loss",
}
#: methods a script's receiver is named by a base class that lacks them (``net.add`` on a
#: ``net`` the resolver types as a Block): the class that has the method
SUBCLASS_METHODS = {"mx.gluon.Block.add": "mx.gluon.nn.Sequential.add",
                    "mx.gluon.HybridBlock.add": "mx.gluon.nn.HybridSequential.add"}
#: the argument value of a call that is not a literal (a variable, an expression)
NOT_LITERAL = object()


@functools.lru_cache(maxsize=1)
def entries() -> tuple[Entry, ...]:
    """Every entry, in the data modules' order."""
    from .entries import all_entries

    return all_entries()


@functools.lru_cache(maxsize=1)
def _by_name() -> dict[str, list[Entry]]:
    out: dict[str, list[Entry]] = {}
    for e in entries():
        for n in e.names:
            out.setdefault(n, []).append(e)
    return out


@functools.lru_cache(maxsize=1)
def by_key() -> dict[str, Entry]:
    """Every entry by its key (``mx.nd.topk [ret_typ='both']``)."""
    return {e.key: e for e in entries()}


def names() -> frozenset[str]:
    """Every name the catalogue answers: keys, aliases, and the other names of their
    registered operators (``operators.json``)."""
    ops = _by_operator()
    return frozenset(_by_name()) | frozenset(n for n, op in operator_of().items() if op in ops)


class Match(tuple):
    """``(entry, how)``: ``how`` is ``"form"`` (the call's arguments select this form),
    ``"default"`` (the construct's default form), ``"either"`` (an argument that selects a
    form is not a literal) or ``"inherited"`` (found on a base class)."""

    __slots__ = ()

    def __new__(cls, entry, how):
        return super().__new__(cls, (entry, how))

    entry = property(lambda self: self[0])
    how = property(lambda self: self[1])


def call_arguments(call: ast.Call) -> tuple[list, dict]:
    """A call's positional and keyword arguments as literals where they are, else
    :data:`NOT_LITERAL` (``**kwargs`` makes every unnamed keyword unknown: key ``"**"``)."""
    def value(node):
        try:
            return ast.literal_eval(node)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            return NOT_LITERAL
    positional = [NOT_LITERAL if isinstance(a, ast.Starred) else value(a) for a in call.args]
    keywords = {}
    for k in call.keywords:
        keywords[k.arg if k.arg is not None else "**"] = value(k.value)
    return positional, keywords


def _form_state(e: Entry, positional, keywords) -> str:
    """'yes' (the call selects this form), 'no', or 'maybe' (an argument it tests is not a
    literal)."""
    given = dict(keywords)
    for name, v in zip(e.signature, positional):
        given.setdefault(name, v)
    state = "yes"
    for present, name, want in parse_when(e.when):
        if name in given:
            v = given[name]
            if v is NOT_LITERAL:
                state = "maybe"
                continue
            if not present:
                return "no"
            if want is ... and v is None:
                return "no"
            if want is not ... and v != want:
                return "no"
        elif "**" in given or len(positional) > len(e.signature):
            state = "maybe"
        elif present:
            return "no"
    return state


def _is_method(name: str) -> bool:
    owner = name.rpartition(".")[0].rpartition(".")[2]
    return owner[:1].isupper() or owner == "ndarray"


def _receiver_first(name: str, e: Entry, positional):
    """A method call (``x.topk(1, 2)``) passes its receiver as the operator's first argument:
    the positional arguments as the operator function (``nd.topk(x, 1, 2)``) sees them."""
    if _is_method(name) and not _is_method(e.mx):
        return [NOT_LITERAL, *positional]
    return list(positional)


@functools.lru_cache(maxsize=1)
def operator_of() -> dict[str, str]:
    """Each operator name of MXNet (``mx.sym.Reshape``, ``mx.nd.NDArray.sum``) → the
    registered operator it invokes, as ``operators.json`` records it (read off the installed
    MXNet by :func:`sidebyside.catalogue.surface.operator_table`; a test keeps it equal)."""
    import json
    from pathlib import Path

    families = json.loads(Path(__file__).with_name("operators.json").read_text("utf-8"))
    return {name: op for op, members in families.items() for name in members}


@functools.lru_cache(maxsize=1)
def _symbol_ops() -> frozenset:
    import json
    from pathlib import Path

    return frozenset(json.loads(Path(__file__).with_name("symbol_ops.json").read_text("utf-8")))


def mx2torch_note(name: str) -> str:
    """For a Symbol-API operator name (``mx.sym.Convolution``): what :mod:`sidebyside.mx2torch`
    does with a ``-symbol.json`` holding that operator (``symbol_ops.json``, its registry);
    ``""`` for other names."""
    op = operator_of().get(name)
    if not name.startswith("mx.sym.") or op is None:
        return ""
    if op in _symbol_ops():
        return (f"a saved graph (-symbol.json + .params) holding `{op}` nodes: "
                "python -m sidebyside.mx2torch translates it to PyTorch code, no MXNet needed")
    return (f"sidebyside.mx2torch has no translator for `{op}`: it refuses a -symbol.json "
            "holding that operator (write the node by hand from this entry)")


@functools.lru_cache(maxsize=1)
def _by_operator() -> dict[str, list[Entry]]:
    """Registered operator → the entries keyed by (or aliased to) one of its names."""
    ops = operator_of()
    out: dict[str, list[Entry]] = {}
    for e in entries():
        for op in dict.fromkeys(ops[n] for n in e.names if n in ops):
            out.setdefault(op, []).append(e)
    return out


def _candidates(name: str) -> tuple[list[Entry], str]:
    name = SUBCLASS_METHODS.get(name, name)
    hits = list(_by_name().get(name, ()))
    op = operator_of().get(name)
    hits += [e for e in _by_operator().get(op, ()) if e not in hits] if op else []
    if hits:
        return hits, ""
    owner, _, attr = name.rpartition(".")
    seen = set()
    while owner in INHERITS and owner not in seen:
        seen.add(owner)
        owner = INHERITS[owner]
        hits = _by_name().get(f"{owner}.{attr}")
        if hits:
            return hits, "inherited"
    return [], ""


def lookup(name: str, positional=(), keywords=None) -> list[Match]:
    """The entries that answer the canonical MXNet ``name``, best first, each as a
    :class:`Match` (entry, how).

    With the call's arguments (``positional``, ``keywords``: literals, or
    :data:`NOT_LITERAL`), the forms it selects come first, then the default form; forms the
    call rules out are left out. Without them, the default form comes first, then the others.
    An unknown name gives ``[]``.
    """
    if not isinstance(name, str):
        raise TypeError(f"lookup() needs a canonical name as a string, e.g. 'mx.nd.topk', "
                        f"not {name!r}")
    hits, via = _candidates(name.strip())
    if not hits:
        return []
    keywords = dict(keywords or {})
    called = bool(positional) or bool(keywords)
    forms = [e for e in hits if e.when]
    defaults = [e for e in hits if not e.when]
    out: list[Match] = []
    if not called:
        out = [Match(e, via or "default") for e in defaults]
        out += [Match(e, via or "either") for e in forms]
        return out
    chosen = [(e, _form_state(e, _receiver_first(name, e, positional), keywords))
              for e in forms]
    out += [Match(e, via or "form") for e, s in chosen if s == "yes"]
    maybe = [e for e, s in chosen if s == "maybe"]
    if out:
        return out
    out += [Match(e, via or ("either" if maybe else "default")) for e in defaults]
    out += [Match(e, via or "either") for e in maybe]
    return out
