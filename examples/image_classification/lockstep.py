"""Train ``image_classification.py``'s network (Gluon) and ``main_torch.py``'s in lockstep and
measure how far apart they get.

The MXNet side leads: a model-zoo network initialised as the legacy script does
(``Xavier(magnitude=2.24)``), its weights copied into the PyTorch port's network with
``sidebyside.transfer.gluon_to_torch`` (what ``python -m sidebyside.convert`` does to a saved
file). Both see the same batches (``MNISTIter``'s pixels / 256) in the same order and take
the same SGD steps with the same weight decay: Gluon's ``Trainer('sgd')`` +
``SoftmaxCrossEntropyLoss`` and ``trainer.step(batch_size)``, PyTorch's ``optim.SGD`` +
``CrossEntropyLoss``. (The ResNets have no dropout or other random op in ``forward``, so there
are no random draws to share; ``examples/mnist/lockstep.py`` shares its dropout masks.)

- :func:`run`: one dtype, the port against the legacy network (and, as a probe of how
  sensitive training is, against a copy of the port whose weights are nudged by
  ``1 + perturb·N(0, 1)``): losses, weight gaps, BatchNorm running-statistics gaps.
- :func:`drift`: four runs — the legacy network and the port, each in float32 and float64 —
  judged with ``sidebyside.drift``: the float32 gap between the two against the larger of each
  framework's own float32-vs-float64 drift, at every step (losses) and every few steps
  (weights). Its float64 pair is the float64 proof.

Two things decide how close "the same" can get:

- MXNet's SGD kernel receives the learning rate and weight decay as float32 numbers, even for
  float64 weights. PyTorch is therefore given ``float32(lr)`` and ``float32(wd)``; with the
  unrounded 0.01 the float64 runs differ by ~1e-8 after one step.
- BatchNorm makes training sensitive to tiny differences: at batch size 8 two *PyTorch* runs
  whose weights differ by 1e-14 drift apart by 1e-9 in 12 steps. At the script's 32 the
  drift is slow.

Used by notebook 16 and ``tests/test_examples_image_classification.py``. Command line:
``python lockstep.py --steps 300`` runs a long float64 lockstep and prints the gaps;
``--dtype float32`` runs :func:`drift` and judges the float32 port (exit status 1 when it fails).
"""
from __future__ import annotations

import argparse
import importlib.util
import sys
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

import mxnet as mx
import numpy as np
import torch
import torch.nn.functional as F
from mxnet import autograd, gluon
from mxnet.gluon.model_zoo import vision as models

from sidebyside import data, drift as yardstick, transfer
from sidebyside.optim import f32

HERE = Path(__file__).resolve().parent
LR, WD = 0.01, 1e-4          # the legacy script's defaults


def _load(name):
    spec = importlib.util.spec_from_file_location(f"image_classification_{name}", HERE / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


main_torch = _load("main_torch")


def batches(n: int, batch_size: int = 32, seed: int = 0, dataset: str | None = None,
            train: bool = True) -> list:
    """``n`` batches of a fixed shuffle of the IDX files, as ``MNISTIter`` scales them (/256)."""
    name = data.dataset_name(dataset)
    data.prepare(name)
    images = main_torch.IDXImages(data.raw_dir(name), train)
    order = np.random.default_rng(seed).permutation(len(images))[: n * batch_size]
    x = images.images.numpy()[order].astype(np.float64)
    y = images.labels.numpy()[order]
    return [(x[i:i + batch_size], y[i:i + batch_size]) for i in range(0, len(order), batch_size)]


def gluon_net(model: str = "resnet18_v1", classes: int = 10, thumbnail: bool = False,
              dtype: str = "float32", seed: int = 123):
    """The legacy script's network: model zoo, ``Xavier(magnitude=2.24)``, shapes from a batch."""
    mx.random.seed(seed)
    net = models.get_model(model, classes=classes, thumbnail=thumbnail)
    net.initialize(mx.init.Xavier(magnitude=2.24))
    net(mx.nd.zeros((1, 1, 28, 28)))
    net.cast(dtype)
    return net


def torch_copy(gnet, model: str = "resnet18_v1", classes: int = 10, thumbnail: bool = False,
               dtype: str = "float32"):
    """The port's network holding ``gnet``'s weights and running statistics."""
    tnet = main_torch.get_model(model, classes, thumbnail, in_channels=1).to(getattr(torch, dtype))
    transfer.gluon_to_torch(gnet, tnet, by="order")   # the same layers, other names
    return tnet


def _gluon_step(net, trainer, loss_fn, x, y):
    with autograd.record():
        loss = loss_fn(net(x), y)
    loss.backward()
    trainer.step(x.shape[0])
    return loss.mean().asscalar()


def _torch_step(net, optimizer, x, y):
    optimizer.zero_grad()
    loss = F.cross_entropy(net(x), y)
    loss.backward()
    optimizer.step()
    return loss.item()


class _States:
    """The trainable weights and the BatchNorm running statistics of a port network and of
    the Gluon network it was copied from, as numpy, in the port's order (layers paired once)."""

    def __init__(self, tnet, gnet):
        self.pairs = transfer.pair_layers(tnet, gnet, by="order")

    def __call__(self):
        """((port weights, Gluon weights), (port running statistics, Gluon's))."""
        out = {"weights": ([], []), "running": ([], [])}
        for pair in self.pairs:
            for t_attr, t, g in pair.tensors():
                if t is None:
                    continue
                kind = "running" if t_attr.startswith("running_") else "weights"
                out[kind][0].append(t.detach().numpy())
                out[kind][1].append(g.data().asnumpy())
        return out["weights"], out["running"]


def _relative_gap(mine, theirs) -> float:
    return max(float(np.abs(a.astype(np.float64) - b).max()
                     / max(float(np.abs(a).max()), 1e-300)) for a, b in zip(mine, theirs))


def _torch_states(tnet):
    weights, running = [], []
    for name, a in tnet.state_dict().items():
        if not name.endswith("num_batches_tracked"):
            (running if "running_" in name else weights).append(a.numpy())
    return weights, running


def _gaps(tnet, other, states):
    """(largest relative gap over the trainable weights, over the BatchNorm running statistics)."""
    if isinstance(other, torch.nn.Module):
        (mine_w, mine_r), (theirs_w, theirs_r) = _torch_states(tnet), _torch_states(other)
    else:
        (mine_w, theirs_w), (mine_r, theirs_r) = states()
    return _relative_gap(mine_w, theirs_w), _relative_gap(mine_r, theirs_r)


@dataclass
class Run:
    dtype: str
    followers: tuple      # "gluon" (the legacy script's network), "torch" (a nudged port)
    losses: np.ndarray    # (steps, 1 + followers): the port's loss, then each follower's
    weight_gaps: np.ndarray   # (checks, followers)
    running_gaps: np.ndarray  # (checks, followers): BatchNorm running mean/var
    checked_at: np.ndarray
    seconds: float

    def loss_gap_of(self, follower):
        return np.abs(self.losses[:, 0] - self.losses[:, 1 + self.followers.index(follower)])

    def weight_gap_of(self, follower):
        return self.weight_gaps[:, self.followers.index(follower)]


def run(batch_list, dtype="float64", against=("gluon",), lr=LR, wd=WD, model="resnet18_v1",
        thumbnail=False, perturb=1e-7, check_every=10, seed=123, port_args=None) -> Run:
    """Train the port's network on ``batch_list`` and, step for step, each follower in
    ``against``: ``"gluon"``, the legacy script's Gluon network it was copied from, and/or
    ``"torch"``, a second port whose weights are multiplied by ``1 + perturb·N(0, 1)`` — a probe
    of how sensitive the training is, not a float32 yardstick (that is :func:`drift`).
    ``port_args`` overrides the port's ``optim.SGD`` arguments (a deliberate porting slip,
    e.g. ``{"weight_decay": 0}``, or ``{"lr": 0.01}`` unrounded)."""
    against = (against,) if isinstance(against, str) else tuple(against)
    if not against or set(against) - {"gluon", "torch"} or len(set(against)) != len(against):
        raise ValueError(f"against must name 'gluon' and/or 'torch' once each, not {against!r}")
    tic = time.time()
    gnet = gluon_net(model, 10, thumbnail, dtype, seed)
    tnet = torch_copy(gnet, model, 10, thumbnail, dtype)
    # PyTorch gets the numbers MXNet's kernel sees: float32 learning rate and weight decay
    lr32, wd32 = f32(lr), f32(wd)
    followers = []
    for name in against:
        if name == "gluon":
            trainer = gluon.Trainer(gnet.collect_params(), "sgd",
                                    {"learning_rate": lr, "wd": wd})
            loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
            followers.append((gnet, lambda net, x, y, t=trainer, f=loss_fn: _gluon_step(
                net, t, f, mx.nd.array(x, dtype=dtype), mx.nd.array(y, dtype=dtype))))
        else:
            other = torch_copy(gnet, model, 10, thumbnail, dtype)
            noise = torch.Generator().manual_seed(seed + 1)
            with torch.no_grad():
                for p in other.parameters():
                    p.mul_(1 + perturb * torch.randn(p.shape, generator=noise, dtype=p.dtype))
            opt = torch.optim.SGD(other.parameters(), lr=lr32, weight_decay=wd32)
            followers.append((other, lambda net, x, y, o=opt: _torch_step(
                net, o, torch.from_numpy(x.astype(dtype)), torch.from_numpy(y).long())))
    optimizer = torch.optim.SGD(tnet.parameters(), **{"lr": lr32, "weight_decay": wd32,
                                                      **(port_args or {})})
    states = _States(tnet, gnet)
    losses, wgaps, rgaps, at = [], [], [], []
    for step, (x, y) in enumerate(batch_list, start=1):
        row = [_torch_step(tnet, optimizer, torch.from_numpy(x.astype(dtype)),
                           torch.from_numpy(y).long())]
        row += [step_fn(net, x, y) for net, step_fn in followers]
        losses.append(row)
        if step % check_every == 0 or step == len(batch_list):
            pairs = [_gaps(tnet, net, states) for net, _ in followers]
            wgaps.append([w for w, _ in pairs])
            rgaps.append([r for _, r in pairs])
            at.append(step)
    return Run(dtype, against, np.array(losses), np.array(wgaps), np.array(rgaps),
               np.array(at), time.time() - tic)


@dataclass
class DriftRun:
    """What :func:`drift` measured: four runs, judged by ``sidebyside.drift``."""
    losses: np.ndarray         # (steps, 4): port f32, port f64, legacy f32, legacy f64
    loss: yardstick.Drift      # the per-step losses, judged
    weights: yardstick.Drift   # the trainable weights (relative per tensor), judged
    running_gaps: np.ndarray   # (checks,): float64 BatchNorm running statistics, port vs legacy
    seconds: float

    @property
    def ok(self) -> bool:
        return self.loss.ok and self.weights.ok


def drift(batch_list, lr=LR, wd=WD, model="resnet18_v1", thumbnail=False, check_every=10,
          seed=123, factor=yardstick.DEFAULT_FACTOR, port_args=None) -> DriftRun:
    """The legacy network and the port, each in float32 and float64, from the same initial
    weights on ``batch_list``; the float32 gap judged against each framework's own
    float32-vs-float64 drift, with ``factor``. ``port_args`` as for :func:`run`."""
    if not batch_list:
        raise ValueError("batch_list is empty: nothing to train")
    if isinstance(check_every, bool) or not isinstance(check_every, int) or check_every < 1:
        raise ValueError(f"check_every must be an int >= 1, not {check_every!r}")
    tic = time.time()
    nets = {}
    for dtype in ("float32", "float64"):
        gnet = gluon_net(model, 10, thumbnail, dtype, seed)
        tnet = torch_copy(gnet, model, 10, thumbnail, dtype)
        trainer = gluon.Trainer(gnet.collect_params(), "sgd", {"learning_rate": lr, "wd": wd})
        optimizer = torch.optim.SGD(tnet.parameters(), **{"lr": f32(lr), "weight_decay": f32(wd),
                                                          **(port_args or {})})
        nets[dtype] = (tnet, optimizer, gnet, trainer, _States(tnet, gnet))
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    loss = yardstick.Drift("loss", factor=factor)
    weights = yardstick.Drift("weights", relative=True, factor=factor)
    losses, running = [], []
    for step, (x, y) in enumerate(batch_list, start=1):
        row = {}
        for dtype, (tnet, optimizer, gnet, trainer, _) in nets.items():
            row["torch", dtype] = _torch_step(tnet, optimizer, torch.from_numpy(x.astype(dtype)),
                                              torch.from_numpy(y).long())
            row["gluon", dtype] = _gluon_step(gnet, trainer, loss_fn, mx.nd.array(x, dtype=dtype),
                                              mx.nd.array(y, dtype=dtype))
        four = [row[side, dtype] for side in ("torch", "gluon") for dtype in ("float32", "float64")]
        losses.append(four)
        loss.add(*four, step=step)
        if step % check_every == 0 or step == len(batch_list):
            (t32, g32), _ = nets["float32"][4]()
            (t64, g64), (r_t64, r_g64) = nets["float64"][4]()
            weights.add(t32, t64, g32, g64, step=step)
            running.append(_relative_gap(r_t64, r_g64))
    return DriftRun(np.array(losses), loss, weights, np.array(running), time.time() - tic)


def _positive(text):
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=_positive, default=300)
    parser.add_argument("--batch-size", type=_positive, default=32)
    parser.add_argument("--dtype", default="float64", choices=["float32", "float64"],
                        help="float64: the float64 lockstep; float32: the float32 port, judged "
                             "by each framework's own float32 drift (runs float64 too)")
    parser.add_argument("--lr", type=float, default=LR)
    parser.add_argument("--wd", type=float, default=WD)
    parser.add_argument("--model", default="resnet18_v1", choices=sorted(main_torch.RESNETS))
    parser.add_argument("--check-every", type=_positive, default=None,
                        help="compare the weights every N steps (default: a tenth of --steps)")
    parser.add_argument("--factor", type=float, default=yardstick.DEFAULT_FACTOR,
                        help="float32: the gap may be at most FACTOR x the larger drift (2)")
    opt = parser.parse_args(argv)
    if not opt.factor > 0:
        parser.error(f"--factor must be > 0, got {opt.factor}")
    every = opt.check_every or max(1, opt.steps // 10)
    batch_list = batches(opt.steps, opt.batch_size)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if opt.dtype == "float64":
            result = run(batch_list, "float64", lr=opt.lr, wd=opt.wd, model=opt.model,
                         check_every=every)
        else:
            judged = drift(batch_list, lr=opt.lr, wd=opt.wd, model=opt.model, check_every=every,
                           factor=opt.factor)
    if opt.dtype == "float64":
        for step, w, r in zip(result.checked_at, result.weight_gaps[:, 0],
                              result.running_gaps[:, 0]):
            print(f"step {step:4d}: weights {w:.1e}, running statistics {r:.1e}")
        print(f"largest loss gap {result.loss_gap_of('gluon').max():.1e}; "
              f"loss {result.losses[0, 0]:.3f} -> {result.losses[-10:, 0].mean():.3f}; "
              f"{result.seconds:.0f} s")
        return 0
    w = judged.weights
    for i, step in enumerate(w.steps):
        print(f"step {step:4d}: weights gap {w.gap[i]:.1e}, drift port {w.torch_drift[i]:.1e} / "
              f"MXNet {w.gluon_drift[i]:.1e}, float64 gap {w.float64_gap[i]:.1e}")
    print(judged.loss)
    print(judged.weights)
    print(f"loss {judged.losses[0, 0]:.3f} -> {judged.losses[-10:, 0].mean():.3f} (port, "
          f"float32); {judged.seconds:.0f} s")
    if not judged.ok:
        print("the float32 gap is NOT within the drift", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
