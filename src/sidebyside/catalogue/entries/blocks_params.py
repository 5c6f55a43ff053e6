"""Gluon's parameters: ``Block.collect_params``/``initialize``/``cast``, ``Parameter``,
``Constant`` and ``ParameterDict`` (data, gradients, ``grad_req``, ``lr_mult``/``wd_mult``)
and their PyTorch counterparts (``named_parameters``, ``nn.Parameter``, buffers,
``torch.nn.init``, parameter groups)."""
from ..model import ARGS, COMPOSITE, RECIPE, RENAMED, SAME, check, entry

# Snippets that run a Trainer or assign parameters start with `net = None`: the runner then
# runs them outside autograd.record (its operator mode records the whole snippet, and MXNet
# refuses in-place writes to arrays a recording has seen).
_NO_RECORD = "net = None  # no block for the runner: this snippet runs outside autograd.record"

_MX_DENSE = """
    blk = nn.Dense(3, in_units=4)
    blk.initialize()
    blk.cast(dtype)
    blk.weight.set_data(w)
    blk.bias.set_data(b)"""
_PT_LINEAR = """
    m = nn.Linear(4, 3).to(dtype)
    with torch.no_grad():
        m.weight.copy_(w)
        m.bias.copy_(b)"""
_WB = "x=U(2, 4); w=U(3, 4); b=U(3)"


def _j(*parts: str) -> str:
    import textwrap

    return "\n".join(textwrap.dedent(p).strip("\n") for p in parts)


def _trainer_step(setup_mx: str, setup_pt: str, pt_groups: str, kw_mx: str = "") -> tuple:
    """Two SGD steps with lr 0.5 (exact in float32) on a Dense/Linear after `setup`."""
    mx_code = _j(f"""
        {_NO_RECORD}""", _MX_DENSE, setup_mx, f"""
        trainer = gluon.Trainer(blk.collect_params(), 'sgd', {{'learning_rate': 0.5{kw_mx}}})
        for _ in range(2):
            with autograd.record():
                loss = (blk(x) ** 2).sum()
            loss.backward()
            trainer.step(1)
        [blk.weight.data(), blk.bias.data()]""")
    pt_code = _j(_PT_LINEAR, setup_pt, f"""
        opt = torch.optim.SGD({pt_groups})
        for _ in range(2):
            opt.zero_grad()
            (m(x) ** 2).sum().backward()
            opt.step()
        [m.weight.detach(), m.bias.detach()]""")
    return mx_code, pt_code


_GREQ = _trainer_step("blk.weight.grad_req = 'null'", "m.weight.requires_grad_(False)",
                      "m.parameters(), lr=0.5")
_SETATTR_NULL = _trainer_step("blk.collect_params().setattr('grad_req', 'null')\n"
                              "blk.bias.grad_req = 'write'",
                              "m.requires_grad_(False)\nm.bias.requires_grad_(True)",
                              "m.parameters(), lr=0.5")
_LRMULT = _trainer_step("blk.weight.lr_mult = 0.25",
                        "", "[{'params': [m.weight], 'lr': 0.5 * 0.25}, "
                            "{'params': [m.bias]}], lr=0.5")
_SETATTR_LR = _trainer_step("blk.collect_params('.*weight').setattr('lr_mult', 0.25)", "",
                            "[{'params': [m.weight], 'lr': 0.5 * 0.25}, "
                            "{'params': [m.bias]}], lr=0.5")
_WDMULT = _trainer_step("blk.bias.wd_mult = 0", "",
                        "[{'params': [m.weight]}, {'params': [m.bias], 'weight_decay': 0}], "
                        "lr=0.5, weight_decay=0.25", kw_mx=", 'wd': 0.25")
_SETATTR_WD = _trainer_step("blk.collect_params('.*bias').setattr('wd_mult', 0)", "",
                            "[{'params': [m.weight]}, {'params': [m.bias], "
                            "'weight_decay': 0}], lr=0.5, weight_decay=0.25",
                            kw_mx=", 'wd': 0.25")

_GLUON_DEFAULT_INIT = """
    def gluon_default_init(m):                  # what net.initialize() draws
        if isinstance(m, (nn.Linear, nn.Conv1d, nn.Conv2d, nn.Conv3d)):
            nn.init.uniform_(m.weight, -0.07, 0.07)
            if m.bias is not None:
                nn.init.zeros_(m.bias)
    mod.apply(gluon_default_init)"""

_BN_NET_MX = """
    blk = nn.HybridSequential()
    blk.add(nn.Dense(3, in_units=4), nn.BatchNorm(in_channels=3), nn.Dense(2, in_units=3))
    blk.initialize()"""
_BN_NET_PT = """
    m = nn.Sequential(nn.Linear(4, 3), nn.BatchNorm1d(3), nn.Linear(3, 2))"""

ENTRIES = [
    # ----------------------------------------------------------- collect_params
    entry("mx.gluon.Block.collect_params",
          torch="{**dict(mod.named_parameters()), **{k: b for k, b in mod.named_buffers() "
                "if b.is_floating_point()}}",
          status=COMPOSITE,
          args="(no select) → the parameters and the floating-point buffers; for an "
               "optimizer (Trainer(net.collect_params(), …)) mod.parameters() alone",
          gotchas=["collect_params() holds BatchNorm's running mean and variance too "
                   "(grad_req 'null'); in PyTorch they are buffers, not parameters: "
                   "named_parameters() alone misses them (6 arrays instead of 8 here)",
                   "PyTorch's BatchNorm has a third buffer, num_batches_tracked (int64), "
                   "that Gluon lacks: keep the floating-point buffers",
                   "the keys differ: Gluon's prefixed names (dense0_weight, "
                   "batchnorm0_running_mean), PyTorch's paths (0.weight, 1.running_mean); "
                   "and this dict lists the parameters before the buffers, Gluon block by "
                   "block: compare them sorted, or use state_dict(keep_vars=True)"],
          teach="06_blocks §Collecting parameters",
          check=check(_j(_BN_NET_MX, """
              sorted((p.shape, p.grad_req != 'null') for p in blk.collect_params().values())"""),
              _j(_BN_NET_PT, """
              params = {**dict(m.named_parameters()),
                        **{k: b for k, b in m.named_buffers() if b.is_floating_point()}}
              sorted((tuple(t.shape), t.requires_grad) for t in params.values())"""),
              kind="exact", dtypes=("float64",))),
    entry("mx.gluon.Block.collect_params", form="select=regex", when=["select"],
          signature=("select",),
          torch="{n: p for n, p in mod.named_parameters() if re.match(select, n)}",
          status=COMPOSITE,
          args="select → a regular expression over PyTorch's names (0.weight, hidden.bias), "
               "rewritten: Gluon's names are prefixed (dense0_weight)",
          gotchas=["the pattern goes through re.match, anchored at the start, on both "
                   "sides: 'weight' alone selects nothing, '.*weight' every weight",
                   "BatchNorm's scale and shift are gamma/beta in Gluon, weight/bias in "
                   "PyTorch: '.*weight' selects them in PyTorch, not in Gluon"],
          teach="06_blocks §Collecting parameters",
          check=check("""
              blk = nn.HybridSequential()
              blk.add(nn.Dense(3, in_units=4), nn.Dense(2, in_units=3))
              blk.initialize()
              ([p.shape for p in blk.collect_params('.*weight').values()],
               [p.shape for p in blk.collect_params('weight').values()])""", """
              import re
              m = nn.Sequential(nn.Linear(4, 3), nn.Linear(3, 2))
              ([tuple(p.shape) for n, p in m.named_parameters() if re.match('.*weight', n)],
               [tuple(p.shape) for n, p in m.named_parameters() if re.match('weight', n)])""",
              kind="exact", dtypes=("float64",))),
    # --------------------------------------------------------------- initialize
    entry("mx.gluon.Block.initialize",
          torch="mod.apply(gluon_default_init)",
          status=COMPOSITE,
          recipe=_GLUON_DEFAULT_INIT,
          args="(no init) → nothing at all if PyTorch's own defaults will do (a Module is "
               "initialised when built), or the recipe to draw what Gluon draws; ctx → "
               "mod.to(device); verbose → none",
          defaults="Gluon: every weight U(−0.07, 0.07) whatever its size, biases 0; "
                   "PyTorch's Linear/Conv: U(±1/√fan_in) for weight and bias",
          gotchas=["initialize() draws weights only: Dense's bias has its own "
                   "initialiser ('zeros'), so biases stay 0 (the check counts them)"],
          teach="06_blocks §The default initialisers differ",
          check=check("""
              blk = nn.Dense(1000, in_units=20)
              blk.initialize()
              blk.cast(dtype)
              (blk.weight.data().reshape(-1), blk.bias.data())""", _j("""
              m = nn.Linear(20, 1000).to(dtype)""", _GLUON_DEFAULT_INIT.replace("mod.apply", "m.apply"), """
              (m.weight.detach().reshape(-1), m.bias.detach())"""), kind="random")),
    entry("mx.gluon.Block.initialize", form="init=…", when=["init"],
          signature=("init", "ctx", "verbose", "force_reinit"),
          torch="mod.apply(fn)  # fn: init's torch.nn.init counterpart on each weight, "
                "zeros on each bias",
          status=COMPOSITE,
          recipe="""
              def xavier(m):                      # net.initialize(mx.init.Xavier())
                  if isinstance(m, nn.Linear):
                      nn.init.xavier_uniform_(m.weight)
                      nn.init.zeros_(m.bias)
              mod.apply(xavier)""",
          args="init → the initialiser's counterpart in torch.nn.init (see each mx.init.* "
               "entry), applied to weights only; ctx → mod.to(device)",
          gotchas=["a layer's own initialiser wins over init: Dense's bias stays 0",
                   "mx.init.Xavier() is xavier_uniform_ with gain 1 (magnitude 3, 'avg')"],
          teach="06_blocks §Initialising a whole network",
          note="sidebyside.initmap.torch_init_like_mxnet(mod, init) does this for every "
               "initialiser it knows and every layer type (notebook 6, deep dive "
               "init_survey)",
          check=check("""
              blk = nn.Dense(200, in_units=100)
              blk.initialize(mx.init.Xavier())
              blk.cast(dtype)
              (blk.weight.data().reshape(-1), blk.bias.data().tile(10))""", """
              lin = nn.Linear(100, 200).to(dtype)
              def xavier(m):
                  if isinstance(m, nn.Linear):
                      nn.init.xavier_uniform_(m.weight)
                      nn.init.zeros_(m.bias)
              lin.apply(xavier)
              (lin.weight.detach().reshape(-1), lin.bias.detach().tile(10))""",
              kind="random")),
    entry("mx.gluon.Block.initialize", form="force_reinit=True", when=["force_reinit=True"],
          signature=("init", "ctx", "verbose", "force_reinit"),
          torch="mod.apply(fn)",
          status=COMPOSITE,
          args="force_reinit=True → nothing special: an initialiser in PyTorch always "
               "overwrites",
          gotchas=["without force_reinit, a second initialize() of an initialised block "
                   "warns and keeps the old values; PyTorch has no such guard"],
          teach="06_blocks §Initialising a whole network",
          check=check(f"""
              {_NO_RECORD}
              blk = nn.Dense(3, in_units=4)
              blk.initialize(mx.init.Constant(1.5))
              blk.cast(dtype)
              import warnings
              with warnings.catch_warnings():
                  warnings.simplefilter('ignore')
                  blk.initialize(mx.init.Constant(3.0))     # ignored: already initialised
              first = blk.weight.data().copy()
              blk.initialize(mx.init.Constant(2.5), force_reinit=True)
              (first, blk.weight.data(), blk.bias.data())""", """
              m = nn.Linear(4, 3).to(dtype)
              def fill(value):
                  def fn(module):
                      if isinstance(module, nn.Linear):
                          nn.init.constant_(module.weight, value)
                          nn.init.zeros_(module.bias)
                  return fn
              m.apply(fill(1.5))
              first = m.weight.detach().clone()
              m.apply(fill(2.5))
              (first, m.weight.detach(), m.bias.detach())""", kind="exact")),
    # ----------------------------------------------------------------- cast
    entry("mx.gluon.Block.cast",
          torch="mod.to(getattr(torch, dtype))",
          status=ARGS,
          signature=("dtype",),
          args="dtype ('float64', 'float32', np.float64…) → a torch.dtype: 'float64' → "
               "mod.double() / mod.to(torch.float64); 'float16': the form below",
          gotchas=["cast changes parameters (and BatchNorm's running statistics) only; "
                   "the inputs must be cast too, as in PyTorch"],
          check=check(_j("""
              net = nn.Sequential()
              net.add(nn.Dense(3, in_units=4, activation='tanh'), nn.Dense(2, in_units=3))
              net.initialize()
              net.cast(dtype)
              net(x)"""), """
              mod = nn.Sequential(nn.Linear(4, 3), nn.Tanh(), nn.Linear(3, 2))
              mod.to(dtype)
              mod(x)""", inputs="x=U(2, 4)", grad="x")),
    entry("mx.gluon.Block.cast", form="dtype='float16'", when=["dtype='float16'"],
          signature=("dtype",),
          torch="mod.half() except the BatchNorm layers (the recipe)",
          status=COMPOSITE,
          recipe="""
              norms = (nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d)
              for layer in mod.modules():
                  if not isinstance(layer, norms):
                      for t in list(layer.parameters(recurse=False)) + list(layer.buffers(recurse=False)):
                          if t.is_floating_point():
                              t.data = t.data.half()""",
          args="'float16' → float16 for every layer but the BatchNorm ones, which stay "
               "float32 (Gluon's BatchNorm.cast turns 'float16' into 'float32')",
          gotchas=["mod.half() converts BatchNorm too, and mod.half() followed by "
                   "bn.float() rounds its statistics through float16: up to 1.5e-3 "
                   "away from Gluon's unrounded float32 values here (gamma in [0.5, 2))",
                   "the other parameters round to float16 identically on both sides"],
          note="MXNet 1.9.1's CPU FullyConnected has no float16 kernel (\"float16 fully "
               "connected layer is currently only supported by CuDNN version\", raised "
               "when the result is read); PyTorch's CPU Linear runs in float16. The check "
               "therefore compares the cast parameters, not a float16 forward pass.",
          check=check(_j(_NO_RECORD, _BN_NET_MX, """
              for p, v in zip(blk.collect_params().values(), (w1, b1, g, be, rm, rv, w2, b2)):
                  p.set_data(v.astype('float32'))
              blk.cast('float16')
              [p.data() for p in blk.collect_params().values()]"""), _j(_BN_NET_PT, """
              with torch.no_grad():
                  for t, v in zip(m.state_dict(keep_vars=True).values(),
                                  (w1, b1, g, be, rm, rv, None, w2, b2)):
                      if v is not None:
                          t.copy_(v)
              norms = (nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d)
              for layer in m.modules():
                  if not isinstance(layer, norms):
                      for t in list(layer.parameters(recurse=False)) + list(layer.buffers(recurse=False)):
                          if t.is_floating_point():
                              t.data = t.data.half()
              [t.detach() for t in m.state_dict(keep_vars=True).values()
               if t.is_floating_point()]"""),
              inputs="w1=U(3, 4); b1=U(3); g=P(3); be=U(3); rm=U(3); rv=P(3); w2=U(2, 3); "
                     "b2=U(2)", kind="exact", dtypes=("float64",))),
    entry("mx.gluon.HybridBlock.cast",
          torch="mod.to(getattr(torch, dtype))",
          status=ARGS,
          args="dtype → a torch.dtype ('float64' → mod.double()); a HybridBlock also drops "
               "its cached graph",
          check=check("""
              net = nn.HybridSequential()
              net.add(nn.Dense(3, in_units=4, activation='tanh'), nn.Dense(2, in_units=3))
              net.hybridize()
              net.cast(dtype)
              net(x)""", """
              mod = nn.Sequential(nn.Linear(4, 3), nn.Tanh(), nn.Linear(3, 2))
              mod.to(dtype)
              mod(x)""", inputs="x=U(2, 4)", grad="x")),
    # --------------------------------------------------------------- Parameter
    entry("mx.gluon.Parameter",
          torch="torch.nn.Parameter(torch.empty(shape, dtype=dtype), requires_grad=grad_req "
                "!= 'null')",
          status=ARGS,
          args="name → the attribute it is assigned to; shape → shape (0 = unknown in "
               "Gluon: PyTorch needs it, or torch.nn.UninitializedParameter); dtype → dtype "
               "(float32 by default on both); grad_req 'null' → requires_grad=False, 'add' "
               "→ accumulate (PyTorch's default: no zero_grad); init → call the "
               "torch.nn.init function; lr_mult, wd_mult → optimizer parameter groups; "
               "allow_deferred_init → LazyLinear-like modules",
          gotchas=["in Gluon 1.x a Parameter assigned as a block attribute is not in "
                   "collect_params(), so initialize() misses it ('Parameter w has not been "
                   "initialized'): make it with self.params.get(...); PyTorch registers "
                   "an nn.Parameter attribute itself",
                   "grad() is zeros before any backward; .grad is None"],
          check=check("""
              p = gluon.Parameter('w', shape=(2, 3), dtype=dtype, init=mx.init.Constant(0.5))
              p.initialize()
              (p.data(), p.grad(), p.grad_req != 'null')""", """
              p = nn.Parameter(torch.empty((2, 3), dtype=dtype), requires_grad='write' != 'null')
              nn.init.constant_(p, 0.5)
              (p.detach(), torch.zeros_like(p) if p.grad is None else p.grad, p.requires_grad)""",
              kind="exact")),
    entry("mx.gluon.Parameter.data",
          torch="p",
          status=ARGS,
          args="ctx → none (one device per tensor); in forward: self.weight.data() → "
               "self.weight (the Parameter is the tensor, gradients flow through it); "
               "outside: p.data().asnumpy() → p.detach().numpy()",
          gotchas=["p.data() is the parameter's storage: writing into it changes the "
                   "parameter, as writing into p.data / p.detach() does in PyTorch"],
          check=check("""
              class Scale(gluon.Block):
                  def __init__(self, **kwargs):
                      super().__init__(**kwargs)
                      with self.name_scope():
                          self.weight = self.params.get('weight', shape=(4,))

                  def forward(self, x):
                      return (x * self.weight.data()).tanh()

              net = Scale()
              net(x)""", """
              class Scale(nn.Module):
                  def __init__(self):
                      super().__init__()
                      self.weight = nn.Parameter(torch.empty(4))

                  def forward(self, x):
                      return torch.tanh(x * self.weight)

              mod = Scale()
              mod(x)""", inputs="x=U(3, 4)", grad="x")),
    entry("mx.gluon.Parameter.grad",
          torch="p.grad",
          status=ARGS,
          args="ctx → none",
          defaults="before the first backward: zeros (Gluon) vs None (PyTorch)",
          gotchas=["Gluon's grad() is a zero array until backward; PyTorch's .grad is None: "
                   "the check converts None to zeros",
                   "grad_req 'write' (Gluon's default) overwrites at each backward; PyTorch "
                   "adds until zero_grad() (Gluon's 'add')"],
          teach="05_autograd §3. What `.grad` holds after two `backward()` calls",
          check=check(_j(f"""
              {_NO_RECORD}""", _MX_DENSE, """
              before = blk.weight.grad().copy()
              with autograd.record():
                  loss = (blk(x) ** 2).sum()
              loss.backward()
              (before, blk.weight.grad(), blk.bias.grad())"""), _j(_PT_LINEAR, """
              before = m.weight.grad
              (m(x) ** 2).sum().backward()
              (torch.zeros_like(m.weight) if before is None else before, m.weight.grad,
               m.bias.grad)"""), inputs=_WB)),
    entry("mx.gluon.Parameter.set_data",
          torch="with torch.no_grad(): p.copy_(data)",
          status=COMPOSITE,
          args="data → data (an array of the parameter's shape; copy_ also converts dtype "
               "and device); p.data = data replaces the storage instead",
          check=check(_j(f"""
              {_NO_RECORD}""", _MX_DENSE, """
              blk(x)"""), _j(_PT_LINEAR, """
              m(x)"""), inputs=_WB)),
    entry("mx.gluon.Parameter.list_data",
          torch="[p]",
          status=COMPOSITE,
          args="() → a one-element list: a PyTorch tensor lives on one device (one copy "
               "per device is DataParallel's business)",
          check=check(_j(_NO_RECORD, _MX_DENSE, """
              blk.weight.list_data()"""), _j(_PT_LINEAR, """
              [m.weight.detach()]"""), inputs=_WB, kind="exact")),
    entry("mx.gluon.Parameter.list_grad",
          torch="[p.grad]",
          status=COMPOSITE,
          args="() → a one-element list (one device per tensor)",
          check=check(_j(f"""
              {_NO_RECORD}""", _MX_DENSE, """
              with autograd.record():
                  loss = blk(x).sum()
              loss.backward()
              blk.weight.list_grad()"""), _j(_PT_LINEAR, """
              m(x).sum().backward()
              [m.weight.grad]"""), inputs=_WB)),
    entry("mx.gluon.Parameter.list_ctx",
          torch="[p.device]",
          status=COMPOSITE,
          args="() → a one-element list of devices; Context.device_type 'cpu'/'gpu' → "
               "torch.device.type 'cpu'/'cuda'",
          check=check(_j(_NO_RECORD, _MX_DENSE, """
              [c.device_type for c in blk.weight.list_ctx()]"""), _j(_PT_LINEAR, """
              [m.weight.device.type]"""), inputs="w=U(3, 4); b=U(3)", kind="exact",
              dtypes=("float64",))),
    entry("mx.gluon.Parameter.zero_grad",
          torch="p.grad.zero_()",
          status=ARGS,
          args="() → p.grad.zero_() (zeros, as Gluon), or p.grad = None (PyTorch's "
               "optimizers' default since 2.0)",
          teach="05_autograd §3. What `.grad` holds after two `backward()` calls",
          check=check(_j(f"""
              {_NO_RECORD}""", _MX_DENSE, """
              with autograd.record():
                  loss = blk(x).sum()
              loss.backward()
              blk.weight.zero_grad()
              (blk.weight.grad(), blk.bias.grad())"""), _j(_PT_LINEAR, """
              m(x).sum().backward()
              m.weight.grad.zero_()
              (m.weight.grad, m.bias.grad)"""), inputs=_WB)),
    entry("mx.gluon.Parameter.reset_ctx",
          torch="p.data = p.data.to(device)",
          status=COMPOSITE,
          args="ctx → device (mx.gpu(i) → torch.device('cuda', i)); for a whole network "
               "mod.to(device), which keeps the Parameter objects (and an optimizer built "
               "on them) valid",
          check=check(_j(_NO_RECORD, _MX_DENSE, """
              blk.weight.reset_ctx(mx.cpu(0))
              (blk.weight.data().context.device_type, blk.weight.data())"""), _j(_PT_LINEAR, """
              m.weight.data = m.weight.data.to(torch.device('cpu'))
              (m.weight.device.type, m.weight.detach())"""), inputs="w=U(3, 4); b=U(3)",
              kind="exact")),
    entry("mx.gluon.Parameter.initialize",
          torch="torch.nn.init.uniform_(p, -scale, scale)  # the init's counterpart",
          status=COMPOSITE,
          args="init → that initialiser's torch.nn.init function, in place on the "
               "Parameter (mx.init.Uniform(0.3) → uniform_(p, -0.3, 0.3)); default_init "
               "(Uniform(0.07)) → uniform_(p, -0.07, 0.07); ctx → device; force_reinit → "
               "nothing (PyTorch always overwrites)",
          check=check("""
              p = gluon.Parameter('w', shape=(100, 200), dtype=dtype)
              p.initialize(init=mx.init.Uniform(0.3))
              p.data().reshape(-1)""", """
              p = nn.Parameter(torch.empty((100, 200), dtype=dtype))
              nn.init.uniform_(p, -0.3, 0.3)
              p.detach().reshape(-1)""", kind="random")),
    entry("mx.gluon.Parameter.grad_req",
          torch="p.requires_grad_(grad_req != 'null')",
          status=ARGS,
          args="'null' → requires_grad_(False) (frozen: an optimizer skips a None grad); "
               "'write' → the default, with optimizer.zero_grad() each step; 'add' → "
               "PyTorch's accumulation: call zero_grad() when Gluon calls zero_grad()",
          gotchas=["a frozen parameter keeps its value through Trainer.step on both sides "
                   "(the check's weight); the others move"],
          teach="05_autograd §3. What `.grad` holds after two `backward()` calls",
          check=check(*_GREQ, inputs=_WB)),
    entry("mx.gluon.Parameter.lr_mult",
          torch="torch.optim.SGD([{'params': [p], 'lr': lr * lr_mult}, {'params': others}], "
                "lr=lr)",
          status=COMPOSITE,
          args="p.lr_mult = k → a parameter group whose 'lr' is the base rate times k",
          gotchas=["a learning-rate scheduler scales every group's lr by the same factor in "
                   "PyTorch, as MXNet multiplies lr_mult into the scheduled rate"],
          check=check(*_LRMULT, inputs=_WB)),
    entry("mx.gluon.Parameter.wd_mult",
          torch="torch.optim.SGD([{'params': [p], 'weight_decay': wd * wd_mult}, "
                "{'params': others}], lr=lr, weight_decay=wd)",
          status=COMPOSITE,
          args="p.wd_mult = k → a parameter group whose 'weight_decay' is wd·k (0: no "
               "decay, the usual choice for biases and BatchNorm)",
          check=check(*_WDMULT, inputs=_WB)),
    entry("mx.gluon.Parameter.dtype",
          torch="p.dtype",
          status=ARGS,
          args="(a property) → p.dtype, a torch.dtype: Gluon gives a numpy type "
               "(numpy.float32), PyTorch torch.float32",
          gotchas=["the two spell it differently: str(numpy.dtype(p.dtype)) 'float32' vs "
                   "str(t.dtype) 'torch.float32'; the check converts"],
          check=check("""
              blk = nn.Dense(3, in_units=4)
              blk.initialize()
              blk.cast(dtype)
              [str(onp.dtype(p.dtype)) for p in blk.collect_params().values()]""", """
              m = nn.Linear(4, 3).to(dtype)
              [str(p.dtype).replace('torch.', '') for p in m.parameters()]""",
              kind="exact")),
    entry("mx.gluon.Parameter.shape",
          torch="tuple(p.shape)",
          status=ARGS,
          args="(a property) → p.shape (a torch.Size, a tuple subclass)",
          gotchas=["a deferred Gluon parameter has 0 for each unknown size ((3, 0) for "
                   "Dense(3) before its first input); PyTorch needs the size, or a Lazy "
                   "module whose shape is unknown until the first call"],
          check=check("""
              blk = nn.Dense(3, dtype=dtype)
              blk.initialize()
              deferred = blk.weight.shape
              blk(x)
              (deferred, blk.weight.shape, blk.bias.shape)""", """
              m = nn.LazyLinear(3).to(dtype)
              m(x)
              ((3, 0), tuple(m.weight.shape), tuple(m.bias.shape))""", inputs="x=U(2, 4)",
              kind="exact", dtypes=("float64",),
              note="(3, 0) on the PyTorch side is Gluon's notation for 'unknown', written "
                   "out: PyTorch's UninitializedParameter has no shape to read")),
    entry("mx.gluon.Parameter.name",
          torch="dict(mod.named_parameters())  # the key is the name",
          status=RECIPE,
          recipe="""
              names = {p: n for n, p in mod.named_parameters()}   # tensor → 'hidden.weight'""",
          args="(a property) → the key in named_parameters(): the attribute path",
          gotchas=["Gluon's name is the prefix plus the parameter's own name "
                   "(gluonmlp0_dense0_weight); PyTorch's key the attribute path plus the "
                   "same last part (hidden.weight) for Dense/Linear; BatchNorm's gamma/beta "
                   "are weight/bias"],
          teach="06_blocks §Parameter names: `name_scope()` in 1.x",
          check=check("""
              blk = nn.HybridSequential()
              blk.add(nn.Dense(3, in_units=4), nn.Dense(2, in_units=3))
              [p.name.rpartition('_')[2] for p in blk.collect_params().values()]""", """
              m = nn.Sequential(nn.Linear(4, 3), nn.Linear(3, 2))
              names = {p: n for n, p in m.named_parameters()}
              [names[p].rpartition('.')[2] for p in m.parameters()]""", kind="exact",
              dtypes=("float64",))),
    entry("mx.gluon.Parameter.cast",
          torch="p.data = p.data.to(dtype)",
          status=COMPOSITE,
          args="dtype → a torch.dtype ('float16' → torch.float16); a whole module: "
               "mod.to(dtype)",
          check=check("""
              net = None  # no block for the runner: this snippet runs outside autograd.record
              p = gluon.Parameter('w', shape=(3, 4))
              p.initialize()
              p.set_data(w.astype('float32'))
              p.cast('float16')
              p.data()""", """
              p = nn.Parameter(w.to(torch.float32))
              p.data = p.data.to(torch.float16)
              p.detach()""", inputs="w=U(3, 4)", kind="exact", dtypes=("float64",))),
    entry("mx.gluon.Constant",
          torch="mod.register_buffer(name, torch.as_tensor(value))",
          status=ARGS,
          args="name → the buffer's name; value → the tensor; grad_req is 'null' on both "
               "(a buffer has no gradient); a buffer is saved in state_dict and moves "
               "with mod.to()",
          gotchas=["like a Parameter, a Constant assigned as an attribute is not collected "
                   "in 1.x: make it with self.params.get_constant(name, value)"],
          check=check("""
              class Shift(gluon.HybridBlock):
                  def __init__(self, **kwargs):
                      super().__init__(**kwargs)
                      with self.name_scope():
                          self.proj = nn.Dense(3, in_units=4)
                          self.shift = self.params.get_constant('shift', [0.5, -1.0, 2.0])

                  def hybrid_forward(self, F, x, shift):
                      return F.broadcast_add(self.proj(x), shift)

              net = Shift()
              net(x)""", """
              class Shift(nn.Module):
                  def __init__(self):
                      super().__init__()
                      self.proj = nn.Linear(4, 3)
                      self.register_buffer('shift', torch.as_tensor([0.5, -1.0, 2.0]))

                  def forward(self, x):
                      return self.proj(x) + self.shift

              mod = Shift()
              mod(x)""", inputs="x=U(2, 4)", grad="x")),
    # ----------------------------------------------------------- ParameterDict
    entry("mx.gluon.ParameterDict",
          torch="torch.nn.ParameterDict()",
          status=ARGS,
          args="prefix → none (keys are the names you give); shared → none; get(name, "
               "shape=…) → pd[name] = nn.Parameter(torch.empty(shape)) + an initialiser",
          gotchas=["Gluon's keys carry the prefix (net_w); nn.ParameterDict's are the names "
                   "given (w)"],
          check=check("""
              pd = gluon.ParameterDict('net_')
              pd.get('w', shape=(3, 4), dtype=dtype)
              pd.get('b', shape=(3,), dtype=dtype)
              pd.initialize(mx.init.Constant(0.25))
              ([k[len(pd.prefix):] for k in pd.keys()], [p.data() for p in pd.values()])""", """
              pd = nn.ParameterDict()
              pd['w'] = nn.Parameter(torch.empty((3, 4), dtype=dtype))
              pd['b'] = nn.Parameter(torch.empty(3, dtype=dtype))
              for p in pd.values():
                  nn.init.constant_(p, 0.25)
              (list(pd.keys()), [p.detach() for p in pd.values()])""", kind="exact")),
    entry("mx.gluon.ParameterDict.get",
          torch="self.<name> = torch.nn.Parameter(torch.empty(shape))",
          status=COMPOSITE,
          args="name → the attribute name; shape → shape; init → an nn.init call after "
               "creation; dtype → dtype; grad_req='null' → requires_grad=False; "
               "allow_deferred_init → a Lazy module",
          gotchas=["get() returns the existing Parameter when the name exists (sharing "
                   "through params=); assigning the same nn.Parameter to two attributes "
                   "is PyTorch's way"],
          teach="07_hybridize_export §1. HybridBlock: `hybridize()` and what stops it",
          check=check("""
              class Affine(gluon.HybridBlock):
                  def __init__(self, **kwargs):
                      super().__init__(**kwargs)
                      with self.name_scope():
                          self.weight = self.params.get('weight', shape=(3, 4))
                          self.bias = self.params.get('bias', shape=(3,))

                  def hybrid_forward(self, F, x, weight, bias):
                      return F.FullyConnected(x, weight, bias, num_hidden=3)

              net = Affine()
              net(x)""", """
              class Affine(nn.Module):
                  def __init__(self):
                      super().__init__()
                      self.weight = nn.Parameter(torch.empty((3, 4)))
                      self.bias = nn.Parameter(torch.empty(3))

                  def forward(self, x):
                      return F.linear(x, self.weight, self.bias)

              mod = Affine()
              mod(x)""", inputs="x=U(2, 4)", grad="x")),
    entry("mx.gluon.ParameterDict.get_constant",
          torch="self.register_buffer(name, torch.as_tensor(value))",
          status=RENAMED,
          args="name → name; value → the tensor",
          check=check("""
              class Scale(gluon.HybridBlock):
                  def __init__(self, **kwargs):
                      super().__init__(**kwargs)
                      with self.name_scope():
                          self.scale = self.params.get_constant('scale', [[2.0, 0.5, 1.5, -1.0]])

                  def hybrid_forward(self, F, x, scale):
                      return F.broadcast_mul(x, scale).sin()

              net = Scale()
              net(x)""", """
              class Scale(nn.Module):
                  def __init__(self):
                      super().__init__()
                      self.register_buffer('scale', torch.as_tensor([[2.0, 0.5, 1.5, -1.0]]))

                  def forward(self, x):
                      return torch.sin(x * self.scale)

              mod = Scale()
              mod(x)""", inputs="x=U(3, 4)", grad="x")),
    entry("mx.gluon.ParameterDict.keys",
          torch="dict(mod.named_parameters()).keys()",
          status=COMPOSITE,
          args="() → the names of named_parameters() (attribute paths, not prefixed "
               "names); running statistics: named_buffers()",
          gotchas=["the names differ (dense0_weight vs 0.weight); code that parses them "
                   "must be rewritten; the last part agrees for Dense/Linear"],
          check=check("""
              blk = nn.HybridSequential()
              blk.add(nn.Dense(3, in_units=4), nn.Dense(2, in_units=3))
              [k.rpartition('_')[2] for k in blk.collect_params().keys()]""", """
              m = nn.Sequential(nn.Linear(4, 3), nn.Linear(3, 2))
              [k.rpartition('.')[2] for k in dict(m.named_parameters()).keys()]""",
              kind="exact", dtypes=("float64",))),
    entry("mx.gluon.ParameterDict.values",
          torch="mod.parameters()",
          status=RENAMED,
          args="() → mod.parameters() (a generator: list(...) to index); Gluon's values "
               "include BatchNorm's running statistics: add mod.buffers()",
          check=check("""
              blk = nn.HybridSequential()
              blk.add(nn.Dense(3, in_units=4), nn.Dense(2, in_units=3))
              blk.initialize()
              [p.shape for p in blk.collect_params().values()]""", """
              m = nn.Sequential(nn.Linear(4, 3), nn.Linear(3, 2))
              [tuple(p.shape) for p in m.parameters()]""", kind="exact",
              dtypes=("float64",))),
    entry("mx.gluon.ParameterDict.items",
          torch="mod.named_parameters()",
          status=RENAMED,
          args="() → named_parameters(): (name, Parameter) pairs, names by attribute path",
          check=check("""
              blk = nn.HybridSequential()
              blk.add(nn.Dense(3, in_units=4), nn.Dense(2, in_units=3))
              blk.initialize()
              [(k.rpartition('_')[2], p.shape) for k, p in blk.collect_params().items()]""",
              """
              m = nn.Sequential(nn.Linear(4, 3), nn.Linear(3, 2))
              [(k.rpartition('.')[2], tuple(p.shape)) for k, p in m.named_parameters()]""",
              kind="exact", dtypes=("float64",))),
    entry("mx.gluon.ParameterDict.update",
          torch="params.update(other)",
          status=SAME,
          args="other → other (Parameters by name: nn.ParameterDict.update or "
               "dict.update); Gluon refuses a name already bound to another Parameter",
          gotchas=["nn.ParameterDict.update given a plain dict inserts its items sorted by "
                   "key (here a_bias before a_weight); a list of (name, Parameter) pairs or "
                   "an OrderedDict keeps their order, as Gluon's update does"],
          check=check("""
              a = nn.Dense(3, in_units=4)
              b = nn.Dense(2, in_units=3)
              pd = gluon.ParameterDict()
              pd.update(a.collect_params())
              pd.update(b.collect_params())
              [p.shape for p in pd.values()]""", """
              a, b = nn.Linear(4, 3), nn.Linear(3, 2)
              pd = nn.ParameterDict()
              pd.update([(f'a_{k}', p) for k, p in a.named_parameters()])
              pd.update([(f'b_{k}', p) for k, p in b.named_parameters()])
              [tuple(p.shape) for p in pd.values()]""", kind="exact", dtypes=("float64",))),
    entry("mx.gluon.ParameterDict.setattr",
          torch="for p in mod.parameters(): setattr(p, name, value)",
          status=ARGS,
          signature=("name", "value"),
          args="name, value → the PyTorch attribute: 'grad_req' → requires_grad_ (form "
               "below), 'lr_mult'/'wd_mult' → parameter groups (forms below), 'dtype' → "
               "mod.to(dtype)",
          check=check(f"""
              {_NO_RECORD}
              blk = nn.Dense(3, in_units=4)
              blk.initialize()
              blk.collect_params().setattr('grad_req', 'add')
              [p.grad_req == 'add' for p in blk.collect_params().values()]""", """
              m = nn.Linear(4, 3)
              for p in m.parameters():
                  setattr(p, 'grad_accumulates', True)
              [p.grad_accumulates for p in m.parameters()]""", kind="exact",
              dtypes=("float64",),
              note="a generic attribute travels as a plain Python attribute; the meaningful "
                   "ones are the forms")),
    entry("mx.gluon.ParameterDict.setattr", form="'grad_req', 'null' (freeze)",
          when=["name='grad_req'", "value='null'"], signature=("name", "value"),
          torch="mod.requires_grad_(False)",
          status=RENAMED,
          args="('grad_req', 'null') → mod.requires_grad_(False) (or p.requires_grad_(False) "
               "for each selected p); ('grad_req', 'write') → requires_grad_(True)",
          gotchas=["a frozen layer keeps its values through the optimizer step on both "
                   "sides: PyTorch's optimizer skips parameters whose grad is None"],
          teach="05_autograd §3. What `.grad` holds after two `backward()` calls",
          check=check(*_SETATTR_NULL, inputs=_WB)),
    entry("mx.gluon.ParameterDict.setattr", form="'lr_mult', k",
          when=["name='lr_mult'"], signature=("name", "value"),
          torch="torch.optim.SGD([{'params': selected, 'lr': lr * k}, {'params': rest}], "
                "lr=lr)",
          status=COMPOSITE,
          args="('lr_mult', k) on a selection → a parameter group with lr·k",
          check=check(*_SETATTR_LR, inputs=_WB)),
    entry("mx.gluon.ParameterDict.setattr", form="'wd_mult', k",
          when=["name='wd_mult'"], signature=("name", "value"),
          torch="torch.optim.SGD([{'params': selected, 'weight_decay': wd * k}, "
                "{'params': rest}], lr=lr, weight_decay=wd)",
          status=COMPOSITE,
          args="('wd_mult', k) on a selection → a parameter group with weight_decay wd·k",
          check=check(*_SETATTR_WD, inputs=_WB)),
    entry("mx.gluon.ParameterDict.zero_grad",
          torch="mod.zero_grad(set_to_none=False)",
          status=ARGS,
          args="() → zero_grad(set_to_none=False) for zeros like Gluon; the default "
               "set_to_none=True leaves None (what an optimizer treats as 'no gradient')",
          defaults="Gluon writes zeros; PyTorch's zero_grad() sets .grad to None "
                   "(set_to_none=True since 2.0)",
          gotchas=["Gluon's Trainer has no zero_grad(): with grad_req='add' call "
                   "net.collect_params().zero_grad() yourself"],
          teach="05_autograd §3. What `.grad` holds after two `backward()` calls",
          check=check(_j(f"""
              {_NO_RECORD}""", _MX_DENSE, """
              blk.collect_params().setattr('grad_req', 'add')
              for _ in range(2):
                  with autograd.record():
                      loss = blk(x).sum()
                  loss.backward()
              summed = blk.weight.grad().copy()
              blk.collect_params().zero_grad()
              (summed, blk.weight.grad(), blk.bias.grad())"""), _j(_PT_LINEAR, """
              for _ in range(2):
                  m(x).sum().backward()
              summed = m.weight.grad.clone()
              m.zero_grad(set_to_none=False)
              (summed, m.weight.grad, m.bias.grad)"""), inputs=_WB)),
    entry("mx.gluon.ParameterDict.reset_ctx",
          torch="mod.to(device)",
          status=RENAMED,
          args="ctx → device (mx.gpu(0) → torch.device('cuda', 0)); a list of contexts → "
               "DataParallel / one replica per device",
          teach="09_distributed §1. Several devices in one process: `split_and_load`",
          check=check(_j(_NO_RECORD, _MX_DENSE, """
              blk.collect_params().reset_ctx(mx.cpu())
              (blk(x), [p.data().context.device_type for p in blk.collect_params().values()])"""),
              _j(_PT_LINEAR, """
              m.to(torch.device('cpu'))
              (m(x), [p.device.type for p in m.parameters()])"""), inputs=_WB)),
    entry("mx.gluon.ParameterDict.list_ctx",
          torch="sorted({p.device for p in mod.parameters()}, key=str)",
          status=COMPOSITE,
          args="() → the devices the parameters live on",
          check=check(_j(_NO_RECORD, _MX_DENSE, """
              [c.device_type for c in blk.collect_params().list_ctx()]"""), _j(_PT_LINEAR, """
              [d.type for d in sorted({p.device for p in m.parameters()}, key=str)]"""),
              inputs="w=U(3, 4); b=U(3)", kind="exact", dtypes=("float64",))),
    entry("mx.gluon.ParameterDict.initialize",
          torch="mod.apply(fn)  # fn: the initialiser's torch.nn.init counterpart",
          status=COMPOSITE,
          args="init → the counterpart in torch.nn.init on each weight (biases keep "
               "their own 'zeros'); ctx → mod.to(device); force_reinit → nothing",
          teach="06_blocks §Initialising a whole network",
          check=check("""
              blk = nn.Dense(100, in_units=200)
              blk.collect_params().initialize(mx.init.Normal(0.5))
              blk.cast(dtype)
              (blk.weight.data().reshape(-1), blk.bias.data().tile(10))""", """
              lin = nn.Linear(200, 100).to(dtype)
              def normal(m):
                  if isinstance(m, nn.Linear):
                      nn.init.normal_(m.weight, 0.0, 0.5)
                      nn.init.zeros_(m.bias)
              lin.apply(normal)
              (lin.weight.detach().reshape(-1), lin.bias.detach().tile(10))""",
              kind="random")),
    entry("mx.gluon.ParameterDict.save",
          torch="torch.save(dict(mod.named_parameters()), filename)",
          status=ARGS,
          args="filename → filename; strip_prefix → strip it from the keys yourself; the "
               "file's keys are the full prefixed names (Block.save_parameters uses paths)",
          gotchas=["the .params file is MXNet's binary format; "
                   "sidebyside.mx2torch.load_params(path) reads it as {name: numpy array} "
                   "without MXNet"],
          teach="13_serialization §3. What is in the files — and which ones can run code",
          check=check(_j(f"""
              {_NO_RECORD}
              import os
              from sidebyside.catalogue.harness_blocks import fresh""", _MX_DENSE, """
              path = os.path.join(fresh('pd_save'), 'dense.params')
              blk.collect_params().save(path, strip_prefix=blk.prefix)
              loaded = nd.load(path)
              [loaded[k] for k in sorted(loaded)]"""), _j("""
              import os
              from sidebyside.catalogue.harness_blocks import fresh""", _PT_LINEAR, """
              path = os.path.join(fresh('pd_save_torch'), 'linear.pt')
              torch.save({k: p.detach() for k, p in m.named_parameters()}, path)
              loaded = torch.load(path)
              [loaded[k] for k in sorted(loaded)]"""), inputs="w=U(3, 4); b=U(3)",
              kind="exact")),
    entry("mx.gluon.ParameterDict.load",
          torch="mod.load_state_dict(torch.load(filename), strict=not (allow_missing or "
                "ignore_extra))",
          status=ARGS,
          args="filename → torch.load(filename); ctx → map_location=device; allow_missing, "
               "ignore_extra → strict=False (it allows both at once, and returns the "
               "missing and unexpected keys); restore_prefix → add it to the keys "
               "yourself; cast_dtype → nothing (load_state_dict converts)",
          check=check(_j(f"""
              {_NO_RECORD}
              import os
              from sidebyside.catalogue.harness_blocks import fresh""", _MX_DENSE, """
              path = os.path.join(fresh('pd_load'), 'dense.params')
              blk.collect_params().save(path, strip_prefix=blk.prefix)
              other = nn.Dense(3, in_units=4, dtype=dtype)
              other.collect_params().load(path, restore_prefix=other.prefix)
              other(x)"""), _j("""
              import os
              from sidebyside.catalogue.harness_blocks import fresh""", _PT_LINEAR, """
              path = os.path.join(fresh('pd_load_torch'), 'linear.pt')
              torch.save(m.state_dict(), path)
              other = nn.Linear(4, 3).to(dtype)
              other.load_state_dict(torch.load(path), strict=not (False or False))
              other(x)"""), inputs=_WB)),
    entry("mx.gluon.ParameterDict.load_dict",
          torch="mod.load_state_dict(param_dict, strict=not (allow_missing or ignore_extra))",
          status=ARGS,
          args="param_dict → a state dict (tensors keyed by path; Gluon's keys are prefixed "
               "names); ctx → device; allow_missing, ignore_extra → strict=False; "
               "restore_prefix → rewrite the keys; cast_dtype → nothing",
          check=check(_j(f"""
              {_NO_RECORD}""", """
              blk = nn.Dense(3, in_units=4, dtype=dtype)
              blk.collect_params().load_dict({blk.prefix + 'weight': w, blk.prefix + 'bias': b})
              blk(x)"""), """
              m = nn.Linear(4, 3).to(dtype)
              m.load_state_dict({'weight': w, 'bias': b}, strict=True)
              m(x)""", inputs=_WB)),
]

# ------------------------------------------------------- save_parameters / load_parameters
_SAVE_MX = """
    import os
    from sidebyside.catalogue.harness_params import folder
    blk = nn.HybridSequential()
    blk.add(nn.Dense(3, in_units=4, activation='tanh'), nn.Dense(2, in_units=3))
    blk.initialize()
    blk.cast(dtype)
    for p, v in zip(blk.collect_params().values(), (w1, b1, w2, b2)):
        p.set_data(v)"""
_SAVE_PT = """
    import os
    from sidebyside.catalogue.harness_params import folder
    m = nn.Sequential(nn.Linear(4, 3), nn.Tanh(), nn.Linear(3, 2)).to(dtype)
    with torch.no_grad():
        for t, v in zip(m.parameters(), (w1, b1, w2, b2)):
            t.copy_(v)"""
_SAVE_IN = "x=U(2, 4); w1=U(3, 4); b1=U(3); w2=U(2, 3); b2=U(2)"


def _load_form(mx_load: str, pt_load: str, *, mx_other: str = "", pt_other: str = "",
               out_mx: str = "other(x)", out_pt: str = "other(x)", **ck):
    """save on one block, load into `other` (built by mx_other/pt_other), run it on x."""
    mx_other = mx_other or """
        other = nn.HybridSequential()
        other.add(nn.Dense(3, in_units=4, activation='tanh'), nn.Dense(2, in_units=3))
        other.initialize()
        other.cast(dtype)"""
    pt_other = pt_other or """
        other = nn.Sequential(nn.Linear(4, 3), nn.Tanh(), nn.Linear(3, 2)).to(dtype)"""
    return check(_j(_NO_RECORD, _SAVE_MX, """
        path = os.path.join(folder('load_mx'), 'net.params')
        blk.save_parameters(path)""", mx_other, mx_load, out_mx), _j(_SAVE_PT, """
        path = os.path.join(folder('load_pt'), 'net.pt')
        torch.save(m.state_dict(), path)""", pt_other, pt_load, out_pt),
        inputs=_SAVE_IN, **ck)


ENTRIES += [
    entry("mx.gluon.Block.save_parameters",
          torch="torch.save(mod.state_dict(), filename)",
          status=COMPOSITE,
          signature=("filename", "deduplicate"),
          args="filename → filename; deduplicate → nothing (torch.save writes a tensor "
               "shared by two modules once, and load_state_dict fills both)",
          gotchas=["the keys are structural on both sides ('0.weight', '1.bias') and "
                   "agree layer for layer; but Dense(activation='tanh') is one child in "
                   "Gluon and two (Linear, Tanh) in PyTorch, which shifts the numbers: "
                   "here Gluon's '1.weight' is PyTorch's '2.weight'",
                   "BatchNorm's gamma/beta are weight/bias in PyTorch, and PyTorch saves a "
                   "num_batches_tracked buffer Gluon lacks",
                   "the .params file is MXNet's binary NDArray format: "
                   "sidebyside.mx2torch.load_params(path) reads it without MXNet"],
          teach="13_serialization §3. What is in the files — and which ones can run code",
          check=check(_j(_NO_RECORD, _SAVE_MX, """
              path = os.path.join(folder('save_mx'), 'net.params')
              blk.save_parameters(path)
              saved = nd.load(path)
              [(k, saved[k]) for k in sorted(saved)]"""), _j(_SAVE_PT, """
              path = os.path.join(folder('save_pt'), 'net.pt')
              torch.save(m.state_dict(), path)
              saved = torch.load(path)
              rename = {'0.weight': '0.weight', '0.bias': '0.bias', '2.weight': '1.weight',
                        '2.bias': '1.bias'}
              [(rename[k], saved[k]) for k in sorted(saved, key=lambda k: rename[k])]"""),
              inputs="w1=U(3, 4); b1=U(3); w2=U(2, 3); b2=U(2)", kind="exact",
              note="the torch side renames its keys to Gluon's numbering (nn.Tanh takes "
                   "index 1 in PyTorch's Sequential)")),
    entry("mx.gluon.Block.load_parameters",
          torch="mod.load_state_dict(torch.load(filename, map_location=device))",
          status=COMPOSITE,
          signature=("filename", "ctx", "allow_missing", "ignore_extra", "cast_dtype",
                     "dtype_source"),
          args="filename → torch.load(filename); ctx → map_location=device (mx.gpu(0) → "
               "'cuda:0'; a list of contexts: one replica per device); the flags: the forms",
          gotchas=["a file of PyTorch keys loads into Gluon only after renaming (see "
                   "save_parameters): sidebyside.mx2torch ports .params files the other way",
                   "Gluon refuses a saved dtype that differs from the parameter's "
                   "('dtype incompatible expected float32 vs saved float64') unless "
                   "cast_dtype=True; load_state_dict converts silently"],
          teach="13_serialization §3. What is in the files — and which ones can run code",
          check=_load_form("""
              other.load_parameters(path, ctx=mx.cpu())""", """
              other.load_state_dict(torch.load(path, map_location='cpu'))""", grad="x")),
    entry("mx.gluon.Block.load_parameters", form="allow_missing=True",
          when=["allow_missing=True"],
          signature=("filename", "ctx", "allow_missing", "ignore_extra", "cast_dtype",
                     "dtype_source"),
          torch="mod.load_state_dict(torch.load(filename), strict=False)",
          status=ARGS,
          args="allow_missing=True → strict=False (which also ignores extra keys: "
               "ignore_extra too); the result's missing_keys lists what kept its value",
          gotchas=["Gluon's missing parameters must already be initialised (initialize() "
                   "before load_parameters), else using them fails later; PyTorch's "
                   "modules always hold values"],
          check=_load_form("""
              other.load_parameters(path, allow_missing=True)""", """
              other.load_state_dict(torch.load(path), strict=False)""",
              mx_other="""
                  other = nn.HybridSequential()
                  other.add(nn.Dense(3, in_units=4, activation='tanh'), nn.Dense(2, in_units=3),
                            nn.Dense(2, in_units=2))
                  other.initialize(mx.init.Constant(0.5))
                  other.cast(dtype)""",
              pt_other="""
                  other = nn.Sequential(nn.Linear(4, 3), nn.Tanh(), nn.Linear(3, 2),
                                        nn.Linear(2, 2)).to(dtype)
                  with torch.no_grad():
                      other[3].weight.fill_(0.5)
                      other[3].bias.zero_()""", grad="x")),
    entry("mx.gluon.Block.load_parameters", form="ignore_extra=True",
          when=["ignore_extra=True"],
          signature=("filename", "ctx", "allow_missing", "ignore_extra", "cast_dtype",
                     "dtype_source"),
          torch="mod.load_state_dict(torch.load(filename), strict=False)",
          status=ARGS,
          args="ignore_extra=True → strict=False (the result's unexpected_keys lists what "
               "was skipped); the usual case: a backbone loaded from a classifier's file",
          check=_load_form("""
              other.load_parameters(path, ignore_extra=True)""", """
              other.load_state_dict(torch.load(path), strict=False)""",
              mx_other="""
                  other = nn.HybridSequential()
                  other.add(nn.Dense(3, in_units=4, activation='tanh'))
                  other.initialize()
                  other.cast(dtype)""",
              pt_other="""
                  other = nn.Sequential(nn.Linear(4, 3), nn.Tanh()).to(dtype)""",
              grad="x")),
    entry("mx.gluon.Block.load_parameters", form="cast_dtype=True",
          when=["cast_dtype=True", "!dtype_source"],
          signature=("filename", "ctx", "allow_missing", "ignore_extra", "cast_dtype",
                     "dtype_source"),
          torch="mod.load_state_dict(torch.load(filename))",
          status=ARGS,
          args="cast_dtype=True (dtype_source='current') → nothing: load_state_dict copies "
               "into the existing tensors, converting to their dtype",
          check=_load_form("""
              other.load_parameters(path, cast_dtype=True)""", """
              other.load_state_dict(torch.load(path))""",
              mx_other="""
                  other = nn.HybridSequential()
                  other.add(nn.Dense(3, in_units=4, activation='tanh'), nn.Dense(2, in_units=3))
                  other.initialize()""",
              pt_other="""
                  other = nn.Sequential(nn.Linear(4, 3), nn.Tanh(), nn.Linear(3, 2))""",
              out_mx="[p.data() for p in other.collect_params().values()]",
              out_pt="[t.detach() for t in other.parameters()]", dtypes=("float64",),
              rtol=0, atol=0,
              note="a float64 file into a float32 block: both round to float32 the "
                   "same way")),
    entry("mx.gluon.Block.load_parameters", form="dtype_source='saved'",
          when=["dtype_source='saved'"],
          signature=("filename", "ctx", "allow_missing", "ignore_extra", "cast_dtype",
                     "dtype_source"),
          torch="mod.load_state_dict(torch.load(filename), assign=True)",
          status=ARGS,
          args="cast_dtype=True, dtype_source='saved' → assign=True: the module takes the "
               "saved tensors themselves, with their dtype",
          check=_load_form("""
              other.load_parameters(path, cast_dtype=True, dtype_source='saved')""", """
              other.load_state_dict(torch.load(path), assign=True)""",
              mx_other="""
                  other = nn.HybridSequential()
                  other.add(nn.Dense(3, in_units=4, activation='tanh'), nn.Dense(2, in_units=3))
                  other.initialize()
                  other.cast('float16')""",
              pt_other="""
                  other = nn.Sequential(nn.Linear(4, 3), nn.Tanh(), nn.Linear(3, 2)).half()""",
              grad="x")),
    entry("mx.gluon.Block.save_params",
          torch="torch.save(mod.state_dict(), filename)",
          status=COMPOSITE,
          args="filename → filename (deprecated in MXNet: save_parameters)",
          gotchas=["save_params keys the file by Gluon's prefixed names minus the block's "
                   "prefix (dense0_weight), not the structural names of save_parameters "
                   "(0.weight): the two files do not load into each other",
                   "on a Sequential whose children were made outside name_scope() it "
                   "fails (MXNet 1.9.1 then raises AttributeError: 'ValueError' object has "
                   "no attribute 'message')"],
          check=check(_j(_NO_RECORD, """
              import os
              from sidebyside.catalogue.harness_params import folder
              blk = nn.Dense(3, in_units=4)
              blk.initialize()
              blk.cast(dtype)
              blk.weight.set_data(w)
              blk.bias.set_data(b)
              path = os.path.join(folder('save_params_mx'), 'net.params')
              blk.save_params(path)
              other = nn.Dense(3, in_units=4)
              other.initialize()
              other.cast(dtype)
              other.load_params(path)
              (sorted(nd.load(path)), other(x))"""), """
              import os
              from sidebyside.catalogue.harness_params import folder
              m = nn.Linear(4, 3).to(dtype)
              with torch.no_grad():
                  m.weight.copy_(w)
                  m.bias.copy_(b)
              path = os.path.join(folder('save_params_pt'), 'net.pt')
              torch.save(m.state_dict(), path)
              other = nn.Linear(4, 3).to(dtype)
              other.load_state_dict(torch.load(path))
              (sorted(torch.load(path)), other(x))""", inputs=_WB)),
    entry("mx.gluon.Block.load_params",
          torch="mod.load_state_dict(torch.load(filename), strict=not (allow_missing or "
                "ignore_extra))",
          status=ARGS,
          signature=("filename", "ctx", "allow_missing", "ignore_extra"),
          args="filename → torch.load(filename); ctx → map_location; allow_missing, "
               "ignore_extra → strict=False (deprecated in MXNet: load_parameters, which "
               "it calls)",
          check=_load_form("""
              other.load_params(path, mx.cpu(), False, False)""", """
              other.load_state_dict(torch.load(path), strict=not (False or False))""",
              grad="x")),
]
