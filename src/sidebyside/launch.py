"""Run a distributed job on this machine — MXNet's parameter server or torchrun — and clean up.

Both frameworks start several processes for one job, and both leave the bookkeeping to you:

- **MXNet** (``kvstore="dist_sync"``) needs a *scheduler*, one or more *servers* and the
  *workers*. Each is told its role by environment variables (``DMLC_ROLE``,
  ``DMLC_PS_ROOT_URI``/``_PORT``, ``DMLC_NUM_SERVER``, ``DMLC_NUM_WORKER``). The scheduler and
  the servers are nothing but ``python -c "import mxnet"``: the import sees the role, runs it,
  and returns when the workers are done. The workers run your script, which calls
  ``mx.kv.create("dist_sync")``.
- **PyTorch** has ``torchrun`` (``python -m torch.distributed.run``): one process per node
  that starts ``--nproc-per-node`` workers as *its* children and watches them.

:func:`mxnet_ps` and :func:`torch_ddp` do this on loopback and return a :class:`Run` that holds
each process's exit code and output::

    run = mxnet_ps([sys.executable, "worker.py"], num_workers=2)
    run.output("worker", 1)            # what worker 1 printed (stdout and stderr)
    run.run_dir / "worker0.txt"        # workers find this folder in $SIDEBYSIDE_RUN_DIR
    run = torch_ddp(["train.py", "--epochs", "1"], nproc=2)

Why a launcher of our own? MXNet's ``tools/launch.py --launcher local`` crashes on Python ≥ 3.9
(``'Thread' object has no attribute 'isAlive'``) before it starts any worker, and the
scheduler it started first can outlive it (notebook 9 §4 shows when). And a parameter
server job does not end by itself when something goes wrong: if one worker dies, the others
wait in a barrier, and the scheduler and the servers wait for them — forever. So this module

- **fails fast**: it polls every process every 50 ms; the first one that exits with an error
  (or is killed by a signal) stops the run with :class:`LaunchError`, whose message names the
  process, its exit code or signal, and the end of its output — usually the worker's traceback.
  One MXNet detail makes this work: a worker whose script raises prints its traceback and then
  does *not* exit, because MXNet's exit handler waits in a barrier for the other workers. The
  launcher therefore puts a small ``sitecustomize.py`` first on the workers' ``PYTHONPATH``
  whose ``sys.excepthook`` prints the traceback and ends the process (exit code 1);
- **times out**: after ``timeout`` seconds it stops everything and raises :class:`LaunchTimeout`
  with the end of every process's output;
- **leaves nothing behind**, on success, failure, timeout or Ctrl-C (``try``/``finally``):
  every process starts in a session, and so a process group, of its own, and the cleanup
  signals each *whole group* — SIGTERM, then SIGKILL a few seconds later — and reaps the
  processes. While it polls, it also notes every descendant (with psutil), and signals those
  too: torchrun starts each of its workers in a session of *its* own, out of reach of the
  group signal. :attr:`Run.pids` lists all of them, so a test can check that none is still
  alive. (Their own sessions also keep a Ctrl-C in the terminal away from the processes: only
  the launcher gets it, and it stops them in order.)

Each process writes stdout and stderr to its own file in the run directory (``<role>-<i>.log``),
not to a pipe, so a chatty process can never block on a full pipe. The run directory is a fresh
temporary folder unless you pass ``run_dir``; it is not deleted, since it holds what the
workers wrote.

On several machines the launcher cannot help (it only starts local processes), but
:func:`mxnet_ps_commands` and :func:`torchrun_commands` print the command lines to type on each
host.
"""
from __future__ import annotations

import ipaddress
import os
import random
import re
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping, Sequence

__all__ = [
    "LaunchError", "LaunchTimeout", "PortInUse", "Proc", "Run", "free_port", "port_in_use",
    "mxnet_ps", "torch_ddp",
    "mxnet_ps_commands", "torchrun_commands",
]

POLL_S = 0.05          # how often the processes are checked
HELPER_GRACE_S = 5.0   # after the workers succeed: how long the scheduler/servers get to exit
TERM_GRACE_S = 3.0     # between SIGTERM and SIGKILL
TAIL_LINES = 25        # lines of output in an error message

# ---------------------------------------------------------------------------------------------
# What a run returns, and what it raises


@dataclass
class Proc:
    """One process of a run, once it is over."""

    role: str              # "scheduler" | "server" | "worker" | "torchrun"
    index: int             # 0, 1, … within the role
    pid: int
    returncode: int | None = None   # negative: killed by that signal (-9: SIGKILL)
    output: str = ""                # stdout and stderr, interleaved as written
    log: Path | None = None         # the file the output was written to

    @property
    def name(self) -> str:
        return f"{self.role} {self.index}"


@dataclass
class Run:
    """What a launch collected: every process, and where they wrote."""

    procs: list[Proc]
    run_dir: Path
    seconds: float
    pids: set[int] = field(default_factory=set)   # every pid seen, descendants included

    def proc(self, role: str, index: int = 0) -> Proc:
        for p in self.procs:
            if p.role == role and p.index == index:
                return p
        raise KeyError(f"no {role} {index} in this run: "
                       f"{', '.join(p.name for p in self.procs)}")

    def output(self, role: str, index: int = 0) -> str:
        """What that process printed (stdout and stderr together)."""
        return self.proc(role, index).output


class LaunchError(RuntimeError):
    """A process of the run failed; ``.run`` holds what was collected (all processes stopped)."""

    def __init__(self, message: str, run: Run):
        super().__init__(message)
        self.run = run


class LaunchTimeout(LaunchError):
    """The run took longer than ``timeout``; everything was stopped."""


class PortInUse(RuntimeError):
    """A port the caller chose is taken on that host; nothing was started."""


# ---------------------------------------------------------------------------------------------
# Small helpers


def _ephemeral_range() -> tuple[int, int]:
    """The ports the OS hands out for ``bind(port=0)`` (Linux: ``ip_local_port_range``; else
    IANA's dynamic range)."""
    try:
        low, high = map(int, Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split())
    except (OSError, ValueError):
        low, high = 49152, 65535
    return low, high


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port that is free on ``host`` right now, chosen *outside* the OS's ephemeral range.

    Why not simply let the OS pick (``bind(port=0)``)? The port is released when this returns,
    and the process meant to take it (a scheduler importing MXNet: a second or two) binds it
    later. Meanwhile the other processes of the same job pick their own ports the ``bind(0)``
    way (ps-lite's servers and workers do), and the OS may hand one of them the port just
    released: a server then sits on the scheduler's port and dies when a worker registers
    there (``van.cc: Check failed: is_scheduler_`` — seen once in about ten CI runs). Ports
    outside the ephemeral range are never handed out that way. Falls back to ``bind(0)``
    when no port below or above the range is free."""
    low, high = _ephemeral_range()
    candidates = [*range(max(1024, low - 12288), low), *range(high + 1, min(65536, high + 4097))]
    for port in random.sample(candidates, min(len(candidates), 64)):
        if not port_in_use(host, port):
            return port
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def port_in_use(host: str, port: int) -> bool:
    """Whether ``port`` on ``host`` is taken right now (binding it fails)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind((host, port))
        except OSError:
            return True
    return False


def _port_number(value, what: str) -> int:
    """``value`` (an int or its text, e.g. from an environment variable) as a port number."""
    try:
        port = None if isinstance(value, bool) else int(str(value).strip())
    except ValueError:
        port = None
    if port is None or not 1 <= port <= 65535:
        raise ValueError(f"{what} must be a port number from 1 to 65535, got {value!r}")
    return port


def _chosen_port(who: str, env: Mapping[str, str] | None, var: str, host: str) -> int:
    """``env[var]`` when the caller set it — checked: a port number, and free on ``host`` —
    else a free port."""
    if env is None or var not in env:
        return free_port(host)
    port = _port_number(env[var], f"env[{var!r}]")
    if port_in_use(host, port):
        raise PortInUse(f"{who}: port {port} on {host} (env[{var!r}]) is already in use; pass "
                        f"another port, or leave {var} out of env to pick a free one. Nothing "
                        "was started.")
    return port


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _describe_exit(code: int) -> str:
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"was killed by {name} (exit code {code})"
    return f"exited with code {code}"


def _tail(text: str, n: int = TAIL_LINES) -> str:
    lines = text.rstrip().splitlines()
    return "\n".join(lines[-n:]) if lines else "(no output)"


_TRACEBACK = "Traceback (most recent call last):"


def _last_traceback(text: str, skip: str = "ChildFailedError") -> str | None:
    """The last Python traceback in ``text`` (up to its exception line), ignoring any whose
    exception line mentions ``skip`` (torchrun's own report of a failed worker)."""
    lines = text.splitlines()
    found = None
    for i, line in enumerate(lines):
        if not line.lstrip().startswith(_TRACEBACK):
            continue
        indent = len(line) - len(line.lstrip())
        end = i + 1
        while end < len(lines) and (not lines[end].strip()
                                    or len(lines[end]) - len(lines[end].lstrip()) > indent):
            end += 1
        block = lines[i:end + 1]       # the frames and the exception line
        if skip not in block[-1]:
            found = "\n".join(block)
    return found


def _torchrun_failure(text: str) -> tuple[int | None, str | None]:
    """(the rank torchrun blames, that rank's last traceback) from torchrun's output.

    torchrun ends a failed run with a report whose "Root Cause (first observed failure)" names
    a rank; once ``init_process_group`` has run, PyTorch prefixes each line of a worker's
    uncaught traceback with ``[rank<N>]: ``. Other ranks usually fail next (their peer is
    gone), so the *last* traceback of the output is rarely the one that matters.
    """
    m = re.search(r"Root Cause.*?\brank\s*:\s*(\d+)", text, re.S)
    rank = int(m.group(1)) if m else None
    if rank is not None:
        prefix = f"[rank{rank}]:"
        own = [ln[len(prefix):].removeprefix(" ") for ln in text.splitlines()
               if ln.startswith(prefix)]
        found = _last_traceback("\n".join(own))
        if found:
            return rank, found
    return rank, _last_traceback(text)


# An MXNet worker whose script raises prints its traceback and then does not exit: MXNet's exit
# handler waits in a barrier (ps::Finalize) for the other workers, which wait for it. So the
# workers get this file as ``sitecustomize`` (first on their PYTHONPATH): an uncaught exception
# is printed as usual and then ends the process with exit code 1, and the launcher sees it.
_EXIT_ON_ERROR = """\
# Written by sidebyside.launch for the workers of an MXNet parameter-server run.
import importlib.machinery, importlib.util, os, sys

# first run the sitecustomize that this file hides, if there is one
_here = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.machinery.PathFinder.find_spec(
    "sitecustomize", [p for p in sys.path if os.path.abspath(p or os.curdir) != _here])
if _spec is not None:
    _spec.loader.exec_module(importlib.util.module_from_spec(_spec))


def _print_and_exit(kind, value, tb, _print=sys.excepthook):
    _print(kind, value, tb)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(1)   # skip MXNet's exit handler, which would wait for the other workers


sys.excepthook = _print_and_exit
"""


def _exit_on_error_path(run_dir: Path) -> Path:
    folder = run_dir / ".launch"
    folder.mkdir(exist_ok=True)
    (folder / "sitecustomize.py").write_text(_EXIT_ON_ERROR)
    return folder


# ---------------------------------------------------------------------------------------------
# Starting, watching and stopping processes


@dataclass
class _Child:
    role: str
    index: int
    popen: subprocess.Popen
    log: Path

    @property
    def name(self) -> str:
        return f"{self.role} {self.index}"


def _spawn(cmd: Sequence[str], role: str, index: int, env: Mapping[str, str],
           run_dir: Path, cwd) -> _Child:
    log = run_dir / f"{role}-{index}.log"
    with open(log, "wb") as out:   # the child keeps its own copy of the descriptor
        popen = subprocess.Popen(list(cmd), stdout=out, stderr=subprocess.STDOUT,
                                 stdin=subprocess.DEVNULL, env=dict(env), cwd=cwd,
                                 start_new_session=True)
    return _Child(role, index, popen, log)


class _Watch:
    """The children of one run, their descendants as seen by psutil, and how to stop them."""

    def __init__(self):
        self.children: list[_Child] = []
        self.seen: dict[int, object] = {}     # pid -> psutil.Process (descendants)

    def record_descendants(self) -> None:
        import psutil

        for c in self.children:
            try:
                kids = psutil.Process(c.popen.pid).children(recursive=True)
            except psutil.Error:
                continue
            for k in kids:
                self.seen.setdefault(k.pid, k)

    def poll(self) -> None:
        self.record_descendants()
        for c in self.children:
            c.popen.poll()

    def _signal_all(self, sig: int) -> None:
        import psutil

        for c in self.children:
            try:
                os.killpg(c.popen.pid, sig)   # start_new_session: the group id is the pid
            except (ProcessLookupError, PermissionError):
                pass                          # the group is empty: all of it has exited
        for p in self.seen.values():          # any descendant that left its group
            try:
                if p.is_running():            # same pid *and* start time: not a reused pid
                    p.send_signal(sig)
            except psutil.Error:
                pass

    def _wait(self, deadline: float) -> bool:
        """Reap the children and wait for the descendants; True when all are gone."""
        while True:
            for c in self.children:
                c.popen.poll()
            alive = [p for p in self.seen.values() if _alive(p)]
            if all(c.popen.returncode is not None for c in self.children) and not alive:
                return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(POLL_S)

    def stop(self) -> None:
        """SIGTERM every process group, SIGKILL what is left after TERM_GRACE_S; reap."""
        self.record_descendants()
        self._signal_all(signal.SIGTERM)
        if not self._wait(time.monotonic() + TERM_GRACE_S):
            self._signal_all(signal.SIGKILL)
            self._wait(time.monotonic() + TERM_GRACE_S)
        for c in self.children:
            try:
                c.popen.wait(timeout=TERM_GRACE_S)
            except subprocess.TimeoutExpired:   # unkillable (D state): nothing more to do
                pass

    def collect(self, run_dir: Path, start: float) -> Run:
        procs = [Proc(c.role, c.index, c.popen.pid, c.popen.returncode,
                      c.log.read_text(errors="replace") if c.log.exists() else "", c.log)
                 for c in self.children]
        pids = {c.popen.pid for c in self.children} | set(self.seen)
        return Run(procs, run_dir, time.monotonic() - start, pids)


def _alive(p) -> bool:
    import psutil

    try:
        return p.is_running() and p.status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def _launch(specs: list[tuple[str, int, list[str], dict[str, str]]], *, main_roles: set[str],
            timeout: float, run_dir: Path, cwd) -> Run:
    """Start ``specs`` (role, index, command, env); succeed when every process of a role in
    ``main_roles`` has exited 0; fail fast on any error; stop everything in all cases."""
    watch = _Watch()
    start = time.monotonic()
    deadline = start + timeout
    failed: _Child | None = None
    running_at_timeout: list[str] | None = None
    try:
        for role, index, cmd, env in specs:
            watch.children.append(_spawn(cmd, role, index, env, run_dir, cwd))
        main = [c for c in watch.children if c.role in main_roles]
        helpers = [c for c in watch.children if c.role not in main_roles]
        while True:
            watch.poll()
            # main roles first: when a worker dies, what the others do next is a consequence
            bad = [c for c in main + helpers if c.popen.returncode not in (None, 0)]
            if bad:
                failed = bad[0]
                break
            if all(c.popen.returncode == 0 for c in main):
                grace = time.monotonic() + HELPER_GRACE_S
                while (any(c.popen.returncode is None for c in helpers)
                       and time.monotonic() < grace):
                    time.sleep(POLL_S)
                    watch.poll()
                bad = [c for c in helpers if c.popen.returncode not in (None, 0)]
                failed = bad[0] if bad else None
                break
            if time.monotonic() >= deadline:
                running_at_timeout = [c.name for c in watch.children
                                      if c.popen.returncode is None]
                break
            time.sleep(POLL_S)
    finally:
        watch.stop()   # also on an exception or KeyboardInterrupt while waiting

    run = watch.collect(run_dir, start)
    if failed is not None:
        proc = run.proc(failed.role, failed.index)
        head = f"{proc.name} (pid {proc.pid}) {_describe_exit(proc.returncode)}"
        rank, shown = _torchrun_failure(proc.output) if proc.role == "torchrun" else (None, None)
        if shown:
            blame = f"rank {rank} failed first; its" if rank is not None else "the last"
            raise LaunchError(f"{head}; {blame} traceback ({proc.log}):\n{shown}", run)
        raise LaunchError(f"{head}; the end of its output ({proc.log}):\n{_tail(proc.output)}",
                          run)
    if running_at_timeout is not None:
        tails = "\n".join(f"--- {p.name} (pid {p.pid}) ---\n{_tail(p.output, 10)}"
                          for p in run.procs)
        raise LaunchTimeout(f"the run took longer than {timeout:g} s and was stopped (still "
                            f"running: {', '.join(running_at_timeout)}); the end of each "
                            f"output:\n{tails}", run)
    return run


def _check(timeout: float, **counts: int) -> None:
    for name, n in counts.items():
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"{name} must be an integer >= 1, got {n!r}")
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not timeout > 0:
        raise ValueError(f"timeout must be > 0 seconds, got {timeout!r}")


def _command(cmd, what: str) -> list[str]:
    if isinstance(cmd, (str, bytes)):
        raise TypeError(f"{what} must be a list of strings, e.g. [sys.executable, 'train.py'], "
                        f"not the string {cmd!r}")
    cmd = [str(x) for x in cmd]
    if not cmd:
        raise ValueError(f"{what} is empty: pass the command to run, e.g. "
                         "[sys.executable, 'train.py']")
    return cmd


def _base_env(env: Mapping[str, str] | None, run_dir: Path, extra: Mapping[str, str]) -> dict:
    """os.environ, then the launcher's variables, then the caller's ``env``."""
    merged = dict(os.environ)
    merged.update(PYTHONUNBUFFERED="1", SIDEBYSIDE_RUN_DIR=str(run_dir), **extra)
    merged.update({k: str(v) for k, v in (env or {}).items()})
    return merged


def _run_dir(run_dir) -> Path:
    if run_dir is None:
        return Path(tempfile.mkdtemp(prefix="sidebyside-run-"))
    run_dir = Path(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    return run_dir


# ---------------------------------------------------------------------------------------------
# The two launchers


def mxnet_ps(worker_cmd: Sequence[str], num_workers: int = 2, num_servers: int = 1, *,
             timeout: float = 120.0, env: Mapping[str, str] | None = None, run_dir=None,
             cwd=None, host: str = "127.0.0.1") -> Run:
    """Run an MXNet parameter-server job here: 1 scheduler, ``num_servers`` servers and
    ``num_workers`` copies of ``worker_cmd`` (e.g. ``[sys.executable, "worker.py"]``).

    Every process gets the ``DMLC_*`` variables of its role, ``PYTHONUNBUFFERED=1``,
    ``SIDEBYSIDE_RUN_DIR`` and then the caller's ``env`` (which may override the common
    ``DMLC_*`` variables, not ``DMLC_ROLE``); ``DMLC_INTERFACE=lo`` when ``host`` is loopback.
    The scheduler's port is a free one, unless ``env`` sets ``DMLC_PS_ROOT_PORT``: that one is
    checked first (:class:`ValueError` when it is no port number, :class:`PortInUse` when it
    is taken on ``host``), before any process or folder is made.
    A worker's rank is ``kv.rank`` (the scheduler hands ranks out, not in start order).
    The workers' ``PYTHONPATH`` starts with the launcher's ``sitecustomize.py`` (see above), so
    an uncaught exception ends a worker with exit code 1 instead of hanging it.

    Returns a :class:`Run` when every worker exited 0 (the scheduler and servers then get
    a few seconds to exit, else they are stopped). Raises :class:`LaunchError` as soon as any
    process fails, :class:`LaunchTimeout` after ``timeout`` seconds.
    """
    worker_cmd = _command(worker_cmd, "worker_cmd")
    _check(timeout, num_workers=num_workers, num_servers=num_servers)
    port = _chosen_port("mxnet_ps", env, "DMLC_PS_ROOT_PORT", host)
    run_dir = _run_dir(run_dir)
    common = {
        "DMLC_PS_ROOT_URI": host, "DMLC_PS_ROOT_PORT": str(port),
        "DMLC_NUM_SERVER": str(num_servers), "DMLC_NUM_WORKER": str(num_workers),
    }
    if _is_loopback(host):
        common["DMLC_INTERFACE"] = "lo"
    base = _base_env(env, run_dir, common)
    helper = [sys.executable, "-c", "import mxnet"]
    pythonpath = os.pathsep.join(filter(None, [str(_exit_on_error_path(run_dir)),
                                               base.get("PYTHONPATH")]))
    worker_env = {**base, "DMLC_ROLE": "worker", "PYTHONPATH": pythonpath}
    specs = [("scheduler", 0, helper, {**base, "DMLC_ROLE": "scheduler"})]
    specs += [("server", i, helper, {**base, "DMLC_ROLE": "server"}) for i in range(num_servers)]
    specs += [("worker", i, worker_cmd, worker_env) for i in range(num_workers)]
    return _launch(specs, main_roles={"worker"}, timeout=timeout, run_dir=run_dir, cwd=cwd)


def torch_ddp(script_and_args: Sequence[str], nproc: int = 2, *, timeout: float = 120.0,
              env: Mapping[str, str] | None = None, run_dir=None, cwd=None) -> Run:
    """Run ``torchrun --nproc-per-node=<nproc> script args…`` on this machine (one node,
    rendezvous on a free port of 127.0.0.1).

    torchrun starts the workers (its children; they read ``RANK``, ``WORLD_SIZE``,
    ``LOCAL_RANK``, ``MASTER_ADDR``/``_PORT`` from the environment) and stops them all when one
    fails. Its output — its own and its workers' — is ``run.output("torchrun")``. The
    workers also get ``PYTHONUNBUFFERED=1``, ``SIDEBYSIDE_RUN_DIR``, ``GLOO_SOCKET_IFNAME=lo``
    and then the caller's ``env``. The rendezvous port is a free one, unless ``env`` sets
    ``MASTER_PORT``: that one is checked first (:class:`ValueError` when it is no port number,
    :class:`PortInUse` when it is taken), before any process or folder is made.

    Returns a :class:`Run` when torchrun exits 0. Raises :class:`LaunchError` (with the
    workers' last Python traceback) when it fails, :class:`LaunchTimeout` after ``timeout`` s.
    """
    script_and_args = _command(script_and_args, "script_and_args")
    _check(timeout, nproc=nproc)
    host = "127.0.0.1"
    port = _chosen_port("torch_ddp", env, "MASTER_PORT", host)
    run_dir = _run_dir(run_dir)
    base = _base_env(env, run_dir, {"GLOO_SOCKET_IFNAME": "lo"})
    cmd = [sys.executable, "-m", "torch.distributed.run", f"--nproc-per-node={nproc}",
           "--nnodes=1", f"--master-addr={host}", f"--master-port={port}", *script_and_args]
    return _launch([("torchrun", 0, cmd, base)], main_roles={"torchrun"}, timeout=timeout,
                   run_dir=run_dir, cwd=cwd)


# ---------------------------------------------------------------------------------------------
# Several machines: the command lines to type (documentation; nothing is run)


def _hosts(hosts: Sequence[str]) -> list[str]:
    if isinstance(hosts, str) or not hosts:
        raise ValueError(f"hosts must be a non-empty list of host names, got {hosts!r}")
    return list(hosts)


def mxnet_ps_commands(hosts: Sequence[str], worker_cmd: str, num_servers: int = 1,
                      port: int = 9091, interface: str = "eth0") -> list[str]:
    """The shell lines that start an MXNet parameter-server job on several hosts, each as
    ``"<host>$ <command>"``: the scheduler on ``hosts[0]`` (its address is
    ``DMLC_PS_ROOT_URI``), servers on the first ``num_servers`` hosts (round robin), and one
    worker per host. Scheduler and server lines end in ``&``, so each host's lines can be typed
    into one shell, in order. ``interface`` is the network interface the hosts reach each
    other on (``DMLC_INTERFACE``).

    >>> for line in mxnet_ps_commands(["10.0.0.1", "10.0.0.2"], "python train.py"):
    ...     print(line)
    10.0.0.1$ DMLC_ROLE=scheduler DMLC_PS_ROOT_URI=10.0.0.1 ... python -c 'import mxnet' &
    10.0.0.1$ DMLC_ROLE=server ... python -c 'import mxnet' &
    10.0.0.1$ DMLC_ROLE=worker ... python train.py
    10.0.0.2$ DMLC_ROLE=worker ... python train.py
    """
    hosts = _hosts(hosts)
    _check(1.0, num_servers=num_servers)
    common = (f"DMLC_PS_ROOT_URI={shlex.quote(hosts[0])} DMLC_PS_ROOT_PORT={int(port)} "
              f"DMLC_NUM_SERVER={num_servers} DMLC_NUM_WORKER={len(hosts)} "
              f"DMLC_INTERFACE={shlex.quote(interface)}")
    helper = "python -c 'import mxnet'"
    roles = {h: [] for h in hosts}       # host -> its lines, in the order to start them
    roles[hosts[0]].append(f"DMLC_ROLE=scheduler {common} {helper} &")
    for i in range(num_servers):
        roles[hosts[i % len(hosts)]].append(f"DMLC_ROLE=server {common} {helper} &")
    for h in hosts:
        roles[h].append(f"DMLC_ROLE=worker {common} {worker_cmd}")
    # a host named twice gets all its lines in one group, at its first place
    return [f"{h}$ {line}" for h in dict.fromkeys(hosts) for line in roles[h]]


def torchrun_commands(hosts: Sequence[str], script: str, nproc_per_node: int = 1,
                      port: int = 29400) -> list[str]:
    """The ``torchrun`` line to type on each host, as ``"<host>$ torchrun …"``: node ``i`` runs
    on ``hosts[i]``, and all of them meet at ``hosts[0]:port`` (static rendezvous:
    ``--node-rank`` fixes each node's place, so every host must start its line).
    ``script`` is the script and its arguments, as typed.

    >>> print(torchrun_commands(["10.0.0.1", "10.0.0.2"], "train.py --epochs 1")[1])
    10.0.0.2$ torchrun --nnodes=2 --node-rank=1 --nproc-per-node=1 --rdzv-backend=static
      --rdzv-endpoint=10.0.0.1:29400 train.py --epochs 1
    """
    hosts = _hosts(hosts)
    _check(1.0, nproc_per_node=nproc_per_node)
    endpoint = f"{hosts[0]}:{int(port)}"
    return [f"{h}$ torchrun --nnodes={len(hosts)} --node-rank={i} "
            f"--nproc-per-node={nproc_per_node} --rdzv-backend=static "
            f"--rdzv-endpoint={shlex.quote(endpoint)} {script}"
            for i, h in enumerate(hosts)]
