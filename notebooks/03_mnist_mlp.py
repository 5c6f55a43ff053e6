# %% [markdown]
# # 3 · The four-step MLP: data, model, loss and optimizer, training loop
#
# **What you will learn**
#
# - the four steps of training a 784-256-10 MLP (SGD, learning rate 0.1, batch 128) in
#   PyTorch and in MXNet Gluon, one difference at a time: `transform_first`, deferred shape
#   inference, per-sample losses, `step(batch_size)`, no `zero_grad`;
# - how to *prove* a migration: Gluon starts from PyTorch's weights, both see the same
#   batches, and the per-step losses are compared — and what the two classic mistakes do to
#   that comparison;
# - how to time MXNet honestly (it is lazy), and what this machine says about the claim that
#   "MXNet is about twice as fast".
#
# The dataset is Fashion-MNIST (the collection's default, available offline; see the
# README), or the seed's MNIST with `SIDEBYSIDE_DATASET=mnist`. The goals are **≥ 84 %**
# test accuracy on Fashion-MNIST and **≥ 97 %** on MNIST; section 4 asserts the one for the
# dataset in use.
#
# **Time budget.** The notebook is sized to run in under 90 s on two CPU cores (57 s
# measured on an idle 2-core machine), with `EPOCHS = 3` full passes over the 60 000
# training images (5 for MNIST, whose 97 % goal needs more passes); most of that time goes
# into decoding and normalising the images one at a time in each framework's data
# pipeline. Raise `EPOCHS` (the only knob) for a better model: each epoch adds the two
# epoch times printed in section 5.

# %% tags=["nbval-ignore-output"]
import copy
import itertools
import os
import time

import mxnet as mx
import numpy as np
import torch
from mxnet import autograd, gluon
from mxnet.gluon.data.vision import transforms as mx_transforms
from torchvision import transforms as pt_transforms
from tqdm import tqdm

from sidebyside import compare, data, devices, plotting, seeding, timing, transfer

EPOCHS = 5 if data.dataset_name() == "mnist" else 3   # the one knob (longer = better)
BATCH_SIZE = 128
LR = 0.1
SEED = 0
NUM_WORKERS = 0     # see the end of section 1

seeding.seed_everything(SEED)
devs = devices.pick()
pt_dev, mx_ctx = devs.torch.device, devs.mxnet.device
print("dataset:", data.dataset_name())

# %% [markdown]
# ## 1. Data
#
# `sidebyside.data.load` gives each framework its *own* dataset class over one copy of the
# files: `torchvision.datasets.MNIST` (or `FashionMNIST`) and
# `gluon.data.vision.MNIST` (or `FashionMNIST`). Untransformed, a sample is a PIL image in
# PyTorch and an `NDArray` of shape `(28, 28, 1)` in Gluon:

# %%
train, test = data.load(train=True), data.load(train=False)
pt_img, pt_label = train.torch[0]
mx_img, mx_label = train.gluon[0]
{"train / test": (len(train), len(test)),
 "PyTorch sample": (type(pt_img).__name__, pt_img.size, type(pt_label).__name__),
 "Gluon sample": (type(mx_img).__name__, mx_img.shape, mx_img.dtype.__name__,
                  type(mx_label).__name__)}

# %%
assert (len(train), len(test)) == (60_000, 10_000)
assert np.array_equal(np.asarray(pt_img), mx_img.asnumpy()[:, :, 0])
assert pt_label == mx_label
assert isinstance(pt_label, int) and isinstance(mx_label, np.int32)

# %% [markdown]
# The seed normalises with `(0.13, 0.31)`: MNIST's pixel mean and standard deviation. They
# are the dataset's, not magic numbers, so we compute them from the training images
# (exactly, from the integer pixels) — MNIST gives `0.1307, 0.3081`, Fashion-MNIST
# `0.2860, 0.3530`:

# %% tags=["nbval-ignore-output"]
pixels = train.torch.data.numpy()            # uint8, (60000, 28, 28)
MEAN = round(float(pixels.mean(dtype=np.float64)) / 255, 4)
STD = round(float(pixels.std(dtype=np.float64)) / 255, 4)
MEAN, STD

# %%
expected = {"mnist": (0.1307, 0.3081), "fashion-mnist": (0.286, 0.353)}
assert (MEAN, STD) == expected[train.name]

# %% [markdown]
# **PyTorch**: a `Compose` of `ToTensor` (uint8 `H×W` → float `1×H×W` in `[0, 1]`) and
# `Normalize`, passed as the dataset's `transform=`. torchvision applies `transform` to the
# **image only**; the label has its own `target_transform`.

# %%
pt_trans = pt_transforms.Compose([pt_transforms.ToTensor(),
                                  pt_transforms.Normalize((MEAN,), (STD,))])
pt_train_set = data.torch_dataset(train=True, transform=pt_trans)
pt_x0, pt_y0 = pt_train_set[0]
(tuple(pt_x0.shape), pt_x0.dtype, type(pt_y0).__name__)

# %% [markdown]
# **Gluon**: the same `Compose`, but the dataset is transformed afterwards with
# `transform_first`, which applies the function to the first element of each sample (the
# image) and passes the rest (the label) through:

# %%
mx_trans = mx_transforms.Compose([mx_transforms.ToTensor(),
                                  mx_transforms.Normalize(MEAN, STD)])
mx_train_set = train.gluon.transform_first(mx_trans)
mx_x0, mx_y0 = mx_train_set[0]
(type(mx_train_set).__name__, mx_x0.shape, mx_x0.dtype.__name__,
 type(mx_y0).__name__)

# %%
compare.assert_same(pt_x0, mx_x0, atol=1e-6)
assert pt_y0 == mx_y0
assert compare.max_abs_diff(pt_train_set[123][0], mx_train_set[123][0]) <= 1e-6

# %% [markdown]
# ### `transform` is not `transform_first`
#
# Gluon's plain `transform(fn)` calls `fn(*sample)` — image **and** label. A `Compose`
# takes one input, so the first sample already fails:

# %% tags=["raises-exception"]
train.gluon.transform(mx_trans)[0]

# %% [markdown]
# With `transform`, the function must take both and return both; `transform_first(fn)` is
# exactly `transform(lambda img, label: (fn(img), label))`:

# %%
both = train.gluon.transform(lambda img, label: (mx_trans(img), label))
try:
    train.gluon.transform(mx_trans)[0]
except TypeError as exc:
    error = str(exc)
error

# %%
assert "positional argument" in error
compare.assert_same(both[0][0], mx_x0)
assert both[0][1] == mx_y0

# %% [markdown]
# ### `Normalize` arguments
#
# The seed writes `Normalize((0.13,), (0.31,))` for PyTorch and `Normalize(0.13, 0.31)`
# for Gluon, as if each needed its own form. Both accept both — a tuple holds one value per
# channel, a scalar serves every channel:

# %%
pt_scalar = pt_transforms.Compose([pt_transforms.ToTensor(),
                                   pt_transforms.Normalize(MEAN, STD)])
mx_tuple = mx_transforms.Compose([mx_transforms.ToTensor(),
                                  mx_transforms.Normalize((MEAN,), (STD,))])
(compare.max_abs_diff(pt_scalar(pt_img), pt_x0),
 compare.max_abs_diff(mx_tuple(mx_img), mx_x0))

# %%
assert compare.max_abs_diff(pt_scalar(pt_img), pt_x0) == 0.0
assert compare.max_abs_diff(mx_tuple(mx_img), mx_x0) == 0.0

# %% [markdown]
# ### The loaders
#
# **PyTorch**

# %%
pt_train_loader = torch.utils.data.DataLoader(
    pt_train_set, batch_size=BATCH_SIZE, shuffle=True, num_workers=NUM_WORKERS)
pt_X, pt_y = next(iter(pt_train_loader))
(len(pt_train_loader), tuple(pt_X.shape), pt_X.dtype, pt_y.dtype)

# %% [markdown]
# **Gluon**: batches are `NDArray`s, and the labels are `int32` (PyTorch's are `int64`):

# %%
mx_train_loader = gluon.data.DataLoader(
    mx_train_set, batch_size=BATCH_SIZE, shuffle=True, num_workers=NUM_WORKERS)
mx_X, mx_y = next(iter(mx_train_loader))
(len(mx_train_loader), mx_X.shape, mx_X.dtype.__name__, mx_y.dtype.__name__)

# %% [markdown]
# A few samples from each loader. Each `shuffle=True` draws its own order (PyTorch from
# torch's generator, Gluon from numpy's), so the two rows show different images:

# %%
plotting.sample_grid({"PyTorch": (pt_X, pt_y), "Gluon": (mx_X, mx_y)},
                     classes=train.classes, n=8)

# %%
assert len(pt_train_loader) == len(mx_train_loader) == 469   # 468 × 128 + one of 96
assert tuple(pt_X.shape) == mx_X.shape == (BATCH_SIZE, 1, 28, 28)
assert pt_y.dtype == torch.int64 and mx_y.dtype == np.int32
assert not np.array_equal(pt_y.numpy(), mx_y.asnumpy())     # different shuffles

# %% [markdown]
# To compare the two trainings we need the *same* batches in the same order, so from here
# on both loaders get the same list of indices as their `sampler` (`shuffle` must then be
# left off), a fresh permutation per epoch:

# %%
def epoch_order(epoch):
    """The sample order of one epoch, the same for both frameworks."""
    gen = torch.Generator().manual_seed(SEED + epoch)
    return torch.randperm(len(train), generator=gen).tolist()


def loaders(order, num_workers=NUM_WORKERS):
    pt = torch.utils.data.DataLoader(pt_train_set, batch_size=BATCH_SIZE,
                                     sampler=order, num_workers=num_workers)
    mx_ = gluon.data.DataLoader(mx_train_set, batch_size=BATCH_SIZE,
                                sampler=order, num_workers=num_workers)
    return pt, mx_


pt_first, mx_first = (next(iter(loader)) for loader in loaders(epoch_order(0)))
compare.max_abs_diff(pt_first[0], mx_first[0])

# %%
assert compare.max_abs_diff(pt_first[0], mx_first[0]) <= 1e-6
assert np.array_equal(pt_first[1].numpy(), mx_first[1].asnumpy())

# %% [markdown]
# **`num_workers`.** The seed uses 4 worker processes. Both loaders' workers do start inside
# a Jupyter kernel on Linux (they fork) and return the same first batch as `0` workers:

# %%
pt_w, mx_w = (next(iter(loader))
              for loader in loaders(epoch_order(0), num_workers=2))
(compare.max_abs_diff(pt_w[0], pt_first[0]),
 compare.max_abs_diff(mx_w[0], mx_first[0]))

# %%
assert compare.max_abs_diff(pt_w[0], pt_first[0]) == 0.0
assert compare.max_abs_diff(mx_w[0], mx_first[0]) == 0.0

# %% [markdown]
# We still keep `NUM_WORKERS = 0`: this notebook is sized for a two-core machine, where
# worker processes compete with the training itself for the same cores, and starting them
# costs time at every epoch. On a machine with spare cores, raise it (exercise 1).
#
# ## 2. Model
#
# **PyTorch**: `Linear` needs its input size, `ReLU` is a layer of its own, and the
# parameters exist (initialised) as soon as the layer is built:

# %%
pt_net = torch.nn.Sequential(torch.nn.Linear(28 * 28, 256), torch.nn.ReLU(),
                             torch.nn.Linear(256, 10)).to(pt_dev)
{name: tuple(p.shape) for name, p in pt_net.named_parameters()}

# %% [markdown]
# **Gluon**: `Dense` takes only the output size, the activation is an argument, and
# `initialize()` is a separate, compulsory call. The input size is still unknown (`0`):

# %%
mx_net = gluon.nn.Sequential()
mx_net.add(gluon.nn.Dense(256, activation="relu"), gluon.nn.Dense(10))
mx_net.initialize(ctx=mx_ctx)
shapes_before = {name: p.shape for name, p in mx_net.collect_params().items()}
shapes_before

# %% [markdown]
# The first forward pass fixes the shapes (deferred shape inference). `Dense` flattens its
# input by default (`flatten=True`), so the `(N, 1, 28, 28)` batch goes in as it is — no
# `view(-1, 784)`:

# %%
mx_net(mx_X.as_in_context(mx_ctx))
shapes_after = {name: p.shape for name, p in mx_net.collect_params().items()}
shapes_after

# %%
assert [s[1] for s in shapes_before.values() if len(s) == 2] == [0, 0]
# Gluon stores a weight as (out, in), like PyTorch
assert list(shapes_after.values()) == [tuple(p.shape) for p in pt_net.parameters()]

# %% [markdown]
# Without `initialize()` there is nothing to compute with:

# %% tags=["raises-exception"]
gluon.nn.Dense(10)(mx.nd.ones((1, 784)))

# %% [markdown]
# `flatten` matters: with `flatten=False` a `Dense` layer, like PyTorch's `Linear`, works
# on the last axis only, which for an image batch is a row of 28 pixels:

# %%
row_dense = gluon.nn.Dense(256, flatten=False)
row_dense.initialize(ctx=mx_ctx)
(row_dense(mx_X.as_in_context(mx_ctx)).shape,
 tuple(torch.nn.Linear(28, 256)(pt_X).shape))

# %%
assert row_dense(mx_X.as_in_context(mx_ctx)).shape == (BATCH_SIZE, 1, 28, 256)
assert tuple(mx_net(mx_X.as_in_context(mx_ctx)).shape) == (BATCH_SIZE, 10)

# %% [markdown]
# **Same starting point.** Each framework initialises with its own scheme and random
# numbers. To compare the trainings, Gluon starts from PyTorch's initial weights
# (`sidebyside.transfer.torch_to_gluon` pairs `Linear` with `Dense` in order and checks
# every shape); the two networks then give the same outputs:

# %%
init_state = copy.deepcopy(pt_net.state_dict())     # reused in section 4
transfer.torch_to_gluon(pt_net, mx_net)

# %% [markdown]
# The same two networks as functions, for the experiments below: a Gluon MLP, and a pair
# of fresh networks that both hold PyTorch's *initial* weights (the copy also fills in
# the Gluon shapes that deferred initialisation left open):

# %%
def gluon_mlp():
    net = gluon.nn.Sequential()
    net.add(gluon.nn.Dense(256, activation="relu"), gluon.nn.Dense(10))
    net.initialize(ctx=mx_ctx)
    return net


def fresh_pair():
    pt = copy.deepcopy(pt_net)
    pt.load_state_dict(init_state)
    mx_ = gluon_mlp()
    transfer.torch_to_gluon(pt, mx_)
    return pt, mx_

# %%
pt_out = pt_net(pt_first[0].to(pt_dev).view(-1, 28 * 28))
mx_out = mx_net(mx_first[0].as_in_context(mx_ctx))
compare.assert_same(pt_out, mx_out, atol=1e-5)
assert compare.max_abs_diff(pt_out, mx_out) <= 1e-5

# %% [markdown]
# ## 3. Loss and optimizer
#
# **PyTorch**: `CrossEntropyLoss` returns the **mean** over the batch, one number:

# %%
pt_loss_fn = torch.nn.CrossEntropyLoss()
pt_trainer = torch.optim.SGD(pt_net.parameters(), lr=LR)
pt_loss = pt_loss_fn(pt_out, pt_first[1].to(pt_dev))
pt_loss.shape

# %% [markdown]
# **Gluon**: `SoftmaxCrossEntropyLoss` returns one loss **per sample**; the optimiser is
# named by a string and configured with a dictionary, and `collect_params()` plays the
# part of `parameters()`:

# %%
mx_loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
mx_trainer = gluon.Trainer(mx_net.collect_params(), "sgd", {"learning_rate": LR})
mx_loss = mx_loss_fn(mx_out, mx_first[1].as_in_context(mx_ctx))
mx_loss.shape

# %% [markdown]
# With numbers: Gluon's per-sample losses are PyTorch's `reduction="none"`, and their mean
# is PyTorch's default loss:

# %% tags=["nbval-ignore-output"]
pt_per_sample = torch.nn.CrossEntropyLoss(reduction="none")(
    pt_out, pt_first[1].to(pt_dev))
{"PyTorch mean": round(pt_loss.item(), 4),
 "Gluon mean": round(float(mx_loss.mean().asscalar()), 4),
 "max |per-sample difference|": compare.max_abs_diff(pt_per_sample, mx_loss)}

# %%
assert pt_loss.shape == () and mx_loss.shape == (BATCH_SIZE,)
compare.assert_same(pt_per_sample, mx_loss, atol=1e-5)
assert abs(pt_loss.item() - mx_loss.mean().asscalar()) <= 1e-5

# %% [markdown]
# `parameters()` is a generator of tensors; `collect_params()` a dictionary from names to
# `Parameter` objects (the array is `p.data()`, its gradient `p.grad()`). Same four arrays:

# %%
mx_params = mx_net.collect_params()
(type(pt_net.parameters()).__name__, type(mx_params).__name__, list(mx_params))

# %%
assert sum(p.numel() for p in pt_net.parameters()) == 784 * 256 + 256 + 256 * 10 + 10
for p, q in zip(pt_net.parameters(), mx_params.values()):
    compare.assert_same(p, q.data())

# %% [markdown]
# ## 4. Training loop
#
# **PyTorch**: clear the gradients (`backward()` *adds* to them), forward with the
# `view(-1, 784)`, `backward()` on the mean loss, `step()`. `.item()` turns the loss into a
# Python number (and waits for it).

# %%
def pt_train_epoch(loader):
    losses, accs = [], []
    for X, y in tqdm(loader, desc="PyTorch", leave=False, mininterval=3):
        X, y = X.to(pt_dev), y.to(pt_dev)
        pt_trainer.zero_grad()
        out = pt_net(X.view(-1, 28 * 28))
        loss = pt_loss_fn(out, y)
        loss.backward()
        pt_trainer.step()
        losses.append(loss.item())
        accs.append((out.argmax(1) == y).float().mean().item())
    return losses, accs

# %% [markdown]
# **Gluon**: no `zero_grad` (by default `backward()` *overwrites* the gradients:
# `grad_req="write"`); the forward pass runs inside `autograd.record()`; `backward()` on
# the per-sample losses sums their gradients, and `step(batch_size)` divides by the batch
# size — so the update is the mean's, as in PyTorch. Pass the size of *this* batch,
# `X.shape[0]`: the seed's `step(batch_size=128)` is wrong for the last batch of 96.
# `.asscalar()` is Gluon's `.item()` (an `NDArray` in MXNet 1.9.1 has no `.item()`):

# %%
def mx_train_epoch(loader):
    losses, accs = [], []
    for X, y in tqdm(loader, desc="Gluon", leave=False, mininterval=3):
        X, y = X.as_in_context(mx_ctx), y.as_in_context(mx_ctx)
        with autograd.record():
            out = mx_net(X)
            loss = mx_loss_fn(out, y)
        loss.backward()
        mx_trainer.step(X.shape[0])
        losses.append(loss.mean().asscalar())
        accs.append((out.argmax(axis=1) == y.astype("float32")).mean().asscalar())
    return losses, accs

# %%
assert not hasattr(mx.nd.ones((1,)), "item")    # the seed's `.item()` fails on NDArray
assert mx.nd.ones((1,)).mean().asscalar() == 1.0

# %% [markdown]
# Both train for `EPOCHS` epochs on the same batches. Each epoch is timed; `.item()` and
# `.asscalar()` wait for every step, and `mx.nd.waitall()` makes sure nothing is left
# queued when the clock stops (section 5 shows why that matters).

# %% tags=["nbval-ignore-output"]
history = {"PyTorch": ([], [], []), "Gluon": ([], [], [])}   # losses, accs, seconds
for epoch in range(EPOCHS):
    pt_loader, mx_loader = loaders(epoch_order(epoch))
    for name, run, loader in (("PyTorch", pt_train_epoch, pt_loader),
                              ("Gluon", mx_train_epoch, mx_loader)):
        tic = time.perf_counter()
        losses, accs = run(loader)
        mx.nd.waitall()
        history[name][0].extend(losses)
        history[name][1].extend(accs)
        history[name][2].append(time.perf_counter() - tic)
        print(f"epoch {epoch} {name}: mean loss {np.mean(losses):.4f}")

# %% [markdown]
# Test accuracy, each framework its own way: PyTorch counts under `torch.no_grad()`,
# Gluon feeds `mx.metric.Accuracy` (outside `autograd.record()` nothing is recorded):

# %%
def pt_accuracy():
    loader = torch.utils.data.DataLoader(
        data.torch_dataset(train=False, transform=pt_trans), batch_size=1000)
    correct = 0
    with torch.no_grad():
        for X, y in loader:
            pred = pt_net(X.to(pt_dev).view(-1, 28 * 28)).argmax(1)
            correct += (pred == y.to(pt_dev)).sum().item()
    return correct / len(loader.dataset)


def mx_accuracy():
    loader = gluon.data.DataLoader(test.gluon.transform_first(mx_trans),
                                   batch_size=1000)
    metric = mx.metric.Accuracy()
    for X, y in loader:
        metric.update(y.as_in_context(mx_ctx), mx_net(X.as_in_context(mx_ctx)))
    return metric.get()[1]

# %% tags=["nbval-ignore-output"]
TARGET = {"mnist": 0.97, "fashion-mnist": 0.84}[train.name]
accuracy = {"PyTorch": pt_accuracy(), "Gluon": mx_accuracy()}
accuracy

# %%
assert min(accuracy.values()) >= TARGET, (accuracy, TARGET)
assert abs(accuracy["PyTorch"] - accuracy["Gluon"]) <= 0.005

# %% [markdown]
# Loss and (per-batch training) accuracy of both, on the same axes, and the gap between
# the two losses on a log scale:

# %% tags=["nbval-ignore-output"]
pt_losses, mx_losses = (np.array(history[k][0]) for k in ("PyTorch", "Gluon"))
gap = np.abs(pt_losses - mx_losses)
plotting.curves(
    {"training loss": {k: history[k][0] for k in history},
     "training accuracy (batch)": {k: history[k][1] for k in history},
     "|loss PyTorch − loss Gluon|": {"gap": np.maximum(gap, 1e-9)}},
    smooth={"training loss": 20, "training accuracy (batch)": 20},
    logy=["|loss PyTorch − loss Gluon|"])

# %% [markdown]
# ### Parity, proven
#
# The two trainings are the same computation, done by two libraries. Their float32 results
# differ in the last bits (different matrix-multiplication kernels add in different
# orders), so the losses cannot be equal bit for bit. The stated tolerances: **|Δloss| ≤
# 1e-4 over the first 20 steps**, and **≤ 0.05 at every step of the whole run** (at least
# 100 steps; the loss itself runs from 2.3 down to about 0.3):

# %% tags=["nbval-ignore-output"]
jump = int(np.argmax(gap > 1e-4)) if (gap > 1e-4).any() else None
{"steps compared": len(gap), "max |Δloss|, first 20 steps": gap[:20].max(),
 "max |Δloss|, all steps": gap.max(), "median |Δloss|": float(np.median(gap)),
 "first step with |Δloss| > 1e-4": jump}

# %%
assert len(pt_losses) == len(mx_losses) == EPOCHS * 469 >= 100
assert gap[:20].max() <= 1e-4
assert gap.max() <= 0.05

# %% [markdown]
# Why the gap does not stay at rounding level: a hidden unit whose pre-activation is
# closer to zero than the two frameworks' rounding difference can land on different sides
# of the ReLU. That sample's gradient then flows through the unit in one framework and
# not in the other — a real, if tiny, difference in the update, which later steps carry
# on and add to. To see it happen, replay the first `N_DEMO` steps of epoch 0 in lockstep
# (same initial weights, same batches) and count, at every step, the (sample, hidden
# unit) pairs whose ReLU disagrees:

# %%
N_DEMO = 100
pt_batches = list(itertools.islice(loaders(epoch_order(0))[0], N_DEMO))
mx_batches = list(itertools.islice(loaders(epoch_order(0))[1], N_DEMO))


def lockstep():
    pt, gl = fresh_pair()
    opt = torch.optim.SGD(pt.parameters(), lr=LR)
    trainer = gluon.Trainer(gl.collect_params(), "sgd", {"learning_rate": LR})
    gaps, flips = [], []
    for (pX, py), (mX, my) in zip(pt_batches, mx_batches):
        pX, py = pX.to(pt_dev).view(-1, 28 * 28), py.to(pt_dev)
        mX, my = mX.as_in_context(mx_ctx), my.as_in_context(mx_ctx)
        pt_h = pt[0](pX)                                  # pre-activations
        mx_h = mx.nd.FullyConnected(mX, gl[0].weight.data(), gl[0].bias.data(),
                                    num_hidden=256)
        flips.append(int(((pt_h > 0).cpu().numpy() != (mx_h > 0).asnumpy()).sum()))
        opt.zero_grad()
        loss = pt_loss_fn(pt[2](pt[1](pt_h)), py)
        loss.backward()
        opt.step()
        with autograd.record():
            mx_loss = mx_loss_fn(gl(mX), my)
        mx_loss.backward()
        trainer.step(mX.shape[0])
        gaps.append(abs(loss.item() - mx_loss.mean().asscalar()))
    return np.array(gaps), np.array(flips)

# %% tags=["nbval-ignore-output"]
lock_gap, lock_flips = lockstep()
first_flip = int(np.argmax(lock_flips > 0)) if lock_flips.any() else None
{"first step where a ReLU disagrees": first_flip,
 "max |Δloss| before it": float(lock_gap[:first_flip].max()) if first_flip else None,
 "max |Δloss| after it": float(lock_gap[first_flip:].max()) if first_flip else None,
 "ReLU disagreements in all steps": int(lock_flips.sum()),
 "of": N_DEMO * BATCH_SIZE * 256}

# %%
if jump is not None and jump < N_DEMO:   # the gap left rounding level in here:
    assert first_flip is not None and first_flip <= jump   # a ReLU flipped before
if first_flip:
    assert lock_gap[:first_flip].max() <= 1e-4   # before any flip: rounding only

# %% [markdown]
# ### The two classic mistakes, with numbers
#
# Both runs restart from the same initial weights and take the first 30 of those batches;
# the reference is the correct PyTorch loop:

# %%
def pt_run(zero_grad=True, n=30):
    net = fresh_pair()[0]
    opt = torch.optim.SGD(net.parameters(), lr=LR)
    losses = []
    for X, y in pt_batches[:n]:
        if zero_grad:
            opt.zero_grad()
        loss = pt_loss_fn(net(X.to(pt_dev).view(-1, 28 * 28)), y.to(pt_dev))
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return np.array(losses)


def mx_run(step_size=None, mean_loss=False, n=30):
    """`step_size=None`: the right call, `trainer.step(X.shape[0])`."""
    net = fresh_pair()[1]
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": LR})
    losses = []
    for X, y in mx_batches[:n]:
        X, y = X.as_in_context(mx_ctx), y.as_in_context(mx_ctx)
        with autograd.record():
            loss = mx_loss_fn(net(X), y)
            if mean_loss:
                loss = loss.mean()
        loss.backward()
        trainer.step(X.shape[0] if step_size is None else step_size)
        losses.append(loss.mean().asscalar())
    return np.array(losses)

# %% tags=["nbval-ignore-output"]
reference = pt_run()
runs = {"Gluon, step(X.shape[0])": mx_run(),
        "Gluon, loss.mean() + step(1)": mx_run(step_size=1, mean_loss=True),
        "Gluon, step(1) on per-sample losses": mx_run(step_size=1),
        "PyTorch without zero_grad()": pt_run(zero_grad=False)}
max_gap = {name: float(np.nanmax(np.abs(losses - reference)))
           for name, losses in runs.items()}
max_gap

# %% [markdown]
# The first two are right: the seed's remark that a loss already averaged needs
# `step(1)` holds. `step(1)` on the per-sample losses makes every update 128 times too
# large (a learning rate of 12.8) and the loss overflows; forgetting `zero_grad()` makes
# step *k* use the sum of *k* gradients. The loss over the 30 steps (a line that stops
# has overflowed):

# %% tags=["nbval-ignore-output"]
plotting.curves(
    {"Gluon step(): loss (log scale)": {
        "PyTorch (reference)": reference,
        "step(X.shape[0])": runs["Gluon, step(X.shape[0])"],
        "step(1), per-sample losses": runs["Gluon, step(1) on per-sample losses"]},
     "PyTorch zero_grad(): loss": {
        "PyTorch (reference)": reference,
        "without zero_grad()": runs["PyTorch without zero_grad()"]}},
    logy="Gluon step(): loss (log scale)")

# %%
assert max_gap["Gluon, step(X.shape[0])"] <= 1e-4
assert max_gap["Gluon, loss.mean() + step(1)"] <= 1e-4
assert max_gap["Gluon, step(1) on per-sample losses"] > 1.0
assert max_gap["PyTorch without zero_grad()"] > 0.5

# %% [markdown]
# And the seed's `step(batch_size=128)` on the 96-sample last batch. This mistake hides
# inside the drift: one short update in 469 moves the losses by about as much as the
# ReLU disagreements do (when we tried it in the training loop, the largest |Δloss| rose
# from about 0.014 to 0.021 and the parity check above still passed). So it is checked on
# its own — one update, from the same weights, is 96/128 of the right one:

# %%
last = len(pt_train_set) // BATCH_SIZE * BATCH_SIZE
tail = list(range(last, len(pt_train_set)))
X_tail, y_tail = next(iter(loaders(tail)[1]))


def mx_update(step_size):
    net = fresh_pair()[1]
    before = net[0].weight.data().asnumpy()
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": LR})
    with autograd.record():
        out = net(X_tail.as_in_context(mx_ctx))
        loss = mx_loss_fn(out, y_tail.as_in_context(mx_ctx))
    loss.backward()
    trainer.step(step_size)
    return net[0].weight.data().asnumpy() - before


ratio = (np.abs(mx_update(BATCH_SIZE)).sum()
         / np.abs(mx_update(X_tail.shape[0])).sum())
(X_tail.shape[0], round(float(ratio), 4))

# %%
assert X_tail.shape[0] == 96
assert abs(ratio - 96 / 128) <= 1e-4

# %% [markdown]
# ## 5. "MXNet is about twice as fast" — timed here
#
# The epoch times of the training above, in seconds (both loops wait for every step,
# and the clock stops after `mx.nd.waitall()`), with the data pipeline included, as in
# the seed's comparison:

# %% tags=["nbval-ignore-output"]
epoch_times = {k: [round(t, 2) for t in history[k][2]] for k in history}
epoch_times

# %% [markdown]
# MXNet is lazy: an operator call only *queues* the work and returns. The seed's loop
# waits at every step (`.asscalar()`), but a loop that only accumulates the loss as an
# `NDArray` never waits, and a clock stopped when such a loop ends measures how fast work
# was *queued*. First the arithmetic alone: 469 training steps over the batches already
# in memory, for each framework, with the clock read before and after the wait:

# %%
def pt_arith_epoch():
    net = fresh_pair()[0]
    opt = torch.optim.SGD(net.parameters(), lr=LR)
    for X, y in itertools.islice(itertools.cycle(pt_batches), 469):
        opt.zero_grad()
        loss = pt_loss_fn(net(X.to(pt_dev).view(-1, 28 * 28)), y.to(pt_dev))
        loss.backward()
        opt.step()


def mx_arith_epoch():
    net = fresh_pair()[1]
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": LR})
    for X, y in itertools.islice(itertools.cycle(mx_batches), 469):
        with autograd.record():
            loss = mx_loss_fn(net(X.as_in_context(mx_ctx)), y.as_in_context(mx_ctx))
        loss.backward()
        trainer.step(X.shape[0])


def clock(fn):
    """Seconds until `fn` returns, and until all its work is done."""
    tic = time.perf_counter()
    fn()
    returned = time.perf_counter() - tic
    timing.sync()   # mx.nd.waitall(), and torch.cuda.synchronize() on a GPU
    return round(returned, 2), round(time.perf_counter() - tic, 2)

# %% [markdown]
# One more thing decides the arithmetic: threads. Both libraries use OpenMP, and in a
# process that has imported MXNet, PyTorch reports a single intra-op thread (in a process
# without MXNet it uses one per core). So PyTorch is timed both ways:

# %% tags=["nbval-ignore-output"]
torch_threads = torch.get_num_threads()
arith = {f"PyTorch, {torch_threads} thread(s)": clock(pt_arith_epoch),
         "Gluon": clock(mx_arith_epoch)}
torch.set_num_threads(os.cpu_count())
arith[f"PyTorch, {os.cpu_count()} threads"] = clock(pt_arith_epoch)
torch.set_num_threads(torch_threads)
{f"{k}: (returned, done)": v for k, v in arith.items()}

# %% [markdown]
# Gluon's "returned" time is the wrong number: most of its arithmetic was still queued.
# The same mistake on a real epoch, with the data loader in the loop:

# %% tags=["nbval-ignore-output"]
def mx_loader_epoch():
    net = fresh_pair()[1]
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": LR})
    total_loss = mx.nd.zeros((1,), ctx=mx_ctx)
    for X, y in loaders(epoch_order(EPOCHS))[1]:
        with autograd.record():
            loss = mx_loss_fn(net(X.as_in_context(mx_ctx)), y.as_in_context(mx_ctx))
        loss.backward()
        trainer.step(X.shape[0])
        total_loss += loss.mean()            # stays an NDArray: nothing waits


loader_epoch = clock(mx_loader_epoch)
{"Gluon epoch with loader: (returned, done)": loader_epoch}

# %%
assert arith["Gluon"][0] <= arith["Gluon"][1] and loader_epoch[0] <= loader_epoch[1]

# %% [markdown]
# When the two numbers come out close, it is because building each batch image by image
# in Python takes longer than the arithmetic, so the engine has caught up by the time the
# loop ends. Without the per-image pipeline (batches in memory, as above, or on a GPU)
# the unsynchronised clock can be wrong by most of the epoch. The summary of this run:

# %% tags=["nbval-ignore-output"]
verdict = {
    "epoch with data pipeline, PyTorch (s)": float(np.median(history["PyTorch"][2])),
    "epoch with data pipeline, Gluon (s)": float(np.median(history["Gluon"][2])),
    "arithmetic only, PyTorch (s)": arith[f"PyTorch, {torch_threads} thread(s)"][1],
    "arithmetic only, Gluon (s)": arith["Gluon"][1],
}
ratio_epoch = (verdict["epoch with data pipeline, PyTorch (s)"]
               / verdict["epoch with data pipeline, Gluon (s)"])
ratio_arith = (verdict["arithmetic only, PyTorch (s)"]
               / verdict["arithmetic only, Gluon (s)"])
print(f"On this machine a PyTorch epoch took {ratio_epoch:.2f}× a Gluon epoch; "
      f"for the arithmetic alone the factor was {ratio_arith:.2f}×.")
{k: round(v, 2) for k, v in verdict.items()}

# %% [markdown]
# How to read it (the numbers are this machine's; yours will differ): for this small
# MLP most of an epoch is the data pipeline, which runs in Python one image at a time —
# torchvision through a PIL image, Gluon through `NDArray` operators — and only the rest
# is the arithmetic of the network. A factor near the seed's "twice as fast" for whole
# epochs can therefore come entirely from the two *data pipelines* while the arithmetic
# is as fast or faster in PyTorch: compare the two factors printed above — and the
# thread count PyTorch was left with. All of it moves with the number of workers, the
# threads, the CPU, its load and the versions; none of it is a property of "MXNet"
# against "PyTorch". The seed itself calls its comparison a toy.
#
# ## Summary
#
# | step | PyTorch | MXNet Gluon |
# |---|---|---|
# | transform | `datasets.MNIST(..., transform=trans)` (image only; `target_transform` for labels) | `dataset.transform_first(trans)`; `transform(fn)` gets image **and** label |
# | normalise | `Normalize((m,), (s,))` or `Normalize(m, s)` | `Normalize(m, s)` or `Normalize((m,), (s,))` |
# | loader | `DataLoader(ds, batch_size, shuffle, num_workers)` | `gluon.data.DataLoader(ds, batch_size, shuffle, num_workers)`; labels `int32` |
# | layers | `Linear(784, 256)`, `ReLU()` | `Dense(256, activation='relu')`, input size inferred |
# | initialise | at construction | `net.initialize()`; shapes fixed by the first forward |
# | flatten | `X.view(-1, 784)` | `Dense(flatten=True)` (default) |
# | loss | `CrossEntropyLoss()` → batch mean | `SoftmaxCrossEntropyLoss()` → one per sample |
# | optimiser | `optim.SGD(net.parameters(), lr=0.1)` | `Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1})` |
# | gradients | `zero_grad()` every step (they add up) | none (`grad_req='write'` overwrites) |
# | forward for backward | always recorded | inside `with autograd.record():` |
# | update | `opt.step()` | `trainer.step(X.shape[0])`; `step(1)` if the loss is already a mean |
# | scalar | `loss.item()` | `loss.mean().asscalar()` |
# | timing | (CPU: eager) | lazy: `mx.nd.waitall()` before stopping the clock |
#
# ## Exercises
#
# 1. Set `NUM_WORKERS = 2` (or more, on a bigger machine) and compare the epoch times of
#    section 5 with the ones you got with `0`. Which framework gains more, and why?
# 2. Call `mx_net.hybridize()` before training and time an epoch again. Does the parity
#    check still pass? Does the epoch get faster, and which part of it?
# 3. In `mx_train_epoch`, replace `trainer.step(X.shape[0])` by `trainer.step(BATCH_SIZE)`.
#    Which step of each epoch changes, and how large is the effect on `gap`?
