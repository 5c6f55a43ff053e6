"""Helpers the catalogue's metric, autograd and gluon.utils checks call.

- :func:`mx_feed` / :func:`torch_feed`: feed the same batches to an ``mx.metric`` metric
  (``update(labels, preds)``) and to a torchmetrics metric (``update(preds, target)``) and
  read the value after every update (``get()[1]`` / ``compute()``), as numpy in the run's
  dtype, so running values (an epoch's mean so far) are compared, not only the last;
- :func:`serve`: a throw-away HTTP server on 127.0.0.1 for the ``download`` checks.
"""

from __future__ import annotations

import numpy as onp

__all__ = ["np_dtype", "cuts", "mx_feed", "torch_feed", "values", "serve"]


def np_dtype(dtype) -> str:
    """'float32' for 'float32' or torch.float32."""
    return str(dtype).replace("torch.", "")


def cuts(n, sizes):
    """(start, stop) of consecutive batches of ``sizes`` along axis 0 (they must add up)."""
    if sum(sizes) != n:
        raise ValueError(f"batch sizes {sizes} do not add up to {n}")
    out, start = [], 0
    for s in sizes:
        out.append((start, start + s))
        start += s
    return out


def values(seq, dtype):
    """A list of numbers (or of lists) as one numpy array of the run's dtype."""
    return onp.asarray([onp.asarray(v, dtype=onp.float64) for v in seq],
                       dtype=np_dtype(dtype))


def _value(got):
    """get()'s value (a float, or CompositeEvalMetric's list of floats)."""
    return got[1]


def mx_feed(metric, labels, preds, sizes, dtype="float64", after=None, reset_at=None):
    """``metric.update(label_batch, pred_batch)`` for each batch of ``sizes`` (along axis 0
    of ``labels`` and ``preds``); ``get()[1]`` after each update. ``reset_at=i`` calls
    ``reset()`` before batch i; ``after`` maps each value (``math.exp``)."""
    out = []
    for i, (a, b) in enumerate(cuts(labels.shape[0], sizes)):
        if reset_at == i:
            metric.reset()
        metric.update([labels[a:b]], [preds[a:b]])
        v = _value(metric.get())
        out.append(after(v) if after else v)
    return values(out, dtype)


def torch_feed(metric, preds, target, sizes, dtype="float64", prep=None, after=None,
               reset_at=None):
    """``metric.update(pred_batch, target_batch)`` for each batch of ``sizes``;
    ``compute()`` after each update. ``prep(pred, target)`` → the arguments ``update``
    takes, when the batches need preparing (a log, a reshape); ``reset_at=i`` calls
    ``reset()`` before batch i."""
    out = []
    for i, (a, b) in enumerate(cuts(preds.shape[0], sizes)):
        if reset_at == i:
            metric.reset()
        p, t = preds[a:b], target[a:b]
        metric.update(*(prep(p, t) if prep else (p, t)))
        v = metric.compute()
        v = [float(x) for x in v.values()] if isinstance(v, dict) else float(v)
        out.append(after(v) if after else v)
    return values(out, dtype)


def serve(files: dict):
    """Serve ``{name: bytes}`` over HTTP on 127.0.0.1 (a daemon thread); returns
    (base URL, a temporary folder to download into, stop())."""
    import http.server
    import tempfile
    import threading
    from pathlib import Path

    root = Path(tempfile.mkdtemp(prefix="sbs_dl_"))
    (root / "srv").mkdir()
    (root / "dst").mkdir()
    for name, data in files.items():
        (root / "srv" / name).write_bytes(data)

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *a, **k):
            super().__init__(*a, directory=str(root / "srv"), **k)

        def log_message(self, *a):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    threading.Thread(target=httpd.serve_forever, args=(0.005,), daemon=True).start()

    def stop():
        import shutil
        httpd.shutdown()
        httpd.server_close()
        shutil.rmtree(root, ignore_errors=True)

    return f"http://127.0.0.1:{httpd.server_address[1]}", str(root / "dst"), stop
