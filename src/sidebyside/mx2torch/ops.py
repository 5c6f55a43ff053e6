"""Each MXNet operator as PyTorch code: a registry of translators, with the attributes each honours.

A translator gets the node, its attributes (parsed, MXNet's defaults filled in) and a
:class:`~sidebyside.mx2torch.codegen.Builder`, and returns the PyTorch *expression* of the
node's output; the builder turns it into a line of ``forward``. Operators with weights declare a
submodule (``nn.Conv2d(...)``) and hand the builder its weights from the ``.params`` file.

Every attribute a node carries must be one the translator honours (``attrs``) or one it may
ignore for a stated reason (``ignored``: cuDNN tuning, workspace sizes): anything else, or a
value a translator does not support, raises :class:`UnsupportedOperator`, naming the operator, the
node and the value. Semantics are MXNet 1.9.1's (``src/operator/``), checked one operator at a time
against MXNet's own execution in ``tests/test_mx2torch_ops.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .graph import as_tuple, parse_value


class UnsupportedOperator(ValueError):
    """An operator, or an attribute value of one, that mx2torch does not translate.

    ``op``, ``node`` and ``what`` say which operator, which node and what is wrong, when the
    refusal is about one node (a translation gathers them into one refusal that names them
    all)."""

    def __init__(self, message: str, *, op: str | None = None, node: str | None = None,
                 what: str | None = None):
        super().__init__(message)
        self.op, self.node, self.what = op, node, what


@dataclass
class OpSpec:
    name: str
    func: object
    attrs: dict                     # honoured attribute -> MXNet's default
    ignored: dict = field(default_factory=dict)   # attribute -> why it may be ignored
    note: str = ""
    aliases: tuple = ()


REGISTRY: dict[str, OpSpec] = {}

_CUDNN = {"cudnn_off": "cuDNN selection; no effect on values",
          "cudnn_tune": "cuDNN algorithm search; no effect on values",
          "workspace": "scratch memory size; no effect on values"}


def op(*names, attrs=None, ignored=None, note=""):
    def register(func):
        spec = OpSpec(names[0], func, dict(attrs or {}), dict(ignored or {}), note, names[1:])
        for n in names:
            REGISTRY[n] = spec
        return func
    return register


class Attrs(dict):
    """A node's attributes, parsed, with the operator's defaults for the ones it leaves out."""


# What each attribute holds, by MXNet's attribute name (its operators use the names
# consistently); an attribute not named here is checked against the type of its default.
_KIND_NAMES = {
    "bool": "align_corners aligned bidirectional exclude fix_gamma flatten force_suppress "
            "global_pool infer_range iou_loss is_ascend keepdims lstm_state_clip_nan multi_output "
            "no_bias output_mean_var output_score position_sensitive preserve_shape reverse "
            "sparse_grad squeeze_axis state_outputs transpose_a transpose_b use_global_stats "
            "use_length use_sequence_length count_include_pad",
    "int": "background_id coord_start depth dim dim1 dim2 feature_stride height width id_index "
           "input_dim output_dim k nms_topk num_args num_filter num_group num_hidden num_layers "
           "num_outputs ord projection_size repeat repeats rpn_min_size rpn_post_nms_top_n "
           "rpn_pre_nms_top_n sample_ratio score_index state_size topk nsize heads scale",
    "float": "a_max a_min alpha beta constant_value eps knorm lower_bound upper_bound "
             "lstm_state_clip_max lstm_state_clip_min momentum nms_threshold off_value on_value "
             "overlap_thresh p scalar slope spatial_scale start stop std0 std1 std2 std3 "
             "temperature threshold valid_thresh value scale_height scale_width p_value",
    "ints": "adj dilate kernel pad stride output_size pooled_size reps shape size target_shape "
            "pad_width axes lhs_axes rhs_axes",
    "ints_or_none": "begin end lhs_begin lhs_end rhs_begin rhs_end",
    "floats": "offsets ratios scales sizes steps variances",
    "axis": "axis",
    "str": "act_type dtype format in_format out_format layout mode multi_input_mode pool_type "
           "pooling_convention ret_typ sample_type out_dtype ctx forward_stype",
}
_KIND = {name: kind for kind, names in _KIND_NAMES.items() for name in names.split()}
_INT_LIMIT = 1 << 31          # MXNet's integer parameters are 32-bit (dmlc::Parameter int)


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _kind(key: str, default) -> str | None:
    if key in _KIND:
        return _KIND[key]
    if isinstance(default, bool):
        return "bool"
    if _is_int(default):
        return "int"
    if isinstance(default, float):
        return "float"
    if isinstance(default, str):
        return "str"
    if isinstance(default, tuple) and default:
        return "floats" if any(isinstance(x, float) for x in default) else "ints"
    return None


def _valid(kind: str | None, v) -> str | None:
    """What is wrong with the parsed value ``v`` for an attribute of ``kind`` (None: fine)."""
    def small(x):
        return _is_int(x) and -_INT_LIMIT < x < _INT_LIMIT

    if v is None or kind is None:
        return None
    if kind == "bool":
        return None if isinstance(v, bool) or v in (0, 1) else "true or false was expected"
    if kind == "int":
        return None if small(v) else "an integer (32-bit) was expected"
    if kind == "float":
        return None if isinstance(v, (int, float)) and not isinstance(v, bool) else \
            "a number was expected"
    if kind == "str":
        return None if isinstance(v, str) else "a name was expected"
    if kind == "floats":
        t = as_tuple(v)
        return None if all(isinstance(x, (int, float)) and not isinstance(x, bool)
                           for x in t) else "a tuple of numbers was expected"
    t = as_tuple(v)
    if kind == "ints_or_none":
        return None if all(x is None or small(x) for x in t) else \
            "a tuple of integers or None was expected"
    if kind in ("ints", "axis"):
        return None if all(small(x) for x in t) else "a tuple of integers (32-bit) was expected"
    return None


def parse_attrs(spec: OpSpec, node) -> Attrs:
    """The node's attributes parsed (:func:`~.graph.parse_value`), each checked against what
    the attribute holds (a number, a tuple of integers, a name...): a value that is not is
    refused here, so that no translator sees it and none reaches the generated code."""
    out = Attrs(spec.attrs)
    for key, text in node.attrs.items():
        if key in spec.attrs:
            value = parse_value(text)
            problem = _valid(_kind(key, spec.attrs[key]), value)
            if problem:
                refuse(node, f"attribute {key}={text[:40]!r}: {problem}")
            out[key] = value
        elif key not in spec.ignored:
            refuse(node, f"attribute {key}={text!r} is not supported; supported: "
                         f"{', '.join(sorted(spec.attrs)) or 'none'}")
    return out


def refuse(node, what: str):
    raise UnsupportedOperator(f"operator {node.op} (node {node.name!r}): {what}",
                              op=node.op, node=node.name, what=what)


def _tuple(v, n=None, fill=None):
    t = tuple(as_tuple(v))
    if n is not None and not t and fill is not None:
        t = (fill,) * n
    return t


def _f32(v) -> float:
    """A float attribute as MXNet's float32 parameter field holds it."""
    return float(np.float32(v))


def _r(v):
    """repr of a value for generated code: tuples of ints as (a, b), floats shortest."""
    if isinstance(v, float):
        return repr(float(v)) if np.isfinite(v) else f"float({repr(float(v))!r})"
    if isinstance(v, tuple):
        return "(" + ", ".join(_r(x) for x in v) + ("," if len(v) == 1 else "") + ")"
    return repr(v)


_DIMS = {1: "1d", 2: "2d", 3: "3d"}
_LAYOUTS = {1: "NCW", 2: "NCHW", 3: "NCDHW"}


def _spatial(node, a, key="kernel"):
    k = _tuple(a[key])
    if len(k) not in _DIMS:
        refuse(node, f"{key}={k}: only 1-, 2- and 3-d are supported")
    layout = a.get("layout")
    if layout not in (None, _LAYOUTS[len(k)]):
        refuse(node, f"layout={layout!r}: only channels-first ({_LAYOUTS[len(k)]}) is supported")
    return k


# --- layers with weights --------------------------------------------------------------------

def _conv_args(a, n, channels, keys):
    """The constructor arguments of an nn.Conv*/ConvTranspose* layer (MXNet attribute ->
    PyTorch keyword, only those off their default) and its weights (input 1, bias input 2)."""
    args = [*channels, f"kernel_size={_r(_tuple(a['kernel']))}"]
    for key, name, fill in keys:
        v = _tuple(a[key], n, fill)
        if v and any(x != fill for x in v):
            args.append(f"{name}={_r(v)}")
    if int(a["num_group"]) != 1:
        args.append(f"groups={int(a['num_group'])}")
    params = {"weight": 1}
    if a["no_bias"]:
        args.append("bias=False")
    else:
        params["bias"] = 2
    return args, params


@op("Convolution", attrs={"kernel": (), "stride": (), "dilate": (), "pad": (), "num_filter": None,
                          "num_group": 1, "no_bias": False, "layout": None},
    ignored=_CUDNN)
def _convolution(b, node, a):
    k = _spatial(node, a)
    n = len(k)
    w = b.param(node, 1)
    groups = int(a["num_group"])
    if w.shape[0] != a["num_filter"]:
        refuse(node, f"weight shape {w.shape} does not match num_filter={a['num_filter']}")
    args, params = _conv_args(a, n, [str(w.shape[1] * groups), str(a["num_filter"])],
                              (("stride", "stride", 1), ("pad", "padding", 0),
                               ("dilate", "dilation", 1)))
    mod = b.module(node, f"nn.Conv{_DIMS[n]}({', '.join(args)})", params)
    b.rank = n + 2
    return f"{mod}({b.x(0)})"


@op("Deconvolution", attrs={"kernel": (), "stride": (), "dilate": (), "pad": (), "adj": (),
                            "target_shape": (), "num_filter": None, "num_group": 1,
                            "no_bias": True, "layout": None},
    ignored=_CUDNN)
def _deconvolution(b, node, a):
    k = _spatial(node, a)
    n = len(k)
    target = tuple(int(v) for v in _tuple(a["target_shape"]))
    w = b.param(node, 1)
    groups = int(a["num_group"])
    args, params = _conv_args(a, n, [str(w.shape[0]), str(w.shape[1] * groups)],
                              (("stride", "stride", 1), ("pad", "padding", 0),
                               ("adj", "output_padding", 0), ("dilate", "dilation", 1)))
    if any(target) and any(d != 1 for d in _tuple(a["dilate"])):
        refuse(node, f"target_shape={target} with dilate={_tuple(a['dilate'])}: MXNet's "
                     "result there differs from a transposed convolution with the padding "
                     "target_shape implies (measured); not translated")
    if any(target):
        # the padding that gives target_shape depends on the input's size: computed per call,
        # as MXNet does (deconvolution-inl.h, InferPad); pad/adj are then ignored, as there
        args = [x for x in args if not x.startswith(("padding=", "output_padding="))]
        mod = b.module(node, f"nn.ConvTranspose{_DIMS[n]}({', '.join(args)})", params,
                       comment=f"target_shape={target}: padding per call")
        b.rank = n + 2
        return f"{b.helper('mx_deconv_to')}({mod}, {b.x(0)}, {_r(target)})"
    mod = b.module(node, f"nn.ConvTranspose{_DIMS[n]}({', '.join(args)})", params)
    b.rank = n + 2
    return f"{mod}({b.x(0)})"


@op("FullyConnected", attrs={"num_hidden": None, "no_bias": False, "flatten": True})
def _fully_connected(b, node, a):
    src = b.g.nodes[node.inputs[1][0]] if len(node.inputs) > 1 else None
    if src is not None and not (src.is_variable and src.name in b.params) \
            and node.inputs[1][0] in b.param_only:
        # weights computed from parameters in the graph (GluonNLP's attention concatenates the
        # query, key and value weights): the parameters stay the file's, F.linear takes them
        x = b.x(0)
        if a["flatten"]:
            b.rank = 2
            if b.rank_of(0) != 2:
                x = f"torch.flatten({x}, 1)"
        bias = "None" if a["no_bias"] else b.x(2)
        return f"F.linear({x}, {b.x(1)}, {bias})"
    w = b.param(node, 1)
    args = [str(w.shape[1]), str(a["num_hidden"])]
    params = {"weight": 1}
    if a["no_bias"]:
        args.append("bias=False")
    else:
        params["bias"] = 2
    mod = b.module(node, f"nn.Linear({', '.join(args)})", params,
                   comment="" if a["flatten"] else "flatten=False: applied to the last axis")
    x = b.x(0)
    if a["flatten"]:
        b.rank = 2
        if b.rank_of(0) != 2:
            x = f"torch.flatten({x}, 1)"
    return f"{mod}({x})"


@op("BatchNorm", attrs={"eps": 1e-3, "momentum": 0.9, "fix_gamma": True, "use_global_stats": False,
                        "output_mean_var": False, "axis": 1},
    ignored={"cudnn_off": _CUDNN["cudnn_off"]},
    note="fix_gamma=True (the symbol API's default) ignores the stored gamma: the weight is "
         "loaded as ones; momentum m becomes PyTorch's 1 - m; eps is MXNet's float32 value")
def _batch_norm(b, node, a):
    if a["output_mean_var"]:
        refuse(node, "output_mean_var=True (the batch statistics as outputs) is not supported")
    gamma = b.param(node, 1)
    c = gamma.shape[0]
    rank = b.rank_of(0)
    axis = int(a["axis"])
    cls = {2: "nn.BatchNorm1d", 3: "nn.BatchNorm1d", 4: "nn.BatchNorm2d", 5: "nn.BatchNorm3d"}
    if axis == 1 and rank in cls:
        ctor = cls[rank]
    else:
        ctor = b.helper("AnyRankBatchNorm")
    # MXNet keeps eps as a float32 (BatchNormParam): 1e-3 is 0.0010000000474974513 there
    args = [str(c), f"eps={_r(_f32(a['eps']))}", f"momentum={_r(round(1 - float(a['momentum']), 12))}"]
    params = {"weight": b.ones(node, c) if a["fix_gamma"] else 1, "bias": 2,
              "running_mean": 3, "running_var": 4}
    notes = []
    if a["fix_gamma"]:
        notes.append("fix_gamma=True: MXNet ignores the stored gamma, so weight = 1")
        b.note("BatchNorm with fix_gamma=True (the symbol API's default): MXNet ignores the "
               "stored gamma, so the weight is loaded as ones")
    if a["use_global_stats"]:
        notes.append("use_global_stats=True: MXNet uses the running statistics in training too")
    mod = b.module(node, f"{ctor}({', '.join(args)})", params, comment="; ".join(notes))
    x = b.x(0)
    if axis in (1, -(rank or 0) + 1) or (rank is not None and axis % rank == 1):
        return f"{mod}({x})"
    return f"{mod}({x}.movedim({axis}, 1)).movedim(1, {axis})"


@op("Embedding", attrs={"input_dim": None, "output_dim": None, "dtype": "float32",
                        "sparse_grad": False},
    note="MXNet takes float indices and clips them to [0, input_dim - 1]; PyTorch needs int64 "
         "and raises on an index out of range")
def _embedding(b, node, a):
    b.note("Embedding: MXNet takes float indices and clips them to [0, input_dim - 1]; the "
           "module casts them to int64, and PyTorch raises on an index out of range")
    w = b.param(node, 1)
    mod = b.module(node, f"nn.Embedding({w.shape[0]}, {w.shape[1]})", {"weight": 1})
    b.rank = (b.rank_of(0) or 0) + 1 if b.rank_of(0) else None
    return f"{mod}({b.x(0)}.long())"


@op("LeakyReLU", attrs={"act_type": "leaky", "slope": 0.25, "lower_bound": 0.125,
                        "upper_bound": 0.334},
    note="rrelu at inference: the fixed slope (lower + upper) / 2, as MXNet's forward")
def _leaky_relu(b, node, a):
    t, x = a["act_type"], b.x(0)
    if t == "leaky":           # slope: a float32 parameter field in MXNet
        return f"F.leaky_relu({x}, {_r(_f32(a['slope']))})"
    if t == "elu":
        return f"F.elu({x}, alpha={_r(_f32(a['slope']))})"
    if t == "selu":
        return f"F.selu({x})"
    if t == "gelu":
        return f"F.gelu({x})"
    if t == "rrelu":
        return f"F.leaky_relu({x}, {_r(_f32((_f32(a['lower_bound']) + _f32(a['upper_bound'])) / 2))})"
    if t == "prelu":
        g = b.param(node, 1)
        mod = b.module(node, f"nn.PReLU({g.shape[0]})", {"weight": 1})
        return f"{mod}({x})"
    refuse(node, f"act_type={t!r} is not supported")


_RNN_MODES = {"lstm": ("nn.LSTM", 4), "gru": ("nn.GRU", 3), "rnn_tanh": ("nn.RNN", 1),
              "rnn_relu": ("nn.RNN", 1)}


@op("RNN", attrs={"mode": None, "state_size": None, "num_layers": 1, "bidirectional": False,
                  "p": 0.0, "state_outputs": False, "projection_size": None,
                  "lstm_state_clip_min": None, "lstm_state_clip_max": None,
                  "lstm_state_clip_nan": False, "use_sequence_length": False},
    ignored={"cudnn_off": _CUDNN["cudnn_off"]},
    note="the packed parameter vector is unpacked into the PyTorch layer's weights (gate "
         "orders agree: LSTM i,f,g,o; GRU r,z,n); the layout stays MXNet's TNC")
def _rnn(b, node, a):
    mode = a["mode"]
    if mode not in _RNN_MODES:
        refuse(node, f"mode={mode!r} is not supported")
    for key in ("projection_size", "lstm_state_clip_min", "lstm_state_clip_max"):
        if a[key] is not None:
            refuse(node, f"{key}={a[key]} is not supported")
    if a["lstm_state_clip_nan"] or a["use_sequence_length"]:
        refuse(node, "lstm_state_clip_nan / use_sequence_length are not supported")
    cls, gates = _RNN_MODES[mode]
    h, layers = int(a["state_size"]), int(a["num_layers"])
    dirs = 2 if a["bidirectional"] else 1
    packed = b.fold(node, 1).reshape(-1)
    # MXNet's packing (src/operator/rnn-inl.h, gluon rnn_layer._forward_kernel): every weight
    # (layer by layer, direction by direction, i2h then h2h), then every bias in the same order
    size_bias = layers * dirs * 2 * gates * h
    size_h2h = gates * h * h
    # i2h input size of layer 0 from the total: n = dirs*g*h*in + (layers-1)*dirs*g*h*(dirs*h)
    #                                           + layers*dirs*size_h2h + size_bias
    rest = packed.size - size_bias - layers * dirs * size_h2h - (layers - 1) * dirs * gates * h * dirs * h
    if rest <= 0 or rest % (dirs * gates * h):
        refuse(node, f"the packed parameter vector ({packed.size} values) does not fit "
                     f"{mode} with state_size={h}, num_layers={layers}, bidirectional={dirs == 2}")
    n_in = rest // (dirs * gates * h)
    params, pos = {}, 0
    for layer in range(layers):
        for d in range(dirs):
            sfx = f"_l{layer}" + ("_reverse" if d else "")
            isz = n_in if layer == 0 else dirs * h
            for kind, size, shape in (("ih", gates * h * isz, (gates * h, isz)),
                                      ("hh", size_h2h, (gates * h, h))):
                params[f"weight_{kind}{sfx}"] = packed[pos:pos + size].reshape(shape)
                pos += size
    for layer in range(layers):
        for d in range(dirs):
            sfx = f"_l{layer}" + ("_reverse" if d else "")
            for kind in ("ih", "hh"):
                params[f"bias_{kind}{sfx}"] = packed[pos:pos + gates * h]
                pos += gates * h
    args = [str(n_in), str(h)]
    if layers != 1:
        args.append(f"num_layers={layers}")
    if mode == "rnn_relu":
        args.append("nonlinearity='relu'")
    if dirs == 2:
        args.append("bidirectional=True")
    if float(a["p"]):
        args.append(f"dropout={_r(float(a['p']))}")
    mod = b.module(node, f"{cls}({', '.join(args)})", params,
                   comment="MXNet's fused RNN: input (T, N, C)")
    x = b.x(0)
    n_states = 2 if mode == "lstm" else 1
    states = [b.x(i) for i in range(2, 2 + n_states) if i < len(node.inputs)]
    if mode == "lstm" and len(states) == 2:
        call = f"{mod}({x}, ({states[0]}, {states[1]}))"
    elif states:
        call = f"{mod}({x}, {states[0]})"
    else:
        call = f"{mod}({x})"
    b.rank = 3
    if not a["state_outputs"]:
        return f"{call}[0]"
    b.n_out = 1 + n_states
    if mode == "lstm":
        b.unpack = ("{0}, ({1}, {2})", ("h", "c"))
    else:
        b.unpack = ("{0}, {1}", ("h",))
    return call


# --- elementwise, activations -----------------------------------------------------------------

_ACT = {"relu": "torch.relu({})", "sigmoid": "torch.sigmoid({})", "tanh": "torch.tanh({})",
        "softrelu": "F.softplus({})", "softsign": "F.softsign({})"}


@op("Activation", attrs={"act_type": None})
def _activation(b, node, a):
    if a["act_type"] not in _ACT:
        refuse(node, f"act_type={a['act_type']!r} is not supported")
    return _ACT[a["act_type"]].format(b.x(0))


_UNARY = {"relu": "torch.relu({})", "sigmoid": "torch.sigmoid({})", "tanh": "torch.tanh({})",
          "exp": "torch.exp({})", "log": "torch.log({})", "sqrt": "torch.sqrt({})",
          "rsqrt": "torch.rsqrt({})", "square": "torch.square({})", "abs": "torch.abs({})",
          "negative": "(-{})", "reciprocal": "torch.reciprocal({})", "sin": "torch.sin({})",
          "cos": "torch.cos({})", "erf": "torch.erf({})", "floor": "torch.floor({})",
          "ceil": "torch.ceil({})", "round": "torch.round({})", "sign": "torch.sign({})",
          "softsign": "F.softsign({})"}
for _name, _tmpl in _UNARY.items():
    op(_name)(lambda b, node, a, _t=_tmpl: _t.format(b.x(0)))


@op("_copy", "identity", "_identity_with_attr_like_rhs", "stop_gradient", "BlockGrad",
    "make_loss", "MakeLoss", attrs={},
    ignored={"grad_scale": "gradient only", "valid_thresh": "gradient only",
             "normalization": "gradient only"},
    note="BlockGrad/stop_gradient become .detach(); make_loss/MakeLoss the identity (forward)")
def _identity(b, node, a):
    if node.op in ("BlockGrad", "stop_gradient"):
        return f"{b.x(0)}.detach()"
    return b.x(0)


@op("Dropout", attrs={"p": 0.5, "mode": "training", "axes": ()},
    ignored={"cudnn_off": _CUDNN["cudnn_off"]},
    note="the identity in eval mode, as MXNet at inference; mode='always' keeps dropping")
def _dropout(b, node, a):
    b.note("Dropout is the identity in eval mode, as MXNet's inference")
    if a["mode"] == "always":
        return f"F.dropout({b.x(0)}, {_r(float(a['p']))}, training=True)"
    if _tuple(a["axes"]):
        mod = b.module(node, f"nn.Dropout({_r(float(a['p']))})", {},
                       comment=f"axes={_tuple(a['axes'])}: MXNet shares the mask along these "
                               "axes in training; the identity at inference")
    else:
        mod = b.module(node, f"nn.Dropout({_r(float(a['p']))})", {})
    return f"{mod}({b.x(0)})"


_BINARY = {"elemwise_add": "+", "elemwise_sub": "-", "elemwise_mul": "*", "elemwise_div": "/",
           "_plus": "+", "_Plus": "+", "_add": "+", "_minus": "-", "_Minus": "-", "_sub": "-",
           "_mul": "*", "_Mul": "*", "_div": "/", "_Div": "/",
           "broadcast_add": "+", "broadcast_plus": "+", "broadcast_sub": "-",
           "broadcast_minus": "-", "broadcast_mul": "*", "broadcast_div": "/"}
def _binary(b, node, sym):
    x, y = b.x(0), b.x(1)
    if sym == "/" and b.is_int(0) and b.is_int(1):     # C's integer division: truncation
        return f"torch.div({x}, {y}, rounding_mode='trunc')"
    return f"({x} {sym} {y})"


for _name, _sym in _BINARY.items():
    op(_name)(lambda b, node, a, _s=_sym: _binary(b, node, _s))
_BINARY_F = {"broadcast_maximum": "torch.maximum", "broadcast_minimum": "torch.minimum",
             "broadcast_power": "torch.pow", "_maximum": "torch.maximum",
             "_minimum": "torch.minimum", "_power": "torch.pow", "broadcast_hypot": "torch.hypot"}
for _name, _fn in _BINARY_F.items():
    op(_name)(lambda b, node, a, _f=_fn: f"{_f}({b.x(0)}, {b.x(1)})")
_COMPARE = {"broadcast_equal": "==", "broadcast_not_equal": "!=", "broadcast_greater": ">",
            "broadcast_greater_equal": ">=", "broadcast_lesser": "<", "broadcast_lesser_equal": "<="}
for _name, _sym in _COMPARE.items():
    # MXNet's comparisons return the input dtype (1.0 / 0.0), not bool
    op(_name)(lambda b, node, a, _s=_sym: f"({b.x(0)} {_s} {b.x(1)}).to({b.x(0)}.dtype)")

_SCALAR = {"_plus_scalar": "({x} + {s})", "_minus_scalar": "({x} - {s})",
           "_rminus_scalar": "({s} - {x})", "_mul_scalar": "({x} * {s})",
           "_div_scalar": "({x} / {s})", "_rdiv_scalar": "({s} / {x})",
           "_power_scalar": "({x} ** {s})", "_rpower_scalar": "torch.pow({s}, {x})",
           "_maximum_scalar": "torch.clamp({x}, min={s})",
           "_minimum_scalar": "torch.clamp({x}, max={s})",
           "_equal_scalar": "({x} == {s}).to({x}.dtype)",
           "_not_equal_scalar": "({x} != {s}).to({x}.dtype)",
           "_greater_scalar": "({x} > {s}).to({x}.dtype)",
           "_greater_equal_scalar": "({x} >= {s}).to({x}.dtype)",
           "_lesser_scalar": "({x} < {s}).to({x}.dtype)",
           "_lesser_equal_scalar": "({x} <= {s}).to({x}.dtype)"}
def _scalar(b, node, a, tmpl):
    x, s = b.x(0), float(a["scalar"])
    if not b.is_int(0):
        return tmpl.format(x=x, s=_r(s))
    # on integers MXNet casts the scalar to the input's type first (2.5 -> 2), and divides
    # by truncation
    s = int(s)
    if node.op == "_div_scalar":
        return f"torch.div({x}, {s}, rounding_mode='trunc')"
    if node.op in ("_rdiv_scalar", "_power_scalar", "_rpower_scalar"):
        refuse(node, "on integers (MXNet's C arithmetic) is not supported")
    return tmpl.format(x=x, s=_r(s))


for _name, _tmpl in _SCALAR.items():
    op(_name, attrs={"scalar": 1.0}, ignored={"is_int": "the scalar's written form"})(
        lambda b, node, a, _t=_tmpl: _scalar(b, node, a, _t))


@op("clip", attrs={"a_min": None, "a_max": None})
def _clip(b, node, a):
    # a_min/a_max are float32 fields in MXNet (ClipParam)
    return f"torch.clamp({b.x(0)}, {_r(_f32(a['a_min']))}, {_r(_f32(a['a_max']))})"


@op("softmax", "log_softmax", attrs={"axis": -1, "temperature": None, "dtype": None,
                                     "use_length": False})
def _softmax(b, node, a):
    if a["use_length"]:
        if node.op != "softmax":
            refuse(node, "use_length=True is supported for softmax only")
        if a["dtype"] is not None:
            refuse(node, f"dtype={a['dtype']!r} is not supported")
        t = float(a["temperature"]) if a["temperature"] is not None else 1.0
        return (f"{b.helper('mx_softmax_length')}({b.x(0)}, {b.x(1)}, {int(a['axis'])}, "
                f"{_r(t)})")
    if a["dtype"] is not None:
        refuse(node, f"dtype={a['dtype']!r} is not supported")
    x = b.x(0)
    if a["temperature"] not in (None, 1, 1.0):
        x = f"({x} / {_r(float(a['temperature']))})"
    fn = "torch.softmax" if node.op == "softmax" else "torch.log_softmax"
    return f"{fn}({x}, dim={int(a['axis'])})"


@op("SoftmaxActivation", attrs={"mode": "instance"})
def _softmax_activation(b, node, a):
    if a["mode"] == "channel":
        return f"torch.softmax({b.x(0)}, dim=1)"
    # mode='instance' flattens all but the LAST axis (mshadow's FlatTo2D): the last axis
    return f"torch.softmax({b.x(0)}, dim=-1)"


@op("SoftmaxOutput", "Softmax", attrs={"multi_output": False, "preserve_shape": False},
    ignored={"grad_scale": "gradient only", "ignore_label": "gradient only",
             "use_ignore": "gradient only", "normalization": "gradient only",
             "out_grad": "gradient only", "smooth_alpha": "gradient only"},
    note="a loss layer in training; its forward (what the module returns) is the softmax "
         "probabilities, not a loss; the label input is dropped")
def _softmax_output(b, node, a):
    b.note(f"{node.op} is a loss layer in training: the module returns its forward, the "
           "softmax probabilities (not logits, not a loss); the label input is dropped")
    x = b.x(0)
    if a["multi_output"]:
        return f"torch.softmax({x}, dim=1)"
    if a["preserve_shape"]:
        return f"torch.softmax({x}, dim=-1)"
    return f"torch.softmax({x}.flatten(1), dim=1).reshape({x}.shape)"


@op("LinearRegressionOutput", "MAERegressionOutput", "LogisticRegressionOutput",
    attrs={}, ignored={"grad_scale": "gradient only"},
    note="loss layers: the forward is the identity (a sigmoid for LogisticRegressionOutput)")
def _regression_output(b, node, a):
    if node.op == "LogisticRegressionOutput":
        return f"torch.sigmoid({b.x(0)})"
    return b.x(0)


# --- shapes -----------------------------------------------------------------------------------

@op("Flatten", "flatten", attrs={})
def _flatten(b, node, a):
    b.rank = 2
    return f"torch.flatten({b.x(0)}, 1)"


@op("Reshape", "reshape", attrs={"shape": (), "reverse": False},
    ignored={"target_shape": "deprecated; refused below when set",
             "keep_highest": "deprecated; refused below when set"})
def _reshape(b, node, a):
    for key in ("target_shape", "keep_highest"):
        if key in node.attrs and parse_value(node.attrs[key]) not in ((), (0,), False, None):
            refuse(node, f"the deprecated {key}={node.attrs[key]} is not supported")
    shape = tuple(int(v) for v in _tuple(a["shape"]))
    b.rank = None if any(v in (-2, -3, -4) for v in shape) else len(shape)
    if not a["reverse"] and all(v > 0 or v == -1 for v in shape) and shape.count(-1) <= 1:
        return f"{b.x(0)}.reshape({_r(shape)})"
    if not a["reverse"] and all(v >= 0 or v == -1 for v in shape) and shape.count(-1) <= 1:
        dims = ", ".join(f"{b.x(0)}.shape[{i}]" if v == 0 else str(v) for i, v in enumerate(shape))
        return f"{b.x(0)}.reshape({dims})"
    fn = b.helper("mx_reshape")
    return f"{fn}({b.x(0)}, {_r(shape)}, reverse={bool(a['reverse'])})"


@op("transpose", attrs={"axes": ()})
def _transpose(b, node, a):
    axes = _tuple(a["axes"])
    if not axes:
        return f"{b.x(0)}.permute(*reversed(range({b.x(0)}.dim())))"
    return f"{b.x(0)}.permute{_r(tuple(int(v) for v in axes))}"


@op("SwapAxis", "swapaxes", attrs={"dim1": 0, "dim2": 0})
def _swapaxes(b, node, a):
    return f"{b.x(0)}.transpose({int(a['dim1'])}, {int(a['dim2'])})"


@op("expand_dims", attrs={"axis": None})
def _expand_dims(b, node, a):
    if b.rank_of(0) is not None:
        b.rank = b.rank_of(0) + 1
    return f"{b.x(0)}.unsqueeze({int(a['axis'])})"


@op("squeeze", attrs={"axis": None})
def _squeeze(b, node, a):
    axis = _tuple(a["axis"])
    b.rank = None
    if not axis:
        return f"{b.x(0)}.squeeze()"
    return f"{b.x(0)}.squeeze({_r(tuple(int(v) for v in axis))})"


@op("Concat", "concat", "_rnn_param_concat", attrs={"dim": 1, "num_args": None})
def _concat(b, node, a):
    xs = ", ".join(b.x(i) for i in range(len(node.inputs)))
    return f"torch.cat([{xs}], dim={int(a['dim'])})"


@op("stack", attrs={"axis": 0, "num_args": None})
def _stack(b, node, a):
    xs = ", ".join(b.x(i) for i in range(len(node.inputs)))
    b.rank = b.rank_of(0) + 1 if b.rank_of(0) is not None else None
    return f"torch.stack([{xs}], dim={int(a['axis'])})"


@op("SliceChannel", "split", attrs={"num_outputs": None, "axis": 1, "squeeze_axis": False})
def _split(b, node, a):
    n, axis = int(a["num_outputs"]), int(a["axis"])
    b.n_out = n
    if n == 1:          # one output: the input itself (as GluonCV's split of a batch of one)
        if a["squeeze_axis"]:
            b.rank = b.rank_of(0) - 1 if b.rank_of(0) is not None else None
            return f"{b.x(0)}.squeeze({axis})"
        return b.x(0)
    if a["squeeze_axis"]:
        b.rank = b.rank_of(0) - 1 if b.rank_of(0) is not None else None
        return f"tuple(t.squeeze({axis}) for t in {b.x(0)}.chunk({n}, dim={axis}))"
    return f"{b.x(0)}.chunk({n}, dim={axis})"


def _index(begin, end, step):
    def one(v):
        return "" if v is None else str(int(v))
    s = f"{one(begin)}:{one(end)}"
    if step not in (None, 1):
        s += f":{int(step)}"
    return s


@op("slice", "crop", attrs={"begin": (), "end": (), "step": ()})
def _slice(b, node, a):
    begin, end = _tuple(a["begin"]), _tuple(a["end"])
    step = _tuple(a["step"]) or (None,) * len(begin)
    if any(s is not None and s < 0 for s in step):
        refuse(node, f"step={step}: a negative step is not supported")
    idx = ", ".join(_index(bg, en, st) for bg, en, st in zip(begin, end, step))
    return f"{b.x(0)}[{idx}]"


@op("slice_axis", attrs={"axis": None, "begin": 0, "end": None})
def _slice_axis(b, node, a):
    axis = int(a["axis"])
    rng = _index(a["begin"], a["end"], None)
    if axis >= 0:
        return f"{b.x(0)}[{':, ' * axis}{rng}]"
    return f"{b.x(0)}.narrow({axis}, 0, {b.x(0)}.shape[{axis}])[..., {rng}{', :' * (-axis - 1)}]"


@op("slice_like", attrs={"axes": ()})
def _slice_like(b, node, a):
    axes = _tuple(a["axes"])
    x, y = b.x(0), b.x(1)
    if not axes:
        return f"{x}[tuple(slice(0, s) for s in {y}.shape)]"
    return (f"{x}[tuple(slice(0, {y}.shape[d]) if d in {_r(tuple(int(v) for v in axes))} "
            f"else slice(None) for d in range({x}.dim()))]")


_TORCH_DTYPES = {"float16": "torch.float16", "float32": "torch.float32",
                 "float64": "torch.float64", "uint8": "torch.uint8", "int8": "torch.int8",
                 "int32": "torch.int32", "int64": "torch.int64", "bool": "torch.bool"}
_INT_DTYPES = {"uint8", "int8", "int32", "int64"}


def _dtype(b, name: str) -> str:
    """A dtype for generated code: MXNet's float32 (the graph's float type) follows the
    module's own (``.double()`` makes it float64, as casting MXNet's graph does); the others
    are literal."""
    return b.float_dtype() if name == "float32" else _TORCH_DTYPES[name]


@op("Cast", "cast", attrs={"dtype": None})
def _cast(b, node, a):
    if a["dtype"] not in _TORCH_DTYPES:
        refuse(node, f"dtype={a['dtype']!r} is not supported")
    b.int_out = a["dtype"] in _INT_DTYPES
    return f"{b.x(0)}.to({_dtype(b, a['dtype'])})"


_REDUCE = {"mean": "mean", "sum": "sum", "max": "amax", "min": "amin", "prod": "prod",
           "sum_axis": "sum", "max_axis": "amax", "min_axis": "amin", "nansum": "nansum"}


def _reduce(b, node, a):
    fn = _REDUCE[node.op]
    axis = _tuple(a["axis"])
    x = b.x(0)
    keep = bool(a["keepdims"])
    if a["exclude"]:
        if not axis:
            return x
        dims = f"[d for d in range({x}.dim()) if d not in {_r(tuple(int(v) for v in axis))}]"
    elif not axis:
        dims = f"tuple(range({x}.dim()))"
    else:
        dims = _r(tuple(int(v) for v in axis))
    if fn == "prod":
        out = f"{b.helper('mx_prod')}({x}, {dims}, keepdim={keep})"
    else:
        out = f"{x}.{fn}(dim={dims}, keepdim={keep})"
    b.rank = None if not keep else b.rank_of(0)
    if not keep and not axis:
        # a reduction to a scalar has shape (1,) in MXNet's legacy (non-numpy) semantics
        out = f"{out}.reshape(1)"
    elif not keep:
        out = f"torch.atleast_1d({out})"
    return out


for _name in _REDUCE:
    op(_name, attrs={"axis": None, "keepdims": False, "exclude": False})(_reduce)


@op("dot", attrs={"transpose_a": False, "transpose_b": False, "forward_stype": None})
def _dot(b, node, a):
    x, y = b.x(0), b.x(1)
    if b.rank_of(0) not in (1, 2) or b.rank_of(1) not in (1, 2):
        # MXNet's dot contracts the last axis of a with the first of b for any rank
        return (f"torch.tensordot({x}{'.T' if a['transpose_a'] else ''}, "
                f"{y}{'.T' if a['transpose_b'] else ''}, dims=1)")
    return f"({x}{'.T' if a['transpose_a'] else ''} @ {y}{'.T' if a['transpose_b'] else ''})"


@op("batch_dot", attrs={"transpose_a": False, "transpose_b": False, "forward_stype": None})
def _batch_dot(b, node, a):
    x, y = b.x(0), b.x(1)
    if a["transpose_a"]:
        x = f"{x}.transpose(1, 2)"
    if a["transpose_b"]:
        y = f"{y}.transpose(1, 2)"
    return f"torch.bmm({x}, {y})"


# --- pooling, resizing, normalisation ------------------------------------------------------

@op("Pooling", attrs={"kernel": (), "pool_type": "max", "global_pool": False,
                      "pooling_convention": "valid", "stride": (), "pad": (), "p_value": None,
                      "count_include_pad": None, "layout": None},
    ignored={"cudnn_off": _CUDNN["cudnn_off"]},
    note="pooling_convention='full' is ceil_mode=True; sum pooling is avg_pool with "
         "divisor_override=1")
def _pooling(b, node, a):
    t, x = a["pool_type"], b.x(0)
    if t not in ("max", "avg", "sum"):
        refuse(node, f"pool_type={t!r} is not supported")
    rank = b.rank_of(0)
    if a["global_pool"]:
        k = _tuple(a["kernel"])
        n = (rank - 2) if rank else (len(k) or 2)
        dims = _r(tuple(range(2, 2 + n)))
        if t == "max":
            return f"{x}.amax(dim={dims}, keepdim=True)"
        if t == "sum":
            return f"{x}.sum(dim={dims}, keepdim=True)"
        return f"{x}.mean(dim={dims}, keepdim=True)"
    k = _spatial(node, a)
    n = len(k)
    conv = a["pooling_convention"]
    if conv not in ("valid", "full"):
        refuse(node, f"pooling_convention={conv!r} is not supported")
    stride = _tuple(a["stride"], n, 1)
    pad = _tuple(a["pad"], n, 0)
    if conv == "full" and (any(pad) or any(kk < ss for kk, ss in zip(k, stride))):
        # PyTorch's ceil_mode drops a last window that starts in the padding; MXNet keeps it
        # (out = 1 + ceil((in + 2p - k) / s)): the windows are laid out by a helper
        b.note("Pooling with pooling_convention='full' and padding: MXNet's window layout "
               "(mx_pool_full), which PyTorch's ceil_mode does not give")
        cip = a["count_include_pad"] is not False
        return (f"{b.helper('mx_pool_full')}({x}, {t!r}, {_r(k)}, {_r(stride)}, {_r(pad)}, "
                f"count_include_pad={cip})")
    args = [x, _r(k), f"stride={_r(stride)}"]
    if any(pad):
        args.append(f"padding={_r(pad)}")
    if conv == "full":
        args.append("ceil_mode=True")
        b.note("Pooling with pooling_convention='full' is ceil_mode=True")
    if t == "max":
        return f"F.max_pool{_DIMS[n]}({', '.join(args)})"
    cip = a["count_include_pad"]
    if t == "sum":
        args.append("divisor_override=1")
    elif cip is False:
        args.append("count_include_pad=False")
    if n == 1 and t == "sum":
        refuse(node, "1-d sum pooling is not supported")
    return f"F.avg_pool{_DIMS[n]}({', '.join(args)})"


@op("_contrib_AdaptiveAvgPooling2D", attrs={"output_size": ()})
def _adaptive_avg(b, node, a):
    size = _tuple(a["output_size"]) or (1,)
    size = size * 2 if len(size) == 1 else size
    return f"F.adaptive_avg_pool2d({b.x(0)}, {_r(tuple(int(v) for v in size))})"


@op("UpSampling", attrs={"scale": 1, "sample_type": "nearest", "num_args": 1,
                         "num_filter": 0, "multi_input_mode": "concat"},
    ignored={"workspace": _CUDNN["workspace"]})
def _upsampling(b, node, a):
    if a["sample_type"] != "nearest":
        refuse(node, f"sample_type={a['sample_type']!r} is not supported (nearest only)")
    if int(a["num_args"]) != 1:
        refuse(node, "num_args > 1 is not supported")
    return f"F.interpolate({b.x(0)}, scale_factor={int(a['scale'])}, mode='nearest')"


@op("_contrib_BilinearResize2D", attrs={"height": 1, "width": 1, "scale_height": None,
                                        "scale_width": None, "mode": "size",
                                        "align_corners": True})
def _bilinear(b, node, a):
    if a["mode"] != "size":
        refuse(node, f"mode={a['mode']!r} is not supported ('size' only)")
    ac = bool(a["align_corners"])
    if a["scale_height"] is not None or a["scale_width"] is not None:
        sh = float(a["scale_height"] or 1)
        sw = float(a["scale_width"] or sh)
        return (f"F.interpolate({b.x(0)}, scale_factor=({_r(sh)}, {_r(sw)}), mode='bilinear', "
                f"align_corners={ac})")
    return (f"F.interpolate({b.x(0)}, size=({int(a['height'])}, {int(a['width'])}), "
            f"mode='bilinear', align_corners={ac})")


@op("LRN", attrs={"alpha": 1e-4, "beta": 0.75, "knorm": 2.0, "nsize": None})
def _lrn(b, node, a):
    mod = b.module(node, f"nn.LocalResponseNorm({int(a['nsize'])}, alpha={_r(float(a['alpha']))}, "
                         f"beta={_r(float(a['beta']))}, k={_r(float(a['knorm']))})", {})
    return f"{mod}({b.x(0)})"


@op("InstanceNorm", attrs={"eps": 1e-3})
def _instance_norm(b, node, a):
    x = b.x(0)
    g, bt = b.param_expr(node, 1), b.param_expr(node, 2)
    return f"F.instance_norm({x}, weight={g}, bias={bt}, eps={_r(_f32(a['eps']))})"


@op("LayerNorm", attrs={"axis": -1, "eps": 1e-5, "output_mean_var": False})
def _layer_norm(b, node, a):
    if a["output_mean_var"]:
        refuse(node, "output_mean_var=True is not supported")
    g = b.param(node, 1)
    mod = b.module(node, f"nn.LayerNorm({g.shape[0]}, eps={_r(_f32(a['eps']))})",
                   {"weight": 1, "bias": 2})
    axis = int(a["axis"])
    if axis == -1 or (b.rank_of(0) is not None and axis == b.rank_of(0) - 1):
        return f"{mod}({b.x(0)})"
    return f"{mod}({b.x(0)}.movedim({axis}, -1)).movedim(-1, {axis})"


@op("L2Normalization", attrs={"eps": 1e-10, "mode": "instance"})
def _l2norm(b, node, a):
    x, eps = b.x(0), _r(_f32(a["eps"]))
    if a["mode"] == "instance":
        return f"({x} / torch.sqrt(({x} ** 2).flatten(1).sum(1) + {eps}).reshape(-1, *[1] * ({x}.dim() - 1)))"
    if a["mode"] == "channel":
        return f"({x} / torch.sqrt(({x} ** 2).sum(1, keepdim=True) + {eps}))"
    return f"({x} / torch.sqrt(({x} ** 2).flatten(2).sum(2) + {eps}).reshape(*{x}.shape[:2], *[1] * ({x}.dim() - 2)))"


@op("_zeros", "_ones", "zeros_like", "ones_like", attrs={"shape": (), "dtype": "float32",
                                                         "ctx": None})
def _constant_fill(b, node, a):
    if node.op in ("zeros_like", "ones_like"):
        fn = "torch.zeros_like" if node.op == "zeros_like" else "torch.ones_like"
        return f"{fn}({b.x(0)})"
    shape = tuple(int(v) for v in _tuple(a["shape"]))
    if any(v == 0 for v in shape):
        refuse(node, f"shape={shape}: a 0 (a dimension inferred from another input) is not "
                     "supported; export the model with its states as inputs")
    fn = "torch.zeros" if node.op == "_zeros" else "torch.ones"
    if a["dtype"] not in _TORCH_DTYPES:
        refuse(node, f"dtype={a['dtype']!r} is not supported")
    return f"{fn}({_r(shape)}, dtype={_dtype(b, a['dtype'])})"


@op("where", attrs={})
def _where(b, node, a):
    return f"torch.where({b.x(0)} != 0, {b.x(1)}, {b.x(2)})"


@op("broadcast_to", attrs={"shape": ()})
def _broadcast_to(b, node, a):
    shape = tuple(int(v) for v in _tuple(a["shape"]))
    dims = ", ".join(f"{b.x(0)}.shape[{i}]" if v == 0 else str(v) for i, v in enumerate(shape))
    return f"{b.x(0)}.expand({dims})"


@op("broadcast_like", attrs={"lhs_axes": None, "rhs_axes": None})
def _broadcast_like(b, node, a):
    if a["lhs_axes"] is not None or a["rhs_axes"] is not None:
        refuse(node, "lhs_axes/rhs_axes are not supported")
    return f"{b.x(0)}.expand_as({b.x(1)})"


@op("Pad", "pad", attrs={"mode": "constant", "pad_width": (), "constant_value": 0.0})
def _pad(b, node, a):
    pw = tuple(int(v) for v in _tuple(a["pad_width"]))
    if len(pw) < 4 or any(pw[:4]):
        refuse(node, f"pad_width={pw}: padding the N or C axis is not supported")
    # MXNet: (before, after) per axis from the first; F.pad: from the last axis backwards
    pairs = [pw[i:i + 2] for i in range(4, len(pw), 2)]
    flat = tuple(v for pair in reversed(pairs) for v in pair)
    mode = {"constant": "constant", "edge": "replicate", "reflect": "reflect"}.get(a["mode"])
    if mode is None:
        refuse(node, f"mode={a['mode']!r} is not supported")
    if mode == "constant":
        return f"F.pad({b.x(0)}, {_r(flat)}, value={_r(float(a['constant_value']))})"
    return f"F.pad({b.x(0)}, {_r(flat)}, mode={mode!r})"


# --- ranges, repeats, indexing (detectors' and NLP models' post-processing) -----------------------

def _axes(v) -> tuple:
    return tuple(int(x) for x in _tuple(v))


@op("_arange", attrs={"start": 0.0, "stop": None, "step": 1.0, "repeat": 1, "infer_range": False,
                      "dtype": "float32", "ctx": None})
def _arange(b, node, a):
    if a["infer_range"]:
        refuse(node, "infer_range=True (a stop inferred from the consumer's shape) is not supported")
    if a["dtype"] not in _TORCH_DTYPES:
        refuse(node, f"dtype={a['dtype']!r} is not supported")
    start, stop, step = float(a["start"]), a["stop"], float(a["step"])
    if stop is None:                 # arange(n): 0 ... n - 1, as numpy's
        start, stop = 0.0, start
    b.rank = 1
    b.int_out = a["dtype"] in _INT_DTYPES
    # MXNet: value i is start + (i // repeat) * step, computed in double then cast
    rng = f"torch.arange({_r(start)}, {_r(float(stop))}, {_r(step)}, dtype=torch.float64)"
    if int(a["repeat"]) != 1:
        rng += f".repeat_interleave({int(a['repeat'])})"
    return f"{rng}.to({_dtype(b, a['dtype'])})"


@op("_contrib_arange_like", attrs={"start": 0.0, "step": 1.0, "repeat": 1, "axis": None,
                                    "ctx": None})
def _arange_like(b, node, a):
    # the values follow the input's shape: along `axis`, or over all its elements (then reshaped)
    x, start, step, rep = b.x(0), _r(float(a["start"])), _r(float(a["step"])), int(a["repeat"])
    if a["axis"] is None:
        n = f"{x}.numel()"
    else:
        n = f"{x}.shape[{int(a['axis'])}]"
        b.rank = 1
    rng = (f"({start} + torch.div(torch.arange({n}, dtype=torch.int64, device={x}.device), {rep}, "
           f"rounding_mode='floor').to(torch.float64) * {step})")
    rng = f"{rng}.to({x}.dtype)"
    return rng if a["axis"] is not None else f"{rng}.reshape({x}.shape)"


@op("tile", attrs={"reps": ()})
def _tile(b, node, a):
    reps = _axes(a["reps"])
    if b.rank is not None:
        b.rank = max(b.rank, len(reps))
    return f"{b.x(0)}.tile({_r(reps)})"        # numpy's rule for a shorter or longer reps


@op("repeat", attrs={"repeats": None, "axis": None})
def _repeat(b, node, a):
    if a["axis"] is None:           # flattened, as numpy.repeat
        b.rank = 1
        return f"torch.repeat_interleave({b.x(0)}.reshape(-1), {int(a['repeats'])})"
    return f"torch.repeat_interleave({b.x(0)}, {int(a['repeats'])}, dim={int(a['axis'])})"


@op("broadcast_axis", "broadcast_axes", attrs={"axis": (), "size": ()})
def _broadcast_axis(b, node, a):
    axes, sizes = _axes(a["axis"]), _axes(a["size"])
    if len(axes) != len(sizes):
        refuse(node, f"axis={axes} and size={sizes} differ in length")
    fn = b.helper("mx_broadcast_axis")
    return f"{fn}({b.x(0)}, {_r(axes)}, {_r(sizes)})"


@op("reverse", "flip", attrs={"axis": ()})
def _reverse(b, node, a):
    return f"torch.flip({b.x(0)}, {_r(_axes(a['axis']))})"


@op("shape_array", attrs={"lhs_begin": None, "lhs_end": None, "rhs_begin": None,
                          "rhs_end": None})
def _shape_array(b, node, a):
    if any(a[k] is not None for k in ("lhs_begin", "lhs_end", "rhs_begin", "rhs_end")):
        refuse(node, "lhs_begin/lhs_end/rhs_begin/rhs_end are not supported")
    b.rank, b.int_out = 1, True
    # int64, as MXNet's; torch.export keeps it symbolic (torch._shape_as_tensor it cannot trace)
    return f"torch.tensor({b.x(0)}.shape, dtype=torch.int64)"


@op("size_array", attrs={})
def _size_array(b, node, a):
    b.rank, b.int_out = 1, True
    return f"torch.tensor({b.x(0)}.shape, dtype=torch.int64).prod().reshape(1)"


@op("broadcast_mod", "elemwise_mod", "_mod", attrs={})
def _broadcast_mod(b, node, a):
    return f"{b.helper('mx_mod')}({b.x(0)}, {b.x(1)})"


@op("_contrib_div_sqrt_dim", attrs={})
def _div_sqrt_dim(b, node, a):
    x = b.x(0)
    return f"({x} / torch.sqrt(torch.tensor({x}.shape[-1], dtype={x}.dtype)))"


@op("gather_nd", attrs={})
def _gather_nd(b, node, a):
    # indices (M, ...): output[...] = data[indices[0, ...], ..., indices[M - 1, ...]]
    b.rank = None
    return f"{b.x(0)}[tuple({b.x(1)}.long())]"


@op("topk", attrs={"axis": -1, "k": 1, "ret_typ": "indices", "is_ascend": False,
                   "dtype": "float32"},
    note="torch.topk; MXNet's CPU kernel is std::sort or std::partial_sort: the indices of "
         "tied values may come in another order than MXNet's, the values are equal")
def _topk(b, node, a):
    if a["dtype"] not in _TORCH_DTYPES:
        refuse(node, f"dtype={a['dtype']!r} is not supported")
    k, ret = int(a["k"]), a["ret_typ"]
    if k < 1:
        refuse(node, f"k={k}: MXNet's k < 1 (every element) is not supported")
    if ret not in ("value", "indices", "both", "mask"):
        refuse(node, f"ret_typ={ret!r} is not supported")
    x = b.x(0)
    if a["axis"] is None:
        x, axis = f"{x}.reshape(-1)", 0
        b.rank = 1
    else:
        axis = int(a["axis"])
    largest = "False" if a["is_ascend"] else "True"
    call = f"torch.topk({x}, {k}, dim={axis}, largest={largest}, sorted=True)"
    dt = _dtype(b, a["dtype"])
    if ret == "value":
        b.int_out = False
        return f"{call}.values"
    if ret == "indices":
        b.int_out = a["dtype"] in _INT_DTYPES
        return f"{call}.indices.to({dt})"
    if ret == "mask":
        return (f"torch.zeros_like({x}).scatter({axis}, {call}.indices, 1.0)"
                if a["axis"] is not None else
                f"torch.zeros_like({x}).scatter(0, {call}.indices, 1.0).reshape({b.x(0)}.shape)")
    b.n_out, b.int_out = 2, False
    b.unpack = ("{0}, {1}", ("indices",))
    return f"(lambda r: (r.values, r.indices.to({dt})))({call})"


def _flat_or_axis(b, a):
    """(input expression, axis): an axis of None means the flattened input (MXNet)."""
    if a["axis"] is None:
        b.rank = 1
        return f"{b.x(0)}.reshape(-1)", 0
    return b.x(0), int(a["axis"])


@op("argmax", "argmin", attrs={"axis": None, "keepdims": False},
    note="the first index of the max (min), as a float of the input's type (MXNet's); "
         "axis=None: over the flattened input, shape (1,)")
def _argmax(b, node, a):
    fn = "torch.argmax" if node.op == "argmax" else "torch.argmin"
    if a["axis"] is None:
        b.rank = 1
        keep = "" if not a["keepdims"] else f".reshape([1] * {b.x(0)}.dim())"
        return f"{fn}({b.x(0)}.reshape(-1), dim=0, keepdim=True).to({b.x(0)}.dtype){keep}"
    return (f"{fn}({b.x(0)}, dim={int(a['axis'])}, keepdim={bool(a['keepdims'])})"
            f".to({b.x(0)}.dtype)")


@op("sort", "argsort", attrs={"axis": -1, "is_ascend": True, "dtype": "float32"},
    note="torch.sort, stable; MXNet's CPU kernel is std::sort, whose order among tied "
         "values differs on an axis longer than 16 (insertion sort below): their indices "
         "may come in another order, the values are equal; argsort's indices in its dtype "
         "(float32 by default)")
def _sort(b, node, a):
    x, axis = _flat_or_axis(b, a)
    call = f"torch.sort({x}, dim={axis}, descending={not a['is_ascend']}, stable=True)"
    if node.op == "sort":
        return f"{call}.values"
    if a["dtype"] not in _TORCH_DTYPES:
        refuse(node, f"dtype={a['dtype']!r} is not supported")
    b.int_out = a["dtype"] in _INT_DTYPES
    return f"{call}.indices.to({_dtype(b, a['dtype'])})"


@op("pick", attrs={"axis": -1, "keepdims": False, "mode": "clip"},
    note="the element at index (truncated to an int, then clipped or wrapped) along axis")
def _pick(b, node, a):
    if a["mode"] not in ("clip", "wrap"):
        refuse(node, f"mode={a['mode']!r} is not supported")
    return (f"{b.helper('mx_pick')}({b.x(0)}, {b.x(1)}, {int(a['axis'])}, "
            f"{bool(a['keepdims'])}, {a['mode']!r})")


@op("take", attrs={"axis": 0, "mode": "clip"},
    note="rows along axis at the indices (truncated to ints, then clipped or wrapped); the "
         "output's shape puts the indices' shape in place of that axis")
def _take(b, node, a):
    if a["mode"] not in ("clip", "wrap"):
        refuse(node, f"mode={a['mode']!r} is not supported (MXNet's 'raise' is clip on CPU "
                     "in 1.x, unchecked)")
    return f"{b.helper('mx_take')}({b.x(0)}, {b.x(1)}, {int(a['axis'])}, {a['mode']!r})"


@op("one_hot", attrs={"depth": None, "on_value": 1.0, "off_value": 0.0, "dtype": "float32"},
    note="indices truncated to ints; one out of [0, depth) gives a row of off_value")
def _one_hot(b, node, a):
    if a["dtype"] not in _TORCH_DTYPES:
        refuse(node, f"dtype={a['dtype']!r} is not supported")
    b.int_out = a["dtype"] in _INT_DTYPES
    depth, dt = int(a["depth"]), _dtype(b, a["dtype"])
    hot = (f"({b.x(0)}.to(torch.int64)[..., None] == torch.arange({depth}, "
           f"device={b.x(0)}.device))")
    return (f"torch.where({hot}, torch.tensor({_r(float(a['on_value']))}, dtype={dt}), "
            f"torch.tensor({_r(float(a['off_value']))}, dtype={dt}))")


@op("norm", attrs={"ord": 2, "axis": None, "keepdims": False, "out_dtype": None},
    note="the L1 or L2 norm over axes (all: shape (1,)), torch.linalg.vector_norm")
def _norm(b, node, a):
    if int(a["ord"]) not in (1, 2):
        refuse(node, f"ord={a['ord']}: MXNet has 1 and 2")
    if a["out_dtype"] is not None:
        refuse(node, f"out_dtype={a['out_dtype']!r} is not supported")
    if a["axis"] is None:
        keep = f".reshape([1] * {b.x(0)}.dim())" if a["keepdims"] else ".reshape(1)"
        b.rank = None
        return f"torch.linalg.vector_norm({b.x(0)}, {int(a['ord'])}){keep}"
    return (f"torch.linalg.vector_norm({b.x(0)}, {int(a['ord'])}, dim={_r(_axes(a['axis']))}, "
            f"keepdim={bool(a['keepdims'])})")


@op("SequenceMask", attrs={"use_sequence_length": False, "value": 0.0, "axis": 0})
def _sequence_mask(b, node, a):
    if not a["use_sequence_length"]:
        return b.x(0)
    axis = int(a["axis"])
    if axis not in (0, 1):
        refuse(node, f"axis={axis}: MXNet allows 0 (TNC) or 1 (NTC)")
    return (f"{b.helper('mx_sequence_mask')}({b.x(0)}, {b.x(1)}, {_r(_f32(a['value']))}, "
            f"{axis})")


@op("SequenceLast", attrs={"use_sequence_length": False, "axis": 0})
def _sequence_last(b, node, a):
    axis = int(a["axis"])
    if axis not in (0, 1):
        refuse(node, f"axis={axis}: MXNet allows 0 (TNC) or 1 (NTC)")
    b.rank = b.rank - 1 if b.rank is not None else None
    if not a["use_sequence_length"]:
        return f"{b.x(0)}.select({axis}, -1)"
    return f"{b.helper('mx_sequence_last')}({b.x(0)}, {b.x(1)}, {axis})"


@op("SequenceReverse", attrs={"use_sequence_length": False, "axis": 0})
def _sequence_reverse(b, node, a):
    if int(a["axis"]) != 0:
        refuse(node, f"axis={a['axis']}: MXNet supports only 0 (TNC)")
    if not a["use_sequence_length"]:
        return f"torch.flip({b.x(0)}, (0,))"
    return f"{b.helper('mx_sequence_reverse')}({b.x(0)}, {b.x(1)})"


# --- attention (GluonNLP's BERT and transformers) ---------------------------------------------

def _attention(b, name: str) -> str:
    b.helper("mx_heads")            # the head split the four helpers share
    return b.helper(name)


@op("_contrib_interleaved_matmul_selfatt_qk", attrs={"heads": None},
    note="MXNet computes it in float32 only on CPU (no float64 kernel)")
def _selfatt_qk(b, node, a):
    b.rank = 3
    return f"{_attention(b, 'mx_selfatt_qk')}({b.x(0)}, {int(a['heads'])})"


@op("_contrib_interleaved_matmul_selfatt_valatt", attrs={"heads": None})
def _selfatt_valatt(b, node, a):
    b.rank = 3
    return f"{_attention(b, 'mx_selfatt_valatt')}({b.x(0)}, {b.x(1)}, {int(a['heads'])})"


@op("_contrib_interleaved_matmul_encdec_qk", attrs={"heads": None})
def _encdec_qk(b, node, a):
    b.rank = 3
    return f"{_attention(b, 'mx_encdec_qk')}({b.x(0)}, {b.x(1)}, {int(a['heads'])})"


@op("_contrib_interleaved_matmul_encdec_valatt", attrs={"heads": None})
def _encdec_valatt(b, node, a):
    b.rank = 3
    return f"{_attention(b, 'mx_encdec_valatt')}({b.x(0)}, {b.x(1)}, {int(a['heads'])})"


# --- boxes (GluonCV detectors) ----------------------------------------------------------------

_BOX_FORMATS = ("corner", "center")


@op("_contrib_box_decode", attrs={"std0": 1.0, "std1": 1.0, "std2": 1.0, "std3": 1.0,
                                  "clip": -1.0, "format": "center"})
def _box_decode(b, node, a):
    if a["format"] not in _BOX_FORMATS:
        refuse(node, f"format={a['format']!r} is not supported")
    stds = tuple(_f32(a[f"std{i}"]) for i in range(4))
    return (f"{b.helper('mx_box_decode')}({b.x(0)}, {b.x(1)}, {_r(stds)}, "
            f"{_r(_f32(a['clip']))}, {a['format']!r})")


@op("_contrib_box_nms", "_contrib_box_non_maximum_suppression",
    attrs={"overlap_thresh": 0.5, "valid_thresh": 0.0, "topk": -1, "coord_start": 2,
           "score_index": 1, "id_index": -1, "background_id": -1, "force_suppress": False,
           "in_format": "corner", "out_format": "corner"},
    note="torchvision.ops.nms's IoU and MXNet's greedy rule, on MXNet's order: score "
         "descending and stable, after valid_thresh and topk; class ids compared as ints; "
         "fixed shapes (torch.export keeps the batch dynamic)")
def _box_nms(b, node, a):
    for key in ("in_format", "out_format"):
        if a[key] not in _BOX_FORMATS:
            refuse(node, f"{key}={a[key]!r} is not supported")
    args = ", ".join(f"{k}={_r(v)}" for k, v in (
        ("overlap_thresh", _f32(a["overlap_thresh"])), ("valid_thresh", _f32(a["valid_thresh"])),
        ("topk", int(a["topk"])), ("coord_start", int(a["coord_start"])),
        ("score_index", int(a["score_index"])), ("id_index", int(a["id_index"])),
        ("background_id", int(a["background_id"])),
        ("force_suppress", bool(a["force_suppress"])), ("in_format", a["in_format"]),
        ("out_format", a["out_format"])))
    b.helper("mx_greedy_keep")
    return f"{b.helper('mx_box_nms')}({b.x(0)}, {args})"


@op("_contrib_ROIAlign", "ROIAlign", attrs={"pooled_size": (), "spatial_scale": None,
                                            "sample_ratio": -1, "position_sensitive": False,
                                            "aligned": False},
    note="torchvision.ops.roi_align (both from Caffe2's); a ROI whose batch index is negative "
         "gives zeros (MXNet 1.9.1 zeroes only its first value, leaving the rest unset)")
def _roi_align(b, node, a):
    if a["position_sensitive"]:
        refuse(node, "position_sensitive=True is not supported")
    size = _axes(a["pooled_size"])
    return (f"{b.helper('mx_roi_align')}({b.x(0)}, {b.x(1)}, {_r(size)}, "
            f"{_r(_f32(a['spatial_scale']))}, {int(a['sample_ratio'])}, {bool(a['aligned'])})")


@op("ROIPooling", attrs={"pooled_size": (), "spatial_scale": None},
    note="torchvision.ops.roi_pool (the same Caffe bins: rounded ROI corners, floor/ceil bin "
         "edges, an empty bin 0); a ROI whose batch index is out of range gives zeros, as in "
         "MXNet")
def _roi_pooling(b, node, a):
    size = _axes(a["pooled_size"])
    return (f"{b.helper('mx_roi_pool')}({b.x(0)}, {b.x(1)}, {_r(size)}, "
            f"{_r(_f32(a['spatial_scale']))})")


@op("_contrib_MultiBoxPrior", "MultiBoxPrior",
    attrs={"sizes": (1.0,), "ratios": (1.0,), "clip": False, "steps": (-1.0, -1.0),
           "offsets": (0.5, 0.5)},
    note="SSD's anchors, (1, H·W·A, 4) corners: per pixel every size at the first ratio, then "
         "the other ratios at the first size; in float32 arithmetic as MXNet's kernel "
         "(which takes float32 only)")
def _multibox_prior(b, node, a):
    sizes, ratios = tuple(map(_f32, _tuple(a["sizes"]))), tuple(map(_f32, _tuple(a["ratios"])))
    steps, offsets = tuple(map(_f32, _tuple(a["steps"]))), tuple(map(_f32, _tuple(a["offsets"])))
    if not sizes or len(steps) != 2 or len(offsets) != 2:
        refuse(node, "needs at least one size, and two steps and two offsets")
    if steps[0] * steps[1] < 0:
        refuse(node, f"steps={steps}: MXNet needs both steps given or both automatic")
    return (f"{b.helper('mx_multibox_prior')}({b.x(0)}, {_r(sizes)}, {_r(ratios)}, "
            f"{bool(a['clip'])}, {_r(steps)}, {_r(offsets)})")


@op("_contrib_MultiBoxDetection", "MultiBoxDetection",
    attrs={"clip": True, "threshold": 0.01, "nms_threshold": 0.5, "force_suppress": False,
           "variances": (0.1, 0.1, 0.2, 0.2), "nms_topk": -1},
    ignored={"background_id": "MXNet 1.9.1's CPU kernel ignores it: class 0 is background"},
    note="SSD's decoding and NMS, as MXNet's CPU kernel: rows [id, score, box] of the "
         "anchors whose best class (not 0) reaches threshold, in anchor order, then sorted "
         "(stable) and suppressed at IoU >= nms_threshold by setting their id to -1 in place; "
         "beyond nms_topk, rows keep their unsorted values with id -1")
def _multibox_detection(b, node, a):
    var = tuple(map(_f32, _tuple(a["variances"])))
    if len(var) != 4:
        refuse(node, f"variances={var}: MXNet needs 4")
    b.helper("mx_greedy_keep")
    return (f"{b.helper('mx_multibox_detection')}({b.x(0)}, {b.x(1)}, {b.x(2)}, "
            f"clip={bool(a['clip'])}, threshold={_r(_f32(a['threshold']))}, "
            f"nms_threshold={_r(_f32(a['nms_threshold']))}, "
            f"force_suppress={bool(a['force_suppress'])}, variances={_r(var)}, "
            f"nms_topk={int(a['nms_topk'])})")


def _proposal_anchors(stride: int, scales, ratios) -> tuple:
    """MXNet's GenerateAnchors (proposal-inl.h) in its float32 (and double) arithmetic: for
    each ratio, each scale, a box [x1, y1, x2, y2] around the base anchor [0, 0, s-1, s-1]."""
    f = np.float32
    w = h = f(f(stride - 1.0) - f(0)) + f(1)
    x_ctr = f(0.0 + 0.5 * float(w - f(1)))
    y_ctr = x_ctr
    out = []
    for ratio in map(f, ratios):
        for scale in map(f, scales):
            size_ratios = np.floor(f(f(w * h) / ratio))
            new_w = f(np.floor(f(np.sqrt(size_ratios) + f(0.5))) * scale)
            new_h = f(np.floor(f(f(new_w / scale) * ratio) + f(0.5)) * scale)
            out.append(tuple(float(v) for v in (
                x_ctr - f(0.5) * (new_w - f(1)), y_ctr - f(0.5) * (new_h - f(1)),
                x_ctr + f(0.5) * (new_w - f(1)), y_ctr + f(0.5) * (new_h - f(1)))))
    return tuple(out)


@op("_contrib_Proposal", "Proposal", "_contrib_MultiProposal", "MultiProposal",
    attrs={"rpn_pre_nms_top_n": 6000, "rpn_post_nms_top_n": 300, "threshold": 0.7,
           "rpn_min_size": 16, "scales": (4.0, 8.0, 16.0, 32.0), "ratios": (0.5, 1.0, 2.0),
           "feature_stride": 16, "output_score": False, "iou_loss": False},
    note="the RPN's proposals as MXNet's CPU kernel (float32, with its double steps): "
         "anchors, deltas, clipping, score -1 outside im_info and below rpn_min_size, a "
         "stable sort, greedy NMS (+1 areas, IoU > threshold); the kept boxes repeat "
         "cyclically up to rpn_post_nms_top_n; Proposal's batch of 1 as MultiProposal's")
def _proposal(b, node, a):
    scales, ratios = _tuple(a["scales"]), _tuple(a["ratios"])
    if not scales or not ratios:
        refuse(node, "needs scales and ratios")
    anchors = _proposal_anchors(int(a["feature_stride"]), scales, ratios)
    b.helper("mx_greedy_keep")
    if a["output_score"]:
        b.n_out = 2
    return (f"{b.helper('mx_proposal')}({b.x(0)}, {b.x(1)}, {b.x(2)}, {_r(anchors)}, "
            f"stride={int(a['feature_stride'])}, pre_n={int(a['rpn_pre_nms_top_n'])}, "
            f"post_n={int(a['rpn_post_nms_top_n'])}, threshold={_r(_f32(a['threshold']))}, "
            f"min_size={int(a['rpn_min_size'])}, iou_loss={bool(a['iou_loss'])}, "
            f"output_score={bool(a['output_score'])})")


# --- MXNet kernels that compute in float32 inside a float64 graph --------------------------------

#: operator -> (does this node's kernel round to float32 in a float64 run?, the measured
#: deviation of MXNet 1.9.1's float64 output from exact float64 values, relative to its max
#: |value|). Measured on CPU in tests/test_mx2torch_ops.py::test_float32_kernels_inside_float64,
#: which fails when an entry is no longer true. ``--check --float64`` compares the nodes that
#: depend on one of them at FLOAT32_KERNEL_RTOL instead of 1e-7, and says so.
FLOAT32_KERNELS = {
    "LeakyReLU": (lambda a: a.get("act_type", "leaky") != "elu",
                  "leaky, prelu, rrelu, selu and gelu (not elu): 7e-9 to 6e-8"),
    "_contrib_BilinearResize2D": (lambda a: True, "bilinear resize: up to 1e-6"),
    "RNN": (lambda a: a.get("mode") == "rnn_relu", "the ReLU RNN: about 3e-8"),
}
#: the bound for nodes downstream of those kernels: float32-level. Measured at any node of
#: GluonCV's nets in float64 (random weights): YOLOv3 (72 LeakyReLU) 7e-7, FCN (one bilinear
#: resize) 1.8e-6, PSPNet (a pyramid of resizes, then one more) 5.4e-6
FLOAT32_KERNEL_RTOL = 3e-5


def float32_kernel(node) -> bool:
    """Whether MXNet 1.9.1 computes this node in float32 even in a float64 graph."""
    entry = FLOAT32_KERNELS.get(node.op)
    return entry is not None and entry[0](node.attrs)


# --- helpers that a generated model.py may carry ------------------------------------------------

HELPERS = {
    "AnyRankBatchNorm": '''
class AnyRankBatchNorm(nn.modules.batchnorm._BatchNorm):
    """MXNet's BatchNorm over axis 1 of an input of any rank (N, C, ...)."""

    def _check_input_dim(self, input):
        if input.dim() < 2:
            raise ValueError(f"expected at least 2-d input (got {input.dim()}-d)")
''',
    "mx_reshape": '''
def mx_reshape(x, shape, reverse=False):
    """MXNet's Reshape: 0 copies a dimension, -1 infers one, -2 copies the rest,
    -3 merges two, -4 splits one in two (src/operator/tensor/matrix_op-inl.h)."""
    src = list(x.shape)
    spec = list(shape)
    if reverse:
        src, spec = src[::-1], spec[::-1]
    out, i, j, infer = [], 0, 0, None
    while j < len(spec):
        v = spec[j]
        if v > 0:
            out.append(v); i += 1
        elif v == 0:
            out.append(src[i]); i += 1
        elif v == -1:
            infer = len(out); out.append(1); i += 1
        elif v == -2:
            out.extend(src[i:]); i = len(src)
        elif v == -3:
            out.append(src[i] * src[i + 1]); i += 2
        elif v == -4:
            a, b = spec[j + 1], spec[j + 2]
            if a == -1:
                a = src[i] // b
            if b == -1:
                b = src[i] // a
            out.extend([a, b]); i += 1; j += 2
        j += 1
    if reverse:
        out = out[::-1]
        if infer is not None:
            infer = len(out) - 1 - infer
    if infer is not None:
        known = 1
        for k, v in enumerate(out):
            if k != infer:
                known *= v
        out[infer] = x.numel() // known
    return x.reshape(out)
''',
    "mx_deconv_to": '''
def mx_deconv_to(layer, x, target):
    """A transposed convolution whose output has the spatial size ``target``: MXNet's
    Deconvolution(target_shape=...) padding (deconvolution-inl.h, InferPad)."""
    n = len(target)
    pad, adj = [], []
    for i in range(n):
        k = layer.dilation[i] * (layer.kernel_size[i] - 1) + 1
        total = layer.stride[i] * (x.shape[2 + i] - 1) + k - target[i]
        if total < 0:
            raise ValueError(f"target_shape {target} is too big for input {tuple(x.shape)}")
        adj.append(total % 2)
        pad.append((total + 1) // 2)
    conv = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}[n]
    return conv(x, layer.weight, layer.bias, layer.stride, tuple(pad), tuple(adj),
                layer.groups, layer.dilation)
''',
    "mx_pool_full": '''
def mx_pool_full(x, kind, kernel, stride, pad, count_include_pad=True):
    """MXNet's Pooling(pooling_convention='full') with padding (src/operator/nn/pool.h): one
    output per window start (k - 1 + s) // s ... up to 1 + ceil((in + 2p - k) / s), each
    window clipped to the padded input; avg divides by the clipped window's size (the padding
    counted unless count_include_pad=False); a max window over padding alone gives the dtype's
    lowest value, as MXNet's does."""
    import math

    n = len(kernel)
    extra = []
    for i in range(n):
        size = x.shape[2 + i]
        out = 1 + math.ceil((size + 2 * pad[i] - kernel[i]) / stride[i])
        extra.append((out - 1) * stride[i] + kernel[i] - size - pad[i])   # right side
    widths = [v for i in reversed(range(n)) for v in (pad[i], extra[i])]
    pool = {1: F.avg_pool1d, 2: F.avg_pool2d, 3: F.avg_pool3d}[n]
    if kind == "max":
        mp = {1: F.max_pool1d, 2: F.max_pool2d, 3: F.max_pool3d}[n]
        # a window with no input element gives the dtype's lowest value, as in MXNet
        return mp(F.pad(x, widths, value=torch.finfo(x.dtype).min), kernel, stride)
    sums = pool(F.pad(x, widths), kernel, stride, divisor_override=1)
    if kind == "sum":
        return sums
    ones = torch.ones((1, 1) + tuple(x.shape[2:]), dtype=x.dtype, device=x.device)
    if count_include_pad:       # the declared padding counts, the extra right part does not
        ones = F.pad(ones, [v for i in reversed(range(n))
                            for v in (pad[i], min(pad[i], extra[i]))], value=1.0)
        widths = [v for i in reversed(range(n)) for v in (0, max(0, extra[i] - pad[i]))]
    counts = pool(F.pad(ones, widths), kernel, stride, divisor_override=1)
    return sums / counts.clamp(min=1)       # an empty window averages to 0, as in MXNet
''',
    "mx_broadcast_axis": """
def mx_broadcast_axis(x, axes, sizes):
    \"\"\"MXNet's broadcast_axis: each of ``axes`` (of size 1) expanded to its size.\"\"\"
    shape = list(x.shape)
    for axis, size in zip(axes, sizes):
        shape[axis] = size
    return x.expand(shape)
""",
    "mx_mod": """
def mx_mod(a, b):
    \"\"\"MXNet's mod: the sign of the divisor (as Python's %), exact (fmod-based), and 0 where
    the divisor is 0.\"\"\"
    r = torch.fmod(a, b)
    r = torch.where((r != 0) & ((r < 0) != (b < 0)), r + b, r)
    return torch.where(b == 0, torch.zeros_like(r), r)
""",
    "mx_sequence_mask": """
def mx_sequence_mask(x, lengths, value, axis):
    \"\"\"MXNet's SequenceMask: steps at or past each sequence's length set to ``value``
    (time on ``axis`` 0 or 1, batch on the other).\"\"\"
    steps = torch.arange(x.shape[axis], device=x.device)
    keep = steps[:, None] < lengths.reshape(1, -1).to(steps.dtype)      # (T, N)
    if axis == 1:
        keep = keep.t()
    keep = keep.reshape(*keep.shape, *[1] * (x.dim() - 2))
    return torch.where(keep, x, torch.full_like(x, value))
""",
    "mx_sequence_last": """
def mx_sequence_last(x, lengths, axis):
    \"\"\"MXNet's SequenceLast: each sequence's step at its length - 1.\"\"\"
    idx = (lengths.reshape(-1).long() - 1)
    batch = torch.arange(x.shape[1 - axis], device=x.device)
    return x[idx, batch] if axis == 0 else x[batch, idx]
""",
    "mx_sequence_reverse": """
def mx_sequence_reverse(x, lengths):
    \"\"\"MXNet's SequenceReverse (time first): each sequence's first ``length`` steps reversed,
    the steps past it left in place.\"\"\"
    t = torch.arange(x.shape[0], device=x.device)[:, None]              # (T, 1)
    n = lengths.reshape(1, -1).long()                                    # (1, N)
    src = torch.where(t < n, n - 1 - t, t)                               # (T, N)
    src = src.reshape(*src.shape, *[1] * (x.dim() - 2)).expand_as(x)
    return torch.gather(x, 0, src)
""",
    "mx_heads": """
def mx_heads(x, heads, parts, which):
    \"\"\"From (T, N, heads * parts * D), interleaved as (T, N, heads, parts, D): part ``which``
    as (N * heads, T, D).\"\"\"
    t, n = x.shape[0], x.shape[1]
    p = x.reshape(t, n, heads, parts, -1)[:, :, :, which, :]
    return p.permute(1, 2, 0, 3).reshape(n * heads, t, -1)


def mx_heads_back(out, heads):
    \"\"\"(N * heads, T, D) back to (T, N, heads * D).\"\"\"
    nh, t, d = out.shape
    return out.reshape(nh // heads, heads, t, d).permute(2, 0, 1, 3).reshape(t, nh // heads, -1)
""",
    "mx_selfatt_qk": """
def mx_selfatt_qk(qkv, heads):
    \"\"\"MXNet's interleaved_matmul_selfatt_qk: (q / sqrt(D)) @ k^T per head, (N * heads, T, T).\"\"\"
    q, k = mx_heads(qkv, heads, 3, 0), mx_heads(qkv, heads, 3, 1)
    return torch.bmm(q / torch.sqrt(torch.tensor(q.shape[-1], dtype=q.dtype)), k.transpose(1, 2))
""",
    "mx_selfatt_valatt": """
def mx_selfatt_valatt(qkv, attention, heads):
    \"\"\"MXNet's interleaved_matmul_selfatt_valatt: attention @ v per head, (T, N, heads * D).\"\"\"
    return mx_heads_back(torch.bmm(attention, mx_heads(qkv, heads, 3, 2)), heads)
""",
    "mx_encdec_qk": """
def mx_encdec_qk(queries, kv, heads):
    \"\"\"MXNet's interleaved_matmul_encdec_qk: queries (Tq, N, heads * D), keys from kv
    (Tk, N, heads * 2 * D): (q / sqrt(D)) @ k^T per head, (N * heads, Tq, Tk).\"\"\"
    q, k = mx_heads(queries, heads, 1, 0), mx_heads(kv, heads, 2, 0)
    return torch.bmm(q / torch.sqrt(torch.tensor(q.shape[-1], dtype=q.dtype)), k.transpose(1, 2))
""",
    "mx_encdec_valatt": """
def mx_encdec_valatt(kv, attention, heads):
    \"\"\"MXNet's interleaved_matmul_encdec_valatt: attention @ v (from kv) per head,
    (Tq, N, heads * D).\"\"\"
    return mx_heads_back(torch.bmm(attention, mx_heads(kv, heads, 2, 1)), heads)
""",
    "mx_softmax_length": """
def mx_softmax_length(x, length, axis, temperature):
    \"\"\"MXNet's softmax(use_length=True): along ``axis``, only the first ``length`` elements
    (``length``: x's shape without that axis) are normalised; the others are 0.\"\"\"
    xl = x.movedim(axis, -1)
    keep = torch.arange(xl.shape[-1], device=x.device) < length.long().unsqueeze(-1)
    out = torch.softmax(xl.masked_fill(~keep, float("-inf")) / temperature, dim=-1)
    return out.masked_fill(~keep, 0.0).movedim(-1, axis)
""",
    "mx_box_decode": """
def mx_box_decode(x, anchors, stds, clip, fmt):
    \"\"\"MXNet's _contrib_box_decode: (B, N, 4) offsets on N anchors (the first N rows of
    ``anchors``, in ``fmt``) into corner boxes.\"\"\"
    a = anchors.reshape(-1, 4)[: x.shape[1]]
    if fmt == "corner":
        aw, ah = a[:, 2] - a[:, 0], a[:, 3] - a[:, 1]
        ax, ay = a[:, 0] + aw * 0.5, a[:, 1] + ah * 0.5
    else:
        ax, ay, aw, ah = a.unbind(-1)
    ox = x[..., 0] * stds[0] * aw + ax
    oy = x[..., 1] * stds[1] * ah + ay
    dw, dh = x[..., 2] * stds[2], x[..., 3] * stds[3]
    if clip > 0:
        dw, dh = torch.clamp(dw, max=clip), torch.clamp(dh, max=clip)
    ow, oh = torch.exp(dw) * aw * 0.5, torch.exp(dh) * ah * 0.5
    return torch.stack([ox - ow, oy - oh, ox + ow, oy + oh], dim=-1)
""",
    "mx_greedy_keep": """
def mx_greedy_keep(cand, hit):
    \"\"\"Greedy NMS with fixed shapes: ``cand`` (B, K) the candidates in score order,
    ``hit`` (B, K, K) whether i suppresses j (only for i < j). A candidate is kept when no kept
    candidate before it suppresses it: computed as a fixed point from ``cand``; the first t
    entries are final after t rounds, so the loop ends (in a few rounds on real detections).
    Under torch.compile/torch.export the loop is a torch while_loop, and the batch stays
    dynamic.\"\"\"
    hit = hit.to(torch.float32)             # counts of suppressors: exact in float32

    def body(keep, before):
        new = cand & ~(torch.bmm(keep.to(torch.float32)[:, None], hit)[:, 0] > 0)
        return new, keep.clone()

    def changed(keep, before):
        return (keep != before).any()
    carried = (cand.clone(), ~cand)       # (a while_loop input may not alias a closure)
    if torch.compiler.is_compiling():
        from torch._higher_order_ops.while_loop import while_loop

        return while_loop(changed, body, carried)[0]
    keep, before = carried
    while changed(keep, before):
        keep, before = body(keep, before)
    return keep
""",
    "mx_box_nms": """
def mx_box_nms(data, overlap_thresh, valid_thresh, topk, coord_start, score_index, id_index,
               background_id, force_suppress, in_format, out_format):
    \"\"\"MXNet's _contrib_box_nms on rows [.., score, .., x1, y1, x2, y2, ..] (batched on the
    leading axes): rows with score > valid_thresh (and, with id_index, an id other than
    background_id), sorted by score (descending, ties in input order), the first ``topk``
    kept, then greedy NMS: IoU > overlap_thresh suppresses, only within a class (ids compared
    as ints) unless force_suppress. The kept rows come first, in that order; every other row
    is -1.

    Written with fixed shapes, so that torch.export keeps the batch dynamic: the IoU of every
    pair of candidates as torchvision.ops.nms computes it, then mx_greedy_keep.\"\"\"
    if topk == 0:
        return data.clone()
    n, width = data.shape[-2], data.shape[-1]
    rows = data.reshape(-1, n, width)
    score = rows[..., score_index]
    valid = score > valid_thresh
    if id_index >= 0:
        valid = valid & (rows[..., id_index] != background_id)
    order = torch.sort(score, dim=1, descending=True, stable=True).indices
    late = (~valid.gather(1, order)).to(torch.int32)
    order = order.gather(1, torch.sort(late, dim=1, stable=True).indices)
    k = n if topk < 0 else min(topk, n)
    order = order[:, :k]
    cand = valid.gather(1, order)
    s = rows.gather(1, order[..., None].expand(-1, -1, width))
    box = s[..., coord_start:coord_start + 4]
    if in_format == "center":
        half = box[..., 2:] / 2
        box = torch.cat([box[..., :2] - half, box[..., :2] + half], dim=-1)
    x1, y1, x2, y2 = box.detach().unbind(-1)      # (the decisions need no gradient)
    area = (x2 - x1) * (y2 - y1)
    # MXNet's IoU as torchvision's nms computes it: w*h / (area_i + area_j - w*h), > thresh
    # (a box of negative width or height: MXNet's area is 0, this the product, but its
    # intersection with any box is 0 in both, so no IoU exceeds the threshold)
    w = torch.minimum(x2[:, :, None], x2[:, None])
    w.sub_(torch.maximum(x1[:, :, None], x1[:, None])).clamp_(min=0)
    inter = torch.minimum(y2[:, :, None], y2[:, None])
    inter.sub_(torch.maximum(y1[:, :, None], y1[:, None])).clamp_(min=0).mul_(w)
    w = (area[:, :, None] + area[:, None]).sub_(inter)
    hit = torch.gt(inter.div_(w), overlap_thresh).triu_(1)
    del w, inter
    if id_index >= 0 and not force_suppress:
        cls = s[..., id_index].to(torch.int64)
        hit &= cls[:, :, None] == cls[:, None]
    keep = mx_greedy_keep(cand, hit)
    perm = torch.sort((~keep).to(torch.int32), dim=1, stable=True).indices
    top = torch.where(keep.gather(1, perm)[..., None],
                      s.gather(1, perm[..., None].expand(-1, -1, width)), -1)
    out = torch.cat([top, torch.full_like(rows[:, k:], -1)], dim=1)
    if in_format != out_format:
        c = out[..., coord_start:coord_start + 4]
        if out_format == "center":
            new = torch.stack([(c[..., 0] + c[..., 2]) / 2, (c[..., 1] + c[..., 3]) / 2,
                               c[..., 2] - c[..., 0], c[..., 3] - c[..., 1]], dim=-1)
        else:
            half_w, half_h = c[..., 2] / 2, c[..., 3] / 2
            new = torch.stack([c[..., 0] - half_w, c[..., 1] - half_h,
                               c[..., 0] + half_w, c[..., 1] + half_h], dim=-1)
        out = torch.cat([out[..., :coord_start], torch.where(c[..., :1] < 0, c, new),
                         out[..., coord_start + 4:]], dim=-1)
    return out.reshape(data.shape)
""",
    "mx_roi_align": """
def mx_roi_align(x, rois, size, spatial_scale, sample_ratio, aligned):
    \"\"\"MXNet's _contrib_ROIAlign by torchvision.ops.roi_align: ``rois`` (R, 5) [batch index,
    x1, y1, x2, y2] or (R, 4) on image 0; a negative batch index gives zeros.\"\"\"
    import torchvision

    if rois.shape[1] == 4:
        rois = torch.cat([torch.zeros_like(rois[:, :1]), rois], dim=1)
    bad = rois[:, 0] < 0
    safe = torch.cat([torch.where(bad, torch.zeros_like(rois[:, 0]), rois[:, 0])[:, None],
                      rois[:, 1:]], dim=1)
    out = torchvision.ops.roi_align(x, safe, size, spatial_scale, sample_ratio, aligned)
    return torch.where(bad.reshape(-1, 1, 1, 1), torch.zeros_like(out), out)
""",
    "mx_roi_pool": """
def mx_roi_pool(x, rois, size, spatial_scale):
    \"\"\"MXNet's ROIPooling by torchvision.ops.roi_pool: ``rois`` (R, 5) [batch index, x1, y1,
    x2, y2]; a batch index out of range gives zeros.\"\"\"
    import torchvision

    index = rois[:, 0].to(torch.int64)                  # MXNet's static_cast<int>
    bad = (index < 0) | (index >= x.shape[0])
    safe = torch.cat([torch.where(bad, torch.zeros_like(rois[:, 0]), rois[:, 0])[:, None],
                      rois[:, 1:]], dim=1)
    out = torchvision.ops.roi_pool(x, safe, size, spatial_scale)
    return torch.where(bad.reshape(-1, 1, 1, 1), torch.zeros_like(out), out)
""",
    "mx_multibox_prior": """
def mx_multibox_prior(x, sizes, ratios, clip, steps, offsets):
    \"\"\"MXNet's _contrib_MultiBoxPrior: (1, H*W*A, 4) anchors [x1, y1, x2, y2] for a feature
    map of H x W; at each pixel every size at the first ratio, then the other ratios at the
    first size. In float32 arithmetic, as MXNet's kernel (which takes float32 data only).\"\"\"
    f32 = dict(dtype=torch.float32, device=x.device)
    h, w = x.shape[2], x.shape[3]
    one = torch.ones((), **f32)
    step_y, step_x = (one / h, one / w) if steps[0] <= 0 or steps[1] <= 0 else \\
        (torch.tensor(steps[0], **f32), torch.tensor(steps[1], **f32))
    cy = (torch.arange(h, **f32) + offsets[0]) * step_y
    cx = (torch.arange(w, **f32) + offsets[1]) * step_x
    size = torch.tensor([*sizes, *[sizes[0]] * (len(ratios) - 1)], **f32)
    ratio = torch.sqrt(torch.tensor([ratios[0]] * len(sizes) + list(ratios[1:]), **f32))
    half_w = size * h / w * ratio / 2
    half_h = size / ratio / 2
    cx, cy = cx[None, :, None], cy[:, None, None]
    out = torch.stack(torch.broadcast_tensors(cx - half_w, cy - half_h, cx + half_w,
                                              cy + half_h), dim=-1)
    if clip:
        out = out.clamp(0, 1)
    return out.reshape(1, -1, 4).to(x.dtype)
""",
    "mx_multibox_detection": """
def mx_multibox_detection(cls_prob, loc_pred, anchor, clip, threshold, nms_threshold,
                          force_suppress, variances, nms_topk):
    \"\"\"MXNet's _contrib_MultiBoxDetection (its CPU kernel, multibox_detection.cc):
    ``cls_prob`` (B, C, N), ``loc_pred`` (B, N*4), ``anchor`` (1, N, 4) corners. Each anchor
    takes its best class other than 0 (the first on ties) and is kept when that score reaches
    ``threshold``; rows [id - 1, score, x1, y1, x2, y2] of those come first in anchor order,
    the rest are -1. Then the first ``nms_topk`` (all if -1) are sorted by score (stable) and
    greedily suppressed (IoU >= nms_threshold, the same class unless force_suppress) by
    setting their id to -1, leaving them in place; rows after nms_topk keep their unsorted
    values with id -1.\"\"\"
    n_batch, n_class, n = cls_prob.shape
    p = torch.nan_to_num(cls_prob[:, 1:], nan=float("-inf"))
    best = p.amax(dim=1) if n_class > 1 else torch.full_like(cls_prob[:, 0], float("-inf"))
    score = torch.clamp(best, min=-1.0)             # MXNet's running max starts at -1
    j = torch.arange(1, n_class, device=p.device)[None, :, None]
    cls = torch.where(p == best[:, None], j, n_class).amin(dim=1) if n_class > 1 else \\
        torch.zeros_like(best, dtype=torch.int64)
    cls = torch.where(best > -1.0, cls, 0)
    valid = (cls > 0) & ~(score < threshold)
    a = anchor.reshape(-1, 4)
    al, at, ar, ab = a[:, 0], a[:, 1], a[:, 2], a[:, 3]
    aw, ah = ar - al, ab - at
    ax, ay = (al + ar) / 2.0, (at + ab) / 2.0
    d = loc_pred.reshape(n_batch, n, 4)
    ox = d[..., 0] * variances[0] * aw + ax
    oy = d[..., 1] * variances[1] * ah + ay
    ow = torch.exp(d[..., 2] * variances[2]) * aw / 2
    oh = torch.exp(d[..., 3] * variances[3]) * ah / 2
    box = torch.stack([ox - ow, oy - oh, ox + ow, oy + oh], dim=-1)
    if clip:
        box = torch.minimum(box, torch.ones_like(box)).clamp(min=0)
    rows = torch.cat([(cls - 1).to(box.dtype)[..., None], score[..., None], box], dim=-1)
    first = torch.sort((~valid).to(torch.int32), dim=1, stable=True).indices
    rows = torch.where(valid.gather(1, first)[..., None],
                       rows.gather(1, first[..., None].expand(-1, -1, 6)), -1)
    count = valid.sum(dim=1, keepdim=True)
    if not 0 < nms_threshold <= 1:
        return rows
    live = torch.arange(n, device=rows.device)[None] < count
    order = torch.sort(rows[..., 1], dim=1, descending=True, stable=True).indices
    order = order.gather(1, torch.sort((~live.gather(1, order)).to(torch.int32), dim=1,
                                       stable=True).indices)
    k = n if nms_topk <= 0 else min(nms_topk, n)
    top = rows.gather(1, order[:, :k, None].expand(-1, -1, 6))
    cand = torch.arange(k, device=rows.device)[None] < count
    x1, y1, x2, y2 = top[..., 2:].detach().unbind(-1)
    w = (torch.minimum(x2[:, :, None], x2[:, None]) -
         torch.maximum(x1[:, :, None], x1[:, None])).clamp(min=0)
    h = (torch.minimum(y2[:, :, None], y2[:, None]) -
         torch.maximum(y1[:, :, None], y1[:, None])).clamp(min=0)
    inter = w * h
    area = (x2 - x1) * (y2 - y1)
    union = area[:, :, None] + area[:, None] - inter
    iou = torch.where(union <= 0, torch.zeros_like(union), inter / union)
    hit = (iou >= nms_threshold).triu(1)
    if not force_suppress:
        hit &= top[..., 0][:, :, None] == top[..., 0][:, None]
    keep = mx_greedy_keep(cand, hit)
    top = torch.cat([torch.where((keep | ~cand)[..., None], top[..., :1], -1.0), top[..., 1:]], dim=-1)
    rest = rows[:, k:]
    rest = torch.cat([torch.full_like(rest[..., :1], -1), rest[..., 1:]], dim=-1)
    return torch.cat([top, rest], dim=1)
""",
    "mx_proposal": """
def mx_proposal(cls_prob, bbox_pred, im_info, anchors, stride, pre_n, post_n, threshold,
                min_size, iou_loss, output_score):
    \"\"\"MXNet's _contrib_Proposal/MultiProposal (proposal.cc, multi_proposal.cc) in float32
    with the steps C++ promotes to double: ``cls_prob`` (B, 2A, H, W) (the last A channels
    are the objectness), ``bbox_pred`` (B, 4A, H, W), ``im_info`` (B, 3) [height, width,
    scale]. Rows [image, x1, y1, x2, y2] (B * post_n, 5), and the scores (B * post_n, 1).\"\"\"
    f32, f64 = torch.float32, torch.float64
    n_batch, n_anchor, h, w = cls_prob.shape[0], len(anchors), cls_prob.shape[2], \\
        cls_prob.shape[3]
    dev = cls_prob.device
    base = torch.tensor(anchors, dtype=f32, device=dev)                       # (A, 4)
    ys = torch.arange(h, device=dev) * stride
    xs = torch.arange(w, device=dev) * stride
    shift = torch.stack(torch.broadcast_tensors(xs[None, :, None], ys[:, None, None],
                                                xs[None, :, None], ys[:, None, None]), dim=-1)
    box = (base + shift.to(f32)).reshape(1, -1, 4)                             # (1, H*W*A, 4)
    score = cls_prob[:, n_anchor:].to(f32).permute(0, 2, 3, 1).reshape(n_batch, -1)
    d = bbox_pred.to(f32).reshape(n_batch, n_anchor, 4, h, w).permute(0, 3, 4, 1, 2)
    d = d.reshape(n_batch, -1, 4)
    info = im_info.to(f32)
    im_h, im_w = info[:, 0:1], info[:, 1:2]
    if iou_loss:
        pred = box + d
    else:
        width = ((box[..., 2] - box[..., 0]).double() + 1.0).to(f32)
        height = ((box[..., 3] - box[..., 1]).double() + 1.0).to(f32)
        ctr_x = (box[..., 0].double() + 0.5 * (width.double() - 1.0)).to(f32)
        ctr_y = (box[..., 1].double() + 0.5 * (height.double() - 1.0)).to(f32)
        px = d[..., 0] * width + ctr_x
        py = d[..., 1] * height + ctr_y
        pw = (torch.exp(d[..., 2]) * width).double()
        ph = (torch.exp(d[..., 3]) * height).double()
        pred = torch.stack([(px.double() - 0.5 * (pw - 1.0)), (py.double() - 0.5 * (ph - 1.0)),
                            (px.double() + 0.5 * (pw - 1.0)), (py.double() + 0.5 * (ph - 1.0))],
                           dim=-1).to(f32)
    limit = torch.stack([im_w, im_h, im_w, im_h], dim=-1) - 1.0                 # (B, 1, 4)
    pred = torch.maximum(torch.minimum(pred, limit), torch.zeros_like(pred))
    real_h = torch.trunc(im_h / stride)
    real_w = torch.trunc(im_w / stride)
    row = (torch.arange(h, device=dev)[:, None, None] + torch.zeros(1, w, n_anchor, device=dev))
    col = (torch.arange(w, device=dev)[None, :, None] + torch.zeros(h, 1, n_anchor, device=dev))
    outside = (row.reshape(1, -1) >= real_h) | (col.reshape(1, -1) >= real_w)
    score = torch.where(outside, torch.full_like(score, -1), score)
    small_at = (min_size * info[:, 2:3]).to(f32)
    iw = pred[..., 2] - pred[..., 0] + 1.0
    ih = pred[..., 3] - pred[..., 1] + 1.0
    small = (iw < small_at) | (ih < small_at)
    grow = torch.stack([-small_at / 2, -small_at / 2, small_at / 2, small_at / 2], dim=-1)
    pred = torch.where(small[..., None], pred + grow, pred)
    score = torch.where(small, torch.full_like(score, -1), score)
    count = score.shape[1]
    pre = min(pre_n if pre_n > 0 else count, count)
    post = min(post_n, pre)
    order = torch.sort(score, dim=1, descending=True, stable=True).indices[:, :pre]
    top = pred.gather(1, order[..., None].expand(-1, -1, 4))
    top_score = score.gather(1, order)
    x1, y1, x2, y2 = top.detach().unbind(-1)
    area = (x2 - x1 + 1) * (y2 - y1 + 1)
    iw = (torch.minimum(x2[:, :, None], x2[:, None]) -
          torch.maximum(x1[:, :, None], x1[:, None]) + 1.0).clamp(min=0)
    ih = (torch.minimum(y2[:, :, None], y2[:, None]) -
          torch.maximum(y1[:, :, None], y1[:, None]) + 1.0).clamp(min=0)
    inter = iw * ih
    hit = (inter / (area[:, :, None] + area[:, None] - inter) > threshold).triu(1)
    keep = mx_greedy_keep(torch.ones_like(top_score, dtype=torch.bool), hit)
    kept = torch.sort((~keep).to(torch.int32), dim=1, stable=True).indices    # kept first
    n_out = torch.clamp(keep.sum(dim=1, keepdim=True), max=post)
    pick = kept.gather(1, torch.arange(post_n, device=dev)[None] % n_out)      # cyclic
    rois = top.gather(1, pick[..., None].expand(-1, -1, 4))
    image = torch.arange(n_batch, device=dev, dtype=f32)[:, None, None].expand(-1, post_n, 1)
    out = torch.cat([image, rois], dim=-1).reshape(-1, 5).to(cls_prob.dtype)
    if not output_score:
        return out
    return out, top_score.gather(1, pick).reshape(-1, 1).to(cls_prob.dtype)
""",
    "mx_pick": """
def mx_pick(x, index, axis, keepdims, mode):
    \"\"\"MXNet's pick: x's element at ``index`` along ``axis`` (index truncated to an int,
    then clipped to [0, n) or wrapped).\"\"\"
    axis = axis % x.dim()
    n = x.shape[axis]
    i = index.to(torch.int64).reshape([*x.shape[:axis], 1, *x.shape[axis + 1:]])
    i = i.clamp(0, n - 1) if mode == "clip" else torch.remainder(i, n)
    out = torch.gather(x, axis, i)
    return out if keepdims else out.squeeze(axis)
""",
    "mx_take": """
def mx_take(a, indices, axis, mode):
    \"\"\"MXNet's take: slices of ``a`` along ``axis`` at ``indices`` (truncated to ints, then
    clipped to [0, n) or wrapped); the indices' shape replaces that axis.\"\"\"
    axis = axis % a.dim()
    n = a.shape[axis]
    i = indices.to(torch.int64)
    i = i.clamp(0, n - 1) if mode == "clip" else torch.remainder(i, n)
    out = torch.index_select(a, axis, i.reshape(-1))
    return out.reshape([*a.shape[:axis], *indices.shape, *a.shape[axis + 1:]])
""",
    "mx_prod": '''
def mx_prod(x, dims, keepdim=False):
    """A product over several axes (torch.prod takes one)."""
    for d in sorted((d % x.dim() for d in dims), reverse=True):
        x = x.prod(dim=d, keepdim=keepdim)
    return x
''',
}


def coverage_rows() -> list[dict]:
    """One row per supported operator: its aliases, honoured attributes and note (for the book)."""
    seen, rows = set(), []
    for name in sorted(REGISTRY, key=str.lower):
        spec = REGISTRY[name]
        if id(spec) in seen:
            continue
        seen.add(id(spec))
        rows.append({"op": spec.name, "aliases": list(spec.aliases),
                     "attrs": sorted(spec.attrs), "ignored": sorted(spec.ignored),
                     "note": spec.note})
    return rows
