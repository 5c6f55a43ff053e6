"""sidebyside.mx2torch.ndfile against MXNet 1.9.1 itself: files MXNet writes are read exactly, files
written here load in MXNet, and the bytes are the same both ways (V2 and numpy-shape V3 headers,
every dtype, sparse storage, raw single-array bytes). Also checks the committed no-MXNet fixtures
are what tests/fixtures/mx2torch/make_ndfile_fixtures.py writes today."""

from __future__ import annotations

import contextlib
import importlib.util
import pickle
import struct
from pathlib import Path

import numpy as np
import pytest

mx = pytest.importorskip("mxnet")

from sidebyside.mx2torch import NDFileError, dumps, load_params, loads, save_params  # noqa: E402
from sidebyside.mx2torch.ndfile import (  # noqa: E402
    CSRArray,
    RowSparseArray,
    array_from_bytes,
    array_to_bytes,
)

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "mx2torch"

DTYPES = ["float32", "float64", "float16", "uint8", "int32", "int8", "int64", "bool"]
SHAPES = [(0,), (3, 0, 2), (1,), (2, 3), (2, 1, 3, 1, 2), (100_000,)]


@contextlib.contextmanager
def np_semantics():
    # leave np_array before np_shape: MXNet refuses the other order
    with mx.util.np_shape(True), mx.util.np_array(True):
        yield


def sample(dtype: str, shape, seed=0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    if dtype == "bool":
        return rng.random(n).reshape(shape) > 0.5
    if dtype.startswith("float"):
        a = (rng.standard_normal(n) * 100).astype(dtype)
        if n >= 4:
            a[:4] = [np.nan, np.inf, -0.0, np.finfo(dtype).max]
        return a.reshape(shape)
    info = np.iinfo(dtype)
    a = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
    if n >= 2:
        a[:2] = [info.min, info.max]
    return a.reshape(shape)


def mx_save(path, arrays):
    if isinstance(arrays, dict):
        mx.nd.save(str(path), {k: mx.nd.array(v, dtype=v.dtype) for k, v in arrays.items()})
    else:
        mx.nd.save(str(path), [mx.nd.array(v, dtype=v.dtype) for v in arrays])
    return Path(path).read_bytes()


def assert_same(got: np.ndarray, want: np.ndarray):
    assert isinstance(got, np.ndarray)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes()  # exact bits, NaN and -0.0 included
    assert got.flags.owndata and got.flags.writeable


def mx_values(x):
    return x.asnumpy()


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", DTYPES)
def test_dense_v2_both_ways(dtype, shape, tmp_path):
    a, b = sample(dtype, shape, 1), sample(dtype, shape, 2)
    for arrays in ({"arg:w": a, "aux:b": b}, [a, b]):
        # (a) MXNet's file -> load_params
        theirs = mx_save(tmp_path / "mx.params", arrays)
        got = load_params(tmp_path / "mx.params")
        assert type(got) is type(arrays)
        if isinstance(arrays, dict):
            assert list(got) == list(arrays)
        for g, w in zip(got.values() if isinstance(got, dict) else got,
                        arrays.values() if isinstance(arrays, dict) else arrays):
            assert_same(g, w)
        # (c) same bytes
        save_params(tmp_path / "ours.params", arrays)
        ours = (tmp_path / "ours.params").read_bytes()
        assert ours == theirs
        # (b) our file -> mx.nd.load
        back = mx.nd.load(str(tmp_path / "ours.params"))
        assert type(back) is type(arrays)
        for g, w in zip(back.values() if isinstance(back, dict) else back,
                        arrays.values() if isinstance(arrays, dict) else arrays):
            assert np.dtype(g.dtype) == w.dtype and g.shape == w.shape
            assert mx_values(g).tobytes() == w.tobytes()


@pytest.mark.parametrize("shape", [(), (0,), (3, 0, 2), (2, 3), (1, 1, 1, 1, 1)], ids=str)
@pytest.mark.parametrize("dtype", DTYPES)
def test_dense_v3_numpy_shape_both_ways(dtype, shape, tmp_path):
    a = sample(dtype, shape, 3)
    with np_semantics():
        for saver in ("npx", "nd"):
            path = tmp_path / f"{saver}.nd"
            if saver == "npx":
                mx.npx.save(str(path), {"x": mx.np.array(a, dtype=a.dtype)})
            else:
                mx.nd.save(str(path), {"x": mx.nd.array(a, dtype=a.dtype)})
            theirs = path.read_bytes()
            assert theirs[24:28] == struct.pack("<I", 0xF993FACA)
            assert_same(load_params(path)["x"], a)
            assert dumps({"x": a}, np_shape=True) == theirs
        save_params(tmp_path / "ours.nd", {"x": a}, np_shape=True)
        back = mx.npx.load(str(tmp_path / "ours.nd"))["x"]
        assert back.shape == a.shape and back.asnumpy().tobytes() == a.tobytes()
    if shape == ():
        assert dumps({"x": a}) == theirs  # np_shape=None picks V3 for 0-d arrays
    else:
        assert dumps({"x": a})[24:28] == struct.pack("<I", 0xF993FAC9)


def test_empty_files(tmp_path):
    for empty in ([], {}):
        theirs = mx_save(tmp_path / "e.nd", empty)
        assert loads(theirs) == [] and mx.nd.load(str(tmp_path / "e.nd")) == []
        assert dumps(empty) == theirs and len(theirs) == 32


def test_unicode_and_checkpoint_names(tmp_path):
    arrays = {"arg:conv0_weight": sample("float32", (2, 1, 3, 3)), "aux:bn_moving_var": sample(
        "float32", (2,)), "gewicht_ß/权重": sample("int8", (3,)), "": sample("uint8", (1,)),
        "a" * 1000: sample("bool", (2,))}
    theirs = mx_save(tmp_path / "n.params", arrays)
    got = loads(theirs)
    assert list(got) == list(arrays)
    assert dumps(arrays) == theirs
    assert list(mx.nd.load(str(tmp_path / "n.params"))) == list(arrays)


def test_gluon_export_and_module_checkpoint(tmp_path):
    net = mx.gluon.nn.HybridSequential()
    net.add(mx.gluon.nn.Conv2D(2, 3, in_channels=1), mx.gluon.nn.BatchNorm(in_channels=2))
    net.initialize()
    net.hybridize()
    net(mx.nd.ones((1, 1, 5, 5)))
    net.export(str(tmp_path / "net"), epoch=3)
    path = tmp_path / "net-0003.params"
    got = load_params(path)
    want = mx.nd.load(str(path))
    assert list(got) == list(want)
    assert {k.split(":")[0] for k in got} == {"arg", "aux"}
    for k, v in want.items():
        assert_same(got[k], v.asnumpy())
    assert dumps(got) == path.read_bytes()
    # and MXNet's own loader for the checkpoint accepts our file
    save_params(tmp_path / "ours-0003.params", got)
    (tmp_path / "ours-symbol.json").write_bytes((tmp_path / "net-symbol.json").read_bytes())
    _, args, auxs = mx.model.load_checkpoint(str(tmp_path / "ours"), 3)
    assert set(args) | set(auxs) == {k.split(":", 1)[1] for k in got}


def test_gluon_save_parameters(tmp_path):
    net = mx.gluon.nn.Dense(3, in_units=2)
    net.initialize()
    net.save_parameters(str(tmp_path / "d.params"))
    got = load_params(tmp_path / "d.params")
    assert set(got) == {"weight", "bias"}
    got["weight"][:] = 7
    save_params(tmp_path / "d2.params", got)
    net.load_parameters(str(tmp_path / "d2.params"))
    assert (net.weight.data().asnumpy() == 7).all()


# ------------------------------------------------------------------------------------------ sparse

def sparse_cases():
    dense = np.array([[0, 0, 0], [1.5, 0, -2], [0, 0, 0], [0, 4, 0]], dtype="float32")
    yield "rsp", mx.nd.array(dense).tostype("row_sparse")
    yield "rsp_f64_3d", mx.nd.array(np.stack([dense, dense * 0]), dtype="float64").tostype(
        "row_sparse")
    yield "rsp_zero", mx.nd.sparse.zeros("row_sparse", (5, 2))
    yield "csr", mx.nd.array(dense).tostype("csr")
    yield "csr_int64", mx.nd.array(dense.astype("int64"), dtype="int64").tostype("csr")
    yield "csr_zero", mx.nd.sparse.zeros("csr", (3, 4))
    mx.nd.waitall()  # see test_sparse_storage_shape_written_before_it_was_computed


def test_sparse_both_ways(tmp_path):
    cases = dict(sparse_cases())
    mx.nd.save(str(tmp_path / "s.nd"), cases)
    theirs = (tmp_path / "s.nd").read_bytes()
    got = load_params(tmp_path / "s.nd")
    for name, x in cases.items():
        g = got[name]
        assert g.stype == x.stype and tuple(g.shape) == x.shape
        assert g.dtype == np.dtype(x.dtype)
        assert_same(g.todense(), x.tostype("default").asnumpy())
        assert_same(g.data, x.data.asnumpy())
        assert_same(g.indices, x.indices.asnumpy())
        if x.stype == "csr":
            assert isinstance(g, CSRArray)
            assert_same(g.indptr, x.indptr.asnumpy())
        else:
            assert isinstance(g, RowSparseArray)
    assert dumps(got) == theirs
    save_params(tmp_path / "ours.nd", got)
    back = mx.nd.load(str(tmp_path / "ours.nd"))
    for name, x in cases.items():
        assert back[name].stype == x.stype
        assert (back[name].tostype("default").asnumpy() == x.tostype("default").asnumpy()).all()


def test_sparse_built_here_loads_in_mxnet(tmp_path):
    rsp = RowSparseArray((4, 2), np.array([[1, 2], [3, 4]], np.float16), np.array([0, 3]))
    csr = CSRArray((2, 3), np.array([1, 2, 3], np.int32), np.array([0, 2, 3]), np.array([0, 2, 1]))
    save_params(tmp_path / "h.nd", [rsp, csr])
    a, b = mx.nd.load(str(tmp_path / "h.nd"))
    assert (a.stype, b.stype) == ("row_sparse", "csr")
    assert_same(a.tostype("default").asnumpy(), rsp.todense())
    assert_same(b.tostype("default").asnumpy(), csr.todense())
    mx.nd.save(str(tmp_path / "m.nd"), [a, b])
    assert (tmp_path / "m.nd").read_bytes() == (tmp_path / "h.nd").read_bytes()


@pytest.mark.parametrize("stype", ["row_sparse", "csr"])
def test_sparse_storage_shape_written_before_it_was_computed(stype):
    # MXNet 1.9.1's NDArray::Save writes the storage shape before it waits for the operator that
    # computes the array, so e.g. `x.tostype("row_sparse").__getstate__()` sometimes says 0 rows
    # and then writes all the data. MXNet's loader derives the storage shape from the aux shapes
    # when it holds 0 elements, and so do we. The race is made certain here by patching the bytes.
    x = mx.nd.array([[0, 0, 0], [1.5, 0, -2], [0, 0, 0], [0, 4, 0]]).tostype(stype)
    x.wait_to_read()
    handle = bytearray(x.__getstate__()["handle"])
    assert struct.unpack_from("<iq", handle, 8)[1] > 0
    struct.pack_into("<q", handle, 12, 0)  # first storage-shape dim -> 0
    y = type(x)(None)
    y.__setstate__({"handle": bytearray(handle)})
    got = array_from_bytes(bytes(handle))
    assert_same(got.todense(), y.tostype("default").asnumpy())
    assert_same(got.todense(), x.tostype("default").asnumpy())
    assert array_to_bytes(got) == bytes(x.__getstate__()["handle"])


# --------------------------------------------------------------------------------------- raw bytes

@pytest.mark.parametrize("dtype", DTYPES)
def test_raw_bytes_match_getstate_and_setstate(dtype):
    for shape in [(2, 3), (0,), (7,)]:
        a = sample(dtype, shape, 4)
        nd = mx.nd.array(a, dtype=a.dtype)
        handle = bytes(nd.__getstate__()["handle"])
        assert_same(array_from_bytes(handle), a)
        assert array_to_bytes(a) == handle
        back = mx.nd.NDArray(None)
        back.__setstate__({"handle": bytearray(array_to_bytes(a))})
        assert back.asnumpy().tobytes() == a.tobytes() and back.shape == a.shape
        # pickling an NDArray stores exactly these bytes
        assert handle in pickle.dumps(nd)


def test_raw_bytes_sparse_and_v3():
    for x in dict(sparse_cases()).values():
        handle = bytes(x.__getstate__()["handle"])
        g = array_from_bytes(handle)
        assert_same(g.todense(), x.tostype("default").asnumpy())
        assert array_to_bytes(g) == handle
    with np_semantics():
        x = mx.np.array(np.float64(-2.5))
        handle = bytes(x.__getstate__()["handle"])
    assert_same(array_from_bytes(handle), np.array(-2.5))
    assert array_to_bytes(np.array(-2.5)) == handle


# ------------------------------------------------------------------------------ crafted & errors

def craft(record: bytes, names=()):
    out = struct.pack("<QQQ", 0x112, 0, 1) + record + struct.pack("<Q", len(names))
    for n in names:
        out += struct.pack("<Q", len(n)) + n.encode()
    return out


@pytest.mark.parametrize("label, record", [
    ("gpu(3)", struct.pack("<IiiqiiI", 0xF993FAC9, 0, 1, 2, 2, 3, 0) + struct.pack("<2f", 1, 2)),
    ("cpu_pinned", struct.pack("<IiiqiiI", 0xF993FAC9, 0, 1, 2, 3, 0, 0) + struct.pack("<2f", 1, 2)),
    ("V1", struct.pack("<IIqiiI", 0xF993FAC8, 1, 2, 1, 0, 0) + struct.pack("<2f", 1, 2)),
    ("pre-V1", struct.pack("<IIIiiI", 2, 1, 2, 1, 0, 0) + struct.pack("<2f", 1, 2)),
    ("V1 int64", struct.pack("<IIqqiiI", 0xF993FAC8, 2, 2, 1, 1, 0, 6) + struct.pack("<2q", -1, 9)),
])
def test_crafted_records_read_as_mxnet_reads_them(label, record, tmp_path):
    path = tmp_path / "c.nd"
    path.write_bytes(craft(record))
    want = mx.nd.load(str(path))[0]
    got = load_params(path)[0]
    assert_same(got, want.asnumpy())
    # written back as MXNet 1.9.1 writes the same array: V2 header, cpu(0)
    mx.nd.save(str(tmp_path / "m.nd"), [want])
    assert dumps([got]) == (tmp_path / "m.nd").read_bytes()


def test_mxnet_rejects_what_we_reject(tmp_path):
    """The refusals that mirror MXNet's own: unknown dtype/storage, a negative dim, V2 none."""
    cases = [
        struct.pack("<IiiqiiI", 0xF993FAC9, 0, 1, 2, 1, 0, 9) + bytes(4),   # dtype 9
        struct.pack("<IiiqiiI", 0xF993FAC9, 5, 1, 2, 1, 0, 0) + bytes(8),   # storage 5
        struct.pack("<IiiqiiI", 0xF993FAC9, 0, 1, -1, 1, 0, 0),             # dim -1
        struct.pack("<I", 0),                                                # legacy none
    ]
    for i, record in enumerate(cases):
        path = tmp_path / f"bad{i}.nd"
        path.write_bytes(craft(record))
        with pytest.raises(NDFileError, match=str(path)):
            load_params(path)
        with pytest.raises(mx.base.MXNetError):
            mx.nd.load(str(path))


def test_bfloat16_refused_with_name():
    record = struct.pack("<IiiqiiI", 0xF993FAC9, 0, 1, 2, 1, 0, 12) + bytes(4)
    with pytest.raises(NDFileError, match=r"w\.params: array #0 'w': dtype flag 12 \(bfloat16\)"):
        loads(craft(record, ["w"]), source="w.params")


def test_error_cases_on_mxnet_files(tmp_path):
    data = mx_save(tmp_path / "m.params", {"w": sample("float32", (2, 3)), "b": sample("int8", (3,))})
    bad = tmp_path / "bad.params"
    for cut in range(len(data)):
        bad.write_bytes(data[:cut])
        with pytest.raises(NDFileError, match=f"^{bad}: "):
            load_params(bad)
    bad.write_bytes(data + b"\0")
    with pytest.raises(NDFileError, match="1 trailing bytes"):
        load_params(bad)
    sym = mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=2)
    sym.save(str(tmp_path / "s-symbol.json"))
    with pytest.raises(NDFileError, match="not an MXNet NDArray file: .*symbol.json"):
        load_params(tmp_path / "s-symbol.json")


def test_torch_tensors_and_zip_files(tmp_path):
    torch = pytest.importorskip("torch")
    t = {"w": torch.arange(6, dtype=torch.float32).reshape(2, 3), "n": torch.tensor([1, 2])}
    assert dumps(t) == mx_save(tmp_path / "m.nd", {k: v.numpy() for k, v in t.items()})
    torch.save(t, tmp_path / "model.pt")
    with pytest.raises(NDFileError, match="model.pt: not an MXNet NDArray file: .*zip"):
        load_params(tmp_path / "model.pt")
    with pytest.raises(NDFileError, match="bfloat16"):
        save_params(tmp_path / "bf.params", {"w": t["w"].to(torch.bfloat16)})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.nd", "model.pt"]


@pytest.mark.parametrize("bad", [
    {"a": np.zeros(2, np.complex64)}, {"a": np.zeros(2, np.uint16)}, {(1, 2): np.zeros(1)},
    {"a": np.array([{}], dtype=object)}, [np.zeros(1, np.float32), np.zeros(1, np.uint32)],
])
def test_failing_save_leaves_the_folder_unchanged(bad, tmp_path):
    (tmp_path / "old.params").write_bytes(b"old")
    before = sorted((p.name, p.read_bytes()) for p in tmp_path.iterdir())
    for target in ("new.params", "old.params"):
        with pytest.raises(NDFileError, match=str(tmp_path / target)):
            save_params(tmp_path / target, bad)
    assert sorted((p.name, p.read_bytes()) for p in tmp_path.iterdir()) == before


# ------------------------------------------------------------------------------- fixtures current

def test_committed_fixtures_are_current(tmp_path):
    spec = importlib.util.spec_from_file_location(
        "make_ndfile_fixtures", FIXTURES / "make_ndfile_fixtures.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    written = gen.generate(tmp_path)
    committed = sorted(p.name for p in (FIXTURES / "ndfile").iterdir())
    assert sorted(p.name for p in written) == committed
    for p in written:
        assert p.read_bytes() == (FIXTURES / "ndfile" / p.name).read_bytes(), p.name
