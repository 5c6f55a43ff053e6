"""TensorBoard for the notebooks: read the event files both frameworks write, and serve them.

Both frameworks log in TensorBoard's format — PyTorch with ``torch.utils.tensorboard`` (or
tensorboardX), MXNet with ``mxboard`` — so one TensorBoard shows both side by side::

    runs = read_events("runs")                  # {"torch": Run, "mxnet": Run, ...}
    runs["torch"].scalars["loss"]               # [(step, value), ...]
    with serve("runs") as board:                # a real TensorBoard on 127.0.0.1
        print(board.url, board.runs())
        board.scalars("mxnet", "loss")          # [(wall_time, step, value), ...] over HTTP

**mxboard and tensorboard cannot share a Python process.** mxboard 0.1.0 ships its own copy of
TensorBoard's ``.proto`` files under the same full names (``tensorboard.HistogramProto``, …).
Its generated code needs protobuf ≤ 3.20.3, whose pure-Python implementation refuses to
register a name twice: ``import mxboard`` followed by ``from torch.utils.tensorboard import
SummaryWriter`` (or anything from the ``tensorboard`` package) raises ``TypeError: Conflict
register for file "tensorboard/compat/proto/histogram.proto": tensorboard.HistogramProto is
already defined in file "mxboard/proto/summary.proto"``, and the other order fails as well.
(tensorboardX keeps its protos in a package of its own and coexists with mxboard.) Hence:

- :func:`read_events` imports tensorboard's reader (``EventAccumulator``) only when called,
  and refuses with :class:`ProtoConflictError` when ``mxboard`` is already imported — read the
  events in a process that never imported mxboard (or write with mxboard in a subprocess);
- :func:`serve` starts TensorBoard as a *process of its own* and talks to it over HTTP, so a
  :class:`BoardServer` works in any process, mxboard or not.

Details that matter when you read what these functions return:

- **Runs** are the folders that hold event files, named by their path relative to the logdir
  (``"."`` for the logdir itself) — the names TensorBoard shows. ``SummaryWriter.add_hparams``
  of PyTorch writes into a *new* sub-run named after the time (``torch/1712345678.9``) unless
  you pass ``run_name``.
- **Steps may go backwards in an mxboard file.** mxboard writes no ``file_version`` event, and
  for such files TensorBoard takes a step lower than the one before for a restart and drops
  ("purges") what was logged at that step or later: a histogram at step 0 written after
  scalars at steps 0–4 leaves no scalars at all. The reader and the server here turn that off
  (``purge_orphaned_data``).
- **Text** is a string tensor: PyTorch's writer stores it under ``<tag>/text_summary``; mxboard
  under the old ``node_name`` field, which TensorBoard's reader reports as ``<tag>`` but its
  Text dashboard lists under an empty tag (and, with the pure-Python data loader, fails on).
- **The server downsamples**: by default it keeps 1000 points per scalar tag (10 images, 500
  histograms). Pass e.g. ``extra_args=["--samples_per_plugin=scalars=100000"]`` for more
  (``0`` means *none* in TensorBoard 2.20, not "all").

The server is ``python -c <bootstrap> --logdir DIR --host 127.0.0.1 --port N
--reload_interval 1 --purge_orphaned_data=false --load_fast=auto``:

- ``--host 127.0.0.1``: loopback only. Without ``--host`` TensorBoard listens on every
  interface and looks up the machine's name (``socket.getfqdn``), a DNS query that can stall
  offline. The server makes no other outside request; the web page asks fonts.googleapis.com
  for its fonts and uses local ones when that fails.
- ``--reload_interval 1``: look at the logdir every second (default 5), so a run written
  after the start shows up within a second or two.
- ``--load_fast=auto``: TensorBoard's Rust data server where its binary is installed (the
  tensorboard-data-server wheel for Linux x86-64), else the pure-Python loader, whose Text
  dashboard fails on mxboard's text. :meth:`BoardServer.stop` ends both processes. The
  server runs without ``$http_proxy`` and the like: gRPC would route TensorBoard's connection
  to the Rust server (on localhost) through the proxy, fail, and fall back to Python quietly.
- ``--purge_orphaned_data=false``: see above (it matters to the Python loader; the Rust one
  does not purge).

The bootstrap only supplies a stand-in for ``pkg_resources`` when setuptools no longer has it
(recent releases dropped it, and TensorBoard 2.20 still imports it; the ``tensorboard``
command itself fails here with ``No module named 'pkg_resources'``), then runs TensorBoard's
own ``main``.
"""
from __future__ import annotations

import atexit
import json
import os
import signal
import struct
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple, Sequence

from .launch import free_port, port_in_use

__all__ = [
    "Run", "Histogram", "Image", "read_events", "ProtoConflictError",
    "BoardServer", "BoardError", "serve",
]

TERM_GRACE_S = 5.0     # between SIGTERM and SIGKILL
POLL_S = 0.1           # how often serve() checks whether the server answers
RUNS_GRACE_S = 10.0    # once it answers: how long serve() waits for it to list every run
TAIL_LINES = 30        # lines of TensorBoard's output in an error message

# ---------------------------------------------------------------------------------------------
# Reading event files


class Histogram(NamedTuple):
    step: int
    count: float                 # how many values went in
    min: float
    max: float
    sum: float
    bucket_limits: list[float]   # right edge of each bucket
    bucket_counts: list[float]


class Image(NamedTuple):
    step: int
    width: int
    height: int
    png: bytes                   # the encoded image, as stored


@dataclass
class Run:
    """Everything one run (one folder of event files) holds, by tag."""

    scalars: dict[str, list[tuple[int, float]]] = field(default_factory=dict)   # (step, value)
    histograms: dict[str, list[Histogram]] = field(default_factory=dict)
    images: dict[str, list[Image]] = field(default_factory=dict)
    texts: dict[str, list[tuple[int, str]]] = field(default_factory=dict)       # (step, text)
    has_graph: bool = False
    hparams: dict[str, float | str | bool] = field(default_factory=dict)


class ProtoConflictError(RuntimeError):
    """tensorboard's reader cannot be imported: mxboard is already imported in this process."""


_CONFLICT = (
    "read_events() needs tensorboard's protobuf classes, but mxboard is already imported in "
    "this process. Both define the same .proto files (tensorboard.HistogramProto, ...) and "
    "protobuf 3.20.3 refuses to register them twice, so tensorboard cannot be imported here. "
    "Read the events in a process that never imported mxboard (a fresh kernel, or a "
    "subprocess), or run the mxboard writer in a subprocess. serve() works in either process: "
    "the server runs in a process of its own."
)


def _png_size(png: bytes) -> tuple[int, int]:
    """(width, height) from a PNG's IHDR chunk."""
    if png[:8] != b"\x89PNG\r\n\x1a\n" or png[12:16] != b"IHDR":
        return 0, 0
    return struct.unpack(">II", png[16:24])


def _hparam_values(content: bytes) -> dict:
    from tensorboard.plugins.hparams import metadata

    info = metadata.parse_session_start_info_plugin_data(content)
    return {name: getattr(value, value.WhichOneof("kind"))
            for name, value in info.hparams.items() if value.WhichOneof("kind")}


def _read_run(path: str) -> Run:
    from tensorboard.backend.event_processing import event_accumulator as ea
    from tensorboard.compat.proto import types_pb2
    from tensorboard.plugins.hparams import metadata as hp_metadata

    acc = ea.EventAccumulator(
        path,
        size_guidance={k: 0 for k in (ea.SCALARS, ea.HISTOGRAMS, ea.COMPRESSED_HISTOGRAMS,
                                      ea.IMAGES, ea.AUDIO, ea.TENSORS)},   # 0: keep everything
        purge_orphaned_data=False,     # mxboard files: see the module docstring
    )
    acc.Reload()
    tags = acc.Tags()
    run = Run(has_graph=bool(tags["graph"]))
    for tag in tags["scalars"]:
        run.scalars[tag] = [(e.step, e.value) for e in acc.Scalars(tag)]
    for tag in tags["histograms"]:
        run.histograms[tag] = [
            Histogram(e.step, h.num, h.min, h.max, h.sum, list(h.bucket_limit), list(h.bucket))
            for e in acc.Histograms(tag) for h in [e.histogram_value]]
    for tag in tags["images"]:
        run.images[tag] = [
            Image(e.step, *((e.width, e.height) if e.width and e.height
                            else _png_size(e.encoded_image_string)), e.encoded_image_string)
            for e in acc.Images(tag)]
    for tag in tags["tensors"]:
        events = acc.Tensors(tag)
        if events and events[0].tensor_proto.dtype == types_pb2.DT_STRING:     # text
            run.texts[tag] = [
                (e.step, "\n".join(s.decode("utf-8", "replace")
                                   for s in e.tensor_proto.string_val))
                for e in events]
    try:
        hparams_content = acc.PluginTagToContent(hp_metadata.PLUGIN_NAME)
    except KeyError:
        hparams_content = {}
    if hp_metadata.SESSION_START_INFO_TAG in hparams_content:
        run.hparams = _hparam_values(hparams_content[hp_metadata.SESSION_START_INFO_TAG])
    return run


def read_events(logdir) -> dict[str, Run]:
    """Every run under ``logdir`` (a folder holding event files, ``"."`` for ``logdir``
    itself), read completely with TensorBoard's ``EventAccumulator``. ``{}`` if there are none.

    Raises :class:`ProtoConflictError` if ``mxboard`` is imported in this process (see the
    module docstring) and :class:`FileNotFoundError` if ``logdir`` is not a folder.
    """
    if "mxboard" in sys.modules:
        raise ProtoConflictError(_CONFLICT)
    logdir = Path(logdir)
    if not logdir.is_dir():
        raise FileNotFoundError(f"read_events: {str(logdir)!r} is not a folder")
    from tensorboard.backend.event_processing import io_wrapper

    folders = sorted(io_wrapper.GetLogdirSubdirectories(str(logdir)))
    return {os.path.relpath(folder, logdir): _read_run(folder) for folder in folders}


# ---------------------------------------------------------------------------------------------
# Serving them

# Runs in the server process: TensorBoard 2.20 imports pkg_resources (for plugin entry points
# and for version checks of its Rust data server), which recent setuptools (84 here) no longer has.
_BOOTSTRAP = """\
import sys
try:
    import pkg_resources
except ImportError:
    import importlib.metadata, types
    from packaging.version import parse
    class _EntryPoint:
        def __init__(self, ep):
            self.name, self._ep = ep.name, ep
        def resolve(self):
            return self._ep.load()
        load = resolve
    pkg_resources = types.ModuleType("pkg_resources")
    pkg_resources.iter_entry_points = lambda group, name=None: [
        _EntryPoint(ep) for ep in importlib.metadata.entry_points(group=group)
        if name in (None, ep.name)]
    pkg_resources.parse_version = parse
    sys.modules["pkg_resources"] = pkg_resources
from tensorboard.main import run_main
sys.argv[0] = "tensorboard"
sys.exit(run_main())
"""


class BoardError(RuntimeError):
    """The TensorBoard server did not start (its output is in the message) or failed a call."""


def _tail(text: str, n: int = TAIL_LINES) -> str:
    lines = text.rstrip().splitlines()
    return "\n".join(lines[-n:]) if lines else "(no output)"


def _expected_runs(logdir: Path) -> set[str]:
    """The run names TensorBoard will list: folders holding a non-empty file with 'tfevents' in
    its name (the Rust data server skips folders whose event files are empty)."""
    return {os.path.relpath(folder, logdir) for folder, _, files in os.walk(logdir)
            if any("tfevents" in f and os.path.getsize(os.path.join(folder, f)) > 0
                   for f in files)}


def _server_env() -> dict[str, str]:
    """This process's environment without proxy settings: the server needs no network, and
    gRPC would send TensorBoard's connection to its own Rust data server to the proxy."""
    return {**{k: v for k, v in os.environ.items() if k.lower() not in _PROXY_VARS},
            "PYTHONUNBUFFERED": "1"}


_PROXY_VARS = {"http_proxy", "https_proxy", "all_proxy", "grpc_proxy"}


_LIVE: set["BoardServer"] = set()
_DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))   # no $http_proxy


@atexit.register
def _stop_all() -> None:      # last resort: a server nobody stopped
    for server in list(_LIVE):
        server.stop()


@dataclass(eq=False)
class BoardServer:
    """A TensorBoard process started by :func:`serve`; a context manager that stops it."""

    logdir: Path
    host: str
    port: int
    process: subprocess.Popen
    log: Path                       # TensorBoard's stdout and stderr, deleted by stop()
    _output: str | None = field(default=None, repr=False)   # the log, once stopped

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/"

    def output(self) -> str:
        """What TensorBoard printed so far (all of it, once stopped)."""
        if self._output is not None:
            return self._output
        try:
            return self.log.read_text(errors="replace")
        except OSError:
            return ""

    def get(self, path: str, timeout: float = 10.0, **params):
        """GET ``path`` (e.g. ``"data/runs"``) with query ``params``; the decoded JSON."""
        query = f"?{urllib.parse.urlencode(params)}" if params else ""
        try:
            with _DIRECT.open(self.url + path.lstrip("/") + query, timeout=timeout) as reply:
                return json.load(reply)
        except urllib.error.HTTPError as e:
            message = e.read().decode(errors="replace").strip()
            raise BoardError(f"TensorBoard answered {e.code} to {path}{query}: {message}") from None

    def runs(self) -> list[str]:
        """The run names the server lists right now."""
        return self.get("data/runs")

    def scalars(self, run: str, tag: str) -> list[tuple[float, int, float]]:
        """``(wall_time, step, value)`` of one scalar tag, as the server has it (downsampled
        above 1000 points, see the module docstring)."""
        return [(w, s, v) for w, s, v in
                self.get("data/plugin/scalars/scalars", run=run, tag=tag)]

    def stop(self) -> None:
        """SIGTERM to the server's process group, SIGKILL after :data:`TERM_GRACE_S`; reaped.
        Its output stays available from :meth:`output`; the log file is deleted."""
        _LIVE.discard(self)
        if self._output is not None:
            return
        p = self.process
        if p.poll() is None:
            try:
                os.killpg(p.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                p.wait(TERM_GRACE_S)
            except subprocess.TimeoutExpired:
                pass
        try:   # the leader and anything left in its group (TensorBoard's Rust data server)
            os.killpg(p.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        p.wait()
        self._output = self.output()
        self.log.unlink(missing_ok=True)

    def __enter__(self) -> "BoardServer":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def serve(logdir, *, port: int | None = None, host: str = "127.0.0.1", timeout: float = 60.0,
          reload_interval: float = 1.0, extra_args: Sequence[str] = ()) -> BoardServer:
    """Start TensorBoard on ``logdir``; return once it answers and lists the runs there.

    ``port``: a free one is picked when ``None``; else an int from 1 to 65535 (``ValueError``
    for anything else, before anything starts). ``reload_interval``: seconds between two
    looks at the logdir (TensorBoard's default is 5). ``extra_args``: more TensorBoard flags.
    Raises :class:`FileNotFoundError` (no such folder), :class:`BoardError` (port taken, the
    server exited, or it did not answer within ``timeout`` seconds — with its output); no
    process is left running in any of these cases. Runs written later show up within about
    ``reload_interval`` seconds.
    """
    logdir = Path(logdir).resolve()
    if not logdir.is_dir():
        raise FileNotFoundError(f"serve: {str(logdir)!r} is not a folder")
    if port is None:
        port = free_port(host)
    elif isinstance(port, bool) or not isinstance(port, int) or not 1 <= port <= 65535:
        raise ValueError(f"serve: port must be an int from 1 to 65535, or None to pick a free "
                         f"one; got {port!r}")
    elif port_in_use(host, port):
        raise BoardError(f"serve: port {port} on {host} is already in use; "
                         f"pass another port, or port=None to pick a free one")
    cmd = [sys.executable, "-c", _BOOTSTRAP, "--logdir", str(logdir), "--host", host,
           "--port", str(port), "--reload_interval", str(reload_interval),
           "--purge_orphaned_data=false", "--load_fast=auto", *extra_args]
    fd, log_name = tempfile.mkstemp(prefix="tensorboard-", suffix=".log")
    log = Path(log_name)
    try:
        with os.fdopen(fd, "wb") as out:
            process = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out,
                                       stderr=subprocess.STDOUT, start_new_session=True,
                                       env=_server_env())
    except BaseException:
        log.unlink(missing_ok=True)
        raise
    server = BoardServer(logdir, host, port, process, log)
    _LIVE.add(server)
    try:
        _wait_until_ready(server, _expected_runs(logdir), timeout)
    except BaseException:
        server.stop()
        raise
    return server


def _wait_until_ready(server: BoardServer, expected: set[str], timeout: float) -> None:
    """Until TensorBoard answers and lists the ``expected`` runs — or, once it answers, at
    most :data:`RUNS_GRACE_S` more seconds (a run it never lists must not fail the start)."""
    start = time.monotonic()
    answered = None                     # when /data/runs first answered
    while True:
        code = server.process.poll()
        if code is not None:
            raise BoardError(f"TensorBoard exited with code {code} before it was ready; "
                             f"its output:\n{_tail(server.output())}")
        try:
            listed = set(server.get("data/runs", timeout=2.0))
        except (OSError, ValueError, BoardError):
            pass                        # not listening yet, or not ready to answer
        else:
            now = time.monotonic()
            answered = answered or now
            if expected <= listed or now - answered > RUNS_GRACE_S:
                return
        if time.monotonic() - start > timeout:
            raise BoardError(f"TensorBoard did not answer within {timeout:g} s; "
                             f"its output:\n{_tail(server.output())}")
        time.sleep(POLL_S)
