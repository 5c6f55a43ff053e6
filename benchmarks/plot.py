"""The figure of a benchmark run: samples/s against batch size and against thread count.

One row per workload. Columns: arithmetic only and in memory (the training set transformed
once into one array) against the batch size, each with the GEMM roofline converted to
samples/s; through the DataLoader against the batch size (with each front end's data
pipeline alone, dotted: the ceiling a loader cell cannot pass when nothing overlaps, and the
DataLoader with worker processes as squares); and all three against the thread count at the
scaling batch size. Points are medians; the bars span the slowest to the fastest repeat; the
y axes are logarithmic.

    .venv/bin/python benchmarks/plot.py benchmarks/results/latest.json [out.png]
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import analysis  # noqa: E402
import spec  # noqa: E402

COLOURS = {"torch-eager": "#1f77b4", "torch-compile": "#17becf", "gluon": "#d62728",
           "gluon-hybrid": "#ff7f0e", "gluon-np": "#9467bd"}
PIPE_COLOURS = {"torch": "#1f77b4", "gluon": "#d62728", "gluon-np": "#9467bd"}
# The line style of each training mode in the thread-scaling panels (the page's too).
MODE_STYLES = {"arith": "-", "memory": "-.", "loader": "--"}
PIPE_LABELS = {"torch": "pipeline alone: torchvision", "gluon": "pipeline alone: Gluon",
               "gluon-np": "pipeline alone: Gluon (mx.np)"}


def series(ax, xs, rows, markersize=4, capsize=2, linewidth=1.3, **kw):
    """Medians, with bars from the slowest to the fastest repeat (also the benchmarks page's
    figures: tools/make_benchmarks_page.py)."""
    kw.setdefault("marker", "o")
    med = [r["samples_per_s_median"] for r in rows]
    lo = [r["samples"] / max(r["seconds"]) for r in rows]
    hi = [r["samples"] / min(r["seconds"]) for r in rows]
    ax.errorbar(xs, med, yerr=[[m - a for m, a in zip(med, lo)], [b - m for m, b in zip(med, hi)]],
                markersize=markersize, capsize=capsize, linewidth=linewidth, **kw)


def _legend(fig, plt, results):
    """One legend for the figure: a colour per configuration, a line style per mode."""
    from matplotlib.lines import Line2D

    present = {c["config"] for c in results.get("cells", [])}
    handles = [Line2D([], [], color=COLOURS[c.name], marker="o", markersize=4,
                      label=c.label) for c in spec.CONFIGS if c.name in present]
    handles += [Line2D([], [], color="black", linestyle=ls, label=text) for ls, text in (
        ("-", "arithmetic only (thread scaling)"), ("-.", "in memory (thread scaling)"),
        ("--", "through the DataLoader (thread scaling)"),
        (":", "data pipeline alone (torchvision / Gluon / mx.np colours)"))]
    if analysis.cells(results, mode="workers"):
        handles.append(Line2D([], [], color="black", marker="s", linestyle="none",
                              label=f"DataLoader with {spec.WORKER_PROCESSES} worker processes"))
    fig.legend(handles=handles, loc="lower center", ncol=5, fontsize=8, frameon=False)


def by(results, x_key, **where):
    """The cells matching ``where``, sorted by ``x_key``, and their ``x_key`` values."""
    rows = sorted(analysis.cells(results, **where), key=lambda c: c[x_key])
    return [c[x_key] for c in rows], rows


def plot(results: dict, out: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    workloads = [w for w in spec.WORKLOADS if analysis.cells(results, workload=w)]
    top = analysis.top_threads(results)
    configs = [c.name for c in spec.CONFIGS]
    scaling_batch = results["settings"]["scaling_batch"]
    rows = max(1, len(workloads))
    fig, axes = plt.subplots(rows, 4, figsize=(20, 4.2 * rows), squeeze=False)
    roof = {int(k): v for k, v in results.get("roofline", {}).items()}
    for i, w in enumerate(workloads):
        wl = spec.WORKLOADS[w]
        ax_a, ax_m, ax_l, ax_t = axes[i]
        for name in configs:
            for ax, mode in ((ax_a, "arith"), (ax_m, "memory"), (ax_l, "loader")):
                xs, cs = by(results, "batch", config=name, mode=mode, workload=w, threads=top)
                if cs:
                    series(ax, xs, cs, color=COLOURS[name], label=spec.CONFIG[name].label)
            xs, cs = by(results, "batch", config=name, mode="workers", workload=w, threads=top)
            if cs:
                series(ax_l, xs, cs, color=COLOURS[name], marker="s", linestyle="none")
            for mode, style in MODE_STYLES.items():
                xs, cs = by(results, "threads", config=name, mode=mode, workload=w,
                             batch=scaling_batch)
                if cs:
                    series(ax_t, xs, cs, color=COLOURS[name], linestyle=style,
                            label=f"{spec.CONFIG[name].label}, {mode}")
        for cfg in spec.CONFIGS:
            if not cfg.pipeline:
                continue
            xs, cs = by(results, "batch", config=cfg.name, mode="pipeline", threads=top)
            if cs:
                series(ax_l, xs, cs, color=PIPE_COLOURS[cfg.front_end], linestyle=":",
                        alpha=0.7, label=PIPE_LABELS[cfg.front_end])
        for ax, mode in ((ax_a, "arith"), (ax_m, "memory")):
            bs = analysis.batches(results, workload=w, mode=mode, threads=top)
            if top in roof and bs:
                line, = ax.plot(
                    bs, [roof[top]["gflops"] * 1e9 / wl.flops_per_sample(b) for b in bs],
                    color="grey", linestyle="--", linewidth=1,
                    label=f"GEMM roofline ({roof[top]['gflops']:.0f} GFLOP/s) in samples/s")
                ax.legend(handles=[line], fontsize=7, loc="lower right")
        ax_a.set_title(f"{wl.label.split(' (')[0]}: arithmetic only, {top} thread(s)",
                       fontsize=10)
        ax_m.set_title(f"{wl.label.split(' (')[0]}: in memory, {top} thread(s)", fontsize=10)
        ax_l.set_title(f"{wl.label.split(' (')[0]}: through the DataLoader, {top} thread(s)",
                       fontsize=10)
        ax_t.set_title(f"{wl.label.split(' (')[0]}: thread scaling, batch {scaling_batch}",
                       fontsize=10)
        for ax in (ax_a, ax_m, ax_l):
            ax.set_xscale("log", base=2)
            ax.set_xlabel("batch size")
        ax_t.set_xlabel("threads")
        threads = analysis.thread_counts(results)
        if len(threads) > 1:
            ax_t.set_xscale("log", base=2)
        ax_t.set_xticks(threads)
        ax_t.set_xticklabels([str(t) for t in threads])
        for ax in (ax_a, ax_m, ax_l, ax_t):
            bs = analysis.batches(results, workload=w)
            if ax is not ax_t and bs:
                ax.set_xticks(bs)
                ax.set_xticklabels([str(b) for b in bs])
            ax.set_yscale("log")
            ax.set_ylabel("samples/s (log scale)", fontsize=8)
            ax.grid(alpha=0.3, which="both")
    _legend(fig, plt, results)
    m = results["machine"]
    fig.suptitle(f"{m['cpu_model']}, {m['cpus_available']} CPU(s) · torch "
                 f"{results['versions'].get('torch')} · mxnet {results['versions'].get('mxnet')}"
                 f" · {results['mode']} run, {results['created'][:10]}", fontsize=11)
    fig.tight_layout(rect=(0, 0.07 if rows > 1 else 0.12, 1, 1))
    out = Path(out)
    fig.savefig(out, dpi=80, metadata={"Software": None})
    plt.close(fig)
    return out


if __name__ == "__main__":
    src = Path(sys.argv[1])
    dst = Path(sys.argv[2]) if len(sys.argv) > 2 else src.with_suffix(".png")
    print(plot(json.loads(src.read_text()), dst))
