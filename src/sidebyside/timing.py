"""Time code in either framework honestly: wait for the work, not only for its launch.

MXNet pushes every operator to its engine and returns at once; PyTorch does the same with
CUDA kernels. A stopwatch around the call then measures the *launch*. :func:`measure` runs a
callable several times and, unless told not to, waits for all pending work of both frameworks
(:func:`sync`) before it stops the clock::

    t = measure(lambda: mx.nd.dot(a, b), repeat=5)
    print(t)        # e.g. "median 41.2 ms (best 40.8 ms, 5 runs, synced)"
    print(measure(lambda: mx.nd.dot(a, b), sync_each=False))
                    # e.g. "median 0.0213 ms (best 0.0198 ms, 5 runs, NOT synced: launch time only)"
    t.median        # seconds

Timings are for reading, never for asserting: they depend on the machine and its load.
"""
from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from typing import Any, Callable

__all__ = ["Timing", "measure", "sync"]


def _is_mxnet_array(x: Any) -> bool:
    return type(x).__module__.startswith("mxnet") and hasattr(x, "wait_to_read")


def _is_torch_tensor(x: Any) -> bool:
    return type(x).__module__.startswith("torch") and hasattr(x, "device")


def sync(*arrays: Any) -> None:
    """Block until work is done.

    With arrays (``mx.nd.NDArray``, ``mx.np.ndarray``, ``torch.Tensor``, numpy arrays, or
    Python numbers, which need no waiting): wait until each of them is computed. With none:
    wait for *all* pending MXNet work (``mx.nd.waitall()``) and, when CUDA is available, for
    every PyTorch CUDA kernel (``torch.cuda.synchronize()``).

    An error raised by an MXNet operator that already returned surfaces here.
    Raises TypeError for anything else.
    """
    if not arrays:
        import mxnet as mx
        import torch

        mx.nd.waitall()
        if torch.cuda.is_available():
            torch.cuda.synchronize()
        return
    for x in arrays:
        if _is_mxnet_array(x):
            x.wait_to_read()
        elif _is_torch_tensor(x):
            if x.device.type == "cuda":
                import torch

                torch.cuda.synchronize(x.device)
        elif isinstance(x, (int, float, complex)) or type(x).__module__ == "numpy":
            continue  # computed already
        else:
            raise TypeError(f"cannot wait for a {type(x).__module__}.{type(x).__name__}: "
                            "pass mxnet / torch / numpy arrays, or nothing to wait for all")


def _work_kind(value: Any) -> str:
    """'async' (MXNet arrays, CUDA tensors), 'eager' (CPU tensors, numpy, numbers) or '?'."""
    parts = list(value) if isinstance(value, (list, tuple)) else [value]
    if not parts:
        return "?"
    kinds = set()
    for x in parts:
        if _is_mxnet_array(x):
            kinds.add("async")
        elif _is_torch_tensor(x):
            kinds.add("async" if x.device.type == "cuda" else "eager")
        elif isinstance(x, (int, float, complex)) or type(x).__module__ == "numpy":
            kinds.add("eager")
        else:
            kinds.add("?")
    return "async" if "async" in kinds else ("eager" if kinds == {"eager"} else "?")


@dataclass(frozen=True)
class Timing:
    """Wall-clock seconds of each timed run, and whether each run waited for its work.

    ``work`` says what the timed callable returned: ``"async"`` (MXNet arrays or CUDA
    tensors: results that may still be computing when the call returns), ``"eager"``
    (PyTorch CPU tensors, numpy arrays, numbers: computed before the call returned) or
    ``"?"``. It decides what an unsynced time means.
    """

    seconds: tuple[float, ...]
    synced: bool
    work: str = "?"

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)

    @property
    def best(self) -> float:
        return min(self.seconds)

    @property
    def how(self) -> str:
        """What the clock saw, in words."""
        if self.synced:
            return "synced"
        if self.work == "eager":
            return "not synced, but the result was computed on return: the full time"
        if self.work == "async":
            return "NOT synced: launch time only"
        return "NOT synced: launch time only if the work is asynchronous"

    def __str__(self) -> str:
        how = self.how
        return (f"median {self.median * 1e3:.3g} ms (best {self.best * 1e3:.3g} ms, "
                f"{len(self.seconds)} runs, {how})")

    def _repr_pretty_(self, printer, cycle):
        printer.text(str(self))


def measure(fn: Callable[[], Any], *, repeat: int = 5, warmup: int = 1,
            sync_each: bool = True) -> Timing:
    """Call ``fn()`` ``warmup`` times untimed, then ``repeat`` times timed; return a Timing.

    With ``sync_each=True`` (the default) each timed run ends with :func:`sync` (all pending
    work of both frameworks), so the clock sees the work. With ``sync_each=False`` the clock
    stops as soon as ``fn`` returns — the mistake this module exists to show; the queue is
    still drained after the last run, outside the timing, so the next measurement starts
    clean.

    Raises TypeError when ``fn`` is not callable or the counts are not ints, ValueError when
    ``repeat < 1`` or ``warmup < 0``.
    """
    if not callable(fn):
        raise TypeError(f"fn must be callable, got {type(fn).__name__}")
    for name, value, low in (("repeat", repeat, 1), ("warmup", warmup, 0)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{name} must be an int, got {type(value).__name__}: {value!r}")
        if value < low:
            raise ValueError(f"{name} must be >= {low}, got {value}")
    for _ in range(warmup):
        fn()
        sync()
    seconds = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        if sync_each:
            sync()
        seconds.append(time.perf_counter() - start)
    if not sync_each:
        sync()
    return Timing(tuple(seconds), synced=sync_each, work=_work_kind(result))
