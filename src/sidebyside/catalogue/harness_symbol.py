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
    params = mx2torch.load_params(p + "-0000.params")
    # a graph without parameters: mx.nd.save({}) writes a file that reads back as []
    return mx2torch.translation(p + "-symbol.json", params or {})


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


# ------------------------------------------------- recompute in backward (mirror_stage)
_RECOMPUTE = None


def recompute():
    """``Recompute.apply(fn, x)``: runs ``fn`` without keeping its intermediates and runs it
    again in backward (what ``_set_attr(mirror_stage='True')`` asks of MXNet; it is what
    ``torch.utils.checkpoint.checkpoint`` does, without that function's first-call import of
    ``torch._dynamo``, measured at 2–5 s here)."""
    global _RECOMPUTE
    if _RECOMPUTE is None:
        import torch

        class Recompute(torch.autograd.Function):
            @staticmethod
            def forward(ctx, fn, x):
                ctx.fn = fn
                ctx.save_for_backward(x)
                with torch.no_grad():
                    return fn(x)

            @staticmethod
            def backward(ctx, grad_out):
                (x,) = ctx.saved_tensors
                with torch.enable_grad():
                    x = x.detach().requires_grad_(True)
                    out = ctx.fn(x)
                (grad,) = torch.autograd.grad(out, x, grad_out)
                return None, grad

        _RECOMPUTE = Recompute
    return _RECOMPUTE


@functools.lru_cache(maxsize=1)
def mx_numpy_cube():
    """The same y = x³ as a (deprecated) ``mx.operator.NumpyOp``: an instance, called on
    symbols (``op(data=sym, name=...)``); it computes on numpy arrays, in float32."""
    import warnings

    import mxnet as mx

    class Cube(mx.operator.NumpyOp):
        def __init__(self):
            super().__init__(need_top_grad=True)

        def list_arguments(self):
            return ["data"]

        def list_outputs(self):
            return ["output"]

        def infer_shape(self, in_shape):
            return in_shape, [in_shape[0]]

        def forward(self, in_data, out_data):
            out_data[0][:] = in_data[0] ** 3

        def backward(self, out_grad, in_data, out_data, in_grad):
            in_grad[0][:] = 3 * in_data[0] ** 2 * out_grad[0]

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "NumpyOp has been deprecated"
        return Cube()
