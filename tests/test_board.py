"""sidebyside.board: event files from both writers, read back and served by a real TensorBoard.

The PyTorch run is written in this process; the mxboard run in a subprocess (mxboard and
tensorboard cannot share a process, see the module docstring).
"""
import json
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import psutil
import pytest

from sidebyside.board import BoardError, ProtoConflictError, read_events, serve

SRC = str(Path(__file__).resolve().parents[1] / "src")

STEPS = [0, 1, 2, 3, 4]
LOSS = [1.0 / (s + 1) + 0.1 for s in STEPS]          # not exact in float32
HIST = np.linspace(-1.0, 2.0, 50)                      # 50 values, min -1, max 2
IMAGE_HW = (6, 10)                                     # height, width: not square on purpose
HPARAMS = {"lr": 0.125, "optimizer": "sgd"}


def _image():
    h, w = IMAGE_HW
    return np.linspace(0, 1, 3 * h * w, dtype=np.float32).reshape(3, h, w)   # (C, H, W)


MXBOARD_SCRIPT = textwrap.dedent("""
    import json, sys
    import numpy as np
    import mxnet as mx
    from mxboard import SummaryWriter

    spec = json.loads(sys.argv[1])
    w = SummaryWriter(spec["logdir"])
    for step, value in zip(spec["steps"], spec["loss"]):
        w.add_scalar("loss", value, global_step=step)
    w.add_histogram("weights", np.array(spec["hist"]), global_step=0, bins=10)
    w.add_image("sample", np.array(spec["image"], dtype=np.float32), global_step=0)
    w.add_text("note", "hello from mxnet", global_step=0)
    net = mx.gluon.nn.Dense(1)
    net.initialize()
    net.hybridize()
    net(mx.nd.zeros((1, 2)))
    w.add_graph(net)
    w.close()
""")


@pytest.fixture(scope="module")
def logdir(tmp_path_factory):
    if "mxboard" in sys.modules:
        pytest.fail("mxboard is imported in the test process: tensorboard cannot be imported "
                    "next to it (see sidebyside.board); import mxboard only in subprocesses")
    import torch
    from torch.utils.tensorboard import SummaryWriter

    root = tmp_path_factory.mktemp("runs")
    mx = subprocess.Popen(
        [sys.executable, "-c", MXBOARD_SCRIPT, json.dumps({
            "logdir": str(root / "mxnet"), "steps": STEPS, "loss": LOSS,
            "hist": HIST.tolist(), "image": _image().tolist()})],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        w = SummaryWriter(str(root / "torch"))
        for step, value in zip(STEPS, LOSS):
            w.add_scalar("loss", value, step)
        w.add_histogram("weights", HIST, 0)
        w.add_image("sample", _image(), 0)
        w.add_text("note", "hello from torch", 0)
        with pytest.warns(FutureWarning):           # torch.jit.trace is deprecated
            w.add_graph(torch.nn.Linear(2, 1), torch.zeros(1, 2))
        w.add_hparams(HPARAMS, {"hp/accuracy": 0.75})  # into a sub-run named after the time
        w.close()
        out, _ = mx.communicate(timeout=60)
    finally:
        if mx.poll() is None:
            mx.kill()
            mx.wait()
    assert mx.returncode == 0, out
    return root


@pytest.fixture(scope="module")
def runs(logdir):
    return read_events(logdir)


def _hparams_run(names):
    (name,) = [n for n in names if n.startswith("torch/")]
    return name


def test_read_events_finds_each_run(runs):
    hp = _hparams_run(runs)
    assert set(runs) == {"torch", "mxnet", hp}
    assert runs[hp].hparams == HPARAMS
    assert runs[hp].scalars == {"hp/accuracy": [(0, pytest.approx(0.75))]}
    assert runs["torch"].hparams == runs["mxnet"].hparams == {}


@pytest.mark.parametrize("run", ["torch", "mxnet"])
def test_read_events_gives_what_was_written(runs, run):
    r = runs[run]
    assert list(r.scalars) == ["loss"]
    assert [s for s, _ in r.scalars["loss"]] == STEPS
    assert [v for _, v in r.scalars["loss"]] == pytest.approx(LOSS, rel=1e-6)   # float32

    (h,) = r.histograms["weights"]
    assert (h.step, h.count) == (0, len(HIST))
    assert (h.min, h.max) == pytest.approx((HIST.min(), HIST.max()))
    assert h.sum == pytest.approx(HIST.sum())
    assert sum(h.bucket_counts) == pytest.approx(len(HIST))

    (img,) = r.images["sample"]
    assert (img.step, img.width, img.height) == (0, IMAGE_HW[1], IMAGE_HW[0])
    assert img.png.startswith(b"\x89PNG")

    # torch's writer adds "/text_summary" to the tag; mxboard keeps the tag as given
    tag = "note/text_summary" if run == "torch" else "note"
    assert r.texts == {tag: [(0, f"hello from {run}")]}
    assert r.has_graph


def test_read_events_missing_logdir(tmp_path):
    with pytest.raises(FileNotFoundError, match="not a folder"):
        read_events(tmp_path / "nope")
    assert read_events(tmp_path) == {}


def test_read_events_refuses_next_to_mxboard(tmp_path):
    script = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {SRC!r})
        import mxboard
        from sidebyside.board import ProtoConflictError, read_events
        try:
            read_events({str(tmp_path)!r})
        except ProtoConflictError as e:
            print("REFUSED:", e)
        else:
            print("NOT REFUSED")
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert "REFUSED: read_events() needs tensorboard's protobuf classes, but mxboard is " \
           "already imported" in done.stdout
    assert issubclass(ProtoConflictError, RuntimeError)


# ---------------------------------------------------------------------------------------------
# A real server


def _running(pid):
    """Alive and not a zombie (the Rust data server's parent is gone; init reaps it later)."""
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _tensorboards():
    """Processes below this one that run TensorBoard (or its Rust data server)."""
    found = set()
    for p in psutil.Process().children(recursive=True):
        try:
            cmd = " ".join(p.cmdline())
        except psutil.Error:
            continue
        if "tensorboard" in cmd and _running(p.pid):
            found.add(p.pid)
    return found


@pytest.fixture(scope="module")
def board(logdir):
    start = time.perf_counter()
    server = serve(logdir)
    print(f"TensorBoard answered after {time.perf_counter() - start:.2f} s at {server.url}")
    yield server
    server.stop()


def test_server_lists_both_runs(board, logdir):
    assert board.url == f"http://127.0.0.1:{board.port}/"
    names = board.runs()
    assert sorted(names) == sorted(["torch", "mxnet", _hparams_run(names)])


@pytest.mark.parametrize("run", ["torch", "mxnet"])
def test_server_scalars_over_http(board, runs, run):
    points = board.scalars(run, "loss")
    assert [s for _, s, _ in points] == STEPS
    assert [v for _, _, v in points] == pytest.approx(LOSS, rel=1e-6)
    assert [v for _, v in runs[run].scalars["loss"]] == [v for _, _, v in points]
    assert all(w > 1.5e9 for w, _, _ in points)      # wall times: seconds since 1970


def test_server_unknown_tag(board):
    with pytest.raises(BoardError, match="No scalar data"):
        board.scalars("mxnet", "no-such-tag")


def test_new_run_shows_up_and_stop_leaves_nothing(tmp_path, monkeypatch):
    from torch.utils.tensorboard import SummaryWriter

    # a proxy must not matter: not to our HTTP calls, not to TensorBoard's gRPC to its own
    # Rust data server (with the proxy it falls back to Python, which would list "crashed")
    monkeypatch.setenv("http_proxy", "http://127.0.0.1:9")

    def write(name):
        with SummaryWriter(str(tmp_path / name)) as w:
            w.add_scalar("x", 3.5, 7)

    write("first")
    (tmp_path / "crashed").mkdir()               # an event file with nothing in it yet: the
    (tmp_path / "crashed" / "events.out.tfevents.0.x").touch()   # Rust server never lists it
    start = time.monotonic()
    with serve(tmp_path) as server:
        assert time.monotonic() - start < 5      # serve() did not wait for "crashed"
        assert server.runs() == ["first"]
        pids = {server.process.pid} | {c.pid for c in
                                       psutil.Process(server.process.pid).children(True)}
        write("second")                          # after the start: found within a reload or two
        deadline = time.monotonic() + 10
        while "second" not in server.runs():
            assert time.monotonic() < deadline, "the new run did not show up within 10 s"
            time.sleep(0.2)
        deadline = time.monotonic() + 10
        while True:
            try:
                assert [(s, v) for _, s, v in server.scalars("second", "x")] == [(7, 3.5)]
                break
            except BoardError:                   # listed, but not loaded yet
                assert time.monotonic() < deadline
                time.sleep(0.2)
    assert server.process.returncode is not None
    assert not server.log.exists()
    assert f"at http://127.0.0.1:{server.port}/" in server.output()   # "TensorBoard 2.20.0 at ..."
    assert len(pids) == 2, pids                  # TensorBoard and its Rust data server
    assert not [pid for pid in pids if _running(pid)]


def test_port_taken(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        before = _tensorboards()
        with pytest.raises(BoardError, match=f"port {port} on 127.0.0.1 is already in use"):
            serve(tmp_path, port=port)
    assert _tensorboards() == before
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("port", [0, -1, 65536, "6006", True])
def test_port_that_is_no_port_number(tmp_path, port):
    before = _tensorboards()
    with pytest.raises(ValueError, match=r"serve: port must be an int from 1 to 65535, or None "
                                         r"to pick a free one; got "):
        serve(tmp_path, port=port)
    assert _tensorboards() == before
    assert list(tmp_path.iterdir()) == []


def test_server_that_exits_gives_its_output(tmp_path):
    before = _tensorboards()
    with pytest.raises(BoardError, match=r"(?s)exited with code \d+ before it was ready.*"
                                         r"load_fast"):
        serve(tmp_path, extra_args=["--load_fast=bogus"])
    assert _tensorboards() == before


def test_server_timeout_stops_it(tmp_path):
    before = _tensorboards()
    with pytest.raises(BoardError, match="did not answer within 0.01 s"):
        serve(tmp_path, timeout=0.01)
    assert _tensorboards() == before


def test_serve_missing_logdir(tmp_path):
    before = _tensorboards()
    with pytest.raises(FileNotFoundError, match="not a folder"):
        serve(tmp_path / "nope")
    assert _tensorboards() == before
    assert list(tmp_path.iterdir()) == []
