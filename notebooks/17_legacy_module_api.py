# %% [markdown]
# # 17 · Legacy MXNet: the Module API, callbacks, and 2.x-era names
#
# **What you will learn**
#
# - how the Module API (`mx.sym` graph + `mx.mod.Module`, MXNet's training interface before
#   Gluon) builds, binds, initialises and runs a network, and how its weights move into a
#   PyTorch `nn.Module` — in float64, where the two agree to rounding level;
# - that `SoftmaxOutput` is a *loss layer* — its forward gives probabilities, its backward
#   the summed cross-entropy gradient — and where the mean of the batch comes from instead;
# - what `Module.fit` does when it is told nothing (SGD, learning rate 0.01,
#   `Uniform(0.01)`), a PyTorch loop that reproduces one epoch of it to 1e-15, and how a
#   legacy script's own `--lr`, `--wd` and initializer go silently unused;
# - the callbacks and metrics of legacy training logs (`Speedometer`, `do_checkpoint`,
#   `LogValidationMetricsCallback`, `mx.metric`), `score` and `predict` (which treat the
#   padded last batch differently), and the checkpoint files, read by the Module API, by
#   Gluon and by PyTorch (`sidebyside.convert.module_checkpoint_to_state_dict`);
# - the names of MXNet 2.x code found on GitHub (`mx.gluon.metric`, `to_device`, `mx.np`,
#   `mx.device`, `forward` instead of `hybrid_forward`), what each is on 1.9.1 and in PyTorch.
#
# Gluon's own training loop is [notebook 3](03_mnist_mlp.ipynb); optimizers and their
# float32 hyper-parameters are [notebook 8](08_optimizers_trainer.ipynb); metrics
# [notebook 11](11_metrics.ipynb); Gluon and PyTorch files
# [notebook 13](13_serialization.ipynb) and [notebook 14](14_converting_models.ipynb).
#
# **Prerequisites**: [notebook 3](03_mnist_mlp.ipynb) (Gluon's training loop) and [notebook
# 8](08_optimizers_trainer.ipynb) (the optimizers). **Time**: about 45 minutes.

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
from mxnet import gluon, npx
from torch import nn

from sidebyside import compare, convert, data, devices, errors, seeding

SEED = seeding.seed_everything(0)
devs = devices.pick()
pt_dev, mx_ctx = devs.torch.device, devs.mxnet.device
folder = tempfile.TemporaryDirectory()
WORK = Path(folder.name)
# SymbolBlock warns that it cannot infer the input's dtype (§6); the warning names a file
warnings.filterwarnings("ignore", message="Cannot decide type for the following arguments")


def short(text):
    """A message without this notebook's temporary folder in it."""
    return str(text).replace(str(WORK), "<dir>")


def f32(value):
    """`value` rounded to float32, as MXNet's update operators receive the learning rate
    (notebook 8 §2)."""
    return float(np.float32(value))


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


symbol = mlp_symbol()
symbol.list_arguments(), symbol.list_outputs()

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


mod = mx.mod.Module(symbol, data_names=("data",), label_names=("softmax_label",),
                    context=mx.cpu())
mod.bind(*float64_shapes())
mod.init_params(initializer=mx.init.Xavier())
arg_params, aux_params = mod.get_params()
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


mod.forward(batch_of(X_test[:BATCH], y_test[:BATCH]), is_train=False)
mx_out = mod.get_outputs()[0]
with torch.no_grad():
    pt_logits = pt_net(torch.from_numpy(X_test[:BATCH]))

mod32 = mx.mod.Module(mlp_symbol())
mod32.bind(data_shapes=[("data", (BATCH, 784))], label_shapes=[("softmax_label", (BATCH,))])
mod32.set_params({k: v.astype("float32") for k, v in arg_params.items()}, aux_params)
mod32.forward(batch_of(X_test[:BATCH], y_test[:BATCH], "float32"), is_train=False)
with torch.no_grad():
    pt_probs32 = torch.softmax(torch_from(arg_params, torch.float32)(
        torch.from_numpy(X_test[:BATCH]).float()), dim=1)
drift = {"float64": compare.max_abs_diff(torch.softmax(pt_logits, 1), mx_out),
         "float32": compare.max_abs_diff(pt_probs32, mod32.get_outputs()[0])}
mx_out.shape, mx_out.dtype.__name__, tuple(pt_logits.shape), pt_logits.dtype

# %% tags=["nbval-ignore-output"]
drift

# %%
# Check: the Module's output is the softmax of PyTorch's logits
compare.assert_same(torch.softmax(pt_logits, dim=1), mx_out, atol=1e-14)
assert np.allclose(mx_out.asnumpy().sum(axis=1), 1.0, atol=1e-12)    # probabilities
assert drift["float32"] <= 1e-6
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
image_shapes = dict(zip(symbol.list_arguments(),
                        symbol.infer_shape(data=(BATCH, 1, 28, 28))[0]))
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
step_mod = mx.mod.Module(mlp_symbol())
step_mod.bind(*float64_shapes())
step_mod.init_params(arg_params=arg_params)
step_mod.init_optimizer(optimizer="sgd", optimizer_params={"learning_rate": 0.1})
step_mod.forward_backward(batch_of(X_train[:BATCH], y_train[:BATCH]))
step_mod.update()
mx_after, _ = step_mod.get_params()
rescale = step_mod._optimizer.rescale_grad      # a private attribute, read to show it
rescale

# %% [markdown]
# **PyTorch**: `CrossEntropyLoss()` (mean) and one SGD step. MXNet passes the learning rate
# to its update operator as a float32 number, so the float64 comparison gives PyTorch the
# same rounded value, `f32(0.1)`.

# %%
pt_step = torch_from(arg_params)
sgd = torch.optim.SGD(pt_step.parameters(), lr=f32(0.1))
loss = nn.CrossEntropyLoss()(pt_step(torch.from_numpy(X_train[:BATCH])),
                             torch.from_numpy(y_train[:BATCH]))
sgd.zero_grad()
loss.backward()
sgd.step()


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
# defaults, read from the installed source (mxnet/module/base_module.py):

# %%
fit_source = inspect.getsource(mx.mod.BaseModule.fit)
print(inspect.getmodule(mx.mod.BaseModule.fit).__name__)
print(fit_source[:fit_source.index('"""')].rstrip())      # the signature: 0.01 twice

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
probe = mx.mod.Module(mlp_symbol())
probe.fit(train_iter, num_epoch=0)
initial, _ = probe.get_params()
optimizer = probe._optimizer
set_up = {"optimizer": type(optimizer).__name__, "learning_rate": optimizer.lr,
          "wd": optimizer.wd, "momentum": optimizer.momentum,
          "rescale_grad": optimizer.rescale_grad, "kvstore": probe._kvstore}
set_up      # learning rate 0.01

# %% [markdown]
# The default kvstore `'local'` creates no kvstore at all on one device (`None` above). The
# initializer draws from MXNet's random generator, so seeding it and calling
# `init_params(mx.init.Uniform(0.01))` must give the same weights:

# %%
mx.random.seed(0)
same_init = mx.mod.Module(mlp_symbol())
same_init.bind(*float64_shapes())
same_init.init_params(mx.init.Uniform(0.01))
assert set_up == {"optimizer": "SGD", "learning_rate": 0.01, "wd": 0.0, "momentum": 0.0,
                  "rescale_grad": 1 / BATCH, "kvstore": None}
for name, array in same_init.get_params()[0].items():
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
fit_mod = mx.mod.Module(mlp_symbol())
fit_mod.fit(train_iter, num_epoch=1)
after_fit, _ = fit_mod.get_params()
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
legacy = mx.mod.Module(mlp_symbol())
legacy.fit(train_iter, num_epoch=args.num_epochs, kvstore="local")     # lr, wd, init: lost
mx.random.seed(0)
meant = mx.mod.Module(mlp_symbol())
meant.fit(train_iter, num_epoch=args.num_epochs, kvstore="local", optimizer="sgd",
          optimizer_params={"learning_rate": args.lr, "wd": args.wd}, initializer=initializer)
accuracy = {"legacy": dict(legacy.score(test_iter, "acc"))["accuracy"],
            "meant": dict(meant.score(test_iter, "acc"))["accuracy"]}

# %% [markdown]
# The legacy call trained *exactly* like the all-defaults `fit` above. And a second surprise
# hides in the call that does pass `wd`: the Module's optimizer applies weight decay only to
# parameters whose names end in `_weight` or `_gamma` — the biases get none — whereas
# PyTorch's `SGD(weight_decay=...)` decays every parameter it is given. A faithful port uses
# two parameter groups:

# %%
port = torch_from(initial)
port_sgd = torch.optim.SGD(
    [{"params": [port.fc1.weight, port.fc2.weight], "weight_decay": f32(args.wd)},
     {"params": [port.fc1.bias, port.fc2.bias], "weight_decay": 0.0}], lr=f32(args.lr))
decayed = mx.mod.Module(mlp_symbol())
decayed.fit(train_iter, num_epoch=1, arg_params=initial, optimizer="sgd",
            optimizer_params={"learning_rate": args.lr, "wd": args.wd})
torch_epoch(port, X_train, y_train, lr=None, optimizer=port_sgd)
everything = torch_from(initial)
torch_epoch(everything, X_train, y_train, lr=None, optimizer=torch.optim.SGD(
    everything.parameters(), lr=f32(args.lr), weight_decay=f32(args.wd)))
wd_gaps = {"two groups": weight_gap(decayed.get_params()[0], port),
           "weight_decay on all": weight_gap(decayed.get_params()[0], everything)}

# %% tags=["nbval-ignore-output"]
accuracy, wd_gaps

# %%
for name, array in legacy.get_params()[0].items():
    compare.assert_same(array, after_fit[name], atol=0)          # = the all-defaults fit
assert (legacy._optimizer.lr, legacy._optimizer.wd) == (0.01, 0.0)
assert (meant._optimizer.lr, meant._optimizer.wd) == (args.lr, args.wd)
assert accuracy["legacy"] < 0.4 < 0.6 < accuracy["meant"]
assert meant._optimizer.wd_mult == {"fc1_bias": 0.0, "fc2_bias": 0.0}
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
# | `mx.callback.Speedometer(batch_size, frequent=50, auto_reset=True)` | every `frequent` batches, logs `Epoch[e] Batch [a-b]  Speed: N samples/sec  accuracy=…`; the speed is `frequent × batch_size` over the time since its last line, the metric covers the batches since then (it calls `eval_metric.reset_local()` when `auto_reset`) |
# | `mx.callback.do_checkpoint(prefix, period=1)` | saves `prefix-symbol.json` and `prefix-NNNN.params` after every `period`-th epoch, numbered from 1 |
# | `mx.callback.LogValidationMetricsCallback()` | logs `Epoch[e] Validation-accuracy=…`, which `fit` logs anyway |
# | `mx.callback.log_train_metric(period)`, `ProgressBar(total)` | the metric every `period` batches; a text progress bar |
#
# They all write through Python's `logging`, to the *root* logger at level INFO, which shows
# only WARNING and above unless the script configured it —
# `logging.basicConfig(level=logging.INFO)`, the first line of most legacy scripts. It has
# to come first: the module-level `logging.info` that MXNet calls installs a stderr handler
# the first time it finds none (keeping the level at WARNING), and `basicConfig` does
# nothing once the root logger has a handler. This notebook collects the lines with its own
# handler:

# %%
class Lines(logging.Handler):
    def __init__(self):
        super().__init__()
        self.lines = []

    def emit(self, record):
        self.lines.append(record.getMessage())


@contextlib.contextmanager
def logged(level=logging.INFO):
    """The messages logged to the root logger inside the block."""
    root, handler = logging.getLogger(), Lines()
    old_level, old_handlers = root.level, root.handlers[:]
    root.handlers = [handler]
    root.setLevel(level)
    try:
        yield handler.lines
    finally:
        root.handlers = old_handlers
        root.setLevel(old_level)


# %% [markdown]
# **MXNet**: three epochs with a learning rate and an initializer that train, a metric
# object, all three callbacks, and a spy that records how many samples the metric holds.

# %%
counts = []


def spy(param):
    counts.append((param.epoch, param.nbatch, param.eval_metric.num_inst,
                   param.eval_metric.global_num_inst))


mx.random.seed(0)
trained = mx.mod.Module(mlp_symbol())
with logged() as log:
    trained.fit(train_iter, eval_data=test_iter, eval_metric=mx.metric.Accuracy(),
                optimizer="sgd", optimizer_params={"learning_rate": 0.1},
                initializer=mx.init.Xavier(), num_epoch=3,
                batch_end_callback=[spy, mx.callback.Speedometer(BATCH, 10)],
                epoch_end_callback=mx.callback.do_checkpoint(str(WORK / "mlp"), period=2),
                eval_end_callback=mx.callback.LogValidationMetricsCallback())
root_handlers = [type(h).__name__ for h in logging.getLogger().handlers]   # fit's, since §3
logging.basicConfig(level=logging.INFO)     # too late: the root logger has a handler
root_level = logging.getLevelName(logging.getLogger().level)

# %% tags=["nbval-ignore-output"]
print("\n".join(short(line) for line in log))

# %% [markdown]
# **Check** — the lines, the window sizes, the files. The first window, "Batch [0-10]",
# holds 11 batches (the Speedometer starts its clock after batch 0 but does not reset the
# metric then); later ones hold 10; the 32nd batch is in no window. `Train-accuracy` is the
# global count over the epoch, padded batch included: 2,048 samples.

# %%
speed = [m for line in log for m in [re.fullmatch(
    r"Epoch\[(\d)\] Batch \[(\d+)-(\d+)\]\tSpeed: [\d.]+ samples/sec\taccuracy=[\d.]+", line)]
         if m]
windows = {(int(m[2]), int(m[3])): n for m in speed[:3]
           for (e, b, n, _) in counts if e == 0 and b == int(m[3])}
assert root_handlers == ["StreamHandler"] and root_level == "WARNING"   # outside logged()
assert len(speed) == 9 and windows == {(0, 10): 11 * BATCH, (10, 20): 10 * BATCH,
                                       (20, 30): 10 * BATCH}
assert (0, n_batches - 1, BATCH, n_batches * BATCH) in counts   # global: all 32 batches
assert sum(line.startswith("Epoch[0] Train-accuracy=") for line in log) == 1
assert sum(line.startswith("Epoch[0] Validation-accuracy=") for line in log) == 2   # twice
assert [short(line) for line in log if line.startswith("Saved")] == \
    ['Saved checkpoint to "<dir>/mlp-0002.params"']
assert sorted(p.name for p in WORK.glob("mlp*")) == ["mlp-0002.params", "mlp-symbol.json"]
"Speedometer: 11 batches in its first window, 10 after; do_checkpoint(period=2): epoch 2 only"

# %% [markdown]
# ### Metrics
#
# `eval_metric` accepts a name (`'acc'`, `'ce'`, `'top_k_accuracy'`, …), a list of names, or
# an `mx.metric.EvalMetric`. `mx.metric.create` turns a list into a `CompositeEvalMetric`.
# `update_metric` feeds the Module's *outputs* — probabilities, after `SoftmaxOutput` — so
# `'ce'` is the cross-entropy of probabilities, `−log(p + 1e-12)`; a PyTorch network's
# logits need a softmax first ([notebook 11](11_metrics.ipynb) §2). On the 960 test images
# that fill 15 batches (no padding: §5):

# %% tags=["mxnet"]
test_960 = float64_iter(X_test[:960], y_test[:960])
both = mx.metric.create(["acc", "ce"])
mx_metrics = dict(trained.score(test_960, both))
type(mx.metric.create("acc")).__name__, type(both).__name__, sorted(mx_metrics)

# %% [markdown]
# **PyTorch**: `torchmetrics` — `Accuracy` and, for the cross-entropy, a `MeanMetric` over
# the per-sample losses, in one `MetricCollection`. (A torchmetrics metric ignores
# `.double()`; `set_dtype(torch.float64)` makes it compute in float64.)

# %% tags=["pytorch"]
pt_trained = torch_from(trained.get_params()[0])
collection = torchmetrics.MetricCollection({
    "accuracy": torchmetrics.Accuracy(task="multiclass", num_classes=10),
    "cross-entropy": torchmetrics.MeanMetric()}).set_dtype(torch.float64)   # not .double()
with torch.no_grad():
    for start in range(0, 960, BATCH):
        x = torch.from_numpy(X_test[start:start + BATCH])
        y = torch.from_numpy(y_test[start:start + BATCH])
        logits_b = pt_trained(x)
        collection["accuracy"].update(logits_b, y)
        collection["cross-entropy"].update(nn.functional.cross_entropy(logits_b, y,
                                                                       reduction="none"))
pt_metrics = {k: v.item() for k, v in collection.compute().items()}

# %% tags=["nbval-ignore-output"]
mx_metrics, pt_metrics

# %%
assert mx_metrics["accuracy"] == pt_metrics["accuracy"]
assert abs(mx_metrics["cross-entropy"] - pt_metrics["cross-entropy"]) <= 1e-10   # eps=1e-12
"mx.metric 'acc' and 'ce' = torchmetrics Accuracy and the mean cross-entropy, to 1e-10"

# %% [markdown]
# ### The PyTorch training loop, with the same log lines
#
# A Speedometer is a timer and a metric reset every `frequent` batches; `do_checkpoint` is a
# `torch.save` every `period` epochs. With `logging` (or a `tqdm` bar's `set_postfix`):

# %%
def torch_fit(net, epochs, lr, prefix, frequent=10, period=2, batch=BATCH):
    logger = logging.getLogger("torch_fit")
    sgd = torch.optim.SGD(net.parameters(), lr=lr)
    window = torchmetrics.Accuracy(task="multiclass", num_classes=10)
    X, y = torch.from_numpy(X_train), torch.from_numpy(y_train)
    for epoch in range(epochs):
        tic = time.perf_counter()
        window.reset()                         # fit resets its metric every epoch
        for b, start in enumerate(range(0, len(X), batch)):
            xb, yb = X[start:start + batch], y[start:start + batch]
            out = net(xb)
            sgd.zero_grad()
            nn.functional.cross_entropy(out, yb).backward()
            sgd.step()
            window.update(out.detach(), yb)
            if (b + 1) % frequent == 0:
                speed = frequent * batch / (time.perf_counter() - tic)
                logger.info("Epoch[%d] Batch [%d-%d]\tSpeed: %.2f samples/sec\taccuracy=%f",
                            epoch, b + 1 - frequent, b + 1, speed, window.compute().item())
                window.reset()
                tic = time.perf_counter()
        if (epoch + 1) % period == 0:
            torch.save(net.state_dict(), f"{prefix}-{epoch + 1:04d}.pt")
    return net


torch.manual_seed(0)
with logged() as pt_log:
    torch_fit(MLP().double(), 3, 0.1, WORK / "pt-mlp")

# %% tags=["nbval-ignore-output"]
print("\n".join(pt_log[:4]))

# %%
assert len(pt_log) == 9 and all(re.fullmatch(
    r"Epoch\[\d\] Batch \[\d+-\d+\]\tSpeed: [\d.]+ samples/sec\taccuracy=[\d.]+", line)
    for line in pt_log)
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
score_metric = mx.metric.Accuracy()
scored = dict(trained.score(test_iter, score_metric))["accuracy"]
predicted = trained.predict(test_iter)
per_batch = trained.predict(test_iter, merge_batches=False)
test_iter.reset()                  # predict leaves it at the end
pads = [b.pad for b in test_iter]
test_iter.reset()
predicted.shape, len(per_batch), per_batch[-1][0].shape, pads[-1], score_metric.num_inst

# %% [markdown]
# **PyTorch**: an evaluation loop — `eval()`, `torch.no_grad()`, the argmax of the logits.

# %% tags=["pytorch"]
def torch_predict(net, X, batch=BATCH):
    net.eval()
    with torch.no_grad():
        return torch.cat([net(torch.from_numpy(X[s:s + batch]))
                          for s in range(0, len(X), batch)])


pt_pred = torch_predict(pt_trained, X_test).argmax(dim=1).numpy()
pt_accuracy = float((pt_pred == y_test).mean())
padded_order = np.arange(len(per_batch) * BATCH) % N_TEST          # what score saw
pt_accuracy_padded = float((pt_pred[padded_order] == y_test[padded_order]).mean())

# %% tags=["nbval-ignore-output"]
{"score (1,024 rows)": scored, "predict (1,000 rows)": float(
    (predicted.asnumpy().argmax(1) == y_test).mean()), "PyTorch": pt_accuracy}

# %%
assert predicted.shape == (N_TEST, 10) and per_batch[-1][0].shape == (40, 10)
assert pads[-1] == 24 and score_metric.num_inst == 1024
np.testing.assert_array_equal(predicted.asnumpy().argmax(1), pt_pred)
assert float((predicted.asnumpy().argmax(1) == y_test).mean()) == pt_accuracy
assert scored == pt_accuracy_padded                # score counted the 24 padded images
compare.assert_same(torch.softmax(torch_predict(pt_trained, X_test), 1), predicted,
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
trained.save_checkpoint(prefix, 3)
files = sorted(p.name for p in WORK.glob("mlp*"))
keys = sorted(mx.nd.load(f"{prefix}-0003.params"))
files, keys

# %%
loaded_symbol, loaded_args, loaded_aux = mx.model.load_checkpoint(prefix, 3)
reloaded = mx.mod.Module.load(prefix, 3, data_names=("data",),
                              label_names=("softmax_label",))
reloaded.bind(*float64_shapes(), for_training=False)
reloaded_pred = reloaded.predict(test_iter)
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
with_label = gluon.SymbolBlock.imports(f"{prefix}-symbol.json", ["data", "softmax_label"],
                                       f"{prefix}-0003.params")
gluon_probs = with_label(mx.nd.array(X_test, dtype="float64"),
                         mx.nd.zeros(N_TEST, dtype="float64"))
cut = gluon.SymbolBlock(loaded_symbol.get_internals()["fc2_output"], mx.sym.var("data"))
cut.collect_params().load(f"{prefix}-0003.params", ctx=mx.cpu(), cast_dtype=True,
                          dtype_source="saved")            # reads the arg: prefixes
gluon_logits = cut(mx.nd.array(X_test, dtype="float64"))
short(label_missing.line)

# %% [markdown]
# **PyTorch**: by hand, a state dict from `arg_params` with the names changed; or with
# `sidebyside.convert.module_checkpoint_to_state_dict`, which reads the two files, translates
# the names (`fc1_weight` → `fc1.weight`; BatchNorm's `gamma`, `beta`, `moving_mean`,
# `moving_var` → `weight`, `bias`, `running_mean`, `running_var`; `mapping=` renames layers),
# runs the symbol with MXNet up to the layer before the loss and the PyTorch network on one
# random input, and writes the `.pt` file only if they agree. (`convert.params_to_state_dict`,
# the Gluon route of [notebook 14](14_converting_models.ipynb), reads a Module `.params` file too — it strips `arg:`/`aux:`
# — but only into a Gluon network whose full parameter names are the Module's,
# `Dense(64, prefix='fc1_')`; it cannot take the `SymbolBlock`, which has no layers to pair.)

# %% tags=["pytorch"]
by_hand = MLP().double()
by_hand.load_state_dict({".".join(k.rsplit("_", 1)): torch.from_numpy(v.asnumpy())
                         for k, v in loaded_args.items()})
converted_net = MLP()
conversion = convert.module_checkpoint_to_state_dict(
    prefix, 3, WORK / "mlp.pt", torch_net=converted_net, input_shape=(8, 784))

# %% tags=["nbval-ignore-output"]
print(short(conversion.report()))

# %%
from_file = MLP().double()
from_file.load_state_dict(torch.load(WORK / "mlp.pt", weights_only=True))
assert files == ["mlp-0002.params", "mlp-0003.params", "mlp-symbol.json"]
assert keys == ["arg:fc1_bias", "arg:fc1_weight", "arg:fc2_bias", "arg:fc2_weight"]
assert loaded_aux == {} and label_missing.type == "AssertionError"
assert label_missing.line.startswith("Parameter 'softmax_label' is missing in file")
compare.assert_same(reloaded_pred, predicted, atol=0)
compare.assert_same(gluon_probs, predicted, atol=1e-14)
compare.assert_same(nn.functional.softmax(torch.from_numpy(gluon_logits.asnumpy()), 1),
                    predicted.asnumpy(), atol=1e-14)
for net in (by_hand, converted_net, from_file):
    compare.assert_same(torch.softmax(torch_predict(net, X_test), 1), predicted, atol=1e-14)
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
# (its last commit, January 2023); the other two run here:
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
# **Metrics and devices**: the 2.x spelling, then 1.9.1's.

# %% tags=["raises-exception"]
mx.gluon.metric.Accuracy()

# %%
x_nd = mx.nd.ones((2, 3))
renamed = {
    "mx.gluon.metric": errors.catch(lambda: mx.gluon.metric.Accuracy()),
    "mx.device": errors.catch(lambda: mx.device.cpu()),
    "initialize(device=)": errors.catch(gluon.nn.Dense(2, in_units=3).initialize,
                                        device=mx.cpu()),
    "mx.np.zeros(device=)": errors.catch(mx.np.zeros, (2, 3), device=mx.cpu()),
    "NDArray.to_device": errors.catch(lambda: x_nd.to_device(mx.cpu())),
    "NDArray.as_in_ctx": errors.catch(lambda: x_nd.as_in_ctx(mx.cpu())),
}
on_191 = {"metric": type(mx.metric.Accuracy()).__name__, "context": mx.Context("cpu", 0),
          "as_in_context": x_nd.as_in_context(mx.cpu()) is x_nd,
          "np as_in_ctx": type(mx.np.ones((2, 3)).as_in_ctx(mx.cpu())).__name__,
          "torch": torch.ones(2, 3).to("cpu").device}
{name: str(failure) for name, failure in renamed.items()}, on_191

# %%
assert all(f.type == "AttributeError" for k, f in renamed.items()
           if k not in ("initialize(device=)", "mx.np.zeros(device=)"))
assert renamed["initialize(device=)"].line == \
    "Block.initialize() got an unexpected keyword argument 'device'"
assert renamed["mx.np.zeros(device=)"].line == \
    "zeros() got an unexpected keyword argument 'device'"
assert renamed["NDArray.as_in_ctx"].line == "'NDArray' object has no attribute 'as_in_ctx'"
assert not hasattr(mx.np.ndarray, "to_device") and hasattr(mx.np.ndarray, "as_in_ctx")
assert on_191["as_in_context"] and on_191["np as_in_ctx"] == "ndarray"
"2.x names fail on 1.9.1 with AttributeError/TypeError; the 1.9.1 spellings run"

# %% [markdown]
# **`mx.np` and `npx.set_np()`**: both exist in 1.9.1. `mx.np.ndarray` is NumPy-like (and a
# subclass of `mx.nd.NDArray` there); `npx.set_np()` switches Gluon to it, globally. A block
# then takes and returns `mx.np` arrays — and blocks remember which mode they were created
# in: one made before `set_np` fails after it, and the other way round. (Reset at the end of
# the cell: the mode would otherwise leak into everything below.)

# %%
before = gluon.nn.Dense(2, in_units=3)
before.initialize()
npx.set_np()
try:
    after = gluon.nn.Dense(2, in_units=3)
    after.initialize()
    np_mode = {"output": type(after(mx.np.ones((1, 3)))).__module__,
               "parameter": type(after.weight.data()).__module__,
               "legacy input": errors.catch(after, mx.nd.ones((1, 3))).type,
               "block made before set_np": errors.catch(before, mx.np.ones((1, 3))).type}
finally:
    npx.reset_np()
np_mode["block made under set_np, after reset"] = errors.catch(after, mx.nd.ones((1, 3))).type
np_mode

# %%
assert np_mode == {"output": "mxnet.numpy", "parameter": "mxnet.numpy",
                   "legacy input": "TypeError", "block made before set_np": "TypeError",
                   "block made under set_np, after reset": "TypeError"}
assert issubclass(mx.np.ndarray, mx.nd.NDArray) and not mx.util.is_np_array()
"under set_np, Gluon speaks mx.np; a block works only in the mode it was made in"

# %% [markdown]
# **`forward` instead of `hybrid_forward`**: 2.x code defines `forward(self, x)` on a
# `HybridBlock`. On 1.9.1 such a block runs — imperatively: `hybridize()` is silently
# ignored, and `export` then fails. 1.9.1 needs `hybrid_forward(self, F, x)`; PyTorch has
# only `forward`.

# %%
class ForwardOnly(gluon.HybridBlock):              # 2.x style
    def __init__(self):
        super().__init__()
        with self.name_scope():
            self.dense = gluon.nn.Dense(3, in_units=2)

    def forward(self, x):
        return mx.nd.relu(self.dense(x))


class WithF(gluon.HybridBlock):                    # 1.9.1 style
    def __init__(self):
        super().__init__()
        with self.name_scope():
            self.dense = gluon.nn.Dense(3, in_units=2)

    def hybrid_forward(self, F, x):
        return F.relu(self.dense(x))


def hybridize_and_export(cls):
    block = cls()
    block.initialize()
    block.hybridize()
    block(mx.nd.ones((1, 2)))
    try:
        block.export(str(WORK / cls.__name__))
    except RuntimeError as err:
        return str(err)
    return "exported"


blocks = {cls.__name__: hybridize_and_export(cls) for cls in (ForwardOnly, WithF)}
blocks

# %%
assert blocks == {"ForwardOnly": "Please first call block.hybridize() and then run forward "
                                 "with this block at least once before calling export.",
                  "WithF": "exported"}
folder.cleanup()
"a 2.x-style forward() HybridBlock runs on 1.9.1 but is never hybridized or exported"

# %% [markdown]
# ## Summary
#
# **MXNet (Module API) → PyTorch**
#
# | MXNet 1.x | PyTorch | note |
# |---|---|---|
# | `mx.sym.Variable('data')`, `FullyConnected(num_hidden=, name=)`, `Activation` | `nn.Module` with `nn.Linear`, `torch.relu` | weight `(out, in)` in both; `FullyConnected` flattens its input |
# | `SoftmaxOutput(name='softmax')` | logits out, `nn.CrossEntropyLoss()` outside | forward = probabilities; backward = summed gradient, the mean comes from `rescale_grad` (§2) |
# | `mx.mod.Module(sym, data_names, label_names, context)` + `bind` + `init_params` | building the `nn.Module`, `.to(device)` | float64 needs `DataDesc(dtype='float64')` for data *and* label |
# | `get_params()` → `(arg_params, aux_params)` | `state_dict()` | `fc1_weight` → `fc1.weight`; `aux:` = buffers |
# | `forward_backward(batch)` + `update()` | `loss.backward()` + `optimizer.step()` | |
# | `fit(...)` defaults | `SGD(lr=0.01)`, `uniform_(-0.01, 0.01)` weights, zero biases, no decay | lr reaches the update op as float32 |
# | `optimizer_params={'wd': …}` | two parameter groups: weights decayed, biases not | the Module never decays `*_bias` (§3) |
# | `NDArrayIter(last_batch_handle='pad')` | `DataLoader` (short last batch) | fit trains on the padded batch |
# | `Speedometer(batch_size, frequent)` | a timer + `torchmetrics` reset every `frequent` batches | logs to the root logger at INFO |
# | `do_checkpoint(prefix, period)` | `torch.save(state_dict, f"{prefix}-{epoch:04d}.pt")` | numbered from 1 |
# | `mx.metric.create(['acc', 'ce'])` | `torchmetrics.MetricCollection` | `'ce'` takes probabilities |
# | `score(it, metric)` | eval loop, `torch.no_grad()` | `score` counts padded rows |
# | `predict(it)` | `torch.cat` of `net(x)` under `no_grad` | `predict` drops them |
# | `save_checkpoint(prefix, epoch)` | `torch.save(net.state_dict(), path)` | `-symbol.json` + `-NNNN.params` (`arg:`/`aux:`) |
# | `mx.model.load_checkpoint`, `Module.load` | `module_checkpoint_to_state_dict(prefix, epoch, path, torch_net=…)` | `SymbolBlock` needs the label input, or a cut graph |
#
# **PyTorch → MXNet (reading legacy code with PyTorch in mind)**
#
# | PyTorch | Module API | Gluon 1.9.1 | 2.x |
# |---|---|---|---|
# | `nn.CrossEntropyLoss()` | `SoftmaxOutput` + `rescale_grad=1/batch` | `gluon.loss.SoftmaxCrossEntropyLoss` + `trainer.step(batch)` | same as Gluon |
# | `torch.optim.SGD(params, lr, weight_decay)` | `fit(optimizer='sgd', optimizer_params={'learning_rate', 'wd'})` | `gluon.Trainer(params, 'sgd', {...})` | same |
# | a training loop | `Module.fit` | your own loop | your own loop (no Module) |
# | `torchmetrics.Accuracy` | `mx.metric.Accuracy` / `'acc'` | `mx.metric.Accuracy` | `mx.gluon.metric.Accuracy` |
# | `x.to(device)` | — | `x.as_in_context(ctx)` | `x.to_device(device)` |
# | `torch.device('cpu')` | `context=mx.cpu()` | `ctx=mx.cpu()` | `device=mx.cpu()` |
# | `def forward(self, x)` | a symbol | `hybrid_forward(self, F, x)` | `forward(self, x)` |
# | `torch.save(state_dict)` | `save_checkpoint` | `save_parameters` / `export` | same |
#
# ## Exercises
#
# 1. Train the Module of §3 for one epoch with `optimizer_params={'learning_rate': 0.1,
#    'momentum': 0.9}` and reproduce it with `torch_epoch`. Does PyTorch's momentum SGD need
#    anything beyond `f32` for the learning rate and the momentum?
# 2. Train a fresh Module for one epoch with `Speedometer(BATCH, 10, auto_reset=False)`.
#    What do its lines say now, and how many samples does the metric hold at its last line?
# 3. Load a checkpoint of `trained` into a PyTorch network whose layers have other names,
#    `nn.Sequential(nn.Linear(784, 64), nn.ReLU(), nn.Linear(64, 10))`, with
#    `module_checkpoint_to_state_dict`'s `mapping`.

# %% [markdown]
# :::{dropdown} Solutions
# 1. Nothing more: with `lr=f32(0.1), momentum=f32(0.9)` the epoch of `torch.optim.SGD`
#    matches the Module's to 3e-16 (the same update rule, momentum buffer included); with the
#    unrounded 0.1 and 0.9 the gap is 7e-8.
# 2. The windows no longer restart: `Batch [0-10]`, `[0-20]`, `[0-30]`, each with the running
#    accuracy of the epoch so far (0.425, 0.501, 0.548 here, against 0.425, 0.586, 0.645 per
#    window with the default). At its last line, batch 30, the metric holds 31 × 64 = 1,984
#    samples; `Train-accuracy` then adds the padded 32nd batch (2,048).
# 3. `mapping={"fc1": "0", "fc2": "2"}` (Module layer name → PyTorch layer name); the
#    `nn.Sequential`'s probabilities equal `predict`'s to 1.4e-15.
# :::
#
# **Solutions**, run with asserts: the three cells below (folded away in the book: open each
# one); each ends with its answer.

# %% tags=["hide-cell"]
mx.random.seed(0)
momentum_mod = mx.mod.Module(mlp_symbol())
momentum_mod.fit(train_iter, num_epoch=1, arg_params=initial, optimizer="sgd",
                 optimizer_params={"learning_rate": 0.1, "momentum": 0.9})
momentum_pt = torch_from(initial)
torch_epoch(momentum_pt, X_train, y_train, lr=None, optimizer=torch.optim.SGD(
    momentum_pt.parameters(), lr=f32(0.1), momentum=f32(0.9)))
assert weight_gap(momentum_mod.get_params()[0], momentum_pt) <= 1e-14
"1. momentum SGD: the same update rule; f32 for lr and momentum is all it takes"

# %% tags=["hide-cell"]
counts.clear()
cumulative = mx.mod.Module(mlp_symbol())
with logged() as log2:
    cumulative.fit(train_iter, num_epoch=1, optimizer_params={"learning_rate": 0.1},
                   initializer=mx.init.Xavier(),
                   batch_end_callback=[spy, mx.callback.Speedometer(BATCH, 10,
                                                                    auto_reset=False)])
spans = [re.match(r"Epoch\[0\] Batch \[(\d+)-(\d+)\]", line).groups()
         for line in log2 if "Speed" in line]
assert spans == [("0", "10"), ("0", "20"), ("0", "30")]
assert [n for (_, b, n, _) in counts if b == 30] == [31 * BATCH]      # never reset
"2. auto_reset=False: 'Batch [0-N]', the running accuracy of the epoch so far"

# %% tags=["hide-cell"]
with tempfile.TemporaryDirectory() as tmp:
    trained.save_checkpoint(f"{tmp}/mlp", 3)
    sequential = nn.Sequential(nn.Linear(784, 64), nn.ReLU(), nn.Linear(64, 10))
    convert.module_checkpoint_to_state_dict(f"{tmp}/mlp", 3, f"{tmp}/seq.pt",
                                            torch_net=sequential, input_shape=(8, 784),
                                            mapping={"fc1": "0", "fc2": "2"})
compare.assert_same(torch.softmax(torch_predict(sequential, X_test), 1), predicted,
                    atol=1e-14)
"3. mapping={'fc1': '0', 'fc2': '2'} puts the Module's layers into nn.Sequential"
