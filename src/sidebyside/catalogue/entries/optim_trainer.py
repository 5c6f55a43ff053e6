"""mx.gluon.Trainer's constructor: one form per optimizer name, and the default form (a name
that is not a literal, or an Optimizer instance). Trainer's methods are another module's."""
import textwrap

from ..model import ARGS, COMPOSITE, RECIPE, check, entry
from . import optim_recipes as R

_SIG = ("params", "optimizer")
_S2 = "shapes=((2, 3), (4,))"
_T8 = "08_optimizers_trainer §"
_F32ONLY = ("float32 only: MXNet 1.9.1's {} creates its state in float32 whatever the "
            "weight's dtype; a float64 weight fails (notebook 8 §5)")
_KERNEL = "float64: MXNet's kernels take the hyper-parameters as float32"


def _mx(name, options, extra=_S2):
    """Two Parameters trained by gluon.Trainer(params, name, options): 4 steps of step(1)."""
    return ("from sidebyside.catalogue.harness_optim import mx_traj\n"
            f"mx_traj({name!r}, {options}, dtype=dtype, via='trainer', {extra})")


def _pt(make, extra=_S2, recipe="", step=""):
    head = recipe.strip() + "\n" if recipe else ""
    step = f", step={step}" if step else ""
    return (head + "from sidebyside.catalogue.harness_optim import torch_traj\n"
            f"torch_traj(lambda params: {make}, dtype=dtype, {extra}{step})")


def _form(name, torch, status, mx_options, torch_make, *, recipe="", extra=_S2, **kw):
    """The entry of gluon.Trainer(params, name, {...})."""
    ck = {k: kw.pop(k) for k in ("rtol", "atol", "dtypes", "kind") if k in kw}
    if "cnote" in kw:
        ck["note"] = kw.pop("cnote")
    if "dtypes" in ck and "note" not in ck:
        ck["note"] = _F32ONLY.format(kw.get("_who", name))
    kw.pop("_who", None)
    if ck.get("rtol") and "note" not in ck:
        ck["note"] = _KERNEL
    return entry("mx.gluon.Trainer", form=f"optimizer={name!r}", when=[f"optimizer={name!r}"],
                 signature=_SIG, torch=torch, status=status, recipe=recipe,
                 check=check(_mx(name, mx_options, extra),
                             _pt(torch_make, extra, recipe, kw.pop("step", "")), **ck),
                 **kw)


_TOL = dict(rtol=1e-7, atol=2e-8)
_SMALL = _S2 + ", scale=1e-3"

ENTRIES = [
    entry("mx.gluon.Trainer",
          torch="OPTIMIZERS[optimizer.lower()](model.parameters(), **optimizer_params)",
          status=COMPOSITE, recipe=R.BUILDERS,
          args="params (net.collect_params()) → model.parameters(); optimizer (a name) → the "
               "PyTorch optimizer of that name's form (a builder table when the name comes "
               "from a variable); an mx.optimizer.Optimizer instance → the PyTorch optimizer "
               "of its class's entry; optimizer_params → that optimizer's options, mapped; "
               "kvstore, compression_params, update_on_kvstore: distributed training "
               "(torch.nn.parallel.DistributedDataParallel)",
          gotchas=["gluon.Trainer(params, name, options) is mx.optimizer.create(name, "
                   "**options) applied to every parameter: the check runs a name held in a "
                   "variable and an Optimizer instance",
                   "Trainer's optimizer uses each Parameter's lr_mult and wd_mult (param "
                   "groups in PyTorch)"],
          teach=_T8 + "1. One problem, two optimizers",
          check=check("""
              from sidebyside.catalogue.harness_optim import mx_traj
              name = 'NAG'
              [mx_traj(name, {'learning_rate': 0.1, 'momentum': 0.9}, dtype=dtype,
                       via='trainer', shapes=((2, 3), (4,))),
               mx_traj(mx.optimizer.SGD(learning_rate=0.1, momentum=0.5, wd=0.01),
                       dtype=dtype, via='trainer', shapes=((2, 3), (4,)))]""",
                      R.BUILDERS.strip() + "\n" + textwrap.dedent("""
              from sidebyside.catalogue.harness_optim import torch_traj
              name = 'NAG'
              [torch_traj(lambda params: OPTIMIZERS[name.lower()](
                   params, **{'learning_rate': 0.1, 'momentum': 0.9}),
                   dtype=dtype, shapes=((2, 3), (4,))),
               torch_traj(lambda params: torch.optim.SGD(params, lr=0.1, momentum=0.5,
                                                         weight_decay=0.01),
                          dtype=dtype, shapes=((2, 3), (4,)))]""").strip(),
                      note=_KERNEL, **_TOL)),
    _form("sgd", "torch.optim.SGD(model.parameters(), lr=learning_rate, momentum=momentum, "
                 "weight_decay=wd)", ARGS,
          "{'momentum': 0.9, 'wd': 1e-3}",
          "torch.optim.SGD(params, lr=0.01, momentum=0.9, weight_decay=1e-3)",
          args="learning_rate → lr; momentum → momentum; wd → weight_decay; clip_gradient, "
               "rescale_grad → mx.optimizer.SGD [clip_gradient]",
          defaults="learning_rate 0.01 vs lr 1e-3: Trainer(params, 'sgd') without a rate "
                   "takes steps ten times PyTorch's SGD(params)",
          gotchas=["the check gives the Trainer no learning_rate and PyTorch lr=0.01",
                   "MXNet's momentum buffer holds lr·g: after a rate change the two part "
                   "(mx.optimizer.Optimizer.set_learning_rate)"],
          teach="16_capstone_mxnet_to_pytorch §4. The training step: `Trainer('sgd')` → "
                "`optim.SGD`", **_TOL),
    _form("nag", "torch.optim.SGD(model.parameters(), lr=learning_rate, momentum=momentum, "
                 "nesterov=True)", ARGS,
          "{'learning_rate': 0.1, 'momentum': 0.9}",
          "torch.optim.SGD(params, lr=0.1, momentum=0.9, nesterov=True)",
          args="learning_rate → lr; momentum → momentum; wd: with weight decay use the "
               "MXNetNAG recipe of mx.optimizer.NAG [wd] (MXNet decays the updated weight)",
          defaults="learning_rate 0.01 vs lr 1e-3",
          teach=_T8 + '3. Nesterov: `nesterov=True` and `"nag"`', **_TOL),
    _form("adam", "MXNetAdam(model.parameters(), lr=learning_rate, beta1=beta1, beta2=beta2, "
                  "epsilon=epsilon, wd=wd)", RECIPE,
          "{'learning_rate': 0.01, 'beta1': 0.8, 'wd': 1e-7}",
          "MXNetAdam(params, lr=0.01, beta1=0.8, wd=1e-7)", recipe=R.ADAM,
          extra=_S2 + ", scale=1e-7",
          args="learning_rate → lr; beta1, beta2, epsilon → the same; wd → wd; clip_gradient "
               "→ clip_gradient",
          gotchas=["MXNet's ε is added to √v, outside the bias correction: "
                   "torch.optim.Adam(betas=(beta1, beta2), eps=epsilon) parts where gradients "
                   "are near ε (the check runs gradients of 1e-7)"],
          note="torch.optim.Adam is the same rule but for ε's place; "
               "sidebyside.optim.mxnet_adam_settings makes it take MXNet's steps (notebook 8 "
               "§4), 'torchadam' makes Gluon take PyTorch's.",
          teach=_T8 + "4. Adam, and where its `epsilon` goes",
          rtol=2e-7, atol=2e-7),
    _form("adagrad", "torch.optim.Adagrad(model.parameters(), lr=learning_rate, eps=0, "
                     "initial_accumulator_value=eps)", ARGS,
          "{'learning_rate': 0.1}",
          "torch.optim.Adagrad(params, lr=0.1, eps=0, initial_accumulator_value=1e-7)",
          extra=_SMALL, dtypes=("float32",), _who="AdaGrad",
          args="learning_rate → lr; eps → initial_accumulator_value, with eps=0; wd: MXNet "
               "decays outside the step (mx.optimizer.AdaGrad [wd])",
          defaults="eps 1e-7 inside the root vs 1e-10 outside it",
          teach=_T8 + "5. RMSProp, Adagrad, Adadelta"),
    _form("adadelta", "torch.optim.Adadelta(model.parameters(), lr=1.0, rho=rho, eps=epsilon)",
          ARGS, "{'learning_rate': 0.5, 'rho': 0.95}",
          "torch.optim.Adadelta(params, lr=1.0, rho=0.95, eps=1e-5)",
          dtypes=("float32",), _who="AdaDelta",
          args="rho → rho; epsilon → eps; learning_rate: ignored by MXNet; wd: decoupled "
               "(mx.optimizer.AdaDelta [wd]); clip_gradient → "
               "torch.nn.utils.clip_grad_value_ before step()",
          defaults="epsilon 1e-5 vs eps 1e-6",
          gotchas=["MXNet's 'adadelta' ignores learning_rate: the check gives it 0.5 and "
                   "PyTorch lr=1.0"],
          teach=_T8 + "5. RMSProp, Adagrad, Adadelta"),
    _form("rmsprop", "MXNetRMSProp(model.parameters(), lr=learning_rate, gamma1=gamma1, "
                     "gamma2=gamma2, epsilon=epsilon, centered=centered, wd=wd)", RECIPE,
          "{'learning_rate': 0.01, 'gamma1': 0.95, 'gamma2': 0.8, 'centered': True}",
          "MXNetRMSProp(params, lr=0.01, gamma1=0.95, gamma2=0.8, centered=True)",
          recipe=R.RMSPROP, extra=_S2 + ", scale=1e-4", dtypes=("float32",), _who="RMSProp",
          args="learning_rate → lr; gamma1 → gamma1; gamma2 → gamma2; epsilon → epsilon; "
               "centered → centered; wd → wd",
          defaults="learning_rate 0.001 vs torch.optim.RMSprop's lr 0.01",
          gotchas=["ε inside the root (and, centered, the rate inside the momentum): no "
                   "torch.optim.RMSprop setting takes these steps"],
          teach=_T8 + "5. RMSProp, Adagrad, Adadelta"),
    _form("adamax", "torch.optim.Adamax(model.parameters(), lr=learning_rate, "
                    "betas=(beta1, beta2), eps=0, weight_decay=wd)", ARGS,
          "{'learning_rate': 0.01, 'wd': 0.01}",
          "torch.optim.Adamax(params, lr=0.01, eps=0, weight_decay=0.01)",
          args="learning_rate → lr; beta1, beta2 → betas; wd → weight_decay; eps=0",
          defaults="no ε in MXNet vs eps 1e-8"),
    _form("nadam", "MXNetNadam(model.parameters(), lr=learning_rate, beta1=beta1, "
                   "beta2=beta2, epsilon=epsilon, schedule_decay=schedule_decay, wd=wd)",
          RECIPE, "{'learning_rate': 0.01}", "MXNetNadam(params, lr=0.01)", recipe=R.NADAM,
          args="learning_rate → lr; beta1, beta2, epsilon, schedule_decay, wd → the same",
          gotchas=["one momentum schedule for all parameters, advanced per parameter update: "
                   "torch.optim.NAdam matches a one-parameter model only "
                   "(mx.optimizer.Nadam)"]),
    _form("signum", "MXNetSignum(model.parameters(), lr=learning_rate, momentum=momentum, "
                    "wd=wd, wd_lh=wd_lh)", RECIPE,
          "{'learning_rate': 0.01, 'wd_lh': 0.05}", "MXNetSignum(params, lr=0.01, wd_lh=0.05)",
          recipe=R.SIGNUM, args="learning_rate → lr; momentum (0.9) → momentum; wd, wd_lh → "
                                "the same", **_TOL),
    _form("ftml", "MXNetFTML(model.parameters(), lr=learning_rate, beta1=beta1, beta2=beta2, "
                  "epsilon=epsilon, wd=wd)", RECIPE,
          "{'learning_rate': 0.05}", "MXNetFTML(params, lr=0.05)", recipe=R.FTML,
          args="learning_rate → lr; beta1 (0.6), beta2, epsilon, wd → the same", **_TOL),
    _form("ftrl", "MXNetFtrl(model.parameters(), lr=learning_rate, lamda1=lamda1, beta=beta, "
                  "wd=wd)", RECIPE,
          "{'learning_rate': 0.2, 'lamda1': 0.05}", "MXNetFtrl(params, lr=0.2, lamda1=0.05)",
          recipe=R.FTRL, dtypes=("float32",), _who="Ftrl",
          args="learning_rate → lr; lamda1, beta, wd → the same"),
    _form("dcasgd", "MXNetDCASGD(model.parameters(), lr=learning_rate, lamda=lamda, wd=wd)",
          RECIPE, "{'learning_rate': 0.1, 'lamda': 0.5}",
          "MXNetDCASGD(params, lr=0.1, lamda=0.5)", recipe=R.DCASGD,
          args="learning_rate → lr; lamda, wd → the same; momentum > 0 raises in MXNet 1.9.1"),
    _form("sgld", "MXNetSGLD(model.parameters(), lr=learning_rate, wd=wd)", RECIPE,
          "{'learning_rate': 0.04}", "MXNetSGLD(params, lr=0.04)", recipe=R.SGLD,
          extra="shapes=((20000,),), steps=1, scale=8", kind="random",
          args="learning_rate → lr; wd → wd",
          cnote="random: the check compares 20000 weights after one noisy step"),
    _form("lars", "MXNetLARS(model.parameters(), lr=learning_rate, momentum=momentum, "
                  "eta=eta, eps=eps, wd=wd)", RECIPE,
          "{'learning_rate': 0.1, 'momentum': 0.9, 'eta': 0.01, 'wd': 0.01}",
          "MXNetLARS(params, lr=0.1, momentum=0.9, eta=0.01, wd=0.01)", recipe=R.LARS,
          extra=_S2 + ", names=['dense0_weight', 'dense0_bias']",
          args="learning_rate → lr; momentum, eta, eps, wd → the same",
          gotchas=["through Trainer LARS scales the bias too: the check names the "
                   "parameters dense0_weight and dense0_bias and the recipe applies LARS to "
                   "both (Trainer passes no param_idx2name, so MXNet's bias/gamma/beta "
                   "exemption never fires)"],
          cnote="float64: LARS rates computed in float32 (multi_lars)", **_TOL),
    _form("lamb", "MXNetLAMB(model.parameters(), lr=learning_rate, beta1=beta1, beta2=beta2, "
                  "epsilon=epsilon, wd=wd, bias_correction=bias_correction)", RECIPE,
          "{'learning_rate': 0.01, 'wd': 0.01}", "MXNetLAMB(params, lr=0.01, wd=0.01)",
          recipe=R.LAMB, args="learning_rate → lr; beta1, beta2, epsilon, wd, "
                              "bias_correction → the same", **_TOL),
    _form("lbsgd", "torch.optim.SGD(model.parameters(), lr=learning_rate, momentum=momentum, "
                   "weight_decay=wd)", ARGS,
          "{'learning_rate': 0.1, 'momentum': 0.9, 'wd': 0.01}",
          "torch.optim.SGD(params, lr=0.1, momentum=0.9, weight_decay=0.01)",
          args="as 'sgd' while batch_scale=1 (the default): mx.optimizer.LBSGD", **_TOL),
    _form("ccsgd", "torch.optim.SGD(model.parameters(), lr=learning_rate, momentum=momentum, "
                   "weight_decay=wd)", ARGS,
          "{'learning_rate': 0.1, 'momentum': 0.9}",
          "torch.optim.SGD(params, lr=0.1, momentum=0.9)",
          args="as 'sgd' (a deprecated alias class)", **_TOL),
    _form("groupadagrad", "MXNetGroupAdaGrad(model.parameters(), lr=learning_rate, eps=eps)",
          RECIPE, "{'learning_rate': 0.1}", "MXNetGroupAdaGrad(params, lr=0.1)",
          recipe=R.GROUPADAGRAD, extra="shapes=((2, 3), (3, 2))", dtypes=("float32",),
          _who="GroupAdaGrad", args="learning_rate → lr; eps → eps; 2-D parameters only"),
    _form("test", "mxnet_test_step(list(model.parameters()), rescale_grad)", COMPOSITE,
          "{'learning_rate': 0.3}", "None", recipe=R.TEST,
          step="lambda opt, ps: mxnet_test_step(ps, 1.0)",
          args="rescale_grad (trainer.step(n) sets 1/n) → rescale_grad",
          gotchas=["'test' adds the gradient to the weight and ignores learning_rate"]),
]

# ------------------------------------------------------------------ Trainer's methods
_NOREC = "net = None  # no block for the runner: this snippet runs outside autograd.record"
_DENSE = """
    blk = nn.Dense(3, in_units=4)
    blk.initialize()
    blk.cast(dtype)
    blk.weight.set_data(w)
    blk.bias.set_data(b)"""
_LINEAR = """
    m = nn.Linear(4, 3).to(dtype)
    with torch.no_grad():
        m.weight.copy_(w)
        m.bias.copy_(b)"""
_IN = "x=U(4, 4); w=U(3, 4); b=U(3)"
_TM = "08_optimizers_trainer §"


def _d(*parts):
    return "\n".join(textwrap.dedent(p).strip("\n") for p in parts)


def _steps(mx_body, pt_body, **ck):
    """A Dense/Linear of weights w, b, trained by the bodies; the weights compared."""
    return check(_d(_NOREC, _DENSE, mx_body, """
        [blk.weight.data(), blk.bias.data()]"""), _d(_LINEAR, pt_body, """
        [m.weight.detach(), m.bias.detach()]"""), inputs=_IN, **ck)


_MX_LOOP = """
              for _ in range(3):
                  with autograd.record():
                      loss = (blk(x) ** 2).sum(axis=1)
                  loss.backward()
                  trainer.step(x.shape[0])"""
_PT_LOOP = """
              for _ in range(3):
                  opt.zero_grad()
                  ((m(x) ** 2).sum(dim=1).sum() / x.shape[0]).backward()
                  opt.step()"""

ENTRIES += [
    entry("mx.gluon.Trainer.step",
          torch="optimizer.step()  # after (loss.sum() / batch_size).backward(); then "
                "optimizer.zero_grad()",
          status=COMPOSITE,
          signature=("batch_size", "ignore_stale_grad"),
          args="batch_size → divide the loss (or the gradients) by it yourself: Gluon sets "
               "the optimizer's rescale_grad to 1/batch_size; with a mean loss, step(1)",
          gotchas=["a Gluon loss returns one value per sample and backward() sums them; "
                   "step(batch_size) turns the sum into the mean: (loss.sum() / n)"
                   ".backward() or loss.mean().backward() in PyTorch",
                   "Gluon's default grad_req 'write' overwrites the gradients each "
                   "backward; PyTorch adds to them: optimizer.zero_grad() every step",
                   "a clip_gradient option applies after the 1/batch_size rescaling"],
          teach=_TM + "1. One problem, two optimizers",
          check=_steps("""
              trainer = gluon.Trainer(blk.collect_params(), 'sgd',
                                      {'learning_rate': 0.125, 'momentum': 0.5})""" + _MX_LOOP,
                       """
              opt = torch.optim.SGD(m.parameters(), lr=0.125, momentum=0.5)""" + _PT_LOOP)),
    entry("mx.gluon.Trainer.step", form="ignore_stale_grad=True",
          when=["ignore_stale_grad=True"], signature=("batch_size", "ignore_stale_grad"),
          torch="optimizer.step()  # after optimizer.zero_grad(set_to_none=True)",
          status=COMPOSITE,
          args="ignore_stale_grad=True → nothing: a parameter that took no part in "
               "backward keeps grad None after zero_grad() (set_to_none, the default), "
               "and PyTorch's optimizers skip it",
          gotchas=["without the flag Gluon refuses a parameter whose gradient backward did "
                   "not write since the last step (UserWarning/error 'has not been updated "
                   "by backward since last step'); PyTorch never complains"],
          check=check(_d(_NOREC, """
              a = nn.Dense(3, in_units=4)
              c = nn.Dense(3, in_units=4)
              for blk in (a, c):
                  blk.initialize()
                  blk.cast(dtype)
                  blk.weight.set_data(w)
                  blk.bias.set_data(b)
              params = a.collect_params()
              params.update(c.collect_params())
              trainer = gluon.Trainer(params, 'sgd', {'learning_rate': 0.5})
              for _ in range(2):
                  with autograd.record():
                      loss = (a(x) ** 2).sum(axis=1)
                  loss.backward()
                  trainer.step(x.shape[0], ignore_stale_grad=True)
              [a.weight.data(), a.bias.data(), c.weight.data(), c.bias.data()]"""), """
              a, c = nn.Linear(4, 3).to(dtype), nn.Linear(4, 3).to(dtype)
              with torch.no_grad():
                  for l in (a, c):
                      l.weight.copy_(w)
                      l.bias.copy_(b)
              opt = torch.optim.SGD(list(a.parameters()) + list(c.parameters()), lr=0.5)
              for _ in range(2):
                  opt.zero_grad(set_to_none=True)
                  ((a(x) ** 2).sum(dim=1).sum() / x.shape[0]).backward()
                  opt.step()
              [a.weight.detach(), a.bias.detach(), c.weight.detach(), c.bias.detach()]""",
              inputs=_IN)),
    entry("mx.gluon.Trainer.update",
          torch="optimizer.step()  # after (loss.sum() / batch_size).backward()",
          status=COMPOSITE,
          signature=("batch_size", "ignore_stale_grad"),
          args="batch_size → divide the loss by it; update() is step() without the "
               "gradient all-reduce (Gluon: after allreduce_grads(), with "
               "update_on_kvstore=False)",
          gotchas=["update() raises when the Trainer updates on the kvstore "
                   "(update_on_kvstore=True, the default of distributed kvstores)"],
          check=_steps("""
              trainer = gluon.Trainer(blk.collect_params(), 'sgd', {'learning_rate': 0.5},
                                      update_on_kvstore=False)
              for _ in range(3):
                  with autograd.record():
                      loss = (blk(x) ** 2).sum(axis=1)
                  loss.backward()
                  trainer.allreduce_grads()
                  trainer.update(x.shape[0])""", """
              opt = torch.optim.SGD(m.parameters(), lr=0.5)""" + _PT_LOOP)),
    entry("mx.gluon.Trainer.allreduce_grads",
          torch="torch.distributed.all_reduce(p.grad)  # for each p, then divide by "
                "world_size (DistributedDataParallel does it inside backward)",
          status=RECIPE,
          recipe="""
              import torch.distributed as dist
              if dist.is_available() and dist.is_initialized():
                  for p in model.parameters():
                      if p.grad is not None:
                          dist.all_reduce(p.grad)
                          p.grad /= dist.get_world_size()""",
          args="() → sum the gradients over the workers/devices; with one device nothing "
               "happens on either side",
          gotchas=["Gluon sums the gradients of its devices (the mean comes from "
                   "step/update's 1/batch_size with the global batch size); "
                   "DistributedDataParallel averages them: keep the loss per-replica mean"],
          teach="09_distributed §1. Several devices in one process: `split_and_load`",
          note="the check runs in one process without a process group: both sides leave "
               "the gradients as they are",
          check=_steps("""
              trainer = gluon.Trainer(blk.collect_params(), 'sgd', {'learning_rate': 0.5},
                                      update_on_kvstore=False)
              with autograd.record():
                  loss = (blk(x) ** 2).sum()
              loss.backward()
              trainer.allreduce_grads()
              blk.weight.set_data(blk.weight.grad())
              blk.bias.set_data(blk.bias.grad())""", """
              (m(x) ** 2).sum().backward()
              import torch.distributed as dist
              if dist.is_available() and dist.is_initialized():
                  for p in m.parameters():
                      if p.grad is not None:
                          dist.all_reduce(p.grad)
                          p.grad /= dist.get_world_size()
              with torch.no_grad():
                  m.weight.copy_(m.weight.grad)
                  m.bias.copy_(m.bias.grad)""")),
    entry("mx.gluon.Trainer.learning_rate",
          torch="optimizer.param_groups[0]['lr']",
          status=COMPOSITE,
          args="(a property) → the 'lr' of a parameter group (each group has its own)",
          gotchas=["with an lr_scheduler Gluon's property asks the scheduler for the rate "
                   "at the current update count; PyTorch's scheduler writes the rate into "
                   "param_groups at scheduler.step()"],
          teach=_TM + "1. One problem, two optimizers",
          check=check(_d(_NOREC, _DENSE, """
              trainer = gluon.Trainer(blk.collect_params(), 'sgd', {'learning_rate': 0.25})
              trainer.learning_rate"""), _d(_LINEAR, """
              opt = torch.optim.SGD(m.parameters(), lr=0.25)
              opt.param_groups[0]['lr']"""), inputs="w=U(3, 4); b=U(3)", kind="exact",
              dtypes=("float64",))),
    entry("mx.gluon.Trainer.set_learning_rate",
          torch="for g in optimizer.param_groups: g['lr'] = lr",
          status=COMPOSITE,
          args="lr → every group's 'lr' (Gluon's lr_mult becomes a group whose lr is "
               "lr·lr_mult: set it to that)",
          gotchas=["with momentum the two part after a change: MXNet's momentum buffer "
                   "holds lr·gradient, PyTorch's the gradient alone, so an old rate stays "
                   "in MXNet's buffer (mx.optimizer.Optimizer.set_learning_rate)",
                   "Gluon refuses set_learning_rate when an lr_scheduler drives the rate "
                   "(UserWarning, rate unchanged)"],
          teach=_TM + "1. One problem, two optimizers",
          check=_steps("""
              trainer = gluon.Trainer(blk.collect_params(), 'sgd', {'learning_rate': 0.5})
              for lr in (0.5, 0.25, 0.125):
                  trainer.set_learning_rate(lr)
                  with autograd.record():
                      loss = (blk(x) ** 2).sum(axis=1)
                  loss.backward()
                  trainer.step(x.shape[0])""", """
              opt = torch.optim.SGD(m.parameters(), lr=0.5)
              for lr in (0.5, 0.25, 0.125):
                  for g in opt.param_groups:
                      g['lr'] = lr
                  opt.zero_grad()
                  ((m(x) ** 2).sum(dim=1).sum() / x.shape[0]).backward()
                  opt.step()""")),
    entry("mx.gluon.Trainer.save_states",
          torch="torch.save(optimizer.state_dict(), fname)",
          status=COMPOSITE,
          args="fname → the file; Gluon pickles the optimizer's states (momentum buffers, "
               "update counts) and the optimizer itself",
          gotchas=["the momentum a file holds differs by a factor lr (MXNet stores "
                   "lr·gradient): an MXNet states file cannot seed torch.optim.SGD "
                   "without dividing by the rate"],
          teach="13_serialization §3. What is in the files — and which ones can run code",
          check=_steps("""
              import os
              from sidebyside.catalogue.harness_params import folder
              opts = {'learning_rate': 0.125, 'momentum': 0.5}
              trainer = gluon.Trainer(blk.collect_params(), 'sgd', opts)""" + _MX_LOOP + """
              path = os.path.join(folder('states_mx'), 'trainer.states')
              trainer.save_states(path)
              trainer = gluon.Trainer(blk.collect_params(), 'sgd', opts)
              trainer.load_states(path)""" + _MX_LOOP, """
              import os
              from sidebyside.catalogue.harness_params import folder
              opt = torch.optim.SGD(m.parameters(), lr=0.125, momentum=0.5)""" + _PT_LOOP + """
              path = os.path.join(folder('states_pt'), 'optimizer.pt')
              torch.save(opt.state_dict(), path)
              opt = torch.optim.SGD(m.parameters(), lr=0.125, momentum=0.5)
              opt.load_state_dict(torch.load(path))""" + _PT_LOOP)),
    entry("mx.gluon.Trainer.load_states",
          torch="optimizer.load_state_dict(torch.load(fname))",
          status=COMPOSITE,
          args="fname → torch.load(fname); both restore the hyper-parameters saved with "
               "the states (the learning rate too)",
          gotchas=["Gluon's load_states restores the saved optimizer object: a rate set "
                   "on the new Trainer before loading is replaced by the saved one, as "
                   "load_state_dict replaces the groups' 'lr'"],
          check=_steps("""
              import os
              from sidebyside.catalogue.harness_params import folder
              trainer = gluon.Trainer(blk.collect_params(), 'sgd',
                                      {'learning_rate': 0.125, 'momentum': 0.5})""" + _MX_LOOP
                       + """
              path = os.path.join(folder('load_states_mx'), 'trainer.states')
              trainer.save_states(path)
              trainer = gluon.Trainer(blk.collect_params(), 'sgd',
                                      {'learning_rate': 0.75, 'momentum': 0.5})
              trainer.load_states(path)""" + _MX_LOOP, """
              import os
              from sidebyside.catalogue.harness_params import folder
              opt = torch.optim.SGD(m.parameters(), lr=0.125, momentum=0.5)""" + _PT_LOOP + """
              path = os.path.join(folder('load_states_pt'), 'optimizer.pt')
              torch.save(opt.state_dict(), path)
              opt = torch.optim.SGD(m.parameters(), lr=0.75, momentum=0.5)
              opt.load_state_dict(torch.load(path))""" + _PT_LOOP)),
    entry("mx.gluon.Trainer.optimizer",
          torch="optimizer",
          status=COMPOSITE,
          args="(a property: the mx.optimizer.Optimizer) → the torch.optim optimizer "
               "itself; its settings live in param_groups (learning_rate → 'lr', wd → "
               "'weight_decay', momentum → 'momentum')",
          check=check(_d(_NOREC, _DENSE, """
              trainer = gluon.Trainer(blk.collect_params(), 'sgd',
                                      {'learning_rate': 0.25, 'momentum': 0.5, 'wd': 0.125})
              o = trainer.optimizer
              (o.learning_rate, o.momentum, o.wd)"""), _d(_LINEAR, """
              opt = torch.optim.SGD(m.parameters(), lr=0.25, momentum=0.5, weight_decay=0.125)
              g = opt.param_groups[0]
              (g['lr'], g['momentum'], g['weight_decay'])"""), inputs="w=U(3, 4); b=U(3)",
              kind="exact", dtypes=("float64",))),
]
