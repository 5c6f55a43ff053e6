"""Run an entry's check: both sides on the same inputs, compared: :func:`run_check`.

For each dtype of the check (float64, then float32), each side's snippet runs in a fresh
namespace holding the inputs (:func:`make_inputs`) as that framework's arrays:

- the MXNet side sees ``mx, nd, sym, gluon, nn`` (``gluon.nn``), ``rnn``, ``autograd``,
  ``np``/``npx`` (MXNet's NumPy interface), ``onp`` (numpy), ``math`` and ``dtype`` (a string);
- the PyTorch side sees ``torch, nn`` (``torch.nn``), ``F`` (``torch.nn.functional``),
  ``onp``, ``math``, ``dtype`` (a ``torch.dtype``) and ``P``: the Gluon block's parameters as
  numpy arrays, in registration order.

Every line of a snippet but the last runs first. A Gluon block bound to ``net`` is initialised
(if the snippet did not), cast to the dtype, run once if its shapes are deferred, and given
random parameters (variances positive); a PyTorch module bound to ``mod`` gets the same
values, matched in order and by shape (a snippet that reads ``P`` loads them itself and lists
the tensors that correspond, in Gluon's order, as ``tparams``). The last line then runs under
``autograd.record`` / with gradients on, and the outputs' float parts are back-propagated with
the same random head gradients on both sides. Compared: every output, the gradients of the
inputs ``Check.grad`` names, the parameters' gradients and their values afterwards (running
statistics included).

Tolerances (``Check.kind == "close"``): float64 within ``atol + rtol·|torch|`` (tight by
default: 1e-12 + 1e-10·|torch|), the outputs' dtypes equal; float32 within ``atol32 + rtol32 ·
scale`` (default 1e-5 of the largest |value|), the dtypes equal — a framework whose own float32
arithmetic loses precision (a float32 kernel that rounds more) fails it and says so in its
note. Beside it the gap is reported as a multiple of the two frameworks' own
float32-vs-float64 drift (the collection's yardstick, :mod:`sidebyside.drift`), a measure
only: where float64 agrees, the gap cannot exceed the drift by much. ``"exact"``: equal.
``"random"``: the two sides' samples pass a two-sample test (Kolmogorov–Smirnov distance, or
total variation for integers).
"""

from __future__ import annotations

import ast
import math
import re
import time
from dataclasses import dataclass, field

import numpy as onp

from .model import Check, Entry

__all__ = ["make_inputs", "run_check", "run_entry", "Outcome", "CheckFailed", "Side"]

_F32_EPS = float(onp.finfo(onp.float32).eps)


class CheckFailed(AssertionError):
    """The two sides of a check disagree (or a side raised)."""


# ------------------------------------------------------------------------------- inputs
def _generators(rng):
    def shape_of(shape):
        return tuple(shape[0]) if len(shape) == 1 and isinstance(shape[0], (tuple, list)) \
            else tuple(shape)

    def U(*shape, lo=-1.0, hi=1.0):
        return rng.uniform(lo, hi, shape_of(shape))

    def P(*shape, lo=0.5, hi=2.0):
        return rng.uniform(lo, hi, shape_of(shape))

    def N(*shape, loc=0.0, scale=1.0):
        return rng.normal(loc, scale, shape_of(shape))

    def I(lo, hi, shape=()):  # noqa: E743 - integers in [lo, hi)
        return rng.integers(lo, hi, shape_of((shape,)) if shape != () else ()).astype(onp.int64)

    def A(values, dtype=None):
        return onp.asarray(values, dtype=dtype or onp.float64)

    def IA(values):
        return onp.asarray(values, dtype=onp.int64)

    def IMG(h, w, c=3):
        return rng.integers(0, 256, (h, w, c)).astype(onp.uint8)

    def PROBS(*shape):
        p = rng.uniform(0.05, 1.0, shape_of(shape))
        return p / p.sum(axis=-1, keepdims=True)

    def SPD(n):
        a = rng.uniform(-1, 1, (n, n))
        return a @ a.T + n * onp.eye(n)

    return dict(U=U, P=P, N=N, I=I, A=A, IA=IA, IMG=IMG, PROBS=PROBS, SPD=SPD, onp=onp)


def make_inputs(spec: str, seed: int = 0) -> dict[str, onp.ndarray]:
    """The named inputs of ``spec`` (``"x=U(2, 3); i=I(0, 4, (5,))"``), as numpy arrays:
    floats in float64 (each run casts them), integers int64, images uint8. The same values
    every time for the same spec and seed."""
    out: dict[str, onp.ndarray] = {}
    if not spec.strip():
        return out
    rng = onp.random.default_rng(seed)
    gens = _generators(rng)
    for part in _split_top(spec):
        name, _, expr = part.partition("=")
        name = name.strip()
        if not name.isidentifier() or not expr.strip():
            raise ValueError(f"bad input {part!r}: write name=U(2, 3)")
        out[name] = onp.asarray(eval(expr, {"__builtins__": {}}, {**gens, **out}))
    return out


def _split_top(spec: str) -> list[str]:
    """Split on ``;`` outside brackets."""
    parts, depth, cur = [], 0, []
    for ch in spec:
        depth += ch in "([{"
        depth -= ch in ")]}"
        if ch == ";" and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return [p for p in parts if p.strip()]


def _cast(value: onp.ndarray, dtype: str) -> onp.ndarray:
    return value.astype(dtype) if value.dtype == onp.float64 else value


# ------------------------------------------------------------------------------ running
def _split_snippet(code: str):
    tree = ast.parse(code)
    last = ast.Expression(tree.body.pop().value)
    return compile(tree, "<check>", "exec"), compile(last, "<check>", "eval")


@dataclass
class Side:
    """What one side of one run produced, as numpy."""

    outputs: list = field(default_factory=list)
    grads: dict = field(default_factory=dict)        # input name -> gradient
    params: list = field(default_factory=list)       # parameter values after the run
    pgrads: list = field(default_factory=list)       # parameter gradients (None: no grad)
    pnames: list = field(default_factory=list)
    before: list = field(default_factory=list)       # parameter values before the run
    mask: list = field(default_factory=list)         # outputs back-propagated (PyTorch's)


def _flatten(value) -> list:
    if isinstance(value, (list, tuple)) and not _is_torch_size(value):
        return [v for item in value for v in _flatten(item)]
    if isinstance(value, dict):
        return [v for k in sorted(value) for v in _flatten(value[k])]
    return [value]


def _is_torch_size(value) -> bool:
    return type(value).__name__ == "Size" and type(value).__module__.startswith("torch")


def _to_numpy(v):
    """A comparable value: numpy for arrays and numbers, the value itself otherwise."""
    if isinstance(v, onp.ndarray):
        return v
    if hasattr(v, "asnumpy"):
        return v.asnumpy()
    mod = type(v).__module__
    if mod.startswith("torch") and hasattr(v, "detach"):
        return v.detach().cpu().numpy()
    if _is_torch_size(v):
        return onp.asarray(tuple(v), dtype=onp.int64)
    if isinstance(v, (bool, onp.bool_)):
        return onp.asarray(v, dtype=bool)
    if isinstance(v, (int, float, onp.generic)):
        return onp.asarray(v)
    return v  # str, None, other objects: compared with ==


def _heads(parts, seed: int, dtype) -> list[onp.ndarray]:
    rng = onp.random.default_rng(seed + 1000)
    return [rng.uniform(-1, 1, p.shape).astype(dtype) for p in parts]


def _param_values(shape, name: str, rng) -> onp.ndarray:
    lname = name.lower()
    if lname.endswith(("running_var", "moving_var")):
        return rng.uniform(0.5, 1.5, shape)
    return rng.uniform(-0.5, 0.5, shape)


def _mx_namespace(dtype: str, values: dict, check: Check):
    import mxnet as mx
    from mxnet import autograd, gluon, nd

    ns = {"mx": mx, "nd": nd, "sym": mx.sym, "gluon": gluon, "nn": gluon.nn, "rnn": gluon.rnn,
          "autograd": autograd, "np": mx.np, "npx": mx.npx, "onp": onp, "math": math,
          "dtype": dtype}
    make = mx.np.array if check.np else nd.array
    for k, v in values.items():
        v = _cast(v, dtype)
        ns[k] = make(v, dtype=v.dtype)
    return ns


def _is_float(arr) -> bool:
    return onp.dtype(arr.dtype).kind == "f"


def _run_mx(check: Check, values: dict, dtype: str, seed: int):
    """The MXNet side's forward pass; returns (side, finish) where ``finish(mask)`` runs
    the backward pass through the outputs ``mask`` marks and fills in the gradients."""
    import contextlib

    import mxnet as mx
    from mxnet import autograd

    body, last = _split_snippet(check.mx)
    scope = contextlib.ExitStack() if not check.np else _np_scope()
    scope.__enter__()
    try:
        mx.random.seed(seed)
        onp.random.seed(seed)
        ns = _mx_namespace(dtype, values, check)
        for g in check.grads:
            ns[g].attach_grad()
        if re.search(r"\bnet\s*=", check.mx):  # a block: built first, then run recorded
            exec(body, ns)
        else:  # operators: the whole snippet is recorded
            with autograd.record(train_mode=check.mode == "train"):
                exec(body, ns)
        net = ns.get("net")
        if net is not None and not isinstance(net, mx.gluon.Block):
            net = None
        params = []
        make = mx.np.array if check.np else mx.nd.array
        if net is not None:
            params = list(net.collect_params().values())
            if any(p._data is None and not p._deferred_init for p in params):
                net.initialize()
            if dtype.startswith("float"):
                net.cast(dtype)
            if any(p._deferred_init for p in params):
                eval(last, ns)  # a first pass outside recording settles the deferred shapes
            rng = onp.random.default_rng(seed + 7)
            if not check.keep_weights:
                for p in params:
                    p.set_data(make(_param_values(p.shape, p.name, rng), dtype=p.dtype))
        side = Side()
        side.pnames = [p.name for p in params]
        side.before = [p.data().asnumpy().copy() for p in params]
        recording = bool(check.grads) or any(p.grad_req != "null" for p in params)
        if recording:
            with autograd.record(train_mode=check.mode == "train"):
                out = eval(last, ns)
        else:
            out = eval(last, ns)
        parts = _flatten(out)
        side.outputs = [_to_numpy(p) for p in parts]
    except BaseException:
        scope.__exit__(None, None, None)
        raise

    def finish(mask):
        try:
            if recording and mask is not None and len(mask) == len(parts):
                heads_for = [p for p, m in zip(parts, mask) if m and hasattr(p, "asnumpy")]
                if heads_for:
                    heads = _heads(heads_for, seed, dtype if dtype.startswith("float")
                                   else "float64")
                    autograd.backward(heads_for, [make(h, dtype=a.dtype)
                                                  for h, a in zip(heads, heads_for)])
            side.grads = {g: ns[g].grad.asnumpy() for g in check.grads}
            side.params = [p.data().asnumpy() for p in params]
            side.pgrads = [p.grad().asnumpy() if p.grad_req != "null" else None
                           for p in params]
        finally:
            scope.__exit__(None, None, None)
        return side

    return side, finish


def _np_scope():
    import contextlib

    import mxnet as mx

    stack = contextlib.ExitStack()
    stack.enter_context(mx.util.np_shape(True))
    stack.enter_context(mx.util.np_array(True))
    return stack


def _run_torch(check: Check, values: dict, dtype: str, seed: int, mx_side: Side) -> Side:
    import torch

    tdtype = getattr(torch, dtype) if dtype.startswith("float") else torch.float64
    body, last = _split_snippet(check.torch)
    torch.manual_seed(seed)
    onp.random.seed(seed)
    ns = {"torch": torch, "nn": torch.nn, "F": torch.nn.functional, "onp": onp,
          "math": math, "dtype": tdtype, "P": [p.copy() for p in mx_side.before]}
    for k, v in values.items():
        v = _cast(v, dtype)
        t = torch.from_numpy(v.copy())
        if k in check.grads:
            t.requires_grad_(True)
        ns[k] = t
    exec(body, ns)
    mod = ns.get("mod")
    if mod is not None and not isinstance(mod, torch.nn.Module):
        mod = None
    tparams: list = []
    if mod is not None:
        if dtype.startswith("float"):
            mod.to(tdtype)
        if re.search(r"\bP\b", check.torch):
            tparams = list(ns.get("tparams", []))
        else:
            tparams = _load_in_order(mod, mx_side)
        mod.train(check.mode == "train")
    side = Side()
    with torch.enable_grad():
        out = eval(last, ns)
    parts = _flatten(out)
    side.mask = [isinstance(p, torch.Tensor) and p.requires_grad and p.is_floating_point()
                 for p in parts]
    tensors = [p for p, m in zip(parts, side.mask) if m]
    if tensors:
        heads = _heads(tensors, seed, dtype if dtype.startswith("float") else "float64")
        torch.autograd.backward(tensors, [torch.from_numpy(h).to(t.dtype)
                                          for h, t in zip(heads, tensors)])
    side.outputs = [_to_numpy(p) for p in parts]
    for g in check.grads:
        grad = ns[g].grad
        side.grads[g] = grad.detach().numpy() if grad is not None else onp.zeros(ns[g].shape)
    side.params = [t.detach().numpy().copy() if t is not None else None for t in tparams]
    side.pgrads = [(t.grad.detach().numpy() if t.grad is not None else onp.zeros(t.shape))
                   if t is not None and t.requires_grad else None for t in tparams]
    return side


def _load_in_order(mod, mx_side: Side) -> list:
    """Copy Gluon's parameter values into ``mod``'s floating-point state (parameters and
    buffers, in registration order), pairing them in order; shapes must match."""
    import torch

    state = [(k, t) for k, t in _torch_state(mod) if t.is_floating_point()]
    if len(state) != len(mx_side.before):
        raise CheckFailed(
            f"the Gluon block has {len(mx_side.before)} parameters "
            f"({', '.join(mx_side.pnames)}), the PyTorch module {len(state)} float tensors "
            f"({', '.join(k for k, _ in state)}): load them in the torch snippet from P")
    out = []
    with torch.no_grad():
        for (k, t), v, name in zip(state, mx_side.before, mx_side.pnames):
            if tuple(t.shape) != v.shape:
                raise CheckFailed(f"parameter {name} {v.shape} ≠ torch {k} {tuple(t.shape)}: "
                                  "load them in the torch snippet from P")
            t.copy_(torch.from_numpy(v))
            out.append(t)
    return out


def _torch_state(mod):
    """(name, tensor) for every parameter and buffer, module by module in registration
    order (as ``state_dict`` orders them), the tensors themselves (not detached copies)."""
    out = []
    for prefix, m in mod.named_modules():
        for k, t in list(m._parameters.items()) + list(m._buffers.items()):
            if t is not None:
                out.append((f"{prefix}.{k}" if prefix else k, t))
    return out


# ---------------------------------------------------------------------------- comparing
def _kind(arr) -> str:
    k = onp.dtype(arr.dtype).kind
    return {"f": "float", "i": "int", "u": "int", "b": "bool", "c": "complex"}.get(k, k)


def _pairs(name: str, a_list, b_list):
    if len(a_list) != len(b_list):
        raise CheckFailed(f"{name}: MXNet gave {len(a_list)} values, PyTorch {len(b_list)}")
    return [(f"{name}[{i}]" if len(a_list) > 1 else name, a, b)
            for i, (a, b) in enumerate(zip(a_list, b_list))]


def _structure(label, a, b):
    """Arrays: shapes and kinds equal. Other values: equal. Returns True when both are
    arrays (then compared by value)."""
    a_arr, b_arr = isinstance(a, onp.ndarray), isinstance(b, onp.ndarray)
    if not (a_arr and b_arr):
        if a_arr and a.shape == () and not isinstance(b, onp.ndarray):
            a = a.item()
        if b_arr and b.shape == () and not isinstance(a, onp.ndarray):
            b = b.item()
        if a != b:
            raise CheckFailed(f"{label}: MXNet {a!r} vs PyTorch {b!r}")
        return False
    if a.shape != b.shape:
        raise CheckFailed(f"{label}: shapes differ: MXNet {a.shape} vs PyTorch {b.shape}")
    if _kind(a) != _kind(b):
        raise CheckFailed(f"{label}: dtypes differ in kind: MXNet {a.dtype} vs PyTorch {b.dtype}")
    return True


def _diff(a, b) -> float:
    if a.size == 0:
        return 0.0
    a, b = onp.atleast_1d(a), onp.atleast_1d(b)  # a 0-d output: abs() gives a scalar
    d = onp.abs(a.astype(onp.float64) - b.astype(onp.float64))
    nan = onp.isnan(a.astype(onp.float64)) & onp.isnan(b.astype(onp.float64))
    d[nan] = 0.0
    both_inf = onp.isinf(a.astype(onp.float64)) & (a.astype(onp.float64) == b.astype(onp.float64))
    d[both_inf] = 0.0
    return float(onp.nan_to_num(d, nan=onp.inf).max())


def _scale(b) -> float:
    if b.size == 0:
        return 0.0
    f = onp.abs(b.astype(onp.float64))
    f = f[onp.isfinite(f)]
    return float(f.max()) if f.size else 0.0


def _compared(side: Side, other: Side):
    """(label, mx value, torch value) for everything a run compares."""
    out = _pairs("output", side.outputs, other.outputs)
    for g in side.grads:
        out.append((f"grad of {g}", side.grads[g], other.grads[g]))
    if other.params:
        for name, a, b in zip(side.pnames, side.params, other.params):
            if b is not None:
                out.append((f"{name} after", a, b))
        for name, a, b in zip(side.pnames, side.pgrads, other.pgrads):
            if a is not None and b is not None:
                out.append((f"grad of {name}", a, b))
    return out


@dataclass
class Outcome:
    """What a check measured: per dtype, the largest difference between the frameworks (and,
    for float32, the gap as a multiple of the frameworks' own float32-vs-float64 drift)."""

    entry: Entry
    ok: bool
    message: str = ""
    diffs: dict = field(default_factory=dict)      # dtype -> max |mx − torch| over all values
    drift_ratio: float | None = None               # float32 gap / own drift (a measure)
    seconds: float = 0.0


def _close64(check, label, a, b):
    d = onp.abs(a.astype(onp.float64) - b.astype(onp.float64))
    bound = check.atol + check.rtol * onp.abs(b.astype(onp.float64))
    finite = onp.isfinite(a.astype(onp.float64)) & onp.isfinite(b.astype(onp.float64))
    same_special = (~finite) & ((a == b) | (onp.isnan(a.astype(float)) & onp.isnan(b.astype(float))))
    bad = (finite & (d > bound)) | (~finite & ~same_special)
    if bad.any():
        raise CheckFailed(f"{label} (float64): max |MXNet − PyTorch| = {_diff(a, b):.3g} "
                          f"exceeds atol={check.atol:g} + rtol={check.rtol:g}·|PyTorch|")


def _compare_close(check: Check, runs: dict) -> tuple[dict, float | None]:
    diffs, yard = {}, None
    for dtype, (m, t) in runs.items():
        worst = 0.0
        for label, a, b in _compared(m, t):
            if not _structure(label, a, b):
                continue
            if _kind(a) == "float" and a.dtype != b.dtype and label.startswith("output"):
                raise CheckFailed(f"{label} ({dtype}): dtypes differ: MXNet {a.dtype} vs "
                                  f"PyTorch {b.dtype}")
            worst = max(worst, _diff(a, b))
            if dtype == "float64" or _kind(a) != "float" or a.dtype == onp.float64:
                if _kind(a) == "float":
                    _close64(check, label, a, b)
                elif not onp.array_equal(a, b):
                    raise CheckFailed(f"{label} ({dtype}): values differ: MXNet "
                                      f"{a.ravel()[:6]} vs PyTorch {b.ravel()[:6]}")
        diffs[dtype] = worst
    if "float32" in runs:
        yard = _float32(check, runs)
    return diffs, yard


def _float32(check: Check, runs: dict) -> float:
    """The float32 gap, held to ``atol32 + rtol32 · scale`` (scale: the largest |value| of
    PyTorch's float64 result, else its float32 one); returns the largest ratio of the gap to
    the frameworks' own float32-vs-float64 drift (a measure, not a bound: where float64
    agrees, the gap can never exceed the drift by much)."""
    m32, t32 = runs["float32"]
    pairs32 = _compared(m32, t32)
    pairs64 = _compared(*runs["float64"]) if "float64" in runs else None
    ratio = 0.0
    for i, (label, a, b) in enumerate(pairs32):
        if not isinstance(a, onp.ndarray) or _kind(a) != "float":
            continue
        if a.dtype != b.dtype and label.startswith("output"):
            raise CheckFailed(f"{label} (float32): dtypes differ: MXNet {a.dtype} vs PyTorch "
                              f"{b.dtype}")
        gap = _diff(a, b)
        scale = _scale(pairs64[i][2]) if pairs64 is not None else _scale(b)
        bound = check.atol32 + check.rtol32 * scale
        if not gap <= bound:
            raise CheckFailed(f"{label} (float32): |MXNet − PyTorch| = {gap:.3g} exceeds "
                              f"atol32={check.atol32:g} + rtol32={check.rtol32:g}·{scale:.3g}")
        if pairs64 is not None:
            drift = _diff(a, pairs64[i][1]) + _diff(b, pairs64[i][2])
            if gap:
                ratio = max(ratio, gap / drift if drift else float("inf"))
    return ratio


def _compare_exact(runs: dict) -> dict:
    diffs = {}
    for dtype, (m, t) in runs.items():
        for label, a, b in _compared(m, t):
            if _structure(label, a, b) and not onp.array_equal(a, b, equal_nan=_kind(a) == "float"):
                raise CheckFailed(f"{label} ({dtype}): values differ: MXNet {a.ravel()[:6]} "
                                  f"vs PyTorch {b.ravel()[:6]}")
        diffs[dtype] = 0.0
    return diffs


def _compare_random(runs: dict) -> dict:
    out = {}
    for dtype, (m, t) in runs.items():
        for label, a, b in _pairs("samples", m.outputs, t.outputs):
            if not _structure(label, a, b):
                continue
            x, y = a.ravel().astype(onp.float64), b.ravel().astype(onp.float64)
            if x.size < 1000:
                raise CheckFailed(f"{label}: {x.size} samples are too few for a two-sample test")
            if _kind(a) in ("int", "bool") or len(onp.unique(x)) <= 64:
                values = onp.union1d(x, y)
                px = onp.array([onp.mean(x == v) for v in values])
                py = onp.array([onp.mean(y == v) for v in values])
                stat, limit = 0.5 * float(onp.abs(px - py).sum()), 0.03
            else:
                stat, limit = _ks(x, y), 2.0 * math.sqrt((x.size + y.size) / (x.size * y.size))
            if not stat <= limit:
                raise CheckFailed(f"{label} ({dtype}): the two samples differ: distance "
                                  f"{stat:.4f} > {limit:.4f}")
            out[dtype] = max(out.get(dtype, 0.0), stat)
    return out


def _ks(x, y) -> float:
    x, y = onp.sort(x), onp.sort(y)
    grid = onp.concatenate([x, y])
    fx = onp.searchsorted(x, grid, side="right") / x.size
    fy = onp.searchsorted(y, grid, side="right") / y.size
    return float(onp.abs(fx - fy).max())


def run_check(check: Check, seed: int = 0) -> tuple[dict, float | None]:
    """Run ``check``; return (max |MXNet − PyTorch| per dtype, the float32 gap / drift).
    Raises :class:`CheckFailed` when the sides disagree (or when a side raises)."""
    values = make_inputs(check.inputs, seed)
    runs = {}
    for dtype in check.dtypes:
        try:
            m, finish = _run_mx(check, values, dtype, seed)
        except CheckFailed:
            raise
        except Exception as err:
            raise CheckFailed(f"the MXNet side raised ({dtype}): {type(err).__name__}: "
                              f"{_first_line(err)}") from err
        try:
            t = _run_torch(check, values, dtype, seed, m)
        except CheckFailed:
            finish(None)
            raise
        except Exception as err:
            finish(None)
            raise CheckFailed(f"the PyTorch side raised ({dtype}): {type(err).__name__}: "
                              f"{_first_line(err)}") from err
        try:
            finish(t.mask)
        except Exception as err:
            raise CheckFailed(f"the MXNet side's backward pass raised ({dtype}): "
                              f"{type(err).__name__}: {_first_line(err)}") from err
        runs[dtype] = (m, t)
    if check.kind == "close":
        return _compare_close(check, runs)
    if check.kind == "exact":
        return _compare_exact(runs), None
    return _compare_random(runs), None


def _first_line(err) -> str:
    text = str(err).strip().splitlines()
    return text[0][:300] if text else ""


def run_entry(e: Entry, seed: int = 0) -> Outcome:
    """Run an entry's check and say what it measured (an entry without a check: not ok)."""
    if e.check is None:
        return Outcome(e, False, "unchecked")
    t0 = time.perf_counter()
    try:
        diffs, yard = run_check(e.check, seed)
    except CheckFailed as err:
        return Outcome(e, False, str(err), seconds=time.perf_counter() - t0)
    return Outcome(e, True, "", diffs, yard, time.perf_counter() - t0)


def main(argv=None) -> int:
    """``python -m sidebyside.catalogue.run [--group G ...] [--match TEXT]``: run the
    entries' checks, one line each; exit 1 if any fails."""
    import argparse
    import sys

    from .entries import all_entries

    parser = argparse.ArgumentParser(prog="python -m sidebyside.catalogue.run",
                                     description=main.__doc__)
    parser.add_argument("--group", action="append", default=[],
                        help="only the entries of this data module (repeatable)")
    parser.add_argument("--match", default="", help="only the entries whose key contains this")
    parser.add_argument("--failed-only", action="store_true", help="print failures only")
    args = parser.parse_args(argv)
    chosen = [e for e in all_entries() if (not args.group or e.group in args.group)
              and args.match in e.key]
    if not chosen:
        parser.error("no entry matches")
    bad, total = 0, 0.0
    for e in chosen:
        o = run_entry(e)
        total += o.seconds
        bad += not o.ok
        if o.ok and args.failed_only:
            continue
        diffs = " ".join(f"{k}:{v:.2g}" for k, v in o.diffs.items())
        yard = f" gap32/drift:{o.drift_ratio:.2g}" if o.drift_ratio is not None else ""
        print(f"{'ok ' if o.ok else 'FAIL'} {o.seconds * 1000:6.0f} ms  {e.key}  "
              f"{diffs}{yard}  {o.message}", flush=True)
    print(f"{len(chosen) - bad} of {len(chosen)} ok, {total:.1f} s", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
