# %% [markdown]
# # Deep dive · Gradients recorded while predicting: `record(train_mode=False)` in MXNet 1.9.1
#
# This page deepens [notebook 5](../05_autograd.ipynb) §2 (*Gradients under
# `record(train_mode=False)`*), where one max pooling shows that a gradient recorded while
# predicting can be wrong. Here: which layers are wrong, in which scope, dtype and backend
# (§1); the two causes (§2); more poolings and normalisations (§3); and how to get PyTorch's
# `model.eval()` gradients out of Gluon all the same (§4).
#
# The survey is the script `tools/survey_predict_mode_backward.py`; this page runs it twice,
# in fresh processes, with MXNet's oneDNN kernels on and off. **Time**: about 15 minutes.

# %% tags=["nbval-ignore-output"]
import copy
import json
import os
import subprocess
import sys

import mxnet as mx
import numpy as np
import torch
from mxnet import autograd, gluon, nd

from sidebyside import compare, devices, errors, seeding, table, transfer

SEED = seeding.seed_everything(0)
devs = devices.pick()
pt_dev, mx_ctx = devs.torch.device, devs.mxnet.device
print(f"torch {torch.__version__} · mxnet {mx.__version__}")


# %% [markdown]
# ## 1. Twelve layers, three scopes, two backends
#
# For each layer the survey compares the gradients of the input and of the parameters with
# PyTorch's. PyTorch computes them in float64 from the same input, weights and head
# gradient, with the layer in the same mode (`training=True` under `record()`, `False`
# otherwise). MXNet runs in float32 and in float64, under three scopes:
#
# - `record()`: training;
# - `record(train_mode=False)`, then a plain `backward()`. `backward()` has its own
#   `train_mode` argument, and it defaults to `True`;
# - `record(train_mode=False)`, then `backward(train_mode=False)`.
#
# A gradient is right within 1e-4 (float32) or 1e-10 (float64) of the largest entry of
# PyTorch's (or of 1, when that is smaller). A cell reads "WRONG dx" when the input
# gradient is wrong, with the dtype in brackets when only one dtype is. The last column
# repeats the three scopes with `MXNET_MKLDNN_ENABLED=0`, which switches oneDNN off. MXNet
# reads that variable when it is imported, hence the fresh processes.

# %%
SURVEY = os.path.join(os.pardir, os.pardir, "tools", "survey_predict_mode_backward.py")


def run_survey(onednn):
    env = {**os.environ, "MXNET_MKLDNN_ENABLED": "1" if onednn else "0",
           "MXNET_STORAGE_FALLBACK_LOG_VERBOSE": "0"}
    proc = subprocess.run([sys.executable, SURVEY], capture_output=True, text=True,
                          check=True, timeout=600, env=env)
    return json.loads(proc.stdout)


onednn, no_onednn = run_survey(True), run_survey(False)
SCOPES = list(dict.fromkeys(r["scope"] for r in onednn["rows"]))
TRAIN, PREDICT, PREDICT_BOTH = SCOPES


def status(rows):
    """'right', 'WRONG dx', or 'ERROR' for the rows of one dtype."""
    if any(r["verdict"] == "ERROR" for r in rows):
        return "ERROR"
    bad = sorted({"d" + n for r in rows for n in r["wrong"]})
    return f"WRONG {', '.join(bad)}" if bad else "right"


def verdict(result, operator, scope):
    """One cell of the table: float32 and float64 together."""
    by_dtype = {d: status([r for r in result["rows"]
                           if (r["operator"], r["scope"], r["dtype"]) == (operator, scope, d)])
                for d in ("float32", "float64")}
    if len(set(by_dtype.values())) == 1:
        return by_dtype["float32"]
    return "; ".join(f"{s} ({d})" for d, s in by_dtype.items() if s != "right")


def verdicts(operators):
    return [{"operator": op,
             "record()": verdict(onednn, op, TRAIN),
             "record(train_mode=False)": verdict(onednn, op, PREDICT),
             "+ backward(train_mode=False)": verdict(onednn, op, PREDICT_BOTH),
             "oneDNN off (the 3 scopes)": " · ".join(verdict(no_onednn, op, s)
                                                     for s in SCOPES)}
            for op in operators]


CORE = list(dict.fromkeys(r["operator"] for r in onednn["rows"]))[:12]
table.show(verdicts(CORE))

# %% [markdown]
# **Check**: every row is there (12 layers × 2 dtypes × 3 scopes, in each backend), and the
# wrong cases are exactly these, all of them input gradients, all far off (not a tolerance
# question):
#
# - with oneDNN: max pooling in float32 under both predicting scopes, hybridized or not,
#   and under `record()` too when its input is a view (a reshape taken just before it,
#   outside a hybridized block);
# - in both backends and both dtypes: BatchNorm with batch statistics (the default) under
#   `record(train_mode=False)`, unless `backward(train_mode=False)`.
#
# Everything else is right: convolution, relu, average pooling, `Dense`,
# `BatchNorm(use_global_stats=True)`, Dropout, softmax and log-softmax.

# %%
def wrong(result, operators):
    return {(r["operator"], r["scope"], r["dtype"]) for r in result["rows"]
            if r["verdict"] == "WRONG" and r["operator"] in operators}


assert onednn["mkldnn"] and not no_onednn["mkldnn"]
assert mx.runtime.Features().is_enabled("MKLDNN")        # this build has oneDNN to switch
for result in (onednn, no_onednn):
    rows = [r for r in result["rows"] if r["operator"] in CORE]
    assert len(rows) == 12 * 2 * 3 and all(r["verdict"] != "ERROR" for r in rows)
    assert all(r["wrong"] == ["x"] and r["max_err"] > 0.05
               for r in rows if r["verdict"] == "WRONG")
MAX_POOLS = ("max pooling", "max pooling of a reshape", "the same, hybridized")
batchnorm_wrong = {("BatchNorm (default)", PREDICT, d) for d in ("float32", "float64")}
pooling_wrong = ({(op, scope, "float32") for op in MAX_POOLS for scope in (PREDICT, PREDICT_BOTH)}
                 | {("max pooling of a reshape", TRAIN, "float32")})
assert wrong(onednn, CORE) == batchnorm_wrong | pooling_wrong
assert wrong(no_onednn, CORE) == batchnorm_wrong
"max pooling (oneDNN, float32) and BatchNorm's input (batch statistics) are wrong"

# %% [markdown]
# ## 2. Two causes
#
# ### Max pooling: a workspace nobody wrote
#
# oneDNN's max-pooling backward pass reads where each window's maximum was (a
# *workspace*), and the forward pass writes that workspace only when it trains. In MXNet's
# `src/operator/nn/mkldnn/mkldnn_pooling.cc` the forward asks for a workspace only
# `is_train`, while the backward reads one for every max pooling. Predicting, nothing
# writes it, and the gradient lands wherever that memory points; with oneDNN off, MXNet's
# own kernel recomputes the positions and is right. The survey's first probe shows both: a
# 2×2 max pooling of a 4×4 `arange`, whose gradient belongs at the bottom-right of each
# window.

# %% tags=["nbval-ignore-output"]
{"oneDNN on": onednn["demo"], "oneDNN off": no_onednn["demo"]}

# %%
BOTTOM_RIGHT = [[1, 1], [1, 3], [3, 1], [3, 3]]
assert onednn["demo"]["record()"] == BOTTOM_RIGHT
assert onednn["demo"]["record(train_mode=False)"] != BOTTOM_RIGHT
assert onednn["demo"]["record(), input a reshaped view"] != BOTTOM_RIGHT
assert all(where == BOTTOM_RIGHT for where in no_onednn["demo"].values())

# %% [markdown]
# (With oneDNN the wrong positions vary from run to run: the printout above is one run's,
# and [notebook 5](../05_autograd.ipynb) §2 checks that they vary.)
#
# ### BatchNorm: a training backward pass after a predicting forward pass
#
# Under `record(train_mode=False)` the forward pass normalises with the running
# statistics, but a plain `backward()` runs in training mode and applies the formula for
# *batch* statistics, which also differentiates through the batch's mean and variance:
# `dx = γ/√(σ² + ε) · (dy − mean(dy) − x̂ · mean(dy · x̂))`, averaged over the batch and
# the spatial axes, with x̂ and σ² from the running statistics. For fixed statistics the
# gradient is just `γ/√(σ² + ε) · dy`. The check below computes both with numpy
# (float64) and compares MXNet's input gradient with each; γ's and β's gradients are
# right either way.

# %%
rng = np.random.default_rng(1)
bn_x, bn_head = rng.standard_normal((4, 3, 5, 5)), rng.standard_normal((4, 3, 5, 5))
bn_values = {"gamma": 1 + 0.1 * rng.standard_normal(3), "beta": rng.standard_normal(3),
             "running_mean": rng.standard_normal(3),
             "running_var": 1 + np.abs(rng.standard_normal(3))}
mx_bn = gluon.nn.BatchNorm(in_channels=3)
mx_bn.initialize(ctx=mx.cpu())
mx_bn.cast("float64")
for name, value in bn_values.items():
    getattr(mx_bn, name).set_data(nd.array(value, dtype="float64"))


def mx_bn_grads(backward_train):
    x = nd.array(bn_x, dtype="float64")
    x.attach_grad()
    with autograd.record(train_mode=False):
        y = mx_bn(x)
    y.backward(nd.array(bn_head, dtype="float64"), train_mode=backward_train)
    return y.asnumpy(), x.grad.asnumpy(), mx_bn.gamma.grad().asnumpy()


def per_channel(v):
    return v[None, :, None, None]


scale = per_channel(bn_values["gamma"] / np.sqrt(bn_values["running_var"] + 1e-5))
x_hat = (bn_x - per_channel(bn_values["running_mean"])) / np.sqrt(
    per_channel(bn_values["running_var"]) + 1e-5)
axes = (0, 2, 3)
dx_fixed = scale * bn_head
dx_batch_formula = scale * (bn_head - bn_head.mean(axis=axes, keepdims=True)
                            - x_hat * (bn_head * x_hat).mean(axis=axes, keepdims=True))
dgamma = (bn_head * x_hat).sum(axis=axes)
bn_runs = {"backward()": mx_bn_grads(True), "backward(train_mode=False)": mx_bn_grads(False)}
{label: {"dx is the batch formula": bool(np.allclose(dx, dx_batch_formula, atol=1e-12)),
         "dx is the fixed-statistics one": bool(np.allclose(dx, dx_fixed, atol=1e-12))}
 for label, (_, dx, _) in bn_runs.items()}

# %%
for y, dx, dg in bn_runs.values():
    np.testing.assert_allclose(y, per_channel(bn_values["gamma"]) * x_hat
                               + per_channel(bn_values["beta"]), atol=1e-12)
    np.testing.assert_allclose(dg, dgamma, atol=1e-12)           # γ: right in both
np.testing.assert_allclose(bn_runs["backward()"][1], dx_batch_formula, atol=1e-12)
np.testing.assert_allclose(bn_runs["backward(train_mode=False)"][1], dx_fixed, atol=1e-12)
assert np.abs(dx_batch_formula - dx_fixed).max() > 0.1
"record(train_mode=False) + backward(): the batch-statistics formula, at the running stats"

# %% [markdown]
# ## 3. More poolings and normalisations
#
# The same survey for `GlobalMaxPool2D` and `MaxPool1D` (each also after a reshape, plain
# and hybridized), `LayerNorm`, `InstanceNorm` and `LeakyReLU(alpha=0.1)`:

# %%
MORE = [op for op in dict.fromkeys(r["operator"] for r in onednn["rows"]) if op not in CORE]
table.show(verdicts(MORE))

# %% [markdown]
# **Check**: the two poolings behave like `MaxPool2D`: with oneDNN, their float32 input
# gradient is wrong under both predicting scopes, and under `record()` too when the input
# is a view, unless hybridized; with oneDNN off they are right. `LayerNorm` is right
# everywhere. Two findings in every scope and backend: `InstanceNorm` has no float64
# kernel, and the float64 gradient of `LeakyReLU` misses the 1e-10 bound, by less than
# 1e-8.

# %%
POOLS = {"GlobalMaxPool2D": ("GlobalMaxPool2D of a reshape", "the same, hybridized (global)"),
         "MaxPool1D": ("MaxPool1D of a reshape", "the same, hybridized (1-D)")}
LEAKY = "LeakyReLU(alpha=0.1)"
assert set(MORE) == {*POOLS, *(v for pair in POOLS.values() for v in pair), "LayerNorm",
                     "InstanceNorm", LEAKY}
leaky_wrong = {(LEAKY, s, "float64") for s in SCOPES}
more_pool_wrong = ({(op, scope, "float32") for plain, (view, hybrid) in POOLS.items()
                    for op in (plain, view, hybrid) for scope in (PREDICT, PREDICT_BOTH)}
                   | {(view, TRAIN, "float32") for view, _ in POOLS.values()})
assert wrong(onednn, MORE) == more_pool_wrong | leaky_wrong
assert wrong(no_onednn, MORE) == leaky_wrong
for result in (onednn, no_onednn):
    failed = {(r["operator"], r["dtype"], r["error"]) for r in result["rows"]
              if r["verdict"] == "ERROR"}
    assert failed == {("InstanceNorm", "float64", "Unsupported data type 1")}
    leaky_errors = [r["max_err"] for r in result["rows"]
                    if r["operator"] == LEAKY and r["dtype"] == "float64"]
    assert len(leaky_errors) == 3 and all(1e-10 < e < 1e-8 for e in leaky_errors)
"the poolings as MaxPool2D; InstanceNorm: no float64 kernel; LeakyReLU float64 off by <1e-8"

# %% [markdown]
# Why `LeakyReLU` misses in float64: its slope reaches the kernel as a float32,
# 0.100000001490116…, so the gradient of a negative entry is that number, not 0.1. The
# same float32 rounding of a hyperparameter as in [notebook 3](../03_mnist_mlp.ipynb) §4.

# %%
leaky_x = nd.array(np.linspace(-2, 2, 9), dtype="float64")
leaky_x.attach_grad()
with autograd.record():
    leaky_y = gluon.nn.LeakyReLU(0.1)(leaky_x)
leaky_y.backward()
slopes = set(leaky_x.grad.asnumpy()[leaky_x.asnumpy() < 0].tolist())
assert slopes == {float(np.float32(0.1))} and float(np.float32(0.1)) != 0.1
{"slope of the negative entries is float32(0.1)": slopes == {float(np.float32(0.1))}}

# %% [markdown]
# ## 4. Eval-mode gradients, the safe way
#
# A parity run against PyTorch's `model.eval()` needs gradients of a predicting network.
# The safe way in Gluon is to stay in `record()` and take the training behaviour out by
# construction: each Dropout becomes `Dropout(0.0)`, and BatchNorm gets
# `use_global_stats=True`, which §1 shows right in every scope. Gluon allows the
# replacement by assignment when the new child has the same type. The network: conv →
# BatchNorm → relu → max pooling → Dropout(0.5) → dense. **PyTorch**, `eval()`, with
# running statistics that are not the fresh ones:

# %%
class TorchConvNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv, self.bn = torch.nn.Conv2d(3, 4, 3), torch.nn.BatchNorm2d(4)
        self.dropout, self.dense = torch.nn.Dropout(0.5), torch.nn.Linear(16, 3)

    def forward(self, x):
        x = torch.nn.functional.max_pool2d(torch.relu(self.bn(self.conv(x))), 2)
        return self.dense(self.dropout(x.flatten(1)))


seeding.seed_everything(SEED)
pt_net64 = TorchConvNet().double()
with torch.no_grad():
    pt_net64.bn.running_mean.normal_()
    pt_net64.bn.running_var.uniform_(0.5, 2)
net_x, net_head = (np.random.default_rng(0).normal(size=(2, 3, 6, 6)),
                   np.random.default_rng(1).normal(size=(2, 3)))
PARAM_NAMES = {"conv.weight": "conv.weight", "conv.bias": "conv.bias", "bn.weight": "bn.gamma",
               "bn.bias": "bn.beta", "dense.weight": "dense.weight", "dense.bias": "dense.bias"}


def pt_eval_grads(dtype):
    net = copy.deepcopy(pt_net64).to(getattr(torch, dtype)).eval()
    x = torch.tensor(net_x, dtype=getattr(torch, dtype), requires_grad=True)
    net(x).backward(torch.tensor(net_head, dtype=x.dtype))
    return {"x": x.grad, **{name: p.grad for name, p in net.named_parameters()}}


pt_eval = {dtype: pt_eval_grads(dtype) for dtype in ("float32", "float64")}
{name: tuple(g.shape) for name, g in pt_eval["float64"].items()}

# %% [markdown]
# **Gluon**: the same network and weights (copied with `sidebyside.transfer`), once under
# `record(train_mode=False)`, once under `record()` with the two children replaced. The
# cell lists the gradients that differ from PyTorch's `eval()` ones (beyond `1e-4` in
# float32, `1e-10` in float64; which float32 ones differ depends on where the wrong
# max-pooling gradient lands). The check below asserts the recipe's gradients against
# PyTorch's, and the pieces of the recipe: `Dropout(0.0)` is an exact identity in training
# mode, a child of another type cannot be assigned, and the running statistics stay put
# under `record()` + `backward()`.

# %% tags=["nbval-ignore-output"]
class GluonConvNet(gluon.HybridBlock):
    def __init__(self):
        super().__init__()
        self.conv = gluon.nn.Conv2D(4, 3, in_channels=3)
        self.bn = gluon.nn.BatchNorm(in_channels=4)
        self.pool = gluon.nn.MaxPool2D(2)
        self.dropout = gluon.nn.Dropout(0.5)
        self.dense = gluon.nn.Dense(3, in_units=16)

    def hybrid_forward(self, F, x):
        return self.dense(self.dropout(self.pool(F.relu(self.bn(self.conv(x))))))


def mx_net_grads(dtype, recipe):
    net = GluonConvNet()
    if recipe:                       # eval behaviour by construction, same child types
        net.dropout = gluon.nn.Dropout(0.0)
        net.bn = gluon.nn.BatchNorm(in_channels=4, use_global_stats=True)
    net.initialize(ctx=mx.cpu())
    net.cast(dtype)
    transfer.torch_to_gluon(copy.deepcopy(pt_net64).to(getattr(torch, dtype)), net,
                            check_hparams=False)   # use_global_stats has no torch twin
    x = nd.array(net_x, dtype=dtype)
    x.attach_grad()
    with autograd.record(train_mode=recipe):
        out = net(x)
    out.backward(nd.array(net_head, dtype=dtype))
    grads = {"x": x.grad}
    for pt_name, mx_name in PARAM_NAMES.items():
        layer, attr = mx_name.split(".")
        grads[pt_name] = getattr(getattr(net, layer), attr).grad()
    return grads, net


GRAD_TOL = {"float32": 1e-4, "float64": 1e-10}
mx_runs = {(dtype, recipe): mx_net_grads(dtype, recipe)
           for dtype in GRAD_TOL for recipe in (False, True)}


def differ(dtype, recipe):
    tol = GRAD_TOL[dtype]
    return [name for name, g in mx_runs[dtype, recipe][0].items()
            if not np.allclose(g.asnumpy(), compare.to_numpy(pt_eval[dtype][name]),
                               rtol=tol, atol=tol)]


{f"{dtype}, {'record() + recipe' if recipe else 'record(train_mode=False)'}":
 differ(dtype, recipe) for dtype, recipe in mx_runs}

# %%
for dtype in GRAD_TOL:
    tol = GRAD_TOL[dtype]
    for name, want in pt_eval[dtype].items():
        compare.assert_same(want, mx_runs[dtype, True][0][name], rtol=tol, atol=tol,
                            names=(f"torch eval() {name}", "gluon recipe"))
assert {"x", "conv.weight", "bn.weight"} <= set(differ("float32", False))   # max pooling
assert differ("float64", False) == ["x", "conv.weight", "conv.bias"]         # BatchNorm
recipe_net = mx_runs["float64", True][1]
compare.assert_same(recipe_net.bn.running_mean.data(), pt_net64.bn.running_mean, atol=0)
compare.assert_same(recipe_net.bn.running_var.data(), pt_net64.bn.running_var, atol=0)

drop_x = nd.array(net_x, dtype="float64")
drop_x.attach_grad()
with autograd.record():
    drop_y = gluon.nn.Dropout(0.0)(drop_x)
drop_y.backward()
assert (drop_y.asnumpy() == net_x).all() and (drop_x.grad.asnumpy() == 1).all()
refused = errors.catch(lambda: setattr(GluonConvNet(), "dropout", gluon.nn.HybridLambda(
    lambda F, x: x)))
assert refused.type == "TypeError" and "Changing attribute type for dropout" in refused.reason
"record() + Dropout(0.0) + BatchNorm(use_global_stats=True) = PyTorch's eval() gradients"

# %% [markdown]
# ## What this means for a port
#
# - Never take gradients under `record(train_mode=False)` in MXNet 1.9.1 to match a
#   PyTorch `model.eval()` run. On the CPU with oneDNN (the pip wheels), every max pooling
#   — 1-D, 2-D, global — gets a float32 input gradient that lands in the wrong places, and
#   BatchNorm with batch statistics differentiates the training formula in every backend.
# - A view as the input of a max pooling (a `reshape` or slice just before it) breaks its
#   gradient even under `record()`, unless the block is hybridized.
# - For eval-mode gradients, use `record()` with `Dropout(0.0)` and
#   `BatchNorm(use_global_stats=True)` in place of the training-mode layers (§4).
# - For float64 parity, mind the float32 constants inside some kernels: `LeakyReLU`'s slope
#   is rounded to float32, and `InstanceNorm` has no float64 kernel at all.
