# %% [markdown]
# # Deep dive · Optimizer rules, step by step: where MXNet's update kernels differ
#
# This deep dive belongs to [notebook 8](../08_optimizers_trainer.ipynb) §3–§5 and §7. There,
# each optimizer pair is mapped and checked once; here are the replays and the case-by-case
# runs behind those rules: MXNet's Nesterov kernel replayed in NumPy (§1), Adam's `epsilon`
# on gradients near `ε` (§2), RMSProp, Adagrad and Adadelta compared in float32, with MXNet's
# RMSProp written as a PyTorch optimizer (§3), the weight decay of Adadelta and of Adagrad,
# each read from MXNet's code and replayed (§4, §5), and learning-rate schedules through a
# `Trainer`, update by update and per epoch (§6, §7). Everything runs on the least-squares
# problem of [notebook 8](../08_optimizers_trainer.ipynb) §1 (16 samples, 5 features, 20
# steps from the same weights). **Time**: about 20 minutes.

# %% tags=["nbval-ignore-output"]
import inspect
import math

import matplotlib.pyplot as plt
import mxnet as mx
import numpy as np
import torch
from mxnet import autograd, gluon

from sidebyside import compare, devices, seeding
from sidebyside.optim import f32    # a value rounded to float32, as MXNet's update kernels take it

SEED = seeding.seed_everything(0)
devs = devices.pick()
pt_dev, mx_ctx = devs.torch.device, devs.mxnet.device

# %% [markdown]
# The problem of [notebook 8](../08_optimizers_trainer.ipynb) §1, and a shorter version of its
# two training loops: a bare weight `w` instead of a bias-free linear layer, the same
# `½ Σ (X wᵀ − y)²`. `torch_steps(make_optimizer)` and `gluon_steps(name, options)` return
# the weights after each of the 20 steps, on the CPU.

# %%
rng = np.random.default_rng(0)
X = rng.standard_normal((16, 5))
Y = rng.standard_normal((16, 1))
W0 = 0.5 * rng.standard_normal((1, 5))
STEPS = 20
LR, MOMENTUM, WD = 0.01, 0.9, 1e-4


def torch_steps(make_optimizer, dtype=torch.float64):
    """Weights after each of STEPS steps of `make_optimizer([w])`."""
    w = torch.tensor(W0, dtype=dtype, requires_grad=True)
    x, y = torch.tensor(X, dtype=dtype), torch.tensor(Y, dtype=dtype)
    optimizer, path = make_optimizer([w]), []
    for _ in range(STEPS):
        optimizer.zero_grad()
        (0.5 * ((x @ w.T - y) ** 2).sum()).backward()
        optimizer.step()
        path.append(w.detach().double().numpy().copy())
    return np.array(path)


def gluon_steps(name, options, dtype="float64"):
    """Weights after each of STEPS steps of `gluon.Trainer([w], name, options)`."""
    w = gluon.Parameter("w", shape=W0.shape, dtype=dtype)
    w.initialize()
    w.set_data(mx.nd.array(W0, dtype=dtype))
    x, y = mx.nd.array(X, dtype=dtype), mx.nd.array(Y, dtype=dtype)
    trainer, path = gluon.Trainer([w], name, options), []
    for _ in range(STEPS):
        with autograd.record():
            loss = 0.5 * ((mx.nd.dot(x, w.data(), transpose_b=True) - y) ** 2).sum()
        loss.backward()
        trainer.step(1)                 # the loss is already the quantity to minimise
        path.append(w.data().asnumpy().astype(np.float64))
    return np.array(path)


def gap(a, b):
    """The largest weight difference over the whole trajectory."""
    return float(np.abs(a - b).max())

# %% [markdown]
# ## 1. Nesterov with weight decay: MXNet's kernel decays the updated weight
#
# `torch.optim.SGD(nesterov=True)` and Gluon's `"nag"` take the same steps without weight
# decay; with it, they drift apart from the second step ([notebook
# 8](../08_optimizers_trainer.ipynb) §3). MXNet's `nag_mom_update` kernel
# ([`optimizer_op-inl.h`](https://github.com/apache/mxnet/blob/1.9.1/src/operator/optimizer_op-inl.h),
# `NAGMomKernel`) writes the new weight first and then updates the momentum with
# `wd · weight` — and since the optimizer calls it with `out=weight`, that is the weight it
# has just overwritten. Replaying the kernel in NumPy, with and without that aliasing:

# %%
def pt_nesterov(wd):
    return torch_steps(lambda p: torch.optim.SGD(
        p, lr=f32(LR), momentum=f32(MOMENTUM), weight_decay=f32(wd), nesterov=True))


def mx_nag(wd):
    return gluon_steps("nag", {"learning_rate": LR, "momentum": MOMENTUM, "wd": wd})


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
assert gap(pt_nesterov(WD), mx_nag(WD)) > 1e-9
assert nag_replay["not aliased"] > 1e-9
assert nag_replay["aliased (as MXNet runs)"] <= 1e-14
assert nag_replay["not aliased vs PyTorch"] <= 1e-14
"MXNet's NAG uses the already updated weight in its momentum's weight decay"

# %% [markdown]
# ## 2. Adam's `epsilon` on gradients near `ε`
#
# MXNet's `adam` is PyTorch's rule with `ε / √(1 − β₂ᵗ)` in place of `ε` ([notebook
# 8](../08_optimizers_trainer.ipynb) §4): 31.6 ε at the first step. Where that shows:
# gradients near `ε`. One Adam step (lr 1e-3) from `w = 0` on a gradient of 1e-6, 1e-7 and
# 1e-8 — how far does each framework move the weight?

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
# On a network, a few such weights are enough to part two runs: the deep dive [Adam on a
# VAE](optim_adam_vae.ipynb) trains PyTorch's VAE example with both rules.

# %% [markdown]
# ## 3. RMSProp, Adagrad and Adadelta, in float32
#
# These three cannot train float64 weights in MXNet 1.9.1 ([notebook
# 8](../08_optimizers_trainer.ipynb) §5), so they are compared in float32, where the rounding
# of the two frameworks' kernels alone is about 1e-7 of the weights. Each row of the table
# in [notebook 8](../08_optimizers_trainer.ipynb) §5, run: the defaults, then what each pair
# needs to agree. MXNet has no float64 run to measure its own float32 drift against, so the
# yardstick for "agree" is PyTorch's own float32-vs-float64 drift on the same settings:
# two frameworks' float32 roundings, each of about that size, can add up to twice it; the
# checks allow three times.
#
# **PyTorch**

# %% tags=["pytorch"]
pt_settings = {
    "rmsprop, defaults": lambda p: torch.optim.RMSprop(p, lr=LR),
    "rmsprop, alpha=0.9": lambda p: torch.optim.RMSprop(p, lr=LR, alpha=0.9),
    "adagrad": lambda p: torch.optim.Adagrad(p, lr=LR),
    "adadelta, defaults": lambda p: torch.optim.Adadelta(p),
    "adadelta, eps=1e-5": lambda p: torch.optim.Adadelta(p, lr=1.0, eps=1e-5),
}
pt_32 = {key: torch_steps(make, torch.float32) for key, make in pt_settings.items()}
pt_drift = {key: gap(pt_32[key], torch_steps(make, torch.float64))     # the yardstick
            for key, make in pt_settings.items()}

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
{"PyTorch vs Gluon, float32": compared, "PyTorch's own float32 vs float64": pt_drift}

# %%
assert compared["RMSProp, both defaults"] > 0.01            # different defaults
assert compared["RMSProp, alpha = gamma1 = 0.9"] <= 3 * pt_drift["rmsprop, alpha=0.9"]
assert compared["Adagrad, both defaults"] <= 3 * pt_drift["adagrad"]
assert compared["Adadelta, both defaults"] > 0.01           # eps 1e-6 vs 1e-5
assert compared["Adadelta, PyTorch eps=1e-5"] <= 3 * pt_drift["adadelta, eps=1e-5"]
assert compared["Gluon Adadelta, learning_rate 1 vs 0.01"] == 0.0   # ignored, exactly
"matched settings agree within float32's drift; Adadelta: MXNet ignores learning_rate, eps 1e-5"

# %% [markdown]
# **MXNet's RMSProp in PyTorch.** Porting the other way, from Gluon to PyTorch, MXNet's rule
# can be written as a `torch.optim.Optimizer`: `wd·w` added to the gradient,
# `n ← γ₁·n + (1 − γ₁)·g²`, and a step of `lr·g / √(n + ε)`, with `ε` *inside* the root:

# %%
class MXNetRMSProp(torch.optim.Optimizer):
    def __init__(self, params, lr=0.001, gamma1=0.9, epsilon=1e-8, wd=0.0):
        super().__init__(params, dict(lr=lr, gamma1=gamma1, epsilon=epsilon, wd=wd))

    @torch.no_grad()
    def step(self):
        for group in self.param_groups:
            for p in (p for p in group["params"] if p.grad is not None):
                g = p.grad + group["wd"] * p
                n = self.state[p].setdefault("n", torch.zeros_like(p))
                n.mul_(group["gamma1"]).addcmul_(g, g, value=1 - group["gamma1"])
                p.sub_(group["lr"] * g / (n + group["epsilon"]).sqrt())

# %% [markdown]
# **Check**: against Gluon's float32 `"rmsprop"`, with and without `wd=0.01`, within float32
# rounding (at most three times PyTorch's own float32-vs-float64 drift, as above). On this
# problem it also equals `RMSprop(alpha=0.9)`: with gradients of order 1, whether `ε` sits
# inside or outside the root does not change a float32 result. It would with gradients near
# √ε.

# %%
for wd in (0.0, 0.01):
    pt_rms = {dtype: torch_steps(lambda p, wd=wd: MXNetRMSProp(p, lr=LR, wd=wd), dtype)
              for dtype in (torch.float32, torch.float64)}
    mx_rms = gluon_steps("rmsprop", {"learning_rate": LR, "wd": wd}, "float32")
    assert np.abs(pt_rms[torch.float64][-1] - W0).max() > 0.01
    own_drift = gap(pt_rms[torch.float32], pt_rms[torch.float64])   # the yardstick
    assert gap(pt_rms[torch.float32], mx_rms) <= 3 * own_drift
pt_alpha = torch_steps(lambda p: torch.optim.RMSprop(p, lr=LR, alpha=0.9), torch.float32)
mx_rms = gluon_steps("rmsprop", {"learning_rate": LR}, "float32")
assert gap(torch_steps(lambda p: MXNetRMSProp(p, lr=LR), torch.float32), pt_alpha) <= 1e-7
assert gap(pt_alpha, mx_rms) <= 1e-6
"MXNet's RMSProp in PyTorch: Gluon's float32 steps, within float32's own drift"

# %% [markdown]
# ## 4. Adadelta's weight decay
#
# `AdaDelta.update` in
# [`optimizer.py`](https://github.com/apache/mxnet/blob/1.9.1/python/mxnet/optimizer/optimizer.py)
# ends with `weight[:] -= current_delta + wd * weight`: the decay is applied to the weight,
# outside the adaptive step, and is not scaled by the (ignored) learning rate. Its docstring
# also adds `wd · weight` to the gradient; the code does not. PyTorch's `weight_decay` adds
# `wd · w` to the gradient. Replaying MXNet's rule in PyTorch — decay the weights by
# `1 − wd` just before each Adadelta step — with `wd = 0.01` in float32 (agreement judged
# as in §3, against three times PyTorch's own float32-vs-float64 drift):

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
pt_decoupled = {dtype: torch_steps(adadelta_decoupled, dtype)
                for dtype in (torch.float32, torch.float64)}
adadelta_wd = {
    "PyTorch, decay outside the step": gap(pt_decoupled[torch.float32], mx_adadelta_wd),
    "PyTorch's own float32 vs float64, decay outside the step": gap(
        pt_decoupled[torch.float32], pt_decoupled[torch.float64]),
    "PyTorch, weight_decay=0.01": gap(torch_steps(
        lambda p: torch.optim.Adadelta(p, lr=1.0, eps=1e-5, weight_decay=0.01),
        torch.float32), mx_adadelta_wd)}

# %% tags=["nbval-ignore-output"]
adadelta_wd

# %%
assert adadelta_wd["PyTorch, decay outside the step"] <= 3 * adadelta_wd[
    "PyTorch's own float32 vs float64, decay outside the step"]
assert adadelta_wd["PyTorch, weight_decay=0.01"] > 1e-2
adadelta_source = inspect.getsource(mx.optimizer.AdaDelta)
assert "grad * rescale_grad + wd * weight" in adadelta_source        # what the docstring says
assert "weight[:] -= current_delta + wd * weight" in adadelta_source  # what the code does
"MXNet's adadelta: w ← (1 − wd)·w − delta, whatever the learning rate"

# %% [markdown]
# So `wd=0.01` shrinks every weight by 1 % a step, at any learning rate. The Gluon optimizer
# `"torchadadelta"` (`sidebyside.optim`) takes PyTorch's rule instead.

# %% [markdown]
# ## 5. Adagrad's weight decay
#
# Without weight decay PyTorch's `Adagrad` and Gluon's `"adagrad"` agree (§3). With it they
# do not (the row of [notebook 8](../08_optimizers_trainer.ipynb) §5's table): `AdaGrad.update`
# in MXNet's `optimizer.py` adds `wd · weight` to the *step*, `w −= lr·(g/√(h + ε) + wd·w)`,
# not divided by the root, with `ε` inside it; PyTorch adds `wd · w` to the gradient, so it
# is divided by `√Σg²` and accumulated into it, with `ε = 1e-10` outside the root. Each
# framework's float32 run, with and without `wd = 0.01`, and both rules in NumPy (float64):

# %%
def numpy_adagrad(wd, mxnet_rule):
    """Adagrad in NumPy (float64): MXNet's rule or PyTorch's, on the problem above."""
    w, h, path = W0.copy(), np.zeros_like(W0), []
    for _ in range(STEPS):
        g = (w @ X.T - Y.T) @ X
        if mxnet_rule:                    # wd·w added to the step, eps inside the root
            h = h + g * g
            w = w - LR * (g / np.sqrt(h + 1e-7) + wd * w)
        else:                             # wd·w added to the gradient, and accumulated
            g = g + wd * w
            h = h + g * g
            w = w - LR * g / (np.sqrt(h) + 1e-10)
        path.append(w.copy())
    return np.array(path)


pt_adagrad = {wd: torch_steps(lambda p, wd=wd: torch.optim.Adagrad(p, lr=LR, weight_decay=wd),
                              torch.float32) for wd in (0.0, 0.01)}
mx_adagrad = {wd: gluon_steps("adagrad", {"learning_rate": LR, "wd": wd}, "float32")
              for wd in (0.0, 0.01)}

# %% tags=["nbval-ignore-output"]
{"torch vs gluon": {f"wd={wd}": gap(pt_adagrad[wd], mx_adagrad[wd]) for wd in (0.0, 0.01)},
 "what the decay moves": {
     side: gap(steps[0.01], steps[0.0]) for side, steps in (("torch", pt_adagrad),
                                                             ("gluon", mx_adagrad))},
 "NumPy rule vs its framework": {f"wd={wd}": {
     "PyTorch's": gap(numpy_adagrad(wd, mxnet_rule=False), pt_adagrad[wd]),
     "MXNet's": gap(numpy_adagrad(wd, mxnet_rule=True), mx_adagrad[wd])} for wd in (0.0, 0.01)}}

# %% [markdown]
# **Check**: without weight decay the two runs agree to float32 rounding; with it they are
# between 1e-3 and 2e-3 apart after 20 steps, while the weights moved by 0.04 to 0.1. The
# decay alone moves PyTorch's weights by less than 3e-5 and MXNet's by 1e-3 to 2e-3, over a
# hundred times more: divided by the root, PyTorch's `wd·w` is a far weaker decay. And each
# NumPy rule takes its framework's steps to float32 rounding (1e-6 over 20 steps):

# %%
assert 1e-3 < gap(pt_adagrad[0.01], mx_adagrad[0.01]) < 2e-3
assert gap(pt_adagrad[0.0], mx_adagrad[0.0]) < 1e-6
assert 0.04 < np.abs(pt_adagrad[0.0][-1] - W0).max() < 0.1
pt_decay, mx_decay = (gap(steps[0.01], steps[0.0]) for steps in (pt_adagrad, mx_adagrad))
assert pt_decay < 3e-5 and 1e-3 < mx_decay < 2e-3 and mx_decay > 100 * pt_decay
for wd in (0.0, 0.01):
    assert gap(numpy_adagrad(wd, mxnet_rule=False), pt_adagrad[wd]) < 1e-6
    assert gap(numpy_adagrad(wd, mxnet_rule=True), mx_adagrad[wd]) < 1e-6
adagrad_source = inspect.getsource(mx.optimizer.AdaGrad.update)
assert "div = grad / sqrt(history + self.float_stable_eps)" in adagrad_source
assert "weight[:] += (div + weight * wd) * -lr" in adagrad_source     # wd·w in the step
"MXNet's adagrad adds wd·w to the step, PyTorch's to the gradient: each replayed"

# %% [markdown]
# ## 6. Learning-rate schedules, update by update
#
# MXNet's schedulers are functions of the update count, PyTorch's are objects the caller
# steps ([notebook 8](../08_optimizers_trainer.ipynb) §7). Stepped once per update, the three
# pairs of that section's table give these rates:
#
# **PyTorch**: the rate each of 30 steps uses.

# %% tags=["pytorch"]
N_UPDATES, BASE = 30, 0.1


def torch_rates(make_scheduler, updates=N_UPDATES, every=1):
    """The rate of each update; the scheduler is stepped after every `every` updates."""
    optimizer = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=BASE)
    scheduler, rates = make_scheduler(optimizer), []
    for k in range(1, updates + 1):
        rates.append(optimizer.param_groups[0]["lr"])
        optimizer.step()
        if k % every == 0:
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
def gluon_rates(scheduler, updates=N_UPDATES, before_update=None):
    """The rate of each update (`before_update(trainer, k)` runs before update k)."""
    p = gluon.Parameter("w", shape=(1,))
    p.initialize(init=mx.init.Zero())
    options = {"lr_scheduler": scheduler} if scheduler else {"learning_rate": BASE}
    trainer = gluon.Trainer([p], "sgd", options)
    rates = []
    for k in range(1, updates + 1):
        if before_update:
            before_update(trainer, k)
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
# ## 7. Per epoch, with several updates per epoch
#
# PyTorch's MNIST example steps `StepLR(optimizer, step_size=1, gamma=0.7)` once per epoch
# ([notebook 8](../08_optimizers_trainer.ipynb) §7). Through a `Trainer`, four epochs of three
# batches, the rate each update used, three ways: `set_learning_rate` at the start of each
# epoch, `FactorScheduler(step=3)` (the batches of an epoch) and `FactorScheduler(step=1)`
# (`step_size=1` copied as it is). Beside them, the formula in `FactorScheduler`'s
# docstring, `base_lr · factor^⌊num_update / step⌋`, taken at face value:
#
# **PyTorch**: the scheduler stepped after every third update.

# %% tags=["pytorch"]
EPOCHS, PER_EPOCH, GAMMA = 4, 3, 0.7
pt_epoch = torch_rates(lambda o: torch.optim.lr_scheduler.StepLR(o, step_size=1, gamma=GAMMA),
                       updates=EPOCHS * PER_EPOCH, every=PER_EPOCH)

# %% [markdown]
# **Gluon**

# %% tags=["gluon"]
def set_per_epoch(trainer, k):
    if (k - 1) % PER_EPOCH == 0:                          # the first batch of an epoch
        trainer.set_learning_rate(BASE * GAMMA ** ((k - 1) // PER_EPOCH))


epoch_rates = {
    "PyTorch StepLR, per epoch": pt_epoch,
    "set_learning_rate": gluon_rates(None, EPOCHS * PER_EPOCH, set_per_epoch),
    **{f"FactorScheduler(step={step})": gluon_rates(mx.lr_scheduler.FactorScheduler(
        step=step, factor=GAMMA, base_lr=BASE), EPOCHS * PER_EPOCH) for step in (PER_EPOCH, 1)},
    "docstring formula, step=3": np.array(
        [BASE * GAMMA ** (k // PER_EPOCH) for k in range(1, EPOCHS * PER_EPOCH + 1)])}


def drops(rates):
    """The updates (counted from 1) whose rate is lower than the previous update's."""
    return [k + 1 for k in range(1, len(rates)) if rates[k] < rates[k - 1]]


{way: drops(rates) for way, rates in epoch_rates.items()}

# %% [markdown]
# **Check**: PyTorch's rate drops at the first batch of each epoch, and so do
# `set_learning_rate` and `FactorScheduler(step=3)`, whose rates are PyTorch's; the
# docstring's formula would drop one batch early, and `step=1` drops at every update:

# %%
assert drops(pt_epoch) == [4, 7, 10]                              # first batch of epochs 2–4
assert drops(epoch_rates["FactorScheduler(step=3)"]) == [4, 7, 10]
assert drops(epoch_rates["docstring formula, step=3"]) == [3, 6, 9, 12]
assert drops(epoch_rates["FactorScheduler(step=1)"]) == list(range(2, 13))
compare.assert_same(epoch_rates["FactorScheduler(step=3)"], pt_epoch, rtol=1e-15, atol=0)
compare.assert_same(epoch_rates["set_learning_rate"], pt_epoch, rtol=1e-12, atol=0)
assert "base_lr * pow(factor, floor(num_update/step))" in mx.lr_scheduler.FactorScheduler.__doc__
"StepLR per epoch == FactorScheduler(step=batches per epoch) == set_learning_rate per epoch"

# %% [markdown]
# ## What this means for a port
#
# - **Nesterov with weight decay** cannot be matched step for step by `nesterov=True`: MXNet's
#   `"nag"` decays the weight it has just updated. The difference is small (the weight-decay
#   term of one step); accept it, or replay the kernel as in §1.
# - **Adam** moves weights whose gradients are near `ε` by much less in MXNet than in PyTorch
#   at the first steps (§2) — on a real network that is enough to part the runs (the deep
#   dive [Adam on a VAE](optim_adam_vae.ipynb)). Use `"torchadam"` for PyTorch's steps, or
#   `mxnet_adam_settings` for MXNet's.
# - **RMSProp** needs `alpha = gamma1` (and the same rate: the defaults differ), **Adagrad**
#   agrees without weight decay (with it, MXNet's decay is far stronger, §5), **Adadelta**
#   needs `eps=1e-5`, `lr=1.0` and no weight decay in PyTorch — or `"torchadadelta"` in
#   Gluon, which also runs in float64 (§3, §4).
# - **Schedules**: the step-wise ones map one to one; MXNet's cosine is one update ahead
#   (§6). Per epoch, `FactorScheduler(step=batches per epoch)` or `set_learning_rate` at the
#   start of each epoch; not `step=1`, and not the docstring's formula (§7).
