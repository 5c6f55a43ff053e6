# %% [markdown]
# # Deep dive · Initialisers, surveyed: MXNet's in PyTorch, PyTorch's in Gluon, layer by layer
#
# This deep dive holds the measurements behind [notebook 6](../06_blocks.ipynb) §2 (*Each
# PyTorch layer has its own default* and *MXNet's initialisers, reproduced in PyTorch*).
# The notebook gives the rules and one example; here every rule is drawn on both sides:
#
# 1. each PyTorch layer's default (`Linear`, `Conv2d`, `LSTM`, `GRU`, `RNN`, `Embedding`,
#    the normalisation layers), its Gluon port, and Gluon's own default for the same layer;
# 2. reproductions of PyTorch's default in Gluon that look right and are not;
# 3. each `mx.init` initialiser of the notebook's table against the `torch.nn.init` call
#    that draws from the same distribution, and one tempting call that does not;
# 4. which parameter gets what: MXNet's rule *by name* (the symbolic API) against Gluon's
#    rule *by layer*, and what `initialize(mx.init.Xavier())` does to an `Embedding`;
# 5. `sidebyside.initmap.torch_init_like_mxnet` against MXNet's own draws, parameter by
#    parameter, on a small text model (`Embedding`, a two-layer bidirectional `LSTM`,
#    `LayerNorm`, `Dense`).
#
# Draws are compared in distribution (each framework has its own generator): the largest
# `|w|` of a uniform law, the standard deviation of a normal one, and the two-sample
# Kolmogorov–Smirnov (KS) distance, with tolerances from the sample sizes.
#
# **Time**: about 15 minutes.

# %% tags=["nbval-ignore-output"]
import inspect

import mxnet as mx
import numpy as np
import torch
from mxnet import gluon
from torch import nn

from sidebyside import compare, devices, errors, initmap, seeding

print(f"torch {torch.__version__} · mxnet {mx.__version__}")


def ks_distance(a, b):
    """The largest gap between the empirical distribution functions of two samples."""
    a, b = np.sort(a.ravel()), np.sort(b.ravel())
    both = np.concatenate([a, b])
    return np.abs(np.searchsorted(a, both, "right") / a.size
                  - np.searchsorted(b, both, "right") / b.size).max()


def ks_critical(n, m, alpha=1e-6):
    """The distance two samples of one law exceed with probability about alpha."""
    return np.sqrt(-np.log(alpha / 2) * (n + m) / (2 * n * m))


def law_ratio(w, kind, s):
    """A uniform sample's largest |w| over its bound s, a normal sample's std over s."""
    return np.abs(w).max() / s if kind == "uniform" else w.std() / s


SEED = seeding.seed_everything(0)
devs = devices.pick()
pt_dev, mx_ctx = devs.torch.device, devs.mxnet.device

# %% [markdown]
# ## 1. PyTorch's default, layer by layer, its Gluon port, and Gluon's own default
#
# One layer of each kind in the notebook's table, the recurrent ones with an input size (256)
# unlike their hidden size (32) so that `1/√fan_in` and `1/√hidden_size` part. Each is drawn
# three times: PyTorch's default, the Gluon port with PyTorch's law, and Gluon's own default.
#
# **PyTorch**: the layers, and the law the table gives each drawn parameter.

# %% tags=["pytorch"]
D_IN, H = 256, 32
pt_layers = {"Linear": nn.Linear(784, 256), "Conv2d": nn.Conv2d(16, 64, kernel_size=3),
             "LSTM": nn.LSTM(D_IN, H), "GRU": nn.GRU(D_IN, H), "RNN": nn.RNN(D_IN, H),
             "Embedding": nn.Embedding(1000, 16, padding_idx=0),
             "LayerNorm": nn.LayerNorm(16), "BatchNorm2d": nn.BatchNorm2d(16)}
PT_LAW = {"Linear": ("uniform", 1 / np.sqrt(784)), "Conv2d": ("uniform", 1 / np.sqrt(16 * 9)),
          **{k: ("uniform", 1 / np.sqrt(H)) for k in ("LSTM", "GRU", "RNN")},
          "Embedding": ("normal", 1.0)}       # the norm layers: 1 and 0, no draw


def pt_state(layer):
    """A layer's parameters and running statistics, in order (no batch counter)."""
    return {k: compare.to_numpy(v) for k, v in layer.state_dict().items()
            if "num_batches" not in k}


{name: list(pt_state(layer)) for name, layer in pt_layers.items()}

# %% [markdown]
# **Gluon**: the port (the notebook's `torch_default` and `torch_default_rnn`, `Normal(1)`
# for the `Embedding`, `activation="tanh"` for the `RNN`) and Gluon's own defaults.

# %% tags=["gluon"]
def torch_default(fan_in):
    return {"weight_initializer": mx.init.Xavier("uniform", "in", magnitude=1),
            "bias_initializer": mx.init.Uniform(1 / np.sqrt(fan_in))}


def torch_default_rnn(hidden_size):
    law = mx.init.Uniform(1 / np.sqrt(hidden_size))
    return {f"{p}_initializer": law for p in ("i2h_weight", "h2h_weight", "i2h_bias",
                                              "h2h_bias")}


def gluon_layers(port):
    """Gluon's twins of pt_layers, with PyTorch's laws (port=True) or with Gluon's own."""
    dense, rnn = (torch_default, torch_default_rnn) if port else [lambda _: {}] * 2
    emb = {"weight_initializer": mx.init.Normal(1)} if port else {}
    return {"Linear": gluon.nn.Dense(256, in_units=784, **dense(784)),
            "Conv2d": gluon.nn.Conv2D(64, 3, in_channels=16, **dense(16 * 9)),
            "LSTM": gluon.rnn.LSTM(H, input_size=D_IN, **rnn(H)),
            "GRU": gluon.rnn.GRU(H, input_size=D_IN, **rnn(H)),
            "RNN": gluon.rnn.RNN(H, input_size=D_IN, activation="tanh", **rnn(H)),
            "Embedding": gluon.nn.Embedding(1000, 16, **emb),
            "LayerNorm": gluon.nn.LayerNorm(in_channels=16),
            "BatchNorm2d": gluon.nn.BatchNorm(in_channels=16)}


mx_port, mx_own = gluon_layers(port=True), gluon_layers(port=False)
for layer in [*mx_port.values(), *mx_own.values()]:
    layer.initialize(ctx=mx_ctx)
{name: [k[len(layer.prefix):] for k in layer.collect_params()]
 for name, layer in mx_port.items()}

# %% [markdown]
# Parameter by parameter (the two frameworks list them in the same order): for a uniform law
# `U(±b)` the largest `|w|/b`, for a normal one `std/s`; the KS distance from PyTorch's draw
# to the port's; and Gluon's own default's largest `|w|` over 0.07.
#
# **Check**: PyTorch's and the port's draws have the table's law (largest `|w|` within `21/n`
# below `b`, or std within 5 standard errors); the port's KS distance is below the critical
# value; Gluon's own default fills `±0.07` for every weight (an `Embedding`'s included) and
# leaves every bias at 0; the recurrent input weights of PyTorch reach beyond twice
# `1/√256`, the `Linear` rule; the constants are the same on all three.

# %% tags=["nbval-ignore-output"]
init_rows = []
for name, pt_l in pt_layers.items():
    mx_params = [[p.data().asnumpy() for p in side[name].collect_params().values()]
                 for side in (mx_port, mx_own)]
    assert len(pt_state(pt_l)) == len(mx_params[0]) == len(mx_params[1]), name
    for (param, pt_w), mx_w, own_w in zip(pt_state(pt_l).items(), *mx_params):
        if name == "Embedding":                        # row 0 is PyTorch's padding_idx
            pt_w, mx_w, own_w = pt_w[1:], mx_w[1:], own_w[1:]
        r = {"layer": name, "param": param, "n": pt_w.size, "w": (pt_w, mx_w, own_w)}
        if name in PT_LAW:                             # a drawn parameter
            kind, s = PT_LAW[name]
            r.update(kind=kind, pt=law_ratio(pt_w, kind, s), port=law_ratio(mx_w, kind, s),
                     ks=ks_distance(pt_w, mx_w), own=np.abs(own_w).max() / 0.07)
        init_rows.append(r)
        print(f"{name:11} {param:12} n={r['n']:<7}", "constant" if "kind" not in r else
              f"{kind:7} ratio PyTorch {r['pt']:.4f} port {r['port']:.4f}  KS {r['ks']:.3f}"
              f"  Gluon's own max|w|/0.07 {r['own']:.4f}")

# %%
for r in init_rows:
    n, where, (pt_w, mx_w, own_w) = r["n"], (r["layer"], r["param"]), r["w"]
    if "kind" not in r:                                # 1s and 0s on all three
        assert (pt_w == pt_w.flat[0]).all() and (mx_w == pt_w).all() and (own_w == pt_w).all()
        continue
    for side in ("pt", "port"):
        assert (1 - 21 / n < r[side] <= 1 + 1e-6 if r["kind"] == "uniform"
                else abs(r[side] - 1) < 5 / np.sqrt(2 * n)), (where, side)
    assert r["ks"] < ks_critical(n, n), where
    if "weight" in r["param"]:
        assert 1 - 21 / n < r["own"] <= 1 + 1e-6, where     # Gluon's Uniform(0.07)
    else:
        assert not own_w.any(), where                        # Gluon's zero biases
    if r["param"].startswith("weight_ih"):
        assert np.abs(pt_w).max() > 2 / np.sqrt(D_IN), where
assert sum("kind" in r for r in init_rows) == 17 and len(init_rows) == 23
"every layer: PyTorch's default has the table's law, the port draws it, Gluon's is U(±0.07)"

# %% [markdown]
# ## 2. PyTorch's default in Gluon: reproductions that look right
#
# The notebook's `torch_default` gives a `Dense` `Xavier("uniform", "in", magnitude=1)`, and
# an `LSTM` `Uniform(1/√hidden_size)` for all four of its parameters. Three tempting
# shortcuts, each against PyTorch's own default draw:
#
# - `Xavier("uniform", "in")` at its default magnitude 3 (the docstring's `√(3/n_in)`): √3
#   too wide, so the variance is 3 times PyTorch's;
# - `Xavier("uniform", "in", magnitude=1)` for the LSTM too, the `Linear` rule: right for
#   the hidden-to-hidden weight (its fan-in *is* the hidden size) and √8 too narrow for the
#   input weight of an `LSTM(256, 32)`: variance ratio 32/256;
# - Gluon's default `Uniform(0.07)`: variance ratio `0.07²·fan` with `fan` PyTorch's
#   `fan_in` (784) for the `Dense`, the hidden size (32) for the `LSTM`.

# %% tags=["pytorch"]
pt_dense, pt_lstm = nn.Linear(784, 256), nn.LSTM(256, 32)
pt_ref = {"Dense weight": (compare.to_numpy(pt_dense.weight), 1 / np.sqrt(784)),
          "LSTM i2h weight": (compare.to_numpy(pt_lstm.weight_ih_l0), 1 / np.sqrt(32)),
          "LSTM h2h weight": (compare.to_numpy(pt_lstm.weight_hh_l0), 1 / np.sqrt(32))}
{k: w.shape for k, (w, _) in pt_ref.items()}

# %% tags=["gluon"]
def gluon_draws(dense_init, lstm_init):
    dense = gluon.nn.Dense(256, in_units=784, weight_initializer=dense_init)
    lstm = gluon.rnn.LSTM(32, input_size=256, i2h_weight_initializer=lstm_init,
                          h2h_weight_initializer=lstm_init)
    for layer in (dense, lstm):
        layer.initialize(ctx=mx_ctx)
    return {"Dense weight": dense.weight.data().asnumpy(),
            "LSTM i2h weight": lstm.l0_i2h_weight.data().asnumpy(),
            "LSTM h2h weight": lstm.l0_h2h_weight.data().asnumpy()}


candidates = {  # name: (draws, the variance ratio to PyTorch's that the bounds predict)
    "torch_default": (gluon_draws(mx.init.Xavier("uniform", "in", 1),
                                  mx.init.Uniform(1 / np.sqrt(32))), (1, 1, 1)),
    "Xavier('uniform', 'in') (magnitude 3)": (gluon_draws(mx.init.Xavier("uniform", "in"),
                                                          mx.init.Xavier("uniform", "in")),
                                              (3, 3 * 32 / 256, 3)),
    "Xavier('uniform', 'in', 1) for the LSTM too": (
        gluon_draws(mx.init.Xavier("uniform", "in", 1), mx.init.Xavier("uniform", "in", 1)),
        (1, 32 / 256, 1)),
    "Uniform(0.07)": (gluon_draws(None, None), (0.07**2 * 784, 0.07**2 * 32, 0.07**2 * 32)),
}
{name: list(draws) for name, (draws, _) in candidates.items()}

# %% [markdown]
# **Check**: each candidate's variance, over PyTorch's `b²/3`, is the ratio its bound
# predicts, within 5 standard errors (the standard error of `var/(b²/3)` for a uniform law
# is `3·√(4/45)/√n` times the ratio); only `torch_default` has ratio 1 everywhere and a KS
# distance to PyTorch's draw below the critical value; every other candidate is told apart
# on at least one weight.

# %% tags=["nbval-ignore-output"]
shortcut_stats = {}
for name, (draws, predicted) in candidates.items():
    for (weight, (pt_w, b)), expect in zip(pt_ref.items(), predicted):
        mx_w = draws[weight]
        shortcut_stats[name, weight] = {"var ratio": mx_w.var() / (b * b / 3),
                                        "predicted": expect, "n": mx_w.size,
                                        "KS": ks_distance(pt_w, mx_w)}
for (name, weight), st in shortcut_stats.items():
    print(f"{name:44} {weight:16} var/(b²/3) {st['var ratio']:.3f} "
          f"(predicted {st['predicted']:.3f})  KS {st['KS']:.3f}")

# %%
for (name, weight), st in shortcut_stats.items():
    n = st["n"]
    tol = 5 * 3 * np.sqrt(4 / 45) / np.sqrt(n)
    assert abs(st["var ratio"] / st["predicted"] - 1) < tol, (name, weight)
    if st["predicted"] == 1:
        assert st["KS"] < ks_critical(n, n), (name, weight)
    else:
        assert st["KS"] > ks_critical(n, n), (name, weight)
told_apart = {name for (name, _), st in shortcut_stats.items() if st["predicted"] != 1}
assert told_apart == set(candidates) - {"torch_default"}
"only torch_default draws PyTorch's law; the shortcuts are told apart by variance and KS"

# %% [markdown]
# ## 3. Every MXNet initialiser, drawn on both sides
#
# MXNet's `Xavier` draws `U(±s)` or `N(0, s²)` with `s = √(magnitude / factor)`, `factor`
# being `(fan_in + fan_out)/2` (`"avg"`), `fan_in` (`"in"`) or `fan_out` (`"out"`), from
# PyTorch's fans. PyTorch's `xavier_*_` use `gain·√(6/(fan_in + fan_out))` (bound) and
# `gain·√(2/(fan_in + fan_out))` (std); `kaiming_*_` use `gain·√(3/fan)` and `gain/√fan`
# with `gain = √(2/(1 + a²))` (`nonlinearity="leaky_relu"`, the default), 1 (`"linear"`), √2
# (`"relu"`). Setting them equal gives the calls of the notebook's table, exact in
# distribution (the `a` route up to the rounding of `√(6/m − 1)`).
#
# The rows of that table, each on two weights: a `Linear(784, 256)` (fans 784 and 256) and a
# `Conv2d(16, 64, 3)` (fans 144 and 576). The tempting wrong call for
# `Xavier(magnitude=2.24)` is `xavier_uniform_` without the gain.
#
# **PyTorch**: the table's calls, one per row.

# %% tags=["pytorch"]
SHAPES = {"linear": (256, 784), "conv": (64, 16, 3, 3)}
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
pt_legacy = {label: {name: fn(torch.empty(shape)).numpy() for name, shape in SHAPES.items()}
             for label, (_, fn) in legacy.items()}
len(pt_legacy), {name: w.shape for name, w in pt_legacy["Uniform(0.1)"].items()}

# %% [markdown]
# **Gluon**: the same two layers, each row's initialiser passed to `initialize()`:

# %% tags=["gluon"]
def gluon_pair():
    return {"linear": gluon.nn.Dense(256, in_units=784),
            "conv": gluon.nn.Conv2D(64, 3, in_channels=16)}


mx_legacy = {}
for label, (mx_init, _) in legacy.items():
    layers = gluon_pair()
    for layer in layers.values():
        layer.initialize(mx_init, ctx=mx_ctx)
    mx_legacy[label] = {name: l.weight.data().asnumpy() for name, l in layers.items()}
{name: w.shape for name, w in mx_legacy["Uniform(0.1)"].items()}

# %% [markdown]
# Each pair against the law MXNet's code gives (`mx_law`, written from `initializer.py`, not
# from `initmap`): for a uniform row `max |w| / s`, for a Gaussian row `std / s`, and the KS
# distance between MXNet's and PyTorch's draws. **Check**: a uniform draw's largest `|w|`
# within `21/n` below `s` (missed with probability below e⁻²¹), a Gaussian draw's standard
# deviation within 5 standard errors (`5/√(2n)` relative), the KS distance below its
# critical value at α = 1e-6 — and the tempting call fails: its bound is `√(3/2.24)` times
# MXNet's.

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
    for name in SHAPES:
        mx_w, pt_w = mx_legacy[label][name], pt_legacy[label][name]
        kind, s = mx_law(mx_init, mx_w.shape)
        legacy_stats[label, name] = {"kind": kind, "n": mx_w.size,
                                     "MXNet": law_ratio(mx_w, kind, s),
                                     "PyTorch": law_ratio(pt_w, kind, s),
                                     "KS": ks_distance(mx_w, pt_w)}
for (label, name), st in legacy_stats.items():
    print(f"{label[:40]:40} {name:6} {st['kind']:8} MXNet {st['MXNet']:.4f}"
          f"  PyTorch {st['PyTorch']:.4f}  KS {st['KS']:.4f}")

# %%
for (label, name), st in legacy_stats.items():
    n = st["n"]
    if label.startswith("tempting"):
        assert st["KS"] > ks_critical(n, n) and st["PyTorch"] > 0.995 * np.sqrt(3 / 2.24)
        continue
    for side in ("MXNet", "PyTorch"):
        if st["kind"] == "uniform":
            assert 1 - 21 / n < st[side] <= 1 + 1e-6, (label, name, side)
        else:
            assert abs(st[side] - 1) < 5 / np.sqrt(2 * n), (label, name, side)
    assert st["KS"] < ks_critical(n, n), (label, name)
assert len(legacy_stats) == 2 * len(legacy) == 24
"each row: one distribution on both sides; xavier_uniform_ without the gain is wider"

# %% [markdown]
# ## 4. Which parameter gets what: by name, or by layer
#
# MXNet's `Initializer` picks by the parameter's *name* only when it is called with a bare
# `InitDesc` — the symbolic `Module` API: a name ending in `weight` gets the draw, `bias` 0,
# `gamma` 1, `beta` 0, and any other name (`running_mean`, `moving_var`) a `ValueError`;
# those get 0 and 1 from the BatchNorm operator's own `__init__` attribute. Gluon never asks
# the name: `Parameter.initialize` hands the initialiser over as that `__init__`, which draws
# whatever the name. Gluon's biases are 0 and its γ, β, statistics 1, 0, 0, 1 because the
# *layers* declare those initialisers (`bias_initializer="zeros"`, `gamma_initializer="ones"`,
# …), and they win; a parameter of your own called `bias`, declared without one, gets the
# draw (and `Xavier` refuses it: a vector).
#
# `Embedding` is a layer that declares nothing: `weight_initializer=None`. So
# `initialize(mx.init.Xavier())` draws its `(input_dim, output_dim)` table like any matrix,
# with `fan_in = output_dim` and `fan_out = input_dim`, and `initialize()` alone gives it
# `Uniform(0.07)` — neither is PyTorch's `N(0, 1)`.

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


mx_own = OwnBias()
mx_own.initialize(mx.init.Uniform(0.5), ctx=mx_ctx)
mx_bn = gluon.nn.BatchNorm(in_channels=4)
mx_bn.initialize(mx.init.Uniform(0.5), ctx=mx_ctx)
by_init = {n: by_name(n, (2, 3) if n.endswith("weight") else (3,))
           for n in ("fc_weight", "fc_bias", "bn_gamma", "bn_beta", "bn_running_mean",
                     "bn_moving_var")}
declared = {cls.__name__: {k: str(v.default) for k, v in
                           inspect.signature(cls).parameters.items() if "initializer" in k}
            for cls in (gluon.nn.Embedding, gluon.nn.Dense, gluon.rnn.LSTM)}
names = {"Initializer by name (Module API)": by_init,
         "Gluon BatchNorm's own": {k.split("_", 1)[1]: str(p.init)
                                   for k, p in mx_bn.collect_params().items()},
         "Gluon 'bias' without init=": "drawn" if mx_own.bias.data().asnumpy().any() else 0,
         "declared by the layers": declared}
assert by_init["fc_bias"] == by_init["bn_beta"] == 0 and by_init["bn_gamma"] == 1
assert by_init["bn_running_mean"].startswith("ValueError: Unknown initialization pattern")
assert names["Gluon BatchNorm's own"] == {"gamma": "ones", "beta": "zeros",
                                          "running_mean": "zeros", "running_var": "ones"}
assert names["Gluon 'bias' without init="] == "drawn"
assert declared["Embedding"] == {"weight_initializer": "None"}
assert declared["Dense"] == {"weight_initializer": "None", "bias_initializer": "zeros"}
vector = errors.catch(lambda: OwnBias().initialize(mx.init.Xavier()))
assert vector.type == "ValueError" and "cannot be applied to vector" in vector.message
names

# %% [markdown]
# **Check** what that means for an `Embedding(1000, 64)`'s table: `Xavier()` (uniform,
# `"avg"`, magnitude 3) draws within `s = √(3/((64 + 1000)/2))`, reaching it, and
# `initialize()` alone within 0.07.

# %% tags=["nbval-ignore-output"]
mx_emb = {"Xavier()": gluon.nn.Embedding(1000, 64), "initialize()": gluon.nn.Embedding(1000, 64)}
mx_emb["Xavier()"].initialize(mx.init.Xavier(), ctx=mx_ctx)
mx_emb["initialize()"].initialize(ctx=mx_ctx)
emb_extent = {k: float(np.abs(l.weight.data().asnumpy()).max()) for k, l in mx_emb.items()}
s_emb = np.sqrt(3 / ((64 + 1000) / 2))
assert 1 - 21 / 64000 < emb_extent["Xavier()"] / s_emb <= 1 + 1e-6
assert 1 - 21 / 64000 < emb_extent["initialize()"] / 0.07 <= 1 + 1e-6
assert initmap.weight_law(mx.init.Xavier(), (1000, 64)) == ("uniform", s_emb)
{"max |w|": emb_extent, "Xavier's s": s_emb}

# %% [markdown]
# ## 5. `initmap` against MXNet's own draws, layer by layer
#
# A small text model on both sides — an `Embedding(1000, 32)`, a two-layer bidirectional
# `LSTM` with 64 hidden units, a `LayerNorm(128)` and a `Linear(128, 10)` — initialised
# with `Xavier("gaussian", "in", 2)` (He's rule). `"in"` makes the law depend on which fan
# is which, so a swapped fan (an `Embedding` read as `(output_dim, input_dim)`) would show.
# Both sides list their parameters in the same order.

# %% tags=["pytorch"]
he = mx.init.Xavier("gaussian", "in", 2)
pt_text = nn.ModuleList([nn.Embedding(1000, 32), nn.LSTM(32, 64, 2, bidirectional=True),
                         nn.LayerNorm(128), nn.Linear(128, 10)])
pt_laws = initmap.torch_init_like_mxnet(pt_text, he)
pt_values = {k: compare.to_numpy(v) for k, v in pt_text.state_dict().items()}
list(pt_values)

# %% tags=["gluon"]
mx_text = gluon.nn.HybridSequential()
mx_text.add(gluon.nn.Embedding(1000, 32),
            gluon.rnn.LSTM(64, 2, bidirectional=True, input_size=32),
            gluon.nn.LayerNorm(in_channels=128), gluon.nn.Dense(10, in_units=128, flatten=False))
mx_text.initialize(he, ctx=mx_ctx)
mx_values = [p.data().asnumpy() for p in mx_text.collect_params().values()]
[k.split("_", 1)[1] for k in mx_text.collect_params()]

# %% [markdown]
# **Check**: a constant of Gluon's (a bias, γ, β) is `initmap`'s too; every drawn weight has
# the std He's rule gives for its shape — `√(2/shape[1])`, computed here from the shape, not
# by `initmap` — within 5 standard errors on both sides, and a KS distance below its critical
# value.

# %% tags=["nbval-ignore-output"]
text_rows = []
for (name, pt_v), mx_v in zip(pt_values.items(), mx_values):
    assert pt_v.shape == mx_v.shape, name
    row = {"name": name, "n": pt_v.size, "law": pt_laws[name]}
    if mx_v.min() == mx_v.max():
        row["constant"] = (float(mx_v.flat[0]), float(pt_v.min()), float(pt_v.max()))
    else:
        s = np.sqrt(2 / pt_v.shape[1])
        row.update(s=s, pt=pt_v.std() / s, mx=mx_v.std() / s, ks=ks_distance(pt_v, mx_v))
    text_rows.append(row)
for r in text_rows:
    print(f"{r['name']:24} n={r['n']:<6}", f"constant {r['constant'][0]}" if "constant" in r
          else f"std/s PyTorch {r['pt']:.4f} MXNet {r['mx']:.4f}  KS {r['ks']:.3f}")

# %%
for r in text_rows:
    if "constant" in r:
        gluon_value, pt_min, pt_max = r["constant"]
        assert pt_min == pt_max == gluon_value and r["law"] == ("constant", gluon_value), r
        continue
    assert r["law"][0] == "normal" and abs(r["law"][1] / r["s"] - 1) < 1e-12, r["name"]
    for side in ("pt", "mx"):
        assert abs(r[side] - 1) < 5 / np.sqrt(2 * r["n"]), (r["name"], side)
    assert r["ks"] < ks_critical(r["n"], r["n"]), r["name"]
assert len(text_rows) == len(mx_values) == 1 + 16 + 2 + 2
assert sum("constant" in r for r in text_rows) == 8 + 2 + 1   # biases, γ and β
"Embedding, LSTM, LayerNorm and Dense: initmap draws what Gluon's initialize(init) draws"

# %% [markdown]
# ## What this means for a port
#
# - **MXNet → PyTorch**: `torch_init_like_mxnet(model, init)` starts a PyTorch model from the
#   distribution `initialize(init)` gives its Gluon twin, for `Linear`, `Conv*`, `Embedding`,
#   the recurrent layers, the normalisation layers and `PReLU`; a parameter of your own gets
#   the draw whatever its name, as in Gluon. By hand, the table of
#   [notebook 6](../06_blocks.ipynb) §2 gives each `torch.nn.init` call; mind the gain,
#   `√(m/3)` and not `√m`.
# - **PyTorch → MXNet**: Gluon's `initialize()` without an initialiser is `Uniform(0.07)` for
#   every layer, an `Embedding` included (PyTorch's is `N(0, 1)`). Give each
#   layer PyTorch's law — `Xavier("uniform", "in", 1)` plus a bias initialiser for `Dense` and
#   `Conv2D`, `Uniform(1/√hidden_size)` for all four parameters of a recurrent layer,
#   `Normal(1)` for an `Embedding` — or copy the weights.
# - Draws agree in distribution only: for the same numbers, copy the weights
#   (`sidebyside.transfer`).
