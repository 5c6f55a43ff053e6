"""`mx.autograd`: the recording and training scopes, their flags, backward/grad,
mark_variables and Function. Each check runs its experiment inside a function called on the
last line, so that no scope of the runner's is open around it."""
from ..model import ARGS, COMPOSITE, RECIPE, RENAMED, check, entry

_REC = "05_autograd §1. Recording a computation"
_SCOPES = "05_autograd §2. Scopes: training or predicting, recording or not"
_PRED = "05_autograd §Gradients under `record(train_mode=False)`: wrong in MXNet 1.9.1"
_SECOND = "05_autograd §5. Second-order gradients"
_A = "mx.autograd."
_BN = "x=U(4, 3)"

FUNCTION_RECIPE = '''
class MySigmoid(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = 1 / (1 + torch.exp(-x))
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, dy):
        y, = ctx.saved_tensors
        return dy * y * (1 - y)

y = MySigmoid.apply(x)
'''

ENTRIES = [
    entry(_A + "record", torch="torch.enable_grad()  # and model.train()", status=COMPOSITE,
          args="train_mode=True → model.train() on the modules (a flag per module in "
               "PyTorch); the scope itself → nothing: PyTorch records every operation on a "
               "tensor that requires grad (torch.enable_grad() only undoes a no_grad())",
          gotchas=["forgetting record() in MXNet leaves no graph: backward() raises; in "
                   "PyTorch the graph is always built",
                   "record() also makes Dropout and BatchNorm train (batch statistics): "
                   "model.train() in PyTorch"],
          teach=_REC,
          check=check("""
              def run():
                  net = nn.BatchNorm(in_channels=3)
                  net.initialize()
                  net.cast(dtype)
                  x.attach_grad()
                  with autograd.record():
                      y = (net(x) * w).sum()
                      state = [autograd.is_recording(), autograd.is_training()]
                  y.backward()
                  return y, x.grad, onp.array(state)
              run()""", """
              def run():
                  mod = nn.BatchNorm1d(3).to(dtype)
                  mod.train()
                  x.requires_grad_()
                  with torch.enable_grad():
                      y = (mod(x) * w).sum()
                      state = [torch.is_grad_enabled(), mod.training]
                  y.backward()
                  return y.detach().reshape(1), x.grad, onp.array(state)
              run()""", inputs=_BN + "; w=U(4, 3)", rtol=1e-9,
              note="BatchNorm's batch statistics in another order of sums")),
    entry(_A + "record", form="train_mode=False", when=["train_mode=False"],
          signature=("train_mode",),
          torch="torch.enable_grad()  # and model.eval()", status=COMPOSITE,
          args="train_mode=False → model.eval()",
          gotchas=["MXNet 1.9.1 records a predicting forward pass, but the gradients of max "
                   "pooling and BatchNorm under it can be wrong (the deep dive "
                   "autograd_predict_mode); PyTorch's eval() gradients are right",
                   "BatchNorm then uses its running statistics in both"],
          teach=_PRED,
          check=check("""
              def run():
                  net = nn.Dense(3, in_units=3)
                  net.initialize()
                  net.cast(dtype)
                  x.attach_grad()
                  with autograd.record(train_mode=False):
                      y = (nd.tanh(x) * w).sum()
                      state = [autograd.is_recording(), autograd.is_training()]
                  y.backward()
                  return x.grad, onp.array(state)
              run()""", """
              def run():
                  mod = nn.Linear(3, 3).to(dtype)
                  mod.eval()
                  x.requires_grad_()
                  with torch.enable_grad():
                      y = (torch.tanh(x) * w).sum()
                      state = [torch.is_grad_enabled(), mod.training]
                  y.backward()
                  return x.grad, onp.array(state)
              run()""", inputs=_BN + "; w=U(4, 3)")),
    entry(_A + "pause", torch="torch.no_grad()  # and model.eval()", status=COMPOSITE,
          args="train_mode=False (the default) → model.eval() as well",
          gotchas=["pause() inside record() stops recording and switches to predicting; "
                   "torch.no_grad() stops recording only (the modules keep their flag)"],
          teach=_SCOPES,
          check=check("""
              def run():
                  x.attach_grad()
                  with autograd.record():
                      a = x * x
                      with autograd.pause():
                          b = x * 3
                          state = [autograd.is_recording(), autograd.is_training()]
                      y = (a + b).sum()
                  y.backward()
                  return x.grad, onp.array(state)
              run()""", """
              def run():
                  x.requires_grad_()
                  mod = nn.Dropout()
                  a = x * x
                  with torch.no_grad():
                      mod.eval()
                      b = x * 3
                      state = [torch.is_grad_enabled(), mod.training]
                  y = (a + b).sum()
                  y.backward()
                  return x.grad, onp.array(state)
              run()""", inputs="x=U(2, 3)")),
    entry(_A + "pause", form="train_mode=True", when=["train_mode=True"],
          signature=("train_mode",), torch="torch.no_grad()", status=COMPOSITE,
          args="train_mode=True → the modules keep train()",
          gotchas=["stops recording, keeps training behaviour: what torch.no_grad() alone does"],
          teach=_SCOPES,
          check=check("""
              def run():
                  with autograd.record():
                      with autograd.pause(train_mode=True):
                          state = [autograd.is_recording(), autograd.is_training()]
                  return onp.array(state)
              run()""", """
              def run():
                  mod = nn.Dropout()
                  with torch.no_grad():
                      state = [torch.is_grad_enabled(), mod.training]
                  return onp.array(state)
              run()""", kind="exact")),
    entry(_A + "train_mode", torch="model.train()", status=RENAMED,
          gotchas=["a scope in MXNet (restores the flag on exit, recording unchanged); a "
                   "module flag in PyTorch that stays until model.eval()"],
          teach=_SCOPES,
          check=check("""
              def run():
                  with autograd.train_mode():
                      state = [autograd.is_recording(), autograd.is_training()]
                  return onp.array(state + [autograd.is_training()])
              run()""", """
              def run():
                  mod = nn.Dropout()
                  mod.eval()
                  mod.train()
                  state = [False, mod.training]
                  mod.eval()
                  return onp.array(state + [mod.training])
              run()""", kind="exact")),
    entry(_A + "predict_mode", torch="model.eval()", status=RENAMED,
          gotchas=["inside record() it keeps recording (gradients of a predicting pass); "
                   "model.eval() likewise leaves autograd on"],
          teach=_SCOPES,
          check=check("""
              def run():
                  with autograd.record():
                      with autograd.predict_mode():
                          state = [autograd.is_recording(), autograd.is_training()]
                  return onp.array(state)
              run()""", """
              def run():
                  mod = nn.Dropout()
                  mod.eval()
                  return onp.array([torch.is_grad_enabled(), mod.training])
              run()""", kind="exact")),
    entry(_A + "is_training", torch="model.training", status=RENAMED,
          gotchas=["MXNet's flag is global (per thread), False outside any scope; "
                   "PyTorch's is per module, True after construction"],
          teach=_SCOPES,
          check=check("""
              def run():
                  out = [autograd.is_training()]
                  with autograd.record():
                      out.append(autograd.is_training())
                  return onp.array(out)
              run()""", """
              def run():
                  mod = nn.Dropout()
                  mod.eval()
                  out = [mod.training]
                  mod.train()
                  out.append(mod.training)
                  return onp.array(out)
              run()""", kind="exact")),
    entry(_A + "is_recording", torch="torch.is_grad_enabled()", status=RENAMED,
          gotchas=["outside any scope MXNet is not recording (False) while PyTorch's grad mode "
                   "is on (True): the check compares inside record()/pause() and "
                   "enable_grad()/no_grad()"],
          teach=_SCOPES,
          check=check("""
              def run():
                  out = []
                  with autograd.record():
                      out.append(autograd.is_recording())
                      with autograd.pause():
                          out.append(autograd.is_recording())
                  return onp.array(out)
              run()""", """
              def run():
                  out = []
                  with torch.enable_grad():
                      out.append(torch.is_grad_enabled())
                      with torch.no_grad():
                          out.append(torch.is_grad_enabled())
                  return onp.array(out)
              run()""", kind="exact")),
    entry(_A + "set_recording", torch="torch.set_grad_enabled(is_recording)", status=ARGS,
          args="is_recording → mode; returns the previous state in MXNet (read "
               "torch.is_grad_enabled() first in PyTorch)",
          check=check("""
              def run():
                  prev = autograd.set_recording(True)
                  now = autograd.is_recording()
                  autograd.set_recording(prev)
                  return onp.array([now, autograd.is_recording()])
              run()""", """
              def run():
                  prev = torch.is_grad_enabled()
                  torch.set_grad_enabled(False)
                  torch.set_grad_enabled(True)
                  now = torch.is_grad_enabled()
                  return onp.array([now, False])
              run()""", kind="exact")),
    entry(_A + "set_training", torch="model.train(train_mode)", status=ARGS,
          args="train_mode → mode (on each module); returns the previous state in MXNet",
          check=check("""
              def run():
                  prev = autograd.set_training(True)
                  now = autograd.is_training()
                  autograd.set_training(prev)
                  return onp.array([prev, now, autograd.is_training()])
              run()""", """
              def run():
                  mod = nn.Dropout()
                  mod.train(False)
                  prev = mod.training
                  mod.train(True)
                  now = mod.training
                  mod.train(prev)
                  return onp.array([prev, now, mod.training])
              run()""", kind="exact")),
    entry(_A + "backward",
          torch="torch.autograd.backward(heads, grad_tensors=head_grads, "
                "retain_graph=retain_graph)",
          status=ARGS,
          args="heads → tensors; head_grads → grad_tensors (None: ones in MXNet, only for "
               "scalars in PyTorch); retain_graph → retain_graph; train_mode → (none)",
          gotchas=["MXNet writes the gradients (grad_req='write'), PyTorch adds them to .grad"],
          teach=_REC,
          check=check("""
              def run():
                  x.attach_grad()
                  with autograd.record():
                      a = x * x
                      b = nd.sin(x)
                  autograd.backward([a, b], [g, g * 2])
                  return x.grad
              run()""", """
              def run():
                  x.requires_grad_()
                  a = x * x
                  b = torch.sin(x)
                  torch.autograd.backward([a, b], grad_tensors=[g, g * 2])
                  return x.grad
              run()""", inputs="x=U(2, 3); g=U(2, 3)")),
    entry(_A + "backward", form="retain_graph=True", when=["retain_graph=True"],
          signature=("heads", "head_grads", "retain_graph"),
          torch="torch.autograd.backward(heads, grad_tensors=head_grads, retain_graph=True)",
          status=ARGS, args="retain_graph → retain_graph",
          gotchas=["a second backward through the same graph needs retain_graph=True in both; "
                   "MXNet's second pass overwrites x.grad, PyTorch's adds"],
          check=check("""
              def run():
                  x.attach_grad()
                  with autograd.record():
                      a = nd.exp(x)
                  autograd.backward([a], [g], retain_graph=True)
                  first = x.grad.copy()
                  autograd.backward([a], [g])
                  return first, x.grad
              run()""", """
              def run():
                  x.requires_grad_()
                  a = torch.exp(x)
                  torch.autograd.backward([a], grad_tensors=[g], retain_graph=True)
                  first = x.grad.clone()
                  x.grad = None
                  torch.autograd.backward([a], grad_tensors=[g])
                  return first, x.grad
              run()""", inputs="x=U(2, 3); g=U(2, 3)")),
    entry(_A + "grad",
          torch="torch.autograd.grad(heads, variables, grad_outputs=head_grads, "
                "retain_graph=retain_graph, create_graph=create_graph)",
          status=ARGS,
          args="heads → outputs; variables → inputs; head_grads → grad_outputs; "
               "retain_graph, create_graph → the same; train_mode → (none)",
          gotchas=["returns the gradients without touching .grad, in both"],
          teach=_SECOND,
          check=check("""
              def run():
                  x.attach_grad()
                  with autograd.record():
                      y = x * x * x
                  return autograd.grad([y], [x], [g])
              run()""", """
              def run():
                  x.requires_grad_()
                  y = x * x * x
                  return [t.detach() for t in torch.autograd.grad([y], [x], grad_outputs=[g])]
              run()""", inputs="x=U(2, 3); g=U(2, 3)")),
    entry(_A + "grad", form="create_graph=True", when=["create_graph=True"],
          signature=("heads", "variables", "head_grads", "retain_graph", "create_graph"),
          torch="torch.autograd.grad(heads, variables, grad_outputs=head_grads, "
                "create_graph=True)",
          status=ARGS, args="create_graph → create_graph: the gradient is recorded, for a "
                            "second derivative",
          gotchas=["in MXNet 1.9.1 only some operators have a second derivative (notebook 5 "
                   "§5): x * x * x raises (_backward_broadcast_mul has no gradient), "
                   "nd.sin works; the call must sit inside record() for the gradient to be recorded"],
          teach=_SECOND,
          check=check("""
              def run():
                  x.attach_grad()
                  with autograd.record():
                      y = nd.sin(x)
                      dx = autograd.grad([y], [x], [nd.ones_like(y)], create_graph=True)[0]
                  dx.backward(g)
                  return dx, x.grad
              run()""", """
              def run():
                  x.requires_grad_()
                  y = torch.sin(x)
                  dx = torch.autograd.grad([y], [x], grad_outputs=[torch.ones_like(y)],
                                           create_graph=True)[0]
                  dx.backward(g)
                  return dx.detach(), x.grad
              run()""", inputs="x=U(2, 3); g=U(2, 3)")),
    entry(_A + "mark_variables", torch="variable.requires_grad_()", status=COMPOSITE,
          args="variables → requires_grad_() on each; gradients (the arrays to write into) → "
               "read variable.grad after backward (PyTorch allocates it); grad_reqs='add' → "
               "PyTorch's default accumulation",
          gotchas=["attach_grad() is mark_variables with a fresh zero buffer; PyTorch has no "
                   "way to hand it the buffer: copy .grad where you want it"],
          check=check("""
              def run():
                  buf = nd.zeros(x.shape, dtype=x.dtype)
                  autograd.mark_variables([x], [buf])
                  with autograd.record():
                      y = (x * x).sum()
                  y.backward()
                  return buf
              run()""", """
              def run():
                  x.requires_grad_()
                  y = (x * x).sum()
                  y.backward()
                  return x.grad
              run()""", inputs="x=U(2, 3)")),
    entry(_A + "Function", torch="torch.autograd.Function", status=RECIPE,
          recipe=FUNCTION_RECIPE,
          args="forward(self, *inputs) → @staticmethod forward(ctx, *inputs); "
               "backward(self, *output_grads) → @staticmethod backward(ctx, *grads); "
               "self.save_for_backward(...) / self.saved_tensors → ctx's; f(x) → "
               "MyFunction.apply(x)",
          gotchas=["an MXNet Function is an instance used once per call (f = MyFn(); f(x)); "
                   "a PyTorch Function is a class with static methods, called through .apply"],
          teach=_REC,
          check=check("""
              class MySigmoid(autograd.Function):
                  def forward(self, x):
                      y = 1 / (1 + nd.exp(-x))
                      self.save_for_backward(y)
                      return y
                  def backward(self, dy):
                      y, = self.saved_tensors
                      return dy * y * (1 - y)
              MySigmoid()(x)""", FUNCTION_RECIPE.strip() + "\ny",
              inputs="x=U(2, 3)", grad="x")),
]
