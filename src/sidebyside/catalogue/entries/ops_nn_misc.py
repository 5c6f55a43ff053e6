"""MXNet's fused ``RNN`` operator, the fused attention products of ``contrib``
(``interleaved_matmul_*``, ``div_sqrt_dim``) and the smaller ``contrib`` operators
(``boolean_mask``, ``index_copy``, ``allclose``, straight-through estimators, …)."""
from ..model import ARGS, COMPOSITE, RECIPE, check, entry


def _code(*parts):
    import textwrap

    return "\n".join(textwrap.dedent(p).strip("\n") for p in parts)


_RNN_WEIGHTS = """
def mx_rnn_weights(parameters, mode, input_size, state_size, num_layers=1,
                   bidirectional=False):
    # MXNet's fused RNN parameter vector → the named tensors of torch.nn.LSTM/GRU/RNN:
    # first every weight (layer by layer, direction by direction: i2h, then h2h), then
    # every bias in the same order; the gates in PyTorch's order already (LSTM i, f, g, o;
    # GRU r, z, n)
    gates = {"lstm": 4, "gru": 3, "rnn_tanh": 1, "rnn_relu": 1}[mode] * state_size
    dirs = 2 if bidirectional else 1
    names, shapes = [], []
    for kind in ("weight", "bias"):
        for layer in range(num_layers):
            width = input_size if layer == 0 else state_size * dirs
            for d in range(dirs):
                tail = f"l{layer}" + ("_reverse" if d else "")
                for part, cols in (("ih", width), ("hh", state_size)):
                    names.append(f"{kind}_{part}_{tail}")
                    shapes.append((gates, cols) if kind == "weight" else (gates,))
    sizes = [torch.Size(s).numel() for s in shapes]
    pieces = torch.split(parameters, sizes)
    return {n: p.reshape(s) for n, p, s in zip(names, pieces, shapes)}
"""
_RNN_SIG = ("data", "parameters", "state", "state_cell", "sequence_length", "state_size",
            "num_layers", "bidirectional", "mode")
_RNN_ARGS = ("data (T, N, I) (time first, as PyTorch's default) → input; parameters: one flat "
             "vector → the module's weights, split by the recipe (used through "
             "torch.func.functional_call, or copied into the module's parameters); state "
             "(layers·directions, N, H) → h0; state_cell → c0 (LSTM); state_size → "
             "hidden_size; num_layers, bidirectional as named; p → dropout (between layers, "
             "training only); state_outputs=True → the final states are returned too; "
             "projection_size, lstm_state_clip_*, use_sequence_length: not in the recipe")


def _rnn_check(mode, module, n_params, state, **kw):
    cell = ", c0" if mode == "lstm" else ""
    t_state = "(h0, c0)" if mode == "lstm" else "h0"
    outs = "out, (hn, cn)" if mode == "lstm" else "out, hn"
    ret = "(out, hn, cn)" if mode == "lstm" else "(out, hn)"
    return check(f"""
        nd.RNN(x, p, h0{cell}, state_size=3, num_layers=2, bidirectional=True, mode='{mode}',
               state_outputs=True)""", _code(_RNN_WEIGHTS, f"""
        rnn_layer = {module}
        weights = mx_rnn_weights(p, '{mode}', 4, 3, num_layers=2, bidirectional=True)
        {outs} = torch.func.functional_call(rnn_layer.to(x.dtype), weights, (x, {t_state}))
        {ret}"""),
        inputs=f"x=U(5, 2, 4); p=U({n_params}, lo=-0.5, hi=0.5); h0=U(4, 2, 3); "
               "c0=U(4, 2, 3)", grad="x, p, h0" + (", c0" if mode == "lstm" else ""), **kw)


ENTRIES = [
    entry("mx.nd.RNN", aliases=["mx.sym.RNN"],
          torch="torch.func.functional_call(torch.nn.LSTM(I, state_size, num_layers, "
                "bidirectional=bidirectional), mx_rnn_weights(parameters, 'lstm', I, "
                "state_size, num_layers, bidirectional), (data, (state, state_cell)))",
          status=RECIPE, recipe=_RNN_WEIGHTS, args=_RNN_ARGS,
          note="this entry is mode='lstm' (mode is required); the other modes are forms",
          gotchas=["the parameter vector holds *all* weights first (layer by layer, "
                   "direction by direction, i2h then h2h), then all biases; not the "
                   "per-layer order of PyTorch's state_dict",
                   "the gate order is already PyTorch's (LSTM i, f, g, o; GRU r, z, n): no "
                   "reordering"],
          teach="20_sequence_models §2. The recurrent layers: the same gates, other defaults",
          check=_rnn_check("lstm", "nn.LSTM(4, 3, num_layers=2, bidirectional=True)", 480,
                           "(h0, c0)")),
    entry("mx.nd.RNN", form="mode='gru'", when=["mode='gru'"], signature=_RNN_SIG,
          torch="torch.func.functional_call(torch.nn.GRU(I, state_size, num_layers, "
                "bidirectional=bidirectional), mx_rnn_weights(parameters, 'gru', I, "
                "state_size, num_layers, bidirectional), (data, state))",
          status=RECIPE, recipe=_RNN_WEIGHTS, args=_RNN_ARGS,
          check=_rnn_check("gru", "nn.GRU(4, 3, num_layers=2, bidirectional=True)", 360,
                           "h0")),
    entry("mx.nd.RNN", form="mode='rnn_tanh'", when=["mode='rnn_tanh'"], signature=_RNN_SIG,
          torch="torch.func.functional_call(torch.nn.RNN(I, state_size, num_layers, "
                "bidirectional=bidirectional), mx_rnn_weights(parameters, 'rnn_tanh', I, "
                "state_size, num_layers, bidirectional), (data, state))",
          status=RECIPE, recipe=_RNN_WEIGHTS, args=_RNN_ARGS,
          check=_rnn_check("rnn_tanh", "nn.RNN(4, 3, num_layers=2, bidirectional=True)", 120,
                           "h0")),
    entry("mx.nd.RNN", form="mode='rnn_relu'", when=["mode='rnn_relu'"], signature=_RNN_SIG,
          torch="torch.func.functional_call(torch.nn.RNN(I, state_size, num_layers, "
                "nonlinearity='relu', bidirectional=bidirectional), mx_rnn_weights("
                "parameters, 'rnn_relu', I, state_size, num_layers, bidirectional), "
                "(data, state))",
          status=RECIPE, recipe=_RNN_WEIGHTS, args=_RNN_ARGS,
          gotchas=["MXNet's float64 ReLU RNN computes in float32 inside (measured: 1.8e-7 on "
                   "outputs and gradients of order 1)"],
          check=_rnn_check("rnn_relu", "nn.RNN(4, 3, num_layers=2, nonlinearity='relu', "
                                       "bidirectional=True)", 120, "h0",
                           rtol=1e-6, atol=1e-6,
                           note="MXNet's float64 ReLU RNN works in float32 inside: up to "
                                "1.8e-7 on outputs and gradients (measured)")),
]

# ------------------------------------------------------------- fused attention products
_ATT = """
def _heads_first(t, heads, which, parts):
    # (L, B, heads·parts·D) interleaved per head → the `which` part as (B·heads, L, D)
    length, batch = t.shape[:2]
    t = t.reshape(length, batch, heads, parts, -1)[:, :, :, which]
    return t.permute(1, 2, 0, 3).reshape(batch * heads, length, -1)


def _heads_back(t, heads):
    # (B·heads, L, D) → (L, B, heads·D)
    bh, length, d = t.shape
    return t.reshape(bh // heads, heads, length, d).permute(2, 0, 1, 3).reshape(
        length, bh // heads, heads * d)


def mx_selfatt_qk(qkv, heads):
    q, k = _heads_first(qkv, heads, 0, 3), _heads_first(qkv, heads, 1, 3)
    return torch.matmul(q / math.sqrt(q.shape[-1]), k.mT)


def mx_selfatt_valatt(qkv, attention, heads):
    return _heads_back(torch.matmul(attention, _heads_first(qkv, heads, 2, 3)), heads)


def mx_encdec_qk(queries, keys_values, heads):
    q = _heads_first(queries, heads, 0, 1)
    k = _heads_first(keys_values, heads, 0, 2)
    return torch.matmul(q / math.sqrt(q.shape[-1]), k.mT)


def mx_encdec_valatt(keys_values, attention, heads):
    return _heads_back(torch.matmul(attention, _heads_first(keys_values, heads, 1, 2)), heads)
"""
_ATT_NOTE = ("float32 only: MXNet 1.9.1's CPU interleaved_matmul_* kernels raise 'Only FP32 "
             "is supported on CPU at the moment' for float64")
_ATT_GOTCHA = ("float32 only on CPU in MXNet 1.9.1 (float64 raises 'Only FP32 is supported on "
               "CPU at the moment', measured); "
               "the projections are interleaved per head: (L, B, heads, 3, D) for q, k, v, "
               "not three contiguous blocks")

ENTRIES += [
    entry("mx.nd.contrib.interleaved_matmul_selfatt_qk",
          aliases=["mx.sym.contrib.interleaved_matmul_selfatt_qk"],
          torch="mx_selfatt_qk(queries_keys_values, heads)", status=RECIPE,
          recipe="import math\n" + _ATT,
          args="queries_keys_values (L, B, heads·3·D) → scores (B·heads, L, L) = "
               "q·kᵀ/sqrt(D); heads → heads",
          gotchas=[_ATT_GOTCHA, "the scores are already divided by sqrt(D)"],
          check=check("nd.contrib.interleaved_matmul_selfatt_qk(qkv, heads=2)",
                      _code("import math", _ATT, "mx_selfatt_qk(qkv, 2)"),
                      inputs="qkv=U(5, 3, 24)", grad="qkv", dtypes=("float32",),
                      note=_ATT_NOTE)),
    entry("mx.nd.contrib.interleaved_matmul_selfatt_valatt",
          aliases=["mx.sym.contrib.interleaved_matmul_selfatt_valatt"],
          torch="mx_selfatt_valatt(queries_keys_values, attention, heads)", status=RECIPE,
          recipe="import math\n" + _ATT,
          args="queries_keys_values (L, B, heads·3·D), attention (B·heads, L, L) → (L, B, "
               "heads·D): the attention-weighted values, heads concatenated",
          gotchas=[_ATT_GOTCHA],
          check=check("nd.contrib.interleaved_matmul_selfatt_valatt(qkv, att, heads=2)",
                      _code("import math", _ATT, "mx_selfatt_valatt(qkv, att, 2)"),
                      inputs="qkv=U(5, 3, 24); att=PROBS(6, 5, 5)", grad="qkv, att",
                      dtypes=("float32",), note=_ATT_NOTE)),
    entry("mx.nd.contrib.interleaved_matmul_encdec_qk",
          aliases=["mx.sym.contrib.interleaved_matmul_encdec_qk"],
          torch="mx_encdec_qk(queries, keys_values, heads)", status=RECIPE,
          recipe="import math\n" + _ATT,
          args="queries (Lq, B, heads·D), keys_values (Lk, B, heads·2·D) → (B·heads, Lq, Lk)"
               " = q·kᵀ/sqrt(D)",
          gotchas=[_ATT_GOTCHA],
          check=check("nd.contrib.interleaved_matmul_encdec_qk(q, kv, heads=2)",
                      _code("import math", _ATT, "mx_encdec_qk(q, kv, 2)"),
                      inputs="q=U(4, 3, 8); kv=U(5, 3, 16)", grad="q, kv",
                      dtypes=("float32",), note=_ATT_NOTE)),
    entry("mx.nd.contrib.interleaved_matmul_encdec_valatt",
          aliases=["mx.sym.contrib.interleaved_matmul_encdec_valatt"],
          torch="mx_encdec_valatt(keys_values, attention, heads)", status=RECIPE,
          recipe="import math\n" + _ATT,
          args="keys_values (Lk, B, heads·2·D), attention (B·heads, Lq, Lk) → (Lq, B, "
               "heads·D)",
          gotchas=[_ATT_GOTCHA],
          check=check("nd.contrib.interleaved_matmul_encdec_valatt(kv, att, heads=2)",
                      _code("import math", _ATT, "mx_encdec_valatt(kv, att, 2)"),
                      inputs="kv=U(5, 3, 16); att=PROBS(6, 4, 5)", grad="kv, att",
                      dtypes=("float32",), note=_ATT_NOTE)),
    entry("mx.nd.contrib.div_sqrt_dim", aliases=["mx.sym.contrib.div_sqrt_dim"],
          torch="data / math.sqrt(data.shape[-1])", status=COMPOSITE,
          args="divides by the square root of the last axis's size",
          check=check("nd.contrib.div_sqrt_dim(x)", "x / math.sqrt(x.shape[-1])",
                      inputs="x=U(2, 3, 5)", grad="x")),
]

# ------------------------------------------------------------------ smaller contrib ops
ENTRIES += [
    entry("mx.nd.contrib.boolean_mask", aliases=["mx.sym.contrib.boolean_mask"],
          torch="data[index.bool()]", status=COMPOSITE,
          args="index (0/1 per row, float in MXNet) → a bool mask on axis 0; axis=0 only "
               "(axis=1 raises 'Not supported yet')",
          check=check("nd.contrib.boolean_mask(x, m)", "x[m.bool()]",
                      inputs="x=U(4, 3); m=A([1, 0, 1, 1])", grad="x")),
    entry("mx.nd.contrib.index_copy", aliases=["mx.sym.contrib.index_copy"],
          torch="old_tensor.index_copy(0, index_vector.long(), new_tensor)", status=ARGS,
          args="index_vector (float in MXNet) → long indices; the rows of old_tensor listed "
               "are replaced by new_tensor's; a new array (not in place)",
          check=check("nd.contrib.index_copy(x, i, y)",
                      "x.index_copy(0, i.long(), y)",
                      inputs="x=U(4, 3); i=A([2, 0]); y=U(2, 3)", grad="x, y")),
    entry("mx.nd.contrib.allclose", aliases=["mx.sym.contrib.allclose"],
          torch="torch.tensor(torch.allclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan),"
                " dtype=torch.uint8)",
          status=ARGS,
          args="|a − b| ≤ atol + rtol·|b| on both sides; returns a 0-d uint8 array in MXNet, "
               "a Python bool in PyTorch",
          defaults="equal_nan=True in MXNet, False in torch.allclose; rtol=1e-5 and "
                   "atol=1e-8 on both (MXNet's as float32)",
          check=check("""
              (nd.contrib.allclose(x, x + 1e-6), nd.contrib.allclose(x, x + 1e-9),
               nd.contrib.allclose(x / 0 * 0, x / 0 * 0))""", """
              (torch.tensor(torch.allclose(x, x + 1e-6, rtol=1e-5, atol=1e-8, equal_nan=True),
                            dtype=torch.uint8),
               torch.tensor(torch.allclose(x, x + 1e-9, rtol=1e-5, atol=1e-8, equal_nan=True),
                            dtype=torch.uint8),
               torch.tensor(torch.allclose(x / 0 * 0, x / 0 * 0, equal_nan=True),
                            dtype=torch.uint8))""",
              inputs="x=U(4, 3)", kind="exact")),
    entry("mx.nd.contrib.index_array", aliases=["mx.sym.contrib.index_array"],
          torch="torch.stack(torch.meshgrid(*[torch.arange(n) for n in data.shape], "
                "indexing='ij'), -1)",
          status=COMPOSITE,
          args="each element's index as int64, shape data.shape + (ndim,); axes → keep "
               "those index columns only ([..., list(axes)])",
          check=check("""
              (nd.contrib.index_array(x), nd.contrib.index_array(x, axes=(1,)))""", """
              grid = torch.stack(torch.meshgrid(*[torch.arange(n) for n in x.shape],
                                                indexing='ij'), -1)
              (grid, grid[..., [1]])""", inputs="x=U(2, 3, 4)", kind="exact")),
    entry("mx.nd.contrib.round_ste", aliases=["mx.sym.contrib.round_ste"],
          torch="data + (torch.sign(data) * torch.floor(data.abs() + 0.5) - data).detach()",
          status=COMPOSITE,
          args="forward: round half away from zero; backward: the identity (straight-through)",
          gotchas=["torch.round rounds half to even (2.5 → 2); MXNet half away from zero "
                   "(2.5 → 3)"],
          check=check("nd.contrib.round_ste(x)",
                      "x + (torch.sign(x) * torch.floor(x.abs() + 0.5) - x).detach()",
                      inputs="x=A([0.5, 1.5, 2.5, -0.5, -1.5, 0.49, -2.7])", grad="x")),
    entry("mx.nd.contrib.sign_ste", aliases=["mx.sym.contrib.sign_ste"],
          torch="data + (torch.sign(data) - data).detach()", status=COMPOSITE,
          args="forward: sign; backward: the identity (straight-through)",
          check=check("nd.contrib.sign_ste(x)", "x + (torch.sign(x) - x).detach()",
                      inputs="x=U(3, 4)", grad="x")),
    entry("mx.nd.contrib.gradientmultiplier", aliases=["mx.sym.contrib.gradientmultiplier"],
          torch="mx_gradient_multiplier(data, scalar)", status=RECIPE,
          recipe="""
              def mx_gradient_multiplier(data, scalar):
                  # the identity forward; the gradient multiplied by scalar (gradient reversal
                  # with scalar = -1)
                  out = data.clone()
                  out.register_hook(lambda g: g * scalar)
                  return out""",
          args="scalar → the factor on the gradient (is_int: how scalar is parsed)",
          check=check("nd.contrib.gradientmultiplier(x, scalar=-0.5)", """
              def mx_gradient_multiplier(data, scalar):
                  out = data.clone()
                  out.register_hook(lambda g: g * scalar)
                  return out
              mx_gradient_multiplier(x, -0.5)""", inputs="x=U(3, 4)", grad="x")),
    entry("mx.nd.contrib.quadratic", aliases=["mx.sym.contrib.quadratic"],
          torch="a * data ** 2 + b * data + c", status=COMPOSITE,
          args="a, b, c (float32 fields, default 0)",
          check=check("nd.contrib.quadratic(x, a=0.5, b=-2.0, c=3.0)",
                      "0.5 * x ** 2 + -2.0 * x + 3.0", inputs="x=U(3, 4)", grad="x")),
    entry("mx.nd.contrib.BatchNormWithReLU", aliases=["mx.sym.contrib.BatchNormWithReLU"],
          torch="F.relu(F.batch_norm(data, None, None, None, beta, training=True, eps=eps))",
          status=COMPOSITE,
          args="BatchNorm (the operator's defaults: fix_gamma=True, eps=1e-3 as float32, "
               "momentum 0.9) followed by a ReLU; the moving statistics as mx.nd.BatchNorm's "
               "entry",
          gotchas=["float64 raises 'BatchNormWithReLU operator only supports MKL-DNN "
                   "Backend' (oneDNN has float32 only; measured)"],
          check=check("nd.contrib.BatchNormWithReLU(x, g, b, mm, mv)",
                      "F.relu(F.batch_norm(x, None, None, None, b, training=True, "
                      "eps=0.0010000000474974513))",
                      inputs="x=U(4, 3, 2, 5); g=P(3); b=U(3); mm=U(3); mv=P(3)",
                      grad="x, g, b", dtypes=("float32",),
                      note="float32 only: in float64 MXNet raises 'BatchNormWithReLU operator "
                           "only supports MKL-DNN Backend'")),
    entry("mx.nd.contrib.SparseEmbedding", aliases=["mx.sym.contrib.SparseEmbedding"],
          torch="F.embedding(data.long().clamp(0, input_dim - 1), weight, sparse=True)",
          status=COMPOSITE,
          args="as nd.Embedding (float indices truncated and clipped), with a row-sparse "
               "gradient in MXNet → sparse=True (a sparse gradient tensor)",
          check=check("nd.contrib.SparseEmbedding(i, w, input_dim=6, output_dim=4)",
                      "F.embedding(i.long().clamp(0, 6 - 1), w, sparse=True)",
                      inputs="i=A([[0, 5, 7], [-1, 2.7, 3]]); w=U(6, 4)",
                      note="forward only: the sparse gradients are not compared")),
]
