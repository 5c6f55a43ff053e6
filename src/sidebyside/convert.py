"""Convert trained weights between a Gluon ``.params`` file and a PyTorch state dict file.

From the command line (``python -m sidebyside.convert --help``)::

    python -m sidebyside.convert resnet18.params resnet18.pt \\
        --gluon mxnet.gluon.model_zoo.vision:resnet18_v1 \\
        --torch torchvision.models:resnet18 --input-shape 1,3,224,224

The direction follows the file names: ``.params`` → ``.pt``/``.pth`` or back. From Python::

    params_to_state_dict("net.params", "net.pt", gluon_net=g, torch_net=pt,
                         input_shape=(1, 3, 224, 224))
    state_dict_to_params("net.pt", "net.params", torch_net=pt, gluon_net=g,
                         input_shape=(1, 3, 224, 224))

**Files.** A ``.params`` file is what ``Block.save_parameters`` writes: one array per
parameter, keyed by its structural name (``features.0.weight``; a fused RNN layer's are
``_unfused.0.i2h_weight``). Two older kinds are read too: ``HybridBlock.export``'s, keyed by
full parameter names (``arg:resnetv10_conv0_weight``), when those names are the Gluon
network's; and the deprecated ``Block.save_params``'s, keyed by full names less the saving
network's own prefix (``conv0_weight``), when the Gluon network's prefix put in front gives its
names (as ``load_parameters`` does; a fresh ``resnet18_v1()`` fits whatever its counter). Both
depend on the prefixes the saving network gave its blocks. A state dict file is what
``torch.save(model.state_dict(), path)`` writes; it is read with ``weights_only=True``, so a
file that pickles a whole model or other objects is refused. PyTorch's BatchNorm counter
``num_batches_tracked`` may be missing from it.

**The networks** are given as objects (in Python) or as factories (on the command line); the
weights are copied between them by :mod:`sidebyside.transfer` (``by=``, ``mapping=``,
``check_hparams=`` are passed on), with all its checks. The networks are changed in place: they
end up holding the converted weights, both cast to the dtype of the file read (one floating
dtype throughout, else the file is refused).

**Verification.** Given ``input_shape``, both networks are run, after the copy, on one fixed
random input of that shape (standard normal, seed 0, in the file's dtype): PyTorch in
``eval()``, Gluon outside ``autograd.record()`` (predict mode), and, with
``train_check=True``, also in training mode (batch statistics; PyTorch ``train()``, Gluon
``record(train_mode=True)``; running statistics are restored afterwards, and dropout makes this
check fail). The largest absolute difference of the outputs must not exceed
``atol + rtol · (largest |output|)`` — defaults ``atol`` 1e-4 and ``rtol`` 1e-5 for float32,
1e-10 and 1e-12 for float64 — otherwise :class:`VerificationFailed` is raised. (The ``rtol``
term is there because float32 rounding grows with the outputs: a ResNet-18 whose logits reach
250 differs by ~1e-4 from its exact copy, ~5e-7 relative.) Only
then is the output file written (to a temporary name, then renamed: a failure writes nothing;
an existing file is replaced on success). A network that takes token ids (an ``Embedding``
first) cannot be checked with a random float input: leave ``input_shape`` out and compare
yourself (:func:`compare_outputs` takes any input).

**Module API checkpoints.** ``Module.save_checkpoint`` / ``mx.callback.do_checkpoint`` write
``prefix-symbol.json`` and ``prefix-0003.params``, whose keys carry ``arg:``/``aux:`` prefixes
(``arg:fc1_weight``, ``aux:bn1_moving_mean``). :func:`params_to_state_dict` reads such a file
only into a Gluon network whose full parameter names are those (``Dense(64, prefix='fc1_')``);
:func:`module_checkpoint_to_state_dict` needs no Gluon network: it translates the names
(``fc1_weight`` → ``fc1.weight``, ``bn1_gamma``/``_beta``/``_moving_mean``/``_moving_var`` →
``bn1.weight``/``.bias``/``.running_mean``/``.running_var``; ``mapping`` renames layers) and
verifies against the checkpoint's own symbol, run by MXNet.

Every problem with the files (missing, truncated or corrupt, not a ``.params`` file or a state
dict, keys missing or unexpected, shapes that differ) or with the networks raises
:class:`ConversionError` with one message that names the file.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import importlib
import importlib.util
import json
import math
import os
import sys
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["ConversionError", "VerificationFailed", "OutputCheck", "Conversion",
           "params_to_state_dict", "state_dict_to_params", "module_checkpoint_to_state_dict",
           "module_key_to_torch", "compare_outputs",
           "build_network", "main"]

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
    return {name: (p, arrays[name]) for name, p in params.items()}


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


def compare_outputs(torch_net, gluon_net, x, *, train: bool = False,
                    atol: float | None = None, rtol: float | None = None) -> OutputCheck:
    """Run both networks on the numpy array ``x``; the largest absolute output difference.

    The default tolerances follow ``x``'s dtype, or, for integer ``x`` (token ids), the
    PyTorch network's floating dtype. ``train=False``: PyTorch ``eval()``, Gluon predict mode; ``train=True``: PyTorch
    ``train()``, Gluon ``record(train_mode=True)``, and afterwards every parameter and buffer
    is put back as it was (PyTorch's BatchNorm moves its running statistics in the forward
    pass). The networks' own training flags are restored. If the two networks return different
    numbers of outputs (a PyTorch LSTM returns its states too), the first ones are compared.
    """
    import mxnet as mx
    import numpy as np
    import torch

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
    was_training = torch_net.training
    t_saved = {k: v.clone() for k, v in torch_net.state_dict().items()} if train else None
    g_saved = ({n: p.data().copy() for n, p in gluon_net.collect_params().items()
                if p._data is not None} if train else None)
    try:
        torch_net.train(train)
        with torch.no_grad():
            t_out = _outputs(torch_net(torch.from_numpy(x).to(device)))
        g_in = mx.nd.array(x, ctx=ctx, dtype=x.dtype)
        if train:
            with mx.autograd.record(train_mode=True):
                g_out = _outputs(gluon_net(g_in))
        else:
            g_out = _outputs(gluon_net(g_in))
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
    for a, b in zip(t_out, g_out):
        if a.shape != b.shape:
            check = OutputCheck(mode, math.inf, float(np.abs(a).max(initial=0)), atol,
                                rtol, tuple(a.shape), compared)
            raise VerificationFailed(
                f"{mode} mode: the output shapes differ: PyTorch {tuple(a.shape)}, Gluon "
                f"{tuple(b.shape)}", check)
    diff = max(float(np.abs(a.astype(np.float64) - b.astype(np.float64)).max(initial=0))
               for a, b in zip(t_out, g_out))
    largest = max(float(np.abs(a).max(initial=0)) for a in t_out)
    return OutputCheck(mode, diff, largest, atol, rtol, tuple(t_out[0].shape), compared)


def _tolerances(dtype: str, atol: float | None, rtol: float | None) -> tuple[float, float]:
    return (DEFAULT_ATOL.get(dtype, 1e-2) if atol is None else atol,
            DEFAULT_RTOL.get(dtype, 1e-3) if rtol is None else rtol)


def _verify(source: Path, torch_net, gluon_net, input_shape, dtype: str, atol, rtol,
            train_check, seed: int) -> list[OutputCheck]:
    import numpy as np

    if input_shape is None:
        return []
    x = np.random.default_rng(seed).standard_normal(tuple(input_shape)).astype(dtype)
    checks = []
    for train in (False, True) if train_check else (False,):
        try:
            check = compare_outputs(torch_net, gluon_net, x, train=train, atol=atol,
                                    rtol=rtol)
        except VerificationFailed as err:
            raise VerificationFailed(f"{source}: verification failed: {err}; nothing was "
                                     "written", err.check) from None
        except Exception as err:
            raise ConversionError(
                f"{source}: the networks could not be run on an input of shape "
                f"{tuple(input_shape)} ({'train' if train else 'eval'} mode): "
                f"{type(err).__name__}: {_short(err)}") from None
        checks.append(check)
        if not check.ok:
            raise VerificationFailed(
                f"{source}: verification failed: in {check.mode} mode the outputs differ by "
                f"up to {check.max_abs_diff:.3g} > tolerance {check.tolerance:.3g} (atol "
                f"{check.atol:g} + rtol {check.rtol:g} x largest |output| "
                f"{check.max_abs_output:.3g}); nothing was written. The architectures differ "
                "somewhere the weights do not show (pooling, activations, padding), or the "
                "layers were paired wrongly (see --by / --mapping)", check)
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
                         input_shape=None, atol: float | None = None,
                         rtol: float | None = None, train_check: bool = False, by: str = "auto",
                         mapping: dict[str, str] | None = None, check_hparams: bool = True,
                         seed: int = 0) -> Conversion:
    """Read a Gluon ``.params`` file into ``gluon_net``, copy it into ``torch_net``, check both
    on an input of ``input_shape`` (if given), and write ``torch_net.state_dict()``.

    See the module docstring; raises :class:`ConversionError` (or
    :class:`VerificationFailed`), writing nothing, on any problem.
    """
    import numpy as np
    import torch

    from sidebyside import transfer

    source, dest = Path(params_path), Path(state_dict_path)
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
                     train_check, seed)
    state = torch_net.state_dict()
    _write_atomically(dest, lambda tmp: torch.save(state, tmp))
    result = Conversion(source, dest, "gluon->torch", dtype, len(arrays), len(state), pairs,
                        _pairing(by, mapping, note), note, checks)
    if note and not checks:
        warnings.warn(note, transfer.PairingWarning, stacklevel=2)
    return result


def state_dict_to_params(state_dict_path, params_path, *, torch_net, gluon_net,
                         input_shape=None, atol: float | None = None,
                         rtol: float | None = None, train_check: bool = False, by: str = "auto",
                         mapping: dict[str, str] | None = None, check_hparams: bool = True,
                         seed: int = 0) -> Conversion:
    """Read a PyTorch state dict file into ``torch_net``, copy it into ``gluon_net``
    (initialising it where needed), check both on an input of ``input_shape`` (if given),
    and write ``gluon_net.save_parameters()``.

    See the module docstring; raises :class:`ConversionError` (or
    :class:`VerificationFailed`), writing nothing, on any problem.
    """
    from sidebyside import transfer

    source, dest = Path(state_dict_path), Path(params_path)
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
                     train_check, seed)
    n_params = len(gluon_net._collect_params_with_prefix())
    _write_atomically(dest, lambda tmp: gluon_net.save_parameters(str(tmp)))
    result = Conversion(source, dest, "torch->gluon", dtype, len(state), n_params, pairs,
                        _pairing(by, mapping, note), note, checks)
    if note and not checks:
        warnings.warn(note, transfer.PairingWarning, stacklevel=2)
    return result


# --- Module API checkpoints ----------------------------------------------------------------

# Heads that are loss layers: their forward output is not what a PyTorch network returns (it
# ends before the loss), so the verification compares the layer that feeds them.
LOSS_HEADS = ("SoftmaxOutput", "LinearRegressionOutput", "LogisticRegressionOutput",
              "MAERegressionOutput", "SVMOutput")
# MXNet's parameter-name suffixes (the symbol's naming convention) -> PyTorch's
MODULE_SUFFIXES = {"moving_mean": "running_mean", "moving_var": "running_var",
                   "weight": "weight", "bias": "bias", "gamma": "weight", "beta": "bias"}


def module_key_to_torch(name: str, mapping: Mapping[str, str] | None = None) -> str:
    """The PyTorch state dict key of an MXNet symbol parameter: ``fc1_weight`` → ``fc1.weight``,
    ``bn1_gamma`` → ``bn1.weight``, ``bn1_moving_var`` → ``bn1.running_var``; ``mapping``
    renames the layer part (``{"fc1": "classifier.0"}``). ValueError for other names."""
    layer, suffix = _split_module_key(name)
    return f"{(mapping or {}).get(layer, layer)}.{MODULE_SUFFIXES[suffix]}"


def _split_module_key(name: str) -> tuple[str, str]:
    """('fc1', 'weight') for 'fc1_weight'; ValueError for a name without a known suffix."""
    for suffix in MODULE_SUFFIXES:
        if name.endswith("_" + suffix) and len(name) > len(suffix) + 1:
            return name[:-len(suffix) - 1], suffix
    raise ValueError(f"{name!r} does not end in one of "
                     + ", ".join(f"_{s}" for s in MODULE_SUFFIXES))


def _read_module_checkpoint(prefix, epoch: int):
    """(params path, symbol, arg_params, aux_params) of ``prefix``-symbol.json and
    ``prefix``-NNNN.params, or ConversionError."""
    import mxnet as mx

    sym_path, params_path = Path(f"{prefix}-symbol.json"), Path(f"{prefix}-{epoch:04d}.params")
    _check_source(sym_path)
    arrays = _read_params(params_path)
    plain = sorted(k for k in arrays if not k.startswith(("arg:", "aux:")))
    if plain:
        raise ConversionError(
            f"{params_path}: not a Module checkpoint: {_names(plain)} carry no 'arg:'/'aux:' "
            "prefix (a Gluon save_parameters file? Use params_to_state_dict)")
    try:
        sym = mx.sym.load(str(sym_path))
    except Exception as err:
        raise ConversionError(f"{sym_path}: cannot be read as an MXNet symbol file: "
                              f"{_short(err)}") from None
    arg = {k[4:]: v for k, v in arrays.items() if k.startswith("arg:")}
    aux = {k[4:]: v for k, v in arrays.items() if k.startswith("aux:")}
    return params_path, sym, arg, aux


def _module_output(path: Path, sym, output: str | None):
    """The symbol to compare with PyTorch's output, and its name."""
    if output is not None:
        internals = sym.get_internals()
        names = internals.list_outputs()
        name = output if output in names else f"{output}_output"
        if name not in names:
            raise ConversionError(f"{path}: the symbol has no output {output!r}; it has "
                                  f"{_names(names, 12)}")
        return internals[name], name
    head = sym[0]
    graph = json.loads(head.tojson())
    if graph["nodes"][graph["heads"][0][0]]["op"] in LOSS_HEADS:
        head = head.get_children()[0]
    return head, head.list_outputs()[0]


def module_checkpoint_to_state_dict(prefix, epoch: int, state_dict_path, *, torch_net,
                                    mapping: Mapping[str, str] | None = None,
                                    input_shape=None, data_name: str = "data",
                                    output: str | None = None, atol: float | None = None,
                                    rtol: float | None = None, seed: int = 0) -> Conversion:
    """Read a Module API checkpoint (``prefix``-symbol.json, ``prefix``-NNNN.params, as
    ``Module.save_checkpoint(prefix, epoch)`` writes them) into ``torch_net``, check it
    against the symbol on an input of ``input_shape`` (if given), and write
    ``torch_net.state_dict()`` to ``state_dict_path``.

    The keys are translated by :func:`module_key_to_torch` (``mapping``: MXNet layer name →
    PyTorch module name, for layers named differently) and must then be exactly
    ``torch_net``'s (its BatchNorm ``num_batches_tracked`` excepted), with the same shapes.
    ``torch_net`` is cast to the file's one floating dtype. The check runs the symbol with
    MXNet (``data_name`` is its input) up to ``output`` (a layer name such as ``"fc2"`` or an
    internal output such as ``"fc2_output"``); by default its output, or, when that is a loss
    layer (``SoftmaxOutput``, ``LogisticRegressionOutput``, ...), the layer that feeds it —
    the logits a PyTorch network returns. ``torch_net`` runs in ``eval()``; tolerances as for
    :func:`params_to_state_dict`. Nothing is written unless the check passes; raises
    :class:`ConversionError` (or :class:`VerificationFailed`) on any problem.
    """
    import mxnet as mx
    import numpy as np
    import torch

    dest = Path(state_dict_path)
    params_path, sym, arg, aux = _read_module_checkpoint(prefix, epoch)
    _check_dest(params_path, dest)
    arrays = {**arg, **aux}
    dtype = _one_dtype(params_path, {n: np.dtype(a.dtype).name for n, a in arrays.items()})
    untranslated = []
    for n in sorted(arrays):
        try:
            _split_module_key(n)
        except ValueError:
            untranslated.append(n)
    if untranslated:
        raise ConversionError(f"{params_path}: no PyTorch name for {_names(untranslated)}: "
                              "only parameters named <layer>_" + "/_".join(MODULE_SUFFIXES)
                              + " are translated")
    names = {n: module_key_to_torch(n, mapping) for n in arrays}
    if any(t.is_floating_point() and str(t.dtype) != f"torch.{dtype}"
           for t in torch_net.state_dict().values()):
        torch_net.to(getattr(torch, dtype))
    state = {names[n]: torch.from_numpy(a.asnumpy()) for n, a in arrays.items()}
    try:
        state = _match_torch_keys(params_path, state, torch_net)
    except ConversionError as err:
        if "its keys do not fit" not in str(err):
            raise
        raise ConversionError(f"{err} (the file's names translated: "
                              + ", ".join(f"{n} -> {t}" for n, t in list(names.items())[:4])
                              + "; rename layers with mapping={'mxnet layer': "
                              "'torch module'})") from None
    torch_net.load_state_dict(state)
    pairs = list(dict.fromkeys((t.rsplit(".", 1)[0], _split_module_key(n)[0])
                               for n, t in names.items()))
    checks = []
    if input_shape is not None:
        head, head_name = _module_output(params_path, sym, output)
        x = np.random.default_rng(seed).standard_normal(tuple(input_shape)).astype(dtype)
        inputs = {data_name: mx.nd.array(x, dtype=dtype)}
        needed = head.list_arguments()
        lacking = [a for a in needed if a not in arg and a not in inputs] + \
                  [a for a in head.list_auxiliary_states() if a not in aux]
        if lacking:
            raise ConversionError(f"{params_path}: the symbol up to '{head_name}' needs "
                                  f"{_names(lacking)}, which the file does not hold and "
                                  f"data_name ({data_name!r}) is not")
        was_training = torch_net.training
        try:
            exe = head.bind(mx.cpu(), args={a: inputs.get(a, arg.get(a)) for a in needed},
                            aux_states={a: aux[a] for a in head.list_auxiliary_states()},
                            grad_req="null")
            m_out = exe.forward(is_train=False)[0].asnumpy()
            torch_net.eval()
            with torch.no_grad():
                t_out = _outputs(torch_net(torch.from_numpy(x)))[0].detach().cpu().numpy()
        except Exception as err:
            raise ConversionError(
                f"{params_path}: the networks could not be run on an input of shape "
                f"{tuple(input_shape)}: {type(err).__name__}: {_short(err)}") from None
        finally:
            torch_net.train(was_training)
        atol, rtol = _tolerances(dtype, atol, rtol)
        largest = float(np.abs(t_out).max(initial=0))
        compared = f"MXNet's '{head_name}'"
        if t_out.shape != m_out.shape:
            check = OutputCheck("eval", math.inf, largest, atol, rtol, tuple(t_out.shape),
                                compared, "MXNet")
            raise VerificationFailed(f"{params_path}: verification failed: the output shapes "
                                     f"differ: PyTorch {tuple(t_out.shape)}, MXNet "
                                     f"'{head_name}' {tuple(m_out.shape)}", check)
        diff = float(np.abs(t_out.astype(np.float64) - m_out.astype(np.float64)).max(initial=0))
        check = OutputCheck("eval", diff, largest, atol, rtol, tuple(t_out.shape), compared,
                            "MXNet")
        if not check.ok:
            raise VerificationFailed(
                f"{params_path}: verification failed: PyTorch's output and MXNet's "
                f"'{head_name}' differ by up to {diff:.3g} > tolerance {check.tolerance:.3g}; "
                "nothing was written. The architectures differ somewhere the weights do not "
                "show (activations, pooling, padding, BatchNorm eps), or the output compared "
                "is not PyTorch's (see output=)", check)
        checks.append(check)
    final = torch_net.state_dict()
    _write_atomically(dest, lambda tmp: torch.save(final, tmp))
    return Conversion(params_path, dest, "module->torch", dtype, len(arrays), len(final), pairs,
                      "mapping" if mapping else "name", "", checks)


# --- the command line ----------------------------------------------------------------------

def _import_target(spec: str):
    """The module of 'package.module' or of 'path/to/file.py'."""
    if spec.endswith(".py"):
        path = Path(spec)
        if not path.is_file():
            raise ConversionError(f"{spec}: no such file")
        name = f"_sidebyside_convert_{path.stem}"
        module_spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(module_spec)
        sys.modules[name] = module
        module_spec.loader.exec_module(module)
        return module
    return importlib.import_module(spec)


def build_network(spec: str):
    """Call the factory ``spec``: ``package.module:callable``, ``path/file.py:callable``, or
    either with literal arguments, ``torchvision.models:resnet18(num_classes=10)``."""
    if ":" not in spec:
        raise ConversionError(f"{spec!r}: expected package.module:callable (or "
                              "path/file.py:callable)")
    module_name, expr = spec.split(":", 1)
    try:
        node = ast.parse(expr.strip(), mode="eval").body
        args, kwargs = [], {}
        if isinstance(node, ast.Call):
            args = [ast.literal_eval(a) for a in node.args]
            kwargs = {k.arg: ast.literal_eval(k.value) for k in node.keywords}
            if any(k.arg is None for k in node.keywords):
                raise ValueError("**kwargs are not supported")
            node = node.func
        path = []
        while isinstance(node, ast.Attribute):
            path.insert(0, node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            raise ValueError("not a name")
        path.insert(0, node.id)
    except (SyntaxError, ValueError) as err:
        raise ConversionError(f"{spec!r}: the part after ':' must be a name, or a call with "
                              f"literal arguments ({err})") from None
    try:
        target = _import_target(module_name)
        for attr in path:
            target = getattr(target, attr)
    except ConversionError:
        raise
    except Exception as err:
        raise ConversionError(f"{spec!r}: {type(err).__name__}: {_short(err)}") from None
    try:
        return target(*args, **kwargs)
    except Exception as err:
        raise ConversionError(f"{spec!r} failed: {type(err).__name__}: {_short(err)}") from None


def _shape(text: str) -> tuple[int, ...]:
    try:
        shape = tuple(int(n) for n in text.replace("x", ",").split(","))
    except ValueError:
        shape = ()
    if not shape or any(n <= 0 for n in shape):
        raise argparse.ArgumentTypeError(f"{text!r}: expected positive integers such as "
                                         "1,3,224,224")
    return shape


def _mapping(text: str) -> dict[str, str]:
    try:
        value = json.loads(text if text.lstrip().startswith("{")
                           else Path(text).read_text())
    except (OSError, ValueError) as err:
        raise argparse.ArgumentTypeError(f"{text!r}: not a JSON object or a readable JSON "
                                         f"file ({err})") from None
    if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                              for k, v in value.items()):
        raise argparse.ArgumentTypeError(f"{text!r}: expected a JSON object of "
                                         '{"torch layer": "gluon layer", ...}')
    return value


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m sidebyside.convert",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="""\
Convert trained weights between a Gluon .params file (Block.save_parameters) and a
PyTorch state dict file (torch.save(model.state_dict(), path)), for two networks of the
same architecture, then check that both compute the same outputs.

The direction follows the file names: SOURCE .params -> DEST .pt/.pth, or SOURCE .pt/.pth
-> DEST .params. The networks are built by calling factories, given as
package.module:callable, path/to/file.py:callable, or either with literal arguments:
  --torch "torchvision.models:resnet18(num_classes=10)".
Layers are paired as sidebyside.transfer does (by name, else in registration order with a
note; --by, --mapping), and every pair's kind, shapes, dtype and settings are checked.

Verification: both networks are run on one fixed random input of --input-shape
(standard normal, seed 0; PyTorch eval(), Gluon predict mode; with --train-check also in
training mode, on batch statistics) and the largest absolute output difference must not
exceed --atol + --rtol x (largest |output|). Only then is DEST written (an existing DEST
is replaced); on any error nothing is written.""",
        epilog="""\
example:
  python -m sidebyside.convert resnet18.params resnet18.pt \\
      --gluon mxnet.gluon.model_zoo.vision:resnet18_v1 \\
      --torch torchvision.models:resnet18 --input-shape 1,3,224,224

exit status: 0 converted (and verified); 1 a file or the networks could not be converted;
2 bad arguments; 3 the verification failed.""")
    parser.add_argument("source", metavar="SOURCE", help="the .params or .pt/.pth file to read")
    parser.add_argument("dest", metavar="DEST", help="the .pt/.pth or .params file to write")
    parser.add_argument("--torch", required=True, metavar="FACTORY",
                        help="builds the PyTorch network, e.g. torchvision.models:resnet18")
    parser.add_argument("--gluon", required=True, metavar="FACTORY",
                        help="builds the Gluon network, e.g. "
                             "mxnet.gluon.model_zoo.vision:resnet18_v1")
    verify = parser.add_mutually_exclusive_group(required=True)
    verify.add_argument("--input-shape", type=_shape, metavar="N,C,H,W",
                        help="shape of the verification input, e.g. 1,3,224,224")
    verify.add_argument("--no-verify", action="store_true",
                        help="skip the verification (for networks that take token ids)")
    parser.add_argument("--atol", type=float, default=None,
                        help="largest output difference accepted (default 1e-4 for "
                             "float32, 1e-10 for float64)")
    parser.add_argument("--rtol", type=float, default=None,
                        help="plus this times the largest |output| (default 1e-5 for "
                             "float32, 1e-12 for float64)")
    parser.add_argument("--train-check", action="store_true",
                        help="also compare the outputs in training mode (batch statistics); "
                             "fails for networks with dropout")
    parser.add_argument("--by", choices=("auto", "name", "order"), default="auto",
                        help="how to pair the layers (default auto: by name if the names "
                             "agree, else in registration order)")
    parser.add_argument("--mapping", type=_mapping, default=None, metavar="JSON",
                        help='pair the layers explicitly: {"torch layer": "gluon layer", ...}, '
                             "or a file holding that")
    parser.add_argument("--no-check-hparams", dest="check_hparams", action="store_false",
                        help="do not refuse differing hyper-parameters (BatchNorm eps and "
                             "momentum, convolution strides and padding, ...)")
    parser.add_argument("-v", "--verbose", action="store_true", help="list every layer pair")
    return parser


def _direction(parser, source: Path, dest: Path) -> str:
    s, d = source.suffix.lower(), dest.suffix.lower()
    if s in PARAMS_SUFFIXES and d in STATE_DICT_SUFFIXES:
        return "gluon->torch"
    if s in STATE_DICT_SUFFIXES and d in PARAMS_SUFFIXES:
        return "torch->gluon"
    parser.error(f"cannot tell the direction from {source.name!r} -> {dest.name!r}: convert "
                 "a .params file to a .pt/.pth file or back")


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.mapping is not None and args.by != "auto":
        parser.error("give either --mapping or --by, not both")
    source, dest = Path(args.source), Path(args.dest)
    direction = _direction(parser, source, dest)
    try:
        _check_source(source)
        _check_dest(source, dest)
        torch_net = build_network(args.torch)
        gluon_net = build_network(args.gluon)
        kwargs = dict(input_shape=args.input_shape, atol=args.atol, rtol=args.rtol,
                      train_check=args.train_check, by=args.by, mapping=args.mapping,
                      check_hparams=args.check_hparams)
        run = params_to_state_dict if direction == "gluon->torch" else \
            state_dict_to_params
        with warnings.catch_warnings():   # the report says how the layers were paired
            warnings.filterwarnings("ignore", message="the layer names differ")
            result = run(source, dest, gluon_net=gluon_net, torch_net=torch_net, **kwargs)
    except VerificationFailed as err:
        print(f"  check   {err.check.line()}", file=sys.stderr)
        print(f"error: {err}", file=sys.stderr)
        return 3
    except ConversionError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    print(result.report(verbose=args.verbose))
    return 0


if __name__ == "__main__":
    sys.exit(main())
