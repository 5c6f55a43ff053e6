"""Helpers the ``blocks*`` entries' checks call: a scratch folder and a local web server.

- :func:`workdir`: one temporary folder per process, the same path for both sides of a check
  (the MXNet snippet writes a file there, the PyTorch snippet reads it: the porting route of
  a ``.params`` file, an export, a trainer's states);
- :func:`serve`: a file served over HTTP on 127.0.0.1 (no network), so that both
  frameworks' download functions can really download it;
- :func:`sha1`: the SHA-1 hex digest of some bytes (``hashlib``; neither framework).

Standard library only.
"""

from __future__ import annotations

import functools
import hashlib
import http.server
import os
import shutil
import tempfile
import threading

__all__ = ["workdir", "serve", "sha1", "fresh"]


@functools.lru_cache(maxsize=1)
def workdir() -> str:
    """A temporary folder for this process (removed when the interpreter exits)."""
    import atexit

    path = tempfile.mkdtemp(prefix="sidebyside-blocks-")
    atexit.register(shutil.rmtree, path, True)
    return path


def fresh(name: str) -> str:
    """An empty sub-folder ``name`` of :func:`workdir` (emptied if it exists)."""
    path = os.path.join(workdir(), name)
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # no request lines on stderr
        pass


@functools.lru_cache(maxsize=1)
def _server() -> tuple[str, str]:
    root = os.path.join(workdir(), "served")
    os.makedirs(root, exist_ok=True)
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                          functools.partial(_Quiet, directory=root))
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return root, f"http://127.0.0.1:{srv.server_address[1]}"


def serve(name: str, content: bytes) -> str:
    """Serve ``content`` as ``name`` on a local HTTP server; return its URL."""
    root, base = _server()
    with open(os.path.join(root, name), "wb") as f:
        f.write(content)
    return f"{base}/{name}"


def sha1(content: bytes) -> str:
    return hashlib.sha1(content).hexdigest()
