"""MXNet's RecordIO files (``.rec`` + ``.idx``) in pure Python: read, write, and a PyTorch Dataset.

Keep RecordIO data after dropping MXNet: nothing here imports ``mxnet`` (only ``struct``,
``numpy`` and Pillow; :class:`RecordDataset` imports ``torch`` when it is first used).
The files it writes are byte for byte what MXNet's ``MXRecordIO`` writes for the same
payloads, and it reads every file MXNet writes. Notebook 18 §3 checks both directions.

The ``.rec`` file: a sequence of records, each one or more *frames*::

    offset  size  field
    0       4     magic 0xced7230a (uint32, little-endian: bytes 0a 23 d7 ce)
    4       4     lrecord (uint32): cflag = lrecord >> 29, length = lrecord & (2**29 - 1)
    8       len   payload bytes
    8+len   0-3   zero bytes up to the next multiple of 4

``cflag`` 0 is a whole record. The writer (dmlc-core's ``RecordIOWriter::WriteRecord``, which
MXNet uses) looks for the magic inside the payload at every offset that is a multiple of 4;
each such occurrence is *cut out*, and the payload is written as several frames: cflag 1
(start: the bytes before the first occurrence), cflag 2 (middle: the bytes between two
occurrences), cflag 3 (end: the bytes after the last one, then the padding). The reader puts
one magic back between consecutive frames. Only the last frame is padded (the others end at
an offset that is a multiple of 4 by construction), and a frame may be empty (magic at the
very start or end, or twice in a row). The point: every 4-aligned word in the file that
equals the magic is a frame header, so a reader that starts anywhere (dmlc's ``InputSplit``
splitting a file among workers) finds the next record by scanning aligned words for the
magic followed by a cflag of 0 or 1. An unaligned occurrence stays in the payload as it is.
The magic's top three bits are 6, so an lrecord word (cflag <= 3) never equals it.

The ``.idx`` file: one text line per record, ``key<TAB>offset<LF>``, the byte offset of the
record's first frame; MXNet's ``MXIndexedRecordIO`` writes it and reads keys with
``key_type`` (``int`` by default).

The image-record payload (``mx.recordio.pack``): a 24-byte header ``IRHeader(flag, label, id,
id2)``, struct ``'<IfQQ'``. ``flag == 0``: ``label`` is the (float32) label. ``flag = n > 0``:
``n`` float32 labels follow the header and the header's own ``label`` field is 0. Then the
encoded image (JPEG or PNG).

Channel order, the one real difference from MXNet: ``mx.recordio.pack_img`` and
``unpack_img`` go through OpenCV (``cv2``), which treats a 3-channel array as **BGR**: the
array given to ``pack_img`` is taken as BGR and ``unpack_img`` returns BGR. Here, as in PIL,
torchvision, ``mx.image.imdecode``, ``gluon.data.vision.ImageRecordDataset`` and
``mx.io.ImageRecordIter``, arrays are **RGB**. So, for a 3-channel record ``s``:
``unpack_img(s)[1] == mx.recordio.unpack_img(s)[1][..., ::-1]``, and ``pack_img`` wants
``rgb``, where ``mx.recordio.pack_img`` wants ``rgb[..., ::-1]``. Grayscale: MXNet's
``unpack_img`` returns an ``(H, W)`` array; here it is ``(H, W, 1)`` (always HWC).

Errors: every problem with a file raises :class:`RecordIOError` (a ``ValueError``) naming the
file and the byte offset — a missing file, a file that ends inside a record, a word that is
not the magic where a frame must start, a broken split record, an index whose offsets are not
record starts or lie beyond the file, duplicate keys, and an index that lists another number
of records than the file holds. Nothing is skipped silently.
"""
from __future__ import annotations

import io
import numbers
import os
import struct
from collections import namedtuple
from pathlib import Path
from typing import Any, Callable, Iterator

import numpy as np

__all__ = [
    "MAGIC", "IRHeader", "RecordIOError", "pack", "unpack", "pack_img", "unpack_img",
    "decode_image", "frame", "scan", "read_index", "RecordReader", "IndexedRecordReader",
    "RecordWriter", "IndexedRecordWriter", "RecordDataset",  # noqa: F822 (module __getattr__)
]

MAGIC = 0xCED7230A
MAGIC_BYTES = struct.pack("<I", MAGIC)
LENGTH_BITS = 29
MAX_LENGTH = (1 << LENGTH_BITS) - 1
WHOLE, START, MIDDLE, END = 0, 1, 2, 3
_CFLAG_NAMES = {WHOLE: "whole record", START: "start of a split record",
                MIDDLE: "middle of a split record", END: "end of a split record"}
_HEAD = struct.Struct("<II")
_IR = struct.Struct("<IfQQ")
IR_FORMAT = _IR.format
IR_SIZE = _IR.size            # 24

IRHeader = namedtuple("IRHeader", ["flag", "label", "id", "id2"])
IRHeader.__doc__ = """The header of an image record: ``flag`` (0, or the number of float32
labels that follow), ``label`` (the label when ``flag == 0``), ``id`` and ``id2`` (uint64)."""


class RecordIOError(ValueError):
    """A RecordIO file (or an index, or a payload) that cannot be read as one."""


def _padded(n: int) -> int:
    return (n + 3) & ~3


def _missing(path: Path, what: str, exc: OSError) -> RecordIOError:
    if isinstance(exc, FileNotFoundError):
        return RecordIOError(f"{path}: no such {what} file")
    return RecordIOError(f"{path}: cannot open the {what} file ({exc.strerror or exc})")


# ---------------------------------------------------------------------------------------------
# Frames


def frame(payload: bytes) -> bytes:
    """The bytes one record takes in a ``.rec`` file (frames, split where needed, padding)."""
    payload = bytes(payload)
    n = len(payload)
    if n > MAX_LENGTH:
        raise RecordIOError(f"a record of {n} bytes is too long: the length field has "
                            f"{LENGTH_BITS} bits (at most {MAX_LENGTH} bytes)")
    cuts = []                                 # 4-aligned offsets of the magic in the payload
    pos = payload.find(MAGIC_BYTES)
    while pos != -1:
        if pos % 4 == 0:
            cuts.append(pos)
            pos = payload.find(MAGIC_BYTES, pos + 4)
        else:
            pos = payload.find(MAGIC_BYTES, pos + 1)
    out = bytearray()
    begin = 0
    for k, cut in enumerate(cuts):
        out += _HEAD.pack(MAGIC, ((START if k == 0 else MIDDLE) << LENGTH_BITS) | (cut - begin))
        out += payload[begin:cut]             # a multiple of 4 bytes: no padding needed
        begin = cut + 4
    out += _HEAD.pack(MAGIC, ((END if cuts else WHOLE) << LENGTH_BITS) | (n - begin))
    out += payload[begin:]
    out += bytes(_padded(n - begin) - (n - begin))
    return bytes(out)


def _read_record(f, pos: int, size: int, path: Path, payload: bool = True):
    """Read the record whose first frame is at ``pos``.

    Returns ``(payload or None, offset after the record, number of frames)``; ``None``
    instead of all that when ``pos`` is the end of the file.
    """
    if pos == size:
        return None
    start = pos
    parts = []
    frames = 0
    f.seek(pos)
    while True:
        head = f.read(8)
        if len(head) < 8:
            if frames:
                raise RecordIOError(
                    f"{path}: truncated record: the split record that starts at byte {start} "
                    f"has no end frame; the file ends at byte {pos + len(head)} "
                    f"({len(head)} bytes left where a frame header of 8 bytes belongs)")
            raise RecordIOError(
                f"{path}: truncated record at byte {pos}: the file ends inside the 8-byte "
                f"frame header ({len(head)} bytes left; file size {size})")
        magic, lrec = _HEAD.unpack(head)
        if magic != MAGIC:
            where = ("where the record's frame header belongs" if not frames else
                     f"where the next frame of the split record starting at byte {start} belongs")
            raise RecordIOError(
                f"{path}: byte {pos} holds 0x{magic:08x}, not the RecordIO magic "
                f"0x{MAGIC:08x}, {where}: not a RecordIO file, a damaged one, or an offset "
                "that is not a record start")
        cflag, length = lrec >> LENGTH_BITS, lrec & MAX_LENGTH
        if cflag > END:
            raise RecordIOError(f"{path}: the frame at byte {pos} has cflag {cflag} "
                                "(valid: 0 whole, 1 start, 2 middle, 3 end): a damaged file")
        if not frames and cflag in (MIDDLE, END):
            raise RecordIOError(
                f"{path}: byte {pos} is not a record start: it holds the {_CFLAG_NAMES[cflag]} "
                f"(cflag {cflag}), a continuation frame")
        if frames and cflag in (WHOLE, START):
            raise RecordIOError(
                f"{path}: the split record that starts at byte {start} is broken: at byte {pos} "
                f"a new record ({_CFLAG_NAMES[cflag]}, cflag {cflag}) starts before its end frame")
        padded = _padded(length)
        if pos + 8 + padded > size:
            raise RecordIOError(
                f"{path}: truncated record at byte {start}: the frame at byte {pos} declares "
                f"{length} payload bytes ({padded} with padding), but the file ends "
                f"{size - pos - 8} bytes after its header (file size {size})")
        if payload:
            body = f.read(padded)
            if len(body) < padded:            # the file shrank while we read it
                raise RecordIOError(f"{path}: truncated record at byte {start}: the file ends "
                                    f"inside the frame at byte {pos}")
            parts.append(body[:length])
        else:
            f.seek(padded, os.SEEK_CUR)
        pos += 8 + padded
        frames += 1
        if cflag in (WHOLE, END):
            return (MAGIC_BYTES.join(parts) if payload else None), pos, frames


def _open_rec(path) -> tuple[Path, Any, int]:
    path = Path(path)
    try:
        f = open(path, "rb")
    except OSError as exc:
        raise _missing(path, "record", exc) from exc
    return path, f, os.fstat(f.fileno()).st_size


def scan(rec_path) -> list[int]:
    """The byte offsets of every record in a ``.rec`` file, checked frame by frame.

    Reads only the frame headers (it seeks over the payloads).
    """
    path, f, size = _open_rec(rec_path)
    with f:
        starts, pos = [], 0
        while True:
            got = _read_record(f, pos, size, path, payload=False)
            if got is None:
                return starts
            starts.append(pos)
            pos = got[1]


# ---------------------------------------------------------------------------------------------
# The index


def read_index(idx_path, key_type: Callable = int) -> list[tuple[Any, int]]:
    """``[(key, offset), ...]`` from a ``.idx`` file, in its order; malformed lines and
    duplicate keys raise :class:`RecordIOError`."""
    path = Path(idx_path)
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as exc:
        raise _missing(path, "index", exc) from exc
    except UnicodeDecodeError as exc:
        raise RecordIOError(f"{path}: not a text file (byte {exc.start} is not UTF-8): "
                            "an index holds lines 'key<TAB>offset'") from exc
    entries, seen = [], {}
    for number, line in enumerate(text.splitlines(), start=1):
        fields = line.strip().split("\t")
        if len(fields) != 2:
            raise RecordIOError(f"{path}: line {number} is {line!r}, not 'key<TAB>offset'")
        try:
            key = key_type(fields[0])
        except (TypeError, ValueError) as exc:
            raise RecordIOError(f"{path}: line {number}: key {fields[0]!r} is not a "
                                f"{getattr(key_type, '__name__', key_type)}") from exc
        try:
            offset = int(fields[1])
        except ValueError:
            offset = -1
        if offset < 0:
            raise RecordIOError(f"{path}: line {number}: offset {fields[1]!r} is not a byte "
                                "offset (a non-negative integer)")
        if key in seen:
            raise RecordIOError(f"{path}: duplicate key {key!r} on lines {seen[key]} and "
                                f"{number} (offsets {entries[seen[key] - 1][1]} and {offset})")
        seen[key] = number
        entries.append((key, offset))
    return entries


# ---------------------------------------------------------------------------------------------
# Readers


class RecordReader:
    """Read a ``.rec`` file record by record (``mx.recordio.MXRecordIO(path, 'r')``).

    ``read()`` returns the next payload, ``None`` at the end; iterating yields the payloads.
    The file is opened again in a new process (DataLoader workers), so a reader can be
    handed to one.
    """

    def __init__(self, rec_path):
        self.rec_path = Path(rec_path)
        self._f = None
        self._pid = None
        self._pos = 0
        self._open()

    def _open(self):
        self.rec_path, self._f, self.size = _open_rec(self.rec_path)
        self._pid = os.getpid()

    def _file(self):
        if self._f is None or self._pid != os.getpid():
            self._open()
        return self._f

    def __getstate__(self):
        state = dict(self.__dict__)
        state["_f"] = None
        return state

    def close(self) -> None:
        if self._f is not None:
            self._f.close()
            self._f = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass

    def tell(self) -> int:
        """The byte offset of the record the next ``read()`` returns."""
        return self._pos

    def seek(self, offset: int) -> None:
        """Move to a record start (checked when it is read)."""
        self._pos = int(offset)

    def reset(self) -> None:
        self._pos = 0

    def read(self) -> bytes | None:
        got = self._read_at(self._pos)
        if got is None:
            return None
        payload, self._pos, _ = got
        return payload

    def _read_at(self, offset: int):
        if offset > self.size or offset < 0:
            raise RecordIOError(f"{self.rec_path}: byte offset {offset} is beyond the file "
                                f"({self.size} bytes)")
        return _read_record(self._file(), offset, self.size, self.rec_path)

    def read_at(self, offset: int) -> bytes:
        """The payload of the record that starts at byte ``offset``."""
        if offset == self.size:
            raise RecordIOError(f"{self.rec_path}: byte offset {offset} is the end of the "
                                "file, not a record start")
        return self._read_at(offset)[0]

    def __iter__(self) -> Iterator[bytes]:
        self.reset()
        while (payload := self.read()) is not None:
            yield payload


class IndexedRecordReader(RecordReader):
    """Random access by key (``mx.recordio.MXIndexedRecordIO(idx, rec, 'r')``).

    ``keys`` (in the index's order), ``len()``, ``read_idx(key)``, ``offset(key)``; ``read()``
    still reads sequentially. The index is checked against the file when it is opened: every
    offset must be a record start inside the file, and with ``verify=True`` (the default) the
    file must hold exactly the records the index lists — that reads every frame header once
    (seeking over the payloads); ``verify=False`` checks each offset's own header only.
    """

    def __init__(self, idx_path, rec_path, key_type: Callable = int, verify: bool = True):
        self.idx_path = Path(idx_path)
        self.key_type = key_type
        entries = read_index(self.idx_path, key_type)
        super().__init__(rec_path)
        self.keys = [k for k, _ in entries]
        self.idx = dict(entries)
        self._check(entries, verify)

    def _check(self, entries, verify: bool) -> None:
        f, size = self._file(), self.size
        where = f"{self.idx_path} (index of {self.rec_path.name})"
        for key, offset in entries:
            if offset >= size:
                raise RecordIOError(f"{where}: key {key!r} points at byte {offset}, beyond the "
                                    f"end of {self.rec_path} ({size} bytes)")
            if offset % 4:
                raise RecordIOError(f"{where}: key {key!r} points at byte {offset}, not a "
                                    "record start (records start at multiples of 4)")
            f.seek(offset)
            magic, lrec = _HEAD.unpack(f.read(8).ljust(8, b"\0"))
            if magic != MAGIC or (lrec >> LENGTH_BITS) not in (WHOLE, START):
                what = (f"0x{magic:08x}, not the magic" if magic != MAGIC else
                        f"a continuation frame (cflag {lrec >> LENGTH_BITS})")
                raise RecordIOError(f"{where}: key {key!r} points at byte {offset}, not a "
                                    f"record start of {self.rec_path} (it holds {what})")
        if not verify:
            return
        starts = scan(self.rec_path)
        listed: dict[int, Any] = {}
        for key, offset in entries:
            if offset in listed:
                raise RecordIOError(f"{where}: keys {listed[offset]!r} and {key!r} both point "
                                    f"at the record at byte {offset}")
            listed[offset] = key
        unlisted = [s for s in starts if s not in listed]
        if unlisted or len(starts) != len(entries):
            shown = ", ".join(map(str, unlisted[:5])) + (", ..." if len(unlisted) > 5 else "")
            raise RecordIOError(
                f"{where}: the index lists {len(entries)} records, the file holds "
                f"{len(starts)}; not in the index: the records at bytes {shown} "
                "(an index of another file, or of an older version of it?). "
                "verify=False skips this check")

    def __len__(self) -> int:
        return len(self.keys)

    def __contains__(self, key) -> bool:
        return key in self.idx

    def offset(self, key) -> int:
        try:
            return self.idx[key]
        except KeyError:
            raise KeyError(f"{key!r} is not a key of {self.idx_path}") from None

    def read_idx(self, key) -> bytes:
        offset = self.offset(key)
        self._pos = offset
        return self.read()


# ---------------------------------------------------------------------------------------------
# Writers


class RecordWriter:
    """Write a ``.rec`` file (``mx.recordio.MXRecordIO(path, 'w')``): ``write(payload)``
    appends a record and returns its byte offset. Truncates an existing file."""

    def __init__(self, rec_path):
        self.rec_path = Path(rec_path)
        try:
            self._f = open(self.rec_path, "wb")
        except OSError as exc:
            raise _missing(self.rec_path, "record", exc) from exc
        self._pos = 0

    def tell(self) -> int:
        return self._pos

    def write(self, payload: bytes) -> int:
        data = frame(payload)
        offset = self._pos
        self._f.write(data)
        self._pos += len(data)
        return offset

    def close(self) -> None:
        if self._f is not None and not self._f.closed:
            self._f.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class IndexedRecordWriter(RecordWriter):
    """Write a ``.rec`` file and its ``.idx`` (``mx.recordio.MXIndexedRecordIO(idx, rec, 'w')``):
    ``write_idx(key, payload)``; a key written twice raises :class:`RecordIOError`."""

    def __init__(self, idx_path, rec_path, key_type: Callable = int):
        self.idx_path = Path(idx_path)
        self.key_type = key_type
        if not self.idx_path.parent.is_dir():   # before the .rec is created (or truncated)
            raise _missing(self.idx_path, "index", FileNotFoundError())
        super().__init__(rec_path)
        try:
            self._fidx = open(self.idx_path, "w", encoding="utf-8", newline="\n")
        except OSError as exc:
            self.close()
            raise _missing(self.idx_path, "index", exc) from exc
        self.keys: list = []
        self.idx: dict = {}

    def write_idx(self, key, payload: bytes) -> int:
        key = self.key_type(key)
        text = str(key)
        if not text or any(c in text for c in "\t\r\n") or text != text.strip():
            raise RecordIOError(f"{self.idx_path}: key {key!r} cannot be written to an index "
                                "(empty, or holds a tab, a line break or surrounding spaces)")
        if key in self.idx:
            raise RecordIOError(f"{self.idx_path}: key {key!r} was already written (the record "
                                f"at byte {self.idx[key]})")
        offset = self.write(payload)
        self._fidx.write(f"{text}\t{offset}\n")
        self.idx[key] = offset
        self.keys.append(key)
        return offset

    def close(self) -> None:
        super().close()
        fidx = getattr(self, "_fidx", None)
        if fidx is not None and not fidx.closed:
            fidx.close()


# ---------------------------------------------------------------------------------------------
# Image records


def pack(header, s: bytes) -> bytes:
    """An ``IRHeader`` and a byte string as one payload (``mx.recordio.pack``).

    A numeric ``label`` is stored in the header (``flag`` 0); a sequence or array of labels
    follows the header as float32 values, with ``flag`` = their count and ``label`` 0.
    """
    header = IRHeader(*header)
    if isinstance(header.label, numbers.Number):
        header = header._replace(flag=0)
        extra = b""
    else:
        labels = np.asarray(header.label, dtype="<f4").ravel()
        if labels.size == 0:
            raise ValueError("an empty label array cannot be stored (MXNet would store the "
                             "scalar label 0.0 instead)")
        header = header._replace(flag=labels.size, label=0.0)
        extra = labels.tobytes()
    return _IR.pack(*header) + extra + bytes(s)


def unpack(s: bytes) -> tuple[IRHeader, bytes]:
    """``(IRHeader, rest)`` from a payload (``mx.recordio.unpack``); with ``flag > 0`` the
    header's ``label`` is a float32 array of ``flag`` labels."""
    s = bytes(s)
    if len(s) < IR_SIZE:
        raise RecordIOError(f"a payload of {len(s)} bytes is shorter than the {IR_SIZE}-byte "
                            "IRHeader: not an image record")
    header = IRHeader(*_IR.unpack_from(s))
    rest = s[IR_SIZE:]
    if header.flag > 0:
        need = 4 * header.flag
        if len(rest) < need:
            raise RecordIOError(f"the IRHeader announces {header.flag} float32 labels "
                                f"({need} bytes) but only {len(rest)} bytes follow it")
        header = header._replace(label=np.frombuffer(rest, "<f4", header.flag).copy())
        rest = rest[need:]
    return header, rest


_KEEP_MODES = ("L", "RGB", "RGBA")


def decode_image(data: bytes, mode: str | None = None):
    """A PIL image from encoded bytes, fully decoded. ``mode=None`` keeps grayscale, RGB and
    RGBA as stored (others become RGB, or RGBA when they have transparency); ``"L"``,
    ``"RGB"`` … convert."""
    from PIL import Image, UnidentifiedImageError

    try:
        img = Image.open(io.BytesIO(data))
        img.load()
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        raise RecordIOError(f"the image bytes ({len(data)} bytes, starting "
                            f"{bytes(data[:8])!r}) cannot be decoded: {exc}") from exc
    if mode is not None:
        return img if img.mode == mode else img.convert(mode)
    if img.mode in _KEEP_MODES:
        return img
    if img.mode.startswith("I") or img.mode == "F":
        raise RecordIOError(f"a {img.mode} image (more than 8 bits per sample): give mode= "
                            "to convert it explicitly")
    alpha = "A" in img.mode or "transparency" in img.info
    return img.convert("RGBA" if alpha else "RGB")


def pack_img(header, img, quality: int = 95, img_fmt: str = ".jpg") -> bytes:
    """Encode an image with Pillow and pack it (``mx.recordio.pack_img``, but **RGB**).

    ``img``: a PIL image, or a uint8 array ``(H, W)``, ``(H, W, 1)``, ``(H, W, 3)`` in RGB
    order, or ``(H, W, 4)`` RGBA. ``img_fmt``: ``".jpg"``/``".jpeg"`` (``quality`` 1-100)
    or ``".png"`` (lossless; ``quality`` is the compression level, clipped to 0-9, as MXNet
    passes it to OpenCV).
    """
    from PIL import Image

    if not isinstance(img, Image.Image):
        arr = np.asarray(img)
        if arr.dtype != np.uint8:
            raise ValueError(f"pack_img takes uint8 images, not {arr.dtype}")
        if arr.ndim == 3 and arr.shape[2] == 1:
            arr = arr[:, :, 0]
        if arr.ndim == 2:
            img = Image.fromarray(arr, "L")
        elif arr.ndim == 3 and arr.shape[2] in (3, 4):
            img = Image.fromarray(np.ascontiguousarray(arr), "RGB" if arr.shape[2] == 3 else "RGBA")
        else:
            raise ValueError(f"pack_img takes (H, W), (H, W, 1), (H, W, 3) or (H, W, 4) "
                             f"arrays, not {arr.shape}")
    fmt = img_fmt.lower()
    buf = io.BytesIO()
    if fmt in (".jpg", ".jpeg"):
        if img.mode not in ("L", "RGB"):
            img = img.convert("RGB")
        img.save(buf, format="JPEG", quality=int(quality))
    elif fmt == ".png":
        img.save(buf, format="PNG", compress_level=min(max(int(quality), 0), 9))
    else:
        raise ValueError(f"img_fmt {img_fmt!r}: use '.jpg', '.jpeg' or '.png'")
    return pack(header, buf.getvalue())


def unpack_img(s: bytes, mode: str | None = None) -> tuple[IRHeader, np.ndarray]:
    """``(IRHeader, image)`` with the image an ``(H, W, C)`` uint8 array in **RGB** order
    (``mx.recordio.unpack_img`` returns BGR, and ``(H, W)`` for grayscale)."""
    header, data = unpack(s)
    arr = np.asarray(decode_image(data, mode))
    if arr.ndim == 2:
        arr = arr[:, :, None]
    return header, arr


# ---------------------------------------------------------------------------------------------
# A PyTorch Dataset (torch is imported when the class is first used)


class _RecordDatasetBody:
    """A map-style dataset of ``(image, label)`` over an image ``.rec`` file.

    ``RecordDataset(rec_path, idx_path=None, transform=None, target_transform=None)``:
    torchvision's contract — ``transform`` gets the PIL image only, ``target_transform`` the
    label only (Gluon's ``transform=`` gets both: notebook 18 §4). The label is what the
    record holds: a float (``flag == 0``) or a float32 array (multi-label records), as
    ``ImageRecordDataset`` returns it; ``target_transform=int`` gives class indices.
    Samples come in the index's order when ``idx_path`` is given, else in the file's order
    (the file is scanned once). ``mode`` converts the images (``"RGB"``, ``"L"``); by
    default they stay as stored.
    """

    def __init__(self, rec_path, idx_path=None, transform=None, target_transform=None, *,
                 mode: str | None = None, verify: bool = True):
        self.transform = transform
        self.target_transform = target_transform
        self.mode = mode
        if idx_path is not None:
            self._reader = IndexedRecordReader(idx_path, rec_path, verify=verify)
            self.keys = list(self._reader.keys)
            self.offsets = [self._reader.idx[k] for k in self.keys]
        else:
            self._reader = RecordReader(rec_path)
            self.offsets = scan(rec_path)
            self.keys = None
        self.rec_path = self._reader.rec_path

    def __len__(self) -> int:
        return len(self.offsets)

    def _payload(self, index: int) -> tuple[int, bytes]:
        if not -len(self) <= index < len(self):
            raise IndexError(f"index {index} out of range for {len(self)} records")
        offset = self.offsets[index]
        return offset, self._reader.read_at(offset)

    def header(self, index: int) -> IRHeader:
        offset, payload = self._payload(index)
        try:
            return unpack(payload)[0]
        except RecordIOError as exc:
            raise RecordIOError(f"{self.rec_path}: the record at byte {offset}: {exc}") from None

    def __getitem__(self, index: int):
        offset, payload = self._payload(index)
        try:
            header, data = unpack(payload)
            img = decode_image(data, self.mode)
        except RecordIOError as exc:
            raise RecordIOError(f"{self.rec_path}: the record at byte {offset}: {exc}") from None
        label = header.label
        if self.transform is not None:
            img = self.transform(img)
        if self.target_transform is not None:
            label = self.target_transform(label)
        return img, label

    def __repr__(self) -> str:
        return (f"RecordDataset({self.rec_path.name!r}, {len(self)} records, "
                f"transform={self.transform!r}, target_transform={self.target_transform!r})")


_lazy: dict[str, type] = {}


def _record_dataset_class() -> type:
    if "RecordDataset" not in _lazy:
        import torch.utils.data

        cls = type("RecordDataset", (_RecordDatasetBody, torch.utils.data.Dataset),
                   {"__module__": __name__, "__qualname__": "RecordDataset",
                    "__doc__": _RecordDatasetBody.__doc__})
        _lazy["RecordDataset"] = cls
    return _lazy["RecordDataset"]


def __getattr__(name: str):
    if name == "RecordDataset":
        return _record_dataset_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | {"RecordDataset"})
