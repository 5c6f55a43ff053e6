# %% [markdown]
# # Deep dive · What `hybridize()` saves: Python calls, and what they cost in time
#
# This page deepens [notebook 7](../07_hybridize_export.ipynb) §1 (*Is hybridising a free
# speed-up?*), which counts the Python calls of one forward pass. Here: the same count for
# every mode (§1); the time of a forward pass at three batch sizes, beside PyTorch eager
# (§2); and a whole training step, where hybridising saves a smaller share (§3).
# **Time**: about 10 minutes.
#
# Timings depend on the machine and its load. They are printed for reading, with the
# thread counts, in cells whose output nbval does not compare; the checks assert only
# counts, and one ratio where the effect is large.

# %% tags=["nbval-ignore-output"]
import gc
import sys
import time

import mxnet as mx
import numpy as np
import torch
from mxnet import gluon
from torch import nn

from sidebyside import compare, devices, seeding, threads, timing, transfer

SEED = seeding.seed_everything(0)
devs = devices.pick()
pt_dev, mx_ctx = devs.torch.device, devs.mxnet.device
rng = np.random.default_rng(0)
print(f"torch {torch.__version__} · mxnet {mx.__version__}")

# the MLP of notebook 7 §1, in PyTorch and in Gluon with the same weights
pt_mlp = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(),
                       nn.Linear(256, 10)).to(pt_dev).eval()
MODES = {"imperative": None, "hybridize()": {},
         "hybridize(static_alloc, static_shape)": {"static_alloc": True,
                                                   "static_shape": True}}
STATIC = "hybridize(static_alloc, static_shape)"
ROUNDS = 7


def gluon_mlp(flags):
    """The MLP with PyTorch's weights, hybridised with `flags` (None: imperative)."""
    net = gluon.nn.HybridSequential()
    net.add(gluon.nn.Dense(256, activation="relu"), gluon.nn.Dense(256, activation="relu"),
            gluon.nn.Dense(10))
    net.initialize(ctx=mx_ctx)
    transfer.torch_to_gluon(pt_mlp, net)
    if flags is not None:
        net.hybridize(**flags)
    return net


def python_calls(fn):
    """How many Python functions `fn()` calls, counted as in notebook 7 §1."""
    events = []
    gc.disable()                                  # no collector callbacks in the count
    sys.setprofile(lambda frame, event, arg: events.append(event))
    try:
        fn()
    finally:
        sys.setprofile(None)
        gc.enable()
    return events.count("call")


def best_ms(runs, calls):
    """{name: {"wall": ms, "cpu": ms}} per call, each the best of ROUNDS rounds; a round
    runs every `run` once and waits for its work (`timing.sync`). "cpu" is the CPU time of
    the whole process, all its threads (`time.process_time`)."""
    for run in runs.values():
        run()
        timing.sync()
    best = {name: {"wall": float("inf"), "cpu": float("inf")} for name in runs}
    for _ in range(ROUNDS):
        for name, run in runs.items():
            wall, cpu = time.perf_counter(), time.process_time()
            run()
            timing.sync()
            best[name]["wall"] = min(best[name]["wall"], time.perf_counter() - wall)
            best[name]["cpu"] = min(best[name]["cpu"], time.process_time() - cpu)
    return {name: {k: round(v / calls * 1e3, 3) for k, v in b.items()}
            for name, b in best.items()}


def repeat(fn, calls):
    def run():
        for _ in range(calls):
            out = fn()
        return out
    return run


# %% [markdown]
# ## 1. Python calls per forward pass
#
# A profiler hook (`sys.setprofile`) counts the Python functions one forward pass calls,
# for one copy of the MLP per mode. The first call of a hybridised block traces its graph,
# so the count is taken on the second:

# %% tags=["nbval-ignore-output"]
mx_mlps = {mode: gluon_mlp(flags) for mode, flags in MODES.items()}
mx_x1 = mx.nd.array(rng.normal(size=(1, 784)), ctx=mx_ctx)
for net in mx_mlps.values():
    net(mx_x1).wait_to_read()
forward_calls = {mode: python_calls(lambda net=net: net(mx_x1)) for mode, net in mx_mlps.items()}
{mode: f"{count / forward_calls['imperative']:.0%} of the imperative calls"
 for mode, count in forward_calls.items()}

# %% [markdown]
# **Check**: both hybridised modes make less than a third of the imperative forward pass's
# Python calls, and a second count gives the same numbers.

# %%
for mode in ("hybridize()", STATIC):
    assert forward_calls[mode] < forward_calls["imperative"] / 3, mode
assert forward_calls == {mode: python_calls(lambda net=net: net(mx_x1))
                         for mode, net in mx_mlps.items()}
"hybridised: less than a third of the imperative forward pass's Python calls"

# %% [markdown]
# ## 2. Time per forward pass, at three batch sizes
#
# One forward pass of each Gluon copy and of PyTorch eager, on the same number of threads
# (`sidebyside.threads.matched`), at batches of 1, 64 and 1024: milliseconds per call, the
# best of seven rounds. Two clocks: the wall clock, which other jobs on the machine slow
# down, and the CPU time of the process (all its threads), which they do not, or much
# less: what a call costs the machine. The first line gives the threads:

# %% tags=["nbval-ignore-output"]
speed, outputs = {}, {}
with threads.matched() as same_threads, torch.no_grad():
    for batch, calls in ((1, 200), (64, 50), (1024, 5)):
        x_np = rng.normal(size=(batch, 784)).astype(np.float32)
        pt_x, mx_x = torch.from_numpy(x_np).to(pt_dev), mx.nd.array(x_np, ctx=mx_ctx)
        runs = {"PyTorch eager": repeat(lambda x=pt_x: pt_mlp(x), calls),
                **{f"Gluon {mode}": repeat(lambda net=net, x=mx_x: net(x), calls)
                   for mode, net in mx_mlps.items()}}
        speed[batch] = best_ms(runs, calls)
        outputs[batch] = (pt_mlp(pt_x), [net(mx_x) for net in mx_mlps.values()])
print(same_threads)
for batch, row in speed.items():
    print(f"batch {batch}, ms per call:")
    for name, ms in row.items():
        print(f"  {name:50} wall {ms['wall']:8.3f}  CPU {ms['cpu']:8.3f}")

# %% [markdown]
# **Check**: every mode gives PyTorch's outputs; and at batch 1, where the Python work is
# most of a call, hybridised Gluon costs much less CPU time than imperative Gluon: less
# than half with `static_alloc` and `static_shape`, less than 0.7 × without. The check
# uses the CPU time because the wall clock of a loaded machine can flip such a ratio. At
# batches 64 and 1024 nothing about speed is asserted: the matrix products dominate, and
# what is left to save is a share of the call small enough for noise to hide.

# %%
for batch, (pt_out, mx_outs) in outputs.items():
    for mx_out in mx_outs:
        compare.assert_same(pt_out, mx_out, atol=1e-5)
assert same_threads.torch == same_threads.mxnet
imperative_cpu = speed[1]["Gluon imperative"]["cpu"]
assert speed[1][f"Gluon {STATIC}"]["cpu"] < 0.5 * imperative_cpu
assert speed[1]["Gluon hybridize()"]["cpu"] < 0.7 * imperative_cpu
"batch 1: hybridised, a fraction of the imperative CPU time; every output equals PyTorch's"

# %% [markdown]
# ## 3. A training step
#
# Forward, backward and `trainer.step` with `SoftmaxCrossEntropyLoss` and SGD, imperative
# and `hybridize(static_alloc, static_shape)`: first the Python calls of one step at batch
# 1, then the time per step at batches 1 and 1024, for reading.

# %% tags=["nbval-ignore-output"]
mx_loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()


def training_step(net, x, y):
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 1e-3})

    def step():
        with mx.autograd.record():
            loss = mx_loss_fn(net(x), y)
        loss.backward()
        trainer.step(x.shape[0])
        return loss
    return step


step_calls, step_ms = {}, {}
with threads.matched() as same_threads:
    for batch, calls in ((1, 50), (1024, 5)):
        x_np = rng.normal(size=(batch, 784)).astype(np.float32)
        mx_x = mx.nd.array(x_np, ctx=mx_ctx)
        mx_y = mx.nd.array(np.arange(batch) % 10, ctx=mx_ctx)
        steps = {mode: training_step(gluon_mlp(MODES[mode]), mx_x, mx_y)
                 for mode in ("imperative", STATIC)}
        for step in steps.values():
            step().wait_to_read()                  # the hybridised graph is traced
        if batch == 1:
            step_calls = {mode: python_calls(step) for mode, step in steps.items()}
        step_ms[batch] = best_ms({mode: repeat(step, calls) for mode, step in steps.items()},
                                 calls)
print(same_threads)
print("Python calls per training step at batch 1:", step_calls)
for batch, row in step_ms.items():
    print(f"batch {batch}, ms per training step:", row)

# %% [markdown]
# **Check**: hybridised, a training step still makes more than half the imperative step's
# Python calls, though its forward pass makes less than a third (§1). Backward runs the
# cached graph too, but the loss, the recording and `trainer.step`'s per-parameter update
# loop are the same Python code in both modes.

# %%
assert step_calls[STATIC] > step_calls["imperative"] / 2
assert forward_calls[STATIC] < forward_calls["imperative"] / 3
saved = {"forward": forward_calls["imperative"] - forward_calls[STATIC],
         "training step": step_calls["imperative"] - step_calls[STATIC]}
assert saved["training step"] <= 1.5 * saved["forward"]     # the saving is the forward's
"a training step keeps more than half its Python calls when hybridised"

# %% [markdown]
# ## What this means for a port
#
# - `hybridize()` is worth keeping in a Gluon port of a PyTorch model served at small
#   batches, and in networks of many cheap layers: it removes Python's work per operator.
# - It does not make a port of a large-batch training loop much faster: the arithmetic
#   dominates there, and the loss, recording and optimizer steps stay Python.
# - Time a hybridised block from its second call on: the first one traces the graph
#   (its Python code runs once, [notebook 7](../07_hybridize_export.ipynb) §1).
