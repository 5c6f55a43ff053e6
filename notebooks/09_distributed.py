# %% [markdown]
# # 9 · Data parallel and distributed training: kvstores and the parameter server next to DDP
#
# **What you will learn**
#
# - data parallelism inside one process: Gluon's `split_and_load` over a list of devices (the
#   seed's loop, and the line it leaves out), and why PyTorch's answer is no longer
#   `DataParallel`;
# - what each kvstore type does, the ones that fail silently (a misspelt type, compression
#   that is ignored), and gradient compression next to PyTorch's DDP communication hooks —
#   each measured here;
# - two real distributed trainings on this machine — MXNet's parameter server (a scheduler,
#   a server, two workers) and `torchrun` with `DistributedDataParallel` — both checked equal
#   to single-process training on the same global batches, and the scaling difference that
#   bites: the parameter server **sums** the workers' gradients where DDP **averages** them.
#
# The processes are started by `sidebyside.launch`, which fails fast, has a hard timeout and
# leaves no process behind (section 4 shows why MXNet's own launcher does not do for this).
#
# **Prerequisites**: [notebook 3](03_mnist_mlp.ipynb) (the training loop) and [notebook
# 8](08_optimizers_trainer.ipynb) (`trainer.step` and its scaling). **Time**: about 25
# minutes.

# %% tags=["nbval-ignore-output"]
import os
import re
import signal
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from pathlib import Path

import mxnet as mx
import numpy as np
import psutil
import torch
from mxnet import autograd, gluon
from torchvision import transforms as pt_transforms

from sidebyside import compare, data, devices, errors, launch, seeding

SEED = seeding.seed_everything(0)
devs = devices.pick()
pt_dev, mx_ctx = devs.torch.device, devs.mxnet.device
workdir = tempfile.TemporaryDirectory()      # scripts and results of this notebook's runs
WORK = Path(workdir.name)

# %% [markdown]
# ## 1. Several devices in one process: `split_and_load`
#
# The seed's data-parallel row puts `torch.nn.DataParallel(model, device_ids=[0, 1, 2])`
# beside Gluon's `split_and_load`. `DataParallel` is in maintenance mode (its documentation
# recommends `DistributedDataParallel` even on one machine) and splits over GPUs only; on a
# machine without CUDA it has no devices and just calls the model:
#
# **PyTorch**

# %% tags=["pytorch"]
dp = torch.nn.DataParallel(torch.nn.Linear(3, 2))
(dp.device_ids, type(dp(torch.ones(4, 3))).__name__)

# %% [markdown]
# **Gluon** has no such wrapper: the parameters live on every context in a list, each slice
# of the batch goes to one context, and the `Trainer` adds the gradients up. Without GPUs
# the contexts are `cpu(0)` and `cpu(1)` — two real, distinct contexts of the same CPU (with
# GPUs, `mx.gpu(0)`, `mx.gpu(1)`). The seed's loop, with its layer and loss:

# %% tags=["gluon"]
ctx = [mx.cpu(0), mx.cpu(1)]
net = gluon.nn.Dense(2, in_units=3, dtype="float64")
net.initialize(mx.init.Xavier(), ctx=ctx)
loss = gluon.loss.L2Loss()
trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1})
batch = mx.nd.array(np.random.default_rng(0).standard_normal((8, 3)), dtype="float64")
target = mx.nd.array(np.random.default_rng(1).standard_normal((8, 2)), dtype="float64")
before = net.weight.data(ctx[0]).copy()

data_parts = gluon.utils.split_and_load(batch, ctx)
label_parts = gluon.utils.split_and_load(target, ctx)
with autograd.record():
    losses = [loss(net(X), Y) for X, Y in zip(data_parts, label_parts)]
for l in losses:
    l.backward()
trainer.step(batch.shape[0])          # the line the seed's snippet leaves out

# %% [markdown]
# The seed's snippet ends after `backward()`: without `trainer.step` nothing is updated.
# **Check**: the two copies of the weights are still equal after the step, and equal to one
# step on the whole batch on one context:

# %%
single = gluon.nn.Dense(2, in_units=3, dtype="float64")
single.initialize()
single.weight.set_data(before)
single.bias.set_data(mx.nd.zeros((2,), dtype="float64"))
single_trainer = gluon.Trainer(single.collect_params(), "sgd", {"learning_rate": 0.1})
with autograd.record():
    single_loss = loss(single(batch), target)
single_loss.backward()
single_trainer.step(batch.shape[0])
compare.assert_same(net.weight.data(ctx[0]), net.weight.data(ctx[1]), rtol=0, atol=0)
compare.assert_same(net.weight.data(ctx[0]), single.weight.data(), rtol=1e-14, atol=1e-15)
assert [p.shape for p in data_parts] == [(4, 3), (4, 3)]
"two contexts, one step: equal to one context and the whole batch"

# %% [markdown]
# `split_and_load` wants a batch that splits evenly, unless told otherwise — a last batch of
# 5 on two devices:

# %% tags=["raises-exception"]
gluon.utils.split_and_load(mx.nd.ones((5, 3)), ctx)

# %%
uneven = errors.catch(gluon.utils.split_and_load, mx.nd.ones((5, 3)), ctx)
allowed = gluon.utils.split_and_load(mx.nd.ones((5, 3)), ctx, even_split=False)
assert uneven.type == "ValueError" and "set even_split=False" in uneven.line
assert [p.shape[0] for p in allowed] == [3, 2]
{"even_split=True (default)": uneven.type,
 "even_split=False": [p.shape for p in allowed]}

# %% [markdown]
# ## 2. kvstores and gradient compression
#
# The `Trainer` adds up the gradients of the contexts (and of the workers) through a
# *kvstore*:
#
# | kvstore | where the gradients are added and the update runs |
# |---|---|
# | `local` | on the CPU, in this process |
# | `device` (the `Trainer`'s default) | on the devices (GPU peer to peer when there are GPUs) |
# | `nccl` | on the GPUs with NCCL (a CUDA build only) |
# | `dist_sync` | on parameter servers; every worker waits for all the others at each step |
# | `dist_device_sync` | the same, adding up on the devices first |
# | `dist_async` | on parameter servers, without waiting: each worker's update is applied as it arrives |
#
# Two ways it fails silently. **A misspelt type** — `mx.kv.create` knows `dist` and `device`
# by substring and makes anything else a local store, under the name you gave:

# %%
typo = mx.kv.create("dsit_sync")           # meant: dist_sync
(typo.type, typo.num_workers, typo.rank)

# %% [markdown]
# No error, no scheduler needed — training on each machine would simply go on alone.
# **One context and a non-distributed store**: the `Trainer` creates no kvstore at all, and
# whatever was asked of it — such as gradient compression — is ignored without a word:

# %%
def dense_on(contexts, compression=None, kvstore="device"):
    layer = gluon.nn.Dense(3, in_units=3)
    layer.initialize(mx.init.Constant(0.1), ctx=contexts)
    trainer = gluon.Trainer(layer.collect_params(), "sgd", {"learning_rate": 1.0},
                            kvstore=kvstore, compression_params=compression)
    x = mx.nd.array(np.arange(6).reshape(2, 3) / 7)
    with autograd.record():
        outputs = [layer(part).sum() for part in gluon.utils.split_and_load(x, contexts)]
    for out in outputs:
        out.backward()
    trainer.step(2)
    return trainer, layer.weight.data(contexts[0]).asnumpy()


two_bit = {"type": "2bit", "threshold": 0.5}
one_ctx, one_ctx_w = dense_on([mx.cpu(0)], compression=two_bit)
_, plain_w = dense_on([mx.cpu(0)])
assert one_ctx._kvstore is None
compare.assert_same(one_ctx_w, plain_w, rtol=0, atol=0)
{"typo": (typo.type, "a local store"), "one context, compression asked":
 ("no kvstore", "weights identical to no compression")}

# %% [markdown]
# **Gradient compression** (`compression_params={"type": "2bit", "threshold": t}`) sends each
# gradient element as one of `−t`, `0`, `+t` and keeps what was not sent (the residual) for
# the next step. It needs a store that can compress: the `local` store refuses it, the
# `device` store over two contexts applies it. Here each context's gradient elements lie
# between 0 and 0.72; each is sent as 0 or 0.5, and the update is the sum of what arrived
# (times the learning rate 1, over the batch of 2) — a multiple of 0.25 instead of the true
# mean gradient:

# %% tags=["raises-exception"]
dense_on(ctx, compression=two_bit, kvstore="local")

# %%
refused = errors.catch(dense_on, ctx, compression=two_bit, kvstore="local")
_, compressed_w = dense_on(ctx, compression=two_bit)
_, uncompressed_w = dense_on(ctx)
assert refused.line == "Gradient compression is not supported for this type of kvstore"
sent = (0.1 - compressed_w.ravel()) * 2 / 0.5    # thresholds received, summed over contexts
assert np.allclose(sent, np.round(sent), atol=1e-6) and set(np.round(sent)) <= {0, 1, 2}
assert compare.max_abs_diff(compressed_w, uncompressed_w) > 0.1
{"local": refused.line, "device: thresholds received per element":
 sorted({int(v) for v in np.round(sent)})}

# %% [markdown]
# PyTorch has no compression option in its optimizer; compression belongs to DDP as a
# *communication hook* (fp16 or bf16 casts, PowerSGD's low-rank approximation). Both are run
# for real in section 3, with the distributed trainings.
#
# ## 3. Distributed training, really run on 127.0.0.1
#
# The job: [notebook 3](03_mnist_mlp.ipynb)'s MLP (784-256-10, SGD, learning rate 0.1) on 6 global batches of 64
# Fashion-MNIST training images, by **2 workers** that take 32 images each. The notebook
# writes the images and the initial weights into a folder both frameworks' workers read
# (`$SIDEBYSIDE_RUN_DIR`); the workers write back their final weights. PyTorch runs in
# float64. MXNet runs in float32 here: its parameter server does run a float64 job, but
# whether that job keeps float64 precision is not guaranteed (the end of this section
# measures it), so float32 rounding is the bound that can be checked.

# %%
GLOBAL, WORKERS, STEPS_D = 64, 2, 6
spec = data.SPECS[data.dataset_name()]
images = data.torch_dataset(train=True, transform=pt_transforms.Compose(
    [pt_transforms.ToTensor(), pt_transforms.Normalize((spec.mean,), (spec.std,))]))
order = torch.randperm(len(images), generator=torch.Generator().manual_seed(0))
picked = order[:GLOBAL * STEPS_D].tolist()
X_d = torch.stack([images[i][0] for i in picked]).view(len(picked), -1).double().numpy()
y_d = images.targets[picked].numpy()
torch.manual_seed(0)
mlp0 = torch.nn.Sequential(torch.nn.Linear(784, 256), torch.nn.ReLU(),
                           torch.nn.Linear(256, 10)).double()
init = {k: v.numpy() for k, v in zip(("w1", "b1", "w2", "b2"),
                                     (p.detach() for p in mlp0.parameters()))}
np.savez(WORK / "job.npz", X=X_d, y=y_d, global_batch=GLOBAL, **init)
(X_d.shape, sorted(np.unique(y_d).tolist()) == list(range(10)))

# %% [markdown]
# **The reference**: the same 6 steps in one process, on the whole global batches — in
# Gluon (`trainer.step(64)`, and for later `step(32)`) and in PyTorch (mean loss).

# %%
def gluon_reference(step_size=GLOBAL, dtype="float32"):
    """Weights after the 6 steps, and the sum of the first layer's weights after each."""
    mlp = gluon.nn.Sequential()
    mlp.add(gluon.nn.Dense(256, activation="relu"), gluon.nn.Dense(10))
    mlp.initialize()
    mlp.cast(dtype)
    mlp(mx.nd.zeros((1, 784), dtype=dtype))
    for p, key in zip(mlp.collect_params().values(), ("w1", "b1", "w2", "b2")):
        p.set_data(mx.nd.array(init[key], dtype=dtype))
    trainer = gluon.Trainer(mlp.collect_params(), "sgd", {"learning_rate": 0.1})
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    sums = []
    for start in range(0, len(X_d), GLOBAL):
        xb = mx.nd.array(X_d[start:start + GLOBAL], dtype=dtype)
        yb = mx.nd.array(y_d[start:start + GLOBAL], dtype=dtype)
        with autograd.record():
            out = loss_fn(mlp(xb), yb)
        out.backward()
        trainer.step(step_size)
        sums.append(float(mlp[0].weight.data().sum().asscalar()))
    return [p.data().asnumpy() for p in mlp.collect_params().values()], sums


def torch_reference():
    mlp = torch.nn.Sequential(torch.nn.Linear(784, 256), torch.nn.ReLU(),
                              torch.nn.Linear(256, 10)).double()
    mlp.load_state_dict(mlp0.state_dict())
    opt = torch.optim.SGD(mlp.parameters(), lr=0.1)
    for start in range(0, len(X_d), GLOBAL):
        opt.zero_grad()
        torch.nn.functional.cross_entropy(
            mlp(torch.from_numpy(X_d[start:start + GLOBAL])),
            torch.from_numpy(y_d[start:start + GLOBAL]).long()).backward()
        opt.step()
    return [p.detach().numpy() for p in mlp.parameters()]


(ref_gluon, _), ref_torch = gluon_reference(), torch_reference()

# %% [markdown]
# ### MXNet: a scheduler, a server and two workers
#
# Each worker runs this script. `mx.kv.create("dist_sync")` connects it to the scheduler
# (whose address it finds in the `DMLC_*` variables the launcher sets); `kv.rank` tells it
# which 32 images of each global batch are its own; the `Trainer(kvstore=kv)` pushes the
# gradients to the server, which adds them up and runs the update. The script's argument says
# what to pass to `trainer.step`:

# %%
MX_WORKER = textwrap.dedent('''
    import os, sys
    import numpy as np
    import mxnet as mx
    from mxnet import autograd, gluon

    step_arg, dtype = sys.argv[1], sys.argv[2]   # "per-worker" | "all-workers"; a dtype
    compression = sys.argv[3:] == ["2bit"]
    job = np.load(os.path.join(os.environ["SIDEBYSIDE_RUN_DIR"], "job.npz"))
    kv = mx.kv.create("dist_sync")
    rank, workers = kv.rank, kv.num_workers
    per_worker = int(job["global_batch"]) // workers

    net = gluon.nn.Sequential()
    net.add(gluon.nn.Dense(256, activation="relu"), gluon.nn.Dense(10))
    net.initialize()
    net.cast(dtype)
    net(mx.nd.zeros((1, 784), dtype=dtype))
    for p, key in zip(net.collect_params().values(), ("w1", "b1", "w2", "b2")):
        p.set_data(mx.nd.array(job[key], dtype=dtype))
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1}, kvstore=kv,
                            compression_params={"type": "2bit", "threshold": 0.5}
                            if compression else None)
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    sums = []
    for start in range(0, len(job["X"]), int(job["global_batch"])):
        mine = slice(start + rank * per_worker, start + (rank + 1) * per_worker)
        x = mx.nd.array(job["X"][mine], dtype=dtype)
        y = mx.nd.array(job["y"][mine], dtype=dtype)
        with autograd.record():
            loss = loss_fn(net(x), y)
        loss.backward()
        trainer.step(per_worker if step_arg == "per-worker" else per_worker * workers)
        sums.append(float(net[0].weight.data().sum().asscalar()))
    if rank == 0:
        np.savez(os.path.join(os.environ["SIDEBYSIDE_RUN_DIR"], f"mxnet-{step_arg}-{dtype}.npz"),
                 *[p.data().asnumpy() for p in net.collect_params().values()], sums=sums)
    print(f"worker {rank} of {workers}: done")
''')
(WORK / "mx_worker.py").write_text(MX_WORKER)


def final_weights(name):
    with np.load(WORK / name) as saved:
        return [saved[f"arr_{i}"] for i in range(4)]


def step_sums(name):
    with np.load(WORK / name) as saved:
        return saved["sums"].tolist()


def worst(a, b):
    return max(compare.max_abs_diff(x, y) for x, y in zip(a, b))

# %% [markdown]
# Two runs: `trainer.step(32)` — the per-worker batch, what a single-process script passes —
# and `trainer.step(32 * kv.num_workers)`:

# %% tags=["nbval-ignore-output"]
mx_runs = {arg: launch.mxnet_ps([sys.executable, str(WORK / "mx_worker.py"), arg, "float32"],
                                num_workers=WORKERS, timeout=120, run_dir=WORK)
           for arg in ("per-worker", "all-workers")}
{arg: {"seconds": round(run.seconds, 1), "processes": [p.name for p in run.procs],
       "worker 0 said": run.output("worker", 0).strip().splitlines()[-1]}
 for arg, run in mx_runs.items()}

# %% [markdown]
# **Check**: with `step(32 × 2)` the two workers reproduce single-process training, to
# float32 rounding (the server adds two float32 partial sums where one process adds 64
# per-sample gradients). With `step(32)` they take steps twice too large — they reproduce the
# single-process run with `step(32)`: the server **adds** the two workers' gradients (each a
# sum over its 32 images), and `step(32)` divides that sum by 32, not 64.

# %% tags=["nbval-ignore-output"]
mx_all = final_weights("mxnet-all-workers-float32.npz")
mx_per = final_weights("mxnet-per-worker-float32.npz")
mx_parity = {"step(32 × 2) vs one process, step(64)": worst(mx_all, ref_gluon),
             "step(32) vs one process, step(64)": worst(mx_per, ref_gluon),
             "step(32) vs one process, step(32)": worst(mx_per, gluon_reference(32)[0])}
mx_parity

# %%
assert mx_parity["step(32 × 2) vs one process, step(64)"] <= 1e-5
assert mx_parity["step(32) vs one process, step(64)"] > 1e-3
assert mx_parity["step(32) vs one process, step(32)"] <= 1e-5
assert all(p.returncode == 0 for run in mx_runs.values() for p in run.procs)
"parameter server: gradients summed — trainer.step(per_worker_batch * kv.num_workers)"

# %% [markdown]
# ### PyTorch: `torchrun` and `DistributedDataParallel`
#
# The same job with PyTorch's tools: `torchrun --nproc-per-node=2` starts two processes and
# tells each its `RANK` and `WORLD_SIZE`; `init_process_group("gloo")` connects them (gloo is
# the CPU backend; NCCL on GPUs); `DistributedDataParallel` averages the gradients in
# `backward()`. The script trains three times — plain, then with each kind of DDP
# communication hook (fp16 compression, and PowerSGD with rank-1 approximations):

# %%
TORCH_WORKER = textwrap.dedent('''
    import os
    import numpy as np
    import torch
    import torch.distributed as dist
    from torch.distributed.algorithms.ddp_comm_hooks import default_hooks, powerSGD_hook
    from torch.nn.parallel import DistributedDataParallel as DDP

    dist.init_process_group("gloo")
    rank, workers = dist.get_rank(), dist.get_world_size()
    run_dir = os.environ["SIDEBYSIDE_RUN_DIR"]
    job = np.load(os.path.join(run_dir, "job.npz"))
    per_worker = int(job["global_batch"]) // workers

    for hook in ("none", "fp16", "powersgd"):
        model = torch.nn.Sequential(torch.nn.Linear(784, 256), torch.nn.ReLU(),
                                    torch.nn.Linear(256, 10)).double()
        with torch.no_grad():
            for p, key in zip(model.parameters(), ("w1", "b1", "w2", "b2")):
                p.copy_(torch.from_numpy(job[key]))
        ddp = DDP(model)
        if hook == "fp16":
            ddp.register_comm_hook(None, default_hooks.fp16_compress_hook)
        elif hook == "powersgd":
            state = powerSGD_hook.PowerSGDState(process_group=None,
                                                matrix_approximation_rank=1,
                                                start_powerSGD_iter=2)
            ddp.register_comm_hook(state, powerSGD_hook.powerSGD_hook)
        opt = torch.optim.SGD(ddp.parameters(), lr=0.1)
        for start in range(0, len(job["X"]), int(job["global_batch"])):
            mine = slice(start + rank * per_worker, start + (rank + 1) * per_worker)
            opt.zero_grad()
            torch.nn.functional.cross_entropy(
                ddp(torch.from_numpy(job["X"][mine])),
                torch.from_numpy(job["y"][mine]).long()).backward()
            opt.step()
        if rank == 0:
            np.savez(os.path.join(run_dir, f"torch-{hook}.npz"),
                     *[p.detach().numpy() for p in model.parameters()])
    print(f"rank {rank} of {workers}: done")
    dist.destroy_process_group()
''')

# %% tags=["nbval-ignore-output"]
(WORK / "torch_worker.py").write_text(TORCH_WORKER)
torch_run = launch.torch_ddp([str(WORK / "torch_worker.py")], nproc=WORKERS, timeout=120,
                             run_dir=WORK)
{"seconds": round(torch_run.seconds, 1), "processes seen": len(torch_run.pids),
 "exit code": torch_run.procs[0].returncode}

# %% [markdown]
# **Check**: plain DDP reproduces single-process training (each rank's loss is the mean over
# its 32 images, DDP averages the two gradients: the mean over 64). The hooks trade exactness
# for less traffic, by an amount measured here:

# %% tags=["nbval-ignore-output"]
ddp = {hook: final_weights(f"torch-{hook}.npz") for hook in ("none", "fp16", "powersgd")}
ddp_parity = {"DDP vs one process": worst(ddp["none"], ref_torch),
              "DDP + fp16 hook vs plain DDP": worst(ddp["fp16"], ddp["none"]),
              "DDP + PowerSGD (rank 1) vs plain DDP": worst(ddp["powersgd"], ddp["none"])}
ddp_parity

# %%
assert ddp_parity["DDP vs one process"] <= 1e-12
assert 1e-8 < ddp_parity["DDP + fp16 hook vs plain DDP"] < 1e-2
assert 1e-6 < ddp_parity["DDP + PowerSGD (rank 1) vs plain DDP"] < 0.5
assert torch_run.procs[0].returncode == 0
"DDP averages: equal to one process; compression hooks change the weights slightly"

# %% [markdown]
# And the two frameworks against each other — MXNet's float32 parameter-server run and
# PyTorch's float64 DDP run — agree to float32 rounding:

# %%
frameworks = worst(mx_all, ddp["none"])
assert frameworks <= 1e-5
"MXNet parameter server ≈ PyTorch DDP, to float32 rounding"

# %% [markdown]
# **Why MXNet ran in float32.** A float64 job through the parameter server runs, but its
# parity with single-process float64 training is not something to rely on. The same job with
# float64 parameters, against the single-process float64 `Trainer` (the sum of the first
# layer's weights after each step, and the largest difference of the final weights):

# %% tags=["nbval-ignore-output"]
float64_run = launch.mxnet_ps([sys.executable, str(WORK / "mx_worker.py"), "all-workers",
                               "float64"], num_workers=WORKERS, timeout=120, run_dir=WORK)
ref64, ref64_sums = gluon_reference(dtype="float64")
server64 = final_weights("mxnet-all-workers-float64.npz")
{"first-layer sums, parameter server": step_sums("mxnet-all-workers-float64.npz"),
 "first-layer sums, one process": ref64_sums,
 "max |Δw|, final": worst(server64, ref64),
 "max |Δw|, one process vs PyTorch float64": worst(ref64, ref_torch),
 "max |Δw|, parameter server vs PyTorch float64": worst(server64, ref_torch)}

# %%
assert all(w.dtype == np.float64 for w in server64)
gap64 = worst(server64, ref64)
assert gap64 <= 1e-5, f"max |Δw| {gap64:.3g}"      # float32 rounding at worst
assert worst(ref64, ref_torch) <= 1e-8              # one process: only the float32 learning rate
"float64 through MXNet's parameter server: float64 parity not guaranteed, float32 rounding at worst"

# %% [markdown]
# The cell above prints this run's gaps. PyTorch's float64 run (`ref_torch`, the reference of
# this section) tells which side drifts when the parameter-server job is off: the one-process
# `Trainer` stays within 1e-8 of it (asserted; MXNet's SGD kernels take the learning rate as
# a float32), and a gap of the parameter-server job to both is rounding on the distributed
# path. How large that gap is varies between runs of the same job on the same machine: about
# 1e-8 (float32 rounding) whenever this notebook ran on its own, 1e-16 in two runs inside a
# full parallel run of the test suite (a 2-core x86-64 machine, MXNet 1.9.1, 2026-11-30; not
# re-run here). What decides between the two was not found, so this notebook asserts only
# the float32 bound. To prove a port, prove parity
# in float64 in one process and check the distributed run against it at float32 rounding.
#
# **Compression in a distributed `Trainer`.** The parameter server can compress what the
# workers push, with `kv.set_gradient_compression` and manual `push`/`pull`. But a `Trainer`
# on `dist_sync` with `compression_params` fails at its first `step()`: the `Trainer` uses
# `pushpull`, which the store refuses with compression. The launcher surfaces the first
# worker's error:

# %% tags=["nbval-ignore-output"]
compression_failure = errors.catch(
    launch.mxnet_ps, [sys.executable, str(WORK / "mx_worker.py"), "all-workers", "float32",
                      "2bit"], num_workers=WORKERS, timeout=120, run_dir=WORK,
    expect=launch.LaunchError)
header = compression_failure.message.splitlines()[0]
cause = [line for line in compression_failure.message.splitlines() if "Check failed" in line]
print(header, cause[-1], sep="\n")

# %%
assert "Compression not supported with PushPull" in compression_failure.message
assert not [pid for pid in compression_failure.exception.run.pids
            if psutil.pid_exists(pid)
            and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE]
"the Trainer's step fails on dist_sync with compression; no process is left"

# %% [markdown]
# Manual `push`/`pull` with compression does work: each worker pushes `[0.7, −0.2, 0.9] ×
# (rank + 1)`, the server adds what arrives — each element quantised to `−0.5`, `0` or `+0.5`:

# %%
PUSH_WORKER = textwrap.dedent('''
    import os
    import mxnet as mx
    kv = mx.kv.create("dist_sync")
    kv.set_gradient_compression({"type": "2bit", "threshold": 0.5})
    kv.init("g", mx.nd.zeros(3))
    kv.push("g", mx.nd.array([0.7, -0.2, 0.9]) * (kv.rank + 1))
    out = mx.nd.zeros(3)
    kv.pull("g", out=out)
    with open(os.path.join(os.environ["SIDEBYSIDE_RUN_DIR"], f"pulled-{kv.rank}.txt"), "w") as f:
        f.write(" ".join(str(v) for v in out.asnumpy()))
''')
(WORK / "push_worker.py").write_text(PUSH_WORKER)
launch.mxnet_ps([sys.executable, str(WORK / "push_worker.py")], num_workers=WORKERS,
                timeout=120, run_dir=WORK)
pulled = [[float(v) for v in (WORK / f"pulled-{r}.txt").read_text().split()]
          for r in range(WORKERS)]
pulled

# %%
assert pulled[0] == pulled[1] == [1.0, 0.0, 1.0]    # 0.5 + 0.5, 0 + 0, 0.5 + 0.5
"the server received ±0.5 or 0 per element; the remainder stays with the worker"

# %% [markdown]
# ## 4. Launching: MXNet's `launch.py`, and a launcher that cleans up
#
# MXNet's wheel ships `tools/launch.py` for exactly this (`--launcher local` starts the
# scheduler, servers and workers on this machine). On Python ≥ 3.9 it crashes — its tracker
# calls `Thread.isAlive()`, removed in Python 3.9 — at its first check on the scheduler's
# thread, after starting that thread and before starting any worker. A scheduler process the
# thread had started by then keeps running, without a parent; whether it had is a race
# between that thread and the crashing interpreter's exit. The cell runs `launch.py` twice,
# each time on a script of its own that stands for a busy worker: as it is, and with its
# interpreter's exit delayed by two seconds (an `atexit` handler), which lets the thread win
# every time:

# %%
launch_py = Path(mx.__file__).parent / "tools" / "launch.py"
BUSY = "import time\ntime.sleep(120)\n"
DELAYED_EXIT = ("import atexit, runpy, sys, time; atexit.register(time.sleep, 2); "
                "sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name='__main__')")


def run_launch_py(prefix, name):
    """Run launch.py (after `prefix`) on a busy script of its own, WORK/<name>.py: its exit,
    its log, and the processes running that script afterwards."""
    script, log_file = WORK / f"{name}.py", WORK / f"{name}.log"
    script.write_text(BUSY)
    with open(log_file, "w") as log:                 # a file: an orphan keeps it open
        crashed = subprocess.Popen([*prefix, str(launch_py), "-n", "2", "--launcher", "local",
                                    sys.executable, str(script)],
                                   stdout=log, stderr=subprocess.STDOUT)
        crashed.wait(timeout=120)
    time.sleep(1)
    left = [p for p in psutil.process_iter(["cmdline", "ppid", "environ"])
            if str(script) in " ".join(p.info["cmdline"] or [])]
    return crashed, log_file.read_text(), left


launch_runs = {"as it is": run_launch_py([sys.executable], "busy_plain"),
               "exit delayed": run_launch_py([sys.executable, "-c", DELAYED_EXIT], "busy_delayed")}
crash, crash_log, left_behind = launch_runs["exit delayed"]
crash_log.strip().splitlines()[-1]

# %% [markdown]
# Those processes are cleaned up here, by hand:

# %% tags=["nbval-ignore-output"]
orphans = [(p.pid, p.info["ppid"], (p.info["environ"] or {}).get("DMLC_ROLE"))
           for _, _, left in launch_runs.values() for p in left]
for _, _, left in launch_runs.values():
    for p in left:
        p.kill()
    psutil.wait_procs(left, timeout=10)
{way: f"launch.py exited with {run[0].returncode}; {len(run[2])} process(es) left, now killed"
 for way, run in launch_runs.items()}

# %%
for way, (crashed, log_text, _) in launch_runs.items():
    assert crashed.returncode != 0, way
    assert "'Thread' object has no attribute 'isAlive'" in log_text, way
assert left_behind, "the delayed exit left no scheduler running"
assert all(role == "scheduler" for _, _, role in orphans)      # no worker was ever started
crashed_pids = {run[0].pid for run in launch_runs.values()}
assert all(ppid not in crashed_pids for _, ppid, _ in orphans)   # their launcher is gone
assert not [p for p in psutil.process_iter(["cmdline"])
            if str(WORK / "busy_") in " ".join(p.info["cmdline"] or [])]
"launch.py crashes on Python 3.11; nothing it started is left now"

# %% [markdown]
# `sidebyside.launch` is this notebook's replacement, on one machine: a free port each run,
# every process's output collected in the run folder, a hard timeout, the first failure
# reported with its traceback (MXNet workers that raise would otherwise hang in MXNet's exit
# barrier), and every process — torchrun's workers included — stopped on success, failure,
# timeout or Ctrl-C. Its tests kill a worker in the middle of a run and check that the run
# fails within seconds and that none of the processes survives. Every process of this
# notebook's runs is gone:

# %%
runs = [*mx_runs.values(), float64_run, torch_run, compression_failure.exception.run]
alive = [pid for run in runs for pid in run.pids
         if psutil.pid_exists(pid) and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE]
assert alive == [] and all(run.pids for run in runs)
"every process these runs started is gone"

# %% [markdown]
# **On several machines** the same roles run on different hosts: the scheduler's address in
# `DMLC_PS_ROOT_URI` (and the network interface in `DMLC_INTERFACE`), one `torchrun` per
# host with a rendezvous endpoint. `launch` prints the command lines to type on each host
# (they are not run here):

# %%
hosts = ["10.0.0.1", "10.0.0.2"]
for line in launch.mxnet_ps_commands(hosts, "python train.py"):
    print(line)
print()
for line in launch.torchrun_commands(hosts, "train.py", nproc_per_node=4):
    print(line)

# %%
assert all("DMLC_PS_ROOT_URI=10.0.0.1" in line
           for line in launch.mxnet_ps_commands(hosts, "python train.py"))
assert all("--rdzv-endpoint=10.0.0.1:" in line
           for line in launch.torchrun_commands(hosts, "train.py"))
"commands for two hosts"

# %% [markdown]
# Two more routes, described rather than run:
#
# - **`dist_async`**: the server applies each worker's gradient as it arrives, without
#   waiting for the others. No worker waits for a slow one, at the price of *stale*
#   gradients — computed on weights that other workers have changed meanwhile — so the
#   result depends on timing and is not reproducible; learning rates often have to be
#   lowered. PyTorch has no asynchronous DDP; its closest relatives are local SGD
#   (`PostLocalSGDOptimizer`) and parameter-server designs built on `torch.distributed.rpc`.
# - **Horovod** runs on top of either framework (`hvd.DistributedOptimizer` for PyTorch,
#   `hvd.DistributedTrainer` for Gluon) with MPI or Gloo all-reduce — averaging, like DDP. It
#   was the usual way to scale MXNet beyond the parameter server; it is not installed here.

# %% [markdown]
# ## Summary
#
# | | PyTorch | MXNet Gluon 1.9.1 | note |
# |---|---|---|---|
# | several devices, one process | `DistributedDataParallel(model)` | `net.initialize(ctx=[mx.gpu(0), mx.gpu(1)])`; `gluon.utils.split_and_load(batch, ctx)` | `DataParallel` is in maintenance mode (GPUs only); Gluon: one `trainer.step(batch_size)` |
# | uneven last batch | — | `gluon.utils.split_and_load(batch, ctx, even_split=False)` | the default raises `ValueError` |
# | where gradients are added | `DistributedDataParallel` all-reduce (gloo, NCCL) | `gluon.Trainer(..., kvstore=mx.kv.create("dist_sync"))` | DDP **averages**, the parameter server **sums** |
# | the step of a distributed run | `optimizer.step()` | `trainer.step(per_worker_batch * kv.num_workers)` | each rank's loss is its mean in PyTorch |
# | misspelt store | — | `mx.kv.create("dsit_sync")` | silently a local store |
# | compression | `ddp.register_comm_hook(None, default_hooks.fp16_compress_hook)` | `gluon.Trainer(..., compression_params={"type": "2bit", "threshold": t})` | `device` store yes, `local` no, one context ignored, `dist_sync` `Trainer` fails (`push`/`pull` works) |
# | float64 | `model.double()` | `net.cast("float64")` | DDP: equal to one process; parameter server: checked to float32 rounding only |
# | start a job | `torchrun --nproc-per-node=N script.py` | `sidebyside.launch.mxnet_ps([sys.executable, "script.py"], num_workers=N)` | scheduler, servers, workers with `DMLC_*` variables; `tools/launch.py` crashes on Python ≥ 3.9 |
# | several hosts | `torchrun --nnodes=N --node-rank=R --rdzv-endpoint=host:port script.py` | `DMLC_PS_ROOT_URI=host DMLC_INTERFACE=eth0 python script.py` | one process per role and host |
#
# ### What the seed articles said, checked
#
# | seed claim | verdict | shown in |
# |---|---|---|
# | `DataParallel(model, device_ids=[0, 1, 2])` ⇔ `split_and_load` + a loop of `backward()` | the Gluon loop works, but needs `trainer.step(batch)`, which the snippet leaves out; `DataParallel` is superseded by DDP | §1 |
# | `split_and_load` is in `gluon/utils.py` | confirmed | §1 |
# | distributed: `kv.create('dist')` passed to the `Trainer` ⇔ `init_process_group` + `DistributedDataParallel` | confirmed, run here; but the server sums where DDP averages: the step size must be multiplied by the number of workers | §3 |
# | the `Trainer` takes `kvstore`, `compression_params` | confirmed; compression works only with some stores, and not through a distributed `Trainer` | §2, §3 |
#
# ## Exercises
#
# 1. Run the MXNet job with `num_servers=2`. Do the final weights change? Which keys does
#    each server hold (MXNet splits large arrays across servers)?
# 2. Change the torch worker to compute each rank's loss as a *sum* over its 32 images.
#    What must change in the optimizer to reproduce the single-process run, and how does it
#    compare with MXNet's `trainer.step` rule?
# 3. Start `launch.mxnet_ps` on a worker script that sleeps 30 s, with `timeout=5`, and
#    interrupt the kernel while it waits. Check with `ps` that nothing is left.

# %% [markdown]
# :::{dropdown} Solutions
# 1. `launch.mxnet_ps(..., num_servers=2)`: the final weights do not change — they are
#    bit-equal to the one-server run. With `env={"PS_VERBOSE": "2"}` each server logs every
#    message it receives, with its size: one server receives `w1` (784×256) and `w2`, the
#    other `b1` and `b2` (which array goes where follows from its key). Each small array goes
#    whole to one server; no array is split here, because arrays are split only above
#    `MXNET_KVSTORE_BIGARRAY_BOUND` (1,000,000 elements by default, and `w1` has 200,704).
#    With the bound set to 100,000, each server receives one half of `w1`, and the weights are
#    still the same.
# 2. `cross_entropy(..., reduction="sum")`, and the learning rate divided by the per-rank
#    batch: `lr = 0.1 / 32`. DDP still *averages* over the 2 ranks, so the gradient is
#    (Σ over 64 images) / 2, and `lr / 32` makes it the mean over 64: equal to the
#    single-process run to rounding. With `lr=0.1` left alone the steps are 32 times too
#    large and training diverges: the weights end far away. MXNet's rule is
#    `trainer.step(32 × 2)`: its server *sums* the two gradients, so it divides by the global
#    batch. DDP divides by the number of ranks itself, so only the per-rank batch remains.
# 3. `(WORK / "sleeper.py").write_text("import time\ntime.sleep(30)\n")`, then
#    `launch.mxnet_ps([sys.executable, str(WORK / "sleeper.py")], timeout=5, run_dir=WORK)`:
#    `LaunchTimeout` after 5 s, naming the 4 processes still running (scheduler, server, 2
#    workers), and none of them left. Interrupted instead (the cell below sends the kernel the
#    SIGINT that an interrupt sends, 2.5 s into a run with `timeout=30`): `KeyboardInterrupt`,
#    long before the timeout, and again no process left (checked with psutil, which reads
#    what `ps` lists).
# :::
#
# **Solutions**, run with asserts: the three cells below (folded away in the book: open each
# one); each ends with its answer.

# %% tags=["hide-cell"]
def pushed_sizes(run):
    """Per server, the sizes (in float32 elements) of the arrays workers pushed to it."""
    pushes = re.compile(r"=> \d+\. Meta: .*push=1.*Body: data_size=8 data_size=(\d+)")
    return [sorted({int(m.group(1)) // 4 for m in pushes.finditer(run.output("server", i))})
            for i in range(2)]


sizes = {}
for bound in (None, 100_000):
    env = {"PS_VERBOSE": "2"}
    if bound:
        env["MXNET_KVSTORE_BIGARRAY_BOUND"] = str(bound)
    sizes[bound] = pushed_sizes(launch.mxnet_ps(
        [sys.executable, str(WORK / "mx_worker.py"), "all-workers", "float32"],
        num_workers=WORKERS, num_servers=2, timeout=120, run_dir=WORK, env=env))
    assert worst(final_weights("mxnet-all-workers-float32.npz"), mx_all) == 0.0   # bit-equal
assert sorted(sizes[None]) == [[10, 256], [2560, 200704]]          # whole arrays, by key
assert all(200704 // 2 in per_server for per_server in sizes[100_000])   # w1 in halves
assert 200704 not in sum(sizes[100_000], [])
"1. two servers: the same weights; small arrays whole on one server, w1 split above the bound"

# %% tags=["hide-cell"]
SUM_WORKER = textwrap.dedent('''
    import os
    import numpy as np
    import torch
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel as DDP

    dist.init_process_group("gloo")
    rank, workers = dist.get_rank(), dist.get_world_size()
    run_dir = os.environ["SIDEBYSIDE_RUN_DIR"]
    job = np.load(os.path.join(run_dir, "job.npz"))
    per_worker = int(job["global_batch"]) // workers
    for name, lr in (("divided", 0.1 / per_worker), ("as-is", 0.1)):
        model = torch.nn.Sequential(torch.nn.Linear(784, 256), torch.nn.ReLU(),
                                    torch.nn.Linear(256, 10)).double()
        with torch.no_grad():
            for p, key in zip(model.parameters(), ("w1", "b1", "w2", "b2")):
                p.copy_(torch.from_numpy(job[key]))
        ddp = DDP(model)
        opt = torch.optim.SGD(ddp.parameters(), lr=lr)
        for start in range(0, len(job["X"]), int(job["global_batch"])):
            mine = slice(start + rank * per_worker, start + (rank + 1) * per_worker)
            opt.zero_grad()
            torch.nn.functional.cross_entropy(
                ddp(torch.from_numpy(job["X"][mine])), torch.from_numpy(job["y"][mine]).long(),
                reduction="sum").backward()
            opt.step()
        if rank == 0:
            np.savez(os.path.join(run_dir, f"torch-sum-{name}.npz"),
                     *[p.detach().numpy() for p in model.parameters()])
    dist.destroy_process_group()
''')
(WORK / "sum_worker.py").write_text(SUM_WORKER)
launch.torch_ddp([str(WORK / "sum_worker.py")], nproc=WORKERS, timeout=120, run_dir=WORK)
summed = {name: final_weights(f"torch-sum-{name}.npz") for name in ("divided", "as-is")}
assert worst(summed["divided"], ref_torch) <= 1e-12
assert worst(summed["as-is"], ref_torch) > 1.0
"2. a summed loss under DDP: lr / per-rank batch reproduces one process; lr as is diverges"

# %% tags=["hide-cell"]
(WORK / "sleeper.py").write_text("import time\ntime.sleep(30)\n")
sleeper = [sys.executable, str(WORK / "sleeper.py")]
timed_out = errors.catch(launch.mxnet_ps, sleeper, timeout=5, run_dir=WORK,
                         expect=launch.LaunchTimeout)
stopped = timed_out.exception.run
assert "still running: scheduler 0, server 0, worker 0, worker 1" in timed_out.line
assert 5 <= stopped.seconds < 25
interrupt = threading.Timer(2.5, os.kill, (os.getpid(), signal.SIGINT))
started = time.monotonic()
interrupt.start()
try:
    interrupted = errors.catch(launch.mxnet_ps, sleeper, timeout=30, run_dir=WORK,
                               expect=KeyboardInterrupt)
finally:
    interrupt.cancel()
assert time.monotonic() - started < 25                   # the interrupt, not the timeout
assert not [pid for pid in stopped.pids if psutil.pid_exists(pid)
            and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE]
assert not [p for p in psutil.Process().children(recursive=True)
            if p.status() != psutil.STATUS_ZOMBIE]       # nothing of either run is left
assert not [p for p in psutil.process_iter(["cmdline"])
            if str(WORK / "sleeper.py") in " ".join(p.info["cmdline"] or [])]
workdir.cleanup()                                        # this notebook's folder, at last
"3. timeout or interrupt: LaunchTimeout or KeyboardInterrupt, and no process left"
