"""mx.gluon.nn normalisation layers (BatchNorm, BatchNormReLU, InstanceNorm, LayerNorm,
GroupNorm) and mx.gluon.contrib.nn.SyncBatchNorm."""
from ..model import ARGS, COMPOSITE, check, entry

_BN_SIG = ("axis", "momentum", "epsilon", "center", "scale", "use_global_stats")
_BN_TEACH = "06_blocks §BatchNorm: the same default, written the other way round"
_BN_VAR = ("the running variance: MXNet 1.9.1 averages in the *biased* batch variance (÷n), "
           "PyTorch the unbiased one (÷(n − 1)): after one batch of n values per channel, "
           "MXNet's running_var = m·old + (1 − m)·var_biased, PyTorch's = m·old + (1 − m)·"
           "var_biased·n/(n − 1) (m = Gluon's momentum); with the default 0.9 and a "
           "4×3×2×2 batch (n = 16) they differ by 0.1·var_biased/15 per channel. The "
           "normalised outputs agree (both use the biased variance for the batch itself); the "
           "check compares MXNet's running_var with this formula evaluated on PyTorch's "
           "own update")
_BN_M32 = ("MXNet passes momentum to its kernel as a float32, also for float64 data: the running "
           "statistics are float32(0.9)·old + (1 − float32(0.9))·batch exactly, so the batch's "
           "weight is 0.0999999762, 2.4e-7 relative from 0.1")
_BN_NOTE = ("MXNet's CPU operator moves the running statistics in backward(), not in the "
            "forward pass (notebook 16 §5): a forward under record() without backward leaves "
            "them unchanged")

ENTRIES = [
    entry("mx.gluon.nn.BatchNorm",
          torch="torch.nn.BatchNorm2d(in_channels, eps=epsilon, momentum=1 - momentum)",
          status=ARGS,
          args="momentum → momentum=1 - momentum (0.9 → 0.1); epsilon → eps; in_channels → "
               "num_features (required; Gluon infers it when 0: torch.nn.LazyBatchNorm2d); "
               "axis=1 only (PyTorch's channel axis is always 1); the input's rank picks "
               "BatchNorm1d/2d/3d; gamma, beta → weight, bias; running_mean, running_var → "
               "the buffers of the same names",
          defaults="momentum 0.9 (weight of the old value) vs 0.1 (weight of the new value); "
                   "eps 1e-5 on both sides",
          gotchas=[_BN_VAR, _BN_M32,
                   "training mode: PyTorch's mod.train(), Gluon's autograd.record() "
                   "(train_mode=True)"],
          note=_BN_NOTE,
          teach=_BN_TEACH,
          check=check("""
              net = nn.BatchNorm(momentum=0.8, epsilon=1e-3)
              net(x)""", """
              from sidebyside.catalogue.harness_nn_layers import load, mxnet_running_var
              mod = nn.BatchNorm2d(3, eps=1e-3, momentum=1 - 0.8).to(dtype)
              rv = mxnet_running_var(mod)
              tparams = load([mod.weight, mod.bias, mod.running_mean, mod.running_var], P)
              tparams[3] = rv
              mod(x)""", inputs="x=U(4, 3, 2, 2)", grad="x", rtol=5e-7,
              note="float64: MXNet's momentum is float32(0.9): the batch's weight in the "
                   "running statistics is 2.4e-7 relative off 0.1")),
    entry("mx.gluon.nn.BatchNorm", form="use_global_stats=True",
          when=["use_global_stats=True"], signature=_BN_SIG,
          torch="torch.nn.BatchNorm2d(in_channels, eps=epsilon, momentum=1 - momentum).eval()",
          status=ARGS,
          args="use_global_stats=True → keep the PyTorch module in eval() mode (also while "
               "training: re-apply .eval() after every model.train()); or "
               "F.batch_norm(x, running_mean, running_var, weight, bias, training=False, "
               "eps=epsilon)",
          gotchas=["use_global_stats=True normalises with the running statistics even inside "
                   "autograd.record() and never updates them: PyTorch's eval() mode (the check "
                   "runs both in training mode and compares the statistics afterwards)"],
          teach=_BN_TEACH,
          check=check("""
              net = nn.BatchNorm(use_global_stats=True)
              net(x)""", """
              mod = nn.BatchNorm2d(3, eps=1e-5, momentum=1 - 0.9)
              mod.eval()(x)""", inputs="x=U(4, 3, 2, 2)", grad="x")),
    entry("mx.gluon.nn.BatchNorm", form="scale=False", when=["scale=False"],
          signature=_BN_SIG,
          torch="torch.nn.BatchNorm2d(in_channels, eps=epsilon, momentum=1 - momentum)",
          status=COMPOSITE,
          recipe="""
              bn = torch.nn.BatchNorm2d(in_channels, eps=epsilon, momentum=1 - momentum)
              torch.nn.init.ones_(bn.weight)
              bn.weight.requires_grad_(False)     # gamma fixed at 1""",
          args="scale=False → the weight fixed at 1 (ones, requires_grad False); "
               "center=False as well → affine=False (form `center=False, scale=False`)",
          gotchas=["scale=False is MXNet's fix_gamma=True: the forward pass *writes 1 into "
                   "gamma* (a loaded gamma is overwritten, not used) and gamma gets no "
                   "gradient; the check gives gamma random values and compares it afterwards "
                   "with PyTorch's frozen weight of ones",
                   _BN_VAR],
          teach=_BN_TEACH,
          check=check("""
              net = nn.BatchNorm(scale=False)
              net(x)""", """
              from sidebyside.catalogue.harness_nn_layers import load, mxnet_running_var
              mod = nn.BatchNorm2d(3, eps=1e-5, momentum=1 - 0.9).to(dtype)
              nn.init.ones_(mod.weight)
              mod.weight.requires_grad_(False)
              rv = mxnet_running_var(mod)
              tparams = load([None, mod.bias, mod.running_mean, mod.running_var], P)
              tparams[0], tparams[3] = mod.weight, rv
              mod(x)""", inputs="x=U(4, 3, 2, 2)", grad="x", rtol=5e-7,
              note="float64: MXNet's momentum is float32(0.9): the batch's weight in the "
                   "running statistics is 2.4e-7 relative off 0.1")),
    entry("mx.gluon.nn.BatchNorm", form="center=False, scale=False",
          when=["center=False", "scale=False"], signature=_BN_SIG,
          torch="torch.nn.BatchNorm2d(in_channels, eps=epsilon, momentum=1 - momentum, "
                "affine=False)",
          status=ARGS,
          args="center=False, scale=False → affine=False",
          gotchas=[_BN_VAR],
          note="center=False only stops beta's training: MXNet still adds beta's value "
               "(zero unless initialised or loaded otherwise); scale=False forces gamma to 1",
          teach=_BN_TEACH,
          check=check("""
              net = nn.BatchNorm(center=False, scale=False, in_channels=3)
              net(x)""", """
              from sidebyside.catalogue.harness_nn_layers import mxnet_running_var
              mod = nn.BatchNorm2d(3, eps=1e-5, momentum=1 - 0.9, affine=False).to(dtype)
              rv = mxnet_running_var(mod)
              tparams = [None, None, mod.running_mean, rv]
              P
              mod(x)""", inputs="x=U(4, 3, 2, 2)", grad="x", keep_weights=True, rtol=5e-7,
              note="keep_weights: the fresh layer's beta 0 (MXNet adds beta even with "
                   "center=False); float64: MXNet's momentum is float32(0.9), 2.4e-7 relative "
                   "in the batch's weight")),
    entry("mx.gluon.nn.BatchNormReLU",
          torch="torch.nn.Sequential(torch.nn.BatchNorm2d(in_channels, eps=epsilon, "
                "momentum=1 - momentum), torch.nn.ReLU())",
          status=COMPOSITE,
          args="as BatchNorm (momentum → 1 - momentum, epsilon → eps), then a ReLU",
          gotchas=["MXNet 1.9.1's BatchNormReLU runs only on the oneDNN (MKL-DNN) backend and "
                   "only in float32: float64 raises 'BatchNormWithReLU operator only supports "
                   "MKL-DNN Backend'", _BN_VAR],
          teach=_BN_TEACH,
          check=check("""
              net = nn.BatchNormReLU(momentum=0.8)
              net(x)""", """
              from sidebyside.catalogue.harness_nn_layers import load, mxnet_running_var
              mod = nn.Sequential(nn.BatchNorm2d(3, eps=1e-5, momentum=1 - 0.8),
                                  nn.ReLU()).to(dtype)
              rv = mxnet_running_var(mod[0])
              bn = mod[0]
              tparams = load([bn.weight, bn.bias, bn.running_mean, bn.running_var], P)
              tparams[3] = rv
              mod(x)""", inputs="x=U(4, 3, 2, 2)", grad="x", dtypes=("float32",),
              note="float32 only: MXNet's BatchNormWithReLU has no float64 kernel")),
    entry("mx.gluon.contrib.nn.SyncBatchNorm",
          torch="torch.nn.SyncBatchNorm(in_channels, eps=epsilon, momentum=1 - momentum)",
          status=ARGS,
          args="in_channels → num_features; momentum → 1 - momentum; epsilon → eps; "
               "num_devices → nothing (PyTorch syncs over the process group of "
               "DistributedDataParallel: torch.nn.SyncBatchNorm.convert_sync_batchnorm(model))",
          gotchas=["on one device both are plain BatchNorm: PyTorch's SyncBatchNorm without "
                   "an initialised process group falls back to batch_norm (also on the CPU)",
                   "MXNet 1.9.1's SyncBatchNorm has no float64 kernel", _BN_VAR],
          teach=_BN_TEACH,
          check=check("""
              net = gluon.contrib.nn.SyncBatchNorm(in_channels=3, momentum=0.8)
              net(x)""", """
              from sidebyside.catalogue.harness_nn_layers import load, mxnet_running_var
              mod = nn.SyncBatchNorm(3, eps=1e-5, momentum=1 - 0.8).to(dtype)
              rv = mxnet_running_var(mod)
              tparams = load([mod.weight, mod.bias, mod.running_mean, mod.running_var], P)
              tparams[3] = rv
              mod(x)""", inputs="x=U(4, 3, 2, 2)", grad="x", dtypes=("float32",),
              note="float32 only: MXNet's SyncBatchNorm has no float64 kernel")),
    entry("mx.gluon.nn.InstanceNorm",
          torch="torch.nn.InstanceNorm2d(in_channels, eps=epsilon, affine=True)",
          status=COMPOSITE,
          recipe="""
              norm = torch.nn.InstanceNorm2d(in_channels, eps=epsilon, affine=True)
              norm.weight.requires_grad_(False)   # Gluon's default scale=False""",
          args="in_channels → num_features; epsilon → eps; the input's rank picks "
               "InstanceNorm1d/2d/3d; axis=1 only; scale=True → leave the weight trainable "
               "(form `scale=True`)",
          defaults="scale=False in Gluon: gamma is *applied* but not trained (grad_req "
                   "'null'; it stays 1 unless loaded); PyTorch's default affine=False has no "
                   "weight or bias at all, Gluon's center=True trains beta",
          gotchas=["MXNet 1.9.1's InstanceNorm has no float64 kernel (float64 raises)",
                   "neither keeps running statistics (PyTorch's track_running_stats=False "
                   "default)"],
          check=check("""
              net = nn.InstanceNorm()
              net(x)""", """
              mod = nn.InstanceNorm2d(3, eps=1e-5, affine=True)
              mod.weight.requires_grad_(False)
              mod(x)""", inputs="x=U(2, 3, 3, 4)", grad="x", dtypes=("float32",),
              note="float32 only: MXNet's InstanceNorm has no float64 kernel")),
    entry("mx.gluon.nn.InstanceNorm", form="scale=True", when=["scale=True"],
          signature=("axis", "epsilon", "center", "scale"),
          torch="torch.nn.InstanceNorm2d(in_channels, eps=epsilon, affine=True)",
          status=ARGS, args="scale=True → affine=True; epsilon → eps",
          gotchas=["MXNet 1.9.1's InstanceNorm has no float64 kernel (float64 raises)"],
          check=check("""
              net = nn.InstanceNorm(scale=True, epsilon=1e-3)
              net(x)""", """
              mod = nn.InstanceNorm2d(3, eps=1e-3, affine=True)
              mod(x)""", inputs="x=U(2, 3, 3, 4)", grad="x", dtypes=("float32",),
              note="float32 only: MXNet's InstanceNorm has no float64 kernel")),
    entry("mx.gluon.nn.LayerNorm",
          torch="torch.nn.LayerNorm(in_channels, eps=epsilon)", status=ARGS,
          args="in_channels → normalized_shape (the size of the last axis; Gluon infers it "
               "when 0); epsilon → eps; axis=-1 (the default) only: both normalise over one "
               "axis here, PyTorch over the trailing normalized_shape axes",
          defaults="center=False / scale=False only freeze beta / gamma in Gluon (their "
                   "values are still applied); PyTorch's elementwise_affine=False / bias=False "
                   "drop them",
          gotchas=["MXNet's epsilon reaches the kernel as a float32 (also for float64 data): "
                   "epsilon=1e-3 acts as 0.0010000000475, 2.4e-10 in float64 outputs; eps=1e-5 "
                   "as 9.99999975e-06. GroupNorm's, InstanceNorm's and SyncBatchNorm's epsilon "
                   "are float32 too; BatchNorm's is a double"],
          check=check("""
              net = nn.LayerNorm(epsilon=1e-3)
              net(x)""", """
              mod = nn.LayerNorm(4, eps=1e-3)
              mod(x)""", inputs="x=U(2, 3, 4)", grad="x", rtol=1e-8, atol=1e-9,
              note="MXNet's epsilon is a float32 parameter: float32(1e-3) = 0.00100000004750 "
                   "moves float64 outputs by 2.4e-10 (with eps=float32(1e-3) on the PyTorch "
                   "side they agree to 4e-16)")),
    entry("mx.gluon.nn.GroupNorm",
          torch="torch.nn.functional.group_norm(x, num_groups, eps=epsilon) * "
                "gamma.repeat_interleave(C // num_groups)[:, None, None] + "
                "beta.repeat_interleave(C // num_groups)[:, None, None]",
          status=COMPOSITE,
          recipe="""
              # Gluon's gamma, beta: one value per *group*, shape (num_groups,)
              y = torch.nn.functional.group_norm(x, num_groups, eps=epsilon)
              k = x.shape[1] // num_groups
              shape = (-1,) + (1,) * (x.dim() - 2)
              y = y * gamma.repeat_interleave(k).view(shape) \\
                  + beta.repeat_interleave(k).view(shape)
              # inference only: torch.nn.GroupNorm(num_groups, C, eps=epsilon) with
              # weight = gamma.repeat_interleave(k), bias = beta.repeat_interleave(k)""",
          args="num_groups → num_groups; epsilon → eps; the channels C: not a Gluon argument",
          gotchas=["MXNet 1.9.1's GroupNorm has one gamma and one beta per *group* (shape "
                   "(num_groups,)), PyTorch's GroupNorm one per channel (num_channels,): "
                   "repeat each value C/num_groups times to copy it; training then unties "
                   "them (the check keeps them tied and compares the per-group gradients)"],
          check=check("""
              net = nn.GroupNorm(num_groups=2, epsilon=1e-3)
              net(x)""", """
              from sidebyside.catalogue.harness_nn_layers import load
              gamma = torch.zeros(2, dtype=dtype, requires_grad=True)
              beta = torch.zeros(2, dtype=dtype, requires_grad=True)
              tparams = load([gamma, beta], P)
              (F.group_norm(x, 2, eps=1e-3) * gamma.repeat_interleave(2).view(-1, 1, 1)
               + beta.repeat_interleave(2).view(-1, 1, 1))""",
              inputs="x=U(2, 4, 3, 2)", grad="x", rtol=1e-8, atol=1e-9,
              note="MXNet's epsilon is a float32 (float32(1e-3)): measured 1.6e-10 in "
                   "float64")),
]
