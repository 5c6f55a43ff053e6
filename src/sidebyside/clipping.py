"""Global-norm gradient clipping with either framework's rule, in any floating dtype.

``torch.nn.utils.clip_grad_norm_`` and ``mxnet.gluon.utils.clip_global_norm`` both scale a
list of gradients together so that their joint L2 norm (p = 2 over every element of every
array) is at most ``max_norm``, in place, and both return the norm before clipping. They
differ in three ways that a lockstep comparison of a port sees:

- **the epsilon**: PyTorch scales by ``min(max_norm / (norm + 1e-6), 1)``, MXNet by
  ``min(max_norm / (norm + 1e-8), 1)``, so clipped gradients differ by
  ``(1e-6 − 1e-8) / (norm + 1e-8)`` relative (3.3e-6 at a norm of 0.3: far above float64's
  rounding, above float32's);
- **the dtypes**: MXNet 1.9.1 fails on float64 gradients (it concatenates the float64 scale
  with a float32 ``ones(1)``: ``MXNetError: ... Non-uniform data type in Concat``);
- **what they return and check**: PyTorch returns the norm as a 0-dim tensor and, with
  ``error_if_nonfinite=True``, raises on a NaN or infinite norm; MXNet returns a numpy scalar
  (``asscalar()``; an NDArray of shape (1,) with ``check_isfinite=False``) and by default
  warns ``nan or inf is detected``.

:func:`clip_global_norm` does what either does (``rule="torch"`` or ``rule="mxnet"``: the
epsilon, when it writes, which way it computes the norm, what it does with a non-finite one)
on PyTorch tensors or MXNet NDArrays alike, float16, float32 and float64, so that a float64
lockstep of a port can clip on both sides with one rule. :func:`global_norm` is the norm
alone. Neither imports a framework: an array's type says which one it is.

>>> import torch
>>> grads = [torch.full((3,), 0.1, dtype=torch.float64), torch.full((4,), 0.1, dtype=torch.float64)]
>>> norm = clip_global_norm(grads, 0.1)     # MXNet's rule (the default), in float64
>>> norm.dtype, round(float(norm), 9)       # the norm before: 0.1 · √7
(torch.float64, 0.264575131)
>>> round(global_norm(grads), 6)            # and after
0.1
>>> a, b = [torch.tensor([0.3], dtype=torch.float64)], [torch.tensor([0.3], dtype=torch.float64)]
>>> _ = clip_global_norm(a, 0.1, rule="torch"), clip_global_norm(b, 0.1, rule="mxnet")
>>> gap = float(b[0] / a[0] - 1)            # relative: (1e-6 − 1e-8) / (0.3 + 1e-8)
>>> round(gap / (0.99e-6 / 0.3), 6)
1.0
"""

from __future__ import annotations

import math
import numbers
import sys
import warnings

__all__ = ["EPS", "RULES", "NONFINITE", "clip_global_norm", "global_norm"]

#: each rule's epsilon, added to the norm before dividing ``max_norm`` by it
EPS = {"mxnet": 1e-8, "torch": 1e-6}
RULES = tuple(EPS)
#: what to do with a NaN or infinite norm (``None``: the rule's default, see clip_global_norm)
NONFINITE = ("warn", "raise", "ignore")
#: MXNet's warning, word for word
MXNET_WARNING = "nan or inf is detected. Clipping results will be undefined."


def _torch():
    return sys.modules.get("torch")  # loaded wherever a torch.Tensor exists


def _mxnet():
    return sys.modules.get("mxnet")


def _kind(a) -> str | None:
    """``"torch"``, ``"mxnet"`` or ``None``, from the type: no import needed (an object of a
    framework's type exists only where the framework is loaded)."""
    torch = _torch()
    if torch is not None and isinstance(a, torch.Tensor):
        return "torch"
    mx = _mxnet()
    if mx is not None:
        if isinstance(a, mx.nd.NDArray):  # mx.np.ndarray is a subclass
            return "mxnet"
        if isinstance(a, mx.gluon.Parameter):
            return "mxnet"
    return None


def _describe(a) -> str:
    kind = _kind(a)
    return f"a {type(a).__module__}.{type(a).__name__}" + (f" ({kind})" if kind else "")


def _items(arrays) -> list:
    """The list a call was given: one array, an iterable of them, or a Gluon ParameterDict."""
    if _kind(arrays) is not None:  # one array or parameter (an NDArray iterates over rows)
        return [arrays]
    mx = _mxnet()
    if mx is not None and isinstance(arrays, mx.gluon.ParameterDict):
        return list(arrays.values())  # iterating a ParameterDict gives its names
    if isinstance(arrays, (str, bytes, dict)) or not hasattr(arrays, "__iter__"):
        raise TypeError(f"arrays must be a list of gradients or parameters, got "
                        f"{_describe(arrays)}")
    return list(arrays)


def _is_float(kind: str, g) -> bool:
    if kind == "torch":
        return g.is_floating_point()
    import numpy as onp
    return onp.issubdtype(onp.dtype(g.dtype), onp.floating)


def _dtype_name(kind: str, g) -> str:
    if kind == "torch":
        return str(g.dtype).replace("torch.", "")
    import numpy as onp
    return onp.dtype(g.dtype).name


def _gradients(arrays) -> tuple[str, list]:
    """(the framework, the arrays to scale), every input checked before anything is written.

    A torch tensor that requires grad or has a ``.grad`` (a parameter) stands for its
    ``.grad`` and a Gluon
    ``Parameter`` for its gradient, as ``clip_grad_norm_`` takes parameters; a parameter
    without a gradient (``.grad`` None, ``grad_req='null'``) is skipped, as PyTorch skips it.
    Any other tensor or NDArray is a gradient itself, as ``clip_global_norm`` takes them.
    """
    items = _items(arrays)
    if not items:
        raise ValueError("arrays is empty: give the gradients to clip (or the parameters "
                         "whose gradients to clip)")
    kinds = [_kind(a) for a in items]
    for i, (a, kind) in enumerate(zip(items, kinds)):
        if kind is None:
            raise TypeError(f"arrays[{i}] is {_describe(a)}, not a torch.Tensor, an MXNet "
                            "NDArray or a parameter of either")
        if kind != kinds[0]:
            raise TypeError(f"arrays mixes frameworks: arrays[0] is {_describe(items[0])}, "
                            f"arrays[{i}] is {_describe(a)}; clip each framework's gradients "
                            "with its own call")
    kind, grads = kinds[0], []
    mx = _mxnet()
    for i, a in enumerate(items):
        own = True  # the array is the gradient itself (not a parameter's)
        if kind == "torch" and (a.requires_grad or (a.is_leaf and a.grad is not None)):
            own = False
            g = a.grad
            if g is None:
                continue
        elif kind == "mxnet" and isinstance(a, mx.gluon.Parameter):
            own = False
            if a.grad_req == "null":
                continue
            copies = a.list_grad()
            if len(copies) != 1:
                raise ValueError(f"arrays[{i}] ({a.name}) has a gradient on each of "
                                 f"{len(copies)} contexts: give one context's gradients "
                                 "([p.grad(ctx) for p in params])")
            g = copies[0]
        else:
            g = a
        if kind == "mxnet" and isinstance(g, mx.np.ndarray):
            g = g.as_nd_ndarray()  # the same memory, seen as an NDArray
        if not _is_float(kind, g):
            what = "it" if own else "its gradient"
            raise TypeError(f"arrays[{i}]: {what} is {_dtype_name(kind, g)}, not a "
                            "floating-point dtype: only floating-point gradients can be clipped")
        grads.append(g)
    if not grads:
        raise ValueError(f"none of the {len(items)} parameters has a gradient (every .grad "
                         "is None or grad_req is 'null'): call backward() first")
    return kind, grads


def _check_rule(rule: str) -> None:
    if rule not in EPS:
        raise ValueError(f"rule must be one of {', '.join(map(repr, RULES))}, not {rule!r}")


def _norm(kind: str, grads: list, rule: str):
    """The joint L2 norm, computed as ``rule``'s framework computes it, in the widest dtype
    of ``grads``, on the first array's device: an array (0-dim tensor, or NDArray of
    shape (1,))."""
    if kind == "torch":
        torch = _torch()
        dev = grads[0].device
        dtype = grads[0].dtype
        for g in grads[1:]:
            dtype = torch.promote_types(dtype, g.dtype)
        with torch.no_grad():
            if rule == "torch":  # each array's norm, then the norm of the norms
                parts = [torch.linalg.vector_norm(g, 2.0) for g in grads]
                return torch.linalg.vector_norm(torch.stack([p.to(dev, dtype) for p in parts]))
            # MXNet's: the sum of each array's dot(x, x), then its square root; a sparse
            # gradient (nn.Embedding(sparse=True)) contributes its stored values, summed
            parts = [torch.sum(v * v) for v in (
                g.coalesce().values().reshape(-1) if g.is_sparse else g.reshape(-1)
                for g in grads)]
            return torch.sqrt(torch.stack([p.to(dev, dtype) for p in parts]).sum())
    import numpy as onp
    from mxnet import nd
    ctx = grads[0].context
    dtype = onp.result_type(*[onp.dtype(g.dtype) for g in grads])
    if rule == "torch":
        parts = [nd.norm(g).reshape((1,)) for g in grads]
        parts = [p.as_in_context(ctx).astype(dtype, copy=False) for p in parts]
        return nd.norm(nd.concat(*parts, dim=0)).reshape((1,))
    parts = []
    for g in grads:
        if g.stype == "default":
            flat = g.reshape((-1,))
            if onp.dtype(g.dtype) not in (onp.float32, onp.float64):
                flat = flat.astype("float32")  # nd.dot has no float16 kernel on CPU
            parts.append(nd.dot(flat, flat))
        else:  # a sparse gradient (row_sparse): as MXNet does
            parts.append(g.norm().square())
    parts = [p.as_in_context(ctx).astype(dtype, copy=False) for p in parts]
    return nd.sqrt(nd.add_n(*parts))


def _returned(kind: str, total, as_float: bool):
    if as_float:
        return float(total.item() if kind == "torch" else total.asscalar())
    return total if kind == "torch" else total.asscalar()


def global_norm(arrays, *, rule: str = "mxnet") -> float:
    """The joint L2 norm of ``arrays`` (gradients, or parameters standing for their
    gradients, as in :func:`clip_global_norm`), computed as ``rule``'s framework computes it,
    as a Python float. Nothing is written.

    >>> import torch
    >>> global_norm([torch.tensor([3.0]), torch.tensor([[4.0]])], rule="torch")
    5.0
    """
    _check_rule(rule)
    kind, grads = _gradients(arrays)
    return _returned(kind, _norm(kind, grads, rule), as_float=True)


def clip_global_norm(arrays, max_norm: float, *, rule: str = "mxnet",
                     nonfinite: str | None = None, as_float: bool = False):
    """Scale ``arrays`` in place so that their joint L2 norm is at most ``max_norm``, with
    PyTorch's rule or MXNet's, and return the norm they had before.

    ``arrays``: a list (or any iterable, or one array) of PyTorch tensors or of MXNet
    NDArrays, not both; any floating dtype, float64 included, on any device (the norm is
    computed on the first array's). A tensor that requires grad or has a ``.grad`` — a
    parameter, as ``clip_grad_norm_(model.parameters(), …)`` takes — stands for its
    ``.grad``, and a
    Gluon ``Parameter`` (or a ``ParameterDict``: ``net.collect_params()``) for its
    gradient; parameters without one are skipped. Any other array is a gradient and is
    scaled itself, as ``gluon.utils.clip_global_norm([p.grad() for p in …], …)`` takes them.

    ``rule``:

    - ``"mxnet"`` (``gluon.utils.clip_global_norm``): the norm is ``sqrt(Σ dot(x, x))``;
      the arrays are multiplied by ``scale = max_norm / (norm + 1e-8)`` when it is below 1
      (MXNet multiplies by ``min(scale, 1)``, which is exactly 1 otherwise: here the arrays
      are then not written at all; a NaN scale is applied, as MXNet applies it);
    - ``"torch"`` (``torch.nn.utils.clip_grad_norm_``): the norm is the norm of the
      arrays' norms; the arrays are always multiplied by ``min(max_norm / (norm + 1e-6),
      1)`` (by 1.0 when the norm is within ``max_norm``: the values do not change).

    The norm and the scale are computed in the arrays' (widest) dtype, as each framework
    does; float16 NDArrays sum their squares in float32 (MXNet's own function fails on
    them: ``nd.dot`` has no float16 kernel on CPU).

    ``nonfinite``, for a NaN or infinite norm: ``"warn"`` (MXNet's ``UserWarning``, then
    clip: the result is undefined, as MXNet says), ``"raise"`` (``FloatingPointError``,
    before anything is written: PyTorch's ``error_if_nonfinite=True``) or ``"ignore"``
    (PyTorch's default: clip without a word); ``None`` is the rule's own default:
    ``"warn"`` for ``"mxnet"``, ``"ignore"`` for ``"torch"``.

    Returns the norm before clipping as the arrays' framework returns it: a 0-dim tensor
    for PyTorch tensors (``clip_grad_norm_``'s), a numpy scalar of the arrays' dtype for
    NDArrays (``clip_global_norm``'s ``asscalar()``); a Python float with ``as_float``.

    Every input is checked before anything is written: an empty list, arrays of both
    frameworks, a non-floating dtype, ``max_norm`` not a positive number, an unknown
    ``rule`` or ``nonfinite`` each raise one error that names it.

    >>> import torch
    >>> grads = [torch.tensor([0.3, 0.0]), torch.tensor([0.0, 0.4])]     # joint norm 0.5
    >>> clip_global_norm(grads, 0.25, rule="torch")
    tensor(0.5000)
    >>> [[round(v, 5) for v in g.tolist()] for g in grads]                # halved
    [[0.15, 0.0], [0.0, 0.2]]
    >>> before = [g.clone() for g in grads]
    >>> _ = clip_global_norm(grads, 1.0)                                  # within: untouched
    >>> all(torch.equal(g, b) for g, b in zip(grads, before))
    True
    """
    _check_rule(rule)
    if nonfinite is None:
        nonfinite = "warn" if rule == "mxnet" else "ignore"
    if nonfinite not in NONFINITE:
        raise ValueError(f"nonfinite must be one of {', '.join(map(repr, NONFINITE))} or None, "
                         f"not {nonfinite!r}")
    if (isinstance(max_norm, bool) or not isinstance(max_norm, numbers.Real)
            or not max_norm > 0):  # NaN is not > 0 either
        raise ValueError(f"max_norm must be a positive number, not {max_norm!r}")
    max_norm = float(max_norm)
    kind, grads = _gradients(arrays)
    total = _norm(kind, grads, rule)
    value = float(total.item() if kind == "torch" else total.asscalar())
    if not math.isfinite(value):
        if nonfinite == "raise":
            raise FloatingPointError(
                f"the joint norm of the {len(grads)} gradients is {value}: nothing clipped "
                "(nonfinite='raise')")
        if nonfinite == "warn":
            warnings.warn(MXNET_WARNING, UserWarning, stacklevel=2)
    eps = EPS[rule]
    if kind == "torch":
        torch = _torch()
        with torch.no_grad():
            scale = max_norm / (total + eps)             # in the norm's dtype, as each does
            scale = torch.clamp(scale, max=1.0)          # NaN stays NaN
            if rule == "torch" or not float(scale) >= 1.0:
                for g in grads:
                    g.mul_(scale.to(g.device))
    else:
        scale = max_norm / (total + eps)                 # an NDArray of shape (1,)
        factor = float(scale.asscalar())
        if rule == "torch" and factor > 1.0:
            scale = scale.ones_like()                    # torch multiplies by the clamped 1.0
        if rule == "torch" or not factor >= 1.0:
            for g in grads:
                g *= scale.as_in_context(g.context).astype(g.dtype, copy=False)
    return _returned(kind, total, as_float)
