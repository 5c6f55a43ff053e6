# %% [markdown]
# # 4 · Data loading: Dataset, DataLoader, samplers and vision datasets
#
# **What you will learn**
#
# - how `TensorDataset`, `DataLoader` and the samplers map onto Gluon's `ArrayDataset`,
#   `DataLoader` and samplers, argument by argument (`drop_last` against `last_batch`,
#   `collate_fn` against `batchify_fn`), and which defaults the usual API table gets wrong;
# - what differs when worker processes load the data (when they start, where the batches
#   live, how NumPy's random state reaches them), and what to write in Gluon for a training
#   script's `loader.dataset`, `persistent_workers=True` and `pin_memory=True`;
# - which vision datasets each side has, and how `ImageFolder` and `ImageFolderDataset` read
#   the same folder of PNG files: class order, labels, channels and pixels, compared.
#
# Every pairing is checked: same batch shapes, same labels, same sample order. The small
# arrays of sections 1–6 are the first ten test images of Fashion-MNIST (or MNIST), with
# their index carried along so that the order of the samples stays visible.
#
# **Prerequisites**: [notebook 3](03_mnist_mlp.ipynb) (the training loop the loaders feed).
# **Time**: about 30 minutes.

# %% tags=["nbval-ignore-output"]
import inspect
import multiprocessing
import os
import tempfile
import warnings
from pathlib import Path

import matplotlib.pyplot as plt
import mxnet as mx
import numpy as np
import torch
import torchvision
from mxnet import gluon
from mxnet.gluon.data.vision import transforms as mx_transforms
from PIL import Image
from torch.utils.data import (BatchSampler, DataLoader, RandomSampler,
                              SequentialSampler, TensorDataset)
from torchvision import transforms as pt_transforms

from sidebyside import compare, data, devices, errors, imagefolder, seeding

SEED = seeding.seed_everything(0)
devs = devices.pick()
pt_dev, mx_ctx = devs.torch.device, devs.mxnet.device
print(f"torch {torch.__version__} · torchvision {torchvision.__version__}"
      f" · mxnet {mx.__version__}")

# %% [markdown]
# ## 1. Datasets that hold arrays: `TensorDataset` vs `ArrayDataset`
#
# The data: Fashion-MNIST's test split (MNIST when `SIDEBYSIDE_DATASET=mnist`) through
# `sidebyside.data`. Calls meant to fail go through `sidebyside.errors.catch`
# ([notebook 1](01_install_and_environment.ipynb)): `.brief` is the error's type and first
# line, `.stderr` what was written to stderr meanwhile.

# %%
pair = data.load(train=False)
print(pair.name, len(pair), "samples; Gluon reads them through:", pair.gluon_route)
images = pair.torch.data[:10]             # uint8, (10, 28, 28)
labels = pair.torch.targets[:10]          # int64, (10,)
index = torch.arange(10)                  # carried along to show the order
(images.shape, labels.tolist())

# %% [markdown]
# **PyTorch**: `TensorDataset(*tensors)` — tensors only, all with the same first dimension.

# %% tags=["pytorch"]
pt_ds = TensorDataset(images, labels, index)
pt_x, pt_y, pt_i = pt_ds[3]
(type(pt_x).__name__, pt_x.shape, pt_y, pt_i)

# %% [markdown]
# **Gluon**: `ArrayDataset(*args)` — any mix of NDArrays, NumPy arrays and lists; each
# sample keeps the type of the array it came from.

# %% tags=["gluon"]
mx_ds = gluon.data.ArrayDataset(mx.nd.array(images.numpy(), dtype="uint8"),
                                labels.numpy(), index.tolist())
mx_x, mx_y, mx_i = mx_ds[3]
(type(mx_x).__name__, mx_x.shape, mx_y, mx_i)

# %% [markdown]
# **Check**: same length, same samples; the element types differ:

# %%
assert len(pt_ds) == len(mx_ds) == 10
for i in range(10):
    (pt_x, pt_y, pt_i), (mx_x, mx_y, mx_i) = pt_ds[i], mx_ds[i]
    compare.assert_same(pt_x, mx_x)
    assert int(pt_y) == int(mx_y) and int(pt_i) == mx_i == i
pt_types = [type(v).__name__ for v in pt_ds[0]]
mx_types = [type(v).__name__ for v in mx_ds[0]]
assert pt_types == ["Tensor"] * 3 and mx_types == ["NDArray", "int64", "int"]
{"torch": pt_types, "gluon": mx_types}

# %% [markdown]
# `TensorDataset` does not convert: a NumPy array fails, with an unhelpful message (it calls
# `array.size(0)`, and a NumPy array's `size` is an int). Both check the lengths:

# %%
array_errors = {
    "TensorDataset(numpy arrays)": errors.catch(
        lambda: TensorDataset(images.numpy(), labels.numpy())).brief,
    "TensorDataset(10 vs 5)": errors.catch(lambda: TensorDataset(images, labels[:5])).brief,
    "ArrayDataset(10 vs 5)": errors.catch(
        lambda: gluon.data.ArrayDataset(images.numpy(), labels.numpy()[:5])).brief,
}
assert array_errors["TensorDataset(numpy arrays)"] == (
    "TypeError", "'int' object is not callable")
assert array_errors["TensorDataset(10 vs 5)"][0] == "AssertionError"
assert array_errors["ArrayDataset(10 vs 5)"][0] == "AssertionError"
array_errors

# %% [markdown]
# ## 2. `DataLoader`'s signature: the seed's defaults, checked
#
# The seed's table gives `DataLoader(dataset, batch_size=1, shuffle=False, sampler=None,
# batch_sampler=None, num_workers=0, collate_fn=default_collate, drop_last=False)` for
# PyTorch and `DataLoader(dataset, batch_size=None, shuffle=False, sampler=None,
# last_batch='keep', batch_sampler=None, batchify_fn=None, num_workers=0)` for Gluon. The
# installed versions say:
#
# **PyTorch**

# %%
SEED_TORCH = {"batch_size": 1, "shuffle": False, "sampler": None,
              "batch_sampler": None, "num_workers": 0,
              "collate_fn": "default_collate", "drop_last": False}
pt_defaults = {name: p.default for name, p
               in inspect.signature(DataLoader).parameters.items()
               if p.default is not inspect.Parameter.empty}
pt_defaults

# %% [markdown]
# **Gluon**

# %%
SEED_GLUON = {"batch_size": None, "shuffle": False, "sampler": None,
              "last_batch": "keep", "batch_sampler": None, "batchify_fn": None,
              "num_workers": 0}
mx_defaults = {name: p.default for name, p
               in inspect.signature(gluon.data.DataLoader).parameters.items()
               if p.default is not inspect.Parameter.empty}
mx_defaults

# %% [markdown]
# **Check**: where the seed is wrong, and what the seed does not list.

# %%
def wrong(seed, installed):
    return {k: (v, installed[k]) for k, v in seed.items() if installed[k] != v}


pt_wrong, mx_wrong = wrong(SEED_TORCH, pt_defaults), wrong(SEED_GLUON, mx_defaults)
assert pt_wrong == {"shuffle": (False, None),
                    "collate_fn": ("default_collate", None)}
assert mx_wrong == {"last_batch": ("keep", None)}
pt_extra = sorted(set(pt_defaults) - set(SEED_TORCH))
mx_extra = sorted(set(mx_defaults) - set(SEED_GLUON))
assert mx_defaults["timeout"] == 120 and pt_defaults["timeout"] == 0
{"torch: (seed, installed)": pt_wrong, "gluon: (seed, installed)": mx_wrong,
 "torch: not in the seed": pt_extra, "gluon: not in the seed": mx_extra}

# %% [markdown]
# Those three `None`s behave as the seed says: PyTorch's `shuffle=None` does not shuffle,
# `collate_fn=None` means `default_collate`, Gluon's `last_batch=None` means `'keep'`. The
# real difference is `batch_size`: PyTorch's `None` turns batching off (each sample comes
# out on its own), Gluon's default `None` is an error unless a `batch_sampler` is given. Its
# failing constructor also writes "Exception ignored in `DataLoader.__del__`" (`__del__`
# reads `self._worker_pool`, which `__init__` had not set yet): harmless noise.

# %%
pt_unbatched = next(iter(DataLoader(pt_ds, batch_size=None)))
mx_failure = errors.catch(lambda: gluon.data.DataLoader(mx_ds))
mx_error, mx_noise = mx_failure.brief, mx_failure.stderr
assert pt_unbatched[0].shape == (28, 28) and int(pt_unbatched[2]) == 0
assert mx_error == ("ValueError",
                    "batch_size must be specified unless batch_sampler is specified")
assert "has no attribute '_worker_pool'" in mx_noise
assert [int(b[2]) for b in DataLoader(pt_ds)] == list(range(10))  # shuffle=None
{"torch batch_size=None, first sample": tuple(pt_unbatched[0].shape),
 "gluon batch_size=None": mx_error,
 "gluon stderr": mx_noise.strip().splitlines()[-1]}

# %% [markdown]
# ## 3. The last batch: `drop_last` vs `last_batch`
#
# Ten samples, batches of four, three epochs. PyTorch keeps or drops the short batch; Gluon
# keeps it, discards it, or **rolls it over** into the next epoch's first batch.
#
# **PyTorch**

# %%
def ids(batches, col=-1):
    """The sample ids (the last field of each batch) as lists, one per batch."""
    return [compare.to_numpy(b[col]).tolist() for b in batches]


def epochs(loader, n=3):
    """The sample ids of each batch, for n epochs; len(loader) before each epoch."""
    out = []
    for _ in range(n):
        length = len(loader)
        out.append((length, ids(loader)))
    return out


pt_last = {f"drop_last={d}": epochs(DataLoader(pt_ds, batch_size=4, drop_last=d))
           for d in (False, True)}
pt_last

# %% [markdown]
# **Gluon**

# %%
mx_last = {f"last_batch={m!r}": epochs(gluon.data.DataLoader(mx_ds, batch_size=4,
                                                              last_batch=m))
           for m in ("keep", "discard", "rollover")}
mx_last

# %% [markdown]
# **Check**: `'keep'` is `drop_last=False`, `'discard'` is `drop_last=True`; with
# `'rollover'` the batch sizes are 4 4 | 4 4 4 | 4 4, epoch 2 starts with samples 8 and 9
# of epoch 1, and `len(loader)` changes from epoch to epoch (it counts the carried samples).

# %%
def sizes(run):
    return [[len(b) for b in batches] for _, batches in run]


assert mx_last["last_batch='keep'"] == pt_last["drop_last=False"]
assert mx_last["last_batch='discard'"] == pt_last["drop_last=True"]
assert sizes(pt_last["drop_last=False"]) == [[4, 4, 2]] * 3
assert sizes(pt_last["drop_last=True"]) == [[4, 4]] * 3
rollover = mx_last["last_batch='rollover'"]
assert sizes(rollover) == [[4, 4], [4, 4, 4], [4, 4]]
assert rollover[1][1][0] == [8, 9, 0, 1]
assert [length for length, _ in rollover] == [2, 3, 2]
{"batch sizes per epoch": {k: sizes(v) for k, v in {**pt_last, **mx_last}.items()}}

# %% [markdown]
# Over three epochs `'rollover'` delivers 28 of the 30 samples: samples 8 and 9 of the third
# wait in the batch sampler, held by the `DataLoader` object (a new loader loses them).

# %% [markdown]
# ## 4. Merging samples into a batch: `collate_fn` vs `batchify_fn`
#
# The defaults stack samples of the same shape. Sequences of different lengths need a
# function of your own, the same on both sides: pad to the longest, return the lengths.

# %%
seqs = [[1, 2, 3], [4], [5, 6], [7, 8, 9, 10]]
# a plain list is a dataset for both frameworks
seq_ds = [(np.array(s), i) for i, s in enumerate(seqs)]


def pad_numpy(samples):
    longest = max(len(s) for s, _ in samples)
    padded = np.zeros((len(samples), longest), dtype=np.int64)
    for row, (s, _) in enumerate(samples):
        padded[row, :len(s)] = s
    lengths = [len(s) for s, _ in samples]
    return padded, lengths, [i for _, i in samples]


# %% [markdown]
# **PyTorch**: `collate_fn` receives the list of samples.

# %%
def pt_pad(samples):
    padded, lengths, index = pad_numpy(samples)
    return torch.from_numpy(padded), torch.tensor(lengths), torch.tensor(index)


pt_seq = list(DataLoader(seq_ds, batch_size=3, collate_fn=pt_pad))
pt_seq[0]

# %% [markdown]
# **Gluon**: `batchify_fn`, the same contract.

# %%
def mx_pad(samples):
    padded, lengths, index = pad_numpy(samples)
    return (mx.nd.array(padded, dtype="int64"), mx.nd.array(lengths, dtype="int64"),
            mx.nd.array(index, dtype="int64"))


mx_seq = list(gluon.data.DataLoader(seq_ds, batch_size=3, batchify_fn=mx_pad))
mx_seq[0]

# %% [markdown]
# **Check**: same batches; and the defaults fail on ragged samples — PyTorch with a clear
# message, Gluon (it makes a NumPy object array first) with a bare `KeyError`.

# %%
for pt_b, mx_b in zip(pt_seq, mx_seq, strict=True):
    for pt_part, mx_part in zip(pt_b, mx_b, strict=True):
        compare.assert_same(pt_part, mx_part)
assert [tuple(b[0].shape) for b in pt_seq] == [(3, 3), (1, 4)]
default_errors = {
    "torch default_collate": errors.catch(
        lambda: next(iter(DataLoader(seq_ds, batch_size=3)))).brief,
    "gluon default_batchify_fn": errors.catch(
        lambda: next(iter(gluon.data.DataLoader(seq_ds, batch_size=3)))).brief,
}
assert default_errors["torch default_collate"][0] == "RuntimeError"
assert "stack expects each tensor to be equal size" in (
    default_errors["torch default_collate"][1])
assert default_errors["gluon default_batchify_fn"] == (
    "KeyError", "<class 'numpy.object_'>")
default_errors

# %% [markdown]
# ## 5. Samplers: `SequentialSampler` and `RandomSampler`
#
# The argument differs: PyTorch's samplers take the **dataset** (`data_source`), Gluon's
# take a **length** (`SequentialSampler(length, start=0)`, `RandomSampler(length)`).
#
# **PyTorch**

# %% tags=["pytorch"]
pt_seq_sampler = SequentialSampler(pt_ds)
pt_rand_sampler = RandomSampler(pt_ds, generator=torch.Generator().manual_seed(0))
(list(pt_seq_sampler), list(pt_rand_sampler))

# %% [markdown]
# **Gluon**

# %% tags=["gluon"]
mx_seq_sampler = gluon.data.SequentialSampler(len(mx_ds))
np.random.seed(0)
mx_rand_sampler = gluon.data.RandomSampler(len(mx_ds))
(list(mx_seq_sampler), list(mx_rand_sampler),
 list(gluon.data.SequentialSampler(4, start=3)))

# %% [markdown]
# **Check**: the sequential samplers agree; the random ones are permutations, each drawn
# from a different generator. Gluon's `RandomSampler` shuffles with NumPy's global
# state — `mx.random.seed` does not make it repeat, `np.random.seed` does. Passing the other
# framework's argument is not caught when the sampler is built, only when it is iterated:

# %%
assert list(pt_seq_sampler) == list(mx_seq_sampler) == list(range(10))
assert sorted(pt_rand_sampler) == sorted(mx_rand_sampler) == list(range(10))


def gluon_shuffle(seed_fn):
    seed_fn(1)
    first = list(gluon.data.RandomSampler(10))
    seed_fn(1)
    return first == list(gluon.data.RandomSampler(10))


repeats = {"after mx.random.seed": gluon_shuffle(mx.random.seed),
           "after np.random.seed": gluon_shuffle(np.random.seed)}
swapped = {
    "torch SequentialSampler(10)": errors.catch(lambda: list(SequentialSampler(10))).brief,
    "gluon SequentialSampler(dataset)": errors.catch(
        lambda: list(gluon.data.SequentialSampler(mx_ds))).brief}
assert repeats == {"after mx.random.seed": False, "after np.random.seed": True}
assert swapped == {
    "torch SequentialSampler(10)": (
        "TypeError", "object of type 'int' has no len()"),
    "gluon SequentialSampler(dataset)": (
        "TypeError", "unsupported operand type(s) for +: 'int' and 'ArrayDataset'")}
assert torch.utils.data.sampler.SequentialSampler is SequentialSampler  # seed's path
{"Gluon RandomSampler repeats": repeats, "swapped arguments": swapped}

# %% [markdown]
# ## 6. `sampler` and `batch_sampler`
#
# `sampler` decides the order of the samples, `batch_sampler` whole batches; both accept any
# iterable of indices. For a migration: one permutation, drawn once and fed to both loaders,
# gives both frameworks the same batches in the same order.
#
# **PyTorch**

# %%
order = np.random.default_rng(0).permutation(len(pt_ds)).tolist()
pt_sampled = ids(DataLoader(pt_ds, batch_size=4, sampler=order))
pt_batched = ids(DataLoader(pt_ds,
                            batch_sampler=BatchSampler(order, 4, drop_last=True)))
(pt_sampled, pt_batched)

# %% [markdown]
# **Gluon**: its `BatchSampler(sampler, batch_size, last_batch='keep')` takes `last_batch`
# where PyTorch's takes `drop_last` (required, no default).

# %%
mx_sampled = ids(gluon.data.DataLoader(mx_ds, batch_size=4, sampler=order))
mx_batched = ids(gluon.data.DataLoader(
    mx_ds, batch_sampler=gluon.data.BatchSampler(order, 4, last_batch="discard")))
(mx_sampled, mx_batched)

# %% [markdown]
# **Check**: same batches in the same order. Both refuse `shuffle` together with a
# `sampler`, and `batch_size` together with a `batch_sampler`:

# %%
assert pt_sampled == mx_sampled == [order[0:4], order[4:8], order[8:10]]
assert pt_batched == mx_batched == [order[0:4], order[4:8]]
exclusive = {
    "torch sampler+shuffle": errors.catch(
        lambda: DataLoader(pt_ds, sampler=order, shuffle=True)).brief,
    "gluon sampler+shuffle": errors.catch(lambda: gluon.data.DataLoader(
        mx_ds, batch_size=4, sampler=order, shuffle=True)).brief,
    "torch batch_sampler+batch_size": errors.catch(
        lambda: DataLoader(pt_ds, batch_size=4, batch_sampler=[[0]])).brief,
    "gluon batch_sampler+batch_size": errors.catch(lambda: gluon.data.DataLoader(
        mx_ds, batch_size=4, batch_sampler=[[0]])).brief,
}
assert {err[0] for err in exclusive.values()} == {"ValueError"}
exclusive

# %% [markdown]
# ## 7. `num_workers`: worker processes
#
# The rule, for a port (the deep dive [Worker processes](deep_dives/data_workers.ipynb)
# measures each line):
#
# - **PyTorch** starts its workers when an epoch starts and stops them at its end; each
#   reseeds `random`, `torch` and NumPy from the loader's base seed plus its id.
# - **Gluon** forks a `multiprocessing.Pool` in the constructor, which lives as long as the
#   loader; its batches come back in shared memory (`cpu_shared(0)`), and its workers keep the
#   NumPy state they were forked with.
# - A dataset class written in a notebook cell works where workers are forked (Linux, the
#   default of Python 3.11 there), not where they are `spawn`ed (macOS, Windows): put it in a
#   module.
#
# Workers only spread the per-image transforms over more cores. For a dataset that fits in
# memory the faster way out is to transform it once and batch it by index: the deep dive
# [Fast input pipelines](deep_dives/data_fast_pipelines.ipynb) times all these routes in
# both frameworks against the arithmetic alone.
#
# The example: a dataset that records which process loaded each sample and draws one number
# from NumPy's global random state, as a random augmentation would. Two workers each side:

# %%
class WhoLoads:
    """Sample i: (i, the loading process's id, one np.random draw)."""

    def __len__(self):
        return 8

    def __getitem__(self, i):
        return i, os.getpid(), np.random.randint(0, 1000)


def rows(batches):
    """One (index, pid, draw) row per sample."""
    return [tuple(int(v) for v in r)
            for b in batches for r in zip(*[compare.to_numpy(x) for x in b])]


def by_worker(rs):
    """{pid: the draws of that process, in sample order}."""
    workers = {}
    for _, pid, draw in rs:
        workers.setdefault(pid, []).append(draw)
    return workers


def n_children():
    return len(multiprocessing.active_children())


multiprocessing.get_start_method()

# %% tags=["pytorch"]
np.random.seed(0)
torch.manual_seed(0)
pt_rows = rows(DataLoader(WhoLoads(), batch_size=2, num_workers=2))

# %% [markdown]
# **Gluon**, and beside it the draws the kernel makes from the state the workers were forked
# with:

# %% tags=["gluon"]
np.random.seed(0)
mx_workers = gluon.data.DataLoader(WhoLoads(), batch_size=2, num_workers=2)
parent_stream = [np.random.randint(0, 1000) for _ in range(8)]   # the same state, in here
mx_batches = list(mx_workers)
del mx_workers                                                 # terminates the pool
mx_rows = rows(mx_batches)

# %% [markdown]
# **Check**: both keep the sample order and load in other processes. PyTorch's workers draw
# streams of their own; every Gluon worker replays the kernel's stream from the fork, so two
# workers give the same "random" augmentations. Seed NumPy inside `__getitem__` (from the
# sample index, say) when a transform draws from it: the deep dive's §3 shows both sides then
# draw the same numbers.

# %%
pt_draws, mx_draws = by_worker(pt_rows), by_worker(mx_rows)
assert [r[0] for r in pt_rows] == [r[0] for r in mx_rows] == list(range(8))
assert os.getpid() not in pt_draws and os.getpid() not in mx_draws
assert len(pt_draws) == 2 and len({tuple(d) for d in pt_draws.values()}) == 2
assert all(d != parent_stream[:len(d)] for d in pt_draws.values())
assert all(d == parent_stream[:len(d)] for d in mx_draws.values()) and mx_draws
assert mx_batches[0][0].context == mx.Context("cpu_shared", 0)
assert n_children() == 0
assert "multiprocessing_context" in inspect.signature(DataLoader).parameters
assert "multiprocessing_context" not in inspect.signature(gluon.data.DataLoader).parameters
{"torch: each worker reseeded": True,
 "gluon: each worker replays the kernel's NumPy stream": True,
 "gluon batches with workers live in": str(mx_batches[0][0].context)}

# %% [markdown]
# ## 8. A training script's loader: what Gluon does not have
#
# pytorch/examples' [`mnist/main.py`](https://github.com/pytorch/examples/blob/main/mnist/main.py)
# builds its loaders, on an accelerator, with `num_workers=1, persistent_workers=True,
# pin_memory=True, shuffle=True`, and prints `len(train_loader.dataset)` and
# `len(train_loader)`. That loader over `WhoLoads` (two workers), two epochs:
#
# **PyTorch**

# %%
who = WhoLoads()
with warnings.catch_warnings(record=True) as pt_pin_warnings:
    warnings.simplefilter("always")
    pt_loader = DataLoader(who, batch_size=2, num_workers=2, persistent_workers=True,
                           pin_memory=True, shuffle=True)
    pt_epochs = [list(pt_loader) for _ in range(2)]
pt_pinned = pt_epochs[0][0][0].is_pinned()
pt_script = {"len(loader.dataset)": len(pt_loader.dataset), "len(loader)": len(pt_loader),
             "workers alive after the epochs": n_children()}
del pt_loader  # stops the persistent workers
pt_script

# %% [markdown]
# **Gluon**: the same flags, less `persistent_workers` (its pool lives as long as the loader:
# the deep dive's §1); and `thread_pool=True`, which PyTorch does not have. Then the script's
# `len(train_loader.dataset)`, ported as it is.

# %%
mx_loader = gluon.data.DataLoader(who, batch_size=2, num_workers=2, pin_memory=True,
                                  shuffle=True)
mx_epochs = [list(mx_loader) for _ in range(2)]
mx_thread_loader = gluon.data.DataLoader(who, batch_size=2, num_workers=2, thread_pool=True)
mx_script = {
    "len(loader)": len(mx_loader),
    "workers alive after the epochs": n_children(),
    "pin_memory=True: batches in": str(mx_epochs[0][0][0].context),
    "thread_pool=True: loaded in this process": (
        {pid for _, pid, _ in rows(mx_thread_loader)} == {os.getpid()}),
    "persistent_workers=True": errors.catch(lambda: gluon.data.DataLoader(
        who, batch_size=2, persistent_workers=True)).brief}
mx_script

# %% tags=["raises-exception"]
train_loader = gluon.data.DataLoader(who, batch_size=2)
len(train_loader.dataset)

# %% [markdown]
# **Check**, and what to write instead (Gluon keeps the dataset in a private `_dataset`;
# keep your own reference):
#
# | PyTorch | Gluon 1.9.1 | note |
# |---|---|---|
# | `len(loader.dataset)` | `len(dataset)` | no `.dataset` attribute (`AttributeError`) |
# | `len(loader)` | `len(loader)` | batches per epoch on both sides (with `'rollover'` it changes: section 3) |
# | `num_workers=1` | `num_workers=1` | a process pool forked in the constructor (section 7); `thread_pool=True`: threads of this process |
# | `persistent_workers=True` | — | no such argument (`TypeError`): Gluon's pool lives as long as the loader, the same processes serve every epoch |
# | `pin_memory=True` | `pin_memory=True, pin_device_id=0` | batches in `cpu_pinned(0)`, which MXNet allocates as ordinary memory when there is no CUDA GPU ([`storage.cc`](https://github.com/apache/mxnet/blob/1.9.1/src/storage/storage.cc#L78)); PyTorch without an accelerator warns and does not pin |
# | `prefetch_factor=2` | `prefetch=2 * num_workers` | PyTorch counts batches per worker, Gluon in all (its default: `2 * num_workers`) |
# | `shuffle=True` | `shuffle=True` | Gluon draws the order from NumPy's global state (section 5) |
# | `torch.accelerator.is_available()` | `mx.context.num_gpus() > 0` | MXNet 1.9.1 may see a GPU it has no kernels for: `sidebyside.devices.pick()` runs a test kernel first ([notebook 1 §3](01_install_and_environment.ipynb)) |

# %%
no_dataset = errors.catch(lambda: train_loader.dataset).brief
del mx_loader, mx_thread_loader  # terminates the pool
mx_params = inspect.signature(gluon.data.DataLoader).parameters
assert no_dataset == ("AttributeError", "'DataLoader' object has no attribute 'dataset'")
assert len(who) == 8
assert pt_script == {"len(loader.dataset)": len(who), "len(loader)": 4,
                     "workers alive after the epochs": 2}
assert mx_script["len(loader)"] == 4 and mx_script["workers alive after the epochs"] == 2
assert mx_script["pin_memory=True: batches in"] == "cpu_pinned(0)"
assert mx_script["thread_pool=True: loaded in this process"]
assert mx_script["persistent_workers=True"] == (
    "TypeError", "DataLoader.__init__() got an unexpected keyword argument "
    "'persistent_workers'")
assert [k for k in ("num_workers", "pin_memory", "pin_device_id", "prefetch", "thread_pool",
                    "persistent_workers", "shuffle") if k not in mx_params] == [
    "persistent_workers"]
assert "2 * self._num_workers" in inspect.getsource(gluon.data.DataLoader.__init__)
assert pt_pinned == torch.accelerator.is_available()   # no accelerator here: not pinned
assert any("pin_memory" in str(w.message) for w in pt_pin_warnings) == (
    not torch.accelerator.is_available())
assert n_children() == 0
"Gluon: no .dataset, no persistent_workers (its pool persists anyway); pin_memory exists"

# %% [markdown]
# ## 9. The vision datasets
#
# The seed names `torchvision.datasets.MNIST`, `CIFAR10`, `CIFAR100`, `ImageFolder` and
# `mx.gluon.data.vision.MNIST`, `CIFAR10`, `CIFAR100`, `ImageFolderDataset` (defined in
# `datasets.py`, the loader in `dataloader.py`). Each side also has `FashionMNIST`.
#
# **PyTorch**

# %% tags=["pytorch"]
VISION = ["MNIST", "FashionMNIST", "CIFAR10", "CIFAR100"]
pt_vision = {n: getattr(torchvision.datasets, n) for n in VISION + ["ImageFolder"]}
{n: f"{c.__module__}.{c.__name__}" for n, c in pt_vision.items()}

# %% [markdown]
# **Gluon**

# %% tags=["gluon"]
mx_vision = {n: getattr(mx.gluon.data.vision, n)
             for n in VISION + ["ImageFolderDataset"]}
{n: f"{c.__module__}.{c.__name__}" for n, c in mx_vision.items()}

# %% [markdown]
# **Check**: every class the seed names exists, in the modules it names.

# %%
mx_modules = {c.__module__ for c in mx_vision.values()}
assert mx_modules == {"mxnet.gluon.data.vision.datasets"}
assert gluon.data.DataLoader.__module__ == "mxnet.gluon.data.dataloader"
assert mx.gluon.data.vision.FashionMNIST.__mro__[1] is mx.gluon.data.vision.MNIST
assert all(c.__module__.startswith("torchvision.datasets.")
           for c in pt_vision.values())
len(pt_vision) + len(mx_vision)

# %% [markdown]
# ### Fashion-MNIST, offline, through both loaders
#
# `sidebyside.data` gives each framework its own class over the same files. Read the whole
# test split sequentially through each `DataLoader`: PyTorch with `PILToTensor()` (uint8,
# channels first), Gluon with no transform (uint8, channels last).
#
# **PyTorch**

# %%
pt_vis = data.torch_dataset(train=False, transform=pt_transforms.PILToTensor())
pt_vis_loader = DataLoader(pt_vis, batch_size=1000,
                           sampler=SequentialSampler(pt_vis))
pt_vis_batches = list(pt_vis_loader)
(len(pt_vis_batches), pt_vis_batches[0][0].shape, pt_vis_batches[0][1].dtype)

# %% [markdown]
# **Gluon**

# %%
mx_vis = data.gluon_dataset(train=False)
mx_vis_loader = gluon.data.DataLoader(
    mx_vis, batch_size=1000, sampler=gluon.data.SequentialSampler(len(mx_vis)))
mx_vis_batches = list(mx_vis_loader)
(len(mx_vis_batches), mx_vis_batches[0][0].shape, mx_vis_batches[0][1].dtype)

# %% [markdown]
# **Check**: ten batches each, the same 10,000 labels in the same order (int64 against
# int32), the same pixels once Gluon's NHWC is transposed to NCHW.

# %%
assert len(pt_vis_batches) == len(mx_vis_batches) == 10
for (pt_x, pt_y), (mx_x, mx_y) in zip(pt_vis_batches, mx_vis_batches, strict=True):
    assert pt_x.shape == (1000, 1, 28, 28) and mx_x.shape == (1000, 28, 28, 1)
    compare.assert_same(pt_x, mx_x.transpose((0, 3, 1, 2)))
    compare.assert_same(pt_y, mx_y, check_dtype=False)
assert pt_vis_batches[0][1].dtype == torch.int64
assert mx_vis_batches[0][1].dtype == np.int32
all_labels = torch.cat([y for _, y in pt_vis_batches])
torch.bincount(all_labels).tolist()

# %% [markdown]
# ### CIFAR-10 and CIFAR-100: what each side does without the files
#
# torchvision downloads only when asked (`download=False`, the default); Gluon has no
# `download` argument and always downloads a missing file (five attempts). They download
# different archives (Python pickles, binary records), so one download cannot serve both; and
# Gluon's `CIFAR100` gives the 20 **coarse** labels unless `fine_label=True`, torchvision's
# the 100 fine ones. The deep dive [Vision datasets offline](deep_dives/data_offline_datasets.ipynb)
# runs each case; the signatures and the sources say it here:

# %%
pt_cifar_args = inspect.signature(pt_vision["CIFAR10"]).parameters
mx_cifar_args = inspect.signature(mx_vision["CIFAR10"]).parameters
mx_cifar100_args = inspect.signature(mx_vision["CIFAR100"]).parameters
assert pt_cifar_args["download"].default is False and "download" not in mx_cifar_args
assert mx_cifar100_args["fine_label"].default is False
assert "fine_label" not in inspect.signature(pt_vision["CIFAR100"]).parameters
assert inspect.signature(mx.gluon.utils.download).parameters["retries"].default == 5
archives = {"CIFAR10": ("cifar-10-python.tar.gz", "cifar-10-binary.tar.gz"),
            "CIFAR100": ("cifar-100-python.tar.gz", "cifar-100-binary.tar.gz")}
for n, (pt_archive, mx_archive) in archives.items():
    assert pt_vision[n].filename == pt_archive and mx_archive in inspect.getsource(mx_vision[n])
{"torch download=": pt_cifar_args["download"].default,
 "gluon has download=": "download" in mx_cifar_args, "archives (torch, gluon)": archives,
 "gluon CIFAR100 fine_label=": mx_cifar100_args["fine_label"].default}

# %% [markdown]
# ## 10. `ImageFolder` vs `ImageFolderDataset`
#
# Both read `root/<class>/<image>`. The folder below is written from the test split's own
# samples by `sidebyside.imagefolder.write_image_folder`: the first three images of each
# class, as lossless PNG, one folder per class name. A folder name cannot contain `/`, so
# `T-shirt/top` becomes `T-shirt-top`.

# %%
folder_names = [c.replace("/", "-") for c in pair.classes]
image_root = tempfile.TemporaryDirectory()
tree = imagefolder.write_image_folder(pair.torch, Path(image_root.name) / "images", folder_names,
                          per_class=3)
print(len(tree), "PNG files in", len(folder_names), "folders, e.g.",
      tree.images[0].path.relative_to(tree.root))

# %% [markdown]
# **PyTorch**: classes are the sorted folder names; `default_loader` opens each file with
# PIL and converts it to **RGB**.

# %% tags=["pytorch"]
pt_folder = torchvision.datasets.ImageFolder(tree.root)
pt_img, pt_label = pt_folder[0]
(pt_folder.classes, pt_img.mode, pt_img.size, pt_label)

# %% [markdown]
# **Gluon**: `synsets` are the sorted folder names; `flag=1` (the default) decodes to 3
# channels, `flag=0` to 1 channel, as `(H, W, C)` uint8 NDArrays.

# %% tags=["gluon"]
mx_folder = gluon.data.vision.ImageFolderDataset(str(tree.root))
mx_gray_folder = gluon.data.vision.ImageFolderDataset(str(tree.root), flag=0)
mx_img, mx_label = mx_folder[0]
(mx_folder.synsets, mx_img.shape, mx_gray_folder[0][0].shape, mx_img.dtype, mx_label)

# %% [markdown]
# **Check**: the same classes in the same (sorted) order — for Fashion-MNIST **not** the
# dataset's label order (for MNIST's folders `0`–`9` it is); the same files with the same
# labels; the pixels: PyTorch's RGB
# image equals Gluon's `flag=1` array, its three channels are equal, and Gluon's `flag=0`
# array is the original sample exactly.

# %%
assert pt_folder.classes == mx_folder.synsets == sorted(folder_names)
same_order = pt_folder.classes == folder_names  # MNIST's "0".."9": True
assert same_order == (pair.name == "mnist")
folder_to_dataset = [folder_names.index(c) for c in pt_folder.classes]
pt_files = [(Path(p).relative_to(tree.root), t) for p, t in pt_folder.samples]
mx_files = [(Path(p).relative_to(tree.root), t) for p, t in mx_folder.items]
assert pt_files == mx_files and len(pt_files) == len(tree) == 30
written = {im.path.relative_to(tree.root): im for im in tree.images}
for i, (rel, label) in enumerate(pt_files):
    source = written[rel]
    assert folder_to_dataset[label] == source.label
    assert source.label == int(pair.torch.targets[source.index])
    rgb = np.asarray(pt_folder[i][0])
    assert rgb.shape == (28, 28, 3) and rgb.dtype == np.uint8
    compare.assert_same(rgb, mx_folder[i][0])
    assert (rgb == rgb[:, :, :1]).all()
    compare.assert_same(mx_gray_folder[i][0][:, :, 0], pair.torch.data[source.index])
{"folder label -> dataset label": folder_to_dataset}

# %% [markdown]
# Through the loaders, with each side's `ToTensor` (scales to `[0, 1]`, moves channels
# first) and the sequential sampler:
#
# **PyTorch**

# %%
pt_folder_t = torchvision.datasets.ImageFolder(tree.root,
                                               transform=pt_transforms.ToTensor())
pt_folder_batches = list(DataLoader(pt_folder_t, batch_size=8,
                                    sampler=SequentialSampler(pt_folder_t)))
(len(pt_folder_batches), pt_folder_batches[0][0].shape, pt_folder_batches[0][1])

# %% [markdown]
# **Gluon**: `transform_first` applies the transform to the image only.

# %%
mx_folder_t = mx_folder.transform_first(mx_transforms.ToTensor())
mx_folder_batches = list(gluon.data.DataLoader(
    mx_folder_t, batch_size=8,
    sampler=gluon.data.SequentialSampler(len(mx_folder_t))))
(len(mx_folder_batches), mx_folder_batches[0][0].shape, mx_folder_batches[0][1])

# %% [markdown]
# **Check**: same shapes (`(8, 3, 28, 28)` float32, last batch 6), same labels, same
# values — exactly, both divide the same uint8 by 255 in float32.

# %%
for (pt_x, pt_y), (mx_x, mx_y) in zip(pt_folder_batches, mx_folder_batches,
                                      strict=True):
    assert pt_x.shape == mx_x.shape and pt_x.dtype == torch.float32
    compare.assert_same(pt_x, mx_x)
    compare.assert_same(pt_y, mx_y, check_dtype=False)
[tuple(x.shape) for x, _ in mx_folder_batches]

# %% [markdown]
# The thirty images, with the label each reader gives and the dataset's own label:

# %% mystnb={"image": {"alt": "Thirty grayscale images from the image folder in three rows, each titled with its folder name, the folder's label and the dataset's label."}}
fig, axes = plt.subplots(3, 10, figsize=(10, 3.6))
for ax, (i, (rel, label)) in zip(axes.T.flat, enumerate(pt_files)):
    ax.imshow(mx_gray_folder[i][0][:, :, 0].asnumpy(), cmap="gray_r")
    ax.set_title(f"{rel.parent.name}\nfolder {label} · data "
                 f"{folder_to_dataset[label]}", fontsize=6)
    ax.axis("off")
fig.tight_layout()
plt.show()

# %% [markdown]
# **Gotcha: an empty class folder.** Add one that sorts first: PyTorch refuses the tree
# (unless `allow_empty=True`); Gluon accepts it silently — and every label moves up by one.

# %%
(tree.root / "Accessories").mkdir()
empty_error = errors.catch(lambda: torchvision.datasets.ImageFolder(tree.root)).brief
pt_allow = torchvision.datasets.ImageFolder(tree.root, allow_empty=True)
mx_shifted = gluon.data.vision.ImageFolderDataset(str(tree.root))
assert empty_error[0] == "FileNotFoundError"
assert "Found no valid file for the classes Accessories" in empty_error[1]
assert mx_shifted.synsets[0] == pt_allow.classes[0] == "Accessories"
assert [t for _, t in mx_shifted.items] == [t + 1 for _, t in mx_folder.items]
assert [t for _, t in pt_allow.samples] == [t for _, t in mx_shifted.items]
image_root.cleanup()
{"torch": empty_error[0], "gluon first labels before / after":
 ([t for _, t in mx_folder.items][:4], [t for _, t in mx_shifted.items][:4])}

# %% [markdown]
# ## Summary
#
# | | PyTorch | MXNet Gluon | note |
# |---|---|---|---|
# | dataset of arrays | `TensorDataset(*tensors)` | `ArrayDataset(*args)` | PyTorch: tensors only; Gluon: NDArrays, NumPy arrays, lists, each sample keeps its type |
# | loader | `DataLoader(ds, batch_size=1, shuffle=None, …)` | `DataLoader(ds, batch_size=None, shuffle=False, …)` | Gluon's `batch_size` is required |
# | no batching | `DataLoader(ds, batch_size=None)` | — | Gluon: `ValueError` |
# | short last batch | `drop_last=False` / `drop_last=True` | `last_batch='keep'` / `last_batch='discard'` | Gluon's default `None` means `'keep'` |
# | carry leftovers into the next epoch | — | `last_batch='rollover'` | the same loader object, every epoch |
# | merge samples | `collate_fn=fn` | `batchify_fn=fn` | defaults: `default_collate`, `default_batchify_fn` |
# | sequential order | `SequentialSampler(dataset)` | `SequentialSampler(len(dataset), start=0)` | |
# | random order | `RandomSampler(dataset, generator=g)` | `RandomSampler(len(dataset))` | Gluon's shuffles with NumPy: `np.random.seed(s)` |
# | batches of indices | `BatchSampler(sampler, size, drop_last)` | `BatchSampler(sampler, size, last_batch='keep')` | |
# | worker processes | `DataLoader(ds, num_workers=n)` | `DataLoader(ds, num_workers=n)` | PyTorch: started per epoch, each reseeds NumPy; Gluon: one pool per loader, forked in the constructor, NumPy state inherited, batches in `cpu_shared(0)` |
# | worker start method | `DataLoader(ds, num_workers=n, multiprocessing_context="spawn")` | — | Gluon's pool uses Python's default |
# | vision datasets | `torchvision.datasets.MNIST`, `FashionMNIST`, `CIFAR10`, `CIFAR100` | `gluon.data.vision.MNIST`, `FashionMNIST`, `CIFAR10`, `CIFAR100` | torchvision: `download=False` by default; Gluon downloads a missing file always; Gluon's `CIFAR100`: coarse labels unless `fine_label=True` |
# | image folder | `torchvision.datasets.ImageFolder(root)` | `gluon.data.vision.ImageFolderDataset(root, flag=1)` | PIL RGB images, `.classes`; `(H, W, 3)` uint8 NDArrays, `.synsets` (`flag=0`: 1 channel) |
# | image-only transform | `transform=t` | `dataset.transform_first(t)` | labels: torchvision's `target_transform=` |
#
# Seed claims checked here: the `DataLoader` defaults are right except PyTorch's
# `shuffle` (now `None`) and `collate_fn` (now `None`), and Gluon's `last_batch` (`None`,
# meaning `'keep'`) — same behaviour, different signature; `last_batch` does correspond
# to `drop_last`, and adds `'rollover'`; the sampler argument difference (dataset against
# length) is right; every dataset class and module the seed names exists.
#
# ## Exercises
#
# 1. Write a `BatchSampler` for PyTorch that behaves like Gluon's `last_batch='rollover'`,
#    and check it against section 3's batches over three epochs.
# 2. Write a few JPEG files into the folder of section 10, grayscale and colour. Are the
#    pixels still equal between the two readers? Which decoder does each side use?
#
# :::{dropdown} Solutions
# 1. Keep the leftover indices in the sampler object: `__iter__` starts its first batch with
#    them, and `__len__` counts them (`RolloverBatchSampler`, the first cell below). Over
#    section 3's three epochs it gives Gluon's `last_batch='rollover'` batches exactly:
#    lengths 2, 3, 2, and the second epoch opens with `[8, 9, 0, 1]`.
# 2. `ImageFolder`'s `default_loader` decodes with Pillow (libjpeg-turbo inside);
#    `ImageFolderDataset` with `mx.image.imread`, the OpenCV decoder built into libmxnet.
#    The second cell below writes three grayscale JPEGs and two colour ones (4:2:0 and 4:4:4
#    chroma) with Pillow and compares the two readers pixel by pixel: the largest difference
#    it finds is printed there and checked against one grey level. Two decoders need not
#    round alike, so a test compares decoded JPEG pixels with a tolerance, not for equality.
# :::

# %% tags=["hide-cell"]
class RolloverBatchSampler(torch.utils.data.Sampler):
    def __init__(self, sampler, batch_size):
        self.sampler, self.batch_size, self.carry = sampler, batch_size, []

    def __iter__(self):
        batch, self.carry = self.carry, []
        for i in self.sampler:
            batch.append(i)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        self.carry = batch

    def __len__(self):
        return (len(self.carry) + len(self.sampler)) // self.batch_size


pt_rollover = epochs(DataLoader(
    pt_ds, batch_sampler=RolloverBatchSampler(SequentialSampler(pt_ds), 4)))
assert pt_rollover == mx_last["last_batch='rollover'"]
assert [length for length, _ in pt_rollover] == [2, 3, 2]
"1. a batch sampler that keeps the leftovers gives Gluon's 'rollover' batches, epoch by epoch"

# %% tags=["hide-cell", "nbval-ignore-output"]
jpeg_root = tempfile.TemporaryDirectory()
jpeg_dir = Path(jpeg_root.name) / "jpegs"
for k in range(5):
    (jpeg_dir / f"class{k}").mkdir(parents=True)
    gray = pair.torch.data[k].numpy()
    if k < 3:                              # grayscale
        Image.fromarray(gray).save(jpeg_dir / f"class{k}" / "a.jpg", quality=90)
    else:                                  # colour, 4:2:0 then 4:4:4 chroma
        colour = np.stack([gray, 255 - gray, gray // 2], axis=-1)
        Image.fromarray(colour).save(jpeg_dir / f"class{k}" / "a.jpg", quality=90,
                                     subsampling=2 if k == 3 else 0)
pt_jpegs = torchvision.datasets.ImageFolder(jpeg_dir)
mx_jpegs = gluon.data.vision.ImageFolderDataset(str(jpeg_dir))
jpeg_gaps = [int(np.abs(np.asarray(pt_jpegs[i][0], dtype=np.int16)
                        - mx_jpegs[i][0].asnumpy().astype(np.int16)).max())
             for i in range(len(pt_jpegs))]
assert len(jpeg_gaps) == 5 and max(jpeg_gaps) <= 1
assert pt_jpegs.loader is torchvision.datasets.folder.default_loader
assert "imread" in inspect.getsource(gluon.data.vision.ImageFolderDataset.__getitem__)
jpeg_root.cleanup()
print("largest pixel difference per image:", jpeg_gaps)
"2. Pillow against MXNet's OpenCV: the same pixels to within one grey level"
