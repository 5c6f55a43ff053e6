"""Write a small class-per-folder tree of PNG images from a dataset's own samples.

``torchvision.datasets.ImageFolder`` and ``gluon.data.vision.ImageFolderDataset`` both read a
tree like::

    root/<class name>/<file>.png

:func:`write_image_folder` builds one from real samples (``(image, label)`` pairs, as any
MNIST-family dataset of either framework yields them), so that a notebook can read the same
files with both classes and compare. PNG is lossless: the pixels read back are the pixels
written. It takes the first ``per_class`` samples of each label, in the dataset's order, and
names each file after the sample's index (zero-padded, so that sorting the names keeps that
order).
"""
from __future__ import annotations

import numbers
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

INDEX_DIGITS = 8  # file names are f"{index:08d}.png": sorted names keep the dataset's order
_SEPARATORS = {"/", "\\", os.sep} | ({os.altsep} if os.altsep else set())


@dataclass(frozen=True)
class WrittenImage:
    """One PNG file: where it is, the sample it came from, and that sample's label."""

    path: Path
    index: int   # position of the sample in the iterable that was passed in
    label: int   # the sample's own label (an index into ``class_names``)


@dataclass(frozen=True)
class ImageFolderTree:
    """What :func:`write_image_folder` wrote."""

    root: Path
    class_names: tuple[str, ...]       # folder names, in the dataset's label order
    images: tuple[WrittenImage, ...]   # in the order they were written (the dataset's order)

    def __len__(self) -> int:
        return len(self.images)

    @property
    def indices(self) -> list[int]:
        return [im.index for im in self.images]

    @property
    def labels(self) -> list[int]:
        return [im.label for im in self.images]


def _check_class_names(class_names: Sequence[str]) -> tuple[str, ...]:
    if isinstance(class_names, (str, bytes)) or not isinstance(class_names, Sequence):
        raise TypeError("class_names must be a sequence of folder names (one per label), "
                        f"got {type(class_names).__name__}")
    names = tuple(class_names)
    if not names:
        raise ValueError("class_names is empty: give one folder name per label")
    for i, name in enumerate(names):
        if not isinstance(name, str):
            raise TypeError(f"class_names[{i}] must be a str, got {type(name).__name__}: {name!r}")
        if not name.strip() or name in (".", ".."):
            raise ValueError(f"class_names[{i}] = {name!r} cannot be a folder name")
        bad = sorted(c for c in _SEPARATORS if c in name)
        if bad:
            raise ValueError(
                f"class_names[{i}] = {name!r} contains the path separator {bad[0]!r}: it would "
                "make nested folders, not one folder per class. Replace it, e.g. "
                f"{name.replace(bad[0], '-')!r}")
    seen: dict[str, int] = {}
    for i, name in enumerate(names):
        if name in seen:
            raise ValueError(f"class_names[{seen[name]}] and class_names[{i}] are both {name!r}: "
                             "two labels would share one folder")
        seen[name] = i
    return names


def _as_uint8_image(image, where: str):
    """The image as a numpy array of shape (H, W) or (H, W, 3)."""
    import numpy as np

    if hasattr(image, "getdata") and hasattr(image, "mode"):   # a PIL image
        arr = np.asarray(image)
    elif hasattr(image, "asnumpy"):                             # mx.nd.NDArray, mx.np.ndarray
        arr = image.asnumpy()
    elif type(image).__module__.startswith("torch") and hasattr(image, "detach"):
        arr = image.detach().cpu().numpy()
    else:
        arr = np.asarray(image)
    if arr.dtype != np.uint8:
        raise TypeError(f"{where}: the image has dtype {arr.dtype}; PNG needs uint8 pixels in "
                        "[0, 255] (pass the dataset without a ToTensor/Normalize transform)")
    if arr.ndim == 3 and arr.shape[2] == 1:
        arr = arr[:, :, 0]
    if not (arr.ndim == 2 or (arr.ndim == 3 and arr.shape[2] == 3)) or 0 in arr.shape:
        raise ValueError(f"{where}: the image has shape {arr.shape}; expected channels-last "
                         "(H, W), (H, W, 1) or (H, W, 3)")
    return arr


def _as_label(label, n_classes: int, where: str) -> int:
    import numpy as np

    value = label
    if hasattr(value, "asnumpy"):
        value = value.asnumpy()
    elif type(value).__module__.startswith("torch") and hasattr(value, "detach"):
        value = value.detach().cpu().numpy()
    if isinstance(value, np.ndarray):
        if value.size != 1 or not np.issubdtype(value.dtype, np.integer):
            raise TypeError(f"{where}: the label must be one integer, got an array of shape "
                            f"{value.shape} and dtype {value.dtype}")
        value = value.reshape(()).item()
    if isinstance(value, bool) or not isinstance(value, (numbers.Integral, np.integer)):
        raise TypeError(f"{where}: the label must be an integer, got {type(label).__name__}: "
                        f"{label!r}")
    value = int(value)
    if not 0 <= value < n_classes:
        raise ValueError(f"{where}: label {value} is outside [0, {n_classes}) "
                         f"({n_classes} class names were given)")
    return value


def write_image_folder(samples: Iterable, root: str | os.PathLike, class_names: Sequence[str],
                       per_class: int) -> ImageFolderTree:
    """Write ``per_class`` PNG images of each class to ``root/<class name>/<index>.png``.

    ``samples`` yields ``(image, label)`` pairs (a dataset of either framework, or any
    iterable): the image a PIL image, a torch tensor, an MXNet array or a numpy array, uint8,
    channels-last ``(H, W)``, ``(H, W, 1)`` or ``(H, W, 3)``; the label an integer in
    ``[0, len(class_names))``. ``class_names[label]`` names the folder. The first
    ``per_class`` samples of each label are written, in the order ``samples`` yields them;
    reading stops as soon as every class has its ``per_class`` images.

    ``root`` must not exist yet, or be an empty folder. Raises ``ValueError`` when some class
    has fewer than ``per_class`` samples, and ``TypeError``/``ValueError`` naming the sample
    for a malformed one. Returns an :class:`ImageFolderTree` listing what was written.
    """
    if isinstance(per_class, bool) or not isinstance(per_class, numbers.Integral):
        raise TypeError(f"per_class must be an int, got {type(per_class).__name__}: {per_class!r}")
    if per_class < 1:
        raise ValueError(f"per_class must be at least 1, got {per_class}")
    names = _check_class_names(class_names)
    root = Path(root)
    if root.exists():
        if not root.is_dir():
            raise NotADirectoryError(f"root {root} exists and is not a folder")
        if any(root.iterdir()):
            raise FileExistsError(f"root {root} is not empty: both ImageFolder readers would "
                                  "also list what is already there; pass a new or empty folder")
    try:  # datasets are often iterable through __getitem__ alone
        iterator = iter(samples)
    except TypeError:
        iterator = None
    if iterator is None or isinstance(samples, (str, bytes)):
        raise TypeError(f"samples must be an iterable of (image, label) pairs, "
                        f"got {type(samples).__name__}")

    from PIL import Image

    counts = [0] * len(names)
    pending: list[tuple[int, int, object]] = []
    for index, sample in enumerate(iterator):
        where = f"sample {index}"
        try:
            image, label = sample
        except (TypeError, ValueError):
            raise ValueError(f"{where} is not an (image, label) pair: "
                             f"{type(sample).__name__}") from None
        label = _as_label(label, len(names), where)
        if counts[label] >= per_class:
            continue
        pending.append((index, label, _as_uint8_image(image, where)))
        counts[label] += 1
        if all(c == per_class for c in counts):
            break
    short = {names[i]: c for i, c in enumerate(counts) if c < per_class}
    if short:
        raise ValueError(f"too few samples: wanted {per_class} per class, these classes have "
                         f"fewer: {short}")

    written = []
    for name in names:
        (root / name).mkdir(parents=True, exist_ok=False)
    for index, label, arr in pending:
        path = root / names[label] / f"{index:0{INDEX_DIGITS}d}.png"
        Image.fromarray(arr).save(path, format="PNG")
        written.append(WrittenImage(path, index, label))
    return ImageFolderTree(root, names, tuple(written))
