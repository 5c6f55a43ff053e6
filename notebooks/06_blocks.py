# %% [markdown]
# # 6 · Blocks, parameters and layer defaults: `gluon.Block` next to `nn.Module`
#
# **What you will learn**
#
# - how a custom `gluon.Block` maps onto an `nn.Module`, how Gluon 1.x names, collects and
#   saves parameters — and when `save_parameters()` keys match `state_dict()` keys;
# - how each side initialises a network and one layer, and how Gluon's *default*
#   initialisers differ from PyTorch's, how to reproduce PyTorch's in Gluon, and MXNet's
#   (`Xavier`, `MSRAPrelu`, `Uniform`, `Normal`) in PyTorch;
# - which layer defaults change the numbers when you port a network: BatchNorm momentum and
#   variance, `Dense(flatten=True)`, channel layout, and the argument names of convolution
#   and pooling layers.
#
# Each network is built on both sides, PyTorch's weights are copied into Gluon with
# `sidebyside.transfer`, and a check cell compares the numbers. The seed articles' claims
# about blocks are tested on the way; the verdicts are collected in the summary.
# `HybridBlock`, `hybridize()`, `export()` and `SymbolBlock` are
# [notebook 7](07_hybridize_export.ipynb).
#
# **Prerequisites**: [notebook 3](03_mnist_mlp.ipynb) (the MLP as a Block and a Module).
# **Time**: about 50 minutes.

# %% tags=["nbval-ignore-output"]
import inspect
import os
import tempfile
import warnings

import matplotlib.pyplot as plt
import mxnet as mx
import numpy as np
import torch
import torchvision
from mxnet import autograd, gluon
from torch import nn

from sidebyside import compare, devices, errors, initmap, seeding, transfer

print(f"torch {torch.__version__} · torchvision {torchvision.__version__}"
      f" · mxnet {mx.__version__}")
SEED = seeding.seed_everything(0)
devs = devices.pick(verbose=False)
pt_dev, mx_ctx = devs.torch.device, devs.mxnet.device

# %% [markdown]
# Each framework picks its own device (a GPU when one really works, else the CPU), and
# two one-liners move a numpy array onto it:

# %% tags=["nbval-ignore-output"]
rng = np.random.default_rng(0)


def to_pt(a):
    return torch.from_numpy(a).to(pt_dev)


def to_mx(a, ctx=None):
    return mx.nd.array(a, ctx=ctx or mx_ctx)


devs

# %% [markdown]
# ## 1. A custom block: `nn.Module` and `gluon.Block`
#
# The same two-layer network. Both subclass a base class, create their layers in
# `__init__` and compute in `forward`. PyTorch's `Linear` takes the input size; Gluon's
# `Dense` takes only the output size (it infers the input size at the first forward) and
# takes the activation as an argument.
#
# **PyTorch**

# %% tags=["pytorch"]
class TorchMLP(nn.Module):
    def __init__(self, d_in, d_hidden, d_out):
        super().__init__()
        self.hidden = nn.Linear(d_in, d_hidden)
        self.out = nn.Linear(d_hidden, d_out)

    def forward(self, x):
        return self.out(torch.relu(self.hidden(x)))


pt_net = TorchMLP(6, 16, 3).to(pt_dev)
pt_net

# %% [markdown]
# **Gluon**

# %% tags=["gluon"]
class GluonMLP(gluon.Block):
    def __init__(self, d_hidden, d_out, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.hidden = gluon.nn.Dense(d_hidden, activation="relu")
            self.out = gluon.nn.Dense(d_out)

    def forward(self, x):
        return self.out(self.hidden(x))


mx_net = GluonMLP(16, 3)
mx_net.initialize(ctx=mx_ctx)
mx_net

# %% [markdown]
# `Linear.weight` and `Dense.weight` are both stored `(out, in)`: the copy needs no
# transpose. `transfer.torch_to_gluon` pairs the layers by their attribute names (`hidden`,
# `out` on both sides), refuses anything that does not match in kind, shape or dtype, and
# gives Gluon the shapes it has not inferred yet.
# Calling either network is the same `y = net(x)`:

# %%
x6 = rng.normal(size=(4, 6)).astype(np.float32)
copied = transfer.torch_to_gluon(pt_net, mx_net)
pt_y, mx_y = pt_net(to_pt(x6)), mx_net(to_mx(x6))
copied

# %% [markdown]
# **Check**: same weights, same outputs (float32; tolerance 1e-6):

# %% tags=["nbval-ignore-output"]
assert copied == [("hidden", "hidden"), ("out", "out")]
assert mx_net.hidden.weight.shape == tuple(pt_net.hidden.weight.shape) == (16, 6)
diff = compare.assert_same(pt_y, mx_y, atol=1e-6)
f"max |torch - gluon| = {diff:.1e}"

# %% [markdown]
# ### Parameter names: `name_scope()` in 1.x
#
# `named_parameters()` names a parameter by where it sits (`hidden.weight`). Gluon 1.x
# gives every parameter a globally unique *prefixed* name: the block's prefix (class
# name and a per-class counter, `gluonmlp0_`), then the child's (`dense0_`), then the
# parameter's. `name_scope()` is what puts the parent's prefix in front.
#
# **PyTorch**

# %% tags=["pytorch"]
[name for name, _ in pt_net.named_parameters()]

# %% [markdown]
# **Gluon**

# %% tags=["gluon"]
list(mx_net.collect_params())

# %% [markdown]
# A second instance gets the next counter; the same class without `name_scope()` gets
# names that say nothing about the network they belong to:

# %%
class GluonMLPNoScope(gluon.Block):
    def __init__(self, d_hidden, d_out, **kwargs):
        super().__init__(**kwargs)
        self.hidden = gluon.nn.Dense(d_hidden, activation="relu")
        self.out = gluon.nn.Dense(d_out)

    def forward(self, x):
        return self.out(self.hidden(x))


second, no_scope = GluonMLP(16, 3), GluonMLPNoScope(16, 3)
{"second GluonMLP": list(second.collect_params()),
 "GluonMLPNoScope": list(no_scope.collect_params())}

# %% [markdown]
# So the seed's "Gluon requires `name_scope()`" is too strong for 1.9.1: without it the
# network works and `collect_params()` still finds every parameter; only the names lose
# the parent's prefix. MXNet 2.0 removed `name_scope()` and the prefixes altogether
# ([apache/mxnet#20473](https://github.com/apache/mxnet/pull/20473), the 2.0 migration
# guide). And 1.x already uses *structural* names where it matters most:
# `save_parameters()` keys each parameter by its path of attribute names — here the same
# keys as PyTorch's `state_dict()`.

# %%
with tempfile.TemporaryDirectory() as tmp:
    mx_net.save_parameters(os.path.join(tmp, "mlp.params"))
    saved_keys = sorted(mx.nd.load(os.path.join(tmp, "mlp.params")))
{"Gluon save_parameters() keys": saved_keys,
 "PyTorch state_dict() keys": sorted(pt_net.state_dict())}

# %%
assert [n for n, _ in pt_net.named_parameters()] == [
    "hidden.weight", "hidden.bias", "out.weight", "out.bias"]
assert list(mx_net.collect_params()) == [
    "gluonmlp0_dense0_weight", "gluonmlp0_dense0_bias",
    "gluonmlp0_dense1_weight", "gluonmlp0_dense1_bias"]
assert list(second.collect_params())[0] == "gluonmlp1_dense0_weight"
assert len(list(no_scope.collect_params())) == 4  # all found, but no "gluonmlpnoscope0_"
assert not any(k.startswith(no_scope.prefix) for k in no_scope.collect_params())
assert saved_keys == sorted(pt_net.state_dict())

# %% [markdown]
# ### When the saved keys do *not* match
#
# They match here because both classes name their layers the same (`hidden`, `out`). They
# do not match in general. The most common case is the one from [notebook 3](03_mnist_mlp.ipynb): a `Sequential`
# MLP, where PyTorch's `ReLU` is a layer of its own and takes a position, and Gluon's
# activation is an argument of `Dense`:
#
# **PyTorch**

# %% tags=["pytorch"]
pt_seq = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 3)).to(pt_dev)
list(pt_seq.state_dict())

# %% [markdown]
# **Gluon**

# %% tags=["gluon"]
mx_seq = gluon.nn.Sequential()
mx_seq.add(gluon.nn.Dense(16, activation="relu"), gluon.nn.Dense(3))
mx_seq.initialize(ctx=mx_ctx)
mx_seq(to_mx(x6))
with tempfile.TemporaryDirectory() as tmp:
    mx_seq.save_parameters(os.path.join(tmp, "seq.params"))
    seq_params = mx.nd.load(os.path.join(tmp, "seq.params"))
list(seq_params)

# %% [markdown]
# So a Gluon checkpoint cannot be fed to `load_state_dict` as it is — not even after
# turning its arrays into tensors:

# %% tags=["raises-exception"]
pt_seq.load_state_dict({k: torch.from_numpy(v.asnumpy()) for k, v in seq_params.items()})

# %%
key_error = errors.catch(pt_seq.load_state_dict,
                         {k: torch.from_numpy(v.asnumpy()) for k, v in seq_params.items()})
assert list(seq_params) == ["0.weight", "0.bias", "1.weight", "1.bias"]
assert list(pt_seq.state_dict()) == ["0.weight", "0.bias", "2.weight", "2.bias"]
assert key_error.type == "RuntimeError"
assert 'Missing key(s) in state_dict: "2.weight", "2.bias"' in key_error.message
assert 'Unexpected key(s) in state_dict: "1.weight", "1.bias"' in key_error.message
# pairing the layers (as sidebyside.transfer does) copies them correctly
assert transfer.gluon_to_torch(mx_seq, pt_seq) == [("0", "0"), ("2", "1")]
compare.assert_same(pt_seq(to_pt(x6)), mx_seq(to_mx(x6)), atol=1e-6)
"keys differ (0/1 against 0/2); pairing the layers copies them"

# %% [markdown]
# ## 2. Parameters and initialisers
#
# ### Collecting parameters
#
# `parameters()` / `named_parameters()` are generators; `collect_params()` returns a
# `ParameterDict` keyed by the prefixed names, and takes a regular expression.
#
# **PyTorch**

# %% tags=["pytorch"]
pt_weights = {n: tuple(p.shape) for n, p in pt_net.named_parameters()
              if n.endswith("weight")}
pt_weights, sum(p.numel() for p in pt_net.parameters())

# %% [markdown]
# **Gluon**: the regular expression goes through `re.match`, which is anchored at the
# start of the name: `"weight"` alone selects nothing, and a prefix selects one layer
# (thanks to `name_scope()`).

# %% tags=["gluon"]
mx_weights = {n: p.shape for n, p in mx_net.collect_params(".*weight").items()}
(mx_weights, sum(p.data().size for p in mx_net.collect_params().values()),
 {'"weight"': list(mx_net.collect_params("weight")),
  '"gluonmlp0_dense0_.*"': list(mx_net.collect_params("gluonmlp0_dense0_.*"))})

# %%
assert list(pt_weights.values()) == list(mx_weights.values()) == [(16, 6), (3, 16)]
assert sum(p.numel() for p in pt_net.parameters()) == 6 * 16 + 16 + 16 * 3 + 3
assert sum(p.data().size for p in mx_net.collect_params().values()) == 163
assert list(mx_net.collect_params("weight")) == []
assert len(list(mx_net.collect_params("gluonmlp0_dense0_.*"))) == 2

# %% [markdown]
# ### Initialising a whole network
#
# The seed's table says PyTorch has "not available" for initialising a network. It
# has: write what to do with one module and `net.apply(fn)` calls it on every
# submodule; the initialisers live in `torch.nn.init` (the in-place ones end in `_`).
# Gluon passes one initialiser to `initialize()` for every parameter that has none of
# its own — and `Dense` has its own for the bias (`bias_initializer="zeros"`), so
# biases stay zero.
#
# **PyTorch**

# %% tags=["pytorch"]
def xavier_init(module):
    if isinstance(module, nn.Linear):
        nn.init.xavier_uniform_(module.weight)
        nn.init.zeros_(module.bias)


pt_net.apply(xavier_init)

# %% [markdown]
# **Gluon** (`force_reinit=True` because `mx_net` is initialised already; without it
# Gluon warns and keeps the old values):

# %% tags=["nbval-ignore-output", "gluon"]
mx_net.initialize(mx.init.Xavier(), force_reinit=True)
{name: round(float(p.data().abs().max().asscalar()), 3)
 for name, p in mx_net.collect_params().items()}

# %% [markdown]
# **Check**: `mx.init.Xavier()` (uniform, `factor_type="avg"`, `magnitude=3`) has the
# same bound as `xavier_uniform_`, `√(6 / (fan_in + fan_out))`; biases are zero on both
# sides. Staying inside that bound proves little — the defaults (below) stay inside it
# too — so the check also asks for weights *beyond* each default's range (PyTorch's
# `1/√fan_in`, Gluon's 0.07), which only the Xavier draw can produce (for these layer
# sizes, the chance that no Xavier weight lands there is below 1e-10):

# %%
for pt_layer, mx_layer in [(pt_net.hidden, mx_net.hidden), (pt_net.out, mx_net.out)]:
    fan_out, fan_in = pt_layer.weight.shape
    bound = np.sqrt(6 / (fan_in + fan_out))
    pt_w, mx_w = compare.to_numpy(pt_layer.weight), mx_layer.weight.data().asnumpy()
    assert np.abs(pt_w).max() <= bound and np.abs(mx_w).max() <= bound
    assert np.abs(pt_w).max() > 1 / np.sqrt(fan_in)     # beyond PyTorch's default range
    assert np.abs(mx_w).max() > max(0.07, 1 / np.sqrt(fan_in))  # beyond Gluon's too
    assert not compare.to_numpy(pt_layer.bias).any()
    assert not mx_layer.bias.data().asnumpy().any()
assert list(inspect.signature(gluon.Block.initialize).parameters) == [
    "self", "init", "ctx", "verbose", "force_reinit"]

# %% [markdown]
# ### One layer's initialiser
#
# **PyTorch**: call the initialiser on the tensor after building the layer.

# %% tags=["nbval-ignore-output", "pytorch"]
pt_layer = nn.Linear(400, 100)
nn.init.normal_(pt_layer.weight, mean=0.0, std=0.01)
round(pt_layer.weight.detach().std().item(), 4)

# %% [markdown]
# **Gluon**: give the layer its initialiser; it wins over the one passed to
# `initialize()`. `mx.init.Normal(sigma)` takes the standard deviation.

# %% tags=["nbval-ignore-output", "gluon"]
mx_layer = gluon.nn.Dense(100, in_units=400, weight_initializer=mx.init.Normal(0.01))
mx_layer.initialize(mx.init.Xavier(), ctx=mx_ctx)
round(float(mx_layer.weight.data().asnumpy().std()), 4)

# %% [markdown]
# The seed writes `torch.nn.init.normal(layer.weight, 0, 0.01)`, without the trailing
# underscore. That spelling still runs, with a deprecation warning:

# %%
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    nn.init.normal(pt_layer.weight, 0, 0.01)
[f"{w.category.__name__}: {w.message}" for w in caught]

# %%
for w in (compare.to_numpy(pt_layer.weight), mx_layer.weight.data().asnumpy()):
    assert abs(w.std() - 0.01) < 0.0003      # 40 000 draws: ±3 %
    assert abs(w.mean()) < 0.0003
assert [w.category for w in caught] == [FutureWarning]

# %% [markdown]
# ### The default initialisers differ
#
# With no initialiser anywhere, Gluon's `initialize()` uses `mx.init.Uniform(0.07)` for
# every weight, whatever the layer's size, and zeros for the biases. PyTorch's
# `Linear` (and `Conv*d`) calls `kaiming_uniform_(w, a=√5)`, which is
# `U(−1/√fan_in, 1/√fan_in)`, and draws the bias from the same range. Two layers, with
# 64 and 784 inputs:
#
# **PyTorch**

# %% tags=["nbval-ignore-output", "pytorch"]
def extent(w):
    return round(float(np.abs(compare.to_numpy(w)).max()), 4)


pt_default = {fan_in: nn.Linear(fan_in, 256) for fan_in in (64, 784)}
{fan_in: {"max |w|": extent(l.weight), "max |b|": extent(l.bias),
          "1/√fan_in": round(1 / np.sqrt(fan_in), 4)}
 for fan_in, l in pt_default.items()}

# %% [markdown]
# **Gluon**

# %% tags=["nbval-ignore-output", "gluon"]
mx_default = {fan_in: gluon.nn.Dense(256, in_units=fan_in) for fan_in in (64, 784)}
for layer in mx_default.values():
    layer.initialize(ctx=mx_ctx)
{fan_in: {"max |w|": extent(l.weight.data()), "max |b|": extent(l.bias.data())}
 for fan_in, l in mx_default.items()}

# %% mystnb={"image": {"alt": "Histograms of the initial weights for 64 and 784 inputs: PyTorch's kaiming_uniform_(a=\u221a5) and Gluon's port of it fill the same uniform range, which narrows as the number of inputs grows."}}
bins = np.linspace(-0.13, 0.13, 53)
fig, axes = plt.subplots(1, 2, figsize=(9, 3), sharex=True, sharey=True)
for ax, fan_in in zip(axes, (64, 784)):
    ax.hist(compare.to_numpy(pt_default[fan_in].weight).ravel(), bins=bins,
            density=True, alpha=0.6, label="PyTorch: kaiming_uniform_(a=√5)")
    ax.hist(mx_default[fan_in].weight.data().asnumpy().ravel(), bins=bins,
            density=True, alpha=0.6, label="Gluon: Uniform(0.07)")
    ax.set_title(f"default weights, fan_in = {fan_in}")
    ax.set_xlabel("weight value")
axes[0].set_ylabel("density")
axes[0].legend(fontsize=8, loc="upper left")
plt.show()

# %% [markdown]
# **Check**: each fills its own range (16 384 draws reach the top 1 % of it), and the
# PyTorch weights existed right after construction — no `initialize()`, no forward. The
# seed's "PyTorch initialises on first use" is wrong; only the `Lazy*` modules below wait.

# %%
for fan_in in (64, 784):
    bound = 1 / np.sqrt(fan_in)
    pt_w = compare.to_numpy(pt_default[fan_in].weight)
    mx_w = mx_default[fan_in].weight.data().asnumpy()
    assert 0.99 * bound < np.abs(pt_w).max() <= bound
    assert 0.99 * 0.07 < np.abs(mx_w).max() <= 0.07
    assert 0 < np.abs(compare.to_numpy(pt_default[fan_in].bias)).max() <= bound
    assert not mx_default[fan_in].bias.data().asnumpy().any()
default_init = inspect.signature(gluon.Block.initialize).parameters["init"].default
assert type(default_init) is mx.init.Uniform and default_init.scale == 0.07

# %% [markdown]
# ### PyTorch's default, reproduced in Gluon
#
# A port can start from PyTorch's distribution without copying a single weight. MXNet's
# `Xavier` draws from `U(−s, s)` with `s = √(magnitude / factor)`
# ([`initializer.py`, line 643](https://github.com/apache/mxnet/blob/1.9.1/python/mxnet/initializer.py#L643)),
# and `factor_type="in"` makes `factor` the fan-in: `shape[1]` times the kernel size, so
# `in_channels·kh·kw` for a `Conv2D`, as in PyTorch. Hence `magnitude=1` gives
# `1/√fan_in`; the default `magnitude=3` (the docstring's `√(3/n_in)`) is √3 times too
# wide. The bias needs `Uniform(1/√fan_in)` of its own, per layer: `Dense` and `Conv2D`
# carry `bias_initializer="zeros"`, which wins over `initialize()`'s argument, and the
# bound needs the fan-in when the layer is built — give `in_units` / `in_channels`.
#
# **PyTorch**: the `Linear` with 784 inputs from above, and a 3×3 convolution with 16
# input channels.

# %% tags=["pytorch"]
pt_ref = {"linear": pt_default[784], "conv": nn.Conv2d(16, 64, kernel_size=3)}
fan_ins = {name: int(np.prod(l.weight.shape[1:])) for name, l in pt_ref.items()}
{name: (tuple(l.weight.shape), fan_ins[name]) for name, l in pt_ref.items()}

# %% [markdown]
# **Gluon**: the same two layers with `torch_default(fan_in)`, and with two tempting
# choices that are not PyTorch's: Gluon's default and `Xavier` at its default magnitude.

# %% tags=["gluon"]
def torch_default(fan_in):
    """Initialisers that give a Dense or Conv2D PyTorch's default draw."""
    return {"weight_initializer": mx.init.Xavier("uniform", "in", magnitude=1),
            "bias_initializer": mx.init.Uniform(1 / np.sqrt(fan_in))}


def dense_and_conv(init=lambda fan_in: {}):
    return {"linear": gluon.nn.Dense(256, in_units=784, **init(784)),
            "conv": gluon.nn.Conv2D(64, 3, in_channels=16, **init(16 * 3 * 3))}


mx_ref = {"torch_default": dense_and_conv(torch_default),
          "Uniform(0.07)": dense_and_conv(),
          "Xavier magnitude 3": dense_and_conv(
              lambda fan_in: {"weight_initializer": mx.init.Xavier("uniform", "in")})}
for layers in mx_ref.values():
    for layer in layers.values():
        layer.initialize(ctx=mx_ctx)
{name: layer.weight.shape for name, layer in mx_ref["torch_default"].items()}

# %% [markdown]
# Each draw, measured against PyTorch's bound `b = 1/√fan_in`: the extremes, the variance
# (`b²/3` for `U(−b, b)`), the largest bias, and the two-sample Kolmogorov–Smirnov (KS)
# distance to PyTorch's weights — the largest gap between the two empirical distribution
# functions, four lines of numpy (scipy is not a dependency of this project).
#
# **Check**, with tolerances from the sample sizes (200 704 and 9 216 weights, 256 and 64
# biases): the extremes lie within 0.5 % of `±b` (for 9 216 draws, missing that band
# has probability about 1e-10), the variance within 5 standard errors of `b²/3` (the
# standard error of `var/(b²/3)` is `3·√(4/45)/√n`), the largest bias above `0.8·b`
# (missed with probability `0.8ⁿ`), and the KS distance below its critical value at
# α = 1e-6, `√(−ln(α/2)·(n + m)/(2nm))`. The wrong choices fail on the variance and on the
# KS distance, and their measured variances are the ones their bounds predict:
# `0.07²·fan_in` and 3.

# %% tags=["nbval-ignore-output"]
def ks_distance(a, b):
    a, b = np.sort(a.ravel()), np.sort(b.ravel())
    both = np.concatenate([a, b])
    return np.abs(np.searchsorted(a, both, "right") / a.size
                  - np.searchsorted(b, both, "right") / b.size).max()


def draw_stats(name, w, bias):
    b = 1 / np.sqrt(fan_ins[name])
    return {"max w/b": w.max() / b, "min w/b": w.min() / b,
            "var/(b²/3)": w.var() / (b * b / 3), "max |bias|/b": np.abs(bias).max() / b,
            "KS": ks_distance(compare.to_numpy(pt_ref[name].weight), w)}


init_stats = {("PyTorch", name): draw_stats(name, compare.to_numpy(l.weight),
                                            compare.to_numpy(l.bias))
              for name, l in pt_ref.items()}
init_stats.update({(label, name): draw_stats(name, l.weight.data().asnumpy(),
                                             l.bias.data().asnumpy())
                   for label, layers in mx_ref.items() for name, l in layers.items()})
for (label, name), s in init_stats.items():
    print(f"{label:18} {name:6}", "  ".join(f"{k} {v:6.3f}" for k, v in s.items()))

# %%
for name, fan_in in fan_ins.items():
    n = pt_ref[name].weight.numel()
    var_tol = 5 * 3 * np.sqrt(4 / 45) / np.sqrt(n)
    ks_tol = np.sqrt(-np.log(1e-6 / 2) * (n + n) / (2 * n * n))
    for label in ("PyTorch", "torch_default"):
        s = init_stats[label, name]
        assert 0.995 < s["max w/b"] <= 1 + 1e-6 and -1 - 1e-6 <= s["min w/b"] < -0.995
        assert abs(s["var/(b²/3)"] - 1) < var_tol
        assert 0.8 < s["max |bias|/b"] <= 1 + 1e-6
    assert init_stats["torch_default", name]["KS"] < ks_tol
    for label, var_ratio in (("Uniform(0.07)", 0.07**2 * fan_in), ("Xavier magnitude 3", 3)):
        s = init_stats[label, name]
        assert abs(s["var/(b²/3)"] - var_ratio) < var_tol * var_ratio
        assert abs(s["var/(b²/3)"] - 1) > var_tol and s["KS"] > ks_tol
        assert s["max |bias|/b"] == 0                   # zeros: Dense's own bias init
    assert 0.995 * np.sqrt(3) < init_stats["Xavier magnitude 3", name]["max w/b"] <= (
        np.sqrt(3) * (1 + 1e-6))                        # s = √(magnitude / fan_in)
"Xavier('uniform', 'in', magnitude=1) + Uniform(1/√fan_in) draw PyTorch's default"

# %% [markdown]
# ### Legacy initialisers, reproduced in PyTorch
#
# The other direction: a Gluon script's `initialize(init)` ported to PyTorch. Every MXNet
# initialiser below has a `torch.nn.init` call that draws from *the same distribution*
# (not the same numbers: each framework has its own generator). MXNet's `Xavier`
# ([`initializer.py`, lines 625–651](https://github.com/apache/mxnet/blob/1.9.1/python/mxnet/initializer.py#L625))
# takes, for a weight of shape `(out, in, *kernel)`, `fan_in = in·∏kernel` and
# `fan_out = out·∏kernel` — PyTorch's fans exactly — then
# `factor` = `(fan_in + fan_out)/2` (`"avg"`), `fan_in` (`"in"`) or `fan_out` (`"out"`),
# `s = √(magnitude / factor)`, and draws `U(−s, s)` (`"uniform"`) or `N(0, s²)`
# (`"gaussian"`). PyTorch's `xavier_*_` use `gain·√(6/(fan_in + fan_out))` (bound) and
# `gain·√(2/(fan_in + fan_out))` (std); `kaiming_*_` use `gain·√(3/fan)` and `gain/√fan`
# with `gain = √(2/(1 + a²))` (`nonlinearity="leaky_relu"`, the default), 1 (`"linear"`),
# √2 (`"relu"`). Setting them equal:
#
# | MXNet 1.9.1 | draws | PyTorch, the same distribution |
# |---|---|---|
# | `Xavier(magnitude=2.24)` (what MXNet's `example/gluon/image_classification.py` uses) | `U(±√(4.48/(fan_in + fan_out)))` | `xavier_uniform_(w, gain=√(2.24/3))` |
# | `Xavier("uniform", "avg", m)` (default `m = 3`) | `U(±√(2m/(fan_in + fan_out)))` | `xavier_uniform_(w, gain=√(m/3))` (`m = 3`: `gain=1`) |
# | `Xavier("gaussian", "avg", m)` | `N(0, 2m/(fan_in + fan_out))` | `xavier_normal_(w, gain=√m)` |
# | `Xavier("uniform", "in"/"out", m)` | `U(±√(m/fan))` | `kaiming_uniform_(w, a=√(6/m − 1), mode="fan_in"/"fan_out")` for `m ≤ 6` (`m = 6`: `nonlinearity="relu"`; `m = 3`: `"linear"`; `m = 1`: `a=√5`, PyTorch's default); any `m`: `uniform_(w, −s, s)` |
# | `Xavier("gaussian", "in"/"out", m)` | `N(0, m/fan)` | `kaiming_normal_(w, a=√(2/m − 1), mode=…)` for `m ≤ 2` (`m = 2`: `"relu"`; `m = 1`: `"linear"`); any `m`: `normal_(w, 0, s)` |
# | `MSRAPrelu(factor_type="avg", slope=0.25)` (the defaults) | `Xavier("gaussian", factor_type, 2/(1 + slope²))` | `"avg"`: `xavier_normal_(w, gain=√(2/(1 + slope²)))`; `"in"`/`"out"`: `kaiming_normal_(w, a=slope, mode=…)` |
# | `Uniform(scale=0.07)` | `U(±scale)` | `uniform_(w, −scale, scale)` |
# | `Normal(sigma=0.01)` | `N(0, sigma²)` | `normal_(w, 0, sigma)` |
# | biases; BatchNorm γ, β, running mean, variance | 0; 1, 0, 0, 1 — the *layer's* own initialisers (below) | `zeros_(bias)` (PyTorch's default is `U(±1/√fan_in)`); `BatchNorm` starts at 1, 0, 0, 1 already |
#
# All of these are exact in distribution (the `a` route up to the rounding of `√(6/m − 1)`).
# `MSRAPrelu()` is *not* `Xavier("gaussian", "in", 2)`: its defaults are `"avg"` and slope
# 0.25; `MSRAPrelu("in", 0)` is.
#
# **PyTorch**: the table's calls, one per row, on the two weights of the sub-section above
# (`Linear(784, 256)`: fans 784 and 256; `Conv2d(16, 64, 3)`: 144 and 576), and a tempting
# wrong one: `xavier_uniform_` without the gain.

# %%
init = nn.init
legacy = {  # MXNet initialiser: (it, the PyTorch call that draws from the same distribution)
    "Xavier(magnitude=2.24)": (mx.init.Xavier(magnitude=2.24),
                               lambda w: init.xavier_uniform_(w, gain=np.sqrt(2.24 / 3))),
    "Xavier('gaussian', 'avg', 3)": (mx.init.Xavier("gaussian", "avg", 3),
                                     lambda w: init.xavier_normal_(w, gain=np.sqrt(3))),
    "Xavier('uniform', 'in', 2)": (mx.init.Xavier("uniform", "in", 2),
                                   lambda w: init.kaiming_uniform_(w, a=np.sqrt(6 / 2 - 1))),
    "Xavier('uniform', 'out', 6)": (mx.init.Xavier("uniform", "out", 6), lambda w:
                                    init.kaiming_uniform_(w, mode="fan_out",
                                                          nonlinearity="relu")),
    "Xavier('gaussian', 'in', 2)": (mx.init.Xavier("gaussian", "in", 2),
                                    lambda w: init.kaiming_normal_(w, nonlinearity="relu")),
    "Xavier('gaussian', 'out', 1)": (mx.init.Xavier("gaussian", "out", 1), lambda w:
                                     init.kaiming_normal_(w, mode="fan_out",
                                                          nonlinearity="linear")),
    # m = 3 > 2: no `a` fits; normal_ with the std (fan_in = w[0].numel())
    "Xavier('gaussian', 'in', 3)": (mx.init.Xavier("gaussian", "in", 3),
                                    lambda w: init.normal_(w, 0, np.sqrt(3 / w[0].numel()))),
    "MSRAPrelu()": (mx.init.MSRAPrelu(),
                    lambda w: init.xavier_normal_(w, gain=np.sqrt(2 / (1 + 0.25**2)))),
    "MSRAPrelu('in', 0.25)": (mx.init.MSRAPrelu("in", 0.25),
                              lambda w: init.kaiming_normal_(w, a=0.25)),
    "Uniform(0.1)": (mx.init.Uniform(0.1), lambda w: init.uniform_(w, -0.1, 0.1)),
    "Normal(0.02)": (mx.init.Normal(0.02), lambda w: init.normal_(w, 0, 0.02)),
    "tempting: xavier_uniform_(w) for Xavier(magnitude=2.24)": (
        mx.init.Xavier(magnitude=2.24), init.xavier_uniform_),
}
pt_legacy = {label: {name: fn(torch.empty(l.weight.shape)).numpy()
                     for name, l in pt_ref.items()}
             for label, (_, fn) in legacy.items()}
{name: w.shape for name, w in pt_legacy["Xavier(magnitude=2.24)"].items()}

# %% [markdown]
# **Gluon**: the same two layers (`dense_and_conv()` from above), each row's initialiser
# passed to `initialize()`:

# %%
mx_legacy = {}
for label, (mx_init, _) in legacy.items():
    layers = dense_and_conv()
    for layer in layers.values():
        layer.initialize(mx_init, ctx=mx_ctx)
    mx_legacy[label] = {name: l.weight.data().asnumpy() for name, l in layers.items()}
{name: w.shape for name, w in mx_legacy["Xavier(magnitude=2.24)"].items()}

# %% [markdown]
# Each pair against the law MXNet's code gives (`mx_law`): for a uniform row `max |w| / s`,
# for a Gaussian row `std / s`, and the KS distance between MXNet's and PyTorch's draws
# (`ks_distance` from above). **Check**, with the tolerances of the sub-section above: a
# uniform draw's largest `|w|` within 0.5 % below `s`, a Gaussian draw's standard deviation
# within 5 standard errors (`1/√(2n)` relative), the KS distance below its critical value at
# α = 1e-6 — and the tempting call fails: its bound is `√(3/2.24)` times MXNet's.

# %% tags=["nbval-ignore-output"]
def mx_law(i, shape):
    """MXNet's draw for a weight of this shape (initializer.py): (rnd_type, bound or std)."""
    if isinstance(i, mx.init.Xavier):                           # MSRAPrelu is one too
        k = np.prod(shape[2:])
        fans = {"in": shape[1] * k, "out": shape[0] * k}
        fans["avg"] = (fans["in"] + fans["out"]) / 2
        return i.rnd_type, np.sqrt(i.magnitude / fans[i.factor_type])
    return ("uniform", i.scale) if isinstance(i, mx.init.Uniform) else ("gaussian", i.sigma)


legacy_stats = {}
for label, (mx_init, _) in legacy.items():
    for name in ("linear", "conv"):
        mx_w, pt_w = mx_legacy[label][name], pt_legacy[label][name]
        kind, s = mx_law(mx_init, mx_w.shape)
        ratio = (lambda w, s=s: np.abs(w).max() / s) if kind == "uniform" else \
            (lambda w, s=s: w.std() / s)
        legacy_stats[label, name] = {"kind": kind, "n": mx_w.size, "MXNet": ratio(mx_w),
                                     "PyTorch": ratio(pt_w), "KS": ks_distance(mx_w, pt_w)}
for (label, name), st in legacy_stats.items():
    print(f"{label[:40]:40} {name:6} {st['kind']:8} MXNet {st['MXNet']:.4f}"
          f"  PyTorch {st['PyTorch']:.4f}  KS {st['KS']:.4f}")

# %%
for (label, name), st in legacy_stats.items():
    n = st["n"]
    ks_tol = np.sqrt(-np.log(1e-6 / 2) * (n + n) / (2 * n * n))
    if label.startswith("tempting"):
        assert st["KS"] > ks_tol and st["PyTorch"] > 0.995 * np.sqrt(3 / 2.24)
        continue
    for side in ("MXNet", "PyTorch"):
        if st["kind"] == "uniform":
            assert 0.995 < st[side] <= 1 + 1e-6, (label, name, side)
        else:
            assert abs(st[side] - 1) < 5 / np.sqrt(2 * n), (label, name, side)
    assert st["KS"] < ks_tol, (label, name)
"each row: one distribution on both sides; xavier_uniform_ without the gain is wider"

# %% [markdown]
# **Biases, γ, β, running statistics.** MXNet's `Initializer` picks by the parameter's
# *name* only when it is called with a bare `InitDesc` — the symbolic `Module` API: a name
# ending in `weight` gets the draw, `bias` 0, `gamma` 1, `beta` 0, and any other name
# (`running_mean`, `running_var`, `moving_mean`) a `ValueError`; those get 0 and 1 from
# the BatchNorm operator's own `__init__` attribute. Gluon never asks the name:
# `Parameter.initialize` hands the initialiser over as that `__init__`, which draws
# whatever the name. Gluon's biases are 0 and its γ, β, statistics 1, 0, 0, 1 because the
# *layers* declare those initialisers (`bias_initializer="zeros"`, `gamma_initializer="ones"`,
# …), and they win; a parameter of your own called `bias`, with none, gets the draw.
#
# `sidebyside.initmap.torch_init_like_mxnet(module, init)` does all of this to a PyTorch
# module: each weight (two dimensions or more) from the table's law for its shape, biases 0,
# normalisation layers' weight 1, bias 0 and running statistics reset — what
# `initialize(init)` gives the Gluon twin. Anything else (a `PReLU` slope, an `Orthogonal`
# initialiser) is refused with a message naming it. Below the names, a small CNN on both
# sides, initialised as legacy scripts do.

# %%
def by_name(name, shape=(3,)):
    arr = mx.nd.full(shape, 7.0)
    try:
        mx.init.Uniform(0.5)(mx.init.InitDesc(name), arr)
    except ValueError as exc:
        return f"ValueError: {str(exc).split('.')[0]}"
    return "drawn" if name.endswith("weight") else float(arr[0].asscalar())


class OwnBias(gluon.Block):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.bias = self.params.get("bias", shape=(5,))      # no init= of its own


own = OwnBias()
own.initialize(mx.init.Uniform(0.5), ctx=mx_ctx)
bn_defaults = gluon.nn.BatchNorm(in_channels=4)
bn_defaults.initialize(mx.init.Uniform(0.5), ctx=mx_ctx)
by_init = {n: by_name(n, (2, 3) if n.endswith("weight") else (3,))
           for n in ("fc_weight", "fc_bias", "bn_gamma", "bn_beta", "bn_running_mean",
                     "bn_moving_var")}
names = {"Initializer by name (Module API)": by_init,
         "Gluon BatchNorm's own": {k.split("_", 1)[1]: str(p.init)
                                   for k, p in bn_defaults.collect_params().items()},
         "Gluon 'bias' without init=": "drawn" if own.bias.data().asnumpy().any() else 0,
         "PyTorch BatchNorm2d": {k: float(v.unique()[0])
                                 for k, v in nn.BatchNorm2d(4).state_dict().items()
                                 if v.dim() == 1}}
assert by_init["fc_bias"] == by_init["bn_beta"] == 0 and by_init["bn_gamma"] == 1
assert by_init["bn_running_mean"].startswith("ValueError: Unknown initialization pattern")
assert names["Gluon BatchNorm's own"] == {"gamma": "ones", "beta": "zeros",
                                          "running_mean": "zeros", "running_var": "ones"}
assert names["Gluon 'bias' without init="] == "drawn"
assert names["PyTorch BatchNorm2d"] == {"weight": 1, "bias": 0, "running_mean": 0,
                                        "running_var": 1}
assert errors.catch(lambda: OwnBias().initialize(mx.init.Xavier())).type == "ValueError"
names

# %%
pt_cnn = nn.Sequential(nn.Conv2d(3, 32, 3), nn.BatchNorm2d(32), nn.ReLU(), nn.Flatten(),
                       nn.Linear(32 * 14 * 14, 10))
laws = initmap.torch_init_like_mxnet(pt_cnn, mx.init.Xavier(magnitude=2.24))   # PyTorch
mx_cnn = gluon.nn.HybridSequential()
mx_cnn.add(gluon.nn.Conv2D(32, 3, in_channels=3), gluon.nn.BatchNorm(in_channels=32),
           gluon.nn.Activation("relu"), gluon.nn.Dense(10, in_units=32 * 14 * 14))
mx_cnn.initialize(mx.init.Xavier(magnitude=2.24), ctx=mx_ctx)                 # Gluon
pt_state = {k: v for k, v in pt_cnn.state_dict().items() if "num_batches" not in k}
for (t_name, t), g in zip(pt_state.items(), mx_cnn.collect_params().values()):
    t, g = compare.to_numpy(t), g.data().asnumpy()
    assert t.shape == g.shape
    if t_name.endswith("weight") and t.ndim > 1:
        kind, s = mx_law(mx.init.Xavier(magnitude=2.24), t.shape)
        assert laws[t_name][0] == kind and abs(laws[t_name][1] - s) < 1e-12 * s
        assert np.abs(t).max() <= s * (1 + 1e-6)
        assert ks_distance(t, g) < np.sqrt(-np.log(1e-6 / 2) * 2 / t.size)
    else:
        np.testing.assert_array_equal(t, g)         # 0s and 1s, the same on both sides
{name: law if law == "uniform" else value for name, (law, value) in laws.items()}

# %% [markdown]
# ### Deferred initialisation
#
# Without the input size, a layer cannot create its weight. PyTorch's `Lazy*` modules
# (`LazyLinear`, `LazyConv2d`, … — the answer to the seed's "PyTorch must declare every
# input size") hold an `UninitializedParameter` until the first forward; touching its
# shape is an error.
#
# **PyTorch**

# %%
pt_lazy = nn.LazyLinear(16, device=pt_dev)
type(pt_lazy.weight).__name__

# %% tags=["raises-exception", "pytorch"]
pt_lazy.weight.shape

# %% [markdown]
# **Gluon** records the initialiser at `initialize()` and runs it at the first forward.
# The shape shows `0` for "not known yet"; the value does not exist:

# %% tags=["gluon"]
mx_lazy = gluon.nn.Dense(16)
mx_lazy.initialize(ctx=mx_ctx)
mx_lazy.weight.shape

# %% tags=["raises-exception"]
mx_lazy.weight.data()

# %% [markdown]
# After one forward pass both know their shapes (and PyTorch's module has turned into a
# plain `Linear`):

# %%
pt_lazy(to_pt(x6))
mx_lazy(to_mx(x6))
{"PyTorch": (type(pt_lazy).__name__, tuple(pt_lazy.weight.shape)),
 "Gluon": (type(mx_lazy).__name__, mx_lazy.weight.shape)}

# %%
fresh_mx = gluon.nn.Dense(16)
fresh_mx.initialize(ctx=mx_ctx)
assert errors.catch(lambda: nn.LazyLinear(16).weight.shape).type == "RuntimeError"
assert errors.catch(fresh_mx.weight.data).type == "DeferredInitializationError"
assert type(pt_lazy) is nn.Linear and tuple(pt_lazy.weight.shape) == (16, 6)
assert mx_lazy.weight.shape == (16, 6)

# %% [markdown]
# ## 3. Layer defaults that bite
#
# ### BatchNorm: the same default, written the other way round
#
# Both keep running averages of the batch mean and variance, with opposite
# conventions: PyTorch `running = (1 − momentum)·running + momentum·batch` with
# `momentum=0.1`; Gluon `running = momentum·running + (1 − momentum)·batch` with
# `momentum=0.9`. The defaults agree; porting `momentum=0.1` literally does not.
#
# MXNet's CPU and GPU BatchNorm operators differ in exactly what this section measures
# ([apache/mxnet#14357](https://github.com/apache/mxnet/issues/14357),
# [#18751](https://github.com/apache/mxnet/issues/18751)), so the Gluon side runs on
# the CPU here. Three batches through both, after copying PyTorch's γ and β:
#
# **PyTorch**

# %%
bn_batches = [rng.normal(2.0, 3.0, size=(4, 3, 5, 5)).astype(np.float32)
              for _ in range(3)]
pt_bn = nn.BatchNorm2d(3)                    # momentum=0.1
with torch.no_grad():
    pt_bn.weight.uniform_(0.5, 2.0)
    pt_bn.bias.uniform_(-1.0, 1.0)
pt_bn = pt_bn.to(pt_dev)

# %% [markdown]
# **Gluon**, the default and a literal port of PyTorch's number:

# %%
mx_bn = gluon.nn.BatchNorm()                 # momentum=0.9
mx_bn_literal = gluon.nn.BatchNorm(momentum=0.1)
for bn in (mx_bn, mx_bn_literal):
    bn.initialize(ctx=mx.cpu())
transfer.torch_to_gluon(pt_bn, mx_bn)
literal_refused = errors.catch(transfer.torch_to_gluon, pt_bn, mx_bn_literal)
transfer.torch_to_gluon(pt_bn, mx_bn_literal, check_hparams=False)   # on purpose, below
mx_bn, mx_bn_literal

# %% [markdown]
# `sidebyside.transfer` checks the layers' hyper-parameters too, and refuses the literal
# port: PyTorch's `momentum=0.1` corresponds to Gluon's 0.9. (`check_hparams=False` copies
# anyway, as done here to show what the literal port does.)

# %%
assert literal_refused.type == "ArchitectureMismatch" and "momentum" in literal_refused.line
literal_refused.line[literal_refused.line.index("momentum"):][:90]

# %% [markdown]
# Training mode in PyTorch is `train()`; Gluon's is `autograd.record()`:

# %% tags=["nbval-ignore-output"]
pt_bn.train()
for batch in bn_batches:
    pt_out = pt_bn(to_pt(batch))
{"running_mean": compare.to_numpy(pt_bn.running_mean).round(4),
 "running_var": compare.to_numpy(pt_bn.running_var).round(4)}

# %% tags=["nbval-ignore-output"]
def train_steps(bn, batches):
    for batch in batches:
        with autograd.record():
            out = bn(to_mx(batch, mx.cpu()))
        out.backward()           # MXNet moves the running statistics here: notebook 5 §2
    return out


mx_out = train_steps(mx_bn, bn_batches)
train_steps(mx_bn_literal, bn_batches)
{"running_mean": mx_bn.running_mean.data().asnumpy().round(4),
 "running_var": mx_bn.running_var.data().asnumpy().round(4),
 "running_mean, momentum=0.1": mx_bn_literal.running_mean.data().asnumpy().round(4)}

# %% [markdown]
# The running means agree; the literal port is dominated by the last batch. The running
# *variances* do not quite agree, and that is not momentum: PyTorch feeds the unbiased
# batch variance (divided by `n − 1`) into its running average, MXNet's CPU operator the
# biased one (divided by `n`). Here `n = 4·5·5 = 100` values per channel, so each update
# differs by 1 %. Both normalise the batch itself with the biased variance, so the
# training-mode outputs agree. **Check**, against the formulas computed in numpy:

# %% tags=["nbval-ignore-output"]
n = bn_batches[0].size // 3
expect_mean, expect_var_n, expect_var_n1 = np.zeros(3), np.ones(3), np.ones(3)
for batch in bn_batches:
    mean, var = batch.mean(axis=(0, 2, 3)), batch.var(axis=(0, 2, 3))
    expect_mean = 0.9 * expect_mean + 0.1 * mean
    expect_var_n = 0.9 * expect_var_n + 0.1 * var
    expect_var_n1 = 0.9 * expect_var_n1 + 0.1 * var * n / (n - 1)
f32 = np.float32
compare.assert_same(pt_bn.running_mean, mx_bn.running_mean.data(), atol=1e-5)
compare.assert_same(pt_bn.running_mean, expect_mean.astype(f32), atol=1e-5)
compare.assert_same(pt_bn.running_var, expect_var_n1.astype(f32), rtol=1e-5)
compare.assert_same(mx_bn.running_var.data(), expect_var_n.astype(f32), rtol=1e-5)
assert compare.max_abs_diff(mx_bn_literal.running_mean.data(), expect_mean) > 0.5
compare.assert_same(pt_out, mx_out, atol=1e-5)     # training-mode outputs agree
ratio = compare.to_numpy(pt_bn.running_var) / mx_bn.running_var.data().asnumpy()
ratio.round(4)

# %% [markdown]
# ### `Dense(flatten=True)` on 3-D input
#
# `Linear` works on the last axis. `Dense` by default flattens every axis but the first,
# so a `(batch, time, features)` input becomes `(batch, time·features)`.
#
# **PyTorch**

# %% tags=["pytorch"]
x3 = rng.normal(size=(2, 3, 4)).astype(np.float32)
pt_lin = nn.Linear(4, 5).to(pt_dev)
tuple(pt_lin(to_pt(x3)).shape)

# %% [markdown]
# **Gluon**, the default — a different layer: 12 inputs, one output row per sample:

# %% tags=["gluon"]
mx_flat = gluon.nn.Dense(5)
mx_flat.initialize(ctx=mx_ctx)
mx_flat(to_mx(x3)).shape, mx_flat.weight.shape

# %% [markdown]
# Copying `Linear(4, 5)`'s weight into such a layer succeeds (the deferred shape
# accepts `(5, 4)`) and the forward then fails:

# %% tags=["raises-exception"]
mx_wrong = gluon.nn.Dense(5)
mx_wrong.initialize(ctx=mx_ctx)
transfer.torch_to_gluon(pt_lin, mx_wrong)
mx_wrong(to_mx(x3)).asnumpy()

# %% [markdown]
# `flatten=False` is `Linear`:

# %%
mx_lin = gluon.nn.Dense(5, flatten=False)
mx_lin.initialize(ctx=mx_ctx)
transfer.torch_to_gluon(pt_lin, mx_lin)
mx_lin(to_mx(x3)).shape

# %% tags=["nbval-ignore-output"]
assert mx_flat(to_mx(x3)).shape == (2, 5) and mx_flat.weight.shape == (5, 12)
diff = compare.assert_same(pt_lin(to_pt(x3)), mx_lin(to_mx(x3)), atol=1e-6)
f"Linear vs Dense(flatten=False): max |Δ| = {diff:.1e} (tolerance 1e-6)"

# %% [markdown]
# ### Convolution and pooling: the same layers, other argument names
#
# | | PyTorch | Gluon |
# |---|---|---|
# | convolution | `Conv2d(in_channels, out_channels, kernel_size, stride=1, padding=0)` | `Conv2D(channels, kernel_size, strides=(1, 1), padding=(0, 0), in_channels=0)` |
# | max pooling | `MaxPool2d(kernel_size, stride=None, padding=0, ceil_mode=False)` | `MaxPool2D(pool_size=(2, 2), strides=None, padding=0, ceil_mode=False)` |
#
# `stride=None` / `strides=None` mean "the kernel size" on both sides; Gluon has a default
# pool size, PyTorch none. `ceil_mode=True` gives the same shapes only when the *pooling*
# has no padding: with padding, Gluon can keep a last window that lies wholly in the padding
# and PyTorch drops it ([notebook 7](07_hybridize_export.ipynb) §2 shows a 3×3 against a 4×4
# output). An 11×11 input, a stride-2 convolution, then an unpadded 3×3 stride-2 pooling with
# `ceil_mode=True`:
#
# **PyTorch**

# %%
x_img = rng.normal(size=(2, 3, 11, 11)).astype(np.float32)
pt_conv = nn.Conv2d(3, 8, kernel_size=3, stride=2, padding=1).to(pt_dev)
pt_pool = nn.MaxPool2d(kernel_size=3, stride=2, ceil_mode=True)
pt_feat = pt_pool(pt_conv(to_pt(x_img)))
tuple(pt_feat.shape)

# %% [markdown]
# **Gluon**

# %%
mx_conv = gluon.nn.Conv2D(channels=8, kernel_size=3, strides=2, padding=1,
                          in_channels=3)
mx_pool = gluon.nn.MaxPool2D(pool_size=3, strides=2, ceil_mode=True)
mx_conv.initialize(ctx=mx_ctx)
transfer.torch_to_gluon(pt_conv, mx_conv)
mx_feat = mx_pool(mx_conv(to_mx(x_img)))
mx_feat.shape

# %% [markdown]
# PyTorch's spelling in Gluon is an error, not a silent default:

# %% tags=["raises-exception"]
gluon.nn.MaxPool2D(3, stride=2)

# %% tags=["nbval-ignore-output"]
diff = compare.assert_same(pt_feat, mx_feat, atol=1e-5)
f"conv + max pool: max |Δ| = {diff:.1e} (tolerance 1e-5)"

# %%
floor_shapes = (tuple(nn.MaxPool2d(3, 2)(pt_conv(to_pt(x_img))).shape),
                gluon.nn.MaxPool2D(3, 2)(mx_conv(to_mx(x_img))).shape)
outcomes = {"torch MaxPool2d()": errors.catch(nn.MaxPool2d).type,
            "gluon MaxPool2D()": gluon.nn.MaxPool2D()(to_mx(x_img)).shape,
            "torch MaxPool2d(3, strides=2)": errors.catch(
                lambda: nn.MaxPool2d(3, strides=2)).type,
            "gluon MaxPool2D(3, stride=2)": errors.catch(
                lambda: gluon.nn.MaxPool2D(3, stride=2)).type,
            "ceil_mode=False (default)": floor_shapes}
assert tuple(pt_feat.shape) == mx_feat.shape == (2, 8, 3, 3)
assert floor_shapes == ((2, 8, 2, 2), (2, 8, 2, 2))
assert outcomes["gluon MaxPool2D()"] == (2, 3, 5, 5)       # pool 2, stride 2
assert outcomes["torch MaxPool2d()"] == "TypeError"
outcomes

# %% [markdown]
# ### Channel layout
#
# Both default to `NCHW`. PyTorch's `channels_last` is a *memory* format: the tensor
# keeps its `NCHW` shape and layers give the same numbers. Gluon's `layout="NHWC"`
# changes the *shape* the layer expects, and the weight's: `(out, kH, kW, in)`.
#
# **PyTorch**

# %% tags=["pytorch"]
x_cl = to_pt(x_img).to(memory_format=torch.channels_last)
tuple(x_cl.shape), x_cl.is_contiguous(memory_format=torch.channels_last)

# %% [markdown]
# **Gluon**: pooling in `NHWC` works on the CPU …

# %% tags=["gluon"]
x_nhwc = to_mx(x_img.transpose(0, 2, 3, 1), mx.cpu())
mx_pool_nhwc = gluon.nn.MaxPool2D(pool_size=3, strides=2, layout="NHWC")
mx_pool_nhwc(x_nhwc).shape

# %% [markdown]
# … a convolution in `NHWC` does not: MXNet 1.9.1's CPU (oneDNN) operator rejects it,
# and, MXNet being asynchronous, only when the result is read (the layout is meant for
# cuDNN on GPUs):

# %% tags=["raises-exception"]
mx_conv_nhwc = gluon.nn.Conv2D(8, 3, strides=2, padding=1, layout="NHWC",
                               in_channels=3)
mx_conv_nhwc.initialize(ctx=mx.cpu())
mx_conv_nhwc(x_nhwc).asnumpy()

# %% [markdown]
# Its weight has the same *shape* as PyTorch's here (3 input channels, 3×3 kernel) but
# not the same *order*, so `transfer` refuses it instead of copying wrong numbers:

# %%
try:
    transfer.torch_to_gluon(pt_conv, mx_conv_nhwc)
    refused = None
except transfer.ArchitectureMismatch as exc:
    refused = str(exc)
mx_conv_nhwc.weight.shape, tuple(pt_conv.weight.shape), refused

# %% tags=["nbval-ignore-output"]
pooled_nchw = gluon.nn.MaxPool2D(3, 2)(to_mx(x_img, mx.cpu())).asnumpy()
np.testing.assert_array_equal(mx_pool_nhwc(x_nhwc).asnumpy(),
                              pooled_nchw.transpose(0, 2, 3, 1))
diff = compare.assert_same(pt_conv(x_cl), pt_conv(to_pt(x_img)), atol=1e-5)
assert tuple(x_cl.shape) == x_img.shape
assert refused is not None and "layout='NHWC'" in refused
f"channels_last vs NCHW conv: max |Δ| = {diff:.1e} (tolerance 1e-5)"

# %% [markdown]
# ## Summary
#
# | | PyTorch | MXNet Gluon 1.x |
# |---|---|---|
# | custom block | `class M(nn.Module)` + `forward` | `class M(gluon.Block)` + `forward` (`HybridBlock`: [notebook 7](07_hybridize_export.ipynb)) |
# | layer sizes | `nn.Linear(d_in, d_out)`, or `nn.LazyLinear(d_out)` | `gluon.nn.Dense(d_out)` (`in_units` inferred) |
# | parameter names | `named_parameters()`: `hidden.weight` | `collect_params()`: `gluonmlp0_dense0_weight` |
# | checkpoint keys | `state_dict()`: module paths, `Sequential` positions count every layer (`0`, `2`) | `save_parameters()`: attribute paths, positions count `add()`ed blocks (`0`, `1`) — equal only when the structures are |
# | select parameters | filter `named_parameters()` | `collect_params(".*weight")` (`re.match`: anchored) |
# | initialise a network | `net.apply(fn)` with `nn.init.xavier_uniform_` | `net.initialize(mx.init.Xavier())` |
# | one layer | `nn.init.normal_(layer.weight, 0, 0.01)` | `Dense(..., weight_initializer=mx.init.Normal(0.01))` |
# | default weights | `U(±1/√fan_in)` (Kaiming-uniform, `a=√5`) | `Uniform(0.07)` for every layer |
# | default biases | `U(±1/√fan_in)` | zeros |
# | PyTorch's default in Gluon | — | `weight_initializer=mx.init.Xavier("uniform", "in", magnitude=1)`, `bias_initializer=mx.init.Uniform(1/√fan_in)`, per layer (`fan_in` = `in_units`, or `in_channels·kh·kw`) |
# | MXNet's initialisers in PyTorch | `Xavier(magnitude=m)` = `xavier_uniform_(w, gain=√(m/3))`; every `Xavier`/`MSRAPrelu` case in §2's table; `initmap.torch_init_like_mxnet(net, init)`, biases 0 | `net.initialize(mx.init.Xavier(magnitude=2.24))`; biases, γ, β by the layers' own initialisers |
# | parameters exist | at construction | at `initialize()`, or at the first forward (deferred) |
# | BatchNorm | `momentum=0.1`; stats in forward; unbiased variance | `momentum=0.9`; CPU: stats in *backward* ([notebook 5 §2](05_autograd.ipynb)), biased variance |
# | `Linear` on 3-D | last axis | `Dense(flatten=False)`; the default flattens |
# | convolution | `Conv2d(in, out, kernel_size, stride, padding)` | `Conv2D(channels, kernel_size, strides, padding, in_channels=)` |
# | max pooling | `MaxPool2d(kernel_size, stride)` (no default size) | `MaxPool2D(pool_size=(2, 2), strides)` |
# | channels last | `x.to(memory_format=torch.channels_last)`, shape stays NCHW | `layout="NHWC"` (CPU: pooling yes, convolution no) |
#
# ### What the seed articles said, checked
#
# | seed claim | verdict | shown in |
# |---|---|---|
# | a custom `Block` is written like an `nn.Module` (`__init__`, `forward`); existing blocks are called the same way | confirmed | §1 |
# | Gluon requires `self.name_scope()` around child creation | corrected: optional in 1.9.1 (only the names change); removed in MXNet 2.0 | §1 |
# | `net.parameters()` ⇔ `net.collect_params()` | confirmed, but `collect_params` is a dict of prefixed names with an anchored regex | §1, §2 |
# | `torch.save(model.state_dict(), f)` ⇔ `model.save_parameters(f)` | the calls correspond; the keys agree only when both networks are structured alike (not for a `Sequential` with separate activation layers) | §1 |
# | initialising a network: PyTorch "not available" | corrected: `net.apply(fn)` with `torch.nn.init` | §2 |
# | `torch.nn.init.normal(layer.weight, 0, 0.01)` ⇔ `Dense(..., weight_initializer=mx.init.Normal(0.01))` | the Gluon side confirmed (σ = 0.01); the PyTorch spelling is deprecated (`FutureWarning`), use `normal_` | §2 |
# | layers without an initialiser get the one passed to `initialize()` | confirmed for weights; biases (and BatchNorm's γ, β, statistics) keep their own | §2 |
# | `Block.initialize(init, ctx, verbose, force_reinit)` | confirmed | §2 |
# | PyTorch initialises on first use | corrected: at construction (lazy modules excepted) | §2 |
# | PyTorch must declare every layer's input size | obsolete: `nn.LazyLinear`, `nn.LazyConv2d`, … | §2 |
# | `Dense(units, activation=None, use_bias=True, flatten=True, ...)`; no need to flatten | confirmed; on 3-D input it is not `Linear` (`flatten=False` is) | §3 |
#
# ## Exercises
#
# 1. Write the converter the `load_state_dict` error in §1 asks for: a function that renames
#    the keys of a Gluon `Sequential` checkpoint to the positions of a PyTorch `Sequential`
#    (skipping the layers without parameters), and check it against `transfer.gluon_to_torch`.
# 2. Initialise `pt_net` with `nn.init.kaiming_uniform_(w, nonlinearity="relu")` and `mx_net`
#    with `mx.init.Xavier(rnd_type="uniform", factor_type="in", magnitude=6)`. Are the two
#    bounds the same? Check it with the weights' extents.
# 3. Run section 3's BatchNorm cells with Gluon on a GPU that MXNet supports (sm_50–
#    sm_86). Which of the two differences from PyTorch remain?

# %% [markdown]
# :::{dropdown} Solutions
# 1. A Gluon `Sequential` numbers only its layers (`0`, `1`); map each number to the
#    position of the *n*-th PyTorch module that has parameters:
#    ```python
#    def gluon_seq_to_state_dict(params, torch_seq):
#        slots = [str(i) for i, m in enumerate(torch_seq) if len(m.state_dict())]
#        return {f"{slots[int(k.split('.')[0])]}.{k.split('.', 1)[1]}":
#                torch.from_numpy(v.asnumpy()) for k, v in params.items()}
#    ```
#    Measured: keys `0.*, 2.*`, "All keys matched", and the weights equal exactly those
#    `transfer.gluon_to_torch` copies (outputs bit-equal; 2e-9 from Gluon's).
# 2. Yes: `kaiming_uniform_(relu)` draws from ±gain·√(3/fan_in) = ±√(6/fan_in), and
#    `Xavier("uniform", "in", 6)` from ±√(magnitude/fan_in) = ±√(6/fan_in). Measured on
#    (6→16), (16→3), (400→100), (784→256): both sides' largest |w| is 0.98–1.00 of √(6/fan_in),
#    never above it.
# 3. Not run here: this machine has no GPU that MXNet 1.9.1 supports. Method: replace
#    `mx.cpu()` by `mx.gpu(0)` in §3's BatchNorm cells (`initialize` and `train_steps`), then
#    look at the `ratio` cell and at the running statistics after a forward without
#    `backward()`. What to expect, from the maintainers' analysis in apache/mxnet issues
#    #18751 (linked in §3) and #21111, not from a run here: the cuDNN operator feeds the *unbiased*
#    variance into the running average and updates it in the forward pass, so neither
#    difference should remain (`ratio` ≈ 1); with `cudnn_off=True` the running variance is
#    the biased one again.
# :::
