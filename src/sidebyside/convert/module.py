"""MXNet Module API checkpoints (``prefix-symbol.json`` + ``prefix-NNNN.params``) into a
PyTorch state dict, verified against the checkpoint's own symbol, with no Gluon network.
"""
from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path

from .api import (Conversion, ConversionError, OutputCheck, VerificationFailed, _check_dest,
                  _check_source, _match_torch_keys, _names, _one_dtype, _outputs,
                  _read_params, _short, _tolerances, _write_atomically)


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

