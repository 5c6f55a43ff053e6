# %% [markdown]
# # 7 · HybridBlock, export and SymbolBlock: Gluon's graphs next to `torch.compile` and `torch.export`
#
# **What you will learn**
#
# - what `hybridize()` does — a graph traced once and cached, passed down to every child —
#   what stops it, and how `torch.jit` and `torch.compile` handle the same code;
# - whether hybridising is the free speed-up the seed promises: what it saves (Python's calls
#   per operator, counted);
# - how a `forward()` written with `torch.nn.functional` maps onto Gluon's `F` (pooling,
#   flatten, dropout, softmax), checked in float64, imperative and hybridised;
# - how `export()` and `SymbolBlock.imports` compare with `torch.export`, and how a
#   `SymbolBlock` built from `get_internals()` compares with torchvision's feature extractor.
#
# The networks are built on both sides, PyTorch's weights are copied into Gluon with
# `sidebyside.transfer`, and a check cell compares the numbers. `Block`, parameters and
# layer defaults are [notebook 6](06_blocks.ipynb). Two deep dives go further: [what
# `hybridize()` saves](deep_dives/hybridize_speed.ipynb), timed at three batch sizes, and
# [functional code in a HybridBlock](deep_dives/hybridize_functional.ipynb), a whole network
# and ceil-mode pooling size by size.
#
# **Prerequisites**: [notebook 6](06_blocks.ipynb) (Blocks and parameters). **Time**: about
# 25 minutes.

# %% tags=["nbval-ignore-output"]
import contextlib
import gc
import inspect
import io
import json
import os
import shutil
import sys
import tempfile
import warnings

import mxnet as mx
import numpy as np
import torch
import torch._dynamo
import torchvision
from mxnet import gluon
from torch import nn
from torch.nn import functional as F
from torchvision.models.feature_extraction import (create_feature_extractor,
                                                   get_graph_node_names)

from sidebyside import compare, devices, errors, seeding, transfer

print(f"torch {torch.__version__} · torchvision {torchvision.__version__}"
      f" · mxnet {mx.__version__}")
SEED = seeding.seed_everything(0)
devs = devices.pick()
pt_dev, mx_ctx = devs.torch.device, devs.mxnet.device

# %% [markdown]
# Each framework picks its own device (a GPU when one really works, else the CPU), and
# two one-liners move a numpy array onto it:

# %% tags=["nbval-ignore-output"]
rng = np.random.default_rng(0)


def to_pt(a):
    return torch.from_numpy(a).to(pt_dev)


def to_mx(a, ctx=None):
    return mx.nd.array(a, ctx=ctx or mx_ctx, dtype=a.dtype)   # nd.array alone: float32

# %% [markdown]
# ## 1. HybridBlock: `hybridize()` and what stops it
#
# A `HybridBlock` writes `hybrid_forward(self, F, x, ...)`: `F` is `mx.nd` when it runs
# imperatively and `mx.sym` once `hybridize()`d, when the first call traces a graph
# that MXNet caches and runs from then on. `static_alloc=True` keeps its memory between
# calls, `static_shape=True` also assumes the input shapes do not change. The seed is
# right that the built-in layers are hybrid blocks; `Sequential` is not
# (`HybridSequential` is).
#
# **PyTorch**: a larger MLP, eager.

# %%
pt_mlp = nn.Sequential(nn.Linear(784, 256), nn.ReLU(),
                       nn.Linear(256, 256), nn.ReLU(),
                       nn.Linear(256, 10)).to(pt_dev).eval()
x_batch = rng.normal(size=(64, 784)).astype(np.float32)
tuple(pt_mlp(to_pt(x_batch)).shape)

# %% [markdown]
# **Gluon**: the same, hybridised.

# %%
mx_mlp = gluon.nn.HybridSequential()
with mx_mlp.name_scope():
    mx_mlp.add(gluon.nn.Dense(256, activation="relu"),
               gluon.nn.Dense(256, activation="relu"), gluon.nn.Dense(10))
mx_mlp.initialize(ctx=mx_ctx)
transfer.torch_to_gluon(pt_mlp, mx_mlp)
mx_mlp.hybridize(static_alloc=True, static_shape=True)
mx_mlp(to_mx(x_batch)).shape

# %% tags=["nbval-ignore-output"]
hybrid = {cls.__name__: issubclass(cls, gluon.HybridBlock)
          for cls in (gluon.nn.Dense, gluon.nn.Conv2D, gluon.nn.MaxPool2D,
                      gluon.nn.BatchNorm, gluon.nn.Sequential,
                      gluon.nn.HybridSequential)}
diff = compare.assert_same(pt_mlp(to_pt(x_batch)), mx_mlp(to_mx(x_batch)), atol=1e-5)
assert hybrid == {"Dense": True, "Conv2D": True, "MaxPool2D": True,
                  "BatchNorm": True, "Sequential": False, "HybridSequential": True}
hybridize_args = list(inspect.signature(gluon.HybridBlock.hybridize).parameters)
assert hybridize_args == ["self", "active", "backend", "clear", "static_alloc",
                          "static_shape", "inline_limit", "forward_bulk_size",
                          "backward_bulk_size", "kwargs"]
f"max |Δ| = {diff:.1e} (tolerance 1e-5)"

# %% [markdown]
# ### `hybridize()` reaches every child
#
# The seed notes (from `block.py`) that `hybridize()` is passed down to all children. It is:
# `Block.hybridize` calls it on every child, so even a plain (non-hybrid) `Sequential` —
# which cannot become a graph itself — hybridises the `HybridBlock`s inside it, and
# `hybridize(False)` switches them back:

# %%
def active_flags(block):
    """`_active` of every HybridBlock in `block`, depth first."""
    flags = [block._active] if isinstance(block, gluon.HybridBlock) else []
    for child in block._children.values():
        flags += active_flags(child)
    return flags


mx_outer = gluon.nn.Sequential()                       # a Block, not a HybridBlock
mx_inner = gluon.nn.HybridSequential()
mx_inner.add(gluon.nn.Dense(4), gluon.nn.Dense(2))
mx_outer.add(mx_inner, gluon.nn.Dense(3))
flags = {"before": active_flags(mx_outer)}
with warnings.catch_warnings(record=True) as advice:
    warnings.simplefilter("always")
    mx_outer.hybridize()
    flags["after outer.hybridize()"] = active_flags(mx_outer)
    mx_outer.hybridize(False)
    flags["after outer.hybridize(False)"] = active_flags(mx_outer)
flags

# %%
assert not isinstance(mx_outer, gluon.HybridBlock)
assert flags == {"before": [False] * 4, "after outer.hybridize()": [True] * 4,
                 "after outer.hybridize(False)": [False] * 4}
# Gluon also advises a HybridSequential, which could become one graph as a whole:
assert "Consider using HybridSequential" in str(advice[0].message)
str(advice[0].message)

# %% [markdown]
# ### `hybrid_forward` runs once
#
# After `hybridize()` the Python code in `hybrid_forward` runs once, with symbols, to
# build the graph; later calls never enter it. Python side effects vanish:

# %%
class Double(gluon.HybridBlock):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.seen = []

    def hybrid_forward(self, F, x):
        self.seen.append(f"{F.__name__}: {type(x).__name__}")
        return x * 2


mx_double = Double()
mx_double(mx.nd.ones((2,)))
mx_double.hybridize()
for _ in range(3):
    mx_double(mx.nd.ones((2,)))
mx_double.seen

# %%
assert mx_double.seen == ["mxnet.ndarray: NDArray", "mxnet.symbol: Symbol"]

# %% [markdown]
# ### Partial shape inference
#
# Declaring only output sizes is not Gluon's alone: PyTorch's lazy modules do it too,
# but need a dry run with data. A Gluon graph infers every shape symbolically from the
# input shape — no data, no initialisation.
#
# **PyTorch**

# %% tags=["pytorch"]
pt_lazy_mlp = nn.Sequential(nn.LazyLinear(256), nn.ReLU(), nn.LazyLinear(10))
pt_lazy_mlp(torch.zeros(2, 784))                 # the dry run fixes the shapes
[tuple(p.shape) for p in pt_lazy_mlp.parameters()]

# %% [markdown]
# **Gluon**

# %% tags=["gluon"]
mx_mlp_sym = mx_mlp(mx.sym.var("data"))
arg_shapes, out_shapes, _ = mx_mlp_sym.infer_shape(data=(2, 784))
dict(zip(mx_mlp_sym.list_arguments(), arg_shapes)), out_shapes

# %%
assert [tuple(p.shape) for p in pt_lazy_mlp.parameters()] == [
    (256, 784), (256,), (10, 256), (10,)]
assert arg_shapes == [(2, 784), (256, 784), (256,), (256, 256), (256,),
                      (10, 256), (10,)]
assert out_shapes == [(2, 10)]

# %% [markdown]
# ### What stops hybridisation
#
# Inside a hybridised `hybrid_forward`, `x` is a `Symbol`: a node in a graph, without a
# value. Python code that needs the *value* fails, an `if` on the data for one:
#
# **Gluon**

# %%
class SignFlip(gluon.HybridBlock):
    """Negate a batch whose sum is negative — with a Python `if`."""

    def hybrid_forward(self, F, x):
        if x.sum() < 0:
            return -x
        return x


x_neg = -np.arange(1, 7, dtype=np.float32).reshape(2, 3)
mx_sign_flip = SignFlip()
mx_sign_flip(to_mx(x_neg)).asnumpy()          # imperative: fine

# %% tags=["raises-exception"]
mx_sign_flip.hybridize()
mx_sign_flip(to_mx(x_neg))

# %% [markdown]
# Leaving the graph for numpy fails too: `asnumpy()` asks the `Symbol` for a value it does not
# have:

# %% tags=["nbval-ignore-output"]
class ScaleByPeak(gluon.HybridBlock):
    def hybrid_forward(self, F, x):
        peak = float(x.abs().max().asnumpy())     # a Python number: not in a graph
        return x / peak


mx_scale_by_peak = ScaleByPeak()
mx_scale_by_peak(to_mx(x_neg)).asnumpy()

# %% tags=["raises-exception"]
mx_scale_by_peak.hybridize()
mx_scale_by_peak(to_mx(x_neg))

# %% [markdown]
# The fix is to say it with operators: `F.where` for a choice made on values (and
# `F.contrib.cond` / `F.contrib.foreach` for real control flow), `F.broadcast_div`
# instead of a Python scalar:

# %%
class SignFlipHybrid(gluon.HybridBlock):
    def hybrid_forward(self, F, x):
        negative = (F.sum(x) < 0).reshape((1, 1))
        return F.where(F.broadcast_like(negative, x), -x, x)


mx_sign_flip_hybrid = SignFlipHybrid()
mx_sign_flip_hybrid.hybridize()
mx_sign_flip_hybrid(to_mx(x_neg)).asnumpy(), mx_sign_flip_hybrid(to_mx(-x_neg)).asnumpy()

# %%
for x_try in (x_neg, -x_neg):
    got = mx_sign_flip_hybrid(to_mx(x_try)).asnumpy()
    np.testing.assert_array_equal(got, np.abs(x_try))

# %% [markdown]
# ### PyTorch's counterparts: `torch.jit` and `torch.compile`
#
# The same `if` in an `nn.Module`. `torch.jit.script` compiles Python's control flow
# into its graph; `torch.jit.trace` records the one path the example input took, and
# replays it for every input. Both are deprecated in this PyTorch (2.14), in favour of
# `torch.compile` and `torch.export`:
#
# **PyTorch**

# %%
class TorchSignFlip(nn.Module):
    def forward(self, x):
        if x.sum() < 0:
            return -x
        return x


with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    pt_scripted = torch.jit.script(TorchSignFlip())
    pt_traced = torch.jit.trace(TorchSignFlip(), to_pt(-x_neg))   # a positive example
sorted({f"{w.category.__name__}: {str(w.message).splitlines()[0][:60]}"
        for w in caught})

# %% [markdown]
# `torch.compile` does not fail on the `if`: TorchDynamo cuts the graph there (a *graph
# break*), runs that bit as Python, and compiles the rest. `torch._dynamo.explain` counts
# the breaks. (`backend="eager"` only captures the graphs; the default backend, Inductor,
# also generates and compiles C++ code for the CPU, which needs a C++ compiler and takes
# seconds, not milliseconds — exercise 1 times it on your machine.)

# %%
pt_compiled_flip = torch.compile(TorchSignFlip(), backend="eager")
variants = {"eager": TorchSignFlip(), "jit.script": pt_scripted, "jit.trace": pt_traced,
            "torch.compile": pt_compiled_flip}
results = {name: compare.to_numpy(fn(to_pt(x_neg)))[0, 0].item()
           for name, fn in variants.items()}
results

# %%
class TorchScaleByPeak(nn.Module):
    def forward(self, x):
        return x / float(x.abs().max().cpu().numpy())


breaks = {}
for module in (TorchSignFlip(), TorchScaleByPeak()):
    report = torch._dynamo.explain(module)(to_pt(x_neg))
    breaks[type(module).__name__] = (
        report.graph_count, report.graph_break_count,
        str(report.break_reasons[0].reason).strip().splitlines()[0])
breaks

# %% [markdown]
# **Check**: `jit.trace` silently returns `x` instead of `−x` for a negative batch;
# the others flip it. MXNet refuses such code at `hybridize()` time, PyTorch's compiler
# falls back to Python for it.

# %%
assert results == {"eager": 1.0, "jit.script": 1.0, "jit.trace": -1.0,
                   "torch.compile": 1.0}
assert {w.category for w in caught} >= {FutureWarning, torch.jit.TracerWarning}
assert breaks["TorchSignFlip"][1] == 1 and breaks["TorchScaleByPeak"][1] == 1

# %% [markdown]
# ### Is hybridising a free speed-up?
#
# The seed promises that hybridised blocks get the graph's speed "at zero cost". The cost
# side is above: no Python control flow on values, no leaving the graph, side effects that
# run once. What hybridising saves is Python's work per operator: an imperative forward
# pass pushes each operator from Python into the engine, a hybridised one hands the whole
# cached graph over in one call. A profiler hook (`sys.setprofile`) counts the Python
# functions one forward pass calls, for an imperative copy of the MLP (same weights) and
# the hybridised one:

# %% tags=["nbval-ignore-output"]
def python_calls(fn):
    """How many Python functions `fn()` calls (the garbage collector off meanwhile)."""
    count = 0

    def profile(frame, event, arg):
        nonlocal count
        count += event == "call"

    gc.disable()
    sys.setprofile(profile)
    try:
        fn()
    finally:
        sys.setprofile(None)
        gc.enable()
    return count


mx_mlp_imperative = gluon.nn.HybridSequential()
mx_mlp_imperative.add(gluon.nn.Dense(256, activation="relu"),
                      gluon.nn.Dense(256, activation="relu"), gluon.nn.Dense(10))
mx_mlp_imperative.initialize(ctx=mx_ctx)
transfer.torch_to_gluon(pt_mlp, mx_mlp_imperative)
mx_x1 = to_mx(x_batch[:1])
mx_mlp_imperative(mx_x1).wait_to_read()            # count the second call on each side
forward_calls = {"imperative": python_calls(lambda: mx_mlp_imperative(mx_x1)),
                 "hybridised": python_calls(lambda: mx_mlp(mx_x1))}
forward_calls

# %% [markdown]
# **Check**: hybridised, the forward pass makes less than a third of the imperative one's
# Python calls, and gives the same output.

# %%
assert forward_calls["hybridised"] < forward_calls["imperative"] / 3
compare.assert_same(mx_mlp(mx_x1), mx_mlp_imperative(mx_x1), atol=1e-6)
"hybridised: less than a third of the imperative forward pass's Python calls"

# %% [markdown]
# So hybridising pays where that Python work is a large part of a call (small batches,
# networks of many cheap layers) and changes little once the matrix products dominate.
# The deep dive [what `hybridize()` saves](deep_dives/hybridize_speed.ipynb) times it: at
# batch 1 the hybridised MLP costs a fraction of the imperative CPU time, at batches 64 and
# 1024 the difference is small enough for a machine's load to hide, and a whole training
# step saves a smaller share, because the loss, the recording and `trainer.step` stay
# Python. It is not free, for the reasons in the previous subsections.

# %% [markdown]
# ## 2. Functional code: `torch.nn.functional` and Gluon's `F`
#
# Much PyTorch code keeps only the layers with weights as modules and writes the rest of
# `forward()` with `torch.nn.functional`, imported as `F` (as in pytorch/examples'
# `mnist/main.py`, and in this notebook's PyTorch cells). In a `hybrid_forward` the
# parameter `F` hides that import: it is `mx.nd` or `mx.sym`, so the port uses operators
# that exist in both, under MXNet's names:
#
# | PyTorch | Gluon `F` | watch out |
# |---|---|---|
# | `F.relu(x)` | `F.relu(x)` or `F.Activation(x, act_type="relu")` | — |
# | `F.max_pool2d(x, 2)`, `F.avg_pool2d(x, 2)` | `F.Pooling(x, kernel=(2, 2), stride=(2, 2), pool_type="max"` or `"avg")` | `stride` defaults to 1, not to the kernel |
# | `padding=1`, `count_include_pad=True` | `pad=(1, 1)`, `count_include_pad=True` | both default to counting the padding |
# | `ceil_mode=True` | `pooling_convention="full"` | with padding, MXNet can add a window that lies wholly in the padding |
# | `torch.flatten(x, 1)` | `F.flatten(x)` | same C, H, W order; no `start_dim` |
# | `F.dropout(x, p, training=self.training)` | `F.Dropout(x, p=p)` | no flag: it follows `autograd.is_training()` |
# | `F.softmax(x, dim=1)`, `F.log_softmax(x, dim=1)` | `F.softmax(x, axis=1)`, `F.log_softmax(x, axis=1)` | MXNet's default axis is −1 |
#
# **PyTorch**: the calls on float64 inputs: 5×5 maps, a 3×4 matrix, and a ramp
# (`arange`) for `flatten`.

# %%
x_maps = rng.normal(size=(2, 3, 5, 5))                  # float64
x_mat = rng.normal(size=(3, 4))
ramp = np.arange(24, dtype=np.float64).reshape(2, 3, 2, 2)
pt_maps, pt_mat = to_pt(x_maps), to_pt(x_mat)
pt_ops = {"relu": F.relu(pt_maps),
          "max_pool2d(x, 2)": F.max_pool2d(pt_maps, 2),
          "avg_pool2d(x, 2)": F.avg_pool2d(pt_maps, 2),
          "avg_pool2d(x, 2, padding=1)": F.avg_pool2d(pt_maps, 2, padding=1),
          "  count_include_pad=False": F.avg_pool2d(pt_maps, 2, padding=1,
                                                    count_include_pad=False),
          "flatten(ramp, 1)": torch.flatten(to_pt(ramp), 1),
          "softmax(x, dim=0)": F.softmax(pt_mat, dim=0),
          "log_softmax(x, dim=1)": F.log_softmax(pt_mat, dim=1)}
{name: tuple(out.shape) for name, out in pt_ops.items()}

# %% [markdown]
# **Gluon**: the same calls in one `hybrid_forward`, run imperatively, then hybridised.

# %%
class FunctionalOps(gluon.HybridBlock):
    def hybrid_forward(self, F, maps, mat, ramp):
        pool = {"kernel": (2, 2), "stride": (2, 2)}
        return (F.relu(maps),
                F.Pooling(maps, pool_type="max", **pool),
                F.Pooling(maps, pool_type="avg", **pool),
                F.Pooling(maps, pool_type="avg", pad=(1, 1), **pool),
                F.Pooling(maps, pool_type="avg", pad=(1, 1), count_include_pad=False,
                          **pool),
                F.flatten(ramp),
                F.softmax(mat, axis=0),
                F.log_softmax(mat, axis=1))


mx_functional_ops = FunctionalOps()
mx_inputs = (to_mx(x_maps), to_mx(x_mat), to_mx(ramp))
mx_ops = {"imperative": mx_functional_ops(*mx_inputs)}
mx_functional_ops.hybridize()
mx_ops["hybridised"] = mx_functional_ops(*mx_inputs)
[out.shape for out in mx_ops["hybridised"]]

# %% [markdown]
# **Check**: both modes give PyTorch's values (float64, tolerance 1e-12), and where the
# spellings part:
#
# - `F.Pooling` without `stride` slides by 1 (the `MaxPool2D` layer's default is its pool
#   size, [notebook 6 §3](06_blocks.ipynb)).
# - `F.flatten` keeps `torch.flatten(x, 1)`'s C, H, W order, so a `Dense` after it, or a
#   `Dense(flatten=True)` given the maps directly, takes a `Linear`'s weight as it is.
# - `F.softmax` without `axis` works on the last axis. PyTorch without `dim` warns that
#   this is deprecated and guesses dim 0 for 1-D and 3-D inputs and dim 1 otherwise: on
#   3-D inputs it is not MXNet's axis.
# - `pooling_convention="full"` (what `MaxPool2D(ceil_mode=True)` passes) gives PyTorch's
#   `ceil_mode=True` shapes without padding. With padding, PyTorch drops a last window
#   that would start in the right-hand padding, and MXNet keeps it. On 5×5 maps with
#   kernel 2, stride 2 and `padding=1`, that window covers only padding, and its maximum
#   is the lowest float64 (which sizes do this: the deep dive
#   [Functional code in a HybridBlock](deep_dives/hybridize_functional.ipynb) §2).

# %%
for outs in mx_ops.values():
    assert len(outs) == len(pt_ops)
    for pt_out, mx_out in zip(pt_ops.values(), outs):
        compare.assert_same(pt_out, mx_out, atol=1e-12)       # also checks the dtype

mx_no_stride = mx.nd.Pooling(to_mx(x_maps), kernel=(2, 2), pool_type="max")
compare.assert_same(F.max_pool2d(pt_maps, 2, stride=1), mx_no_stride)
compare.assert_same(mx.nd.Activation(to_mx(x_maps), act_type="relu"), mx_ops["imperative"][0])

np.testing.assert_array_equal(mx_ops["hybridised"][5].asnumpy(), np.arange(24).reshape(2, 12))
pt_fc = nn.Linear(12, 4).double().to(pt_dev)
mx_fc = gluon.nn.Dense(4, dtype="float64")             # flatten=True, the default
mx_fc.initialize(ctx=mx_ctx)
transfer.torch_to_gluon(pt_fc, mx_fc)
pt_fc_out = pt_fc(torch.flatten(to_pt(ramp), 1))
compare.assert_same(pt_fc_out, mx_fc(to_mx(ramp)), atol=1e-12)
compare.assert_same(pt_fc_out, mx_fc(mx.nd.flatten(to_mx(ramp))), atol=1e-12)

np.testing.assert_allclose(mx.nd.softmax(to_mx(x_mat)).asnumpy().sum(axis=1), 1, rtol=1e-12)
assert not np.allclose(mx.nd.softmax(to_mx(x_mat)).asnumpy(),
                       mx.nd.softmax(to_mx(x_mat), axis=0).asnumpy())
x_3d = rng.normal(size=(2, 3, 4))
with warnings.catch_warnings(record=True) as implicit:
    warnings.simplefilter("always")
    pt_implicit = F.softmax(to_pt(x_3d))
assert "Implicit dimension choice for softmax has been deprecated" in str(implicit[0].message)
np.testing.assert_allclose(compare.to_numpy(pt_implicit).sum(axis=0), 1, rtol=1e-12)
np.testing.assert_allclose(mx.nd.softmax(to_mx(x_3d)).asnumpy().sum(axis=-1), 1, rtol=1e-12)

pt_ceil = F.max_pool2d(pt_maps, 2, padding=1, ceil_mode=True)
mx_full_pool = mx.nd.Pooling(to_mx(x_maps), kernel=(2, 2), stride=(2, 2), pad=(1, 1),
                        pool_type="max", pooling_convention="full")
compare.assert_same(gluon.nn.MaxPool2D(2, padding=1, ceil_mode=True)(to_mx(x_maps)), mx_full_pool)
compare.assert_same(pt_ceil, mx_full_pool[:, :, :3, :3])        # the windows both have agree
edge = np.concatenate([mx_full_pool[:, :, 3, :].asnumpy().ravel(),
                       mx_full_pool[:, :, :, 3].asnumpy().ravel()])
assert (edge == np.finfo(np.float64).min).all()
{"F.Pooling, no stride": mx_no_stride.shape,
 "ceil_mode=True, padding=1": {"torch": tuple(pt_ceil.shape), "mxnet": mx_full_pool.shape}}

# %% [markdown]
# ### Dropout: a flag in PyTorch, a scope in Gluon
#
# `F.dropout` needs `training=self.training`: its default is `training=True`, so without
# it the dropout also runs at evaluation. `F.Dropout` has no such flag. It drops inside
# `autograd.train_mode()` or `record()` and is the identity outside them, imperative or
# hybridised. (The scopes are [notebook 5 §2](05_autograd.ipynb), and `mode="always"`
# drops everywhere.) Both sides scale the kept values by 1/(1−p).
#
# **PyTorch**

# %%
class TorchDrop(nn.Module):
    def __init__(self, p):
        super().__init__()
        self.p = p

    def forward(self, x):
        return F.dropout(x, self.p, training=self.training)


x_drop = rng.normal(size=(100, 1000))
pt_drop = TorchDrop(0.5).to(pt_dev)
pt_dropped = {"train()": pt_drop.train()(to_pt(x_drop)),
              "eval()": pt_drop.eval()(to_pt(x_drop))}
{mode: "drops" if bool((out == 0).any()) else "identity" for mode, out in pt_dropped.items()}

# %% [markdown]
# **Gluon**

# %%
class GluonDrop(gluon.HybridBlock):
    def __init__(self, p, **kwargs):
        super().__init__(**kwargs)
        self.p = p

    def hybrid_forward(self, F, x):
        return F.Dropout(x, p=self.p)


mx_drop, mx_dropped = GluonDrop(0.5), {}
for mode in ("imperative", "hybridised"):
    mx_drop.hybridize(active=mode == "hybridised")
    with mx.autograd.train_mode():
        mx_dropped[f"{mode}, train_mode()"] = mx_drop(to_mx(x_drop))
    mx_dropped[f"{mode}, no scope"] = mx_drop(to_mx(x_drop))
{mode: "drops" if (out == 0).sum().asscalar() else "identity"
 for mode, out in mx_dropped.items()}

# %% [markdown]
# **Check**: in float64 the kept values are exactly x/(1−p) = 2x on both sides, and the
# share kept is within five standard errors of 1−p. One difference shows with p = 0.25:
# MXNet computes the scale in float32 (`1.0f / pkeep` in its `dropout-inl.h`), even for
# float64 data, so the kept values are 3e-8 (relative) larger than x/0.75. PyTorch is
# within one rounding of it.

# %%
p = 0.5
for name, out in {**pt_dropped, **mx_dropped}.items():
    y = compare.to_numpy(out)
    if name == "eval()" or name.endswith("no scope"):
        np.testing.assert_array_equal(y, x_drop)
        continue
    kept = y != 0
    np.testing.assert_array_equal(y[kept], x_drop[kept] / (1 - p))
    assert abs(kept.mean() - (1 - p)) < 5 * np.sqrt(p * (1 - p) / kept.size)

with mx.autograd.train_mode():
    mx_y = GluonDrop(0.25)(to_mx(x_drop)).asnumpy()
pt_y = compare.to_numpy(TorchDrop(0.25).train()(to_pt(x_drop)))
scale_f32 = np.float64(np.float32(1) / np.float32(0.75))
mx_kept, pt_kept = mx_y != 0, pt_y != 0
np.testing.assert_array_equal(mx_y[mx_kept], x_drop[mx_kept] * scale_f32)
np.testing.assert_allclose(pt_y[pt_kept], x_drop[pt_kept] / 0.75, rtol=1e-15, atol=0)
assert 2e-8 < scale_f32 * 0.75 - 1 < 4e-8                 # 3e-8 larger, relative
"kept values: x/(1-p), keep rate 1-p, identity when predicting; MXNet's scale is float32"

# %% [markdown]
# The same calls in a whole network — pytorch/examples' `mnist/main.py` `Net`, its dropout
# written as `F` calls, in training mode, imperative and hybridised — and ceil-mode pooling
# size by size are the deep dive [Functional code in a
# HybridBlock](deep_dives/hybridize_functional.ipynb).

# %% [markdown]
# ## 3. `export()`, `SymbolBlock` and feature extraction
#
# ### Saving the graph with the weights
#
# A hybridised block that has run once can `export()` its graph (`-symbol.json`) and its
# parameters (`-0000.params`); `SymbolBlock.imports` loads them without the Python class.
# PyTorch's counterpart today is `torch.export`: an `ExportedProgram` saved as one `.pt2`
# file (TorchScript's `torch.jit.save` warns, like `script` and `trace`, that it is
# deprecated in favour of `torch.export`).
#
# **PyTorch**

# %%
pt_in, mx_in = to_pt(x_batch), to_mx(x_batch)
export_dir = tempfile.mkdtemp()
pt_program = torch.export.export(pt_mlp, (pt_in,))
torch.export.save(pt_program, os.path.join(export_dir, "mlp.pt2"))
pt_loaded = torch.export.load(os.path.join(export_dir, "mlp.pt2")).module()
[str(node.target) for node in pt_program.graph.nodes if node.op == "call_function"]

# %% [markdown]
# **Gluon**

# %%
mx_mlp.export(os.path.join(export_dir, "mlp"))
with open(os.path.join(export_dir, "mlp-symbol.json")) as f:
    mx_graph = json.load(f)
(sorted(os.listdir(export_dir)),
 [node["op"] for node in mx_graph["nodes"] if node["op"] != "null"])

# %% [markdown]
# `imports` cannot tell the input's dtype from the file and warns that it assumes
# float32:

# %%
with warnings.catch_warnings(record=True) as import_warnings:
    warnings.simplefilter("always")
    mx_loaded = gluon.SymbolBlock.imports(os.path.join(export_dir, "mlp-symbol.json"),
                                          ["data"],
                                          os.path.join(export_dir, "mlp-0000.params"),
                                          ctx=mx_ctx)
assert "Cannot decide type for the following arguments" in str(import_warnings[0].message)
str(import_warnings[0].message).splitlines()[0]

# %% [markdown]
# The `.params` file of an export keys the weights by their *prefixed* names (the graph
# refers to them that way), unlike `save_parameters()` ([notebook 6 §1](06_blocks.ipynb)):

# %%
sorted(mx.nd.load(os.path.join(export_dir, "mlp-0000.params")))[:2]

# %% tags=["nbval-ignore-output"]
diff_pt = compare.assert_same(pt_loaded(pt_in), pt_mlp(pt_in), atol=1e-6)
diff_mx = compare.assert_same(mx_loaded(mx_in), mx_mlp(mx_in), atol=1e-6)
assert sorted(os.listdir(export_dir)) == ["mlp-0000.params", "mlp-symbol.json",
                                          "mlp.pt2"]
assert "arg:hybridsequential0_dense0_weight" in mx.nd.load(
    os.path.join(export_dir, "mlp-0000.params"))
shutil.rmtree(export_dir)
f"reloaded vs original: PyTorch {diff_pt:.1e}, Gluon {diff_mx:.1e} (tolerance 1e-6)"

# %% [markdown]
# ### A feature extractor from a model-zoo network
#
# The seed builds a `SymbolBlock` from AlexNet's internal outputs and says PyTorch has
# nothing like it. It has two ways. Both AlexNets are built *without* pretrained weights
# (nothing is downloaded); PyTorch's random weights are copied into Gluon, and the input
# is 224×224, where torchvision's adaptive pooling is the identity.
#
# **PyTorch**: the graph's node names, then `create_feature_extractor` for the output
# of the first fully connected layer's ReLU (`classifier.2`, "fc6"):

# %%
pt_alex = torchvision.models.alexnet(weights=None).to(pt_dev).eval()
get_graph_node_names(pt_alex)[1][-8:]

# %%
x_alex = rng.normal(size=(2, 3, 224, 224)).astype(np.float32)
pt_fc6 = create_feature_extractor(pt_alex, return_nodes={"classifier.2": "fc6"})
pt_features = pt_fc6(to_pt(x_alex))["fc6"]
tuple(pt_features.shape)

# %% [markdown]
# … or a forward hook on that module, which keeps the whole network:

# %%
pt_grabbed = []
pt_hook = pt_alex.classifier[2].register_forward_hook(
    lambda module, args, output: pt_grabbed.append(output))
with torch.no_grad():
    pt_alex(to_pt(x_alex))
pt_hook.remove()
tuple(pt_grabbed[0].shape)

# %% [markdown]
# **Gluon**: call the network on a symbol, list the graph's internal outputs, and wrap
# one of them in a `SymbolBlock` that shares the network's parameters. (The weights are
# copied first. The two AlexNets name their layers differently — torchvision
# `features.*`/`classifier.*`, Gluon's model zoo keeps its dense layers in `features`, then
# `output` — so `transfer` is told to pair them in registration order, `by="order"`; it
# still checks every kind and shape.)

# %%
mx_alex = gluon.model_zoo.vision.alexnet()          # pretrained=False
mx_alex.initialize(ctx=mx_ctx)
mx_alex_pairs = transfer.torch_to_gluon(pt_alex, mx_alex, by="order")
assert mx_alex_pairs[0] == ("features.0", "features.0")
assert mx_alex_pairs[-1] == ("classifier.6", "output")
mx_data = mx.sym.var("data", dtype="float32")
mx_internals = mx_alex(mx_data).get_internals()
[name for name in mx_internals.list_outputs() if name.endswith("relu_fwd_output")]

# %% [markdown]
# The seed's `internals['model_dense0_relu_fwd_output']` is not there: the prefix comes
# from the network's name, `alexnet0_` for the first AlexNet built in a process. The
# seed's name appears only when the network is built with `prefix="model_"`:

# %%
seed_name = "model_dense0_relu_fwd_output"
mx_renamed = gluon.model_zoo.vision.alexnet(prefix="model_")
{"default prefix": seed_name in mx_internals.list_outputs(),
 'prefix="model_"': seed_name in mx_renamed(mx_data).get_internals().list_outputs()}

# %%
mx_fc6 = gluon.SymbolBlock(mx_internals["alexnet0_dense0_relu_fwd_output"], mx_data,
                           params=mx_alex.collect_params())
mx_features = mx_fc6(to_mx(x_alex))
mx_features.shape

# %% [markdown]
# The input variable need not be called `data`. What matters is that the `SymbolBlock` is
# given the variable its output was *built from*: with any other, the graph's real input is
# left over and taken for a parameter that nobody initialised.

# %%
mx_pixels = mx.sym.var("pixels", dtype="float32")
mx_fc6_pixels = gluon.SymbolBlock(
    mx_alex(mx_pixels).get_internals()["alexnet0_dense0_relu_fwd_output"], mx_pixels,
    params=mx_alex.collect_params())
with contextlib.redirect_stdout(io.StringIO()) as printed:   # MXNet prints a hint first
    mx_wrong_input = errors.catch(lambda: gluon.SymbolBlock(
        mx_internals["alexnet0_dense0_relu_fwd_output"], mx.sym.var("pixels", dtype="float32"),
        params=mx_alex.collect_params())(to_mx(x_alex)))
compare.assert_same(mx_fc6_pixels(to_mx(x_alex)), mx_features, atol=0)
assert mx_wrong_input.type == "RuntimeError"
assert mx_wrong_input.line.startswith("Parameter 'data' has not been initialized")
assert printed.getvalue().startswith("infer_type error")
{"printed": printed.getvalue().splitlines()[0], "raised": mx_wrong_input.line.split(". ")[0]}

# %% [markdown]
# **Check**: the same 4096 features on both sides (their largest value, printed below, is
# of order 0.1; tolerance 1e-5), the hook's equal to the extractor's, and the
# `SymbolBlock` holds the network's own parameters, not copies.

# %% tags=["nbval-ignore-output"]
diff = compare.assert_same(pt_features, mx_features, atol=1e-5)
compare.assert_same(pt_grabbed[0], pt_features)
assert mx_fc6.collect_params()["alexnet0_dense0_weight"] is \
    mx_alex.collect_params()["alexnet0_dense0_weight"]
fc6_max = float(np.abs(compare.to_numpy(pt_features)).max())
assert 0.01 < fc6_max < 1                                   # of order 0.1, not all zero
f"fc6 features: largest {fc6_max:.2f}, max |torch - gluon| = {diff:.1e}"

# %% [markdown]
# ## Summary
#
# | | PyTorch | MXNet Gluon 1.x | note |
# |---|---|---|---|
# | a block that can become a graph | `class Net(nn.Module)` | `class Net(gluon.HybridBlock)` + `hybrid_forward(self, F, x)` | `gluon.nn.HybridSequential`, not `gluon.nn.Sequential` |
# | graph mode | `torch.compile(model)` | `net.hybridize(static_alloc=True, static_shape=True)` | passed down to every child; graph breaks fall back to Python in PyTorch, value-dependent Python is an error in Gluon; `torch.jit.*` is deprecated |
# | control flow on values | Python `if` | `F.where(cond, a, b)`, `F.contrib.cond(pred, then, else)`, `F.contrib.foreach` | |
# | speed | eager | `net.hybridize()` | fewer Python calls per forward: pays at small batches and for many small layers |
# | shape inference | `nn.LazyLinear(out)` + a dry run | `net(mx.sym.var("data")).infer_shape(data=shape)` | |
# | functional `forward` | `F.relu(x)`, `F.max_pool2d(x, 2)`, `torch.flatten(x, 1)`, `F.log_softmax(x, dim=1)` | `F.relu(x)`, `F.Pooling(x, kernel=(2, 2), stride=(2, 2), pool_type="max")`, `F.flatten(x)`, `F.log_softmax(x, axis=1)` | `F` is the argument of `hybrid_forward`; `Pooling`'s `stride` defaults to 1, `axis` to −1 |
# | ceil mode | `F.max_pool2d(x, k, s, padding=p, ceil_mode=True)` | `F.Pooling(x, ..., pooling_convention="full")`, `nn.MaxPool2D(ceil_mode=True)` | with padding, MXNet keeps a last window that lies in the padding (outputs of the lowest float64) |
# | dropout | `F.dropout(x, p, training=self.training)` | `F.Dropout(x, p=p)` | Gluon follows `autograd.is_training()`; its scale 1/(1−p) is float32, also for float64 data |
# | save graph + weights | `torch.export.export(model, args)`, `torch.export.save(prog, "m.pt2")`, `torch.export.load` | `net.export(path)`, `gluon.SymbolBlock.imports(json, ["data"], params)` | `-symbol.json` + `-0000.params` |
# | feature extractor | `create_feature_extractor(net, {"classifier.2": "fc6"})`, `module.register_forward_hook(fn)` | `gluon.SymbolBlock(internals[name], x, params=net.collect_params())` | `x`: the variable the graph was built from |
#
# ### What the seed articles said, checked
#
# | seed claim | verdict | shown in |
# |---|---|---|
# | Dense, Conv2D, MaxPool2D, BatchNorm are `HybridBlock`s | confirmed (`Sequential` is not; `HybridSequential` is) | §1 |
# | `hybridize(active=True, static_alloc=False, static_shape=False)` | confirmed; 1.9.1 adds `backend`, `clear`, `inline_limit`, bulk sizes | §1 |
# | `Block.hybridize()` passes `hybridize` down to all children | confirmed, through non-hybrid containers too | §1 |
# | hybridised blocks get the graph's speed "at zero cost" | **not in general**: hybridising saves Python's calls per operator, which pays at batch 1 (a fraction of the CPU time) and little once the arithmetic dominates; and code that reads values cannot be hybridised | §1, [deep dive](deep_dives/hybridize_speed.ipynb) |
# | partial shape inference: PyTorch "not available" | obsolete: lazy modules (with a dry run); Gluon infers from the shape alone | §1 |
# | hybridize: PyTorch "not available" | obsolete: `torch.compile`, `torch.export` (and the now deprecated `torch.jit`) | §1, §3 |
# | `alexnet(pretrained=True)`, `internals['model_dense0_relu_fwd_output']` → `SymbolBlock` | corrected: the name is `alexnet0_dense0_relu_fwd_output` unless built with `prefix="model_"`; the `SymbolBlock` needs the variable the graph was built from (any name); `pretrained=True` downloads | §3 |
# | SymbolBlock: PyTorch "not available" | obsolete: `create_feature_extractor`, forward hooks | §3 |
#
# ## Exercises
#
# 1. Replace `backend="eager"` by the default `torch.compile(pt_mlp)` and time the first
#    call and the next twenty. How long does Inductor take to compile on your machine,
#    and does the compiled MLP beat the hybridised Gluon one?
# 2. Rewrite `SignFlip` with `F.contrib.cond` instead of `F.where`, hybridise it, and
#    check it against `np.abs` for both signs.
# 3. Build `torchvision.models.resnet18(weights=None)` and
#    `gluon.model_zoo.vision.resnet18_v1()`, copy the weights with `transfer` (which `by=`
#    does it need?), and extract the 512 pooled features on both sides. Which torchvision
#    node and which Gluon internal output do you need?

# %% [markdown]
# :::{dropdown} Solutions
# 1. `compiled = torch.compile(pt_mlp)`, then time `compiled(x)`. The first call compiles:
#    Inductor generates and builds C++ code, which needs a C++ compiler and takes seconds
#    to a minute (and a new batch size compiles again; a warm on-disk cache shortens it).
#    In one run on a 2-core x86-64 machine shared with other jobs, one thread per framework,
#    2026-12-01, not re-run here: the first call at batch 64 took 59 s, and at batches 1,
#    64 and 1024 the compiled MLP was not faster than eager PyTorch or hybridised Gluon
#    (three matrix products leave Inductor little to fuse); its outputs equalled eager's
#    exactly.
# 2. ```python
#    class SignFlipCond(gluon.HybridBlock):
#        def hybrid_forward(self, F, x):
#            return F.contrib.cond(F.sum(x) < 0, lambda: -x, lambda: x)
#    ```
#    Hybridised, it returns `np.abs(x)` exactly for `x_neg` and `-x_neg`, and the cached
#    graph holds one `_cond` node. `cond` needs no `broadcast_like`: each branch returns a
#    whole array.
# 3. `by="order"`: the names differ (`conv1`/`layer1.0.conv1` against `features.0`/
#    `features.4.0.body.0`), and the 41 layers come in the same order on both sides (the
#    default `"auto"` falls back to that order with a `PairingWarning`). The features are
#    torchvision's `flatten` node (`avgpool` before flattening) and Gluon's
#    `<prefix>pool1_fwd_output` (`resnetv10_pool1_fwd_output` for the first ResNet v1 of a
#    process: the `GlobalAvgPool2D` at the end of `net.features`, so `net.features(x)`
#    gives it too), shape `(N, 512, 1, 1)`: reshape to `(N, 512)`. On random 224×224 input
#    the two agree within 1e-4 (float32).
# :::
#
# **Solutions**, run with asserts: the two cells below, for exercises 2 and 3 (folded away
# in the book: open each one); each ends with its answer. Exercise 1 needs a C++ compiler
# and up to a minute, so it is not run here.

# %% tags=["hide-cell"]
class SignFlipCond(gluon.HybridBlock):
    def hybrid_forward(self, F, x):
        return F.contrib.cond(F.sum(x) < 0, lambda: -x, lambda: x)


mx_sign_cond = SignFlipCond()
mx_sign_cond.hybridize()
for x_try in (x_neg, -x_neg):
    np.testing.assert_array_equal(mx_sign_cond(to_mx(x_try)).asnumpy(), np.abs(x_try))
cond_ops = [node["op"] for node in json.loads(mx_sign_cond._cached_graph[1].tojson())["nodes"]]
assert cond_ops.count("_cond") == 1
"2. F.contrib.cond: np.abs(x) for both signs, one _cond node in the cached graph"

# %% tags=["hide-cell", "nbval-ignore-output"]
pt_resnet = torchvision.models.resnet18(weights=None).to(pt_dev).eval()
mx_resnet = gluon.model_zoo.vision.resnet18_v1()
mx_resnet.initialize(ctx=mx_ctx)
with warnings.catch_warnings(record=True) as pairing:
    warnings.simplefilter("always")
    auto_pairs = transfer.torch_to_gluon(pt_resnet, mx_resnet)
resnet_pairs = transfer.torch_to_gluon(pt_resnet, mx_resnet, by="order")
assert [type(w.message).__name__ for w in pairing] == ["PairingWarning"]
assert auto_pairs == resnet_pairs and len(resnet_pairs) == 41
assert resnet_pairs[0] == ("conv1", "features.0") and resnet_pairs[-1] == ("fc", "output")
x_res = rng.normal(size=(2, 3, 224, 224)).astype(np.float32)
with torch.no_grad():
    pt_pooled = create_feature_extractor(pt_resnet, {"flatten": "pooled"})(
        to_pt(x_res))["pooled"]
mx_pooled = mx_resnet.features(to_mx(x_res))
pool_output = f"{mx_resnet.prefix}pool1_fwd_output"
mx_pooled_sym = gluon.SymbolBlock(mx_resnet(mx_data).get_internals()[pool_output], mx_data,
                                  params=mx_resnet.collect_params())
compare.assert_same(mx_pooled_sym(to_mx(x_res)), mx_pooled, atol=0)
assert "flatten" in get_graph_node_names(pt_resnet)[1]
assert tuple(pt_pooled.shape) == (2, 512) and mx_pooled.shape == (2, 512, 1, 1)
pooled_diff = compare.assert_same(pt_pooled, mx_pooled.reshape((2, 512)), atol=1e-4)
f"3. by='order'; torchvision 'flatten', Gluon {pool_output}; max |Δ| = {pooled_diff:.1e}"
