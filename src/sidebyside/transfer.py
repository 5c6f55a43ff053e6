"""Copy weights between a PyTorch ``nn.Module`` and a Gluon ``Block`` of the same architecture.

    >>> pairs = torch_to_gluon(pt_net, mx_net)   # returns [(torch name, gluon name), ...]
    >>> gluon_to_torch(mx_net, pt_net)           # the other way round

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

However they were paired, the two layers of each pair must be of matching kinds (``Linear`` ⇄
``Dense``, ``Conv2d`` ⇄ ``Conv2D``, ``BatchNorm2d`` ⇄ ``BatchNorm``, ...), shapes and dtypes;
anything else raises :class:`ArchitectureMismatch` (or :class:`DTypeMismatch`) naming both
layers. Two layers of the same kind and shape paired the wrong way round would pass those
checks, which is why the default never pairs them by position without telling you.

**Dtypes.** Values are copied exactly and never converted: each PyTorch tensor must already
have its Gluon parameter's dtype. Cast one network first (``gluon_net.cast('float64')``, or
``torch_net.float()``), otherwise :class:`DTypeMismatch` is raised.

**All or nothing.** Every pair, shape and dtype is checked before the first value is written,
so a call that raises copies nothing.

Gluon parameters still waiting for deferred shape inference are given their shape from the
PyTorch side, so a freshly ``initialize()``-d Gluon network can receive weights before its
first forward pass.

PyTorch convolutions are channels-first. A Gluon convolution built with a channels-last
``layout`` (``'NWC'``, ``'NHWC'``, ``'NDHWC'``) stores its weight as ``(out, *kernel, in)``;
such a layer is refused with :class:`ArchitectureMismatch` rather than copied, because when
``in == kernel`` the shapes agree and the copy would be silently wrong.
"""

from __future__ import annotations

import warnings
from collections import Counter
from dataclasses import dataclass
from typing import NamedTuple

import mxnet as mx
import numpy as np
import torch
from mxnet import gluon

__all__ = ["ArchitectureMismatch", "DTypeMismatch", "PairingWarning", "LayerPair",
           "pair_layers", "torch_to_gluon", "gluon_to_torch"]


class ArchitectureMismatch(ValueError):
    """The two networks do not have the same parameterised layers."""


class DTypeMismatch(TypeError):
    """A PyTorch tensor and its Gluon parameter have different dtypes."""


class PairingWarning(UserWarning):
    """Layers were paired in registration order although their names differ."""


# kind -> (torch classes, gluon classes, [(torch tensor name, gluon parameter suffix)])
_KINDS = {
    "dense": ((torch.nn.Linear,), (gluon.nn.Dense,),
              [("weight", "weight"), ("bias", "bias")]),
    "conv1d": ((torch.nn.Conv1d,), (gluon.nn.Conv1D,),
               [("weight", "weight"), ("bias", "bias")]),
    "conv2d": ((torch.nn.Conv2d,), (gluon.nn.Conv2D,),
               [("weight", "weight"), ("bias", "bias")]),
    "conv3d": ((torch.nn.Conv3d,), (gluon.nn.Conv3D,),
               [("weight", "weight"), ("bias", "bias")]),
    "batchnorm": ((torch.nn.BatchNorm1d, torch.nn.BatchNorm2d, torch.nn.BatchNorm3d),
                  (gluon.nn.BatchNorm,),
                  [("weight", "gamma"), ("bias", "beta"),
                   ("running_mean", "running_mean"), ("running_var", "running_var")]),
    "layernorm": ((torch.nn.LayerNorm,), (gluon.nn.LayerNorm,),
                  [("weight", "gamma"), ("bias", "beta")]),
    "embedding": ((torch.nn.Embedding,), (gluon.nn.Embedding,), [("weight", "weight")]),
}


@dataclass(frozen=True)
class LayerPair:
    kind: str
    torch_name: str
    torch_layer: torch.nn.Module
    gluon_name: str
    gluon_layer: gluon.Block

    def tensors(self):
        """``(torch tensor name, torch tensor or None, gluon Parameter or None)`` triples."""
        out = []
        gparams = self.gluon_layer._reg_params
        for t_attr, g_attr in _KINDS[self.kind][2]:
            t = getattr(self.torch_layer, t_attr, None)
            g = gparams.get(g_attr)
            out.append((t_attr, t, g))
        return out


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


def _pair_layers(torch_net, gluon_net, by: str, mapping: dict[str, str] | None):
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
        pairs.append(LayerPair(t.kind, t.name, t.layer, g.name, g.layer))
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
                mapping: dict[str, str] | None = None) -> list[LayerPair]:
    """Pair the parameterised layers of both networks (see the module docstring), or raise.

    The pairs come in PyTorch's registration order.
    """
    return _pair_layers(torch_net, gluon_net, by, mapping)


# kind -> the only Gluon layout whose weight is stored like PyTorch's (out, in, *kernel)
_CHANNELS_FIRST = {"conv1d": "NCW", "conv2d": "NCHW", "conv3d": "NCDHW"}


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


def _pairs_with_tensors(pair: LayerPair):
    for t_attr, t, g in pair.tensors():
        if (t is None) != (g is None):
            have = "PyTorch" if g is None else "Gluon"
            raise ArchitectureMismatch(
                f"{pair.kind} layer PyTorch '{pair.torch_name}' / Gluon '{pair.gluon_name}': "
                f"'{t_attr}' exists on the {have} side only (bias / affine settings differ)")
        if t is not None:
            _check_shape(pair, t_attr, tuple(t.shape), g)
            _check_dtype(pair, t_attr, t, g)
            yield t_attr, t, g


def _gluon_ctx(g, ctx: mx.Context | None) -> mx.Context:
    try:
        initialised_on = g.list_ctx()
    except RuntimeError as err:
        raise RuntimeError(
            f"Gluon parameter '{g.name}' is not initialized: call "
            f"net.initialize() before copying weights into it") from err
    return ctx or initialised_on[0]


def torch_to_gluon(torch_net: torch.nn.Module, gluon_net: gluon.Block,
                   ctx: mx.Context | None = None, *, by: str = "auto",
                   mapping: dict[str, str] | None = None) -> list[tuple[str, str]]:
    """Copy every parameter (and BatchNorm running statistic) from PyTorch into Gluon.

    Returns the ``(torch layer, gluon layer)`` pairs that were copied, in PyTorch's order.
    ``by`` and ``mapping`` choose the pairing (see the module docstring). The Gluon network
    must have been ``initialize()``-d; deferred shapes are filled in from the PyTorch tensors,
    and the copied parameters are readable (``p.data()``) at once, before any forward pass.
    """
    pairs = _pair_layers(torch_net, gluon_net, by, mapping)
    work = [(t, g, _gluon_ctx(g, ctx))                       # check everything first
            for p in pairs for _t_attr, t, g in _pairs_with_tensors(p)]
    for t, g, g_ctx in work:
        value = t.detach().cpu().numpy()
        if _known_shape(g) is None:
            g.shape = value.shape
        g.set_data(mx.nd.array(value, ctx=g_ctx, dtype=value.dtype))
        if g._deferred_init:  # the shape is known now: make the value readable at once
            g._finish_deferred_init()
    return [(p.torch_name, p.gluon_name) for p in pairs]


def gluon_to_torch(gluon_net: gluon.Block, torch_net: torch.nn.Module, *, by: str = "auto",
                   mapping: dict[str, str] | None = None) -> list[tuple[str, str]]:
    """Copy every parameter (and BatchNorm running statistic) from Gluon into PyTorch.

    The Gluon network must be fully initialised (run one forward pass after a deferred
    ``initialize()``). Returns the ``(torch layer, gluon layer)`` pairs that were copied, in
    PyTorch's order; ``by`` and ``mapping`` choose the pairing (see the module docstring).
    """
    pairs = _pair_layers(torch_net, gluon_net, by, mapping)
    work = [(p, list(_pairs_with_tensors(p))) for p in pairs]   # check everything first
    for pair, tensors in work:
        for _t_attr, _t, g in tensors:
            if _known_shape(g) is None or g._data is None:
                raise RuntimeError(
                    f"Gluon parameter '{g.name}' of layer '{pair.gluon_name}' has no value yet "
                    f"(deferred initialisation): run one forward pass first")
    with torch.no_grad():
        for _pair, tensors in work:
            for _t_attr, t, g in tensors:
                t.copy_(torch.from_numpy(g.data().asnumpy()).to(device=t.device))
    return [(p.torch_name, p.gluon_name) for p in pairs]
