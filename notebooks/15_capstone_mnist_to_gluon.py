# %% [markdown]
# # 15 · Capstone: porting a whole PyTorch script to Gluon
#
# **What you will learn**
#
# - how a complete PyTorch training script — pytorch/examples' `mnist/main.py`: a CNN with
#   dropout and max-pooling, `log_softmax` + `nll_loss`, Adadelta, `StepLR`, `train()`/`eval()`,
#   `no_grad`, a summed test loss, argparse flags, `--save-model` — becomes a Gluon script with
#   the same flags and the same behaviour, change by change, each linked to the notebook that
#   teaches it;
# - how to *prove* a port: train both from the same weights on the same batches, step for
#   step — in float64 they must agree to rounding, and a porting error shows up as a jump; in
#   float32 the gap is measured against PyTorch's own sensitivity to a 1e-7 nudge;
# - how both scripts run from the command line, and how their saved models cross over.
#
# The two scripts are files, runnable on their own: `examples/mnist/main.py` (PyTorch — the
# upstream script as this collection runs it: offline data from `sidebyside.data`, a
# `--dataset` flag; see `examples/mnist/README.md`) and `examples/mnist/main_gluon.py` (the
# port). This notebook reads them, shows their differences, and runs them.
#
# **Prerequisites**: notebooks [3](03_mnist_mlp.ipynb), [8](08_optimizers_trainer.ipynb) and
# [10](10_losses.ipynb) (the loop, the optimizer and the loss it ports). **Time**: about 20
# minutes.

# %% tags=["nbval-ignore-output"]
import difflib
import inspect
import subprocess
import sys
import tempfile
from pathlib import Path

import matplotlib.pyplot as plt
import mxnet as mx
import numpy as np
import torch
import torch.nn.functional as F
from mxnet import gluon

from sidebyside import convert, data, devices, seeding, transfer
from torchvision import transforms

EXAMPLE = Path("..", "examples", "mnist").resolve()
sys.path.insert(0, str(EXAMPLE))
import lockstep  # noqa: E402  (examples/mnist/lockstep.py: imports both scripts)

main_torch, main_gluon = lockstep.main_torch, lockstep.main_gluon
SEED = seeding.seed_everything(0)
devs = devices.pick()
pt_dev, mx_ctx = devs.torch.device, devs.mxnet.device


def show_diff(torch_obj, gluon_obj):
    """The PyTorch source of a function or class, and what the port changes in it."""
    before = inspect.getsource(torch_obj).splitlines()
    after = inspect.getsource(gluon_obj).splitlines()
    for line in difflib.unified_diff(before, after, "main.py", "main_gluon.py", n=2,
                                     lineterm=""):
        print(line)

# %% [markdown]
# ## 1. The network
#
# **PyTorch** (`main.py`) and **Gluon** (`main_gluon.py`), as a diff: lines starting with `-`
# are PyTorch's, `+` the port's.
#
# - `Conv2d(1, 32, 3, 1)` → `Conv2D(32, 3, 1, in_channels=1)`: output channels first; giving
#   the input size avoids deferred initialisation ([notebook 6](06_blocks.ipynb) §1);
# - PyTorch's default initialisation, written out for Gluon by `torch_init` — Xavier-uniform on
#   fan-in with magnitude 1 for weights, `Uniform(1/√fan_in)` for biases
#   ([notebook 6](06_blocks.ipynb) §2);
# - `forward(x)` → `hybrid_forward(F, x)`; `F.max_pool2d(x, 2)` → `F.Pooling(…)` with the
#   stride spelled out; `torch.flatten(x, 1)` → `F.flatten(x)` in the same C, H, W order;
#   `dim=1` → `axis=1` ([notebook 7](07_hybridize_export.ipynb) §2).

# %%
show_diff(main_torch.Net, main_gluon.Net)

# %% [markdown]
# The check: PyTorch's weights copied into the Gluon network, both networks evaluated on the
# same images in float64 — PyTorch in `eval()`, Gluon outside `record()`, so dropout is off
# on both sides.

# %%
pt_net = main_torch.Net().double().eval()
mx_net = main_gluon.Net()
mx_net.initialize()
mx_net.cast("float64")
pairs = transfer.torch_to_gluon(pt_net, mx_net)
images = np.stack([x for x, _ in lockstep.batches(2, 8)]).reshape(16, 1, 28, 28)
with torch.no_grad():
    pt_logp = pt_net(torch.from_numpy(images)).numpy()
mx_logp = mx_net(mx.nd.array(images, dtype="float64")).asnumpy()
assert [t for t, _ in pairs] == ["conv1", "conv2", "fc1", "fc2"]
assert np.abs(pt_logp - mx_logp).max() < 1e-12
assert np.allclose(np.exp(mx_logp).sum(axis=1), 1)
"the same log-probabilities from the same weights, in float64"

# %% [markdown]
# And the initialisation: without copying anything, Gluon's layers draw from PyTorch's
# distributions — every weight and bias within ±1/√fan_in, with the standard deviation of that
# uniform distribution (1/√(3·fan_in)), to within sampling error.

# %%
fresh_pt = main_torch.Net()
fresh_mx = main_gluon.Net()
fresh_mx.initialize()
fans = {"conv1": 9, "conv2": 32 * 9, "fc1": 9216, "fc2": 128}
for layer, fan_in in fans.items():
    bound = 1 / np.sqrt(fan_in)
    for kind in ("weight", "bias"):
        pt_w = getattr(getattr(fresh_pt, layer), kind).detach().numpy()
        mx_w = getattr(getattr(fresh_mx, layer), kind).data().asnumpy()
        for w in (pt_w, mx_w):
            sd_error = 5 * bound / np.sqrt(3) / np.sqrt(2 * w.size)     # 5 standard errors
            assert np.abs(w).max() <= bound
            assert abs(w.std() - bound / np.sqrt(3)) < sd_error + 1e-12, (layer, kind)
"Gluon's initial weights come from PyTorch's distributions, layer by layer"

# %% [markdown]
# ## 2. The loss
#
# `F.nll_loss(output, target)` of log-probabilities is the mean over the batch; Gluon's
# `SoftmaxCrossEntropyLoss(from_logits=True)` takes the same log-probabilities and returns one
# loss per sample ([notebook 10](10_losses.ipynb)). The training step reduces it by
# `backward()` on the per-sample losses and `trainer.step(batch_size)` (which divides the
# summed gradient by the batch size — [notebook 8](08_optimizers_trainer.ipynb)); the test
# loop's `reduction='sum'` becomes `.sum()`.

# %%
labels = np.arange(16) % 10
pt_mean = F.nll_loss(torch.from_numpy(pt_logp), torch.from_numpy(labels)).item()
pt_sum = F.nll_loss(torch.from_numpy(pt_logp), torch.from_numpy(labels),
                    reduction="sum").item()
per_sample = main_gluon.nll_loss(mx.nd.array(mx_logp, dtype="float64"), mx.nd.array(labels))
assert per_sample.shape == (16,)
assert abs(per_sample.mean().asscalar() - pt_mean) < 1e-12
assert abs(per_sample.sum().asscalar() - pt_sum) < 1e-12
"nll_loss mean and sum = the per-sample losses' mean and sum"

# %% [markdown]
# ## 3. The training loop
#
# - `model.train()` goes: Gluon's dropout is active inside `autograd.record()` and off outside
#   it ([notebook 5](05_autograd.ipynb) §2);
# - `optimizer.zero_grad()` goes: Gluon's backward *overwrites* the gradients
#   (`grad_req='write'`);
# - `loss.backward(); optimizer.step()` → `loss.backward(); trainer.step(batch_size)`;
# - `loss.item()` → `loss.mean().asscalar()` (`asscalar` waits for MXNet's asynchronous
#   engine — [notebook 5](05_autograd.ipynb) §6);
# - `len(train_loader.dataset)`: Gluon's `DataLoader` keeps its dataset private, so the size
#   is passed in ([notebook 4](04_data_loading.ipynb) §8).

# %%
show_diff(main_torch.train, main_gluon.train)

# %% [markdown]
# The check: one training step of both, from the same weights on the same 16 images, in
# float64 (§6 runs 200 of them).

# %%
one_step = lockstep.run(lockstep.batches(1, 16), dtype="float64")
assert one_step.loss_gap[0] < 1e-12 and one_step.weight_gap[0] < 1e-12
"one step: the same loss and the same weights afterwards"

# %% [markdown]
#
# ## 4. Optimizer and schedule
#
# `optim.Adadelta(model.parameters(), lr=1.0)` has no faithful built-in counterpart: MXNet's
# `adadelta` ignores the learning rate — so `StepLR`'s decay would do nothing — and uses
# `epsilon=1e-5` where PyTorch uses 1e-6 ([notebook 8](08_optimizers_trainer.ipynb) §5). The
# port uses `sidebyside.optim.TorchAdadelta`, PyTorch's update as a Gluon optimizer, by name:
# `gluon.Trainer(params, "torchadadelta", {"learning_rate": lr})`. `StepLR(step_size=1,
# gamma)`, stepped after each epoch, becomes `trainer.set_learning_rate(lr · gamma)` after
# each epoch ([notebook 8](08_optimizers_trainer.ipynb) §7 has the other ways, and the trap in `FactorScheduler`).

# %%
show_diff(main_torch.main, main_gluon.main)

# %% [markdown]
# The rest of `main()` is the device (`torch.accelerator` → `mx.gpu(0)` when MXNet sees a GPU;
# [notebook 1](01_install_and_environment.ipynb) says why MXNet's GPU wheels do not run on
# the newest GPUs), the seeds (Gluon's shuffling draws from numpy, so numpy is seeded too), the
# loaders (`persistent_workers` has no Gluon flag — [notebook 4](04_data_loading.ipynb) §8) and the
# saved file ([notebook 13](13_serialization.ipynb)).
#
# The check: the learning rate of each of four epochs, PyTorch's scheduler against the port's
# `set_learning_rate`.

# %%
param = torch.nn.Parameter(torch.zeros(1))
pt_opt = torch.optim.Adadelta([param], lr=1.0)
scheduler = torch.optim.lr_scheduler.StepLR(pt_opt, step_size=1, gamma=0.7)
weight = gluon.Parameter("w", shape=(1,))
weight.initialize()
trainer = gluon.Trainer([weight], "torchadadelta", {"learning_rate": 1.0})
pt_rates, mx_rates = [], []
for epoch in range(1, 5):
    pt_rates.append(pt_opt.param_groups[0]["lr"])
    mx_rates.append(trainer.learning_rate)
    pt_opt.step()
    scheduler.step()
    trainer.set_learning_rate(trainer.learning_rate * 0.7)
assert np.allclose(pt_rates, mx_rates, rtol=1e-15) and np.isclose(mx_rates[-1], 0.7 ** 3)
"the same learning rate in every epoch"

# %% [markdown]
# ## 5. The test loop
#
# `model.eval()` and `with torch.no_grad():` both go: outside `autograd.record()` Gluon
# neither records nor drops out. `output.argmax(dim=1, keepdim=True)` → `output.argmax(axis=1)`,
# which returns floats, so the labels are cast before comparing; the sample count is counted
# (Gluon's loader has no `.dataset`).

# %%
show_diff(main_torch.test, main_gluon.test)

# %% [markdown]
# The check: both scripts' `test()` on the first 2 000 test images (normalised by each
# framework's own transforms), with PyTorch's initial weights copied into Gluon, in float32.

# %% tags=["nbval-ignore-output"]
spec = data.SPECS[data.dataset_name()]
pt_test_set = data.torch_dataset(train=False, transform=transforms.Compose(
    [transforms.ToTensor(), transforms.Normalize((spec.mean,), (spec.std,))]))
mx_transform = gluon.data.vision.transforms.Compose(
    [gluon.data.vision.transforms.ToTensor(),
     gluon.data.vision.transforms.Normalize(spec.mean, spec.std)])
mx_test_set = data.gluon_dataset(train=False).take(2000).transform_first(mx_transform)
pt_test_set = torch.utils.data.Subset(pt_test_set, range(2000))
pt_net32 = main_torch.Net()
mx_net32 = main_gluon.Net()
mx_net32.initialize()
transfer.torch_to_gluon(pt_net32, mx_net32)
pt_result = main_torch.test(pt_net32, torch.device("cpu"), torch.utils.data.DataLoader(
    pt_test_set, batch_size=1000))
mx_result = main_gluon.test(mx_net32, mx.cpu(), gluon.data.DataLoader(mx_test_set,
                                                                      batch_size=1000))

# %%
assert abs(pt_result[0] - mx_result[0]) < 1e-5 and abs(pt_result[1] - mx_result[1]) <= 2
"the same average loss and (but for a near-tie or two) the same number correct"

# %% [markdown]
# ## 6. The proof: training in lockstep
#
# The checks above compare pieces. The port is proven when both scripts *train* the same:
# `examples/mnist/lockstep.py` starts PyTorch's and Gluon's networks from the same weights,
# feeds them the same 200 batches of 16 images, and after every step compares the losses (and
# every tenth step the weights, relative to their size). Dropout is switched off **by
# construction** — each dropout layer replaced by one of rate 0 — so both sides train in their
# normal mode. (Not with Gluon's `record(train_mode=False)`: under it MXNet's max-pooling
# backward is wrong, [notebook 5](05_autograd.ipynb) §2.) Its step functions are the scripts'
# lines:

# %%
print(inspect.getsource(lockstep._torch_step))
print(inspect.getsource(lockstep._gluon_step))

# %% [markdown]
# **float64**: every difference is rounding, so the gap must stay at the level of float64's
# resolution for all 200 steps.

# %% tags=["nbval-ignore-output"]
batches = lockstep.batches(200, 16)
run64 = lockstep.run(batches, dtype="float64")
print(f"float64: largest loss gap {run64.loss_gap.max():.1e}, largest relative weight gap "
      f"{run64.weight_gap.max():.1e}; loss {run64.losses[0, 0]:.3f} -> "
      f"{run64.losses[-20:, 0].mean():.3f} (last 20 steps)")

# %% [markdown]
# A porting error looks different. The same run with the port's one plausible slip — MXNet's
# `epsilon` default (1e-5) where PyTorch has 1e-6 — jumps at the first step:

# %% tags=["nbval-ignore-output"]
slip = lockstep.run(batches[:20], dtype="float64", gluon_optimizer_args={"epsilon": 1e-5})
print(f"epsilon 1e-5 against 1e-6: relative weight gap {slip.weight_gap[0]:.1e} after 10 steps")

# %%
assert run64.loss_gap.max() < 1e-12 and run64.weight_gap.max() < 1e-12
assert run64.losses[-20:, 0].mean() < 0.7 * run64.losses[:20, 0].mean()     # it learns
assert slip.weight_gap[0] > 1e6 * run64.weight_gap[0]
"float64: the port trains like the original to ~1e-15 for 200 steps; a slip shows at once"

# %% [markdown]
# **float32**: rounding differs between the frameworks' kernels (summation order, fused
# operations), and training amplifies any difference, so the two trajectories drift apart.
# How far is acceptable? The yardstick is PyTorch against itself: the same run with every
# initial weight multiplied by 1 + 1e-7·N(0, 1) — a change of the size of float32 rounding.

# %% tags=["nbval-ignore-output"] mystnb={"image": {"alt": "Largest relative weight gap over 200 lockstep training steps on a log scale: Gluon against PyTorch in float64 stays near 1e-15, while in float32 Gluon against PyTorch and PyTorch against itself nudged by 1e-7 both grow to about 0.1\u20131."}}
run32 = lockstep.run(batches, dtype="float32", against=("gluon", "torch"), perturb=1e-7)
port_gap, nudge_gap = run32.weight_gap_of("gluon"), run32.weight_gap_of("torch")
fig, ax = plt.subplots(figsize=(7, 3.5))
for gap, label in [(run64.weight_gap, "Gluon vs PyTorch, float64"),
                   (port_gap, "Gluon vs PyTorch, float32"),
                   (nudge_gap, "PyTorch vs PyTorch nudged by 1e-7, float32")]:
    ax.semilogy(run32.checked_at, np.maximum(gap, 1e-17), marker="o", ms=3, label=label)
ax.set(xlabel="training step", ylabel="largest relative weight gap",
       title="Lockstep training: how far apart the weights get")
ax.legend(fontsize=8)
plt.show()
print(f"after {len(batches)} steps: Gluon vs PyTorch {port_gap[-1]:.1e}, "
      f"PyTorch vs nudged PyTorch {nudge_gap[-1]:.1e}")

# %%
late = slice(-5, None)                                  # the last 50 steps
ratio = port_gap[late].mean() / nudge_gap[late].mean()
assert 1 / 3 < ratio < 3, ratio                         # the port drifts like PyTorch itself
assert port_gap.min() > 1e3 * run64.weight_gap.max()
late_loss = run32.losses[-50:].mean(axis=0)            # PyTorch, Gluon, nudged PyTorch
assert np.ptp(late_loss) < 0.1 * late_loss[0], late_loss
"float32: the port drifts from PyTorch as far as PyTorch drifts from itself, and learns alike"

# %% [markdown]
# The float32 gap is not a porting error: PyTorch nudged by one part in 10⁷ drifts just as
# far. Adadelta with `lr=1.0` on 16-image batches is a sensitive setting: within a hundred
# steps any two float32 runs — the port and the original, or the original and itself nudged —
# end up with weights tens of percent apart, while all of them learn alike (their average
# losses over the last 50 steps agree within 10 %). Only float64 can tell a faithful port
# from a slightly wrong one.
#
# ## 7. From the command line
#
# Both scripts take the same flags. Here each trains on one batch (`--dry-run`) and is tested
# on the 10 000 test images; `--save-model` writes `mnist_cnn.pt` and `mnist_cnn.params` into
# the working folder.

# %% tags=["nbval-ignore-output"]
work = tempfile.TemporaryDirectory()
procs = {script: subprocess.Popen(  # both at once: each is a separate process
              [sys.executable, str(EXAMPLE / script), "--epochs", "1", "--dry-run", "--save-model"],
              cwd=work.name, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
          for script in ("main.py", "main_gluon.py")}
runs = {}
for script, proc in procs.items():
    out, err = proc.communicate(timeout=600)
    runs[script] = subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
    print(f"$ python {script} --epochs 1 --dry-run --save-model\n{out}")

# %% [markdown]
# The Gluon file converts to a PyTorch state dict with [notebook 14](14_converting_models.ipynb)'s
# converter; the PyTorch network loaded from it tests like the Gluon network loaded from the
# file (on the 2 000 images of §5):

# %% tags=["nbval-ignore-output"]
folder = Path(work.name)
converted = convert.params_to_state_dict(
    folder / "mnist_cnn.params", folder / "from_gluon.pt", gluon_net=main_gluon.Net(),
    torch_net=main_torch.Net(), input_shape=(2, 1, 28, 28))
pt_reloaded = main_torch.Net()
pt_reloaded.load_state_dict(torch.load(folder / "from_gluon.pt"))
mx_reloaded = main_gluon.Net()
mx_reloaded.load_parameters(str(folder / "mnist_cnn.params"))
pt_of_gluon = main_torch.test(pt_reloaded, torch.device("cpu"),
                              torch.utils.data.DataLoader(pt_test_set, batch_size=1000))
mx_of_gluon = main_gluon.test(mx_reloaded, mx.cpu(),
                              gluon.data.DataLoader(mx_test_set, batch_size=1000))

# %%
logs = {s: r.stdout for s, r in runs.items()}
assert all(r.returncode == 0 for r in runs.values()), {s: r.stderr[-500:] for s, r in runs.items()}
assert all(log.count("Train Epoch: 1 [0/60000 (0%)]") == 1 for log in logs.values())
assert all(log.count("Accuracy: ") == 1 for log in logs.values())
assert abs(pt_of_gluon[0] - mx_of_gluon[0]) < 1e-5 and abs(pt_of_gluon[1] - mx_of_gluon[1]) <= 2
assert converted.checks[0].ok and (folder / "mnist_cnn.pt").exists()
work.cleanup()
"both scripts run with the same flags; the Gluon model tests the same in PyTorch"

# %% [markdown]
# ## Summary
#
# Every construct of `mnist/main.py`, and where the collection teaches its Gluon form:
#
# | PyTorch (`main.py`) | Gluon (`main_gluon.py`) | taught in |
# |---|---|---|
# | `class Net(nn.Module)`, `forward(x)` | `class Net(gluon.HybridBlock)`, `hybrid_forward(F, x)` | [6](06_blocks.ipynb) §1, [7](07_hybridize_export.ipynb) §1 |
# | `nn.Conv2d(1, 32, 3, 1)`, `nn.Linear(9216, 128)` | `nn.Conv2D(32, 3, 1, in_channels=1)`, `nn.Dense(128, in_units=9216)` | [6](06_blocks.ipynb) §1 |
# | default initialisation | `Xavier('uniform', 'in', magnitude=1)`, `Uniform(1/√fan_in)` | [6](06_blocks.ipynb) §2 |
# | `nn.Dropout(p)` | `nn.Dropout(p)`, active only inside `record()` | [5](05_autograd.ipynb) §2, [7](07_hybridize_export.ipynb) §2 |
# | `F.relu`, `F.max_pool2d(x, 2)`, `torch.flatten(x, 1)`, `F.log_softmax(x, dim=1)` | `F.relu`, `F.Pooling(x, kernel=(2, 2), stride=(2, 2), pool_type='max')`, `F.flatten(x)`, `F.log_softmax(x, axis=1)` | [7](07_hybridize_export.ipynb) §2 |
# | `F.nll_loss(out, y)`; `reduction='sum'` | `SoftmaxCrossEntropyLoss(from_logits=True)` per sample; `.sum()` | [10](10_losses.ipynb) |
# | `model.train()`; `optimizer.zero_grad()`; `loss.backward()`; `optimizer.step()` | `with autograd.record():`; —; `loss.backward()`; `trainer.step(batch_size)` | [3](03_mnist_mlp.ipynb), [8](08_optimizers_trainer.ipynb) |
# | `model.eval()`; `with torch.no_grad():` | nothing: outside `record()` | [5](05_autograd.ipynb) §2 |
# | `loss.item()`; `pred.eq(target.view_as(pred)).sum().item()` | `loss.mean().asscalar()`; `(pred == target.astype(pred.dtype)).sum().asscalar()` | [2](02_tensor_ops.ipynb), [5](05_autograd.ipynb) §6 |
# | `optim.Adadelta(params, lr=1.0)` | `gluon.Trainer(params, 'torchadadelta', {'learning_rate': 1.0})` (`sidebyside.optim`) | [8](08_optimizers_trainer.ipynb) §5 |
# | `StepLR(opt, step_size=1, gamma)`; `scheduler.step()` | `trainer.set_learning_rate(trainer.learning_rate * gamma)` | [8](08_optimizers_trainer.ipynb) §7 |
# | `datasets.MNIST(…, transform=Compose([ToTensor(), Normalize(m, s)]))` | `gluon.data.vision.MNIST(…).transform_first(Compose([ToTensor(), Normalize(m, s)]))` | [3](03_mnist_mlp.ipynb), [4](04_data_loading.ipynb) |
# | `DataLoader(…, num_workers, pin_memory, persistent_workers, shuffle)`; `len(loader.dataset)` | `DataLoader(…, num_workers, pin_memory, shuffle)`; keep the dataset's length | [4](04_data_loading.ipynb) §8 |
# | `torch.accelerator.is_available()`, `.to(device)` | `mx.context.num_gpus()`, `mx.gpu(0)`, `.as_in_context(ctx)` | [1](01_install_and_environment.ipynb) |
# | `torch.manual_seed(seed)` | `mx.random.seed(seed)`, `np.random.seed(seed)` | [3](03_mnist_mlp.ipynb) |
# | `torch.save(model.state_dict(), "mnist_cnn.pt")` | `model.save_parameters("mnist_cnn.params")`; either converts to the other | [13](13_serialization.ipynb), [14](14_converting_models.ipynb) |
#
# ## Exercises
#
# 1. Port the slip of §6 the other way: give PyTorch's `Adadelta` `eps=1e-5` and Gluon's the
#    default. At which step does the float64 gap first exceed 1e-12?
# 2. Switch dropout off with `autograd.record(train_mode=False)` instead of replacing the
#    layers (edit a copy of `lockstep._gluon_step`, and let `without_dropout` replace only
#    PyTorch's layers), and run the lockstep again for 20 steps, in float64 and in float32.
#    How large is the gap in each, and which layers' gradients are wrong?
# 3. Train `main_gluon.py` for one full epoch with its defaults and compare its test accuracy
#    with `main.py`'s. Then run `python -m sidebyside.convert mnist_cnn.pt mnist_cnn.params …`
#    ([notebook 14](14_converting_models.ipynb) §4 gives the flags) and test the converted Gluon model.

# %% [markdown]
# :::{dropdown} Solutions
# 1. `torch.optim.Adadelta = functools.partial(torch.optim.Adadelta, eps=1e-5)` (restore it
#    afterwards), then `lockstep.run(batches[:20], "float64", check_every=1)`: the relative
#    weight gap is 0.33 after step 1 — the first step — against 1e-15 for the faithful port; the
#    loss gap shows from step 2 (2.0), as each step's loss is computed before its update.
#    Adadelta's first step is about √(ε/(1−ρ)) per weight (gradients ≫ √ε): √10 times larger.
# 2. float64: no harm — the gap stays at 1.1e-15 after 20 steps and every layer's gradient
#    agrees to 2e-15 (float64 max pooling does not take the faulty oneDNN path,
#    [notebook 5](05_autograd.ipynb) §2). float32: 0.075 after one step and 0.86 after 20 (the faithful
#    float32 run: 6e-6 and 1.5e-5); `conv1` and `conv2` gradients are off by about 100 %,
#    `fc1`/`fc2` agree to 2e-6 — the max-pooling backward misroutes the gradient below it.
# 3. Reduced on this shared 2-core machine (100 batches took 40–100 s): `--max-batches 100`:
#    `main.py` 7939/10000 (loss 0.556), `main_gluon.py` 7996/10000 (0.535) — alike, not equal
#    (other random weights and dropout masks). `PYTHONPATH=examples/mnist python -m
#    sidebyside.convert mnist_cnn.pt mnist_cnn.params --torch main:Net --gluon main_gluon:Net
#    --input-shape 2,1,28,28` (in a folder of its own: it would replace the Gluon run's file)
#    checks 3e-6, and the Gluon model tests exactly as PyTorch's: 7939/10000, loss 0.5563.
# :::
