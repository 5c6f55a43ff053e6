"""The float32 yardstick: a port's float32 gap, judged by each framework's own float32 drift.

Two frameworks never train bit for bit alike in float32 (other kernels, other summation
orders), and training carries every difference on. How far apart may a faithful port get?
Not "PyTorch against itself, nudged by 1e-7": that measures how one framework reacts to one
small change at the start, not the rounding each framework adds at every step. MXNet 1.9.1's
float32 ``SoftmaxCrossEntropyLoss`` gradient, for one, has a relative error many times
PyTorch's (notebook 10 measures it); a ReLU network trained with it can leave its own float64
trajectory far sooner than PyTorch's does — how much sooner depends on the CPU's kernels too —
and the nudge then calls a faithful port broken.

The yardstick here is the **drift**: each framework's float32 run against its own float64 run.
Four runs from the same initial weights on the same batches — PyTorch and Gluon, each in
float32 and in float64 — and at every point (a step's loss, the weights after a step):

- the **gap**: PyTorch float32 against Gluon float32, what a porter sees;
- the **yardstick**: the larger of PyTorch float32 against PyTorch float64 and Gluon float32
  against Gluon float64;
- **faithful within the drift**: gap ≤ ``factor`` × yardstick at every point.

The larger of the two drifts, so that one test serves both directions (PyTorch → Gluon and
Gluon → PyTorch): whichever framework rounds worse sets the scale.

Why the default factor is 2: the distance used here (the largest absolute difference, over
every tensor of a state, optionally divided by a per-tensor scale that is the same for all four
runs) is a metric, so the triangle inequality gives

    gap = d(pt32, mx32) ≤ d(pt32, pt64) + d(pt64, mx64) + d(mx64, mx32)
                        ≤ 2 · yardstick + float64 gap.

A port whose float64 run agrees with the original's therefore never fails at factor 2, however
noisy either framework's float32 is: no false alarm. A port error fails it from the first
point where the error is larger than about twice float32's own noise there — at the first
steps, where the drift is still at rounding level, almost any error. What it cannot see: an
error smaller than the drift at every point, and a port whose own float32 is worse than the
original's (it raises the yardstick itself; :attr:`Drift.torch_drift` and
:attr:`Drift.gluon_drift` are kept apart so that a caller can look). The float64 lockstep
stays the sharp test; this one says whether a float32 gap is explained by float32.

    >>> d = judge([2.30, 1.90, 1.50], [2.30, 1.90, 1.50],       # PyTorch f32, f64
    ...           [2.30, 1.91, 1.52], [2.30, 1.90, 1.50])       # Gluon f32, f64
    >>> d.ok, d.gap.round(3).tolist(), d.yardstick.round(3).tolist()
    (True, [0.0, 0.01, 0.02], [0.0, 0.01, 0.02])
    >>> judge([2.30, 1.90], [2.30, 1.90], [2.30, 1.95], [2.30, 1.95]).first_failure
    2

Each argument is one run's states, one per point; a state is a number, a tensor of either
framework (or a NumPy array), or a list of them — ``list(net.parameters())``,
``[p.data() for p in net.collect_params().values()]`` — in the same order in all four runs.
A long run adds its points as it goes (:meth:`Drift.add`), so that no run's weights need to be
kept.
"""
from __future__ import annotations

import math

import numpy as np

from .compare import to_numpy

__all__ = ["DEFAULT_FACTOR", "Drift", "distance", "judge"]

DEFAULT_FACTOR = 2.0
RUNS = ("torch_f32", "torch_f64", "gluon_f32", "gluon_f64")


def _tensors(state, name: str) -> list[np.ndarray]:
    """A state as a list of float64 NumPy arrays (one per tensor)."""
    items = list(state) if isinstance(state, (list, tuple)) else [state]
    if not items:
        raise ValueError(f"{name} is an empty list: a state needs at least one tensor")
    out = []
    for i, item in enumerate(items):
        try:
            array = to_numpy(item)
        except TypeError as err:
            raise TypeError(f"{name}: {err}") from None
        if not (np.issubdtype(array.dtype, np.number) or array.dtype == np.bool_):
            raise TypeError(f"{name}: tensor {i} holds {array.dtype}, not numbers")
        array = np.asarray(array, dtype=np.float64)
        if not np.isfinite(array).all():
            raise ValueError(f"{name}: tensor {i} holds NaN or inf (a diverged run cannot be "
                             "judged)")
        out.append(array)
    return out


def distance(a, b, scales=None) -> float:
    """The largest ``|a − b|`` over every tensor of two states, each tensor's difference divided
    by its entry in ``scales`` (default: 1, the absolute difference).

    >>> distance([1.0, [1.0, 2.0]], [1.5, [1.0, 2.25]])
    0.5
    >>> distance([1.0, [1.0, 2.0]], [1.5, [1.0, 2.25]], scales=[10.0, 0.125])
    2.0
    """
    return _distance(_tensors(a, "a"), _tensors(b, "b"), scales)


def _distance(xs: list[np.ndarray], ys: list[np.ndarray], scales) -> float:
    if len(xs) != len(ys):
        raise ValueError(f"a has {len(xs)} tensors, b has {len(ys)}")
    scales = [1.0] * len(xs) if scales is None else list(scales)
    if len(scales) != len(xs):
        raise ValueError(f"{len(scales)} scales for {len(xs)} tensors")
    worst = 0.0
    for i, (x, y, s) in enumerate(zip(xs, ys, scales)):
        if x.shape != y.shape:
            raise ValueError(f"tensor {i}: shapes differ, {x.shape} and {y.shape}")
        if not s > 0:
            raise ValueError(f"tensor {i}: the scale must be > 0, got {s!r}")
        if x.size:
            worst = max(worst, float(np.abs(x - y).max()) / s)
    return worst


class Drift:
    """One quantity (the loss, the weights) of a four-run lockstep, judged point by point.

    Parameters
    ----------
    what : str
        What is compared, for messages: ``"loss"``, ``"weights"``.
    relative : bool
        Divide each tensor's difference by the largest ``|value|`` of that tensor in PyTorch's
        float64 state at the same point (1 where that tensor is all zeros): one scale for all
        four comparisons, so the triangle inequality of the module docstring holds.
    factor : float
        The gap may be at most ``factor`` × the yardstick (default 2, the triangle bound).
    """

    def __init__(self, what: str = "loss", *, relative: bool = False,
                 factor: float = DEFAULT_FACTOR):
        if not isinstance(what, str) or not what:
            raise TypeError(f"what must be a non-empty string, got {what!r}")
        if isinstance(factor, bool) or not isinstance(factor, (int, float)) or not (
                math.isfinite(factor) and factor > 0):
            raise ValueError(f"factor must be a finite number > 0, got {factor!r}")
        self.what, self.relative, self.factor = what, bool(relative), float(factor)
        self._rows: list[tuple[int, float, float, float, float]] = []

    def add(self, torch_f32, torch_f64, gluon_f32, gluon_f64, *, step: int | None = None):
        """Add one point: the four runs' states at the same step (default: the previous step
        + 1, the first being 1). Returns ``self``. Nothing is added when an input is refused."""
        if step is None:
            step = self._rows[-1][0] + 1 if self._rows else 1
        if isinstance(step, bool) or not isinstance(step, (int, np.integer)):
            raise TypeError(f"step must be an int, got {step!r}")
        if self._rows and step <= self._rows[-1][0]:
            raise ValueError(f"step {step} is not after the last point's step "
                             f"{self._rows[-1][0]}")
        states = dict(zip(RUNS, (torch_f32, torch_f64, gluon_f32, gluon_f64)))
        tensors = {name: _tensors(state, f"{name} at step {step}")
                   for name, state in states.items()}
        reference = tensors["torch_f64"]
        for name, ts in tensors.items():
            if len(ts) != len(reference):
                raise ValueError(f"step {step}: {name} has {len(ts)} tensors, torch_f64 "
                                 f"{len(reference)}")
            for i, (t, r) in enumerate(zip(ts, reference)):
                if t.shape != r.shape:
                    raise ValueError(f"step {step}: tensor {i} of {name} has shape {t.shape}, "
                                     f"of torch_f64 {r.shape}")
        scales = None
        if self.relative:
            scales = [float(np.abs(r).max()) if r.size and np.abs(r).max() > 0 else 1.0
                      for r in reference]

        def d(x, y):
            return _distance(tensors[x], tensors[y], scales)

        self._rows.append((int(step), d("torch_f32", "gluon_f32"), d("torch_f32", "torch_f64"),
                           d("gluon_f32", "gluon_f64"), d("torch_f64", "gluon_f64")))
        return self

    def _column(self, i: int) -> np.ndarray:
        return np.array([row[i] for row in self._rows], dtype=float if i else int)

    def __len__(self) -> int:
        return len(self._rows)

    @property
    def steps(self) -> np.ndarray:
        """The step of each point."""
        return self._column(0)

    @property
    def gap(self) -> np.ndarray:
        """PyTorch float32 against Gluon float32: the port's float32 gap."""
        return self._column(1)

    @property
    def torch_drift(self) -> np.ndarray:
        """PyTorch float32 against PyTorch float64."""
        return self._column(2)

    @property
    def gluon_drift(self) -> np.ndarray:
        """Gluon float32 against Gluon float64."""
        return self._column(3)

    @property
    def float64_gap(self) -> np.ndarray:
        """PyTorch float64 against Gluon float64: the float64 lockstep, for free."""
        return self._column(4)

    @property
    def yardstick(self) -> np.ndarray:
        """The larger of the two drifts, point by point."""
        return np.maximum(self.torch_drift, self.gluon_drift)

    @property
    def ratio(self) -> np.ndarray:
        """gap / yardstick (0 where both are 0, inf where only the yardstick is)."""
        gap, stick = self.gap, self.yardstick
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(stick > 0, gap / np.where(stick > 0, stick, 1.0),
                            np.where(gap > 0, np.inf, 0.0))

    def _points(self) -> None:
        if not self._rows:
            raise ValueError(f"no points added to the {self.what} drift: nothing to judge")

    @property
    def failures(self) -> np.ndarray:
        """The steps where the gap exceeds ``factor`` × the yardstick."""
        self._points()
        return self.steps[self.gap > self.factor * self.yardstick]

    @property
    def ok(self) -> bool:
        """The gap is within ``factor`` × the yardstick at every point (an error without
        points)."""
        return len(self.failures) == 0

    @property
    def first_failure(self) -> int | None:
        """The first step where the gap exceeds ``factor`` × the yardstick, or None."""
        failures = self.failures
        return int(failures[0]) if len(failures) else None

    def check(self):
        """Raise AssertionError, naming the first failing point, unless :attr:`ok`; return
        ``self``."""
        if not self.ok:
            i = int(np.flatnonzero(self.steps == self.first_failure)[0])
            raise AssertionError(
                f"{self.what}: at step {self.first_failure} the float32 gap "
                f"{self.gap[i]:.3g} exceeds {self.factor:g} x the larger float32 drift "
                f"{self.yardstick[i]:.3g} (PyTorch {self.torch_drift[i]:.3g}, Gluon "
                f"{self.gluon_drift[i]:.3g}); {len(self.failures)} of {len(self)} points "
                "fail")
        return self

    def summary(self) -> dict:
        """The largest gap, drifts and float64 gap over all points, and the verdict."""
        self._points()
        return {"what": self.what, "points": len(self), "max gap": float(self.gap.max()),
                "max PyTorch drift": float(self.torch_drift.max()),
                "max Gluon drift": float(self.gluon_drift.max()),
                "max float64 gap": float(self.float64_gap.max()),
                "max gap / yardstick": float(self.ratio.max()), "factor": self.factor,
                "ok": self.ok}

    def __repr__(self) -> str:
        if not self._rows:
            return f"Drift({self.what!r}, no points)"
        s = self.summary()
        verdict = "within" if s["ok"] else f"NOT within (first at step {self.first_failure})"
        return (f"Drift({self.what!r}, {s['points']} points: gap up to {s['max gap']:.2g}, "
                f"drift PyTorch {s['max PyTorch drift']:.2g} / Gluon "
                f"{s['max Gluon drift']:.2g}; {verdict} {self.factor:g} x the drift)")


def judge(torch_f32, torch_f64, gluon_f32, gluon_f64, *, steps=None, what: str = "loss",
          relative: bool = False, factor: float = DEFAULT_FACTOR) -> Drift:
    """Judge four whole runs: each argument holds one state per point (a 1-D array of
    per-step losses, or a list of weight lists), all of the same length; ``steps`` names the
    points (default 1, 2, …). Nothing is judged when an input is refused."""
    runs = dict(zip(RUNS, (torch_f32, torch_f64, gluon_f32, gluon_f64)))
    points = {}
    for name, run in runs.items():
        if isinstance(run, (str, bytes)) or not hasattr(run, "__len__"):
            raise TypeError(f"{name} must be a sequence of states, one per point, got "
                            f"{type(run).__name__}")
        points[name] = list(run)
    lengths = {name: len(p) for name, p in points.items()}
    if len(set(lengths.values())) != 1:
        raise ValueError(f"the four runs have different numbers of points: {lengths}")
    n = lengths["torch_f32"]
    if n == 0:
        raise ValueError("the runs have no points: nothing to judge")
    steps = list(range(1, n + 1)) if steps is None else list(steps)
    if len(steps) != n:
        raise ValueError(f"{len(steps)} steps for {n} points")
    result = Drift(what, relative=relative, factor=factor)
    for i, step in enumerate(steps):
        result.add(*(points[name][i] for name in RUNS), step=step)
    return result
