# %% [markdown]
# # 4 · Data loading: Dataset, DataLoader, samplers and vision datasets
#
# **What you will learn**
#
# - how PyTorch's `TensorDataset`, `DataLoader` and samplers map onto Gluon's
#   `ArrayDataset`, `DataLoader` and samplers, argument by argument — `drop_last` against
#   `last_batch` (including Gluon's `'rollover'`), `collate_fn` against `batchify_fn`,
#   `sampler`, `batch_sampler`, `num_workers` — and which defaults the usual API table gets
#   wrong;
# - what differs when worker processes load the data (when they start, where the batches
#   live, how NumPy's random state reaches them), run inside this Jupyter kernel;
# - what to write in Gluon for a training script's `loader.dataset`,
#   `persistent_workers=True` and `pin_memory=True`;
# - which vision datasets each side has, which can be built offline, and how
#   `ImageFolder` and `ImageFolderDataset` read the same folder of PNG files: class order,
#   labels, channels and pixels, compared.
#
# Every pairing is checked: same batch shapes, same labels, same sample order. The data are
# real Fashion-MNIST (or MNIST) samples, read through `sidebyside.data`; the small arrays of
# sections 1–7 are the first ten test images, with their index carried along so that the
# order of the samples stays visible.
#
# **Prerequisites**: [notebook 3](03_mnist_mlp.ipynb) (the training loop the loaders feed).
# **Time**: about 40 minutes.

# %% tags=["nbval-ignore-output"]
import contextlib
import inspect
import io
import multiprocessing
import os
import re
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
# The data: Fashion-MNIST's test split (MNIST when `SIDEBYSIDE_DATASET=mnist`), both
# frameworks' own dataset classes over one copy of the files. Calls that are meant to fail
# go through `sidebyside.errors.catch` ([notebook 1](01_install_and_environment.ipynb)): its `.brief` is the error's type and
# first line, its `.stderr` what was written to stderr meanwhile (Gluon's `DataLoader`
# writes something when its constructor fails — see section 2).

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
# `collate_fn=None` means `default_collate` when batching, and Gluon's `last_batch=None`
# means `'keep'` (its constructor: `last_batch if last_batch else 'keep'`). The real
# difference is `batch_size`: PyTorch's `batch_size=None` turns batching off (each sample
# comes out on its own, uncollated), Gluon's default `None` is an error unless a
# `batch_sampler` is given. Gluon's failing constructor also writes an "Exception ignored
# in `DataLoader.__del__`" message: `__del__` reads `self._worker_pool`, which `__init__`
# had not set yet. Harmless, but it shows up under the cell.

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
# Ten samples, batches of four, three epochs. PyTorch keeps or drops the short batch;
# Gluon keeps it, discards it, or **rolls it over**: the leftover samples open the next
# epoch's first batch. PyTorch has no rollover.
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
# Over three epochs `'rollover'` delivers 28 of the 30 samples: samples 8 and 9 of the
# third epoch wait in the batch sampler for a fourth. They are held by the `DataLoader`
# object, so a new `DataLoader` each epoch loses them.

# %% [markdown]
# ## 4. Merging samples into a batch: `collate_fn` vs `batchify_fn`
#
# The defaults stack samples of the same shape. Sequences of different lengths need a
# function of your own — the same job on both sides, with each framework's arrays:
# pad to the longest, and return the lengths.

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
# `sampler` decides the order of the samples, `batch_sampler` decides whole batches. Both
# accept any iterable of indices. The useful case for a migration: one permutation, drawn
# once, fed to both loaders — the two frameworks then see the same batches in the same
# order, which a random sampler on each side cannot give.
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
# ## 7. `num_workers`: worker processes in a Jupyter kernel
#
# This notebook runs in a Jupyter kernel, so the cells below are the check that workers
# work there. On Linux, Python 3.11 starts them with `fork`: the workers inherit everything
# the notebook defined, including a dataset class written in a cell (with `spawn`, the
# default on macOS and Windows, that is different: see the end of this section). The
# dataset records which process loaded each sample, and
# draws one number from NumPy's global random state — as a random augmentation would.

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


def n_children():
    return len(multiprocessing.active_children())


multiprocessing.get_start_method()

# %% [markdown]
# **PyTorch**: workers start when the loader is iterated, and stop at the end of the epoch.
# Each worker reseeds `random`, `torch` and NumPy from the loader's base seed plus its id.

# %%
np.random.seed(0)
torch.manual_seed(0)
pt_workers = DataLoader(WhoLoads(), batch_size=2, num_workers=2)
pt_children = {"after DataLoader()": n_children()}
pt_iter = iter(pt_workers)
pt_batches = [next(pt_iter)]
pt_children["while iterating"] = n_children()
pt_batches += list(pt_iter)
pt_children["after the epoch"] = n_children()
pt_rows = rows(pt_batches)
pt_children

# %% [markdown]
# **Gluon**: the constructor forks a `multiprocessing.Pool` that lives as long as the
# loader; batches come back in shared memory (`cpu_shared(0)`), and the workers keep the
# NumPy state they were forked with.

# %%
np.random.seed(0)
mx_workers = gluon.data.DataLoader(WhoLoads(), batch_size=2, num_workers=2)
parent_stream = [np.random.randint(0, 1000) for _ in range(8)]  # same state, in here
mx_children = {"after DataLoader()": n_children()}
mx_batches = list(mx_workers)
mx_children["after the epoch"] = n_children()
mx_context = mx_batches[0][0].context
del mx_workers  # terminates the pool
mx_children["after del"] = n_children()
mx_rows = rows(mx_batches)
(mx_children, mx_context)

# %% [markdown]
# The rows (index, worker pid, draw) — pids change from run to run, so this output is not
# compared by the tests; the check below is:

# %% tags=["nbval-ignore-output"]
{"torch": pt_rows, "gluon": mx_rows, "parent stream": parent_stream}

# %% [markdown]
# **Check**: both keep the sample order and load in other processes; PyTorch's two workers
# draw different numbers, while every Gluon worker replays the parent's NumPy stream from
# the fork — two workers produce the same "random" augmentations.

# %%
def by_worker(rs):
    workers = {}
    for _, pid, draw in rs:
        workers.setdefault(pid, []).append(draw)
    return workers


assert [r[0] for r in pt_rows] == [r[0] for r in mx_rows] == list(range(8))
assert os.getpid() not in by_worker(pt_rows)
assert os.getpid() not in by_worker(mx_rows)
assert pt_children == {"after DataLoader()": 0, "while iterating": 2,
                       "after the epoch": 0}
assert mx_children == {"after DataLoader()": 2, "after the epoch": 2, "after del": 0}
assert mx_context == mx.Context("cpu_shared", 0)
assert len(by_worker(pt_rows)) == 2 and len({r[2] for r in pt_rows}) == 8
for draws in by_worker(mx_rows).values():
    assert draws == parent_stream[:len(draws)]
assert next(iter(gluon.data.DataLoader(mx_ds, batch_size=2)))[0].context == mx.cpu()
{"torch: distinct draws": len({r[2] for r in pt_rows}),
 "gluon: each worker's draws == the parent's stream": True,
 "gluon batches with workers live in": str(mx_context)}

# %% [markdown]
# **What differs with `spawn`.** PyTorch lets each loader choose how its workers start
# (`multiprocessing_context=`); Gluon's pool always uses Python's default. A `spawn`ed
# worker is a fresh interpreter that unpickles the dataset by its class's name — and a
# class defined in a notebook cell does not exist there. The worker writes its traceback
# to the process's stderr (caught in a file here), and the loader raises a `RuntimeError`
# a few seconds later:

# %%
with tempfile.TemporaryFile() as worker_log:
    saved_fd = os.dup(2)
    os.dup2(worker_log.fileno(), 2)  # the spawned worker inherits file descriptor 2
    try:
        list(DataLoader(WhoLoads(), batch_size=2, num_workers=1,
                        multiprocessing_context="spawn"))
        spawn_error = None
    except RuntimeError as exc:
        spawn_error = str(exc)
    finally:
        os.dup2(saved_fd, 2)
        os.close(saved_fd)
    worker_log.seek(0)
    worker_said = worker_log.read().decode().strip().splitlines()[-1]
worker_said

# %%
assert spawn_error is not None and "exited unexpectedly" in spawn_error
assert worker_said == ("AttributeError: Can't get attribute 'WhoLoads' "
                       "on <module '__main__' (built-in)>")
assert "multiprocessing_context" in inspect.signature(DataLoader).parameters
assert "multiprocessing.Pool(" in inspect.getsource(gluon.data.DataLoader.__init__)
re.sub(r"\d+", "N", spawn_error)

# %% [markdown]
# So with Gluon's workers, seed NumPy inside the worker yourself (say, from the sample
# index) when a transform draws from it. Batches in `cpu_shared(0)` work like any CPU
# array; move them to the device as usual:

# %% tags=["nbval-ignore-output"]
pt_on_device = pt_batches[0][0].to(devs.torch.device)
mx_on_device = mx_batches[0][0].as_in_context(devs.mxnet.device)
assert pt_on_device.tolist() == mx_on_device.asnumpy().tolist() == [0, 1]
(pt_on_device.device, mx_on_device.context)

# %% [markdown]
# ## 8. A training script's loader: what Gluon does not have
#
# pytorch/examples' [`mnist/main.py`](https://github.com/pytorch/examples/blob/main/mnist/main.py)
# chooses its device with `torch.accelerator`, and on an accelerator builds both loaders
# with `num_workers=1, persistent_workers=True, pin_memory=True, shuffle=True`; its loops
# print `len(train_loader.dataset)` and `len(train_loader)`. That loader over `WhoLoads`
# (two workers, so that they can be told apart), two epochs:
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
             "workers alive after the epochs": n_children(),
             "same workers in both epochs": ({pid for _, pid, _ in rows(pt_epochs[0])}
                                             == {pid for _, pid, _ in rows(pt_epochs[1])})}
del pt_loader  # stops the persistent workers
pt_script["workers after del"] = n_children()
pt_script

# %% [markdown]
# **Gluon**: the same flags, less `persistent_workers`; and `thread_pool=True`, which
# PyTorch does not have. Then the script's `len(train_loader.dataset)`, ported as it is.

# %%
mx_loader = gluon.data.DataLoader(who, batch_size=2, num_workers=2, pin_memory=True,
                                  shuffle=True)
pool = {p.pid for p in multiprocessing.active_children()}
mx_epochs = [list(mx_loader) for _ in range(2)]
loaded_by = {pid for epoch in mx_epochs for _, pid, _ in rows(epoch)}
thread_loader = gluon.data.DataLoader(who, batch_size=2, num_workers=2, thread_pool=True)
mx_script = {
    "len(loader)": len(mx_loader),
    "workers alive after the epochs": n_children(),
    "both epochs loaded by the constructor's pool": (
        loaded_by <= pool == {p.pid for p in multiprocessing.active_children()}),
    "pin_memory=True: batches in": str(mx_epochs[0][0][0].context),
    "thread_pool=True: loaded in this process": (
        {pid for _, pid, _ in rows(thread_loader)} == {os.getpid()}),
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
# | `persistent_workers=True` | leave it out (`TypeError`) | Gluon's pool lives as long as the loader: the same processes serve every epoch |
# | `pin_memory=True` | `pin_memory=True` (and `pin_device_id=0`) | batches in `cpu_pinned(0)`, which MXNet allocates as ordinary memory when there is no CUDA GPU ([`storage.cc`](https://github.com/apache/mxnet/blob/1.9.1/src/storage/storage.cc#L78)); PyTorch without an accelerator warns and does not pin |
# | `prefetch_factor=2` (batches per worker) | `prefetch=` (batches in all; default `2·num_workers`) | |
# | `shuffle=True` | `shuffle=True` | Gluon draws the order from NumPy's global state (section 5) |
# | `torch.accelerator.is_available()`, `.current_accelerator()` | `mx.gpu(0)` if `mx.context.num_gpus() > 0`, else `mx.cpu()` | MXNet 1.9.1 may see a GPU it has no kernels for: `sidebyside.devices.pick()` runs a test kernel first ([notebook 1 §3](01_install_and_environment.ipynb)) |

# %%
no_dataset = errors.catch(lambda: train_loader.dataset).brief
del mx_loader, thread_loader  # terminates the pool
mx_params = inspect.signature(gluon.data.DataLoader).parameters
assert no_dataset == ("AttributeError", "'DataLoader' object has no attribute 'dataset'")
assert len(who) == 8
assert pt_script == {"len(loader.dataset)": len(who), "len(loader)": 4,
                     "workers alive after the epochs": 2,
                     "same workers in both epochs": True, "workers after del": 0}
assert mx_script["len(loader)"] == 4 and mx_script["workers alive after the epochs"] == 2
assert mx_script["both epochs loaded by the constructor's pool"]
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
# ### MNIST: built when the files are there or can be downloaded
#
# This cell's output depends on the machine (offline it is the error; online it downloads
# MNIST once into `$SIDEBYSIDE_DATA`):

# %% tags=["nbval-ignore-output"]
try:
    mnist = data.load("mnist", train=False)
    mnist_result = f"MNIST: {len(mnist)} test samples"
except data.DatasetUnavailable as exc:
    mnist = None
    message = str(exc).splitlines()[0].replace(str(data.data_root()), "$SIDEBYSIDE_DATA")
    mnist_result = f"DatasetUnavailable: {message[:160]}…"
mnist_result

# %%
assert mnist is None or (len(mnist) == 10000 and mnist.gluon_route.stock)
mnist is None or mnist.classes == tuple(str(d) for d in range(10))

# %% [markdown]
# ### CIFAR-10 and CIFAR-100: what happens without the files
#
# **PyTorch** only downloads when asked (`download=False` is the default), so without
# the files the constructor fails at once:

# %% tags=["pytorch"]
cifar_dir = tempfile.TemporaryDirectory()
pt_cifar = {n: errors.catch(lambda n=n: pt_vision[n](cifar_dir.name)).brief
            for n in ("CIFAR10", "CIFAR100")}
pt_cifar

# %% [markdown]
# **Gluon** has no `download` argument: a missing file is always downloaded, from
# `$MXNET_GLUON_REPO` (default: Apache MXNet's S3 bucket), with five attempts. So that this
# cell neither downloads 330 MB when online nor depends on the network, it points that
# repository at a closed local port: the failure is the same `requests` `ConnectionError`
# that a machine without internet gets (there it names the S3 host instead).

# %% tags=["gluon"]
def gluon_cifar(name):
    log = io.StringIO()
    old = os.environ.get("MXNET_GLUON_REPO")
    os.environ["MXNET_GLUON_REPO"] = "http://127.0.0.1:9/"
    try:
        with contextlib.redirect_stdout(log):
            error = errors.catch(lambda: mx_vision[name](root=cifar_dir.name)).brief
    finally:
        if old is None:
            del os.environ["MXNET_GLUON_REPO"]
        else:
            os.environ["MXNET_GLUON_REPO"] = old
    return error[0], log.getvalue().count("Downloading ")


mx_cifar = {n: gluon_cifar(n) for n in ("CIFAR10", "CIFAR100")}
mx_cifar

# %% [markdown]
# **Check**, and two more differences read from the classes themselves: the two sides
# download **different archives** (torchvision the Python-pickle version, Gluon the binary
# version), so unlike MNIST one download cannot serve both; and Gluon's `CIFAR100` gives
# the 20 **coarse** labels unless `fine_label=True`, where torchvision's gives the 100 fine
# ones.

# %%
class _NoLoad:
    def _get_data(self):  # keep the attributes __init__ sets, load nothing
        pass


def gluon_archive(name):
    probe = type("Probe", (_NoLoad, mx_vision[name]), {})(root=cifar_dir.name)
    return probe._archive_file[0]


CIFARS = ("CIFAR10", "CIFAR100")
archives = {n: (pt_vision[n].filename, gluon_archive(n)) for n in CIFARS}
mx_cifar100 = inspect.signature(mx_vision["CIFAR100"]).parameters
fine_default = mx_cifar100["fine_label"].default
not_found = ("RuntimeError", "Dataset not found or corrupted. "
             "You can use download=True to download it")
assert pt_cifar == {n: not_found for n in CIFARS}
assert mx_cifar == {n: ("ConnectionError", 5) for n in CIFARS}
assert archives == {
    "CIFAR10": ("cifar-10-python.tar.gz", "cifar-10-binary.tar.gz"),
    "CIFAR100": ("cifar-100-python.tar.gz", "cifar-100-binary.tar.gz")}
assert fine_default is False
assert "download" in inspect.signature(pt_vision["CIFAR10"]).parameters
assert "download" not in inspect.signature(mx_vision["CIFAR10"]).parameters
cifar_dir.cleanup()
{"archives (torch, gluon)": archives,
 "gluon CIFAR100 fine_label default": fine_default}

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
# | | PyTorch | MXNet Gluon |
# |---|---|---|
# | dataset of arrays | `TensorDataset(*tensors)` (tensors only) | `ArrayDataset(*args)` (NDArray, NumPy, lists; types kept) |
# | loader | `DataLoader(ds, batch_size=1, shuffle=None, …)` | `DataLoader(ds, batch_size=None, shuffle=False, …)` — `batch_size` required |
# | no batching | `batch_size=None` | not available (`ValueError`) |
# | short last batch | `drop_last=False` / `True` | `last_batch='keep'` (default, `None`) / `'discard'` |
# | carry leftovers into the next epoch | not available | `last_batch='rollover'` (same loader object) |
# | merge samples | `collate_fn=` (default `default_collate`) | `batchify_fn=` (default `default_batchify_fn`) |
# | sequential order | `SequentialSampler(dataset)` | `SequentialSampler(length, start=0)` |
# | random order | `RandomSampler(dataset, generator=…)` | `RandomSampler(length)`, seeded by `np.random.seed` |
# | batches of indices | `BatchSampler(sampler, size, drop_last)` | `BatchSampler(sampler, size, last_batch='keep')` |
# | worker processes | started per epoch, each reseeds NumPy; start method per loader (`multiprocessing_context=`) | one pool per loader (forked in the constructor), NumPy state inherited; batches in `cpu_shared(0)`; Python's default start method |
# | a script's `loader.dataset`, `persistent_workers=True`, `pin_memory=True` | keep the dataset (`len(dataset)`); leave `persistent_workers` out (the pool persists anyway); `pin_memory=True` exists (`cpu_pinned(0)`) |
# | vision datasets | `torchvision.datasets.MNIST`, `FashionMNIST`, `CIFAR10`, `CIFAR100` (`download=False` default) | `gluon.data.vision.MNIST`, `FashionMNIST`, `CIFAR10`, `CIFAR100` (always download a missing file; `CIFAR100` coarse labels unless `fine_label=True`) |
# | image folder | `ImageFolder(root)` → PIL RGB, `classes` | `ImageFolderDataset(root, flag=1)` → `(H, W, 3)` uint8 NDArray, `synsets`; `flag=0` → 1 channel |
# | image-only transform | `transform=` (labels: `target_transform=`) | `.transform_first(...)` |
#
# Seed claims checked here: the `DataLoader` defaults are right except PyTorch's
# `shuffle` (now `None`) and `collate_fn` (now `None`), and Gluon's `last_batch` (`None`,
# meaning `'keep'`) — same behaviour, different signature; `last_batch` does correspond
# to `drop_last`, and adds `'rollover'`; the sampler argument difference (dataset against
# length) is right; every dataset class and module the seed names exists.
#
# Run time: about 15 s for the whole notebook, kernel start included — measured with
# `make notebooks` on a two-vCPU AMD EPYC virtual machine, otherwise idle, on 2026-11-30;
# the imports take the largest share.
#
# ## Exercises
#
# 1. Write a `BatchSampler` for PyTorch that behaves like Gluon's `last_batch='rollover'`,
#    and check it against section 3's batches over three epochs.
# 2. Give `WhoLoads` a `seed_per_sample` option that calls `np.random.seed(i)` in
#    `__getitem__`. Do the two frameworks now draw the same numbers for the same sample?
# 3. Move `WhoLoads` into a module file next to the notebook, import it, and rerun the
#    `spawn` cell of section 7. What does each worker print for `os.getpid()`, and how long
#    does the first batch take compared with `fork`?
# 4. Write a few JPEG files into the folder of section 10. Are the pixels still equal between
#    the two readers? Which decoder does each side use?
#
# :::{dropdown} Solutions
# 1. Keep the leftover indices in the sampler object. `__iter__` starts its first batch with
#    them, and `__len__` counts them:
#    ```python
#    class RolloverBatchSampler(torch.utils.data.Sampler):
#        def __init__(self, sampler, batch_size):
#            self.sampler, self.batch_size, self.carry = sampler, batch_size, []
#        def __iter__(self):
#            batch, self.carry = self.carry, []
#            for i in self.sampler:
#                batch.append(i)
#                if len(batch) == self.batch_size:
#                    yield batch
#                    batch = []
#            self.carry = batch
#        def __len__(self):
#            return (len(self.carry) + len(self.sampler)) // self.batch_size
#    ```
#    `epochs(DataLoader(pt_ds, batch_sampler=RolloverBatchSampler(SequentialSampler(pt_ds), 4)))`
#    equals section 3's `last_batch='rollover'` run. Over three epochs it gives lengths 2, 3, 2,
#    and the second epoch opens with `[8, 9, 0, 1]`.
# 2. Yes. With `np.random.seed(i)` in `__getitem__`, each sample's draw depends only on `i`.
#    Both loaders with 2 workers give 684, 37, 168, 874, … for samples 0, 1, 2, 3, …, the same
#    as loading in the kernel. Without it the streams differ, and Gluon's two workers repeat
#    each other.
# 3. Each worker reports its own pid, never the kernel's: one pid for all 8 samples with
#    `num_workers=1`, two with 2. The cell now runs: `spawn` finds the class by its module.
#    The first batch took about 1.4 s (a fresh interpreter imports torch and the module), against
#    about 0.03 s with `fork`. Run from a script file, spawn also re-imports the script: 3.6 s here.
# 4. Yes, here: 6 grayscale JPEGs written by PIL, and 2 colour ones (4:2:0 and 4:4:4 chroma),
#    gave pixel-for-pixel equal arrays. `ImageFolder`'s `default_loader` decodes with PIL
#    (Pillow, with libjpeg-turbo). `ImageFolderDataset` uses `mx.image.imread`, the OpenCV
#    decoder built into libmxnet. Other library versions may round differently, so a test
#    should compare decoded JPEG pixels with a small tolerance.
# :::
