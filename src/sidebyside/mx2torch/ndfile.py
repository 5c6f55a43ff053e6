"""MXNet's NDArray file format (``mx.nd.save`` / ``.params``), read and written in pure Python + numpy.

No MXNet is imported here, not even lazily: only the standard library and numpy (torch tensors are
accepted by :func:`save_params` when torch is already imported, through ``.detach().cpu().numpy()``).

The format, as written by apache/mxnet 1.9.1. Read in the 1.x source (``src/ndarray/ndarray.cc``:
``NDArray::Save``/``NDArray::Load``/``LegacyLoad``/``LegacyTShapeLoad``, the ``NDARRAY_V1/V2/V3_MAGIC``
constants and ``kMXAPINDArrayListMagic``; ``src/c_api/c_api.cc``: ``MXNDArraySaveRawBytes``, which is
``NDArray::Save`` into a memory stream; ``include/mxnet/tuple.h``: ``Tuple::Save``, int32 ndim then
int64 dims). Fields marked *[bytes]* were also checked against the bytes MXNet 1.9.1 writes (the
name list's layout, from dmlc-core's vector serializer, and the context's, only by bytes);
tests/test_ndfile.py repeats those checks on every run. *[source]* means read in the source and
checked only by MXNet 1.9.1 *loading* bytes crafted by hand. All integers are little-endian.

File (a list of arrays and optional names) *[bytes]*::

    uint64 magic = 0x112 (kMXAPINDArrayListMagic)   uint64 reserved = 0 (ignored when read)
    uint64 n_arrays, then n_arrays array records
    uint64 n_names (0 = a list, else = n_arrays: a dict), each: uint64 length + utf-8 bytes

A dict and a list that are both empty are the same 32 bytes; :func:`load_params` then returns ``[]``,
as ``mx.nd.load`` does. Names such as ``arg:fc_weight``/``aux:bn_moving_mean`` (Module checkpoints,
``HybridBlock.export``) are ordinary names and are kept as they are.

Array record, versions 2 and 3 *[bytes]*::

    uint32 magic: 0xF993FAC9 (V2, legacy shape semantics; what ``mx.nd.save`` writes by default)
                  0xF993FACA (V3, numpy shape semantics; ``mx.npx.save``, or ``mx.nd.save`` under
                              ``mx.npx.set_np()`` / ``mx.util.np_shape(True)``)
    int32  storage type: 0 dense, 1 row_sparse, 2 csr (V3 allows only 0)
    [sparse only] storage shape (if it holds 0 elements, it is derived from the aux shapes)
    shape: int32 ndim, then ndim x int64 dims   (V2: ndim 0 = an uninitialised "none" array;
                                                 V3: ndim 0 = a 0-d array, ndim/dim -1 = unknown)
    int32 dev_type (1 cpu, 2 gpu, 3 cpu_pinned, 5 cpu_shared), int32 dev_id  -- ignored when read
    int32 dtype flag
    [sparse only] per aux array: int32 dtype flag + shape (row_sparse: indices; csr: indptr, indices)
    data: prod(storage shape or shape) x itemsize bytes, C order; then each aux array's data

dtype flags *[bytes]*: 0 float32, 1 float64, 2 float16, 3 uint8, 4 int32, 5 int8, 6 int64, 7 bool
(1.9.1 writes bool in V2 and V3). Flags 8-11 (int16, uint16, uint32, uint64) and 12 (bfloat16) are
in mshadow but MXNet 1.9.1 cannot create such arrays from Python; they are refused with a message
naming the array (bfloat16: numpy has no such dtype). Aux arrays are int64 in every file 1.9.1
writes; any integer flag is read.

Older records *[source]*: V1, magic 0xF993FAC8, is ``shape (uint32 ndim + int64 dims), context,
dtype flag, data`` with no storage type; before any magic, the first uint32 *is* ndim and the dims
are uint32. In those writers ndim 0 meant a "none" array with nothing after it; such arrays (and V2
"none" arrays, which MXNet 1.9.1 can neither write nor turn into a Python NDArray) are refused
(MXNet 1.9.1 itself would read a pre-magic ndim 0 *followed by data* as a 0-d array; no MXNet
writes that). A GPU-saved record (dev_type 2) reads as any other: the data is always host bytes.

Single-array raw bytes *[bytes]* (``MXNDArraySaveRawBytes``, i.e. ``NDArray.__getstate__()['handle']``,
what pickling an NDArray stores, e.g. inside ``Trainer.save_states`` files) are one array record with
no file header: :func:`array_from_bytes` / :func:`array_to_bytes`.

Read strictly: wrong magic, truncation anywhere, trailing bytes, name/array count mismatch, absurd
sizes, unknown dtype flags/storage types/device types and malformed sparse arrays each raise one
:class:`NDFileError` naming the source, the byte offset and the array; nothing is returned partially.
Sparse arrays are read into :class:`RowSparseArray` / :class:`CSRArray` (``.todense()``); the context
is not kept, so a GPU-saved array loads on CPU, and is written back as ``cpu(0)``.

>>> data = dumps({"w": np.arange(3, dtype=np.float32)})
>>> data[:8] == (0x112).to_bytes(8, "little")
True
>>> loads(data)
{'w': array([0., 1., 2.], dtype=float32)}
"""

from __future__ import annotations

import math
import os
import struct
import sys
from dataclasses import dataclass

import numpy as np

__all__ = [
    "NDFileError",
    "RowSparseArray",
    "CSRArray",
    "load_params",
    "save_params",
    "loads",
    "dumps",
    "array_from_bytes",
    "array_to_bytes",
]

LIST_MAGIC = 0x112
V1_MAGIC = 0xF993FAC8
V2_MAGIC = 0xF993FAC9
V3_MAGIC = 0xF993FACA
MAX_NDIM = 32

# dtype flag -> little-endian numpy dtype (mshadow/base.h TypeFlag)
_FLAG_TO_DTYPE = {
    0: np.dtype("<f4"),
    1: np.dtype("<f8"),
    2: np.dtype("<f2"),
    3: np.dtype("u1"),
    4: np.dtype("<i4"),
    5: np.dtype("i1"),
    6: np.dtype("<i8"),
    7: np.dtype("?"),
}
_DTYPE_TO_FLAG = {dt.newbyteorder("=") if dt.byteorder != "|" else dt: f
                  for f, dt in _FLAG_TO_DTYPE.items()}
# flags mshadow knows but MXNet 1.9.1 does not write: name, itemsize (so a file can be skipped over)
_UNSUPPORTED_FLAGS = {8: ("int16", 2), 9: ("uint16", 2), 10: ("uint32", 4), 11: ("uint64", 8),
                      12: ("bfloat16", 2)}
_STYPES = {0: "default", 1: "row_sparse", 2: "csr"}
_N_AUX = {0: 0, 1: 1, 2: 2}
_DEV_TYPES = {1: "cpu", 2: "gpu", 3: "cpu_pinned", 5: "cpu_shared"}
_SUPPORTED = "float32, float64, float16, uint8, int32, int8, int64, bool"


class NDFileError(ValueError):
    """A file or byte string that is not a valid MXNet NDArray file, or arrays that cannot be saved
    as one. The message names the file (or source), what is wrong and where."""


@dataclass(frozen=True, eq=False)
class RowSparseArray:
    """An MXNet ``row_sparse`` array: rows ``indices`` (sorted int64) of a ``shape`` array hold ``data``.

    >>> a = RowSparseArray((3, 2), np.ones((1, 2), np.float32), np.array([2], np.int64))
    >>> a.todense()
    array([[0., 0.],
           [0., 0.],
           [1., 1.]], dtype=float32)
    """

    shape: tuple
    data: np.ndarray
    indices: np.ndarray
    stype = "row_sparse"

    @property
    def dtype(self) -> np.dtype:
        return self.data.dtype

    def todense(self) -> np.ndarray:
        out = np.zeros(self.shape, dtype=self.data.dtype)
        out[self.indices] = self.data
        return out


@dataclass(frozen=True, eq=False)
class CSRArray:
    """An MXNet ``csr`` matrix (compressed sparse rows, as in scipy): row ``i`` holds
    ``data[indptr[i]:indptr[i+1]]`` at columns ``indices[indptr[i]:indptr[i+1]]``.

    >>> m = CSRArray((2, 3), np.array([5, 7], np.int32), np.array([0, 1, 2]), np.array([1, 0]))
    >>> m.todense()
    array([[0, 5, 0],
           [7, 0, 0]], dtype=int32)
    """

    shape: tuple
    data: np.ndarray
    indptr: np.ndarray
    indices: np.ndarray
    stype = "csr"

    @property
    def dtype(self) -> np.dtype:
        return self.data.dtype

    def todense(self) -> np.ndarray:
        out = np.zeros(self.shape, dtype=self.data.dtype)
        rows = np.repeat(np.arange(self.shape[0]), np.diff(self.indptr))
        out[rows, self.indices] = self.data
        return out


def _sparse_problem(a) -> str | None:
    """What is structurally wrong with a sparse array (its parts already numpy arrays), or None."""
    shape = tuple(a.shape)
    if any(d < 0 for d in shape):
        return f"negative dimension in shape {shape}"
    if isinstance(a, RowSparseArray):
        idx = a.indices
        if len(shape) < 1 or idx.ndim != 1 or a.data.shape != (idx.shape[0], *shape[1:]):
            return (f"row_sparse parts do not fit: shape {shape}, data {a.data.shape}, "
                    f"indices {idx.shape}")
        if idx.size and (idx.min() < 0 or idx.max() >= shape[0] or np.any(np.diff(idx) <= 0)):
            return f"row_sparse indices are not sorted, unique row numbers below {shape[0]}"
        return None
    ptr, idx = a.indptr, a.indices
    if len(shape) != 2 or a.data.ndim != 1 or ptr.shape != (shape[0] + 1,) or idx.shape != a.data.shape:
        return (f"csr parts do not fit: shape {shape}, data {a.data.shape}, indptr {ptr.shape}, "
                f"indices {idx.shape}")
    if ptr[0] != 0 or ptr[-1] != idx.shape[0] or np.any(np.diff(ptr) < 0):
        return f"csr indptr must rise from 0 to {idx.shape[0]}"
    if idx.size and (idx.min() < 0 or idx.max() >= shape[1]):
        return f"csr column indices must lie in [0, {shape[1]})"
    return None


# ----------------------------------------------------------------------------------------- reading

def _looks_like(head: bytes) -> str:
    if not head:
        return "it is empty"
    if head.startswith(b"PK\x03\x04"):
        return "it looks like a zip archive (a PyTorch torch.save .pt/.pth file, or a .npz)"
    if head.startswith(b"\x93NUMPY"):
        return "it looks like a numpy .npy file"
    if head[:1] == b"\x80" and len(head) > 1 and head[1] <= 5:
        return ("it looks like a Python pickle (an old torch.save file, or Trainer.save_states "
                "optimizer states)")
    if head.lstrip()[:1] in (b"{", b"["):
        return ("it looks like JSON" + (" (an MXNet -symbol.json graph)" if b'"nodes"' in head
                                        else ""))
    if head.startswith(b"\x89HDF"):
        return "it looks like an HDF5 file"
    if head.startswith(b"\x1f\x8b"):
        return "it looks like a gzip file"
    if len(head) >= 4 and int.from_bytes(head[:4], "little") in (V1_MAGIC, V2_MAGIC, V3_MAGIC):
        return ("it looks like a single NDArray's raw bytes (NDArray.__getstate__, pickled NDArrays); "
                "read those with array_from_bytes")
    return f"it starts with {head[:16].hex()}"


class _Reader:
    def __init__(self, data, source: str):
        self.mv = memoryview(data).cast("B")
        self.n = len(self.mv)
        self.pos = 0
        self.source = source
        self.where = ""  # "array #3: " while reading an array

    def fail(self, what: str, at: int | None = None):
        at = self.pos if at is None else at
        raise NDFileError(f"{self.source}: {self.where}{what} (at byte {at} of {self.n})")

    def need(self, size: int, what: str) -> int:
        if size > self.n - self.pos:
            self.fail(f"truncated {what}: needs {size} bytes, {self.n - self.pos} left")
        at = self.pos
        self.pos += size
        return at

    def unpack(self, fmt: str, what: str):
        at = self.need(struct.calcsize(fmt), what)
        return struct.unpack_from(fmt, self.mv, at)

    def u64(self, what):
        return self.unpack("<Q", what)[0]

    def i32(self, what):
        return self.unpack("<i", what)[0]

    def shape(self, what: str, v3: bool) -> tuple | None:
        """int32 ndim + int64 dims. None for an unknown (V3 -1) shape."""
        at = self.pos
        ndim = self.i32(f"{what} ndim")
        if v3 and ndim == -1:
            return None
        if ndim < 0 or ndim > MAX_NDIM:
            self.fail(f"{what} has ndim {ndim}, outside 0..{MAX_NDIM} (corrupt header?)", at)
        at = self.pos
        dims = self.unpack(f"<{ndim}q", f"{what} dims")
        if v3 and -1 in dims:
            return None
        if any(d < 0 for d in dims):
            self.fail(f"{what} {dims} has a negative dimension", at)
        # numpy refuses a shape whose dims multiply past 2**63 bytes even with a 0 among them
        if math.prod(d for d in dims if d) * 16 >= 1 << 63:
            self.fail(f"{what} {dims}: more elements than an array can hold (corrupt header?)",
                      at)
        return dims

    def block(self, dtype: np.dtype, shape: tuple, what: str) -> np.ndarray:
        count = math.prod(shape)
        at = self.need(count * dtype.itemsize, f"{what} ({count} x {dtype.itemsize} bytes)")
        if dtype == np.bool_:
            return np.frombuffer(self.mv, np.uint8, count, at).reshape(shape).astype(np.bool_)
        raw = np.frombuffer(self.mv, dtype, count, at).reshape(shape)
        return raw.astype(dtype.newbyteorder("=") if dtype.byteorder != "|" else dtype)

    def dtype_flag(self, what: str):
        at = self.pos
        flag = self.i32(f"{what} dtype flag")
        if flag in _FLAG_TO_DTYPE:
            return _FLAG_TO_DTYPE[flag], None
        if flag in _UNSUPPORTED_FLAGS:
            name, size = _UNSUPPORTED_FLAGS[flag]
            why = ("numpy has no bfloat16" if name == "bfloat16"
                   else "MXNet 1.9.1 does not write it")
            return np.dtype(f"V{size}"), f"dtype flag {flag} ({name}) is not supported: {why}"
        self.fail(f"unknown dtype flag {flag} (known: 0-7 = {_SUPPORTED})", at)

    def context(self):
        at = self.pos
        dev_type, dev_id = self.unpack("<ii", "context")
        if dev_type not in _DEV_TYPES or dev_id < 0:
            self.fail(f"unknown device (dev_type {dev_type}, dev_id {dev_id}; corrupt header?)", at)

    def array(self):
        """One array record -> (array or sparse object, problem or None, record offset)."""
        start = self.pos
        magic = self.unpack("<I", "array header")[0]
        if magic not in (V2_MAGIC, V3_MAGIC):
            return self.legacy_array(magic, start)
        v3 = magic == V3_MAGIC
        at = self.pos
        stype = self.i32("storage type")
        if stype not in _STYPES:
            extra = " (an uninitialised NDArray)" if stype == -1 else ""
            self.fail(f"unknown storage type {stype}{extra}; known: 0 default, 1 row_sparse, 2 csr",
                      at)
        if v3 and stype != 0:
            self.fail(f"storage type {_STYPES[stype]} in a V3 (numpy-shape) header, which MXNet "
                      "allows only for dense arrays", at)
        nad = _N_AUX[stype]
        sshape = self.shape("storage shape", v3) if nad else None
        at = self.pos
        shape = self.shape("shape", v3)
        if shape is None or (not v3 and len(shape) == 0):
            self.fail("uninitialised ('none') NDArray: the shape is "
                      + ("unknown" if v3 else "ndim 0 in a V2 header") + "; there is no data", at)
        self.context()
        dtype, problem = self.dtype_flag("data")
        if not nad:
            return self.block(dtype, shape, "array data"), problem, start
        aux = []
        for i in range(nad):
            adt, aprob = self.dtype_flag(f"aux #{i}")
            at = self.pos
            ashape = self.shape(f"aux #{i} shape", v3)
            if aprob or adt.kind not in "iu":
                self.fail(f"aux #{i} of a sparse array has non-integer dtype {adt}", at)
            if ashape is None or len(ashape) != 1:
                self.fail(f"aux #{i} shape {ashape} is not 1-d", at)
            aux.append((adt, ashape))
        if math.prod(sshape) == 0:
            # as MXNet's NDArray constructor does: an empty storage shape is derived from the aux
            # shapes. MXNet 1.9.1 writes one when it saves a sparse array that an operator is still
            # computing (Save writes the storage shape before WaitToRead), with the data after it.
            sshape = (aux[0][1][0], *shape[1:]) if stype == 1 else aux[1][1]
        at = self.pos
        data = self.block(dtype, sshape, "sparse values")
        parts = [self.block(adt, ashape, f"aux #{i} data") for i, (adt, ashape) in enumerate(aux)]
        if stype == 1:
            obj = RowSparseArray(shape, data, parts[0])
        else:
            obj = CSRArray(shape, data, parts[0], parts[1])
        if problem is None:
            bad = _sparse_problem(obj)
            if bad:
                self.fail(f"malformed {obj.stype} array: {bad}", at)
        return obj, problem, start

    def legacy_array(self, magic: int, start: int):
        at = self.pos
        if magic == V1_MAGIC:
            ndim = self.unpack("<I", "V1 shape ndim")[0]
            fmt, what = "q", "V1 shape"
        else:
            ndim, fmt, what = magic, "I", "legacy (pre-V1) shape"
            at = start
        if ndim > MAX_NDIM:
            self.fail(f"not an NDArray record: header 0x{magic:08x} is no known magic "
                      f"(V1 0x{V1_MAGIC:08x}, V2 0x{V2_MAGIC:08x}, V3 0x{V3_MAGIC:08x}) nor a "
                      "legacy ndim", start)
        if ndim == 0:
            self.fail(f"{what} has ndim 0: an uninitialised ('none') NDArray, no data", at)
        dims_at = self.pos
        shape = self.unpack(f"<{ndim}{fmt}", f"{what} dims")
        if any(d < 0 for d in shape):
            self.fail(f"{what} {shape} has a negative dimension", dims_at)
        self.context()
        dtype, problem = self.dtype_flag("data")
        return self.block(dtype, shape, "array data"), problem, start

    def end(self):
        if self.pos != self.n:
            self.where = ""
            self.fail(f"{self.n - self.pos} trailing bytes after the last record")


def _label(index: int, name: str | None) -> str:
    return f"array #{index}" + (f" {name!r}" if name is not None else "") + ": "


def loads(data, source: str = "<bytes>"):
    """Parse the bytes of an MXNet NDArray file: a dict (file order) when it has names, else a list.

    >>> loads(dumps([np.array([1, 2], np.int8)]))
    [array([1, 2], dtype=int8)]
    """
    r = _Reader(data, source)
    if r.n < 8 or int.from_bytes(r.mv[:8], "little") != LIST_MAGIC:
        raise NDFileError(f"{source}: not an MXNet NDArray file: {_looks_like(bytes(r.mv[:64]))}")
    r.unpack("<QQ", "file header")
    count = r.u64("array count")
    if count * 4 > r.n - r.pos:  # every record takes 4 bytes at least
        r.fail(f"array count {count} is more than the {r.n - r.pos} bytes left could hold", 16)
    arrays, problems = [], []
    for i in range(count):
        r.where = _label(i, None)
        arr, problem, start = r.array()
        arrays.append(arr)
        if problem:
            problems.append((i, problem, start))
    r.where = ""
    at = r.pos
    n_names = r.u64("name count")
    if n_names not in (0, count):
        r.fail(f"the file has {n_names} names for {count} arrays", at)
    names, name_at = [], []
    for i in range(n_names):
        r.where = f"name #{i}: "
        at = r.pos
        name_at.append(at)
        length = r.u64("name length")
        start = r.need(length, "name")
        try:
            names.append(str(r.mv[start:start + length], "utf-8"))
        except UnicodeDecodeError as e:
            r.fail(f"name is not utf-8 ({e.reason})", at)
    r.end()
    if problems:
        i, problem, start = problems[0]
        raise NDFileError(f"{source}: {_label(i, names[i] if names else None)}{problem} "
                          f"(record at byte {start})")
    if not names:
        return arrays
    out = {}
    for i, name in enumerate(names):
        if name in out:
            raise NDFileError(f"{source}: name {name!r} appears twice (arrays #{list(out).index(name)}"
                              f" and #{i}; at byte {name_at[i]} of {r.n})")
        out[name] = arrays[i]
    return out


def load_params(path):
    """Read an MXNet NDArray file (``.params``, ``mx.nd.save``) like ``mx.nd.load``: a dict
    ``name -> numpy array`` in file order when the file has names, else a list. Sparse arrays come
    back as :class:`RowSparseArray` / :class:`CSRArray`."""
    with open(path, "rb") as f:
        data = f.read()
    return loads(data, source=os.fspath(path))


def array_from_bytes(data, source: str = "<bytes>"):
    """One array from its raw bytes (``MXNDArraySaveRawBytes``, ``NDArray.__getstate__()['handle']``).

    >>> array_from_bytes(array_to_bytes(np.eye(2, dtype=np.float16)))
    array([[1., 0.],
           [0., 1.]], dtype=float16)
    """
    r = _Reader(data, source)
    if r.n >= 8 and int.from_bytes(r.mv[:8], "little") == LIST_MAGIC:
        raise NDFileError(f"{source}: this is an NDArray list file (magic 0x112), not one array's "
                          "raw bytes; read it with loads/load_params")
    if r.n < 4:
        raise NDFileError(f"{source}: not an MXNet NDArray record: {_looks_like(bytes(r.mv))}")
    magic = int.from_bytes(r.mv[:4], "little")
    if magic not in (V1_MAGIC, V2_MAGIC, V3_MAGIC) and magic > MAX_NDIM:
        raise NDFileError(f"{source}: not an MXNet NDArray record: {_looks_like(bytes(r.mv[:64]))}")
    r.where = "array: "
    arr, problem, start = r.array()
    r.end()
    if problem:
        raise NDFileError(f"{source}: array: {problem} (record at byte {start})")
    return arr


# ----------------------------------------------------------------------------------------- writing

def _as_numpy(a, label: str):
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(a, torch.Tensor):
        if a.dtype == torch.bfloat16:
            raise NDFileError(f"{label}dtype torch.bfloat16 cannot be saved: numpy has no bfloat16"
                              f" (supported: {_SUPPORTED})")
        try:
            return a.detach().cpu().numpy()
        except (TypeError, RuntimeError) as e:
            raise NDFileError(f"{label}cannot convert {a.dtype} tensor to numpy: {e}") from None
    if isinstance(a, (RowSparseArray, CSRArray)):
        return a
    if isinstance(a, (np.ndarray, np.generic)):
        return np.asarray(a)
    raise NDFileError(f"{label}{type(a).__name__} is not a numpy array or torch tensor")


def _flag(dtype: np.dtype, label: str, what: str = "dtype") -> int:
    key = dtype.newbyteorder("=") if dtype.byteorder not in "|=" else dtype
    flag = _DTYPE_TO_FLAG.get(key) if dtype.kind in "biuf" else None
    if flag is None:
        raise NDFileError(f"{label}{what} {dtype} cannot be saved in an MXNet NDArray file "
                          f"(supported: {_SUPPORTED})")
    return flag


def _shape_bytes(shape) -> bytes:
    return struct.pack(f"<i{len(shape)}q", len(shape), *shape)


def _data_bytes(a: np.ndarray, flag: int) -> bytes:
    return np.ascontiguousarray(a, dtype=_FLAG_TO_DTYPE[flag]).tobytes()


def _record(a, label: str, magic: int) -> bytes:
    ctx = struct.pack("<ii", 1, 0)  # cpu(0)
    if isinstance(a, (RowSparseArray, CSRArray)):
        if magic == V3_MAGIC:
            raise NDFileError(f"{label}sparse ({a.stype}) arrays cannot be saved with numpy-shape "
                              "(V3) headers; MXNet allows only dense arrays there")
        parts = [np.asarray(a.data), np.asarray(a.indices)] if a.stype == "row_sparse" else \
            [np.asarray(a.data), np.asarray(a.indptr), np.asarray(a.indices)]
        shape = tuple(int(d) for d in a.shape)
        obj = (RowSparseArray(shape, *parts) if a.stype == "row_sparse"
               else CSRArray(shape, *parts))
        bad = _sparse_problem(obj)
        if bad:
            raise NDFileError(f"{label}{bad}")
        flag = _flag(parts[0].dtype, label)
        aux = parts[1:]
        aux_flags = [_flag(p.dtype, label, "sparse index dtype") for p in aux]
        if any(p.dtype.kind not in "iu" for p in aux):
            raise NDFileError(f"{label}sparse indices must be integers")
        out = [struct.pack("<Ii", magic, 1 if a.stype == "row_sparse" else 2),
               _shape_bytes(parts[0].shape), _shape_bytes(shape), ctx, struct.pack("<i", flag)]
        for p, f in zip(aux, aux_flags):
            out += [struct.pack("<i", f), _shape_bytes(p.shape)]
        out.append(_data_bytes(parts[0], flag))
        out += [_data_bytes(p, f) for p, f in zip(aux, aux_flags)]
        return b"".join(out)
    flag = _flag(a.dtype, label)
    if a.ndim > MAX_NDIM:
        raise NDFileError(f"{label}{a.ndim} dimensions; at most {MAX_NDIM}")
    if a.ndim == 0 and magic != V3_MAGIC:
        raise NDFileError(f"{label}a 0-d array needs numpy-shape (V3) headers: pass np_shape=True "
                          "(or None); V2 reads ndim 0 as an uninitialised array")
    return b"".join([struct.pack("<Ii", magic, 0), _shape_bytes(a.shape), ctx,
                     struct.pack("<i", flag), _data_bytes(a, flag)])


def _choose_magic(arrays, np_shape) -> int:
    if np_shape is None:
        np_shape = any(isinstance(a, np.ndarray) and a.ndim == 0 for a in arrays)
    return V3_MAGIC if np_shape else V2_MAGIC


def dumps(arrays, *, np_shape: bool | None = None) -> bytes:
    """The bytes ``mx.nd.save`` writes for ``arrays`` (a dict ``str -> array``, a list, or one array).

    ``np_shape=False`` writes V2 headers (``mx.nd.save``'s default), ``True`` V3 headers (``npx.save``,
    or ``mx.nd.save`` under numpy-shape semantics); ``None`` (default) writes V3 only when some
    array is 0-d, which V2 cannot hold. Arrays are written as saved from ``cpu(0)``.

    >>> len(dumps([])), dumps([]) == dumps({})
    (32, True)
    """
    if isinstance(arrays, dict):
        for k in arrays:
            if not isinstance(k, str):
                raise NDFileError(f"cannot save: key {k!r} is a {type(k).__name__}; MXNet NDArray "
                                  "file names are str")
        names, values = list(arrays), list(arrays.values())
    elif isinstance(arrays, (list, tuple)):
        names, values = [], list(arrays)
    else:
        names, values = [], [arrays]
    labels = [_label(i, names[i] if names else None) for i in range(len(values))]
    values = [_as_numpy(v, "cannot save " + lab) for v, lab in zip(values, labels)]
    magic = _choose_magic(values, np_shape)
    out = [struct.pack("<QQQ", LIST_MAGIC, 0, len(values))]
    out += [_record(v, "cannot save " + lab, magic) for v, lab in zip(values, labels)]
    out.append(struct.pack("<Q", len(names)))
    for name in names:
        raw = name.encode("utf-8")
        out += [struct.pack("<Q", len(raw)), raw]
    return b"".join(out)


def array_to_bytes(a, *, np_shape: bool | None = None) -> bytes:
    """One array's raw bytes, as ``NDArray.__getstate__()['handle']`` (``MXNDArraySaveRawBytes``)."""
    a = _as_numpy(a, "cannot save array: ")
    return _record(a, "cannot save array: ", _choose_magic([a], np_shape))


def save_params(path, arrays, *, np_shape: bool | None = None) -> None:
    """Write ``arrays`` (dict ``str -> array`` or list; numpy arrays, torch tensors, or the sparse
    classes here) to ``path`` as ``mx.nd.save`` does, byte for byte (see :func:`dumps` for
    ``np_shape``). The file is written to a temporary name in the same folder and renamed into
    place: on any error nothing is written and no partial file remains."""
    path = os.fspath(path)
    try:
        data = dumps(arrays, np_shape=np_shape)
    except NDFileError as e:
        raise NDFileError(f"{path}: {e}") from None
    folder = os.path.dirname(os.path.abspath(path))
    base = os.path.basename(path)
    for attempt in range(100):
        tmp = os.path.join(folder, f".{base}.{os.getpid()}.{attempt}.tmp")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0),
                         0o666)
            break
        except FileExistsError:
            continue
    else:
        raise NDFileError(f"{path}: could not create a temporary file in {folder}")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
