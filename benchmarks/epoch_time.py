"""Time one training epoch of the four-step MLP (notebook 3) in PyTorch and in MXNet Gluon.

Not a test: it prints numbers for reading. Each framework trains the 784-256-10 MLP
(SGD, learning rate 0.1, batch 128) for one epoch through its own data pipeline, as in the
seed article, and the clock stops only after the work is done (``mx.nd.waitall()``; on a
GPU ``torch.cuda.synchronize()``). For Gluon the script also prints the time at which the
loop *returned* without waiting — the wrong number a lazy engine gives — once with the
data pipeline in the loop and once over batches already in memory.

    SIDEBYSIDE_DATASET=fashion-mnist .venv/bin/python benchmarks/epoch_time.py --workers 0 2

Both frameworks compute with the same number of threads, MXNet's (half the CPUs unless
``MXNET_OMP_MAX_THREADS`` is set; see ``sidebyside.threads``), printed first. Timings depend on
the machine and its load: run it on an idle machine, and more than once.
"""
from __future__ import annotations

import argparse
import itertools
import time

import mxnet as mx
import torch
from mxnet import autograd, gluon
from mxnet.gluon.data.vision import transforms as mx_transforms
from torchvision import transforms as pt_transforms

from sidebyside import data, devices, seeding, threads, timing

BATCH, LR = 128, 0.1


def torch_epoch(loader, pt_dev) -> float:
    net = torch.nn.Sequential(torch.nn.Linear(784, 256), torch.nn.ReLU(),
                              torch.nn.Linear(256, 10)).to(pt_dev)
    opt = torch.optim.SGD(net.parameters(), lr=LR)
    loss_fn = torch.nn.CrossEntropyLoss()
    tic = time.perf_counter()
    for X, y in loader:
        X, y = X.to(pt_dev), y.to(pt_dev)
        opt.zero_grad()
        loss = loss_fn(net(X.view(-1, 784)), y)
        loss.backward()
        opt.step()
    timing.sync()  # all MXNet work, and CUDA's when there is a GPU
    return time.perf_counter() - tic


def gluon_epoch(batches, ctx, pt_dev) -> tuple[float, float]:
    """(seconds until the loop returned, seconds until the work was done)."""
    net = gluon.nn.Sequential()
    net.add(gluon.nn.Dense(256, activation="relu"), gluon.nn.Dense(10))
    net.initialize(ctx=ctx)
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": LR})
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    total = mx.nd.zeros((1,), ctx=ctx)
    tic = time.perf_counter()
    for X, y in batches:
        X, y = X.as_in_context(ctx), y.as_in_context(ctx)
        with autograd.record():
            loss = loss_fn(net(X), y)
        loss.backward()
        trainer.step(X.shape[0])
        total += loss.mean()            # no .asscalar(): nothing waits
    returned = time.perf_counter() - tic
    timing.sync()  # all MXNet work, and CUDA's when there is a GPU
    return returned, time.perf_counter() - tic


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, nargs="+", default=[0],
                        help="num_workers values to try (default: 0)")
    parser.add_argument("--cpu", action="store_true", help="use the CPU even with a GPU")
    args = parser.parse_args(argv)
    if any(w < 0 for w in args.workers):
        parser.error("--workers must be >= 0")

    seeding.seed_everything(0)
    devs = devices.pick(prefer_gpu=not args.cpu)
    pt_dev, ctx = devs.torch.device, devs.mxnet.device
    name = data.dataset_name()
    mean, std = data.SPECS[name].mean, data.SPECS[name].std
    pt_set = data.torch_dataset(train=True, transform=pt_transforms.Compose(
        [pt_transforms.ToTensor(), pt_transforms.Normalize((mean,), (std,))]))
    mx_set = data.gluon_dataset(train=True).transform_first(mx_transforms.Compose(
        [mx_transforms.ToTensor(), mx_transforms.Normalize(mean, std)]))
    print(f"dataset {name}, {len(pt_set)} images, batch {BATCH}; "
          f"torch {torch.__version__}, mxnet {mx.__version__}")

    # Both frameworks on MXNet's thread count (set MXNET_OMP_MAX_THREADS=n to change it)
    with threads.matched() as counts:
        print(counts)
        run(args.workers, pt_set, mx_set, ctx, pt_dev)


def run(workers_list, pt_set, mx_set, ctx, pt_dev):
    for workers in workers_list:
        pt_loader = torch.utils.data.DataLoader(pt_set, batch_size=BATCH, shuffle=True,
                                                num_workers=workers)
        mx_loader = gluon.data.DataLoader(mx_set, batch_size=BATCH, shuffle=True,
                                          num_workers=workers)
        t_pt = torch_epoch(pt_loader, pt_dev)
        returned, done = gluon_epoch(mx_loader, ctx, pt_dev)
        print(f"num_workers={workers}: PyTorch epoch {t_pt:.2f} s (synced) | Gluon epoch "
              f"{done:.2f} s (synced), loop returned after {returned:.2f} s | "
              f"PyTorch/Gluon = {t_pt / done:.2f}")

    in_memory = list(itertools.islice(gluon.data.DataLoader(mx_set, batch_size=BATCH), 100))
    mx_loader = gluon.data.DataLoader(mx_set, batch_size=BATCH)
    steps = list(itertools.islice(itertools.cycle(in_memory), len(mx_loader)))
    returned, done = gluon_epoch(steps, ctx, pt_dev)
    print(f"Gluon arithmetic only ({len(steps)} steps over batches in memory): returned "
          f"after {returned:.2f} s, done after {done:.2f} s")


if __name__ == "__main__":
    main()
