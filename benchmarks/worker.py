"""One job of the benchmark suite: one configuration at one thread count, in this process.

Started by ``run.py`` in a fresh interpreter whose environment already holds the thread
counts (``OMP_NUM_THREADS``, ``MXNET_OMP_MAX_THREADS``, ... are read when the libraries
load), so one framework's OpenMP settings and warm caches never touch the other's: a PyTorch
job never imports mxnet and a Gluon job never imports torch (each result line says so).

Each finished cell is appended to ``--out`` as one JSON line, so a crash keeps what was done.

How a cell is timed (:func:`autorange`): a fresh model; the first step alone (its time is
kept: it holds ``torch.compile``'s compilation, Gluon's graph building, oneDNN's primitive
creation); then warm-up chunks of 1, 2, 4, ... steps until both the warm-up time and step
count are reached — the last chunk gives the step time, from which the number of steps of a
timed repeat is chosen so that one repeat lasts about ``target_s``; then ``repeats`` timed
repeats of that many steps (fewer, but at least 3, when the repeats have already taken four
times their planned time: a busy machine; ``len(seconds)`` says how many ran). Every clock
stops after the framework's work is done: ``mx.nd.waitall()`` for MXNet,
``torch.cuda.synchronize()`` on a GPU (PyTorch on a CPU is eager). Nothing in a timed step
reads a value back (no ``loss.item()``), in either framework.

What a timed repeat walks through, by mode: ``arith`` cycles through a few batches already
in memory; ``memory`` and ``loader`` start an epoch (a fresh shuffle, a fresh DataLoader
iterator) at every timed run and stop before its short last batch; ``workers`` keeps one
stream of batches going across the runs of a cell (epoch after epoch, short last batches
dropped), so that its worker processes, started by the first step, are started once per
cell and every timed run counts batches only.

    python benchmarks/worker.py --job '{"config": ..., "threads": ..., "tasks": [...]}' \\
        --settings '{...}' --out cells.jsonl
"""
from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import random
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import spec  # noqa: E402  (benchmarks/spec.py)

IN_MEMORY_BATCHES = 8       # distinct batches cycled through by the arithmetic-only cells
MAX_ARITH_STEPS = 100_000
CELL_BUDGET = 4     # stop a cell's repeats (after 3) once they took 4x their planned time
THREAD_VARS = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS",
               "MXNET_OMP_MAX_THREADS", "MXNET_CPU_WORKER_NTHREADS",
               "TORCHINDUCTOR_COMPILE_THREADS")


class Emitter:
    def __init__(self, path: Path):
        self.path = path

    def __call__(self, kind: str, **fields) -> None:
        with self.path.open("a", encoding="utf-8") as f:
            f.write(json.dumps({"kind": kind, **fields}) + "\n")


def autorange(run_n, sync, settings: spec.Settings, max_steps: int) -> dict:
    """Time ``run_n(n)`` (n steps, not synced) as described in the module docstring."""
    perf = time.perf_counter
    t = perf()
    run_n(1)
    sync()
    first_step_s = perf() - t
    warm_steps, chunk, dt = 1, 1, first_step_s
    start = perf()
    while warm_steps < settings.warmup_steps or perf() - start < settings.warmup_s:
        chunk = min(chunk, max_steps)
        t = perf()
        run_n(chunk)
        sync()
        dt = (perf() - t) / chunk
        warm_steps += chunk
        chunk *= 2
    steps = min(max_steps, max(settings.min_steps, math.ceil(settings.target_s / dt)))
    seconds, returned = [], []
    budget = CELL_BUDGET * settings.repeats * settings.target_s
    for _ in range(settings.repeats):
        if len(seconds) >= min(3, settings.repeats) and sum(seconds) > budget:
            break       # a step far slower than its warm-up said (a busy machine): enough
        t = perf()
        run_n(steps)
        r = perf()
        sync()
        end = perf()
        seconds.append(end - t)
        returned.append(r - t)
    return {"first_step_s": first_step_s, "warmup_steps": warm_steps, "steps": steps,
            "seconds": seconds, "returned_s": returned}


# ---------------------------------------------------------------------------- PyTorch
class TorchRunner:
    def __init__(self, cfg: spec.Config, settings: spec.Settings, threads: int):
        import torch

        torch.set_num_threads(threads)
        torch.manual_seed(0)
        self.torch = torch
        self.cfg, self.settings = cfg, settings
        if settings.device == "cuda":
            if not torch.cuda.is_available():
                raise RuntimeError("--device cuda, but torch.cuda.is_available() is False")
            self.dev = torch.device("cuda", 0)
        else:
            self.dev = torch.device("cpu")
        self.cache_state = None
        if cfg.compile:
            cache = os.environ.get("TORCHINDUCTOR_CACHE_DIR")
            self.cache_state = ("warm" if cache and Path(cache).is_dir()
                                and any(Path(cache).iterdir()) else "cold")
        self._sets = {}

    def threads(self) -> dict:
        return {"torch": self.torch.get_num_threads(),
                "torch_interop": self.torch.get_num_interop_threads()}

    def build_info(self) -> dict:
        torch = self.torch
        info = {"version": torch.__version__, "cuda_build": torch.version.cuda,
                "cpu_capability": torch.backends.cpu.get_cpu_capability(),
                "mkl": torch.backends.mkl.is_available(),
                "mkldnn": torch.backends.mkldnn.is_available(),
                "openmp": torch.backends.openmp.is_available(),
                "device": str(self.dev)}
        if self.dev.type == "cuda":
            info["gpu"] = torch.cuda.get_device_name(self.dev)
        return info

    def sync(self) -> None:
        if self.dev.type == "cuda":
            self.torch.cuda.synchronize(self.dev)

    def dataset(self):
        if "train" not in self._sets:
            from torchvision import transforms

            from sidebyside import data

            s = data.SPECS[data.dataset_name()]
            self._sets["train"] = data.torch_dataset(train=True, transform=transforms.Compose(
                [transforms.ToTensor(), transforms.Normalize((s.mean,), (s.std,))]))
        return self._sets["train"]

    def loader(self, batch: int, workers: int | None = None):
        """The DataLoader of the ``loader`` cells (``settings.workers`` processes), or with
        ``workers`` processes: then persistent (started once, kept across epochs), pinned
        memory on a GPU, and the short last batch dropped (``workers`` cells stream epochs)."""
        if workers is None:
            return self.torch.utils.data.DataLoader(self.dataset(), batch_size=batch,
                                                    shuffle=True,
                                                    num_workers=self.settings.workers)
        return self.torch.utils.data.DataLoader(
            self.dataset(), batch_size=batch, shuffle=True, num_workers=workers,
            persistent_workers=workers > 0, pin_memory=self.dev.type == "cuda",
            drop_last=True)

    def memory_set(self):
        """The training set transformed once, as the loader's transforms do it image by
        image, ``(uint8 / 255 - mean) / std``: images N x 1 x 28 x 28 float32 and labels,
        on the device."""
        if "memory" not in self._sets:
            from sidebyside import data

            torch = self.torch
            s = data.SPECS[data.dataset_name()]
            train = self.dataset()
            images = ((train.data.to(torch.float32) / 255 - s.mean) / s.std).unsqueeze(1)
            self._sets["memory"] = (images.contiguous().to(self.dev),
                                    train.targets.to(self.dev))
            self._perm_gen = torch.Generator().manual_seed(0)
        return self._sets["memory"]

    def memory_batches(self, batch: int, perm=None):
        """One epoch of the ``memory`` route: ``images[perm[i:i+batch]]`` for the full
        batches of ``perm`` (a fresh shuffle of the training set when None)."""
        images, labels = self.memory_set()
        if perm is None:
            perm = self.torch.randperm(len(labels), generator=self._perm_gen)
        perm = self.torch.as_tensor(perm).to(self.dev)
        for i in range(0, len(perm) - batch + 1, batch):
            idx = perm[i:i + batch]
            yield images[idx], labels[idx]

    def model(self, workload: str):
        nn = self.torch.nn
        if workload == "mlp":
            net = nn.Sequential(nn.Flatten(), nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10))
        else:
            net = nn.Sequential(
                nn.Conv2d(1, 6, 5, padding=2), nn.ReLU(), nn.MaxPool2d(2),
                nn.Conv2d(6, 16, 5), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                nn.Linear(400, 120), nn.ReLU(), nn.Linear(120, 84), nn.ReLU(), nn.Linear(84, 10))
        return net.to(self.dev)

    def step_fn(self, workload: str):
        net = self.model(workload)
        fwd = self.torch.compile(net) if self.cfg.compile else net
        opt = self.torch.optim.SGD(net.parameters(), lr=spec.LR)
        loss_fn = self.torch.nn.CrossEntropyLoss()
        dev = self.dev

        def step(X, y):
            X, y = X.to(dev), y.to(dev)
            opt.zero_grad()
            loss = loss_fn(fwd(X), y)
            loss.backward()
            opt.step()
        return step

    def batches(self, batch: int):
        it = iter(self.loader(batch))
        return [(X.to(self.dev), y.to(self.dev))
                for X, y in itertools.islice(it, IN_MEMORY_BATCHES)]

    def gemm(self, impl: str, m: int):
        assert impl == "torch.matmul", impl
        g = self.torch.Generator().manual_seed(0)
        a = self.torch.randn(m, spec.GEMM_K, generator=g).to(self.dev)
        b = self.torch.randn(spec.GEMM_K, spec.GEMM_N, generator=g).to(self.dev)
        matmul = self.torch.matmul

        def run_n(n):
            for _ in range(n):
                matmul(a, b)
        return run_n

    def isolated(self) -> bool:
        return "mxnet" not in sys.modules


# ------------------------------------------------------------------------------ Gluon
class GluonRunner:
    def __init__(self, cfg: spec.Config, settings: spec.Settings, threads: int):
        import mxnet as mx

        from sidebyside import threads as sbs_threads

        self.mx, self.cfg, self.settings = mx, cfg, settings
        self._mx_threads = sbs_threads.mxnet_operator_threads()
        mx.random.seed(0)
        if cfg.numpy:
            mx.npx.set_np()
        if settings.device == "cuda":
            if mx.context.num_gpus() == 0:
                raise SkipJob("--device cuda, but this MXNet build sees no GPU "
                              "(mx.context.num_gpus() == 0)")
            self.ctx = mx.gpu(0)
        else:
            self.ctx = mx.cpu()
        self.cache_state = None
        self._sets = {}

    def threads(self) -> dict:
        """MXNet's operator threads (the rule: fixed at import), and as measured: the OpenMP
        runtime's count in this thread (oneDNN's too) and OpenBLAS's (mx.nd.dot)."""
        return {"mxnet": self._mx_threads, "openmp": _native_count("libgomp.so.1",
                                                                   "omp_get_max_threads"),
                "openblas": _native_count(str(Path(self.mx.__file__).parent
                                              / "libopenblas.so.0"),
                                          "openblas_get_num_threads"),
                "mxnet_engine_workers": int(os.environ.get("MXNET_CPU_WORKER_NTHREADS", "1"))}

    def build_info(self) -> dict:
        mx = self.mx
        feats = mx.runtime.Features()
        return {"version": mx.__version__, "device": str(self.ctx),
                "features": sorted(k for k in feats if feats.is_enabled(k))}

    def sync(self) -> None:
        self.mx.nd.waitall()

    def dataset(self):
        if "train" not in self._sets:
            from mxnet.gluon.data.vision import transforms

            from sidebyside import data

            s = data.SPECS[data.dataset_name()]
            self._sets["raw"] = data.gluon_dataset(train=True)
            self._sets["train"] = self._sets["raw"].transform_first(
                transforms.Compose([transforms.ToTensor(), transforms.Normalize(s.mean, s.std)]))
        return self._sets["train"]

    def loader(self, batch: int, workers: int | None = None):
        """The DataLoader of the ``loader`` cells (``settings.workers`` processes), or with
        ``workers`` processes (Gluon's pool starts with the DataLoader and serves every
        epoch) and the short last batch dropped (``workers`` cells stream epochs)."""
        if workers is None:
            return self.mx.gluon.data.DataLoader(self.dataset(), batch_size=batch,
                                                 shuffle=True,
                                                 num_workers=self.settings.workers)
        return self.mx.gluon.data.DataLoader(self.dataset(), batch_size=batch, shuffle=True,
                                             num_workers=workers, last_batch="discard")

    def memory_set(self):
        """The training set transformed once by the loader's own transforms applied to the
        whole array (Gluon's vision datasets keep a split as one uint8 array, N x 28 x 28 x 1,
        in ``_data``, its labels in ``_label``): images N x 1 x 28 x 28 float32 and int32
        labels, on the device; ``mx.np`` arrays under ``npx.set_np``."""
        if "memory" not in self._sets:
            import numpy as np
            from mxnet.gluon.data.vision import transforms

            from sidebyside import data

            mx = self.mx
            s = data.SPECS[data.dataset_name()]
            self.dataset()
            raw = self._sets["raw"]
            images = transforms.Normalize(s.mean, s.std)(transforms.ToTensor()(raw._data))
            labels = np.asarray(raw._label.asnumpy() if hasattr(raw._label, "asnumpy")
                                else raw._label, dtype=np.int32)
            array = mx.np.array if self.cfg.numpy else mx.nd.array
            self._sets["memory"] = (images.as_in_context(self.ctx),
                                    array(labels, dtype="int32", ctx=self.ctx))
            self._perm_rng = np.random.RandomState(0)
            self.sync()
        return self._sets["memory"]

    def memory_batches(self, batch: int, perm=None):
        """One epoch of the ``memory`` route: ``take(images, idx[i:i+batch])`` for the full
        batches of the index ``perm`` (a fresh shuffle of the training set when None):
        ``mx.nd.take``, or ``mx.np.take`` on the NumPy front end."""
        mx = self.mx
        images, labels = self.memory_set()
        if perm is None:
            perm = self._perm_rng.permutation(labels.shape[0])
        if self.cfg.numpy:
            idx_all = mx.np.array(perm, dtype="int32", ctx=self.ctx)

            def take(a, idx):
                return mx.np.take(a, idx, axis=0)
        else:
            idx_all = mx.nd.array(perm, dtype="int32", ctx=self.ctx)
            take = mx.nd.take
        for i in range(0, len(perm) - batch + 1, batch):
            idx = idx_all[i:i + batch]
            yield take(images, idx), take(labels, idx)

    def model(self, workload: str):
        nn = self.mx.gluon.nn
        net = nn.HybridSequential()
        if workload == "mlp":
            net.add(nn.Dense(256, activation="relu", in_units=784), nn.Dense(10, in_units=256))
        else:
            net.add(nn.Conv2D(6, 5, padding=2, in_channels=1, activation="relu"),
                    nn.MaxPool2D(2),
                    nn.Conv2D(16, 5, in_channels=6, activation="relu"),
                    nn.MaxPool2D(2),
                    nn.Dense(120, activation="relu", in_units=400),
                    nn.Dense(84, activation="relu", in_units=120),
                    nn.Dense(10, in_units=84))
        net.initialize(ctx=self.ctx)
        return net

    def step_fn(self, workload: str):
        mx = self.mx
        net = self.model(workload)
        loss_fn = mx.gluon.loss.SoftmaxCrossEntropyLoss()
        if self.cfg.hybridize:
            net.hybridize(static_alloc=True, static_shape=True)
            loss_fn.hybridize(static_alloc=True, static_shape=True)
        trainer = mx.gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": spec.LR})
        record, ctx = mx.autograd.record, self.ctx

        def step(X, y):
            X, y = X.as_in_context(ctx), y.as_in_context(ctx)
            with record():
                loss = loss_fn(net(X), y)
            loss.backward()
            trainer.step(X.shape[0])
        return step

    def batches(self, batch: int):
        it = iter(self.loader(batch))
        out = [(X.as_in_context(self.ctx), y.as_in_context(self.ctx))
               for X, y in itertools.islice(it, IN_MEMORY_BATCHES)]
        self.sync()
        return out

    def gemm(self, impl: str, m: int):
        mx = self.mx
        a = mx.nd.random.normal(shape=(m, spec.GEMM_K), ctx=self.ctx)
        if impl == "mx.nd.dot":
            b = mx.nd.random.normal(shape=(spec.GEMM_K, spec.GEMM_N), ctx=self.ctx)
            dot = mx.nd.dot

            def run_n(n):
                for _ in range(n):
                    dot(a, b)
        elif impl == "gluon.nn.Dense":
            dense = mx.gluon.nn.Dense(spec.GEMM_N, in_units=spec.GEMM_K, use_bias=False)
            dense.initialize(ctx=self.ctx)

            def run_n(n):
                for _ in range(n):
                    dense(a)
        else:
            raise ValueError(impl)
        self.sync()
        return run_n

    def isolated(self) -> bool:
        return "torch" not in sys.modules


def _native_count(library: str, function: str) -> int | None:
    """An int-returning C function of a library this process has loaded, or None."""
    try:
        import ctypes

        return int(getattr(ctypes.CDLL(library), function)())
    except (OSError, AttributeError):
        return None


class SkipJob(Exception):
    """This configuration cannot run here (e.g. no GPU build); not an error."""


# ----------------------------------------------------------------------------- cells
def run_task(runner, task: spec.Task, settings: spec.Settings) -> dict:
    cfg = runner.cfg
    if task.mode == "gemm":
        rows = []
        for impl in spec.GEMM_IMPLS[cfg.framework]:
            timed = autorange(runner.gemm(impl, task.batch), runner.sync, settings, 10**7)
            flops = spec.gemm_flops(task.batch)
            rows.append({"impl": impl, "m": task.batch, "k": spec.GEMM_K, "n": spec.GEMM_N,
                         "flops": flops, **timed,
                         "gflops_best": flops * timed["steps"] / min(timed["seconds"]) / 1e9,
                         "gflops_median": flops * timed["steps"]
                         / _median(timed["seconds"]) / 1e9})
        return {"gemm": rows}

    if task.mode == "arith":
        step = runner.step_fn(task.workload)
        batches = runner.batches(task.batch)
        cycle = itertools.cycle(batches)

        def run_n(n):
            for _ in range(n):
                step(*next(cycle))
        max_steps = MAX_ARITH_STEPS
    elif task.mode == "memory":
        images, _ = runner.memory_set()         # transformed once, before any clock
        max_steps = images.shape[0] // task.batch
        step = runner.step_fn(task.workload)

        def run_n(n):
            it = runner.memory_batches(task.batch)      # a fresh shuffle: an epoch starts
            for _ in range(n):
                step(*next(it))
    elif task.mode == "workers":
        loader = runner.loader(task.batch, workers=spec.WORKER_PROCESSES)
        max_steps = len(loader)                 # full batches only (the short one dropped)
        step = runner.step_fn(task.workload)
        stream = _epochs(loader)                # one stream per cell: workers start once

        def run_n(n):
            for _ in range(n):
                step(*next(stream))
    else:
        loader = runner.loader(task.batch)
        max_steps = len(loader) - 1             # full batches of one epoch, never the short one
        step = runner.step_fn(task.workload) if task.mode == "loader" else None

        def run_n(n):
            it = iter(loader)                   # a fresh iterator: an epoch starts
            for _ in range(n):
                X, y = next(it)
                if step is not None:
                    step(X, y)
    timed = autorange(run_n, runner.sync, settings, max_steps)
    samples = timed["steps"] * task.batch
    return {"samples": samples, **timed,
            "samples_per_s_best": samples / min(timed["seconds"]),
            "samples_per_s_median": samples / _median(timed["seconds"])}


def _epochs(loader):
    """The loader's batches, epoch after epoch: a new epoch (a new shuffle) as one ends."""
    while True:
        yield from loader


def _median(values):
    s = sorted(values)
    mid = len(s) // 2
    return s[mid] if len(s) % 2 else (s[mid - 1] + s[mid]) / 2


def main(argv=None) -> int:
    t_process = time.perf_counter()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--job", required=True, help="the job, as JSON")
    parser.add_argument("--settings", required=True, help="the run's settings, as JSON")
    parser.add_argument("--out", required=True, type=Path, help="JSON-lines file to append to")
    args = parser.parse_args(argv)
    job_d, set_d = json.loads(args.job), json.loads(args.settings)
    settings = spec.Settings(**{k: tuple(v) if isinstance(v, list) else v
                                for k, v in set_d.items()})
    job = spec.Job(job_d["config"], job_d["threads"],
                   tuple(spec.Task(**t) for t in job_d["tasks"]))
    cfg = spec.CONFIG[job.config]
    emit = Emitter(args.out)
    random.seed(0)
    try:
        t = time.perf_counter()
        runner = (TorchRunner if cfg.framework == "torch" else GluonRunner)(cfg, settings,
                                                                            job.threads)
        import_s = time.perf_counter() - t
    except SkipJob as exc:
        emit("skip", config=job.config, threads=job.threads, reason=str(exc))
        return 0
    import numpy as np
    np.random.seed(0)
    emit("start", config=job.config, framework=cfg.framework, requested_threads=job.threads,
         threads=runner.threads(), env={k: os.environ.get(k) for k in THREAD_VARS},
         build=runner.build_info(), import_s=import_s, inductor_cache=runner.cache_state,
         load_1m=round(os.getloadavg()[0], 2))
    failed = 0
    for task in job.tasks:
        t_task = time.perf_counter()
        try:
            result = run_task(runner, task, settings)
            result["wall_s"] = time.perf_counter() - t_task     # set-up and warm-up included
        except Exception as exc:  # noqa: BLE001 - recorded, and the job exits non-zero
            failed += 1
            emit("error", config=job.config, threads=job.threads, task=task.as_dict(),
                 error=f"{type(exc).__name__}: {exc}",
                 traceback=traceback.format_exc(limit=6)[-3000:])
            continue
        emit("gemm" if task.mode == "gemm" else "cell", config=job.config,
             threads=job.threads, task=task.as_dict(), **result)
    emit("end", config=job.config, threads=job.threads, threads_after=runner.threads(),
         isolated=runner.isolated(), wall_s=time.perf_counter() - t_process)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
