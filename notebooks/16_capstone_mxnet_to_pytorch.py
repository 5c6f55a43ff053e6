# %% [markdown]
# # 16 · Capstone: porting a legacy MXNet script to PyTorch
#
# **What you will learn**
#
# - how a typical legacy MXNet training script — MXNet's own
#   `example/gluon/image_classification.py`: a model-zoo ResNet initialised with
#   `Xavier(magnitude=2.24)`, `mx.io` iterators, `split_and_load` over a context list,
#   `Trainer('sgd', …, kvstore=…)`, `mx.metric.Accuracy`, three modes (`imperative`, `hybrid`,
#   and `symbolic`, which trains through the Module API), the deprecated `save_params` —
#   becomes a PyTorch script with the same flags and the same behaviour;
# - what the legacy script does that its code does not say, and the port must copy: the
#   iterator's /256 pixels and fixed shuffle, `Module.fit`'s defaults, MXNet's float32
#   optimizer coefficients, BatchNorm's biased running variance;
# - how to prove the port: the same weights (copied Gluon → PyTorch), the same batches, step
#   for step — in float64 to rounding, in float32 within each framework's own drift
#   ([notebook 3](03_mnist_mlp.ipynb) §4) — and a checkpoint the legacy script saved,
#   converted, testing the same.
#
# Both scripts are files, runnable on their own, in `examples/image_classification/`:
# `image_classification.py` (the legacy script as this collection runs it, offline; see that
# folder's `README.md`) with its `data.py`, and `main_torch.py` (the port). MXNet has been
# retired since 2023: this is the direction most readers now travel.
#
# **Prerequisites**: notebooks [3](03_mnist_mlp.ipynb), [8](08_optimizers_trainer.ipynb),
# [10](10_losses.ipynb) and [11](11_metrics.ipynb) (the loop, the `Trainer`, the loss and
# the metric it ports). **Time**: about 25 minutes.

# %% tags=["nbval-ignore-output"]
import itertools
import math
import os
import re
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

import matplotlib.pyplot as plt
import mxnet as mx
import numpy as np
import torch
from mxnet import autograd, gluon
from mxnet.gluon.model_zoo import vision as models
from torchmetrics.classification import MulticlassAccuracy

from sidebyside import convert, data, devices, seeding, transfer

EXAMPLE = Path("..", "examples", "image_classification").resolve()
sys.path.insert(0, str(EXAMPLE))
import lockstep  # noqa: E402  (examples/image_classification/lockstep.py)

main_torch = lockstep.main_torch
LEGACY = (EXAMPLE / "image_classification.py").read_text().splitlines()
SEED = seeding.seed_everything(0)
devs = devices.pick()
pt_dev, mx_ctx = devs.torch.device, devs.mxnet.device


def legacy(first, last=None, after=None):
    """Print the legacy script's lines from the one matching ``first`` to the one matching
    ``last`` (inclusive; one line if ``last`` is None), searching from the line matching
    ``after`` on (default: the top)."""
    begin = 0 if after is None else next(
        i for i, line in enumerate(LEGACY) if re.search(after, line))
    start = next(i for i in range(begin, len(LEGACY)) if re.search(first, LEGACY[i]))
    end = start if last is None else next(
        i for i in range(start, len(LEGACY)) if re.search(last, LEGACY[i]))
    print("\n".join(LEGACY[start:end + 1]))

# %% [markdown]
# ## 1. The network: model zoo → torchvision
#
# **MXNet** (`image_classification.py`): a name, a class count and a flag go to the model zoo.

# %%
legacy(r"^kwargs = ", r"net = models.get_model")

# %% [markdown]
# Gluon's `resnet18_v1` and torchvision's `resnet18` are the same v1 ResNet: the same
# layers in the same order, other names (`features.0` ↔ `conv1`, `output` ↔ `fc`). Two
# details differ: Gluon infers the first convolution's input channels from the data (one,
# for Fashion-MNIST), torchvision fixes three. **PyTorch** (`main_torch.get_model`):

# %%
mx_net = lockstep.gluon_net("resnet18_v1", dtype="float64")      # Xavier(magnitude=2.24)
pt_net = main_torch.get_model("resnet18_v1", 10, in_channels=1).double()
copied = transfer.gluon_to_torch(mx_net, pt_net, by="order")   # (PyTorch name, Gluon name)
copied[:3] + copied[-1:]

# %% [markdown]
# The check: every layer's weights arrived, and both networks give the same logits in float64
# (training-mode BatchNorm, as the first training step sees them):

# %%
x64 = lockstep.batches(1, 8, train=False)[0][0]
pairs = transfer.pair_layers(pt_net, mx_net, by="order")
for p in pairs:                               # every tensor of every layer, bit for bit
    for pt_attr, mx_attr in p.names():
        pt_value, mx_value = getattr(p.torch_layer, pt_attr), getattr(p.gluon_layer, mx_attr)
        if pt_value is None:                   # a convolution without bias, on both sides
            assert mx_value is None
            continue
        assert np.array_equal(pt_value.detach().numpy(), mx_value.data().asnumpy()), p.torch_name
with autograd.record():                      # BatchNorm on batch statistics, as in training
    mx_logits = mx_net(mx.nd.array(x64, dtype="float64")).asnumpy()
pt_net.train()
pt_logits = pt_net(torch.from_numpy(x64)).detach().numpy()
assert np.abs(pt_logits - mx_logits).max() < 1e-12 * np.abs(mx_logits).max()
f"{len(pairs)} layers copied exactly; float64 logits agree"

# %% [markdown]
# `--use_thumbnail` swaps the 7×7 stride-2 convolution and max-pooling for one 3×3 stride-1
# convolution — with no BatchNorm or ReLU after it; the port replaces those by `Identity`.
# And from ResNet-50 on, Gluon's v1 bottleneck strides its *first* 1×1 convolution, where
# torchvision's (the "v1.5" layout) strides the 3×3 one: the same weights, different outputs.
# The converter notices:

# %% tags=["raises-exception"]
mx50 = models.get_model("resnet50_v1", classes=10)
mx50.initialize()
mx50(mx.nd.zeros((1, 1, 28, 28)))
plain50 = main_torch.RESNETS["resnet50_v1"][0](num_classes=10)
plain50.conv1 = torch.nn.Conv2d(1, 64, 7, 2, 3, bias=False)
transfer.gluon_to_torch(mx50, plain50, by="order")

# %%
stride_error = sys.last_value          # what the cell above raised (IPython keeps it)
assert isinstance(stride_error, transfer.ArchitectureMismatch)
assert "'layer2.0.conv1'" in str(stride_error) and "stride differs" in str(stride_error)
"the converter stops at the first layer whose stride moved"

# %% [markdown]
# Gluon's bottleneck also gives its two 1×1 convolutions biases. `main_torch.get_model` moves
# the stride and adds the biases, and the outputs match:

# %%
x32 = torch.from_numpy(x64.astype(np.float32))
shapes = {}
for name, thumb in (("resnet50_v1", False), ("resnet18_v1", True)):
    mx_model = models.get_model(name, classes=10, thumbnail=thumb)
    mx_model.initialize(mx.init.Xavier(magnitude=2.24))
    mx_model(mx.nd.zeros((1, 1, 28, 28)))
    pt_model = main_torch.get_model(name, 10, thumbnail=thumb, in_channels=1).eval()
    transfer.gluon_to_torch(mx_model, pt_model, by="order")
    with torch.no_grad():
        pt_out = pt_model(x32).numpy()
    mx_out = mx_model(mx.nd.array(x32.numpy())).asnumpy()
    assert np.abs(pt_out - mx_out).max() < 1e-4 * np.abs(mx_out).max(), name
    shapes[f"{name}{', thumbnail' if thumb else ''}"] = "same logits (float32, eval mode)"
shapes

# %% [markdown]
# ## 2. The initialisation: `Xavier(magnitude=2.24)`
#
# **MXNet**:

# %%
legacy(r"net.initialize\(")

# %% [markdown]
# MXNet's `Xavier` draws uniformly within ±√(magnitude / ((fan_in + fan_out)/2)); PyTorch's
# `xavier_uniform_` within ±gain·√(6 / (fan_in + fan_out)). They meet at
# gain = √(magnitude/3) — **not** √magnitude ([notebook 6](06_blocks.ipynb) §2 has every
# `Xavier` combination). MXNet's initialiser also leaves biases at 0 and BatchNorm at γ=1,
# β=0; PyTorch's `Linear` draws its bias, so the port zeroes it. **PyTorch**
# (`main_torch.init_like_mxnet`):

# %%
print(main_torch.init_like_mxnet.__doc__)
fresh = main_torch.get_model("resnet18_v1", 10, in_channels=1)
torch.manual_seed(0)
main_torch.init_like_mxnet(fresh, main_torch.xavier_224)

# %%
def xavier_bound(shape, magnitude=2.24):
    receptive = math.prod(shape[2:])
    return math.sqrt(magnitude / ((shape[0] + shape[1]) * receptive / 2))


mx_weights = {p.torch_name: p.gluon_layer.weight.data().asnumpy() for p in pairs
             if p.kind in ("conv2d", "dense")}
ratios = {}
for name, module in fresh.named_modules():
    if isinstance(module, (torch.nn.Conv2d, torch.nn.Linear)):
        bound = xavier_bound(tuple(module.weight.shape))
        ratios[name] = (module.weight.abs().max().item() / bound,
                        np.abs(mx_weights[name]).max() / bound)
assert all(0.98 < r <= 1 for pair in ratios.values() for r in pair)
assert fresh.fc.bias.abs().max() == 0 and fresh.bn1.weight.min() == 1
"both frameworks fill each layer's ±bound; biases 0, BatchNorm γ=1"

# %% [markdown]
# ## 3. The data: `mx.io.MNISTIter` → `Dataset` + `DataLoader`
#
# **MXNet** (`data.py`):

# %%
print((EXAMPLE / "data.py").read_text().split("def mnist_iterator")[1].split("def cifar10")[0])

# %% [markdown]
# Three things the iterator does that the call does not say ([notebook 18](18_legacy_data_recordio.ipynb)
# §2 shows each): it divides pixels by **256**; it shuffles the training set **once**, so
# every epoch sees the same order; and it drops the last partial batch — the validation loop
# sees 312 × 32 = 9 984 of the 10 000 test images. The validation iterator is shuffled too —
# `MNISTIter` shuffles unless told not to — so which 16 images it drops is its own choice;
# the port reads them in file order. **PyTorch** (`main_torch.IDXImages`, `OneShuffle`,
# `mnist_loaders`), checked against an `MNISTIter` in file order:

# %%
data.prepare()
raw = data.raw_dir()
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    mx_val = mx.io.MNISTIter(image=str(raw / "t10k-images-idx3-ubyte"),
                             label=str(raw / "t10k-labels-idx1-ubyte"),
                             input_shape=(1, 32, 32), batch_size=32, flat=False, silent=True)
    mx_val_in_order = mx.io.MNISTIter(image=str(raw / "t10k-images-idx3-ubyte"),
                                      label=str(raw / "t10k-labels-idx1-ubyte"),
                                      batch_size=32, flat=False, shuffle=False, silent=True)
pt_train, pt_val = main_torch.mnist_loaders(data.dataset_name(), 32, seed=123)

# %%
mx_batch = next(iter(mx_val_in_order))
pt_x, pt_y = next(iter(pt_val))
mx_count = sum(1 for _ in mx_val)
assert np.array_equal(mx_batch.data[0].asnumpy(), pt_x.numpy())         # pixels / 256, exactly
assert np.array_equal(mx_batch.label[0].asnumpy(), pt_y.numpy())
mx_val.reset()
assert not np.array_equal(next(iter(mx_val)).label[0].asnumpy(), pt_y.numpy())   # shuffled
assert mx_count == len(pt_val) == 312 and len(pt_train) == 1875
assert len(set(main_torch.OneShuffle(60000, 123, 32).order)) == 60000
"the same pixels and labels; 312 validation batches on both sides"

# %% [markdown]
# ## 4. The training step: `Trainer('sgd')` → `optim.SGD`
#
# **MXNet**:

# %%
legacy(r"trainer = gluon.Trainer", r"kvstore=opt.kvstore\)")
legacy(r"with ag.record", r"trainer.step")

# %% [markdown]
# `SoftmaxCrossEntropyLoss` gives one loss per sample; `backward()` on them sums the
# gradients and `trainer.step(batch_size)` divides by the batch: the mean's gradient, as
# `F.cross_entropy` gives ([notebook 8](08_optimizers_trainer.ipynb)). Gluon's weight decay
# applies to every parameter, biases and BatchNorm included, as `optim.SGD(weight_decay=…)`
# does. **PyTorch** (`main_torch.train`):
#
# ```python
# optimizer = torch.optim.SGD(model.parameters(), lr=lr, weight_decay=wd)
# ...
# optimizer.zero_grad()
# out = model(x)
# F.cross_entropy(out, y).backward()
# optimizer.step()
# ```
#
# One step from the same weights on the same batch, in float64, three ways: with a learning
# rate and weight decay that float32 holds exactly (2⁻⁷, 2⁻¹³), with the script's 0.01 and
# 1e-4 rounded to float32 on the PyTorch side (what `lockstep.run` does), and unrounded:

# %% tags=["nbval-ignore-output"]
one = lockstep.batches(1, 32)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    steps = {"lr 2⁻⁷, wd 2⁻¹³": lockstep.run(one, lr=2 ** -7, wd=2 ** -13),
             "lr 0.01, wd 1e-4, float32-rounded": lockstep.run(one, lr=0.01, wd=1e-4),
             "lr 0.01, wd 1e-4, unrounded": lockstep.run(
                 one, lr=0.01, wd=1e-4, port_args={"lr": 0.01, "weight_decay": 1e-4})}
{k: f"weights {r.weight_gap_of('gluon').max():.1e}" for k, r in steps.items()}

# %% [markdown]
# MXNet's `sgd_update` takes its learning rate and weight decay as float32 numbers, even for
# float64 weights: 0.01 becomes 0.009999999776…. Given the same rounded numbers, PyTorch's
# float64 step is MXNet's to rounding; given 0.01, it is off by float32's rounding of the
# learning rate. No porting error — but a float64 parity check must know it
# ([notebook 17](17_legacy_module_api.ipynb) §3 finds the same in `Module.fit`).

# %%
gap = {k: r.weight_gap_of("gluon").max() for k, r in steps.items()}
assert gap["lr 2⁻⁷, wd 2⁻¹³"] < 1e-13
assert gap["lr 0.01, wd 1e-4, float32-rounded"] < 1e-13
assert gap["lr 0.01, wd 1e-4, unrounded"] > 1e-10
"float64 steps agree once PyTorch gets MXNet's float32 learning rate and weight decay"

# %% [markdown]
# ## 5. BatchNorm's running variance
#
# Both frameworks update the running statistics with the same weight (MXNet's
# `momentum=0.9` is PyTorch's `momentum=0.1`), but of different variances: MXNet keeps the
# *biased* batch variance (÷n), PyTorch the *unbiased* one (÷(n−1)). And MXNet updates them
# only when the backward pass runs. **MXNet** and **PyTorch**, one training-mode batch of four
# through a fresh layer:

# %%
x_bn = np.arange(12, dtype=np.float64).reshape(4, 3, 1, 1) ** 1.5
mx_bn = gluon.nn.BatchNorm(in_channels=3)
mx_bn.initialize()
mx_bn.cast("float64")
with autograd.record():
    y_bn = mx_bn(mx.nd.array(x_bn, dtype="float64"))
mx_var_forward = mx_bn.running_var.data().asnumpy()
y_bn.backward()
mx_var = mx_bn.running_var.data().asnumpy()
pt_bn = torch.nn.BatchNorm2d(3).double().train()
pt_bn(torch.from_numpy(x_bn))
pt_var = pt_bn.running_var.numpy()

# %%
biased, unbiased = x_bn.var(axis=(0, 2, 3)), x_bn.var(axis=(0, 2, 3), ddof=1)
assert np.array_equal(mx_var_forward, np.ones(3))                 # not yet: no backward
assert np.allclose(mx_var, 0.9 + 0.1 * biased, rtol=1e-6)         # ÷n (momentum as float32)
assert np.allclose(pt_var, 0.9 + 0.1 * unbiased, rtol=1e-12)     # ÷(n−1)
"running variance: MXNet ÷n, after backward; PyTorch ÷(n−1), in forward"

# %% [markdown]
# Training itself uses the batch statistics and is unaffected; a network trained from scratch
# in each framework evaluates slightly differently, and a *converted* checkpoint carries
# MXNet's statistics over unchanged (§8), so it tests the same. The lockstep below measures
# the running statistics apart from the weights.
#
# ## 6. The metric and the log lines
#
# **MXNet**:

# %%
legacy(r"metric.update\(label, outputs\)", r"epoch, i, batch_size", after=r"^def train\(")

# %% [markdown]
# **PyTorch**: `torchmetrics`' `MulticlassAccuracy(average='micro')` is `mx.metric.Accuracy`
# — the fraction of right answers over everything seen since `reset()`
# ([notebook 11](11_metrics.ipynb); `average='macro'`, its default, is another number). The
# port keeps the log lines' format, so tools that parse them keep working:

# %%
logits = np.random.default_rng(0).normal(size=(64, 10))
labels = np.random.default_rng(1).integers(0, 10, 64)
mx_acc = mx.metric.Accuracy()
mx_acc.update([mx.nd.array(labels)], [mx.nd.array(logits)])
pt_acc = MulticlassAccuracy(num_classes=10, average="micro")
pt_acc.update(torch.from_numpy(logits), torch.from_numpy(labels))
pt_macro = MulticlassAccuracy(num_classes=10)(torch.from_numpy(logits), torch.from_numpy(labels))

# %%
assert mx_acc.get()[1] == (logits.argmax(1) == labels).mean()
assert abs(pt_acc.compute().item() - mx_acc.get()[1]) < 1e-7
assert abs(pt_macro.item() - mx_acc.get()[1]) > 1e-3
"micro accuracy = mx.metric.Accuracy; torchmetrics' default (macro) is not"

# %% [markdown]
# ## 7. Lockstep: the port trains like the legacy script
#
# `lockstep.drift` copies the legacy network's weights (Xavier-initialised by MXNet) into the
# port's and trains four runs on the same batches of 32 in the same order — the legacy network
# and the port, each in float32 and in float64 — comparing after every step the losses, the
# largest weight difference relative to the weight's size, and, separately, the float64
# BatchNorm running statistics. Its step functions are the scripts' own lines (§4). The
# judgement is [notebook 3](03_mnist_mlp.ipynb) §4's: the float64 pair must agree to rounding,
# and the float32 gap must stay within 2 × the larger of each framework's own
# float32-vs-float64 drift. Beside it, a port that forgot the weight decay, in float64. Ten
# steps:

# %% mystnb={"image": {"alt": "Largest relative weight gap over 10 lockstep steps on a log scale: MXNet against the PyTorch port in float64 stays near 1e-12, while in float32 the gap between them, MXNet's own float32-vs-float64 drift and the port's all grow to order 1, the gap on top of MXNet's drift."}} tags=["nbval-ignore-output"]
batch_list = lockstep.batches(10, 32)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    judged = lockstep.drift(batch_list, check_every=1)
    slip = lockstep.run(batch_list[:2], "float64", check_every=1,
                        port_args={"weight_decay": 0.0})        # a port that forgot wd
w = judged.weights
fig, ax = plt.subplots(figsize=(7, 3.5))
for values, style, label in [(w.float64_gap, "o-", "float64: MXNet vs port"),
                             (w.gap, "s-", "float32: MXNet vs port (the gap)"),
                             (w.gluon_drift, "^-", "MXNet float32 vs MXNet float64"),
                             (w.torch_drift, "v-", "port float32 vs port float64")]:
    ax.semilogy(w.steps, values, style, label=label)
ax.set(xlabel="training step", ylabel="largest relative weight gap")
ax.legend(fontsize=8)
plt.show()
print(judged.loss, judged.weights, sep="\n")
print(f"float64 running statistics {judged.running_gaps.max():.1e}; forgotten weight decay: "
      f"{slip.weight_gap_of('gluon')[0]:.1e} after one step, "
      f"{slip.weight_gap_of('gluon')[1]:.1e} after two, against MXNet's float32 drift "
      f"{w.gluon_drift[0]:.1e} and {w.gluon_drift[1]:.1e}")

# %%
assert judged.loss.float64_gap.max() < 1e-10 and w.float64_gap.max() < 1e-10
assert np.all((1e-3 < judged.running_gaps) & (judged.running_gaps < 0.1))   # ÷n, ÷(n−1): §5
judged.loss.check()
w.check()
# from the first forward: 4 x on an Intel Xeon, over 10 x on an AMD EPYC (2026-12-03)
assert judged.loss.gluon_drift[0] > 2 * judged.loss.torch_drift[0]
slip_gap = slip.weight_gap_of("gluon")
assert slip_gap[0] > 1e-7 and slip_gap[0] < w.gluon_drift[0]      # hidden from step 1 on
assert slip_gap[1] < w.gluon_drift[1] / 1000                       # and far below from step 2
"float64 to ~1e-11; float32 within the drift; a forgotten weight decay: float64 sees it, float32 cannot"

# %% [markdown]
# The float32 gaps are large because the measure is relative per tensor, and BatchNorm's β
# start at zero: a few steps of rounding noise are a large fraction of them — on every line.
# MXNet's float32 drifts further than the port's from the first forward pass on, and the gap
# between the scripts follows MXNet's drift: a yardstick made of the port alone (the port's
# own drift, or the port against itself nudged by 1e-7) would undersell it in the first
# steps, by orders of magnitude. And the forgotten weight decay
# moves the weights by about a millionth after one step, already below float32's own drift at
# that step (a tenth of it on an Intel Xeon, a hundred-thousandth on an AMD EPYC, both
# measured 2026-12-03: how soon MXNet's float32 parts from its float64 depends on the CPU's
# kernels), and thousands of times below it after two: no float32 comparison can see it. The float32 judgement says that a float32
# gap is what float32 does; float64 is what tells a faithful port from a slightly wrong one.
#
# Longer runs: `python examples/image_classification/lockstep.py --steps 300` trains 300 steps
# in float64 (`--dtype float32` runs the four judged runs instead). One run of it on a shared
# 2-core x86-64 machine, 2026-12-01 (38 minutes under load; not re-run here), on
# Fashion-MNIST: BatchNorm makes training sensitive to tiny differences, so the relative weight
# gap grows slowly from 1e-14 and levels off — 1.4e-10 after 30 steps, 1.5e-9 after 150, 1.8e-9
# after 300 (at most 2.1e-9; the largest loss gap 1.1e-9) — while the loss fell from 2.86 to
# 0.54; the running statistics stay 3.1e-2 apart (÷n against ÷(n−1), §5). A porting error
# still shows as a jump. At a batch of 8 the gap grows fast (exercise 2).
#
# ## 8. The command line, and the checkpoint it leaves
#
# Both scripts, 10 batches each (`--max-batches`, which also limits the validation pass), at
# the same time:

# %% tags=["nbval-ignore-output"]
work = tempfile.TemporaryDirectory()
flags = ["--model", "resnet18_v1", "--mode", "imperative", "--epochs", "1",
         "--max-batches", "10", "--log-interval", "5"]
one_thread = {**os.environ, "OMP_NUM_THREADS": "1"}    # two processes on the machine's cores
procs = {script: subprocess.Popen([sys.executable, str(EXAMPLE / script), *flags],
                                  cwd=work.name, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, env=one_thread)
         for script in ("image_classification.py", "main_torch.py")}
logs = {}
for script, proc in procs.items():
    logs[script] = proc.communicate(timeout=600)[0]
    lines = [line for line in logs[script].splitlines() if "Epoch" in line]
    print(f"$ python {script} {' '.join(flags)}\n" + "\n".join(lines) + "\n")

# %%
pattern = re.compile(r"\[Epoch 0 Batch (\d+)\] speed: [0-9.]+ samples/s, training: accuracy=")
assert all(p.returncode == 0 for p in procs.values()), {s: l[-800:] for s, l in logs.items()}
assert all(pattern.findall(log) == ["4", "9"] for log in logs.values())
assert sorted(p.name for p in Path(work.name).iterdir()) == [
    "image-classifier-resnet18_v1-1.params", "image-classifier-resnet18_v1-1.pt"]
"both scripts train, log the same lines, validate, and save"

# %% [markdown]
# The legacy script saved with `save_params` — keys without the network's prefix
# ([notebook 13](13_serialization.ipynb) §3). `sidebyside.convert` reads that file into the
# port's network and checks both on an input before writing the `.pt`
# ([notebook 14](14_converting_models.ipynb)); then both networks test on the legacy loop's
# first 64 validation batches, 2 048 images (the stored run of 2026-12-03 tested all 9 984,
# where the two accuracies agreed to four digits, 0.1222: a fifth of the images, for a fifth
# of the time). (Where only the files are left — an `export()` or a Module checkpoint,
# without the code that built the network — [notebook 19](19_legacy_files_to_pytorch.ipynb)
# translates the graph itself.)

# %% tags=["nbval-ignore-output"]
folder = Path(work.name)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    report = convert.params_to_state_dict(
        folder / "image-classifier-resnet18_v1-1.params", folder / "converted.pt",
        gluon_net=models.get_model("resnet18_v1", classes=10),
        torch_net=main_torch.get_model("resnet18_v1", 10, in_channels=1),
        input_shape=(2, 1, 28, 28), by="order")
    legacy_net = models.get_model("resnet18_v1", classes=10)
    legacy_net.load_parameters(str(folder / "image-classifier-resnet18_v1-1.params"))
ported = main_torch.get_model("resnet18_v1", 10, in_channels=1)
ported.load_state_dict(torch.load(folder / "converted.pt"))
mx_val.reset()
mx_metric, pt_metric = mx.metric.Accuracy(), MulticlassAccuracy(num_classes=10, average="micro")
ported.eval()
for batch in itertools.islice(mx_val, 64):        # the legacy loop's batches, for both
    mx_metric.update(batch.label, [legacy_net(batch.data[0])])
    with torch.no_grad():
        pt_metric.update(ported(torch.from_numpy(batch.data[0].asnumpy())),
                         torch.from_numpy(batch.label[0].asnumpy()).long())
pt_metric = ("accuracy", pt_metric.compute().item())
print(f"{report.direction}: {report.n_read} arrays read, {report.n_written} tensors written "
      f"({report.dtype}), outputs checked before writing")
print(f"legacy checkpoint: MXNet {mx_metric.get()[1]:.4f}, converted into PyTorch "
      f"{pt_metric[1]:.4f} on {mx_metric.num_inst} images")

# %%
assert mx_metric.num_inst == 64 * 32
assert abs(mx_metric.get()[1] - pt_metric[1]) <= 2 / 2048          # a near-tie or two at most
"the checkpoint the legacy script saved tests the same in PyTorch"

# %% [markdown]
# ### The other modes, and more than one device
#
# | legacy | what it does | the port |
# |---|---|---|
# | `--mode hybrid` | `net.hybridize()`: a cached graph, the same numbers | eager; `torch.compile` is the speed counterpart ([notebook 7](07_hybridize_export.ipynb)) |
# | `--mode symbolic` | `mx.mod.Module(SoftmaxOutput(net(data))).fit(...)` with **its defaults**: `Uniform(0.01)` weights, SGD at 0.01, no weight decay (`--lr`/`--wd` ignored), a `Speedometer` line per batch, no validation, nothing saved | the same loop with those settings and log lines ([notebook 17](17_legacy_module_api.ipynb)) |
# | `--gpus N`: `split_and_load` over N contexts, `kvstore='device'`, `trainer.step(total batch)` | gradients summed over the devices, divided by the total batch | `DistributedDataParallel`, one process per device, which *averages* the per-process mean gradients — the same update ([notebook 9](09_distributed.ipynb)); `--cpu-replicas N` runs it on CPU processes (gloo) |
# | `net.save_params(f)` | deprecated; keys without the prefix | `torch.save(net.state_dict(), f)` ([notebook 13](13_serialization.ipynb)) |
#
# `tests/test_examples_image_classification.py` runs every row: the three legacy modes, the
# port's imperative and symbolic modes and two CPU replicas, and checks the log lines.
#
# ## Summary
#
# Every construct of the legacy script, and where the collection teaches it:
#
# | MXNet (`image_classification.py`) | PyTorch (`main_torch.py`) | taught in |
# |---|---|---|
# | `model_zoo.vision.get_model('resnet18_v1', classes, thumbnail, ctx, pretrained)` | `torchvision.models.resnet18(num_classes)`, first conv for the data's channels; thumbnail and v1-bottleneck layouts by hand | §1, [14](14_converting_models.ipynb) |
# | `net.initialize(mx.init.Xavier(magnitude=2.24), ctx)` | `xavier_uniform_(w, gain=√(2.24/3))`, zero biases | §2, [6](06_blocks.ipynb) §2 |
# | `mx.io.MNISTIter(image, label, input_shape, batch_size, shuffle, flat)` | `Dataset` of pixels / 256, one fixed shuffle, `drop_last=True` | §3, [18](18_legacy_data_recordio.ipynb) §2 |
# | `mx.io.ImageRecordIter(path_imgrec=…)` (cifar10) | `sidebyside.recordio.RecordDataset` | [18](18_legacy_data_recordio.ipynb) §3 |
# | `DataBatch` `.data[0]`/`.label[0]`, `train_data.reset()` | `for x, y in loader` | [18](18_legacy_data_recordio.ipynb) §1 |
# | `gluon.utils.split_and_load(batch, ctx_list)`, `[mx.gpu(i) …]`, `kvstore` | `DistributedDataParallel`, `torch.device` | §8, [9](09_distributed.ipynb) |
# | `gluon.Trainer(params, 'sgd', {learning_rate, wd}, kvstore)` | `optim.SGD(params, lr, weight_decay)` | §4, [8](08_optimizers_trainer.ipynb) |
# | `gluon.loss.SoftmaxCrossEntropyLoss()`; `L.backward()`; `trainer.step(batch_size)` | `F.cross_entropy(out, y).backward()`; `optimizer.step()` | §4, [10](10_losses.ipynb) |
# | `with ag.record():` | `model.train()`, `optimizer.zero_grad()` | [5](05_autograd.ipynb) |
# | `mx.metric.Accuracy()`, `.update(label, outputs)`, `.get()` | `MulticlassAccuracy(average='micro')`, `.update`, `.compute()` | §6, [11](11_metrics.ipynb) |
# | `logging.info('[Epoch %d Batch %d] speed: …')` | the same lines | §6 |
# | BatchNorm (`momentum=0.9`, biased running variance) | `BatchNorm2d` (`momentum=0.1`, unbiased) | §5 |
# | `net.hybridize()` | eager, or `torch.compile` | [7](07_hybridize_export.ipynb) |
# | `mx.sym.var`, `mx.sym.SoftmaxOutput`, `mx.mod.Module(...).fit(..., batch_end_callback=mx.callback.Speedometer(b, 1))` | a training loop with `Module.fit`'s defaults | §8, [17](17_legacy_module_api.ipynb) |
# | `net.save_params(f)` | `torch.save(net.state_dict(), f)`; `sidebyside.convert` for the trained file | §8, [13](13_serialization.ipynb) §3, [14](14_converting_models.ipynb) |
# | `mx.random.seed(opt.seed)` | `torch.manual_seed(opt.seed)` | [3](03_mnist_mlp.ipynb) |
# | `argparse` flags | the same flags | §8 |
#
# To get this list for your own script: `python -m sidebyside.migrate your_script.py`
# (`--write DIR` adds a draft port; [notebook 21](21_migrate_your_script.ipynb) walks
# through it).
#
# ## Exercises
#
# 1. Give the port `xavier_uniform_(w, gain=math.sqrt(2.24))` — the spelling that looks
#    right — and compare its largest weight with the bound of §2. By what factor is it off?
# 2. Run `lockstep.run(lockstep.batches(12, 8), "float64", against=("gluon", "torch"),
#    perturb=1e-14, check_every=1)`: the port against the legacy network, and against a copy
#    of itself whose weights are nudged by 1e-14. How do the two gaps compare?
# 3. Convert the `.pt` file the port saved in §8 back to a Gluon `.params` file with
#    `convert.state_dict_to_params` and test it with the legacy loop.
#
# :::{dropdown} Solutions
# 1. √3 ≈ 1.73 too wide: `xavier_uniform_`'s bound is gain · √(6 / (fan_in + fan_out)), so
#    gain √2.24 gives √3 times MXNet's √(2.24 / ((fan_in + fan_out)/2)), and the largest
#    weights exceed the bound by nearly that factor (the first cell below).
# 2. Measured once, not re-run here (the machine and day of §7's long run): both gaps grow by
#    four to five orders of magnitude within a dozen steps, side by side — the port against
#    MXNet from 2.1e-14 to 1.0e-9, the port against its nudged copy from 3.7e-13 to 1.2e-8. At
#    a batch of 8, BatchNorm's sensitivity, not the port, sets the gap (§7).
# 3. `convert.state_dict_to_params(folder / "image-classifier-resnet18_v1-1.pt", folder /
#    "back.params", torch_net=main_torch.get_model("resnet18_v1", 10, in_channels=1),
#    gluon_net=models.get_model("resnet18_v1", classes=10), input_shape=(2, 1, 28, 28),
#    by="order")`, then `load_parameters` and the loop of §8: the Gluon network predicts what
#    the port predicts (the second cell checks it on the legacy loop's first 256 images).
# :::
#
# **Solutions** 1 and 3, run with asserts: the two cells below (folded away in the book: open
# each one); each ends with its answer.

# %% tags=["hide-cell"]
looks_right = torch.empty(64, 32, 3, 3)
torch.nn.init.xavier_uniform_(looks_right, gain=math.sqrt(2.24))
too_wide = looks_right.abs().max().item() / xavier_bound(tuple(looks_right.shape))
assert 1.7 < too_wide <= math.sqrt(3) + 1e-6
"1. gain=√2.24: up to √3 ≈ 1.73 times MXNet's bound"

# %% tags=["hide-cell"]
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    back = convert.state_dict_to_params(
        folder / "image-classifier-resnet18_v1-1.pt", folder / "back.params",
        torch_net=main_torch.get_model("resnet18_v1", 10, in_channels=1),
        gluon_net=models.get_model("resnet18_v1", classes=10), input_shape=(2, 1, 28, 28),
        by="order")
    back_net = models.get_model("resnet18_v1", classes=10)
    back_net.load_parameters(str(folder / "back.params"))
port_net = main_torch.get_model("resnet18_v1", 10, in_channels=1)
port_net.load_state_dict(torch.load(folder / "image-classifier-resnet18_v1-1.pt"))
port_net.eval()
mx_val.reset()
same_answers = seen = 0
for batch in itertools.islice(mx_val, 8):
    with torch.no_grad():
        pt_pred = port_net(torch.from_numpy(batch.data[0].asnumpy())).argmax(1).numpy()
    mx_pred = back_net(batch.data[0]).argmax(axis=1).asnumpy()
    same_answers += int((pt_pred == mx_pred).sum())
    seen += len(pt_pred)
assert back.checks[0].ok and seen == 256 and same_answers >= seen - 2
"3. the port's .pt back in Gluon: the same predictions, but for a near-tie or two"
