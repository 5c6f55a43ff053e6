"""sidebyside.mx2torch.optstate: MXNet Gluon Trainer states → a PyTorch optimizer (MXNet env).

Each resume test trains a float64 Gluon net K=3 steps with gluon.Trainer, saves its states,
trains M=3 more recording the weights; then builds the same net by hand in PyTorch from the
weights at step K, loads the states with optstate (which never imports mxnet), and checks the
weights after each of the M steps against MXNet's: ``assert_allclose(rtol=1e-10, atol=1e-13)``
(measured: ≤ 1e-14 relative element-wise, ≤ 5e-16 absolute).

The Trainer's ``step(batch_size)`` rescales gradients by 1/batch_size: each case says how the
PyTorch side reproduces it — ``loss / batch_size`` (a power-of-two batch: exact), or
``rescale_grad=`` handed to the optimizer.
"""
from __future__ import annotations

import importlib.util
import os
import pickle
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

mx = pytest.importorskip("mxnet")

from sidebyside.mx2torch import optstate  # noqa: E402
from sidebyside.mx2torch.optstate import OptStateError, load_trainer_states, to_torch_optimizer  # noqa: E402,E501

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "mx2torch"
_spec = importlib.util.spec_from_file_location("make_optstate_fixtures",
                                               FIXTURES / "make_optstate_fixtures.py")
gen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gen)

RTOL, ATOL = 1e-10, 1e-13


def torch_resume(optimizer, weights, x, y, m, *, loss_scale=1.0, grad_check=None):
    """M steps of the hand-built PyTorch twin (trainer index order: b1, W1, b2, W2)."""
    X, Y = torch.tensor(x), torch.tensor(y)
    out = []
    for _ in range(m):
        optimizer.zero_grad()
        h = torch.relu(X @ weights[1].T + weights[0])
        o = h @ weights[3].T + weights[2]
        loss = 0.5 * ((o - Y) ** 2).sum() * loss_scale
        loss.backward()
        if grad_check is not None:
            grad_check(weights)
        optimizer.step()
        out.append([w.detach().numpy().copy() for w in weights])
    return out


def as_params(arrays):
    return [torch.nn.Parameter(torch.tensor(a)) for a in arrays]


def max_rel(a, b):
    return max(float(np.max(np.abs(p - q) / np.maximum(np.abs(q), 1e-30)))
               for sa, sb in zip(a, b) for p, q in zip(sa, sb))


def assert_same(torch_steps, mx_steps):
    assert len(torch_steps) == len(mx_steps)
    for s, (ts, ms) in enumerate(zip(torch_steps, mx_steps), 1):
        for i, (t, m) in enumerate(zip(ts, ms)):
            np.testing.assert_allclose(t, m, rtol=RTOL, atol=ATOL, err_msg=f"step {s}, param {i}")


SGD_MOM = {"learning_rate": 0.1, "momentum": 0.9, "wd": 0.01}
# name: (optimizer, kwargs, batch size, how torch rescales, expected torch class, extra)
CASES = {
    "sgd_momentum": ("sgd", SGD_MOM, 4, "loss", torch.optim.SGD, {}),
    "sgd_momentum_mults": ("sgd", SGD_MOM, 6, "rescale", torch.optim.SGD,
                           {"lr_mult": {1: 0.5}, "wd_mult": {0: 0.0, 2: 0.0}}),
    "sgd_momentum_clip": ("sgd", {**SGD_MOM, "clip_gradient": 0.3}, 6, "rescale",
                          torch.optim.SGD, {}),
    "sgd_plain": ("sgd", {"learning_rate": 0.1, "wd": 0.01}, 4, "loss", torch.optim.SGD, {}),
    "nag": ("nag", SGD_MOM, 4, "loss", optstate.MXNetNAG, {}),
    "nag_clip": ("nag", {**SGD_MOM, "clip_gradient": 0.3}, 6, "rescale", optstate.MXNetNAG, {}),
    "nag_no_wd": ("nag", {"learning_rate": 0.1, "momentum": 0.9}, 4, "loss",
                  torch.optim.SGD, {}),
    "adam": ("adam", {"learning_rate": 0.01, "wd": 0.01}, 4, "loss", optstate.MXNetAdam, {}),
    "adam_clip": ("adam", {"learning_rate": 0.01, "wd": 0.01, "clip_gradient": 0.3}, 6,
                  "rescale", optstate.MXNetAdam, {"lr_mult": {3: 2.0}}),
}


def run_case(name, tmp_path, **train_kw):
    optimizer, kwargs, batch, _, _, extra = CASES[name]
    x, y = gen.make_batch(batch)
    path = tmp_path / f"{name}.states"
    at_k, after, info = gen.train(optimizer, kwargs, x=x, y=y, states_path=path,
                                  batch_size=batch, lr_mult=extra.get("lr_mult"),
                                  wd_mult=extra.get("wd_mult"), **train_kw)
    return x, y, path, at_k, after, info


def convert(name, path, params, **kw):
    _, _, batch, how, _, extra = CASES[name]
    states = load_trainer_states(path)
    if how == "rescale":
        kw.setdefault("rescale_grad", states.hyperparameters["rescale_grad"])
    opt = to_torch_optimizer(states, params, lr_mult=extra.get("lr_mult"),
                             wd_mult=extra.get("wd_mult"), **kw)
    return states, opt, (1.0 / batch if how == "loss" else 1.0)


@pytest.mark.parametrize("name", list(CASES))
def test_resume_matches_mxnet(name, tmp_path):
    x, y, path, at_k, after, _ = run_case(name, tmp_path)
    params = as_params(at_k)
    states, opt, scale = convert(name, path, params)
    assert isinstance(opt, CASES[name][4])
    clip = CASES[name][1].get("clip_gradient")
    clipped = []

    def grad_check(ws):                      # the clip bound must bite for the test to mean it
        rg = states.hyperparameters["rescale_grad"]
        clipped.append(any(bool((w.grad.abs() * rg > clip).any()) for w in ws))

    steps = torch_resume(opt, params, x, y, gen.M, loss_scale=scale,
                         grad_check=grad_check if clip else None)
    assert_same(steps, after)
    if clip:
        assert any(clipped)


def test_converted_state(tmp_path):
    x, y, path, at_k, after, _ = run_case("sgd_momentum_mults", tmp_path)
    params = as_params(at_k)
    states, opt, _ = convert("sgd_momentum_mults", path, params)
    assert states.optimizer == "sgd" and states.num_update == gen.K
    assert states.update_counts == {i: gen.K for i in range(4)}
    assert states.hyperparameters["rescale_grad"] == 1 / 6
    sd = opt.state_dict()
    lrs = [np.float32(0.1), np.float32(0.05), np.float32(0.1), np.float32(0.1)]
    for i in range(4):
        buf = opt.state[params[i]]["momentum_buffer"].numpy()   # state_dict numbers by group
        np.testing.assert_allclose(buf, -states.states[i] / float(lrs[i]), rtol=1e-15)
    groups = {(g["lr"], g["weight_decay"]): len(g["params"]) for g in sd["param_groups"]}
    assert groups == {(float(np.float32(0.1)), 0.0): 2, (float(np.float32(0.05)),
                      float(np.float32(0.01))): 1, (float(np.float32(0.1)),
                                                     float(np.float32(0.01))): 1}

    x, y, path, at_k, after, _ = run_case("adam", tmp_path)
    opt = to_torch_optimizer(load_trainer_states(path), as_params(at_k))
    st = opt.state_dict()["state"]
    assert [float(st[i]["step"]) for i in range(4)] == [3.0] * 4
    assert set(st[0]) == {"step", "exp_avg", "exp_avg_sq"}


@pytest.mark.parametrize("kvstore,update_on_kvstore", [("device", None), (None, None),
                                                      ("object", True), ("object", False)])
def test_update_on_kvstore_variants(kvstore, update_on_kvstore, tmp_path):
    """Both sides of update_on_kvstore write the same (states, optimizer) pickle."""
    x, y, path, at_k, after, info = run_case("sgd_momentum", tmp_path, kvstore=kvstore,
                                             update_on_kvstore=update_on_kvstore)
    assert info["update_on_kvstore"] == update_on_kvstore
    ref = load_trainer_states(FIXTURES / "optstate" / "sgd_momentum.states")
    got = load_trainer_states(path)
    for i in ref.states:
        np.testing.assert_allclose(got.states[i], ref.states[i], rtol=1e-12, atol=0)
    params = as_params(at_k)
    opt = to_torch_optimizer(got, params)
    assert_same(torch_resume(opt, params, x, y, gen.M, loss_scale=1 / 4), after)


def test_plain_torch_adam_is_not_exact(tmp_path):
    """torch.optim.Adam with the same moments and step parts from MXNet: ε sits elsewhere."""
    x, y, path, at_k, after, _ = run_case("adam", tmp_path)
    states = load_trainer_states(path)
    hp = states.hyperparameters
    params = as_params(at_k)
    mine = to_torch_optimizer(states, params)
    plain = torch.optim.Adam(params, lr=hp["lr"], betas=(hp["beta1"], hp["beta2"]),
                             eps=hp["epsilon"], weight_decay=hp["wd"])
    for p in params:
        plain.state[p] = {k: (v.float() if k == "step" else v.clone())
                          for k, v in mine.state[p].items()}
    steps = torch_resume(plain, params, x, y, gen.M, loss_scale=1 / 4)
    err = max_rel(steps, after)
    assert err > 1e-7, err                       # measured ≈ 1e-5 relative, 1e-6 absolute
    params = as_params(at_k)
    exact = max_rel(torch_resume(to_torch_optimizer(states, params), params, x, y, gen.M,
                                 loss_scale=1 / 4), after)
    assert exact < 1e-12 and err > 1e4 * exact


def test_torch_nesterov_is_not_exact_with_wd(tmp_path):
    """torch.optim.SGD(nesterov=True) is exact for MXNet's nag only without weight decay."""
    x, y, path, at_k, after, _ = run_case("nag", tmp_path)
    states = load_trainer_states(path)
    params = as_params(at_k)
    lr, mu, wd = (float(np.float32(v)) for v in (0.1, 0.9, 0.01))
    sgd = torch.optim.SGD(params, lr=lr, momentum=mu, weight_decay=wd, nesterov=True)
    for i, p in enumerate(params):
        sgd.state[p] = {"momentum_buffer": torch.tensor(-states.states[i] / lr)}
    err = max_rel(torch_resume(sgd, params, x, y, gen.M, loss_scale=1 / 4), after)
    assert err > 1e-7, err


def test_float32_hyperparameters_matter(tmp_path):
    """MXNet's kernels take lr, wd, momentum, … as float32: unrounded, float64 parity is lost."""
    x, y, path, at_k, after, _ = run_case("sgd_momentum", tmp_path)
    params = as_params(at_k)
    opt = to_torch_optimizer(load_trainer_states(path), params, float32_hyperparameters=False)
    err = max_rel(torch_resume(opt, params, x, y, gen.M, loss_scale=1 / 4), after)
    assert err > 1e-8, err                        # measured ≈ 6e-6 relative


def test_rescale_grad_is_float32(tmp_path):
    """batch 6: loss/6 in float64 is not MXNet's float32(1/6) rescale; rescale_grad= is."""
    x, y, path, at_k, after, _ = run_case("sgd_momentum_clip", tmp_path)
    params = as_params(at_k)
    opt = to_torch_optimizer(load_trainer_states(path), params)
    err = max_rel(torch_resume(opt, params, x, y, gen.M, loss_scale=1 / 6), after)
    assert 1e-10 < err < 1e-5, err


# --------------------------------------------------------------------------------------------
# refusals
# --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("optimizer", ["signum", "lamb"])
def test_unsupported_optimizer(optimizer, tmp_path):
    x, y = gen.make_batch()
    path = tmp_path / f"{optimizer}.states"
    gen.train(optimizer, {}, x=x, y=y, states_path=path, k=1, m=0)
    states = load_trainer_states(path)
    assert states.optimizer == optimizer
    with pytest.raises(OptStateError, match=rf"{optimizer!r}.*supported: sgd, nag, adam") as e:
        to_torch_optimizer(states, as_params(gen.init_weights()))
    assert str(path) in str(e.value)


@pytest.fixture(scope="module")
def sgd_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("sgd") / "sgd.states"
    x, y = gen.make_batch()
    at_k, _, _ = gen.train("sgd", SGD_MOM, x=x, y=y, states_path=path, m=0)
    return path, at_k


def test_shape_dtype_and_alignment_mismatch(sgd_file):
    path, at_k = sgd_file
    states = load_trainer_states(path)
    bad = as_params(at_k)
    bad[1] = torch.nn.Parameter(torch.tensor(at_k[1].T.copy()))
    with pytest.raises(OptStateError, match=r"index 1: state shape \(5, 6\) != parameter "
                                            r"shape \(6, 5\)"):
        to_torch_optimizer(states, bad)
    with pytest.raises(OptStateError, match="index 0: state dtype float64 != parameter dtype "
                                            "float32"):
        to_torch_optimizer(states, [torch.nn.Parameter(torch.tensor(a).float()) for a in at_k])
    with pytest.raises(OptStateError, match=r"index 3 has a state of shape \(3, 5\) but "
                                            r"params\[3\] is missing \(3 params given\)"):
        to_torch_optimizer(states, as_params(at_k)[:3])
    with pytest.raises(OptStateError, match=r"params\[2\] is None"):
        to_torch_optimizer(states, as_params(at_k)[:2] + [None] + as_params(at_k)[3:])


class _Evil:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return os.system, (f"touch {self.marker}",)


@pytest.mark.parametrize("protocol", [0, 2, 4])
def test_malicious_pickle_is_refused(protocol, tmp_path, sgd_file):
    marker = tmp_path / "pwned"
    states = pickle.loads(Path(sgd_file[0]).read_bytes())
    for i, payload in enumerate([_Evil(marker), (states[0], _Evil(marker)),
                                 ({0: _Evil(marker)}, states[1])]):
        path = tmp_path / f"evil{i}.states"
        path.write_bytes(pickle.dumps(payload, protocol=protocol))
        with pytest.raises(OptStateError, match=r"refusing to unpickle the global "
                                                r"(posix|os|nt)\.system") as e:
            load_trainer_states(path)
        assert str(path) in str(e.value)
    assert not marker.exists()
    path = tmp_path / "eval.states"
    path.write_bytes(b"cbuiltins\neval\n(S'1+1'\ntR.")
    with pytest.raises(OptStateError, match=r"builtins\.eval"):
        load_trainer_states(path)


@pytest.mark.parametrize("protocol", [0, 2, 5])
def test_other_pickle_protocols(protocol, tmp_path, sgd_file):
    ref = load_trainer_states(sgd_file[0])
    path = tmp_path / "p.states"
    path.write_bytes(pickle.dumps(pickle.loads(Path(sgd_file[0]).read_bytes()),
                                  protocol=protocol))
    got = load_trainer_states(path)
    assert got.hyperparameters == ref.hyperparameters and got.update_counts == ref.update_counts
    for i in ref.states:
        np.testing.assert_array_equal(got.states[i], ref.states[i])


@pytest.mark.parametrize("protocol", [2, 4])
def test_numpy_scalar_hyperparameters(protocol, tmp_path, sgd_file):
    """A learning rate given as a numpy float pickles as numpy's scalar(dtype, bytes)."""
    states, opt = pickle.loads(Path(sgd_file[0]).read_bytes())
    opt.lr, opt.wd = np.float64(0.05), np.float32(0.01)
    path = tmp_path / "np.states"
    path.write_bytes(pickle.dumps((states, opt), protocol=protocol))
    got = load_trainer_states(path)
    assert got.hyperparameters["lr"] == 0.05 and got.hyperparameters["wd"] == np.float32(0.01)
    to_torch_optimizer(got, as_params(sgd_file[1]))


def test_damaged_files(tmp_path, sgd_file):
    data = Path(sgd_file[0]).read_bytes()
    cases = {"truncated": data[: len(data) // 2], "empty": b"", "text": b"hello world\n",
             "flipped": data[:2] + bytes(b ^ 0x5A for b in data[2:40]) + data[40:],
             "trailing": data + b"\x00junk",
             "states_only": pickle.dumps(pickle.loads(data)[0])}
    for name, blob in cases.items():
        path = tmp_path / f"{name}.states"
        path.write_bytes(blob)
        with pytest.raises(OptStateError) as e:
            load_trainer_states(path)
        assert str(path) in str(e.value), name
    with pytest.raises(OptStateError, match="cannot read"):
        load_trainer_states(tmp_path / "missing.states")


def test_lr_scheduler_refused_unless_lr_given(tmp_path):
    x, y = gen.make_batch()
    path = tmp_path / "sched.states"
    sched = mx.lr_scheduler.FactorScheduler(step=2, factor=0.5, base_lr=0.1)
    at_k, _, _ = gen.train("sgd", {**SGD_MOM, "lr_scheduler": sched}, x=x, y=y,
                           states_path=path, m=0)
    states = load_trainer_states(path)
    assert states.lr_scheduler["class"] == "mxnet.lr_scheduler.FactorScheduler"
    with pytest.raises(OptStateError, match="FactorScheduler.*Pass lr="):
        to_torch_optimizer(states, as_params(at_k))
    with pytest.warns(UserWarning, match="ignoring the MXNet lr scheduler"):
        opt = to_torch_optimizer(states, as_params(at_k), lr=0.025)
    assert opt.param_groups[0]["lr"] == float(np.float32(0.025))


@pytest.mark.filterwarnings("ignore:Accumulating with float16")
def test_float16_and_multi_precision_refused(tmp_path):
    # MXNet's CPU FullyConnected has no float16: the Updater that Trainer.save_states pickles,
    # driven directly (the same get_states(dump_optimizer=True) bytes)
    w16 = np.arange(6, dtype=np.float16).reshape(2, 3) / 8
    for mp in (True, False):
        upd = mx.optimizer.get_updater(mx.optimizer.SGD(momentum=0.9, multi_precision=mp))
        upd(0, mx.nd.array(w16 / 2, dtype="float16"), mx.nd.array(w16, dtype="float16"))
        path = tmp_path / f"fp16_{mp}.states"
        path.write_bytes(upd.get_states(dump_optimizer=True))
        params = [torch.nn.Parameter(torch.tensor(w16))]
        match = "multi_precision" if mp else "float16 state"
        with pytest.raises(OptStateError, match=match):
            to_torch_optimizer(load_trainer_states(path), params)


# --------------------------------------------------------------------------------------------
# the NDArray decoder, the fixtures, and no MXNet in the loader's path
# --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int64", "uint8", "int32"])
def test_ndarray_bytes(dtype):
    a = np.arange(24).reshape(2, 3, 4).astype(dtype)
    raw = bytes(mx.nd.array(a, dtype=dtype).__getstate__()["handle"])
    got = optstate._array_from_bytes(raw, "test")
    assert got.dtype == a.dtype and got.shape == a.shape
    np.testing.assert_array_equal(got, a)
    with pytest.raises(OptStateError, match="truncated"):
        optstate._array_from_bytes(raw[:-1], "test")


def test_ndarray_bytes_np_shape_and_sparse():
    with mx.util.np_shape(True):
        raw = bytes(mx.nd.array([3.0]).reshape(()).__getstate__()["handle"])
    assert raw[:4] == (0xF993FACA).to_bytes(4, "little")
    got = optstate._array_from_bytes(raw, "test")
    assert got.shape == () and got == 3.0
    sparse = mx.nd.zeros((2, 2)).tostype("row_sparse")
    with pytest.raises(OptStateError, match="sparse"):
        optstate._array_from_bytes(bytes(sparse.__getstate__()["handle"]), "test")


def test_fixtures_are_current(tmp_path):
    """Regenerating the committed fixtures gives the same values: they cannot go stale."""
    gen.write_fixtures(tmp_path)
    committed = FIXTURES / "optstate"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name
                                                              for p in committed.iterdir())
    for case in gen.CASES:
        new = load_trainer_states(tmp_path / f"{case}.states")
        old = load_trainer_states(committed / f"{case}.states")
        assert (new.optimizer, new.hyperparameters, new.update_counts, new.num_update) == \
            (old.optimizer, old.hyperparameters, old.update_counts, old.num_update)
        assert new.states.keys() == old.states.keys()
        for i in old.states:
            for a, b in zip(np.atleast_1d(new.states[i]) if not isinstance(new.states[i], tuple)
                            else new.states[i],
                            np.atleast_1d(old.states[i]) if not isinstance(old.states[i], tuple)
                            else old.states[i]):
                np.testing.assert_allclose(a, b, rtol=1e-12, atol=0)
    for name in [p.name for p in committed.glob("*.npz")]:
        new, old = np.load(tmp_path / name), np.load(committed / name)
        assert sorted(new.files) == sorted(old.files)
        for k in old.files:
            np.testing.assert_allclose(new[k], old[k], rtol=1e-12, atol=0)
    assert sum(p.stat().st_size for p in committed.iterdir()) < 30_000


def test_loader_runs_without_mxnet(monkeypatch):
    """The module imports only the standard library, numpy, torch (and its sibling ndfile),
    and its loader runs with mxnet made unimportable (tests/nomxnet runs it with no mxnet)."""
    import ast

    tree = ast.parse(Path(optstate.__file__).read_text())
    imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import)
                for a in n.names}
    imported |= {n.module.split(".")[0] for n in ast.walk(tree)
                 if isinstance(n, ast.ImportFrom) and n.level == 0}
    assert imported <= {"__future__", "io", "math", "pickle", "pickletools", "struct", "warnings",
                        "collections", "dataclasses", "pathlib", "typing", "numpy", "torch"}
    monkeypatch.setitem(sys.modules, "mxnet", None)        # `import mxnet` would now fail
    for case in gen.CASES:
        st = load_trainer_states(FIXTURES / "optstate" / f"{case}.states")
        weights = np.load(FIXTURES / "optstate" / f"{case}_weights_k.npz")
        to_torch_optimizer(st, as_params([weights[str(i)] for i in range(4)]))
