# %% [markdown]
# # 5 · Autograd: recording, scopes, gradient semantics and lazy evaluation
#
# **What you will learn**
#
# - how each framework decides what to record — PyTorch's `requires_grad` against MXNet's
#   `attach_grad()` + `autograd.record()` — and how MXNet's training and predicting scopes
#   (`record`, `pause`, `train_mode`, `predict_mode`) map onto `model.train()` /
#   `model.eval()`, `torch.no_grad()` and `torch.inference_mode()`, and why
#   `record(train_mode=False)` is no `model.eval()` for gradients in MXNet 1.9.1;
# - what `.grad` holds after two `backward()` calls on each side (`grad_req='write'`, `'add'`,
#   `'null'`, `zero_grad`), and the gradient-accumulation recipe written correctly in both;
# - second-order gradients with `create_graph=True` (and which MXNet 1.9.1 operators cannot
#   do them), and MXNet's lazy evaluation: which calls wait, timings that measure nothing,
#   errors that surface lines later, and `MXNET_ENGINE_TYPE=NaiveEngine` to pin them down.
#
# Four deep dives take the investigations further, each linked from the section it
# deepens: scopes in detail, gradients recorded while predicting, second derivatives, and
# MXNet's lazy engine.
#
# **Prerequisites**: [notebook 2](02_tensor_ops.ipynb) (tensors) and [notebook
# 3](03_mnist_mlp.ipynb) (a training step). **Time**: about 35 minutes.

# %% tags=["nbval-ignore-output"]
import contextlib
import io
import time
import warnings

import mxnet as mx
import numpy as np
import torch
from mxnet import autograd, gluon, nd
from torch.autograd import Variable

from sidebyside import compare, devices, errors, seeding, table, threads, timing, transfer

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
# flags of the calling thread, set by scopes. PyTorch keeps recording in a thread-local
# grad mode too, and training as a flag *on each module*.
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
table.show(pt_rows)

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
table.show(mx_rows)

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
assert mx_table["predict_mode()"][:2] == (False, False)
assert mx_table["pause(train_mode=True)"][:2] == (False, True)

# %% [markdown]
# The two tables agree on the *outputs*, not on when BatchNorm's running statistics move:
# PyTorch updates them in every forward pass of a `train()` module, MXNet 1.9.1 in
# `backward()`. The deep dive [scopes in detail](deep_dives/autograd_scopes.ipynb) shows
# that (§1), a PyTorch context manager that does what `train_mode()` does (§2),
# `inference_mode()` against `pause()` (§3), the seed's scope example (§4), and scopes
# that belong to the thread that opened them (§5). What the two BatchNorms fold into
# their statistics is [notebook 6 §3](06_blocks.ipynb).
#
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
    return tuple((int(r), int(c)) for r, c in zip(*np.nonzero(compare.to_numpy(grad)[0, 0])))


pt_ax = torch.tensor(arange_x, requires_grad=True)
torch.nn.functional.max_pool2d(pt_ax, 2).sum().backward()
ones_at(pt_ax.grad)

# %% [markdown]
# **Gluon**, on the CPU, 40 times in each of three ways: under `record()`, under
# `record(train_mode=False)`, and under `record()` for the same input written
# `nd.arange(16).reshape(1, 1, 4, 4)`. That reshape returns a *view* of the `arange` result,
# not a new array. The cell counts the different answers each way gave, and shows one:

# %% tags=["nbval-ignore-output", "gluon"]
def mx_pool_grad(x, train_mode):
    x.attach_grad()
    with autograd.record(train_mode=train_mode):
        y = gluon.nn.MaxPool2D(2)(x)
    y.backward()
    return ones_at(x.grad)


POOL_WAYS = {"record()": (lambda: nd.array(arange_x), True),
             "record(train_mode=False)": (lambda: nd.array(arange_x), False),
             "record(), input a reshaped view": (lambda: nd.arange(16).reshape(1, 1, 4, 4),
                                                 True)}
pool_grads = {way: [mx_pool_grad(make(), train) for _ in range(40)]
              for way, (make, train) in POOL_WAYS.items()}
{way: {"different answers": len(set(got)), "the first": got[0]}
 for way, got in pool_grads.items()}

# %% [markdown]
# **Check**: `record()` puts the gradient where PyTorch does, every time. The other two
# never do, and their wrong positions change from call to call (at least two different
# answers in 40 calls).

# %%
BOTTOM_RIGHT = ((1, 1), (1, 3), (3, 1), (3, 3))
assert ones_at(pt_ax.grad) == BOTTOM_RIGHT
assert set(pool_grads["record()"]) == {BOTTOM_RIGHT}
for way in ("record(train_mode=False)", "record(), input a reshaped view"):
    assert BOTTOM_RIGHT not in pool_grads[way] and len(set(pool_grads[way])) >= 2, way
"record() is right; predicting, or with a view as input, the gradient lands anywhere"

# %% [markdown]
# The rule, from a survey of 21 layers and variants in the deep dive [gradients recorded
# while predicting](deep_dives/autograd_predict_mode.ipynb): with oneDNN (the pip wheels'
# CPU kernels), every max pooling gets a wrong float32 input gradient under
# `record(train_mode=False)`, and under `record()` too when its input is a view; BatchNorm
# with batch statistics gets a wrong input gradient under `record(train_mode=False)` in
# every backend, unless `backward(train_mode=False)`. For PyTorch's `model.eval()`
# gradients, stay in `record()` with `Dropout(0.0)` and `BatchNorm(use_global_stats=True)`
# (checked against PyTorch in the deep dive's §4).

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
null_error = errors.catch(lambda: mx_grad_after_two("null").weight.grad(), expect=RuntimeError)
assert null_error.line.startswith("Cannot get gradient array for Parameter ")
assert null_error.line.endswith("_weight' because grad_req='null'")
"with grad_req='null', reading the gradient raises: Cannot get gradient array for Parameter …"

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
    seeding.seed_everything(SEED)
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

# %% tags=["nbval-ignore-output", "pytorch"]
pt_net, mx_net = fresh_pair()
torch.nn.functional.mse_loss(pt_net(pt_X), pt_Y).backward()
pt_full = pt_grads(pt_net)
pt_net.zero_grad()

pt_opt = torch.optim.SGD(pt_net.parameters(), lr=LR)
for xb, yb in zip(pt_X.chunk(N_MICRO), pt_Y.chunk(N_MICRO)):
    pt_loss = torch.nn.functional.mse_loss(pt_net(xb), yb) / N_MICRO
    pt_loss.backward()  # adds into .grad
pt_accum = pt_grads(pt_net)
pt_opt.step()
pt_opt.zero_grad()
[g.cpu().numpy().round(4).tolist() for g in pt_accum]

# %% [markdown]
# **Gluon**: switch the parameters to `grad_req='add'`, keep the loss per sample
# (`backward()` of a vector sums it), and let `trainer.step(8)` divide by the *whole*
# batch's size; then `zero_grad()` — `'add'` never clears by itself. (Mind the axis:
# `torch.chunk` splits dimension 0 by default, `nd.split` axis 1.)

# %% tags=["nbval-ignore-output", "gluon"]
mx_params = mx_net.collect_params()
with autograd.record():
    ((mx_net(mx_X) - mx_Y) ** 2).mean(axis=1).backward()
mx_full = mx_grads_of(mx_net)  # summed over the 8 samples

mx_trainer = gluon.Trainer(mx_params, "sgd", {"learning_rate": LR})
mx_params.setattr("grad_req", "add")
mx_params.zero_grad()
mx_micro = list(zip(nd.split(mx_X, N_MICRO, axis=0),
                    nd.split(mx_Y, N_MICRO, axis=0)))
for xb, yb in mx_micro:
    with autograd.record():
        mx_loss = ((mx_net(xb) - yb) ** 2).mean(axis=1)  # one value per sample
    mx_loss.backward()
mx_accum = mx_grads_of(mx_net)
mx_trainer.step(batch_size=len(X))  # rescales by 1/8
mx_params.zero_grad()
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
for p, q in zip(pt_net.parameters(), mx_params.values()):
    compare.assert_same(p, q.data(), atol=1e-6)
"the same accumulated gradient and the same weights after the step (atol=1e-6)"

# %% [markdown]
# ### The recipe written wrong
#
# Three ways it goes wrong: PyTorch without the `1/N_MICRO` (the gradient is 4× too big),
# Gluon with the default `grad_req='write'` (only the last micro-batch survives), and Gluon's
# `'add'` without `zero_grad()` before the next batch (the old gradient is added again).

# %% tags=["nbval-ignore-output"]
pt_net, mx_net = fresh_pair()
for xb, yb in zip(pt_X.chunk(N_MICRO), pt_Y.chunk(N_MICRO)):
    torch.nn.functional.mse_loss(pt_net(xb), yb).backward()  # no / N_MICRO
pt_unscaled = pt_grads(pt_net)

for xb, yb in mx_micro:
    with autograd.record():  # grad_req is still 'write'
        mx_loss = ((mx_net(xb) - yb) ** 2).mean(axis=1)
    mx_loss.backward()
mx_only_last = mx_grads_of(mx_net)

mx_params = mx_net.collect_params()
mx_params.setattr("grad_req", "add")
for _ in range(2):  # two batches, no zero_grad() in between
    for xb, yb in mx_micro:
        with autograd.record():
            mx_loss = ((mx_net(xb) - yb) ** 2).mean(axis=1)
        mx_loss.backward()
mx_stale = mx_grads_of(mx_net)
{"torch, unscaled / full": (pt_unscaled[0] / pt_full[0]).cpu().numpy().round(4),
 "gluon 'add', no zero_grad / full": (mx_stale[0] / mx_full[0]).asnumpy().round(4)}

# %% [markdown]
# **Check**: 4 × and 2 × the full gradient; and `'write'` kept exactly the last micro-batch's
# gradient, far from the full one.

# %%
compare.assert_same(pt_unscaled[0], N_MICRO * pt_full[0], atol=1e-5)
# switching grad_req re-creates the gradients as zeros: 0 + two batches = 2 × full
compare.assert_same(mx_stale[0], 2 * mx_full[0], atol=1e-5)
mx_params.setattr("grad_req", "write")
with autograd.record():  # the last micro-batch alone
    ((mx_net(mx_X[6:]) - mx_Y[6:]) ** 2).mean(axis=1).backward()
compare.assert_same(mx_only_last[0], mx_grads_of(mx_net)[0], atol=0)
assert compare.max_abs_diff(mx_only_last[0], mx_full[0]) > 0.1
"unscaled: 4 × the gradient; no zero_grad(): 2 ×; grad_req='write': the last micro-batch"

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
# differentiated twice. `x ** 3`, whose second derivative is `6x`, is not one of them:

# %% tags=["raises-exception"]
mx_xc = nd.array(x0, ctx=mx_ctx)
mx_xc.attach_grad()
with autograd.record():
    (mx_d1_cube,) = autograd.grad(mx_xc ** 3, [mx_xc], create_graph=True, retain_graph=True)
mx_d1_cube.backward()

# %% [markdown]
# **Check**: the error names the backward operator that lacks a gradient; PyTorch
# differentiates the same function twice, to `6x`.

# %%
cube_error = errors.catch(mx_d1_cube.backward)
assert cube_error.line == ("Operator _backward_power_scalar is non-differentiable because "
                           "it didn't register FGradient attribute.")
pt_xc = torch.tensor(x0, device=pt_dev, requires_grad=True)
(pt_d1_cube,) = torch.autograd.grad((pt_xc ** 3).sum(), pt_xc, create_graph=True)
(pt_d2_cube,) = torch.autograd.grad(pt_d1_cube.sum(), pt_xc)
compare.assert_same(pt_d2_cube, 6 * x0, rtol=1e-6)
cube_error.type

# %% [markdown]
# The rule, from the survey in the deep dive [second derivatives in MXNet
# 1.9.1](deep_dives/autograd_second_order.ipynb): chains of `sin`, `cos`, `exp`, `log`,
# `tanh`, `sigmoid`, `relu`, `sqrt` and `square` can be differentiated twice; powers,
# products, scalar factors, sums, softmax and `erf` cannot. So a loss with a weight decay
# term cannot either: leave the decay to the optimizer's `wd`.

# %% [markdown]
# ## 6. Lazy evaluation
#
# An MXNet call pushes the operator to a backend engine and returns at once, before the
# result exists; the engine's worker threads compute it meanwhile. Python waits only at a
# *sync point*. For an `mx.nd.NDArray` those are `asnumpy()`, `asscalar()`,
# `wait_to_read()`, `mx.nd.waitall()`, printing and `bool()`, and anything built on them,
# such as `metric.update()`. There is no `item()`: that is the method of PyTorch's tensors
# and of `mx.np.ndarray`, the arrays of MXNet's NumPy-like `mx.np` interface.
#
# ### Which calls wait
#
# A probe tells them apart: an array whose kernel fails when it runs (index 7 of a
# 5-element array, with `mode='raise'`). Only a call that waits for the kernel can raise
# its error. Each call below gets a fresh probe; when a call returns without the error,
# the cell checks that the error is still pending, raised by a `wait_to_read()` after it.

# %%
def failing():
    """An array whose kernel fails when the engine runs it: index 7 of 5."""
    return nd.take(nd.arange(5), nd.array([7]), mode="raise")


CALLS = {
    "x.asnumpy()": lambda x: x.asnumpy(),
    "x.asscalar()": lambda x: x.asscalar(),
    "x.wait_to_read()": lambda x: x.wait_to_read(),
    "mx.nd.waitall()": lambda x: mx.nd.waitall(),
    "print(x)": lambda x: print(x, file=io.StringIO()),
    "bool(x)": lambda x: bool(x),
    "metric.update(labels, [x])": lambda x: mx.metric.Accuracy().update([nd.array([0])], [x]),
    "x * 2": lambda x: x * 2,
    "x.copy()": lambda x: x.copy(),
    "x.shape, x.dtype, x.context": lambda x: (x.shape, x.dtype, x.context),
}
OUT_OF_BOUND = "take operator contains indices out of bound"


def waits(call):
    """'waits' when the call raised the probe's error, 'returns' when it left it pending."""
    x = failing()
    try:
        call(x)
    except mx.base.MXNetError as exc:
        assert OUT_OF_BOUND in str(exc)
        return "waits"
    assert errors.catch(x.wait_to_read).reason == OUT_OF_BOUND   # still to come
    return "returns"


sync_table = {name: waits(call) for name, call in CALLS.items()}
sync_table

# %% [markdown]
# **Check**: the first seven wait, the last three return. `mx.nd.NDArray` has no `item()`;
# `mx.np.ndarray` has, and it waits too (a value error of `mx.np` surfaces as an
# `IndexError` there).

# %%
assert [name for name, how in sync_table.items() if how == "waits"] == list(CALLS)[:7]
assert [name for name, how in sync_table.items() if how == "returns"] == list(CALLS)[7:]
no_item = errors.catch(lambda: nd.ones(1).item())
assert no_item.brief == ("AttributeError", "'NDArray' object has no attribute 'item'")
np_probe = mx.np.arange(5)[mx.np.array([7], dtype="int64")]   # returns at once
assert errors.catch(np_probe.item).brief == (
    "IndexError", "index 7 is out of bounds for axis 0 with size 5")
assert hasattr(mx.np.ndarray, "item") and hasattr(torch.Tensor, "item")
no_item.line

# %% [markdown]
# `metric.update()` waits because it calls `asnumpy()`, which is why a training loop's
# errors often point at the metric.
#
# ### A stopwatch that measures nothing
#
# A 2000×2000 matrix product on each side, timed with `sidebyside.timing.measure`: once
# stopping the clock when the call returns (`sync_each=False`), once after waiting for the
# work. On the CPU, PyTorch computes before returning, and `measure` labels its unsynced
# number accordingly; on a GPU its kernels are asynchronous too
# (<https://pytorch.org/docs/stable/notes/cuda.html#asynchronous-execution>). Numbers for
# reading only; the first line gives the thread counts:

# %% tags=["nbval-ignore-output"]
mx_big = nd.random.uniform(shape=(2000, 2000), ctx=mx_ctx)
mx_product = nd.dot(mx_big, mx_big)              # checked below
pt_big = torch.tensor(mx_big.asnumpy(), device=pt_dev)
with threads.matched() as same_threads:     # both on MXNet's thread count: notebook 1 §3
    timings = {
        "mxnet nd.dot, not synced": timing.measure(lambda: nd.dot(mx_big, mx_big),
                                                   sync_each=False, repeat=3),
        "mxnet nd.dot, synced": timing.measure(lambda: nd.dot(mx_big, mx_big), repeat=3),
        "torch @, not synced": timing.measure(lambda: pt_big @ pt_big,
                                              sync_each=False, repeat=3),
        "torch @, synced": timing.measure(lambda: pt_big @ pt_big, repeat=3),
    }
print(same_threads)
for label, t in timings.items():
    print(f"{label:26} {t}")

# %% [markdown]
# **Check**: the lazily computed product is right; the unsynced MXNet clock saw less than a
# tenth of the work (it saw the launch); and the labels follow what each call returned —
# an MXNet array may still be computing, a PyTorch CPU tensor is done.

# %%
host = mx_big.asnumpy().astype(np.float64)
compare.assert_same(mx_product.asnumpy(), (host @ host).astype(np.float32), rtol=1e-4, atol=0)
assert (timings["mxnet nd.dot, not synced"].median
        < 0.1 * timings["mxnet nd.dot, synced"].median)
assert timings["mxnet nd.dot, not synced"].work == "async"
assert timings["torch @, not synced"].work == ("async" if pt_dev.type == "cuda" else "eager")
{label: t.how for label, t in timings.items()}

# %% [markdown]
# The same mistake in a training loop that keeps its loss as an `NDArray` is measured in
# the deep dive [MXNet's lazy engine](deep_dives/autograd_lazy_evaluation.ipynb) §1.
#
# ### Errors surface where you wait, not where you erred
#
# A *shape* error is found while the call is being set up, so it is raised at once:

# %% tags=["raises-exception"]
nd.dot(nd.ones((2, 3)), nd.ones((2, 3)))

# %% [markdown]
# An error that depends on the *values* is only found when the engine runs the kernel. These
# error cells run on the CPU context, whatever device was picked above (which checks a GPU
# kernel makes is another matter). Take index 7 of a 5-element array with `mode='raise'`: the
# call returns, so does the next line that uses its result,

# %%
mx_late = nd.take(nd.arange(5), nd.array([7]), mode="raise")
mx_late_doubled = mx_late * 2
"both lines returned"

# %% [markdown]
# and the error appears at the first sync point — here one line later, in real code perhaps
# in a logging call at the end of the epoch:

# %% tags=["raises-exception"]
mx_late_doubled.asnumpy()

# %% [markdown]
# PyTorch, synchronous on the CPU, raises on the offending line:

# %% tags=["raises-exception"]
torch.arange(5)[torch.tensor([7])]

# %% [markdown]
# Some invalid calls never raise at all (`nd.Embedding` and `nd.one_hot` take an
# out-of-range index without complaint), and an error is reported only once: a second read
# of the same array returns values nobody computed. The deep dive's §2 surveys which.
#
# ### Finding the line: `MXNET_ENGINE_TYPE=NaiveEngine`
#
# The naive engine runs every operator synchronously in the calling thread, so an error is
# raised by the line that caused it, and `nd.dot` returns only when the product exists. It
# is chosen when MXNet is imported: set it before starting Python or Jupyter
# (`MXNET_ENGINE_TYPE=NaiveEngine jupyter lab`). The deep dive's §3 runs a six-line script
# with each engine: the error moves from the sync point (line 6) to the bug (line 3).

# %% [markdown]
# ## Summary
#
# | | PyTorch | MXNet Gluon | note |
# |---|---|---|---|
# | mark a tensor | `torch.tensor(..., requires_grad=True)`, `x.requires_grad_()` | `x.attach_grad()` | `Variable(...)` is a leftover name |
# | record | `torch.enable_grad()` (the default) | `with autograd.record():` | MXNet records only inside the scope |
# | `.grad` before backward | `None` | `nd.zeros(x.shape)` | |
# | training behaviour | `model.train()` / `model.eval()` | `autograd.record()`, `autograd.train_mode()` / `autograd.pause()`, `autograd.predict_mode()` | a flag on each module; scopes of the calling thread (`record()` also means training) |
# | eval-mode gradients (a parity run) | `model.eval()`, `loss.backward()` | `autograd.record()` with `nn.Dropout(0.0)`, `nn.BatchNorm(use_global_stats=True)` | not `record(train_mode=False)`: wrong gradients in 1.9.1 (max pooling with oneDNN, BatchNorm's input) |
# | stop recording | `torch.no_grad()`, `torch.inference_mode()` | `autograd.pause()` | `pause()` also means *predicting*; `no_grad()` leaves the module flag alone |
# | read the flags | `torch.is_grad_enabled()`, `module.training` | `autograd.is_recording()`, `autograd.is_training()` | |
# | set the flags | `torch.set_grad_enabled(b)`, `model.train(b)` | `autograd.set_recording(b)`, `autograd.set_training(b)` | |
# | dropout in any mode | `F.dropout(x, p, training=True)` | `nd.Dropout(x, p, mode='always')` | a per-call override |
# | BatchNorm running statistics | updated in the forward pass of a `train()` module | updated in `backward()` | variance: unbiased / biased |
# | gradients across backward calls | `.grad` adds up; `optimizer.zero_grad()` sets `None` | `grad_req='write'` (overwrites), `grad_req='add'` + `params.zero_grad()`, `grad_req='null'` | |
# | micro-batch accumulation | `(loss / n_micro).backward()` each, `opt.step()`, `opt.zero_grad()` | `grad_req='add'`, per-sample `loss.backward()` each, `trainer.step(full_batch)`, `params.zero_grad()` | |
# | second order | `torch.autograd.grad(..., create_graph=True)` | `autograd.grad(..., create_graph=True)` | many 1.9.1 operators cannot: `**`, `*`, scalar `*`, `sum`, `softmax` |
# | wait for the work | `torch.cuda.synchronize()`, `x.item()`, `x.cpu()` (CUDA only) | `x.wait_to_read()`, `x.asnumpy()`, `x.asscalar()`, `mx.nd.waitall()` | MXNet is always asynchronous; `mx.nd.NDArray` has no `item()` |
# | debugging late errors | `CUDA_LAUNCH_BLOCKING=1` | `MXNET_ENGINE_TYPE=NaiveEngine` | the error on the line that caused it |
#
# ### Seed claims, checked
#
# | seed claim | verdict | shown in |
# |---|---|---|
# | PyTorch records with `Variable(torch.FloatTensor(1), requires_grad=True)` | **obsolete**: `Variable` survives as a name that returns a plain `Tensor`; use `torch.tensor(..., requires_grad=True)` | §1 |
# | MXNet records only inside `autograd.record()`; PyTorch by marking tensors | **confirmed**; and a forward pass only partly inside `record()` gives a silently wrong gradient | §1 |
# | `record(train_mode=True)`, `pause(train_mode=False)`; `train_mode()` / `predict_mode()` switch behaviour without touching recording | **confirmed** for the forward pass; but gradients recorded while predicting are wrong in 1.9.1 for max pooling (oneDNN, float32) and for BatchNorm's input (batch statistics) | §2, [deep dive](deep_dives/autograd_predict_mode.ipynb) |
# | the scope-override example ending `with autograd.pause(): w = w.grad` | **runs, but does nothing useful**: it rebinds the name `w` to the gradient; update the weight in place (`w[:] = w - lr * w.grad`) | [deep dive](deep_dives/autograd_scopes.ipynb) §4 |
# | PyTorch has "no equivalent" of the scope overrides | **corrected**: `no_grad()` / `inference_mode()` ≈ `pause()`; `train()` / `eval()` do the same job as module state rather than a scope; `F.dropout(training=)` overrides per call; a scope is a few lines | §2, [deep dive](deep_dives/autograd_scopes.ipynb) §2 |
# | PyTorch accumulates gradients and needs `zero_grad()`; Gluon's default `grad_req='write'` overwrites, so no clearing is needed | **confirmed**, with two additions: `zero_grad()` now sets `None`, and `grad_req='add'` does need `zero_grad()` | §3, §4 |
# | `zero_grad` of "the PyTorch optimizer or the Gluon `Trainer`" | **corrected**: `Trainer` has no `zero_grad`; it is on `Parameter` / `ParameterDict` | §3 |
# | MXNet is lazy: Python pushes operators and returns; sync with `asnumpy()`, `wait_to_read()`, `metric.update()` | **confirmed**, each sync point checked; errors surface at those sync points | §6 |
# | batch-end sync is "not available" in PyTorch | **corrected**: not needed on the CPU (synchronous, checked in §6); on CUDA, `torch.cuda.synchronize()` or any `.item()` / `.cpu()` (PyTorch's CUDA notes) | §6 |

# %% [markdown]
# ## Exercises
#
# 1. Time ten `nd.dot` calls on 1000×1000 matrices in a Python loop, with and without a
#    `wait_to_read()` inside the loop. Where does the time go when there is none?
# 2. The 8 samples of §4 arrive as micro-batches of 3, 3 and 2. Which of the two recipes
#    still gives the full batch's gradient, and what must the other one change?
#
# :::{dropdown} Solutions
# 1. Without the wait, the loop returns after the ten launches, long before the products
#    exist: the engine's worker threads compute them while Python moves on, and
#    `mx.nd.waitall()` after the loop waits for the rest. With a wait in each iteration,
#    the loop itself takes the time of the ten products.
# 2. Gluon's: per-sample losses summed by `backward()` and `trainer.step(8)` do not care
#    how the 8 samples were split. PyTorch's `mean / N_MICRO` weighs each micro-batch
#    equally, so the two samples of the last one count 1/6 each instead of 1/8: scale each
#    micro-batch's mean loss by its share of the batch, `len(xb) / len(X)` (or sum the
#    losses and divide by 8).
# :::
#
# **Solutions**, run with asserts: the two cells below (folded away in the book: open each
# one); each ends with its answer.

# %% tags=["hide-cell", "nbval-ignore-output"]
mx_mats = nd.random.uniform(shape=(1000, 1000))
mx_mats.wait_to_read()


def ten_products(wait):
    """(seconds until the loop returned, seconds until all ten products existed)."""
    tic = time.perf_counter()
    for _ in range(10):
        mx_p = nd.dot(mx_mats, mx_mats)
        if wait:
            mx_p.wait_to_read()
    returned = time.perf_counter() - tic
    mx.nd.waitall()
    return returned, time.perf_counter() - tic


loops = {"no wait": ten_products(False), "a wait in each iteration": ten_products(True)}
print(threads.current())
for label, (returned, done) in loops.items():
    print(f"{label:25} loop returned after {returned * 1e3:8.1f} ms, "
          f"the products existed after {done * 1e3:8.1f} ms")
assert loops["no wait"][0] < 0.5 * loops["no wait"][1]      # most of the work was queued
assert loops["a wait in each iteration"][0] > 5 * loops["no wait"][0]
"1. without a wait the loop returns after the launches; the engine computes meanwhile"

# %% tags=["hide-cell"]
SPLIT = [slice(0, 3), slice(3, 6), slice(6, 8)]
pt_net, mx_net = fresh_pair()
torch.nn.functional.mse_loss(pt_net(pt_X), pt_Y).backward()
pt_full = pt_grads(pt_net)
recipes = {}
for name, weight in {"mean / N_MICRO": lambda n: 1 / len(SPLIT),
                     "mean · len(xb) / len(X)": lambda n: n / len(X)}.items():
    pt_net.zero_grad()
    for part in SPLIT:
        xb, yb = pt_X[part], pt_Y[part]
        (torch.nn.functional.mse_loss(pt_net(xb), yb) * weight(len(xb))).backward()
    recipes[name] = pt_grads(pt_net)
mx_params = mx_net.collect_params()
mx_params.setattr("grad_req", "add")
for part in SPLIT:
    with autograd.record():
        mx_loss = ((mx_net(mx_X[part]) - mx_Y[part]) ** 2).mean(axis=1)
    mx_loss.backward()
mx_uneven = [g / len(X) for g in mx_grads_of(mx_net)]   # what trainer.step(8) applies
for full, fixed, mx_g in zip(pt_full, recipes["mean · len(xb) / len(X)"], mx_uneven):
    compare.assert_same(full, fixed, atol=1e-6)
    compare.assert_same(full, mx_g, atol=1e-6)
assert compare.max_abs_diff(pt_full[0], recipes["mean / N_MICRO"][0]) > 1e-3
"2. Gluon's recipe is right as it is; PyTorch's must weigh each mean by len(xb) / len(X)"
