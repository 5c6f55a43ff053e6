"""The PyTorch ⇄ MXNet tensor API map, as data that runs.

Each :class:`Row` holds one row of the seed article's *Tensor / NDArray* and *GPU* tables:
the PyTorch call as it works today, the legacy ``mx.nd`` equivalent, the NumPy-style
``mx.np`` / ``npx`` equivalent where it differs, a status, and what the seed claimed. The code
strings are the code that :func:`check` executes, on the same inputs, and then compares — so
the table a reader sees is the table that was run.

Snippets are small Python programs: every line but the last is executed, the last line is
an expression whose value is the result. They see these names:

- PyTorch snippets: ``torch`` and the inputs as ``torch.Tensor``;
- ``mx.nd`` snippets: ``mx``, ``nd`` and the inputs as ``mx.nd.NDArray``;
- ``mx.np`` snippets: ``mx``, ``npx`` and the inputs as ``mx.np.ndarray``;
- all: ``onp`` (numpy), ``math``, and ``dev0``/``dev1`` (torch devices) or
  ``ctx0``/``ctx1`` (MXNet contexts) for the device rows.

Most rows are the seed's (``source == "seed"``, the default). Rows added later say where they
come from in ``source`` (e.g. ``"issue 13"``): they have no seed cells (``seed_torch`` and
``seed_mxnet`` are empty), their ``verdict`` is a plain note about the MXNet side rather than a
judgement of a seed claim, and they are left out of every seed count and of
:func:`seed_markdown` (:func:`added_markdown` lists them with their notes).

Use :func:`check_all` for every row, :func:`summary` for the counts, :func:`to_markdown` for
the table (either direction) and :func:`find` to look a name up from either side.
"""

from __future__ import annotations

import functools
import math
import re
import textwrap
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

import mxnet as mx
import numpy as onp
import torch
from mxnet import nd, npx

from . import mappings
from .compare import assert_same, to_numpy

__all__ = ["STATUSES", "SEED", "NOT_IN_SEED", "ISSUE_13", "Row", "Result", "ROWS",
           "SEED_AS_INTENDED", "row", "inputs", "device_pair", "run_snippet", "check",
           "check_all", "summary", "to_markdown", "seed_markdown", "added_markdown", "find",
           "verdict_kind", "api_name", "MAP_NOTEBOOK", "MAP_SECTION", "NO_API_NAME"]

SAME, RENAMED, SEMANTICS, COMPOSITE, MISSING = (
    "same name", "renamed", "different semantics", "composite", "missing")
STATUSES = (SAME, RENAMED, SEMANTICS, COMPOSITE, MISSING)
NOT_AVAILABLE = "Not available"
NO_API_NAME = "*no one MXNet name:*"  # heads the rows to_markdown(direction="mxnet") puts last
MAP_NOTEBOOK = "02_tensor_ops"  # the notebook that executes every row ...
MAP_SECTION = "8. The whole map, run"  # ... in this section
SEED = "seed"  # Row.source of the rows taken from the seed article's tables
NOT_IN_SEED = "not in the seed"  # verdict_kind of the rows added later

N_RANDOM = 20000  # samples drawn by the random rows


@dataclass(frozen=True)
class Row:
    """One API-map row. ``nd``/``np`` are ``None`` when that MXNet API has nothing."""

    key: str                      # the seed's row, e.g. "acos", "fmod", "copy to GPU"
    what: str                     # what the operation does
    torch: str                    # PyTorch code, as it runs on torch 2.x
    nd: str | None                # legacy mx.nd code
    np: str | None                # mx.np / npx code (None: same as nd or absent)
    status: str                   # one of STATUSES: the best MXNet equivalent
    api: str                      # the MXNet names a reader would search for
    seed_torch: str               # the seed's PyTorch cell, verbatim ("" if not a seed row)
    seed_mxnet: str               # the seed's MXNet cell, verbatim ("" if not a seed row)
    verdict: str                  # what is true about the seed's claim (else: a note)
    kind: str = "close"           # close | random | custom
    table: str = "tensor"         # tensor | device
    source: str = SEED            # "seed", or where a later row comes from ("issue 13")
    rtol: float = 1e-5
    atol: float = 1e-6
    # random rows: statistic(samples) -> (observed, expected, tolerance)
    stat: Callable | None = field(default=None, compare=False, repr=False)
    # custom rows: judge(torch_result, mxnet_result, api) -> description; raises if wrong
    judge: Callable | None = field(default=None, compare=False, repr=False)

    @property
    def from_seed(self) -> bool:
        return self.source == SEED

    @property
    def seed_said_missing(self) -> bool:
        return self.from_seed and self.seed_mxnet.startswith(NOT_AVAILABLE)

    @property
    def seed_torch_intended(self) -> str:
        """The seed's PyTorch cell as its authors wrote it (see :data:`SEED_AS_INTENDED`)."""
        return SEED_AS_INTENDED.get(self.seed_torch, self.seed_torch)

    @property
    def seed_mxnet_intended(self) -> str:
        """The seed's MXNet cell as its authors wrote it (see :data:`SEED_AS_INTENDED`)."""
        return SEED_AS_INTENDED.get(self.seed_mxnet, self.seed_mxnet)


    @property
    def where(self) -> str:
        """Where the row is executed, for a reader: ``"notebook 2, §8. The whole map, run"``."""
        return f"notebook {int(MAP_NOTEBOOK[:2])}, §{MAP_SECTION}"

    @property
    def link(self) -> str:
        """The notebook that executes the map, as a link target relative to book/."""
        return f"notebooks/{MAP_NOTEBOOK}.ipynb"

    @property
    def mxnet_name(self) -> str | None:
        """The first MXNet API name in :attr:`api` (``"nd.arccos"``), or ``None`` when
        ``api`` names none (``"arithmetic"``, ``"none (nd.zeros + slice assignment)"``)."""
        return api_name(self.api)

    @property
    def mxnet_code(self) -> dict[str, str]:
        return {k: v for k, v in (("mx.nd", self.nd), ("mx.np", self.np)) if v is not None}


#: The seed's cells whose text was damaged when the article was scraped: the ``+`` and ``=``
#: signs and the line breaks were lost (and three notes are in Chinese). Each verbatim cell,
#: with the operators and line breaks restored and the notes translated. ``Row.seed_*`` keep
#: the verbatim text, which the tests find in the seed file; these are for display.
SEED_AS_INTENDED = {
    "t v*(t1/t2)": "t + v*(t1/t2)",
    "nd.split(x, num_outputsnum_of_chunk)": "nd.split(x, num_outputs=num_of_chunk)",
    "e, v a.symeig()": "e, v = a.symeig()",
    "v, e nd.linalg.syevd(a)": "v, e = nd.linalg.syevd(a)",
    "x torch.zeros(2, 3)": "x = torch.zeros(2, 3)",
    "x nd.zeros((2, 3))": "x = nd.zeros((2, 3))",
    "x torch.ones(2, 3)": "x = torch.ones(2, 3)",
    "x nd.ones((2, 3))": "x = nd.ones((2, 3))",
    "y torch.ones_like(x)": "y = torch.ones_like(x)",
    "y nd.ones_like(x)": "y = nd.ones_like(x)",
    "y torch.FloatTensor(1).cuda()": "y = torch.FloatTensor(1).cuda()",
    "y mx.nd.ones((1,), ctxmx.gpu(0))": "y = mx.nd.ones((1,), ctx=mx.gpu(0))",
    "x y.cpu().numpy()": "x = y.cpu().numpy()",
    "x y.asnumpy()": "x = y.asnumpy()",
    "with torch.cuda.device(1):y torch.cuda.FloatTensor(1)":
        "with torch.cuda.device(1):\n    y = torch.cuda.FloatTensor(1)",
    "with mx.gpu(1):y mx.nd.ones((3, 5))": "with mx.gpu(1):\n    y = mx.nd.ones((3, 5))",
    "x torch.cuda.FloatTensor(1)y x.cuda(1)": "x = torch.cuda.FloatTensor(1)\ny = x.cuda(1)",
    "x mx.nd.ones((1,), ctxmx.gpu(0))y x.as_in_context(mx.gpu(1))":
        "x = mx.nd.ones((1,), ctx=mx.gpu(0))\ny = x.as_in_context(mx.gpu(1))",
    "Not available可使用nd.custom(x, op)": "Not available; use nd.custom(x, op)",
    "nd.norm(x)仅计算 L2 范数": "nd.norm(x) (the L2 norm only)",
    "print(x)会打印设备信息": "print(x) shows the device",
}


_API_ITEM = re.compile(r"([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)(\(.*\)|=)?")


def api_name(api: str) -> str | None:
    """The first MXNet API name in a row's ``api`` text, or ``None``.

    The text is a list (``", "`` or ``" + "`` between items, remarks in parentheses): the
    first item that is a dotted name (``nd.arccos``, ``mx.gpu(i)``, ``with mx.Context``), a
    keyword argument (``ctx=``) or a name ``mx.nd`` / ``NDArray`` has (``asnumpy``) is the
    name. Words (``arithmetic``, ``none (...)``) are not.
    """
    for item in re.split(r",\s*|\s+\+\s+", re.sub(r"\s*\([^()]*\)\s*$", "", api)):
        item = re.sub(r"\s*\((?!\)).*\)\s*$", "", item.strip())
        item = re.sub(r"^with\s+", "", item)
        match = _API_ITEM.fullmatch(item)
        if not match:
            continue
        name = match.group(1)
        if "." in name or match.group(2) or hasattr(nd.NDArray, name) or hasattr(nd, name):
            return name
    return None


# ---------------------------------------------------------------- checks used by the rows
def _mean(expected, tol):
    def stat(s):
        return float(s.mean()), expected, tol
    return stat


def _mean_std(mean, std, tol, support=None):
    """The larger of |mean − expected| and |std − expected|, against ``tol`` (expected 0).

    With ``support=(low, high)``, a sample outside [low, high) makes the statistic infinite.
    """
    def stat(s):
        if support is not None and not (s.min() >= support[0] and s.max() < support[1]):
            return float("inf"), 0.0, tol
        return float(max(abs(s.mean() - mean), abs(s.std() - std))), 0.0, tol
    return stat


def _median_iqr(s):
    """Cauchy(0, 1): median 0 and interquartile range 2 (its mean does not exist)."""
    q1, q2, q3 = onp.percentile(s, [25, 50, 75])
    return float(max(abs(q2), abs((q3 - q1) - 2.0))), 0.0, 0.05


def _same_type_name(t, m, api):
    names = {"torch.FloatTensor": onp.float32, "torch.DoubleTensor": onp.float64,
             "torch.LongTensor": onp.int64, "torch.IntTensor": onp.int32}
    assert isinstance(t, str), f"x.type() should be a string, got {t!r}"
    assert onp.dtype(names[t]) == onp.dtype(m), f"{t} vs {m}"
    return f"{t!r} ↔ {onp.dtype(m).name}"


def _same_shape_tuple(t, m, api):
    assert isinstance(t, torch.Size) and isinstance(m, tuple), (type(t), type(m))
    assert tuple(t) == m, (t, m)
    return f"torch.Size{tuple(t)} ↔ tuple {m}"


def _same_int(t, m, api):
    assert isinstance(t, int) and isinstance(m, int) and t == m, (t, m)
    return f"{t} ↔ {m}"


def _same_device_kind(t, m, api):
    assert isinstance(t, torch.device), type(t)
    assert isinstance(m, mx.Context), type(m)
    return f"{t} ↔ {m}"


def _numpy_copy_semantics(t, m, api):
    """``t`` and ``m`` are (array, changed source value) pairs: did writing through show?"""
    t_arr, t_shared = t
    m_arr, m_shared = m
    assert isinstance(t_arr, onp.ndarray) and isinstance(m_arr, onp.ndarray)
    assert t_shared is True, "Tensor.numpy() should share memory with the tensor"
    assert m_shared is False, f"{api} should return a copy"
    return "torch shares memory; MXNet copies"


def _on_device(t, m, api):
    """Results are (value, device) pairs: same values, each on the device asked for."""
    (t_val, t_dev, t_want), (m_val, m_dev, m_want) = t, m
    assert t_dev == t_want, f"torch result on {t_dev}, expected {t_want}"
    assert m_dev == m_want, f"{api} result on {m_dev}, expected {m_want}"
    assert_same(t_val, m_val, rtol=0, atol=0)
    return f"values equal; torch on {t_dev}, MXNet on {m_dev}"


def _same_pointer(t, m, api):
    """``t``: (data_ptr(), pointer of a DLPack view); ``m``: (C-API pointer, capsule)."""
    assert isinstance(t[0], int) and t[0] == t[1], t
    m_ptr, capsule = m
    assert isinstance(m_ptr, int) and m_ptr != 0, m
    view = torch.utils.dlpack.from_dlpack(capsule)
    assert view.data_ptr() == m_ptr, (view.data_ptr(), m_ptr)
    return "both pointers equal the buffer a zero-copy DLPack view sees"


def _all_cast_to_float64(t, m, api):
    """``t``/``m``: (dtypes before the cast, after it, after the first forward, output dtype),
    one dtype per floating-point parameter or buffer, as numpy names."""
    for side, (before, cast, forward, out) in (("torch", t), (api, m)):
        assert before and set(before) == {"float32"}, f"{side}: before the cast {before}"
        assert set(cast) == {"float64"}, f"{side}: after the cast {cast}"
        assert set(forward) == {"float64"} and out == "float64", f"{side}: {forward}, {out}"
    assert len(t[0]) == len(m[0]), f"{len(t[0])} torch tensors vs {len(m[0])} MXNet ones"
    return (f"all {len(t[0])} float tensors float32 → float64, the deferred (lazy) weight "
            "too, before its first forward")


def _eigh_match(t, m, api):
    """Eigenvalues equal; eigenvectors equal up to sign (columns vs rows: see the row)."""
    (t_vals, t_vecs), (m_vals, m_vecs) = t, m
    assert_same(t_vals, m_vals, rtol=1e-4, atol=1e-5)
    tv, mv = to_numpy(t_vecs), to_numpy(m_vecs)
    signs = onp.sign(onp.sum(tv * mv, axis=0))
    assert_same(tv, mv * signs, rtol=1e-4, atol=1e-5)
    return "eigenvalues equal, eigenvectors equal up to sign"


# -------------------------------------------------------------------------------- the rows
def _d(s: str) -> str:
    return textwrap.dedent(s).strip()


ISSUE_13 = "issue 13"  # Row.source of the rows the migration issue 13 asked for

#: torchvision's make_grid(imgs, nrow=8, padding=2) in mx.nd (the make_grid and save_image rows)
_MAKE_GRID_ND = _d("""
    n, c, h, w = imgs.shape
    p, cols = 2, min(8, n)  # padding, images per row (make_grid's nrow)
    grid = nd.zeros((c, -(-n // cols) * (h + p) + p, cols * (w + p) + p))  # pad value 0
    for i in range(n):
        top, left = p + (i // cols) * (h + p), p + (i % cols) * (w + p)
        grid[:, top:top + h, left:left + w] = imgs[i]
    grid""")


ROWS: tuple[Row, ...] = (
    Row("acos", "element-wise arc cosine",
        "torch.acos(x)", "nd.arccos(x)", "mx.np.arccos(x)", RENAMED, "nd.arccos, mx.np.arccos",
        "x.acos()或torch.acos(x)", "nd.arccos(x)", "right"),
    Row("addbmm", "M + Σ_b batch1[b] @ batch2[b] (batched product, summed over the batch)",
        "torch.addbmm(M, b1, b2)",
        "M + nd.linalg.gemm2(b1, b2).sum(axis=0)",
        "M + mx.np.einsum('bij,bjk->ik', b1, b2)", COMPOSITE,
        "nd.linalg.gemm2, mx.np.einsum",
        "torch.addbmm(M, batch1, batch2)", "nd.linalg_gemm(M, batch1, batch2)",
        "wrong: linalg_gemm(A, B, C) is A@B + C per batch (C is the *last* argument) and "
        "does not sum over the batch; sum the batched product instead", rtol=1e-5,
        atol=1e-5),
    Row("addcdiv", "t + value · t1 / t2",
        "torch.addcdiv(t, t1, t2, value=0.5)", "t + 0.5 * (t1 / t2)", None, COMPOSITE,
        "arithmetic",
        "torch.addcdiv(t, v, t1, t2)", "t v*(t1/t2)",
        "right for MXNet; the seed's PyTorch form addcdiv(t, v, t1, t2) is deprecated "
        "(value is now keyword-only)"),
    Row("addmm", "M + mat1 @ mat2",
        "torch.addmm(M, mat1, mat2)", "nd.linalg.gemm(mat1, mat2, M)",
        "M + mx.np.dot(mat1, mat2)", RENAMED, "nd.linalg.gemm, nd.linalg_gemm",
        "torch.addmm(M, mat1, mat2)", "nd.linalg_gemm(M, mat1, mat2)",
        "wrong argument order: linalg_gemm(A, B, C) computes A@B + C, so M goes last"),
    Row("addr", "M + outer(vec1, vec2)",
        "M.addr(v1, v2)",
        "M + nd.dot(v1.reshape((-1, 1)), v2.reshape((1, -1)))",
        "M + mx.np.outer(v1, v2)", COMPOSITE, "mx.np.outer, nd.dot",
        "m.addr(vec1, vec2)", NOT_AVAILABLE,
        "stale: mx.np.outer exists; in mx.nd, a column times a row with nd.dot"),
    Row("apply_", "apply a Python function to every element, in place",
        _d("""
            u = x.clone()
            u.apply_(lambda v: v * v + 1)  # CPU tensors only
            u"""),
        _d("""
            u = x.copy()
            u[:] = nd.array(onp.vectorize(lambda v: v * v + 1)(u.asnumpy()))
            u"""),
        None, COMPOSITE, "asnumpy + nd.array (host round trip)",
        "x.apply_(callable)", "Not available可使用nd.custom(x, op)",
        "wrong: nd.custom does not exist; nd.Custom runs a registered mx.operator.CustomOp. "
        "For a plain Python function: round-trip through numpy (slow, CPU)"),
    Row("asin", "element-wise arc sine",
        "torch.asin(x)", "nd.arcsin(x)", "mx.np.arcsin(x)", RENAMED, "nd.arcsin, mx.np.arcsin",
        "x.asin()或torch.asin(x)", "nd.arcsin(x)", "right"),
    Row("atan", "element-wise arc tangent",
        "torch.atan(x)", "nd.arctan(x)", "mx.np.arctan(x)", RENAMED, "nd.arctan, mx.np.arctan",
        "x.atan()或torch.atan(x)", "nd.arctan(x)", "right"),
    Row("atan2", "element-wise arc tangent of y/x with the quadrant",
        "torch.atan2(y, x)", None, "mx.np.arctan2(y, x)", RENAMED, "mx.np.arctan2",
        "x.atan2(y)或torch.atan2(x, y)", NOT_AVAILABLE,
        "stale: mx.np.arctan2 exists (mx.nd has none: x.as_np_ndarray() gets there)"),
    Row("bmm", "batched matrix product",
        "torch.bmm(b1, b2)", "nd.linalg.gemm2(b1, b2)", "mx.np.matmul(b1, b2)", RENAMED,
        "nd.linalg.gemm2, nd.batch_dot, mx.np.matmul",
        "x.bmm(y)或torch.bmm(x, y)", "nd.linalg_gemm2(x, y)", "right (nd.batch_dot too)",
        atol=1e-5),
    Row("bernoulli", "0/1 samples with probability p",
        "torch.full((N,), 0.3).bernoulli()", "(nd.random.uniform(shape=(N,)) < 0.3)",
        "npx.random.bernoulli(prob=0.3, size=(N,))", RENAMED, "npx.random.bernoulli",
        "x.bernoulli()", NOT_AVAILABLE,
        "stale: npx.random.bernoulli exists; in mx.nd, compare uniform samples with p",
        kind="random", stat=_mean(0.3, 0.02)),
    Row("cauchy_", "fill with Cauchy(median 0, scale 1) samples, in place",
        _d("""
            u = torch.empty(N)
            assert u.cauchy_() is u  # in place
            u"""),
        _d("""
            u = nd.empty((N,))
            u[:] = nd.tan(math.pi * (nd.random.uniform(shape=(N,)) - 0.5))
            u"""),
        None, COMPOSITE, "nd.random.uniform + nd.tan (inverse CDF)",
        "x.cauchy_()", NOT_AVAILABLE,
        "right: still no sampler in 1.9.1; the inverse CDF tan(π(U − ½)) is exact",
        kind="random", stat=_median_iqr),
    Row("chunk", "split into n pieces along a dimension",
        "w.chunk(2, dim=0)", "nd.split(w, num_outputs=2, axis=0)",
        "mx.np.array_split(w, 2, axis=0)", SEMANTICS, "nd.split, mx.np.split, mx.np.array_split",
        "x.chunk(num_of_chunk)", "nd.split(x, num_outputsnum_of_chunk)",
        "right, but nd.split's default axis is 1 (chunk's is 0) and it needs equal pieces; "
        "torch.chunk allows a smaller last piece (mx.np.array_split)"),
    Row("clamp", "clip values to [min, max]",
        "x.clamp(-0.5, 0.5)", "nd.clip(x, -0.5, 0.5)", "mx.np.clip(x, -0.5, 0.5)", RENAMED,
        "nd.clip, mx.np.clip",
        "x.clamp(min, max)", "nd.clip(x, min, max)", "right"),
    Row("clone", "a copy that owns its memory",
        "x.clone()", "x.copy()", "x.copy()", RENAMED, "NDArray.copy",
        "x.clone()", "x.copy()", "right"),
    Row("cross", "cross product of 3-vectors along the last dimension",
        "torch.linalg.cross(a3, b3)",
        _d("""
            i, j = nd.array([1, 2, 0]), nd.array([2, 0, 1])
            (nd.take(a3, i, axis=-1) * nd.take(b3, j, axis=-1)
             - nd.take(a3, j, axis=-1) * nd.take(b3, i, axis=-1))"""),
        None, COMPOSITE, "nd.take (component formula)",
        "x.cross(y)", NOT_AVAILABLE,
        "right: still missing in 1.9.1 (no nd.cross, no mx.np.cross); the component formula works"),
    Row("cumprod", "cumulative product along a dimension",
        "x.cumprod(dim=1)", None, "mx.np.nancumprod(x, axis=1)", COMPOSITE,
        "mx.np.nancumprod",
        "x.cumprod(1)", NOT_AVAILABLE,
        "stale: no cumprod in 1.9.1, but mx.np.nancumprod equals it for NaN-free input"),
    Row("cumsum", "cumulative sum along a dimension",
        "x.cumsum(dim=1)", "nd.cumsum(x, axis=1)", "mx.np.cumsum(x, axis=1)", SAME,
        "nd.cumsum, mx.np.cumsum",
        "x.cumsum(1)", NOT_AVAILABLE, "stale: nd.cumsum and mx.np.cumsum exist"),
    Row("data_ptr", "address of the first element",
        _d("""
            p = x.data_ptr()
            (p, torch.utils.dlpack.from_dlpack(x).data_ptr())"""),
        _d("""
            import ctypes
            p = ctypes.c_void_p()
            mx.base._LIB.MXNDArrayGetData(x.handle, ctypes.byref(p))  # the C API
            (p.value, x.to_dlpack_for_read())"""),
        None, COMPOSITE, "MXNDArrayGetData (C API), NDArray.to_dlpack_for_read",
        "x.data_ptr()", NOT_AVAILABLE,
        "right: no data_ptr(); the C API MXNDArrayGetData gives the address, and a "
        "DLPack capsule shares the buffer without copying",
        kind="custom", judge=_same_pointer),
    Row("diag", "diagonal of a matrix (or a diagonal matrix from a vector)",
        "torch.diag(x)", "nd.diag(x)", "mx.np.diag(x)", SAME, "nd.diag, mx.np.diag",
        "x.diag()", NOT_AVAILABLE, "stale: nd.diag and mx.np.diag exist"),
    Row("dist", "p-norm of the difference x − y",
        "torch.dist(x, y)", "nd.norm(x - y).asscalar()", "mx.np.linalg.norm(x - y)", COMPOSITE,
        "nd.norm, mx.np.linalg.norm",
        "x.dist()", "nd.norm(x)仅计算 L2 范数",
        "wrong: dist is the norm of a difference (x.dist() without y raises); nd.norm "
        "takes ord=1 or 2"),
    Row("erf", "Gauss error function",
        "torch.erf(x)", "nd.erf(x)", "npx.erf(x)", SAME, "nd.erf, npx.erf",
        "x.erf()", NOT_AVAILABLE, "stale: nd.erf and npx.erf exist"),
    Row("expand", "broadcast to a larger shape without copying",
        "v2.expand(3, 4)", "v2.broadcast_to((3, 4))", "mx.np.broadcast_to(v2, (3, 4))",
        RENAMED, "NDArray.broadcast_to, mx.np.broadcast_to",
        "x.expand(3, 4)", "x.broadcast_to([3, 4])", "right (shape as a tuple or list)"),
    Row("exponential_", "fill with Exponential(rate λ) samples",
        _d("""
            u = torch.empty(N)
            assert u.exponential_(4.0) is u  # in place; 4.0 is the rate
            u"""),
        _d("""
            u = nd.empty((N,))
            nd.random_exponential(lam=4.0, shape=(N,), out=u)  # in place via out=
            u"""),
        "mx.np.random.exponential(scale=1 / 4.0, size=(N,))", SEMANTICS,
        "nd.random_exponential, nd.random.exponential, mx.np.random.exponential",
        "x.exponential_()", "nd.random_exponential()",
        "right name, but mind the parameter: nd.random_exponential(lam=rate), while "
        "nd.random.exponential and mx.np.random.exponential take scale = 1/rate",
        kind="random", stat=_mean(0.25, 0.01)),
    Row("fmod", "C-style remainder (sign of the dividend)",
        "torch.fmod(x, 0.3)", "nd.sign(x) * nd.modulo(nd.abs(x), 0.3)", None, COMPOSITE,
        "nd.modulo (= torch.remainder)",
        "x.fmod(3)", "nd.module(x, 3)",
        "wrong: nd.module does not exist; nd.modulo exists but is Python's % "
        "(torch.remainder), which differs from fmod for negative x", atol=1e-6),
    Row("frac", "fractional part, sign kept",
        "torch.frac(x)", "x - nd.trunc(x)", "x - mx.np.trunc(x)", COMPOSITE,
        "nd.trunc, mx.np.trunc",
        "x.frac()", "x - nd.trunc(x)", "right"),
    Row("gather", "out[i][j] = x[i][index[i][j]]",
        "torch.gather(g, 1, torch.tensor([[0, 0], [1, 0]]))",
        "nd.gather_nd(g, nd.array([[[0, 0], [1, 1]], [[0, 0], [1, 0]]]))",
        "mx.np.take_along_axis(g, mx.np.array([[0, 0], [1, 0]], dtype='int64'), axis=1)",
        SEMANTICS, "nd.gather_nd, nd.pick, mx.np.take_along_axis",
        "torch.gather(x, 1, torch.LongTensor([[0,0],[1,0]]))",
        "nd.gather_nd(x, nd.array([[[0,0],[1,1]],[[0,0],[1,0]]]))",
        "right: gather_nd wants the full coordinates (row indices, then column indices); "
        "mx.np.take_along_axis takes torch's index directly"),
    Row("gels", "least-squares solution of A·X ≈ B",
        "torch.linalg.lstsq(A, B).solution", None,
        "mx.np.linalg.lstsq(A, B, rcond=None)[0]", RENAMED, "mx.np.linalg.lstsq",
        "B.gels(A)", NOT_AVAILABLE,
        "stale on both sides: torch.gels was removed (torch.linalg.lstsq), and "
        "mx.np.linalg.lstsq exists", rtol=1e-4, atol=1e-5),
    Row("geometric_", "fill with Geometric(p) samples on {1, 2, …}",
        _d("""
            u = torch.empty(N)
            assert u.geometric_(0.25) is u  # in place
            u"""),
        _d("""
            u = nd.empty((N,))
            u[:] = nd.ceil(nd.log(1 - nd.random.uniform(shape=(N,))) / math.log(0.75))
            u"""),
        None, COMPOSITE, "nd.random.uniform + nd.log (inverse CDF)",
        "x.geometric_(p)", NOT_AVAILABLE,
        "right: still no sampler in 1.9.1; ceil(log(1 − U) / log(1 − p)) is exact",
        kind="random", stat=_mean(4.0, 0.1)),
    Row("device", "which device holds the tensor",
        "x.device", "x.context", "x.ctx", RENAMED, "NDArray.context, NDArray.ctx",
        "print(x)会打印设备信息", "x.context",
        "right; torch also has x.device (print shows it only off the CPU)",
        kind="custom", judge=_same_device_kind),
    Row("repeat", "tile the whole tensor",
        "w.repeat(4, 2)", "w.tile((4, 2))", "mx.np.tile(w, (4, 2))", RENAMED,
        "NDArray.tile, mx.np.tile",
        "x.repeat(4, 2)", "x.tile(4, 2)",
        "right idea, but tile takes one tuple: tile(4, 2) raises; beware nd.repeat, which "
        "repeats elements like torch.repeat_interleave"),
    Row("type()", "the element type",
        "x.type()", "x.dtype", "x.dtype", SEMANTICS, "NDArray.dtype",
        "x.type()", "x.dtype",
        "right; torch's type() is a string such as 'torch.FloatTensor', MXNet's dtype a "
        "numpy type (torch's x.dtype is torch.float32)",
        kind="custom", judge=_same_type_name),
    Row("scatter_", "write a value at given positions",
        "torch.zeros(2, 4).scatter_(1, torch.tensor([[2], [3]]), 1.23)",
        "nd.scatter_nd(nd.array([1.23, 1.23]), nd.array([[0, 1], [2, 3]]), (2, 4))",
        None, SEMANTICS, "nd.scatter_nd",
        "torch.zeros(2, 4).scatter_(1, torch.LongTensor([[2], [3]]), 1.23)",
        "nd.scatter_nd(nd.array([1.23,1.23]), nd.array([[0,1],[2,3]]), (2,4))",
        "right, but scatter_nd builds a new zero-filled array from full coordinates; "
        "it is not in place"),
    Row("size()", "the shape",
        "x.size()", "x.shape", "x.shape", RENAMED, "NDArray.shape",
        "x.size()", "x.shape", "right: torch.Size is a tuple subclass",
        kind="custom", judge=_same_shape_tuple),
    Row("numel", "number of elements",
        "x.numel()", "x.size", "x.size", SEMANTICS, "NDArray.size",
        "x.numel()", "x.size",
        "right, and a trap: MXNet's size is torch's numel(), torch's size() is the shape",
        kind="custom", judge=_same_int),
    Row("numpy()", "to a numpy array",
        _d("""
            arr = x.numpy()
            arr[0, 0] = 42.0
            (arr, bool(x[0, 0] == 42.0))"""),
        _d("""
            arr = x.asnumpy()
            arr[0, 0] = 42.0
            (arr, bool(x[0, 0].asscalar() == 42.0))"""),
        _d("""
            arr = x.asnumpy()
            arr[0, 0] = 42.0
            (arr, bool(x[0, 0].item() == 42.0))"""), SEMANTICS,
        "NDArray.asnumpy",
        "x.numpy()", "x.asnumpy()",
        "right name; numpy() shares memory with the tensor, asnumpy() copies",
        kind="custom", judge=_numpy_copy_semantics),
    Row("symeig", "eigen-decomposition of a symmetric matrix",
        "torch.linalg.eigh(S)",
        _d("""
            u, lam = nd.linalg.syevd(S)  # rows of u are eigenvectors
            (lam, u.T)"""),
        "mx.np.linalg.eigh(S)", RENAMED, "nd.linalg.syevd, mx.np.linalg.eigh",
        "e, v a.symeig()", "v, e nd.linalg.syevd(a)",
        "right order (vectors first), but syevd returns eigenvectors as rows (transpose to "
        "compare); torch.symeig was removed: torch.linalg.eigh",
        kind="custom", judge=_eigh_match),
    Row("t()", "transpose a matrix",
        "x.t()", "x.T", "x.T", RENAMED, "NDArray.T, nd.transpose",
        "x.t()", "x.T", "right (torch has x.T as well)"),
    Row("uniform_", "fill with Uniform(low, high) samples, in place",
        _d("""
            u = torch.empty(N)
            assert u.uniform_(-1, 1) is u  # in place
            u"""),
        _d("""
            u = nd.empty((N,))
            nd.random.uniform(-1, 1, shape=(N,), out=u)  # in place via out=
            u"""),
        "mx.np.random.uniform(-1, 1, size=(N,))", RENAMED,
        "nd.random.uniform, mx.np.random.uniform",
        "torch.uniform_()", "nd.sample_uniform()",
        "wrong: torch.uniform_ is a Tensor method (or torch.nn.init.uniform_); "
        "nd.sample_uniform draws one sample set per (low, high) pair; the plain "
        "equivalent is nd.random.uniform(out=...)",
        kind="random", stat=_mean(0.0, 0.02)),
    Row("unsqueeze", "insert a dimension of size 1",
        "x.unsqueeze(1)", "nd.expand_dims(x, axis=1)", "mx.np.expand_dims(x, 1)", RENAMED,
        "nd.expand_dims, mx.np.expand_dims",
        "x.unsqueeze()", "nd.expand_dims(x)",
        "right names; both need the dimension (x.unsqueeze() without it raises)"),
    Row("view", "reshape (sharing memory)",
        "w.view(16)", "w.reshape((16,))", "w.reshape(16)", RENAMED,
        "NDArray.reshape, mx.np.reshape",
        "x.view(16)", "x.reshape((16,))",
        "right; mind nd.reshape's special codes (0 keeps a dimension, -2/-3/-4) that "
        "mean something else in torch"),
    Row("view_as", "reshape to another tensor's shape",
        "x.view_as(z)", "x.reshape_like(z)", "x.reshape(z.shape)", RENAMED,
        "NDArray.reshape_like, npx.reshape_like",
        "x.view_as(y)", "x.reshape_like(y)", "right"),
    Row("type(dtype)", "cast to another element type",
        "x.type(torch.float64)", "x.astype('float64')", "x.astype('float64')", RENAMED,
        "NDArray.astype",
        "x.type(type)", "x.astype(dtype)", "right (torch also has x.to(dtype))"),
    Row("copy_", "copy values into an existing tensor",
        _d("""
            dst = torch.zeros(3, 4)
            assert dst.copy_(x) is dst  # in place
            dst"""),
        _d("""
            dst = nd.zeros((3, 4))
            x.copyto(dst)  # source first
            dst"""),
        _d("""
            dst = mx.np.zeros((3, 4))
            dst[:] = x
            dst"""), RENAMED, "NDArray.copyto",
        "dst.copy_(src)", "src.copyto(dst)", "right: the direction flips"),
    Row("zeros", "a tensor of zeros",
        "torch.zeros(2, 3)", "nd.zeros((2, 3))", "mx.np.zeros((2, 3))", SAME,
        "nd.zeros, mx.np.zeros",
        "x torch.zeros(2, 3)", "x nd.zeros((2, 3))", "right (the shape is one tuple)"),
    Row("ones", "a tensor of ones",
        "torch.ones(2, 3)", "nd.ones((2, 3))", "mx.np.ones((2, 3))", SAME,
        "nd.ones, mx.np.ones",
        "x torch.ones(2, 3)", "x nd.ones((2, 3))", "right (the shape is one tuple)"),
    Row("ones_like", "ones with another tensor's shape",
        "torch.ones_like(x)", "nd.ones_like(x)", "mx.np.ones_like(x)", SAME,
        "nd.ones_like, mx.np.ones_like",
        "y torch.ones_like(x)", "y nd.ones_like(x)", "right"),
    # ------------------------------------------------------- added by issue 13 (not the seed's)
    Row("randn", "standard normal samples of a given shape",
        "torch.randn(N)", "nd.random.normal(shape=(N,))", "mx.np.random.normal(size=(N,))",
        RENAMED, "nd.random.normal, nd.random.randn, mx.np.random.normal", "", "",
        "the shape is a keyword: shape= (a tuple) in mx.nd, size= in mx.np; "
        "nd.random.randn(*shape) also exists",
        kind="random", stat=_mean_std(0.0, 1.0, 0.03), source=ISSUE_13),
    Row("randn_like", "standard normal samples with another tensor's shape and dtype",
        _d("""
            u = torch.zeros(N, dtype=torch.float64)
            torch.randn_like(u)"""),
        _d("""
            u = nd.zeros((N,), dtype='float64')
            nd.random.normal_like(u)"""),
        _d("""
            u = mx.np.zeros((N,), dtype='float64')
            mx.np.random.normal(size=u.shape, dtype=u.dtype)"""),
        RENAMED, "nd.random.normal_like, mx.np.random.normal", "", "",
        "nd.random.normal_like exists in 1.9.1 and keeps the input's dtype (float64 here); "
        "mx.np has no _like sampler: pass size=u.shape, dtype=u.dtype",
        kind="random", stat=_mean_std(0.0, 1.0, 0.03), source=ISSUE_13),
    Row("rand", "Uniform[0, 1) samples of a given shape",
        "torch.rand(N)", "nd.random.uniform(shape=(N,))", "mx.np.random.uniform(size=(N,))",
        RENAMED, "nd.random.uniform, mx.np.random.uniform", "", "",
        "the default range is [0, 1) in both; the shape is a keyword (shape= / size=)",
        kind="random", stat=_mean_std(0.5, math.sqrt(1 / 12), 0.01, support=(0.0, 1.0)),
        source=ISSUE_13),
    Row("rand_like", "Uniform[0, 1) samples with another tensor's shape and dtype",
        _d("""
            u = torch.zeros(N, dtype=torch.float64)
            torch.rand_like(u)"""),
        _d("""
            u = nd.zeros((N,), dtype='float64')
            nd.random.uniform_like(u)"""),
        _d("""
            u = mx.np.zeros((N,), dtype='float64')
            mx.np.random.uniform(size=u.shape, dtype=u.dtype)"""),
        RENAMED, "nd.random.uniform_like, mx.np.random.uniform", "", "",
        "nd.random.uniform_like exists in 1.9.1 and keeps the input's dtype; mx.np has no "
        "_like sampler: pass size=u.shape, dtype=u.dtype",
        kind="random", stat=_mean_std(0.5, math.sqrt(1 / 12), 0.01, support=(0.0, 1.0)),
        source=ISSUE_13),
    Row("cat", "join tensors along an existing dimension",
        "torch.cat((x, y), dim=0)", "nd.concat(x, y, dim=0)",
        "mx.np.concatenate((x, y), axis=0)", SEMANTICS, "nd.concat, mx.np.concatenate",
        "", "",
        "nd.concat's dim defaults to 1, torch.cat's to 0: always pass dim=. nd.concat takes "
        "the arrays unpacked (nd.concat(*arrays); a list raises) and its keyword is dim, not "
        "axis; mx.np.concatenate takes a sequence and defaults to axis 0 like torch",
        source=ISSUE_13),
    Row("stack", "join tensors along a new dimension",
        "torch.stack((x, y), dim=1)", "nd.stack(x, y, axis=1)", "mx.np.stack((x, y), axis=1)",
        SAME, "nd.stack, mx.np.stack", "", "",
        "the default is axis 0 in all three; nd.stack takes the arrays unpacked "
        "(nd.stack(*arrays); a list raises)", source=ISSUE_13),
    Row("sigmoid", "element-wise logistic function",
        "torch.sigmoid(x)", "nd.sigmoid(x)", "npx.sigmoid(x)", SAME, "nd.sigmoid, npx.sigmoid",
        "", "", "same name (in npx for mx.np)", source=ISSUE_13),
    Row("relu", "element-wise max(x, 0)",
        "torch.relu(x)", "nd.relu(x)", "npx.relu(x)", SAME, "nd.relu, npx.relu",
        "", "", "same name (in npx for mx.np)", source=ISSUE_13),
    Row("tanh", "element-wise hyperbolic tangent",
        "torch.tanh(x)", "nd.tanh(x)", "mx.np.tanh(x)", SAME, "nd.tanh, mx.np.tanh",
        "", "", "same name", source=ISSUE_13),
    Row("log", "element-wise natural logarithm",
        "torch.log(t2)", "nd.log(t2)", "mx.np.log(t2)", SAME, "nd.log, mx.np.log",
        "", "", "same name (the input here is positive)", source=ISSUE_13),
    Row("softmax", "softmax along a dimension",
        "torch.softmax(x, dim=0)", "nd.softmax(x, axis=0)", "npx.softmax(x, axis=0)", SAME,
        "nd.softmax, npx.softmax", "", "",
        "pass the axis: MXNet's defaults to -1, torch.softmax has no default (and "
        "torch.nn.functional.softmax without dim warns and picks 0 for 0-, 1- and 3-d input, "
        "1 otherwise)", source=ISSUE_13),
    Row("double()", "cast every parameter of a model to float64",
        _d("""
            net = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.BatchNorm1d(3),
                                      torch.nn.LazyLinear(2))  # the last: shape not known yet
            def dtypes():
                return [str(t.dtype)[6:] for t in (*net.parameters(), *net.buffers())
                        if t.is_floating_point()]
            before = dtypes()
            assert net.double() is net  # or net.to(torch.float64)
            cast = dtypes()
            out = net(torch.ones(2, 4, dtype=torch.float64))  # the lazy weight is made now
            (before, cast, dtypes(), str(out.dtype)[6:])"""),
        _d("""
            net = mx.gluon.nn.HybridSequential()
            net.add(mx.gluon.nn.Dense(3, in_units=4), mx.gluon.nn.BatchNorm(in_channels=3),
                    mx.gluon.nn.Dense(2))  # the last: in_units not known yet (deferred)
            net.initialize()
            params = list(net.collect_params().values())
            before = [onp.dtype(p.dtype).name for p in params]
            assert net.cast('float64') is None  # returns None, not the block
            cast = [onp.dtype(p.dtype).name for p in params]
            out = net(nd.ones((2, 4), dtype='float64'))  # the deferred weight is made now
            (before, cast, [p.data().dtype.__name__ for p in params], out.dtype.__name__)"""),
        None, RENAMED, "Block.cast", "", "",
        "cast(dtype) changes every parameter, BatchNorm's running statistics included; a "
        "parameter still deferred gets the dtype and is created with it at the first "
        "forward. cast returns None (net = net.cast(...) loses the net); the input must then "
        "be float64 too (a float32 input raises, as in torch)",
        kind="custom", judge=_all_cast_to_float64, source=ISSUE_13),
    Row("make_grid", "tile a batch of images into one image (torchvision.utils)",
        _d("""
            import torchvision.utils
            torchvision.utils.make_grid(imgs, nrow=8, padding=2)"""),
        _MAKE_GRID_ND, None, COMPOSITE, "none (nd.zeros + slice assignment)", "", "",
        "no MXNet equivalent (nothing in mx.image or gluon.utils); the loop gives the same "
        "grid, pad value 0, for a batch of two or more 3-channel images (make_grid also "
        "repeats a single channel three times and returns a lone image unpadded)",
        rtol=0.0, atol=0.0, source=ISSUE_13),
    Row("save_image", "write a batch of images as one PNG grid (torchvision.utils)",
        _d("""
            import os, tempfile, torchvision.utils
            from PIL import Image
            with tempfile.TemporaryDirectory() as d:
                torchvision.utils.save_image(imgs, os.path.join(d, 'grid.png'))
                png = onp.array(Image.open(os.path.join(d, 'grid.png')))
            torch.from_numpy(png)  # height, width, RGB"""),
        _MAKE_GRID_ND.rsplit("\n", 1)[0] + "\n" + _d("""
            import os, tempfile
            from PIL import Image  # mx.image reads images but has no writer
            pixels = (grid * 255 + 0.5).clip(0, 255).astype('uint8')  # save_image's rounding
            with tempfile.TemporaryDirectory() as d:
                Image.fromarray(pixels.transpose((1, 2, 0)).asnumpy()).save(
                    os.path.join(d, 'grid.png'))
                png = mx.image.imread(os.path.join(d, 'grid.png'))
            png  # height, width, RGB"""),
        None, COMPOSITE, "mx.image.imread + PIL.Image.save", "", "",
        "no MXNet equivalent: build the grid as for make_grid, round as save_image does "
        "(× 255 + 0.5, clip, uint8: without the + 0.5 about half the values come out one "
        "lower), write it with PIL; read back with mx.image.imread it equals save_image's "
        "PNG pixel for pixel",
        rtol=0.0, atol=0.0, source=ISSUE_13),
    # ------------------------------------------------------------------ devices
    Row("copy to GPU", "create or copy data on an accelerator",
        _d("""
            y = torch.ones(1).to(dev0)
            (y, y.device, dev0)"""),
        _d("""
            y = mx.nd.ones((1,), ctx=ctx0)
            (y, y.context, ctx0)"""),
        _d("""
            y = mx.np.ones((1,), ctx=ctx0)
            (y, y.ctx, ctx0)"""), RENAMED, "ctx=, mx.gpu(i)",
        "y torch.FloatTensor(1).cuda()", "y mx.nd.ones((1,), ctxmx.gpu(0))",
        "right for MXNet; torch.FloatTensor(1) is one *uninitialised* element, not a one "
        "— today torch.ones(1, device='cuda')",
        kind="custom", table="device", judge=_on_device),
    Row("to numpy", "device tensor back to a host numpy array",
        _d("""
            y = torch.ones(1, device=dev0)
            (y.cpu().numpy(), torch.device('cpu'), torch.device('cpu'))"""),
        _d("""
            y = mx.nd.ones((1,), ctx=ctx0)
            (y.asnumpy(), mx.cpu(), mx.cpu())"""),
        None, RENAMED, "NDArray.asnumpy",
        "x y.cpu().numpy()", "x y.asnumpy()",
        "right: asnumpy() copies from any device in one call",
        kind="custom", table="device", judge=_on_device),
    Row("device scope", "make a device the default inside a `with` block",
        _d("""
            with torch.device(dev1):
                y = torch.ones(3, 5)
            (y, y.device, dev1)"""),
        _d("""
            with ctx1:
                y = mx.nd.ones((3, 5))
            (y, y.context, ctx1)"""),
        None, RENAMED, "with mx.Context",
        "with torch.cuda.device(1):y torch.cuda.FloatTensor(1)",
        "with mx.gpu(1):y mx.nd.ones((3, 5))",
        "right for MXNet; torch ≥ 2.0 has `with torch.device(...)` for factory functions",
        kind="custom", table="device", judge=_on_device),
    Row("GPU 0 to GPU 1", "copy to another device",
        _d("""
            x = torch.ones(1, device=dev0)
            y = x.to(dev1)
            (y, y.device, dev1)"""),
        _d("""
            x = mx.nd.ones((1,), ctx=ctx0)
            y = x.as_in_context(ctx1)
            (y, y.context, ctx1)"""),
        _d("""
            x = mx.np.ones((1,), ctx=ctx0)
            y = x.as_in_ctx(ctx1)
            (y, y.ctx, ctx1)"""), RENAMED, "as_in_context, as_in_ctx",
        "x torch.cuda.FloatTensor(1)y x.cuda(1)",
        "x mx.nd.ones((1,), ctxmx.gpu(0))y x.as_in_context(mx.gpu(1))",
        "right; today's torch spelling is x.to('cuda:1')",
        kind="custom", table="device", judge=_on_device),
    Row("copy between devices", "copy into an existing tensor on another device",
        _d("""
            x = torch.ones(1, device=dev0)
            y = torch.zeros(1, device=dev1)
            y.copy_(x)
            (y, y.device, dev1)"""),
        _d("""
            x = mx.nd.ones((1,), ctx=ctx0)
            y = mx.nd.zeros((1,), ctx=ctx1)
            x.copyto(y)
            (y, y.context, ctx1)"""),
        None, RENAMED, "NDArray.copyto",
        "y.copy_(x)", "x.copyto(y)", "right: the direction flips",
        kind="custom", table="device", judge=_on_device),
)

_BY_KEY = {r.key: r for r in ROWS}
assert len(_BY_KEY) == len(ROWS), "duplicate row keys"
for _r in ROWS:
    assert _r.status in STATUSES, _r
    assert _r.nd is not None or _r.np is not None or _r.status == MISSING, _r.key
    if _r.from_seed:
        assert _r.seed_torch and _r.seed_mxnet, _r.key
        assert _r.verdict.split()[0].strip(":;,") in ("right", "wrong", "stale"), _r.key
    else:  # a later row makes no claim about the seed
        assert _r.source and not (_r.seed_torch or _r.seed_mxnet), _r.key


def verdict_kind(r: Row) -> str:
    """'right', 'wrong' or 'stale' (the seed said "Not available" but there is one now);
    :data:`NOT_IN_SEED` for a row that is not the seed's."""
    if not r.from_seed:
        return NOT_IN_SEED
    return r.verdict.split(":")[0].split(";")[0].split(",")[0].split()[0]


def row(key: str) -> Row:
    """The row for ``key`` (the seed's row name), or a KeyError listing the keys."""
    try:
        return _BY_KEY[key]
    except KeyError:
        raise KeyError(f"no API-map row {key!r}; rows: {', '.join(_BY_KEY)}") from None


# ------------------------------------------------------------------------------ execution
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
    from . import devices

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
    import ast

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
            detail[api] = f"FAILED: {type(err).__name__}: {str(err).splitlines()[0][:200]}"
    if not row.mxnet_code:
        detail["-"] = "no MXNet equivalent"
    return Result(row, ok, detail, diffs)


def check_all(rows=ROWS, seed: int = 0) -> list[Result]:
    return [check(r, seed) for r in rows]


def summary(results: list[Result]) -> dict:
    """Counts by status and by source, and what became of the seed's "Not available" rows
    (the seed counts cover the seed's rows only)."""
    rows = [r.row for r in results]
    seed_na = [r for r in rows if r.seed_said_missing]
    return {
        "rows": len(rows),
        "checked ok": sum(r.ok for r in results),
        "by status": {s: sum(r.status == s for r in rows) for s in STATUSES},
        "by source": dict(Counter(r.source for r in rows)),
        "seed said not available": len(seed_na),
        "of those, available now": sum(r.status in (SAME, RENAMED, SEMANTICS)
                                       for r in seed_na),
        "of those, a composite": sum(r.status == COMPOSITE for r in seed_na),
        "of those, still missing": sum(r.status == MISSING for r in seed_na),
        "seed verdicts": dict(Counter(verdict_kind(r) for r in rows if r.from_seed)),
    }


# -------------------------------------------------------------------------------- display
def _cell(code: str | None) -> str:
    if code is None:
        return "—"
    return "<br>".join(f"`{ln}`" for ln in code.splitlines() if ln.strip()).replace(
        "|", "\\|")


def _text(s: str) -> str:
    return s.replace("|", "\\|")


def _check_cell(res: Result | None) -> str:
    if res is None:
        return "not run"
    if not res.ok:
        return "✘ " + _text(res.summary)
    if res.row.kind == "close":
        worst = max(res.max_diff.values())
        return "✔ exact" if worst == 0 else f"✔ Δ≤{worst:.0e}"
    return "✔ " + ("statistic" if res.row.kind == "random" else "semantics")


def to_markdown(results: list[Result] | None = None, rows=ROWS, table: str | None = None,
                direction: str = "torch") -> str:
    """A Markdown table of the map.

    ``direction="torch"`` lists PyTorch first (a reader coming from PyTorch);
    ``direction="mxnet"`` sorts by the MXNet name (:attr:`Row.mxnet_name`, by its last
    component: ``nd.linalg.gemm2`` under *gemm2*) and puts the MXNet side first (coming from
    Gluon); the rows whose MXNet side is no one API (``arithmetic``) come last, under a
    :data:`NO_API_NAME` line.
    Each row shows its status; with ``results`` also its check: ✔ and the largest difference for
    deterministic rows, ✔ statistic / semantics for the others, ✘ and the reason on failure.
    A row that is not the seed's says where it comes from under its status.
    :func:`seed_markdown` lists what the seed said for each row.
    """
    if direction not in ("torch", "mxnet"):
        raise ValueError("direction must be 'torch' or 'mxnet'")
    by_row = {r.row.key: r for r in results or []}
    rows = [r for r in rows if table is None or r.table == table]
    if direction == "mxnet":
        # by the MXNet name (nd.arccos under "arccos"); rows that name no API go last
        rows = sorted(rows, key=lambda r: mappings.sort_key(r.mxnet_name, r.api))
        head = ["MXNet names", "MXNet", "PyTorch"]
    else:
        head = ["row", "PyTorch", "MXNet"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    named = True
    for r in rows:
        if direction == "mxnet" and named and r.mxnet_name is None:
            named = False  # the rows sorted last name no API: head them
            lines.append(f"| {NO_API_NAME} |" + " |" * (len(head) - 1))
        mxnet = "<br>".join(f"{api}:<br>{_cell(code)}" for api, code in (
            ("`mx.nd`", r.nd), ("`mx.np` / `npx`", r.np)) if code is not None) or "—"
        mark = "" if r.from_seed else f"<br>*({_text(r.source)}, not the seed)*"
        label = f"**{_text(r.key)}**<br>*{r.status}*{mark}"
        if results is not None:
            label += "<br>" + _check_cell(by_row.get(r.key))
        if direction == "mxnet":
            cells = [f"{_text(r.api)}<br>*{r.status}*{mark}", mxnet, _cell(r.torch)]
        else:
            cells = [label, _cell(r.torch), mxnet]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def seed_markdown(rows=ROWS, only_notes: bool = True) -> str:
    """What the seed's MXNet cell said for each row, and what is true.

    The cell is shown as intended (:data:`SEED_AS_INTENDED`), with the scraped text beside
    it where the two differ. With ``only_notes`` the rows whose verdict is a plain "right"
    are left out. Rows that are not the seed's are never listed (see :func:`added_markdown`).
    """
    lines = ["| row | the seed's MXNet cell | verdict |", "|---|---|---|"]
    for r in rows:
        if not r.from_seed or (only_notes and r.verdict == "right"):
            continue
        cell = _cell(r.seed_mxnet_intended)
        if r.seed_mxnet_intended != r.seed_mxnet:
            cell += f"<br>*(scraped as* `{_text(r.seed_mxnet)}`*)*"
        lines.append(f"| **{_text(r.key)}** | {cell} | {_text(r.verdict)} |")
    return "\n".join(lines)


def added_markdown(rows=ROWS) -> str:
    """The rows that are not the seed's: where each comes from, its status and its note."""
    lines = ["| row | from | status | note |", "|---|---|---|---|"]
    for r in rows:
        if not r.from_seed:
            lines.append(f"| **{_text(r.key)}** | {_text(r.source)} | {r.status} | "
                         f"{_text(r.verdict)} |")
    return "\n".join(lines)


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")


def _parts(name: str) -> tuple[str, ...]:
    return tuple(p.rstrip("_") or p for p in name.lower().split("."))


def _names(text: str) -> set[tuple[str, ...]]:
    """Every dotted name in ``text`` and each run of its components: ``nd.linalg.gemm2``
    gives ``('nd', 'linalg', 'gemm2')``, ``('linalg', 'gemm2')``, ``('nd', 'linalg')``,
    ``('gemm2',)`` and so on. A trailing ``_`` (PyTorch's in-place mark) is dropped, so
    ``exponential`` finds ``exponential_``."""
    out = set()
    for match in _NAME.findall(text):
        parts = _parts(match)
        out.update(parts[i:j] for i in range(len(parts)) for j in range(i + 1, len(parts) + 1))
    return out


def _row_text(r: Row) -> str:
    """What :func:`find` searches in a row: its key, both sides' code, the MXNet names, what
    it does and its note (the verdict)."""
    return " ".join(filter(None, (r.key, r.what, r.torch, r.nd, r.np, r.api, r.verdict)))


@functools.lru_cache(maxsize=1)
def _notebook_mappings() -> tuple[mappings.Mapping, ...]:
    return tuple(mappings.read_all().rows)


def find(name: str, notebooks: bool = True) -> list[Row | mappings.Mapping]:
    """Rows that use the name ``name`` (case-insensitive), looked up from either side.

    First the API map's rows (:class:`Row`), in map order: ``name`` is looked for in the
    row's key, its PyTorch code, its MXNet code and names, what it does and its note. Then,
    with ``notebooks`` (the default), the rows of the notebooks' mapping tables
    (:class:`sidebyside.mappings.Mapping`: their PyTorch, MXNet and other columns), in
    notebook order. Both kinds have ``key`` and ``where``.

    Names are matched whole, component by component: ``arccos`` finds ``nd.arccos`` and
    ``mx.np.arccos``, ``linalg.gemm2`` finds ``nd.linalg.gemm2``, ``Dense`` finds
    ``gluon.nn.Dense(...)``, but ``cat`` does not find ``scatter_`` nor ``nd.exp`` find
    ``nd.expand_dims``. Several words (``"log softmax"``) must all be found in one row.
    """
    if not isinstance(name, str) or not name.strip():
        raise ValueError("find() needs a non-empty name, e.g. 'arccos' or 'gather'")
    wanted = [_parts(w) for w in name.split()]

    def hit(text: str) -> bool:
        names = _names(text)
        return all(w in names for w in wanted)

    hits: list[Row | mappings.Mapping] = [r for r in ROWS if hit(_row_text(r))]
    if notebooks:
        hits += [m for m in _notebook_mappings() if hit(m.text)]
    return hits
