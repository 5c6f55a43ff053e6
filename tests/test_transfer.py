"""Weight copy between PyTorch and Gluon: outputs agree, mismatches name the layer."""

import warnings

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
