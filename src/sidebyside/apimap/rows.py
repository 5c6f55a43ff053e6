"""The API map's rows: what each row says, and the code that proves it.

Each :class:`Row` holds one row of the map: the PyTorch call as it works today, the legacy
``mx.nd`` equivalent, the NumPy-style ``mx.np`` / ``npx`` equivalent where it differs, a
status, and — for the rows taken from the seed article's *Tensor / NDArray* and *GPU* tables
— what the seed claimed. Rows are written with one keyword argument per field. The code
strings are the code that :func:`sidebyside.apimap.check` executes, on the same inputs, and
then compares — so the table a reader sees is the table that was run.

Snippets are small Python programs: every line but the last is executed, the last line is
an expression whose value is the result. They see these names:

- PyTorch snippets: ``torch`` and the inputs as ``torch.Tensor``;
- ``mx.nd`` snippets: ``mx``, ``nd`` and the inputs as ``mx.nd.NDArray``;
- ``mx.np`` snippets: ``mx``, ``npx`` and the inputs as ``mx.np.ndarray``;
- all: ``onp`` (numpy), ``math``, ``N`` (the sample count of the random rows), and
  ``dev0``/``dev1`` (torch devices) or ``ctx0``/``ctx1`` (MXNet contexts) for the device rows.

Where a row comes from is its ``source`` (:data:`SOURCES` says it in words): the seed's
tables (``"seed"``, the default), the rows the capstones' whole-script ports needed
(``"ports"``), and the rows for names the other notebooks use (``"book"``: ``detach``,
``narrow``, ``Embedding``, ``LSTM``, …). Rows that are not the seed's have no seed cells
(``seed_torch`` and ``seed_mxnet`` are empty), their ``verdict`` is a plain note about the
MXNet side rather than a judgement of a seed claim, and they are left out of every seed count.

The rows are grouped in tables (``Row.table``): ``"tensor"`` (tensor operations), ``"nn"``
(layers, losses, update rules and parameter names: each builds both sides with the same
weights) and ``"device"`` (the seed's GPU table).
"""

from __future__ import annotations

import math
import re
import textwrap
from dataclasses import dataclass, field
from typing import Callable

import mxnet as mx
import numpy as onp
import torch
from mxnet import nd

from .. import mappings
from ..compare import assert_same, to_numpy

__all__ = ["STATUSES", "SAME", "RENAMED", "SEMANTICS", "COMPOSITE", "MISSING", "NOT_AVAILABLE",
           "SEED", "PORTS", "BOOK", "ISSUE_13", "SOURCES", "TABLES", "NOT_IN_SEED",
           "MAP_NOTEBOOK", "MAP_SECTION", "N_RANDOM", "Row", "ROWS", "SEED_AS_INTENDED",
           "row", "verdict_kind", "api_name"]

SAME, RENAMED, SEMANTICS, COMPOSITE, MISSING = (
    "same name", "renamed", "different semantics", "composite", "missing")
STATUSES = (SAME, RENAMED, SEMANTICS, COMPOSITE, MISSING)
NOT_AVAILABLE = "Not available"
MAP_NOTEBOOK = "02_tensor_ops"  # the notebook that executes every row ...
MAP_SECTION = "8. The whole map, run"  # ... in this section
NOT_IN_SEED = "not in the seed"  # verdict_kind of the rows added later

SEED = "seed"    # Row.source of the rows taken from the seed article's tables
PORTS = "ports"  # ... of the rows the capstones' whole-script ports needed
BOOK = "book"    # ... of the rows for names the other notebooks use
ISSUE_13 = PORTS  # the old name of PORTS, kept importable
#: each source in words, as the tables show it ("added for …" for the rows not the seed's)
SOURCES = {SEED: "the seed article's tables", PORTS: "the capstones' ports",
           BOOK: "names the other notebooks use"}
#: the tables, in the order notebook 2 shows them
TABLES = {"tensor": "Tensors", "nn": "Layers, losses, updates and parameter names",
          "device": "Devices"}

N_RANDOM = 20000  # samples drawn by the random rows


@dataclass(frozen=True)
class Row:
    """One API-map row. ``nd``/``np`` are ``None`` when that MXNet API has nothing."""

    key: str                      # the row's name, e.g. "acos", "fmod", "copy to GPU"
    what: str                     # what the operation does
    torch: str                    # PyTorch code, as it runs on torch 2.x
    nd: str | None                # legacy mx.nd code
    np: str | None                # mx.np / npx code (None: same as nd or absent)
    status: str                   # one of STATUSES: the best MXNet equivalent
    api: str                      # the MXNet names a reader would search for
    seed_torch: str = ""          # the seed's PyTorch cell, verbatim ("" if not a seed row)
    seed_mxnet: str = ""          # the seed's MXNet cell, verbatim ("" if not a seed row)
    verdict: str = ""             # what is true about the seed's claim (else: a note)
    kind: str = "close"           # close | random | custom
    table: str = "tensor"         # tensor | nn | device (TABLES)
    source: str = SEED            # SEED, PORTS or BOOK (SOURCES)
    rtol: float = 1e-5
    atol: float = 1e-6
    # One line a reader writes, for the tables that list the map (book/all_mappings.md, the
    # cheat sheet): ``spelling`` for a ``torch`` snippet of several lines, ``mx_spelling`` for
    # an ``nd`` one. Display only: the snippets above are what runs (a test checks that each
    # name a spelling calls is called by its snippet).
    spelling: str = ""
    mx_spelling: str = ""
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
        return f"{mappings.page_label(MAP_NOTEBOOK)}, §{MAP_SECTION}"

    @property
    def link(self) -> str:
        """The notebook that executes the map, as a link target relative to book/."""
        return mappings.page_link(MAP_NOTEBOOK)

    @property
    def anchor(self) -> str:
        """The HTML id of the section that executes the map."""
        return mappings.section_id(MAP_SECTION)

    @property
    def target(self) -> str:
        """That section in the built book, relative to its root."""
        return f"{self.link.removesuffix('.ipynb')}.html#{self.anchor}"

    @property
    def mxnet_name(self) -> str | None:
        """The first MXNet API name in :attr:`api` (``"nd.arccos"``), or ``None`` when
        ``api`` names none (``"arithmetic"``, ``"none (nd.zeros + slice assignment)"``)."""
        return api_name(self.api)

    @property
    def mxnet_code(self) -> dict[str, str]:
        return {k: v for k, v in (("mx.nd", self.nd), ("mx.np", self.np)) if v is not None}

    @property
    def text(self) -> str:
        """What :func:`sidebyside.apimap.find` searches in a row: its key, both sides' code,
        the MXNet names, what it does and its note (the verdict)."""
        return " ".join(filter(None, (self.key, self.what, self.torch, self.nd, self.np,
                                      self.api, self.verdict)))


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


def _permutation(s):
    """A random permutation of 0 … n−1: every value once (else the statistic is infinite),
    and no trace of the order it started in (the correlation with 0 … n−1 is near 0)."""
    n = len(s)
    if not onp.array_equal(onp.sort(s), onp.arange(n)):
        return float("inf"), 0.0, 0.03
    return float(abs(onp.corrcoef(s, onp.arange(n))[0, 1])), 0.0, 0.03


def _structural_names(t, m, api):
    """``t``: a module's state_dict keys; ``m``: (the block's prefix, its global parameter
    names, its structural names)."""
    prefix, global_names, structural = m
    assert structural == t, f"structural names {structural} vs torch's {t}"
    outside = [n for n in global_names if not n.startswith(prefix)]
    assert not outside, f"{api}: names without the block's prefix {prefix!r}: {outside}"
    return f"structural names equal ({', '.join(t)}); every global name starts with the prefix"


def _clip_gap(t, m, api):
    """``t``/``m``: (the norm returned, the clipped gradients) from each framework's clip.
    The same norm before clipping, both clipped to max_norm, and MXNet's gradients larger by
    the relative gap the two epsilons predict, (1e-6 − 1e-8) / (norm + 1e-8)."""
    (t_norm, t_grads), (m_norm, m_grads) = t, m
    assert isinstance(t_norm, torch.Tensor) and t_norm.dim() == 0, type(t_norm)
    assert isinstance(m_norm, onp.floating), f"{api} returned {type(m_norm)}, not a numpy float"
    norm = float(t_norm)
    assert norm > _CLIP_MAX, f"the norm {norm} is within max_norm: nothing was clipped"
    assert abs(float(m_norm) / norm - 1) <= 1e-6, (float(m_norm), norm)
    tv = onp.concatenate([to_numpy(g).ravel() for g in t_grads]).astype(onp.float64)
    mv = onp.concatenate([to_numpy(g).ravel() for g in m_grads]).astype(onp.float64)
    for side, v in (("torch", tv), (api, mv)):
        assert abs(math.sqrt(float(v @ v)) / _CLIP_MAX - 1) <= 1e-5, f"{side}: not at max_norm"
    gap = float(mv @ tv / (tv @ tv)) - 1  # the least-squares ratio of the two, minus 1
    predicted = (1e-6 - 1e-8) / (norm + 1e-8)
    assert abs(gap / predicted - 1) <= 0.2, (
        f"MXNet's clipped gradients / PyTorch's − 1 = {gap:.3g}, predicted {predicted:.3g}")
    return ("the same norm; both at max_norm; MXNet's gradients larger by "
            "(1e-6 − 1e-8) / (norm + 1e-8), relative")


# -------------------------------------------------------------------------------- the rows
def _d(s: str) -> str:
    return textwrap.dedent(s).strip()


#: torchvision's make_grid in mx.nd (the make_grid and save_image rows): one or three
#: channels, ``nrow`` images per row, ``padding``, ``pad_value``, and a lone image unpadded
_MAKE_GRID_ND = _d("""
    def make_grid(imgs, nrow=8, padding=2, pad_value=0.0):
        if imgs.shape[1] == 1:  # one channel: repeated three times, as torchvision does
            imgs = nd.concat(imgs, imgs, imgs, dim=1)
        n, c, h, w = imgs.shape
        if n == 1:  # a lone image comes back as it is, without padding
            return imgs[0]
        p, cols = padding, min(nrow, n)  # cols: images per row
        grid = nd.full((c, -(-n // cols) * (h + p) + p, cols * (w + p) + p), pad_value)
        for i in range(n):
            top, left = p + (i // cols) * (h + p), p + (i % cols) * (w + p)
            grid[:, top:top + h, left:left + w] = imgs[i]
        return grid""")


_CLIP_MAX = 0.1  # the clip_global_norm row's max_norm
#: the weights of a one-layer LSTM (or LSTMCell) of input size 4 and hidden size 3, the same
#: numbers on both sides (the begin_state, flatten_parameters and LSTMCell rows)
_LSTM_WEIGHTS = _d("""
    rng = onp.random.default_rng(0)  # the same weights on both sides
    ws = [rng.uniform(-0.5, 0.5, s).astype('float32') for s in [(12, 4), (12, 3), (12,), (12,)]]""")
_TORCH_LSTM = _LSTM_WEIGHTS + "\n" + _d("""
    layer = torch.nn.LSTM(4, 3)  # input size 4, hidden size 3
    with torch.no_grad():
        for p, w in zip((layer.weight_ih_l0, layer.weight_hh_l0,
                         layer.bias_ih_l0, layer.bias_hh_l0), ws):
            p.copy_(torch.from_numpy(w))""")
_GLUON_LSTM = _LSTM_WEIGHTS + "\n" + _d("""
    layer = mx.gluon.rnn.LSTM(3, input_size=4)
    layer.initialize()
    for p, w in zip((layer.l0_i2h_weight, layer.l0_h2h_weight,
                     layer.l0_i2h_bias, layer.l0_h2h_bias), ws):
        p.set_data(nd.array(w))""")


def _rnn(key: str, gates: int, gluon_args: str, verdict: str, status: str) -> Row:
    """A one-layer recurrent layer of each framework with the same weights, over the same
    sequence (``x`` as 3 time steps of a batch of 1, 4 features; hidden size 3)."""
    shapes = f"[({gates * 3}, 4), ({gates * 3}, 3), ({gates * 3},), ({gates * 3},)]"
    return Row(
        key=key, what=f"a one-layer {key} over a sequence, with the same weights",
        spelling=f"torch.nn.{key}(4, 3)",
        mx_spelling=f"gluon.rnn.{key}(3, input_size=4{gluon_args})",
        torch=_d(f"""
            rng = onp.random.default_rng(0)  # the same weights on both sides
            ws = [rng.uniform(-0.5, 0.5, s).astype('float32') for s in {shapes}]
            layer = torch.nn.{key}(4, 3)  # input size 4, hidden size 3
            with torch.no_grad():
                for p, w in zip((layer.weight_ih_l0, layer.weight_hh_l0,
                                 layer.bias_ih_l0, layer.bias_hh_l0), ws):
                    p.copy_(torch.from_numpy(w))
            out, state = layer(x.reshape(3, 1, 4))  # (time, batch, feature)
            (out, state)"""),
        nd=_d(f"""
            rng = onp.random.default_rng(0)
            ws = [rng.uniform(-0.5, 0.5, s).astype('float32') for s in {shapes}]
            layer = mx.gluon.rnn.{key}(3, input_size=4{gluon_args})
            layer.initialize()
            for p, w in zip((layer.l0_i2h_weight, layer.l0_h2h_weight,
                             layer.l0_i2h_bias, layer.l0_h2h_bias), ws):
                p.set_data(nd.array(w))
            out, state = layer(x.reshape((3, 1, 4)), layer.begin_state(batch_size=1))
            (out, state)  # layout 'TNC': (time, batch, feature)"""),
        np=None, status=status, api=f"gluon.rnn.{key}", verdict=verdict, table="nn",
        source=BOOK)


ROWS: tuple[Row, ...] = (
    Row(key="acos", what="element-wise arc cosine", torch="torch.acos(x)", nd="nd.arccos(x)",
        np="mx.np.arccos(x)", status=RENAMED, api="nd.arccos, mx.np.arccos",
        seed_torch="x.acos()或torch.acos(x)", seed_mxnet="nd.arccos(x)", verdict="right"),
    Row(key="addbmm",
        what="M + Σ_b batch1[b] @ batch2[b] (batched product, summed over the batch)",
        torch="torch.addbmm(M, b1, b2)", nd="M + nd.linalg.gemm2(b1, b2).sum(axis=0)",
        np="M + mx.np.einsum('bij,bjk->ik', b1, b2)", status=COMPOSITE,
        api="nd.linalg.gemm2, mx.np.einsum", seed_torch="torch.addbmm(M, batch1, batch2)",
        seed_mxnet="nd.linalg_gemm(M, batch1, batch2)",
        verdict="wrong: linalg_gemm(A, B, C) is A@B + C per batch (C is the *last* argument) and "
        "does not sum over the batch; sum the batched product instead",
        rtol=1e-5, atol=1e-5),
    Row(key="addcdiv", what="t + value · t1 / t2", torch="torch.addcdiv(t, t1, t2, value=0.5)",
        nd="t + 0.5 * (t1 / t2)", np=None, status=COMPOSITE, api="arithmetic",
        seed_torch="torch.addcdiv(t, v, t1, t2)", seed_mxnet="t v*(t1/t2)",
        verdict="right for MXNet; the seed's PyTorch form addcdiv(t, v, t1, t2) is deprecated "
        "(value is now keyword-only)"),
    Row(key="addmm", what="M + mat1 @ mat2", torch="torch.addmm(M, mat1, mat2)",
        nd="nd.linalg.gemm(mat1, mat2, M)", np="M + mx.np.dot(mat1, mat2)", status=RENAMED,
        api="nd.linalg.gemm, nd.linalg_gemm", seed_torch="torch.addmm(M, mat1, mat2)",
        seed_mxnet="nd.linalg_gemm(M, mat1, mat2)",
        verdict="wrong argument order: linalg_gemm(A, B, C) computes A@B + C, so M goes last"),
    Row(key="addr", what="M + outer(vec1, vec2)", torch="M.addr(v1, v2)",
        nd="M + nd.dot(v1.reshape((-1, 1)), v2.reshape((1, -1)))", np="M + mx.np.outer(v1, v2)",
        status=COMPOSITE, api="mx.np.outer, nd.dot", seed_torch="m.addr(vec1, vec2)",
        seed_mxnet=NOT_AVAILABLE,
        verdict="stale: mx.np.outer exists; in mx.nd, a column times a row with nd.dot"),
    Row(key="apply_", what="apply a Python function to every element, in place",
        spelling="x.apply_(fn)",
        torch=_d("""
            u = x.clone()
            u.apply_(lambda v: v * v + 1)  # CPU tensors only
            u"""),
        nd=_d("""
            u = x.copy()
            u[:] = nd.array(onp.vectorize(lambda v: v * v + 1)(u.asnumpy()))
            u"""),
        np=None, status=COMPOSITE, api="asnumpy + nd.array (host round trip)",
        seed_torch="x.apply_(callable)", seed_mxnet="Not available可使用nd.custom(x, op)",
        verdict="wrong: nd.custom does not exist; nd.Custom runs a registered mx.operator.CustomOp. "
        "For a plain Python function: round-trip through numpy (slow, CPU)"),
    Row(key="asin", what="element-wise arc sine", torch="torch.asin(x)", nd="nd.arcsin(x)",
        np="mx.np.arcsin(x)", status=RENAMED, api="nd.arcsin, mx.np.arcsin",
        seed_torch="x.asin()或torch.asin(x)", seed_mxnet="nd.arcsin(x)", verdict="right"),
    Row(key="atan", what="element-wise arc tangent", torch="torch.atan(x)", nd="nd.arctan(x)",
        np="mx.np.arctan(x)", status=RENAMED, api="nd.arctan, mx.np.arctan",
        seed_torch="x.atan()或torch.atan(x)", seed_mxnet="nd.arctan(x)", verdict="right"),
    Row(key="atan2", what="element-wise arc tangent of y/x with the quadrant",
        torch="torch.atan2(y, x)", nd=None, np="mx.np.arctan2(y, x)", status=RENAMED,
        api="mx.np.arctan2", seed_torch="x.atan2(y)或torch.atan2(x, y)", seed_mxnet=NOT_AVAILABLE,
        verdict="stale: mx.np.arctan2 exists (mx.nd has none: x.as_np_ndarray() gets there)"),
    Row(key="bmm", what="batched matrix product", torch="torch.bmm(b1, b2)",
        nd="nd.linalg.gemm2(b1, b2)", np="mx.np.matmul(b1, b2)", status=RENAMED,
        api="nd.linalg.gemm2, nd.batch_dot, mx.np.matmul", seed_torch="x.bmm(y)或torch.bmm(x, y)",
        seed_mxnet="nd.linalg_gemm2(x, y)", verdict="right (nd.batch_dot too)", atol=1e-5),
    Row(key="bernoulli", what="0/1 samples with probability p",
        torch="torch.full((N,), 0.3).bernoulli()", nd="(nd.random.uniform(shape=(N,)) < 0.3)",
        np="npx.random.bernoulli(prob=0.3, size=(N,))", status=RENAMED,
        api="npx.random.bernoulli", seed_torch="x.bernoulli()", seed_mxnet=NOT_AVAILABLE,
        verdict="stale: npx.random.bernoulli exists; in mx.nd, compare uniform samples with p",
        kind="random", stat=_mean(0.3, 0.02)),
    Row(key="cauchy_", what="fill with Cauchy(median 0, scale 1) samples, in place",
        spelling="torch.empty(n).cauchy_()",
        torch=_d("""
            u = torch.empty(N)
            assert u.cauchy_() is u  # in place
            u"""),
        nd=_d("""
            u = nd.empty((N,))
            u[:] = nd.tan(math.pi * (nd.random.uniform(shape=(N,)) - 0.5))
            u"""),
        np=None, status=COMPOSITE, api="nd.random.uniform + nd.tan (inverse CDF)",
        seed_torch="x.cauchy_()", seed_mxnet=NOT_AVAILABLE,
        verdict="right: still no sampler in 1.9.1; the inverse CDF tan(π(U − ½)) is exact",
        kind="random", stat=_median_iqr),
    Row(key="chunk", what="split into n pieces along a dimension", torch="w.chunk(2, dim=0)",
        nd="nd.split(w, num_outputs=2, axis=0)", np="mx.np.array_split(w, 2, axis=0)",
        status=SEMANTICS, api="nd.split, mx.np.split, mx.np.array_split",
        seed_torch="x.chunk(num_of_chunk)", seed_mxnet="nd.split(x, num_outputsnum_of_chunk)",
        verdict="right, but nd.split's default axis is 1 (chunk's is 0) and it needs equal pieces; "
        "torch.chunk allows a smaller last piece (mx.np.array_split)"),
    Row(key="clamp", what="clip values to [min, max]", torch="x.clamp(-0.5, 0.5)",
        nd="nd.clip(x, -0.5, 0.5)", np="mx.np.clip(x, -0.5, 0.5)", status=RENAMED,
        api="nd.clip, mx.np.clip", seed_torch="x.clamp(min, max)",
        seed_mxnet="nd.clip(x, min, max)", verdict="right"),
    Row(key="clone", what="a copy that owns its memory", torch="x.clone()", nd="x.copy()",
        np="x.copy()", status=RENAMED, api="NDArray.copy", seed_torch="x.clone()",
        seed_mxnet="x.copy()", verdict="right"),
    Row(key="cross", what="cross product of 3-vectors along the last dimension",
        torch="torch.linalg.cross(a3, b3)",
        nd=_d("""
            i, j = nd.array([1, 2, 0]), nd.array([2, 0, 1])
            (nd.take(a3, i, axis=-1) * nd.take(b3, j, axis=-1)
             - nd.take(a3, j, axis=-1) * nd.take(b3, i, axis=-1))"""),
        np=None, status=COMPOSITE, api="nd.take (component formula)", seed_torch="x.cross(y)",
        seed_mxnet=NOT_AVAILABLE,
        verdict="right: still missing in 1.9.1 (no nd.cross, no mx.np.cross); the component formula works"),
    Row(key="cumprod", what="cumulative product along a dimension", torch="x.cumprod(dim=1)",
        nd=None, np="mx.np.nancumprod(x, axis=1)", status=COMPOSITE, api="mx.np.nancumprod",
        seed_torch="x.cumprod(1)", seed_mxnet=NOT_AVAILABLE,
        verdict="stale: no cumprod in 1.9.1, but mx.np.nancumprod equals it for NaN-free input"),
    Row(key="cumsum", what="cumulative sum along a dimension", torch="x.cumsum(dim=1)",
        nd="nd.cumsum(x, axis=1)", np="mx.np.cumsum(x, axis=1)", status=SAME,
        api="nd.cumsum, mx.np.cumsum", seed_torch="x.cumsum(1)", seed_mxnet=NOT_AVAILABLE,
        verdict="stale: nd.cumsum and mx.np.cumsum exist"),
    Row(key="data_ptr", what="address of the first element",
        spelling="x.data_ptr()",
        torch=_d("""
            p = x.data_ptr()
            (p, torch.utils.dlpack.from_dlpack(x).data_ptr())"""),
        nd=_d("""
            import ctypes
            p = ctypes.c_void_p()
            mx.base._LIB.MXNDArrayGetData(x.handle, ctypes.byref(p))  # the C API
            (p.value, x.to_dlpack_for_read())"""),
        np=None, status=COMPOSITE, api="MXNDArrayGetData (C API), NDArray.to_dlpack_for_read",
        seed_torch="x.data_ptr()", seed_mxnet=NOT_AVAILABLE,
        verdict="right: no data_ptr(); the C API MXNDArrayGetData gives the address, and a "
        "DLPack capsule shares the buffer without copying",
        kind="custom", judge=_same_pointer),
    Row(key="diag", what="diagonal of a matrix (or a diagonal matrix from a vector)",
        torch="torch.diag(x)", nd="nd.diag(x)", np="mx.np.diag(x)", status=SAME,
        api="nd.diag, mx.np.diag", seed_torch="x.diag()", seed_mxnet=NOT_AVAILABLE,
        verdict="stale: nd.diag and mx.np.diag exist"),
    Row(key="dist", what="p-norm of the difference x − y", torch="torch.dist(x, y)",
        nd="nd.norm(x - y).asscalar()", np="mx.np.linalg.norm(x - y)", status=COMPOSITE,
        api="nd.norm, mx.np.linalg.norm", seed_torch="x.dist()",
        seed_mxnet="nd.norm(x)仅计算 L2 范数",
        verdict="wrong: dist is the norm of a difference (x.dist() without y raises); nd.norm "
        "takes ord=1 or 2"),
    Row(key="erf", what="Gauss error function", torch="torch.erf(x)", nd="nd.erf(x)",
        np="npx.erf(x)", status=SAME, api="nd.erf, npx.erf", seed_torch="x.erf()",
        seed_mxnet=NOT_AVAILABLE, verdict="stale: nd.erf and npx.erf exist"),
    Row(key="expand", what="broadcast to a larger shape without copying",
        torch="v2.expand(3, 4)", nd="v2.broadcast_to((3, 4))",
        np="mx.np.broadcast_to(v2, (3, 4))", status=RENAMED,
        api="NDArray.broadcast_to, mx.np.broadcast_to", seed_torch="x.expand(3, 4)",
        seed_mxnet="x.broadcast_to([3, 4])", verdict="right (shape as a tuple or list)"),
    Row(key="exponential_", what="fill with Exponential(rate λ) samples",
        spelling="torch.empty(n).exponential_(rate)",
        torch=_d("""
            u = torch.empty(N)
            assert u.exponential_(4.0) is u  # in place; 4.0 is the rate
            u"""),
        nd=_d("""
            u = nd.empty((N,))
            nd.random_exponential(lam=4.0, shape=(N,), out=u)  # in place via out=
            u"""),
        np="mx.np.random.exponential(scale=1 / 4.0, size=(N,))", status=SEMANTICS,
        api="nd.random_exponential, nd.random.exponential, mx.np.random.exponential",
        seed_torch="x.exponential_()", seed_mxnet="nd.random_exponential()",
        verdict="right name, but mind the parameter: nd.random_exponential(lam=rate), while "
        "nd.random.exponential and mx.np.random.exponential take scale = 1/rate",
        kind="random", stat=_mean(0.25, 0.01)),
    Row(key="fmod", what="C-style remainder (sign of the dividend)", torch="torch.fmod(x, 0.3)",
        nd="nd.sign(x) * nd.modulo(nd.abs(x), 0.3)", np=None, status=COMPOSITE,
        api="nd.modulo (= torch.remainder)", seed_torch="x.fmod(3)",
        seed_mxnet="nd.module(x, 3)",
        verdict="wrong: nd.module does not exist; nd.modulo exists but is Python's % "
        "(torch.remainder), which differs from fmod for negative x",
        atol=1e-6),
    Row(key="frac", what="fractional part, sign kept", torch="torch.frac(x)",
        nd="x - nd.trunc(x)", np="x - mx.np.trunc(x)", status=COMPOSITE,
        api="nd.trunc, mx.np.trunc", seed_torch="x.frac()", seed_mxnet="x - nd.trunc(x)",
        verdict="right"),
    Row(key="gather", what="out[i][j] = x[i][index[i][j]]",
        torch="torch.gather(g, 1, torch.tensor([[0, 0], [1, 0]]))",
        nd="nd.gather_nd(g, nd.array([[[0, 0], [1, 1]], [[0, 0], [1, 0]]]))",
        np="mx.np.take_along_axis(g, mx.np.array([[0, 0], [1, 0]], dtype='int64'), axis=1)",
        status=SEMANTICS, api="nd.gather_nd, nd.pick, mx.np.take_along_axis",
        seed_torch="torch.gather(x, 1, torch.LongTensor([[0,0],[1,0]]))",
        seed_mxnet="nd.gather_nd(x, nd.array([[[0,0],[1,1]],[[0,0],[1,0]]]))",
        verdict="right: gather_nd wants the full coordinates (row indices, then column indices); "
        "mx.np.take_along_axis takes torch's index directly"),
    Row(key="gels", what="least-squares solution of A·X ≈ B",
        torch="torch.linalg.lstsq(A, B).solution", nd=None,
        np="mx.np.linalg.lstsq(A, B, rcond=None)[0]", status=RENAMED, api="mx.np.linalg.lstsq",
        seed_torch="B.gels(A)", seed_mxnet=NOT_AVAILABLE,
        verdict="stale on both sides: torch.gels was removed (torch.linalg.lstsq), and "
        "mx.np.linalg.lstsq exists",
        rtol=1e-4, atol=1e-5),
    Row(key="geometric_", what="fill with Geometric(p) samples on {1, 2, …}",
        spelling="torch.empty(n).geometric_(p)",
        torch=_d("""
            u = torch.empty(N)
            assert u.geometric_(0.25) is u  # in place
            u"""),
        nd=_d("""
            u = nd.empty((N,))
            u[:] = nd.ceil(nd.log(1 - nd.random.uniform(shape=(N,))) / math.log(0.75))
            u"""),
        np=None, status=COMPOSITE, api="nd.random.uniform + nd.log (inverse CDF)",
        seed_torch="x.geometric_(p)", seed_mxnet=NOT_AVAILABLE,
        verdict="right: still no sampler in 1.9.1; ceil(log(1 − U) / log(1 − p)) is exact",
        kind="random", stat=_mean(4.0, 0.1)),
    Row(key="device", what="which device holds the tensor", torch="x.device", nd="x.context",
        np="x.ctx", status=RENAMED, api="NDArray.context, NDArray.ctx",
        seed_torch="print(x)会打印设备信息", seed_mxnet="x.context",
        verdict="right; torch also has x.device (print shows it only off the CPU)",
        kind="custom", judge=_same_device_kind),
    Row(key="repeat", what="tile the whole tensor", torch="w.repeat(4, 2)", nd="w.tile((4, 2))",
        np="mx.np.tile(w, (4, 2))", status=RENAMED, api="NDArray.tile, mx.np.tile",
        seed_torch="x.repeat(4, 2)", seed_mxnet="x.tile(4, 2)",
        verdict="right idea, but tile takes one tuple: tile(4, 2) raises; beware nd.repeat, which "
        "repeats elements like torch.repeat_interleave"),
    Row(key="type()", what="the element type", torch="x.type()", nd="x.dtype", np="x.dtype",
        status=SEMANTICS, api="NDArray.dtype", seed_torch="x.type()", seed_mxnet="x.dtype",
        verdict="right; torch's type() is a string such as 'torch.FloatTensor', MXNet's dtype a "
        "numpy type (torch's x.dtype is torch.float32)",
        kind="custom", judge=_same_type_name),
    Row(key="scatter_", what="write a value at given positions",
        torch="torch.zeros(2, 4).scatter_(1, torch.tensor([[2], [3]]), 1.23)",
        nd="nd.scatter_nd(nd.array([1.23, 1.23]), nd.array([[0, 1], [2, 3]]), (2, 4))", np=None,
        status=SEMANTICS, api="nd.scatter_nd",
        seed_torch="torch.zeros(2, 4).scatter_(1, torch.LongTensor([[2], [3]]), 1.23)",
        seed_mxnet="nd.scatter_nd(nd.array([1.23,1.23]), nd.array([[0,1],[2,3]]), (2,4))",
        verdict="right, but scatter_nd builds a new zero-filled array from full coordinates; "
        "it is not in place"),
    Row(key="size()", what="the shape", torch="x.size()", nd="x.shape", np="x.shape",
        status=RENAMED, api="NDArray.shape", seed_torch="x.size()", seed_mxnet="x.shape",
        verdict="right: torch.Size is a tuple subclass", kind="custom", judge=_same_shape_tuple),
    Row(key="numel", what="number of elements", torch="x.numel()", nd="x.size", np="x.size",
        status=SEMANTICS, api="NDArray.size", seed_torch="x.numel()", seed_mxnet="x.size",
        verdict="right, and a trap: MXNet's size is torch's numel(), torch's size() is the shape",
        kind="custom", judge=_same_int),
    Row(key="numpy()", what="to a numpy array",
        spelling="x.numpy()",
        mx_spelling="x.asnumpy()",
        torch=_d("""
            arr = x.numpy()
            arr[0, 0] = 42.0
            (arr, bool(x[0, 0] == 42.0))"""),
        nd=_d("""
            arr = x.asnumpy()
            arr[0, 0] = 42.0
            (arr, bool(x[0, 0].asscalar() == 42.0))"""),
        np=_d("""
            arr = x.asnumpy()
            arr[0, 0] = 42.0
            (arr, bool(x[0, 0].item() == 42.0))"""),
        status=SEMANTICS, api="NDArray.asnumpy", seed_torch="x.numpy()",
        seed_mxnet="x.asnumpy()",
        verdict="right name; numpy() shares memory with the tensor, asnumpy() copies",
        kind="custom", judge=_numpy_copy_semantics),
    Row(key="symeig", what="eigen-decomposition of a symmetric matrix",
        torch="torch.linalg.eigh(S)",
        nd=_d("""
            u, lam = nd.linalg.syevd(S)  # rows of u are eigenvectors
            (lam, u.T)"""),
        np="mx.np.linalg.eigh(S)", status=RENAMED, api="nd.linalg.syevd, mx.np.linalg.eigh",
        seed_torch="e, v a.symeig()", seed_mxnet="v, e nd.linalg.syevd(a)",
        verdict="right order (vectors first), but syevd returns eigenvectors as rows (transpose to "
        "compare); torch.symeig was removed: torch.linalg.eigh",
        kind="custom", judge=_eigh_match),
    Row(key="t()", what="transpose a matrix", torch="x.t()", nd="x.T", np="x.T", status=RENAMED,
        api="NDArray.T, nd.transpose", seed_torch="x.t()", seed_mxnet="x.T",
        verdict="right (torch has x.T as well)"),
    Row(key="uniform_", what="fill with Uniform(low, high) samples, in place",
        spelling="torch.empty(n).uniform_(a, b)",
        torch=_d("""
            u = torch.empty(N)
            assert u.uniform_(-1, 1) is u  # in place
            u"""),
        nd=_d("""
            u = nd.empty((N,))
            nd.random.uniform(-1, 1, shape=(N,), out=u)  # in place via out=
            u"""),
        np="mx.np.random.uniform(-1, 1, size=(N,))", status=RENAMED,
        api="nd.random.uniform, mx.np.random.uniform", seed_torch="torch.uniform_()",
        seed_mxnet="nd.sample_uniform()",
        verdict="wrong: torch.uniform_ is a Tensor method (or torch.nn.init.uniform_); "
        "nd.sample_uniform draws one sample set per (low, high) pair; the plain "
        "equivalent is nd.random.uniform(out=...)",
        kind="random", stat=_mean(0.0, 0.02)),
    Row(key="unsqueeze", what="insert a dimension of size 1", torch="x.unsqueeze(1)",
        nd="nd.expand_dims(x, axis=1)", np="mx.np.expand_dims(x, 1)", status=RENAMED,
        api="nd.expand_dims, mx.np.expand_dims", seed_torch="x.unsqueeze()",
        seed_mxnet="nd.expand_dims(x)",
        verdict="right names; both need the dimension (x.unsqueeze() without it raises)"),
    Row(key="view", what="reshape (sharing memory)", torch="w.view(16)", nd="w.reshape((16,))",
        np="w.reshape(16)", status=RENAMED, api="NDArray.reshape, mx.np.reshape",
        seed_torch="x.view(16)", seed_mxnet="x.reshape((16,))",
        verdict="right; mind nd.reshape's special codes (0 keeps a dimension, -2/-3/-4) that "
        "mean something else in torch"),
    Row(key="view_as", what="reshape to another tensor's shape", torch="x.view_as(z)",
        nd="x.reshape_like(z)", np="x.reshape(z.shape)", status=RENAMED,
        api="NDArray.reshape_like, npx.reshape_like", seed_torch="x.view_as(y)",
        seed_mxnet="x.reshape_like(y)", verdict="right"),
    Row(key="type(dtype)", what="cast to another element type", torch="x.type(torch.float64)",
        nd="x.astype('float64')", np="x.astype('float64')", status=RENAMED, api="NDArray.astype",
        seed_torch="x.type(type)", seed_mxnet="x.astype(dtype)",
        verdict="right (torch also has x.to(dtype))"),
    Row(key="copy_", what="copy values into an existing tensor",
        spelling="dst.copy_(x)",
        mx_spelling="x.copyto(dst)",
        torch=_d("""
            dst = torch.zeros(3, 4)
            assert dst.copy_(x) is dst  # in place
            dst"""),
        nd=_d("""
            dst = nd.zeros((3, 4))
            x.copyto(dst)  # source first
            dst"""),
        np=_d("""
            dst = mx.np.zeros((3, 4))
            dst[:] = x
            dst"""),
        status=RENAMED, api="NDArray.copyto", seed_torch="dst.copy_(src)",
        seed_mxnet="src.copyto(dst)", verdict="right: the direction flips"),
    Row(key="zeros", what="a tensor of zeros", torch="torch.zeros(2, 3)", nd="nd.zeros((2, 3))",
        np="mx.np.zeros((2, 3))", status=SAME, api="nd.zeros, mx.np.zeros",
        seed_torch="x torch.zeros(2, 3)", seed_mxnet="x nd.zeros((2, 3))",
        verdict="right (the shape is one tuple)"),
    Row(key="ones", what="a tensor of ones", torch="torch.ones(2, 3)", nd="nd.ones((2, 3))",
        np="mx.np.ones((2, 3))", status=SAME, api="nd.ones, mx.np.ones",
        seed_torch="x torch.ones(2, 3)", seed_mxnet="x nd.ones((2, 3))",
        verdict="right (the shape is one tuple)"),
    Row(key="ones_like", what="ones with another tensor's shape", torch="torch.ones_like(x)",
        nd="nd.ones_like(x)", np="mx.np.ones_like(x)", status=SAME,
        api="nd.ones_like, mx.np.ones_like", seed_torch="y torch.ones_like(x)",
        seed_mxnet="y nd.ones_like(x)", verdict="right"),
    # ------------------------------------------------ added for the capstones' ports (not the seed's)
    Row(key="randn", what="standard normal samples of a given shape", torch="torch.randn(N)",
        nd="nd.random.normal(shape=(N,))", np="mx.np.random.normal(size=(N,))", status=RENAMED,
        api="nd.random.normal, nd.random.randn, mx.np.random.normal",
        verdict="the shape is a keyword: shape= (a tuple) in mx.nd, size= in mx.np; "
        "nd.random.randn(*shape) also exists",
        kind="random", stat=_mean_std(0.0, 1.0, 0.03), source=PORTS),
    Row(key="randn_like", what="standard normal samples with another tensor's shape and dtype",
        spelling="torch.randn_like(u)",
        torch=_d("""
            u = torch.zeros(N, dtype=torch.float64)
            torch.randn_like(u)"""),
        nd=_d("""
            u = nd.zeros((N,), dtype='float64')
            nd.random.normal_like(u)"""),
        np=_d("""
            u = mx.np.zeros((N,), dtype='float64')
            mx.np.random.normal(size=u.shape, dtype=u.dtype)"""),
        status=RENAMED, api="nd.random.normal_like, mx.np.random.normal",
        verdict="nd.random.normal_like exists in 1.9.1 and keeps the input's dtype (float64 here); "
        "mx.np has no _like sampler: pass size=u.shape, dtype=u.dtype",
        kind="random", stat=_mean_std(0.0, 1.0, 0.03), source=PORTS),
    Row(key="rand", what="Uniform[0, 1) samples of a given shape", torch="torch.rand(N)",
        nd="nd.random.uniform(shape=(N,))", np="mx.np.random.uniform(size=(N,))", status=RENAMED,
        api="nd.random.uniform, mx.np.random.uniform",
        verdict="the default range is [0, 1) in both; the shape is a keyword (shape= / size=)",
        kind="random", stat=_mean_std(0.5, math.sqrt(1 / 12), 0.01, support=(0.0, 1.0)),
        source=PORTS),
    Row(key="rand_like", what="Uniform[0, 1) samples with another tensor's shape and dtype",
        spelling="torch.rand_like(u)",
        torch=_d("""
            u = torch.zeros(N, dtype=torch.float64)
            torch.rand_like(u)"""),
        nd=_d("""
            u = nd.zeros((N,), dtype='float64')
            nd.random.uniform_like(u)"""),
        np=_d("""
            u = mx.np.zeros((N,), dtype='float64')
            mx.np.random.uniform(size=u.shape, dtype=u.dtype)"""),
        status=RENAMED, api="nd.random.uniform_like, mx.np.random.uniform",
        verdict="nd.random.uniform_like exists in 1.9.1 and keeps the input's dtype; mx.np has no "
        "_like sampler: pass size=u.shape, dtype=u.dtype",
        kind="random", stat=_mean_std(0.5, math.sqrt(1 / 12), 0.01, support=(0.0, 1.0)),
        source=PORTS),
    Row(key="cat", what="join tensors along an existing dimension",
        torch="torch.cat((x, y), dim=0)", nd="nd.concat(x, y, dim=0)",
        np="mx.np.concatenate((x, y), axis=0)", status=SEMANTICS,
        api="nd.concat, mx.np.concatenate",
        verdict="nd.concat's dim defaults to 1, torch.cat's to 0: always pass dim=. nd.concat takes "
        "the arrays unpacked (nd.concat(*arrays); a list raises) and its keyword is dim, not "
        "axis; mx.np.concatenate takes a sequence and defaults to axis 0 like torch",
        source=PORTS),
    Row(key="stack", what="join tensors along a new dimension",
        torch="torch.stack((x, y), dim=1)", nd="nd.stack(x, y, axis=1)",
        np="mx.np.stack((x, y), axis=1)", status=SAME, api="nd.stack, mx.np.stack",
        verdict="the default is axis 0 in all three; nd.stack takes the arrays unpacked "
        "(nd.stack(*arrays); a list raises)",
        source=PORTS),
    Row(key="sigmoid", what="element-wise logistic function", torch="torch.sigmoid(x)",
        nd="nd.sigmoid(x)", np="npx.sigmoid(x)", status=SAME, api="nd.sigmoid, npx.sigmoid",
        verdict="same name (in npx for mx.np)", source=PORTS),
    Row(key="relu", what="element-wise max(x, 0)", torch="torch.relu(x)", nd="nd.relu(x)",
        np="npx.relu(x)", status=SAME, api="nd.relu, npx.relu",
        verdict="same name (in npx for mx.np)", source=PORTS),
    Row(key="tanh", what="element-wise hyperbolic tangent", torch="torch.tanh(x)",
        nd="nd.tanh(x)", np="mx.np.tanh(x)", status=SAME, api="nd.tanh, mx.np.tanh",
        verdict="same name", source=PORTS),
    Row(key="log", what="element-wise natural logarithm", torch="torch.log(t2)", nd="nd.log(t2)",
        np="mx.np.log(t2)", status=SAME, api="nd.log, mx.np.log",
        verdict="same name (the input here is positive)", source=PORTS),
    Row(key="softmax", what="softmax along a dimension", torch="torch.softmax(x, dim=0)",
        nd="nd.softmax(x, axis=0)", np="npx.softmax(x, axis=0)", status=SAME,
        api="nd.softmax, npx.softmax",
        verdict="pass the axis: MXNet's defaults to -1, torch.softmax has no default (and "
        "torch.nn.functional.softmax without dim warns and picks 0 for 0-, 1- and 3-d input, "
        "1 otherwise)",
        source=PORTS),
    Row(key="double()", what="cast every parameter of a model to float64",
        spelling="net.double()",
        mx_spelling="net.cast('float64')",
        torch=_d("""
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
        nd=_d("""
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
        np=None, status=RENAMED, api="Block.cast",
        verdict="cast(dtype) changes every parameter, BatchNorm's running statistics included; a "
        "parameter still deferred gets the dtype and is created with it at the first "
        "forward. cast returns None (net = net.cast(...) loses the net); the input must then "
        "be float64 too (a float32 input raises, as in torch)",
        kind="custom", judge=_all_cast_to_float64, source=PORTS),
    Row(key="make_grid", what="tile a batch of images into one image (torchvision.utils)",
        spelling="torchvision.utils.make_grid(imgs, nrow=8, padding=2)",
        torch=_d("""
            import torchvision.utils
            grey = imgs[:, :1]  # one channel
            (torchvision.utils.make_grid(imgs),  # ten RGB images, 8 per row, padding 2
             torchvision.utils.make_grid(grey, nrow=4),
             torchvision.utils.make_grid(grey[:7], nrow=3, padding=1, pad_value=0.5),
             torchvision.utils.make_grid(imgs[:1]))  # a lone image"""),
        nd=_MAKE_GRID_ND + "\n" + _d("""
            grey = imgs[:, :1]
            (make_grid(imgs), make_grid(grey, nrow=4),
             make_grid(grey[:7], nrow=3, padding=1, pad_value=0.5), make_grid(imgs[:1]))"""),
        np=None, status=COMPOSITE, api="none (nd.full + slice assignment)",
        verdict="no MXNet equivalent (nothing in mx.image or gluon.utils); the function in the "
        "row gives the same grid as torchvision's, pixel for pixel, for three-channel and "
        "one-channel batches (a single channel is repeated three times), any nrow, padding "
        "and pad value, and a lone image (returned without padding)",
        rtol=0.0, atol=0.0, source=PORTS),
    Row(key="save_image", what="write a batch of images as one PNG grid (torchvision.utils)",
        spelling="torchvision.utils.save_image(imgs, 'grid.png')",
        torch=_d("""
            import os, tempfile, torchvision.utils
            from PIL import Image
            def png_of(batch, **grid):
                with tempfile.TemporaryDirectory() as d:
                    torchvision.utils.save_image(batch, os.path.join(d, 'grid.png'), **grid)
                    return torch.from_numpy(onp.array(Image.open(os.path.join(d, 'grid.png'))))
            (png_of(imgs), png_of(imgs[:, :1], nrow=4))  # height, width, RGB"""),
        nd=_MAKE_GRID_ND + "\n" + _d("""
            import os, tempfile
            from PIL import Image  # mx.image reads images but has no writer
            def png_of(batch, **grid):
                pixels = (make_grid(batch, **grid) * 255 + 0.5).clip(0, 255).astype('uint8')
                with tempfile.TemporaryDirectory() as d:  # + 0.5: save_image's rounding
                    Image.fromarray(pixels.transpose((1, 2, 0)).asnumpy()).save(
                        os.path.join(d, 'grid.png'))
                    return mx.image.imread(os.path.join(d, 'grid.png'))
            (png_of(imgs), png_of(imgs[:, :1], nrow=4))  # height, width, RGB"""),
        np=None, status=COMPOSITE, api="mx.image.imread + PIL.Image.save",
        verdict="no MXNet equivalent: build the grid as in the make_grid row, round as "
        "save_image does (× 255 + 0.5, clip, uint8: without the + 0.5 about half the values "
        "come out one lower), write it with PIL; read back with mx.image.imread it equals "
        "save_image's PNG pixel for pixel, for three-channel and one-channel batches",
        rtol=0.0, atol=0.0, source=PORTS),
    # ------------------------------------ added for names the other notebooks use (not the seed's)
    Row(key="detach", what="the same values, cut off from the autograd graph",
        spelling="x.detach()",
        mx_spelling="x.detach()",
        torch=_d("""
            u = x.clone().requires_grad_()
            (u.detach() * u).sum().backward()  # the detached factor is a constant
            u.grad"""),
        nd=_d("""
            u = x.copy()
            u.attach_grad()
            with mx.autograd.record():
                y = (u.detach() * u).sum()
            y.backward()
            u.grad"""),
        np=_d("""
            u = x.copy()
            u.attach_grad()
            with mx.autograd.record():
                y = (u.detach() * u).sum()
            y.backward()
            u.grad"""),
        status=SAME, api="NDArray.detach, mx.np.ndarray.detach",
        verdict="same name: the gradient flows through the other factor only (u, not 2u). "
        "torch's numpy() on a tensor that requires grad raises and asks for detach() first; "
        "MXNet's asnumpy() never does", source=BOOK),
    Row(key="narrow", what="a slice of one dimension, given its start and length",
        torch="x.narrow(1, 1, 2)", nd="nd.slice_axis(x, axis=1, begin=1, end=3)",
        np="x[:, 1:3]", status=RENAMED, api="nd.slice_axis, NDArray.slice_axis",
        verdict="narrow(dim, start, length) is slice_axis(axis, begin=start, end=start + "
        "length); torch's result is a view of the same memory, MXNet's a copy", source=BOOK),
    Row(key="contiguous", what="row-major memory for a transposed tensor, then a view",
        spelling="x.t().contiguous().view(12)",
        torch=_d("""
            u = x.t()
            assert not u.is_contiguous()  # so u.view(12) raises
            u.contiguous().view(12)"""),
        nd="x.T.reshape((12,))", np="x.T.reshape(12)", status=COMPOSITE,
        api="none needed (.T copies: every NDArray is contiguous)",
        verdict="MXNet has no strided views: .T, slice_axis and slicing copy, so every array "
        "is contiguous and reshape always works; in torch, view() of a transposed tensor "
        "raises until contiguous() (reshape() copies when it must)", source=BOOK),
    Row(key="new_zeros", what="zeros of a new shape with another tensor's dtype and device",
        spelling="x.new_zeros((2, 3))",
        torch=_d("""
            u = x.double()
            u.new_zeros((2, 3))"""),
        nd=_d("""
            u = x.astype('float64')
            assert nd.zeros((2, 3)).dtype == onp.float32  # without dtype=
            nd.zeros((2, 3), ctx=u.context, dtype=u.dtype)"""),
        np=_d("""
            u = x.astype('float64')
            mx.np.zeros((2, 3), dtype=u.dtype, ctx=u.ctx)"""),
        status=COMPOSITE, api="nd.zeros, mx.np.zeros (ctx=, dtype=)",
        verdict="no new_* methods: pass the model tensor's dtype and context (float32 on the "
        "default context otherwise); new_ones, new_full (nd.full) and new_empty alike",
        source=BOOK),
    Row(key="full", what="a tensor filled with one value",
        torch="torch.full((2, 3), 0.5)", nd="nd.full((2, 3), 0.5)", np="mx.np.full((2, 3), 0.5)",
        status=SAME, api="nd.full, mx.np.full", verdict="same name; the shape is one tuple",
        source=BOOK),
    Row(key="tensor", what="a tensor from Python integers",
        spelling="torch.tensor([[1, 2], [3, 4]])",
        mx_spelling="nd.array([[1, 2], [3, 4]], dtype='int64')",
        torch=_d("""
            u = torch.tensor([[1, 2], [3, 4]])
            assert u.dtype == torch.int64
            u"""),
        nd=_d("""
            assert nd.array([[1, 2], [3, 4]]).dtype == onp.float32  # not int64
            nd.array([[1, 2], [3, 4]], dtype='int64')"""),
        np=_d("""
            assert mx.np.array([[1, 2], [3, 4]]).dtype == onp.float32
            mx.np.array([[1, 2], [3, 4]], dtype='int64')"""),
        status=SEMANTICS, api="nd.array, mx.np.array (dtype=)",
        verdict="nd.array and mx.np.array make float32 from Python integers (torch.tensor "
        "int64, numpy int64): pass dtype= for indices and labels", source=BOOK),
    Row(key="arange", what="evenly spaced integers",
        mx_spelling="nd.arange(5, dtype='int64')",
        torch="torch.arange(5)",
        nd=_d("""
            assert nd.arange(5).dtype == onp.float32
            nd.arange(5, dtype='int64')"""),
        np=_d("""
            assert mx.np.arange(5).dtype == onp.float32
            mx.np.arange(5, dtype='int64')"""),
        status=SEMANTICS, api="nd.arange, mx.np.arange (dtype=)",
        verdict="the same name, another dtype: MXNet's arange is float32 (torch's and "
        "numpy's int64 for integer arguments): pass dtype='int64' where the values index",
        source=BOOK),
    Row(key="linspace", what="evenly spaced values over an interval, ends included",
        torch="torch.linspace(0, 1, 5)", nd="nd.linspace(0, 1, 5)",
        np="mx.np.linspace(0, 1, 5)", status=SAME, api="nd.linspace, mx.np.linspace",
        verdict="same name and arguments (start, stop, count)", source=BOOK),
    Row(key="exp", what="element-wise exponential", torch="torch.exp(x)", nd="nd.exp(x)",
        np="mx.np.exp(x)", status=SAME, api="nd.exp, mx.np.exp",
        verdict="same name (x.exp() too)", source=BOOK),
    Row(key="pow", what="element-wise power", torch="torch.pow(t2, 1.5)",
        nd="nd.power(t2, 1.5)", np="mx.np.power(t2, 1.5)", status=RENAMED,
        api="nd.power, mx.np.power", verdict="pow is power in MXNet (t2 ** 1.5 works in all "
        "three)", source=BOOK),
    Row(key="sqrt", what="element-wise square root", torch="torch.sqrt(t2)", nd="nd.sqrt(t2)",
        np="mx.np.sqrt(t2)", status=SAME, api="nd.sqrt, mx.np.sqrt", verdict="same name",
        source=BOOK),
    Row(key="abs", what="element-wise absolute value", torch="torch.abs(x)", nd="nd.abs(x)",
        np="mx.np.abs(x)", status=SAME, api="nd.abs, mx.np.abs", verdict="same name",
        source=BOOK),
    Row(key="maximum", what="element-wise larger of two tensors", torch="torch.maximum(x, y)",
        nd="nd.maximum(x, y)", np="mx.np.maximum(x, y)", status=SAME,
        api="nd.maximum, mx.np.maximum", verdict="same name", source=BOOK),
    Row(key="log_softmax", what="log of the softmax along a dimension",
        torch="torch.log_softmax(x, dim=1)", nd="nd.log_softmax(x, axis=1)",
        np="npx.log_softmax(x, axis=1)", status=SAME, api="nd.log_softmax, npx.log_softmax",
        verdict="same name; axis= for dim= (MXNet's default is -1)", source=BOOK),
    Row(key="sum", what="sum along a dimension, keeping it",
        torch="x.sum(dim=1, keepdim=True)", nd="nd.sum(x, axis=1, keepdims=True)",
        np="mx.np.sum(x, axis=1, keepdims=True)", status=RENAMED, api="nd.sum, mx.np.sum",
        verdict="dim=/keepdim= become axis=/keepdims= (mean, max, min and prod alike); an "
        "unknown keyword raises", source=BOOK),
    Row(key="prod", what="product along a dimension", torch="x.prod(dim=1)",
        nd="nd.prod(x, axis=1)", np="mx.np.prod(x, axis=1)", status=SAME,
        api="nd.prod, mx.np.prod", verdict="same name; axis= for dim=", source=BOOK),
    Row(key="std", what="standard deviation along a dimension (unbiased, as torch's default)",
        torch="x.std(dim=1)",
        nd=_d("""
            u = x - x.mean(axis=1, keepdims=True)
            nd.sqrt((u * u).sum(axis=1) / (x.shape[1] - 1))  # no nd.std in 1.9.1"""),
        np=_d("""
            u = mx.np.std(x, axis=1, ddof=1)
            assert float(mx.np.abs(mx.np.std(x, axis=1) - u).max()) > 0.01  # default ddof=0
            u"""),
        status=SEMANTICS, api="mx.np.std (ddof=1)",
        verdict="torch's std divides by n − 1, mx.np.std (like numpy) by n unless ddof=1; "
        "mx.nd has no std: compose it", source=BOOK),
    Row(key="argmax", what="index of the largest value along a dimension",
        torch="x.argmax(dim=1)",
        nd=_d("""
            i = nd.argmax(x, axis=1)
            assert i.dtype == onp.float32  # float indices
            i.astype('int64')"""),
        np="mx.np.argmax(x, axis=1)", status=SEMANTICS, api="nd.argmax, mx.np.argmax",
        verdict="nd.argmax returns float32 indices (mx.np.argmax int64 like torch): cast "
        "before indexing or comparing with int labels", source=BOOK),
    Row(key="max", what="the largest value along a dimension, and where it is",
        torch="x.max(dim=1)",
        nd="(nd.max(x, axis=1), nd.argmax(x, axis=1).astype('int64'))",
        np="(mx.np.max(x, axis=1), mx.np.argmax(x, axis=1))", status=SEMANTICS,
        api="nd.max, nd.argmax, mx.np.max",
        verdict="torch's max(dim=) returns (values, indices); MXNet's max only the values: "
        "add argmax", source=BOOK),
    Row(key="topk", what="the k largest values along a dimension and their indices",
        torch="torch.topk(x, 2, dim=1)",
        nd=_d("""
            assert nd.topk(x, axis=1, k=2).dtype == onp.float32  # indices only, as floats
            values, indices = nd.topk(x, axis=1, k=2, ret_typ='both')
            (values, indices.astype('int64'))"""),
        np=_d("""
            values, indices = npx.topk(x, axis=1, k=2, ret_typ='both')
            (values, indices.astype('int64'))"""),
        status=SEMANTICS, api="nd.topk, npx.topk (ret_typ='both')",
        verdict="nd.topk returns only the indices unless ret_typ='both', and as float32; its "
        "axis defaults to -1 like torch's dim", source=BOOK),
    Row(key="sort", what="sorted values along a dimension, and the permutation",
        torch="torch.sort(x, dim=1)",
        nd="(nd.sort(x, axis=1), nd.argsort(x, axis=1).astype('int64'))",
        np="(mx.np.sort(x, axis=1), mx.np.argsort(x, axis=1))", status=SEMANTICS,
        api="nd.sort, nd.argsort, mx.np.sort",
        verdict="torch.sort returns (values, indices); MXNet's sort only the values: add "
        "argsort (float32 indices in mx.nd)", source=BOOK),
    Row(key="matmul", what="matrix product", torch="torch.matmul(x, w)  # x @ w, torch.mm",
        nd="nd.dot(x, w)", np="mx.np.matmul(x, w)", status=RENAMED,
        api="nd.dot, mx.np.matmul, mx.np.dot",
        verdict="nd.dot for 2-d arrays (x @ w works on NDArrays too); for a batch of "
        "matrices use nd.batch_dot or nd.linalg.gemm2 (the bmm row): nd.dot of 3-d arrays "
        "is not batched", source=BOOK),
    Row(key="permute", what="reorder all dimensions", torch="b1.permute(2, 0, 1)",
        nd="nd.transpose(b1, axes=(2, 0, 1))", np="mx.np.transpose(b1, (2, 0, 1))",
        status=RENAMED, api="nd.transpose, mx.np.transpose",
        verdict="permute is MXNet's transpose with axes=; torch.transpose swaps two "
        "dimensions (the transpose row)", source=BOOK),
    Row(key="transpose", what="swap two dimensions", torch="torch.transpose(b1, 0, 2)",
        nd="nd.swapaxes(b1, 0, 2)", np="mx.np.swapaxes(b1, 0, 2)", status=SEMANTICS,
        api="nd.swapaxes, mx.np.swapaxes",
        verdict="the same name means another thing: torch.transpose(x, a, b) swaps two "
        "dimensions (MXNet's swapaxes), nd.transpose(x, axes) reorders them all (permute)",
        source=BOOK),
    Row(key="squeeze", what="drop the dimensions of size 1",
        torch="v2.reshape(1, 4, 1).squeeze()", nd="nd.squeeze(v2.reshape((1, 4, 1)))",
        np="mx.np.squeeze(v2.reshape((1, 4, 1)))", status=SAME, api="nd.squeeze, mx.np.squeeze",
        verdict="same name; axis= for dim=", source=BOOK),
    Row(key="flatten", what="flatten every dimension after the first",
        torch="torch.flatten(b1, start_dim=1)", nd="nd.flatten(b1)", np="npx.batch_flatten(b1)",
        status=SEMANTICS, api="nd.flatten, npx.batch_flatten, gluon.nn.Flatten",
        verdict="nd.flatten always keeps the first axis (torch.flatten(x) flattens everything: "
        "start_dim=1 matches; nn.Flatten and gluon.nn.Flatten agree)", source=BOOK),
    Row(key="split", what="split into pieces of a given size along a dimension",
        torch="torch.split(x, 1, dim=1)", nd="nd.split(x, num_outputs=4, axis=1)",
        np="mx.np.split(x, 4, axis=1)", status=SEMANTICS, api="nd.split, mx.np.split",
        verdict="torch.split's integer is the size of each piece, nd.split's num_outputs and "
        "mx.np.split's integer the number of pieces (and nd.split's axis defaults to 1)",
        source=BOOK),
    Row(key="index_select", what="select entries along a dimension by index",
        torch="torch.index_select(x, 1, torch.tensor([0, 2]))",
        nd="nd.take(x, nd.array([0, 2]), axis=1)",
        np="mx.np.take(x, mx.np.array([0, 2], dtype='int64'), axis=1)", status=RENAMED,
        api="nd.take, mx.np.take", verdict="index_select is take(axis=); nd.take accepts float "
        "indices, torch only integer ones", source=BOOK),
    Row(key="masked_fill", what="replace the entries where a mask holds",
        torch="x.masked_fill(x < 0, 0.0)", nd="nd.where(x < 0, nd.zeros_like(x), x)",
        np="mx.np.where(x < 0, 0.0, x)", status=COMPOSITE, api="nd.where, mx.np.where",
        verdict="no masked_fill: where(mask, value, x); nd.where wants an array of x's shape "
        "for the value", source=BOOK),
    Row(key="one_hot", what="one-hot rows from class indices",
        torch="torch.nn.functional.one_hot(torch.tensor([0, 3, 1]), 4)",
        nd=_d("""
            u = nd.one_hot(nd.array([0, 3, 1]), 4)
            assert u.dtype == onp.float32
            u.astype('int64')"""),
        np="npx.one_hot(mx.np.array([0, 3, 1]), 4).astype('int64')", status=SEMANTICS,
        api="nd.one_hot, npx.one_hot",
        verdict="same name, float32 rows (torch's int64): usually what a loss wants", source=BOOK),
    Row(key="unique", what="the sorted distinct values",
        torch="torch.unique(torch.round(x * 2))",
        nd="nd.array(onp.unique(nd.round(x * 2).asnumpy()))",
        np="mx.np.unique(mx.np.round(x * 2))", status=SAME, api="mx.np.unique",
        verdict="mx.np.unique exists; mx.nd has none (a host round trip, or x.as_np_ndarray())",
        source=BOOK),
    Row(key="equal", what="do two tensors hold the same values (one boolean)?",
        torch="(torch.equal(x, x.clone()), torch.equal(x, y))",
        nd="(bool((x == x.copy()).min()), bool((x == y).min()))",
        np="(bool(mx.np.array_equal(x, x.copy())), bool(mx.np.array_equal(x, y)))",
        status=COMPOSITE, api="mx.np.array_equal",
        verdict="no nd.equal of whole arrays (nd.equal is element-wise): all of x == y, after "
        "checking the shapes (== broadcasts); mx.np.array_equal does both", source=BOOK),
    Row(key="tolist", what="nested Python lists of the values",
        torch="x.tolist()", nd="x.asnumpy().tolist()", np="x.tolist()", status=COMPOSITE,
        api="NDArray.asnumpy, mx.np.ndarray.tolist",
        verdict="mx.nd has no tolist: asnumpy() first (mx.np has it)", source=BOOK),
    Row(key="randperm", what="a random permutation of 0 … n − 1",
        torch="torch.randperm(N)",
        nd=_d("""
            u = nd.random.shuffle(nd.arange(N))
            assert u.dtype == onp.float32
            u.astype('int64')"""),
        np=_d("""
            u = mx.np.arange(N, dtype='int64')
            mx.np.random.shuffle(u)  # in place; mx.np.random has no permutation
            u"""),
        status=COMPOSITE, api="nd.random.shuffle, mx.np.random.shuffle",
        verdict="no randperm: shuffle an arange (nd.random.shuffle returns a new array, "
        "float32 like nd.arange; mx.np.random.shuffle works in place)",
        kind="random", stat=_permutation, source=BOOK),
    Row(key="save", what="write named tensors to a file and read them back",
        spelling="torch.save(d, 'x.pt'); torch.load('x.pt')",
        mx_spelling="nd.save('x.params', d); nd.load('x.params')",
        torch=_d("""
            import os, tempfile
            with tempfile.TemporaryDirectory() as d:
                torch.save({'w': x, 'b': v1}, os.path.join(d, 'x.pt'))
                back = torch.load(os.path.join(d, 'x.pt'))
            (back['w'], back['b'])"""),
        nd=_d("""
            import os, tempfile
            with tempfile.TemporaryDirectory() as d:
                nd.save(os.path.join(d, 'x.params'), {'w': x, 'b': v1})  # the file first
                back = nd.load(os.path.join(d, 'x.params'))  # a dict of NDArrays
            (back['w'], back['b'])"""),
        np=None, status=RENAMED, api="nd.save, nd.load",
        verdict="nd.save(file, data) takes the file first and holds NDArrays only (a dict or "
        "a list of them, no other Python objects; mx.np arrays after npx.set_np() with "
        "npx.save/npx.load); sidebyside.convert turns a Gluon .params file into a state dict ", rtol=0.0, atol=0.0, source=BOOK),
    # the layers, losses, update rules and parameter names the other notebooks port
    Row(key="Embedding", what="look rows of a weight table up by integer index",
        spelling="torch.nn.Embedding(4, 4)",
        mx_spelling="gluon.nn.Embedding(4, 4)",
        torch=_d("""
            emb = torch.nn.Embedding(4, 4)  # 4 rows of 4
            with torch.no_grad():
                emb.weight.copy_(w)
            emb(torch.tensor([[0, 2], [3, 3]]))"""),
        nd=_d("""
            emb = mx.gluon.nn.Embedding(4, 4)
            emb.initialize()
            emb.weight.set_data(w)  # the same (input_dim, output_dim) layout
            emb(nd.array([[0, 2], [3, 3]]))"""),
        np=None, status=SAME, api="gluon.nn.Embedding, nd.Embedding",
        verdict="same name and weight layout (input_dim, output_dim): the weight copies as it "
        "is. The default initialisers differ (PyTorch N(0, 1), Gluon U(−0.07, 0.07)), and "
        "Gluon takes float indices, PyTorch integer ones only",
        table="nn", rtol=0.0, atol=0.0, source=BOOK),
    _rnn("RNN", 1, ", activation='tanh'", status=SEMANTICS, verdict=(
        "Gluon's RNN defaults to activation='relu', PyTorch's to tanh (nonlinearity=): pass "
        "it; the weights copy as they are")),
    _rnn("LSTM", 4, "", status=SAME, verdict=(
        "the same gate order (input, forget, cell, output) and two biases, so each weight "
        "copies as it is (l0_i2h_weight ↔ weight_ih_l0, l0_h2h_bias ↔ bias_hh_l0); layout "
        "'TNC' is PyTorch's default (time, batch, feature), 'NTC' batch_first=True; Gluon "
        "returns the states only when given begin_state")),
    _rnn("GRU", 3, "", status=SAME, verdict=(
        "the same gate order (reset, update, new) and two biases, so the weights copy as they "
        "are; both apply the reset gate to h2h's output, bias included")),
    Row(key="begin_state", what="a recurrent layer's initial state, and the state carried "
        "from one chunk of a sequence to the next",
        spelling="h_0 = c_0 = torch.zeros(layers, batch, hidden)",
        torch=_TORCH_LSTM + "\n" + _d("""
            seq = x.reshape(3, 1, 4)  # (time, batch, feature)
            h_0 = c_0 = torch.zeros(1, 1, 3)  # (layers, batch, hidden): what no state means
            assert torch.equal(layer(seq)[0], layer(seq, (h_0, c_0))[0])
            out1, state = layer(seq[:2])  # the first two steps, then the last one
            state = tuple(s.detach() for s in state)  # truncated backpropagation
            out2, (h_n, c_n) = layer(seq[2:], state)
            (out1, out2, h_n, c_n)"""),
        nd=_GLUON_LSTM + "\n" + _d("""
            seq = x.reshape((3, 1, 4))  # layout 'TNC'
            state = layer.begin_state(batch_size=1)  # a list [h, c] of zeros
            assert [s.shape for s in state] == [(1, 1, 3)] * 2  # (layers, batch, hidden)
            assert isinstance(layer(seq), nd.NDArray)  # without a state: the output alone
            out1, state = layer(seq[:2], state)
            state = [s.detach() for s in state]
            out2, (h_n, c_n) = layer(seq[2:], state)
            (out1, out2, h_n, c_n)"""),
        np=None, status=SEMANTICS, api="gluon.rnn.LSTM.begin_state, rnn.GRU.begin_state",
        verdict="PyTorch's layer starts from zeros when given no state and always returns it; "
        "Gluon's returns the state only when given one: pass layer.begin_state(batch_size=N) "
        "(zeros of (layers, batch, hidden), a list [h, c] where PyTorch has the tuple (h_0, "
        "c_0); GRU and RNN a list [h]) and take (out, state) back; carry it to the next chunk "
        "with [s.detach() for s in state] for tuple(s.detach() for s in state)",
        table="nn", source=BOOK),
    Row(key="LSTMCell", what="one LSTM step at a time: a cell in a loop over the time steps",
        spelling="h, c = torch.nn.LSTMCell(4, 3)(x_t, (h, c))",
        torch=_LSTM_WEIGHTS + "\n" + _d("""
            cell = torch.nn.LSTMCell(4, 3)
            with torch.no_grad():
                for p, v in zip((cell.weight_ih, cell.weight_hh, cell.bias_ih, cell.bias_hh), ws):
                    p.copy_(torch.from_numpy(v))
            seq = w.reshape(2, 2, 4)  # 2 time steps of a batch of 2
            h = c = torch.zeros(2, 3)  # (batch, hidden)
            outs = []
            for x_t in seq:  # a Python loop over the time steps
                h, c = cell(x_t, (h, c))
                outs.append(h)
            (torch.stack(outs), h, c)"""),
        nd=_LSTM_WEIGHTS + "\n" + _d("""
            import inspect
            cell = mx.gluon.rnn.LSTMCell(3, input_size=4)
            cell.initialize()
            for p, v in zip((cell.i2h_weight, cell.h2h_weight, cell.i2h_bias, cell.h2h_bias), ws):
                p.set_data(nd.array(v))
            seq = w.reshape((2, 2, 4))  # (time, batch, feature)
            out, [h, c] = cell(seq[0], cell.begin_state(batch_size=2))  # one step
            assert (out == h).min() == 1  # a cell's output is its h
            assert inspect.signature(cell.unroll).parameters['layout'].default == 'NTC'
            outs, [h, c] = cell.unroll(2, seq, layout='TNC', merge_outputs=True)  # the loop
            (outs, h, c)"""),
        np=None, status=SEMANTICS, api="gluon.rnn.LSTMCell, LSTMCell.unroll",
        verdict="the same gate order and weight layout, so the weights copy as they are "
        "(i2h_weight ↔ weight_ih, h2h_bias ↔ bias_hh: no l0_); a Gluon cell takes its state as "
        "a list [h, c] (cell.begin_state(batch_size=N): zeros of (batch, hidden)) and returns "
        "(output, [h, c]) where PyTorch's returns the tuple (h, c). The loop over the time "
        "steps is cell.unroll(T, seq, layout='TNC', merge_outputs=True): unroll's default "
        "layout is 'NTC' (batch first), so a (time, batch, feature) sequence needs "
        "layout='TNC' (without it, time and batch of equal sizes swap silently)", table="nn",
        source=BOOK),
    Row(key="flatten_parameters", what="pack a recurrent layer's weights into one buffer",
        spelling="layer.flatten_parameters()",
        torch=_TORCH_LSTM + "\n" + _d("""
            seq = x.reshape(3, 1, 4)
            out, _ = layer(seq)
            pointers = [p.data_ptr() for p in layer.parameters()]
            layer.flatten_parameters()  # on CPU it returns at once
            assert [p.data_ptr() for p in layer.parameters()] == pointers
            assert torch.equal(layer(seq)[0], out)
            out"""),
        nd=_GLUON_LSTM + "\n" + _d("""
            import inspect  # the layer joins its weights into one vector at every call:
            assert 'rnn_param_concat' in inspect.getsource(type(layer)._forward_kernel)
            layer(x.reshape((3, 1, 4)))  # nothing to write"""),
        np=None, status=SEMANTICS,
        api="none needed (gluon.rnn layers concatenate their weights at every call)",
        verdict="delete the call in a port: flatten_parameters() only copies an RNN's weights "
        "into one contiguous cuDNN buffer on a GPU (what the warning 'RNN module weights are "
        "not part of single contiguous chunk of memory' asks for); on CPU it does nothing "
        "(the same pointers and output, checked). Gluon's recurrent layers concatenate their "
        "weights into the fused operator's one parameter vector at every call",
        table="nn", source=BOOK),
    Row(key="NLLLoss", what="negative log-likelihood of log-probabilities, batch mean",
        torch="torch.nn.NLLLoss()(torch.log_softmax(x, dim=1), torch.tensor([0, 3, 1]))",
        nd=_d("""
            loss = mx.gluon.loss.SoftmaxCrossEntropyLoss(from_logits=True)
            loss(nd.log_softmax(x, axis=1), nd.array([0, 3, 1])).mean().asscalar()"""),
        np=None, status=RENAMED, api="gluon.loss.SoftmaxCrossEntropyLoss (from_logits=True)",
        verdict="NLLLoss and F.nll_loss are SoftmaxCrossEntropyLoss(from_logits=True): "
        "from_logits means the input already is log-probabilities (logits, not log-softmaxed, "
        "give another loss); Gluon's losses return one value per sample: .mean() for "
        "PyTorch's default reduction",
        table="nn", source=BOOK),
    Row(key="binary_cross_entropy", what="binary cross-entropy of probabilities, batch mean",
        torch="torch.nn.functional.binary_cross_entropy(torch.sigmoid(x), (y > 0).float())",
        nd=_d("""
            loss = mx.gluon.loss.SigmoidBinaryCrossEntropyLoss(from_sigmoid=True)
            loss(nd.sigmoid(x), y > 0).mean().asscalar()"""),
        np=None, status=RENAMED,
        api="gluon.loss.SigmoidBinaryCrossEntropyLoss (from_sigmoid=True), gluon.loss.SigmoidBCELoss",
        verdict="BCELoss and F.binary_cross_entropy are SigmoidBCELoss(from_sigmoid=True) "
        "(BCEWithLogitsLoss its default); one loss per sample, averaged over the other axes: "
        ".mean() for PyTorch's batch mean", table="nn", source=BOOK),
    Row(key="sgd_mom_update", what="two steps of SGD with momentum, the update rule itself",
        spelling="torch.optim.SGD(params, lr=0.1, momentum=0.9)",
        torch=_d("""
            p = torch.nn.Parameter(x.clone())
            opt = torch.optim.SGD([p], lr=0.1, momentum=0.9)
            for grad in (y, t):
                p.grad = grad.clone()
                opt.step()
            p.detach()"""),
        nd=_d("""
            p, mom = x.copy(), nd.zeros_like(x)
            for grad in (y, t):  # mom is updated in place, p through out=
                nd.sgd_mom_update(p, grad, mom, lr=0.1, momentum=0.9, out=p)
            p"""),
        np=None, status=SEMANTICS, api="nd.sgd_mom_update, mx.optimizer.SGD",
        verdict="the fused operator behind Trainer('sgd', {'momentum': …}): MXNet's buffer "
        "holds −lr × the velocity (mom = μ·mom − lr·g, w += mom), PyTorch's the velocity "
        "(v = μ·v + g, w −= lr·v): the same steps while lr is constant, not after a "
        "learning-rate change", table="nn", source=BOOK),
    Row(key="clip_global_norm", what="scale all gradients together so that their joint "
        "L2 norm is at most max_norm, in place; the norm before clipping",
        spelling="torch.nn.utils.clip_grad_norm_(params, max_norm=0.1)",
        mx_spelling="gluon.utils.clip_global_norm(grads, max_norm=0.1)",
        torch=_d(f"""
            params = [torch.nn.Parameter(torch.zeros_like(g)) for g in (x, y)]
            for p, g in zip(params, (x, y)):
                p.grad = 0.1 * g  # two float32 gradients of joint norm about 0.28
            torch.nn.utils.clip_grad_norm_(params, max_norm={_CLIP_MAX}), [p.grad for p in params]"""),
        nd=_d(f"""
            grads = [0.1 * x, 0.1 * y]  # the gradients themselves: [p.grad() for p in params]
            try:  # float64 gradients fail in MXNet 1.9.1
                mx.gluon.utils.clip_global_norm([x.astype('float64')], {_CLIP_MAX})
                raise AssertionError('float64 gradients clipped')
            except mx.base.MXNetError as err:
                assert 'Non-uniform data type in Concat' in str(err)
            mx.gluon.utils.clip_global_norm(grads, max_norm={_CLIP_MAX}), grads"""),
        np=None, status=SEMANTICS, api="gluon.utils.clip_global_norm",
        verdict="the same job in one call, in place, returning the norm before clipping "
        "(PyTorch's a 0-dim tensor, MXNet's a numpy float32); clip_grad_norm_ takes the "
        "parameters, clip_global_norm their gradients ([p.grad() for p in params]). PyTorch "
        "scales by max_norm / (norm + 1e-6), MXNet by max_norm / (norm + 1e-8): MXNet's "
        "clipped gradients are larger by (1e-6 − 1e-8) / (norm + 1e-8), relative (checked "
        "within 20 %), which a float64 parity check sees; and MXNet's raises on float64 "
        "gradients. sidebyside.clipping.clip_global_norm applies either rule to either "
        "framework's arrays, float64 included. Trainer's clip_gradient is another thing: "
        "element-wise, PyTorch's clip_grad_value_",
        kind="custom", judge=_clip_gap, table="nn", source=BOOK),
    Row(key="name_scope", what="the names of a block's parameters",
        spelling="self.fc = torch.nn.Linear(3, 2)",
        torch=_d("""
            class Net(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.fc = torch.nn.Linear(3, 2)  # named by the attribute
            list(Net().state_dict())"""),
        nd=_d("""
            class Net(mx.gluon.Block):
                def __init__(self):
                    super().__init__()
                    with self.name_scope():  # the children's names get the block's prefix
                        self.fc = mx.gluon.nn.Dense(2, in_units=3)
            net = Net()
            (net.prefix, list(net.collect_params()), list(net._collect_params_with_prefix()))"""),
        np=None, status=SEMANTICS, api="Block.name_scope, Block.collect_params",
        verdict="no PyTorch counterpart, and none needed: a PyTorch parameter is named by its "
        "attribute path (fc.weight). In Gluon 1.x, name_scope only prefixes the global names "
        "that collect_params() lists (net0_dense0_weight); save_parameters writes the "
        "structural names (fc.weight) with or without it. Drop it in a port to PyTorch",
        kind="custom", judge=_structural_names, table="nn", source=BOOK),
    # ------------------------------------------------------------------ devices
    Row(key="copy to GPU", what="create or copy data on an accelerator",
        spelling="torch.ones(1).to(dev0)",
        mx_spelling="mx.nd.ones((1,), ctx=ctx0)",
        torch=_d("""
            y = torch.ones(1).to(dev0)
            (y, y.device, dev0)"""),
        nd=_d("""
            y = mx.nd.ones((1,), ctx=ctx0)
            (y, y.context, ctx0)"""),
        np=_d("""
            y = mx.np.ones((1,), ctx=ctx0)
            (y, y.ctx, ctx0)"""),
        status=RENAMED, api="ctx=, mx.gpu(i)", seed_torch="y torch.FloatTensor(1).cuda()",
        seed_mxnet="y mx.nd.ones((1,), ctxmx.gpu(0))",
        verdict="right for MXNet; torch.FloatTensor(1) is one *uninitialised* element, not a one "
        "— today torch.ones(1, device='cuda')",
        kind="custom", table="device", judge=_on_device),
    Row(key="to numpy", what="device tensor back to a host numpy array",
        spelling="y.cpu().numpy()",
        mx_spelling="y.asnumpy()",
        torch=_d("""
            y = torch.ones(1, device=dev0)
            (y.cpu().numpy(), torch.device('cpu'), torch.device('cpu'))"""),
        nd=_d("""
            y = mx.nd.ones((1,), ctx=ctx0)
            (y.asnumpy(), mx.cpu(), mx.cpu())"""),
        np=None, status=RENAMED, api="NDArray.asnumpy", seed_torch="x y.cpu().numpy()",
        seed_mxnet="x y.asnumpy()",
        verdict="right: asnumpy() copies from any device in one call", kind="custom",
        table="device", judge=_on_device),
    Row(key="device scope", what="make a device the default inside a `with` block",
        spelling="with torch.device(dev1): y = torch.ones(3, 5)",
        mx_spelling="with ctx1: y = mx.nd.ones((3, 5))",
        torch=_d("""
            with torch.device(dev1):
                y = torch.ones(3, 5)
            (y, y.device, dev1)"""),
        nd=_d("""
            with ctx1:
                y = mx.nd.ones((3, 5))
            (y, y.context, ctx1)"""),
        np=None, status=RENAMED, api="with mx.Context",
        seed_torch="with torch.cuda.device(1):y torch.cuda.FloatTensor(1)",
        seed_mxnet="with mx.gpu(1):y mx.nd.ones((3, 5))",
        verdict="right for MXNet; torch ≥ 2.0 has `with torch.device(...)` for factory functions",
        kind="custom", table="device", judge=_on_device),
    Row(key="GPU 0 to GPU 1", what="copy to another device",
        spelling="y = x.to(dev1)",
        mx_spelling="y = x.as_in_context(ctx1)",
        torch=_d("""
            x = torch.ones(1, device=dev0)
            y = x.to(dev1)
            (y, y.device, dev1)"""),
        nd=_d("""
            x = mx.nd.ones((1,), ctx=ctx0)
            y = x.as_in_context(ctx1)
            (y, y.context, ctx1)"""),
        np=_d("""
            x = mx.np.ones((1,), ctx=ctx0)
            y = x.as_in_ctx(ctx1)
            (y, y.ctx, ctx1)"""),
        status=RENAMED, api="as_in_context, as_in_ctx",
        seed_torch="x torch.cuda.FloatTensor(1)y x.cuda(1)",
        seed_mxnet="x mx.nd.ones((1,), ctxmx.gpu(0))y x.as_in_context(mx.gpu(1))",
        verdict="right; today's torch spelling is x.to('cuda:1')", kind="custom", table="device",
        judge=_on_device),
    Row(key="copy between devices", what="copy into an existing tensor on another device",
        spelling="y.copy_(x)",
        mx_spelling="x.copyto(y)",
        torch=_d("""
            x = torch.ones(1, device=dev0)
            y = torch.zeros(1, device=dev1)
            y.copy_(x)
            (y, y.device, dev1)"""),
        nd=_d("""
            x = mx.nd.ones((1,), ctx=ctx0)
            y = mx.nd.zeros((1,), ctx=ctx1)
            x.copyto(y)
            (y, y.context, ctx1)"""),
        np=None, status=RENAMED, api="NDArray.copyto", seed_torch="y.copy_(x)",
        seed_mxnet="x.copyto(y)", verdict="right: the direction flips", kind="custom",
        table="device", judge=_on_device),
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
        assert _r.source in SOURCES and not (_r.seed_torch or _r.seed_mxnet), _r.key
    assert _r.table in TABLES, _r.key


def verdict_kind(r: Row) -> str:
    """'right', 'wrong' or 'stale' (the seed said "Not available" but there is one now);
    :data:`NOT_IN_SEED` for a row that is not the seed's."""
    if not r.from_seed:
        return NOT_IN_SEED
    return r.verdict.split(":")[0].split(";")[0].split(",")[0].split()[0]


def row(key: str) -> Row:
    """The row for ``key`` (its name: ``"acos"``, ``"LSTM"``), or a KeyError listing the keys."""
    try:
        return _BY_KEY[key]
    except KeyError:
        raise KeyError(f"no API-map row {key!r}; rows: {', '.join(_BY_KEY)}") from None
