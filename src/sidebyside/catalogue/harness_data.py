"""Helpers for the ``data*`` catalogue checks: small files in each library's own format, written
once per process into a temporary folder, and the context managers the checks need.

- :func:`frozen_gc`: Gluon's ``DataLoader.__init__`` calls ``gc.collect()`` twice (about 0.17 s
  in a process holding MXNet and PyTorch); inside ``gc.freeze()`` the collections only look at
  new objects. Nothing else changes: the loader is built by the same code;
- :func:`workdir`: the process's temporary folder (removed at exit);
- :func:`mnist_roots`, :func:`cifar_roots`: the same synthetic images and labels written as
  MXNet's files (gzip'd IDX for ``MNIST``; the binary CIFAR records) and as torchvision's
  (raw IDX under ``<root>/MNIST/raw``; the Python pickles): no download, no network;
- :func:`sha1_ok`, :func:`md5_ok`: the integrity checks (SHA-1 for Gluon, MD5 for
  torchvision) accept the synthetic files; nothing else is patched;
- :func:`image_folder`, :func:`rec_file`, :func:`image_files`, :func:`text_files`: PNG/JPEG
  files, a ``.rec``/``.idx`` pair written by MXNet's own writer, CSV and LibSVM text files.

The writers use numpy, gzip, pickle and Pillow only (``rec_file`` uses ``mx.recordio``: the
files a legacy script has were written by MXNet). Both sides of a check read the same bytes.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import gc
import gzip
import pickle
import shutil
import struct
import tempfile
from pathlib import Path

import numpy as onp

__all__ = ["frozen_gc", "workdir", "images", "mnist_roots", "cifar_roots", "sha1_ok", "md5_ok",
           "image_folder", "rec_file", "image_files", "text_files", "ramp", "nonscalar", "summary", "colour_stats", "pca_alphas"]


def summary(samples, tails: bool = True):
    """A sample's [min, q25, median, q75, max, mean, std] (``tails=False``: without min and
    max, for unbounded distributions), float64: the statistics a random check compares
    with a stated tolerance when a two-sample test would need too many draws."""
    x = onp.asarray(samples, dtype=onp.float64).ravel()
    q = onp.quantile(x, [0.25, 0.5, 0.75])
    stats = [x.min(), *q, x.max()] if tails else list(q)
    return onp.array(stats + [x.mean(), x.std()])


def nonscalar(values) -> list:
    """``values`` flattened (lists and tuples opened), each 0-d value (a Python or NumPy
    number, a 0-d tensor) as a 1-element array of its own dtype: the runner's ``close``
    comparison takes arrays of rank ≥ 1. Applied to both sides alike; nothing is computed."""
    out = []
    for v in values:
        if isinstance(v, (list, tuple)):
            out.extend(nonscalar(v))
        elif getattr(v, "shape", None) == () or getattr(v, "ndim", None) == 0:
            out.append(v.reshape(1) if hasattr(v, "reshape") else onp.asarray([v]))
        elif isinstance(v, (bool, int, float)):
            out.append(onp.asarray([v]))
        else:
            out.append(v)
    return out


@contextlib.contextmanager
def frozen_gc():
    """Build a Gluon ``DataLoader`` without its two full ``gc.collect()`` passes scanning the
    whole heap (``gc.freeze()``: only objects created from here on are examined)."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


@functools.lru_cache(maxsize=1)
def workdir() -> Path:
    path = Path(tempfile.mkdtemp(prefix="sidebyside-catalogue-data-"))
    atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path


def images(n: int, h: int, w: int, c: int = 3, seed: int = 0) -> onp.ndarray:
    """``n`` uint8 images ``(n, h, w, c)``, the same for the same arguments."""
    return onp.random.default_rng(seed).integers(0, 256, (n, h, w, c)).astype(onp.uint8)


def ramp(h: int, w: int) -> onp.ndarray:
    """A float32 ``(1, h, w)`` image whose value is the column index minus the centre
    column: bilinear sampling reproduces it exactly, so a rotated pixel reads its angle."""
    return onp.tile(onp.arange(w, dtype=onp.float32) - (w - 1) / 2, (1, h, 1))


def colour_stats(pixels, before) -> list:
    """Three numbers that separate the colour jitters, for a jittered pair of pixels
    ``[A, B]`` (RGB, 0-255; ``before``: the pair as it was, A coloured, B gray):
    10 × the turn of A's hue (only a hue jitter turns it: scaling and adding a gray keep
    the hue), B's value over its value before (brightness, contrast, and a saturation
    jitter that does not keep grays gray), and A's HSV saturation."""
    import colorsys

    a, b = (onp.asarray(p, dtype=onp.float64) / 255 for p in pixels)
    a0, b0 = (onp.asarray(p, dtype=onp.float64) / 255 for p in before)
    ha, sa, _ = colorsys.rgb_to_hsv(*a)
    turn = (ha - colorsys.rgb_to_hsv(*a0)[0] + 0.5) % 1.0 - 0.5
    return [10 * turn, b.max() / b0.max(), sa]


def pca_alphas(shift) -> onp.ndarray:
    """The three weights of AlexNet's PCA lighting noise behind an RGB ``shift`` (solving
    shift = eigvec @ (alpha * eigval) with MXNet's ImageNet eigen-decomposition)."""
    eigval = onp.array([55.46, 4.794, 1.148])
    eigvec = onp.array([[-0.5675, 0.7192, 0.4009], [-0.5808, -0.0045, -0.8140],
                        [-0.5836, -0.6948, 0.4203]])
    return onp.linalg.solve(eigvec * eigval, onp.asarray(shift, dtype=onp.float64))


def _idx(arr: onp.ndarray) -> bytes:
    """The IDX (MNIST) encoding of a uint8 array."""
    return struct.pack(">I", 0x800 + arr.ndim) + struct.pack(f">{arr.ndim}I", *arr.shape) \
        + arr.astype(onp.uint8).tobytes()


_MNIST_FILES = {True: ("train-images-idx3-ubyte", "train-labels-idx1-ubyte"),
                False: ("t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte")}


@functools.lru_cache(maxsize=None)
def mnist_roots(name: str = "MNIST", n: int = 6) -> dict:
    """Synthetic MNIST-format files for ``name`` (``"MNIST"`` or ``"FashionMNIST"``), train
    (seed 1) and test (seed 2) splits of ``n`` 28×28 images: ``{"mx": root for Gluon's class
    (gzip'd IDX files), "tv": root for torchvision's (raw IDX under <root>/<name>/raw),
    "raw": the folder of the uncompressed files (``mx.io.MNISTIter``'s image=, label=)}``."""
    base = workdir() / f"mnist-{name}"
    mx_root, raw = base / "mx", base / "tv" / name / "raw"
    mx_root.mkdir(parents=True, exist_ok=True)
    raw.mkdir(parents=True, exist_ok=True)
    for train, seed in ((True, 1), (False, 2)):
        imgs = images(n, 28, 28, 1, seed)[..., 0]
        labels = onp.random.default_rng(seed + 10).integers(0, 10, n).astype(onp.uint8)
        for fname, arr in zip(_MNIST_FILES[train], (imgs, labels)):
            data = _idx(arr)
            (raw / fname).write_bytes(data)
            with gzip.open(mx_root / f"{fname}.gz", "wb") as f:
                f.write(data)
    return {"mx": str(mx_root), "tv": str(base / "tv"), "raw": str(raw)}


@functools.lru_cache(maxsize=None)
def cifar_roots(name: str = "CIFAR10", n: int = 2) -> dict:
    """Synthetic CIFAR files, ``n`` 32×32 images per batch file: ``{"mx": root of Gluon's
    binary records, "tv": root of torchvision's pickles}``. CIFAR-10: five training files and
    one test file, labels 0-9; CIFAR-100: one of each, records carrying a coarse (0-19) and a
    fine (0-99) label."""
    base = workdir() / f"cifar-{name}"
    mx_root = base / "mx"
    mx_root.mkdir(parents=True, exist_ok=True)
    if name == "CIFAR10":
        tv_dir = base / "tv" / "cifar-10-batches-py"
        files = [(f"data_batch_{k}", f"data_batch_{k}.bin") for k in range(1, 6)]
        files.append(("test_batch", "test_batch.bin"))
        meta = ("batches.meta", {"label_names": [f"class{k}" for k in range(10)]})
    else:
        tv_dir = base / "tv" / "cifar-100-python"
        files = [("train", "train.bin"), ("test", "test.bin")]
        meta = ("meta", {"fine_label_names": [f"fine{k}" for k in range(100)],
                         "coarse_label_names": [f"coarse{k}" for k in range(20)]})
    tv_dir.mkdir(parents=True, exist_ok=True)
    for seed, (tv_name, mx_name) in enumerate(files, start=3):
        imgs = images(n, 32, 32, 3, seed)                       # (n, H, W, C)
        rng = onp.random.default_rng(seed + 10)
        rows = imgs.transpose(0, 3, 1, 2).reshape(n, 3072)       # CHW planes, as both store
        if name == "CIFAR10":
            labels = rng.integers(0, 10, n)
            mx_rows = onp.concatenate([labels[:, None], rows], axis=1)
            entry = {"data": rows, "labels": labels.tolist()}
        else:
            coarse, fine = rng.integers(0, 20, n), rng.integers(0, 100, n)
            mx_rows = onp.concatenate([coarse[:, None], fine[:, None], rows], axis=1)
            entry = {"data": rows, "fine_labels": fine.tolist(), "coarse_labels": coarse.tolist()}
        (mx_root / mx_name).write_bytes(mx_rows.astype(onp.uint8).tobytes())
        with open(tv_dir / tv_name, "wb") as f:
            pickle.dump(entry, f)
    with open(tv_dir / meta[0], "wb") as f:
        pickle.dump(meta[1], f)
    return {"mx": str(mx_root), "tv": str(base / "tv")}


@contextlib.contextmanager
def sha1_ok():
    """Gluon's dataset classes accept the synthetic files (``check_sha1`` → True)."""
    from mxnet.gluon import utils
    from mxnet.gluon.data.vision import datasets

    saved = utils.check_sha1, datasets.check_sha1
    utils.check_sha1 = datasets.check_sha1 = lambda *a, **k: True
    try:
        yield
    finally:
        utils.check_sha1, datasets.check_sha1 = saved


@contextlib.contextmanager
def md5_ok():
    """torchvision's CIFAR classes accept the synthetic files (``check_integrity`` → True)."""
    from torchvision.datasets import cifar

    saved = cifar.check_integrity
    cifar.check_integrity = lambda *a, **k: True
    try:
        yield
    finally:
        cifar.check_integrity = saved


@functools.lru_cache(maxsize=None)
def image_folder(gray: bool = False) -> str:
    """``root/<class>/<n>.png``: classes ``b_cat`` (2 images), ``a_dog`` (1), ``c_eel`` (2)
    — written in that order, so that sorted order is not the order of creation — 5×7
    images, RGB (or 1-channel PNGs with ``gray=True``)."""
    from PIL import Image

    root = workdir() / ("folder-gray" if gray else "folder-rgb")
    for k, (cls, count) in enumerate((("b_cat", 2), ("a_dog", 1), ("c_eel", 2))):
        (root / cls).mkdir(parents=True, exist_ok=True)
        for j, img in enumerate(images(count, 5, 7, 3, seed=20 + k)):
            pic = Image.fromarray(img[..., 0], "L") if gray else Image.fromarray(img, "RGB")
            pic.save(root / cls / f"{j}.png")
    return str(root)


@functools.lru_cache(maxsize=None)
def image_files() -> dict:
    """Encoded images: ``{"png": path of a 6×9 RGB PNG, "gray_png": a 6×9 grayscale PNG,
    "jpg": a 16×24 RGB JPEG (quality 90, 4:2:0)}``, written by Pillow."""
    from PIL import Image

    root = workdir() / "encoded"
    root.mkdir(exist_ok=True)
    rgb = images(1, 6, 9, 3, seed=30)[0]
    Image.fromarray(rgb, "RGB").save(root / "a.png")
    Image.fromarray(rgb[..., 1], "L").save(root / "g.png")
    smooth = onp.stack(onp.meshgrid(onp.arange(24) * 10, onp.arange(16) * 15), -1)
    jpg = onp.concatenate([smooth, smooth[..., :1] // 2], -1).clip(0, 255).astype(onp.uint8)
    Image.fromarray(jpg, "RGB").save(root / "a.jpg", quality=90)
    return {"png": str(root / "a.png"), "gray_png": str(root / "g.png"),
            "jpg": str(root / "a.jpg")}


@functools.lru_cache(maxsize=None)
def rec_file(n: int = 5, gray: bool = False, multi: bool = False) -> dict:
    """An image ``.rec`` + ``.idx`` pair written by MXNet's ``MXIndexedRecordIO`` (the
    payloads by ``mx.recordio.pack``: an ``IRHeader`` and PNG bytes encoded by Pillow): ``n``
    8×6 images (H×W), labels ``2·i + 0.5`` (``multi``: three labels each), ids ``100 + i``.
    Returns ``{"rec", "idx", "images" (n, H, W, C) uint8, "labels"}``."""
    import io

    import mxnet as mx
    from PIL import Image

    stem = workdir() / f"images-{n}-{int(gray)}-{int(multi)}"
    imgs = images(n, 8, 6, 1 if gray else 3, seed=40)
    labels = [[2.0 * i + 0.5, -i, 7.0] if multi else 2.0 * i + 0.5 for i in range(n)]
    writer = mx.recordio.MXIndexedRecordIO(f"{stem}.idx", f"{stem}.rec", "w")
    for i, img in enumerate(imgs):
        buf = io.BytesIO()
        Image.fromarray(img[..., 0] if gray else img, "L" if gray else "RGB").save(buf, "PNG")
        header = mx.recordio.IRHeader(0, labels[i], 100 + i, 0)
        writer.write_idx(i, mx.recordio.pack(header, buf.getvalue()))
    writer.close()
    return {"rec": f"{stem}.rec", "idx": f"{stem}.idx", "images": imgs,
            "labels": onp.asarray(labels, dtype=onp.float32)}


@functools.lru_cache(maxsize=None)
def text_files() -> dict:
    """``{"data_csv", "label_csv", "libsvm"}``: a 7×3 float CSV (values with 4 decimals),
    its 7 labels, and a LibSVM file of 5 rows over 6 features (sparse, zero-based)."""
    root = workdir() / "text"
    root.mkdir(exist_ok=True)
    rng = onp.random.default_rng(50)
    data = onp.round(rng.uniform(-3, 3, (7, 3)), 4)
    onp.savetxt(root / "d.csv", data, delimiter=",", fmt="%.4f")
    onp.savetxt(root / "l.csv", onp.arange(7), delimiter=",", fmt="%d")
    lines = ["1 0:1.5 3:-2", "0 2:0.25", "2 1:4 4:1 5:-0.5", "1 5:3", "0 0:-1 2:2"]
    (root / "s.libsvm").write_text("\n".join(lines) + "\n")
    return {"data_csv": str(root / "d.csv"), "label_csv": str(root / "l.csv"),
            "libsvm": str(root / "s.libsvm")}
