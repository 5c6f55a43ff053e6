# %% [markdown]
# # 8 · Optimizers and the `Trainer`: the same steps on the same gradients
#
# **What you will learn**
#
# - how `torch.optim` maps onto `gluon.Trainer(params, name, {...})`, optimizer by optimizer
#   (SGD, Nesterov, Adam and AdamW, RMSProp, Adagrad, Adadelta), each pair *run* and compared
#   step by step: renamed arguments, defaults that differ (SGD's rate ten times), where each
#   puts its `epsilon`; and `"torchadam"`, `"torchadamw"`, `"torchadadelta"`, Gluon
#   optimizers (`sidebyside.optim`) that take PyTorch's steps;
# - what `trainer.step(n)` does for per-sample, mean and summed losses, read from its source
#   and checked; its split form `allreduce_grads()` + `update()` and `update_on_kvstore`;
# - learning-rate schedules (and the momentum buffer that makes a rate change behave
#   differently), gradient clipping (whose epsilons differ) and optimizer state.
#
# Everything runs on one small least-squares problem, in float64 where MXNet allows it, so
# that "the same steps" can be checked to rounding level. Two deep dives go further: the
# replays of MXNet's kernels and the schedules, in [Optimizer rules, step by
# step](deep_dives/optim_rules.ipynb), and a VAE trained with both Adams, in [Adam on a
# VAE](deep_dives/optim_adam_vae.ipynb). Multi-device and distributed training are
# [notebook 9](09_distributed.ipynb).
#
# **Prerequisites**: [notebook 3](03_mnist_mlp.ipynb) (the Trainer in a training loop) and
# [notebook 5](05_autograd.ipynb) (gradients). **Time**: about 35 minutes.

# %% tags=["nbval-ignore-output"]
import inspect
import math
import os
import tempfile

import mxnet as mx
import numpy as np
import torch
from mxnet import autograd, gluon

from sidebyside import compare, devices, errors, optim, seeding  # optim: the "torch…" optimizers
from sidebyside.optim import f32    # a value rounded to float32, as MXNet's update kernels take it

SEED = seeding.seed_everything(0)
devs = devices.pick()
pt_dev, mx_ctx = devs.torch.device, devs.mxnet.device

# %% [markdown]
# ## 1. One problem, two optimizers
#
# A linear model without bias, `y = X wᵀ`, and the summed squared error `½ Σ (X wᵀ − y)²`,
# on 16 fixed samples of 5 features. Each framework computes the gradient with its own
# autograd, from the same starting weights, and takes 20 steps on the CPU; the helpers
# return the weights after every step, so two trajectories can be compared.
#
# **PyTorch**

# %% tags=["pytorch"]
rng = np.random.default_rng(0)
X = rng.standard_normal((16, 5))
Y = rng.standard_normal((16, 1))
W0 = 0.5 * rng.standard_normal((1, 5))
STEPS = 20


def torch_steps(make_optimizer, dtype=torch.float64, before_step=None):
    """Weights after each of STEPS steps of `make_optimizer(params)`."""
    model = torch.nn.Linear(5, 1, bias=False).to(dtype)
    with torch.no_grad():
        model.weight.copy_(torch.from_numpy(W0))
    optimizer = make_optimizer(model.parameters())
    x, y = torch.from_numpy(X).to(dtype), torch.from_numpy(Y).to(dtype)
    path = []
    for t in range(1, STEPS + 1):
        if before_step:
            before_step(optimizer, t)
        optimizer.zero_grad()
        (0.5 * ((model(x) - y) ** 2).sum()).backward()
        optimizer.step()
        path.append(model.weight.detach().double().numpy().copy())
    return np.array(path)

# %% [markdown]
# **Gluon**

# %% tags=["gluon"]
def gluon_steps(name, options, dtype="float64", before_step=None):
    """Weights after each of STEPS steps of `gluon.Trainer(params, name, options)`."""
    model = gluon.nn.Dense(1, in_units=5, use_bias=False, dtype=dtype)
    model.initialize()
    model.weight.set_data(mx.nd.array(W0, dtype=dtype))
    trainer = gluon.Trainer(model.collect_params(), name, options)
    x, y = mx.nd.array(X, dtype=dtype), mx.nd.array(Y, dtype=dtype)
    path = []
    for t in range(1, STEPS + 1):
        if before_step:
            before_step(trainer, t)
        with autograd.record():
            loss = 0.5 * ((model(x) - y) ** 2).sum()
        loss.backward()
        trainer.step(1)                 # the loss is already the quantity to minimise
        path.append(model.weight.data().asnumpy().astype(np.float64).copy())
    return np.array(path)


def gap(a, b):
    """The largest weight difference over the whole trajectory."""
    return float(np.abs(a - b).max())

# %% [markdown]
# **Check**: plain gradient descent, the same in both, to rounding level (the learning rate
# 0.125 is a float32 number, so its rounding — next section — plays no part):

# %%
plain = {"torch": torch_steps(lambda p: torch.optim.SGD(p, lr=0.125 / 16)),
         "gluon": gluon_steps("sgd", {"learning_rate": 0.125 / 16})}
assert gap(plain["torch"], plain["gluon"]) <= 1e-14
assert np.abs(plain["torch"][-1] - W0).max() > 0.1      # and the weights did move
"20 plain SGD steps: equal to 1e-14"

# %% [markdown]
# ## 2. SGD with momentum and weight decay
#
# | PyTorch `torch.optim.SGD(...)` | Gluon `Trainer(..., "sgd", {...})` |
# |---|---|
# | `lr=1e-3` | `learning_rate=0.01` |
# | `momentum=0` | `momentum=0` |
# | `weight_decay=0` — adds `wd·w` to the gradient | `wd=0` — the same L2 term |
# | `dampening=0` | — |
# | `nesterov=False` | a separate optimizer, `"nag"` (§3) |
# | — | `rescale_grad` (set by `step(n)`), `clip_gradient` (element-wise), `lr_scheduler` |
#
# **PyTorch**

# %% tags=["pytorch"]
LR, MOMENTUM, WD = 0.01, 0.9, 1e-4
pt_sgd = torch_steps(lambda p: torch.optim.SGD(p, lr=LR, momentum=MOMENTUM, weight_decay=WD))

# %% [markdown]
# **Gluon**

# %% tags=["gluon"]
mx_sgd = gluon_steps("sgd", {"learning_rate": LR, "momentum": MOMENTUM, "wd": WD})

# %% [markdown]
# **Check**: the same steps — up to the float32 rounding of the hyper-parameters that
# [notebook 3](03_mnist_mlp.ipynb) found in MXNet's optimizer kernels. PyTorch given the
# same rounded `lr`, `momentum` and `weight_decay` agrees to the last bit or two:

# %% tags=["nbval-ignore-output"]
pt_sgd_rounded = torch_steps(lambda p: torch.optim.SGD(
    p, lr=f32(LR), momentum=f32(MOMENTUM), weight_decay=f32(WD)))
{"max |Δw|, PyTorch as written": gap(pt_sgd, mx_sgd),
 "max |Δw|, PyTorch with float32 hyper-parameters": gap(pt_sgd_rounded, mx_sgd)}

# %%
assert 1e-10 < gap(pt_sgd, mx_sgd) <= 1e-6
assert gap(pt_sgd_rounded, mx_sgd) <= 1e-14
"SGD + momentum + weight decay: the same update rule"

# %% [markdown]
# **The defaults differ — the learning rate by ten times.** `torch.optim.SGD`'s `lr` is not
# required: left out, it is 1e-3, ten times below the 0.01 of `Trainer(params, "sgd")`
# without a `learning_rate`. RMSProp goes the other way: PyTorch 0.01, MXNet 0.001. PyTorch's
# defaults are read from the signatures, MXNet's from the optimizers it creates (with those
# of the tables in §4 and §5); then one step each, with no rate given:

# %%
pt_optimizers = (torch.optim.SGD, torch.optim.Adam, torch.optim.AdamW, torch.optim.RMSprop,
                 torch.optim.Adagrad, torch.optim.Adadelta)
pt_defaults = {cls.__name__: {name: p.default for name, p in
                              inspect.signature(cls).parameters.items()}
               for cls in pt_optimizers}
mx_defaults = {name: vars(mx.optimizer.create(name))
               for name in ("sgd", "nag", "adam", "rmsprop", "adagrad", "adadelta")}
assert {name: d["lr"] for name, d in pt_defaults.items()} == {
    "SGD": 0.001, "Adam": 0.001, "AdamW": 0.001, "RMSprop": 0.01, "Adagrad": 0.01,
    "Adadelta": 1.0}
assert {name: d["lr"] for name, d in mx_defaults.items()} == {
    "sgd": 0.01, "nag": 0.01, "adam": 0.001, "rmsprop": 0.001, "adagrad": 0.01,
    "adadelta": 0.01}
mx_weight = gluon.Parameter("w", shape=(1,))
mx_weight.initialize()
assert gluon.Trainer([mx_weight], "sgd").learning_rate == 0.01    # what a Trainer applies
assert (pt_defaults["Adam"]["betas"], pt_defaults["Adam"]["eps"]) == ((0.9, 0.999), 1e-8)
assert (mx_defaults["adam"]["beta1"], mx_defaults["adam"]["beta2"],
        mx_defaults["adam"]["epsilon"]) == (0.9, 0.999, 1e-8)
assert pt_defaults["AdamW"]["weight_decay"] == 0.01 and mx_defaults["adam"]["wd"] == 0.0
assert (pt_defaults["RMSprop"]["alpha"], pt_defaults["RMSprop"]["eps"]) == (0.99, 1e-8)
assert (mx_defaults["rmsprop"]["gamma1"], mx_defaults["rmsprop"]["epsilon"]) == (0.9, 1e-8)
assert (pt_defaults["Adagrad"]["eps"], mx_defaults["adagrad"]["float_stable_eps"]) == (1e-10, 1e-7)
assert (pt_defaults["Adadelta"]["eps"], mx_defaults["adadelta"]["epsilon"]) == (1e-6, 1e-5)
assert pt_defaults["Adadelta"]["rho"] == mx_defaults["adadelta"]["rho"] == 0.9
first_steps = {"PyTorch SGD(params)": torch_steps(lambda p: torch.optim.SGD(p))[0] - W0,
               "Gluon Trainer(params, 'sgd')": gluon_steps("sgd", {})[0] - W0}
ratio = (np.abs(first_steps["Gluon Trainer(params, 'sgd')"]).sum()
         / np.abs(first_steps["PyTorch SGD(params)"]).sum())
assert abs(ratio - 10) < 1e-5                   # the same gradient, rates 0.01 and 0.001
{"PyTorch lr": {name: d["lr"] for name, d in pt_defaults.items()},
 "MXNet learning_rate": {name: d["lr"] for name, d in mx_defaults.items()},
 "first step without a rate": "Gluon's is 10 times PyTorch's"}

# %% [markdown]
# ## 3. Nesterov: `nesterov=True` and `"nag"`
#
# **PyTorch**

# %% tags=["pytorch"]
def pt_nesterov(wd):
    return torch_steps(lambda p: torch.optim.SGD(
        p, lr=f32(LR), momentum=f32(MOMENTUM), weight_decay=f32(wd), nesterov=True))

# %% [markdown]
# **Gluon**

# %% tags=["gluon"]
def mx_nag(wd):
    return gluon_steps("nag", {"learning_rate": LR, "momentum": MOMENTUM, "wd": wd})

# %% tags=["nbval-ignore-output"]
{"no weight decay": gap(pt_nesterov(0.0), mx_nag(0.0)),
 "weight decay 1e-4": gap(pt_nesterov(WD), mx_nag(WD))}

# %% [markdown]
# Without weight decay the two agree to rounding; with it, they drift apart from the second
# step: MXNet's `nag_mom_update` kernel
# ([`optimizer_op-inl.h`](https://github.com/apache/mxnet/blob/1.9.1/src/operator/optimizer_op-inl.h),
# `NAGMomKernel`) writes the new weight first and then updates the momentum with
# `wd · weight`, the weight it has just overwritten (`out=weight`). The deep dive
# [Optimizer rules, step by step](deep_dives/optim_rules.ipynb) §1 replays the kernel.

# %%
pt_nesterov_wd, mx_nag_wd = pt_nesterov(WD), mx_nag(WD)
assert gap(pt_nesterov(0.0), mx_nag(0.0)) <= 1e-14
assert gap(pt_nesterov_wd[:1], mx_nag_wd[:1]) <= 1e-14 < gap(pt_nesterov_wd[:2], mx_nag_wd[:2])
assert gap(pt_nesterov_wd, mx_nag_wd) > 1e-9
"nesterov=True is \"nag\" without weight decay; with it, MXNet decays the updated weight"

# %% [markdown]
# ## 4. Adam, and where its `epsilon` goes
#
# Same names, same defaults (`lr=1e-3`, `betas=(0.9, 0.999)` against `beta1=0.9,
# beta2=0.999`, `eps=1e-8` against `epsilon=1e-8`: checked in §2).
#
# **PyTorch**

# %% tags=["pytorch"]
pt_adam = torch_steps(lambda p: torch.optim.Adam(p, lr=LR))

# %% [markdown]
# **Gluon**

# %% tags=["gluon"]
mx_adam = gluon_steps("adam", {"learning_rate": LR})

# %% tags=["nbval-ignore-output"]
largest_step = float(np.abs(np.diff(pt_adam, axis=0)).max())
{"max |Δw| over 20 Adam steps": gap(pt_adam, mx_adam), "largest step": largest_step,
 "ratio": gap(pt_adam, mx_adam) / largest_step}

# %% [markdown]
# On this problem, a difference of about 1e-4 of a step. Two things make it:
#
# - **float32 hyper-parameters again**, and here they matter more: the kernel computes
#   `1 − β₂` from a float32 `β₂`, and `1 − float32(0.999)` is off by 1.3e-5 relative, so
#   `v` is, and the step by half of that;
# - **`epsilon`'s place.** PyTorch divides by `√v̂ + ε`, with `v̂ = v / (1 − β₂ᵗ)` the
#   bias-corrected variance. MXNet folds both bias corrections into the learning rate
#   (`lr · √(1 − β₂ᵗ) / (1 − β₁ᵗ)`, in Python) and divides by `√v + ε` — which is PyTorch's
#   rule with `ε / √(1 − β₂ᵗ)` in place of `ε`: 31.6 ε at the first step.
#
# Each way can be taken in the other framework. `optim.mxnet_adam_settings(opt, t, …)`,
# called before PyTorch's step `t`, sets the rounded betas, that time-varying `eps` and the
# rate MXNet's kernel receives; the Gluon optimizer `"torchadam"` (registered when
# `sidebyside.optim` is imported) takes PyTorch's steps:

# %%
pt_adam_as_mxnet = torch_steps(
    lambda p: torch.optim.Adam(p, lr=LR),
    before_step=lambda opt, t: optim.mxnet_adam_settings(opt, t, learning_rate=LR))
mx_torchadam = gluon_steps("torchadam", {"learning_rate": LR})
assert 1e-9 < gap(pt_adam, mx_adam) <= 1e-5
assert 1e-6 < gap(pt_adam, mx_adam) / largest_step < 1e-3
assert gap(pt_adam_as_mxnet, mx_adam) <= 1e-15
assert gap(mx_torchadam, pt_adam) <= 1e-15
"PyTorch with mxnet_adam_settings takes MXNet's Adam steps; \"torchadam\" takes PyTorch's"

# %% [markdown]
# **AdamW.** PyTorch's `AdamW` decays the weights *outside* the adaptive step
# (`w ← w − lr·λ·w`), its `Adam(weight_decay=λ)` adds `λ·w` to the gradient. MXNet 1.9.1 has
# no `"adamw"` optimizer (GluonNLP shipped one; the operator `nd.contrib.adamw_update`
# exists); Gluon's `adam` with `wd=λ` is PyTorch's `Adam(weight_decay=λ)`, not `AdamW`. The
# Gluon optimizer `"torchadamw"` is `AdamW` (its `wd` defaults to AdamW's 0.01), and
# `optim.gluon_optimizer_for(pt_opt)` reads a PyTorch `Adam`, `AdamW` or `Adadelta` and
# returns the Gluon optimizer's name and options:

# %%
mx_adam_wd = gluon_steps("adam", {"learning_rate": LR, "wd": 0.01})
pt_adamw = torch_steps(lambda p: torch.optim.AdamW(p, lr=LR, weight_decay=0.01))
adam_wd = {
    "torch Adam(weight_decay) vs gluon adam(wd)": gap(torch_steps(
        lambda p: torch.optim.Adam(p, lr=LR),
        before_step=lambda opt, t: optim.mxnet_adam_settings(opt, t, learning_rate=LR,
                                                             wd=0.01)), mx_adam_wd),
    "torch AdamW vs gluon adam(wd)": gap(pt_adamw, mx_adam_wd),
    "torch AdamW vs gluon torchadamw": gap(
        pt_adamw, gluon_steps("torchadamw", {"learning_rate": LR, "wd": 0.01}))}
assert adam_wd["torch Adam(weight_decay) vs gluon adam(wd)"] <= 1e-14
assert adam_wd["torch AdamW vs gluon adam(wd)"] > 1e-4
assert adam_wd["torch AdamW vs gluon torchadamw"] <= 1e-15
assert "adamw" not in mx.optimizer.Optimizer.opt_registry
assert hasattr(mx.nd.contrib, "adamw_update")
pt_adamw_opt = torch.optim.AdamW([torch.zeros(1, requires_grad=True)], lr=LR)
assert optim.gluon_optimizer_for(pt_adamw_opt) == ("torchadamw", {
    "learning_rate": LR, "beta1": 0.9, "beta2": 0.999, "epsilon": 1e-8, "wd": 0.01,
    "amsgrad": False})
{name: "equal" if d <= 1e-14 else "different" for name, d in adam_wd.items()}

# %% [markdown]
# **On a real model the two rules part ways.** A least-squares problem has gradients far
# above `ε`; a network has weights whose gradients are not. PyTorch's VAE example and its
# Gluon port, 200 steps in float64 from the same weights on the same data: with `"torchadam"`
# the port stays with PyTorch to rounding; with `"adam"` its worst layer is more than 0.5 %
# off after one step and more than 10 % after 200. The two `ε`s move the few weights whose
# gradients are near `ε` differently, and the difference spreads through the network — the
# deep dive [Adam on a VAE](deep_dives/optim_adam_vae.ipynb) runs it and shows why. A port of
# `torch.optim.Adam` uses `"torchadam"`.

# %% [markdown]
# ## 5. RMSProp, Adagrad, Adadelta
#
# These three cannot train float64 weights in MXNet 1.9.1: their `create_state` makes the
# state arrays without the weight's dtype, so they are float32, and the first update fails:

# %% tags=["raises-exception"]
gluon_steps("rmsprop", {"learning_rate": LR})

# %%
float64_fails = {name: errors.catch(gluon_steps, name, {"learning_rate": LR}).type
                 for name in ("rmsprop", "adagrad", "adadelta")}
assert float64_fails == dict.fromkeys(("rmsprop", "adagrad", "adadelta"), "MXNetError")
assert all("dtype" not in inspect.getsource(
    mx.optimizer.Optimizer.opt_registry[name].create_state) for name in float64_fails)
float64_fails

# %% [markdown]
# What each pair needs to agree (the defaults are checked in §2; each row is run, in float32,
# in the deep dive [Optimizer rules, step by step](deep_dives/optim_rules.ipynb) §3, with
# MXNet's RMSProp as a PyTorch optimizer; the weight decay of Adadelta and of Adagrad, read
# from MXNet's source and replayed, in its §4 and §5):
#
# | | PyTorch | Gluon | to take the same steps |
# |---|---|---|---|
# | RMSProp | `RMSprop(params, lr=0.01, alpha=0.99, eps=1e-8)` | `"rmsprop"`: `learning_rate=0.001`, `gamma1=0.9`, `epsilon=1e-8` | `alpha=gamma1` and the same rate; MXNet adds ε *inside* the root, `√(v + ε)` |
# | Adagrad | `Adagrad(params, eps=1e-10, weight_decay=λ)` | `"adagrad"`: `eps=1e-7`, `wd=λ` | equal without weight decay: MXNet adds `λ·w` to the step, PyTorch to the gradient |
# | Adadelta | `Adadelta(params, lr=1.0, eps=1e-6, weight_decay=λ)` | `"adadelta"`: `learning_rate` **ignored**, `epsilon=1e-5`, `wd` decays outside the step | `Adadelta(params, lr=1.0, eps=1e-5)` without weight decay; or Gluon `"torchadadelta"` |
#
# **The fix for Adadelta**: `sidebyside.optim.TorchAdadelta`, registered as
# `"torchadadelta"`. It takes PyTorch's steps — `learning_rate` scales the step,
# `epsilon=1e-6`, `wd` is added to the gradient — and keeps its state in the weight's dtype,
# so float64 works. The same 20 steps, `lr=0.5`, `weight_decay=0.01`, in both precisions
# (the float32 gap judged against each framework's own float32-vs-float64 drift):
#
# **PyTorch**

# %% tags=["pytorch"]
pt_adadelta = {dtype: torch_steps(lambda p: torch.optim.Adadelta(p, lr=0.5, weight_decay=0.01),
                                  getattr(torch, dtype))
               for dtype in ("float64", "float32")}

# %% [markdown]
# **Gluon**

# %% tags=["gluon"]
mx_adadelta = {dtype: gluon_steps("torchadadelta", {"learning_rate": 0.5, "wd": 0.01}, dtype)
               for dtype in ("float64", "float32")}

# %% tags=["nbval-ignore-output"]
scale = np.abs(pt_adadelta["float64"]).max()
adadelta_fixed = {dtype: gap(pt_adadelta[dtype], mx_adadelta[dtype]) / scale
                  for dtype in pt_adadelta}
own_drift = {side: gap(steps["float32"], steps["float64"]) / scale       # the yardstick
             for side, steps in (("PyTorch", pt_adadelta), ("Gluon", mx_adadelta))}
{"max |Δw| / max |w|, PyTorch vs Gluon": adadelta_fixed,
 "float32 vs float64, each framework's own": own_drift}

# %%
assert mx.optimizer.Optimizer.opt_registry["torchadadelta"] is optim.TorchAdadelta
assert adadelta_fixed["float64"] <= 1e-12
assert adadelta_fixed["float32"] <= max(own_drift.values())   # within float32's own drift
assert np.abs(pt_adadelta["float64"][-1] - W0).max() > 0.01          # the weights did move
pt_lr1 = torch_steps(lambda p: torch.optim.Adadelta(p, lr=1.0, weight_decay=0.01))
assert gap(pt_lr1, mx_adadelta["float64"]) > 1e-3                    # lr 0.5 counted
"torchadadelta takes torch.optim.Adadelta's steps, in float64 and float32"

# %% [markdown]
# ## 6. What `trainer.step(n)` does
#
# The seed says that `step(batch_size)` normalises the gradient by `1/batch_size`, then
# allreduces and updates. The source of `Trainer.step` in 1.9.1 says exactly that:

# %%
step_source = inspect.getsource(gluon.Trainer.step)
body = [line.strip() for line in step_source.split('"""')[-1].splitlines() if line.strip()]
assert body[0] == "rescale_grad = self._scale / batch_size"
assert body[-2:] == ["self._allreduce_grads()", "self._update(ignore_stale_grad)"]
assert not hasattr(gluon.Trainer, "zero_grad")        # zero_grad lives on Parameter(Dict)
body

# %% [markdown]
# So `n` must match how the loss was reduced — in the *original*. PyTorch's default
# `reduction="mean"` is Gluon's per-sample loss with `step(n)`, or a mean with `step(1)`.
# PyTorch's `reduction="sum"` — common in VAEs, summed over pixels *and* the batch — is a
# summed loss with `step(1)`: its steps are `n` times the mean's. A port that writes
# `step(batch_size)` for such a loss takes steps `n` times too small. With SGD that shows at
# once; with Adam it hides, because Adam's step does not depend on the gradient's scale (up
# to `epsilon`). One step on a batch of 16, each way:
#
# **PyTorch**

# %% tags=["pytorch"]
def pt_one_step(optimizer, reduction):
    model = torch.nn.Linear(5, 1, bias=False).double()
    with torch.no_grad():
        model.weight.copy_(torch.from_numpy(W0))
    if optimizer == "sgd":
        opt = torch.optim.SGD(model.parameters(), lr=f32(0.01))
    else:
        opt = torch.optim.Adam(model.parameters(), lr=0.01)
        optim.mxnet_adam_settings(opt, 1, learning_rate=0.01)
    loss = torch.nn.functional.mse_loss(model(torch.from_numpy(X)), torch.from_numpy(Y),
                                        reduction=reduction) / 2
    loss.backward()
    opt.step()
    return model.weight.detach().numpy() - W0


pt_moves = {(opt, red): pt_one_step(opt, red) for opt in ("sgd", "adam")
            for red in ("mean", "sum")}

# %% [markdown]
# **Gluon**

# %% tags=["gluon"]
def mx_one_step(optimizer, reduce, n):
    model = gluon.nn.Dense(1, in_units=5, use_bias=False, dtype="float64")
    model.initialize()
    model.weight.set_data(mx.nd.array(W0, dtype="float64"))
    trainer = gluon.Trainer(model.collect_params(), optimizer, {"learning_rate": 0.01})
    x, y = mx.nd.array(X, dtype="float64"), mx.nd.array(Y, dtype="float64")
    with autograd.record():
        per_sample = 0.5 * ((model(x) - y) ** 2).sum(axis=1)
        loss = {"per sample": per_sample, "mean": per_sample.mean(),
                "sum": per_sample.sum()}[reduce]
    loss.backward()
    trainer.step(n)
    return model.weight.data().asnumpy() - W0


mx_moves = {(opt, reduce, n): mx_one_step(opt, reduce, n) for opt in ("sgd", "adam")
            for reduce, n in (("per sample", 16), ("mean", 1), ("sum", 1), ("sum", 16))}

# %% tags=["nbval-ignore-output"]
{f"{opt}: Gluon {reduce} loss, step({n})":
 f"{np.abs(move).sum() / np.abs(pt_moves[(opt, 'mean')]).sum():.4g} × PyTorch's mean step"
 for (opt, reduce, n), move in mx_moves.items()}

# %% [markdown]
# **Check**: PyTorch's mean step is Gluon's per-sample `step(16)` and mean `step(1)`; its sum
# step is Gluon's sum `step(1)` — 16 times larger with SGD, the same size with Adam, under
# which the wrong port of a summed loss, `step(16)`, cannot be told from the right one.

# %%
for opt in ("sgd", "adam"):
    for key in ((opt, "per sample", 16), (opt, "mean", 1), (opt, "sum", 16)):
        compare.assert_same(mx_moves[key], pt_moves[(opt, "mean")], rtol=1e-12, atol=1e-15)
    compare.assert_same(mx_moves[(opt, "sum", 1)], pt_moves[(opt, "sum")], rtol=1e-12,
                        atol=1e-15)
size = {opt: np.abs(pt_moves[(opt, "sum")]).sum() / np.abs(pt_moves[(opt, "mean")]).sum()
        for opt in ("sgd", "adam")}
assert abs(size["sgd"] - 16) < 1e-9 and abs(size["adam"] - 1) < 1e-3
"mean ↔ step(n) or mean + step(1); sum ↔ step(1); Adam cannot tell the two apart"

# %% [markdown]
# `step()` is `allreduce_grads()` followed by `update()`; the split form exists for what has
# to happen in between, such as clipping the reduced gradients. **`update_on_kvstore`**, the
# `Trainer`'s last argument, decides where `update()` runs. Its default, `None`, lets the
# `Trainer` choose: with one context it updates the weights itself; with several (or a
# distributed store, [notebook 9](09_distributed.ipynb)) it makes a kvstore and runs the
# optimizer *in* it, once, on the summed gradients. Then the split form is refused, and
# needs `update_on_kvstore=False`. One context first, where it gives `step(16)`'s update:

# %%
def trainer_on(contexts, **kwargs):
    """The model on `contexts`, its SGD Trainer, and the batch's gradients, split over them."""
    model = gluon.nn.Dense(1, in_units=5, use_bias=False, dtype="float64")
    model.initialize(ctx=contexts)
    model.weight.set_data(mx.nd.array(W0, dtype="float64"))
    trainer = gluon.Trainer(model.collect_params(), "sgd", {"learning_rate": 0.01}, **kwargs)
    parts = zip(gluon.utils.split_and_load(mx.nd.array(X, dtype="float64"), contexts),
                gluon.utils.split_and_load(mx.nd.array(Y, dtype="float64"), contexts))
    with autograd.record():
        losses = [0.5 * ((model(x) - y) ** 2).sum(axis=1) for x, y in parts]
    for loss in losses:
        loss.backward()
    return model, trainer


mx_one_model, mx_one_trainer = trainer_on([mx.cpu(0)])
mx_one_trainer.allreduce_grads()
mx_one_trainer.update(16)
compare.assert_same(mx_one_model.weight.data().asnumpy() - W0,
                    mx_moves[("sgd", "per sample", 16)], rtol=0, atol=0)
"allreduce_grads() + update(n) == step(n)"

# %% [markdown]
# Two contexts, with the default `update_on_kvstore`:

# %% tags=["raises-exception"]
mx_kv_model, mx_kv_trainer = trainer_on([mx.cpu(0), mx.cpu(1)])
mx_kv_trainer.allreduce_grads()

# %%
assert inspect.signature(gluon.Trainer).parameters["update_on_kvstore"].default is None
refused = errors.catch(mx_kv_trainer.allreduce_grads, expect=AssertionError)
assert refused.line.startswith("allreduce_grads() when parameters are updated on kvstore "
                               "is not supported")
assert mx_kv_trainer._update_on_kvstore and mx_kv_trainer._kvstore.type == "device"
mx_kv_trainer.step(16)                                     # step() works: updated in the kvstore
mx_split_model, mx_split_trainer = trainer_on([mx.cpu(0), mx.cpu(1)], update_on_kvstore=False)
mx_split_trainer.allreduce_grads()
mx_split_trainer.update(16)                                # each context updates its own copy
assert not mx_split_trainer._update_on_kvstore
assert [len(u.states) for u in mx_split_trainer._updaters] == [1, 1]
assert [len(u.states) for u in mx_kv_trainer._updaters] == [0, 0]
for m in (mx_kv_model, mx_split_model):
    for c in (mx.cpu(0), mx.cpu(1)):
        compare.assert_same(m.weight.data(c).asnumpy() - W0,
                            mx_moves[("sgd", "per sample", 16)], rtol=1e-12, atol=1e-15)
"two contexts: the kvstore updates, allreduce_grads() refused; update_on_kvstore=False splits"

# %% [markdown]
# ## 7. Learning-rate schedules, and the momentum that remembers the old rate
#
# MXNet's schedulers are functions of the **update count**: the optimizer calls
# `scheduler(num_update)` at every update. PyTorch's are objects the caller steps,
# usually once per epoch. With one update per "epoch" the two line up:
#
# | PyTorch (`torch.optim.lr_scheduler`) | MXNet (`mx.lr_scheduler`) |
# |---|---|
# | `StepLR(opt, step_size, gamma)` | `FactorScheduler(step, factor, base_lr)` |
# | `MultiStepLR(opt, milestones, gamma)` | `MultiFactorScheduler(step=[...], factor, base_lr)` |
# | `CosineAnnealingLR(opt, T_max, eta_min)` | `CosineScheduler(max_update, base_lr, final_lr)` |
#
# The deep dive [Optimizer rules, step by step](deep_dives/optim_rules.ipynb) §6 runs each
# pair for 30 updates: the step-wise schedules agree update by update; MXNet's cosine runs one
# update ahead (its count starts at 1, PyTorch's epoch at 0).
#
# **Per epoch, with several updates per epoch.** PyTorch's MNIST example steps
# `StepLR(optimizer, step_size=1, gamma=0.7)` once per epoch. A Gluon port calls
# `trainer.set_learning_rate(lr * gamma ** (epoch - 1))` at the start of each epoch, or
# passes `FactorScheduler(step=batches_per_epoch, factor=gamma, base_lr=lr)`: it lowers the
# rate while `num_update > count + step`, `num_update` being 1 at the first update, so the
# rate first drops at update `step + 1`, the first batch of epoch 2. Copying `step_size=1` as
# `step=1` decays it at every batch. Four epochs of three batches, each update's rate (the
# [deep dive](deep_dives/optim_rules.ipynb) §7 runs every way through a `Trainer`):
#
# **PyTorch**

# %% tags=["pytorch"]
EPOCHS, PER_EPOCH, GAMMA = 4, 3, 0.7


def torch_epoch_rates(make_scheduler):
    """The rate of each update, the scheduler stepped once per epoch of PER_EPOCH updates."""
    optimizer = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
    scheduler, rates = make_scheduler(optimizer), []
    for epoch in range(1, EPOCHS + 1):
        for _ in range(PER_EPOCH):
            rates.append(optimizer.param_groups[0]["lr"])
            optimizer.step()
        scheduler.step()                                  # once per epoch
    return np.array(rates)


pt_epoch = torch_epoch_rates(lambda o: torch.optim.lr_scheduler.StepLR(o, step_size=1,
                                                                        gamma=GAMMA))

# %% [markdown]
# **Gluon**

# %% tags=["gluon"]
def scheduler_rates(scheduler):
    """The rate of each update: the optimizer calls `scheduler(n)` at its update n."""
    return np.array([scheduler(n) for n in range(1, EPOCHS * PER_EPOCH + 1)])


mx_epoch = {f"FactorScheduler(step={step})": scheduler_rates(mx.lr_scheduler.FactorScheduler(
    step=step, factor=GAMMA, base_lr=1.0)) for step in (PER_EPOCH, 1)}


def drops(rates):
    """The updates (counted from 1) whose rate is lower than the previous update's."""
    return [k + 1 for k in range(1, len(rates)) if rates[k] < rates[k - 1]]


{"PyTorch StepLR, per epoch": drops(pt_epoch), **{way: drops(r) for way, r in mx_epoch.items()}}

# %%
assert drops(pt_epoch) == [4, 7, 10]                              # first batch of epochs 2–4
assert drops(mx_epoch["FactorScheduler(step=3)"]) == [4, 7, 10]
assert drops(mx_epoch["FactorScheduler(step=1)"]) == list(range(2, 13))
compare.assert_same(mx_epoch["FactorScheduler(step=3)"], pt_epoch, rtol=1e-15, atol=0)
"StepLR per epoch == FactorScheduler(step=batches per epoch), update by update"

# %% [markdown]
# **Changing the rate mid-run with momentum.** The two SGDs keep different momentum buffers.
# PyTorch's holds gradients (`b ← μ b + g`, then `w ← w − lr·b`); MXNet's holds *steps*
# (`m ← μ m − lr·g`, then `w ← w + m`): the same at a constant rate. When the rate drops,
# PyTorch scales the whole accumulated momentum at once; MXNet keeps the old, larger steps in
# its buffer and lets them decay. A drop from 0.01 to 0.001 after 10 steps:

# %% tags=["nbval-ignore-output"]
def drop_rate(optimizer, t):
    if t == 11:
        if isinstance(optimizer, gluon.Trainer):
            optimizer.set_learning_rate(0.001)
        else:
            for group in optimizer.param_groups:
                group["lr"] = f32(0.001)


pt_drop = torch_steps(lambda p: torch.optim.SGD(p, lr=f32(0.01), momentum=f32(0.9)),
                      before_step=drop_rate)
mx_drop = gluon_steps("sgd", {"learning_rate": 0.01, "momentum": 0.9}, before_step=drop_rate)
drift = np.abs(pt_drop - mx_drop).max(axis=(1, 2))
{"max |Δw|, steps 1–10": float(drift[:10].max()),
 "max |Δw|, steps 11–20": float(drift[10:].max())}

# %%
assert drift[:10].max() <= 1e-14 and drift[10:].max() > 1e-2
"equal until the rate changes; then MXNet's momentum keeps the old steps"

# %% [markdown]
# When porting a schedule with momentum, either accept this (it is a different, equally
# valid optimizer), or rescale MXNet's momentum state by `new_lr / old_lr` at the change.
#
# **Gradient clipping by norm.** `torch.nn.utils.clip_grad_norm_(params, max_norm)` and
# `gluon.utils.clip_global_norm(arrays, max_norm)` both scale all gradients together so that
# their joint L2 norm is at most `max_norm`, and return the norm before clipping. (MXNet's
# optimizer option `clip_gradient` is different: it clips element by element, like
# `torch.nn.utils.clip_grad_value_`.) They do not scale by the same factor: PyTorch's is
# `max_norm / (norm + 1e-6)`, MXNet's `max_norm / (norm + 1e-8)` (both read from the sources
# below). The clipped gradients differ by `(1e-6 − 1e-8) / (norm + 1e-6)`, relative: 3.3e-6
# at a norm of 0.3 — above float32's rounding, far above float64's; a tolerance of 1e-5 and
# norms above 1 hide it. Gradients of joint norm 0.3, clipped to 0.1:
#
# **PyTorch**, in float64 and float32:

# %% tags=["pytorch"]
CLIP_FROM, MAX_NORM = 0.3, 0.1
clip_rng = np.random.default_rng(1)
raw = [clip_rng.standard_normal((3, 4)), clip_rng.standard_normal(5)]
grads = [g * (CLIP_FROM / math.sqrt(sum(float((r ** 2).sum()) for r in raw))) for g in raw]


def pt_clip(dtype, clip=torch.nn.utils.clip_grad_norm_):
    """(the norm `clip` returns, the clipped gradients) for `grads` in `dtype`."""
    params = [torch.zeros(g.shape, dtype=dtype, requires_grad=True) for g in grads]
    for p, g in zip(params, grads):
        p.grad = torch.tensor(g, dtype=dtype)          # a copy: the clip works in place
    norm = clip(params, max_norm=MAX_NORM)
    return float(norm), [p.grad.double().numpy() for p in params]


pt_clipped = {dtype: pt_clip(getattr(torch, dtype)) for dtype in ("float64", "float32")}

# %% [markdown]
# **Gluon**: float32 only; in 1.9.1 float64 gradients fail (`clip_global_norm` concatenates
# its float64 scale with a float32 `ones(1)`). Then **the formula for parity**: clip by hand
# in PyTorch with MXNet's `1e-8` (in float64 too), and the gaps, with the predicted one.

# %% tags=["gluon"]
mx_grads = [mx.nd.array(g, dtype="float32") for g in grads]
mx_norm = gluon.utils.clip_global_norm(mx_grads, max_norm=MAX_NORM)
mx_clipped = (mx_norm, [m.asnumpy().astype(np.float64) for m in mx_grads])

# %% tags=["raises-exception"]
gluon.utils.clip_global_norm([mx.nd.array(g, dtype="float64") for g in grads], MAX_NORM)

# %% tags=["nbval-ignore-output"]
def clip_like_mxnet(params, max_norm):
    """`clip_grad_norm_` with MXNet's epsilon: `gluon.utils.clip_global_norm`'s factor."""
    grads = [p.grad for p in params]
    norm = torch.sqrt(sum((g * g).sum() for g in grads))
    scale = torch.clamp(max_norm / (norm + 1e-8), max=1.0)
    for g in grads:
        g.mul_(scale)
    return norm


def rel(a, b):
    return max(float(np.abs(u - v).max() / np.abs(v).max()) for u, v in zip(a, b))


pt_like_mxnet = {dtype: pt_clip(getattr(torch, dtype), clip_like_mxnet)
                 for dtype in ("float64", "float32")}
predicted_gap = (1e-6 - 1e-8) / (CLIP_FROM + 1e-6)
clip_gaps = {
    "float64, clip_grad_norm_ vs clip by hand with 1e-8": rel(pt_clipped["float64"][1],
                                                              pt_like_mxnet["float64"][1]),
    "predicted, (1e-6 − 1e-8) / (norm + 1e-6)": predicted_gap,
    "float32, clip_grad_norm_ vs Gluon": rel(pt_clipped["float32"][1], mx_clipped[1]),
    "float32, clip by hand with 1e-8 vs Gluon": rel(pt_like_mxnet["float32"][1], mx_clipped[1])}
clip_gaps

# %%
pt_clip_source = inspect.getsource(torch.nn.utils.clip_grad._clip_grads_with_norm_)
assert "clip_coef = max_norm / (total_norm + 1e-6)" in pt_clip_source
assert "scale = max_norm / (total_norm + 1e-8)" in inspect.getsource(gluon.utils.clip_global_norm)
float64_clip = errors.catch(gluon.utils.clip_global_norm,
                            [mx.nd.array(g, dtype="float64") for g in grads], MAX_NORM)
assert float64_clip.type == "MXNetError"
assert "Non-uniform data type in Concat" in float64_clip.message
gap64 = clip_gaps["float64, clip_grad_norm_ vs clip by hand with 1e-8"]
assert abs(gap64 / predicted_gap - 1) < 1e-6                # the formula, to float64 rounding
assert abs(clip_gaps["float32, clip_grad_norm_ vs Gluon"] / predicted_gap - 1) < 0.2
assert clip_gaps["float32, clip by hand with 1e-8 vs Gluon"] <= 5e-7   # float32 rounding
for norm in (pt_clipped["float64"][0], pt_like_mxnet["float64"][0]):
    assert abs(norm - CLIP_FROM) <= 1e-15                   # the norm before clipping
assert abs(mx_clipped[0] - CLIP_FROM) <= 1e-7
"clip_grad_norm_ divides by norm + 1e-6, clip_global_norm by norm + 1e-8: 3.3e-6 apart at 0.3"

# %% [markdown]
# A float64 lockstep check of a port that clips thus uses `clip_like_mxnet` on the PyTorch side
# (or, porting the other way, PyTorch's `1e-6` written out in the Gluon loop, in float32).
# `sidebyside.clipping.clip_global_norm(arrays, max_norm, rule="mxnet" | "torch")` packages
# both rules for either framework's arrays, float64 included: [notebook 20](20_sequence_models.ipynb)
# §7 and §10 use it in a language model's lockstep.
#
# ## 8. Optimizer state: save, load, resume
#
# **PyTorch**: `optimizer.state_dict()` holds the momentum buffers (and the step count for
# Adam); saving it with the model's `state_dict` and loading both resumes training exactly.

# %% tags=["pytorch"]
def pt_resume(split_at=10):
    model = torch.nn.Linear(5, 1, bias=False).double()
    with torch.no_grad():
        model.weight.copy_(torch.from_numpy(W0))
    optimizer = torch.optim.Adam(model.parameters(), lr=LR)
    x, y = torch.from_numpy(X), torch.from_numpy(Y)

    def step():
        optimizer.zero_grad()
        (0.5 * ((model(x) - y) ** 2).sum()).backward()
        optimizer.step()

    for _ in range(split_at):
        step()
    with tempfile.TemporaryDirectory() as tmp:
        torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict()},
                   os.path.join(tmp, "checkpoint.pt"))
        step()
        continued = model.weight.detach().clone()
        checkpoint = torch.load(os.path.join(tmp, "checkpoint.pt"))
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(checkpoint["optimizer"])
    step()
    return continued, model.weight.detach()


pt_continued, pt_resumed = pt_resume()

# %% [markdown]
# **Gluon**: the parameters and the `Trainer`'s optimizer state are saved separately —
# `save_parameters` and `trainer.save_states` — and loaded the same way:

# %% tags=["gluon"]
def mx_resume(split_at=10):
    model = gluon.nn.Dense(1, in_units=5, use_bias=False, dtype="float64")
    model.initialize()
    model.weight.set_data(mx.nd.array(W0, dtype="float64"))
    trainer = gluon.Trainer(model.collect_params(), "adam", {"learning_rate": LR})
    x, y = mx.nd.array(X, dtype="float64"), mx.nd.array(Y, dtype="float64")

    def step():
        with autograd.record():
            loss = 0.5 * ((model(x) - y) ** 2).sum()
        loss.backward()
        trainer.step(1)

    for _ in range(split_at):
        step()
    with tempfile.TemporaryDirectory() as tmp:
        model.save_parameters(os.path.join(tmp, "model.params"))
        trainer.save_states(os.path.join(tmp, "trainer.states"))
        step()
        continued = model.weight.data().copy()
        model.load_parameters(os.path.join(tmp, "model.params"))
        trainer.load_states(os.path.join(tmp, "trainer.states"))
    step()
    return continued, model.weight.data()


mx_continued, mx_resumed = mx_resume()

# %% [markdown]
# **Check**: in each framework, the step after resuming is the step it would have taken
# without stopping — bit for bit (Adam's step count is part of both states).

# %%
compare.assert_same(pt_resumed, pt_continued, rtol=0, atol=0)
compare.assert_same(mx_resumed, mx_continued, rtol=0, atol=0)
"resumed == continued, in both"

# %% [markdown]
# Whole checkpoints — model, optimizer, epoch, in one file, and their formats — are
# [notebook 13](13_serialization.ipynb)'s subject.
#
# ## Summary
#
# | | PyTorch | MXNet Gluon 1.9.1 | to take the same steps |
# |---|---|---|---|
# | optimizer | `torch.optim.SGD(params, lr=…, momentum=…, weight_decay=…)` | `gluon.Trainer(params, "sgd", {"learning_rate": …, "momentum": …, "wd": …})` | equal; MXNet rounds hyper-parameters to float32: `lr=f32(…)` in PyTorch |
# | default SGD rate | `torch.optim.SGD(params)`: `lr=1e-3` | `gluon.Trainer(params, "sgd")`: `learning_rate=0.01` | always give the rate: ten times apart |
# | default RMSProp rate | `torch.optim.RMSprop(params)`: `lr=0.01` | `gluon.Trainer(params, "rmsprop")`: `learning_rate=0.001` | always give the rate |
# | Nesterov | `torch.optim.SGD(params, lr, momentum, nesterov=True)` | `gluon.Trainer(params, "nag", {"learning_rate": …, "momentum": …})` | equal without weight decay |
# | Adam | `torch.optim.Adam(params, lr, betas=(b1, b2), eps)` | `gluon.Trainer(params, "torchadam", {"learning_rate": …, "beta1": b1, "beta2": b2, "epsilon": …})` | equal in float64 (`sidebyside.optim`); `"adam"` parts ways on a VAE |
# | MXNet's Adam | `optim.mxnet_adam_settings(opt, t, learning_rate, beta1, beta2, epsilon, wd)` before step `t` | `gluon.Trainer(params, "adam", {...})` | equal in float64 |
# | AdamW | `torch.optim.AdamW(params, lr, weight_decay=λ)` | `gluon.Trainer(params, "torchadamw", {"learning_rate": …, "wd": λ})` | equal; `"adam"` with `wd` is `Adam(weight_decay=λ)` |
# | Adam's settings in Gluon | `pt_opt = torch.optim.Adam(...)` | `gluon.Trainer(params, *optim.gluon_optimizer_for(pt_opt))` | Adam, AdamW, Adadelta |
# | RMSProp | `torch.optim.RMSprop(params, lr, alpha=0.9)` | `gluon.Trainer(params, "rmsprop", {"learning_rate": …, "gamma1": 0.9})` | ε inside the root in MXNet |
# | Adagrad | `torch.optim.Adagrad(params, lr)` | `gluon.Trainer(params, "adagrad", {"learning_rate": …})` | equal without weight decay |
# | Adadelta | `torch.optim.Adadelta(params, lr=1.0, weight_decay=λ)` | `gluon.Trainer(params, "torchadadelta", {"learning_rate": 1.0, "wd": λ})` | equal in float64; `"adadelta"` ignores `learning_rate` |
# | float64 weights | `model.double()` | `net.cast("float64")` with `sgd`, `nag`, `adam`, `torchadam`, `torchadamw`, `torchadadelta` | `rmsprop`, `adagrad`, `adadelta` fail |
# | one step | `optimizer.step()` | `trainer.step(n)` | `n` = batch size for per-sample or summed losses, 1 for a mean |
# | clear gradients | `optimizer.zero_grad()` | `net.collect_params().zero_grad()` | not needed with `grad_req="write"` |
# | schedule | `torch.optim.lr_scheduler.StepLR(opt, step_size, gamma)` | `{"lr_scheduler": mx.lr_scheduler.FactorScheduler(step, factor, base_lr)}` | per epoch: `step = step_size × batches per epoch`; cosine: MXNet one update ahead |
# | change the rate | `group["lr"] = …` | `trainer.set_learning_rate(…)` | with momentum, MXNet's buffer keeps the old rate |
# | clip by norm | `torch.nn.utils.clip_grad_norm_(params, max_norm)` | `gluon.utils.clip_global_norm(grads, max_norm)` | `norm + 1e-6` against `norm + 1e-8`: clip by hand with `1e-8` for parity (§7); float32 only in MXNet |
# | clip by value | `torch.nn.utils.clip_grad_value_(params, c)` | `{"clip_gradient": c}` | |
# | split step | — | `trainer.allreduce_grads(); trainer.update(n)` | several contexts: `Trainer(..., update_on_kvstore=False)` |
# | state | `optimizer.state_dict()` / `optimizer.load_state_dict(sd)` | `trainer.save_states(f)` / `trainer.load_states(f)` | both resume exactly |
#
# ### What the seed articles said, checked
#
# | seed claim | verdict | shown in |
# |---|---|---|
# | `torch.optim.SGD(model.parameters(), lr=0.1)` ⇔ `gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1})` | confirmed: the same steps (to float32 rounding of the hyper-parameters); without a rate the defaults are ten times apart | §1, §2 |
# | `step(batch_size)` normalises by `1/batch_size`, then allreduces and updates | confirmed from the source and with numbers | §6 |
# | a loss already averaged needs `step(1)` | confirmed; and a summed loss needs `step(n)` | §6 |
# | `zero_grad` of "the PyTorch optimizer or the Gluon `Trainer`" | corrected: the `Trainer` has none; it is on the parameters | §6 |
# | the `Trainer` takes `kvstore`, `compression_params`, `update_on_kvstore` | confirmed from the signature; `update_on_kvstore=None` lets the `Trainer` choose, and with several contexts it updates in the kvstore (§6); kvstores and compression are [notebook 9](09_distributed.ipynb) | §6 |
#
# ## Exercises
#
# 1. Rescale MXNet's SGD momentum state by `0.001 / 0.01` at the rate drop of §7 (the
#    state is `trainer._updaters[0].states`). Does the Gluon trajectory now follow
#    PyTorch's to rounding level?
# 2. A PyTorch script steps `MultiStepLR(optimizer, milestones=[2, 3], gamma=0.1)` once per
#    epoch, with 3 batches per epoch. Which `mx.lr_scheduler` gives its Gluon port the same
#    rate at every update?

# %% [markdown]
# :::{dropdown} Solutions
# 1. Yes. In `drop_rate`, after `set_learning_rate(0.001)`, scale every state:
#    `for s in trainer._updaters[0].states.values(): s[:] = s * ratio`. Over steps 11–20 the
#    gap to PyTorch drops from about 0.6 (not rescaled) to below 1e-8 with
#    `ratio = 0.001 / 0.01`, and to rounding (1e-15) with `ratio = f32(0.001) / f32(0.01)`:
#    the buffer holds steps made with the float32-rounded rates, so the float32 ratio is the
#    exact one.
# 2. `MultiFactorScheduler(step=[6, 9], factor=0.1, base_lr=lr)`: each milestone times the
#    batches per epoch. Like `FactorScheduler`, it lowers the rate once `num_update` has
#    passed a step, so at updates 7 and 10, the first batches of epochs 3 and 4 — where
#    PyTorch's rate drops. (`step=[2, 3]`, copied as written, drops it at updates 3 and 4.)
# :::
#
# **Solutions**, run with asserts: the two folded cells below, each ending with its answer.

# %% tags=["hide-cell"]
def drop_and_rescale(ratio):
    def before_step(trainer, t):
        drop_rate(trainer, t)
        if t == 11:
            for state in trainer._updaters[0].states.values():
                state[:] = state * ratio
    return gluon_steps("sgd", {"learning_rate": 0.01, "momentum": 0.9}, before_step=before_step)


after_drop = {"not rescaled": gap(mx_drop[10:], pt_drop[10:]),
              "0.001 / 0.01": gap(drop_and_rescale(0.001 / 0.01)[10:], pt_drop[10:]),
              "f32 ratio": gap(drop_and_rescale(f32(0.001) / f32(0.01))[10:], pt_drop[10:])}
assert 0.3 < after_drop["not rescaled"] < 1.0
assert 1e-12 < after_drop["0.001 / 0.01"] < 1e-8
assert after_drop["f32 ratio"] <= 1e-15
"1. rescaling the momentum by the ratio of the float32 rates: PyTorch's steps, to rounding"

# %% tags=["hide-cell"]
pt_multi = torch_epoch_rates(lambda o: torch.optim.lr_scheduler.MultiStepLR(
    o, milestones=[2, 3], gamma=0.1))
mx_multi = {steps: scheduler_rates(mx.lr_scheduler.MultiFactorScheduler(
    step=list(steps), factor=0.1, base_lr=1.0)) for steps in ((6, 9), (2, 3))}
assert drops(pt_multi) == drops(mx_multi[(6, 9)]) == [7, 10]
assert drops(mx_multi[(2, 3)]) == [3, 4]
compare.assert_same(mx_multi[(6, 9)], pt_multi, rtol=1e-15, atol=0)
"2. MultiFactorScheduler(step=[6, 9]): milestones × batches per epoch, PyTorch's rates"
