"""MXNet's loss-layer operators (``SoftmaxOutput``, the regression outputs, ``MakeLoss``,
``smooth_l1``, CTC): their forward value and the gradient they send back, in PyTorch."""
from ..model import ARGS, COMPOSITE, RECIPE, check, entry


def _code(*parts):
    import textwrap

    return "\n".join(textwrap.dedent(p).strip("\n") for p in parts)


# A loss layer's backward ignores the head gradient it receives: both snippets compute the
# gradient themselves (MXNet: backward() with a head of 3s, to show it is ignored).
_MX_LOSS_LAYER = """
    x2 = x.copy()
    x2.attach_grad()
    with autograd.record():
        out = {call}
    with autograd.pause():
        out.backward(nd.full(out.shape, 3.0, dtype=dtype))  # the head is ignored
    (out, x2.grad)
"""


def _mx(call):
    return _MX_LOSS_LAYER.format(call=call)


def _torch(forward, loss):
    return _code(f"""
        xg = x.clone().requires_grad_(True)
        loss = {loss}
        loss.backward()
        ({forward}, xg.grad)""")


_SO_SIG = ("data", "label", "grad_scale", "ignore_label", "multi_output", "use_ignore",
           "preserve_shape", "normalization", "out_grad", "smooth_alpha")
_LOSS_NOTE = ("the gradient is compared as an output: the loss layer's backward ignores the "
              "head gradient, so the runner's random heads are not used")

ENTRIES = [
    entry("mx.nd.SoftmaxOutput", aliases=["mx.sym.SoftmaxOutput"],
          torch="F.softmax(data, dim=-1)  # training: (F.cross_entropy(data, label.long(), "
                "reduction='sum') * grad_scale).backward()",
          status=COMPOSITE,
          args="forward: the probabilities, F.softmax(data, dim=-1) on (N, C) data (more "
               "axes: the multi_output and preserve_shape forms); backward: "
               "(softmax − one_hot(label)) · grad_scale, which is the gradient of "
               "F.cross_entropy(data, label, reduction='sum') · grad_scale; label (float class"
               " indices) → label.long(); a label of the output's shape is read as "
               "probabilities (F.cross_entropy with probability targets)",
          defaults="normalization='null': the gradient is summed over the batch (reduction="
                   "'sum'), not averaged",
          gotchas=["a loss *layer*: its output is the probabilities, not a loss value, and "
                   "its backward ignores the incoming head gradient (a head of 3s gives the "
                   "same gradient as ones)",
                   "the default normalization='null' sums over the batch: the gradient is N "
                   "times that of F.cross_entropy's default mean"],
          teach="17_legacy_module_api §2. `SoftmaxOutput` is a loss layer",
          check=check(_mx("nd.SoftmaxOutput(x2, lab.astype(dtype), grad_scale=2.5)"),
                      _torch("F.softmax(x, dim=-1)",
                             "F.cross_entropy(xg, lab, reduction='sum') * 2.5"),
                      inputs="x=U(4, 5, lo=-2, hi=2); lab=IA([1, 0, 4, 2])",
                      note=_LOSS_NOTE)),
    entry("mx.nd.SoftmaxOutput", form="normalization='batch'", when=["normalization='batch'"],
          signature=_SO_SIG,
          torch="F.softmax(data, dim=-1)  # training: (F.cross_entropy(data, label.long()) * "
                "grad_scale).backward()",
          status=COMPOSITE,
          args="normalization='batch' → the gradient divided by the batch size: "
               "F.cross_entropy's default reduction='mean'",
          check=check(_mx("nd.SoftmaxOutput(x2, lab.astype(dtype), normalization='batch')"),
                      _torch("F.softmax(x, dim=-1)", "F.cross_entropy(xg, lab)"),
                      inputs="x=U(4, 5, lo=-2, hi=2); lab=IA([1, 0, 4, 2])",
                      note=_LOSS_NOTE)),
    entry("mx.nd.SoftmaxOutput", form="use_ignore=True", when=["use_ignore=True"],
          signature=_SO_SIG,
          torch="F.softmax(data, dim=-1)  # training: F.cross_entropy(data, label.long(), "
                "ignore_index=ignore_label, reduction='sum')",
          status=COMPOSITE,
          args="use_ignore=True, ignore_label → ignore_index (an int); normalization='valid' "
               "→ reduction='mean' (divides by the number of non-ignored samples, as "
               "F.cross_entropy's mean does with ignore_index), 'null' → 'sum', 'batch' → "
               "'sum' divided by N",
          gotchas=["ignore_label without use_ignore=True is ignored: every sample counts",
                   "the ignored rows still get their probabilities in the forward output"],
          check=check(_mx("nd.SoftmaxOutput(x2, lab.astype(dtype), use_ignore=True, "
                          "ignore_label=1, normalization='valid')"),
                      _torch("F.softmax(x, dim=-1)", "F.cross_entropy(xg, lab, ignore_index=1)"),
                      inputs="x=U(4, 5, lo=-2, hi=2); lab=IA([1, 0, 1, 2])",
                      note=_LOSS_NOTE)),
    entry("mx.nd.SoftmaxOutput", form="multi_output=True", when=["multi_output=True"],
          signature=_SO_SIG,
          torch="F.softmax(data, dim=1)  # training: F.cross_entropy(data, label.long(), "
                "reduction='sum') / spatial_size",
          status=COMPOSITE,
          args="multi_output=True: data (N, C, d1, …), label (N, d1, …): softmax over axis 1;"
               " the gradient of normalization='null' is the summed cross-entropy's divided "
               "by the number of positions d1·… per sample; 'batch' and 'valid' (nothing "
               "ignored) → F.cross_entropy's mean over all N·d1·… positions",
          gotchas=["normalization='null' with multi_output divides by the positions per "
                   "sample (measured factor 1/3 on d1 = 3, in float32), unlike the 2-D case",
                   "the factor is a float32 number: 1/3 is 0.3333333432674408 (float64 "
                   "gradients 3e-8 relative off an exact division)"],
          check=check(_mx("nd.SoftmaxOutput(x2, lab.astype(dtype), multi_output=True)"),
                      _torch("F.softmax(x, dim=1)",
                             "F.cross_entropy(xg, lab, reduction='sum') * "
                             "float(onp.float32(1 / 3))"),
                      inputs="x=U(2, 4, 3, lo=-2, hi=2); lab=I(0, 4, (2, 3))",
                      note=_LOSS_NOTE + "; the 1/3 is MXNet's float32 factor")),
    entry("mx.nd.SoftmaxOutput", form="smooth_alpha", when=["smooth_alpha"],
          signature=_SO_SIG,
          torch="F.softmax(data, dim=-1)  # training: F.cross_entropy(data, label.long(), "
                "reduction='sum', label_smoothing=smooth_alpha * C / (C - 1))",
          status=COMPOSITE,
          args="smooth_alpha=a takes a from the true class and spreads it over the C − 1 "
               "others; PyTorch's label_smoothing=s spreads s over all C classes: s = a·C/(C−1)",
          gotchas=["label_smoothing=smooth_alpha is wrong by the factor C/(C − 1) (measured: "
                   "0.02 off on 5 classes)",
                   "smooth_alpha is a float32 field (1.5e-9 on float64 gradients)"],
          check=check(_mx("nd.SoftmaxOutput(x2, lab.astype(dtype), smooth_alpha=0.1)"),
                      _torch("F.softmax(x, dim=-1)",
                             "F.cross_entropy(xg, lab, reduction='sum', "
                             "label_smoothing=0.1 * 5 / 4)"),
                      inputs="x=U(4, 5, lo=-2, hi=2); lab=IA([1, 0, 4, 2])", rtol=1e-8,
                      atol=1e-8,
                      note=_LOSS_NOTE + "; smooth_alpha is a float32 field: 1.5e-9 measured")),
    entry("mx.nd.SoftmaxOutput", form="preserve_shape=True", when=["preserve_shape=True"],
          signature=_SO_SIG,
          torch="F.softmax(data, dim=-1)  # training: F.cross_entropy(data.flatten(0, -2), "
                "label.long().flatten(), reduction='sum')",
          status=COMPOSITE,
          args="preserve_shape=True: softmax over the last axis of data (N, …, C), label "
               "(N, …)",
          check=check(_mx("nd.SoftmaxOutput(x2, lab.astype(dtype), preserve_shape=True)"),
                      _torch("F.softmax(x, dim=-1)",
                             "F.cross_entropy(xg.flatten(0, -2), lab.flatten(), "
                             "reduction='sum')"),
                      inputs="x=U(2, 3, 4, lo=-2, hi=2); lab=I(0, 4, (2, 3))",
                      note=_LOSS_NOTE)),
    entry("mx.nd.Softmax", aliases=["mx.sym.Softmax"],
          torch="F.softmax(data, dim=-1)  # training: (F.cross_entropy(data, label.long(), "
                "reduction='sum') * grad_scale).backward()",
          status=COMPOSITE,
          args="the deprecated name of SoftmaxOutput (a loss layer, not nd.softmax): the same "
               "arguments and forms",
          gotchas=["nd.Softmax is not nd.softmax: it takes a label and its backward is the "
                   "cross-entropy gradient"],
          teach="17_legacy_module_api §2. `SoftmaxOutput` is a loss layer",
          check=check(_mx("nd.Softmax(x2, lab.astype(dtype))"),
                      _torch("F.softmax(x, dim=-1)", "F.cross_entropy(xg, lab, reduction='sum')"),
                      inputs="x=U(4, 5, lo=-2, hi=2); lab=IA([3, 0, 4, 2])",
                      note=_LOSS_NOTE)),
]

# ------------------------------------------------------------ regression output layers
_REG_NOTE = (_LOSS_NOTE + "; the scale grad_scale / (values per sample) is a float32 number "
             "in MXNet, and the torch side uses the same rounding")

ENTRIES += [
    entry("mx.nd.LinearRegressionOutput", aliases=["mx.sym.LinearRegressionOutput",
                                                   "mx.nd.sparse.LinearRegressionOutput"],
          torch="data  # training: (F.mse_loss(data, label, reduction='sum') / 2 * grad_scale /"
                " m).backward(), m = data[0].numel()",
          status=COMPOSITE,
          args="forward: the identity; backward: (data − label) · grad_scale / m, m the "
               "number of values per sample (data.size / data.shape[0])",
          gotchas=["the gradient is divided by the values per sample, not by the batch size "
                   "(measured: 1/3 for (4, 3) data, 1 for (4,) or (4, 1))",
                   "grad_scale / m is rounded to float32: 0.3333333432674408 for 1/3"],
          check=check(_mx("nd.LinearRegressionOutput(x2, lab, grad_scale=2.0)"),
                      _torch("x", "F.mse_loss(xg, lab, reduction='sum') / 2 * "
                                  "float(onp.float32(2.0 / 3))"),
                      inputs="x=U(4, 3); lab=U(4, 3)", note=_REG_NOTE)),
    entry("mx.nd.LogisticRegressionOutput", aliases=["mx.sym.LogisticRegressionOutput",
                                                     "mx.nd.sparse.LogisticRegressionOutput"],
          torch="torch.sigmoid(data)  # training: (F.binary_cross_entropy_with_logits(data, "
                "label, reduction='sum') * grad_scale / m).backward()",
          status=COMPOSITE,
          args="forward: sigmoid(data); backward: (sigmoid(data) − label) · grad_scale / m, m "
               "the values per sample",
          gotchas=["the output is a probability, the gradient that of the logits' binary "
                   "cross-entropy summed, divided by the values per sample (float32 factor)"],
          check=check(_mx("nd.LogisticRegressionOutput(x2, lab)"),
                      _torch("torch.sigmoid(x)",
                             "F.binary_cross_entropy_with_logits(xg, lab, reduction='sum') * "
                             "float(onp.float32(1 / 3))"),
                      inputs="x=U(4, 3, lo=-3, hi=3); lab=U(4, 3, lo=0, hi=1)",
                      note=_REG_NOTE)),
    entry("mx.nd.MAERegressionOutput", aliases=["mx.sym.MAERegressionOutput",
                                                "mx.nd.sparse.MAERegressionOutput"],
          torch="data  # training: (F.l1_loss(data, label, reduction='sum') * grad_scale / m)"
                ".backward()",
          status=COMPOSITE,
          args="forward: the identity; backward: sign(data − label) · grad_scale / m",
          check=check(_mx("nd.MAERegressionOutput(x2, lab, grad_scale=0.5)"),
                      _torch("x", "F.l1_loss(xg, lab, reduction='sum') * "
                                  "float(onp.float32(0.5 / 3))"),
                      inputs="x=U(4, 3); lab=U(4, 3)", note=_REG_NOTE)),
]

# --------------------------------------------------------------- MakeLoss, smooth_l1, CTC
_KL_REG = """
class _AddToGradient(torch.autograd.Function):
    @staticmethod
    def forward(ctx, data, extra):
        ctx.save_for_backward(extra)
        return data.clone()

    @staticmethod
    def backward(ctx, grad):
        (extra,) = ctx.saved_tensors
        return grad + extra, None


def mx_kl_sparse_reg(data, moving_avg, sparseness_target=0.1, penalty=0.001, momentum=0.9):
    # IdentityAttachKLSparseReg: the identity; backward adds penalty·(−ρ/ρ̂ + (1−ρ)/(1−ρ̂)),
    # ρ̂ the moving average of each feature's batch mean (updated here; MXNet: in backward)
    with torch.no_grad():
        moving_avg.mul_(momentum).add_((1 - momentum) * data.flatten(1).mean(0))
        extra = penalty * (-sparseness_target / moving_avg
                           + (1 - sparseness_target) / (1 - moving_avg))
    return _AddToGradient.apply(data, extra.reshape(data.shape[1:]).expand_as(data))
"""

ENTRIES += [
    entry("mx.nd.MakeLoss", aliases=["mx.sym.MakeLoss"],
          torch="data  # training: (data.sum() * grad_scale).backward()",
          status=COMPOSITE,
          args="forward: the identity; backward: every element gets grad_scale (the head "
               "gradient is ignored): the gradient of data.sum() · grad_scale; "
               "normalization='batch' → divided by data.shape[0]; 'valid' → divided by the "
               "number of elements > valid_thresh (at least 1)",
          gotchas=["MakeLoss ignores the gradient flowing into it (measured: a head of 3s "
                   "gives grad_scale)"],
          check=check("""
              x2 = x.copy()
              x2.attach_grad()
              with autograd.record():
                  a = nd.MakeLoss(x2 * 2, grad_scale=0.5)
                  c = nd.MakeLoss(x2 * 3, normalization='batch')
                  e = nd.MakeLoss(x2 - 0.2, normalization='valid', valid_thresh=0.1)
              with autograd.pause():
                  autograd.backward([a, c, e], [nd.full(a.shape, 3.0, dtype=dtype)] * 3)
              (a, c, e, x2.grad)""", """
              xg = x.clone().requires_grad_(True)
              a, c, e = xg * 2, xg * 3, xg - 0.2
              n_valid = max(1, int((e > 0.1).sum()))
              (a.sum() * 0.5 + c.sum() / x.shape[0] + e.sum() / n_valid).backward()
              (a.detach(), c.detach(), e.detach(), xg.grad)""",
              inputs="x=U(4, 3)", note=_LOSS_NOTE)),
    entry("mx.nd.make_loss", aliases=["mx.sym.make_loss", "mx.nd.sparse.make_loss"],
          torch="data  # training: data.sum().backward()",
          status=COMPOSITE,
          args="forward: the identity; backward: ones (the head gradient is ignored) — the "
               "gradient of data.sum()",
          gotchas=["not the same operator as MakeLoss: no grad_scale or normalization"],
          check=check("""
              x2 = x.copy()
              x2.attach_grad()
              with autograd.record():
                  a = nd.make_loss(x2 * x2)
              with autograd.pause():
                  a.backward(nd.full(a.shape, 3.0, dtype=dtype))
              (a, x2.grad)""", """
              xg = x.clone().requires_grad_(True)
              a = xg * xg
              a.sum().backward()
              (a.detach(), xg.grad)""", inputs="x=U(4, 3)", note=_LOSS_NOTE)),
    entry("mx.nd.smooth_l1", aliases=["mx.sym.smooth_l1"],
          torch="F.smooth_l1_loss(data, torch.zeros_like(data), reduction='none', "
                "beta=1 / scalar ** 2)",
          status=ARGS,
          args="scalar σ → beta = 1/σ² (MXNet: 0.5·(σx)² below 1/σ², |x| − 0.5/σ² above); "
               "the operator takes the difference itself: smooth_l1(pred − target) is "
               "F.smooth_l1_loss(pred, target, reduction='none', beta=1/σ²)",
          defaults="scalar=1 (beta=1), as PyTorch's beta=1.0",
          gotchas=["beta=scalar is wrong: σ=3 (detection code's rpn setting) is beta=1/9"],
          teach="10_losses §5. L1; MSE against `L2Loss`; SmoothL1 and Huber against "
                "`HuberLoss`",
          check=check("""
              a = nd.smooth_l1(x)
              c = nd.smooth_l1(x, scalar=3.0)
              (a, c)""", """
              a = F.smooth_l1_loss(x, torch.zeros_like(x), reduction='none', beta=1.0)
              c = F.smooth_l1_loss(x, torch.zeros_like(x), reduction='none', beta=1 / 3.0 ** 2)
              (a, c)""", inputs="x=U(4, 5, lo=-2, hi=2)", grad="x")),
    entry("mx.nd.CTCLoss", aliases=["mx.sym.CTCLoss", "mx.nd.contrib.CTCLoss",
                                    "mx.sym.contrib.CTCLoss"],
          torch="F.ctc_loss(F.log_softmax(data, -1), label, input_lengths, "
                "(label != 0).sum(1), blank=0, reduction='none')",
          status=COMPOSITE,
          args="data (T, N, C) activations (MXNet applies the softmax) → log_softmax first; "
               "label (N, L) padded with 0 (blank_label='first') → targets, target_lengths ="
               " the non-padding count; input_lengths = T for every sample, or data_lengths "
               "with use_data_lengths=True; label_lengths with use_label_lengths=True → "
               "target_lengths; blank_label='first' → blank=0, 'last' → blank=C − 1 with -1 "
               "padding (clamp it to 0 for PyTorch); reduction='none' (one loss per sample)",
          gotchas=["float32 only on CPU: float64 fails with 'data type do not match' "
                   "(measured)",
                   "MXNet takes raw activations; F.ctc_loss takes log-probabilities"],
          teach="20_sequence_models §8. Losses over sequences, padding, perplexity",
          check=check("""
              a = nd.CTCLoss(x, lab.astype(dtype))
              c = nd.CTCLoss(x, lab2.astype(dtype), blank_label='last')
              e = nd.CTCLoss(x, lab.astype(dtype), dl.astype(dtype), ll.astype(dtype),
                             use_data_lengths=True, use_label_lengths=True)
              (a, c, e)""", """
              logp = F.log_softmax(x, -1)
              a = F.ctc_loss(logp, lab, torch.full((3,), 6), (lab != 0).sum(1), blank=0,
                             reduction='none')
              c = F.ctc_loss(logp, lab2.clamp(min=0), torch.full((3,), 6), (lab2 != -1).sum(1),
                             blank=5 - 1, reduction='none')
              e = F.ctc_loss(logp, lab, dl, ll, blank=0, reduction='none')
              (a, c, e)""",
              inputs="x=U(6, 3, 5, lo=-2, hi=2); lab=IA([[2, 1, 0, 0], [3, 2, 2, 0], "
                     "[1, 2, 1, 3]]); lab2=IA([[1, 0, -1, -1], [2, 1, 1, -1], [0, 1, 0, 2]]);"
                     " dl=IA([6, 4, 5]); ll=IA([1, 2, 4])", grad="x", dtypes=("float32",),
              note="float32 only: MXNet 1.9.1's CPU CTCLoss has no float64 kernel")),
    entry("mx.nd.ctc_loss", aliases=["mx.sym.ctc_loss", "mx.nd.contrib.ctc_loss",
                                     "mx.sym.contrib.ctc_loss"],
          torch="F.ctc_loss(F.log_softmax(data, -1), label, input_lengths, "
                "(label != 0).sum(1), blank=0, reduction='none')",
          status=COMPOSITE,
          args="the same operator as nd.CTCLoss under its other name: the same mapping",
          gotchas=["float32 only on CPU (measured)"],
          check=check("nd.ctc_loss(x, lab.astype(dtype))", """
              F.ctc_loss(F.log_softmax(x, -1), lab, torch.full((2,), 5), (lab != 0).sum(1),
                         blank=0, reduction='none')""",
              inputs="x=U(5, 2, 4, lo=-2, hi=2); lab=IA([[2, 1, 3], [3, 0, 0]])", grad="x",
              dtypes=("float32",),
              note="float32 only: MXNet 1.9.1's CPU ctc_loss has no float64 kernel")),
    entry("mx.nd.SVMOutput", aliases=["mx.sym.SVMOutput"],
          torch="data  # training: (regularization_coefficient * F.relu(margin - y * data)"
                ".pow(2).sum()).backward(), y = 2 * F.one_hot(label.long(), C) - 1",
          status=COMPOSITE,
          args="forward: the identity (the scores); backward: the one-vs-all squared hinge "
               "Σ max(0, margin − y·s)² · regularization_coefficient, y = +1 for the label's "
               "class and −1 for the others; use_linear=True: the plain hinge (no square)",
          gotchas=["not F.multi_margin_loss (Crammer–Singer, margins between classes): "
                   "MXNet's is one-vs-all, summed, not averaged; the head gradient is "
                   "ignored"],
          check=check(_mx("nd.SVMOutput(x2, lab.astype(dtype), margin=0.5, "
                          "regularization_coefficient=2.0)"), """
              xg = x.clone().requires_grad_(True)
              y = 2 * F.one_hot(lab, 5).to(x.dtype) - 1
              (2.0 * F.relu(0.5 - y * xg).pow(2).sum()).backward()
              (x, xg.grad)""", inputs="x=U(4, 5, lo=-2, hi=2); lab=IA([1, 0, 4, 2])",
              note=_LOSS_NOTE)),
    entry("mx.nd.SVMOutput", form="use_linear=True", when=["use_linear=True"],
          signature=("data", "label", "margin", "regularization_coefficient", "use_linear"),
          torch="data  # training: (regularization_coefficient * F.relu(margin - y * data)"
                ".sum()).backward(), y = 2 * F.one_hot(label.long(), C) - 1",
          status=COMPOSITE, args="use_linear=True: the L1-SVM (hinge, not squared)",
          check=check(_mx("nd.SVMOutput(x2, lab.astype(dtype), use_linear=True)"), """
              xg = x.clone().requires_grad_(True)
              y = 2 * F.one_hot(lab, 5).to(x.dtype) - 1
              F.relu(1.0 - y * xg).sum().backward()
              (x, xg.grad)""", inputs="x=U(4, 5, lo=-2, hi=2); lab=IA([1, 0, 4, 2])",
              note=_LOSS_NOTE)),
    entry("mx.nd.IdentityAttachKLSparseReg", aliases=["mx.sym.IdentityAttachKLSparseReg"],
          torch="mx_kl_sparse_reg(data, moving_avg, sparseness_target, penalty, momentum)",
          status=RECIPE, recipe=_KL_REG,
          args="data (after a sigmoid) → data; the auxiliary state moving_avg (one per "
               "feature of data flattened to (N, -1), created by the symbol API: set it, as "
               "the check does) → moving_avg; sparseness_target ρ, penalty, momentum as named",
          gotchas=["usable through the symbol API only: nd.IdentityAttachKLSparseReg(x) "
                   "raises 'expects 2 inputs, but got 1' and takes no aux array (measured)",
                   "float32 only (real_t kernel); the moving average is updated by the "
                   "backward pass, with the batch mean of each feature"],
          check=check("""
              s = sym.IdentityAttachKLSparseReg(sym.Variable('data'), sparseness_target=0.2,
                                                penalty=0.01, momentum=0.8)
              ex = s.simple_bind(mx.cpu(), data=x.shape)
              for k in ex.aux_dict:
                  ex.aux_dict[k][:] = 0.4
              ex.forward(is_train=True, data=x)
              out = ex.outputs[0].copy()
              ex.backward(h)
              (out, ex.grad_dict['data'], list(ex.aux_dict.values())[0])""", _code(_KL_REG, """
              ma = torch.full((3,), 0.4, dtype=x.dtype)
              xg = x.clone().requires_grad_(True)
              out = mx_kl_sparse_reg(xg, ma, 0.2, 0.01, 0.8)
              out.backward(h)
              (out.detach(), xg.grad, ma)"""),
              inputs="x=U(4, 3, lo=0.1, hi=0.9); h=U(4, 3)", dtypes=("float32",),
              note="float32 only (MXNet's kernel is real_t); run through the symbol API, the "
                   "only way to pass the auxiliary state")),
]
