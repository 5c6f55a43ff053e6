"""`mx.lr_scheduler`: the schedules, compared update by update (harness.mx_lrs/torch_lrs)."""
from ..model import ARGS, COMPOSITE, RECIPE, check, entry

_T = "08_optimizers_trainer §7. Learning-rate schedules, and the momentum that remembers the old rate"
_T6 = "deep_dives/optim_rules §6. Learning-rate schedules, update by update"
_MX = "from sidebyside.catalogue.harness import mx_lrs\nmx_lrs({})"
_PT = "from sidebyside.catalogue.harness import torch_lrs\ntorch_lrs({}, 0.1)"
_COUNT = ("MXNet calls scheduler(num_update) inside every optimizer update, num_update = 1 at "
          "the first update; PyTorch's scheduler.step() is the caller's, and the rate of "
          "update k (from 1) is the schedule at epoch k − 1 when step() follows every "
          "optimizer.step(). Stepped once per epoch, set MXNet's step to the batches per epoch")
_F32 = ("MXNet's SGD applies the rate through float32 (its kernel's lr argument): each "
        "update's rate is the float32 rounding of PyTorch's: up to 5.1e-8 relative (1.5e-9 "
        "absolute at 0.05, measured), within float32's 2⁻²⁴ = 6e-8, the check's rtol")


def _chk(mx, torch, **kw):
    return check(_MX.format(mx), _PT.format(torch), dtypes=("float64",), rtol=6e-8, atol=0,
                 note="the rate passes through float32 in MXNet's SGD kernel: relative "
                      "gaps up to 5.1e-8 measured, bound 2⁻²⁴", **kw)


ENTRIES = [
    entry("mx.lr_scheduler.FactorScheduler",
          torch="torch.optim.lr_scheduler.StepLR(optimizer, step_size=step, gamma=factor)",
          status=ARGS,
          args="step → step_size; factor → gamma; base_lr → the optimizer's lr; "
               "stop_factor_lr (the floor, 1e-8) has no StepLR argument",
          defaults="factor 1 (no decay)",
          gotchas=[_COUNT, "the rate first drops at update step + 1, as StepLR stepped per "
                   "update (the docstring's base_lr·factor^⌊n/step⌋ would drop at update "
                   "step)", _F32,
                   "MXNet's scheduler is stateful (it keeps count and the current rate): "
                   "do not share one instance between optimizers"],
          teach=_T,
          check=_chk("mx.lr_scheduler.FactorScheduler(3, factor=0.5, base_lr=0.1)",
                     "lambda o: torch.optim.lr_scheduler.StepLR(o, 3, gamma=0.5)")),
    entry("mx.lr_scheduler.FactorScheduler", form="warmup_steps", when=["warmup_steps"],
          signature=("step", "factor", "stop_factor_lr", "base_lr", "warmup_steps"),
          torch="torch.optim.lr_scheduler.LambdaLR(optimizer, lambda e: (warmup_begin_lr + "
                "(base_lr - warmup_begin_lr) * (e + 1) / warmup_steps) / base_lr if e + 1 < "
                "warmup_steps else factor ** (e // step))",
          status=COMPOSITE,
          args="warmup_steps, warmup_begin_lr, warmup_mode='linear' → the first branch "
               "(update k = e + 1); warmup_mode='constant' → warmup_begin_lr / base_lr",
          gotchas=["the warm-up updates count towards step: FactorScheduler(3, 0.5, "
                   "warmup_steps=4) runs 0.0325, 0.055, 0.0775 then 0.05 (already halved) "
                   "from base 0.1 (measured)",
                   "the linear warm-up reaches base_lr only at update warmup_steps, which "
                   "the step rule already ran"],
          teach=_T,
          check=_chk("mx.lr_scheduler.FactorScheduler(3, factor=0.5, base_lr=0.1, "
                     "warmup_steps=4, warmup_begin_lr=0.01)",
                     "lambda o: torch.optim.lr_scheduler.LambdaLR(o, lambda e: (0.01 + "
                     "(0.1 - 0.01) * (e + 1) / 4) / 0.1 if e + 1 < 4 else 0.5 ** (e // 3))")),
    entry("mx.lr_scheduler.MultiFactorScheduler",
          torch="torch.optim.lr_scheduler.MultiStepLR(optimizer, milestones=step, "
                "gamma=factor)",
          status=ARGS,
          args="step (a list, increasing) → milestones; factor → gamma; base_lr → the "
               "optimizer's lr",
          gotchas=[_COUNT, "the rate drops at update milestone + 1 on both sides", _F32],
          teach=_T6,
          check=_chk("mx.lr_scheduler.MultiFactorScheduler([3, 7], factor=0.5, base_lr=0.1)",
                     "lambda o: torch.optim.lr_scheduler.MultiStepLR(o, [3, 7], gamma=0.5)")),
    entry("mx.lr_scheduler.PolyScheduler",
          torch="torch.optim.lr_scheduler.LambdaLR(optimizer, lambda e: (final_lr + "
                "(base_lr - final_lr) * (1 - min(e + 1, max_update) / max_update) ** pwr) "
                "/ base_lr)",
          status=COMPOSITE,
          args="max_update, pwr, final_lr → the lambda (update k = e + 1)",
          defaults="pwr 2 (PolynomialLR's power is 1)",
          gotchas=["PolynomialLR(o, max_update, power=pwr) runs one update behind: MXNet "
                   "counts from 1, so its first update already uses (1 − 1/max_update)^pwr "
                   "(0.081 vs 0.1 for max_update 10, pwr 2: measured); PolynomialLR has no "
                   "final_lr", _COUNT],
          teach=_T6,
          check=_chk("mx.lr_scheduler.PolyScheduler(10, base_lr=0.1, pwr=2, final_lr=0.01)",
                     "lambda o: torch.optim.lr_scheduler.LambdaLR(o, lambda e: (0.01 + "
                     "(0.1 - 0.01) * (1 - min(e + 1, 10) / 10) ** 2) / 0.1)")),
    entry("mx.lr_scheduler.CosineScheduler",
          torch="torch.optim.lr_scheduler.LambdaLR(optimizer, lambda e: (final_lr + "
                "(base_lr - final_lr) * (1 + math.cos(math.pi * min(e + 1, max_update) / "
                "max_update)) / 2) / base_lr)",
          status=COMPOSITE,
          args="max_update, final_lr → the lambda (update k = e + 1)",
          gotchas=["CosineAnnealingLR(o, max_update, eta_min=final_lr) runs one update "
                   "behind (MXNet counts from 1: its first update uses 0.0978 of 0.1 where "
                   "PyTorch uses 0.1, measured), and past T_max it rises again where "
                   "MXNet stays at final_lr", _COUNT],
          teach=_T6,
          check=_chk("mx.lr_scheduler.CosineScheduler(10, base_lr=0.1, final_lr=0.01)",
                     "lambda o: torch.optim.lr_scheduler.LambdaLR(o, lambda e: (0.01 + "
                     "(0.1 - 0.01) * (1 + math.cos(math.pi * min(e + 1, 10) / 10)) / 2) "
                     "/ 0.1)")),
    entry("mx.lr_scheduler.LRScheduler",
          torch="torch.optim.lr_scheduler.LambdaLR(optimizer, lambda e: rate(e + 1) / base_lr)",
          status=RECIPE,
          recipe="""
              def rate(num_update):            # the subclass's __call__(num_update)
                  return 0.1 / (1 + 0.5 * num_update)
              scheduler = torch.optim.lr_scheduler.LambdaLR(
                  optimizer, lambda e: rate(e + 1) / 0.1)   # step() after optimizer.step()""",
          args="a subclass's __call__(num_update) → LambdaLR of epoch e = num_update − 1, "
               "divided by the optimizer's lr (LambdaLR multiplies)",
          gotchas=[_COUNT],
          teach=_T6,
          check=check("""
              from sidebyside.catalogue.harness import mx_lrs
              class InvScheduler(mx.lr_scheduler.LRScheduler):
                  def __call__(self, num_update):
                      return self.base_lr / (1 + 0.5 * num_update)
              mx_lrs(InvScheduler(base_lr=0.1))""", """
              from sidebyside.catalogue.harness import torch_lrs
              def rate(num_update):
                  return 0.1 / (1 + 0.5 * num_update)
              torch_lrs(lambda o: torch.optim.lr_scheduler.LambdaLR(
                  o, lambda e: rate(e + 1) / 0.1), 0.1)""", dtypes=("float64",), rtol=6e-8,
              atol=0, note="the rate passes through float32 in MXNet's SGD kernel")),
]

ENTRIES += [
    entry("mx.lr_scheduler.LRScheduler.base_lr", torch="scheduler.base_lrs[0]",
          status=COMPOSITE,
          args="scheduler.base_lr → scheduler.base_lrs[0] (one per param group; the "
               "optimizer's lr when the scheduler was made, also "
               "optimizer.param_groups[0]['initial_lr'])",
          gotchas=["an optimizer created with learning_rate= overwrites its scheduler's "
                   "base_lr (FactorScheduler(3, base_lr=0.1) under create('sgd', "
                   "learning_rate=0.5) ends at base_lr 0.5, with a warning: measured); "
                   "PyTorch's base_lrs come from the optimizer's lr only"],
          check=check("""
              s = mx.lr_scheduler.FactorScheduler(3, base_lr=0.1)
              mx.optimizer.create('sgd', learning_rate=0.5, lr_scheduler=s)
              s.base_lr""", """
              p = torch.nn.Parameter(torch.zeros(1))
              scheduler = torch.optim.lr_scheduler.StepLR(torch.optim.SGD([p], lr=0.5), 3)
              scheduler.base_lrs[0]""", kind="exact", dtypes=("float64",))),
]
