"""sidebyside.mx2torch.optstate with no MXNet: resume from committed Trainer states.

Imports only numpy, torch, pytest and the module under test, so it runs where MXNet cannot be
installed (numpy 2, Python 3.12). The fixtures come from
tests/fixtures/mx2torch/make_optstate_fixtures.py (MXNet 1.9.1): a float64 net
Dense(5, relu) → Dense(3), K=3 steps of gluon.Trainer on one batch of 4 with
loss 0.5·Σ(out − y)² and ``trainer.step(4)``, the states saved, and MXNet's weights after each
of M=3 more steps. The PyTorch twin continues from the weights at step K and must land on
MXNet's weights: ``assert_allclose(rtol=1e-10, atol=1e-13)``.
"""
from __future__ import annotations

import pickle
import sys
import types
from pathlib import Path

import numpy as np
import pytest
import torch

from sidebyside.mx2torch.optstate import (MXNetAdam, OptStateError, load_trainer_states,
                                          to_torch_optimizer)

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "mx2torch" / "optstate"
BATCH, M = 4, 3


def resume(case, loss_scale, **kw):
    states = load_trainer_states(FIX / f"{case}.states")
    at_k = np.load(FIX / f"{case}_weights_k.npz")
    # the Trainer's index: collect_params() keys sorted by name → b1, W1, b2, W2
    params = [torch.nn.Parameter(torch.tensor(at_k[str(i)])) for i in range(4)]
    opt = to_torch_optimizer(states, params, **kw)
    batch = np.load(FIX / "batch.npz")
    x, y = torch.tensor(batch["x"]), torch.tensor(batch["y"])
    after = np.load(FIX / f"{case}_weights_after.npz")
    for step in range(1, M + 1):
        opt.zero_grad()
        out = torch.relu(x @ params[1].T + params[0]) @ params[3].T + params[2]
        (0.5 * ((out - y) ** 2).sum() * loss_scale).backward()
        opt.step()
        for i, p in enumerate(params):
            np.testing.assert_allclose(p.detach().numpy(), after[f"{step}/{i}"], rtol=1e-10,
                                       atol=1e-13, err_msg=f"{case}: step {step}, param {i}")
    return states, opt, params


def test_sgd_momentum_resume():
    # the optimizer applies MXNet's rescale (1/batch_size, from the file): loss left as a sum
    states = load_trainer_states(FIX / "sgd_momentum.states")
    assert states.optimizer == "sgd" and states.hyperparameters["rescale_grad"] == 1 / BATCH
    assert states.hyperparameters["momentum"] == 0.9 and states.update_counts[0] == 3
    _, opt, _ = resume("sgd_momentum", 1.0, rescale_grad=states.hyperparameters["rescale_grad"])
    assert isinstance(opt, torch.optim.SGD)


def test_adam_resume():
    # the loss carries the 1/batch_size (exact for a power-of-two batch), rescale_grad=1.0
    states, opt, params = resume("adam", 1 / BATCH)
    assert isinstance(opt, MXNetAdam)
    assert float(opt.state[params[0]]["step"]) == 3 + M
    assert states.hyperparameters["beta1"] == 0.9 and states.hyperparameters["epsilon"] == 1e-8


def test_plain_torch_adam_would_not_be_exact():
    states = load_trainer_states(FIX / "adam.states")
    hp = states.hyperparameters
    at_k = np.load(FIX / "adam_weights_k.npz")
    params = [torch.nn.Parameter(torch.tensor(at_k[str(i)])) for i in range(4)]
    opt = torch.optim.Adam(params, lr=hp["lr"], betas=(hp["beta1"], hp["beta2"]),
                           eps=hp["epsilon"], weight_decay=hp["wd"])
    for i, p in enumerate(params):
        m, v = states.states[i]
        opt.state[p] = {"step": torch.tensor(float(states.update_counts[i])),
                        "exp_avg": torch.tensor(m), "exp_avg_sq": torch.tensor(v)}
    batch = np.load(FIX / "batch.npz")
    x, y = torch.tensor(batch["x"]), torch.tensor(batch["y"])
    out = torch.relu(x @ params[1].T + params[0]) @ params[3].T + params[2]
    (0.5 * ((out - y) ** 2).sum() / BATCH).backward()
    opt.step()
    after = np.load(FIX / "adam_weights_after.npz")
    err = max(float(np.max(np.abs(p.detach().numpy() - after[f"1/{i}"])))
              for i, p in enumerate(params))
    assert err > 1e-9, err


def test_malicious_pickle_does_not_run(tmp_path):
    marker = tmp_path / "pwned"
    path = tmp_path / "evil.states"
    path.write_bytes(f"cos\nsystem\n(S'touch {marker}'\ntR.".encode())
    with pytest.raises(OptStateError, match=r"refusing to unpickle the global os\.system"):
        load_trainer_states(path)
    assert not marker.exists()


def test_truncated_file(tmp_path):
    data = (FIX / "adam.states").read_bytes()
    path = tmp_path / "cut.states"
    path.write_bytes(data[: len(data) - 100])
    with pytest.raises(OptStateError, match="truncated or corrupt") as e:
        load_trainer_states(path)
    assert str(path) in str(e.value)


def test_unsupported_optimizer(tmp_path, monkeypatch):
    # a states file whose optimizer is MXNet's RMSProp, written without MXNet: a stand-in class
    # pickled (protocol 0: text) under a module of its own, then renamed to MXNet's module
    module = types.ModuleType("optstate_stand_in")
    RMSProp = type("RMSProp", (), {"__module__": "optstate_stand_in"})
    module.RMSProp = RMSProp
    monkeypatch.setitem(sys.modules, "optstate_stand_in", module)
    opt = RMSProp()
    opt.__dict__.update(lr=0.01, wd=0.0, rescale_grad=1.0, num_update=1,
                        _index_update_count={}, lr_scheduler=None)
    data = pickle.dumps(({}, opt), protocol=0)
    assert b"coptstate_stand_in\nRMSProp\n" in data
    path = tmp_path / "rmsprop.states"
    path.write_bytes(data.replace(b"coptstate_stand_in\n", b"cmxnet.optimizer.optimizer\n"))
    states = load_trainer_states(path)
    assert states.optimizer == "rmsprop" and states.hyperparameters["lr"] == 0.01
    with pytest.raises(OptStateError, match=r"'rmsprop'.*supported: sgd, nag, adam"):
        to_torch_optimizer(states, [torch.nn.Parameter(torch.zeros(2))])
