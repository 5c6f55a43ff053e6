"""Copy weights between a PyTorch ``nn.Module`` and a Gluon ``Block`` of the same architecture::

    pairs = torch_to_gluon(pt_net, mx_net)   # returns [(torch name, gluon name), ...]
    gluon_to_torch(mx_net, pt_net)           # the other way round

Files (a Gluon ``.params`` file ⇄ a PyTorch state dict), with a check that both networks then
compute the same outputs, are :mod:`sidebyside.convert`'s job; it uses this module.

**Which layer goes with which.** Only layers that own parameters are paired. Each has a
structural name on both sides: its PyTorch ``named_modules()`` path (``'features.3'``) and its
Gluon path, the ``_children`` keys joined with ``'.'`` (attribute names, or ``'0'``, ``'1'``, ...
inside a ``Sequential``). Positions are compared by rank: a purely numeric part of a path is
replaced by its rank among the numeric siblings, in that container, that hold parameterised
layers. So PyTorch ``Sequential(Linear, ReLU, Linear)`` (layers ``'0'``, ``'2'``) matches Gluon
``Sequential(Dense(256, activation='relu'), Dense(10))`` (layers ``'0'``, ``'1'``). Then ``by=``
decides:

* ``"auto"`` (the default): if both sides have the same names, pair by name, in whatever order
  the layers were registered; otherwise pair in registration order and warn
  (:class:`PairingWarning`), listing the pairs whose names differ.
* ``"name"``: pair by name; if the names differ, raise :class:`ArchitectureMismatch`.
* ``"order"``: pair in registration order, ignoring the names, without a warning.
* ``mapping={torch layer name: gluon layer name, ...}`` pairs explicitly instead; it must name
  every parameterised layer of both sides exactly once.

**Kinds.** The two layers of each pair must be of matching kinds: ``Linear`` ⇄ ``nn.Dense``;
``Conv1d``/``Conv2d``/``Conv3d`` ⇄ ``nn.Conv1D``/``Conv2D``/``Conv3D``;
``ConvTranspose1d``/``2d``/``3d`` ⇄ ``nn.Conv1DTranspose``/``Conv2DTranspose``/``Conv3DTranspose``
(both store the weight as ``(in, out/groups, *kernel)``: copied as it is; ``output_padding``
⇄ ``adj`` is checked with the other hyper-parameters);
``BatchNorm1d``/``2d``/``3d`` ⇄ ``nn.BatchNorm`` (or ``contrib.nn.SyncBatchNorm``);
``LayerNorm`` ⇄ ``nn.LayerNorm``; ``Embedding`` ⇄ ``nn.Embedding``; ``LSTM``/``GRU``/``RNN``
⇄ the fused ``rnn.LSTM``/``rnn.GRU``/``rnn.RNN``.
Any other layer that owns parameters (``PReLU``, Gluon's unfused
``rnn.LSTMCell``, ...) is refused with :class:`ArchitectureMismatch`.

**What is checked, before anything is copied.** Every pair is checked for the layers' kinds,
every tensor for its shape and dtype, and each layer for the settings that decide what its
tensors mean. Any difference raises :class:`ArchitectureMismatch` (or :class:`DTypeMismatch`)
naming both layers and both values; two layers of the same kind and shape paired the wrong way
round would pass those checks, which is why the default never pairs them by position without
telling you. The settings come in two groups.

*Structure* — always checked, because it decides which numbers go where:

* convolutions: channels-first layout (see below) and ``groups`` ⇄ ``num_group`` (with
  ``groups=2`` a ``(out, 2, k)`` weight means something else than with ``groups=1``);
* BatchNorm and LayerNorm: PyTorch's γ (``weight``) exists exactly when Gluon's ``scale=True``,
  and β (``bias``) exactly when ``center=True``; PyTorch's ``affine=False`` (or ``bias=False``)
  pairs with Gluon's ``scale=False, center=False`` (or ``center=False``), whose γ and β are
  constants (1 and 0): they are written as such into Gluon, and on the way back a Gluon β that
  is not 0 is refused (Gluon's BatchNorm ``scale=False`` forces γ = 1 itself). PyTorch's
  ``track_running_stats=False`` (batch statistics when evaluating too) has no Gluon
  equivalent. A PyTorch LayerNorm over several trailing dimensions has none either (Gluon's
  normalises one axis), nor one with ``elementwise_affine=False``, which owns no parameters;
* recurrent layers: hidden size, input size, number of layers, direction; PyTorch
  ``bias=False`` (Gluon's fused layers always have biases), an LSTM's ``proj_size`` and Gluon's
  ``projection_size`` are refused.

*Hyper-parameters* — checked unless ``check_hparams=False``; they do not change what is copied
where, but a copy that ignores them computes (or trains) differently:

* BatchNorm: ``eps`` ⇄ ``epsilon``; ``momentum``, written the other way round (Gluon's
  ``momentum`` is the weight of the *old* running value, ``1 −`` PyTorch's, so the defaults 0.1
  and 0.9 agree; PyTorch's ``momentum=None``, a cumulative average, has no Gluon
  equivalent); Gluon's ``use_global_stats=True`` (running statistics in training too) has no
  PyTorch setting; Gluon's ``axis`` must be 1, PyTorch's channel axis;
* LayerNorm: ``eps`` ⇄ ``epsilon``; Gluon's ``axis`` must be -1;
* convolutions: ``stride``, ``padding`` (``'same'`` is accepted where it is symmetric),
  ``dilation``, and ``padding_mode='zeros'`` (the only one Gluon has);
* recurrent layers: ``batch_first=False`` ⇄ ``layout='TNC'`` and ``True`` ⇄ ``'NTC'``;
  ``dropout``; for ``RNN`` the nonlinearity (PyTorch's default is ``'tanh'``, Gluon's
  ``'relu'``); Gluon's LSTM state clipping has no PyTorch equivalent;
* Embedding: PyTorch's ``max_norm`` (rows renormalised in the forward pass) has no Gluon
  equivalent. Training-only settings without a Gluon counterpart (``padding_idx``,
  ``scale_grad_by_freq``, ``sparse``) are not checked.

``check_hparams=False`` is there for copies that differ on purpose: notebook 6 copies γ and β
into a Gluon ``BatchNorm(momentum=0.1)`` to show what a literal port of PyTorch's number does,
and fine-tuning copies into a BatchNorm with ``use_global_stats=True``.

Differences that no setting describes are not detected: an activation folded into a Gluon
``Dense``/``Conv`` (``activation='relu'``) against a separate PyTorch ``ReLU``, pooling layers
(they own no parameters), ``Dense(flatten=True)`` (Gluon's default) on inputs with more than
two axes, and Gluon's CPU BatchNorm updating its running variance with the biased batch
variance where PyTorch uses the unbiased one. Running both networks on one input, as
:mod:`sidebyside.convert` does, catches the first three.

**Recurrent layers.** Gluon's fused ``rnn.LSTM``/``GRU``/``RNN`` name their parameters
``l{k}_i2h_weight``, ``l{k}_h2h_weight``, ``l{k}_i2h_bias``, ``l{k}_h2h_bias`` (``r{k}_...``
for the reverse direction), PyTorch ``weight_ih_l{k}``, ``weight_hh_l{k}``, ``bias_ih_l{k}``,
``bias_hh_l{k}`` (``..._reverse``). The gates are stacked in the same order on both sides —
LSTM ``i, f, g, o``, GRU ``r, z, n`` — and GRU applies the reset gate after the recurrent
product on both sides (``n = tanh(W_in x + b_in + r ⊙ (W_hn h + b_hn))``), so the tensors are
copied as they are, with both biases kept apart. Verified numerically (tests/test_transfer.py):
after a copy, LSTM, GRU and RNN (tanh and relu), with 1 and 2 layers, uni- and bidirectional,
from random initial states, give the same outputs and final states in float64 to ~1e-15, and
swapping two gates' blocks changes the outputs by far more. (The one exception is not the copy:
MXNet's CPU kernel for ``RNN(activation='relu')`` is not float64-accurate; against a numpy
reference it is ~1e-6 off after five steps, PyTorch ~1e-14.)

**Dtypes.** Values are copied exactly and never converted: each PyTorch tensor must already
have its Gluon parameter's dtype. Cast one network first (``gluon_net.cast('float64')``, or
``torch_net.float()``), otherwise :class:`DTypeMismatch` is raised.

**Tied weights.** A weight shared by two layers — a word language model whose decoder reuses
the embedding, PyTorch ``decoder.weight = encoder.weight``, Gluon ``nn.Dense(V, in_units=H,
params=encoder.params)`` — is paired like any other (both layers are listed) and copied once,
so the tie survives on the receiving side. Where only the receiving side ties it, the two
source tensors must hold equal values; otherwise :class:`ArchitectureMismatch` is raised
(one of them would be dropped).

**All or nothing.** Every pair, setting, shape and dtype is checked before the first value is
written, so a call that raises copies nothing.

Gluon parameters still waiting for deferred shape inference are given their shape from the
PyTorch side, so a freshly ``initialize()``-d Gluon network can receive weights before its
first forward pass.

PyTorch convolutions are channels-first. A Gluon convolution built with a channels-last
``layout`` (``'NWC'``, ``'NHWC'``, ``'NDHWC'``) stores its weight as ``(out, *kernel, in)``;
such a layer is refused with :class:`ArchitectureMismatch` rather than copied, because when
``in == kernel`` the shapes agree and the copy would be silently wrong.

PyTorch's BatchNorm counter ``num_batches_tracked`` has no Gluon counterpart and is left
alone (it only matters with ``momentum=None``, refused unless ``check_hparams=False``).
"""

from __future__ import annotations

import math
import warnings
from collections import Counter
from dataclasses import dataclass
from typing import NamedTuple

import mxnet as mx
import numpy as np
import torch
from mxnet import gluon
from mxnet.gluon import rnn as grnn

__all__ = ["ArchitectureMismatch", "DTypeMismatch", "PairingWarning", "LayerPair",
           "pair_layers", "torch_to_gluon", "gluon_to_torch"]


class ArchitectureMismatch(ValueError):
    """The two networks do not have the same parameterised layers."""


class DTypeMismatch(TypeError):
    """A PyTorch tensor and its Gluon parameter have different dtypes."""


class PairingWarning(UserWarning):
    """Layers were paired in registration order although their names differ."""


_W_B = [("weight", "weight"), ("bias", "bias")]

# kind -> (torch classes, gluon classes, [(torch tensor name, gluon parameter suffix)]);
# the recurrent kinds' names depend on the layer (see _rnn_names)
_KINDS = {
    "dense": ((torch.nn.Linear,), (gluon.nn.Dense,), _W_B),
    "conv1d": ((torch.nn.Conv1d,), (gluon.nn.Conv1D,), _W_B),
    "conv2d": ((torch.nn.Conv2d,), (gluon.nn.Conv2D,), _W_B),
    "conv3d": ((torch.nn.Conv3d,), (gluon.nn.Conv3D,), _W_B),
    "deconv1d": ((torch.nn.ConvTranspose1d,), (gluon.nn.Conv1DTranspose,), _W_B),
    "deconv2d": ((torch.nn.ConvTranspose2d,), (gluon.nn.Conv2DTranspose,), _W_B),
    "deconv3d": ((torch.nn.ConvTranspose3d,), (gluon.nn.Conv3DTranspose,), _W_B),
    "batchnorm": ((torch.nn.BatchNorm1d, torch.nn.BatchNorm2d, torch.nn.BatchNorm3d),
                  (gluon.nn.BatchNorm,),
                  [("weight", "gamma"), ("bias", "beta"),
                   ("running_mean", "running_mean"), ("running_var", "running_var")]),
    "layernorm": ((torch.nn.LayerNorm,), (gluon.nn.LayerNorm,),
                  [("weight", "gamma"), ("bias", "beta")]),
    "embedding": ((torch.nn.Embedding,), (gluon.nn.Embedding,), [("weight", "weight")]),
    "lstm": ((torch.nn.LSTM,), (grnn.LSTM,), None),
    "gru": ((torch.nn.GRU,), (grnn.GRU,), None),
    "rnn": ((torch.nn.RNN,), (grnn.RNN,), None),
}
_RNN_KINDS = ("lstm", "gru", "rnn")


def _rnn_names(torch_layer) -> list[tuple[str, str]]:
    names = []
    for k in range(torch_layer.num_layers):
        for suffix, d in (("", "l"), ("_reverse", "r"))[:2 if torch_layer.bidirectional else 1]:
            names += [(f"weight_ih_l{k}{suffix}", f"{d}{k}_i2h_weight"),
                      (f"weight_hh_l{k}{suffix}", f"{d}{k}_h2h_weight"),
                      (f"bias_ih_l{k}{suffix}", f"{d}{k}_i2h_bias"),
                      (f"bias_hh_l{k}{suffix}", f"{d}{k}_h2h_bias")]
    return names


class _Slot(NamedTuple):
    t_attr: str                  # PyTorch tensor name
    t: torch.Tensor | None       # None: PyTorch has no such tensor, Gluon's holds `fixed`
    g: object                    # the Gluon Parameter
    fixed: float | None = None   # the constant Gluon's parameter stands for (γ = 1, β = 0)
    forced: bool = False         # Gluon's operator forces that constant itself (fix_gamma)


@dataclass(frozen=True)
class LayerPair:
    kind: str
    torch_name: str
    torch_layer: torch.nn.Module
    gluon_name: str
    gluon_layer: gluon.Block

    def names(self) -> list[tuple[str, str]]:
        """``(torch tensor name, gluon parameter name)`` for every tensor of the layer."""
        if self.kind in _RNN_KINDS:
            return _rnn_names(self.torch_layer)
        return list(_KINDS[self.kind][2])

    def tensors(self):
        """``(torch tensor name, torch tensor or None, gluon Parameter or None)`` triples."""
        gparams = self.gluon_layer._reg_params
        return [(t_attr, getattr(self.torch_layer, t_attr, None), gparams.get(g_attr))
                for t_attr, g_attr in self.names()]

    def _slots(self) -> list[_Slot]:
        slots = []
        for t_attr, t, g in self.tensors():
            if (t is None and g is not None and self.kind in ("batchnorm", "layernorm")
                    and t_attr in ("weight", "bias")):
                # _check_structure made sure that Gluon's scale / center is off
                slots.append(_Slot(t_attr, None, g, 1.0 if t_attr == "weight" else 0.0,
                                   forced=self.kind == "batchnorm" and t_attr == "weight"))
            else:
                slots.append(_Slot(t_attr, t, g))
        return slots


class _Layer(NamedTuple):
    name: str     # what the user sees: the path, or the class name for the network itself
    path: str     # structural path, '' for the network itself
    layer: object
    kind: str


def _kind(layer, side: int) -> str | None:
    for kind, spec in _KINDS.items():
        if isinstance(layer, spec[side]):
            return kind
    return None


def _torch_layers(net: torch.nn.Module) -> list[_Layer]:
    if not isinstance(net, torch.nn.Module):
        raise TypeError(f"expected a torch.nn.Module, got {type(net).__name__}")
    layers = []
    for path, mod in net.named_modules():
        own = list(mod.named_parameters(recurse=False)) + [
            b for b in mod.named_buffers(recurse=False) if b[0] != "num_batches_tracked"]
        if not own:
            continue
        kind = _kind(mod, 0)
        if kind is None:
            raise ArchitectureMismatch(
                f"PyTorch layer '{path or type(mod).__name__}' ({type(mod).__name__}) has "
                f"parameters but no known Gluon counterpart; known kinds: {sorted(_KINDS)}")
        layers.append(_Layer(path or type(mod).__name__, path, mod, kind))
    return layers


def _gluon_layers(net: gluon.Block) -> list[_Layer]:
    if not isinstance(net, gluon.Block):
        raise TypeError(f"expected a gluon.Block, got {type(net).__name__}")
    layers = []

    def walk(block, path):
        if block._reg_params:
            kind = _kind(block, 1)
            if kind is None:
                raise ArchitectureMismatch(
                    f"Gluon layer '{path or type(block).__name__}' ({type(block).__name__}) "
                    f"has parameters but no known PyTorch counterpart; known kinds: "
                    f"{sorted(_KINDS)}")
            layers.append(_Layer(path or type(block).__name__, path, block, kind))
        for child_name, child in block._children.items():
            walk(child, f"{path}.{child_name}" if path else child_name)

    walk(net, "")
    return layers


def _normalised_names(layers: list[_Layer]) -> list[str]:
    """Paths with each numeric part replaced by its rank among the numeric siblings (in the
    same container) that hold parameterised layers: Sequential '0', '2' -> '0', '1'."""
    split = [layer.path.split(".") if layer.path else [] for layer in layers]
    numeric = {}   # container path -> the numeric child keys that lead to layers
    for parts in split:
        for i, part in enumerate(parts):
            if part.isdecimal():
                numeric.setdefault(tuple(parts[:i]), set()).add(int(part))
    return [".".join(str(sorted(numeric[tuple(parts[:i])]).index(int(part)))
                     if part.isdecimal() else part for i, part in enumerate(parts))
            for parts in split]


def _quoted(names) -> str:
    return ", ".join(f"'{n}'" for n in names) or "none"


def _pair_by_mapping(t_layers, g_layers, mapping: dict[str, str]):
    t_by = {t.name: t for t in t_layers}
    g_by = {g.name: g for g in g_layers}
    problems = [
        ("unknown PyTorch layer(s)", [n for n in mapping if n not in t_by]),
        ("unknown Gluon layer(s)", [n for n in mapping.values() if n not in g_by]),
        ("PyTorch layer(s) not in the mapping", [n for n in t_by if n not in mapping]),
        ("Gluon layer(s) not in the mapping",
         [n for n in g_by if n not in mapping.values()]),
        ("Gluon layer(s) given more than once",
         [n for n, count in Counter(mapping.values()).items() if count > 1]),
    ]
    problems = [f"{what}: {_quoted(names)}" for what, names in problems if names]
    if problems:
        raise ArchitectureMismatch(
            "mapping= must pair every parameterised layer exactly once; "
            + "; ".join(problems) + f". PyTorch layers: {_quoted(t_by)}; Gluon layers: "
            f"{_quoted(g_by)}")
    return [(t, g_by[mapping[t.name]]) for t in t_layers]


def _pair_layers(torch_net, gluon_net, by: str, mapping: dict[str, str] | None,
                 check_hparams: bool = True):
    if by not in ("auto", "name", "order"):
        raise ValueError(f"by must be 'auto', 'name' or 'order', not {by!r}")
    if mapping is not None and by != "auto":
        raise ValueError("give either mapping= or by=, not both")
    t_layers, g_layers = _torch_layers(torch_net), _gluon_layers(gluon_net)
    t_names, g_names = _normalised_names(t_layers), _normalised_names(g_layers)
    same_names = set(t_names) == set(g_names)
    if mapping is not None:
        matched = _pair_by_mapping(t_layers, g_layers, mapping)
    elif by == "name" or (by == "auto" and same_names):
        if not same_names:
            raise ArchitectureMismatch(
                "the layer names differ: PyTorch only: "
                f"{_quoted(t.name for t, n in zip(t_layers, t_names) if n not in g_names)}; "
                "Gluon only: "
                f"{_quoted(g.name for g, n in zip(g_layers, g_names) if n not in t_names)}. "
                "Pair them explicitly with mapping={torch name: gluon name, ...}, or in "
                "registration order with by='order'")
        g_by_name = dict(zip(g_names, g_layers))
        matched = [(t, g_by_name[n]) for t, n in zip(t_layers, t_names)]
    else:
        matched = list(zip(t_layers, g_layers))

    pairs = []
    for i, (t, g) in enumerate(matched):
        if t.kind != g.kind:
            raise ArchitectureMismatch(
                f"layer #{i}: PyTorch '{t.name}' is {type(t.layer).__name__} ({t.kind}) but "
                f"Gluon '{g.name}' is {type(g.layer).__name__} ({g.kind})")
        _check_layout(t.kind, g.name, g.layer)
        pair = LayerPair(t.kind, t.name, t.layer, g.name, g.layer)
        _check_structure(pair)
        if check_hparams:
            _check_hparams(pair)
        pairs.append(pair)
    if len(t_layers) != len(g_layers):   # only pairing by order gets here
        longer, side = (t_layers, "PyTorch") if len(t_layers) > len(g_layers) else (
            g_layers, "Gluon")
        raise ArchitectureMismatch(
            f"PyTorch has {len(t_layers)} parameterised layers, Gluon has {len(g_layers)}; "
            f"unmatched {side} layer(s): {_quoted(layer.name for layer in longer[len(pairs):])}")

    if by == "auto" and mapping is None and not same_names:
        t_norm, g_norm = dict(zip(t_layers, t_names)), dict(zip(g_layers, g_names))
        differ = ", ".join(f"'{t.name}' -> '{g.name}'" for t, g in matched
                           if t_norm[t] != g_norm[g])
        warnings.warn(
            f"the layer names differ, so the layers were paired in registration order "
            f"(PyTorch -> Gluon): {differ}. Check that this is right; pass by='order' to "
            "accept it without this warning, or mapping={torch name: gluon name, ...} to "
            "pair the layers explicitly", PairingWarning, stacklevel=3)
    return pairs


def pair_layers(torch_net: torch.nn.Module, gluon_net: gluon.Block, *, by: str = "auto",
                mapping: dict[str, str] | None = None,
                check_hparams: bool = True) -> list[LayerPair]:
    """Pair the parameterised layers of both networks (see the module docstring), or raise.

    Checks each pair's kinds, structure and (unless ``check_hparams=False``) hyper-parameters;
    shapes and dtypes are checked by the copying functions. The pairs come in PyTorch's
    registration order.
    """
    return _pair_layers(torch_net, gluon_net, by, mapping, check_hparams)


# --- checks of the layers' settings --------------------------------------------------------

def _refuse(pair: LayerPair, what: str, torch_value: str, gluon_value: str, why: str,
            hparam: bool = False) -> None:
    hint = (" Make both sides agree, or pass check_hparams=False to copy anyway."
            if hparam else "")
    raise ArchitectureMismatch(
        f"{pair.kind} layer PyTorch '{pair.torch_name}' ({type(pair.torch_layer).__name__}) / "
        f"Gluon '{pair.gluon_name}' ({type(pair.gluon_layer).__name__}): {what}: PyTorch "
        f"{torch_value}, Gluon {gluon_value}. {why}{hint}")


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-12)


# kind -> the only Gluon layout whose weight is stored like PyTorch's (out, in, *kernel)
_CHANNELS_FIRST = {"conv1d": "NCW", "conv2d": "NCHW", "conv3d": "NCDHW",
                   "deconv1d": "NCW", "deconv2d": "NCHW", "deconv3d": "NCDHW"}


def _check_layout(kind: str, gluon_name: str, gluon_layer: gluon.Block) -> None:
    want = _CHANNELS_FIRST.get(kind)
    if want is None:
        return
    layout = getattr(gluon_layer, "_kwargs", {}).get("layout", want)
    if layout != want:
        raise ArchitectureMismatch(
            f"Gluon layer '{gluon_name}' ({type(gluon_layer).__name__}) uses "
            f"layout='{layout}', which stores its weight as (out, *kernel, in); PyTorch "
            f"convolutions are channels-first ({want}, weight (out, in, *kernel)). Build "
            f"the Gluon layer with layout='{want}' to copy weights")


def _gluon_norm_flags(pair: LayerPair) -> tuple[bool, bool]:
    """Gluon's (scale, center). BatchNorm keeps them as fix_gamma and as whether β is
    differentiable (unlike grad_req, freezing a layer does not change that)."""
    g = pair.gluon_layer
    if pair.kind == "batchnorm":
        return not g._kwargs.get("fix_gamma", False), bool(g.beta._differentiable)
    return bool(g._kwargs.get("scale", True)), bool(g._kwargs.get("center", True))


def _check_structure(pair: LayerPair) -> None:
    """What decides which numbers go where: always checked."""
    t, g, kind = pair.torch_layer, pair.gluon_layer, pair.kind
    if kind in _CHANNELS_FIRST:
        groups = g._kwargs.get("num_group", 1)
        if t.groups != groups:
            _refuse(pair, "groups differ", f"groups={t.groups}", f"num_group={groups}",
                    "The weight's input-channel axis means something else.")
    elif kind in ("batchnorm", "layernorm"):
        if kind == "layernorm" and len(t.normalized_shape) != 1:
            _refuse(pair, "normalised dimensions differ",
                    f"normalized_shape={tuple(t.normalized_shape)}", "one axis",
                    "Gluon's LayerNorm normalises a single axis.")
        scale, center = _gluon_norm_flags(pair)
        affine = "affine" if kind == "batchnorm" else "elementwise_affine"
        t_flags = f"{affine}={t.weight is not None}, bias={t.bias is not None}"
        for has, g_flag, g_name, tensor in ((t.weight is not None, scale, "scale", "γ"),
                                            (t.bias is not None, center, "center", "β")):
            if has != g_flag:
                _refuse(pair, f"learned {tensor} on one side only", t_flags,
                        f"scale={scale}, center={center}",
                        f"PyTorch learns {tensor} exactly when Gluon has {g_name}=True; a "
                        "copy would train differently, or drop a learned value.")
        if kind == "batchnorm" and not t.track_running_stats:
            _refuse(pair, "running statistics", "track_running_stats=False",
                    "always keeps them",
                    "PyTorch then normalises with batch statistics when evaluating too; "
                    "Gluon's BatchNorm has no such setting.")
    elif kind in _RNN_KINDS:
        if getattr(t, "proj_size", 0) or g._projection_size:
            _refuse(pair, "projection", f"proj_size={getattr(t, 'proj_size', 0)}",
                    f"projection_size={g._projection_size}",
                    "LSTMs with a projection are not converted.")
        if not t.bias:
            _refuse(pair, "biases", "bias=False", "always has biases",
                    "Gluon's fused recurrent layers have no bias=False.")
        for what, t_value, g_value in (
                ("hidden size", t.hidden_size, g._hidden_size),
                ("number of layers", t.num_layers, g._num_layers),
                ("directions", 2 if t.bidirectional else 1, g._dir)):
            if t_value != g_value:
                _refuse(pair, f"{what} differs", str(t_value), str(g_value),
                        "The layers hold different tensors.")
        if g._input_size and g._input_size != t.input_size:
            _refuse(pair, "input size differs", f"input_size={t.input_size}",
                    f"input_size={g._input_size}", "The layers hold different tensors.")


def _conv_padding(t) -> tuple | None:
    """PyTorch's padding as symmetric per-axis numbers, or None if it has none."""
    if not isinstance(t.padding, str):
        return tuple(t.padding)
    if t.padding == "valid":
        return (0,) * len(t.kernel_size)
    total = [d * (k - 1) for d, k in zip(t.dilation, t.kernel_size)]   # 'same'
    return None if any(n % 2 for n in total) else tuple(n // 2 for n in total)


def _check_hparams(pair: LayerPair) -> None:
    """What changes outputs or training but not what is copied: checked by default."""
    t, g, kind = pair.torch_layer, pair.gluon_layer, pair.kind
    if kind in _CHANNELS_FIRST:
        kw = g._kwargs
        if t.padding_mode != "zeros":
            _refuse(pair, "padding mode", f"padding_mode='{t.padding_mode}'", "pads with zeros",
                    "The border outputs would differ.", hparam=True)
        padding = _conv_padding(t)
        if padding is None:
            _refuse(pair, "padding", f"padding='{t.padding}' (asymmetric here)",
                    f"pad={tuple(kw['pad'])}",
                    "Gluon pads both sides of an axis equally.", hparam=True)
        checks = [("stride", tuple(t.stride), tuple(kw["stride"])),
                  ("padding", padding, tuple(kw["pad"])),
                  ("dilation", tuple(t.dilation), tuple(kw["dilate"]))]
        if kind.startswith("deconv"):  # output_padding is Gluon's adj
            checks.append(("output_padding", tuple(t.output_padding), tuple(kw["adj"])))
        for what, t_value, g_value in checks:
            if t_value != g_value:
                _refuse(pair, f"{what} differs", f"{what}={t_value}",
                        f"{ {'padding': 'pad', 'dilation': 'dilate', 'output_padding': 'adj'}.get(what, what)}="
                        f"{g_value}", "The outputs would differ.", hparam=True)
    elif kind == "batchnorm":
        kw = g._kwargs
        if kw.get("axis", 1) != 1:
            _refuse(pair, "channel axis", "axis 1", f"axis={kw['axis']}",
                    "PyTorch's BatchNorm normalises per channel of axis 1 (channels-first).",
                    hparam=True)
        if not _close(t.eps, kw["eps"]):
            _refuse(pair, "eps differs", f"eps={t.eps:g}", f"epsilon={kw['eps']:g}",
                    "The outputs would differ.", hparam=True)
        if t.momentum is None:
            _refuse(pair, "momentum", "momentum=None (a cumulative average)",
                    f"momentum={kw['momentum']:g}",
                    "Gluon has no cumulative average; training would update the running "
                    "statistics differently.", hparam=True)
        if not _close(kw["momentum"], 1 - t.momentum):
            _refuse(pair, "momentum does not correspond",
                    f"momentum={t.momentum:g} (that is Gluon momentum={1 - t.momentum:g}: Gluon's "
                    f"weighs the old running value, PyTorch's the new batch)",
                    f"momentum={kw['momentum']:g}",
                    "Training would update the running statistics differently.", hparam=True)
        if kw.get("use_global_stats"):
            _refuse(pair, "statistics used in training", "batch statistics in train()",
                    "use_global_stats=True",
                    "Gluon then normalises with the running statistics when training too; "
                    "PyTorch has no such setting (keep its layer in eval() instead).",
                    hparam=True)
    elif kind == "layernorm":
        if g._kwargs.get("axis", -1) != -1:
            _refuse(pair, "normalised axis", "the last axis", f"axis={g._kwargs['axis']}",
                    "The outputs would differ.", hparam=True)
        if not _close(t.eps, g._kwargs["eps"]):
            _refuse(pair, "eps differs", f"eps={t.eps:g}", f"epsilon={g._kwargs['eps']:g}",
                    "The outputs would differ.", hparam=True)
    elif kind == "embedding":
        if t.max_norm is not None:
            _refuse(pair, "max_norm", f"max_norm={t.max_norm:g}", "no max_norm",
                    "PyTorch renormalises the rows it looks up; the outputs would differ.",
                    hparam=True)
    elif kind in _RNN_KINDS:
        layout = "NTC" if t.batch_first else "TNC"
        if g._layout != layout:
            _refuse(pair, "layout", f"batch_first={t.batch_first} (that is layout='{layout}')",
                    f"layout='{g._layout}'", "The same input would be read differently.",
                    hparam=True)
        if not _close(float(t.dropout), float(g._dropout)):
            _refuse(pair, "dropout differs", f"dropout={t.dropout:g}",
                    f"dropout={g._dropout:g}", "Training would differ.", hparam=True)
        if kind == "rnn":
            g_act = g._mode.removeprefix("rnn_")
            if t.nonlinearity != g_act:
                _refuse(pair, "nonlinearity differs", f"nonlinearity='{t.nonlinearity}'",
                        f"activation='{g_act}'",
                        "The outputs would differ (the defaults differ: PyTorch 'tanh', "
                        "Gluon 'relu').", hparam=True)
        if kind == "lstm" and (g._lstm_state_clip_min is not None
                               or g._lstm_state_clip_max is not None):
            _refuse(pair, "state clipping", "none",
                    f"lstm_state_clip_min={g._lstm_state_clip_min}, "
                    f"lstm_state_clip_max={g._lstm_state_clip_max}",
                    "PyTorch's LSTM does not clip its cell state.", hparam=True)


# --- shapes, dtypes, copying ---------------------------------------------------------------

def _known_shape(param) -> tuple | None:
    shape = param.shape
    if shape is None or any(d <= 0 for d in shape):
        return None
    return tuple(shape)


def _check_shape(pair: LayerPair, t_attr: str, t_shape: tuple, g_param) -> None:
    g_shape = _known_shape(g_param)
    if g_shape is not None and g_shape != t_shape:
        raise ArchitectureMismatch(
            f"{pair.kind} layer PyTorch '{pair.torch_name}'.{t_attr} has shape {t_shape} but "
            f"Gluon '{pair.gluon_name}' parameter '{g_param.name}' has shape {g_shape}")
    if g_shape is None and g_param.shape is not None:
        declared = tuple(g_param.shape)
        if len(declared) != len(t_shape) or any(
                d > 0 and d != s for d, s in zip(declared, t_shape)):
            raise ArchitectureMismatch(
                f"{pair.kind} layer PyTorch '{pair.torch_name}'.{t_attr} has shape {t_shape} "
                f"but Gluon '{pair.gluon_name}' parameter '{g_param.name}' is declared "
                f"{declared}")


def _check_dtype(pair: LayerPair, t_attr: str, t: torch.Tensor, g_param) -> None:
    t_dtype = str(t.dtype).removeprefix("torch.")    # 'float64'
    g_dtype = np.dtype(g_param.dtype).name            # Gluon keeps a numpy type or a string
    if t_dtype != g_dtype:
        raise DTypeMismatch(
            f"{pair.kind} layer PyTorch '{pair.torch_name}'.{t_attr} is {t_dtype} but Gluon "
            f"'{pair.gluon_name}' parameter '{g_param.name}' is {g_dtype}; values are not "
            f"converted. Give both networks the same dtype before copying, e.g. "
            f"gluon_net.cast('{t_dtype}') or torch_net.to(torch.{g_dtype})")


def _fixed_shape(pair: LayerPair) -> tuple:
    t = pair.torch_layer
    return (t.num_features,) if pair.kind == "batchnorm" else tuple(t.normalized_shape)


def _checked_slots(pair: LayerPair):
    for slot in pair._slots():
        t_attr, t, g = slot.t_attr, slot.t, slot.g
        if slot.fixed is None and (t is None) != (g is None):
            have = "PyTorch" if g is None else "Gluon"
            raise ArchitectureMismatch(
                f"{pair.kind} layer PyTorch '{pair.torch_name}' / Gluon '{pair.gluon_name}': "
                f"'{t_attr}' exists on the {have} side only (bias / affine settings differ)")
        if slot.fixed is not None:
            _check_shape(pair, t_attr, _fixed_shape(pair), g)
            yield slot
        elif t is not None:
            _check_shape(pair, t_attr, tuple(t.shape), g)
            _check_dtype(pair, t_attr, t, g)
            yield slot


def _gluon_ctx(g, ctx: mx.Context | None) -> mx.Context:
    try:
        initialised_on = g.list_ctx()
    except RuntimeError as err:
        raise RuntimeError(
            f"Gluon parameter '{g.name}' is not initialized: call "
            f"net.initialize() before copying weights into it") from err
    return ctx or initialised_on[0]


def _check_ties(work, into_gluon: bool) -> None:
    """A weight tied on the target side (one tensor or Parameter for two layers) must get
    one value: where the source side holds two different tensors for it, refuse, since the
    copy would keep one and silently drop the other."""
    targets = {}   # id(target) -> [(pair, slot)], the slots that write into it
    for pair, slot in work:
        if slot.t is not None and slot.fixed is None:
            targets.setdefault(id(slot.g if into_gluon else slot.t), []).append((pair, slot))
    for writers in targets.values():
        sources = list({id(s.t if into_gluon else s.g): (p, s) for p, s in writers}.values())
        if len(sources) < 2:
            continue
        values = [s.t.detach().cpu().numpy() if into_gluon else s.g.data().asnumpy()
                  for _p, s in sources]
        if all(np.array_equal(v, values[0], equal_nan=v.dtype.kind == "f")
               for v in values[1:]):
            continue
        (p1, s1), (p2, s2) = sources[:2]
        where = [f"'{p1.torch_name}'.{s1.t_attr}", f"'{p2.torch_name}'.{s2.t_attr}"]
        if into_gluon:
            raise ArchitectureMismatch(
                f"Gluon layers '{p1.gluon_name}' and '{p2.gluon_name}' share one parameter "
                f"'{s1.g.name}' (a tied weight), but PyTorch {where[0]} and {where[1]} are two "
                "tensors with different values: one would be lost. Tie them in PyTorch too "
                f"({p2.torch_name}.{s2.t_attr} = {p1.torch_name}.{s1.t_attr}), or give the "
                "Gluon layers their own parameters")
        raise ArchitectureMismatch(
            f"PyTorch {where[0]} and {where[1]} are one tensor (a tied weight), but Gluon "
            f"'{p1.gluon_name}' and '{p2.gluon_name}' hold two parameters with different "
            f"values ('{s1.g.name}', '{s2.g.name}'): one would be lost. Tie them in Gluon too "
            f"(params={p1.gluon_name}.params), or untie the PyTorch layers")


def torch_to_gluon(torch_net: torch.nn.Module, gluon_net: gluon.Block,
                   ctx: mx.Context | None = None, *, by: str = "auto",
                   mapping: dict[str, str] | None = None,
                   check_hparams: bool = True) -> list[tuple[str, str]]:
    """Copy every parameter (and BatchNorm running statistic) from PyTorch into Gluon.

    Returns the ``(torch layer, gluon layer)`` pairs that were copied, in PyTorch's order.
    ``by`` and ``mapping`` choose the pairing, ``check_hparams=False`` skips the
    hyper-parameter checks (see the module docstring). The Gluon network must have been
    ``initialize()``-d; deferred shapes are filled in from the PyTorch tensors, and the copied
    parameters are readable (``p.data()``) at once, before any forward pass. A Gluon γ or β
    that stands for a PyTorch layer without one (``affine=False``) is set to 1 or 0.
    """
    pairs = _pair_layers(torch_net, gluon_net, by, mapping, check_hparams)
    work = [(p, slot, _gluon_ctx(slot.g, ctx))               # check everything first
            for p in pairs for slot in list(_checked_slots(p))]
    _check_ties([(p, s) for p, s, _ in work], into_gluon=True)
    done = set()
    for pair, slot, g_ctx in work:
        g = slot.g
        if id(g) in done:   # a tied weight: one Gluon Parameter, one copy
            continue
        done.add(id(g))
        if slot.fixed is None:
            value = slot.t.detach().cpu().numpy()
        else:   # a constant that PyTorch leaves implicit (affine=False, bias=False)
            value = np.full(_fixed_shape(pair), slot.fixed, dtype=np.dtype(g.dtype))
        if _known_shape(g) is None:
            g.shape = value.shape
        g.set_data(mx.nd.array(value, ctx=g_ctx, dtype=value.dtype))
        if g._deferred_init:  # the shape is known now: make the value readable at once
            g._finish_deferred_init()
    return [(p.torch_name, p.gluon_name) for p in pairs]


def gluon_to_torch(gluon_net: gluon.Block, torch_net: torch.nn.Module, *, by: str = "auto",
                   mapping: dict[str, str] | None = None,
                   check_hparams: bool = True) -> list[tuple[str, str]]:
    """Copy every parameter (and BatchNorm running statistic) from Gluon into PyTorch.

    The Gluon network must be fully initialised (run one forward pass after a deferred
    ``initialize()``). Returns the ``(torch layer, gluon layer)`` pairs that were copied, in
    PyTorch's order; ``by``, ``mapping`` and ``check_hparams`` as for :func:`torch_to_gluon`.
    A Gluon β that stands for a PyTorch layer without one must be 0.
    """
    pairs = _pair_layers(torch_net, gluon_net, by, mapping, check_hparams)
    work = [(p, list(_checked_slots(p))) for p in pairs]   # check everything first
    for pair, slots in work:
        for slot in slots:
            g = slot.g
            if _known_shape(g) is None or g._data is None:
                raise RuntimeError(
                    f"Gluon parameter '{g.name}' of layer '{pair.gluon_name}' has no value yet "
                    f"(deferred initialisation): run one forward pass first")
            if slot.fixed is not None and not slot.forced:
                value = g.data().asnumpy()
                if not np.all(value == slot.fixed):
                    scale, center = _gluon_norm_flags(pair)
                    _refuse(pair, f"Gluon's {'γ' if slot.fixed else 'β'} is not "
                            f"{slot.fixed:g} (largest |value| {np.abs(value).max():g})",
                            f"has no '{slot.t_attr}'", f"scale={scale}, center={center}",
                            "Gluon uses the stored value although it does not learn it; "
                            "PyTorch cannot hold it.")
    _check_ties([(p, s) for p, slots in work for s in slots], into_gluon=False)
    done = set()
    with torch.no_grad():
        for _pair, slots in work:
            for slot in slots:
                if slot.t is not None and id(slot.t) not in done:   # a tied tensor: once
                    done.add(id(slot.t))
                    slot.t.copy_(torch.from_numpy(slot.g.data().asnumpy()).to(
                        device=slot.t.device))
    return [(p.torch_name, p.gluon_name) for p in pairs]
