# %% [markdown]
# # Deep dive · MXNet 2.x names on MXNet 1.9.1
#
# [Notebook 17](../17_legacy_module_api.ipynb) §7 lists the names of code written for MXNet
# 2.x (GitHub's `master` branch, tutorials for the 2.0 betas) beside their 1.9.1 and PyTorch
# spellings. This deep dive runs every row on 1.9.1, the last release: what each 2.x name
# does there (an `AttributeError`, a `TypeError`, or — worse — it runs), how `npx.set_np()`
# switches Gluon to `mx.np` arrays and which blocks then fail, and what becomes of a 2.x-style
# `forward` in a `HybridBlock`.
#
# **Time**: about 10 minutes.

# %% tags=["nbval-ignore-output"]
import tempfile
from pathlib import Path

import mxnet as mx
import torch
import torchmetrics
from mxnet import gluon, npx

from sidebyside import devices, errors, seeding

SEED = seeding.seed_everything(0)
devs = devices.pick()
pt_dev, mx_ctx = devs.torch.device, devs.mxnet.device
folder = tempfile.TemporaryDirectory()
WORK = Path(folder.name)
print(f"MXNet {mx.__version__}, PyTorch {torch.__version__}, "
      f"torchmetrics {torchmetrics.__version__}")

# %% [markdown]
# ## 1. Metrics and devices: renamed in 2.x
#
# **MXNet 2.x** spellings, run on 1.9.1: `mx.gluon.metric`, `mx.device`, `device=` arguments,
# `to_device`, and `as_in_ctx` on a legacy `NDArray`.

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
{name: str(failure) for name, failure in renamed.items()}

# %% [markdown]
# **1.9.1** and **PyTorch**: the spellings that run.

# %%
on_191 = {"metric": type(mx.metric.Accuracy()).__name__, "context": mx.Context("cpu", 0),
          "as_in_context": x_nd.as_in_context(mx.cpu()) is x_nd,
          "np as_in_ctx": type(mx.np.ones((2, 3)).as_in_ctx(mx.cpu())).__name__,
          "torch": torch.ones(2, 3).to("cpu").device,
          "torchmetrics": type(torchmetrics.Accuracy(task="multiclass", num_classes=10)).__name__}
on_191

# %%
assert {k for k, f in renamed.items() if f.type == "AttributeError"} == {
    "mx.gluon.metric", "mx.device", "NDArray.to_device", "NDArray.as_in_ctx"}
assert renamed["initialize(device=)"].type == renamed["mx.np.zeros(device=)"].type == "TypeError"
assert renamed["initialize(device=)"].line == \
    "Block.initialize() got an unexpected keyword argument 'device'"
assert renamed["mx.np.zeros(device=)"].line == \
    "zeros() got an unexpected keyword argument 'device'"
assert renamed["NDArray.as_in_ctx"].line == "'NDArray' object has no attribute 'as_in_ctx'"
assert not hasattr(mx.np.ndarray, "to_device") and hasattr(mx.np.ndarray, "as_in_ctx")
assert on_191["as_in_context"] and on_191["np as_in_ctx"] == "ndarray"
assert on_191["metric"] == "Accuracy" and on_191["torch"].type == "cpu"
"2.x names fail on 1.9.1 with AttributeError/TypeError; the 1.9.1 spellings run"

# %% [markdown]
# ## 2. `mx.np` and `npx.set_np()`
#
# Both exist in 1.9.1. `mx.np.ndarray` is NumPy-like (and a subclass of `mx.nd.NDArray`
# there); `npx.set_np()` switches Gluon to it, globally — 2.x runs it at import. A block then
# takes and returns `mx.np` arrays, and blocks remember which mode they were created in: one
# made before `set_np` fails after it, and the other way round. (Reset at the end of the
# cell: the mode would otherwise leak into everything below.)

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
# ## 3. `forward` instead of `hybrid_forward`
#
# 2.x code defines `forward(self, x)` on a `HybridBlock`. On 1.9.1 such a block runs — but
# imperatively: `hybridize()` is silently ignored, and `export` then fails. 1.9.1 needs
# `hybrid_forward(self, F, x)`; PyTorch has only `forward`.
#
# **MXNet**: the 2.x style and the 1.9.1 style, each hybridized, run and exported.

# %% tags=["mxnet"]
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
    out = block(mx.nd.ones((1, 2)))
    try:
        block.export(str(WORK / cls.__name__))
    except RuntimeError as err:
        return out.shape, str(err)
    return out.shape, "exported"


blocks = {cls.__name__: hybridize_and_export(cls) for cls in (ForwardOnly, WithF)}
blocks

# %% [markdown]
# **PyTorch**: `forward` only, the same network.

# %% tags=["pytorch"]
class PtForward(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.dense = torch.nn.Linear(2, 3)

    def forward(self, x):
        return torch.relu(self.dense(x))


tuple(PtForward()(torch.ones(1, 2)).shape)

# %%
assert blocks == {"ForwardOnly": ((1, 3), "Please first call block.hybridize() and then run "
                                  "forward with this block at least once before calling "
                                  "export."),
                  "WithF": ((1, 3), "exported")}
assert (WORK / "WithF-symbol.json").exists() and not (WORK / "ForwardOnly-symbol.json").exists()
assert PtForward()(torch.ones(1, 2)).shape == (1, 3)
folder.cleanup()
"a 2.x-style forward() HybridBlock runs on 1.9.1 but is never hybridized or exported"

# %% [markdown]
# ## What this means for a port
#
# - Code written for 2.x does not run on 1.9.1 as it is: rename `mx.gluon.metric` →
#   `mx.metric`, `mx.device` → `mx.context` (`mx.cpu()`), `device=` → `ctx=`, `to_device` →
#   `as_in_context`. Each fails loudly, with an `AttributeError` or a `TypeError`.
# - The silent one is `forward` in a `HybridBlock`: it runs, never hybridized, and fails
#   only at `export`. Rename it `hybrid_forward(self, F, x)` and use `F.` for the
#   operators — or, for a PyTorch port, keep `forward` and use PyTorch's.
# - `npx.set_np()` is a global switch, and blocks made on either side of it do not mix: call
#   it once, first, or not at all.
