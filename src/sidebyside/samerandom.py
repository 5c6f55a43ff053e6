"""The same random numbers in both frameworks, for a lockstep: noise tensors and dropout masks.

A lockstep trains two networks step for step and compares them. A random op inside
``forward`` — dropout, a VAE's ``torch.randn_like(std)`` — draws from each framework's own
generator, so the two runs part at the first step whatever seeds they were given. Here both
sides draw from one source instead: NumPy makes every array, and each framework gets it in its
own tensor type, dtype and device.

    draws = samerandom.Draws(seed=0)
    pt_rng, mx_rng = draws.stream("PyTorch"), draws.stream("Gluon")
    samerandom.use_same_dropout(pt_net, pt_rng)    # every nn.Dropout, masks from pt_rng
    samerandom.use_same_dropout(mx_net, mx_rng)    # every gluon.nn.Dropout, from mx_rng
    eps = pt_rng.normal_like(std)                  # in the PyTorch forward
    eps = mx_rng.normal_like(std)                  # in the Gluon forward: the same numbers

How the numbers stay the same: each :class:`Stream` counts its draws, and draw *k* of every
stream of one :class:`Draws` is the same array, made by NumPy from ``(seed, k)`` alone — not
from the draws before it. The first stream to make draw *k* records what it asked for (normal
noise or a dropout mask, its shape and rate); a stream that asks for something else at *k* —
its framework calls its random ops in another order, or on another shape — is stopped with
both requests named, rather than left to compare different numbers.

A dropout mask is PyTorch's and MXNet's *inverted* dropout: each element kept with probability
``1 − p`` and then scaled by ``1 / (1 − p)`` (all zeros for ``p = 1``). The replacement layers
(:func:`use_same_dropout`) subclass each framework's ``Dropout`` and keep its rule for when it
is active: PyTorch in ``train()`` mode, Gluon inside ``autograd.record()`` (training mode);
otherwise they return the input and draw nothing. Dropout variants with other masks (PyTorch's
``Dropout1d/2d/3d`` and ``AlphaDropout``, Gluon's ``Dropout(axes=…)``) are refused, and so is
a hybridized Gluon network (a mask made by NumPy cannot enter a cached graph). A fused Gluon
``rnn.LSTM(dropout=…)`` draws inside its kernel and is not reached.

Unchanged code that calls ``torch.randn_like`` or ``mx.nd.random.normal_like`` /
``mx.nd.random.normal`` (``F.random.…`` in an imperative ``hybrid_forward``) draws from a stream
inside :func:`patch_torch_randn` / :func:`patch_mxnet_normal`, one framework's run at a time.

Draws are float64 in NumPy and rounded to the tensor's dtype, so a float32 run and a float64
run of the same lockstep get the same draws too, to float32 rounding.
"""
from __future__ import annotations

import contextlib
import functools

import numpy as np

__all__ = ["Draws", "Stream", "patch_mxnet_normal", "patch_torch_randn", "use_same_dropout"]


class Draws:
    """One source of random arrays for every run of a lockstep; :meth:`stream` per run."""

    def __init__(self, seed: int):
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
            raise ValueError(f"seed must be an int >= 0, got {seed!r}")
        self.seed = int(seed)
        self._streams: dict[str, Stream] = {}
        self._asked: dict[int, tuple] = {}      # draw index -> (kind, shape, p, stream name)

    def stream(self, name: str) -> "Stream":
        """A new stream of this source's draws, for one run (one framework, one dtype)."""
        if not isinstance(name, str) or not name:
            raise ValueError(f"a stream needs a non-empty name, got {name!r}")
        if name in self._streams:
            raise ValueError(f"there is already a stream named {name!r}")
        self._streams[name] = Stream(self, name)
        return self._streams[name]

    @property
    def streams(self) -> dict:
        return dict(self._streams)

    def _draw(self, stream: "Stream", kind: str, shape: tuple, p: float | None) -> np.ndarray:
        k = stream.count
        request = (kind, shape, p)
        first = self._asked.get(k)
        if first is None:
            self._asked[k] = (*request, stream.name)
        elif first[:3] != request:
            raise ValueError(
                f"draw {k}: stream {stream.name!r} asks for {_describe(request)}, but stream "
                f"{first[3]!r} asked for {_describe(first[:3])}: the two runs call their random "
                "ops in different orders or on different shapes")
        rng = np.random.default_rng([self.seed, k])
        if kind == "normal":
            out = rng.standard_normal(shape)
        else:
            keep = rng.random(shape) >= p
            out = np.zeros(shape) if p == 1 else keep / (1.0 - p)
        stream.count += 1
        return out

    def __repr__(self) -> str:
        return f"Draws(seed={self.seed}, streams={list(self._streams)})"


def _describe(request: tuple) -> str:
    kind, shape, p = request
    return f"normal noise of shape {shape}" if kind == "normal" else (
        f"a dropout mask of shape {shape} with p={p}")


def _shape(shape) -> tuple:
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    if not all(isinstance(n, (int, np.integer)) and not isinstance(n, bool) and n >= 0
               for n in shape):
        raise ValueError(f"a shape is a tuple of ints >= 0, got {shape!r}")
    return tuple(int(n) for n in shape)


def _rate(p) -> float:
    if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 <= p <= 1:
        raise ValueError(f"a dropout rate is a number in [0, 1], got {p!r}")
    return float(p)


def _framework(x) -> str:
    """Which kind of tensor ``x`` is: "torch", "mxnet" or "numpy" (checked before a draw)."""
    if type(x).__module__.startswith("torch") and hasattr(x, "device"):
        return "torch"
    if hasattr(x, "asnumpy") and hasattr(x, "context"):
        return "mxnet"
    if isinstance(x, np.ndarray):
        return "numpy"
    raise TypeError(f"expected a torch tensor, an mxnet NDArray or a numpy array, got "
                    f"{type(x).__module__}.{type(x).__name__}")


def _like(array: np.ndarray, x, kind: str):
    """``array`` as a tensor of ``x``'s framework, dtype and device."""
    if kind == "torch":
        import torch
        return torch.from_numpy(array).to(device=x.device, dtype=x.dtype)
    if kind == "mxnet":
        import mxnet as mx
        return mx.nd.array(array, ctx=x.context, dtype=x.dtype)
    return array.astype(x.dtype)


class Stream:
    """One run's view of a :class:`Draws`: its k-th draw is every other stream's k-th draw."""

    def __init__(self, draws: Draws, name: str):
        self.draws, self.name, self.count = draws, name, 0

    def normal(self, shape) -> np.ndarray:
        """Standard normal noise of ``shape``, float64."""
        return self.draws._draw(self, "normal", _shape(shape), None)

    def keep_mask(self, shape, p: float) -> np.ndarray:
        """An inverted-dropout mask of ``shape``: 0 (dropped, probability ``p``) or
        ``1 / (1 − p)``, float64."""
        return self.draws._draw(self, "dropout", _shape(shape), _rate(p))

    def normal_like(self, x):
        """Standard normal noise shaped like ``x``, in ``x``'s framework, dtype and device
        (``torch.randn_like(x)``, ``mx.nd.random.normal_like(x)``)."""
        kind = _framework(x)
        return _like(self.normal(tuple(x.shape)), x, kind)

    def dropout(self, x, p: float):
        """``x`` times a mask from :meth:`keep_mask`, in ``x``'s framework: training-mode
        dropout of rate ``p`` (the gradient flows through the kept elements)."""
        kind = _framework(x)
        return x * _like(self.keep_mask(tuple(x.shape), p), x, kind)

    def __repr__(self) -> str:
        return f"Stream({self.name!r}, {self.count} draws, seed={self.draws.seed})"


def _check_stream(stream) -> None:
    if not isinstance(stream, Stream):
        raise TypeError(f"stream must be a samerandom.Stream (Draws(seed).stream(name)), got "
                        f"{type(stream).__name__}")


@functools.lru_cache(maxsize=None)
def _torch_dropout():
    import torch

    class SameDropout(torch.nn.Dropout):
        """``nn.Dropout`` whose masks come from a :class:`Stream`."""

        def __init__(self, p: float, stream: Stream):
            super().__init__(p)
            self.stream = stream

        def forward(self, x):
            if not self.training or self.p == 0:
                return x
            return self.stream.dropout(x, self.p)

        def extra_repr(self) -> str:
            return f"p={self.p}, stream={self.stream.name!r}"

    return SameDropout


@functools.lru_cache(maxsize=None)
def _gluon_dropout():
    import mxnet as mx
    from mxnet import autograd, gluon

    class SameDropout(gluon.nn.Dropout):
        """``gluon.nn.Dropout`` whose masks come from a :class:`Stream`."""

        def __init__(self, rate: float, stream: Stream, **kwargs):
            super().__init__(rate, **kwargs)
            self.stream = stream

        def hybrid_forward(self, F, x):
            if F is not mx.nd:
                raise RuntimeError("samerandom's dropout runs imperatively only: call "
                                   "net.hybridize(active=False) before the lockstep")
            if self._rate == 0 or not autograd.is_training():
                return x
            return self.stream.dropout(x, self._rate)

        def __repr__(self) -> str:
            return f"SameDropout(p = {self._rate}, stream={self.stream.name!r})"

    return SameDropout


def _replace_torch(model, stream) -> list[str]:
    import torch
    same = _torch_dropout()
    found = []
    for parent_name, parent in model.named_modules():
        for name, child in parent.named_children():
            path = f"{parent_name}.{name}" if parent_name else name
            if type(child) is torch.nn.Dropout:
                found.append((parent, name, child, path))
            elif (isinstance(child, torch.nn.modules.dropout._DropoutNd)
                  and not isinstance(child, same)):
                raise NotImplementedError(
                    f"{path} is a {type(child).__name__}: samerandom makes element-wise "
                    "masks (nn.Dropout) only; nothing was replaced")
    for parent, name, child, _ in found:
        layer = same(child.p, stream)
        layer.train(child.training)
        setattr(parent, name, layer)
    return [path for *_, path in found]


def _replace_gluon(model, stream) -> list[str]:
    from mxnet import gluon
    same = _gluon_dropout()
    found = []

    def walk(block, prefix):
        if isinstance(block, gluon.HybridBlock) and getattr(block, "_active", False):
            raise ValueError(f"{prefix or 'the network'} is hybridized: call "
                             "net.hybridize(active=False) first; nothing was replaced")
        for name, child in block._children.items():
            path = f"{prefix}.{name}" if prefix else name
            if type(child) is gluon.nn.Dropout:
                if tuple(child._axes):
                    raise NotImplementedError(
                        f"{path} is a Dropout with axes={child._axes}: samerandom makes "
                        "element-wise masks only; nothing was replaced")
                found.append((block, name, child, path))
            else:
                walk(child, path)

    walk(model, "")
    for parent, name, child, _ in found:
        layer = same(child._rate, stream)
        if getattr(parent, name, None) is child:       # an attribute: self.dropout1 = ...
            setattr(parent, name, layer)
        else:                                          # a Sequential's numbered child
            parent.register_child(layer, name)
    return [path for *_, path in found]


def use_same_dropout(model, stream: Stream) -> list[str]:
    """Replace every element-wise dropout layer of ``model`` (an ``nn.Module`` or a Gluon
    ``Block``) by one of the same rate whose masks come from ``stream``; return the replaced
    layers' paths. Refused (nothing replaced): another dropout variant, a hybridized Gluon
    network."""
    _check_stream(stream)
    if _is_torch_module(model):
        return _replace_torch(model, stream)
    if _is_gluon_block(model):
        return _replace_gluon(model, stream)
    raise TypeError(f"model must be a torch.nn.Module or a gluon.Block, got "
                    f"{type(model).__module__}.{type(model).__name__}")


def _is_torch_module(model) -> bool:
    import sys
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(model, torch.nn.Module)


def _is_gluon_block(model) -> bool:
    import sys
    mx = sys.modules.get("mxnet")
    return mx is not None and isinstance(model, mx.gluon.Block)


@contextlib.contextmanager
def patch_torch_randn(stream: Stream):
    """Within the block, ``torch.randn_like(x)`` draws from ``stream`` (``dtype=``,
    ``device=`` and ``requires_grad=`` are honoured; other arguments are refused)."""
    _check_stream(stream)
    import torch
    original = torch.randn_like

    def randn_like(input, *, dtype=None, device=None, requires_grad=False, **other):
        if other:
            raise TypeError(f"torch.randn_like under samerandom takes dtype, device and "
                            f"requires_grad only, not {sorted(other)}")
        if _framework(input) != "torch":
            raise TypeError(f"torch.randn_like takes a tensor, got {type(input).__name__}")
        noise = torch.from_numpy(stream.normal(tuple(input.shape)))   # float64, then rounded once
        out = noise.to(device=device or input.device, dtype=dtype or input.dtype)
        return out.requires_grad_(requires_grad)

    torch.randn_like = randn_like
    try:
        yield stream
    finally:
        torch.randn_like = original


@contextlib.contextmanager
def patch_mxnet_normal(stream: Stream):
    """Within the block, ``mx.nd.random.normal_like(x, loc, scale)`` and
    ``mx.nd.random.normal(loc, scale, shape, dtype=, ctx=)`` draw from ``stream``."""
    _check_stream(stream)
    import mxnet as mx
    module = mx.nd.random
    originals = module.normal_like, module.normal

    def normal_like(data=None, loc=0.0, scale=1.0, **other):
        if other or data is None:
            raise TypeError("mx.nd.random.normal_like under samerandom takes data, loc and "
                            f"scale only, not {sorted(other) or 'no data'}")
        return loc + scale * stream.normal_like(data)

    def normal(loc=0.0, scale=1.0, shape=None, dtype="float32", ctx=None, **other):
        if other or not all(isinstance(v, (int, float)) for v in (loc, scale)):
            raise TypeError("mx.nd.random.normal under samerandom takes scalar loc and scale, "
                            f"shape, dtype and ctx only, not {sorted(other) or 'array loc/scale'}")
        noise = stream.normal((1,) if shape is None else shape)   # MXNet's default: (1,)
        return loc + scale * mx.nd.array(noise, ctx=ctx or mx.current_context(), dtype=dtype)

    module.normal_like, module.normal = normal_like, normal
    try:
        yield stream
    finally:
        module.normal_like, module.normal = originals
