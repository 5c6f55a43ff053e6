# %% [markdown]
# # 11 · Metrics: `mx.metric` next to `torchmetrics`
#
# **What you will learn**
#
# - how each of the seed's `mx.metric` classes maps onto `torchmetrics` — accuracy, top-k,
#   F1 (macro and micro), cross-entropy and perplexity, MAE and MSE, and a composite of
#   several — checked equal across several `update` calls and after `reset`;
# - the traps of a metrics port: the arguments of `update` in the other order, `get()`
#   against `compute()`, defaults that average differently (per class, per batch, per
#   sample), an F1 that is binary only, a cross-entropy that wants probabilities;
# - why `metric.update` is a sync point in MXNet, on [notebook 3](03_mnist_mlp.ipynb)'s MLP
#   evaluated with both.
#
# **Prerequisites**: [notebook 3](03_mnist_mlp.ipynb) (the MLP and its training loop);
# [notebook 10](10_losses.ipynb) for the cross-entropy behind §2. **Time**: about 25 minutes.

# %% tags=["nbval-ignore-output"]
import time

import mxnet as mx
import numpy as np
import torch
import torchmetrics
from mxnet import gluon
from torchmetrics import classification, regression

from sidebyside import compare, data, devices, errors, seeding, threads, transfer

SEED = seeding.seed_everything(0)
devs = devices.pick()
pt_dev, mx_ctx = devs.torch.device, devs.mxnet.device
print(f"torchmetrics {torchmetrics.__version__}")

# %% [markdown]
# ## 1. Accuracy, with the arguments the other way round
#
# Three batches of 16 predictions over 4 classes (logits), the same on both sides.

# %%
rng = np.random.default_rng(0)
LOGITS = [rng.standard_normal((16, 4)).astype(np.float32) for _ in range(3)]
LABELS = [rng.integers(0, 4, 16) for _ in range(3)]


def feed_torch(metric, transform=lambda x: x):
    for logits, labels in zip(LOGITS, LABELS):
        metric.update(transform(torch.from_numpy(logits)), torch.from_numpy(labels))
    return metric


def feed_mxnet(metric, transform=lambda x: x):
    for logits, labels in zip(LOGITS, LABELS):
        metric.update(mx.nd.array(labels), transform(mx.nd.array(logits)))
    return metric

# %% [markdown]
# **PyTorch**: `update(preds, target)` — predictions first — and `compute()`, a tensor.

# %% tags=["pytorch"]
pt_acc = feed_torch(torchmetrics.Accuracy(task="multiclass", num_classes=4))
pt_acc.compute()

# %% [markdown]
# **Gluon**: `update(labels, preds)` — labels first — and `get()`, a `(name, value)` pair.

# %% tags=["gluon"]
mx_acc = feed_mxnet(mx.metric.Accuracy())
mx_acc.get()

# %%
name, value = mx_acc.get()
assert isinstance(pt_acc.compute(), torch.Tensor) and name == "accuracy"
assert abs(float(pt_acc.compute()) - value) <= 1e-6
assert value == float(sum((lg.argmax(1) == lb).sum() for lg, lb in zip(LOGITS, LABELS))) / 48
"same accuracy over the three batches"

# %% [markdown]
# **The order of the arguments.** Ported literally, `update(labels, preds)` in torchmetrics
# raises here — and where the shapes happen to fit (class indices on both sides), it
# computes the same accuracy silently, but a precision or recall is then that of the other
# side. MXNet, given `update(preds, labels)`, tries an argmax over the 1-d labels:

# %% tags=["raises-exception"]
torchmetrics.Accuracy(task="multiclass", num_classes=4).update(
    torch.from_numpy(LABELS[0]), torch.from_numpy(LOGITS[0]))

# %%
swapped_torch = errors.catch(torchmetrics.Accuracy(task="multiclass", num_classes=4).update,
                             torch.from_numpy(LABELS[0]), torch.from_numpy(LOGITS[0]))
swapped_mx = mx.metric.Accuracy()
swapped_error = errors.catch(swapped_mx.update, mx.nd.array(LOGITS[0]),
                             mx.nd.array(LABELS[0]))
assert swapped_torch.type == "ValueError" and "preds" in swapped_torch.line
assert swapped_error.type == "MXNetError"      # argmax over axis 1 of the 1-d labels
{"torchmetrics, (labels, preds)": swapped_torch.type,
 "mx.metric, (preds, labels)": swapped_error.type}

# %% [markdown]
# **Micro and macro.** `torchmetrics.Accuracy(task="multiclass")` counts every sample alike
# (*micro*), which is what `mx.metric.Accuracy` does. But the class it dispatches to,
# `MulticlassAccuracy`, called directly, averages the per-class accuracies (*macro*) by
# default:

# %%
per_class = feed_torch(classification.MulticlassAccuracy(num_classes=4))
micro = feed_torch(classification.MulticlassAccuracy(num_classes=4, average="micro"))
accuracies = {"Accuracy(task='multiclass')": float(pt_acc.compute()),
              "MulticlassAccuracy()": float(per_class.compute()),
              "MulticlassAccuracy(average='micro')": float(micro.compute()),
              "mx.metric.Accuracy()": value}

# %% tags=["nbval-ignore-output"]
accuracies

# %%
assert abs(accuracies["MulticlassAccuracy(average='micro')"] - value) <= 1e-6
assert abs(accuracies["MulticlassAccuracy()"] - value) > 1e-3
assert classification.MulticlassAccuracy(num_classes=4).average == "macro"
"Accuracy(task=...) is micro; MulticlassAccuracy defaults to macro"

# %% [markdown]
# **`reset`**, and the seed's two spellings. `mx.metric` takes one array or a list of
# arrays (one per device output); both of the seed's calls, `update(label, output)` and
# `update([label], [output])`, are the same. After `reset()` both libraries start over:

# %%
one = mx.metric.Accuracy()
one.update(mx.nd.array(LABELS[0]), mx.nd.array(LOGITS[0]))
listed = mx.metric.Accuracy()
listed.update([mx.nd.array(LABELS[0])], [mx.nd.array(LOGITS[0])])
mx_acc.reset()
pt_acc.reset()
mx_acc.update(mx.nd.array(LABELS[2]), mx.nd.array(LOGITS[2]))
pt_acc.update(torch.from_numpy(LOGITS[2]), torch.from_numpy(LABELS[2]))
after_reset = (mx_acc.get()[1], float(pt_acc.compute()))
assert one.get() == listed.get()
assert abs(after_reset[0] - after_reset[1]) <= 1e-6
assert after_reset[0] == float((LOGITS[2].argmax(1) == LABELS[2]).mean())
"one array or a list: the same; after reset, the last batch only"

# %% [markdown]
# ## 2. Top-k, cross-entropy, perplexity
#
# **PyTorch**

# %% tags=["nbval-ignore-output", "pytorch"]
pt_top2 = feed_torch(classification.MulticlassAccuracy(num_classes=4, top_k=2,
                                                       average="micro"))
all_logits = torch.from_numpy(np.concatenate(LOGITS))
all_labels = torch.from_numpy(np.concatenate(LABELS))
pt_ce = torch.nn.functional.cross_entropy(all_logits, all_labels)
pt_ppl = torchmetrics.text.Perplexity()
pt_ppl.update(all_logits[None], all_labels[None])        # (batch=1, sequence, classes)
(pt_top2.compute(), pt_ce, pt_ppl.compute())

# %% [markdown]
# **Gluon**: `CrossEntropy` and `Perplexity` take **probabilities**, not logits — the output
# after a softmax:

# %% tags=["nbval-ignore-output", "gluon"]
mx_top2 = feed_mxnet(mx.metric.TopKAccuracy(top_k=2))
mx_ce = feed_mxnet(mx.metric.CrossEntropy(), transform=lambda x: mx.nd.softmax(x))
mx_ppl = feed_mxnet(mx.metric.Perplexity(ignore_label=None),
                    transform=lambda x: mx.nd.softmax(x))
(mx_top2.get(), mx_ce.get(), mx_ppl.get())

# %%
compare.assert_same(np.float64(pt_top2.compute()), np.float64(mx_top2.get()[1]), rtol=1e-6)
compare.assert_same(np.float64(pt_ce), np.float64(mx_ce.get()[1]), rtol=1e-6)
compare.assert_same(np.float64(pt_ppl.compute()), np.float64(mx_ppl.get()[1]), rtol=1e-6)
assert abs(mx_ppl.get()[1] - np.exp(mx_ce.get()[1])) <= 1e-5 * mx_ppl.get()[1]
with np.errstate(invalid="ignore"):                               # log of negatives
    raw_logits = feed_mxnet(mx.metric.CrossEntropy()).get()[1]    # logits fed by mistake
assert not np.isfinite(raw_logits) or abs(raw_logits - mx_ce.get()[1]) > 0.1
"top-2, cross-entropy and perplexity = exp(cross-entropy): equal; logits give nonsense"

# %% [markdown]
# ## 3. F1: binary only in MXNet, and "macro" means per batch
#
# `mx.metric.F1` handles two classes only; a 4-class batch raises:

# %% tags=["raises-exception"]
mx.metric.F1().update(mx.nd.array(LABELS[0]), mx.nd.array(LOGITS[0]))

# %% [markdown]
# For two classes it has `average="macro"` (the default) and `"micro"` — but its macro is
# the mean of the **per-batch** F1 scores, not a mean over classes. torchmetrics'
# `BinaryF1Score` pools the counts of all batches (MXNet's `"micro"`), and its
# `MulticlassF1Score(average="macro")` averages over *classes*:
#
# **PyTorch**

# %%
BIN_PROBS = [rng.random((16, 2)).astype(np.float32) for _ in range(3)]
BIN_LABELS = [rng.integers(0, 2, 16) for _ in range(3)]
pt_f1 = classification.BinaryF1Score()
pt_f1_classes = classification.MulticlassF1Score(num_classes=2, average="macro")
for probs, labels in zip(BIN_PROBS, BIN_LABELS):
    pt_f1.update(torch.from_numpy(probs.argmax(1)), torch.from_numpy(labels))
    pt_f1_classes.update(torch.from_numpy(probs.argmax(1)), torch.from_numpy(labels))

# %% [markdown]
# **Gluon**

# %%
mx_f1 = {avg: mx.metric.F1(average=avg) for avg in ("macro", "micro")}
for probs, labels in zip(BIN_PROBS, BIN_LABELS):
    for metric in mx_f1.values():
        metric.update(mx.nd.array(labels), mx.nd.array(probs))
per_batch = []
for probs, labels in zip(BIN_PROBS, BIN_LABELS):
    one_batch = mx.metric.F1()
    one_batch.update(mx.nd.array(labels), mx.nd.array(probs))
    per_batch.append(one_batch.get()[1])
f1 = {"mx F1(average='micro')": mx_f1["micro"].get()[1],
      "mx F1(average='macro')": mx_f1["macro"].get()[1],
      "mean of the per-batch F1s": float(np.mean(per_batch)),
      "torchmetrics BinaryF1Score": float(pt_f1.compute()),
      "torchmetrics MulticlassF1Score(macro)": float(pt_f1_classes.compute())}

# %% tags=["nbval-ignore-output"]
f1

# %%
assert errors.catch(mx.metric.F1().update, mx.nd.array(LABELS[0]),
                    mx.nd.array(LOGITS[0])).type == "ValueError"
assert abs(f1["mx F1(average='micro')"] - f1["torchmetrics BinaryF1Score"]) <= 1e-6
assert abs(f1["mx F1(average='macro')"] - f1["mean of the per-batch F1s"]) <= 1e-12
assert abs(f1["mx F1(average='macro')"] - f1["mx F1(average='micro')"]) > 1e-4
assert abs(f1["torchmetrics MulticlassF1Score(macro)"] - f1["mx F1(average='macro')"]) > 1e-4
"MXNet's micro F1 = BinaryF1Score; its macro is a mean over batches"

# %% [markdown]
# ## 4. MAE and MSE: averaged per batch
#
# Regression targets in batches of 16, 16 and 4 (a short last batch). torchmetrics averages
# over all samples; `mx.metric.MAE` and `MSE` average the batch averages — the short batch
# weighs as much as a full one:
#
# **PyTorch**

# %%
REG_PRED = [rng.standard_normal(n).astype(np.float32) for n in (16, 16, 4)]
REG_TRUE = [rng.standard_normal(n).astype(np.float32) for n in (16, 16, 4)]
pt_mae, pt_mse = regression.MeanAbsoluteError(), regression.MeanSquaredError()
for pred, true in zip(REG_PRED, REG_TRUE):
    pt_mae.update(torch.from_numpy(pred), torch.from_numpy(true))
    pt_mse.update(torch.from_numpy(pred), torch.from_numpy(true))

# %% [markdown]
# **Gluon**

# %%
mx_mae, mx_mse = mx.metric.MAE(), mx.metric.MSE()
for pred, true in zip(REG_PRED, REG_TRUE):
    mx_mae.update(mx.nd.array(true), mx.nd.array(pred))
    mx_mse.update(mx.nd.array(true), mx.nd.array(pred))
errors_per = {
    "MAE over samples (torchmetrics)": float(pt_mae.compute()),
    "MAE, mean of batch means (mx.metric)": mx_mae.get()[1],
    "MSE over samples (torchmetrics)": float(pt_mse.compute()),
    "MSE, mean of batch means (mx.metric)": mx_mse.get()[1]}

# %% tags=["nbval-ignore-output"]
errors_per

# %%
abs_err = [np.abs(p - t) for p, t in zip(REG_PRED, REG_TRUE)]
sq_err = [(p - t) ** 2 for p, t in zip(REG_PRED, REG_TRUE)]
assert abs(errors_per["MAE over samples (torchmetrics)"]
           - np.concatenate(abs_err).mean()) <= 1e-6
assert abs(errors_per["MAE, mean of batch means (mx.metric)"]
           - np.mean([e.mean() for e in abs_err])) <= 1e-6
assert abs(errors_per["MSE, mean of batch means (mx.metric)"]
           - np.mean([e.mean() for e in sq_err])) <= 1e-6
assert abs(errors_per["MAE over samples (torchmetrics)"]
           - errors_per["MAE, mean of batch means (mx.metric)"]) > 1e-3
"torchmetrics: mean over samples; mx.metric MAE/MSE: mean over batches"

# %% [markdown]
# ## 5. Several metrics at once: `CompositeEvalMetric` and `MetricCollection`
#
# **PyTorch**: a `MetricCollection` updates all its metrics with one call and returns a
# dict.

# %% tags=["nbval-ignore-output", "pytorch"]
pt_all = torchmetrics.MetricCollection({
    "accuracy": classification.MulticlassAccuracy(num_classes=4, average="micro"),
    "top_2": classification.MulticlassAccuracy(num_classes=4, top_k=2, average="micro")})
feed_torch(pt_all).compute()

# %% [markdown]
# **Gluon**: a `CompositeEvalMetric` (or `mx.metric.create([...])`) returns two lists,
# names and values.

# %% tags=["nbval-ignore-output", "gluon"]
mx_all = feed_mxnet(mx.metric.create(["acc", mx.metric.TopKAccuracy(top_k=2)]))
mx_all.get()

# %%
names, values = mx_all.get()
pt_values = feed_torch(pt_all.clone()).compute()
assert type(mx_all).__name__ == "CompositeEvalMetric"
assert names == ["accuracy", "top_k_accuracy_2"]
for key, v in zip(("accuracy", "top_2"), values):
    assert abs(float(pt_values[key]) - v) <= 1e-6
"MetricCollection ⇔ CompositeEvalMetric: the same numbers, a dict against two lists"

# %% [markdown]
# ## 6. [Notebook 3](03_mnist_mlp.ipynb)'s MLP on the test set, and what `metric.update` costs
#
# The MLP of [notebook 3](03_mnist_mlp.ipynb), trained for two epochs (PyTorch, batches from memory), its weights
# copied into Gluon; then the whole test set through each library's metrics.

# %%
train, test = data.load(train=True), data.load(train=False)
spec = data.SPECS[train.name]


def normalised(pair):
    x = pair.torch.data.reshape(len(pair), -1).float() / 255
    return (x - spec.mean) / spec.std, pair.torch.targets


X_train, y_train = normalised(train)
X_test, y_test = normalised(test)
torch.manual_seed(0)
pt_mlp = torch.nn.Sequential(torch.nn.Linear(784, 256), torch.nn.ReLU(),
                             torch.nn.Linear(256, 10))
opt = torch.optim.SGD(pt_mlp.parameters(), lr=0.1)
for epoch in range(2):
    order = torch.randperm(len(X_train), generator=torch.Generator().manual_seed(epoch))
    for i in range(0, len(order), 128):
        idx = order[i:i + 128]
        opt.zero_grad()
        torch.nn.functional.cross_entropy(pt_mlp(X_train[idx]), y_train[idx]).backward()
        opt.step()
pt_mlp = pt_mlp.to(pt_dev)
mx_mlp = gluon.nn.Sequential()
mx_mlp.add(gluon.nn.Dense(256, activation="relu"), gluon.nn.Dense(10))
mx_mlp.initialize(ctx=mx_ctx)
transfer.torch_to_gluon(pt_mlp, mx_mlp)

# %% [markdown]
# **PyTorch**: the metric objects live on the device (`.to(pt_dev)`), accumulate there, and
# nothing leaves the device until `compute()`.

# %% tags=["pytorch"]
def pt_evaluate():
    metrics = torchmetrics.MetricCollection({
        "accuracy": torchmetrics.Accuracy(task="multiclass", num_classes=10),
        "top_2": classification.MulticlassAccuracy(num_classes=10, top_k=2,
                                                   average="micro"),
        "macro_f1": classification.MulticlassF1Score(num_classes=10)}).to(pt_dev)
    with torch.no_grad():
        for i in range(0, len(X_test), 1000):
            metrics.update(pt_mlp(X_test[i:i + 1000].to(pt_dev)), y_test[i:i + 1000].to(pt_dev))
    return {k: float(v) for k, v in metrics.compute().items()}

# %% [markdown]
# **Gluon**: `metric.update` copies labels and predictions to NumPy (`asnumpy()`): every
# call waits for the forward pass to finish — a sync point in every batch.

# %% tags=["gluon"]
def mx_evaluate():
    metric = mx.metric.create(["acc", mx.metric.TopKAccuracy(top_k=2)])
    for i in range(0, len(X_test), 1000):
        x = mx.nd.array(X_test[i:i + 1000].numpy(), ctx=mx_ctx)
        metric.update(mx.nd.array(y_test[i:i + 1000].numpy(), ctx=mx_ctx), mx_mlp(x))
    return dict(zip(*metric.get()))

# %% tags=["nbval-ignore-output"]
pt_scores, mx_scores = pt_evaluate(), mx_evaluate()
{"PyTorch": pt_scores, "Gluon": mx_scores}

# %%
assert pt_scores["accuracy"] >= 0.8
assert abs(pt_scores["accuracy"] - mx_scores["accuracy"]) <= 1e-3
assert abs(pt_scores["top_2"] - mx_scores["top_k_accuracy_2"]) <= 1e-3
"the same test accuracy and top-2 accuracy from both libraries (float32 forward passes)"

# %% [markdown]
# The two can differ in the last sample or two: a test image whose top two logits are
# closer than the frameworks' float32 rounding is ranked one way in PyTorch and the other in
# Gluon — hence the tolerance of one sample in a thousand.
#
# **The cost of the sync point.** Each `update` makes Python wait for the batch's forward
# pass, so the engine cannot run ahead into the next batch. The alternative is to keep the
# count as an `NDArray` and read it once at the end — MXNet's version of keeping
# torchmetrics' state on the device. The same evaluation, batches of 100, timed both ways
# (the numbers are this machine's, for reading: on a CPU, where the forward pass itself takes
# most of the time, the difference is small; the check is that the counts agree):

# %%
def mx_count(sync_each_batch):
    metric, correct = mx.metric.Accuracy(), mx.nd.zeros((1,), ctx=mx_ctx)
    for i in range(0, len(X_test), 100):
        out = mx_mlp(mx.nd.array(X_test[i:i + 100].numpy(), ctx=mx_ctx))
        labels = mx.nd.array(y_test[i:i + 100].numpy(), ctx=mx_ctx)
        if sync_each_batch:
            metric.update(labels, out)                  # asnumpy(): waits
        else:
            correct += (out.argmax(axis=1) == labels).sum()   # stays queued
    return metric.get()[1] if sync_each_batch else correct.asscalar() / len(X_test)


def seconds(fn):
    tic = time.perf_counter()
    result = fn()
    mx.nd.waitall()
    return time.perf_counter() - tic, result

# %% tags=["nbval-ignore-output"]
with threads.matched() as same_threads:
    cost = {"metric.update per batch": seconds(lambda: mx_count(True)),
            "NDArray count, one read": seconds(lambda: mx_count(False))}
print(same_threads)
{k: f"{t * 1e3:.0f} ms" for k, (t, _) in cost.items()}

# %%
counts = [result for _, result in cost.values()]
assert abs(counts[0] - counts[1]) <= 1e-6
"the same accuracy either way"

# %% [markdown]
# ## Summary
#
# | | PyTorch (`torchmetrics`) | MXNet (`mx.metric`) |
# |---|---|---|
# | feed | `metric.update(preds, target)` | `metric.update(labels, preds)` — the other order; one array or a list |
# | read | `metric.compute()` → tensor (dict for a collection) | `metric.get()` → `(name, value)` |
# | start over | `metric.reset()` | `metric.reset()` |
# | accuracy | `Accuracy(task="multiclass", num_classes=n)` (micro); `MulticlassAccuracy` defaults to **macro** | `Accuracy()` (micro) |
# | top-k | `MulticlassAccuracy(top_k=k, average="micro")` | `TopKAccuracy(top_k=k)` |
# | F1 | `BinaryF1Score`, `MulticlassF1Score(average="macro" \| "micro")` | `F1()` — binary only; `"macro"` = mean over batches, `"micro"` = `BinaryF1Score` |
# | cross-entropy, perplexity | `F.cross_entropy(logits, y)`, `text.Perplexity()` (logits) | `CrossEntropy()`, `Perplexity(ignore_label)` — probabilities |
# | MAE, MSE | `MeanAbsoluteError`, `MeanSquaredError`: mean over samples | `MAE`, `MSE`: mean over batches |
# | several | `MetricCollection({...})` → dict | `CompositeEvalMetric` / `mx.metric.create([...])` → names, values |
# | on the device | `metrics.to(device)`; no sync until `compute()` | `update` syncs (`asnumpy`); keep an `NDArray` count to avoid it |
#
# ### What the seed articles said, checked
#
# | seed claim | verdict | shown in |
# |---|---|---|
# | metrics: PyTorch "not available" | **obsolete**: `torchmetrics` (1.9.0 here) | all |
# | `mx.metric.Accuracy()`, `TopKAccuracy`, `CrossEntropy` are defined in `metric.py` | confirmed (`mx.metric.*`) | §1, §2 |
# | `metric.update(label, output)` in the monitoring row; `metric.update([label], [output])` in the sync row | both work, with the same result | §1 |
# | `metric.update` is a batch-end sync point | confirmed: it calls `asnumpy()` | §6 (and [notebook 5](05_autograd.ipynb) §6) |
#
# ## Exercises
#
# 1. Write a `torchmetrics.Metric` subclass that reproduces `mx.metric.MAE` (the mean of
#    batch means) and check it against §4.
# 2. Evaluate the MLP with `MulticlassAccuracy(num_classes=10)` (macro) and with
#    `average="micro"`. Why are the two equal on this test set, and which classes lie below
#    their mean? (`average=None` gives one value per class.)
# 3. Put `mx.metric.Accuracy().update` inside the training loop of [notebook 3](03_mnist_mlp.ipynb) and time an
#    epoch with and without it. How much of the difference is the sync, and how much the
#    NumPy work?

# %% [markdown]
# :::{dropdown} Solutions
# 1. ```python
#    class MeanOfBatchMAE(torchmetrics.Metric):
#        def __init__(self, **kwargs):
#            super().__init__(**kwargs)
#            self.add_state("total", torch.tensor(0.0, dtype=torch.float64),
#                           dist_reduce_fx="sum")
#            self.add_state("batches", torch.tensor(0), dist_reduce_fx="sum")
#        def update(self, preds, target):
#            self.total += (preds - target).abs().mean().double()
#            self.batches += 1
#        def compute(self):
#            return self.total / self.batches
#    ```
#    On §4's batches it gives `mx.metric.MAE`'s 1.2462 (difference 2e-8, float32), where
#    `MeanAbsoluteError` gives 1.1333.
# 2. Both are 0.856 here. Fashion-MNIST's test set has exactly 1000 images per class, and
#    with equal class sizes the mean of the per-class accuracies is the overall accuracy.
#    Macro falls below micro only when the weak classes are rarer. The classes below the
#    mean: Shirt 0.645, Pullover 0.73, Dress 0.78 and Coat 0.83; T-shirt/top (0.86) is at
#    it. The rest lie between 0.91 and 0.96.
# 3. Reduced run: batches taken from memory (469 of 128), no DataLoader, no per-batch
#    `asscalar()`, one thread, median of 5 epochs on a busy 2-CPU machine. Times per epoch:
#    about 1.1 s without a metric, 1.5 s with `metric.update`, and 1.6 s with only
#    `out.wait_to_read()` per batch. The metric's own NumPy work, timed on outputs
#    already computed, is 0.06 s per epoch (about 0.13 ms per call). So nearly all of the
#    difference is the sync. [Notebook 3](03_mnist_mlp.ipynb)'s loop already syncs every
#    batch (`asscalar()`), so there the metric adds only the NumPy part.
# :::
