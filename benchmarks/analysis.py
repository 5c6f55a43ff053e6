"""Derived numbers of a benchmark run: roofline, fractions, ratios and the verdict.

Pure Python over the results dict that ``run.py`` writes (no framework imported), shared by
the driver (which stores the roofline and the per-cell fractions in the JSON and prints the
verdict) and by ``tools/make_benchmarks_page.py`` (which computes the verdict again from the
cells, so the page can never disagree with the data it shows).
"""
from __future__ import annotations

import statistics

import spec

# "About twice as fast": Gluon's best at least this many times PyTorch's best.
CLAIM = 2.0
CLAIM_LOW = 1.75
PRIMARY = {"mode": "loader", "workload": "mlp", "batch": 128}   # the seed's comparison
# A training mode in the words of a condition ("MLP in memory, batch 128, 2 threads").
MODE_WORDS = {"arith": "arithmetic only", "memory": "in memory",
              "loader": "through the DataLoader",
              "workers": f"through the DataLoader with {spec.WORKER_PROCESSES} workers"}


# ------------------------------------------------------------------------------ lookups
def cells(results: dict, **where) -> list[dict]:
    """The cells matching every ``key=value`` given (``threads`` is the requested count)."""
    return [c for c in results.get("cells", [])
            if all(c.get(k) == v for k, v in where.items())]


def cell(results: dict, **where) -> dict | None:
    found = cells(results, **where)
    return found[0] if found else None


def thread_counts(results: dict) -> list[int]:
    return sorted({c["threads"] for c in results.get("cells", [])})


def top_threads(results: dict) -> int | None:
    counts = thread_counts(results)
    return counts[-1] if counts else None


def batches(results: dict, **where) -> list[int]:
    return sorted({c["batch"] for c in cells(results, **where)})


def spread(seconds: list[float]) -> float:
    """Relative range of the repeats, (max - min) / median: the noise of one cell."""
    return (max(seconds) - min(seconds)) / statistics.median(seconds)


# ---------------------------------------------------------------------- roofline, FLOPs
def roofline(gemm_rows: list[dict]) -> dict[int, dict]:
    """Per thread count: the best GEMM rate measured at the MLP's shapes, any implementation."""
    best: dict[int, dict] = {}
    for row in gemm_rows:
        t = row["threads"]
        if t not in best or row["gflops_best"] > best[t]["gflops"]:
            best[t] = {"gflops": row["gflops_best"], "impl": row["impl"], "m": row["m"]}
    return best


def annotate(results: dict) -> None:
    """Add, in place, the roofline per thread count and each cell's FLOP rate, fraction of
    that roofline, and noise."""
    roof = roofline(results.get("gemm", []))
    results["roofline"] = {str(t): v for t, v in sorted(roof.items())}
    for c in results.get("cells", []):
        c["spread"] = spread(c["seconds"])
        if c["mode"] == "pipeline" or c.get("workload") is None:
            continue
        fps = spec.WORKLOADS[c["workload"]].flops_per_sample(c["batch"])
        c["flops_per_sample"] = fps
        c["gflops_median"] = fps * c["samples_per_s_median"] / 1e9
        r = roof.get(c["threads"])
        c["roofline_gflops"] = r["gflops"] if r else None
        c["roofline_fraction"] = c["gflops_median"] / r["gflops"] if r else None
    for row in results.get("gemm", []):
        row["spread"] = spread(row["seconds"])


def serial_estimate(results: dict, config: str, workload: str, batch: int,
                    threads: int) -> float | None:
    """Samples/s the loader cell would reach if its pipeline and arithmetic did not overlap:
    1 / (1/arith + 1/pipeline), with the pipeline of the configuration's front end."""
    front = spec.CONFIG[config].front_end
    pipe_cfg = next((c.name for c in spec.CONFIGS if c.front_end == front and c.pipeline), None)
    a = cell(results, config=config, mode="arith", workload=workload, batch=batch,
             threads=threads)
    p = cell(results, config=pipe_cfg, mode="pipeline", batch=batch, threads=threads)
    if not a or not p:
        return None
    return 1 / (1 / a["samples_per_s_median"] + 1 / p["samples_per_s_median"])


# ------------------------------------------------------------------------------ ratios
def framework_best(results: dict, framework: str, **where) -> dict | None:
    """The fastest (median samples/s) cell of one framework's configurations."""
    found = [c for c in cells(results, **where)
             if spec.CONFIG[c["config"]].framework == framework]
    return max(found, key=lambda c: c["samples_per_s_median"]) if found else None


def comparisons(results: dict) -> list[dict]:
    """Gluon's best / PyTorch's best, for every (mode, workload, batch, threads) both have."""
    keys = sorted({(c["mode"], c["workload"], c["batch"], c["threads"])
                   for c in results.get("cells", []) if c["mode"] != "pipeline"},
                  key=lambda k: (spec.MODES.index(k[0]), list(spec.WORKLOADS).index(k[1]),
                                 k[2], k[3]))
    out = []
    for mode, workload, batch, threads in keys:
        where = dict(mode=mode, workload=workload, batch=batch, threads=threads)
        g, t = framework_best(results, "mxnet", **where), framework_best(results, "torch", **where)
        if g and t:
            out.append({**where, "gluon": g["config"], "torch": t["config"],
                        "ratio": g["samples_per_s_median"] / t["samples_per_s_median"]})
    return out


def condition(comp: dict) -> str:
    what = MODE_WORDS[comp["mode"]]
    threads = "thread" if comp["threads"] == 1 else "threads"
    return (f"{spec.WORKLOAD_SHORT[comp['workload']]} {what}, "
            f"batch {comp['batch']}, {comp['threads']} {threads}")


def _label(config: str) -> str:
    return spec.CONFIG[config].label


def _list(items: list[str], limit: int = 4) -> str:
    """Conditions hold commas of their own: semicolons between them."""
    if len(items) > limit:
        items = items[:limit] + [f"{len(items) - limit} more"]
    return items[0] if len(items) == 1 else "; ".join(items[:-1]) + "; and " + items[-1]


def verdict(results: dict) -> dict:
    """The verdict on the seed's claim, computed from the cells: a sentence and its numbers.

    The claim is judged where the seed measured it: the MLP at batch 128 through each
    framework's DataLoader, each framework's fastest configuration, at the run's top thread
    count. Every other measured condition (mode, workload, batch, threads) then says where
    the claim would hold (Gluon ahead by CLAIM_LOW or more) and where PyTorch leads.
    """
    comps = comparisons(results)
    top = top_threads(results)
    primary = next((c for c in comps if c["threads"] == top
                    and all(c[k] == v for k, v in PRIMARY.items())), None)
    if primary is None:
        return {"sentence": "This run has no MLP cell at batch 128 through the DataLoader for "
                            "both frameworks, so it cannot judge the seed's claim.",
                "holds": None, "ratio": None, "comparisons": comps}
    r = primary["ratio"]
    holds = r >= CLAIM_LOW
    ahead = [c for c in comps if c["ratio"] >= CLAIM_LOW]
    torch_leads = [c for c in comps if c["ratio"] < 1]
    head = (f"The seed's claim that Gluon trains the MLP about twice as fast as PyTorch "
            f"{'holds' if holds else 'does not hold'} on this machine: through each "
            f"framework's DataLoader at batch 128 with {top} "
            f"thread{'s' if top != 1 else ''} each, Gluon's fastest configuration "
            f"({_label(primary['gluon'])}) trains at {r:.2f}× the speed of PyTorch's fastest "
            f"({_label(primary['torch'])})")
    if len(comps) == 1:
        tail = "; this run measured no other condition"
    elif ahead:
        items = [condition(c) for c in ahead if c is not primary]
        items += ["this one"] if holds else []
        tail = (f"; of the {len(comps)} measured conditions, Gluon is {CLAIM_LOW}× or more "
                f"ahead in {len(ahead)} ({_list(items)}) and PyTorch is ahead in "
                f"{len(torch_leads)}")
    else:
        best = max(comps, key=lambda c: c["ratio"])
        modes = [MODE_WORDS[m] for m in spec.TRAIN_MODES if any(c["mode"] == m for c in comps)]
        tail = (f"; no measured condition (of {len(comps)}: {' or '.join(modes)}, "
                f"MLP or LeNet, batch {_range(results, 'batch')}, "
                f"{_range(results, 'threads')} threads) gives Gluon {CLAIM_LOW}× or more — "
                f"its largest lead is {best['ratio']:.2f}× ({condition(best)})")
        if torch_leads:
            worst = min(torch_leads, key=lambda c: c["ratio"])
            tail += (f", and PyTorch is ahead in {len(torch_leads)} of them, by up to "
                     f"{1 / worst['ratio']:.2f}× ({condition(worst)})")
    return {"sentence": head + tail + ".", "holds": holds, "ratio": r, "primary": primary,
            "claim_low": CLAIM_LOW, "ahead": ahead, "torch_leads": torch_leads,
            "comparisons": comps}


def input_routes(results: dict, framework: str, workload: str, batch: int,
                 threads: int) -> dict | None:
    """How the in-memory route of one framework compares with the others: its fastest
    configuration in memory (``workload``, ``batch``, ``threads``), and that same
    configuration's median samples/s arithmetic only, through the per-image DataLoader and
    with worker processes (None where not measured), with the ratios memory / arithmetic,
    memory / loader and workers / loader. None when the run has no such in-memory cell
    (a run from before the mode existed)."""
    where = dict(workload=workload, batch=batch, threads=threads)
    best = framework_best(results, framework, mode="memory", **where)
    if best is None:
        return None
    rates = {"memory": best["samples_per_s_median"]}
    for mode in ("arith", "loader", "workers"):
        c = cell(results, config=best["config"], mode=mode, **where)
        rates[mode] = c["samples_per_s_median"] if c else None

    def ratio(a, b):
        return rates[a] / rates[b] if rates[a] and rates[b] else None
    return {"framework": framework, "config": best["config"], **where, **rates,
            "memory_vs_arith": ratio("memory", "arith"),
            "memory_vs_loader": ratio("memory", "loader"),
            "workers_vs_loader": ratio("workers", "loader")}


def _range(results: dict, key: str) -> str:
    values = sorted({c[key] for c in results.get("cells", []) if c["mode"] != "pipeline"})
    return str(values[0]) if len(values) == 1 else f"{values[0]}-{values[-1]}"
