"""Which MXNet 1.9.1 layers give wrong gradients under `autograd.record(train_mode=False)`?

The deep dive `notebooks/deep_dives/autograd_predict_mode.py` (which notebook 5 §2 links to)
runs this script twice, as it is and with `MXNET_MKLDNN_ENABLED=0` (read when MXNet is
imported, hence a fresh process):

    python tools/survey_predict_mode_backward.py
    MXNET_MKLDNN_ENABLED=0 python tools/survey_predict_mode_backward.py

It prints one JSON object:

- "mxnet": the version; "mkldnn": whether oneDNN was left on;
- "demo": where the gradient of a 2×2 max pooling of a 4×4 `arange` lands (the (row, col)
  of its non-zero entries), under `record()`, under `record(train_mode=False)`, and under
  `record()` for the same input made as a reshaped view (`nd.arange(16).reshape(...)`);
- "rows": one per layer, dtype and scope: the gradients of the layer's input and parameters
  compared with PyTorch's, computed in float64 from the same input, weights and a random
  head gradient ("right" within 1e-4 in float32 and 1e-10 in float64, relative to the
  gradient's size; otherwise "WRONG", with the names of the wrong gradients in "wrong";
  "ERROR" when MXNet raised, with the reason in "error").

The three scopes: `record()` (training), `record(train_mode=False)` with a plain
`backward()` (whose own `train_mode` argument defaults to True), and
`record(train_mode=False)` with `backward(train_mode=False)`. The PyTorch reference is the
layer in the same mode: `training=True` under `record()`, `training=False` otherwise.

The layers: `CORE` (a dozen common ones), then `MORE` (more poolings and normalisations).
"""
import json
import os

import mxnet as mx
import numpy as np
import torch
import torch.nn.functional as F
from mxnet import autograd, gluon, nd

P_DROP = 0.5
LEAKY_SLOPE = 0.1
TOL = {"float32": 1e-4, "float64": 1e-10}
SCOPES = {  # label: (record's train_mode, backward's train_mode)
    "record()": (True, True),
    "record(train_mode=False)": (False, True),
    "record(train_mode=False) + backward(train_mode=False)": (False, False),
}
CORE = ("convolution", "relu (Activation)", "average pooling", "max pooling",
        "max pooling of a reshape", "the same, hybridized", "fully-connected (Dense)",
        "BatchNorm(use_global_stats=True)", "BatchNorm (default)", "Dropout(0.5)", "softmax",
        "log_softmax")
MORE = ("GlobalMaxPool2D", "GlobalMaxPool2D of a reshape", "the same, hybridized (global)",
        "MaxPool1D", "MaxPool1D of a reshape", "the same, hybridized (1-D)", "LayerNorm",
        "InstanceNorm", f"LeakyReLU(alpha={LEAKY_SLOPE})")


class Reshaped(gluon.HybridBlock):
    """`inner` applied to `x.reshape(shape)`: not hybridized, the reshape is a view."""

    def __init__(self, inner, shape):
        super().__init__()
        self.inner, self.shape = inner, shape

    def hybrid_forward(self, F_, x):
        return self.inner(x.reshape(self.shape))


def cases(rng):
    """name: (block factory, {parameter: value}, torch reference, input shape), for the
    layers of CORE and MORE, in that order.

    The reference takes (x, {parameter: tensor}, training) and returns the layer's output;
    None for Dropout, whose reference is read off its own output."""
    conv = {"weight": rng.standard_normal((4, 3, 3, 3)), "bias": rng.standard_normal(4)}
    dense = {"weight": rng.standard_normal((5, 12)), "bias": rng.standard_normal(5)}
    bn = {"gamma": 1 + 0.1 * rng.standard_normal(3), "beta": rng.standard_normal(3),
          "running_mean": rng.standard_normal(3),
          "running_var": 1 + np.abs(rng.standard_normal(3))}
    ln = {"gamma": 1 + 0.1 * rng.standard_normal(10), "beta": rng.standard_normal(10)}
    inorm = {"gamma": 1 + 0.1 * rng.standard_normal(3), "beta": rng.standard_normal(3)}

    def batch_norm(batch_stats):
        return lambda x, p, t: F.batch_norm(
            x, p["running_mean"].clone(), p["running_var"].clone(), p["gamma"], p["beta"],
            training=t and batch_stats, eps=1e-5)

    def after_reshape(inner, shape, hybridize):
        def make():
            block = Reshaped(inner(), shape)
            if hybridize:
                block.hybridize()
            return block
        return make

    def lam(fn):
        return lambda: gluon.nn.HybridLambda(fn)

    image, signal = (2, 3, 6, 6), (2, 3, 8)
    max2d, max1d = (lambda: gluon.nn.MaxPool2D(2)), (lambda: gluon.nn.MaxPool1D(2))
    global_max = gluon.nn.GlobalMaxPool2D
    return {
        "convolution": (lambda: gluon.nn.Conv2D(4, 3, in_channels=3), conv,
                        lambda x, p, t: F.conv2d(x, p["weight"], p["bias"]), image),
        "relu (Activation)": (lambda: gluon.nn.Activation("relu"), {},
                              lambda x, p, t: F.relu(x), image),
        "average pooling": (lambda: gluon.nn.AvgPool2D(2), {},
                            lambda x, p, t: F.avg_pool2d(x, 2), image),
        "max pooling": (max2d, {}, lambda x, p, t: F.max_pool2d(x, 2), image),
        "max pooling of a reshape": (
            after_reshape(max2d, image, False), {},
            lambda x, p, t: F.max_pool2d(x.reshape(image), 2), (2, 108)),
        "the same, hybridized": (
            after_reshape(max2d, image, True), {},
            lambda x, p, t: F.max_pool2d(x.reshape(image), 2), (2, 108)),
        "fully-connected (Dense)": (lambda: gluon.nn.Dense(5, in_units=12), dense,
                                    lambda x, p, t: F.linear(x, p["weight"], p["bias"]),
                                    (4, 12)),
        "BatchNorm(use_global_stats=True)": (
            lambda: gluon.nn.BatchNorm(in_channels=3, use_global_stats=True), bn,
            batch_norm(False), (4, 3, 5, 5)),
        "BatchNorm (default)": (lambda: gluon.nn.BatchNorm(in_channels=3), bn,
                                batch_norm(True), (4, 3, 5, 5)),
        "Dropout(0.5)": (lambda: gluon.nn.Dropout(P_DROP), {}, None, (4, 16)),
        "softmax": (lam(lambda F_, x: F_.softmax(x, axis=-1)), {},
                    lambda x, p, t: torch.softmax(x, -1), (4, 10)),
        "log_softmax": (lam(lambda F_, x: F_.log_softmax(x, axis=-1)), {},
                        lambda x, p, t: torch.log_softmax(x, -1), (4, 10)),
        # MORE
        "GlobalMaxPool2D": (global_max, {}, lambda x, p, t: F.adaptive_max_pool2d(x, 1),
                            image),
        "GlobalMaxPool2D of a reshape": (
            after_reshape(global_max, image, False), {},
            lambda x, p, t: F.adaptive_max_pool2d(x.reshape(image), 1), (2, 108)),
        "the same, hybridized (global)": (
            after_reshape(global_max, image, True), {},
            lambda x, p, t: F.adaptive_max_pool2d(x.reshape(image), 1), (2, 108)),
        "MaxPool1D": (max1d, {}, lambda x, p, t: F.max_pool1d(x, 2), signal),
        "MaxPool1D of a reshape": (
            after_reshape(max1d, signal, False), {},
            lambda x, p, t: F.max_pool1d(x.reshape(signal), 2), (2, 24)),
        "the same, hybridized (1-D)": (
            after_reshape(max1d, signal, True), {},
            lambda x, p, t: F.max_pool1d(x.reshape(signal), 2), (2, 24)),
        "LayerNorm": (lambda: gluon.nn.LayerNorm(in_channels=10), ln,
                      lambda x, p, t: F.layer_norm(x, (10,), p["gamma"], p["beta"], eps=1e-5),
                      (4, 10)),
        "InstanceNorm": (lambda: gluon.nn.InstanceNorm(in_channels=3), inorm,
                         lambda x, p, t: F.instance_norm(x, weight=p["gamma"],
                                                         bias=p["beta"], eps=1e-5),
                         (2, 3, 5, 5)),
        f"LeakyReLU(alpha={LEAKY_SLOPE})": (lambda: gluon.nn.LeakyReLU(LEAKY_SLOPE), {},
                                      lambda x, p, t: F.leaky_relu(x, LEAKY_SLOPE), image),
    }


def mxnet_grads(factory, params, x_np, dtype, record_train, backward_train, rng):
    """(output, head gradient, {name: gradient}) of one Gluon layer, on the CPU."""
    block = factory()
    block.initialize(ctx=mx.cpu())
    block.cast(dtype)
    named = {name: next(p for full, p in block.collect_params().items()
                        if full.endswith("_" + name)) for name in params}
    for name, value in params.items():
        named[name].set_data(nd.array(value, dtype=dtype))
    x = nd.array(x_np, dtype=dtype)
    x.attach_grad()
    with autograd.record(train_mode=record_train):
        y = block(x)
    head = rng.standard_normal(y.shape)
    y.backward(nd.array(head, dtype=dtype), train_mode=backward_train)
    grads = {"x": x.grad.asnumpy()}
    grads.update({name: p.grad().asnumpy() for name, p in named.items()
                  if p.grad_req != "null"})
    return y.asnumpy(), head, grads


def torch_grads(ref, params, x_np, head, training, trainable):
    x = torch.tensor(x_np, dtype=torch.float64, requires_grad=True)
    p = {k: torch.tensor(v, dtype=torch.float64, requires_grad=k in trainable)
         for k, v in params.items()}
    ref(x, p, training).backward(torch.tensor(head, dtype=torch.float64))
    return {"x": x.grad.numpy(), **{k: p[k].grad.numpy() for k in trainable}}


def dropout_grads(y, x_np, head, training):
    """Dropout's gradient: 1/(1-p) where its output kept the input, 0 where it dropped it."""
    if not training:
        return {"x": head}
    kept = y != 0
    if not np.allclose(y[kept], x_np[kept] / (1 - P_DROP)):
        raise AssertionError("the forward pass was not a dropout")
    return {"x": head * kept / (1 - P_DROP)}


def mxnet_error(exc):
    """The first line of an MXNetError's message, without MXNet's prefixes."""
    lines = [ln.strip() for ln in str(exc).strip().splitlines()
             if ln.strip() and not ln.startswith(("Traceback", "  File"))]
    return lines[0].rsplit(": ", 1)[-1] if lines else type(exc).__name__


def survey(dtypes=("float32", "float64"), seed=0, names=None):
    """The rows (see the module docstring) of the layers `names` (default: all of them)."""
    rng = np.random.default_rng(seed)
    all_cases = cases(rng)
    unknown = sorted(set(names or ()) - set(all_cases))
    if unknown:
        raise ValueError(f"no such layer in the survey: {unknown}; known: {list(all_cases)}")
    rows = []
    for name, (factory, params, ref, shape) in all_cases.items():
        x_np = rng.standard_normal(shape)       # drawn for every layer: same inputs
        if names is not None and name not in names:
            continue
        for dtype in dtypes:
            for scope, (record_train, backward_train) in SCOPES.items():
                row = {"operator": name, "dtype": dtype, "scope": scope}
                try:
                    y, head, got = mxnet_grads(factory, params, x_np, dtype, record_train,
                                               backward_train, rng)
                except mx.base.MXNetError as exc:
                    rows.append({**row, "verdict": "ERROR", "wrong": [],
                                 "error": mxnet_error(exc), "max_err": None})
                    continue
                if ref is None:
                    want = dropout_grads(y, x_np.astype(dtype), head, record_train)
                else:
                    want = torch_grads(ref, params, x_np, head, record_train,
                                       [k for k in got if k != "x"])
                errs = {k: float(np.abs(got[k] - want[k]).max()
                                 / max(1.0, float(np.abs(want[k]).max()))) for k in want}
                wrong = sorted(k for k, e in errs.items() if not e <= TOL[dtype])
                rows.append({**row, "verdict": "WRONG" if wrong else "right", "wrong": wrong,
                             "max_err": max(errs.values())})
    return rows


def ones_at(grad):
    """(row, col) of the non-zero entries of a (1, 1, H, W) gradient."""
    return [(int(r), int(c)) for r, c in zip(*np.nonzero(grad[0, 0]))]


def maxpool_demo():
    def pool_grad(x, train_mode):
        x.attach_grad()
        with autograd.record(train_mode=train_mode):
            y = gluon.nn.MaxPool2D(2)(x)
        y.backward()
        return ones_at(x.grad.asnumpy())

    arange = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
    return {"record()": pool_grad(nd.array(arange), True),
            "record(train_mode=False)": pool_grad(nd.array(arange), False),
            "record(), input a reshaped view": pool_grad(nd.arange(16).reshape(1, 1, 4, 4),
                                                          True)}


def main():
    print(json.dumps({"mxnet": mx.__version__,
                      "mkldnn": os.environ.get("MXNET_MKLDNN_ENABLED", "1") != "0",
                      "demo": maxpool_demo(), "rows": survey()}))


if __name__ == "__main__":
    main()
