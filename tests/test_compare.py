import mxnet as mx
import numpy as np
import pytest
import torch

from sidebyside.compare import assert_same, max_abs_diff, to_numpy


@pytest.mark.parametrize("make", [
    lambda: torch.arange(6.0).reshape(2, 3),
    lambda: torch.arange(6.0, requires_grad=True).reshape(2, 3),
    lambda: mx.nd.arange(6).reshape((2, 3)),
    lambda: mx.np.arange(6, dtype="float32").reshape((2, 3)),
    lambda: np.arange(6, dtype=np.float32).reshape(2, 3),
])
def test_to_numpy_from_each_kind(make):
    out = to_numpy(make())
    assert isinstance(out, np.ndarray)
    np.testing.assert_array_equal(out, np.arange(6.0).reshape(2, 3))


def test_to_numpy_rejects_unknown_types():
    with pytest.raises(TypeError, match="cannot convert"):
        to_numpy(object())


def test_assert_same_passes_and_returns_the_difference():
    assert assert_same(torch.ones(5, 3) + 1, mx.nd.ones((5, 3)) + 1) == 0.0
    diff = assert_same(torch.tensor([1.0, 2.0]), mx.nd.array([1.0, 2.0 + 1e-6]), atol=1e-5)
    assert 0 < diff < 1e-5


def test_assert_same_reports_shape_dtype_and_value_differences():
    with pytest.raises(AssertionError, match=r"shapes differ: torch \(5, 3\) vs mxnet \(3, 5\)"):
        assert_same(torch.ones(5, 3), mx.nd.ones((3, 5)))
    with pytest.raises(AssertionError, match="dtypes differ: torch float64 vs mxnet float32"):
        assert_same(torch.ones(2, dtype=torch.float64), mx.nd.ones((2,)))
    assert_same(torch.ones(2, dtype=torch.float64), mx.nd.ones((2,)), check_dtype=False)
    with pytest.raises(AssertionError, match="values differ"):
        assert_same(torch.tensor([1.0]), mx.nd.array([1.1]), atol=1e-3)


def test_assert_same_rejects_negative_tolerances():
    with pytest.raises(ValueError, match="tolerances"):
        assert_same(torch.ones(1), mx.nd.ones((1,)), atol=-1)


def test_max_abs_diff_needs_equal_shapes():
    assert max_abs_diff(np.zeros(3), np.array([0.0, -2.0, 1.0])) == 2.0
    with pytest.raises(ValueError, match="shape mismatch"):
        max_abs_diff(np.zeros(3), np.zeros(4))


def test_to_numpy_keeps_the_dtype_of_numpy_scalars():
    # NDArray.asscalar() returns a numpy scalar; it compares against a 0-d torch tensor
    out = to_numpy(mx.nd.array([1.5]).asscalar())
    assert out.shape == () and out.dtype == np.float32
    assert assert_same(torch.tensor(1.5), mx.nd.array([1.5]).asscalar()) == 0.0
