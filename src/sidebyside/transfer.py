"""Copy weights between a PyTorch ``nn.Module`` and a Gluon ``Block`` of the same architecture.

Both networks are walked in the order their layers were registered (the order of
``__init__`` / ``add``). Layers that own parameters are paired one by one; each pair must be
of matching kinds (``Linear`` ⇄ ``Dense``, ``Conv2d`` ⇄ ``Conv2D``, ``BatchNorm2d`` ⇄
``BatchNorm``, ...) and shapes. Anything else raises :class:`ArchitectureMismatch` naming
both layers, so a wrong pairing can never copy silently.

Gluon parameters still waiting for deferred shape inference are given their shape from the
PyTorch side, so a freshly ``initialize()``-d Gluon network can receive weights before its
first forward pass.

PyTorch convolutions are channels-first. A Gluon convolution built with a channels-last
``layout`` (``'NWC'``, ``'NHWC'``, ``'NDHWC'``) stores its weight as ``(out, *kernel, in)``;
such a layer is refused with :class:`ArchitectureMismatch` rather than copied, because when
``in == kernel`` the shapes agree and the copy would be silently wrong.

    >>> pairs = torch_to_gluon(pt_net, mx_net)   # returns [(torch name, gluon name), ...]
    >>> gluon_to_torch(mx_net, pt_net)           # the other way round
"""

from __future__ import annotations

from dataclasses import dataclass

import mxnet as mx
import numpy as np
import torch
from mxnet import gluon

__all__ = ["ArchitectureMismatch", "LayerPair", "pair_layers", "torch_to_gluon",
           "gluon_to_torch"]


class ArchitectureMismatch(ValueError):
    """The two networks do not have the same parameterised layers in the same order."""


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


def _kind(layer, side: int) -> str | None:
    for kind, spec in _KINDS.items():
        if isinstance(layer, spec[side]):
            return kind
    return None


def _torch_layers(net: torch.nn.Module):
    if not isinstance(net, torch.nn.Module):
        raise TypeError(f"expected a torch.nn.Module, got {type(net).__name__}")
    layers = []
    for name, mod in net.named_modules():
        own = list(mod.named_parameters(recurse=False)) + [
            b for b in mod.named_buffers(recurse=False) if b[0] != "num_batches_tracked"]
        if not own:
            continue
        kind = _kind(mod, 0)
        if kind is None:
            raise ArchitectureMismatch(
                f"PyTorch layer '{name or type(mod).__name__}' ({type(mod).__name__}) has "
                f"parameters but no known Gluon counterpart; known kinds: {sorted(_KINDS)}")
        layers.append((name or type(mod).__name__, mod, kind))
    return layers


def _gluon_layers(net: gluon.Block):
    if not isinstance(net, gluon.Block):
        raise TypeError(f"expected a gluon.Block, got {type(net).__name__}")
    layers = []

    def walk(block, path):
        if block._reg_params:
            kind = _kind(block, 1)
            if kind is None:
                raise ArchitectureMismatch(
                    f"Gluon layer '{path}' ({type(block).__name__}) has parameters but no "
                    f"known PyTorch counterpart; known kinds: {sorted(_KINDS)}")
            layers.append((path, block, kind))
        for child_name, child in block._children.items():
            walk(child, f"{path}.{child_name}" if path else child_name)

    walk(net, "")
    return [(name or type(block).__name__, block, kind) for name, block, kind in layers]


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


def pair_layers(torch_net: torch.nn.Module, gluon_net: gluon.Block) -> list[LayerPair]:
    """Pair the parameterised layers of both networks in registration order, or raise."""
    t_layers, g_layers = _torch_layers(torch_net), _gluon_layers(gluon_net)
    pairs = []
    for i, (t, g) in enumerate(zip(t_layers, g_layers)):
        if t[2] != g[2]:
            raise ArchitectureMismatch(
                f"layer #{i}: PyTorch '{t[0]}' is {type(t[1]).__name__} ({t[2]}) but Gluon "
                f"'{g[0]}' is {type(g[1]).__name__} ({g[2]})")
        _check_layout(t[2], g[0], g[1])
        pairs.append(LayerPair(t[2], t[0], t[1], g[0], g[1]))
    if len(t_layers) != len(g_layers):
        longer, side = (t_layers, "PyTorch") if len(t_layers) > len(g_layers) else (
            g_layers, "Gluon")
        extra = ", ".join(f"'{name}'" for name, _, _ in longer[len(pairs):])
        raise ArchitectureMismatch(
            f"PyTorch has {len(t_layers)} parameterised layers, Gluon has {len(g_layers)}; "
            f"unmatched {side} layer(s): {extra}")
    return pairs


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


def _pairs_with_tensors(pair: LayerPair):
    for t_attr, t, g in pair.tensors():
        if (t is None) != (g is None):
            have, miss = ("PyTorch", "Gluon") if g is None else ("Gluon", "PyTorch")
            raise ArchitectureMismatch(
                f"{pair.kind} layer PyTorch '{pair.torch_name}' / Gluon '{pair.gluon_name}': "
                f"'{t_attr}' exists on the {have} side only (bias / affine settings differ)")
        if t is not None:
            _check_shape(pair, t_attr, tuple(t.shape), g)
            yield t_attr, t, g


def torch_to_gluon(torch_net: torch.nn.Module, gluon_net: gluon.Block,
                   ctx: mx.Context | None = None) -> list[tuple[str, str]]:
    """Copy every parameter (and BatchNorm running statistic) from PyTorch into Gluon.

    Returns the ``(torch layer, gluon layer)`` pairs that were copied. The Gluon network must
    have been ``initialize()``-d; deferred shapes are filled in from the PyTorch tensors, and
    the copied parameters are readable (``p.data()``) at once, before any forward pass.
    """
    pairs = pair_layers(torch_net, gluon_net)
    work = [(p, list(_pairs_with_tensors(p))) for p in pairs]   # check everything first
    for pair, tensors in work:
        for _t_attr, t, g in tensors:
            value = t.detach().cpu().numpy()
            if _known_shape(g) is None:
                g.shape = value.shape
            try:
                g_ctx = ctx or g.list_ctx()[0]
            except RuntimeError as err:
                raise RuntimeError(
                    f"Gluon parameter '{g.name}' is not initialized: call "
                    f"net.initialize() before copying weights into it") from err
            g.set_data(mx.nd.array(value, ctx=g_ctx, dtype=value.dtype))
            if g._deferred_init:  # the shape is known now: make the value readable at once
                g._finish_deferred_init()
    return [(p.torch_name, p.gluon_name) for p in pairs]


def gluon_to_torch(gluon_net: gluon.Block, torch_net: torch.nn.Module) -> list[tuple[str, str]]:
    """Copy every parameter (and BatchNorm running statistic) from Gluon into PyTorch.

    The Gluon network must be fully initialised (run one forward pass after a deferred
    ``initialize()``). Returns the ``(torch layer, gluon layer)`` pairs that were copied.
    """
    pairs = pair_layers(torch_net, gluon_net)
    work = [(p, list(_pairs_with_tensors(p))) for p in pairs]
    for pair, tensors in work:
        for _t_attr, _t, g in tensors:
            if _known_shape(g) is None or g._data is None:
                raise RuntimeError(
                    f"Gluon parameter '{g.name}' of layer '{pair.gluon_name}' has no value yet "
                    f"(deferred initialisation): run one forward pass first")
    with torch.no_grad():
        for pair, tensors in work:
            for _t_attr, t, g in tensors:
                value = np.asarray(g.data().asnumpy())
                t.copy_(torch.from_numpy(value).to(dtype=t.dtype, device=t.device))
    return [(p.torch_name, p.gluon_name) for p in pairs]
