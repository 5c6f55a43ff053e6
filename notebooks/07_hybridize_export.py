# %% [markdown]
# # 7 · HybridBlock, export and SymbolBlock: Gluon's graphs next to `torch.compile` and `torch.export`
#
# **What you will learn**
#
# - what `hybridize()` does — a graph traced once and cached, passed down to every child —
#   what stops it, and how `torch.jit` and `torch.compile` handle the same code;
# - whether hybridising is the free speed-up the seed promises, measured at three batch
#   sizes;
# - how `export()` and `SymbolBlock.imports` compare with `torch.export`, and how a
#   `SymbolBlock` built from `get_internals()` compares with torchvision's feature extractor.
#
# The networks are built on both sides, PyTorch's weights are copied into Gluon with
# `sidebyside.transfer`, and a check cell compares the numbers. `Block`, parameters and
# layer defaults are [notebook 6](06_blocks.ipynb).

# %% tags=["nbval-ignore-output"]
import contextlib
import inspect
import io
import json
import os
import shutil
import tempfile
import warnings

import mxnet as mx
import numpy as np
import torch
import torch._dynamo
import torchvision
from mxnet import gluon
from torch import nn
from torchvision.models.feature_extraction import (create_feature_extractor,
                                                   get_graph_node_names)

from sidebyside import compare, devices, errors, seeding, threads, timing, transfer

print(f"torch {torch.__version__} · torchvision {torchvision.__version__}"
      f" · mxnet {mx.__version__}")

# %% [markdown]
# Each framework picks its own device (a GPU when one really works, else the CPU), and
# two one-liners move a numpy array onto it:

# %% tags=["nbval-ignore-output"]
seeding.seed_everything(0)
rng = np.random.default_rng(0)
devs = devices.pick()
pt_dev, mx_ctx = devs.torch.device, devs.mxnet.device


def to_pt(a):
    return torch.from_numpy(a).to(pt_dev)


def to_mx(a, ctx=None):
    return mx.nd.array(a, ctx=ctx or mx_ctx)

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


outer = gluon.nn.Sequential()                       # a Block, not a HybridBlock
inner = gluon.nn.HybridSequential()
inner.add(gluon.nn.Dense(4), gluon.nn.Dense(2))
outer.add(inner, gluon.nn.Dense(3))
flags = {"before": active_flags(outer)}
with warnings.catch_warnings(record=True) as advice:
    warnings.simplefilter("always")
    outer.hybridize()
    flags["after outer.hybridize()"] = active_flags(outer)
    outer.hybridize(False)
    flags["after outer.hybridize(False)"] = active_flags(outer)
flags

# %%
assert not isinstance(outer, gluon.HybridBlock)
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


double = Double()
double(mx.nd.ones((2,)))
double.hybridize()
for _ in range(3):
    double(mx.nd.ones((2,)))
double.seen

# %%
assert double.seen == ["mxnet.ndarray: NDArray", "mxnet.symbol: Symbol"]

# %% [markdown]
# ### Partial shape inference
#
# Declaring only output sizes is not Gluon's alone: PyTorch's lazy modules do it too,
# but need a dry run with data. A Gluon graph infers every shape symbolically from the
# input shape — no data, no initialisation.
#
# **PyTorch**

# %%
pt_lazy_mlp = nn.Sequential(nn.LazyLinear(256), nn.ReLU(), nn.LazyLinear(10))
pt_lazy_mlp(torch.zeros(2, 784))                 # the dry run fixes the shapes
[tuple(p.shape) for p in pt_lazy_mlp.parameters()]

# %% [markdown]
# **Gluon**

# %%
mlp_sym = mx_mlp(mx.sym.var("data"))
arg_shapes, out_shapes, _ = mlp_sym.infer_shape(data=(2, 784))
dict(zip(mlp_sym.list_arguments(), arg_shapes)), out_shapes

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
# value. Python code that needs the *value* fails. First, an `if` on the data:
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
sign_flip = SignFlip()
sign_flip(to_mx(x_neg)).asnumpy()          # imperative: fine

# %% tags=["raises-exception"]
sign_flip.hybridize()
sign_flip(to_mx(x_neg))

# %% [markdown]
# Second, leaving the graph for numpy:

# %% tags=["nbval-ignore-output"]
class ScaleByPeak(gluon.HybridBlock):
    def hybrid_forward(self, F, x):
        peak = float(x.abs().max().asnumpy())     # a Python number: not in a graph
        return x / peak


scale_by_peak = ScaleByPeak()
scale_by_peak(to_mx(x_neg)).asnumpy()

# %% tags=["raises-exception"]
scale_by_peak.hybridize()
scale_by_peak(to_mx(x_neg))

# %% [markdown]
# The fix is to say it with operators: `F.where` for a choice made on values (and
# `F.contrib.cond` / `F.contrib.foreach` for real control flow), `F.broadcast_div`
# instead of a Python scalar:

# %%
class SignFlipHybrid(gluon.HybridBlock):
    def hybrid_forward(self, F, x):
        negative = (F.sum(x) < 0).reshape((1, 1))
        return F.where(F.broadcast_like(negative, x), -x, x)


sign_flip_hybrid = SignFlipHybrid()
sign_flip_hybrid.hybridize()
sign_flip_hybrid(to_mx(x_neg)).asnumpy(), sign_flip_hybrid(to_mx(-x_neg)).asnumpy()

# %%
for x_try in (x_neg, -x_neg):
    got = sign_flip_hybrid(to_mx(x_try)).asnumpy()
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
    scripted = torch.jit.script(TorchSignFlip())
    traced = torch.jit.trace(TorchSignFlip(), to_pt(-x_neg))   # a positive example
sorted({f"{w.category.__name__}: {str(w.message).splitlines()[0][:60]}"
        for w in caught})

# %% [markdown]
# `torch.compile` does not fail on the `if`: TorchDynamo cuts the graph there (a *graph
# break*), runs that bit as Python, and compiles the rest. `torch._dynamo.explain` counts
# the breaks. (`backend="eager"` only captures the graphs; the default backend, Inductor,
# also generates and compiles C++ code for the CPU, which needs a C++ compiler and takes
# seconds, not milliseconds — exercise 1 times it on your machine.)

# %%
compiled_flip = torch.compile(TorchSignFlip(), backend="eager")
variants = {"eager": TorchSignFlip(), "jit.script": scripted, "jit.trace": traced,
            "torch.compile": compiled_flip}
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
# ### Is hybridising a free speed-up? Measured
#
# The seed promises that hybridised blocks get the graph's speed "at zero cost". The cost
# side is above: no Python control flow on values, no leaving the graph, side effects that
# run once. The speed side, measured: one forward pass of the MLP, imperative and
# hybridised, at three batch sizes, with PyTorch eager for reference on the same number of
# threads. Machine-dependent numbers, for reading only; the check is that every mode gives
# the same outputs.

# %% tags=["nbval-ignore-output"]
def forward_ms(net, x, calls):
    """Milliseconds per forward call: the median of five timed runs of `calls` calls."""
    def run():
        for _ in range(calls):
            y = net(x)
        return y
    return timing.measure(run, repeat=5, warmup=1).median / calls * 1e3


MODES = {"imperative": None, "hybridize()": {},
         "hybridize(static_alloc, static_shape)": {"static_alloc": True,
                                                   "static_shape": True}}
speed, outputs = {}, {}
with threads.matched() as same_threads, torch.no_grad():
    for batch, calls in ((1, 200), (64, 50), (1024, 5)):
        x_np = rng.normal(size=(batch, 784)).astype(np.float32)
        pt_x, mx_x = to_pt(x_np), to_mx(x_np)
        row = {"PyTorch eager": forward_ms(pt_mlp, pt_x, calls)}
        for mode, flags in MODES.items():
            mx_mlp.hybridize(active=flags is not None, **(flags or {}))
            row[f"Gluon {mode}"] = forward_ms(mx_mlp, mx_x, calls)
            outputs[(batch, mode)] = (pt_mlp(pt_x), mx_mlp(mx_x))
        speed[batch] = {k: round(v, 3) for k, v in row.items()}
print(same_threads)
speed

# %% tags=["nbval-ignore-output"]
for batch, row in speed.items():
    gain = 1 - row["Gluon hybridize(static_alloc, static_shape)"] / row["Gluon imperative"]
    print(f"batch {batch:4}: hybridize(static_alloc, static_shape) takes "
          f"{abs(gain):.0%} {'less' if gain >= 0 else 'more'} time per forward than "
          f"imperative Gluon")

# %%
for (batch, mode), (pt_out, mx_out) in outputs.items():
    compare.assert_same(pt_out, mx_out, atol=1e-5)
assert same_threads.torch == same_threads.mxnet
assert sorted(speed) == [1, 64, 1024] and all(len(row) == 4 for row in speed.values())

# %% [markdown]
# How to read it: hybridising removes Python's work per operator — pushing each of the
# MLP's operators from Python into the engine — and keeps the arithmetic. So it pays where
# that overhead is a large part of a call (small batches, many small operators) and
# changes little once the matrix products dominate (large batches). It is a real gain for
# deployment-sized inputs and for networks of many cheap layers, not a general one; and it
# is not free, for the reasons in the previous subsections.

# %% [markdown]
# ## 2. `export()`, `SymbolBlock` and feature extraction
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
program = torch.export.export(pt_mlp, (pt_in,))
torch.export.save(program, os.path.join(export_dir, "mlp.pt2"))
pt_loaded = torch.export.load(os.path.join(export_dir, "mlp.pt2")).module()
[str(node.target) for node in program.graph.nodes if node.op == "call_function"]

# %% [markdown]
# **Gluon**

# %%
mx_mlp.export(os.path.join(export_dir, "mlp"))
with open(os.path.join(export_dir, "mlp-symbol.json")) as f:
    graph = json.load(f)
(sorted(os.listdir(export_dir)),
 [node["op"] for node in graph["nodes"] if node["op"] != "null"])

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
grabbed = []
hook = pt_alex.classifier[2].register_forward_hook(
    lambda module, args, output: grabbed.append(output))
with torch.no_grad():
    pt_alex(to_pt(x_alex))
hook.remove()
tuple(grabbed[0].shape)

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
alex_pairs = transfer.torch_to_gluon(pt_alex, mx_alex, by="order")
assert alex_pairs[0] == ("features.0", "features.0")
assert alex_pairs[-1] == ("classifier.6", "output")
data = mx.sym.var("data", dtype="float32")
internals = mx_alex(data).get_internals()
[name for name in internals.list_outputs() if name.endswith("relu_fwd_output")]

# %% [markdown]
# The seed's `internals['model_dense0_relu_fwd_output']` is not there: the prefix comes
# from the network's name, `alexnet0_` for the first AlexNet built in a process. The
# seed's name appears only when the network is built with `prefix="model_"`:

# %%
seed_name = "model_dense0_relu_fwd_output"
renamed = gluon.model_zoo.vision.alexnet(prefix="model_")
{"default prefix": seed_name in internals.list_outputs(),
 'prefix="model_"': seed_name in renamed(data).get_internals().list_outputs()}

# %%
mx_fc6 = gluon.SymbolBlock(internals["alexnet0_dense0_relu_fwd_output"], data,
                           params=mx_alex.collect_params())
mx_features = mx_fc6(to_mx(x_alex))
mx_features.shape

# %% [markdown]
# The input variable need not be called `data`. What matters is that the `SymbolBlock` is
# given the variable its output was *built from*: with any other, the graph's real input is
# left over and taken for a parameter that nobody initialised.

# %%
pixels = mx.sym.var("pixels", dtype="float32")
fc6_from_pixels = gluon.SymbolBlock(
    mx_alex(pixels).get_internals()["alexnet0_dense0_relu_fwd_output"], pixels,
    params=mx_alex.collect_params())
with contextlib.redirect_stdout(io.StringIO()) as printed:   # MXNet prints a hint first
    wrong_input = errors.catch(lambda: gluon.SymbolBlock(
        internals["alexnet0_dense0_relu_fwd_output"], mx.sym.var("pixels", dtype="float32"),
        params=mx_alex.collect_params())(to_mx(x_alex)))
compare.assert_same(fc6_from_pixels(to_mx(x_alex)), mx_features, atol=0)
assert wrong_input.type == "RuntimeError"
assert wrong_input.line.startswith("Parameter 'data' has not been initialized")
assert printed.getvalue().startswith("infer_type error")
{"printed": printed.getvalue().splitlines()[0], "raised": wrong_input.line.split(". ")[0]}

# %% [markdown]
# **Check**: the same 4096 features on both sides (their values are of order 0.1;
# tolerance 1e-5), the hook's equal to the extractor's, and the `SymbolBlock` holds the
# network's own parameters, not copies.

# %% tags=["nbval-ignore-output"]
diff = compare.assert_same(pt_features, mx_features, atol=1e-5)
compare.assert_same(grabbed[0], pt_features)
assert mx_fc6.collect_params()["alexnet0_dense0_weight"] is \
    mx_alex.collect_params()["alexnet0_dense0_weight"]
assert float(np.abs(compare.to_numpy(pt_features)).max()) > 1e-3   # not all zero
f"fc6 features: max |torch - gluon| = {diff:.1e}"

# %% [markdown]
# ## Summary
#
# | | PyTorch | MXNet Gluon 1.x |
# |---|---|---|
# | a block that can become a graph | any `nn.Module` | `HybridBlock` + `hybrid_forward(F, x)` (`HybridSequential`, not `Sequential`) |
# | graph mode | `torch.compile` (graph breaks fall back to Python); `torch.jit.*` deprecated | `hybridize(static_alloc=, static_shape=)`, passed down to every child; value-dependent Python is an error |
# | control flow on values | Python `if` (compiled, or a graph break) | `F.where`, `F.contrib.cond`, `F.contrib.foreach` |
# | speed | — | fewer Python calls per forward: pays for small batches and many small layers, little for large ones |
# | shape inference | lazy modules + a dry run | `sym.infer_shape(data=shape)` |
# | save graph + weights | `torch.export.export` + `torch.export.save/load` (`.pt2`) | `export(path)` → `-symbol.json` + `-0000.params`; `SymbolBlock.imports` |
# | feature extractor | `create_feature_extractor(net, {"classifier.2": "fc6"})`, forward hooks | `SymbolBlock(internals[name], x, params=net.collect_params())`, `x` the variable the graph was built from |
#
# ### What the seed articles said, checked
#
# | seed claim | verdict | shown in |
# |---|---|---|
# | Dense, Conv2D, MaxPool2D, BatchNorm are `HybridBlock`s | confirmed (`Sequential` is not; `HybridSequential` is) | §1 |
# | `hybridize(active=True, static_alloc=False, static_shape=False)` | confirmed; 1.9.1 adds `backend`, `clear`, `inline_limit`, bulk sizes | §1 |
# | `Block.hybridize()` passes `hybridize` down to all children | confirmed, through non-hybrid containers too | §1 |
# | hybridised blocks get the graph's speed "at zero cost" | **not in general**: a gain where Python's per-operator work dominates (small batches), little where the arithmetic does; and code that reads values cannot be hybridised | §1 |
# | partial shape inference: PyTorch "not available" | obsolete: lazy modules (with a dry run); Gluon infers from the shape alone | §1 |
# | hybridize: PyTorch "not available" | obsolete: `torch.compile`, `torch.export` (and the now deprecated `torch.jit`) | §1, §2 |
# | `alexnet(pretrained=True)`, `internals['model_dense0_relu_fwd_output']` → `SymbolBlock` | corrected: the name is `alexnet0_dense0_relu_fwd_output` unless built with `prefix="model_"`; the `SymbolBlock` needs the variable the graph was built from (any name); `pretrained=True` downloads | §2 |
# | SymbolBlock: PyTorch "not available" | obsolete: `create_feature_extractor`, forward hooks | §2 |
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
# 4. Time a *training* step (forward, backward, `trainer.step`) imperative and hybridised
#    at batch 1 and 1024. Is the gain larger or smaller than for the forward pass alone?
