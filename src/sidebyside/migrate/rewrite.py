"""The draft port: mechanical MXNet → PyTorch rewrites (:data:`RULES`) and markers (:func:`draft`).

A :class:`Rule` rewrites one call (or attribute) only where the PyTorch spelling computes the
same thing for every input its condition admits; the condition is read off the AST (literal
arguments, which keywords are present). A call that does not qualify is left as it is: the
caller (the report) puts a :class:`Marker` above it instead. Nothing is ever guessed.

What "the same" assumes, for every rule: floating-point arrays (MXNet's default ``float32``;
on integer arrays MXNet's elementwise maths and sums keep the integer dtype where PyTorch
promotes), and values, not aliasing (a PyTorch view such as ``torch.permute`` shares memory
where MXNet copied). Layers compute the same function given the same weights; their initial
weights differ (each framework's default initialiser). Each rule's :attr:`Rule.note` says the
condition it checks; ``tests/test_migrate_rewrite.py`` runs every rule in both frameworks.

:func:`draft` edits the source by spans: comments, blank lines and formatting outside a
rewritten call survive byte for byte. Standard library only.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import re
from dataclasses import dataclass, field
from typing import Callable

from .names import MXNET
from .resolve import Analysis, Site

__all__ = ["Rule", "RULES", "Marker", "Draft", "draft", "rules_for"]

TextOf = Callable[[ast.AST], str]


@dataclass(frozen=True)
class Rule:
    """One mechanical rewrite: the MXNet names it applies to, an example, and the function."""

    name: str                      # kebab-case: "nd-concat", "asnumpy", "dense-to-linear"
    mxnet: tuple[str, ...]         # canonical names it rewrites: ("mx.nd.concat",)
    before: str                    # MXNet example
    after: str                     # what the example becomes
    note: str                      # why this is exact: the condition it checks
    rewrite: Callable[[Site, Analysis, TextOf], str | None] = field(repr=False)


@dataclass(frozen=True)
class Marker:
    """A comment :func:`draft` writes above the statement holding ``line``."""

    line: int
    rule: str
    message: str
    where: str = ""   # "notebook 8, §6. Title"
    url: str = ""     # relative to book/: "notebooks/08_optimizers_trainer.ipynb#…"

    def comment(self) -> str:
        """``# >>>>>> migrate [rule]: message (see where: url)`` on one line."""
        message = " ".join(self.message.split())
        see = ": ".join(p for p in (" ".join(self.where.split()), self.url.strip()) if p)
        return f"# >>>>>> migrate [{self.rule}]: {message}" + (f" (see {see})" if see else "")


@dataclass
class Draft:
    """What :func:`draft` wrote."""

    source: str
    rewritten: list[tuple[int, str]]   # (line, rule name), in source order
    marked: list[Marker]               # the markers written, in the order given
    #: (line, column, rule) of each MXNet construct a rule rewrote with its own (the
    #: ``collect_params()`` of ``Trainer(net.collect_params(), ...)``, an ``np.float32``)
    consumed: list[tuple[int, int, str]] = field(default_factory=list)


# -- reading arguments ------------------------------------------------------------------

_NO = object()   # "this call does not qualify"


def _bind(call: ast.Call | None, params: tuple[str, ...], required: int = 0,
          starred: bool = False) -> dict[str, ast.AST] | None:
    """The call's arguments by parameter name, or ``None`` if it has ``**kw``, a ``*args``
    (unless ``starred``: then all positionals are returned under ``"*"``), an argument not in
    ``params``, one given twice, or fewer than ``required`` of the first parameters."""
    if not isinstance(call, ast.Call):   # a name used without a call: nn.Dropout
        return None
    out: dict[str, ast.AST] = {}
    if starred:
        out["*"] = list(call.args)  # type: ignore[assignment]
    else:
        if any(isinstance(a, ast.Starred) for a in call.args) or len(call.args) > len(params):
            return None
        out.update(zip(params, call.args))
    for kw in call.keywords:
        if kw.arg is None or kw.arg not in params or kw.arg in out:
            return None
        out[kw.arg] = kw.value
    if any(p not in out for p in params[:required]):
        return None
    return out


def _literal(node: ast.AST | None, default=_NO):
    """The Python value of a literal (numbers, strings, booleans, None, tuples/lists of them,
    negative numbers), ``default`` for an absent argument, or ``_NO``."""
    if node is None:
        return default
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return _NO


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _int_axes(v) -> bool:
    """An int, or a non-empty tuple/list of distinct ints."""
    if _is_int(v):
        return True
    return isinstance(v, (tuple, list)) and bool(v) and all(map(_is_int, v)) \
        and len(set(v)) == len(v)


def _tuple_text(v) -> str:
    """``(2, 3)``, ``(6,)``, ``2`` for an int."""
    if _is_int(v):
        return repr(v)
    return "(" + ", ".join(map(repr, v)) + ("," if len(v) == 1 else "") + ")"


_PRIMARY = (ast.Name, ast.Attribute, ast.Call, ast.Subscript, ast.List, ast.Tuple, ast.Dict,
            ast.Set, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _atom(node: ast.AST, text: str) -> str:
    """``text`` as something a method can be called on: parenthesised unless ``node`` is a
    name, attribute, call, subscript or display (a number gets parentheses too: ``1 .x``)."""
    return text if isinstance(node, _PRIMARY) or (
        isinstance(node, ast.Constant) and isinstance(node.value, str)) else f"({text})"


#: dtype strings MXNet accepts and the torch dtype each one is
_DTYPES = {"float16": "float16", "float32": "float32", "float64": "float64",
           "uint8": "uint8", "int8": "int8", "int32": "int32", "int64": "int64"}


def _dtype(node: ast.AST | None, default: str | None = "float32",
           numpy_names: set[str] = frozenset()) -> str | None:
    """``torch.float32`` for an absent dtype (``default``) or ``None``, the torch dtype of a
    literal string or of a numpy type named through ``numpy_names`` (``np.float32``), else
    ``None``."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
            and node.value.id in numpy_names:
        return f"torch.{_DTYPES[node.attr]}" if node.attr in _DTYPES else None
    v = _literal(node, None)
    if v is None:
        return f"torch.{default}" if default else None
    return f"torch.{_DTYPES[v]}" if isinstance(v, str) and v in _DTYPES else None


def _absent_or(args: dict, name: str, *values) -> bool:
    """``name`` not given, or given as one of the literal ``values``."""
    if name not in args:
        return True
    v = _literal(args[name])
    return v is not _NO and any(v == x and type(v) is type(x) for x in values)


def _call(site: Site) -> ast.Call | None:
    return site.node if isinstance(site.node, ast.Call) else None


def _receiver(site: Site) -> ast.AST | None:
    """The object a method site is called on (``x`` in ``x.asnumpy()``)."""
    node = site.node.func if isinstance(site.node, ast.Call) else site.node
    return node.value if isinstance(node, ast.Attribute) else None


# -- rule makers ------------------------------------------------------------------------

_RULES: list[Rule] = []


def _rule(name, mxnet, before, after, note):
    """Register the decorated function as a :class:`Rule`."""
    def wrap(fn):
        _RULES.append(Rule(name, tuple(mxnet), before, after, note, fn))
        return fn
    return wrap


#: rule name -> the draft helpers its rewrite calls
RULE_HELPERS: dict[str, tuple[str, ...]] = {}

#: rule name -> the gotchas its rewrite settles (the draft writes what the gotcha asks for:
#: the Flatten before the Linear, Gluon's transform(data, label) kept by the helper dataset)
RULE_RESOLVES: dict[str, tuple[str, ...]] = {
    "dense-flatten-to-linear": ("dense-flatten",), "dense-lazy-activation": ("dense-flatten",),
    "vision-mnist": ("transform-not-first",), "vision-fashionmnist": ("transform-not-first",),
    "vision-cifar10": ("transform-not-first",), "vision-cifar100": ("transform-not-first",),
    "dataset-transform": ("transform-not-first",),
    "dropout-scoped": ("dropout-predict-scope",), "batchnorm-scoped": ("dropout-predict-scope",),
    "dropout-axes-scoped": ("dropout-predict-scope",),
}

#: rules whose statement the structural pass (:mod:`.structure`, LibCST) rewrites: the
#: stdlib pass leaves their text as it is and writes no marker for them
STRUCTURAL: set[str] = set()


def _helper_rule(name, mxnet, before, after, note, helpers=()):
    def wrap(fn):
        _RULES.append(Rule(name, tuple(mxnet), before, after, note, fn))
        if helpers:
            RULE_HELPERS[name] = tuple(helpers)
        return fn
    return wrap


def _helper_call(helper: str, params: tuple[str, ...], args: dict, text_of,
                 positional: int) -> str:
    """``helper(...)`` with the bound ``args`` in the order of ``params``: the first
    ``positional`` as positional arguments while none before them is absent, the rest as
    keywords."""
    parts, gap = [], False
    for i, k in enumerate(params):
        if k not in args:
            gap = True
            continue
        parts.append(text_of(args[k]) if i < positional and not gap else
                     f"{k}={text_of(args[k])}")
    return f"{helper}({', '.join(parts)})"


def _keyword_helper(helper: str, params: tuple[str, ...], required: int,
                    positional: int | None = None, check=None):
    """A rule's rewrite: the call's arguments bound to ``params`` (the first ``required``
    needed), passed on to ``helper`` (:func:`_helper_call`; ``positional`` defaults to
    ``required``) when ``check(args)`` (if given) accepts them; for an operator (mx.nd, mx.np,
    mx.npx) a ``name=`` the helper does not take is dropped (it names a graph node; an
    NDArray call ignores it)."""
    named = "name" in params

    def rewrite(site, analysis, text_of):
        op = not named and site.name.startswith(("mx.nd.", "mx.np.", "mx.npx."))
        args = _bind(_call(site), params + ("name",) if op else params, required)
        if args is not None and op:
            args.pop("name", None)    # an operator's name= names its node in a graph: an
            # NDArray call ignores it
        if args is None or (check is not None and not check(args)):
            return None
        return _helper_call(helper, params, args, text_of,
                            required if positional is None else positional)
    return rewrite


def _pass_on(name: str, mxnet: list[str], before: str, after: str, note: str, helper: str,
             params: tuple[str, ...], required: int, positional: int | None = None,
             check=None) -> None:
    """A rule that passes the call's arguments on to the draft's helper of the same
    signature (:func:`_keyword_helper`)."""
    _RULES.append(Rule(name, tuple(mxnet), before, after, note,
                       _keyword_helper(helper, params, required, positional, check)))
    RULE_HELPERS[name] = (helper,)


#: nd elementwise functions whose torch function is the same maths (float inputs)
_ELEMENTWISE = {
    "abs": "abs", "exp": "exp", "expm1": "expm1", "log": "log", "log1p": "log1p",
    "log2": "log2", "log10": "log10", "sqrt": "sqrt", "rsqrt": "rsqrt", "square": "square",
    "reciprocal": "reciprocal", "sin": "sin", "cos": "cos", "tan": "tan", "arcsin": "asin",
    "arccos": "acos", "arctan": "atan", "sinh": "sinh", "cosh": "cosh", "tanh": "tanh",
    "arcsinh": "asinh", "arccosh": "acosh", "arctanh": "atanh", "sigmoid": "sigmoid",
    "relu": "relu", "floor": "floor", "ceil": "ceil", "trunc": "trunc", "fix": "trunc",
    "sign": "sign", "negative": "neg", "erf": "erf",
}


def _unary(torch_op: str):
    """``torch.<op>(x)`` for a call with one positional argument and no keywords."""
    def rewrite(site, analysis, text_of):
        call = _call(site)
        if call is None or call.keywords or len(call.args) != 1 \
                or isinstance(call.args[0], ast.Starred):
            return None
        return f"torch.{torch_op}({text_of(call.args[0])})"
    return rewrite


def _elementwise(op: str, torch_op: str) -> None:
    _RULES.append(Rule(f"nd-{op}", (f"mx.nd.{op}",), f"nd.{op}(x)", f"torch.{torch_op}(x)",
                       "one positional argument, no keywords (no out=)", _unary(torch_op)))


for _op, _top in _ELEMENTWISE.items():
    _elementwise(_op, _top)


def _creation(op: str) -> None:
    def rewrite(site, analysis, text_of):
        args = _bind(_call(site), ("shape", "ctx", "dtype"), 1) if _call(site) else None
        if args is None:
            return None
        dt, dev = _dtype(args.get("dtype")), _device(args, analysis, text_of)
        return f"torch.{op}({text_of(args['shape'])}, dtype={dt}{dev})" \
            if dt and dev is not None else None
    _RULES.append(Rule(f"nd-{op}", (f"mx.nd.{op}",), f"nd.{op}((2, 3))",
                       f"torch.{op}((2, 3), dtype=torch.float32)",
                       "ctx absent, None or one device (device=, a torch.device after the "
                       "mx.cpu/mx.gpu rules; not a list); no stype; dtype absent (float32 in "
                       "MXNet) or a literal string", rewrite))


_creation("zeros")
_creation("ones")
_creation("empty")


@_rule("nd-full", ["mx.nd.full"], "nd.full((2, 3), 7)",
       "torch.full((2, 3), 7, dtype=torch.float32)",
       "a literal shape (an int n written (n,)); ctx absent, None or one device; no out; "
       "dtype absent (float32) or a literal string")
def _full(site, analysis, text_of):
    args = _bind(_call(site), ("shape", "val", "ctx", "dtype"), 2)
    if args is None:
        return None
    dt, dev, size = _dtype(args.get("dtype")), _device(args, analysis, text_of), \
        _size_text(args["shape"], text_of)
    return f"torch.full({size}, {text_of(args['val'])}, dtype={dt}{dev})" \
        if dt and dev is not None and size else None


def _size_text(node: ast.AST, text_of) -> str | None:
    """A shape torch.full takes: a tuple (or list) display as written, an int literal n as
    (n,); None for another expression (an int there would need the tuple, a tuple must not
    get one)."""
    v = _literal(node)
    if _is_int(v):
        return f"({v},)"
    if isinstance(node, (ast.Tuple, ast.List)) and not any(
            isinstance(e, ast.Starred) for e in node.elts):
        return text_of(node)   # a tuple display: a shape whatever its entries
    return None


@_rule("nd-arange", ["mx.nd.arange"], "nd.arange(2, 10, 3)",
       "torch.arange(2, 10, 3, dtype=torch.float32)",
       "start, stop and step are int literals (float steps may count differently); no repeat, "
       "no ctx; dtype absent (float32) or a literal string")
def _arange(site, analysis, text_of):
    args = _bind(_call(site), ("start", "stop", "step", "repeat", "infer_range", "ctx",
                               "dtype"), 1)
    if args is None or any(k in args for k in ("repeat", "infer_range")) \
            or not _absent_or(args, "ctx", None):
        return None
    nums = [_literal(args.get(k), None) for k in ("start", "stop", "step")]
    if not _is_int(nums[0]) or any(v is not None and not _is_int(v) for v in nums[1:]):
        return None
    dt = _dtype(args.get("dtype"))
    start, stop, step = nums
    if stop is None:
        start, stop = 0, start
    return f"torch.arange({start}, {stop}, {1 if step is None else step}, dtype={dt})" \
        if dt else None


def _numpy_names(analysis: Analysis) -> set[str]:
    """The names the file binds to numpy (``import numpy as np``)."""
    out = set()
    for node in analysis.nodes():
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name == "numpy":
                    out.add(a.asname or "numpy")
    return out


def _not_ndarray(node: ast.AST, analysis: Analysis) -> bool:
    """Whether ``node`` is surely not an NDArray: a number, a list/tuple display, or a call
    into numpy (``np.…(…)``)."""
    if isinstance(node, (ast.List, ast.Tuple, ast.Constant)):
        return _literal(node) is not _NO or isinstance(node, (ast.List, ast.Tuple))
    if isinstance(node, ast.Call):
        head = node.func
        while isinstance(head, ast.Attribute):
            head = head.value
        return isinstance(head, ast.Name) and head.id in _numpy_names(analysis)
    if isinstance(node, ast.Name):     # mask = np.ones(...), wherever it is bound
        values = _values_of(analysis, node)
        return bool(values) and all(v is not None and not isinstance(v, ast.Name)
                                    and _not_ndarray(v, analysis) for v in values)
    return False


@_rule("nd-array", ["mx.nd.array"], "nd.array([[1, 2], [3, 4]])",
       "torch.tensor([[1, 2], [3, 4]], dtype=torch.float32)",
       "no ctx; a literal dtype string, or none and a source that is surely not an NDArray "
       "(a list/tuple display, a number, a numpy call, a name bound only to those): nd.array "
       "then gives float32 even for float64 or int64 numpy input")
def _array(site, analysis, text_of):
    args = _bind(_call(site), ("source_array", "ctx", "dtype"), 1)
    if args is None or not _absent_or(args, "ctx", None):
        return None
    src = args["source_array"]
    if _literal(args.get("dtype"), None) is None and not _not_ndarray(src, analysis):
        return None
    dt = _dtype(args.get("dtype"))
    return f"torch.tensor({text_of(src)}, dtype={dt})" if dt else None


@_helper_rule("nd-array-copy", ["mx.nd.array"], "nd.array(x, ctx=mx.cpu())",
              "gluon_array(x, ctx=torch.device('cpu'))",
              "where nd-array does not apply (a source that may be an NDArray, a ctx): "
              "gluon_array keeps a tensor's dtype and makes anything else float32 (unless "
              "dtype says), as nd.array does", ["gluon_array"])
def _array_copy(site, analysis, text_of):
    args = _bind(_call(site), ("source_array", "ctx", "dtype"), 1)
    if args is None or site.how == "guessed":
        return None
    return "gluon_array(" + ", ".join([text_of(args["source_array"])] + [
        f"{k}={text_of(args[k])}" for k in ("ctx", "dtype") if k in args]) + ")"


def _joining(op: str, torch_op: str, axis_kw: str, default: int) -> None:
    def rewrite(site, analysis, text_of):
        call = _call(site)
        args = _bind(call, (axis_kw,), starred=True)
        if args is None or not call.args:
            return None
        # a starred list's items may be elements (x[i, j], the items of a 1-D array): shape
        # (1,) in MXNet, which has no 0-d arrays, 0-d in torch; atleast_1d gives them (1,)
        items = ", ".join(f"*map(torch.atleast_1d, {text_of(a.value)})"
                          if isinstance(a, ast.Starred) else text_of(a) for a in call.args)
        dim = text_of(args[axis_kw]) if axis_kw in args else str(default)
        return f"torch.{torch_op}([{items}], dim={dim})"
    _RULES.append(Rule(f"nd-{op}", (f"mx.nd.{op}",), f"nd.{op}(a, b)",
                       f"torch.{torch_op}([a, b], dim={default})",
                       f"arrays as positional arguments, only the {axis_kw}= keyword; its "
                       f"default ({default}) is written out; a starred list's items through "
                       f"torch.atleast_1d (an element of an MXNet 1.x array has shape (1,), "
                       f"a torch one none)", rewrite))


_joining("concat", "cat", "dim", 1)
_joining("stack", "stack", "axis", 0)


@_rule("nd-expand-dims", ["mx.nd.expand_dims"], "nd.expand_dims(x, axis=1)",
       "torch.unsqueeze(x, 1)", "data and axis given, nothing else")
def _expand_dims(site, analysis, text_of):
    args = _bind(_call(site), ("data", "axis"), 2)
    return None if args is None else \
        f"torch.unsqueeze({text_of(args['data'])}, {text_of(args['axis'])})"


@_rule("nd-swapaxes", ["mx.nd.swapaxes", "mx.nd.SwapAxis"], "nd.swapaxes(x, 0, 2)",
       "torch.transpose(x, 0, 2)",
       "data, dim1, dim2 only (both default to 0, written out); SwapAxis is the same operator")
def _swapaxes(site, analysis, text_of):
    args = _bind(_call(site), ("data", "dim1", "dim2"), 1)
    if args is None:
        return None
    d1, d2 = (text_of(args[k]) if k in args else "0" for k in ("dim1", "dim2"))
    return f"torch.transpose({text_of(args['data'])}, {d1}, {d2})"


def _broadcast_shape(node: ast.AST, text_of, zero: int = -1) -> str | None:
    """torch's shape for MXNet's broadcast_to ``shape``: a literal tuple of ints with each 0
    written ``zero`` (-1, torch's "keep this axis", for the operator; 1 for the NDArray
    method, which allows 0 only where the input has 1); anything else through the helper,
    which does that when the draft runs; None for what is no shape."""
    value = _literal(node)
    if isinstance(value, (tuple, list)) and value and all(_is_int(v) and v >= 0
                                                          for v in value):
        return _tuple_text(tuple(zero if v == 0 else v for v in value))
    if value is not _NO:
        return None
    return f"gluon_broadcast_shape({text_of(node)}{'' if zero == -1 else f', {zero}'})"


@_helper_rule("nd-broadcast-to", ["mx.nd.broadcast_to"], "nd.broadcast_to(x, shape=(0, 3, 4))",
              "torch.broadcast_to(x, (-1, 3, 4))",
              "data and shape: a literal shape (0 keeps that axis: torch's -1), or any other "
              "expression (an array's .shape, a tuple of sizes) through gluon_broadcast_shape, "
              "which maps 0 to -1 when the draft runs", ["gluon_broadcast_shape"])
def _broadcast_to(site, analysis, text_of):
    args = _bind(_call(site), ("data", "shape"), 2)
    shape = _broadcast_shape(args["shape"], text_of) if args else None
    return None if shape is None else f"torch.broadcast_to({text_of(args['data'])}, {shape})"


@_rule("nd-transpose", ["mx.nd.transpose"], "nd.transpose(x, axes=(0, 2, 1))",
       "torch.permute(x, (0, 2, 1))",
       "axes a non-empty literal tuple of ints; or no axes (all reversed) with the data a "
       "name, written twice: torch.permute(x, tuple(range(x.ndim))[::-1])")
def _transpose(site, analysis, text_of):
    args = _bind(_call(site), ("data", "axes"), 1)
    if args is not None and "axes" not in args and _simple_name(args["data"]):
        data = text_of(args["data"])
        return f"torch.permute({data}, tuple(range({data}.ndim))[::-1])"
    axes = _literal(args.get("axes")) if args else _NO
    if args is None or not isinstance(axes, (tuple, list)) or not _int_axes(axes):
        return None
    return f"torch.permute({text_of(args['data'])}, {_tuple_text(tuple(axes))})"


def _reduced(torch_op: str, data: str, args: dict | None) -> str | None:
    """``torch.<op>`` of the text ``data`` for MXNet's reduction arguments ``args``."""
    if args is None or not _absent_or(args, "exclude", False) \
            or not _absent_or(args, "keepdims", False, True):
        return None
    axis = _literal(args.get("axis"), None)
    keep = _literal(args.get("keepdims"), False)
    if axis is None:   # all axes: MXNet gives shape (1,), torch ()
        return None if keep else f"torch.{torch_op}({data}).reshape(1)"
    if not _int_axes(axis):
        return None
    axis_text = _tuple_text(tuple(axis) if isinstance(axis, list) else axis)
    if keep:
        return f"torch.{torch_op}({data}, dim={axis_text}, keepdim=True)"
    # MXNet never returns a 0-d array: reducing the last axis left gives (1,)
    return f"torch.atleast_1d(torch.{torch_op}({data}, dim={axis_text}))"


def _reduction(op: str, torch_op: str) -> None:
    def rewrite(site, analysis, text_of):
        args = _bind(_call(site), ("data", "axis", "keepdims", "exclude"), 1)
        return None if args is None else _reduced(torch_op, text_of(args["data"]), args)

    def method(site, analysis, text_of):
        recv = _receiver(site)   # a receiver known to be an NDArray (numpy has .sum too)
        if recv is None or _call(site) is None or site.how == "guessed":
            return None
        return _reduced(torch_op, text_of(recv),
                        _bind(_call(site), ("axis", "keepdims", "exclude")))
    _RULES.append(Rule(
        f"ndarray-{op}", (f"mx.nd.NDArray.{op}",), f"x.{op}(axis=1)",
        f"torch.atleast_1d(torch.{torch_op}(x, dim=1))",
        f"the method form of nd.{op}, same arguments but data", method))
    _RULES.append(Rule(
        f"nd-{op}", (f"mx.nd.{op}",), f"nd.{op}(x, axis=1)",
        f"torch.atleast_1d(torch.{torch_op}(x, dim=1))",
        "axis absent (then .reshape(1): MXNet's full reduction has shape (1,)) or literal "
        "ints; keepdims a literal bool (without it torch.atleast_1d: MXNet has no 0-d "
        "result); no exclude", rewrite))


_reduction("sum", "sum")
_reduction("mean", "mean")
_reduction("max", "amax")
_reduction("min", "amin")


def _bound(node: ast.AST):
    """A literal number, or float('inf') / float('-inf') / -float('inf') as a float."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _bound(node.operand)
        return -inner if isinstance(inner, float) else _literal(node)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
            and node.func.id == "float" and len(node.args) == 1 and not node.keywords:
        text = _literal(node.args[0])
        if isinstance(text, str) and text.strip().lower() in ("inf", "+inf", "-inf"):
            return float(text)
    return _literal(node)


@_rule("nd-clip", ["mx.nd.clip"], "nd.clip(x, 0, 1)", "torch.clamp(x, 0, 1)",
       "data and literal bounds a_min <= a_max (float('inf') counts), nothing else (with "
       "a_min > a_max MXNet gives a_min, torch a_max)")
def _clip(site, analysis, text_of):
    args = _bind(_call(site), ("data", "a_min", "a_max"), 3)
    if args is None:
        return None
    low, high = _bound(args["a_min"]), _bound(args["a_max"])
    numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (low, high))
    if not numbers or low > high:  # MXNet gives a_min where a_min > a_max, torch a_max
        return None
    return (f"torch.clamp({text_of(args['data'])}, {text_of(args['a_min'])}, "
            f"{text_of(args['a_max'])})")


def _softmax(op: str, params: tuple[str, ...], module: str = "nd") -> None:
    def rewrite(site, analysis, text_of):
        args = _bind(_call(site), params, 1)
        if args is None or "length" in args:
            return None
        dim = text_of(args["axis"]) if "axis" in args else "-1"
        return f"torch.{op}({text_of(args['data'])}, dim={dim})"
    _RULES.append(Rule(f"{module}-{op.replace('_', '-')}", (f"mx.{module}.{op}",),
                       f"{module}.{op}(x)", f"torch.{op}(x, dim=-1)",
                       "data and axis only (MXNet's default axis -1 written out); no "
                       "temperature, dtype or length", rewrite))


# MXNet 1.9.1's signatures: softmax(data, length, axis, ...), log_softmax(data, axis, ...)
_softmax("softmax", ("data", "length", "axis"))
_softmax("log_softmax", ("data", "axis"))


@_rule("nd-flatten", ["mx.nd.flatten", "mx.nd.Flatten"], "nd.flatten(x)", "torch.flatten(x, 1)",
       "one argument; MXNet keeps axis 0 and joins the rest, torch.flatten(x, 1) too (a 1-D "
       "input, (n,) → (n, 1) in MXNet, raises in torch)")
def _flatten(site, analysis, text_of):
    args = _bind(_call(site), ("data",), 1)
    return None if args is None else f"torch.flatten({text_of(args['data'])}, 1)"


def _number(node: ast.AST | None, default: float) -> float | None:
    """A literal int or float (signs included); ``default`` for an absent argument."""
    if node is None:
        return default
    v = _literal(node)
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def _device(args: dict, analysis: Analysis, text_of: TextOf) -> str | None:
    """``, device=<ctx>`` for a ctx given (one device, not a list), ``""`` for none or
    None, else None."""
    ctx = args.get("ctx")
    if ctx is None or _literal(ctx) is None:
        return ""
    if isinstance(ctx, (ast.List, ast.Tuple)) or _list_context(analysis, ctx):
        return None
    return f", device={text_of(ctx)}"


def _sampler(op: str, low_name: str, high_name: str, defaults: tuple, torch_fill: str,
             names: tuple[str, ...]) -> None:
    def rewrite(site, analysis, text_of):
        args = _bind(_call(site), (low_name, high_name, "shape", "dtype", "ctx"))
        if args is None or "shape" not in args:
            return None
        a = _number(args.get(low_name), defaults[0])
        b = _number(args.get(high_name), defaults[1])
        dt, dev = _dtype(args.get("dtype")), _device(args, analysis, text_of)
        if a is None or b is None or dt is None or dev is None:
            return None   # an NDArray of parameters samples per element: another shape
        return (f"torch.empty({text_of(args['shape'])}, dtype={dt}{dev}).{torch_fill}("
                f"{a!r}, {b!r})")
    _RULES.append(Rule(
        f"nd-random-{op}", names, f"nd.random.{op}({defaults[0]}, {defaults[1] * 2}, "
        "shape=(2, 3))",
        f"torch.empty((2, 3), dtype=torch.float32).{torch_fill}({defaults[0]!r}, "
        f"{float(defaults[1] * 2)!r})",
        f"{low_name} and {high_name} numbers (literal; an NDArray of them samples per element), "
        "shape given, dtype absent (float32) or a literal string, ctx one device: the same "
        "distribution, other numbers (another generator)", rewrite))


_sampler("normal", "loc", "scale", (0.0, 1.0), "normal_",
         ("mx.nd.random.normal", "mx.random.normal", "mx.nd.normal"))
_sampler("uniform", "low", "high", (0.0, 1.0), "uniform_",
         ("mx.nd.random.uniform", "mx.random.uniform", "mx.nd.uniform"))


@_helper_rule("get-mnist", ["mx.test_utils.get_mnist"], "mx.test_utils.get_mnist()",
              "gluon_get_mnist()",
              "no arguments: the helper reads the four gzipped IDX files in the working "
              "directory, as MXNet does, downloading each one missing there (torchvision's "
              "mirrors), into MXNet's dict of numpy arrays", ["gluon_get_mnist"])
def _get_mnist(site, analysis, text_of):
    call = _call(site)
    return "gluon_get_mnist()" if call is not None and not call.args \
        and not call.keywords else None


@_rule("nd-random-randint", ["mx.nd.random.randint", "mx.random.randint"],
       "nd.random.randint(0, 10, shape=(2, 3))",
       "torch.randint(0, 10, (2, 3), dtype=torch.int32)",
       "low and high given (ints: MXNet takes no arrays here), shape given, dtype absent "
       "(MXNet's int32, written out) or a literal 'int32'/'int64', ctx one device: the same "
       "integers in [low, high), other numbers (another generator)")
def _randint(site, analysis, text_of):
    args = _bind(_call(site), ("low", "high", "shape", "dtype", "ctx"), 3)
    if args is None:
        return None
    dt = _dtype(args.get("dtype"), "int32")
    dev = _device(args, analysis, text_of)
    if dt not in ("torch.int32", "torch.int64") or dev is None:
        return None
    return (f"torch.randint({text_of(args['low'])}, {text_of(args['high'])}, "
            f"{text_of(args['shape'])}, dtype={dt}{dev})")


@_rule("nd-random-randn", ["mx.nd.random.randn", "mx.random.randn"],
       "nd.random.randn(2, 3)", "torch.randn((2, 3), dtype=torch.float32)",
       "the shape as positional ints or names, loc 0 and scale 1 (absent), dtype absent "
       "(float32) or a literal string, ctx one device: the same distribution, other numbers")
def _randn(site, analysis, text_of):
    call = _call(site)
    if call is None or not call.args or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    kw = {k.arg: k.value for k in call.keywords}
    if None in kw or set(kw) - {"loc", "scale", "dtype", "ctx"} \
            or _number(kw.get("loc"), 0.0) != 0 or _number(kw.get("scale"), 1.0) != 1:
        return None
    dt, dev = _dtype(kw.get("dtype")), _device(kw, analysis, text_of)
    if dt is None or dev is None:
        return None
    shape = ", ".join(text_of(a) for a in call.args)
    return f"torch.randn(({shape}{',' if len(call.args) == 1 else ''}), dtype={dt}{dev})"


_ND_ACTIVATIONS = {"relu": "torch.relu", "sigmoid": "torch.sigmoid", "tanh": "torch.tanh",
                   "softrelu": "torch.nn.functional.softplus",
                   "softsign": "torch.nn.functional.softsign"}


@_rule("nd-activation", ["mx.nd.Activation"], "nd.Activation(x, act_type='relu')",
       "torch.relu(x)",
       "act_type a literal: relu, sigmoid, tanh, softrelu (softplus) or softsign (MXNet "
       "1.9.1's five); data only beside it")
def _nd_activation(site, analysis, text_of):
    args = _bind(_call(site), ("data", "act_type"), 2)
    act = _literal(args["act_type"]) if args else _NO
    if not isinstance(act, str) or act not in _ND_ACTIVATIONS:
        return None
    return f"{_ND_ACTIVATIONS[act]}({text_of(args['data'])})"


@_rule("nd-split", ["mx.nd.split", "mx.nd.SliceChannel"], "nd.split(x, 2)",
       "torch.tensor_split(x, 2, dim=1)",
       "num_outputs a literal int of at least 2 (with 1 MXNet returns the array, not a list); "
       "MXNet's default axis 1 written out; squeeze_axis=True → torch.unbind (MXNet then "
       "needs num_outputs equal to the axis length); a tuple where MXNet gives a list")
def _nd_split(site, analysis, text_of):
    args = _bind(_call(site), ("data", "num_outputs", "axis", "squeeze_axis"), 2)
    n = _literal(args["num_outputs"]) if args else _NO
    if not _is_int(n) or n < 2:
        return None
    squeeze = _literal(args.get("squeeze_axis"), False)
    if squeeze not in (True, False):
        return None
    dim = text_of(args["axis"]) if "axis" in args else "1"
    if squeeze:
        return f"torch.unbind({text_of(args['data'])}, dim={dim})"
    return f"torch.tensor_split({text_of(args['data'])}, {text_of(args['num_outputs'])}, dim={dim})"


_pass_on("nd-split-helper", ["mx.nd.split", "mx.nd.SliceChannel"], "nd.split(x, n, axis=0)",
         "gluon_split(x, n, axis=0)",
         "where nd-split declines (num_outputs not a literal of 2 or more, squeeze_axis an "
         "expression): the helper cuts as MXNet, checks what MXNet checks, and gives a list, "
         "or the one part itself", "gluon_split", ("data", "num_outputs", "axis", "squeeze_axis"),
         2)


def _binary_helper(op: str):
    @_helper_rule(f"nd-{op}", [f"mx.nd.{op}"], f"nd.{op}(x, 0.5)", f"gluon_{op}(x, 0.5)",
                  "two arguments, arrays or numbers: a number is cast to the array's dtype "
                  "first, as MXNet's scalar operators do (torch.clamp with a float bound would "
                  "turn an int array into floats); two arrays broadcast in both",
                  [f"gluon_{op}"])
    def rewrite(site, analysis, text_of):
        args = _bind(_call(site), ("lhs", "rhs"), 2)
        if args is None:
            return None
        return f"gluon_{op}({text_of(args['lhs'])}, {text_of(args['rhs'])})"


_binary_helper("maximum")
_binary_helper("minimum")


@_rule("nd-batch-dot", ["mx.nd.batch_dot", "mx.npx.batch_dot"], "nd.batch_dot(a, b, transpose_b=True)",
       "torch.matmul(a, b.transpose(-2, -1))",
       "transpose_a/transpose_b literal bools (the last two axes swapped); inputs of rank 3 "
       "or more with the same batch axes, as MXNet requires")
def _batch_dot(site, analysis, text_of):
    args = _bind(_call(site), ("lhs", "rhs", "transpose_a", "transpose_b"), 2)
    if args is None:
        return None
    parts = []
    for side, flag in (("lhs", "transpose_a"), ("rhs", "transpose_b")):
        t = _literal(args.get(flag), False)
        if t not in (True, False):
            return None
        text = text_of(args[side])
        parts.append(f"{_atom(args[side], text)}.transpose(-2, -1)" if t else text)
    return f"torch.matmul({parts[0]}, {parts[1]})"


@_rule("nd-dot", ["mx.nd.dot"], "nd.dot(a, b)",
       "torch.atleast_1d(torch.tensordot(a, b, dims=1))",
       "no transpose_a/transpose_b: the sum over a's last axis and b's first, for any ranks "
       "(MXNet's dot); torch.atleast_1d because MXNet gives two vectors' dot shape (1,)")
def _nd_dot(site, analysis, text_of):
    args = _bind(_call(site), ("lhs", "rhs", "transpose_a", "transpose_b"), 2)
    if args is None or not _absent_or(args, "transpose_a", False) \
            or not _absent_or(args, "transpose_b", False):
        return None
    return (f"torch.atleast_1d(torch.tensordot({text_of(args['lhs'])}, "
            f"{text_of(args['rhs'])}, dims=1))")


@_rule("nd-squeeze", ["mx.nd.squeeze"], "nd.squeeze(x, axis=1)",
       "torch.atleast_1d(torch.squeeze(x, 1))",
       "axis absent or literal ints; torch.atleast_1d because MXNet keeps one axis where all "
       "would go ((1, 1) → (1,))")
def _nd_squeeze(site, analysis, text_of):
    squeezed = _squeezed(_bind(_call(site), ("data", "axis"), 1), "data", text_of)
    return None if squeezed is None else f"torch.atleast_1d({squeezed})"


def _squeezed(args: dict | None, data: str, text_of) -> str | None:
    """``torch.squeeze(x, axes)`` for squeeze's arguments: axis absent or literal ints."""
    if args is None:
        return None
    axis = _literal(args.get("axis"), None)
    if axis is not None and not _int_axes(axis):
        return None
    dim = "" if axis is None else \
        f", {_tuple_text(tuple(axis) if isinstance(axis, list) else axis)}"
    return f"torch.squeeze({text_of(args[data])}{dim})"


def _simple_name(node: ast.AST) -> bool:
    """A name or a chain of attributes of one (``x``, ``self.out``): safe to write twice."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


def _arg_reduced(op: str, data: str, args: dict) -> str | None:
    """torch's argmax/argmin of ``data`` (a name's text) for MXNet's ``axis`` and
    ``keepdims`` in ``args``, in data's dtype, or None."""
    axis, keep = _literal(args.get("axis"), None), _literal(args.get("keepdims"), False)
    if keep not in (True, False) or (axis is not None and not _is_int(axis)):
        return None
    if axis is None:   # the flat index, shape (1,) in MXNet
        return None if keep else f"torch.{op}({data}).reshape(1).to({data}.dtype)"
    found = f"torch.{op}({data}, dim={axis}" + (", keepdim=True)" if keep else ")")
    return f"{found}.to({data}.dtype)" if keep else \
        f"torch.atleast_1d({found}).to({data}.dtype)"


def _arg_reduction(op: str) -> None:
    def rewrite(site, analysis, text_of):
        args = _bind(_call(site), ("data", "axis", "keepdims"), 1)
        if args is None or not _simple_name(args["data"]):
            return None
        return _arg_reduced(op, text_of(args["data"]), args)

    def method(site, analysis, text_of):
        recv, args = _receiver(site), _bind(_call(site), ("axis", "keepdims"))
        if recv is None or args is None or site.how == "guessed" or not _simple_name(recv):
            return None
        return _arg_reduced(op, text_of(recv), args)
    _RULES.append(Rule(
        f"ndarray-{op}", (f"mx.nd.NDArray.{op}",), f"x.{op}(axis=1)",
        f"torch.atleast_1d(torch.{op}(x, dim=1)).to(x.dtype)",
        f"the method form of nd.{op} (nd-{op}): the receiver a name known to be an NDArray",
        method))
    _RULES.append(Rule(
        f"nd-{op}", (f"mx.nd.{op}",), f"nd.{op}(x, axis=1)",
        f"torch.atleast_1d(torch.{op}(x, dim=1)).to(x.dtype)",
        "data a name (written twice); axis absent (the flat index, shape (1,)) or a literal "
        f"int; keepdims a literal bool; MXNet's {op} gives the indices in the input's dtype "
        "(float32 for a float32 input), torch int64: .to(x.dtype) keeps MXNet's", rewrite))


_arg_reduction("argmax")
_arg_reduction("argmin")


_COMPARE_OPS = {"mx.nd.equal": "==", "mx.nd.not_equal": "!=", "mx.nd.lesser": "<",
                "mx.nd.lesser_equal": "<=", "mx.nd.greater": ">", "mx.nd.greater_equal": ">="}


@_helper_rule("nd-compare", tuple(_COMPARE_OPS), "x == y", "gluon_compare(x, y, '==')",
              "a comparison (==, !=, <, <=, >, >=) with a legacy NDArray on one side, or "
              "nd.equal / not_equal / lesser / lesser_equal / greater / greater_equal(lhs, "
              "rhs): MXNet's 0/1 array in the operands' dtype, where torch gives bool (its "
              "mean() raises, its sum() is int64)", ["gluon_compare"])
def _nd_compare(site, analysis, text_of):
    op = _COMPARE_OPS[site.name]
    node = site.node
    if isinstance(node, ast.Compare):
        lhs, rhs = node.left, node.comparators[0]
    else:
        args = _bind(_call(site), ("lhs", "rhs", "name"), 2)
        if args is None:
            return None
        lhs, rhs = args["lhs"], args["rhs"]
    return f"gluon_compare({text_of(lhs)}, {text_of(rhs)}, {op!r})"




@_rule("nd-concatenate", ["mx.nd.concatenate"], "nd.concatenate([x, y], axis=1)",
       "torch.cat([x, y], dim=1)",
       "a list of arrays and a literal axis (default 0, written out); always_copy absent or "
       "True (torch.cat always copies)")
def _concatenate(site, analysis, text_of):
    args = _bind(_call(site), ("arrays", "axis", "always_copy"), 1)
    if args is None or not _absent_or(args, "always_copy", True) \
            or not _is_int(_literal(args.get("axis"), 0)):
        return None
    return f"torch.cat({text_of(args['arrays'])}, dim={_literal(args.get('axis'), 0)})"


def _plain_shape(v) -> bool:
    """A shape whose entries are positive ints and at most one -1 (MXNet's 0, -2, -3, -4
    are special codes)."""
    return isinstance(v, (tuple, list)) and bool(v) and all(
        _is_int(d) and (d > 0 or d == -1) for d in v) and list(v).count(-1) <= 1


@_rule("nd-reshape", ["mx.nd.reshape", "mx.nd.Reshape"], "nd.reshape(x, shape=(2, -1))",
       "torch.reshape(x, (2, -1))",
       "shape a literal of positive ints and at most one -1; no reverse")
def _reshape(site, analysis, text_of):
    args = _bind(_call(site), ("data", "shape"), 2)
    shape = _literal(args["shape"]) if args else _NO
    if args is None or not _plain_shape(shape):
        return None
    return f"torch.reshape({text_of(args['data'])}, {_tuple_text(tuple(shape))})"


@_rule("ndarray-reshape", ["mx.nd.NDArray.reshape", "mx.np.ndarray.reshape"], "x.reshape((2, -1))",
       "torch.reshape(x, (2, -1))",
       "receiver an NDArray; the shape as one literal tuple, as ints, or shape=; positive ints "
       "and at most one -1; no reverse")
def _method_reshape(site, analysis, text_of):
    call, recv = _call(site), _receiver(site)
    if call is None or recv is None or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    if call.keywords:
        if call.args or len(call.keywords) != 1 or call.keywords[0].arg != "shape":
            return None
        shape = _literal(call.keywords[0].value)
    elif len(call.args) == 1:
        shape = _literal(call.args[0])
        shape = (shape,) if _is_int(shape) else shape
    else:
        shape = tuple(_literal(a) for a in call.args)
    if not _plain_shape(shape):
        return None
    return f"torch.reshape({text_of(recv)}, {_tuple_text(tuple(shape))})"


@_helper_rule("nd-reshape-codes", ["mx.nd.reshape", "mx.nd.Reshape"],
              "nd.reshape(x, shape=(0, -1))", "gluon_reshape(x, (0, -1))",
              "where nd-reshape declines: a shape with MXNet's codes (0, -2, -3, -4) or "
              "computed by the script, reverse: the helper works the shape out as MXNet does "
              "when the draft runs", ["gluon_reshape"])
def _reshape_codes(site, analysis, text_of):
    args = _bind(_call(site), ("data", "shape", "reverse"), 2)
    if args is None:
        return None
    return f"gluon_reshape({text_of(args['data'])}, {text_of(args['shape'])}" + (
        f", reverse={text_of(args['reverse'])})" if "reverse" in args else ")")


@_helper_rule("ndarray-reshape-codes", ["mx.nd.NDArray.reshape"], "x.reshape((0, 0, -1))",
              "gluon_reshape(x, (0, 0, -1))",
              "where ndarray-reshape declines, on an NDArray (not mx.np's, whose reshape has "
              "no codes): the shape as one tuple or list, as ints, or shape=, with MXNet's "
              "codes or computed by the script; reverse=", ["gluon_reshape"])
def _method_reshape_codes(site, analysis, text_of):
    call, recv = _call(site), _receiver(site)
    if call is None or recv is None or any(isinstance(a, ast.Starred) for a in call.args) \
            or any(k.arg not in ("shape", "reverse") for k in call.keywords):
        return None
    given = {k.arg: k.value for k in call.keywords}
    if call.args and "shape" in given or not call.args and "shape" not in given:
        return None
    if "shape" in given:
        shape = text_of(given["shape"])
    elif len(call.args) == 1:
        shape = text_of(call.args[0])
    else:
        shape = "(" + ", ".join(text_of(a) for a in call.args) + ")"
    return f"gluon_reshape({_atom(recv, text_of(recv))}, {shape}" + (
        f", reverse={text_of(given['reverse'])})" if "reverse" in given else ")")


def _normed(data: str, args: dict | None) -> str | None:
    """``torch.linalg.vector_norm`` of the text ``data`` for nd.norm's ord (1 or 2), axis and
    keepdims (no out_dtype): MXNet's full reduction has shape (1,), and it has no 0-d."""
    if args is None or "out_dtype" in args or not _absent_or(args, "keepdims", False, True):
        return None
    order = _literal(args.get("ord"), 2)
    axis = _literal(args.get("axis"), None)
    if order not in (1, 2) or isinstance(order, bool) or not (axis is None or _int_axes(axis)):
        return None
    keep = _literal(args.get("keepdims"), False)
    head = f"torch.linalg.vector_norm({data}, {order}"
    if axis is None:
        return f"{head}, keepdim=True)" if keep else f"{head}).reshape(1)"
    dim = _tuple_text(tuple(axis) if isinstance(axis, list) else axis)
    return f"{head}, dim={dim}, keepdim=True)" if keep else \
        f"torch.atleast_1d({head}, dim={dim}))"


@_rule("nd-norm", ["mx.nd.norm"], "nd.norm(x, axis=1)",
       "torch.atleast_1d(torch.linalg.vector_norm(x, 2, dim=1))",
       "ord a literal 1 or 2 (default 2), axis absent or literal ints, keepdims a literal "
       "bool, no out_dtype: the vector norm over those axes (all of them: shape (1,), as "
       "MXNet's)")
def _nd_norm(site, analysis, text_of):
    args = _bind(_call(site), ("data", "ord", "axis", "out_dtype", "keepdims"), 1)
    return None if args is None else _normed(text_of(args["data"]), args)


@_rule("ndarray-norm", ["mx.nd.NDArray.norm"], "x.norm(axis=1)",
       "torch.atleast_1d(torch.linalg.vector_norm(x, 2, dim=1))",
       "the method form of nd.norm on an NDArray (inferred), same arguments but data")
def _ndarray_norm(site, analysis, text_of):
    recv = _receiver(site)
    if recv is None or _call(site) is None or site.how == "guessed":
        return None
    return _normed(_atom(recv, text_of(recv)),
                   _bind(_call(site), ("ord", "axis", "out_dtype", "keepdims")))


@_helper_rule("ndarray-copyto", ["mx.nd.NDArray.copyto"], "x.copyto(y)", "gluon_copyto(x, y)",
              "a single positional argument: an array (x copied into it, cast to its dtype, and "
              "it returned) or a device (a new copy there), as MXNet's copyto decides when "
              "it runs", ["gluon_copyto"])
def _copyto(site, analysis, text_of):
    call, recv = _call(site), _receiver(site)
    if call is None or recv is None or call.keywords or len(call.args) != 1 \
            or isinstance(call.args[0], ast.Starred) or site.how == "guessed":
        return None
    return f"gluon_copyto({text_of(recv)}, {text_of(call.args[0])})"


@_helper_rule("ndarray-wait-to-read", ["mx.nd.NDArray.wait_to_read"], "x.wait_to_read()",
              "gluon_waitall()",
              "no arguments: MXNet waits for the array's pending writes (and returns None); "
              "PyTorch's CPU operations are done when they return, and the helper waits for a "
              "CUDA device's queue", ["gluon_waitall"])
def _wait_to_read(site, analysis, text_of):
    call = _call(site)
    if call is None or call.args or call.keywords:
        return None
    return "gluon_waitall()"


@_rule("nd-cast", ["mx.nd.cast", "mx.nd.Cast"], "nd.cast(x, 'float16')",
       "x.to(torch.float16, copy=True)",
       "dtype a literal string or a numpy type: a copy in that dtype (MXNet's cast copies "
       "even to the same dtype: .to(..., copy=True) there)")
def _nd_cast(site, analysis, text_of):
    args = _bind(_call(site), ("data", "dtype"), 2)
    dt = None if args is None else _dtype(args["dtype"], default=None,
                                          numpy_names=_numpy_names(analysis))
    return None if dt is None else \
        f"{_atom(args['data'], text_of(args['data']))}.to({dt}, copy=True)"


@_helper_rule("nd-clip-bounds", ["mx.nd.clip"], "nd.clip(x, low, high)",
              "gluon_clip(x, low, high)",
              "where nd-clip declines: bounds the script computes (numbers when it runs): "
              "MXNet's order of tests, which decides where a_min > a_max", ["gluon_clip"])
def _clip_bounds(site, analysis, text_of):
    args = _bind(_call(site), ("data", "a_min", "a_max"), 3)
    if args is None:
        return None
    return "gluon_clip(" + ", ".join(text_of(args[k]) for k in ("data", "a_min", "a_max")) + ")"


@_helper_rule("nd-sample-multinomial", ["mx.nd.sample_multinomial", "mx.nd.random.multinomial"],
              "nd.sample_multinomial(probs, get_prob=True)",
              "gluon_sample_multinomial(probs, get_prob=True)",
              "data (rows of class probabilities), shape, get_prob, dtype (a literal, default "
              "int32): MXNet's output shapes and the log-probabilities of the draws; the same "
              "distribution, other numbers", ["gluon_sample_multinomial"])
def _sample_multinomial(site, analysis, text_of):
    args = _bind(_call(site), ("data", "shape", "get_prob", "out", "dtype"), 1)
    if args is None or "out" in args or not isinstance(_literal(args.get("dtype"), "int32"),
                                                       str):
        return None
    return _helper_call("gluon_sample_multinomial", ("data", "shape", "get_prob", "out",
                                                     "dtype"), args, text_of, 1)


@_rule("nd-tile", ["mx.nd.tile"], "nd.tile(x, (3, 1, 1))", "torch.tile(x, (3, 1, 1))",
       "reps a literal int or tuple of positive ints (MXNet refuses 0): numpy's tile in both, "
       "leading ones added to the shorter of the two")
def _nd_tile(site, analysis, text_of):
    args = _bind(_call(site), ("data", "reps"), 2)
    reps = _literal(args["reps"]) if args else _NO
    reps = (reps,) if _is_int(reps) else reps
    if args is None or not isinstance(reps, (tuple, list)) or not reps \
            or not all(_is_int(r) and r > 0 for r in reps):
        return None
    return f"torch.tile({text_of(args['data'])}, {_tuple_text(tuple(reps))})"


@_rule("nd-flip", ["mx.nd.flip", "mx.nd.reverse"], "nd.flip(x, axis=1)", "torch.flip(x, (1,))",
       "axis a literal int or tuple of ints, none negative (MXNet refuses those): the array "
       "reversed along those axes")
def _nd_flip(site, analysis, text_of):
    args = _bind(_call(site), ("data", "axis"), 2)
    axis = _literal(args["axis"]) if args else _NO
    if args is None or not _int_axes(axis) or min((axis,) if _is_int(axis) else axis) < 0:
        return None
    dims = (axis,) if _is_int(axis) else tuple(axis)
    return f"torch.flip({text_of(args['data'])}, {_tuple_text(dims)})"


#: NDArray methods whose mx.np.ndarray namesake means the same (the rule takes both)
_NP_METHODS = {"asnumpy", "attach_grad", "as_in_context", "shape", "ndim", "T"}


def _method(name: str, mx_name: str, before: str, after: str, note: str, build) -> None:
    """A rule for a method (or attribute) of NDArray (and of mx.np.ndarray where
    :data:`_NP_METHODS` says): ``build(receiver_text, call)``."""
    def rewrite(site, analysis, text_of):
        recv = _receiver(site)
        if recv is None:
            return None
        if getattr(build, "wants_analysis", False):
            return build(_atom(recv, text_of(recv)), site.node, text_of, analysis)
        return build(_atom(recv, text_of(recv)), site.node, text_of)
    names = (f"mx.nd.NDArray.{mx_name}",) + (
        (f"mx.np.ndarray.{mx_name}",) if mx_name in _NP_METHODS else ())
    _RULES.append(Rule(name, names, before, after, note, rewrite))


def _no_args(fn):
    def build(recv, node, text_of):
        if not isinstance(node, ast.Call) or node.args or node.keywords:
            return None
        return fn(recv)
    return build


def _method_broadcast_to(recv, node, text_of):
    args = _bind(node, ("shape",), 1) if isinstance(node, ast.Call) else None
    shape = _broadcast_shape(args["shape"], text_of, zero=1) if args else None
    return None if shape is None else f"{recv}.broadcast_to({shape})"


_method("ndarray-broadcast-to", "broadcast_to", "x.broadcast_to((2, 0))",
        "x.broadcast_to((2, 1))",
        "shape only; the method (unlike the operator) pads the input with leading 1s and "
        "allows a 0 only where the input has 1, which it keeps: 1 in torch's shape",
        _method_broadcast_to)
RULE_HELPERS["ndarray-broadcast-to"] = ("gluon_broadcast_shape",)


_method("asnumpy", "asnumpy", "x.asnumpy()", "x.detach().cpu().numpy()",
        "no arguments; detach and cpu so that it works for any tensor",
        _no_args(lambda r: f"{r}.detach().cpu().numpy()"))
_method("asscalar", "asscalar", "x.asscalar()", "x.item()",
        "no arguments; the value is the same (a Python number, not a numpy scalar)",
        _no_args(lambda r: f"{r}.item()"))
_method("attach-grad", "attach_grad", "x.attach_grad()", "x.requires_grad_()",
        "no arguments (grad_req='write'); x.grad is then filled by backward",
        _no_args(lambda r: f"{r}.requires_grad_()"))


def _as_in_context(recv, node, text_of):
    if not isinstance(node, ast.Call) or node.keywords or len(node.args) != 1 \
            or isinstance(node.args[0], ast.Starred):
        return None
    return f"{recv}.to({text_of(node.args[0])})"


_method("as-in-context", "as_in_context", "x.as_in_context(ctx)", "x.to(ctx)",
        "one positional context (a torch.device after the mx.cpu/mx.gpu rules); both return "
        "the array itself when it is already there", _as_in_context)


def _astype(recv, node, text_of, analysis):
    if not isinstance(node, ast.Call):
        return None
    args = _bind(node, ("dtype", "copy"), 1)
    if args is None or not _absent_or(args, "copy", True, False):
        return None
    dt = _dtype(args["dtype"], default=None, numpy_names=_numpy_names(analysis))
    if dt is None:
        return None
    copy = _literal(args.get("copy"), True)
    return f"{recv}.to({dt}" + (", copy=True)" if copy else ")")


_astype.wants_analysis = True
_method("astype", "astype", "x.astype('float64')", "x.to(torch.float64, copy=True)",
        "dtype a literal string or a numpy type (np.float32); copy a literal bool (MXNet copies by default, even to the same "
        "dtype, so copy=True is written; copy=False gives .to(dtype))", _astype)


def _context(recv, node, text_of):
    if not isinstance(node, ast.Attribute) or not isinstance(node.ctx, ast.Load):
        return None
    return f"{recv}.device"


_method("context", "context", "x.context", "x.device",
        "read, not assigned; the device the array lives on", _context)


def _same_attribute(recv, node, text_of):
    if not isinstance(node, ast.Attribute) or not isinstance(node.ctx, ast.Load):
        return None
    return f"{recv}.{node.attr}"


_method("shape", "shape", "x.shape", "x.shape",
        "read, not assigned: a tuple of ints in both (torch.Size is a tuple)", _same_attribute)
_method("ndim", "ndim", "x.ndim", "x.ndim", "read, not assigned: the number of axes in both",
        _same_attribute)


def _read_attribute(fn):
    def build(recv, node, text_of):
        if not isinstance(node, ast.Attribute) or not isinstance(node.ctx, ast.Load):
            return None
        return fn(recv)
    return build


_method("ndarray-size", "size", "x.size", "x.numel()",
        "read, not assigned: the number of elements, an int in both (torch's x.size is a "
        "method: the shape)", _read_attribute(lambda r: f"{r}.numel()"))
def _reversed_axes(recv, node, text_of):
    """``x.permute(*range(x.ndim - 1, -1, -1))``: the receiver written twice, so a name or
    an attribute chain only (a call would run twice)."""
    if not _simple_name(node.value if isinstance(node, ast.Attribute) else node.func.value):
        return None
    return f"{recv}.permute(*range({recv}.ndim - 1, -1, -1))"


def _t_attribute(recv, node, text_of):
    if not isinstance(node, ast.Attribute) or not isinstance(node.ctx, ast.Load):
        return None
    return _reversed_axes(recv, node, text_of)


_method("ndarray-t", "T", "x.T", "x.permute(*range(x.ndim - 1, -1, -1))",
        "read, not assigned, on a name or an attribute chain: every axis reversed, any rank "
        "(torch's .T is for 2-D tensors and deprecated on others); a 0-D or 1-D array is "
        "itself in both", _t_attribute)


def _t_of_call(recv, node, text_of):
    if not isinstance(node, ast.Attribute) or not isinstance(node.ctx, ast.Load) \
            or _simple_name(node.value):
        return None
    return f"gluon_reverse_axes({recv})"


_method("ndarray-t-expression", "T", "nd.exp(x).T", "gluon_reverse_axes(torch.exp(x))",
        "read, not assigned, on any other expression (evaluated once): every axis reversed",
        _t_of_call)
RULE_HELPERS["ndarray-t-expression"] = ("gluon_reverse_axes",)


def _method_transpose(recv, node, text_of):
    if not isinstance(node, ast.Call) or any(isinstance(a, ast.Starred) for a in node.args):
        return None
    if node.keywords:
        if node.args or len(node.keywords) != 1 or node.keywords[0].arg != "axes":
            return None
        axes = _literal(node.keywords[0].value)
    elif not node.args:
        return _reversed_axes(recv, node, text_of)
    elif len(node.args) == 1:
        axes = _literal(node.args[0])
    else:           # x.transpose(1, 0): MXNet refuses the axes as separate ints
        return None
    if not isinstance(axes, (tuple, list)) or not _int_axes(axes):
        return None
    return f"{recv}.permute{_tuple_text(tuple(axes))}" if len(axes) > 1 else \
        f"{recv}.permute({axes[0]!r})"


_method("ndarray-transpose", "transpose", "x.transpose((0, 2, 1))", "x.permute(0, 2, 1)",
        "axes as one literal tuple or axes=; none: every axis reversed (a name or "
        "an attribute chain); MXNet's transpose permutes, torch's transpose(a, b) swaps two",
        _method_transpose)


@_rule("mx-cpu", ["mx.cpu"], "mx.cpu()", "torch.device('cpu')",
       "at most a device id (torch has one CPU device)")
def _cpu(site, analysis, text_of):
    return None if _bind(_call(site), ("device_id",)) is None else "torch.device('cpu')"


@_rule("mx-gpu", ["mx.gpu"], "mx.gpu(1)", "torch.device('cuda', 1)",
       "at most a device id (default 0, written out)")
def _gpu(site, analysis, text_of):
    args = _bind(_call(site), ("device_id",))
    if args is None:
        return None
    return f"torch.device('cuda', {text_of(args['device_id']) if args else '0'})"


# -- layers -----------------------------------------------------------------------------

def _bias(args: dict, text_of: TextOf) -> str | None:
    """``, bias=False`` for use_bias given (a literal bool, or a name or attribute, whose
    truth both frameworks read alike), ``""`` if absent, ``None`` for anything else."""
    if "use_bias" not in args:
        return ""
    v = _literal(args["use_bias"])
    if isinstance(v, bool):
        return f", bias={v!r}"
    return f", bias={text_of(args['use_bias'])}" if _simple_name(args["use_bias"]) else None


#: ``prefix=`` names a block's parameters in Gluon and means nothing to PyTorch (its
#: parameters are named by attribute path): every layer rule accepts it and drops it
_DENSE = ("units", "activation", "use_bias", "flatten", "dtype", "weight_initializer",
          "bias_initializer", "in_units", "prefix")


def _dense(flatten: bool):
    def rewrite(site, analysis, text_of):
        args = _bind(_call(site), _DENSE, 1)
        if args is None or "in_units" not in args or not _absent_or(args, "activation", None) \
                or any(k in args for k in ("dtype", "weight_initializer", "bias_initializer")):
            return None
        if not (_absent_or(args, "flatten", True) if flatten
                else "flatten" in args and _absent_or(args, "flatten", False)):
            return None
        if _literal(args["in_units"]) == 0:
            return None
        bias = _bias(args, text_of)
        if bias is None:
            return None
        linear = f"torch.nn.Linear({text_of(args['in_units'])}, {text_of(args['units'])}{bias})"
        return f"torch.nn.Sequential(torch.nn.Flatten(), {linear})" if flatten else linear
    return rewrite


_RULES.append(Rule(
    "dense-to-linear", ("mx.gluon.nn.Dense",), "nn.Dense(3, in_units=4, flatten=False)",
    "torch.nn.Linear(4, 3)",
    "flatten=False (Linear acts on the last axis), in_units given, no activation, dtype or "
    "initialisers; use_bias a literal → bias=", _dense(False)))
_RULES.append(Rule(
    "dense-flatten-to-linear", ("mx.gluon.nn.Dense",), "nn.Dense(3, in_units=4)",
    "torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(4, 3))",
    "flatten absent or True: Dense first joins all axes after the first, so an N-D input "
    "needs the Flatten (weights: [1].weight); in_units given, no activation, dtype or "
    "initialisers", _dense(True)))

_CONV = ("channels", "kernel_size", "strides", "padding", "dilation", "groups", "layout",
         "activation", "use_bias", "weight_initializer", "bias_initializer", "in_channels",
         "prefix")


@_rule("conv2d", ["mx.gluon.nn.Conv2D"], "nn.Conv2D(8, 3, padding=1, in_channels=4)",
       "torch.nn.Conv2d(4, 8, 3, padding=1)",
       "in_channels given, layout NCHW, no activation or initialisers; strides/padding/"
       "dilation/groups map one to one (same defaults), use_bias a literal → bias=")
def _conv2d(site, analysis, text_of):
    args = _bind(_call(site), _CONV, 2)
    if args is None or "in_channels" not in args or _literal(args["in_channels"]) == 0 \
            or not _absent_or(args, "layout", "NCHW") \
            or not _absent_or(args, "activation", None) \
            or any(k in args for k in ("weight_initializer", "bias_initializer")):
        return None
    bias = _bias(args, text_of)
    if bias is None:
        return None
    extra = "".join(f", {t}={text_of(args[m])}" for m, t in (
        ("strides", "stride"), ("padding", "padding"), ("dilation", "dilation"),
        ("groups", "groups")) if m in args)
    return (f"torch.nn.Conv2d({text_of(args['in_channels'])}, {text_of(args['channels'])}, "
            f"{text_of(args['kernel_size'])}{extra}{bias})")


def _pool(kind: str, params: tuple[str, ...], dims: int = 2, layout: str = "NCHW"):
    def rewrite(site, analysis, text_of):
        args = _bind(_call(site), params)
        if args is None or not _absent_or(args, "layout", layout) \
                or not _absent_or(args, "ceil_mode", False) \
                or not _absent_or(args, "count_include_pad", True, False):
            return None
        size = text_of(args["pool_size"]) if "pool_size" in args else "2"
        extra = "".join(f", {t}={text_of(args[m])}" for m, t in (
            ("strides", "stride"), ("padding", "padding"),
            ("count_include_pad", "count_include_pad")) if m in args)
        return f"torch.nn.{kind}{dims}d({size}{extra})"
    return rewrite


_RULES.append(Rule(
    "maxpool2d", ("mx.gluon.nn.MaxPool2D",), "nn.MaxPool2D(3, strides=2, padding=1)",
    "torch.nn.MaxPool2d(3, stride=2, padding=1)",
    "layout NCHW, ceil_mode absent/False (MXNet's 'full' convention differs at the border); "
    "pool_size default 2 written out; strides None → pool size in both",
    _pool("MaxPool", ("pool_size", "strides", "padding", "layout", "ceil_mode", "prefix"))))
_RULES.append(Rule(
    "avgpool2d", ("mx.gluon.nn.AvgPool2D",), "nn.AvgPool2D(2, padding=1)",
    "torch.nn.AvgPool2d(2, padding=1)",
    "layout NCHW, ceil_mode absent/False; count_include_pad a literal (default True in both)",
    _pool("AvgPool", ("pool_size", "strides", "padding", "ceil_mode", "layout",
                      "count_include_pad", "prefix"))))

for _d, _layout in ((1, "NCW"), (3, "NCDHW")):
    _RULES.append(Rule(
        f"maxpool{_d}d", (f"mx.gluon.nn.MaxPool{_d}D",), f"nn.MaxPool{_d}D(3, strides=2)",
        f"torch.nn.MaxPool{_d}d(3, stride=2)",
        f"layout {_layout}, ceil_mode absent/False; pool_size default 2 written out; strides "
        "None → pool size in both",
        _pool("MaxPool", ("pool_size", "strides", "padding", "layout", "ceil_mode", "prefix"),
              _d, _layout)))
    _RULES.append(Rule(
        f"avgpool{_d}d", (f"mx.gluon.nn.AvgPool{_d}D",), f"nn.AvgPool{_d}D(2)",
        f"torch.nn.AvgPool{_d}d(2)",
        f"layout {_layout}, ceil_mode absent/False; count_include_pad a literal (default True "
        "in both)",
        _pool("AvgPool", ("pool_size", "strides", "padding", "ceil_mode", "layout",
                          "count_include_pad", "prefix"), _d, _layout)))


def _global_pool(kind: str, dims: int):
    def rewrite(site, analysis, text_of):
        layout = {1: "NCW", 2: "NCHW", 3: "NCDHW"}[dims]
        args = _bind(_call(site), ("layout", "prefix"))
        if args is None or not _absent_or(args, "layout", layout):
            return None
        return f"torch.nn.Adaptive{kind}Pool{dims}d(1)"
    return rewrite


for _d in (1, 2, 3):
    for _kind in ("Avg", "Max"):
        _RULES.append(Rule(
            f"global-{_kind.lower()}pool{_d}d", (f"mx.gluon.nn.Global{_kind}Pool{_d}D",),
            f"nn.Global{_kind}Pool{_d}D()", f"torch.nn.Adaptive{_kind}Pool{_d}d(1)",
            "channels-first layout: one value per channel, the spatial axes kept with size 1 "
            "in both", _global_pool(_kind, _d)))


_RNN = {"LSTM": ("hidden_size", "num_layers", "layout", "dropout", "bidirectional",
                 "input_size", "i2h_weight_initializer", "h2h_weight_initializer",
                 "i2h_bias_initializer", "h2h_bias_initializer", "projection_size",
                 "h2r_weight_initializer", "state_clip_min", "state_clip_max",
                 "state_clip_nan", "dtype", "prefix", "params"),
        "GRU": ("hidden_size", "num_layers", "layout", "dropout", "bidirectional",
                "input_size", "i2h_weight_initializer", "h2h_weight_initializer",
                "i2h_bias_initializer", "h2h_bias_initializer", "dtype", "prefix", "params"),
        "RNN": ("hidden_size", "num_layers", "activation", "layout", "dropout",
                "bidirectional", "i2h_weight_initializer", "h2h_weight_initializer",
                "i2h_bias_initializer", "h2h_bias_initializer", "input_size", "dtype",
                "prefix", "params")}


def _rnn(kind: str, dropping: bool = False):
    def rewrite(site, analysis, text_of):
        args = _bind(_call(site), _RNN[kind], 1)
        scoped = not _absent_or(args or {}, "dropout", 0, 0.0)   # it drops in training
        if args is None or scoped != dropping or _lazy_or_sized(args, "input_size") is None \
                or (scoped and not _scoped_file(analysis)) \
                or not _absent_or(args, "layout", "TNC", "NTC") \
                or not _absent_or(args, "dtype", "float32") \
                or not _absent_or(args, "activation", "relu", "tanh") \
                or not _absent_or(args, "i2h_bias_initializer", "zeros") \
                or not _absent_or(args, "h2h_bias_initializer", "zeros") \
                or any(k in args for k in ("i2h_weight_initializer", "h2h_weight_initializer",
                                           "projection_size", "h2r_weight_initializer",
                                           "state_clip_min", "state_clip_max",
                                           "state_clip_nan", "params")):
            return None
        bidirectional = args.get("bidirectional")
        if bidirectional is not None and not isinstance(_literal(bidirectional), bool) \
                and not _simple_name(bidirectional):
            return None
        parts = [repr(kind.lower())] + [f"{k}={text_of(args[k])}" for k in (
            "hidden_size", "num_layers", "layout", "bidirectional", "input_size",
            "activation", "dropout") if k in args]
        return f"gluon_scoped(gluon_rnn({', '.join(parts)}))" if scoped \
            else f"gluon_rnn({', '.join(parts)})"
    return rewrite


for _kind in ("LSTM", "GRU", "RNN"):
    _RULES.append(Rule(
        f"rnn-{_kind.lower()}", (f"mx.gluon.rnn.{_kind}",),
        f"gluon.rnn.{_kind}(20, 2, input_size=10)",
        f"gluon_rnn('{_kind.lower()}', hidden_size=20, num_layers=2, input_size=10)",
        "input_size given, or absent (or 0): the helper's layer is then lazy, its input "
        "weights sized by the first input as Gluon's; no dropout (rnn-*-dropout), "
        "initializers, projection or clipping; layout TNC or "
        "NTC (batch_first); the helper keeps Gluon's call: the output alone without states, "
        "(output, [states]) with them, begin_state()", _rnn(_kind)))
    RULE_HELPERS[f"rnn-{_kind.lower()}"] = ("gluon_rnn",)
    _RULES.append(Rule(
        f"rnn-{_kind.lower()}-dropout", (f"mx.gluon.rnn.{_kind}",),
        f"gluon.rnn.{_kind}(20, 2, dropout=0.5)",
        f"gluon_scoped(gluon_rnn('{_kind.lower()}', hidden_size=20, num_layers=2, "
        "dropout=0.5))",
        f"as rnn-{_kind.lower()}, with dropout between layers, in a file whose layers follow "
        "Gluon's scope (as dropout-scoped): torch's layer drops between its layers when it "
        "trains, and gluon_scoped makes it train inside autograd.record() only",
        _rnn(_kind, dropping=True)))
    RULE_HELPERS[f"rnn-{_kind.lower()}-dropout"] = ("gluon_rnn", "gluon_scoped")


_RNN_LAYERS = {f"mx.gluon.rnn.{k}": k for k in ("LSTM", "GRU", "RNN")}
#: nd.zeros / nd.ones handed to begin_state as its func: helpers of MXNet's signature
#: (shape, ctx, dtype), which the draft's layer (gluon_rnn) calls as Gluon's does
_STATE_FUNCS = {"mx.nd.zeros": "gluon_nd_zeros", "mx.nd.ones": "gluon_nd_ones"}


def _drafted_rnn(analysis: Analysis, recv: ast.AST) -> bool:
    """Whether ``recv`` (a name, or ``self.rnn``) is, wherever the file assigns it (in the
    enclosing class for ``self.…``), a Gluon LSTM, GRU or RNN layer that an rnn rule rewrites
    to gluon_rnn, or a block of the scan's own classes (Gluon's Block has no begin_state:
    the call is that class's own method): one whose begin_state the draft keeps."""
    if not _simple_name(recv):
        return False
    target = ast.unparse(recv)
    values = _values_of(analysis, recv)
    if not values or any(v is None for v in values):
        return False
    for value in values:
        site = analysis.site_at(value)
        if site is None and isinstance(value, ast.Call) and analysis.qualname(value) is None \
                and analysis.types.get(target) == "mx.gluon.Block":
            continue   # model = RNNModel(…), a class of the file or of another of the scan
        kind = _RNN_LAYERS.get(site.name) if site is not None else None
        if kind is None or not (_rnn(kind)(site, analysis, ast.unparse)
                                or _rnn(kind, dropping=True)(site, analysis, ast.unparse)):
            return False
    return True


@_rule("rnn-begin-state", ["mx.gluon.Block.begin_state", "mx.gluon.rnn.LSTM.begin_state",
                           "mx.gluon.rnn.GRU.begin_state", "mx.gluon.rnn.RNN.begin_state"],
       "self.rnn.begin_state(batch_size=n, func=mx.nd.zeros, ctx=ctx)",
       "self.rnn.begin_state(batch_size=n, func=gluon_nd_zeros, ctx=ctx)",
       "the receiver a Gluon LSTM/GRU/RNN layer an rnn rule rewrote (wherever the file assigns "
       "it): the helper's layer keeps Gluon's begin_state (batch_size, func, ctx, dtype, or "
       "*args/**kwargs passed through); func absent, nd.zeros or nd.ones (→ gluon_nd_zeros, "
       "gluon_nd_ones: MXNet's signature)")
def _rnn_begin_state(site, analysis, text_of):
    call, recv = _call(site), _receiver(site)
    if call is None or recv is None or len(call.args) > 2 \
            or not _drafted_rnn(analysis, recv):
        return None
    if [type(a) for a in call.args] == [ast.Starred] and \
            all(k.arg is None for k in call.keywords) and len(call.keywords) <= 1:
        return f"{text_of(recv)}.begin_state({', '.join(text_of(a) for a in call.args)}" + \
            "".join(f", **{text_of(k.value)}" for k in call.keywords) + ")"   # passed on
    args = _bind(call, ("batch_size", "func", "ctx", "dtype"))
    if args is None:
        return None
    func = args.get("func")
    if func is not None:
        got = analysis.site_at(func)
        if got is None or got.name not in _STATE_FUNCS or isinstance(func, ast.Call):
            return None
        _consume(text_of, func)
    parts = [f"{k}={_STATE_FUNCS[analysis.site_at(args[k]).name] if k == 'func' else text_of(args[k])}"
             for k in ("batch_size", "func", "ctx", "dtype") if k in args]
    if call.args and "batch_size" in args and args["batch_size"] is call.args[0]:
        parts[0] = text_of(args["batch_size"])
    return f"{text_of(recv)}.begin_state({', '.join(parts)})"


@_rule("begin-state-func", ["mx.nd.zeros", "mx.nd.ones"],
       "model.begin_state(func=mx.nd.zeros, batch_size=n, ctx=ctx)",
       "model.begin_state(func=gluon_nd_zeros, batch_size=n, ctx=ctx)",
       "nd.zeros or nd.ones named (not called) as the func= of a begin_state call on the "
       "file's own block: a helper of MXNet's signature (shape, ctx, dtype), whatever that "
       "block's begin_state does with it (the draft's layer, gluon_rnn, calls it as Gluon's)")
def _begin_state_func(site, analysis, text_of):
    node = site.node
    if isinstance(node, ast.Call):
        return None
    keyword = _parents(analysis).get(id(node))
    call = _parents(analysis).get(id(keyword))
    if not (isinstance(keyword, ast.keyword) and keyword.arg == "func"
            and isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
            and call.func.attr == "begin_state" and analysis.site_at(call) is None):
        return None   # on a Gluon layer, rnn-begin-state rewrites the whole call
    return _STATE_FUNCS[site.name]


RULE_HELPERS["begin-state-func"] = ("gluon_nd_zeros", "gluon_nd_ones", "_gluon_nd_filled",
                                    "_np_dtype")
RULE_HELPERS["rnn-begin-state"] = RULE_HELPERS["begin-state-func"]


@_helper_rule("embedding", ["mx.gluon.nn.Embedding"], "nn.Embedding(1000, 64)",
              "gluon_embedding(1000, 64)",
              "input_dim and output_dim only (float32, dense gradient, the global "
              "initialiser): a torch.nn.Embedding (same weight, same state_dict) that reads "
              "indices as Gluon's does: float indices (MXNet's arrays are float32 by default; "
              "torch's Embedding raises on them) truncated to integers, out-of-range ones "
              "clipped to [0, input_dim)", ["gluon_embedding"])
def _embedding(site, analysis, text_of):
    args = _bind(_call(site), ("input_dim", "output_dim", "dtype", "weight_initializer",
                               "sparse_grad", "prefix"), 2)
    if args is None or not _absent_or(args, "dtype", "float32") \
            or not _absent_or(args, "sparse_grad", False) or "weight_initializer" in args:
        return None
    return f"gluon_embedding({text_of(args['input_dim'])}, {text_of(args['output_dim'])})"


@_helper_rule("embedding-initializer", ["mx.gluon.nn.Embedding"],
              "nn.Embedding(1000, 64, weight_initializer=mx.init.Uniform(0.1))",
              "gluon_embedding(1000, 64, weight_initializer=gluon_init_uniform(0.1))",
              "as embedding, with weight_initializer one the init-* rules rewrite: the "
              "helper's weight keeps it, and gluon_initialize draws the weight with it, not "
              "with initialize()'s, as Gluon does", ["gluon_embedding"])
def _embedding_initializer(site, analysis, text_of):
    args = _bind(_call(site), ("input_dim", "output_dim", "dtype", "weight_initializer",
                               "sparse_grad", "prefix"), 2)
    init = args.get("weight_initializer") if args else None
    if init is None or not _absent_or(args, "dtype", "float32") \
            or not _absent_or(args, "sparse_grad", False) \
            or not (isinstance(init, ast.Call) and analysis.site_at(init) is not None
                    and analysis.site_at(init).name in _INITS):
        return None
    return (f"gluon_embedding({text_of(args['input_dim'])}, {text_of(args['output_dim'])}, "
            f"weight_initializer={text_of(init)})")


_SHARING = ("mx.gluon.nn.Dense", "mx.gluon.nn.Conv1D", "mx.gluon.nn.Conv2D",
            "mx.gluon.nn.Conv3D", "mx.gluon.nn.Embedding")


def _params_owner(node: ast.AST) -> ast.AST | None:
    """``x`` for ``params=x.params`` or ``params=x.collect_params()`` (x a name or an
    attribute chain), else None."""
    if isinstance(node, ast.Attribute) and node.attr == "params":
        owner = node.value
    elif isinstance(node, ast.Call) and not node.args and not node.keywords \
            and isinstance(node.func, ast.Attribute) and node.func.attr == "collect_params":
        owner = node.func.value
    else:
        return None
    return owner if _simple_name(owner) else None


@_helper_rule("layer-shared-params", _SHARING,
              "class Net(gluon.Block):\n    def __init__(self):\n        super().__init__()\n"
              "        self.enc = nn.Embedding(10, 20)\n"
              "        self.dec = nn.Dense(10, in_units=20, params=self.enc.params)",
              "gluon_share_params(torch.nn.Sequential(torch.nn.Flatten(), "
              "torch.nn.Linear(20, 10)), self.enc)",
              "params=x.params or x.collect_params(), x built (wherever assigned) as a Dense, "
              "Conv or Embedding with its sizes, the layer otherwise one another rule rewrites "
              "with its sizes given (neither lazy): the helper gives the layer x's parameters of the same name, "
              "as Gluon's shared ParameterDict does (tied weights; a Dense on an Embedding "
              "keeps its own bias)", ["gluon_share_params", "gluon_embedding"])
def _shared_params(site, analysis, text_of):
    call = _call(site)
    shared = [k for k in call.keywords if k.arg == "params"] if call is not None else []
    owner = _params_owner(shared[0].value) if len(shared) == 1 else None
    if owner is None:
        return None
    owners = _values_of(analysis, owner)   # each a Dense, Conv or Embedding of its sizes
    if not owners or not all(isinstance(v, ast.Call) and analysis.site_at(v) is not None
                             and analysis.site_at(v).name in _SHARING
                             and _sized_layer(analysis.site_at(v), analysis) for v in owners):
        return None
    alone = ast.copy_location(ast.Call(func=call.func, args=call.args, keywords=[
        k for k in call.keywords if k is not shared[0]]), call)
    text = _sized_layer(dataclasses.replace(site, node=alone), analysis, text_of)
    if text is None:
        return None
    _consume(text_of, shared[0].value)   # owner.params: the helper reads it
    return f"gluon_share_params({text}, {text_of(owner)})"


def _sized_layer(site, analysis, text_of=ast.unparse) -> str | None:
    """What another rule drafts a Dense, Conv or Embedding ``site`` into, unless that is a
    lazy layer (no sizes: no weight to share yet) or nothing."""
    for rule in _RULES:
        if rule.name != "layer-shared-params" and site.name in rule.mxnet:
            text = rule.rewrite(site, analysis, text_of)
            if text is not None:
                return None if "Lazy" in text else text
    return None


@_rule("leaky-relu", ["mx.gluon.nn.LeakyReLU"], "nn.LeakyReLU(0.2)", "torch.nn.LeakyReLU(0.2)",
       "alpha (the slope below zero); MXNet 1.9.1 computes its float64 forward in float32, "
       "PyTorch in float64")
def _leaky_relu(site, analysis, text_of):
    args = _bind(_call(site), ("alpha", "prefix"), 1)
    if args is None:
        return None
    return f"torch.nn.LeakyReLU({text_of(args['alpha'])})"


_ACTIVATIONS = {"relu": "ReLU", "sigmoid": "Sigmoid", "tanh": "Tanh", "softsign": "Softsign"}


@_rule("activation", ["mx.gluon.nn.Activation"], "nn.Activation('relu')", "torch.nn.ReLU()",
       "the activation a literal: 'relu', 'sigmoid', 'tanh' or 'softsign'")
def _activation(site, analysis, text_of):
    args = _bind(_call(site), ("activation", "prefix"), 1)
    act = _literal(args["activation"]) if args else _NO
    return f"torch.nn.{_ACTIVATIONS[act]}()" if isinstance(act, str) and act in _ACTIVATIONS \
        else None


@_rule("flatten-layer", ["mx.gluon.nn.Flatten"], "nn.Flatten()", "torch.nn.Flatten()",
       "no arguments; both keep axis 0 and join the rest (a 1-D input raises in torch)")
def _flatten_layer(site, analysis, text_of):
    return "torch.nn.Flatten()" if _bind(_call(site), ("prefix",)) is not None else None


@_helper_rule("softmax-ce-loss", ["mx.gluon.loss.SoftmaxCrossEntropyLoss"],
              "gluon.loss.SoftmaxCrossEntropyLoss()", "gluon_softmax_ce_loss()",
              "no arguments: Gluon's loss as it is, one per sample (the mean over the other "
              "axes of (N, T, C) logits), the labels any dtype and (N,) or (N, 1), as Gluon "
              "takes them; torch.nn.CrossEntropyLoss(reduction='none') is the same for (N, C) "
              "logits and (N,) int64 labels only, and raises on float labels",
              ["gluon_softmax_ce_loss"])
def _sce(site, analysis, text_of):
    call = _call(site)
    return "gluon_softmax_ce_loss()" \
        if call is not None and not call.args and not call.keywords else None


# -- MXNet's NumPy interface (mx.np, mx.npx; npx.set_np()) ------------------------------------
# NumPy's semantics, with MXNet's defaults: float32 where numpy would give float64 or int64
# (a Python list, np.zeros, np.arange), 0-d results like numpy's (no (1,) as in mx.nd).

_NP_ELEMENTWISE = {k: v for k, v in _ELEMENTWISE.items()
                   if k not in ("rsqrt", "sigmoid", "relu", "fix", "erf")}


def _np_elementwise(op: str, torch_op: str) -> None:
    _RULES.append(Rule(f"np-{op}", (f"mx.np.{op}",), f"np.{op}(x)", f"torch.{torch_op}(x)",
                       "one positional argument (a float array), no keywords (no out=)",
                       _unary(torch_op)))


for _op, _top in _NP_ELEMENTWISE.items():
    _np_elementwise(_op, _top)


def _npx_unary(op: str) -> None:
    _RULES.append(Rule(f"npx-{op}", (f"mx.npx.{op}",), f"npx.{op}(x)", f"torch.{op}(x)",
                       "a single positional argument, no keywords", _unary(op)))


_npx_unary("relu")
_npx_unary("sigmoid")


def _np_dtype(node: ast.AST | None, analysis: Analysis, text_of=None) -> str | None:
    """The torch dtype of an mx.np dtype argument: absent or None (MXNet's float32), a
    literal string, numpy's or mx.np's type (np.float64 for either); an mx.np type is
    consumed (``text_of``: the rule rewrites it with its call)."""
    name = analysis.qualname(node) if node is not None else None
    if name and name.startswith("mx.np.") and name[6:] in _DTYPES:
        if text_of is not None:
            _consume(text_of, node)
        return f"torch.{_DTYPES[name[6:]]}"
    return _dtype(node, numpy_names=_numpy_names(analysis))


def _np_creation(op: str) -> None:
    def rewrite(site, analysis, text_of):
        args = _bind(_call(site), ("shape", "dtype", "order", "ctx"), 1)
        if args is None or not _absent_or(args, "order", "C"):
            return None
        dt, dev = _np_dtype(args.get("dtype"), analysis, text_of), \
            _device(args, analysis, text_of)
        return f"torch.{op}({text_of(args['shape'])}, dtype={dt}{dev})" \
            if dt and dev is not None else None
    _RULES.append(Rule(f"np-{op}", (f"mx.np.{op}",), f"np.{op}((2, 3))",
                       f"torch.{op}((2, 3), dtype=torch.float32)",
                       "dtype absent or None (float32 in MXNet's numpy, not numpy's float64), "
                       "a literal string or a numpy type; order 'C'; ctx one device", rewrite))


_np_creation("zeros")
_np_creation("ones")


@_rule("np-full", ["mx.np.full"], "np.full((2, 3), 7)",
       "torch.full((2, 3), 7, dtype=torch.float32)",
       "a literal shape (an int n written (n,)); dtype absent or None (float32), a literal "
       "string or a numpy type; order 'C'; ctx one device; no out")
def _np_full(site, analysis, text_of):
    args = _bind(_call(site), ("shape", "fill_value", "dtype", "order", "ctx"), 2)
    if args is None or not _absent_or(args, "order", "C"):
        return None
    dt, dev = _np_dtype(args.get("dtype"), analysis, text_of), \
            _device(args, analysis, text_of)
    size = _size_text(args["shape"], text_of)
    return (f"torch.full({size}, {text_of(args['fill_value'])}, dtype={dt}{dev})") \
        if dt and dev is not None and size else None


@_rule("np-arange", ["mx.np.arange"], "np.arange(2, 10, 3)",
       "torch.arange(2, 10, 3, dtype=torch.float32)",
       "start and stop numbers or expressions, step absent or an int literal (a float step "
       "may count differently); dtype absent or None (float32 in MXNet's numpy, not int64) or "
       "a literal; ctx one device")
def _np_arange(site, analysis, text_of):
    args = _bind(_call(site), ("start", "stop", "step", "dtype", "ctx"), 1)
    if args is None or ("step" in args and not _is_int(_literal(args["step"]))):
        return None
    dt, dev = _np_dtype(args.get("dtype"), analysis, text_of), \
            _device(args, analysis, text_of)
    if not dt or dev is None:
        return None
    bounds = ", ".join(text_of(args[k]) for k in ("start", "stop", "step") if k in args)
    return f"torch.arange({bounds}, dtype={dt}{dev})"


@_rule("np-array", ["mx.np.array"], "np.array([[1, 2], [3, 4]])",
       "torch.tensor([[1, 2], [3, 4]], dtype=torch.float32)",
       "a list, tuple or number (MXNet makes it float32 whatever the values, ints and bools "
       "included) or dtype given; ctx one device (an array source: np-array-copy)")
def _np_array(site, analysis, text_of):
    args = _bind(_call(site), ("object", "dtype", "ctx"), 1)
    if args is None:
        return None
    src = args["object"]
    plain = isinstance(src, (ast.List, ast.Tuple, ast.Constant)) or \
        (isinstance(src, ast.UnaryOp) and isinstance(src.operand, ast.Constant))
    if not plain:
        return None
    dt, dev = _np_dtype(args.get("dtype"), analysis, text_of), \
            _device(args, analysis, text_of)
    return f"torch.tensor({text_of(src)}, dtype={dt}{dev})" if dt and dev is not None \
        else None


@_helper_rule("np-array-copy", ["mx.np.array"], "np.array(x)", "gluon_np_array(x)",
              "where np-array does not apply (an array or another sequence): a tensor keeps "
              "its dtype (copied), a numpy array its own, anything else becomes float32, as "
              "mx.np.array does", ["gluon_np_array"])
def _np_array_copy(site, analysis, text_of):
    args = _bind(_call(site), ("object", "dtype", "ctx"), 1)
    if args is None or site.how == "guessed" or _device(args, analysis, text_of) is None:
        return None
    return "gluon_np_array(" + ", ".join([text_of(args["object"])] + [
        f"{k}={text_of(args[k])}" for k in ("dtype", "ctx") if k in args]) + ")"


def _np_like(op: str) -> None:
    def rewrite(site, analysis, text_of):
        args = _bind(_call(site), ("a", "dtype", "order", "ctx"), 1)
        if args is None or set(args) != {"a"}:
            return None
        return f"torch.{op}({text_of(args['a'])})"
    _RULES.append(Rule(f"np-{op.replace('_', '-')}", (f"mx.np.{op}",), f"np.{op}(x)",
                       f"torch.{op}(x)", "the array only: the same shape and dtype", rewrite))


_np_like("zeros_like")
_np_like("ones_like")


@_rule("np-expand-dims", ["mx.np.expand_dims"], "np.expand_dims(x, 0)", "torch.unsqueeze(x, 0)",
       "the array and an int axis, nothing else")
def _np_expand_dims(site, analysis, text_of):
    args = _bind(_call(site), ("a", "axis"), 2)
    if args is None or not _is_int(_literal(args["axis"])):
        return None
    return f"torch.unsqueeze({text_of(args['a'])}, {text_of(args['axis'])})"


def _np_joining(op: str, torch_op: str) -> None:
    def rewrite(site, analysis, text_of):
        args = _bind(_call(site), ("seq", "axis", "out"), 1)
        if args is None or "out" in args:
            return None
        axis = _literal(args.get("axis"), 0)
        if not _is_int(axis):   # axis=None: numpy's concatenate flattens first
            return None
        return f"torch.{torch_op}({text_of(args['seq'])}, dim={axis})"
    _RULES.append(Rule(f"np-{op}", (f"mx.np.{op}",), f"np.{op}([a, b], axis=1)",
                       f"torch.{torch_op}([a, b], dim=1)",
                       "a sequence of arrays and a literal int axis (default 0, written out); "
                       "no out", rewrite))


_np_joining("concatenate", "cat")
_np_joining("stack", "stack")


def _np_reduced(torch_op: str, args: dict, text_of) -> str | None:
    if "out" in args or "dtype" in args:
        return None
    axis, keep = _literal(args.get("axis"), None), _literal(args.get("keepdims"), False)
    if keep not in (True, False) or (axis is not None and not _int_axes(axis)):
        return None
    if axis is None:   # numpy's full reduction is 0-d, torch's too
        return None if keep else f"torch.{torch_op}({text_of(args['a'])})"
    dim = _tuple_text(tuple(axis) if isinstance(axis, list) else axis)
    return f"torch.{torch_op}({text_of(args['a'])}, dim={dim}" + (
        ", keepdim=True)" if keep else ")")


def _np_reduction(op: str, torch_op: str) -> None:
    def rewrite(site, analysis, text_of):
        args = _bind(_call(site), ("a", "axis", "dtype", "out", "keepdims"), 1)
        return None if args is None else _np_reduced(torch_op, args, text_of)
    _RULES.append(Rule(f"np-{op}", (f"mx.np.{op}",), f"np.{op}(x, axis=1)",
                       f"torch.{torch_op}(x, dim=1)",
                       "axis absent (a 0-d result, as numpy's) or literal ints; keepdims a "
                       "literal bool; no dtype or out", rewrite))


    def method(site, analysis, text_of):
        recv = _receiver(site)   # known to be an mx.np array (numpy's has .sum too)
        if recv is None or _call(site) is None or site.how == "guessed":
            return None
        args = _bind(_call(site), ("axis", "dtype", "out", "keepdims"))
        if args is None:
            return None
        args["a"] = recv
        return _np_reduced(torch_op, args, text_of)
    _RULES.append(Rule(f"np-ndarray-{op}", (f"mx.np.ndarray.{op}",), f"x.{op}(axis=1)",
                       f"torch.{torch_op}(x, dim=1)",
                       f"the method form of np.{op}, same arguments but the array", method))


_np_reduction("sum", "sum")
_np_reduction("mean", "mean")
_np_reduction("max", "amax")
_np_reduction("min", "amin")


def _np_arg(op: str) -> None:
    def rewrite(site, analysis, text_of):
        args = _bind(_call(site), ("a", "axis", "out"), 1)
        if args is None or "out" in args:
            return None
        axis = _literal(args.get("axis"), None)
        if axis is None:
            return f"torch.{op}({text_of(args['a'])})"
        return f"torch.{op}({text_of(args['a'])}, dim={axis})" if _is_int(axis) else None
    _RULES.append(Rule(f"np-{op}", (f"mx.np.{op}",), f"np.{op}(x, axis=1)",
                       f"torch.{op}(x, dim=1)",
                       "axis absent (the flat index, 0-d) or a literal int; int64 indices in "
                       "both (numpy's, unlike mx.nd's)", rewrite))


_np_arg("argmax")
_np_arg("argmin")


@_rule("np-astype", ["mx.np.ndarray.astype"], "x.astype(np.float64)",
       "x.to(torch.float64, copy=True)",
       "the receiver an mx.np array; dtype a literal string or a numpy or mx.np type; copy "
       "a literal bool (numpy copies by default, so copy=True is written); no order, casting "
       "or subok")
def _np_astype(site, analysis, text_of):
    recv, args = _receiver(site), _bind(_call(site), ("dtype", "order", "casting", "subok",
                                                        "copy"), 1)
    if recv is None or args is None or set(args) - {"dtype", "copy"} \
            or _literal(args.get("copy"), True) not in (True, False) \
            or _literal(args["dtype"]) is None:
        return None
    dt = _np_dtype(args["dtype"], analysis, text_of)
    if dt is None:
        return None
    copy = ", copy=True" if _literal(args.get("copy"), True) else ""
    return f"{_atom(recv, text_of(recv))}.to({dt}{copy})"


_softmax("softmax", ("data", "axis"), "npx")


def _np_two(op: str, torch_op: str, params: tuple[str, str], before: str, note: str):
    def rewrite(site, analysis, text_of):
        args = _bind(_call(site), params, 2)
        if args is None:
            return None
        return f"torch.{torch_op}({text_of(args[params[0]])}, {text_of(args[params[1]])})"
    _RULES.append(Rule(f"np-{op}", (f"mx.np.{op}",), f"np.{op}({before})",
                       f"torch.{torch_op}({before})", note, rewrite))


_np_two("tile", "tile", ("A", "reps"), "x, (2, 1)",
        "the array and its repetitions (an int or a tuple)")
_np_two("power", "pow", ("x1", "x2"), "x, 2",
        "two arguments (arrays or numbers, broadcasting); no out")


@_rule("np-nonzero", ["mx.np.nonzero"], "np.nonzero(x > 0)",
       "torch.nonzero(x > 0, as_tuple=True)",
       "one array: a tuple of int64 index arrays, one per axis, in row-major order in both")
def _np_nonzero(site, analysis, text_of):
    args = _bind(_call(site), ("a",), 1)
    return None if args is None else f"torch.nonzero({text_of(args['a'])}, as_tuple=True)"


for _op in ("maximum", "minimum"):
    _RULES.append(Rule(
        f"np-{_op}", (f"mx.np.{_op}",), f"np.{_op}(x, 0)", f"gluon_{_op}(x, 0)",
        "two arguments, arrays or numbers (no out): a number beside an array is cast to the "
        "array's dtype first, in mx.np as in mx.nd (an int32 array and 0.5 give int32, where "
        "numpy gives float64); two arrays broadcast and promote in both",
        lambda site, analysis, text_of, _op=_op: None if (
            args := _bind(_call(site), ("x1", "x2"), 2)) is None
        else f"gluon_{_op}({text_of(args['x1'])}, {text_of(args['x2'])})"))
    RULE_HELPERS[_RULES[-1].name] = (f"gluon_{_op}",)


@_rule("np-unique", ["mx.np.unique"], "np.unique(x, return_counts=True)",
       "torch.unique(x, sorted=True, return_counts=True)",
       "the array, return_inverse and return_counts literal bools, no return_index (torch has "
       "none) and no axis: the sorted values of the flattened array, then the inverse and the "
       "counts (int64) in numpy's order")
def _np_unique(site, analysis, text_of):
    args = _bind(_call(site), ("ar", "return_index", "return_inverse", "return_counts",
                               "axis"), 1)
    if args is None or _literal(args.get("return_index"), False) is not False \
            or _literal(args.get("axis"), None) is not None:
        return None
    flags = ""
    for k in ("return_inverse", "return_counts"):
        v = _literal(args.get(k), False)
        if v not in (True, False):
            return None
        flags += f", {k}=True" if v else ""
    return f"torch.unique({text_of(args['ar'])}, sorted=True{flags})"


@_rule("np-repeat", ["mx.np.repeat"], "np.repeat(x, 2, axis=1)",
       "torch.repeat_interleave(x, 2, dim=1)",
       "the array, repeats (an int or an array of them), axis absent (the flattened array, "
       "in both) or a literal int")
def _np_repeat(site, analysis, text_of):
    args = _bind(_call(site), ("a", "repeats", "axis"), 2)
    if args is None:
        return None
    axis = _literal(args.get("axis"), None)
    if axis is not None and not _is_int(axis):
        return None
    dim = "" if axis is None else f", dim={axis}"
    return f"torch.repeat_interleave({text_of(args['a'])}, {text_of(args['repeats'])}{dim})"


def _np_spread(op: str) -> None:
    def reduced(args, text_of):
        ddof = _literal(args.pop("ddof", None), 0)
        if not _is_int(ddof):
            return None
        out = _np_reduced(op, args, text_of)
        return None if out is None else f"{out[:-1]}, correction={ddof})"

    def rewrite(site, analysis, text_of):
        args = _bind(_call(site), ("a", "axis", "dtype", "out", "ddof", "keepdims"), 1)
        return None if args is None else reduced(args, text_of)

    def method(site, analysis, text_of):
        recv = _receiver(site)
        if recv is None or _call(site) is None or site.how == "guessed":
            return None
        args = _bind(_call(site), ("axis", "dtype", "out", "ddof", "keepdims"))
        if args is None:
            return None
        args["a"] = recv
        return reduced(args, text_of)
    note = ("axis absent (a 0-d result) or literal ints, ddof a literal int (numpy's default "
            "0: the population's, where torch's default divides by n - 1), keepdims a literal "
            "bool; no dtype or out")
    _RULES.append(Rule(f"np-{op}", (f"mx.np.{op}",), f"np.{op}(x, axis=0)",
                       f"torch.{op}(x, dim=0, correction=0)", note, rewrite))
    _RULES.append(Rule(f"np-ndarray-{op}", (f"mx.np.ndarray.{op}",), f"x.{op}(axis=0)",
                       f"torch.{op}(x, dim=0, correction=0)",
                       f"the method form of np.{op}, same arguments but the array", method))


_np_spread("std")
_np_spread("var")


def _np_sampler(op: str, low: str, high: str, fill: str) -> None:
    def rewrite(site, analysis, text_of):
        args = _bind(_call(site), (low, high, "size", "dtype", "ctx", "out"))
        if args is None or "size" not in args or "out" in args:
            return None
        a, b = _number(args.get(low), 0.0), _number(args.get(high), 1.0)
        dt, dev = _np_dtype(args.get("dtype"), analysis, text_of), \
            _device(args, analysis, text_of)
        size = _size_text(args["size"], text_of)
        if a is None or b is None or dt is None or dev is None or not size:
            return None   # an array of parameters samples per element: another shape
        return f"torch.empty({size}, dtype={dt}{dev}).{fill}({float(a)!r}, {float(b)!r})"
    _RULES.append(Rule(
        f"np-random-{op}", (f"mx.np.random.{op}",), f"np.random.{op}(0, 2, size=(2, 3))",
        f"torch.empty((2, 3), dtype=torch.float32).{fill}(0.0, 2.0)",
        f"{low} and {high} literal numbers (absent: 0 and 1), size a literal int or tuple "
        "(absent: one number), dtype absent (float32, MXNet's default) or a literal, ctx one "
        "device, no out: the same distribution, other numbers (another generator)", rewrite))


_np_sampler("normal", "loc", "scale", "normal_")
_np_sampler("uniform", "low", "high", "uniform_")


#: mx.np functions whose torch namesake agrees on every positional form, named without a
#: call (``sin = np.sin``, ``map(np.exp, xs)``): the reference becomes torch's (a keyword only
#: MXNet has, or a list or number where torch wants a tensor, raises when the draft runs)
_NP_REFERENCES = {**{f"mx.np.{op}": f"torch.{t}" for op, t in _NP_ELEMENTWISE.items()},
                  "mx.npx.relu": "torch.relu", "mx.npx.sigmoid": "torch.sigmoid",
                  "mx.np.ones_like": "torch.ones_like", "mx.np.zeros_like": "torch.zeros_like",
                  "mx.np.eye": "torch.eye", "mx.np.linspace": "torch.linspace",
                  "mx.np.expand_dims": "torch.unsqueeze", "mx.np.concatenate": "torch.cat",
                  "mx.np.stack": "torch.stack", "mx.np.random.randn": "torch.randn",
                  "mx.np.random.rand": "torch.rand", "mx.np.random.normal": "torch.normal"}


def _referenced(site) -> bool:
    """Whether the site is a function named, not called: an attribute read (``np.sin``)."""
    return isinstance(site.node, ast.Attribute) and isinstance(site.node.ctx, ast.Load)


@_rule("np-reference", sorted(_NP_REFERENCES), "sin = np.sin", "sin = torch.sin",
       "the function named, not called: torch's namesake takes the same positional arguments "
       "(float32 defaults in both; np.linspace's num, np.random.normal's size must then be "
       "given, a keyword only MXNet has raises, as does a list or number where torch wants a "
       "tensor)")
def _np_reference(site, analysis, text_of):
    return _NP_REFERENCES[site.name] if _referenced(site) else None


for _op in ("array", "zeros", "ones", "arange"):
    _RULES.append(Rule(
        f"np-{_op}-reference", (f"mx.np.{_op}",), f"f = np.{_op}", f"f = gluon_np_{_op}",
        "the function named, not called: a helper with MXNet's signature and defaults "
        "(float32 where numpy would give float64 or int64)",
        lambda site, analysis, text_of, _op=_op: f"gluon_np_{_op}" if _referenced(site)
        else None))
    RULE_HELPERS[_RULES[-1].name] = (f"gluon_np_{_op}",)


@_rule("np-squeeze", ["mx.np.squeeze"], "np.squeeze(x, axis=1)", "torch.squeeze(x, 1)",
       "axis absent or literal ints; numpy's 0-d results, torch's too")
def _np_squeeze(site, analysis, text_of):
    return _squeezed(_bind(_call(site), ("a", "axis"), 1), "a", text_of)


@_rule("npx-cpu", ["mx.npx.cpu"], "npx.cpu()", "torch.device('cpu')",
       "at most a device id (torch has one CPU device)")
def _npx_cpu(site, analysis, text_of):
    return None if _bind(_call(site), ("device_id",)) is None else "torch.device('cpu')"


@_rule("npx-num-gpus", ["mx.npx.num_gpus", "mx.context.num_gpus", "mx.num_gpus",
                        "mx.util.get_gpu_count"],
       "npx.num_gpus()", "torch.cuda.device_count()", "no arguments: the GPUs visible")
def _num_gpus(site, analysis, text_of):
    call = _call(site)
    return "torch.cuda.device_count()" if call is not None and not call.args \
        and not call.keywords else None


# -- whole scripts: containers, initialisation, training loop, data, metrics ----------------
# These rules rewrite what a training script is made of. Where the PyTorch side takes several
# lines, the draft calls a helper of :mod:`.draft_helpers`, whose source it carries; a rule
# whose object is used again elsewhere (``trainer.step`` after ``Trainer(...)``) rewrites it
# only where every assignment of that object was rewritten too (:func:`_built_by`).

@_helper_rule("dropout-axes-scoped", ["mx.gluon.nn.Dropout"], "nn.Dropout(0.5, axes=(1, 2))",
              "gluon_scoped(gluon_dropout(0.5, axes=(1, 2)))",
              "rate and axes (not empty), in a file whose layers follow Gluon's scope (as "
              "dropout-scoped): one draw shared along those axes, as Gluon's; torch's Dropout "
              "has no such axes", ["gluon_dropout", "gluon_scoped"])
def _dropout_axes_scoped(site, analysis, text_of):
    args = _bind(_call(site), ("rate", "axes", "prefix"), 1)
    if args is None or "axes" not in args or _absent_or(args, "axes", (), []) \
            or not _scoped_file(analysis):
        return None
    return (f"gluon_scoped(gluon_dropout({text_of(args['rate'])}, "
            f"axes={text_of(args['axes'])}))")


@_helper_rule("dropout-scoped", ["mx.gluon.nn.Dropout"], "nn.Dropout(0.5)",
              "gluon_scoped(torch.nn.Dropout(0.5))",
              "rate only (no axes), in a file whose layers are all its own (it imports no "
              "model from another file) and that sets the scope (record(), train_mode(), "
              "predict_mode()): it drops only in training, as Gluon's scope says (inside "
              "autograd.record(), rewritten to gluon_scope)", ["gluon_scoped"])
def _dropout_scoped(site, analysis, text_of):
    args = _bind(_call(site), ("rate", "axes", "prefix"), 1)
    if args is None or not _absent_or(args, "axes", (), []) or not _scoped_file(analysis):
        return None
    return f"gluon_scoped(torch.nn.Dropout({text_of(args['rate'])}))"


@_rule("dropout", ["mx.gluon.nn.Dropout"], "nn.Dropout(0.5)", "torch.nn.Dropout(0.5)",
       "rate only (no axes), where dropout-scoped does not apply: it drops only in training: "
       "inside autograd.record in Gluon, in .train() mode (a module's default) in torch")
def _dropout(site, analysis, text_of):
    args = _bind(_call(site), ("rate", "axes", "prefix"), 1)
    if args is None or not _absent_or(args, "axes", (), []):
        return None
    return f"torch.nn.Dropout({text_of(args['rate'])})"


@_helper_rule("batchnorm-scoped", ["mx.gluon.nn.BatchNorm"], "nn.BatchNorm()",
              "gluon_scoped(gluon_batch_norm())",
              "axis 1, momentum, epsilon, in_channels, center and scale both or neither, no "
              "use_global_stats or initializers, in a file whose layers are all its own and "
              "that sets the scope: batch statistics in training, running ones in "
              "prediction, as Gluon's scope says",
              ["gluon_scoped", "gluon_batch_norm"])
def _batchnorm(site, analysis, text_of):
    if not _scoped_file(analysis):
        return None
    made = _batch_norm_call(site, text_of)
    return None if made is None else f"gluon_scoped({made})"


def _batch_norm_call(site, text_of) -> str | None:
    """``gluon_batch_norm(...)`` for nn.BatchNorm's arguments: axis 1, momentum, epsilon,
    in_channels, center and scale both or neither; no use_global_stats or initializers."""
    args = _bind(_call(site), ("axis", "momentum", "epsilon", "center", "scale",
                               "use_global_stats", "beta_initializer", "gamma_initializer",
                               "running_mean_initializer", "running_variance_initializer",
                               "in_channels", "prefix"))
    if args is None or not _absent_or(args, "axis", 1) \
            or not _absent_or(args, "use_global_stats", False) \
            or any(k.endswith("_initializer") for k in args):
        return None
    center, scale = _literal(args.get("center"), True), _literal(args.get("scale"), True)
    if center not in (True, False) or center is not scale:
        return None
    parts = [f"{k}={text_of(args[k])}" for k in ("momentum", "epsilon", "in_channels")
             if k in args] + ([] if center else ["affine=False"])
    return f"gluon_batch_norm({', '.join(parts)})"


@_helper_rule("batchnorm", ["mx.gluon.nn.BatchNorm"], "nn.BatchNorm(momentum=0.8)",
              "gluon_batch_norm(momentum=0.8)",
              "the arguments batchnorm-scoped takes, where it does not apply (a file of "
              "layers another file trains, or one that imports a model): Gluon's statistics, "
              "momentum and lazy channel count, switched by .train()/.eval() as torch's "
              "layers are; where Gluon's scope switched it stays a decision (the gotcha "
              "dropout-predict-scope)", ["gluon_batch_norm"])
def _batchnorm_torch_mode(site, analysis, text_of):
    return None if _scoped_file(analysis) else _batch_norm_call(site, text_of)


def _pointwise_loss(helper: str):
    def rewrite(site, analysis, text_of):
        args = _bind(_call(site), ("weight", "batch_axis", "prefix"))
        if args is None:
            return None
        return f"{helper}(" + ", ".join(f"{k}={text_of(args[k])}" for k in ("weight", "batch_axis")
                                        if k in args) + ")"
    return rewrite


_helper_rule("l2-loss", ["mx.gluon.loss.L2Loss"], "gluon.loss.L2Loss()", "gluon_l2_loss()",
             "weight and batch_axis: per sample, the mean of weight/2 · (label − pred)² over "
             "the other axes (the label reshaped to the prediction), sample_weight at the call",
             ["gluon_l2_loss"])(_pointwise_loss("gluon_l2_loss"))
_helper_rule("l1-loss", ["mx.gluon.loss.L1Loss"], "gluon.loss.L1Loss()", "gluon_l1_loss()",
             "weight and batch_axis: per sample, the mean of weight · |label − pred| over the "
             "other axes, sample_weight at the call", ["gluon_l1_loss"])(
    _pointwise_loss("gluon_l1_loss"))


def _loss_with(helper: str, params: tuple[str, ...]):
    def rewrite(site, analysis, text_of):
        args = _bind(_call(site), params + ("prefix", "params"))
        if args is None or "params" in args:
            return None
        return f"{helper}(" + ", ".join(f"{k}={text_of(args[k])}" for k in params
                                        if k in args) + ")"
    return rewrite


_helper_rule("softmax-ce-loss-options", ["mx.gluon.loss.SoftmaxCrossEntropyLoss",
                                         "mx.gluon.loss.SoftmaxCELoss"],
             "gluon.loss.SoftmaxCrossEntropyLoss(sparse_label=False)",
             "gluon_softmax_ce_loss(sparse_label=False)",
             "where softmax-ce-loss does not apply (any of axis, sparse_label, from_logits, "
             "weight, batch_axis; SoftmaxCELoss): Gluon's loss per sample, float class "
             "indices taken as Gluon takes them", ["gluon_softmax_ce_loss"])(
    _loss_with("gluon_softmax_ce_loss",
               ("axis", "sparse_label", "from_logits", "weight", "batch_axis")))
_helper_rule("sigmoid-bce-loss", ["mx.gluon.loss.SigmoidBinaryCrossEntropyLoss",
                                  "mx.gluon.loss.SigmoidBCELoss"],
             "gluon.loss.SigmoidBinaryCrossEntropyLoss()", "gluon_sigmoid_bce_loss()",
             "from_sigmoid, weight, batch_axis: Gluon's per-sample loss (its stable formula "
             "from logits, its 1e-12 from probabilities), sample_weight and pos_weight at the "
             "call", ["gluon_sigmoid_bce_loss"])(
    _loss_with("gluon_sigmoid_bce_loss", ("from_sigmoid", "weight", "batch_axis")))
RULE_RESOLVES["softmax-ce-loss-options"] = ("softmax-ce-options",)
RULE_RESOLVES["softmax-ce-loss"] = ("softmax-ce-options",)
RULE_RESOLVES["layer-shared-params"] = ("dense-flatten",)   # its Dense: dense-flatten-to-linear
_helper_rule("huber-loss", ["mx.gluon.loss.HuberLoss"], "gluon.loss.HuberLoss(rho=2)",
             "gluon_huber_loss(rho=2)",
             "rho, weight, batch_axis: Gluon's per-sample loss (its squared part d²/(2·rho)), "
             "sample_weight at the call", ["gluon_huber_loss"])(
    _loss_with("gluon_huber_loss", ("rho", "weight", "batch_axis")))
_helper_rule("ctc-loss", ["mx.gluon.loss.CTCLoss"], "gluon.loss.CTCLoss()", "gluon_ctc_loss()",
             "layout, label_layout, weight: Gluon's per-sample loss (softmax inside, the last "
             "class the blank, a label ending at its first -1 unless label_lengths says), "
             "pred_lengths, label_lengths and sample_weight at the call", ["gluon_ctc_loss"])(
    _loss_with("gluon_ctc_loss", ("layout", "label_layout", "weight")))
_helper_rule("hinge-loss", ["mx.gluon.loss.HingeLoss"], "gluon.loss.HingeLoss()",
             "gluon_hinge_loss()", "margin, weight, batch_axis: Gluon's per-sample loss, "
             "sample_weight at the call", ["gluon_hinge_loss"])(
    _loss_with("gluon_hinge_loss", ("margin", "weight", "batch_axis")))
_helper_rule("kldiv-loss", ["mx.gluon.loss.KLDivLoss"], "gluon.loss.KLDivLoss()",
             "gluon_kldiv_loss()", "from_logits, axis, weight, batch_axis: Gluon's per-sample "
             "sum (its 1e-12 inside the log), sample_weight at the call", ["gluon_kldiv_loss"])(
    _loss_with("gluon_kldiv_loss", ("from_logits", "axis", "weight", "batch_axis")))



@_helper_rule("instance-norm", ["mx.gluon.nn.InstanceNorm"], "nn.InstanceNorm()",
              "gluon_instance_norm()",
              "axis, epsilon, center, scale, in_channels (no initializers): Gluon's "
              "normalisation, its fixed gamma of ones unless scale=True, its lazy channel "
              "count", ["gluon_instance_norm"])
def _instance_norm(site, analysis, text_of):
    args = _bind(_call(site), ("axis", "epsilon", "center", "scale", "beta_initializer",
                               "gamma_initializer", "in_channels"))
    if args is None or "beta_initializer" in args or "gamma_initializer" in args:
        return None
    return "gluon_instance_norm(" + ", ".join(
        f"{k}={text_of(v)}" for k, v in args.items()) + ")"


@_rule("pixel-shuffle-2d", ["mx.gluon.contrib.nn.PixelShuffle2D"],
       "gluon.contrib.nn.PixelShuffle2D(3)", "torch.nn.PixelShuffle(3)",
       "one factor (not a pair): (N, C·f², H, W) to (N, C, H·f, W·f), the channels taken in "
       "the same order")
def _pixel_shuffle(site, analysis, text_of):
    args = _bind(_call(site), ("factor", "prefix"), 1)
    if args is None or isinstance(args["factor"], (ast.Tuple, ast.List)):
        return None
    return f"torch.nn.PixelShuffle({text_of(args['factor'])})"


_ACTIVATION_LAYERS = {**_ACTIVATIONS, "softrelu": "Softplus"}


def _activation_text(args: dict) -> str | None:
    """``, torch.nn.ReLU()`` for a literal activation, ``""`` for none, else ``None``."""
    if _absent_or(args, "activation", None):
        return ""
    act = _literal(args["activation"])
    return f", torch.nn.{_ACTIVATION_LAYERS[act]}()" \
        if isinstance(act, str) and act in _ACTIVATION_LAYERS else None


def _lazy_or_sized(args: dict, size_key: str) -> bool | None:
    """True for a layer without its input size (absent or a literal 0: Gluon infers it), False
    with one (a literal int or an expression), None for another literal (``None``)."""
    if size_key not in args:
        return True
    v = _literal(args[size_key])
    if v is _NO:
        return False  # an expression: a size, as the rules above take it
    return (v == 0) if _is_int(v) else None


@_rule("dense-lazy-activation", ["mx.gluon.nn.Dense"], "nn.Dense(128, activation='relu')",
       "torch.nn.Sequential(torch.nn.Flatten(), torch.nn.LazyLinear(128), torch.nn.ReLU())",
       "the forms the two rules above leave: no in_units (or 0) → LazyLinear, whose input size "
       "is read off the first input as Gluon's deferred initialisation does; a literal "
       "activation ('relu', 'sigmoid', 'tanh', 'softsign', 'softrelu' = Softplus) appended; "
       "flatten absent/True → Flatten first; no dtype or initialisers")
def _dense_lazy(site, analysis, text_of):
    args = _bind(_call(site), _DENSE, 1)
    if args is None or any(k in args for k in ("dtype", "weight_initializer",
                                               "bias_initializer")):
        return None
    flatten = _literal(args.get("flatten"), True)
    lazy, act, bias = _lazy_or_sized(args, "in_units"), _activation_text(args), \
        _bias(args, text_of)
    if not isinstance(flatten, bool) or lazy is None or act is None or bias is None:
        return None
    linear = f"torch.nn.LazyLinear({text_of(args['units'])}{bias})" if lazy else \
        f"torch.nn.Linear({text_of(args['in_units'])}, {text_of(args['units'])}{bias})"
    parts = (["torch.nn.Flatten()"] if flatten else []) + [linear]
    if len(parts) == 1 and not act:
        return linear
    return f"torch.nn.Sequential({', '.join(parts)}{act})"


def _conv_any(dims: int, transpose: bool = False):
    kind, params = ("ConvTranspose", _CONV_T) if transpose else ("Conv", _CONV)
    one_to_one = (("strides", "stride"), ("padding", "padding")) + (
        (("output_padding", "output_padding"),) if transpose else ()) + (
        ("dilation", "dilation"), ("groups", "groups"))

    def rewrite(site, analysis, text_of):
        args = _bind(_call(site), params, 2)
        layout = {1: "NCW", 2: "NCHW", 3: "NCDHW"}[dims]
        if args is None or not _absent_or(args, "layout", layout) \
                or any(k in args for k in ("weight_initializer", "bias_initializer")):
            return None
        lazy, act, bias = _lazy_or_sized(args, "in_channels"), _activation_text(args), \
            _bias(args, text_of)
        if lazy is None or act is None or bias is None:
            return None
        if dims == 2 and not transpose and not lazy and not act:
            return None  # the conv2d rule's form
        extra = "".join(f", {t}={text_of(args[m])}" for m, t in one_to_one if m in args)
        size = "" if lazy else f"{text_of(args['in_channels'])}, "
        conv = (f"torch.nn.{'Lazy' if lazy else ''}{kind}{dims}d({size}"
                f"{text_of(args['channels'])}, {text_of(args['kernel_size'])}{extra}{bias})")
        return f"torch.nn.Sequential({conv}{act})" if act else conv
    return rewrite


for _d in (1, 2, 3):
    _RULES.append(Rule(
        f"conv{_d}d-lazy-activation", (f"mx.gluon.nn.Conv{_d}D",),
        f"nn.Conv{_d}D(32, 3, activation='relu')",
        f"torch.nn.Sequential(torch.nn.LazyConv{_d}d(32, 3), torch.nn.ReLU())",
        "channels-first layout; no in_channels (or 0) → the lazy layer (input channels read "
        "off the first input, as Gluon defers it), else the sized one; a literal activation "
        "appended; strides/padding/dilation/groups one to one; no initialisers", _conv_any(_d)))

_CONV_T = ("channels", "kernel_size", "strides", "padding", "output_padding", "dilation",
           "groups", "layout", "activation", "use_bias", "weight_initializer",
           "bias_initializer", "in_channels", "prefix")


for _d in (1, 2, 3):
    _RULES.append(Rule(
        f"conv{_d}d-transpose", (f"mx.gluon.nn.Conv{_d}DTranspose",),
        f"nn.Conv{_d}DTranspose(16, 4, strides=2, padding=1)",
        f"torch.nn.LazyConvTranspose{_d}d(16, 4, stride=2, padding=1)",
        "channels-first layout; no in_channels (or 0) → the lazy layer, else the sized one; "
        "strides/padding/output_padding/groups/dilation one to one (the weight is (in, "
        "out/groups, k…) in both); a literal activation appended; no initialisers",
        _conv_any(_d, transpose=True)))


@_rule("sequential", ["mx.gluon.nn.Sequential", "mx.gluon.nn.HybridSequential"],
       "nn.Sequential()", "torch.nn.Sequential()",
       "no arguments but prefix (no params: shared parameters): an empty container, filled "
       "by add()")
def _sequential(site, analysis, text_of):
    return "torch.nn.Sequential()" if _bind(_call(site), ("prefix",)) is not None else None


def _assignments(analysis: Analysis) -> dict[str, list[ast.AST]]:
    """Every value assigned to each dotted name in the file (``net``, ``self.net``)."""
    cached = _ASSIGNED.get(id(analysis))
    if cached is not None and cached[0] is analysis:
        return cached[1]
    out: dict[str, list[ast.AST]] = {}
    lines: dict[str, list[int]] = {}
    for node in analysis.nodes():
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and node.value is not None:
            targets, value = [node.target], node.value
        elif isinstance(node, (ast.For, ast.With, ast.NamedExpr)):
            targets = [getattr(node, "target", None)] + [
                i.optional_vars for i in getattr(node, "items", [])]
            value = None
        else:
            continue
        for t in targets:
            if isinstance(t, (ast.Name, ast.Attribute)):
                dotted = _dotted_name(t)
                if dotted:
                    out.setdefault(dotted, []).append(value)
                    lines.setdefault(dotted, []).append(node.lineno)
            elif isinstance(t, (ast.Tuple, ast.List)):
                for e in ast.walk(t):
                    if isinstance(e, (ast.Name, ast.Attribute)) and _dotted_name(e):
                        out.setdefault(_dotted_name(e), []).append(None)
                        lines.setdefault(_dotted_name(e), []).append(node.lineno)
    _ASSIGNED.clear()
    _ASSIGNED[id(analysis)] = (analysis, out, lines)
    return out


_ASSIGNED: dict[int, tuple] = {}


def _class_of(analysis: Analysis, node: ast.AST) -> ast.ClassDef | None:
    """The class whose body (a method's, at any depth) holds ``node``."""
    parents = _parents(analysis)
    while (node := parents.get(id(node))) is not None:
        if isinstance(node, ast.ClassDef):
            return node
    return None


def _self_values(analysis: Analysis, recv: ast.AST, dotted: str) -> list[ast.AST | None]:
    """The values assigned to ``self.<attr>`` in the class ``recv`` is used in (its methods
    only: another class's ``self.net`` is another attribute); a use outside a class: every
    assignment in the file."""
    everywhere = _assignments(analysis).get(dotted, [])
    owner = _class_of(analysis, recv)
    if owner is None:
        return everywhere
    first, last = owner.lineno, owner.end_lineno or owner.lineno
    at = _ASSIGNED[id(analysis)][2].get(dotted, [])
    return [v for v, line in zip(everywhere, at) if first <= line <= last]


def _dotted_name(node: ast.AST) -> str | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])


def _built_by(analysis: Analysis, recv: ast.AST | None, rule: str | tuple[str, ...]) -> bool:
    """Whether the object ``recv`` names is built by a call that ``rule`` (or one of the rules
    ``rule`` names) rewrites: ``recv`` is that call itself, or a name every assignment of which
    is such a call (a name also bound by a loop, a ``with`` or a tuple is not)."""
    if recv is None:
        return False
    wanted = (rule,) if isinstance(rule, str) else rule
    rules = [r for r in _RULES if r.name in wanted]

    def rewritten(value, depth=0):
        if isinstance(value, ast.Name) and depth < 3:   # a name another function returns
            values = _values_of(analysis, value)
            return bool(values) and all(v is not None and rewritten(v, depth + 1)
                                        for v in values)
        site = analysis.site_at(value) if isinstance(value, ast.Call) else None
        return site is not None and _a_rule_takes(site, analysis, rules)
    if isinstance(recv, ast.Call):
        return rewritten(recv)
    values = _values_of(analysis, recv)
    return bool(values) and all(v is not None and rewritten(v) for v in values)


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def _values_of(analysis: Analysis, recv: ast.AST) -> list[ast.AST | None]:
    """The values assigned to the name ``recv`` as Python resolves it where ``recv`` is: a
    plain name in the innermost function that binds it (a parameter, or a name bound by a
    loop, a ``with`` or a tuple, is ``None``: unknown), else in the module's own statements;
    ``self.net`` in the class it is used in (:func:`_self_values`), another dotted name
    anywhere in the file. A name a function declares ``global``
    or ``nonlocal`` is looked up in the whole file."""
    dotted = _dotted_name(recv)
    if dotted is None:
        return []
    everywhere = _assignments(analysis).get(dotted, [])
    if dotted.startswith("self."):
        return _self_values(analysis, recv, dotted)
    if "." in dotted:
        return everywhere
    parents, scopes = _parents(analysis), _scope_bindings(analysis)
    node = recv
    while (node := parents.get(id(node))) is not None:
        if isinstance(node, _SCOPES):
            bound = scopes.get(id(node), {})
            if dotted in bound.get("<declared>", ()):
                return everywhere
            if dotted in bound:
                return _reaching(analysis, recv, node, bound[dotted])
    return _reaching(analysis, recv, analysis.tree,
                     scopes.get(id(analysis.tree), {}).get(dotted, []))


def _reaching(analysis: Analysis, use: ast.AST, scope: ast.AST,
              values: list[ast.AST | None]) -> list[ast.AST | None]:
    """Of the values a scope assigns a name, the one that reaches ``use`` when both are in
    its own straight-line statements: the last plain assignment in a statement before the
    use's (``net = nn.Sequential()`` … ``net.add(…)`` … ``net = MixMLP()`` later: the
    Sequential). All of them whenever that is not plain: a binding of unknown value, one
    inside a loop, ``if`` or ``with`` up to the use's statement, a use inside a nested
    function or class, or no assignment before the use."""
    if len(values) < 2 or any(v is None for v in values) \
            or _rebound_elsewhere(analysis).get(getattr(use, "id", None)):
        return values
    parents = _parents(analysis)

    def statement_of(node):   # the scope's own statement holding node, or None
        while (up := parents.get(id(node))) is not None:
            if up is scope:
                return node if isinstance(node, ast.stmt) else None
            if isinstance(up, (*_SCOPES, ast.ClassDef, ast.GeneratorExp)):
                return None     # run later, or elsewhere
            node = up
        return None

    body = getattr(scope, "body", None)
    at = statement_of(use)
    if not isinstance(body, list) or at is None:
        return values
    index = {id(stmt): k for k, stmt in enumerate(body)}
    here = index.get(id(at))
    best = None
    for value in values:
        stmt = statement_of(value)
        k = index.get(id(stmt)) if stmt is not None else None
        if k is None:
            return values
        plain = isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is value
        if not plain:
            if k <= here:
                return values   # bound inside a compound statement before the use, or in it
            continue
        if k < here and (best is None or k > best[0]):
            best = (k, value)
    return [best[1]] if best is not None else values


def _rebound_elsewhere(analysis: Analysis) -> dict[str, bool]:
    """The names the file binds in ways :func:`_scope_bindings` does not follow: declared
    ``global`` or ``nonlocal`` anywhere, defined by ``def`` or ``class``, bound by a
    ``match`` pattern; every name when the file has ``from … import *``."""
    cached = _REBOUND.get(id(analysis))
    if cached is not None and cached[0] is analysis:
        return cached[1]
    out: dict[str, bool] = {}
    for node in analysis.nodes():
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            out.update(dict.fromkeys(node.names, True))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out[node.name] = True
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            out[node.name] = True
        elif isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names):
            out = _EVERY_NAME
            break
    _REBOUND.clear()
    _REBOUND[id(analysis)] = (analysis, out)
    return out


class _Every(dict):
    def get(self, key, default=None):
        return True


_EVERY_NAME = _Every()
_REBOUND: dict[int, tuple] = {}


def _scope_bindings(analysis: Analysis) -> dict[int, dict[str, list]]:
    """For the module and each function: the values its own statements assign to each plain
    name (not those of nested functions or of class bodies); parameters and names bound by a
    loop, a ``with``, an import or a tuple as ``None``; ``"<declared>"``: its global and
    nonlocal names."""
    cached = _BINDINGS.get(id(analysis))
    if cached is not None and cached[0] is analysis:
        return cached[1]
    out: dict[int, dict[str, list]] = {}

    def bind(scope, name, value):
        out.setdefault(id(scope), {}).setdefault(name, []).append(value)

    def visit(node, scope):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, _SCOPES):
                args = child.args
                for a in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg,
                          args.kwarg):
                    if a is not None:
                        bind(child, a.arg, None)
                visit(child, child)
                continue
            if isinstance(child, ast.ClassDef):
                visit(child, None)          # a class body's names are not its methods'
                continue
            if scope is not None:
                if isinstance(child, (ast.Global, ast.Nonlocal)):
                    out.setdefault(id(scope), {}).setdefault("<declared>", []).extend(child.names)
                elif isinstance(child, ast.Assign):
                    for t in child.targets:
                        if isinstance(t, ast.Name):
                            bind(scope, t.id, child.value)
                        elif (items := _unpacked(analysis, t, child.value)) is not None:
                            for e, v in zip(t.elts, items):     # a, b = x, y
                                for n in ast.walk(e):
                                    if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                                        bind(scope, n.id, v if n is e else None)
                        else:
                            for e in ast.walk(t):
                                if isinstance(e, ast.Name) and isinstance(e.ctx, ast.Store):
                                    bind(scope, e.id, None)
                elif isinstance(child, (ast.AnnAssign, ast.AugAssign, ast.NamedExpr)) \
                        and isinstance(child.target, ast.Name):
                    bind(scope, child.target.id, getattr(child, "value", None)
                         if isinstance(child, ast.AnnAssign) else None)
                elif isinstance(child, (ast.For, ast.AsyncFor, ast.comprehension)):
                    for e in ast.walk(child.target):
                        if isinstance(e, ast.Name):
                            bind(scope, e.id, None)
                elif isinstance(child, ast.withitem) and child.optional_vars is not None:
                    for e in ast.walk(child.optional_vars):
                        if isinstance(e, ast.Name):
                            bind(scope, e.id, None)
                elif isinstance(child, (ast.Import, ast.ImportFrom)):
                    for a in child.names:
                        bind(scope, (a.asname or a.name).split(".")[0], None)
                elif isinstance(child, ast.ExceptHandler) and child.name:
                    bind(scope, child.name, None)
            visit(child, scope)

    visit(analysis.tree, analysis.tree)
    _BINDINGS.clear()
    _BINDINGS[id(analysis)] = (analysis, out)
    return out


_BINDINGS: dict[int, tuple] = {}


@_rule("sequential-add", ["mx.gluon.Block.add", "mx.gluon.nn.Sequential.add",
                          "mx.gluon.nn.HybridSequential.add"],
       "nn.Sequential().add(nn.Dense(10, flatten=False))",
       "torch.nn.Sequential().append(torch.nn.LazyLinear(10))",
       "the container is built by the sequential rule wherever it is assigned; one block → "
       "append, several → extend([...]) (the same order)")
def _sequential_add(site, analysis, text_of):
    call, recv = _call(site), _receiver(site)
    if call is None or call.keywords or not call.args \
            or any(isinstance(a, ast.Starred) for a in call.args) \
            or not _built_by(analysis, recv, "sequential"):
        return None
    head = _atom(recv, text_of(recv))
    if len(call.args) == 1:
        return f"{head}.append({text_of(call.args[0])})"
    return f"{head}.extend([{', '.join(text_of(a) for a in call.args)}])"


@_helper_rule("init-xavier", ["mx.init.Xavier"], "mx.init.Xavier(magnitude=2.24)",
              "gluon_init_xavier(magnitude=2.24)",
              "rnd_type and factor_type absent or literal ('uniform'/'gaussian', "
              "'avg'/'in'/'out'); the helper draws as MXNet's Xavier does (the fans of a "
              "kernel times its spatial size)", ["gluon_init_xavier"])
def _xavier(site, analysis, text_of):
    args = _bind(_call(site), ("rnd_type", "factor_type", "magnitude"))
    if args is None or not _absent_or(args, "rnd_type", "uniform", "gaussian") \
            or not _absent_or(args, "factor_type", "avg", "in", "out"):
        return None
    return "gluon_init_xavier(" + ", ".join(
        f"{k}={text_of(args[k])}" for k in ("rnd_type", "factor_type", "magnitude")
        if k in args) + ")"


@_helper_rule("init-msraprelu", ["mx.init.MSRAPrelu"], "mx.init.MSRAPrelu()",
              "gluon_init_xavier('gaussian', 'avg', 2.0 / (1 + 0.25 ** 2))",
              "factor_type absent or a literal 'avg'/'in'/'out', slope (default 0.25): "
              "MXNet's MSRAPrelu is its Xavier, gaussian, of magnitude 2 / (1 + slope²)",
              ["gluon_init_xavier"])
def _msra(site, analysis, text_of):
    args = _bind(_call(site), ("factor_type", "slope"))
    if args is None or not _absent_or(args, "factor_type", "avg", "in", "out"):
        return None
    slope = f"({text_of(args['slope'])})" if "slope" in args else "0.25"
    factor = text_of(args["factor_type"]) if "factor_type" in args else "'avg'"
    return f"gluon_init_xavier('gaussian', {factor}, 2.0 / (1 + {slope} ** 2))"


def _scale_init(mx_name: str, param: str, helper: str, default: str) -> None:
    def rewrite(site, analysis, text_of):
        args = _bind(_call(site), (param,))
        if args is None:
            return None
        return f"{helper}({text_of(args[param]) if param in args else default})"
    _RULES.append(Rule(f"init-{mx_name.lower()}", (f"mx.init.{mx_name}",),
                       f"mx.init.{mx_name}({default})", f"{helper}({default})",
                       f"{param} only (default {default}, written out)", rewrite))
    RULE_HELPERS[f"init-{mx_name.lower()}"] = (helper,)


_scale_init("Uniform", "scale", "gluon_init_uniform", "0.07")
_scale_init("Normal", "sigma", "gluon_init_normal", "0.01")


def _constant_init(mx_name: str, value: str | None) -> None:
    def rewrite(site, analysis, text_of):
        args = _bind(_call(site), ("value",) if value is None else ())
        if args is None or (value is None and "value" not in args):
            return None
        return f"gluon_init_constant({text_of(args['value']) if value is None else value})"
    _RULES.append(Rule(f"init-{mx_name.lower()}", (f"mx.init.{mx_name}",),
                       f"mx.init.{mx_name}({'0.25' if value is None else ''})",
                       f"gluon_init_constant({'0.25' if value is None else value})",
                       "every value set to " + ("the value (a number)" if value is None
                                                else value), rewrite))
    RULE_HELPERS[f"init-{mx_name.lower()}"] = ("gluon_init_constant",)


_constant_init("Zero", "0.0")
_constant_init("One", "1.0")
_constant_init("Constant", None)

#: the initializer calls the rules above rewrite (initialize and params-get take them)
_INITS = ("mx.init.Xavier", "mx.init.Uniform", "mx.init.Normal", "mx.init.Zero",
          "mx.init.One", "mx.init.Constant", "mx.init.MSRAPrelu")


@_helper_rule("params-get", ["mx.gluon.ParameterDict.get"],
              "class B(gluon.Block):\n    def __init__(self):\n        super().__init__()\n"
              "        self.w = self.params.get('w', shape=(3, 4), init=mx.init.Xavier())",
              "self.w = gluon_parameter('w', (3, 4), init=gluon_init_xavier())",
              "in a Block, assigned to self.<name>: the name, a shape (a 0 in it, Gluon's "
              "deferred size, is refused when the draft runs), init one the init-* rules "
              "rewrite, a literal dtype, grad_req 'write' or 'null' (or an expression: another "
              "value is refused when the draft runs); no lr_mult, wd_mult, "
              "stype; hybrid_forward gets it as the attribute (block-to-module)",
              ["gluon_parameter"])
def _params_get(site, analysis, text_of):
    return _params_get_as(site, analysis, text_of, named=False)


@_helper_rule("params-get-init-by-name", ["mx.gluon.ParameterDict.get"],
              "class B(gluon.Block):\n    def __init__(self, w_init='zeros'):\n"
              "        super().__init__()\n"
              "        self.w = self.params.get('w', shape=(3, 4), init=w_init)",
              "self.w = gluon_parameter('w', (3, 4), init=gluon_init_named(w_init))",
              "as params-get, init a name of MXNet's registry ('zeros', 'ones', 'uniform', "
              "'normal', 'xavier', 'msraprelu'...) or a parameter of the method it is in "
              "(a Block's i2h_weight_initializer=None): gluon_init_named reads it when the "
              "draft runs as Gluon does (None: initialize()'s; a name: that initializer with "
              "its defaults; one of the draft's as it is; another value refused)",
              ["gluon_parameter", "gluon_init_named"])
def _params_get_named(site, analysis, text_of):
    return _params_get_as(site, analysis, text_of, named=True)


#: the names of MXNet's initializer registry gluon_init_named carries
_INIT_NAMES = ("zero", "zeros", "one", "ones", "uniform", "normal", "xavier", "msraprelu")


def _a_parameter_of(analysis: Analysis, node: ast.AST) -> bool:
    """Whether ``node`` is a plain name that is a parameter of the function it is used in,
    bound nowhere else there."""
    if not isinstance(node, ast.Name):
        return False
    values = _values_of(analysis, node)
    if len(values) != 1 or values[0] is not None:
        return False
    parents, scope = _parents(analysis), node
    while (scope := parents.get(id(scope))) is not None and not isinstance(scope, _SCOPES):
        pass
    if scope is None:
        return False
    a = scope.args
    return any(x.arg == node.id for x in (*a.posonlyargs, *a.args, *a.kwonlyargs))


#: ParameterDict.get's parameters after the name
_PARAMS_GET_REST = ("grad_req", "shape", "dtype", "lr_mult", "wd_mult", "init",
                    "allow_deferred_init", "differentiable", "stype", "grad_stype")


def _params_get_as(site, analysis, text_of, named):
    args = _bind(_call(site), ("name",) + _PARAMS_GET_REST, 1)
    parent = _parents(analysis).get(id(site.node))
    if args is None or not isinstance(parent, ast.Assign) \
            or len(parent.targets) != 1 or not _self_attribute(parent.targets[0]):
        return None
    return _parameter_text(args, analysis, text_of, named)


@_helper_rule("parameter-new", ["mx.gluon.Parameter"],
              "output = gluon.Parameter('output', shape=(1, 3, 8, 8))",
              "output = gluon_parameter('output', (1, 3, 8, 8))",
              "a Parameter built on its own, with params-get's arguments (positional in "
              "Parameter's order: name, grad_req, shape, dtype...): its initialize() is "
              "parameter-initialize's", ["gluon_parameter"])
def _parameter_new(site, analysis, text_of):
    args = _bind(_call(site), ("name",) + _PARAMS_GET_REST, 1)
    return None if args is None else _parameter_text(args, analysis, text_of, False)


@_helper_rule("parameter-initialize", ["mx.gluon.Parameter.initialize"],
              "output = gluon.Parameter('o', shape=(2,))\n"
              "output.initialize(mx.init.Constant(1.2), ctx=ctx)",
              "gluon_parameter_initialize(output, init=gluon_init_constant(1.2), ctx=ctx)",
              "the Parameter built by parameter-new, params-get or params-get-existing; init "
              "and default_init absent or rewritten by an init-* rule; the first values drawn "
              "by init, else its own initializer, else default_init (U(-0.07, 0.07)), as "
              "Gluon's Parameter.initialize; a second call warns and keeps them, unless "
              "force_reinit; on ctx's device", ["gluon_parameter_initialize"])
def _parameter_initialize(site, analysis, text_of):
    call, recv = _call(site), _receiver(site)
    args = _bind(call, ("init", "ctx", "default_init", "force_reinit"))
    if args is None or not _parameter_of_the_draft(analysis, recv):
        return None
    for k in ("init", "default_init"):
        v = args.get(k)
        if v is not None and _literal(v) is not None and not (
                isinstance(v, ast.Call) and analysis.site_at(v) is not None
                and analysis.site_at(v).name in _INITS):
            return None
    return "gluon_parameter_initialize(" + ", ".join(
        [text_of(recv)] + [f"{k}={text_of(args[k])}" for k in (
            "init", "ctx", "default_init", "force_reinit") if k in args]) + ")"


def _parameter_text(args, analysis, text_of, named):
    """``gluon_parameter(...)`` for the bound arguments of ParameterDict.get or Parameter,
    or None where the draft cannot carry them."""
    if "shape" not in args or any(k in args for k in ("lr_mult", "wd_mult")) \
            or not _absent_or(args, "differentiable", True) \
            or not _absent_or(args, "stype", "default") \
            or not _absent_or(args, "grad_stype", "default"):
        return None
    if "grad_req" in args and _literal(args["grad_req"]) is not _NO \
            and not _absent_or(args, "grad_req", "write", "null"):
        return None   # 'add' written out: Gluon's accumulation, which the draft does not carry
    shape = _literal(args["shape"])
    if shape is not _NO and (_is_int(shape) and shape == 0 or isinstance(shape, (tuple, list))
                             and 0 in shape):
        return None   # a size Gluon infers at the first call
    init = args.get("init")
    by_name = init is not None and (
        isinstance(_literal(init), str) and _literal(init).lower() in _INIT_NAMES
        or _a_parameter_of(analysis, init))
    if by_name != named:
        return None
    if init is not None and not by_name and not (
            isinstance(init, ast.Call) and analysis.site_at(init) is not None
            and analysis.site_at(init).name in _INITS):
        return None
    dt = _dtype(args.get("dtype"), default=None) if "dtype" in args else ""
    if dt is None:
        return None
    init_text = f"gluon_init_named({text_of(init)})" if by_name else \
        text_of(init) if init is not None else None
    parts = [text_of(args["name"]), text_of(args["shape"])] + \
        ([f"init={init_text}"] if init_text is not None else []) + \
        ([f"dtype={dt}"] if dt else []) + \
        ([f"grad_req={text_of(args['grad_req'])}"] if "grad_req" in args else [])
    return f"gluon_parameter({', '.join(parts)})"


@_rule("params-get-existing", ["mx.gluon.ParameterDict.get"],
       "class B(gluon.Block):\n    def __init__(self):\n        super().__init__()\n"
       "        self.w = self.params.get('w', shape=(3,))\n"
       "    def forward(self, x):\n        return x * self.params.get('w').data()",
       "return x * self.w",
       "self.params.get with the name alone, a literal, in a class that assigns "
       "self.<attr> = self.params.get(that name, ...) once, which params-get rewrites: "
       "Gluon gives that Parameter back, the draft its attribute")
def _params_get_existing(site, analysis, text_of):
    call = _call(site)
    args = _bind(call, ("name",), 1)
    if args is None or list(args) != ["name"] or not isinstance(_literal(args["name"]), str):
        return None
    owner = _class_of(analysis, call)
    if owner is None:
        return None
    wanted, found = _literal(args["name"]), []
    for node in ast.walk(owner):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 \
                and _self_attribute(node.targets[0]) and isinstance(node.value, ast.Call) \
                and node.value is not call:
            made = analysis.site_at(node.value)
            if made is not None and made.name == "mx.gluon.ParameterDict.get":
                named = _bind(node.value, ("name",) + _PARAMS_GET_REST, 1)
                if named is not None and "name" in named \
                        and _literal(named["name"]) == wanted:
                    found.append((node.targets[0], made))
    if len(found) != 1:
        return None
    target, made = found[0]
    rules = [r for r in _RULES if r.name in ("params-get", "params-get-init-by-name")]
    if not _a_rule_takes(made, analysis, rules):
        return None
    return f"self.{target.attr}"


def _parameter_of_the_draft(analysis: Analysis, recv: ast.AST | None) -> bool:
    """Whether ``recv`` is a Parameter the draft makes: built by params-get (or its by-name
    form) or parameter-new, or the self.params.get(name) that params-get-existing
    rewrites."""
    if recv is None:
        return False
    if isinstance(recv, ast.Call):
        site = analysis.site_at(recv)
        return site is not None and _a_rule_takes(site, analysis, [
            r for r in _RULES if r.name in ("params-get-existing",)])
    return _built_by(analysis, recv, ("params-get", "params-get-init-by-name",
                                      "parameter-new"))


_OWN_W = ("class B(gluon.Block):\n    def __init__(self):\n        super().__init__()\n"
          "        self.w = self.params.get('w', shape=(3,))\n")


@_rule("parameter-data", ["mx.gluon.Parameter.data"],
       _OWN_W + "    def forward(self, x):\n        return x * self.w.data()",
       "return x * self.w",
       "the Parameter built by params-get, parameter-new or params-get-existing, data() or "
       "data(ctx): "
       "in torch the Parameter is the tensor, its gradient recorded as Gluon's data() is")
def _parameter_data(site, analysis, text_of):
    call, recv = _call(site), _receiver(site)
    if _bind(call, ("ctx",)) is None or not _parameter_of_the_draft(analysis, recv):
        return None
    return text_of(recv)


@_helper_rule("parameter-set-data", ["mx.gluon.Parameter.set_data"],
              _OWN_W + "    def reset(self, x):\n        self.w.set_data(x)",
              "gluon_set_data(self.w, x)",
              "the Parameter built by params-get, parameter-new or params-get-existing: the "
              "values "
              "copied in place outside autograd, a shape other than the parameter's refused "
              "as Gluon refuses it", ["gluon_set_data"])
def _parameter_set_data(site, analysis, text_of):
    call, recv = _call(site), _receiver(site)
    args = _bind(call, ("data",), 1)
    if args is None or "data" not in args or not _parameter_of_the_draft(analysis, recv):
        return None
    return f"gluon_set_data({text_of(recv)}, {text_of(args['data'])})"


def _self_attribute(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
        and node.value.id == "self"


def _one_device(analysis: Analysis, node: ast.AST) -> bool:
    """Whether ``node`` is mx.cpu(…)/mx.gpu(…), or names what only such calls are assigned
    (``context = mx.gpu(0) if args.cuda else mx.cpu()``)."""
    def device(value):
        if isinstance(value, ast.IfExp):
            return device(value.body) and device(value.orelse)
        site = analysis.site_at(value) if isinstance(value, ast.Call) else None
        return site is not None and site.name in ("mx.cpu", "mx.gpu")
    if device(node):
        return True
    values = _values_of(analysis, node) if isinstance(node, (ast.Name, ast.Attribute)) else []
    return bool(values) and all(v is not None and device(v) for v in values)


def _list_context(analysis: Analysis, node: ast.AST) -> bool:
    """Whether ``node`` is, or names something assigned, a list or tuple (of contexts)."""
    seqs = (ast.List, ast.Tuple, ast.ListComp, ast.GeneratorExp)
    if isinstance(node, seqs):
        return True
    dotted = _dotted_name(node) if isinstance(node, (ast.Name, ast.Attribute)) else None
    return any(isinstance(v, seqs) for v in _assignments(analysis).get(dotted or "", []))


@_helper_rule("initialize", ["mx.gluon.Block.initialize"],
              "nn.Dense(3, in_units=2, flatten=False).initialize(mx.init.Xavier(), ctx=mx.cpu())",
              "gluon_initialize(torch.nn.Linear(2, 3), gluon_init_xavier(), torch.device('cpu'))",
              "init absent (Gluon's U(-0.07, 0.07)) or an initialiser the init-* rules rewrite; "
              "ctx absent or one device (not a list: a model on several devices is DDP's "
              "business); every weight drawn, every bias zero, lazy layers at their first "
              "input", ["gluon_initialize"])
def _initialize(site, analysis, text_of):
    call, recv = _call(site), _receiver(site)
    args = _bind(call, ("init", "ctx", "verbose", "force_reinit"))
    if recv is None or site.how == "guessed":
        return None
    return _initialize_text(recv, args, analysis, text_of)


def _initialize_text(recv, args, analysis, text_of):
    """``gluon_initialize(net, init, ctx)`` for ``net.initialize(**args)``, or None."""
    if args is None or not _absent_or(args, "verbose", True, False) \
            or not _absent_or(args, "force_reinit", True, False):
        return None
    ctx = args.get("ctx")
    if ctx is not None and _literal(ctx) is None:
        ctx = None  # ctx=None: the default device
    if ctx is not None and _list_context(analysis, ctx):
        return None
    init = args.get("init")
    if init is not None and not (isinstance(init, ast.Call) and (
            analysis.site_at(init) is not None and analysis.site_at(init).name in _INITS)):
        return None
    parts = [text_of(recv)]
    if init is not None:
        parts.append(text_of(init))
    if ctx is not None:
        parts.append(("" if init is not None else "device=") + text_of(ctx))
    return f"gluon_initialize({', '.join(parts)})"


_SGD_KEYS = {"learning_rate": "lr", "momentum": "momentum", "wd": "weight_decay"}


@_rule("trainer-sgd", ["mx.gluon.Trainer", "mx.gluon.Block.collect_params"],
       "gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1, 'momentum': 0.9})",
       "torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)",
       "the parameters as net.collect_params(), optimizer 'sgd', optimizer_params a dict of "
       "learning_rate (default 0.01, written out), momentum, wd; one process (kvstore absent, "
       "'device' or 'local'); its step(batch_size) becomes gluon_trainer_step (the 1/batch_size "
       "Gluon applies); MXNet's momentum update and PyTorch's are the same with a constant "
       "learning rate")
def _trainer_sgd(site, analysis, text_of):
    return _sgd_text(_trainer_parts(site, "sgd", _SGD_KEYS, text_of, analysis))


def _sgd_text(parts, nesterov: bool = False) -> str | None:
    """``torch.optim.SGD(net.parameters(), lr=…, …)`` from :func:`_trainer_parts`' answer
    (MXNet's default learning rate 0.01 written out)."""
    if parts is None:
        return None
    head, given = parts
    given.setdefault("lr", "0.01")
    return "torch.optim.SGD(" + ", ".join([head] + [
        f"{k}={given[k]}" for k in ("lr", "momentum", "weight_decay") if k in given]
        + (["nesterov=True"] if nesterov else [])) + ")"


def _collected_block(node: ast.AST | None) -> ast.AST | None:
    """The block ``net`` of the call ``net.collect_params()`` (no select pattern), else
    None."""
    if isinstance(node, ast.Call) and not node.args and not node.keywords \
            and isinstance(node.func, ast.Attribute) and node.func.attr == "collect_params":
        return node.func.value
    return None


def _string_value(analysis: Analysis, node: ast.AST) -> str | None:
    """A literal string, or a name every assignment of which (as Python resolves it there)
    is that one literal string (``optimizer = 'nag'``)."""
    v = _literal(node)
    if isinstance(v, str):
        return v
    if not isinstance(node, ast.Name):
        return None
    values = {_literal(x) if x is not None else None for x in _values_of(analysis, node)}
    return values.pop() if len(values) == 1 and isinstance(next(iter(values)), str) else None


#: gluon.Trainer's parameters, in order
_TRAINER_PARAMS = ("params", "optimizer", "optimizer_params", "kvstore", "compression_params",
                   "update_on_kvstore")
#: the kvstore types of one process: the gradients of one device are its own
_LOCAL_KVSTORES = ("local", "device", "local_update_cpu", "local_allreduce_cpu",
                   "local_allreduce_device")


def _one_process(args: dict, analysis: Analysis) -> bool:
    """Whether a Trainer's kvstore keeps it to one process: absent, a literal local type, or
    a kvstore the draft builds as :class:`GluonKVStore` (which refuses a distributed type when
    the draft runs); no gradient compression. update_on_kvstore (where the update runs) does
    not change it."""
    if _literal(args.get("compression_params"), None) is not None:
        return False
    kv = args.get("kvstore")
    return kv is None or _literal(kv) in _LOCAL_KVSTORES or _built_by(analysis, kv, "kv-create")


def _trainer_parts(site, optimizer: str, keys: dict[str, str], text_of, analysis):
    """For ``gluon.Trainer(net.collect_params(), <optimizer>, {literal settings})`` in one
    process (the optimizer a literal or a name assigned only that literal): (``net.
    parameters()``'s text, {the setting's name in ``keys``: its text}), the
    ``collect_params()`` call consumed; else None."""
    args = _bind(_call(site), _TRAINER_PARAMS, 2)
    name = _string_value(analysis, args["optimizer"]) if args is not None else None
    if args is None or name is None or name.lower() != optimizer \
            or not _one_process(args, analysis):
        return None
    owner = _collected_block(args["params"])
    if owner is None:
        return None
    settings = args.get("optimizer_params")
    given: dict[str, str] = {}
    if settings is not None:
        if not isinstance(settings, ast.Dict) or None in settings.keys:
            return None
        for k, v in zip(settings.keys, settings.values):
            if _literal(k) not in keys:
                return None
            given[keys[_literal(k)]] = text_of(v)
    _consume(text_of, args["params"])
    return f"{_atom(owner, text_of(owner))}.parameters()", given


_ADAM_KEYS = {"learning_rate": "lr", "beta1": "beta1", "beta2": "beta2", "epsilon": "epsilon",
              "wd": "wd"}


@_helper_rule("trainer-adam", ["mx.gluon.Trainer", "mx.gluon.Block.collect_params"],
              "gluon.Trainer(net.collect_params(), 'adam', {'learning_rate': 0.01})",
              "gluon_adam(net.parameters(), lr=0.01)",
              "the parameters as net.collect_params(), optimizer 'adam', optimizer_params a "
              "dict of learning_rate, beta1, beta2, epsilon, wd; one process; torch.optim.Adam "
              "adds epsilon elsewhere (another update), so the draft carries MXNet's as "
              "gluon_adam", ["gluon_adam"])
def _trainer_adam(site, analysis, text_of):
    parts = _trainer_parts(site, "adam", _ADAM_KEYS, text_of, analysis)
    if parts is None:
        return None
    head, given = parts
    return "gluon_adam(" + ", ".join([head] + [f"{k}={v}" for k, v in given.items()]) + ")"


@_rule("trainer-nag", ["mx.gluon.Trainer", "mx.gluon.Block.collect_params"],
       "gluon.Trainer(net.collect_params(), 'nag', {'learning_rate': 0.1, 'momentum': 0.9})",
       "torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9, nesterov=True)",
       "as trainer-sgd, optimizer 'nag', no weight decay (wd absent or a literal 0): MXNet's "
       "Nesterov step is then torch's SGD with nesterov=True (with wd, MXNet leaves wd·w "
       "out of the step's gradient term, torch keeps it: another update); without momentum "
       "(or a literal 0) it is plain SGD, which torch's nesterov refuses")
def _trainer_nag(site, analysis, text_of):
    parts = _trainer_parts(site, "nag", _SGD_KEYS, text_of, analysis)
    if parts is None:
        return None
    given = parts[1]
    if "weight_decay" in given and _literal_text_zero(given["weight_decay"]) is not True:
        return None
    # a momentum the script computes is taken as non-zero (torch refuses 0 with nesterov)
    return _sgd_text(parts, "momentum" in given
                     and _literal_text_zero(given["momentum"]) is not True)


def _literal_text_zero(text: str) -> bool | None:
    """Whether the text of a setting is a literal zero (None: an expression)."""
    try:
        return float(ast.literal_eval(text)) == 0
    except (ValueError, SyntaxError, TypeError):
        return None


#: the rules that build a trainer as a torch optimizer
#: gluon_optimizer's optimizers and the settings it reads (each optimizer checks its own)
_OPTIMIZERS = {
    "sgd": {"momentum", "lazy_update"}, "nag": {"momentum"},
    "adam": {"beta1", "beta2", "epsilon", "lazy_update"},
    "rmsprop": {"gamma1", "gamma2", "epsilon", "centered", "clip_weights"},
    "adagrad": {"eps"}, "adadelta": {"rho", "epsilon"}}
_OPTIMIZER_COMMON = {"learning_rate", "wd", "rescale_grad", "clip_gradient", "multi_precision",
                     "lr_scheduler"}

_WARMUP = ("warmup_steps", "warmup_begin_lr", "warmup_mode")
_SCHEDULERS = {
    "factor": ("FactorScheduler", ("step", "factor", "stop_factor_lr", "base_lr", *_WARMUP),
               "FactorScheduler(step=500, factor=0.5)"),
    "multifactor": ("MultiFactorScheduler", ("step", "factor", "base_lr", *_WARMUP),
                    "MultiFactorScheduler([300, 600], 0.1, warmup_steps=50)"),
    "poly": ("PolyScheduler", ("max_update", "base_lr", "pwr", "final_lr", *_WARMUP),
             "PolyScheduler(1000, 0.1, pwr=2)"),
    "cosine": ("CosineScheduler", ("max_update", "base_lr", "final_lr", *_WARMUP),
               "CosineScheduler(1000, base_lr=0.1, final_lr=0.001)"),
}


def _lr_scheduler(kind: str, params: tuple[str, ...]):
    def rewrite(site, analysis, text_of):
        call = _call(site)
        if _bind(call, params, 1) is None or site.how == "guessed":
            return None
        return "gluon_lr_scheduler(" + ", ".join(
            [f"'{kind}'"] + [text_of(a) for a in call.args]
            + [f"{k.arg}={text_of(k.value)}" for k in call.keywords]) + ")"
    return rewrite


for _kind, (_cls, _params, _example) in _SCHEDULERS.items():
    _RULES.append(Rule(
        f"lr-scheduler-{_kind}", (f"mx.lr_scheduler.{_cls}",), f"mx.lr_scheduler.{_example}",
        f"gluon_lr_scheduler('{_kind}', {_example.split('(', 1)[1]}",
        "MXNet's arguments as given (its order); the helper is MXNet's schedule in pure "
        "Python (warm-up included), which gluon_optimizer (trainer-optimizer, its "
        "optimizer_params' lr_scheduler) calls with the update count before each update, "
        "as MXNet's optimizer does; torch's StepLR/MultiStepLR/CosineAnnealingLR count "
        "epochs or steps from another origin", _lr_scheduler(_kind, _params)))
    RULE_HELPERS[f"lr-scheduler-{_kind}"] = ("gluon_lr_scheduler",)


def _settings_ok(analysis: Analysis, node: ast.AST | None, name: str | None) -> bool:
    """Whether optimizer_params can be carried: absent; a dict whose keys are literal
    settings the optimizer (or, its name unknown, one of them) reads; or a name bound to
    such dicts only (a parameter: unknown, checked when the draft runs)."""
    if node is None:
        return True
    allowed = _OPTIMIZER_COMMON | (_OPTIMIZERS[name] if name else set().union(
        *_OPTIMIZERS.values()))
    values = [node] if isinstance(node, ast.Dict) else \
        _values_of(analysis, node) if isinstance(node, ast.Name) else [None]
    if not values:
        return False
    for v in values:
        if v is None and isinstance(node, ast.Name):
            continue
        if not isinstance(v, ast.Dict) or None in v.keys \
                or any(_literal(k) not in allowed for k in v.keys):
            return False
    return True


@_helper_rule("trainer-optimizer", ["mx.gluon.Trainer", "mx.gluon.Block.collect_params"],
              "gluon.Trainer(net.collect_params(), opt.optimizer, {'learning_rate': opt.lr})",
              "gluon_optimizer(net.parameters(), opt.optimizer, {'learning_rate': opt.lr})",
              "the parameters as net.collect_params() or a list of the draft's Parameters "
              "(parameter-new, params-get); the optimizer 'sgd', 'nag', 'adam', "
              "'rmsprop', 'adagrad' or 'adadelta', or an expression of the script (no MXNet "
              "in it) that gives one when it runs; optimizer_params a dict of the settings "
              "that optimizer reads, or a name; one process: kvstore and compression_params "
              "as trainer-sgd takes them, or expressions of the script the helper checks when "
              "it runs (a distributed kvstore or a compression refused). Where trainer-sgd, "
              "trainer-adam and "
              "trainer-nag decline (another optimizer, clip_gradient, rescale_grad, settings "
              "as expressions): the helper runs MXNet's update kernels (NAG's momentum from "
              "the weight its kernel has just written), and raises for what it does not carry",
              ["gluon_optimizer"])
def _trainer_optimizer(site, analysis, text_of):
    args = _bind(_call(site), _TRAINER_PARAMS, 2)
    if args is None:
        return None
    checked = {}     # kvstore and compression_params the helper checks when the draft runs
    for k in ("kvstore", "compression_params"):
        v = args.get(k)
        if v is not None and _literal(v) is _NO and _mx_free(analysis, v):
            checked[k] = v
    if not _one_process({k: v for k, v in args.items() if k not in checked}, analysis):
        return None
    owner, opt = _collected_block(args["params"]), args["optimizer"]
    own = _draft_parameters(analysis, args["params"])
    name = _string_value(analysis, opt)
    if (owner is None and not own) or (name is not None and name.lower() not in _OPTIMIZERS):
        return None
    if name is None and not (_mx_free(analysis, opt) and (
            not isinstance(opt, ast.Name)
            or all(v is None or _mx_free(analysis, v) for v in _values_of(analysis, opt)))):
        return None      # a name the helper reads when the draft runs (it refuses another)
    if not _settings_ok(analysis, args.get("optimizer_params"), name and name.lower()):
        return None
    if owner is not None:
        _consume(text_of, args["params"])
    return "gluon_optimizer(" + ", ".join(
        [f"{_atom(owner, text_of(owner))}.parameters()" if owner is not None
         else text_of(args["params"]), text_of(opt)]
        + ([text_of(args["optimizer_params"])] if "optimizer_params" in args else [])
        + [f"{k}={text_of(v)}" for k, v in checked.items()]) + ")"


def _mx_free(analysis: Analysis, node: ast.AST) -> bool:
    """Whether the expression holds no MXNet construct (its value comes from the script:
    an option, a name)."""
    return not any(analysis.site_at(n) is not None
                   and analysis.site_at(n).framework == MXNET for n in ast.walk(node))


def _draft_parameters(analysis: Analysis, node: ast.AST) -> bool:
    """Whether ``node`` is a list or tuple of Parameters the draft makes (parameter-new,
    params-get): ``gluon.Trainer([beta], 'sgd')``."""
    return isinstance(node, (ast.List, ast.Tuple)) and bool(node.elts) and all(
        _parameter_of_the_draft(analysis, e) for e in node.elts)


@_helper_rule("kv-create", ["mx.kv.create"], "mx.kv.create('device')", "GluonKVStore('device')",
              "the type absent ('local') or a literal local type or an expression (the "
              "script's option): a kvstore of one process, rank 0 of 1 worker; the helper "
              "raises for a distributed type (dist_*, horovod, byteps: port that part with "
              "torch.distributed and DistributedDataParallel)", ["GluonKVStore"])
def _kv_create(site, analysis, text_of):
    args = _bind(_call(site), ("name",))
    if args is None:
        return None
    name = _literal(args.get("name"), "local")
    if name is not _NO and name not in _LOCAL_KVSTORES:
        return None
    return f"GluonKVStore({text_of(args['name'])})" if "name" in args else "GluonKVStore()"


for _attr in ("num_workers", "rank", "type"):
    _RULES.append(Rule(
        f"kv-{_attr.replace('_', '-')}", (f"mx.kv.KVStore.{_attr}",), f"kv.{_attr}",
        f"kv.{_attr}", "read on a kvstore kv-create builds: GluonKVStore's (rank 0 of 1 "
        "worker, its type)", lambda site, analysis, text_of: analysis.segment(site.node)
        if isinstance(site.node, ast.Attribute) and isinstance(site.node.ctx, ast.Load)
        and _built_by(analysis, site.node.value, "kv-create") else None))


_TRAINER_RULES = ("trainer-sgd", "trainer-adam", "trainer-nag", "trainer-optimizer")


@_helper_rule("trainer-set-learning-rate", ["mx.gluon.Trainer.set_learning_rate"],
              "gluon.Trainer(net.collect_params(), 'sgd').set_learning_rate(0.1)",
              "gluon_set_learning_rate(torch.optim.SGD(net.parameters(), lr=0.01), 0.1)",
              "the trainer built by trainer-sgd or trainer-adam wherever it is assigned: every "
              "parameter group's lr", ["gluon_set_learning_rate"])
def _set_learning_rate(site, analysis, text_of):
    args = _bind(_call(site), ("lr",), 1)
    recv = _receiver(site)
    if args is None or not _built_by(analysis, recv, _TRAINER_RULES):
        return None
    return f"gluon_set_learning_rate({text_of(recv)}, {text_of(args['lr'])})"


@_rule("trainer-learning-rate", ["mx.gluon.Trainer.learning_rate"],
       "gluon.Trainer(net.collect_params(), 'sgd').learning_rate",
       "torch.optim.SGD(net.parameters(), lr=0.01).param_groups[0]['lr']",
       "read only, on the trainer built by trainer-sgd or trainer-adam wherever it is "
       "assigned: the first parameter group's lr (all of them, unless a person split them)")
def _learning_rate(site, analysis, text_of):
    node = site.node
    if not isinstance(node, ast.Attribute) or not isinstance(node.ctx, ast.Load) \
            or not _built_by(analysis, node.value, _TRAINER_RULES):
        return None
    return f"{_atom(node.value, text_of(node.value))}.param_groups[0]['lr']"


def _trainer_file(method: str, torch_call: str):
    def rewrite(site, analysis, text_of):
        args = _bind(_call(site), ("fname",), 1)
        recv = _receiver(site)
        if args is None or not _built_by(analysis, recv, _TRAINER_RULES):
            return None
        return torch_call.format(t=_atom(recv, text_of(recv)), f=text_of(args["fname"]))
    return rewrite


_RULES.append(Rule(
    "trainer-save-states", ("mx.gluon.Trainer.save_states",),
    "gluon.Trainer(net.collect_params(), 'sgd').save_states('t.states')",
    "torch.save(torch.optim.SGD(net.parameters(), lr=0.01).state_dict(), 't.states')",
    "the trainer built by a trainer rule: the optimizer's state dict saved (momentum buffers, "
    "steps); a file MXNet wrote is converted by mx2torch's optimizer states, not read here",
    _trainer_file("save_states", "torch.save({t}.state_dict(), {f})")))
_RULES.append(Rule(
    "trainer-load-states", ("mx.gluon.Trainer.load_states",),
    "gluon.Trainer(net.collect_params(), 'sgd').load_states('t.states')",
    "torch.optim.SGD(net.parameters(), lr=0.01).load_state_dict(torch.load('t.states'))",
    "the trainer built by a trainer rule: what trainer-save-states wrote, read back",
    _trainer_file("load_states", "{t}.load_state_dict(torch.load({f}))")))


@_rule("mx-context-class", ["mx.Context", "mx.context.Context"],
       "isinstance(ctx, mx.Context)", "isinstance(ctx, torch.device)",
       "the class as isinstance's second argument: a context is a torch.device in the draft "
       "(the mx.cpu/mx.gpu rules)")
def _context_class(site, analysis, text_of):
    return "torch.device" if _isinstance_class(site, analysis) else None


def _isinstance_class(site, analysis) -> bool:
    """Whether the site is the class of ``isinstance(x, cls)`` (or one class of a tuple
    there)."""
    parent = _parents(analysis).get(id(site.node))
    if isinstance(parent, ast.Tuple):
        parent = _parents(analysis).get(id(parent))
        return isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) \
            and parent.func.id == "isinstance" and len(parent.args) == 2 \
            and any(e is site.node for e in getattr(parent.args[1], "elts", ()))
    return isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) \
        and parent.func.id == "isinstance" and len(parent.args) == 2 \
        and parent.args[1] is site.node


@_rule("ndarray-class", ["mx.nd.NDArray", "mx.ndarray.NDArray"],
       "isinstance(x, mx.nd.NDArray)", "isinstance(x, torch.Tensor)",
       "the class as isinstance's second argument (alone or in a tuple): an array is a "
       "torch.Tensor in the draft")
def _ndarray_class(site, analysis, text_of):
    return "torch.Tensor" if site.kind != "call" and _isinstance_class(site, analysis) \
        else None


def _on_collect_params(site) -> ast.AST | None:
    """The block ``net`` of ``net.collect_params().method(...)`` (no select pattern), else
    None."""
    return _collected_block(_receiver(site))


@_helper_rule("reset-ctx", ["mx.gluon.ParameterDict.reset_ctx",
                           "mx.gluon.Block.collect_params"],
              "nn.Dense(3, in_units=2).collect_params().reset_ctx(mx.cpu())",
              "gluon_reset_ctx(torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(2, 3)), "
              "torch.device('cpu'))",
              "on net.collect_params() (every parameter), ctx one device or a list of one: the "
              "module moved there; several devices are DistributedDataParallel's, and the "
              "helper says so", ["gluon_reset_ctx"])
def _reset_ctx(site, analysis, text_of):
    args, net = _bind(_call(site), ("ctx",), 1), _on_collect_params(site)
    if args is None or net is None:
        return None
    _consume(text_of, _receiver(site))
    return f"gluon_reset_ctx({text_of(net)}, {text_of(args['ctx'])})"


@_helper_rule("params-initialize", ["mx.gluon.ParameterDict.initialize",
                                    "mx.gluon.Block.collect_params"],
              "nn.Dense(3, in_units=2).collect_params().initialize(mx.init.Xavier())",
              "gluon_initialize(torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(2, 3)), "
              "gluon_init_xavier())",
              "on net.collect_params() (every parameter) of a block the script builds: what "
              "net.initialize(...) does, with the same conditions", ["gluon_initialize"])
def _params_initialize(site, analysis, text_of):
    net, collected = _on_collect_params(site), _receiver(site)
    got = analysis.site_at(collected) if collected is not None else None
    if net is None or got is None or got.how == "guessed":
        return None
    text = _initialize_text(net, _bind(_call(site), ("init", "ctx", "verbose", "force_reinit")),
                            analysis, text_of)
    if text is not None:
        _consume(text_of, collected)
    return text


@_rule("params-zero-grad", ["mx.gluon.ParameterDict.zero_grad",
                            "mx.gluon.Block.collect_params"],
       "nn.Dense(3, in_units=2).collect_params().zero_grad()",
       "torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(2, 3)).zero_grad("
       "set_to_none=False)",
       "on net.collect_params(), no arguments: every gradient set to zero (PyTorch's default "
       "would drop them: None)")
def _params_zero_grad(site, analysis, text_of):
    call, net = _call(site), _on_collect_params(site)
    if call is None or call.args or call.keywords or net is None:
        return None
    _consume(text_of, _receiver(site))
    return f"{_atom(net, text_of(net))}.zero_grad(set_to_none=False)"


@_rule("params-grad-req", ["mx.gluon.ParameterDict.setattr",
                           "mx.gluon.Block.collect_params"],
       "nn.Dense(3, in_units=2).collect_params().setattr('grad_req', 'null')",
       "torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(2, 3)).requires_grad_(False)",
       "on net.collect_params(), ('grad_req', 'null' or 'write'): the parameters frozen or "
       "trained ('add', which accumulates, is PyTorch's own behaviour and needs a decision)")
def _params_grad_req(site, analysis, text_of):
    args, net = _bind(_call(site), ("name", "value"), 2), _on_collect_params(site)
    if args is None or net is None or _literal(args["name"]) != "grad_req" \
            or _literal(args["value"]) not in ("null", "write"):
        return None
    _consume(text_of, _receiver(site))
    return f"{_atom(net, text_of(net))}.requires_grad_({_literal(args['value']) == 'write'})"


def _grads_comprehension(analysis: Analysis, values: ast.AST) -> ast.AST | None:
    """The comprehension ``[p.grad(ctx) for p in net.collect_params().values()]`` whose
    iterable is ``values`` (one generator, no condition, the element ``p.grad()`` or
    ``p.grad(ctx)``), else None."""
    parents = _parents(analysis)
    gen = parents.get(id(values))
    comp = parents.get(id(gen))
    if not (isinstance(gen, ast.comprehension) and gen.iter is values and not gen.ifs
            and isinstance(gen.target, ast.Name) and isinstance(comp, (ast.ListComp,
                                                                      ast.GeneratorExp))
            and len(comp.generators) == 1):
        return None
    elt = comp.elt
    if isinstance(elt, ast.Call) and isinstance(elt.func, ast.Attribute) \
            and elt.func.attr == "grad" and isinstance(elt.func.value, ast.Name) \
            and elt.func.value.id == gen.target.id and _bind(elt, ("ctx",)) is not None \
            and not _per_device(analysis, elt):
        return comp
    return None


@_rule("params-values-grads", ["mx.gluon.ParameterDict.values", "mx.gluon.Block.collect_params"],
       "[p.grad(ctx) for p in net.collect_params().values()]",
       "[gluon_grad(p) for p in net.parameters()]",
       "net.collect_params().values() iterated by a comprehension that takes each one's "
       "grad() and nothing else: the parameters that have gradients (Gluon's grad() raises on "
       "the others, BatchNorm's running statistics among them), in the same order")
def _params_values_grads(site, analysis, text_of):
    net = _on_collect_params(site)
    call = _call(site)
    if net is None or call is None or call.args or call.keywords \
            or _grads_comprehension(analysis, call) is None:
        return None
    _consume(text_of, _receiver(site))
    return f"{_atom(net, text_of(net))}.parameters()"


@_helper_rule("parameter-grad", ["mx.gluon.Parameter.grad"],
              "[p.grad(ctx) for p in net.collect_params().values()]",
              "[gluon_grad(p) for p in net.parameters()]",
              "grad() or grad(ctx) of the parameters params-values-grads iterates, or of a "
              "Parameter the draft built (params-get, parameter-new): the gradient tensor, to "
              "change in place as Gluon's; zeros before any backward (Gluon's buffer); a "
              "frozen parameter raises, as grad_req='null' does", ["gluon_grad"])
def _parameter_grad(site, analysis, text_of):
    call, recv = _call(site), _receiver(site)
    if call is None or _bind(call, ("ctx",)) is None:
        return None
    node, parents = call, _parents(analysis)
    while node is not None and not isinstance(node, (ast.ListComp, ast.GeneratorExp)):
        node = parents.get(id(node))
    ours = node is not None and node.elt is call and isinstance(recv, ast.Name) and (
        lambda it: it is not None and _params_values_grads(it, analysis, lambda n: "")
        is not None)(analysis.site_at(node.generators[0].iter))
    if not ours and not _parameter_of_the_draft(analysis, recv):
        return None
    if _per_device(analysis, call):
        return None   # one gradient per device of a list: several devices, not the draft's
    for arg in call.args + [k.value for k in call.keywords]:
        _consume(text_of, arg)   # the device: the gradient is where the parameter is
    return f"gluon_grad({text_of(recv)})"


def _wikitext(kind: str):
    def rewrite(site, analysis, text_of):
        args = _bind(_call(site), ("root", "segment", "vocab", "seq_len"))
        if args is None:
            return None
        return _helper_call("GluonWikiText", ("root", "segment", "vocab", "seq_len"), args,
                            text_of, 2)[:-1] + f"{', ' if args else ''}kind={kind!r})"
    return rewrite


for _size in ("2", "103"):
    _helper_rule(f"wikitext{_size}", [f"mx.gluon.contrib.data.text.WikiText{_size}"],
                 f"gluon.contrib.data.text.WikiText{_size}('./data', 'train', seq_len=35)",
                 f"GluonWikiText('./data', 'train', seq_len=35, kind='wikitext-{_size}')",
                 "root, segment, vocab, seq_len: Gluon's rows of token indices (int32) and "
                 "the next tokens as labels, its vocabulary (frequency order, '<unk>' then "
                 "'<eos>' first) built from the segment unless given; the files read from "
                 "root, where Gluon would download them", ["GluonWikiText"])(
        _wikitext(f"wikitext-{_size}"))


def _per_device(analysis: Analysis, call: ast.Call) -> bool:
    """Whether ``call``'s device argument is a name an enclosing comprehension iterates
    (``[[p.grad(c) for p in …] for c in ctx]``)."""
    names = {a.id for a in call.args + [k.value for k in call.keywords]
             if isinstance(a, ast.Name)}
    node, parents = call, _parents(analysis)
    while names and (node := parents.get(id(node))) is not None:
        if isinstance(node, (ast.ListComp, ast.GeneratorExp, ast.SetComp, ast.DictComp)):
            bound = {n.id for g in node.generators for n in ast.walk(g.target)
                     if isinstance(n, ast.Name)}
            if names & bound:
                return True
    return False


_pass_on("clip-global-norm", ["mx.gluon.utils.clip_global_norm"],
         "gluon.utils.clip_global_norm(grads, 0.25)", "gluon_clip_global_norm(grads, 0.25)",
         "Gluon's: the arrays scaled in place by max_norm / (total norm + 1e-8) when that is "
         "below 1 (torch's clip_grad_norm_ adds 1e-6 and takes parameters, not gradients); "
         "the total norm returned as a float (a (1,) tensor with check_isfinite=False), a "
         "warning when it is not finite", "gluon_clip_global_norm",
         ("arrays", "max_norm", "check_isfinite"), 2)


def _consume(text_of, node: ast.AST) -> None:
    """Tell the writer that a rule rewrote the MXNet construct ``node`` as part of its own
    (``net.collect_params()`` inside ``Trainer``): it does not keep the call as it is."""
    consume = getattr(text_of, "consume", None)
    if consume is not None:
        consume(node)


@_helper_rule("trainer-step", ["mx.gluon.Trainer.step"],
              "gluon.Trainer(net.collect_params(), 'sgd').step(64)",
              "gluon_trainer_step(torch.optim.SGD(net.parameters(), lr=0.01), 64)",
              "the trainer built by trainer-sgd or trainer-adam wherever it is assigned; "
              "batch_size given; no "
              "ignore_stale_grad: the gradients divided by batch_size, one update, then "
              "cleared", ["gluon_trainer_step"])
def _trainer_step(site, analysis, text_of):
    args = _bind(_call(site), ("batch_size",), 1)
    recv = _receiver(site)
    if args is None or not _built_by(analysis, recv, _TRAINER_RULES):
        return None
    return f"gluon_trainer_step({text_of(recv)}, {text_of(args['batch_size'])})"


@_helper_rule("metric-composite", ["mx.metric.CompositeEvalMetric",
                                   "mx.gluon.metric.CompositeEvalMetric"],
              "mx.metric.CompositeEvalMetric([mx.metric.Accuracy(), mx.metric.TopKAccuracy(5)])",
              "GluonCompositeEvalMetric([GluonAccuracy(), GluonTopKAccuracy(top_k=5)])",
              "metrics absent or a list (or tuple) of metrics other rules build, and name: "
              "the helper updates and resets them together and gives Gluon's (names, values)",
              ["GluonCompositeEvalMetric"])
def _composite_metric(site, analysis, text_of):
    args = _bind(_call(site), ("metrics", "name", "output_names", "label_names"))
    if args is None or any(k in args for k in ("output_names", "label_names")):
        return None
    metrics = args.get("metrics")
    if metrics is not None and not (isinstance(metrics, (ast.List, ast.Tuple)) and all(
            _built_by(analysis, m, _METRIC_RULES) for m in metrics.elts)):
        return None
    return "GluonCompositeEvalMetric(" + ", ".join(
        [text_of(args[k]) if k == "metrics" else f"{k}={text_of(args[k])}"
         for k in ("metrics", "name") if k in args]) + ")"


@_helper_rule("metric-accuracy", ["mx.metric.Accuracy", "mx.gluon.metric.Accuracy"],
              "mx.metric.Accuracy()", "GluonAccuracy()",
              "axis and name only: the helper keeps Gluon's update(labels, preds) / get() / "
              "reset(), so the calls on it stay as they are", ["GluonAccuracy"])
def _accuracy(site, analysis, text_of):
    args = _bind(_call(site), ("axis", "name"))
    if args is None:
        return None
    return "GluonAccuracy(" + ", ".join(f"{k}={text_of(args[k])}" for k in ("axis", "name")
                                        if k in args) + ")"


@_helper_rule("metric-loss", ["mx.metric.Loss", "mx.gluon.metric.Loss"],
              "mx.metric.Loss()", "GluonLoss()",
              "name only: the helper keeps Gluon's update(labels, preds) (the mean of every "
              "loss value seen) / get() / reset()", ["GluonLoss"])
def _loss_metric(site, analysis, text_of):
    args = _bind(_call(site), ("name",))
    if args is None:
        return None
    return "GluonLoss(" + (f"name={text_of(args['name'])}" if "name" in args else "") + ")"


@_helper_rule("metric-topk", ["mx.metric.TopKAccuracy", "mx.gluon.metric.TopKAccuracy"],
              "mx.metric.TopKAccuracy(5)", "GluonTopKAccuracy(top_k=5)",
              "top_k and name only: the label among the top_k largest of its row; the name "
              "gets _<top_k>, as Gluon's", ["GluonTopKAccuracy"])
def _topk_metric(site, analysis, text_of):
    args = _bind(_call(site), ("top_k", "name"))
    if args is None:
        return None
    return "GluonTopKAccuracy(" + ", ".join(f"{k}={text_of(args[k])}" for k in ("top_k", "name")
                                            if k in args) + ")"


def _regression_metric(kind: str):
    def rewrite(site, analysis, text_of):
        args = _bind(_call(site), ("name",))
        if args is None:
            return None
        return f"GluonRegressionMetric({kind!r}" + (
            f", name={text_of(args['name'])}" if "name" in args else "") + ")"
    return rewrite


for _kind in ("MSE", "MAE", "RMSE"):
    _RULES.append(Rule(
        f"metric-{_kind.lower()}", (f"mx.metric.{_kind}", f"mx.gluon.metric.{_kind}"),
        f"mx.metric.{_kind}()", f"GluonRegressionMetric({_kind.lower()!r})",
        "name only: each update adds one batch's value (1-D arrays as columns), get() their "
        "mean over batches, as Gluon's", _regression_metric(_kind.lower())))
    RULE_HELPERS[f"metric-{_kind.lower()}"] = ("GluonRegressionMetric",)


#: mx.metric.create's names (lowercased, as MXNet looks them up): (helper, its parameters)
_METRIC_NAMES = {
    "acc": ("GluonAccuracy", ("axis", "name")), "accuracy": ("GluonAccuracy", ("axis", "name")),
    "top_k_accuracy": ("GluonTopKAccuracy", ("top_k", "name")),
    "top_k_acc": ("GluonTopKAccuracy", ("top_k", "name")),
    "topkaccuracy": ("GluonTopKAccuracy", ("top_k", "name")),
    "loss": ("GluonLoss", ("name",)),
    **{k: ("GluonRegressionMetric", ("name",)) for k in ("mse", "mae", "rmse")}}


def _metric_create(wanted: str):
    def rewrite(site, analysis, text_of):
        call = _call(site)
        if call is None or not call.args or isinstance(call.args[0], ast.Starred):
            return None
        name = _literal(call.args[0])
        if not isinstance(name, str) or _METRIC_NAMES.get(name.lower(), ("",))[0] != wanted:
            return None
        params = _METRIC_NAMES[name.lower()][1]
        args = _bind(ast.Call(func=call.func, args=call.args[1:], keywords=call.keywords),
                     params)
        if args is None:
            return None
        head = [repr(name.lower())] if wanted == "GluonRegressionMetric" else []
        return f"{wanted}(" + ", ".join(head + [f"{k}={text_of(args[k])}" for k in params
                                                if k in args]) + ")"
    return rewrite


for _helper, _names in (("GluonAccuracy", "'acc', 'accuracy'"),
                        ("GluonTopKAccuracy", "'top_k_accuracy', 'top_k_acc'"),
                        ("GluonLoss", "'loss'"), ("GluonRegressionMetric", "'mse', 'mae', 'rmse'")):
    _RULES.append(Rule(
        f"metric-create-{_helper[5:].lower()}", ("mx.metric.create", "mx.gluon.metric.create"),
        f"mx.metric.create({_names.split(',')[0]})",
        f"{_helper}(" + ("'mse'" if "Regression" in _helper else "") + ")",
        f"a literal name MXNet registers ({_names}, any case) with that metric's own "
        "arguments: the helper the metric's own rule writes", _metric_create(_helper)))
    RULE_HELPERS[_RULES[-1].name] = (_helper,)


@_helper_rule("metric-custom", ["mx.metric.CustomMetric", "mx.gluon.metric.CustomMetric",
                                "mx.metric.np", "mx.gluon.metric.np"],
              "mx.metric.CustomMetric(feval)", "GluonCustomMetric(feval)",
              "feval, name, allow_extra_outputs (no output_names, label_names): feval called on "
              "numpy arrays, a number or a (sum, count) per pair, as Gluon's",
              ["GluonCustomMetric"])
def _custom_metric(site, analysis, text_of):
    return _keyword_helper("GluonCustomMetric", ("feval", "name", "allow_extra_outputs"),
                           1)(site, analysis, text_of)


#: the rules that build a metric whose helper keeps Gluon's update / get / reset
_METRIC_RULES = ("metric-custom", "metric-create-accuracy", "metric-create-topkaccuracy",
                 "metric-create-loss", "metric-create-regressionmetric", "metric-accuracy",
                 "metric-loss", "metric-composite",
                 "metric-topk", "metric-mse", "metric-mae",
                 "metric-rmse")


def _metric_method(method: str, params: tuple[str, ...]):
    def rewrite(site, analysis, text_of):
        call, recv = _call(site), _receiver(site)
        args = _bind(call, params, len(params))
        if args is None or not _built_by(analysis, recv, _METRIC_RULES):
            return None
        return f"{_atom(recv, text_of(recv))}.{method}(" + ", ".join(
            [text_of(a) for a in call.args]
            + [f"{k.arg}={text_of(k.value)}" for k in call.keywords]) + ")"
    return rewrite


for _m, _p in (("update", ("labels", "preds")), ("get", ()), ("reset", ())):
    _RULES.append(Rule(
        f"metric-{_m}", tuple(f"mx.metric.{c}.{_m}" for c in (
            "EvalMetric", "Accuracy", "Loss", "TopKAccuracy", "MSE", "MAE", "RMSE",
            "CustomMetric", "CompositeEvalMetric")),
        f"mx.metric.Accuracy().{_m}({', '.join(_p)})", f"GluonAccuracy().{_m}({', '.join(_p)})",
        "the metric built by metric-accuracy, metric-loss or metric-topk wherever it is "
        "assigned: their helpers have Gluon's methods, so the call stays as it is",
        _metric_method(_m, _p)))


@_rule("dataloader", ["mx.gluon.data.DataLoader"],
       "gluon.data.DataLoader(ds, batch_size=64, shuffle=True, last_batch='discard')",
       "torch.utils.data.DataLoader(ds, batch_size=64, shuffle=True, drop_last=True)",
       "dataset, batch_size, shuffle, sampler, last_batch 'keep' or 'discard' (→ "
       "drop_last), batch_sampler, batchify_fn (→ collate_fn: both take the list of a "
       "batch's samples), num_workers, pin_memory; both stack the samples of a batch, labels "
       "that are ints become int64 in PyTorch (int32 in Gluon)")
def _dataloader(site, analysis, text_of):
    args = _bind(_call(site), ("dataset", "batch_size", "shuffle", "sampler", "last_batch",
                               "batch_sampler", "batchify_fn", "num_workers", "pin_memory"), 1)
    if args is None or not _absent_or(args, "last_batch", None, "keep", "discard"):
        return None
    parts = [text_of(args["dataset"])] + [
        f"{k}={text_of(args[k])}" for k in ("batch_size", "shuffle", "sampler") if k in args]
    if _literal(args.get("last_batch"), None) == "discard":
        parts.append("drop_last=True")
    parts += [f"{k}={text_of(args[k])}" for k in ("batch_sampler",) if k in args]
    parts += [f"collate_fn={text_of(args['batchify_fn'])}"] if "batchify_fn" in args else []
    parts += [f"{k}={text_of(args[k])}" for k in ("num_workers", "pin_memory") if k in args]
    return f"torch.utils.data.DataLoader({', '.join(parts)})"


for _name, _helper, _params in (
        ("SequentialSampler", "GluonSequentialSampler", ("length", "start")),
        ("RandomSampler", "GluonRandomSampler", ("length",)),
        ("contrib.data.IntervalSampler", "GluonIntervalSampler",
         ("length", "interval", "rollover"))):
    _RULES.append(Rule(
        f"sampler-{_name.split('.')[-1].lower().removesuffix('sampler')}",
        (f"mx.gluon.data.{_name}", f"mx.gluon.data.sampler.{_name.split('.')[-1]}")
        if "." not in _name else (f"mx.gluon.{_name}", "mx.gluon.contrib.data.sampler."
                                  "IntervalSampler"),
        f"gluon.{'' if '.' in _name else 'data.'}{_name}(10"
        + (", 3)" if "Interval" in _name else ")"),
        f"{_helper}(10" + (", 3)" if "Interval" in _name else ")"),
        f"{', '.join(_params)}: Gluon's indices in Gluon's order"
        + (" (numpy's generator: the same order for the same seed)" if "Random" in _name
           else ""), _keyword_helper(_helper, _params, 2 if "Interval" in _helper else 1)))
    RULE_HELPERS[_RULES[-1].name] = (_helper,)


@_rule("sampler-batch", ["mx.gluon.data.BatchSampler", "mx.gluon.data.sampler.BatchSampler"],
       "gluon.data.BatchSampler(sampler, 4, 'discard')",
       "torch.utils.data.BatchSampler(sampler, 4, drop_last=True)",
       "sampler, batch_size, last_batch 'keep' (the default) or 'discard': the same lists of "
       "indices")
def _batch_sampler(site, analysis, text_of):
    args = _bind(_call(site), ("sampler", "batch_size", "last_batch"), 2)
    if args is None or not _absent_or(args, "last_batch", "keep", "discard"):
        return None
    drop = _literal(args.get("last_batch"), "keep") == "discard"
    return (f"torch.utils.data.BatchSampler({text_of(args['sampler'])}, "
            f"{text_of(args['batch_size'])}, drop_last={drop})")


def _vision(kind: str):
    params = ("root", "fine_label", "train", "transform") if kind == "CIFAR100" else \
        ("root", "train", "transform")

    def rewrite(site, analysis, text_of):
        args = _bind(_call(site), params)
        if args is None:
            return None
        parts = [repr(kind)] + [f"{k}={text_of(args[k])}" for k in params if k in args]
        return f"gluon_vision_dataset({', '.join(parts)})"
    return rewrite


for _kind, _what in (("MNIST", "the IDX files in it, read by torchvision; items (28, 28, 1)"),
                     ("FashionMNIST", "the IDX files in it, read by torchvision; items (28, "
                                      "28, 1)"),
                     ("CIFAR10", "Gluon's binary batches in it, read by numpy (fetched "
                                 "from Gluon's repository if missing); items (32, 32, 3)"),
                     ("CIFAR100", "Gluon's binary files in it (fine_label picks the labels); "
                                  "items (32, 32, 3)")):
    _RULES.append(Rule(
        f"vision-{_kind.lower()}", (f"mx.gluon.data.vision.{_kind}",),
        f"gluon.data.vision.{_kind}('./data', train=False)",
        f"gluon_vision_dataset('{_kind}', root='./data', train=False)",
        f"root (absent: Gluon's folder, $MXNET_HOME or ~/.mxnet), {_what} uint8 tensors and "
        "int labels, train, transform(data, label) called as Gluon calls it", _vision(_kind)))
    RULE_HELPERS[f"vision-{_kind.lower()}"] = ("gluon_vision_dataset",)


_TRANSFORMS = "mx.gluon.data.vision.transforms"


@_helper_rule("vision-to-tensor", [f"{_TRANSFORMS}.ToTensor"],
              "gluon.data.vision.transforms.ToTensor()",
              "GluonToTensor()",
              "no arguments: (H, W, C) images, or (N, H, W, C) batches, in [0, 255] to float32 "
              "(C, H, W) in [0, 1]; torchvision's ToTensor takes PIL images and numpy arrays, "
              "not the tensors the draft's datasets give", ["GluonToTensor"])
def _to_tensor(site, analysis, text_of):
    call = _call(site)
    if call is None or call.args or call.keywords:
        return None
    return "GluonToTensor()"


@_rule("vision-normalize", [f"{_TRANSFORMS}.Normalize"],
       "gluon.data.vision.transforms.Normalize(0.13, 0.31)",
       "torchvision.transforms.Normalize(0.13, 0.31)",
       "mean and std (numbers or one per channel): (x - mean) / std on (C, H, W) or "
       "(N, C, H, W) float tensors, as Gluon's")
def _normalize(site, analysis, text_of):
    args = _bind(_call(site), ("mean", "std"))
    if args is None:
        return None
    return "torchvision.transforms.Normalize(" + ", ".join(
        text_of(args[k]) if k in args else d for k, d in (("mean", "0.0"), ("std", "1.0"))) + ")"


@_rule("vision-compose", [f"{_TRANSFORMS}.Compose"],
       "gluon.data.vision.transforms.Compose([gluon.data.vision.transforms.ToTensor()])",
       "torchvision.transforms.Compose([GluonToTensor()])",
       "the list of transforms, applied in its order to one argument, as Gluon's")
def _compose(site, analysis, text_of):
    args = _bind(_call(site), ("transforms",), 1)
    if args is None:
        return None
    return f"torchvision.transforms.Compose({text_of(args['transforms'])})"


def _interp_ok(args: dict, name: str, default: int) -> bool:
    """The interpolation a resize uses: absent with a carried default, or a literal 0
    (nearest) or 1 (bilinear); gluon_imresize carries only those."""
    return _literal(args.get(name), default) in (0, 1) and not isinstance(
        _literal(args.get(name), default), bool)


_pass_on("vision-resize", [f"{_TRANSFORMS}.Resize"],
         "gluon.data.vision.transforms.Resize(224)", "GluonResize(224)",
         "size (an int or (W, H)), keep_ratio, interpolation 0 or 1 (the default): (H, W, C) "
         "images or (N, H, W, C) batches as Gluon resizes them; bilinear within 1 of 255 on "
         "uint8 (OpenCV's fixed-point weights), nearest the same pixels; torchvision's Resize "
         "takes (C, H, W)", "GluonResize", ("size", "keep_ratio", "interpolation"), 1,
         check=lambda a: _interp_ok(a, "interpolation", 1))
_pass_on("vision-center-crop", [f"{_TRANSFORMS}.CenterCrop"],
         "gluon.data.vision.transforms.CenterCrop(224)", "GluonCenterCrop(224)",
         "size (an int or (W, H)), interpolation 0 or 1 (the default): the centre of an (H, "
         "W, C) image, its corner rounded down (torchvision's CenterCrop rounds half to even, "
         "and takes (C, H, W)); a smaller image's largest centred crop of that aspect, resized",
         "GluonCenterCrop", ("size", "interpolation"), 1,
         check=lambda a: _interp_ok(a, "interpolation", 1))


for _name, _axis in (("RandomFlipLeftRight", 1), ("RandomFlipTopBottom", 0)):
    _RULES.append(Rule(
        f"vision-{'flip-left-right' if _axis else 'flip-top-bottom'}",
        (f"{_TRANSFORMS}.{_name}",), f"gluon.data.vision.transforms.{_name}()",
        f"GluonRandomFlip({_axis})",
        "no arguments: an (H, W, C) image flipped along its "
        f"{'width' if _axis else 'height'} with probability 1/2 (torchvision's flips take "
        "(C, H, W) and would flip another axis); MXNet 1.9.1's flip of an odd "
        f"{'width' if _axis else 'height'} leaves the middle {'column' if _axis else 'row'} "
        "unwritten (what its buffer held: zeros when fresh), the draft keeps it",
        lambda site, analysis, text_of, _axis=_axis: None if _call(site) is None
        or _call(site).args or _call(site).keywords else f"GluonRandomFlip({_axis})"))
    RULE_HELPERS[_RULES[-1].name] = ("GluonRandomFlip",)


def _colour(helper: str, kind: str, params: tuple[str, ...], at: int):
    """``helper(<the arguments of params, all given>)`` with ``'kind'`` inserted before the
    argument at index ``at``."""
    def rewrite(site, analysis, text_of):
        args = _bind(_call(site), params + (("name",) if site.name.startswith("mx.nd.")
                                            else ()), len(params))
        if args is None:
            return None
        parts = [text_of(args[k]) for k in params]
        parts.insert(at, repr(kind))
        return f"{helper}({', '.join(parts)})"
    return rewrite


for _kind in ("brightness", "contrast", "saturation", "hue"):
    _cls = f"Random{_kind.capitalize()}"
    _RULES.append(Rule(
        f"vision-random-{_kind}", (f"{_TRANSFORMS}.{_cls}",),
        f"gluon.data.vision.transforms.{_cls}(0.4)", f"GluonRandomColor('{_kind}', 0.4)",
        f"the amount: a factor drawn from [max(0, 1 - amount), 1 + amount] at each call and "
        f"MXNet 1.9.1's {_kind} kernel (gluon_image_color) on (H, W, C) images, in float32, "
        f"the result cast back as MXNet does; torchvision's ColorJitter computes otherwise "
        f"and takes (C, H, W)", _colour("GluonRandomColor", _kind, (_kind,), 0)))
    RULE_HELPERS[f"vision-random-{_kind}"] = ("GluonRandomColor",)
    _RULES.append(Rule(
        f"image-random-{_kind}", (f"mx.nd.image.random_{_kind}",),
        f"nd.image.random_{_kind}(img, 0.6, 1.4)",
        f"gluon_random_image_color(img, '{_kind}', 0.6, 1.4)",
        f"data, min_factor, max_factor: the factor drawn uniformly (torch's generator) and "
        f"MXNet 1.9.1's {_kind} kernel (gluon_image_color)",
        _colour("gluon_random_image_color", _kind, ("data", "min_factor", "max_factor"), 1)))
    RULE_HELPERS[f"image-random-{_kind}"] = ("gluon_random_image_color",)
_pass_on("vision-random-color-jitter", [f"{_TRANSFORMS}.RandomColorJitter"],
         "gluon.data.vision.transforms.RandomColorJitter(0.4, 0.4, 0.4)",
         "GluonRandomColorJitter(0.4, 0.4, 0.4)",
         "brightness, contrast, saturation, hue: MXNet 1.9.1's jitter (gluon_random_color_"
         "jitter) on (H, W, C) images", "GluonRandomColorJitter",
         ("brightness", "contrast", "saturation", "hue"), 0, 4)
_pass_on("image-random-color-jitter", ["mx.nd.image.random_color_jitter"],
         "nd.image.random_color_jitter(img, 0.4, 0.4, 0.4, 0.1)",
         "gluon_random_color_jitter(img, 0.4, 0.4, 0.4, 0.1)",
         "data, brightness, contrast, saturation, hue: the four in a random order, each "
         "above 0 with a factor 1 + U(-amount, amount) (hue U(-hue, hue)), MXNet 1.9.1's "
         "kernels", "gluon_random_color_jitter",
         ("data", "brightness", "contrast", "saturation", "hue"), 5)
_pass_on("vision-random-lighting", [f"{_TRANSFORMS}.RandomLighting"],
         "gluon.data.vision.transforms.RandomLighting(0.1)", "GluonRandomLighting(0.1)",
         "alpha: AlexNet's PCA lighting noise, N(0, alpha²) weights drawn at each call, "
         "MXNet 1.9.1's kernel on (H, W, C) images", "GluonRandomLighting", ("alpha",), 1)
_pass_on("image-random-lighting", ["mx.nd.image.random_lighting"],
         "nd.image.random_lighting(img, 0.1)", "gluon_random_lighting(img, 0.1)",
         "data, alpha_std (default 0.05)", "gluon_random_lighting", ("data", "alpha_std"), 1,
         2)
_RULES.append(Rule(
    "image-adjust-lighting", ("mx.nd.image.adjust_lighting",),
    "nd.image.adjust_lighting(img, (0.1, -0.2, 0.05))",
    "gluon_image_color(img, 'lighting', (0.1, -0.2, 0.05))",
    "data, alpha (three weights): MXNet 1.9.1's kernel",
    _colour("gluon_image_color", "lighting", ("data", "alpha"), 1)))
RULE_HELPERS["image-adjust-lighting"] = ("gluon_image_color",)


@_helper_rule("vision-cast", [f"{_TRANSFORMS}.Cast"],
              "gluon.data.vision.transforms.Cast('float16')", "GluonCast(torch.float16)",
              "dtype a literal (default 'float32')", ["GluonCast"])
def _vision_cast(site, analysis, text_of):
    args = _bind(_call(site), ("dtype",))
    dt = None if args is None else _dtype(args.get("dtype"), default="float32",
                                          numpy_names=_numpy_names(analysis))
    return None if dt is None else f"GluonCast({dt})"


_pass_on("image-imresize", ["mx.image.imresize"], "mx.image.imresize(img, 32, 24)",
         "gluon_imresize(img, 32, 24)",
         "src, w, h, interp 0 or 1 (the default) as literals or absent: an (H, W, C) image to "
         "(h, w, C), bilinear within 1 of 255 on uint8, nearest the same pixels",
         "gluon_imresize", ("src", "w", "h", "interp"), 3, 4,
         check=lambda a: _interp_ok(a, "interp", 1))
_pass_on("image-center-crop", ["mx.image.center_crop"],
         "mx.image.center_crop(img, (32, 32))", "gluon_center_crop(img, (32, 32))",
         "src, size (W, H), interp: (image, (x0, y0, w, h)) as MXNet gives them; the resize "
         "only happens to an image smaller than size, and the helper raises there unless "
         "interp is 0 or 1 (the default, 2, is OpenCV's bicubic)",
         "gluon_center_crop", ("src", "size", "interp"), 2, 3)
_pass_on("nd-l2-normalization", ["mx.nd.L2Normalization"],
         "nd.L2Normalization(x, mode='channel')", "gluon_l2_normalization(x, mode='channel')",
         "data, eps, mode ('instance', the default, 'channel' or 'spatial'): data over the "
         "root of its sum of squares plus eps, the sum over those axes", "gluon_l2_normalization",
         ("data", "eps", "mode"), 1)
_pass_on("nd-pooling", ["mx.nd.Pooling"], "nd.Pooling(x, kernel=(2, 2), pool_type='max')",
         "gluon_pooling(x, kernel=(2, 2), pool_type='max')",
         "data, kernel, pool_type 'max' or 'avg', global_pool, pooling_convention ('full' "
         "for max only), stride, pad, count_include_pad: torch's pooling of the same windows",
         "gluon_pooling", ("data", "kernel", "pool_type", "global_pool", "cudnn_off",
                           "pooling_convention", "stride", "pad", "p_value",
                           "count_include_pad", "layout", "name"), 1,
         check=lambda a: _literal(a.get("pool_type"), "max") in ("max", "avg", _NO)
         and _literal(a.get("pooling_convention"), "valid") in ("valid", "full", _NO))
_pass_on("nd-convolution", ["mx.nd.Convolution"],
         "nd.Convolution(x, w, b, kernel=(3, 3), num_filter=8, pad=(1, 1))",
         "gluon_convolution(x, w, b, kernel=(3, 3), pad=(1, 1), num_filter=8)",
         "data, weight, bias, kernel (the weight's), stride, dilate, pad, num_filter, "
         "num_group, no_bias: torch's convolution of the same arrays", "gluon_convolution",
         ("data", "weight", "bias", "kernel", "stride", "dilate", "pad", "num_filter",
          "num_group", "workspace", "no_bias", "cudnn_tune", "cudnn_off", "layout", "name"), 2,
         3)


@_helper_rule("nd-upsampling", ["mx.nd.UpSampling"], "nd.UpSampling(x, scale=2, sample_type='nearest')",
              "gluon_upsampling(x, scale=2, sample_type='nearest')",
              "one array, an int scale, sample_type 'nearest' (bilinear needs its weight "
              "argument: left): each pixel repeated scale times", ["gluon_upsampling"])
def _upsampling(site, analysis, text_of):
    call = _call(site)
    kw = {k.arg: k.value for k in call.keywords} if call is not None else {}
    if call is None or len(call.args) != 1 or isinstance(call.args[0], ast.Starred) \
            or None in kw or set(kw) - {"scale", "sample_type", "num_args", "name"} \
            or "scale" not in kw or _literal(kw.get("sample_type"), "nearest") != "nearest":
        return None
    return "gluon_upsampling(" + ", ".join([text_of(call.args[0])] + [
        f"{k}={text_of(v)}" for k, v in kw.items()]) + ")"


_pass_on("nd-pad", ["mx.nd.pad", "mx.nd.Pad"], "nd.pad(x, mode='edge', pad_width=(0, 0, 0, 0, 1, 1, 2, 2))",
         "gluon_pad(x, mode='edge', pad_width=(0, 0, 0, 0, 1, 1, 2, 2))",
         "data, mode ('constant', 'edge' or 'reflect'), pad_width (before, after per axis, "
         "from the first), constant_value: torch's pad, its widths from the last axis",
         "gluon_pad", ("data", "mode", "pad_width", "constant_value", "name"), 3, 1,
         check=lambda a: _literal(a["mode"]) in ("constant", "edge", "reflect", _NO))
_pass_on("image-random-crop", ["mx.image.random_crop"],
         "mx.image.random_crop(img, (224, 224))", "gluon_random_crop(img, (224, 224))",
         "src, size (W, H), interp: (image, (x0, y0, w, h)) as MXNet gives them, the corner "
         "drawn by Python's random module as MXNet draws it; the resize only happens to an "
         "image smaller than size, and the helper raises there unless interp is 0 or 1",
         "gluon_random_crop", ("src", "size", "interp"), 2, 3)
_pass_on("image-random-size-crop", ["mx.image.random_size_crop"],
         "mx.image.random_size_crop(img, (224, 224), 0.08, (0.75, 1.33), 1)",
         "gluon_random_size_crop(img, (224, 224), 0.08, (0.75, 1.33), 1)",
         "src, size (W, H), area, ratio, interp a literal 0 or 1 (the default, 2, is OpenCV's "
         "bicubic): (image, (x0, y0, w, h)) as MXNet gives them, the area, aspect and corner "
         "drawn by Python's random module in MXNet's order (the same crops after the same "
         "seed)", "gluon_random_size_crop", ("src", "size", "area", "ratio", "interp"), 5, 5,
         check=lambda a: _interp_ok(a, "interp", 2))
_pass_on("vision-random-resized-crop", [f"{_TRANSFORMS}.RandomResizedCrop"],
         "gluon.data.vision.transforms.RandomResizedCrop(224)", "GluonRandomResizedCrop(224)",
         "size (an int or (W, H)), scale, ratio, interpolation 0 or 1 (the default): "
         "mx.image.random_size_crop's draws (image-random-size-crop) on (H, W, C) images; "
         "torchvision's RandomResizedCrop draws otherwise and takes (C, H, W)",
         "GluonRandomResizedCrop", ("size", "scale", "ratio", "interpolation"), 1,
         check=lambda a: _interp_ok(a, "interpolation", 1))
_pass_on("image-fixed-crop", ["mx.image.fixed_crop"],
         "mx.image.fixed_crop(img, 4, 2, 16, 12)", "gluon_fixed_crop(img, 4, 2, 16, 12)",
         "src, x0, y0, w, h, size (W, H), interp: the crop, resized when size is given and "
         "differs (the helper raises there unless interp is 0 or 1)",
         "gluon_fixed_crop", ("src", "x0", "y0", "w", "h", "size", "interp"), 5, 7)
_pass_on("image-resize-short", ["mx.image.resize_short"],
         "mx.image.resize_short(img, 256, interp=1)", "gluon_resize_short(img, 256, 1)",
         "src, size, interp a literal 0 or 1 (the default, 2, is OpenCV's bicubic, which the "
         "draft does not carry)", "gluon_resize_short", ("src", "size", "interp"), 3,
         check=lambda a: _interp_ok(a, "interp", 2))


#: rules whose text names a module beside torch: the draft imports it
RULE_IMPORTS = {"vision-normalize": "torchvision", "vision-compose": "torchvision"}


@_helper_rule("dataset-base", ["mx.gluon.data.Dataset"],
              "class Pairs(gluon.data.Dataset):\n    pass", "class Pairs(GluonDatasetBase):",
              "a class's base (its only one of MXNet): the subclass keeps its __getitem__ "
              "and __len__, which torch's DataLoader reads; the helper base adds Gluon's "
              "transform(fn) and transform_first(fn)", ["GluonDatasetBase"])
def _dataset_base(site, analysis, text_of):
    return "GluonDatasetBase" if site.kind == "base" else None


_pass_on("image-folder-dataset", ["mx.gluon.data.vision.ImageFolderDataset"],
         "gluon.data.vision.ImageFolderDataset('train')", "GluonImageFolderDataset('train')",
         "root, flag, transform: Gluon's classes (sorted folders), files (sorted .jpg, .jpeg, "
         ".png), synsets and items; images (H, W, C) uint8 as MXNet decodes them, with "
         "Gluon's transform methods (torchvision's ImageFolder gives PIL images, and another "
         "file order)", "GluonImageFolderDataset", ("root", "flag", "transform"), 1)
_pass_on("image-imread", ["mx.image.imread"],
         "mx.image.imread('cat.jpg')", "gluon_imread('cat.jpg')",
         "filename, flag (1 colour, 0 grayscale), to_rgb: (H, W, C) uint8 as MXNet decodes "
         "it; colour the same pixels, grayscale of a colour file within 1", "gluon_imread",
         ("filename", "flag", "to_rgb"), 1, 3)


@_helper_rule("array-dataset", ["mx.gluon.data.ArrayDataset"],
              "gluon.data.ArrayDataset(x, y)", "GluonArrayDataset(x, y)",
              "the arrays as positional arguments: item i is the tuple of their rows i (one "
              "array: its row alone), with Gluon's transform methods", ["GluonArrayDataset"])
def _array_dataset(site, analysis, text_of):
    call = _call(site)
    if call is None or call.keywords or not call.args:
        return None
    return f"GluonArrayDataset({', '.join(text_of(a) for a in call.args)})"


def _own_datasets(analysis: Analysis) -> set[str]:
    """The classes on gluon.data.Dataset that this file defines, or imports from another
    file of the scan (dataset-base rewrites their base, there or here)."""
    return {s.node.name for s in analysis.sites if s.kind == "class"
            and s.name == "mx.gluon.data.Dataset" and isinstance(s.node, ast.ClassDef)} | {
        name for name, base in analysis.block_classes.items()
        if base == "mx.gluon.data.Dataset"}


def _a_helper_dataset(analysis: Analysis, recv: ast.AST | None) -> bool:
    """Whether ``recv`` is a dataset the draft builds with Gluon's transform methods: one of
    the vision or array-dataset rules', or an instance of the file's own Dataset class."""
    if _built_by(analysis, recv, ("vision-mnist", "vision-fashionmnist", "vision-cifar10",
                                  "vision-cifar100", "array-dataset", "image-folder-dataset")):
        return True
    return _instance_of(analysis, recv, _own_datasets(analysis))


def _instance_of(analysis: Analysis, recv: ast.AST | None, classes: set[str]) -> bool:
    """Whether ``recv`` is built by one of the file's ``classes`` (by name): the call itself,
    or a name every assignment of which is such a call."""
    if recv is None or not classes:
        return False
    values = [recv] if isinstance(recv, ast.Call) else _values_of(analysis, recv)
    return bool(values) and all(
        isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id in classes
        for v in values)


def _dataset_method(method: str):
    def rewrite(site, analysis, text_of):
        call, recv = _call(site), _receiver(site)
        args = _bind(call, ("fn", "lazy"), 1)
        if args is None or not _a_helper_dataset(analysis, recv):
            return None
        return f"{_atom(recv, text_of(recv))}.{method}({text_of(args['fn'])})"
    return rewrite


for _m in ("transform", "transform_first"):
    _RULES.append(Rule(
        f"dataset-{_m.replace('_', '-')}", (f"mx.gluon.data.Dataset.{_m}",
                                           f"mx.gluon.data.vision.MNIST.{_m}",
                                           f"mx.gluon.data.vision.FashionMNIST.{_m}"),
        f"gluon.data.vision.MNIST('./data').{_m}(fn)",
        f"gluon_vision_dataset('MNIST', root='./data').{_m}(fn)",
        "a dataset built by the vision or array-dataset rules, or of the file's own Dataset "
        f"class: the helper's dataset has Gluon's {_m}(fn)", _dataset_method(_m)))
    RULE_HELPERS[f"dataset-{_m.replace('_', '-')}"] = ("GluonDataset",)


@_rule("backward-sum", ["mx.nd.NDArray.backward"], "y.backward()", "y.sum().backward()",
       "no arguments, the receiver known to be an NDArray (inferred): MXNet's backward of a "
       "non-scalar array is the backward of its sum (a head gradient of ones); a scalar's sum "
       "is itself")
def _backward(site, analysis, text_of):
    call, recv = _call(site), _receiver(site)
    if call is None or call.args or call.keywords or recv is None or site.how != "inferred":
        return None
    return f"{_atom(recv, text_of(recv))}.sum().backward()"


@_helper_rule("split-and-load", ["mx.gluon.utils.split_and_load"],
              "gluon.utils.split_and_load(x, [mx.cpu(0), mx.cpu(1)], even_split=False)",
              "gluon_split_and_load(x, [torch.device('cpu'), torch.device('cpu')], "
              "even_split=False)",
              "data, ctx_list, batch_axis, even_split: the same slices (the first size % n "
              "one longer) on the same devices; several devices in one process is what "
              "DistributedDataParallel replaces in PyTorch", ["gluon_split_and_load"])
def _split_and_load(site, analysis, text_of):
    args = _bind(_call(site), ("data", "ctx_list", "batch_axis", "even_split"), 2)
    if args is None:
        return None
    return "gluon_split_and_load(" + ", ".join(
        [text_of(args["data"]), text_of(args["ctx_list"])]
        + [f"{k}={text_of(args[k])}" for k in ("batch_axis", "even_split") if k in args]) + ")"


# -- mx.io: NDArrayIter, DataBatch, DataDesc and the file's own DataIter classes ----------

_IO_ITER = ("data", "label", "batch_size", "shuffle", "last_batch_handle", "data_name",
            "label_name", "layout")


@_helper_rule("io-ndarray-iter", ["mx.io.NDArrayIter"],
              "mx.io.NDArrayIter(x, y, batch_size=32, shuffle=True)",
              "GluonNDArrayIter(x, label=y, batch_size=32, shuffle=True)",
              "data, label (arrays, lists or dicts), batch_size, shuffle, last_batch_handle "
              "'pad', 'discard' or 'roll_over', data_name, label_name, layout: MXNet's batches "
              "in MXNet's order (shuffled by numpy's generator), its pads and roll-overs, its "
              "float32 conversions", ["GluonNDArrayIter"])
def _ndarray_iter(site, analysis, text_of):
    args = _bind(_call(site), _IO_ITER, 1)
    if args is None or not _absent_or(args, "last_batch_handle", "pad", "discard", "roll_over"):
        return None
    return "GluonNDArrayIter(" + ", ".join(
        [text_of(args["data"])] + [f"{k}={text_of(args[k])}" for k in _IO_ITER[1:]
                                   if k in args]) + ")"


RULE_RESOLVES["io-ndarray-iter"] = ("ndarrayiter-last-batch",)
RULE_RESOLVES["io-mnist-iter"] = ("mnistiter-scale",)

_MNIST_ITER = ("image", "label", "batch_size", "shuffle", "flat", "seed", "silent", "num_parts",
               "part_index", "data_name", "label_name", "input_shape", "data_shape",
               "prefetch_buffer")


@_helper_rule("io-mnist-iter", ["mx.io.MNISTIter"],
              "mx.io.MNISTIter(image='train-images-idx3-ubyte', label='train-labels-idx1-ubyte', "
              "batch_size=100)",
              "GluonMNISTIter(image='train-images-idx3-ubyte', label='train-labels-idx1-ubyte', "
              "batch_size=100)",
              "keywords only: image, label, batch_size, shuffle, flat, seed, silent, num_parts, "
              "part_index, data_name, label_name (input_shape, data_shape and prefetch_buffer "
              "MXNet ignores): MXNet's batches in MXNet's order (its std::shuffle of mt19937, "
              "once), pixels / 256, the last incomplete batch dropped", ["GluonMNISTIter"])
def _mnist_iter(site, analysis, text_of):
    call = _call(site)
    if call is None or call.args or any(k.arg not in _MNIST_ITER for k in call.keywords):
        return None
    return "GluonMNISTIter(" + ", ".join(f"{k.arg}={text_of(k.value)}"
                                         for k in call.keywords) + ")"


_RULES.append(Rule(
    "io-data-batch", ("mx.io.DataBatch",), "mx.io.DataBatch(data=[x], label=[y], pad=0)",
    "GluonDataBatch([x], label=[y], pad=0)",
    "data, label (lists), pad, index, bucket_key, provide_data, provide_label: kept as "
    "attributes of the same names", _keyword_helper(
        "GluonDataBatch", ("data", "label", "pad", "index", "bucket_key", "provide_data",
                           "provide_label"), 1)))
RULE_HELPERS["io-data-batch"] = ("GluonDataBatch",)
_RULES.append(Rule(
    "io-data-desc", ("mx.io.DataDesc",), "mx.io.DataDesc('data', (32, 3, 28, 28))",
    "GluonDataDesc('data', (32, 3, 28, 28))",
    "name, shape, dtype, layout: the tuple (name, shape) with .name, .shape, .dtype and "
    ".layout", _keyword_helper("GluonDataDesc", ("name", "shape", "dtype", "layout"), 2)))
RULE_HELPERS["io-data-desc"] = ("GluonDataDesc",)


@_helper_rule("io-data-iter-base", ["mx.io.DataIter"],
              "class Batches(mx.io.DataIter):\n    pass", "class Batches(GluonDataIter):",
              "a class's base: the subclass keeps its next() (or iter_next, getdata, getlabel, "
              "getpad), reset() and batch_size; the base iterates by next() as MXNet's does",
              ["GluonDataIter"])
def _data_iter_base(site, analysis, text_of):
    return "GluonDataIter" if site.kind == "base" else None


#: what a class of the file on mx.io.DataIter may use of mx.io and mx.image and still count
#: as the draft's iterator (a wrapper of ImageRecordIter or PrefetchingIter does not)
_IO_OWN_NAMES = ("mx.io.DataIter", "mx.io.DataBatch", "mx.io.DataDesc", "mx.io.NDArrayIter")
_IO_METHODS = ("reset", "hard_reset", "next", "iter_next", "getdata", "getlabel", "getpad",
               "getindex")
_IO_ATTRS = ("batch_size", "provide_data", "provide_label")
_BATCH_ATTRS = ("data", "label", "pad", "index", "bucket_key", "provide_data", "provide_label")


def _own_iterators(analysis: Analysis) -> set[str]:
    """The classes this file defines on mx.io.DataIter (io-data-iter-base rewrites their base)
    that build their batches themselves (an mx.io.DataBatch call, or a ``getdata`` method
    for the base's ``next``) and use no other iterator (nothing else of mx.io, no
    mx.image.ImageIter): a class that passes on another iterator's batches gives what that
    one gives; images read with mx.image's functions are arrays it batches itself. With those it
    imports from other files of the scan that do (``Analysis.own_iterators``). Worked out
    once per analysis."""
    cached = _OWN_ITERATORS.get(id(analysis))
    if cached is not None and cached[0] is analysis:
        return cached[1]
    out = set(analysis.own_iterators)
    for s in analysis.sites:
        if s.kind != "class" or s.name != "mx.io.DataIter" \
                or not isinstance(s.node, ast.ClassDef):
            continue
        first, last = s.node.lineno, s.node.end_lineno or s.node.lineno
        inside = [o for o in analysis.sites
                  if o.framework == "mxnet" and first <= o.line <= last]
        builds = any(o.name == "mx.io.DataBatch" and o.kind == "call" for o in inside) or any(
            isinstance(f, ast.FunctionDef) and f.name == "getdata" for f in s.node.body)
        if builds and all(not (o.name.startswith("mx.io.") or (
                o.name.startswith("mx.image.") and "Iter" in o.name))
                          or o.name.startswith(_IO_OWN_NAMES) for o in inside):
            out.add(s.node.name)
    _OWN_ITERATORS.clear()
    _OWN_ITERATORS[id(analysis)] = (analysis, out)
    return out


_OWN_ITERATORS: dict[int, tuple] = {}


def _iterator_factories(analysis: Analysis) -> dict[str, str]:
    """The module-level functions of the file that return iterators of
    :func:`_own_iterators` (each return such a class's call: ``"one"``; each a tuple or list
    of them: ``"many"``, ``return (CUB200Iter(...), CUB200Iter(...))``), with those it imports
    from other files of the scan (``Analysis.iterator_factories``)."""
    cached = _FACTORIES.get(id(analysis))
    if cached is not None and cached[0] is analysis:
        return cached[1]
    out = dict(analysis.iterator_factories)
    classes = _own_iterators(analysis)

    def built(node):
        return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
            and node.func.id in classes

    if classes:
        for fn in analysis.tree.body:
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            shapes, todo = set(), list(fn.body)
            while todo:
                node = todo.pop()
                if isinstance(node, (*_SCOPES, ast.ClassDef)):
                    continue    # a nested function's returns are its own
                todo.extend(ast.iter_child_nodes(node))
                if isinstance(node, (ast.Yield, ast.YieldFrom)):
                    shapes.add(None)   # a generator returns no iterator of ours
                if not isinstance(node, ast.Return):
                    continue
                v = node.value
                shapes.add("one" if built(v) else "many" if isinstance(v, (ast.Tuple, ast.List))
                           and v.elts and all(built(e) for e in v.elts) else None)
            if len(shapes) == 1 and None not in shapes:
                out[fn.name] = shapes.pop()
    _FACTORIES.clear()
    _FACTORIES[id(analysis)] = (analysis, out)
    return out


_FACTORIES: dict[int, tuple] = {}


def _unpacked(analysis: Analysis, target: ast.AST, value: ast.AST) -> list | None:
    """For ``a, b = value``: the value each name of the tuple (or list) target gets, where it
    is known: ``value`` a tuple or list of as many items (no starred one), or a call of a
    function of :func:`_iterator_factories` returning several iterators (item ``i`` is
    ``value[i]``, an expression made here); else ``None``."""
    if not isinstance(target, (ast.Tuple, ast.List)) \
            or any(isinstance(e, ast.Starred) for e in target.elts):
        return None
    if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts) \
            and not any(isinstance(e, ast.Starred) for e in value.elts):
        return list(value.elts)
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) \
            and _iterator_factories(analysis).get(value.func.id) == "many":
        return [ast.Subscript(value=value, slice=ast.Constant(i), ctx=ast.Load())
                for i in range(len(target.elts))]
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) \
            and value.func.id in analysis.functions_defined():
        returned = _returned_tuples(analysis.functions_defined()[value.func.id],
                                    len(target.elts))
        if returned is not None and len(returned) == 1:
            return list(returned[0])     # loss, trainer = get_configurations(net): the
            # items of its one return statement
    return None


def _returned_tuples(fn: ast.AST, n: int) -> list[list[ast.AST]] | None:
    """The items of each return of ``fn`` (not of the functions inside it) when every one
    returns a tuple display of ``n`` items (no starred one), else None."""
    out, todo = [], list(fn.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (*_SCOPES, ast.ClassDef)):
            continue
        todo.extend(ast.iter_child_nodes(node))
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            return None
        if isinstance(node, ast.Return):
            v = node.value
            if not (isinstance(v, ast.Tuple) and len(v.elts) == n
                    and not any(isinstance(e, ast.Starred) for e in v.elts)):
                return None
            out.append(list(v.elts))
    return out or None


def _a_draft_iterator(analysis: Analysis, recv: ast.AST | None) -> bool:
    """Whether ``recv`` is an iterator the draft builds: one of io-ndarray-iter's or
    io-mnist-iter's, an instance of the file's own DataIter class (:func:`_own_iterators`),
    or what a function of :func:`_iterator_factories` returns (the call, or an item of it
    unpacked: ``train, val = cub200_iterator(...)``)."""
    if recv is None:
        return False
    if _built_by(analysis, recv, ("io-ndarray-iter", "io-mnist-iter")):
        return True
    if _instance_of(analysis, recv, _own_iterators(analysis)):
        return True
    factories = _iterator_factories(analysis)
    if not factories:
        return False

    def made(v):
        if isinstance(v, ast.Call) and isinstance(v.func, ast.Name):
            return factories.get(v.func.id) == "one"
        return isinstance(v, ast.Subscript) and isinstance(v.slice, ast.Constant) \
            and type(v.slice.value) is int and isinstance(v.value, ast.Call) \
            and isinstance(v.value.func, ast.Name) \
            and factories.get(v.value.func.id) == "many"
    values = [recv] if isinstance(recv, ast.Call) else _values_of(analysis, recv)
    return bool(values) and all(v is not None and made(v) for v in values)


def _name_sources(analysis: Analysis, recv: ast.AST) -> list[ast.AST] | None:
    """For a plain name: the iterators its values come from, when every binding of it in its
    scope is ``for name in it`` (also in a comprehension), ``name = it.next()`` or
    ``name = next(it)``; ``None`` when another binding (or a parameter, a global) exists."""
    if not isinstance(recv, ast.Name):
        return None
    parents, name = _parents(analysis), recv.id
    scope = recv
    while (scope := parents.get(id(scope))) is not None and not isinstance(scope, _SCOPES):
        pass
    if scope is not None:
        args = scope.args
        if any(a is not None and a.arg == name for a in (
                *args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg)):
            return None
    found, todo = [], list(ast.iter_child_nodes(scope if scope is not None else analysis.tree))
    while todo:
        node = todo.pop()
        if isinstance(node, (*_SCOPES, ast.ClassDef)):
            continue
        todo.extend(ast.iter_child_nodes(node))
        if isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names:
            return None
        if isinstance(node, (ast.Import, ast.ImportFrom)) and any(
                (a.asname or a.name.split(".")[0]) == name for a in node.names):
            return None
        if not (isinstance(node, ast.Name) and node.id == name
                and isinstance(node.ctx, ast.Store)):
            continue
        up = parents.get(id(node))
        if isinstance(up, (ast.For, ast.AsyncFor, ast.comprehension)) and up.target is node:
            found.append(up.iter)
        elif isinstance(up, ast.Assign) and up.targets == [node] \
                and isinstance(up.value, ast.Call) and not up.value.keywords:
            call = up.value
            if isinstance(call.func, ast.Attribute) and call.func.attr == "next" \
                    and not call.args:
                found.append(call.func.value)
            elif isinstance(call.func, ast.Name) and call.func.id == "next" \
                    and len(call.args) == 1:
                found.append(call.args[0])
            else:
                return None
        else:
            return None
    return found or None


def _a_draft_batch(analysis: Analysis, recv: ast.AST | None) -> bool:
    """Whether ``recv`` is a batch the draft builds: io-data-batch's, or drawn from an
    iterator of :func:`_a_draft_iterator`."""
    if recv is None:
        return False
    if _built_by(analysis, recv, "io-data-batch"):
        return True
    sources = _name_sources(analysis, recv)
    return bool(sources) and all(_a_draft_iterator(analysis, it) for it in sources)


def _kept(check):
    """A rule that keeps a method call or an attribute read as written, when ``check`` says
    the receiver is the draft's (its helper has the same method or attribute)."""
    def rewrite(site, analysis, text_of):
        recv, node = _receiver(site), site.node
        if recv is None or not check(analysis, recv):
            return None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            return f"{_atom(recv, text_of(recv))}.{node.func.attr}(" + ", ".join(
                text_of(a) for a in [*node.args, *node.keywords]) + ")"
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
            return f"{_atom(recv, text_of(recv))}.{node.attr}"
        return None
    return rewrite


_RULES.append(Rule(
    "io-iterator-method", tuple(f"mx.io.{c}.{m}" for c in ("DataIter", "NDArrayIter")
                               for m in _IO_METHODS + _IO_ATTRS),
    "it.reset()", "it.reset()",
    "an iterator built by io-ndarray-iter or io-mnist-iter, or of the file's own DataIter "
    "class, wherever it "
    "is assigned: the helper has MXNet's reset, next, iter_next, getdata, getlabel, getpad, "
    "batch_size, provide_data and provide_label, so the code stays as it is",
    _kept(_a_draft_iterator)))
_RULES.append(Rule(
    "io-batch-attribute", tuple(f"mx.io.DataBatch.{a}" for a in _BATCH_ATTRS),
    "batch.data[0]", "batch.data[0]",
    "a batch built by io-data-batch, or drawn (a for loop, next(), .next()) from an iterator "
    "of io-iterator-method: GluonDataBatch has MXNet's data, label, pad and index, so the "
    "code stays as it is", _kept(_a_draft_batch)))


@_helper_rule("metric-base", ["mx.metric.EvalMetric", "mx.gluon.metric.EvalMetric"],
              "class Mean(mx.metric.EvalMetric):\n    pass", "class Mean(GluonEvalMetric):",
              "a class's base: the subclass keeps its update (and get, if it has its own); "
              "the helper base has MXNet's name, sum_metric, num_inst, get (NaN before any "
              "instance), reset, get_name_value and update_dict", ["GluonEvalMetric"])
def _metric_base(site, analysis, text_of):
    return "GluonEvalMetric" if site.kind == "base" else None


def _own_metrics(analysis: Analysis) -> set[str]:
    """The classes on mx.metric.EvalMetric this file defines (metric-base rewrites their
    base), or imports from another file of the scan."""
    bases = ("mx.metric.EvalMetric", "mx.gluon.metric.EvalMetric")
    return {s.node.name for s in analysis.sites if s.kind == "class" and s.name in bases
            and isinstance(s.node, ast.ClassDef)} | {
        name for name, base in analysis.block_classes.items() if base in bases}


def _an_own_metric(analysis: Analysis, recv: ast.AST | None) -> bool:
    """Whether ``recv`` is an instance of the file's own metric class: built by it, or
    ``self`` in one of its methods."""
    own = _own_metrics(analysis)
    if isinstance(recv, ast.Name) and recv.id == "self":
        owner = _class_of(analysis, recv)
        return owner is not None and owner.name in own
    return _instance_of(analysis, recv, own)


_METRIC_MEMBERS = ("update", "get", "reset", "reset_local", "get_name_value", "get_global",
                   "get_global_name_value", "update_dict", "name", "num_inst", "sum_metric",
                   "global_num_inst", "global_sum_metric", "output_names", "label_names")
_RULES.append(Rule(
    "metric-own-member", tuple(f"mx.{m}.EvalMetric.{a}" for m in ("metric", "gluon.metric")
                               for a in _METRIC_MEMBERS),
    "Mean().get()", "Mean().get()",
    "on an instance of the file's own metric class (metric-base), or self in its methods: "
    "GluonEvalMetric has MXNet's members, so the code stays as it is",
    _kept(_an_own_metric)))


def _folder_or_own_dataset(analysis: Analysis, recv: ast.AST) -> bool:
    if _built_by(analysis, recv, "image-folder-dataset"):
        return True
    return _instance_of(analysis, recv, _own_datasets(analysis))


_RULES.append(Rule(
    "dataset-synsets", ("mx.gluon.data.Dataset.synsets", "mx.gluon.data.Dataset.items"),
    "gluon.data.vision.ImageFolderDataset('train').synsets",
    "GluonImageFolderDataset('train').synsets",
    "read from a dataset built by image-folder-dataset (its helper keeps synsets and items), "
    "or of a Dataset class of the scan (its own attribute): the code stays as it is",
    _kept(_folder_or_own_dataset)))


@_helper_rule("autograd-backward", ["mx.autograd.backward"],
              "mx.autograd.backward([y1, y2])", "gluon_backward([y1, y2])",
              "heads and head_grads: each head's gradient with a head gradient of ones (its "
              "sum) where none is given; retain_graph and train_mode are left to a person",
              ["gluon_backward"])
def _autograd_backward(site, analysis, text_of):
    args = _bind(_call(site), ("heads", "head_grads"), 1)
    if args is None:
        return None
    return "gluon_backward(" + ", ".join(text_of(args[k]) for k in ("heads", "head_grads")
                                         if k in args) + ")"


@_helper_rule("nd-waitall", ["mx.nd.waitall"], "mx.nd.waitall()", "gluon_waitall()",
              "no arguments: PyTorch's CPU operations are done when they return; the helper "
              "waits for a CUDA device's queue", ["gluon_waitall"])
def _waitall(site, analysis, text_of):
    call = _call(site)
    if call is None or call.args or call.keywords:
        return None
    return "gluon_waitall()"


@_rule("save-parameters", ["mx.gluon.Block.save_parameters"],
       "nn.Dense(3, in_units=2, flatten=False).save_parameters('m.params')",
       "torch.save(torch.nn.Linear(2, 3).state_dict(), 'm.params')",
       "the file name only: the draft saves PyTorch's state dict (its parameter names are "
       "PyTorch's; a file MXNet wrote is read by sidebyside.convert, not by this)")
def _save_parameters(site, analysis, text_of):
    args = _bind(_call(site), ("filename",), 1)
    recv = _receiver(site)
    if args is None or recv is None or site.how == "guessed":
        return None
    return f"torch.save({text_of(recv)}.state_dict(), {text_of(args['filename'])})"


@_rule("load-parameters", ["mx.gluon.Block.load_parameters"],
       "nn.Dense(3, in_units=2, flatten=False).load_parameters('m.params')",
       "torch.nn.Linear(2, 3).load_state_dict(torch.load('m.params'))",
       "the file name, and ctx one device (the module moved there, as Gluon's parameters "
       "are; not allow_missing, ignore_extra or cast_dtype), a block of "
       "the script's own: it reads what the draft's save_parameters wrote (PyTorch's state "
       "dict); a file MXNet wrote is converted once by sidebyside.convert")
def _load_parameters(site, analysis, text_of):
    args = _bind(_call(site), ("filename", "ctx"), 1)
    recv = _receiver(site)
    if args is None or recv is None or site.how == "guessed":
        return None
    ctx = args.get("ctx")
    if ctx is not None and not _one_device(analysis, ctx):
        return None   # None, a list of devices, or not known
    module = _atom(recv, text_of(recv)) + (f".to({text_of(ctx)})" if ctx is not None else "")
    where = f", map_location={text_of(ctx)}" if ctx is not None else ""
    return f"{module}.load_state_dict(torch.load({text_of(args['filename'])}{where}))"


@_rule("block-cast", ["mx.gluon.Block.cast"], "nn.Dense(3, in_units=2, flatten=False).cast('float64')",
       "torch.nn.Linear(2, 3).to(torch.float64)",
       "a literal 'float32' or 'float64', a block of the script's own (for float16 Gluon "
       "keeps BatchNorm's parameters in float32, torch's .to casts them too)")
def _block_cast(site, analysis, text_of):
    args = _bind(_call(site), ("dtype",), 1)
    recv = _receiver(site)
    if args is None or recv is None or site.how == "guessed" \
            or _literal(args["dtype"]) not in ("float32", "float64"):
        return None
    return f"{_atom(recv, text_of(recv))}.to(torch.{_literal(args['dtype'])})"


def _download(helper: str, params: tuple[str, ...]):
    def rewrite(site, analysis, text_of):
        args = _bind(_call(site), params, 1)
        if args is None:
            return None
        return f"{helper}(" + ", ".join(
            [text_of(args[params[0]])] + [f"{k}={text_of(args[k])}" for k in params[1:]
                                          if k in args]) + ")"
    return rewrite


_RULES.append(Rule(
    "test-utils-download", ("mx.test_utils.download",), "mx.test_utils.download(url)",
    "gluon_download(url)",
    "any of url, fname, dirname, overwrite, retries: the helper saves the file where MXNet "
    "would (urllib: no requests needed) and returns its path", _download(
        "gluon_download", ("url", "fname", "dirname", "overwrite", "retries"))))
RULE_HELPERS["test-utils-download"] = ("gluon_download",)
_RULES.append(Rule(
    "gluon-utils-download", ("mx.gluon.utils.download",), "gluon.utils.download(url, path)",
    "gluon_utils_download(url, path=path)",
    "any of url, path, overwrite, sha1_hash, retries, verify_ssl: where Gluon saves it, the "
    "file already there kept as Gluon keeps it, the sha1 checked", _download(
        "gluon_utils_download",
        ("url", "path", "overwrite", "sha1_hash", "retries", "verify_ssl"))))
RULE_HELPERS["gluon-utils-download"] = ("gluon_utils_download",)


@_rule("random-seed", ["mx.random.seed"], "mx.random.seed(42)", "torch.manual_seed(42)",
       "the seed only (ctx absent or 'all'): both seed every device; the streams differ, so "
       "the numbers drawn do too")
def _seed(site, analysis, text_of):
    args = _bind(_call(site), ("seed_state", "ctx"), 1)
    if args is None or not _absent_or(args, "ctx", "all"):
        return None
    return f"torch.manual_seed({text_of(args['seed_state'])})"


# -- statements: the second pass (:mod:`.structure`) carries them out ------------------------

def _parents(analysis: Analysis) -> dict[int, ast.AST]:
    cached = _PARENTS.get(id(analysis))
    if cached is not None and cached[0] is analysis:
        return cached[1]
    out = {id(child): node for node in analysis.nodes() for child in ast.iter_child_nodes(node)}
    _PARENTS.clear()
    _PARENTS[id(analysis)] = (analysis, out)
    return out


_PARENTS: dict[int, tuple] = {}


def _sole_with_item(analysis: Analysis, call: ast.AST) -> bool:
    """Whether ``call`` is the only item of a ``with`` statement, bound to no name."""
    item = _parents(analysis).get(id(call))
    parent = _parents(analysis).get(id(item)) if isinstance(item, ast.withitem) else None
    return isinstance(parent, ast.With) and len(parent.items) == 1 \
        and item.context_expr is call and item.optional_vars is None


def _structural(name, mxnet, before, after, note):
    def wrap(fn):
        def rewrite(site, analysis, text_of):
            from . import structure

            if not structure.available() or not fn(site, analysis):
                return None
            return analysis.segment(site.node)  # as it is: the second pass moves the block
        _RULES.append(Rule(name, tuple(mxnet), before, after, note, rewrite))
        STRUCTURAL.add(name)
        return fn
    return wrap


@_structural("name-scope-drop", ["mx.gluon.Block.name_scope", "mx.gluon.HybridBlock.name_scope"],
             "with net.name_scope():\n    net.add(...)", "net.add(...)",
             "the with's only item, no arguments, no 'as': PyTorch names parameters by their "
             "attribute path, so the block becomes its body (needs LibCST)")
def _name_scope(site, analysis):
    call = _call(site)
    return call is not None and not call.args and not call.keywords \
        and _sole_with_item(analysis, call)


#: constructs whose result depends on training or predicting (Dropout, BatchNorm …), or that
#: switch the mode: with any of them, record() does more than record
#: what a file's own scope cannot govern: a net from a model zoo, RNN layers, Symbol, Module
_OTHER_APIS = ("set_training", "model_zoo", "mx.gluon.rnn.", "mx.sym.", "mx.mod.")
#: the recurrent layers whose rules (rnn-*, rnn-*-dropout) follow Gluon's scope: unlike the
#: rest of mx.gluon.rnn (cells, DropoutCell, ZoneoutCell...), they leave a file its own
_SCOPED_RNN = tuple(f"mx.gluon.rnn.{k}" for k in ("LSTM", "GRU", "RNN"))


def other_api(name: str) -> bool:
    """Whether a construct keeps a file from following Gluon's scope in its draft: the
    Symbol, Module or model-zoo API, set_training, mx.gluon.rnn but its LSTM, GRU and RNN
    layers (and their methods)."""
    parts = name.split(".")
    if parts[:3] == ["mx", "gluon", "rnn"] and len(parts) > 3 \
            and ".".join(parts[:4]) in _SCOPED_RNN and (len(parts) == 4 or parts[4][:1].islower()):
        return False
    return any(w in name for w in _OTHER_APIS)
_MODE_WORDS = ("Dropout", "BatchNorm", "InstanceNorm", "train_mode", "predict_mode",
               "is_training", "set_training", "model_zoo", "mx.gluon.rnn.", "mx.sym.",
               "mx.mod.")


def _mode_free(analysis: Analysis) -> bool:
    """Whether nothing in the file behaves differently in training and in prediction, and
    every module it imports is MXNet's, numpy's or the standard library's (a model built in
    another file could hold a Dropout)."""
    if any(w in s.name for s in analysis.sites for w in _MODE_WORDS):
        return False
    return _self_contained(analysis)


def _self_contained(analysis: Analysis) -> bool:
    """Whether every module the file imports is MXNet's, numpy's, the standard library's or a
    data library's (:data:`NO_MODELS`) or one of the scan's files free of
    mode-dependent layers (``Analysis.mode_free_modules``):
    its layers are all its own (a model imported from another file, or from a model zoo,
    would not follow this file's :class:`GluonMode`), and it uses no Symbol, Module or
    model-zoo API nor anything of mx.gluon.rnn but its LSTM, GRU and RNN layers
    (:func:`other_api`). Worked out once per analysis."""
    cached = _CONTAINED.get(id(analysis))
    if cached is not None and cached[0] is analysis:
        return cached[1]
    answer = _imports_and_apis_own(analysis)
    _CONTAINED.clear()
    _CONTAINED[id(analysis)] = (analysis, answer)
    return answer


_CONTAINED: dict[int, tuple] = {}

_SCOPES_SET = {"mx.autograd.record", "mx.autograd.train_mode", "mx.autograd.predict_mode",
               "mx.autograd.pause"}


def _scope_ready(analysis: Analysis) -> bool:
    """Whether the draft can follow Gluon's scope here: the file is self-contained, or one of
    a group of the scan's files that follow it together (``Analysis.scope_group``: the
    scan found every layer the group's scopes reach in the group's own files)."""
    return analysis.scope_group or _self_contained(analysis)


def _scoped_file(analysis: Analysis) -> bool:
    """Whether the draft's Dropout and BatchNorm can follow Gluon's scope here: the file is
    self-contained and sets the scope itself (``record()``, ``train_mode()``,
    ``predict_mode()``), or belongs to a scope group (a model file that the group's training
    file drives). A file that only defines layers for another file to train, outside such a
    group, would get layers no ``.train()`` can switch, driven by a flag nothing sets: it
    keeps torch's."""
    return analysis.scope_group or (
        _self_contained(analysis) and any(s.name in _SCOPES_SET for s in analysis.sites))


def _imports_and_apis_own(analysis: Analysis) -> bool:
    if any(other_api(s.name) for s in analysis.sites):
        return False
    for node in analysis.nodes():
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            mods = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                ["." * node.level + (node.module or "")]
            for mod in mods:
                if mod in analysis.mode_free_modules:
                    continue   # a module of the scan with no mode-dependent layer
                if not holds_no_model(mod):
                    return False
    return True


def holds_no_model(module: str) -> bool:
    """Whether a module can hold no MXNet model: MXNet's, numpy's, the standard library's
    or a data library's (:data:`NO_MODELS`)."""
    import sys

    top = module.split(".")[0]
    return top in ("mxnet", "numpy", "__future__") or top in NO_MODELS \
        or top in sys.stdlib_module_names


#: libraries that hold no MXNet model (data, plots, progress bars, images): a file importing
#: them is still self-contained; its own modules, gluoncv, gluonnlp... are not
NO_MODELS = {"pandas", "scipy", "sklearn", "matplotlib", "PIL", "cv2", "tqdm", "requests",
              "h5py", "yaml", "skimage", "imageio", "seaborn", "librosa", "soundfile", "nltk",
              "tabulate", "termcolor", "pycocotools", "IPython", "matplotlib_inline", "gym",
              "gymnasium", "lmdb", "mpl_toolkits", "tensorboardX"}


@_structural("record-unwrap", ["mx.autograd.record"],
             "with mx.autograd.record():\n    loss = ...", "loss = ...",
             "the with's only item, no arguments (or train_mode=True), no 'as'; and nothing in "
             "the file behaves differently in training and prediction (no Dropout, BatchNorm, "
             "mode switches, model-zoo nets or models imported from other files): PyTorch "
             "records every operation on tensors that require gradients (needs LibCST)")
def _record(site, analysis):
    call = _call(site)
    args = _bind(call, ("train_mode",))
    return args is not None and _absent_or(args, "train_mode", True) \
        and _sole_with_item(analysis, call) and _mode_free(analysis)


def _scope_rule(name, mxnet, before, after, note, training):
    @_helper_rule(name, mxnet, before, after, note, ["gluon_scope"])
    def rewrite(site, analysis, text_of):
        from . import structure

        call = _call(site)
        args = _bind(call, ("train_mode",)) if training == "record" else _bind(call, ())
        if args is None or not _scope_ready(analysis) \
                or (training == "record" and structure.available() and _record(site, analysis)):
            return None    # a file that needs no scope: record-unwrap drops the with
        if training == "record":
            return f"gluon_scope({text_of(args['train_mode']) if args else 'True'})"
        return f"gluon_scope({training})"
    return rewrite


_scope_rule("record-scope", ["mx.autograd.record"], "mx.autograd.record()",
            "gluon_scope(True)",
            "train_mode (default True), in a file whose layers are all its own, where "
            "record-unwrap does not apply: Gluon's Dropout and BatchNorm train inside it, so the "
            "draft's (dropout-scoped, batchnorm-scoped) read the flag gluon_scope sets; PyTorch "
            "records gradients everywhere", "record")
_scope_rule("train-mode-scope", ["mx.autograd.train_mode"], "mx.autograd.train_mode()",
            "gluon_scope(True)", "no arguments, in a file whose layers are all its own: "
            "the draft's Dropout and BatchNorm train in it", "True")
_scope_rule("predict-mode-scope", ["mx.autograd.predict_mode"], "mx.autograd.predict_mode()",
            "gluon_scope(False)", "no arguments, in a file whose layers are all its own: "
            "the draft's Dropout and BatchNorm predict in it", "False")


@_helper_rule("pause-scope", ["mx.autograd.pause"], "mx.autograd.pause()", "gluon_pause()",
              "train_mode (default False), in a file whose layers follow Gluon's scope (as "
              "record-scope): nothing recorded inside (torch.no_grad) and the draft's Dropout "
              "and BatchNorm predicting (or training, with train_mode=True)", ["gluon_pause"])
def _pause(site, analysis, text_of):
    args = _bind(_call(site), ("train_mode",))
    if args is None or not _scope_ready(analysis):
        return None
    return f"gluon_pause({text_of(args['train_mode'])})" if args else "gluon_pause()"


@_rule("is-training", ["mx.autograd.is_training"], "mx.autograd.is_training()",
       "GluonMode.is_training()", "no arguments, in a file whose layers are all its own: the flag "
       "gluon_scope sets")
def _is_training(site, analysis, text_of):
    call = _call(site)
    if call is None or call.args or call.keywords or not _scope_ready(analysis):
        return None
    return "GluonMode.is_training()"


RULE_HELPERS["is-training"] = ("GluonMode",)


@_structural("set-np-drop", ["mx.npx.set_np"], "npx.set_np()", "(the statement goes)",
             "a statement of its own, in a file whose every other MXNet construct a rule "
             "rewrites: MXNet's NumPy semantics switched on, which PyTorch's tensors have "
             "(needs LibCST)")
def _set_np(site, analysis):
    call = _call(site)
    return call is not None and isinstance(_parents(analysis).get(id(call)), ast.Expr) \
        and _all_rewritable(analysis, site)


def _all_rewritable(analysis: Analysis, but: Site) -> bool:
    """Whether a rule takes every MXNet construct of the file but ``but`` and the imports
    (each tried alone, as :func:`_built_by` does)."""
    for s in analysis.sites:
        if s is but or s.kind in ("import", "def", "class") or s.framework != MXNET \
                or s.node is None or (s.name.startswith("mx.np.") and s.name[6:] in _DTYPES):
            continue   # (mx.np.float32 is numpy's float32: its consumer rewrites it, or not)
        if not _a_rule_takes(s, analysis, [r for r in rules_for(s.name)
                                           if r.name not in STRUCTURAL]):
            return False
    return True


def _a_rule_takes(site: Site, analysis: Analysis, rules) -> bool:
    """Whether one of ``rules`` rewrites ``site``, tried alone (its arguments as written)."""
    return any(site.name in r.mxnet
               and r.rewrite(site, analysis, lambda n: analysis.segment(n)) is not None
               for r in rules)


@_structural("hybridize-drop", ["mx.gluon.Block.hybridize", "mx.gluon.HybridBlock.hybridize"],
             "net.hybridize()", "(the statement goes)",
             "a statement of its own, the block known (inferred): hybridize() changes how "
             "Gluon runs the block, not what it computes (needs LibCST)")
def _hybridize(site, analysis):
    call = _call(site)
    return call is not None and site.how != "guessed" \
        and isinstance(_parents(analysis).get(id(call)), ast.Expr)


_BLOCK_BASES = ("mx.gluon.Block", "mx.gluon.HybridBlock", "mx.gluon.nn.Block",
                "mx.gluon.nn.HybridBlock")


def _never(site, analysis, text_of):
    return None   # decided for the whole class by _blocks_to_modules, after the other rules


_RULES.append(Rule(
    "block-to-module", _BLOCK_BASES,
    "class Net(gluon.HybridBlock):\n    def hybrid_forward(self, F, x):\n        return F.relu(x)",
    "class Net(torch.nn.Module):\n    def forward(self, x):\n        return torch.relu(x)",
    "a class on Block or HybridBlock (its only base, no decorators) whose every MXNet construct "
    "the other rules rewrote, F included: the base becomes torch.nn.Module, "
    "hybrid_forward(self, F, x, …) becomes forward(self, x, …) (needs LibCST)", _never))
_RULES.append(Rule(
    "hybrid-forward", ("mx.gluon.HybridBlock.hybrid_forward",),
    "class Net(gluon.HybridBlock):\n    def hybrid_forward(self, F, x):\n        return F.relu(x)",
    "    def forward(self, x):",
    "with block-to-module: F's every use was in a construct another rule rewrote, so the "
    "method loses it (needs LibCST)", _never))
STRUCTURAL.update({"block-to-module", "hybrid-forward"})


def _blocks_to_modules(analysis: Analysis, done: set[int]) -> list[tuple[int, str]]:
    """The classes on Gluon's Block whose body the rules rewrote entirely: (line,
    "block-to-module") for the class, (line, "hybrid-forward") for its hybrid_forward; and the
    functions their hybrid_forward passes F to (``Analysis.f_helpers``) whose every use of F
    the rules rewrote too: (line, "f-helper"). A use of F may be that very argument, to a
    function that loses its F with them. The second pass (:mod:`.structure`) changes the
    base, the methods, the functions and those calls."""
    from . import structure

    if not structure.available():
        return []
    parents = _parents(analysis)

    def rewritten(node, stop):
        while node is not None and node is not stop:
            if id(node) in done:
                return True
            node = parents.get(id(node))
        return False

    helpers = {name: analysis.functions_defined()[name] for name in analysis.f_helpers
               if name in analysis.functions_defined()}

    def f_gone(fn, f_name, ok):
        """Whether every use of F in ``fn`` is rewritten, or passed to a function of ``ok``
        as its F."""
        for n in ast.walk(fn):
            if not (isinstance(n, ast.Name) and n.id == f_name) or rewritten(n, fn):
                continue
            call = parents.get(id(n))
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
                    and call.func.id in ok and n in call.args
                    and call.args.index(n) == analysis.f_helpers[call.func.id]):
                return False
        return True

    classes = []
    for site in analysis.sites:
        cls = site.node
        if site.kind != "class" or site.name not in _BLOCK_BASES \
                or not isinstance(cls, ast.ClassDef) or len(cls.bases) != 1 \
                or cls.keywords or cls.decorator_list:
            continue
        methods = {f.name: f for f in cls.body if isinstance(f, ast.FunctionDef)}
        hf = methods.get("hybrid_forward")
        if hf is not None:
            a = hf.args
            own_params = any(s.name == "mx.gluon.ParameterDict.get" and s.node is not None
                             and cls.lineno <= s.line <= (cls.end_lineno or s.line)
                             for s in analysis.sites)
            # *args and **kwargs stay (what a caller passes); Gluon would also pass a
            # block's own parameters through them, which the draft makes attributes
            if "forward" in methods or len(a.args) < 3 or a.kwonlyargs or a.posonlyargs \
                    or ((a.vararg or a.kwarg) and own_params) or hf.decorator_list:
                continue
        elif "forward" not in methods:
            continue
        inside = [s for s in analysis.sites if s.node is not None and s is not site
                  and s.kind not in ("import", "def") and s.framework == MXNET
                  and cls.lineno <= s.line <= (cls.end_lineno or s.line)]
        if any(not rewritten(s.node, cls) for s in inside):
            continue
        classes.append((cls, hf))
    # the classes and functions that lose F together: each function's every call is in one
    # that does (a caller keeping F would pass it to a function that no longer takes it)
    ok = dict(helpers)
    while True:
        fine = [(c, hf) for c, hf in classes
                if hf is None or f_gone(hf, hf.args.args[1].arg, ok)]
        losing = {id(hf) for _, hf in fine if hf is not None} | {id(f) for f in ok.values()}
        keep = {}
        for name, fn in ok.items():
            if not f_gone(fn, fn.args.args[analysis.f_helpers[name]].arg, ok):
                continue
            callers = [n for n in analysis.nodes() if isinstance(n, ast.Call)
                       and isinstance(n.func, ast.Name) and n.func.id == name]
            if all(id(_enclosing_function(analysis, c)) in losing for c in callers):
                keep[name] = fn
        if keep.keys() == ok.keys() and len(fine) == len(classes):
            break
        ok, classes = keep, fine
    out = []
    for cls, hf in classes:
        out.append((cls.lineno, "block-to-module"))
        if hf is not None:
            out.append((hf.lineno, "hybrid-forward"))
    out += [(fn.lineno, "f-helper") for fn in ok.values()]
    return sorted(out)


def _f_parameter(analysis: Analysis, line: int) -> str:
    """The name of the F parameter of the f-helper function defined at ``line``."""
    fn = next(f for name, f in analysis.functions_defined().items()
              if f.lineno == line and name in analysis.f_helpers)
    return fn.args.args[analysis.f_helpers[fn.name]].arg


def _enclosing_function(analysis: Analysis, node: ast.AST) -> ast.AST | None:
    parents = _parents(analysis)
    while (node := parents.get(id(node))) is not None and not isinstance(node, _SCOPES):
        pass
    return node


_RULES.append(Rule(
    "f-helper", ("mx.gluon.HybridBlock.hybrid_forward",),
    "def dist(F, x):\n    return F.sqrt(x)\n\n\nclass Net(gluon.HybridBlock):\n"
    "    def hybrid_forward(self, F, x):\n        return dist(F, x)",
    "def dist(x):",
    "a module-level function a hybrid_forward passes its F to (every call of it so), whose "
    "every use of F the other rules rewrote (or passes it on to another such function), the "
    "class converted with block-to-module: the function and its calls lose F (needs LibCST)",
    _never))
STRUCTURAL.add("f-helper")


RULES: tuple[Rule, ...] = tuple(_RULES)
_BY_NAME: dict[str, list[Rule]] = {}
for _r in RULES:
    for _n in _r.mxnet:
        _BY_NAME.setdefault(_n, []).append(_r)


def rules_for(name: str) -> list[Rule]:
    """The rules that may rewrite the canonical MXNet name ``name`` (tried in order)."""
    return list(_BY_NAME.get(name, ()))


# -- the writer -------------------------------------------------------------------------

class _Source:
    """The file as bytes, with (line, col) → offset (ast's columns count UTF-8 bytes)."""

    def __init__(self, text: str):
        self.data = text.encode("utf-8")
        self.starts = [0]
        for m in re.finditer(rb"\r\n|\r|\n", self.data):
            self.starts.append(m.end())

    def offset(self, line: int, col: int) -> int:
        return self.starts[line - 1] + col

    def span(self, node: ast.AST) -> tuple[int, int]:
        return (self.offset(node.lineno, node.col_offset),
                self.offset(node.end_lineno, node.end_col_offset))

    def line_start(self, line: int) -> int:
        return self.starts[line - 1] if line - 1 < len(self.starts) else len(self.data)

    def indent(self, line: int) -> str:
        start = self.line_start(line)
        m = re.match(rb"[ \t]*", self.data[start:])
        return m.group(0).decode()


class _Writer:
    """Finds the outermost qualifying calls and builds their new text, inner rewrites first."""

    def __init__(self, analysis: Analysis, src: _Source):
        self.analysis, self.src = analysis, src
        self.sites = {id(s.node): s for s in analysis.sites
                      if s.node is not None and s.kind in ("call", "method", "attribute")}
        for s in analysis.sites:   # a class's base: a site of kind "base" (dataset-base)
            if s.kind == "class" and isinstance(s.node, ast.ClassDef):
                for b in s.node.bases:
                    if analysis.qualname(b) == s.name:
                        self.sites.setdefault(id(b), dataclasses.replace(s, kind="base",
                                                                         node=b))
        self.memo: dict[int, tuple[str, list[tuple[int, str]]]] = {}
        self.fired: list[tuple[int, str]] = []
        self.done: set[int] = set()  # nodes a rule rewrote
        self.consumed: list[tuple[int, int, str]] = []

    def try_rule(self, node: ast.AST) -> tuple[str, list[tuple[int, str]]] | None:
        """(new text, rules fired inside) if a rule rewrites ``node`` itself."""
        site = self.sites.get(id(node))
        if site is None:
            return None
        for rule in rules_for(site.name):
            inner: list[tuple[int, str]] = []

            def text_of(sub: ast.AST, inner=inner) -> str:
                text, fired = self.text_of(sub)
                inner.extend(fired)
                return text
            taken: list[tuple[int, int, str]] = []

            def consume(sub, rule=rule.name, taken=taken):
                self.done.add(id(sub))
                taken.append((sub.lineno, sub.col_offset, rule))
            text_of.consume = consume  # type: ignore[attr-defined]
            new = rule.rewrite(site, self.analysis, text_of)
            if new is not None and not self.unported_inside(node):
                self.done.add(id(node))
                self.consumed += taken
                return new, [(node.lineno, rule.name), *inner]
        return None

    def unported_inside(self, node: ast.AST) -> bool:
        """Whether an MXNet construct inside ``node`` stays as it is: then ``node`` stays too
        (a PyTorch call given an NDArray would be a silent change; its site is a marker)."""
        stack = list(ast.iter_child_nodes(node))
        while stack:
            sub = stack.pop()
            if id(sub) in self.done:
                continue
            site = self.sites.get(id(sub))
            if site is not None and site.framework == MXNET:
                return True
            stack.extend(ast.iter_child_nodes(sub))
        return False

    def text_of(self, node: ast.AST) -> tuple[str, list[tuple[int, str]]]:
        """The source of ``node`` with every qualifying call in it rewritten."""
        key = id(node)
        if key not in self.memo:
            hit = self.try_rule(node)
            if hit is None:
                start, end = self.src.span(node)
                edits, fired = self.edits_below(node)
                hit = (_splice(self.src.data, start, end, edits), fired)
            self.memo[key] = hit
        return self.memo[key]

    def edits_below(self, node: ast.AST) -> tuple[list[tuple[int, int, str]],
                                                  list[tuple[int, str]]]:
        """Replacements (start, end, text) for the outermost qualifying nodes under ``node``."""
        edits, fired = [], []
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.JoinedStr):  # f-string positions: not trusted, left as is
                continue
            site = self.sites.get(id(child))
            hit = self.try_rule(child) if site is not None else None
            if hit is not None:
                self.memo[id(child)] = hit
                edits.append((*self.src.span(child), hit[0]))
                fired.extend(hit[1])
            elif site is not None and site.framework == MXNET:
                continue  # an MXNet call left as it is keeps MXNet arguments
            else:
                e, f = self.edits_below(child)
                edits.extend(e)
                fired.extend(f)
        return edits, fired


def _splice(data: bytes, start: int, end: int, edits: list[tuple[int, int, str]]) -> str:
    """``data[start:end]`` with the edits (absolute, non-overlapping) applied."""
    out, pos = [], start
    for s, e, text in sorted(edits):
        out.append(data[pos:s].decode("utf-8"))
        out.append(text)
        pos = e
    out.append(data[pos:end].decode("utf-8"))
    return "".join(out)


@functools.lru_cache(maxsize=4)
def _statements(tree: ast.Module) -> tuple[ast.stmt, ...]:
    return tuple(n for n in ast.walk(tree) if isinstance(n, ast.stmt))


@functools.lru_cache(maxsize=4)
def _spans(tree: ast.Module) -> tuple[tuple[int, int], ...]:
    """(first line, last line) of each statement (:func:`_first_line`)."""
    return tuple((_first_line(s), s.end_lineno) for s in _statements(tree))


def _first_line(stmt: ast.stmt) -> int:
    """A statement's first line: its first decorator's for a decorated def or class."""
    decos = getattr(stmt, "decorator_list", None) or []
    return min([stmt.lineno, *(d.lineno for d in decos)])


def _safe_lines(tree: ast.Module, src: _Source) -> set[int]:
    """Lines where a statement (or decorator) begins at the first non-blank character: a
    comment line can go above them."""
    out = set()
    for stmt in _statements(tree):
        decos = getattr(stmt, "decorator_list", None) or []
        line = _first_line(stmt)
        col = min([stmt.col_offset] + [d.col_offset - 1 for d in decos if d.lineno == line]) \
            if decos else stmt.col_offset
        if len(src.indent(line).encode()) == col:
            out.add(line)
    return out


def _marker_line(tree: ast.Module, src: _Source, line: int, safe: set[int]) -> int:
    """The line a marker for ``line`` goes above: the first line of the innermost statement
    holding it (walking out to one that starts a line), else the next statement's."""
    holders = [(first, -end) for first, end in _spans(tree) if first <= line <= end]
    for first, _ in sorted(holders, reverse=True):    # innermost first
        if first in safe:
            return first
    later = sorted(ln for ln in safe if ln >= line)
    return later[0] if later else len(src.starts) + 1


def _torch_imported(analysis: Analysis) -> bool:
    """Whether the name ``torch`` is the torch module in this file (``import torch``)."""
    return analysis.aliases.get("torch") == "torch"


def _import_line(tree: ast.Module, safe: set[int]) -> int:
    """The line ``import torch`` goes above: after a module docstring and ``from __future__``
    imports, before the next statement (and its comments' lines are left above it)."""
    body, k = tree.body, 0
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        k = 1
    while k < len(body) and isinstance(body[k], ast.ImportFrom) \
            and body[k].module == "__future__":
        k += 1
    if k < len(body):
        return _first_line(body[k])
    return body[-1].end_lineno + 1


def _helpers_line(tree: ast.Module, safe: set[int]) -> int:
    """The line the draft's helpers go above: after the last import of the file's opening
    statements (those before its first function or class), else where ``import torch`` goes."""
    last = None
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            break
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            last = stmt
    if last is None:
        return _import_line(tree, safe)
    return last.end_lineno + 1


_PLANS: dict = {}  # id(analysis) -> (analysis, (edits, fired)) of the last file drafted


def plan(analysis: Analysis, src: _Source | None = None
         ) -> tuple[list[tuple[int, int, str]], list[tuple[int, str]], list[tuple[int, int, str]]]:
    """What the draft of ``analysis``'s file to PyTorch rewrites, before anything is written:
    (edits (start, end, text), the rules fired (line, rule), the sites consumed by another
    construct's rewrite (line, col, rule)). Worked out once per analysis: :func:`draft`
    reuses it."""
    cached = _PLANS.get(id(analysis))
    if cached is not None and cached[0] is analysis:
        return cached[1]
    writer = _Writer(analysis, src or _Source(analysis.source))
    edits, fired = writer.edits_below(analysis.tree)
    fired = fired + _blocks_to_modules(analysis, writer.done)
    out = (edits, fired, sorted(set(writer.consumed)))
    _PLANS.clear()  # one file at a time: a second draft of it reuses the rewrites
    _PLANS[id(analysis)] = (analysis, out)
    return out


def draft(analysis: Analysis, markers: list[Marker] = (), direction: str = "torch",
          second_pass: bool = True) -> Draft:
    """The draft port of ``analysis``'s file: every call a :data:`RULES` rule qualifies
    rewritten in place (outermost first, arguments rewritten inside), each marker as a
    comment line above the statement holding its line, indented like it, and ``import
    torch`` once where a rule fired and the file lacks it. ``direction`` is the target
    framework: only ``"torch"`` has rules; for ``"mxnet"`` only the markers are written.
    Raises ``RuntimeError`` if the result would not parse (a bug here, never written)."""
    if direction not in ("torch", "mxnet"):
        raise ValueError(f"direction must be 'torch' or 'mxnet', not {direction!r}")
    src, tree = _Source(analysis.source), analysis.tree
    edits: list[tuple[int, int, str]] = []
    fired: list[tuple[int, str]] = []
    consumed: list[tuple[int, int, str]] = []
    if direction == "torch":
        edits, fired, consumed = plan(analysis, src)
    safe = _safe_lines(tree, src)
    newline = _newline(analysis.source)
    inserts: list[tuple[int, int, str]] = []   # (offset, order, text)
    if fired and not _torch_imported(analysis):
        inserts.append(_insert_at(src, _import_line(tree, safe), 0, "import torch", newline))
    for module in sorted({RULE_IMPORTS[rule] for _, rule in fired if rule in RULE_IMPORTS}):
        if analysis.aliases.get(module) != module:
            inserts.append(_insert_at(src, _import_line(tree, safe), 0.25,
                                      f"import {module}", newline))
    helpers = sorted({h for _, rule in fired for h in RULE_HELPERS.get(rule, ())})
    helper_text = None
    if helpers:
        from . import draft_helpers

        helper_text = newline + newline + draft_helpers.source_of(helpers).replace(
            "\n", newline) + newline
        # a mark where they go, replaced by them last: the parse and the second pass below
        # read the file's own lines, not the helpers' hundreds
        inserts.append(_insert_at(src, _helpers_line(tree, safe), 0.5, _HELPERS_MARK,
                                  newline))
    for k, m in enumerate(markers):
        line = _marker_line(tree, src, m.line, safe)
        inserts.append(_insert_at(src, line, 1 + k, src.indent(line) + m.comment(), newline))
    for line, rule in fired:
        if rule in STRUCTURAL and rule != "hybrid-forward":   # carried out with its class
            from . import structure

            at = _marker_line(tree, src, line, safe)
            name = _f_parameter(analysis, line) if rule == "f-helper" else None
            inserts.append(_insert_at(src, at, 1 + len(markers),
                                      src.indent(at) + structure.comment(rule, name), newline))
    out = _assemble(src.data, edits, inserts)
    try:
        parsed = ast.parse(out)
    except SyntaxError as e:  # pragma: no cover - a bug in a rule or in the writer
        raise RuntimeError(f"internal error: the draft of {analysis.path} does not parse "
                           f"({e.msg}, line {e.lineno}); not written") from e
    if direction == "torch" and second_pass and fired:  # nothing rewritten: left as it is
        from . import structure

        out, _ = structure.apply(out, tree=parsed)
    if helper_text is not None:
        out = _with_helpers(out, helper_text, newline)
    return Draft(out, sorted(fired), list(markers), consumed)


#: the line the draft's helpers replace once the rest is written (:func:`_with_helpers`)
_HELPERS_MARK = "# <sidebyside.migrate: the helpers go here>"


def _with_helpers(out: str, helper_text: str, newline: str) -> str:
    """The draft with its helpers (top-level definitions) where the mark line is, at the
    start of a line between two top-level statements; if the second pass moved the mark
    into a block, they go above the first statement after the opening imports instead."""
    mark = _HELPERS_MARK + newline
    at = out.find(mark)
    if at >= 0 and (at == 0 or out[at - 1] in "\r\n"):
        return out[:at] + helper_text + newline + out[at + len(mark):]
    out = "".join(ln for ln in out.splitlines(keepends=True)
                  if ln.strip() != _HELPERS_MARK)
    tree = ast.parse(out)
    lines = out.splitlines(keepends=True)
    line = _helpers_line(tree, set())
    return "".join(lines[:line - 1]) + helper_text + newline + "".join(lines[line - 1:])


def _insert_at(src: _Source, line: int, order: int, text: str,
               newline: str) -> tuple[int, int, str]:
    """An insertion of the line ``text`` above ``line`` (past the end: after the last line,
    ending that line first if it has no newline)."""
    if line <= len(src.starts) and src.line_start(line) < len(src.data):
        return src.line_start(line), order, text + newline
    lead = "" if not src.data or src.data.endswith((b"\n", b"\r")) else newline
    return len(src.data), order, lead + text + newline


def _newline(text: str) -> str:
    m = re.search(r"\r\n|\r|\n", text)
    return m.group(0) if m else "\n"


def _assemble(data: bytes, edits, inserts) -> str:
    """The file with replacements and line insertions (offset, order, text) applied."""
    pieces = sorted([(o, 0, k, o, t) for o, k, t in inserts] +
                    [(s, 1, 0, e, t) for s, e, t in edits])
    out, pos = [], 0
    for start, _kind, _k, end, text in pieces:
        out.append(data[pos:start].decode("utf-8"))
        out.append(text)
        pos = end
    out.append(data[pos:].decode("utf-8"))
    return "".join(out)
