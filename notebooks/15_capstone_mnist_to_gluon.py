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
# - how to *prove* a port: train both from the same weights on the same batches, with the
#   same dropout masks (`sidebyside.samerandom`), step for step — in float64 they must agree
#   to rounding, and a porting error shows up as a jump; in float32 the gap is judged against
#   each framework's own float32-vs-float64 drift ([notebook 3](03_mnist_mlp.ipynb) §4);
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
import functools
import inspect
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path
from unittest import mock

import matplotlib.pyplot as plt
import mxnet as mx
import numpy as np
import torch
import torch.nn.functional as F
from mxnet import autograd, gluon

from sidebyside import convert, data, devices, samerandom, seeding, transfer
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
# - PyTorch's default initialisation of `Conv2d` and `Linear` — the only layers with weights
#   here — written out for Gluon by `torch_init`: U(±1/√fan_in) for weight and bias, as
#   Xavier-uniform on fan-in with magnitude 1 for weights and `Uniform(1/√fan_in)` for biases.
#   The rule is those layers' only: PyTorch's LSTM/GRU/RNN draw every weight and bias from
#   U(±1/√hidden), its `Embedding` from N(0, 1) ([notebook 6](06_blocks.ipynb) §2);
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
# distributions for `Conv2d` and `Linear` — every weight and bias within ±1/√fan_in, with the standard deviation of that
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
# float64 (§6 runs 60 of them).

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
# The check: each script's own `main()` for four epochs, with its `train` replaced by a
# recorder of the learning rate the epoch trains with (and its `test` by nothing), so that
# the schedule checked is the scripts' — PyTorch's `StepLR` against the port's
# `set_learning_rate` after each epoch.

# %%
def epoch_rates(script, rate_of):
    """The learning rate of each epoch of `script.main()`, training and testing skipped."""
    rates = []

    def train(args, model, device, loader, optimizer, epoch, *rest):   # both scripts' order
        rates.append(rate_of(optimizer))

    with mock.patch.object(script, "train", train), \
            mock.patch.object(script, "test", lambda *args: (0.0, 0)), \
            warnings.catch_warnings():
        warnings.simplefilter("ignore")   # StepLR warns: no optimizer.step() in a recorder
        script.main(["--epochs", "4", "--gamma", "0.7", "--no-accel"])
    return rates


pt_rates = epoch_rates(main_torch, lambda opt: opt.param_groups[0]["lr"])
mx_rates = epoch_rates(main_gluon, lambda trainer: trainer.learning_rate)
assert len(pt_rates) == len(mx_rates) == 4
assert np.allclose(pt_rates, mx_rates, rtol=1e-15) and np.isclose(mx_rates[-1], 0.7 ** 3)
"main() of both scripts: the same learning rate in every epoch"

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
# feeds them the same batches of 16 images, and after every step compares the losses (and
# every tenth step the weights, relative to their size). Dropout stays on, as the scripts
# train — PyTorch in `model.train()`, Gluon inside `autograd.record()` — and there lies the
# catch: each framework draws its masks from its own generator, so the two runs part at the
# first step, whatever the seeds. `sidebyside.samerandom` makes both draw the same numbers:
# one `Draws(seed)` source, one `stream` per run, and `use_same_dropout(net, stream)`
# replaces every dropout layer by one of the same rate whose masks come from the stream.
# NumPy makes every mask; draw *k* is the same array in every stream, and a run that asks for
# another shape at draw *k* is stopped with both requests named. (Switching dropout off
# instead with Gluon's `record(train_mode=False)` is not safe: under it MXNet's max-pooling
# backward is wrong, [notebook 5](05_autograd.ipynb) §2.) What the lockstep does to each pair
# of networks:

# %%
draws = samerandom.Draws(SEED)
pt_same, mx_same = main_torch.Net(), main_gluon.Net()
mx_same.initialize()
replaced = {"PyTorch": samerandom.use_same_dropout(pt_same, draws.stream("PyTorch")),
            "Gluon": samerandom.use_same_dropout(mx_same, draws.stream("Gluon"))}
assert replaced["PyTorch"] == replaced["Gluon"] == ["dropout1", "dropout2"]
assert isinstance(mx_same.dropout2, gluon.nn.Dropout) and mx_same.dropout2._rate == 0.5
(replaced, pt_same.dropout1, mx_same.dropout1)

# %% [markdown]
# Its step functions are the scripts' lines:

# %%
print(inspect.getsource(lockstep._torch_step))
print(inspect.getsource(lockstep._gluon_step))

# %% [markdown]
# **float64**, three steps with each framework drawing its own masks, and with the same masks;
# then the port's one plausible slip — MXNet's `epsilon` default (1e-5) where PyTorch has 1e-6
# — which shows in the weights after the first step (the first step's loss is computed
# before its update, so the losses part from the second):

# %% tags=["nbval-ignore-output"]
batches = lockstep.batches(60, 16)
own = lockstep.run(batches[:3], "float64", dropout="own", check_every=1)
same = lockstep.run(batches[:3], "float64", dropout="same", check_every=1)
slip = lockstep.run(batches[:3], "float64", check_every=1, gluon_optimizer_args={"epsilon": 1e-5})
{name: {"loss gaps": r.loss_gap.tolist(), "weight gaps": r.weight_gap.tolist()}
 for name, r in {"own masks": own, "same masks": same, "same masks, epsilon 1e-5": slip}.items()}

# %%
assert own.loss_gap[0] > 1e-4 and own.weight_gap[0] > 1e-3       # apart from the first step
assert same.loss_gap.max() < 1e-12 and same.weight_gap.max() < 1e-12
assert same.checked_at.tolist() == slip.checked_at.tolist() == [1, 2, 3]
assert slip.loss_gap[0] < 1e-12 and slip.weight_gap[0] > 1e6 * same.weight_gap[0]
"float64: own masks part at once; the same masks agree to rounding; the slip shows at step 1"

# %% [markdown]
# Then the whole proof, 60 steps: `lockstep.drift` trains four runs — PyTorch and Gluon, each
# in float32 and float64, all with the same masks — and judges them with `sidebyside.drift`
# ([notebook 3](03_mnist_mlp.ipynb) §4): the float64 pair must agree to rounding; the float32
# gap between the scripts must stay within 2 × the larger of each framework's own
# float32-vs-float64 drift, in the losses at every step and in the weights every tenth.
# (`python examples/mnist/lockstep.py --steps 200` runs the longer proof from the command
# line and exits with status 1 when the port fails it.)

# %% mystnb={"image": {"alt": "Largest relative weight gap over 100 lockstep steps on a log scale: Gluon against PyTorch in float64 stays at rounding level, below 1e-12; in float32 the gap between the scripts rises by many orders of magnitude, within the reach of the two frameworks' own float32-vs-float64 drifts."}} tags=["nbval-ignore-output"]
judged = lockstep.drift(batches, check_every=10)
w = judged.weights
fig, ax = plt.subplots(figsize=(7, 3.5))
for values, label in [(w.float64_gap, "Gluon vs PyTorch, float64"),
                      (w.gap, "Gluon vs PyTorch, float32 (the gap)"),
                      (w.gluon_drift, "Gluon float32 vs Gluon float64"),
                      (w.torch_drift, "PyTorch float32 vs PyTorch float64")]:
    ax.semilogy(w.steps, np.maximum(values, 1e-17), marker="o", ms=3, label=label)
ax.set(xlabel="training step", ylabel="largest relative weight gap",
       title="Lockstep training: the gap and each framework's own drift")
ax.legend(fontsize=8)
plt.show()
print(judged.loss, judged.weights, sep="\n")
print(f"loss {judged.losses[0, 1]:.3f} -> {judged.losses[-20:, 1].mean():.3f} (PyTorch "
      f"float64, last 20 steps); {judged.seconds:.0f} s")

# %%
assert judged.loss.float64_gap.max() < 1e-12 and judged.weights.float64_gap.max() < 1e-12
assert judged.losses[-20:, 1].mean() < 0.7 * judged.losses[:20, 1].mean()      # it learns
judged.loss.check()
judged.weights.check()
assert judged.loss.gluon_drift.max() > 10 * judged.loss.torch_drift.max()
"the port: float64 to ~1e-15 for 60 steps; float32 within 2 × the drift, MXNet's the larger"

# %% [markdown]
# The float32 gap between the scripts grows far beyond float32's rounding within sixty
# steps (the figure), and it is not a porting error: Gluon's float32 run is as far from
# Gluon's own float64 run. PyTorch's float32 stays closer to its float64 run here (which
# framework drifts more depends on the CPU's kernels, [notebook 3](03_mnist_mlp.ipynb) §4),
# so a yardstick made of PyTorch alone — PyTorch trained again with its weights nudged by
# 1e-7, say — would call this faithful port broken; the larger of the two drifts is the one
# to judge by. Only
# float64 tells a faithful port from a slightly wrong one at every step; the float32
# judgement says the float32 gap is what float32 does.
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
# | default initialisation of `Conv2d`, `Linear`: U(±1/√fan_in) (not LSTM/GRU/RNN, `Embedding`) | `Xavier('uniform', 'in', magnitude=1)`, `Uniform(1/√fan_in)` | [6](06_blocks.ipynb) §2 |
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
# To get this list for your own script:
# `python -m sidebyside.migrate your_script.py --to gluon`
# ([notebook 21](21_migrate_your_script.ipynb) walks through it).
#
# ## Exercises
#
# 1. Port the slip of §6 the other way: give PyTorch's `Adadelta` `eps=1e-5` and Gluon's the
#    default. After which step does the float64 weight gap exceed 1e-12, and from which step
#    the loss gap?
# 2. Switch dropout off with `autograd.record(train_mode=False)` instead of replacing the
#    layers: one training step from the same weights, PyTorch with `lockstep.without_dropout`
#    and Gluon under `record(train_mode=False)`, in float64 and in float32. Which layers'
#    gradients agree, and which do not?
# 3. Train `main_gluon.py` for one full epoch with its defaults and compare its test accuracy
#    with `main.py`'s. Then run `python -m sidebyside.convert mnist_cnn.pt mnist_cnn.params …`
#    ([notebook 14](14_converting_models.ipynb) §4 gives the flags) and test the converted Gluon model.

# %% [markdown]
# :::{dropdown} Solutions
# 1. `mock.patch.object(torch.optim, "Adadelta", functools.partial(torch.optim.Adadelta,
#    eps=1e-5))` around `lockstep.run(batches[:3], "float64", check_every=1)`: the relative
#    weight gap is about 0.3 after step 1 — the first step — against ~1e-15 for the faithful
#    port; the loss gap shows from step 2 (about 2), as each step's loss is computed before its
#    update. Adadelta's first step is about √(ε/(1−ρ)) per weight (gradients ≫ √ε): √10 times
#    larger. The first cell below checks it.
# 2. float64: no harm — every layer's gradient agrees to ~1e-15 (float64 max pooling does not
#    take the faulty oneDNN path, [notebook 5](05_autograd.ipynb) §2). float32: the `conv1`
#    and `conv2` gradients are wrong, while `fc1`/`fc2` agree to ~1e-6: the max-pooling
#    backward misroutes the gradient below it. How wrong changes from run to run on the same
#    batch (relative errors from 0.3 to 1.1 in 28 repeats on this machine, 2026-12-01), so the
#    second cell asserts only that it is far beyond rounding.
# 3. Measured once, not re-run here (a shared 2-core x86-64 machine, 2026-12-01; a full epoch
#    takes long there, so `--max-batches 100`, about 2–3 minutes per script under load):
#    `main.py` 7954/10000 (average loss 0.5534), `main_gluon.py` 7987/10000 (0.5423) — alike,
#    not equal (other initial weights and dropout masks). `PYTHONPATH=examples/mnist python -m
#    sidebyside.convert mnist_cnn.pt mnist_cnn.params --torch main:Net --gluon main_gluon:Net
#    --input-shape 2,1,28,28` (in a folder of its own: it would replace the Gluon run's file)
#    checks the outputs to 3.3e-6, and the converted Gluon model tests exactly as PyTorch's:
#    7954/10000, loss 0.5534.
# :::
#
# **Solutions** 1 and 2, run with asserts: the two cells below (folded away in the book: open
# each one); each ends with its answer.

# %% tags=["hide-cell"]
with mock.patch.object(torch.optim, "Adadelta",
                       functools.partial(torch.optim.Adadelta, eps=1e-5)):
    other_way = lockstep.run(batches[:3], "float64", check_every=1)
assert other_way.weight_gap[0] > 0.1 and other_way.loss_gap[0] < 1e-12
assert other_way.loss_gap[1] > 0.5
"1. eps=1e-5 in PyTorch: the weights part after step 1, the losses from step 2"

# %% tags=["hide-cell"]
def predict_mode_gradients(dtype):
    """One step's weight gradients: PyTorch with rate-0 dropout, Gluon under
    record(train_mode=False); the relative difference per layer."""
    torch.manual_seed(1)
    pt_model = main_torch.Net().to(getattr(torch, dtype))
    lockstep.without_dropout(pt_model)
    mx_model = main_gluon.Net()
    mx_model.initialize()
    mx_model.cast(dtype)
    transfer.torch_to_gluon(pt_model, mx_model)
    x, y = batches[0]
    F.nll_loss(pt_model(torch.from_numpy(x.astype(dtype))), torch.from_numpy(y).long()).backward()
    with autograd.record(train_mode=False):
        mx_loss = main_gluon.nll_loss(mx_model(mx.nd.array(x, dtype=dtype)), mx.nd.array(y))
    mx_loss.backward()
    errors = {}
    for layer in ("conv1", "conv2", "fc1", "fc2"):
        pt_grad = getattr(pt_model, layer).weight.grad.double().numpy()
        mx_grad = getattr(mx_model, layer).weight.grad().asnumpy() / len(y)   # sum → mean
        errors[layer] = float(np.abs(pt_grad - mx_grad).max() / np.abs(pt_grad).max())
    return errors


grads64, grads32 = predict_mode_gradients("float64"), predict_mode_gradients("float32")
assert max(grads64.values()) < 1e-12
assert grads32["conv1"] > 0.1 and grads32["conv2"] > 0.1     # varies: 0.3 to 1.1 seen
assert grads32["fc1"] < 1e-4 and grads32["fc2"] < 1e-4
"2. record(train_mode=False): float64 fine; float32 conv gradients wrong, fc ones fine"
