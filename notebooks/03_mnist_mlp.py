# %% [markdown]
# # 3 · The four-step MLP: data, model, loss and optimizer, training loop
#
# **What you will learn**
#
# - the four steps of training a 784-256-10 MLP (SGD, learning rate 0.1, batch 128) in
#   PyTorch and in MXNet Gluon, one difference at a time: `transform_first`, deferred shape
#   inference, per-sample losses, `step(batch_size)`, no `zero_grad`;
# - how to *prove* a migration: Gluon starts from PyTorch's weights, both see the same
#   batches, and the per-step losses are compared — to 1e-13 in float64, where a porting
#   error (the seed's `step(batch_size=128)` on a short batch) shows as a jump;
# - how to judge the float32 run, which cannot agree bit for bit: against each framework's
#   own float32-vs-float64 drift, the yardstick that works in both directions of a port.
#
# The dataset is Fashion-MNIST (the collection's default, available offline; see the README)
# or the seed's MNIST with `SIDEBYSIDE_DATASET=mnist`. Section 4 asserts **≥ 84 %** test
# accuracy on Fashion-MNIST; for MNIST it asserts the usual **≥ 97 %** of this MLP, a route not
# run for this collection (no copy of MNIST can be had offline here).
#
# `EPOCHS = 3` passes over the 60 000 training images (5 for MNIST) size the notebook for two
# CPU cores. Raise it (the only knob) for a better model: each epoch adds the two epoch times
# printed in section 5 (from memory; through the seed's per-image loaders an epoch takes
# several times longer, exercise 1). Whether "MXNet is about
# twice as fast", as the seed says, is the deep dive [Timing the MLP](deep_dives/mlp_timing.ipynb).
#
# **Prerequisites**: [notebook 2](02_tensor_ops.ipynb) (tensors and their dtypes). **Time**:
# about 35 minutes.
#
# Both frameworks train here, and section 5 shows their epoch times side by side, so both get
# every CPU. MXNet gives its operators half of them unless told otherwise, and only a variable
# set *before* `import mxnet` changes that ([notebook 1 §3](01_install_and_environment.ipynb)):

# %% tags=["nbval-ignore-output"]
import os

if "MXNET_OMP_MAX_THREADS" not in os.environ:      # before `import mxnet`, or it is ignored
    os.environ["MXNET_OMP_MAX_THREADS"] = str(len(os.sched_getaffinity(0)))

import copy
import inspect
import itertools
import time
import warnings

import mxnet as mx
import numpy as np
import torch
from mxnet import autograd, gluon
from mxnet.gluon.data.vision import transforms as mx_transforms
from torchvision import transforms as pt_transforms
from tqdm import tqdm

from sidebyside import (compare, data, devices, drift, errors, optim, plotting, seeding,
                        threads, timing, transfer)

EPOCHS = 5 if data.dataset_name() == "mnist" else 3   # the one knob (longer = better)
BATCH_SIZE = 128
LR = 0.1
NUM_WORKERS = 0     # worker processes: notebook 4 §7

SEED = seeding.seed_everything(0)
devs = devices.pick()
pt_dev, mx_ctx = devs.torch.device, devs.mxnet.device
assert devs.threads.mxnet == int(os.environ["MXNET_OMP_MAX_THREADS"])
assert devs.threads.torch == threads.torch_default()
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
assert (len(train), len(test)) == (60_000, 10_000)
assert np.array_equal(np.asarray(pt_img), mx_img.asnumpy()[:, :, 0])
assert pt_label == mx_label
assert isinstance(pt_label, int) and isinstance(mx_label, np.int32)
{"train / test": (len(train), len(test)),
 "PyTorch sample": (type(pt_img).__name__, pt_img.size, type(pt_label).__name__),
 "Gluon sample": (type(mx_img).__name__, mx_img.shape, mx_img.dtype.__name__,
                  type(mx_label).__name__)}

# %% [markdown]
# The seed normalises with `(0.13, 0.31)`: MNIST's pixel mean and standard deviation, not
# magic numbers. `sidebyside.data` keeps each dataset's in its spec (MNIST `0.1307, 0.3081`,
# Fashion-MNIST `0.2860, 0.3530`); computed here from the integer pixels, in float64:

# %% tags=["nbval-ignore-output"]
pixels = train.torch.data.numpy()            # uint8, (60000, 28, 28)
computed = (float(pixels.mean(dtype=np.float64)) / 255,
            float(pixels.std(dtype=np.float64)) / 255)
spec = data.SPECS[train.name]
MEAN, STD = spec.mean, spec.std
assert abs(computed[0] - MEAN) <= 5e-5 and abs(computed[1] - STD) <= 5e-5
{"computed": computed, "spec (4 decimals)": (MEAN, STD)}

# %% [markdown]
# **PyTorch**: a `Compose` of `ToTensor` (uint8 `H×W` → float `1×H×W` in `[0, 1]`) and
# `Normalize`, passed as the dataset's `transform=`. torchvision applies `transform` to the
# **image only**; the label has its own `target_transform`.

# %% tags=["pytorch"]
pt_trans = pt_transforms.Compose([pt_transforms.ToTensor(),
                                  pt_transforms.Normalize((MEAN,), (STD,))])
pt_train_set = data.torch_dataset(train=True, transform=pt_trans)
pt_x0, pt_y0 = pt_train_set[0]
(tuple(pt_x0.shape), pt_x0.dtype, type(pt_y0).__name__)

# %% [markdown]
# **Gluon**: the same `Compose`, but the dataset is transformed afterwards with
# `transform_first`, which applies the function to the first element of each sample (the
# image) and passes the rest (the label) through:

# %% tags=["gluon"]
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
# Under the hood (the seed points at `dataset.py`): `transform_first(fn)` is
# `transform(_TransformFirstClosure(fn))`, a callable class rather than a nested function, so
# that the dataset can be pickled and sent to worker processes. It is kept as `_fn`:

# %%
source = inspect.getsource(gluon.data.Dataset.transform_first)
closure = mx_train_set._fn
assert "_TransformFirstClosure(fn)" in source
assert type(closure).__name__ == "_TransformFirstClosure" and closure._fn is mx_trans
source.strip().splitlines()[-1].strip()

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
failure = errors.catch(lambda: train.gluon.transform(mx_trans)[0], expect=TypeError)
assert "positional argument" in failure.line
compare.assert_same(both[0][0], mx_x0)
assert both[0][1] == mx_y0
failure.line

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
assert compare.max_abs_diff(pt_scalar(pt_img), pt_x0) == 0.0
assert compare.max_abs_diff(mx_tuple(mx_img), mx_x0) == 0.0
"either form in either framework: the same tensor, bit for bit"

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

# %% mystnb={"image": {"alt": "Eight training images with their class names, one row from PyTorch's dataset and one from Gluon's: the same pictures with the same labels."}}
assert len(pt_train_loader) == len(mx_train_loader) == 469   # 468 × 128 + one of 96
assert tuple(pt_X.shape) == mx_X.shape == (BATCH_SIZE, 1, 28, 28)
assert pt_y.dtype == torch.int64 and mx_y.dtype == np.int32
assert not np.array_equal(pt_y.numpy(), mx_y.asnumpy())     # different shuffles
plotting.sample_grid({"PyTorch": (pt_X, pt_y), "Gluon": (mx_X, mx_y)},
                     classes=train.classes, n=8)

# %% [markdown]
# To compare the trainings, both loaders need the *same* batches in the same order: from here
# on they get the same list of indices as their `sampler` (`shuffle` left off), a fresh
# permutation per epoch:

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
assert compare.max_abs_diff(pt_first[0], mx_first[0]) <= 1e-6
assert np.array_equal(pt_first[1].numpy(), mx_first[1].asnumpy())
"the same first batch from both loaders: labels equal, pixels within 1e-6"

# %% [markdown]
# The seed uses `num_workers=4`; this notebook keeps `NUM_WORKERS = 0`, as on two cores worker
# processes would compete with the training. What workers do differently in each framework is
# [notebook 4 §7](04_data_loading.ipynb); raise `NUM_WORKERS` on a bigger machine (exercise 1).
#
# ### The epochs from memory
#
# The loaders transform one image at a time, every epoch: for this small MLP that costs
# several times the arithmetic. Section 4's epochs therefore come from memory, the route of
# [Fast input pipelines](deep_dives/data_fast_pipelines.ipynb) §3: the split transformed
# once, each batch indexed by the epoch's order — the loaders' batches, checked below.
# PyTorch writes the transforms as tensor arithmetic on the dataset's `uint8` `data`; Gluon's
# `mx_trans` takes the whole split (the private `_data`: MXNet 1.9.1 has no public accessor):

# %%
pt_images = ((train.torch.data.to(torch.float32) / 255 - MEAN) / STD).unsqueeze(1)
pt_labels = train.torch.targets
mx_images = mx_trans(train.gluon._data)                     # (60000, 1, 28, 28) float32
mx_labels = mx.nd.array(train.gluon._label, dtype="int32")


def batches_in_memory(order):
    """The batches of one epoch in the sample order `order`, from memory: PyTorch's and
    Gluon's, each a list of (X, y) pairs."""
    pt_idx = torch.tensor(order).split(BATCH_SIZE)
    pt = [(pt_images[i], pt_labels[i]) for i in pt_idx]
    mx_ = [(mx.nd.take(mx_images, i), mx.nd.take(mx_labels, i))
           for i in (mx.nd.array(idx.numpy(), dtype="int64") for idx in pt_idx)]
    return pt, mx_


pt_mem, mx_mem = batches_in_memory(epoch_order(0))
assert len(pt_mem) == len(mx_mem) == len(pt_train_loader) == 469
assert compare.max_abs_diff(pt_mem[0][0], pt_first[0]) <= 1e-6      # the loaders' first batch
assert compare.max_abs_diff(mx_mem[0][0], mx_first[0]) <= 1e-6
assert compare.max_abs_diff(mx_mem[-1][0], pt_mem[-1][0]) <= 1e-6
assert np.array_equal(pt_mem[0][1].numpy(), pt_first[1].numpy())
assert np.array_equal(mx_mem[-1][1].asnumpy(), pt_mem[-1][1].numpy())
assert pt_mem[-1][0].shape[0] == mx_mem[-1][0].shape[0] == 96      # the short last batch
"from memory: the loaders' batches (pixels within 1e-6, labels equal), 468 × 128 + 96"

# %% [markdown]
# ## 2. Model
#
# **PyTorch**: `Linear` needs its input size, `ReLU` is a layer of its own, and the
# parameters exist (initialised) as soon as the layer is built:

# %% tags=["pytorch"]
pt_net = torch.nn.Sequential(torch.nn.Linear(28 * 28, 256), torch.nn.ReLU(),
                             torch.nn.Linear(256, 10)).to(pt_dev)
{name: tuple(p.shape) for name, p in pt_net.named_parameters()}

# %% [markdown]
# **Gluon**: `Dense` takes only the output size, the activation is an argument, and
# `initialize()` is a separate, compulsory call. The input size is still unknown (`0`):

# %% tags=["gluon"]
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
assert [s[1] for s in shapes_before.values() if len(s) == 2] == [0, 0]
# Gluon stores a weight as (out, in), like PyTorch
assert list(shapes_after.values()) == [tuple(p.shape) for p in pt_net.parameters()]
shapes_after

# %% [markdown]
# Without `initialize()` there is nothing to compute with:

# %% tags=["raises-exception"]
gluon.nn.Dense(10)(mx.nd.ones((1, 784)))

# %% [markdown]
# Call `initialize()` before the first forward pass, as this section does for `mx_net`.
#
# `flatten` matters: with `flatten=False` a `Dense` layer, like PyTorch's `Linear`, works
# on the last axis only, which for an image batch is a row of 28 pixels:

# %%
row_dense = gluon.nn.Dense(256, flatten=False)
row_dense.initialize(ctx=mx_ctx)
assert row_dense(mx_X.as_in_context(mx_ctx)).shape == (BATCH_SIZE, 1, 28, 256)
assert tuple(mx_net(mx_X.as_in_context(mx_ctx)).shape) == (BATCH_SIZE, 10)
(row_dense(mx_X.as_in_context(mx_ctx)).shape,
 tuple(torch.nn.Linear(28, 256)(pt_X).shape))

# %% [markdown]
# **Same starting point.** Each framework initialises with its own scheme and random
# numbers; to compare the trainings, Gluon starts from PyTorch's initial weights.
# `sidebyside.transfer.torch_to_gluon` pairs the layers by their positions among the layers
# with weights (PyTorch's `0` and `2` — the `ReLU` is `1` — go to Gluon's `0` and `1`), checks
# every kind, shape and dtype before it copies, and returns the pairs; the two networks then
# give the same outputs:

# %%
init_state = copy.deepcopy(pt_net.state_dict())     # reused in section 4
pairs = transfer.torch_to_gluon(pt_net, mx_net)
pt_out = pt_net(pt_first[0].to(pt_dev).view(-1, 28 * 28))
mx_out = mx_net(mx_first[0].as_in_context(mx_ctx))
compare.assert_same(pt_out, mx_out, atol=1e-5)     # max |difference| <= 1e-5
assert pairs == [("0", "0"), ("2", "1")]
pairs

# %%
def fresh_pair():
    """Two fresh networks that hold PyTorch's *initial* weights, for the experiments below
    (the copy also fills in the shapes that deferred initialisation left open)."""
    pt = copy.deepcopy(pt_net)
    pt.load_state_dict(init_state)
    mx_ = gluon.nn.Sequential()
    mx_.add(gluon.nn.Dense(256, activation="relu"), gluon.nn.Dense(10))
    mx_.initialize(ctx=mx_ctx)
    transfer.torch_to_gluon(pt, mx_)
    return pt, mx_

# %% [markdown]
# ## 3. Loss and optimizer
#
# **PyTorch**: `CrossEntropyLoss` returns the **mean** over the batch, one number:

# %% tags=["pytorch"]
pt_loss_fn = torch.nn.CrossEntropyLoss()
pt_opt = torch.optim.SGD(pt_net.parameters(), lr=LR)
pt_loss = pt_loss_fn(pt_out, pt_first[1].to(pt_dev))
pt_loss.shape

# %% [markdown]
# **Gluon**: `SoftmaxCrossEntropyLoss` returns one loss **per sample**; the optimiser is
# named by a string and configured with a dictionary, and `collect_params()` plays the
# part of `parameters()`:

# %% tags=["gluon"]
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
assert pt_loss.shape == () and mx_loss.shape == (BATCH_SIZE,)
compare.assert_same(pt_per_sample, mx_loss, atol=1e-5)
assert abs(pt_loss.item() - mx_loss.mean().asscalar()) <= 1e-5
{"PyTorch mean": round(pt_loss.item(), 4),
 "Gluon mean": round(float(mx_loss.mean().asscalar()), 4),
 "max |per-sample difference|": compare.max_abs_diff(pt_per_sample, mx_loss)}

# %% [markdown]
# `parameters()` is a generator of tensors; `collect_params()` a dictionary from names to
# `Parameter` objects (the array is `p.data()`, its gradient `p.grad()`). Same four arrays:

# %%
mx_params = mx_net.collect_params()
assert sum(p.numel() for p in pt_net.parameters()) == 784 * 256 + 256 + 256 * 10 + 10
for p, q in zip(pt_net.parameters(), mx_params.values()):
    compare.assert_same(p, q.data())
(type(pt_net.parameters()).__name__, type(mx_params).__name__, list(mx_params))

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
        pt_opt.zero_grad()
        out = pt_net(X.view(-1, 28 * 28))
        loss = pt_loss_fn(out, y)
        loss.backward()
        pt_opt.step()
        losses.append(loss.item())
        accs.append((out.argmax(1) == y).float().mean().item())
    return losses, accs

# %% [markdown]
# ### The seed's `total_loss += loss.mean()`
#
# The seed's PyTorch loop adds `loss.mean()`, a tensor, to its running total. That never
# fails: `total_loss` silently becomes a tensor that requires grad, and every step's autograd
# graph (not the activations: `backward()` freed those) is chained onto it until the epoch
# ends. The nodes reachable from the total, step by step, with the fix (`loss.item()`) beside:

# %%
def graph_nodes(tensor):
    """How many autograd nodes `tensor` keeps alive: the size of its graph."""
    seen, todo = set(), [tensor.grad_fn]
    while todo:
        node = todo.pop()
        if node is not None and node not in seen:
            seen.add(node)
            todo.extend(parent for parent, _ in node.next_functions)
    return len(seen)


def seed_loop(accumulate, n_steps=20):
    net = copy.deepcopy(pt_net)
    opt = torch.optim.SGD(net.parameters(), lr=LR)
    total_loss, nodes = .0, []
    for X, y in itertools.islice(loaders(epoch_order(0))[0], n_steps):
        opt.zero_grad()
        loss = pt_loss_fn(net(X.view(-1, 28 * 28)), y)
        loss.backward()
        opt.step()
        total_loss += accumulate(loss)
        nodes.append(graph_nodes(total_loss) if torch.is_tensor(total_loss) else 0)
    return total_loss, nodes


seed_total, seed_nodes = seed_loop(lambda loss: loss.mean())      # as the seed writes it
fixed_total, fixed_nodes = seed_loop(lambda loss: loss.item())    # the fix
per_step = seed_nodes[1] - seed_nodes[0]
assert per_step > 0 and seed_nodes == [seed_nodes[0] + per_step * i for i in range(20)]
assert isinstance(fixed_total, float) and fixed_nodes == [0] * 20
failure = errors.catch(seed_total.backward)      # the chained graphs are still there
assert "backward through the graph a second time" in failure.line
compare.assert_same(np.float64(seed_total.item()), np.float64(fixed_total), rtol=1e-6)
{"seed: type, requires_grad": (type(seed_total).__name__, seed_total.requires_grad),
 "seed: graph nodes after steps 1, 2, 10, 20": [seed_nodes[i] for i in (0, 1, 9, 19)],
 "fix: type, graph nodes": (type(fixed_total).__name__, fixed_nodes[-1]),
 "same total": bool(np.isclose(seed_total.item(), fixed_total, rtol=1e-6))}

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


assert not hasattr(mx.nd.ones((1,)), "item")    # the seed's `.item()` fails on NDArray
assert mx.nd.ones((1,)).mean().asscalar() == 1.0

# %% [markdown]
# Both train for `EPOCHS` epochs on the same batches, from memory (end of section 1). Each
# epoch is timed; `.item()` and `.asscalar()` wait for every step, and `mx.nd.waitall()`
# makes sure nothing is left queued when the clock stops (section 5 shows why that matters).

# %% tags=["nbval-ignore-output"]
history = {"PyTorch": ([], [], []), "Gluon": ([], [], [])}   # losses, accs, seconds
for epoch in range(EPOCHS):
    pt_loader, mx_loader = batches_in_memory(epoch_order(epoch))
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
assert min(accuracy.values()) >= TARGET, (accuracy, TARGET)
assert abs(accuracy["PyTorch"] - accuracy["Gluon"]) <= 0.005
accuracy

# %% mystnb={"image": {"alt": "Training loss and per-batch accuracy of PyTorch and Gluon over the whole training, the two curves on top of each other, and the gap between the two losses per step on a log scale."}} tags=["nbval-ignore-output"]
# loss and per-batch accuracy of both on the same axes, each a running mean of 20 steps (the
# y axis says so); the gap between the losses per step, log scale
pt_losses, mx_losses = (np.array(history[k][0]) for k in ("PyTorch", "Gluon"))
gap = np.abs(pt_losses - mx_losses)
plotting.curves(
    {"training loss": {k: history[k][0] for k in history},
     "training accuracy (batch)": {k: history[k][1] for k in history},
     "|loss PyTorch − loss Gluon|": {"gap": np.maximum(gap, 1e-9)}},
    smooth={"training loss": 20, "training accuracy (batch)": 20},
    logy=["|loss PyTorch − loss Gluon|"])

# %% [markdown]
# ### Parity proven: the same training in float64
#
# The float32 curves above drift apart far beyond float32's rounding, so a float32 comparison
# alone cannot tell a faithful port from one with a small mistake. In float64 the rounding
# differences shrink by nine orders of magnitude, ReLU flips (a hidden unit active in one
# framework and not in the other) practically vanish, and the trainings must agree to rounding
# at every step: a porting error shows as a jump. Both networks in float64 (`.double()`,
# `net.cast("float64")`) from the same initial weights, the same batches of 6 496 images — 50
# of 128 and **one of 96** per epoch — for two epochs; four Gluon update routes against `optim.SGD`:

# %% mystnb={"image": {"alt": "Training loss and per-batch accuracy of PyTorch and Gluon over one epoch, the two curves on top of each other, and below them the gap between the two losses on a log scale, far below the losses themselves."}}
N64 = 50 * BATCH_SIZE + 96
subset = epoch_order(0)[:N64]
X64 = torch.stack([pt_train_set[i][0] for i in subset]).view(N64, -1).double()
y64 = train.torch.targets[subset]
pairs64 = [(X64[idx], y64[idx])        # (X, y) per step: a fresh permutation per epoch
           for epoch in (0, 1)
           for idx in torch.randperm(N64, generator=torch.Generator().manual_seed(
               SEED + 100 + epoch)).split(BATCH_SIZE)]


def with_trainer(gl, trainer, n):
    trainer.step(n)


def train_pair(dtype, batch_list, gluon_update=with_trainer, torch_lr=lambda n: LR,
               hybridize=False, zero_grad=True, gluon_loss=mx_loss_fn):
    """PyTorch and Gluon in `dtype`, from the initial weights, step for step on `batch_list`
    ((X, y) pairs): each side's per-step losses and its weights at the end."""
    pt, gl = fresh_pair()
    pt.to(getattr(torch, dtype))
    gl.cast(dtype)
    if hybridize:
        gl.hybridize()
    opt = torch.optim.SGD(pt.parameters(), lr=LR)
    trainer = gluon.Trainer(gl.collect_params(), "sgd", {"learning_rate": LR})
    losses = {"PyTorch": [], "Gluon": []}
    for X, y in batch_list:
        X = X.to(getattr(torch, dtype))
        opt.param_groups[0]["lr"] = torch_lr(len(X))
        if zero_grad:
            opt.zero_grad()
        pt_loss = pt_loss_fn(pt(X.to(pt_dev)), y.to(pt_dev))
        pt_loss.backward()
        opt.step()
        mX = mx.nd.array(X.numpy(), ctx=mx_ctx, dtype=dtype)
        my = mx.nd.array(y.numpy(), ctx=mx_ctx, dtype=dtype)
        with autograd.record():
            mx_loss = gluon_loss(gl(mX), my)
        mx_loss.backward()
        gluon_update(gl, trainer, len(X))
        losses["PyTorch"].append(pt_loss.item())
        losses["Gluon"].append(mx_loss.mean().asscalar())
    return losses, {"PyTorch": list(pt.parameters()),
                    "Gluon": [p.data() for p in gl.collect_params().values()]}


def lockstep64(gluon_update, torch_lr=lambda n: LR, hybridize=False):
    """Both float64 nets on the float64 batches: |Δloss| per step, max |Δweight| at the end."""
    losses, weights = train_pair("float64", pairs64, gluon_update, torch_lr, hybridize)
    gaps = np.abs(np.subtract(losses["PyTorch"], losses["Gluon"]))
    return gaps, max(compare.max_abs_diff(p, q)
                     for p, q in zip(weights["PyTorch"], weights["Gluon"]))


def by_hand(gl, trainer, n):
    """The SGD update written out, in float64 NDArray arithmetic."""
    for p in gl.collect_params().values():
        p.set_data(p.data() - LR * p.grad() / n)


def mxnet_lr(n):
    """PyTorch's lr, rounded the way MXNet's kernel rounds its hyper-parameters (below):
    `optim.f32(x)` is `float(np.float32(x))`."""
    return optim.f32(LR) * optim.f32(1 / n) * n


runs64 = {
    "Gluon by hand vs PyTorch": lockstep64(by_hand),
    "Gluon Trainer vs PyTorch": lockstep64(with_trainer),
    "Gluon Trainer vs PyTorch with MXNet's float32 lr": lockstep64(with_trainer, mxnet_lr),
    "seed's step(128) vs the same": lockstep64(
        lambda gl, trainer, n: trainer.step(BATCH_SIZE), mxnet_lr),
}

# %% tags=["nbval-ignore-output"]
(g_hand, w_hand), (g_tr, w_tr), (g_f32, w_f32), (g_bug, _) = runs64.values()
assert max(g_hand.max(), w_hand) <= 1e-13
assert 1e-10 < g_tr.max() <= 1e-6
assert max(g_f32.max(), w_f32) <= 1e-13
assert g_bug[:51].max() <= 1e-13
assert int(np.argmax(g_bug > 1e-9)) == 51 and g_bug[51] > 1e-3
{name: {"max |Δloss|": float(g.max()), "max |Δweight|": w,
        "first step with |Δloss| > 1e-9": int(np.argmax(g > 1e-9)) if (g > 1e-9).any()
        else None}
 for name, (g, w) in runs64.items()}

# %% mystnb={"image": {"alt": "The float64 loss gap between PyTorch and Gluon per step on a log scale: Gluon by hand and the Trainer with MXNet's float32 learning rate stay at rounding level (about 1e-16), the Trainer with the float64 rate sits near 1e-9, and the seed's step(128) jumps away at the short last batch."}} tags=["nbval-ignore-output"]
plotting.curves(
    {"|loss PyTorch − loss Gluon|, float64 (log scale)": {
        name: np.maximum(g, 1e-18) for name, (g, _) in runs64.items()}},
    logy="|loss PyTorch − loss Gluon|, float64 (log scale)",
    legend="below")                    # the four curves fill every corner of the axes

# %% [markdown]
# **Check**, route by route (the asserts above):
#
# - the update written by hand agrees with PyTorch to **≤ 1e-13** in losses and weights;
# - `gluon.Trainer(..., "sgd")` does **not**: it drifts to about 1e-8 from the first steps;
# - PyTorch with its learning rate rounded as MXNet rounds it agrees with the `Trainer` to
#   **≤ 1e-13** again: the rounding of the hyper-parameters is the whole story (next);
# - the seed's `trainer.step(batch_size=128)` agrees to 1e-13 for 51 steps and jumps above
#   1e-3 at step 51, the first after a 96-sample batch, whose update was 96/128 of the right one.
#
# ### Gotcha: MXNet's optimizer kernels take their hyper-parameters in float32
#
# The `Trainer` computes its update in the weights' dtype, but the learning rate, weight
# decay, `rescale_grad` (= 1/batch size, set by `step()`), momentum and the other
# hyper-parameters reach the C++ kernel (`sgd_update`, `multi_sgd_update`, …) as float32
# fields of its parameter struct
# ([`optimizer_op-inl.h`](https://github.com/apache/mxnet/blob/1.9.1/src/operator/optimizer_op-inl.h)).
# 0.1 is not a float32 number, so the step is `0.10000000149… · g`, not `0.1 · g`; and
# 1/96 is rounded too. One update of `w = 1` by `g = 1`, in float64:

# %% tags=["nbval-ignore-output"]
one = mx.nd.ones((1,), dtype="float64")
kernel = mx.nd.sgd_update(one, one, lr=LR).asscalar()
kernel_96 = mx.nd.sgd_update(one, one, lr=0.125, rescale_grad=1 / 96).asscalar()
assert abs(kernel - (1 - optim.f32(LR))) <= 1e-16 and abs(kernel - (1 - LR)) > 1e-9
assert abs(kernel_96 - (1 - 0.125 * optim.f32(1 / 96))) <= 1e-16
assert abs(kernel_96 - (1 - 0.125 / 96)) > 1e-11
assert abs((one * LR).asscalar() - LR) == 0     # ordinary NDArray arithmetic stays float64
{"sgd_update(w=1, g=1, lr=0.1)": kernel, "1 - 0.1": 1 - LR,
 "1 - float32(0.1)": 1 - optim.f32(LR),
 "sgd_update(lr=0.125, rescale_grad=1/96)": kernel_96,
 "1 - 0.125 · float32(1/96)": 1 - 0.125 * optim.f32(1 / 96)}

# %% [markdown]
# In float32 training this is invisible (the rounding *is* float32's). In float64 it bounds
# the agreement at about 1e-8 (with a float32 learning rate such as 0.125, from the first
# short batch on: 1/96 is rounded). To prove a float64 port, write the update out (as
# `by_hand` above) or round PyTorch's hyper-parameters the same way.
#
# ### Parity in float32: equal within the drift
#
# In float32 the trainings cannot agree bit for bit: the kernels round differently, and every
# step carries the differences on (the long run's gap curve above leaves rounding level within
# the first epoch). A fixed bound cannot tell a faithful port from a small mistake; each
# framework's own **drift**, its float32 run against its float64 run, can. Four runs from the
# same initial weights on the same batches, PyTorch and Gluon each in float32 and in float64;
# at every step:
#
# - the **gap**: PyTorch float32 against Gluon float32;
# - the **yardstick**: the larger of the two drifts (PyTorch float32 against PyTorch float64,
#   Gluon float32 against Gluon float64), so that the test works in both directions of a port;
# - the port is faithful **within the drift** when the gap stays within 2 × the yardstick.
#
# Why 2: the float64 pair agrees (just proven), so by the triangle inequality the gap is at
# most the two drifts plus the float64 gap. A faithful port never fails, however noisy either
# float32 is; a porting error fails from the first step where it exceeds float32's own noise,
# at rounding level in the first steps. `sidebyside.drift` judges, here on the first 200
# batches of epoch 0 (the same arrays for both), with PyTorch on MXNet's float32 learning rate
# (`mxnet_lr`, the gotcha above) so that the float64 pair agrees:

# %%
N_DRIFT = 200
drift_batches = [(X.view(-1, 28 * 28), y) for X, y in pt_mem[:N_DRIFT]]


def judge_runs(batch_list, gluon_update=with_trainer):
    """Four runs, judged: the per-step losses, and the weights (relative) at the end."""
    runs = {dtype: train_pair(dtype, batch_list, gluon_update, mxnet_lr)
            for dtype in ("float32", "float64")}
    four = [(name, dtype) for name in ("PyTorch", "Gluon") for dtype in ("float32", "float64")]
    losses = drift.judge(*[runs[dtype][0][name] for name, dtype in four])
    weights = drift.Drift("weights", relative=True).add(
        *[runs[dtype][1][name] for name, dtype in four], step=len(batch_list))
    return losses, weights


loss_drift, weight_drift = judge_runs(drift_batches)

# %% tags=["nbval-ignore-output"]
assert loss_drift.float64_gap.max() <= 1e-13 and weight_drift.float64_gap.max() <= 1e-13
loss_drift.check()                       # within 2 × the larger drift at every step
weight_drift.check()
assert loss_drift.gap.max() > 1e-4                     # not rounding: the runs did part
assert loss_drift.gluon_drift[:40].mean() > 3 * loss_drift.torch_drift[:40].mean()
{"largest |Δloss| PyTorch f32 − Gluon f32 (the gap)": loss_drift.gap.max(),
 "largest |Δloss| PyTorch f32 − PyTorch f64": loss_drift.torch_drift.max(),
 "largest |Δloss| Gluon f32 − Gluon f64": loss_drift.gluon_drift.max(),
 "largest |Δloss| PyTorch f64 − Gluon f64": loss_drift.float64_gap.max(),
 "largest gap / yardstick over the steps": loss_drift.ratio.max(),
 "Gluon's drift / PyTorch's, mean of the first 40 steps":
     loss_drift.gluon_drift[:40].mean() / loss_drift.torch_drift[:40].mean(),
 f"weights after {N_DRIFT} steps (relative)": weight_drift.summary()}

# %% [markdown]
# **Check** (above): the float64 pair agrees to rounding, and the float32 gap is within 2 × the
# drift at every step, in the losses and in the weights. The two drifts are not alike: in the
# first steps MXNet's float32 drifts several times further from its float64 run than PyTorch's,
# as its float32 `SoftmaxCrossEntropyLoss` gradient is less precise
# ([notebook 10](10_losses.ipynb) §7), and ReLU flips carry the difference on. Judged by
# PyTorch's drift alone — or by "PyTorch against itself, nudged by 1e-7", which measures
# PyTorch alone too — this faithful port would look broken; with other kernels PyTorch's drift
# catches up. Take the larger of the two, measured where the port runs. The deep dive
# [Float32 drift in the MLP](deep_dives/mlp_drift.ipynb) replays the flips step by step,
# measures the nudge and shows the other kernels; notebooks [15](15_capstone_mnist_to_gluon.ipynb)
# and [16](16_capstone_mxnet_to_pytorch.ipynb) judge whole ported scripts the same way.
#
# ### The two classic mistakes, with numbers
#
# Each run below trains the pair on the first 30 float64 batches, one side written right and
# the other right or wrong: a right pair agrees to float64 rounding (and the `Trainer`'s
# float32 learning rate), a mistake stands out by orders of magnitude:

# %% tags=["nbval-ignore-output"]
def gluon_mean_loss(out, y):
    return mx_loss_fn(out, y).mean()          # a loss already averaged, as PyTorch's


def step_1(gl, trainer, n):
    trainer.step(1)


routes = {"Gluon, step(X.shape[0])": {},
          "Gluon, loss.mean() + step(1)": {"gluon_loss": gluon_mean_loss, "gluon_update": step_1},
          "Gluon, step(1) on per-sample losses": {"gluon_update": step_1},
          "PyTorch without zero_grad()": {"zero_grad": False}}
runs = {name: train_pair("float64", pairs64[:30], **route)[0] for name, route in routes.items()}
max_gap = {name: float(np.nanmax(np.abs(np.subtract(losses["PyTorch"], losses["Gluon"]))))
           for name, losses in runs.items()}
assert max_gap["Gluon, step(X.shape[0])"] <= 1e-6
assert max_gap["Gluon, loss.mean() + step(1)"] <= 1e-6
assert max_gap["Gluon, step(1) on per-sample losses"] > 1.0
assert max_gap["PyTorch without zero_grad()"] > 0.5
max_gap

# %% [markdown]
# The first two are right: the seed's remark that a loss already averaged needs `step(1)`
# holds. `step(1)` on the per-sample losses makes every update 128 times too large (a
# learning rate of 12.8) and the loss overflows (a line that stops); forgetting `zero_grad()`
# makes step *k* use the sum of *k* gradients. The seed's third, `step(batch_size=128)` on the
# short last batch, does not occur in these 30 full batches; the float64 run above catches it.

# %% mystnb={"image": {"alt": "Left: Gluon's loss on a log scale, where step(X.shape[0]) follows PyTorch and step(1) on per-sample losses explodes; right: PyTorch's loss without zero_grad() jumps around the right loop's curve."}} tags=["nbval-ignore-output"]
right = runs["Gluon, step(X.shape[0])"]
plotting.curves(
    {"Gluon step(): loss (log scale)": {
        "PyTorch": right["PyTorch"], "step(X.shape[0])": right["Gluon"],
        "step(1), per-sample losses": runs["Gluon, step(1) on per-sample losses"]["Gluon"]},
     "PyTorch zero_grad(): loss": {
        "with zero_grad()": right["PyTorch"],
        "without zero_grad()": runs["PyTorch without zero_grad()"]["PyTorch"]}},
    logy="Gluon step(): loss (log scale)")

# %% [markdown]
# ## 5. Timing, fairly
#
# The seed compares the two frameworks' speed. A fair clock stops only when the work is done:
# MXNet is lazy, an operator call only queues its work ([notebook 5 §6](05_autograd.ipynb)
# shows the stopwatch that measures nothing), so `timing.measure` waits with `timing.sync()`
# (`mx.nd.waitall()`, and `torch.cuda.synchronize()` on a GPU) before it stops. And both
# frameworks compute on the same number of threads: `import mxnet` lowers PyTorch's
# ([notebook 1 §3](01_install_and_environment.ipynb)), and `threads.matched()` sets it to
# MXNet's for a block. One forward pass of each network on a batch, and section 4's epochs:

# %% tags=["nbval-ignore-output"]
with threads.matched() as matched_threads:
    forward = {"PyTorch": timing.measure(lambda: pt_net(pt_X.to(pt_dev).view(-1, 28 * 28)),
                                         repeat=5),
               "Gluon": timing.measure(lambda: mx_net(mx_X.as_in_context(mx_ctx)), repeat=5)}
assert matched_threads.torch == matched_threads.mxnet
assert all(t.synced and len(t.seconds) == 5 for t in forward.values())
print(matched_threads)
{"forward, batch of 128": {name: str(t) for name, t in forward.items()},
 "epochs from memory (s)": {k: [round(t, 2) for t in history[k][2]] for k in history}}

# %% [markdown]
# These numbers are this machine's, under its load: printed, never asserted. The epochs come
# from memory, so they time the arithmetic and the Python of each loop, not the seed's data
# pipelines, which would add several times as much (exercise 1). The deep dive
# [Timing the MLP](deep_dives/mlp_timing.ipynb) times the parts apart at equal threads, and
# [Fast input pipelines](deep_dives/data_fast_pipelines.ipynb) every input route: the
# dataset transformed once and batched by index trains near the arithmetic's speed; the
# book's [Benchmarks page](../benchmarks.md) settles the comparison in fresh processes at
# stated thread counts (`make bench`).
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
# | running total | `total += loss.item()` (`+= loss.mean()` keeps every step's graph) | `total += loss.mean().asscalar()` |
# | float64 | `net.double()` | `net.cast('float64')`; the optimizers' hyper-parameters stay float32 |
# | timing | (CPU: eager) | lazy: `mx.nd.waitall()` before stopping the clock |
# | threads | lowered by `import mxnet`: `torch.set_num_threads(n)` | half the CPUs unless `MXNET_OMP_MAX_THREADS` is set before the import |
#
# ## Exercises
#
# 1. Time one epoch through the seed's loaders instead of from memory:
#    `pt_train_epoch(loaders(epoch_order(0))[0])` and `mx_train_epoch(loaders(epoch_order(0))[1])`
#    (timed as in section 4; each trains its net one epoch further). How many times longer
#    than an epoch from memory (section 5)? Then pass `num_workers=2` to `loaders` (or more,
#    on a bigger machine): which framework gains more, and why?
# 2. Call `mx_net.hybridize()` before training. Does float64 parity still hold
#    (`lockstep64(by_hand, hybridize=True)`)? Does an epoch get faster, and which part of it?
# 3. Set `LR = 0.125` (a float32 number) and rerun `lockstep64(with_trainer)`. From which
#    step on does the `Trainer` drift away from PyTorch now, and why that one?
# 4. Give the float32 judgement of section 4 the seed's `trainer.step(BATCH_SIZE)` on the
#    first 60 float64 batches, whose 51st has 96 samples:
#    `judge_runs(pairs64[:60], lambda gl, trainer, n: trainer.step(BATCH_SIZE))`. Does the
#    float32 judgement notice, and at which step?
#
# :::{dropdown} Solutions
# 1. Several times longer in both: the deep dive
#    [Fast input pipelines](deep_dives/data_fast_pipelines.ipynb) measured the same MLP at
#    per image at about a quarter of its speed from memory, in each framework (its §6 table,
#    two cores). With workers both gain on spare cores. On a busy two-core machine Gluon
#    gains and PyTorch may not: its main process computes with two threads, which then
#    compete with the workers for the cores (with `torch.set_num_threads(1)` it gains too). One measured run is in the deep dive
#    [Timing the MLP](deep_dives/mlp_timing.ipynb) (*Measured once*).
# 2. Float64 parity holds: the hybridized network agrees with PyTorch to rounding (≤ 1e-13,
#    the first cell below; `Sequential.hybridize()` warns and hybridizes each `Dense` on its
#    own). Whether an epoch gets faster a busy machine cannot settle; the deep dive
#    [Timing the MLP](deep_dives/mlp_timing.ipynb) §3 times the arithmetic alone, hybridized
#    and not, at equal threads. Most of an epoch is the data pipeline, which `hybridize` does
#    not touch.
# 3. `LR = 0.125` is a float32 number, and so is 1/128: the `Trainer` agrees with PyTorch to
#    rounding for the first 51 losses (the 50 full batches), and drifts from the loss right
#    after the 96-sample batch on, by about 1e-8 — the kernel rounds its `rescale_grad`, 1/96,
#    to float32. With `mxnet_lr`, PyTorch agrees to rounding throughout (the second cell).
# 4. Yes, at step 52, the loss right after the short batch: in float64 the mistake jumps above
#    1e-4 there (an update of 96/128 of the right one), beyond twice the float32 drift at that
#    step, and the judgement fails (the third cell).
# :::
#
# **Solutions**, run with asserts: the three cells below (folded away in the book: open each
# one); each ends with its answer.

# %% tags=["hide-cell"]
with warnings.catch_warnings():
    warnings.simplefilter("ignore")                  # Sequential.hybridize() warns
    hybrid_gap, hybrid_weights = lockstep64(by_hand, hybridize=True)
assert max(hybrid_gap.max(), hybrid_weights) <= 1e-13
"2. hybridize(): float64 parity still holds, to rounding"

# %% tags=["hide-cell"]
LR = 0.125
try:
    exact_gap, _ = lockstep64(with_trainer)
    exact_rounded, _ = lockstep64(with_trainer, mxnet_lr)
finally:
    LR = 0.1
first = int(np.argmax(exact_gap > 1e-13))
assert exact_gap[:51].max() <= 1e-13 and first == 51 and 1e-10 < exact_gap[51] < 1e-6
assert exact_rounded.max() <= 1e-13
"3. LR = 0.125: exact up to the short batch; from the loss after it, 1/96 rounded to float32"

# %% tags=["hide-cell"]
seed_loss, _ = judge_runs(pairs64[:60], lambda gl, trainer, n: trainer.step(BATCH_SIZE))
assert seed_loss.first_failure == 52 and seed_loss.float64_gap[51] > 1e-4
assert seed_loss.float64_gap[:51].max() <= 1e-13
"4. step(BATCH_SIZE): the float32 judgement fails at step 52, the loss after the short batch"
