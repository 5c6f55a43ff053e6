"""The GPU job's decisions, apart from its shell: which GPU, which MXNet build, which libraries.

``.ci/gpu`` runs the notebooks under nbval on a CUDA machine. This module decides what it can do
there, and is what runs (and is unit-tested) on a machine without a GPU too:

- ``plan``: the GPUs ``nvidia-smi`` lists, and per framework where it will compute. PyTorch's
  pinned wheel is a CUDA build: any GPU its driver supports. MXNet's last GPU wheel,
  ``mxnet-cu117==1.9.1``, carries kernels (cubins) for sm_50 to sm_86 and no PTX to compile
  for a newer architecture. A cubin runs on its own architecture and later minor versions of
  the same major one, so MXNet can use a GPU of compute capability 5.0 to 8.9; on 9.0 and
  later (H100, H200: sm_90) it stays on the CPU, and every notebook says so in its device
  line (``sidebyside.devices``).
- ``libs``: the directories of the CUDA 11 libraries (``nvidia-*-cu11`` wheels, installed by
  ``.ci/gpu`` from ``requirements-gpu.txt``) for ``LD_LIBRARY_PATH``, after checking that they
  provide every CUDA library ``libmxnet.so`` was linked against (``readelf -d``): cuDNN 8
  (``libcudnn.so.8``), not the cuDNN 9 of ``nvidia-cudnn-cu11`` 9.x.

    python tools/gpu_job.py plan            # prints the plan; exit 0 with or without a GPU
    python tools/gpu_job.py libs SITE_PACKAGES LIBMXNET_SO   # prints LD_LIBRARY_PATH
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path

# compute capabilities mxnet-cu117 1.9.1 has cubins for (its build's arch list), and the
# newest minor of each major that those cubins also run on
MXNET_CUBINS = (5.0, 5.2, 6.0, 6.1, 7.0, 7.5, 8.0, 8.6)
# the CUDA libraries libmxnet.so (mxnet-cu117 1.9.1) is linked against, by soname prefix
CUDA_SONAMES = ("libcudart.so", "libcublas.so", "libcudnn.so", "libcufft.so", "libcurand.so",
                "libcusolver.so", "libcusparse.so", "libnvrtc.so", "libnccl.so",
                "libnvToolsExt.so")


@dataclass(frozen=True)
class Gpu:
    index: int
    name: str
    capability: float

    @property
    def sm(self) -> str:
        return f"sm_{int(round(self.capability * 10))}"


def parse_nvidia_smi(text: str) -> list[Gpu]:
    """GPUs from ``nvidia-smi --query-gpu=index,name,compute_cap --format=csv,noheader``."""
    gpus = []
    for line in text.strip().splitlines():
        parts = [p.strip() for p in line.split(",")]
        if len(parts) != 3 or not parts[0].isdigit():
            raise ValueError(f"unexpected nvidia-smi line: {line!r}")
        gpus.append(Gpu(int(parts[0]), parts[1], float(parts[2])))
    return gpus


def detect(run=subprocess.run) -> tuple[list[Gpu], str]:
    """The GPUs on this machine, and how that was found out (one line)."""
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return [], "nvidia-smi not found: no NVIDIA driver on this machine"
    proc = run([smi, "--query-gpu=index,name,compute_cap", "--format=csv,noheader"],
               capture_output=True, text=True, timeout=60)
    if proc.returncode != 0:
        first = (proc.stderr or proc.stdout).strip().splitlines()
        return [], f"nvidia-smi failed: {first[0] if first else proc.returncode}"
    gpus = parse_nvidia_smi(proc.stdout)
    return gpus, f"nvidia-smi lists {len(gpus)} GPU(s)"


def mxnet_runs_on(gpu: Gpu) -> bool:
    """Whether mxnet-cu117 1.9.1 has a cubin that runs on ``gpu``: one for the same major
    version and an equal or lower minor one."""
    major = int(gpu.capability)
    return any(int(c) == major and c <= gpu.capability + 1e-9 for c in MXNET_CUBINS)


@dataclass
class Plan:
    gpus: list[Gpu]
    found: str
    torch: str                       # "cuda" or "cpu"
    mxnet: str                       # "gpu" or "cpu"
    lines: list[str] = field(default_factory=list)
    two_gpus: bool = False           # the API map's device rows on cuda:0/1, gpu(0)/gpu(1)

    def to_json(self) -> str:
        data = asdict(self)
        data["gpus"] = [dict(asdict(g), sm=g.sm) for g in self.gpus]
        return json.dumps(data)


def plan(gpus: list[Gpu], found: str) -> Plan:
    if not gpus:
        return Plan(gpus, found, "cpu", "cpu", [
            f"no GPU ({found}): skipping the GPU parts; PyTorch and MXNet on the CPU"])
    usable = [g for g in gpus if mxnet_runs_on(g)]
    lines = [f"GPU {g.index}: {g.name}, compute capability {g.capability} ({g.sm})"
             for g in gpus]
    lines.append("PyTorch: CUDA (the pinned torch wheel)")
    if usable:
        lines.append(f"MXNet: GPU {', '.join(str(g.index) for g in usable)} with mxnet-cu117 "
                     "1.9.1 and the CUDA 11 libraries of requirements-gpu.txt")
    else:
        newest = max(g.capability for g in gpus)
        lines.append(f"MXNet: CPU — mxnet-cu117 1.9.1 has kernels for sm_50–sm_86 and no PTX; "
                     f"compute capability {newest} needs a newer build, which does not exist")
    return Plan(gpus, found, "cuda", "gpu" if usable else "cpu", lines,
                two_gpus=len(gpus) >= 2)


def needed_cuda_libraries(libmxnet: Path, run=subprocess.run) -> list[str]:
    """The CUDA sonames ``libmxnet.so`` needs (its DT_NEEDED entries), e.g. libcudnn.so.8."""
    proc = run(["readelf", "-d", str(libmxnet)], capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        raise RuntimeError(f"readelf -d {libmxnet} failed: {proc.stderr.strip()[:300]}")
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", proc.stdout)
    return [n for n in needed if n.startswith(CUDA_SONAMES)]


def library_dirs(site_packages: Path, needed: list[str]) -> list[Path]:
    """The ``nvidia/*/lib`` folders that provide ``needed``; a clear error names what is
    missing (a wrong major version, e.g. cuDNN 9 for libcudnn.so.8, counts as missing)."""
    found: dict[str, Path] = {}
    for lib in sorted((Path(site_packages) / "nvidia").glob("*/lib")):
        for so in lib.iterdir():
            found.setdefault(so.name, lib)
    missing = [n for n in needed if n not in found]
    if missing:
        raise FileNotFoundError(
            f"no nvidia-*-cu11 wheel in {site_packages} provides {', '.join(missing)}: "
            "install requirements-gpu.txt (cuDNN must be 8.x: libmxnet.so needs libcudnn.so.8)")
    dirs = []
    for n in needed:
        if found[n] not in dirs:
            dirs.append(found[n])
    return dirs


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p_plan = sub.add_parser("plan", help="print what the GPU job will do on this machine")
    p_plan.add_argument("--json", action="store_true", help="one JSON line instead of text")
    p_libs = sub.add_parser("libs", help="print LD_LIBRARY_PATH for mxnet-cu117's libraries")
    p_libs.add_argument("site_packages", type=Path)
    p_libs.add_argument("libmxnet", type=Path)
    args = parser.parse_args(argv)
    if args.command == "plan":
        result = plan(*detect())
        print(result.to_json() if args.json else "\n".join(result.lines))
        return 0
    needed = needed_cuda_libraries(args.libmxnet)
    print(":".join(str(d) for d in library_dirs(args.site_packages, needed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
