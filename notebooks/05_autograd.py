# %% [markdown]
# # 5 · Autograd: recording, scopes, gradient semantics and lazy evaluation
#
# **What you will learn**
#
# - how each framework decides what to record — PyTorch's `requires_grad` against MXNet's
#   `attach_grad()` + `autograd.record()` — and how the training/predicting scopes of MXNet
#   (`record`, `pause`, `train_mode`, `predict_mode`) map onto PyTorch's `model.train()` /
#   `model.eval()`, `torch.no_grad()` and `torch.inference_mode()` — and why, in MXNet 1.9.1,
#   `record(train_mode=False)` is no `model.eval()` for gradients;
# - what `.grad` holds after two `backward()` calls on each side (`grad_req='write'`, `'add'`,
#   `'null'`, `zero_grad`), and the gradient-accumulation recipe written correctly in both;
# - second-order gradients with `create_graph=True` (and which MXNet 1.9.1 operators cannot
#   do them), and MXNet's lazy evaluation: timings that measure nothing, errors that surface
#   lines later, and `MXNET_ENGINE_TYPE=NaiveEngine` to pin them down.
#
# Every claim is a cell that runs, followed by a cell that checks it. Cells whose output
# depends on the machine (devices, timings) are tagged `nbval-ignore-output`; cells meant to
# fail are tagged `raises-exception`.
#
# **Prerequisites**: [notebook 2](02_tensor_ops.ipynb) (tensors) and [notebook
# 3](03_mnist_mlp.ipynb) (a training step). **Time**: about 45 minutes.

# %% tags=["nbval-ignore-output"]
import contextlib
import copy
import json
import os
import re
import runpy
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
import warnings

import mxnet as mx
import numpy as np
import torch
from mxnet import autograd, gluon, nd
from torch.autograd import Variable

from sidebyside import compare, devices, errors, seeding, threads, timing, transfer

SEED = seeding.seed_everything(0)
devs = devices.pick()
pt_dev, mx_ctx = devs.torch.device, devs.mxnet.device
print(f"torch {torch.__version__} · mxnet {mx.__version__}")

# %% [markdown]
# ## 1. Recording a computation
#
# **PyTorch.** The seed articles still wrap tensors in `torch.autograd.Variable`. That class
# was merged into `Tensor` in PyTorch 0.4 (2018). In torch 2.14 the name still imports, but
# calling it just hands back a plain `torch.Tensor` — without a warning — and *every*
# tensor passes `isinstance(t, Variable)`:

# %%
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    pt_v = Variable(torch.ones(2), requires_grad=True)
{"warnings": [str(w.message) for w in caught],
 "type(Variable(...))": type(pt_v).__name__,
 "isinstance(torch.zeros(1), Variable)": isinstance(torch.zeros(1), Variable)}

# %%
assert type(pt_v) is torch.Tensor and pt_v.requires_grad
assert not caught  # not even a DeprecationWarning
assert isinstance(torch.zeros(1), Variable)  # the class only survives as a name

# %% [markdown]
# Today a tensor is marked with `requires_grad=True`; every operation on it is recorded
# (unless a `no_grad` scope says otherwise). `.grad` is `None` until the first `backward()`:

# %% tags=["pytorch"]
pt_x = torch.tensor([1.0, 2.0, 3.0], device=pt_dev, requires_grad=True)
pt_grad_before = pt_x.grad
pt_y = (pt_x ** 2).sum()
pt_y.backward()
pt_x.grad

# %% [markdown]
# **Gluon.** An NDArray gets a gradient buffer with `attach_grad()` (filled with zeros, not
# `None`), and only operations run inside `autograd.record()` are recorded:

# %% tags=["gluon"]
mx_x = nd.array([1.0, 2.0, 3.0], ctx=mx_ctx)
mx_x.attach_grad()
mx_grad_before = mx_x.grad.asnumpy().copy()
with autograd.record():
    mx_y = (mx_x ** 2).sum()
mx_y.backward()
mx_x.grad

# %% [markdown]
# **Check**: the same gradient `2x`; before `backward()` PyTorch has `None`, MXNet zeros.

# %%
compare.assert_same(pt_x.grad, mx_x.grad, atol=0)
assert pt_grad_before is None
assert mx_grad_before.tolist() == [0.0, 0.0, 0.0]
pt_x.grad.tolist()

# %% [markdown]
# ### Forgetting to record
#
# In MXNet, `backward()` on a result computed outside `record()` fails — there is no graph:

# %% tags=["raises-exception", "gluon"]
mx_z = nd.array([1.0, 2.0, 3.0], ctx=mx_ctx)
mx_z.attach_grad()
mx_loss = (mx_z * mx_z).sum()  # no autograd.record()
mx_loss.backward()

# %% [markdown]
# PyTorch's version of the mistake is forgetting `requires_grad`:

# %% tags=["raises-exception", "pytorch"]
pt_z = torch.tensor([1.0, 2.0, 3.0], device=pt_dev)  # no requires_grad=True
(pt_z * pt_z).sum().backward()

# %% [markdown]
# Worse is forgetting to record *part* of the forward pass. It does not fail: what ran
# outside `record()` is a constant, and the gradient is silently wrong. For `y = 2x · x` the
# derivative is `4x`; with the first product outside the scope MXNet returns `2x`:

# %%
mx_w = nd.array([1.0, 2.0, 3.0], ctx=mx_ctx)
mx_w.attach_grad()
mx_h = 2 * mx_w  # computed before the scope: not recorded
with autograd.record():
    mx_out = (mx_h * mx_w).sum()
mx_out.backward()
mx_w.grad

# %% [markdown]
# **Check**: both failures, caught, and the silent one compared with `4x`:

# %%
failures = {"mxnet, no record()": errors.catch(mx_loss.backward),
            "torch, no requires_grad": errors.catch((pt_z * pt_z).sum().backward)}
{label: (f.type, f.reason) for label, f in failures.items()}

# %%
assert failures["mxnet, no record()"].type == "MXNetError"
assert failures["mxnet, no record()"].reason == (
    "Cannot differentiate node because it is not in a computational graph")
assert failures["torch, no requires_grad"].type == "RuntimeError"
assert failures["torch, no requires_grad"].reason == (
    "element 0 of tensors does not require grad and does not have a grad_fn")
assert mx_w.grad.asnumpy().tolist() == [2.0, 4.0, 6.0]  # 2x: wrong
assert (4 * mx_w).asnumpy().tolist() == [4.0, 8.0, 12.0]  # 4x: right

# %% [markdown]
# ## 2. Scopes: training or predicting, recording or not
#
# Two switches are at play: **recording** (is a graph being built for `backward`?) and
# **training** (do Dropout and BatchNorm behave as in training?). MXNet keeps both as two
# flags of the calling thread, set by scopes (the end of this section shows that they are
# per thread). PyTorch keeps recording in a thread-local grad mode too, and training as a
# flag *on each module*.
#
# The probe: a BatchNorm over 3 features of a fixed 4×3 batch, and a Dropout(0.5) over 16
# ones. In training, BatchNorm normalises with the batch's statistics (each column then has
# mean 0) and Dropout zeroes some entries and doubles the rest; when predicting, BatchNorm
# uses its running statistics (fresh: mean 0, variance 1) and Dropout is the identity.

# %%
probe_x = np.arange(12, dtype=np.float32).reshape(4, 3)
EPS = 1e-5  # the BatchNorm epsilon of both frameworks


def behaviour(bn_out, drop_out):
    """Which statistics BatchNorm used, and whether Dropout dropped."""
    bn_out, drop_out = compare.to_numpy(bn_out), compare.to_numpy(drop_out)
    if np.allclose(bn_out.mean(axis=0), 0, atol=1e-5):
        bn = "batch stats"
    elif np.allclose(bn_out, probe_x / np.sqrt(1 + EPS), atol=1e-5):
        bn = "running stats"
    else:
        bn = "?"
    kept = drop_out[drop_out != 0]
    if (drop_out == 1).all():
        drop = "identity"
    elif len(kept) < drop_out.size and np.allclose(kept, 2.0):
        drop = "drops, ×2"
    else:
        drop = "?"
    return bn, drop


def show(rows):
    """Print a list of dicts as an aligned table."""
    keys = list(rows[0])
    width = {k: max(len(k), *(len(str(r[k])) for r in rows)) for k in keys}
    for r in [dict(zip(keys, keys)), *rows]:
        print("  ".join(str(r[k]).ljust(width[k]) for k in keys).rstrip())


# %% [markdown]
# **PyTorch**: the module's flag (`train()` / `eval()`) against the grad-mode scopes.

# %% tags=["pytorch"]
pt_drop = torch.nn.Dropout(0.5)
pt_probe = torch.tensor(probe_x, device=pt_dev, requires_grad=True)
grad_scopes = {"(none)": contextlib.nullcontext, "no_grad()": torch.no_grad,
               "inference_mode()": torch.inference_mode}
pt_rows = []
for training in (True, False):
    for scope_name, scope in grad_scopes.items():
        pt_bn = torch.nn.BatchNorm1d(3).to(pt_dev)  # fresh running statistics
        pt_bn.train(training), pt_drop.train(training)
        with scope():
            bn_out = pt_bn(pt_probe)
            drop_out = pt_drop(torch.ones(16, device=pt_dev))
        bn, drop = behaviour(bn_out, drop_out)
        pt_rows.append({"module flag": "train()" if training else "eval()",
                        "scope": scope_name, "records": bn_out.requires_grad,
                        "BatchNorm uses": bn, "Dropout": drop})
show(pt_rows)

# %% [markdown]
# **Gluon**: blocks have no flag; the scope decides. `record()` implies training unless
# `train_mode=False`; `pause()` implies predicting unless `train_mode=True`; `train_mode()`
# and `predict_mode()` switch training only, and leave recording as it was.

# %% tags=["gluon"]
mx_bn = gluon.nn.BatchNorm(in_channels=3)
mx_drop = gluon.nn.Dropout(0.5)
mx_bn.initialize(ctx=mx_ctx)
mx_probe = nd.array(probe_x, ctx=mx_ctx)


@contextlib.contextmanager
def nested(*scopes):
    with contextlib.ExitStack() as stack:
        for scope in scopes:
            stack.enter_context(scope)
        yield


mx_scopes = {
    "(none)": nested(),
    "record()": nested(autograd.record()),
    "record(train_mode=False)": nested(autograd.record(train_mode=False)),
    "record() + pause()": nested(autograd.record(), autograd.pause()),
    "record() + predict_mode()": nested(autograd.record(), autograd.predict_mode()),
    "train_mode()": nested(autograd.train_mode()),
    "predict_mode()": nested(autograd.predict_mode()),
    "pause(train_mode=True)": nested(autograd.pause(train_mode=True)),
}
mx_rows = []
for scope_name, scope in mx_scopes.items():
    with scope:
        state = autograd.is_recording(), autograd.is_training()
        bn_out = mx_bn(mx_probe)
        drop_out = mx_drop(nd.ones(16, ctx=mx_ctx))
    bn, drop = behaviour(bn_out, drop_out)
    mx_rows.append({"scope": scope_name, "is_recording": state[0],
                    "is_training": state[1], "BatchNorm uses": bn, "Dropout": drop})
show(mx_rows)

# %% [markdown]
# **Check**: in each framework, *training* decides BatchNorm and Dropout together, and
# recording is independent of it.

# %%
pt_table = {(r["module flag"], r["scope"]): (r["records"], r["BatchNorm uses"],
                                              r["Dropout"]) for r in pt_rows}
TRAIN, PREDICT = ("batch stats", "drops, ×2"), ("running stats", "identity")
for (flag, scope), (records, *act) in pt_table.items():
    assert tuple(act) == (TRAIN if flag == "train()" else PREDICT), (flag, scope)
    assert records == (scope == "(none)"), (flag, scope)

mx_table = {r["scope"]: (r["is_recording"], r["is_training"], r["BatchNorm uses"],
                         r["Dropout"]) for r in mx_rows}
for scope, (recording, training, *act) in mx_table.items():
    assert tuple(act) == (TRAIN if training else PREDICT), scope
assert mx_table["(none)"][:2] == (False, False)
assert mx_table["record()"][:2] == (True, True)
assert mx_table["record(train_mode=False)"][:2] == (True, False)
assert mx_table["record() + pause()"][:2] == (False, False)
assert mx_table["record() + predict_mode()"][:2] == (True, False)
assert mx_table["train_mode()"][:2] == (False, True)
assert mx_table["pause(train_mode=True)"][:2] == (False, True)

# %% [markdown]
# ### Running statistics: updated by the forward pass, or by `backward()`?
#
# The two tables agree on what the *outputs* are. They disagree on when BatchNorm's running
# statistics move. PyTorch updates them in every forward pass of a `train()` module — under
# `no_grad()` too. MXNet 1.9.1 updates them in the **backward** pass: a forward under
# `train_mode()` or `record()` alone leaves them where they were.

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
# [notebook 6 §3](06_blocks.ipynb).

# %% [markdown]
# ### `no_grad()` against `inference_mode()`
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
# ### A training scope for PyTorch, in a few lines
#
# The seed says PyTorch has "no equivalent" of MXNet's scope overrides. True for a *scope*
# in the core API — but the behaviour is one small context manager away, and `F.dropout(x, p,
# training=...)` overrides per call (MXNet's per-call override is
# `nd.Dropout(x, p, mode='always')`):

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


pt_bn.train()
with torch_mode(pt_bn, False), torch.no_grad():  # ≈ autograd.pause()
    inside = behaviour(pt_bn(pt_probe), torch.ones(16))[0]
{"inside": inside, "after": "train()" if pt_bn.training else "eval()"}

# %%
assert inside == "running stats" and pt_bn.training
forced = nd.Dropout(nd.ones(16, ctx=mx_ctx), p=0.5, mode="always")  # outside any scope
assert behaviour(mx_probe, forced)[1] == "drops, ×2"
pt_forced = torch.nn.functional.dropout(torch.ones(16), 0.5, training=True)
assert behaviour(mx_probe, pt_forced)[1] == "drops, ×2"

# %% [markdown]
# ### The seed's scope example, as written
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
weight = mx.nd.ones((1,))
weight.attach_grad()
with autograd.record():
    out = x * weight
out.backward()
recording_outside = autograd.is_recording()
with autograd.pause():             # harmless, and needed only inside a record() scope
    weight[:] = weight - 0.1 * weight.grad
{"seed: w is now": w.asnumpy().tolist(), "seed: w has a gradient": w.grad is not None,
 "fixed: weight": weight.asnumpy().tolist(), "fixed: has a gradient":
 weight.grad is not None}

# %%
assert w.asnumpy().tolist() == [1.0] and w.grad is None     # w is a plain array now
assert recording_outside is False
assert weight.grad is not None                                # still a parameter
assert abs(weight.asscalar() - 0.9) < 1e-7
assert z.asnumpy().tolist() in ([0.0], [2.0])                 # predict_mode: z == y
"the seed's `w = w.grad` rebinds the name; an update writes into the weight"

# %% [markdown]
# ### The scopes are per thread
#
# The scopes set flags of the *calling thread*. Code run in another thread — a thread
# pool that runs the forward passes of several devices, say — does not see a `record()`
# opened in the main thread, and nothing it computes is recorded. PyTorch's grad mode is
# per thread in the same way:

# %%
seen = {}


def probe_flags(where):
    seen[where] = {"mxnet recording": autograd.is_recording(),
                   "mxnet training": autograd.is_training(),
                   "torch grad enabled": torch.is_grad_enabled()}


with autograd.record(), torch.no_grad():
    probe_flags("main thread, in record() and no_grad()")
    other = threading.Thread(target=probe_flags, args=("another thread",))
    other.start()
    other.join()
seen

# %%
assert seen["main thread, in record() and no_grad()"] == {
    "mxnet recording": True, "mxnet training": True, "torch grad enabled": False}
assert seen["another thread"] == {
    "mxnet recording": False, "mxnet training": False, "torch grad enabled": True}

# %% [markdown]
# ### Gradients under `record(train_mode=False)`: wrong in MXNet 1.9.1
#
# `record(train_mode=False)` records a predicting forward pass, which looks like PyTorch's
# `model.eval()` followed by `backward()`. Its gradients are not always right. The probe:
# a 2×2 max pooling of a 4×4 `arange`. The maximum of each window is its bottom-right
# element, so that is where the gradient 1 must land. **PyTorch** (pooling has no mode):

# %% tags=["pytorch"]
arange_x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)


def ones_at(grad):
    """(row, col) of the non-zero entries of a (1, 1, H, W) gradient."""
    return [(int(r), int(c)) for r, c in zip(*np.nonzero(compare.to_numpy(grad)[0, 0]))]


pt_ax = torch.tensor(arange_x, requires_grad=True)
torch.nn.functional.max_pool2d(pt_ax, 2).sum().backward()
ones_at(pt_ax.grad)

# %% [markdown]
# **Gluon**, on the CPU, under `record()` and under `record(train_mode=False)`; and under
# `record()` again, for the same input written `nd.arange(16).reshape(1, 1, 4, 4)`. That
# reshape returns a *view* of the `arange` result, not a new array. Only the first puts the
# gradient where PyTorch does; the wrong positions change from run to run (checked below).

# %% tags=["nbval-ignore-output", "gluon"]
def mx_pool_grad(x, train_mode):
    x.attach_grad()
    with autograd.record(train_mode=train_mode):
        y = gluon.nn.MaxPool2D(2)(x)
    y.backward()
    return ones_at(x.grad)


pool_grads = {
    "record()": mx_pool_grad(nd.array(arange_x), True),
    "record(train_mode=False)": mx_pool_grad(nd.array(arange_x), False),
    "record(), input a reshaped view": mx_pool_grad(nd.arange(16).reshape(1, 1, 4, 4), True),
}
pool_grads

# %% [markdown]
# **Which layers?** The script `tools/survey_predict_mode_backward.py` compares the input
# and weight gradients of a dozen layers with PyTorch's (computed in float64 from the same
# input, weights and head gradient, in the same mode), in float32 and float64, under three
# scopes. The third passes `train_mode=False` to `backward()` as well: `backward()` has its
# own `train_mode` argument, and it defaults to `True`. The survey runs here, and again in
# a fresh process with `MXNET_MKLDNN_ENABLED=0`. That variable switches off MXNet's oneDNN
# kernels, and MXNet reads it only when it is imported. A cell reads "WRONG dx" when the
# input gradient is wrong.
#
# **Check**, below the table: the max-pooling probe above; the same probe with oneDNN off
# (right in all three cases); and the wrong cases of the survey, all of them input gradients.
# With oneDNN: max pooling in float32 under both predicting scopes, hybridized or not, and
# under `record()` too when its input is a view. In both backends and both dtypes: BatchNorm
# with batch statistics (the default) under `record(train_mode=False)`, unless
# `backward(train_mode=False)`. Everything else is right.

# %%
SURVEY = os.path.join(os.pardir, "tools", "survey_predict_mode_backward.py")
survey_tool = runpy.run_path(SURVEY)
onednn = {"rows": survey_tool["survey"]()}
proc = subprocess.run([sys.executable, SURVEY], capture_output=True, text=True, check=True,
                      timeout=600, env={**os.environ, "MXNET_MKLDNN_ENABLED": "0",
                                        "MXNET_STORAGE_FALLBACK_LOG_VERBOSE": "0"})
no_onednn = json.loads(proc.stdout)
SCOPE_NAMES = list(survey_tool["SCOPES"])


def cell(rows):
    """One verdict for float32 and float64 together."""
    bad = [r for r in rows if r["verdict"] == "WRONG"]
    if not bad:
        return "right"
    names = ", ".join(sorted({"d" + n for r in bad for n in r["wrong"]}))
    return f"WRONG {names}" + (", float32 only" if {r["dtype"] for r in bad} == {"float32"}
                               else "")


def verdicts(result, operator, scope):
    return cell([r for r in result["rows"] if (r["operator"], r["scope"]) == (operator, scope)])


table = [{"operator": op,
          "record()": verdicts(onednn, op, SCOPE_NAMES[0]),
          "record(train_mode=False)": verdicts(onednn, op, SCOPE_NAMES[1]),
          "+ backward(train_mode=False)": verdicts(onednn, op, SCOPE_NAMES[2]),
          "MKLDNN off (the 3 scopes)": " · ".join(verdicts(no_onednn, op, s)
                                                 for s in SCOPE_NAMES)}
         for op in dict.fromkeys(r["operator"] for r in onednn["rows"])]
show(table)

# %%
BOTTOM_RIGHT = [(1, 1), (1, 3), (3, 1), (3, 3)]
assert ones_at(pt_ax.grad) == pool_grads["record()"] == BOTTOM_RIGHT
assert pool_grads["record(train_mode=False)"] != BOTTOM_RIGHT
assert pool_grads["record(), input a reshaped view"] != BOTTOM_RIGHT
assert no_onednn["demo"] == {k: [list(p) for p in BOTTOM_RIGHT] for k in pool_grads}


def wrong(result):
    return {(r["operator"], r["scope"], r["dtype"]) for r in result["rows"]
            if r["verdict"] == "WRONG"}


TRAIN, PREDICT, PREDICT_BOTH = SCOPE_NAMES
batchnorm_wrong = {("BatchNorm (default)", PREDICT, d) for d in ("float32", "float64")}
assert wrong(onednn) == batchnorm_wrong | {
    (op, scope, "float32")
    for op in ("max pooling", "max pooling of a reshape", "the same, hybridized")
    for scope in (PREDICT, PREDICT_BOTH)} | {("max pooling of a reshape", TRAIN, "float32")}
assert wrong(no_onednn) == batchnorm_wrong and not no_onednn["mkldnn"]
assert {tuple(r["wrong"]) for r in onednn["rows"] + no_onednn["rows"]} == {(), ("x",)}
"max pooling (oneDNN, float32) and BatchNorm's input (batch statistics) are wrong"

# %% [markdown]
# The issue that started this survey guessed convolution, relu, average pooling,
# fully-connected and BatchNorm with fixed statistics: all five are right. The two culprits
# have different causes:
#
# - **Max pooling**, float32, oneDNN only. The backward pass reads the position of each
#   window's maximum (a "workspace") that the oneDNN forward pass writes only when it
#   trains. Predicting, nothing writes it, and the gradient goes wherever that memory
#   points. The same kernel also gets it wrong under `record()` when its input is a view:
#   a `reshape` or slice taken just before it, outside a hybridized block.
# - **BatchNorm with batch statistics**, everywhere. The forward pass normalises with the
#   running statistics, but the backward pass runs in training mode (the `train_mode` of
#   `backward()`) and differentiates the batch-statistics formula. Only the input gradient
#   is wrong; γ and β are right.
#
# **The safe way to get eval-mode gradients** (a parity run against PyTorch's
# `model.eval()`): stay in `record()` and take out the train-mode behaviour by
# construction. Replace each Dropout by `Dropout(0.0)`, and use BatchNorm with
# `use_global_stats=True`, which the survey shows right in every scope. Gluon allows the
# replacement by assignment when the new child has the same type. The network: conv →
# BatchNorm → relu → max pooling → Dropout(0.5) → dense. **PyTorch**, `eval()`, with
# running statistics that are not the fresh ones:

# %%
class PtNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv, self.bn = torch.nn.Conv2d(3, 4, 3), torch.nn.BatchNorm2d(4)
        self.dropout, self.dense = torch.nn.Dropout(0.5), torch.nn.Linear(16, 3)

    def forward(self, x):
        x = torch.nn.functional.max_pool2d(torch.relu(self.bn(self.conv(x))), 2)
        return self.dense(self.dropout(x.flatten(1)))


seeding.seed_everything(0)
pt_net64 = PtNet().double()
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
# float32, `1e-10` in float64). The check below asserts the recipe's gradients against
# PyTorch's, and the pieces of the recipe: `Dropout(0.0)` is an exact identity in training
# mode, a child of another type cannot be assigned, and the running statistics stay put
# under `record()` + `backward()`.

# %%
class MxNet(gluon.HybridBlock):
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
    net = MxNet()
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
refused = errors.catch(lambda: setattr(MxNet(), "dropout", gluon.nn.HybridLambda(
    lambda F, x: x)))
assert refused.type == "TypeError" and "Changing attribute type for dropout" in refused.reason
"record() + Dropout(0.0) + BatchNorm(use_global_stats=True) = PyTorch's eval() gradients"


# %% [markdown]
# ### The mapping
#
# | MXNet Gluon | PyTorch | note |
# |---|---|---|
# | `x.attach_grad()` | `x.requires_grad_()` | MXNet's `.grad` starts at zeros, PyTorch's at `None` |
# | `with autograd.record():` | nothing: recording is on by default (`torch.enable_grad()` inside a `no_grad`) | MXNet records only inside the scope |
# | `record()` also means *training* | `model.train()` | a scope of the calling thread in MXNet, a flag on each module in PyTorch |
# | `record(train_mode=False)` | `model.eval()`, for the forward pass only | its gradients are wrong in 1.9.1 (max pooling with oneDNN; BatchNorm's input unless `backward(train_mode=False)`). For eval-mode gradients: `record()` with `Dropout(0.0)` and `BatchNorm(use_global_stats=True)` (above) |
# | `with autograd.pause():` | `with torch.no_grad():` | `pause()` also means *predicting*; `no_grad()` leaves the module flag alone |
# | `with autograd.train_mode():` / `predict_mode():` | no scope in core PyTorch: `model.train()` / `model.eval()` (state, not a scope), or the small `torch_mode` above | |
# | `nd.Dropout(x, p, mode='always')` | `F.dropout(x, p, training=True)` | per-call override |
# | `autograd.is_recording()` / `is_training()` | `torch.is_grad_enabled()` / `module.training` | |
# | `autograd.set_recording(b)` / `set_training(b)` | `torch.set_grad_enabled(b)` / `model.train(b)` | |
# | no equivalent | `torch.inference_mode()` (inference tensors, cheaper than `no_grad`) | |
# | BatchNorm running stats move in `backward()` | they move in the forward pass of a `train()` module | |

# %% [markdown]
# ## 3. What `.grad` holds after two `backward()` calls
#
# The same two backward passes on each side: `d/dw (w·x)` with `x = (1, 2, 3)` and then with
# `x = (10, 20, 30)`.
#
# **PyTorch** adds every backward into `.grad` until you clear it; `zero_grad()` now sets
# `.grad` to `None` (its default `set_to_none=True` since 2.0), not to zeros:

# %% tags=["pytorch"]
xs = [[1.0, 2.0, 3.0], [10.0, 20.0, 30.0]]
pt_lin = torch.nn.Linear(3, 1, bias=False).to(pt_dev)
pt_opt = torch.optim.SGD(pt_lin.parameters(), lr=0.1)
for x in xs:
    pt_lin(torch.tensor([x], device=pt_dev)).sum().backward()
pt_after_two = pt_lin.weight.grad.tolist()
pt_opt.zero_grad()
pt_after_zero = pt_lin.weight.grad
pt_lin(torch.tensor([xs[0]], device=pt_dev)).sum().backward()
pt_opt.zero_grad(set_to_none=False)
{"after two backward": pt_after_two, "after zero_grad()": pt_after_zero,
 "after zero_grad(set_to_none=False)": pt_lin.weight.grad.tolist()}

# %% [markdown]
# **Gluon** decides per parameter with `grad_req`: `'write'` (the default) overwrites, `'add'`
# adds until `zero_grad()`, `'null'` keeps no gradient at all. `zero_grad()` lives on the
# `Parameter` / `ParameterDict` (`net.collect_params().zero_grad()`); unlike PyTorch's
# optimizer, the `Trainer` has none.

# %% tags=["gluon"]
def mx_grad_after_two(grad_req):
    net = gluon.nn.Dense(1, in_units=3)
    net.initialize(ctx=mx_ctx)
    net.weight.grad_req = grad_req
    for x in xs:
        with autograd.record():
            out = net(nd.array([x], ctx=mx_ctx)).sum()
        out.backward()  # the bias keeps grad_req='write', so there is a graph
    return net


mx_grads = {req: mx_grad_after_two(req) for req in ("write", "add")}
mx_add_net = mx_grads["add"]
mx_add_after_two = mx_add_net.weight.grad().asnumpy().tolist()
mx_add_net.collect_params().zero_grad()
{"write": mx_grads["write"].weight.grad().asnumpy().tolist(),
 "add": mx_add_after_two,
 "add, then zero_grad()": mx_add_net.weight.grad().asnumpy().tolist(),
 "Trainer has zero_grad": hasattr(gluon.Trainer, "zero_grad")}

# %% [markdown]
# **Check**: PyTorch and `'add'` give the sum `(11, 22, 33)`, `'write'` the last `(10, 20,
# 30)`; the cleared gradients are `None` / zeros; and `'null'` has no gradient to read.

# %%
total, last = [[11.0, 22.0, 33.0]], [[10.0, 20.0, 30.0]]
assert pt_after_two == total and pt_after_zero is None
assert pt_lin.weight.grad.tolist() == [[0.0, 0.0, 0.0]]
assert mx_grads["write"].weight.grad().asnumpy().tolist() == last
assert mx_add_after_two == total
assert mx_add_net.weight.grad().asnumpy().tolist() == [[0.0, 0.0, 0.0]]
assert not hasattr(gluon.Trainer, "zero_grad")
try:
    mx_grad_after_two("null").weight.grad()
    null_error = None
except RuntimeError as exc:
    null_error = str(exc)
assert "because grad_req='null'" in null_error
null_error

# %% [markdown]
# ## 4. Gradient accumulation over micro-batches
#
# One batch of 8 samples that does not fit in memory at once, split into 4 micro-batches of
# 2; the accumulated gradient must equal the full batch's. A linear model with mean squared
# error, the same weights on both sides (copied with `transfer.torch_to_gluon`).

# %%
rng = np.random.default_rng(0)
X = rng.normal(size=(8, 3)).astype(np.float32)
Y = rng.normal(size=(8, 1)).astype(np.float32)
N_MICRO, LR = 4, 0.1
pt_X, pt_Y = torch.tensor(X, device=pt_dev), torch.tensor(Y, device=pt_dev)
mx_X, mx_Y = nd.array(X, ctx=mx_ctx), nd.array(Y, ctx=mx_ctx)


def fresh_pair():
    seeding.seed_everything(0)
    pt_net = torch.nn.Linear(3, 1).to(pt_dev)
    mx_net = gluon.nn.Dense(1, in_units=3)
    mx_net.initialize(ctx=mx_ctx)
    transfer.torch_to_gluon(pt_net, mx_net)
    return pt_net, mx_net


def pt_grads(net):
    return [p.grad.clone() for p in net.parameters()]


def mx_grads_of(net):
    return [p.grad().copy() for p in net.collect_params().values()]


# %% [markdown]
# **PyTorch**: the full-batch gradient, then the recipe — scale each micro-batch's mean loss
# by `1/N_MICRO`, let `backward()` accumulate, step once, clear.

# %% tags=["nbval-ignore-output"]
pt_net, mx_net = fresh_pair()
torch.nn.functional.mse_loss(pt_net(pt_X), pt_Y).backward()
pt_full = pt_grads(pt_net)
pt_net.zero_grad()

pt_opt = torch.optim.SGD(pt_net.parameters(), lr=LR)
for xb, yb in zip(pt_X.chunk(N_MICRO), pt_Y.chunk(N_MICRO)):
    loss = torch.nn.functional.mse_loss(pt_net(xb), yb) / N_MICRO
    loss.backward()  # adds into .grad
pt_accum = pt_grads(pt_net)
pt_opt.step()
pt_opt.zero_grad()
[g.cpu().numpy().round(4).tolist() for g in pt_accum]

# %% [markdown]
# **Gluon**: switch the parameters to `grad_req='add'`, keep the loss per sample
# (`backward()` of a vector sums it), and let `trainer.step(8)` divide by the *whole*
# batch's size; then `zero_grad()` — `'add'` never clears by itself. (Mind the axis:
# `torch.chunk` splits dimension 0 by default, `nd.split` axis 1.)

# %% tags=["nbval-ignore-output"]
params = mx_net.collect_params()
with autograd.record():
    ((mx_net(mx_X) - mx_Y) ** 2).mean(axis=1).backward()
mx_full = mx_grads_of(mx_net)  # summed over the 8 samples

trainer = gluon.Trainer(params, "sgd", {"learning_rate": LR})
params.setattr("grad_req", "add")
params.zero_grad()
mx_micro = list(zip(nd.split(mx_X, N_MICRO, axis=0),
                    nd.split(mx_Y, N_MICRO, axis=0)))
for xb, yb in mx_micro:
    with autograd.record():
        loss = ((mx_net(xb) - yb) ** 2).mean(axis=1)  # one value per sample
    loss.backward()
mx_accum = mx_grads_of(mx_net)
trainer.step(batch_size=len(X))  # rescales by 1/8
params.zero_grad()
[g.asnumpy().round(4).tolist() for g in mx_accum]

# %% [markdown]
# **Check**: accumulated = full batch in each framework (float32 sums in another order:
# `atol=1e-6`); Gluon's sum divided by 8 = PyTorch's mean; and the weights after the step
# agree.

# %%
for full, acc in zip(pt_full, pt_accum):
    compare.assert_same(full, acc, atol=1e-6, names=("torch full", "torch accum."))
for full, acc in zip(mx_full, mx_accum):
    compare.assert_same(full, acc, atol=1e-6, names=("mx full", "mx accum."))
for pt_g, mx_g in zip(pt_full, mx_full):
    compare.assert_same(pt_g, mx_g / len(X), atol=1e-6)
weight_diff = [compare.assert_same(p, q.data(), atol=1e-6)
               for p, q in zip(pt_net.parameters(), params.values())]
f"largest weight difference after the step: {round(max(weight_diff), 6)}"

# %% [markdown]
# ### The recipe written wrong
#
# Three ways it goes wrong: PyTorch without the `1/N_MICRO` (the gradient is 4× too big),
# Gluon with the default `grad_req='write'` (only the last micro-batch survives), and Gluon's
# `'add'` without `zero_grad()` before the next batch (the old gradient is added again).

# %%
pt_net, mx_net = fresh_pair()
for xb, yb in zip(pt_X.chunk(N_MICRO), pt_Y.chunk(N_MICRO)):
    torch.nn.functional.mse_loss(pt_net(xb), yb).backward()  # no / N_MICRO
pt_unscaled = pt_grads(pt_net)

for xb, yb in mx_micro:
    with autograd.record():  # grad_req is still 'write'
        loss = ((mx_net(xb) - yb) ** 2).mean(axis=1)
    loss.backward()
mx_only_last = mx_grads_of(mx_net)

params = mx_net.collect_params()
params.setattr("grad_req", "add")
for _ in range(2):  # two batches, no zero_grad() in between
    for xb, yb in mx_micro:
        with autograd.record():
            loss = ((mx_net(xb) - yb) ** 2).mean(axis=1)
        loss.backward()
mx_stale = mx_grads_of(mx_net)
{"torch, unscaled / full": (pt_unscaled[0] / pt_full[0]).cpu().numpy().round(4),
 "gluon 'add', no zero_grad / full": (mx_stale[0] / mx_full[0]).asnumpy().round(4)}

# %% tags=["nbval-ignore-output"]
compare.assert_same(pt_unscaled[0], N_MICRO * pt_full[0], atol=1e-5)
# switching grad_req re-creates the gradients as zeros: 0 + two batches = 2 × full
compare.assert_same(mx_stale[0], 2 * mx_full[0], atol=1e-5)
params.setattr("grad_req", "write")
with autograd.record():  # the last micro-batch alone
    ((mx_net(mx_X[6:]) - mx_Y[6:]) ** 2).mean(axis=1).backward()
compare.assert_same(mx_only_last[0], mx_grads_of(mx_net)[0], atol=0)
assert compare.max_abs_diff(mx_only_last[0], mx_full[0]) > 0.1
round(compare.max_abs_diff(mx_only_last[0], mx_full[0]), 3)

# %% [markdown]
# ## 5. Second-order gradients
#
# `f(x) = exp(sin x)` has `f'(x) = cos x · exp(sin x)` and
# `f''(x) = exp(sin x) · (cos² x − sin x)`. Both frameworks differentiate the first
# derivative again when it was computed with `create_graph=True`.

# %%
x0 = np.array([0.3, 0.6, 1.2], dtype=np.float32)
x64 = x0.astype(np.float64)
analytic_d1 = (np.cos(x64) * np.exp(np.sin(x64))).astype(np.float32)
analytic_d2 = np.exp(np.sin(x64)) * (np.cos(x64) ** 2 - np.sin(x64))
analytic_d2 = analytic_d2.astype(np.float32)

# %% [markdown]
# **PyTorch**

# %% tags=["nbval-ignore-output", "pytorch"]
pt_x0 = torch.tensor(x0, device=pt_dev, requires_grad=True)
pt_f = torch.exp(torch.sin(pt_x0))
(pt_d1,) = torch.autograd.grad(pt_f.sum(), pt_x0, create_graph=True)
(pt_d2,) = torch.autograd.grad(pt_d1.sum(), pt_x0)
pt_d2.cpu().numpy().round(5)

# %% [markdown]
# **Gluon**: `autograd.grad(..., create_graph=True)` records the graph of the gradient
# itself (MXNet's docs call it inside `record()`; it also works after the scope, checked
# below); `backward()` on it then fills `x.grad` with `f''`.

# %% tags=["nbval-ignore-output", "gluon"]
mx_x0 = nd.array(x0, ctx=mx_ctx)
mx_x0.attach_grad()
with autograd.record():
    mx_f = nd.exp(nd.sin(mx_x0))
    (mx_d1,) = autograd.grad(mx_f, [mx_x0], create_graph=True, retain_graph=True)
mx_d1.backward()
mx_d2 = mx_x0.grad
mx_d2.asnumpy().round(5)

# %% [markdown]
# **Check**: both equal the analytic values (float32: `rtol=1e-5`, `atol=1e-6`).

# %%
for name, got in [("torch f'", pt_d1), ("mxnet f'", mx_d1),
                  ("torch f''", pt_d2), ("mxnet f''", mx_d2)]:
    want = analytic_d1 if "''" not in name else analytic_d2
    compare.assert_same(got, want, rtol=1e-5, atol=1e-6, names=(name, "analytic"))
with autograd.record():
    mx_f_again = nd.exp(nd.sin(mx_x0))
(mx_d1_after,) = autograd.grad(mx_f_again, [mx_x0], create_graph=True)  # outside
mx_d1_after.backward()
compare.assert_same(mx_x0.grad, analytic_d2, rtol=1e-5, atol=1e-6)
"f' and f'' equal the analytic values on both sides, also with grad() outside record()"

# %% [markdown]
# ### Not every MXNet 1.9.1 operator has a second derivative
#
# Only operators whose backward is registered as differentiable (`FGradient`) can be
# differentiated twice. `x ** 3`, whose second derivative is `6x`, is not one of them. A
# survey: the same `create_graph=True` test on a few common operators in both frameworks.
# The MXNet failures name the backward operator that lacks a gradient.

# %%
SECOND_ORDER_CASES = {
    "sin, cos, exp, log": (lambda m, x: m.log(m.exp(m.cos(m.sin(x))) + 1)),
    "tanh, sigmoid, relu": (lambda m, x: m.relu(m.tanh(m.sigmoid(x)))),
    "sqrt, square": (lambda m, x: m.sqrt(m.square(x) + 1)),
    "x ** 3": (lambda m, x: x ** 3),
    "3 * sin x": (lambda m, x: 3 * m.sin(x)),
    "x * x": (lambda m, x: x * x),
    "sum(sin x)": (lambda m, x: m.sum(m.sin(x))),
    "softmax": (lambda m, x: m.softmax(x, axis=-1)),
    "erf": (lambda m, x: m.erf(x)),
}


def second_order(framework, f):
    if framework == "torch":
        x = torch.tensor(x0, device=pt_dev, requires_grad=True)
        (d1,) = torch.autograd.grad(f(torch, x).sum(), x, create_graph=True)
        torch.autograd.grad(d1.sum(), x)
        return "ok"
    x = nd.array(x0, ctx=mx_ctx)
    x.attach_grad()
    try:
        with autograd.record():
            (d1,) = autograd.grad(f(nd, x), [x], create_graph=True,
                                  retain_graph=True)
        d1.backward()
        return "ok"
    except mx.base.MXNetError as exc:
        return re.search(r"Operator (\w+)", str(exc)).group(1) + " has no gradient"


survey = [{"function": name, "torch": second_order("torch", f),
           "mxnet 1.9.1": second_order("mxnet", f)}
          for name, f in SECOND_ORDER_CASES.items()]
show(survey)

# %%
verdict = {r["function"]: r["mxnet 1.9.1"] for r in survey}
assert all(r["torch"] == "ok" for r in survey)
assert [k for k, v in verdict.items() if v == "ok"] == [
    "sin, cos, exp, log", "tanh, sigmoid, relu", "sqrt, square"]
assert verdict["x ** 3"] == "_backward_power_scalar has no gradient"
assert verdict["x * x"] == "_backward_broadcast_mul has no gradient"
assert verdict["sum(sin x)"] == "_backward_sum has no gradient"
assert verdict["3 * sin x"] == "_backward_mul_scalar has no gradient"

# %% [markdown]
# ## 6. Lazy evaluation
#
# An MXNet call pushes the operator to a backend engine and returns at once, before the
# result exists; the engine's worker threads compute it meanwhile. Python only waits at a
# *sync point*: `asnumpy()`, `asscalar()`/`item()`, `wait_to_read()`, `mx.nd.waitall()`,
# printing — and anything built on them, such as `metric.update()`.
#
# ### A stopwatch that measures nothing
#
# A 2000×2000 matrix product, timed around the call, then again after `wait_to_read()`:

# %% tags=["nbval-ignore-output"]
big = nd.random.uniform(shape=(2000, 2000), ctx=mx_ctx)
big.wait_to_read()
start = time.perf_counter()
product = nd.dot(big, big)
returned_after = time.perf_counter() - start
product.wait_to_read()
done_after = time.perf_counter() - start
print(f"nd.dot returned after {returned_after * 1e3:8.3f} ms")
print(f"the product existed after {done_after * 1e3:8.3f} ms")

# %% [markdown]
# The same, repeated, with `sidebyside.timing.measure` (which, unless told `sync_each=False`,
# waits with `mx.nd.waitall()` — and `torch.cuda.synchronize()` on a GPU — before it stops
# the clock). On the CPU, PyTorch computes before returning, so both of its numbers are
# real — `measure` looks at what the call returned and labels the unsynced number
# accordingly; on a GPU its kernels are asynchronous too and the unsynced number would
# shrink. Machine-dependent numbers, for reading only:

# %% tags=["nbval-ignore-output"]
pt_big = torch.tensor(big.asnumpy(), device=pt_dev)
with threads.matched() as same_threads:     # both on MXNet's thread count: notebook 1 §3
    timings = {
        "mxnet nd.dot, not synced": timing.measure(lambda: nd.dot(big, big),
                                                   sync_each=False, repeat=3),
        "mxnet nd.dot, synced": timing.measure(lambda: nd.dot(big, big), repeat=3),
        "torch @, not synced": timing.measure(lambda: pt_big @ pt_big,
                                              sync_each=False, repeat=3),
        "torch @, synced": timing.measure(lambda: pt_big @ pt_big, repeat=3),
    }
print(same_threads)
for label, t in timings.items():
    print(f"{label:26} {t}")

# %% [markdown]
# **Check**: the lazily computed product is right; the unsynced MXNet clock saw less than a
# tenth of the work (typically a ten-thousandth: the launch); and the labels follow what
# each call returned — an MXNet array may still be computing, a PyTorch CPU tensor is done.

# %%
host = big.asnumpy().astype(np.float64)
compare.assert_same(product.asnumpy(), (host @ host).astype(np.float32), rtol=1e-4, atol=0)
assert (timings["mxnet nd.dot, not synced"].median
        < 0.1 * timings["mxnet nd.dot, synced"].median)
assert timings["mxnet nd.dot, not synced"].work == "async"
assert timings["torch @, not synced"].work == ("async" if pt_dev.type == "cuda" else "eager")
{label: t.how for label, t in timings.items()}

# %% [markdown]
# ### A training loop that never waits
#
# The same mistake at the scale of a training loop. A loop that keeps its running loss as
# an `NDArray` (`total_loss += loss.mean()`, no `asscalar()`) never reaches a sync point:
# when it returns, most of its arithmetic is still queued, and a clock stopped there
# measures how fast work was *queued*. 50 steps of [notebook 3](03_mnist_mlp.ipynb)'s MLP (batches of 512, in
# memory) on the CPU:

# %% tags=["nbval-ignore-output"]
loop_X = [nd.random.uniform(shape=(512, 784)) for _ in range(10)]
loop_y = [nd.array(np.arange(512) % 10) for _ in range(10)]
loop_net = gluon.nn.Sequential()
loop_net.add(gluon.nn.Dense(256, activation="relu"), gluon.nn.Dense(10))
loop_net.initialize()
loop_trainer = gluon.Trainer(loop_net.collect_params(), "sgd", {"learning_rate": 0.1})
loop_loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
loop_net(loop_X[0])
mx.nd.waitall()

tic = time.perf_counter()
total_loss = nd.zeros((1,))
for step in range(50):
    with autograd.record():
        loss = loop_loss_fn(loop_net(loop_X[step % 10]), loop_y[step % 10])
    loss.backward()
    loop_trainer.step(512)
    total_loss += loss.mean()                  # stays an NDArray: nothing waits
loop_returned = time.perf_counter() - tic
mx.nd.waitall()
loop_done = time.perf_counter() - tic
print(f"the loop returned after {loop_returned:.3f} s; the work was done after "
      f"{loop_done:.3f} s")

# %%
assert loop_returned < 0.5 * loop_done         # most of the work was still queued
"a clock stopped when the loop returned would have missed most of the epoch"

# %% [markdown]
# ### Errors surface where you wait, not where you erred
#
# A *shape* error is found while the call is being set up, so it is raised at once:

# %% tags=["raises-exception"]
nd.dot(nd.ones((2, 3)), nd.ones((2, 3)))

# %% [markdown]
# An error that depends on the *values* is only found when the engine runs the kernel. Take
# index 7 of a 5-element array with `mode='raise'`: the call returns, so does the next line
# that uses its result (these error cells run on the CPU context, whatever device was
# picked above: which checks a GPU kernel makes is another matter),

# %%
late = nd.take(nd.arange(5), nd.array([7]), mode="raise")
late_doubled = late * 2
"both lines returned"

# %% [markdown]
# and the error appears at the first sync point — here one line later, in real code perhaps
# in a logging call at the end of the epoch:

# %% tags=["raises-exception"]
late_doubled.asnumpy()

# %% [markdown]
# PyTorch, synchronous on the CPU, raises on the offending line:

# %% tags=["raises-exception"]
torch.arange(5)[torch.tensor([7])]

# %% [markdown]
# Which errors wait? A survey of a few invalid calls: where each one is raised, if at all
# (some out-of-range indices are clipped silently instead). And an error is reported
# **once**: a second read of the same array returns without complaint, holding values nobody
# computed. (`sidebyside.errors.where_raised` makes the call, waits for its result, and reads
# it a second time.)

# %%
INVALID = {
    "dot, shapes (2,3)·(2,3)": lambda: nd.dot(nd.ones((2, 3)), nd.ones((2, 3))),
    "take index 7 of 5, mode='raise'":
        lambda: nd.take(nd.arange(5), nd.array([7]), mode="raise"),
    "mx.np fancy index 7 of 5":
        lambda: mx.np.arange(5)[mx.np.array([7], dtype="int64")],
    "gather_nd index 5 of 2":
        lambda: nd.gather_nd(nd.ones((2, 3)), nd.array([[5], [1]])),
    "linalg.potrf, not pos. definite":
        lambda: nd.linalg.potrf(nd.array([[1.0, 2.0], [2.0, 1.0]])),
    "linalg.inverse of zeros": lambda: nd.linalg.inverse(nd.zeros((2, 2))),
    "Embedding index 7 of 3":
        lambda: nd.Embedding(nd.array([7]), nd.ones((3, 2)),
                             input_dim=3, output_dim=2),
    "one_hot index 7 of 3": lambda: nd.one_hot(nd.array([7]), 3),
}
surfaced = {name: errors.where_raised(make) for name, make in INVALID.items()}
late_rows = [{"invalid call": name, "raised": s.where,
              "as": s.failure.type if s.failure else "no error",
              "2nd read": s.second_read or ""} for name, s in surfaced.items()]
show(late_rows)

# %%
raised = {r["invalid call"]: r["raised"] for r in late_rows}
assert raised["dot, shapes (2,3)·(2,3)"] == "at the call"
for name in ("take index 7 of 5, mode='raise'", "mx.np fancy index 7 of 5",
             "gather_nd index 5 of 2", "linalg.potrf, not pos. definite",
             "linalg.inverse of zeros"):
    assert raised[name] == "at the sync point", name
assert raised["Embedding index 7 of 3"] == raised["one_hot index 7 of 3"] == "never"
assert all(s.second_read == "silent" for s in surfaced.values()
           if s.where == "at the sync point")

# %% [markdown]
# `metric.update()` is one of those sync points (it calls `asnumpy()`), which is why a
# training loop's errors often point at the metric:

# %%
metric = mx.metric.Accuracy()
bad_pred = nd.take(nd.ones((5, 2)), nd.array([7]), axis=0, mode="raise")
try:
    metric.update([nd.array([1])], [bad_pred])
    metric_error = None
except mx.base.MXNetError as exc:
    metric_error = str(exc).strip().splitlines()[-1]
assert "out of bound" in metric_error
metric_error

# %% [markdown]
# ### Finding the line: `MXNET_ENGINE_TYPE=NaiveEngine`
#
# The naive engine runs every operator synchronously in the calling thread, so the error is
# raised by the line that caused it. It is chosen when MXNet is imported, so it needs a fresh
# process (or `export MXNET_ENGINE_TYPE=NaiveEngine` before starting Python or Jupyter).
# The same six-line script, run with each engine:

# %%
SCRIPT = textwrap.dedent("""\
    import mxnet as mx
    data = mx.nd.arange(5)
    picked = mx.nd.take(data, mx.nd.array([7]), mode="raise")  # line 3: the bug
    scaled = picked * 2
    print("line 5 reached")
    print(scaled.asnumpy())                                    # line 6: a sync point
""")


def run_script(engine):
    env = {k: v for k, v in os.environ.items() if k != "MXNET_ENGINE_TYPE"}
    if engine:
        env["MXNET_ENGINE_TYPE"] = engine
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "bug.py")
        with open(path, "w") as f:
            f.write(SCRIPT)
        proc = subprocess.run([sys.executable, path], env=env, capture_output=True,
                              text=True, timeout=120)
    lines = re.findall(r'File ".*bug\.py", line (\d+)', proc.stderr)
    return {"error at line": int(lines[-1]) if lines else None,
            "line 5 reached": "line 5 reached" in proc.stdout,
            "error": proc.stderr.strip().splitlines()[-1].split(": ")[-1]}


engines = {"default (threaded)": run_script(None),
           "NaiveEngine": run_script("NaiveEngine")}
engines

# %%
assert engines["default (threaded)"]["error at line"] == 6
assert engines["default (threaded)"]["line 5 reached"]
assert engines["NaiveEngine"]["error at line"] == 3
assert not engines["NaiveEngine"]["line 5 reached"]
assert all(e["error"] == "take operator contains indices out of bound"
           for e in engines.values())

# %% [markdown]
# ## Summary
#
# | | PyTorch | MXNet Gluon |
# |---|---|---|
# | mark a tensor | `torch.tensor(..., requires_grad=True)` (`Variable` is a leftover name) | `x.attach_grad()` |
# | record | always, while grad mode is on | only inside `with autograd.record():` |
# | `.grad` before backward | `None` | zeros |
# | training behaviour | `model.train()` / `model.eval()`: a flag on each module | `record()` (training) / `pause()` (predicting), `train_mode()` / `predict_mode()`: scopes of the calling thread |
# | eval-mode gradients (a parity run) | `model.eval()`, then `backward()` | `record()` with `Dropout(0.0)` and `BatchNorm(use_global_stats=True)`; not `record(train_mode=False)`, whose gradients are wrong (max pooling with oneDNN, BatchNorm's input) |
# | stop recording | `torch.no_grad()`, `torch.inference_mode()` | `autograd.pause()` |
# | BatchNorm running stats | updated in the forward pass (train mode); variance unbiased | updated in `backward()`; variance biased |
# | gradients across backward calls | added until `zero_grad()` (which sets `None`) | `grad_req='write'` overwrites; `'add'` adds until `params.zero_grad()`; `'null'` none |
# | micro-batch accumulation | mean loss `/ n_micro`, `backward()` each, `step()`, `zero_grad()` | `grad_req='add'`, per-sample loss, `backward()` each, `trainer.step(full_batch)`, `zero_grad()` |
# | second order | `torch.autograd.grad(..., create_graph=True)` | `autograd.grad(..., create_graph=True)`; many 1.9.1 operators (`**`, `*`, scalar `*`, `sum`, `softmax`) cannot |
# | execution | synchronous on CPU, asynchronous on CUDA (`torch.cuda.synchronize()`) | always asynchronous: `wait_to_read()`, `asnumpy()`, `mx.nd.waitall()` |
# | debugging late errors | `CUDA_LAUNCH_BLOCKING=1` on GPU | `MXNET_ENGINE_TYPE=NaiveEngine` |
#
# ### Seed claims, checked
#
# | seed claim | verdict | shown in |
# |---|---|---|
# | PyTorch records with `Variable(torch.FloatTensor(1), requires_grad=True)` | **obsolete**: `Variable` survives as a name that returns a plain `Tensor`; use `torch.tensor(..., requires_grad=True)` | §1 |
# | MXNet records only inside `autograd.record()`; PyTorch by marking tensors | **confirmed**; and a forward pass only partly inside `record()` gives a silently wrong gradient | §1 |
# | `record(train_mode=True)`, `pause(train_mode=False)`; `train_mode()` / `predict_mode()` switch behaviour without touching recording | **confirmed** for the forward pass; but gradients recorded while predicting are wrong in 1.9.1 for max pooling (oneDNN, float32) and for BatchNorm's input (batch statistics) | §2 |
# | the scope-override example ending `with autograd.pause(): w = w.grad` | **runs, but does nothing useful**: it rebinds the name `w` to the gradient; update the weight in place (`w[:] = w - lr * w.grad`) | §2 |
# | PyTorch has "no equivalent" of the scope overrides | **corrected**: `no_grad()` / `inference_mode()` ≈ `pause()`; `train()` / `eval()` do the same job as module state rather than a scope; `F.dropout(training=)` overrides per call; a scope is a few lines | §2 |
# | PyTorch accumulates gradients and needs `zero_grad()`; Gluon's default `grad_req='write'` overwrites, so no clearing is needed | **confirmed**, with two additions: `zero_grad()` now sets `None`, and `grad_req='add'` does need `zero_grad()` | §3, §4 |
# | `zero_grad` of "the PyTorch optimizer or the Gluon `Trainer`" | **corrected**: `Trainer` has no `zero_grad`; it is on `Parameter` / `ParameterDict` | §3 |
# | MXNet is lazy: Python pushes operators and returns; sync with `asnumpy()`, `wait_to_read()`, `metric.update()` | **confirmed**, with numbers; errors surface at those sync points | §6 |
# | batch-end sync is "not available" in PyTorch | **corrected**: not needed on the CPU (synchronous); on CUDA, `torch.cuda.synchronize()` or any `.item()` / `.cpu()` | §6 |

# %% [markdown]
# ## Exercises
#
# 1. Add `GlobalMaxPool2D`, `MaxPool1D`, `LayerNorm`, `InstanceNorm` and `LeakyReLU` to
#    `tools/survey_predict_mode_backward.py`. Which are wrong under
#    `record(train_mode=False)`? Which under `record()` when their input is a reshaped view?
# 2. Add `x + x`, `nd.exp(x) + 1` and `nd.relu(x) - x` to the second-order survey. Which
#    pass in MXNet 1.9.1? What does that mean for a loss with a weight decay term?
# 3. Time ten `nd.dot` calls in a Python loop with and without a `wait_to_read()` inside the
#    loop. Where does the time go when there is none?
# 4. Start Jupyter with `MXNET_ENGINE_TYPE=NaiveEngine` and re-run the timing cells of §6.
#    What does "returned after" show now, and how much slower is a training step?
#
# :::{dropdown} Solutions
# 1. With oneDNN (the default), `GlobalMaxPool2D` and `MaxPool1D` behave like `MaxPool2D`:
#    under both predicting scopes their float32 input gradient is wrong, and under `record()` it
#    is right. With a reshaped view as input, they are wrong under `record()` too, unless
#    hybridized. `LayerNorm`, `InstanceNorm` and `LeakyReLU` are right in every scope, and with
#    `MXNET_MKLDNN_ENABLED=0` every pooling is right. Two other findings, in every scope:
#    `InstanceNorm` has no float64 kernel (`Unsupported data type 1`), and float64 `LeakyReLU`
#    misses the 1e-10 bound by about 1.5e-9, because its slope 0.1 reaches the kernel as
#    float32 (0.10000000149), as in [notebook 3](03_mnist_mlp.ipynb) §4.
# 2. `nd.exp(x) + 1` passes: `+ 1` is a scalar add, and f'' = exp x is right. `nd.relu(x) - x`
#    fails (`_backward_broadcast_sub has no gradient`), though PyTorch gives 0. `x + x` fails
#    in *both* frameworks: f' = 2 no longer depends on `x`. So a loss with a weight decay term
#    cannot be differentiated twice. Adding the term (`nd.exp(x) + nd.square(x)`:
#    `_backward_broadcast_add`), scaling it (`0.01 * …`, `… / 100`) and summing it all fail.
#    For a gradient penalty or a Hessian-vector product, leave the decay to the optimizer's `wd`.
# 3. With 1000×1000 matrices: without the wait, the loop returned after about 0.4 ms and
#    `mx.nd.waitall()` after it took the remaining ~190 ms. With a wait in each iteration, the
#    loop itself took about 200 ms. The time goes to the engine's worker threads, which
#    compute the queued products while Python has already moved on. The total is the same.
# 4. Measured in fresh Python processes, not in Jupyter. With `NaiveEngine`, "returned after"
#    equals "existed after": `nd.dot` returned only after its 156 ms of work (the default
#    engine returned after about 2 ms). The never-waiting loop of 50 steps was done when it
#    returned. A training step took about 6.1–6.7 ms instead of 5.1–5.5 ms, about 1.2× slower.
# :::
