"""Pick a device for each framework separately, and say in one plain line why.

PyTorch: ``cuda:0`` when ``torch.cuda.is_available()``, else CPU.

MXNet: a GPU context only when a tiny kernel really runs there. MXNet's last GPU wheels
(``mxnet-cu117``, 1.9.1) carry kernels for sm_50–sm_86 and no PTX, so on a newer GPU (an H100
or H200 is sm_90) a context can be created but the first kernel fails: we then fall back to
the CPU and say so instead of crashing later, in the middle of a notebook.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Choice:
    """One framework's device and the reason it was chosen."""

    framework: str
    device: Any          # torch.device or mx.Context
    reason: str

    def __str__(self) -> str:
        return f"{self.framework}: {self.device} — {self.reason}"


@dataclass(frozen=True)
class Devices:
    torch: Choice
    mxnet: Choice
    threads: Any = None  # sidebyside.threads.Threads, when pick() looked at them

    def __str__(self) -> str:
        lines = [str(self.torch), str(self.mxnet)]
        if self.threads is not None:
            lines.append(str(self.threads))
        return "\n".join(lines)

    def _repr_pretty_(self, printer, cycle):
        printer.text(str(self))


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    # MXNetError messages start with a C++ traceback banner; the last line says what happened.
    return (lines[-1] if lines else type(exc).__name__)[:200]


def torch_device(prefer_gpu: bool = True) -> Choice:
    import torch

    if not prefer_gpu:
        return Choice("torch", torch.device("cpu"), "CPU requested")
    if not torch.cuda.is_available():
        why = ("this torch build has no CUDA" if torch.version.cuda is None
               else "torch.cuda.is_available() is False (no usable NVIDIA GPU/driver)")
        return Choice("torch", torch.device("cpu"), why)
    dev = torch.device("cuda", 0)
    return Choice("torch", dev, f"GPU: {torch.cuda.get_device_name(dev)}")


def mxnet_gpu_works(ctx) -> None:
    """Run a tiny kernel on ``ctx`` and check its result; raise if it does not work."""
    import mxnet as mx

    a = mx.nd.arange(6, ctx=ctx).reshape((2, 3))
    got = mx.nd.dot(a, a.T).asnumpy()  # asnumpy() waits: errors surface here, not later
    if got.tolist() != [[5.0, 14.0], [14.0, 50.0]]:
        raise RuntimeError(f"wrong result from a test kernel on {ctx}: {got.tolist()}")


def mxnet_context(prefer_gpu: bool = True, probe=mxnet_gpu_works) -> Choice:
    """MXNet context: GPU 0 only if a tiny kernel runs there (``probe``), else CPU."""
    import mxnet as mx

    cpu = mx.cpu()
    if not prefer_gpu:
        return Choice("mxnet", cpu, "CPU requested")
    if not mx.runtime.Features().is_enabled("CUDA"):
        return Choice("mxnet", cpu, "this MXNet build has no CUDA (the pip `mxnet` wheel is CPU-only)")
    try:
        n = mx.context.num_gpus()
    except mx.base.MXNetError as exc:
        return Choice("mxnet", cpu, f"cannot count GPUs ({_first_line(exc)}); using CPU")
    if n == 0:
        return Choice("mxnet", cpu, "no GPU visible to MXNet")
    gpu = mx.gpu(0)
    try:
        probe(gpu)
    except Exception as exc:  # noqa: BLE001 - any failure means: do not use this GPU
        return Choice("mxnet", cpu,
                      f"GPU 0 is visible but a test kernel failed there ({_first_line(exc)}); "
                      "MXNet 1.9.1 GPU wheels have kernels for sm_50–sm_86 only, so falling back to CPU")
    return Choice("mxnet", gpu, "GPU 0 ran a test kernel")


def pick(prefer_gpu: bool = True, verbose: bool = True, restore_threads: bool = True) -> Devices:
    """Choose a device for each framework separately; print one line each when verbose.

    With ``restore_threads`` (the default) PyTorch also gets back the CPU threads that
    ``import mxnet`` took from it (:func:`sidebyside.threads.restore`); the third line says
    how many threads each framework computes with.
    """
    from . import threads

    counts = threads.restore() if restore_threads else threads.current()
    devs = Devices(torch=torch_device(prefer_gpu), mxnet=mxnet_context(prefer_gpu),
                   threads=counts)
    if verbose:
        print(devs)
    return devs
