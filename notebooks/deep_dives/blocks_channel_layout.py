# %% [markdown]
# # Deep dive · Channel layout: PyTorch's `channels_last` against Gluon's `layout="NHWC"`
#
# This deep dive continues [notebook 6](../06_blocks.ipynb) §3 (*Convolution and pooling*):
# both frameworks default to `NCHW`, and both have a channels-last option, but they are not
# the same thing. PyTorch's `channels_last` is a *memory* format: the tensor keeps its
# `NCHW` shape and the layers give the same numbers. Gluon's `layout="NHWC"` changes the
# *shape* the layer expects, and the weight's: `(out, kH, kW, in)`. It shows:
#
# 1. PyTorch's `channels_last`: same shape, same results;
# 2. Gluon's `NHWC` on the CPU: pooling works, a convolution does not;
# 3. why `sidebyside.transfer` refuses to copy a convolution weight into an `NHWC` layer.
#
# **Time**: about 5 minutes.

# %% tags=["nbval-ignore-output"]
import mxnet as mx
import numpy as np
import torch
from mxnet import gluon
from torch import nn

from sidebyside import compare, devices, errors, seeding, transfer

print(f"torch {torch.__version__} · mxnet {mx.__version__}")
SEED = seeding.seed_everything(0)
devs = devices.pick()
pt_dev, mx_ctx = devs.torch.device, devs.mxnet.device

# %% [markdown]
# ## 1. `channels_last` is a memory format
#
# The notebook's 11×11 input and stride-2 convolution. **PyTorch**: the tensor in
# `channels_last` keeps its `NCHW` shape; only its strides change.

# %%
x_img = np.random.default_rng(0).normal(size=(2, 3, 11, 11)).astype(np.float32)
pt_conv = nn.Conv2d(3, 8, kernel_size=3, stride=2, padding=1).to(pt_dev)
pt_x = torch.from_numpy(x_img).to(pt_dev)
pt_x_cl = pt_x.to(memory_format=torch.channels_last)
(tuple(pt_x_cl.shape), pt_x_cl.is_contiguous(memory_format=torch.channels_last),
 pt_x.stride(), pt_x_cl.stride())

# %% [markdown]
# **Check**: the same shape, other strides, and the same convolution output (float32,
# tolerance 1e-5):

# %% tags=["nbval-ignore-output"]
diff = compare.assert_same(pt_conv(pt_x_cl), pt_conv(pt_x), atol=1e-5)
assert tuple(pt_x_cl.shape) == x_img.shape and pt_x_cl.stride() != pt_x.stride()
assert pt_x_cl.stride(1) == 1                   # channels are the innermost dimension
f"channels_last vs NCHW conv: max |Δ| = {diff:.1e} (tolerance 1e-5)"

# %% [markdown]
# ## 2. `layout="NHWC"` is a shape, and MXNet's CPU convolution refuses it
#
# **Gluon**: the input must be transposed to `(N, H, W, C)`. Pooling in `NHWC` works on the
# CPU …

# %%
mx_x_nhwc = mx.nd.array(x_img.transpose(0, 2, 3, 1), ctx=mx.cpu())
mx_pool_nhwc = gluon.nn.MaxPool2D(pool_size=3, strides=2, layout="NHWC")
mx_pool_nhwc(mx_x_nhwc).shape

# %% [markdown]
# … a convolution in `NHWC` does not: MXNet 1.9.1's CPU (oneDNN) operator rejects it, and,
# MXNet being asynchronous, only when the result is read (the layout is meant for cuDNN on
# GPUs):

# %% tags=["raises-exception"]
mx_conv_nhwc = gluon.nn.Conv2D(8, 3, strides=2, padding=1, layout="NHWC", in_channels=3)
mx_conv_nhwc.initialize(ctx=mx.cpu())
mx_conv_nhwc(mx_x_nhwc).asnumpy()

# %% [markdown]
# **Check**: the `NHWC` pooling is the `NCHW` pooling transposed, exactly; the convolution's
# error is raised when the result is read, not when the layer is called.

# %%
mx_pooled_nchw = gluon.nn.MaxPool2D(3, 2)(mx.nd.array(x_img, ctx=mx.cpu())).asnumpy()
np.testing.assert_array_equal(mx_pool_nhwc(mx_x_nhwc).asnumpy(),
                              mx_pooled_nchw.transpose(0, 2, 3, 1))
mx_lazy_out = mx_conv_nhwc(mx_x_nhwc)           # no error yet: MXNet is asynchronous
conv_error = errors.catch(mx_lazy_out.asnumpy)
assert conv_error.type == "MXNetError"
assert mx_pool_nhwc(mx_x_nhwc).shape == (2, 5, 5, 3)
conv_error.type, "raised when the result is read"

# %% [markdown]
# ## 3. The weight's shape can match while its order does not
#
# With 3 input channels and a 3×3 kernel, the `NHWC` weight `(8, 3, 3, 3)` has the same
# *shape* as PyTorch's `(8, 3, 3, 3)` — but its axes mean `(out, kH, kW, in)`, not
# `(out, in, kH, kW)` (with 4 input channels the two shapes part: `(8, 3, 3, 4)` against
# `(8, 4, 3, 3)`). A copy by shape would put the numbers in the wrong places; `transfer`
# checks the layout and refuses:

# %%
mx_conv4 = {layout: gluon.nn.Conv2D(8, 3, layout=layout, in_channels=4)
            for layout in ("NCHW", "NHWC")}
for layer in mx_conv4.values():
    layer.initialize(ctx=mx.cpu())
assert {k: v.weight.shape for k, v in mx_conv4.items()} == {
    "NCHW": (8, 4, 3, 3), "NHWC": (8, 3, 3, 4)}
try:
    transfer.torch_to_gluon(pt_conv, mx_conv_nhwc)
    refused = None
except transfer.ArchitectureMismatch as exc:
    refused = str(exc)
assert mx_conv_nhwc.weight.shape == tuple(pt_conv.weight.shape) == (8, 3, 3, 3)
assert refused is not None and "layout='NHWC'" in refused
mx_conv_nhwc.weight.shape, tuple(pt_conv.weight.shape), refused

# %% [markdown]
# ## What this means for a port
#
# - A PyTorch model that uses `channels_last` ports to Gluon's default `NCHW` as it is: the
#   memory format changes nothing in shapes or weights.
# - A Gluon model with `layout="NHWC"` runs its convolutions only on GPUs (cuDNN) in 1.9.1;
#   its weights are `(out, kH, kW, in)`, so a copy into PyTorch's `(out, in, kH, kW)` moves
#   the last axis to the second, and is checked by the outputs, not by the shapes.
