"""Helpers for the legacy-API checks (``entries/legacy_module.py``, ``entries/legacy_io.py``).

One tiny problem serves every ``mx.mod.Module`` check: an MLP 4 → 5 (relu) → 3 with a
``SoftmaxOutput`` head, 8 samples, batches of 4, weights drawn once. The MXNet side builds it
as a Symbol and a Module (:func:`mx_module`); the PyTorch side is ``torch.nn.Sequential`` of
the same layers, loaded with the same weights (:func:`torch_setup`). Imports are lazy: the
snippets import what they use.
"""

from __future__ import annotations

import numpy as onp

NAMES = ("fc1_weight", "fc1_bias", "fc2_weight", "fc2_bias")
BATCH = 4


def _dt(dtype) -> str:
    """'float64' for 'float64', torch.float64 or numpy's float64."""
    return str(dtype).replace("torch.", "")


def problem(dtype="float64", n=8):
    """(x, y, params): inputs (n, 4), integer class labels (n,) in 0..2, and the MLP's
    weights by MXNet name, the same every call."""
    rng = onp.random.default_rng(42)
    dt = _dt(dtype)
    x = rng.uniform(-1, 1, (n, 4)).astype(dt)
    y = onp.array([0, 1, 2, 1, 2, 0, 1, 2][:n])
    params = {"fc1_weight": rng.uniform(-1, 1, (5, 4)), "fc1_bias": rng.uniform(-1, 1, 5),
              "fc2_weight": rng.uniform(-1, 1, (3, 5)), "fc2_bias": rng.uniform(-1, 1, 3)}
    return x, y, {k: v.astype(dt) for k, v in params.items()}


def mx_symbol(head=True):
    """data → FullyConnected(5) → relu → FullyConnected(3) [→ SoftmaxOutput]."""
    import mxnet as mx

    h = mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=5, name="fc1")
    h = mx.sym.FullyConnected(mx.sym.Activation(h, act_type="relu"), num_hidden=3, name="fc2")
    return mx.sym.SoftmaxOutput(h, name="softmax") if head else h


def mx_arrays(dtype, n=8):
    """The problem as MXNet NDArrays: (x, y, arg_params)."""
    import mxnet as mx

    x, y, params = problem(dtype, n)
    dt = _dt(dtype)
    return (mx.nd.array(x, dtype=dt), mx.nd.array(y, dtype=dt),
            {k: mx.nd.array(v, dtype=dt) for k, v in params.items()})


def mx_shapes(dtype, batch=BATCH, head=True):
    """(data_shapes, label_shapes) for Module.bind, as DataDesc in ``dtype``."""
    import mxnet as mx

    dt = _dt(dtype)
    data = [mx.io.DataDesc("data", (batch, 4), dtype=dt)]
    label = [mx.io.DataDesc("softmax_label", (batch,), dtype=dt)] if head else None
    return data, label


def mx_module(dtype, head=True, for_training=True, inputs_need_grad=False, batch=BATCH):
    """A bound Module holding the problem's weights, and the batches (DataBatch) of 4."""
    import mxnet as mx

    x, y, params = mx_arrays(dtype)
    mod = mx.mod.Module(mx_symbol(head), label_names=("softmax_label",) if head else ())
    data, label = mx_shapes(dtype, batch, head)
    mod.bind(data_shapes=data, label_shapes=label, for_training=for_training,
             inputs_need_grad=inputs_need_grad)
    mod.set_params(params, {})
    return mod, mx_batches(dtype, batch)


def mx_batches(dtype, batch=BATCH):
    import mxnet as mx

    x, y, _ = mx_arrays(dtype)
    return [mx.io.DataBatch([x[i:i + batch]], [y[i:i + batch]])
            for i in range(0, x.shape[0], batch)]


def mx_iter(dtype, batch=BATCH):
    """An NDArrayIter over the problem (no shuffling), in ``dtype``."""
    import mxnet as mx

    x, y, _ = mx_arrays(dtype)
    return mx.io.NDArrayIter(x, y, batch_size=batch, label_name="softmax_label")


def mx_weights(mod):
    """The Module's weights, in NAMES order, as numpy."""
    arg, _ = mod.get_params()
    return [arg[k].asnumpy() for k in NAMES]


def torch_setup(model, dtype, n=8):
    """Load the problem's weights into ``model`` (Sequential(Linear, ReLU, Linear)), cast it
    to ``dtype``; return (x, y) as tensors (y: int64 class labels)."""
    import torch

    x, y, params = problem(dtype, n)
    model.to(getattr(torch, _dt(dtype)))
    with torch.no_grad():
        for p, k in zip(model.parameters(), NAMES):
            p.copy_(torch.from_numpy(params[k]))
    return torch.from_numpy(x), torch.from_numpy(y)


def torch_weights(model):
    return [p.detach().numpy().copy() for p in model.parameters()]


def torch_loader(x, y, batch=BATCH):
    """The problem's batches in order (a DataLoader without shuffling)."""
    import torch

    return torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, y), batch_size=batch)


# ------------------------------------------------------------------ files and downloads
def tmpdir():
    import atexit
    import shutil
    import tempfile

    path = tempfile.mkdtemp(prefix="sbs_legacy_")
    atexit.register(shutil.rmtree, path, True)
    return path


def serve(payload: bytes, name="file.bin"):
    """Serve ``payload`` on 127.0.0.1 (one thread); returns (url, stop)."""
    import http.server
    import threading

    class H(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802
            self.send_response(200)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *a):
            pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
    threading.Thread(target=srv.serve_forever, args=(0.005,), daemon=True).start()

    def stop():
        srv.shutdown()
        srv.server_close()

    return f"http://127.0.0.1:{srv.server_address[1]}/{name}", stop


def write_mnist(folder, n=4, prefix=("train", "t10k"), gz=False, raw=False):
    """Tiny MNIST files (idx format) under ``folder`` (or folder/MNIST/raw with ``raw``):
    images (n, 28, 28) uint8, labels (n,) uint8, the same every call; returns (img, lab)."""
    import gzip
    import os
    import struct

    rng = onp.random.default_rng(5)
    img = rng.integers(0, 256, (n, 28, 28)).astype(onp.uint8)
    lab = rng.integers(0, 10, n).astype(onp.uint8)
    if raw:
        folder = os.path.join(folder, "MNIST", "raw")
    os.makedirs(folder, exist_ok=True)
    for p in prefix:
        for kind, head, body in (("images-idx3-ubyte", struct.pack(">IIII", 2051, n, 28, 28), img),
                                 ("labels-idx1-ubyte", struct.pack(">II", 2049, n), lab)):
            path = os.path.join(folder, f"{p}-{kind}" + (".gz" if gz else ""))
            with (gzip.open if gz else open)(path, "wb") as f:
                f.write(head + body.tobytes())
    return img, lab


def capture_logs(fn):
    """Run ``fn()`` with the root logger at INFO; return the messages logged."""
    import logging

    records = []
    handler = logging.Handler(logging.INFO)
    handler.emit = lambda r: records.append(r.getMessage())
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    try:
        fn()
    finally:
        root.removeHandler(handler)
        root.setLevel(level)
    return records


class in_dir:  # noqa: N801 - a context manager, used like a function
    """``with in_dir(path):`` work in ``path``, then go back."""

    def __init__(self, path):
        self.path = path

    def __enter__(self):
        import os

        self.old = os.getcwd()
        os.chdir(self.path)
        return self.path

    def __exit__(self, *exc):
        import os

        os.chdir(self.old)


def process_group():
    """A one-process gloo group (rank 0 of 1) in this process; returns a function that
    destroys it."""
    import torch.distributed as dist

    dist.init_process_group("gloo", store=dist.HashStore(), rank=0, world_size=1)
    return dist.destroy_process_group


#: values one side leaves for the other (the MXNet side runs first): a file MXNet wrote,
#: read on the PyTorch side with sidebyside.recordio
SHARED: dict = {}


def tolerance_verdicts(assert_fn, convert):
    """Whether ``assert_fn(a + δ, a)`` passes for δ around atol + rtol·|a| (1e-3 + 3e-4):
    the list of verdicts, the same on both sides when the tolerance formula is."""
    import contextlib
    import io

    a = onp.array([1.0, 2.0, -3.0])
    out = []
    for d in (0.0, 9e-4, 1.25e-3, 1.35e-3, 2e-3, -1.25e-3, -1.35e-3):
        b = a + onp.array([0.0, 0.0, d])
        try:
            with contextlib.redirect_stdout(io.StringIO()):  # MXNet prints the mismatches
                assert_fn(convert(b), convert(a))
            out.append(True)
        except AssertionError:
            out.append(False)
    return out


class amp_flags:  # noqa: N801 - a context manager, used like a function
    """Let ``mx.contrib.amp.init_trainer`` run without ``amp.init()`` (which rewrites
    MXNet's operators for the whole process, so no check may call it): mark AMP as
    initialised for the call, then restore the flags."""

    def __enter__(self):
        from mxnet.contrib.amp import amp

        self.old = amp._amp_initialized, amp._amp_loss_scale_initialized
        amp._amp_initialized = amp._amp_loss_scale_initialized = True

    def __exit__(self, *exc):
        from mxnet.contrib.amp import amp

        amp._amp_initialized, amp._amp_loss_scale_initialized = self.old


AMP_INPUTS = (1e20, 1.0, 0.5)   # the first step's scaled loss overflows float32


def amp_weights():
    """A Dense(2, in_units=3)'s weight (float32) and bias, the same every call."""
    rng = onp.random.default_rng(9)
    return rng.uniform(-1, 1, (2, 3)).astype("float32"), rng.uniform(-1, 1, 2).astype("float32")


def amp_problem_mx():
    """(dense, trainer, inputs): a float32 Dense with amp_weights, SGD lr 0.5."""
    import mxnet as mx

    w, b = amp_weights()
    dense = mx.gluon.nn.Dense(2, in_units=3)
    dense.initialize()
    dense.weight.set_data(mx.nd.array(w))
    dense.bias.set_data(mx.nd.array(b))
    trainer = mx.gluon.Trainer(dense.collect_params(), "sgd", {"learning_rate": 0.5})
    return dense, trainer, [mx.nd.ones((4, 3)) * v for v in AMP_INPUTS]


def amp_problem_torch():
    import torch

    w, b = amp_weights()
    dense = torch.nn.Linear(3, 2)
    with torch.no_grad():
        dense.weight.copy_(torch.from_numpy(w))
        dense.bias.copy_(torch.from_numpy(b))
    return dense, [torch.ones(4, 3) * v for v in AMP_INPUTS]
