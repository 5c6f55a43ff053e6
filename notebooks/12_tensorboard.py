# %% [markdown]
# # 12 · Watching training: MXBoard next to TensorBoard
#
# **What you will learn**
#
# - how `mxboard.SummaryWriter`, PyTorch's `torch.utils.tensorboard.SummaryWriter` and
#   `tensorboardX` (the seed's choice) log the same training — the loss, per-parameter
#   gradient histograms, a grid of samples, the graph, text, hyper-parameters — and how to
#   *check* a log: every event file read back and compared with what the loop computed;
# - what is wrong in the seed's logging snippet (three errors, and a histogram of the wrong
#   thing), run as written and then fixed;
# - how to run a real TensorBoard offline, and what state MXBoard is in: an import that
#   cannot share a process with TensorBoard, a protobuf pin, and the escape hatch measured
#   against five protobuf releases.
#
# **Prerequisites**: [notebook 3](03_mnist_mlp.ipynb) (the training loop that is logged).
# **Time**: about 20 minutes.

# %% tags=["nbval-ignore-output"]
import json
import os
import re
import subprocess
import sys
import tempfile
import textwrap
import warnings
from pathlib import Path

import mxnet as mx
import numpy as np
import tensorboardX
import torch
import torchvision
from IPython.display import IFrame, display
from mxnet import gluon
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
from torch.utils.tensorboard import SummaryWriter

from sidebyside import board, data, devices, errors, plotting, seeding

SEED = seeding.seed_everything(0)
devs = devices.pick()
pt_dev, mx_ctx = devs.torch.device, devs.mxnet.device
logs = tempfile.TemporaryDirectory()     # the event files of this notebook
LOGDIR = Path(logs.name)

# %% [markdown]
# ## 1. First: MXBoard and TensorBoard cannot share a process
#
# `mxboard` 0.1.0 carries its own copy of TensorBoard's protocol-buffer definitions, under the
# same names. With the protobuf that `mxboard` needs (≤ 3.20.3, pure Python), the second
# library to register those names fails — whichever comes second. `tensorboardX` keeps its
# definitions in a package of its own and can sit beside `mxboard`. In fresh processes:

# %%
def in_fresh_python(code):
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300)
    return "ok" if proc.returncode == 0 else proc.stderr.strip().splitlines()[-1]


imports = {
    "mxboard, then torch.utils.tensorboard": in_fresh_python(
        "import mxboard\nfrom torch.utils.tensorboard import SummaryWriter"),
    "torch.utils.tensorboard, then mxboard": in_fresh_python(
        "from torch.utils.tensorboard import SummaryWriter\nimport mxboard"),
    "mxboard, then tensorboardX": in_fresh_python("import mxboard\nimport tensorboardX"),
}
{k: v[:110] for k, v in imports.items()}

# %%
assert imports["mxboard, then torch.utils.tensorboard"].startswith(
    "TypeError: Conflict register for file")
assert imports["torch.utils.tensorboard, then mxboard"].startswith(
    "TypeError: Conflict register for file")
assert imports["mxboard, then tensorboardX"] == "ok"
"mxboard conflicts with tensorboard's own protos, not with tensorboardX's"

# %% [markdown]
# So this notebook — which reads event files with TensorBoard's reader — never imports
# `mxboard`; the Gluon training that logs with MXBoard runs as a script in a process of its
# own (in a real project: keep MXBoard and TensorBoard code apart, or log with `tensorboardX`
# from both frameworks).
#
# ## 2. One training, three writers
#
# [Notebook 3](03_mnist_mlp.ipynb)'s MLP, 30 steps of SGD on batches of 128 Fashion-MNIST images, the same
# batches and initial weights in both frameworks. Logged: the loss at every step, a histogram
# of every parameter's gradient every 10 steps, a grid of 16 training images, the graph,
# a line of text, and (PyTorch) the hyper-parameters with the final loss.
#
# The batches, the initial weights and the image grid go to a file that the MXNet script
# reads:

# %%
STEPS, BATCH, LR = 30, 128, 0.1
train = data.load(train=True)
spec = data.SPECS[train.name]
X = ((train.torch.data[:STEPS * BATCH].reshape(STEPS, BATCH, 784).float() / 255 - spec.mean)
     / spec.std)
Y = train.torch.targets[:STEPS * BATCH].reshape(STEPS, BATCH)
grid = torchvision.utils.make_grid(train.torch.data[:16, None].float() / 255, nrow=8)
torch.manual_seed(0)
pt_mlp = torch.nn.Sequential(torch.nn.Linear(784, 256), torch.nn.ReLU(),
                             torch.nn.Linear(256, 10))
init = {name: p.detach().numpy().copy() for name, p in pt_mlp.named_parameters()}
np.savez(LOGDIR / "job.npz", X=X.numpy(), Y=Y.numpy(), grid=grid.numpy(),
         **{k.replace(".", "_"): v for k, v in init.items()})
(tuple(X.shape), tuple(grid.shape))

# %% [markdown]
# **PyTorch**, with `torch.utils.tensorboard` — and the same calls through `tensorboardX`,
# whose `SummaryWriter` has the same methods:

# %%
writers = {"torch": SummaryWriter(LOGDIR / "torch"),
           "tensorboardX": tensorboardX.SummaryWriter(str(LOGDIR / "tensorboardX"))}
for sw in writers.values():
    sw.add_image("samples", grid, 0)
    sw.add_text("note", "notebook 3's MLP, SGD 0.1, batches of 128", 0)
    with warnings.catch_warnings(record=True) as graph_warnings:   # see §3's check
        warnings.simplefilter("always")
        sw.add_graph(pt_mlp, X[0])
opt = torch.optim.SGD(pt_mlp.parameters(), lr=LR)
pt_losses, pt_grads = [], {}
for step in range(STEPS):
    opt.zero_grad()
    loss = torch.nn.functional.cross_entropy(pt_mlp(X[step]), Y[step])
    loss.backward()
    for sw in writers.values():
        sw.add_scalar("loss", loss.item(), step)
    if step % 10 == 0:
        for name, param in pt_mlp.named_parameters():
            grad = param.grad.detach().cpu().numpy()
            pt_grads[(name, step)] = grad
            for sw in writers.values():
                sw.add_histogram(f"grad/{name}", grad, step)
    opt.step()
    pt_losses.append(loss.item())
writers["torch"].add_hparams({"lr": LR, "batch": BATCH}, {"final_loss": pt_losses[-1]},
                             run_name=".")
for sw in writers.values():
    sw.close()
sorted(p.name for p in LOGDIR.iterdir())

# %% [markdown]
# **Gluon**, with MXBoard, in its own process. `add_scalar` takes the tag, the value and the
# step (no wall time: MXBoard stamps the time itself); `add_graph` wants a hybridised block
# that has run once; gradients are `param.grad()` — a method:

# %%
MXBOARD_SCRIPT = textwrap.dedent('''
    import json, os
    import numpy as np
    import mxnet as mx
    from mxnet import autograd, gluon
    from mxboard import SummaryWriter

    logdir = os.environ["LOGDIR"]
    job = np.load(os.path.join(logdir, "job.npz"))
    net = gluon.nn.HybridSequential()
    net.add(gluon.nn.Dense(256, activation="relu"), gluon.nn.Dense(10))
    net.initialize()
    net(mx.nd.array(job["X"][0]))
    for (name, param), key in zip(net.collect_params().items(),
                                  ("0_weight", "0_bias", "2_weight", "2_bias")):
        param.set_data(mx.nd.array(job[key]))
    net.hybridize()
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1})
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()

    sw = SummaryWriter(logdir=os.path.join(logdir, "mxnet"))
    sw.add_image("samples", job["grid"], 0)
    sw.add_text("note", "notebook 3's MLP, SGD 0.1, batches of 128", 0)
    losses = []
    for step in range(len(job["X"])):
        x, y = mx.nd.array(job["X"][step]), mx.nd.array(job["Y"][step])
        with autograd.record():
            loss = loss_fn(net(x), y).mean()
        loss.backward()
        sw.add_scalar("loss", loss.asscalar(), step)
        if step % 10 == 0:
            for name, param in net.collect_params().items():
                sw.add_histogram(f"grad/{name}", param.grad().asnumpy(), step)
        trainer.step(1)
        losses.append(float(loss.asscalar()))
    sw.add_graph(net)
    sw.close()
    with open(os.path.join(logdir, "mxnet_losses.json"), "w") as f:
        json.dump(losses, f)
''')
(LOGDIR / "mxboard_run.py").write_text(MXBOARD_SCRIPT)
mx_proc = subprocess.run([sys.executable, str(LOGDIR / "mxboard_run.py")],
                         env={**os.environ, "LOGDIR": str(LOGDIR)}, capture_output=True,
                         text=True, timeout=300)
mx_losses = json.loads((LOGDIR / "mxnet_losses.json").read_text())
assert mx_proc.returncode == 0 and len(mx_losses) == len(pt_losses) == STEPS
assert {"torch", "tensorboardX", "mxnet"} <= {p.name for p in LOGDIR.iterdir()}
"three runs written: torch, tensorboardX, mxnet"

# %% [markdown]
# ## 3. Read every event file back
#
# `sidebyside.board.read_events` reads a log folder with TensorBoard's own reader
# (`EventAccumulator`): one entry per run, with its scalars, histograms, images, text, graph
# and hyper-parameters.

# %%
runs = board.read_events(LOGDIR)
{name: {"scalars": sorted(run.scalars), "histograms": len(run.histograms),
        "images": sorted(run.images), "texts": sorted(run.texts), "graph": run.has_graph,
        "hparams": sorted(run.hparams)}
 for name, run in sorted(runs.items())}

# %% [markdown]
# **Check**: the losses in the event files are the ones the loops computed (event files store
# float32); the two frameworks' losses agree (the same training, float32 drift); each
# histogram counts every element of its gradient; the image is the 2×8 grid; the text is the
# text.

# %%
for name, computed in (("torch", pt_losses), ("tensorboardX", pt_losses),
                       ("mxnet", mx_losses)):
    logged = runs[name].scalars["loss"]
    assert [s for s, _ in logged] == list(range(STEPS)), name
    np.testing.assert_allclose([v for _, v in logged], computed, rtol=1e-6)
np.testing.assert_allclose(mx_losses, pt_losses, atol=1e-3)
for (name, step), grad in pt_grads.items():
    (hist,) = [h for h in runs["torch"].histograms[f"grad/{name}"] if h.step == step]
    assert hist.count == grad.size and abs(hist.min - grad.min()) < 1e-6
mx_hist = runs["mxnet"].histograms
assert len(mx_hist) == 4 and all(len(v) == 3 for v in mx_hist.values())
assert sum(h.count for v in mx_hist.values() for h in v[:1]) == sum(p.numel() for p in
                                                                   pt_mlp.parameters())
for name in ("torch", "tensorboardX", "mxnet"):
    (image,) = runs[name].images["samples"]
    assert (image.width, image.height) == (grid.shape[2], grid.shape[1])
assert runs["torch"].texts["note/text_summary"][0][1].startswith("notebook 3's MLP")
assert runs["mxnet"].texts["note"][0][1].startswith("notebook 3's MLP")
assert runs["torch"].has_graph and runs["mxnet"].has_graph
assert runs["torch"].hparams == {"lr": LR, "batch": BATCH}
# both PyTorch writers trace the model with torch.jit.trace, deprecated in torch 2.14
assert any("torch.jit.trace` is deprecated" in str(w.message) for w in graph_warnings)
"every logged value is the computed one"

# %% [markdown]
# The two runs from the event files, on shared axes — what TensorBoard's scalar dashboard
# shows, drawn here:

# %% mystnb={"image": {"alt": "Training loss read back from the event files of the PyTorch and the MXNet run, two curves that fall together."}}
plotting.curves({"training loss (from the event files)": {
    name: [v for _, v in runs[name].scalars["loss"]] for name in ("torch", "mxnet")}})

# %% [markdown]
# ## 4. The seed's logging snippet, as written
#
# The seed logs gradient histograms with this loop (its PyTorch side uses tensorboardX):
#
# ```python
# for name, param in net.collect_params():
#     grad = param.grad.asnumpy().flatten()
#     sw.add_histogram(tag=str(param), values=grad, bins=200, global_step=i)
# ```
#
# Run as written, on a Gluon MLP that has just run `backward()`, it fails at its first line:
# `collect_params()` is a dictionary, and iterating it gives the names only:

# %%
net = gluon.nn.Sequential(prefix="mlp_")
with net.name_scope():                 # names counted within mlp_, not in the whole process
    net.add(gluon.nn.Dense(256, activation="relu"), gluon.nn.Dense(10))
net.initialize()
with mx.autograd.record():
    out = net(mx.nd.array(X[0].numpy())).sum()
out.backward()

# %% tags=["raises-exception"]
for name, param in net.collect_params():
    grad = param.grad.asnumpy().flatten()
    sw.add_histogram(tag=str(param), values=grad, bins=200, global_step=i)

# %% [markdown]
# With `.items()`, the next line fails: `param.grad` is a method:

# %% tags=["raises-exception"]
for name, param in net.collect_params().items():
    grad = param.grad.asnumpy().flatten()
    sw.add_histogram(tag=str(param), values=grad, bins=200, global_step=i)

# %% [markdown]
# The tag `str(param)` would also be a description, not a name:

# %%
first = next(iter(net.collect_params().values()))
str(first)

# %%
seed_errors = {
    "collect_params()": errors.catch(lambda: [None for n, p in net.collect_params()]),
    "param.grad.asnumpy()": errors.catch(lambda: first.grad.asnumpy()),
}
assert seed_errors["collect_params()"].type == "ValueError"
assert seed_errors["param.grad.asnumpy()"].line == (
    "'function' object has no attribute 'asnumpy'")
assert str(first).startswith(f"Parameter {first.name} (shape=")
assert first.name == "mlp_dense0_weight"
{k: str(v) for k, v in seed_errors.items()}

# %% [markdown]
# The fix is in the MXBoard script above: `.items()`, `param.grad()`, and the parameter's name
# as the tag. The seed's **PyTorch** side runs, but logs the wrong thing:
# `param.clone().cpu().data.numpy()` is the parameter's *value*; the gradient is
# `param.grad`:

# %%
name, param = next(iter(pt_mlp.named_parameters()))
seed_values = param.clone().cpu().data.numpy()
{"seed's array equals the weights": bool(np.array_equal(seed_values,
                                                        param.detach().numpy())),
 "seed's array equals the gradient": bool(np.array_equal(seed_values,
                                                         param.grad.numpy()))}

# %%
assert np.array_equal(seed_values, param.detach().numpy())
assert not np.allclose(seed_values, param.grad.numpy())
"the seed's PyTorch histogram shows the weights; log param.grad instead"

# %% [markdown]
# ## 5. A real TensorBoard
#
# The same folder, served by TensorBoard itself, on this machine (no network needed):
# `tensorboard --logdir <folder> --host 127.0.0.1`. `board.serve` starts it on a free port,
# waits until it answers, and stops it afterwards — here, to check over TensorBoard's HTTP
# API that it sees the same numbers:

# %%
server = board.serve(LOGDIR)
served_runs = server.runs()
served = {name: server.scalars(name, "loss") for name in ("torch", "mxnet")}
sorted(served_runs)

# %%
for name, points in served.items():
    assert [(s, v) for _, s, v in points] == runs[name].scalars["loss"]
"TensorBoard serves what the event files hold"

# %% [markdown]
# In JupyterLab you can look at it here (in the book, this frame is left out; run the
# notebook to see it):

# %% tags=["nbval-ignore-output", "remove-output"]
display(IFrame(server.url, width="100%", height=500))

# %%
server_pid = server.process.pid
server.stop()
assert server.process.poll() is not None
"TensorBoard stopped, its process gone"

# %% [markdown]
# ## 6. MXBoard's state
#
# `mxboard` 0.1.0 (2019) is its last release. Two of its habits, read from its source and
# signature:

# %%
mxboard_src = subprocess.run(
    [sys.executable, "-c", textwrap.dedent('''
        import inspect, json, mxboard
        from mxboard import summary
        print(json.dumps({
            "add_scalar": str(inspect.signature(mxboard.SummaryWriter.add_scalar)),
            "histogram_summary converts with asnumpy": "asnumpy()" in
                inspect.getsource(summary._make_numpy_array),
        }))''')], capture_output=True, text=True, timeout=300)
json.loads(mxboard_src.stdout)

# %%
habits = json.loads(mxboard_src.stdout)
assert habits["add_scalar"] == "(self, tag, value, global_step=None)"
assert habits["histogram_summary converts with asnumpy"]
"no walltime argument; histograms (and images) wait for the engine with asnumpy()"

# %% [markdown]
# Its generated protobuf code is older than protobuf 3.12 and needs protobuf ≤ 3.20.3 (the pin
# of this project; [notebook 1](01_install_and_environment.ipynb) shows why). Newer protobufs accept it only with their
# pure-Python implementation (`PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION=python`) — and not all
# of them. `make setup` downloads five protobuf releases; each is tried here with `mxboard`
# writing one scalar, with the default implementation and with the Python one:

# %%
wheels = sorted((Path(sys.prefix) / "probe-wheels").glob("protobuf-*.whl"))
assert wheels, "no protobuf wheels in .venv/probe-wheels: run `make setup`"
PROBE = ("import mxboard, tempfile; w = mxboard.SummaryWriter(tempfile.mkdtemp()); "
         "w.add_scalar('x', 1.0, 0); w.close()")


def try_protobuf(wheel, implementation):
    target = LOGDIR / wheel.stem
    if not target.exists():
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                        "--no-index", "--target", str(target), str(wheel)], check=True)
    env = {**os.environ, "PYTHONPATH": str(target)}
    if implementation:
        env["PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION"] = implementation
    proc = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True,
                          text=True, timeout=300)
    if proc.returncode == 0:
        return "works"
    lines = proc.stderr.strip().splitlines()
    error = [ln for ln in lines if re.match(r"[A-Za-z.]*(Error|Exception): ", ln)]
    return (error or lines)[-1][:70]


protobuf_table = {wheel.name.split("-")[1]: {"default": try_protobuf(wheel, None),
                                             "python": try_protobuf(wheel, "python")}
                  for wheel in wheels}
protobuf_table

# %%
works_with_python = [v for v, r in protobuf_table.items() if r["python"] == "works"]
assert all(r["default"] != "works" for r in protobuf_table.values())
assert works_with_python == ["4.25.8", "6.31.1"]
assert sorted(protobuf_table) == ["4.25.8", "5.29.6", "6.31.1", "6.32.0", "7.36.2"]
"only the pure-Python implementation, and only some releases: 3.20.3 stays the pin"

# %% [markdown]
# The escape works with 4.25.8 and 6.31.1 and fails with 5.29.6, 6.32.0 and 7.36.2 —
# later releases, including the 5.29 backport, check a descriptor field that MXBoard's old
# generated code does not set. For a project that must move on, log with `tensorboardX` (or,
# after a migration, `torch.utils.tensorboard`). Its trained models need no MXNet to move
# either: [notebook 19](19_legacy_files_to_pytorch.ipynb) reads the `.params` and
# `-symbol.json` files with numpy and torch alone.

# %%
logs.cleanup()

# %% [markdown]
# ## Summary
#
# | | PyTorch | MXNet (MXBoard) |
# |---|---|---|
# | writer | `torch.utils.tensorboard.SummaryWriter(logdir)` or `tensorboardX.SummaryWriter` | `mxboard.SummaryWriter(logdir)` |
# | scalar | `add_scalar(tag, value, step, walltime=None)` | `add_scalar(tag, value, global_step)` (value may be a dict of curves) |
# | gradient histogram | `for name, p in net.named_parameters(): add_histogram(name, p.grad, step)` | `for name, p in net.collect_params().items(): add_histogram(name, p.grad().asnumpy(), step)` |
# | images | `add_image(tag, chw_tensor, step)` | `add_image(tag, chw_array, step)` |
# | graph | `add_graph(model, example_input)` (traces with the deprecated `torch.jit.trace`) | `add_graph(hybridized_block)` after one forward |
# | text | `add_text(tag, text, step)` | `add_text(tag, text, step)` |
# | hyper-parameters | `add_hparams(hparams, metrics)` | — |
# | read back | `tensorboard.backend.event_processing.EventAccumulator` (here `board.read_events`) | the same reader, in a process without `mxboard` |
# | serve | `tensorboard --logdir DIR --host 127.0.0.1` | the same server |
# | one process with the other | `tensorboardX` and `mxboard`: yes | `mxboard` and `tensorboard`: no (protobuf conflict) |
#
# ### What the seed articles said, checked
#
# | seed claim | verdict | shown in |
# |---|---|---|
# | PyTorch uses TensorboardX, MXNet MXBoard; "the APIs are almost the same" | confirmed for the calls; and both write the same event format, one TensorBoard shows both | §2, §5 |
# | the histogram snippet (`for name, param in net.collect_params(): … param.grad.asnumpy() … tag=str(param)`) | **wrong** three times: needs `.items()`, `param.grad()`, a name as the tag | §4 |
# | the PyTorch snippet `grad = param.clone().cpu().data.numpy()` | **wrong**: logs the weights, not the gradients | §4 |
#
# ## Exercises
#
# 1. Train §2's MLP with Adam (learning rate 1e-3) for 20 steps in both frameworks, in this
#    process, logging both runs with `tensorboardX` (no MXBoard), and read them back with
#    `board.read_events`.
# 2. TensorBoard keeps 1000 points per scalar by default. Log 5000 steps and compare
#    `board.read_events` with `server.scalars` — then start the server with
#    `extra_args=["--samples_per_plugin=scalars=10000"]`.
# 3. Add `walltime=` to PyTorch's `add_scalar` calls so that both runs start at the same moment
#    on TensorBoard's "Wall" time axis (its "Relative" axis already starts every run at 0).
#    What can MXBoard do instead?

# %% [markdown]
# :::{dropdown} Solutions
# 1. One `tensorboardX.SummaryWriter` per framework, in the process that trains both (MXNet
#    and tensorboardX share a process; only `mxboard` clashes, §1):
#    ```python
#    sw = {k: tensorboardX.SummaryWriter(f"{logdir}/{k}") for k in ("torch", "gluon")}
#    sw["torch"].add_scalar("loss", loss.item(), step)        # in the PyTorch loop
#    sw["gluon"].add_scalar("loss", loss.asscalar(), step)    # in the Gluon loop
#    runs = board.read_events(logdir)
#    ```
#    Two runs of 20 points, equal to the computed losses to float32 storage. The two
#    frameworks' Adam losses stay within 0.02 of each other (the cell prints the largest
#    difference; [notebook 8](08_optimizers_trainer.ipynb) compares the two Adam rules).
# 2. With 5,000 `add_scalar` steps, `board.read_events` returns all 5,000 (it asks the reader to
#    keep everything); `server.scalars` returns 1,000, a sample that keeps the last step; with
#    `extra_args=["--samples_per_plugin=scalars=10000"]` all 5,000, steps 0–4999. The event
#    file is complete; the dashboard thins it.
# 3. `sw.add_scalar("loss", v, step, walltime=T0 + elapsed)`, one `T0` for both runs: the wall
#    times read back are exactly `T0 + elapsed`. MXBoard's `add_scalar` has no `walltime`
#    (§6) and stamps each event with the time of the call; log the MXNet run with
#    `tensorboardX` instead, whose `add_scalar` takes `walltime`.
# :::
#
# **Solutions**, run with asserts: the three cells below (folded away in the book: open each
# one); each ends with its answer.

# %% tags=["hide-cell", "nbval-ignore-output"]
pt_adam_net = torch.nn.Sequential(torch.nn.Linear(784, 256), torch.nn.ReLU(),
                                  torch.nn.Linear(256, 10))
pt_adam_net.load_state_dict({k: torch.from_numpy(v) for k, v in init.items()})
pt_adam = torch.optim.Adam(pt_adam_net.parameters(), lr=1e-3)
mx_adam_net = gluon.nn.Sequential()
mx_adam_net.add(gluon.nn.Dense(256, activation="relu", in_units=784),
                gluon.nn.Dense(10, in_units=256))
mx_adam_net.initialize()
for param, key in zip(mx_adam_net.collect_params().values(),
                      ("0.weight", "0.bias", "2.weight", "2.bias")):
    param.set_data(mx.nd.array(init[key]))
mx_adam = gluon.Trainer(mx_adam_net.collect_params(), "adam", {"learning_rate": 1e-3})
mx_ce = gluon.loss.SoftmaxCrossEntropyLoss()
adam_losses = {"torch": [], "gluon": []}
with tempfile.TemporaryDirectory() as tmp:
    adam_writers = {k: tensorboardX.SummaryWriter(f"{tmp}/{k}") for k in adam_losses}
    for step in range(20):
        loss = torch.nn.functional.cross_entropy(pt_adam_net(X[step]), Y[step])
        pt_adam.zero_grad()
        loss.backward()
        pt_adam.step()
        adam_writers["torch"].add_scalar("loss", loss.item(), step)
        adam_losses["torch"].append(loss.item())
        with mx.autograd.record():
            mx_loss = mx_ce(mx_adam_net(mx.nd.array(X[step].numpy())),
                            mx.nd.array(Y[step].numpy())).mean()
        mx_loss.backward()
        mx_adam.step(1)
        adam_writers["gluon"].add_scalar("loss", mx_loss.asscalar(), step)
        adam_losses["gluon"].append(float(mx_loss.asscalar()))
    for writer in adam_writers.values():
        writer.close()
    adam_runs = board.read_events(tmp)
for key, computed in adam_losses.items():
    assert [s for s, _ in adam_runs[key].scalars["loss"]] == list(range(20))
    np.testing.assert_allclose([v for _, v in adam_runs[key].scalars["loss"]], computed,
                               rtol=1e-6)
adam_gap = np.abs(np.array(adam_losses["torch"]) - adam_losses["gluon"]).max()
assert adam_gap < 0.02
print(f"Adam, 20 steps: loss {adam_losses['torch'][0]:.3f} -> {adam_losses['torch'][-1]:.3f}; "
      f"PyTorch against Gluon at most {adam_gap:.1e}")
"1. tensorboardX from both frameworks in one process: two runs, read back as computed"

# %% tags=["hide-cell"]
with tempfile.TemporaryDirectory() as tmp:
    long_writer = tensorboardX.SummaryWriter(f"{tmp}/long")
    for step in range(5000):
        long_writer.add_scalar("loss", 1.0 / (step + 1), step)
    long_writer.close()
    long_read = board.read_events(tmp)["long"].scalars["loss"]
    with board.serve(tmp) as long_server:
        long_served = long_server.scalars("long", "loss")
    with board.serve(tmp, extra_args=["--samples_per_plugin=scalars=10000"]) as long_server:
        long_served_all = long_server.scalars("long", "loss")
assert [s for s, _ in long_read] == list(range(5000))
assert len(long_served) == 1000 and long_served[-1][1] == 4999
assert [s for _, s, _ in long_served_all] == list(range(5000))
"2. read_events: 5000 points; the server: 1000 (the last kept), 5000 with samples_per_plugin"

# %% tags=["hide-cell"]
T0 = 1_700_000_000.0                                  # one start for both runs
with tempfile.TemporaryDirectory() as tmp:
    timed = tensorboardX.SummaryWriter(f"{tmp}/timed")
    for step in range(5):
        timed.add_scalar("loss", float(step), step, walltime=T0 + 0.5 * step)
    timed.close()
    (event_dir,) = [str(p) for p in Path(tmp).iterdir()]
    reader = EventAccumulator(event_dir)
    reader.Reload()
assert [e.wall_time for e in reader.Scalars("loss")] == [T0 + 0.5 * step for step in range(5)]
"3. walltime=T0 + elapsed is stored as given; MXBoard's add_scalar has no walltime (§6)"
