"""Where a translation first parts from MXNet: every node's output compared, in graph order.

The reference is MXNet's own run of the same graph (``python -m sidebyside.mxreference``
writes it as ``node:<name>`` arrays). The comparison is element by element, unsorted and
unreduced: a permutation, a transposed layout or a swapped channel is a failure, not a match
(unlike checks that sort outputs before comparing). A node passes when
``max |ours − ref| ≤ atol + rtol · max |ref|`` and the shapes are equal.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class Row:
    node: str
    op: str
    shape: tuple
    max_abs_diff: float
    max_abs_ref: float
    ok: bool
    why: str = ""


@dataclass
class Report:
    rows: list
    rtol: float
    atol: float

    @property
    def first_failure(self) -> Row | None:
        return next((r for r in self.rows if not r.ok), None)

    @property
    def ok(self) -> bool:
        return self.first_failure is None

    def lines(self, around: int = 3) -> list[str]:
        """A short report: the verdict, and the rows around the first failure."""
        bad = self.first_failure
        head = (f"{len(self.rows)} nodes compared (|Δ| ≤ {self.atol:g} + {self.rtol:g}·max|ref|): "
                + ("all agree" if bad is None else f"first difference at node {bad.node!r} ({bad.op})"))
        out = [head]
        if bad is None:
            return out
        i = self.rows.index(bad)
        for r in self.rows[max(0, i - around): i + 1]:
            mark = "ok " if r.ok else "BAD"
            out.append(f"  {mark} {r.node:<40} {r.op:<16} {str(r.shape):<18} "
                       f"max|Δ| {r.max_abs_diff:.3g}  max|ref| {r.max_abs_ref:.3g} {r.why}")
        return out


def _rows_for(name, op, ours, ref, rtol, atol):
    ours = ours.detach().cpu().numpy() if hasattr(ours, "detach") else np.asarray(ours)
    ref = np.asarray(ref)
    if ours.shape != ref.shape:
        return Row(name, op, ref.shape, float("inf"), float(np.abs(ref).max(initial=0)), False,
                   f"shape {ours.shape} vs MXNet's {ref.shape}")
    if ref.size == 0:
        return Row(name, op, ref.shape, 0.0, 0.0, True)
    d, m = difference(ours, ref)
    return Row(name, op, ref.shape, d, m, bool(np.isfinite(d) and d <= atol + rtol * m))


def difference(ours, ref) -> tuple[float, float]:
    """max|ours - ref| and max|ref| over the finite values of ``ref``. Values that are equal
    (the same infinity, where a float overflows in both frameworks) or nan in both count as
    agreeing; any other non-finite value makes the difference inf."""
    ours = np.asarray(ours).astype(np.float64)
    ref = np.asarray(ref).astype(np.float64)
    same = (ours == ref) | (np.isnan(ours) & np.isnan(ref))
    with np.errstate(invalid="ignore"):
        diff = np.where(same, 0.0, np.abs(ours - ref))
    d = float(diff.max(initial=0))
    d = d if np.isfinite(d) else float("inf")
    finite = ref[np.isfinite(ref)]
    return d, float(np.abs(finite).max(initial=0))


def float32_region(graph) -> dict[str, str]:
    """The nodes of a graph whose float64 value in MXNet passes through a kernel that computes
    in float32 (:data:`~sidebyside.mx2torch.ops.FLOAT32_KERNELS`): node name -> the operator
    of the first such kernel upstream (or its own)."""
    from .ops import float32_kernel

    region: dict[int, str] = {}
    for i in graph.reachable():
        n = graph.nodes[i]
        if n.is_variable:
            continue
        if float32_kernel(n):
            region[i] = n.op
        else:
            up = next((region[src] for src, _ in n.inputs if src in region), None)
            if up is not None:
                region[i] = up
    return {graph.nodes[i].name: op for i, op in region.items()}


def compare_nodes(translation, tapped_module, inputs: dict, reference: dict, *,
                  rtol: float = 1e-4, atol: float = 1e-6, rtol_for: dict | None = None,
                  progress=None) -> Report:
    """Run ``tapped_module`` (:func:`~sidebyside.mx2torch.codegen.tapped`) on ``inputs`` (MXNet
    input name -> array) and compare every node with ``reference["node:<name>"]``.
    ``rtol_for``: node name -> a bound of its own (the float32 region of a float64 check).
    ``progress(done, total)``: called as the nodes are compared."""
    import torch

    args = []
    for name in translation.inputs:
        if name not in inputs:
            raise KeyError(f"no value for the input {name!r} (the model takes "
                           f"{', '.join(translation.inputs)})")
        args.append(torch.from_numpy(np.asarray(inputs[name])))
    dtype = next((a.dtype for a in args if a.dtype.is_floating_point), None)
    if dtype is not None:
        tapped_module.to(dtype)
    with torch.no_grad():
        _, taps = tapped_module(*args)
    rows = []
    for k, (name, op, _) in enumerate(translation.nodes, 1):
        if progress is not None:
            progress(k, len(translation.nodes))
        if name not in taps:
            continue
        value = taps[name]
        rtol_here = (rtol_for or {}).get(name, rtol)

        def _row(n, o, ours, ref, r=rtol_here):
            return _rows_for(n, o, ours, ref, r, atol)
        if isinstance(value, (tuple, list)):
            for i, v in enumerate(value):
                key = f"node:{name}[{i}]"
                if key in reference:
                    rows.append(_row(f"{name}[{i}]", op, v, reference[key]))
        elif f"node:{name}" in reference:
            rows.append(_row(name, op, value, reference[f"node:{name}"]))
        elif f"node:{name}[0]" in reference:
            rows.append(_row(name, op, value, reference[f"node:{name}[0]"]))
    return Report(rows, rtol, atol)
