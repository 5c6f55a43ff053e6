"""`sidebyside.clipping`: global-norm clipping with PyTorch's rule or MXNet's, on either
framework's arrays, float64 included.

Each rule is checked against the framework's own function (`torch.nn.utils.clip_grad_norm_`,
`mxnet.gluon.utils.clip_global_norm`), and the two rules against each other by the gap their
epsilons predict, so a swapped or a shared epsilon fails; MXNet's own function is shown to
fail on float64 gradients where the helper does not.
"""

import subprocess
import sys
import warnings

import mxnet as mx
import numpy as onp
import pytest
import torch
from mxnet import gluon, nd

from sidebyside import clipping
from sidebyside.clipping import clip_global_norm, global_norm

NORM, MAX_NORM = 0.3, 0.1       # gradients of joint norm 0.3, clipped to 0.1
F32_ULP = 2.0 ** -23            # float32's spacing at 1: a relative rounding step


def _grads(norm=NORM, seed=1):
    """Three float64 numpy gradients (a matrix, a vector, a 3-d block) of joint norm ``norm``."""
    rng = onp.random.default_rng(seed)
    raw = [rng.standard_normal(s) for s in [(3, 4), (5,), (2, 3, 2)]]
    total = onp.sqrt(sum(float((r ** 2).sum()) for r in raw))
    return [r * (norm / total) for r in raw]


def _torch(grads, dtype):
    return [torch.tensor(g, dtype=getattr(torch, dtype)) for g in grads]


def _nd(grads, dtype):
    return [nd.array(g, dtype=dtype) for g in grads]


def _numpy(arrays):
    return [a.numpy() if isinstance(a, torch.Tensor) else a.asnumpy() for a in arrays]


def _rel(a, b):
    """The largest |a − b| over each pair, relative to the largest |b| of the pair."""
    return max(float(onp.abs(onp.float64(u) - onp.float64(v)).max() / onp.abs(v).max())
               for u, v in zip(a, b))


def _by_torch(grads, dtype, max_norm=MAX_NORM):
    """(norm, clipped gradients) from torch.nn.utils.clip_grad_norm_ on parameters."""
    params = [torch.zeros(g.shape, dtype=getattr(torch, dtype), requires_grad=True)
              for g in grads]
    for p, g in zip(params, grads):
        p.grad = torch.tensor(g, dtype=getattr(torch, dtype))
    norm = torch.nn.utils.clip_grad_norm_(params, max_norm)
    return norm, [p.grad.numpy() for p in params]


def _by_gluon(grads, max_norm=MAX_NORM):
    """(norm, clipped gradients) from gluon.utils.clip_global_norm, float32 (its only dtype)."""
    arrays = _nd(grads, "float32")
    norm = gluon.utils.clip_global_norm(arrays, max_norm)
    return norm, [a.asnumpy() for a in arrays]


def _predicted_gap(norm):
    """MXNet's clipped gradient over PyTorch's, minus 1: (n + 1e-6) / (n + 1e-8) − 1."""
    return (clipping.EPS["torch"] - clipping.EPS["mxnet"]) / (norm + clipping.EPS["mxnet"])


# ------------------------------------------------------------------ PyTorch's rule
@pytest.mark.parametrize("make", [_torch, _nd], ids=["torch", "mxnet"])
def test_torch_rule_is_clip_grad_norm_in_float64(make):
    grads = _grads()
    ref_norm, ref = _by_torch(grads, "float64")
    arrays = make(grads, "float64")
    norm = clip_global_norm(arrays, MAX_NORM, rule="torch")
    assert _rel(_numpy(arrays), ref) <= 1e-15
    assert abs(float(norm) - float(ref_norm)) <= 1e-15
    # and the clip happened: the joint norm is now max_norm / (1 + 1e-6 / norm)
    assert abs(global_norm(arrays) - MAX_NORM * NORM / (NORM + 1e-6)) <= 1e-15


@pytest.mark.parametrize("make", [_torch, _nd], ids=["torch", "mxnet"])
def test_torch_rule_is_clip_grad_norm_in_float32_to_its_rounding(make):
    grads = _grads()
    _, ref = _by_torch(grads, "float32")
    arrays = make(grads, "float32")
    clip_global_norm(arrays, MAX_NORM, rule="torch")
    assert all(a.dtype == onp.float32 for a in _numpy(arrays))
    assert _rel(_numpy(arrays), ref) <= 2 * F32_ULP
    # PyTorch's own parameters, as clip_grad_norm_ takes them: their .grad is what is scaled
    params = [torch.zeros(g.shape, requires_grad=True) for g in grads]
    for p, g in zip(params, grads):
        p.grad = torch.tensor(g, dtype=torch.float32)
    clip_global_norm(params, MAX_NORM, rule="torch")
    assert _rel([p.grad.numpy() for p in params], ref) <= 2 * F32_ULP
    assert all(not p.detach().any() for p in params)  # the parameters themselves untouched


# ------------------------------------------------------------------ MXNet's rule
@pytest.mark.parametrize("make", [_nd, _torch], ids=["mxnet", "torch"])
def test_mxnet_rule_is_clip_global_norm_in_float32(make):
    grads = _grads()
    ref_norm, ref = _by_gluon(grads)
    arrays = make(grads, "float32")
    norm = clip_global_norm(arrays, MAX_NORM, rule="mxnet")
    # the same operations on NDArrays; torch sums the squares in its own order (an ulp)
    assert _rel(_numpy(arrays), ref) <= (1e-7 if make is _nd else 2 * F32_ULP)
    assert abs(float(norm) / float(ref_norm) - 1) <= 1e-7


def test_mxnet_s_own_clip_fails_in_float64_and_the_mxnet_rule_does_not():
    grads = _grads()
    arrays = _nd(grads, "float64")
    with pytest.raises(mx.base.MXNetError, match="Non-uniform data type in Concat"):
        gluon.utils.clip_global_norm(arrays, MAX_NORM)
    assert all(onp.array_equal(a, g) for a, g in zip(_numpy(arrays), grads))  # unchanged
    for arrays in (_nd(grads, "float64"), _torch(grads, "float64")):
        norm = clip_global_norm(arrays, MAX_NORM)  # rule="mxnet" is the default
        expected = [g * (MAX_NORM / (NORM + 1e-8)) for g in grads]  # MXNet's formula
        assert _rel(_numpy(arrays), expected) <= 1e-15
        assert abs(float(norm) - NORM) <= 1e-15
        assert all(a.dtype == onp.float64 for a in _numpy(arrays))
    # float64 under MXNet's rule is float32 Gluon to float32's rounding
    assert _rel(_numpy(arrays), _by_gluon(grads)[1]) <= 2 * F32_ULP


# ------------------------------------------------------------------ the two rules apart
@pytest.mark.parametrize("make", [_torch, _nd], ids=["torch", "mxnet"])
def test_the_rules_differ_by_the_gap_their_epsilons_predict(make):
    grads = _grads()
    by_torch, by_mxnet = make(grads, "float64"), make(grads, "float64")
    clip_global_norm(by_torch, MAX_NORM, rule="torch")
    clip_global_norm(by_mxnet, MAX_NORM, rule="mxnet")
    ratios = onp.concatenate([(m / t).ravel() for m, t in zip(_numpy(by_mxnet),
                                                               _numpy(by_torch))])
    predicted = _predicted_gap(NORM)               # 3.3e-6 at a norm of 0.3
    assert 3.2e-6 < predicted < 3.4e-6
    # every element: swapped epsilons give −3.3e-6, equal ones 0, 1e-7 vs 1e-8 give 3e-7
    assert onp.abs((ratios - 1) / predicted - 1).max() <= 1e-6


def test_the_gap_shrinks_as_one_over_the_norm():
    for norm in (0.03, 3.0):
        grads = _grads(norm)
        by_torch, by_mxnet = _torch(grads, "float64"), _torch(grads, "float64")
        clip_global_norm(by_torch, norm / 3, rule="torch")
        clip_global_norm(by_mxnet, norm / 3, rule="mxnet")
        gap = float(by_mxnet[0][0, 0] / by_torch[0][0, 0]) - 1
        assert abs(gap / _predicted_gap(norm) - 1) <= 1e-6


# ------------------------------------------------------------------ within max_norm
def test_within_max_norm_the_mxnet_rule_writes_nothing_and_the_torch_rule_multiplies_by_one():
    grads = _grads()
    for rule, writes in (("mxnet", False), ("torch", True)):
        arrays = _torch(grads, "float32")
        before = [a.clone() for a in arrays]
        versions = [a._version for a in arrays]   # bumped by every in-place write
        norm = clip_global_norm(arrays, 1.0, rule=rule)
        assert all(torch.equal(a, b) for a, b in zip(arrays, before)), rule  # bit for bit
        assert [a._version > v for a, v in zip(arrays, versions)] == [writes] * 3, rule
        assert abs(float(norm) - NORM) <= 1e-7
        nds = _nd(grads, "float32")
        clip_global_norm(nds, 1.0, rule=rule)
        assert all(onp.array_equal(a, b.numpy()) for a, b in zip(_numpy(nds), before)), rule


def test_a_norm_equal_to_max_norm_is_still_scaled_by_each_rule_s_epsilon():
    grads = _grads()
    for rule in clipping.RULES:
        arrays = _torch(grads, "float64")
        clip_global_norm(arrays, NORM, rule=rule)
        factor = float(arrays[0][0, 0]) / grads[0][0, 0]
        assert abs(factor - NORM / (NORM + clipping.EPS[rule])) <= 1e-15, rule
        assert factor < 1


# ------------------------------------------------------------------ what comes back
def test_the_returned_norm_is_the_unclipped_norm_as_each_framework_returns_it():
    grads = _grads()
    exact = float(onp.sqrt(sum(float((g ** 2).sum()) for g in grads)))
    for rule in clipping.RULES:
        for dtype, tol in (("float64", 1e-15), ("float32", 1e-7)):
            t = clip_global_norm(_torch(grads, dtype), MAX_NORM, rule=rule)
            assert isinstance(t, torch.Tensor) and t.dim() == 0 and str(t.dtype) == f"torch.{dtype}"
            m = clip_global_norm(_nd(grads, dtype), MAX_NORM, rule=rule)
            assert isinstance(m, onp.generic) and m.dtype == onp.dtype(dtype)  # asscalar()
            f = clip_global_norm(_nd(grads, dtype), MAX_NORM, rule=rule, as_float=True)
            assert type(f) is float
            for value in (t, m, f):
                assert abs(float(value) / exact - 1) <= tol, (rule, dtype)
    assert abs(global_norm(_nd(grads, "float64")) - exact) <= 1e-15


def test_gluon_parameters_and_mx_np_arrays_are_clipped_in_place():
    grads = _grads()
    params = gluon.ParameterDict()
    for i, g in enumerate(grads):
        p = params.get(f"w{i}", shape=g.shape, dtype="float64")
        p.initialize(mx.init.Zero())
        p.grad()[:] = nd.array(g, dtype="float64")
    frozen = params.get("frozen", shape=(2,), grad_req="null")
    frozen.initialize()
    clip_global_norm(params, MAX_NORM)         # a ParameterDict: its parameters' gradients
    expected = [g * (MAX_NORM / (NORM + 1e-8)) for g in grads]
    assert _rel([params[f"w{i}"].grad().asnumpy() for i in range(3)], expected) <= 1e-15
    assert not params["w0"].data().asnumpy().any()
    arrays = [mx.np.array(g, dtype="float64") for g in grads]
    clip_global_norm(arrays, MAX_NORM)
    assert _rel([a.asnumpy() for a in arrays], expected) <= 1e-15


def test_float16_and_mixed_dtypes():
    grads = _grads()
    _, ref = _by_torch(grads, "float32")
    for arrays in (_torch(grads, "float16"), _nd(grads, "float16")):
        clip_global_norm(arrays, MAX_NORM, rule="torch")
        assert all(a.dtype == onp.float16 for a in _numpy(arrays))
        assert _rel(_numpy(arrays), ref) <= 2e-3      # float16's rounding: 2^-10
    mixed = [torch.tensor(grads[0], dtype=torch.float32), torch.tensor(grads[1])]
    norm = clip_global_norm(mixed, 1.0)
    assert norm.dtype == torch.float64


# ------------------------------------------------------------------ non-finite norms
def test_a_non_finite_norm_warns_raises_or_passes_as_asked():
    bad = [onp.array([onp.nan, 1.0])]
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        gluon.utils.clip_global_norm(_nd(bad, "float32"), 1.0)
        arrays = _nd(bad, "float32")
        clip_global_norm(arrays, 1.0)            # MXNet's rule: MXNet's warning, word for word
    assert len(seen) == 2 and str(seen[0].message) == str(seen[1].message)
    assert onp.isnan(arrays[0].asnumpy()).all()   # and the result is NaN, as MXNet's
    with warnings.catch_warnings():
        warnings.simplefilter("error")           # PyTorch's rule says nothing, by default
        arrays = _torch(bad, "float32")
        clip_global_norm(arrays, 1.0, rule="torch")
        ref = _torch(bad, "float32")
        ref[0].requires_grad_()
        ref[0].grad = _torch(bad, "float32")[0]
        torch.nn.utils.clip_grad_norm_(ref, 1.0)
    assert torch.isnan(arrays[0]).all() and torch.isnan(ref[0].grad).all()
    for rule in clipping.RULES:
        arrays = _torch([onp.array([onp.inf, 1.0])], "float64")
        with pytest.raises(FloatingPointError, match="nothing clipped"):
            clip_global_norm(arrays, 1.0, rule=rule, nonfinite="raise")
        assert arrays[0].tolist() == [onp.inf, 1.0] and arrays[0]._version == 0


# ------------------------------------------------------------------ bad inputs
@pytest.mark.parametrize("arrays, kwargs, error, match", [
    ([], {}, ValueError, "arrays is empty"),
    ((), {}, ValueError, "arrays is empty"),
    ([onp.zeros(3)], {}, TypeError, r"arrays\[0\] is a numpy.ndarray"),
    ([torch.zeros(3, dtype=torch.int64)], {}, TypeError, r"arrays\[0\]: it is int64"),
    ([nd.zeros(3, dtype="int32")], {}, TypeError, "int32, not a floating-point dtype"),
    ([torch.zeros(2)], {"max_norm": 0}, ValueError, "max_norm must be a positive number"),
    ([torch.zeros(2)], {"max_norm": -1.0}, ValueError, "max_norm must be a positive number"),
    ([torch.zeros(2)], {"max_norm": float("nan")}, ValueError, "max_norm must be a positive"),
    ([torch.zeros(2)], {"max_norm": True}, ValueError, "max_norm must be a positive number"),
    ([torch.zeros(2)], {"max_norm": "1"}, ValueError, "max_norm must be a positive number"),
    ([torch.zeros(2)], {"rule": "gluon"}, ValueError, "rule must be one of 'mxnet', 'torch'"),
    ([torch.zeros(2)], {"nonfinite": "skip"}, ValueError, "nonfinite must be one of"),
    ("grads", {}, TypeError, "must be a list of gradients"),
    ([torch.zeros(2, requires_grad=True)], {}, ValueError, "none of the 1 parameters has a "
                                                           "gradient"),
])
def test_a_bad_input_gets_one_message(arrays, kwargs, error, match):
    kwargs = {"max_norm": 1.0, **kwargs}
    with pytest.raises(error, match=match):
        clip_global_norm(arrays, **kwargs)


def test_nothing_is_written_when_an_input_is_bad():
    first = torch.full((3,), 10.0)
    for rest, match in (([nd.ones(3)], "mixes frameworks"),
                        ([torch.ones(3, dtype=torch.int32)], r"arrays\[1\]: it is int32")):
        with pytest.raises(TypeError, match=match):
            clip_global_norm([first, *rest], 1.0)  # would scale `first` by 1/17
        assert first._version == 0 and first.tolist() == [10.0] * 3
    param = gluon.Parameter("steps", shape=(2,), dtype="int32")  # an integer parameter
    param.initialize(mx.init.Zero())
    with pytest.raises(TypeError, match=r"arrays\[1\]: its gradient is int32"):
        clip_global_norm([nd.full((2,), 10.0), param], 1.0)


def test_the_module_imports_no_framework():
    code = ("import sys, sidebyside.clipping as c; "
            "assert 'torch' not in sys.modules and 'mxnet' not in sys.modules, sorted(sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("rule", ["mxnet", "torch"])
def test_sparse_embedding_gradients_clip_as_their_dense_twins(rule):
    """nn.Embedding(sparse=True) gives a sparse_coo gradient (with a repeated row, uncoalesced):
    the norm and the clipped values are those of the same gradient held dense."""
    sparse, dense = torch.nn.Embedding(10, 4, sparse=True), torch.nn.Embedding(10, 4)
    dense.load_state_dict(sparse.state_dict())
    ids = torch.tensor([1, 1, 3])
    for emb in (sparse, dense):
        emb(ids).pow(2).sum().backward()
    assert sparse.weight.grad.is_sparse and not sparse.weight.grad.is_coalesced()
    n_sparse = clipping.clip_global_norm([sparse.weight], 0.1, rule=rule)
    n_dense = clipping.clip_global_norm([dense.weight], 0.1, rule=rule)
    assert float(n_dense) > 0.1                     # so both were scaled
    assert abs(float(n_sparse) - float(n_dense)) < 1e-6 * float(n_dense)
    assert (sparse.weight.grad.to_dense() - dense.weight.grad).abs().max() < 1e-7
