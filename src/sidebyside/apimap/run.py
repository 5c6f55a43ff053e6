"""Running the API map: the inputs every snippet sees, a snippet run, a row checked.

:func:`check` runs a row's PyTorch snippet and each of its MXNet snippets on the same inputs
(:func:`inputs`) and compares the results the way the row says (``Row.kind``): within the
row's tolerance (``"close"``), by a statistic of the samples (``"random"``), or with the
row's own judge (``"custom"``). :func:`check_all` checks every row, :func:`summary` counts
the results.
"""

from __future__ import annotations

import ast
import math
from collections import Counter
from dataclasses import dataclass

import mxnet as mx
import numpy as onp
import torch
from mxnet import nd, npx

from ..compare import assert_same, to_numpy
from .rows import (COMPOSITE, MISSING, N_RANDOM, RENAMED, ROWS, SAME, SEMANTICS, STATUSES, Row,
                   verdict_kind)

__all__ = ["inputs", "device_pair", "run_snippet", "Result", "check", "check_all", "summary"]


def inputs(seed: int = 0) -> dict[str, onp.ndarray]:
    """The named float32 inputs every snippet may use (the same values for both sides)."""
    rng = onp.random.default_rng(seed)

    def u(*shape, lo=-0.9, hi=0.9):
        return rng.uniform(lo, hi, shape).astype(onp.float32)

    s = u(3, 3)
    return {
        "x": u(3, 4), "y": u(3, 4), "z": u(2, 6), "w": u(4, 4), "g": u(2, 2),
        "t": u(3, 4), "t1": u(3, 4), "t2": u(3, 4, lo=0.5, hi=2.0),
        "M": u(2, 4), "mat1": u(2, 3), "mat2": u(3, 4), "b1": u(5, 2, 3), "b2": u(5, 3, 4),
        "v1": u(2), "v2": u(4), "a3": u(4, 3), "b3": u(4, 3),
        "S": (s + s.T).astype(onp.float32), "A": u(6, 3), "B": u(6, 2),
        "imgs": u(10, 3, 5, 6, lo=0.0, hi=1.0),  # a batch of 10 RGB images, 5 × 6 pixels
    }


def device_pair():
    """Two devices per framework for the device rows, with a one-line reason.

    MXNet: two GPUs when it has two working ones, else ``cpu(0)``/``cpu(1)`` (two CPU
    contexts are real, distinct contexts). PyTorch: ``cuda:0``/``cuda:1`` or ``cuda:0`` twice
    with one GPU, else ``cpu`` twice.
    """
    from .. import devices

    mx_choice = devices.mxnet_context().device
    ctxs = (mx.cpu(0), mx.cpu(1))
    if mx_choice.device_type == "gpu":
        ctxs = (mx_choice, mx_choice)
        if mx.context.num_gpus() >= 2:
            try:
                devices.mxnet_gpu_works(mx.gpu(1))
                ctxs = (mx.gpu(0), mx.gpu(1))
            except Exception:  # a second GPU that cannot run MXNet kernels: use one
                pass
    n_t = torch.cuda.device_count() if torch.cuda.is_available() else 0
    devs = (torch.device("cuda", 0), torch.device("cuda", min(1, n_t - 1))) if n_t else (
        torch.device("cpu"), torch.device("cpu"))
    return devs, ctxs


def _namespace(side: str, values: dict, devs=None, ctxs=None) -> dict:
    ns = {"onp": onp, "math": math, "mx": mx, "N": N_RANDOM}
    if side == "torch":
        ns.update(torch=torch, **{k: torch.from_numpy(v.copy()) for k, v in values.items()})
        ns.update(dev0=devs[0], dev1=devs[1]) if devs else None
    elif side == "mx.nd":
        ns.update(nd=nd, **{k: nd.array(v, dtype=v.dtype) for k, v in values.items()})
    elif side == "mx.np":
        ns.update(npx=npx, **{k: mx.np.array(v, dtype=v.dtype) for k, v in values.items()})
    else:
        raise ValueError(f"side must be 'torch', 'mx.nd' or 'mx.np', not {side!r}")
    if side != "torch" and ctxs:
        ns.update(ctx0=ctxs[0], ctx1=ctxs[1])
    return ns


def run_snippet(code: str, namespace: dict):
    """Execute ``code``: all lines but the last as statements, the last as an expression."""
    tree = ast.parse(code)
    if not tree.body or not isinstance(tree.body[-1], ast.Expr):
        raise ValueError(f"a snippet must end with an expression:\n{code}")
    last = ast.Expression(tree.body.pop().value)
    exec(compile(tree, "<snippet>", "exec"), namespace)
    return eval(compile(last, "<snippet>", "eval"), namespace)


@dataclass(frozen=True)
class Result:
    row: Row
    ok: bool
    detail: dict[str, str]        # per MXNet API: what was checked, or the error
    max_diff: dict[str, float]    # per MXNet API, for "close" rows

    @property
    def summary(self) -> str:
        return "; ".join(f"{api}: {d}" for api, d in self.detail.items())


def _flatten(value):
    if isinstance(value, (list, tuple)):
        return [v for item in value for v in _flatten(item)]
    return [value]


def _compare_close(row: Row, t_val, m_val) -> tuple[str, float]:
    t_parts, m_parts = _flatten(t_val), _flatten(m_val)
    if len(t_parts) != len(m_parts):
        raise AssertionError(f"{len(t_parts)} torch results vs {len(m_parts)} MXNet results")
    worst = 0.0
    for a, b in zip(t_parts, m_parts):
        worst = max(worst, assert_same(a, b, rtol=row.rtol, atol=row.atol))
    return f"equal within rtol={row.rtol:g}, atol={row.atol:g}", worst


def _compare_random(row: Row, t_val, m_val) -> tuple[str, float]:
    a, b = to_numpy(t_val), to_numpy(m_val)
    if a.shape != b.shape:
        raise AssertionError(f"shapes differ: torch {a.shape} vs MXNet {b.shape}")
    if a.dtype != b.dtype:
        raise AssertionError(f"dtypes differ: torch {a.dtype} vs MXNet {b.dtype}")
    lines = []
    for side, s in (("torch", a), ("mxnet", b)):
        observed, expected, tol = row.stat(s)
        if not abs(observed - expected) <= tol:
            raise AssertionError(f"{side} statistic {observed:.4f} is not within {tol} of "
                                 f"{expected}")
        lines.append(f"{observed:.3f}")
    return (f"shape {a.shape}, {a.dtype}; statistic {lines[0]} vs {lines[1]} "
            f"(expected {row.stat(a)[1]:g} ± {row.stat(a)[2]:g})"), float("nan")


def check(row: Row, seed: int = 0) -> Result:
    """Run ``row`` in PyTorch and in each MXNet API on the same inputs, and compare."""
    values = inputs(seed)
    devs, ctxs = device_pair() if row.table == "device" else (None, None)
    torch.manual_seed(seed)
    t_val = run_snippet(row.torch, _namespace("torch", values, devs))
    detail, diffs, ok = {}, {}, True
    for api, code in row.mxnet_code.items():
        mx.random.seed(seed)
        try:
            m_val = run_snippet(code, _namespace(api, values, ctxs=ctxs))
            if row.kind == "close":
                detail[api], diffs[api] = _compare_close(row, t_val, m_val)
            elif row.kind == "random":
                detail[api], diffs[api] = _compare_random(row, t_val, m_val)
            elif row.kind == "custom":
                detail[api] = row.judge(t_val, m_val, api)
            else:
                raise ValueError(f"row {row.key!r}: unknown kind {row.kind!r}")
        except Exception as err:  # report every row; the caller decides
            ok = False
            detail[api] = f"FAILED: {type(err).__name__}: {(str(err).splitlines() or [''])[0][:200]}"
    if not row.mxnet_code:
        detail["-"] = "no MXNet equivalent"
    return Result(row, ok, detail, diffs)


def check_all(rows=ROWS, seed: int = 0) -> list[Result]:
    return [check(r, seed) for r in rows]


def summary(results: list[Result]) -> dict:
    """Counts by status, by source and by table, and what became of the seed's "Not
    available" rows (the seed counts cover the seed's rows only)."""
    rows = [r.row for r in results]
    seed_na = [r for r in rows if r.seed_said_missing]
    return {
        "rows": len(rows),
        "checked ok": sum(r.ok for r in results),
        "by status": {s: sum(r.status == s for r in rows) for s in STATUSES},
        "by source": dict(Counter(r.source for r in rows)),
        "by table": dict(Counter(r.table for r in rows)),
        "seed said not available": len(seed_na),
        "of those, available now": sum(r.status in (SAME, RENAMED, SEMANTICS)
                                       for r in seed_na),
        "of those, a composite": sum(r.status == COMPOSITE for r in seed_na),
        "of those, still missing": sum(r.status == MISSING for r in seed_na),
        "seed verdicts": dict(Counter(verdict_kind(r) for r in rows if r.from_seed)),
    }
