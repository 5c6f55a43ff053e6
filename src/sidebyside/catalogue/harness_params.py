"""Helpers the ``blocks_params``, ``optim_trainer`` and ``image`` entries' checks call.

- :func:`folder`: an empty scratch folder, the same path for both sides of a check (one side
  writes a file there, the other reads it: saved parameters, trainer states, images);
- :func:`png_bytes` / :func:`write_png`: a lossless PNG of a uint8 ``(h, w, 3)`` or ``(h, w)``
  array, written with the standard library only (``zlib``), so that neither framework's
  encoder is on trial when both decode it;
- :func:`jpeg_bytes`: a JPEG of the same (Pillow's encoder, quality 90), for the lossy route.

Standard library (plus numpy and, for JPEG only, Pillow).
"""

from __future__ import annotations

import functools
import os
import shutil
import struct
import tempfile
import zlib

__all__ = ["folder", "png_bytes", "write_png", "jpeg_bytes", "write_jpeg"]


@functools.lru_cache(maxsize=1)
def _root() -> str:
    import atexit

    path = tempfile.mkdtemp(prefix="sidebyside-params-")
    atexit.register(shutil.rmtree, path, True)
    return path


def folder(name: str) -> str:
    """An empty sub-folder ``name`` of this process's scratch folder (emptied if it exists)."""
    path = os.path.join(_root(), name)
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


def _array(img):
    import numpy as onp

    if hasattr(img, "asnumpy"):
        img = img.asnumpy()
    elif hasattr(img, "detach"):
        img = img.detach().cpu().numpy()
    return onp.ascontiguousarray(onp.asarray(img, dtype=onp.uint8))


def png_bytes(img) -> bytes:
    """A PNG (8-bit RGB, or grey for a 2-D array) of ``img``, no filtering, zlib level 6."""
    a = _array(img)
    h, w = a.shape[:2]
    color = 2 if a.ndim == 3 else 0
    raw = b"".join(b"\x00" + a[i].tobytes() for i in range(h))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    head = struct.pack(">IIBBBBB", w, h, 8, color, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", head) + chunk(b"IDAT", zlib.compress(raw, 6))
            + chunk(b"IEND", b""))


def write_png(img, name: str = "img.png", where: str = "png") -> str:
    """``img`` written as a PNG in :func:`folder` ``where``; returns the path."""
    path = os.path.join(folder(where), name)
    with open(path, "wb") as f:
        f.write(png_bytes(img))
    return path


def jpeg_bytes(img, quality: int = 90) -> bytes:
    """A baseline JPEG of ``img`` (Pillow's encoder)."""
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.fromarray(_array(img)).save(buf, format="JPEG", quality=quality)
    return buf.getvalue()


def write_jpeg(img, name: str = "img.jpg", where: str = "jpeg") -> str:
    path = os.path.join(folder(where), name)
    with open(path, "wb") as f:
        f.write(jpeg_bytes(img))
    return path
