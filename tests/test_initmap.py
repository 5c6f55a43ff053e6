"""torch_init_like_mxnet draws what MXNet's initialisers draw, and sets what Gluon sets."""

import math

import mxnet as mx
import numpy as np
import pytest
import torch
from mxnet import gluon
from torch import nn

from sidebyside import seeding
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


class Scaled(nn.Linear):
    """A known layer with a parameter its Gluon twin does not have."""

    def __init__(self):
        super().__init__(3, 4)
        self.scale = nn.Parameter(torch.ones(4))


class OwnParameters(nn.Module):
    """Parameters registered on a module of one's own (Gluon: params.get without init=)."""

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.full((40, 30), 7.0))
        self.bias = nn.Parameter(torch.full((2000,), 7.0))


@pytest.mark.parametrize("module, match", [
    (nn.Sequential(nn.Linear(3, 4), OwnParameters()),
     r"'1.bias' \(OwnParameters, shape \(2000,\)\).*Xavier needs at least 2 dimensions"),
    (Scaled(), r"'scale' \(Scaled, shape \(4,\)\): a Scaled is initialised as its Gluon "
               r"twin, which has no such parameter"),
    (nn.MultiheadAttention(8, 2), r"'in_proj_bias' \(MultiheadAttention, shape \(24,\)\)"),
    (nn.LazyLinear(4), r"'weight' is not initialised yet"),
])
def test_unknown_parameters_are_named_and_nothing_changes(module, match):
    before = {k: v.clone() for k, v in module.state_dict().items()
              if not isinstance(v, nn.parameter.UninitializedParameter)}
    with pytest.raises(UnsupportedParameter, match=match):
        torch_init_like_mxnet(module, mx.init.Xavier())
    for k, v in before.items():
        assert torch.equal(module.state_dict()[k], v), k


# ------------------------------------------------- every supported layer against its twin
def rnn_pair(kind, **kw):
    """(PyTorch layer, its Gluon twin) for nn.LSTM / GRU / RNN and their cells."""
    torch_kw = {k: v for k, v in kw.items() if k != "projection_size"}
    if "projection_size" in kw:
        torch_kw["proj_size"] = kw["projection_size"]
    if kind.endswith("Cell"):
        return getattr(nn, kind)(24, 16), getattr(gluon.rnn, kind)(16, input_size=24)
    return (getattr(nn, kind)(24, 16, **torch_kw),
            getattr(gluon.rnn, kind)(16, input_size=24, **kw))


PAIRS = {
    "Embedding": lambda: (nn.Embedding(1000, 16), gluon.nn.Embedding(1000, 16)),
    "LSTM 2 layers, bidirectional": lambda: rnn_pair("LSTM", num_layers=2, bidirectional=True),
    "LSTM projection": lambda: rnn_pair("LSTM", projection_size=8),
    "GRU": lambda: rnn_pair("GRU"),
    "RNN": lambda: rnn_pair("RNN"),
    "LSTMCell": lambda: rnn_pair("LSTMCell"),
    "GRUCell": lambda: rnn_pair("GRUCell"),
    "RNNCell": lambda: rnn_pair("RNNCell"),
    "ConvTranspose2d": lambda: (nn.ConvTranspose2d(16, 8, 3),
                                gluon.nn.Conv2DTranspose(8, 3, in_channels=16)),
    "BatchNorm1d": lambda: (nn.BatchNorm1d(8), gluon.nn.BatchNorm(in_channels=8)),
    "LayerNorm": lambda: (nn.LayerNorm(8), gluon.nn.LayerNorm(in_channels=8)),
    "InstanceNorm2d": lambda: (nn.InstanceNorm2d(8, affine=True),
                               gluon.nn.InstanceNorm(in_channels=8)),
    # Gluon 1.9.1's GroupNorm has one gamma and beta per group, PyTorch's one per channel
    "GroupNorm": lambda: (nn.GroupNorm(2, 8), gluon.nn.GroupNorm(2)),
    "PReLU": lambda: (nn.PReLU(3, init=0.1), gluon.nn.PReLU(in_channels=3)),
}


def gluon_values(block):
    if isinstance(block, gluon.nn.GroupNorm):
        block(mx.nd.ones((2, 8, 3, 3)))          # its parameters' shapes are deferred
    return [p.data().asnumpy() for p in block.collect_params().values()]


@pytest.mark.parametrize("init", [mx.init.Xavier("gaussian", "in", 2),
                                  mx.init.Xavier("uniform", "out", 3)],
                         ids=["gaussian_in", "uniform_out"])
@pytest.mark.parametrize("pair", PAIRS, ids=list(PAIRS))
def test_each_layer_is_initialised_as_gluon_initialises_its_twin(pair, init):
    """Parameter by parameter (both list them in the same order), PyTorch's values against
    MXNet's own draw for the Gluon twin: the same constant, or the same law — the bound or
    the std MXNet's formula gives for that shape, both samples inside it, and a two-sample
    KS distance below its critical value. 'in' and 'out' tell a swapped fan apart."""
    seeding.seed_everything(3)
    pt, g = PAIRS[pair]()
    g.initialize(init)
    done = torch_init_like_mxnet(pt, init)
    pt_values = [(k, v.detach().numpy()) for k, v in pt.state_dict().items()
                 if "num_batches" not in k]
    mx_values = gluon_values(g)
    assert len(pt_values) == len(mx_values), pair
    for (name, t), m in zip(pt_values, mx_values):
        kind, value = done[name]
        if np.all(m == m.flat[0]):              # Gluon's layer set a constant of its own
            assert kind == "constant" and value == m.flat[0] and (t == value).all(), name
            continue
        assert t.shape == m.shape and (kind, value) == weight_law(init, m.shape), name
        n = t.size
        if kind == "uniform":
            for sample in (t, m):
                assert (1 - 21 / n) * value < np.abs(sample).max() <= value * (1 + 1e-6), name
        else:
            for sample in (t, m):
                assert abs(sample.std() / value - 1) < 5 / math.sqrt(2 * n), name
        assert ks_distance(t, m) < ks_critical(n, n), name


def test_the_layer_test_has_power():
    """The test above tells Uniform(0.07) (Gluon's default) and a swapped fan from MXNet's
    Xavier for an Embedding (the plausible mistakes), and a padding row left drawn."""
    init = mx.init.Xavier("gaussian", "in", 2)
    mx.random.seed(4)
    g = gluon.nn.Embedding(1000, 16)
    g.initialize(init)
    m = g.weight.data().asnumpy()
    torch.manual_seed(4)
    for wrong in (torch.empty(1000, 16).uniform_(-0.07, 0.07),
                  torch.empty(1000, 16).normal_(0, math.sqrt(2 / 1000))):
        assert ks_distance(wrong.numpy(), m) > ks_critical(m.size, m.size)
        assert abs(wrong.std().item() / math.sqrt(2 / 16) - 1) > 5 / math.sqrt(2 * m.size)


@pytest.mark.parametrize("kind", [nn.Embedding, nn.EmbeddingBag])
def test_a_padding_row_stays_zero(kind):
    torch.manual_seed(5)
    emb = kind(50, 8, padding_idx=3)
    done = torch_init_like_mxnet(nn.Sequential(emb), mx.init.Uniform(0.1))
    w = emb.weight.detach().numpy()
    assert done["0.weight"] == ("uniform", 0.1) and done["0.weight[3]"] == ("constant", 0.0)
    assert not w[3].any()
    others = np.delete(w, 3, axis=0)
    assert (others != 0).all() and np.abs(others).max() <= 0.1 * (1 + 1e-6)


def test_parameters_of_other_modules_get_the_draw_whatever_their_name():
    """Gluon draws a parameter declared without init= from initialize()'s initialiser, a
    'bias' too; Xavier refuses it (MXNet raises), see test_unknown_parameters_..."""
    class GluonOwn(gluon.Block):
        def __init__(self):
            super().__init__()
            self.bias = self.params.get("bias", shape=(2000,))

    mx.random.seed(6)
    g = GluonOwn()
    g.initialize(mx.init.Uniform(0.5))
    torch.manual_seed(6)
    own = OwnParameters()
    done = torch_init_like_mxnet(own, mx.init.Uniform(0.5))
    t, m = own.bias.detach().numpy(), g.bias.data().asnumpy()
    assert done["bias"] == done["weight"] == ("uniform", 0.5)
    for sample in (t, m):
        assert (1 - 21 / 2000) * 0.5 < np.abs(sample).max() <= 0.5 * (1 + 1e-6)
    assert ks_distance(t, m) < ks_critical(2000, 2000)
    assert np.abs(own.weight.detach().numpy()).max() <= 0.5
    with pytest.raises(ValueError, match="Xavier initializer cannot be applied to vector"):
        GluonOwn().initialize(mx.init.Xavier())


def test_attention_parameters_of_their_own_get_the_draw_and_its_linear_a_zero_bias():
    """MultiheadAttention registers in_proj_weight / in_proj_bias itself (drawn, as Gluon
    draws a parameter without init=); its out_proj is a Linear (bias 0)."""
    torch.manual_seed(7)
    mha = nn.MultiheadAttention(32, 4)
    done = torch_init_like_mxnet(mha, mx.init.Uniform(0.2))
    assert done["in_proj_weight"] == done["in_proj_bias"] == done["out_proj.weight"] == (
        "uniform", 0.2)
    assert done["out_proj.bias"] == ("constant", 0.0) and not mha.out_proj.bias.any()
    bias = mha.in_proj_bias.detach().numpy()
    assert (1 - 21 / bias.size) * 0.2 < np.abs(bias).max() <= 0.2 * (1 + 1e-6)


def test_a_tied_weight_is_drawn_once_with_its_owners_law_and_stays_tied():
    """A language model's tie (decoder.weight = encoder.weight): one draw, named as
    parameters() names it, the tie kept, the padding row still zero, and the values
    distributed as MXNet draws the shared table of the tied Gluon twin."""
    class Tied(nn.Module):
        def __init__(self):
            super().__init__()
            self.encoder = nn.Embedding(1000, 16, padding_idx=0)
            self.decoder = nn.Linear(16, 1000)
            self.decoder.weight = self.encoder.weight

    class GluonTied(gluon.Block):
        def __init__(self):
            super().__init__()
            self.encoder = gluon.nn.Embedding(1000, 16)
            self.decoder = gluon.nn.Dense(1000, in_units=16, params=self.encoder.params)

    init = mx.init.Xavier("gaussian", "in", 2)
    seeding.seed_everything(6)
    pt, g = Tied(), GluonTied()
    g.initialize(init)
    done = torch_init_like_mxnet(pt, init)
    assert pt.decoder.weight is pt.encoder.weight
    assert [k for k in done if "weight" in k] == ["encoder.weight", "encoder.weight[0]"]
    assert list(done) == ["encoder.weight", "decoder.bias", "encoder.weight[0]"]
    assert done["encoder.weight"] == weight_law(init, (1000, 16)) == ("normal", math.sqrt(2 / 16))
    w, m = pt.encoder.weight.detach().numpy(), g.encoder.weight.data().asnumpy()
    assert not w[0].any() and not pt.decoder.bias.detach().numpy().any()
    rest = np.delete(w, 0, axis=0)
    assert ks_distance(rest, m[1:]) < ks_critical(rest.size, m[1:].size)
