# %% [markdown]
# # 10 · Losses: `gluon.loss` next to `torch.nn`
#
# **What you will learn**
#
# - each PyTorch loss next to its Gluon loss — cross-entropy in its three spellings, with
#   `ignore_index` and label smoothing, binary cross-entropy with `pos_weight`, L1, MSE,
#   Huber and KL divergence — every value reproduced both ways in float64;
# - what differs: one loss per sample instead of a `reduction`, the ½ in `L2Loss`, what
#   `from_logits` means, probabilities of exactly 0 and 1;
# - how close the two agree in float32.
#
# **Prerequisites**: [notebook 2](02_tensor_ops.ipynb) (tensors and their dtypes) and
# [notebook 3](03_mnist_mlp.ipynb) (a loss in a training loop). **Time**: about 25 minutes.

# %% tags=["nbval-ignore-output"]
import warnings

import mxnet as mx
import numpy as np
import torch
import torch.nn.functional as F
from mxnet import autograd, gluon

from sidebyside import compare, devices, errors, seeding

SEED = seeding.seed_everything(0)
devs = devices.pick()
pt_dev, mx_ctx = devs.torch.device, devs.mxnet.device
devs

# %% [markdown]
# ## 1. Cross-entropy: from logits, from log-probabilities, from class probabilities
#
# A loss takes `(prediction, target)` in this order on both sides — the metrics of
# [notebook 11](11_metrics.ipynb) do not. Eight samples over five classes, in float64, with class indices as targets and, for
# the third spelling, a class distribution per sample. `mx.nd.array` makes float32 from any
# NumPy array unless told otherwise ([notebook 2](02_tensor_ops.ipynb)), hence `n()`; `agree()` compares a value
# from either library with one from the other.

# %%
loss_rng = np.random.default_rng(10)
N, C, T = 8, 5, 3                                   # samples, classes, sequence steps (§2)
logits = loss_rng.standard_normal((N, C))
labels = loss_rng.integers(0, C, N)
probs = loss_rng.dirichlet(np.ones(C), N)           # each row sums to 1
t = torch.from_numpy


def n(array):
    return mx.nd.array(array, dtype="float64")


def agree(a, b, tol=1e-12):
    """Assert that two losses (tensors, NDArrays, numbers) agree elementwise within tol."""
    a, b = (np.reshape(compare.to_numpy(v), -1) for v in (a, b))
    return compare.assert_same(a, b, atol=tol, check_dtype=False)

# %% [markdown]
# **PyTorch**: `nll_loss` takes log-probabilities; `CrossEntropyLoss` takes logits, and
# class indices or class probabilities. Each with its `reduction` (§2):

# %% tags=["nbval-ignore-output", "pytorch"]
def pt_ce(reduction="mean"):
    return {
        "log_softmax + nll_loss": F.nll_loss(F.log_softmax(t(logits), dim=1), t(labels),
                                             reduction=reduction),
        "CrossEntropyLoss, indices": torch.nn.CrossEntropyLoss(reduction=reduction)(
            t(logits), t(labels)),
        "CrossEntropyLoss, probabilities": torch.nn.CrossEntropyLoss(reduction=reduction)(
            t(logits), t(probs))}


pt_ce()

# %% [markdown]
# **Gluon**: one class, `SoftmaxCrossEntropyLoss` (alias `SoftmaxCELoss`), and one loss per
# sample. Its `from_logits=True` means "the input is already log-probabilities" — the input
# of PyTorch's `nll_loss`, not logits — and `sparse_label=False` takes class probabilities.
# The check, both ways: PyTorch's loss is the mean of Gluon's, and Gluon's losses are
# PyTorch's with `reduction="none"`. A port that gets `from_logits` wrong one way loses
# nothing (log-softmax of log-probabilities changes nothing); the other way, logits into
# `nll_loss` or `from_logits=True`, computes another number.

# %% tags=["gluon"]
mx_ce = {
    "log_softmax + nll_loss": gluon.loss.SoftmaxCrossEntropyLoss(from_logits=True)(
        mx.nd.log_softmax(n(logits)), n(labels)),
    "CrossEntropyLoss, indices": gluon.loss.SoftmaxCrossEntropyLoss()(n(logits), n(labels)),
    "CrossEntropyLoss, probabilities": gluon.loss.SoftmaxCrossEntropyLoss(
        sparse_label=False)(n(logits), n(probs))}
{key: loss.shape for key, loss in mx_ce.items()}

# %%
for key, per_sample in mx_ce.items():
    agree(pt_ce()[key], per_sample.mean())            # PyTorch's value from Gluon's loss
    agree(pt_ce("none")[key], per_sample)             # Gluon's value from PyTorch's loss
    assert per_sample.shape == (N,) and pt_ce()[key].shape == ()
twice = gluon.loss.SoftmaxCrossEntropyLoss()(mx.nd.log_softmax(n(logits)), n(labels))
agree(twice, mx_ce["CrossEntropyLoss, indices"])
not_normalised = gluon.loss.SoftmaxCrossEntropyLoss(from_logits=True)(n(logits), n(labels))
agree(not_normalised, F.nll_loss(t(logits), t(labels), reduction="none"))
logits_as_log_probs = F.nll_loss(t(logits), t(labels))
assert abs(logits_as_log_probs.item() - pt_ce()["CrossEntropyLoss, indices"].item()) > 0.1
"three spellings, each equal both ways within 1e-12; log-softmax twice is harmless"

# %% [markdown]
# ## 2. `reduction` against one loss per sample
#
# PyTorch reduces to one number by default (`reduction="mean"`), or `"sum"`, or none. Gluon
# has no `reduction`: each loss returns one value per sample, the **mean over all the
# non-batch axes**. The difference shows on sequences — eight of three steps each — where
# PyTorch also wants the classes on dim 1 (hence the `permute`) and Gluon on the last axis
# (`axis=-1`). Without the `permute`, PyTorch takes the three steps for classes and raises
# (the check's last line).
#
# **PyTorch**

# %% tags=["pytorch"]
seq_logits = loss_rng.standard_normal((N, T, C))
seq_labels = loss_rng.integers(0, C, (N, T))
x_pt = t(seq_logits).requires_grad_()
pt_seq = {r: F.cross_entropy(x_pt.permute(0, 2, 1), t(seq_labels), reduction=r)
          for r in ("mean", "sum", "none")}
pt_seq["mean"].backward()
{r: tuple(loss.shape) for r, loss in pt_seq.items()}

# %% [markdown]
# **Gluon**: `backward()` on the per-sample losses is the gradient of their **sum**.

# %% tags=["gluon"]
x_mx = n(seq_logits)
x_mx.attach_grad()
with autograd.record():
    mx_seq = gluon.loss.SoftmaxCrossEntropyLoss()(x_mx, n(seq_labels))
mx_seq.backward()
mx_seq.shape

# %% [markdown]
# **Check**: Gluon's loss is PyTorch's `"none"` averaged over the steps; PyTorch's `"mean"`
# is Gluon's `.mean()`, and its `"sum"` is Gluon's `.sum()` times the `T` steps that Gluon
# averaged away. Gluon's gradient divided by the batch size is PyTorch's gradient of the
# mean — and dividing by the batch size is what `trainer.step(batch_size)` does before the
# update ([notebook 8](08_optimizers_trainer.ipynb) §6). So a per-sample loss with `step(batch_size)` is PyTorch's default
# `"mean"`; a PyTorch `"sum"` ports as `loss.sum()` (times the averaged-away size) with
# `step(1)`.

# %%
agree(pt_seq["none"].mean(dim=1), mx_seq)                  # Gluon's from PyTorch's
agree(pt_seq["mean"], mx_seq.mean())                       # PyTorch's "mean" from Gluon's
agree(pt_seq["sum"], mx_seq.sum() * T)                     # ... and its "sum"
agree(x_pt.grad, x_mx.grad / N, tol=1e-15)                 # backward + step(N) = "mean"
assert errors.catch(F.cross_entropy, t(seq_logits), t(seq_labels)).type == "RuntimeError"
"'none' averaged over T = Gluon's; 'mean' = .mean(); 'sum' = .sum() × T; step(N) ⇔ 'mean'"

# %% [markdown]
# ## 3. `ignore_index` and `label_smoothing`, by hand in Gluon
#
# PyTorch's `CrossEntropyLoss` has both as arguments; Gluon's has neither. Three of the
# eight targets set to `-100`, PyTorch's default `ignore_index`, and a smoothing of 0.1.
#
# **PyTorch**: the mean with `ignore_index` divides by the number of targets **kept** (5),
# not by the batch (8).

# %% tags=["nbval-ignore-output", "pytorch"]
masked = labels.copy()
masked[[1, 4, 5]] = -100
pt_special = {"ignore_index": F.cross_entropy(t(logits), t(masked), ignore_index=-100),
              "label_smoothing": F.cross_entropy(t(logits), t(labels), label_smoothing=0.1)}
pt_special

# %% [markdown]
# **Gluon**: `ignore_index` is a 0/1 `sample_weight` shaped `(N, 1)` — the shape of the
# losses before Gluon's averaging — and a sum divided by the count kept. Label smoothing is
# a dense target, `(1 − ε)·one_hot + ε/C`, with `sparse_label=False`. A `sample_weight`
# of shape `(N,)` instead of `(N, 1)` raises nothing: it broadcasts against the `(N, 1)`
# losses into an `(N, N)` matrix, and every loss comes out multiplied by the *mean* weight
# (the check's last line).

# %% tags=["gluon"]
keep = n(masked != -100)                                     # 1 = a target, 0 = ignored
ce = gluon.loss.SoftmaxCrossEntropyLoss()
ignored = ce(n(logits), n(masked) * keep, keep.reshape((-1, 1)))   # -100 × 0: a valid index
smooth_target = mx.nd.one_hot(n(labels), C, dtype="float64") * (1 - 0.1) + 0.1 / C
smoothed = gluon.loss.SoftmaxCrossEntropyLoss(sparse_label=False)(n(logits), smooth_target)
mx_special = {"ignore_index": ignored.sum() / keep.sum(), "label_smoothing": smoothed.mean()}

# %%
for key in pt_special:
    agree(pt_special[key], mx_special[key])                   # PyTorch's from Gluon's
agree(F.cross_entropy(t(logits), t(masked), reduction="none"), ignored)   # 0 where ignored
agree(F.cross_entropy(t(logits), t(labels), label_smoothing=0.1, reduction="none"), smoothed)
assert ignored.mean().asscalar() < pt_special["ignore_index"].item()       # ÷ 8, not ÷ 5
flat_weight = ce(n(logits), n(masked) * keep, keep)                        # shape (N,)
agree(flat_weight, ce(n(logits), n(masked) * keep) * keep.mean())
"ignore_index: a 0/1 sample_weight of shape (N, 1), summed ÷ kept; smoothing: a dense target"

# %% [markdown]
# ## 4. Binary cross-entropy, `pos_weight`, and probabilities of exactly 0 and 1
#
# Eight samples with three binary outputs each, and a weight for the positives of each
# output.
#
# **PyTorch**: `BCELoss` takes probabilities, `BCEWithLogitsLoss` logits (and `pos_weight`).

# %% tags=["nbval-ignore-output", "pytorch"]
bin_logits = loss_rng.standard_normal((N, 3))
bin_targets = (loss_rng.random((N, 3)) > 0.5).astype(np.float64)
pos_weight = np.array([0.5, 2.0, 3.0])


def pt_bce(reduction="mean"):
    with_logits = torch.nn.BCEWithLogitsLoss(reduction=reduction)
    weighted = torch.nn.BCEWithLogitsLoss(pos_weight=t(pos_weight), reduction=reduction)
    return {"BCELoss": torch.nn.BCELoss(reduction=reduction)(torch.sigmoid(t(bin_logits)),
                                                              t(bin_targets)),
            "BCEWithLogitsLoss": with_logits(t(bin_logits), t(bin_targets)),
            "pos_weight": weighted(t(bin_logits), t(bin_targets))}


pt_bce()

# %% [markdown]
# **Gluon**: one class, `SigmoidBinaryCrossEntropyLoss` (alias `SigmoidBCELoss`), with
# `from_sigmoid=True` for probabilities. `pos_weight` is an argument of its `forward`, and
# a Gluon block takes positional arguments only: it comes fourth, after `sample_weight`
# (`None`); as a keyword it raises a `TypeError`. Gluon averages over the three outputs, and
# `from_sigmoid=True` adds 1e-12 inside each log: hence a bound of 1e-10 for `BCELoss` in the
# check, both ways.

# %% tags=["gluon"]
mx_bce = {
    "BCELoss": gluon.loss.SigmoidBCELoss(from_sigmoid=True)(mx.nd.sigmoid(n(bin_logits)),
                                                            n(bin_targets)),
    "BCEWithLogitsLoss": gluon.loss.SigmoidBCELoss()(n(bin_logits), n(bin_targets)),
    "pos_weight": gluon.loss.SigmoidBCELoss()(n(bin_logits), n(bin_targets), None,
                                              n(pos_weight))}
{key: loss.shape for key, loss in mx_bce.items()}

# %%
for key, per_sample in mx_bce.items():
    tol = 1e-10 if key == "BCELoss" else 1e-12
    agree(pt_bce()[key], per_sample.mean(), tol)             # PyTorch's from Gluon's
    agree(pt_bce("none")[key].mean(dim=1), per_sample, tol)  # Gluon's from PyTorch's
keyword = errors.catch(gluon.loss.SigmoidBCELoss(), n(bin_logits), n(bin_targets),
                       pos_weight=n(pos_weight))
assert keyword.type == "TypeError"
"BCELoss ⇔ from_sigmoid=True; BCEWithLogitsLoss, pos_weight too ⇔ SigmoidBCELoss()"

# %% [markdown]
# **At exactly 0 and 1.** PyTorch's `BCELoss` clamps each log at −100, so a confident wrong
# probability costs 100. Gluon's `from_sigmoid=True` computes `log(p + 1e-12)` and
# `log(1 − p + 1e-12)` (`mxnet/gluon/loss.py`), so it costs −log(1e-12) ≈ 27.6, and a
# right one −1e-12 rather than 0. Four predictions, wrong and right, one output each. The
# check rebuilds each library's values with the other's arithmetic — the clamp written in
# MXNet, the 1e-12 written in PyTorch — and, as Gluon averages over the non-batch axes, the
# four as one sample of four outputs give their mean.

# %% tags=["nbval-ignore-output"]
edge_p = np.array([[0.0], [1.0], [1.0], [0.0]])
edge_y = np.array([[1.0], [1.0], [0.0], [0.0]])
edge = {"PyTorch BCELoss": F.binary_cross_entropy(t(edge_p), t(edge_y),
                                                  reduction="none").flatten(),
        "Gluon from_sigmoid=True": gluon.loss.SigmoidBCELoss(from_sigmoid=True)(
            n(edge_p), n(edge_y))}
edge

# %%
pt_edge = edge["PyTorch BCELoss"]
mx_edge = edge["Gluon from_sigmoid=True"].asnumpy()
assert pt_edge.tolist() == [100, 0, 100, 0]                        # the clamp: exactly 100
agree(mx_edge[[0, 2]], [-np.log(1e-12)] * 2)
agree(mx_edge[[1, 3]], [0, 0], tol=2e-12)
p, y = n(edge_p), n(edge_y)
clamped = -(y * mx.nd.maximum(mx.nd.log(p), -100)
            + (1 - y) * mx.nd.maximum(mx.nd.log(1 - p), -100))
agree(clamped, pt_edge)                                            # PyTorch's, in MXNet
with_eps = -(t(edge_y) * torch.log(t(edge_p) + 1e-12)
             + (1 - t(edge_y)) * torch.log(1 - t(edge_p) + 1e-12))
agree(with_eps, mx_edge)                                           # Gluon's, in PyTorch
one_sample = gluon.loss.SigmoidBCELoss(from_sigmoid=True)(p.reshape((1, 4)), y.reshape((1, 4)))
agree(one_sample, mx_edge.mean())
"a confident mistake: 100 in PyTorch (log clamped at -100), -log(1e-12) in Gluon"

# %% [markdown]
# ## 5. L1; MSE against `L2Loss`; SmoothL1 and Huber against `HuberLoss`
#
# Gluon's `L2Loss` is **half** the squared error: ½·MSE. Gluon's `HuberLoss(rho)` is
# `d²/(2·rho)` below `rho` and `|d| − rho/2` above: PyTorch's `SmoothL1Loss(beta=rho)`.
# PyTorch's `HuberLoss(delta=rho)` is that times `rho`; with the defaults (all 1) the three
# agree. Eight samples of four outputs, errors on both sides of `rho = 0.5`:
#
# **PyTorch**

# %% tags=["nbval-ignore-output", "pytorch"]
pred = loss_rng.standard_normal((N, 4)) * 2
true = loss_rng.standard_normal((N, 4))
RHO = 0.5


def pt_reg(reduction="mean"):
    return {"L1Loss": F.l1_loss(t(pred), t(true), reduction=reduction),
            "MSELoss": F.mse_loss(t(pred), t(true), reduction=reduction),
            "SmoothL1Loss(beta=rho)": F.smooth_l1_loss(t(pred), t(true), beta=RHO,
                                                       reduction=reduction),
            "HuberLoss(delta=rho)": F.huber_loss(t(pred), t(true), delta=RHO,
                                                 reduction=reduction)}


pt_reg()

# %% [markdown]
# **Gluon**, and the factor that takes PyTorch's loss to Gluon's (a `weight=` in Gluon's
# constructor multiplies the loss, so `L2Loss(weight=2)` is the MSE):

# %% tags=["gluon"]
mx_reg = {"L1Loss": gluon.loss.L1Loss()(n(pred), n(true)),
          "MSELoss": gluon.loss.L2Loss()(n(pred), n(true)),
          "SmoothL1Loss(beta=rho)": gluon.loss.HuberLoss(rho=RHO)(n(pred), n(true)),
          "HuberLoss(delta=rho)": gluon.loss.HuberLoss(rho=RHO)(n(pred), n(true))}
FACTOR = {"L1Loss": 1, "MSELoss": 1 / 2, "SmoothL1Loss(beta=rho)": 1,
          "HuberLoss(delta=rho)": 1 / RHO}

# %%
for key, per_sample in mx_reg.items():
    agree(pt_reg()[key], per_sample.mean() / FACTOR[key])             # PyTorch's from Gluon's
    agree(pt_reg("none")[key].mean(dim=1) * FACTOR[key], per_sample)  # Gluon's from PyTorch's
distance = np.abs(pred - true)
assert (distance < RHO).any() and (distance > RHO).any()             # both branches
agree(F.huber_loss(t(pred), t(true)), gluon.loss.HuberLoss()(n(pred), n(true)).mean())
agree(F.mse_loss(t(pred), t(true)), gluon.loss.L2Loss(weight=2)(n(pred), n(true)).mean())
agree(F.huber_loss(t(pred), t(true), delta=RHO),
      gluon.loss.HuberLoss(rho=RHO, weight=RHO)(n(pred), n(true)).mean())
"L1 = L1; L2Loss = ½·MSE; HuberLoss(rho) = SmoothL1Loss(beta=rho) = HuberLoss(delta=rho)/rho"

# %% [markdown]
# ## 6. KL divergence, and the map in float32
#
# Both take the model's **log-probabilities** first and the target distribution second.
# Gluon's `KLDivLoss` defaults to `from_logits=True` — again "log-probabilities"; with
# `from_logits=False` it applies `log_softmax` itself. Its target is always probabilities,
# where PyTorch's `log_target=True` takes log-probabilities. And unlike its other losses,
# Gluon's `KLDivLoss` **sums** over the non-batch axes (`F.sum(loss, axis=batch_axis,
# exclude=True)` in its source): one divergence per sample, PyTorch's
# `reduction="batchmean"`. PyTorch's default `"mean"` divides by the number of elements,
# `N·C`, and PyTorch warns about it.
#
# **PyTorch**

# %% tags=["nbval-ignore-output", "pytorch"]
log_q = F.log_softmax(t(logits), dim=1)
with warnings.catch_warnings(record=True) as kl_warnings:
    warnings.simplefilter("always")
    pt_kl = {"batchmean": torch.nn.KLDivLoss(reduction="batchmean")(log_q, t(probs)),
             "batchmean, log_target=True": torch.nn.KLDivLoss(
                 reduction="batchmean", log_target=True)(log_q, t(np.log(probs))),
             "mean (the default)": torch.nn.KLDivLoss()(log_q, t(probs))}
pt_kl

# %% [markdown]
# **Gluon**. It adds 1e-12 inside `log(target)`, so each sample's divergence comes out
# `C·1e-12` larger (five classes: 5e-12); hence a bound of 1e-10 in the check, both ways:

# %% tags=["gluon"]
mx_kl = {"from_logits=True": gluon.loss.KLDivLoss()(mx.nd.log_softmax(n(logits)), n(probs)),
         "from_logits=False": gluon.loss.KLDivLoss(from_logits=False)(n(logits), n(probs))}

# %%
pt_kl_per_sample = F.kl_div(log_q, t(probs), reduction="none").sum(dim=1)
for per_sample in mx_kl.values():
    agree(pt_kl["batchmean"], per_sample.mean(), tol=1e-10)   # PyTorch's from Gluon's
    agree(pt_kl_per_sample, per_sample, tol=1e-10)            # Gluon's from PyTorch's
    agree(per_sample.asnumpy() - pt_kl_per_sample.numpy(), [C * 1e-12] * N, tol=1e-13)
agree(pt_kl["batchmean, log_target=True"], pt_kl["batchmean"])
agree(pt_kl["mean (the default)"] * C, pt_kl["batchmean"])
assert ["batchmean" in str(w.message) for w in kl_warnings] == [True]   # PyTorch warns
"KLDivLoss(reduction='batchmean') ⇔ Gluon's KLDivLoss().mean(); Gluon sums over classes"

# %% [markdown]
# **In float32** the same pairs agree to a few 1e-6 of the loss at worst, rather than
# 1e-15, and Gluon's 1e-12 vanishes wherever it is added to a number near 1 (`1 + 1e-12` is 1 in
# float32). Added to an exact 0 it stays: the 27.6 of §4 holds in float32 too. The largest
# difference per pair, relative to the largest loss:

# %% tags=["nbval-ignore-output"]
def f32(array):
    return torch.from_numpy(array.astype(np.float32))


def m32(array):
    return mx.nd.array(array, dtype="float32")


in_float32 = {  # (PyTorch, Gluon): one loss per sample each
    "CrossEntropyLoss": (F.cross_entropy(f32(logits), t(labels), reduction="none"),
                         gluon.loss.SoftmaxCrossEntropyLoss()(m32(logits), m32(labels))),
    "BCELoss": (F.binary_cross_entropy(torch.sigmoid(f32(bin_logits)), f32(bin_targets),
                                       reduction="none").mean(dim=1),
                gluon.loss.SigmoidBCELoss(from_sigmoid=True)(mx.nd.sigmoid(m32(bin_logits)),
                                                             m32(bin_targets))),
    "BCEWithLogitsLoss": (F.binary_cross_entropy_with_logits(
        f32(bin_logits), f32(bin_targets), reduction="none").mean(dim=1),
        gluon.loss.SigmoidBCELoss()(m32(bin_logits), m32(bin_targets))),
    "MSELoss / 2": (F.mse_loss(f32(pred), f32(true), reduction="none").mean(dim=1) / 2,
                    gluon.loss.L2Loss()(m32(pred), m32(true))),
    "KLDivLoss": (F.kl_div(F.log_softmax(f32(logits), dim=1), f32(probs),
                           reduction="none").sum(dim=1),
                  gluon.loss.KLDivLoss()(mx.nd.log_softmax(m32(logits)), m32(probs)))}
relative = {key: compare.max_abs_diff(a, b) / float(a.abs().max())
            for key, (a, b) in in_float32.items()}
relative

# %%
assert all(r <= 1e-5 for r in relative.values())
edge32 = gluon.loss.SigmoidBCELoss(from_sigmoid=True)(m32(edge_p), m32(edge_y)).asnumpy()
assert edge32[[1, 3]].tolist() == [0, 0]                     # 1 + 1e-12 == 1 in float32
assert np.allclose(edge32[[0, 2]], -np.log(1e-12), rtol=1e-6)
"float32: the same map within 1e-5 of the loss; the 1e-12 survives only next to an exact 0"

# %% [markdown]
# ## Summary
#
# Every Gluon loss returns one value per sample; call it with positional arguments only.
#
# | PyTorch | Gluon | porting PyTorch → Gluon | porting Gluon → PyTorch |
# |---|---|---|---|
# | `CrossEntropyLoss()(logits, y)` | `SoftmaxCrossEntropyLoss()(logits, y)` | `.mean()` of Gluon's losses | `reduction="none"` for Gluon's losses |
# | `nll_loss(log_softmax(x, dim=1), y)` | `SoftmaxCrossEntropyLoss(from_logits=True)(nd.log_softmax(x), y)` | `nll_loss` ⇒ `from_logits=True`, which means log-probabilities, not logits | `from_logits=True` ⇒ `nll_loss` |
# | `CrossEntropyLoss()(logits, p)`, `p` class probabilities | `SoftmaxCrossEntropyLoss(sparse_label=False)(logits, p)` | `sparse_label=False` | pass `p` as a float target |
# | classes on dim 1: `(N, C, T)` | classes on `axis=-1`: `(N, T, C)` | drop the `permute` (or `axis=1`) | `permute` the classes to dim 1 |
# | `reduction="mean"`, `"sum"`, `"none"` | one loss per sample: the mean over the non-batch axes | `"mean"`: per-sample losses with `step(batch_size)`, or `.mean()` with `step(1)`; `"sum"`: `.sum()` × the non-batch size, `step(1)` | per-sample losses: `"none"` averaged over the non-batch axes; with `step(batch_size)`: `"mean"` ([notebook 8](08_optimizers_trainer.ipynb) §6) |
# | `ignore_index=-100` | — | a 0/1 `sample_weight` of shape `(N, 1)`, not `(N,)`; `.sum()` ÷ the count kept | a 0/1 mask ⇒ `ignore_index` (mark the masked targets `-100`) |
# | `label_smoothing=ε` | — | target `one_hot·(1 − ε) + ε/C` with `sparse_label=False` | such a target ⇒ `label_smoothing=ε` |
# | `BCELoss()(probabilities, y)` | `SigmoidBCELoss(from_sigmoid=True)` | a probability of exactly 0 or 1 on the wrong side costs −log(1e-12) ≈ 27.6, not 100 | it costs 100 (each log clamped at −100) |
# | `BCEWithLogitsLoss(pos_weight=w)` | `SigmoidBCELoss()(x, y, None, w)` | `pos_weight` is the 4th positional argument of the call; a keyword raises | `pos_weight=` in the constructor; `BCELoss` has none |
# | `L1Loss` | `L1Loss` | the same | the same |
# | `MSELoss` | `L2Loss`, **½·MSE** | halve, or `L2Loss(weight=2)` for the MSE | double, or `mse_loss / 2` for Gluon's |
# | `SmoothL1Loss(beta=ρ)`; `HuberLoss(delta=ρ)` = ρ·SmoothL1 | `HuberLoss(rho=ρ)` | `SmoothL1Loss(beta=ρ)` ⇒ `HuberLoss(rho=ρ)`; `HuberLoss(delta=ρ)` ⇒ `HuberLoss(rho=ρ, weight=ρ)` | `HuberLoss(rho=ρ)` ⇒ `SmoothL1Loss(beta=ρ)` |
# | `KLDivLoss(reduction="batchmean")(log_q, p)` | `KLDivLoss()(log_q, p)`: a **sum** over classes | `.mean()`; `log_target=True` ⇒ pass `exp` of the target | `reduction="batchmean"`: the default `"mean"` divides by N·C |
#
# Measured here in float64, every pair agrees to 1e-12 or better, except where Gluon adds
# 1e-12 inside a log (`from_sigmoid=True`, `KLDivLoss`): there they differ by a few 1e-12. In
# float32 they agree to a few 1e-6 of the loss at worst (§6).
#
# ### What the seed articles said, checked
#
# | seed claim | verdict | shown in |
# |---|---|---|
# | `CrossEntropyLoss()` ↔ `SoftmaxCrossEntropyLoss()`, defined in `loss.py` | confirmed, once Gluon's per-sample losses are averaged | §1, §2 |
#
# ## Exercises
#
# 1. Padded sequences: labels `(N, T)` with `-100` at the padded steps. Write the Gluon loss
#    that gives `F.cross_entropy(x.permute(0, 2, 1), y, ignore_index=-100)`. What shape must
#    `sample_weight` have, and what do you divide the sum by?
# 2. `CrossEntropyLoss(weight=w)` weighs each class, and its mean divides by the summed
#    weights of the targets. Reproduce it with Gluon's `sample_weight`, both ways.

# %% [markdown]
# :::{dropdown} Solutions
# 1. Gluon's loss, before it averages, has shape `(N, T, 1)`, so the weight must be
#    `(N, T, 1)`. Multiply the sum by `T` (Gluon averaged over the steps) and divide by the
#    number of steps kept:
#    ```python
#    keep = n(y != -100)
#    per_sample = gluon.loss.SoftmaxCrossEntropyLoss()(n(x), n(y) * keep, keep.expand_dims(-1))
#    loss = per_sample.sum() * T / keep.sum()
#    ```
#    Measured with 5 of the 24 steps padded: equal to PyTorch's to 0.0 in float64. A weight of
#    shape `(N, T)` fails here ("operands could not be broadcast together with shapes
#    [8,3,1] [8,3]"). `per_sample.mean()` (÷ N·T) is off by 0.38.
# 2. Use a per-sample weight `w[y]`: `sw = n(w[labels]).reshape((-1, 1))` and
#    `l = ce(n(logits), n(labels), sw)`. Then `reduction="none"` is `l`, `"sum"` is `l.sum()`
#    and `"mean"` is `l.sum() / sw.sum()`, not `l.mean()`. Each is equal to PyTorch's in
#    float64 (difference 0.0). With `ignore_index` as well, set the ignored samples' weight
#    to 0, and they drop out of both sums (also 0.0).
# :::
