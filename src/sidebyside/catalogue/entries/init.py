"""`mx.init`: the initialisers, each drawn on both sides (random: a two-sample test)."""
import textwrap

from ..model import ARGS, COMPOSITE, RECIPE, RENAMED, check, entry


def _w(head, body):
    return head + textwrap.dedent(body)

_T = "06_blocks §MXNet's initialisers, reproduced in PyTorch"
_MX = "from sidebyside.catalogue.harness import mx_init\n"
_PT = "from sidebyside.catalogue.harness import torch_init\n"


def _rand(mx_init, torch_fill, shape=(100, 100)):
    return check(_MX + f"mx_init({mx_init}, {shape}, dtype=dtype)",
                 _PT + f"torch_init(lambda t: {torch_fill}, {shape}, dtype=dtype)",
                 kind="random")


def _exact(mx_init, torch_fill, shape=(3, 4), name="weight"):
    return check(_MX + f"mx_init({mx_init}, {shape}, name={name!r}, dtype=dtype)",
                 _PT + f"torch_init(lambda t: {torch_fill}, {shape}, dtype=dtype)",
                 kind="exact")


_NAME_DISPATCH = ("MXNet picks what to do from the parameter's name suffix: passed to "
                  "initialize(), an initialiser fills names ending in 'weight'; 'bias' and "
                  "'beta' get 0, 'gamma' 1 (the layer's own *_initializer wins over both); "
                  "torch.nn.init functions fill whatever tensor they are given")

_CUSTOM_MX = """
class ArangeInit(mx.init.Initializer):
    def _init_weight(self, name, arr):
        arr[:] = nd.arange(arr.size, dtype=arr.dtype).reshape(arr.shape) / arr.size
"""
_CUSTOM_PT = """
def arange_init(module):
    if isinstance(module, nn.Linear):
        with torch.no_grad():
            w = module.weight
            w.copy_(torch.arange(w.numel(), dtype=w.dtype).reshape(w.shape) / w.numel())
            module.bias.zero_()
"""

ENTRIES = [
    entry("mx.init.Uniform", torch="torch.nn.init.uniform_(w, -scale, scale)", status=ARGS,
          args="scale → a=-scale, b=scale", defaults="scale 0.07 (U(−0.07, 0.07)); "
          "PyTorch's uniform_ defaults to U(0, 1)",
          gotchas=["Uniform(s) draws U(−s, s), symmetric: not N(0, 1), not U(0, s)",
                   _NAME_DISPATCH],
          teach=_T,
          check=_rand("mx.init.Uniform(0.1)", "nn.init.uniform_(t, -0.1, 0.1)")),
    entry("mx.init.Normal", torch="torch.nn.init.normal_(w, 0.0, sigma)", status=ARGS,
          args="sigma → std (mean 0)", defaults="sigma 0.01; PyTorch's normal_ std 1",
          gotchas=["MXNet's default sigma is 0.01, PyTorch's normal_ default std is 1.0",
                   _NAME_DISPATCH],
          teach=_T,
          check=_rand("mx.init.Normal(0.5)", "nn.init.normal_(t, 0.0, 0.5)")),
    entry("mx.init.Xavier",
          torch="torch.nn.init.xavier_uniform_(w, gain=math.sqrt(magnitude / 3))",
          status=ARGS,
          args="rnd_type='uniform', factor_type='avg' (the defaults): magnitude → "
               "gain=√(magnitude/3)",
          defaults="magnitude 3 is gain 1: Xavier() is xavier_uniform_(w)",
          gotchas=["xavier_uniform_ equals Xavier only for factor_type='avg' and gain "
                   "√(magnitude/3): Xavier(magnitude=2.24) is gain 0.864, not 1",
                   "fans as PyTorch's: fan_in = shape[1]·∏kernel, fan_out = "
                   "shape[0]·∏kernel", _NAME_DISPATCH],
          teach=_T,
          check=_rand("mx.init.Xavier(magnitude=2.24)",
                      "nn.init.xavier_uniform_(t, gain=math.sqrt(2.24 / 3))")),
    entry("mx.init.Xavier", form="rnd_type='gaussian'", when=["rnd_type='gaussian'"],
          signature=("rnd_type", "factor_type", "magnitude"),
          torch="torch.nn.init.xavier_normal_(w, gain=math.sqrt(magnitude))", status=ARGS,
          args="rnd_type='gaussian', factor_type='avg': magnitude → gain=√magnitude",
          gotchas=["the Gaussian form's gain is √magnitude, the uniform form's √(magnitude/3)"],
          teach=_T,
          check=_rand("mx.init.Xavier(rnd_type='gaussian', magnitude=2)",
                      "nn.init.xavier_normal_(t, gain=math.sqrt(2))")),
    entry("mx.init.Xavier", form="factor_type='in'", when=["factor_type='in'"],
          signature=("rnd_type", "factor_type", "magnitude"),
          torch="torch.nn.init.uniform_(w, -math.sqrt(magnitude / fan_in), "
                "math.sqrt(magnitude / fan_in))",
          status=COMPOSITE,
          args="factor_type='in' (uniform): U(±√(magnitude/fan_in)), fan_in = "
               "w[0].numel(); 'out': fan_out = w.shape[0]·∏kernel; rnd_type='gaussian': "
               "normal_(w, 0, √(magnitude/fan))",
          gotchas=["magnitude ≤ 6 is also kaiming_uniform_(w, a=√(6/magnitude − 1), "
                   "mode='fan_in'): magnitude 6 is nonlinearity='relu'"],
          teach=_T,
          check=_rand("mx.init.Xavier(factor_type='in', magnitude=2)",
                      "nn.init.uniform_(t, -math.sqrt(2 / t[0].numel()), "
                      "math.sqrt(2 / t[0].numel()))")),
    entry("mx.init.MSRAPrelu",
          torch="torch.nn.init.xavier_normal_(w, gain=math.sqrt(2 / (1 + slope ** 2)))",
          status=COMPOSITE,
          args="factor_type='avg' (default): N(0, 2·2/((1+slope²)(fan_in+fan_out))) → "
               "xavier_normal_ with gain √(2/(1+slope²)); factor_type='in'/'out' → "
               "kaiming_normal_(w, a=slope, mode='fan_in'/'fan_out')",
          defaults="factor_type 'avg' and slope 0.25: MSRAPrelu() is not He/kaiming "
                   "initialisation (that is MSRAPrelu('in', 0))",
          gotchas=["MSRAPrelu() averages the fans: it is not kaiming_normal_(w) "
                   "(MSRAPrelu(factor_type='in', slope=0) is)"],
          teach=_T,
          check=_rand("mx.init.MSRAPrelu()",
                      "nn.init.xavier_normal_(t, gain=math.sqrt(2 / (1 + 0.25 ** 2)))")),
    entry("mx.init.MSRAPrelu", form="factor_type='in'", when=["factor_type='in'"],
          signature=("factor_type", "slope"),
          torch="torch.nn.init.kaiming_normal_(w, a=slope, mode='fan_in')", status=ARGS,
          args="factor_type='in' → mode='fan_in' ('out' → 'fan_out'); slope → a",
          defaults="slope 0.25 vs a=0: write a=0.25, or MSRAPrelu('in', 0) for "
                   "kaiming_normal_(w)",
          teach=_T,
          check=_rand("mx.init.MSRAPrelu(factor_type='in', slope=0.1)",
                      "nn.init.kaiming_normal_(t, a=0.1, mode='fan_in')")),
    entry("mx.init.Constant", torch="torch.nn.init.constant_(w, value)", status=RENAMED,
          gotchas=["called by name, Constant(v) fills only names ending in 'weight' (and Variable/Parameter init=): mx.init.Constant(0.3) given InitDesc('fc_bias') writes 0 (measured), the base class's _init_bias", _NAME_DISPATCH],
          teach=_T,
          check=_exact("mx.init.Constant(0.3)", "nn.init.constant_(t, 0.3)")),
    entry("mx.init.Zero", torch="torch.nn.init.zeros_(w)", status=RENAMED,
          check=_exact("mx.init.Zero()", "nn.init.zeros_(t)")),
    entry("mx.init.One", torch="torch.nn.init.ones_(w)", status=RENAMED,
          check=_exact("mx.init.One()", "nn.init.ones_(t)")),
    entry("mx.init.Orthogonal", torch="torch.nn.init.orthogonal_(w, gain=scale)",
          status=ARGS,
          args="scale → gain; rand_type ('uniform'/'normal') has no counterpart: PyTorch "
               "orthogonalises a normal draw by QR, MXNet a uniform (or normal) draw by SVD",
          defaults="scale 1.414 vs gain 1",
          gotchas=["both give rows (or columns) orthonormal times the scale, the check "
                   "compares W·Wᵀ = scale²·I; the draws' distribution differs (SVD of a "
                   "uniform matrix is not Haar-distributed)"],
          check=check(_w(_MX, """
              w = mx_init(mx.init.Orthogonal(scale=1.5), (3, 5), dtype=dtype)
              w @ w.T"""), _w(_PT, """
              w = torch_init(lambda t: nn.init.orthogonal_(t, gain=1.5), (3, 5), dtype=dtype)
              w @ w.T"""), rtol=5e-7, atol=3e-7, rtol32=2e-6,
              note="MXNet draws the matrix in float32 before its SVD: W·Wᵀ is scale²·I to "
                   "~1e-7 (measured 1.1e-7) where PyTorch's float64 QR is exact to 1e-15")),
    entry("mx.init.LSTMBias",
          torch="b.zero_(); b[hidden_size:2 * hidden_size].fill_(forget_bias)  # in torch.no_grad()",
          status=COMPOSITE,
          args="forget_bias → the value of the forget gate's slice (gate order i, f, g, o "
               "in both)",
          gotchas=["LSTMBias only acts through _init_weight: give it as the cell's "
                   "i2h_bias_initializer (or a Parameter's init=), not to initialize()",
                   "PyTorch's LSTM has two biases: put forget_bias in one of them (bias_ih) "
                   "and zero the other, or the forget bias doubles"],
          check=_exact("mx.init.LSTMBias(2.0)", "(t.zero_(), t[3:6].fill_(2.0))",
                       shape=(12,))),
    entry("mx.init.Initializer",
          torch="mod.apply(init_fn)  # init_fn(module) writes each layer's tensors", status=RECIPE,
          recipe=_CUSTOM_PT + "mod.apply(arange_init)",
          args="a subclass's _init_weight(name, arr) → a function of the module, given to "
               "module.apply (or a loop over named_parameters)",
          gotchas=["the base class's __call__ routes by name suffix: _init_weight for "
                   "'…weight', _init_bias (zeros) for '…bias', _init_gamma (ones) …; the "
                   "PyTorch function must do each part itself"],
          teach=_T,
          check=check(_w(_CUSTOM_MX, """
              net = nn.Dense(3, in_units=4)
              net.initialize(ArangeInit())
              net.cast(dtype)
              (net.weight.data(), net.bias.data())"""), _w(_CUSTOM_PT, """
              mod = nn.Linear(4, 3).to(dtype)
              mod.apply(arange_init)
              (mod.weight, mod.bias)"""), keep_weights=True)),
    entry("mx.init.register", torch="mod.apply(init_fn)  # init_fn(module) writes each layer's tensors",
          status=RECIPE, recipe=_CUSTOM_PT + "mod.apply(arange_init)",
          args="@mx.init.register (so initialize('arangeinit') finds the class by its "
               "lower-cased name) → no registry: call the function",
          check=check(_w("@mx.init.register" + _CUSTOM_MX, """
              net = nn.Dense(3, in_units=4)
              net.initialize('arangeinit')
              net.cast(dtype)
              (net.weight.data(), net.bias.data())"""), _w(_CUSTOM_PT, """
              mod = nn.Linear(4, 3).to(dtype)
              mod.apply(arange_init)
              (mod.weight, mod.bias)"""), keep_weights=True)),
    entry("mx.init.Mixed",
          torch="for name, p in mod.named_parameters(): init_for(name)(p)", status=RECIPE,
          recipe="""
              import re
              rules = [(r'enc', lambda p: nn.init.constant_(p, 2.0)),
                       (r'.*', lambda p: nn.init.constant_(p, 0.5))]
              with torch.no_grad():
                  for name, p in mod.named_parameters():
                      next(f for pat, f in rules if re.match(pat, name))(p)""",
          args="patterns (regular expressions, re.match on the parameter's name, the first "
               "that matches wins) and initializers → the same loop over named_parameters()",
          gotchas=["rewrite the patterns for PyTorch's names ('enc.weight', not "
                   "'enc_weight')",
                   "Gluon's initialize() refuses a Mixed ('initializer must be of string "
                   "type', measured): it works called as init(InitDesc(name), arr), as the "
                   "Module API does",
                   "each initialiser still routes by suffix: Constant under Mixed writes 0 "
                   "into a '…bias'"],
          check=check("""
              from sidebyside.catalogue.harness import mx_init
              m = mx.init.Mixed(['enc', '.*'], [mx.init.Constant(2.0), mx.init.Constant(0.5)])
              (mx_init(m, (3, 4), name='enc_weight', dtype=dtype),
               mx_init(m, (2, 3), name='dec_weight', dtype=dtype))""", """
              import re
              layers = nn.ModuleDict({'enc': nn.Linear(4, 3, bias=False),
                                      'dec': nn.Linear(3, 2, bias=False)}).to(dtype)
              rules = [(r'enc', lambda p: nn.init.constant_(p, 2.0)),
                       (r'.*', lambda p: nn.init.constant_(p, 0.5))]
              with torch.no_grad():
                  for name, p in layers.named_parameters():
                      next(f for pat, f in rules if re.match(pat, name))(p)
              (layers.enc.weight.detach(), layers.dec.weight.detach())""", kind="exact")),
]

_BILINEAR = """
def bilinear_(w):                   # w: (out, in, kh, kw), an upsampling deconvolution
    f = math.ceil(w.shape[3] / 2)
    c = (2 * f - 1 - f % 2) / (2 * f)
    ys = torch.arange(w.shape[2], dtype=w.dtype)
    xs = torch.arange(w.shape[3], dtype=w.dtype)
    kernel = (1 - (ys[:, None] / f - c).abs()) * (1 - (xs[None, :] / f - c).abs())
    with torch.no_grad():
        return w.copy_(kernel.expand_as(w))
"""

ENTRIES += [
    entry("mx.init.Bilinear", torch="bilinear_(w)", status=RECIPE, recipe=_BILINEAR,
          args="the bilinear upsampling kernel in every (out, in) slice of a 4-D weight, "
               "for a ConvTranspose2d of stride s and kernel 2s − s % 2",
          gotchas=["MXNet fills every (out, in) pair, not only out == in: a per-channel "
                   "upsampling needs groups=channels (or zero the off-diagonal slices)",
                   "f is taken from the kernel's width for both axes: keep kernels square"],
          check=check(_w(_MX, """
              mx_init(mx.init.Bilinear(), (2, 2, 4, 4), dtype=dtype)"""),
              _w(_PT + _BILINEAR, """
              torch_init(bilinear_, (2, 2, 4, 4), dtype=dtype)"""))),
    entry("mx.init.Load", torch="w.copy_(saved[name])", status=COMPOSITE,
          args="Load(param dict or file, default_init) → copy each saved tensor into the "
               "parameter of that name (module.load_state_dict(saved, strict=False) for a "
               "whole module); names not in it → default_init's torch.nn.init call",
          gotchas=["Load strips 'arg:'/'aux:' prefixes of a Module checkpoint's keys; the "
                   "names are Gluon's or the symbol's, not PyTorch's: rename them"],
          check=check(_w(_MX, """
              mx_init(mx.init.Load({'fc_weight': v}), (3, 4), name='fc_weight', dtype=dtype)"""),
              _w(_PT, """
              torch_init(lambda w: w.copy_(v), (3, 4), dtype=dtype)"""),
              inputs="v=U(3, 4)", kind="exact")),
]

ENTRIES += [
    entry("mx.init.InitDesc", torch="torch.nn.init.constant_(w, value)  # the init function "
          "called on the tensor itself", status=COMPOSITE,
          args="init(InitDesc('fc_weight'), arr) (one array initialised by hand, its name "
               "choosing _init_weight/_init_bias/…) → the torch.nn.init function called on "
               "the tensor; attrs={'__init__': …} (a per-parameter initialiser) → the "
               "function for that tensor",
          gotchas=["InitDesc is a str: the suffix decides what is written ('fc_bias' gets 0 "
                   "from most initialisers); PyTorch calls whatever function you name"],
          check=check("""
              arr = nd.zeros((3, 4), dtype=dtype)
              mx.init.Constant(0.5)(mx.init.InitDesc('fc_weight'), arr)
              arr""", """
              t = torch.empty(3, 4, dtype=dtype)
              nn.init.constant_(t, 0.5)""", kind="exact")),
]

ENTRIES += [
    entry("mx.init.FusedRNN",
          torch="torch.nn.init on each parameter of torch.nn.LSTM(input_size, num_hidden, "
                "num_layers)  # weights: init; biases: 0, the forget gate's forget_bias",
          status=RECIPE,
          recipe="""
              # mx.init.FusedRNN(init, num_hidden, num_layers, 'lstm', forget_bias=b) on the
              # packed parameters of sym.RNN / rnn.LSTM → the same on torch.nn.LSTM's tensors
              for name, p in lstm.named_parameters():
                  if name.startswith('weight'):
                      init_(p)                      # e.g. torch.nn.init.ones_, xavier_uniform_
                  else:
                      torch.nn.init.zeros_(p)
                      p.data[num_hidden:2 * num_hidden] = forget_bias   # gates i, f, c, o""",
          args="init → the same initialiser on every weight matrix; num_hidden → hidden_size; "
               "mode='lstm' → torch.nn.LSTM (gate order i, f, c/g, o in both); forget_bias → "
               "the forget gate's slice of each bias vector",
          gotchas=["forget_bias is written into both bias vectors (i2h and h2h): with "
                   "forget_bias=1.0 the gate starts at an effective bias of 2.0, as a "
                   "torch.nn.LSTM with both slices set",
                   "it initialises the one packed vector of a fused RNN (sym.RNN's "
                   "parameters): weights of all layers first, then biases"],
          check=check("""
              init = mx.init.FusedRNN(mx.init.One(), num_hidden=3, num_layers=1, mode='lstm',
                                      forget_bias=1.0)
              arr = nd.zeros((4 * 3 * (4 + 3) + 2 * 4 * 3,), dtype=dtype)
              init(mx.init.InitDesc('lstm_weight'), arr)   # a name ending in weight: _init_weight
              arr""", """
              lstm = nn.LSTM(4, 3).to(dtype)
              for name, p in lstm.named_parameters():
                  if name.startswith('weight'):
                      nn.init.ones_(p)
                  else:
                      nn.init.zeros_(p)
                      p.data[3:6] = 1.0
              torch.cat([lstm.weight_ih_l0.flatten(), lstm.weight_hh_l0.flatten(),
                         lstm.bias_ih_l0, lstm.bias_hh_l0]).detach()""", kind="exact")),
]
