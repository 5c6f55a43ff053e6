# %% [markdown]
# # 17 · Legacy MXNet: the Module API, callbacks, and 2.x-era names
#
# **What you will learn**
#
# - how the Module API (`mx.sym` graph + `mx.mod.Module`, MXNet's training interface before
#   Gluon) builds, binds, initialises and runs a network, and how its weights move into a
#   PyTorch `nn.Module`; that `SoftmaxOutput` is a *loss layer* (forward: probabilities,
#   backward: the summed cross-entropy gradient);
# - what `Module.fit` does when it is told nothing (SGD, learning rate 0.01,
#   `Uniform(0.01)`), a PyTorch loop that reproduces one epoch of it to 1e-15, and how a
#   legacy script's own `--lr`, `--wd` and initializer go silently unused;
# - the callbacks, metrics, `score`/`predict` and checkpoint files of legacy training, read
#   by the Module API, by Gluon and by PyTorch, and what MXNet 2.x names mean on 1.9.1.
#
# Optimizers and their float32 hyper-parameters are [notebook 8](08_optimizers_trainer.ipynb);
# metrics [notebook 11](11_metrics.ipynb); Gluon and PyTorch files
# [notebook 13](13_serialization.ipynb) and [notebook 14](14_converting_models.ipynb).
#
# **Prerequisites**: [notebook 3](03_mnist_mlp.ipynb) (Gluon's training loop) and [notebook
# 8](08_optimizers_trainer.ipynb) (the optimizers). **Time**: about 35 minutes.

# %% tags=["nbval-ignore-output"]
import argparse
import contextlib
import inspect
import logging
import os
import re
import tempfile
import time
import warnings
from pathlib import Path

# Without this, every Module.bind writes "Subgraph backend MKLDNN is activated" to stderr
os.environ["MXNET_SUBGRAPH_VERBOSE"] = "0"

import mxnet as mx
import numpy as np
import torch
import torchmetrics
from mxnet import gluon
from torch import nn

from sidebyside import compare, convert, data, devices, errors, logs, seeding
from sidebyside.optim import f32   # a float rounded to float32, as MXNet's update operators get it

SEED = seeding.seed_everything(0)
devs = devices.pick()
pt_dev, mx_ctx = devs.torch.device, devs.mxnet.device
folder = tempfile.TemporaryDirectory()
WORK = Path(folder.name)
# SymbolBlock warns that it cannot infer the input's dtype (§6); the warning names a file
warnings.filterwarnings("ignore", message="Cannot decide type for the following arguments")
print(f"MXNet {mx.__version__}, PyTorch {torch.__version__}, "
      f"torchmetrics {torchmetrics.__version__}")

# %% [markdown]
# ## 1. Building a Module
#
# The data: the first 2,000 training and 1,000 test images of Fashion-MNIST, flattened to
# 784 values in [0, 1], in float64.

# %%
N_TRAIN, N_TEST, BATCH = 2000, 1000, 64


def flat(dataset, n):
    images = dataset.data[:n].reshape(n, -1).double().div(255).numpy()
    return images, dataset.targets[:n].numpy()


X_train, y_train = flat(data.torch_dataset(train=True), N_TRAIN)
X_test, y_test = flat(data.torch_dataset(train=False), N_TEST)
X_train.shape, X_train.dtype, X_test.shape

# %% [markdown]
# **MXNet**: the network is a symbolic graph. Every layer is named; its parameters are
# arguments of the graph named `<layer>_weight`, `<layer>_bias`; the input is the variable
# `data`, and `SoftmaxOutput` adds a second input, `softmax_label`.

# %%
def mlp_symbol():
    x = mx.sym.Variable("data")
    fc1 = mx.sym.FullyConnected(x, num_hidden=64, name="fc1")
    relu1 = mx.sym.Activation(fc1, act_type="relu", name="relu1")
    fc2 = mx.sym.FullyConnected(relu1, num_hidden=10, name="fc2")
    return mx.sym.SoftmaxOutput(fc2, name="softmax")


mx_symbol = mlp_symbol()
mx_symbol.list_arguments(), mx_symbol.list_outputs()

# %% [markdown]
# A `Module` holds the graph; `bind` gives it the input shapes (and allocates memory for
# them), `init_params` fills the arguments that are not inputs, `get_params` returns them as
# two dicts: `arg_params` (trained) and `aux_params` (states such as BatchNorm's running
# statistics; none here). Shapes given as `DataDesc` carry a dtype: float64 here.

# %% tags=["mxnet"]
def float64_shapes(batch=BATCH):
    """data_shapes and label_shapes for `bind`, in float64."""
    return ([mx.io.DataDesc("data", (batch, 784), dtype="float64")],
            [mx.io.DataDesc("softmax_label", (batch,), dtype="float64")])


mx_mod = mx.mod.Module(mx_symbol, data_names=("data",), label_names=("softmax_label",),
                    context=mx.cpu())
mx_mod.bind(*float64_shapes())
mx_mod.init_params(initializer=mx.init.Xavier())
arg_params, aux_params = mx_mod.get_params()
{name: (a.shape, a.dtype.__name__) for name, a in arg_params.items()}, aux_params

# %% [markdown]
# **PyTorch**: the same network as an `nn.Module`. `FullyConnected`'s weight is
# `(out, in)`, like `nn.Linear`'s, so the arrays copy across unchanged; only the names
# change, `fc1_weight` → `fc1.weight`. The network ends with the logits: the softmax belongs
# to the loss (§2).

# %% tags=["pytorch"]
class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(784, 64)
        self.fc2 = nn.Linear(64, 10)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def torch_from(arg_params, dtype=torch.float64):
    """An MLP holding the Module's arg_params ('fc1_weight' -> 'fc1.weight')."""
    net = MLP().to(dtype)
    net.load_state_dict({".".join(name.rsplit("_", 1)): torch.from_numpy(a.asnumpy())
                         for name, a in arg_params.items()})
    return net


pt_net = torch_from(arg_params)
{name: tuple(t.shape) for name, t in pt_net.state_dict().items()}

# %% [markdown]
# Both run one batch of test images. A Module's input is a `DataBatch` (a list of data
# arrays, a list of label arrays); `forward(..., is_train=False)` then `get_outputs()`.
# Beside it, the float32 drift: the same weights, rounded, in a Module bound the usual way
# (shapes as plain tuples: float32).

# %%
def batch_of(X, y, dtype="float64"):
    return mx.io.DataBatch([mx.nd.array(X, dtype=dtype)], [mx.nd.array(y, dtype=dtype)])


mx_mod.forward(batch_of(X_test[:BATCH], y_test[:BATCH]), is_train=False)
mx_out = mx_mod.get_outputs()[0]
with torch.no_grad():
    pt_logits = pt_net(torch.from_numpy(X_test[:BATCH]))

mx_mod32 = mx.mod.Module(mlp_symbol())
mx_mod32.bind(data_shapes=[("data", (BATCH, 784))], label_shapes=[("softmax_label", (BATCH,))])
mx_mod32.set_params({k: v.astype("float32") for k, v in arg_params.items()}, aux_params)
mx_mod32.forward(batch_of(X_test[:BATCH], y_test[:BATCH], "float32"), is_train=False)
with torch.no_grad():
    pt_probs32 = torch.softmax(torch_from(arg_params, torch.float32)(
        torch.from_numpy(X_test[:BATCH]).float()), dim=1)
drift = {"float64": compare.max_abs_diff(torch.softmax(pt_logits, 1), mx_out),
         "float32": compare.max_abs_diff(pt_probs32, mx_mod32.get_outputs()[0])}
mx_out.shape, mx_out.dtype.__name__, tuple(pt_logits.shape), pt_logits.dtype

# %% tags=["nbval-ignore-output"]
drift

# %%
# Check: the Module's output is the softmax of PyTorch's logits
compare.assert_same(torch.softmax(pt_logits, dim=1), mx_out, atol=1e-14)
assert np.allclose(mx_out.asnumpy().sum(axis=1), 1.0, atol=1e-12)    # probabilities
assert drift["float64"] <= 1e-14 and drift["float32"] <= 1e-6
assert all(a.dtype == np.float64 for a in arg_params.values())
"the Module's probabilities = softmax(PyTorch's logits): 1e-14 in float64, 1e-6 in float32"

# %% [markdown]
# ### float64 needs the *label* in float64 too
#
# Giving the data variable a dtype, `mx.sym.Variable('data', dtype='float64')`, is not
# enough: shapes passed as plain tuples are float32, and `SoftmaxOutput` requires its data
# and label to have one type. And `NDArrayIter` over a float64 numpy array yields float32
# batches; over float64 `NDArray`s it keeps float64. `FullyConnected` flattens its input
# (`flatten=True`), which `nn.Linear` does not: images of shape `(N, 1, 28, 28)` bind to the
# same `(64, 784)` weight.

# %%
def symbol_with_float64_data():
    x = mx.sym.Variable("data", dtype="float64")
    fc = mx.sym.FullyConnected(x, num_hidden=10, name="fc")
    return mx.sym.SoftmaxOutput(fc, name="softmax")


tuples_only = errors.catch(mx.mod.Module(symbol_with_float64_data()).bind,
                           data_shapes=[("data", (4, 784))],
                           label_shapes=[("softmax_label", (4,))])
from_numpy = mx.io.NDArrayIter(X_train, y_train, batch_size=BATCH).provide_data[0].dtype
from_ndarray = mx.io.NDArrayIter(mx.nd.array(X_train, dtype="float64"),
                                 mx.nd.array(y_train, dtype="float64"),
                                 batch_size=BATCH).provide_data[0].dtype
image_shapes = dict(zip(mx_symbol.list_arguments(),
                        mx_symbol.infer_shape(data=(BATCH, 1, 28, 28))[0]))
tuples_only.type, from_numpy.__name__, from_ndarray.__name__, image_shapes["fc1_weight"]

# %%
assert tuples_only.type == "RuntimeError"
assert "This layer requires uniform type. Expected 'float64' v.s. given 'float32' at " \
       "'label'" in tuples_only.message
assert from_numpy == np.float32 and from_ndarray == np.float64
assert image_shapes["fc1_weight"] == (64, 784)
"float64: DataDesc(dtype='float64') for data and label; NDArrayIter needs float64 NDArrays"

# %% [markdown]
# ## 2. `SoftmaxOutput` is a loss layer
#
# `SoftmaxOutput` computes the softmax in its forward pass, and in its backward pass ignores
# whatever gradient comes from above and writes the cross-entropy gradient
# `softmax − onehot(label)` for every sample — *summed* over the batch, not averaged
# (`normalization='null'`, the default; `'batch'` divides by the batch size, `'valid'` by
# the number of labels not ignored; `grad_scale` multiplies). The average comes from the
# optimizer: `Module.init_optimizer` sets `rescale_grad = 1/batch_size`.
#
# **MXNet**: a Module made of the loss layer alone, its input the logits, so that
# `get_input_grads()` shows the gradient it writes.

# %% tags=["mxnet"]
def softmax_output_backward(logits, labels, head_grad=None, **options):
    """Output and input gradient of SoftmaxOutput(**options) on a batch of logits."""
    n, k = logits.shape
    head = mx.mod.Module(mx.sym.SoftmaxOutput(mx.sym.Variable("data"), name="softmax",
                                              **options))
    head.bind([mx.io.DataDesc("data", (n, k), dtype="float64")],
              [mx.io.DataDesc("softmax_label", (n,), dtype="float64")],
              inputs_need_grad=True)
    head.init_params()
    head.forward(batch_of(logits, labels), is_train=True)
    head.backward(out_grads=head_grad)
    return head.get_outputs()[0].asnumpy(), head.get_input_grads()[0].asnumpy()


logits = np.random.default_rng(1).standard_normal((4, 10))
labels = np.array([1, 3, 5, 7])
probs, grad = softmax_output_backward(logits, labels)
grads = {"batch": softmax_output_backward(logits, labels, normalization="batch")[1],
         "valid": softmax_output_backward(logits, labels, normalization="valid")[1],
         "grad_scale=2": softmax_output_backward(logits, labels, grad_scale=2.0)[1],
         "head gradient x5": softmax_output_backward(
             logits, labels, head_grad=[mx.nd.full((4, 10), 5.0, dtype="float64")])[1]}

# %% [markdown]
# **PyTorch**: `CrossEntropyLoss` on the logits, summed and averaged.

# %% tags=["pytorch"]
def ce_gradient(reduction):
    z = torch.tensor(logits, requires_grad=True)
    nn.CrossEntropyLoss(reduction=reduction)(z, torch.from_numpy(labels)).backward()
    return z.grad.numpy()


pt_sum, pt_mean = ce_gradient("sum"), ce_gradient("mean")

# %%
compare.assert_same(probs, torch.softmax(torch.from_numpy(logits), 1).numpy(), atol=1e-15)
compare.assert_same(grad, probs - np.eye(10)[labels], atol=0)
compare.assert_same(grad, pt_sum, atol=1e-15)
compare.assert_same(grads["batch"], pt_mean, atol=1e-15)
compare.assert_same(grads["valid"], pt_mean, atol=1e-15)       # no ignore_label: all valid
compare.assert_same(grads["grad_scale=2"], 2 * pt_sum, atol=1e-15)
compare.assert_same(grads["head gradient x5"], grad, atol=0)   # ignored
"SoftmaxOutput's backward = the gradient of CrossEntropyLoss(reduction='sum')"

# %% [markdown]
# ### One training step
#
# **MXNet**: the MLP of §1, from the same weights: `init_optimizer`, then
# `forward_backward` and `update` on one batch of 64 — what `fit` does with every batch
# (before `update_metric`).

# %%
mx_step_mod = mx.mod.Module(mlp_symbol())
mx_step_mod.bind(*float64_shapes())
mx_step_mod.init_params(arg_params=arg_params)
mx_step_mod.init_optimizer(optimizer="sgd", optimizer_params={"learning_rate": 0.1})
mx_step_mod.forward_backward(batch_of(X_train[:BATCH], y_train[:BATCH]))
mx_step_mod.update()
mx_after, _ = mx_step_mod.get_params()
rescale = mx_step_mod._optimizer.rescale_grad      # a private attribute, read to show it
rescale

# %% [markdown]
# **PyTorch**: `CrossEntropyLoss()` (mean) and one SGD step. MXNet passes the learning rate
# to its update operator as a float32 number, so the float64 comparison gives PyTorch the
# same rounded value, `f32(0.1)` (`sidebyside.optim.f32`,
# [notebook 8](08_optimizers_trainer.ipynb) §2).

# %%
pt_step = torch_from(arg_params)
pt_sgd = torch.optim.SGD(pt_step.parameters(), lr=f32(0.1))
pt_loss = nn.CrossEntropyLoss()(pt_step(torch.from_numpy(X_train[:BATCH])),
                             torch.from_numpy(y_train[:BATCH]))
pt_sgd.zero_grad()
pt_loss.backward()
pt_sgd.step()


def weight_gap(mx_params, net):
    """The largest difference between a Module's arg_params and a PyTorch MLP's weights."""
    state = net.state_dict()
    return max(compare.max_abs_diff(state[".".join(k.rsplit("_", 1))], v)
               for k, v in mx_params.items())


# %%
assert rescale == 1 / BATCH
assert weight_gap(mx_after, pt_step) <= 1e-15
assert weight_gap(mx_after, torch_from(arg_params)) > 1e-4     # the step did move them
"one Module step (sum gradient x rescale_grad 1/64) = one step on CrossEntropyLoss() (mean)"

# %% [markdown]
# ## 3. `Module.fit` and its defaults
#
# `fit(train_data, eval_data=None, eval_metric='acc', ..., num_epoch=...)` binds the module
# to the iterator's shapes, initialises the parameters, installs the optimizer, and runs
# `forward_backward` / `update` / `update_metric` for every batch of every epoch. Its
# defaults, read from its signature:

# %%
fit_defaults = {name: p.default
                for name, p in inspect.signature(mx.mod.BaseModule.fit).parameters.items()
                if name in ("eval_metric", "kvstore", "optimizer", "optimizer_params",
                            "initializer")}
assert fit_defaults["optimizer"] == "sgd" and fit_defaults["kvstore"] == "local"
assert fit_defaults["optimizer_params"] == (("learning_rate", 0.01),)
assert fit_defaults["initializer"].dumps() == '["uniform", {"scale": 0.01}]'
assert fit_defaults["eval_metric"] == "acc"
"defaults: SGD, learning rate 0.01, Uniform(0.01), kvstore 'local', metric 'acc'"

# %% [markdown]
# And by running it: `fit(..., num_epoch=0)` binds, initialises and installs the optimizer,
# then trains for zero epochs — so what it set up can be looked at.

# %%
def float64_iter(X, y, **options):
    """NDArrayIter over float64 NDArrays (over numpy arrays it would give float32)."""
    return mx.io.NDArrayIter(mx.nd.array(X, dtype="float64"), mx.nd.array(y, dtype="float64"),
                             batch_size=BATCH, **options)


train_iter, test_iter = float64_iter(X_train, y_train), float64_iter(X_test, y_test)
mx.random.seed(0)
mx_probe = mx.mod.Module(mlp_symbol())
mx_probe.fit(train_iter, num_epoch=0)
initial, _ = mx_probe.get_params()
optimizer = mx_probe._optimizer
set_up = {"optimizer": type(optimizer).__name__, "learning_rate": optimizer.lr,
          "wd": optimizer.wd, "momentum": optimizer.momentum,
          "rescale_grad": optimizer.rescale_grad, "kvstore": mx_probe._kvstore}
set_up      # learning rate 0.01

# %% [markdown]
# The default kvstore `'local'` creates no kvstore at all on one device (`None` above). The
# initializer draws from MXNet's random generator, so seeding it and calling
# `init_params(mx.init.Uniform(0.01))` must give the same weights:

# %%
mx.random.seed(0)
mx_same_init = mx.mod.Module(mlp_symbol())
mx_same_init.bind(*float64_shapes())
mx_same_init.init_params(mx.init.Uniform(0.01))
assert set_up == {"optimizer": "SGD", "learning_rate": 0.01, "wd": 0.0, "momentum": 0.0,
                  "rescale_grad": 1 / BATCH, "kvstore": None}
for name, array in mx_same_init.get_params()[0].items():
    compare.assert_same(array, initial[name], atol=0)
assert max(np.abs(a.asnumpy()).max() for n, a in initial.items() if "weight" in n) <= 0.01
assert not any(a.asnumpy().any() for n, a in initial.items() if "bias" in n)   # zeros
"fit's defaults, run: SGD lr 0.01, no momentum, no weight decay, Uniform(0.01) weights"

# %% [markdown]
# ### One epoch of `fit`, in PyTorch
#
# **MXNet**: one epoch with every default, from the weights just seen.

# %%
mx.random.seed(0)
mx_fit_mod = mx.mod.Module(mlp_symbol())
mx_fit_mod.fit(train_iter, num_epoch=1)
after_fit, _ = mx_fit_mod.get_params()
n_batches = -(-N_TRAIN // BATCH)
n_batches, n_batches * BATCH - N_TRAIN

# %% [markdown]
# 2,000 images make 31 batches of 64 and 16 left over. `NDArrayIter`'s default
# `last_batch_handle='pad'` fills the 32nd batch with the first 48 images again, and `fit`
# trains on all 64 (the `pad` count is only used by `predict`, §5).
#
# **PyTorch**: the same batches in the same order (no shuffling), `CrossEntropyLoss()` and
# plain SGD at `f32(0.01)`, from the same initial weights.

# %%
def torch_epoch(net, X, y, lr, batch=BATCH, pad_like_mxnet=True, optimizer=None):
    """One epoch over X in order; the last batch padded from the start, as NDArrayIter."""
    optimizer = optimizer or torch.optim.SGD(net.parameters(), lr=lr)
    n = -(-len(X) // batch)
    order = np.arange(n * batch) % len(X) if pad_like_mxnet else np.arange(len(X))
    X, y = torch.from_numpy(X), torch.from_numpy(y)
    for b in range(n):
        idx = torch.from_numpy(order[b * batch:(b + 1) * batch])
        optimizer.zero_grad()
        nn.functional.cross_entropy(net(X[idx].to(net.fc1.weight.dtype)), y[idx]).backward()
        optimizer.step()
    return net


pt_fit = torch_epoch(torch_from(initial), X_train, y_train, lr=f32(0.01))

# %%
# What each ingredient is worth: the same epoch without it
gaps = {
    "as fit does it": weight_gap(after_fit, pt_fit),
    "lr=0.01 not rounded to float32": weight_gap(
        after_fit, torch_epoch(torch_from(initial), X_train, y_train, lr=0.01)),
    "last batch of 16, not padded": weight_gap(
        after_fit, torch_epoch(torch_from(initial), X_train, y_train, lr=f32(0.01),
                               pad_like_mxnet=False)),
    "float32 (PyTorch only)": weight_gap(
        after_fit, torch_epoch(torch_from(initial, torch.float32), X_train, y_train,
                               lr=f32(0.01))),
}

# %% tags=["nbval-ignore-output"]
gaps

# %%
assert gaps["as fit does it"] <= 1e-15
assert 1e-13 < gaps["lr=0.01 not rounded to float32"] <= 1e-9
assert gaps["last batch of 16, not padded"] > 1e-6
assert gaps["float32 (PyTorch only)"] <= 1e-6
"one epoch of fit = the PyTorch loop to 1e-15, given the padded batch and the float32 lr"

# %% [markdown]
# ### A legacy script's flags, silently unused
#
# Many training scripts parsed `--lr` and `--wd`, built an initializer, and then called
# `fit` without passing them. Nothing fails: `fit` trains with its defaults.

# %%
parser = argparse.ArgumentParser()
parser.add_argument("--lr", type=float, default=0.1)
parser.add_argument("--wd", type=float, default=1e-4)
parser.add_argument("--num-epochs", type=int, default=1)
args = parser.parse_args(["--lr", "0.1", "--wd", "0.0001"])
initializer = mx.init.Xavier()                        # built, never passed

mx.random.seed(0)
mx_legacy = mx.mod.Module(mlp_symbol())
mx_legacy.fit(train_iter, num_epoch=args.num_epochs, kvstore="local")     # lr, wd, init: lost
mx.random.seed(0)
mx_meant = mx.mod.Module(mlp_symbol())
mx_meant.fit(train_iter, num_epoch=args.num_epochs, kvstore="local", optimizer="sgd",
          optimizer_params={"learning_rate": args.lr, "wd": args.wd}, initializer=initializer)
accuracy = {"legacy": dict(mx_legacy.score(test_iter, "acc"))["accuracy"],
            "meant": dict(mx_meant.score(test_iter, "acc"))["accuracy"]}

# %% [markdown]
# The legacy call trained *exactly* like the all-defaults `fit` above. And a second surprise
# hides in the call that does pass `wd`: the Module's optimizer applies weight decay only to
# parameters whose names end in `_weight` or `_gamma` — the biases get none — whereas
# PyTorch's `SGD(weight_decay=...)` decays every parameter it is given. A faithful port uses
# two parameter groups:

# %%
pt_port = torch_from(initial)
pt_port_sgd = torch.optim.SGD(
    [{"params": [pt_port.fc1.weight, pt_port.fc2.weight], "weight_decay": f32(args.wd)},
     {"params": [pt_port.fc1.bias, pt_port.fc2.bias], "weight_decay": 0.0}], lr=f32(args.lr))
mx_decayed = mx.mod.Module(mlp_symbol())
mx_decayed.fit(train_iter, num_epoch=1, arg_params=initial, optimizer="sgd",
            optimizer_params={"learning_rate": args.lr, "wd": args.wd})
torch_epoch(pt_port, X_train, y_train, lr=None, optimizer=pt_port_sgd)
pt_everything = torch_from(initial)
torch_epoch(pt_everything, X_train, y_train, lr=None, optimizer=torch.optim.SGD(
    pt_everything.parameters(), lr=f32(args.lr), weight_decay=f32(args.wd)))
wd_gaps = {"two groups": weight_gap(mx_decayed.get_params()[0], pt_port),
           "weight_decay on all": weight_gap(mx_decayed.get_params()[0], pt_everything)}

# %% tags=["nbval-ignore-output"]
accuracy, wd_gaps

# %%
for name, array in mx_legacy.get_params()[0].items():
    compare.assert_same(array, after_fit[name], atol=0)          # = the all-defaults fit
assert (mx_legacy._optimizer.lr, mx_legacy._optimizer.wd) == (0.01, 0.0)
assert (mx_meant._optimizer.lr, mx_meant._optimizer.wd) == (args.lr, args.wd)
assert accuracy["legacy"] < 0.4 < 0.6 < accuracy["meant"]
assert mx_meant._optimizer.wd_mult == {"fc1_bias": 0.0, "fc2_bias": 0.0}
assert wd_gaps["two groups"] <= 1e-15 < 1e-9 < wd_gaps["weight_decay on all"]
"fit(train, num_epoch=..., kvstore=...) ignores the script's lr, wd and initializer"

# %% [markdown]
# ## 4. Callbacks and metric logs
#
# `fit` calls `batch_end_callback(param)` after every batch (`param.epoch`, `param.nbatch`,
# `param.eval_metric`), `epoch_end_callback(epoch, symbol, arg_params, aux_params)` after
# every epoch, and `eval_end_callback(param)` after each validation pass. The stock ones:
#
# | callback | what it does |
# |---|---|
# | `mx.callback.Speedometer(batch_size, frequent=50, auto_reset=True)` | every `frequent` batches, logs `Epoch[e] Batch [a-b]  Speed: N samples/sec  accuracy=…`: the speed since its last line, the metric of the batches since then (`auto_reset`) |
# | `mx.callback.do_checkpoint(prefix, period=1)` | saves `prefix-symbol.json` and `prefix-NNNN.params` after every `period`-th epoch, numbered from 1 |
# | `mx.callback.LogValidationMetricsCallback()` | logs `Epoch[e] Validation-accuracy=…`, which `fit` logs anyway |
# | `mx.callback.log_train_metric(period)`, `ProgressBar(total)` | the metric every `period` batches; a text progress bar |
#
# They all write through Python's `logging`, to the *root* logger at level INFO, which shows
# only WARNING and above unless the script configured it:
# `logging.basicConfig(level=logging.INFO)`, the first line of most legacy scripts, and it
# must come before the first MXNet log line (after it, `basicConfig` does nothing). The deep
# dive [Callbacks and metric logs](deep_dives/module_callbacks.ipynb) shows why, and
# measures which batches each Speedometer line covers. This notebook collects the lines with
# `logs.captured()` from the helper package: for the length of a `with` block, the root
# logger's INFO messages go to a list.


# %% [markdown]
# **MXNet**: three epochs with a learning rate and an initializer that train, a metric
# object and all three callbacks.

# %%
mx.random.seed(0)
mx_trained = mx.mod.Module(mlp_symbol())
with logs.captured() as log:
    mx_trained.fit(train_iter, eval_data=test_iter, eval_metric=mx.metric.Accuracy(),
                optimizer="sgd", optimizer_params={"learning_rate": 0.1},
                initializer=mx.init.Xavier(), num_epoch=3,
                batch_end_callback=mx.callback.Speedometer(BATCH, 10),
                epoch_end_callback=mx.callback.do_checkpoint(str(WORK / "mlp"), period=2),
                eval_end_callback=mx.callback.LogValidationMetricsCallback())

# %% tags=["nbval-ignore-output"]
print("\n".join(errors.short(line, WORK) for line in log))

# %% [markdown]
# **Check**: three Speedometer lines per epoch (after batches 10, 20 and 30 of 32), one
# `Train-accuracy` line per epoch, `Validation-accuracy` twice (`fit`'s line and the
# callback's), and one checkpoint, after the second epoch.

# %%
SPEEDOMETER = (r"Epoch\[(\d)\] Batch \[(\d+)-(\d+)\]\tSpeed: [\d.]+ samples/sec"
               r"\taccuracy=[\d.]+")
speed = [m.groups() for line in log for m in [re.fullmatch(SPEEDOMETER, line)] if m]
assert speed == [(str(e), a, b) for e in range(3)
                 for a, b in (("0", "10"), ("10", "20"), ("20", "30"))]
for e in range(3):
    assert sum(line.startswith(f"Epoch[{e}] Train-accuracy=") for line in log) == 1
    assert sum(line.startswith(f"Epoch[{e}] Validation-accuracy=") for line in log) == 2
assert [errors.short(line, WORK) for line in log if line.startswith("Saved")] == \
    ['Saved checkpoint to "<dir>/mlp-0002.params"']
assert sorted(p.name for p in WORK.glob("mlp*")) == ["mlp-0002.params", "mlp-symbol.json"]
"Speedometer(BATCH, 10): batches 10, 20, 30; do_checkpoint(period=2): epoch 2 only"

# %% [markdown]
# `eval_metric` accepts a name (`'acc'`, `'ce'`, …), a list of names (`mx.metric.create`
# makes a `CompositeEvalMetric` of them) or an `mx.metric.EvalMetric`, and is fed the
# Module's *outputs*: probabilities, after `SoftmaxOutput`. So `'ce'` is the cross-entropy of
# probabilities, `−log(p + 1e-12)`, where a PyTorch network's logits need a softmax first
# ([notebook 11](11_metrics.ipynb) §2); [the deep dive](deep_dives/module_callbacks.ipynb) §4
# checks `'acc'` and `'ce'` against `torchmetrics`.
#
# ### The PyTorch training loop, with the same log lines
#
# A Speedometer is a timer and a metric reset every `frequent` batches; `do_checkpoint` is a
# `torch.save` every `period` epochs. With `logging` (or a `tqdm` bar's `set_postfix`):

# %%
def torch_fit(net, epochs, lr, prefix, frequent=10, period=2, batch=BATCH):
    logger = logging.getLogger("torch_fit")
    pt_sgd = torch.optim.SGD(net.parameters(), lr=lr)
    window = torchmetrics.Accuracy(task="multiclass", num_classes=10)
    X, y = torch.from_numpy(X_train), torch.from_numpy(y_train)
    for epoch in range(epochs):
        tic = time.perf_counter()
        window.reset()                         # fit resets its metric every epoch
        for b, start in enumerate(range(0, len(X), batch)):
            xb, yb = X[start:start + batch], y[start:start + batch]
            out = net(xb)
            pt_sgd.zero_grad()
            nn.functional.cross_entropy(out, yb).backward()
            pt_sgd.step()
            window.update(out.detach(), yb)
            if (b + 1) % frequent == 0:
                rate = frequent * batch / (time.perf_counter() - tic)
                logger.info("Epoch[%d] Batch [%d-%d]\tSpeed: %.2f samples/sec\taccuracy=%f",
                            epoch, b + 1 - frequent, b + 1, rate, window.compute().item())
                window.reset()
                tic = time.perf_counter()
        if (epoch + 1) % period == 0:
            torch.save(net.state_dict(), f"{prefix}-{epoch + 1:04d}.pt")
    return net


torch.manual_seed(0)
with logs.captured() as pt_log:
    torch_fit(MLP().double(), 3, 0.1, WORK / "pt-mlp")

# %% tags=["nbval-ignore-output"]
print("\n".join(pt_log[:4]))

# %%
pt_speed = [m.groups() for line in pt_log for m in [re.fullmatch(SPEEDOMETER, line)] if m]
assert len(pt_log) == 9 and pt_speed == speed          # MXNet's 'Batch [a-b]' spans
assert sorted(p.name for p in WORK.glob("pt-mlp*")) == ["pt-mlp-0002.pt"]
"the same log lines and checkpoint cadence from a plain PyTorch loop"

# %% [markdown]
# ## 5. `score` and `predict`, and the padded last batch
#
# 1,000 test images in batches of 64: 15 full batches and one of 40, padded with the first
# 24 images (`batch.pad == 24`).
#
# **MXNet**: `score(eval_data, eval_metric)` runs the iterator and returns the metric's
# `(name, value)` pairs; `predict(eval_data)` returns the outputs, stacked into one array
# (`merge_batches=True`). `predict` drops the padded rows; `score` does not — it counts the
# 24 repeated images.

# %% tags=["mxnet"]
mx_score_metric = mx.metric.Accuracy()
mx_scored = dict(mx_trained.score(test_iter, mx_score_metric))["accuracy"]
mx_predicted = mx_trained.predict(test_iter)
mx_per_batch = mx_trained.predict(test_iter, merge_batches=False)
test_iter.reset()                  # predict leaves it at the end
pads = [b.pad for b in test_iter]
test_iter.reset()
mx_predicted.shape, len(mx_per_batch), mx_per_batch[-1][0].shape, pads[-1], mx_score_metric.num_inst

# %% [markdown]
# **PyTorch**: an evaluation loop — `eval()`, `torch.no_grad()`, the argmax of the logits.

# %% tags=["pytorch"]
def torch_predict(net, X, batch=BATCH):
    net.eval()
    with torch.no_grad():
        return torch.cat([net(torch.from_numpy(X[s:s + batch]))
                          for s in range(0, len(X), batch)])


pt_trained = torch_from(mx_trained.get_params()[0])
pt_pred = torch_predict(pt_trained, X_test).argmax(dim=1).numpy()
pt_accuracy = float((pt_pred == y_test).mean())
padded_order = np.arange(len(mx_per_batch) * BATCH) % N_TEST          # what score saw
pt_accuracy_padded = float((pt_pred[padded_order] == y_test[padded_order]).mean())

# %% tags=["nbval-ignore-output"]
{"score (1,024 rows)": mx_scored, "predict (1,000 rows)": float(
    (mx_predicted.asnumpy().argmax(1) == y_test).mean()), "PyTorch": pt_accuracy}

# %%
assert mx_predicted.shape == (N_TEST, 10) and mx_per_batch[-1][0].shape == (40, 10)
assert pads[-1] == 24 and mx_score_metric.num_inst == 1024
np.testing.assert_array_equal(mx_predicted.asnumpy().argmax(1), pt_pred)
assert float((mx_predicted.asnumpy().argmax(1) == y_test).mean()) == pt_accuracy
assert mx_scored == pt_accuracy_padded                # score counted the 24 padded images
compare.assert_same(torch.softmax(torch_predict(pt_trained, X_test), 1), mx_predicted,
                    atol=1e-14)
"predict drops the pad and equals PyTorch; score counts the padded rows"

# %% [markdown]
# `NDArrayIter(..., last_batch_handle='discard')` drops the last partial batch instead
# (`score` and `predict` then both see 960 images), `'roll_over'` carries it into the next
# epoch. A PyTorch `DataLoader` yields the short batch as it is (`drop_last=False`).
#
# ## 6. Checkpoints: Module, Gluon, PyTorch
#
# **MXNet**: `save_checkpoint(prefix, epoch)` writes the graph as JSON and the parameters
# with their kind as a prefix: `arg:` for trained arguments, `aux:` for auxiliary states
# (`save_optimizer_states=True` adds `prefix-0003.states`). Three ways back in:
# `mx.model.load_checkpoint` (the symbol and the two dicts), `Module.load` (a Module, to be
# bound before use), and Gluon's `SymbolBlock.imports`.

# %%
prefix = str(WORK / "mlp")
mx_trained.save_checkpoint(prefix, 3)
files = sorted(p.name for p in WORK.glob("mlp*"))
keys = sorted(mx.nd.load(f"{prefix}-0003.params"))
files, keys

# %%
loaded_symbol, loaded_args, loaded_aux = mx.model.load_checkpoint(prefix, 3)
mx_reloaded = mx.mod.Module.load(prefix, 3, data_names=("data",),
                              label_names=("softmax_label",))
mx_reloaded.bind(*float64_shapes(), for_training=False)
mx_reloaded_pred = mx_reloaded.predict(test_iter)
sorted(loaded_args), loaded_aux

# %% [markdown]
# `SymbolBlock.imports(json, ['data'], params)` — the call that loads an `export()`ed Gluon
# model — fails on a Module checkpoint: the graph still ends in `SoftmaxOutput`, whose
# `softmax_label` input is neither listed as an input nor stored in the file.

# %% tags=["raises-exception"]
with contextlib.chdir(WORK):        # relative names: no temporary folder in the message
    gluon.SymbolBlock.imports("mlp-symbol.json", ["data"], "mlp-0003.params")

# %% [markdown]
# Two ways out: declare the label as a second input (any value: the forward pass ignores
# it), or cut the graph at the layer before the loss (`get_internals()['fc2_output']`) and
# load the parameters into that — the logits, as PyTorch's network gives them.

# %% tags=["gluon"]
label_missing = errors.catch(gluon.SymbolBlock.imports, f"{prefix}-symbol.json", ["data"],
                             f"{prefix}-0003.params")
mx_with_label = gluon.SymbolBlock.imports(f"{prefix}-symbol.json", ["data", "softmax_label"],
                                       f"{prefix}-0003.params")
mx_probs = mx_with_label(mx.nd.array(X_test, dtype="float64"),
                         mx.nd.zeros(N_TEST, dtype="float64"))
mx_cut = gluon.SymbolBlock(loaded_symbol.get_internals()["fc2_output"], mx.sym.var("data"))
mx_cut.collect_params().load(f"{prefix}-0003.params", ctx=mx.cpu(), cast_dtype=True,
                          dtype_source="saved")            # reads the arg: prefixes
mx_logits = mx_cut(mx.nd.array(X_test, dtype="float64"))
errors.short(label_missing.line, WORK)

# %% [markdown]
# **PyTorch**: by hand, a state dict from `arg_params` with the names changed; or with
# `sidebyside.convert.module_checkpoint_to_state_dict`, which reads the two files, translates
# the names (`fc1_weight` → `fc1.weight`; BatchNorm's `gamma`, `beta`, `moving_mean`,
# `moving_var` → `weight`, `bias`, `running_mean`, `running_var`; `mapping=` renames layers),
# runs the symbol with MXNet up to the layer before the loss and the PyTorch network on one
# random input, and writes the `.pt` file only if they agree. (The Gluon route of
# [notebook 14](14_converting_models.ipynb), `convert.params_to_state_dict`, reads a Module
# `.params` file too, but only into a Gluon network with the Module's parameter names.)

# %% tags=["pytorch"]
pt_by_hand = MLP().double()
pt_by_hand.load_state_dict({".".join(k.rsplit("_", 1)): torch.from_numpy(v.asnumpy())
                         for k, v in loaded_args.items()})
pt_converted = MLP()
conversion = convert.module_checkpoint_to_state_dict(
    prefix, 3, WORK / "mlp.pt", torch_net=pt_converted, input_shape=(8, 784))

# %% tags=["nbval-ignore-output"]
print(errors.short(conversion.report(), WORK))

# %%
pt_from_file = MLP().double()
pt_from_file.load_state_dict(torch.load(WORK / "mlp.pt", weights_only=True))
assert files == ["mlp-0002.params", "mlp-0003.params", "mlp-symbol.json"]
assert keys == ["arg:fc1_bias", "arg:fc1_weight", "arg:fc2_bias", "arg:fc2_weight"]
assert loaded_aux == {} and label_missing.type == "AssertionError"
assert label_missing.line.startswith("Parameter 'softmax_label' is missing in file")
compare.assert_same(mx_reloaded_pred, mx_predicted, atol=0)
compare.assert_same(mx_probs, mx_predicted, atol=1e-14)
compare.assert_same(nn.functional.softmax(torch.from_numpy(mx_logits.asnumpy()), 1),
                    mx_predicted.asnumpy(), atol=1e-14)
for net in (pt_by_hand, pt_converted, pt_from_file):
    compare.assert_same(torch.softmax(torch_predict(net, X_test), 1), mx_predicted, atol=1e-14)
assert conversion.checks[0].ok and conversion.checks[0].max_abs_diff <= 1e-12
assert conversion.dtype == "float64" and conversion.pairs == [("fc1", "fc1"), ("fc2", "fc2")]
"one checkpoint, five readers (Module, load_checkpoint, SymbolBlock, by hand, convert): the same predictions"

# %% [markdown]
# ## 7. Code written for MXNet 2.x
#
# Code on GitHub's `master` branch of MXNet, and tutorials written for the 2.0 betas, use
# names that 1.9.1 — the last release — does not have. The Module API itself is gone from
# 2.x (`python/mxnet/module/` is not in `master`), as are `mx.metric` (now
# `mx.gluon.metric`) and `hybrid_forward`. The 2.x column is read from the `master` source
# (its last commit, January 2023); the other two run here and in the deep dive:
#
# | 2.x (master) | 1.9.1 | PyTorch |
# |---|---|---|
# | `mx.gluon.metric.Accuracy()` | `mx.metric.Accuracy()` | `torchmetrics.Accuracy(task="multiclass", num_classes=10)` |
# | `mx.device.cpu()`, `mx.Device`, `mx.device.current_device()` | `mx.cpu()`, `mx.Context` (`mx.context.current_context()`) | `torch.device("cpu")` |
# | `net.initialize(device=…)`, `mx.np.zeros(…, device=…)` | `ctx=…` | `.to(device)`, `torch.zeros(…, device=…)` |
# | `x.to_device(d)` (`as_in_ctx` deprecated) | `x.as_in_context(d)`; `as_in_ctx` on `mx.np.ndarray` only | `x.to(d)` |
# | `mx.np` arrays by default (`npx.set_np()` runs at import) | `mx.nd` by default; `npx.set_np()` switches | `torch.Tensor` |
# | `def forward(self, x)` in a `HybridBlock` (`hybrid_forward` refused) | `def hybrid_forward(self, F, x)` | `def forward(self, x)` |
#
# The names that matter most, checked here: the 2.x spelling fails on 1.9.1, the 1.9.1 one
# runs. The deep dive [MXNet 2.x names on 1.9.1](deep_dives/module_mxnet2_names.ipynb) runs
# every row of the table: the errors each 2.x name gives, `npx.set_np()`'s mode that blocks
# remember, and a 2.x-style `forward` block that runs but never hybridizes.

# %% tags=["raises-exception"]
mx.gluon.metric.Accuracy()

# %%
x_nd = mx.nd.ones((2, 3))
assert errors.catch(lambda: mx.gluon.metric.Accuracy()).type == "AttributeError"
assert not hasattr(mx, "device") and not hasattr(x_nd, "to_device")
assert "device" not in inspect.signature(gluon.Block.initialize).parameters
assert type(mx.metric.Accuracy()).__name__ == "Accuracy"
assert x_nd.as_in_context(mx.cpu()) is x_nd and torch.ones(2).to("cpu").device.type == "cpu"
assert "hybrid_forward" in vars(gluon.HybridBlock)
folder.cleanup()
"2.x names (mx.gluon.metric, mx.device, to_device, device=) fail on 1.9.1; its own spellings run"

# %% [markdown]
# ## Summary
#
# **MXNet (Module API) → PyTorch**
#
# | MXNet 1.x | PyTorch | note |
# |---|---|---|
# | `mx.sym.FullyConnected(x, num_hidden=64, name='fc1')` | `nn.Linear(784, 64)` | weight `(out, in)` in both; `FullyConnected` flattens its input |
# | `mx.sym.Activation(x, act_type='relu')` | `torch.relu(x)` | |
# | `mx.sym.SoftmaxOutput(x, name='softmax')` | `nn.CrossEntropyLoss()(logits, y)` | forward = probabilities; backward = the summed gradient, averaged by `rescale_grad = 1/batch` (§2) |
# | `mx.mod.Module(sym, data_names=('data',), label_names=('softmax_label',), context=ctx)` | `net = MLP().to(device)` | then `bind` and `init_params`; float64 needs `DataDesc(dtype='float64')` for data *and* label |
# | `arg_params, aux_params = mod.get_params()` | `net.state_dict()` | `fc1_weight` → `fc1.weight`; `aux:` = buffers |
# | `mod.forward_backward(batch)`, `mod.update()` | `loss.backward()`, `optimizer.step()` | |
# | `mod.fit(train_iter, num_epoch=n)` | `torch.optim.SGD(net.parameters(), lr=f32(0.01))` | `fit`'s defaults: SGD at 0.01 (reaching the update op as float32), `Uniform(0.01)` weights, zero biases, no decay (§3) |
# | `optimizer_params={'wd': wd}` | `SGD([{'params': weights, 'weight_decay': wd}, {'params': biases, 'weight_decay': 0.0}], lr=lr)` | the Module never decays `*_bias` (§3) |
# | `mx.io.NDArrayIter(X, y, batch_size, last_batch_handle='pad')` | `DataLoader(TensorDataset(X, y), batch_size)` | `fit` trains on the padded last batch; a `DataLoader` yields it short |
# | `mx.callback.Speedometer(batch_size, frequent)` | `logger.info(...)` and `metric.reset()` every `frequent` batches | logs to the root logger at INFO (§4) |
# | `mx.callback.do_checkpoint(prefix, period)` | `torch.save(net.state_dict(), f"{prefix}-{epoch + 1:04d}.pt")` | numbered from 1 |
# | `mx.metric.create(['acc', 'ce'])` | `torchmetrics.MetricCollection({...})` | `'ce'` takes probabilities |
# | `mod.score(it, 'acc')` | `(net(x).argmax(1) == y)` under `torch.no_grad()` | `score` counts the padded rows (§5) |
# | `mod.predict(it)` | `torch.cat([net(x) for x in batches])` under `torch.no_grad()` | `predict` drops the padded rows |
# | `mod.save_checkpoint(prefix, epoch)` | `torch.save(net.state_dict(), path)` | writes `prefix-symbol.json` and `prefix-NNNN.params` (`arg:`/`aux:`) |
# | `mx.model.load_checkpoint(prefix, epoch)`, `mx.mod.Module.load(prefix, epoch)` | `convert.module_checkpoint_to_state_dict(prefix, epoch, path, torch_net=net)` | `SymbolBlock.imports` needs the label input, or a cut graph (§6) |
#
# **PyTorch → MXNet (reading legacy code with PyTorch in mind)**
#
# | PyTorch | Module API | Gluon 1.9.1 | 2.x |
# |---|---|---|---|
# | `nn.CrossEntropyLoss()` | `mx.sym.SoftmaxOutput(x, name='softmax')` | `gluon.loss.SoftmaxCrossEntropyLoss()` | `gluon.loss.SoftmaxCrossEntropyLoss()` |
# | `torch.optim.SGD(params, lr=lr, weight_decay=wd)` | `mod.fit(it, optimizer='sgd', optimizer_params={'learning_rate': lr, 'wd': wd})` | `gluon.Trainer(params, 'sgd', {'learning_rate': lr, 'wd': wd})` | `gluon.Trainer(params, 'sgd', {'learning_rate': lr, 'wd': wd})` |
# | `loss.backward()`, `optimizer.step()` | `mod.fit(train_iter, num_epoch=n)` | `loss.backward()`, `trainer.step(batch_size)` | `loss.backward()`, `trainer.step(batch_size)` |
# | `torchmetrics.Accuracy(task="multiclass", num_classes=10)` | `mx.metric.Accuracy()` or `'acc'` | `mx.metric.Accuracy()` | `mx.gluon.metric.Accuracy()` |
# | `x.to(device)` | — | `x.as_in_context(ctx)` | `x.to_device(device)` |
# | `torch.device('cpu')` | `mx.mod.Module(sym, context=mx.cpu())` | `ctx=mx.cpu()` | `device=mx.cpu()` |
# | `def forward(self, x)` | `mx.sym` graph | `def hybrid_forward(self, F, x)` | `def forward(self, x)` |
# | `torch.save(net.state_dict(), path)` | `mod.save_checkpoint(prefix, epoch)` | `net.save_parameters(path)` | `net.save_parameters(path)` |
#
# ## Exercises
#
# 1. Train the Module of §3 for one epoch with `optimizer_params={'learning_rate': 0.1,
#    'momentum': 0.9}` and reproduce it with `torch_epoch`. Does PyTorch's momentum SGD need
#    anything beyond `f32` for the learning rate and the momentum?
# 2. Load a checkpoint of `mx_trained` into a PyTorch network whose layers have other names,
#    `nn.Sequential(nn.Linear(784, 64), nn.ReLU(), nn.Linear(64, 10))`, with
#    `module_checkpoint_to_state_dict`'s `mapping`.
#
# (What `Speedometer(..., auto_reset=False)` logs instead is the deep dive
# [Callbacks and metric logs](deep_dives/module_callbacks.ipynb) §3.)

# %% [markdown]
# :::{dropdown} Solutions
# 1. Nothing more: with `lr=f32(0.1), momentum=f32(0.9)` the epoch of `torch.optim.SGD`
#    matches the Module's to rounding level (the first cell below asserts at most 1e-14, and
#    prints the gap); with the unrounded 0.1 and 0.9 the gap is larger than 1e-9 — the same
#    update rule, momentum buffer included, with other hyper-parameters.
# 2. `mapping={"fc1": "0", "fc2": "2"}` (Module layer name → PyTorch layer name); the
#    `nn.Sequential`'s probabilities equal `predict`'s to 1e-14 (the second cell).
# :::
#
# **Solutions**, run with asserts: the two cells below (folded away in the book: open each
# one); each ends with its answer.

# %% tags=["hide-cell", "nbval-ignore-output"]
mx.random.seed(0)
mx_momentum_mod = mx.mod.Module(mlp_symbol())
mx_momentum_mod.fit(train_iter, num_epoch=1, arg_params=initial, optimizer="sgd",
                 optimizer_params={"learning_rate": 0.1, "momentum": 0.9})


def momentum_gap(lr, momentum):
    net = torch_from(initial)
    torch_epoch(net, X_train, y_train, lr=None, optimizer=torch.optim.SGD(
        net.parameters(), lr=lr, momentum=momentum))
    return weight_gap(mx_momentum_mod.get_params()[0], net)


momentum_gaps = {"f32(0.1), f32(0.9)": momentum_gap(f32(0.1), f32(0.9)),
                 "0.1, 0.9": momentum_gap(0.1, 0.9)}
assert momentum_gaps["f32(0.1), f32(0.9)"] <= 1e-14 < 1e-9 < momentum_gaps["0.1, 0.9"]
print(momentum_gaps)
"1. momentum SGD: the same update rule; f32 for lr and momentum is all it takes"

# %% tags=["hide-cell"]
with tempfile.TemporaryDirectory() as tmp:
    mx_trained.save_checkpoint(f"{tmp}/mlp", 3)
    pt_sequential = nn.Sequential(nn.Linear(784, 64), nn.ReLU(), nn.Linear(64, 10))
    convert.module_checkpoint_to_state_dict(f"{tmp}/mlp", 3, f"{tmp}/seq.pt",
                                            torch_net=pt_sequential, input_shape=(8, 784),
                                            mapping={"fc1": "0", "fc2": "2"})
compare.assert_same(torch.softmax(torch_predict(pt_sequential, X_test), 1), mx_predicted,
                    atol=1e-14)
"2. mapping={'fc1': '0', 'fc2': '2'} puts the Module's layers into nn.Sequential"
