"""Helpers for the ``optim`` group's checks: an optimizer's trajectory and a schedule's rates.

- :func:`mx_traj` / :func:`torch_traj`: the weights of one or more parameters after each of a
  few steps, from the same start and the same gradients. MXNet goes through ``gluon.Trainer``
  (``via="trainer"``: the gradients come from a backward pass, ``trainer.step(1)``) or through
  ``mx.optimizer.get_updater`` called as ``Trainer`` calls it (``via="updater"``: all indices
  of a step in one call); PyTorch sets ``p.grad`` and calls ``step(optimizer, params)``
  (``optimizer.step()`` unless given).
- :func:`mx_rates` / :func:`torch_rates`: the learning rate each update used. MXNet's is the
  rate the optimizer hands its update at each update (read off ``_get_lrs``, before MXNet's
  kernels round it to float32), counted as MXNet counts; PyTorch's is
  ``param_groups[0]["lr"]`` at each ``optimizer.step()``, the scheduler stepped after it.

Each returns numpy arrays in the run's dtype.
"""

from __future__ import annotations

import numpy as onp

__all__ = ["start", "mx_traj", "torch_traj", "mx_rates", "torch_rates"]


def _np_dtype(dtype) -> str:
    return str(dtype).replace("torch.", "")


def start(shapes=((2, 3),), steps=4, seed=0, dtype="float64", scale=1.0):
    """(start weights, gradients of each step): uniform in [-1, 1), gradients times ``scale``."""
    rng = onp.random.default_rng(seed + 42)
    dt = _np_dtype(dtype)
    w0 = [rng.uniform(-1, 1, s).astype(dt) for s in shapes]
    grads = [[(scale * rng.uniform(-1, 1, s)).astype(dt) for s in shapes]
             for _ in range(steps)]
    return w0, grads


def mx_traj(optimizer, options=None, dtype="float64", shapes=((2, 3),), steps=4, seed=0,
            scale=1.0, via="updater", before_step=None, names=None):
    """The weights after each step (a list per step, one array per parameter).

    ``optimizer``: a name and ``options`` (``via="trainer"``: ``gluon.Trainer(params,
    optimizer, options)``) or an ``mx.optimizer.Optimizer`` instance. ``before_step(obj, t)``
    runs before step ``t`` (1, 2, …) with the Trainer or the optimizer. ``names``: the
    parameters' names (Trainer path)."""
    import mxnet as mx

    dt = _np_dtype(dtype)
    w0, grads = start(shapes, steps, seed, dt, scale)
    out = []
    if via == "trainer":
        params = []
        for k, w in enumerate(w0):
            p = mx.gluon.Parameter(names[k] if names else f"p{k}_weight", shape=w.shape,
                                   dtype=dt)
            p.initialize(init=mx.init.Zero())
            p.set_data(mx.nd.array(w, dtype=dt))
            params.append(p)
        trainer = mx.gluon.Trainer(params, optimizer, options)
        for t, gs in enumerate(grads, 1):
            if before_step is not None:
                before_step(trainer, t)
            with mx.autograd.record():
                loss = mx.nd.add_n(*[(p.data() * mx.nd.array(g, dtype=dt)).sum()
                                     for p, g in zip(params, gs)])
            loss.backward()
            trainer.step(1)
            out.append([p.data().asnumpy().copy() for p in params])
        return out
    opt = optimizer if not isinstance(optimizer, str) else \
        mx.optimizer.create(optimizer, **(options or {}))
    updater = mx.optimizer.get_updater(opt)
    weights = [mx.nd.array(w, dtype=dt) for w in w0]
    for t, gs in enumerate(grads, 1):
        if before_step is not None:
            before_step(opt, t)
        nd_grads = [mx.nd.array(g, dtype=dt) for g in gs]
        if len(weights) == 1:
            updater(0, nd_grads[0], weights[0])
        else:
            updater(tuple(range(len(weights))), nd_grads, weights)
        out.append([w.asnumpy().copy() for w in weights])
    return out


def torch_traj(make_optimizer, dtype="float64", shapes=((2, 3),), steps=4, seed=0, scale=1.0,
               step=None, before_step=None, names=None):
    """The weights after each step: ``opt = make_optimizer(params)`` (a list of
    ``torch.nn.Parameter``), ``p.grad`` set, then ``step(opt, params)`` (default
    ``opt.step()``); ``before_step(opt, t)`` runs before step ``t``. ``names`` is accepted
    (and unused) so that both sides take the same options."""
    import torch

    dt = _np_dtype(dtype)
    w0, grads = start(shapes, steps, seed, dt, scale)
    params = [torch.nn.Parameter(torch.from_numpy(w.copy())) for w in w0]
    opt = make_optimizer(params)
    out = []
    for t, gs in enumerate(grads, 1):
        if before_step is not None:
            before_step(opt, t)
        for p, g in zip(params, gs):
            p.grad = torch.from_numpy(g.copy())
        if step is None:
            opt.step()
        else:
            step(opt, params)
        out.append([p.detach().numpy().copy() for p in params])
    return out


def mx_rates(scheduler, updates=12, base_lr=None, optimizer="sgd"):
    """The learning rate MXNet's optimizer uses at each of ``updates`` updates with
    ``lr_scheduler=scheduler`` (``learning_rate=base_lr`` when given)."""
    import mxnet as mx

    kw = {"learning_rate": base_lr} if base_lr is not None else {}
    cls = type(mx.optimizer.create(optimizer))
    seen = []

    class Recorder(cls):
        def _get_lrs(self, indices):
            lrs = super()._get_lrs(indices)
            seen.append(lrs[0])
            return lrs

    opt = Recorder(lr_scheduler=scheduler, **kw)
    updater = mx.optimizer.get_updater(opt)
    w = mx.nd.zeros((1,), dtype="float64")
    for _ in range(updates):
        updater(0, mx.nd.ones((1,), dtype="float64"), w)
    return onp.array(seen, dtype=onp.float64)


def torch_rates(make_scheduler, base_lr, updates=12):
    """The learning rate of each of ``updates`` SGD steps, ``make_scheduler(optimizer)``
    stepped after every ``optimizer.step()``."""
    import torch

    p = torch.nn.Parameter(torch.zeros(1, dtype=torch.float64))
    opt = torch.optim.SGD([p], lr=base_lr)
    sched = make_scheduler(opt)
    out = []
    for _ in range(updates):
        out.append(opt.param_groups[0]["lr"])
        p.grad = torch.ones(1, dtype=torch.float64)
        opt.step()
        sched.step()
    return onp.array(out, dtype=onp.float64)
