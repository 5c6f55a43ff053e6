"""MXNet's neural-network operators (``mx.nd.X`` = ``mx.sym.X`` = ``F.X``): convolution,
fully connected, activations and the softmax family, as PyTorch calls."""
from ..model import ARGS, COMPOSITE, RECIPE, RENAMED, SAME, check, entry

ENTRIES = [
    # ------------------------------------------------------------------ convolution
    entry("mx.nd.Convolution", aliases=["mx.sym.Convolution"],
          torch="F.conv2d(data, weight, bias, stride=stride, padding=pad, dilation=dilate, "
                "groups=num_group)",
          status=ARGS,
          args="data → input; weight → weight (same layout (num_filter, C/num_group, *kernel));"
               " bias → bias (None when no_bias=True); kernel → implied by the weight's shape;"
               " stride → stride; pad → padding; dilate → dilation; num_group → groups; "
               "num_filter → implied by the weight's shape; len(kernel) picks F.conv1d / "
               "F.conv2d / F.conv3d; workspace, cudnn_tune, cudnn_off: no counterpart (no "
               "effect on values)",
          defaults="no_bias=False: MXNet expects a bias input; F.conv2d's bias=None",
          gotchas=["a 1-D kernel=(k,) is F.conv1d on (N, C, W) input, with the same weight "
                   "(num_filter, C, k)",
                   "no_bias=True: call the operator without the bias argument; F.conv*d(..., "
                   "None, ...)"],
          teach="06_blocks §Convolution and pooling: the same layers, other argument names",
          check=check("""
              a = nd.Convolution(x, w, b, kernel=(3, 2), stride=(2, 1), pad=(1, 0),
                                 dilate=(1, 2), num_filter=4, num_group=2)
              c = nd.Convolution(x1, w1, kernel=(3,), stride=(2,), pad=(1,), num_filter=3,
                                 no_bias=True)
              (a, c)""", """
              a = F.conv2d(x, w, b, stride=(2, 1), padding=(1, 0), dilation=(1, 2), groups=2)
              c = F.conv1d(x1, w1, None, stride=(2,), padding=(1,))
              (a, c)""", inputs="x=U(2, 4, 5, 6); w=U(4, 2, 3, 2); b=U(4); "
                                 "x1=U(2, 2, 7); w1=U(3, 2, 3)", grad="x, w, b, x1, w1")),
    entry("mx.nd.Deconvolution", aliases=["mx.sym.Deconvolution"],
          torch="F.conv_transpose2d(data, weight, None, stride=stride, padding=pad, "
                "output_padding=adj, groups=num_group, dilation=dilate)",
          status=ARGS,
          args="weight → weight (same layout (C, num_filter/num_group, *kernel)); stride → "
               "stride; pad → padding; adj → output_padding; dilate → dilation; num_group → "
               "groups; no_bias=False + bias → bias; len(kernel) picks F.conv_transpose1d/2d/3d",
          defaults="no_bias=True in the operator (no bias unless no_bias=False), where "
                   "Convolution's is False and Gluon's Conv2DTranspose has use_bias=True",
          gotchas=["nd.Deconvolution(x, w, b, ...) without no_bias=False raises 'expects 2 "
                   "inputs, but got 3': the operator's no_bias defaults to True",
                   "target_shape: its own form (the padding is computed from the input size)"],
          check=check("""
              a = nd.Deconvolution(x, w, kernel=(3, 2), stride=(2, 3), pad=(1, 0), adj=(1, 2),
                                   num_filter=6, num_group=2)
              c = nd.Deconvolution(x2, w2, b, kernel=(3, 2), dilate=(2, 1), num_filter=6,
                                   num_group=2, no_bias=False)
              (a, c)""", """
              a = F.conv_transpose2d(x, w, None, stride=(2, 3), padding=(1, 0),
                                     output_padding=(1, 2), groups=2)
              c = F.conv_transpose2d(x2, w2, b, groups=2, dilation=(2, 1))
              (a, c)""", inputs="x=U(2, 4, 3, 5); w=U(4, 3, 3, 2); b=U(6); x2=U(2, 4, 4, 3); "
                                 "w2=U(4, 3, 3, 2)", grad="x, w, b, x2, w2")),
    entry("mx.nd.Deconvolution", form="target_shape", when=["target_shape"],
          signature=("data", "weight", "bias", "kernel", "stride", "dilate", "pad", "adj",
                     "target_shape"),
          torch="F.conv_transpose2d(data, weight, None, stride=stride, padding=pad, "
                "output_padding=adj, groups=num_group)  # pad, adj from mx_deconv_padding",
          status=RECIPE,
          recipe="""
              def mx_deconv_padding(in_size, kernel, stride, target_shape, dilate=None):
                  # MXNet's InferPad: target_shape replaces pad and adj, per input size
                  dilate = dilate or (1,) * len(kernel)
                  pad, adj = [], []
                  for n, k, s, d, t in zip(in_size, kernel, stride, dilate, target_shape):
                      total = s * (n - 1) + 1 + (k - 1) * d - t
                      pad.append((total + 1) // 2)
                      adj.append(total % 2)
                  return tuple(pad), tuple(adj)
              """,
          args="target_shape → the output's spatial size; pad and adj are ignored then, and "
               "the recipe computes PyTorch's padding and output_padding from the input size",
          gotchas=["with dilate ≠ 1 and target_shape, MXNet 1.9.1's result is not a transposed "
                   "convolution with that padding (measured: differences of order 1); the "
                   "recipe covers dilate=1 only",
                   "float32 on CPU: MXNet 1.9.1 raises 'could not create a descriptor for a "
                   "dilated deconvolution forward propagation primitive' as soon as "
                   "target_shape needs a padding or adj (it works only where target_shape is "
                   "the unpadded size); float64 runs MXNet's own kernel"],
          check=check("""
              nd.Deconvolution(x, w, kernel=(3, 2), stride=(2, 3), target_shape=(8, 10),
                               num_filter=6, num_group=2)""", """
              def mx_deconv_padding(in_size, kernel, stride, target_shape, dilate=None):
                  dilate = dilate or (1,) * len(kernel)
                  pad, adj = [], []
                  for n, k, s, d, t in zip(in_size, kernel, stride, dilate, target_shape):
                      total = s * (n - 1) + 1 + (k - 1) * d - t
                      pad.append((total + 1) // 2)
                      adj.append(total % 2)
                  return tuple(pad), tuple(adj)
              pad, adj = mx_deconv_padding(x.shape[2:], (3, 2), (2, 3), (8, 10))
              F.conv_transpose2d(x, w, None, stride=(2, 3), padding=pad, output_padding=adj,
                                 groups=2)""",
              inputs="x=U(3, 4, 4, 4); w=U(4, 3, 3, 2)", grad="x, w", dtypes=("float64",),
              note="float64 only: MXNet 1.9.1's float32 CPU kernel (oneDNN) raises 'could not "
                   "create a descriptor for a dilated deconvolution' whenever target_shape "
                   "implies a padding or an adj (measured for 5 target shapes)")),
    entry("mx.nd.FullyConnected", aliases=["mx.sym.FullyConnected", "mx.nd.sparse.FullyConnected"],
          torch="F.linear(data.flatten(1), weight, bias)",
          status=COMPOSITE,
          args="weight → weight (same layout (num_hidden, in_units)); bias → bias (None with "
               "no_bias=True); num_hidden → implied by the weight's shape",
          defaults="flatten=True: every axis after the first is flattened; F.linear acts on the "
                   "last axis",
          gotchas=["on a (N, C, H, W) input the weight is (num_hidden, C·H·W): flatten(1) first"],
          teach="06_blocks §`Dense(flatten=True)` on 3-D input",
          check=check("""
              a = nd.FullyConnected(x, w, b, num_hidden=5)
              c = nd.FullyConnected(x, w, num_hidden=5, no_bias=True)
              (a, c)""", """
              (F.linear(x.flatten(1), w, b), F.linear(x.flatten(1), w, None))""",
              inputs="x=U(2, 3, 4); w=U(5, 12); b=U(5)", grad="x, w, b")),
    entry("mx.nd.FullyConnected", form="flatten=False", when=["flatten=False"],
          signature=("data", "weight", "bias", "num_hidden", "no_bias", "flatten"),
          torch="F.linear(data, weight, bias)", status=RENAMED,
          args="weight → weight (num_hidden, last axis); bias → bias",
          check=check("nd.FullyConnected(x, w, b, num_hidden=5, flatten=False)",
                      "F.linear(x, w, b)", inputs="x=U(2, 3, 4); w=U(5, 4); b=U(5)",
                      grad="x, w, b")),
]

# ---------------------------------------------------------------------- normalisation
# MXNet's BatchNorm operator updates moving_mean / moving_var in backward(), with the
# *biased* batch variance and its momentum rounded through float32; F.batch_norm updates them
# in the forward pass with the unbiased variance. The recipe does MXNet's update.
_BN_STATS = """
import numpy

def mx_batch_norm_stats(data, moving_mean, moving_var, momentum=0.9, axis=1):
    # MXNet's update of the moving statistics (done by backward() there)
    m = float(numpy.float32(momentum))
    dims = [d for d in range(data.dim()) if d != axis % data.dim()]
    with torch.no_grad():
        moving_mean.mul_(m).add_((1 - m) * data.mean(dims))
        moving_var.mul_(m).add_((1 - m) * data.var(dims, unbiased=False))
"""
_BN_EPS = "0.0010000000474974513"  # the operator's default eps: float32(1e-3) as a double


def _code(*parts):
    import textwrap

    return "\n".join(textwrap.dedent(p).strip("\n") for p in parts)


_BN_MX_STATS = """
    mm2, mv2 = mm.copy(), mv.copy()
    o2 = nd.BatchNorm(x, g, b, mm2, mv2, momentum=0.8{extra})
    with autograd.pause():
        o2.backward()  # MXNet updates the moving statistics here
"""

ENTRIES += [
    entry("mx.nd.BatchNorm", aliases=["mx.sym.BatchNorm"],
          torch="F.batch_norm(data, None, None, None, beta, training=True, eps=eps); "
                "mx_batch_norm_stats(data, moving_mean, moving_var, momentum)",
          status=COMPOSITE, recipe=_BN_STATS,
          args="data → input; gamma → weight (ignored: fix_gamma=True is the default); beta →"
               " bias; moving_mean, moving_var → running_mean, running_var (updated by the "
               "recipe, as MXNet updates them); eps → eps; momentum m → PyTorch's 1 - m; "
               "recording with train_mode=True → training=True, otherwise training=False "
               "with the moving statistics",
          defaults="fix_gamma=True (gamma ignored, as if 1; its gradient is 0) and eps=1e-3 "
                   "kept as float32 (0.0010000000474974513), where Gluon's BatchNorm layer "
                   "has fix_gamma=False (scale=True) and eps=1e-5, PyTorch eps=1e-5; momentum "
                   "0.9 (weight of the old value) vs PyTorch's 0.1 (weight of the new)",
          gotchas=["the moving statistics are updated by backward(), not by the forward "
                   "pass: a forward pass under autograd.record() without backward() leaves "
                   "them as they were",
                   "the moving variance is updated with the biased batch variance; "
                   "F.batch_norm's running_var takes the unbiased one (factor n/(n-1))",
                   "momentum is a float32 field: 0.8 is 0.800000011920929 in the update "
                   "(1e-8 relative in float64)",
                   "outside autograd.record(train_mode=True) (predict mode) the operator "
                   "normalises with moving_mean / moving_var: F.batch_norm(..., "
                   "training=False)",
                   "fix_gamma=True: gamma's gradient is 0 and the stored gamma is never used; "
                   "load it as ones (or pass weight=None)"],
          teach="19_legacy_files_to_pytorch §5. A Module checkpoint: the symbol API's defaults",
          check=check(_code(_BN_MX_STATS.format(extra=""), """
              o = nd.BatchNorm(x, g, b, mm, mv, momentum=0.8)
              with autograd.predict_mode():
                  p = nd.BatchNorm(x, g, b, mm, mv)
              (o, p, mm2, mv2)"""), _code(_BN_STATS, """
              mm2, mv2 = mm.clone(), mv.clone()
              mx_batch_norm_stats(x, mm2, mv2, 0.8)
              o = F.batch_norm(x, None, None, None, b, training=True,
                               eps=0.0010000000474974513)
              p = F.batch_norm(x, mm, mv, None, b, training=False,
                               eps=0.0010000000474974513).detach()
              (o, p, mm2, mv2)"""),
              inputs="x=U(4, 3, 2, 5); g=P(3); b=U(3); mm=U(3); mv=P(3)", grad="x, g, b",
              note="the predict-mode output is not back-propagated (MXNet's backward after a "
                   "predict-mode forward is a training backward pass)")),
    entry("mx.nd.BatchNorm", form="fix_gamma=False", when=["fix_gamma=False"],
          signature=("data", "gamma", "beta", "moving_mean", "moving_var", "eps", "momentum",
                     "fix_gamma"),
          torch="F.batch_norm(data, None, None, gamma, beta, training=True, eps=eps); "
                "mx_batch_norm_stats(data, moving_mean, moving_var, momentum)",
          status=COMPOSITE, recipe=_BN_STATS,
          args="gamma → weight; the rest as the default form",
          defaults="eps=1e-3 as float32 (0.0010000000474974513) vs 1e-5",
          gotchas=["the moving statistics: updated by backward(), with the biased variance "
                   "(see the default form)"],
          teach="06_blocks §BatchNorm: the same default, written the other way round",
          check=check(_code(_BN_MX_STATS.format(extra=", fix_gamma=False, eps=1e-5"), """
              o = nd.BatchNorm(x, g, b, mm, mv, momentum=0.8, fix_gamma=False, eps=1e-5)
              (o, mm2, mv2)"""), _code(_BN_STATS, """
              mm2, mv2 = mm.clone(), mv.clone()
              mx_batch_norm_stats(x, mm2, mv2, 0.8)
              o = F.batch_norm(x, None, None, g, b, training=True, eps=1e-5)
              (o, mm2, mv2)"""),
              inputs="x=U(4, 3, 2, 5); g=P(3); b=U(3); mm=U(3); mv=P(3)", grad="x, g, b")),
    entry("mx.nd.BatchNorm", form="use_global_stats=True", when=["use_global_stats=True"],
          signature=("data", "gamma", "beta", "moving_mean", "moving_var", "eps", "momentum",
                     "fix_gamma", "use_global_stats"),
          torch="F.batch_norm(data, moving_mean, moving_var, gamma, beta, training=False, "
                "eps=eps)",
          status=ARGS,
          args="use_global_stats=True → training=False (normalise with the moving statistics, "
               "never update them); gamma → weight with fix_gamma=False (None otherwise)",
          defaults="eps=1e-3 as float32 (0.0010000000474974513)",
          gotchas=["the moving statistics stay unchanged, even after backward()"],
          check=check(_code(_BN_MX_STATS.format(extra=", fix_gamma=False, "
                                                      "use_global_stats=True"), """
              o = nd.BatchNorm(x, g, b, mm, mv, fix_gamma=False, use_global_stats=True)
              (o, mm2, mv2)"""), """
              o = F.batch_norm(x, mm, mv, g, b, training=False, eps=0.0010000000474974513)
              (o, mm.clone(), mv.clone())""",
              inputs="x=U(4, 3, 2, 5); g=P(3); b=U(3); mm=U(3); mv=P(3)", grad="x, g, b")),
    entry("mx.nd.BatchNorm", form="output_mean_var=True", when=["output_mean_var=True"],
          signature=("data", "gamma", "beta", "moving_mean", "moving_var", "eps", "momentum",
                     "fix_gamma", "use_global_stats", "output_mean_var"),
          torch="(F.batch_norm(data, None, None, gamma, beta, training=True, eps=eps), "
                "data.mean(dims).detach(), torch.rsqrt(data.var(dims, unbiased=False) + eps).detach())",
          status=COMPOSITE,
          args="the three outputs: the normalised data, the batch mean and the batch *inverse "
               "standard deviation* 1/sqrt(var + eps) (not the variance); dims: every axis "
               "but the channel axis",
          gotchas=["the third output is 1/sqrt(var + eps), not the variance its name suggests",
                   "no gradient flows back through the mean and inverse-std outputs (MXNet "
                   "treats them as constants): detach() them in PyTorch"],
          check=check("""
              o, m, s = nd.BatchNorm(x, g, b, mm, mv, fix_gamma=False, output_mean_var=True)
              (o, m, s)""", """
              o = F.batch_norm(x, None, None, g, b, training=True, eps=0.0010000000474974513)
              m = x.mean((0, 2, 3)).detach()
              s = torch.rsqrt(x.var((0, 2, 3), unbiased=False) + 0.0010000000474974513).detach()
              (o, m, s)""",
              inputs="x=U(4, 3, 2, 5); g=P(3); b=U(3); mm=U(3); mv=P(3)", grad="x, g, b")),
    entry("mx.nd.BatchNorm", form="axis", when=["axis"],
          signature=("data", "gamma", "beta", "moving_mean", "moving_var", "eps", "momentum",
                     "fix_gamma", "use_global_stats", "output_mean_var", "axis"),
          torch="F.batch_norm(data.movedim(axis, 1), None, None, gamma, beta, training=True, "
                "eps=eps).movedim(1, axis)",
          status=COMPOSITE, recipe=_BN_STATS,
          args="axis → the channel axis: move it to 1 for F.batch_norm and back; the moving "
               "statistics as the default form (mx_batch_norm_stats(..., axis=axis))",
          check=check(_code(_BN_MX_STATS.format(extra=", fix_gamma=False, axis=-1"), """
              o = nd.BatchNorm(x, g, b, mm, mv, fix_gamma=False, axis=-1)
              (o, mm2, mv2)"""), _code(_BN_STATS, """
              mm2, mv2 = mm.clone(), mv.clone()
              mx_batch_norm_stats(x, mm2, mv2, 0.8, axis=-1)
              o = F.batch_norm(x.movedim(-1, 1), None, None, g, b, training=True,
                               eps=0.0010000000474974513).movedim(1, -1)
              (o, mm2, mv2)"""),
              inputs="x=U(4, 2, 5, 3); g=P(3); b=U(3); mm=U(3); mv=P(3)", grad="x, g, b")),
]

ENTRIES += [
    entry("mx.nd.contrib.SyncBatchNorm", aliases=["mx.sym.contrib.SyncBatchNorm"],
          torch="F.batch_norm(data, None, None, None, beta, training=True, eps=eps); "
                "mx_batch_norm_stats(data, moving_mean, moving_var, momentum)",
          status=COMPOSITE, recipe=_BN_STATS,
          args="as nd.BatchNorm (fix_gamma=True by default, momentum m → 1 - m); ndev, key: "
               "the devices synchronised — on one device it is BatchNorm; across processes "
               "torch.nn.SyncBatchNorm (with torch.distributed)",
          defaults="fix_gamma=True; eps=1e-3 as float32 (0.0010000000474974513)",
          gotchas=["float32 only on CPU: a float64 input fails with 'data type do not match' "
                   "(measured)",
                   "as nd.BatchNorm: moving statistics updated by backward(), with the biased "
                   "variance; gamma ignored and its gradient 0"],
          check=check("""
              mm2, mv2 = mm.copy(), mv.copy()
              o2 = nd.contrib.SyncBatchNorm(x, g, b, mm2, mv2, momentum=0.8, key='k1')
              with autograd.pause():
                  o2.backward()
              o = nd.contrib.SyncBatchNorm(x, g, b, mm, mv, momentum=0.8, key='k2')
              (o, mm2, mv2)""", _code(_BN_STATS, """
              mm2, mv2 = mm.clone(), mv.clone()
              mx_batch_norm_stats(x, mm2, mv2, 0.8)
              o = F.batch_norm(x, None, None, None, b, training=True,
                               eps=0.0010000000474974513)
              (o, mm2, mv2)"""),
              inputs="x=U(4, 3, 2, 5); g=P(3); b=U(3); mm=U(3); mv=P(3)", grad="x, g, b",
              dtypes=("float32",),
              note="float32 only: MXNet 1.9.1's CPU SyncBatchNorm has no float64 kernel")),
    entry("mx.nd.InstanceNorm", aliases=["mx.sym.InstanceNorm"],
          torch="F.instance_norm(data, weight=gamma, bias=beta, eps=eps)",
          status=ARGS,
          args="gamma → weight; beta → bias; eps → eps",
          defaults="eps=1e-3 (float32: 0.0010000000474974513) vs 1e-5",
          gotchas=["float32 only on CPU: a float64 input raises 'Unsupported data type 1' "
                   "(measured)"],
          check=check("nd.InstanceNorm(x, g, b)",
                      "F.instance_norm(x, weight=g, bias=b, eps=0.0010000000474974513)",
                      inputs="x=U(2, 3, 4, 5); g=P(3); b=U(3)", grad="x, g, b",
                      dtypes=("float32",),
                      note="float32 only: MXNet 1.9.1's CPU InstanceNorm has no float64 "
                           "kernel")),
    entry("mx.nd.LayerNorm", aliases=["mx.sym.LayerNorm"],
          torch="F.layer_norm(data, data.shape[-1:], gamma, beta, eps=eps)",
          status=ARGS,
          args="gamma → weight; beta → bias; eps → eps; axis=-1 (the default) → "
               "normalized_shape=data.shape[-1:]; another axis: movedim(axis, -1) first and "
               "back after",
          defaults="eps=1e-5 kept as float32 (9.99999974737875e-06) vs 1e-5",
          gotchas=["MXNet normalises over one axis only; F.layer_norm over the trailing "
                   "axes normalized_shape names"],
          check=check("""
              a = nd.LayerNorm(x, g, b)
              c = nd.LayerNorm(x, g2, b2, axis=1, eps=1e-3)
              (a, c)""", """
              a = F.layer_norm(x, x.shape[-1:], g, b, eps=9.99999974737875e-06)
              c = F.layer_norm(x.movedim(1, -1), (3,), g2, b2,
                               eps=0.0010000000474974513).movedim(-1, 1)
              (a, c)""", inputs="x=U(2, 3, 5); g=P(5); b=U(5); g2=P(3); b2=U(3)",
              grad="x, g, b, g2, b2")),
    entry("mx.nd.GroupNorm", aliases=["mx.sym.GroupNorm"],
          torch="F.group_norm(data, num_groups, gamma.repeat_interleave(C // num_groups), "
                "beta.repeat_interleave(C // num_groups), eps=eps)",
          status=COMPOSITE,
          args="num_groups → num_groups; gamma, beta of shape (num_groups,) → weight, bias of "
               "shape (C,): each group's value repeated over its C // num_groups channels; "
               "eps → eps",
          defaults="num_groups=1; eps=1e-5 kept as float32 (9.99999974737875e-06)",
          gotchas=["MXNet 1.9.1's GroupNorm has one gamma and one beta per *group* (shape "
                   "(num_groups,)); a (C,) gamma raises 'Shape size mismatch'; PyTorch's are "
                   "per channel"],
          check=check("nd.GroupNorm(x, g, b, num_groups=3)", """
              F.group_norm(x, 3, g.repeat_interleave(2), b.repeat_interleave(2),
                           eps=9.99999974737875e-06)""",
              inputs="x=U(2, 6, 2, 3); g=P(3); b=U(3)", grad="x, g, b")),
    entry("mx.nd.L2Normalization", aliases=["mx.sym.L2Normalization"],
          torch="data / torch.sqrt((data ** 2).flatten(1).sum(1) + eps)"
                ".reshape(-1, *[1] * (data.dim() - 1))",
          status=COMPOSITE,
          args="mode='instance' (the default): each sample over all its axes; eps=1e-10 is "
               "added inside the square root",
          defaults="eps=1e-10 (float32: 1.00000001e-10)",
          gotchas=["F.normalize is not the same: it divides by max(norm, eps) and takes one "
                   "dim; MXNet divides by sqrt(sum + eps)"],
          check=check("nd.L2Normalization(x)", """
              x / torch.sqrt((x ** 2).flatten(1).sum(1) + 1.000000013351432e-10)"""
                      """.reshape(-1, *[1] * (x.dim() - 1))""",
                      inputs="x=U(2, 3, 4, 2)", grad="x")),
    entry("mx.nd.L2Normalization", form="mode='channel'", when=["mode='channel'"],
          signature=("data", "eps", "mode"),
          torch="data / torch.sqrt((data ** 2).sum(1, keepdim=True) + eps)",
          status=COMPOSITE, args="mode='channel': over axis 1 at every position",
          gotchas=["eps is a float32 field: eps=1e-4 is 9.999999747378752e-05 in MXNet "
                   "(with 1e-4 in PyTorch the float64 gradients differ by 2e-11)"],
          check=check("nd.L2Normalization(x, mode='channel', eps=1e-4)",
                      "x / torch.sqrt((x ** 2).sum(1, keepdim=True) + 9.999999747378752e-05)",
                      inputs="x=U(2, 3, 4, 2)", grad="x")),
    entry("mx.nd.L2Normalization", form="mode='spatial'", when=["mode='spatial'"],
          signature=("data", "eps", "mode"),
          torch="data / torch.sqrt((data ** 2).flatten(2).sum(2) + eps)"
                ".reshape(*data.shape[:2], *[1] * (data.dim() - 2))",
          status=COMPOSITE, args="mode='spatial': each channel of each sample over its "
                                 "spatial axes",
          check=check("nd.L2Normalization(x, mode='spatial')", """
              x / torch.sqrt((x ** 2).flatten(2).sum(2) + 1.000000013351432e-10)"""
                      """.reshape(*x.shape[:2], *[1] * (x.dim() - 2))""",
                      inputs="x=U(2, 3, 4, 2)", grad="x")),
    entry("mx.nd.LRN", aliases=["mx.sym.LRN"],
          torch="F.local_response_norm(data, nsize, alpha=alpha, beta=beta, k=knorm)",
          status=ARGS,
          args="nsize → size; alpha → alpha (both divide it by the window size); beta → beta;"
               " knorm → k",
          defaults="knorm=2 vs k=1.0",
          gotchas=["float64 fails on CPU ('data type do not match'): MXNet's LRN is float32 "
                   "only (measured)"],
          check=check("""
              a = nd.LRN(x, nsize=3)
              c = nd.LRN(x * 4, nsize=5, alpha=0.5, beta=0.6, knorm=1.5)
              (a, c)""", """
              a = F.local_response_norm(x, 3, alpha=1e-4, beta=0.75, k=2.0)
              c = F.local_response_norm(x * 4, 5, alpha=0.5, beta=0.6, k=1.5)
              (a, c)""", inputs="x=U(2, 6, 3, 2)", grad="x", dtypes=("float32",),
              note="float32 only: MXNet 1.9.1's CPU LRN has no float64 kernel")),
]

# --------------------------------------------------------------------------- pooling
_POOL_SIG = ("data", "kernel", "pool_type", "global_pool", "cudnn_off", "pooling_convention",
             "stride", "pad", "p_value", "count_include_pad")
_POOL_FULL = """
import math

def mx_pool_full(data, kernel, stride, pad, pool_type="max", count_include_pad=True):
    # MXNet's pooling_convention='full' (2-D, 3-D): out = 1 + ceil((in + 2 pad - kernel) / stride)
    n = len(kernel)
    spatial = data.shape[2:]
    extra = [(math.ceil((size + 2 * p - k) / s)) * s + k - size - 2 * p
             for size, k, s, p in zip(spatial, kernel, stride, pad)]
    declared = [w for p in reversed(pad) for w in (p, p)]
    beyond = [w for e in reversed(extra) for w in (0, e)]
    if pool_type == "max":  # a window over padding alone gives the dtype's lowest value
        low = torch.finfo(data.dtype).min
        padded = F.pad(F.pad(data, declared, value=low), beyond, value=low)
        return getattr(F, f"max_pool{n}d")(padded, kernel, stride)
    pool = getattr(F, f"avg_pool{n}d")
    total = pool(F.pad(data, [a + b for a, b in zip(declared, beyond)]), kernel, stride,
                 divisor_override=1)
    if pool_type == "sum":
        return total
    ones = torch.ones((1, 1, *spatial), dtype=data.dtype)
    counted = F.pad(F.pad(ones, declared, value=float(count_include_pad)), beyond)
    return total / pool(counted, kernel, stride, divisor_override=1).clamp(min=1)
"""

ENTRIES += [
    entry("mx.nd.Pooling", aliases=["mx.sym.Pooling"],
          torch="F.max_pool2d(data, kernel, stride=stride, padding=pad)",
          status=ARGS,
          args="pool_type='max' (the default); kernel → kernel_size; stride → stride "
               "(MXNet's default: 1 per axis; PyTorch's: the kernel); pad → padding; "
               "len(kernel) picks F.max_pool1d / 2d / 3d",
          defaults="stride: 1 in MXNet vs kernel_size in PyTorch",
          gotchas=["an omitted stride is 1 in MXNet (overlapping windows), the kernel size in "
                   "PyTorch: write stride explicitly"],
          teach="06_blocks §Convolution and pooling: the same layers, other argument names",
          check=check("""
              a = nd.Pooling(x, kernel=(3, 2), stride=(2, 1), pad=(1, 1))
              c = nd.Pooling(x, kernel=(2, 2))
              (a, c)""", """
              a = F.max_pool2d(x, (3, 2), stride=(2, 1), padding=(1, 1))
              c = F.max_pool2d(x, (2, 2), stride=1)
              (a, c)""", inputs="x=U(2, 3, 7, 6)", grad="x")),
    entry("mx.nd.Pooling", form="pool_type='avg'", when=["pool_type='avg'"],
          signature=_POOL_SIG[:3],
          torch="F.avg_pool2d(data, kernel, stride=stride, padding=pad, "
                "count_include_pad=count_include_pad)",
          status=ARGS,
          args="kernel → kernel_size; stride → stride (default 1 vs the kernel); pad → "
               "padding; count_include_pad (None: True) → count_include_pad",
          defaults="stride 1 vs kernel_size",
          check=check("""
              a = nd.Pooling(x, kernel=(3, 2), stride=(2, 1), pad=(1, 1), pool_type='avg')
              c = nd.Pooling(x, kernel=(3, 2), stride=(2, 1), pad=(1, 1), pool_type='avg',
                             count_include_pad=False)
              e = nd.Pooling(x[:, :, 0], kernel=(3,), stride=(2,), pool_type='avg')
              (a, c, e)""", """
              a = F.avg_pool2d(x, (3, 2), stride=(2, 1), padding=(1, 1))
              c = F.avg_pool2d(x, (3, 2), stride=(2, 1), padding=(1, 1),
                               count_include_pad=False)
              e = F.avg_pool1d(x[:, :, 0], 3, stride=2)
              (a, c, e)""", inputs="x=U(2, 3, 7, 6)", grad="x")),
    entry("mx.nd.Pooling", form="pool_type='sum'", when=["pool_type='sum'"],
          signature=_POOL_SIG[:3],
          torch="F.avg_pool2d(data, kernel, stride=stride, padding=pad, divisor_override=1)",
          status=COMPOSITE,
          args="sum pooling is average pooling with divisor_override=1 (2-D and 3-D)",
          check=check("nd.Pooling(x, kernel=(3, 2), stride=(2, 1), pad=(1, 1), pool_type='sum')",
                      "F.avg_pool2d(x, (3, 2), stride=(2, 1), padding=(1, 1), "
                      "divisor_override=1)", inputs="x=U(2, 3, 7, 6)", grad="x")),
    entry("mx.nd.Pooling", form="pool_type='lp'", when=["pool_type='lp'"],
          signature=_POOL_SIG[:3],
          torch="F.lp_pool2d(F.pad(data, (pad[1], pad[1], pad[0], pad[0])), p_value, kernel, "
                "stride=stride)",
          status=COMPOSITE,
          args="p_value → norm_type; pad → F.pad first (F.lp_pool2d has no padding); kernel, "
               "stride as the other forms",
          gotchas=["neither is the L_p norm for odd p: both take (Σ x^p)^(1/p) without |x|; "
                   "for a negative window sum MXNet returns the real root (p=3: cbrt(-1.57) ="
                   " -1.16), PyTorch NaN (measured)"],
          check=check("""
              a = nd.Pooling(x, kernel=(3, 2), stride=(2, 1), pad=(1, 1), pool_type='lp',
                             p_value=2)
              c = nd.Pooling(y, kernel=(2, 2), stride=(2, 2), pool_type='lp', p_value=3)
              (a, c)""", """
              a = F.lp_pool2d(F.pad(x, (1, 1, 1, 1)), 2, (3, 2), stride=(2, 1))
              c = F.lp_pool2d(y, 3, (2, 2), stride=(2, 2))
              (a, c)""", inputs="x=U(2, 3, 7, 6); y=P(2, 3, 4, 6)", grad="x, y")),
    entry("mx.nd.Pooling", form="global_pool=True", when=["global_pool=True"],
          signature=_POOL_SIG[:4],
          torch="data.amax(dim=tuple(range(2, data.dim())), keepdim=True)",
          status=COMPOSITE,
          args="kernel, stride, pad are ignored; pool_type='max' → amax over the spatial axes "
               "(keepdim=True); 'avg' → .mean(...); 'sum' → .sum(...) (or "
               "F.adaptive_max_pool2d / F.adaptive_avg_pool2d(data, 1))",
          gotchas=["the output keeps the spatial axes as 1s: (N, C, 1, 1)"],
          check=check("""
              a = nd.Pooling(x, kernel=(3, 2), global_pool=True)
              c = nd.Pooling(x, global_pool=True, pool_type='avg')
              e = nd.Pooling(x, global_pool=True, pool_type='sum')
              (a, c, e)""", """
              a = x.amax(dim=tuple(range(2, x.dim())), keepdim=True)
              c = x.mean(dim=(2, 3), keepdim=True)
              e = x.sum(dim=(2, 3), keepdim=True)
              (a, c, e)""", inputs="x=U(2, 3, 4, 5)", grad="x")),
    entry("mx.nd.Pooling", form="pooling_convention='full'",
          when=["pooling_convention='full'"], signature=_POOL_SIG[:6],
          torch="mx_pool_full(data, kernel, stride, pad, pool_type, count_include_pad)",
          status=RECIPE, recipe=_POOL_FULL,
          args="'full' rounds the output size up: out = 1 + ceil((in + 2·pad − kernel) / "
               "stride). Without padding this is ceil_mode=True; with padding PyTorch's "
               "ceil_mode drops a last window that starts in the right padding and MXNet "
               "keeps it, so the recipe pads explicitly",
          gotchas=["F.max_pool2d(..., padding=1, ceil_mode=True) on a 5×6 input with kernel 2,"
                   " stride 2 gives 3×4; MXNet's 'full' gives 4×4 (measured)",
                   "a max window over padding alone gives the dtype's lowest value "
                   "(-1.797e308 in float64), not -inf; an average over no counted element "
                   "gives 0",
                   "float32 on CPU, recording in training mode: pool_type='avg' with "
                   "count_include_pad=False and a window over padding alone (a 5×5 or 6×5 "
                   "input, kernel 2, stride 2, pad 1) raises 'could not create a descriptor "
                   "for a pooling forward propagation primitive' (oneDNN) at backward(); a "
                   "6×6 input, float64, or not recording runs"],
          teach="deep_dives/hybridize_functional §2. Ceil mode with padding, size by size",
          check=check("""
              a = nd.Pooling(x, kernel=(2, 2), stride=(2, 2), pad=(1, 1),
                             pooling_convention='full')
              c = nd.Pooling(y, kernel=(2, 2), stride=(2, 2), pad=(1, 1), pool_type='avg',
                             pooling_convention='full', count_include_pad=False)
              e = nd.Pooling(x, kernel=(3, 2), stride=(2, 3), pad=(1, 0), pool_type='avg',
                             pooling_convention='full')
              g = nd.Pooling(x, kernel=(3, 2), stride=(2, 2), pooling_convention='full',
                             pool_type='sum')
              (a, c, e, g)""", _code(_POOL_FULL, """
              a = mx_pool_full(x, (2, 2), (2, 2), (1, 1))
              c = mx_pool_full(y, (2, 2), (2, 2), (1, 1), 'avg', False)
              e = mx_pool_full(x, (3, 2), (2, 3), (1, 0), 'avg')
              g = mx_pool_full(x, (3, 2), (2, 2), (0, 0), 'sum')
              (a, c, e, g)"""), inputs="x=U(2, 3, 5, 6); y=U(2, 3, 6, 6)", grad="x, y")),
]

# ----------------------------------------------------------------------- activations
_ACT_SIG = ("data", "act_type")
_LRELU_SIG = ("data", "gamma", "act_type")
_F32_BRANCH = ("MXNet's float64 LeakyReLU computes in float32 inside (measured: {} relative "
               "on float64 inputs)")

ENTRIES += [
    entry("mx.nd.Activation", aliases=["mx.sym.Activation"],
          torch="F.relu(data)", status=RENAMED,
          args="act_type='relu' → F.relu; the other act_type values are forms of their own "
               "(sigmoid, tanh, softrelu, softsign); act_type is required",
          note="this entry is act_type='relu'",
          teach="06_blocks §3. Layer defaults that bite",
          check=check("nd.Activation(x, act_type='relu')", "F.relu(x)",
                      inputs="x=U(3, 4, 5)", grad="x")),
    entry("mx.nd.Activation", form="act_type='sigmoid'", when=["act_type='sigmoid'"],
          signature=_ACT_SIG, torch="torch.sigmoid(data)", status=RENAMED,
          check=check("nd.Activation(x, act_type='sigmoid')", "torch.sigmoid(x)",
                      inputs="x=U(3, 4, lo=-4, hi=4)", grad="x")),
    entry("mx.nd.Activation", form="act_type='tanh'", when=["act_type='tanh'"],
          signature=_ACT_SIG, torch="torch.tanh(data)", status=RENAMED,
          check=check("nd.Activation(x, act_type='tanh')", "torch.tanh(x)",
                      inputs="x=U(3, 4, lo=-3, hi=3)", grad="x")),
    entry("mx.nd.Activation", form="act_type='softrelu'", when=["act_type='softrelu'"],
          signature=_ACT_SIG, torch="F.softplus(data)", status=RENAMED,
          args="softrelu is softplus log(1 + exp(x)) (F.softplus's default beta=1)",
          check=check("nd.Activation(x, act_type='softrelu')", "F.softplus(x)",
                      inputs="x=U(3, 4, lo=-5, hi=5)", grad="x")),
    entry("mx.nd.Activation", form="act_type='softsign'", when=["act_type='softsign'"],
          signature=_ACT_SIG, torch="F.softsign(data)", status=RENAMED,
          check=check("nd.Activation(x, act_type='softsign')", "F.softsign(x)",
                      inputs="x=U(3, 4, lo=-3, hi=3)", grad="x")),
    entry("mx.nd.relu", aliases=["mx.sym.relu", "mx.nd.sparse.relu"],
          torch="F.relu(data)", status=SAME,
          check=check("nd.relu(x)", "F.relu(x)", inputs="x=U(3, 4)", grad="x")),
    entry("mx.nd.sigmoid", aliases=["mx.sym.sigmoid", "mx.nd.sparse.sigmoid"],
          torch="torch.sigmoid(data)", status=SAME,
          check=check("nd.sigmoid(x)", "torch.sigmoid(x)", inputs="x=U(3, 4, lo=-4, hi=4)",
                      grad="x")),
    entry("mx.nd.tanh", aliases=["mx.sym.tanh"], torch="torch.tanh(data)", status=SAME,
          check=check("nd.tanh(x)", "torch.tanh(x)", inputs="x=U(3, 4, lo=-3, hi=3)",
                      grad="x")),
    entry("mx.nd.softsign", aliases=["mx.sym.softsign"], torch="F.softsign(data)",
          status=RENAMED,
          check=check("nd.softsign(x)", "F.softsign(x)", inputs="x=U(3, 4, lo=-3, hi=3)",
                      grad="x")),
    entry("mx.nd.hard_sigmoid", aliases=["mx.sym.hard_sigmoid"],
          torch="torch.clamp(alpha * data + beta, 0, 1)", status=COMPOSITE,
          args="alpha (0.2), beta (0.5): max(0, min(1, alpha·x + beta))",
          defaults="F.hardsigmoid is x/6 + 1/2 (alpha 1/6), not MXNet's alpha=0.2",
          gotchas=["alpha and beta are float32 fields: 0.2 is 0.20000000298023224 (5e-9 on "
                   "float64 results if written 0.2)"],
          check=check("""
              a = nd.hard_sigmoid(x)
              c = nd.hard_sigmoid(x, alpha=0.25, beta=0.4)
              (a, c)""", """
              a = torch.clamp(0.20000000298023224 * x + 0.5, 0, 1)
              c = torch.clamp(0.25 * x + 0.4000000059604645, 0, 1)
              (a, c)""", inputs="x=U(3, 5, lo=-4, hi=4)", grad="x")),
    entry("mx.nd.erf", aliases=["mx.sym.erf"], torch="torch.erf(data)", status=SAME,
          gotchas=["MXNet's float64 gradient of erf takes √π as a float32 constant: 3e-8 "
                   "relative off 2/√π·exp(−x²) (measured at x = 0); the forward is exact"],
          check=check("nd.erf(x)", "torch.erf(x)", inputs="x=U(3, 4, lo=-2, hi=2)",
                      grad="x", rtol=1e-7, atol=1e-7,
                      note="the float64 gradient is 3e-8 relative off (√π as a float32 constant in "
                           "MXNet's backward; measured)")),
    entry("mx.nd.erfinv", aliases=["mx.sym.erfinv"], torch="torch.erfinv(data)", status=SAME,
          gotchas=["MXNet's float64 gradient of erfinv takes √π as a float32 constant: 3e-8 "
                   "relative (measured at x = 0); the forward is exact"],
          check=check("nd.erfinv(x)", "torch.erfinv(x)", inputs="x=U(3, 4, lo=-0.9, hi=0.9)",
                      grad="x", rtol=1e-7, atol=1e-7,
                      note="the float64 gradient is 3e-8 relative off (√π as a float32 constant in "
                           "MXNet's backward; measured)")),
    entry("mx.nd.LeakyReLU", aliases=["mx.sym.LeakyReLU"],
          torch="F.leaky_relu(data, negative_slope=slope)", status=ARGS,
          args="act_type='leaky' (the default); slope → negative_slope; the other act_type "
               "values are forms of their own",
          defaults="slope=0.25 vs negative_slope=0.01",
          gotchas=[_F32_BRANCH.format("3e-8"),
                   "nd.LeakyReLU(x) without slope is a slope of 0.25, F.leaky_relu(x) 0.01"],
          check=check("""
              a = nd.LeakyReLU(x)
              c = nd.LeakyReLU(x, slope=0.1)
              (a, c)""", """
              (F.leaky_relu(x, negative_slope=0.25), F.leaky_relu(x, negative_slope=0.1))""",
              inputs="x=U(3, 5, lo=-3, hi=3)", grad="x", rtol=1e-7, atol=1e-7,
              note=_F32_BRANCH.format("up to 3e-8"))),
    entry("mx.nd.LeakyReLU", form="act_type='prelu'", when=["act_type='prelu'"],
          signature=_LRELU_SIG, torch="F.prelu(data, gamma)", status=RENAMED,
          args="gamma (the learnt slopes, one per channel of axis 1, or one) → weight",
          gotchas=[_F32_BRANCH.format("3e-8")],
          check=check("nd.LeakyReLU(x, g, act_type='prelu')", "F.prelu(x, g)",
                      inputs="x=U(2, 3, 4, lo=-3, hi=3); g=U(3)", grad="x, g", rtol=1e-7,
                      atol=1e-7, note=_F32_BRANCH.format("up to 3e-8"))),
    entry("mx.nd.LeakyReLU", form="act_type='elu'", when=["act_type='elu'"],
          signature=_LRELU_SIG, torch="F.elu(data, alpha=slope)", status=ARGS,
          args="slope → alpha",
          defaults="slope=0.25 vs alpha=1.0: nd.LeakyReLU(x, act_type='elu') is "
                   "F.elu(x, alpha=0.25)",
          check=check("""
              a = nd.LeakyReLU(x, act_type='elu')
              c = nd.LeakyReLU(x, act_type='elu', slope=1.0)
              (a, c)""", "(F.elu(x, alpha=0.25), F.elu(x, alpha=1.0))",
              inputs="x=U(3, 5, lo=-3, hi=3)", grad="x")),
    entry("mx.nd.LeakyReLU", form="act_type='selu'", when=["act_type='selu'"],
          signature=_LRELU_SIG, torch="F.selu(data)", status=RENAMED,
          gotchas=[_F32_BRANCH.format("1e-7"),
                   "MXNet 1.9.1's selu *gradient* is wrong for x < 0: it is λ·(selu(x) + α) "
                   "where the derivative is selu(x) + λ·α (measured: 0.161 instead of 0.238 "
                   "at x = -2); F.selu's gradient is the correct one — a port's gradients "
                   "change there"],
          check=check("""
              y = nd.LeakyReLU(x, act_type='selu')
              x2 = x.copy()
              x2.attach_grad()
              with autograd.record():
                  y2 = nd.LeakyReLU(x2, act_type='selu')
              with autograd.pause():
                  y2.backward()
              (y, x2.grad)""", """
              y = F.selu(x)
              lam, alpha = 1.0507010221481323, 1.6732631921768188  # MXNet's float32 constants
              wrong = torch.where(x > 0, lam, lam * (F.selu(x).detach() + alpha))
              (y.detach(), wrong)""",
              inputs="x=U(3, 5, lo=-3, hi=3)", rtol=3e-7, atol=1e-7,
              note="forward compared with F.selu; the gradient is not compared with F.selu's:"
                   " the second output is MXNet's gradient against the formula of its bug. "
                   + _F32_BRANCH.format("up to 9e-8 absolute"))),
    entry("mx.nd.LeakyReLU", form="act_type='gelu'", when=["act_type='gelu'"],
          signature=_LRELU_SIG, torch="F.gelu(data)", status=RENAMED,
          args="the erf form (approximate='none'); not the tanh approximation (4.7e-4 off)",
          gotchas=[_F32_BRANCH.format("1.3e-7")],
          check=check("nd.LeakyReLU(x, act_type='gelu')", "F.gelu(x)",
                      inputs="x=U(3, 5, lo=-3, hi=3)", grad="x", rtol=3e-7, atol=3e-7,
                      note=_F32_BRANCH.format("up to 1.3e-7 absolute"))),
    entry("mx.nd.LeakyReLU", form="act_type='rrelu'", when=["act_type='rrelu'"],
          signature=_LRELU_SIG,
          torch="F.rrelu(data, lower=lower_bound, upper=upper_bound, training=False)",
          status=ARGS,
          args="lower_bound → lower; upper_bound → upper; predict mode → training=False "
               "(slope (lower + upper) / 2); training mode → training=True (a random slope "
               "per element)",
          defaults="lower_bound=0.125, upper_bound=0.334 vs lower=1/8, upper=1/3",
          gotchas=["in training mode (autograd.record() / train_mode()) MXNet 1.9.1's CPU "
                   "rrelu crashes the process (Segmentation fault, measured in float32 and "
                   "float64): only predict mode can be compared",
                   "the operator returns a list of two arrays with act_type='rrelu' (the "
                   "output, and the slopes used): take [0]",
                   "its gradient in predict mode is wrong for x < 0: x·slope instead of slope "
                   "(measured: -0.459 at x = -2 for the default bounds); no gradient compared"],
          check=check("""
              nd.LeakyReLU(x, act_type='rrelu', lower_bound=0.1, upper_bound=0.3)[0]""",
              "F.rrelu(x, lower=0.1, upper=0.3, training=False)",
              inputs="x=U(3, 5, lo=-2, hi=2)", mode="predict", rtol=1e-7,
              atol=1e-7, note=_F32_BRANCH.format("up to 3e-8"))),
]

# ------------------------------------------------------------------- softmax family
_SOFTMAX_SIG = ("data", "length", "axis", "temperature", "dtype", "use_length")
_LOGSOFTMAX_SIG = ("data", "axis", "temperature", "dtype", "use_length")
_MASKED_SOFTMAX = """
def mx_masked_softmax(data, length, axis=-1, temperature=1.0):
    # softmax(data, length, axis, use_length=True): the first length[i] positions only
    axis = axis % data.dim()
    n = data.shape[axis]
    steps = torch.arange(n).view([n if d == axis else 1 for d in range(data.dim())])
    keep = steps < length.unsqueeze(axis)
    out = F.softmax((data / temperature).masked_fill(~keep, -math.inf), dim=axis)
    return out.masked_fill(~keep, 0.0)  # a length of 0 gives zeros, not NaN
"""

ENTRIES += [
    entry("mx.nd.softmax", aliases=["mx.sym.softmax"],
          torch="F.softmax(data, dim=axis)", status=ARGS,
          args="axis → dim (MXNet's default -1; PyTorch requires it)",
          defaults="axis=-1; F.softmax without dim warns and guesses",
          teach="10_losses §1. Cross-entropy: from logits, from log-probabilities, from class "
                "probabilities",
          check=check("""
              a = nd.softmax(x)
              c = nd.softmax(x, axis=1)
              (a, c)""", "(F.softmax(x, dim=-1), F.softmax(x, dim=1))",
              inputs="x=U(2, 3, 4, lo=-3, hi=3)", grad="x")),
    entry("mx.nd.softmax", form="temperature", when=["temperature"],
          signature=_SOFTMAX_SIG, torch="F.softmax(data / temperature, dim=axis)",
          status=COMPOSITE, args="temperature → divide the input by it first",
          check=check("nd.softmax(x, axis=0, temperature=2.5)", "F.softmax(x / 2.5, dim=0)",
                      inputs="x=U(3, 4, lo=-3, hi=3)", grad="x")),
    entry("mx.nd.softmax", form="use_length=True", when=["use_length=True"],
          signature=_SOFTMAX_SIG,
          torch="mx_masked_softmax(data, length, axis, temperature)", status=RECIPE,
          recipe="import math\n" + _MASKED_SOFTMAX,
          args="length (integers, the shape of data without axis) → the number of leading "
               "positions along axis that take part; the others get 0",
          gotchas=["a length of 0 gives a row of zeros in MXNet; -inf masking alone gives NaN "
                   "in PyTorch (the recipe fills 0)",
                   "a length without use_length=True raises 'expects 1 inputs, but got 2' "
                   "(measured)"],
          check=check("nd.softmax(x, length=n, axis=-1, use_length=True, temperature=1.5)",
                      _code("import math", _MASKED_SOFTMAX,
                            "mx_masked_softmax(x, n, -1, 1.5)"),
                      inputs="x=U(2, 3, 4, lo=-3, hi=3); n=IA([[1, 3, 4], [2, 0, 4]])",
                      grad="x")),
    entry("mx.nd.softmax", form="dtype", when=["dtype"],
          signature=_SOFTMAX_SIG, torch="F.softmax(data, dim=axis, dtype=torch.float64)",
          status=ARGS,
          args="dtype='float64' → dtype=torch.float64 (the output's type); the gradient "
               "reaching data is in data's dtype on both sides",
          gotchas=["MXNet's softmax(x32, dtype='float64') is not a float64 softmax of x: it "
                   "differs from F.softmax(x, dtype=torch.float64) by 2e-8 (float32 work "
                   "inside, measured)"],
          check=check("nd.softmax(x, dtype='float64')",
                      "F.softmax(x, dim=-1, dtype=torch.float64)",
                      inputs="x=U(3, 5, lo=-3, hi=3)", grad="x", dtypes=("float32",),
                      atol=1e-7,
                      note="the input is float32 (the form's use); the float64 output is "
                           "within 1e-7 absolute (measured 2.2e-8): MXNet works partly in "
                           "float32")),
    entry("mx.nd.log_softmax", aliases=["mx.sym.log_softmax"],
          torch="F.log_softmax(data, dim=axis)", status=ARGS,
          args="axis → dim (MXNet's default -1); temperature → divide data first "
               "(F.log_softmax(data / temperature, dim=axis)); log_softmax has no length "
               "input in MXNet 1.9.1 (use_length cannot be used)",
          defaults="axis=-1",
          teach="10_losses §1. Cross-entropy: from logits, from log-probabilities, from class "
                "probabilities",
          check=check("""
              a = nd.log_softmax(x)
              c = nd.log_softmax(x, axis=0, temperature=3.0)
              (a, c)""", "(F.log_softmax(x, dim=-1), F.log_softmax(x / 3.0, dim=0))",
              inputs="x=U(3, 4, lo=-3, hi=3)", grad="x")),
    entry("mx.nd.softmin", aliases=["mx.sym.softmin"], torch="F.softmin(data, dim=axis)",
          status=ARGS, args="axis → dim (default -1); temperature → F.softmin(data / "
                            "temperature, dim=axis)",
          check=check("""
              a = nd.softmin(x)
              c = nd.softmin(x, axis=0, temperature=0.5)
              (a, c)""", "(F.softmin(x, dim=-1), F.softmin(x / 0.5, dim=0))",
              inputs="x=U(3, 4, lo=-3, hi=3)", grad="x")),
    entry("mx.nd.SoftmaxActivation", aliases=["mx.sym.SoftmaxActivation"],
          torch="F.softmax(data, dim=-1)", status=ARGS,
          args="mode='instance' (the default) → dim=-1 (the last axis, whatever the rank)",
          gotchas=["float32 only on CPU: float64 fails with 'data type do not match' "
                   "(measured)",
                   "'instance' is not a softmax over all of a sample's axes: on (N, C, W) it "
                   "is over W",
                   "on more than 2 axes MXNet 1.9.1's gradient is not its forward's: it "
                   "reduces over axis 1 (y·(g − Σ_axis1 y·g)) while the forward normalises "
                   "the last axis (measured: 0.61 off F.softmax(x, -1)'s gradient on "
                   "(2, 3, 4)); on 2-D input both agree"],
          check=check("""
              a = nd.SoftmaxActivation(x)
              c = nd.SoftmaxActivation(y)
              (a, c)""", "(F.softmax(x, dim=-1), F.softmax(y, dim=-1).detach())",
                      inputs="x=U(3, 5, lo=-3, hi=3); y=U(2, 3, 4, lo=-3, hi=3)", grad="x",
                      dtypes=("float32",),
                      note="float32 only: MXNet 1.9.1's SoftmaxActivation has no float64 "
                           "kernel; the 3-D output is compared forward only (MXNet's "
                           "gradient there is not its forward's)")),
    entry("mx.nd.SoftmaxActivation", form="mode='channel'", when=["mode='channel'"],
          signature=("data", "mode"), torch="F.softmax(data, dim=1)", status=ARGS,
          args="mode='channel' → dim=1",
          check=check("nd.SoftmaxActivation(x, mode='channel')", "F.softmax(x, dim=1)",
                      inputs="x=U(2, 3, 4, 5, lo=-3, hi=3)", grad="x", dtypes=("float32",),
                      note="float32 only: no float64 kernel")),
]

# ------------------------------------------------- dropout, embedding, resampling, padding
_DROPOUT_SIG = ("data", "p", "mode", "axes")
_MX_UPSAMPLE_BILINEAR = """
def mx_upsampling_bilinear(data, weight, scale):
    # UpSampling(data, weight, scale=s, sample_type='bilinear', num_filter=C): a depthwise
    # transposed convolution; weight (C, 1, 2s - s % 2, 2s - s % 2)
    return F.conv_transpose2d(data, weight, stride=scale, padding=math.ceil((scale - 1) / 2),
                              groups=data.shape[1])
"""

ENTRIES += [
    entry("mx.nd.Dropout", aliases=["mx.sym.Dropout"],
          torch="F.dropout(data, p, training=training)", status=ARGS,
          args="p → p; training: MXNet drops while recording in training mode "
               "(autograd.record(), train_mode()), PyTorch when training=True "
               "(module.train()); kept values are scaled by 1/(1 − p) on both sides",
          defaults="p=0.5 on both sides",
          gotchas=["outside a training scope (predict mode, or not recording) MXNet's "
                   "Dropout is the identity: F.dropout(..., training=False)",
                   "MXNet's scale is float32 even for float64 data: 1/(1 − 0.3) is "
                   "1.4285714626312256 there, 1.4285714285714286 in PyTorch (2e-8 relative; "
                   "measured)"],
          teach="20_sequence_models §5. Inter-layer dropout in fused layers",
          check=check("""
              a = nd.Dropout(nd.ones_like(x), p=0.3)
              with autograd.predict_mode():
                  c = nd.Dropout(x, p=0.3)
              ((a == 0).mean(), a.max(), c)""", """
              a = F.dropout(torch.ones_like(x), 0.3, training=True)
              c = F.dropout(x, 0.3, training=False)
              ((a == 0).to(x.dtype).mean().reshape(1), a.max().reshape(1), c)""",
              inputs="x=P(20000)", atol=0.02, rtol=0, atol32=0.02, rtol32=0,
              note="statistics of a random mask: the dropped fraction (20000 draws: two "
                   "samples' standard deviation 0.0046, bound 0.02), the kept values' scale "
                   "(MXNet's float32 1/(1-p) is 2e-8 off: under the bound), and the "
                   "identity in predict mode")),
    entry("mx.nd.Dropout", form="mode='always'", when=["mode='always'"],
          signature=_DROPOUT_SIG, torch="F.dropout(data, p, training=True)", status=ARGS,
          args="mode='always' → training=True whatever the scope (Monte-Carlo dropout)",
          check=check("""
              with autograd.predict_mode():
                  a = nd.Dropout(nd.ones_like(x), p=0.4, mode='always')
              ((a == 0).mean(), a.max())""", """
              a = F.dropout(torch.ones_like(x), 0.4, training=True)
              ((a == 0).to(x.dtype).mean().reshape(1), a.max().reshape(1))""",
              inputs="x=P(20000)", atol=0.02, rtol=0, atol32=0.02, rtol32=0,
              note="the dropped fraction and the kept scale of a random mask, in predict "
                   "mode (bound 0.02: 4 standard deviations)")),
    entry("mx.nd.Dropout", form="axes", when=["axes"],
          signature=_DROPOUT_SIG,
          torch="data * F.dropout(torch.ones(mask_shape, dtype=data.dtype), p, "
                "training=True)",
          status=COMPOSITE,
          args="axes → the axes along which one mask value is shared: mask_shape is "
               "data.shape with those axes set to 1 (axes=(1,) on (N, T): one decision per "
               "row); F.dropout1d/2d share along the spatial axes only",
          gotchas=["F.dropout2d drops whole channels of (N, C, H, W): that is axes=(2, 3) in "
                   "MXNet"],
          check=check("""
              a = nd.Dropout(nd.ones_like(x), p=0.4, axes=(1,))
              ((a[:, 0] == 0).mean(), a.max(), nd.abs(a[:, 0] - a[:, 2]).max())""", """
              a = torch.ones_like(x) * F.dropout(torch.ones((x.shape[0], 1), dtype=x.dtype),
                                                 0.4, training=True)
              ((a[:, 0] == 0).to(x.dtype).mean().reshape(1), a.max().reshape(1),
               (a[:, 0] - a[:, 2]).abs().max().reshape(1))""",
              inputs="x=P(20000, 3)", atol=0.02, rtol=0, atol32=0.02, rtol32=0,
              note="the dropped fraction of rows, the kept scale, and each row's values "
                   "equal (one decision per row; without the shared mask the last value is"
                   " the scale, 1.67)")),
    entry("mx.nd.Embedding", aliases=["mx.sym.Embedding", "mx.nd.sparse.Embedding",
                                      "mx.sym.sparse.Embedding"],
          torch="F.embedding(data.long().clamp(0, input_dim - 1), weight)", status=COMPOSITE,
          args="data (float indices in MXNet) → integer indices (.long() truncates as MXNet "
               "does); weight (input_dim, output_dim) → weight; input_dim, output_dim: the "
               "weight's shape; dtype → the weight's dtype; sparse_grad=True → sparse=True "
               "(a sparse gradient; the values are the same)",
          gotchas=["MXNet clips out-of-range indices (7 → input_dim − 1, −1 → 0) and "
                   "truncates fractional ones (2.7 → 2); F.embedding raises IndexError",
                   "MXNet's indices are usually float32; PyTorch's must be integers"],
          teach="20_sequence_models §1. Embeddings: the same table, other defaults, other "
                "index types",
          check=check("nd.Embedding(i, w, input_dim=6, output_dim=4)",
                      "F.embedding(i.long().clamp(0, 6 - 1), w)",
                      inputs="i=A([[0, 5, 7], [-1, 2.7, 3]]); w=U(6, 4)", grad="w")),
    entry("mx.nd.UpSampling", aliases=["mx.sym.UpSampling"],
          torch="F.interpolate(data, scale_factor=scale, mode='nearest')", status=ARGS,
          args="sample_type='nearest'; scale → scale_factor (an integer); several inputs "
               "(num_args > 1, multi_input_mode='concat'): each is resized to the first "
               "input's size × scale and they are concatenated on axis 1: torch.cat("
               "[F.interpolate(d, size=size, mode='nearest') for d in data], 1); "
               "workspace: no counterpart",
          check=check("""
              a = nd.UpSampling(x, scale=2, sample_type='nearest')
              c = nd.UpSampling(y, x, scale=2, sample_type='nearest', num_args=2)
              (a, c)""", """
              a = F.interpolate(x, scale_factor=2, mode='nearest')
              size = (y.shape[2] * 2, y.shape[3] * 2)
              c = torch.cat([F.interpolate(d, size=size, mode='nearest') for d in (y, x)], 1)
              (a, c)""", inputs="x=U(2, 3, 4, 5); y=U(2, 2, 8, 10)", grad="x, y")),
    entry("mx.nd.UpSampling", form="sample_type='bilinear'", when=["sample_type='bilinear'"],
          torch="mx_upsampling_bilinear(data, weight, scale)", status=RECIPE,
          recipe="import math\n" + _MX_UPSAMPLE_BILINEAR,
          args="the second input is the (C, 1, k, k) kernel, k = 2·scale − scale % 2 "
               "(learnt, or a bilinear initialiser: mx.init.Bilinear); num_filter = C",
          gotchas=["it is not F.interpolate(mode='bilinear'): MXNet's bilinear UpSampling is "
                   "a depthwise Deconvolution whose weight the user supplies"],
          check=check("""
              a = nd.UpSampling(x, w, scale=2, sample_type='bilinear', num_filter=3)
              c = nd.UpSampling(x, w3, scale=3, sample_type='bilinear', num_filter=3)
              (a, c)""", _code("import math", _MX_UPSAMPLE_BILINEAR, """
              (mx_upsampling_bilinear(x, w, 2), mx_upsampling_bilinear(x, w3, 3))"""),
              inputs="x=U(2, 3, 4, 5); w=U(3, 1, 4, 4); w3=U(3, 1, 5, 5)",
              grad="x, w, w3")),
    entry("mx.nd.pad", aliases=["mx.sym.pad"],
          torch="F.pad(data, torch_pad, mode='constant', value=constant_value)", status=ARGS,
          args="pad_width (before, after per axis, from the *first* axis; the first two "
               "pairs must be 0) → torch_pad (left, right per axis, from the *last* axis): "
               "pad_width=(0, 0, 0, 0, a, b, c, d) → (c, d, a, b); mode 'constant' → "
               "'constant' (constant_value → value), 'edge' → 'replicate', 'reflect' → "
               "'reflect'",
          gotchas=["the pairs run in opposite axis order: reversing pad_width pair by pair is "
                   "the conversion"],
          check=check("""
              a = nd.pad(x, mode='constant', pad_width=(0, 0, 0, 0, 1, 2, 3, 1),
                         constant_value=0.5)
              c = nd.pad(x, mode='edge', pad_width=(0, 0, 0, 0, 2, 0, 0, 1))
              e = nd.pad(x, mode='reflect', pad_width=(0, 0, 0, 0, 1, 2, 3, 1))
              (a, c, e)""", """
              a = F.pad(x, (3, 1, 1, 2), mode='constant', value=0.5)
              c = F.pad(x, (0, 1, 2, 0), mode='replicate')
              e = F.pad(x, (3, 1, 1, 2), mode='reflect')
              (a, c, e)""", inputs="x=U(2, 3, 4, 5)", grad="x")),
]
