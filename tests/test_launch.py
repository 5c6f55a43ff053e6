"""sidebyside.launch: distributed runs on loopback that always clean up after themselves.

Every test that starts processes ends by checking that none of them is still alive ("ps of
the child pids"), whichever way the run ended.
"""
import contextlib
import os
import shlex
import signal
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from pathlib import Path

import psutil
import pytest

from sidebyside import launch


def alive(pids):
    """The pids among ``pids`` that still run (a zombie has exited: it does not count)."""
    out = []
    for pid in pids:
        try:
            if psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
                out.append(pid)
        except psutil.NoSuchProcess:
            pass
    return out


def assert_all_gone(pids, at_least):
    assert len(pids) >= at_least, f"too few pids recorded to check anything: {pids}"
    assert alive(pids) == [], f"left running: {alive(pids)} of {sorted(pids)}"


def script(tmp_path, name, body):
    path = tmp_path / name
    path.write_text(textwrap.dedent(body))
    return str(path)


def wait_for_files(paths, timeout=100.0):
    # generous, for a loaded 2-core machine (the interrupt test's old failures were not slow
    # workers but an ignored SIGINT: see test_ctrl_c_while_waiting_stops_grandchildren)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if all(Path(p).exists() and Path(p).read_text() for p in paths):
            return True
        time.sleep(0.05)
    return False


# --- MXNet parameter server --------------------------------------------------------------------

PUSH_PULL = """\
    import os
    import mxnet as mx

    assert os.environ["DMLC_INTERFACE"] == "lo" and os.environ["PYTHONUNBUFFERED"] == "1"
    kv = mx.kv.create("dist_sync")
    kv.init(3, mx.nd.zeros((2,)))
    kv.push(3, mx.nd.ones((2,)) * (kv.rank + 1))
    out = mx.nd.zeros((2,))
    kv.pull(3, out=out)
    value = out.asnumpy()
    print("rank", kv.rank, "of", kv.num_workers, "pulled", value, os.environ["SBS_TAG"])
    with open(os.path.join(os.environ["SIDEBYSIDE_RUN_DIR"], f"worker{kv.rank}.txt"), "w") as f:
        f.write(str(float(value[0])))
"""


def test_mxnet_push_pull_sums_over_workers(tmp_path):
    worker = script(tmp_path, "worker.py", PUSH_PULL)
    run = launch.mxnet_ps([sys.executable, worker], num_workers=2, timeout=60,
                          run_dir=tmp_path / "run", env={"SBS_TAG": "tagged"})
    assert [(p.role, p.index, p.returncode) for p in run.procs] == [
        ("scheduler", 0, 0), ("server", 0, 0), ("worker", 0, 0), ("worker", 1, 0)]
    # the server sums the pushes: 1 + 2
    assert [float((run.run_dir / f"worker{r}.txt").read_text()) for r in (0, 1)] == [3.0, 3.0]
    assert "pulled [3. 3.] tagged" in run.output("worker", 0) + run.output("worker", 1)
    assert (run.run_dir / "worker-0.log").read_text() == run.output("worker", 0)
    assert_all_gone(run.pids, at_least=4)


def test_mxnet_worker_error_fails_fast_with_its_traceback(tmp_path):
    # rank 0 waits for rank 1's push forever; without the launcher's exit-on-error hook rank 1
    # would not even exit (MXNet's exit handler waits for rank 0) and this would time out
    worker = script(tmp_path, "worker.py", """\
        import mxnet as mx
        kv = mx.kv.create("dist_sync")
        kv.init(3, mx.nd.zeros((2,)))
        if kv.rank == 1:
            raise ValueError("boom on rank 1")
        kv.push(3, mx.nd.ones((2,)))
        out = mx.nd.zeros((2,))
        kv.pull(3, out=out)
        out.wait_to_read()
    """)
    start = time.monotonic()
    with pytest.raises(launch.LaunchError) as info:
        launch.mxnet_ps([sys.executable, worker], timeout=60, run_dir=tmp_path / "run")
    assert time.monotonic() - start < 15
    assert type(info.value) is launch.LaunchError
    message = str(info.value)
    failed = [p for p in info.value.run.procs if p.returncode == 1]
    assert [p.role for p in failed] == ["worker"]
    assert message.startswith(f"worker {failed[0].index} (pid {failed[0].pid}) exited with code 1")
    assert "Traceback (most recent call last)" in message
    assert "ValueError: boom on rank 1" in message
    assert_all_gone(info.value.run.pids, at_least=4)


def test_mxnet_worker_killed_mid_run(tmp_path):
    run_dir = tmp_path / "run"
    worker = script(tmp_path, "worker.py", """\
        import os, time
        import mxnet as mx
        kv = mx.kv.create("dist_sync")
        with open(os.path.join(os.environ["SIDEBYSIDE_RUN_DIR"], f"pid{kv.rank}"), "w") as f:
            f.write(str(os.getpid()))
        for _ in range(300):
            time.sleep(1)
    """)
    killed = []

    def kill_rank_1():
        if wait_for_files([run_dir / "pid0", run_dir / "pid1"]):
            pid = int((run_dir / "pid1").read_text())
            os.kill(pid, signal.SIGKILL)
            killed.append((pid, time.monotonic()))

    killer = threading.Thread(target=kill_rank_1)
    killer.start()
    try:
        with pytest.raises(launch.LaunchError) as info:
            launch.mxnet_ps([sys.executable, worker], timeout=150, run_dir=run_dir)
        noticed = time.monotonic()
    finally:
        killer.join()
    assert killed, "the workers never wrote their pids"
    pid, when = killed[0]
    assert noticed - when < 15
    message = str(info.value)
    assert f"(pid {pid}) was killed by SIGKILL (exit code -9)" in message
    assert message.startswith("worker ")
    assert_all_gone(info.value.run.pids | {pid}, at_least=4)


def test_timeout_stops_everything(tmp_path):
    worker = script(tmp_path, "worker.py", """\
        import time
        print("sleeping", flush=True)
        time.sleep(60)
    """)
    start = time.monotonic()
    with pytest.raises(launch.LaunchTimeout) as info:
        launch.mxnet_ps([sys.executable, worker], timeout=4, run_dir=tmp_path / "run")
    assert 4 <= time.monotonic() - start < 10
    message = str(info.value)
    assert "longer than 4 s" in message and "worker 1" in message and "sleeping" in message
    assert all(p.returncode is not None and p.returncode < 0 for p in info.value.run.procs)
    assert_all_gone(info.value.run.pids, at_least=4)


# --- torchrun ----------------------------------------------------------------------------------

ALL_REDUCE = """\
    import os
    import torch
    import torch.distributed as dist

    dist.init_process_group("gloo")
    rank = dist.get_rank()
    if rank == int(os.environ.get("FAIL_RANK", "-1")):
        raise ValueError(f"boom on rank {rank}")
    t = torch.tensor([float(rank + 1)])
    dist.all_reduce(t)
    if rank == 0:
        with open(os.path.join(os.environ["SIDEBYSIDE_RUN_DIR"], "sum.txt"), "w") as f:
            f.write(str(t.item()))
        with open(os.path.join(os.environ["SIDEBYSIDE_RUN_DIR"], "port.txt"), "w") as f:
            f.write(os.environ["MASTER_PORT"])
    dist.destroy_process_group()
"""


def test_torch_all_reduce(tmp_path):
    worker = script(tmp_path, "ddp.py", ALL_REDUCE)
    port = launch.free_port()                                # the caller's choice of port
    run = launch.torch_ddp([worker], nproc=2, timeout=60,   # a fresh temporary run_dir
                           env={"MASTER_PORT": str(port)})
    try:
        assert run.run_dir.parent == Path(tempfile.gettempdir())
        assert [(p.role, p.returncode) for p in run.procs] == [("torchrun", 0)]
        assert float((run.run_dir / "sum.txt").read_text()) == 3.0    # 1 + 2
        assert int((run.run_dir / "port.txt").read_text()) == port
        assert_all_gone(run.pids, at_least=3)        # torchrun and its two workers
    finally:
        import shutil
        shutil.rmtree(run.run_dir)


def test_torch_failing_rank_shows_its_traceback(tmp_path):
    worker = script(tmp_path, "ddp.py", ALL_REDUCE)
    with pytest.raises(launch.LaunchError) as info:
        launch.torch_ddp([worker], nproc=2, timeout=60, env={"FAIL_RANK": "1"},
                         run_dir=tmp_path / "run")
    message = str(info.value)
    assert message.startswith("torchrun 0 (pid ")
    assert "exited with code 1; rank 1 failed first" in message
    assert "Traceback (most recent call last)" in message
    assert 'raise ValueError(f"boom on rank {rank}")' in message
    assert message.rstrip().endswith("ValueError: boom on rank 1")
    assert "ChildFailedError" not in message       # not torchrun's own traceback
    assert_all_gone(info.value.run.pids, at_least=3)


def test_ctrl_c_while_waiting_stops_grandchildren(tmp_path):
    """SIGINT (Ctrl-C) to a script that waits on ``launch.torch_ddp``: the KeyboardInterrupt
    ends the script, and torchrun and its workers (the script's grandchildren) with it. The
    script is a process of its own, as a reader's is, so the real signal is what interrupts it."""
    run_dir = tmp_path / "run"
    worker = script(tmp_path, "sleeper.py", """\
        import os, time
        with open(os.path.join(os.environ["SIDEBYSIDE_RUN_DIR"], os.environ["RANK"]), "w") as f:
            f.write(str(os.getpid()))
        time.sleep(300)
    """)
    driver = script(tmp_path, "driver.py", f"""\
        import signal, sys
        from sidebyside import launch
        # As a terminal runs it: a test run started in the background (`make test &`) ignores
        # SIGINT, and a child inherits that; Python's own handler raises KeyboardInterrupt.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        try:
            launch.torch_ddp([{worker!r}], nproc=2, timeout=280, run_dir={str(run_dir)!r})
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(130)
    """)
    proc = subprocess.Popen([sys.executable, driver], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        started = wait_for_files([run_dir / "0", run_dir / "1"], timeout=240)
        seen = {p.pid for p in psutil.Process(proc.pid).children(recursive=True)}
        assert started, f"torchrun's two workers did not start within 240 s (running: {seen})"
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:   # the test failed: end the script and what it started
            stray = psutil.Process(proc.pid).children(recursive=True)
            proc.kill()
            proc.communicate()
            for p in stray:
                with contextlib.suppress(psutil.NoSuchProcess):
                    p.kill()
    assert proc.returncode == 130 and out.strip() == "interrupted", err[-3000:]
    workers = {int((run_dir / r).read_text()) for r in ("0", "1")}
    assert workers <= seen
    assert_all_gone(seen | {proc.pid}, at_least=4)    # the script, torchrun, two workers


# --- arguments ---------------------------------------------------------------------------------

@pytest.mark.parametrize("call, error", [
    (lambda: launch.mxnet_ps([sys.executable, "w.py"], num_workers=0), "num_workers"),
    (lambda: launch.mxnet_ps([sys.executable, "w.py"], num_servers=0), "num_servers"),
    (lambda: launch.mxnet_ps([sys.executable, "w.py"], timeout=0), "timeout"),
    (lambda: launch.mxnet_ps([]), "empty"),
    (lambda: launch.torch_ddp(["w.py"], nproc=0), "nproc"),
    (lambda: launch.torch_ddp([], timeout=5), "empty"),
    (lambda: launch.mxnet_ps_commands([], "python w.py"), "hosts"),
    (lambda: launch.mxnet_ps([sys.executable, "w.py"], num_workers=True), "num_workers"),
    (lambda: launch.mxnet_ps([sys.executable, "w.py"], num_workers="2"), "num_workers"),
    (lambda: launch.torch_ddp(["w.py"], timeout="60"), "timeout"),
    (lambda: launch.mxnet_ps([sys.executable, "w.py"], env={"DMLC_PS_ROOT_PORT": "http"}),
     r"env\['DMLC_PS_ROOT_PORT'\] must be a port number from 1 to 65535, got 'http'"),
    (lambda: launch.mxnet_ps([sys.executable, "w.py"], env={"DMLC_PS_ROOT_PORT": 70000}),
     "must be a port number"),
    (lambda: launch.torch_ddp(["w.py"], env={"MASTER_PORT": "0"}),
     r"env\['MASTER_PORT'\] must be a port number from 1 to 65535, got '0'"),
])
def test_bad_arguments(call, error, tmp_path, monkeypatch):
    monkeypatch.setattr(launch.tempfile, "tempdir", str(tmp_path))   # where a run dir would go
    before = {p.pid for p in psutil.Process().children(recursive=True)}
    with pytest.raises(ValueError, match=error):
        call()
    assert {p.pid for p in psutil.Process().children(recursive=True)} == before
    assert list(tmp_path.iterdir()) == []   # no run folder either


@pytest.mark.parametrize("launcher, variable", [("mxnet_ps", "DMLC_PS_ROOT_PORT"),
                                                 ("torch_ddp", "MASTER_PORT")])
def test_busy_scheduler_port_is_refused_before_anything_starts(launcher, variable, tmp_path):
    import socket
    before = {p.pid for p in psutil.Process().children(recursive=True)}
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(launch.PortInUse, match=rf"^{launcher}: port {port} on 127.0.0.1 "
                                                   rf"\(env\['{variable}'\]\) is already "
                                                   r"in use; pass another port"):
            getattr(launch, launcher)([sys.executable, "w.py"], env={variable: str(port)},
                                      run_dir=tmp_path / "run")
    assert {p.pid for p in psutil.Process().children(recursive=True)} == before
    assert list(tmp_path.iterdir()) == []


def test_a_command_string_is_refused(tmp_path):
    with pytest.raises(TypeError, match="list of strings"):
        launch.mxnet_ps("python w.py", run_dir=tmp_path / "run")
    assert list(tmp_path.iterdir()) == []


def test_free_port_is_bindable():
    import socket
    port = launch.free_port()
    with socket.socket() as s:
        s.bind(("127.0.0.1", port))


def test_free_port_is_outside_the_ephemeral_range():
    # the port a scheduler will bind later must not be one the OS can hand to a server's
    # bind(0) meanwhile (the ps-lite 'Check failed: is_scheduler_' crash)
    low, high = launch._ephemeral_range()
    assert 1 <= low <= high <= 65535
    if low <= 1024 and high >= 65535:
        pytest.skip(f"this machine's ephemeral range {low}-{high} leaves no port outside it")
    ports = {launch.free_port() for _ in range(50)}
    assert not any(low <= p <= high for p in ports), sorted(ports)
    assert len(ports) > 1                                    # drawn, not one fixed port


def test_free_port_falls_back_to_the_os_when_no_port_outside_is_free(monkeypatch):
    monkeypatch.setattr(launch, "port_in_use", lambda host, port: True)
    low, high = launch._ephemeral_range()
    port = launch.free_port()
    assert low <= port <= high                               # bind(0) gave it


# --- several hosts: command lines --------------------------------------------------------------

def split_line(line):
    """'host$ A=1 B=2 cmd args' -> ('host', {'A': '1', 'B': '2'}, ['cmd', 'args'], background)"""
    host, _, command = line.partition("$ ")
    words = shlex.split(command)
    background = words[-1] == "&"
    words = words[:-1] if background else words
    env = {}
    while "=" in words[0]:
        key, _, value = words.pop(0).partition("=")
        env[key] = value
    return host, env, words, background


def test_mxnet_ps_commands_for_three_hosts():
    hosts = ["10.0.0.1", "10.0.0.2", "10.0.0.3"]
    lines = launch.mxnet_ps_commands(hosts, "python train.py --epochs 2", num_servers=2,
                                     port=9200, interface="ens5")
    parsed = [split_line(line) for line in lines]
    roles = [(host, env["DMLC_ROLE"]) for host, env, _, _ in parsed]
    assert roles == [("10.0.0.1", "scheduler"), ("10.0.0.1", "server"), ("10.0.0.1", "worker"),
                     ("10.0.0.2", "server"), ("10.0.0.2", "worker"), ("10.0.0.3", "worker")]
    for host, env, words, background in parsed:
        assert env == {"DMLC_ROLE": env["DMLC_ROLE"], "DMLC_PS_ROOT_URI": "10.0.0.1",
                       "DMLC_PS_ROOT_PORT": "9200", "DMLC_NUM_SERVER": "2",
                       "DMLC_NUM_WORKER": "3", "DMLC_INTERFACE": "ens5"}
        if env["DMLC_ROLE"] == "worker":
            assert words == ["python", "train.py", "--epochs", "2"] and not background
        else:
            assert words == ["python", "-c", "import mxnet"] and background


def test_torchrun_commands_parse_with_torchrun_itself():
    from torch.distributed.run import get_args_parser

    hosts = ["gpu-a", "gpu-b"]
    lines = launch.torchrun_commands(hosts, "train.py --epochs 2", nproc_per_node=4, port=29500)
    assert [line.partition("$ ")[0] for line in lines] == hosts
    for rank, line in enumerate(lines):
        words = shlex.split(line.partition("$ ")[2])
        assert words[0] == "torchrun"
        args = get_args_parser().parse_args(words[1:])
        assert (args.nnodes, args.node_rank, args.nproc_per_node) == ("2", rank, "4")
        assert (args.rdzv_backend, args.rdzv_endpoint) == ("static", "gpu-a:29500")
        assert [args.training_script, *args.training_script_args] == [
            "train.py", "--epochs", "2"]
