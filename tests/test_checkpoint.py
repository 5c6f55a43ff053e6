"""checkpoint.read: both formats, damaged files named, pickles refused, digests checked."""
import pickle

import mxnet as mx
import numpy as np
import pytest
import torch

from sidebyside import checkpoint


@pytest.fixture
def files(tmp_path):
    mx.nd.save(str(tmp_path / "w.params"), {"arg:w": mx.nd.array([1.0, 2.0, 3.0])})
    torch.save({"w": torch.tensor([1.0, 2.0, 3.0])}, tmp_path / "w.pt")
    (tmp_path / "w.pkl").write_bytes(pickle.dumps({"w": [1.0, 2.0, 3.0]}))
    return tmp_path


def test_reads_both_formats(files):
    assert checkpoint.kind(files / "w.params") == checkpoint.MXNET
    assert checkpoint.kind(files / "w.pt") == checkpoint.TORCH_ZIP
    np.testing.assert_array_equal(checkpoint.read(files / "w.params")["arg:w"].asnumpy(),
                                  [1, 2, 3])
    assert torch.equal(checkpoint.read(files / "w.pt")["w"], torch.tensor([1.0, 2.0, 3.0]))


@pytest.mark.parametrize("name", ["w.params", "w.pt"])
def test_truncated_file_is_named(files, name):
    data = (files / name).read_bytes()
    (files / name).write_bytes(data[: len(data) // 2])
    with pytest.raises(checkpoint.CheckpointError, match=rf"{name}: cannot be read as a"):
        checkpoint.read(files / name)


def test_unknown_and_missing_files(files):
    (files / "junk.bin").write_bytes(b"hello world")
    with pytest.raises(checkpoint.CheckpointError, match="junk.bin: not an MXNet"):
        checkpoint.read(files / "junk.bin")
    with pytest.raises(checkpoint.CheckpointError, match="nope.pt: no such file"):
        checkpoint.read(files / "nope.pt")


def test_pickles_need_trust(files):
    with pytest.raises(checkpoint.CheckpointError, match="can run arbitrary code"):
        checkpoint.read(files / "w.pkl")
    assert checkpoint.read(files / "w.pkl", trust_pickle=True) == {"w": [1.0, 2.0, 3.0]}


@pytest.mark.parametrize("name", ["w.params", "w.pt"])
def test_a_changed_value_loads_silently_but_not_past_a_digest(files, name):
    path = files / name
    checkpoint.write_digest(path)
    data = path.read_bytes()
    values = np.array([1.0, 2.0, 3.0], np.float32).tobytes()
    assert data.count(values) == 1                       # the tensor's bytes, stored as they are
    path.write_bytes(data.replace(values, np.array([1.0, 2.0, 4.0], np.float32).tobytes()))
    with pytest.raises(checkpoint.CheckpointError, match=r"w\.(params|pt): its SHA-256 differs"):
        checkpoint.read(path)
    (files / f"{name}.sha256").unlink()
    loaded = checkpoint.read(path)                       # neither format notices by itself
    value = loaded["arg:w"].asnumpy() if name.endswith(".params") else loaded["w"].numpy()
    np.testing.assert_array_equal(value, [1, 2, 4])
