"""sidebyside.mx2torch, one operator at a time: a one-operator MXNet graph, executed by MXNet
(inference, float64), against its translation (which never imports MXNet), on random values."""

import json

import numpy as np
import pytest
import torch

mx = pytest.importorskip("mxnet")

from sidebyside.mx2torch import codegen, ops  # noqa: E402
from sidebyside.mx2torch.ops import UnsupportedOperator  # noqa: E402

RNG = np.random.default_rng(0)


def values_for(sym, shapes, ints=()):
    """Random arguments and auxiliary states for ``sym`` (positive variances)."""
    arg_shapes, _, aux_shapes = sym.infer_shape(**shapes)
    args, aux = {}, {}
    for name, shape in zip(sym.list_arguments(), arg_shapes):
        if name in ints:
            args[name] = RNG.integers(0, 7, shape).astype(np.float64)
        else:
            args[name] = RNG.standard_normal(shape)
    for name, shape in zip(sym.list_auxiliary_states(), aux_shapes):
        aux[name] = RNG.uniform(0.5, 2.0, shape) if "var" in name else RNG.standard_normal(shape)
    return args, aux


def mxnet_outputs(sym, args, aux, dtype="float64"):
    exe = sym.bind(mx.cpu(), {k: mx.nd.array(v, dtype=dtype) for k, v in args.items()},
                   aux_states={k: mx.nd.array(v, dtype=dtype) for k, v in aux.items()},
                   grad_req="null")
    return [o.asnumpy() for o in exe.forward(is_train=False)]


SEEN_OPS: set = set()


def check(sym, shapes, *, ints=(), rtol=1e-12, labels=(), dtype="float64", as_op=None,
          values=None, any_order=False):
    """Translate ``sym`` and compare every output with MXNet's; returns the translation.
    float64 unless MXNet has no float64 kernel for the operator (then float32, rtol 1e-6).
    ``as_op``: the output node's operator renamed in the JSON (an alias that MXNet reads, as
    older files spell it, but no longer writes). ``values``: arrays for some arguments, in
    place of random normal ones (boxes, lengths, indices)."""
    graph = json.loads(sym.tojson())
    if as_op is not None:
        graph["nodes"][graph["heads"][0][0]]["op"] = as_op
    SEEN_OPS.update(n["op"] for n in graph["nodes"])
    args, aux = values_for(sym, shapes, ints)
    args.update({k: np.asarray(v, dtype=np.float64) for k, v in (values or {}).items()})
    if dtype != "float64":
        args = {k: v.astype(dtype) for k, v in args.items()}
        aux = {k: v.astype(dtype) for k, v in aux.items()}
    expected = mxnet_outputs(sym, args, aux, dtype)
    params = {f"arg:{k}": v for k, v in args.items() if k not in shapes and k not in labels}
    params.update({f"aux:{k}": v for k, v in aux.items()})
    t = codegen.translation(graph, params)
    expected_inputs = [k for k in sym.list_arguments() if k in shapes]
    # the forward takes the inputs in the order the graph first uses them (any_order: a
    # Cast of one input ahead of the node that takes it first), fed here by name
    assert (sorted(t.inputs) == sorted(expected_inputs)) if any_order \
        else t.inputs == expected_inputs, t.inputs
    with torch.no_grad():
        got = t.module(*[torch.from_numpy(args[k]) for k in t.inputs])
    got = list(got) if isinstance(got, tuple) else [got]
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        g = g.numpy()
        assert g.shape == e.shape, (g.shape, e.shape)
        scale = max(1.0, float(np.abs(e).max(initial=0)))
        assert np.abs(g.astype(np.float64) - e).max(initial=0) <= rtol * scale, \
            (np.abs(g - e).max(), t.source)
    return t


def var(name="data"):
    return mx.sym.var(name)


X4 = {"data": (2, 4, 7, 6)}


# --- convolutions ------------------------------------------------------------------------------
@pytest.mark.parametrize("kw", [
    dict(kernel=(3, 3), num_filter=5),
    dict(kernel=(3, 2), num_filter=6, stride=(2, 1), pad=(1, 2), dilate=(2, 1), num_group=2),
    dict(kernel=(1, 1), num_filter=3, no_bias=True),
    dict(kernel=(3, 3), num_filter=4, num_group=4, pad=(1, 1)),           # depthwise
])
def test_convolution_2d(kw):
    t = check(mx.sym.Convolution(var(), name="c", **kw), X4)
    assert "nn.Conv2d(" in t.source


def test_convolution_1d_and_3d():
    check(mx.sym.Convolution(var(), kernel=(3,), num_filter=2, stride=(2,)), {"data": (2, 3, 9)})
    check(mx.sym.Convolution(var(), kernel=(2, 3, 1), num_filter=2, pad=(1, 0, 0)),
          {"data": (1, 2, 4, 5, 3)})


@pytest.mark.parametrize("kw", [
    dict(kernel=(3, 3), num_filter=5),
    dict(kernel=(4, 4), num_filter=3, stride=(2, 2), pad=(1, 1), adj=(1, 1)),
    dict(kernel=(3, 3), num_filter=4, num_group=2, no_bias=False, dilate=(2, 2)),
])
def test_deconvolution(kw):
    t = check(mx.sym.Deconvolution(var(), **kw), X4)
    assert "nn.ConvTranspose2d(" in t.source


@pytest.mark.parametrize("kw", [dict(kernel=(4, 4), stride=(2, 2), target_shape=(14, 12)),
                                dict(kernel=(3, 3), stride=(2, 2), target_shape=(13, 12)),
                                dict(kernel=(3, 3), stride=(3, 2), pad=(5, 5),
                                     target_shape=(19, 13))])
def test_deconvolution_target_shape_pads_per_call(kw):
    """target_shape: the padding (and adj) follow the input size; a given pad is ignored."""
    t = check(mx.sym.Deconvolution(var(), num_filter=3, name="up", **kw), X4)
    assert "mx_deconv_to(self.up, data," in t.source


def test_deconvolution_target_shape_with_dilation_is_refused():
    sym = mx.sym.Deconvolution(var(), kernel=(3, 3), stride=(3, 2), dilate=(1, 2), num_filter=3,
                               target_shape=(19, 13), name="up")
    with pytest.raises(UnsupportedOperator, match="Deconvolution.*'up'.*target_shape.*dilate"):
        check(sym, X4)


# --- BatchNorm --------------------------------------------------------------------------------
def test_batchnorm_symbol_defaults_ignore_gamma_and_use_eps_1e_3():
    sym = mx.sym.BatchNorm(var(), name="bn")
    t = check(sym, X4)
    # MXNet stores eps as float32: the translation uses that value, not 1e-3
    assert "eps=0.0010000000474974513" in t.source and "fix_gamma=True" in t.source
    assert np.all(t.state_dict["bn.weight"] == 1)          # the stored gamma is not used


@pytest.mark.parametrize("kw,shape", [
    (dict(fix_gamma=False, eps=1e-5, momentum=0.8), X4["data"]),
    (dict(fix_gamma=False, use_global_stats=True), X4["data"]),
    (dict(fix_gamma=False, axis=-1), (2, 3, 5, 4)),
    (dict(fix_gamma=False, axis=3), (2, 3, 5, 4)),
    (dict(fix_gamma=False), (6, 4)),
    (dict(fix_gamma=False), (2, 4, 5)),
    (dict(fix_gamma=False), (2, 3, 2, 3, 2)),
])
def test_batchnorm(kw, shape):
    t = check(mx.sym.BatchNorm(var(), name="bn", **kw), {"data": shape})
    if "momentum" in kw:
        assert "momentum=0.2" in t.source


def test_batchnorm_after_a_convolution_is_batchnorm2d():
    sym = mx.sym.BatchNorm(mx.sym.Convolution(var(), kernel=(1, 1), num_filter=3), fix_gamma=False)
    assert "nn.BatchNorm2d(3" in check(sym, X4).source


# --- pooling ----------------------------------------------------------------------------------
@pytest.mark.parametrize("kw", [
    dict(kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type="max"),
    dict(kernel=(3, 3), stride=(2, 2), pool_type="max", pooling_convention="full"),
    dict(kernel=(2, 2), stride=(2, 2), pool_type="avg", pooling_convention="full"),
    dict(kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type="avg"),
    dict(kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type="avg", count_include_pad=False),
    dict(kernel=(3, 2), stride=(1, 2), pool_type="sum"),
    dict(kernel=(3, 3), stride=(2, 2), pool_type="sum", pooling_convention="full"),
    dict(kernel=(1, 1), pool_type="avg", global_pool=True),
    dict(kernel=(1, 1), pool_type="max", global_pool=True),
    dict(kernel=(1, 1), pool_type="sum", global_pool=True),
])
def test_pooling_2d(kw):
    check(mx.sym.Pooling(var(), **kw), X4)


@pytest.mark.parametrize("pool_type", ["max", "avg", "sum"])
@pytest.mark.parametrize("kw", [dict(kernel=(2, 2), stride=(2, 2), pad=(1, 1)),
                                dict(kernel=(3, 2), stride=(2, 3), pad=(1, 1)),
                                dict(kernel=(1, 1), stride=(3, 3)),
                                dict(kernel=(3, 3), stride=(2, 2), pad=(1, 1),
                                     count_include_pad=False)])
def test_pooling_full_keeps_the_window_pytorch_ceil_mode_drops(pool_type, kw):
    """7 rows, kernel 2, stride 2, pad 1: MXNet's 'full' gives 5 outputs, PyTorch's
    ceil_mode 4 (its last window would start in the padding)."""
    t = check(mx.sym.Pooling(var(), pool_type=pool_type, pooling_convention="full", **kw),
              {"data": (2, 3, 7, 7)})
    assert "mx_pool_full(" in t.source


def test_pooling_1d_3d():
    check(mx.sym.Pooling(var(), kernel=(3,), stride=(2,), pool_type="max"), {"data": (2, 3, 9)})
    check(mx.sym.Pooling(var(), kernel=(2, 2, 2), stride=(2, 2, 2), pool_type="avg"),
          {"data": (1, 2, 4, 5, 6)})


def test_pooling_lp_is_refused():
    with pytest.raises(UnsupportedOperator, match="Pooling.*'p'.*pool_type='lp'"):
        check(mx.sym.Pooling(var(), kernel=(2, 2), pool_type="lp", p_value=2, name="p"), X4)


def test_adaptive_avg_pooling():
    check(mx.sym.contrib.AdaptiveAvgPooling2D(var(), output_size=(3, 2)), X4)


# --- dense layers, activations ----------------------------------------------------------------
@pytest.mark.parametrize("kw,shape", [
    (dict(num_hidden=5), (2, 4, 3, 2)),
    (dict(num_hidden=5, flatten=False), (2, 4, 3)),
    (dict(num_hidden=3, no_bias=True), (4, 6)),
])
def test_fully_connected(kw, shape):
    check(mx.sym.FullyConnected(var(), **kw), {"data": shape})


@pytest.mark.parametrize("act", ["relu", "sigmoid", "tanh", "softrelu", "softsign"])
def test_activation(act):
    check(mx.sym.Activation(var(), act_type=act), X4)


@pytest.mark.parametrize("kw", [dict(act_type="leaky", slope=0.1), dict(act_type="leaky"),
                                dict(act_type="elu", slope=0.7), dict(act_type="elu"),
                                dict(act_type="selu"), dict(act_type="gelu"),
                                dict(act_type="rrelu"), dict(act_type="prelu")])
def test_leaky_relu(kw):
    # MXNet's float64 leaky/prelu/selu kernels are accurate to about 2e-8 only (measured against
    # numpy here: 2.2e-8 for slope 0.25, which is exact in every dtype); elu, gelu and rrelu
    # match to 1e-12 once the slope is MXNet's float32 value
    # (gelu: 2.2e-7 from numpy's erf formula; MXNet's tanh approximation would be 4.7e-4 off)
    rtol = {"leaky": 1e-7, "prelu": 1e-7, "selu": 1e-7, "rrelu": 1e-7, "gelu": 1e-6}.get(
        kw["act_type"], 1e-12)
    check(mx.sym.LeakyReLU(var(), **kw)[0], X4, rtol=rtol)


def test_dropout_is_the_identity_at_inference():
    t = check(mx.sym.Dropout(var(), p=0.5), X4)
    t2 = check(mx.sym.Dropout(var(), p=0.3, axes=(2, 3)), X4)
    assert "nn.Dropout(0.5)" in t.source and "axes=(2, 3)" in t2.source


# --- shapes -----------------------------------------------------------------------------------
@pytest.mark.parametrize("shape,reverse", [
    ((0, -1), False), ((-1, 0), False), ((4, -1), False), ((-2,), False), ((0, -3, 0), False),
    ((-4, 1, 2, -2), False), ((0, 0, -4, -1, 3, 0), False), ((-3, -2), False),
    ((0, -1), True), ((-1, 0), True), ((4, 0, -1), True),
])
def test_reshape_special_codes(shape, reverse):
    check(mx.sym.Reshape(var(), shape=shape, reverse=reverse), {"data": (2, 4, 3, 6)})


@pytest.mark.parametrize("axes", [None, (0, 2, 3, 1), (3, 1, 0, 2)])
def test_transpose(axes):
    check(mx.sym.transpose(var(), axes=axes) if axes else mx.sym.transpose(var()), X4)


def test_flatten_expand_dims_squeeze_swapaxes():
    check(mx.sym.Flatten(var()), X4)
    check(mx.sym.expand_dims(var(), axis=2), X4)
    check(mx.sym.squeeze(var(), axis=(1,)), {"data": (3, 1, 4)})
    check(mx.sym.squeeze(var()), {"data": (3, 1, 4, 1)})
    check(mx.sym.SwapAxis(var(), dim1=1, dim2=3), X4)


@pytest.mark.parametrize("dim", [1, 0, 3])
def test_concat(dim):
    check(mx.sym.Concat(var("a"), var("b"), var("c"), dim=dim),
          {"a": (2, 3, 4, 5), "b": (2, 3, 4, 5), "c": (2, 3, 4, 5)})


def test_concat_default_dim_is_1():
    check(mx.sym.concat(var("a"), var("b")), {"a": (2, 3, 4), "b": (2, 5, 4)})


@pytest.mark.parametrize("kw", [dict(num_outputs=2), dict(num_outputs=3, axis=3),
                                dict(num_outputs=4, axis=1, squeeze_axis=True)])
def test_split(kw):
    parts = mx.sym.split(var(), **kw)
    # the outputs used in another order than produced: a permutation must fail, not pass
    check(mx.sym.Group([parts[i] for i in reversed(range(kw["num_outputs"]))]),
          {"data": (2, 4, 5, 6)})


@pytest.mark.parametrize("squeeze", [False, True])
def test_split_into_one_output_is_the_input(squeeze):
    """num_outputs=1 (GluonCV's Faster R-CNN splits its batch of one): one array, not a tuple
    of one, for the consumer (here a sum)."""
    check(mx.sym.split(var(), num_outputs=1, axis=0, squeeze_axis=squeeze) + 1,
          {"data": (1, 4, 5)})


@pytest.mark.parametrize("kw", [dict(begin=(0, 1), end=(2, 3)), dict(begin=(None, 1, 0), end=(None, None, 5)),
                                dict(begin=(1, 0, 0), end=(2, 4, 6), step=(1, 2, 3)),
                                dict(begin=(-1,), end=(None,))])
def test_slice(kw):
    check(mx.sym.slice(var(), **kw), {"data": (3, 4, 6)})


def test_slice_axis_slice_like():
    check(mx.sym.slice_axis(var(), axis=1, begin=1, end=3), {"data": (3, 4, 6)})
    check(mx.sym.slice_axis(var(), axis=2, begin=-4, end=None), {"data": (3, 4, 6)})
    check(mx.sym.slice_like(var("a"), var("b"), axes=(2, 3)), {"a": (2, 3, 8, 8), "b": (2, 3, 5, 6)})
    check(mx.sym.slice_like(var("a"), var("b")), {"a": (4, 5), "b": (2, 3)})


def test_negative_slice_step_is_refused():
    with pytest.raises(UnsupportedOperator, match="negative step"):
        check(mx.sym.slice(var(), begin=(None,), end=(None,), step=(-1,)), {"data": (5, 2)})


# --- arithmetic -------------------------------------------------------------------------------
@pytest.mark.parametrize("fn", [mx.sym.elemwise_add, mx.sym.elemwise_sub, mx.sym.elemwise_mul,
                                mx.sym.elemwise_div, lambda a, b: a + b, lambda a, b: a - b,
                                lambda a, b: a * b, lambda a, b: a / b])
def test_elementwise(fn):
    check(fn(var("a"), var("b")), {"a": (3, 4), "b": (3, 4)})


@pytest.mark.parametrize("fn", [mx.sym.broadcast_add, mx.sym.broadcast_sub, mx.sym.broadcast_mul,
                                mx.sym.broadcast_div, mx.sym.broadcast_maximum,
                                mx.sym.broadcast_minimum, mx.sym.broadcast_greater,
                                mx.sym.broadcast_equal, mx.sym.broadcast_lesser_equal])
def test_broadcast(fn):
    check(fn(var("a"), var("b")), {"a": (3, 1, 5), "b": (1, 4, 5)})


@pytest.mark.parametrize("fn", [lambda a: a + 2.5, lambda a: a - 1.5, lambda a: 3 - a,
                                lambda a: a * 0.5, lambda a: a / 4, lambda a: 2 / a,
                                lambda a: a ** 2, lambda a: mx.sym.maximum(a, 0.3),
                                lambda a: mx.sym.minimum(a, -0.2), lambda a: a > 0.1,
                                lambda a: mx.sym.clip(a, -0.5, 0.7), lambda a: mx.sym.exp(a),
                                lambda a: mx.sym.abs(a), lambda a: -a, lambda a: mx.sym.square(a),
                                lambda a: mx.sym.relu(a), lambda a: mx.sym.sigmoid(a)])
def test_scalar_and_unary(fn):
    check(fn(var("a")), {"a": (3, 4)})


def _mx_op(name):
    for ns in (mx.sym, mx.sym._internal, mx.sym.contrib):
        if hasattr(ns, name):
            return getattr(ns, name)
    raise AssertionError(f"MXNet 1.9.1 has no operator {name}")


@pytest.mark.parametrize("name", sorted(set(ops._BINARY) | set(ops._BINARY_F) | set(ops._COMPARE)))
def test_every_binary_spelling(name):
    fn = _mx_op(name)
    broadcast = name.startswith("broadcast_")
    a = mx.sym.abs(var("a")) + 0.5 if "power" in name else var("a")    # no negative bases
    check(fn(a, var("b")), {"a": (3, 4), "b": (1, 4) if broadcast else (3, 4)}, as_op=name)


@pytest.mark.parametrize("name", sorted(set(ops._SCALAR) | set(ops._UNARY)))
def test_every_scalar_and_unary_spelling(name):
    fn = _mx_op(name)
    sym = fn(var("a"), scalar=0.3) if name in ops._SCALAR else fn(var("a"))
    a = {"a": (3, 4)}
    if name in ("log", "sqrt", "rsqrt", "_rpower_scalar") or name.startswith("_power"):
        sym = fn(mx.sym.abs(var("a")) + 0.5, **({"scalar": 0.3} if name in ops._SCALAR else {}))
    check(sym, a, as_op=name)


# --- softmax and loss layers ------------------------------------------------------------------
@pytest.mark.parametrize("sym", [mx.sym.softmax(var(), axis=1), mx.sym.softmax(var()),
                                 mx.sym.log_softmax(var(), axis=2),
                                 mx.sym.softmax(var(), axis=1, temperature=2.0),
                                 mx.sym.SoftmaxActivation(var()),
                                 mx.sym.SoftmaxActivation(var(), mode="channel")])
def test_softmax(sym):
    float32 = "SoftmaxActivation" in sym.tojson()     # MXNet: float32 only
    check(sym, {"data": (2, 3, 4)}, **(dict(dtype="float32", rtol=1e-6) if float32 else {}))


@pytest.mark.parametrize("kw,shape", [({}, (4, 5)), ({}, (2, 3, 4)),
                                      ({"multi_output": True}, (2, 3, 4)),
                                      ({"preserve_shape": True}, (2, 3, 4))])
def test_softmax_output_returns_probabilities_and_drops_its_label(kw, shape):
    sym = mx.sym.SoftmaxOutput(var(), mx.sym.var("softmax_label"), **kw)
    t = check(sym, {"data": shape}, labels=("softmax_label",))
    assert t.inputs == ["data"]


def test_regression_outputs():
    for f in (mx.sym.LinearRegressionOutput, mx.sym.LogisticRegressionOutput,
              mx.sym.MAERegressionOutput):
        check(f(var(), mx.sym.var("label")), {"data": (3, 2)}, labels=("label",))


# --- embedding, resizing, normalisation, reductions -------------------------------------------
def test_embedding_takes_float_indices():
    t = check(mx.sym.Embedding(var(), input_dim=7, output_dim=3), {"data": (2, 5)}, ints=("data",))
    assert ".long()" in t.source


def test_upsampling_and_bilinear_resize():
    check(mx.sym.UpSampling(var(), scale=2, sample_type="nearest"), X4)
    # align_corners=True: MXNet's float64 kernel is 2.2e-7 from the exact interpolation
    check(mx.sym.contrib.BilinearResize2D(var(), height=9, width=4), X4, rtol=1e-6)
    check(mx.sym.contrib.BilinearResize2D(var(), height=14, width=12, align_corners=False), X4)


def test_upsampling_bilinear_is_refused():
    sym = mx.sym.UpSampling(var(), mx.sym.var("w"), scale=2, sample_type="bilinear", num_filter=4)
    with pytest.raises(UnsupportedOperator, match="sample_type='bilinear'"):
        check(sym, X4)


@pytest.mark.parametrize("name", ["mean", "sum", "max", "min", "prod"])
@pytest.mark.parametrize("kw", [{}, dict(axis=1), dict(axis=(1, 3), keepdims=True),
                                dict(axis=(0, 2), exclude=True)])
def test_reductions(name, kw):
    check(getattr(mx.sym, name)(var(), **kw), {"data": (2, 3, 2, 4)})


@pytest.mark.parametrize("name", ["sum_axis", "max_axis", "min_axis"])
def test_reduction_aliases(name):
    base = {"sum_axis": "sum", "max_axis": "max", "min_axis": "min"}[name]
    check(getattr(mx.sym, base)(var(), axis=2), {"data": (2, 3, 4)}, as_op=name)


def test_nansum_stack_broadcast_like_and_fills():
    check(mx.sym.nansum(mx.sym.log(mx.sym.abs(var()) - 0.5), axis=1), {"data": (3, 4)})  # nans
    check(mx.sym.stack(var("a"), var("b"), axis=1), {"a": (3, 4), "b": (3, 4)})
    check(mx.sym.broadcast_like(var("a"), var("b")), {"a": (1, 4), "b": (3, 4)})
    check(var() + mx.sym.zeros((2, 3), dtype="float64"), {"data": (2, 3)})
    t = check(var() + mx.sym.ones((2, 3), dtype="float64"), {"data": (2, 3)})
    assert "dtype=torch.float64" in t.source
    d = var()
    check(mx.sym.zeros_like(d) + mx.sym.ones_like(d), {"data": (2, 3)})


def test_cast_and_identities():
    t = check(mx.sym.Cast(var(), dtype="float32"), {"data": (3, 4)}, rtol=1e-6)
    # the graph's float32 is the module's float type: .double() runs it in float64, as
    # mxreference --float64 runs MXNet's graph with its float32 casts and constants cast
    assert "self._float.dtype" in t.source
    x = torch.ones(3, 4, dtype=torch.float64)
    assert t.module(x.float()).dtype == torch.float32
    assert t.module.double()(x).dtype == torch.float64
    t = check(mx.sym.Cast(var(), dtype="float16"), {"data": (3, 4)}, rtol=1e-3)
    assert "torch.float16" in t.source
    check(mx.sym.BlockGrad(var()), X4)
    check(mx.sym.identity(var()), X4)
    check(mx.sym._internal._copy(var()), X4, as_op="_copy")
    check(mx.sym.identity(var()), X4, as_op="_identity_with_attr_like_rhs")
    check(mx.sym.BlockGrad(var()), X4, as_op="stop_gradient")


def test_norms():
    # MXNet has float32 kernels only for LRN and InstanceNorm
    check(mx.sym.LRN(var(), nsize=3, alpha=0.01, beta=0.7, knorm=1.5), X4, dtype="float32", rtol=1e-6)
    check(mx.sym.InstanceNorm(var(), eps=1e-3), X4, dtype="float32", rtol=1e-6)
    check(mx.sym.LayerNorm(var()), {"data": (2, 3, 5)})
    check(mx.sym.LayerNorm(var(), axis=1, eps=1e-3), {"data": (2, 3, 5)})
    for mode in ("instance", "channel", "spatial"):
        check(mx.sym.L2Normalization(var(), mode=mode), X4)


def test_dot_where_broadcast_to_pad():
    check(mx.sym.dot(var("a"), var("b")), {"a": (3, 4), "b": (4, 2)})
    check(mx.sym.dot(var("a"), var("b"), transpose_b=True), {"a": (3, 4), "b": (2, 4)})
    # any rank: the last axis of a with the first of b
    check(mx.sym.dot(mx.sym.Flatten(var("a")).reshape((2, 3, 4)), var("b")),
          {"a": (2, 12), "b": (4, 5)})
    check(mx.sym.batch_dot(var("a"), var("b"), transpose_a=True), {"a": (2, 4, 3), "b": (2, 4, 5)})
    check(mx.sym.where(var("c") > 0, var("a"), var("b")), {"c": (3, 4), "a": (3, 4), "b": (3, 4)})
    check(mx.sym.broadcast_to(var(), shape=(3, 0, 4)), {"data": (1, 2, 4)})
    check(mx.sym.Pad(var(), mode="constant", pad_width=(0, 0, 0, 0, 1, 2, 2, 1),
                     constant_value=0.5), X4)
    check(mx.sym.Pad(var(), mode="edge", pad_width=(0, 0, 0, 0, 1, 2, 2, 1)), X4)
    check(mx.sym.Pad(var(), mode="reflect", pad_width=(0, 0, 0, 0, 1, 2, 2, 1)), X4)


# --- the fused RNN ----------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["lstm", "gru", "rnn_tanh", "rnn_relu"])
@pytest.mark.parametrize("layers,bidirectional", [(1, False), (2, True)])
def test_fused_rnn_unpacks_its_parameter_vector(mode, layers, bidirectional):
    states = [var("h0")] + ([var("c0")] if mode == "lstm" else [])
    sym = mx.sym.RNN(var(), mx.sym.var("rnn_parameters"), *states, mode=mode, state_size=5,
                     num_layers=layers, bidirectional=bidirectional, state_outputs=True)
    d = 2 if bidirectional else 1
    shapes = {"data": (6, 3, 4), "h0": (layers * d, 3, 5)}
    if mode == "lstm":
        shapes["c0"] = (layers * d, 3, 5)
    # MXNet's own float64 relu RNN is 2.7e-6 off numpy's exact recurrence at |h| <= 83 (3e-8
    # relative, one layer; measured here, with or without oneDNN's RNN): the bound there is 1e-6
    t = check(sym, shapes, rtol=1e-6 if mode == "rnn_relu" else 1e-11)
    assert {"lstm": "nn.LSTM(", "gru": "nn.GRU("}.get(mode, "nn.RNN(") in t.source


# --- ranges, repeats and indexing (detectors' and NLP models' post-processing) --------------------
@pytest.mark.parametrize("kw", [dict(start=0, stop=20), dict(start=20), dict(start=256),
                                dict(start=1.5, stop=7, step=0.5, repeat=3),
                                dict(start=5, stop=-3, step=-2, dtype="int32")])
def test_arange_forms_the_detectors_use(kw):
    """The forms GluonCV's YOLOv3, SSD, CenterNet and Faster R-CNN export (stop=None means
    arange(start)), a repeat, a negative step and an integer dtype."""
    check(mx.sym.arange(**kw) + 0, {}, values={})


def test_arange_like_follows_its_input():
    check(mx.sym.contrib.arange_like(var(), start=2, step=0.5, repeat=2, axis=1), {"data": (3, 5)})
    check(mx.sym.contrib.arange_like(var(), start=1, step=3), {"data": (2, 3, 4)})


@pytest.mark.parametrize("reps", [(1, 40), (20, 1, 1, 1, 1), (2,), (2, 3)])
def test_tile_with_shorter_and_longer_reps(reps):
    check(mx.sym.tile(var(), reps=reps), {"data": (3, 4)})


def test_repeat_on_an_axis_and_flattened():
    check(mx.sym.repeat(var(), repeats=2, axis=-1), {"data": (2, 3, 4)})
    check(mx.sym.repeat(var(), repeats=2, axis=-2), {"data": (2, 3, 4)})
    check(mx.sym.repeat(var(), repeats=3), {"data": (2, 3)})


def test_broadcast_axis_reverse_and_shape_arrays():
    check(mx.sym.broadcast_axis(var(), axis=2, size=4), {"data": (2, 3, 1)})
    check(mx.sym.broadcast_axis(var(), axis=(0, 2), size=(3, 5)), {"data": (1, 3, 1)})
    check(mx.sym.reverse(var(), axis=1), {"data": (2, 3, 4)})
    check(mx.sym.reverse(var(), axis=(0, 2)), {"data": (2, 3, 4)})
    check(mx.sym.shape_array(var()) + 0, {"data": (2, 3, 4)}, dtype="float64")
    check(mx.sym.size_array(var()) + 0, {"data": (2, 3, 4)})


def test_mod_has_the_divisors_sign_and_zero_for_zero():
    """MXNet's mod is Python's % (the divisor's sign) and gives 0 where the divisor is 0,
    where torch.remainder gives nan."""
    a = np.array([[7.0, -7.0, 7.5, -7.5, 3.0, 0.0]])
    bb = np.array([[3.0, 3.0, -2.0, -2.0, 0.0, 4.0]])
    check(mx.sym.broadcast_mod(var("a"), var("b")), {"a": (1, 6), "b": (1, 6)},
          values={"a": a, "b": bb})
    check(mx.sym.broadcast_mod(var("a"), var("b")), {"a": (2, 6), "b": (1, 6)},
          values={"a": np.vstack([a, -a * 1.25]), "b": bb})


def test_integer_arithmetic_is_cs():
    """On integers (CenterNet decodes its top-k indices as int64) MXNet divides by truncation,
    casts a scalar to the integer type first (x * 2.5 is x * 2) and takes mod with the
    divisor's sign; the result is cast back to float here, as the detectors do."""
    a = np.array([[7.0, -7.0, 9.0, -9.0, 5.0, 12.0]])
    bb = np.array([[2.0, 2.0, -4.0, -4.0, 3.0, 5.0]])
    ia, ib = mx.sym.cast(var("a"), "int64"), mx.sym.cast(var("b"), "int64")
    shapes, values = {"a": a.shape, "b": bb.shape}, {"a": a, "b": bb}
    for sym in (mx.sym.broadcast_div(ia, ib), mx.sym.broadcast_mod(ia, ib),
                mx.sym.cast(var("a"), "int32") + mx.sym.cast(var("b"), "int32") / 3):
        check(mx.sym.cast(sym, "float64"), shapes, values=values)
    for sym in (ia * 2.5, ia / 2, ia - 1.5):
        check(mx.sym.cast(sym, "float64"), {"a": a.shape}, values={"a": a})


def test_div_sqrt_dim_and_gather_nd():
    check(mx.sym.contrib.div_sqrt_dim(var()), {"data": (2, 3, 8)})
    idx = np.array([[0, 1, 1, 0], [2, 0, 1, 2]])
    check(mx.sym.gather_nd(var(), var("idx")), {"data": (2, 3, 4), "idx": (2, 4)},
          values={"idx": idx})
    check(mx.sym.gather_nd(var(), var("idx")), {"data": (2, 3), "idx": (2, 2, 2)},
          values={"idx": np.array([[[0, 1], [1, 0]], [[2, 0], [1, 1]]])})


@pytest.mark.parametrize("kw", [dict(k=3, ret_typ="both"), dict(k=2, ret_typ="indices"),
                                dict(k=2, ret_typ="value", is_ascend=True, axis=1),
                                dict(k=2, ret_typ="mask", axis=0), dict(k=4, axis=None),
                                dict(k=2, ret_typ="indices", dtype="int32")])
def test_topk_every_return_type(kw):
    t = check(mx.sym.topk(var(), **kw), {"data": (3, 5)})
    if kw["ret_typ"] == "both" if "ret_typ" in kw else False:
        assert len(t.outputs) == 2


@pytest.mark.parametrize("axis", [0, 1])
def test_sequence_mask_last_with_lengths(axis):
    shape = (5, 3, 2) if axis == 0 else (3, 5, 2)
    lengths = np.array([5.0, 2.0, 1.0])
    check(mx.sym.SequenceMask(var(), var("len"), use_sequence_length=True, value=-1.5,
                              axis=axis), {"data": shape, "len": (3,)}, values={"len": lengths})
    check(mx.sym.SequenceLast(var(), var("len"), use_sequence_length=True, axis=axis),
          {"data": shape, "len": (3,)}, values={"len": lengths})
    check(mx.sym.SequenceLast(var(), axis=axis), {"data": shape})
    check(mx.sym.SequenceMask(var(), axis=axis), {"data": shape})


def test_sequence_reverse_with_lengths():
    check(mx.sym.SequenceReverse(var(), var("len"), use_sequence_length=True),
          {"data": (5, 3, 2), "len": (3,)}, values={"len": np.array([5.0, 2.0, 3.0])})
    check(mx.sym.SequenceReverse(var()), {"data": (5, 3, 2)})


# --- attention (GluonNLP's BERT and transformers) ---------------------------------------------
@pytest.mark.parametrize("axis,temperature", [(-1, None), (1, 2.0)])
def test_softmax_with_lengths(axis, temperature):
    """BERT's masked attention: along the axis only the first `length` values count, the
    rest are 0 (a length of 0 gives a row of zeros)."""
    lengths = np.array([[1, 4, 2], [3, 0, 4]]) if axis == -1 else np.array([[1, 4], [3, 2]])
    shape = (2, 3, 4) if axis == -1 else (2, 4, 2)
    check(mx.sym.softmax(var(), mx.sym.cast(var("len"), "int32"), axis=axis, use_length=True,
                         temperature=temperature), {"data": shape, "len": lengths.shape},
          values={"len": lengths}, any_order=True)


def test_interleaved_self_attention_as_bert_exports_it():
    """(T, N, heads * 3 * D) interleaved projections: the scaled scores, then the attention
    applied to the values. MXNet has these kernels in float32 only (on CPU)."""
    qkv = var("qkv")
    scores = mx.sym.contrib.interleaved_matmul_selfatt_qk(qkv, heads=3)
    check(scores, {"qkv": (5, 2, 3 * 3 * 4)}, dtype="float32", rtol=1e-6)
    att = mx.sym.softmax(scores, axis=-1)
    check(mx.sym.contrib.interleaved_matmul_selfatt_valatt(qkv, att, heads=3),
          {"qkv": (5, 2, 3 * 3 * 4)}, dtype="float32", rtol=1e-6)
    # the valatt alone (attention given): its helper stands without the qk's
    check(mx.sym.contrib.interleaved_matmul_selfatt_valatt(qkv, var("att"), heads=3),
          {"qkv": (5, 2, 3 * 3 * 4), "att": (6, 5, 5)}, dtype="float32", rtol=1e-6)


def test_interleaved_encoder_decoder_attention():
    q, kv = var("q"), var("kv")
    shapes = {"q": (4, 2, 3 * 5), "kv": (6, 2, 3 * 2 * 5)}
    scores = mx.sym.contrib.interleaved_matmul_encdec_qk(q, kv, heads=3)
    check(scores, shapes, dtype="float32", rtol=1e-6)
    check(mx.sym.contrib.interleaved_matmul_encdec_valatt(kv, var("att"), heads=3),
          {"kv": (6, 2, 3 * 2 * 5), "att": (6, 4, 6)}, dtype="float32", rtol=1e-6)


def test_fully_connected_on_weights_computed_from_parameters():
    """GluonNLP's attention concatenates the query, key and value weights in the graph: the
    translation keeps the three parameters and computes the weight as MXNet does."""
    w = mx.sym.concat(*[mx.sym.reshape(mx.sym.var(f"w{i}", shape=(6, 4)), shape=(2, -1, 0),
                                       reverse=True) for i in range(3)], dim=-2)
    bias = mx.sym.reshape(mx.sym.stack(*[mx.sym.reshape(mx.sym.var(f"b{i}", shape=(6,)),
                                                        shape=(2, -1), reverse=True)
                                         for i in range(3)], axis=1), shape=-1)
    sym = mx.sym.FullyConnected(var(), mx.sym.reshape(w, shape=(-1, 0), reverse=True), bias,
                                num_hidden=18, flatten=False)
    t = check(sym, {"data": (3, 2, 4)})
    assert "F.linear(" in t.source and sorted(t.mx_names.values())[:3] == ["b0", "b1", "b2"]


def test_in_place_relu_and_sum_only_where_nothing_else_reads_the_tensor():
    """The forward does a ReLU or a sum in place (as torchvision's ResNets do) only on a
    tensor nothing else reads: here conv ``c`` feeds a ReLU and a sum, so both stay out of
    place; ``d``'s ReLU and the last sum overwrite tensors no one else needs. Values as
    MXNet's, and every intermediate is deleted after its last use."""
    x = var()
    c = mx.sym.Convolution(x, kernel=(1, 1), num_filter=2, name="c")
    s = mx.sym.Activation(c, act_type="relu", name="r") + c
    d = mx.sym.Activation(mx.sym.Convolution(x, kernel=(1, 1), num_filter=2, name="d"),
                          act_type="relu", name="e")
    t = check(mx.sym.relu(s + d, name="out"), {"data": (2, 3, 4, 4)})
    forward = t.source.split("def forward")[1]
    assert "r = torch.relu(c)" in forward and "torch.relu_(d)" in forward
    assert forward.count(".add_(") == 1 and "torch.relu_(" in forward.split(".add_(")[1]
    assert "del c" in forward and "del data" not in forward


# --- boxes (GluonCV detectors) ---------------------------------------------------------------
def boxes(n, batch=2, width=6, seed=0, ids=3):
    """Rows [id, score, x1, y1, x2, y2] of crowded boxes (many overlaps), a few degenerate;
    scores in steps of 0.05 (ties: MXNet's sort is stable) and fractional class ids (MXNet
    compares them as ints: 1.2 and 1.7 are one class)."""
    rng = np.random.default_rng(seed)
    xy = rng.uniform(0, 10, (batch, n, 2))
    wh = rng.uniform(0.5, 4, (batch, n, 2))
    wh[:, :3] *= -1                                   # negative widths: MXNet's zero area
    ids = rng.integers(0, ids, (batch, n, 1)) + rng.choice([0.0, 0.25, 0.75], (batch, n, 1))
    score = np.round(rng.uniform(0, 1, (batch, n, 1)) * 20) / 20
    rows = np.concatenate([ids, score, xy, xy + wh], axis=-1)
    return rows[..., :width]


@pytest.mark.parametrize("kw", [
    dict(overlap_thresh=0.45, valid_thresh=0.01, topk=400, coord_start=2, score_index=1,
         id_index=0, force_suppress=False),                            # YOLOv3, SSD
    dict(overlap_thresh=0.7, topk=30, coord_start=1, score_index=0, id_index=-1,
         force_suppress=True),                                         # Faster R-CNN's RPN
    dict(overlap_thresh=0.3, valid_thresh=0.3, topk=-1, id_index=0, background_id=1),
    dict(overlap_thresh=0.5, id_index=0, force_suppress=True, in_format="center",
         out_format="corner"),
    dict(overlap_thresh=0.5, out_format="center"),
    dict(overlap_thresh=0.5, topk=0),
])
def test_box_nms_as_mxnet_orders_and_pads(kw):
    data = boxes(60)
    if kw.get("coord_start") == 1:
        data = data[..., 1:]
    check(mx.sym.contrib.box_nms(var(), **kw), {"data": data.shape}, values={"data": data})


def test_box_nms_keeps_a_box_at_exactly_the_threshold_and_chains():
    """IoU == overlap_thresh does not suppress (MXNet's test is >): [0, 0, 4, 1] and
    [0, 0, 2, 1] overlap by exactly 0.5. And a chain: the second box suppresses the third but
    is itself suppressed by the first, so the third is kept (greedy, not one round)."""
    data = np.array([[[0.9, 0, 0, 4, 1], [0.8, 0, 0, 2, 1],
                      [0.9, 10, 0, 12, 1], [0.8, 10.5, 0, 12.5, 1], [0.7, 11, 0, 13, 1]]])
    check(mx.sym.contrib.box_nms(var(), overlap_thresh=0.5, coord_start=1, score_index=0),
          {"data": data.shape}, values={"data": data})


def test_box_nms_on_a_single_image_and_when_nothing_is_valid():
    data = boxes(20, batch=1)[0]
    check(mx.sym.contrib.box_nms(var(), overlap_thresh=0.5, id_index=0), {"data": data.shape},
          values={"data": data})
    check(mx.sym.contrib.box_nms(var(), overlap_thresh=0.5, valid_thresh=2.0),
          {"data": data.shape}, values={"data": data})


@pytest.mark.parametrize("kw", [dict(format="center", std0=0.1, std1=0.1, std2=0.2, std3=0.2),
                                dict(format="corner"),
                                dict(format="corner", std0=0.1, std1=0.1, std2=0.2, std3=0.2,
                                     clip=0.5)])
def test_box_decode_both_anchor_formats(kw):
    anchors = boxes(7, batch=1, seed=1)[..., 2:]
    anchors[..., 2:] = np.abs(anchors[..., 2:] - anchors[..., :2]) + anchors[..., :2]
    check(mx.sym.contrib.box_decode(var(), var("anchors"), **kw),
          {"data": (2, 7, 4), "anchors": (1, 7, 4)}, values={"anchors": anchors})


def test_roi_align_gives_zeros_for_a_negative_batch_index():
    """MXNet 1.9.1 zeroes only the first value of such a ROI's output and leaves the rest
    unset (roi_align.cc: top_data[n] = 0, not top_data[index_n]): the translation gives zeros
    for the whole ROI, and the other ROIs as MXNet."""
    sym = mx.sym.contrib.ROIAlign(var(), var("rois"), pooled_size=(2, 2), spatial_scale=0.5)
    x = RNG.standard_normal((2, 3, 8, 8))
    rois = np.array([[1, 1.0, 1.0, 9.0, 7.0], [-1, 0.0, 0.0, 6.0, 6.0], [0, 2.0, 0.0, 5.0, 9.0]])
    SEEN_OPS.add("_contrib_ROIAlign")
    t = codegen.translation(sym.tojson(), {})
    with torch.no_grad():
        got = t.module(torch.from_numpy(x), torch.from_numpy(rois)).numpy()
    assert np.all(got[1] == 0) and np.abs(got[[0, 2]]).min() > 0
    expected = mxnet_outputs(sym, {"data": x, "rois": rois[[0, 2]]}, {})[0]
    np.testing.assert_allclose(got[[0, 2]], expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("kw", [dict(pooled_size=(3, 3), spatial_scale=0.25, sample_ratio=2),
                                dict(pooled_size=(2, 4), spatial_scale=0.5),
                                dict(pooled_size=(2, 2), spatial_scale=0.5, sample_ratio=1,
                                     aligned=True)])
def test_roi_align_as_torchvisions(kw):
    rois = np.array([[0, 1.0, 2.0, 20.0, 14.0], [1, 4.5, 0.0, 9.0, 31.0],
                     [1, 3.0, 3.0, 3.2, 3.1], [0, -4.0, 10.0, 40.0, 50.0]])
    check(mx.sym.contrib.ROIAlign(var(), var("rois"), **kw),
          {"data": (2, 3, 16, 12), "rois": rois.shape}, values={"rois": rois})


def ties(shape, seed=1):
    """Values with many ties (integers in [-2, 2])."""
    return np.round(np.random.default_rng(seed).uniform(-2.4, 2.4, shape))


@pytest.mark.parametrize("op,kw", [("argmax", dict(axis=1)), ("argmin", dict(axis=-1)),
                                   ("argmax", dict(axis=0, keepdims=True)), ("argmin", {}),
                                   ("argmax", dict(keepdims=True))])
def test_argmax_argmin_take_the_first_of_ties(op, kw):
    data = ties((3, 4, 5))
    check(getattr(mx.sym, op)(var(), **kw), {"data": data.shape}, values={"data": data})


@pytest.mark.parametrize("op,kw", [("sort", {}), ("sort", dict(axis=0, is_ascend=False)),
                                   ("sort", dict(axis=None)), ("argsort", {}),
                                   ("argsort", dict(axis=1, is_ascend=False)),
                                   ("argsort", dict(axis=None, dtype="int32")),
                                   ("argsort", dict(axis=0, is_ascend=False, dtype="int64"))])
def test_sort_and_argsort_as_mxnet(op, kw):
    """Ties along axes of at most 16 elements, where MXNet's std::sort is an insertion sort
    (stable, as the translation's); the flattened input (72 elements) without ties, since
    std::sort's order among them is libstdc++'s own."""
    data = ties((4, 6, 3)) if kw.get("axis", -1) is not None else \
        np.random.default_rng(3).permutation(72).reshape(4, 6, 3) / 7.0
    check(getattr(mx.sym, op)(var(), **kw), {"data": data.shape}, values={"data": data})


@pytest.mark.parametrize("kw", [dict(axis=1), dict(axis=-1, keepdims=True),
                                dict(axis=0, mode="wrap"), dict(axis=1, mode="wrap")])
def test_pick_truncates_then_clips_or_wraps(kw):
    data = RNG.standard_normal((3, 5, 4))
    shape = list(data.shape)
    shape[kw["axis"]] = 1
    index = np.random.default_rng(2).uniform(-7, 9, shape)
    if not kw.get("keepdims"):
        index = index.squeeze(kw["axis"])
    check(mx.sym.pick(var(), var("index"), **kw), {"data": data.shape, "index": index.shape},
          values={"data": data, "index": index})


@pytest.mark.parametrize("kw", [dict(), dict(axis=1), dict(axis=-1, mode="wrap"),
                                dict(axis=0, mode="wrap")])
def test_take_truncates_then_clips_or_wraps(kw):
    data = RNG.standard_normal((4, 5, 3))
    indices = np.array([[0.7, -1.0, 2.5], [9.0, -6.2, 1.0]])
    check(mx.sym.take(var(), var("indices"), **kw),
          {"data": data.shape, "indices": indices.shape},
          values={"data": data, "indices": indices})


@pytest.mark.parametrize("kw", [dict(depth=4), dict(depth=3, on_value=2.5, off_value=-1.0),
                                dict(depth=5, dtype="int32")])
def test_one_hot_of_fractional_and_out_of_range_indices(kw):
    indices = np.array([[0.0, 1.9, 3.0], [-1.0, 7.0, 2.2]])
    check(mx.sym.one_hot(var(), **kw), {"data": indices.shape}, values={"data": indices})


@pytest.mark.parametrize("kw", [dict(), dict(ord=1), dict(axis=1), dict(axis=(0, 2), ord=1),
                                dict(axis=-1, keepdims=True), dict(keepdims=True)])
def test_norm_l1_and_l2(kw):
    check(mx.sym.norm(var(), **kw), {"data": (3, 4, 5)})


@pytest.mark.parametrize("kw", [dict(pooled_size=(2, 2), spatial_scale=0.5),
                                dict(pooled_size=(3, 2), spatial_scale=0.25),
                                dict(pooled_size=(7, 7), spatial_scale=1.0)])
def test_roi_pooling_as_mxnet(kw):
    """Corners that round half away from zero (2.5 * 1.0), a ROI wider than the map, one of
    zero size, one whose batch index is out of range (zeros)."""
    rois = np.array([[0, 1.0, 2.0, 20.0, 14.0], [1, 4.5, 0.0, 9.0, 31.0],
                     [1, 2.5, 3.0, 2.5, 3.0], [0, -4.0, 10.0, 40.0, 50.0],
                     [2, 1.0, 1.0, 5.0, 5.0], [-1, 1.0, 1.0, 5.0, 5.0]])
    t = check(mx.sym.ROIPooling(var(), var("rois"), **kw),
              {"data": (2, 3, 16, 12), "rois": rois.shape}, values={"rois": rois})
    assert "roi_pool" in t.source


@pytest.mark.parametrize("kw", [dict(sizes=(0.5, 0.25), ratios=(1, 2, 0.5)),
                                dict(sizes=(0.3,), ratios=(1,), clip=True),
                                dict(sizes=(0.2, 0.7), ratios=(1, 3), steps=(0.1, 0.125),
                                     offsets=(0.3, 0.6), clip=True)])
def test_multibox_prior_in_float32_as_mxnet(kw):
    """SSD's anchors on a 5 x 7 map, bit for bit (rtol 0). MXNet's operator takes float32
    only; the translation computes in float32 as its kernel does and returns the input's
    dtype."""
    check(mx.sym.contrib.MultiBoxPrior(var(), **kw), {"data": (2, 3, 5, 7)}, rtol=0,
          dtype="float32")


def multibox_inputs(batch=2, n_class=4, seed=0):
    """Class probabilities with ties (steps of 0.1) over 30 crowded anchors, offsets."""
    rng = np.random.default_rng(seed)
    n = 30
    centre = rng.uniform(0.2, 0.8, (n, 2))
    half = rng.uniform(0.05, 0.3, (n, 2))
    anchor = np.concatenate([centre - half, centre + half], axis=1)[None]
    prob = np.round(rng.dirichlet(np.ones(n_class), (batch, n)).transpose(0, 2, 1), 1)
    loc = rng.normal(0, 1, (batch, n * 4))
    return {"cls_prob": prob, "loc_pred": loc, "anchor": anchor}


@pytest.mark.parametrize("kw", [
    dict(),
    dict(nms_topk=8, nms_threshold=0.3),                      # rows after topk keep values
    dict(force_suppress=True, threshold=0.3, clip=False),
    dict(nms_threshold=0.0),                                  # no NMS: anchor order
    dict(threshold=0.95),                                     # nothing valid
    dict(nms_threshold=0.45, variances=(0.2, 0.2, 0.1, 0.1), nms_topk=100),
])
def test_multibox_detection_as_mxnets_cpu_kernel(kw):
    values = multibox_inputs()
    sym = mx.sym.contrib.MultiBoxDetection(var("cls_prob"), var("loc_pred"), var("anchor"),
                                           **kw)
    check(sym, {k: v.shape for k, v in values.items()}, values=values, dtype="float32",
          rtol=1e-6)        # MXNet's operator takes float32 only


def test_multibox_detection_suppresses_at_exactly_the_threshold():
    """Boxes [0, 0, 0.5, 0.25] and [0, 0, 0.25, 0.25] overlap by exactly 0.5: MXNet's CPU
    kernel suppresses at IoU >= nms_threshold (box_nms needs >)."""
    anchor = np.array([[[0, 0, 0.5, 0.25], [0, 0, 0.25, 0.25], [0.6, 0.6, 0.9, 0.9]]])
    prob = np.array([[[0.1, 0.2, 0.3], [0.9, 0.8, 0.7]]])
    values = {"cls_prob": prob, "loc_pred": np.zeros((1, 12)), "anchor": anchor}
    sym = mx.sym.contrib.MultiBoxDetection(var("cls_prob"), var("loc_pred"), var("anchor"),
                                           nms_threshold=0.5)
    check(sym, {k: v.shape for k, v in values.items()}, values=values, dtype="float32",
          rtol=0)
    assert mxnet_outputs(sym, {k: v.astype(np.float32) for k, v in values.items()}, {},
                         "float32")[0][0, 1, 0] == -1


def rpn_inputs(batch=1, seed=0):
    """An RPN's outputs on a 6 x 5 map (stride 16, 6 anchors): objectness in steps of 0.05
    (ties: MXNet's sort is stable), deltas, and images smaller than the map covers (the
    positions outside get score -1)."""
    rng = np.random.default_rng(seed)
    prob = np.round(rng.uniform(0, 1, (batch, 12, 6, 5)) * 20) / 20
    deltas = rng.normal(0, 0.3, (batch, 24, 6, 5))
    info = np.array([[86.0, 75.0, 1.0], [96.0, 61.0, 0.6]])[:batch]
    return {"cls_prob": prob, "bbox_pred": deltas, "im_info": info}


@pytest.mark.parametrize("kw", [
    dict(rpn_pre_nms_top_n=100, rpn_post_nms_top_n=30, output_score=True),
    dict(rpn_pre_nms_top_n=-1, rpn_post_nms_top_n=150, threshold=0.3, rpn_min_size=8),
    dict(rpn_pre_nms_top_n=60, rpn_post_nms_top_n=20, iou_loss=True, output_score=True),
])
@pytest.mark.parametrize("multi", [False, True])
def test_proposal_as_mxnets_cpu_kernel(kw, multi):
    """Proposal (one image) and MultiProposal (two, with different im_info): the kept boxes
    in score order, repeated cyclically when fewer than rpn_post_nms_top_n survive."""
    values = rpn_inputs(batch=2 if multi else 1)
    make = mx.sym.contrib.MultiProposal if multi else mx.sym.contrib.Proposal
    sym = make(var("cls_prob"), var("bbox_pred"), var("im_info"), feature_stride=16,
               scales=(2, 4), ratios=(0.5, 1, 2), **kw)
    check(sym, {k: v.shape for k, v in values.items()}, values=values, dtype="float32",
          rtol=1e-6)        # MXNet's operator takes float32 only


# --- MXNet's float32 kernels inside float64 ----------------------------------------------------
def _deviation(sym, shapes):
    """MXNet's float64 output against the translation's float64 one (exact here), relative to
    its max |value|; and whether ops.float32_kernel says the output node rounds to float32."""
    graph = json.loads(sym.tojson())
    SEEN_OPS.update(n["op"] for n in graph["nodes"])
    args, aux = values_for(sym, shapes)
    args = {k: v * 3 for k, v in args.items()}
    expected = mxnet_outputs(sym, args, aux)[0]
    params = {f"arg:{k}": v for k, v in args.items() if k not in shapes}
    t = codegen.translation(graph, params)
    with torch.no_grad():
        got = t.module.double()(*[torch.from_numpy(args[k]) for k in t.inputs])
    got = (got[0] if isinstance(got, tuple) else got).numpy()
    from sidebyside.mx2torch.graph import read_symbol
    g = read_symbol(graph)
    head = g.nodes[g.heads[0][0]]
    return float(np.abs(got - expected).max() / np.abs(expected).max()), ops.float32_kernel(head)


@pytest.mark.parametrize("make,shapes,rounds", [
    (lambda: mx.sym.LeakyReLU(var(), act_type="leaky", slope=0.1), X4, True),
    (lambda: mx.sym.LeakyReLU(var(), var("gamma"), act_type="prelu"), X4, True),
    (lambda: mx.sym.LeakyReLU(var(), act_type="selu"), X4, True),
    (lambda: mx.sym.LeakyReLU(var(), act_type="gelu"), X4, True),
    (lambda: mx.sym.LeakyReLU(var(), act_type="elu", slope=0.3), X4, False),
    (lambda: mx.sym.contrib.BilinearResize2D(var(), height=37, width=29), X4, True),
    (lambda: mx.sym.Activation(var(), act_type="tanh"), X4, False),
])
def test_float32_kernels_inside_float64(make, shapes, rounds):
    """The table --check --float64 relies on (ops.FLOAT32_KERNELS), measured: a kernel listed
    there is float32-accurate in MXNet's float64 run, well inside FLOAT32_KERNEL_RTOL; one not
    listed is exact."""
    dev, listed = _deviation(make(), shapes)
    assert listed == rounds
    if rounds:
        assert 1e-12 < dev <= ops.FLOAT32_KERNEL_RTOL / 10, dev
    else:
        assert dev <= 1e-14, dev


# --- what is refused ------------------------------------------------------------------------
def test_an_unknown_operator_names_itself_and_its_node():
    graph = json.loads(mx.sym.relu(var(), name="r").tojson())
    graph["nodes"][1]["op"] = "_contrib_MadeUpOp"
    with pytest.raises(UnsupportedOperator, match=r"_contrib_MadeUpOp \(node 'r'\).*--ops"):
        codegen.translation(graph, {})


def test_an_unknown_attribute_is_refused_not_ignored():
    graph = json.loads(mx.sym.Activation(var(), act_type="relu", name="a").tojson())
    graph["nodes"][1]["attrs"]["negative_slope"] = "0.1"
    with pytest.raises(UnsupportedOperator, match="attribute negative_slope='0.1'"):
        codegen.translation(graph, {})


def test_a_gluon_save_parameters_file_is_explained():
    sym = mx.sym.FullyConnected(var(), num_hidden=2, name="dense0")
    with pytest.raises(UnsupportedOperator, match="save_parameters"):
        codegen.translation(sym.tojson(), {"0.weight": np.zeros((2, 3)), "0.bias": np.zeros(2)})


def test_every_registered_operator_is_tested_here(request):
    """Every translator in the registry (the book's coverage table) ran in a test above, under
    its own name or an alias: an untested translator would be a claim. Needs the whole file."""
    here = [i for i in request.session.items if getattr(i, "module", None) is request.module]
    if len(here) < 100 or request.config.getoption("dist", "no") not in ("no", "loadfile"):
        pytest.skip("run the whole file in one process (or xdist --dist loadfile): the check "
                    "needs every test above")
    untested = [row["op"] for row in ops.coverage_rows()
                if not {row["op"], *row["aliases"]} & SEEN_OPS]
    assert not untested, "untested translators: " + ", ".join(untested)
