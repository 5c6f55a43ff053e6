"""Gluon's blocks (``Block``, ``HybridBlock``, ``SymbolBlock``, the sequential containers,
``Lambda``): how a custom block, its children, hooks, hybridisation and export map to
``torch.nn.Module``."""
import textwrap

from ..model import ARGS, COMPOSITE, RECIPE, RENAMED, SAME, check, entry


def _join(*parts: str) -> str:
    """Snippet parts, each dedented on its own, one after the other."""
    return "\n".join(textwrap.dedent(p).strip("\n") for p in parts)

_GLUON_MLP = """
    class GluonMLP(gluon.Block):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            with self.name_scope():
                self.hidden = nn.Dense(5, in_units=4)
                self.out = nn.Dense(3, in_units=5)

        def forward(self, x):
            return self.out(self.hidden(x).relu())
"""
_TORCH_MLP = """
    class TorchMLP(nn.Module):
        def __init__(self):
            super().__init__()
            self.hidden = nn.Linear(4, 5)
            self.out = nn.Linear(5, 3)

        def forward(self, x):
            return self.out(torch.relu(self.hidden(x)))
"""

ENTRIES = [
    # ------------------------------------------------------------ custom blocks
    entry("mx.gluon.Block", aliases=["mx.gluon.nn.Block"],
          torch="torch.nn.Module",
          status=ARGS,
          args="subclass torch.nn.Module; super().__init__(**kwargs) → super().__init__() "
               "(prefix=, params= have no counterpart); children assigned as attributes in "
               "__init__ on both sides (drop `with self.name_scope():`); forward(self, x) "
               "stays forward(self, x); nn.Dense(units) → nn.Linear(in_features, units) "
               "(the input size is required); Dense(activation='relu') → torch.relu(...) "
               "in forward or a nn.ReLU() child",
          defaults="Gluon parameters exist only after initialize() (and, with deferred "
                   "shapes, the first forward); a Module's exist and are initialised at "
                   "construction",
          gotchas=["a Block's forward may use Python control flow on values "
                   "(x.sum().asscalar() → x.sum().item()); the check takes such a branch on "
                   "both sides"],
          teach="06_blocks §1. A custom block: `nn.Module` and `gluon.Block`",
          check=check("""
              class GluonNet(gluon.Block):
                  def __init__(self, **kwargs):
                      super().__init__(**kwargs)
                      with self.name_scope():
                          self.hidden = nn.Dense(5, activation='relu')
                          self.out = nn.Dense(3)

                  def forward(self, x):
                      h = self.hidden(x)
                      if h.sum().asscalar() > 0:
                          h = h * 2
                      return self.out(h)

              net = GluonNet()
              net(x)""", """
              class TorchNet(nn.Module):
                  def __init__(self):
                      super().__init__()
                      self.hidden = nn.Linear(4, 5)
                      self.out = nn.Linear(5, 3)

                  def forward(self, x):
                      h = torch.relu(self.hidden(x))
                      if h.sum().item() > 0:
                          h = h * 2
                      return self.out(h)

              mod = TorchNet()
              mod(x)""", inputs="x=U(3, 4)", grad="x")),
    entry("mx.gluon.Block.forward",
          torch="torch.nn.Module.forward(self, *args)",
          status=SAME,
          args="*args → *args (Gluon accepts positional arguments only; PyTorch keyword "
               "arguments too); called as block(x) on both sides, which runs the hooks",
          gotchas=["NDArray methods inside forward map to tensor methods: x.relu() → "
                   "torch.relu(x), .asscalar() → .item()"],
          teach="06_blocks §1. A custom block: `nn.Module` and `gluon.Block`",
          check=check(_join(_GLUON_MLP, """
              net = GluonMLP()
              net(x)"""), _join(_TORCH_MLP, """
              mod = TorchMLP()
              mod(x)"""), inputs="x=U(3, 4)", grad="x")),
    entry("mx.gluon.HybridBlock", aliases=["mx.gluon.nn.HybridBlock"],
          torch="torch.nn.Module",
          status=ARGS,
          args="hybrid_forward(self, F, x, <param names>) → forward(self, x), reading "
               "self.<param> for each parameter that Gluon passes as a keyword; "
               "F.op(...) → torch.op(...) / torch.nn.functional.op(...); "
               "self.params.get('scale', shape=(n,)) → self.scale = "
               "torch.nn.Parameter(torch.empty(n)) plus an initialiser; F.broadcast_mul(a, b)"
               " → a * b (PyTorch broadcasts every elementwise operator)",
          defaults="a parameter made by params.get takes the initialiser given to "
                   "initialize() (Uniform(0.07) by default); torch.empty is uninitialised: "
                   "call an nn.init function on it",
          gotchas=["Gluon passes the block's own parameters to hybrid_forward as keyword "
                   "arguments named like the params.get name; PyTorch's forward reads them "
                   "as attributes",
                   "collect_params() lists a block's own parameters before its children's, "
                   "as a Module's state_dict does; the check pairs them in that order"],
          teach="07_hybridize_export §1. HybridBlock: `hybridize()` and what stops it",
          check=check("""
              class Gate(gluon.HybridBlock):
                  def __init__(self, units, **kwargs):
                      super().__init__(**kwargs)
                      with self.name_scope():
                          self.scale = self.params.get('scale', shape=(units,))
                          self.proj = nn.Dense(units, in_units=4)

                  def hybrid_forward(self, F, x, scale):
                      return F.broadcast_mul(F.sigmoid(self.proj(x)), scale)

              net = Gate(3)
              net.hybridize()
              net(x)""", """
              class Gate(nn.Module):
                  def __init__(self, units):
                      super().__init__()
                      self.scale = nn.Parameter(torch.empty(units))
                      nn.init.uniform_(self.scale, -0.07, 0.07)
                      self.proj = nn.Linear(4, units)

                  def forward(self, x):
                      return torch.sigmoid(self.proj(x)) * self.scale

              mod = Gate(3)
              mod(x)""", inputs="x=U(2, 4)", grad="x")),
    entry("mx.gluon.HybridBlock.hybrid_forward",
          torch="torch.nn.Module.forward(self, x)",
          status=ARGS,
          args="F → torch / torch.nn.functional (F.X is mx.nd.X: look each operator up); "
               "the keyword arguments that carry the block's parameters → self.<name>",
          gotchas=["after hybridize(), hybrid_forward runs once, on Symbols, to build the "
                   "graph; a PyTorch forward runs at every call (notebook 7)",
                   "F.mean(x, axis=1, keepdims=True) → x.mean(dim=1, keepdim=True); inside "
                   "hybrid_forward a Symbol's `-` does not broadcast ((3, 5) − (3, 1) fails "
                   "once hybridized): F.broadcast_sub(a, b) → a - b"],
          teach="07_hybridize_export §`hybrid_forward` runs once",
          check=check("""
              class Swish(gluon.HybridBlock):
                  def hybrid_forward(self, F, x):
                      return F.broadcast_sub(x * F.sigmoid(x), F.mean(x, axis=1, keepdims=True))

              net = Swish()
              net.hybridize()
              net(x)""", """
              class Swish(nn.Module):
                  def forward(self, x):
                      return x * torch.sigmoid(x) - x.mean(dim=1, keepdim=True)

              mod = Swish()
              mod(x)""", inputs="x=U(3, 5)", grad="x")),
    entry("mx.gluon.HybridBlock.__init__",
          torch="torch.nn.Module.__init__(self)",
          status=ARGS,
          signature=("prefix", "params"),
          args="prefix → nothing (a Module's parameters are named by attribute path); "
               "params → see the form params=…; write super().__init__()",
          gotchas=["prefix='enc_' renames the parameters (enc_weight) and nothing else: the "
                   "same computation without it"],
          teach="06_blocks §Parameter names: `name_scope()` in 1.x",
          check=check("""
              class Encoder(gluon.HybridBlock):
                  def __init__(self, **kwargs):
                      super().__init__(**kwargs)
                      with self.name_scope():
                          self.proj = nn.Dense(3, in_units=4)

                  def hybrid_forward(self, F, x):
                      return F.tanh(self.proj(x))

              net = Encoder(prefix='enc_')
              net(x)""", """
              class Encoder(nn.Module):
                  def __init__(self):
                      super().__init__()
                      self.proj = nn.Linear(4, 3)

                  def forward(self, x):
                      return torch.tanh(self.proj(x))

              mod = Encoder()
              mod(x)""", inputs="x=U(2, 4)", grad="x")),
    entry("mx.gluon.HybridBlock.__init__", form="params=… (shared weights)", when=["params"],
          signature=("prefix", "params"),
          torch="second.weight = first.weight; second.bias = first.bias",
          status=COMPOSITE,
          args="params=other.params → assign the other layer's Parameters to the new "
               "layer's attributes (or call the same module twice)",
          gotchas=["tied parameters accumulate the gradient of both uses, on both sides: "
                   "the check compares it",
                   "collect_params() lists a shared parameter once; a Module's "
                   "named_parameters() too, but state_dict() lists it under both names"],
          teach="20_sequence_models §6. Tied weights: one parameter, two layers",
          check=check("""
              class Tied(gluon.HybridBlock):
                  def __init__(self, **kwargs):
                      super().__init__(**kwargs)
                      with self.name_scope():
                          self.first = nn.Dense(4, in_units=4)
                          self.second = nn.Dense(4, in_units=4, params=self.first.params)

                  def hybrid_forward(self, F, x):
                      return self.second(F.tanh(self.first(x)))

              net = Tied()
              net(x)""", """
              class Tied(nn.Module):
                  def __init__(self):
                      super().__init__()
                      self.first = nn.Linear(4, 4)
                      self.second = nn.Linear(4, 4)
                      self.second.weight = self.first.weight
                      self.second.bias = self.first.bias

                  def forward(self, x):
                      return self.second(torch.tanh(self.first(x)))

              mod = Tied().to(dtype)
              with torch.no_grad():
                  mod.first.weight.copy_(torch.from_numpy(P[0]))
                  mod.first.bias.copy_(torch.from_numpy(P[1]))
              tparams = [mod.first.weight, mod.first.bias]
              mod(x)""", inputs="x=U(3, 4)", grad="x")),
    entry("mx.gluon.Block.name_scope",
          torch="no call: drop the with-line; attribute paths name the parameters",
          status=RECIPE,
          recipe="""
              # delete `with self.name_scope():` and dedent its body: PyTorch has no naming
              # scope; a parameter's name is its attribute path (hidden.weight)""",
          args="no arguments; nothing to port",
          gotchas=["save_parameters() keys each parameter by its attribute path "
                   "(hidden.weight), the keys of state_dict(); name_scope() changes only the "
                   "prefixed names that collect_params() shows (gluonmlp0_dense0_weight)"],
          teach="06_blocks §Parameter names: `name_scope()` in 1.x",
          check=check(_join(_GLUON_MLP, """
              import os
              from sidebyside.catalogue.harness_blocks import fresh
              blk = GluonMLP()
              blk.initialize()
              path = os.path.join(fresh('name_scope'), 'mlp.params')
              blk.save_parameters(path)
              (sorted(nd.load(path)), [k[len(blk.prefix):] for k in blk.collect_params()])"""),
              _join(_TORCH_MLP, """
              m = TorchMLP()
              (sorted(m.state_dict()),
               ['dense0_weight', 'dense0_bias', 'dense1_weight', 'dense1_bias'])"""),
              kind="exact", dtypes=("float64",),
              note="the second output is Gluon's prefixed names less the parent's prefix, "
                   "written out on the PyTorch side: what name_scope() adds and PyTorch "
                   "never has")),
    entry("mx.gluon.Block.register_child",
          torch="mod.add_module(name, module)",
          status=ARGS,
          args="block → module; name → name (required in PyTorch; Gluon's default is "
               "str(len(children)), the next position); a list of children is "
               "torch.nn.ModuleList",
          gotchas=["a Python list attribute registers nothing on either side: without "
                   "register_child / add_module the layers' parameters are not collected"],
          check=check("""
              class Stack(gluon.Block):
                  def __init__(self, n, **kwargs):
                      super().__init__(**kwargs)
                      self.layers = []
                      for _ in range(n):
                          layer = nn.Dense(4, in_units=4)
                          self.register_child(layer)
                          self.layers.append(layer)

                  def forward(self, x):
                      for layer in self.layers:
                          x = layer(x).tanh()
                      return x

              net = Stack(2)
              net(x)""", """
              class Stack(nn.Module):
                  def __init__(self, n):
                      super().__init__()
                      self.layers = []
                      for i in range(n):
                          layer = nn.Linear(4, 4)
                          self.add_module(str(i), layer)
                          self.layers.append(layer)

                  def forward(self, x):
                      for layer in self.layers:
                          x = torch.tanh(layer(x))
                      return x

              mod = Stack(2)
              mod(x)""", inputs="x=U(3, 4)", grad="x")),
    entry("mx.gluon.HybridBlock.register_child",
          torch="mod.add_module(name, module)",
          status=ARGS,
          args="block → module; name → name (required in PyTorch; Gluon's default: "
               "str(len(children))); a HybridBlock accepts HybridBlock children only",
          check=check("""
              class Stack(gluon.HybridBlock):
                  def __init__(self, n, **kwargs):
                      super().__init__(**kwargs)
                      self.layers = []
                      for _ in range(n):
                          layer = nn.Dense(4, in_units=4)
                          self.register_child(layer)
                          self.layers.append(layer)

                  def hybrid_forward(self, F, x):
                      for layer in self.layers:
                          x = F.tanh(layer(x))
                      return x

              net = Stack(2)
              net.hybridize()
              net(x)""", """
              class Stack(nn.Module):
                  def __init__(self, n):
                      super().__init__()
                      self.layers = []
                      for i in range(n):
                          layer = nn.Linear(4, 4)
                          self.add_module(str(i), layer)
                          self.layers.append(layer)

                  def forward(self, x):
                      for layer in self.layers:
                          x = torch.tanh(layer(x))
                      return x

              mod = Stack(2)
              mod(x)""", inputs="x=U(3, 4)", grad="x")),
    # ------------------------------------------------------------------ hooks
    entry("mx.gluon.Block.register_forward_hook",
          torch="mod.register_forward_hook(hook)",
          status=SAME,
          args="hook(block, args, output) → hook(module, args, output); the handle's "
               "detach() → remove()",
          gotchas=["a PyTorch forward hook that returns a value replaces the output; "
                   "Gluon ignores the return value",
                   "in a hybridize()d parent, a child's hook runs once, with Symbols, while "
                   "the graph is traced, and never again (MXNet warns)"],
          teach="07_hybridize_export §A feature extractor from a model-zoo network",
          check=check("""
              seen = []
              net = nn.HybridSequential()
              net.add(nn.Dense(5, in_units=4), nn.Dense(3, in_units=5))
              handle = net[0].register_forward_hook(lambda block, args, out: seen.append(out))
              (net(x), seen)""", """
              seen = []
              mod = nn.Sequential(nn.Linear(4, 5), nn.Linear(5, 3))
              handle = mod[0].register_forward_hook(lambda module, args, out: seen.append(out))
              (mod(x), seen)""", inputs="x=U(2, 4)", grad="x",
              note="the hybridize() behaviour of the second gotcha was measured outside the "
                   "check: ['Symbol'] after three calls")),
    entry("mx.gluon.Block.register_forward_pre_hook",
          torch="mod.register_forward_pre_hook(hook)",
          status=ARGS,
          args="hook(block, args) → hook(module, args)",
          gotchas=["Gluon ignores what a pre-hook returns; a PyTorch pre-hook that returns a "
                   "value replaces the input: the check's Gluon hook returns zeros, which "
                   "change nothing; the ported hook must return None"],
          check=check("""
              seen = []
              def hook(block, args):
                  seen.append(args[0])
                  return (args[0] * 0,)
              net = nn.Dense(3, in_units=4)
              handle = net.register_forward_pre_hook(hook)
              (net(x), seen)""", """
              seen = []
              def hook(module, args):
                  seen.append(args[0])
              mod = nn.Linear(4, 3)
              handle = mod.register_forward_pre_hook(hook)
              (mod(x), seen)""", inputs="x=U(2, 4)", grad="x")),
    entry("mx.gluon.utils.HookHandle",
          torch="handle = mod.register_forward_hook(hook); handle.remove()  # a torch.utils.hooks.RemovableHandle",
          status=ARGS,
          args="handle.detach() → handle.remove(); `with handle:` detaches on exit on "
               "both sides",
          check=check("""
              calls = []
              blk = nn.Dense(3, in_units=4)
              blk.initialize()
              blk.cast(dtype)
              handle = blk.register_forward_hook(lambda block, args, out: calls.append(1))
              blk(x)
              handle.detach()
              blk(x)
              len(calls)""", """
              calls = []
              m = nn.Linear(4, 3).to(dtype)
              handle = m.register_forward_hook(lambda module, args, out: calls.append(1))
              m(x)
              handle.remove()
              m(x)
              len(calls)""", inputs="x=U(2, 4)", kind="exact", dtypes=("float64",))),
    # --------------------------------------------------------- walking a block
    entry("mx.gluon.Block.apply",
          torch="mod.apply(fn)",
          status=SAME,
          args="fn(block) → fn(module); both visit the children first, then the block "
               "itself, and return it",
          teach="06_blocks §Initialising a whole network",
          check=check("""
              net = None  # no block for the runner: this snippet runs outside autograd.record
              import itertools
              count = itertools.count(1)
              def fill(block):
                  if isinstance(block, nn.Dense):
                      block.weight.set_data(nd.full(block.weight.shape, next(count), dtype=dtype))
              inner = nn.Sequential()
              inner.add(nn.Dense(2, in_units=3), nn.Dense(3, in_units=2))
              blk = nn.Sequential()
              blk.add(nn.Dense(3, in_units=3), inner, nn.Dense(2, in_units=3))
              blk.initialize()
              blk.cast(dtype)
              same = blk.apply(fill) is blk
              (same, [d.weight.data() for d in (blk[0], inner[0], inner[1], blk[2])])""", """
              import itertools
              count = itertools.count(1)
              def fill(module):
                  if isinstance(module, nn.Linear):
                      nn.init.constant_(module.weight, next(count))
              inner = nn.Sequential(nn.Linear(3, 2), nn.Linear(2, 3))
              m = nn.Sequential(nn.Linear(3, 3), inner, nn.Linear(3, 2)).to(dtype)
              same = m.apply(fill) is m
              (same, [d.weight.detach() for d in (m[0], inner[0], inner[1], m[2])])""",
              kind="exact")),
    entry("mx.gluon.Block.summary",
          torch="sum(p.numel() for p in model.parameters())",
          status=RECIPE,
          recipe="""
              print(mod)                                   # the layers
              trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
              total = trainable + sum(b.numel() for b in model.buffers()
                                      if b.is_floating_point())   # Gluon counts running stats
              shapes = []                                   # output shapes: forward hooks
              hooks = [m.register_forward_hook(lambda m, a, o: shapes.append(tuple(o.shape)))
                       for m in model.modules() if not list(m.children())]
              model(x)
              for h in hooks:
                  h.remove()""",
          args="*inputs → one forward pass on them (hooks record the output shapes)",
          gotchas=["Gluon's 'Total params' counts BatchNorm's running mean and variance "
                   "(non-trainable); parameters() does not: add the floating-point buffers "
                   "(not num_batches_tracked)",
                   "summary() refuses a hybridize()d block"],
          check=check("""
              import contextlib, io
              blk = nn.Sequential()
              blk.add(nn.Dense(3, in_units=4), nn.BatchNorm(in_channels=3), nn.Dense(2, in_units=3))
              blk.initialize()
              blk.cast(dtype)
              with contextlib.redirect_stdout(io.StringIO()) as out:
                  blk.summary(x)
              text = out.getvalue()
              value = lambda key: int(text.split(key)[1].split()[0])
              rows = [line.split() for line in text.splitlines() if line.strip().startswith(('Dense-', 'BatchNorm-'))]
              (value('Total params:'), value('Trainable params:'),
               [tuple(int(v) for v in ''.join(r[1:-1]).strip('()').split(',')) for r in rows])""",
              """
              model = nn.Sequential(nn.Linear(4, 3), nn.BatchNorm1d(3), nn.Linear(3, 2)).to(dtype)
              trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
              total = trainable + sum(b.numel() for b in model.buffers() if b.is_floating_point())
              shapes = []
              hooks = [m.register_forward_hook(lambda m, a, o: shapes.append(tuple(o.shape)))
                       for m in model.modules() if not list(m.children())]
              model(x)
              for h in hooks:
                  h.remove()
              (total, trainable, shapes)""", inputs="x=U(2, 4)", kind="exact",
              dtypes=("float64",))),
    entry("mx.gluon.Block.params",
          torch="dict(mod.named_parameters(recurse=False))",
          status=COMPOSITE,
          args="(a property) → named_parameters(recurse=False): the block's own "
               "parameters, not its children's",
          gotchas=["Gluon's keys are prefixed names (dense0_weight), PyTorch's attribute "
                   "names (weight); a container's own dictionary is empty on both sides"],
          check=check("""
              blk = nn.Sequential()
              blk.add(nn.Dense(3, in_units=4), nn.Dense(2, in_units=3))
              blk.initialize()
              [[p.shape for p in b.params.values()] for b in (blk, blk[0], blk[1])]""", """
              m = nn.Sequential(nn.Linear(4, 3), nn.Linear(3, 2))
              [[tuple(p.shape) for p in dict(b.named_parameters(recurse=False)).values()]
               for b in (m, m[0], m[1])]""", kind="exact", dtypes=("float64",))),
    entry("mx.gluon.Block.prefix",
          torch="[p for n, p in mod.named_parameters() if n.startswith('hidden.')]  # by attribute path",
          status=RECIPE,
          recipe="""
              # a child's prefix (dense0_) → its attribute path in named_modules() (hidden);
              # one layer's parameters, selected by prefix in Gluon:
              params = [p for n, p in mod.named_parameters() if n.startswith('hidden.')]""",
          args="(a property) → the attribute path of the module (named_modules() keys)",
          gotchas=["Gluon's prefix is the class name and a per-class counter (dense0_, "
                   "dense1_ in a second instance...), so code that selects parameters by "
                   "prefix selects by attribute path in PyTorch"],
          teach="06_blocks §Collecting parameters",
          check=check(_join(_GLUON_MLP, """
              net = None  # no block for the runner: this snippet runs outside autograd.record
              blk = GluonMLP()
              blk.initialize()
              [p.shape for p in blk.collect_params(blk.hidden.prefix + '.*').values()]"""),
              _join(_TORCH_MLP, """
              mod_ = TorchMLP()
              [tuple(p.shape) for n, p in mod_.named_parameters() if n.startswith('hidden.')]"""),
              kind="exact", dtypes=("float64",))),
    entry("mx.gluon.Block.name",
          torch="dict(mod.named_modules())",
          status=RECIPE,
          recipe="""
              # a block's name (dense0: its prefix less the '_') → its attribute path:
              names = {m: n for n, m in mod.named_modules()}     # module → 'hidden'""",
          args="(a property) → the module's attribute path (or type(m).__name__ for a "
               "label)",
          check=check(_join(_GLUON_MLP, """
              net = None  # no block for the runner: this snippet runs outside autograd.record
              blk = GluonMLP()
              blk.initialize()
              [p.shape for k, p in blk.collect_params().items()
               if k.startswith(blk.out.name + '_')]"""), _join(_TORCH_MLP, """
              m = TorchMLP()
              names = {mm: n for n, mm in m.named_modules()}
              [tuple(p.shape) for n, p in m.named_parameters()
               if n.startswith(names[m.out] + '.')]"""), kind="exact", dtypes=("float64",))),
    # ------------------------------------------------------------ hybridize
    entry("mx.gluon.HybridBlock.hybridize",
          torch="mod  # PyTorch runs eagerly: nothing to call (torch.compile(mod) compiles)",
          status=RECIPE,
          recipe="""
              # delete net.hybridize(...): a Module runs eagerly. To compile:
              # mod = torch.compile(mod)   (Inductor needs a C++ compiler and seconds)""",
          args="active, static_alloc, static_shape, backend, … → nothing (memory planning "
               "and graph caching of MXNet's executor)",
          gotchas=["a hybridize()d block fails on Python control flow that depends on "
                   "values; torch.compile cuts the graph there and runs that part as Python",
                   "the hybridized and the eager results are the same function: the check "
                   "compares hybridize(static_alloc=True, static_shape=True) with eager "
                   "PyTorch"],
          teach="07_hybridize_export §PyTorch's counterparts: `torch.jit` and `torch.compile`",
          check=check("""
              net = nn.HybridSequential()
              net.add(nn.Dense(5, in_units=4, activation='relu'), nn.Dense(3, in_units=5))
              net.hybridize(static_alloc=True, static_shape=True)
              net(x)""", """
              mod = nn.Sequential(nn.Linear(4, 5), nn.ReLU(), nn.Linear(5, 3))
              mod(x)""", inputs="x=U(2, 4)", grad="x")),
    entry("mx.gluon.Block.hybridize",
          torch="mod  # PyTorch runs eagerly: nothing to call (torch.compile(mod) compiles)",
          status=RECIPE,
          recipe="""
              # delete net.hybridize(): on a plain Block it only hybridizes the HybridBlock
              # children; a Module runs eagerly (mod = torch.compile(mod) to compile)""",
          args="active, **kwargs → nothing; a Block passes them on to every child",
          gotchas=["a Block (not Hybrid) cannot become a graph: hybridize() reaches its "
                   "HybridBlock children only"],
          teach="07_hybridize_export §`hybridize()` reaches every child",
          check=check(_join(_GLUON_MLP, """
              net = GluonMLP()
              net.hybridize()
              net(x)"""), _join(_TORCH_MLP, """
              mod = TorchMLP()
              mod(x)"""), inputs="x=U(2, 4)", grad="x")),
    entry("mx.gluon.nn.Sequential.hybridize",
          torch="mod  # PyTorch runs eagerly: nothing to call (torch.compile(mod) compiles)",
          status=RECIPE,
          recipe="""
              # delete net.hybridize(): Sequential (not Hybrid) hybridizes its HybridBlock
              # children (it warns only when every child is a HybridBlock: use HybridSequential);
              # a Module runs eagerly""",
          args="active, **kwargs → nothing",
          teach="07_hybridize_export §`hybridize()` reaches every child",
          check=check("""
              net = nn.Sequential()
              net.add(nn.Dense(5, in_units=4, activation='tanh'), nn.Dense(3, in_units=5))
              net.hybridize(static_alloc=True)
              net(x)""", """
              mod = nn.Sequential(nn.Linear(4, 5), nn.Tanh(), nn.Linear(5, 3))
              mod(x)""", inputs="x=U(2, 4)", grad="x")),
    entry("mx.gluon.HybridBlock.infer_shape",
          torch="torch.nn.LazyLinear(units) and one call: m(x)  # a dry run settles Lazy* layers' shapes",
          status=RECIPE,
          recipe="""
              mod = nn.Sequential(nn.LazyLinear(5), nn.LazyLinear(2))   # in sizes unknown
              mod(x)                        # the first call settles the shapes""",
          args="*args (example inputs) → one forward pass of a module with Lazy* layers "
               "(or give in_features and need none)",
          gotchas=["Gluon's Dense(units) without in_units is deferred until infer_shape or "
                   "the first forward; PyTorch's counterpart is LazyLinear, whose weight is "
                   "an UninitializedParameter until then"],
          teach="06_blocks §Deferred initialisation",
          check=check("""
              blk = nn.HybridSequential()
              blk.add(nn.Dense(5), nn.Dense(2))
              blk.initialize()
              blk.infer_shape(x)
              [p.shape for p in blk.collect_params().values()]""", """
              m = nn.Sequential(nn.LazyLinear(5), nn.LazyLinear(2)).to(dtype)
              m(x)
              [tuple(p.shape) for p in m.parameters()]""", inputs="x=U(3, 4)",
              kind="exact", dtypes=("float64",))),
    # ------------------------------------------------------ export and SymbolBlock
    entry("mx.gluon.HybridBlock.export",
          torch="torch.jit.save(torch.jit.trace(mod, x), path)",
          status=ARGS,
          args="path → path of one file (Gluon writes path-symbol.json and "
               "path-%04d.params % epoch); epoch → none; an example input is needed "
               "(Gluon's block must have run once, hybridized); load: "
               "SymbolBlock.imports → torch.jit.load(path)",
          gotchas=["export() refuses a block that has not run once after hybridize()",
                   "the exported .params keys carry the full prefixed names "
                   "(arg:hybridsequential0_dense0_weight), not save_parameters' paths",
                   "torch.export.export(mod, (x,)) + torch.export.save(program, 'm.pt2') is "
                   "the non-deprecated route (notebook 7 §3); TorchScript warns that it is "
                   "deprecated"],
          teach="07_hybridize_export §Saving the graph with the weights",
          note="reading an exported MXNet model in PyTorch: "
               "sidebyside.mx2torch.translate(symbol_file, params_file) (entry "
               "mx.gluon.SymbolBlock.imports). The check runs torch.jit, not torch.export, "
               "because torch.export's first call costs ~2.6 s on this machine",
          check=check("""
              import os
              from sidebyside.catalogue.harness_blocks import fresh
              net = None  # no block for the runner: this snippet runs outside autograd.record
              blk = nn.HybridSequential()
              blk.add(nn.Dense(5, in_units=4, activation='relu'), nn.Dense(3, in_units=5))
              blk.initialize()
              blk.cast(dtype)
              for p, v in zip(blk.collect_params().values(), (w1, b1, w2, b2)):
                  p.set_data(v)
              blk.hybridize()
              blk(x)
              prefix = os.path.join(fresh('export'), 'mlp')
              blk.export(prefix)
              loaded = gluon.SymbolBlock.imports(prefix + '-symbol.json', ['data'],
                                                 prefix + '-0000.params')
              loaded(x)""", """
              import os, warnings
              from sidebyside.catalogue.harness_blocks import fresh
              m = nn.Sequential(nn.Linear(4, 5), nn.ReLU(), nn.Linear(5, 3)).to(dtype)
              with torch.no_grad():
                  for p, v in zip(m.parameters(), (w1, b1, w2, b2)):
                      p.copy_(v)
              path = os.path.join(fresh('export_torch'), 'mlp.pt')
              with warnings.catch_warnings():
                  warnings.simplefilter('ignore')
                  torch.jit.save(torch.jit.trace(m, x), path)
                  loaded = torch.jit.load(path)
              loaded(x)""", inputs="x=U(2, 4); w1=U(5, 4); b1=U(5); w2=U(3, 5); b2=U(3)")),
    entry("mx.gluon.SymbolBlock.imports", aliases=["mx.gluon.nn.SymbolBlock.imports"],
          torch="sidebyside.mx2torch.translate(symbol_file, param_file)",
          status=COMPOSITE,
          args="symbol_file, param_file → the same files (MXNet not needed); input_names → "
               "the generated module's forward arguments; ctx → .to(device); files that "
               "PyTorch wrote itself: torch.jit.load(path) / torch.export.load(path).module()",
          gotchas=["imports warns that it cannot decide the input's type from the file and "
                   "assumes float32; the parameters keep the file's dtype (float64 here)"],
          teach="19_legacy_files_to_pytorch §Summary",
          note="sidebyside.mx2torch reads -symbol.json and .params without MXNet and "
               "returns an nn.Module in eval mode (notebook 19)",
          check=check("""
              import os
              from sidebyside.catalogue.harness_blocks import fresh
              net = None  # no block for the runner: this snippet runs outside autograd.record
              blk = nn.HybridSequential()
              blk.add(nn.Dense(5, in_units=4, activation='tanh'), nn.Dense(3, in_units=5))
              blk.initialize()
              blk.cast(dtype)
              for p, v in zip(blk.collect_params().values(), (w1, b1, w2, b2)):
                  p.set_data(v)
              blk.hybridize()
              blk(x)
              prefix = os.path.join(fresh('imports'), 'mlp')
              blk.export(prefix)
              loaded = gluon.SymbolBlock.imports(prefix + '-symbol.json', ['data'],
                                                 prefix + '-0000.params')
              loaded(x)""", """
              import os
              from sidebyside import mx2torch
              from sidebyside.catalogue.harness_blocks import workdir
              prefix = os.path.join(workdir(), 'imports', 'mlp')
              m = mx2torch.translate(prefix + '-symbol.json', prefix + '-0000.params')
              m(x)""", inputs="x=U(2, 4); w1=U(5, 4); b1=U(5); w2=U(3, 5); b2=U(3)")),
    entry("mx.gluon.SymbolBlock", aliases=["mx.gluon.nn.SymbolBlock"],
          torch="torchvision.models.feature_extraction.create_feature_extractor(mod, "
                "return_nodes)",
          status=ARGS,
          args="outputs (an internal Symbol of the network) → return_nodes={'<module "
               "path>': 'name'} (the result is a dict); inputs → the module's forward "
               "arguments; params=net.collect_params() → nothing (the extractor shares "
               "mod's parameters); a forward hook on that layer is the other way",
          gotchas=["the SymbolBlock shares the network's Parameters (not copies), like the "
                   "extractor shares the module's",
                   "nn.Dense(activation='relu') is one Gluon layer; in PyTorch the ReLU is "
                   "its own node ('1' here), so ask for the activation's output"],
          teach="07_hybridize_export §A feature extractor from a model-zoo network",
          check=check("""
              full = nn.HybridSequential()
              full.add(nn.Dense(5, in_units=4, activation='relu'), nn.Dense(3, in_units=5))
              data = sym.var('data')
              net = gluon.SymbolBlock(full[0](data), data, params=full.collect_params())
              net(x)""", """
              from torchvision.models.feature_extraction import create_feature_extractor
              full = nn.Sequential(nn.Linear(4, 5), nn.ReLU(), nn.Linear(5, 3))
              mod = create_feature_extractor(full, return_nodes={'1': 'features'})
              mod(x)['features']""", inputs="x=U(2, 4)", grad="x")),
    # ---------------------------------------------------------------- containers
    entry("mx.gluon.nn.Sequential",
          torch="torch.nn.Sequential(*blocks)",
          status=ARGS,
          args="Sequential() then add(a, b, …) → torch.nn.Sequential(a, b, …); "
               "prefix/params → none; net[i] → mod[i]; len(net) → len(mod)",
          gotchas=["Dense(activation='relu') is one position in Gluon, Linear + ReLU two in "
                   "PyTorch: the saved keys differ (0/1 against 0/2) unless the activation is "
                   "added as its own nn.Activation layer (notebook 6)"],
          teach="06_blocks §When the saved keys do *not* match",
          check=check("""
              net = nn.Sequential()
              net.add(nn.Dense(5, in_units=4, activation='relu'), nn.Dense(3, in_units=5))
              net(x)""", """
              mod = nn.Sequential(nn.Linear(4, 5), nn.ReLU(), nn.Linear(5, 3))
              mod(x)""", inputs="x=U(2, 4)", grad="x")),
    entry("mx.gluon.nn.Sequential.add",
          torch="mod.extend([block, ...])",
          status=RENAMED,
          args="*blocks → a list: mod.extend([a, b]) (or mod.append(a) for one)",
          teach="06_blocks §When the saved keys do *not* match",
          check=check("""
              net = nn.Sequential()
              net.add(nn.Dense(5, in_units=4))
              net.add(nn.Activation('tanh'), nn.Dense(3, in_units=5))
              net(x)""", """
              mod = nn.Sequential()
              mod.append(nn.Linear(4, 5))
              mod.extend([nn.Tanh(), nn.Linear(5, 3)])
              mod(x)""", inputs="x=U(2, 4)", grad="x")),
    entry("mx.gluon.nn.HybridSequential",
          torch="torch.nn.Sequential(*blocks)",
          status=ARGS,
          args="HybridSequential() then add(a, b, …) → torch.nn.Sequential(a, b, …); "
               "hybridize() → nothing",
          gotchas=["only HybridBlocks may be added; a HybridSequential is itself a "
                   "HybridBlock (Sequential is not)"],
          teach="07_hybridize_export §1. HybridBlock: `hybridize()` and what stops it",
          check=check("""
              net = nn.HybridSequential()
              net.add(nn.Dense(5, in_units=4), nn.Activation('sigmoid'), nn.Dense(3, in_units=5))
              net.hybridize()
              net(x)""", """
              mod = nn.Sequential(nn.Linear(4, 5), nn.Sigmoid(), nn.Linear(5, 3))
              mod(x)""", inputs="x=U(2, 4)", grad="x")),
    entry("mx.gluon.nn.HybridSequential.add",
          torch="mod.extend([block, ...])",
          status=RENAMED,
          args="*blocks → a list: mod.extend([a, b]) (or mod.append(a) for one)",
          check=check("""
              net = nn.HybridSequential()
              net.add(nn.Dense(5, in_units=4), nn.Activation('relu'))
              net.add(nn.Dense(3, in_units=5))
              net(x)""", """
              mod = nn.Sequential()
              mod.extend([nn.Linear(4, 5), nn.ReLU()])
              mod.append(nn.Linear(5, 3))
              mod(x)""", inputs="x=U(2, 4)", grad="x")),
    entry("mx.gluon.nn.Lambda",
          torch="Lambda(function)  # a Module of your own, below",
          status=RECIPE,
          recipe="""
              class Lambda(nn.Module):
                  def __init__(self, function):
                      super().__init__()
                      self.function = function

                  def forward(self, *args):
                      return self.function(*args)""",
          args="function → function (a callable on tensors; Gluon also takes the name of an "
               "mx.nd operator as a string: Lambda('tanh') → Lambda(torch.tanh))",
          check=check("""
              net = nn.Lambda(lambda x: nd.tanh(x) * 2 + x)
              net(x)""", """
              class Lambda(nn.Module):
                  def __init__(self, function):
                      super().__init__()
                      self.function = function

                  def forward(self, *args):
                      return self.function(*args)

              mod = Lambda(lambda x: torch.tanh(x) * 2 + x)
              mod(x)""", inputs="x=U(3, 4)", grad="x")),
    entry("mx.gluon.nn.HybridLambda",
          torch="Lambda(function)  # a Module of your own (mx.gluon.nn.Lambda's recipe)",
          status=RECIPE,
          recipe="""
              class Lambda(nn.Module):
                  def __init__(self, function):
                      super().__init__()
                      self.function = function

                  def forward(self, *args):
                      return self.function(*args)""",
          args="function(F, x) → function(x) (F.op → torch.op); a string names an operator: "
               "HybridLambda('relu') → Lambda(torch.relu)",
          check=check("""
              net = nn.HybridLambda(lambda F, x: F.broadcast_sub(F.relu(x), F.mean(x, axis=0)))
              net.hybridize()
              net(x)""", """
              class Lambda(nn.Module):
                  def __init__(self, function):
                      super().__init__()
                      self.function = function

                  def forward(self, *args):
                      return self.function(*args)

              mod = Lambda(lambda x: torch.relu(x) - x.mean(dim=0))
              mod(x)""", inputs="x=U(3, 4)", grad="x")),
]
