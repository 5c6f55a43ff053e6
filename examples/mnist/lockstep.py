"""Train ``main.py``'s network and ``main_gluon.py``'s in lockstep and measure how far apart they get.

Both start from the same weights (PyTorch's, copied into Gluon by ``sidebyside.transfer``),
see the same batches in the same order, and take the same optimizer steps (Adadelta: PyTorch's
``optim.Adadelta``, Gluon's ``TorchAdadelta``). Dropout stays on, as the scripts train — PyTorch
in ``model.train()``, Gluon inside ``autograd.record()`` — and both drop the same units: every
dropout layer on both sides takes its masks from one ``sidebyside.samerandom`` source
(``dropout="same"``). ``dropout="own"`` leaves each framework its own generator (the runs then
part at the first step), ``"off"`` replaces the layers by rate 0.

- :func:`run`: one dtype, PyTorch against Gluon: the two losses at every step, and every few
  steps the largest weight difference relative to the weight's size. In float64 a faithful port
  stays within ~1e-12; a porting error shows as a jump.
- :func:`drift`: four runs — PyTorch and Gluon, each in float32 and float64 — judged with
  ``sidebyside.drift``: the float32 gap between the two scripts against the larger of each
  framework's own float32-vs-float64 drift, at every step (losses) and every few steps
  (weights). Its float64 pair is the float64 proof.

Command line: ``python examples/mnist/lockstep.py --steps 200`` runs :func:`drift` and prints
the judgement (``--help`` lists the flags); exit status 1 when the port fails it.

Used by notebook 15 and ``tests/test_examples_mnist.py``.
"""
from __future__ import annotations

import argparse
import copy
import importlib.util
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import mxnet as mx
import numpy as np
import torch
import torch.nn.functional as F
from mxnet import autograd, gluon

from sidebyside import data, drift as yardstick, samerandom, transfer

HERE = Path(__file__).resolve().parent
DROPOUT = ("same", "own", "off")
RUNS = yardstick.RUNS          # torch_f32, torch_f64, gluon_f32, gluon_f64


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


def _check(dropout, check_every):
    if dropout not in DROPOUT:
        raise ValueError(f"dropout must be one of {DROPOUT}, not {dropout!r}")
    if isinstance(check_every, bool) or not isinstance(check_every, int) or check_every < 1:
        raise ValueError(f"check_every must be an int >= 1, not {check_every!r}")


class _Pair:
    """PyTorch's and Gluon's network in one dtype, from the same initial weights, with their
    optimizers and (for ``dropout="same"``) their streams of one ``Draws``."""

    def __init__(self, base, dtype, dropout, draws, lr, gluon_optimizer, gluon_optimizer_args):
        self.dtype = dtype
        self.pt = copy.deepcopy(base).to(getattr(torch, dtype))
        self.mx = main_gluon.Net()
        self.mx.initialize()
        self.mx.cast(dtype)
        transfer.torch_to_gluon(self.pt, self.mx)
        if dropout == "off":
            without_dropout(self.pt, self.mx)
        elif dropout == "same":
            replaced = [samerandom.use_same_dropout(self.pt, draws.stream(f"PyTorch {dtype}")),
                        samerandom.use_same_dropout(self.mx, draws.stream(f"Gluon {dtype}"))]
            assert replaced[0] == replaced[1] == ["dropout1", "dropout2"], replaced
        self.pt.train()
        self.pt_opt = torch.optim.Adadelta(self.pt.parameters(), lr=lr)
        self.trainer = gluon.Trainer(self.mx.collect_params(), gluon_optimizer,
                                     {"learning_rate": lr, **(gluon_optimizer_args or {})})

    def step(self, x, y):
        """One step of both on the batch; (PyTorch's loss, Gluon's loss)."""
        dtype = self.dtype
        pt_loss = _torch_step(self.pt, self.pt_opt, torch.from_numpy(x.astype(dtype)),
                              torch.from_numpy(y).long())
        mx_loss = _gluon_step(self.mx, self.trainer, mx.nd.array(x, dtype=dtype), mx.nd.array(y))
        return pt_loss, mx_loss

    def weights(self):
        """(PyTorch's weights, Gluon's), as numpy, in PyTorch's order: Gluon's by their
        structural names ('conv1.weight'), the keys save_parameters writes."""
        names = [k for k, _ in self.pt.named_parameters()]
        by_name = {k: p.data().asnumpy() for k, p in self.mx._collect_params_with_prefix().items()}
        return ([p.detach().numpy() for p in self.pt.parameters()], [by_name[k] for k in names])


def _base(seed):
    torch.manual_seed(seed)
    mx.random.seed(seed)             # dropout="own": Gluon's masks from its own generator
    return main_torch.Net()          # float32 weights: every run starts from these values


def _relative_gap(mine, theirs) -> float:
    return max(float(np.abs(a.astype(np.float64) - b).max() / np.abs(a).max())
               for a, b in zip(mine, theirs))


@dataclass
class Run:
    """What :func:`run` measured: PyTorch's run against Gluon's, in one dtype."""
    dtype: str
    dropout: str
    losses: np.ndarray         # (steps, 2): PyTorch's loss, Gluon's
    weight_gap: np.ndarray     # (checks,): largest |w_PyTorch − w_Gluon| / largest |w_PyTorch|
    checked_at: np.ndarray     # the steps after which the weight gaps were measured

    @property
    def loss_gap(self) -> np.ndarray:
        """|PyTorch's loss − Gluon's| at every step (each computed before the step's update)."""
        return np.abs(self.losses[:, 0] - self.losses[:, 1])


def run(batch_list, dtype="float64", lr=1.0, seed=1, check_every=10, dropout="same",
        gluon_optimizer="torchadadelta", gluon_optimizer_args=None) -> Run:
    """Train PyTorch's ``Net`` and Gluon's from the same initial weights on ``batch_list``,
    step for step, in ``dtype``. ``gluon_optimizer_args`` adds to (or overrides) Gluon's
    optimizer options: a deliberate porting slip, e.g. ``{"epsilon": 1e-5}``."""
    _check(dropout, check_every)
    draws = samerandom.Draws(seed)
    pair = _Pair(_base(seed), dtype, dropout, draws, lr, gluon_optimizer, gluon_optimizer_args)
    losses, gaps, at = [], [], []
    for step, (x, y) in enumerate(batch_list, start=1):
        losses.append(pair.step(x, y))
        if step % check_every == 0 or step == len(batch_list):
            gaps.append(_relative_gap(*pair.weights()))
            at.append(step)
    return Run(dtype, dropout, np.array(losses), np.array(gaps), np.array(at))


@dataclass
class DriftRun:
    """What :func:`drift` measured: four runs, judged by ``sidebyside.drift``."""
    losses: np.ndarray         # (steps, 4): the losses of torch_f32, torch_f64, gluon_f32, gluon_f64
    loss: yardstick.Drift      # the per-step losses, judged
    weights: yardstick.Drift   # the weights (relative per tensor) every check_every steps
    seconds: float

    @property
    def ok(self) -> bool:
        return self.loss.ok and self.weights.ok


def drift(batch_list, lr=1.0, seed=1, check_every=10, dropout="same",
          factor=yardstick.DEFAULT_FACTOR, gluon_optimizer="torchadadelta",
          gluon_optimizer_args=None) -> DriftRun:
    """PyTorch and Gluon, each in float32 and float64, from the same initial weights on
    ``batch_list`` (the same dropout masks for all four with ``dropout="same"``); the float32
    gap judged against each framework's own float32-vs-float64 drift, with ``factor``."""
    _check(dropout, check_every)
    if not batch_list:
        raise ValueError("batch_list is empty: nothing to train")
    tic = time.time()
    base, draws = _base(seed), samerandom.Draws(seed)
    pairs = {dtype: _Pair(base, dtype, dropout, draws, lr, gluon_optimizer, gluon_optimizer_args)
             for dtype in ("float32", "float64")}
    loss = yardstick.Drift("loss", factor=factor)
    weights = yardstick.Drift("weights", relative=True, factor=factor)
    losses = []
    for step, (x, y) in enumerate(batch_list, start=1):
        (pt32, mx32), (pt64, mx64) = (pairs[d].step(x, y) for d in ("float32", "float64"))
        losses.append((pt32, pt64, mx32, mx64))
        loss.add(pt32, pt64, mx32, mx64, step=step)
        if step % check_every == 0 or step == len(batch_list):
            (w_pt32, w_mx32), (w_pt64, w_mx64) = (pairs[d].weights()
                                                  for d in ("float32", "float64"))
            weights.add(w_pt32, w_pt64, w_mx32, w_mx64, step=step)
    return DriftRun(np.array(losses), loss, weights, time.time() - tic)


def _positive(text):
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description="Train main.py's and main_gluon.py's networks in lockstep, in float32 and "
                    "float64, and judge the float32 gap by each framework's own float32 drift.")
    parser.add_argument("--steps", type=_positive, default=200, help="training steps (200)")
    parser.add_argument("--batch-size", type=_positive, default=16, help="batch size (16)")
    parser.add_argument("--check-every", type=_positive, default=10,
                        help="compare the weights every N steps (10)")
    parser.add_argument("--dropout", choices=DROPOUT, default="same",
                        help="same masks on both sides (same), each its own (own), rate 0 (off)")
    parser.add_argument("--lr", type=float, default=1.0, help="Adadelta's learning rate (1.0)")
    parser.add_argument("--seed", type=int, default=1, help="initial weights and masks (1)")
    parser.add_argument("--factor", type=float, default=yardstick.DEFAULT_FACTOR,
                        help="the gap may be at most FACTOR x the larger drift (2)")
    parser.add_argument("--dataset", choices=sorted(data.SPECS), default=None,
                        help="fashion-mnist or mnist (default: $SIDEBYSIDE_DATASET, else "
                             "fashion-mnist)")
    opt = parser.parse_args(argv)
    if not opt.factor > 0:
        parser.error(f"--factor must be > 0, got {opt.factor}")
    try:
        dataset = data.dataset_name(opt.dataset)
    except ValueError as err:
        parser.error(str(err))
    result = drift(batches(opt.steps, opt.batch_size, dataset=dataset), lr=opt.lr,
                   seed=opt.seed, check_every=opt.check_every, dropout=opt.dropout,
                   factor=opt.factor)
    w = result.weights
    print(f"{'step':>5}  {'weights: gap':>12}  {'PyTorch drift':>13}  {'Gluon drift':>11}  "
          f"{'float64 gap':>11}")
    for i, step in enumerate(w.steps):
        print(f"{step:5d}  {w.gap[i]:12.1e}  {w.torch_drift[i]:13.1e}  {w.gluon_drift[i]:11.1e}  "
              f"{w.float64_gap[i]:11.1e}")
    for judged in (result.loss, result.weights):
        print(judged)
    print(f"loss {result.losses[0, 0]:.3f} -> {result.losses[-10:, 0].mean():.3f} "
          f"(PyTorch float32, last 10 steps); {result.seconds:.0f} s")
    if not result.ok:
        print("the float32 gap is NOT within the drift", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
