"""Train ``main.py``'s network and ``main_gluon.py``'s in lockstep and measure how far apart they get.

Both start from the same weights (PyTorch's, copied into Gluon by ``sidebyside.transfer``),
see the same batches in the same order, and take the same optimizer steps (Adadelta: PyTorch's
``optim.Adadelta``, Gluon's ``TorchAdadelta``). Dropout is switched off *by construction* —
each dropout layer is replaced by one with rate 0, on both sides — so both keep training in
their normal mode: PyTorch ``model.train()``, Gluon ``autograd.record()``. (Switching it off
with Gluon's ``record(train_mode=False)`` is not safe: notebook 5 shows a backward that is
wrong under it.)

After every step the two losses are compared, and every few steps the largest weight
difference relative to the weight's size. In float64 a faithful port stays within ~1e-12;
a porting error shows up as a jump. In float32 the gap grows from rounding alone; its yardstick
is the gap between two PyTorch runs whose initial weights differ by one part in 10⁷
(``perturb=1e-7``).

Used by notebook 15 and ``tests/test_examples_mnist.py``.
"""
from __future__ import annotations

import importlib.util
import sys
from dataclasses import dataclass
from pathlib import Path

import mxnet as mx
import numpy as np
import torch
import torch.nn.functional as F
from mxnet import autograd, gluon

from sidebyside import data, transfer

HERE = Path(__file__).resolve().parent


def load_script(name: str):
    """Import ``main.py`` or ``main_gluon.py`` from this folder as a module."""
    spec = importlib.util.spec_from_file_location(f"mnist_{name}", HERE / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module        # so that inspect.getsource finds its classes
    spec.loader.exec_module(module)
    return module


main_torch = load_script("main")
main_gluon = load_script("main_gluon")


def batches(n: int, batch_size: int, seed: int = 0, dataset: str | None = None) -> list:
    """The first ``n`` shuffled training batches, normalised as the scripts do, as numpy."""
    spec = data.SPECS[data.dataset_name(dataset)]
    images = data.torch_dataset(spec.name, train=True)
    order = np.random.default_rng(seed).permutation(len(images))[: n * batch_size]
    x = (images.data.numpy()[order].astype(np.float64) / 255 - spec.mean) / spec.std
    y = images.targets.numpy()[order]
    return [(x[i:i + batch_size, None], y[i:i + batch_size])
            for i in range(0, n * batch_size, batch_size)]


def without_dropout(*models):
    """Replace both dropout layers of each network by one with rate 0, of its own framework."""
    for model in models:
        dropout = torch.nn.Dropout if isinstance(model, torch.nn.Module) else gluon.nn.Dropout
        model.dropout1 = dropout(0.0)
        model.dropout2 = dropout(0.0)


@dataclass
class Run:
    """What :func:`run` measured: PyTorch's run against each follower (``"gluon"``, ``"torch"``)."""
    dtype: str
    followers: tuple           # the names of the runs that followed PyTorch's
    losses: np.ndarray         # (steps, 1 + followers): PyTorch's loss, then each follower's
    weight_gaps: np.ndarray    # (checks, followers): largest |w₁ − w₂| / largest |w₁|
    checked_at: np.ndarray     # the steps after which the weight gaps were measured

    def loss_gap_of(self, follower: str) -> np.ndarray:
        """|PyTorch's loss − the follower's| at every step."""
        i = self.followers.index(follower)
        return np.abs(self.losses[:, 0] - self.losses[:, 1 + i])

    def weight_gap_of(self, follower: str) -> np.ndarray:
        return self.weight_gaps[:, self.followers.index(follower)]

    @property
    def loss_gap(self) -> np.ndarray:
        """The first follower's :meth:`loss_gap_of`."""
        return self.loss_gap_of(self.followers[0])

    @property
    def weight_gap(self) -> np.ndarray:
        """The first follower's :meth:`weight_gap_of`."""
        return self.weight_gap_of(self.followers[0])


def _torch_step(model, optimizer, x, y):
    optimizer.zero_grad()
    loss = F.nll_loss(model(x), y)
    loss.backward()
    optimizer.step()
    return loss.item()


def _gluon_step(model, trainer, x, y):
    with autograd.record():
        loss = main_gluon.nll_loss(model(x), y)
    loss.backward()
    trainer.step(x.shape[0])
    return loss.mean().asscalar()


def _gap(torch_model, other) -> float:
    mine = [p.detach().numpy() for p in torch_model.parameters()]
    if isinstance(other, torch.nn.Module):
        theirs = [p.detach().numpy() for p in other.parameters()]
    else:
        # structural names ('conv1.weight'), the keys save_parameters writes: the same
        # attribute names as PyTorch's
        by_name = {k: p.data().asnumpy()
                   for k, p in other._collect_params_with_prefix().items()}
        theirs = [by_name[k] for k, _ in torch_model.named_parameters()]
    return max(float(np.abs(a.astype(np.float64) - b).max() / np.abs(a).max())
               for a, b in zip(mine, theirs))


def run(batch_list, dtype="float64", lr=1.0, seed=1, against=("gluon",), perturb=1e-7,
        check_every=10, gluon_optimizer="torchadadelta", gluon_optimizer_args=None) -> Run:
    """Train PyTorch's ``Net`` on ``batch_list`` and, step for step, each follower in
    ``against``: ``"gluon"``, Gluon's ``Net`` from the same initial weights, and/or ``"torch"``,
    a second PyTorch ``Net`` whose initial weights are multiplied by ``1 + perturb·N(0, 1)``.
    """
    against = (against,) if isinstance(against, str) else tuple(against)
    unknown = [a for a in against if a not in ("gluon", "torch")]
    if unknown or not against or len(set(against)) != len(against):
        raise ValueError(f"against must name 'gluon' and/or 'torch' once each, not {against!r}")
    torch.manual_seed(seed)
    pt = main_torch.Net().to(getattr(torch, dtype))
    without_dropout(pt)
    pt_opt = torch.optim.Adadelta(pt.parameters(), lr=lr)
    followers = []                     # (model, optimizer, step function, input conversion)
    for name in against:
        if name == "gluon":
            other = main_gluon.Net()
            other.initialize()
            other.cast(dtype)
            without_dropout(other)
            transfer.torch_to_gluon(pt, other)
            options = {"learning_rate": lr, **(gluon_optimizer_args or {})}
            followers.append((other, gluon.Trainer(other.collect_params(), gluon_optimizer,
                                                   options), _gluon_step,
                              lambda x, y: (mx.nd.array(x, dtype=dtype), mx.nd.array(y))))
        else:
            other = main_torch.Net().to(getattr(torch, dtype))
            without_dropout(other)
            other.load_state_dict(pt.state_dict())
            noise = torch.Generator().manual_seed(seed + 1)
            with torch.no_grad():
                for p in other.parameters():
                    p.mul_(1 + perturb * torch.randn(p.shape, generator=noise, dtype=p.dtype))
            followers.append((other, torch.optim.Adadelta(other.parameters(), lr=lr),
                              _torch_step, _to_torch(dtype)))
    pt.train()
    losses, gaps, at = [], [], []
    for step, (x, y) in enumerate(batch_list, start=1):
        row = [_torch_step(pt, pt_opt, *_to_torch(dtype)(x, y))]
        row += [step_fn(model, opt, *convert(x, y)) for model, opt, step_fn, convert in followers]
        losses.append(row)
        if step % check_every == 0 or step == len(batch_list):
            gaps.append([_gap(pt, model) for model, *_ in followers])
            at.append(step)
    return Run(dtype, against, np.array(losses), np.array(gaps), np.array(at))


def _to_torch(dtype):
    return lambda x, y: (torch.from_numpy(x.astype(dtype)), torch.from_numpy(y).long())
