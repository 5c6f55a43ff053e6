"""Benchmark PyTorch against MXNet Gluon on the notebook-3 MLP and a LeNet-style CNN.

    make bench          # full run (under 5 min on 2 cores): benchmarks/results/latest.{json,png}
    make bench-quick    # CI size (well under a minute): benchmarks/results/quick.{json,png}
    .venv/bin/python benchmarks/run.py [--quick] [--out DIR] [--threads 1 2] [--batches 128]
        [--configs torch-eager gluon] [--workloads mlp] [--repeats 5] [--workers 0]
        [--device cpu|cuda]

What runs: each configuration (``spec.CONFIGS``: PyTorch eager, ``torch.compile``, Gluon
imperative, Gluon hybridized with static_alloc/static_shape, Gluon on ``mx.np``) at each
thread count is one fresh worker process (``worker.py``) whose environment sets the thread
counts before either library loads: ``OMP_NUM_THREADS``, ``MKL_NUM_THREADS``,
``OPENBLAS_NUM_THREADS`` and ``MXNET_OMP_MAX_THREADS`` to the count, and the worker also calls
``torch.set_num_threads``; each worker reports the counts in effect (``torch.get_num_threads()``;
MXNet's by the rule in ``sidebyside.threads``) and that the other framework was never
imported. The jobs run one after the other, never two at once. ``spec.plan`` says which cells
each job times; ``worker.autorange`` how.

``torch.compile`` (default backend, inductor) runs at batch 128 only — a new batch size is a
recompilation — with ``TORCHINDUCTOR_COMPILE_THREADS=1`` (a pool of compile workers left
running in the background competes with the timed loop on a small machine) and an inductor
cache of its own, empty when the run starts: the first compile of a run is cold, later ones
are recorded as warm. Its compile time is the first step's time (``first_step_s``), reported
apart from the timed steps.

Output (``--out``, default ``benchmarks/results``): ``latest.json`` and ``latest.png`` for a
full run, ``quick.json`` and ``quick.png`` for ``--quick`` (so a quick run never replaces the
committed results). The JSON holds the machine's description, versions, settings, every cell
with its repeats, the GEMM sweep, the roofline per thread count and each cell's fraction of
it; ``tools/make_benchmarks_page.py`` turns latest.json into book/benchmarks.md. Exit status 1
when a job failed (its error is in the JSON and on stderr).

Timings depend on the machine and its load (the share of the CPUs busy with other work, sampled
for 2 s, and the load average are recorded at the start and the end): run the full benchmark on
an otherwise idle machine.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
import analysis  # noqa: E402
import spec  # noqa: E402

WORKER = HERE / "worker.py"
DEFAULT_OUT = HERE / "results"
JOB_TIMEOUT_S = 900
BUSY = 0.25          # share of all CPUs busy with other work above which a run is flagged


def cpu_busy(seconds: float = 2.0) -> float | None:
    """The share of all CPUs busy over ``seconds`` (from /proc/stat), sampled while this
    driver runs nothing: other processes' work. (The load average would not do: a minute after
    a benchmark it still counts the benchmark itself.) None where /proc/stat is missing."""
    def snapshot():
        with open("/proc/stat") as f:
            values = [int(v) for v in f.readline().split()[1:]]
        return sum(values[:8]), values[3] + values[4]          # total, idle + iowait
    try:
        total0, idle0 = snapshot()
        time.sleep(seconds)
        total1, idle1 = snapshot()
    except (OSError, ValueError, IndexError):
        return None
    total = total1 - total0
    return round(1 - (idle1 - idle0) / total, 3) if total > 0 else None


# ------------------------------------------------------------------------ the machine
def _cpuinfo() -> list[dict[str, str]]:
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return []
    blocks = []
    for block in text.strip().split("\n\n"):
        entry = {}
        for line in block.splitlines():
            key, _, value = line.partition(":")
            entry[key.strip()] = value.strip()
        blocks.append(entry)
    return blocks


def machine() -> dict:
    """The machine, without importing either framework."""
    info = _cpuinfo()
    model = next((b.get("model name") for b in info if b.get("model name")), None) \
        or platform.processor() or platform.machine()
    cores = {(b.get("physical id"), b.get("core id")) for b in info if "core id" in b}
    sockets = {b.get("physical id") for b in info if "physical id" in b}
    flags = set(info[0].get("flags", "").split()) if info else set()
    isa = [f for f in ("avx2", "fma", "avx512f", "avx512_bf16", "avx512_vnni", "amx_tile")
           if f in flags]
    mem = None
    try:
        m = re.search(r"MemTotal:\s+(\d+) kB", Path("/proc/meminfo").read_text())
        mem = round(int(m.group(1)) / 2**20, 1) if m else None
    except OSError:
        pass
    return {
        "cpu_model": model,
        "logical_cpus": os.cpu_count(),
        "cpus_available": spec.available_cpus(),
        "physical_cores": len(cores) or None,
        "sockets": len(sockets) or None,
        "isa": isa,
        "virtualized": "hypervisor" in flags,
        "memory_gib": mem,
        "platform": platform.platform(terse=True),
        "python": platform.python_version(),
    }


def versions() -> dict:
    from sidebyside import envreport

    out = envreport.installed_versions()
    out = {k: out[k] for k in ("torch", "torchvision", "mxnet", "numpy")}
    try:
        import importlib.metadata as md

        out["matplotlib"] = md.version("matplotlib")
    except Exception:  # noqa: BLE001
        out["matplotlib"] = None
    return out


# -------------------------------------------------------------------------- the run
def job_env(job: spec.Job, inductor_cache: str) -> dict:
    env = dict(os.environ)
    n = str(job.threads)
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS",
                "MXNET_OMP_MAX_THREADS"):
        env[var] = n
    if spec.CONFIG[job.config].compile:
        env["TORCHINDUCTOR_COMPILE_THREADS"] = "1"
        env["TORCHINDUCTOR_CACHE_DIR"] = inductor_cache
    env.setdefault("PYTHONWARNINGS", "ignore::DeprecationWarning")
    return env


def run_job(job: spec.Job, settings: spec.Settings, tmp: Path, index: int) -> dict:
    out = tmp / f"job{index:03d}.jsonl"
    cmd = [sys.executable, str(WORKER), "--job", json.dumps(job.as_dict()),
           "--settings", json.dumps(settings.as_dict()), "--out", str(out)]
    t = time.perf_counter()
    try:
        proc = subprocess.run(cmd, env=job_env(job, str(tmp / "inductor-cache")),
                              capture_output=True, text=True, timeout=JOB_TIMEOUT_S, cwd=ROOT)
        rc, stderr = proc.returncode, proc.stderr
    except subprocess.TimeoutExpired as exc:
        rc, stderr = "timeout", (exc.stderr or b"").decode(errors="replace") \
            if isinstance(exc.stderr, bytes) else (exc.stderr or "")
    wall = time.perf_counter() - t
    lines = [json.loads(x) for x in out.read_text().splitlines()] if out.exists() else []
    return {"job": job, "rc": rc, "wall_s": wall, "lines": lines, "stderr": stderr}


def collect(done: list[dict]) -> tuple[list, list, list, list]:
    """(jobs, cells, gemm rows, errors) from the workers' lines."""
    jobs, cells, gemm, errors = [], [], [], []
    for d in done:
        job, lines = d["job"], d["lines"]
        start = next((x for x in lines if x["kind"] == "start"), {})
        end = next((x for x in lines if x["kind"] == "end"), {})
        skip = next((x for x in lines if x["kind"] == "skip"), None)
        cfg = spec.CONFIG[job.config]
        entry = {"config": job.config, "framework": cfg.framework,
                 "requested_threads": job.threads, "threads_in_effect": start.get("threads"),
                 "threads_after": end.get("threads_after"), "env": start.get("env"),
                 "isolated": end.get("isolated"), "import_s": start.get("import_s"),
                 "inductor_cache": start.get("inductor_cache"), "load_1m": start.get("load_1m"),
                 "tasks": len(job.tasks), "wall_s": d["wall_s"], "rc": d["rc"],
                 "status": "skipped" if skip else ("ok" if d["rc"] == 0 and end else "failed")}
        if skip:
            entry["reason"] = skip["reason"]
        if entry["status"] == "failed":
            entry["stderr_tail"] = (d["stderr"] or "")[-3000:]
        jobs.append(entry)
        for x in lines:
            base = {"config": job.config, "framework": cfg.framework, "threads": job.threads,
                    "threads_in_effect": start.get("threads")}
            if x["kind"] == "cell":
                rest = {k: v for k, v in x.items()
                        if k not in ("kind", "config", "threads", "task")}
                cells.append({**base, **x["task"], **rest})
            elif x["kind"] == "gemm":
                for row in x["gemm"]:
                    gemm.append({**base, **row})
            elif x["kind"] == "error":
                errors.append({k: v for k, v in x.items() if k != "kind"})
        if entry["status"] == "failed" and not any(
                e["config"] == job.config and e["threads"] == job.threads for e in errors):
            errors.append({"config": job.config, "threads": job.threads, "task": None,
                           "error": f"worker exited with {d['rc']}",
                           "traceback": (d["stderr"] or "")[-3000:]})
    return jobs, cells, gemm, errors


def workloads_section(settings: spec.Settings) -> dict:
    out = {}
    for name in settings.workloads:
        w = spec.WORKLOADS[name]
        out[name] = {
            "label": w.label, "params": w.params,
            "forward_flops_per_sample": w.forward_flops(),
            "train_flops_per_sample": w.train_flops(),
            "flops_per_sample": {str(b): w.flops_per_sample(b) for b in settings.batches},
            "epoch_samples": spec.TRAIN_SAMPLES,
            "epoch_flops": {str(b): w.epoch_flops(b) for b in settings.batches},
        }
    return out


def out_problem(out: Path) -> str | None:
    """Why the results could not be written to the folder ``out``; None when they can.
    Creates nothing: checked before the first job, not after the last."""
    nearest = out
    while not nearest.exists() and nearest.parent != nearest:
        nearest = nearest.parent
    if not nearest.is_dir():
        return f"{nearest} is a file, not a folder"
    if not os.access(nearest, os.W_OK | os.X_OK):
        return f"{nearest} is not writable"
    return None


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true",
                   help="CI size: top thread count, batch 128, MLP, 2 short repeats, no compile")
    p.add_argument("--out", type=Path, default=DEFAULT_OUT,
                   help="folder for latest.json/png (quick.json/png with --quick)")
    p.add_argument("--threads", type=int, nargs="+", help="thread counts (default 1, 2, 4, "
                   "... up to the CPUs this process may use; --quick: all of them)")
    p.add_argument("--batches", type=int, nargs="+", help="batch sizes (default 32 128 512)")
    p.add_argument("--configs", nargs="+", choices=list(spec.CONFIG), help="configurations")
    p.add_argument("--workloads", nargs="+", choices=list(spec.WORKLOADS))
    p.add_argument("--repeats", type=int, help="timed repeats per cell (default 5; quick 2)")
    p.add_argument("--target-s", type=float,
                   help="seconds per timed repeat (default 0.15; quick 0.05)")
    p.add_argument("--workers", type=int, default=0, help="DataLoader num_workers (default 0)")
    p.add_argument("--device", choices=("cpu", "cuda"), default="cpu",
                   help="cuda: PyTorch on cuda:0, Gluon on gpu(0) when its build has one")
    p.add_argument("--no-plot", action="store_true")
    args = p.parse_args(argv)
    s = spec.default_settings(args.quick)
    over = {}
    for key in ("threads", "batches", "configs", "workloads"):
        value = getattr(args, key)
        if value:
            over[key] = tuple(value)
    if args.repeats is not None:
        over["repeats"] = args.repeats
    if args.target_s is not None:
        over["target_s"] = args.target_s
    over["workers"], over["device"] = args.workers, args.device
    if any(t < 1 for t in over.get("threads", ())) or any(b < 1 for b in over.get("batches", ())):
        p.error("thread counts and batch sizes must be >= 1")
    if args.workers < 0 or over.get("repeats", 1) < 1:
        p.error("--workers must be >= 0 and --repeats >= 1")
    if not over.get("target_s", 1.0) > 0:
        p.error("--target-s must be > 0 seconds")
    problem = out_problem(args.out)
    if problem:
        p.error(f"--out {args.out}: {problem}; nothing was run")
    if "batches" in over and s.scaling_batch not in over["batches"]:
        over["scaling_batch"] = over["batches"][0]
    s = spec.Settings(**{**s.__dict__, **over})
    return args, s


def command_line(argv) -> str:
    """The command, with a folder given to --out written as OUT (no machine path in the JSON)."""
    words, hide = ["benchmarks/run.py"], False
    for a in argv:
        words.append("--out=OUT" if a.startswith("--out=") else "OUT" if hide else a)
        hide = a == "--out"
    return " ".join(w if " " not in w else repr(w) for w in words)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args, settings = parse_args(argv)
    t0 = time.perf_counter()
    jobs = spec.plan(settings)
    load_start = os.getloadavg()
    busy_start = cpu_busy()
    stem = "quick" if settings.mode == "quick" else "latest"
    print(f"{len(jobs)} jobs ({sum(len(j.tasks) for j in jobs)} tasks), threads "
          f"{list(settings.threads)}, batches {list(settings.batches)}; load average "
          f"{load_start[0]:.2f}, CPUs busy with other work {busy_start}", flush=True)
    if busy_start is not None and busy_start > BUSY:
        print(f"WARNING: the machine is busy ({busy_start:.0%} of its CPUs with other work): "
              "timings will say more about the load than about the frameworks",
              file=sys.stderr, flush=True)
    done = []
    with tempfile.TemporaryDirectory(prefix="sbs-bench-") as tmp:
        for i, job in enumerate(jobs, 1):
            d = run_job(job, settings, Path(tmp), i)
            done.append(d)
            n_cells = sum(x["kind"] in ("cell", "gemm") for x in d["lines"])
            state = "ok" if d["rc"] == 0 else f"FAILED ({d['rc']})"
            print(f"[{i}/{len(jobs)}] {job.config} @ {job.threads} thread(s): {n_cells} "
                  f"cells, {d['wall_s']:.1f} s, {state}", flush=True)
            if d["rc"] != 0:
                print(d["stderr"][-2000:], file=sys.stderr)
    job_rows, cell_rows, gemm_rows, errors = collect(done)
    frameworks = {}
    for d in done:
        start = next((x for x in d["lines"] if x["kind"] == "start"), None)
        if start:
            frameworks.setdefault(start["framework"], start["build"])
    skipped = spec.skipped_configs(settings)
    for j in job_rows:
        if j["status"] == "skipped":
            skipped.setdefault(j["config"], j["reason"])
    results = {
        "schema": spec.SCHEMA,
        "created": dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat(),
        "mode": settings.mode,
        "command": command_line(argv),
        "machine": {**machine(), "load_average_start": [round(x, 2) for x in load_start],
                    "cpu_busy_start": busy_start},
        "versions": versions(),
        "frameworks": frameworks,
        "dataset": os.environ.get("SIDEBYSIDE_DATASET") or "fashion-mnist",
        "settings": settings.as_dict(),
        "configs": [{"name": c.name, "framework": c.framework, "label": c.label,
                     "skipped": skipped.get(c.name)} for c in spec.CONFIGS],
        "workloads": workloads_section(settings),
        "jobs": job_rows,
        "cells": cell_rows,
        "gemm": gemm_rows,
        "errors": errors,
    }
    analysis.annotate(results)
    results["machine"]["load_average_end"] = [round(x, 2) for x in os.getloadavg()]
    results["machine"]["cpu_busy_end"] = cpu_busy()
    results["wall_s"] = round(time.perf_counter() - t0, 1)
    args.out.mkdir(parents=True, exist_ok=True)
    json_path = args.out / f"{stem}.json"
    json_path.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {json_path}")
    if not args.no_plot:
        import plot

        png = plot.plot(results, args.out / f"{stem}.png")
        print(f"wrote {png}")
    print(analysis.verdict(results)["sentence"])
    print(f"wall time {results['wall_s']:.1f} s")
    if errors:
        print(f"{len(errors)} error(s): " + "; ".join(
            f"{e['config']}@{e['threads']}: {e['error']}" for e in errors), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
