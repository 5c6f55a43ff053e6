"""File-to-file conversion, .params ⇄ state dict, and its command line."""

import contextlib
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path

import mxnet as mx
import numpy as np
import pytest
import torch
from mxnet.gluon import nn as gnn

from sidebyside import convert, transfer

ROOT = Path(__file__).resolve().parents[1]

NETS = '''\
"""Factories for the converter's tests: notebook 3's MLP and a LeNet-style CNN."""
import torch
from mxnet.gluon import nn


def mlp_torch():
    return torch.nn.Sequential(torch.nn.Linear(784, 256), torch.nn.ReLU(),
                               torch.nn.Linear(256, 10))


def mlp_gluon():
    net = nn.Sequential()
    net.add(nn.Dense(256, activation="relu"), nn.Dense(10))
    return net


def lenet_torch():
    return torch.nn.Sequential(
        torch.nn.Conv2d(1, 6, 5), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
        torch.nn.Conv2d(6, 16, 5), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
        torch.nn.Flatten(), torch.nn.Linear(16 * 4 * 4, 120), torch.nn.ReLU(),
        torch.nn.Linear(120, 10))


def lenet_gluon(pool="max"):
    pooling = nn.MaxPool2D if pool == "max" else nn.AvgPool2D
    net = nn.HybridSequential()
    net.add(nn.Conv2D(6, 5, activation="relu"), pooling(2),
            nn.Conv2D(16, 5, activation="relu"), pooling(2),
            nn.Dense(120, activation="relu"), nn.Dense(10))
    return net
'''


@pytest.fixture
def nets(tmp_path):
    path = tmp_path / "nets.py"
    path.write_text(NETS)
    return str(path)


def _build(nets, name):
    return convert.build_network(f"{nets}:{name}")


def _randomise_torch(net, seed=0):
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for t in net.state_dict().values():
            if t.is_floating_point():
                t.copy_(torch.randn(t.shape, generator=gen, dtype=t.dtype) * 0.3)


def _gluon_file(net, path, input_shape):
    net.initialize(mx.init.Xavier(magnitude=2))
    net(mx.nd.ones(input_shape))
    net.save_parameters(str(path))
    return mx.nd.load(str(path))


def _same_arrays(a: dict, b: dict):
    assert sorted(a) == sorted(b)
    for k in a:
        assert a[k].dtype == b[k].dtype
        np.testing.assert_array_equal(a[k].asnumpy(), b[k].asnumpy(), err_msg=k)


def _cli(*args, timeout=300):
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src") + os.pathsep
           + os.environ.get("PYTHONPATH", ""), "PYTHONWARNINGS": "ignore"}
    return subprocess.run([sys.executable, "-m", "sidebyside.convert", *map(str, args)],
                          capture_output=True, text=True, timeout=timeout, env=env, cwd=ROOT)


def _nothing_written(folder: Path, *names):
    for name in names:
        assert not (folder / name).exists()
    assert not [p.name for p in folder.iterdir() if p.name.endswith(".tmp")]


# --- round trips in Python ----------------------------------------------------------------

def test_mlp_params_to_pt_to_params_is_exact(nets, tmp_path):
    original = _gluon_file(_build(nets, "mlp_gluon"), tmp_path / "mlp.params", (1, 784))
    result = convert.params_to_state_dict(
        tmp_path / "mlp.params", tmp_path / "mlp.pt", gluon_net=_build(nets, "mlp_gluon"),
        torch_net=_build(nets, "mlp_torch"), input_shape=(4, 784))
    assert result.pairs == [("0", "0"), ("2", "1")] and result.pairing == "name"
    [check] = result.checks
    assert check.ok and check.mode == "eval" and check.max_abs_diff < 1e-5
    state = torch.load(tmp_path / "mlp.pt", weights_only=True)
    assert sorted(state) == ["0.bias", "0.weight", "2.bias", "2.weight"]
    np.testing.assert_array_equal(state["2.weight"].numpy(), original["1.weight"].asnumpy())

    result = convert.state_dict_to_params(
        tmp_path / "mlp.pt", tmp_path / "back.params", torch_net=_build(nets, "mlp_torch"),
        gluon_net=_build(nets, "mlp_gluon"), input_shape=(4, 784))
    assert result.checks[0].ok
    _same_arrays(mx.nd.load(str(tmp_path / "back.params")), original)


def test_lenet_pt_to_params_to_pt_is_exact_in_float64(nets, tmp_path):
    pt = _build(nets, "lenet_torch").double()
    _randomise_torch(pt)
    torch.save(pt.state_dict(), tmp_path / "lenet.pt")
    g = _build(nets, "lenet_gluon")
    result = convert.state_dict_to_params(tmp_path / "lenet.pt", tmp_path / "lenet.params",
                                          torch_net=_build(nets, "lenet_torch"), gluon_net=g,
                                          input_shape=(2, 1, 28, 28))
    assert result.dtype == "float64" and result.pairing == "name"
    assert result.checks[0].max_abs_diff < 1e-12 and result.checks[0].atol == 1e-10
    arrays = mx.nd.load(str(tmp_path / "lenet.params"))
    assert {a.dtype for a in arrays.values()} == {np.float64}
    convert.params_to_state_dict(tmp_path / "lenet.params", tmp_path / "back.pt",
                                 gluon_net=_build(nets, "lenet_gluon"),
                                 torch_net=_build(nets, "lenet_torch"),
                                 input_shape=(2, 1, 28, 28), train_check=True)
    back = torch.load(tmp_path / "back.pt", weights_only=True)
    want = pt.state_dict()
    assert sorted(back) == sorted(want)
    for k in want:
        assert back[k].dtype == torch.float64 and torch.equal(back[k], want[k]), k


def test_resnet18_params_to_pt_to_params_is_exact(tmp_path):
    import torchvision

    original = _gluon_file(mx.gluon.model_zoo.vision.resnet18_v1(), tmp_path / "r.params",
                           (1, 3, 32, 32))
    with warnings.catch_warnings():
        warnings.simplefilter("error", transfer.PairingWarning)   # verified: reported instead
        result = convert.params_to_state_dict(
            tmp_path / "r.params", tmp_path / "r.pt",
            gluon_net=mx.gluon.model_zoo.vision.resnet18_v1(),
            torch_net=torchvision.models.resnet18(weights=None), input_shape=(1, 3, 64, 64))
    assert result.pairing == "order" and "'fc' -> 'output'" in result.pairing_note
    assert "paired  41 layers in registration order (the layer names differ)" in \
        result.report()
    assert result.checks[0].ok
    with pytest.warns(transfer.PairingWarning):   # not verified: the warning is shown
        convert.state_dict_to_params(tmp_path / "r.pt", tmp_path / "back.params",
                                     torch_net=torchvision.models.resnet18(weights=None),
                                     gluon_net=mx.gluon.model_zoo.vision.resnet18_v1())
    _same_arrays(mx.nd.load(str(tmp_path / "back.params")), original)


def test_a_recurrent_network_round_trips(tmp_path):
    from mxnet.gluon import rnn

    pt = torch.nn.LSTM(3, 4, num_layers=2, bidirectional=True)
    _randomise_torch(pt)
    torch.save(pt.state_dict(), tmp_path / "lstm.pt")
    result = convert.state_dict_to_params(
        tmp_path / "lstm.pt", tmp_path / "lstm.params",
        torch_net=torch.nn.LSTM(3, 4, num_layers=2, bidirectional=True),
        gluon_net=rnn.LSTM(4, num_layers=2, bidirectional=True), input_shape=(5, 2, 3))
    [check] = result.checks
    assert check.ok and check.max_abs_diff < 1e-5 and check.shape == (5, 2, 8)
    assert check.compared == "the first output (PyTorch gave 3, Gluon 1)"
    assert "_unfused.1.r_cell.h2h_bias" in mx.nd.load(str(tmp_path / "lstm.params"))
    back = torch.nn.LSTM(3, 4, num_layers=2, bidirectional=True)
    convert.params_to_state_dict(tmp_path / "lstm.params", tmp_path / "back.pt",
                                 gluon_net=rnn.LSTM(4, num_layers=2, bidirectional=True),
                                 torch_net=back, input_shape=(5, 2, 3))
    for k, v in pt.state_dict().items():
        assert torch.equal(back.state_dict()[k], v), k


def test_token_ids_are_compared_with_the_networks_tolerance():
    pt = torch.nn.Embedding(7, 3).double()
    g = gnn.Embedding(7, 3)
    g.initialize()
    g.cast("float64")
    transfer.torch_to_gluon(pt, g)
    tokens = np.array([[0, 6, 3]])
    check = convert.compare_outputs(pt, g, tokens)
    assert (check.atol, check.rtol) == (1e-10, 1e-12)      # float64's, not a fallback
    assert check.ok and check.max_abs_diff == 0 and check.shape == (1, 3, 3)
    with torch.no_grad():
        pt.weight[2, 0] += 1e-6                              # a row the tokens do not use
        unseen = convert.compare_outputs(pt, g, tokens)
        pt.weight[3, 0] += 1e-6                              # one they do: float64 sees it
    assert unseen.ok and not convert.compare_outputs(pt, g, tokens).ok


def test_export_style_params_are_read_when_the_names_match(tmp_path):
    def gluon_net():
        net = gnn.HybridSequential(prefix="mlp_")
        with net.name_scope():
            net.add(gnn.Dense(5, activation="relu"), gnn.Dense(3))
        return net

    g = gluon_net()
    g.initialize()
    g.hybridize()
    g(mx.nd.ones((1, 4)))
    g.export(str(tmp_path / "mlp"))                     # mlp-symbol.json, mlp-0000.params
    assert all(k.startswith("arg:mlp_") for k in mx.nd.load(str(tmp_path / "mlp-0000.params")))
    pt = torch.nn.Sequential(torch.nn.Linear(4, 5), torch.nn.ReLU(), torch.nn.Linear(5, 3))
    result = convert.params_to_state_dict(tmp_path / "mlp-0000.params", tmp_path / "mlp.pt",
                                          gluon_net=gluon_net(), torch_net=pt,
                                          input_shape=(2, 4))
    assert result.checks[0].ok
    np.testing.assert_array_equal(pt[2].weight.detach().numpy(), g[1].weight.data().asnumpy())

    other = gnn.HybridSequential()                      # other prefixes: refused, explained
    other.add(gnn.Dense(5, activation="relu"), gnn.Dense(3))
    with pytest.raises(convert.ConversionError,
                       match=r"mlp-0000.params: its keys do not fit .*4 missing \('0.bias'.*"
                             r"full parameter names \(HybridBlock.export"):
        convert.params_to_state_dict(tmp_path / "mlp-0000.params", tmp_path / "x.pt",
                                     gluon_net=other, torch_net=pt)
    _nothing_written(tmp_path, "x.pt")


def test_save_params_files_are_read_with_the_networks_own_prefix(tmp_path):
    """save_params() keys drop the saving network's prefix; like load_parameters, the
    converter puts the reading network's prefix back, so another instance fits."""
    def gluon_net(scoped=True):
        net = gnn.HybridSequential()
        with net.name_scope() if scoped else contextlib.nullcontext():
            net.add(gnn.Conv2D(4, 3, in_channels=1), gnn.BatchNorm(in_channels=4),
                    gnn.Flatten(), gnn.Dense(3, in_units=4 * 6 * 6))
        return net

    def torch_net():
        return torch.nn.Sequential(torch.nn.Conv2d(1, 4, 3), torch.nn.BatchNorm2d(4),
                                   torch.nn.Flatten(), torch.nn.Linear(4 * 6 * 6, 3))

    g = gluon_net()
    g.initialize(mx.init.Xavier())
    g[1].running_mean.set_data(mx.nd.array([0.5, -1, 2, 0.25]))
    with pytest.warns(UserWarning, match="save_params is deprecated"):
        g.save_params(str(tmp_path / "old.params"))
    keys = sorted(mx.nd.load(str(tmp_path / "old.params")))
    assert keys[:3] == ["batchnorm0_beta", "batchnorm0_gamma", "batchnorm0_running_mean"]
    reader = gluon_net()
    assert reader.prefix != g.prefix                   # another instance, another prefix
    pt = torch_net()
    result = convert.params_to_state_dict(tmp_path / "old.params", tmp_path / "old.pt",
                                          gluon_net=reader, torch_net=pt,
                                          input_shape=(2, 1, 8, 8))
    assert result.checks[0].ok and result.n_read == 8
    saved = torch.load(tmp_path / "old.pt")
    np.testing.assert_array_equal(saved["0.weight"].numpy(), g[0].weight.data().asnumpy())
    np.testing.assert_array_equal(saved["1.running_mean"].numpy(), [0.5, -1, 2, 0.25])

    with pytest.raises(convert.ConversionError,             # child names outside the scope
                       match=r"old.params: its keys do not fit .*full parameter names "
                             r"\(HybridBlock.export, or save_params less"):
        convert.params_to_state_dict(tmp_path / "old.params", tmp_path / "x.pt",
                                     gluon_net=gluon_net(scoped=False), torch_net=torch_net())
    _nothing_written(tmp_path, "x.pt")


# --- bad files and networks: one message naming the file, nothing written -----------------

@pytest.fixture
def mlp_files(nets, tmp_path):
    _gluon_file(_build(nets, "mlp_gluon"), tmp_path / "mlp.params", (1, 784))
    pt = _build(nets, "mlp_torch")
    torch.save(pt.state_dict(), tmp_path / "mlp.pt")
    return tmp_path


def _corrupt(folder: Path, case: str) -> Path:
    """A bad input file of the kind `case`."""
    if case == "missing":
        return folder / "nowhere.pt"
    if case == "truncated .pt":
        data = (folder / "mlp.pt").read_bytes()
        (folder / "bad.pt").write_bytes(data[:len(data) // 2])
        return folder / "bad.pt"
    if case == "truncated .params":
        data = (folder / "mlp.params").read_bytes()
        (folder / "bad.params").write_bytes(data[:len(data) // 2])
        return folder / "bad.params"
    if case == "corrupt .params":
        data = bytearray((folder / "mlp.params").read_bytes())
        data[:8] = b"\0" * 8
        (folder / "bad.params").write_bytes(bytes(data))
        return folder / "bad.params"
    if case == "empty .params":
        (folder / "bad.params").write_bytes(b"")
        return folder / "bad.params"
    if case == "a .pt named .params":
        (folder / "bad.params").write_bytes((folder / "mlp.pt").read_bytes())
        return folder / "bad.params"
    if case == "unnamed arrays":
        mx.nd.save(str(folder / "bad.params"), [mx.nd.ones(3)])
        return folder / "bad.params"
    state = torch.load(folder / "mlp.pt", weights_only=True)
    if case == "whole model":
        torch.save(torch.nn.Linear(2, 2), folder / "bad.pt")
    elif case == "checkpoint":
        torch.save({"epoch": 3, "state_dict": state}, folder / "bad.pt")
    elif case == "missing and unexpected keys":
        state["2.weigth"] = state.pop("2.weight")
        torch.save(state, folder / "bad.pt")
    elif case == "DataParallel keys":
        torch.save({f"module.{k}": v for k, v in state.items()}, folder / "bad.pt")
    elif case == "wrong shape":
        state["2.weight"] = torch.zeros(10, 255)
        torch.save(state, folder / "bad.pt")
    elif case == "mixed dtypes":
        state["2.weight"] = state["2.weight"].double()
        torch.save(state, folder / "bad.pt")
    return folder / "bad.pt"


BAD_FILES = {
    "missing": r"nowhere.pt: no such file",
    "truncated .pt": r"bad.pt: cannot be read as a PyTorch state dict \(truncated, corrupt.*\): "
                     r"PytorchStreamReader failed",
    "truncated .params": r"bad.params: cannot be read as an MXNet .params file \(truncated",
    "corrupt .params": r"bad.params: cannot be read as an MXNet .params file.*Invalid NDArray "
                       r"file format",
    "empty .params": r"bad.params: the file is empty",
    "a .pt named .params": r"bad.params: cannot be read as an MXNet .params file",
    "unnamed arrays": r"bad.params: holds a list of 1 arrays without names",
    "whole model": r"bad.pt: .*it pickles a whole model \(torch.save\(model\)\); save "
                   r"model.state_dict\(\) instead",
    "checkpoint": r"bad.pt: not a state dict: 'epoch', 'state_dict' are not tensors; a training "
                  r"checkpoint\? Its 'state_dict' entry",
    "missing and unexpected keys": r"bad.pt: its keys do not fit the PyTorch network "
                                   r"Sequential: 1 missing \('2.weight'\); 1 unexpected "
                                   r"\('2.weigth'\)",
    "DataParallel keys": r"bad.pt: its keys do not fit .*Every key starts with 'module.'.*"
                         r"model.module.state_dict\(\)",
    "wrong shape": r"bad.pt: shapes do not fit the PyTorch network Sequential: '2.weight' is "
                   r"\(10, 255\) in the file, \(10, 256\) in the network",
    "mixed dtypes": r"bad.pt: holds more than one floating dtype \(float32: '0.bias', "
                    r"'0.weight', '2.bias'; float64: '2.weight'\)",
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_bad_input_files_are_named_and_nothing_is_written(case, mlp_files, nets, capsys):
    source = _corrupt(mlp_files, case)
    dest = "out.pt" if source.suffix == ".params" else "out.params"
    rc = convert.main([str(source), str(mlp_files / dest), "--torch", f"{nets}:mlp_torch",
                       "--gluon", f"{nets}:mlp_gluon", "--input-shape", "2,784"])
    err = capsys.readouterr().err
    assert rc == 1
    assert re.search(r"^error: " + re.escape(str(mlp_files)) + "/" + BAD_FILES[case], err,
                     re.S), err
    assert err.count("\n") == 1, err                    # one message, no traceback
    _nothing_written(mlp_files, dest)


def test_wrong_architecture_is_named_and_nothing_is_written(mlp_files, nets, capsys):
    rc = convert.main([str(mlp_files / "mlp.pt"), str(mlp_files / "out.params"),
                       "--torch", f"{nets}:mlp_torch", "--gluon", f"{nets}:lenet_gluon",
                       "--input-shape", "1,784"])
    err = capsys.readouterr().err
    assert rc == 1 and err.startswith(f"error: {mlp_files}/mlp.pt: the two networks do not "
                                      "match: ") and "layer #0: PyTorch '0' is Linear" in err
    _nothing_written(mlp_files, "out.params")
    # the .params the other way: the file's keys do not fit the Gluon network
    rc = convert.main([str(mlp_files / "mlp.params"), str(mlp_files / "out.pt"),
                       "--torch", f"{nets}:lenet_torch", "--gluon", f"{nets}:lenet_gluon",
                       "--input-shape", "1,1,28,28"])
    err = capsys.readouterr().err
    assert rc == 1 and "mlp.params: its keys do not fit the Gluon network HybridSequential: " \
                       "6 missing ('2.bias', '2.weight', '4.bias', '4.weight', '5.bias', " \
                       "'5.weight'); 2 unexpected ('1.bias', '1.weight')" in err
    _nothing_written(mlp_files, "out.pt")


def test_mapping_and_by_are_passed_through(mlp_files, nets, capsys):
    common = ["--torch", f"{nets}:mlp_torch", "--gluon", f"{nets}:mlp_gluon",
              "--input-shape", "2,784"]
    rc = convert.main([str(mlp_files / "mlp.pt"), str(mlp_files / "m.params"), *common,
                       "--mapping", '{"2": "1", "0": "0"}', "-v"])
    out = capsys.readouterr().out
    assert rc == 0 and "paired  2 layers as mapped" in out
    assert "PyTorch '0' = Gluon '0'\n            PyTorch '2' = Gluon '1'" in out
    rc = convert.main([str(mlp_files / "mlp.pt"), str(mlp_files / "w.params"), *common,
                       "--mapping", '{"0": "1", "2": "0"}'])
    err = capsys.readouterr().err
    assert rc == 1 and "mlp.pt: the two networks do not match: dense layer PyTorch " \
                       "'0'.weight has shape (256, 784) but Gluon '1'" in err
    _nothing_written(mlp_files, "w.params")
    rc = convert.main([str(mlp_files / "mlp.params"), str(mlp_files / "o.pt"), *common,
                       "--by", "order"])
    assert rc == 0 and "paired  2 layers in registration order" in capsys.readouterr().out


@pytest.mark.parametrize("argv, message", [
    (["a.params", "b.params", "--no-verify"], "cannot tell the direction"),
    (["a.pt", "b.pt", "--input-shape", "1,2"], "cannot tell the direction"),
    (["a.pt", "b.params", "--input-shape", "1,x"], "expected positive integers"),
    (["a.pt", "b.params"], "one of the arguments --input-shape --no-verify is required"),
    (["a.pt", "b.params", "--no-verify", "--by", "name", "--mapping", '{"a": "b"}'],
     "either --mapping or --by"),
    (["a.pt", "b.params", "--no-verify", "--by", "sideways"], "invalid choice: 'sideways'"),
    (["a.pt", "b.params", "--input-shape", "1,2", "--atol", "small"], "invalid float value"),
    (["a.pt", "b.params", "--no-verify", "--mapping", "{oops"], "not a JSON object or a "
                                                                "readable JSON file"),
    (["a.pt", "b.params", "--no-verify", "--frobnicate"], "unrecognized arguments: --frobnicate"),
    (["a.pt", "b.params", "--input-shape", "7,3", "--input-range", "5,2"],
     "expected two integers LOW,HIGH with 0 <= LOW < HIGH"),
    (["a.pt", "b.params", "--input-shape", "7,3", "--input-range", "0"],
     "expected two integers LOW,HIGH"),
    (["a.pt", "b.params", "--input-shape", "7,3", "--input-range", "a,b"],
     "expected two integers LOW,HIGH"),
    (["a.pt", "b.params", "--input-shape", "7,3", "--state-shape", "2,x,8"],
     "argument --state-shape: '2,x,8': expected positive integers"),
    (["a.pt", "b.params", "--no-verify", "--state-shape", "2,3,8"],
     "--state-shape describes the verification input: give --input-shape, not --no-verify"),
    (["a.pt", "b.params", "--no-verify", "--input-range", "0,5"],
     "--input-range describes the verification input"),
])
def test_bad_arguments_exit_2(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_:
        convert.main(argv + ["--torch", "m:f", "--gluon", "m:g"])
    assert exit_.value.code == 2 and message in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_bad_paths_are_named_and_nothing_is_written(mlp_files, nets, capsys):
    common = ["--torch", f"{nets}:mlp_torch", "--gluon", f"{nets}:mlp_gluon", "--no-verify"]
    source = mlp_files / "mlp.params"
    blob = source.read_bytes()
    rc = convert.main([str(source), str(mlp_files / "nowhere" / "out.pt"), *common])
    assert rc == 1 and capsys.readouterr().err == (
        f"error: {mlp_files}/nowhere/out.pt: the folder {mlp_files}/nowhere does not exist\n")
    assert not (mlp_files / "nowhere").exists()
    (mlp_files / "also.pt").symlink_to(source)   # the same file under a .pt name
    rc = convert.main([str(source), str(mlp_files / "also.pt"), *common])
    assert rc == 1 and capsys.readouterr().err == (
        f"error: {mlp_files}/also.pt: the output would overwrite the input\n")
    assert source.read_bytes() == blob
    (mlp_files / "folder.params").mkdir()
    rc = convert.main([str(mlp_files / "folder.params"), str(mlp_files / "out.pt"), *common])
    assert rc == 1 and capsys.readouterr().err == (
        f"error: {mlp_files}/folder.params: not a file\n")
    _nothing_written(mlp_files, "out.pt")
    assert sorted(p.name for p in mlp_files.iterdir() if p.name != "__pycache__") == [
        "also.pt", "folder.params", "mlp.params", "mlp.pt", "nets.py"]


def test_bad_factories_are_named(mlp_files, nets, capsys):
    for spec, message in [("nosuchmodule:f", "'nosuchmodule:f': ModuleNotFoundError"),
                          (f"{nets}:nothere", "AttributeError"),
                          (f"{nets}:mlp_torch(1 + 1)", "literal arguments"),
                          (f"{nets}", "expected package.module:callable")]:
        rc = convert.main([str(mlp_files / "mlp.pt"), str(mlp_files / "o.params"),
                           "--torch", spec, "--gluon", f"{nets}:mlp_gluon", "--no-verify"])
        assert rc == 1 and message in capsys.readouterr().err
    _nothing_written(mlp_files, "o.params")


# --- the command line in a subprocess -----------------------------------------------------

def test_help_explains_the_command():
    run = _cli("--help", timeout=60)
    assert run.returncode == 0
    for text in ("--input-shape", "--atol", "--train-check", "--by", "--mapping",
                 "package.module:callable", "torchvision.models:resnet18", "exit status",
                 "--input-range LOW,HIGH", "--state-shape 2,20,200 --state-shape 2,20,200",
                 "once for a GRU's or RNN's h", "twice for an LSTM's (h, c)"):
        assert text in run.stdout


def _trained_like_resnet18():
    """torchvision's resnet18 (no download) with γ, β not at their defaults and BatchNorm
    statistics that fit its activations, as a trained network's do (random statistics would
    blow the logits up to the hundreds)."""
    import torchvision

    torch.manual_seed(0)
    pt = torchvision.models.resnet18(weights=None)
    bns = [m for m in pt.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    with torch.no_grad():
        for bn in bns:
            bn.weight.uniform_(0.8, 1.2)
            bn.bias.uniform_(-0.2, 0.2)
            bn.momentum = None                       # a cumulative average: one batch's
        pt.train()(torch.randn(8, 3, 64, 64))
    for bn in bns:
        bn.momentum = 0.1
    return pt.eval()


def _measured(report: str, mode: str) -> float:
    return float(re.search(rf"check   {mode}\s+max \|PyTorch - Gluon\| (\S+) <=", report)[1])


def test_cli_resnet18_both_ways(tmp_path):
    pt = _trained_like_resnet18()
    torch.save(pt.state_dict(), tmp_path / "resnet18.pt")
    models = ["--gluon", "mxnet.gluon.model_zoo.vision:resnet18_v1",
              "--torch", "torchvision.models:resnet18(weights=None)",
              "--input-shape", "1,3,224,224", "--train-check"]
    run = _cli(tmp_path / "resnet18.pt", tmp_path / "resnet18.params", *models)
    assert run.returncode == 0, run.stderr
    report = run.stdout
    assert "PyTorch state dict -> Gluon .params" in report and "122 tensors, float32" in report
    assert "paired  41 layers in registration order (the layer names differ)" in report
    assert "PyTorch 'conv1' = Gluon 'features.0'" in report
    assert "resnet18.params: 102 arrays" in report
    # measured here: eval ~1e-6 (largest |logit| ~2), train ~1e-6
    assert _measured(report, "eval") <= 1e-4 and _measured(report, "train") <= 1e-4, report
    arrays = mx.nd.load(str(tmp_path / "resnet18.params"))
    np.testing.assert_array_equal(arrays["features.7.1.body.4.running_var"].asnumpy(),
                                  pt.layer4[1].bn2.running_var.numpy())
    np.testing.assert_array_equal(arrays["output.weight"].asnumpy(), pt.fc.weight.detach())

    run = _cli(tmp_path / "resnet18.params", tmp_path / "back.pt", *models)
    assert run.returncode == 0, run.stderr
    assert "Gluon .params -> PyTorch state dict" in run.stdout
    assert _measured(run.stdout, "eval") <= 1e-4 and _measured(run.stdout, "train") <= 1e-4
    back, want = torch.load(tmp_path / "back.pt", weights_only=True), pt.state_dict()
    assert sorted(back) == sorted(want)
    for k in want:   # the BatchNorm counters have no Gluon counterpart: the fresh net's 0
        assert torch.equal(back[k], torch.zeros_like(want[k]) if k.endswith(
            "num_batches_tracked") else want[k]), k


def test_cli_failing_verification_exits_3_and_writes_nothing(nets, tmp_path):
    # the weights fit, the pooling does not: only running both networks shows it
    pt = _build(nets, "lenet_torch")
    _randomise_torch(pt)
    torch.save(pt.state_dict(), tmp_path / "lenet.pt")
    run = _cli(tmp_path / "lenet.pt", tmp_path / "lenet.params", "--torch",
               f"{nets}:lenet_torch", "--gluon", f"{nets}:lenet_gluon(pool='avg')",
               "--input-shape", "2,1,28,28")
    assert run.returncode == 3 and run.stdout == ""
    assert re.search(r"check   eval  max \|PyTorch - Gluon\| \S+ > \S+ .*FAILED", run.stderr)
    assert f"error: {tmp_path}/lenet.pt: verification failed: in eval mode the outputs " \
           "differ by up to" in run.stderr and "nothing was written" in run.stderr
    _nothing_written(tmp_path, "lenet.params")


def test_cli_truncated_file_is_named_and_nothing_is_written(nets, tmp_path):
    _gluon_file(_build(nets, "mlp_gluon"), tmp_path / "mlp.params", (1, 784))
    data = (tmp_path / "mlp.params").read_bytes()
    (tmp_path / "mlp.params").write_bytes(data[:len(data) - 100])
    run = _cli(tmp_path / "mlp.params", tmp_path / "mlp.pt", "--torch", f"{nets}:mlp_torch",
               "--gluon", f"{nets}:mlp_gluon", "--input-shape", "1,784")
    assert run.returncode == 1 and run.stdout == ""
    assert run.stderr.startswith(f"error: {tmp_path}/mlp.params: cannot be read as an MXNet "
                                 ".params file (truncated, corrupt"), run.stderr
    assert run.stderr.count("\n") == 1
    _nothing_written(tmp_path, "mlp.pt")


# --- Module API checkpoints (prefix-symbol.json + prefix-NNNN.params) ----------------------

def _mlp_symbol():
    data = mx.sym.Variable("data")
    fc1 = mx.sym.FullyConnected(data, num_hidden=16, name="fc1")
    act = mx.sym.Activation(fc1, act_type="relu", name="relu1")
    fc2 = mx.sym.FullyConnected(act, num_hidden=10, name="fc2")
    return mx.sym.SoftmaxOutput(fc2, name="softmax")


class _TorchMLP(torch.nn.Module):
    def __init__(self, act=torch.relu):
        super().__init__()
        self.fc1, self.fc2, self.act = torch.nn.Linear(784, 16), torch.nn.Linear(16, 10), act

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))


def _module_checkpoint(prefix, epoch=3, dtype="float32"):
    """What Module.save_checkpoint writes for a bound, initialised MLP; its arg_params."""
    mod = mx.mod.Module(_mlp_symbol(), data_names=("data",), label_names=("softmax_label",))
    mod.bind(data_shapes=[mx.io.DataDesc("data", (4, 784), dtype=dtype)],
             label_shapes=[mx.io.DataDesc("softmax_label", (4,), dtype=dtype)])
    mx.random.seed(0)
    mod.init_params(mx.init.Xavier(magnitude=3))
    mod.save_checkpoint(str(prefix), epoch)
    return mod.get_params()[0]


def test_module_key_to_torch():
    assert convert.module_key_to_torch("fc1_weight") == "fc1.weight"
    assert convert.module_key_to_torch("stage1_conv0_bias") == "stage1_conv0.bias"
    assert convert.module_key_to_torch("bn1_gamma") == "bn1.weight"
    assert convert.module_key_to_torch("bn1_beta") == "bn1.bias"
    assert convert.module_key_to_torch("bn1_moving_mean") == "bn1.running_mean"
    assert convert.module_key_to_torch("bn1_moving_var") == "bn1.running_var"
    assert convert.module_key_to_torch("fc1_weight", {"fc1": "classifier.0"}) == \
        "classifier.0.weight"
    for bad in ("weight", "lstm_parameters", "fc1"):
        with pytest.raises(ValueError, match="does not end in one of _moving_mean"):
            convert.module_key_to_torch(bad)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_module_checkpoint_to_state_dict_mlp(tmp_path, dtype):
    arg = _module_checkpoint(tmp_path / "mlp", dtype=dtype)
    assert sorted(mx.nd.load(str(tmp_path / "mlp-0003.params"))) == [
        "arg:fc1_bias", "arg:fc1_weight", "arg:fc2_bias", "arg:fc2_weight"]
    pt = _TorchMLP()
    result = convert.module_checkpoint_to_state_dict(tmp_path / "mlp", 3, tmp_path / "mlp.pt",
                                                     torch_net=pt, input_shape=(5, 784))
    assert (result.direction, result.dtype, result.n_read, result.n_written) == \
        ("module->torch", dtype, 4, 4)
    assert result.pairs == [("fc1", "fc1"), ("fc2", "fc2")] and result.pairing == "name"
    (check,) = result.checks
    assert check.ok and check.compared == "MXNet's 'fc2_output'" and check.shape == (5, 10)
    assert check.max_abs_diff <= (1e-5 if dtype == "float32" else 1e-12)
    report = result.report()
    assert report.startswith("sidebyside.convert: MXNet Module checkpoint -> PyTorch state dict")
    assert "check   eval  max |PyTorch - MXNet|" in report and ": ok" in report
    saved = torch.load(tmp_path / "mlp.pt", weights_only=True)
    assert sorted(saved) == ["fc1.bias", "fc1.weight", "fc2.bias", "fc2.weight"]
    for name, array in arg.items():
        np.testing.assert_array_equal(saved[name.replace("_", ".")].numpy(), array.asnumpy())
        assert str(saved[name.replace("_", ".")].dtype) == f"torch.{dtype}"


def test_module_checkpoint_with_batchnorm_and_a_mapping(tmp_path):
    data = mx.sym.Variable("data")
    net = mx.sym.Convolution(data, num_filter=4, kernel=(3, 3), name="conv1")
    net = mx.sym.BatchNorm(net, fix_gamma=False, eps=1e-5, name="bn1")
    net = mx.sym.Activation(net, act_type="relu")
    net = mx.sym.Pooling(net, kernel=(2, 2), stride=(2, 2), pool_type="max")
    net = mx.sym.FullyConnected(mx.sym.Flatten(net), num_hidden=3, name="fc")
    net = mx.sym.SoftmaxOutput(net, name="softmax")
    shapes, _, aux_shapes = net.infer_shape(data=(2, 1, 8, 8))
    rng = np.random.default_rng(0)
    arg = {n: mx.nd.array(rng.standard_normal(s) * 0.5)
           for n, s in zip(net.list_arguments(), shapes) if n not in ("data", "softmax_label")}
    aux = {n: mx.nd.array(rng.uniform(0.5, 2.0, s) if n.endswith("var")
                          else rng.standard_normal(s))
           for n, s in zip(net.list_auxiliary_states(), aux_shapes)}
    mx.model.save_checkpoint(str(tmp_path / "cnn"), 1, net, arg, aux)
    assert "aux:bn1_moving_var" in mx.nd.load(str(tmp_path / "cnn-0001.params"))

    pt = torch.nn.Sequential(torch.nn.Conv2d(1, 4, 3), torch.nn.BatchNorm2d(4),
                             torch.nn.ReLU(), torch.nn.MaxPool2d(2), torch.nn.Flatten(),
                             torch.nn.Linear(36, 3))
    with pytest.raises(convert.ConversionError,
                       match=r"cnn-0001.params: its keys do not fit the PyTorch network "
                             r"Sequential: 8 missing \('0.bias'.*8 unexpected \('bn1.bias'.*"
                             r"conv1_weight -> conv1.weight.*mapping="):
        convert.module_checkpoint_to_state_dict(tmp_path / "cnn", 1, tmp_path / "cnn.pt",
                                                torch_net=pt)
    _nothing_written(tmp_path, "cnn.pt")
    result = convert.module_checkpoint_to_state_dict(
        tmp_path / "cnn", 1, tmp_path / "cnn.pt", torch_net=pt,
        mapping={"conv1": "0", "bn1": "1", "fc": "5"}, input_shape=(2, 1, 8, 8))
    assert result.pairing == "mapping" and ("1", "bn1") in result.pairs
    assert result.checks[0].ok and result.checks[0].max_abs_diff <= 1e-4
    np.testing.assert_array_equal(pt[1].running_var.numpy(), aux["bn1_moving_var"].asnumpy())
    np.testing.assert_array_equal(pt[1].weight.detach().numpy(), arg["bn1_gamma"].asnumpy())
    assert int(pt[1].num_batches_tracked) == 0          # kept: MXNet has no counterpart
    assert pt.training                                   # the check put it back

    # eps is not in the weights: only running both shows it (MXNet's symbol default is 1e-3)
    pt[1].eps = 1e-1
    with pytest.raises(convert.VerificationFailed, match="BatchNorm eps"):
        convert.module_checkpoint_to_state_dict(
            tmp_path / "cnn", 1, tmp_path / "other.pt", torch_net=pt,
            mapping={"conv1": "0", "bn1": "1", "fc": "5"}, input_shape=(2, 1, 8, 8))
    _nothing_written(tmp_path, "other.pt")


def test_module_checkpoint_outputs_and_failures(tmp_path):
    _module_checkpoint(tmp_path / "mlp")
    run = convert.module_checkpoint_to_state_dict
    result = run(tmp_path / "mlp", 3, tmp_path / "a.pt", torch_net=_TorchMLP(),
                 input_shape=(2, 784), output="fc2")          # a layer name
    assert result.checks[0].compared == "MXNet's 'fc2_output'"
    with pytest.raises(convert.ConversionError, match=r"the symbol up to 'softmax_output' "
                       r"needs 'softmax_label', which the file does not hold"):
        run(tmp_path / "mlp", 3, tmp_path / "b.pt", torch_net=_TorchMLP(),
            input_shape=(2, 784), output="softmax")
    with pytest.raises(convert.ConversionError, match="the symbol has no output 'fc3'"):
        run(tmp_path / "mlp", 3, tmp_path / "b.pt", torch_net=_TorchMLP(),
            input_shape=(2, 784), output="fc3")
    with pytest.raises(convert.VerificationFailed, match="verification failed: PyTorch's "
                       "output and MXNet's 'fc2_output' differ by up to"):
        run(tmp_path / "mlp", 3, tmp_path / "b.pt", torch_net=_TorchMLP(act=torch.tanh),
            input_shape=(2, 784))
    with pytest.raises(convert.ConversionError, match=r"mlp-0007.params: no such file"):
        run(tmp_path / "mlp", 7, tmp_path / "b.pt", torch_net=_TorchMLP())
    with pytest.raises(convert.ConversionError, match=r"nope-symbol.json: no such file"):
        run(tmp_path / "nope", 3, tmp_path / "b.pt", torch_net=_TorchMLP())
    _nothing_written(tmp_path, "b.pt")

    # a Gluon save_parameters file is not a Module checkpoint
    (tmp_path / "g-symbol.json").write_text((tmp_path / "mlp-symbol.json").read_text())
    mx.nd.save(str(tmp_path / "g-0003.params"),
               {k.split(":", 1)[1]: v for k, v in
                mx.nd.load(str(tmp_path / "mlp-0003.params")).items()})
    with pytest.raises(convert.ConversionError, match=r"g-0003.params: not a Module "
                       r"checkpoint: 'fc1_bias'.*Use params_to_state_dict"):
        run(tmp_path / "g", 3, tmp_path / "b.pt", torch_net=_TorchMLP())
    # names that cannot be translated
    mx.model.save_checkpoint(str(tmp_path / "odd"), 1, _mlp_symbol(),
                             {"fc1_weight": mx.nd.ones((16, 784)), "lstm_parameters":
                              mx.nd.ones(3)}, {})
    with pytest.raises(convert.ConversionError, match="no PyTorch name for 'lstm_parameters'"):
        run(tmp_path / "odd", 1, tmp_path / "b.pt", torch_net=_TorchMLP())
    _nothing_written(tmp_path, "b.pt")


def test_params_to_state_dict_reads_a_module_file_into_a_gluon_net_of_those_names(tmp_path):
    arg = _module_checkpoint(tmp_path / "mlp")
    g = gnn.HybridSequential(prefix="")
    with g.name_scope():
        g.add(gnn.Dense(16, activation="relu", prefix="fc1_"), gnn.Dense(10, prefix="fc2_"))
    pt = _TorchMLP()
    result = convert.params_to_state_dict(tmp_path / "mlp-0003.params", tmp_path / "mlp.pt",
                                          gluon_net=g, torch_net=pt, input_shape=(2, 784))
    assert result.checks[0].ok
    np.testing.assert_array_equal(pt.fc2.weight.detach().numpy(), arg["fc2_weight"].asnumpy())


def test_a_float64_difference_below_float32_resolution_is_measured():
    # outputs of size ~1 differing by 1e-9: float32 (spacing ~1e-7 there) could not hold it
    torch_net = torch.nn.Linear(3, 2).double()
    gluon_net = gnn.Dense(2, in_units=3, dtype="float64")
    gluon_net.initialize()
    gluon_net.weight.set_data(mx.nd.array(torch_net.weight.detach().numpy(), dtype="float64"))
    gluon_net.bias.set_data(mx.nd.array(torch_net.bias.detach().numpy() + 1e-9,
                                        dtype="float64"))
    x = np.random.default_rng(0).standard_normal((4, 3))
    check = convert.compare_outputs(torch_net, gluon_net, x)
    assert 0.9e-9 < check.max_abs_diff < 1.1e-9


def _dcgan_generators():
    """A small DCGAN generator (MXNet's example/gluon/dc_gan shape: transposed convolutions,
    BatchNorm, ReLU, tanh) in both frameworks."""
    g = gnn.HybridSequential()
    g.add(gnn.Conv2DTranspose(8, 4, strides=1, padding=0, use_bias=False, in_channels=5),
          gnn.BatchNorm(in_channels=8), gnn.Activation("relu"),
          gnn.Conv2DTranspose(3, 4, strides=2, padding=1, use_bias=False, in_channels=8),
          gnn.Activation("tanh"))
    g.initialize(mx.init.Normal(0.1))
    pt = torch.nn.Sequential(
        torch.nn.ConvTranspose2d(5, 8, 4, 1, 0, bias=False), torch.nn.BatchNorm2d(8),
        torch.nn.ReLU(), torch.nn.ConvTranspose2d(8, 3, 4, 2, 1, bias=False), torch.nn.Tanh())
    return g, pt


def test_a_dcgan_generator_converts_both_ways(tmp_path):
    g, pt = _dcgan_generators()
    g(mx.nd.zeros((1, 5, 1, 1)))
    g.save_parameters(str(tmp_path / "netG.params"))
    result = convert.params_to_state_dict(tmp_path / "netG.params", tmp_path / "netG.pt",
                                          gluon_net=g, torch_net=pt, input_shape=(2, 5, 1, 1))
    assert result.checks and all(c.ok for c in result.checks)
    np.testing.assert_array_equal(pt[0].weight.detach().numpy(), g[0].weight.data().asnumpy())
    g2, pt2 = _dcgan_generators()
    pt2.load_state_dict(torch.load(tmp_path / "netG.pt"))
    back = convert.state_dict_to_params(tmp_path / "netG.pt", tmp_path / "back.params",
                                        torch_net=pt2, gluon_net=g2, input_shape=(2, 5, 1, 1))
    assert back.checks and all(c.ok for c in back.checks)
    np.testing.assert_array_equal(g2[3].weight.data().asnumpy(), g[3].weight.data().asnumpy())
