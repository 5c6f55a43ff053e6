"""The MNIST family's IDX files: what each dataset is, and how to tell the original files.

Plain Python (no torch, no mxnet): :mod:`sidebyside.data` (which prepares the files for both
frameworks) and :mod:`sidebyside._gluon_local` (Gluon's classes checking them by content) both
build on it.
"""
from __future__ import annotations

import gzip
import hashlib
import os
import zlib
from dataclasses import dataclass
from pathlib import Path

FILES = ("train-images-idx3-ubyte", "train-labels-idx1-ubyte",
         "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte")
DEBIAN_FASHION_MNIST = Path("/usr/share/datasets/fashion-mnist")


@dataclass(frozen=True)
class Spec:
    name: str
    folder: str                  # torchvision's and Gluon's class name; torchvision's folder
    raw_md5: dict[str, str]      # MD5 of each *decompressed* file of the original release
    default_source: Path | None  # a folder a system package installs, if any
    classes: tuple[str, ...]
    mean: float                  # mean and (population) std of the training images' pixels
    std: float                   # scaled to [0, 1], rounded to 4 decimals: Normalize's arguments


SPECS = {
    "mnist": Spec(
        name="mnist", folder="MNIST",
        raw_md5={"train-images-idx3-ubyte": "6bbc9ace898e44ae57da46a324031adb",
                 "train-labels-idx1-ubyte": "a25bea736e30d166cdddb491f175f624",
                 "t10k-images-idx3-ubyte": "2646ac647ad5339dbf082846283269ea",
                 "t10k-labels-idx1-ubyte": "27ae3e4e09519cfbb04c329615203637"},
        default_source=None,
        classes=tuple(str(d) for d in range(10)),
        mean=0.1307, std=0.3081),
    "fashion-mnist": Spec(
        name="fashion-mnist", folder="FashionMNIST",
        raw_md5={"train-images-idx3-ubyte": "f4a8712d7a061bf5bd6d2ca38dc4d50a",
                 "train-labels-idx1-ubyte": "9018921c3c673c538a1fc5bad174d6f9",
                 "t10k-images-idx3-ubyte": "8181f5470baa50b63fa0f6fddb340f0a",
                 "t10k-labels-idx1-ubyte": "15d484375f8d13e6eb1aabb0c3f46965"},
        default_source=DEBIAN_FASHION_MNIST,
        classes=("T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                 "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"),
        mean=0.2860, std=0.3530),
}


class DatasetUnavailable(RuntimeError):
    """No copy of the dataset can be had: not on disk, no source folder, download failed."""


class DataIntegrityError(RuntimeError):
    """A file is there but is not the original release's file."""


class DataFolderUnwritable(DatasetUnavailable):
    """The data folder cannot be created or written; nothing was written."""


def _md5(data: bytes) -> str:
    return hashlib.md5(data).hexdigest()


def sha1_file(path: str | os.PathLike) -> str:
    h = hashlib.sha1()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def read_idx_bytes(path: str | os.PathLike) -> bytes:
    """The decompressed bytes of an IDX file, gzipped or not.

    A gzipped file that cannot be decompressed (truncated, corrupted) raises
    :class:`DataIntegrityError` naming it.
    """
    path = Path(path)
    data = path.read_bytes()
    if data[:2] != b"\x1f\x8b":
        return data
    try:
        return gzip.decompress(data)
    except (EOFError, gzip.BadGzipFile, zlib.error) as exc:
        raise DataIntegrityError(
            f"{path} is not a readable gzip file ({exc}): it is truncated or corrupted. "
            "Replace it with a good copy (or delete it) and run again.") from None


def check_original(spec: Spec, fname: str, data: bytes, where: str | os.PathLike) -> None:
    """Raise DataIntegrityError unless ``data`` is the original release's ``fname``."""
    got, want = _md5(data), spec.raw_md5[fname]
    if got != want:
        raise DataIntegrityError(
            f"{where} is not the original {spec.folder} file {fname!r}: its decompressed MD5 is "
            f"{got}, the original release's is {want}. Delete it (or fix the source folder) "
            "and run again.")
