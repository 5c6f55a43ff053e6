"""Write book/benchmarks.md and its figures (book/_static/benchmarks-<workload>.png) from the
latest benchmark run.

The page is a pure function of ``benchmarks/results/latest.json`` (written by ``make bench``):
the verdict line, the tables, the roofline fractions and the figures are all computed here
from the cells (``benchmarks/analysis.py``), nothing about the outcome is written by hand.
There is one figure per workload, drawn here (not ``benchmarks/results/latest.png``, whose six
panels are too small to read at the book's page width): its panels stacked in one column,
``FIG_WIDTH_IN`` wide at ``FIG_DPI``, no text under ``MIN_FONT_PT``, so that it stays
legible when a phone shrinks it to the column, and each figure links to its full-size PNG.

``make benchmarks-page`` (or this file) rewrites the page and the figures and removes any
other ``book/_static/benchmarks*.png``; ``--check`` exits 1 when the page or a figure differs
from what would be written, or a stale figure is left (tests/test_benchmarks.py checks the
same). The PNGs carry no software version or date (``metadata``), so the same data and the
same matplotlib draw the same bytes.
"""
from __future__ import annotations

import argparse
import io
import json
import statistics
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT / "benchmarks"))
import analysis  # noqa: E402  (benchmarks/analysis.py)
import pagegen  # noqa: E402  (tools/pagegen.py)
import spec  # noqa: E402  (benchmarks/spec.py)
from plot import (COLOURS, MODE_STYLES, PIPE_COLOURS, PIPE_LABELS,  # noqa: E402
                  series)  # (benchmarks/plot.py)
from plot import by as _by  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "latest.json"
OUT = ROOT / "book" / "benchmarks.md"
STATIC = "_static"                 # the figures' folder, relative to the page's folder
FIGURE_GLOB = "benchmarks*.png"    # what this tool owns there: any other such file is stale
FIG_DPI = 120                      # pixels per inch of the PNGs (written in their pHYs chunk)
FIG_WIDTH_IN = 5.5                 # 660 px at FIG_DPI: shown unscaled in the desktop column
PANEL_HEIGHT_IN = 3.0
FONT_PT = 12                       # axis labels, legend
TITLE_PT = 13                      # panel titles
MIN_FONT_PT = 11                   # tick labels, the figure's header: the smallest text
TARGET = "benchmarks-page"
BUSY = 0.25      # share of the CPUs busy with other work above which the page warns
W = spec.WORKLOAD_SHORT
# A training mode's name in a table's column or row (the routes, in spec.MODES order).
MODE_SHORT = {"arith": "arithmetic", "memory": "in memory", "loader": "loader",
              "workers": f"{spec.WORKER_PROCESSES} workers"}
NOT_MEASURED = "not measured in this run"


def _n(x: float) -> str:
    """Samples/s: thousands grouped by a thin space, three significant digits at most."""
    if x >= 1000:
        return f"{round(x, -2) if x < 10_000 else round(x, -3):,.0f}".replace(",", "\u2009")
    return f"{x:.3g}"


def _pct(x: float | None) -> str:
    if x is None:
        return "—"
    return f"{100 * x:.0f} %" if x >= 0.1 else f"{100 * x:.1f} %"


def _s(x: float) -> str:
    return f"{x:.3g} s" if x < 100 else f"{x:.0f} s"


def _label(name: str) -> str:
    return spec.CONFIG[name].label


def _threads_in_effect(c: dict) -> str:
    t = c.get("threads_in_effect") or {}
    if "torch" in t:
        return f"torch {t['torch']}"
    if "mxnet" in t:
        return f"MXNet {t['mxnet']}"
    return "?"


def _md_escape(text: str) -> str:
    return str(text).replace("|", "\\|")


# ------------------------------------------------------------------------------ sections
def _share(x) -> str:
    return "—" if x is None else f"{x:.0%}"


def _warnings(r: dict) -> list[str]:
    out = []
    if r["mode"] != "full":
        out.append(f"This page shows a **{r['mode']}** run, not a full one: run `make bench`, "
                   "then `make benchmarks-page`.")
    m = r["machine"]
    busy = [m.get("cpu_busy_start") or 0, m.get("cpu_busy_end") or 0]
    if max(busy) > BUSY:
        out.append(f"The machine was busy while this ran (other work kept {busy[0]:.0%} of "
                   f"its {m['cpus_available']} CPU(s) busy at the start, {busy[1]:.0%} at the "
                   "end): an OpenMP loop whose thread shares a core "
                   "with another process waits whole time slices at every barrier, so these "
                   "numbers say more about the load than about the frameworks. Rerun on an "
                   "idle machine.")
    if r.get("errors"):
        out.append(f"{len(r['errors'])} cell(s) failed: " + "; ".join(
            f"{e['config']} at {e['threads']} thread(s): {_md_escape(e['error'])}"
            for e in r["errors"]) + ".")
    return [f":::{{warning}}\n{w}\n:::\n" for w in out]


def _method(r: dict) -> list[str]:
    s = r["settings"]
    skipped = [f"{_label(c['name'])} ({c['skipped']})" for c in r["configs"] if c["skipped"]]
    compile_batch = sorted({c["batch"] for c in analysis.cells(r, config="torch-compile")})
    top = analysis.top_threads(r)
    below = {c["workload"] for c in analysis.cells(r, config="torch-compile")
             if c["threads"] != top}
    scaling_note = (f"for the {' and '.join(W[w] for w in spec.WORKLOADS if w in below)} "
                    "alone below the top thread count, "
                    if below and below != set(r["workloads"]) else "")
    lines = [
        "## How it was measured",
        "",
        "- **Configurations**: " + "; ".join(
            _label(c["name"]) for c in r["configs"] if not c["skipped"]) + "."
        + (f" Not in this run: {'; '.join(skipped)}." if skipped else ""),
        "- **Workloads**: " + "; ".join(
            f"{w['label']}, {w['params']:,} parameters" for w in r["workloads"].values())
        + f"; SGD with learning rate {spec.LR}, cross-entropy loss, batch sizes "
        + ", ".join(map(str, s["batches"])) + ".",
        "- **Modes**: *arithmetic only* — forward, backward and update over "
        "batches already in memory (eight real batches, cycled); *in memory* — the same "
        "step, the whole training set transformed once into one float32 array "
        "(N × 1 × 28 × 28, `(uint8 / 255 − mean) / std`, as the transforms do it image by "
        "image: in Gluon the transforms themselves applied to the dataset's whole uint8 "
        "array) and each batch indexed out of it by a fresh shuffle each epoch "
        "(`images[perm[i:i+B]]` in PyTorch, `mx.nd.take` or `mx.np.take` in Gluon)"
        + ("" if analysis.cells(r, mode="memory") else f" ({NOT_MEASURED})")
        + "; *through the DataLoader* — "
        "the same step, each batch drawn from the framework's own `DataLoader` "
        f"(`num_workers={s['workers']}`, shuffled) over the {r['dataset']} training set "
        "with the notebook's transforms (`ToTensor` + `Normalize`: a torchvision dataset in "
        "PyTorch, `dataset.transform_first` in Gluon); *with workers* — that `DataLoader` "
        f"with `num_workers={spec.WORKER_PROCESSES}` (PyTorch: `persistent_workers=True`, "
        "`pin_memory` on a GPU only), created once per cell and started by its first "
        "step, then one stream of batches across epochs, short last batches dropped"
        + (f", at batch {s['scaling_batch']} and {_threads_words(top)} only (each cell "
           "starts its own processes; below the top thread count they would compete for "
           "the cores the count leaves free)" if analysis.cells(r, mode="workers")
           else f" ({NOT_MEASURED})")
        + f"; *pipeline alone* — the `DataLoader` (`num_workers={s['workers']}`) with no "
        "model.",
        "- **Processes and threads**: each configuration at each thread count is one fresh "
        "Python process that imports only its own framework (each process checks that the "
        "other one was never loaded), with `OMP_NUM_THREADS`, `MKL_NUM_THREADS`, "
        "`OPENBLAS_NUM_THREADS` and `MXNET_OMP_MAX_THREADS` set to the count before the "
        "import and `torch.set_num_threads` after it; the counts in effect "
        "(`torch.get_num_threads()`; for MXNet its operators' count by the rule in "
        "`sidebyside.threads`, and the counts the OpenMP runtime and OpenBLAS report) are "
        "in the process table below. Thread counts: "
        + ", ".join(map(str, s["threads"])) + ". The processes run one after the other.",
        f"- **Timing**: a fresh model per cell; the first step is timed alone and "
        f"reported apart (it holds compilation and graph building); warm-up steps (at least "
        f"{s['warmup_steps']} and {s['warmup_s']} s) are excluded and fix the number of "
        f"steps of a timed repeat (about {s['target_s']} s each, at least {s['min_steps']} "
        f"steps, never past one epoch of full batches); {s['repeats']} timed repeats (at "
        "least 3 when the first ones took four times their planned time, as on a busy "
        "machine), median and fastest reported, noise = (slowest − fastest) / median. "
        "Every clock "
        "stops after `mx.nd.waitall()` for MXNet (its operators only queue work) and "
        "`torch.cuda.synchronize()` on a GPU; no step reads a value back (no "
        f"`loss.item()`). Device: {s['device']}.",
        "- **torch.compile**: default backend (inductor), at batch "
        + (", ".join(map(str, compile_batch)) or str(spec.COMPILE_BATCH))
        + " only (a new batch size is a recompilation, and each compile costs seconds), "
        + scaling_note + "with "
        "`TORCHINDUCTOR_COMPILE_THREADS=1` (no pool of compile workers left running beside "
        "the timed loop) and an inductor cache that is empty when the run starts; its "
        "compile time is the first step, in the first-step table, not in the throughput.",
        "- **Roofline**: the fastest GEMM measured at the MLP's first-layer shape, "
        "(batch × 784) · (784 × 256), by `torch.matmul`, `mx.nd.dot` (MXNet's BLAS) and a "
        "bias-free `gluon.nn.Dense` (oneDNN), at the same thread count. A cell's fraction "
        "of it is its median samples/s × its training FLOPs per sample (table below) ÷ "
        "that rate.",
        "",
    ]
    return lines


def _machine(r: dict) -> list[str]:
    m, v, fw = r["machine"], r["versions"], r.get("frameworks", {})
    t, mx_ = fw.get("torch", {}), fw.get("mxnet", {})
    cores = f"{m['cpus_available']} available to the run ({m['logical_cpus']} logical"
    if m.get("physical_cores"):
        cores += f", {m['physical_cores']} cores"
    if m.get("sockets"):
        cores += f", {m['sockets']} socket{'s' if m['sockets'] != 1 else ''}"
    cores += ")"
    rows = [
        ("CPU", m["cpu_model"] + (" (virtual machine)" if m.get("virtualized") else "")),
        ("CPUs", cores),
        ("vector extensions", ", ".join(m.get("isa", [])) or "—"),
        ("memory", f"{m['memory_gib']} GiB" if m.get("memory_gib") else "—"),
        ("platform", m["platform"]),
        ("Python", m["python"]),
        *[(k, v[k] or "not installed") for k in ("torch", "torchvision", "mxnet", "numpy")],
        ("torch build", ", ".join(
            [f"CPU capability {t.get('cpu_capability', '?')}"]
            + [k.upper() for k in ("mkl", "mkldnn", "openmp") if t.get(k)]) if t else "—"),
        ("mxnet build", ", ".join(f for f in mx_.get("features", [])
                                  if f in ("BLAS_OPEN", "BLAS_MKL", "MKLDNN", "OPENMP", "CUDA",
                                           "CUDNN", "F16C", "INT64_TENSOR_SIZE")) or "—"),
        ("run", f"{r['created'][:10]}, {r['mode']} mode, {r['wall_s']:.0f} s wall time, "
                f"`{_md_escape(r['command'])}`"),
        ("CPUs busy with other work (2 s sample)",
         f"{_share(m.get('cpu_busy_start'))} at the start, "
         f"{_share(m.get('cpu_busy_end'))} at the end"),
        ("load average (1 min)", f"{m['load_average_start'][0]:.2f} at the start, "
                                 f"{m['load_average_end'][0]:.2f} at the end (the benchmark's "
                                 "own processes included)"),
    ]
    return ["## The machine", "", "| | |", "|---|---|",
            *[f"| {k} | {_md_escape(val)} |" for k, val in rows], ""]


def _throughput(r: dict, top: int) -> list[str]:
    lines = [f"## Samples per second at {top} thread{'s' if top != 1 else ''}", "",
             "Median samples/s of each cell; in brackets its speed as a fraction of the "
             "fastest configuration in the same column, and its fraction of the roofline "
             "(every training cell). The pipeline rows time the `DataLoader` alone: "
             "no loader cell of the same front end can be faster unless pipeline and "
             "arithmetic overlap.", ""]
    for w in r["workloads"]:
        cols = [(mode, b) for mode in spec.TRAIN_MODES
                for b in analysis.batches(r, mode=mode, workload=w, threads=top)]
        if not cols:
            continue
        head = [f"{MODE_SHORT[m]}, {b}" for m, b in cols]
        lines += [f"**{r['workloads'][w]['label']}** (columns: mode, batch size)", "",
                  "| configuration | " + " | ".join(head) + " |",
                  "|---|" + "---|" * len(cols)]
        fastest = {}
        for mode, b in cols:
            found = analysis.cells(r, mode=mode, workload=w, batch=b, threads=top)
            fastest[(mode, b)] = max(c["samples_per_s_median"] for c in found)
        for cfg in spec.CONFIGS:
            row = []
            for mode, b in cols:
                c = analysis.cell(r, config=cfg.name, mode=mode, workload=w, batch=b,
                                  threads=top)
                row.append("—" if c is None else
                           f"{_n(c['samples_per_s_median'])} "
                           f"({c['samples_per_s_median'] / fastest[(mode, b)]:.2f}×, "
                           f"{_pct(c.get('roofline_fraction'))})")
            if any(x != "—" for x in row):
                lines.append(f"| {_label(cfg.name)} | " + " | ".join(row) + " |")
        for cfg in spec.CONFIGS:
            if not cfg.pipeline:
                continue
            row = []
            for mode, b in cols:
                c = analysis.cell(r, config=cfg.name, mode="pipeline", batch=b, threads=top)
                row.append(_n(c["samples_per_s_median"]) if c and mode == "loader" else "")
            if any(row):
                name = {"torch": "torchvision", "gluon": "Gluon", "gluon-np": "Gluon, mx.np"}
                lines.append(f"| *pipeline alone ({name[cfg.front_end]})* | "
                             + " | ".join(row) + " |")
        lines.append("")
    return lines


def _overlap(r: dict, top: int) -> list[str]:
    b = r["settings"]["scaling_batch"]
    rows = []
    for w in r["workloads"]:
        for cfg in spec.CONFIGS:
            a = analysis.cell(r, config=cfg.name, mode="arith", workload=w, batch=b, threads=top)
            lo = analysis.cell(r, config=cfg.name, mode="loader", workload=w, batch=b,
                               threads=top)
            est = analysis.serial_estimate(r, cfg.name, w, b, top)
            if a and lo and est:
                rows.append(f"| {W[w]} | {_label(cfg.name)} | {_n(a['samples_per_s_median'])} | "
                            f"{_n(lo['samples_per_s_median'])} | {_n(est)} | "
                            f"{lo['samples_per_s_median'] / est:.2f} |")
    if not rows:
        return []
    return [f"## Where an epoch's time goes (batch {b}, {top} thread{'s' if top != 1 else ''})",
            "", "If the data pipeline and the arithmetic ran one after the other, a loader "
            "step would take the pipeline's time plus the arithmetic's: *serial estimate* "
            "= 1 / (1/arithmetic + 1/pipeline alone). A measured/serial ratio above 1 means "
            "they overlap (MXNet's engine computes a step while Python prepares the next "
            "batch); below 1, that they slow each other down (shared cores, caches).", "",
            "| workload | configuration | arithmetic | loader (measured) | serial estimate | "
            "measured / serial |", "|---|---|---|---|---|---|", *rows, ""]


def _route_line(v: dict) -> str:
    """One framework's in-memory route against arithmetic only and the per-image loader,
    in words, from ``analysis.input_routes``."""
    def ratio(x, what, rate):
        return f"{NOT_MEASURED} ({what})" if x is None else f"{x:.2f}× {what} ({_n(rate)})"
    line = (f"- **{spec.FRAMEWORK_LABELS[v['framework']]}** ({_label(v['config'])}, its fastest "
            f"in memory): {_n(v['memory'])} samples/s in memory, "
            f"{ratio(v['memory_vs_arith'], 'its arithmetic-only speed', v['arith'])} and "
            f"{ratio(v['memory_vs_loader'], 'its per-image DataLoader', v['loader'])}")
    if v["workers_vs_loader"] is not None:
        line += (f"; with {spec.WORKER_PROCESSES} DataLoader workers {_n(v['workers'])} "
                 f"samples/s, {v['workers_vs_loader']:.2f}× the DataLoader without")
    return line + "."


def _routes(r: dict, top: int) -> list[str]:
    """The input routes side by side at the scaling batch size: a table per workload, then
    one computed line per framework on the MLP's in-memory route."""
    b = r["settings"]["scaling_batch"]
    head = [f"## Input routes (batch {b}, {_threads_words(top)})", ""]
    if not analysis.cells(r, mode="memory") and not analysis.cells(r, mode="workers"):
        return head + [f"The in-memory route and the DataLoader with "
                       f"{spec.WORKER_PROCESSES} worker processes: {NOT_MEASURED} (its "
                       "results predate those modes; rerun `make bench`).", ""]
    lines = head + [
        "The same training step fed four ways, from no input work at all to the per-image "
        "transforms: arithmetic only (batches already in memory), in memory (the training "
        "set transformed once, a shuffled index per epoch), through the `DataLoader` "
        f"(per-image transforms), and that `DataLoader` with {spec.WORKER_PROCESSES} worker "
        "processes. Median samples/s; in brackets the fraction of the roofline.", ""]
    names = {"torch": "torchvision", "gluon": "Gluon", "gluon-np": "Gluon, mx.np"}
    for w in r["workloads"]:
        modes = [m for m in spec.TRAIN_MODES
                 if analysis.cell(r, mode=m, workload=w, batch=b, threads=top)]
        if not modes:
            continue
        rows = []
        for cfg in spec.CONFIGS:
            found = [analysis.cell(r, config=cfg.name, mode=m, workload=w, batch=b,
                                   threads=top) for m in modes]
            if any(found):
                rows.append(f"| {_label(cfg.name)} | " + " | ".join(
                    "—" if c is None else f"{_n(c['samples_per_s_median'])} "
                    f"({_pct(c.get('roofline_fraction'))})" for c in found) + " |")
        lines += [f"**{r['workloads'][w]['label']}**", "",
                  "| configuration | " + " | ".join(MODE_SHORT[m] for m in modes) + " |",
                  "|---|" + "---|" * len(modes), *rows, ""]
    pipes = []
    for cfg in spec.CONFIGS:
        c = analysis.cell(r, config=cfg.name, mode="pipeline", batch=b, threads=top)
        if cfg.pipeline and c:
            pipes.append(f"{names[cfg.front_end]} {_n(c['samples_per_s_median'])}")
    if pipes:
        lines += [f"The data pipeline alone (`DataLoader`, `num_workers="
                  f"{r['settings']['workers']}`, no model) at this batch size, samples/s: "
                  + "; ".join(pipes) + ".", ""]
    found = [analysis.input_routes(r, fw, "mlp", b, top) for fw in ("torch", "mxnet")]
    found = [v for v in found if v]
    if found:
        lines += [f"The MLP's in-memory route, for each framework (batch {b}, "
                  f"{_threads_words(top)}; the same configuration in every mode):", "",
                  *[_route_line(v) for v in found], ""]
    else:
        lines += [f"The MLP's in-memory route: {NOT_MEASURED}.", ""]
    return lines


def _comparisons(r: dict) -> list[str]:
    comps = analysis.comparisons(r)
    if not comps:
        return []
    lines = ["(benchmarks-comparisons)=",
             "## Gluon against PyTorch, condition by condition", "",
             "Each framework's fastest configuration in each measured condition, and "
             "(last column) the plain pair the seed compared, Gluon imperative against "
             "PyTorch eager. A ratio above 1: Gluon is faster.", "",
             "| condition | Gluon's fastest | PyTorch's fastest | Gluon / PyTorch | "
             "Gluon imperative / PyTorch eager |", "|---|---|---|---|---|"]
    for c in comps:
        where = {k: c[k] for k in ("mode", "workload", "batch", "threads")}
        g, t = analysis.cell(r, config="gluon", **where), analysis.cell(r, config="torch-eager",
                                                                          **where)
        plain = f"{g['samples_per_s_median'] / t['samples_per_s_median']:.2f}" if g and t else "—"
        ratio = f"{c['ratio']:.2f}"
        if c["ratio"] >= analysis.CLAIM_LOW:
            ratio = f"**{ratio}**"
        lines.append(f"| {analysis.condition(c)} | {_label(c['gluon'])} | {_label(c['torch'])} | "
                     f"{ratio} | {plain} |")
    return lines + [""]


def _scaling(r: dict) -> list[str]:
    threads = analysis.thread_counts(r)
    if len(threads) < 2:
        return []
    b = r["settings"]["scaling_batch"]
    lines = [f"## Thread scaling (batch {b})", "",
             "Median samples/s at each thread count, and the speed-up from 1 thread to "
             f"{threads[-1]}.", "",
             "| configuration | workload, mode | " + " | ".join(
                 f"{t} thread{'s' if t != 1 else ''}" for t in threads) + " | speed-up |",
             "|---|---|" + "---|" * (len(threads) + 1)]
    for w in r["workloads"]:
        for mode in spec.MODES:
            for cfg in spec.CONFIGS:
                where = dict(config=cfg.name, mode=mode, batch=b)
                if mode != "pipeline":
                    where["workload"] = w
                elif w != next(iter(r["workloads"])):
                    continue
                vals = {t: analysis.cell(r, threads=t, **where) for t in threads}
                if sum(v is not None for v in vals.values()) < 2:
                    continue
                row = [_n(v["samples_per_s_median"]) if v else "—" for v in vals.values()]
                first, last = vals[threads[0]], vals[threads[-1]]
                up = (f"{last['samples_per_s_median'] / first['samples_per_s_median']:.2f}×"
                      if first and last else "—")
                what = "pipeline alone" if mode == "pipeline" else \
                    f"{W[w]}, {MODE_SHORT[mode]}"
                lines.append(f"| {_label(cfg.name)} | {what} | " + " | ".join(row)
                             + f" | {up} |")
    return lines + [""]


def _gemm(r: dict) -> list[str]:
    rows = r.get("gemm", [])
    if not rows:
        return []
    ms = sorted({x["m"] for x in rows})
    lines = ["## The machine's limit: GEMM at the MLP's shapes", "",
             "GFLOP/s of (batch × 784) · (784 × 256), the MLP's first layer, fastest of the "
             "repeats (median in brackets). " + "; ".join(
                 f"`{k}`: {v}" for k, v in spec.GEMM_NOTES.items()) + ".", "",
             "| implementation | threads | " + " | ".join(f"batch {m}" for m in ms) + " |",
             "|---|---|" + "---|" * len(ms)]
    keys = sorted({(x["impl"], x["threads"]) for x in rows},
                  key=lambda k: (-k[1], list(spec.GEMM_NOTES).index(k[0])))
    for impl, t in keys:
        cells = []
        for m in ms:
            x = next((x for x in rows if x["impl"] == impl and x["threads"] == t
                      and x["m"] == m), None)
            cells.append(f"{x['gflops_best']:.0f} ({x['gflops_median']:.0f})" if x else "—")
        lines.append(f"| `{impl}` | {t} | " + " | ".join(cells) + " |")
    lines += ["", "Roofline used for the fractions: " + "; ".join(
        f"{v['gflops']:.0f} GFLOP/s at {t} thread{'s' if t != '1' else ''} "
        f"(`{v['impl']}`, batch {v['m']})" for t, v in r.get("roofline", {}).items()) + ".", ""]
    return lines


def _flops(r: dict) -> list[str]:
    bs = r["settings"]["batches"]
    lines = ["## FLOPs of one epoch", "",
             "Counted, not measured: 2 FLOPs per multiply-add of the dense and convolution "
             "layers; the backward pass computes weight gradients (as many FLOPs as the "
             "forward) and input gradients (as many again) except for the first layer, whose "
             "input needs none; plus 2 FLOPs per parameter for each SGD update. Bias, ReLU, "
             "pooling and softmax are element-wise and not counted. One epoch is "
             f"{spec.TRAIN_SAMPLES:,} samples.", "",
             "| workload | parameters | forward FLOPs / sample | training FLOPs / sample | "
             + " | ".join(f"epoch at batch {b}" for b in bs) + " |",
             "|---|---|---|---|" + "---|" * len(bs)]
    for w in r["workloads"].values():
        lines.append(f"| {w['label']} | {w['params']:,} | {w['forward_flops_per_sample']:,} | "
                     f"{w['train_flops_per_sample']:,} | " + " | ".join(
                         f"{w['epoch_flops'][str(b)] / 1e9:.1f} GFLOP" for b in bs) + " |")
    return lines + [""]


def _first_steps(r: dict, top: int) -> list[str]:
    b = r["settings"]["scaling_batch"]
    found = [c for c in r["cells"] if c["batch"] == b and c["mode"] != "pipeline"
             and c["threads"] == top]
    if not found:
        return []
    cache = {j["config"]: j.get("inductor_cache") for j in r["jobs"]
             if j["requested_threads"] == top}
    lines = [f"## First step: compilation and graph building (batch {b}, {top} "
             f"thread{'s' if top != 1 else ''})", "",
             "The first training step of a fresh model, timed alone and left out of every "
             "throughput above: it holds `torch.compile`'s compilation (with the state of "
             "the inductor cache when the process started), Gluon's graph building for "
             "`hybridize`, and oneDNN's primitive creation.", "",
             "| configuration | workload, mode | first step | median step after warm-up |",
             "|---|---|---|---|"]
    for c in sorted(found, key=lambda c: ([x.name for x in spec.CONFIGS].index(c["config"]),
                                          list(spec.WORKLOADS).index(c["workload"]),
                                          spec.MODES.index(c["mode"]))):
        extra = f", inductor cache {cache[c['config']]}" if cache.get(c["config"]) else ""
        step = statistics.median(c["seconds"]) / c["steps"]
        lines.append(f"| {_label(c['config'])}{extra} | {W[c['workload']]}, "
                     f"{MODE_SHORT[c['mode']]} | "
                     f"{_s(c['first_step_s'])} | {step * 1e3:.3g} ms |")
    return lines + [""]


def _processes(r: dict) -> list[str]:
    lines = ["## Processes", "",
             "One row per worker process: the thread count asked for, the counts in effect "
             "when it started and when it ended, whether the other framework stayed out of "
             "it, the time its framework took to import, and its wall time.", "",
             "| configuration | threads asked | in effect | at the end | other framework "
             "imported | import | wall time | status |", "|---|---|---|---|---|---|---|---|"]
    for j in r["jobs"]:
        def fmt(t):
            return ", ".join(f"{k} {v}" for k, v in (t or {}).items()) or "—"
        iso = {True: "no", False: "**yes**", None: "?"}[j.get("isolated")]
        lines.append(f"| {_label(j['config'])} | {j['requested_threads']} | "
                     f"{fmt(j.get('threads_in_effect'))} | {fmt(j.get('threads_after'))} | "
                     f"{iso} | {_s(j['import_s']) if j.get('import_s') else '—'} | "
                     f"{_s(j['wall_s'])} | {j['status']} |")
    return lines + [""]


def _noise(r: dict) -> list[str]:
    cs = r["cells"]
    if not cs:
        return []
    spreads = sorted(c["spread"] for c in cs)
    worst = max(cs, key=lambda c: c["spread"])
    what = f"{_label(worst['config'])}, {worst['mode']}" + (
        f", {W[worst['workload']]}" if worst.get("workload") else "") + \
        f", batch {worst['batch']}, {worst['threads']} thread(s)"
    lines = ["## Noise and every cell", "",
             f"Spread of a cell = (slowest − fastest repeat) / median. Over the {len(cs)} "
             f"cells of this run: median spread {_pct(statistics.median(spreads))}, "
             f"90th percentile {_pct(spreads[int(0.9 * (len(spreads) - 1))])}, largest "
             f"{_pct(worst['spread'])} ({what}). Ratios between configurations smaller than "
             "the spreads of the two cells are not differences.", "",
             "| configuration | mode | workload | batch | threads | samples timed | median "
             "samples/s | fastest | spread | roofline |", "|---" * 10 + "|"]
    order = [c.name for c in spec.CONFIGS]
    wl = list(spec.WORKLOADS)
    for c in sorted(cs, key=lambda c: (-c["threads"], order.index(c["config"]),
                                       spec.MODES.index(c["mode"]),
                                       wl.index(c["workload"]) if c.get("workload") else -1,
                                       c["batch"])):
        lines.append(
            f"| {_label(c['config'])} | {c['mode']} | {W.get(c.get('workload'), '—')} | "
            f"{c['batch']} | "
            f"{_threads_in_effect(c)} | {c['steps']} × {c['batch']} | "
            f"{_n(c['samples_per_s_median'])} | {_n(c['samples_per_s_best'])} | "
            f"{_pct(c['spread'])} | {_pct(c.get('roofline_fraction'))} |")
    return lines + [""]


# ------------------------------------------------------------------------------ verdict
def _count(n: int, of: int) -> str:
    return f"{'none' if n == 0 else n} of the {of}"


def verdict_line(v: dict) -> str:
    """The page's first line: the verdict in one sentence, from ``analysis.verdict``."""
    if v["holds"] is None:
        return v["sentence"]
    comps = v["comparisons"]
    return (f"PyTorch is ahead in {_count(len(v['torch_leads']), len(comps))} measured "
            "conditions; the seed's claim that Gluon trains the MLP about twice as fast "
            f"{'holds' if v['holds'] else 'does not hold'} here "
            f"({v['ratio']:.2f}× where the seed measured it).")


def _verdict(r: dict, v: dict) -> list[str]:
    """The verdict line, the run it comes from, then its detail as a list."""
    m, threads = r["machine"], analysis.thread_counts(r)
    lines = [f"**Verdict: {verdict_line(v)}**", "",
             f"Measured on {r['created'][:10]} on {m['cpu_model']}"
             f"{' (virtual machine)' if m.get('virtualized') else ''}, "
             f"{m['cpus_available']} CPU(s), at "
             + " and ".join(map(str, threads))
             + f" thread{'s' if threads != [1] else ''} ({r['mode']} run; the machine and "
             "the method are described below).", ""]
    if v["holds"] is None:
        return lines
    comps, p, low = v["comparisons"], v["primary"], v["claim_low"]
    modes = {"arith": "arithmetic-only ones", "memory": "in memory",
             "loader": "through the DataLoader",
             "workers": f"with {spec.WORKER_PROCESSES} DataLoader workers"}

    def by_mode(found):
        out = []
        for k, words in modes.items():
            n, of = sum(c["mode"] == k for c in found), sum(c["mode"] == k for c in comps)
            if of:
                out.append(f"all {of} {words}" if n == of else f"{_count(n, of)} {words}")
        return "; ".join(out)

    between = [c for c in comps if 1 <= c["ratio"] < low]
    lines += [
        f"- **Where the seed measured** ({analysis.condition(p)}, each framework's fastest "
        f"configuration): Gluon's fastest ({_label(p['gluon'])}) trains at "
        f"{p['ratio']:.2f}× the speed of PyTorch's fastest ({_label(p['torch'])}). *About "
        f"twice* counts as {low}× or more.",
    ]
    if v["ahead"]:
        lines.append(f"- **Gluon {low}× or more ahead** in "
                     f"{_count(len(v['ahead']), len(comps))} conditions: "
                     + "; ".join(analysis.condition(c) for c in v["ahead"]) + ".")
    else:
        best = max(comps, key=lambda c: c["ratio"])
        lines.append(f"- **Gluon {low}× or more ahead** in none of the {len(comps)} "
                     f"conditions; its largest lead is {best['ratio']:.2f}× "
                     f"({analysis.condition(best)}).")
    if between:
        lines.append(f"- **Gluon ahead by less than {low}×** in "
                     f"{_count(len(between), len(comps))}: "
                     + "; ".join(f"{analysis.condition(c)} ({c['ratio']:.2f}×)"
                                 for c in between) + ".")
    if v["torch_leads"]:
        worst = min(v["torch_leads"], key=lambda c: c["ratio"])
        lines.append(f"- **PyTorch ahead** in {_count(len(v['torch_leads']), len(comps))} "
                     f"({by_mode(v['torch_leads'])}), by up to {1 / worst['ratio']:.2f}× "
                     f"({analysis.condition(worst)}).")
    lines += ["- A *condition* is one mode, workload, batch size and thread count; in each, "
              "each framework's fastest configuration is compared. Every ratio is in "
              "{ref}`the comparison table <benchmarks-comparisons>` below.", ""]
    return lines


# ------------------------------------------------------------------------------ figures
def figure_names(r: dict) -> dict[str, str]:
    """Workload -> file name of its figure, for each workload with cells in this run."""
    return {w: f"benchmarks-{w}.png" for w in spec.WORKLOADS if analysis.cells(r, workload=w)}


def _series(ax, xs, rows, **kw):
    """benchmarks/plot.py's series, drawn larger: the page shows each figure at its width."""
    series(ax, xs, rows, **{"markersize": 5, "capsize": 3, "linewidth": 1.6, **kw})


def _threads_words(t: int) -> str:
    return f"{t} thread{'s' if t != 1 else ''}"


PANEL_MODES = ("arith", "memory", "loader")    # a panel each; "workers" joins "loader"'s
PANEL_TITLES = {"arith": "Arithmetic only", "memory": "In memory (transformed once)",
                "loader": "Through the DataLoader"}


def _panels(r: dict, w: str) -> list[str]:
    """The panels this run can fill for workload ``w``: modes against batch size, threads."""
    top = analysis.top_threads(r)
    out = [m for m in PANEL_MODES if analysis.cells(r, mode=m, workload=w, threads=top)]
    b = r["settings"]["scaling_batch"]
    if len({c["threads"] for c in analysis.cells(r, workload=w, batch=b)}) > 1:
        out.append("threads")
    return out


def _thread_modes(r: dict, w: str) -> list[str]:
    """The training modes the thread-scaling panel of workload ``w`` draws: those with a
    configuration measured at two thread counts or more."""
    b = r["settings"]["scaling_batch"]
    return [m for m in MODE_STYLES if any(
        len({c["threads"] for c in analysis.cells(r, config=cfg.name, mode=m, workload=w,
                                                   batch=b)}) > 1 for cfg in spec.CONFIGS)]


def _handles(r: dict, w: str, panels: list[str]) -> list:
    """The legend's entries: a colour per configuration, then what the panels draw beside
    them (pipelines, worker squares, the roofline, the line style of each scaling mode)."""
    from matplotlib.lines import Line2D

    top = analysis.top_threads(r)
    roof = r.get("roofline", {}).get(str(top))
    present = {c["config"] for c in analysis.cells(r, workload=w)}
    handles = [Line2D([], [], color=COLOURS[c.name], marker="o", markersize=5, linewidth=1.6,
                      label=c.label) for c in spec.CONFIGS if c.name in present]
    if "loader" in panels:
        fronts = [c.front_end for c in spec.CONFIGS
                  if c.pipeline and analysis.cells(r, config=c.name, mode="pipeline")]
        handles += [Line2D([], [], color=PIPE_COLOURS[f], linestyle=":", linewidth=1.6,
                           label=PIPE_LABELS[f]) for f in fronts]
        if analysis.cells(r, mode="workers", workload=w, threads=top):
            handles.append(Line2D([], [], color="black", marker="s", markersize=6,
                                  linestyle="none", label=f"DataLoader, {spec.WORKER_PROCESSES} "
                                                          "worker processes"))
    if {"arith", "memory"} & set(panels) and roof:
        handles.append(Line2D([], [], color="grey", linestyle="--", linewidth=1.4,
                              label=f"GEMM roofline, {roof['gflops']:.0f} GFLOP/s, "
                                    "in samples/s"))
    modes = _thread_modes(r, w) if "threads" in panels else []
    if len(modes) > 1:
        handles += [Line2D([], [], color="black", linestyle=MODE_STYLES[m], linewidth=1.6,
                           label=f"thread scaling: {MODE_SHORT[m]}") for m in modes]
    return handles


def draw_figure(r: dict, w: str):
    """Workload ``w``'s figure: one column of panels (arithmetic only, in memory and through
    the DataLoader, with worker processes as squares, against the batch size at the top
    thread count; the three against the thread count at the scaling batch size), y axes
    logarithmic, one legend under them, the figure as tall as its panels and legend need."""
    from matplotlib.figure import Figure
    from matplotlib.ticker import FuncFormatter, LogLocator, NullLocator

    top, b = analysis.top_threads(r), r["settings"]["scaling_batch"]
    panels = _panels(r, w)
    handles = _handles(r, w, panels)
    wl = spec.WORKLOADS[w]
    # 3.4 in held the legend of nine entries: about a quarter of an inch an entry
    fig = Figure(figsize=(FIG_WIDTH_IN, PANEL_HEIGHT_IN * len(panels) + 1.2
                          + 0.245 * len(handles)), dpi=FIG_DPI, layout="constrained")
    axes = fig.subplots(len(panels), 1, squeeze=False)[:, 0]
    roof = r.get("roofline", {}).get(str(top))
    threads = analysis.thread_counts(r)
    for ax, panel in zip(axes, panels):
        if panel == "threads":
            modes = _thread_modes(r, w)
            for cfg in spec.CONFIGS:
                for mode in modes:
                    xs, cs = _by(r, "threads", config=cfg.name, mode=mode, workload=w, batch=b)
                    if len(cs) > 1:
                        _series(ax, xs, cs, color=COLOURS[cfg.name],
                                linestyle=MODE_STYLES[mode])
            ax.set_title(f"Thread scaling, batch {b}", fontsize=TITLE_PT)
            ax.set_xlabel("threads" + (" (line styles: in the legend)" if len(modes) > 1
                                       else f" ({analysis.MODE_WORDS[modes[0]]})"),
                          fontsize=FONT_PT)
            ax.set_xscale("log", base=2)
            ax.set_xticks(threads, [str(t) for t in threads])
            ax.set_xlim(threads[0] / 1.25, threads[-1] * 1.25)
        else:
            for cfg in spec.CONFIGS:
                xs, cs = _by(r, "batch", config=cfg.name, mode=panel, workload=w, threads=top)
                if cs:
                    _series(ax, xs, cs, color=COLOURS[cfg.name])
            bs = analysis.batches(r, mode=panel, workload=w, threads=top)
            if panel == "loader":
                for cfg in spec.CONFIGS:
                    xs, cs = _by(r, "batch", config=cfg.name, mode="pipeline", threads=top)
                    if cfg.pipeline and cs:
                        _series(ax, xs, cs, color=PIPE_COLOURS[cfg.front_end], linestyle=":",
                                alpha=0.8)
                    xs, cs = _by(r, "batch", config=cfg.name, mode="workers", workload=w,
                                 threads=top)
                    if cs:
                        _series(ax, xs, cs, color=COLOURS[cfg.name], marker="s",
                                markersize=7, linestyle="none")
            elif roof:
                ax.plot(bs, [roof["gflops"] * 1e9 / wl.flops_per_sample(x) for x in bs],
                        color="grey", linestyle="--", linewidth=1.4)
            ax.set_title(PANEL_TITLES[panel] + f", {_threads_words(top)}", fontsize=TITLE_PT)
            ax.set_xlabel("batch size", fontsize=FONT_PT)
            ax.set_xscale("log", base=2)
            ax.set_xticks(bs, [str(x) for x in bs])
            ax.set_xlim(bs[0] / 1.3, bs[-1] * 1.3)
        ax.set_yscale("log")
        # plain numbers at 1, 2 and 5 of each decade: no mathtext exponents (their
        # superscripts are smaller than MIN_FONT_PT), no unlabelled minor ticks
        ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1, 2, 5)))
        ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: f"{y:,.0f}".replace(
            ",", "\u2009")))
        ax.yaxis.set_minor_locator(NullLocator())
        ax.xaxis.set_minor_locator(NullLocator())
        ax.set_ylabel("samples/s (log scale)", fontsize=FONT_PT)
        ax.tick_params(labelsize=MIN_FONT_PT)
        ax.grid(alpha=0.3)
    m, v = r["machine"], r["versions"]
    where = (f"{m['cpu_model']}, {m['cpus_available']} CPU(s); torch {v.get('torch')}, "
             f"mxnet {v.get('mxnet')}; {r['mode']} run of {r['created'][:10]}. Points: "
             "medians; bars: slowest to fastest repeat.")
    legend = fig.legend(handles=handles, loc="outside lower center", ncol=1, fontsize=FONT_PT,
                        frameon=False, title="\n".join(textwrap.wrap(where, 60)),
                        title_fontsize=MIN_FONT_PT, alignment="left")
    legend.get_title().set_color("#333333")
    fig.suptitle(wl.label.split(" (")[0] + ": samples per second", fontsize=TITLE_PT + 1,
                 fontweight="bold")
    return fig


def figure_png(r: dict, w: str) -> bytes:
    """The PNG of workload ``w``'s figure: no Software/date metadata, so deterministic."""
    fig = draw_figure(r, w)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=FIG_DPI, metadata={"Software": None})
    return buf.getvalue()


def _figures(r: dict) -> list[str]:
    """The figures section: one MyST figure per workload, linked to its full-size PNG."""
    top, b = analysis.top_threads(r), r["settings"]["scaling_batch"]
    m = r["machine"]
    memory, workers = analysis.cells(r, mode="memory"), analysis.cells(r, mode="workers")
    lines = ["## The figures", "",
             "One figure per workload: samples per second (log scale) of each configuration "
             f"against the batch size at {_threads_words(top)}, "
             + ("arithmetic only and in memory (both with the GEMM roofline in samples/s)"
                if memory else "arithmetic only (with the GEMM roofline in samples/s)")
             + " and through the DataLoader (with each front end's data pipeline alone, "
             "dotted: the ceiling a loader cell cannot pass unless pipeline and arithmetic "
             "overlap"
             + (f"; squares: the DataLoader with {spec.WORKER_PROCESSES} worker processes, at "
                f"batch {b}" if workers else "") + ")"
             + (f", and against the thread count at batch {b}" if len(
                 analysis.thread_counts(r)) > 1 else "")
             + f". Run of {r['created'][:10]} on the machine below ({m['cpu_model']}, "
             f"{m['cpus_available']} CPU(s))."
             + "".join(f" {what}: {NOT_MEASURED}." for what, there in (
                 ("The in-memory route", memory),
                 (f"The DataLoader with {spec.WORKER_PROCESSES} worker processes", workers))
                 if not there)
             + " Select a figure to open it at full size.", ""]
    for w, name in figure_names(r).items():
        wl = spec.WORKLOADS[w]
        panels = _panels(r, w)
        what = {"arith": "arithmetic only against the batch size",
                "memory": "in memory against the batch size",
                "loader": "through the DataLoader against the batch size",
                "threads": f"against the thread count at batch {b}"}
        alt = (f"Line charts for the {wl.label.split(' (')[0]}: samples per second of each "
               "configuration, log scale, " + "; ".join(what[p] for p in panels))
        lines += [f"```{{figure}} {STATIC}/{name}", f":name: benchmarks-figure-{w}",
                  f":alt: {alt}", f":target: {STATIC}/{name}",
                  f":width: {round(FIG_WIDTH_IN * FIG_DPI)}px", "",
                  f"{wl.label.split(' (')[0]}: samples per second of each configuration; "
                  "the numbers are in the tables below.", "```", ""]
    return lines


def render(results_path: Path = RESULTS) -> tuple[str, dict]:
    r = json.loads(Path(results_path).read_text(encoding="utf-8"))
    if r.get("schema") != spec.SCHEMA:
        raise ValueError(f"{results_path.name}: schema {r.get('schema')!r}, expected "
                         f"{spec.SCHEMA!r}")
    top = analysis.top_threads(r)
    v = analysis.verdict(r)
    lines = [
        "% Written by tools/make_benchmarks_page.py (`make benchmarks-page`) from "
        "benchmarks/results/latest.json (`make bench`): rerun those, do not edit this file.",
        "",
        "# Benchmarks: how fast each framework trains, measured",
        "",
        *_verdict(r, v),
        *_warnings(r),
        "The seed article says Gluon trains its MNIST MLP about twice as fast as PyTorch. "
        "[Notebook 3](notebooks/03_mnist_mlp.ipynb) §5 found that the whole-epoch gap comes "
        "from the data pipelines, while PyTorch's arithmetic is faster, but there "
        "`import mxnet` had left PyTorch on MXNet's thread count "
        "([notebook 1](notebooks/01_install_and_environment.ipynb) §3). This page shows the "
        "latest run of the benchmark suite in `benchmarks/`, which times each framework in a "
        "process of its own at stated thread counts, with the arithmetic, the data pipeline "
        "and both together measured apart. The numbers are those of the machine below on "
        "the day of the run: rerun `make bench` on yours.",
        "",
        *_figures(r),
        *_method(r),
        *_machine(r),
        *_throughput(r, top),
        *_routes(r, top),
        *_comparisons(r),
        *_overlap(r, top),
        *_scaling(r),
        *_gemm(r),
        *_flops(r),
        *_first_steps(r, top),
        *_processes(r),
        *_noise(r),
        "## Running it",
        "",
        "- `make bench`: the full run (every configuration, workload, mode, batch size and "
        "thread count; a few minutes on two cores), into `benchmarks/results/latest.json` and "
        "`latest.png`; run it on an otherwise idle machine.",
        "- `make benchmarks-page`: this page and its figures (drawn from the same file) from "
        "`latest.json`, the figures into `book/_static/`.",
        "- `make bench-quick`: a CI-size run (one thread count, batch 128, the MLP, no "
        "`torch.compile`) into `benchmarks/results/quick.json`; tests/test_benchmarks.py runs "
        "it and checks the structure of what it writes, never a timing.",
        "- `.venv/bin/python benchmarks/run.py --help`: thread counts, batch sizes, "
        "configurations, repeats, `num_workers`, `--device cuda`.",
        "",
    ]
    text = "\n".join(lines)
    stats = {"cells": len(r["cells"]), "jobs": len(r["jobs"]), "mode": r["mode"],
             "verdict": {True: "holds", False: "does not hold", None: "undecided"}[v["holds"]]}
    return text, stats


def figure_files(results_path: Path, out: Path) -> tuple[dict[Path, bytes], list[Path]]:
    """What the figures folder beside ``out`` should hold (path -> PNG bytes), and the
    ``benchmarks*.png`` files there that no longer belong (stale)."""
    r = json.loads(Path(results_path).read_text(encoding="utf-8"))
    folder = out.parent / STATIC
    want = {folder / name: figure_png(r, w) for w, name in figure_names(r).items()}
    stale = sorted(f for f in folder.glob(FIGURE_GLOB) if f not in want) \
        if folder.is_dir() else []
    return want, stale


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--results", type=Path, default=RESULTS)
    known, _ = parser.parse_known_args(argv)
    page_argv, skip = [], False      # pagegen's own options: all but --results [PATH]
    for a in argv:
        if not skip and a != "--results" and not a.startswith("--results="):
            page_argv.append(a)
        skip = a == "--results"
    if not known.results.exists():
        print(f"{known.results.name} not found: run `make bench` first", file=sys.stderr)
        return 1
    rc = pagegen.main(lambda: render(known.results), known.out, TARGET,
                      __doc__.splitlines()[0], page_argv)
    want, stale = figure_files(known.results, known.out)
    if known.check:
        bad = 0
        for path, png in want.items():
            same = path.exists() and path.read_bytes() == png
            bad += not same
            print(f"{path.name}: {'up to date' if same else f'OUT OF DATE: run make {TARGET}'}")
        for path in stale:
            bad += 1
            print(f"{path.name}: STALE (no workload of this run draws it): run make {TARGET}")
        return rc or (1 if bad else 0)
    if rc == 0:
        for path, png in want.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(png)
            print(f"wrote {path.name}")
        for path in stale:
            path.unlink()
            print(f"removed {path.name} (stale)")
    return rc


if __name__ == "__main__":
    sys.exit(main())
