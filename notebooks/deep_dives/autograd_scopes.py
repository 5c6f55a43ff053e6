# %% [markdown]
# # Deep dive · Scopes in detail: running statistics, a PyTorch scope, inference tensors, threads
#
# This page deepens [notebook 5](../05_autograd.ipynb) §2 (*Scopes: training or predicting,
# recording or not*) with five details a port meets later: when BatchNorm's running
# statistics move (§1); MXNet's `train_mode()` / `predict_mode()` written as a PyTorch
# context manager (§2); what PyTorch's `inference_mode()` adds to `no_grad()`, which
# MXNet's `pause()` lacks (§3); what the seed article's scope example really does (§4); and
# that every scope belongs to the thread that opened it, in both frameworks (§5). The probe
# is the fixed 4×3 batch of [notebook 5](../05_autograd.ipynb) §2. **Time**: about 15 minutes.

# %% tags=["nbval-ignore-output"]
import contextlib
import threading

import mxnet as mx
import numpy as np
import torch
from mxnet import autograd, gluon, nd

from sidebyside import compare, devices, errors, seeding

SEED = seeding.seed_everything(0)
devs = devices.pick()
pt_dev, mx_ctx = devs.torch.device, devs.mxnet.device
probe_x = np.arange(12, dtype=np.float32).reshape(4, 3)   # notebook 5's probe batch
print(f"torch {torch.__version__} · mxnet {mx.__version__}")

# %% [markdown]
# ## 1. Running statistics: updated by the forward pass, or by `backward()`?
#
# The two tables of scopes in [notebook 5](../05_autograd.ipynb) §2 agree on what the
# *outputs* are. They disagree on when BatchNorm's running statistics move. PyTorch
# updates them in every forward pass of a `train()` module — under `no_grad()` too. MXNet
# 1.9.1 updates them in the **backward** pass: a forward under `train_mode()` or
# `record()` alone leaves them where they were.

# %%
def pt_running_mean(scope):
    bn = torch.nn.BatchNorm1d(3).to(pt_dev).train()
    with scope():
        bn(torch.tensor(probe_x, device=pt_dev))
    return bn.running_mean.cpu().numpy()


def mx_running_mean(scope, backward=False):
    bn = gluon.nn.BatchNorm(in_channels=3)
    bn.initialize(ctx=mx_ctx)
    with scope():
        out = bn(nd.array(probe_x, ctx=mx_ctx))
    if backward:
        out.backward()
    return bn.running_mean.data().asnumpy()


moved = {
    "torch train(), forward": pt_running_mean(contextlib.nullcontext),
    "torch train(), forward in no_grad()": pt_running_mean(torch.no_grad),
    "mxnet train_mode(), forward": mx_running_mean(autograd.train_mode),
    "mxnet record(), forward": mx_running_mean(autograd.record),
    "mxnet record(), forward + backward": mx_running_mean(autograd.record, True),
}
{scope: "moved" if mean.any() else "unchanged" for scope, mean in moved.items()}

# %% [markdown]
# **Check**: the batch's column means are 4.5, 5.5, 6.5; both momenta weigh them by 0.1
# (Gluon's `momentum=0.9` is the weight of the *old* value, PyTorch's `momentum=0.1` that of
# the new one).

# %%
expected = 0.1 * probe_x.mean(axis=0)      # 0.45, 0.55, 0.65
assert np.allclose(moved["torch train(), forward"], expected, atol=1e-6)
assert np.allclose(moved["torch train(), forward in no_grad()"], expected, atol=1e-6)
assert not moved["mxnet train_mode(), forward"].any()
assert not moved["mxnet record(), forward"].any()
assert np.allclose(moved["mxnet record(), forward + backward"], expected, atol=1e-6)
"both move by 0.1 × the batch mean — PyTorch in the forward pass, MXNet in backward()"

# %% [markdown]
# The two BatchNorms also differ in *what* they fold in (momentum written the other way
# round, unbiased against biased variance): those are layer defaults, measured in
# [notebook 6](../06_blocks.ipynb) §3.


# %% [markdown]
# ## 2. A training scope for PyTorch, in a few lines
#
# The seed says PyTorch has "no equivalent" of MXNet's scope overrides. True for a *scope*
# in the core API, but the behaviour is one small context manager away. The probe is a
# `train()` model of a BatchNorm over 3 features and a Dropout(0.5), fed the 4×3
# batch: predicting, BatchNorm uses its fresh running statistics (mean 0, variance 1) and
# Dropout is the identity, so the output is `x / √(1 + ε)`.

# %%
@contextlib.contextmanager
def torch_mode(model, training):
    """Like MXNet's train_mode()/predict_mode(), for one PyTorch model."""
    before = {m: m.training for m in model.modules()}
    model.train(training)
    try:
        yield model
    finally:
        for m, flag in before.items():
            m.training = flag


pt_model = torch.nn.Sequential(torch.nn.BatchNorm1d(3), torch.nn.Dropout(0.5)).to(pt_dev)
pt_model.train()
pt_in = torch.tensor(probe_x, device=pt_dev)
with torch_mode(pt_model, False), torch.no_grad():      # ≈ autograd.pause()
    pt_inside = pt_model(pt_in)
{"inside: predicting": bool(torch.allclose(pt_inside, pt_in / np.sqrt(1 + 1e-5))),
 "after: every module back in train()": all(m.training for m in pt_model.modules())}

# %% [markdown]
# **Check**: the output inside the scope is the predicting one, the running statistics did
# not move, and every module is back in `train()` after it. Per call, both frameworks force
# a dropout outside any scope: `F.dropout(x, p, training=True)` and
# `nd.Dropout(x, p, mode='always')` zero some entries and double the rest.

# %%
compare.assert_same(pt_inside, pt_in / np.sqrt(1 + 1e-5), atol=1e-6)
assert not pt_model[0].running_mean.any()
assert all(m.training for m in pt_model.modules())
forced = {"torch": torch.nn.functional.dropout(torch.ones(1000), 0.5, training=True),
          "mxnet": nd.Dropout(nd.ones(1000, ctx=mx_ctx), p=0.5, mode="always")}
for name, out in forced.items():
    values = set(compare.to_numpy(out).tolist())
    assert values == {0.0, 2.0}, (name, values)
"torch_mode(model, False) ≈ predict_mode(); F.dropout(training=True) ≈ mode='always'"

# %% [markdown]
# ## 3. `no_grad()` against `inference_mode()`
#
# Both stop recording. `inference_mode()` goes further: its results are *inference tensors*,
# which autograd refuses to save later. MXNet's `pause()` has no such second tier: what was
# computed under it is an ordinary constant in a later `record()`.

# %%
pt_w = torch.ones(3, device=pt_dev, requires_grad=True)
with torch.no_grad():
    pt_feat_ng = torch.tensor(probe_x, device=pt_dev) * 2
with torch.inference_mode():
    pt_feat_im = torch.tensor(probe_x, device=pt_dev) * 2
(pt_feat_ng * pt_w).sum().backward()  # fine
{"no_grad result is inference": pt_feat_ng.is_inference(),
 "inference_mode result is inference": pt_feat_im.is_inference()}

# %%
mx_w3 = nd.ones(3, ctx=mx_ctx)
mx_w3.attach_grad()
with autograd.pause():
    mx_feat = nd.array(probe_x, ctx=mx_ctx) * 2
with autograd.record():
    mx_s = (mx_feat * mx_w3).sum()
mx_s.backward()
mx_w3.grad

# %% [markdown]
# **Check**: the `no_grad` and `pause` routes give the same gradient (the column sums of
# `2·x`); the `inference_mode` route raises.

# %%
inference_error = errors.catch(lambda: (pt_feat_im * pt_w).sum().backward())
assert (inference_error.type, inference_error.reason) == (
    "RuntimeError", "Inference tensors cannot be saved for backward")
compare.assert_same(pt_w.grad, mx_w3.grad, atol=0)
assert pt_w.grad.tolist() == (2 * probe_x).sum(axis=0).tolist()
str(inference_error)

# %% [markdown]
# ## 4. The seed's scope example, as written
#
# The seed illustrates the overrides with this MXNet cell (its PyTorch cell: "Not
# available"). Run as written, it runs:

# %%
x = mx.nd.ones((1,))
with autograd.train_mode():
    y = mx.nd.Dropout(x)
with autograd.predict_mode():
    z = mx.nd.Dropout(y)
w = mx.nd.ones((1,))
w.attach_grad()
with autograd.record():
    y = x * w
y.backward()
with autograd.pause():
    w = w.grad

# %% [markdown]
# but its last line does not do what it seems to set up. `w = w.grad` rebinds the *name*
# `w` to the gradient buffer (here `dy/dw = x = 1`); the weight array is not changed, only
# lost. And `pause()` has nothing to pause outside `record()`. What was presumably meant is
# an update of the weight, written in place so that `w` keeps its gradient buffer:

# %% tags=["nbval-ignore-output"]
mx_weight = mx.nd.ones((1,))
mx_weight.attach_grad()
with autograd.record():
    mx_prod = x * mx_weight
mx_prod.backward()
recording_outside = autograd.is_recording()
with autograd.pause():             # harmless, and needed only inside a record() scope
    mx_weight[:] = mx_weight - 0.1 * mx_weight.grad
{"seed: w is now": w.asnumpy().tolist(), "seed: w has a gradient": w.grad is not None,
 "fixed: mx_weight": mx_weight.asnumpy().tolist(), "fixed: has a gradient":
 mx_weight.grad is not None}

# %%
assert w.asnumpy().tolist() == [1.0] and w.grad is None     # w is a plain array now
assert recording_outside is False
assert mx_weight.grad is not None                             # still a parameter
assert abs(mx_weight.asscalar() - 0.9) < 1e-7
assert z.asnumpy().tolist() in ([0.0], [2.0])                 # predict_mode: z == y
"the seed's `w = w.grad` rebinds the name; an update writes into the weight"

# %% [markdown]
# ## 5. The scopes are per thread
#
# The scopes set flags of the *calling thread*. Code run in another thread — a thread
# pool that runs the forward passes of several devices, say — does not see a `record()`
# opened in the main thread, and nothing it computes is recorded. PyTorch's grad mode is
# per thread in the same way. The probe reads the flags and computes one product on each
# side, in the main thread inside `record()` and `no_grad()`, and in a second thread
# started from there:

# %%
seen, products = {}, {}
mx_tw = nd.ones(3, ctx=mx_ctx)
mx_tw.attach_grad()
pt_tw = torch.ones(3, device=pt_dev, requires_grad=True)


def probe_flags(where):
    seen[where] = {"mxnet recording": autograd.is_recording(),
                   "mxnet training": autograd.is_training(),
                   "torch grad enabled": torch.is_grad_enabled()}
    products[where] = ((mx_tw * 2).sum(), (pt_tw * 2).sum())


with autograd.record(), torch.no_grad():
    probe_flags("main thread")
    other = threading.Thread(target=probe_flags, args=("another thread",))
    other.start()
    other.join()
seen

# %% [markdown]
# **Check**: the second thread sees neither scope, so its MXNet product has no graph to
# differentiate, and its PyTorch product does (the main thread's is the other way round).

# %%
assert seen["main thread"] == {
    "mxnet recording": True, "mxnet training": True, "torch grad enabled": False}
assert seen["another thread"] == {
    "mxnet recording": False, "mxnet training": False, "torch grad enabled": True}
mx_main, pt_main = products["main thread"]
mx_other, pt_other = products["another thread"]
mx_main.backward()
compare.assert_same(mx_tw.grad, nd.array([2.0, 2.0, 2.0]), atol=0)
assert errors.catch(mx_other.backward).reason == (
    "Cannot differentiate node because it is not in a computational graph")
assert pt_other.requires_grad and not pt_main.requires_grad
"record() and no_grad() reach only the thread that opened them"

# %% [markdown]
# ## What this means for a port
#
# - A Gluon forward pass under `record()` or `train_mode()` moves BatchNorm's running
#   statistics only when `backward()` follows; a PyTorch `train()` forward moves them
#   always. A lockstep check that runs forward passes alone (an evaluation of the training
#   loss) sees the two sets of statistics drift apart.
# - MXNet's `train_mode()` / `predict_mode()` port to `model.train()` / `model.eval()`
#   (state, not a scope), or to a context manager like `torch_mode` when the code relies on
#   the scope ending; a per-call `mode='always'` ports to `F.dropout(..., training=True)`.
# - A PyTorch `inference_mode()` block ports to `autograd.pause()`; the reverse needs care:
#   a tensor made under `inference_mode()` cannot take part in a later backward pass, where
#   an MXNet array computed under `pause()` is an ordinary constant.
# - The seed's `with autograd.pause(): w = w.grad` updates nothing: write the update into
#   the weight, `w[:] = w - lr * w.grad` (a `Trainer` does that for a network).
# - Code that runs a forward pass in another thread (a thread pool over devices, a data
#   pipeline that computes) opens its own `record()` there: a scope of the main thread does
#   not reach it, in MXNet as in PyTorch.
