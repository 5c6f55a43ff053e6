# %% [markdown]
# # Deep dive · Functional code in a HybridBlock: a whole network, and ceil mode size by size
#
# This page deepens [notebook 7](../07_hybridize_export.ipynb) §2 (*Functional code:
# `torch.nn.functional` and Gluon's `F`*), which maps the calls one by one and checks each in
# float64, imperative and hybridised. Here: the same mapping in a whole network,
# pytorch/examples' `mnist/main.py` `Net` with its dropout written as `F` calls, run in
# training mode, imperative and hybridised (§1); and ceil-mode pooling with padding, map size
# by map size: for which sizes MXNet keeps a last window that PyTorch drops, with the rule
# that predicts them (§2). **Time**: about 10 minutes.

# %% tags=["nbval-ignore-output"]
import mxnet as mx
import numpy as np
import torch
from mxnet import gluon
from torch import nn
from torch.nn import functional as F

from sidebyside import compare, devices, seeding, transfer

SEED = seeding.seed_everything(0)
devs = devices.pick()
pt_dev, mx_ctx = devs.torch.device, devs.mxnet.device
rng = np.random.default_rng(0)


def to_pt(a):
    return torch.from_numpy(a).to(pt_dev)


def to_mx(a):
    return mx.nd.array(a, ctx=mx_ctx, dtype=a.dtype)   # nd.array alone: float32

# %% [markdown]
# ## 1. `mnist/main.py`'s network, end to end
#
# pytorch/examples' `Net`, with its two `nn.Dropout` layers written as `F.dropout` calls
# whose rates are arguments, and its Gluon port: the layers with weights are child blocks,
# the rest are `F` calls. Both rates are set to 0, so the outputs can be compared in
# training mode too; `transfer` copies the weights.
#
# **PyTorch**

# %% tags=["pytorch"]
class TorchMnistNet(nn.Module):
    def __init__(self, p1=0.25, p2=0.5):
        super().__init__()
        self.conv1, self.conv2 = nn.Conv2d(1, 32, 3, 1), nn.Conv2d(32, 64, 3, 1)
        self.fc1, self.fc2 = nn.Linear(9216, 128), nn.Linear(128, 10)
        self.p1, self.p2 = p1, p2

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        x = F.max_pool2d(x, 2)
        x = F.dropout(x, self.p1, training=self.training)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.dropout(x, self.p2, training=self.training)
        return F.log_softmax(self.fc2(x), dim=1)


pt_mnist = TorchMnistNet(p1=0, p2=0).double().to(pt_dev).train()
x_digits = rng.normal(size=(4, 1, 28, 28))
pt_logp = pt_mnist(to_pt(x_digits))
tuple(pt_logp.shape)

# %% [markdown]
# **Gluon**

# %% tags=["gluon"]
class GluonMnistNet(gluon.HybridBlock):
    def __init__(self, p1=0.25, p2=0.5, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.conv1, self.conv2 = gluon.nn.Conv2D(32, 3, 1), gluon.nn.Conv2D(64, 3, 1)
            self.fc1, self.fc2 = gluon.nn.Dense(128), gluon.nn.Dense(10)
        self.p1, self.p2 = p1, p2

    def hybrid_forward(self, F, x):
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        x = F.Pooling(x, kernel=(2, 2), stride=(2, 2), pool_type="max")
        x = F.Dropout(x, p=self.p1)
        x = F.flatten(x)
        x = F.relu(self.fc1(x))
        x = F.Dropout(x, p=self.p2)
        return F.log_softmax(self.fc2(x), axis=1)


mx_mnist = GluonMnistNet(p1=0, p2=0)
mx_mnist.initialize(ctx=mx_ctx)
mx_mnist.cast("float64")
mx_mnist_pairs = transfer.torch_to_gluon(pt_mnist, mx_mnist)
mx_logp = {}
with mx.autograd.train_mode():
    mx_logp["imperative"] = mx_mnist(to_mx(x_digits))
    mx_mnist.hybridize()
    mx_logp["hybridised"] = mx_mnist(to_mx(x_digits))
mx_mnist_pairs, mx_logp["hybridised"].shape

# %% [markdown]
# **Check**: `transfer` pairs the four layers by name, and both Gluon modes give PyTorch's
# log-probabilities in float64, to 1e-12:

# %% tags=["nbval-ignore-output"]
diffs = {mode: compare.assert_same(pt_logp, out, atol=1e-12) for mode, out in mx_logp.items()}
assert mx_mnist_pairs == [("conv1", "conv1"), ("conv2", "conv2"), ("fc1", "fc1"), ("fc2", "fc2")]
np.testing.assert_allclose(np.exp(mx_logp["hybridised"].asnumpy()).sum(axis=1), 1, rtol=1e-12)
{mode: f"max |Δ| = {d:.1e} (tolerance 1e-12)" for mode, d in diffs.items()}

# %% [markdown]
# ## 2. Ceil mode with padding, size by size
#
# `F.max_pool2d(x, k, s, padding=p, ceil_mode=True)` and its port
# `F.Pooling(x, ..., pooling_convention="full")` give the same shapes without padding. With
# padding, PyTorch drops a last window that would start in the right-hand padding, and MXNet
# keeps it ([notebook 7](../07_hybridize_export.ipynb) §2 shows it on 5×5 maps with kernel 2,
# stride 2 and padding 1). The extra window appears when `⌈(n + 2p − k)/s⌉·s ≥ n + p`. Both
# poolings of float64 maps of every size from the kernel's up to 30, stride 2, padding 1,
# for kernels 2 and 3:

# %%
def ceil_pools(n, k):
    """PyTorch's and MXNet's ceil-mode max pooling of an n×n float64 map (stride 2, pad 1)."""
    x = rng.normal(size=(1, 1, n, n))
    pt_out = F.max_pool2d(to_pt(x), k, 2, padding=1, ceil_mode=True)
    mx_out = mx.nd.Pooling(to_mx(x), kernel=(k, k), stride=(2, 2), pad=(1, 1),
                           pool_type="max", pooling_convention="full")
    return compare.to_numpy(pt_out), mx_out.asnumpy()


def extra_window(n, k, s=2, p=1):
    return -(-(n + 2 * p - k) // s) * s >= n + p     # ⌈(n + 2p − k)/s⌉·s ≥ n + p


LOWEST = np.finfo(np.float64).min
disagree = {}
for k in (2, 3):
    disagree[k] = []
    for n in range(k, 31):
        pt_out, mx_out = ceil_pools(n, k)
        if pt_out.shape != mx_out.shape:
            disagree[k].append(n)
            # one more row and column, each window in the padding only; the rest is PyTorch's
            assert mx_out.shape[2:] == (pt_out.shape[2] + 1, pt_out.shape[3] + 1)
            assert (mx_out[..., -1, :] == LOWEST).all() and (mx_out[..., :, -1] == LOWEST).all()
            np.testing.assert_array_equal(mx_out[..., :-1, :-1], pt_out)
        else:
            np.testing.assert_array_equal(pt_out, mx_out)
{f"kernel {k}, sizes whose shapes differ": " ".join(map(str, sizes)) or "none"
 for k, sizes in disagree.items()}

# %% [markdown]
# Where the shapes differ, MXNet's output is PyTorch's with one more row and column, each of
# whose windows lies in the padding only: the lowest float64 (asserted above, size by size);
# elsewhere the float64 values are equal. **Check**: the rule predicts both lists. With
# kernel 3, stride 2 and padding 1 it reads `⌈(n − 1)/2⌉·2 ≥ n + 1`, which never holds: no
# size disagrees. With kernel 2 it holds for every odd size — 5×5 among them.

# %%
for k in (2, 3):
    assert disagree[k] == [n for n in range(k, 31) if extra_window(n, k)], k
assert disagree[3] == [] and disagree[2] == list(range(3, 31, 2))
"kernel 3: no size disagrees; kernel 2: every odd size (the rule predicts both)"

# %% [markdown]
# ## What this means for a port
#
# - A `forward()` written with `torch.nn.functional` ports call by call into a
#   `hybrid_forward`: `F.Pooling` with the stride spelled out, `F.flatten`, `F.Dropout`
#   without a flag, `axis=1`. The port runs the same, imperative and hybridised (§1).
# - Ceil-mode pooling with padding needs a look at the map sizes: where MXNet keeps a window
#   in the padding, the output is larger by one row and column, filled with the lowest float
#   (§2): crop it (`out[:, :, :-1, :-1]`) to get PyTorch's. Without padding, or with sizes
#   where the rule does not hold, the two agree.
