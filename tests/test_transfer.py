"""Weight copy between PyTorch and Gluon: outputs agree, mismatches name the layer."""

import copy
import warnings
import zlib
from collections import Counter

import mxnet as mx
import numpy as np
import pytest
import torch
from mxnet.gluon import nn as gnn

from sidebyside import transfer


def _torch_cnn(classes=10):
    return torch.nn.Sequential(
        torch.nn.Conv2d(1, 4, 3), torch.nn.BatchNorm2d(4), torch.nn.ReLU(),
        torch.nn.Flatten(), torch.nn.Linear(4 * 6 * 6, classes))


def _gluon_cnn(classes=10, bn=True):
    net = gnn.HybridSequential()
    net.add(gnn.Conv2D(4, 3))
    if bn:
        net.add(gnn.BatchNorm())
    net.add(gnn.Activation("relu"), gnn.Dense(classes))
    net.initialize()
    return net


@pytest.fixture
def x():
    return np.random.default_rng(0).random((2, 1, 8, 8), dtype=np.float32)


def _perturb_bn(pt):
    with torch.no_grad():
        bn = pt[1]
        bn.running_mean.uniform_(-1, 1)
        bn.running_var.uniform_(0.5, 2)
        bn.weight.uniform_(0.5, 2)
        bn.bias.uniform_(-1, 1)


def test_torch_to_gluon_gives_the_same_outputs_before_any_forward(x):
    torch.manual_seed(0)
    pt = _torch_cnn().eval()
    _perturb_bn(pt)
    g = _gluon_cnn()  # deferred: shapes still unknown
    pairs = transfer.torch_to_gluon(pt, g)
    assert pairs == [("0", "0"), ("1", "1"), ("4", "3")]
    # readable before the first forward pass, and equal to the source
    np.testing.assert_array_equal(g[0].weight.data().asnumpy(), pt[0].weight.detach().numpy())
    want = pt(torch.from_numpy(x)).detach().numpy()
    got = g(mx.nd.array(x)).asnumpy()
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(g[1].running_var.data().asnumpy(),
                                  pt[1].running_var.numpy())


def test_gluon_to_torch_round_trip(x):
    g = _gluon_cnn()
    g(mx.nd.array(x))  # finish deferred initialisation
    pt = _torch_cnn().eval()
    assert transfer.gluon_to_torch(g, pt) == [("0", "0"), ("1", "1"), ("4", "3")]
    np.testing.assert_allclose(pt(torch.from_numpy(x)).detach().numpy(),
                               g(mx.nd.array(x)).asnumpy(), rtol=1e-5, atol=1e-5)


def test_gluon_to_torch_refuses_deferred_parameters():
    with pytest.raises(RuntimeError, match="forward pass first"):
        transfer.gluon_to_torch(_gluon_cnn(), _torch_cnn())


def test_uninitialised_gluon_net_is_named():
    g = gnn.Dense(3, in_units=2)
    with pytest.raises(RuntimeError, match="initialize"):
        transfer.torch_to_gluon(torch.nn.Linear(2, 3), g)


def test_missing_layer_names_the_mismatch():
    with pytest.raises(transfer.ArchitectureMismatch,
                       match=r"layer #1: PyTorch '1' is BatchNorm2d .* Gluon '2' is Dense"):
        transfer.torch_to_gluon(_torch_cnn(), _gluon_cnn(bn=False))


def test_wrong_width_names_layer_and_shapes():
    with pytest.raises(transfer.ArchitectureMismatch,
                       match=r"PyTorch '4'.weight has shape \(10, 144\).*declared \(11, 0\)"):
        transfer.torch_to_gluon(_torch_cnn(), _gluon_cnn(classes=11))


def test_mismatch_copies_nothing():
    pt, g = _torch_cnn(), _gluon_cnn(classes=11)
    g(mx.nd.ones((1, 1, 8, 8)))
    before = g[0].weight.data().asnumpy().copy()
    with pytest.raises(transfer.ArchitectureMismatch):
        transfer.torch_to_gluon(pt, g)
    np.testing.assert_array_equal(g[0].weight.data().asnumpy(), before)


def test_extra_layers_are_listed():
    pt = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.Linear(3, 2))
    g = gnn.Dense(3)
    g.initialize()
    with pytest.raises(transfer.ArchitectureMismatch, match="unmatched PyTorch layer.*'1'"):
        transfer.pair_layers(pt, g)


def test_bias_on_one_side_only():
    g = gnn.Dense(3, use_bias=False, in_units=4)
    g.initialize()
    with pytest.raises(transfer.ArchitectureMismatch, match="'bias' exists on the PyTorch"):
        transfer.torch_to_gluon(torch.nn.Linear(4, 3), g)


def test_unknown_layer_kinds_are_refused():
    g = gnn.PReLU()
    g.initialize()
    with pytest.raises(transfer.ArchitectureMismatch, match="PReLU"):
        transfer.pair_layers(torch.nn.Linear(1, 1), g)
    with pytest.raises(transfer.ArchitectureMismatch, match="PReLU"):
        transfer.pair_layers(torch.nn.PReLU(), gnn.Dense(1))


def test_wrong_argument_types():
    with pytest.raises(TypeError, match="torch.nn.Module"):
        transfer.pair_layers("net", gnn.Dense(1))
    with pytest.raises(TypeError, match="gluon.Block"):
        transfer.pair_layers(torch.nn.Linear(1, 1), object())


@pytest.mark.parametrize("torch_conv, gluon_conv", [
    (lambda: torch.nn.Conv2d(3, 4, 3),
     lambda: gnn.Conv2D(4, 3, layout="NHWC", in_channels=3)),
    (lambda: torch.nn.Conv3d(3, 4, 3),
     lambda: gnn.Conv3D(4, 3, layout="NDHWC", in_channels=3)),
])
def test_channels_last_gluon_convolution_is_refused(torch_conv, gluon_conv):
    # (out, in, k, k) and (out, k, k, in) coincide when in == k: without the layout check
    # the copy would succeed and be wrong.
    pt, g = torch_conv(), gluon_conv()
    g.initialize()
    assert tuple(g.weight.shape) == tuple(pt.weight.shape)
    before = g.weight.data().asnumpy().copy()
    with pytest.raises(transfer.ArchitectureMismatch, match=r"layout='N.*C'.*channels-first"):
        transfer.torch_to_gluon(pt, g)
    with pytest.raises(transfer.ArchitectureMismatch, match="layout="):
        transfer.gluon_to_torch(g, pt)
    np.testing.assert_array_equal(g.weight.data().asnumpy(), before)


def test_channels_first_layout_given_explicitly_is_accepted():
    pt = torch.nn.Conv1d(2, 3, 3)
    g = gnn.Conv1D(3, 3, layout="NCW")
    g.initialize()
    assert transfer.torch_to_gluon(pt, g) == [("Conv1d", "Conv1D")]
    x = np.random.default_rng(1).random((2, 2, 7), dtype=np.float32)
    np.testing.assert_allclose(g(mx.nd.array(x)).asnumpy(),
                               pt(torch.from_numpy(x)).detach().numpy(), rtol=1e-5, atol=1e-6)


def test_model_zoo_alexnet_pairs_with_torchvision():
    # model-zoo networks: no weights needed (and none downloaded) to pair the layers
    import torchvision

    pt = torchvision.models.alexnet(weights=None)
    g = mx.gluon.model_zoo.vision.alexnet()
    # the convolutions match by name (features.0, .3, .6, .8, .10 ⇄ features.0, .2, .4, .5,
    # .6); Gluon keeps its first two dense layers in `features`, so those are paired by order
    with pytest.warns(transfer.PairingWarning,
                      match=r"'classifier.1' -> 'features.9', 'classifier.4' -> 'features.11', "
                            r"'classifier.6' -> 'output'\. .*by='order'.*mapping="):
        pairs = transfer.pair_layers(pt, g)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert transfer.pair_layers(pt, g, by="order") == pairs
    assert [p.kind for p in pairs] == ["conv2d"] * 5 + ["dense"] * 3
    assert [p.torch_name for p in pairs][-3:] == ["classifier.1", "classifier.4",
                                                  "classifier.6"]


# --- pairing by name ---------------------------------------------------------------------

class _TorchNet(torch.nn.Module):
    """Linear layers registered in the order of ``layers`` ({name: (in, out)}), applied in the
    order of ``flow`` with a ReLU in between."""

    def __init__(self, layers, flow):
        super().__init__()
        for name, (n_in, n_out) in layers.items():
            setattr(self, name, torch.nn.Linear(n_in, n_out))
        self.flow = flow

    def forward(self, x):
        for i, name in enumerate(self.flow):
            x = getattr(self, name)(torch.relu(x) if i else x)
        return x


class _GluonNet(gnn.Block):
    """The same with Dense layers."""

    def __init__(self, layers, flow):
        super().__init__()
        for name, (n_in, n_out) in layers.items():
            setattr(self, name, gnn.Dense(n_out, in_units=n_in))
        self.flow = flow

    def forward(self, x):
        for i, name in enumerate(self.flow):
            x = getattr(self, name)(mx.nd.relu(x) if i else x)
        return x


def _outputs(pt, g, x):
    return (pt(torch.from_numpy(x)).detach().numpy(),
            g(mx.nd.array(x, dtype=x.dtype)).asnumpy())


@pytest.fixture
def x4():
    return np.random.default_rng(2).standard_normal((3, 4)).astype(np.float32)


@pytest.fixture
def swapped():
    """PyTorch registers a, b; Gluon registers b, a; both compute b(relu(a(x)))."""
    torch.manual_seed(0)
    pt = _TorchNet({"a": (4, 4), "b": (4, 4)}, flow=("a", "b"))
    g = _GluonNet({"b": (4, 4), "a": (4, 4)}, flow=("a", "b"))
    g.initialize()
    return pt, g


def test_swapped_registration_order_is_paired_by_name(swapped, x4):
    pt, g = swapped
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert transfer.torch_to_gluon(pt, g) == [("a", "a"), ("b", "b")]
    np.testing.assert_array_equal(g.a.weight.data().asnumpy(), pt.a.weight.detach().numpy())
    want, got = _outputs(pt, g, x4)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
    assert transfer.torch_to_gluon(pt, g, by="name") == [("a", "a"), ("b", "b")]


def test_swapped_registration_order_back_to_torch(swapped, x4):
    pt, g = swapped
    assert transfer.gluon_to_torch(g, pt) == [("a", "a"), ("b", "b")]
    want, got = _outputs(pt, g, x4)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


def test_by_order_pairs_in_registration_order_as_asked(swapped, x4):
    pt, g = swapped
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # an explicit choice: no warning
        assert transfer.torch_to_gluon(pt, g, by="order") == [("a", "b"), ("b", "a")]
    np.testing.assert_array_equal(g.b.weight.data().asnumpy(), pt.a.weight.detach().numpy())
    want, got = _outputs(pt, g, x4)
    assert not np.allclose(got, want, atol=1e-3)   # which is why it is not the default


@pytest.fixture
def renamed():
    """The same network, with different attribute names on each side."""
    torch.manual_seed(1)
    pt = _TorchNet({"fc1": (4, 5), "fc2": (5, 3)}, flow=("fc1", "fc2"))
    g = _GluonNet({"dense_a": (4, 5), "dense_b": (5, 3)}, flow=("dense_a", "dense_b"))
    g.initialize()
    return pt, g


def test_different_names_warn_and_pair_by_order(renamed, x4):
    pt, g = renamed
    with pytest.warns(transfer.PairingWarning,
                      match=r"'fc1' -> 'dense_a', 'fc2' -> 'dense_b'.*by='order'.*mapping="):
        assert transfer.torch_to_gluon(pt, g) == [("fc1", "dense_a"), ("fc2", "dense_b")]
    want, got = _outputs(pt, g, x4)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


def test_different_names_are_refused_by_name(renamed):
    pt, g = renamed
    before = g.dense_a.weight.data().asnumpy().copy()
    with pytest.raises(transfer.ArchitectureMismatch,
                       match=r"PyTorch only: 'fc1', 'fc2'; Gluon only: 'dense_a', 'dense_b'.*"
                             r"mapping="):
        transfer.torch_to_gluon(pt, g, by="name")
    np.testing.assert_array_equal(g.dense_a.weight.data().asnumpy(), before)


def test_explicit_mapping(renamed, x4):
    pt, g = renamed
    mapping = {"fc2": "dense_b", "fc1": "dense_a"}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert transfer.torch_to_gluon(pt, g, mapping=mapping) == [("fc1", "dense_a"),
                                                                  ("fc2", "dense_b")]
        want, got = _outputs(pt, g, x4)
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
        assert transfer.gluon_to_torch(g, pt, mapping=mapping) == [("fc1", "dense_a"),
                                                                  ("fc2", "dense_b")]


@pytest.mark.parametrize("mapping, message", [
    ({"fc1": "dense_a"}, r"PyTorch layer\(s\) not in the mapping: 'fc2'; "
                         r"Gluon layer\(s\) not in the mapping: 'dense_b'"),
    ({"fc1": "dense_a", "fc3": "dense_b"}, r"unknown PyTorch layer\(s\): 'fc3'"),
    ({"fc1": "dense_a", "fc2": "dense_c"}, r"unknown Gluon layer\(s\): 'dense_c'"),
    ({"fc1": "dense_a", "fc2": "dense_a"}, r"Gluon layer\(s\) given more than once: 'dense_a'"),
])
def test_bad_mapping_is_refused(renamed, mapping, message):
    pt, g = renamed
    with pytest.raises(transfer.ArchitectureMismatch, match=message + ".*PyTorch layers: "
                       "'fc1', 'fc2'; Gluon layers: 'dense_a', 'dense_b'"):
        transfer.torch_to_gluon(pt, g, mapping=mapping)


def test_explicit_mapping_is_still_checked(renamed):
    pt, g = renamed
    with pytest.raises(transfer.ArchitectureMismatch, match=r"PyTorch 'fc1'.weight has shape"):
        transfer.torch_to_gluon(pt, g, mapping={"fc1": "dense_b", "fc2": "dense_a"})


def test_bad_pairing_arguments():
    with pytest.raises(ValueError, match="by must be"):
        transfer.pair_layers(torch.nn.Linear(1, 1), gnn.Dense(1), by="position")
    with pytest.raises(ValueError, match="either mapping= or by="):
        transfer.pair_layers(torch.nn.Linear(1, 1), gnn.Dense(1), by="name",
                             mapping={"Linear": "Dense"})


def test_sequential_positions_are_compared_by_rank():
    # PyTorch counts the ReLU as a layer ('0', '2'); Gluon folds it into Dense ('0', '1')
    torch.manual_seed(2)
    pt = torch.nn.Sequential(torch.nn.Linear(6, 8), torch.nn.ReLU(), torch.nn.Linear(8, 3))
    g = gnn.Sequential()
    g.add(gnn.Dense(8, activation="relu"), gnn.Dense(3))
    g.initialize()
    x = np.random.default_rng(3).standard_normal((2, 6)).astype(np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert transfer.torch_to_gluon(pt, g, by="name") == [("0", "0"), ("2", "1")]
        assert transfer.torch_to_gluon(pt, g) == [("0", "0"), ("2", "1")]
    want, got = _outputs(pt, g, x)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


class _TorchNested(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.features = torch.nn.Sequential(
            torch.nn.Conv2d(1, 3, 3), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
            torch.nn.Conv2d(3, 4, 3), torch.nn.ReLU())
        self.head = torch.nn.Linear(4, 2)

    def forward(self, x):
        return self.head(self.features(x).mean(dim=(2, 3)))


class _GluonNested(gnn.Block):
    def __init__(self):
        super().__init__()
        self.head = gnn.Dense(2)        # registered first: the order differs from PyTorch's
        self.features = gnn.Sequential()
        self.features.add(gnn.Conv2D(3, 3, activation="relu"), gnn.MaxPool2D(2),
                          gnn.Conv2D(4, 3, activation="relu"))

    def forward(self, x):
        return self.head(self.features(x).mean(axis=(2, 3)))


def test_nested_containers_are_paired_by_name(x):
    torch.manual_seed(3)
    pt, g = _TorchNested(), _GluonNested()
    g.initialize()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert transfer.torch_to_gluon(pt, g) == [
            ("features.0", "features.0"), ("features.3", "features.2"), ("head", "head")]
    want, got = _outputs(pt, g, x)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


# --- dtypes ------------------------------------------------------------------------------

def test_float64_torch_into_float32_gluon_is_refused_and_copies_nothing():
    pt = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Linear(4, 2))
    pt[1].double()   # the first layer alone would copy fine: it must not be copied either
    g = gnn.Sequential()
    g.add(gnn.Dense(4, in_units=3), gnn.Dense(2, in_units=4))
    g.initialize()
    before = [p.data().asnumpy().copy() for p in g.collect_params().values()]
    with pytest.raises(transfer.DTypeMismatch,
                       match=r"PyTorch '1'.weight is float64 but Gluon '1' parameter "
                             r"'.*weight' is float32.*gluon_net.cast\('float64'\)"):
        transfer.torch_to_gluon(pt, g)
    for p, old in zip(g.collect_params().values(), before):
        np.testing.assert_array_equal(p.data().asnumpy(), old)
        assert p.data().dtype == np.float32


@pytest.mark.parametrize("deferred", [False, True])
def test_float64_copy_is_exact_after_cast(deferred):
    torch.manual_seed(4)
    pt = torch.nn.Linear(3, 2).double()
    with torch.no_grad():
        pt.weight[0, 0] = 1 + 1e-12
    g = gnn.Dense(2) if deferred else gnn.Dense(2, in_units=3)
    g.initialize()
    g.cast("float64")
    transfer.torch_to_gluon(pt, g)
    w = g.weight.data().asnumpy()
    assert w.dtype == np.float64 and w[0, 0] == 1 + 1e-12
    np.testing.assert_array_equal(w, pt.weight.detach().numpy())
    x = np.random.default_rng(5).standard_normal((4, 3))
    want, got = _outputs(pt, g, x)
    assert got.dtype == np.float64
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-15)


def test_gluon_to_torch_checks_dtypes_too():
    g = gnn.Dense(2, in_units=3)
    g.initialize()
    pt = torch.nn.Linear(3, 2).double()
    before = pt.weight.detach().clone()
    with pytest.raises(transfer.DTypeMismatch, match=r"float64 .* float32.*torch.float32"):
        transfer.gluon_to_torch(g, pt)
    assert torch.equal(pt.weight, before)
    g.cast("float64")
    with torch.no_grad():
        g.weight.set_data(g.weight.data() + 1e-12)
    transfer.gluon_to_torch(g, pt)
    np.testing.assert_array_equal(pt.weight.detach().numpy(), g.weight.data().asnumpy())


# --- every kind, both directions, the same outputs -----------------------------------------

from mxnet import autograd  # noqa: E402
from mxnet.gluon import rnn as grnn  # noqa: E402

# name -> (PyTorch layer, Gluon layer with every shape given, input shape or ('ids', shape))
KINDS = {
    "dense": (lambda: torch.nn.Linear(5, 3), lambda: gnn.Dense(3, in_units=5), (2, 5)),
    "dense_no_bias": (lambda: torch.nn.Linear(5, 3, bias=False),
                      lambda: gnn.Dense(3, use_bias=False, in_units=5), (2, 5)),
    "conv1d": (lambda: torch.nn.Conv1d(2, 3, 3, stride=2, padding=1),
               lambda: gnn.Conv1D(3, 3, strides=2, padding=1, in_channels=2), (2, 2, 9)),
    "conv2d": (lambda: torch.nn.Conv2d(2, 3, (3, 2), padding=(1, 0), dilation=(1, 2)),
               lambda: gnn.Conv2D(3, (3, 2), padding=(1, 0), dilation=(1, 2), in_channels=2),
               (2, 2, 7, 7)),
    "conv2d_groups": (lambda: torch.nn.Conv2d(4, 6, 3, groups=2, padding="same"),
                      lambda: gnn.Conv2D(6, 3, groups=2, padding=1, in_channels=4),
                      (2, 4, 5, 5)),
    "conv3d": (lambda: torch.nn.Conv3d(2, 3, 3, bias=False),
               lambda: gnn.Conv3D(3, 3, use_bias=False, in_channels=2), (2, 2, 5, 4, 5)),
    # transposed convolutions: the weight is (in, out/groups, *kernel) on both sides
    "deconv1d": (lambda: torch.nn.ConvTranspose1d(2, 3, 3, stride=2, padding=1,
                                                  output_padding=1),
                 lambda: gnn.Conv1DTranspose(3, 3, strides=2, padding=1, output_padding=1,
                                             in_channels=2), (2, 2, 5)),
    "deconv2d": (lambda: torch.nn.ConvTranspose2d(4, 3, (4, 3), stride=2, padding=1,
                                                  bias=False),
                 lambda: gnn.Conv2DTranspose(3, (4, 3), strides=2, padding=1, use_bias=False,
                                             in_channels=4), (2, 4, 3, 5)),
    "deconv2d_groups": (lambda: torch.nn.ConvTranspose2d(4, 6, 3, groups=2, dilation=2),
                        lambda: gnn.Conv2DTranspose(6, 3, groups=2, dilation=2,
                                                    in_channels=4), (2, 4, 4, 4)),
    "deconv3d": (lambda: torch.nn.ConvTranspose3d(2, 3, 2, stride=2),
                 lambda: gnn.Conv3DTranspose(3, 2, strides=2, in_channels=2), (1, 2, 2, 3, 2)),
    "batchnorm1d": (lambda: torch.nn.BatchNorm1d(3), lambda: gnn.BatchNorm(in_channels=3),
                    (6, 3)),
    "batchnorm1d_seq": (lambda: torch.nn.BatchNorm1d(3), lambda: gnn.BatchNorm(in_channels=3),
                        (4, 3, 5)),
    "batchnorm2d": (lambda: torch.nn.BatchNorm2d(3, eps=1e-3, momentum=0.01),
                    lambda: gnn.BatchNorm(epsilon=1e-3, momentum=0.99, in_channels=3),
                    (4, 3, 5, 5)),
    "batchnorm3d": (lambda: torch.nn.BatchNorm3d(3), lambda: gnn.BatchNorm(in_channels=3),
                    (2, 3, 3, 4, 3)),
    "batchnorm2d_no_affine": (lambda: torch.nn.BatchNorm2d(3, affine=False),
                              lambda: gnn.BatchNorm(scale=False, center=False, in_channels=3),
                              (4, 3, 5, 5)),
    "batchnorm2d_no_bias": (lambda: torch.nn.BatchNorm2d(3, bias=False),
                            lambda: gnn.BatchNorm(center=False, in_channels=3), (4, 3, 5, 5)),
    "layernorm": (lambda: torch.nn.LayerNorm(6, eps=1e-6),
                  lambda: gnn.LayerNorm(epsilon=1e-6, in_channels=6), (2, 4, 6)),
    "layernorm_no_bias": (lambda: torch.nn.LayerNorm(6, bias=False),
                          lambda: gnn.LayerNorm(center=False, in_channels=6), (2, 4, 6)),
    "embedding": (lambda: torch.nn.Embedding(10, 4), lambda: gnn.Embedding(10, 4),
                  ("ids", (2, 5))),
}
for _kind, _t, _g in (("lstm", torch.nn.LSTM, grnn.LSTM), ("gru", torch.nn.GRU, grnn.GRU),
                      ("rnn_tanh", torch.nn.RNN, grnn.RNN), ("rnn_relu", torch.nn.RNN, grnn.RNN)):
    for _layers in (1, 2):
        for _bi in (False, True):
            _tk = {"nonlinearity": _kind[4:]} if _kind.startswith("rnn") else {}
            _gk = {"activation": _kind[4:]} if _kind.startswith("rnn") else {}
            KINDS[f"{_kind}_{_layers}layer{'_bi' if _bi else ''}"] = (
                lambda _t=_t, _l=_layers, _b=_bi, _k=_tk: _t(3, 4, num_layers=_l,
                                                              bidirectional=_b, **_k),
                lambda _g=_g, _l=_layers, _b=_bi, _k=_gk: _g(4, num_layers=_l, bidirectional=_b,
                                                              input_size=3, **_k),
                (5, 2, 3))
KINDS["lstm_batch_first"] = (lambda: torch.nn.LSTM(3, 4, batch_first=True, num_layers=2),
                             lambda: grnn.LSTM(4, num_layers=2, layout="NTC", input_size=3),
                             (2, 5, 3))
KINDS["gru_dropout"] = (lambda: torch.nn.GRU(3, 4, num_layers=2, dropout=0.3),
                        lambda: grnn.GRU(4, num_layers=2, dropout=0.3, input_size=3),
                        (5, 2, 3))


def _randomise_torch(net, rng):
    with torch.no_grad():
        for name, t in list(net.named_parameters()) + list(net.named_buffers()):
            if t.is_floating_point():
                value = rng.uniform(0.5, 2.0, t.shape) if name.endswith("running_var") else \
                    rng.standard_normal(t.shape)
                t.copy_(torch.from_numpy(value))


def _randomise_gluon(net, rng):
    for name, p in net.collect_params().items():
        value = rng.uniform(0.5, 2.0, p.shape) if name.endswith("running_var") else \
            rng.standard_normal(p.shape)
        p.set_data(mx.nd.array(value, dtype=p.dtype))


def _is_rnn(layer):
    return isinstance(layer, torch.nn.RNNBase)


def _run_both(pt, g, case, dtype, train=False, rng=None):
    """Both layers' outputs (and, for recurrent layers, final states from random initial
    states) as lists of numpy arrays."""
    rng = rng or np.random.default_rng(7)
    shape = KINDS[case][2]
    if shape[0] == "ids":
        x = rng.integers(0, 10, shape[1])
        pt_x, mx_x = torch.from_numpy(x), mx.nd.array(x, dtype=dtype)
    else:
        x = rng.standard_normal(shape).astype(dtype)
        pt_x, mx_x = torch.from_numpy(x), mx.nd.array(x, dtype=dtype)
    pt.train(train)
    if _is_rnn(pt):
        n_states = 2 if isinstance(pt, torch.nn.LSTM) else 1
        batch = shape[0] if pt.batch_first else shape[1]
        states = [rng.standard_normal((pt.num_layers * (2 if pt.bidirectional else 1), batch,
                                       pt.hidden_size)).astype(dtype) for _ in range(n_states)]
        pt_s = tuple(torch.from_numpy(s) for s in states)
        with torch.no_grad():
            out, hidden = pt(pt_x, pt_s if n_states == 2 else pt_s[0])
        pt_out = [out] + list(hidden if n_states == 2 else [hidden])
        g_res = g(mx_x, [mx.nd.array(s, dtype=dtype) for s in states])
        mx_out = [g_res[0]] + list(g_res[1])
    else:
        with torch.no_grad():
            pt_out = [pt(pt_x)]
        if train:
            with autograd.record(train_mode=True):
                mx_out = [g(mx_x)]
        else:
            mx_out = [g(mx_x)]
    return [t.detach().numpy() for t in pt_out], [a.asnumpy() for a in mx_out]


def _assert_same_outputs(pt_out, mx_out, dtype, tol=None):
    tol = tol or (1e-12 if dtype == "float64" else 1e-5)
    assert len(pt_out) == len(mx_out)
    for a, b in zip(pt_out, mx_out):
        assert a.shape == b.shape and a.dtype == b.dtype == np.dtype(dtype)
        np.testing.assert_allclose(b, a, rtol=tol, atol=tol)


def _fresh(case, dtype):
    pt = KINDS[case][0]().to(getattr(torch, dtype))
    g = KINDS[case][1]()
    g.cast(dtype)
    g.initialize()
    return pt, g


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("direction", ["torch_to_gluon", "gluon_to_torch"])
@pytest.mark.parametrize("case", sorted(KINDS))
def test_every_kind_gives_the_same_outputs(case, direction, dtype):
    rng = np.random.default_rng(zlib.crc32(f"{case} {direction} {dtype}".encode()))
    pt, g = _fresh(case, dtype)
    if case == "deconv3d" and dtype == "float64":
        # MXNet 1.9.1's CPU runs a 3-D transposed convolution through oneDNN only, in float32
        with pytest.raises(mx.base.MXNetError, match="Only 1D or 2D Deconvolution"):
            g(mx.nd.zeros(KINDS[case][2], dtype=dtype)).wait_to_read()
        return
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        if direction == "torch_to_gluon":
            _randomise_torch(pt, rng)
            pairs = transfer.torch_to_gluon(pt, g)
        else:
            _randomise_gluon(g, rng)
            if "no_affine" in case or "no_bias" in case and "norm" in case:   # center=False
                g.beta.set_data(mx.nd.zeros(g.beta.shape, dtype=dtype))  # what PyTorch can hold
            pairs = transfer.gluon_to_torch(g, pt)
    assert len(pairs) == 1
    # MXNet's CPU kernel for activation='relu' is not float64-accurate: against a numpy
    # reference Gluon is ~1e-6 off after 5 steps, PyTorch ~1e-14 (its 'tanh' kernel, copied
    # the same way, agrees with PyTorch to ~1e-16)
    tol = 1e-5 if case.startswith("rnn_relu") else None
    _assert_same_outputs(*_run_both(pt, g, case, dtype), dtype, tol)
    if "batchnorm" in case:   # training mode: the batch's statistics, and γ, β
        _assert_same_outputs(*_run_both(pt, g, case, dtype, train=True), dtype)


def test_gluon_constants_for_a_torch_batchnorm_without_affine():
    pt, g = _fresh("batchnorm2d_no_affine", "float32")
    g.gamma.set_data(mx.nd.full((3,), 2.0))
    g.beta.set_data(mx.nd.full((3,), 0.5))
    transfer.torch_to_gluon(pt, g)
    np.testing.assert_array_equal(g.beta.data().asnumpy(), np.zeros(3))    # PyTorch's β
    np.testing.assert_array_equal(g.gamma.data().asnumpy(), np.ones(3))
    g.beta.set_data(mx.nd.full((3,), 0.5))            # a β that PyTorch cannot hold
    before = pt.running_mean.clone()
    g.running_mean.set_data(mx.nd.full((3,), 9.0))
    with pytest.raises(transfer.ArchitectureMismatch,
                       match=r"Gluon's β is not 0 .*PyTorch has no 'bias', Gluon "
                             r"scale=False, center=False"):
        transfer.gluon_to_torch(g, pt)
    assert torch.equal(pt.running_mean, before)


@pytest.mark.parametrize("rnn_kind, gates", [("lstm", 4), ("gru", 3)])
def test_the_gate_order_matters_and_is_the_same(rnn_kind, gates):
    # copying as is gives the same outputs (above); swapping two gates' blocks does not,
    # so the check would notice a permutation
    case = f"{rnn_kind}_1layer"
    pt, g = _fresh(case, "float64")
    _randomise_torch(pt, np.random.default_rng(0))
    transfer.torch_to_gluon(pt, g)
    w = g.l0_i2h_weight.data().asnumpy()
    h = pt.hidden_size
    swapped = np.concatenate([w[h:2 * h], w[:h], w[2 * h:]])
    g.l0_i2h_weight.set_data(mx.nd.array(swapped, dtype="float64"))
    pt_out, mx_out = _run_both(pt, g, case, "float64")
    assert np.abs(pt_out[0] - mx_out[0]).max() > 1e-2


def test_deferred_gluon_recurrent_layer_takes_its_input_size_from_torch():
    pt = torch.nn.GRU(3, 4, bidirectional=True)
    g = grnn.GRU(4, bidirectional=True)     # input size unknown until the first forward
    g.initialize()
    assert g.l0_i2h_weight.shape == (12, 0)
    transfer.torch_to_gluon(pt, g)
    assert g.r0_i2h_weight.data().shape == (12, 3)
    x = np.random.default_rng(1).standard_normal((5, 2, 3)).astype(np.float32)
    np.testing.assert_allclose(g(mx.nd.array(x)).asnumpy(),
                               pt(torch.from_numpy(x))[0].detach().numpy(), rtol=1e-5,
                               atol=1e-6)


# --- settings that differ: refused, nothing copied -----------------------------------------

class _Pair(torch.nn.Module):
    """A Linear that copies fine, then the layer under test."""

    def __init__(self, layer):
        super().__init__()
        self.a = torch.nn.Linear(2, 2)
        self.b = layer


def _gluon_pair(layer):
    net = gnn.Sequential()
    net.add(gnn.Dense(2, in_units=2), layer)
    net.initialize()
    return net


def _gluon_values(net):
    return {n: p.data().asnumpy().copy() for n, p in net.collect_params().items()
            if p._data is not None}


def _assert_refused_both_ways(pt_layer, g_layer, match, check_hparams=True):
    pt, g = _Pair(pt_layer), _gluon_pair(g_layer)
    before_g, before_pt = _gluon_values(g), copy.deepcopy(pt.state_dict())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", transfer.PairingWarning)
        with pytest.raises(transfer.ArchitectureMismatch, match=match):
            transfer.torch_to_gluon(pt, g, by="order", check_hparams=check_hparams)
        with pytest.raises(transfer.ArchitectureMismatch, match=match):
            transfer.gluon_to_torch(g, pt, by="order", check_hparams=check_hparams)
        with pytest.raises(transfer.ArchitectureMismatch, match=match):
            transfer.pair_layers(pt, g, by="order", check_hparams=check_hparams)
    for name, value in _gluon_values(g).items():
        np.testing.assert_array_equal(value, before_g[name])
    for name, value in pt.state_dict().items():
        assert torch.equal(value, before_pt[name])


_BOTH = r"PyTorch 'b' \({}\) / Gluon '1' \({}\): "

REFUSED_SETTINGS = {
    # hyper-parameters
    "bn eps": (lambda: torch.nn.BatchNorm2d(3), lambda: gnn.BatchNorm(epsilon=1e-3,
                                                                      in_channels=3),
               _BOTH.format("BatchNorm2d", "BatchNorm")
               + r"eps differs: PyTorch eps=1e-05, Gluon epsilon=0.001\. .*check_hparams=False"),
    "bn momentum written literally": (
        lambda: torch.nn.BatchNorm2d(3, momentum=0.1),
        lambda: gnn.BatchNorm(momentum=0.1, in_channels=3),
        r"momentum does not correspond: PyTorch momentum=0.1 \(that is Gluon momentum=0.9.*"
        r"Gluon momentum=0.1\. Training would update the running statistics differently"),
    "bn momentum None": (lambda: torch.nn.BatchNorm1d(3, momentum=None),
                         lambda: gnn.BatchNorm(in_channels=3),
                         r"momentum=None \(a cumulative average\), Gluon momentum=0.9"),
    "bn use_global_stats": (lambda: torch.nn.BatchNorm1d(3),
                            lambda: gnn.BatchNorm(use_global_stats=True, in_channels=3),
                            r"Gluon use_global_stats=True"),
    "bn channels last": (lambda: torch.nn.BatchNorm2d(3),
                         lambda: gnn.BatchNorm(axis=3, in_channels=3),
                         r"channel axis: PyTorch axis 1, Gluon axis=3"),
    "ln eps": (lambda: torch.nn.LayerNorm(3), lambda: gnn.LayerNorm(epsilon=1e-6,
                                                                     in_channels=3),
               r"eps differs: PyTorch eps=1e-05, Gluon epsilon=1e-06"),
    "ln axis": (lambda: torch.nn.LayerNorm(3), lambda: gnn.LayerNorm(axis=1, in_channels=3),
                r"normalised axis: PyTorch the last axis, Gluon axis=1"),
    "conv stride": (lambda: torch.nn.Conv2d(2, 3, 3, stride=2),
                    lambda: gnn.Conv2D(3, 3, in_channels=2),
                    r"stride differs: PyTorch stride=\(2, 2\), Gluon stride=\(1, 1\)"),
    "conv padding": (lambda: torch.nn.Conv1d(2, 3, 3, padding=1),
                     lambda: gnn.Conv1D(3, 3, in_channels=2),
                     r"padding differs: PyTorch padding=\(1,\), Gluon pad=\(0,\)"),
    "conv asymmetric same": (lambda: torch.nn.Conv1d(2, 3, 4, padding="same"),
                             lambda: gnn.Conv1D(3, 4, padding=2, in_channels=2),
                             r"padding='same' \(asymmetric here\)"),
    "conv padding mode": (lambda: torch.nn.Conv2d(2, 3, 3, padding=1, padding_mode="reflect"),
                          lambda: gnn.Conv2D(3, 3, padding=1, in_channels=2),
                          r"padding_mode='reflect'"),
    "deconv output_padding": (lambda: torch.nn.ConvTranspose2d(2, 3, 3, stride=2,
                                                               output_padding=1),
                              lambda: gnn.Conv2DTranspose(3, 3, strides=2, in_channels=2),
                              r"output_padding differs: PyTorch output_padding=\(1, 1\), "
                              r"Gluon adj=\(0, 0\)"),
    "rnn nonlinearity default": (lambda: torch.nn.RNN(3, 4), lambda: grnn.RNN(4, input_size=3),
                                 r"nonlinearity differs: PyTorch nonlinearity='tanh', Gluon "
                                 r"activation='relu'"),
    "lstm batch_first": (lambda: torch.nn.LSTM(3, 4, batch_first=True),
                         lambda: grnn.LSTM(4, input_size=3),
                         r"layout: PyTorch batch_first=True \(that is layout='NTC'\), Gluon "
                         r"layout='TNC'"),
    "gru dropout": (lambda: torch.nn.GRU(3, 4, num_layers=2, dropout=0.5),
                    lambda: grnn.GRU(4, num_layers=2, input_size=3),
                    r"dropout differs: PyTorch dropout=0.5, Gluon dropout=0"),
    "lstm state clipping": (lambda: torch.nn.LSTM(3, 4),
                            lambda: grnn.LSTM(4, input_size=3, state_clip_min=-1,
                                              state_clip_max=1),
                            r"state clipping"),
    "embedding max_norm": (lambda: torch.nn.Embedding(5, 2, max_norm=1.0),
                           lambda: gnn.Embedding(5, 2), r"max_norm=1"),
}
REFUSED_STRUCTURE = {
    "bn gamma on one side": (lambda: torch.nn.BatchNorm2d(3),
                             lambda: gnn.BatchNorm(scale=False, in_channels=3),
                             r"learned γ on one side only: PyTorch affine=True, bias=True, "
                             r"Gluon scale=False, center=True"),
    "bn beta on one side": (lambda: torch.nn.BatchNorm2d(3, affine=False),
                            lambda: gnn.BatchNorm(scale=False, in_channels=3),
                            r"learned β on one side only"),
    "bn no running stats": (lambda: torch.nn.BatchNorm2d(3, track_running_stats=False),
                            lambda: gnn.BatchNorm(in_channels=3),
                            r"track_running_stats=False"),
    "ln several dims": (lambda: torch.nn.LayerNorm((2, 3)), lambda: gnn.LayerNorm(
        in_channels=3), r"normalized_shape=\(2, 3\)"),
    "conv groups": (lambda: torch.nn.Conv2d(4, 4, 3, groups=2),
                    lambda: gnn.Conv2D(4, 3, in_channels=2),
                    r"groups differ: PyTorch groups=2, Gluon num_group=1"),
    "channels-last convolution": (lambda: torch.nn.Conv2d(3, 4, 3),
                                  lambda: gnn.Conv2D(4, 3, layout="NHWC", in_channels=3),
                                  r"layout='NHWC'"),
    "deconv groups": (lambda: torch.nn.ConvTranspose2d(4, 4, 3, groups=2),
                      lambda: gnn.Conv2DTranspose(4, 3, in_channels=4),
                      r"groups differ: PyTorch groups=2, Gluon num_group=1"),
    "lstm proj_size": (lambda: torch.nn.LSTM(3, 4, proj_size=2),
                       lambda: grnn.LSTM(4, input_size=3),
                       r"projection: PyTorch proj_size=2, Gluon projection_size=None\. LSTMs "
                       r"with a projection are not converted"),
    "gluon projection": (lambda: torch.nn.LSTM(3, 4), lambda: grnn.LSTM(4, input_size=3,
                                                                        projection_size=2),
                         r"projection_size=2"),
    "rnn without bias": (lambda: torch.nn.GRU(3, 4, bias=False), lambda: grnn.GRU(4),
                         r"biases: PyTorch bias=False, Gluon always has biases"),
    "rnn layers": (lambda: torch.nn.LSTM(3, 4, num_layers=2), lambda: grnn.LSTM(4),
                   r"number of layers differs: PyTorch 2, Gluon 1"),
    "rnn direction": (lambda: torch.nn.LSTM(3, 4, bidirectional=True), lambda: grnn.LSTM(4),
                      r"directions differs: PyTorch 2, Gluon 1"),
    "rnn hidden size": (lambda: torch.nn.GRU(3, 5), lambda: grnn.GRU(4),
                        r"hidden size differs: PyTorch 5, Gluon 4"),
    "rnn input size": (lambda: torch.nn.GRU(3, 4), lambda: grnn.GRU(4, input_size=2),
                       r"input size differs: PyTorch input_size=3, Gluon input_size=2"),
    "rnn kind": (lambda: torch.nn.GRU(3, 4), lambda: grnn.LSTM(4, input_size=3),
                 r"PyTorch 'b' is GRU \(gru\) but Gluon '1' is LSTM \(lstm\)"),
}


@pytest.mark.parametrize("case", sorted(REFUSED_SETTINGS))
def test_differing_hyperparameters_are_refused_and_copy_nothing(case):
    pt_layer, g_layer, match = REFUSED_SETTINGS[case]
    _assert_refused_both_ways(pt_layer(), g_layer(), match)


@pytest.mark.parametrize("case", sorted(REFUSED_STRUCTURE))
def test_differing_structure_is_refused_even_without_the_hyperparameter_check(case):
    pt_layer, g_layer, match = REFUSED_STRUCTURE[case]
    _assert_refused_both_ways(pt_layer(), g_layer(), match, check_hparams=False)


def test_check_hparams_false_copies_into_a_literal_momentum_port():
    # notebook 6's demonstration: γ and β into a Gluon BatchNorm(momentum=0.1)
    pt = torch.nn.BatchNorm2d(3)
    _randomise_torch(pt, np.random.default_rng(3))
    g = gnn.BatchNorm(momentum=0.1, in_channels=3)
    g.initialize()
    assert transfer.torch_to_gluon(pt, g, check_hparams=False) == [("BatchNorm2d",
                                                                    "BatchNorm")]
    np.testing.assert_array_equal(g.gamma.data().asnumpy(), pt.weight.detach().numpy())


def test_a_refused_layer_after_a_good_one_copies_neither():
    pt = _Pair(torch.nn.LSTM(2, 3, batch_first=True))
    g = gnn.Sequential()
    g.add(gnn.Dense(2, in_units=2), grnn.LSTM(3, input_size=2))
    g.initialize()
    before = g[0].weight.data().asnumpy().copy()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", transfer.PairingWarning)
        with pytest.raises(transfer.ArchitectureMismatch, match="batch_first=True"):
            transfer.torch_to_gluon(pt, g)
    np.testing.assert_array_equal(g[0].weight.data().asnumpy(), before)


# --- tied weights: a word language model's decoder reuses its embedding ---------------------

class _TorchTiedLM(torch.nn.Module):
    def __init__(self, vocab=10, hidden=6, tie=True):
        super().__init__()
        self.encoder = torch.nn.Embedding(vocab, hidden)
        self.rnn = torch.nn.LSTM(hidden, hidden, 2)
        self.decoder = torch.nn.Linear(hidden, vocab)
        if tie:
            self.decoder.weight = self.encoder.weight

    def forward(self, tokens, hidden):
        output, hidden = self.rnn(self.encoder(tokens), hidden)
        return self.decoder(output), hidden


class _GluonTiedLM(mx.gluon.Block):
    def __init__(self, vocab=10, hidden=6, tie=True, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.encoder = gnn.Embedding(vocab, hidden)
            self.rnn = grnn.LSTM(hidden, num_layers=2, input_size=hidden)
            self.decoder = gnn.Dense(vocab, in_units=hidden, flatten=False,
                                     params=self.encoder.params if tie else None)

    def forward(self, tokens, hidden):
        output, hidden = self.rnn(self.encoder(tokens), hidden)
        return self.decoder(output), hidden


def _tied_outputs(pt, g):
    rng = np.random.default_rng(0)
    ids = rng.integers(0, 10, (5, 2))
    h, c = (rng.standard_normal((2, 2, 6)) for _ in range(2))
    with torch.no_grad():
        out, (h_out, c_out) = pt(torch.from_numpy(ids), (torch.from_numpy(h),
                                                         torch.from_numpy(c)))
    g_out, g_states = g(mx.nd.array(ids), [mx.nd.array(h, dtype="float64"),
                                           mx.nd.array(c, dtype="float64")])
    return [out.numpy(), h_out.numpy(), c_out.numpy()], [a.asnumpy() for a in
                                                        [g_out, *g_states]]


def _set_data_counts(monkeypatch):
    counts = Counter()
    original = mx.gluon.Parameter.set_data

    def counting(self, data):
        counts[self.name] += 1
        return original(self, data)

    monkeypatch.setattr(mx.gluon.Parameter, "set_data", counting)
    return counts


def test_a_tied_lm_copies_both_ways_and_keeps_its_tie(monkeypatch):
    pt = _TorchTiedLM().double()
    _randomise_torch(pt, np.random.default_rng(0))
    g = _GluonTiedLM()
    g.initialize()
    g.cast("float64")
    counts = _set_data_counts(monkeypatch)
    pairs = transfer.torch_to_gluon(pt, g)
    assert pairs == [("encoder", "encoder"), ("rnn", "rnn"), ("decoder", "decoder")]
    shared = g.encoder.weight
    assert g.decoder.weight is shared and counts[shared.name] == 1    # one copy of the tie
    assert set(counts.values()) == {1} and len(counts) == 11 - 1
    np.testing.assert_array_equal(shared.data().asnumpy(), pt.encoder.weight.detach().numpy())
    for a, b in zip(*_tied_outputs(pt, g)):
        np.testing.assert_allclose(b, a, rtol=0, atol=1e-12)

    back = _TorchTiedLM().double()
    assert transfer.gluon_to_torch(g, back) == pairs
    assert back.decoder.weight is back.encoder.weight
    for k, v in pt.state_dict().items():
        assert torch.equal(back.state_dict()[k], v), k


def test_a_tie_on_one_side_only_copies_when_the_values_agree():
    untied = _TorchTiedLM(tie=False)
    with torch.no_grad():
        untied.decoder.weight.copy_(untied.encoder.weight)
    g = _GluonTiedLM()
    g.initialize()
    transfer.torch_to_gluon(untied, g)                      # equal values: nothing lost
    np.testing.assert_array_equal(g.decoder.weight.data().asnumpy(),
                                  untied.encoder.weight.detach().numpy())
    tied = _TorchTiedLM()
    g_untied = _GluonTiedLM(tie=False)
    g_untied.initialize()
    transfer.torch_to_gluon(tied, g_untied)
    assert g_untied.decoder.weight is not g_untied.encoder.weight
    transfer.gluon_to_torch(g_untied, _TorchTiedLM())      # equal values again


def test_a_tie_on_one_side_only_with_different_values_is_refused():
    g = _GluonTiedLM()
    g.initialize()
    before = g.encoder.weight.data().asnumpy().copy()
    with pytest.raises(transfer.ArchitectureMismatch,
                       match=r"Gluon layers 'encoder' and 'decoder' share one parameter .* "
                             r"\(a tied weight\), but PyTorch 'encoder'.weight and "
                             r"'decoder'.weight are two tensors with different values: one "
                             r"would be lost. Tie them in PyTorch too \(decoder.weight = "
                             r"encoder.weight\)"):
        transfer.torch_to_gluon(_TorchTiedLM(tie=False), g)
    np.testing.assert_array_equal(g.encoder.weight.data().asnumpy(), before)  # nothing copied

    g_untied = _GluonTiedLM(tie=False)
    g_untied.initialize(mx.init.Uniform())
    pt = _TorchTiedLM()
    pt_before = {k: v.clone() for k, v in pt.state_dict().items()}
    with pytest.raises(transfer.ArchitectureMismatch,
                       match=r"PyTorch 'encoder'.weight and 'decoder'.weight are one tensor "
                             r"\(a tied weight\), but Gluon 'encoder' and 'decoder' hold two "
                             r"parameters with different values .*params=encoder.params"):
        transfer.gluon_to_torch(g_untied, pt)
    for k, v in pt_before.items():
        assert torch.equal(pt.state_dict()[k], v), k
