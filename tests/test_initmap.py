"""torch_init_like_mxnet draws what MXNet's initialisers draw, and sets what Gluon sets."""

import math

import mxnet as mx
import numpy as np
import pytest
import torch
from mxnet import gluon
from torch import nn

from sidebyside.initmap import (UnsupportedInitializer, UnsupportedParameter,
                                torch_init_like_mxnet, weight_law)

DENSE = (256, 784)            # fan_in 784, fan_out 256
CONV = (64, 16, 3, 3)         # fan_in 144, fan_out 576


def ks_distance(a, b):
    a, b = np.sort(a.ravel()), np.sort(b.ravel())
    both = np.concatenate([a, b])
    return np.abs(np.searchsorted(a, both, "right") / a.size
                  - np.searchsorted(b, both, "right") / b.size).max()


def ks_critical(n, m, alpha=1e-6):
    return math.sqrt(-math.log(alpha / 2) * (n + m) / (2 * n * m))


@pytest.mark.parametrize("init, shape, expected", [
    (mx.init.Xavier(), DENSE, ("uniform", math.sqrt(6 / (784 + 256)))),
    (mx.init.Xavier(magnitude=2.24), CONV, ("uniform", math.sqrt(2.24 / ((144 + 576) / 2)))),
    (mx.init.Xavier("gaussian", "in", 2), CONV, ("normal", math.sqrt(2 / 144))),
    (mx.init.Xavier("uniform", "out", 3), DENSE, ("uniform", math.sqrt(3 / 256))),
    (mx.init.MSRAPrelu(), DENSE, ("normal", math.sqrt(2 / 1.0625 / 520))),
    (mx.init.MSRAPrelu("in", 0), CONV, ("normal", math.sqrt(2 / 144))),
    (mx.init.Uniform(0.1), CONV, ("uniform", 0.1)),
    (mx.init.Normal(0.02), DENSE, ("normal", 0.02)),
    (mx.init.Uniform(), DENSE, ("uniform", 0.07)),
    (mx.init.Zero(), DENSE, ("constant", 0.0)),
    (mx.init.One(), DENSE, ("constant", 1.0)),
    (mx.init.Constant(0.5), DENSE, ("constant", 0.5)),
    ("xavier", DENSE, ("uniform", math.sqrt(6 / (784 + 256)))),
])
def test_weight_law_follows_mxnets_formula(init, shape, expected):
    kind, value = weight_law(init, shape)
    assert kind == expected[0] and value == pytest.approx(expected[1], rel=1e-12)


@pytest.mark.parametrize("shape", [DENSE, CONV], ids=["linear", "conv"])
@pytest.mark.parametrize("init", [mx.init.Xavier(magnitude=2.24),
                                  mx.init.Xavier("uniform", "in", 9), mx.init.Uniform(0.1)],
                         ids=["xavier2.24", "in9", "uniform"])
def test_uniform_draws_fill_their_bound(init, shape):
    torch.manual_seed(0)
    layer = nn.Linear(*shape[::-1]) if len(shape) == 2 else nn.Conv2d(16, 64, 3)
    done = torch_init_like_mxnet(layer, init)
    w = layer.weight.detach().numpy()
    kind, bound = done["weight"]
    assert kind == "uniform" and bound == weight_law(init, shape)[1]
    assert 0.995 * bound < np.abs(w).max() <= bound * (1 + 1e-6)   # 9 216 draws at least
    assert abs(w.var() / (bound ** 2 / 3) - 1) < 5 * 3 * math.sqrt(4 / 45) / math.sqrt(w.size)
    assert not layer.bias.detach().numpy().any()


@pytest.mark.parametrize("shape", [DENSE, CONV], ids=["linear", "conv"])
@pytest.mark.parametrize("init", [mx.init.Xavier("gaussian", "out", 3), mx.init.MSRAPrelu(),
                                  mx.init.Normal(0.02)], ids=["out3", "msra", "normal"])
def test_normal_draws_have_their_std(init, shape):
    torch.manual_seed(1)
    layer = nn.Linear(*shape[::-1]) if len(shape) == 2 else nn.Conv2d(16, 64, 3)
    torch_init_like_mxnet(layer, init)
    w = layer.weight.detach().numpy()
    std = weight_law(init, shape)[1]
    assert abs(w.std() / std - 1) < 5 / math.sqrt(2 * w.size)      # 5 standard errors
    assert abs(w.mean()) < 5 * std / math.sqrt(w.size)


@pytest.mark.parametrize("init", [mx.init.Xavier(magnitude=2.24), mx.init.MSRAPrelu("in", 0.25)],
                         ids=["xavier2.24", "msra_in"])
def test_the_draws_are_distributed_as_mxnets(init):
    """Two-sample KS test against MXNet's own draws for the same Conv2D weight."""
    mx.random.seed(2)
    torch.manual_seed(2)
    g = gluon.nn.Conv2D(64, 3, in_channels=16)
    g.initialize(init)
    pt = nn.Conv2d(16, 64, 3)
    torch_init_like_mxnet(pt, init)
    a, b = g.weight.data().asnumpy(), pt.weight.detach().numpy()
    assert ks_distance(a, b) < ks_critical(a.size, b.size)
    # the test has power: the same law 25 % wider is told apart
    kind, scale = weight_law(init, a.shape)
    wider = torch.empty(a.shape)
    if kind == "uniform":
        nn.init.uniform_(wider, -1.25 * scale, 1.25 * scale)
    else:
        nn.init.normal_(wider, 0, 1.25 * scale)
    assert ks_distance(a, wider.numpy()) > ks_critical(a.size, b.size)


def test_biases_norm_layers_and_running_statistics_are_set_as_gluon_sets_them():
    net = nn.Sequential(nn.Conv2d(3, 8, 3), nn.BatchNorm2d(8), nn.Flatten(),
                        nn.Linear(8, 4), nn.LayerNorm(4), nn.GroupNorm(2, 4))
    with torch.no_grad():
        for p in net.parameters():
            p.fill_(7.0)
    net[1].running_mean.fill_(3.0)
    net[1].running_var.fill_(5.0)
    net[1].num_batches_tracked.fill_(9)
    done = torch_init_like_mxnet(net, mx.init.Xavier())
    assert done["0.bias"] == done["3.bias"] == ("constant", 0.0)
    assert done["1.weight"] == done["4.weight"] == done["5.weight"] == ("constant", 1.0)
    assert done["1.bias"] == done["4.bias"] == done["5.bias"] == ("constant", 0.0)
    assert done["1.running_mean"] == ("constant", 0.0)
    assert done["1.running_var"] == ("constant", 1.0)
    assert done["0.weight"][0] == done["3.weight"][0] == "uniform"
    for name in ("0.bias", "1.bias", "3.bias", "4.bias", "5.bias", "1.running_mean"):
        assert not net.state_dict()[name].any(), name
    for name in ("1.weight", "4.weight", "5.weight", "1.running_var"):
        assert (net.state_dict()[name] == 1).all(), name
    assert net[1].num_batches_tracked.item() == 0
    assert np.abs(net[0].weight.detach().numpy()).max() <= done["0.weight"][1] * (1 + 1e-6)


def test_gluon_sets_the_same_biases_and_norm_parameters():
    """The rules above are Gluon's layers' own initialisers, which win over initialize()'s."""
    g = gluon.nn.HybridSequential()
    g.add(gluon.nn.Conv2D(8, 3, in_channels=3), gluon.nn.BatchNorm(in_channels=8),
          gluon.nn.Dense(4, in_units=8), gluon.nn.LayerNorm(in_channels=4))
    g.initialize(mx.init.Uniform(0.5))
    values = {k: v.data().asnumpy() for k, v in g.collect_params().items()}
    for k, v in values.items():
        if k.endswith(("bias", "beta", "running_mean")):
            assert not v.any(), k
        elif k.endswith(("gamma", "running_var")):
            assert (v == 1).all(), k
        else:
            assert k.endswith("weight") and 0 < np.abs(v).max() <= 0.5, k


def test_embedding_and_recurrent_weights_follow_the_initialiser():
    net = nn.ModuleDict({"emb": nn.Embedding(100, 16), "lstm": nn.LSTM(16, 8)})
    done = torch_init_like_mxnet(net, mx.init.Xavier("gaussian", "in", 2))
    assert done["emb.weight"] == ("normal", pytest.approx(math.sqrt(2 / 16)))
    assert done["lstm.weight_ih_l0"] == ("normal", pytest.approx(math.sqrt(2 / 16)))
    assert done["lstm.weight_hh_l0"] == ("normal", pytest.approx(math.sqrt(2 / 8)))
    assert done["lstm.bias_ih_l0"] == done["lstm.bias_hh_l0"] == ("constant", 0.0)


@pytest.mark.parametrize("init, error, match", [
    (mx.init.Orthogonal(), UnsupportedInitializer,
     r"'orthogonal' \(Orthogonal\) has no exact counterpart.*supported: Xavier, MSRAPrelu"),
    (mx.init.Bilinear(), UnsupportedInitializer, r"'bilinear'"),
    (mx.init.Xavier(factor_type="sum"), UnsupportedInitializer, r"factor_type 'sum'"),
    (mx.init.Xavier(rnd_type="normal"), UnsupportedInitializer, r"rnd_type 'normal'"),
    (mx.init.Constant(mx.nd.ones((4, 3))), UnsupportedInitializer, r"Constant with a number"),
    (mx.init.Mixed([".*"], [mx.init.One()]), TypeError, r"got Mixed"),
    (nn.init.xavier_uniform_, TypeError, r"expected an mx.init initialiser"),
    ("no_such_initialiser", UnsupportedInitializer, r"not an mx.init initialiser name"),
])
def test_unsupported_initialisers_are_refused_and_nothing_changes(init, error, match):
    layer = nn.Linear(3, 4)
    before = {k: v.clone() for k, v in layer.state_dict().items()}
    with pytest.raises(error, match=match):
        torch_init_like_mxnet(layer, init)
    for k, v in layer.state_dict().items():
        assert torch.equal(v, before[k]), k


def test_a_subclass_is_not_mistaken_for_its_parent():
    class MyXavier(mx.init.Xavier):
        def _init_weight(self, name, arr):
            arr[:] = 1.0

    with pytest.raises(UnsupportedInitializer, match="'myxavier'"):
        torch_init_like_mxnet(nn.Linear(3, 4), MyXavier())


@pytest.mark.parametrize("module, match", [
    (nn.Sequential(nn.Linear(3, 4), nn.PReLU()), r"'1.weight' \(PReLU, shape \(1,\)\)"),
    (nn.LazyLinear(4), r"'weight' is not initialised yet"),
])
def test_unknown_parameters_are_named_and_nothing_changes(module, match):
    before = {k: v.clone() for k, v in module.state_dict().items()
              if not isinstance(v, nn.parameter.UninitializedParameter)}
    with pytest.raises(UnsupportedParameter, match=match):
        torch_init_like_mxnet(module, mx.init.Xavier())
    for k, v in before.items():
        assert torch.equal(module.state_dict()[k], v), k
