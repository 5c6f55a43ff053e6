"""mx.gluon.nn: Dense, Dropout, Embedding, Flatten and the activation layers."""
from ..model import ARGS, COMPOSITE, RENAMED, SAME, check, entry

_T06 = "06_blocks §3. Layer defaults that bite"
_DENSE_SIG = ("units", "activation", "use_bias", "flatten")

ENTRIES = [
    # ------------------------------------------------------------------------- Dense
    entry("mx.gluon.nn.Dense",
          torch="torch.nn.Sequential(torch.nn.Flatten(), "
                "torch.nn.Linear(in_units, units, bias=use_bias))",
          status=COMPOSITE,
          args="units → out_features (second in Linear); in_units → in_features (first; "
               "Gluon infers it when 0: torch.nn.LazyLinear(units)); use_bias → bias; "
               "activation → a module after the Linear (form `activation`); dtype → "
               ".to(dtype); weight_initializer/bias_initializer → torch.nn.init on "
               ".weight/.bias",
          defaults="flatten=True: Gluon flattens every axis after the first, Linear acts on "
                   "the last axis only",
          gotchas=["Dense(flatten=True), the default, on a (2, 3, 4) input is Flatten() then "
                   "Linear(12, units): its weight is (units, 12), not (units, 4)",
                   "the weight is (units, in_units) on both sides, PyTorch's (out, in): it "
                   "copies as it is"],
          teach="06_blocks §`Dense(flatten=True)` on 3-D input",
          check=check("""
              net = nn.Dense(5, in_units=12)
              net(x)""", """
              mod = nn.Sequential(nn.Flatten(), nn.Linear(12, 5))
              mod(x)""", inputs="x=U(2, 3, 4)", grad="x")),
    entry("mx.gluon.nn.Dense", form="flatten=False", when=["flatten=False"],
          signature=_DENSE_SIG,
          torch="torch.nn.Linear(in_units, units, bias=use_bias)",
          status=ARGS,
          args="units → out_features (second); in_units → in_features (first; 0 = inferred: "
               "torch.nn.LazyLinear(units, bias=use_bias)); use_bias → bias",
          gotchas=["flatten=False acts on the last axis, as Linear does: (2, 3, 4) → (2, 3, 5)"],
          teach="06_blocks §`Dense(flatten=True)` on 3-D input",
          check=check("""
              net = nn.Dense(5, use_bias=False, flatten=False)
              net(x)""", """
              mod = nn.Linear(4, 5, bias=False)
              mod(x)""", inputs="x=U(2, 3, 4)", grad="x")),
    entry("mx.gluon.nn.Dense", form="activation", when=["activation"], signature=_DENSE_SIG,
          torch="torch.nn.Sequential(torch.nn.Flatten(), "
                "torch.nn.Linear(in_units, units, bias=use_bias), torch.nn.ReLU())",
          status=COMPOSITE,
          args="activation='relu' → torch.nn.ReLU() after the Linear ('sigmoid' → Sigmoid(), "
               "'tanh' → Tanh(), 'softrelu' → Softplus(), 'softsign' → Softsign(): the "
               "Activation forms); flatten=False → leave out the Flatten()",
          gotchas=["Linear has no activation argument: the activation is a layer of its own "
                   "(no parameters, so the weights still pair in order)"],
          check=check("""
              net = nn.Dense(5, activation='relu', in_units=12)
              net(x)""", """
              mod = nn.Sequential(nn.Flatten(), nn.Linear(12, 5), nn.ReLU())
              mod(x)""", inputs="x=U(2, 3, 4)", grad="x")),
    # ----------------------------------------------------------------------- Dropout
    entry("mx.gluon.nn.Dropout",
          torch="torch.nn.Dropout(p=rate)", status=RENAMED,
          args="rate → p (PyTorch's default 0.5; Gluon's rate is required)",
          defaults="when it drops: Gluon only inside autograd.record() (train_mode=True), "
                   "PyTorch whenever the module is in train() mode",
          gotchas=["both scale the kept values by 1/(1 - rate) during training: the check "
                   "compares the distribution of outputs of an all-ones input (0 or 1/0.7)",
                   "MXNet 1.9.1's float64 Dropout scales by a float32 factor: "
                   "float32(1/float32(0.7)) = 1.4285714626…, not 1/0.7 = 1.4285714285… "
                   "(2.4e-8 relative); the check rounds both sides to 5 decimals"],
          teach="07_hybridize_export §Dropout: a flag in PyTorch, a scope in Gluon",
          check=check("""
              net = nn.Dropout(0.3)
              nd.round(net(x) * 1e5)""", """
              mod = nn.Dropout(p=0.3)
              torch.round(mod(x) * 1e5).detach()""", inputs="x=A(onp.ones(20000))", grad="x",
              kind="random",
              note="rounded to 5 decimals: MXNet's float64 scale is float32(1/0.7)")),
    entry("mx.gluon.nn.Dropout", form="axes", when=["axes"], signature=("rate", "axes"),
          torch="torch.nn.Dropout1d(p=rate)", status=ARGS,
          args="axes=(2,) on (N, C, L) → torch.nn.Dropout1d(p=rate); axes=(2, 3) on "
               "(N, C, H, W) → torch.nn.Dropout2d(p=rate) (one mask value per sample and "
               "channel, shared along the axes given)",
          gotchas=["`axes` names the axes the mask is *shared* along (broadcast), not the "
                   "axes dropped: axes=(2,) zeroes whole (sample, channel) rows, as "
                   "Dropout1d does; the check compares the values and the spread within each "
                   "row (0: shared) on both sides"],
          check=check("""
              d1 = nn.Dropout(0.3, axes=(2,))
              d2 = nn.Dropout(0.3, axes=(2, 3))
              y1, y2 = d1(x3), d2(x4)
              (nd.round(y1.reshape(-1) * 1e5), (y1.max(axis=2) - y1.min(axis=2)).reshape(-1),
               nd.round(y2.reshape(-1) * 1e5),
               (y2.max(axis=(2, 3)) - y2.min(axis=(2, 3))).reshape(-1))""", """
              d1 = nn.Dropout1d(p=0.3)
              d2 = nn.Dropout2d(p=0.3)
              y1, y2 = d1(x3), d2(x4)
              (torch.round(y1.reshape(-1) * 1e5), (y1.amax(dim=2) - y1.amin(dim=2)).reshape(-1),
               torch.round(y2.reshape(-1) * 1e5),
               (y2.amax(dim=(2, 3)) - y2.amin(dim=(2, 3))).reshape(-1))""",
              inputs="x3=A(onp.ones((20, 50, 20))); x4=A(onp.ones((10, 100, 4, 5)))",
              kind="random", note="values rounded to 5 decimals: MXNet's float64 scale is "
                                  "float32(1/0.7)")),
    # --------------------------------------------------------------------- Embedding
    entry("mx.gluon.nn.Embedding",
          torch="torch.nn.Embedding(input_dim, output_dim)", status=RENAMED,
          args="input_dim → num_embeddings; output_dim → embedding_dim; sparse_grad=True → "
               "sparse=True; the indices: x.long()",
          defaults="the index dtype: Gluon takes the indices as floats (float32 arrays), "
                   "PyTorch as integers (int64)",
          gotchas=["the same (input_dim, output_dim) weight on both sides; Gluon's indices "
                   "are float32 here, PyTorch's int64 (the check feeds each its own)"],
          teach="20_sequence_models §1. Embeddings: the same table, other defaults, other "
                "index types",
          check=check("""
              net = nn.Embedding(6, 3)
              net(idx.astype('float32'))""", """
              mod = nn.Embedding(6, 3)
              mod(idx)""", inputs="idx=I(0, 6, (2, 5))")),
    # ----------------------------------------------------------------------- Flatten
    entry("mx.gluon.nn.Flatten", torch="torch.nn.Flatten()", status=SAME,
          args="none (PyTorch's start_dim=1, end_dim=-1 are Gluon's only behaviour)",
          check=check("""
              net = nn.Flatten()
              net(x)""", """
              mod = nn.Flatten()
              mod(x)""", inputs="x=U(2, 3, 4, 2)", grad="x")),
    # -------------------------------------------------------------------- Activation
    entry("mx.gluon.nn.Activation", form="activation='relu'", when=["activation='relu'"],
          signature=("activation",), torch="torch.nn.ReLU()", status=RENAMED,
          args="activation='relu' → the class torch.nn.ReLU",
          teach="06_blocks §Summary",
          check=check("""
              net = nn.Activation('relu')
              net(x)""", """
              mod = nn.ReLU()
              mod(x)""", inputs="x=U(3, 4)", grad="x")),
    entry("mx.gluon.nn.Activation", form="activation='sigmoid'",
          when=["activation='sigmoid'"], signature=("activation",),
          torch="torch.nn.Sigmoid()", status=RENAMED,
          args="activation='sigmoid' → the class torch.nn.Sigmoid",
          teach="06_blocks §Summary",
          check=check("""
              net = nn.Activation('sigmoid')
              net(x)""", """
              mod = nn.Sigmoid()
              mod(x)""", inputs="x=U(3, 4, lo=-4, hi=4)", grad="x")),
    entry("mx.gluon.nn.Activation", form="activation='tanh'", when=["activation='tanh'"],
          signature=("activation",), torch="torch.nn.Tanh()", status=RENAMED,
          args="activation='tanh' → the class torch.nn.Tanh",
          teach="06_blocks §Summary",
          check=check("""
              net = nn.Activation('tanh')
              net(x)""", """
              mod = nn.Tanh()
              mod(x)""", inputs="x=U(3, 4, lo=-3, hi=3)", grad="x")),
    entry("mx.gluon.nn.Activation", form="activation='softrelu'",
          when=["activation='softrelu'"], signature=("activation",),
          torch="torch.nn.Softplus()", status=RENAMED,
          args="activation='softrelu' → torch.nn.Softplus() (beta=1, threshold=20)",
          gotchas=["both return x itself above 20 (MXNet's fixed threshold, PyTorch's "
                   "default threshold=20): the check's inputs reach ±25"],
          check=check("""
              net = nn.Activation('softrelu')
              net(x)""", """
              mod = nn.Softplus()
              mod(x)""", inputs="x=U(4, 5, lo=-25, hi=25)", grad="x", rtol=1e-8,
              note="MXNet's gradient is computed from the output, −expm1(−y): measured "
                   "6.7e-10 absolute in float64")),
    entry("mx.gluon.nn.Activation", form="activation='softsign'",
          when=["activation='softsign'"], signature=("activation",),
          torch="torch.nn.Softsign()", status=RENAMED,
          args="activation='softsign' → the class torch.nn.Softsign",
          check=check("""
              net = nn.Activation('softsign')
              net(x)""", """
              mod = nn.Softsign()
              mod(x)""", inputs="x=U(3, 4, lo=-3, hi=3)", grad="x")),
    # ------------------------------------------------------- parametrised activations
    entry("mx.gluon.nn.LeakyReLU",
          torch="torch.nn.LeakyReLU(negative_slope=alpha)", status=ARGS,
          args="alpha → negative_slope",
          defaults="alpha is required in Gluon (LeakyReLU() raises TypeError); PyTorch's "
                   "negative_slope defaults to 0.01",
          gotchas=["MXNet 1.9.1's float64 LeakyReLU computes its negative branch in float32 "
                   "(x and alpha both rounded to float32): relative error up to ~6e-8 in "
                   "the output, and the gradient of a negative entry is float32(0.2) = "
                   "0.2000000029802…, not 0.2"],
          teach="deep_dives/autograd_predict_mode §3. More poolings and normalisations",
          check=check("""
              net = nn.LeakyReLU(0.2)
              net(x)""", """
              mod = nn.LeakyReLU(negative_slope=0.2)
              mod(x)""", inputs="x=U(3, 4)", grad="x", rtol=2e-7,
              note="MXNet's float64 LeakyReLU rounds x and alpha to float32 in the negative "
                   "branch: measured up to 6e-8 relative (forward) and 1.5e-8 (gradient)")),
    entry("mx.gluon.nn.PReLU",
          torch="torch.nn.PReLU(num_parameters=in_channels, init=0.25)", status=ARGS,
          args="in_channels → num_parameters (one slope per channel of axis 1, or one "
               "shared); alpha_initializer=mx.init.Constant(a) → init=a",
          note="MXNet's first positional parameter is alpha_initializer, not the number of "
               "channels: Gluon's PReLU(64) fails at initialize() (AssertionError: "
               "initializer must be of string type); write PReLU(in_channels=64)",
          gotchas=["the float64 negative branch is computed in float32 (x·alpha rounded to "
                   "float32), as in LeakyReLU: ~6e-8 relative"],
          check=check("""
              net = nn.PReLU(in_channels=3)
              net(x)""", """
              mod = nn.PReLU(num_parameters=3, init=0.25)
              mod(x)""", inputs="x=U(2, 3, 4)", grad="x", rtol=2e-7,
              note="float64: MXNet's negative branch multiplies in float32 (measured ~6e-8 "
                   "relative)")),
    entry("mx.gluon.nn.ELU", torch="torch.nn.ELU(alpha=alpha)", status=SAME,
          args="alpha → alpha (default 1.0 on both sides)",
          gotchas=["alpha reaches MXNet's kernel as a float32: ELU(0.3) scales by "
                   "float32(0.3) = 0.30000001192…, a 4e-8 relative difference in float64"],
          check=check("""
              net = nn.ELU(0.3)
              net(x)""", """
              mod = nn.ELU(alpha=0.3)
              mod(x)""", inputs="x=U(3, 4, lo=-3, hi=2)", grad="x", rtol=1e-7,
              note="MXNet rounds alpha to float32 (float32(0.3)): 4e-8 relative")),
    entry("mx.gluon.nn.SELU", torch="torch.nn.SELU()", status=SAME,
          gotchas=["MXNet 1.9.1's SELU gradient is wrong for negative inputs: it returns "
                   "λ·(α + y) where the derivative is y + λ·α (y the output), off by "
                   "(λ − 1)·y ≈ 0.05·y (0.07 at x = −1.5); PyTorch's is the true derivative. "
                   "The check compares MXNet's gradient with PyTorch's plus (λ − 1)·y",
                   "MXNet's λ and α are float32 constants: forward differs by ~7e-8 "
                   "relative in float64"],
          note="training a SELU network gives other updates in MXNet than in PyTorch; the "
               "port trains with the right gradient",
          check=check("""
              x.attach_grad()
              with autograd.record():
                  y = nn.SELU()(x)
              y.backward(h)
              (y, x.grad)""", """
              lam = 1.0507009873554804934193349852946
              xr = x.clone().requires_grad_(True)
              y = nn.SELU()(xr)
              g, = torch.autograd.grad(y, xr, h)
              (y.detach(), (g + h * (lam - 1) * y * (x < 0)).detach())""",
              inputs="x=U(3, 5, lo=-2, hi=1); h=P(3, 5)", rtol=1e-6,
              note="MXNet's SELU constants are float32: ~7e-8 relative in float64")),
    entry("mx.gluon.nn.Swish", torch="torch.nn.SiLU()", status=RENAMED,
          args="beta=1.0 (the default) → torch.nn.SiLU(); another beta: form `beta`",
          check=check("""
              net = nn.Swish()
              net(x)""", """
              mod = nn.SiLU()
              mod(x)""", inputs="x=U(3, 4, lo=-3, hi=3)", grad="x")),
    entry("mx.gluon.nn.Swish", form="beta", when=["beta"], signature=("beta",),
          torch="x * torch.sigmoid(beta * x)", status=COMPOSITE,
          args="beta → the factor inside the sigmoid (torch.nn.SiLU has none)",
          check=check("""
              net = nn.Swish(beta=1.7)
              net(x)""", """
              x * torch.sigmoid(1.7 * x)""", inputs="x=U(3, 4, lo=-3, hi=3)", grad="x")),
    entry("mx.gluon.nn.GELU", torch="torch.nn.GELU()", status=SAME,
          args="none: both the exact erf form (PyTorch's approximate='none', its default); "
               "MXNet 1.9.1's Gluon GELU has no tanh approximation",
          gotchas=["MXNet 1.9.1 computes GELU in float32 even for float64 input (x cast to "
                   "float32 in the kernel): ~1e-7 relative in the forward, ~2e-8 in the "
                   "gradient"],
          check=check("""
              net = nn.GELU()
              net(x)""", """
              mod = nn.GELU()
              mod(x)""", inputs="x=U(3, 4, lo=-3, hi=3)", grad="x", rtol=1e-6, atol=1e-7,
              note="MXNet's GELU kernel computes in float32 for float64 data: measured ~1e-7 "
                   "relative (forward)")),
]
