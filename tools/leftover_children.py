"""A pytest plugin: no test file may leave a process running behind it.

Distributed workers, TensorBoard servers, DataLoader workers, Jupyter kernels (nbval's), a
browser: the suite starts all of them, and each must be gone when the file that started it
is done. For every test file (a notebook under nbval counts as one file), the plugin notes the
process's children before the file's first test, and after the file's last teardown (module
fixtures and nbval's kernel included) waits up to ``GRACE`` seconds for any new child to exit.
A child still there is killed, and the file's last test gets an error naming it: its pid,
command line and age. Zombies (exited, not yet reaped) hold nothing and are ignored, and so is
Python's own ``multiprocessing`` helper process (the resource tracker or forkserver, started on
first use and meant to live as long as the interpreter).

Loaded by the repository's root ``conftest.py``; with pytest-xdist each worker checks the
files it runs. Set ``SIDEBYSIDE_ALLOW_LEFTOVERS=1`` to only report, not fail, and
``SIDEBYSIDE_LEFTOVER_GRACE`` to change the 10 s wait.
"""
from __future__ import annotations

import os
import time

import psutil
import pytest

GRACE = float(os.environ.get("SIDEBYSIDE_LEFTOVER_GRACE", "10"))
_KEY = pytest.StashKey[set]()
_LONG_LIVED = ("multiprocessing.resource_tracker", "multiprocessing.forkserver")


def _children() -> dict[int, psutil.Process]:
    found = {}
    for proc in psutil.Process().children(recursive=True):
        try:
            if proc.status() == psutil.STATUS_ZOMBIE:
                continue
            if any(m in " ".join(proc.cmdline()) for m in _LONG_LIVED):
                continue
            found[proc.pid] = proc
        except psutil.NoSuchProcess:
            continue
    return found


def _describe(proc: psutil.Process) -> str:
    try:
        cmd = " ".join(proc.cmdline())[:200] or proc.name()
        age = time.time() - proc.create_time()
        return f"pid {proc.pid}, running {age:.0f} s: {cmd}"
    except psutil.NoSuchProcess:
        return f"pid {proc.pid} (gone)"


def _file(item) -> str:
    return str(getattr(item, "path", None) or item.fspath)


def leftovers(before: set[int], grace: float = GRACE) -> list[psutil.Process]:
    """The children not in ``before`` that are still running after ``grace`` seconds."""
    deadline = time.monotonic() + grace
    while True:
        new = [p for pid, p in _children().items() if pid not in before]
        if not new or time.monotonic() >= deadline:
            return new
        time.sleep(0.2)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item):
    prev = getattr(item.session, "_sbs_prev_file", None)
    if prev != _file(item):
        item.session._sbs_prev_file = _file(item)
        item.session.stash[_KEY] = set(_children())
    return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    result = yield                       # the file's fixtures (and nbval's kernel) end here
    if nextitem is not None and _file(nextitem) == _file(item):
        return result
    left = leftovers(item.session.stash.get(_KEY, set()))
    if not left:
        return result
    lines = [_describe(p) for p in left]
    for proc in left:
        try:
            proc.kill()
        except psutil.NoSuchProcess:
            pass
    psutil.wait_procs(left, timeout=5)
    message = (f"{len(left)} process(es) started by {os.path.basename(_file(item))} still ran "
               f"{GRACE:.0f} s after its last test (killed now):\n  " + "\n  ".join(lines))
    if os.environ.get("SIDEBYSIDE_ALLOW_LEFTOVERS") == "1":
        print(message)
        return result
    raise AssertionError(message)
