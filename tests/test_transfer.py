"""Weight copy between PyTorch and Gluon: outputs agree, mismatches name the layer."""

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
    pairs = transfer.pair_layers(pt, g)
    assert [p.kind for p in pairs] == ["conv2d"] * 5 + ["dense"] * 3
    assert [p.torch_name for p in pairs][-3:] == ["classifier.1", "classifier.4",
                                                  "classifier.6"]
