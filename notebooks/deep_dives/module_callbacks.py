# %% [markdown]
# # Deep dive · Callbacks and metric logs of `Module.fit`
#
# [Notebook 17](../17_legacy_module_api.ipynb) §4 ports `Module.fit`'s callbacks to a PyTorch
# loop; this deep dive measures what their log lines say, which is what a port that must
# print the same numbers needs: why a script's `logging.basicConfig` can be too late, which
# batches each `Speedometer` line covers (with and without `auto_reset`), and what the
# metrics `'acc'` and `'ce'` are fed, checked against `torchmetrics`.
#
# **Time**: about 15 minutes.

# %% tags=["nbval-ignore-output"]
import logging
import os
import re
import tempfile
from pathlib import Path

# Without this, every Module.bind writes "Subgraph backend MKLDNN is activated" to stderr
os.environ["MXNET_SUBGRAPH_VERBOSE"] = "0"

import mxnet as mx
import numpy as np
import torch
import torchmetrics
from torch import nn

from sidebyside import data, devices, logs, seeding

SEED = seeding.seed_everything(0)
devs = devices.pick()
pt_dev, mx_ctx = devs.torch.device, devs.mxnet.device
folder = tempfile.TemporaryDirectory()
WORK = Path(folder.name)
root_at_start = ([type(h).__name__ for h in logging.getLogger().handlers],
                 logging.getLevelName(logging.getLogger().level))
print(f"MXNet {mx.__version__}, PyTorch {torch.__version__}, "
      f"torchmetrics {torchmetrics.__version__}")

# %% [markdown]
# The network and data of [notebook 17](../17_legacy_module_api.ipynb): an MLP as a symbol,
# the first 2,000 training and 1,000 test images of Fashion-MNIST in float64, batches of 64
# (31 full ones and a 32nd padded from the start of the data).

# %%
N_TRAIN, N_TEST, BATCH = 2000, 1000, 64


def flat(dataset, n):
    images = dataset.data[:n].reshape(n, -1).double().div(255).numpy()
    return images, dataset.targets[:n].numpy()


def mlp_symbol():
    x = mx.sym.Variable("data")
    fc1 = mx.sym.FullyConnected(x, num_hidden=64, name="fc1")
    relu1 = mx.sym.Activation(fc1, act_type="relu", name="relu1")
    fc2 = mx.sym.FullyConnected(relu1, num_hidden=10, name="fc2")
    return mx.sym.SoftmaxOutput(fc2, name="softmax")


def float64_iter(X, y):
    return mx.io.NDArrayIter(mx.nd.array(X, dtype="float64"), mx.nd.array(y, dtype="float64"),
                             batch_size=BATCH)


X_train, y_train = flat(data.torch_dataset(train=True), N_TRAIN)
X_test, y_test = flat(data.torch_dataset(train=False), N_TEST)
train_iter, test_iter = float64_iter(X_train, y_train), float64_iter(X_test, y_test)
root_at_start

# %% [markdown]
# ## 1. The root logger, and a `basicConfig` that comes too late
#
# `fit` logs with the module-level `logging.info`, which installs a handler on the root
# logger the first time it finds none — at the default level, WARNING, so nothing shows.
# A script's `logging.basicConfig(level=logging.INFO)` after that does nothing, since the
# root logger has a handler; `basicConfig(..., force=True)` replaces it. One epoch of `fit`,
# with this kernel's root logger as a fresh script has it:

# %%
root = logging.getLogger()
assert root.handlers == []          # as in a fresh script: no handler yet
mx.random.seed(0)
mx.mod.Module(mlp_symbol()).fit(train_iter, num_epoch=1)
after_fit = ([type(h).__name__ for h in root.handlers], logging.getLevelName(root.level))
logging.basicConfig(level=logging.INFO)
after_late_config = logging.getLevelName(root.level)
logging.basicConfig(level=logging.INFO, force=True)
after_force = ([type(h).__name__ for h in root.handlers], logging.getLevelName(root.level))
for handler in root.handlers[:]:    # back to a root logger without handlers
    root.removeHandler(handler)
root.setLevel(logging.WARNING)
{"after fit": after_fit, "after basicConfig(INFO)": after_late_config,
 "after basicConfig(INFO, force=True)": after_force}

# %%
assert after_fit == (["StreamHandler"], "WARNING")
assert after_late_config == "WARNING"
assert after_force == (["StreamHandler"], "INFO")
"fit installs a WARNING handler; basicConfig then does nothing unless force=True"

# %% [markdown]
# ## 2. Which batches a `Speedometer` line covers
#
# A batch-end callback that records how many samples the metric holds — since its last reset
# (`num_inst`) and over the epoch (`global_num_inst`) — beside `Speedometer(BATCH, 10)`:

# %%
counts = []


def spy(param):
    counts.append((param.epoch, param.nbatch, param.eval_metric.num_inst,
                   param.eval_metric.global_num_inst))


mx.random.seed(0)
trained = mx.mod.Module(mlp_symbol())
with logs.captured() as log:
    trained.fit(train_iter, eval_data=test_iter, eval_metric=mx.metric.Accuracy(),
                optimizer="sgd", optimizer_params={"learning_rate": 0.1},
                initializer=mx.init.Xavier(), num_epoch=3,
                batch_end_callback=[spy, mx.callback.Speedometer(BATCH, 10)])

# %% tags=["nbval-ignore-output"]
print("\n".join(log))

# %% [markdown]
# **Check**: the first window, "Batch [0-10]", holds 11 batches — the Speedometer starts its
# clock after batch 0 but does not reset the metric then — and later ones 10; the 32nd batch
# is in no window. `Train-accuracy` is the global count over the epoch, padded batch
# included: 2,048 samples.

# %%
SPEEDOMETER = (r"Epoch\[(\d)\] Batch \[(\d+)-(\d+)\]\tSpeed: [\d.]+ samples/sec"
               r"\taccuracy=[\d.]+")
speed = [m for line in log for m in [re.fullmatch(SPEEDOMETER, line)] if m]
windows = {(int(m[2]), int(m[3])): n for m in speed[:3]
           for (e, b, n, _) in counts if e == 0 and b == int(m[3])}
n_batches = -(-N_TRAIN // BATCH)
assert len(speed) == 9 and windows == {(0, 10): 11 * BATCH, (10, 20): 10 * BATCH,
                                       (20, 30): 10 * BATCH}
assert (0, n_batches - 1, BATCH, n_batches * BATCH) in counts   # global: all 32 batches
assert sum(line.startswith("Epoch[0] Train-accuracy=") for line in log) == 1
windows

# %% [markdown]
# A PyTorch loop that logs after every tenth batch (`(b + 1) % 10 == 0`, as `torch_fit` in
# [notebook 17](../17_legacy_module_api.ipynb) §4) prints the same `Batch [a-b]` labels over
# other batches. To print MXNet's numbers, log after batches 10, 20 and 30 and reset the
# metric then, not after batch 0. The
# first epoch again, in PyTorch from the same initial weights (float64, the learning rate
# rounded to float32 as MXNet's update operator gets it, the last batch padded from the
# start as `NDArrayIter` does):
#
# **PyTorch**

# %%
mx.random.seed(0)
probe = mx.mod.Module(mlp_symbol())
probe.fit(train_iter, num_epoch=0, initializer=mx.init.Xavier())   # initialise, train nothing
initial = {k: torch.from_numpy(v.asnumpy()) for k, v in probe.get_params()[0].items()}


def pt_mlp(params):
    net = nn.Sequential(nn.Linear(784, 64), nn.ReLU(), nn.Linear(64, 10)).double()
    net.load_state_dict({"0.weight": params["fc1_weight"], "0.bias": params["fc1_bias"],
                         "2.weight": params["fc2_weight"], "2.bias": params["fc2_bias"]})
    return net


def pt_speedometer_epoch(net, lr, frequent=10):
    """One epoch; (first, last, accuracy) where MXNet's Speedometer would log."""
    opt = torch.optim.SGD(net.parameters(), lr=lr)
    window = torchmetrics.Accuracy(task="multiclass", num_classes=10)
    order = torch.from_numpy(np.arange(n_batches * BATCH) % N_TRAIN)     # NDArrayIter's 'pad'
    X, y = torch.from_numpy(X_train), torch.from_numpy(y_train)
    lines = []
    for b in range(n_batches):
        idx = order[b * BATCH:(b + 1) * BATCH]
        out = net(X[idx])
        opt.zero_grad()
        nn.functional.cross_entropy(out, y[idx]).backward()
        opt.step()
        window.update(out.detach(), y[idx])
        if b > 0 and b % frequent == 0:
            lines.append((b - frequent, b, window.compute().item()))
            window.reset()
    return lines


pt_lines = pt_speedometer_epoch(pt_mlp(initial), lr=float(np.float32(0.1)))
mx_lines = [(int(m[2]), int(m[3]), float(m.group(0).rsplit("=", 1)[1]))
            for m in speed if m[1] == "0"]

# %%
assert [line[:2] for line in pt_lines] == [line[:2] for line in mx_lines]
for (_, _, pt_acc), (_, _, mx_acc) in zip(pt_lines, mx_lines, strict=True):
    assert abs(pt_acc - mx_acc) <= 1e-6          # MXNet prints six decimals
"log after batches 10, 20, 30 (b % 10 == 0, b > 0): MXNet's Speedometer numbers, from PyTorch"

# %% [markdown]
# ## 3. `auto_reset=False`: the running accuracy of the epoch
#
# With `Speedometer(BATCH, 10, auto_reset=False)` the windows no longer restart: the lines
# say `Batch [0-10]`, `[0-20]`, `[0-30]`, each with the accuracy of the epoch so far, and at
# batch 30 the metric holds 31 batches' samples.

# %%
counts.clear()
cumulative = mx.mod.Module(mlp_symbol())
with logs.captured() as log2:
    cumulative.fit(train_iter, num_epoch=1, optimizer_params={"learning_rate": 0.1},
                   initializer=mx.init.Xavier(),
                   batch_end_callback=[spy, mx.callback.Speedometer(BATCH, 10,
                                                                    auto_reset=False)])
spans = [re.match(r"Epoch\[0\] Batch \[(\d+)-(\d+)\]", line).groups()
         for line in log2 if "Speed" in line]
assert spans == [("0", "10"), ("0", "20"), ("0", "30")]
assert [n for (_, b, n, _) in counts if b == 30] == [31 * BATCH]      # never reset
spans

# %% [markdown]
# ## 4. What the metrics are fed: `'acc'` and `'ce'` against `torchmetrics`
#
# `eval_metric` accepts a name (`'acc'`, `'ce'`, `'top_k_accuracy'`, …), a list of names, or
# an `mx.metric.EvalMetric`; `mx.metric.create` turns a list into a `CompositeEvalMetric`.
# `update_metric` feeds the Module's *outputs* — probabilities, after `SoftmaxOutput` — so
# `'ce'` is the cross-entropy of probabilities, `−log(p + 1e-12)`; a PyTorch network's
# logits need a softmax first ([notebook 11](../11_metrics.ipynb) §2). On the 960 test
# images that fill 15 batches (no padding):
#
# **MXNet**

# %% tags=["mxnet"]
mx_both = mx.metric.create(["acc", "ce"])
mx_metrics = dict(trained.score(float64_iter(X_test[:960], y_test[:960]), mx_both))
type(mx.metric.create("acc")).__name__, type(mx_both).__name__, sorted(mx_metrics)

# %% [markdown]
# **PyTorch**: `torchmetrics` — `Accuracy` and, for the cross-entropy, a `MeanMetric` over
# the per-sample losses, in one `MetricCollection`, from the trained weights (a
# torchmetrics metric ignores `.double()`; `set_dtype(torch.float64)` makes it compute in
# float64).

# %% tags=["pytorch"]
pt_net = nn.Sequential(nn.Linear(784, 64), nn.ReLU(), nn.Linear(64, 10)).double()
weights = {k: torch.from_numpy(v.asnumpy()) for k, v in trained.get_params()[0].items()}
pt_net.load_state_dict({"0.weight": weights["fc1_weight"], "0.bias": weights["fc1_bias"],
                        "2.weight": weights["fc2_weight"], "2.bias": weights["fc2_bias"]})
pt_collection = torchmetrics.MetricCollection({
    "accuracy": torchmetrics.Accuracy(task="multiclass", num_classes=10),
    "cross-entropy": torchmetrics.MeanMetric()}).set_dtype(torch.float64)   # not .double()
with torch.no_grad():
    for start in range(0, 960, BATCH):
        x = torch.from_numpy(X_test[start:start + BATCH])
        y = torch.from_numpy(y_test[start:start + BATCH])
        logits = pt_net(x)
        pt_collection["accuracy"].update(logits, y)
        pt_collection["cross-entropy"].update(
            nn.functional.cross_entropy(logits, y, reduction="none"))
pt_metrics = {k: v.item() for k, v in pt_collection.compute().items()}

# %% tags=["nbval-ignore-output"]
mx_metrics, pt_metrics

# %%
assert mx_metrics["accuracy"] == pt_metrics["accuracy"]
assert abs(mx_metrics["cross-entropy"] - pt_metrics["cross-entropy"]) <= 1e-10   # eps=1e-12
assert type(mx_both).__name__ == "CompositeEvalMetric"
folder.cleanup()
"mx.metric 'acc' and 'ce' = torchmetrics Accuracy and the mean cross-entropy, to 1e-10"

# %% [markdown]
# ## What this means for a port
#
# - A legacy script's log lines appear only if `logging.basicConfig(level=logging.INFO)`
#   runs before MXNet logs anything; in a notebook or a larger program, use
#   `basicConfig(..., force=True)` or a handler of your own.
# - A Speedometer's first line covers one batch more than the others (batches 0 to 10), and
#   the last partial window of an epoch is never logged: a port that must print the same
#   numbers logs and resets its metric after batches 10, 20, 30, … (section 2).
# - `auto_reset=False` prints the running accuracy of the epoch: in PyTorch, do not reset the
#   metric between lines.
# - `'ce'` scores probabilities: give `torchmetrics` or `cross_entropy` the logits, not the
#   softmax, and the numbers agree to 1e-10.
