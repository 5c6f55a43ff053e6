"""What the benchmark suite measures: configurations, workloads, FLOP counts and the job plan.

Pure Python (no framework is imported here), shared by the driver (``run.py``), the worker
(``worker.py``), the plot (``plot.py``), the analysis (``analysis.py``) and the book-page
generator (``tools/make_benchmarks_page.py``).

Vocabulary:

- a *configuration* is one way of running a model: PyTorch eager, ``torch.compile``, Gluon
  imperative, Gluon hybridized, Gluon on MXNet's NumPy front end;
- a *workload* is a model with its training step (SGD, learning rate 0.1, cross-entropy):
  the notebook-3 MLP or a LeNet-style CNN;
- a *mode* is what a timed step contains: ``arith`` (forward, backward and update over
  batches already in memory), ``memory`` (the same step, each batch indexed out of the whole
  training set transformed once into one array: a fresh shuffle each epoch, no per-image
  work), ``loader`` (the same step, with each batch drawn from the framework's own
  DataLoader with the notebook's per-image transforms), ``workers`` (``loader`` with
  ``WORKER_PROCESSES`` DataLoader worker processes) or ``pipeline`` (the DataLoader alone, no
  model);
- a *cell* is one (configuration, mode, workload, batch size, thread count): one number;
- a *job* is one fresh worker process: one configuration at one thread count, running a
  list of cells.
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass, field

SCHEMA = "sidebyside-benchmarks/1"
LR = 0.1
TRAIN_SAMPLES = 60_000          # one epoch of the (Fashion-)MNIST training set
COMPILE_BATCH = 128             # torch.compile runs at this batch size only (compile cost)
WORKER_PROCESSES = 2            # DataLoader worker processes of the "workers" mode
# In the order of the routes, from no input work at all to the per-image DataLoader.
MODES = ("arith", "memory", "loader", "workers", "pipeline")
MODE_TITLES = {
    "arith": "arithmetic only (forward + backward + update, batches in memory)",
    "memory": "the training set transformed once into one array, batched by a shuffled index",
    "loader": "through the framework's DataLoader (ToTensor + Normalize, num_workers as set)",
    "workers": f"through the framework's DataLoader with {WORKER_PROCESSES} worker processes",
    "pipeline": "the data pipeline alone (DataLoader, no model)",
}
# The modes that train the model on each batch (all but "pipeline"), in MODES order.
TRAIN_MODES = tuple(m for m in MODES if m != "pipeline")


@dataclass(frozen=True)
class Config:
    name: str            # the key used everywhere (JSON, plot, page)
    framework: str       # "torch" or "mxnet": which library the worker imports
    label: str           # the words on the page
    front_end: str       # whose data pipeline it uses: "torch", "gluon" or "gluon-np"
    pipeline: bool       # whether its job also times the data pipeline alone (+ GEMMs)
    compile: bool = False
    hybridize: bool = False
    numpy: bool = False
    batches_only: tuple[int, ...] | None = None   # None: every batch size of the run


CONFIGS = (
    Config("torch-eager", "torch", "PyTorch eager", "torch", pipeline=True),
    Config("torch-compile", "torch", "PyTorch torch.compile (inductor)", "torch",
           pipeline=False, compile=True, batches_only=(COMPILE_BATCH,)),
    Config("gluon", "mxnet", "Gluon imperative", "gluon", pipeline=True),
    Config("gluon-hybrid", "mxnet", "Gluon hybridize(static_alloc, static_shape)", "gluon",
           pipeline=False, hybridize=True),
    Config("gluon-np", "mxnet", "Gluon imperative on mx.np (npx.set_np)", "gluon-np",
           pipeline=True, numpy=True),
)
CONFIG = {c.name: c for c in CONFIGS}
FRAMEWORK_LABELS = {"torch": "PyTorch", "mxnet": "Gluon"}
# Which GEMM implementations each framework's eager/imperative job measures.
GEMM_IMPLS = {"torch": ("torch.matmul",), "mxnet": ("mx.nd.dot", "gluon.nn.Dense")}
GEMM_NOTES = {
    "torch.matmul": "PyTorch's CPU BLAS (MKL in the x86 wheels)",
    "mx.nd.dot": "MXNet's BLAS (OpenBLAS in the pip wheel)",
    "gluon.nn.Dense": "MXNet's FullyConnected (oneDNN when MKLDNN is enabled), no bias",
}


# --------------------------------------------------------------------------- FLOP counts
@dataclass(frozen=True)
class Layer:
    """A layer whose multiply-adds we count: a dense layer or a 2-D convolution."""

    kind: str                 # "dense" or "conv"
    c_in: int
    c_out: int
    k: int = 1                # kernel side (conv)
    out_hw: int = 1           # output side (conv)
    input_grad: bool = True   # False for the first layer: the input needs no gradient

    @property
    def macs(self) -> int:
        """Multiply-adds of the forward pass, per sample."""
        if self.kind == "dense":
            return self.c_in * self.c_out
        return self.out_hw * self.out_hw * self.c_out * self.c_in * self.k * self.k

    @property
    def params(self) -> int:
        weights = self.c_in * self.c_out * (self.k * self.k if self.kind == "conv" else 1)
        return weights + self.c_out


@dataclass(frozen=True)
class Workload:
    name: str
    label: str
    layers: tuple[Layer, ...] = field(repr=False)

    @property
    def params(self) -> int:
        return sum(layer.params for layer in self.layers)

    def forward_flops(self) -> int:
        """Per sample: 2 FLOPs per multiply-add of the dense and convolution layers."""
        return sum(2 * layer.macs for layer in self.layers)

    def train_flops(self) -> int:
        """Per sample, forward + backward: forward, weight gradients (same count as the
        forward) and input gradients (same again) except for the first layer, whose input
        (the image) needs none. Element-wise work (bias, ReLU, pooling, softmax) is not
        counted: it is memory-bound, not arithmetic."""
        return sum(2 * layer.macs * (3 if layer.input_grad else 2) for layer in self.layers)

    def flops_per_sample(self, batch: int) -> float:
        """Training step FLOPs per sample: forward + backward, plus the SGD update
        (2 FLOPs per parameter per step, shared by the batch)."""
        return self.train_flops() + 2 * self.params / batch

    def epoch_flops(self, batch: int, samples: int = TRAIN_SAMPLES) -> int:
        """One epoch: ``samples`` forward + backward passes and ceil(samples / batch) updates."""
        return self.train_flops() * samples + 2 * self.params * math.ceil(samples / batch)


WORKLOADS = {
    "mlp": Workload("mlp", "MLP 784-256-10 (notebook 3)", (
        Layer("dense", 784, 256, input_grad=False),
        Layer("dense", 256, 10),
    )),
    "lenet": Workload("lenet", "LeNet-style CNN (conv 6@5x5 pad 2, pool, conv 16@5x5, "
                               "pool, dense 120-84-10, ReLU)", (
        Layer("conv", 1, 6, k=5, out_hw=28, input_grad=False),
        Layer("conv", 6, 16, k=5, out_hw=10),
        Layer("dense", 400, 120),
        Layer("dense", 120, 84),
        Layer("dense", 84, 10),
    )),
}
WORKLOAD_SHORT = {"mlp": "MLP", "lenet": "LeNet"}
# The GEMM of the MLP's first layer, the one that dominates its FLOPs: (batch, 784) x (784, 256)
GEMM_K, GEMM_N = 784, 256


def gemm_flops(m: int, k: int = GEMM_K, n: int = GEMM_N) -> int:
    return 2 * m * k * n


# ----------------------------------------------------------------------------- the plan
@dataclass(frozen=True)
class Settings:
    mode: str                      # "full" or "quick"
    threads: tuple[int, ...]       # thread counts; the last is the top (all CPUs by default)
    batches: tuple[int, ...]
    workloads: tuple[str, ...]
    configs: tuple[str, ...]
    repeats: int
    target_s: float                # each timed repeat lasts about this long
    warmup_s: float                # warm-up (excluded) lasts at least this long ...
    warmup_steps: int              # ... and at least this many steps
    min_steps: int
    workers: int = 0               # DataLoader num_workers (the notebook's 0)
    device: str = "cpu"
    scaling_batch: int = 128       # batch size of the thread-scaling cells

    @property
    def top(self) -> int:
        return max(self.threads)

    def as_dict(self) -> dict:
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.__dict__.items()}


def thread_ladder(cpus: int) -> tuple[int, ...]:
    """1, 2, 4, ... and the CPU count itself: 1 -> all cores."""
    ladder, n = [], 1
    while n < cpus:
        ladder.append(n)
        n *= 2
    return tuple(ladder + [cpus])


def default_settings(quick: bool, cpus: int | None = None) -> Settings:
    cpus = cpus or available_cpus()
    if quick:
        # CI size: one thread count, one batch size, the MLP, two short repeats, no compile
        # (a cold inductor compile alone takes 10-20 s on two cores).
        return Settings(mode="quick", threads=(cpus,), batches=(128,), workloads=("mlp",),
                        configs=tuple(c.name for c in CONFIGS if not c.compile), repeats=2,
                        target_s=0.05, warmup_s=0.02, warmup_steps=2, min_steps=2)
    return Settings(mode="full", threads=thread_ladder(cpus), batches=(32, 128, 512),
                    workloads=tuple(WORKLOADS), configs=tuple(CONFIG), repeats=5,
                    target_s=0.15, warmup_s=0.1, warmup_steps=3, min_steps=3)


def available_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


@dataclass(frozen=True)
class Task:
    """One cell to time, or one GEMM sweep (mode "gemm", batch = the GEMM's m)."""

    mode: str                 # one of MODES, or "gemm"
    workload: str | None      # None for "pipeline" and "gemm"
    batch: int

    def as_dict(self) -> dict:
        return dict(self.__dict__)


@dataclass(frozen=True)
class Job:
    config: str
    threads: int
    tasks: tuple[Task, ...]

    def as_dict(self) -> dict:
        return {"config": self.config, "threads": self.threads,
                "tasks": [t.as_dict() for t in self.tasks]}


def plan(settings: Settings) -> list[Job]:
    """The jobs of a run, in the order they run: thread counts from the top down, the
    configurations in their order at each.

    At the top thread count every cell: arithmetic, in memory and through the loader for
    each workload and batch size, the pipeline and the GEMMs at every batch size, and the
    worker-process loader at ``scaling_batch`` only. Below it, the thread-scaling cells at
    ``scaling_batch``: arithmetic for each workload (``torch.compile``: the MLP only), the MLP
    in memory and through the loader, the pipeline, and the GEMMs at every batch size (the
    roofline of each thread count). ``torch.compile`` runs at ``COMPILE_BATCH`` only.

    The ``workers`` cells run at the top thread count and ``scaling_batch`` alone: each starts
    its own worker processes (a second or more of start-up per cell, not timed but paid), and
    below the top thread count those processes would compete for the cores the thread count
    leaves free, which measures the machine rather than the route.
    """
    jobs = []
    for threads in sorted(settings.threads, reverse=True):
        top = threads == settings.top
        for name in settings.configs:
            cfg = CONFIG[name]
            batches = settings.batches if top else (settings.scaling_batch,)
            if cfg.batches_only is not None:
                batches = tuple(b for b in batches if b in cfg.batches_only) or \
                    cfg.batches_only[:1]
            tasks = []
            # torch.compile's thread scaling: the MLP only (each compile costs 5-20 s)
            workloads = settings.workloads if top or not cfg.compile else \
                tuple(w for w in settings.workloads if w == "mlp")
            for workload in workloads:
                for batch in batches:
                    tasks.append(Task("arith", workload, batch))
                    if top or workload == "mlp":
                        tasks.append(Task("memory", workload, batch))
                        tasks.append(Task("loader", workload, batch))
                    if top and batch == settings.scaling_batch:
                        tasks.append(Task("workers", workload, batch))
            if cfg.pipeline:
                for batch in batches:
                    tasks.append(Task("pipeline", None, batch))
                if name in ("torch-eager", "gluon"):
                    for batch in settings.batches:
                        tasks.append(Task("gemm", None, batch))
            jobs.append(Job(name, threads, tuple(tasks)))
    return jobs


def skipped_configs(settings: Settings) -> dict[str, str]:
    """Configurations not in this run, with the reason (recorded in the results)."""
    out = {}
    for cfg in CONFIGS:
        if cfg.name not in settings.configs:
            out[cfg.name] = ("not in --quick mode (a cold torch.compile takes 10-20 s on two "
                             "cores)" if settings.mode == "quick" and cfg.compile
                             else "not selected (--configs)")
    return out
