# %% [markdown]
# # 2 · Tensors and NDArrays: an executable API map
#
# **What you will learn**
#
# - how each row of the usual "PyTorch Tensor → MXNet NDArray" table maps to the legacy
#   `mx.nd` API and to the NumPy-style `mx.np`/`npx` API, and which rows are renamed,
#   composed from other calls, or subtly different;
# - the differences that bite in practice: shapes as tuples, `size` against `numel`, dtype
#   defaults, copies to the host, in-place updates, broadcasting and error messages;
# - how to keep such a table honest, and read it from either side: every row here is code that
#   runs on the same input in both frameworks and is compared numerically (a test fails when a
#   row stops matching), and `apimap.find` looks any name up, PyTorch's or MXNet's.
#
# The table lives in `sidebyside.apimap` as data. This notebook runs it, and shows the rows
# that need more than a rename one by one.
#
# **Prerequisites**: [notebook 1](01_install_and_environment.ipynb) (the environment and its
# pins). **Time**: about 40 minutes.

# %% tags=["nbval-ignore-output"]
import dataclasses

import mxnet as mx
import numpy as onp
import torch
from IPython.display import Markdown
from mxnet import nd

from sidebyside import apimap, compare, devices, errors, seeding

SEED = seeding.seed_everything(0)
devs = devices.pick()
pt_dev, mx_ctx = devs.torch.device, devs.mxnet.device

# %% [markdown]
# Both frameworks run on the CPU here unless a GPU works (the MXNet wheel installed is CPU
# only; see [notebook 1](01_install_and_environment.ipynb)). The device rows in section 8 use two devices per framework.
#
# ## 1. One row, three APIs
#
# Each row is checked the same way: the same float32 input goes to PyTorch, to `mx.nd` and
# to `mx.np`, and the results are compared. (The outputs of the next two cells print the last
# digits of float32 results, which differ from one CPU to another; the tests do not compare
# them. They compare the check after them, and its tolerance.)
#
# The arc cosine, **PyTorch**:

# %% tags=["nbval-ignore-output", "pytorch"]
x_np = onp.array([[-0.5, 0.0, 0.5], [0.9, -0.9, 0.25]], dtype=onp.float32)
pt_x = torch.from_numpy(x_np)
torch.acos(pt_x)

# %% [markdown]
# **Gluon** — the legacy `mx.nd` API that most MXNet 1.x code uses, then `mx.np`:

# %% tags=["nbval-ignore-output", "gluon"]
nd_x = nd.array(x_np)
np_x = mx.np.array(x_np)
(nd.arccos(nd_x), mx.np.arccos(np_x))

# %%
d1 = compare.assert_same(torch.acos(pt_x), nd.arccos(nd_x), rtol=1e-6, atol=1e-7)
d2 = compare.assert_same(torch.acos(pt_x), mx.np.arccos(np_x), rtol=1e-6, atol=1e-7)
assert max(d1, d2) <= 1e-6
"same values within rtol 1e-6"

# %% [markdown]
# The map stores exactly these snippets. `apimap.check` runs them on a fixed set of
# inputs (`apimap.inputs()`) and compares:

# %%
row = apimap.row("acos")
result = apimap.check(row)
assert result.ok
(row.torch, row.nd, row.np, row.status, result.summary)

# %% [markdown]
# ## 2. Shapes: a tuple, `size` and `numel`, `.T`
#
# **PyTorch**: `size()` is the shape, `numel()` the element count, and the shape can be
# given as separate integers.

# %% tags=["pytorch"]
pt_a = torch.ones(2, 3)
(pt_a.size(), pt_a.shape, pt_a.numel(), pt_a.T.shape)

# %% [markdown]
# **Gluon**: the shape is one tuple, `size` is the element count (an attribute), and
# there is no `size()`.

# %% tags=["gluon"]
nd_a = nd.ones((2, 3))
(nd_a.shape, nd_a.size, nd_a.T.shape)

# %%
assert tuple(pt_a.size()) == nd_a.shape == (2, 3)
assert pt_a.numel() == nd_a.size == 6
assert tuple(pt_a.T.shape) == nd_a.T.shape == (3, 2)
isinstance(pt_a.size(), tuple), type(nd_a.size).__name__

# %% [markdown]
# The shape as separate integers does not raise a shape error in MXNet: `nd.ones(2, 3)`
# takes the 3 as its *context* argument ([notebook 1](01_install_and_environment.ipynb) shows `mx.np` taking it as a dtype):

# %% tags=["raises-exception"]
nd.ones(2, 3)

# %% [markdown]
# Code ported line by line calls `size()` on an NDArray — an integer is not callable:

# %% tags=["raises-exception"]
nd_a.size()

# %% [markdown]
# The other way round, a port to **PyTorch** meets strides: `view` of a transposed tensor
# raises, because a transpose is a view of the same memory in another order; write
# `reshape` (which copies when it must) or `.contiguous().view(...)`. MXNet has no strided
# views (`.T` copies), so its `reshape` always works — the `contiguous` row in section 8:

# %% tags=["raises-exception"]
pt_a.T.view(6)

# %%
shape_errors = {"nd.ones(2, 3)": errors.catch(lambda: nd.ones(2, 3)),
                "nd_a.size()": errors.catch(lambda: nd_a.size()),
                "pt_a.T.view(6)": errors.catch(lambda: pt_a.T.view(6))}
assert shape_errors["nd.ones(2, 3)"].brief == ("MXNetError", "Invalid context string 3")
assert shape_errors["nd_a.size()"].brief == ("TypeError", "'int' object is not callable")
assert shape_errors["pt_a.T.view(6)"].line.startswith("view size is not compatible")
assert not pt_a.T.is_contiguous() and pt_a.T.contiguous().is_contiguous()
assert tuple(pt_a.T.reshape(6).shape) == tuple(pt_a.T.contiguous().view(6).shape) == (6,)
assert nd_a.T.reshape((6,)).shape == (6,)
{call: failure.type for call, failure in shape_errors.items()}

# %% [markdown]
# ## 3. dtype defaults
#
# **PyTorch** keeps numpy's float64 when it wraps an array, and makes float32 from Python
# floats:

# %% tags=["pytorch"]
f64 = onp.linspace(0, 1, 3)
(f64.dtype, torch.from_numpy(f64).dtype, torch.tensor(f64).dtype,
 torch.tensor([0.0, 0.5]).dtype)

# %% [markdown]
# **Gluon**: `nd.array` turns anything into float32 unless told otherwise — silently,
# even a float64 numpy array. `mx.np.array` keeps float64 like numpy does.

# %% tags=["gluon"]
(nd.array(f64).dtype, nd.array(f64, dtype="float64").dtype,
 mx.np.array(f64).dtype, mx.np.ones(2).dtype)

# %%
assert torch.from_numpy(f64).dtype == torch.float64
assert nd.array(f64).dtype == onp.float32
assert mx.np.array(f64).dtype == onp.float64
assert torch.ones(2).dtype == torch.float32 and mx.np.ones(2).dtype == onp.float32
"float64 survives torch.from_numpy and mx.np.array, not nd.array"

# %% [markdown]
# **PyTorch** promotes `float32 + float64` to float64 but refuses a matrix product of the
# two: cast one side first (`.double()`, `.to(other.dtype)`).

# %% tags=["raises-exception"]
torch.ones(2, 3) @ torch.ones(3, 2, dtype=torch.float64)

# %% [markdown]
# **MXNet** refuses both, and `nd.array` made the float32 without a word: a float64 numpy
# array wrapped with `nd.array` meets a float64 array made elsewhere (with `dtype="float64"`,
# or by `mx.np.array`) and the operator raises. Cast one side: `x.astype("float64")` or
# `nd.array(a, dtype="float64")`.

# %% tags=["raises-exception"]
nd.array(f64) + nd.array(f64, dtype="float64")

# %%
mixed = {
    "torch: float32 @ float64": errors.catch(
        lambda: torch.ones(2, 3) @ torch.ones(3, 2, dtype=torch.float64)),
    "mx.nd: float32 + float64": errors.catch(
        lambda: nd.array(f64) + nd.array(f64, dtype="float64")),
    "mx.np: dot(float32, float64)": errors.catch(
        lambda: mx.np.dot(mx.np.ones((1, 3)), mx.np.array(f64))),
}
assert "expected m1 and m2 to have the same dtype" in mixed["torch: float32 @ float64"].line
for api in ("mx.nd: float32 + float64", "mx.np: dot(float32, float64)"):
    assert mixed[api].type == "MXNetError" and "expected float32, got float64" in mixed[api].line
assert (torch.ones(3) + torch.from_numpy(f64)).dtype == torch.float64  # + promotes
assert (mx.np.ones(3) + mx.np.array(f64)).dtype == onp.float64       # mx.np's + too
assert (nd.array(f64).astype("float64") + nd.array(f64, dtype="float64")).dtype == onp.float64
{case: failure.type for case, failure in mixed.items()}

# %% [markdown]
# ## 4. Copies to the host: `numpy()`, `asnumpy()`, `item()`
#
# **PyTorch**: `numpy()` on a CPU tensor *shares* memory — writing to the array changes
# the tensor. `item()` gives a Python number.

# %% tags=["pytorch"]
pt_b = torch.zeros(3)
view = pt_b.numpy()
view[0] = 7.0
(pt_b, pt_b.sum().item())

# %% [markdown]
# **Gluon**: `asnumpy()` always copies (and waits for pending work, see [notebook 5](05_autograd.ipynb)).
# `mx.nd` has `asscalar()`; `item()` exists only on `mx.np` arrays.

# %% tags=["gluon"]
nd_b = nd.zeros((3,))
copy = nd_b.asnumpy()
copy[0] = 7.0
(nd_b, nd_b.sum().asscalar(), mx.np.zeros(3).sum().item())

# %% [markdown]
# The seed's training loop calls `loss.mean().item()` on an `mx.nd` result. In MXNet
# 1.9.1 that raises; use `asscalar()` (or `mx.np`):

# %% tags=["raises-exception"]
nd_b.mean().item()

# %% [markdown]
# The other way, **PyTorch**'s `numpy()` refuses a tensor that autograd tracks (a parameter,
# an output computed from one), where MXNet's `asnumpy()` never refuses: call `detach()`
# first (the `detach` row in section 8).

# %% tags=["raises-exception"]
torch.ones(2, requires_grad=True).numpy()

# %%
assert pt_b[0].item() == 7.0 and nd_b[0].asscalar() == 0.0
assert isinstance(pt_b.sum().item(), float)
assert isinstance(mx.np.zeros(3).sum().item(), float)
host_errors = {"nd: mean().item()": errors.catch(lambda: nd_b.mean().item()),
               "torch: numpy() of a tracked tensor": errors.catch(
                   lambda: torch.ones(2, requires_grad=True).numpy())}
assert host_errors["nd: mean().item()"].type == "AttributeError"
assert "Use tensor.detach().numpy() instead" in host_errors[
    "torch: numpy() of a tracked tensor"].line
assert torch.ones(2, requires_grad=True).detach().numpy().tolist() == [1.0, 1.0]
(type(nd_b.sum().asscalar()).__name__, {k: f.type for k, f in host_errors.items()})

# %% [markdown]
# ## 5. In place and out of place
#
# **PyTorch**: `+=` and the `_`-suffixed methods write into the same tensor; `x = x + 1`
# makes a new one. A second name for the tensor shows which is which.

# %% tags=["pytorch"]
pt_c = torch.zeros(2)
alias = pt_c
pt_c += 1        # in place: alias sees it
pt_c.add_(1)     # in place
pt_c = pt_c + 1  # new tensor: alias does not
(alias, pt_c)

# %% [markdown]
# **Gluon**: `+=`, slice assignment `x[:] = ...` and `out=` write in place; there are no
# `_` methods.

# %% tags=["gluon"]
nd_c = nd.zeros((2,))
alias_nd = nd_c
nd_c += 1                         # in place
nd.elemwise_add(nd_c, nd.ones((2,)), out=nd_c)  # in place via out=
nd_c = nd_c + 1                   # new array
(alias_nd, nd_c)

# %%
compare.assert_same(alias, alias_nd)
compare.assert_same(pt_c, nd_c)
assert alias.tolist() == [2.0, 2.0] and pt_c.tolist() == [3.0, 3.0]
"same in-place semantics, different spelling"

# %% [markdown]
# ## 6. Broadcasting and reductions: `mx.nd` against `mx.np`
#
# **PyTorch** broadcasts `(2, 3) + (3,)` and reduces to a 0-d tensor:

# %% tags=["pytorch"]
pt_m, pt_v = torch.ones(2, 3), torch.arange(3.0)
((pt_m + pt_v).shape, pt_m.sum().shape)

# %% [markdown]
# **Gluon**: the `+` operator of `mx.nd` broadcasts too, but `nd.elemwise_add` does not,
# and `mx.nd` has no 0-d arrays: a full reduction has shape `(1,)`. `mx.np` behaves like
# numpy and PyTorch.

# %% tags=["gluon"]
nd_m, nd_v = nd.ones((2, 3)), nd.arange(3)
np_m, np_v = mx.np.ones((2, 3)), mx.np.arange(3)
((nd_m + nd_v).shape, nd_m.sum().shape, (np_m + np_v).shape, np_m.sum().shape)

# %%
assert (nd_m + nd_v).shape == (np_m + np_v).shape == tuple((pt_m + pt_v).shape)
assert nd_m.sum().shape == (1,)
assert np_m.sum().shape == () == tuple(pt_m.sum().shape)
"nd reductions keep one axis; mx.np and torch give 0-d"

# %% tags=["raises-exception"]
nd.elemwise_add(nd_m, nd_v)

# %% [markdown]
# ## 7. What a shape mismatch looks like
#
# The same mistake — a `(2, 3) @ (2, 3)` product — in each API. **PyTorch**:

# %% tags=["raises-exception", "pytorch"]
torch.ones(2, 3) @ torch.ones(2, 3)

# %% [markdown]
# **Gluon**, the legacy `mx.nd` API: it raises `MXNetError`, with a C++ traceback whose last
# line names the check that failed:

# %% tags=["raises-exception", "gluon"]
nd.dot(nd.ones((2, 3)), nd.ones((2, 3)))

# %% [markdown]
# The NumPy-style `mx.np` API raises an `MXNetError` too, from another check:

# %% tags=["raises-exception"]
mx.np.dot(mx.np.ones((2, 3)), mx.np.ones((2, 3)))


# %% [markdown]
# The three messages side by side (`sidebyside.errors.catch` keeps the type and the message
# without MXNet's C++ traceback banner; [notebook 1](01_install_and_environment.ipynb) introduced it):

# %%
mismatch = {
    "torch": errors.catch(lambda: torch.ones(2, 3) @ torch.ones(2, 3)),
    "mx.nd": errors.catch(lambda: nd.dot(nd.ones((2, 3)), nd.ones((2, 3)))),
    "mx.np": errors.catch(lambda: mx.np.dot(mx.np.ones((2, 3)), mx.np.ones((2, 3)))),
}
assert mismatch["torch"].type == "RuntimeError"
assert mismatch["mx.nd"].type == mismatch["mx.np"].type == "MXNetError"
assert "(2x3 and 2x3)" in mismatch["torch"].line
assert "(3 vs. 2)" in mismatch["mx.nd"].line
{api: str(failure) for api, failure in mismatch.items()}

# %% [markdown]
# ## 8. The whole map, run
#
# Every row of the seed's *Tensor / NDArray* table (47 rows) and its *GPU* table (5 rows);
# 14 rows the capstones' whole-script ports needed (`randn`, `rand` and their `_like` forms,
# `cat`, `stack`, `sigmoid`, `relu`, `tanh`, `log`, `softmax`, a model's `double()`,
# torchvision's `make_grid` and `save_image`); and 47 rows for names the other notebooks use
# (`detach`, `narrow`, `contiguous`, `new_zeros`, `exp`, `pow`, `argmax`, `topk`, `save` and
# `load`, …, and in a table of their own `Embedding`, `RNN`, `LSTM` and `GRU` built with the
# same weights on both sides, `begin_state`, `LSTMCell` and its `unroll`, `flatten_parameters`,
# `NLLLoss`, `binary_cross_entropy`, the `sgd_mom_update` rule, `clip_global_norm` and
# `name_scope`). The seed says nothing about the added rows: the tables mark them *(added for
# …)* and the seed counts leave them out. Each row runs in PyTorch and in every MXNet API that
# has an equivalent, on the same inputs. Deterministic rows must agree within the stated
# tolerance (exactly, for the image grids and the PNGs read back); random rows are checked
# for shape, dtype and a statistic with a fixed seed (the mean, the mean and standard
# deviation, the median and quartiles for the Cauchy distribution, whose mean does not
# exist, or — for a permutation — every value once and no trace of the order); rows about
# copies, pointers, devices, a model's cast and parameter names check the semantics
# themselves. Where a row's note states a default (`nd.argmax` gives float32 indices), its
# MXNet code asserts it.

# %%
results = apimap.check_all()
failed = [r.row.key for r in results if not r.ok]
assert failed == [], failed
f"{len(results)} rows run, all matching"

# %% [markdown]
# The summary counts. The status is that of the best MXNet equivalent: *same name*,
# *renamed*, *different semantics* (a counterpart exists but behaves differently — read
# its row), *composite* (built from other calls), *missing*.

# %%
counts = apimap.summary(results)
assert counts["rows"] == counts["checked ok"] == len(apimap.ROWS) == 113
assert counts["by source"] == {"seed": 52, "ports": 14, "book": 47}
assert sum(r.from_seed and r.table == "tensor" for r in apimap.ROWS) == 47
assert counts["by table"]["device"] == 5 and sum(counts["seed verdicts"].values()) == 52
assert counts["seed said not available"] == 13
assert counts["of those, available now"] + counts["of those, a composite"] == 13
counts

# %% [markdown]
# Of the 13 rows the seed marks *Not available*, six have an equivalent in MXNet 1.9.1
# (`cumsum`, `diag`, `erf` under their own names; `atan2`, `bernoulli` and `gels` in
# `mx.np`/`npx`), and the other seven are short tested composites. Six of the seed's MXNet
# cells are wrong (`nd.module`, the `linalg_gemm` argument order for `addmm`/`addbmm`,
# `nd.custom`, `dist`, `sample_uniform`).
#
# The tensor table, PyTorch first, then the table of layers, losses, update rules and
# parameter names. The *check* column is what ran on this machine.

# %% tags=["nbval-ignore-output"]
Markdown("\n\n".join(f"**{apimap.TABLES[table]}**\n\n{apimap.to_markdown(results, table=table)}"
                     for table in ("tensor", "nn")))

# %% [markdown]
# What the seed's MXNet cell said, where there is more to say than "right". The seed's text
# lost its `+` and `=` signs and some line breaks when it was scraped (`t v*(t1/t2)`): the
# table shows each cell with the operators restored, and the scraped text under it
# (`apimap.SEED_AS_INTENDED` holds the restorations, and a test checks that each one only
# puts back `+`, `=` and whitespace):

# %%
Markdown(apimap.seed_markdown())

# %% [markdown]
# The rows added to the seed's, with what to watch for. A few need care: `nd.concat` joins
# along axis **1** unless told otherwise (`torch.cat` along 0); `Block.cast` returns `None`
# where `Module.double()` returns the module; `nd.arange`, `nd.argmax`, `nd.topk` and
# `nd.one_hot` give float32 where PyTorch gives int64; `torch.transpose` is MXNet's
# `swapaxes`, and MXNet's `transpose` is `permute`; Gluon's `RNN` is a ReLU RNN unless told
# `activation='tanh'`. `make_grid` and `save_image` have no MXNet counterpart: the function
# in the row builds the same grid for one- and three-channel batches and any `nrow`, and
# written with PIL it reads back, with `mx.image.imread`, equal to `save_image`'s PNG pixel
# for pixel.

# %%
Markdown(apimap.added_markdown())

# %% [markdown]
# The device table. Without a GPU, MXNet's rows run on two distinct CPU contexts,
# `cpu(0)` and `cpu(1)`, and PyTorch's on its one CPU device; with GPUs they run there.

# %% tags=["nbval-ignore-output"]
(dev_pair, ctx_pair) = apimap.device_pair()
device_rows = [r for r in results if r.row.table == "device"]
assert len(device_rows) == 5 and all(r.ok for r in device_rows)
print("torch:", dev_pair, "· mxnet:", ctx_pair)
Markdown(apimap.to_markdown(results, table="device"))

# %% [markdown]
# ## 9. The rows that need more than a rename
#
# **`fmod`**. The seed maps it to `nd.module`, which does not exist. `nd.modulo` does —
# but it is Python's `%`, which is `torch.remainder`, not `torch.fmod`: they differ for
# negative numbers. **PyTorch**:

# %% tags=["pytorch"]
neg = onp.array([-7.0, -3.5, 3.5, 7.0], dtype=onp.float32)
(torch.fmod(torch.from_numpy(neg), 3), torch.remainder(torch.from_numpy(neg), 3))

# %% tags=["gluon"]
nd_neg = nd.array(neg)
(hasattr(nd, "module"), nd.modulo(nd_neg, 3),
 nd.sign(nd_neg) * nd.modulo(nd.abs(nd_neg), 3))

# %%
compare.assert_same(torch.remainder(torch.from_numpy(neg), 3), nd.modulo(nd_neg, 3))
compare.assert_same(torch.fmod(torch.from_numpy(neg), 3),
                    nd.sign(nd_neg) * nd.modulo(nd.abs(nd_neg), 3))
"nd.modulo == torch.remainder; fmod == sign(x) · modulo(|x|, y)"

# %% [markdown]
# **`repeat`**. PyTorch's `repeat` tiles the whole tensor; MXNet calls that `tile`, and its
# own `repeat` repeats each element (PyTorch's `repeat_interleave`). **PyTorch**:

# %% tags=["pytorch"]
pt_r = torch.tensor([1.0, 2.0])
(pt_r.repeat(2), pt_r.repeat_interleave(2))

# %% tags=["gluon"]
nd_r = nd.array([1, 2])
(nd_r.tile((2,)), nd_r.repeat(2))

# %%
compare.assert_same(pt_r.repeat(2), nd_r.tile((2,)))
compare.assert_same(pt_r.repeat_interleave(2), nd_r.repeat(2))
"torch.repeat ↔ tile; torch.repeat_interleave ↔ nd.repeat"

# %% [markdown]
# **`chunk`**. `nd.split` splits along axis **1** by default and needs equal pieces;
# `torch.chunk` splits along dimension 0 and allows a smaller last piece, like
# `mx.np.array_split`. **PyTorch**, three rows into two chunks:

# %% tags=["pytorch"]
pt_rows = torch.arange(6.0).reshape(3, 2)
[c.shape for c in pt_rows.chunk(2)]

# %% tags=["gluon"]
np_rows = mx.np.arange(6.0).reshape(3, 2)
[c.shape for c in mx.np.array_split(np_rows, 2)]

# %%
assert [tuple(c.shape) for c in pt_rows.chunk(2)] == [(2, 2), (1, 2)]
assert [c.shape for c in mx.np.array_split(np_rows, 2)] == [(2, 2), (1, 2)]
assert nd.split(nd.ones((2, 6)), num_outputs=2)[0].shape == (2, 3)  # axis=1!
"chunk ↔ mx.np.array_split; nd.split needs axis=0 and equal pieces"

# %% tags=["raises-exception"]
nd.split(nd.arange(6).reshape((3, 2)), num_outputs=2, axis=0)

# %% [markdown]
# **`addmm`**. The seed writes `nd.linalg_gemm(M, mat1, mat2)`. `linalg_gemm(A, B, C)`
# computes `A @ B + C`: the matrix to add goes **last**. **PyTorch**:

# %% tags=["pytorch"]
M = onp.full((2, 2), 10, onp.float32)
m1 = onp.array([[1, 2], [3, 4]], onp.float32)
m2 = onp.array([[0, 1], [1, 0]], onp.float32)
torch.addmm(torch.from_numpy(M), torch.from_numpy(m1), torch.from_numpy(m2))

# %% tags=["gluon"]
# the right order, then the seed's order
(nd.linalg.gemm(nd.array(m1), nd.array(m2), nd.array(M)),
 nd.linalg.gemm(nd.array(M), nd.array(m1), nd.array(m2)))

# %%
pt_addmm = torch.addmm(torch.from_numpy(M), torch.from_numpy(m1), torch.from_numpy(m2))
compare.assert_same(pt_addmm, nd.linalg.gemm(nd.array(m1), nd.array(m2), nd.array(M)))
seed_order = nd.linalg.gemm(nd.array(M), nd.array(m1), nd.array(m2))
assert compare.max_abs_diff(pt_addmm, seed_order) > 10
"gemm(mat1, mat2, M) matches; the seed's order computes M @ mat1 + mat2"

# %% [markdown]
# **`exponential_`**. PyTorch's `exponential_(lambd)` takes the *rate*. MXNet has two
# spellings with different parameters: `nd.random_exponential(lam=rate)` and
# `nd.random.exponential(scale=1/rate)` (as does `mx.np.random.exponential`). **PyTorch**,
# rate 4, so the mean is 0.25:

# %% tags=["nbval-ignore-output", "pytorch"]
torch.manual_seed(0)
float(torch.empty(20000).exponential_(4.0).mean())

# %% tags=["nbval-ignore-output", "gluon"]
# the same rate, then the mistake of passing the rate as `scale`
mx.random.seed(0)
(nd.random_exponential(lam=4.0, shape=(20000,)).mean().asscalar(),
 nd.random.exponential(scale=4.0, shape=(20000,)).mean().asscalar())

# %%
mx.random.seed(0)
mx_rate = nd.random_exponential(lam=4.0, shape=(20000,)).mean().asscalar()
mx_scale = nd.random.exponential(scale=4.0, shape=(20000,)).mean().asscalar()
torch.manual_seed(0)
pt_rate = float(torch.empty(20000).exponential_(4.0).mean())
assert abs(pt_rate - 0.25) < 0.01
assert abs(mx_rate - 0.25) < 0.01 and abs(mx_scale - 4.0) < 0.2
"lam is the rate, scale is its inverse: a factor 16 between the two means"

# %% [markdown]
# ## 10. Reading the map from the Gluon side
#
# A reader coming from MXNet looks up the MXNet name; one porting to MXNet, the PyTorch name.
# `apimap.find` takes either. It compares whole names, component by component and in any
# case (`arccos`, `nd.arccos`, `linalg.gemm2`), not substrings: `cat` does not find
# `scatter_`. A leading `mx.` changes nothing (`mx.nd.load` is `nd.load`), punctuation and a
# call's arguments are ignored (`Trainer(`, `.params`), and a dotted name not found whole is
# found by its tail (`torch.nn.functional.nll_loss` by `nll_loss`), after the rows that hold
# it whole. A pasted line finds the rows of every name it calls or imports — not of its
# variables, keywords or literals —, the rows that hold more of them first.
#
# It searches more than this map. An MXNet name finds first its entries in the catalogue of
# [all of MXNet's API](../mxnet_api.md) (`sidebyside.catalogue`: every public construct, one
# entry per form, each with a check that runs both sides), then this map's rows; after them
# come the mapping tables of every notebook and deep dive (`sidebyside.mappings` reads them),
# the entries of the book's [error index](../errors.md) and the helper package's public names.
# Every hit says where it is taught — `where` for a reader, `link` and `target` (the page,
# and the section or row in the built book) for a link. The output below depends on the
# other notebooks' tables, so it is not compared; its checks run, on this map's rows
# (`apimap.Row`) and on the catalogue's entries.

# %% tags=["nbval-ignore-output"]
lookups = {query: [(hit.key, hit.where) for hit in apimap.find(query)[:4]]
           for query in ("nd.gather_nd", "torch.exp", "x = nd.concat(a, b, dim=1)",
                         "Dense(128, activation='relu')", "params_to_state_dict")}


def map_rows(query):
    """The keys of this map's rows that ``query`` finds, best first."""
    return [hit.key for hit in apimap.find(query) if isinstance(hit, apimap.Row)]


assert map_rows("arccos") == ["acos"] and apimap.find("arccos")[0].key == "mx.nd.arccos"
assert map_rows("linalg.gemm2")[:2] == ["addbmm", "bmm"]
assert {h.key for h in apimap.find("linalg.gemm2")[:3]} >= {   # the catalogue: one per form
    "mx.nd.linalg.gemm2", "mx.nd.linalg.gemm2 [transpose_a=True]"}
assert "scatter_" not in [hit.key for hit in apimap.find("cat")]
assert lookups["nd.gather_nd"][:2] == [("mx.nd.gather_nd", "All of MXNet's API, mx.nd.gather_nd"),
                                       ("gather", "notebook 2, §8. The whole map, run")]
assert apimap.find("nd.gather_nd")[0].target == "mxnet_api.html#api-mx-nd-gather_nd"
assert lookups["torch.exp"][0][0] == "exp" == map_rows("mx.nd.exp")[0]
assert apimap.find("mx.nd.exp")[0].key == "mx.nd.exp"
assert map_rows("x = nd.concat(a, b, dim=1)")[0] == "cat"
helper = next(h for h in apimap.find("params_to_state_dict")
              if h.key == "sidebyside.convert.params_to_state_dict")
assert helper.where.startswith("notebook ") and helper.target.startswith("notebooks/")
assert apimap.find("no_such_api") == [] and apimap.row("acos").target == (
    "notebooks/02_tensor_ops.html#the-whole-map-run")
lookups

# %% [markdown]
# The tensor table again, sorted by the MXNet name (the book's [all-mappings page](../all_mappings.md) lists the whole
# map and every notebook's tables both ways):

# %%
Markdown(apimap.to_markdown(direction="mxnet", table="tensor"))

# %% [markdown]
# ## Summary
#
# | PyTorch | Gluon (`mx.nd`) | Gluon (`mx.np`/`npx`) | watch out |
# |---|---|---|---|
# | `torch.ones(2, 3)` | `nd.ones((2, 3))` | `mx.np.ones((2, 3))` | one shape tuple |
# | `x.size()`, `x.numel()` | `x.shape`, `x.size` | `x.shape`, `x.size` | `size` is the count |
# | `torch.from_numpy(a)` keeps float64 | `nd.array(a)` → float32 | `mx.np.array(a)` keeps it | dtype |
# | `x.numpy()` shares memory | `x.asnumpy()` copies | `x.asnumpy()` copies | |
# | `x.item()` | `x.asscalar()` | `x.item()` | no `item()` in `mx.nd` |
# | `x.add_(1)`, `x += 1` | `x += 1`, `x[:] = …`, `out=` | same | no `_` methods |
# | `x.sum()` is 0-d | shape `(1,)` | 0-d | |
# | `torch.fmod` / `torch.remainder` | composite / `nd.modulo` | — / `mx.np.remainder` | sign |
# | `x.repeat(2)` / `repeat_interleave` | `x.tile((2,))` / `x.repeat(2)` | `tile` / `repeat` | name clash |
# | `x.chunk(n)` | `nd.split(x, n, axis=0)` | `mx.np.array_split` | default axis 1 |
# | `torch.addmm(M, a, b)` | `nd.linalg.gemm(a, b, M)` | `M + mx.np.dot(a, b)` | order |
# | `t.exponential_(rate)` | `nd.random_exponential(lam=rate)` | `scale=1/rate` | parameter |
# | `torch.cat(ts, dim=0)` | `nd.concat(*ts, dim=0)` | `mx.np.concatenate(ts)` | default axis 1 |
# | `torch.softmax(x, dim)` | `nd.softmax(x, axis=…)` | `npx.softmax(x, axis=…)` | default -1 |
# | `net.double()` returns `net` | `net.cast('float64')` returns `None` | — | return value |
# | `torchvision.utils.make_grid` | a short loop (see its row) | — | no equivalent |
# | `x.t().contiguous().view(n)` | `x.T.reshape((n,))` | `x.T.reshape(n)` | `view` of a transpose raises |
# | `x.detach().numpy()` | `x.asnumpy()` | `x.asnumpy()` | `numpy()` refuses a tracked tensor |
# | `float32 @ float64` raises, `+` promotes | both raise | `+` promotes, `dot` raises | cast one side |
# | `x.argmax(dim=1)` is int64 | `nd.argmax(x, axis=1)` is float32 | `mx.np.argmax` is int64 | index dtype |
# | `torch.transpose(x, a, b)`, `x.permute(…)` | `nd.swapaxes(x, a, b)`, `nd.transpose(x, axes=…)` | `mx.np.swapaxes`, `mx.np.transpose` | name clash |
# | `nn.LSTM`, `nn.GRU`, `nn.RNN` | `gluon.rnn.LSTM`, `GRU`, `RNN(activation='tanh')` | — | Gluon's `RNN` is ReLU |
#
# The full map with every row's check is in section 8; `sidebyside.apimap` holds it as
# data, and `tests/test_apimap.py` re-runs every row and checks it still covers every row
# of the seed's tables.
#
# ## Exercises
#
# 1. `torch.cross` has no MXNet 1.9.1 counterpart. Read the composite in
#    `apimap.row("cross").nd`, then write one for `torch.cumprod` in `mx.nd` that does not
#    use `mx.np` (hint: a loop over a small axis is fine) and check it with
#    `compare.assert_same`.
# 2. `nd.reshape` has special codes: what do `nd.ones((2, 3, 4)).reshape((0, -1))` and
#    `torch.ones(2, 3, 4).reshape(0, -1)` do? Explain the difference.
# 3. Add a row to the map for `torch.where(cond, x, y)` (MXNet: `nd.where`), run
#    `apimap.check` on it, and make it fail on purpose by swapping the arguments.
#
# :::{dropdown} Solutions
# 1. The `cross` composite picks components with `nd.take` and applies the component formula.
#    For `cumprod`, multiply the slices along the axis one at a time:
#    ```python
#    def nd_cumprod(a, axis=1):
#        parts = [nd.slice_axis(a, axis=axis, begin=0, end=1)]
#        for i in range(1, a.shape[axis]):
#            parts.append(parts[-1] * nd.slice_axis(a, axis=axis, begin=i, end=i + 1))
#        return nd.concat(*parts, dim=axis)
#    ```
#    `compare.assert_same(torch.from_numpy(x).cumprod(dim=1), nd_cumprod(nd.array(x)),
#    rtol=1e-6, atol=1e-7)` passes on a 3×4 float32 input, and along every axis of a 2×5×3
#    one (the first cell below).
# 2. In `nd.reshape`, `0` means "copy this dimension from the input", so `(0, -1)` gives
#    `(2, 12)`. PyTorch reads `0` as a dimension of size 0 and raises `RuntimeError: shape
#    '[0, -1]' is invalid for input of size 24`; write `reshape(2, -1)` or `flatten(1)`. `mx.np`
#    follows NumPy and fails too (`Cannot reshape array of size 24 into shape [0,-1]`). The
#    second cell below checks all three.
# 3. `apimap.Row(key="where", what="element-wise choice", torch="torch.where(x > 0, x, y)",
#    nd="nd.where(x > 0, x, y)", np="mx.np.where(x > 0, x, y)", status="same name",
#    api="nd.where, mx.np.where", verdict="exercise row", source="exercise")`. `apimap.check`
#    on it gives `ok=True`, with a difference of 0 in both APIs. With `y, x` swapped on the
#    MXNet side, both APIs report `FAILED: AssertionError: values differ: …`: where `x` is
#    positive (about half of it) the entries change. The third cell below runs both.
# :::

# %% tags=["hide-cell"]
def nd_cumprod(a, axis=1):
    parts = [nd.slice_axis(a, axis=axis, begin=0, end=1)]
    for i in range(1, a.shape[axis]):
        parts.append(parts[-1] * nd.slice_axis(a, axis=axis, begin=i, end=i + 1))
    return nd.concat(*parts, dim=axis)


x34 = apimap.inputs()["x"]
x253 = onp.random.default_rng(1).uniform(-0.9, 0.9, (2, 5, 3)).astype(onp.float32)
gaps = [compare.assert_same(torch.from_numpy(x34).cumprod(dim=1), nd_cumprod(nd.array(x34)),
                            rtol=1e-6, atol=1e-7)]
gaps += [compare.assert_same(torch.from_numpy(x253).cumprod(dim=d),
                             nd_cumprod(nd.array(x253), axis=d), rtol=1e-6, atol=1e-7)
         for d in (0, 1, 2)]
assert len(gaps) == 4 and max(gaps) <= 1e-6
"nd_cumprod equals torch.cumprod along every axis, within rtol 1e-6"

# %% tags=["hide-cell"]
assert nd.ones((2, 3, 4)).reshape((0, -1)).shape == (2, 12)  # 0: copy that dimension
codes = {"torch": errors.catch(lambda: torch.ones(2, 3, 4).reshape(0, -1)),
         "mx.np": errors.catch(lambda: mx.np.ones((2, 3, 4)).reshape((0, -1)))}
assert codes["torch"].brief == ("RuntimeError", "shape '[0, -1]' is invalid for input of size 24")
assert "Cannot reshape array of size 24 into shape [0,-1]" in codes["mx.np"].line
assert tuple(torch.ones(2, 3, 4).reshape(2, -1).shape) == (2, 12)
assert tuple(torch.ones(2, 3, 4).flatten(1).shape) == (2, 12)
"nd.reshape reads 0 as 'keep this dimension'; torch and mx.np read it as a size, and raise"

# %% tags=["hide-cell"]
where = apimap.Row(key="where", what="element-wise choice", torch="torch.where(x > 0, x, y)",
                   nd="nd.where(x > 0, x, y)", np="mx.np.where(x > 0, x, y)",
                   status="same name", api="nd.where, mx.np.where", verdict="exercise row",
                   source="exercise")
checked = apimap.check(where)
assert checked.ok and set(checked.max_diff) == {"mx.nd", "mx.np"}
assert max(checked.max_diff.values()) == 0
swapped = apimap.check(dataclasses.replace(where, nd="nd.where(x > 0, y, x)",
                                           np="mx.np.where(x > 0, y, x)"))
assert not swapped.ok and all(d.startswith("FAILED: AssertionError: values differ")
                              for d in swapped.detail.values())
assert 3 <= int((apimap.inputs()["x"] > 0).sum()) <= 9  # of 12 entries
"the where row matches exactly in both APIs; with x and y swapped both fail"
