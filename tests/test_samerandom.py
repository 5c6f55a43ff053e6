"""sidebyside.samerandom: both frameworks draw the same noise and the same dropout masks.

Each behaviour is shown both ways: without the helper the two frameworks differ (their own
generators, seeded alike), with it they agree to float64 rounding."""
import mxnet as mx
import numpy as np
import pytest
import torch
from mxnet import autograd, gluon

from sidebyside import samerandom, seeding, transfer

# ---------------------------------------------------------------------------- the draws


def test_the_same_index_gives_the_same_array_in_every_stream():
    draws = samerandom.Draws(7)
    a, b = draws.stream("a"), draws.stream("b")
    first = [a.normal((3, 4)), a.keep_mask((5,), 0.5), a.normal(2)]
    second = [b.normal((3, 4)), b.keep_mask((5,), 0.5), b.normal(2)]
    for x, y in zip(first, second):
        assert x.dtype == np.float64 and np.array_equal(x, y)
    assert a.count == b.count == 3
    # the same seed again: the same numbers; another seed: others
    again = samerandom.Draws(7).stream("c")
    assert np.array_equal(again.normal((3, 4)), first[0])
    assert not np.allclose(samerandom.Draws(8).stream("d").normal((3, 4)), first[0])


def test_successive_draws_differ_and_do_not_depend_on_earlier_shapes():
    stream = samerandom.Draws(0).stream("x")
    one, two = stream.normal(1000), stream.normal(1000)
    assert not np.allclose(one, two)                      # not one array served twice
    # draw 1 is made from (seed, 1) alone: the same whatever draw 0 was
    other = samerandom.Draws(0).stream("y")
    other.normal(3)
    assert np.array_equal(other.normal(1000), two)


def test_noise_is_standard_normal():
    x = samerandom.Draws(1).stream("x").normal(200_000)
    assert abs(x.mean()) < 5 / np.sqrt(x.size)
    assert abs(x.std() - 1) < 5 / np.sqrt(2 * x.size)
    assert (x < 0).mean() == pytest.approx(0.5, abs=0.01)   # not a uniform on [0, 1)


@pytest.mark.parametrize("p", [0.25, 0.5, 0.9])
def test_a_mask_keeps_one_minus_p_and_scales_by_its_inverse(p):
    mask = samerandom.Draws(2).stream("x").keep_mask((400, 500), p)
    kept = mask != 0
    assert set(np.unique(mask)) == {0.0, 1 / (1 - p)}
    n = mask.size
    assert abs(kept.mean() - (1 - p)) < 5 * np.sqrt(p * (1 - p) / n)
    assert mask.mean() == pytest.approx(1.0, abs=0.02)     # inverted dropout: E[mask] = 1


def test_rates_zero_and_one():
    stream = samerandom.Draws(3).stream("x")
    assert np.array_equal(stream.keep_mask((4, 4), 0.0), np.ones((4, 4)))
    assert np.array_equal(stream.keep_mask((4, 4), 1.0), np.zeros((4, 4)))


def test_like_gives_each_framework_its_own_type_dtype_and_the_same_numbers():
    draws = samerandom.Draws(4)
    pt64 = draws.stream("pt64").normal_like(torch.zeros(3, 2, dtype=torch.float64))
    mx64 = draws.stream("mx64").normal_like(mx.nd.zeros((3, 2), dtype="float64"))
    pt32 = draws.stream("pt32").normal_like(torch.zeros(3, 2))
    np32 = draws.stream("np32").normal_like(np.zeros((3, 2), dtype=np.float32))
    assert isinstance(pt64, torch.Tensor) and pt64.dtype == torch.float64
    assert isinstance(mx64, mx.nd.NDArray) and mx64.dtype == np.float64
    assert np.array_equal(pt64.numpy(), mx64.asnumpy())
    assert pt32.dtype == torch.float32 and np32.dtype == np.float32
    assert np.array_equal(pt32.numpy(), pt64.numpy().astype(np.float32))   # float32-rounded
    assert np.array_equal(np32, pt32.numpy())


def test_two_runs_that_draw_differently_are_stopped_with_both_requests_named():
    draws = samerandom.Draws(5)
    a, b = draws.stream("PyTorch"), draws.stream("Gluon")
    a.normal((16, 128))
    with pytest.raises(ValueError, match=r"draw 0: stream 'Gluon' asks for normal noise of "
                                         r"shape \(16, 9216\), but stream 'PyTorch' asked for "
                                         r"normal noise of shape \(16, 128\)"):
        b.normal((16, 9216))
    with pytest.raises(ValueError, match="a dropout mask of shape"):
        b.keep_mask((16, 128), 0.5)
    assert b.count == 0                                    # a refused draw is not counted
    assert np.array_equal(b.normal((16, 128)), samerandom.Draws(5).stream("c").normal((16, 128)))


@pytest.mark.parametrize("call, message", [
    (lambda: samerandom.Draws(-1), "seed must be an int >= 0"),
    (lambda: samerandom.Draws(1.5), "seed must be an int >= 0"),
    (lambda: samerandom.Draws(0).stream(""), "non-empty name"),
    (lambda: samerandom.Draws(0).stream("x").keep_mask((2,), 1.5), r"rate is a number in \[0, 1\]"),
    (lambda: samerandom.Draws(0).stream("x").normal((2, -1)), "tuple of ints >= 0"),
    (lambda: samerandom.Draws(0).stream("x").normal_like([1.0, 2.0]), "expected a torch tensor"),
    (lambda: samerandom.Draws(0).stream("x").dropout("x", 0.5), "expected a torch tensor"),
])
def test_bad_inputs_get_one_message(call, message):
    with pytest.raises((ValueError, TypeError), match=message):
        call()


def test_stream_names_are_unique():
    draws = samerandom.Draws(0)
    draws.stream("x")
    with pytest.raises(ValueError, match="already a stream named 'x'"):
        draws.stream("x")
    assert list(draws.streams) == ["x"]

# ---------------------------------------------------------------------------- noise in forward


def _pt_reparameterize(mu, logvar):          # pytorch/examples' VAE, as written there
    std = torch.exp(0.5 * logvar)
    return mu + torch.randn_like(std) * std


def _mx_reparameterize(mu, logvar):          # its Gluon port
    std = mx.nd.exp(0.5 * logvar)
    return mu + mx.nd.random.normal_like(std) * std


def test_noise_in_forward_differs_without_the_helper_and_agrees_with_it():
    rng = np.random.default_rng(0)
    mu, logvar = rng.normal(size=(8, 20)), rng.normal(size=(8, 20))
    seeding.seed_everything(0)                 # both frameworks seeded alike: not enough
    own = (_pt_reparameterize(torch.from_numpy(mu), torch.from_numpy(logvar)).numpy(),
           _mx_reparameterize(mx.nd.array(mu, dtype="float64"),
                              mx.nd.array(logvar, dtype="float64")).asnumpy())
    assert np.abs(own[0] - own[1]).max() > 0.5

    draws = samerandom.Draws(0)
    with samerandom.patch_torch_randn(draws.stream("PyTorch")):
        pt_z = _pt_reparameterize(torch.from_numpy(mu), torch.from_numpy(logvar))
    with samerandom.patch_mxnet_normal(draws.stream("Gluon")):
        mx_z = _mx_reparameterize(mx.nd.array(mu, dtype="float64"),
                                  mx.nd.array(logvar, dtype="float64"))
    assert pt_z.dtype == torch.float64 and mx_z.dtype == np.float64
    assert np.abs(pt_z.numpy() - mx_z.asnumpy()).max() <= 1e-15
    # and it is noise: z is not mu
    assert np.abs(pt_z.numpy() - mu).max() > 0.5


def test_patches_are_undone_after_the_block_even_on_error():
    torch_before, mx_before = torch.randn_like, (mx.nd.random.normal_like, mx.nd.random.normal)
    stream = samerandom.Draws(0).stream("x")
    with pytest.raises(RuntimeError):
        with samerandom.patch_torch_randn(stream), samerandom.patch_mxnet_normal(stream):
            assert torch.randn_like is not torch_before
            raise RuntimeError("inside")
    assert torch.randn_like is torch_before
    assert (mx.nd.random.normal_like, mx.nd.random.normal) == mx_before


def test_patched_functions_honour_their_arguments_and_refuse_the_rest():
    draws = samerandom.Draws(1)
    pt, gl = draws.stream("pt"), draws.stream("gl")
    with samerandom.patch_torch_randn(pt):
        x = torch.randn_like(torch.zeros(2, 3), dtype=torch.float64, requires_grad=True)
        assert x.dtype == torch.float64 and x.requires_grad and x.shape == (2, 3)
        with pytest.raises(TypeError, match="generator"):
            torch.randn_like(torch.zeros(2), generator=torch.Generator())
    with samerandom.patch_mxnet_normal(gl):
        y = mx.nd.random.normal(loc=1.0, scale=2.0, shape=(2, 3), dtype="float64")
        assert y.shape == (2, 3) and y.dtype == np.float64
        with pytest.raises(TypeError, match="scalar loc"):
            mx.nd.random.normal(loc=mx.nd.zeros((2,)), shape=(2,))
    # the same draw: x is N(0, 1), y is 1 + 2 N(0, 1)
    assert np.allclose(1 + 2 * x.detach().numpy(), y.asnumpy(), rtol=0, atol=1e-15)

# ---------------------------------------------------------------------------- dropout masks


class PtNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(12, 32)
        self.drop = torch.nn.Dropout(0.5)
        self.block = torch.nn.Sequential(torch.nn.Linear(32, 16), torch.nn.ReLU(),
                                         torch.nn.Dropout(0.25))
        self.fc2 = torch.nn.Linear(16, 3)

    def forward(self, x):
        return self.fc2(self.block(self.drop(torch.relu(self.fc1(x)))))


class MxNet(gluon.HybridBlock):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.fc1 = gluon.nn.Dense(32, in_units=12, activation="relu")
        self.drop = gluon.nn.Dropout(0.5)
        self.block = gluon.nn.HybridSequential()
        self.block.add(gluon.nn.Dense(16, in_units=32, activation="relu"), gluon.nn.Dropout(0.25))
        self.fc2 = gluon.nn.Dense(3, in_units=16)

    def hybrid_forward(self, F, x):
        return self.fc2(self.block(self.drop(self.fc1(x))))


def _pair():
    torch.manual_seed(0)
    pt = PtNet().double()
    gl = MxNet()
    gl.initialize()
    gl.cast("float64")
    transfer.torch_to_gluon(pt, gl, by="order")
    return pt, gl


def _train(pt, gl, steps=5):
    """SGD steps of both on the same batches; the losses, and the largest weight gap."""
    rng = np.random.default_rng(1)
    opt = torch.optim.SGD(pt.parameters(), lr=0.125)
    trainer = gluon.Trainer(gl.collect_params(), "sgd", {"learning_rate": 0.125})
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    losses = []
    for _ in range(steps):
        x, y = rng.normal(size=(16, 12)), rng.integers(0, 3, 16)
        pt.train()
        opt.zero_grad()
        pt_loss = torch.nn.functional.cross_entropy(pt(torch.from_numpy(x)),
                                                    torch.from_numpy(y))
        pt_loss.backward()
        opt.step()
        with autograd.record():
            mx_loss = loss_fn(gl(mx.nd.array(x, dtype="float64")), mx.nd.array(y, dtype="float64"))
        mx_loss.backward()
        trainer.step(16)
        losses.append((pt_loss.item(), mx_loss.mean().asscalar()))
    pt_w = [p.detach().numpy() for p in pt.parameters()]
    mx_w = [p.data().asnumpy() for p in gl.collect_params().values()]
    return np.array(losses), max(np.abs(a - b).max() for a, b in zip(pt_w, mx_w))


def test_dropout_differs_without_the_helper_and_agrees_with_it():
    pt, gl = _pair()
    seeding.seed_everything(0)
    own_losses, own_gap = _train(pt, gl)
    assert np.abs(own_losses[:, 0] - own_losses[:, 1]).max() > 1e-3 and own_gap > 1e-3

    pt, gl = _pair()
    draws = samerandom.Draws(0)
    assert samerandom.use_same_dropout(pt, draws.stream("PyTorch")) == ["drop", "block.2"]
    assert samerandom.use_same_dropout(gl, draws.stream("Gluon")) == ["drop", "block.1"]
    losses, gap = _train(pt, gl)
    assert np.abs(losses[:, 0] - losses[:, 1]).max() <= 1e-12 and gap <= 1e-12
    assert draws.streams["PyTorch"].count == draws.streams["Gluon"].count == 2 * 5
    # dropout was really on: the same net without dropout trains differently
    pt0, _ = _pair()
    pt0.drop.p = pt0.block[2].p = 0.0
    plain, _ = _train(pt0, _pair()[1])
    assert np.abs(plain[:, 0] - losses[:, 0]).max() > 1e-3


def test_replaced_layers_keep_the_rate_and_the_mode_rules():
    pt, gl = _pair()
    draws = samerandom.Draws(0)
    pt_stream, mx_stream = draws.stream("pt"), draws.stream("mx")
    samerandom.use_same_dropout(pt, pt_stream)
    samerandom.use_same_dropout(gl, mx_stream)
    assert isinstance(pt.drop, torch.nn.Dropout) and pt.drop.p == 0.5 and pt.block[2].p == 0.25
    assert isinstance(gl.drop, gluon.nn.Dropout) and gl.drop._rate == 0.5
    assert gl.block[1]._rate == 0.25 and gl.block[1] in gl.block._children.values()
    x = np.random.default_rng(0).normal(size=(4, 12))
    pt.eval()
    with torch.no_grad():
        pt(torch.from_numpy(x))                  # eval(): no dropout, nothing drawn
    gl(mx.nd.array(x, dtype="float64"))          # outside record(): the same
    with autograd.record(train_mode=False):
        gl(mx.nd.array(x, dtype="float64"))
    assert pt_stream.count == mx_stream.count == 0
    h = torch.ones(1000, dtype=torch.float64)
    assert torch.equal(pt.drop(h), h)            # eval mode: the input itself
    pt.train()
    dropped = pt.drop(h)
    assert set(dropped.unique().tolist()) == {0.0, 2.0} and pt_stream.count == 1


def test_other_dropout_variants_are_refused_and_nothing_is_replaced():
    net = torch.nn.Sequential(torch.nn.Dropout(0.5), torch.nn.Conv2d(1, 2, 3),
                              torch.nn.Dropout2d(0.5))
    stream = samerandom.Draws(0).stream("x")
    with pytest.raises(NotImplementedError, match="2 is a Dropout2d"):
        samerandom.use_same_dropout(net, stream)
    assert type(net[0]) is torch.nn.Dropout
    gnet = gluon.nn.HybridSequential()
    gnet.add(gluon.nn.Dropout(0.5), gluon.nn.Dropout(0.5, axes=(1,)))
    with pytest.raises(NotImplementedError, match="axes"):
        samerandom.use_same_dropout(gnet, stream)
    assert type(gnet[0]) is gluon.nn.Dropout


def test_a_hybridized_network_and_non_networks_are_refused():
    gl = _pair()[1]
    gl.hybridize()
    stream = samerandom.Draws(0).stream("x")
    with pytest.raises(ValueError, match="hybridized"):
        samerandom.use_same_dropout(gl, stream)
    assert type(gl.drop) is gluon.nn.Dropout
    with pytest.raises(TypeError, match="torch.nn.Module or a gluon.Block"):
        samerandom.use_same_dropout(object(), stream)
    with pytest.raises(TypeError, match="samerandom.Stream"):
        samerandom.use_same_dropout(PtNet(), np.random.default_rng(0))
