# %% [markdown]
# # Deep dive · Second derivatives in MXNet 1.9.1: which operators have one
#
# This page deepens [notebook 5](../05_autograd.ipynb) §5 (*Second-order gradients*), where
# `x ** 3` cannot be differentiated twice in MXNet 1.9.1. Here: a survey of common
# operators in both frameworks (§1), and what it means for sums, scalar factors and a
# weight decay term, the pieces of every loss (§2). **Time**: about 10 minutes.
#
# Each case is `f(x)` on three float32 values; the test takes `f'` with
# `create_graph=True` and then differentiates `f'` again. MXNet can do the second step only
# through operators whose backward is registered as differentiable (`FGradient`); a failure
# names the backward operator that lacks it.

# %% tags=["nbval-ignore-output"]
import re

import mxnet as mx
import numpy as np
import torch
from mxnet import autograd, nd

from sidebyside import devices, seeding, table

SEED = seeding.seed_everything(0)
devs = devices.pick()
pt_dev, mx_ctx = devs.torch.device, devs.mxnet.device
x0 = np.array([0.3, 0.6, 1.2], dtype=np.float32)      # notebook 5 §5's points
print(f"torch {torch.__version__} · mxnet {mx.__version__}")


def second_order(framework, f):
    """'ok', or why f'' cannot be taken: the MXNet backward operator without a gradient,
    or "f' is a constant" (no graph to differentiate again)."""
    try:
        if framework == "torch":
            x = torch.tensor(x0, device=pt_dev, requires_grad=True)
            (d1,) = torch.autograd.grad(f(torch, x).sum(), x, create_graph=True)
            torch.autograd.grad(d1.sum(), x)
        else:
            x = nd.array(x0, ctx=mx_ctx)
            x.attach_grad()
            with autograd.record():
                (d1,) = autograd.grad(f(nd, x), [x], create_graph=True, retain_graph=True)
            d1.backward()
        return "ok"
    except RuntimeError as exc:                  # MXNetError is a RuntimeError
        operator = re.search(r"Operator (\w+)", str(exc))
        return f"{operator.group(1)} has no gradient" if operator else "f' is a constant"


def survey(cases):
    return [{"function": name, "torch": second_order("torch", f),
             "mxnet 1.9.1": second_order("mxnet", f)} for name, f in cases.items()]


# %% [markdown]
# ## 1. Common operators
#
# Each function is written once, for `m` = `torch` or `nd`:

# %%
COMMON = {
    "sin, cos, exp, log": (lambda m, x: m.log(m.exp(m.cos(m.sin(x))) + 1)),
    "tanh, sigmoid, relu": (lambda m, x: m.relu(m.tanh(m.sigmoid(x)))),
    "sqrt, square": (lambda m, x: m.sqrt(m.square(x) + 1)),
    "x ** 3": (lambda m, x: x ** 3),
    "3 * sin x": (lambda m, x: 3 * m.sin(x)),
    "x * x": (lambda m, x: x * x),
    "sum(sin x)": (lambda m, x: m.sum(m.sin(x))),
    "softmax": (lambda m, x: m.softmax(x, axis=-1)),   # torch takes axis= for dim=
    "erf": (lambda m, x: m.erf(x)),
}
common = survey(COMMON)
table.show(common)

# %% [markdown]
# **Check**: PyTorch differentiates all of them twice; MXNet only the first three, chains
# of `sin`, `cos`, `exp`, `log`, `tanh`, `sigmoid`, `relu`, `sqrt` and `square`. A power, a
# product, a scalar factor, a sum, softmax and erf all fail.

# %%
verdict = {r["function"]: r["mxnet 1.9.1"] for r in common}
assert all(r["torch"] == "ok" for r in common)
assert [k for k, v in verdict.items() if v == "ok"] == [
    "sin, cos, exp, log", "tanh, sigmoid, relu", "sqrt, square"]
assert verdict["x ** 3"] == "_backward_power_scalar has no gradient"
assert verdict["x * x"] == "_backward_broadcast_mul has no gradient"
assert verdict["sum(sin x)"] == "_backward_sum has no gradient"
assert verdict["3 * sin x"] == "_backward_mul_scalar has no gradient"
assert all(v.endswith("has no gradient") for v in verdict.values() if v != "ok")
"MXNet 1.9.1: second derivatives for the first three rows only"

# %% [markdown]
# ## 2. Sums, scalar factors and a weight decay term
#
# A loss is rarely one function: it adds terms, scales them and sums them. The same test
# on those pieces, with `square(x)` standing for an L2 weight decay term:

# %%
PIECES = {
    "x + x": lambda m, x: x + x,
    "exp(x) + 1": lambda m, x: m.exp(x) + 1,
    "relu(x) - x": lambda m, x: m.relu(x) - x,
    "exp(x) + square(x)": lambda m, x: m.exp(x) + m.square(x),
    "0.01 * square(x)": lambda m, x: 0.01 * m.square(x),
    "square(x) / 100": lambda m, x: m.square(x) / 100,
    "sum(square(x))": lambda m, x: m.sum(m.square(x)),
}
pieces = survey(PIECES)
table.show(pieces)

# %% [markdown]
# **Check**: only a scalar added (`exp(x) + 1`) passes in MXNet. `relu(x) - x` fails
# though its second derivative is 0 everywhere, which PyTorch computes. `x + x` fails in
# both frameworks: its first derivative, 2, no longer depends on `x`, so there is no graph
# to differentiate. Adding, scaling or summing a decay term fails in MXNet.

# %%
assert {r["function"]: (r["torch"], r["mxnet 1.9.1"]) for r in pieces} == {
    "x + x": ("f' is a constant", "f' is a constant"),
    "exp(x) + 1": ("ok", "ok"),
    "relu(x) - x": ("ok", "_backward_broadcast_sub has no gradient"),
    "exp(x) + square(x)": ("ok", "_backward_broadcast_add has no gradient"),
    "0.01 * square(x)": ("ok", "_backward_mul_scalar has no gradient"),
    "square(x) / 100": ("ok", "_backward_div_scalar has no gradient"),
    "sum(square(x))": ("ok", "_backward_sum has no gradient"),
}
"MXNet: a scalar added passes; adding, scaling or summing a term fails"

# %% [markdown]
# ## What this means for a port
#
# - A PyTorch gradient penalty, a Hessian-vector product or a meta-learning step
#   (`create_graph=True`) ports to MXNet 1.9.1 only if every operator between the loss and
#   the parameters has a registered second derivative: in practice, chains of the
#   elementwise functions of §1's first three rows. Products, powers, scalar factors, sums
#   and softmax do not.
# - A weight decay term written into the loss breaks the second derivative: leave the
#   decay to the optimizer (`wd` in the `Trainer`'s settings).
# - A failure names the backward operator (`_backward_…`) that lacks a gradient; look for
#   the forward operator it belongs to, and rewrite that part with operators that have one,
#   or compute that part of the derivative by hand.
