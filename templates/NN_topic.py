# %% [markdown]
# # NN · Topic: the PyTorch name next to the Gluon name
#
# **What you will learn**
#
# - the first mapping this notebook teaches, and what a port must change;
# - the second, with the default that differs;
# - the gotcha a port meets, shown running.
#
# **Prerequisites**: [notebook 2](02_tensor_ops.ipynb) (tensors). **Time**: about 20 minutes.

# %% tags=["nbval-ignore-output"]
import mxnet as mx
import numpy as np
import torch

from sidebyside import compare, devices, seeding

SEED = seeding.seed_everything(0)   # Python, numpy, torch and mxnet, one seed
devs = devices.pick()               # a device per framework, with the reason for it
pt_dev, mx_ctx = devs.torch.device, devs.mxnet.device

# %% [markdown]
# ## 1. The first mapping
#
# One or two sentences: what the section shows and why a port needs it.
#
# **PyTorch**: what the cell does.

# %% tags=["pytorch"]
pt_x = torch.arange(6, dtype=torch.float64, device=pt_dev).reshape(2, 3)
pt_sum = pt_x.sum(dim=1)
pt_sum

# %% [markdown]
# **Gluon**: the same, and what is spelt differently (`axis=` for `dim=`).

# %% tags=["gluon"]
mx_x = mx.nd.arange(6, dtype="float64", ctx=mx_ctx).reshape((2, 3))
mx_sum = mx_x.sum(axis=1)
mx_sum

# %%
compare.assert_same(pt_sum, mx_sum, atol=0)
assert pt_sum.dtype == torch.float64 and mx_sum.dtype == np.float64
"the same sums, dim=1 ⇔ axis=1, in float64"

# %% [markdown]
# ## Summary
#
# | | PyTorch | MXNet Gluon |
# |---|---|---|
# | sum over an axis | `x.sum(dim=1)` | `x.sum(axis=1)` |
#
# ## Exercises
#
# 1. Sum over both axes on each side, and check the two agree.

# %% [markdown]
# :::{dropdown} Solutions
# 1. `pt_x.sum()` and `mx_x.sum()`: both 15; the cell below checks it.
# :::

# %% tags=["hide-cell"]
assert float(pt_x.sum()) == float(mx_x.sum().asscalar()) == 15.0
"1. x.sum() on both sides: 15"
