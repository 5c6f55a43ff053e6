"""Helpers the catalogue's checks call, the same experiment on each side.

- :func:`mx_steps` / :func:`torch_steps`: an optimizer's weights after each of a few steps,
  from the same start and the same gradients (MXNet through ``mx.optimizer.get_updater``, the
  path ``Trainer`` takes; PyTorch through ``optimizer.step()``);
- :func:`mx_lrs` / :func:`torch_lrs`: the learning rate each update used, read off the
  weights of plain SGD with a gradient of one (so the schedule is the one the optimizer really
  applies, counted as each framework counts updates);
- :func:`mx_init` / :func:`torch_init`: an initialiser's values for a parameter of a shape.

Each returns numpy arrays (float64 when the run's dtype is float64), ready to compare.
"""

from __future__ import annotations

import numpy as onp

__all__ = ["start_and_grads", "mx_steps", "torch_steps", "mx_lrs", "torch_lrs", "mx_init",
           "torch_init"]


def _np_dtype(dtype) -> str:
    return str(dtype).replace("torch.", "")


def start_and_grads(shape=(3, 4), steps=5, seed=0, dtype="float64"):
    """The start weights and the gradient of each step (uniform in [-1, 1))."""
    rng = onp.random.default_rng(seed + 42)
    w0 = rng.uniform(-1, 1, shape).astype(_np_dtype(dtype))
    grads = [rng.uniform(-1, 1, shape).astype(_np_dtype(dtype)) for _ in range(steps)]
    return w0, grads


def mx_steps(optimizer, dtype="float64", shape=(3, 4), steps=5, seed=0):
    """The weights after each of ``steps`` updates by the MXNet ``optimizer`` (an instance:
    ``mx.optimizer.create('adam', learning_rate=0.01)``)."""
    import mxnet as mx

    w0, grads = start_and_grads(shape, steps, seed, dtype)
    updater = mx.optimizer.get_updater(optimizer)
    w = mx.nd.array(w0, dtype=w0.dtype)
    out = []
    for g in grads:
        updater(0, mx.nd.array(g, dtype=g.dtype), w)
        out.append(w.asnumpy().copy())
    return out


def torch_steps(make_optimizer, dtype="float64", shape=(3, 4), steps=5, seed=0):
    """The weights after each of ``steps`` updates by ``make_optimizer([p])`` (a callable:
    ``lambda ps: torch.optim.Adam(ps, lr=0.01)``)."""
    import torch

    w0, grads = start_and_grads(shape, steps, seed, _np_dtype(dtype))
    p = torch.nn.Parameter(torch.from_numpy(w0.copy()))
    opt = make_optimizer([p])
    out = []
    for g in grads:
        p.grad = torch.from_numpy(g.copy())
        opt.step()
        out.append(p.detach().numpy().copy())
    return out


def mx_lrs(scheduler, updates=12, base_lr=None):
    """The learning rate of each of ``updates`` SGD updates made with ``lr_scheduler=
    scheduler`` (gradient 1, so each update moves the weight by its learning rate)."""
    import mxnet as mx

    kw = {"learning_rate": base_lr} if base_lr is not None else {}
    opt = mx.optimizer.create("sgd", lr_scheduler=scheduler, **kw)
    updater = mx.optimizer.get_updater(opt)
    w = mx.nd.zeros((1,), dtype="float64")
    out = []
    for _ in range(updates):
        before = float(w.asscalar())
        updater(0, mx.nd.ones((1,), dtype="float64"), w)
        out.append(before - float(w.asscalar()))
    return onp.array(out)


def torch_lrs(make_scheduler, base_lr, updates=12):
    """The learning rate of each of ``updates`` SGD steps with ``make_scheduler(optimizer)``
    stepped after every ``optimizer.step()``, as PyTorch's documentation orders them."""
    import torch

    p = torch.nn.Parameter(torch.zeros(1, dtype=torch.float64))
    opt = torch.optim.SGD([p], lr=base_lr)
    sched = make_scheduler(opt)
    out = []
    for _ in range(updates):
        before = p.item()
        p.grad = torch.ones(1, dtype=torch.float64)
        opt.step()
        sched.step()
        out.append(before - p.item())
    return onp.array(out)


def mx_init(initializer, shape, name="weight", dtype="float64", seed=0):
    """The values ``initializer`` gives a parameter called ``name`` (MXNet dispatches on the
    name's suffix: ``weight``, ``bias``, ``gamma``, …) of ``shape``."""
    import mxnet as mx

    mx.random.seed(seed)
    arr = mx.nd.zeros(shape, dtype=_np_dtype(dtype))
    initializer(mx.init.InitDesc(name), arr)
    return arr.asnumpy()


def torch_init(fill, shape, dtype="float64", seed=0):
    """The values ``fill(tensor)`` writes into an empty tensor of ``shape``
    (``lambda t: torch.nn.init.uniform_(t, -0.07, 0.07)``)."""
    import torch

    torch.manual_seed(seed)
    t = torch.empty(shape, dtype=getattr(torch, _np_dtype(dtype)))
    with torch.no_grad():
        fill(t)
    return t.numpy().copy()
