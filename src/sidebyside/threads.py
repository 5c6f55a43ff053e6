"""How many CPU threads each framework computes with — and why ``import mxnet`` changes it.

PyTorch and MXNet's pip wheels share one OpenMP runtime (``libgomp``). When ``libmxnet.so``
loads, MXNet 1.9.1 (``src/engine/openmp.cc``) decides how many OpenMP threads its operators
may use:

1. ``MXNET_OMP_MAX_THREADS``, when set;
2. else the first value of ``OMP_NUM_THREADS``, when set;
3. else **half** the CPUs the process may run on (x86 builds assume two hyper-threads per
   core), at least one — and it calls ``omp_set_num_threads`` with that number *in the
   importing thread*.

Step 3 is the gotcha: PyTorch reads its intra-op thread count from the same runtime in the
same thread, so after ``import mxnet`` (before or after ``import torch``) PyTorch computes with
half the CPUs too — one thread on a two-CPU machine. ``torch.set_num_threads(n)`` restores
it; MXNet's own count is fixed once the library is loaded, so give MXNet more threads with
``MXNET_OMP_MAX_THREADS=n`` *before* the import.

:func:`restore` (called by :func:`sidebyside.devices.pick`) gives PyTorch back the count it
would have had without MXNet, and :func:`matched` sets PyTorch to MXNet's count for a fair
timing.
"""
from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass

__all__ = ["Threads", "available_cpus", "torch_default", "mxnet_operator_threads", "current",
           "restore", "matched"]


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity mask), as OpenMP counts them."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def _env_int(name: str, env) -> int | None:
    """The first integer of a variable such as OMP_NUM_THREADS='4,2'; None if unset or bad."""
    value = env.get(name, "").split(",")[0].strip()
    return int(value) if value.isdigit() and int(value) > 0 else None


def torch_default(env=None) -> int:
    """PyTorch's intra-op threads in a process without MXNet.

    All CPUs, or ``OMP_NUM_THREADS`` when that is fewer (PyTorch 2.14 does not go above the
    CPU count, measured in ``tests/test_threads.py``).
    """
    env = os.environ if env is None else env
    cpus = available_cpus()
    return min(_env_int("OMP_NUM_THREADS", env) or cpus, cpus)


def mxnet_operator_threads(env=None) -> int:
    """The OpenMP threads MXNet 1.9.1's CPU operators use, by the rule in the module docstring.

    Read from the environment of the process (``env`` for a hypothetical one): the variables
    are read once, when ``libmxnet.so`` loads, so changing them later changes nothing.
    """
    env = os.environ if env is None else env
    return (_env_int("MXNET_OMP_MAX_THREADS", env) or _env_int("OMP_NUM_THREADS", env)
            or max(1, available_cpus() // 2))


@dataclass(frozen=True)
class Threads:
    """Thread counts of both frameworks in this process, and what was done about them."""

    torch: int            # torch.get_num_threads() now
    torch_default: int    # what PyTorch would use without MXNet
    mxnet: int            # MXNet's operator threads (fixed at import)
    cpus: int
    note: str = ""

    def __str__(self) -> str:
        text = (f"threads: PyTorch {self.torch}, MXNet operators {self.mxnet} "
                f"({self.cpus} CPUs)")
        return f"{text}; {self.note}" if self.note else text

    def _repr_pretty_(self, printer, cycle):
        printer.text(str(self))


def current(note: str = "") -> Threads:
    import torch

    return Threads(torch.get_num_threads(), torch_default(), mxnet_operator_threads(),
                   available_cpus(), note)


def restore(verbose: bool = False) -> Threads:
    """Give PyTorch back the thread count ``import mxnet`` took from it; say what was done."""
    import torch

    before, want = torch.get_num_threads(), torch_default()
    if before < want:
        torch.set_num_threads(want)
        note = f"PyTorch restored from {before} (import mxnet had lowered it)"
    else:
        note = "PyTorch's count untouched"
    threads = current(note)
    if verbose:
        print(threads)
    return threads


@contextlib.contextmanager
def matched(n: int | None = None):
    """Run the block with PyTorch on ``n`` threads (default: MXNet's count); restore after.

    For timings that compare the frameworks: MXNet's count cannot change after import, so
    ``n`` other than MXNet's own raises ValueError naming the variable that would change it.
    """
    import torch

    mxnet_n = mxnet_operator_threads()
    n = mxnet_n if n is None else n
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be a positive int, got {n!r}")
    if n != mxnet_n:
        raise ValueError(
            f"MXNet's operators use {mxnet_n} thread(s), fixed when mxnet was imported; "
            f"set MXNET_OMP_MAX_THREADS={n} before importing mxnet to compare at {n}")
    before = torch.get_num_threads()
    torch.set_num_threads(n)
    try:
        yield current(f"matched at {n}")
    finally:
        torch.set_num_threads(before)
