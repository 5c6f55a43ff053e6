"""`mx.gluon.loss`: every loss class, its forms, and the helpers custom losses import."""
from ..model import ARGS, COMPOSITE, RECIPE, check, entry

_PER_SAMPLE = ("Gluon returns one loss per sample (the mean over every axis but the batch "
               "axis); PyTorch reduces to one number unless reduction='none'")
_CE = "10_losses §1. Cross-entropy: from logits, from log-probabilities, from class probabilities"
_BCE = "10_losses §4. Binary cross-entropy, `pos_weight`, and probabilities of exactly 0 and 1"
_REG = "10_losses §5. L1; MSE against `L2Loss`; SmoothL1 and Huber against `HuberLoss`"
_KL = "10_losses §6. KL divergence, and the map in float32"

ENTRIES = [
    # ------------------------------------------------------------------ cross-entropy
    entry("mx.gluon.loss.SoftmaxCrossEntropyLoss", aliases=["mx.gluon.loss.SoftmaxCELoss"],
          torch="torch.nn.CrossEntropyLoss(reduction='none')(pred, label)",
          status=ARGS,
          args="pred (N, C) logits → input; label (N,) or (N, 1) class indices, any dtype → "
               "target, int64, shape (N,): label.long().view(-1); sample_weight (N, 1) → "
               "multiply the result by sample_weight.view(-1); weight=w → multiply the result "
               "by w; pred (N, T, C) with the default axis=-1 → CrossEntropyLoss(reduction="
               "'none')(pred.permute(0, 2, 1), label).mean(dim=1) (PyTorch wants the classes "
               "on dim 1)",
          defaults="reduction: PyTorch 'mean' (one number); " + _PER_SAMPLE + "; classes: "
                   "Gluon's last axis (axis=-1), PyTorch's dim 1",
          gotchas=[
              "Gluon takes float class indices of shape (N, 1) (the check passes them); "
              "PyTorch raises unless they are int64 of shape (N,)",
              "a sample_weight of shape (N,) instead of (N, 1) raises nothing: it broadcasts "
              "against the (N, 1) losses into (N, N), and every loss comes out multiplied by "
              "the mean weight (the check's fifth output reproduces it)",
              "sequences (N, T, C): the loss is the mean over the T steps, and PyTorch needs "
              "the classes moved to dim 1",
              "float32: MXNet's gradient goes through oneDNN's log_softmax and is a few "
              "1e-6 of its scale off its own float64 gradient: 2.2e-6 on this check's "
              "logits (N(0, 3)), against 6e-8 for PyTorch's; a float32 comparison must allow "
              "it (this check: rtol32=1e-5)",
          ],
          teach=_CE,
          check=check("""
              ce = gluon.loss.SoftmaxCrossEntropyLoss()
              (ce(x, lab.astype(dtype).reshape((-1, 1))), ce(s, slab), ce(x, lab, sw),
               gluon.loss.SoftmaxCELoss(weight=0.5)(x, lab), ce(x, lab, sw.reshape((-1,))))""",
              """
              ce = nn.CrossEntropyLoss(reduction='none')
              (ce(x, lab), ce(s.permute(0, 2, 1), slab).mean(dim=1), ce(x, lab) * sw.view(-1),
               0.5 * ce(x, lab), ce(x, lab) * sw.mean())""",
              inputs="x=N(6, 5, scale=3); lab=I(0, 5, (6,)); s=U(3, 4, 5, lo=-3, hi=3); "
                     "slab=I(0, 5, (3, 4)); sw=P(6, 1)", grad="x, s",
              rtol32=1e-5,
              note="rtol32 1e-5, five times the measured gap: MXNet's float32 gradient "
                   "(oneDNN's log_softmax) is 2.2e-6 of its scale off its float64 one, "
                   "PyTorch's 6e-8; the gap is MXNet's")),
    entry("mx.gluon.loss.SoftmaxCrossEntropyLoss", form="sparse_label=False",
          when=["sparse_label=False"], signature=("axis", "sparse_label"),
          torch="torch.nn.CrossEntropyLoss(reduction='none')(pred, label)",
          status=ARGS,
          args="label: class probabilities of pred's shape → target (a float target of the "
               "input's shape is read as probabilities by PyTorch, no flag)",
          defaults="reduction='none', as the default form",
          gotchas=["PyTorch tells probabilities from indices by the target's dtype and shape; "
                   "Gluon must be told (sparse_label=False)"],
          teach=_CE,
          check=check("gluon.loss.SoftmaxCrossEntropyLoss(sparse_label=False)(x, p)",
                      "nn.CrossEntropyLoss(reduction='none')(x, p)",
                      inputs="x=N(4, 5, scale=2); p=PROBS(4, 5)", grad="x, p")),
    entry("mx.gluon.loss.SoftmaxCrossEntropyLoss", form="from_logits=True",
          when=["from_logits=True"], signature=("axis", "sparse_label", "from_logits"),
          torch="torch.nn.NLLLoss(reduction='none')(pred, label)",
          status=ARGS,
          args="pred: log-probabilities (from log_softmax) → input; label → target (int64)",
          defaults="reduction='none', as the default form",
          gotchas=["from_logits=True means 'pred is already log-probabilities' (PyTorch's "
                   "NLLLoss input), not logits: Gluon does not normalise it, and neither does "
                   "NLLLoss (the check feeds raw numbers to both)"],
          teach=_CE,
          check=check("gluon.loss.SoftmaxCrossEntropyLoss(from_logits=True)(x, lab)",
                      "nn.NLLLoss(reduction='none')(x, lab)",
                      inputs="x=N(4, 5); lab=I(0, 5, (4,))", grad="x")),
    entry("mx.gluon.loss.SoftmaxCrossEntropyLoss", form="from_logits=True, sparse_label=False",
          when=["from_logits=True", "sparse_label=False"],
          signature=("axis", "sparse_label", "from_logits"),
          torch="-(pred * label).sum(dim=-1)",
          status=COMPOSITE,
          args="pred: log-probabilities; label: probabilities of pred's shape; axis → dim",
          gotchas=["neither NLLLoss nor CrossEntropyLoss takes log-probabilities with a "
                   "probability target: write the sum"],
          teach=_CE,
          check=check(
              "gluon.loss.SoftmaxCrossEntropyLoss(from_logits=True, sparse_label=False)(x, p)",
              "-(x * p).sum(dim=-1)", inputs="x=N(4, 5); p=PROBS(4, 5)", grad="x, p")),
    entry("mx.gluon.loss.SoftmaxCrossEntropyLoss", form="axis=1", when=["axis=1"],
          signature=("axis",),
          torch="torch.nn.CrossEntropyLoss(reduction='none')(pred, label).flatten(1)"
                ".mean(dim=1)",
          status=ARGS,
          args="pred (N, C, H, W), classes on axis 1 → input as is (PyTorch's class dim); "
               "label (N, H, W) → target (int64)",
          defaults="Gluon averages the per-pixel losses of each sample: .flatten(1).mean(dim=1)",
          gotchas=["with axis=1 the layout is PyTorch's own: no permute, only the mean over "
                   "the remaining axes"],
          teach="10_losses §2. `reduction` against one loss per sample",
          check=check("gluon.loss.SoftmaxCrossEntropyLoss(axis=1)(x, lab)",
                      "nn.CrossEntropyLoss(reduction='none')(x, lab).flatten(1).mean(dim=1)",
                      inputs="x=N(2, 3, 2, 4); lab=I(0, 3, (2, 2, 4))", grad="x")),
    # ----------------------------------------------------------- binary cross-entropy
    entry("mx.gluon.loss.SigmoidBinaryCrossEntropyLoss",
          aliases=["mx.gluon.loss.SigmoidBCELoss"],
          torch="torch.nn.BCEWithLogitsLoss(reduction='none')(pred, label).mean(dim=1)",
          status=ARGS,
          args="pred: logits → input; label (same shape, float) → target; pos_weight (the "
               "4th positional argument of the call) → BCEWithLogitsLoss(reduction='none', "
               "pos_weight=pos_weight); sample_weight (N, 1) → multiply before the mean: "
               "(BCEWithLogitsLoss(reduction='none')(pred, label) * sample_weight).mean(dim=1)"
               "; weight=w → multiply the result by w",
          defaults="reduction: PyTorch 'mean'; " + _PER_SAMPLE,
          gotchas=["the default (from_sigmoid=False) takes logits: BCEWithLogitsLoss, not "
                   "BCELoss",
                   "pos_weight is an argument of Gluon's call, after sample_weight (pass None "
                   "for it), and of PyTorch's constructor"],
          teach=_BCE,
          note="Gluon's forward takes positional arguments only: pos_weight as a keyword "
               "raises a TypeError (notebook 10 §4 runs it).",
          check=check("""
              bce = gluon.loss.SigmoidBCELoss()
              (bce(x, y), bce(x, y, None, pw), bce(x, y, sw),
               gluon.loss.SigmoidBinaryCrossEntropyLoss(weight=0.5)(x, y))""", """
              bce = nn.BCEWithLogitsLoss(reduction='none')
              (bce(x, y).mean(dim=1),
               nn.BCEWithLogitsLoss(reduction='none', pos_weight=pw)(x, y).mean(dim=1),
               (bce(x, y) * sw).mean(dim=1), 0.5 * bce(x, y).mean(dim=1))""",
              inputs="x=N(4, 3, scale=2); y=A(I(0, 2, (4, 3))); pw=P(3); sw=P(4, 1)",
              grad="x")),
    entry("mx.gluon.loss.SigmoidBinaryCrossEntropyLoss", form="from_sigmoid=True",
          when=["from_sigmoid=True"], signature=("from_sigmoid",),
          torch="torch.nn.BCELoss(reduction='none')(pred, label).mean(dim=1)",
          status=ARGS,
          args="pred: probabilities → input; label → target; pos_weight → no BCELoss "
               "argument: -(pos_weight * label * torch.log(pred) + (1 - label) * "
               "torch.log(1 - pred)).mean(dim=1)",
          defaults="reduction='none' and the mean over the non-batch axes, as the default form",
          gotchas=["Gluon adds 1e-12 inside each log: a few 1e-12 apart in float64 (within "
                   "the check's 1e-10); at a probability of exactly 0 or 1 a wrong label costs "
                   "-log(1e-12) = 27.6 in Gluon and 100 in PyTorch (log clamped at -100)"],
          teach=_BCE,
          check=check("""
              bce = gluon.loss.SigmoidBCELoss(from_sigmoid=True)
              (bce(p, y), bce(p, y, None, pw))""", """
              (nn.BCELoss(reduction='none')(p, y).mean(dim=1),
               -(pw * y * torch.log(p) + (1 - y) * torch.log(1 - p)).mean(dim=1))""",
              inputs="p=U(4, 3, lo=0.05, hi=0.95); y=A(I(0, 2, (4, 3))); pw=P(3)",
              grad="p")),
    # ---------------------------------------------------------------- regression
    entry("mx.gluon.loss.L2Loss",
          torch="torch.nn.MSELoss(reduction='none')(pred, label).mean(dim=1) / 2",
          status=ARGS,
          args="pred → input; label → target (reshaped to pred's shape by Gluon: "
               "label.view_as(pred)); sample_weight (N, 1) → (MSELoss(reduction='none')(pred, "
               "label) * sample_weight).mean(dim=1) / 2",
          defaults="Gluon's L2Loss is HALF the squared error (weight=1. is divided by 2); "
                   "reduction: PyTorch 'mean', " + _PER_SAMPLE,
          gotchas=["gluon.loss.L2Loss() ported as plain nn.MSELoss() doubles the loss and the "
                   "gradient: this check fails without the / 2"],
          teach=_REG,
          check=check("""
              l2 = gluon.loss.L2Loss()
              (l2(x, y), l2(x, y, sw), l2(s, s_y.reshape((3, 4))))""", """
              mse = nn.MSELoss(reduction='none')
              (mse(x, y).mean(dim=1) / 2, (mse(x, y) * sw).mean(dim=1) / 2,
               mse(s, s_y.view_as(s)).flatten(1).mean(dim=1) / 2)""",
              inputs="x=N(4, 3); y=N(4, 3); sw=P(4, 1); s=N(3, 2, 2); s_y=N(12)",
              grad="x, y, s, s_y")),
    entry("mx.gluon.loss.L2Loss", form="weight", when=["weight"], signature=("weight",),
          torch="torch.nn.MSELoss(reduction='none')(pred, label).mean(dim=1) * weight / 2",
          status=ARGS,
          args="weight → a factor weight / 2 (L2Loss(weight=2.) is the plain per-sample MSE)",
          gotchas=["L2Loss(weight=2.) is MSELoss(reduction='none') averaged per sample"],
          teach=_REG,
          check=check("(gluon.loss.L2Loss(weight=2.)(x, y), gluon.loss.L2Loss(weight=0.3)(x, y))",
                      """
                      mse = nn.MSELoss(reduction='none')
                      (mse(x, y).mean(dim=1) * 2. / 2, mse(x, y).mean(dim=1) * 0.3 / 2)""",
                      inputs="x=N(4, 3); y=N(4, 3)", grad="x")),
    entry("mx.gluon.loss.L1Loss",
          torch="torch.nn.L1Loss(reduction='none')(pred, label).mean(dim=1)",
          status=ARGS,
          args="pred → input; label → target; sample_weight (N, 1) → multiply before the "
               "mean; weight=w → multiply the result by w",
          defaults="reduction: PyTorch 'mean'; " + _PER_SAMPLE,
          teach=_REG,
          check=check("""
              l1 = gluon.loss.L1Loss()
              (l1(x, y), l1(x, y, sw), gluon.loss.L1Loss(weight=3.)(x, y))""", """
              l1 = nn.L1Loss(reduction='none')
              (l1(x, y).mean(dim=1), (l1(x, y) * sw).mean(dim=1), 3. * l1(x, y).mean(dim=1))""",
              inputs="x=N(4, 3); y=N(4, 3); sw=P(4, 1)", grad="x, y")),
    entry("mx.gluon.loss.HuberLoss",
          torch="torch.nn.SmoothL1Loss(reduction='none', beta=rho)(pred, label).mean(dim=1)",
          status=ARGS,
          args="rho → beta (of SmoothL1Loss); pred → input; label → target; sample_weight "
               "(N, 1) → multiply before the mean",
          defaults="reduction: PyTorch 'mean'; " + _PER_SAMPLE,
          gotchas=["Gluon's HuberLoss(rho) is PyTorch's SmoothL1Loss(beta=rho); PyTorch's "
                   "HuberLoss(delta=rho) is rho times it (the check's third output: "
                   "HuberLoss(rho, weight=rho) = nn.HuberLoss(delta=rho))"],
          teach=_REG,
          check=check("""
              hub = gluon.loss.HuberLoss(rho=0.5)
              (hub(x, y), hub(x, y, sw), gluon.loss.HuberLoss(rho=0.5, weight=0.5)(x, y),
               gluon.loss.HuberLoss()(x, y))""", """
              sl1 = nn.SmoothL1Loss(reduction='none', beta=0.5)
              (sl1(x, y).mean(dim=1), (sl1(x, y) * sw).mean(dim=1),
               nn.HuberLoss(reduction='none', delta=0.5)(x, y).mean(dim=1),
               nn.SmoothL1Loss(reduction='none')(x, y).mean(dim=1))""",
              inputs="x=N(5, 4); y=N(5, 4); sw=P(5, 1)", grad="x, y")),
    # -------------------------------------------------------------- divergences
    entry("mx.gluon.loss.KLDivLoss",
          torch="torch.nn.KLDivLoss(reduction='none')(pred, label).sum(dim=1)",
          status=ARGS,
          args="pred: log-probabilities → input; label: probabilities → target "
               "(log_target=False); sample_weight (N, 1) → multiply before the sum",
          defaults="Gluon SUMS over the non-batch axes (its other losses average): PyTorch's "
                   "reduction='batchmean' is the .mean() of Gluon's losses; PyTorch's default "
                   "'mean' divides by N·C",
          gotchas=["Gluon adds 1e-12 inside log(label): each divergence comes out C·1e-12 "
                   "larger (within the check's float64 bound)"],
          teach=_KL,
          check=check("""
              kl = gluon.loss.KLDivLoss()
              (kl(q, p), kl(q, p, sw))""", """
              kl = nn.KLDivLoss(reduction='none')
              (kl(q, p).sum(dim=1), (kl(q, p) * sw).sum(dim=1))""",
              inputs="q=N(4, 5); p=PROBS(4, 5); sw=P(4, 1)", grad="q, p")),
    entry("mx.gluon.loss.KLDivLoss", form="from_logits=False", when=["from_logits=False"],
          signature=("from_logits", "axis"),
          torch="torch.nn.KLDivLoss(reduction='none')(F.log_softmax(pred, dim=axis), label)"
                ".sum(dim=1)",
          status=COMPOSITE,
          args="pred: logits (Gluon applies log_softmax over axis) → "
               "F.log_softmax(pred, dim=axis); label → target",
          defaults="as the default form: a sum per sample",
          gotchas=["float32: MXNet's log_softmax (oneDNN) puts the loss 1e-5 of its scale "
                   "off PyTorch's (the check's measured bound)"],
          teach=_KL,
          check=check("gluon.loss.KLDivLoss(from_logits=False)(x, p)",
                      "nn.KLDivLoss(reduction='none')(F.log_softmax(x, dim=-1), p).sum(dim=1)",
                      inputs="x=N(4, 5); p=PROBS(4, 5)", grad="x, p", rtol32=3e-5,
                      note="rtol32 3e-5: MXNet's float32 log_softmax (oneDNN on the CPU) is "
                           "a few 1e-6 off; measured 1.0e-5 of the loss's scale")),
    # --------------------------------------------------------------------- CTC
    entry("mx.gluon.loss.CTCLoss",
          torch="torch.nn.CTCLoss(blank=alphabet_size - 1, reduction='none')("
                "pred.log_softmax(2).transpose(0, 1), label, pred_lengths, label_lengths)",
          status=ARGS,
          args="pred (N, T, C) unnormalised → log_softmax(2), then (T, N, C); label (N, S) "
               "padded with -1 → targets (int64); pred_lengths → input_lengths (without "
               "it: T for every sample); label_lengths → target_lengths (without it: "
               "(label != -1).sum(1), Gluon stops at the first -1); alphabet_size = "
               "pred.shape[2]",
          defaults="blank: Gluon reserves the LAST class (alphabet_size - 1), PyTorch's "
                   "default blank=0; reduction: PyTorch 'mean' (divided by the target "
                   "lengths), Gluon one loss per sample, not divided",
          gotchas=["Gluon applies the softmax itself: PyTorch's CTCLoss wants log_softmax "
                   "first",
                   "label padding: Gluon reads a label up to its first -1 unless "
                   "label_lengths is given; PyTorch always needs target_lengths",
                   "with lengths given, MXNet wants label, pred_lengths and label_lengths in "
                   "pred's dtype (float32; int64 raises an MXNetError); PyTorch takes int64",
                   "MXNet's CTC kernel is float32 only: float64 raises (the check asserts it)"],
          check=check("""
              ctc = gluon.loss.CTCLoss()
              try:
                  ctc(x.astype('float64'), lab).asnumpy()
                  raised = False
              except mx.base.MXNetError:
                  raised = True
              assert raised
              (ctc(x, lab), ctc(x, lab.astype(dtype), plen.astype(dtype),
                                  llen.astype(dtype)))""", """
              ctc = nn.CTCLoss(blank=x.shape[2] - 1, reduction='none')
              logp = x.log_softmax(2).transpose(0, 1)
              full = torch.full((x.shape[0],), x.shape[1], dtype=torch.int64)
              (ctc(logp, lab, full, (lab != -1).sum(1)), ctc(logp, lab, plen, llen))""",
              inputs="x=N(3, 6, 4); lab=IA([[0, 1, -1], [2, 2, 1], [1, -1, -1]]); "
                     "plen=IA([6, 5, 4]); llen=IA([2, 3, 1])",
              grad="x", dtypes=("float32",), rtol32=1e-5,
              note="float32 only: MXNet 1.9.1's CTCLoss has no float64 kernel")),
    entry("mx.gluon.loss.CTCLoss", form="layout='TNC'", when=["layout='TNC'"],
          signature=("layout", "label_layout"),
          torch="torch.nn.CTCLoss(blank=alphabet_size - 1, reduction='none')("
                "pred.log_softmax(2), label, pred_lengths, label_lengths)",
          status=ARGS,
          args="pred (T, N, C): PyTorch's own layout, log_softmax(2) only; "
               "label_layout='TN' → label.t()",
          defaults="blank: the last class in Gluon, 0 in PyTorch; as the default form",
          gotchas=["the check's second output passes label_layout='TN' labels, transposed "
                   "for PyTorch"],
          check=check("""
              (gluon.loss.CTCLoss(layout='TNC')(x, lab),
               gluon.loss.CTCLoss(layout='TNC', label_layout='TN')(x, lab.T))""", """
              ctc = nn.CTCLoss(blank=x.shape[2] - 1, reduction='none')
              full = torch.full((x.shape[1],), x.shape[0], dtype=torch.int64)
              (ctc(x.log_softmax(2), lab, full, (lab != -1).sum(1)),
               ctc(x.log_softmax(2), lab.T.t(), full, (lab != -1).sum(1)))""",
              inputs="x=N(6, 2, 4); lab=IA([[0, 1, -1], [2, 2, 1]])",
              grad="x", dtypes=("float32",),
              note="float32 only: MXNet 1.9.1's CTCLoss has no float64 kernel")),
    # ---------------------------------------------------------- margin losses
    entry("mx.gluon.loss.HingeLoss",
          torch="F.relu(margin - pred * label).mean(dim=1)",
          status=COMPOSITE,
          args="margin → margin; label: -1/1; sample_weight (N, 1) → multiply before the mean",
          defaults="PyTorch's HingeEmbeddingLoss and MultiMarginLoss are other losses",
          check=check("""
              (gluon.loss.HingeLoss()(x, y), gluon.loss.HingeLoss(margin=0.5)(x, y, sw))""",
              """
              (F.relu(1 - x * y).mean(dim=1), (F.relu(0.5 - x * y) * sw).mean(dim=1))""",
              inputs="x=N(4, 3); y=A([[1, -1, 1], [-1, -1, 1], [1, 1, 1], [-1, 1, -1]]); "
                     "sw=P(4, 1)", grad="x")),
    entry("mx.gluon.loss.SquaredHingeLoss",
          torch="F.relu(margin - pred * label).square().mean(dim=1)",
          status=COMPOSITE,
          args="margin → margin; label: -1/1; sample_weight (N, 1) → multiply before the mean",
          check=check("""
              (gluon.loss.SquaredHingeLoss()(x, y), gluon.loss.SquaredHingeLoss(margin=0.5)(x, y))""",
              """
              (F.relu(1 - x * y).square().mean(dim=1), F.relu(0.5 - x * y).square().mean(dim=1))""",
              inputs="x=N(4, 3); y=A([[1, -1, 1], [-1, -1, 1], [1, 1, 1], [-1, 1, -1]])",
              grad="x")),
    entry("mx.gluon.loss.LogisticLoss",
          torch="torch.nn.SoftMarginLoss(reduction='none')(pred, label).mean(dim=1)",
          status=ARGS,
          args="pred → input; label: -1/1 → target; sample_weight (N, 1) → multiply before "
               "the mean",
          defaults="label_format='signed': labels -1/1, log(1 + exp(-pred·label)), which is "
                   "PyTorch's SoftMarginLoss",
          gotchas=["with the signed format a 0 label is read as (0 + 1) / 2 = 0.5, without an "
                   "error: the check's second output"],
          check=check("""
              lg = gluon.loss.LogisticLoss()
              (lg(x, y), lg(x, y * 0))""", """
              sm = nn.SoftMarginLoss(reduction='none')
              (sm(x, y).mean(dim=1),
               nn.BCEWithLogitsLoss(reduction='none')(x, y * 0 + 0.5).mean(dim=1))""",
              inputs="x=N(4, 3, scale=2); y=A([[1, -1, 1], [-1, -1, 1], [1, 1, 1], [-1, 1, -1]])",
              grad="x")),
    entry("mx.gluon.loss.LogisticLoss", form="label_format='binary'",
          when=["label_format='binary'"], signature=("weight", "batch_axis", "label_format"),
          torch="torch.nn.BCEWithLogitsLoss(reduction='none')(pred, label).mean(dim=1)",
          status=ARGS,
          args="label: 0/1 → target (float)",
          check=check("gluon.loss.LogisticLoss(label_format='binary')(x, y)",
                      "nn.BCEWithLogitsLoss(reduction='none')(x, y).mean(dim=1)",
                      inputs="x=N(4, 3, scale=2); y=A(I(0, 2, (4, 3)))", grad="x")),
    entry("mx.gluon.loss.TripletLoss",
          torch="torch.nn.TripletMarginWithDistanceLoss(distance_function=lambda a, b: "
                "(a - b).square().flatten(1).sum(dim=1), margin=margin, reduction='none')("
                "pred, positive, negative)",
          status=ARGS,
          args="pred → anchor; positive → positive; negative → negative; margin → margin; "
               "the distance is the SQUARED Euclidean distance summed over all non-batch axes",
          defaults="PyTorch's TripletMarginLoss(margin) uses the Euclidean distance (not "
                   "squared, plus eps=1e-6): another loss",
          check=check("gluon.loss.TripletLoss(margin=0.5)(a, p, n)", """
              mod = nn.TripletMarginWithDistanceLoss(
                  distance_function=lambda a, b: (a - b).square().flatten(1).sum(dim=1),
                  margin=0.5, reduction='none')
              mod(a, p, n)""",
              inputs="a=N(5, 3); p=N(5, 3, scale=0.7); n=N(5, 3)", grad="a, p, n")),
    # --------------------------------------------------------------- Poisson
    entry("mx.gluon.loss.PoissonNLLLoss",
          torch="torch.nn.PoissonNLLLoss()(pred, target).reshape(1)",
          status=ARGS,
          args="pred: log of the rate (from_logits=True) → input (log_input=True); target → "
               "target; sample_weight → (torch.exp(pred) - target * pred) * sample_weight, "
               "then .mean()",
          defaults="Gluon's PoissonNLLLoss is the mean over EVERY element, batch included, "
                   "shape (1,): PyTorch's default reduction='mean' (shape ()), not one loss "
                   "per sample",
          gotchas=["the result has shape (1,) in MXNet and () in PyTorch: .reshape(1)"],
          check=check("""
              pn = gluon.loss.PoissonNLLLoss()
              (pn(x, t), pn(x, t, sw))""", """
              (nn.PoissonNLLLoss()(x, t).reshape(1),
               ((torch.exp(x) - t * x) * sw).mean().reshape(1))""",
              inputs="x=N(4, 3); t=A(I(0, 5, (4, 3))); sw=P(4, 1)", grad="x")),
    entry("mx.gluon.loss.PoissonNLLLoss", form="from_logits=False", when=["from_logits=False"],
          signature=("weight", "from_logits"),
          torch="torch.nn.PoissonNLLLoss(log_input=False, eps=epsilon)(pred, target).reshape(1)",
          status=ARGS,
          args="pred: the rate → input (log_input=False); epsilon (the call's 4th argument, "
               "1e-8) → eps (1e-8)",
          defaults="the mean over every element, shape (1,), as the default form",
          check=check("gluon.loss.PoissonNLLLoss(from_logits=False)(r, t)",
                      "nn.PoissonNLLLoss(log_input=False, eps=1e-08)(r, t).reshape(1)",
                      inputs="r=P(4, 3); t=A(I(0, 5, (4, 3)))", grad="r")),
    entry("mx.gluon.loss.PoissonNLLLoss", form="compute_full=True", when=["compute_full=True"],
          signature=("weight", "from_logits", "batch_axis", "compute_full"),
          torch="torch.nn.PoissonNLLLoss(full=True)(pred, target).reshape(1)",
          status=ARGS,
          args="compute_full=True → full=True (the Stirling term where target > 1, both)",
          gotchas=["MXNet 1.9.1 cannot train with compute_full=True: inside autograd.record "
                   "its in-place `stirling_factor *= ...` raises an MXNetError (the check "
                   "asserts it), and hybridize() raises NotImplementedForSymbol; it only "
                   "evaluates",
                   "a target of exactly 0 makes MXNet's loss NaN: it computes "
                   "target·log(target) = 0·(-inf) before masking it (PyTorch masks first); "
                   "the check's second output adds that 0·log 0 on the PyTorch side to show "
                   "where the NaN comes from"],
          check=check("""
              pn = gluon.loss.PoissonNLLLoss(compute_full=True)
              xg = x.copy()
              xg.attach_grad()
              try:                       # recorded, its in-place *= raises
                  pn(xg, t)
                  raised = False
              except mx.base.MXNetError:
                  raised = True
              assert raised
              with autograd.pause():
                  out = (pn(x, t), pn(x, t0))
              out""", """
              pn = nn.PoissonNLLLoss(full=True)
              (pn(x, t).reshape(1), (pn(x, t0) + (t0 * torch.log(t0)).sum() * 0).reshape(1))""",
              inputs="x=N(4, 3); t=A(I(1, 6, (4, 3))); "
                     "t0=A(I(0, 4, (4, 3)))",
              note="no gradients: MXNet's compute_full=True cannot be recorded (nor "
                   "hybridized), so the check evaluates it under autograd.pause()")),
    # ----------------------------------------------------------- embeddings
    entry("mx.gluon.loss.CosineEmbeddingLoss",
          torch="torch.nn.CosineEmbeddingLoss(margin=margin, reduction='none')(input1, "
                "input2, label).reshape(-1, 1)",
          status=ARGS,
          args="input1, input2 (N, D) → input1, input2; label: 1/-1 → target; margin → "
               "margin; sample_weight (N, 1) → multiply",
          defaults="Gluon returns shape (N, 1) (no mean): .reshape(-1, 1)",
          gotchas=["MXNet 1.9.1's CosineEmbeddingLoss raises on float64 inputs (its 1e-12 "
                   "floor is a float32 array; the check asserts it): float32 only"],
          check=check("""
              cel = gluon.loss.CosineEmbeddingLoss(margin=0.2)
              try:
                  cel(a.astype('float64'), b.astype('float64'), y.astype('float64'))
                  raised = False
              except mx.base.MXNetError:
                  raised = True
              assert raised
              cel(a, b, y)""", """
              nn.CosineEmbeddingLoss(margin=0.2, reduction='none')(a, b, y).reshape(-1, 1)""",
              inputs="a=N(5, 4); b=N(5, 4); y=A([1, -1, -1, 1, -1])", grad="a, b",
              dtypes=("float32",),
              note="float32 only: MXNet's loss builds a float32 constant and raises on "
                   "float64 inputs")),
    entry("mx.gluon.loss.SDMLLoss",
          torch="sdml_loss(x1, x2, smoothing_parameter) (the recipe: F.kl_div of "
                "F.log_softmax(-squared distances, dim=1) against smoothed identity labels, "
                "summed per row)",
          status=RECIPE,
          recipe="""
              def sdml_loss(x1, x2, smoothing_parameter=0.3):
                  n = len(x1)
                  eye = torch.eye(n, dtype=x1.dtype)
                  labels = eye * (1 - smoothing_parameter) + (1 - eye) * smoothing_parameter / (n - 1)
                  distances = (x1[:, None, :] - x2[None, :, :]).square().sum(dim=2)
                  return F.kl_div(F.log_softmax(-distances, dim=1), labels,
                                  reduction='none').sum(dim=1)
          """,
          args="x1, x2 (N, D), row i of x1 paired with row i of x2; smoothing_parameter",
          gotchas=["SDMLLoss ignores its weight argument (the check's second output: "
                   "weight=5. gives the same losses)",
                   "MXNet 1.9.1's SDMLLoss raises on float64 inputs (its label matrix is "
                   "float32; the check asserts it): float32 only"],
          check=check("""
              try:
                  gluon.loss.SDMLLoss()(a.astype('float64'), b.astype('float64'))
                  raised = False
              except mx.base.MXNetError:
                  raised = True
              assert raised
              (gluon.loss.SDMLLoss()(a, b), gluon.loss.SDMLLoss(weight=5.)(a, b))""", """
              def sdml_loss(x1, x2, smoothing_parameter=0.3):
                  n = len(x1)
                  eye = torch.eye(n, dtype=x1.dtype)
                  labels = eye * (1 - smoothing_parameter) + (1 - eye) * smoothing_parameter / (n - 1)
                  distances = (x1[:, None, :] - x2[None, :, :]).square().sum(dim=2)
                  return F.kl_div(F.log_softmax(-distances, dim=1), labels,
                                  reduction='none').sum(dim=1)
              (sdml_loss(a, b), sdml_loss(a, b))""",
              inputs="a=N(4, 3, scale=0.5); b=N(4, 3, scale=0.5)", grad="a, b",
              dtypes=("float32",),
              note="float32 only: MXNet's SDMLLoss builds a float32 eye and raises on float64")),
    # ------------------------------------------------- custom losses and their helpers
    entry("mx.gluon.loss.Loss",
          torch="torch.nn.Module (a subclass whose forward(pred, label, sample_weight=None) "
                "returns one loss per sample)",
          status=RECIPE,
          recipe="""
              class RelativeL1(torch.nn.Module):
                  def __init__(self, weight=None):
                      super().__init__()
                      self.weight = weight

                  def forward(self, pred, label, sample_weight=None):
                      label = label.reshape(pred.shape)
                      loss = (pred - label).abs() / (label.abs() + 1)
                      if sample_weight is not None:
                          loss = loss * sample_weight
                      if self.weight is not None:
                          loss = loss * self.weight
                      return loss.flatten(1).mean(dim=1)
          """,
          args="Loss.__init__(weight, batch_axis) → your module's own attributes; "
               "hybrid_forward(self, F, pred, label, sample_weight=None) → forward(self, pred, "
               "label, sample_weight=None), F.op → torch.op; F.mean(loss, axis=batch_axis, "
               "exclude=True) → loss.flatten(1).mean(dim=1) (batch axis 0)",
          defaults="a Gluon loss is a HybridBlock: called with positional arguments only, it "
                   "averages over the non-batch axes by convention; PyTorch's own losses "
                   "subclass the private torch.nn.modules.loss._Loss (only for `reduction`): "
                   "subclass torch.nn.Module",
          gotchas=["the recipe keeps Gluon's convention (one loss per sample); reduce with "
                   ".mean() where the PyTorch loop wants a number, or call backward on the "
                   "sum with trainer.step(batch_size)'s 1/N folded in"],
          teach="06_blocks §1. A custom block: `nn.Module` and `gluon.Block`",
          check=check("""
              from mxnet.gluon.loss import Loss, _apply_weighting, _reshape_like

              class RelativeL1(Loss):
                  def __init__(self, weight=None, batch_axis=0, **kwargs):
                      super().__init__(weight, batch_axis, **kwargs)

                  def hybrid_forward(self, F, pred, label, sample_weight=None):
                      label = _reshape_like(F, label, pred)
                      loss = F.abs(pred - label) / (F.abs(label) + 1)
                      loss = _apply_weighting(F, loss, self._weight, sample_weight)
                      return F.mean(loss, axis=self._batch_axis, exclude=True)

              hyb = RelativeL1(weight=0.5)
              hyb.hybridize()
              (RelativeL1()(x, y), hyb(x, y, sw))""", """
              class RelativeL1(torch.nn.Module):
                  def __init__(self, weight=None):
                      super().__init__()
                      self.weight = weight

                  def forward(self, pred, label, sample_weight=None):
                      label = label.reshape(pred.shape)
                      loss = (pred - label).abs() / (label.abs() + 1)
                      if sample_weight is not None:
                          loss = loss * sample_weight
                      if self.weight is not None:
                          loss = loss * self.weight
                      return loss.flatten(1).mean(dim=1)

              (RelativeL1()(x, y), RelativeL1(weight=0.5)(x, y, sw))""",
              inputs="x=N(3, 2, 2); y=N(3, 4); sw=P(3, 1, 1)", grad="x, y")),
    entry("mx.gluon.loss._reshape_like",
          torch="x.reshape(y.shape)",
          status=COMPOSITE,
          args="F → (none); x → x; y → y (only its shape is read)",
          note="A private helper of mxnet.gluon.loss that custom losses (GluonCV's) import.",
          check=check("gluon.loss._reshape_like(nd, x, y)", "x.reshape(y.shape)",
                      inputs="x=N(6, 2); y=N(3, 4)", grad="x")),
    entry("mx.gluon.loss._apply_weighting",
          torch="loss * sample_weight * weight",
          status=COMPOSITE,
          args="F → (none); loss → loss; weight (a number or None: skip it) → weight; "
               "sample_weight (broadcastable, or None: skip it) → sample_weight",
          note="A private helper of mxnet.gluon.loss that custom losses (GluonCV's, MXNet's "
               "examples) import; MXNet asserts that weight is a number.",
          check=check("""
              (gluon.loss._apply_weighting(nd, x, 0.5, sw),
               gluon.loss._apply_weighting(nd, x, None, sw),
               gluon.loss._apply_weighting(nd, x, 2.0))""",
              "(x * sw * 0.5, x * sw, x * 2.0)",
              inputs="x=N(3, 4); sw=P(3, 1)", grad="x, sw")),
]
