"""mx.optimizer: every registered optimizer, its PyTorch optimizer (or a recipe), and the
Optimizer/Updater machinery (create, register, get_updater, rates, multipliers)."""
import textwrap

from ..model import ARGS, COMPOSITE, RECIPE, check, entry
from . import optim_recipes as R

_T8 = "08_optimizers_trainer §"
_RULES = "deep_dives/optim_rules §"
_S2 = ", shapes=((2, 3), (4,))"            # two parameters, as a Trainer passes them
_SMALL = ", scale=1e-3"                     # gradients small enough for epsilon to matter
_F32 = ("MXNet's update kernels take their hyper-parameters (lr, wd, momentum, betas, "
        "epsilon) as float32")
_F32ONLY = ("float32 only: MXNet 1.9.1's {} creates its state without the weight's dtype "
            "(float32), so a float64 weight fails with MXNetError (notebook 8 §5)")


def _mx(expr, extra=_S2):
    """The MXNet side: the weights after each of 4 updates (get_updater, as Trainer calls it)."""
    return ("from sidebyside.catalogue.harness_optim import mx_traj\n"
            f"mx_traj({expr}, dtype=dtype{extra})")


def _with(recipe, code):
    """A recipe's code, then the (indented) code that uses it."""
    return recipe.strip() + "\n" + textwrap.dedent(code).strip()


def _pt(make, extra=_S2, recipe="", step=""):
    """The PyTorch side: ``make`` builds the optimizer from ``params``; ``recipe`` runs first."""
    head = recipe.strip() + "\n" if recipe else ""
    step = f", step={step}" if step else ""
    return (head + "from sidebyside.catalogue.harness_optim import torch_traj\n"
            f"torch_traj(lambda params: {make}, dtype=dtype{extra}{step})")


_UPDATER_MX = """
from sidebyside.catalogue.harness_optim import start
w0, grads = start(steps=3, dtype=dtype)
updater = UPDATER(mx.optimizer.create('adamax', learning_rate=0.1))
w = nd.array(w0[0], dtype=dtype)
out = []
for g in grads:
    updater(0, nd.array(g[0], dtype=dtype), w)
    out.append(w.asnumpy().copy())
out"""

_UPDATER_PT = """
from sidebyside.catalogue.harness_optim import start
w0, grads = start(steps=3, dtype=dtype)
p = torch.nn.Parameter(torch.from_numpy(w0[0].copy()))
optimizer = torch.optim.Adamax([p], lr=0.1, eps=0)
out = []
for g in grads:
    p.grad = torch.from_numpy(g[0].copy())
    optimizer.step()
    out.append(p.detach().numpy().copy())
out"""

_SET_LR = '''
import torch


def set_lr_like_mxnet(optimizer, lr):
    """Set the rate as MXNet does with momentum: its buffer holds lr*g, so the old
    steps carry on; scale PyTorch's buffer (of gradients) by old_lr/new_lr."""
    for group in optimizer.param_groups:
        for p in group["params"]:
            buf = optimizer.state.get(p, {}).get("momentum_buffer")
            if buf is not None:
                buf.mul_(group["lr"] / lr)
        group["lr"] = lr
'''

_CUSTOM_MX = """
class MyMomentum(mx.optimizer.Optimizer):
    def __init__(self, momentum=0.9, **kwargs):
        super().__init__(**kwargs)
        self.momentum = momentum

    def create_state(self, index, weight):
        return nd.zeros(weight.shape, weight.context, dtype=weight.dtype)

    def update(self, index, weight, grad, state):
        self._update_count(index)
        lr, wd = self._get_lr(index), self._get_wd(index)
        g = grad * self.rescale_grad + wd * weight
        state[:] = self.momentum * state + g
        weight[:] -= lr * state
"""

_CUSTOM_PT = '''
import torch


class MyMomentum(torch.optim.Optimizer):
    def __init__(self, params, lr=0.01, momentum=0.9, wd=0.0):
        super().__init__(params, dict(lr=lr, momentum=momentum, wd=wd))

    @torch.no_grad()
    def step(self):                                    # MXNet: update(), for every weight
        for group in self.param_groups:                # lr, wd: _get_lr(i), _get_wd(i)
            for p in [p for p in group["params"] if p.grad is not None]:
                state = self.state[p]
                if not state:                          # MXNet: create_state(), once
                    state["mom"] = torch.zeros_like(p)
                g = p.grad + group["wd"] * p
                state["mom"].mul_(group["momentum"]).add_(g)
                p.sub_(group["lr"] * state["mom"])
'''

_CUSTOM_CHECK = check(
    _CUSTOM_MX + _mx("MyMomentum(learning_rate=0.1, momentum=0.8, wd=0.01)"),
    _pt("MyMomentum(params, lr=0.1, momentum=0.8, wd=0.01)", recipe=_CUSTOM_PT))

_MP_RECIPE = '''
import torch


def float32_master(params16):
    """float32 copies of float16 parameters: build the optimizer on these."""
    return [p.detach().float().requires_grad_() for p in params16]


def step_on_master(optimizer, params16, master):
    for p, m in zip(params16, master):
        m.grad = p.grad.float()
    optimizer.step()
    with torch.no_grad():
        for p, m in zip(params16, master):
            p.copy_(m)                                 # rounded to float16
'''

_MP_MX = """
from sidebyside.catalogue.harness_optim import start
w0, grads = start(steps=4)
opt = mx.optimizer.create('sgd', learning_rate=0.1, momentum=0.9, wd=0.01,
                          multi_precision=True)
upd = mx.optimizer.get_updater(opt)
w = nd.array(w0[0], dtype='float16')
out = []
for g in grads:
    upd(0, nd.array(g[0], dtype='float16'), w)
    out.append(w.asnumpy())
mom, master = upd.states[0]
(out, master.asnumpy())"""

_MP_PT = _MP_RECIPE.strip() + """
from sidebyside.catalogue.harness_optim import start
w0, grads = start(steps=4)
p16 = [torch.nn.Parameter(torch.tensor(w0[0]).half())]
master = float32_master(p16)
opt = torch.optim.SGD(master, lr=0.1, momentum=0.9, weight_decay=0.01)
out = []
for g in grads:
    p16[0].grad = torch.tensor(g[0]).half()
    step_on_master(opt, p16, master)
    out.append(p16[0].detach().numpy().copy())
(out, master[0].detach().numpy())"""

_MP_CHECK = check(_MP_MX, _MP_PT, dtypes=("float32",), rtol32=1e-3,
                  note="float16 weights with float32 master copies (the runner's dtype is not "
                       "used); compared: the float16 weights after each step and the float32 "
                       "master; bound 1e-3 of the scale: one float16 ulp near 1")

ENTRIES = [
    # ------------------------------------------------------------------ SGD family
    entry("mx.optimizer.SGD",
          torch="torch.optim.SGD(params, lr=learning_rate, momentum=momentum, weight_decay=wd)",
          status=ARGS,
          args="learning_rate → lr; momentum → momentum; wd → weight_decay (both add wd·w to "
               "the gradient); rescale_grad → multiply the loss (or p.grad) by it; "
               "clip_gradient → see the form clip_gradient; lazy_update: row_sparse gradients "
               "only (PyTorch: torch.optim.SparseAdam is the nearest); multi_precision → "
               "mx.optimizer.Optimizer.multi_precision; lr_scheduler → "
               "torch.optim.lr_scheduler (mx.lr_scheduler entries)",
          defaults="learning_rate 0.01 vs lr 1e-3 (torch.optim.SGD): give the rate",
          gotchas=[f"{_F32}: with learning_rate=0.1, momentum=0.9, wd=0.01 a float64 run parts "
                   "from torch.optim.SGD by ~7e-9 relative (PyTorch given the float32-rounded "
                   "values agrees to ~1e-16)",
                   "MXNet's momentum buffer holds steps (m ← μm − lr·g; w ← w + m), PyTorch's "
                   "gradients (b ← μb + g; w ← w − lr·b): equal at a constant rate, not after "
                   "a rate change (mx.optimizer.Optimizer.set_learning_rate)"],
          teach=_T8 + "2. SGD with momentum and weight decay",
          note="Two parameters updated in one Updater call take MXNet's aggregated path "
               "(multi_sgd_mom_update), as gluon.Trainer does.",
          check=check(_mx("mx.optimizer.create('sgd', learning_rate=0.1, momentum=0.9, "
                          "wd=0.01)"),
                      _pt("torch.optim.SGD(params, lr=0.1, momentum=0.9, weight_decay=0.01)"),
                      rtol=1e-7, atol=2e-8,
                      note="float64: hyper-parameters rounded to float32 by sgd_mom_update: "
                           "~7e-9 relative")),
    entry("mx.optimizer.SGD", form="clip_gradient", when=["clip_gradient"],
          torch="step_with_mxnet_clip(torch.optim.SGD(params, lr=learning_rate, "
                "momentum=momentum, weight_decay=wd), params, rescale_grad, clip_gradient)",
          status=RECIPE, recipe=R.RESCALE_CLIP,
          args="rescale_grad, clip_gradient → scale p.grad, then "
               "torch.nn.utils.clip_grad_value_(params, clip_gradient), then step()",
          gotchas=["sgd_update clips rescale_grad·grad element-wise and adds wd·w after the "
                   "clip: clip_grad_value_ before a weight_decay step is the same order",
                   "MXNet's SGD, NAG, Adam, RMSProp, Signum, FTML, Ftrl, LAMB test "
                   "`if self.clip_gradient:`: clip_gradient=0 means no clipping there"],
          check=check(_mx("mx.optimizer.create('sgd', learning_rate=0.1, momentum=0.9, "
                          "wd=0.01, rescale_grad=0.5, clip_gradient=0.3)"),
                      _pt("torch.optim.SGD(params, lr=0.1, momentum=0.9, weight_decay=0.01)",
                          recipe=R.RESCALE_CLIP,
                          step="lambda opt, ps: step_with_mxnet_clip(opt, ps, 0.5, 0.3)"),
                      rtol=1e-7, atol=2e-8,
                      note="float64: hyper-parameters rounded to float32 by the kernel")),
    entry("mx.optimizer.ccSGD",
          torch="torch.optim.SGD(params, lr=learning_rate, momentum=momentum, weight_decay=wd)",
          status=ARGS,
          args="as mx.optimizer.SGD (ccSGD is a deprecated subclass that adds nothing)",
          defaults="learning_rate 0.01 vs lr 1e-3",
          gotchas=["created without learning_rate, MXNet's rate is 0.01: the check gives "
                   "PyTorch lr=0.01 and MXNet none"],
          check=check(_mx("mx.optimizer.create('ccsgd', momentum=0.9, wd=0.01)"),
                      _pt("torch.optim.SGD(params, lr=0.01, momentum=0.9, weight_decay=0.01)"),
                      rtol=1e-7, atol=2e-8,
                      note="float64: hyper-parameters rounded to float32 by the kernel")),
    entry("mx.optimizer.LBSGD",
          torch="torch.optim.SGD(params, lr=learning_rate, momentum=momentum, weight_decay=wd)",
          status=ARGS,
          args="learning_rate → lr; momentum → momentum; wd → weight_decay; batch_scale=1 "
               "(the default): every update is SGD's",
          defaults="learning_rate 0.01 vs lr 1e-3",
          note="With batch_scale=k > 1 LBSGD accumulates k gradients and updates every k-th "
               "call with their mean and a warm-up multiplier (warmup_strategy) — gradient "
               "accumulation plus a LambdaLR in PyTorch; not checked here. LBSGD reads the "
               "rate before counting the update, so an lr_scheduler's rate lags one update "
               "(read from optimizer.py, not checked).",
          check=check(_mx("mx.optimizer.create('lbsgd', learning_rate=0.1, momentum=0.9, "
                          "wd=0.01)"),
                      _pt("torch.optim.SGD(params, lr=0.1, momentum=0.9, weight_decay=0.01)"),
                      rtol=1e-7, atol=2e-8,
                      note="float64: hyper-parameters rounded to float32 by the kernel")),
    entry("mx.optimizer.NAG",
          torch="torch.optim.SGD(params, lr=learning_rate, momentum=momentum, nesterov=True)",
          status=ARGS,
          args="learning_rate → lr; momentum → momentum (> 0: PyTorch's nesterov needs it; "
               "NAG with momentum=0 is plain SGD); wd → see the form wd",
          defaults="learning_rate 0.01 vs lr 1e-3; momentum 0.0 in both",
          gotchas=[f"{_F32}: ~1.4e-8 relative in float64"],
          teach=_T8 + '3. Nesterov: `nesterov=True` and `"nag"`',
          check=check(_mx("mx.optimizer.create('nag', learning_rate=0.1, momentum=0.9)"),
                      _pt("torch.optim.SGD(params, lr=0.1, momentum=0.9, nesterov=True)"),
                      rtol=1e-7, atol=2e-8,
                      note="float64: hyper-parameters rounded to float32 by nag_mom_update")),
    entry("mx.optimizer.NAG", form="wd", when=["wd"], signature=("momentum",),
          torch="MXNetNAG(params, lr=learning_rate, momentum=momentum, wd=wd)",
          status=RECIPE, recipe=R.NAG,
          args="learning_rate → lr; momentum → momentum; wd → wd",
          gotchas=["nag_mom_update writes the new weight first and then adds wd·(new "
                   "weight) to the momentum: SGD(nesterov=True, weight_decay=wd) parts from "
                   "the second step"],
          teach=_RULES + "1. Nesterov with weight decay: MXNet's kernel decays the updated "
                         "weight",
          check=check(_mx("mx.optimizer.create('nag', learning_rate=0.1, momentum=0.9, "
                          "wd=0.05)"),
                      _pt("MXNetNAG(params, lr=0.1, momentum=0.9, wd=0.05)", recipe=R.NAG),
                      rtol=1e-7, atol=2e-8,
                      note="float64: hyper-parameters rounded to float32 by nag_mom_update")),
    entry("mx.optimizer.Signum",
          torch="MXNetSignum(params, lr=learning_rate, momentum=momentum, wd=wd, wd_lh=wd_lh)",
          status=RECIPE, recipe=R.SIGNUM,
          args="learning_rate → lr; momentum → momentum; wd → wd (into the momentum); "
               "wd_lh → wd_lh (decoupled decay)",
          gotchas=["momentum=0 runs signsgd_update: wd then decays the weight directly "
                   "(w·(1 − lr·wd)) and wd_lh is ignored; the check runs momentum 0.9",
                   f"{_F32}: ~1.2e-9 relative in float64"],
          check=check(_mx("mx.optimizer.create('signum', learning_rate=0.01, momentum=0.9, "
                          "wd=0.1, wd_lh=0.05)"),
                      _pt("MXNetSignum(params, lr=0.01, momentum=0.9, wd=0.1, wd_lh=0.05)",
                          recipe=R.SIGNUM),
                      rtol=1e-7, atol=2e-8,
                      note="float64: hyper-parameters rounded to float32 by signum_update")),
    entry("mx.optimizer.DCASGD",
          torch="MXNetDCASGD(params, lr=learning_rate, lamda=lamda, wd=wd)",
          status=RECIPE, recipe=R.DCASGD,
          args="learning_rate → lr; lamda → lamda; wd → wd; momentum: 0 only",
          gotchas=["DCASGD(momentum > 0) raises ValueError in MXNet 1.9.1 (`if mom:` on a "
                   "multi-element NDArray): only momentum=0 runs"],
          note="DCASGD computes with NDArray operations and Python-float scalars: float64 "
               "agrees to rounding.",
          check=check(_mx("mx.optimizer.create('dcasgd', learning_rate=0.1, lamda=0.5, "
                          "wd=0.01)"),
                      _pt("MXNetDCASGD(params, lr=0.1, lamda=0.5, wd=0.01)", recipe=R.DCASGD))),
    entry("mx.optimizer.SGLD",
          torch="MXNetSGLD(params, lr=learning_rate, wd=wd)",
          status=RECIPE, recipe=R.SGLD,
          args="learning_rate → lr; wd → wd",
          gotchas=["the step is lr/2·(g + wd·w) plus N(0, lr) noise (standard deviation "
                   "√lr): the check compares 20000 updated weights' distribution"],
          check=check("""
              opt = mx.optimizer.create('sgld', learning_rate=0.04, wd=0.5)
              w = nd.ones((20000,), dtype=dtype)
              mx.optimizer.get_updater(opt)(0, nd.full((20000,), 8.0, dtype=dtype), w)
              w""", _with(R.SGLD, """
              p = torch.nn.Parameter(torch.ones(20000, dtype=dtype))
              p.grad = torch.full((20000,), 8.0, dtype=dtype)
              MXNetSGLD([p], lr=0.04, wd=0.5).step()
              p.detach()"""), kind="random")),
    entry("mx.optimizer.LARS",
          torch="MXNetLARS(params, lr=learning_rate, momentum=momentum, eta=eta, eps=eps, "
                "wd=wd)",
          status=RECIPE, recipe=R.LARS,
          args="learning_rate → lr; momentum → momentum; eta → eta; eps → eps; wd → wd; "
               "momentum_correction: scales momentum by the global rate's change (no effect "
               "at a constant rate)",
          gotchas=["multi_lars computes the rates in float32 (sqrtf): ~4e-10 relative in "
                   "float64",
                   "through gluon.Trainer LARS scales every parameter, biases too: it skips "
                   "names ending in gamma/beta/bias only when param_idx2name names them "
                   "(Module API) — Trainer passes none (mx.gluon.Trainer [optimizer='lars'] "
                   "checks it)"],
          check=check(_mx("mx.optimizer.create('lars', learning_rate=0.1, momentum=0.9, "
                          "eta=0.01, wd=0.01)"),
                      _pt("MXNetLARS(params, lr=0.1, momentum=0.9, eta=0.01, wd=0.01)",
                          recipe=R.LARS),
                      rtol=1e-7, atol=2e-8,
                      note="float64: rates through multi_lars (float32) and preloaded "
                           "float32 rate arrays")),
    # --------------------------------------------------------------- Adam family
    entry("mx.optimizer.Adam",
          torch="MXNetAdam(params, lr=learning_rate, beta1=beta1, beta2=beta2, "
                "epsilon=epsilon, wd=wd, clip_gradient=clip_gradient)",
          status=RECIPE, recipe=R.ADAM,
          args="learning_rate → lr; beta1, beta2 → beta1, beta2; epsilon → epsilon; wd → wd "
               "(added to the gradient, as Adam's weight_decay); clip_gradient → "
               "clip_gradient (after wd is added); rescale_grad → scale the loss",
          defaults="the same as torch.optim.Adam's (1e-3, 0.9, 0.999, 1e-8)",
          gotchas=["MXNet divides by √v + ε with both bias corrections in the rate: "
                   "torch.optim.Adam with eps/√(1 − β₂ᵗ) — 31.6·ε at step 1. The check runs "
                   "gradients of 1e-7 (near ε), where torch.optim.Adam(eps=epsilon) is ~3 % "
                   "off after 4 steps and this recipe agrees",
                   "adam_update receives lr·√(1−β₂ᵗ)/(1−β₁ᵗ), β₁, β₂, ε and wd as float32: "
                   "float64 runs part by ~4e-7 relative (1 − float32(0.999) is 1.3e-5 off)",
                   "adam_update clips grad·rescale_grad + wd·w (wd inside the clip)"],
          teach=_T8 + "4. Adam, and where its `epsilon` goes",
          note="torch.optim.Adam(params, lr=learning_rate, betas=(beta1, beta2), eps=epsilon, "
               "weight_decay=wd) is the same rule but for ε's place (notebook 8 §4: ~1e-4 of "
               "a step on a least-squares problem; the VAE deep dive optim_adam_vae: >10 % "
               "after 200 steps). sidebyside.optim.mxnet_adam_settings(opt, t, ...) before "
               "step t sets a torch.optim.Adam to take MXNet's steps; the Gluon optimizer "
               "'torchadam' takes PyTorch's. AdamW: MXNet 1.9.1 has none "
               "(nd.contrib.adamw_update only).",
          check=check(_mx("mx.optimizer.create('adam', learning_rate=0.01, wd=1e-7)",
                          _S2 + ", scale=1e-7"),
                      _pt("MXNetAdam(params, lr=0.01, wd=1e-7)", _S2 + ", scale=1e-7",
                          recipe=R.ADAM),
                      rtol=2e-7, atol=2e-7,
                      note="float64: adam_update's float32 hyper-parameters, ~4e-7 relative "
                           "(1 − float32(0.999) is 1.3e-5 off)")),
    entry("mx.optimizer.Adamax",
          torch="torch.optim.Adamax(params, lr=learning_rate, betas=(beta1, beta2), eps=0, "
                "weight_decay=wd)",
          status=ARGS,
          args="learning_rate → lr; beta1, beta2 → betas=(beta1, beta2); wd → weight_decay; "
               "eps=0 (MXNet's u = max(β₂u, |g|) has no ε); clip_gradient: MXNet clips "
               "grad·rescale_grad + wd·w, after the decay (no PyTorch argument)",
          defaults="eps: none vs 1e-8 (PyTorch adds it to |g|): eps=0; learning_rate 0.002 in "
                   "both",
          gotchas=["Adamax is NDArray arithmetic with Python-float scalars: float64 agrees "
                   "to the last bit (0.0 measured)"],
          check=check(_mx("mx.optimizer.create('adamax', learning_rate=0.01, beta1=0.8, "
                          "wd=0.01)"),
                      _pt("torch.optim.Adamax(params, lr=0.01, betas=(0.8, 0.999), eps=0, "
                          "weight_decay=0.01)"))),
    entry("mx.optimizer.Nadam",
          torch="MXNetNadam(params, lr=learning_rate, beta1=beta1, beta2=beta2, "
                "epsilon=epsilon, schedule_decay=schedule_decay, wd=wd)",
          status=RECIPE, recipe=R.NADAM,
          args="learning_rate → lr; beta1, beta2, epsilon, schedule_decay → the same; wd → wd",
          gotchas=["MXNet keeps one momentum schedule (m_schedule) per optimizer and advances "
                   "it at every parameter's update: with two parameters "
                   "torch.optim.NAdam(momentum_decay=schedule_decay) is ~0.7 % off after 4 "
                   "steps; with a single parameter it is the same rule (the check runs both)"],
          check=check("""
              from sidebyside.catalogue.harness_optim import mx_traj
              two = mx_traj(mx.optimizer.create('nadam', learning_rate=0.01, wd=0.01),
                            dtype=dtype, shapes=((2, 3), (4,)))
              one = mx_traj(mx.optimizer.create('nadam', learning_rate=0.01, beta1=0.8),
                            dtype=dtype)
              (two, one)""", _with(R.NADAM, """
              from sidebyside.catalogue.harness_optim import torch_traj
              two = torch_traj(lambda params: MXNetNadam(params, lr=0.01, wd=0.01),
                               dtype=dtype, shapes=((2, 3), (4,)))
              one = torch_traj(lambda params: torch.optim.NAdam(
                  params, lr=0.01, betas=(0.8, 0.999), momentum_decay=0.004), dtype=dtype)
              (two, one)"""), rtol=1e-8, atol=1e-12,
                      note="float64: the single-parameter torch.optim.NAdam run parts by "
                           "~2e-10 relative (another order of operations)")),

    # ------------------------------------------------------ adaptive, float32 state
    entry("mx.optimizer.AdaGrad",
          torch="torch.optim.Adagrad(params, lr=learning_rate, eps=0, "
                "initial_accumulator_value=eps)",
          status=ARGS,
          args="learning_rate → lr; eps → initial_accumulator_value (with eps=0); wd → see "
               "the form wd",
          defaults="eps 1e-7 inside the root (√(h + eps)) vs PyTorch's eps=1e-10 outside it "
                   "(√h + eps): starting the sum at eps with eps=0 is MXNet's rule exactly; "
                   "learning_rate 0.01 in both",
          gotchas=["torch.optim.Adagrad(params, lr=learning_rate) with its own eps is close "
                   "but not equal (~5e-7 relative after 4 float32 steps)"],
          teach=_T8 + "5. RMSProp, Adagrad, Adadelta",
          note=_F32ONLY.format("AdaGrad"),
          check=check(_mx("mx.optimizer.create('adagrad', learning_rate=0.1)", _S2 + _SMALL),
                      _pt("torch.optim.Adagrad(params, lr=0.1, eps=0, "
                          "initial_accumulator_value=1e-7)", _S2 + _SMALL),
                      dtypes=("float32",), note=_F32ONLY.format("AdaGrad"))),
    entry("mx.optimizer.AdaGrad", form="wd", when=["wd"],
          torch="step_with_mxnet_wd(torch.optim.Adagrad(params, lr=learning_rate, eps=0, "
                "initial_accumulator_value=eps), params, learning_rate * wd)",
          status=RECIPE, recipe=R.DECOUPLED_WD,
          args="wd → decay the weight by lr·wd outside the adaptive step (not weight_decay)",
          gotchas=["MXNet's AdaGrad does w ← w − lr·(g/√(h + eps) + wd·w): the decay never "
                   "enters the history; PyTorch's weight_decay adds wd·w to the gradient "
                   "first"],
          teach=_RULES + "5. Adagrad's weight decay",
          check=check(_mx("mx.optimizer.create('adagrad', learning_rate=0.1, wd=0.2)",
                          _S2 + _SMALL),
                      _pt("torch.optim.Adagrad(params, lr=0.1, eps=0, "
                          "initial_accumulator_value=1e-7)", _S2 + _SMALL, recipe=R.DECOUPLED_WD,
                          step="lambda opt, ps: step_with_mxnet_wd(opt, ps, 0.1 * 0.2)"),
                      dtypes=("float32",), note=_F32ONLY.format("AdaGrad"))),
    entry("mx.optimizer.AdaDelta",
          torch="torch.optim.Adadelta(params, lr=1.0, rho=rho, eps=epsilon)",
          status=ARGS,
          args="rho → rho; epsilon → eps; learning_rate: ignored by MXNet (lr=1.0); wd → see "
               "the form wd",
          defaults="epsilon 1e-5 vs eps 1e-6; MXNet's step has no rate (PyTorch's default "
                   "lr=1.0 is the same step)",
          gotchas=["MXNet's AdaDelta ignores learning_rate (and so lr_scheduler and "
                   "set_learning_rate): the check gives MXNet learning_rate=0.5 and PyTorch "
                   "lr=1.0"],
          teach=_T8 + "5. RMSProp, Adagrad, Adadelta",
          note=_F32ONLY.format("AdaDelta") + ". It also rescales the gradient in place "
               "(grad *= rescale_grad; read from optimizer.py). The Gluon optimizer "
               "'torchadadelta' (sidebyside.optim) takes torch.optim.Adadelta's steps.",
          check=check(_mx("mx.optimizer.create('adadelta', learning_rate=0.5, rho=0.95)"),
                      _pt("torch.optim.Adadelta(params, lr=1.0, rho=0.95, eps=1e-5)"),
                      dtypes=("float32",), note=_F32ONLY.format("AdaDelta"))),
    entry("mx.optimizer.AdaDelta", form="wd", when=["wd"],
          torch="step_with_mxnet_wd(torch.optim.Adadelta(params, lr=1.0, rho=rho, "
                "eps=epsilon), params, wd)",
          status=RECIPE, recipe=R.DECOUPLED_WD,
          args="wd → decay the weight by wd outside the adaptive step (w ← w − delta − wd·w)",
          gotchas=["MXNet's AdaDelta decays the weight outside the step (its docstring says "
                   "the gradient gets wd·w; the code does not): weight_decay=wd differs"],
          teach=_RULES + "4. Adadelta's weight decay",
          check=check(_mx("mx.optimizer.create('adadelta', rho=0.95, wd=0.1)"),
                      _pt("torch.optim.Adadelta(params, lr=1.0, rho=0.95, eps=1e-5)",
                          recipe=R.DECOUPLED_WD,
                          step="lambda opt, ps: step_with_mxnet_wd(opt, ps, 0.1)"),
                      dtypes=("float32",), note=_F32ONLY.format("AdaDelta"))),
    entry("mx.optimizer.RMSProp",
          torch="MXNetRMSProp(params, lr=learning_rate, gamma1=gamma1, epsilon=epsilon, wd=wd)",
          status=RECIPE, recipe=R.RMSPROP,
          args="learning_rate → lr; gamma1 → gamma1 (PyTorch's alpha); epsilon → epsilon; "
               "wd → wd (added to the gradient); clip_weights: clamp the weight after the "
               "step (not in the recipe)",
          defaults="learning_rate 0.001 vs lr 0.01; gamma1 0.9 vs alpha 0.99 (PyTorch)",
          gotchas=["MXNet divides by √(n + ε), PyTorch's RMSprop by √n + ε: no "
                   "torch.optim.RMSprop argument gives MXNet's step"],
          teach=_T8 + "5. RMSProp, Adagrad, Adadelta",
          note=_F32ONLY.format("RMSProp"),
          check=check(_mx("mx.optimizer.create('rmsprop', learning_rate=0.01, gamma1=0.95, "
                          "wd=0.01)", _S2 + ", scale=1e-4"),
                      _pt("MXNetRMSProp(params, lr=0.01, gamma1=0.95, wd=0.01)",
                          _S2 + ", scale=1e-4", recipe=R.RMSPROP),
                      dtypes=("float32",), note=_F32ONLY.format("RMSProp"))),
    entry("mx.optimizer.RMSProp", form="centered=True", when=["centered=True"],
          signature=("learning_rate", "gamma1", "gamma2", "epsilon", "centered"),
          torch="MXNetRMSProp(params, lr=learning_rate, gamma1=gamma1, gamma2=gamma2, "
                "epsilon=epsilon, centered=True, wd=wd)",
          status=RECIPE, recipe=R.RMSPROP,
          args="learning_rate → lr; gamma1 → gamma1 (alpha); gamma2 → gamma2 (PyTorch's "
               "momentum); epsilon → epsilon; wd → wd",
          gotchas=["Graves' form: delta ← γ₂·delta − lr·g/√(n − ḡ² + ε), w ← w + delta. "
                   "RMSprop(centered=True, momentum=gamma2) keeps g/(√(n − ḡ²) + ε) in its "
                   "buffer, the rate outside, ε outside the root"],
          note=_F32ONLY.format("RMSProp"),
          check=check(_mx("mx.optimizer.create('rmsprop', learning_rate=0.01, gamma1=0.95, "
                          "gamma2=0.8, centered=True, wd=0.01)", _S2 + ", scale=1e-4"),
                      _pt("MXNetRMSProp(params, lr=0.01, gamma1=0.95, gamma2=0.8, "
                          "centered=True, wd=0.01)", _S2 + ", scale=1e-4", recipe=R.RMSPROP),
                      dtypes=("float32",), note=_F32ONLY.format("RMSProp"))),
    entry("mx.optimizer.FTML",
          torch="MXNetFTML(params, lr=learning_rate, beta1=beta1, beta2=beta2, "
                "epsilon=epsilon, wd=wd)",
          status=RECIPE, recipe=R.FTML,
          args="learning_rate → lr; beta1, beta2, epsilon → the same; wd → wd (added to "
               "the gradient)",
          defaults="learning_rate 0.01 (the base Optimizer's)",
          gotchas=[f"{_F32}: ~1e-9 relative in float64"],
          check=check(_mx("mx.optimizer.create('ftml', wd=0.01)"),
                      _pt("MXNetFTML(params, lr=0.01, wd=0.01)", recipe=R.FTML),
                      rtol=1e-7, atol=2e-8,
                      note="float64: hyper-parameters rounded to float32 by ftml_update")),
    entry("mx.optimizer.Ftrl",
          torch="MXNetFtrl(params, lr=learning_rate, lamda1=lamda1, beta=beta, wd=wd)",
          status=RECIPE, recipe=R.FTRL,
          args="learning_rate → lr; lamda1 → lamda1; beta → beta; wd → wd",
          defaults="learning_rate 0.1",
          note=_F32ONLY.format("Ftrl"),
          check=check(_mx("mx.optimizer.create('ftrl', wd=0.01)"),
                      _pt("MXNetFtrl(params, lr=0.1, lamda1=0.01, beta=1.0, wd=0.01)",
                          recipe=R.FTRL),
                      dtypes=("float32",), note=_F32ONLY.format("Ftrl"))),
    entry("mx.optimizer.LAMB",
          torch="MXNetLAMB(params, lr=learning_rate, beta1=beta1, beta2=beta2, "
                "epsilon=epsilon, wd=wd, bias_correction=bias_correction)",
          status=RECIPE, recipe=R.LAMB,
          args="learning_rate → lr; beta1, beta2, epsilon, bias_correction → the same; wd → "
               "wd (added after the adaptive step); lower_bound/upper_bound: clamp ‖w‖ "
               "(not in the recipe)",
          gotchas=[f"{_F32}: ~4e-9 relative in float64 (two parameters: multi_lamb_update)"],
          check=check(_mx("mx.optimizer.create('lamb', learning_rate=0.01, wd=0.01)"),
                      _pt("MXNetLAMB(params, lr=0.01, wd=0.01)", recipe=R.LAMB),
                      rtol=1e-7, atol=2e-8,
                      note="float64: hyper-parameters rounded to float32 by the kernels")),
    entry("mx.optimizer.contrib.GroupAdaGrad",
          torch="MXNetGroupAdaGrad(params, lr=learning_rate, eps=eps)",
          status=RECIPE, recipe=R.GROUPADAGRAD,
          args="learning_rate → lr; eps → eps (inside the root); wd: refused by MXNet",
          note=_F32ONLY.format("GroupAdaGrad") + "; 2-D weights only.",
          check=check(_mx("mx.optimizer.contrib.GroupAdaGrad(learning_rate=0.1)",
                          ", shapes=((2, 3), (3, 2))"),
                      _pt("MXNetGroupAdaGrad(params, lr=0.1)", ", shapes=((2, 3), (3, 2))",
                          recipe=R.GROUPADAGRAD),
                      dtypes=("float32",), note=_F32ONLY.format("GroupAdaGrad"))),
    entry("mx.optimizer.Test",
          torch="mxnet_test_step(params, rescale_grad)",
          status=COMPOSITE, recipe=R.TEST,
          args="rescale_grad → rescale_grad",
          gotchas=["MXNet's test optimizer *adds* the gradient (w ← w + rescale_grad·g) and "
                   "ignores learning_rate and wd"],
          check=check(_mx("mx.optimizer.create('test', learning_rate=0.3, rescale_grad=0.5)"),
                      _pt("None", recipe=R.TEST,
                          step="lambda opt, ps: mxnet_test_step(ps, 0.5)"))),
    # ------------------------------------------------------------- the machinery
    entry("mx.optimizer.create", aliases=["mx.optimizer.Optimizer.create_optimizer"],
          torch="OPTIMIZERS[name.lower()](params, **options)",
          status=COMPOSITE, recipe=R.BUILDERS,
          args="name → the key (MXNet lower-cases it); **kwargs → the builder's MXNet-named "
               "options (each optimizer's entry maps the rest)",
          gotchas=["create looks the name up case-insensitively ('NAG', 'Adamax'); its "
                   "defaults are the optimizer class's (SGD: learning_rate 0.01)"],
          check=check("""
              from sidebyside.catalogue.harness_optim import mx_traj
              NAME = 'NAG'
              [mx_traj(mx.optimizer.create(NAME, learning_rate=0.1, momentum=0.9), dtype=dtype),
               mx_traj(mx.optimizer.create('SGD', wd=0.1), dtype=dtype)]""",
                      _with(R.BUILDERS, """
                          from sidebyside.catalogue.harness_optim import torch_traj
                          NAME = 'NAG'
                          [torch_traj(lambda params: OPTIMIZERS[NAME.lower()](
                               params, learning_rate=0.1, momentum=0.9), dtype=dtype),
                           torch_traj(lambda params: OPTIMIZERS['sgd'](params, wd=0.1),
                                      dtype=dtype)]"""),
                      rtol=1e-7, atol=2e-8,
                      note="float64: hyper-parameters rounded to float32 by the kernels")),
    entry("mx.optimizer.create", form="name='sgd'", when=["name='sgd'"], signature=("name",),
          torch="torch.optim.SGD(params, lr=learning_rate, momentum=momentum, weight_decay=wd)",
          status=ARGS,
          args="learning_rate → lr; momentum → momentum; wd → weight_decay; rescale_grad → "
               "scale the loss; clip_gradient → mx.optimizer.SGD [clip_gradient]",
          defaults="learning_rate 0.01 vs lr 1e-3",
          teach=_T8 + "2. SGD with momentum and weight decay",
          check=check(_mx("mx.optimizer.create('sgd', learning_rate=0.05, momentum=0.5, "
                          "wd=1e-3)"),
                      _pt("torch.optim.SGD(params, lr=0.05, momentum=0.5, weight_decay=1e-3)"),
                      rtol=1e-7, atol=2e-8,
                      note="float64: hyper-parameters rounded to float32 by the kernel")),
    entry("mx.optimizer.Optimizer",
          torch="torch.optim.Optimizer(params, defaults)",
          status=COMPOSITE, recipe=_CUSTOM_PT,
          args="__init__(**kwargs) → __init__(params, lr=…, …) passing the options as "
               "`defaults` (per-group settings); create_state → fill self.state[p] on the "
               "first step; update(index, weight, grad, state) → step() looping over "
               "param_groups; _get_lr/_get_wd → group['lr'], group[…]; rescale_grad → "
               "scale the loss",
          gotchas=["the port of a custom optimizer (momentum with wd in the gradient) takes "
                   "the same float64 steps as the MXNet subclass"],
          check=_CUSTOM_CHECK),
    entry("mx.optimizer.Optimizer.create_state",
          torch="self.state[p]", status=COMPOSITE, recipe=_CUSTOM_PT,
          args="create_state(index, weight) → on the first step() of p: "
               "self.state[p]['mom'] = torch.zeros_like(p) (state_dict() saves it)",
          check=_CUSTOM_CHECK),
    entry("mx.optimizer.Optimizer.update",
          torch="torch.optim.Optimizer.step()", status=COMPOSITE, recipe=_CUSTOM_PT,
          args="update(index, weight, grad, state) → step(): for each p with p.grad: the "
               "same arithmetic in place under torch.no_grad()",
          check=_CUSTOM_CHECK),
    entry("mx.optimizer.Optimizer.multi_precision",
          torch="step_on_master(optimizer, params16, float32_master(params16))",
          status=RECIPE, recipe=_MP_RECIPE,
          args="multi_precision=True → build the optimizer on float32 copies of the float16 "
               "parameters, step them, copy back (or keep float32 parameters and use "
               "torch.autocast)",
          gotchas=["with multi_precision=True a float16 weight's update runs on a float32 "
                   "master copy (SGD's state: (momentum, master)); the check compares the "
                   "float16 weights and the float32 master"],
          check=_MP_CHECK),
    entry("mx.optimizer.Optimizer.create_state_multi_precision",
          torch="float32_master(params16)", status=RECIPE, recipe=_MP_RECIPE,
          args="create_state_multi_precision(index, weight) → float32 master copies",
          check=_MP_CHECK),
    entry("mx.optimizer.Optimizer.update_multi_precision",
          torch="step_on_master(optimizer, params16, master)", status=RECIPE,
          recipe=_MP_RECIPE,
          args="update_multi_precision(index, weight, grad, state) → step the float32 "
               "master, copy it into the float16 weight",
          check=_MP_CHECK),
    entry("mx.optimizer.register", aliases=["mx.optimizer.Optimizer.register"],
          torch="MyMomentum(params, lr=0.1, momentum=0.8, wd=0.01)",
          status=COMPOSITE, recipe=_CUSTOM_PT,
          args="@mx.optimizer.register on a subclass, then create('mymomentum') or "
               "Trainer(params, 'mymomentum') → call the torch.optim.Optimizer subclass "
               "(PyTorch has no registry: keep a dict of classes if names come from a config)",
          gotchas=["MXNet registers under the lower-cased class name, and create looks it up "
                   "case-insensitively"],
          check=check(_CUSTOM_MX + "mx.optimizer.register(MyMomentum)\n"
                      + _mx("mx.optimizer.create('MyMomentum', learning_rate=0.1, momentum=0.8, "
                            "wd=0.01)"),
                      _pt("MyMomentum(params, lr=0.1, momentum=0.8, wd=0.01)",
                          recipe=_CUSTOM_PT))),
    entry("mx.optimizer.get_updater",
          torch="p.grad = grad; optimizer.step()",
          status=COMPOSITE,
          args="updater = get_updater(optimizer); updater(index, grad, weight) → set each "
               "parameter's .grad, then optimizer.step() (one call updates every parameter); "
               "updater.get_states()/set_states() → optimizer.state_dict()/load_state_dict()",
          gotchas=["the updater creates each index's state on its first call, as PyTorch "
                   "creates self.state[p] on the first step (Adamax: exact in float64)"],
          check=check(_UPDATER_MX.replace("UPDATER", "mx.optimizer.get_updater"), _UPDATER_PT)),
    entry("mx.optimizer.Updater",
          torch="p.grad = grad; optimizer.step()",
          status=COMPOSITE,
          args="Updater(optimizer) is what get_updater returns: see mx.optimizer.get_updater",
          check=check(_UPDATER_MX.replace("UPDATER", "mx.optimizer.Updater"), _UPDATER_PT)),
    entry("mx.optimizer.Optimizer.learning_rate",
          torch="optimizer.param_groups[0]['lr']",
          status=COMPOSITE,
          args="optimizer.learning_rate → optimizer.param_groups[0]['lr'] (every group's "
               "'lr' when there are several)",
          gotchas=["with an lr_scheduler, MXNet's learning_rate after update k is "
                   "scheduler(k): the rate update k used; PyTorch's group 'lr' after "
                   "scheduler.step() is the next update's — read it between "
                   "optimizer.step() and scheduler.step()"],
          teach=_T8 + "7. Learning-rate schedules, and the momentum that remembers the old "
                      "rate",
          check=check("""
              from sidebyside.catalogue.harness_optim import mx_traj
              rates = []
              opt = mx.optimizer.create('sgd', lr_scheduler=mx.lr_scheduler.FactorScheduler(
                  2, factor=0.5, base_lr=0.1))
              mx_traj(opt, dtype=dtype, steps=6,
                      before_step=lambda o, t: rates.append(o.learning_rate) if t > 1 else 0)
              onp.array(rates + [opt.learning_rate])""", """
              p = torch.nn.Parameter(torch.zeros(1, dtype=dtype))
              optimizer = torch.optim.SGD([p], lr=0.1)
              scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 2, gamma=0.5)
              rates = []
              for _ in range(6):
                  p.grad = torch.ones(1, dtype=dtype)
                  optimizer.step()
                  rates.append(optimizer.param_groups[0]['lr'])
                  scheduler.step()
              onp.array(rates)""", dtypes=("float64",))),
    entry("mx.optimizer.Optimizer.set_learning_rate",
          torch="for group in optimizer.param_groups: group['lr'] = lr",
          status=COMPOSITE, recipe=_SET_LR,
          args="set_learning_rate(lr) → set every param group's 'lr'; with momentum, "
               "set_lr_like_mxnet(optimizer, lr) keeps MXNet's steps",
          gotchas=["without momentum the new rate applies from the next step in both",
                   "with momentum MXNet's buffer holds steps (lr·g) and keeps the old rate's "
                   "steps; PyTorch's holds gradients and rescales them at once: scale each "
                   "momentum_buffer by old_lr/new_lr to take MXNet's steps",
                   "set_learning_rate raises UserWarning when the optimizer has an "
                   "lr_scheduler"],
          teach=_T8 + "7. Learning-rate schedules, and the momentum that remembers the old "
                      "rate",
          check=check("""
              from sidebyside.catalogue.harness_optim import mx_traj
              change = lambda o, t: o.set_learning_rate(0.02) if t == 3 else None
              [mx_traj(mx.optimizer.create('sgd', learning_rate=0.1), dtype=dtype,
                       before_step=change),
               mx_traj(mx.optimizer.create('sgd', learning_rate=0.1, momentum=0.9),
                       dtype=dtype, before_step=change)]""", _with(_SET_LR, """
              from sidebyside.catalogue.harness_optim import torch_traj


              def plain(optimizer, t):
                  if t == 3:
                      for group in optimizer.param_groups:
                          group['lr'] = 0.02


              [torch_traj(lambda params: torch.optim.SGD(params, lr=0.1), dtype=dtype,
                          before_step=plain),
               torch_traj(lambda params: torch.optim.SGD(params, lr=0.1, momentum=0.9),
                          dtype=dtype,
                          before_step=lambda o, t: set_lr_like_mxnet(o, 0.02) if t == 3
                          else None)]"""), rtol=1e-7, atol=2e-8,
              note="float64: hyper-parameters rounded to float32 by the kernels")),
    entry("mx.optimizer.Optimizer.set_lr_mult",
          torch="torch.optim.SGD([{'params': [p0], 'lr': lr * mult}, {'params': others}], "
                "lr=lr)",
          status=COMPOSITE,
          args="set_lr_mult({index_or_name: mult}) → a param group per multiplier with "
               "'lr': lr·mult (a scheduler then scales every group)",
          gotchas=["the multiplier scales the rate of that parameter only: the check "
                   "gives index 0 a quarter of the rate"],
          note="gluon.Trainer passes param_dict: there Parameter.lr_mult is used and "
               "set_lr_mult's entries for those indices are not read (optimizer.py "
               "_get_lrs).",
          check=check("""
              from sidebyside.catalogue.harness_optim import mx_traj
              opt = mx.optimizer.create('sgd', learning_rate=0.1, momentum=0.9)
              opt.set_lr_mult({0: 0.25})
              mx_traj(opt, dtype=dtype, shapes=((2, 3), (4,)))""", """
              from sidebyside.catalogue.harness_optim import torch_traj
              torch_traj(lambda ps: torch.optim.SGD(
                  [{'params': ps[:1], 'lr': 0.1 * 0.25}, {'params': ps[1:]}], lr=0.1,
                  momentum=0.9), dtype=dtype, shapes=((2, 3), (4,)))""",
              rtol=1e-7, atol=2e-8,
              note="float64: hyper-parameters rounded to float32 by the kernels")),
    entry("mx.optimizer.Optimizer.set_wd_mult",
          torch="torch.optim.SGD([{'params': weights, 'weight_decay': wd * mult}, "
                "{'params': biases, 'weight_decay': 0}], lr=lr)",
          status=COMPOSITE,
          args="set_wd_mult({name_or_index: mult}) → a param group per multiplier with "
               "'weight_decay': wd·mult",
          gotchas=["given param_idx2name, MXNet gives wd_mult 0 to every name not ending in "
                   "_weight or _gamma (biases, betas are not decayed) before your multipliers; "
                   "PyTorch decays every parameter of a group: put those in a group with "
                   "weight_decay=0"],
          note="gluon.Trainer passes param_dict and no names: Parameter.wd_mult decides there "
               "(biases are decayed unless their wd_mult is 0).",
          check=check("""
              from sidebyside.catalogue.harness_optim import mx_traj
              opt = mx.optimizer.create('sgd', learning_rate=0.1, wd=0.1,
                                        param_idx2name={0: 'fc_weight', 1: 'fc_bias'})
              opt.set_wd_mult({'fc_weight': 0.5})
              mx_traj(opt, dtype=dtype, shapes=((2, 3), (4,)))""", """
              from sidebyside.catalogue.harness_optim import torch_traj
              torch_traj(lambda ps: torch.optim.SGD(
                  [{'params': ps[:1], 'weight_decay': 0.1 * 0.5},
                   {'params': ps[1:], 'weight_decay': 0}], lr=0.1), dtype=dtype,
                  shapes=((2, 3), (4,)))""", rtol=1e-7, atol=2e-8,
              note="float64: hyper-parameters rounded to float32 by the kernels")),
]
