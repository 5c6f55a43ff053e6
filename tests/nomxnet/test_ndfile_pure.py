"""sidebyside.mx2torch.ndfile with no MXNet: the committed fixtures (written by MXNet 1.9.1, see
tests/fixtures/mx2torch/make_ndfile_fixtures.py) are read, compared with what mx.nd.load read from
them, written back byte for byte, and broken in every way the reader must refuse.

Imports only numpy, pytest and sidebyside.mx2torch: runs with numpy 1.23 or 2.x and no MXNet."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import numpy as np
import pytest

from sidebyside.mx2torch import NDFileError, dumps, load_params, loads, save_params
from sidebyside.mx2torch.ndfile import CSRArray, RowSparseArray, array_from_bytes, array_to_bytes

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "mx2torch" / "ndfile"
EXPECTED = json.loads((FIXTURES / "expected.json").read_text(encoding="utf-8"))
FILES = sorted(n for n, e in EXPECTED.items() if e["kind"] == "file")
RAWS = sorted(n for n, e in EXPECTED.items() if e["kind"] == "raw")


def test_fixtures_are_there_and_small():
    names = {p.name for p in FIXTURES.iterdir()}
    assert names == set(EXPECTED) | {"expected.json"}
    assert sum(p.stat().st_size for p in FIXTURES.iterdir()) < 50_000
    dtypes = {a["dtype"] for e in EXPECTED.values() for a in e["arrays"]}
    assert dtypes >= {"float32", "float64", "float16", "uint8", "int32", "int8", "int64", "bool"}


def check_entry(got, want: dict, where: str):
    if want["stype"] == "default":
        assert isinstance(got, np.ndarray), where
        dense = got
    else:
        assert got.stype == want["stype"], where
        assert isinstance(got, RowSparseArray if want["stype"] == "row_sparse" else CSRArray)
        for part in ("data", "indices", "indptr"):
            if part in want:
                assert getattr(got, part).tolist() == want[part], (where, part)
        dense = got.todense()
    assert got.dtype == np.dtype(want["dtype"]), where
    assert tuple(got.shape) == tuple(want["shape"]), where
    assert dense.shape == tuple(want["shape"]), where
    want_values = np.array(want["values"], dtype=want["dtype"]).reshape(want["shape"])
    np.testing.assert_array_equal(dense, want_values, err_msg=where)
    # exact bits, -0.0 and NaN included
    assert dense.tobytes() == want_values.tobytes(), where
    if isinstance(got, np.ndarray):
        assert got.flags.owndata and got.flags.writeable and got.flags.c_contiguous


@pytest.mark.parametrize("name", FILES)
def test_fixture_reads_as_mxnet_read_it(name):
    want = EXPECTED[name]
    got = load_params(FIXTURES / name)
    if want["container"] == "dict":
        assert isinstance(got, dict) and list(got) == want["names"]
        values = list(got.values())
    else:
        assert isinstance(got, list)
        values = got
    assert len(values) == len(want["arrays"])
    for i, (g, w) in enumerate(zip(values, want["arrays"])):
        check_entry(g, w, f"{name} #{i}")


@pytest.mark.parametrize("name", FILES)
def test_fixture_written_back_byte_for_byte(name, tmp_path):
    want = EXPECTED[name]
    got = load_params(FIXTURES / name)
    out = tmp_path / name
    save_params(out, got, np_shape=want["np_shape"])
    assert out.read_bytes() == (FIXTURES / name).read_bytes()
    assert dumps(got, np_shape=want["np_shape"]) == (FIXTURES / name).read_bytes()
    # the default np_shape=None picks the same header version for these files
    assert dumps(got) == (FIXTURES / name).read_bytes()
    assert [p.name for p in tmp_path.iterdir()] == [name]


@pytest.mark.parametrize("name", RAWS)
def test_raw_bytes_fixture(name):
    raw = (FIXTURES / name).read_bytes()
    got = array_from_bytes(raw, source=name)
    check_entry(got, EXPECTED[name]["arrays"][0], name)
    assert array_to_bytes(got) == raw
    with pytest.raises(NDFileError, match="raw bytes"):
        loads(raw, source=name)
    with pytest.raises(NDFileError, match=f"{name}: .*truncated"):
        array_from_bytes(raw[:-1], source=name)


def test_arg_aux_names_are_kept():
    got = load_params(FIXTURES / "net-0000.params")
    assert all(k.startswith(("arg:", "aux:")) for k in got)
    assert any(k.startswith("aux:") and k.endswith("running_mean") for k in got)


def test_returned_arrays_are_independent_of_the_file_bytes():
    data = bytearray((FIXTURES / "list.nd").read_bytes())
    got = loads(data)
    before = got[0].copy()
    data[:] = bytes(len(data))
    np.testing.assert_array_equal(got[0], before)
    got[0][0] = 42  # writable


# ------------------------------------------------------------------------------------ broken files

SMALL = (FIXTURES / "net-0000.params").read_bytes()


def test_every_truncation_is_refused():
    for cut in range(len(SMALL)):
        with pytest.raises(NDFileError, match=r"^net\.params: ") as e:
            loads(SMALL[:cut], source="net.params")
        assert ("truncated" in str(e.value) or "not an MXNet" in str(e.value)
                or "more than" in str(e.value)), (cut, str(e.value))


def test_every_truncation_of_sparse_is_refused():
    data = (FIXTURES / "sparse.nd").read_bytes()
    for cut in range(len(data)):
        with pytest.raises(NDFileError, match=r"^s\.nd: "):
            loads(data[:cut], source="s.nd")


@pytest.mark.parametrize("tail", [b"\0", b"garbage", bytes(8)])
def test_trailing_bytes_are_refused(tail):
    with pytest.raises(NDFileError, match=f"f.params: {len(tail)} trailing bytes"):
        loads(SMALL + tail, source="f.params")


@pytest.mark.parametrize("head, looks", [
    (b"PK\x03\x04" + bytes(40), "zip"),
    (b"\x80\x02}q\x00.", "pickle"),
    (b'{\n  "nodes": [],\n  "arg_nodes": []}', "symbol.json"),
    (b"\x93NUMPY\x01\x00", "npy"),
    (b"", "empty"),
    (b"\x12\x01", "starts with 1201"),
    ((0x113).to_bytes(8, "little") + bytes(24), "starts with 1301"),
])
def test_wrong_magic_says_what_it_looks_like(head, looks, tmp_path):
    path = tmp_path / "model.pt"
    path.write_bytes(head)
    with pytest.raises(NDFileError, match="not an MXNet NDArray file") as e:
        load_params(path)
    assert str(path) in str(e.value) and looks in str(e.value)


def header(count=1):
    return struct.pack("<QQQ", 0x112, 0, count)


def v2(shape, flag=0, stype=0, dev=(1, 0), magic=0xF993FAC9):
    return struct.pack(f"<Iii{len(shape)}qiii", magic, stype, len(shape), *shape, *dev, flag)


NO_NAMES = struct.pack("<Q", 0)


def names(*ns):
    out = struct.pack("<Q", len(ns))
    for n in ns:
        out += struct.pack("<Q", len(n.encode())) + n.encode()
    return out


@pytest.mark.parametrize("data, message", [
    (header(2) + v2((1,)) + bytes(4) + v2((1,)) + bytes(4) + names("a"), "1 names for 2 arrays"),
    (header(1) + v2((1,), flag=42) + bytes(4) + NO_NAMES, "array #0: unknown dtype flag 42"),
    (header(1) + v2((1,), stype=7) + bytes(4) + NO_NAMES, "array #0: unknown storage type 7"),
    (header(1) + v2((1,), stype=-1) + bytes(4) + NO_NAMES, "uninitialised NDArray"),
    (header(1) + struct.pack("<Iii", 0xF993FAC9, 0, 33) + bytes(100), "ndim 33"),
    (header(1) + struct.pack("<Iii", 0xF993FAC9, 0, -5) + bytes(100), "ndim -5"),
    (header(1) + v2((2, -3)) + NO_NAMES, r"negative dimension"),
    (header(1) + v2((1 << 20, 1 << 20)) + bytes(8) + NO_NAMES, "truncated array data"),
    (header(1) + v2((1 << 40, 1 << 40)) + bytes(8) + NO_NAMES, "more elements than an array"),
    (header(1) + v2((3, 1 << 62, 0)) + NO_NAMES, "more elements than an array"),
    (header(1 << 62) + bytes(64), "array count 4611686018427387904 is more than"),
    (header(1) + v2((1,)) + bytes(4) + struct.pack("<QQ", 1, 1 << 60), "truncated name"),
    (header(1) + v2((1,)) + bytes(4) + struct.pack("<QQ", 1 << 61, 1), "names for 1 arrays"),
    (header(1) + v2((1,)) + bytes(4) + struct.pack("<QQ", 1, 2) + b"\xff\xfe", "not utf-8"),
    (header(2) + v2((1,)) + bytes(4) + v2((1,)) + bytes(4) + names("a", "a"), "'a' appears twice"),
    (header(1) + v2((1,), dev=(9, 0)) + bytes(4) + NO_NAMES, "unknown device"),
    (header(1) + v2(()) + NO_NAMES, "ndim 0 in a V2 header"),
    (header(1) + struct.pack("<Iii", 0xF993FACA, 0, -1) + NO_NAMES, "the shape is unknown"),
    (header(1) + v2((1,), stype=1, magic=0xF993FACA) + NO_NAMES, "row_sparse in a V3"),
    (header(1) + struct.pack("<I", 0xDEADBEEF) + bytes(40), "no known magic"),
    (header(1) + struct.pack("<I", 0) + NO_NAMES, r"legacy \(pre-V1\) shape has ndim 0"),
    (header(1) + struct.pack("<II", 0xF993FAC8, 0) + NO_NAMES, "V1 shape has ndim 0"),
])
def test_broken_files(data, message, tmp_path):
    path = tmp_path / "broken.params"
    path.write_bytes(data)
    with pytest.raises(NDFileError, match=message) as e:
        load_params(path)
    assert str(e.value).startswith(f"{path}: ")
    assert "at byte" in str(e.value)


def test_unsupported_dtypes_name_the_array():
    # bfloat16 (flag 12) and the int16/uint16/... flags: refused, naming the array and its name
    body = v2((1,)) + bytes(4) + v2((3,), flag=12) + bytes(6)
    with pytest.raises(NDFileError, match=r"f\.nd: array #1 'b': dtype flag 12 \(bfloat16\)"):
        loads(header(2) + body + names("a", "b"), source="f.nd")
    with pytest.raises(NDFileError, match=r"array #0: dtype flag 9 \(uint16\)"):
        loads(header(1) + v2((3,), flag=9) + bytes(6) + NO_NAMES)
    # a structural error wins over an unsupported dtype
    with pytest.raises(NDFileError, match="1 names for 2 arrays"):
        loads(header(2) + body + names("a"))
    with pytest.raises(NDFileError, match="truncated name"):
        loads(header(2) + body + names("a", "b")[:-1])


def test_malformed_sparse_is_refused():
    rsp = (struct.pack("<Iii2qi2q", 0xF993FAC9, 1, 2, 1, 2, 2, 4, 2)
           + struct.pack("<iiiiiq", 1, 0, 0, 6, 1, 1))
    good = header(1) + rsp + struct.pack("<2f", 1, 2) + struct.pack("<q", 3) + NO_NAMES
    assert loads(good)[0].todense().tolist() == [[0, 0], [0, 0], [0, 0], [1, 2]]
    bad = header(1) + rsp + struct.pack("<2f", 1, 2) + struct.pack("<q", 4) + NO_NAMES
    with pytest.raises(NDFileError, match="x.nd: array #0: malformed row_sparse"):
        loads(bad, source="x.nd")


def test_legacy_layouts():
    data = struct.pack("<2f", 1.5, -2)
    v1 = header(1) + struct.pack("<IIqiii", 0xF993FAC8, 1, 2, 1, 0, 0) + data + NO_NAMES
    pre = header(1) + struct.pack("<IIIiii", 2, 1, 2, 1, 0, 0) + data + NO_NAMES
    np.testing.assert_array_equal(loads(v1)[0], np.array([1.5, -2], np.float32))
    np.testing.assert_array_equal(loads(pre)[0], np.array([[1.5, -2]], np.float32))


def test_gpu_context_reads_on_cpu():
    data = header(1) + v2((2,), dev=(2, 3)) + struct.pack("<2f", 1, 2) + names("w")
    np.testing.assert_array_equal(loads(data)["w"], np.array([1, 2], np.float32))


# ------------------------------------------------------------------------------------- writing

@pytest.mark.parametrize("bad, message", [
    ({"a": np.zeros(2, np.complex64)}, "complex64"),
    ({"a": np.zeros(2, np.uint16)}, "uint16"),
    ({"a": np.array([None], dtype=object)}, "object"),
    ({"a": np.zeros(2, "U3")}, "<U3"),
    ({1: np.zeros(2, np.float32)}, "key 1 is a int"),
    ([np.zeros(2, np.float32), [1, 2]], "array #1: list is not a numpy array"),
    ({"a": np.zeros(1, np.float32), "b": np.zeros(1, np.uint64)}, "array #1 'b': dtype uint64"),
])
def test_save_refuses_and_writes_nothing(bad, message, tmp_path):
    (tmp_path / "keep.txt").write_text("x")
    target = tmp_path / "out.params"
    with pytest.raises(NDFileError, match=message) as e:
        save_params(target, bad)
    assert str(e.value).startswith(f"{target}: ")
    assert [p.name for p in tmp_path.iterdir()] == ["keep.txt"]


def test_save_replaces_atomically_and_keeps_old_on_error(tmp_path):
    target = tmp_path / "w.params"
    save_params(target, {"a": np.ones(2, np.float32)})
    old = target.read_bytes()
    with pytest.raises(NDFileError):
        save_params(target, {"a": np.ones(2, np.complex128)})
    assert target.read_bytes() == old
    save_params(target, [np.ones(3, np.int8)])
    assert loads(target.read_bytes())[0].dtype == np.int8
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w.params"]


def test_save_into_missing_folder_fails_cleanly(tmp_path):
    with pytest.raises(OSError):
        save_params(tmp_path / "no" / "w.params", [np.ones(1, np.float32)])
    assert list(tmp_path.iterdir()) == []


def test_zero_d_needs_v3():
    assert dumps([np.float32(1.5)])[24:28] == struct.pack("<I", 0xF993FACA)
    with pytest.raises(NDFileError, match="0-d array needs numpy-shape"):
        dumps([np.float32(1.5)], np_shape=False)
    rsp = RowSparseArray((2, 2), np.ones((1, 2), np.float32), np.array([0]))
    with pytest.raises(NDFileError, match="sparse"):
        dumps([rsp], np_shape=True)


def test_big_endian_and_noncontiguous_inputs_are_written_little_endian():
    a = np.arange(12, dtype=">i4").reshape(3, 4)[:, ::2]
    got = loads(dumps([a]))[0]
    assert got.dtype == np.int32 and got.dtype.isnative
    np.testing.assert_array_equal(got, a)
    assert dumps([a]) == dumps([np.ascontiguousarray(a, "<i4")])


def test_empty_storage_shape_is_derived_from_the_aux_shapes():
    # MXNet 1.9.1 can write a sparse array's storage shape as 0 rows (it writes it before waiting
    # for the operator computing the array) with all the data after it; its loader then takes the
    # storage shape from the aux shapes, and so does ours (tests/test_ndfile.py checks with MXNet).
    raw = bytearray((FIXTURES / "raw_rsp.bin").read_bytes())
    assert struct.unpack_from("<IiI", raw, 0) == (0xF993FAC9, 1, 2)
    assert struct.unpack_from("<q", raw, 12)[0] == 2
    struct.pack_into("<q", raw, 12, 0)
    got = array_from_bytes(bytes(raw))
    check_entry(got, EXPECTED["raw_rsp.bin"]["arrays"][0], "patched raw_rsp.bin")
    assert array_to_bytes(got) == (FIXTURES / "raw_rsp.bin").read_bytes()
