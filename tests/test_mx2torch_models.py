"""sidebyside.mx2torch on whole models, with MXNet beside it: the committed fixtures are what
MXNet 1.9.1 makes (so the no-MXNet tests cannot go stale), and training resumes in PyTorch
from a translated export and its Trainer states with MXNet's next steps."""

import numpy as np
import pytest
import torch

mx = pytest.importorskip("mxnet")

from mxnet import autograd, gluon  # noqa: E402

from sidebyside import mxreference  # noqa: E402
from sidebyside.mx2torch import codegen, ndfile, optstate  # noqa: E402

FIXTURES = __import__("pathlib").Path(__file__).parent / "fixtures" / "mx2torch"


def test_committed_graph_fixtures_are_what_mxnet_makes(tmp_path):
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_graph_fixtures",
                                                  FIXTURES / "make_graph_fixtures.py")
    maker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(maker)
    maker.make(tmp_path)
    for path in sorted(tmp_path.iterdir()):
        committed = FIXTURES / "graphs" / path.name
        assert committed.exists(), f"{committed} is missing: run make_graph_fixtures.py"
        if path.suffix == ".json":
            assert path.read_text() == committed.read_text(), path.name
        elif path.suffix == ".params":
            new, old = ndfile.load_params(path), ndfile.load_params(committed)
            assert list(new) == list(old)
            for k in new:
                np.testing.assert_allclose(new[k], old[k], rtol=1e-6, atol=1e-7, err_msg=k)
        else:
            new, old = np.load(path), np.load(committed)
            assert sorted(new.files) == sorted(old.files), path.name
            for k in new.files:
                np.testing.assert_allclose(new[k], old[k], rtol=1e-5, atol=1e-6, err_msg=k)


def test_mxreference_matches_the_gluon_forward(tmp_path):
    net = gluon.nn.HybridSequential(prefix="m_")
    with net.name_scope():
        net.add(gluon.nn.Conv2D(3, 3, in_channels=2), gluon.nn.BatchNorm(), gluon.nn.Dense(4))
    net.initialize()
    net.hybridize()
    x = np.random.default_rng(0).standard_normal((2, 2, 6, 6)).astype(np.float32)
    y = net(mx.nd.array(x)).asnumpy()
    net.export(str(tmp_path / "m"))
    ref = mxreference.reference(tmp_path / "m-symbol.json", tmp_path / "m-0000.params", {"data": x})
    np.testing.assert_allclose(ref["output0"], y, rtol=1e-5, atol=1e-6)
    assert {"node:m_conv0_fwd", "node:m_batchnorm0_fwd", "node:m_dense0_fwd"} <= set(ref)


def test_mxreference_takes_a_block_applied_twice(tmp_path):
    """GluonCV applies one block at two places (i3d's ReLU, Mask R-CNN's backbone): two nodes
    of one name, which group[name] cannot pick. The reference keeps the later one's output,
    as the translation's per-node taps do, and the two agree at every node."""
    from sidebyside.mx2torch import codegen, report

    class Twice(gluon.HybridBlock):
        def __init__(self, **kw):
            super().__init__(**kw)
            with self.name_scope():
                self.dense = gluon.nn.Dense(4, in_units=4)
                self.act = gluon.nn.Activation("tanh")

        def hybrid_forward(self, F, x):
            return self.act(self.dense(self.act(x) * 2))

    net = Twice(prefix="twice_")
    net.initialize()
    net.hybridize()
    x = np.random.default_rng(1).standard_normal((3, 4)).astype(np.float32)
    net(mx.nd.array(x))
    net.export(str(tmp_path / "twice"))
    files = (tmp_path / "twice-symbol.json", tmp_path / "twice-0000.params")
    ref = mxreference.reference(*files, {"data": x})
    np.testing.assert_allclose(ref["node:twice_tanh0_fwd"], ref["output0"], rtol=1e-6)
    t = codegen.translation(*files)
    r = report.compare_nodes(t, codegen.tapped(t, *files), {"data": x}, ref)
    assert r.ok and len(r.rows) >= 3, r.lines()


def test_mxreference_float64_runs_graphs_with_float32_constants(tmp_path):
    """A detector's graph adds float32 constants (arange, casts) to float64 arrays, which
    MXNet refuses in float64; mxreference makes them float64, as the translation's
    .double() does, and takes its inputs from an .npz (integer ids kept as they are)."""
    x = mx.sym.var("data")
    ids = mx.sym.var("ids")
    sym = mx.sym.Group([mx.sym.broadcast_add(x, mx.sym.arange(3).reshape((1, 3))),
                        mx.sym.cast(ids, "float32") * 2,
                        x + mx.sym.argsort(x, axis=1)])     # (its dtype left at float32)
    (tmp_path / "g-symbol.json").write_text(sym.tojson())
    mx.nd.save(str(tmp_path / "g-0000.params"), {})
    data = np.random.default_rng(0).standard_normal((2, 3))
    with pytest.raises(mx.base.MXNetError, match="expected float64, got float32"):
        sym.bind(mx.cpu(), {"data": mx.nd.array(data, dtype="float64"),
                            "ids": mx.nd.array([1, 2], dtype="int32")}).forward()
    np.savez(tmp_path / "in.npz", data=data.astype(np.float32),
             ids=np.array([7, 9], dtype=np.int32))
    assert mxreference.main([str(tmp_path / "g-symbol.json"), str(tmp_path / "g-0000.params"),
                             "--inputs", str(tmp_path / "in.npz"), "--float64",
                             "--out", str(tmp_path / "ref.npz")]) == 0
    ref = np.load(tmp_path / "ref.npz")
    assert ref["data"].dtype == np.float64 and ref["ids"].dtype == np.int32
    np.testing.assert_allclose(ref["output0"], data.astype(np.float32).astype(np.float64)
                               + np.arange(3), rtol=0, atol=0)
    assert ref["output1"].dtype == np.float64 and list(ref["output1"]) == [14.0, 18.0]
    x32 = data.astype(np.float32).astype(np.float64)
    np.testing.assert_array_equal(ref["output2"], x32 + np.argsort(x32, axis=1, kind="stable"))


@pytest.mark.parametrize("optimizer,kwargs", [
    ("sgd", {"learning_rate": 0.1, "momentum": 0.9, "wd": 1e-3}),
    ("adam", {"learning_rate": 0.01, "wd": 1e-3}),
])
def test_training_resumes_from_a_translated_export(tmp_path, optimizer, kwargs):
    """k steps in Gluon, then export() + save_states(); the translation and the converted
    optimizer take the next m steps as Gluon does (float64)."""
    mx.random.seed(0)
    net = gluon.nn.HybridSequential(prefix="r_")
    with net.name_scope():
        net.add(gluon.nn.Dense(6, activation="tanh", in_units=4), gluon.nn.Dense(3, in_units=6))
    net.initialize(mx.init.Xavier())
    net.cast("float64")
    net.hybridize()
    rng = np.random.default_rng(1)
    x = rng.standard_normal((8, 4))
    y = rng.standard_normal((8, 3))
    mx_x, mx_y = mx.nd.array(x, dtype="float64"), mx.nd.array(y, dtype="float64")
    trainer = gluon.Trainer(net.collect_params(), optimizer, kwargs)

    def mx_step():
        with autograd.record():
            loss = ((net(mx_x) - mx_y) ** 2).sum()
        loss.backward()
        trainer.step(8)                      # rescale_grad = 1/8

    for _ in range(3):
        mx_step()
    net.export(str(tmp_path / "r"))
    trainer.save_states(str(tmp_path / "r.states"))

    t = codegen.translation(tmp_path / "r-symbol.json", tmp_path / "r-0000.params")
    assert next(t.module.parameters()).dtype == torch.float64
    states = optstate.load_trainer_states(tmp_path / "r.states")
    opt = optstate.to_torch_optimizer(states, codegen.trainer_parameters(t), rescale_grad=1 / 8)
    # the command line writes the same optimizer state
    from sidebyside.mx2torch import cli

    assert cli.main([str(tmp_path / "r-symbol.json"), str(tmp_path / "r-0000.params"),
                     "--states", str(tmp_path / "r.states"),
                     "--optimizer-out", str(tmp_path / "opt.pt")]) == 0
    saved = torch.load(tmp_path / "opt.pt")
    ours = opt.state_dict()
    assert saved["state"].keys() == ours["state"].keys() and len(ours["state"]) == 4
    for k in ours["state"]:
        for name, value in ours["state"][k].items():
            assert torch.equal(torch.as_tensor(saved["state"][k][name]), torch.as_tensor(value))
    tx, ty = torch.from_numpy(x), torch.from_numpy(y)
    for step in range(3):
        mx_step()
        opt.zero_grad()
        ((t.module(tx) - ty) ** 2).sum().backward()
        opt.step()
        for key, mx_name in t.mx_names.items():
            ours = t.module.state_dict()[key].numpy()
            theirs = net.collect_params()[mx_name].data().asnumpy()
            np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-13,
                                       err_msg=f"{key} after resumed step {step + 1}")


def test_trainer_parameters_follow_the_trainers_sorted_order():
    sym = mx.sym.FullyConnected(mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=3, name="fc10"),
                                num_hidden=2, name="fc2")
    params = {"arg:fc10_weight": np.zeros((3, 4)), "arg:fc10_bias": np.zeros(3),
              "arg:fc2_weight": np.zeros((2, 3)), "arg:fc2_bias": np.zeros(2)}
    t = codegen.translation(sym.tojson(), params)
    got = codegen.trainer_parameters(t)
    # Trainer(net.collect_params()) sorts by name: fc10_bias, fc10_weight, fc2_bias, fc2_weight
    assert [tuple(p.shape) for p in got] == [(3,), (3, 4), (2,), (2, 3)]


def test_torch_onnx_export_of_a_translated_module_runs_in_onnxruntime(tmp_path):
    """torch.onnx.export (the dynamo exporter) needs ``onnx`` and ``onnxscript``, which the
    ``[mx2torch]`` extra does not install (this environment has them): the translated CNN
    fixture exported, run by onnxruntime, equals the module and MXNet's saved output."""
    onnxruntime = pytest.importorskip("onnxruntime")
    pytest.importorskip("onnxscript")
    graphs = FIXTURES / "graphs"
    t = codegen.translation(graphs / "cnn-symbol.json", graphs / "cnn-0000.params")
    d = np.load(graphs / "cnn-check32.npz")
    xs = tuple(torch.from_numpy(d[k]) for k in t.inputs)
    module = t.module.float().eval()
    torch.onnx.export(module, xs, tmp_path / "cnn.onnx", dynamo=True, verbose=False)
    session = onnxruntime.InferenceSession(str(tmp_path / "cnn.onnx"))
    got = session.run(None, {i.name: x.numpy() for i, x in zip(session.get_inputs(), xs)})[0]
    with torch.no_grad():
        want = module(*xs).numpy()
    assert got.shape == want.shape and np.abs(got - want).max() <= 1e-5 * np.abs(want).max()
    ref = d["output0"]
    assert np.abs(got - ref).max() <= 1e-5 * np.abs(ref).max()
