"""Pictures the notebooks share: two frameworks' curves on shared axes, a grid of samples.

- :func:`curves` — one panel per metric (loss per step, accuracy per epoch, ...), each
  framework one line on the same axes, drawn so that two curves lying on top of each other
  both stay visible (solid under dashed);
- :func:`sample_grid` — a few images with their labels, one row per data loader.

Both return a :class:`Picture`, a :class:`matplotlib.figure.Figure` built without
``pyplot``'s global state that renders itself as PNG (``_repr_png_``): a notebook cell that
ends with the call shows the figure exactly once, whatever the backend, and a test can draw
it with Agg. Tensors from either framework (and numpy arrays, lists) are accepted.
Bad input raises ``ValueError`` / ``TypeError`` naming the panel or row at fault.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import io
import re

import numpy as np
from matplotlib.figure import Figure

from .compare import to_numpy

__all__ = ["STYLES", "Picture", "curves", "sample_grid"]

# PyTorch solid and wide underneath, Gluon dashed on top: identical curves remain readable.
STYLES = {
    "PyTorch": {"color": "#ee4c2c", "linestyle": "-", "linewidth": 2.6, "alpha": 0.75},
    "Gluon": {"color": "#1f5fa8", "linestyle": "--", "linewidth": 1.4},
}
LEGENDS = ("best", "below")
_FALLBACK = [{"linestyle": ls, "linewidth": lw} for ls, lw in
             (("-", 2.6), ("--", 1.4), (":", 1.4), ("-.", 1.4))]


def _legend_columns(longest: int) -> int:
    """Two columns of names under the axes, one when a name is longer than 24 characters."""
    return 1 if longest > 24 else 2


class Picture(Figure):
    """A Figure that IPython displays as a PNG, without pyplot or an inline backend."""

    def _repr_png_(self) -> bytes:
        buf = io.BytesIO()
        self.savefig(buf, format="png", dpi=100, bbox_inches="tight")
        return buf.getvalue()


def _as_series(values: Any, where: str) -> np.ndarray:
    try:
        arr = to_numpy(values)
    except TypeError as exc:
        raise TypeError(f"{where}: {exc}") from None
    if arr.ndim != 1:
        raise ValueError(f"{where}: expected a 1-D series of numbers, got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{where}: the series is empty")
    if not (np.issubdtype(arr.dtype, np.number) or arr.dtype == bool):
        raise TypeError(f"{where}: expected numbers, got dtype {arr.dtype}")
    return arr.astype(np.float64)


def curves(panels: Mapping[str, Mapping[str, Any]], *,
           xlabel: str | Mapping[str, str] = "step", logy: Sequence[str] = (),
           x: Mapping[str, Any] | None = None, smooth: int | Mapping[str, int] = 1,
           legend: str | Mapping[str, str] = "best",
           width: float = 4.6, height: float = 3.2, columns: int = 2) -> Picture:
    """One panel per metric; in each, one line per framework on shared axes.

    ``panels`` maps a panel title to ``{framework name: series}``, e.g.
    ``{"loss per step": {"PyTorch": pt_losses, "Gluon": mx_losses}}``. Within a panel every
    series must have the same length; x runs 1..n unless ``x[title]`` gives it. ``xlabel`` is
    one label for all panels or one per title; ``logy`` names the panels drawn on a log
    scale. ``smooth`` (one window for all panels, or one per title) draws the running mean
    over that many consecutive values instead of the raw series (per-batch accuracy is
    noisy), and says so on the panel's y axis ("running mean of 20 steps"). ``legend`` (one
    for all panels, or one per title) is ``"best"`` (inside the axes, where matplotlib finds
    the emptiest corner) or ``"below"`` (under the axes, where it covers no curve: for a
    panel whose curves fill every corner). Non-finite values (a diverging run) are left as gaps, not rejected. Panels fill
    rows of at most ``columns`` (two by default: three side by side shrink to unreadable
    labels in a book's text column).
    """
    if not isinstance(panels, Mapping):
        raise TypeError(f"panels must be a mapping title -> {{name: series}}, "
                        f"got {type(panels).__name__}")
    if not panels:
        raise ValueError("panels is empty: nothing to draw")
    if isinstance(columns, bool) or not isinstance(columns, int) or columns < 1:
        raise ValueError(f"columns must be a positive int, got {columns!r}")
    x = dict(x or {})
    if isinstance(logy, str):
        logy = (logy,)
    unknown = (set(logy) | set(x)) - set(panels)
    for option in (xlabel, smooth, legend):
        if isinstance(option, Mapping):
            unknown |= set(option) - set(panels)
    if unknown:
        raise ValueError(f"no such panel(s): {sorted(unknown)}; panels are {list(panels)}")
    for where in (legend.values() if isinstance(legend, Mapping) else [legend]):
        if where not in LEGENDS:
            raise ValueError(f"legend must be one of {LEGENDS}, got {where!r}")

    prepared = []
    for title, series in panels.items():
        if not isinstance(series, Mapping) or not series:
            raise ValueError(f"panel {title!r}: expected a non-empty mapping "
                             "{framework name: series}")
        data = {name: _as_series(vals, f"panel {title!r}, series {name!r}")
                for name, vals in series.items()}
        lengths = {name: len(v) for name, v in data.items()}
        if len(set(lengths.values())) != 1:
            raise ValueError(f"panel {title!r}: series have different lengths {lengths}")
        n = next(iter(lengths.values()))
        xs = (_as_series(x[title], f"panel {title!r}, x") if title in x
              else np.arange(1, n + 1, dtype=np.float64))
        if len(xs) != n:
            raise ValueError(f"panel {title!r}: x has {len(xs)} values, the series {n}")
        window = smooth.get(title, 1) if isinstance(smooth, Mapping) else smooth
        if isinstance(window, bool) or not isinstance(window, int) or not 1 <= window <= n:
            raise ValueError(f"panel {title!r}: smooth must be an int in [1, {n}], "
                             f"got {window!r}")
        if window > 1:
            kernel = np.ones(window) / window
            data = {name: np.convolve(v, kernel, mode="valid") for name, v in data.items()}
            xs = xs[window - 1:]
        if title in logy and any(np.any(v[np.isfinite(v)] <= 0) for v in data.values()):
            raise ValueError(f"panel {title!r}: a log scale needs positive values")
        prepared.append((title, xs, data, window))

    cols = min(columns, len(prepared))
    rows = -(-len(prepared) // cols)
    # a legend below its axes gets room of its own: one line per series when a name is long
    below = [(len(data), max(map(len, data))) for title, _, data, _ in prepared
             if (legend.get(title, "best") if isinstance(legend, Mapping) else legend) == "below"]
    extra = max((-(-n // _legend_columns(longest))) for n, longest in below) if below else 0
    fig = Picture(figsize=(width * cols, height * rows + 0.25 * extra), layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False).ravel()
    for ax in axes[len(prepared):]:
        ax.set_visible(False)
    for ax, (title, xs, data, window) in zip(axes, prepared):
        for i, (name, vals) in enumerate(data.items()):
            style = STYLES.get(name, _FALLBACK[i % len(_FALLBACK)])
            ax.plot(xs, np.where(np.isfinite(vals), vals, np.nan), label=name, **style)
        if title in logy:
            ax.set_yscale("log")
        ax.set_title(title)
        label = xlabel.get(title, "step") if isinstance(xlabel, Mapping) else xlabel
        ax.set_xlabel(label)
        if window > 1:
            unit = f"{label}s" if re.fullmatch(r"[a-z]+", label) else "values"
            ax.set_ylabel(f"running mean of {window} {unit}")
        ax.grid(alpha=0.3)
        where = legend.get(title, "best") if isinstance(legend, Mapping) else legend
        if where == "below":
            ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.18), fontsize=9,
                      ncols=_legend_columns(max(map(len, data))), frameon=False)
        else:
            ax.legend()
    return fig


def _images(images: Any, where: str) -> np.ndarray:
    try:
        arr = to_numpy(images)
    except TypeError as exc:
        raise TypeError(f"{where}: {exc}") from None
    if arr.ndim == 4 and arr.shape[1] == 1:      # N, 1, H, W (ToTensor output)
        arr = arr[:, 0]
    elif arr.ndim == 4 and arr.shape[3] == 1:    # N, H, W, 1 (Gluon's raw MNIST)
        arr = arr[..., 0]
    if arr.ndim != 3:
        raise ValueError(f"{where}: expected grey images shaped (N, H, W), (N, 1, H, W) or "
                         f"(N, H, W, 1), got {arr.shape}")
    if arr.shape[0] == 0:
        raise ValueError(f"{where}: no images")
    return arr.astype(np.float64)


def sample_grid(rows: Mapping[str, tuple[Any, Any]], *, classes: Sequence[str] | None = None,
                n: int = 8, size: float = 1.25) -> Picture:
    """The first ``n`` images of each row, titled with their labels; one row per loader.

    ``rows`` maps a row name to ``(images, labels)``, e.g. a batch from each framework's
    ``DataLoader``. Labels are integers; ``classes`` turns them into names. Each image is
    scaled to its own range, so normalised and raw images look alike.
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be a positive int, got {n!r}")
    if not isinstance(rows, Mapping) or not rows:
        raise ValueError("rows must be a non-empty mapping name -> (images, labels)")
    prepared = []
    for name, pair in rows.items():
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            raise ValueError(f"row {name!r}: expected (images, labels)")
        imgs = _images(pair[0], f"row {name!r}, images")
        try:
            labels = to_numpy(pair[1]).reshape(-1)
        except TypeError as exc:
            raise TypeError(f"row {name!r}, labels: {exc}") from None
        if len(labels) != len(imgs):
            raise ValueError(f"row {name!r}: {len(imgs)} images but {len(labels)} labels")
        if not np.all(np.equal(np.mod(labels, 1), 0)):
            raise ValueError(f"row {name!r}: labels must be integers, got {labels[:5]}")
        labels = labels.astype(np.int64)
        if classes is not None and (labels.min() < 0 or labels.max() >= len(classes)):
            raise ValueError(f"row {name!r}: label {labels.max()} outside the "
                             f"{len(classes)} classes")
        prepared.append((name, imgs[:n], labels[:n]))

    cols = max(len(imgs) for _, imgs, _ in prepared)
    fig = Picture(figsize=(size * cols, (size + 0.35) * len(prepared)), layout="constrained")
    axes = fig.subplots(len(prepared), cols, squeeze=False)
    for r, (name, imgs, labels) in enumerate(prepared):
        for c in range(cols):
            ax = axes[r, c]
            ax.set_xticks([])
            ax.set_yticks([])
            if c >= len(imgs):
                ax.set_axis_off()
                continue
            ax.imshow(imgs[c], cmap="gray_r")
            label = classes[labels[c]] if classes is not None else str(labels[c])
            ax.set_title(label, fontsize=8)
            if c == 0:
                ax.set_ylabel(name, fontsize=9)
    return fig
