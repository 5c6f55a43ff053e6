"""Environment report: versions, build features, and known-bad combinations with their fix.

``report()`` never raises because a framework fails to import: the failure is part of the
report, together with the fix when it is a combination we know.
"""
from __future__ import annotations

import importlib
import importlib.metadata
import platform
import sys
from dataclasses import dataclass, field

#: Distributions whose versions the report shows (distribution name → import name).
PACKAGES = {
    "numpy": "numpy",
    "mxnet": "mxnet",
    "torch": "torch",
    "torchvision": "torchvision",
    "protobuf": "google.protobuf",
    "mxboard": "mxboard",
    "tensorboard": "tensorboard",
    "tensorboardX": "tensorboardX",
    "torchmetrics": "torchmetrics",
}

SUPPORTED_PYTHON = (3, 11)


@dataclass(frozen=True)
class Problem:
    """A known-bad combination: what is wrong and the command that fixes it."""

    what: str
    fix: str

    def __str__(self) -> str:
        return f"{self.what} Fix: {self.fix}"


def parse_version(text: str) -> tuple[int, ...]:
    """Leading numeric release of a version string: '2.14.1+cu130' → (2, 14, 1).

    Raises ValueError when the string does not start with a number.
    """
    if not isinstance(text, str):
        raise TypeError(f"version must be a string, got {type(text).__name__}")
    parts = []
    for piece in text.strip().split("."):
        digits = ""
        for ch in piece:
            if not ch.isdigit():
                break
            digits += ch
        if not digits:
            break
        parts.append(int(digits))
        if len(digits) != len(piece):  # '1rc1', '1+cu130': the release part ends here
            break
    if not parts:
        raise ValueError(f"not a version string: {text!r}")
    return tuple(parts)


def known_problems(versions: dict[str, str | None], python: tuple[int, int] | None = None) -> list[Problem]:
    """Known-bad combinations among installed versions (None = not installed)."""
    problems = []
    if python is not None and tuple(python[:2]) != SUPPORTED_PYTHON:
        problems.append(Problem(
            f"Python {python[0]}.{python[1]} is not the tested interpreter (3.11) for MXNet 1.9.1.",
            "install Python 3.11 (e.g. `pyenv install 3.11` or `conda create -n sbs python=3.11`) "
            "and recreate the environment with it."))
    numpy_v = versions.get("numpy")
    if numpy_v and versions.get("mxnet") is not None and parse_version(numpy_v) >= (1, 24):
        problems.append(Problem(
            f"numpy {numpy_v} breaks `import mxnet` (MXNet 1.9.1 uses `np.bool`, removed in numpy 1.24).",
            "pip install numpy==1.23.5"))
    proto_v = versions.get("protobuf")
    if proto_v and versions.get("mxboard") is not None and parse_version(proto_v) > (3, 20, 3):
        problems.append(Problem(
            f"protobuf {proto_v} is too new for mxboard (its generated code raises "
            "'Descriptors cannot be created directly').",
            "pip install 'protobuf<=3.20.3'"))
    return problems


def installed_versions() -> dict[str, str | None]:
    """Installed version of each distribution in PACKAGES (None when absent)."""
    out = {}
    for dist in PACKAGES:
        try:
            out[dist] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            out[dist] = None
    return out


@dataclass
class EnvReport:
    python: str
    platform: str
    versions: dict[str, str | None]
    mxnet_features: list[str] = field(default_factory=list)
    mxnet_gpus: int | None = None
    torch_features: list[str] = field(default_factory=list)
    torch_cuda: str | None = None          # CUDA version torch was built with, or None
    torch_cuda_available: bool | None = None
    import_errors: dict[str, str] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems and not self.import_errors

    def lines(self) -> list[str]:
        rows = [("python", self.python), ("platform", self.platform)]
        rows += [(k, v or "not installed") for k, v in self.versions.items()]
        rows.append(("mxnet features", ", ".join(self.mxnet_features) or "?"))
        rows.append(("mxnet GPUs visible", "?" if self.mxnet_gpus is None else str(self.mxnet_gpus)))
        rows.append(("torch backends", ", ".join(self.torch_features) or "?"))
        rows.append(("torch built for CUDA", self.torch_cuda or "no (CPU build)"))
        rows.append(("torch.cuda.is_available()", str(self.torch_cuda_available)))
        width = max(len(k) for k, _ in rows)
        out = [f"{k:<{width}}  {v}" for k, v in rows]
        for name, err in self.import_errors.items():
            out.append(f"ERROR importing {name}: {err}")
        for p in self.problems:
            out.append(f"WARNING: {p}")
        return out

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def _repr_pretty_(self, printer, cycle):  # IPython display
        printer.text(str(self))


def _try_import(module: str, errors: dict[str, str]):
    try:
        return importlib.import_module(module)
    except Exception as exc:  # noqa: BLE001 - any import failure belongs in the report
        errors[module] = f"{type(exc).__name__}: {exc}"
        return None


def report() -> EnvReport:
    """Build the report for the running interpreter. Never raises on a broken framework."""
    versions = installed_versions()
    rep = EnvReport(
        python=platform.python_version(),
        platform=platform.platform(terse=True),
        versions=versions,
    )
    rep.problems = known_problems(versions, python=sys.version_info[:2])
    if versions["mxnet"] is not None:
        mx = _try_import("mxnet", rep.import_errors)
        if mx is not None:
            feats = mx.runtime.Features()
            rep.mxnet_features = sorted(name for name in feats if feats.is_enabled(name))
            rep.mxnet_gpus = mx.context.num_gpus()
    if versions["torch"] is not None:
        torch = _try_import("torch", rep.import_errors)
        if torch is not None:
            rep.torch_cuda = torch.version.cuda
            backends = {"CUDNN": torch.backends.cudnn, "MKL": torch.backends.mkl,
                        "MKLDNN": torch.backends.mkldnn, "OPENMP": torch.backends.openmp}
            rep.torch_features = sorted(k for k, b in backends.items() if b.is_available())
            rep.torch_cuda_available = torch.cuda.is_available()
    return rep
