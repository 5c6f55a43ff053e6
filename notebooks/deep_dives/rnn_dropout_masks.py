# %% [markdown]
# # Deep dive · Inter-layer dropout in fused LSTMs: where it applies, and where it does not
#
# This page deepens [notebook 20](../20_sequence_models.ipynb) §5 (*Inter-layer dropout in
# fused RNNs*). Both `torch.nn.LSTM(num_layers=2, dropout=p)` and
# `gluon.rnn.LSTM(num_layers=2, dropout=p)` promise to drop the outputs of every layer but the
# last, in training only. Here: the mask itself, read back through a second layer built to
# show it (§1); PyTorch's fresh mask at every call (§2); MXNet 1.9.1's default CPU path in
# float32, which runs oneDNN's RNN and **drops nothing at all**, whatever the rate and the
# seed (§3); MXNet's own kernel, reached with `MXNET_USE_MKLDNN_RNN=0`, which does drop (§4);
# what that means for training, with a second trap of that kernel (§5); and a stack of
# one-layer LSTMs with a dropout layer between them, which drops on every path and gives both
# frameworks the same masks (§6). **Time**: about 15 minutes.
#
# Everything runs on the CPU, whatever `devices.pick()` chose: the oneDNN path is a CPU path.

# %% tags=["nbval-ignore-output"]
import json
import os
import subprocess
import sys
import warnings

import mxnet as mx
import numpy as np
import torch
from mxnet import autograd, gluon, nd

from sidebyside import devices, samerandom, seeding

SEED = seeding.seed_everything(0)
devs = devices.pick()
pt_dev, mx_ctx = devs.torch.device, devs.mxnet.device
torch.set_num_threads(1)   # tiny LSTMs: a second thread costs more than it saves here
print(f"torch {torch.__version__} · mxnet {mx.__version__}; oneDNN in this MXNet build: "
      f"{mx.runtime.Features().is_enabled('MKLDNN')}")

# %% [markdown]
# ## 1. Where the dropout goes, and the mask read back
#
# A fused two-layer LSTM hides the tensor that dropout multiplies: layer 1's output
# sequence, `(T, N, H)`, on its way into layer 2. To see the mask, layer 2 here is a
# *reader*: its input, forget and output gates are pinned (biases ±50, so `sigmoid` gives
# exactly 1, 0, 1), it has no recurrent weights, and its candidate is `tanh(0.5·x)` unit by
# unit. So layer 2 outputs `tanh(tanh(0.5·x))` for each element `x` it receives, and
# `2·artanh(artanh(h2))` gives back what came through: layer 1's output `y1` times the mask.
# `y1` itself comes from a one-layer LSTM with layer 1's weights. Both frameworks order an
# LSTM's gates `i, f, g, o` (MXNet calls `g` the cell candidate `c`), so the same arrays serve
# both. The rate is `P = 0.25`, whose kept scale `1/(1 − p) = 4/3` cannot be mistaken for
# `1/p`.

# %%
T, N, C, H = 20, 8, 6, 16            # steps, batch, input features, hidden units
P = 0.25
READ, PIN = 0.5, 50.0                # the reader's candidate slope; sigmoid(±50) is 1 or 0
probe_rng = np.random.default_rng(SEED)
probe_x = probe_rng.standard_normal((T, N, C))
probe_layer1 = {"l0_i2h_weight": probe_rng.standard_normal((4 * H, C)) * 0.4,
                "l0_h2h_weight": probe_rng.standard_normal((4 * H, H)) * 0.4,
                "l0_i2h_bias": probe_rng.standard_normal(4 * H) * 0.4,
                "l0_h2h_bias": probe_rng.standard_normal(4 * H) * 0.4}
reader_bias = np.zeros(4 * H)
reader_bias[:H], reader_bias[H:2 * H], reader_bias[3 * H:] = PIN, -PIN, PIN   # i, f, o
reader = {"l1_i2h_weight": np.vstack([np.zeros((2 * H, H)), READ * np.eye(H),
                                      np.zeros((H, H))]),
          "l1_h2h_weight": np.zeros((4 * H, H)),
          "l1_i2h_bias": reader_bias, "l1_h2h_bias": np.zeros(4 * H)}
probe_weights = {1: probe_layer1, 2: {**probe_layer1, **reader}}   # by number of layers
TORCH_NAME = {"i2h_weight": "weight_ih", "h2h_weight": "weight_hh",
              "i2h_bias": "bias_ih", "h2h_bias": "bias_hh"}


def load_torch(pt_lstm, weights):
    """Copy Gluon-named arrays ('l0_i2h_weight', ...) into a fused nn.LSTM."""
    assert len(weights) == len(list(pt_lstm.parameters())), "a weight is missing"
    with torch.no_grad():
        for name, value in weights.items():
            layer, kind = name.split("_", 1)
            getattr(pt_lstm, f"{TORCH_NAME[kind]}_{layer}").copy_(torch.from_numpy(value))
    return pt_lstm


def load_gluon(mx_lstm, weights, dtype="float32"):
    """Copy Gluon-named arrays into a fused rnn.LSTM (its parameters without their prefix)."""
    params = dict(mx_lstm.collect_params().items())
    assert len(weights) == len(params), "a weight is missing"
    for key, param in params.items():
        param.set_data(nd.array(weights[key[len(mx_lstm.prefix):]], dtype=dtype))
    return mx_lstm


def pt_probe(p, layers=2):
    return load_torch(torch.nn.LSTM(C, H, num_layers=layers, dropout=p).double(),
                      probe_weights[layers])


def mx_probe(p, layers=2, dtype="float32"):
    mx_lstm = gluon.rnn.LSTM(H, num_layers=layers, dropout=p, input_size=C)
    mx_lstm.initialize(ctx=mx.cpu())
    mx_lstm.cast(dtype)
    return load_gluon(mx_lstm, probe_weights[layers], dtype)


def read_mask(h2, y1):
    """What multiplied layer 1's output on its way into the reader; NaN where |y1| is too
    small to tell."""
    seen = 2 * np.arctanh(np.arctanh(np.asarray(h2, dtype=np.float64)))
    return np.where(np.abs(y1) > 0.02, seen / np.where(np.abs(y1) > 0.02, y1, 1), np.nan)


def mask_facts(mask, p):
    """The claims about one read-back mask: values, kept fraction, a new draw per step."""
    known = mask[~np.isnan(mask)]
    dropped, kept = np.abs(known) < 1e-3, np.abs(known - 1 / (1 - p)) < 1e-3
    per_unit = np.where(np.isnan(mask), 1, mask > 0.5)   # (T, N, H): kept or not, per step
    return {"every value 0 or 1/(1-p)": bool(np.all(dropped | kept)),
            "kept fraction": float(kept.mean()),
            "dropped somewhere": bool(dropped.any()),
            "units whose mask changes over time": float(
                (per_unit.min(axis=0) != per_unit.max(axis=0)).mean())}


# %% [markdown]
# **PyTorch**: a one-layer LSTM with `dropout=0.5` warns at construction and computes what
# `dropout=0` computes; the two-layer one, in `train()` mode, differs from `dropout=0`, and in
# `eval()` mode equals it. The probe runs in float64.

# %% tags=["pytorch"]
pt_x = torch.from_numpy(probe_x)


def pt_run(pt_lstm, train=True):
    pt_lstm.train(train)
    with torch.no_grad():
        return pt_lstm(pt_x)[0].numpy()


with warnings.catch_warnings(record=True) as pt_caught:
    warnings.simplefilter("always")
    pt_one_layer = pt_probe(0.5, layers=1)
pt_y1 = pt_run(pt_probe(0, layers=1))
torch.manual_seed(SEED)
pt_seen = {"1 layer, p=0.5, train": pt_run(pt_one_layer),
           "2 layers, p=0": pt_run(pt_probe(0)),
           "2 layers, train": pt_run(pt_probe(P)),
           "2 layers, eval": pt_run(pt_probe(P), train=False)}
pt_mask = read_mask(pt_seen["2 layers, train"], pt_y1)

# %% [markdown]
# **Gluon**: the same in float64, under `autograd.train_mode()` and `predict_mode()`. Float64
# matters: on the CPU, MXNet 1.9.1 sends a float32 `RNN` to oneDNN, which drops nothing (§3);
# a float64 one runs MXNet's own kernel, the one §4 reaches for float32. Gluon does not warn
# about the one-layer case.

# %% tags=["gluon"]
mx_x = nd.array(probe_x, dtype="float64")


def mx_run(mx_lstm, train=True, x=mx_x):
    with autograd.train_mode() if train else autograd.predict_mode():
        return mx_lstm(x).asnumpy()


with warnings.catch_warnings(record=True) as mx_caught:
    warnings.simplefilter("always")
    mx_one_layer = mx_probe(0.5, layers=1, dtype="float64")
    mx_one_layer_out = mx_run(mx_one_layer)
mx_y1 = mx_run(mx_probe(0, layers=1, dtype="float64"))
mx.random.seed(SEED)
mx_seen = {"1 layer, p=0.5, train": mx_one_layer_out,
           "2 layers, p=0": mx_run(mx_probe(0, dtype="float64")),
           "2 layers, train": mx_run(mx_probe(P, dtype="float64")),
           "2 layers, eval": mx_run(mx_probe(P, dtype="float64"), train=False)}
mx_mask = read_mask(mx_seen["2 layers, train"], mx_y1)

# %%
def where_it_applies(seen, y1, mask):
    off = seen["2 layers, p=0"]
    return {"1 layer: unaffected": bool(np.allclose(seen["1 layer, p=0.5, train"], y1,
                                                    rtol=0, atol=1e-12)),
            "2 layers, training: differs from p=0": not np.allclose(
                seen["2 layers, train"], off, rtol=0, atol=1e-3),
            "2 layers, eval/predict: equals p=0": bool(np.allclose(
                seen["2 layers, eval"], off, rtol=0, atol=1e-12)),
            **{k: v for k, v in mask_facts(mask, P).items() if isinstance(v, bool)}}


applies = {"PyTorch": where_it_applies(pt_seen, pt_y1, pt_mask),
           "Gluon, float64": where_it_applies(mx_seen, mx_y1, mx_mask)}
assert any("dropout=0.5 and num_layers=1" in str(w.message) for w in pt_caught)
assert not [w for w in mx_caught if "dropout" in str(w.message).lower()]
for framework, facts in applies.items():
    assert all(facts.values()), (framework, facts)
for mask in (pt_mask, mx_mask):
    facts = mask_facts(mask, P)
    assert abs(facts["kept fraction"] - (1 - P)) < 0.04, facts     # about 2300 elements
    assert facts["units whose mask changes over time"] > 0.9, facts
applies

# %% tags=["nbval-ignore-output"]
{framework: {key: f"{value:.3f}" for key, value in mask_facts(mask, P).items()
             if not isinstance(value, bool)}
 for framework, mask in (("PyTorch", pt_mask), ("Gluon, float64", mx_mask))}

# %% [markdown]
# Both masks are element-wise and new at every time step (almost every unit of every sample
# is kept at some steps and dropped at others): plain inverted dropout on layer 1's output,
# not the "variational" dropout that keeps one mask along the sequence. A one-layer LSTM has
# no layer to drop between, so its `dropout` does nothing — PyTorch says so, Gluon does not.
#
# ## 2. PyTorch: a new mask at every call, reproduced by the seed
#
# Two calls in `train()` mode draw two masks; `torch.manual_seed` before a call makes the
# same mask again.

# %%
pt_lstm = pt_probe(P)
pt_first, pt_second = pt_run(pt_lstm), pt_run(pt_lstm)
torch.manual_seed(SEED + 1)
pt_seeded = pt_run(pt_lstm)
torch.manual_seed(SEED + 1)
pt_reseeded = pt_run(pt_lstm)
pt_masks = [read_mask(out, pt_y1) for out in (pt_first, pt_second)]
changed = np.nanmean(np.abs(pt_masks[0] - pt_masks[1]) > 0.5)
assert not np.allclose(pt_first, pt_second, rtol=0, atol=1e-3)
assert abs(changed - 2 * P * (1 - P)) < 0.05, changed   # each element redrawn: 2p(1-p) differ
np.testing.assert_allclose(pt_seeded, pt_reseeded, rtol=0, atol=1e-12)
"PyTorch: each call draws a new mask; torch.manual_seed(s) before a call repeats it"

# %% [markdown]
# ## 3. Gluon's default CPU path: no dropout at all
#
# Now the usual case: float32 on the CPU. Two calls under `autograd.train_mode()`, a call after
# `mx.random.seed` with another seed, a freshly made layer with the same weights, and the
# same layer built with `dropout=0`:

# %%
mx_x32 = nd.array(probe_x)                      # float32: MXNet's oneDNN RNN
mx_y1_32 = mx_run(mx_probe(0, layers=1), x=mx_x32)
mx_lstm = mx_probe(P)
default_path = {"call 1": mx_run(mx_lstm, x=mx_x32), "call 2": mx_run(mx_lstm, x=mx_x32)}
mx.random.seed(SEED + 1)
default_path["after mx.random.seed(1)"] = mx_run(mx_lstm, x=mx_x32)
default_path["a fresh layer"] = mx_run(mx_probe(P), x=mx_x32)
default_path["p=0.5"] = mx_run(mx_probe(0.5), x=mx_x32)
mx_recorded = mx_probe(P)
with autograd.record():
    default_path["inside autograd.record()"] = mx_recorded(mx_x32).asnumpy()
no_dropout = mx_run(mx_probe(0), x=mx_x32)
mask32 = read_mask(default_path["call 1"], mx_y1_32)
known32 = mask32[~np.isnan(mask32)]

same_as_no_dropout = {name: bool(np.allclose(out, no_dropout, rtol=0, atol=1e-6))
                      for name, out in default_path.items()}
assert all(same_as_no_dropout.values()), same_as_no_dropout
assert np.abs(known32 - 1).max() < 1e-3          # nothing dropped, nothing scaled by 4/3
same_as_no_dropout

# %% [markdown]
# Every call gives the same output — so in a sense "the same mask every time" — but the mask
# is all ones: the read-back shows every element passed unchanged, not scaled by `4/3`, and
# the output equals the `dropout=0` layer's. The gradients say the same, and so do the GRU
# and the two-layer vanilla RNN. MXNet's random generator is not the culprit: `nd.Dropout`
# on its own draws a fresh mask at every call and repeats it after `mx.random.seed`.

# %%
def mx_grads(mx_lstm, x, head):
    """d(sum(head · output)) / d(parameters and input), recorded in training mode."""
    x = x.copy()
    x.attach_grad()
    with autograd.record():
        out = mx_lstm(x)
    out.backward(head)
    return [x.grad.asnumpy()] + [p.grad().asnumpy() for p in mx_lstm.collect_params().values()]


head32 = nd.array(np.random.default_rng(1).standard_normal((T, N, H)))
grads_p, grads_0 = mx_grads(mx_probe(P), mx_x32, head32), mx_grads(mx_probe(0), mx_x32, head32)


def other_kinds(p):
    """Two-layer GRU and vanilla RNN outputs, from the same initial weights for every p."""
    mx.random.seed(SEED)
    mx_nets = [kind(H, num_layers=2, dropout=p, input_size=C)
               for kind in (gluon.rnn.GRU, gluon.rnn.RNN)]
    for mx_net in mx_nets:
        mx_net.initialize(mx.init.Uniform(0.3), ctx=mx.cpu())
    return [mx_run(mx_net, x=mx_x32) for mx_net in mx_nets]


kinds_p, kinds_0 = other_kinds(0.5), other_kinds(0)
ones = nd.ones((T, N, H))
with autograd.train_mode():
    drops = [nd.Dropout(ones, p=P).asnumpy() for _ in range(2)]
    mx.random.seed(SEED + 2)
    seeded = nd.Dropout(ones, p=P).asnumpy()
    mx.random.seed(SEED + 2)
    reseeded = nd.Dropout(ones, p=P).asnumpy()
for with_p, without in zip(grads_p + kinds_p, grads_0 + kinds_0):
    np.testing.assert_allclose(with_p, without, rtol=0, atol=1e-6)
assert not np.array_equal(drops[0], drops[1])
assert np.array_equal(seeded, reseeded)
np.testing.assert_allclose(np.unique(drops[0]), [0, 1 / (1 - P)], rtol=1e-6)
assert abs((drops[0] > 0).mean() - (1 - P)) < 0.04
"oneDNN path: gradients, GRU and RNN as with dropout=0; nd.Dropout alone: fresh, seeded masks"

# %% [markdown]
# Why, in MXNet 1.9.1's source: the CPU `RNN` operator takes the oneDNN path when the data
# is float32, there is no `projection_size` and the environment variable
# `MXNET_USE_MKLDNN_RNN` is not 0 (`SupportMKLDNNRnn` in
# `src/operator/nn/mkldnn/mkldnn_rnn-inl.h`, used by `CreateRNNState` in
# `src/operator/rnn.cc`). The oneDNN operator, `MKLDNNRnnOp` in
# `src/operator/nn/mkldnn/mkldnn_rnn.cc`, never reads the rate `p`: oneDNN's RNN primitive has
# no dropout (its maintainers said so in oneDNN issue 807,
# <https://github.com/uxlfoundation/oneDNN/issues/807>), and MXNet adds none between the
# layers. MXNet's own kernel, `RNNOp` in `src/operator/rnn-inl.h`, draws the mask in
# `LstmForwardTraining` (`src/operator/rnn_impl.h`): one uniform number per element from the
# operator's random resource, which `mx.random.seed` seeds. Nothing warns. On a GPU, Gluon's
# fused layers run cuDNN with a dropout descriptor (`rnn-inl.h`; not measured here).
#
# ## 4. `MXNET_USE_MKLDNN_RNN=0`: MXNet's own kernel drops, in float32 too
#
# The variable is set before `import mxnet`, so the probe runs again in a fresh Python process,
# in float32:

# %%
PROBE = """
import json, sys
import mxnet as mx, numpy as np
from mxnet import autograd, gluon
job = json.load(sys.stdin)
x = mx.nd.array(job["x"])                                        # float32
def lstm(p, layers):
    net = gluon.rnn.LSTM(job["hidden"], num_layers=layers, dropout=p, input_size=x.shape[2])
    net.initialize()
    for key, param in net.collect_params().items():
        param.set_data(mx.nd.array(job["weights"][str(layers)][key[len(net.prefix):]]))
    return net
def train_call(net):
    with autograd.train_mode():
        return net(x).asnumpy().tolist()
net = lstm(job["p"], 2)
out = {"oneDNN feature": mx.runtime.Features().is_enabled("MKLDNN"),
       "layer 1": lstm(0, 1)(x).asnumpy().tolist(),
       "p=0": train_call(lstm(0, 2)), "call 1": train_call(net), "call 2": train_call(net)}
mx.random.seed(7)
out["after seed 7"] = train_call(net)
mx.random.seed(7)
out["after seed 7 again"] = train_call(net)
print(json.dumps(out))
"""


def run_mxnet(script, job, **env):
    """Run `script` in a fresh Python with `env` added to the environment; its JSON answer."""
    done = subprocess.run([sys.executable, "-c", script], input=json.dumps(job), text=True,
                          capture_output=True, env={**os.environ, **env}, timeout=300)
    assert done.returncode == 0, done.stderr[-1500:]
    return json.loads(done.stdout)


probe_job = {"x": probe_x.tolist(), "hidden": H, "p": P,
             "weights": {str(n): {k: v.tolist() for k, v in w.items()}
                         for n, w in probe_weights.items()}}
own_kernel = {k: v if k == "oneDNN feature" else np.array(v)
              for k, v in run_mxnet(PROBE, probe_job, MXNET_USE_MKLDNN_RNN="0").items()}
own_masks = [read_mask(own_kernel[k], own_kernel["layer 1"]) for k in ("call 1", "call 2")]
own_kernel_facts = {
    "oneDNN still in the build": own_kernel["oneDNN feature"],
    "differs from p=0": not np.allclose(own_kernel["call 1"], own_kernel["p=0"], atol=1e-3),
    "call 2 differs from call 1": not np.allclose(own_kernel["call 1"], own_kernel["call 2"],
                                                  atol=1e-3),
    "mx.random.seed repeats the mask": bool(np.allclose(
        own_kernel["after seed 7"], own_kernel["after seed 7 again"], rtol=0, atol=1e-6)),
    **{k: v for k, v in mask_facts(own_masks[0], P).items() if isinstance(v, bool)}}
assert all(own_kernel_facts.values()), own_kernel_facts
assert abs(mask_facts(own_masks[0], P)["kept fraction"] - (1 - P)) < 0.04
own_kernel_facts

# %% [markdown]
# The build flag `mx.runtime.Features().is_enabled('MKLDNN')` stays on: it says what was
# compiled in, not which kernel an operator picks. Only the RNN operator reads the variable
# (`rnn.cc`, `mkldnn_rnn-inl.h`): every other operator keeps its oneDNN kernel.
#
# ## 5. What it means for training
#
# A small regression — a two-layer LSTM (16 units) and a dense head read a running mean off
# a sequence of 12 steps — trained for 40 steps of SGD from one set of starting weights, in
# two fresh MXNet processes: the default one and one with `MXNET_USE_MKLDNN_RNN=0`. Each trains
# with `dropout=0.5` and with `dropout=0` in float32, and once in float64 (MXNet's own kernel
# in both processes); PyTorch trains the same network here.
#
# MXNet's own kernel has a second trap, found on the way: with two or more layers, its
# backward sends a gradient into the layers below the top one only when the input data itself
# needs a gradient. `LstmBackward` (`src/operator/rnn_impl.h`) hands the input's request,
# `req_data`, to every layer, and `LstmBackwardSingleLayer` computes a layer's `dx` — for
# every layer but the first, the `dy` of the layer below — only when that request is not
# `kNullOp`. Fed raw data, as here, layer 1's gradient is wrong (zeros, or what was left in the
# workspace). The script measures that first (the gradient of layer 1's input weights from one
# backward, with and without `attach_grad()` on the input, against PyTorch's), then trains
# with `attach_grad()`. By the same condition, an LSTM that reads an embedding's output,
# which needs a gradient, is not affected.

# %%
TC, TH, LR, STEPS = 3, 16, 0.5, 40
train_rng = np.random.default_rng(SEED + 5)
train_x = train_rng.standard_normal((12, 32, TC))
train_y = np.cumsum(train_x[..., :1], axis=0) / np.arange(1, 13)[:, None, None]
bound = 1 / np.sqrt(TH)                        # PyTorch's default initialisation range
start = {f"l{layer}_{kind}": train_rng.uniform(-bound, bound, shape)
         for layer, width in ((0, TC), (1, TH))
         for kind, shape in (("i2h_weight", (4 * TH, width)), ("h2h_weight", (4 * TH, TH)),
                             ("i2h_bias", (4 * TH,)), ("h2h_bias", (4 * TH,)))}
start_head = {"weight": train_rng.uniform(-bound, bound, (1, TH)),
              "bias": train_rng.uniform(-bound, bound, (1,))}

TRAIN = """
import json, sys
import mxnet as mx, numpy as np
from mxnet import autograd, gluon
job = json.load(sys.stdin)
def model(p, dtype):
    lstm = gluon.rnn.LSTM(job["hidden"], num_layers=2, dropout=p, input_size=job["inputs"])
    head = gluon.nn.Dense(1, flatten=False, in_units=job["hidden"])
    net = gluon.nn.Sequential()
    net.add(lstm, head)
    net.initialize()
    net.cast(dtype)
    for key, param in lstm.collect_params().items():
        param.set_data(mx.nd.array(job["lstm"][key[len(lstm.prefix):]], dtype=dtype))
    for name in ("weight", "bias"):
        getattr(head, name).set_data(mx.nd.array(job["head"][name], dtype=dtype))
    return net, lstm
def data(dtype, input_grad):
    x, y = (mx.nd.array(job[k], dtype=dtype) for k in ("x", "y"))
    if input_grad:
        x.attach_grad()
    return x, y
out = {"layer-1 gradient": {}, "losses": {}}
for input_grad in (False, True):
    net, lstm = model(0.0, "float32")
    x, y = data("float32", input_grad)
    with autograd.record():
        loss = ((net(x) - y) ** 2).mean()
    loss.backward()
    grad = lstm.collect_params()[lstm.prefix + "l0_i2h_weight"].grad()
    out["layer-1 gradient"][str(input_grad)] = grad.asnumpy().astype(float).tolist()
for name, (p, dtype) in job["runs"].items():
    mx.random.seed(job["seed"])
    net, _ = model(p, dtype)
    x, y = data(dtype, True)
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": job["lr"]})
    losses = []
    for _ in range(job["steps"]):
        with autograd.record():
            loss = ((net(x) - y) ** 2).mean()
        loss.backward()
        trainer.step(1)
        losses.append(float(loss.asscalar()))
    out["losses"][name] = losses
print(json.dumps(out))
"""
train_job = {"x": train_x.tolist(), "y": train_y.tolist(), "inputs": TC, "hidden": TH,
             "lr": LR, "steps": STEPS, "seed": SEED,
             "lstm": {k: v.tolist() for k, v in start.items()},
             "head": {k: v.tolist() for k, v in start_head.items()},
             "runs": {"p=0.5": [0.5, "float32"], "p=0": [0.0, "float32"],
                      "p=0, float64": [0.0, "float64"]}}
mx_train = {"default": run_mxnet(TRAIN, train_job),
            "MXNET_USE_MKLDNN_RNN=0": run_mxnet(TRAIN, train_job, MXNET_USE_MKLDNN_RNN="0")}
mx_losses = {(path, run): np.array(losses) for path, answer in mx_train.items()
             for run, losses in answer["losses"].items()}


# %% [markdown]
# **PyTorch**: the same network, data, starting weights and SGD.

# %%
def pt_train(p, dtype):
    torch.manual_seed(SEED)
    pt_lstm = load_torch(torch.nn.LSTM(TC, TH, num_layers=2, dropout=p).to(dtype), start)
    pt_head = torch.nn.Linear(TH, 1).to(dtype)
    with torch.no_grad():
        for name, value in start_head.items():
            getattr(pt_head, name).copy_(torch.from_numpy(value))
    params = [*pt_lstm.parameters(), *pt_head.parameters()]
    pt_opt = torch.optim.SGD(params, lr=LR)
    x, y = (torch.from_numpy(a).to(dtype) for a in (train_x, train_y))
    losses, first_grad = [], None
    for _ in range(STEPS):
        pt_opt.zero_grad()
        loss = ((pt_head(pt_lstm(x)[0]) - y) ** 2).mean()
        loss.backward()
        if first_grad is None:
            first_grad = pt_lstm.weight_ih_l0.grad.double().numpy().copy()
        pt_opt.step()
        losses.append(loss.item())
    return np.array(losses), first_grad


pt_losses = {}
pt_losses["p=0"], pt_first_grad = pt_train(0.0, torch.float32)
pt_losses["p=0, float64"], _ = pt_train(0.0, torch.float64)
pt_losses["p=0.5"], _ = pt_train(0.5, torch.float32)


def gap(a, b):
    """The largest difference between two loss curves over the largest loss."""
    return float(np.abs(a - b).max() / np.abs(b).max())


def grad_gap(path, input_grad):
    return gap(np.array(mx_train[path]["layer-1 gradient"][str(input_grad)]), pt_first_grad)


own, default = "MXNET_USE_MKLDNN_RNN=0", "default"
training = {
    "default, p=0.5 vs p=0": gap(mx_losses[default, "p=0.5"], mx_losses[default, "p=0"]),
    "own kernel, p=0.5 vs p=0": gap(mx_losses[own, "p=0.5"], mx_losses[own, "p=0"]),
    "own kernel vs default, p=0": gap(mx_losses[own, "p=0"], mx_losses[default, "p=0"]),
    "PyTorch p=0 vs MXNet default p=0.5": gap(pt_losses["p=0"], mx_losses[default, "p=0.5"]),
    "PyTorch p=0.5 vs MXNet default p=0.5": gap(pt_losses["p=0.5"],
                                                mx_losses[default, "p=0.5"]),
    "float64, PyTorch vs MXNet, p=0": gap(pt_losses["p=0, float64"],
                                          mx_losses[default, "p=0, float64"]),
    "float32 drift, PyTorch": gap(pt_losses["p=0"], pt_losses["p=0, float64"]),
    "float32 drift, MXNet default": gap(mx_losses[default, "p=0"],
                                        mx_losses[default, "p=0, float64"]),
    "float32 drift, MXNet own kernel": gap(mx_losses[own, "p=0"], mx_losses[own, "p=0, float64"]),
    "layer-1 gradient, own kernel, raw input": grad_gap(own, False),
    "layer-1 gradient, own kernel, input.attach_grad()": grad_gap(own, True),
    "layer-1 gradient, default path, raw input": grad_gap(default, False)}

# %% tags=["nbval-ignore-output"]
{key: f"{value:.1e}" for key, value in training.items()}

# %%
drift = {k.split(", ")[1]: v for k, v in training.items() if k.startswith("float32 drift")}
assert training["default, p=0.5 vs p=0"] < 1e-6                 # dropout=0.5 trains as 0
assert training["own kernel, p=0.5 vs p=0"] > 1e-2               # the own kernel drops
assert training["own kernel vs default, p=0"] <= drift["MXNet own kernel"] + drift[
    "MXNet default"] + 1e-12                                     # rounding, not a new model
assert training["float64, PyTorch vs MXNet, p=0"] < 1e-12
assert training["PyTorch p=0 vs MXNet default p=0.5"] <= drift["PyTorch"] + drift[
    "MXNet default"] + 1e-12
assert training["PyTorch p=0.5 vs MXNet default p=0.5"] > 1e-2
assert training["layer-1 gradient, own kernel, raw input"] > 0.5                   # wrong
assert training["layer-1 gradient, own kernel, input.attach_grad()"] < 1e-5
assert training["layer-1 gradient, default path, raw input"] < 1e-5
("default CPU path: dropout=0.5 trains as dropout=0, as PyTorch's dropout=0 does; "
 "MXNET_USE_MKLDNN_RNN=0 drops, and needs an input that requires a gradient")

# %% [markdown]
# So a two-layer Gluon LSTM trained on a CPU with MXNet's default settings was trained
# **without** its inter-layer dropout, whatever its `dropout=` says: it is not a thinned
# network with a frozen mask, it is the whole network. PyTorch with `dropout=0` follows that
# run to float32 rounding (the gap is no larger than the two frameworks' own float32-against-
# float64 drifts together; in float64 the runs agree to 1e-12). PyTorch with the written
# `dropout=0.5` trains a different model. With `MXNET_USE_MKLDNN_RNN=0` MXNet drops, but its
# draws come from its own generator and do not reproduce in PyTorch.
#
# ## 6. One mask for both: one-layer LSTMs with a dropout layer between
#
# A fused two-layer LSTM equals two one-layer LSTMs with layer 1's output going into layer 2
# (checked below, to 1e-12); its inter-layer dropout is a `Dropout` layer between them.
# Written that way, the dropout is an ordinary layer: Gluon's `nn.Dropout` drops on the default
# CPU path too, and `sidebyside.samerandom` can give both frameworks the same masks, so a
# lockstep keeps its dropout. The same training as §5, `p = 0.5`, in float64:

# %% tags=["pytorch"]
class PtStack(torch.nn.Module):
    """A two-layer LSTM written as two one-layer LSTMs with nn.Dropout between them."""

    def __init__(self, p):
        super().__init__()
        self.lstm1, self.lstm2 = torch.nn.LSTM(TC, TH), torch.nn.LSTM(TH, TH)
        self.drop, self.head = torch.nn.Dropout(p), torch.nn.Linear(TH, 1)

    def forward(self, x):
        return self.head(self.lstm2(self.drop(self.lstm1(x)[0]))[0])


def layer_weights(layer):
    """Layer `layer` of `start`, renamed as the only layer of a one-layer LSTM."""
    return {k.replace(f"l{layer}_", "l0_"): v for k, v in start.items()
            if k.startswith(f"l{layer}_")}


def pt_stack(p):
    pt_net = PtStack(p).double()
    load_torch(pt_net.lstm1, layer_weights(0))
    load_torch(pt_net.lstm2, layer_weights(1))
    with torch.no_grad():
        for name, value in start_head.items():
            getattr(pt_net.head, name).copy_(torch.from_numpy(value))
    return pt_net


# %% tags=["gluon"]
class MxStack(gluon.Block):
    """The same in Gluon: rnn.LSTM, nn.Dropout, rnn.LSTM, Dense."""

    def __init__(self, p, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.lstm1 = gluon.rnn.LSTM(TH, input_size=TC)
            self.lstm2 = gluon.rnn.LSTM(TH, input_size=TH)
            self.drop = gluon.nn.Dropout(p)
            self.head = gluon.nn.Dense(1, flatten=False, in_units=TH)

    def forward(self, x):
        return self.head(self.lstm2(self.drop(self.lstm1(x))))


def mx_stack(p, dtype):
    mx_net = MxStack(p)
    mx_net.initialize(ctx=mx.cpu())
    mx_net.cast(dtype)
    load_gluon(mx_net.lstm1, layer_weights(0), dtype)
    load_gluon(mx_net.lstm2, layer_weights(1), dtype)
    for name, value in start_head.items():
        getattr(mx_net.head, name).set_data(nd.array(value, dtype=dtype))
    return mx_net


# %%
draws = samerandom.Draws(seed=SEED)
pt_net, mx_net = pt_stack(0.5), mx_stack(0.5, "float64")
replaced = {"PyTorch": samerandom.use_same_dropout(pt_net, draws.stream("PyTorch")),
            "Gluon": samerandom.use_same_dropout(mx_net, draws.stream("Gluon"))}
pt_opt = torch.optim.SGD(pt_net.parameters(), lr=LR)
mx_trainer = gluon.Trainer(mx_net.collect_params(), "sgd", {"learning_rate": LR})
pt_xy = [torch.from_numpy(a) for a in (train_x, train_y)]
mx_xy = [nd.array(a, dtype="float64") for a in (train_x, train_y)]
stack_losses = {"PyTorch": [], "Gluon": []}
for _ in range(STEPS):
    pt_opt.zero_grad()
    pt_loss = ((pt_net(pt_xy[0]) - pt_xy[1]) ** 2).mean()
    pt_loss.backward()
    pt_opt.step()
    with autograd.record():
        mx_loss = ((mx_net(mx_xy[0]) - mx_xy[1]) ** 2).mean()
    mx_loss.backward()
    mx_trainer.step(1)
    stack_losses["PyTorch"].append(pt_loss.item())
    stack_losses["Gluon"].append(float(mx_loss.asscalar()))
stack_losses = {k: np.array(v) for k, v in stack_losses.items()}

plain = mx_stack(0.5, "float32")                 # Gluon's own nn.Dropout, default CPU path
with autograd.train_mode():
    plain_calls = [plain(nd.array(train_x)).asnumpy() for _ in range(2)]

pt_fused = load_torch(torch.nn.LSTM(TC, TH, num_layers=2).double(), start)
pt_whole = pt_stack(0.0).head(pt_fused(pt_xy[0])[0])            # fused LSTM, the stack's head
with torch.no_grad():
    unfused = {"PyTorch": pt_stack(0.0)(pt_xy[0]).numpy(),
               "Gluon": mx_stack(0.0, "float64")(mx_xy[0]).asnumpy()}
for out in unfused.values():
    np.testing.assert_allclose(out, pt_whole.detach().numpy(), rtol=0, atol=1e-12)
assert replaced == {"PyTorch": ["drop"], "Gluon": ["drop"]}
assert gap(stack_losses["Gluon"], stack_losses["PyTorch"]) < 1e-12
assert gap(stack_losses["PyTorch"], pt_losses["p=0, float64"]) > 1e-2     # it drops
assert not np.allclose(plain_calls[0], plain_calls[1], atol=1e-3)
"one-layer LSTMs + Dropout: the same masks in both frameworks, the same losses to 1e-12"

# %% [markdown]
# ## What this means for a port
#
# - `dropout=` of a fused LSTM (GRU, RNN) acts between layers, in training only, in both
#   frameworks: one element-wise mask per layer output, new at every step and every call.
#   With one layer it does nothing (PyTorch warns, Gluon does not).
# - On the CPU in float32, MXNet 1.9.1's default oneDNN RNN **ignores** the rate: forward and
#   backward are those of `dropout=0`, with no warning. A legacy model trained that way was
#   trained without inter-layer dropout. A port that wants to reproduce its training uses
#   `dropout=0` in PyTorch; one that keeps the written rate trains a different model —
#   perhaps a better one, but a change to record, not a port artefact.
# - A model trained with `MXNET_USE_MKLDNN_RNN=0` did drop (on a GPU, cuDNN's kernel should
#   have, by its source; not measured here). PyTorch's masks come from another generator, so
#   that training noise cannot be reproduced — only its statistics. Under
#   `MXNET_USE_MKLDNN_RNN=0`, a stack of two or more layers needs an input that requires a
#   gradient (an embedding's output does; raw data does not, §5).
# - To keep dropout *and* compare step for step, write the fused layer as one-layer LSTMs
#   with a `Dropout` between them (§6) and give both sides `samerandom` masks; or compare with
#   `dropout=0`.
