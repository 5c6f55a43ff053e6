"""Read either framework's weight files, and say clearly when one is damaged.

Three formats meet in a migration:

- MXNet's ``.params`` (``save_parameters``, ``nd.save``, ``export``): MXNet's own binary list of
  arrays, starting with the magic number ``0x112``. No code is run when it is read.
- ``torch.save``: a zip archive holding a pickle (``data.pkl``) and one file per tensor.
  ``torch.load`` unpickles only tensors and plain containers by default
  (``weights_only=True``); anything else needs ``weights_only=False`` — which runs whatever
  code the pickle asks for.
- a bare pickle (``\\x80`` first): ``trainer.save_states`` writes one, and so did ``torch.save``
  before 1.6. Unpickling it can run code: read it only from a source you trust.

:func:`read` tells them apart by their first bytes and turns each library's failure — a
truncated file, a wrong format — into one :class:`CheckpointError` that names the file.

Neither format notices a *changed* byte inside a tensor: the file loads, with a wrong value.
:func:`write_digest` stores a SHA-256 beside a file (``<file>.sha256``) and :func:`read`
checks it when it is there.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

__all__ = ["CheckpointError", "kind", "read", "write_digest", "MXNET", "TORCH_ZIP", "PICKLE"]

MXNET, TORCH_ZIP, PICKLE = "MXNet .params", "torch.save zip", "pickle"
_MXNET_MAGIC = (0x112).to_bytes(8, "little")


class CheckpointError(RuntimeError):
    """A weight file that cannot be read as what it claims to be, or fails its digest."""


def kind(path: str | os.PathLike) -> str:
    """Which of the formats a file is, from its first bytes; raises for anything else."""
    path = Path(path)
    if not path.is_file():
        raise CheckpointError(f"{path}: no such file")
    head = path.read_bytes()[:8]
    if head == _MXNET_MAGIC:
        return MXNET
    if head[:4] == b"PK\x03\x04":
        return TORCH_ZIP
    if head[:1] == b"\x80":
        return PICKLE
    raise CheckpointError(f"{path}: not an MXNet .params file, a torch.save zip or a pickle "
                          f"(it starts with {head[:8].hex()})")


def _digest_file(path: Path) -> Path:
    return path.with_name(path.name + ".sha256")


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def write_digest(path: str | os.PathLike) -> Path:
    """Store the SHA-256 of ``path`` in ``<path>.sha256``; return that file."""
    path = Path(path)
    target = _digest_file(path)
    target.write_text(f"{_sha256(path)}  {path.name}\n")
    return target


def read(path: str | os.PathLike, *, trust_pickle: bool = False):
    """Load a weight file of either framework, or raise one :class:`CheckpointError`.

    MXNet ``.params`` → ``mx.nd.load`` (a dict of NDArrays, or a list); a ``torch.save`` zip →
    ``torch.load(weights_only=True)``; a bare pickle only with ``trust_pickle=True``. When
    ``<path>.sha256`` exists, the file must match it.
    """
    path = Path(path)
    what = kind(path)
    digest = _digest_file(path)
    if digest.is_file():
        want = digest.read_text().split()[0]
        if _sha256(path) != want:
            raise CheckpointError(f"{path}: its SHA-256 differs from {digest.name}: the file "
                                  "changed after it was written (corrupted or replaced)")
    try:
        if what == MXNET:
            import mxnet as mx

            return mx.nd.load(str(path))
        if what == TORCH_ZIP:
            import torch

            return torch.load(path, weights_only=True, map_location="cpu")
        if not trust_pickle:
            raise CheckpointError(
                f"{path}: a bare pickle; loading it can run arbitrary code. Pass "
                "trust_pickle=True only for a file from a source you trust")
        import pickle

        with open(path, "rb") as f:
            return pickle.load(f)
    except CheckpointError:
        raise
    except Exception as exc:  # noqa: BLE001 - every library failure becomes one message
        lines = [ln.strip() for ln in str(exc).strip().splitlines() if ln.strip()]
        reason = lines[-1] if what == MXNET and lines else (lines[0] if lines else "")
        raise CheckpointError(f"{path}: cannot be read as a {what} file — truncated, corrupted "
                              f"or not what it seems ({type(exc).__name__}: {reason[:200]})"
                              ) from exc
