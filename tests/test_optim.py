"""TorchAdadelta, TorchAdam and TorchAdamW take torch.optim's steps, through a real
gluon.Trainer; mxnet_adam_settings makes torch.optim.Adam take MXNet's "adam" steps."""

import functools
import inspect
import math
import pickle

import mxnet as mx
import numpy as np
import pytest
import torch
from mxnet import autograd, gluon

from sidebyside.optim import (TorchAdadelta, TorchAdam, TorchAdamW, f32, gluon_optimizer_for,
                              mxnet_float,
                              mxnet_adam_settings)

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
def torch_run(dtype="float64", before_step=None, clip=None, optimizer="Adadelta", scale=1.0,
              groups=None, **options):
    """Parameters [W1, B1, W2, B2] after each step of torch.optim.<optimizer>(**options), on
    the mean loss times `scale`; `groups`: per-layer (lr, weight_decay) factors, as
    ((lr factor, wd factor) of layer 1, (...) of layer 2)."""
    dt = getattr(torch, dtype)
    net = torch.nn.Sequential(torch.nn.Linear(D_IN, D_HID), torch.nn.Tanh(),
                              torch.nn.Linear(D_HID, D_OUT)).to(dt)
    with torch.no_grad():
        for p, v in zip(net.parameters(), START):
            p.copy_(torch.from_numpy(v))
    if groups is None:
        params = net.parameters()
    else:
        params = [{"params": list(layer.parameters()),
                   "lr": options["lr"] * lr_factor,
                   "weight_decay": options["weight_decay"] * wd_factor}
                  for layer, (lr_factor, wd_factor) in zip((net[0], net[2]), groups)]
    opt = getattr(torch.optim, optimizer)(params, **options)
    path, clipped = [], 0
    for t, idx in enumerate(BATCHES, 1):
        if before_step:
            before_step(opt, t)
        opt.zero_grad()
        x, y = torch.from_numpy(X[idx]).to(dt), torch.from_numpy(Y[idx]).to(dt)
        (scale * ((net(x) - y) ** 2).sum(dim=1).mean()).backward()
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


# ---- TorchAdam and TorchAdamW: torch.optim.Adam / AdamW ----------------------------------

ADAM_LR = 0.01          # large enough to move the weights well within 50 steps


def test_adam_registered_with_torch_defaults():
    assert mx.optimizer.Optimizer.opt_registry["torchadam"] is TorchAdam
    assert mx.optimizer.Optimizer.opt_registry["torchadamw"] is TorchAdamW
    for cls, torch_cls in ((TorchAdam, torch.optim.Adam), (TorchAdamW, torch.optim.AdamW)):
        defaults = {k: v.default for k, v in inspect.signature(torch_cls).parameters.items()}
        opt = mx.optimizer.create(cls.__name__.lower())
        assert type(opt) is cls
        assert (opt.learning_rate, (opt.beta1, opt.beta2), opt.epsilon, opt.wd, opt.amsgrad) == (
            defaults["lr"], defaults["betas"], defaults["eps"], defaults["weight_decay"],
            defaults["amsgrad"]), cls
    assert TorchAdamW().wd == 0.01 and TorchAdam().wd == 0.0


def test_adam_float64_matches_torch_through_a_trainer():
    pt, _ = torch_run(optimizer="Adam", lr=ADAM_LR)
    assert moved(pt) > 0.1
    assert rel_gap(gluon_run(name="torchadam", learning_rate=ADAM_LR), pt) <= 1e-12
    # MXNet's own adam does not (epsilon's place, float32 hyper-parameters)
    assert rel_gap(gluon_run(name="adam", learning_rate=ADAM_LR), pt) > 1e-7


def test_adam_defaults_match_torch_defaults():
    pt, _ = torch_run(optimizer="Adam")
    assert rel_gap(gluon_run(name="torchadam"), pt) <= 1e-12
    ptw, _ = torch_run(optimizer="AdamW")
    assert rel_gap(gluon_run(name="torchadamw"), ptw) <= 1e-12


def test_adam_coupled_and_adamw_decoupled_weight_decay():
    """Adam(weight_decay) adds wd*w to the gradient, AdamW decays the weight: swapping the
    two (or ignoring wd) fails by far more than rounding."""
    coupled, _ = torch_run(optimizer="Adam", lr=ADAM_LR, weight_decay=0.1)
    decoupled, _ = torch_run(optimizer="AdamW", lr=ADAM_LR, weight_decay=0.1)
    flagged, _ = torch_run(optimizer="Adam", lr=ADAM_LR, weight_decay=0.1,
                           decoupled_weight_decay=True)
    mx_coupled = gluon_run(name="torchadam", learning_rate=ADAM_LR, wd=0.1)
    mx_decoupled = gluon_run(name="torchadamw", learning_rate=ADAM_LR, wd=0.1)
    assert rel_gap(mx_coupled, coupled) <= 1e-12
    assert rel_gap(mx_decoupled, decoupled) <= 1e-12
    assert rel_gap(mx_decoupled, flagged) <= 1e-12
    assert rel_gap(mx_coupled, decoupled) > 1e-2
    assert rel_gap(mx_decoupled, coupled) > 1e-2
    plain, _ = torch_run(optimizer="Adam", lr=ADAM_LR)
    assert rel_gap(mx_decoupled, plain) > 1e-3 and rel_gap(mx_coupled, plain) > 1e-3


def test_adam_learning_rate_changed_midway():
    def torch_drop(opt, t):
        if t == STEPS // 2:
            opt.param_groups[0]["lr"] = 0.002

    def gluon_drop(trainer, t):
        if t == STEPS // 2:
            trainer.set_learning_rate(0.002)

    for name, optimizer in (("torchadam", "Adam"), ("torchadamw", "AdamW")):
        pt, _ = torch_run(optimizer=optimizer, lr=ADAM_LR, before_step=torch_drop)
        gl = gluon_run(name=name, learning_rate=ADAM_LR, before_step=gluon_drop)
        assert rel_gap(gl, pt) <= 1e-12, name
        assert rel_gap(gluon_run(name=name, learning_rate=ADAM_LR), pt) > 1e-4, name


def test_adam_lr_scheduler_and_base_lr():
    sched = {}

    def torch_step_lr(opt, t):
        if t == 1:
            sched["s"] = torch.optim.lr_scheduler.StepLR(opt, step_size=7, gamma=0.7)
        else:
            sched["s"].step()

    pt, _ = torch_run(optimizer="Adam", lr=ADAM_LR, before_step=torch_step_lr)
    gl = gluon_run(name="torchadam",
                   lr_scheduler=mx.lr_scheduler.FactorScheduler(7, 0.7, base_lr=ADAM_LR))
    assert rel_gap(gl, pt) <= 1e-12
    opt = TorchAdam(lr_scheduler=mx.lr_scheduler.FactorScheduler(5, 0.5, base_lr=0.25))
    assert opt.learning_rate == 0.25


def test_amsgrad_matches_torch_and_matters():
    pt, _ = torch_run(optimizer="Adam", lr=ADAM_LR, amsgrad=True)
    gl = gluon_run(name="torchadam", learning_rate=ADAM_LR, amsgrad=True)
    assert rel_gap(gl, pt) <= 1e-12
    plain, _ = torch_run(optimizer="Adam", lr=ADAM_LR)
    assert rel_gap(gl, plain) > 1e-6                  # the running maximum did something
    ptw, _ = torch_run(optimizer="AdamW", lr=ADAM_LR, weight_decay=0.1, amsgrad=True)
    glw = gluon_run(name="torchadamw", learning_rate=ADAM_LR, wd=0.1, amsgrad=True)
    assert rel_gap(glw, ptw) <= 1e-12


def test_adam_float32_within_rounding():
    for name, optimizer in (("torchadam", "Adam"), ("torchadamw", "AdamW")):
        pt32, _ = torch_run("float32", optimizer=optimizer, lr=ADAM_LR)
        pt64, _ = torch_run("float64", optimizer=optimizer, lr=ADAM_LR)
        gl32 = gluon_run("float32", name=name, learning_rate=ADAM_LR)
        drift = rel_gap(pt32, pt64)                  # PyTorch's own float32 rounding
        assert 1e-9 < drift <= 1e-5
        assert rel_gap(gl32, pt32) <= 1e-5
        assert rel_gap(gl32, pt64) <= 1e-5


def test_adam_gradients_near_epsilon():
    """A loss scaled by 1e-7 (gradients near eps) through rescale_grad: torchadam still takes
    PyTorch's steps; MXNet's adam, whose eps is not bias-corrected, moves far less."""
    pt, _ = torch_run(optimizer="Adam", lr=ADAM_LR, scale=1e-7)
    assert moved(pt) > 0.1
    assert rel_gap(gluon_run(name="torchadam", learning_rate=ADAM_LR, rescale_grad=1e-7),
                   pt) <= 1e-12
    assert rel_gap(gluon_run(name="adam", learning_rate=ADAM_LR, rescale_grad=1e-7), pt) > 0.1


def test_adam_clip_gradient_is_clip_grad_value_before_the_step():
    for name, optimizer in (("torchadam", "Adam"), ("torchadamw", "AdamW")):
        pt, clipped = torch_run(optimizer=optimizer, lr=ADAM_LR, weight_decay=0.05, clip=0.5)
        assert 50 < clipped < STEPS * 67 - 50
        gl = gluon_run(name=name, learning_rate=ADAM_LR, wd=0.05, clip_gradient=0.5)
        assert rel_gap(gl, pt) <= 1e-12, name
        assert rel_gap(gluon_run(name=name, learning_rate=ADAM_LR, wd=0.05), pt) > 1e-6, name


def test_adam_lr_mult_and_wd_mult_are_param_groups():
    """Parameter.lr_mult / wd_mult in Gluon == per-layer param groups in PyTorch."""
    groups = ((0.5, 0.0), (1.0, 1.0))            # layer 1: half the rate, no weight decay
    for name, optimizer in (("torchadam", "Adam"), ("torchadamw", "AdamW")):
        pt, _ = torch_run(optimizer=optimizer, lr=ADAM_LR, weight_decay=0.1, groups=groups)
        net = gluon_net()
        for p in net[0].collect_params().values():
            p.lr_mult, p.wd_mult = 0.5, 0.0
        gl = gluon_run(net=net, name=name, learning_rate=ADAM_LR, wd=0.1)
        assert rel_gap(gl, pt) <= 1e-12, name
        even, _ = torch_run(optimizer=optimizer, lr=ADAM_LR, weight_decay=0.1)
        assert rel_gap(gl, even) > 1e-3, name


def test_adam_on_two_contexts_updated_on_the_kvstore():
    """With two contexts the Trainer pickles the optimizer into a kvstore that runs the
    updates (update_on_kvstore): the steps are still PyTorch's."""
    pt, _ = torch_run(optimizer="Adam", lr=ADAM_LR)
    contexts = [mx.cpu(0), mx.cpu(1)]
    net = gluon.nn.Sequential()
    net.add(gluon.nn.Dense(D_HID, in_units=D_IN, activation="tanh", dtype="float64"),
            gluon.nn.Dense(D_OUT, in_units=D_HID, dtype="float64"))
    net.initialize(ctx=contexts)
    for p, v in zip(net.collect_params().values(), START):
        p.set_data(mx.nd.array(v, dtype="float64"))
    trainer = gluon.Trainer(net.collect_params(), "torchadam", {"learning_rate": ADAM_LR})
    path = []
    for idx in BATCHES:
        parts = [gluon.utils.split_and_load(mx.nd.array(a[idx], dtype="float64"), contexts)
                 for a in (X, Y)]
        with autograd.record():
            losses = [((net(x) - y) ** 2).sum(axis=1) for x, y in zip(*parts)]
        for loss in losses:
            loss.backward()
        trainer.step(BATCH)
        path.append([p.data(contexts[1]).asnumpy() for p in net.collect_params().values()])
    assert trainer._update_on_kvstore and trainer._kvstore is not None
    assert rel_gap(path, pt) <= 1e-12


def test_adam_state_in_weight_dtype_and_context():
    for amsgrad, count in ((False, 2), (True, 3)):
        net = gluon_net("float64")
        trainer = gluon.Trainer(net.collect_params(), "torchadam", {"amsgrad": amsgrad})
        gluon_run(net=net, trainer=trainer, steps=1)
        states = trainer._updaters[0].states
        assert len(states) == 4
        for state in states.values():
            assert len(state) == count
            for s in state:
                assert s.dtype == np.float64 and s.context == mx.cpu(0)


def test_adam_gradient_not_modified():
    for cls in (TorchAdam, TorchAdamW):
        opt = cls(rescale_grad=0.5, clip_gradient=0.7, wd=0.1)
        weight, grad = mx.nd.ones((3,)), mx.nd.array([1.0, 2.0, 3.0])
        opt.update(0, weight, grad, opt.create_state(0, weight))
        assert grad.asnumpy().tolist() == [1.0, 2.0, 3.0], cls
        assert (weight.asnumpy() < 1.0).all(), cls


def test_adam_save_and_load_states_resume_exactly():
    net = gluon_net()
    trainer = gluon.Trainer(net.collect_params(), "torchadamw",
                            {"learning_rate": ADAM_LR, "amsgrad": True})
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
    # the step count is part of the state: a fresh optimizer on the same weights differs
    for p, v in zip(net.collect_params().values(), saved_params):
        p.set_data(v)
    fresh = gluon_run(net=net, name="torchadamw", steps=3, learning_rate=ADAM_LR,
                      amsgrad=True)
    assert rel_gap(fresh, continued) > 1e-6
    copy = pickle.loads(pickle.dumps(TorchAdamW(beta1=0.8, amsgrad=True)))
    assert isinstance(copy, TorchAdamW) and (copy.beta1, copy.amsgrad, copy.wd) == (
        0.8, True, 0.01)


def test_adam_multi_precision_float16_follows_float32():
    target = np.linspace(-1.0, 1.0, 7)
    paths = {}
    for dtype, options in (("float32", {}), ("float16", {"multi_precision": True})):
        p = gluon.Parameter("w", shape=(7,), dtype=dtype)
        p.initialize(init=mx.init.Zero())
        trainer = gluon.Trainer([p], "torchadam", dict(options, learning_rate=0.05))
        t = mx.nd.array(target, dtype=dtype)
        for _ in range(20):
            with autograd.record():
                ((p.data() - t) ** 2).sum().backward()
            trainer.step(1)
        paths[dtype] = p.data().asnumpy().astype(np.float64)
    assert np.abs(paths["float32"]).max() > 0.3
    np.testing.assert_allclose(paths["float16"], paths["float32"], rtol=2e-3, atol=1e-3)


def test_adam_sparse_gradients_refused():
    emb = gluon.nn.Embedding(10, 3, sparse_grad=True)
    emb.initialize()
    trainer = gluon.Trainer(emb.collect_params(), "torchadam", {})
    with autograd.record():
        loss = emb(mx.nd.array([1, 2])).sum()
    loss.backward()
    with pytest.raises(NotImplementedError, match="row_sparse gradient.*torch.optim.Adam "):
        trainer.step(1)


@pytest.mark.parametrize("bad", [{"beta1": 1.0}, {"beta2": -0.1}, {"epsilon": -1.0},
                                 {"wd": -0.1}, {"learning_rate": -1.0},
                                 {"clip_gradient": -1.0}, {"amsgrad": "yes"}])
@pytest.mark.parametrize("cls", [TorchAdam, TorchAdamW])
def test_adam_invalid_hyper_parameters_refused(cls, bad):
    with pytest.raises(ValueError, match=f"{cls.__name__}: invalid {next(iter(bad))}"):
        cls(**bad)


class AdamVariant(TorchAdam):
    """Adam written out once more, with one plausible mistake switched on (or none)."""

    def __init__(self, mistake=None, **kwargs):
        super().__init__(**kwargs)
        self.mistake = mistake

    def update(self, index, weight, grad, state):
        self._update_count(index)
        t, lr, eps = self._index_update_count[index], self._get_lr(index), self.epsilon
        g = grad * self.rescale_grad
        m, v = state[0], state[1]
        b_m = self.beta2 if self.mistake == "beta2 for the first moment" else self.beta1
        m[:] = b_m * m + (1.0 - b_m) * g
        v[:] = self.beta2 * v + (1.0 - self.beta2) * g * g
        c1 = 1.0 if self.mistake == "no bias correction of m" else 1.0 - self.beta1 ** t
        c2 = 1.0 if self.mistake == "no bias correction of v" else 1.0 - self.beta2 ** t
        if self.mistake == "epsilon inside the root":
            denom = mx.nd.sqrt(v / c2 + eps)
        elif self.mistake == "epsilon before the bias correction":       # MXNet's adam
            denom = (mx.nd.sqrt(v) + eps) / math.sqrt(c2)
        else:
            denom = mx.nd.sqrt(v) / math.sqrt(c2) + eps
        weight[:] = weight - lr / c1 * m / denom


MISTAKES = ["epsilon inside the root", "epsilon before the bias correction",
            "no bias correction of m", "no bias correction of v", "beta2 for the first moment"]


@pytest.mark.parametrize("scale, caught", [(1.0, 1e-9), (1e-7, 1e-2)])
def test_the_parity_check_catches_plausible_mistakes(scale, caught):
    """The 1e-12 check of the tests above fails, by orders of magnitude, for an Adam with
    one of these mistakes; written without the mistake, the same code passes it. With
    gradients near eps (scale 1e-7) every mistake changes the run completely."""
    pt, _ = torch_run(optimizer="Adam", lr=ADAM_LR, scale=scale)

    def run(mistake):
        net = gluon_net()
        opt = AdamVariant(mistake, learning_rate=ADAM_LR, rescale_grad=scale)
        return gluon_run(net=net, trainer=gluon.Trainer(net.collect_params(), opt))

    assert rel_gap(run(None), pt) <= 1e-12
    gaps = {mistake: rel_gap(run(mistake), pt) for mistake in MISTAKES}
    assert all(gap > caught for gap in gaps.values()), gaps


# ---- mxnet_adam_settings: torch.optim.Adam taking MXNet's "adam" steps -----------------

def test_mxnet_adam_settings_gives_mxnets_steps():
    def settings(opt, t):
        mxnet_adam_settings(opt, t, learning_rate=ADAM_LR, wd=0.05)

    mx_path = gluon_run(name="adam", learning_rate=ADAM_LR, wd=0.05)
    as_mxnet, _ = torch_run(optimizer="Adam", lr=ADAM_LR, weight_decay=0.05,
                            before_step=settings)
    assert rel_gap(as_mxnet, mx_path) <= 1e-14
    as_written, _ = torch_run(optimizer="Adam", lr=ADAM_LR, weight_decay=0.05)
    assert rel_gap(as_written, mx_path) > 1e-8


def _kernel_float(value: float) -> float:
    """The float32 adam_update uses for lr=value: one step from 0 with a gradient of 1 and
    beta1 = beta2 = epsilon = 0 moves a float64 weight by exactly that number."""
    w = mx.nd.zeros(1, dtype="float64")
    one = mx.nd.ones(1, dtype="float64")
    mx.nd.adam_update(w, one, mx.nd.zeros(1, dtype="float64"), mx.nd.zeros(1, dtype="float64"),
                      out=w, lr=value, beta1=0.0, beta2=0.0, epsilon=0.0, wd=0.0)
    return -float(w.asscalar())


def test_mxnet_float_is_what_an_operator_receives():
    rng = np.random.default_rng(3)
    values = [float(10 ** rng.uniform(-9, 1)) for _ in range(600)] + \
        [float(rng.uniform(0, 1)) for _ in range(600)] + [0.1, 0.9, 0.999, 1e-8, 2e-4, 3.0]
    kernel = [_kernel_float(v) for v in values]
    assert [mxnet_float(v) for v in values] == kernel
    # plain rounding to float32 is not what the operator receives for some of them
    off = sum(f32(v) != k for v, k in zip(values, kernel))
    assert 30 < off < 300, off


def test_mxnet_adam_settings_at_the_dc_gan_settings():
    """MXNet's dc_gan example trains with Adam at lr 2e-4, beta1 0.5: the kernel's rate is
    one float32 step from f32's at the third update, so rounding with f32 parts from MXNet by
    ~1e-11 from there; the settings (mxnet_float) stay at rounding."""
    def settings(opt, t):
        mxnet_adam_settings(opt, t, learning_rate=2e-4, beta1=0.5)

    mx_path = gluon_run(name="adam", learning_rate=2e-4, beta1=0.5)
    as_mxnet, _ = torch_run(optimizer="Adam", lr=2e-4, before_step=settings)
    assert rel_gap(as_mxnet, mx_path) <= 1e-14
    c1, c2 = 1 - 0.5 ** 3, 1 - 0.999 ** 3
    assert mxnet_float(2e-4 * math.sqrt(c2) / c1) != f32(2e-4 * math.sqrt(c2) / c1)


def test_mxnet_adam_settings_with_gradients_near_epsilon():
    def settings(opt, t):
        mxnet_adam_settings(opt, t, learning_rate=ADAM_LR)

    mx_path = gluon_run(name="adam", learning_rate=ADAM_LR, rescale_grad=1e-7)
    # the kernel takes rescale_grad (1e-7 / BATCH after step(BATCH)) as a float32 too
    kernel_scale = BATCH * f32(1e-7 / BATCH)
    as_mxnet, _ = torch_run(optimizer="Adam", lr=ADAM_LR, scale=kernel_scale,
                            before_step=settings)
    assert rel_gap(as_mxnet, mx_path) <= 1e-12
    unrounded, _ = torch_run(optimizer="Adam", lr=ADAM_LR, scale=1e-7, before_step=settings)
    assert rel_gap(unrounded, mx_path) > 1e-10


def test_mxnet_adam_settings_values():
    w = torch.zeros(2, dtype=torch.float64, requires_grad=True)
    opt = torch.optim.Adam([w], lr=0.5)
    mxnet_adam_settings(opt, 3, learning_rate=0.002, beta1=0.8, beta2=0.99, epsilon=1e-7,
                        wd=0.1)
    group = opt.param_groups[0]
    b1, b2 = f32(0.8), f32(0.99)
    kernel_lr = mxnet_float(0.002 * math.sqrt(1 - 0.99 ** 3) / (1 - 0.8 ** 3))
    assert group["betas"] == (b1, b2) and group["weight_decay"] == f32(0.1)
    assert group["eps"] == f32(1e-7) / math.sqrt(1 - b2 ** 3)
    # PyTorch's step size lr / (1 - b1^t), over sqrt(1 - b2^t), is the kernel's rate
    assert abs(group["lr"] / (1 - b1 ** 3) * math.sqrt(1 - b2 ** 3) - kernel_lr) <= 1e-18


def test_mxnet_adam_settings_refuses_what_it_cannot_do():
    w = torch.zeros(2, dtype=torch.float64, requires_grad=True)
    with pytest.raises(TypeError, match="must be a torch.optim.Adam, got SGD"):
        mxnet_adam_settings(torch.optim.SGD([w], lr=0.1), 1)
    for t in (0, 1.0, True):
        with pytest.raises(ValueError, match="invalid t"):
            mxnet_adam_settings(torch.optim.Adam([w]), t)
    with pytest.raises(ValueError, match="amsgrad=True"):
        mxnet_adam_settings(torch.optim.Adam([w], amsgrad=True), 1)
    with pytest.raises(ValueError, match="decouples weight decay"):
        mxnet_adam_settings(torch.optim.AdamW([w]), 1, wd=0.01)
    for bad in ({"beta2": 1.0}, {"epsilon": -1.0}, {"learning_rate": -0.1}, {"wd": -1.0}):
        with pytest.raises(ValueError, match=f"invalid {next(iter(bad))}"):
            mxnet_adam_settings(torch.optim.Adam([w]), 1, **bad)
    opt = torch.optim.Adam([w])
    w.grad = torch.ones(2, dtype=torch.float64)
    mxnet_adam_settings(opt, 1)
    opt.step()
    with pytest.raises(ValueError, match="t=1, but the optimizer has taken 1 steps"):
        mxnet_adam_settings(opt, 1)
    mxnet_adam_settings(opt, 2)                      # the right count is accepted


# ---- gluon_optimizer_for: a PyTorch optimizer's settings as a Gluon Trainer's -----------

@pytest.mark.parametrize("optimizer, options, name", [
    ("Adam", {"lr": 0.02, "betas": (0.8, 0.95), "eps": 1e-6, "weight_decay": 0.05},
     "torchadam"),
    ("Adam", {"lr": 0.02, "weight_decay": 0.05, "amsgrad": True}, "torchadam"),
    ("Adam", {"lr": 0.02, "weight_decay": 0.05, "decoupled_weight_decay": True}, "torchadamw"),
    ("AdamW", {"lr": 0.02, "betas": (0.8, 0.95)}, "torchadamw"),
    ("Adadelta", {"lr": 0.5, "rho": 0.8, "eps": 1e-5, "weight_decay": 0.05}, "torchadadelta"),
])
def test_gluon_optimizer_for_takes_the_same_steps(optimizer, options, name):
    pt, _ = torch_run(optimizer=optimizer, **options)
    w = torch.zeros(1, requires_grad=True)
    found, gluon_options = gluon_optimizer_for(getattr(torch.optim, optimizer)([w], **options))
    assert found == name
    assert rel_gap(gluon_run(name=found, **gluon_options), pt) <= 1e-12


def test_gluon_optimizer_for_refuses_what_has_no_counterpart():
    a, b = torch.zeros(1, requires_grad=True), torch.zeros(1, requires_grad=True)
    with pytest.raises(TypeError, match="SGD; supported: torch.optim.Adam, AdamW, Adadelta"):
        gluon_optimizer_for(torch.optim.SGD([a], lr=0.1))
    with pytest.raises(ValueError, match=r"param groups 0 and 1 differ in \['lr'\]"):
        gluon_optimizer_for(torch.optim.Adam([{"params": [a]}, {"params": [b], "lr": 0.1}]))
    with pytest.raises(ValueError, match="maximize=True"):
        gluon_optimizer_for(torch.optim.Adam([a], maximize=True))
    with pytest.raises(ValueError, match="tensor lr"):
        gluon_optimizer_for(torch.optim.Adam([a], lr=torch.tensor(0.01)))
