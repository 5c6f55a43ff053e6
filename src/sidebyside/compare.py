"""Compare tensors across frameworks: torch.Tensor, mx.nd.NDArray, mx.np.ndarray, numpy."""
from __future__ import annotations

import numpy as np


def to_numpy(x) -> np.ndarray:
    """A host numpy copy of a tensor from either framework (or of a numpy/Python value)."""
    if isinstance(x, np.ndarray):
        return x
    if hasattr(x, "asnumpy"):  # mx.nd.NDArray and mx.np.ndarray: copies to host, waits
        return x.asnumpy()
    if type(x).__module__.startswith("torch") and hasattr(x, "detach"):
        return x.detach().cpu().numpy()
    if isinstance(x, (np.generic, int, float, bool, list, tuple)):  # np.generic: asscalar()
        return np.asarray(x)
    raise TypeError(f"cannot convert {type(x).__module__}.{type(x).__name__} to numpy")


def max_abs_diff(a, b) -> float:
    """Largest absolute elementwise difference (shapes must match)."""
    a, b = to_numpy(a), to_numpy(b)
    if a.shape != b.shape:
        raise ValueError(f"shape mismatch: {a.shape} vs {b.shape}")
    if a.size == 0:
        return 0.0
    return float(np.max(np.abs(a.astype(np.float64) - b.astype(np.float64))))


def assert_same(a, b, *, rtol: float = 0.0, atol: float = 0.0, check_dtype: bool = True,
                names: tuple[str, str] = ("torch", "mxnet")) -> float:
    """Assert two tensors agree in shape, dtype (optional) and values within rtol/atol.

    Returns the max absolute difference, so a notebook can show how close they were.
    """
    if rtol < 0 or atol < 0:
        raise ValueError(f"tolerances must be >= 0, got rtol={rtol}, atol={atol}")
    x, y = to_numpy(a), to_numpy(b)
    na, nb = names
    if x.shape != y.shape:
        raise AssertionError(f"shapes differ: {na} {x.shape} vs {nb} {y.shape}")
    if check_dtype and x.dtype != y.dtype:
        raise AssertionError(f"dtypes differ: {na} {x.dtype} vs {nb} {y.dtype}")
    diff = max_abs_diff(x, y)
    if not np.allclose(x, y, rtol=rtol, atol=atol, equal_nan=True):
        raise AssertionError(
            f"values differ: max |{na} - {nb}| = {diff:.3g} exceeds atol={atol}, rtol={rtol}")
    return diff
