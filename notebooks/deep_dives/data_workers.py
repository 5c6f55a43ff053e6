# %% [markdown]
# # Deep dive · Worker processes: `num_workers` in PyTorch and Gluon
#
# This deep dive measures what [notebook 4](../04_data_loading.ipynb) §7 states as a rule,
# running in a Jupyter kernel as a reader's notebook would: when each framework's worker
# processes start and stop, where their batches live, how NumPy's random state reaches them
# (and how to make both sides draw the same numbers), and what changes where workers are
# `spawn`ed instead of forked.
#
# **Time**: about 15 minutes.

# %% tags=["nbval-ignore-output"]
import inspect
import multiprocessing
import os
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import mxnet as mx
import numpy as np
import torch
from mxnet import gluon
from torch.utils.data import DataLoader

from sidebyside import compare, devices, seeding

SEED = seeding.seed_everything(0)
devs = devices.pick()
pt_dev, mx_ctx = devs.torch.device, devs.mxnet.device
folder = tempfile.TemporaryDirectory()
WORK = Path(folder.name)
print(f"torch {torch.__version__} · mxnet {mx.__version__} · Python {sys.version.split()[0]}")

# %% [markdown]
# ## 1. When the workers start, and how long they live
#
# On Linux, Python 3.11 starts worker processes with `fork`: a worker inherits everything
# the notebook defined, a dataset class written in a cell included (section 4 is the other
# case). The dataset records which process loaded each sample and draws one number from
# NumPy's global random state, as a random augmentation would.

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


def pids(batches):
    return {pid for _, pid, _ in rows(batches)}


multiprocessing.get_start_method()

# %% [markdown]
# **PyTorch**: the workers start when the loader is iterated and stop at the end of the
# epoch; `persistent_workers=True` keeps them for the next epoch.

# %% tags=["pytorch"]
np.random.seed(0)
torch.manual_seed(0)
pt_workers = DataLoader(WhoLoads(), batch_size=2, num_workers=2)
pt_children = {"after DataLoader()": n_children()}
pt_iter = iter(pt_workers)
pt_batches = [next(pt_iter)]
pt_children["while iterating"] = n_children()
pt_batches += list(pt_iter)
pt_children["after the epoch"] = n_children()
pt_second = list(pt_workers)
pt_persistent = DataLoader(WhoLoads(), batch_size=2, num_workers=2, persistent_workers=True)
pt_kept = [list(pt_persistent) for _ in range(2)]
pt_children["persistent, after two epochs"] = n_children()
del pt_persistent                                    # stops its workers
pt_children["persistent, after del"] = n_children()
pt_children

# %% [markdown]
# **Gluon**: the constructor forks a `multiprocessing.Pool`, which lives as long as the
# loader object and serves every epoch.

# %% tags=["gluon"]
np.random.seed(0)
mx_workers = gluon.data.DataLoader(WhoLoads(), batch_size=2, num_workers=2)
parent_stream = [np.random.randint(0, 1000) for _ in range(8)]   # the same state, in here
mx_children = {"after DataLoader()": n_children()}
mx_pool = {p.pid for p in multiprocessing.active_children()}
mx_batches = list(mx_workers)
mx_second = list(mx_workers)
mx_children["after two epochs"] = n_children()
del mx_workers                                       # terminates the pool
mx_children["after del"] = n_children()
mx_children

# %% [markdown]
# **Check**: a plain PyTorch loader starts new processes every epoch, a persistent one and
# Gluon's keep theirs; Gluon's pool exists before the first batch is asked for and is the
# one that loads both epochs. Gluon's pool is a `multiprocessing.Pool` built in the
# constructor, with Python's default start method: it has no `multiprocessing_context=`.

# %%
assert pt_children == {"after DataLoader()": 0, "while iterating": 2, "after the epoch": 0,
                       "persistent, after two epochs": 2, "persistent, after del": 0}
assert mx_children == {"after DataLoader()": 2, "after two epochs": 2, "after del": 0}
assert pids(pt_batches).isdisjoint(pids(pt_second))              # new workers, epoch 2
assert pids(pt_kept[0]) == pids(pt_kept[1]) and len(pids(pt_kept[0])) == 2
assert pids(mx_batches) | pids(mx_second) <= mx_pool
assert os.getpid() not in pids(pt_batches) | pids(mx_batches)
assert "multiprocessing.Pool(" in inspect.getsource(gluon.data.DataLoader.__init__)
assert "multiprocessing_context" not in inspect.signature(gluon.data.DataLoader).parameters
"PyTorch: workers per epoch (persistent_workers: per loader); Gluon: one pool per loader"

# %% [markdown]
# ## 2. Where the batches live
#
# A worker sends its batch to the kernel through shared memory on both sides. Gluon says so
# in the array's context, `cpu_shared(0)`, where a loader without workers gives `cpu(0)`;
# PyTorch's tensors report it with `is_shared()`. Either works like any CPU array, and
# moves to the device as usual:

# %%
pt_on_device = pt_batches[0][0].to(pt_dev)
mx_on_device = mx_batches[0][0].as_in_context(mx_ctx)
mx_in_kernel = next(iter(gluon.data.DataLoader(WhoLoads(), batch_size=2)))[0]
pt_in_kernel = next(iter(DataLoader(WhoLoads(), batch_size=2)))[0]
assert mx_batches[0][0].context == mx.Context("cpu_shared", 0)
assert mx_in_kernel.context == mx.cpu()
assert pt_batches[0][0].is_shared() and not pt_in_kernel.is_shared()
assert pt_on_device.tolist() == mx_on_device.asnumpy().tolist() == [0, 1]
{"gluon, workers": str(mx_batches[0][0].context), "gluon, no workers": str(mx_in_kernel.context),
 "torch, workers: is_shared()": pt_batches[0][0].is_shared()}

# %% [markdown]
# ## 3. NumPy's random state, and how to draw the same numbers on both sides
#
# PyTorch seeds each worker from the loader's base seed plus the worker's id (`random`,
# `torch`, and NumPy through `np.random.seed`); Gluon's workers keep the NumPy state they
# were forked with. The rows of section 1 (index, worker pid, draw), beside the kernel's
# own stream from the same state — pids change from run to run, so this output is not
# compared:

# %% tags=["nbval-ignore-output"]
{"torch": rows(pt_batches), "gluon": rows(mx_batches), "kernel's stream": parent_stream}

# %% [markdown]
# **Check**: PyTorch's two workers draw streams of their own, neither the kernel's; every
# Gluon worker replays the kernel's stream from the fork, so two workers give the same
# "random" augmentations.

# %%
pt_draws, mx_draws = by_worker(rows(pt_batches)), by_worker(rows(mx_batches))
worker_loop = inspect.getsource(torch.utils.data._utils.worker._worker_loop)
assert len(pt_draws) == 2 and len({tuple(d) for d in pt_draws.values()}) == 2
assert all(d != parent_stream[:len(d)] for d in pt_draws.values())
assert mx_draws and all(d == parent_stream[:len(d)] for d in mx_draws.values())
assert "seed = base_seed + worker_id" in worker_loop and "np.random.seed(np_seed)" in worker_loop
"PyTorch reseeds each worker; each Gluon worker replays the kernel's NumPy stream"

# %% [markdown]
# Gluon's `DataLoader` has no `worker_init_fn`, PyTorch's hook for seeding a worker. What
# works on both sides, and in the kernel too: seed from the sample index inside
# `__getitem__`, so that each sample's draw depends only on `i`.

# %%
class SeededWhoLoads(WhoLoads):
    def __getitem__(self, i):
        np.random.seed(SEED + i)
        return super().__getitem__(i)


seeded = {"kernel": [SeededWhoLoads()[i][2] for i in range(8)],
          "torch, 2 workers": [d for _, _, d in rows(
              DataLoader(SeededWhoLoads(), batch_size=2, num_workers=2))],
          "gluon, 2 workers": [d for _, _, d in rows(
              gluon.data.DataLoader(SeededWhoLoads(), batch_size=2, num_workers=2))]}
assert seeded["torch, 2 workers"] == seeded["gluon, 2 workers"] == seeded["kernel"]
assert len(set(seeded["kernel"])) > 1                 # not one number repeated
assert "worker_init_fn" in inspect.signature(DataLoader).parameters
assert "worker_init_fn" not in inspect.signature(gluon.data.DataLoader).parameters
seeded

# %% [markdown]
# ## 4. `spawn`: a fresh interpreter for each worker
#
# PyTorch lets each loader choose how its workers start (`multiprocessing_context=`); it is
# `spawn` by default on macOS and Windows. A spawned worker is a new interpreter that
# unpickles the dataset by its class's name — and a class defined in a notebook cell does
# not exist there. The worker writes its traceback to the process's stderr (caught in a file
# here), and the loader raises a `RuntimeError`:

# %%
def spawn_failure():
    """The loader's error and the worker's last stderr line, for a class of this kernel."""
    with tempfile.TemporaryFile() as worker_log:
        saved_fd = os.dup(2)
        os.dup2(worker_log.fileno(), 2)  # the spawned worker inherits file descriptor 2
        try:
            list(DataLoader(WhoLoads(), batch_size=2, num_workers=1,
                            multiprocessing_context="spawn"))
            error = None
        except RuntimeError as exc:
            error = str(exc)
        finally:
            os.dup2(saved_fd, 2)
            os.close(saved_fd)
        worker_log.seek(0)
        return error, worker_log.read().decode().strip().splitlines()[-1]


spawn_error, worker_said = spawn_failure()
worker_said

# %%
assert spawn_error is not None and "exited unexpectedly" in spawn_error
assert worker_said == ("AttributeError: Can't get attribute 'WhoLoads' "
                       "on <module '__main__' (built-in)>")
"spawn: the worker cannot find a class defined in a notebook cell"

# %% [markdown]
# The fix is a module: the same class in a file that the worker can import (the spawned
# interpreter gets the kernel's `sys.path`). Each worker then reports its own pid, and the
# first batch waits for a new interpreter to import torch and the module, where a forked
# worker starts from a copy of the kernel:

# %%
(WORK / "who_loads.py").write_text(textwrap.dedent('''
    import os

    import numpy as np


    class WhoLoads:
        def __len__(self):
            return 8

        def __getitem__(self, i):
            return i, os.getpid(), np.random.randint(0, 1000)
'''))
sys.path.insert(0, str(WORK))
import who_loads  # noqa: E402


def first_batch_seconds(context):
    loader = DataLoader(who_loads.WhoLoads(), batch_size=2, num_workers=2,
                        multiprocessing_context=context)
    tic = time.perf_counter()
    it = iter(loader)
    next(it)
    seconds = time.perf_counter() - tic
    return seconds, rows([next(it)] + list(it))


spawn_seconds, spawn_rows = first_batch_seconds("spawn")
fork_seconds, fork_rows = first_batch_seconds("fork")
sys.path.remove(str(WORK))

# %% tags=["nbval-ignore-output"]
{"first batch, spawn (s)": round(spawn_seconds, 3), "first batch, fork (s)": round(fork_seconds, 3)}

# %%
spawn_pids = {pid for _, pid, _ in spawn_rows}
assert [r[0] for r in spawn_rows] == [r[0] for r in fork_rows] == list(range(2, 8))
assert len(spawn_pids) == 2 and os.getpid() not in spawn_pids
assert spawn_seconds > fork_seconds
"spawn works with the class in a module; its first batch waits for a fresh interpreter"

# %% [markdown]
# ## What this means for a port
#
# - Gluon's workers live as long as the loader object: build it once, outside the epoch
#   loop (a new loader per epoch forks a new pool each time), and leave
#   `persistent_workers=True` out.
# - A random transform that draws from NumPy's global state gives the same "random" numbers
#   in every Gluon worker: seed inside `__getitem__` from the sample index (section 3), which
#   also makes PyTorch's and Gluon's loaders draw the same numbers.
# - Batches from Gluon's workers live in `cpu_shared(0)`; move them with `as_in_context` as
#   any batch.
# - For macOS, Windows or `multiprocessing_context="spawn"`, define the dataset in a module,
#   not in a notebook cell; Gluon's pool follows `multiprocessing`'s default start method.
