"""Helpers for the nn_layers catalogue checks (PyTorch side).

- :func:`load`: copy Gluon's parameter values (the runner's ``P``) into PyTorch tensors;
- :func:`mxnet_running_var`: a tensor that follows a PyTorch BatchNorm's running variance as
  MXNet 1.9.1 updates it (with the *biased* batch variance), derived from PyTorch's own update.
"""

from __future__ import annotations

import functools

__all__ = ["load", "mxnet_running_var"]


def load(tensors, values) -> list:
    """Copy ``values`` (numpy arrays) into ``tensors`` in order (``None`` skips one); returns
    ``tensors``."""
    import torch

    with torch.no_grad():
        for t, v in zip(tensors, values):
            if t is not None:
                t.copy_(torch.from_numpy(v.copy()).to(t.dtype).reshape(t.shape))
    return list(tensors)


def mxnet_running_var(bn):
    """A tensor that, after every training-mode forward pass of the PyTorch BatchNorm ``bn``,
    holds the running variance MXNet 1.9.1 keeps for the same batch.

    PyTorch: ``new = (1 − m)·old + m·var_unbiased`` (÷(n − 1)); MXNet: ``new = (1 − m)·old +
    m·var_biased`` (÷n), with ``m`` PyTorch's momentum (1 − MXNet's). Both from PyTorch's own
    update: ``mx = (1 − m)·old + (new − (1 − m)·old)·(n − 1)/n``, ``n`` the values per channel.
    """
    import torch

    out = bn.running_var.detach().clone()
    old = {}

    def before(module, inputs):
        old["var"] = module.running_var.detach().clone()

    def after(module, inputs, output):
        if not module.training:
            return
        x = inputs[0]
        n = x.numel() // x.shape[1]
        m = module.momentum
        with torch.no_grad():
            kept = (1 - m) * old["var"]
            out.copy_(kept + (module.running_var - kept) * (n - 1) / n)

    bn.register_forward_pre_hook(before)
    bn.register_forward_hook(after)
    return out


# ------------------------------------------------------------------------ model-zoo checks
def zoo_values(shapes, seed=0) -> list:
    """See :func:`_zoo_values` (cached: both sides and both dtypes get the same arrays)."""
    return list(_zoo_values(tuple(tuple(int(n) for n in s) for s in shapes), seed))


@functools.lru_cache(maxsize=4)
def _zoo_values(shapes, seed=0) -> tuple:
    """The same values for a network's parameters on both sides, by position and shape only:
    arrays of two or more axes (weights) uniform in ±√(6/fan_in), one-axis arrays (biases,
    γ, β, running means and variances) uniform in [0.5, 1.5] (positive, as a variance must
    be). numpy float64."""
    import math

    import numpy as onp

    rng = onp.random.default_rng(seed + 11)
    out = []
    for shape in shapes:
        shape = tuple(shape)
        if len(shape) >= 2:
            bound = math.sqrt(6.0 / math.prod(shape[1:]))
            out.append(rng.uniform(-bound, bound, shape))
        else:
            out.append(rng.uniform(0.5, 1.5, shape))
    for a in out:
        a.flags.writeable = False
    return tuple(out)


def gluon_load(net, x, dtype, seed=0):
    """Initialise the Gluon ``net`` (its deferred shapes inferred from ``x``), cast it to ``dtype``
    and give every parameter, in ``collect_params()`` order, :func:`zoo_values`."""
    import mxnet as mx

    from mxnet import autograd

    with autograd.pause():  # the runner records an operator snippet: set up outside it
        net.initialize(mx.init.Zero())
        net.cast(dtype)
        net.infer_shape(x)  # the deferred shapes, without running the network
        params = list(net.collect_params().values())
        for p, v in zip(params, zoo_values([p.shape for p in params], seed)):
            p.set_data(mx.nd.from_numpy(v.astype(dtype), zero_copy=True))
    return net


def torch_state(mod) -> list:
    """The floating-point parameters and buffers of ``mod``, in ``state_dict`` order."""
    return [t for t in mod.state_dict(keep_vars=True).values() if t.is_floating_point()]


def torch_load(mod, dtype, seed=0):
    """Cast the PyTorch ``mod`` to ``dtype``, give its floating-point parameters and buffers,
    in ``state_dict`` order, :func:`zoo_values`; switch off its gradients; eval mode."""
    import torch

    if any(t.is_meta for t in mod.state_dict(keep_vars=True).values()):
        mod = mod.to_empty(device="cpu")  # built on the meta device: no initialisation
    mod = mod.to(dtype).requires_grad_(False).eval()
    state = torch_state(mod)
    with torch.no_grad():
        for t, v in zip(state, zoo_values([tuple(t.shape) for t in state], seed)):
            t.copy_(torch.from_numpy(v.copy()))
    return mod


# ------------------------------------------------------------ architectures, layer by layer
def _pair(v, n=2) -> tuple:
    return tuple(int(a) for a in v) if isinstance(v, (tuple, list)) else (int(v),) * n


def gluon_layers(net, x) -> list:
    """The layers of the Gluon ``net`` that have parameters or a fixed geometry, in
    registration order, as plain tuples (shapes inferred from ``x``, nothing computed):
    ``('conv', weight shape, stride, padding, dilation, groups, bias)``, ``('linear', weight
    shape, bias)``, ``('bn', channels, eps)``, ``('maxpool'|'avgpool', kernel, stride,
    padding, ceil_mode)``, ``('globalavgpool',)``, ``('dropout', rate)``."""
    from mxnet import autograd
    from mxnet.gluon import nn

    with autograd.pause():
        net.initialize()
        net.infer_shape(x)
    out = []

    def walk(block):
        if isinstance(block, nn.conv_layers._Conv):
            k = block._kwargs
            out.append(("conv", tuple(block.weight.shape), _pair(k["stride"]),
                        _pair(k["pad"]), _pair(k["dilate"]), int(k["num_group"]),
                        block.bias is not None))
        elif isinstance(block, nn.Dense):
            out.append(("linear", tuple(block.weight.shape), block.bias is not None))
        elif isinstance(block, nn.basic_layers._BatchNorm):
            out.append(("bn", int(block.gamma.shape[0]), float(block._kwargs["eps"])))
        elif isinstance(block, nn.conv_layers._Pooling):
            k = block._kwargs
            if k["global_pool"]:
                out.append(("global" + k["pool_type"] + "pool",))
            else:
                out.append((k["pool_type"] + "pool", _pair(k["kernel"]), _pair(k["stride"]),
                            _pair(k["pad"]), k["pooling_convention"] == "full"))
        elif isinstance(block, nn.Dropout):
            out.append(("dropout", float(block._rate)))
        for child in block._children.values():
            walk(child)

    walk(net)
    return out


def torch_layers(mod) -> list:
    """The same description (:func:`gluon_layers`) of a PyTorch module, in registration
    order (``named_modules``). ``AdaptiveAvgPool2d(1)`` is a global average pooling."""
    import torch

    nn = torch.nn
    out = []
    for m in mod.modules():
        if isinstance(m, nn.Conv2d):
            out.append(("conv", tuple(m.weight.shape), _pair(m.stride), _pair(m.padding),
                        _pair(m.dilation), int(m.groups), m.bias is not None))
        elif isinstance(m, nn.Linear):
            out.append(("linear", tuple(m.weight.shape), m.bias is not None))
        elif isinstance(m, nn.BatchNorm2d):
            out.append(("bn", int(m.num_features), float(m.eps)))
        elif isinstance(m, (nn.MaxPool2d, nn.AvgPool2d)):
            kind = "maxpool" if isinstance(m, nn.MaxPool2d) else "avgpool"
            out.append((kind, _pair(m.kernel_size), _pair(m.stride), _pair(m.padding),
                        bool(m.ceil_mode)))
        elif isinstance(m, nn.AdaptiveAvgPool2d):
            size = _pair(m.output_size)
            out.append(("globalavgpool",) if size == (1, 1) else ("adaptiveavgpool", size))
        elif isinstance(m, nn.Dropout):
            out.append(("dropout", float(m.p)))
    return out
