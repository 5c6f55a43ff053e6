"""Helpers for the Symbol-API checks (``entries/legacy_symbol.py``).

The MXNet side builds a tiny symbol graph, runs it (``bind`` + ``forward``) and saves it as
``<tag>-symbol.json`` + ``<tag>-0000.params`` in a temporary folder: :func:`mx_graph`. The
PyTorch side translates those files with :mod:`sidebyside.mx2torch` (no MXNet) and runs the
module: :func:`torch_graph`. Also: a tiny custom operator on both sides (``y = x³``, written
as ``mx.operator.CustomOp`` and as ``torch.autograd.Function``).
"""

from __future__ import annotations

import functools
import os
import shutil
import tempfile


@functools.lru_cache(maxsize=1)
def workdir() -> str:
    """A temporary folder for this process (removed when the interpreter exits)."""
    import atexit

    path = tempfile.mkdtemp(prefix="sidebyside-symbol-")
    atexit.register(shutil.rmtree, path, True)
    return path


def prefix(tag: str) -> str:
    """``<workdir>/<tag>``: the prefix of a checkpoint pair."""
    return os.path.join(workdir(), tag)


def save_pair(symbol, params: dict, tag: str) -> str:
    """Write ``symbol`` and ``params`` ({name: NDArray}, saved as ``arg:name``) the way
    ``save_checkpoint`` does; returns the prefix."""
    import mxnet as mx

    p = prefix(tag)
    symbol.save(p + "-symbol.json")
    mx.nd.save(p + "-0000.params", {f"arg:{k}": v for k, v in params.items()})
    return p


def mx_graph(symbol, data: dict, params: dict, tag: str):
    """Save the pair, then run ``symbol`` bound to ``data`` + ``params`` on the CPU: the list
    of its outputs (NDArrays)."""
    import mxnet as mx

    save_pair(symbol, params, tag)
    ex = symbol.bind(mx.cpu(), {**data, **params}, grad_req="null")
    return ex.forward(is_train=False)


def translation(tag: str):
    """:func:`sidebyside.mx2torch.translation` of the pair :func:`mx_graph` saved."""
    from sidebyside import mx2torch

    p = prefix(tag)
    return mx2torch.translation(p + "-symbol.json", p + "-0000.params")


def torch_graph(tag: str, *inputs):
    """The pair translated by :mod:`sidebyside.mx2torch` and run on ``inputs`` (in the order
    of ``Translation.inputs``): a list of its outputs, detached."""
    import torch

    out = translation(tag).module(*inputs)
    outs = list(out) if isinstance(out, (tuple, list)) else [out]
    return [o.detach() if isinstance(o, torch.Tensor) else o for o in outs]


# ------------------------------------------------------------------- a tiny custom operator
@functools.lru_cache(maxsize=1)
def register_mx_cube() -> str:
    """Register the custom operator ``sbs_cube`` (y = x³, dy/dx = 3x²) with MXNet once;
    returns its op_type."""
    import mxnet as mx

    class Cube(mx.operator.CustomOp):
        def forward(self, is_train, req, in_data, out_data, aux):
            x = in_data[0]
            self.assign(out_data[0], req[0], x * x * x)

        def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
            x = in_data[0]
            self.assign(in_grad[0], req[0], 3 * x * x * out_grad[0])

    @mx.operator.register("sbs_cube")
    class CubeProp(mx.operator.CustomOpProp):
        def __init__(self):
            super().__init__(need_top_grad=True)

        def list_arguments(self):
            return ["data"]

        def list_outputs(self):
            return ["output"]

        def infer_shape(self, in_shape):
            return in_shape, [in_shape[0]], []

        def infer_type(self, in_type):
            return in_type, [in_type[0]], []

        def create_operator(self, ctx, shapes, dtypes):
            return Cube()

    return "sbs_cube"


def _torch_cube():
    import torch

    class Cube(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x * x

        @staticmethod
        def backward(ctx, grad_out):
            (x,) = ctx.saved_tensors
            return 3 * x * x * grad_out

    return Cube


TorchCube = None


def torch_cube():
    """The same operator as a ``torch.autograd.Function`` subclass (call ``.apply``)."""
    global TorchCube
    if TorchCube is None:
        TorchCube = _torch_cube()
    return TorchCube
