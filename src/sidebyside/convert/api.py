"""The conversion API: a Gluon ``.params`` file ⇄ a PyTorch state dict file, verified.

:func:`params_to_state_dict` and :func:`state_dict_to_params` read one file, copy its weights
into the two networks (:mod:`sidebyside.transfer`), check that both compute the same outputs
(:func:`compare_outputs`) and only then write the other file. The check's input is standard
normal of ``input_shape``, or token ids (``input_range=(low, high)``), plus recurrent states
for a ``forward(input, hidden)`` (``state_shapes=[(layers, batch, hidden), ...]``: once for a
GRU, twice for an LSTM's ``(h, c)``). The package docstring (:mod:`sidebyside.convert`)
describes the files, the checks, tied weights and the errors.
"""
from __future__ import annotations

import contextlib
import math
import numbers
import os
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path


# torch, mxnet and sidebyside.transfer are imported when needed, so that --help is quick

PARAMS_SUFFIXES = (".params",)
STATE_DICT_SUFFIXES = (".pt", ".pth")
DEFAULT_ATOL = {"float64": 1e-10, "float32": 1e-4}     # float16, bfloat16: 1e-2
DEFAULT_RTOL = {"float64": 1e-12, "float32": 1e-5}     # float16, bfloat16: 1e-3


class ConversionError(Exception):
    """A file or a network could not be converted; the message names the file."""


class VerificationFailed(ConversionError):
    """After the copy, the two networks' outputs differ by more than the tolerance."""

    def __init__(self, message: str, check: OutputCheck):
        super().__init__(message)
        self.check = check


@dataclass
class OutputCheck:
    """Both networks run on one input: the largest output difference and what it is about."""
    mode: str                  # 'eval' or 'train'
    max_abs_diff: float
    max_abs_output: float      # the largest |output| of PyTorch's, for scale
    atol: float
    rtol: float
    shape: tuple               # PyTorch's (first) output shape
    compared: str = "all outputs"
    other: str = "Gluon"       # what PyTorch's outputs were compared with

    @property
    def tolerance(self) -> float:
        """``atol + rtol · largest |output|``."""
        return self.atol + self.rtol * self.max_abs_output

    @property
    def ok(self) -> bool:
        return self.max_abs_diff <= self.tolerance     # False for NaN

    def line(self) -> str:
        return (f"{self.mode:5s} max |PyTorch - {self.other}| {self.max_abs_diff:.2e} "
                f"{'<=' if self.ok else '>'} {self.tolerance:.2e} (= {self.atol:g} + "
                f"{self.rtol:g} x largest |output| {self.max_abs_output:.3g}), "
                f"{self.compared}, shape {self.shape}: " + ("ok" if self.ok else "FAILED"))


@dataclass
class Conversion:
    """What a conversion did."""
    source: Path
    dest: Path
    direction: str             # 'gluon->torch', 'torch->gluon' or 'module->torch'
    dtype: str
    n_read: int                # arrays / tensors read
    n_written: int
    pairs: list = field(default_factory=list)     # [(torch layer, gluon layer)]
    pairing: str = "name"      # how the layers were paired: 'name', 'order', 'mapping'
    pairing_note: str = ""     # transfer's PairingWarning, if any
    checks: list = field(default_factory=list)    # [OutputCheck]
    inputs: str = ""           # what the check ran on, when not one float input

    def report(self, verbose: bool = False) -> str:
        what = {"gluon->torch": "Gluon .params -> PyTorch state dict",
                "torch->gluon": "PyTorch state dict -> Gluon .params",
                "module->torch": "MXNet Module checkpoint -> PyTorch state dict"}[self.direction]
        to_torch = self.direction != "torch->gluon"
        other = "MXNet" if self.direction == "module->torch" else "Gluon"
        lines = [f"sidebyside.convert: {what}",
                 f"  read    {self.source}: {self.n_read} "
                 f"{'arrays' if to_torch else 'tensors'}, {self.dtype}"]
        how = {"name": "by name", "mapping": "as mapped",
               "order": "in registration order"}[self.pairing]
        note = " (the layer names differ)" if self.pairing_note else ""
        lines.append(f"  paired  {len(self.pairs)} layers {how}{note}")
        if verbose or self.pairing_note:
            shown = self.pairs if verbose else self.pairs[:3]
            lines += [f"            PyTorch '{t}' = {other} '{g}'" for t, g in shown]
            if len(shown) < len(self.pairs):
                lines.append(f"            ... ({len(self.pairs) - len(shown)} more; -v lists "
                             "them)")
        if self.checks and self.inputs:
            lines.append(f"  input   {self.inputs}")
        if self.checks:
            lines += [f"  check   {c.line()}" for c in self.checks]
        else:
            lines.append("  check   none: the conversion was not verified (no input shape)"
                         + ("; check the pairs above (-v lists them all)"
                            if self.pairing_note else ""))
        lines.append(f"  wrote   {self.dest}: {self.n_written} "
                     f"{'tensors' if to_torch else 'arrays'}")
        return "\n".join(lines)


# --- reading the files ---------------------------------------------------------------------

def _short(err: BaseException) -> str:
    """The informative line of an exception's message (MXNet's is at the end)."""
    lines = [ln.strip() for ln in str(err).splitlines() if ln.strip()]
    if not lines:
        return type(err).__name__
    for ln in lines:
        if "WeightsUnpickler error:" in ln:
            return ln.split("WeightsUnpickler error:", 1)[1].strip() or ln
    return lines[-1] if lines[0].startswith("Traceback") else lines[0]


def _check_source(path: Path) -> None:
    if not path.exists():
        raise ConversionError(f"{path}: no such file")
    if not path.is_file():
        raise ConversionError(f"{path}: not a file")
    if path.stat().st_size == 0:
        raise ConversionError(f"{path}: the file is empty")


def _check_dest(source: Path, dest: Path) -> None:
    if dest.resolve() == source.resolve():
        raise ConversionError(f"{dest}: the output would overwrite the input")
    if not dest.parent.is_dir():
        raise ConversionError(f"{dest}: the folder {dest.parent} does not exist")


def _read_params(path: Path) -> dict:
    import mxnet as mx

    _check_source(path)
    try:
        arrays = mx.nd.load(str(path))
    except Exception as err:   # MXNetError for truncated, corrupt or foreign files
        raise ConversionError(
            f"{path}: cannot be read as an MXNet .params file (truncated, corrupt, or not "
            f"written by save_parameters): {_short(err)}") from None
    if not isinstance(arrays, dict):
        raise ConversionError(
            f"{path}: holds a list of {len(arrays)} arrays without names, not the named "
            "parameters that save_parameters writes")
    if not arrays:
        raise ConversionError(f"{path}: holds no arrays")
    return arrays


def _read_state_dict(path: Path) -> dict:
    import torch

    _check_source(path)
    try:
        obj = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as err:
        reason = _short(err)
        if "Unsupported global" in reason and "torch.nn.modules" in reason:
            hint = ("it pickles a whole model (torch.save(model)); save "
                    "model.state_dict() instead")
        elif "Unsupported global" in reason:
            hint = "it pickles objects other than tensors"
        else:
            hint = "truncated, corrupt, or not written by torch.save"
        raise ConversionError(f"{path}: cannot be read as a PyTorch state dict ({hint}): "
                              f"{reason}") from None
    if not isinstance(obj, Mapping) or not all(isinstance(k, str) for k in obj):
        raise ConversionError(f"{path}: holds a {type(obj).__name__}, not a state dict "
                              "(a mapping of names to tensors)")
    not_tensors = [k for k, v in obj.items() if not isinstance(v, torch.Tensor)]
    if not_tensors:
        nested = [k for k in not_tensors if isinstance(obj[k], Mapping)]
        hint = (f"; a training checkpoint? Its '{nested[0]}' entry may be the state dict: "
                f"save that alone" if nested else "")
        raise ConversionError(f"{path}: not a state dict: {_names(not_tensors)} "
                              f"{'is' if len(not_tensors) == 1 else 'are'} not tensors{hint}")
    return dict(obj)


def _names(names, limit: int = 6) -> str:
    names = list(names)
    shown = ", ".join(f"'{n}'" for n in names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


def _key_problems(path: Path, missing, unexpected, what: str, hint: str = "") -> None:
    if missing or unexpected:
        parts = []
        if missing:
            parts.append(f"{len(missing)} missing ({_names(missing)})")
        if unexpected:
            parts.append(f"{len(unexpected)} unexpected ({_names(unexpected)})")
        raise ConversionError(f"{path}: its keys do not fit the {what}: "
                              + "; ".join(parts) + hint)


def _one_dtype(path: Path, dtypes: dict) -> str:
    """The file's one floating dtype ({name: dtype name})."""
    found = sorted(set(dtypes.values()))
    if len(found) != 1:
        by = {d: sorted(n for n, x in dtypes.items() if x == d) for d in found}
        raise ConversionError(
            f"{path}: holds more than one floating dtype ("
            + "; ".join(f"{d}: {_names(ns, 3)}" for d, ns in by.items())
            + "); cast the model to one dtype before saving it")
    return found[0]


def _match_gluon_keys(path: Path, arrays: dict, gluon_net) -> dict:
    """{structural name: (Parameter, NDArray)}, or ConversionError."""
    params = gluon_net._collect_params_with_prefix()
    tied = _tied_groups(params, key=id)
    absent = set(params) - set(arrays)
    if absent and not set(arrays) - set(params) and all(
            any(n in arrays for n in tied.get(name, ())) for name in absent):
        # save_parameters(deduplicate=True): a shared parameter under one of its names
        arrays = {**arrays, **{name: next(arrays[n] for n in tied[name] if n in arrays)
                               for name in absent}}
    if set(arrays) != set(params):
        # export() files: keyed by full parameter names, with 'arg:'/'aux:'; save_params()
        # files: by full names less the saving network's prefix, which load_parameters
        # restores from the loading network (ParameterDict.load's restore_prefix)
        full_names = {p.name for p in params.values()}
        stripped = {k.split(":", 1)[1] if k.startswith(("arg:", "aux:")) else k: k
                    for k in arrays}
        by_full = next(({restore + short: key for short, key in stripped.items()}
                        for restore in dict.fromkeys(("", gluon_net.prefix))
                        if {restore + short for short in stripped} == full_names), None)
        if by_full is not None:
            arrays = {name: arrays[by_full[p.name]] for name, p in params.items()}
        else:
            legacy = all("." not in k for k in arrays) and any("." in k for k in params)
            hint = (". Its keys look like full parameter names (HybridBlock.export, or "
                    "save_params less the network's own prefix), which depend on the "
                    "prefixes the network that wrote it gave its blocks; load it into that "
                    "network and save_parameters() it" if legacy else "")
            _key_problems(path, sorted(set(params) - set(arrays)),
                          sorted(set(arrays) - set(params)),
                          f"Gluon network {type(gluon_net).__name__}", hint)
    bad = []
    for name, p in params.items():
        declared, shape = p.shape or (), arrays[name].shape
        if len(declared) != len(shape) or any(d > 0 and d != s
                                              for d, s in zip(declared, shape)):
            bad.append(f"'{name}' is {tuple(shape)} in the file, {tuple(declared)} in the "
                       "network")
    if bad:
        raise ConversionError(f"{path}: shapes do not fit the Gluon network "
                              f"{type(gluon_net).__name__}: " + "; ".join(bad[:6]))
    _tie_problems(path, tied, {n: arrays[n].asnumpy() for n in tied}, _same_arrays,
                  f"one parameter shared by the Gluon network {type(gluon_net).__name__}")
    return {name: (p, arrays[name]) for name, p in params.items()}


def _tied_groups(named: dict, key) -> dict:
    """{name: all the names of the same object} for the objects that have several names."""
    groups = {}
    for name, obj in named.items():
        groups.setdefault(key(obj), []).append(name)
    return {name: names for names in groups.values() if len(names) > 1 for name in names}


def _same_arrays(a, b) -> bool:
    import numpy as np

    return a.shape == b.shape and np.array_equal(a, b, equal_nan=a.dtype.kind == "f")


def _same_tensors(a, b) -> bool:
    import torch

    return a.shape == b.shape and a.dtype == b.dtype and bool(
        torch.equal(a, b) or (a.is_floating_point() and torch.equal(a.isnan(), b.isnan())
                              and torch.equal(a.nan_to_num(), b.nan_to_num())))


def _tie_problems(path: Path, tied: dict, values: dict, same, what: str) -> None:
    """A tied weight must have one value in the file (else loading keeps whichever is last)."""
    for names in dict.fromkeys(tuple(names) for names in tied.values()):
        first = values[names[0]]
        differ = [n for n in names[1:] if not same(values[n], first)]
        if differ:
            raise ConversionError(
                f"{path}: {_names(names)} are {what} (a tied weight), but the file holds "
                f"different values for '{names[0]}' and '{differ[0]}'; it was not saved from "
                "a network with this tie")


def _match_torch_keys(path: Path, state: dict, torch_net) -> dict:
    """The state dict completed with the network's own num_batches_tracked, or raise."""
    own = torch_net.state_dict()
    optional = {k for k in own if k.endswith("num_batches_tracked")}
    missing = sorted(set(own) - set(state) - optional)
    unexpected = sorted(set(state) - set(own))
    hint = ""
    if unexpected and all(k.startswith("module.") for k in state):
        hint = (". Every key starts with 'module.' (saved from DataParallel or "
                "DistributedDataParallel?): save model.module.state_dict() instead")
    _key_problems(path, missing, unexpected, f"PyTorch network {type(torch_net).__name__}",
                  hint)
    bad = [f"'{k}' is {tuple(v.shape)} in the file, {tuple(own[k].shape)} in the network"
           for k, v in state.items() if tuple(v.shape) != tuple(own[k].shape)]
    if bad:
        raise ConversionError(f"{path}: shapes do not fit the PyTorch network "
                              f"{type(torch_net).__name__}: " + "; ".join(bad[:6]))
    tied = _tied_groups({k: v for k, v in own.items() if v.numel()},
                        key=lambda t: (t.untyped_storage().data_ptr(), t.storage_offset(),
                                       tuple(t.shape), t.stride()))
    _tie_problems(path, tied, {k: state[k] for k in tied}, _same_tensors,
                  f"one tensor tied in the PyTorch network {type(torch_net).__name__}")
    return {**{k: own[k] for k in optional if k not in state}, **state}


# --- the networks --------------------------------------------------------------------------

def _cast(torch_net, gluon_net, dtype: str) -> None:
    import numpy as np
    import torch

    current = {np.dtype(p.dtype).name for p in gluon_net.collect_params().values()}
    if current != {dtype}:
        gluon_net.cast(dtype)
    if any(t.is_floating_point() and str(t.dtype) != f"torch.{dtype}"
           for t in torch_net.state_dict().values()):
        torch_net.to(getattr(torch, dtype))


def _initialise_gluon(gluon_net) -> None:
    """Initialise (deferred where shapes are unknown) the parameters that are not yet."""
    import mxnet as mx

    for p in gluon_net.collect_params().values():
        if p._data is None and not p._deferred_init:
            p.initialize(ctx=mx.cpu())


def _pair_quietly(pair_function, *args, **kwargs):
    """Run a transfer function, keeping its PairingWarning rather than showing it."""
    from sidebyside import transfer

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", transfer.PairingWarning)
        result = pair_function(*args, **kwargs)
    note = ""
    for w in caught:
        if issubclass(w.category, transfer.PairingWarning):
            note = str(w.message)
        else:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    return result, note


def _pairing(by: str, mapping, note: str) -> str:
    if mapping is not None:
        return "mapping"
    return "order" if by == "order" or note else "name"


def _architecture_error(path: Path, err: Exception) -> ConversionError:
    return ConversionError(f"{path}: the two networks do not match: {err}")


def _outputs(out) -> list:
    if isinstance(out, (list, tuple)):
        return [a for o in out for a in _outputs(o)]
    return [out]


def _state_list(states) -> list:
    """``states`` as a list of numpy arrays: None -> [], one array -> [it]."""
    import numpy as np

    if states is None:
        return []
    if isinstance(states, np.ndarray):
        return [states]
    if not isinstance(states, (list, tuple)) or not states:
        raise TypeError("states must be a numpy array or a non-empty list or tuple of numpy "
                        f"arrays, not {type(states).__name__}"
                        + (" (empty)" if isinstance(states, (list, tuple)) else ""))
    bad = [i for i, s in enumerate(states) if not isinstance(s, np.ndarray)]
    if bad:
        raise TypeError(f"states[{bad[0]}] is a {type(states[bad[0]]).__name__}, not a numpy "
                        "array")
    return list(states)


def compare_outputs(torch_net, gluon_net, x, *, states=None, train: bool = False,
                    atol: float | None = None, rtol: float | None = None) -> OutputCheck:
    """Run both networks on the numpy array ``x``; the largest absolute output difference.

    ``states`` are further forward inputs, the recurrent states of a language model
    (``forward(input, hidden)``): a numpy array or a list of them, say ``[h, c]``. PyTorch gets
    them as its second argument, a single tensor for one array (a GRU's ``h``) and a tuple for
    several (an LSTM's ``(h, c)``); Gluon gets a list of NDArrays (what ``begin_state``
    returns). Every output is compared, nested ones included: PyTorch's ``(out, (h, c))``
    with Gluon's ``(out, [h, c])``.

    The default tolerances follow ``x``'s dtype, or, for integer ``x`` (token ids), the
    PyTorch network's floating dtype. ``train=False``: PyTorch ``eval()``, Gluon predict mode;
    ``train=True``: PyTorch ``train()``, Gluon ``record(train_mode=True)``, and afterwards
    every parameter and buffer is put back as it was (PyTorch's BatchNorm moves its running
    statistics in the forward pass). The networks' own training flags are restored. If the
    two networks return different numbers of outputs (a PyTorch LSTM returns its states too),
    the first ones are compared.
    """
    import mxnet as mx
    import numpy as np
    import torch

    states = _state_list(states)
    t_params = list(torch_net.parameters()) + list(torch_net.buffers())
    if x.dtype.kind == "f":
        dtype = str(x.dtype)
    else:   # token ids: the tolerance follows the network's floating dtype
        dtype = next((str(p.dtype).removeprefix("torch.") for p in t_params
                      if p.is_floating_point()), "float32")
    atol, rtol = _tolerances(dtype, atol, rtol)
    device = t_params[0].device if t_params else torch.device("cpu")
    ctx = next((p.list_ctx()[0] for p in gluon_net.collect_params().values()
                if p._data is not None), mx.cpu())
    t_args = [torch.from_numpy(x).to(device)]
    g_args = [mx.nd.array(x, ctx=ctx, dtype=x.dtype)]
    if states:
        t_states = [torch.from_numpy(s).to(device) for s in states]
        t_args.append(t_states[0] if len(t_states) == 1 else tuple(t_states))
        g_args.append([mx.nd.array(s, ctx=ctx, dtype=s.dtype) for s in states])
    was_training = torch_net.training
    t_saved = {k: v.clone() for k, v in torch_net.state_dict().items()} if train else None
    g_saved = ({n: p.data().copy() for n, p in gluon_net.collect_params().items()
                if p._data is not None} if train else None)
    try:
        torch_net.train(train)
        with torch.no_grad():
            t_out = _outputs(torch_net(*t_args))
        if train:
            with mx.autograd.record(train_mode=True):
                g_out = _outputs(gluon_net(*g_args))
        else:
            g_out = _outputs(gluon_net(*g_args))
        t_out = [t.detach().cpu().numpy() for t in t_out]
        g_out = [g.asnumpy() for g in g_out]
    finally:
        torch_net.train(was_training)
        if train:
            torch_net.load_state_dict(t_saved)
            for n, p in gluon_net.collect_params().items():
                if n in g_saved:
                    p.set_data(g_saved[n])
    compared = "all outputs"
    if len(t_out) != len(g_out):
        compared = f"the first output (PyTorch gave {len(t_out)}, Gluon {len(g_out)})"
        t_out, g_out = t_out[:1], g_out[:1]
    elif len(t_out) > 1:
        compared = f"all {len(t_out)} outputs"
    mode = "train" if train else "eval"
    for i, (a, b) in enumerate(zip(t_out, g_out)):
        if a.shape != b.shape:
            check = OutputCheck(mode, math.inf, float(np.abs(a).max(initial=0)), atol,
                                rtol, tuple(t_out[0].shape), compared)
            which = f"shapes of output #{i}" if len(t_out) > 1 else "output shapes"
            raise VerificationFailed(
                f"{mode} mode: the {which} differ: PyTorch {tuple(a.shape)}, Gluon "
                f"{tuple(b.shape)}", check)
    diff = max(float(np.abs(a.astype(np.float64) - b.astype(np.float64)).max(initial=0))
               for a, b in zip(t_out, g_out))
    largest = max(float(np.abs(a).max(initial=0)) for a in t_out)
    return OutputCheck(mode, diff, largest, atol, rtol, tuple(t_out[0].shape), compared)


def _tolerances(dtype: str, atol: float | None, rtol: float | None) -> tuple[float, float]:
    return (DEFAULT_ATOL.get(dtype, 1e-2) if atol is None else atol,
            DEFAULT_RTOL.get(dtype, 1e-3) if rtol is None else rtol)


def _check_inputs(input_shape, input_range, state_shapes) -> None:
    """The verification's arguments, before anything is read: ValueError naming the one."""
    def integer(n):
        return isinstance(n, numbers.Integral) and not isinstance(n, bool)

    def shape_ok(shape):
        return (isinstance(shape, (list, tuple)) and len(shape) > 0
                and all(integer(n) and n > 0 for n in shape))

    if input_shape is not None and not shape_ok(input_shape):
        raise ValueError(f"input_shape must be a tuple of positive integers, not "
                         f"{input_shape!r}")
    if input_shape is None and (input_range is not None or state_shapes is not None):
        given = "input_range" if input_range is not None else "state_shapes"
        raise ValueError(f"{given} needs input_shape: it describes the verification input")
    if input_range is not None:
        ok = (isinstance(input_range, (list, tuple)) and len(input_range) == 2
              and all(integer(n) for n in input_range))
        if not ok or not 0 <= input_range[0] < input_range[1]:
            raise ValueError("input_range must be two integers (low, high) with 0 <= low < "
                             f"high (token ids are drawn from [low, high)), not "
                             f"{input_range!r}")
    if state_shapes is not None:
        if not isinstance(state_shapes, (list, tuple)) or not state_shapes or not all(
                shape_ok(shape) for shape in state_shapes):
            raise ValueError("state_shapes must be a non-empty list of shapes, one per state "
                             "(two for an LSTM's (h, c)), each a tuple of positive integers, "
                             f"not {state_shapes!r}")


def _inputs_text(input_shape, input_range, state_shapes) -> str:
    """What the verification ran on, for the report and the messages."""
    what = (f"token ids in [{input_range[0]}, {input_range[1]})" if input_range is not None
            else "an input")
    text = f"{what} of shape {tuple(input_shape)}"
    if state_shapes:
        text += (f" with the state{'s' if len(state_shapes) > 1 else ''} "
                 + ", ".join(str(tuple(s)) for s in state_shapes))
    return text


def _run_hint(err: Exception, input_range, state_shapes) -> str:
    """What to give when the networks could not be run: the flag (and keyword) to use."""
    text = str(err)
    n_states = len(state_shapes or ())
    if isinstance(err, TypeError) and "missing" in text and "required positional" in text:
        if not n_states:
            return (". Its forward takes more inputs: give the recurrent states' shapes with "
                    "--state-shape (state_shapes= in Python), once per state: twice for an "
                    "LSTM's (h, c), e.g. --state-shape 2,20,200 --state-shape 2,20,200")
        return (". Its forward takes more inputs than the input and the states, which is all "
                "the verification gives: compare the networks yourself with compare_outputs, "
                "or convert with --no-verify")
    if isinstance(err, TypeError) and "positional argument" in text and "given" in text \
            and n_states:
        return (". It takes no states: leave out --state-shape (state_shapes=)")
    if (n_states == 1 and "hx and cx" in text) or "expects two hidden states" in text:
        return (". An LSTM takes two states, (h, c): give --state-shape twice "
                "(state_shapes=[h_shape, c_shape])")
    if n_states > 1 and "'tuple' object has no attribute" in text:
        return (f". It takes one state (a GRU's or RNN's h), not {n_states}: give "
                "--state-shape once")
    if "'indices'" in text and input_range is None:
        return (". The network takes token ids: give --input-range LOW,HIGH (input_range= "
                "in Python) for int64 ids drawn from [LOW, HIGH)")
    if isinstance(err, IndexError) and input_range is not None:
        return (f". The token ids are drawn from [{input_range[0]}, {input_range[1]}) "
                "(--input-range): its HIGH must not exceed the vocabulary size")
    return ""


def _extra_inputs(input_shape, input_range, state_shapes) -> str:
    """The report's 'input' line: only where it is not one standard normal array."""
    if input_shape is None or (input_range is None and not state_shapes):
        return ""
    return (_inputs_text(input_shape, input_range, state_shapes)
            + (" (standard normal)" if state_shapes else ""))


def _verify(source: Path, torch_net, gluon_net, input_shape, dtype: str, atol, rtol,
            train_check, seed: int, input_range=None,
            state_shapes=None) -> list[OutputCheck]:
    import numpy as np

    if input_shape is None:
        return []
    rng = np.random.default_rng(seed)
    if input_range is None:
        x = rng.standard_normal(tuple(input_shape)).astype(dtype)
    else:
        x = rng.integers(input_range[0], input_range[1], tuple(input_shape), dtype=np.int64)
    # random states, not zeros: zeros would not tell h from c
    states = ([rng.standard_normal(tuple(s)).astype(dtype) for s in state_shapes]
              if state_shapes else None)
    checks = []
    for train in (False, True) if train_check else (False,):
        try:
            check = compare_outputs(torch_net, gluon_net, x, states=states, train=train,
                                    atol=atol, rtol=rtol)
        except VerificationFailed as err:
            raise VerificationFailed(f"{source}: verification failed: {err}; nothing was "
                                     "written", err.check) from None
        except Exception as err:
            raise ConversionError(
                f"{source}: the networks could not be run on "
                f"{_inputs_text(input_shape, input_range, state_shapes)} "
                f"({'train' if train else 'eval'} mode): {type(err).__name__}: "
                f"{_short(err)}{_run_hint(err, input_range, state_shapes)}") from None
        checks.append(check)
        if not check.ok:
            raise VerificationFailed(
                f"{source}: verification failed: in {check.mode} mode the outputs differ by "
                f"up to {check.max_abs_diff:.3g} > tolerance {check.tolerance:.3g} (atol "
                f"{check.atol:g} + rtol {check.rtol:g} x largest |output| "
                f"{check.max_abs_output:.3g}); nothing was written. The architectures differ "
                "somewhere the weights do not show (pooling, activations, padding, a log_softmax on "
                "one side's output), or the "
                "layers were paired wrongly (see --by / --mapping)"
                + (", or the networks read their states in different orders"
                   if state_shapes and len(state_shapes) > 1 else ""), check)
    return checks


def _write_atomically(dest: Path, write) -> None:
    tmp = dest.with_name(f".{dest.name}.{os.getpid()}.tmp")
    try:
        write(tmp)
        os.replace(tmp, dest)
    except Exception as err:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise ConversionError(f"{dest}: could not be written: {_short(err)}") from None


def params_to_state_dict(params_path, state_dict_path, *, gluon_net, torch_net,
                         input_shape=None, input_range=None, state_shapes=None,
                         atol: float | None = None, rtol: float | None = None,
                         train_check: bool = False, by: str = "auto",
                         mapping: dict[str, str] | None = None, check_hparams: bool = True,
                         seed: int = 0) -> Conversion:
    """Read a Gluon ``.params`` file into ``gluon_net``, copy it into ``torch_net``, check both
    on an input of ``input_shape`` (if given), and write ``torch_net.state_dict()``.

    The input is standard normal, or, with ``input_range=(low, high)``, int64 token ids drawn
    from ``[low, high)``; ``state_shapes=[(layers, batch, hidden), ...]`` adds recurrent
    states (standard normal), given to both forwards as their second argument, as
    :func:`compare_outputs` does: one shape for a GRU's ``h``, two for an LSTM's ``(h, c)``.

    See the module docstring; raises :class:`ConversionError` (or
    :class:`VerificationFailed`), writing nothing, on any problem.
    """
    import numpy as np
    import torch

    from sidebyside import transfer

    source, dest = Path(params_path), Path(state_dict_path)
    _check_inputs(input_shape, input_range, state_shapes)
    _check_dest(source, dest)
    try:   # the architectures first: nothing has to be read for that
        _pair_quietly(transfer.pair_layers, torch_net, gluon_net, by=by, mapping=mapping,
                      check_hparams=check_hparams)
    except (transfer.ArchitectureMismatch, TypeError, ValueError) as err:
        raise _architecture_error(source, err) from None
    arrays = _read_params(source)
    matched = _match_gluon_keys(source, arrays, gluon_net)
    dtype = _one_dtype(source, {n: np.dtype(a.dtype).name for n, (_p, a) in matched.items()})
    _cast(torch_net, gluon_net, dtype)
    for _name, (p, array) in matched.items():
        p._load_init(array, None)
    try:
        pairs, note = _pair_quietly(transfer.gluon_to_torch, gluon_net, torch_net, by=by,
                                    mapping=mapping, check_hparams=check_hparams)
    except (transfer.ArchitectureMismatch, transfer.DTypeMismatch) as err:
        raise _architecture_error(source, err) from None
    checks = _verify(source, torch_net, gluon_net, input_shape, dtype, atol, rtol,
                     train_check, seed, input_range, state_shapes)
    state = torch_net.state_dict()
    _write_atomically(dest, lambda tmp: torch.save(state, tmp))
    result = Conversion(source, dest, "gluon->torch", dtype, len(arrays), len(state), pairs,
                        _pairing(by, mapping, note), note, checks,
                        _extra_inputs(input_shape, input_range, state_shapes))
    if note and not checks:
        warnings.warn(note, transfer.PairingWarning, stacklevel=2)
    return result


def state_dict_to_params(state_dict_path, params_path, *, torch_net, gluon_net,
                         input_shape=None, input_range=None, state_shapes=None,
                         atol: float | None = None, rtol: float | None = None,
                         train_check: bool = False, by: str = "auto",
                         mapping: dict[str, str] | None = None, check_hparams: bool = True,
                         seed: int = 0) -> Conversion:
    """Read a PyTorch state dict file into ``torch_net``, copy it into ``gluon_net``
    (initialising it where needed), check both on an input of ``input_shape`` (if given),
    and write ``gluon_net.save_parameters()`` (every structural name, a tied parameter under
    each of its names, as ``save_parameters`` does by default).

    ``input_range`` and ``state_shapes`` as for :func:`params_to_state_dict`.

    See the module docstring; raises :class:`ConversionError` (or
    :class:`VerificationFailed`), writing nothing, on any problem.
    """
    from sidebyside import transfer

    source, dest = Path(state_dict_path), Path(params_path)
    _check_inputs(input_shape, input_range, state_shapes)
    _check_dest(source, dest)
    try:
        _pair_quietly(transfer.pair_layers, torch_net, gluon_net, by=by, mapping=mapping,
                      check_hparams=check_hparams)
    except (transfer.ArchitectureMismatch, TypeError, ValueError) as err:
        raise _architecture_error(source, err) from None
    state = _read_state_dict(source)
    state = _match_torch_keys(source, state, torch_net)
    dtype = _one_dtype(source, {k: str(v.dtype).removeprefix("torch.")
                                for k, v in state.items() if v.is_floating_point()})
    _cast(torch_net, gluon_net, dtype)
    torch_net.load_state_dict(state)
    _initialise_gluon(gluon_net)
    try:
        pairs, note = _pair_quietly(transfer.torch_to_gluon, torch_net, gluon_net, by=by,
                                    mapping=mapping, check_hparams=check_hparams)
    except (transfer.ArchitectureMismatch, transfer.DTypeMismatch) as err:
        raise _architecture_error(source, err) from None
    checks = _verify(source, torch_net, gluon_net, input_shape, dtype, atol, rtol,
                     train_check, seed, input_range, state_shapes)
    n_params = len(gluon_net._collect_params_with_prefix())
    _write_atomically(dest, lambda tmp: gluon_net.save_parameters(str(tmp)))
    result = Conversion(source, dest, "torch->gluon", dtype, len(state), n_params, pairs,
                        _pairing(by, mapping, note), note, checks,
                        _extra_inputs(input_shape, input_range, state_shapes))
    if note and not checks:
        warnings.warn(note, transfer.PairingWarning, stacklevel=2)
    return result


# --- Module API checkpoints ----------------------------------------------------------------

# Heads that are loss layers: their forward output is not what a PyTorch network returns (it
# ends before the loss), so the verification compares the layer that feeds them.
