# %% [markdown]
# # Deep dive · Fast input pipelines: training at the speed of the arithmetic
#
# [Notebook 3](../03_mnist_mlp.ipynb) trains its MLP through each framework's `DataLoader`
# with the seed's per-image transforms, and most of an epoch is that pipeline, not the
# training step ([Timing the MLP](mlp_timing.ipynb)). This page feeds the same training step
# four ways, in both frameworks on the same number of threads, and checks that the fast routes
# feed the same numbers:
#
# 1. the seed's route: `ToTensor` + `Normalize` applied to each image by the `DataLoader`;
# 2. the same with two worker processes (and Gluon's `thread_pool=True`, threads instead);
# 3. the dataset transformed **once** into one array in memory, batched by a shuffled index;
# 4. the arithmetic alone: the same steps over batches already made;
#
# and route 3's arrays behind a `DataLoader` (§5), with random augmentation done on the batch
# (§7).
#
# The numbers are this machine's, under its load when the page was executed: they are
# printed; loose asserts guard the claims (route 3 within 2 × of route 4, route 1 slower).
#
# **Prerequisites**: [notebook 3](../03_mnist_mlp.ipynb) §1 and §4,
# [notebook 4](../04_data_loading.ipynb) §1 (`TensorDataset` and `ArrayDataset`).
# **Time**: about 10 minutes.
#
# As in the timing deep dive, MXNet's operators get every CPU (a variable read only at
# `import mxnet`), and `threads.matched()` gives PyTorch the same count while timing.

# %% tags=["nbval-ignore-output"]
import os

if "MXNET_OMP_MAX_THREADS" not in os.environ:      # before `import mxnet`, or it is ignored
    os.environ["MXNET_OMP_MAX_THREADS"] = str(len(os.sched_getaffinity(0)))

import copy
import itertools

import mxnet as mx
import numpy as np
import torch
from mxnet import autograd, gluon
from mxnet.gluon.data.vision import transforms as mx_transforms
from torchvision import transforms as pt_transforms

from sidebyside import compare, data, devices, seeding, threads, timing, transfer

SEED = seeding.seed_everything(0)
devs = devices.pick()
pt_dev, mx_ctx = devs.torch.device, devs.mxnet.device
LR, BATCH_SIZE, STEPS = 0.1, 128, 60      # each timing: 60 steps of 128 = 7,680 samples

train = data.load(train=True)
spec = data.SPECS[train.name]
pt_train_set = data.torch_dataset(train=True, transform=pt_transforms.Compose(
    [pt_transforms.ToTensor(), pt_transforms.Normalize((spec.mean,), (spec.std,))]))
mx_train_set = train.gluon.transform_first(mx_transforms.Compose(
    [mx_transforms.ToTensor(), mx_transforms.Normalize(spec.mean, spec.std)]))
order = torch.randperm(len(train), generator=torch.Generator().manual_seed(SEED))
pt_init = torch.nn.Sequential(torch.nn.Linear(28 * 28, 256), torch.nn.ReLU(),
                              torch.nn.Linear(256, 10))
pt_loss_fn = torch.nn.CrossEntropyLoss()
mx_loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()


def pt_train(batches):
    """Notebook 3's PyTorch step on the first STEPS batches, from PyTorch's initial weights."""
    net = copy.deepcopy(pt_init).to(pt_dev)
    opt = torch.optim.SGD(net.parameters(), lr=LR)
    for X, y in itertools.islice(batches, STEPS):
        opt.zero_grad()
        loss = pt_loss_fn(net(X.to(pt_dev).view(-1, 28 * 28)), y.to(pt_dev))
        loss.backward()
        opt.step()
    return net


def mx_train(batches):
    """Notebook 3's Gluon step on the first STEPS batches, from the same initial weights."""
    net = gluon.nn.Sequential()
    net.add(gluon.nn.Dense(256, activation="relu"), gluon.nn.Dense(10))
    net.initialize(ctx=mx_ctx)
    transfer.torch_to_gluon(pt_init, net)
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": LR})
    for X, y in itertools.islice(batches, STEPS):
        with autograd.record():
            loss = mx_loss_fn(net(X.as_in_context(mx_ctx)), y.as_in_context(mx_ctx))
        loss.backward()
        trainer.step(X.shape[0])
    return net


times = {}                                 # (route, framework) -> Timing


def timed(route, framework, fn, repeat=3, warmup=1):
    """Time ``fn`` (synced: MXNet's queue drained) at matched threads; keep the Timing."""
    with threads.matched() as matched:
        times[route, framework] = timing.measure(fn, repeat=repeat, warmup=warmup)
    assert matched.torch == matched.mxnet and times[route, framework].synced
    return f"{framework}: {STEPS * BATCH_SIZE / times[route, framework].median:,.0f} samples/s"


def timed_in_turns(framework, fns, repeat=3):
    """Time routes of one framework in turns (a, b, a, b, …), each already warmed up, so that
    a burst of other work on the machine falls on all of them alike; keep each Timing."""
    seconds = {route: [] for route in fns}
    with threads.matched() as matched:
        for _ in range(repeat):
            for route, fn in fns.items():
                seconds[route] += timing.measure(fn, repeat=1, warmup=0).seconds
    assert matched.torch == matched.mxnet
    times.update({(route, framework): timing.Timing(tuple(s), synced=True)
                  for route, s in seconds.items()})
    return [f"{framework}, route {route[0]}: {STEPS * BATCH_SIZE / times[route, framework].median:,.0f}"
            " samples/s" for route in fns]


print(devs.threads)

# %% [markdown]
# ## 1. The seed's route: transforms per image
#
# Each batch is 128 calls of `ToTensor` and `Normalize` on one 28 × 28 image, then a
# collate, all in Python in the training process (`num_workers=0`); the sample order is the
# same for both (`sampler=order`).
#
# **PyTorch**

# %%
def pt_per_image():
    return pt_train(torch.utils.data.DataLoader(pt_train_set, batch_size=BATCH_SIZE,
                                                sampler=order.tolist()))

# %% [markdown]
# **Gluon**

# %%
def mx_per_image():
    return mx_train(gluon.data.DataLoader(mx_train_set, batch_size=BATCH_SIZE,
                                          sampler=order.tolist()))

# %% [markdown]
# The same sampler gives both frameworks the same batches, in the same order (labels are
# `int64` in PyTorch, `int32` in Gluon; [notebook 3](../03_mnist_mlp.ipynb) §1):

# %%
pt_seed_batches = list(itertools.islice(torch.utils.data.DataLoader(
    pt_train_set, batch_size=BATCH_SIZE, sampler=order.tolist()), STEPS))
mx_seed_batches = list(itertools.islice(gluon.data.DataLoader(
    mx_train_set, batch_size=BATCH_SIZE, sampler=order.tolist()), STEPS))
for (pX, py), (mX, my) in zip(pt_seed_batches, mx_seed_batches, strict=True):
    assert tuple(pX.shape) == mX.shape == (BATCH_SIZE, 1, 28, 28)
    assert compare.max_abs_diff(pX, mX) <= 1e-6 and np.array_equal(py.numpy(), my.asnumpy())
(len(pt_seed_batches), py.dtype, my.dtype.__name__)

# %% tags=["nbval-ignore-output"]
[timed("1 per image", "PyTorch", pt_per_image, warmup=0),
 timed("1 per image", "Gluon", mx_per_image, warmup=0)]

# %% [markdown]
# ## 2. Worker processes
#
# The usual advice: let worker processes run the transforms while the main process trains.
# Both loaders below keep their two workers for their lifetime (PyTorch
# `persistent_workers=True`; Gluon's pool lives as long as the loader), so the timing counts
# batches, not start-ups (a warm-up pass starts PyTorch's). `pin_memory` only speeds copies to
# a GPU, so it is on only when there is one. [Worker processes](data_workers.ipynb) has how
# workers start, where their batches live and how their random state is seeded.
#
# **PyTorch**

# %%
pt_worker_loader = torch.utils.data.DataLoader(
    pt_train_set, batch_size=BATCH_SIZE, sampler=order.tolist(), num_workers=2,
    persistent_workers=True, pin_memory=torch.cuda.is_available())


def pt_workers():
    return pt_train(pt_worker_loader)

# %% [markdown]
# **Gluon**: `thread_pool=True` runs the two workers as threads of the training process
# instead (no pickling of batches, but the transforms hold Python's GIL):

# %%
mx_worker_loader = gluon.data.DataLoader(mx_train_set, batch_size=BATCH_SIZE,
                                         sampler=order.tolist(), num_workers=2)
mx_thread_loader = gluon.data.DataLoader(mx_train_set, batch_size=BATCH_SIZE,
                                         sampler=order.tolist(), num_workers=2,
                                         thread_pool=True)


def mx_workers():
    return mx_train(mx_worker_loader)


def mx_threads():
    return mx_train(mx_thread_loader)

# %% [markdown]
# Workers change who transforms, not what: each loader gives route 1's batches, in order.

# %%
for loader, seed_batches in ((pt_worker_loader, pt_seed_batches),
                             (mx_worker_loader, mx_seed_batches),
                             (mx_thread_loader, mx_seed_batches)):
    for (X, y), (sX, sy) in zip(itertools.islice(loader, 5), seed_batches):
        assert compare.max_abs_diff(X, sX) == 0
        assert np.array_equal(compare.to_numpy(y), compare.to_numpy(sy))
"two workers, processes or threads: the same batches in the same order"

# %% tags=["nbval-ignore-output"]
[timed("2 two workers", "PyTorch", pt_workers),
 timed("2 two workers", "Gluon", mx_workers),
 timed("2 two worker threads", "Gluon", mx_threads)]

# %% [markdown]
# Workers share the machine's cores with the training step, so what they buy depends on the
# machine and the framework, and varies from run to run: §6's table has this run's numbers
# (in the runs on the 2-core machine of the stored run, 2026-12-03, PyTorch's two workers gave
# 1.0 × to 1.4 × route 1's speed, Gluon's 1.6 × to 2.4 ×). Either way each worker still
# transforms one image at a time.
#
# ## 3. Transform once, batch by index
#
# The transforms are the same arithmetic for every epoch: apply them once, to the whole
# split at once, keep the result as one array, and make each batch by indexing it with a
# slice of a shuffled permutation. For Fashion-MNIST the array is 60,000 × 784 float32, 188 MB.
#
# **PyTorch**: torchvision's dataset holds the split as one `uint8` tensor, `data`; the
# transforms written as tensor arithmetic on it (`ToTensor` is ÷ 255 with a channel axis):

# %%
pt_images = ((train.torch.data.to(torch.float32) / 255 - spec.mean) / spec.std).unsqueeze(1)
pt_labels = train.torch.targets


def pt_by_index(perm):
    """Batches of the in-memory tensors, in the order of ``perm`` (a tensor of indices)."""
    for i in range(0, len(perm), BATCH_SIZE):
        idx = perm[i:i + BATCH_SIZE]
        yield pt_images[idx], pt_labels[idx]


def pt_in_memory():
    return pt_train(pt_by_index(order))

# %% [markdown]
# **Gluon**: Gluon's vision datasets hold the split as one `uint8` NDArray too, in the
# private `_data` (N × 28 × 28 × 1; MXNet 1.9.1 has no public accessor), and `ToTensor` and
# `Normalize` take a whole batch (N × H × W × C, then N × C × H × W); `nd.take` gathers the
# rows of a batch:

# %%
assert train.gluon._data.shape == (len(train), 28, 28, 1) and train.gluon._data.dtype == np.uint8
mx_images = mx_transforms.Normalize(spec.mean, spec.std)(
    mx_transforms.ToTensor()(train.gluon._data))
mx_labels = mx.nd.array(train.gluon._label, dtype="int32")
mx_order = mx.nd.array(order.numpy(), dtype="int64")


def mx_by_index(perm):
    """Batches of the in-memory NDArrays, in the order of ``perm`` (an NDArray of indices)."""
    for i in range(0, len(perm), BATCH_SIZE):
        idx = perm[i:i + BATCH_SIZE]
        yield mx.nd.take(mx_images, idx), mx.nd.take(mx_labels, idx)


def mx_in_memory():
    return mx_train(mx_by_index(mx_order))

# %% [markdown]
# The check: the first 60 batches of both fast routes are route 1's batches — the same
# images in the same order, equal to float32 rounding (the vectorised division may round the
# last bit differently), and the same labels:

# %%
for (pX, py), (mX, my), (qX, qy), (nX, ny) in zip(
        pt_seed_batches, mx_seed_batches, pt_by_index(order), mx_by_index(mx_order)):
    assert compare.max_abs_diff(qX, pX) <= 1e-6 and compare.max_abs_diff(nX, mX) <= 1e-6
    assert compare.max_abs_diff(nX, qX) <= 1e-6
    assert torch.equal(qy, py) and np.array_equal(ny.asnumpy(), my.asnumpy())
    assert np.array_equal(ny.asnumpy(), qy.numpy())
(tuple(pt_images.shape), pt_images.dtype, mx_images.shape, mx_images.dtype.__name__)

# %% tags=["nbval-ignore-output"]
[timed("3 in memory, by index", "PyTorch", pt_in_memory),
 timed("3 in memory, by index", "Gluon", mx_in_memory)]

# %% [markdown]
# ## 4. The arithmetic alone
#
# The same 60 steps over batches made in advance (route 3's, as a list): what is left is the
# forward, backward and update.

# %%
pt_batches = list(pt_by_index(order[:STEPS * BATCH_SIZE]))
mx_batches = list(mx_by_index(mx_order[:STEPS * BATCH_SIZE]))


def pt_arithmetic():
    return pt_train(pt_batches)


def mx_arithmetic():
    return mx_train(mx_batches)

# %% [markdown]
# Routes 3 and 4 do the same arithmetic on the same batches: they train to the same weights,
# bit for bit, in each framework — so their times differ by the batching alone. They are
# timed in turns (route 3 again, then route 4, three times), so that §6 compares them under
# the same load.

# %%
for a, b in ((pt_train(pt_batches), pt_train(pt_by_index(order))),):
    assert all(torch.equal(p, q) for p, q in zip(a.parameters(), b.parameters(), strict=True))
mx_a, mx_b = mx_train(mx_batches), mx_train(mx_by_index(mx_order))
assert all(np.array_equal(p.data().asnumpy(), q.data().asnumpy()) for p, q in zip(
    mx_a.collect_params().values(), mx_b.collect_params().values(), strict=True))
"the same weights after 60 steps: route 3 and route 4 differ only in how batches are made"

# %% tags=["nbval-ignore-output"]
[*timed_in_turns("PyTorch", {"3 in memory, by index": pt_in_memory,
                             "4 arithmetic only": pt_arithmetic}),
 *timed_in_turns("Gluon", {"3 in memory, by index": mx_in_memory,
                           "4 arithmetic only": mx_arithmetic})]

# %% [markdown]
# ## 5. The same arrays behind a `DataLoader`
#
# Route 3's arrays can also go into `TensorDataset` and `ArrayDataset`
# ([notebook 4](../04_data_loading.ipynb) §1) and a `DataLoader` keeps its sampler and
# batching. Each batch is then collated from 128 single-sample lookups in Python — cheap
# tensor views in PyTorch, an NDArray slice (an engine call) per sample in Gluon — where
# route 3 makes a batch with one indexing call; §6 shows what that costs in each. Same
# batches as route 3, checked; then timed:

# %%
pt_tensor_loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(
    pt_images, pt_labels), batch_size=BATCH_SIZE, sampler=order.tolist())
mx_array_loader = gluon.data.DataLoader(gluon.data.ArrayDataset(mx_images, mx_labels),
                                        batch_size=BATCH_SIZE, sampler=order.tolist())
for (pX, py), (mX, my), (qX, qy) in zip(pt_tensor_loader, mx_array_loader, pt_batches[:3]):
    assert torch.equal(pX, qX) and torch.equal(py, qy)
    assert compare.max_abs_diff(mX, qX) <= 1e-6 and np.array_equal(my.asnumpy(), qy.numpy())
"TensorDataset and ArrayDataset: route 3's batches"

# %% tags=["nbval-ignore-output"]
[timed("5 in memory, DataLoader", "PyTorch", lambda: pt_train(pt_tensor_loader), warmup=0),
 timed("5 in memory, DataLoader", "Gluon", lambda: mx_train(mx_array_loader), warmup=0)]

# %% [markdown]
# ## 6. The routes side by side
#
# Samples per second of each route (median of three timed runs), and each route's time over
# the arithmetic's, per framework:

# %% tags=["nbval-ignore-output"]
arith = {fw: times["4 arithmetic only", fw].median for fw in ("PyTorch", "Gluon")}
table = {f"{route} · {fw}": {"samples/s": round(STEPS * BATCH_SIZE / t.median),
                             "× the arithmetic": round(t.median / arith[fw], 2)}
         for (route, fw), t in sorted(times.items())}
print(f"timed at {threads.mxnet_operator_threads()} threads in both frameworks")
table

# %% [markdown]
# The claim, asserted loosely (a loaded machine moves every number): the in-memory route costs
# less than twice the arithmetic in both frameworks, and the seed's route costs more than the
# in-memory one. The asserts take each route's best of its three runs, not the median: a burst
# of other work on the machine slows a run, never speeds one up. Routes 3 and 4 were timed in
# turns (§4): timed one after the other, a burst during route 3's runs alone once put its best
# above 2 × the arithmetic's (a test run beside it, 2026-12-06).

# %%
slower = {fw: times["1 per image", fw].best / times["3 in memory, by index", fw].best
          for fw in ("PyTorch", "Gluon")}
for fw in ("PyTorch", "Gluon"):
    assert times["3 in memory, by index", fw].best < 2 * times["4 arithmetic only", fw].best, fw
    assert slower[fw] > 1, fw
"in memory, by index: within 2 x of the arithmetic in both frameworks"

# %% tags=["nbval-ignore-output"]
{f"{fw}: the seed's route over the in-memory one": f"{s:.1f} x" for fw, s in slower.items()}

# %% [markdown]
# ## 7. Random augmentation, on the batch
#
# A random crop or flip cannot be done once: it differs every epoch. It can still be done on
# the whole batch, as tensor arithmetic, after the batch is gathered — here a horizontal flip
# of each image with probability ½, the same coins on both sides:

# %%
coin = torch.rand(BATCH_SIZE, generator=torch.Generator().manual_seed(1)) < 0.5
X = pt_images[order[:BATCH_SIZE]]
pt_flipped = torch.where(coin[:, None, None, None], X.flip(-1), X)
mx_X = mx.nd.take(mx_images, mx_order[:BATCH_SIZE])
mx_coin = mx.nd.array(coin.numpy().astype(np.float32)).reshape((-1, 1, 1, 1))
mx_flipped = mx.nd.where(mx_coin.broadcast_like(mx_X), mx_X.flip(axis=3), mx_X)
changed = (pt_flipped != X).flatten(1).any(1)
assert torch.equal(changed, coin & (X != X.flip(-1)).flatten(1).any(1))
assert 0.3 < coin.float().mean() < 0.7
assert compare.max_abs_diff(mx_flipped, pt_flipped) <= 1e-6
"flipped on the batch: the same images in both frameworks"

# %% [markdown]
# ## What this means for a port
#
# | route | PyTorch | MXNet Gluon |
# |---|---|---|
# | per-image transforms (the seed's) | `DataLoader(dataset with transform=Compose([...]))` | `DataLoader(dataset.transform_first(Compose([...])))` |
# | worker processes | `num_workers=2, persistent_workers=True` (`pin_memory` for a GPU) | `num_workers=2` (`thread_pool=True`: threads) |
# | the split as one array | `dataset.data` (`uint8`, N × 28 × 28) | `dataset._data` (`uint8`, N × 28 × 28 × 1) |
# | transform once | `(data.float() / 255 - mean) / std` | `Normalize(mean, std)(ToTensor()(data))` on the whole array |
# | batch by index | `images[perm[i:i + B]]` | `nd.take(images, perm[i:i + B])` |
#
# - A dataset that fits in memory and whose transforms are the same every epoch: transform it
#   once and batch it by index. It trains near the arithmetic's speed in both frameworks (§6),
#   and a port keeps the same numbers on both sides (§3).
# - Workers spread the per-image work over cores the training step may need itself; what
#   they buy depends on the machine and the framework (§2, §6).
# - Random augmentation moves to the batch, as tensor arithmetic (§7).
# - Where the lesson is not the pipeline, the collection's notebooks that train for more than
#   a few steps can use route 3; §6's table says what the seed's route costs instead.
# - The [Benchmarks page](../../benchmarks.md) times the same routes (arithmetic, in memory,
#   `DataLoader`, two workers) for the MLP and a LeNet, each framework in a fresh process of
#   its own, beside the GEMM roofline. Its PyTorch figures are higher than this page's: its
#   run of 2026-12-03 on this page's machine measured PyTorch's arithmetic at 167,000
#   samples/s against about 71,000 here, in a kernel that has imported both frameworks (why
#   was not investigated here; [notebook 1](../01_install_and_environment.ipynb) §3 shows
#   what `import mxnet` does to PyTorch's threads).
