"""The translator on files MXNet 1.9.1 exported (tests/fixtures/mx2torch/graphs, made by
make_graph_fixtures.py), against MXNet's outputs saved beside them. Imports only numpy, torch
and sidebyside.mx2torch: this file also runs in the environment without MXNet (numpy 2)."""

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from sidebyside.mx2torch import codegen, ndfile, report
from sidebyside.mx2torch.ops import UnsupportedOperator

GRAPHS = Path(__file__).resolve().parents[1] / "fixtures" / "mx2torch" / "graphs"
MODELS = ["cnn", "lstm", "custom"]


def files(name):
    return GRAPHS / f"{name}-symbol.json", GRAPHS / f"{name}-0000.params"


def run(module, t, data, float64=False):
    args = [torch.from_numpy(data[n].astype(np.float64) if float64 else data[n]) for n in t.inputs]
    with torch.no_grad():
        out = (module.double() if float64 else module)(*args)
    return out.numpy()


@pytest.mark.parametrize("name", MODELS)
def test_float32_and_float64_equal_mxnet(name):
    sym, params = files(name)
    t = codegen.translation(sym, params)
    d32 = dict(np.load(GRAPHS / f"{name}-check32.npz"))
    d64 = dict(np.load(GRAPHS / f"{name}-check64.npz"))
    ref32, ref64 = d32["output0"], d64["output0"]
    got32 = run(t.module, t, d32)
    assert got32.dtype == np.float32 and got32.shape == ref32.shape
    assert np.abs(got32 - ref32).max() <= 1e-5 * np.abs(ref32).max()
    got64 = run(t.module, t, d64, float64=True)
    assert np.abs(got64 - ref64).max() <= 1e-12 * np.abs(ref64).max()


@pytest.mark.parametrize("name", MODELS)
def test_every_node_agrees_in_graph_order(name):
    sym, params = files(name)
    t = codegen.translation(sym, params)
    d64 = dict(np.load(GRAPHS / f"{name}-check64.npz"))
    r = report.compare_nodes(t, codegen.tapped(t, sym, params), d64, d64, rtol=1e-7, atol=1e-12)
    assert r.ok, r.lines()
    assert len(r.rows) >= {"cnn": 6, "lstm": 4, "custom": 13}[name]


def test_a_swapped_channel_is_found_at_its_node():
    """Two output channels of one convolution exchanged (a permutation, which a check that
    sorts outputs before comparing would pass): the report names that node first."""
    sym, params = files("custom")
    raw = ndfile.load_params(params)
    w = raw["arg:custom_conv0_weight"]
    raw["arg:custom_conv0_weight"] = w[[1, 0, *range(2, w.shape[0])]]
    raw["arg:custom_conv0_bias"] = raw["arg:custom_conv0_bias"][[1, 0, *range(2, w.shape[0])]]
    t = codegen.translation(sym, raw)
    d = dict(np.load(GRAPHS / "custom-check32.npz"))
    r = report.compare_nodes(t, codegen.tapped(t, sym, raw), d, d)
    assert r.first_failure.node == "custom_conv0_fwd"
    assert all(row.ok for row in r.rows[: r.rows.index(r.first_failure)])
    assert r.first_failure.max_abs_diff > 1e-3


def test_module_checkpoint_symbol_defaults_are_honoured():
    """The Module checkpoint's BatchNorm has the symbol API's defaults: fix_gamma=True (the
    file's gamma, set to 3, is ignored) and eps=1e-3; its Pooling is 'full' (ceil mode)."""
    sym, params = files("cnn")
    assert ndfile.load_params(params)["arg:bn1_gamma"].tolist() == [3.0] * 4
    t = codegen.translation(sym, params)
    assert torch.equal(t.module.bn1.weight, torch.ones(4))
    assert abs(t.module.bn1.eps - 1e-3) < 1e-9
    assert "ceil_mode=True" in t.source
    assert any("fix_gamma=True" in n for n in t.notes)
    # SoftmaxOutput: the module returns probabilities
    d = dict(np.load(GRAPHS / "cnn-check32.npz"))
    assert np.allclose(run(t.module, t, d).sum(axis=1), 1, atol=1e-6)


def test_pre_1_0_graph_layout_translates_the_same():
    """Files from MXNet 0.x keep operator attributes under "param" (user ones under "attr")
    and write inputs as [node, index] pairs: the same graph in that layout translates alike."""
    sym, params = files("cnn")
    graph = json.loads(sym.read_text())
    for node in graph["nodes"]:
        attrs = node.pop("attrs", {})
        node["param"] = {k: v for k, v in attrs.items() if not k.startswith("__")}
        node["attr"] = {k: v for k, v in attrs.items() if k.startswith("__")}
        node["inputs"] = [entry[:2] for entry in node["inputs"]]
        node["backward_source_id"] = -1
    graph["heads"] = [h[:2] for h in graph["heads"]]
    del graph["attrs"]
    old = codegen.translation(graph, params)
    new = codegen.translation(sym, params)
    d = dict(np.load(GRAPHS / "cnn-check64.npz"))
    assert np.array_equal(run(old.module, old, d, float64=True), run(new.module, new, d, float64=True))
    assert old.source.split('"""', 2)[2] == new.source.split('"""', 2)[2]


def test_tied_weights_stay_one_parameter():
    t = codegen.translation(*files("custom"))
    m = t.module
    assert m.dense0.weight is m.embedding0.weight
    assert sum(p.numel() for p in m.parameters()) == sum(
        a.size for k, a in t.state_dict.items() if k != "dense0.weight")


def test_the_fused_lstm_becomes_nn_lstm_with_its_states():
    t = codegen.translation(*files("lstm"))
    lstm = t.module.lstm0_rnn0
    assert isinstance(lstm, torch.nn.LSTM) and lstm.bidirectional and lstm.num_layers == 2
    assert t.inputs == ["data0", "data1", "data2"]
    assert "(lstm0_rnn0_h, lstm0_rnn0_c) = self.lstm0_rnn0(data0, (data1, data2))" in t.source


def _cli(*args, cwd):
    return subprocess.run([sys.executable, "-m", "sidebyside.mx2torch", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd)


@pytest.mark.parametrize("name", ["cnn", "lstm"])
def test_translated_module_scripts_from_its_source(name):
    """The generated source is registered with linecache, so torch.jit.script (which reads a
    class's source) takes the module as a file-defined one; the scripted module equals it."""
    import warnings

    sym, params = files(name)
    t = codegen.translation(sym, params)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)      # jit.script: deprecated in 2.14
        scripted = torch.jit.script(t.module)
    d = dict(np.load(GRAPHS / f"{name}-check32.npz"))
    args = [torch.from_numpy(d[n]) for n in t.inputs]
    with torch.no_grad():
        a, b = scripted(*args), t.module(*args)
    assert torch.equal(a, b)


def test_cli_writes_a_standalone_model_py_and_state_dict(tmp_path):
    sym, params = files("custom")
    r = _cli(sym, params, "--check", GRAPHS / "custom-check32.npz", "--out", "m.pt",
             "--code", "model.py", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "all agree" in r.stdout
    spec = importlib.util.spec_from_file_location("generated_model", tmp_path / "model.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    net = mod.Model()
    net.load_state_dict(torch.load(tmp_path / "m.pt"))
    net.eval()
    d = dict(np.load(GRAPHS / "custom-check32.npz"))
    with torch.no_grad():
        out = net(torch.from_numpy(d["data"])).numpy()
    assert np.abs(out - d["output0"]).max() <= 1e-5 * np.abs(d["output0"]).max()


def test_cli_float64_check_needs_a_float64_reference(tmp_path):
    sym, params = files("cnn")
    ok = _cli(sym, params, "--check", GRAPHS / "cnn-check64.npz", "--float64", cwd=tmp_path)
    assert ok.returncode == 0, ok.stderr
    bad = _cli(sym, params, "--check", GRAPHS / "cnn-check32.npz", "--float64", cwd=tmp_path)
    assert bad.returncode == 1 and "mxreference" in bad.stderr


def test_cli_check_failure_writes_nothing(tmp_path):
    sym, params = files("cnn")
    d = dict(np.load(GRAPHS / "cnn-check32.npz"))
    d["output0"] = d["output0"][::-1].copy()          # MXNet's rows in another order
    np.savez(tmp_path / "wrong.npz", **d)
    r = _cli(sym, params, "--check", "wrong.npz", "--out", "m.pt", "--code", "m.py", cwd=tmp_path)
    assert r.returncode == 1 and "DIFFERENT" in r.stdout and "nothing written" in r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["wrong.npz"]


@pytest.mark.parametrize("change,message", [
    (lambda g: g["nodes"][-1].update(op="_contrib_DeformableConvolution"),
     "operator _contrib_DeformableConvolution (node 'softmax') is not supported"),
    (lambda g: g["nodes"][3]["attrs"].update(layout="NHWC"),
     "layout='NHWC': only channels-first"),
    (lambda g: g["nodes"][10]["attrs"].update(pool_type="lp"), "pool_type='lp'"),
])
def test_unsupported_graphs_give_one_message_and_write_nothing(tmp_path, change, message):
    sym, params = files("cnn")
    graph = json.loads(sym.read_text())
    change(graph)
    (tmp_path / "bad-symbol.json").write_text(json.dumps(graph))
    shutil.copy(params, tmp_path / "bad-0000.params")
    with pytest.raises(UnsupportedOperator, match=message.replace("(", r"\(").replace(")", r"\)")):
        codegen.translation(tmp_path / "bad-symbol.json", tmp_path / "bad-0000.params")
    r = _cli("bad-symbol.json", "bad-0000.params", "--out", "m.pt", "--code", "m.py", cwd=tmp_path)
    assert r.returncode == 1 and r.stderr.count("\n") == 1 and message in r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad-0000.params", "bad-symbol.json"]


@pytest.mark.parametrize("content,message", [
    (files("cnn")[1].read_bytes(), "it looks like an NDArray .params file"),
    (b'{"nodes": []', "invalid JSON"),
    (b'{"a": 1}', "'nodes' and 'heads'"),
])
def test_bad_symbol_files(tmp_path, content, message):
    (tmp_path / "x-symbol.json").write_bytes(content)
    r = _cli("x-symbol.json", files("cnn")[1], "--code", "m.py", cwd=tmp_path)
    assert r.returncode == 1 and message in r.stderr and "x-symbol.json" in r.stderr
    assert not (tmp_path / "m.py").exists()


def test_cli_bad_flags_exit_2(tmp_path):
    r = _cli(files("cnn")[0], cwd=tmp_path)
    assert r.returncode == 2 and "give the -symbol.json and the .params" in r.stderr
    r = _cli(*files("cnn"), "--optimizer-out", "o.pt", cwd=tmp_path)
    assert r.returncode == 2 and "--optimizer-out needs --states" in r.stderr
    assert list(tmp_path.iterdir()) == []


def test_cli_lists_operators_and_reads_params():
    r = _cli("--ops", cwd=GRAPHS)
    assert r.returncode == 0 and "Convolution:" in r.stdout and "RNN:" in r.stdout
    r = _cli("--read", "cnn-0000.params", cwd=GRAPHS)
    assert r.returncode == 0 and "arg:conv1_weight\tfloat32\t(4, 1, 3, 3)" in r.stdout


def test_cli_json_report_holds_the_check_per_output_and_per_node(tmp_path, capsys):
    """--json: one object on stdout with the translation, every output's and node's
    difference, the files written; a failed check and a refused file give ok false or the
    error, with the same exit codes and nothing written."""
    from sidebyside.mx2torch import cli

    sym, params = files("cnn")
    check = GRAPHS / "cnn-check64.npz"
    code = cli.main([str(sym), str(params), "--check", str(check), "--float64", "--json",
                     "--out", str(tmp_path / "m.pt")])
    rec = json.loads(capsys.readouterr().out)
    assert code == 0 and rec["exit_code"] == 0 and rec["schema_version"] == 1
    assert rec["inputs"] == ["data"] and rec["written"] == [str(tmp_path / "m.pt")]
    out0 = rec["check"]["outputs"][0]
    assert rec["check"]["ok"] and out0["ok"] and out0["max_abs_diff"] <= 1e-12 * out0["max_abs_ref"]
    assert {n["node"] for n in rec["check"]["nodes"]} >= {"conv1", "bn1", "relu1", "pool1", "fc1"}
    assert all(n["ok"] for n in rec["check"]["nodes"])

    d = dict(np.load(GRAPHS / "cnn-check32.npz"))
    d["output0"] = d["output0"][::-1].copy()
    np.savez(tmp_path / "wrong.npz", **d)
    code = cli.main([str(sym), str(params), "--check", str(tmp_path / "wrong.npz"), "--json",
                     "--out", str(tmp_path / "w.pt")])
    captured = capsys.readouterr()
    rec = json.loads(captured.out)
    assert code == 1 and rec["exit_code"] == 1 and not rec["check"]["ok"]
    assert rec["check"]["outputs"][0]["ok"] is False and "nothing written" in captured.err
    assert not (tmp_path / "w.pt").exists()

    code = cli.main([str(params), str(params), "--json"])
    rec = json.loads(capsys.readouterr().out)
    assert code == 1 and "not an MXNet symbol file" in rec["error"] and "nodes" not in rec
