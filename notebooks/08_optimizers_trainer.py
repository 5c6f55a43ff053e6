# %% [markdown]
# # 8 · Optimizers and the `Trainer`: the same steps on the same gradients
#
# **What you will learn**
#
# - how `torch.optim` maps onto `gluon.Trainer(params, name, {...})`, optimizer by optimizer
#   (SGD with momentum and weight decay, Nesterov, Adam and AdamW, RMSProp, Adagrad,
#   Adadelta): which arguments are renamed, which defaults differ, where each puts its
#   `epsilon`, which hyper-parameters MXNet ignores — each pair *run* on the same problem and
#   compared step by step; and `"torchadadelta"`, a Gluon optimizer that takes PyTorch's
#   Adadelta steps;
# - what `trainer.step(n)` does, read from its source and checked with numbers, for
#   per-sample, mean and summed losses, and its split form `allreduce_grads()` + `update()`;
# - learning-rate schedules, gradient clipping and optimizer state, side by side — including
#   the momentum buffer that makes an SGD schedule behave differently in the two frameworks.
#
# Everything runs on one small least-squares problem, in float64 where MXNet allows it, so
# that "the same steps" can be checked to rounding level. Multi-device and distributed
# training are [notebook 9](09_distributed.ipynb).
#
# **Prerequisites**: [notebook 3](03_mnist_mlp.ipynb) (the Trainer in a training loop) and
# [notebook 5](05_autograd.ipynb) (gradients). **Time**: about 40 minutes.

# %% tags=["nbval-ignore-output"]
import inspect
import math
import os
import tempfile

import matplotlib.pyplot as plt
import mxnet as mx
import numpy as np
import torch
from mxnet import autograd, gluon

from sidebyside import compare, devices, errors, seeding
from sidebyside.optim import TorchAdadelta       # registers the optimizer "torchadadelta" (§5)

SEED = seeding.seed_everything(0)
devs = devices.pick()
pt_dev, mx_ctx = devs.torch.device, devs.mxnet.device

# %% [markdown]
# ## 1. One problem, two optimizers
#
# A linear model without bias, `y = X wᵀ`, and the summed squared error
# `½ Σ (X wᵀ − y)²`, on 16 fixed samples of 5 features. Each framework computes the
# gradient with its own autograd, from the same starting weights, and takes 20 steps; the
# helpers return the weights after every step, so two trajectories can be compared. (Both
# run on the CPU: the point is the arithmetic of the update rules.)
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


def f32(value):
    """`value` rounded to float32, as MXNet's update operators receive hyper-parameters."""
    return float(np.float32(value))

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
# | `lr` (required) | `learning_rate` (default 0.01) |
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
# step. The reason is in MXNet's `nag_mom_update` kernel
# ([`optimizer_op-inl.h`](https://github.com/apache/mxnet/blob/1.9.1/src/operator/optimizer_op-inl.h),
# `NAGMomKernel`): it writes the new weight first and then updates the momentum with
# `wd · weight` — and since the optimizer calls it with `out=weight`, that is the weight it
# has just overwritten. Replaying the kernel in numpy, with and without that aliasing:

# %%
def nag_kernel(steps, wd, aliased):
    """MXNet's NAGMomKernel, step by step, on the same problem (float32 hyper-parameters)."""
    lr, mu, wd = f32(LR), f32(MOMENTUM), f32(wd)
    w, mom, path = W0.copy(), np.zeros_like(W0), []
    for _ in range(steps):
        grad = (w @ X.T - Y.T) @ X                   # d/dw ½ Σ (X wᵀ − y)²
        mom = mu * mom
        new_w = w - mom + (mu + 1) * (mom - lr * (grad + wd * w))
        mom = mom - lr * (grad + wd * (new_w if aliased else w))
        w = new_w
        path.append(w.copy())
    return np.array(path)


nag_replay = {"aliased (as MXNet runs)": gap(nag_kernel(STEPS, WD, True), mx_nag(WD)),
              "not aliased": gap(nag_kernel(STEPS, WD, False), mx_nag(WD)),
              "not aliased vs PyTorch": gap(nag_kernel(STEPS, WD, False), pt_nesterov(WD))}

# %% tags=["nbval-ignore-output"]
nag_replay

# %%
assert gap(pt_nesterov(0.0), mx_nag(0.0)) <= 1e-14
assert gap(pt_nesterov(WD), mx_nag(WD)) > 1e-9
assert nag_replay["aliased (as MXNet runs)"] <= 1e-14
assert nag_replay["not aliased vs PyTorch"] <= 1e-14
"MXNet's NAG uses the already updated weight in its momentum's weight decay"

# %% [markdown]
# ## 4. Adam, and where its `epsilon` goes
#
# Same names, same defaults (`lr=1e-3`, `betas=(0.9, 0.999)` against `beta1=0.9,
# beta2=0.999`, `eps=1e-8` against `epsilon=1e-8`).
#
# **PyTorch**

# %% tags=["pytorch"]
pt_adam = torch_steps(lambda p: torch.optim.Adam(p, lr=LR))

# %% [markdown]
# **Gluon**

# %% tags=["gluon"]
mx_adam = gluon_steps("adam", {"learning_rate": LR})

# %% tags=["nbval-ignore-output"]
{"max |Δw| over 20 Adam steps": gap(pt_adam, mx_adam),
 "largest step": float(np.abs(np.diff(pt_adam, axis=0)).max())}

# %% [markdown]
# A difference of about 1e-4 of a step, from the first step on. Two things make it:
#
# - **float32 hyper-parameters again**, and here they matter more: the kernel computes
#   `1 − β₂` from a float32 `β₂`, and `1 − float32(0.999)` is off by 1.3e-5 relative, so
#   `v` is, and the step by half of that;
# - **`epsilon`'s place.** PyTorch divides by `√v̂ + ε`, with `v̂ = v / (1 − β₂ᵗ)` the
#   bias-corrected variance. MXNet folds both bias corrections into the learning rate
#   (`lr · √(1 − β₂ᵗ) / (1 − β₁ᵗ)`, in Python) and divides by `√v + ε` — which is PyTorch's
#   rule with `ε / √(1 − β₂ᵗ)` in place of `ε`: 31.6 ε at the first step.
#
# PyTorch can be made to take MXNet's exact steps by setting, before every step, the
# rounded betas, that time-varying `eps`, and the learning rate that MXNet's kernel receives:

# %%
def mxnet_adam_settings(optimizer, t, lr=LR, beta1=0.9, beta2=0.999, eps=1e-8):
    c1, c2 = 1 - beta1 ** t, 1 - beta2 ** t          # MXNet's, in Python doubles
    kernel_lr = f32(lr * math.sqrt(c2) / c1)         # what its adam_update receives
    b1, b2 = f32(beta1), f32(beta2)
    bc1, bc2 = 1 - b1 ** t, 1 - b2 ** t              # PyTorch's, from its betas
    for group in optimizer.param_groups:
        group.update(betas=(b1, b2), eps=f32(eps) / math.sqrt(bc2),
                     lr=kernel_lr * bc1 / math.sqrt(bc2))


pt_adam_as_mxnet = torch_steps(lambda p: torch.optim.Adam(p, lr=LR),
                               before_step=mxnet_adam_settings)

# %%
assert 1e-9 < gap(pt_adam, mx_adam) <= 1e-5
assert gap(pt_adam_as_mxnet, mx_adam) <= 1e-15
"PyTorch with MXNet's rounding and epsilon takes MXNet's Adam steps exactly"

# %% [markdown]
# Where `epsilon`'s place shows: gradients near `ε`. One Adam step (lr 1e-3) from `w = 0` on
# a gradient of 1e-6, 1e-7 and 1e-8 — how far does each framework move the weight?

# %%
def one_adam_step(grad):
    w = torch.zeros(1, dtype=torch.float64, requires_grad=True)
    optimizer = torch.optim.Adam([w], lr=1e-3)
    w.grad = torch.full((1,), grad, dtype=torch.float64)
    optimizer.step()
    p = gluon.Parameter("w", shape=(1,), dtype="float64")
    p.initialize(init=mx.init.Zero())
    trainer = gluon.Trainer([p], "adam", {"learning_rate": 1e-3})
    with autograd.record():
        (p.data() * grad).sum().backward()
    trainer.step(1)
    return abs(w.item()), abs(p.data().asscalar())


tiny = {grad: one_adam_step(grad) for grad in (1e-6, 1e-7, 1e-8)}

# %% tags=["nbval-ignore-output"]
{f"gradient {grad:g}": {"torch moves": f"{t:.2g}", "gluon moves": f"{g:.2g}"}
 for grad, (t, g) in tiny.items()}

# %%
for grad, (t_move, g_move) in tiny.items():
    s = math.sqrt(1 - 0.999)                          # √(1 − β₂) after one step
    assert abs(t_move - 1e-3 * grad / (grad + 1e-8)) <= 1e-9
    assert abs(g_move - 1e-3 * s * grad / (s * grad + 1e-8)) <= 1e-8
assert tiny[1e-8][1] < 0.1 * tiny[1e-8][0]
"for gradients near epsilon, Gluon's first Adam steps are much smaller"

# %% [markdown]
# **AdamW.** PyTorch's `AdamW` decays the weights *outside* the adaptive step
# (`w ← w − lr·λ·w`), its `Adam(weight_decay=λ)` adds `λ·w` to the gradient. MXNet 1.9.1 has
# no `"adamw"` optimizer (GluonNLP shipped one; the operator `nd.contrib.adamw_update`
# exists); Gluon's `adam` with `wd=λ` is PyTorch's `Adam(weight_decay=λ)`, not `AdamW`:

# %%
mx_adam_wd = gluon_steps("adam", {"learning_rate": LR, "wd": 0.01})
adam_wd = {
    "torch Adam(weight_decay)": gap(torch_steps(
        lambda p: torch.optim.Adam(p, lr=LR, weight_decay=f32(0.01)),
        before_step=mxnet_adam_settings), mx_adam_wd),
    "torch AdamW(weight_decay)": gap(torch_steps(
        lambda p: torch.optim.AdamW(p, lr=LR, weight_decay=f32(0.01)),
        before_step=mxnet_adam_settings), mx_adam_wd)}
assert adam_wd["torch Adam(weight_decay)"] <= 1e-14
assert adam_wd["torch AdamW(weight_decay)"] > 1e-4
assert "adamw" not in mx.optimizer.Optimizer.opt_registry
assert hasattr(mx.nd.contrib, "adamw_update")
{name: "equal" if d <= 1e-14 else "different" for name, d in adam_wd.items()}

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
# So they are compared in float32, where the rounding of the two frameworks' kernels alone
# is about 1e-7 of the weights. What each pair needs to agree:
#
# | | PyTorch | Gluon | to take the same steps |
# |---|---|---|---|
# | RMSProp | `alpha=0.99`, `eps=1e-8` added to `√v` | `gamma1=0.9`, `epsilon=1e-8` added *inside* the root: `√(v + ε)` | set `gamma1=alpha` (or `alpha=gamma1`) |
# | Adagrad | `eps=1e-10` added to `√Σg²`; `weight_decay` added to the gradient (and accumulated) | `eps=1e-7` inside the root; `wd` added to the step, not accumulated | equal without weight decay |
# | Adadelta | `lr=1.0` scales the step; `eps=1e-6`; `weight_decay` added to the gradient | `learning_rate` **ignored**; `epsilon=1e-5`; `wd` decays the weight outside the step | PyTorch `lr=1.0, eps=1e-5`, no weight decay; or Gluon `"torchadadelta"` (below) |
#
# **PyTorch**

# %% tags=["pytorch"]
pt_32 = {
    "rmsprop, defaults": torch_steps(lambda p: torch.optim.RMSprop(p, lr=LR), torch.float32),
    "rmsprop, alpha=0.9": torch_steps(lambda p: torch.optim.RMSprop(p, lr=LR, alpha=0.9),
                                      torch.float32),
    "adagrad": torch_steps(lambda p: torch.optim.Adagrad(p, lr=LR), torch.float32),
    "adadelta, defaults": torch_steps(lambda p: torch.optim.Adadelta(p), torch.float32),
    "adadelta, eps=1e-5": torch_steps(lambda p: torch.optim.Adadelta(p, lr=1.0, eps=1e-5),
                                      torch.float32),
}

# %% [markdown]
# **Gluon**

# %% tags=["gluon"]
mx_32 = {
    "rmsprop": gluon_steps("rmsprop", {"learning_rate": LR}, "float32"),
    "adagrad": gluon_steps("adagrad", {"learning_rate": LR}, "float32"),
    "adadelta, learning_rate=1": gluon_steps("adadelta", {"learning_rate": 1.0}, "float32"),
    "adadelta, learning_rate=0.01": gluon_steps("adadelta", {"learning_rate": 0.01},
                                                "float32"),
}

# %% tags=["nbval-ignore-output"]
compared = {
    "RMSProp, both defaults": gap(pt_32["rmsprop, defaults"], mx_32["rmsprop"]),
    "RMSProp, alpha = gamma1 = 0.9": gap(pt_32["rmsprop, alpha=0.9"], mx_32["rmsprop"]),
    "Adagrad, both defaults": gap(pt_32["adagrad"], mx_32["adagrad"]),
    "Adadelta, both defaults": gap(pt_32["adadelta, defaults"],
                                   mx_32["adadelta, learning_rate=1"]),
    "Adadelta, PyTorch eps=1e-5": gap(pt_32["adadelta, eps=1e-5"],
                                      mx_32["adadelta, learning_rate=1"]),
    "Gluon Adadelta, learning_rate 1 vs 0.01": gap(
        mx_32["adadelta, learning_rate=1"], mx_32["adadelta, learning_rate=0.01"]),
}
compared

# %%
assert compared["RMSProp, both defaults"] > 0.01            # different defaults
assert compared["RMSProp, alpha = gamma1 = 0.9"] <= 1e-5
assert compared["Adagrad, both defaults"] <= 1e-5
assert compared["Adadelta, both defaults"] > 0.01           # eps 1e-6 vs 1e-5
assert compared["Adadelta, PyTorch eps=1e-5"] <= 1e-5
assert compared["Gluon Adadelta, learning_rate 1 vs 0.01"] == 0.0   # ignored, exactly
"RMSProp: match the decay rate; Adadelta: MXNet ignores learning_rate, eps 1e-5"

# %% [markdown]
# **Adadelta's weight decay.** `AdaDelta.update` in
# [`optimizer.py`](https://github.com/apache/mxnet/blob/1.9.1/python/mxnet/optimizer/optimizer.py)
# ends with `weight[:] -= current_delta + wd * weight`: the decay is applied to the weight,
# outside the adaptive step, and is not scaled by the (ignored) learning rate. Its docstring
# also adds `wd · weight` to the gradient; the code does not. PyTorch's `weight_decay` adds
# `wd · w` to the gradient. Replaying MXNet's rule in PyTorch — decay the weights by
# `1 − wd` just before each Adadelta step — with `wd = 0.01` in float32:

# %%
def adadelta_decoupled(params, wd=0.01):
    """PyTorch's Adadelta (lr=1, eps=1e-5) after `w ← (1 − wd)·w`: MXNet's "adadelta"."""
    params = list(params)
    optimizer = torch.optim.Adadelta(params, lr=1.0, eps=1e-5)

    def decay(*_):
        with torch.no_grad():
            for p in params:
                p.mul_(1 - wd)

    optimizer.register_step_pre_hook(decay)
    return optimizer


mx_adadelta_wd = gluon_steps("adadelta", {"wd": 0.01}, "float32")
adadelta_wd = {
    "PyTorch, decay outside the step": gap(
        torch_steps(adadelta_decoupled, torch.float32), mx_adadelta_wd),
    "PyTorch, weight_decay=0.01": gap(torch_steps(
        lambda p: torch.optim.Adadelta(p, lr=1.0, eps=1e-5, weight_decay=0.01),
        torch.float32), mx_adadelta_wd)}

# %% tags=["nbval-ignore-output"]
adadelta_wd

# %%
assert adadelta_wd["PyTorch, decay outside the step"] <= 1e-5
assert adadelta_wd["PyTorch, weight_decay=0.01"] > 1e-2
adadelta_source = inspect.getsource(mx.optimizer.AdaDelta)
assert "grad * rescale_grad + wd * weight" in adadelta_source        # what the docstring says
assert "weight[:] -= current_delta + wd * weight" in adadelta_source  # what the code does
"MXNet's adadelta: w ← (1 − wd)·w − delta, whatever the learning rate"

# %% [markdown]
# So `wd=0.01` shrinks every weight by 1 % a step, at any learning rate.
#
# **The fix**: `sidebyside.optim.TorchAdadelta`, registered as `"torchadadelta"` when the
# module is imported. It takes PyTorch's steps — `learning_rate` scales the step,
# `epsilon=1e-6`, `wd` is added to the gradient — and keeps its state in the weight's dtype,
# so float64 works. The same 20 steps, `lr=0.5`, `weight_decay=0.01`, in both
# precisions:
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
adadelta_fixed = {dtype: gap(pt_adadelta[dtype], mx_adadelta[dtype])
                  / np.abs(pt_adadelta[dtype]).max() for dtype in pt_adadelta}
{f"max |Δw| / max |w|, {dtype}": d for dtype, d in adadelta_fixed.items()}

# %%
assert mx.optimizer.Optimizer.opt_registry["torchadadelta"] is TorchAdadelta
assert adadelta_fixed["float64"] <= 1e-12
assert adadelta_fixed["float32"] <= 1e-5
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
body

# %%
assert body[0] == "rescale_grad = self._scale / batch_size"
assert body[-2:] == ["self._allreduce_grads()", "self._update(ignore_stale_grad)"]
assert not hasattr(gluon.Trainer, "zero_grad")        # zero_grad lives on Parameter(Dict)
"rescale, allreduce, update"

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
        mxnet_adam_settings(opt, 1, lr=0.01)
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
# **Check**: PyTorch's mean step is Gluon's per-sample `step(16)` and mean `step(1)`;
# PyTorch's sum step is Gluon's sum `step(1)` — 16 times larger with SGD, the same size with
# Adam; and the summed loss with `step(16)`, wrong for a summed original, is indistinguishable
# from the right port under Adam.

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
# `step()` is `allreduce_grads()` followed by `update()`. The split form exists for what has
# to happen in between — gradient clipping on the reduced gradients, say — and gives the same
# update:

# %%
def split_step(clip=None):
    model = gluon.nn.Dense(1, in_units=5, use_bias=False, dtype="float64")
    model.initialize()
    model.weight.set_data(mx.nd.array(W0, dtype="float64"))
    trainer = gluon.Trainer(model.collect_params(), "sgd", {"learning_rate": 0.01})
    with autograd.record():
        loss = 0.5 * ((model(mx.nd.array(X, dtype="float64"))
                       - mx.nd.array(Y, dtype="float64")) ** 2).sum(axis=1)
    loss.backward()
    trainer.allreduce_grads()
    if clip is not None:
        gluon.utils.clip_global_norm([model.weight.grad()], clip)
    trainer.update(16)
    return model.weight.data().asnumpy() - W0


compare.assert_same(split_step(), mx_moves[("sgd", "per sample", 16)], rtol=0, atol=0)
"allreduce_grads() + update(n) == step(n)"

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
# **PyTorch**: the rate each of 30 steps uses.

# %% tags=["pytorch"]
N_UPDATES, BASE = 30, 0.1


def torch_rates(make_scheduler):
    optimizer = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=BASE)
    scheduler, rates = make_scheduler(optimizer), []
    for _ in range(N_UPDATES):
        rates.append(optimizer.param_groups[0]["lr"])
        optimizer.step()
        scheduler.step()
    return np.array(rates)


pt_rates = {
    "step": torch_rates(lambda o: torch.optim.lr_scheduler.StepLR(o, 10, 0.5)),
    "multistep": torch_rates(lambda o: torch.optim.lr_scheduler.MultiStepLR(o, [5, 20], 0.1)),
    "cosine": torch_rates(lambda o: torch.optim.lr_scheduler.CosineAnnealingLR(o, 30, 0.001)),
}

# %% [markdown]
# **Gluon**: a scheduler is passed in the optimizer's options; `trainer.learning_rate` is the
# rate it has reached.

# %% tags=["gluon"]
def gluon_rates(scheduler):
    p = gluon.Parameter("w", shape=(1,))
    p.initialize(init=mx.init.Zero())
    trainer = gluon.Trainer([p], "sgd", {"lr_scheduler": scheduler})
    rates = []
    for _ in range(N_UPDATES):
        with autograd.record():
            (p.data() * 0).sum().backward()
        trainer.step(1)
        rates.append(trainer.learning_rate)
    return np.array(rates)


mx_rates = {
    "step": gluon_rates(mx.lr_scheduler.FactorScheduler(10, 0.5, base_lr=BASE)),
    "multistep": gluon_rates(mx.lr_scheduler.MultiFactorScheduler([5, 20], 0.1, base_lr=BASE)),
    "cosine": gluon_rates(mx.lr_scheduler.CosineScheduler(30, base_lr=BASE, final_lr=0.001)),
}

# %% mystnb={"image": {"alt": "Learning rate per update for the step, multistep and cosine schedules: PyTorch as a staircase, Gluon as dots; step and multistep match exactly, Gluon's cosine decays per update while PyTorch's changes per epoch."}}
fig, axes = plt.subplots(1, 3, figsize=(11, 3), sharey=True)
for ax, name in zip(axes, pt_rates):
    ax.step(range(1, N_UPDATES + 1), pt_rates[name], where="post", label="PyTorch")
    ax.plot(range(1, N_UPDATES + 1), mx_rates[name], ".", label="Gluon")
    ax.set_title(name)
    ax.set_xlabel("update")
axes[0].set_ylabel("learning rate")
axes[0].legend()
plt.show()

# %% [markdown]
# **Check**: the step-wise schedules agree update by update. The cosine does not: MXNet's
# count starts at 1 where PyTorch's epoch starts at 0, so MXNet's cosine runs one update
# ahead — PyTorch's rate at update *k + 1* is MXNet's at update *k*:

# %%
compare.assert_same(pt_rates["step"], mx_rates["step"], rtol=1e-15, atol=0)
compare.assert_same(pt_rates["multistep"], mx_rates["multistep"], rtol=1e-12, atol=0)
assert np.abs(pt_rates["cosine"] - mx_rates["cosine"]).max() > 1e-4
compare.assert_same(pt_rates["cosine"][1:], mx_rates["cosine"][:-1], rtol=1e-12, atol=1e-15)
"step schedules equal; MXNet's cosine one update ahead"

# %% [markdown]
# **Per epoch, with several updates per epoch.** PyTorch's MNIST example steps
# `StepLR(optimizer, step_size=1, gamma=0.7)` once per epoch. A Gluon port either calls
# `trainer.set_learning_rate(lr * gamma ** (epoch - 1))` at the start of each epoch, or
# passes `FactorScheduler(step=batches_per_epoch, factor=gamma, base_lr=lr)` — which counts
# updates. Its `__call__` lowers the rate while `num_update > count + step`, and
# `num_update` is 1 at the first update; so the rate first drops at update `step + 1`, the
# first batch of epoch 2. (The docstring's `base_lr · factor^⌊num_update / step⌋` would drop
# it one update early, at the last batch of epoch 1.) Copying `step_size=1` as `step=1`
# decays the rate at every batch. Four epochs of three batches:
#
# **PyTorch**

# %% tags=["pytorch"]
EPOCHS, PER_EPOCH, GAMMA = 4, 3, 0.7


def torch_epoch_rates():
    optimizer = torch.optim.Adadelta([torch.zeros(1, requires_grad=True)], lr=1.0)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=GAMMA)
    rates = []
    for epoch in range(1, EPOCHS + 1):
        for _ in range(PER_EPOCH):
            rates.append(optimizer.param_groups[0]["lr"])
            optimizer.step()
        scheduler.step()                                  # once per epoch
    return np.array(rates)

# %% [markdown]
# **Gluon**: the rate each update used (`trainer.learning_rate` after it), three ways.

# %% tags=["gluon"]
def gluon_epoch_rates(way):
    p = gluon.Parameter("w", shape=(1,))
    p.initialize(init=mx.init.Zero())
    schedulers = {"FactorScheduler(step=3)": mx.lr_scheduler.FactorScheduler(
                      step=PER_EPOCH, factor=GAMMA, base_lr=1.0),
                  "FactorScheduler(step=1)": mx.lr_scheduler.FactorScheduler(
                      step=1, factor=GAMMA, base_lr=1.0)}
    options = {"lr_scheduler": schedulers[way]} if way in schedulers else {}
    trainer = gluon.Trainer([p], "torchadadelta", options)
    rates = []
    for epoch in range(1, EPOCHS + 1):
        if way == "set_learning_rate":
            trainer.set_learning_rate(1.0 * GAMMA ** (epoch - 1))
        for _ in range(PER_EPOCH):
            with autograd.record():
                (p.data() * 0).sum().backward()
            trainer.step(1)
            rates.append(trainer.learning_rate)
    return np.array(rates)


epoch_rates = {"PyTorch StepLR, per epoch": torch_epoch_rates()}
epoch_rates.update({way: gluon_epoch_rates(way) for way in (
    "set_learning_rate", "FactorScheduler(step=3)", "FactorScheduler(step=1)")})
epoch_rates["docstring formula, step=3"] = np.array(
    [GAMMA ** (k // PER_EPOCH) for k in range(1, EPOCHS * PER_EPOCH + 1)])


def drops(rates):
    """The updates (counted from 1) whose rate is lower than the previous update's."""
    return [k + 1 for k in range(1, len(rates)) if rates[k] < rates[k - 1]]


{way: drops(rates) for way, rates in epoch_rates.items()}

# %%
pt_epoch = epoch_rates["PyTorch StepLR, per epoch"]
assert drops(pt_epoch) == [4, 7, 10]                              # first batch of epochs 2–4
assert drops(epoch_rates["FactorScheduler(step=3)"]) == [4, 7, 10]
assert drops(epoch_rates["docstring formula, step=3"]) == [3, 6, 9, 12]
assert drops(epoch_rates["FactorScheduler(step=1)"]) == list(range(2, 13))
compare.assert_same(epoch_rates["FactorScheduler(step=3)"], pt_epoch, rtol=1e-15, atol=0)
compare.assert_same(epoch_rates["set_learning_rate"], pt_epoch, rtol=1e-12, atol=0)
"StepLR per epoch == FactorScheduler(step=batches per epoch), update by update"

# %% [markdown]
# **Changing the rate mid-run with momentum.** The two SGDs keep different momentum buffers.
# PyTorch's holds gradients (`b ← μ b + g`, then `w ← w − lr·b`); MXNet's holds *steps*
# (`m ← μ m − lr·g`, then `w ← w + m`). With a constant rate that is the same thing. When the
# rate drops, PyTorch scales the whole accumulated momentum at once; MXNet keeps the old,
# larger steps in its buffer and lets them decay. The same drop from 0.01 to 0.001 after 10
# steps (`set_learning_rate` in Gluon, the param group in PyTorch):

# %%
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

# %% tags=["nbval-ignore-output"]
{"max |Δw|, steps 1–10": float(drift[:10].max()),
 "max |Δw|, steps 11–20": float(drift[10:].max())}

# %%
assert drift[:10].max() <= 1e-14 and drift[10:].max() > 1e-2
"equal until the rate changes; then MXNet's momentum keeps the old steps"

# %% [markdown]
# When porting a schedule with momentum, either accept this (it is a different, equally
# valid optimizer), or rescale MXNet's momentum state by `new_lr / old_lr` at the change.
#
# **Gradient clipping.** `gluon.utils.clip_global_norm(arrays, max_norm)` and
# `torch.nn.utils.clip_grad_norm_(params, max_norm)` both scale all gradients together so
# that their joint L2 norm is at most `max_norm`, and return the norm before clipping.
# (MXNet's optimizer option `clip_gradient` is different: it clips element by element, like
# `torch.nn.utils.clip_grad_value_`.)

# %%
grads = [rng.standard_normal((3, 4)).astype(np.float32),
         rng.standard_normal(5).astype(np.float32)]
pt_grads = [torch.zeros(g.shape, requires_grad=True) for g in grads]
for t, g in zip(pt_grads, grads):
    t.grad = torch.from_numpy(g.copy())
pt_norm = torch.nn.utils.clip_grad_norm_(pt_grads, max_norm=1.0)
mx_grads = [mx.nd.array(g) for g in grads]
mx_norm = gluon.utils.clip_global_norm(mx_grads, max_norm=1.0)
for t, m in zip(pt_grads, mx_grads):
    compare.assert_same(t.grad, m, rtol=1e-5, atol=0)
assert abs(float(pt_norm) - mx_norm) <= 1e-6 * mx_norm
clipped = math.sqrt(sum(float((m ** 2).sum().asscalar()) for m in mx_grads))
assert abs(clipped - 1.0) < 1e-5 and mx_norm > 1
# in 1.9.1 it cannot clip float64 gradients (it concatenates them with a float32 one)
float64_clip = errors.catch(gluon.utils.clip_global_norm,
                            [mx.nd.array(g, dtype="float64") for g in grads], 1.0)
assert float64_clip.type == "MXNetError"
"same norm returned, same clipped gradients (norm 1 after); float32 only in MXNet"

# %% [markdown]
# PyTorch scales by `max_norm / (norm + 1e-6)`, MXNet by `max_norm / (norm + 1e-8)`, both
# in float32 here: hence the relative tolerances. MXNet 1.9.1's `clip_global_norm` fails on
# float64 gradients.
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
# Whole checkpoints — model, optimizer, epoch, in one file, and their formats — are the
# serialization notebook's subject.
#
# ## Summary
#
# | | PyTorch | MXNet Gluon 1.9.1 | to take the same steps |
# |---|---|---|---|
# | optimizer | `torch.optim.SGD(params, lr=…, momentum=…, weight_decay=…)` | `gluon.Trainer(params, "sgd", {"learning_rate": …, "momentum": …, "wd": …})` | equal; MXNet rounds hyper-parameters to float32 |
# | Nesterov | `SGD(..., nesterov=True)` | `"nag"` | equal without weight decay; with it, MXNet's kernel uses the updated weight |
# | Adam | `Adam(lr, betas, eps)` | `"adam"` (`beta1`, `beta2`, `epsilon`) | MXNet: ε added to `√v` before bias correction, `1−β₂` in float32 |
# | AdamW | `AdamW(weight_decay=λ)` | none in 1.9.1 (`nd.contrib.adamw_update`) | `"adam"` with `wd` is `Adam(weight_decay)` |
# | RMSProp | `RMSprop(alpha=0.99, eps=1e-8)` | `"rmsprop"` (`gamma1=0.9`, ε inside the root) | set the decay rates equal |
# | Adagrad | `Adagrad(eps=1e-10)` | `"adagrad"` (`eps=1e-7` inside the root) | equal without weight decay |
# | Adadelta | `Adadelta(lr=1.0, eps=1e-6, weight_decay)` | `"adadelta"`: `learning_rate` ignored, `epsilon=1e-5`, `wd` decays outside the step; `"torchadadelta"` (`sidebyside.optim`): PyTorch's rule | `"torchadadelta"`, equal in float64; or PyTorch `eps=1e-5`, `lr=1.0`, no weight decay |
# | float64 weights | all | `sgd`, `nag`, `adam`, `torchadadelta`; **not** `rmsprop`, `adagrad`, `adadelta` | |
# | one step | `optimizer.step()` | `trainer.step(n)`: rescale by `1/n`, allreduce, update | `n` = batch size for per-sample or summed losses, 1 for a mean |
# | clear gradients | `optimizer.zero_grad()` | not needed (`grad_req="write"`); `params.zero_grad()` | |
# | schedule | `lr_scheduler.StepLR(opt, step_size, gamma)`, stepped by the caller (often per epoch) | `mx.lr_scheduler.FactorScheduler(step, factor, base_lr)` in the options, counts updates | per epoch: `step = step_size × batches per epoch` (first drop at update `step + 1`), or `set_learning_rate(lr · gamma^(epoch−1))`; cosine: MXNet one update ahead |
# | change the rate | `group["lr"] = …` | `trainer.set_learning_rate(…)` | with momentum, MXNet's buffer keeps the old rate |
# | clip by norm | `clip_grad_norm_(params, max_norm)` | `gluon.utils.clip_global_norm(grads, max_norm)` after `allreduce_grads()` (float32 only) | equal |
# | clip by value | `clip_grad_value_` | `clip_gradient` option | |
# | state | `optimizer.state_dict()` / `load_state_dict` | `trainer.save_states(f)` / `load_states(f)` | both resume exactly |
#
# ### What the seed articles said, checked
#
# | seed claim | verdict | shown in |
# |---|---|---|
# | `torch.optim.SGD(model.parameters(), lr=0.1)` ⇔ `gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1})` | confirmed: the same steps (to float32 rounding of the hyper-parameters) | §1, §2 |
# | `step(batch_size)` normalises by `1/batch_size`, then allreduces and updates | confirmed from the source and with numbers | §6 |
# | a loss already averaged needs `step(1)` | confirmed; and a summed loss needs `step(n)` | §6 |
# | `zero_grad` of "the PyTorch optimizer or the Gluon `Trainer`" | corrected: the `Trainer` has none; it is on the parameters | §6 |
# | the `Trainer` takes `kvstore`, `compression_params`, `update_on_kvstore` | confirmed; what they do is [notebook 9](09_distributed.ipynb) | — |
#
# ## Exercises
#
# 1. Rescale MXNet's SGD momentum state by `0.001 / 0.01` at the rate drop of §7 (the
#    state is `trainer._updaters[0].states`). Does the Gluon trajectory now follow
#    PyTorch's to rounding level?
# 2. Give PyTorch's `Adagrad` `weight_decay=0.01` and Gluon's `wd=0.01`. How far apart are
#    the trajectories after 20 steps, and which term explains it?
# 3. Write a `torch.optim.Optimizer` subclass that implements MXNet's RMSProp (ε inside the
#    root) and check it against `gluon_steps("rmsprop", ..., "float32")`.

# %% [markdown]
# :::{dropdown} Solutions
# 1. Yes. In `drop_rate`, after `set_learning_rate(0.001)`, scale every state:
#    `for s in trainer._updaters[0].states.values(): s[:] = s * ratio`. Measured, steps
#    11–20: the gap goes from 0.58 (not rescaled) to 4e-9 with `ratio = 0.001 / 0.01`, and to
#    6e-17 with `ratio = f32(0.001) / f32(0.01)`. The buffer holds steps made with the
#    float32-rounded rates, so the float32 ratio is the exact one.
# 2. After 20 float32 steps the weights are 1.3e-3 apart (the weights moved by about 0.07;
#    without weight decay the gap is 1e-9). The term is MXNet's `wd·w`: it is added to the
#    *step*, `w −= lr·(g/√(h + ε) + wd·w)`, and is not divided by the root. PyTorch adds
#    `wd·w` to the gradient, so it is divided by `√Σg²` (and accumulated into it). Here that
#    makes PyTorch's decay about 140 times weaker: weight decay moves PyTorch's weights by
#    9e-6 and MXNet's by 1.3e-3. Numpy copies of the two rules reproduce each side to 1e-7.
# 3. ```python
#    class MXNetRMSProp(torch.optim.Optimizer):
#        def __init__(self, params, lr=0.001, gamma1=0.9, epsilon=1e-8, wd=0.0):
#            super().__init__(params, dict(lr=lr, gamma1=gamma1, epsilon=epsilon, wd=wd))
#        @torch.no_grad()
#        def step(self):
#            for group in self.param_groups:
#                for p in (p for p in group["params"] if p.grad is not None):
#                    g = p.grad + group["wd"] * p
#                    n = self.state[p].setdefault("n", torch.zeros_like(p))
#                    n.mul_(group["gamma1"]).addcmul_(g, g, value=1 - group["gamma1"])
#                    p.sub_(group["lr"] * g / (n + group["epsilon"]).sqrt())
#    ```
#    Against `gluon_steps("rmsprop", {"learning_rate": LR}, "float32")`: 3e-8, and 6e-8 with
#    `wd=0.01`, which is float32 rounding. On this problem it also equals
#    `RMSprop(alpha=0.9)` exactly: with gradients of order 1, whether ε sits inside or
#    outside the root does not change a float32 result. It would with gradients near √ε.
# :::
