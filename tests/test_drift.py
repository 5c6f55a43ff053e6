"""sidebyside.drift: a port's float32 gap judged by each framework's own float32 drift.

The synthetic runs below are built so that each plausible wrong yardstick gives the wrong
verdict on them (each test checks that too, so the data stay discriminating); the last test
trains a real MLP in both frameworks."""
import copy

import mxnet as mx
import numpy as np
import pytest
import torch
from mxnet import autograd, gluon

from sidebyside import drift, transfer
from sidebyside.optim import f32

STEPS = 50
RNG = np.random.default_rng(0)
TRUTH = 2.3 * np.exp(-np.arange(STEPS) / 20)          # the float64 loss curve of both
NOISE = np.geomspace(1e-7, 1e-1, STEPS)               # float32 drift growing with training


def noisy(scale, seed):
    """A float32 run: the float64 curve plus drift of the given size."""
    return TRUTH + scale * NOISE * np.random.default_rng(seed).choice([-1, 1], STEPS)


def faithful(gluon_noise=1.0, torch_noise=1e-3):
    """A faithful port: both float64 runs equal; each float32 run drifts by its own amount."""
    return noisy(torch_noise, 1), TRUTH.copy(), noisy(gluon_noise, 2), TRUTH.copy()


def broken(error=1e-3):
    """A port with an error (a slightly wrong learning rate, say): its float64 and float32
    runs both carry it; drifts are small."""
    bias = error * np.arange(STEPS)
    return noisy(1e-3, 1), TRUTH.copy(), noisy(1e-3, 2) + bias, TRUTH + bias


# What a wrong implementation would compute, to show the data catch each one.
def nudge_like(pt32, pt64, mx32, mx64, factor=2.0):
    """PyTorch's own sensitivity only (what a 1e-7 nudge of PyTorch measures)."""
    return bool(np.all(np.abs(pt32 - mx32) <= factor * np.abs(pt32 - pt64)))


def against_the_other_float64(pt32, pt64, mx32, mx64, factor=2.0):
    """Each float32 run compared with the *other* framework's float64 run."""
    stick = np.maximum(np.abs(pt32 - mx64), np.abs(mx32 - pt64))
    return bool(np.all(np.abs(pt32 - mx32) <= factor * stick))


def smaller_drift(pt32, pt64, mx32, mx64, factor=2.0):
    stick = np.minimum(np.abs(pt32 - pt64), np.abs(mx32 - mx64))
    return bool(np.all(np.abs(pt32 - mx32) <= factor * stick))


def whole_run(pt32, pt64, mx32, mx64, factor=2.0):
    """The largest gap against the largest drift, over the run: blind to early errors."""
    stick = max(np.abs(pt32 - pt64).max(), np.abs(mx32 - mx64).max())
    return bool(np.abs(pt32 - mx32).max() <= factor * stick)


def test_a_faithful_port_passes_whichever_framework_drifts_more():
    for runs in (faithful(gluon_noise=1.0, torch_noise=1e-3),      # MXNet rounds worse
                 faithful(gluon_noise=1e-3, torch_noise=1.0)):     # PyTorch does
        result = drift.judge(*runs)
        assert result.ok and result.first_failure is None
        assert result.float64_gap.max() == 0
        assert result.gap.max() > 1e-2                  # far beyond float32's eps
    # the nudge (PyTorch's own sensitivity) calls the first one broken
    assert not nudge_like(*faithful(gluon_noise=1.0, torch_noise=1e-3))
    assert not smaller_drift(*faithful())


def test_the_yardstick_is_the_larger_drift_point_by_point():
    pt32, pt64, mx32, mx64 = faithful()
    result = drift.judge(pt32, pt64, mx32, mx64)
    np.testing.assert_allclose(result.torch_drift, np.abs(pt32 - pt64), rtol=0, atol=1e-15)
    np.testing.assert_allclose(result.gluon_drift, np.abs(mx32 - mx64), rtol=0, atol=1e-15)
    np.testing.assert_array_equal(result.yardstick,
                                  np.maximum(result.torch_drift, result.gluon_drift))
    np.testing.assert_allclose(result.gap, np.abs(pt32 - mx32), rtol=0, atol=1e-15)
    assert result.steps.tolist() == list(range(1, STEPS + 1))


def test_a_port_error_fails_and_the_wrong_yardsticks_miss_it():
    runs = broken()
    result = drift.judge(*runs)
    assert not result.ok
    assert result.first_failure == 2                  # the step after the first update
    assert result.float64_gap.max() > 1e-2
    with pytest.raises(AssertionError, match=r"loss: at step 2 the float32 gap .* exceeds 2 x "
                                             r"the larger float32 drift"):
        result.check()
    assert against_the_other_float64(*runs)           # it would pass this port


def test_an_error_hidden_by_the_late_drift_is_caught_early():
    """An error of 1e-4 is far below the drift after 40 steps (about 1e-2) but far above it
    in the first steps (1e-7 … 1e-6): judged point by point, the port fails at once."""
    pt32, pt64, mx32, mx64 = faithful()
    mx32, mx64 = mx32 + 1e-4, mx64 + 1e-4
    result = drift.judge(pt32, pt64, mx32, mx64)
    assert not result.ok and result.first_failure == 1
    late = slice(40, None)
    assert drift.judge(pt32[late], pt64[late], mx32[late], mx64[late]).ok
    assert whole_run(pt32, pt64, mx32, mx64)          # the whole-run comparison misses it


def test_the_factor_is_applied_and_stated():
    # one point: drift 1 (Gluon), gap 1.5 (within 2, not within 1)
    args = ([0.0], [0.0], [1.5], [0.5])
    assert drift.judge(*args).ok
    strict = drift.judge(*args, factor=1.0)
    assert not strict.ok and strict.ratio.tolist() == [1.5]
    assert strict.summary()["factor"] == 1.0 and "1 x the drift" in repr(strict)
    assert drift.DEFAULT_FACTOR == 2.0


def test_weights_relative_to_pytorchs_float64_tensor_sizes():
    """An error in a small tensor (a bias) is not hidden by a large tensor's absolute drift
    when each tensor is measured against its own size."""
    big, small = np.full(3, 100.0), np.full(2, 0.01)
    pt32, pt64 = [big + 1.0, small], [big, small]                  # drift: 1 % of the big one
    mx32 = mx64 = [big, small + 0.001]                             # an error: 10 % of the small
    absolute = drift.Drift("weights").add(pt32, pt64, mx32, mx64)
    relative = drift.Drift("weights", relative=True).add(pt32, pt64, mx32, mx64)
    assert absolute.gap[0] == pytest.approx(1.0) and absolute.torch_drift[0] == pytest.approx(1.0)
    assert absolute.ok                                             # hidden by the big tensor
    assert relative.gap[0] == pytest.approx(0.1) and relative.torch_drift[0] == pytest.approx(0.01)
    assert relative.float64_gap[0] == pytest.approx(0.1) and not relative.ok
    # the scale is PyTorch float64's, whoever is compared: the triangle bound holds
    assert relative.gap[0] <= (relative.torch_drift[0] + relative.gluon_drift[0]
                               + relative.float64_gap[0]) + 1e-15


def test_states_of_either_framework_in_lists():
    pt = [torch.ones(2, 3, dtype=torch.float64), torch.zeros(3, requires_grad=True)]
    gl = [mx.nd.ones((2, 3), dtype="float64") * (1 + 1e-3), mx.nd.zeros((3,))]
    as_np = [np.ones((2, 3)), np.zeros(3)]
    result = drift.Drift("weights").add(pt, as_np, gl, as_np, step=10)
    assert result.steps.tolist() == [10] and result.gap[0] == pytest.approx(1e-3)
    assert result.torch_drift[0] == 0 and result.ok


def test_points_are_added_in_order_and_a_refused_point_adds_nothing():
    result = drift.Drift()
    result.add(1.0, 1.0, 1.0, 1.0)
    result.add(1.0, 1.0, 1.0, 1.0, step=5)
    assert result.steps.tolist() == [1, 5]
    with pytest.raises(ValueError, match="step 5 is not after the last point's step 5"):
        result.add(1.0, 1.0, 1.0, 1.0, step=5)
    with pytest.raises(ValueError, match="gluon_f32 at step 6: tensor 0 holds NaN or inf"):
        result.add(1.0, 1.0, float("nan"), 1.0)
    with pytest.raises(ValueError, match="step 6: tensor 1 of gluon_f64 has shape"):
        result.add([1.0, [1, 2]], [1.0, [1, 2]], [1.0, [1, 2]], [1.0, [1, 2, 3]])
    with pytest.raises(ValueError, match="step 6: gluon_f32 has 1 tensors, torch_f64 2"):
        result.add([1.0, 2.0], [1.0, 2.0], [1.0], [1.0, 2.0])
    assert len(result) == 2 and result.add(1.0, 1.0, 1.0, 1.0).steps.tolist() == [1, 5, 6]


def test_nothing_to_judge_is_an_error_not_a_pass():
    empty = drift.Drift("weights")
    with pytest.raises(ValueError, match="no points added to the weights drift"):
        _ = empty.ok
    with pytest.raises(ValueError, match="no points added"):
        empty.check()
    assert repr(empty) == "Drift('weights', no points)"
    with pytest.raises(ValueError, match="no points"):
        drift.judge([], [], [], [])


@pytest.mark.parametrize("call, error, message", [
    (lambda: drift.judge([1.0], [1.0, 2.0], [1.0], [1.0]), ValueError,
     "different numbers of points"),
    (lambda: drift.judge(1.0, 1.0, 1.0, 1.0), TypeError, "torch_f32 must be a sequence"),
    (lambda: drift.judge([1.0], [1.0], [1.0], [1.0], steps=[1, 2]), ValueError,
     "2 steps for 1 points"),
    (lambda: drift.Drift(factor=0), ValueError, "factor must be a finite number > 0"),
    (lambda: drift.Drift(factor=float("inf")), ValueError, "factor must be"),
    (lambda: drift.Drift(what=""), TypeError, "what must be a non-empty string"),
    (lambda: drift.Drift().add([], [], [], []), ValueError, "empty list"),
    (lambda: drift.Drift().add("a", "a", "a", "a"), TypeError, "torch_f32 at step 1: cannot"),
    (lambda: drift.Drift().add(*[np.array(["a"])] * 4), TypeError, "holds <U1, not numbers"),
    (lambda: drift.Drift().add(1.0, 1.0, 1.0, 1.0, step=1.5), TypeError, "step must be an int"),
    (lambda: drift.distance([1.0], [1.0, 2.0]), ValueError, "a has 1 tensors, b has 2"),
    (lambda: drift.distance([1.0], [2.0], scales=[0.0]), ValueError, "scale must be > 0"),
])
def test_bad_inputs_get_one_message(call, error, message):
    with pytest.raises(error, match=message):
        call()


# ---------------------------------------------------------------- a real port, both frameworks

def _mlp_runs(steps=40, gluon_lr=0.1):
    """Four runs of a 20-64-5 ReLU MLP (SGD, softmax cross-entropy) from the same weights on
    the same batches: per-step losses and the weights at the end."""
    rng = np.random.default_rng(0)
    batches = [(rng.normal(size=(32, 20)), rng.integers(0, 5, 32)) for _ in range(steps)]
    torch.manual_seed(0)
    base = torch.nn.Sequential(torch.nn.Linear(20, 64), torch.nn.ReLU(), torch.nn.Linear(64, 5))
    out = {}
    for dtype in ("float32", "float64"):
        pt = copy.deepcopy(base).to(getattr(torch, dtype))
        gl = gluon.nn.Sequential()
        gl.add(gluon.nn.Dense(64, activation="relu"), gluon.nn.Dense(5))
        gl.initialize()
        transfer.torch_to_gluon(base, gl)
        gl.cast(dtype)
        opt = torch.optim.SGD(pt.parameters(), lr=f32(0.1))        # MXNet's float32 rate
        trainer = gluon.Trainer(gl.collect_params(), "sgd", {"learning_rate": gluon_lr})
        loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
        pt_losses, mx_losses = [], []
        for x, y in batches:
            opt.zero_grad()
            loss = torch.nn.functional.cross_entropy(pt(torch.from_numpy(x.astype(dtype))),
                                                     torch.from_numpy(y))
            loss.backward()
            opt.step()
            pt_losses.append(loss.item())
            with autograd.record():
                mx_loss = loss_fn(gl(mx.nd.array(x, dtype=dtype)), mx.nd.array(y, dtype=dtype))
            mx_loss.backward()
            trainer.step(32)
            mx_losses.append(mx_loss.mean().asscalar())
        out[f"torch_{dtype[-2:]}"] = (np.array(pt_losses), list(pt.parameters()))
        out[f"gluon_{dtype[-2:]}"] = (np.array(mx_losses),
                                      [p.data() for p in gl.collect_params().values()])
    return out


def test_a_real_port_passes_and_a_slightly_wrong_learning_rate_fails():
    runs = _mlp_runs()
    order = ("torch_32", "torch_64", "gluon_32", "gluon_64")
    losses = drift.judge(*(runs[k][0] for k in order))
    weights = drift.Drift("weights", relative=True).add(*(runs[k][1] for k in order), step=40)
    assert losses.ok and weights.ok
    assert losses.float64_gap.max() <= 1e-13 and weights.float64_gap.max() <= 1e-13
    assert losses.gap.max() > 1e-9                      # float32 does differ
    slip = _mlp_runs(gluon_lr=0.1 * (1 + 1e-3))          # one part in 1000
    wrong = drift.judge(*(slip[k][0] for k in order))
    assert not wrong.ok and wrong.first_failure <= 3
