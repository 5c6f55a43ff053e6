"""`mx.metric`: every public metric class, `create`, `np`, and `EvalMetric`'s methods, next to
torchmetrics. Each check feeds the same batches (sizes 5, 5, 2: a short last batch) to both
sides, `update(labels, preds)` in MXNet and `update(preds, target)` in torchmetrics, and
compares the value after every update: the running value, not only the last."""
import textwrap

from ..model import ARGS, COMPOSITE, RECIPE, RENAMED, SAME, check, entry

_T = "11_metrics §"
_ACC = _T + "1. Accuracy, with the arguments the other way round"
_TOPK = _T + "2. Top-k, cross-entropy, perplexity"
_F1 = _T + '3. F1: binary only in MXNet, and "macro" means per batch'
_REG = _T + "4. MAE and MSE: averaged per batch"
_COMP = _T + "5. Several metrics at once: `CompositeEvalMetric` and `MetricCollection`"
_SZ = "(5, 5, 2)"
_CLS = "p=PROBS(12, 4); y=I(0, 4, (12,))"
_BIN = "p=PROBS(12, 2); y=I(0, 2, (12,))"
_REGIN = "p=U(12, 3); y=U(12, 3)"
_ORDER = ("update's arguments are the other way round: MXNet update(labels, preds), "
          "torchmetrics update(preds, target); MXNet also takes lists of arrays (one per device)")
_F32 = ("torchmetrics computes this value in float32 from integer counts whatever the input's "
        "dtype: the float64 bound is that rounding (measured up to {})")
_BATCH = ("MXNet averages one value per update() call (per batch), whatever the batch's size; "
          "a short last batch weighs as much as a full one")


def _mx(make, inputs="y, p", extra=""):
    return ("from sidebyside.catalogue.harness_metric import mx_feed\n"
            f"mx_feed({make}, {inputs}, {_SZ}, dtype{extra})")


def _pt(make, inputs="p, y", extra="", head=""):
    head = textwrap.dedent(head).strip() + "\n" if head else ""
    return (head + "import torchmetrics\nfrom sidebyside.catalogue.harness_metric import "
            f"torch_feed\nm = {make}\nm.set_dtype(dtype)\n"
            f"torch_feed(m, {inputs}, {_SZ}, dtype{extra})")


def _ck(mx, torch, inputs, **kw):
    return check(mx, torch, inputs=inputs, **kw)


_MEAN_OF = "torchmetrics.MeanMetric()"  # fed one value per batch

#: get/reset/get_name_value/update_dict that the subclasses inherit unchanged (same object)
_SUBS = ("Accuracy", "TopKAccuracy", "F1", "MCC", "MAE", "MSE", "RMSE", "CrossEntropy",
         "NegativeLogLikelihood", "PCC", "Loss", "Torch", "Caffe", "CustomMetric",
         "PearsonCorrelation", "Perplexity", "CompositeEvalMetric")


def _inherits(method):
    overridden = {  # which subclasses override the method (read off MXNet 1.9.1)
        "get": {"PearsonCorrelation", "Perplexity", "CompositeEvalMetric"},
        "reset": {"F1", "MCC", "PCC", "PearsonCorrelation", "CompositeEvalMetric"},
        "update_dict": {"CompositeEvalMetric"},
        "get_name_value": set(),
    }[method]
    return [f"mx.metric.{c}.{method}" for c in _SUBS if c not in overridden]


CREATE_RECIPE = '''
import torchmetrics
from torchmetrics import classification as C, regression as R

def mx_metric(name, num_classes=None, **kw):
    """torchmetrics' metric for an mx.metric.create name (the ones this table lists)."""
    table = {
        "acc": lambda: C.MulticlassAccuracy(num_classes, average="micro"),
        "top_k_accuracy": lambda: C.MulticlassAccuracy(num_classes, top_k=kw.get("top_k", 1),
                                                       average="micro"),
        "mse": lambda: torchmetrics.MeanMetric(),   # fed F.mse_loss(pred, label) per batch
        "mae": lambda: torchmetrics.MeanMetric(),   # fed F.l1_loss(pred, label) per batch
        "pearsonr": lambda: torchmetrics.MeanMetric(),  # fed pearson_corrcoef per batch
    }
    table.update(accuracy=table["acc"], top_k_acc=table["top_k_accuracy"])
    if isinstance(name, list):
        return torchmetrics.MetricCollection({n: mx_metric(n, num_classes, **kw) for n in name})
    return table[name.lower()]()
'''

EVALMETRIC_RECIPE = '''
import torch
import torchmetrics

class MyMetric(torchmetrics.Metric):
    """An EvalMetric subclass: update() adds to sum_metric and num_inst, get() divides."""
    def __init__(self):
        super().__init__()
        self.add_state("sum_metric", torch.tensor(0.0, dtype=torch.float64), dist_reduce_fx="sum")
        self.add_state("num_inst", torch.tensor(0), dist_reduce_fx="sum")

    def update(self, preds, target):          # note the order: preds first
        self.sum_metric += (preds.argmax(1) == target).sum()
        self.num_inst += target.numel()

    def compute(self):
        return self.sum_metric / self.num_inst
'''

_MCC_DEGENERATE = ("a batch with one predicted class or one true class: MXNet gives 0.0 "
                   "(labels [1, 1, 0, 1], every prediction 1), torchmetrics 0.577 (and 1.0 "
                   "when labels and predictions are all 1); MXNet's rule: (tp·tn − fp·fn) / "
                   "√(product of the non-zero sums), 0 when the numerator is 0")


ENTRIES = [
    # ------------------------------------------------------------------ classification
    entry("mx.metric.Accuracy",
          torch="torchmetrics.classification.MulticlassAccuracy(num_classes, average='micro')",
          status=ARGS,
          args="axis → (none: the class dimension is 1); name → a MetricCollection key; "
               "num_classes: torchmetrics needs it, MXNet does not",
          defaults="MulticlassAccuracy averages the per-class accuracies (average='macro') "
                   "unless told average='micro'; torchmetrics.Accuracy(task='multiclass') is "
                   "micro",
          gotchas=[_ORDER,
                   "both accumulate over updates: the value is the accuracy of every sample "
                   "since the last reset() (sum of hits / count), not the last batch's",
                   "predictions of the label's shape are taken as class indices (no argmax) "
                   "on both sides; MXNet casts both to int32 first",
                   _F32.format("6e-9 without set_dtype(torch.float64); 0 with it")],
          teach=_ACC,
          check=_ck("from sidebyside.catalogue.harness_metric import mx_feed\n"
                    f"(mx_feed(mx.metric.Accuracy(), y, p, {_SZ}, dtype),\n"
                    f" mx_feed(mx.metric.Accuracy(), y, nd.argmax(p, axis=1), {_SZ}, dtype, "
                    "reset_at=2))",
                    "import torchmetrics\nfrom sidebyside.catalogue.harness_metric import "
                    "torch_feed\n"
                    "make = lambda: torchmetrics.classification.MulticlassAccuracy(4, "
                    "average='micro').set_dtype(dtype)\n"
                    f"(torch_feed(make(), p, y, {_SZ}, dtype),\n"
                    f" torch_feed(make(), p.argmax(1), y, {_SZ}, dtype, reset_at=2))",
                    _CLS)),
    entry("mx.metric.TopKAccuracy",
          torch="torchmetrics.classification.MulticlassAccuracy(num_classes, top_k=top_k, "
                "average='micro')",
          status=ARGS,
          args="top_k → top_k; num_classes: torchmetrics needs it",
          defaults="MulticlassAccuracy's average='macro' (per class): pass 'micro'",
          gotchas=[_ORDER,
                   "MXNet ranks the scores after a cast to float32 (ties in float64 scores "
                   "closer than float32 can tell may rank otherwise) and caps top_k at the "
                   "number of classes",
                   "its get() name is 'top_k_accuracy_<k>'"],
          teach=_TOPK,
          check=_ck(_mx("mx.metric.TopKAccuracy(top_k=2)"),
                    _pt("torchmetrics.classification.MulticlassAccuracy(4, top_k=2, "
                        "average='micro')"), _CLS)),
    entry("mx.metric.F1",
          torch="torchmetrics.MeanMetric()  # updated with binary_f1_score(pred.argmax(1), "
                "label) per batch",
          status=COMPOSITE,
          recipe="""
              from torchmetrics.functional.classification import binary_f1_score
              f1 = torchmetrics.MeanMetric()
              for pred, label in batches:
                  f1.update(binary_f1_score(pred.argmax(1), label))
              f1.compute()""",
          args="average='macro' (the default) → a MeanMetric of each batch's F1; "
               "average='micro' → BinaryF1Score (the form)",
          defaults="MXNet's 'macro' is the mean of the per-batch F1 scores, not a mean over "
                   "classes (MulticlassF1Score(average='macro') is another number)",
          gotchas=["binary only: labels with more than two values raise ValueError; the "
                   "prediction is argmax over axis 1 (two columns of scores)",
                   _BATCH + ": on batches of 5, 5, 2 the check measures 0.3016 (macro) "
                            "against 0.4286 (micro)",
                   _ORDER, _F32.format("6e-8 relative")],
          teach=_F1,
          check=_ck(_mx("mx.metric.F1()"),
                    _pt(_MEAN_OF, extra=", prep=lambda p, t: (binary_f1_score(p.argmax(1), "
                        "t),)", head="from torchmetrics.functional.classification import "
                        "binary_f1_score"), _BIN, rtol=3e-7,
                    note="torchmetrics' F1 is computed in float32")),
    entry("mx.metric.F1", form="average='micro'", when=["average='micro'"],
          signature=("name", "output_names", "label_names", "average"),
          torch="torchmetrics.classification.BinaryF1Score()  # fed pred.argmax(1)",
          status=ARGS,
          args="preds → preds.argmax(1) (BinaryF1Score wants classes or probabilities of "
               "class 1); average='micro' → (none: BinaryF1Score pools the counts)",
          gotchas=["the counts of every batch since reset() are pooled, as BinaryF1Score does",
                   _ORDER, _F32.format("6e-8 relative")],
          teach=_F1,
          check=_ck(_mx("mx.metric.F1(average='micro')"),
                    _pt("torchmetrics.classification.BinaryF1Score()",
                        extra=", prep=lambda p, t: (p.argmax(1), t)"), _BIN, rtol=3e-7,
                    note="torchmetrics' F1 is computed in float32")),
    entry("mx.metric.MCC",
          torch="torchmetrics.MeanMetric()  # updated with binary_matthews_corrcoef("
                "pred.argmax(1), label) per batch",
          status=COMPOSITE,
          recipe="""
              from torchmetrics.functional.classification import binary_matthews_corrcoef
              mcc = torchmetrics.MeanMetric()
              for pred, label in batches:
                  mcc.update(binary_matthews_corrcoef(pred.argmax(1), label))
              mcc.compute()""",
          args="average='macro' (the default) → a MeanMetric of each batch's MCC; "
               "average='micro' → BinaryMatthewsCorrCoef (the form)",
          gotchas=["binary only, like F1; its default 'macro' averages the batches' "
                   "coefficients: -0.340 against the pooled -0.371 on the check's batches",
                   _MCC_DEGENERATE, _ORDER, _F32.format("3e-8 relative")],
          check=_ck(_mx("mx.metric.MCC()"),
                    _pt(_MEAN_OF, extra=", prep=lambda p, t: (binary_matthews_corrcoef("
                        "p.argmax(1), t),)", head="from torchmetrics.functional.classification "
                        "import binary_matthews_corrcoef"), _BIN, rtol=3e-7,
                    note="torchmetrics' MCC is computed in float32")),
    entry("mx.metric.MCC", form="average='micro'", when=["average='micro'"],
          signature=("name", "output_names", "label_names", "average"),
          torch="torchmetrics.classification.BinaryMatthewsCorrCoef()  # fed pred.argmax(1)",
          status=ARGS,
          args="preds → preds.argmax(1); average='micro' → (none: the counts are pooled)",
          gotchas=[_MCC_DEGENERATE, _ORDER, _F32.format("3e-8 relative")],
          check=_ck(_mx("mx.metric.MCC(average='micro')"),
                    _pt("torchmetrics.classification.BinaryMatthewsCorrCoef()",
                        extra=", prep=lambda p, t: (p.argmax(1), t)"), _BIN, rtol=3e-7,
                    note="torchmetrics' MCC is computed in float32")),
    entry("mx.metric.PCC",
          torch="torchmetrics.classification.MulticlassMatthewsCorrCoef(num_classes)",
          status=ARGS,
          args="num_classes: torchmetrics needs it (MXNet grows its confusion matrix); "
               "has_global_stats → (none)",
          gotchas=["the multiclass Matthews coefficient of the confusion matrix pooled over "
                   "every update since reset(), as torchmetrics computes it",
                   "MXNet gives nan when a row or column sum of the confusion matrix is all "
                   "of it (one class only); torchmetrics gives 0",
                   _ORDER, _F32.format("3e-8 relative")],
          check=_ck(_mx("mx.metric.PCC()"),
                    _pt("torchmetrics.classification.MulticlassMatthewsCorrCoef(4)"), _CLS,
                    rtol=1e-7, atol=1e-9,
                    note="torchmetrics' MCC is computed in float32")),
    # ---------------------------------------------------------------------- regression
    entry("mx.metric.MAE",
          torch="torchmetrics.MeanMetric()  # updated with F.l1_loss(pred, label) per batch",
          status=COMPOSITE,
          recipe="""
              mae = torchmetrics.MeanMetric()
              for pred, label in batches:
                  mae.update(F.l1_loss(pred, label))
              mae.compute()""",
          args="each update(labels, preds) → mae.update(F.l1_loss(pred, label))",
          gotchas=[_BATCH + "; torchmetrics.regression.MeanAbsoluteError averages over "
                            "samples instead (equal only when every batch has one size)",
                   "MXNet reshapes a 1-d label or prediction to (n, 1) before subtracting: a "
                   "(n,) label against (n, 1) predictions does not broadcast to (n, n)"],
          teach=_REG,
          check=_ck(_mx("mx.metric.MAE()"),
                    _pt(_MEAN_OF, extra=", prep=lambda p, t: (F.l1_loss(p, t),)"), _REGIN)),
    entry("mx.metric.MSE",
          torch="torchmetrics.MeanMetric()  # updated with F.mse_loss(pred, label) per batch",
          status=COMPOSITE,
          recipe="""
              mse = torchmetrics.MeanMetric()
              for pred, label in batches:
                  mse.update(F.mse_loss(pred, label))
              mse.compute()""",
          args="each update(labels, preds) → mse.update(F.mse_loss(pred, label))",
          gotchas=[_BATCH + "; torchmetrics.regression.MeanSquaredError averages over "
                            "samples instead"],
          teach=_REG,
          check=_ck(_mx("mx.metric.MSE()"),
                    _pt(_MEAN_OF, extra=", prep=lambda p, t: (F.mse_loss(p, t),)"), _REGIN)),
    entry("mx.metric.RMSE",
          torch="torchmetrics.MeanMetric()  # updated with torch.sqrt(F.mse_loss(pred, label)) "
                "per batch",
          status=COMPOSITE,
          recipe="""
              rmse = torchmetrics.MeanMetric()
              for pred, label in batches:
                  rmse.update(torch.sqrt(F.mse_loss(pred, label)))
              rmse.compute()""",
          args="each update(labels, preds) → rmse.update(torch.sqrt(F.mse_loss(pred, label)))",
          gotchas=["MXNet's RMSE is the mean of the per-batch RMSEs, not the root of the "
                   "epoch's MSE: MeanSquaredError(squared=False) gives another number (the "
                   "check's batches: the mean of roots is below the root of the mean)",
                   _BATCH],
          check=_ck(_mx("mx.metric.RMSE()"),
                    _pt(_MEAN_OF, extra=", prep=lambda p, t: (torch.sqrt(F.mse_loss(p, t)),)"),
                    _REGIN)),
    entry("mx.metric.PearsonCorrelation",
          torch="torchmetrics.MeanMetric()  # updated with torchmetrics.functional."
                "pearson_corrcoef(pred, label) per batch",
          status=COMPOSITE,
          recipe="""
              from torchmetrics.functional import pearson_corrcoef
              r = torchmetrics.MeanMetric()
              for pred, label in batches:
                  r.update(pearson_corrcoef(pred.flatten(), label.flatten()))
              r.compute()""",
          args="average='macro' (the default) → a MeanMetric of each batch's coefficient; "
               "average='micro' → PearsonCorrCoef (the form)",
          gotchas=["the default 'macro' averages the per-batch coefficients (0.375 on the "
                   "check's batches where the pooled one is 0.330); MXNet flattens both arrays"],
          check=_ck(_mx("mx.metric.PearsonCorrelation()"),
                    _pt(_MEAN_OF, extra=", prep=lambda p, t: (pearson_corrcoef(p.flatten(), "
                        "t.flatten()),)", head="from torchmetrics.functional import "
                        "pearson_corrcoef"), "p=U(12); y=U(12)", rtol=1e-9,
                    note="the two compute the coefficient in different orders")),
    entry("mx.metric.PearsonCorrelation", form="average='micro'", when=["average='micro'"],
          signature=("name", "output_names", "label_names", "average"),
          torch="torchmetrics.regression.PearsonCorrCoef()  # fed flattened arrays",
          status=ARGS,
          args="preds, labels → preds.flatten(), target.flatten()",
          gotchas=["'micro' pools every sample since reset() (Welford's running sums in "
                   "MXNet), as PearsonCorrCoef does"],
          check=_ck(_mx("mx.metric.PearsonCorrelation(average='micro')"),
                    _pt("torchmetrics.regression.PearsonCorrCoef()"), "p=U(12); y=U(12)",
                    rtol=1e-9, note="running sums in different orders")),
    # ----------------------------------------------------------------- probabilities
    entry("mx.metric.CrossEntropy",
          torch="torchmetrics.MeanMetric()  # updated with F.nll_loss(torch.log(pred + eps), "
                "label, reduction='none')",
          status=COMPOSITE,
          recipe="""
              ce = torchmetrics.MeanMetric()
              for prob, label in batches:
                  ce.update(F.nll_loss(torch.log(prob + 1e-12), label, reduction='none'))
              ce.compute()""",
          args="preds: probabilities (after a softmax), not logits; eps → added inside the "
               "log",
          gotchas=["it wants probabilities: fed logits it takes logs of negatives (nan), where "
                   "F.cross_entropy wants logits",
                   "averaged over samples (sum of -log p / count since reset()), unlike MAE/MSE"],
          teach=_TOPK,
          check=_ck(_mx("mx.metric.CrossEntropy()"),
                    _pt(_MEAN_OF, extra=", prep=lambda p, t: (F.nll_loss(torch.log(p + 1e-12), "
                        "t, reduction='none'),)"), _CLS)),
    entry("mx.metric.NegativeLogLikelihood",
          torch="torchmetrics.MeanMetric()  # updated with F.nll_loss(torch.log(pred + eps), "
                "label, reduction='none')",
          status=COMPOSITE,
          recipe="""
              nll = torchmetrics.MeanMetric()
              for prob, label in batches:
                  nll.update(F.nll_loss(torch.log(prob + 1e-12), label, reduction='none'))
              nll.compute()""",
          args="preds: probabilities; eps → added inside the log",
          gotchas=["the same number as mx.metric.CrossEntropy (name 'nll-loss'); it takes "
                   "probabilities, F.nll_loss takes log-probabilities"],
          check=_ck(_mx("mx.metric.NegativeLogLikelihood()"),
                    _pt(_MEAN_OF, extra=", prep=lambda p, t: (F.nll_loss(torch.log(p + 1e-12), "
                        "t, reduction='none'),)"), _CLS)),
    entry("mx.metric.Perplexity",
          torch="torchmetrics.text.Perplexity(ignore_index=ignore_label)  # fed "
                "torch.log(pred)[None], label[None]",
          status=ARGS,
          args="ignore_label → ignore_index (None: none); preds (probabilities, N×C) → "
               "torch.log(preds)[None] (torchmetrics wants (batch, seq, vocab) scores and "
               "applies a softmax); labels → labels[None]; axis → (none: the last)",
          gotchas=["MXNet takes probabilities and clips them at 1e-10 before the log; "
                   "torchmetrics takes scores (logits) and softmaxes them: log-probabilities "
                   "give the same value",
                   "ignore_label is positional and has no default: Perplexity(None)",
                   "exp of the mean -log p over every sample since reset() but the ignored "
                   "ones, in both"],
          signature=("ignore_label", "axis"),
          teach=_TOPK,
          check=_ck("from sidebyside.catalogue.harness_metric import mx_feed\n"
                    f"(mx_feed(mx.metric.Perplexity(None), y, p, {_SZ}, dtype),\n"
                    f" mx_feed(mx.metric.Perplexity(ignore_label=2), y, p, {_SZ}, dtype))",
                    "import torchmetrics\nfrom sidebyside.catalogue.harness_metric import "
                    "torch_feed\nprep = lambda p, t: (torch.log(p)[None], t[None])\n"
                    f"(torch_feed(torchmetrics.text.Perplexity().set_dtype(dtype), p, y, {_SZ}, "
                    "dtype, prep=prep),\n"
                    " torch_feed(torchmetrics.text.Perplexity(ignore_index=2).set_dtype(dtype), "
                    f"p, y, {_SZ}, dtype, prep=prep))", _CLS, rtol=1e-9,
                    note="a softmax of log-probabilities on the torch side")),
    # -------------------------------------------------------------------- losses, custom
    entry("mx.metric.Loss",
          torch="torchmetrics.MeanMetric()  # updated with the loss values",
          status=RENAMED,
          args="update(_, preds) → update(preds): the labels are ignored; name → a "
               "MetricCollection key",
          gotchas=["the mean of every loss element passed since reset() (sum / count), as "
                   "MeanMetric averages the elements of the tensors it is given; pass the "
                   "per-sample losses, not their batch mean, or a short batch weighs the same"],
          check=_ck(_mx("mx.metric.Loss('ce')", "l, l"),
                    _pt(_MEAN_OF, "l, l", extra=", prep=lambda p, t: (p,)"), "l=P(12)")),
    entry("mx.metric.Torch", torch="torchmetrics.MeanMetric()  # updated with the loss values",
          status=RENAMED, args="update(_, preds) → update(preds)",
          gotchas=["mx.metric.Loss under the name 'torch' (for torch criterions of the old "
                   "plugin)"],
          check=_ck(_mx("mx.metric.Torch()", "l, l"),
                    _pt(_MEAN_OF, "l, l", extra=", prep=lambda p, t: (p,)"), "l=P(12)")),
    entry("mx.metric.Caffe", torch="torchmetrics.MeanMetric()  # updated with the loss values",
          status=RENAMED, args="update(_, preds) → update(preds)",
          gotchas=["mx.metric.Loss under the name 'caffe'"],
          check=_ck(_mx("mx.metric.Caffe()", "l, l"),
                    _pt(_MEAN_OF, "l, l", extra=", prep=lambda p, t: (p,)"), "l=P(12)")),
    entry("mx.metric.CustomMetric",
          torch="torchmetrics.MeanMetric()  # updated with feval(label, pred) per batch",
          status=COMPOSITE,
          recipe="""
              m = torchmetrics.MeanMetric()
              for pred, label in batches:
                  r = feval(label.numpy(), pred.numpy())
                  if isinstance(r, tuple):      # (sum, count): a weighted mean
                      m.update(r[0] / r[1], weight=r[1])
                  else:                         # one value per batch
                      m.update(r)
              m.compute()""",
          args="feval(label, pred) (numpy arrays) → called the same way, its value fed to "
               "MeanMetric; a (sum, count) result → update(sum / count, weight=count); "
               "name → a MetricCollection key",
          gotchas=["a plain number from feval counts once per batch (the mean of per-batch "
                   "values); a (sum, count) tuple adds to both totals (a mean over samples)",
                   "feval gets the label first, as numpy arrays"],
          check=_ck("from sidebyside.catalogue.harness_metric import mx_feed\n"
                    "feval = lambda label, pred: float(onp.abs(label - pred).mean())\n"
                    "fsum = lambda label, pred: (float(onp.abs(label - pred).sum()), label.size)\n"
                    f"(mx_feed(mx.metric.CustomMetric(feval), y, p, {_SZ}, dtype),\n"
                    f" mx_feed(mx.metric.CustomMetric(fsum), y, p, {_SZ}, dtype))",
                    "import torchmetrics\nfrom sidebyside.catalogue.harness_metric import "
                    "torch_feed\n"
                    "feval = lambda label, pred: float(onp.abs(label - pred).mean())\n"
                    "fsum = lambda label, pred: (float(onp.abs(label - pred).sum()), label.size)\n"
                    "def weighted(p, t):\n"
                    "    s, n = fsum(t.numpy(), p.numpy())\n"
                    "    return (torch.tensor(s / n, dtype=dtype), torch.tensor(float(n), "
                    "dtype=dtype))\n"
                    "make = lambda: torchmetrics.MeanMetric().set_dtype(dtype)\n"
                    f"(torch_feed(make(), p, y, {_SZ}, dtype, "
                    "prep=lambda p, t: (feval(t.numpy(), p.numpy()),)),\n"
                    f" torch_feed(make(), p, y, {_SZ}, dtype, prep=weighted))",
                    _REGIN)),
    entry("mx.metric.np",
          torch="torchmetrics.MeanMetric()  # updated with numpy_feval(label, pred) per batch",
          status=COMPOSITE,
          recipe="""
              m = torchmetrics.MeanMetric()
              for pred, label in batches:
                  m.update(numpy_feval(label.numpy(), pred.numpy()))
              m.compute()""",
          args="numpy_feval(label, pred) → called on the batches as numpy arrays, its value "
               "fed to MeanMetric",
          gotchas=["mx.metric.np(f) is CustomMetric(f): one value per batch, averaged over "
                   "batches"],
          check=_ck(_mx("mx.metric.np(lambda label, pred: float(((label - pred) ** 2).mean()))"),
                    _pt(_MEAN_OF, extra=", prep=lambda p, t: (float(((t.numpy() - p.numpy()) "
                        "** 2).mean()),)"), _REGIN)),
    entry("mx.metric.CompositeEvalMetric",
          torch="torchmetrics.MetricCollection({name: metric, ...})",
          status=ARGS,
          args="metrics (a list; add(metric) appends) → a dict of metrics; get() → "
               "compute(): (names, values) lists against a dict",
          gotchas=["each child gets the same update(labels, preds) call, as a MetricCollection "
                   "passes update(preds, target) to each", _ORDER],
          teach=_COMP,
          check=_ck(_mx("mx.metric.CompositeEvalMetric([mx.metric.Accuracy(), "
                        "mx.metric.TopKAccuracy(2)])"),
                    _pt("torchmetrics.MetricCollection({'accuracy': torchmetrics.classification."
                        "MulticlassAccuracy(4, average='micro'), 'top2': torchmetrics."
                        "classification.MulticlassAccuracy(4, top_k=2, average='micro')})"),
                    _CLS)),
    entry("mx.metric.EvalMetric",
          torch="class MyMetric(torchmetrics.Metric)  # add_state, update, compute",
          status=RECIPE, recipe=EVALMETRIC_RECIPE,
          args="__init__(name) → add_state for each total; update(labels, preds) → "
               "update(preds, target); get() → compute(); reset() → reset() (the states "
               "return to their defaults)",
          gotchas=["an EvalMetric subclass keeps sum_metric and num_inst and get() returns "
                   "(name, sum_metric / num_inst); a torchmetrics.Metric declares its totals "
                   "with add_state so reset() and distributed syncing find them"],
          teach=_ACC,
          check=_ck("""
              from sidebyside.catalogue.harness_metric import mx_feed
              class MyMetric(mx.metric.EvalMetric):
                  def __init__(self):
                      super().__init__('mine')
                  def update(self, labels, preds):
                      for label, pred in zip(labels, preds):
                          self.sum_metric += int((nd.argmax(pred, axis=1).asnumpy() == label.asnumpy()).sum())
                          self.num_inst += label.size
              mx_feed(MyMetric(), y, p, (5, 5, 2), dtype, reset_at=2)""",
                    EVALMETRIC_RECIPE.strip() + "\n" + textwrap.dedent("""
              from sidebyside.catalogue.harness_metric import torch_feed
              torch_feed(MyMetric(), p, y, (5, 5, 2), dtype, reset_at=2)"""),
                    _CLS)),
    # ---------------------------------------------------------------- EvalMetric methods
    entry("mx.metric.EvalMetric.update",
          torch="metric.update(preds, target)", status=ARGS,
          args="labels → target (second); preds → preds (first); lists of arrays (one per "
               "device) → one update per pair, or torch.cat first",
          gotchas=[_ORDER,
                   "swapped by mistake, torchmetrics' MulticlassAccuracy raises a ValueError "
                   "on the shapes, MXNet's Accuracy an MXNetError (argmax of 1-d labels); "
                   "with equal shapes both count silently (notebook 11 §1)"],
          teach=_ACC,
          check=_ck("from sidebyside.catalogue.harness_metric import values\n"
                    "m = mx.metric.Accuracy()\nm.update([y[:6]], [p[:6]])\n"
                    "m.update([y[6:]], [p[6:]])\nvalues([m.get()[1]], dtype)",
                    "import torchmetrics\nfrom sidebyside.catalogue.harness_metric import "
                    "values\nm = torchmetrics.classification.MulticlassAccuracy(4, "
                    "average='micro').set_dtype(dtype)\nm.update(p[:6], y[:6])\n"
                    "m.update(p[6:], y[6:])\nvalues([float(m.compute())], dtype)", _CLS)),
    entry("mx.metric.EvalMetric.get", aliases=_inherits("get"),
          torch="(name, metric.compute().item())", status=ARGS,
          args="get() → compute(): a (name, float) pair against a tensor (a dict for a "
               "MetricCollection)",
          gotchas=["get() before any update gives (name, nan); compute() before any update "
                   "warns and returns 0 for most torchmetrics metrics",
                   "CompositeEvalMetric.get() gives two lists, (names, values)"],
          teach=_ACC,
          check=_ck("from sidebyside.catalogue.harness_metric import values\n"
                    "m = mx.metric.Accuracy()\nm.update([y], [p])\nname, value = m.get()\n"
                    "(name, values([value], dtype))",
                    "import torchmetrics\nfrom sidebyside.catalogue.harness_metric import "
                    "values\nm = torchmetrics.classification.MulticlassAccuracy(4, "
                    "average='micro').set_dtype(dtype)\nm.update(p, y)\n"
                    "('accuracy', values([m.compute().item()], dtype))", _CLS)),
    entry("mx.metric.EvalMetric.reset", aliases=_inherits("reset"),
          torch="metric.reset()", status=SAME,
          gotchas=["both start over: the next value is that of the updates after reset()"],
          teach=_ACC,
          check=_ck("""
              from sidebyside.catalogue.harness_metric import values
              m = mx.metric.Accuracy()
              m.update([y[:5]], [p[:5]])
              first = m.get()[1]
              m.reset()
              m.update([y[5:]], [p[5:]])
              values([first, m.get()[1]], dtype)""", """
              import torchmetrics
              from sidebyside.catalogue.harness_metric import values
              m = torchmetrics.classification.MulticlassAccuracy(4, average='micro')
              m.set_dtype(dtype)
              m.update(p[:5], y[:5])
              first = m.compute().item()
              m.reset()
              m.update(p[5:], y[5:])
              values([first, m.compute().item()], dtype)""", _CLS)),
    entry("mx.metric.EvalMetric.get_name_value", aliases=_inherits("get_name_value"),
          torch="list(collection.compute().items())", status=COMPOSITE,
          args="a metric → [(name, value)]; a composite → a MetricCollection's "
               "compute() items",
          gotchas=["MXNet's values are Python floats, torchmetrics' 0-d tensors (.item())"],
          check=_ck("""
              m = mx.metric.CompositeEvalMetric([mx.metric.Accuracy(), mx.metric.TopKAccuracy(2)])
              m.update([y], [p])
              from sidebyside.catalogue.harness_metric import values
              [(k, values([v], dtype)) for k, v in m.get_name_value()]""", """
              import torchmetrics
              from torchmetrics.classification import MulticlassAccuracy
              m = torchmetrics.MetricCollection({
                  'accuracy': MulticlassAccuracy(4, average='micro').set_dtype(dtype),
                  'top_k_accuracy_2': MulticlassAccuracy(4, top_k=2, average='micro').set_dtype(dtype)})
              m.update(p, y)
              from sidebyside.catalogue.harness_metric import values
              [(k, values([v.item()], dtype)) for k, v in m.compute().items()]""", _CLS)),
    entry("mx.metric.EvalMetric.update_dict", aliases=_inherits("update_dict"),
          torch="metric.update(preds[name], labels[name])", status=COMPOSITE,
          args="label, pred (dicts name → array) → the arrays of output_names / label_names "
               "(all values, in order, when None), passed to update",
          gotchas=["the Module API's path (mod.update_metric); torchmetrics has no named "
                   "form: pick the arrays yourself"],
          check=_ck("from sidebyside.catalogue.harness_metric import values\n"
                    "m = mx.metric.Accuracy(output_names=['out'], label_names=['lab'])\n"
                    "m.update_dict({'lab': y, 'other': y}, {'out': p, 'aux': p})\n"
                    "values([m.get()[1]], dtype)",
                    "import torchmetrics\nfrom sidebyside.catalogue.harness_metric import "
                    "values\nm = torchmetrics.classification.MulticlassAccuracy(4, "
                    "average='micro').set_dtype(dtype)\nlabels, preds = {'lab': y, 'other': y}, "
                    "{'out': p, 'aux': p}\nm.update(preds['out'], labels['lab'])\n"
                    "values([float(m.compute())], dtype)", _CLS)),
    # ------------------------------------------------------------------------ create
    entry("mx.metric.create",
          torch="mx_metric(metric, num_classes, **kwargs)", status=COMPOSITE,
          recipe=CREATE_RECIPE,
          args="metric: a name → the torchmetrics metric of that name's entry; a list → a "
               "MetricCollection; an EvalMetric → itself; a function → "
               "mx.metric.CustomMetric's recipe; *args, **kwargs → that metric's arguments",
          signature=("metric",),
          gotchas=["names are case-insensitive aliases ('acc', 'accuracy', 'ce', 'mse', "
                   "'top_k_accuracy', 'pearsonr', …): see each class's entry for the value "
                   "it computes (MSE and MAE: per-batch means)"],
          teach=_COMP,
          check=_ck("from sidebyside.catalogue.harness_metric import mx_feed\n"
                    f"(mx_feed(mx.metric.create(['acc']), y, p, {_SZ}, dtype),\n"
                    f" mx_feed(mx.metric.create('top_k_acc', top_k=2), y, p, {_SZ}, dtype))",
                    CREATE_RECIPE.strip() + "\nfrom sidebyside.catalogue.harness_metric import "
                    "torch_feed\n"
                    f"(torch_feed(mx_metric(['acc'], 4).set_dtype(dtype), p, y, {_SZ}, dtype),\n"
                    f" torch_feed(mx_metric('top_k_acc', 4, top_k=2).set_dtype(dtype), p, y, "
                    f"{_SZ}, dtype))", _CLS)),
    entry("mx.metric.create", form="metric='acc'", when=["metric='acc'"],
          signature=("metric",),
          torch="torchmetrics.classification.MulticlassAccuracy(num_classes, average='micro')",
          status=ARGS, args="'acc' → mx.metric.Accuracy's counterpart",
          defaults="MulticlassAccuracy's average='macro': pass 'micro'",
          gotchas=[_ORDER],
          teach=_ACC,
          check=_ck(_mx("mx.metric.create('acc')"),
                    _pt("torchmetrics.classification.MulticlassAccuracy(4, average='micro')"),
                    _CLS)),
    entry("mx.metric.create", form="metric='mse'", when=["metric='mse'"],
          signature=("metric",),
          torch="torchmetrics.MeanMetric()  # updated with F.mse_loss(pred, label) per batch",
          status=COMPOSITE, args="'mse' → mx.metric.MSE's counterpart",
          gotchas=[_BATCH],
          teach=_REG,
          check=_ck(_mx("mx.metric.create('mse')"),
                    _pt(_MEAN_OF, extra=", prep=lambda p, t: (F.mse_loss(p, t),)"), _REGIN)),
    entry("mx.metric.create", form="metric='top_k_accuracy'", when=["metric='top_k_accuracy'"],
          signature=("metric",),
          torch="torchmetrics.classification.MulticlassAccuracy(num_classes, top_k=top_k, "
                "average='micro')",
          status=ARGS, args="'top_k_accuracy', top_k=k → mx.metric.TopKAccuracy's counterpart",
          gotchas=[_ORDER],
          teach=_TOPK,
          check=_ck(_mx("mx.metric.create('top_k_accuracy', top_k=3)"),
                    _pt("torchmetrics.classification.MulticlassAccuracy(4, top_k=3, "
                        "average='micro')"), _CLS)),
]

LABEL_SHAPES_RECIPE = '''
def check_label_shapes(labels, preds, wrap=False, shape=False):
    """Raise ValueError unless labels and preds match in length (shape=True: in shape);
    wrap=True: a single tensor becomes a one-element list, and both are returned."""
    a, b = (labels.shape, preds.shape) if shape else (len(labels), len(preds))
    if a != b:
        raise ValueError(f"Shape of labels {a} does not match shape of predictions {b}")
    if wrap:
        labels = [labels] if isinstance(labels, torch.Tensor) else labels
        preds = [preds] if isinstance(preds, torch.Tensor) else preds
        return labels, preds
'''

REGISTER_RECIPE = '''
METRICS = {}

def register(klass, name=None):
    METRICS[(name or klass.__name__).lower()] = klass
    return klass

def create(name, *args, **kwargs):
    return METRICS[name.lower()](*args, **kwargs)
'''

ENTRIES += [
    entry("mx.metric.check_label_shapes", torch="check_label_shapes(labels, preds, wrap, shape)",
          status=RECIPE, recipe=LABEL_SHAPES_RECIPE,
          args="the same arguments; torchmetrics checks shapes inside update()",
          gotchas=["without shape=True it compares len(): the first axis (or the number of "
                   "arrays in a list)"],
          check=check("""
              from mxnet.metric import check_label_shapes
              def raises(*a, **k):
                  try:
                      check_label_shapes(*a, **k)
                  except ValueError:
                      return True
                  return False
              labels, preds = check_label_shapes(y, p, wrap=True)
              (labels, preds, onp.array([raises(y, p[:3]), raises(y, p, shape=True),
                                         raises(y, p)]))""",
              LABEL_SHAPES_RECIPE.strip() + textwrap.dedent("""

              def raises(*a, **k):
                  try:
                      check_label_shapes(*a, **k)
                  except ValueError:
                      return True
                  return False
              labels, preds = check_label_shapes(y, p, wrap=True)
              (labels, preds, onp.array([raises(y, p[:3]), raises(y, p, shape=True),
                                         raises(y, p)]))"""), inputs=_CLS)),
    entry("mx.metric.register", torch="register(klass, name)", status=RECIPE,
          recipe=REGISTER_RECIPE,
          args="klass → the class, stored under its lower-cased name; torchmetrics keeps no "
               "registry: a dict of your own does",
          gotchas=["MXNet's registry makes the class reachable by mx.metric.create(name); "
                   "mx.metric.alias(*names) adds more names for it"],
          check=check("""
              class MyAcc(mx.metric.Accuracy):
                  pass
              mx.metric.register(MyAcc)
              type(mx.metric.create('myacc', axis=1)).__name__""",
              REGISTER_RECIPE.strip() + textwrap.dedent("""

              class MyAcc:
                  def __init__(self, axis=1):
                      self.axis = axis
              register(MyAcc)
              type(create('myacc', axis=1)).__name__"""), kind="exact", dtypes=("float64",))),
    entry("mx.metric.alias", torch="METRICS.update({a.lower(): klass for a in aliases})",
          status=RECIPE, recipe=REGISTER_RECIPE + "\n# alias: a decorator\n"
          "def alias(*aliases):\n    def reg(klass):\n        for a in aliases:\n"
          "            register(klass, a)\n        return klass\n    return reg",
          args="*aliases → more keys of the same class in your registry",
          check=check("""
              @mx.metric.alias('my_acc2', 'mine2')
              class MyAcc2(mx.metric.Accuracy):
                  pass
              mx.metric.register(MyAcc2)
              [type(mx.metric.create(n)).__name__ for n in ('mine2', 'my_acc2', 'myacc2')]""",
              REGISTER_RECIPE.strip() + textwrap.dedent("""

              class MyAcc2:
                  pass
              register(MyAcc2)
              METRICS.update({a.lower(): MyAcc2 for a in ('my_acc2', 'mine2')})
              [type(create(n)).__name__ for n in ('mine2', 'my_acc2', 'myacc2')]"""),
              kind="exact", dtypes=("float64",))),
]
