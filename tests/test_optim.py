"""TorchAdadelta takes torch.optim.Adadelta's steps, through a real gluon.Trainer."""

import functools
import pickle

import mxnet as mx
import numpy as np
import pytest
import torch
from mxnet import autograd, gluon

from sidebyside.optim import TorchAdadelta

N, D_IN, D_HID, D_OUT, BATCH = 64, 4, 8, 3, 16
STEPS = 50
_rng = np.random.default_rng(13)
X = _rng.standard_normal((N, D_IN))
Y = _rng.standard_normal((N, D_OUT))
W1, B1 = 0.5 * _rng.standard_normal((D_HID, D_IN)), 0.1 * _rng.standard_normal(D_HID)
W2, B2 = 0.5 * _rng.standard_normal((D_OUT, D_HID)), 0.1 * _rng.standard_normal(D_OUT)
START = [W1, B1, W2, B2]
BATCHES = [np.arange(t * BATCH, (t + 1) * BATCH) % N for t in range(STEPS)]


@functools.lru_cache(maxsize=None)
def torch_run(dtype="float64", before_step=None, clip=None, **adadelta):
    """Parameters [W1, B1, W2, B2] after each step of torch.optim.Adadelta(**adadelta)."""
    dt = getattr(torch, dtype)
    net = torch.nn.Sequential(torch.nn.Linear(D_IN, D_HID), torch.nn.Tanh(),
                              torch.nn.Linear(D_HID, D_OUT)).to(dt)
    with torch.no_grad():
        for p, v in zip(net.parameters(), START):
            p.copy_(torch.from_numpy(v))
    opt = torch.optim.Adadelta(net.parameters(), **adadelta)
    path, clipped = [], 0
    for t, idx in enumerate(BATCHES, 1):
        if before_step:
            before_step(opt, t)
        opt.zero_grad()
        x, y = torch.from_numpy(X[idx]).to(dt), torch.from_numpy(Y[idx]).to(dt)
        ((net(x) - y) ** 2).sum(dim=1).mean().backward()
        if clip is not None:
            clipped += sum(int((p.grad.abs() > clip).sum()) for p in net.parameters())
            torch.nn.utils.clip_grad_value_(net.parameters(), clip)
        opt.step()
        path.append([p.detach().double().numpy().copy() for p in net.parameters()])
    return path, clipped


def gluon_net(dtype="float64"):
    net = gluon.nn.Sequential()
    net.add(gluon.nn.Dense(D_HID, in_units=D_IN, activation="tanh", dtype=dtype),
            gluon.nn.Dense(D_OUT, in_units=D_HID, dtype=dtype))
    net.initialize()
    for p, v in zip(net.collect_params().values(), START):
        p.set_data(mx.nd.array(v, dtype=dtype))
    return net


def gluon_run(dtype="float64", name="torchadadelta", before_step=None, steps=STEPS,
              net=None, trainer=None, **options):
    """The same with gluon.Trainer(params, name, options), per-sample loss and step(BATCH)."""
    net = net or gluon_net(dtype)
    trainer = trainer or gluon.Trainer(net.collect_params(), name, options)
    path = []
    for t, idx in enumerate(BATCHES[:steps], 1):
        if before_step:
            before_step(trainer, t)
        x, y = mx.nd.array(X[idx], dtype=dtype), mx.nd.array(Y[idx], dtype=dtype)
        with autograd.record():
            loss = ((net(x) - y) ** 2).sum(axis=1)
        loss.backward()
        trainer.step(BATCH)
        path.append([p.data().asnumpy().astype(np.float64)
                     for p in net.collect_params().values()])
    return path


def rel_gap(a, b):
    """The largest difference over the trajectory, relative to the largest weight."""
    return max(float(np.abs(u - v).max()) / float(np.abs(v).max())
               for step_a, step_b in zip(a, b) for u, v in zip(step_a, step_b))


def moved(path):
    return max(float(np.abs(p - s).max()) for p, s in zip(path[-1], START))


def test_registered_under_the_lower_cased_class_name():
    assert mx.optimizer.Optimizer.opt_registry["torchadadelta"] is TorchAdadelta
    opt = mx.optimizer.create("torchadadelta")
    assert isinstance(opt, TorchAdadelta)
    assert (opt.learning_rate, opt.rho, opt.epsilon, opt.wd) == (1.0, 0.9, 1e-6, 0.0)


def test_float64_matches_torch_through_a_trainer():
    pt, _ = torch_run(lr=1.0)
    mx_path = gluon_run(learning_rate=1.0)
    assert moved(pt) > 0.05                      # the weights did move
    assert rel_gap(mx_path, pt) <= 1e-12


def test_defaults_match_torch_defaults():
    pt, _ = torch_run()
    assert rel_gap(gluon_run(), pt) <= 1e-12


def test_weight_decay_matches_torch():
    pt, _ = torch_run(lr=0.5, weight_decay=0.05)
    assert rel_gap(gluon_run(learning_rate=0.5, wd=0.05), pt) <= 1e-12
    assert rel_gap(gluon_run(learning_rate=0.5), pt) > 1e-6      # wd did something


def test_learning_rate_changed_midway():
    def torch_drop(opt, t):
        if t == STEPS // 2:
            opt.param_groups[0]["lr"] = 0.3

    def gluon_drop(trainer, t):
        if t == STEPS // 2:
            trainer.set_learning_rate(0.3)

    pt, _ = torch_run(lr=1.0, before_step=torch_drop)
    assert rel_gap(gluon_run(learning_rate=1.0, before_step=gluon_drop), pt) <= 1e-12
    assert rel_gap(gluon_run(learning_rate=1.0), pt) > 1e-6


def test_lr_scheduler_takes_effect():
    """FactorScheduler(step=k) per update == StepLR(step_size=k) stepped after every step."""
    sched = {}

    def torch_step_lr(opt, t):
        if t == 1:
            sched["s"] = torch.optim.lr_scheduler.StepLR(opt, step_size=7, gamma=0.7)
        else:
            sched["s"].step()

    pt, _ = torch_run(lr=1.0, before_step=torch_step_lr)
    gl = gluon_run(lr_scheduler=mx.lr_scheduler.FactorScheduler(7, 0.7, base_lr=1.0))
    assert rel_gap(gl, pt) <= 1e-12
    assert rel_gap(gluon_run(), pt) > 1e-6


def test_scheduler_base_lr_is_used_when_no_learning_rate_given():
    opt = TorchAdadelta(lr_scheduler=mx.lr_scheduler.FactorScheduler(5, 0.5, base_lr=0.25))
    assert opt.learning_rate == 0.25
    assert TorchAdadelta(learning_rate=0.1).learning_rate == 0.1


def test_float32_within_rounding():
    pt, _ = torch_run("float32", lr=1.0)
    assert rel_gap(gluon_run("float32", learning_rate=1.0), pt) <= 1e-5


def test_clip_gradient_is_clip_grad_value_before_the_step():
    pt, clipped = torch_run(lr=1.0, weight_decay=0.01, clip=0.5)
    assert 50 < clipped < STEPS * 67 - 50            # some elements clipped, some not
    gl = gluon_run(learning_rate=1.0, wd=0.01, clip_gradient=0.5)
    assert rel_gap(gl, pt) <= 1e-12
    assert rel_gap(gluon_run(learning_rate=1.0, wd=0.01), pt) > 1e-6


def test_wrong_epsilon_is_caught():
    """The negative control: eps 1e-5 (MXNet's default) instead of 1e-6 fails the bound."""
    pt, _ = torch_run(lr=1.0)
    assert rel_gap(gluon_run(learning_rate=1.0, epsilon=1e-5), pt) > 1e-3


def test_builtin_adadelta_does_not_match():
    pt32, _ = torch_run("float32", lr=1.0)
    assert rel_gap(gluon_run("float32", name="adadelta", learning_rate=1.0), pt32) > 1e-3
    with pytest.raises(mx.base.MXNetError):     # and cannot train float64 weights at all
        gluon_run("float64", name="adadelta", steps=1)


def test_state_in_weight_dtype_and_context():
    net = gluon_net("float64")
    trainer = gluon.Trainer(net.collect_params(), "torchadadelta", {})
    gluon_run(net=net, trainer=trainer, steps=1)
    states = trainer._updaters[0].states
    assert len(states) == 4
    for square_avg, acc_delta in states.values():
        for s in (square_avg, acc_delta):
            assert s.dtype == np.float64 and s.context == mx.cpu(0)


def test_gradient_not_modified_unlike_builtin():
    for cls, modifies in ((TorchAdadelta, False), (mx.optimizer.AdaDelta, True)):
        opt = cls(rescale_grad=0.5)
        weight, grad = mx.nd.ones((3,)), mx.nd.array([1.0, 2.0, 3.0])
        opt.update(0, weight, grad, opt.create_state(0, weight))
        assert (grad.asnumpy() != [1.0, 2.0, 3.0]).any() == modifies, cls


def test_save_and_load_states_resume_exactly():
    net = gluon_net()
    trainer = gluon.Trainer(net.collect_params(), "torchadadelta", {"learning_rate": 0.7})
    gluon_run(net=net, trainer=trainer, steps=5)
    saved_params = [p.data().copy() for p in net.collect_params().values()]
    saved_states = trainer._updaters[0].get_states(dump_optimizer=True)
    continued = gluon_run(net=net, trainer=trainer, steps=3)
    for p, v in zip(net.collect_params().values(), saved_params):
        p.set_data(v)
    trainer._updaters[0].set_states(saved_states)
    trainer._optimizer = trainer._updaters[0].optimizer
    resumed = gluon_run(net=net, trainer=trainer, steps=3)
    assert rel_gap(resumed, continued) == 0.0
    assert isinstance(pickle.loads(pickle.dumps(TorchAdadelta(rho=0.8))), TorchAdadelta)


def test_multi_precision_float16_follows_float32():
    """float16 weights (elementwise model: CPU has no float16 Dense) with a float32 master."""
    target = np.linspace(-1.0, 1.0, 7)
    paths = {}
    for dtype, options in (("float32", {}), ("float16", {"multi_precision": True})):
        p = gluon.Parameter("w", shape=(7,), dtype=dtype)
        p.initialize(init=mx.init.Zero())
        trainer = gluon.Trainer([p], "torchadadelta", dict(options, learning_rate=1.0))
        t = mx.nd.array(target, dtype=dtype)
        for _ in range(20):
            with autograd.record():
                ((p.data() - t) ** 2).sum().backward()
            trainer.step(1)
        paths[dtype] = p.data().asnumpy().astype(np.float64)
    assert np.abs(paths["float32"]).max() > 1e-3
    np.testing.assert_allclose(paths["float16"], paths["float32"], rtol=2e-3, atol=1e-5)


def test_sparse_gradients_refused():
    emb = gluon.nn.Embedding(10, 3, sparse_grad=True)
    emb.initialize()
    trainer = gluon.Trainer(emb.collect_params(), "torchadadelta", {})
    with autograd.record():
        loss = emb(mx.nd.array([1, 2])).sum()
    loss.backward()
    with pytest.raises(NotImplementedError, match="row_sparse gradient"):
        trainer.step(1)


@pytest.mark.parametrize("bad", [{"rho": 1.5}, {"epsilon": -1.0}, {"wd": -0.1},
                                 {"learning_rate": -1.0}, {"clip_gradient": -1.0}])
def test_invalid_hyper_parameters_refused(bad):
    with pytest.raises(ValueError, match=next(iter(bad))):
        TorchAdadelta(**bad)
