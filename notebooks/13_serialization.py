# %% [markdown]
# # 13 · Saving and loading: parameters, checkpoints, file formats, deployment
#
# **What you will learn**
#
# - `save_parameters` / `load_parameters` next to `state_dict` / `load_state_dict`: what
#   happens with missing keys, unexpected keys, other shapes and other dtypes, and what each
#   flag (`allow_missing`, `ignore_extra`, `cast_dtype`, `strict`) changes;
# - whole checkpoints — model, optimizer state, epoch — that resume exactly; what is inside
#   each framework's files (and the keys of Gluon's older `save_params` files), which of them
#   can run code when loaded, and what happens when a file is damaged;
# - the deployment formats (`export()` + `SymbolBlock.imports`, `torch.export`, TorchScript),
#   and DLPack, which hands an array from one framework to the other without a copy.
#
# Converting a trained model *between* the frameworks is [notebook 14](14_converting_models.ipynb);
# reading these files with no MXNet installed, and translating an exported graph into PyTorch
# code, is [notebook 19](19_legacy_files_to_pytorch.ipynb).
#
# **Prerequisites**: [notebook 6](06_blocks.ipynb) (parameters and their names). **Time**:
# about 25 minutes.

# %% tags=["nbval-ignore-output"]
import json
import subprocess
import sys
import tempfile
import time
import warnings
import zipfile
from pathlib import Path

import mxnet as mx
import numpy as np
import torch
import torchvision
from mxnet import autograd, gluon
from torch import nn

from sidebyside import checkpoint, compare, convert, devices, errors, seeding

SEED = seeding.seed_everything(0)
devs = devices.pick()
pt_dev, mx_ctx = devs.torch.device, devs.mxnet.device
folder = tempfile.TemporaryDirectory()
WORK = Path(folder.name)

# %% [markdown]
# ## 1. Parameters: `state_dict` and `save_parameters`
#
# The same small network on both sides, with the same attribute names (so the saved keys
# agree; [notebook 6](06_blocks.ipynb) §1 shows when they do not).
#
# **PyTorch**: the `state_dict` is an ordered dict of tensors; `torch.save` writes it.

# %% tags=["pytorch"]
class TorchNet(nn.Module):
    def __init__(self, hidden=8, head=False):
        super().__init__()
        self.hidden = nn.Linear(4, hidden)
        self.out = nn.Linear(hidden, 2)
        if head:
            self.head = nn.Linear(2, 2)

    def forward(self, x):
        return self.out(torch.relu(self.hidden(x)))


pt_net = TorchNet()
torch.save(pt_net.state_dict(), WORK / "net.pt")
pt_copy = TorchNet()
pt_copy.load_state_dict(torch.load(WORK / "net.pt"))
list(pt_net.state_dict())

# %% [markdown]
# **Gluon**: `save_parameters` writes the parameters keyed by their structural names;
# `load_parameters` reads them into a network built the same way.

# %% tags=["gluon"]
class GluonNet(gluon.Block):
    def __init__(self, hidden=8, head=False, **kwargs):
        super().__init__(**kwargs)
        self.hidden = gluon.nn.Dense(hidden, in_units=4, activation="relu")
        self.out = gluon.nn.Dense(2, in_units=hidden)
        if head:
            self.head = gluon.nn.Dense(2, in_units=2)

    def forward(self, x):
        return self.out(self.hidden(x))


mx_net = GluonNet()
mx_net.initialize()
mx_net.save_parameters(str(WORK / "net.params"))
mx_copy = GluonNet()
mx_copy.load_parameters(str(WORK / "net.params"))
sorted(mx.nd.load(str(WORK / "net.params")))

# %%
x4 = np.random.default_rng(0).standard_normal((3, 4)).astype(np.float32)
compare.assert_same(pt_copy(torch.from_numpy(x4)), pt_net(torch.from_numpy(x4)), atol=0)
compare.assert_same(mx_copy(mx.nd.array(x4)), mx_net(mx.nd.array(x4)), atol=0)
assert sorted(mx.nd.load(str(WORK / "net.params"))) == sorted(pt_net.state_dict())
# the same keys, so PyTorch's weights saved as a .params file load into the Gluon twin
mx.nd.save(str(WORK / "from_torch.params"),
           {k: mx.nd.array(v.numpy()) for k, v in pt_net.state_dict().items()})
mx_twin = GluonNet()
mx_twin.load_parameters(str(WORK / "from_torch.params"))
compare.assert_same(mx_twin(mx.nd.array(x4)), pt_net(torch.from_numpy(x4)), rtol=1e-6,
                    atol=1e-6)
"saved and loaded exactly, under the same keys; the twins compute the same function"

# %% [markdown]
# ### When the file and the network disagree
#
# Four ways a checkpoint and a network can differ — a layer the file lacks, a layer the
# network lacks, a different size, a different dtype — and what each framework does by
# default:

# %%
def torch_attempt(model, source="source.pt", strict=True):
    try:
        result = model.load_state_dict(torch.load(WORK / source), strict=strict)
        return f"loaded; {result}" if result.missing_keys or result.unexpected_keys \
            else "loaded"
    except RuntimeError as exc:
        return str(exc).replace("\n\t", " | ")


def gluon_attempt(model, source="source.params", **flags):
    model.initialize()
    try:
        model.load_parameters(str(WORK / source), **flags)
        return "loaded"
    except Exception as exc:  # noqa: BLE001 - MXNet raises AssertionError, RuntimeError, …
        return errors.short(f"{type(exc).__name__}: {exc}".splitlines()[0], WORK)


torch.save(TorchNet().state_dict(), WORK / "source.pt")
torch.save(TorchNet(head=True).state_dict(), WORK / "source-head.pt")
for head, name in ((False, "source.params"), (True, "source-head.params")):
    saved = GluonNet(head=head)
    saved.initialize()
    saved.save_parameters(str(WORK / name))
half = GluonNet()
half.cast("float16")
cases = {
    "the network has a layer the file lacks": {
        "torch": torch_attempt(TorchNet(head=True)),
        "gluon": gluon_attempt(GluonNet(head=True))},
    "the file has a layer the network lacks": {
        "torch": torch_attempt(TorchNet(), "source-head.pt"),
        "gluon": gluon_attempt(GluonNet(), "source-head.params")},
    "a layer has another size": {
        "torch": torch_attempt(TorchNet(hidden=9)),
        "gluon": gluon_attempt(GluonNet(hidden=9))},
    "another dtype": {
        "torch": torch_attempt(TorchNet().double()),
        "gluon": gluon_attempt(half)},
}

# %% tags=["nbval-ignore-output"]
cases

# %% [markdown]
# **Check**, case by case — and what each flag changes:

# %%
assert cases["the network has a layer the file lacks"]["torch"].startswith(
    "Error(s) in loading state_dict for TorchNet: | Missing key(s) in state_dict")
assert "'head.weight' is missing in file" in cases[
    "the network has a layer the file lacks"]["gluon"]
assert "Unexpected key(s) in state_dict" in cases[
    "the file has a layer the network lacks"]["torch"]
assert cases["the file has a layer the network lacks"]["gluon"].startswith(
    "ValueError: Parameter 'head.weight' loaded from file '<dir>/source-head.params' is not "
    "present in ParameterDict")
assert "size mismatch for hidden.weight" in cases["a layer has another size"]["torch"]
assert "shape incompatible expected (9, 4) vs saved (8, 4)" in cases[
    "a layer has another size"]["gluon"]
assert cases["another dtype"]["torch"] == "loaded"            # copy_() converts
assert "dtype incompatible expected float16" in cases["another dtype"]["gluon"]

loose = TorchNet(head=True).load_state_dict(torch.load(WORK / "source.pt"), strict=False)
assert loose.missing_keys == ["head.weight", "head.bias"]
assert gluon_attempt(GluonNet(head=True), allow_missing=True) == "loaded"
assert "size mismatch" in torch_attempt(TorchNet(hidden=9), strict=False)   # never loose
as_half = GluonNet()
as_half.cast("float16")
assert gluon_attempt(as_half, cast_dtype=True) == "loaded"
assert as_half.hidden.weight.data().dtype == np.float16       # dtype_source="current"
"missing/unexpected: errors by default, flags to allow; sizes: always an error"

# %% [markdown]
# | case | PyTorch `load_state_dict` | Gluon `load_parameters` |
# |---|---|---|
# | the network has a layer the file lacks | `RuntimeError` "Missing key(s)"; `strict=False` loads the rest and returns the missing keys | `AssertionError` "… is missing in file"; `allow_missing=True` |
# | the file has a layer the network lacks | "Unexpected key(s)"; `strict=False` | `ValueError` "… is not present in ParameterDict" (whose list of parameters is empty: a bug in the message); `ignore_extra=True` |
# | a layer has another size | "size mismatch", even with `strict=False` | `AssertionError` "shape incompatible" |
# | another dtype | loaded: values converted to the model's dtype | `AssertionError` "dtype incompatible"; `cast_dtype=True` casts to the network's dtype (`dtype_source="current"`) or keeps the file's (`"saved"`) |
#
# ## 2. Whole checkpoints: model, optimizer, epoch
#
# Resuming training needs the optimizer's state too — momentum buffers, Adam's moments and
# step count ([notebook 8](08_optimizers_trainer.ipynb) §8 checks each on its own). The usual layouts: PyTorch puts
# everything in one `torch.save`d dict; Gluon writes the parameters and the `Trainer`'s state
# to two files (plus whatever else, here the epoch, in a third).
#
# **PyTorch**

# %% tags=["pytorch"]
X = torch.randn(64, 4, generator=torch.Generator().manual_seed(1))
Y = torch.randn(64, 2, generator=torch.Generator().manual_seed(2))


def pt_train(model, opt, epochs):
    for _ in range(epochs):
        opt.zero_grad()
        nn.functional.mse_loss(model(X), Y).backward()
        opt.step()


torch.manual_seed(0)
pt_model = TorchNet()
pt_opt = torch.optim.SGD(pt_model.parameters(), lr=0.1, momentum=0.9)
pt_train(pt_model, pt_opt, 3)
torch.save({"model": pt_model.state_dict(), "optimizer": pt_opt.state_dict(), "epoch": 3},
           WORK / "checkpoint.pt")
pt_train(pt_model, pt_opt, 3)                      # carry on without stopping

resumed = TorchNet()
resumed_opt = torch.optim.SGD(resumed.parameters(), lr=0.1, momentum=0.9)
state = torch.load(WORK / "checkpoint.pt")
resumed.load_state_dict(state["model"])
resumed_opt.load_state_dict(state["optimizer"])
pt_train(resumed, resumed_opt, 6 - state["epoch"])
sorted(state)

# %% [markdown]
# **Gluon**

# %% tags=["gluon"]
def mx_train(model, trainer, epochs):
    x, y = mx.nd.array(X.numpy()), mx.nd.array(Y.numpy())
    for _ in range(epochs):
        with autograd.record():
            loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        trainer.step(1)


torch.manual_seed(0)                 # PyTorch's starting weights (pt_model), as in §1
mx.nd.save(str(WORK / "start.params"),
           {k: mx.nd.array(v.numpy()) for k, v in TorchNet().state_dict().items()})
mx_model = GluonNet()
mx_model.load_parameters(str(WORK / "start.params"))
mx_trainer = gluon.Trainer(mx_model.collect_params(), "sgd",
                           {"learning_rate": 0.1, "momentum": 0.9})
mx_train(mx_model, mx_trainer, 3)
(WORK / "ckpt").mkdir()
mx_model.save_parameters(str(WORK / "ckpt" / "model.params"))
mx_trainer.save_states(str(WORK / "ckpt" / "trainer.states"))
(WORK / "ckpt" / "meta.json").write_text(json.dumps({"epoch": 3}))
mx_train(mx_model, mx_trainer, 3)

mx_resumed = GluonNet()
mx_resumed.load_parameters(str(WORK / "ckpt" / "model.params"))
mx_resumed_trainer = gluon.Trainer(mx_resumed.collect_params(), "sgd",
                                   {"learning_rate": 0.1, "momentum": 0.9})
mx_resumed_trainer.load_states(str(WORK / "ckpt" / "trainer.states"))
mx_train(mx_resumed, mx_resumed_trainer,
         6 - json.loads((WORK / "ckpt" / "meta.json").read_text())["epoch"])
sorted(p.name for p in (WORK / "ckpt").iterdir())

# %% [markdown]
# **Check**: after stopping at epoch 3 and resuming, each framework ends where it would have
# ended without stopping — to the bit. Both started from PyTorch's weights, so the two
# frameworks' runs agree as well, to float32 rounding.

# %%
for a, b in zip(resumed.parameters(), pt_model.parameters()):
    compare.assert_same(a, b, rtol=0, atol=0)
for a, b in zip(mx_resumed.collect_params().values(), mx_model.collect_params().values()):
    compare.assert_same(a.data(), b.data(), rtol=0, atol=0)
for a, b in zip(pt_model.parameters(), mx_model.collect_params().values()):   # same start
    compare.assert_same(a, b.data(), rtol=1e-5, atol=1e-6)
"resumed == not stopped, in both; and Gluon's six steps = PyTorch's, in float32"

# %% [markdown]
# ## 3. What is in the files — and which ones can run code
#
# MXNet's `.params` is MXNet's own binary format: a magic number (`0x112`), then the
# arrays and their names. `torch.save` writes a zip archive holding a pickle and one entry per
# tensor. The `Trainer`'s states file is a bare pickle:

# %%
heads = {name: (WORK / path).read_bytes()[:8].hex()
         for name, path in (("net.params", "net.params"), ("net.pt", "net.pt"),
                            ("trainer.states", "ckpt/trainer.states"))}
members = zipfile.ZipFile(WORK / "net.pt").namelist()
{"first bytes": heads, "inside net.pt": members}

# %%
assert heads["net.params"] == (0x112).to_bytes(8, "little").hex()
assert heads["net.pt"].startswith("504b0304")                  # "PK": a zip archive
assert heads["trainer.states"].startswith("80")                # a pickle
assert any(m.endswith("data.pkl") for m in members)
assert [checkpoint.kind(WORK / p) for p in ("net.params", "net.pt", "ckpt/trainer.states")] \
    == [checkpoint.MXNET, checkpoint.TORCH_ZIP, checkpoint.PICKLE]
"MXNet binary, a zip with a pickle inside, a bare pickle"

# %% [markdown]
# A pickle can ask for any function to be called while it is loaded. `torch.load` has refused
# everything but tensors and plain containers by default since PyTorch 2.6
# (`weights_only=True`). A checkpoint that carries an object whose unpickling runs code:

# %%
class RunsOnLoad:
    def __reduce__(self):
        return (print, ("this ran while the checkpoint was being loaded",))


torch.save({"weights": torch.ones(2), "extra": RunsOnLoad()}, WORK / "unsafe.pt")

# %% tags=["raises-exception"]
torch.load(WORK / "unsafe.pt")

# %%
refused = errors.catch(torch.load, WORK / "unsafe.pt")
assert refused.type == "UnpicklingError" and "Weights only load failed" in refused.line
assert "Unsupported global: GLOBAL print" in refused.message   # what it would have called
"weights_only=True refuses it, and names the function it would have called"

# %% [markdown]
# `weights_only=False` would load it — and print that line: only for files you trust.
# `mx.nd.load` never unpickles anything; but `trainer.load_states` does (`pickle.loads`), so a
# `.states` file from an unknown source is as unsafe as any pickle. `sidebyside.checkpoint`
# reads either framework's weight files and refuses bare pickles unless told to trust them.
#
# ### The older `save_params` file: other keys
#
# Legacy Gluon scripts save with `net.save_params(f)`, deprecated since MXNet 1.3 in favour
# of `save_parameters` (MXNet's own `example/gluon/image_classification.py` still ends with
# it). Both write this same binary format, with the same arrays, under other keys:
# `save_params` uses each parameter's global name ([notebook 6](06_blocks.ipynb) §1) less
# the network's own prefix, `save_parameters` the path of attribute names. A model-zoo
# ResNet-18, saved both ways:

# %%
resnet = gluon.model_zoo.vision.get_model("resnet18_v1", classes=10)
resnet.initialize(mx.init.Xavier(magnitude=2.24))
x_res = mx.nd.array(np.random.default_rng(4).standard_normal((2, 3, 32, 32)))
resnet(x_res)
with warnings.catch_warnings(record=True) as deprecation:
    warnings.simplefilter("always")
    resnet.save_params(str(WORK / "old.params"))
resnet.save_parameters(str(WORK / "new.params"))
old_keys, new_keys = (list(mx.nd.load(str(WORK / f))) for f in ("old.params", "new.params"))
{"network's prefix": resnet.prefix,
 "save_params keys": old_keys[:2] + ["…"] + old_keys[-2:],
 "save_parameters keys": new_keys[:2] + ["…"] + new_keys[-2:],
 "warning": [f"{w.category.__name__}: {w.message}" for w in deprecation]}

# %% [markdown]
# `load_parameters` reads both. A file whose keys hold no `.` takes the legacy path,
# `collect_params().load(f, restore_prefix=self.prefix)`: the *loading* network's prefix is
# put in front. So another instance (prefix `resnetv11_`) loads the old file. What breaks it
# is any other prefix *below* the top: the same ResNet inside another block (its prefix
# `wrapped0_resnetv10_`) — and the message then names a parameter with the wrong prefix
# cut off. A network built without `name_scope()`, like §1's `GluonNet`, cannot even be
# saved: `save_params`'s error handler reads Python 2's `e.message` and raises an
# `AttributeError` instead of its explanation.

# %%
class Wrapped(gluon.Block):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.body = gluon.model_zoo.vision.get_model("resnet18_v1", classes=10)

    def forward(self, x):
        return self.body(x)


second, wrapped = gluon.model_zoo.vision.get_model("resnet18_v1", classes=10), Wrapped()
second.load_parameters(str(WORK / "old.params"))
wrapped_error = errors.catch(wrapped.load_parameters, str(WORK / "old.params"))
wrapped.body.load_parameters(str(WORK / "old.params"))         # its body alone: loads
no_scope = GluonNet()
no_scope.initialize()
with warnings.catch_warnings():
    warnings.simplefilter("ignore")                               # the deprecation again
    save_error = errors.catch(no_scope.save_params, str(WORK / "no-scope.params"))
{"second instance": second.prefix, "inside Wrapped": wrapped.body.prefix,
 "Wrapped.load_parameters": errors.short(wrapped_error.line.split(", which")[0], WORK),
 "GluonNet().save_params": str(save_error)}

# %%
for loaded in (second, wrapped.body):
    compare.assert_same(loaded(x_res), resnet(x_res), atol=0)      # the very same weights
assert len(old_keys) == len(new_keys) == 102
assert old_keys[0] == "conv0_weight" and new_keys[0] == "features.0.weight"
assert not any("." in k or k.startswith(resnet.prefix) for k in old_keys)
assert [w.category for w in deprecation] == [UserWarning]    # not a DeprecationWarning:
assert str(deprecation[0].message).startswith("save_params is deprecated")   # always shown
assert wrapped_error.type == "AssertionError"
assert wrapped_error.line.startswith("Parameter 'resnetv10_conv0_weight' is missing")
assert save_error.brief == ("AttributeError", "'ValueError' object has no attribute 'message'")
"save_params files load into any instance, not into a wrapper"

# %% [markdown]
# To PyTorch: `mx.nd.load` reads either file into a dict of arrays; only the keys differ.
# `sidebyside.convert` ([notebook 14](14_converting_models.ipynb)) pairs a Gluon network
# with a PyTorch one and reads both kinds — for a `save_params` file it puts the Gluon
# network's prefix back, as `load_parameters` does. Into torchvision's ResNet-18, with
# `resnet18_v1`'s old keys beside the state dict's:

# %%
pt_resnet = torchvision.models.resnet18(num_classes=10)
converted = convert.params_to_state_dict(
    WORK / "old.params", WORK / "old.pt", torch_net=pt_resnet,
    gluon_net=gluon.model_zoo.vision.get_model("resnet18_v1", classes=10),
    input_shape=(1, 3, 32, 32))
old_arrays, state = mx.nd.load(str(WORK / "old.params")), torch.load(WORK / "old.pt")
pairs = {"conv1.weight": "conv0_weight", "layer2.0.downsample.0.weight": "stage2_conv2_weight",
         "layer4.1.conv2.weight": "stage4_conv4_weight", "fc.weight": "dense0_weight"}
for torch_key, old_key in pairs.items():
    np.testing.assert_array_equal(state[torch_key].numpy(), old_arrays[old_key].asnumpy())
assert converted.checks[0].ok and (converted.n_read, converted.n_written) == (102, 122)
pairs

# %% [markdown]
# ## 4. Damaged files
#
# A download cut short: the first half of each file.

# %%
for name in ("net.params", "net.pt"):
    data = (WORK / name).read_bytes()
    (WORK / f"cut-{name}").write_bytes(data[: len(data) // 2])

# %% [markdown]
# **PyTorch**

# %% tags=["raises-exception", "pytorch"]
torch.load(WORK / "cut-net.pt")

# %% [markdown]
# **Gluon**

# %% tags=["raises-exception", "gluon"]
mx.nd.load(str(WORK / "cut-net.params"))

# %% [markdown]
# Neither message says which file. `checkpoint.read` names it, and says what it expected:

# %%
damaged = {name: errors.short(errors.catch(checkpoint.read, WORK / f"cut-{name}").line, WORK)
           for name in ("net.params", "net.pt")}
damaged

# %%
assert damaged["net.params"].startswith(
    "<dir>/cut-net.params: cannot be read as a MXNet .params file")
assert "Invalid NDArray file format" in damaged["net.params"]
assert damaged["net.pt"].startswith("<dir>/cut-net.pt: cannot be read as a torch.save zip")
"one message, naming the file"

# %% [markdown]
# A *changed* byte is worse: neither format has a checksum over the tensors, so the file
# loads, with a wrong weight. A digest written next to the file catches it:

# %%
def change_one_weight(name):
    path = WORK / name
    value = (pt_net.hidden.weight.detach().numpy() if name.endswith(".pt")
             else mx_net.hidden.weight.data().asnumpy())[0, 0]
    data = path.read_bytes()
    old = np.float32(value).tobytes()
    assert data.count(old) == 1
    path.write_bytes(data.replace(old, np.float32(value + 1).tobytes()))
    return value


for name in ("net.params", "net.pt"):
    checkpoint.write_digest(WORK / name)
was = {name: change_one_weight(name) for name in ("net.params", "net.pt")}
silently = {"net.pt": torch.load(WORK / "net.pt")["hidden.weight"][0, 0].item() - was["net.pt"],
            "net.params": mx.nd.load(str(WORK / "net.params"))["hidden.weight"][0, 0]
            .asscalar() - was["net.params"]}
with_digest = {name: errors.short(errors.catch(checkpoint.read, WORK / name).line, WORK)
               for name in ("net.params", "net.pt")}
with_digest

# %%
assert all(abs(delta - 1) < 1e-6 for delta in silently.values())   # loaded, 1 larger
assert all("its SHA-256 differs from" in m for m in with_digest.values())
"both formats load a changed weight without a word; the digest does not"

# %% [markdown]
# ## 5. Deployment formats: the graph with the weights
#
# [Notebook 7](07_hybridize_export.ipynb) §3 exports an MLP: `export()` writes `-symbol.json` and `-0000.params`;
# `torch.export` one `.pt2` file. With BatchNorm in the network, the export's `.params` shows
# its two kinds of keys: `arg:` for the parameters training updates, `aux:` for the running
# statistics. The keys are the parameters' global names; the Gluon network below makes its
# layers inside `name_scope()` under the prefix `cnn_`, so that they are counted from 0
# within it (`cnn_dense0_weight`) rather than among every `Dense` the process has made
# ([notebook 6](06_blocks.ipynb) §1).
#
# **PyTorch**: `torch.export` (and TorchScript's `torch.jit.save`, which still works but warns
# that it is deprecated):

# %% tags=["pytorch"]
pt_cnn = nn.Sequential(nn.Conv2d(1, 4, 3), nn.BatchNorm2d(4), nn.ReLU(), nn.Flatten(),
                       nn.Linear(4 * 6 * 6, 3)).eval()
x_img = torch.randn(2, 1, 8, 8, generator=torch.Generator().manual_seed(3))
torch.export.save(torch.export.export(pt_cnn, (x_img,)), WORK / "cnn.pt2")
with warnings.catch_warnings(record=True) as script_warnings:
    warnings.simplefilter("always")
    torch.jit.save(torch.jit.trace(pt_cnn, x_img), WORK / "cnn.ts")
    scripted = torch.jit.load(WORK / "cnn.ts")
pt_reloaded = {"torch.export": torch.export.load(WORK / "cnn.pt2").module(),
               "TorchScript": scripted}
sorted({str(w.category.__name__) for w in script_warnings})

# %% [markdown]
# **Gluon**

# %% tags=["gluon"]
mx_cnn = gluon.nn.HybridSequential(prefix="cnn_")
with mx_cnn.name_scope():                # names counted within cnn_, not in the whole process
    mx_cnn.add(gluon.nn.Conv2D(4, 3, in_channels=1), gluon.nn.BatchNorm(in_channels=4),
               gluon.nn.Activation("relu"), gluon.nn.Dense(3, in_units=4 * 6 * 6))
mx_cnn.initialize()
mx_cnn.hybridize()
mx_cnn(mx.nd.array(x_img.numpy()))
mx_cnn.export(str(WORK / "cnn"))
keys = sorted(mx.nd.load(str(WORK / "cnn-0000.params")))
with warnings.catch_warnings():
    warnings.simplefilter("ignore")      # "Cannot decide type": the input's dtype (notebook 7)
    mx_reloaded = gluon.SymbolBlock.imports(str(WORK / "cnn-symbol.json"), ["data"],
                                            str(WORK / "cnn-0000.params"))
keys

# %%
for name, model in pt_reloaded.items():
    compare.assert_same(model(x_img), pt_cnn(x_img), atol=1e-6, names=(name, "torch"))
compare.assert_same(mx_reloaded(mx.nd.array(x_img.numpy())),
                    mx_cnn(mx.nd.array(x_img.numpy())), atol=1e-6)
assert {k.split(":")[0] for k in keys} == {"arg", "aux"}
assert "arg:cnn_dense0_weight" in keys                        # counted within the network
assert sorted(k for k in keys if k.startswith("aux:")) == [
    k for k in keys if "running" in k]
assert any(issubclass(w.category, FutureWarning) for w in script_warnings)
"every format reloads to the same outputs; aux: holds BatchNorm's running statistics"

# %% [markdown]
# ## 6. DLPack: one array, two frameworks, no copy
#
# DLPack is a small standard for handing a tensor's memory from one library to another. Both
# frameworks speak it, so an array can change hands without being copied — useful inside one
# process (an MXNet data pipeline feeding a PyTorch model, a step ported one op at a time);
# *not* a file format.
#
# **MXNet → PyTorch**: `to_dlpack_for_read` waits for pending MXNet writes to the array, then
# hands it over.

# %%
mx_array = mx.nd.arange(6).reshape((2, 3))
pt_view = torch.utils.dlpack.from_dlpack(mx_array.to_dlpack_for_read())
pt_view[0, 0] = 100.0                         # written through PyTorch …
mx_array.asnumpy()[0]                         # … seen by MXNet

# %% [markdown]
# **PyTorch → MXNet**

# %%
pt_tensor = torch.arange(6.0).reshape(2, 3)
mx_view = mx.nd.from_dlpack(torch.utils.dlpack.to_dlpack(pt_tensor))
mx_view[0, 0] = -1.0
mx.nd.waitall()
pt_tensor[0]

# %%
assert mx_array.asnumpy()[0, 0] == 100.0 and pt_tensor[0, 0].item() == -1.0
"the same memory in both: a write through one is seen by the other"

# %% [markdown]
# The sharing cuts both ways: MXNet's engine does not know about PyTorch's writes (and its
# writes may still be queued when PyTorch reads — `to_dlpack_for_read` waits for them;
# `mx.nd.waitall()` before reading on the other side is the safe habit), and the array must
# stay alive on its side as long as the other side uses it.

# %% [markdown]
# ## Summary
#
# | | PyTorch | MXNet Gluon |
# |---|---|---|
# | save weights | `torch.save(model.state_dict(), "m.pt")` | `net.save_parameters("m.params")` |
# | load weights | `model.load_state_dict(torch.load("m.pt"))` | `net.load_parameters("m.params", ctx=…)` |
# | a missing layer | `strict=False` | `allow_missing=True` |
# | an extra layer | `strict=False` | `ignore_extra=True` |
# | another size | always an error | always an error |
# | another dtype | converted on load | `cast_dtype=True` (`dtype_source="current"`/`"saved"`) |
# | optimizer state | `optimizer.state_dict()` in the same file | `trainer.save_states(f)` / `load_states(f)` (a pickle) |
# | whole checkpoint | one dict: model, optimizer, epoch | a folder: `.params`, `.states`, your metadata |
# | file format | zip of a pickle + tensors; `weights_only=True` by default | MXNet binary (`0x112`): no code runs |
# | older weight files | — | `save_params` (deprecated, a `UserWarning`): global names less the network's prefix (`conv0_weight`); `load_parameters` reads them into another instance, not into a wrapper; `sidebyside.convert` reads them |
# | damaged file | errors without the file's name; a changed value loads | the same; `checkpoint.read` + `write_digest` |
# | deploy | `torch.export` (`.pt2`); TorchScript deprecated | `export()` → `-symbol.json` + `-0000.params` (`arg:`, `aux:`), `SymbolBlock.imports` |
# | zero-copy hand-over | `torch.utils.dlpack.to_dlpack` / `from_dlpack` | `nd.to_dlpack_for_read` / `nd.from_dlpack` |
#
# ### What the seed articles said, checked
#
# | seed claim | verdict | shown in |
# |---|---|---|
# | `torch.save(the_model.state_dict(), filename)` ⇔ `model.save_parameters(filename)` | confirmed, with the same keys when the structures agree | §1 |
# | `the_model.load_state_dict(torch.load(PATH))` ⇔ `model.load_parameters(filename, ctx=…)` | confirmed | §1 |
# | `load_parameters` also supports `allow_missing` and `ignore_extra` | confirmed; plus `cast_dtype`/`dtype_source`; PyTorch's `strict=False` covers both | §1 |
#
# ## Exercises
#
# 1. Save a checkpoint with `torch.save(model)` (the whole module, not its `state_dict`) and
#    load it with the default `torch.load`. What does `weights_only=True` say, and why is the
#    `state_dict` the portable choice?
# 2. Resume the Gluon training of §2 with a *new* `Trainer` but without `load_states`. How far
#    apart are the weights after three more epochs?
# 3. Hand a 1000×1000 array from MXNet to PyTorch through DLPack and through `asnumpy()` +
#    `torch.from_numpy`. Time both, and check which one shares memory.

# %% [markdown]
# :::{dropdown} Solutions
# 1. `torch.load(f)` refuses: `UnpicklingError: Weights only load failed … Unsupported global:
#    GLOBAL __main__.TorchNet was not an allowed global by default`, and names the two ways out
#    (`torch.serialization.add_safe_globals([TorchNet])`, or `weights_only=False` for a trusted
#    file). Even `weights_only=False` needs the class importable under the same name: in a fresh
#    process it fails with `AttributeError: Can't get attribute 'TorchNet' on <module '__main__'`.
#    The pickle holds a reference to your code; a `state_dict` holds only names and tensors.
# 2. A fresh `Trainer` starts with zero momentum buffers, so three more epochs end away from
#    the uninterrupted run (the cell prints how far, parameter by parameter, and the two
#    losses); with `load_states` the gap is exactly 0 (§2). With momentum 0.9 a step keeps
#    0.9 of the velocity before it, so the lost velocity would have carried many more steps.
# 3. `torch.utils.dlpack.from_dlpack(a.to_dlpack_for_read())` takes microseconds whatever the
#    size; `torch.from_numpy(a.asnumpy())` copies the 4 MB (the cell prints both times, the
#    fastest of five). Only DLPack shares: a write through its tensor shows in `a`, a write
#    to the copy does not, and the copy's `data_ptr()` differs.
# :::
#
# **Solutions**, run with asserts: the three cells below (folded away in the book: open each
# one); each ends with its answer.

# %% tags=["hide-cell"]
with tempfile.TemporaryDirectory() as tmp:
    torch.save(TorchNet(), Path(tmp) / "whole.pt")                      # the module itself
    whole = errors.catch(torch.load, Path(tmp) / "whole.pt")
    fresh_load = subprocess.run(
        [sys.executable, "-c", f"import torch; torch.load({str(Path(tmp) / 'whole.pt')!r}, "
                               "weights_only=False)"],
        capture_output=True, text=True, timeout=300)
assert whole.type == "UnpicklingError" and whole.line.startswith("Weights only load failed")
assert ("Unsupported global: GLOBAL __main__.TorchNet was not an allowed global by default"
        in whole.message)
assert "torch.serialization.add_safe_globals" in whole.message
assert fresh_load.returncode != 0 and fresh_load.stderr.strip().splitlines()[-1].startswith(
    "AttributeError: Can't get attribute 'TorchNet' on <module '__main__'")
"1. torch.save(model): refused by default; weights_only=False needs the class itself"

# %% tags=["hide-cell", "nbval-ignore-output"]
fresh_trainer_net = GluonNet()
fresh_trainer_net.load_parameters(str(WORK / "ckpt" / "model.params"))
fresh_trainer = gluon.Trainer(fresh_trainer_net.collect_params(), "sgd",
                              {"learning_rate": 0.1, "momentum": 0.9})      # no load_states
mx_train(fresh_trainer_net, fresh_trainer, 3)
momentum_gap = {f"{layer}.{kind}": float(np.abs(
    getattr(getattr(fresh_trainer_net, layer), kind).data().asnumpy()
    - getattr(getattr(mx_model, layer), kind).data().asnumpy()).max())
    for layer in ("hidden", "out") for kind in ("weight", "bias")}
x_all, y_all = mx.nd.array(X.numpy()), mx.nd.array(Y.numpy())
final_loss = {key: float(((net(x_all) - y_all) ** 2).mean().asscalar())
              for key, net in (("resumed without load_states", fresh_trainer_net),
                               ("not stopped", mx_model))}
assert max(momentum_gap.values()) > 1e-3
print({name: f"{gap:.3f}" for name, gap in momentum_gap.items()})
print({key: f"{loss:.3f}" for key, loss in final_loss.items()})
"2. a fresh Trainer forgets the momentum: the weights end elsewhere"

# %% tags=["hide-cell", "nbval-ignore-output"]
big = mx.nd.arange(1e6).reshape((1000, 1000))
mx.nd.waitall()


def fastest(fn, tries=5):
    times = []
    for _ in range(tries):
        tic = time.perf_counter()
        fn()
        times.append(time.perf_counter() - tic)
    return min(times)


handover = {"DLPack": fastest(lambda: torch.utils.dlpack.from_dlpack(big.to_dlpack_for_read())),
            "asnumpy + from_numpy": fastest(lambda: torch.from_numpy(big.asnumpy()))}
shared = torch.utils.dlpack.from_dlpack(big.to_dlpack_for_read())
copied = torch.from_numpy(big.asnumpy())
shared[0, 0], copied[0, 1] = -1.0, -1.0
assert big[0, 0].asscalar() == -1.0 and big[0, 1].asscalar() == 1.0     # only DLPack shares
assert copied.data_ptr() != shared.data_ptr()
assert handover["DLPack"] < handover["asnumpy + from_numpy"]
print({key: f"{seconds * 1e6:.0f} µs" for key, seconds in handover.items()})
"3. DLPack: no copy, the same memory; asnumpy: a copy of its own"

# %% tags=["hide-cell"]
folder.cleanup()                                       # this notebook's temporary folder
assert not WORK.exists()
"the temporary folder is gone"
