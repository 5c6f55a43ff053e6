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


def _dtype(node: ast.AST | None, default: str | None = "float32") -> str | None:
    """``torch.float32`` for an absent dtype (``default``) or ``None``, the torch dtype of a
    literal string, else ``None``."""
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


def _elementwise(op: str, torch_op: str) -> None:
    def rewrite(site, analysis, text_of):
        call = _call(site)
        if call is None or call.keywords or len(call.args) != 1 \
                or isinstance(call.args[0], ast.Starred):
            return None
        return f"torch.{torch_op}({text_of(call.args[0])})"
    _RULES.append(Rule(f"nd-{op}", (f"mx.nd.{op}",), f"nd.{op}(x)", f"torch.{torch_op}(x)",
                       "one positional argument, no keywords (no out=)", rewrite))


for _op, _top in _ELEMENTWISE.items():
    _elementwise(_op, _top)


def _creation(op: str) -> None:
    def rewrite(site, analysis, text_of):
        args = _bind(_call(site), ("shape", "ctx", "dtype"), 1) if _call(site) else None
        if args is None or not _absent_or(args, "ctx", None):
            return None
        dt = _dtype(args.get("dtype"))
        return f"torch.{op}({text_of(args['shape'])}, dtype={dt})" if dt else None
    _RULES.append(Rule(f"nd-{op}", (f"mx.nd.{op}",), f"nd.{op}((2, 3))",
                       f"torch.{op}((2, 3), dtype=torch.float32)",
                       "no ctx (or ctx=None), no stype; dtype absent (float32 in MXNet) or a "
                       "literal string", rewrite))


_creation("zeros")
_creation("ones")


@_rule("nd-full", ["mx.nd.full"], "nd.full((2, 3), 7)",
       "torch.full((2, 3), 7, dtype=torch.float32)",
       "no ctx, no out; dtype absent (float32) or a literal string")
def _full(site, analysis, text_of):
    args = _bind(_call(site), ("shape", "val", "ctx", "dtype"), 2)
    if args is None or not _absent_or(args, "ctx", None):
        return None
    dt = _dtype(args.get("dtype"))
    return f"torch.full({text_of(args['shape'])}, {text_of(args['val'])}, dtype={dt})" \
        if dt else None


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
    return False


@_rule("nd-array", ["mx.nd.array"], "nd.array([[1, 2], [3, 4]])",
       "torch.tensor([[1, 2], [3, 4]], dtype=torch.float32)",
       "no ctx; a literal dtype string, or none and a source that is surely not an NDArray "
       "(a list/tuple display, a number, a numpy call): nd.array then gives float32 even for "
       "float64 or int64 numpy input")
def _array(site, analysis, text_of):
    args = _bind(_call(site), ("source_array", "ctx", "dtype"), 1)
    if args is None or not _absent_or(args, "ctx", None):
        return None
    src = args["source_array"]
    if _literal(args.get("dtype"), None) is None and not _not_ndarray(src, analysis):
        return None
    dt = _dtype(args.get("dtype"))
    return f"torch.tensor({text_of(src)}, dtype={dt})" if dt else None


def _joining(op: str, torch_op: str, axis_kw: str, default: int) -> None:
    def rewrite(site, analysis, text_of):
        call = _call(site)
        args = _bind(call, (axis_kw,), starred=True)
        if args is None or not call.args:
            return None
        items = ", ".join(("*" + text_of(a.value)) if isinstance(a, ast.Starred) else text_of(a)
                          for a in call.args)
        dim = text_of(args[axis_kw]) if axis_kw in args else str(default)
        return f"torch.{torch_op}([{items}], dim={dim})"
    _RULES.append(Rule(f"nd-{op}", (f"mx.nd.{op}",), f"nd.{op}(a, b)",
                       f"torch.{torch_op}([a, b], dim={default})",
                       f"arrays as positional arguments, only the {axis_kw}= keyword; its "
                       f"default ({default}) is written out", rewrite))


_joining("concat", "cat", "dim", 1)
_joining("stack", "stack", "axis", 0)


@_rule("nd-expand-dims", ["mx.nd.expand_dims"], "nd.expand_dims(x, axis=1)",
       "torch.unsqueeze(x, 1)", "data and axis given, nothing else")
def _expand_dims(site, analysis, text_of):
    args = _bind(_call(site), ("data", "axis"), 2)
    return None if args is None else \
        f"torch.unsqueeze({text_of(args['data'])}, {text_of(args['axis'])})"


@_rule("nd-swapaxes", ["mx.nd.swapaxes"], "nd.swapaxes(x, 0, 2)", "torch.transpose(x, 0, 2)",
       "data, dim1, dim2 only (both default to 0, written out)")
def _swapaxes(site, analysis, text_of):
    args = _bind(_call(site), ("data", "dim1", "dim2"), 1)
    if args is None:
        return None
    d1, d2 = (text_of(args[k]) if k in args else "0" for k in ("dim1", "dim2"))
    return f"torch.transpose({text_of(args['data'])}, {d1}, {d2})"


@_rule("nd-transpose", ["mx.nd.transpose"], "nd.transpose(x, axes=(0, 2, 1))",
       "torch.permute(x, (0, 2, 1))",
       "axes is a non-empty literal tuple of ints (no axes means reversed: needs the ndim)")
def _transpose(site, analysis, text_of):
    args = _bind(_call(site), ("data", "axes"), 2)
    axes = _literal(args.get("axes")) if args else _NO
    if args is None or not isinstance(axes, (tuple, list)) or not _int_axes(axes):
        return None
    return f"torch.permute({text_of(args['data'])}, {_tuple_text(tuple(axes))})"


def _reduction(op: str, torch_op: str) -> None:
    def rewrite(site, analysis, text_of):
        args = _bind(_call(site), ("data", "axis", "keepdims", "exclude"), 1)
        if args is None or not _absent_or(args, "exclude", False) \
                or not _absent_or(args, "keepdims", False, True):
            return None
        data = text_of(args["data"])
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


@_rule("nd-clip", ["mx.nd.clip"], "nd.clip(x, 0, 1)", "torch.clamp(x, 0, 1)",
       "data and literal bounds a_min <= a_max, nothing else (with a_min > a_max MXNet gives "
       "a_min, torch a_max)")
def _clip(site, analysis, text_of):
    args = _bind(_call(site), ("data", "a_min", "a_max"), 3)
    if args is None:
        return None
    low, high = _literal(args["a_min"]), _literal(args["a_max"])
    numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (low, high))
    if not numbers or low > high:  # MXNet gives a_min where a_min > a_max, torch a_max
        return None
    return (f"torch.clamp({text_of(args['data'])}, {text_of(args['a_min'])}, "
            f"{text_of(args['a_max'])})")


def _softmax(op: str, params: tuple[str, ...]) -> None:
    def rewrite(site, analysis, text_of):
        args = _bind(_call(site), params, 1)
        if args is None or "length" in args:
            return None
        dim = text_of(args["axis"]) if "axis" in args else "-1"
        return f"torch.{op}({text_of(args['data'])}, dim={dim})"
    _RULES.append(Rule(f"nd-{op.replace('_', '-')}", (f"mx.nd.{op}",), f"nd.{op}(x)",
                       f"torch.{op}(x, dim=-1)",
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


@_rule("ndarray-reshape", ["mx.nd.NDArray.reshape"], "x.reshape((2, -1))",
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


def _method(name: str, mx_name: str, before: str, after: str, note: str, build) -> None:
    """A rule for a method (or attribute) of NDArray: ``build(receiver_text, call)``."""
    def rewrite(site, analysis, text_of):
        recv = _receiver(site)
        if recv is None:
            return None
        return build(_atom(recv, text_of(recv)), site.node, text_of)
    _RULES.append(Rule(name, (f"mx.nd.NDArray.{mx_name}",), before, after, note, rewrite))


def _no_args(fn):
    def build(recv, node, text_of):
        if not isinstance(node, ast.Call) or node.args or node.keywords:
            return None
        return fn(recv)
    return build


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


def _astype(recv, node, text_of):
    if not isinstance(node, ast.Call):
        return None
    args = _bind(node, ("dtype", "copy"), 1)
    if args is None or not _absent_or(args, "copy", True, False):
        return None
    dt = _dtype(args["dtype"], default=None)
    if dt is None:
        return None
    copy = _literal(args.get("copy"), True)
    return f"{recv}.to({dt}" + (", copy=True)" if copy else ")")


_method("astype", "astype", "x.astype('float64')", "x.to(torch.float64, copy=True)",
        "dtype a literal string; copy a literal bool (MXNet copies by default, even to the same "
        "dtype, so copy=True is written; copy=False gives .to(dtype))", _astype)


def _context(recv, node, text_of):
    if not isinstance(node, ast.Attribute) or not isinstance(node.ctx, ast.Load):
        return None
    return f"{recv}.device"


_method("context", "context", "x.context", "x.device",
        "read, not assigned; the device the array lives on", _context)


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
    """``, bias=False`` for use_bias given, ``""`` if absent, ``None`` if not a literal."""
    if "use_bias" not in args:
        return ""
    v = _literal(args["use_bias"])
    return f", bias={v!r}" if isinstance(v, bool) else None


_DENSE = ("units", "activation", "use_bias", "flatten", "dtype", "weight_initializer",
          "bias_initializer", "in_units")


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
         "activation", "use_bias", "weight_initializer", "bias_initializer", "in_channels")


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


def _pool(kind: str, params: tuple[str, ...]):
    def rewrite(site, analysis, text_of):
        args = _bind(_call(site), params)
        if args is None or not _absent_or(args, "layout", "NCHW") \
                or not _absent_or(args, "ceil_mode", False) \
                or not _absent_or(args, "count_include_pad", True, False):
            return None
        size = text_of(args["pool_size"]) if "pool_size" in args else "2"
        extra = "".join(f", {t}={text_of(args[m])}" for m, t in (
            ("strides", "stride"), ("padding", "padding"),
            ("count_include_pad", "count_include_pad")) if m in args)
        return f"torch.nn.{kind}2d({size}{extra})"
    return rewrite


_RULES.append(Rule(
    "maxpool2d", ("mx.gluon.nn.MaxPool2D",), "nn.MaxPool2D(3, strides=2, padding=1)",
    "torch.nn.MaxPool2d(3, stride=2, padding=1)",
    "layout NCHW, ceil_mode absent/False (MXNet's 'full' convention differs at the border); "
    "pool_size default 2 written out; strides None → pool size in both",
    _pool("MaxPool", ("pool_size", "strides", "padding", "layout", "ceil_mode"))))
_RULES.append(Rule(
    "avgpool2d", ("mx.gluon.nn.AvgPool2D",), "nn.AvgPool2D(2, padding=1)",
    "torch.nn.AvgPool2d(2, padding=1)",
    "layout NCHW, ceil_mode absent/False; count_include_pad a literal (default True in both)",
    _pool("AvgPool", ("pool_size", "strides", "padding", "ceil_mode", "layout",
                      "count_include_pad"))))


@_rule("dropout", ["mx.gluon.nn.Dropout"], "nn.Dropout(0.5)", "torch.nn.Dropout(0.5)",
       "rate only (no axes); it drops only in training: inside autograd.record in Gluon, "
       "in .train() mode (a module's default) in torch")
def _dropout(site, analysis, text_of):
    args = _bind(_call(site), ("rate", "axes"), 1)
    if args is None or not _absent_or(args, "axes", (), []):
        return None
    return f"torch.nn.Dropout({text_of(args['rate'])})"


_ACTIVATIONS = {"relu": "ReLU", "sigmoid": "Sigmoid", "tanh": "Tanh", "softsign": "Softsign"}


@_rule("activation", ["mx.gluon.nn.Activation"], "nn.Activation('relu')", "torch.nn.ReLU()",
       "the activation a literal: 'relu', 'sigmoid', 'tanh' or 'softsign'")
def _activation(site, analysis, text_of):
    args = _bind(_call(site), ("activation",), 1)
    act = _literal(args["activation"]) if args else _NO
    return f"torch.nn.{_ACTIVATIONS[act]}()" if isinstance(act, str) and act in _ACTIVATIONS \
        else None


@_rule("flatten-layer", ["mx.gluon.nn.Flatten"], "nn.Flatten()", "torch.nn.Flatten()",
       "no arguments; both keep axis 0 and join the rest (a 1-D input raises in torch)")
def _flatten_layer(site, analysis, text_of):
    call = _call(site)
    return "torch.nn.Flatten()" if call is not None and not call.args and not call.keywords \
        else None


@_rule("softmax-ce-loss", ["mx.gluon.loss.SoftmaxCrossEntropyLoss"],
       "gluon.loss.SoftmaxCrossEntropyLoss()", "torch.nn.CrossEntropyLoss(reduction='none')",
       "no arguments: one loss per sample, like Gluon's; for (N, C) logits; torch needs int64 "
       "labels where Gluon takes floats (a float label raises)")
def _sce(site, analysis, text_of):
    call = _call(site)
    return "torch.nn.CrossEntropyLoss(reduction='none')" \
        if call is not None and not call.args and not call.keywords else None


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
        self.memo: dict[int, tuple[str, list[tuple[int, str]]]] = {}
        self.fired: list[tuple[int, str]] = []
        self.done: set[int] = set()  # nodes a rule rewrote

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
            new = rule.rewrite(site, self.analysis, text_of)
            if new is not None and not self.unported_inside(node):
                self.done.add(id(node))
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
    holders = [s for s in _statements(tree) if _first_line(s) <= line <= s.end_lineno]
    holders.sort(key=lambda s: (_first_line(s), -s.end_lineno))  # outermost first
    for stmt in reversed(holders):
        if _first_line(stmt) in safe:
            return _first_line(stmt)
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


_PLANS: dict = {}  # id(analysis) -> (analysis, (edits, fired)) of the last file drafted


def draft(analysis: Analysis, markers: list[Marker] = (), direction: str = "torch") -> Draft:
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
    if direction == "torch":
        cached = _PLANS.get(id(analysis))
        if cached is not None and cached[0] is analysis:
            edits, fired = cached[1]
        else:
            edits, fired = _Writer(analysis, src).edits_below(tree)
            _PLANS.clear()  # one file at a time: a second draft of it reuses the rewrites
            _PLANS[id(analysis)] = (analysis, (edits, fired))
    safe = _safe_lines(tree, src)
    newline = _newline(analysis.source)
    inserts: list[tuple[int, int, str]] = []   # (offset, order, text)
    if fired and not _torch_imported(analysis):
        inserts.append(_insert_at(src, _import_line(tree, safe), 0, "import torch", newline))
    for k, m in enumerate(markers):
        line = _marker_line(tree, src, m.line, safe)
        inserts.append(_insert_at(src, line, 1 + k, src.indent(line) + m.comment(), newline))
    out = _assemble(src.data, edits, inserts)
    try:
        ast.parse(out)
    except SyntaxError as e:  # pragma: no cover - a bug in a rule or in the writer
        raise RuntimeError(f"internal error: the draft of {analysis.path} does not parse "
                           f"({e.msg}, line {e.lineno}); not written") from e
    return Draft(out, sorted(fired), list(markers))


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
