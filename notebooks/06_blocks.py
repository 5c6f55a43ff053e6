# %% [markdown]
# # 6 · Blocks, parameters and layer defaults: `gluon.Block` next to `nn.Module`
#
# **What you will learn**
#
# - how a custom `gluon.Block` maps onto an `nn.Module`, how Gluon 1.x names, collects and
#   saves parameters — and when `save_parameters()` keys match `state_dict()` keys;
# - how each side initialises a network and one layer; each PyTorch layer's own default
#   (`Linear` and `Conv*`, the recurrent layers, `Embedding`, the normalisation layers)
#   against Gluon's `Uniform(0.07)`, how to reproduce PyTorch's in Gluon, and MXNet's
#   (`Xavier`, `MSRAPrelu`, `Uniform`, `Normal`) in PyTorch;
# - which layer defaults change the numbers when you port a network: BatchNorm momentum and
#   variance, `Dense(flatten=True)`, channel layout, and the argument names of convolution
#   and pooling layers.
#
# Each network is built on both sides and checked; the seed articles' claims about blocks
# are tested on the way (verdicts in the summary). `HybridBlock`, `hybridize()` and
# `export()` are [notebook 7](07_hybridize_export.ipynb); the surveys behind §2 are the deep
# dive [Initialisers, surveyed](deep_dives/init_survey.ipynb).
#
# **Prerequisites**: [notebook 3](03_mnist_mlp.ipynb) (the MLP as a Block and a Module).
# **Time**: about 40 minutes.

# %% tags=["nbval-ignore-output"]
import copy
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
rng = np.random.default_rng(0)


def to_pt(a):                     # a numpy array onto PyTorch's device
    return torch.from_numpy(a).to(pt_dev)


def to_mx(a, ctx=None):           # ... and onto MXNet's (or ctx)
    return mx.nd.array(a, ctx=ctx or mx_ctx)


SEED = seeding.seed_everything(0)
devs = devices.pick()             # a device per framework (a GPU when one really works)
pt_dev, mx_ctx = devs.torch.device, devs.mxnet.device

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


mx_second, mx_no_scope = GluonMLP(16, 3), GluonMLPNoScope(16, 3)
{"second GluonMLP": list(mx_second.collect_params()),
 "GluonMLPNoScope": list(mx_no_scope.collect_params())}

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
assert [n for n, _ in pt_net.named_parameters()] == [
    "hidden.weight", "hidden.bias", "out.weight", "out.bias"]
assert list(mx_net.collect_params()) == [
    "gluonmlp0_dense0_weight", "gluonmlp0_dense0_bias",
    "gluonmlp0_dense1_weight", "gluonmlp0_dense1_bias"]
assert list(mx_second.collect_params())[0] == "gluonmlp1_dense0_weight"
assert len(list(mx_no_scope.collect_params())) == 4  # all found, no "gluonmlpnoscope0_"
assert not any(k.startswith(mx_no_scope.prefix) for k in mx_no_scope.collect_params())
assert saved_keys == sorted(pt_net.state_dict())
{"Gluon save_parameters() keys": saved_keys,
 "PyTorch state_dict() keys": sorted(pt_net.state_dict())}

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
    mx_seq_params = mx.nd.load(os.path.join(tmp, "seq.params"))
list(mx_seq_params)

# %% [markdown]
# A Gluon checkpoint therefore cannot be fed to `load_state_dict` as it is — not even after
# turning its arrays into tensors:

# %% tags=["raises-exception"]
pt_seq.load_state_dict({k: torch.from_numpy(v.asnumpy()) for k, v in mx_seq_params.items()})

# %%
key_error = errors.catch(pt_seq.load_state_dict,
                         {k: torch.from_numpy(v.asnumpy()) for k, v in mx_seq_params.items()})
assert list(mx_seq_params) == ["0.weight", "0.bias", "1.weight", "1.bias"]
assert list(pt_seq.state_dict()) == ["0.weight", "0.bias", "2.weight", "2.bias"]
assert key_error.type == "RuntimeError"
assert 'Missing key(s) in state_dict: "2.weight", "2.bias"' in key_error.message
assert 'Unexpected key(s) in state_dict: "1.weight", "1.bias"' in key_error.message
# pairing the layers (as sidebyside.transfer does) copies them correctly
assert transfer.gluon_to_torch(mx_seq, pt_seq) == [("0", "0"), ("2", "1")]
compare.assert_same(pt_seq(to_pt(x6)), mx_seq(to_mx(x6)), atol=1e-6)
"keys differ (0/1 against 0/2); pairing the layers copies them"

# %% [markdown]
# Legacy scripts often write the activation as a layer of its own, as PyTorch does:
# `gluon.nn.Activation("relu")` is `nn.ReLU()` (`"sigmoid"` is `nn.Sigmoid()`, `"tanh"` is
# `nn.Tanh()`), and `net = gluon.nn.HybridSequential()` (or `Sequential()`) followed by
# `net.add(a, b, …)` is `nn.Sequential(a, b, …)`. Built that way, the Gluon stack has
# PyTorch's positions: its checkpoint keys are `state_dict()`'s and the weights copy
# position by position. **Check** (float64): the same outputs with copied weights and each
# activation's outputs, within 1e-12; the same keys.

# %%
pt_seq64 = copy.deepcopy(pt_seq).double()          # nn.Sequential(Linear, ReLU, Linear)
mx_seq64 = gluon.nn.HybridSequential()             # gluon.nn.Sequential() works the same
mx_seq64.add(gluon.nn.Dense(16), gluon.nn.Activation("relu"), gluon.nn.Dense(3))
mx_seq64.initialize(mx.init.Zero(), ctx=mx_ctx)    # the weights come from PyTorch
mx_seq64.cast("float64")
x64 = np.random.default_rng(SEED).normal(size=(4, 6))
assert transfer.torch_to_gluon(pt_seq64, mx_seq64) == [("0", "0"), ("2", "2")]
mx_y64 = mx_seq64(mx.nd.array(x64, ctx=mx_ctx, dtype="float64"))
assert mx_y64.dtype == np.float64
compare.assert_same(pt_seq64(to_pt(x64)), mx_y64, atol=1e-12)
with tempfile.TemporaryDirectory() as tmp:
    mx_seq64.save_parameters(os.path.join(tmp, "seq64.params"))
    assert list(mx.nd.load(os.path.join(tmp, "seq64.params"))) == list(pt_seq64.state_dict())
z64 = 4 * np.random.default_rng(SEED).normal(size=(5, 7))
for pt_act, mx_act in ((nn.ReLU(), "relu"), (nn.Sigmoid(), "sigmoid"), (nn.Tanh(), "tanh")):
    compare.assert_same(pt_act(to_pt(z64)), gluon.nn.Activation(mx_act)(
        mx.nd.array(z64, ctx=mx_ctx, dtype="float64")), atol=1e-12)
"add(Dense, Activation('relu'), Dense) = Sequential(Linear, ReLU, Linear): outputs and keys"

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
# **Check**: `mx.init.Xavier()` (uniform, `"avg"`, `magnitude=3`) has `xavier_uniform_`'s
# bound, `√(6 / (fan_in + fan_out))`; biases are zero on both sides. As the defaults (below)
# stay inside that bound too, the check also asks for weights *beyond* each default's range
# (PyTorch's `1/√fan_in`, Gluon's 0.07): missed by a Xavier draw with probability < 1e-10.

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
for w in (compare.to_numpy(pt_layer.weight), mx_layer.weight.data().asnumpy()):
    assert abs(w.std() - 0.01) < 0.0003      # 40 000 draws: ±3 %
    assert abs(w.mean()) < 0.0003
assert [w.category for w in caught] == [FutureWarning]
[f"{w.category.__name__}: {w.message}" for w in caught]

# %% [markdown]
# ### The default initialisers differ
#
# With no initialiser anywhere, Gluon's `initialize()` draws every weight that has no
# initialiser of its own from `mx.init.Uniform(0.07)`, whatever the layer's size; the layers
# set their biases to zero. PyTorch's `Linear` (and `Conv*d`) calls `kaiming_uniform_(w,
# a=√5)`, `U(±1/√fan_in)`, and draws the bias from the same range. 64 and 784 inputs:
#
# **PyTorch**

# %% tags=["pytorch"]
pt_default = {fan_in: nn.Linear(fan_in, 256) for fan_in in (64, 784)}

# %% [markdown]
# **Gluon**

# %% tags=["gluon"]
mx_default = {fan_in: gluon.nn.Dense(256, in_units=fan_in) for fan_in in (64, 784)}
for layer in mx_default.values():
    layer.initialize(ctx=mx_ctx)

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
# ### Each PyTorch layer has its own default, and each can be reproduced in Gluon
#
# `U(±1/√fan_in)` is the rule of `Linear` and `Conv*d` only: each PyTorch layer draws in its
# own `reset_parameters()`. A Gluon port that wants PyTorch's start gives each layer its law:
#
# | layer | PyTorch's default | the same draw in Gluon |
# |---|---|---|
# | `nn.Linear(d_in, d_out)`, `nn.Conv2d(c_in, c_out, k)` | `U(±1/√fan_in)`, weight and bias | `weight_initializer=mx.init.Xavier("uniform", "in", magnitude=1)`, `bias_initializer=mx.init.Uniform(1/√fan_in)` |
# | `nn.LSTM(d_in, h)`, `nn.GRU(d_in, h)`, `nn.RNN(d_in, h)` | `U(±1/√h)`, every weight and both biases | `mx.init.Uniform(1/√h)` as `i2h_weight_initializer`, `h2h_weight_initializer`, `i2h_bias_initializer` and `h2h_bias_initializer` |
# | `nn.Embedding(n, d)` | `N(0, 1)`; the `padding_idx` row 0 | `weight_initializer=mx.init.Normal(1)`; no `padding_idx` |
# | `nn.LayerNorm(d)`, `nn.BatchNorm2d(c)` | `weight` 1, `bias` 0 | the same: `gamma_initializer="ones"`, `beta_initializer="zeros"` |
#
# MXNet's `Xavier("uniform", "in", magnitude=1)` draws `U(±1/√fan_in)` with PyTorch's fan-in
# ([`initializer.py`, line 643](https://github.com/apache/mxnet/blob/1.9.1/python/mxnet/initializer.py#L643));
# a bias needs its own `Uniform(1/√fan_in)`, as `Dense`'s `bias_initializer="zeros"` wins over
# `initialize()`'s. The recurrent rule is not the `Linear` one: an `LSTM(256, 32)`'s input
# weight has `fan_in` 256, and `1/√256` is √8 times narrower than `1/√32`.
#
# **PyTorch**: that LSTM and an `Embedding` with a padding row (`pt_default[784]` above is
# the `Linear`):

# %% tags=["pytorch"]
pt_lstm = nn.LSTM(256, 32)
pt_emb = nn.Embedding(1000, 16, padding_idx=0)
{name: tuple(p.shape) for name, p in pt_lstm.named_parameters()}

# %% [markdown]
# **Gluon**: the three ports.

# %% tags=["gluon"]
def torch_default(fan_in):
    """Initialisers that give a Dense or Conv2D PyTorch's default draw."""
    return {"weight_initializer": mx.init.Xavier("uniform", "in", magnitude=1),
            "bias_initializer": mx.init.Uniform(1 / np.sqrt(fan_in))}


def torch_default_rnn(hidden_size):
    """Initialisers that give an rnn.LSTM, GRU or RNN PyTorch's default draw."""
    law = mx.init.Uniform(1 / np.sqrt(hidden_size))
    return {f"{p}_initializer": law for p in ("i2h_weight", "h2h_weight", "i2h_bias",
                                              "h2h_bias")}


mx_dense = gluon.nn.Dense(256, in_units=784, **torch_default(784))
mx_lstm = gluon.rnn.LSTM(32, input_size=256, **torch_default_rnn(32))
mx_emb = gluon.nn.Embedding(1000, 16, weight_initializer=mx.init.Normal(1))
for layer in (mx_dense, mx_lstm, mx_emb):
    layer.initialize(ctx=mx_ctx)
[name[len(mx_lstm.prefix):] for name in mx_lstm.collect_params()]

# %% [markdown]
# **Check**, parameter by parameter, with tolerances from the sample size `n`: a draw from
# `U(±b)` reaches within `21/n` of `b` (missed with probability below `e⁻²¹`), never beyond;
# one from `N(0, 1)` has its std within 5 standard errors (`5/√(2n)`) of 1 and values beyond
# 3 (a uniform law of that std stops at √3); the two-sample Kolmogorov–Smirnov (KS) distance
# between the two sides' draws stays below its critical value at α = 1e-6,
# `√(−ln(α/2)·(n + m)/(2nm))`. The LSTM's input weights reach beyond twice `1/√256`.

# %%
def ks_distance(a, b):
    a, b = np.sort(a.ravel()), np.sort(b.ravel())
    both = np.concatenate([a, b])
    return np.abs(np.searchsorted(a, both, "right") / a.size
                  - np.searchsorted(b, both, "right") / b.size).max()


def ks_critical(n, m, alpha=1e-6):
    return np.sqrt(-np.log(alpha / 2) * (n + m) / (2 * n * m))


uniform_pairs = [(pt_default[784].weight, mx_dense.weight, 1 / np.sqrt(784)),
                 (pt_default[784].bias, mx_dense.bias, 1 / np.sqrt(784))]
uniform_pairs += [(pt_p, mx_p, 1 / np.sqrt(32)) for pt_p, mx_p in
                  zip(pt_lstm.parameters(), mx_lstm.collect_params().values())]
for pt_p, mx_p, b in uniform_pairs:
    pt_w, mx_w = compare.to_numpy(pt_p), mx_p.data().asnumpy()
    assert pt_w.shape == mx_w.shape
    for w in (pt_w, mx_w):
        assert 1 - 21 / w.size < np.abs(w).max() / b <= 1 + 1e-6, mx_p.name
    assert ks_distance(pt_w, mx_w) < ks_critical(pt_w.size, mx_w.size), mx_p.name
assert np.abs(compare.to_numpy(pt_lstm.weight_ih_l0)).max() > 2 / np.sqrt(256)
pt_e, mx_e = compare.to_numpy(pt_emb.weight), mx_emb.weight.data().asnumpy()
for w in (pt_e[1:], mx_e[1:]):                      # row 0: PyTorch's padding_idx
    assert abs(w.std() - 1) < 5 / np.sqrt(2 * w.size) and np.abs(w).max() > 3
assert ks_distance(pt_e[1:], mx_e[1:]) < ks_critical(pt_e[1:].size, mx_e[1:].size)
assert not pt_e[0].any() and "padding_idx" not in inspect.signature(gluon.nn.Embedding).parameters
assert inspect.signature(gluon.rnn.RNN).parameters["activation"].default == "relu"
assert nn.RNN(4, 4).nonlinearity == "tanh"      # not an initialiser, but the same trap
assert len(uniform_pairs) == 6
"Linear: U(±1/√fan_in); LSTM: U(±1/√hidden) everywhere; Embedding: N(0, 1); ports agree"

# %% [markdown]
# One more recurrent default differs, and it is not an initialiser: Gluon's `rnn.RNN` uses
# `activation="relu"`, PyTorch's `nn.RNN` `tanh` (asserted above). Every layer of the table
# (`Conv2d`, `GRU`, `RNN`, the normalisation layers), Gluon's own defaults for them
# (`Uniform(0.07)` for every weight, an `Embedding`'s included; biases 0) and shortcuts that
# look right and are not (`Xavier("uniform", "in")` at its default magnitude 3, √3 too wide)
# are drawn in the deep dive [Initialisers, surveyed](deep_dives/init_survey.ipynb) §1–2.
#
# ### MXNet's initialisers, reproduced in PyTorch
#
# The other direction: a Gluon script's `initialize(init)` ported to PyTorch. MXNet's
# `Xavier` ([`initializer.py`, lines 625–651](https://github.com/apache/mxnet/blob/1.9.1/python/mxnet/initializer.py#L625))
# takes PyTorch's fans (`fan_in = in·∏kernel`, `fan_out = out·∏kernel`), makes `factor` their
# mean (`"avg"`), `fan_in` (`"in"`) or `fan_out` (`"out"`), and draws `U(±s)` or `N(0, s²)`
# with `s = √(magnitude / factor)`. A `torch.nn.init` call draws from *the same
# distribution* (not the same numbers):
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
# | biases; BatchNorm γ, β, running mean, variance | 0; 1, 0, 0, 1 — the *layer's* own initialisers | `zeros_(bias)` (PyTorch's default is `U(±1/√fan_in)`); `BatchNorm` starts at 1, 0, 0, 1 already |
#
# `MSRAPrelu()` is *not* `Xavier("gaussian", "in", 2)`: its defaults are `"avg"` and slope
# 0.25; `MSRAPrelu("in", 0)` is. Every row is drawn on both sides in the deep dive's §3.
#
# Biases, γ and β are the layers' business: Gluon's layers declare their own initialisers
# (`bias_initializer="zeros"`, `gamma_initializer="ones"`, …), which win over
# `initialize()`'s (the deep dive's §4). `initmap.torch_init_like_mxnet(module, init)` does
# all of this to a PyTorch module — the weights of `Linear`, `Conv*`, `Embedding` and
# recurrent layers from the table's law for their shapes, their biases 0, normalisation
# layers at 1 and 0 with fresh statistics, `PReLU` at 0.25 — and refuses, naming it, what it
# cannot match; the deep dive's §5 checks it against MXNet's own draws. A small CNN,
# initialised as legacy scripts do:

# %%
pt_cnn = nn.Sequential(nn.Conv2d(3, 32, 3), nn.BatchNorm2d(32), nn.ReLU(), nn.Flatten(),
                       nn.Linear(32 * 14 * 14, 10))
laws = initmap.torch_init_like_mxnet(pt_cnn, mx.init.Xavier(magnitude=2.24))   # PyTorch
mx_cnn = gluon.nn.HybridSequential()
mx_cnn.add(gluon.nn.Conv2D(32, 3, in_channels=3), gluon.nn.BatchNorm(in_channels=32),
           gluon.nn.Activation("relu"), gluon.nn.Dense(10, in_units=32 * 14 * 14))
mx_cnn.initialize(mx.init.Xavier(magnitude=2.24), ctx=mx_ctx)                 # Gluon
pt_cnn_state = {k: v for k, v in pt_cnn.state_dict().items() if "num_batches" not in k}
for (name, pt_v), mx_p in zip(pt_cnn_state.items(), mx_cnn.collect_params().values()):
    pt_v, mx_v = compare.to_numpy(pt_v), mx_p.data().asnumpy()
    assert pt_v.shape == mx_v.shape
    if name.endswith("weight") and pt_v.ndim > 1:
        k = np.prod(pt_v.shape[2:])                 # MXNet's Xavier, initializer.py
        s = np.sqrt(2.24 / ((pt_v.shape[0] * k + pt_v.shape[1] * k) / 2))
        assert laws[name][0] == "uniform" and abs(laws[name][1] - s) < 1e-12 * s
        for w in (pt_v, mx_v):
            assert 1 - 21 / w.size < np.abs(w).max() / s <= 1 + 1e-6
        assert ks_distance(pt_v, mx_v) < ks_critical(pt_v.size, mx_v.size)
    else:
        np.testing.assert_array_equal(pt_v, mx_v)   # 0s and 1s, the same on both sides
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
mx_fresh = gluon.nn.Dense(16)
mx_fresh.initialize(ctx=mx_ctx)
assert errors.catch(lambda: nn.LazyLinear(16).weight.shape).type == "RuntimeError"
assert errors.catch(mx_fresh.weight.data).type == "DeferredInitializationError"
assert type(pt_lazy) is nn.Linear and tuple(pt_lazy.weight.shape) == (16, 6)
assert mx_lazy.weight.shape == (16, 6)
{"PyTorch": (type(pt_lazy).__name__, tuple(pt_lazy.weight.shape)),
 "Gluon": (type(mx_lazy).__name__, mx_lazy.weight.shape)}

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
assert mx_flat(to_mx(x3)).shape == (2, 5) and mx_flat.weight.shape == (5, 12)
compare.assert_same(pt_lin(to_pt(x3)), mx_lin(to_mx(x3)), atol=1e-6)
mx_lin(to_mx(x3)).shape, "the outputs of Linear (tolerance 1e-6)"

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

# %% [markdown]
# **Check**: the same features (tolerance 1e-5), and each spelling's outcome:

# %%
compare.assert_same(pt_feat, mx_feat, atol=1e-5)
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
# Both default to `NCHW`. PyTorch's `channels_last` is a *memory* format: the tensor keeps
# its `NCHW` shape and layers give the same numbers. Gluon's `layout="NHWC"` changes the
# *shape* the layer expects, and the weight's, `(out, kH, kW, in)`; in MXNet 1.9.1 the CPU
# (oneDNN) convolution refuses it (pooling accepts it), and `transfer` refuses to copy a
# PyTorch weight into such a layer even where the shapes happen to match. The deep dive
# [Channel layout](deep_dives/blocks_channel_layout.ipynb) runs each of these.

# %% [markdown]
# ## Summary
#
# | | PyTorch | MXNet Gluon 1.x |
# |---|---|---|
# | custom block | `class M(nn.Module)` + `forward` | `class M(gluon.Block)` + `forward` (`HybridBlock`: [notebook 7](07_hybridize_export.ipynb)) |
# | a stack of layers | `nn.Sequential(a, b)` | `net = nn.HybridSequential()` + `net.add(a, b)` (also `nn.Sequential()`) |
# | an activation layer | `nn.ReLU()`, `nn.Sigmoid()`, `nn.Tanh()` | `nn.Activation('relu')`, `nn.Activation('sigmoid')`, `nn.Activation('tanh')` |
# | layer sizes | `nn.Linear(d_in, d_out)`, or `nn.LazyLinear(d_out)` | `gluon.nn.Dense(d_out)` (`in_units` inferred) |
# | parameter names | `named_parameters()`: `hidden.weight` | `collect_params()`: `gluonmlp0_dense0_weight` |
# | checkpoint keys of a `Sequential` | `state_dict()`: `0.weight`, `2.weight` (every layer counts) | `save_parameters()`: `0.weight`, `1.weight` (only `add()`ed blocks count) |
# | select parameters | `[p for n, p in net.named_parameters() if n.endswith("weight")]` | `net.collect_params(".*weight")` (`re.match`: anchored) |
# | initialise a network | `net.apply(fn)` with `nn.init.xavier_uniform_` | `net.initialize(mx.init.Xavier())` |
# | one layer | `nn.init.normal_(layer.weight, 0, 0.01)` | `Dense(..., weight_initializer=mx.init.Normal(0.01))` |
# | default `Linear`, `Conv2d` | `U(±1/√fan_in)`, weight and bias | `Uniform(0.07)` weight, bias 0 |
# | default `LSTM`, `GRU`, `RNN` | `U(±1/√hidden_size)`, every weight and bias | `Uniform(0.07)` weights, biases 0 |
# | default `Embedding` | `N(0, 1)` | `Uniform(0.07)` |
# | default `LayerNorm`, `BatchNorm2d` | `weight` 1, `bias` 0 | `gamma` 1, `beta` 0 |
# | PyTorch's default for a `Linear` | `nn.Linear(d_in, d_out)` | `Dense(d_out, in_units=d_in, weight_initializer=mx.init.Xavier("uniform", "in", 1), bias_initializer=mx.init.Uniform(1/√d_in))` |
# | PyTorch's default for an `LSTM` | `nn.LSTM(d_in, h)` | `rnn.LSTM(h, input_size=d_in, i2h_weight_initializer=u, h2h_weight_initializer=u, i2h_bias_initializer=u, h2h_bias_initializer=u)` with `u = mx.init.Uniform(1/√h)` |
# | PyTorch's default for an `Embedding` | `nn.Embedding(n, d)` | `nn.Embedding(n, d, weight_initializer=mx.init.Normal(1))` |
# | MXNet's `Xavier` in PyTorch | `nn.init.xavier_uniform_(w, gain=√(m/3))`, `nn.init.zeros_(b)` | `mx.init.Xavier(magnitude=m)` |
# | MXNet's initialiser for a whole network | `initmap.torch_init_like_mxnet(net, mx.init.Xavier(magnitude=2.24))` | `net.initialize(mx.init.Xavier(magnitude=2.24))` |
# | deferred shapes | `nn.LazyLinear(16)` (shape at the first forward) | `gluon.nn.Dense(16)` + `initialize()` (shape at the first forward) |
# | BatchNorm momentum | `nn.BatchNorm2d(c, momentum=0.1)` | `gluon.nn.BatchNorm(momentum=0.9)` |
# | BatchNorm running variance | unbiased, updated in the forward | biased, on the CPU updated in `backward()` ([notebook 5](05_autograd.ipynb) §2) |
# | `Linear` on 3-D input | `nn.Linear(4, 5)` (the last axis) | `gluon.nn.Dense(5, flatten=False)` |
# | convolution | `Conv2d(in, out, kernel_size, stride, padding)` | `Conv2D(channels, kernel_size, strides, padding, in_channels=)` |
# | max pooling | `MaxPool2d(kernel_size, stride)` (no default size) | `MaxPool2D(pool_size=(2, 2), strides)` |
# | a simple RNN | `nn.RNN(d_in, h)` (`tanh`) | `rnn.RNN(h, activation="tanh")` (default `"relu"`) |
# | channels last | `x.to(memory_format=torch.channels_last)` (shape stays NCHW) | `layout="NHWC"` (CPU: pooling only; [Channel layout](deep_dives/blocks_channel_layout.ipynb)) |
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
#    position of the *n*-th PyTorch module that has parameters. The converted keys are
#    PyTorch's (`0.*`, `2.*`), `load_state_dict` finds no missing or unexpected key, and the
#    weights are exactly those `transfer.gluon_to_torch` copies (first cell below).
# 2. Yes: `kaiming_uniform_(relu)` draws from ±gain·√(3/fan_in) = ±√(6/fan_in), and
#    `Xavier("uniform", "in", 6)` from ±√(magnitude/fan_in) = ±√(6/fan_in). On `pt_net`,
#    `mx_net` and a larger layer (784 → 256), both sides' largest `|w|` lies within `21/n`
#    below √(6/fan_in), never above it, and the large layer's two draws pass §2's KS test
#    (second cell below).
# 3. Not run in this book, which runs MXNet's CPU build. Method: `mx.gpu(0)` for `mx.cpu()`
#    in §3's BatchNorm cells, then read the `ratio` cell and the statistics after a forward
#    without `backward()`. Expected from the maintainers' analysis in apache/mxnet issues
#    #18751 (linked in §3) and #21111, not from a run: cuDNN feeds the *unbiased* variance
#    into the running average, in the forward pass, so neither difference remains
#    (`ratio` ≈ 1); with `cudnn_off=True` the running variance is the biased one again.
# :::
#
# **Solutions**, run with asserts: the two cells below (folded away in the book: open each
# one); each ends with its answer.

# %% tags=["hide-cell"]
def gluon_seq_to_state_dict(params, torch_seq):
    slots = [str(i) for i, m in enumerate(torch_seq) if len(m.state_dict())]
    return {f"{slots[int(k.split('.')[0])]}.{k.split('.', 1)[1]}":
            torch.from_numpy(v.asnumpy()) for k, v in params.items()}


pt_converted = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 3))
converted = gluon_seq_to_state_dict(mx_seq_params, pt_converted)
loaded = pt_converted.load_state_dict(converted)
assert list(converted) == ["0.weight", "0.bias", "2.weight", "2.bias"]
assert not loaded.missing_keys and not loaded.unexpected_keys
for key, value in pt_seq.state_dict().items():        # pt_seq: gluon_to_torch's copy (§1)
    assert torch.equal(pt_converted.state_dict()[key], value.cpu()), key
compare.assert_same(pt_converted(torch.from_numpy(x6)), mx_seq(to_mx(x6)), atol=1e-6)
"1. keys 0.*, 2.*, all matched: the weights transfer.gluon_to_torch copies"

# %% tags=["hide-cell"]
for layer in (pt_net.hidden, pt_net.out):
    nn.init.kaiming_uniform_(layer.weight, nonlinearity="relu")
mx_net.initialize(mx.init.Xavier(rnd_type="uniform", factor_type="in", magnitude=6),
                  force_reinit=True)
mx_big = gluon.nn.Dense(256, in_units=784, weight_initializer=mx.init.Xavier("uniform", "in", 6))
mx_big.initialize(ctx=mx_ctx)
ex2_pairs = [(pt_net.hidden.weight, mx_net.hidden.weight), (pt_net.out.weight, mx_net.out.weight),
             (nn.init.kaiming_uniform_(torch.empty(256, 784), nonlinearity="relu"), mx_big.weight)]
for pt_w, mx_p in ex2_pairs:
    pt_w, mx_w = compare.to_numpy(pt_w), mx_p.data().asnumpy()
    bound = np.sqrt(6 / pt_w.shape[1])
    for w in (pt_w, mx_w):
        assert 1 - 21 / w.size < np.abs(w).max() / bound <= 1 + 1e-6, w.shape
assert ks_distance(pt_w, mx_w) < ks_critical(pt_w.size, mx_w.size)      # 784 → 256
[tuple(mx_p.shape) for _, mx_p in ex2_pairs], "2. the same bound, ±√(6/fan_in)"
