"""MXNet Gluon ``Trainer.save_states`` files into a PyTorch optimizer — with no MXNet installed.

Imports only the standard library, numpy and torch.

The file
--------
``Trainer.save_states(fname)`` (MXNet 1.9.1, ``gluon/trainer.py``) writes
``pickle.dumps((states, optimizer))`` — ``Updater.get_states(dump_optimizer=True)`` — whether the
Trainer updates on a kvstore (``KVStore.save_optimizer_states(fname, dump_optimizer=True)``, the
kvstore's own ``Updater``) or not (``self._updaters[0]``): both write the same thing.

- ``states``: a dict ``{parameter index: state}``; the index is the position of the Parameter
  in the list the Trainer was given; given a dict such as ``net.collect_params()``, the Trainer
  first sorts it by parameter name (``sorted(params.keys())``), so the index is *not*
  ``collect_params()`` order (biases sort before weights). An index appears once that
  parameter has been updated: ``grad_req='null'`` parameters never get one. The state is
  ``None`` (sgd/nag without momentum), an ``NDArray`` (sgd/nag: the momentum), a tuple
  ``(mean, var)`` (adam); with ``multi_precision`` and float16 weights it also holds float32
  master copies of the weights.
- ``optimizer``: the Optimizer object, pickled as its ``__dict__`` less ``param_dict``:
  ``lr``, ``wd``, ``rescale_grad`` (the last ``1/batch_size`` that ``Trainer.step`` set),
  ``clip_gradient``, ``lr_scheduler`` (an object or None), ``num_update``, ``begin_num_update``,
  ``_index_update_count`` (updates per index: Adam's bias-correction step ``t``),
  ``lr_mult``/``wd_mult``/``idx2name`` (used only without a ``param_dict``: not by Gluon),
  ``multi_precision``, ``aggregate_num``, and the optimizer's own (``momentum``; ``beta1``,
  ``beta2``, ``epsilon``; ``lazy_update``). Gluon's ``Parameter.lr_mult``/``wd_mult`` live in
  ``param_dict``, which is *not* saved: pass them to :func:`to_torch_optimizer`.
- an ``NDArray`` pickles as ``NDArray(None)`` plus ``{'handle': bytearray}``, the bytes of
  ``MXNDArraySaveRawBytes`` (magic ``0xF993FAC9``/``0xF993FACA``, storage type, shape,
  context, dtype flag, raw little-endian data).

No code runs when a file is read
--------------------------------
:func:`load_trainer_states` unpickles with an allow-list: MXNet's NDArray classes become inert
holders of their bytes (decoded with numpy), MXNet's optimizer and lr-scheduler classes become
inert stubs that only keep their attribute dict, and a handful of harmless builtins
(``bytearray``, ``set``, ``frozenset``, ``object``, latin-1 ``_codecs.encode`` and
``copyreg._reconstructor`` for protocol 0/1 files, numpy scalars and dtypes of non-object
types) are allowed. Every other global — ``os.system``, ``builtins.eval``, a user's own class —
is refused with :class:`OptStateError` *before* anything is called.

The update rules (MXNet 1.9.1 kernels ⇄ PyTorch)
-------------------------------------------------
``g = rescale_grad·grad``, ``clip(x) = clamp(x, -c, c)`` when ``clip_gradient = c > 0``:

- ``sgd``, momentum μ: MXNet ``mom ← μ·mom − lr·(clip(g) + wd·w)``, ``w ← w + mom``.
  ``torch.optim.SGD(momentum=μ, dampening=0, weight_decay=wd)``:
  ``buf ← μ·buf + (g + wd·w)``, ``w ← w − lr·buf``. Same trajectory with
  ``momentum_buffer = −mom / lr`` (for any past learning rates, as long as the rate stays
  constant from here on: MXNet's ``mom`` carries the old rates, torch's ``buf`` does not).
- ``sgd`` without momentum: ``w ← w − lr·(clip(g) + wd·w)``: ``torch.optim.SGD``, no state.
- ``nag`` (``nag_mom_update``; its docstring's formula is not what the kernel does, this is,
  measured): ``a = μ·mom``, ``w ← w − a + (1+μ)·(a − lr·(clip(g) + wd·w))``,
  ``mom ← a − lr·(clip(g) + wd·w)``; i.e. ``mom' = μ·mom − lr·g'``, ``w ← w + μ·mom' − lr·g'``.
  ``torch.optim.SGD(nesterov=True)``: ``buf' = μ·buf + g'``, ``w ← w − lr·(g' + μ·buf')``:
  the same with ``momentum_buffer = −mom / lr``, as for sgd — but only without weight decay.
  MXNet's optimizer calls the kernel with ``out=weight``, and the kernel writes the weight
  before it updates ``mom``: the ``wd·w`` in ``mom ← a − lr·(clip(g) + wd·w)`` reads the *new*
  weight. No torch.optim optimizer does that, so nag with ``wd ≠ 0`` maps to
  :class:`MXNetNAG` here, which applies that rule as it is (state ``mxnet_mom``: MXNet's
  ``mom`` as is).
- ``adam``: MXNet ``g' = clip(g + wd·w)`` (clipped *after* weight decay),
  ``m ← β1·m + (1−β1)·g'``, ``v ← β2·v + (1−β2)·g'²``,
  ``w ← w − lr_t·m / (√v + ε)`` with ``lr_t = lr·√(1−β2^t)/(1−β1^t)``. ``torch.optim.Adam``
  computes ``w ← w − lr/(1−β1^t) · m / (√v/√(1−β2^t) + ε)``: the same only with
  ``ε_torch = ε/√(1−β2^t)``, a different ε every step. So adam maps to :class:`MXNetAdam`, a
  small ``torch.optim.Optimizer`` here that applies MXNet's rule (state ``step``, ``exp_avg``,
  ``exp_avg_sq`` as torch's Adam names them), not to ``torch.optim.Adam``.

Weight decay is coupled L2 in all three (added to the gradient), as torch's ``weight_decay``.
MXNet hands ``lr`` (for adam: ``lr_t``), ``wd``, ``momentum``, ``beta1/2``, ``epsilon``,
``rescale_grad`` and ``clip_gradient`` to its C++ kernels as float32: the optimizer built here
rounds them the same way (``float32_hyperparameters=True``) for float64 parity.

``rescale_grad``: ``Trainer.step(batch_size)`` multiplies every gradient by
``1/batch_size`` (times the ``rescale_grad`` the Trainer was created with). PyTorch has no such
factor. Either give your loss that factor (``loss / batch_size``; exact when ``1/batch_size`` is
a float32 number, a power-of-two batch size) and keep ``rescale_grad=1.0``, or pass
``rescale_grad=states.hyperparameters['rescale_grad']`` (or ``1/batch_size``) and the optimizer
multiplies the gradients by it (as float32, as MXNet does) before each step. ``clip_gradient`` is
applied the same way (SGD/NAG: a step pre-hook that changes ``p.grad`` in place; Adam: inside
its step).

Refused, with :class:`OptStateError`: any other optimizer (rmsprop, adagrad, adadelta, ftrl,
signum, lamb, …); a learning-rate scheduler (unless ``lr=`` is given: the schedule is then not
reproduced, and a warning says so); multi_precision master copies and float16 states; sparse
(row_sparse) states; shape/dtype mismatches between a state and its parameter.
"""
from __future__ import annotations

import io
import math
import pickle
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch

__all__ = ["OptStateError", "TrainerStates", "MXNetAdam", "MXNetNAG", "load_trainer_states",
           "to_torch_optimizer", "SUPPORTED"]

SUPPORTED = ("sgd", "nag", "adam")


class OptStateError(ValueError):
    """A Trainer states file that cannot be read, or whose optimizer has no exact torch mapping."""


# --------------------------------------------------------------------------------------------
# one serialized NDArray (MXNDArraySaveRawBytes) -> numpy
# --------------------------------------------------------------------------------------------
def _array_from_bytes(data: bytes, source: str) -> np.ndarray:
    """One pickled NDArray's bytes as a dense numpy array (:func:`.ndfile.array_from_bytes`)."""
    from .ndfile import array_from_bytes

    try:
        arr = array_from_bytes(bytes(data), source)
    except OptStateError:
        raise
    except ValueError as exc:
        raise OptStateError(str(exc)) from exc
    if not isinstance(arr, np.ndarray):
        raise OptStateError(f"{source}: a {type(arr).__name__} (sparse) NDArray: only dense "
                            f"states are supported")
    return arr


# --------------------------------------------------------------------------------------------
# the restricted unpickler
# --------------------------------------------------------------------------------------------
class _NDArrayBytes:
    """What an MXNet NDArray unpickles into here: its raw bytes, decoded afterwards."""

    def __init__(self, *args):
        self.raw = None

    def __setstate__(self, state):
        handle = state.get("handle") if isinstance(state, dict) else None
        if handle is not None and not isinstance(handle, (bytes, bytearray)):
            raise OptStateError(f"NDArray state holds a {type(handle).__name__}, not bytes")
        self.raw = None if handle is None else bytes(handle)


class _MXNetObject:
    """An inert stand-in for an MXNet optimizer / lr scheduler: keeps its attribute dict."""

    mx_name = ""

    def __init__(self, *args, **kwargs):
        self.mx_state = {}

    def __setstate__(self, state):
        if isinstance(state, tuple) and len(state) == 2:   # (dict, slots)
            state = {**(state[0] or {}), **(state[1] or {})}
        if not isinstance(state, dict):
            raise OptStateError(f"{self.mx_name}: state is a {type(state).__name__}, not a dict")
        self.mx_state = state


_STUBS: dict[tuple[str, str], type] = {}


def _stub(module: str, name: str) -> type:
    key = (module, name)
    if key not in _STUBS:
        _STUBS[key] = type(name, (_MXNetObject,), {"mx_name": f"{module}.{name}"})
    return _STUBS[key]


def _reconstructor(cls, base, state):
    # copyreg._reconstructor for protocol 0/1 files: only onto the inert classes above
    if not (isinstance(cls, type) and issubclass(cls, (_MXNetObject, _NDArrayBytes))
            and base is object and state is None):
        raise OptStateError(f"refusing copyreg._reconstructor({cls!r}, {base!r}, ...)")
    return object.__new__(cls)


def _codecs_encode(text, encoding="utf-8"):
    # how protocol 0-2 pickles spell bytes: _codecs.encode(str, 'latin1')
    if not isinstance(text, str) or encoding not in ("latin1", "latin-1", "utf-8", "ascii"):
        raise OptStateError("refusing _codecs.encode of a non-string")
    return text.encode(encoding)


def _np_dtype(spec, align=False, copy=False):
    dtype = np.dtype(spec) if isinstance(spec, str) else None
    if dtype is None or dtype.hasobject:
        raise OptStateError(f"refusing numpy.dtype({spec!r})")
    return dtype


def _np_scalar(dtype, data=None):
    if not isinstance(dtype, np.dtype) or dtype.hasobject or not isinstance(data, bytes):
        raise OptStateError("refusing a numpy scalar of object dtype")
    return np.frombuffer(data, dtype=dtype, count=1)[0]


_ALLOWED = {
    ("builtins", "bytearray"): bytearray, ("__builtin__", "bytearray"): bytearray,
    ("builtins", "set"): set, ("__builtin__", "set"): set,
    ("builtins", "frozenset"): frozenset, ("__builtin__", "frozenset"): frozenset,
    ("builtins", "object"): object, ("__builtin__", "object"): object,
    ("copyreg", "_reconstructor"): _reconstructor, ("copy_reg", "_reconstructor"): _reconstructor,
    ("_codecs", "encode"): _codecs_encode,
    ("numpy", "dtype"): _np_dtype,
    ("numpy.core.multiarray", "scalar"): _np_scalar,
    ("numpy._core.multiarray", "scalar"): _np_scalar,
}
_NDARRAY_CLASSES = {("mxnet.ndarray.ndarray", "NDArray"), ("mxnet.ndarray", "NDArray"),
                    ("mxnet.numpy.multiarray", "ndarray"), ("mxnet.numpy", "ndarray"),
                    ("mxnet.ndarray.sparse", "RowSparseNDArray"),
                    ("mxnet.ndarray.sparse", "CSRNDArray")}
_STUB_MODULES = ("mxnet.optimizer.optimizer", "mxnet.optimizer", "mxnet.lr_scheduler")


class _Unpickler(pickle.Unpickler):
    def __init__(self, file, source: str):
        super().__init__(file)
        self._source = source

    def find_class(self, module, name):
        if (module, name) in _ALLOWED:
            return _ALLOWED[(module, name)]
        if (module, name) in _NDARRAY_CLASSES:
            return _NDArrayBytes
        if module in _STUB_MODULES and name.isidentifier() and not name.startswith("_"):
            return _stub(module, name)
        raise OptStateError(
            f"{self._source}: refusing to unpickle the global {module}.{name}: a Trainer states "
            f"file holds only MXNet NDArrays, optimizers and lr schedulers, and nothing in it is "
            f"run (supported optimizers: {', '.join(SUPPORTED)})")


def _plain(obj, source: str, where: str):
    """Stubs to numpy arrays / dicts, recursively."""
    if isinstance(obj, _NDArrayBytes):
        raw = getattr(obj, "raw", None)          # NEWOBJ skips __init__; BUILD may be absent
        return None if raw is None else _array_from_bytes(raw, f"{source} [{where}]")
    if isinstance(obj, _MXNetObject):
        state = getattr(obj, "mx_state", {})
        return {"class": obj.mx_name,
                "state": {k: _plain(v, source, f"{where}.{k}") for k, v in state.items()}}
    if isinstance(obj, tuple):
        return tuple(_plain(v, source, f"{where}[{i}]") for i, v in enumerate(obj))
    if isinstance(obj, list):
        return [_plain(v, source, f"{where}[{i}]") for i, v in enumerate(obj)]
    if isinstance(obj, dict):
        return {k: _plain(v, source, f"{where}[{k!r}]") for k, v in obj.items()}
    return obj


# --------------------------------------------------------------------------------------------
# the loaded file
# --------------------------------------------------------------------------------------------
@dataclass
class TrainerStates:
    """What a ``Trainer.save_states`` file holds, as plain Python and numpy."""

    path: str
    optimizer: str                   # lower-case MXNet name: 'sgd', 'nag', 'adam', 'rmsprop', ...
    optimizer_class: str             # e.g. 'mxnet.optimizer.optimizer.SGD'
    hyperparameters: dict[str, Any]  # lr, wd, momentum, beta1, beta2, epsilon, rescale_grad, ...
    states: dict[int, Any]           # index -> None | ndarray | tuple of ndarrays
    update_counts: dict[int, int]    # index -> updates so far (Adam's t)
    num_update: int
    lr_scheduler: dict | None = None  # {'class': ..., 'state': {...}}
    optimizer_dict: dict[str, Any] = field(default_factory=dict, repr=False)  # all of __dict__


_HYPER = ("lr", "wd", "rescale_grad", "clip_gradient", "momentum", "beta1", "beta2", "epsilon",
          "multi_precision", "lazy_update", "begin_num_update", "lr_mult", "wd_mult", "idx2name",
          "gamma1", "gamma2", "rho", "lamda1", "beta", "wd_lh", "centered", "aggregate_num")


_MEMO_PUTS = ("PUT", "BINPUT", "LONG_BINPUT")


def _check_memo(data: bytes, source: str) -> None:
    """Refuse a memo index beyond the file's size before unpickling: the unpickler grows its
    memo table to the index it is given (``LONG_BINPUT 779706738`` asks for 6 GB). A pickler
    numbers memo entries from 0, one per object, so a real file's indices stay below its
    length. Reads the opcodes only (``pickletools.genops``), runs nothing."""
    import pickletools

    try:
        for op, arg, pos in pickletools.genops(data):
            if op.name in _MEMO_PUTS and not 0 <= int(arg) < len(data):
                raise OptStateError(f"{source}: memo index {arg} at byte {pos} is beyond the "
                                    f"file's {len(data)} bytes: a damaged file?")
    except OptStateError:
        raise
    except Exception as exc:  # noqa: BLE001 - genops raises anything on a damaged file
        raise OptStateError(f"{source}: not a readable Trainer states pickle (truncated or "
                            f"corrupt?): {type(exc).__name__}: {exc}") from exc


def load_trainer_states(path) -> TrainerStates:
    """Read a ``Trainer.save_states`` file without MXNet and without running code from it.

    The unpickler only builds MXNet NDArrays (decoded into numpy), inert stand-ins for MXNet's
    optimizer and lr-scheduler classes, and plain containers/numbers; any other global in the
    file (``os.system``, ...) raises :class:`OptStateError` before it is called. A missing,
    truncated or corrupt file, or one that is no states file, raises :class:`OptStateError`
    naming ``path``.
    """
    source = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise OptStateError(f"{source}: cannot read: {exc}") from exc
    if data[:1] not in (b"\x80", b"(", b"c", b"}", b"]"):
        raise OptStateError(f"{source}: not a pickle, so not a Trainer.save_states file "
                            f"(it starts with {data[:8].hex()})")
    _check_memo(data, source)
    stream = io.BytesIO(data)
    try:
        obj = _Unpickler(stream, source).load()
    except OptStateError:
        raise
    except Exception as exc:  # noqa: BLE001 - pickle raises anything on a damaged file
        raise OptStateError(f"{source}: not a readable Trainer states pickle (truncated or "
                            f"corrupt?): {type(exc).__name__}: {exc}") from exc
    if stream.tell() != len(data):
        raise OptStateError(f"{source}: {len(data) - stream.tell()} bytes after the end of the "
                            f"pickle: a damaged file?")
    if isinstance(obj, dict):
        raise OptStateError(f"{source}: holds the states but not the optimizer (saved with "
                            f"dump_optimizer=False): its type and hyper-parameters are unknown")
    if not (isinstance(obj, tuple) and len(obj) == 2 and isinstance(obj[0], dict)
            and isinstance(obj[1], _MXNetObject)
            and obj[1].mx_name.startswith("mxnet.optimizer")):
        raise OptStateError(f"{source}: not a Trainer.save_states file: expected a pickled "
                            f"(states dict, Optimizer), found a {type(obj).__name__}")
    raw_states, opt = obj
    states = {}
    for idx, value in raw_states.items():
        if not isinstance(idx, int):
            raise OptStateError(f"{source}: state key {idx!r} is not a parameter index "
                                f"(a Module/kvstore file keyed by name?)")
        states[idx] = _plain(value, source, f"state {idx}")
    odict = _plain(opt, source, "optimizer")["state"]
    counts = odict.get("_index_update_count") or {}
    if not counts:
        all_counts = odict.get("_all_index_update_counts") or {}
        if not isinstance(all_counts, dict):
            raise OptStateError(f"{source}: the optimizer's _all_index_update_counts is a "
                                f"{type(all_counts).__name__}, not a dict")
        counts = next(iter(all_counts.values()), {}) if all_counts else {}
    name = opt.mx_name.rsplit(".", 1)[-1].lower()
    scheduler = odict.get("lr_scheduler")
    return TrainerStates(
        path=source, optimizer="sgd" if name == "ccsgd" else name, optimizer_class=opt.mx_name,
        hyperparameters={k: odict[k] for k in _HYPER if k in odict},
        states=states, update_counts=_update_counts(counts, source),
        num_update=_integer(odict.get("num_update", 0), source, "num_update"),
        lr_scheduler=scheduler, optimizer_dict=odict)


def _integer(value, source: str, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise OptStateError(f"{source}: the optimizer's {what} is {value!r}, not an integer")
    return int(value)


def _update_counts(counts, source: str) -> dict:
    """The optimizer's updates per parameter index (Adam's step t): ints to ints."""
    if not isinstance(counts, dict):
        raise OptStateError(f"{source}: the optimizer's update counts are a "
                            f"{type(counts).__name__}, not a dict")
    return {_integer(k, source, "update-count key"): _integer(v, source, f"update count of {k!r}")
            for k, v in counts.items()}


# --------------------------------------------------------------------------------------------
# PyTorch
# --------------------------------------------------------------------------------------------
def _f32(x):
    return float(np.float32(x))


class _MXNetRule(torch.optim.Optimizer):
    """An MXNet update rule as a PyTorch optimizer: the closure, the hyper-parameters rounded
    to float32 as MXNet's kernels get them, and the clip bound, once; ``_update(group, r,
    clip)`` is the rule (``r`` rounds a hyper-parameter, ``clip`` < 0 means none)."""

    def __init__(self, params, **defaults):
        super().__init__(params, defaults)

    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            r = _f32 if group["float32_hyperparameters"] else float
            clip = group["clip_gradient"]
            self._update(group, r, r(clip) if clip else -1.0)
        return loss


class MXNetAdam(_MXNetRule):
    """MXNet 1.9.1's Adam rule (``adam_update``), which ``torch.optim.Adam`` does not reproduce.

    Per step ``t`` (per parameter): ``g = clip(rescale_grad·grad + wd·w)``,
    ``m ← β1·m + (1−β1)·g``, ``v ← β2·v + (1−β2)·g²``, ``lr_t = lr·√(1−β2^t)/(1−β1^t)``,
    ``w ← w − lr_t·m/(√v + ε)``. ε sits outside the bias correction (torch.optim.Adam divides
    √v by √(1−β2^t) first), and the gradient is clipped after weight decay. With
    ``float32_hyperparameters`` the values MXNet passes to its kernel as float32 (``lr_t``, β1,
    β2, ε, wd, rescale_grad, clip_gradient) are rounded the same way. State per parameter:
    ``step`` (a float64 tensor), ``exp_avg``, ``exp_avg_sq``.
    """

    def __init__(self, params, lr=0.001, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0,
                 rescale_grad=1.0, clip_gradient=None, float32_hyperparameters=True):
        super().__init__(params, lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay,
                         rescale_grad=rescale_grad, clip_gradient=clip_gradient,
                         float32_hyperparameters=float32_hyperparameters)

    def _update(self, group, r, clip):
        beta1, beta2 = group["betas"]
        b1, b2, eps = r(beta1), r(beta2), r(group["eps"])
        wd, rescale = r(group["weight_decay"]), r(group["rescale_grad"])
        for p in group["params"]:
            if p.grad is None:
                continue
            state = self.state[p]
            if not state:
                state["step"] = torch.tensor(0.0, dtype=torch.float64)
                state["exp_avg"] = torch.zeros_like(p, memory_format=torch.preserve_format)
                state["exp_avg_sq"] = torch.zeros_like(p, memory_format=torch.preserve_format)
            state["step"] += 1
            t = int(state["step"].item())
            # python float64 as MXNet's Adam.update, then float32 into the kernel
            lr_t = r(group["lr"] * math.sqrt(1.0 - beta2 ** t) / (1.0 - beta1 ** t))
            g = p.grad * rescale + p * wd
            if clip >= 0:
                g = g.clamp(-clip, clip)
            m, v = state["exp_avg"], state["exp_avg_sq"]
            m.mul_(b1).add_(g * (1.0 - b1))
            v.mul_(b2).add_(g * (1.0 - b2) * g)
            p.sub_(m * lr_t / (v.sqrt() + eps))


class MXNetNAG(_MXNetRule):
    """MXNet 1.9.1's NAG as ``NAG.update`` runs it: ``nag_mom_update(..., out=weight)``.

    Per step: ``g = clip(rescale_grad·grad)``, ``a = μ·mom``,
    ``w_new = w − a + (1+μ)·(a − lr·(g + wd·w))``, then ``mom ← a − lr·(g + wd·w_new)`` — the
    kernel has already overwritten the weight when it updates the momentum, so weight decay
    there sees the new weight. State per parameter: ``mxnet_mom`` (MXNet's momentum, as saved).
    With ``float32_hyperparameters`` lr, μ, wd, rescale_grad and clip_gradient are rounded to
    float32 as MXNet's kernel parameters are.
    """

    def __init__(self, params, lr=0.01, momentum=0.0, weight_decay=0.0, rescale_grad=1.0,
                 clip_gradient=None, float32_hyperparameters=True):
        super().__init__(params, lr=lr, momentum=momentum, weight_decay=weight_decay,
                         rescale_grad=rescale_grad, clip_gradient=clip_gradient,
                         float32_hyperparameters=float32_hyperparameters)

    def _update(self, group, r, clip):
        lr, mu, wd = r(group["lr"]), r(group["momentum"]), r(group["weight_decay"])
        rescale = r(group["rescale_grad"])
        for p in group["params"]:
            if p.grad is None:
                continue
            g = p.grad * rescale
            if clip >= 0:
                g = g.clamp(-clip, clip)
            if mu == 0.0:                        # MXNet: sgd_update, no state
                p.sub_((g + p * wd) * lr)
                continue
            state = self.state[p]
            if not state:
                state["mxnet_mom"] = torch.zeros_like(p, memory_format=torch.preserve_format)
            mom = state["mxnet_mom"]
            a = mom * mu
            p.copy_(p - a + (a - (g + p * wd) * lr) * (mu + 1.0))
            mom.copy_(a - (g + p * wd) * lr)     # p: already the new weight


def _per_index(value, n, what):
    if value is None:
        return [1.0] * n
    if isinstance(value, Mapping):
        out = [1.0] * n
        for k, v in value.items():
            if not isinstance(k, int) or not 0 <= k < n:
                raise OptStateError(f"{what}: key {k!r} is not a parameter index below {n}")
            out[k] = float(v)
        return out
    value = list(value)
    if len(value) != n:
        raise OptStateError(f"{what}: {len(value)} values for {n} parameters")
    return [1.0 if v is None else float(v) for v in value]


def _torch_dtype_name(t: torch.Tensor) -> str:
    return str(t.dtype).replace("torch.", "")


def to_torch_optimizer(states: TrainerStates, params: Sequence, *, lr: float | None = None,
                       rescale_grad: float = 1.0, lr_mult=None, wd_mult=None,
                       float32_hyperparameters: bool = True) -> torch.optim.Optimizer:
    """A PyTorch optimizer that continues the MXNet training from ``states``.

    ``params[i]`` is the tensor for the Trainer's parameter ``i``, same shape and dtype
    (Dense/Conv weights keep their layout), or ``None`` for one without state that should not
    be optimized. Index ``i`` is the position in the list the Trainer was given — and
    ``gluon.Trainer(net.collect_params(), ...)`` sorts a dict's keys by name first
    (``trainer.py``: ``for key in sorted(list(params.keys()))``): ``dense0_bias`` before
    ``dense0_weight``, ``dense10_*`` before ``dense2_*``; ``grad_req='null'`` parameters
    count too. The returned optimizer's ``state_dict()`` numbers parameters group by group
    (torch's rule), not by this index: look states up as ``opt.state[params[i]]``.

    - sgd, nag without weight decay → ``torch.optim.SGD`` (nag: ``nesterov=True``), momentum
      buffers converted (``momentum_buffer = −mom/lr``);
    - nag with weight decay → :class:`MXNetNAG` (MXNet's in-place kernel: see the module doc);
    - adam → :class:`MXNetAdam` (torch.optim.Adam's ε placement differs: no exact resume).

    ``rescale_grad``: the factor ``Trainer.step(batch_size)`` applied (``1/batch_size``);
    leave 1.0 when your loss already carries it, or pass it (e.g.
    ``states.hyperparameters['rescale_grad']``) to have the optimizer multiply the gradients.
    ``lr_mult``/``wd_mult``: Gluon ``Parameter.lr_mult``/``wd_mult`` (not in the file), as
    ``{index: value}`` or a sequence aligned with ``params``. ``lr``: replaces the saved rate
    (required when the file has an lr scheduler: the schedule is not reproduced).
    """
    src = states.path
    name = states.optimizer
    if name not in SUPPORTED:
        raise OptStateError(
            f"{src}: optimizer {name!r} ({states.optimizer_class}) has no exact PyTorch "
            f"mapping here; supported: {', '.join(SUPPORTED)}")
    hp = states.hyperparameters
    if states.lr_scheduler is not None:
        sched = states.lr_scheduler
        if lr is None:
            raise OptStateError(
                f"{src}: the optimizer has a learning-rate scheduler ({sched['class']}, state "
                f"{sched['state']}) at num_update={states.num_update}; no PyTorch scheduler "
                f"reproduces it here. Pass lr= to continue at a fixed rate of your choosing.")
        warnings.warn(f"{src}: ignoring the MXNet lr scheduler {sched['class']}; continuing "
                      f"at the fixed lr={lr}", stacklevel=2)
    base_lr = float(hp["lr"] if lr is None else lr)
    if not isinstance(params, Sequence) or isinstance(params, (str, bytes)):
        params = list(params)
    n = len(params)
    lr_mults = _per_index(lr_mult, n, "lr_mult")
    wd_mults = _per_index(wd_mult, n, "wd_mult")
    if (hp.get("lr_mult") or hp.get("wd_mult")) and hp.get("idx2name"):
        warnings.warn(f"{src}: the optimizer's own lr_mult/wd_mult dicts (Module API, by name) "
                      f"are not applied; pass lr_mult=/wd_mult= by index", stacklevel=2)
    momentum = float(hp.get("momentum") or 0.0) if name != "adam" else 0.0
    r = _f32 if float32_hyperparameters else float
    wd = float(hp.get("wd") or 0.0)
    clip = hp.get("clip_gradient")
    mxnet_nag = (name == "nag" and momentum > 0
                 and any(wd * wd_mults[i] != 0.0 for i, p in enumerate(params) if p is not None))

    seen = set()
    for i, p in enumerate(params):
        if p is None:
            continue
        if not isinstance(p, torch.Tensor):
            raise OptStateError(f"{src}: params[{i}] is a {type(p).__name__}, not a tensor")
        if id(p) in seen:
            raise OptStateError(f"{src}: params[{i}] appears twice in params")
        seen.add(id(p))

    # each state: check structure, shape, dtype
    converted: dict[int, dict[str, torch.Tensor]] = {}
    for idx in sorted(states.states):
        st = states.states[idx]
        if name == "adam":
            arrays = st if (isinstance(st, tuple) and len(st) == 2
                            and all(isinstance(a, np.ndarray) for a in st)) else None
        else:
            arrays = None if st is None else ((st,) if isinstance(st, np.ndarray) else False)
        if arrays is False or (name == "adam" and arrays is None):
            mp = " (multi_precision: float32 master copies of float16 weights)" \
                if hp.get("multi_precision") else ""
            raise OptStateError(f"{src}: state {idx} of {name} has an unexpected structure"
                                f"{mp}; not supported")
        if arrays is None:           # sgd/nag without momentum: nothing to carry
            continue
        if idx < 0 or idx >= n or params[idx] is None:
            shape = tuple(arrays[0].shape)
            raise OptStateError(f"{src}: index {idx} has a state of shape {shape} but "
                                f"params[{idx}] is " + ("None" if idx < n else
                                                        f"missing ({n} params given)"))
        p = params[idx]
        for a in arrays:
            if a.dtype == np.float16:
                raise OptStateError(f"{src}: index {idx}: float16 state; MXNet updates float16 "
                                    f"in its own precision: no exact mapping")
            if tuple(a.shape) != tuple(p.shape):
                raise OptStateError(f"{src}: index {idx}: state shape {tuple(a.shape)} != "
                                    f"parameter shape {tuple(p.shape)}")
            if str(a.dtype) != _torch_dtype_name(p):
                raise OptStateError(f"{src}: index {idx}: state dtype {a.dtype} != parameter "
                                    f"dtype {_torch_dtype_name(p)}")
        tens = [torch.tensor(a, device=p.device) for a in arrays]
        if name == "adam":
            t = states.update_counts.get(idx)
            if t is None:
                raise OptStateError(f"{src}: index {idx} has Adam moments but no update count")
            converted[idx] = {"step": torch.tensor(float(t), dtype=torch.float64),
                              "exp_avg": tens[0], "exp_avg_sq": tens[1]}
        elif mxnet_nag:             # MXNet's rule, MXNet's state
            converted[idx] = {"mxnet_mom": tens[0]}
        else:                       # sgd and nag: MXNet's mom = -lr * torch's buf
            lr_i = r(base_lr * lr_mults[idx])
            if lr_i == 0.0:
                if torch.count_nonzero(tens[0]):
                    raise OptStateError(f"{src}: index {idx}: lr 0 with a non-zero momentum: "
                                        f"MXNet keeps moving the weight, torch cannot")
                converted[idx] = {"momentum_buffer": torch.zeros_like(tens[0])}
            else:
                converted[idx] = {"momentum_buffer": tens[0].neg().div_(lr_i)}
    if name == "adam" and int(hp.get("begin_num_update") or 0):
        fresh = [i for i, p in enumerate(params) if p is not None and i not in converted]
        if fresh:
            raise OptStateError(f"{src}: begin_num_update={hp['begin_num_update']} and params "
                                f"{fresh} have no state: MXNet would start their step there")

    # groups of equal (lr, wd)
    groups: dict[tuple[float, float], list] = {}
    for i, p in enumerate(params):
        if p is None:
            continue
        if name == "adam":
            key = (base_lr * lr_mults[i], wd * wd_mults[i])     # MXNetAdam rounds lr_t itself
        else:
            key = (r(base_lr * lr_mults[i]), r(wd * wd_mults[i]))
        groups.setdefault(key, []).append(p)
    if not groups:
        raise OptStateError(f"{src}: params holds no tensor")
    param_groups = [{"params": ps, "lr": k[0], "weight_decay": k[1]} for k, ps in groups.items()]

    if name == "adam":
        opt = MXNetAdam(param_groups, lr=base_lr,
                        betas=(float(hp.get("beta1", 0.9)), float(hp.get("beta2", 0.999))),
                        eps=float(hp.get("epsilon", 1e-8)), rescale_grad=rescale_grad,
                        clip_gradient=clip, float32_hyperparameters=float32_hyperparameters)
    elif mxnet_nag:
        opt = MXNetNAG(param_groups, lr=base_lr, momentum=momentum, rescale_grad=rescale_grad,
                       clip_gradient=clip, float32_hyperparameters=float32_hyperparameters)
    else:
        nesterov = name == "nag" and momentum > 0
        opt = torch.optim.SGD(param_groups, lr=r(base_lr), momentum=r(momentum), dampening=0.0,
                              nesterov=nesterov)
        _add_grad_hook(opt, r(rescale_grad) if rescale_grad != 1.0 else 1.0,
                       r(clip) if clip and clip > 0 else None)
    for idx, st in converted.items():
        opt.state[params[idx]] = st
    return opt


def _add_grad_hook(opt: torch.optim.Optimizer, rescale: float, clip: float | None) -> None:
    """MXNet's ``clip(rescale_grad·grad)`` before torch.optim.SGD adds weight decay."""
    if rescale == 1.0 and clip is None:
        return

    def hook(optimizer, args, kwargs):
        with torch.no_grad():
            for group in optimizer.param_groups:
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    if rescale != 1.0:
                        p.grad.mul_(rescale)
                    if clip is not None:
                        p.grad.clamp_(-clip, clip)

    opt.register_step_pre_hook(hook)
    opt.mxnet_grad_transform = {"rescale_grad": rescale, "clip_gradient": clip}
