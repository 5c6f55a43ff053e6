"""Named gotcha detectors: the places where a port that only renames goes wrong.

Each :class:`Detector` is one behaviour a notebook section shows with an assert (its
:attr:`~Detector.where`, :attr:`~Detector.link` and :attr:`~Detector.anchor`), and a function
that finds it in a script's :class:`~sidebyside.migrate.resolve.Analysis`: on the AST, by the
canonical names :mod:`~sidebyside.migrate.resolve` gives (so ``from mxnet import nd as
ndarray`` and ``F.concat`` in ``hybrid_forward`` are found, and a user's own ``concat`` is
not), with the keywords and literals of each call. A :class:`Finding` is one site: its line,
a message computed from the call's own arguments where they are literals (``momentum=0.9``
→ ``momentum=0.1``), and whether the port needs a human decision there (:attr:`Finding.
decision`, a marker in the draft) or only a note.

Direction ``"torch"`` reads MXNet scripts being ported to PyTorch, ``"gluon"`` PyTorch scripts
being ported to Gluon. :func:`detect_all` runs one direction's detectors; :func:`by_name`
returns one.

Standard library only (:mod:`sidebyside.mappings` reads text and imports nothing else).
"""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from .. import mappings

if TYPE_CHECKING:
    from .resolve import Analysis

__all__ = ["Detector", "Finding", "DETECTORS", "DIRECTIONS", "detect_all", "by_name"]

DIRECTIONS = ("torch", "gluon")


@dataclass(frozen=True)
class Finding:
    """One site where a detector applies."""

    rule: str        # the detector's name
    path: str
    line: int
    message: str     # specific to the site
    site_name: str   # canonical name of the construct it is attached to
    decision: bool   # True: the port needs a human decision at this line


@dataclass(frozen=True)
class Detector:
    """A named gotcha, the notebook section that shows it, and its finder."""

    name: str
    title: str
    advice: str
    where: str
    link: str
    anchor: str
    direction: str   # "torch": MXNet scripts being ported to PyTorch; "gluon": the reverse
    detect: Callable[[Analysis], list[Finding]]


_REGISTRY: list[Detector] = []


def _place(stem: str, heading: str, folder: str = "", title: str = "") -> dict:
    """where/link/anchor of the section ``heading`` (``"8. Title"``) of a page."""
    number, _, text = heading.partition(". ")
    return {"where": f"{mappings.page_label(stem, folder, title)}, §{number}. {text}",
            "link": mappings.page_link(stem, folder), "anchor": mappings.section_id(heading)}


def _detector(name: str, title: str, advice: str, place: dict, direction: str = "torch"):
    """Register the decorated function as the finder of a :class:`Detector`."""
    def register(func):
        _REGISTRY.append(Detector(name, title, advice, place["where"], place["link"],
                                  place["anchor"], direction, func))
        return func
    return register


# -- small AST helpers ------------------------------------------------------------------------

_MISSING = object()


def _arg(call: ast.Call, name: str, index: int | None = None):
    """The expression passed as keyword ``name`` or at position ``index``, or ``None``."""
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    if index is not None and index < len(call.args) \
            and not any(isinstance(a, ast.Starred) for a in call.args[:index + 1]):
        return call.args[index]
    return None


def _value(node):
    """The Python value of a literal expression, else ``_MISSING``."""
    if node is None:
        return _MISSING
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return _MISSING


def _text(analysis, node) -> str:
    """The source of ``node`` on one line."""
    return " ".join(analysis.segment(node).split())


def _calls(analysis, wanted) -> list[ast.Call]:
    """Every call whose canonical name is in ``wanted`` (a set) or passes it (a function)."""
    test = wanted if callable(wanted) else wanted.__contains__
    return [n for n, q in analysis.calls() if q and test(q)]


def _method_calls(analysis, attr: str) -> list[ast.Call]:
    """Every ``<expr>.attr(...)`` call."""
    return [n for n, _ in analysis.calls()
            if isinstance(n.func, ast.Attribute) and n.func.attr == attr]


def _dotted(node) -> str:
    """``a.b.c`` for a name or attribute chain, else ``""``."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return ".".join([node.id, *parts[::-1]])
    return ""


def _finding(rule, analysis, node, message, site_name, decision) -> Finding:
    return Finding(rule, analysis.path, node.lineno, message, site_name, decision)


def _number(x) -> str:
    """A float without noise: 0.1 for 1 - 0.9."""
    return f"{round(x, 10):g}" if isinstance(x, float) else str(x)


def _scopes(tree) -> list[list[ast.AST]]:
    """The nodes of each function body (nested functions apart) and of the module level."""
    out: list[list[ast.AST]] = []

    def collect(owner):
        nodes: list[ast.AST] = []
        stack = list(ast.iter_child_nodes(owner))
        while stack:
            node = stack.pop()
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                collect(node)
                continue
            nodes.append(node)
            stack.extend(ast.iter_child_nodes(node))
        out.append(nodes)

    collect(tree)
    return out


def _assignments(nodes) -> dict[str, list[tuple[int, ast.expr]]]:
    """``name -> [(line, value), …]`` for the plain assignments among ``nodes``."""
    out: dict[str, list[tuple[int, ast.expr]]] = {}
    for node in nodes:
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        for target in targets:
            key = _dotted(target)
            if key:
                out.setdefault(key, []).append((node.lineno, value))
    return out


def _latest(assigns, key: str, line: int):
    """The value last assigned to ``key`` before ``line`` (same line counts), or ``None``."""
    before = [(ln, v) for ln, v in assigns.get(key, []) if ln <= line]
    return max(before, key=lambda item: item[0])[1] if before else None


def _file_bindings(analysis) -> dict[str, ast.expr]:
    """``name -> value`` of every assignment in the file (the last one wins)."""
    return {k: v[-1][1] for k, v in _assignments(analysis.nodes()).items()}


# -- which loss reaches backward() ------------------------------------------------------------

_TORCH_LOSS_FUNCS = {f"torch.nn.functional.{n}" for n in (
    "cross_entropy", "nll_loss", "mse_loss", "l1_loss", "binary_cross_entropy",
    "binary_cross_entropy_with_logits", "smooth_l1_loss", "huber_loss", "kl_div",
    "poisson_nll_loss", "soft_margin_loss", "multi_margin_loss")}
_TORCH_LOSS_CLASSES = {f"torch.nn.{n}" for n in (
    "CrossEntropyLoss", "NLLLoss", "MSELoss", "L1Loss", "BCELoss", "BCEWithLogitsLoss",
    "SmoothL1Loss", "HuberLoss", "KLDivLoss", "PoissonNLLLoss", "SoftMarginLoss")}


def _reduction(analysis, expr, assigns, bindings, line, depth=0) -> str | None:
    """How the value ``expr`` reduces the batch: ``"mean"``, ``"sum"``, ``"per-sample"``
    (a Gluon loss, or ``reduction='none'``), or ``None`` when the reader cannot tell."""
    if depth > 8 or expr is None:
        return None
    if isinstance(expr, ast.Name):
        return _reduction(analysis, _latest(assigns, expr.id, line), assigns, bindings, line,
                          depth + 1)
    if isinstance(expr, ast.BinOp):
        for side in (expr.left, expr.right):
            if _value(side) is _MISSING:
                return _reduction(analysis, side, assigns, bindings, line, depth + 1)
        return None
    if not isinstance(expr, ast.Call):
        return None
    func, name = expr.func, analysis.qualname(expr) or ""
    if isinstance(func, ast.Attribute) and func.attr in ("mean", "sum") \
            and not expr.args and _arg(expr, "axis") is None and _arg(expr, "dim") is None:
        return func.attr
    if name in ("mx.nd.mean", "mx.nd.sum", "mx.np.mean", "mx.np.sum") \
            and len(expr.args) == 1 and _arg(expr, "axis") is None:
        return name.rsplit(".", 1)[1]
    if name in _TORCH_LOSS_FUNCS:
        return _torch_reduction(_arg(expr, "reduction"))
    callee = func if analysis.qualname(func) is None else None
    instance = expr.func if isinstance(expr.func, ast.Call) else (
        bindings.get(_dotted(callee)) if callee is not None and _dotted(callee) else None)
    if isinstance(instance, ast.Call):
        kind = analysis.qualname(instance) or ""
        if kind.startswith("mx.gluon.loss."):
            return "per-sample"
        if kind in _TORCH_LOSS_CLASSES:
            return _torch_reduction(_arg(instance, "reduction"))
    return None


def _torch_reduction(node) -> str | None:
    value = "mean" if node is None else _value(node)
    return {"mean": "mean", "sum": "sum", "none": "per-sample"}.get(value)


def _backward_losses(analysis, nodes):
    """``(backward call, loss expression)`` for each ``loss.backward()`` and
    ``autograd.backward(loss)`` among ``nodes``."""
    out = []
    for node in nodes:
        if not isinstance(node, ast.Call):
            continue
        if isinstance(node.func, ast.Attribute) and node.func.attr == "backward" \
                and analysis.qualname(node) not in ("mx.autograd.backward", "torch.autograd.backward"):
            out.append((node, node.func.value))
        elif analysis.qualname(node) in ("mx.autograd.backward", "torch.autograd.backward") \
                and node.args:
            head = node.args[0]
            if isinstance(head, (ast.List, ast.Tuple)) and head.elts:
                head = head.elts[0]
            out.append((node, head))
    return out


# -- the optimizers a script creates ----------------------------------------------------------

@dataclass
class _Opt:
    node: ast.Call
    name: str | None                 # "sgd", "adadelta" … or None when not a literal
    params: dict[str, ast.expr]      # the optimizer's hyper-parameters given
    known: bool                      # False: optimizer_params is not a literal the reader sees
    site_name: str


_MX_OPTIMIZER_CLASSES = {"SGD": "sgd", "NAG": "nag", "AdaDelta": "adadelta",
                         "RMSProp": "rmsprop", "AdaGrad": "adagrad", "Adam": "adam",
                         "Signum": "signum", "FTML": "ftml", "LAMB": "lamb"}


def _param_dict(node) -> tuple[dict[str, ast.expr], bool]:
    """The hyper-parameters of an ``optimizer_params`` expression: a dict display,
    ``dict(k=v)`` or MXNet's ``(('learning_rate', 0.01),)``."""
    if node is None:
        return {}, True
    if isinstance(node, ast.Dict) and None not in node.keys:
        keys = [_value(k) for k in node.keys]
        if all(isinstance(k, str) for k in keys):
            return dict(zip(keys, node.values)), True
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict" \
            and not node.args and all(kw.arg for kw in node.keywords):
        return {kw.arg: kw.value for kw in node.keywords}, True
    if isinstance(node, (ast.Tuple, ast.List)) and all(
            isinstance(e, (ast.Tuple, ast.List)) and len(e.elts) == 2
            and isinstance(_value(e.elts[0]), str) for e in node.elts):
        return {_value(e.elts[0]): e.elts[1] for e in node.elts}, True
    return {}, False


def _optimizers(analysis) -> list[_Opt]:
    """Every optimizer the script names: ``gluon.Trainer(…, 'sgd', {...})``,
    ``mx.optimizer.create('nag', …)``, ``mx.optimizer.AdaDelta(…)``, ``mod.fit(optimizer=…)``."""
    out = []
    for call in _calls(analysis, lambda q: q.startswith(("mx.gluon.Trainer", "mx.optimizer.",
                                                          "mx.mod.Module."))):
        q = analysis.qualname(call)
        if q == "mx.gluon.Trainer":
            name, params = _arg(call, "optimizer", 1), _arg(call, "optimizer_params", 2)
        elif q in ("mx.mod.Module.fit", "mx.mod.Module.init_optimizer"):
            name, params = _arg(call, "optimizer"), _arg(call, "optimizer_params")
            if name is None:
                continue
        elif q in ("mx.optimizer.create", "mx.optimizer.Optimizer.create_optimizer"):
            name = _arg(call, "name", 0)
            out.append(_Opt(call, _lower(_value(name)),
                            {kw.arg: kw.value for kw in call.keywords if kw.arg}, True, q))
            continue
        elif q.rsplit(".", 1)[-1] in _MX_OPTIMIZER_CLASSES and q.count(".") == 2:
            out.append(_Opt(call, _MX_OPTIMIZER_CLASSES[q.rsplit(".", 1)[-1]],
                            {kw.arg: kw.value for kw in call.keywords if kw.arg}, True, q))
            continue
        else:
            continue
        values, known = _param_dict(params)
        out.append(_Opt(call, _lower(_value(name)), values, known, q))
    return out


def _lower(value) -> str | None:
    return value.lower() if isinstance(value, str) else None


# == direction "torch": MXNet scripts =========================================================

@_detector(
    "trainer-step-mean",
    "trainer.step(n) after a loss already averaged over the batch divides the gradient by n "
    "twice",
    "Port what the script did: the mean loss with optimizer.step() and the learning rate "
    "divided by n (or fix it knowingly). Gluon's idiom, per-sample losses with step(n), is "
    "PyTorch's default reduction='mean'.",
    _place("08_optimizers_trainer", "6. What `trainer.step(n)` does"))
def _trainer_step_mean(analysis) -> list[Finding]:
    """``trainer.step(n)`` (n not 1) after ``mean().backward()``; ``step(1)`` after the
    backward of per-sample Gluon losses (a summed gradient)."""
    steps = {id(c) for c, _ in analysis.calls() if _is_trainer_step(analysis, c)}
    if not steps:
        return []
    out, bindings = [], _file_bindings(analysis)
    for nodes in _scopes(analysis.tree):
        if not any(id(n) in steps for n in nodes):
            continue
        assigns = _assignments(nodes)
        backwards = _backward_losses(analysis, nodes)
        for step in (n for n in nodes if id(n) in steps):
            n_node = _arg(step, "batch_size", 0)
            n_text = _text(analysis, n_node) if n_node is not None else "1"
            one = n_node is None or _value(n_node) == 1
            before = [(c, loss) for c, loss in backwards if c.lineno <= step.lineno]
            if not before:
                continue
            call, loss = max(before, key=lambda item: item[0].lineno)   # the closest backward
            kind = _reduction(analysis, loss, assigns, bindings, call.lineno)
            if kind == "mean" and not one:
                out.append(_finding(
                    "trainer-step-mean", analysis, step,
                    f"line {call.lineno} backpropagates a batch mean ({_text(analysis, call)}) "
                    f"and trainer.step({n_text}) divides by {n_text} again: each update is "
                    f"1/{n_text} of the mean's. In PyTorch the same steps are the mean loss "
                    f"and optimizer.step() with lr/{n_text}", "mx.gluon.Trainer.step", True))
            elif kind == "per-sample" and one:
                out.append(_finding(
                    "trainer-step-mean", analysis, step,
                    f"line {call.lineno} backpropagates per-sample losses and trainer.step(1) "
                    f"does not divide: the gradient is the batch's sum. In PyTorch that is "
                    f"reduction='sum' (or the mean with lr × batch size)",
                    "mx.gluon.Trainer.step", True))
    return out


def _is_trainer_step(analysis, call: ast.Call) -> bool:
    """``trainer.step(...)``: by its inferred type, or by a receiver named ``*trainer*``."""
    if not (isinstance(call.func, ast.Attribute) and call.func.attr == "step"):
        return False
    if analysis.qualname(call) == "mx.gluon.Trainer.step":
        return True
    return analysis.qualname(call) is None and "trainer" in _dotted(call.func.value).lower()


@_detector(
    "dense-flatten",
    "gluon.nn.Dense flattens an input of more than two axes to (N, -1); nn.Linear maps the "
    "last axis",
    "For 2-D inputs nn.Linear(in_units, units) is the same layer; for inputs of three or more "
    "axes write torch.flatten(x, 1) before it (or Dense(flatten=False) is nn.Linear).",
    _place("06_blocks", "3. Layer defaults that bite"))
def _dense_flatten(analysis) -> list[Finding]:
    out = []
    for call in _calls(analysis, {"mx.gluon.nn.Dense"}):
        flag = _arg(call, "flatten", 3)
        value = True if flag is None else _value(flag)
        if value is False:
            continue
        how = "flatten=True (the default)" if flag is None else f"flatten={_text(analysis, flag)}"
        out.append(_finding(
            "dense-flatten", analysis, call,
            f"{how}: on an input of shape (N, T, C) this Dense sees (N, T·C); nn.Linear would "
            f"map C. Same layer only if the input is 2-D — otherwise torch.flatten(x, 1) "
            f"first", "mx.gluon.nn.Dense", True))
    return out


_CONCATS = {"mx.nd.concat", "mx.nd.Concat", "mx.sym.concat", "mx.sym.Concat"}


@_detector(
    "concat-default-dim",
    "nd.concat joins along dim 1 unless told; torch.cat along dim 0",
    "Write torch.cat(tensors, dim=1) — the dimension explicit.",
    _place("02_tensor_ops", "8. The whole map, run"))
def _concat_default_dim(analysis) -> list[Finding]:
    out = []
    for call in _calls(analysis, _CONCATS):
        if _arg(call, "dim") is not None:
            continue
        name = analysis.qualname(call)
        out.append(_finding(
            "concat-default-dim", analysis, call,
            f"{name.rsplit('.', 1)[1]} without dim= joins along dim=1 by default; torch.cat's "
            f"default is 0: write torch.cat([...], dim=1)", name, False))
    return out


@_detector(
    "batchnorm-momentum",
    "Gluon's BatchNorm momentum is the weight of the old running value; PyTorch's is the "
    "weight of the new batch, and its running variance is unbiased",
    "nn.BatchNorm2d(momentum=1 - m) for Gluon's momentum=m (0.1 for the default 0.9); the "
    "running variance still differs by n/(n-1) (÷n in MXNet, ÷(n-1) in PyTorch).",
    _place("06_blocks", "3. Layer defaults that bite"))
def _batchnorm_momentum(analysis) -> list[Finding]:
    out = []
    for call in _calls(analysis, {"mx.gluon.nn.BatchNorm", "mx.gluon.contrib.nn.SyncBatchNorm"}):
        node = _arg(call, "momentum", 1)
        m = 0.9 if node is None else _value(node)
        said = "momentum=0.9 (the default)" if node is None else \
            f"momentum={_text(analysis, node)}"
        variance = ("; MXNet's running variance is the biased batch variance (÷n), PyTorch's "
                    "the unbiased one (÷(n-1))")
        if isinstance(m, (int, float)) and not isinstance(m, bool):
            out.append(_finding(
                "batchnorm-momentum", analysis, call,
                f"{said} here is momentum={_number(1 - m)} in torch.nn.BatchNorm2d{variance}",
                analysis.qualname(call), False))
        else:
            out.append(_finding(
                "batchnorm-momentum", analysis, call,
                f"{said}: torch.nn.BatchNorm2d(momentum=1 - ({_text(analysis, node)}))"
                f"{variance}", analysis.qualname(call), True))
    return out


@_detector(
    "symbol-batchnorm-defaults",
    "the BatchNorm operator defaults to fix_gamma=True (the stored gamma is ignored) and "
    "eps=1e-3",
    "nn.BatchNorm2d(eps=float(np.float32(1e-3))) with its weight fixed at 1 "
    "(weight.requires_grad_(False), ones) where fix_gamma is True.",
    _place("19_legacy_files_to_pytorch", "5. A Module checkpoint: the symbol API's defaults"))
def _symbol_batchnorm_defaults(analysis) -> list[Finding]:
    out = []
    for call in _calls(analysis, {"mx.sym.BatchNorm", "mx.nd.BatchNorm"}):
        fix, eps = _arg(call, "fix_gamma"), _arg(call, "eps")
        parts, decision = [], False
        fix_value = True if fix is None else _value(fix)
        if fix_value is not False:
            parts.append("fix_gamma=True (the default): the stored gamma is ignored, as if 1 — "
                         "freeze the PyTorch weight at ones" if fix is None else
                         f"fix_gamma={_text(analysis, fix)}: if true the stored gamma is "
                         "ignored, as if 1")
            decision = True
        if eps is None:
            parts.append("eps=1e-3 (the default, kept as float32): "
                         "nn.BatchNorm2d(eps=0.0010000000474974513)")
        if parts:
            out.append(_finding("symbol-batchnorm-defaults", analysis, call, "; ".join(parts),
                                analysis.qualname(call), decision))
    return out


@_detector(
    "float64-clip-global-norm",
    "gluon.utils.clip_global_norm divides by norm + 1e-8 (clip_grad_norm_ by norm + 1e-6) and "
    "fails on float64 gradients",
    "sidebyside.clipping.clip_global_norm(params, max_norm, rule=\"mxnet\") keeps MXNet's "
    "factor in any float dtype; torch.nn.utils.clip_grad_norm_ is rule=\"torch\".",
    _place("20_sequence_models", "7. Clipping the gradient norm: two formulas"))
def _clip_global_norm(analysis) -> list[Finding]:
    return [_finding(
        "float64-clip-global-norm", analysis, call,
        "clip_global_norm scales by max_norm / (norm + 1e-8), clip_grad_norm_ by max_norm / "
        "(norm + 1e-6), and MXNet's fails on float64: for this script's factor write "
        "sidebyside.clipping.clip_global_norm(..., rule=\"mxnet\")",
        "mx.gluon.utils.clip_global_norm", False)
        for call in _calls(analysis, {"mx.gluon.utils.clip_global_norm"})]


def _float64_marker(analysis):
    """The first place the script asks for float64: ``dtype='float64'``, ``dtype=np.float64``,
    ``.cast('float64')``, ``.astype('float64')``; or ``None``."""
    def is64(node):
        return _value(node) == "float64" or (isinstance(node, ast.Attribute)
                                             and node.attr == "float64")
    hits = []
    for node in analysis.nodes():
        if not isinstance(node, ast.Call):
            continue
        if any(kw.arg == "dtype" and is64(kw.value) for kw in node.keywords) or (
                isinstance(node.func, ast.Attribute) and node.func.attr in ("cast", "astype")
                and node.args and is64(node.args[0])):
            hits.append(node)
    return min(hits, key=lambda n: (n.lineno, n.col_offset)) if hits else None


@_detector(
    "float64-optimizer",
    "MXNet 1.9.1's rmsprop, adagrad and adadelta cannot train float64 weights: their state is "
    "float32 and the first update fails",
    "torch.optim.RMSprop/Adagrad/Adadelta train float64; decide which dtype the port trains "
    "in (the legacy run can only have worked in float32).",
    _place("08_optimizers_trainer", "5. RMSProp, Adagrad, Adadelta"))
def _float64_optimizer(analysis) -> list[Finding]:
    marker = _float64_marker(analysis)
    if marker is None:
        return []
    return [_finding(
        "float64-optimizer", analysis, opt.node,
        f"'{opt.name}' with float64 (line {marker.lineno}: {_text(analysis, marker)}): "
        f"MXNet 1.9.1 makes its state float32 and the first update raises MXNetError; "
        f"torch.optim's trains float64", opt.site_name, True)
        for opt in _optimizers(analysis) if opt.name in ("rmsprop", "adagrad", "adadelta")]


@_detector(
    "adadelta-learning-rate",
    "MXNet's adadelta ignores learning_rate",
    "torch.optim.Adadelta(params, lr=1.0, eps=1e-5) takes the steps the script took; a rate "
    "(and any schedule) only means something in PyTorch, or in Gluon's \"torchadadelta\".",
    _place("optim_rules", "3. RMSProp, Adagrad and Adadelta, in float32", "deep_dives",
           "Deep dive · Optimizer rules, step by step: where MXNet's update kernels differ"))
def _adadelta_learning_rate(analysis) -> list[Finding]:
    out = []
    for opt in _optimizers(analysis):
        rate = opt.params.get("learning_rate", opt.params.get("lr"))
        if opt.name == "adadelta" and rate is not None:
            out.append(_finding(
                "adadelta-learning-rate", analysis, opt.node,
                f"learning_rate={_text(analysis, rate)} is ignored by MXNet's adadelta (the "
                f"step is the same for any rate): torch.optim.Adadelta(params, lr=1.0, "
                f"eps=1e-5) reproduces it; lr={_text(analysis, rate)} would change it",
                opt.site_name, True))
    return out


_MAX_POOLS = {f"mx.gluon.nn.{k}MaxPool{d}D" for k in ("", "Global") for d in (1, 2, 3)}
_BATCHNORMS = {"mx.gluon.nn.BatchNorm", "mx.sym.BatchNorm", "mx.nd.BatchNorm"}


def _predict_mode_layers(analysis):
    """``(call, what)`` for each max pooling, model-zoo network or BatchNorm in the file."""
    out = []
    for node in analysis.nodes():
        if not isinstance(node, ast.Call):
            continue
        q = analysis.qualname(node) or ""
        if q in _MAX_POOLS:
            out.append((node, "max pooling"))
        elif q in ("mx.nd.Pooling", "mx.sym.Pooling") \
                and (_arg(node, "pool_type") is None or _value(_arg(node, "pool_type")) == "max"):
            out.append((node, "max pooling"))
        elif q.startswith(("mx.gluon.model_zoo.", "gluoncv.model_zoo.")):
            out.append((node, "a model-zoo network (max pooling inside)"))
        elif q in _BATCHNORMS:
            out.append((node, "BatchNorm"))
    return out


@_detector(
    "record-train-mode-false-pooling",
    "gradients recorded under autograd.record(train_mode=False) are wrong for max pooling "
    "(oneDNN) and BatchNorm in MXNet 1.9.1",
    "In PyTorch model.eval() and the backward pass give the eval-mode gradient the script "
    "meant; the MXNet original's numbers were not that gradient.",
    _place("05_autograd", "2. Scopes: training or predicting, recording or not"))
def _record_predict_mode(analysis) -> list[Finding]:
    records = [c for c in _calls(analysis, {"mx.autograd.record"})
               if _value(_arg(c, "train_mode", 0)) is False]
    layers = _predict_mode_layers(analysis)
    if not records or not layers:
        return []
    kinds = sorted({what for _, what in layers})
    first = min(layers, key=lambda item: item[0].lineno)[0]
    return [_finding(
        "record-train-mode-false-pooling", analysis, call,
        f"record(train_mode=False) in a file with {', '.join(kinds)} (first at line "
        f"{first.lineno}): MXNet 1.9.1's backward there is wrong (max pooling reads a "
        f"workspace only training writes; BatchNorm uses the batch formula) — the port's "
        f"model.eval() gradients will not match the original's", "mx.autograd.record", True)
        for call in records]


def _xavier_rule(rnd, factor, m) -> str:
    """The torch.nn.init call that draws what ``mx.init.Xavier(rnd, factor, m)`` draws."""
    if factor == "avg":
        if rnd == "uniform":
            return f"nn.init.xavier_uniform_(w, gain={math.sqrt(m / 3):.4g}) (gain = √({_number(m)}/3))"
        return f"nn.init.xavier_normal_(w, gain={math.sqrt(m):.4g}) (gain = √{_number(m)})"
    mode = f"mode=\"fan_{factor}\""
    limit, kaiming = (6, "kaiming_uniform_") if rnd == "uniform" else (2, "kaiming_normal_")
    if 0 < m <= limit:
        return (f"nn.init.{kaiming}(w, a={math.sqrt(limit / m - 1):.4g}, {mode}) "
                f"(a=√({limit}/{_number(m)} − 1))")
    draw = "uniform_(w, −s, s)" if rnd == "uniform" else "normal_(w, 0, s)"
    return f"nn.init.{draw} with s = √({_number(m)}/fan_{factor})"


@_detector(
    "xavier-magnitude",
    "mx.init.Xavier's magnitude is not xavier_uniform_'s gain: gain = √(magnitude/3) for "
    "('uniform', 'avg')",
    "sidebyside.initmap.torch_init_like_mxnet(model, the Xavier) draws every weight from "
    "MXNet's law; by hand xavier_uniform_(w, gain=√(m/3)) and biases zero.",
    _place("06_blocks", "2. Parameters and initialisers"))
def _xavier(analysis) -> list[Finding]:
    out = []
    for call in _calls(analysis, {"mx.init.Xavier"}):
        nodes = [_arg(call, "rnd_type", 0), _arg(call, "factor_type", 1),
                 _arg(call, "magnitude", 2)]
        values = [d if n is None else _value(n) for n, d in zip(nodes, ("uniform", "avg", 3))]
        rnd, factor, m = values
        ok = rnd in ("uniform", "gaussian") and factor in ("avg", "in", "out") \
            and isinstance(m, (int, float)) and not isinstance(m, bool)
        said = _text(analysis, call)
        if ok:
            own = " — PyTorch's own default law" if (rnd, factor) == ("uniform", "in") \
                and m == 1 else ""
            out.append(_finding(
                "xavier-magnitude", analysis, call,
                f"{said} is {_xavier_rule(rnd, factor, float(m))}{own}; MXNet leaves the "
                f"biases at 0: nn.init.zeros_(b)", "mx.init.Xavier", False))
        else:
            out.append(_finding(
                "xavier-magnitude", analysis, call,
                f"{said}: arguments not literal; ('uniform', 'avg', m) is xavier_uniform_(w, "
                f"gain=√(m/3)), not gain=√m", "mx.init.Xavier", True))
    return out


@_detector(
    "last-batch-rollover",
    "Gluon's DataLoader(last_batch='rollover') carries the short batch into the next epoch; "
    "PyTorch has no counterpart",
    "'keep' is drop_last=False and 'discard' is drop_last=True; 'rollover' needs a batch "
    "sampler that holds the leftover samples across epochs.",
    _place("04_data_loading", "3. The last batch: `drop_last` vs `last_batch`"))
def _last_batch_rollover(analysis) -> list[Finding]:
    out = []
    for call in _calls(analysis, {"mx.gluon.data.DataLoader"}):
        node = _arg(call, "last_batch")
        value = _value(node)
        if node is None or value == "keep":
            continue
        if value == "discard":
            out.append(_finding("last-batch-rollover", analysis, call,
                                "last_batch='discard' is DataLoader(drop_last=True)",
                                "mx.gluon.data.DataLoader", False))
        elif value == "rollover":
            out.append(_finding(
                "last-batch-rollover", analysis, call,
                "last_batch='rollover': the short batch's samples start the next epoch (and "
                "len(loader) changes per epoch); drop_last has no such mode — a batch sampler "
                "that carries them over, or drop_last=True if the port may lose them",
                "mx.gluon.data.DataLoader", True))
        else:
            out.append(_finding(
                "last-batch-rollover", analysis, call,
                f"last_batch={_text(analysis, node)}: 'keep' → drop_last=False, 'discard' → "
                f"drop_last=True, 'rollover' has no PyTorch counterpart",
                "mx.gluon.data.DataLoader", True))
    return out


@_detector(
    "ndarrayiter-last-batch",
    "mx.io.NDArrayIter pads the last batch by default (last_batch_handle='pad', wrapping to "
    "the first samples) or rolls it over",
    "'discard' is DataLoader(drop_last=True); 'pad' needs a sampler that repeats the epoch's "
    "first samples and a metric that skips them; 'roll_over' carries them into the next epoch.",
    _place("18_legacy_data_recordio", "1. `mx.io.NDArrayIter` ↔ `TensorDataset` + `DataLoader`"))
def _ndarrayiter_last_batch(analysis) -> list[Finding]:
    out = []
    for call in _calls(analysis, {"mx.io.NDArrayIter"}):
        node = _arg(call, "last_batch_handle", 4)
        value = "pad" if node is None else _value(node)
        said = "last_batch_handle='pad' (the default)" if node is None else \
            f"last_batch_handle={_text(analysis, node)}"
        if value == "discard":
            out.append(_finding("ndarrayiter-last-batch", analysis, call,
                                f"{said} is DataLoader(drop_last=True)", "mx.io.NDArrayIter",
                                False))
        elif value == "pad":
            out.append(_finding(
                "ndarrayiter-last-batch", analysis, call,
                f"{said}: the last batch is filled with the epoch's first samples (batch.pad "
                f"says how many); DataLoader keeps a short batch — no drop_last value matches",
                "mx.io.NDArrayIter", True))
        else:
            out.append(_finding(
                "ndarrayiter-last-batch", analysis, call,
                f"{said}: 'roll_over' carries the leftover samples into the next epoch; "
                f"DataLoader has no such mode", "mx.io.NDArrayIter", True))
    return out


@_detector(
    "softmax-ce-options",
    "SoftmaxCrossEntropyLoss returns one loss per sample, and its from_logits, sparse_label "
    "and axis are not PyTorch's options",
    "nn.CrossEntropyLoss(reduction='none') on logits with Long labels; from_logits=True is "
    "F.nll_loss(x, y, reduction='none') on log-probabilities; classes on dim 1.",
    _place("10_losses",
           "1. Cross-entropy: from logits, from log-probabilities, from class probabilities"))
def _softmax_ce(analysis) -> list[Finding]:
    out = []
    for call in _calls(analysis, {"mx.gluon.loss.SoftmaxCrossEntropyLoss",
                                  "mx.gluon.loss.SoftmaxCELoss"}):
        axis, sparse, logits = (_arg(call, "axis", 0), _arg(call, "sparse_label", 1),
                                _arg(call, "from_logits", 2))
        parts = []
        if _value(logits) is True:
            parts.append("from_logits=True takes log-probabilities: F.nll_loss(x, y, "
                         "reduction='none'), not cross_entropy")
        elif logits is not None and _value(logits) is not False:
            parts.append(f"from_logits={_text(analysis, logits)}: True means log-probabilities "
                         "(nll_loss)")
        if _value(sparse) is False:
            parts.append("sparse_label=False takes class probabilities: nn.CrossEntropyLoss "
                         "accepts them as a float target of the input's shape")
        elif sparse is not None and _value(sparse) is not True:
            parts.append(f"sparse_label={_text(analysis, sparse)}: False means class "
                         "probabilities")
        if axis is not None and _value(axis) != -1:
            parts.append(f"axis={_text(analysis, axis)}: PyTorch wants the classes on dim 1 "
                         "(permute the input)")
        parts.append("one loss per sample (the mean over the non-batch axes), not the batch "
                     "mean: nn.CrossEntropyLoss(reduction='none'); labels are floats in MXNet, "
                     "Long in PyTorch (y.long()); on (N, T, C) logits PyTorch wants the "
                     "classes on dim 1 and gives (N, T), Gluon averages T away")
        # always a decision: the labels' dtype and the logits' layout are not in the call
        out.append(_finding("softmax-ce-options", analysis, call, "; ".join(parts),
                            analysis.qualname(call), True))
    return out


@_detector(
    "mnistiter-scale",
    "mx.io.MNISTIter divides pixels by 256, drops the last partial batch and shuffles once",
    "A torchvision dataset with a transform that divides the uint8 pixels by 256 (ToTensor "
    "divides by 255), DataLoader(drop_last=True), and one permutation replayed every epoch.",
    _place("18_legacy_data_recordio", "2. `mx.io.MNISTIter` ↔ a torchvision dataset"))
def _mnistiter(analysis) -> list[Finding]:
    out = []
    for call in _calls(analysis, {"mx.io.MNISTIter"}):
        shuffle = _arg(call, "shuffle")
        parts = ["pixels are uint8/256 (white is 255/256, not ToTensor's 1.0)",
                 "the last partial batch is dropped: drop_last=True"]
        if shuffle is None or _value(shuffle) not in (False, 0):
            parts.append("shuffle is drawn once (seed=0) and replayed every epoch, where "
                         "DataLoader(shuffle=True) draws a new order each epoch"
                         if shuffle is None else
                         f"shuffle={_text(analysis, shuffle)}: one order, replayed every epoch")
        out.append(_finding("mnistiter-scale", analysis, call, "; ".join(parts),
                            "mx.io.MNISTIter", True))
    return out


_GLUON_VISION = {f"mx.gluon.data.vision.{n}" for n in (
    "MNIST", "FashionMNIST", "CIFAR10", "CIFAR100", "ImageFolderDataset", "ImageRecordDataset",
    "ImageListDataset")}


def _is_gluon_dataset(analysis, node, assigns, depth=0) -> bool:
    """Whether ``node`` evaluates to a Gluon dataset, as far as the file's earlier
    assignments say."""
    if depth > 8:
        return False
    if isinstance(node, ast.Call):
        q = analysis.qualname(node) or ""
        if q.startswith("mx.gluon.data.") and not q.endswith(("DataLoader", "Sampler")):
            return True
        if isinstance(node.func, ast.Attribute) and node.func.attr in (
                "transform", "transform_first", "take", "filter", "shard", "sample"):
            return _is_gluon_dataset(analysis, node.func.value, assigns, depth + 1)
        return False
    value = _latest(assigns, _dotted(node), node.lineno - 1) if _dotted(node) else None
    return value is not None and _is_gluon_dataset(analysis, value, assigns, depth + 1)


@_detector(
    "transform-not-first",
    "Gluon's dataset transform= and dataset.transform(fn) call fn with (data, label); "
    "torchvision's transform= gets the image only",
    "Split the function: the image part as torchvision's transform=, the label part as "
    "target_transform=; a label-dependent transform needs a wrapper Dataset. "
    "transform_first(fn) is torchvision's transform=fn.",
    _place("18_legacy_data_recordio", "4. The `transform=` trap"))
def _transform_not_first(analysis) -> list[Finding]:
    out, assigns = [], _assignments(analysis.nodes())
    for call in _calls(analysis, _GLUON_VISION):
        fn = _arg(call, "transform")
        if fn is not None and _value(fn) is not None:
            out.append(_finding(
                "transform-not-first", analysis, call,
                f"transform={_text(analysis, fn)} is called with (data, label) and returns a "
                f"pair: torchvision's transform= gets the image only — split it into "
                f"transform= and target_transform=", analysis.qualname(call), True))
    for call in _method_calls(analysis, "transform"):
        if call.args and _is_gluon_dataset(analysis, call.func.value, assigns):
            out.append(_finding(
                "transform-not-first", analysis, call,
                f".transform({_text(analysis, call.args[0])}) calls it as fn(data, label): the "
                f"PyTorch port applies it in a wrapper Dataset (or as transform=/"
                f"target_transform= if the parts are independent)",
                "mx.gluon.data.Dataset.transform", True))
    return out


@_detector(
    "nag-aliasing",
    "\"nag\" is SGD(nesterov=True) only without weight decay: MXNet decays the already "
    "updated weight",
    "torch.optim.SGD(params, lr, momentum, nesterov=True); with weight decay the runs part "
    "from the second step (the deep dive “Optimizer rules, step by step” §1 replays MXNet's "
    "kernel).",
    _place("08_optimizers_trainer", "3. Nesterov: `nesterov=True` and `\"nag\"`"))
def _nag(analysis) -> list[Finding]:
    out = []
    for opt in _optimizers(analysis):
        if opt.name != "nag":
            continue
        wd = opt.params.get("wd")
        if wd is None and opt.known or _value(wd) in (0, 0.0):
            out.append(_finding(
                "nag-aliasing", analysis, opt.node,
                "'nag' without weight decay is torch.optim.SGD(..., momentum=m, "
                "nesterov=True), to rounding", opt.site_name, False))
        else:
            said = f"wd={_text(analysis, wd)}" if wd is not None else "its optimizer_params"
            out.append(_finding(
                "nag-aliasing", analysis, opt.node,
                f"'nag' with {said}: MXNet's kernel applies the decay to the weight it has "
                f"just updated, so SGD(nesterov=True, weight_decay=…) drifts from the second "
                f"step", opt.site_name, True))
    return out


@_detector(
    "sgd-default-lr",
    "Trainer(params, 'sgd') without a learning_rate trains at 0.01; torch.optim.SGD's "
    "default lr is 1e-3",
    "Write torch.optim.SGD(params, lr=0.01) — the rate explicit.",
    _place("08_optimizers_trainer", "2. SGD with momentum and weight decay"))
def _sgd_default_lr(analysis) -> list[Finding]:
    return [_finding(
        "sgd-default-lr", analysis, opt.node,
        "no learning_rate: MXNet's 'sgd' trains at 0.01, torch.optim.SGD without lr at "
        "1e-3 — write lr=0.01", opt.site_name, False)
        for opt in _optimizers(analysis)
        if opt.name == "sgd" and opt.known and "learning_rate" not in opt.params
        and "lr" not in opt.params]


@_detector(
    "pooling-full-convention",
    "pooling_convention='full' is ceil_mode=True, except that with padding MXNet keeps a last "
    "window lying wholly in the padding",
    "F.max_pool2d(..., ceil_mode=True) / nn.MaxPool2d(ceil_mode=True); with padding the "
    "output can be one row and column smaller in PyTorch.",
    _place("07_hybridize_export", "2. Functional code: `torch.nn.functional` and Gluon's `F`"))
def _pooling_full(analysis) -> list[Finding]:
    out = []
    for call in _calls(analysis, lambda q: q.startswith("mx.")):
        conv = _arg(call, "pooling_convention")
        if conv is None or _value(conv) != "full":
            continue
        pad = _arg(call, "pad")
        padded = pad is not None and _value(pad) not in (0, (0, 0), (0, 0, 0), (0,))
        out.append(_finding(
            "pooling-full-convention", analysis, call,
            "pooling_convention='full' is ceil_mode=True" + (
                f"; with pad={_text(analysis, pad)} MXNet can keep a last window lying wholly "
                f"in the padding that PyTorch drops: check the output shape" if padded else
                " (without padding the shapes agree)"), analysis.qualname(call), padded))
    return out


@_detector(
    "pooling-stride-default",
    "the Pooling operator (F.Pooling, nd.Pooling) slides by 1 unless given a stride; "
    "F.max_pool2d's stride defaults to the kernel",
    "F.max_pool2d(x, kernel, stride=1) — the stride explicit.",
    _place("07_hybridize_export", "2. Functional code: `torch.nn.functional` and Gluon's `F`"))
def _pooling_stride(analysis) -> list[Finding]:
    return [_finding(
        "pooling-stride-default", analysis, call,
        "Pooling without stride= slides by 1 (the MaxPool2D layer's stride is its pool size): "
        "F.max_pool2d(x, kernel, stride=1)", analysis.qualname(call), False)
        for call in _calls(analysis, {"mx.nd.Pooling", "mx.sym.Pooling"})
        if _arg(call, "stride") is None and _value(_arg(call, "global_pool")) is not True]


def _kvstore_args(analysis):
    """``(call, kvstore expression)`` for ``mx.kv.create(…)``, ``Trainer(kvstore=…)`` and
    ``Module.fit(kvstore=…)``."""
    out = []
    for call in _calls(analysis, {"mx.kv.create", "mx.gluon.Trainer", "mx.mod.Module.fit"}):
        q = analysis.qualname(call)
        node = _arg(call, "name", 0) if q == "mx.kv.create" else _arg(
            call, "kvstore", 3 if q == "mx.gluon.Trainer" else None)
        if node is not None:
            out.append((call, node))
    return out


@_detector(
    "kvstore-sums",
    "a distributed kvstore sums the workers' gradients; DistributedDataParallel averages them",
    "With DDP each worker's mean loss is already the global mean: trainer.step(per-worker "
    "batch × num_workers) in the original is optimizer.step() on the per-worker mean loss.",
    _place("09_distributed", "3. Distributed training, really run on 127.0.0.1"))
def _kvstore_sums(analysis) -> list[Finding]:
    out = []
    for call, node in _kvstore_args(analysis):
        value = _value(node)
        if isinstance(value, str) and value.startswith("dist"):
            out.append(_finding(
                "kvstore-sums", analysis, call,
                f"kvstore '{value}' sums the workers' gradients (the original divides by the "
                f"global batch in trainer.step); DDP averages them in backward()",
                analysis.qualname(call), True))
        elif value is _MISSING:
            out.append(_finding(
                "kvstore-sums", analysis, call,
                f"kvstore={_text(analysis, node)}: if it is a 'dist_*' store it sums the "
                f"workers' gradients, where DDP averages them", analysis.qualname(call), True))
    return out


_ARG_FUNCS = {"mx.nd.argmax", "mx.nd.argmin", "mx.nd.topk", "mx.nd.argmax_channel",
              "mx.nd.argsort", "mx.nd.NDArray.argmax", "mx.nd.NDArray.argmin",
              "mx.nd.NDArray.topk", "mx.nd.NDArray.argmax_channel", "mx.nd.NDArray.argsort",
              "mx.sym.argmax", "mx.sym.argmin", "mx.sym.topk"}


@_detector(
    "argmax-float",
    "nd.argmax, argmin, topk and argsort return float32 indices; torch's are int64",
    "torch.argmax(x, dim) is already int64: drop the .astype('float32') on the labels the "
    "script compares with, or cast explicitly.",
    _place("02_tensor_ops", "8. The whole map, run"))
def _argmax_float(analysis) -> list[Finding]:
    out = []
    for call in _calls(analysis, _ARG_FUNCS):
        q = analysis.qualname(call)
        if _arg(call, "dtype") is not None or (q.endswith("topk") and _value(
                _arg(call, "ret_typ")) in ("value",)):
            continue
        out.append(_finding(
            "argmax-float", analysis, call,
            f"{q.rsplit('.', 1)[1]} gives float32 indices here; torch.{q.rsplit('.', 1)[1]} "
            f"gives int64 — comparisons with float labels and uses as indices change",
            q, False))
    return out


@_detector(
    "attach-grad-write",
    "after x.attach_grad() each backward() overwrites x.grad (grad_req='write'), zeros "
    "before the first; in PyTorch backward() adds to x.grad, None before the first",
    "zero the gradient before each backward (x.grad = None, or optimizer.zero_grad()) and "
    "update under torch.no_grad(): an in-place x[:] = x - lr * x.grad on a leaf that "
    "requires grad raises.",
    _place("05_autograd", "3. What `.grad` holds after two `backward()` calls"))
def _attach_grad(analysis) -> list[Finding]:
    out = []
    for call in _calls(analysis, {"mx.nd.NDArray.attach_grad", "mx.np.ndarray.attach_grad"}):
        req = _arg(call, "grad_req", 0)
        if req is not None and _value(req) != "write":
            continue  # 'add' accumulates like torch; 'null' takes no gradient
        out.append(_finding(
            "attach-grad-write", analysis, call,
            f"{_text(analysis, call)}: MXNet overwrites .grad at every backward (it is "
            "zeros before the first); torch adds to it (None before the first) — zero it "
            "before each backward, update under torch.no_grad()",
            analysis.qualname(call), True))
    return out


@_detector(
    "dropout-predict-scope",
    "Gluon's Dropout and BatchNorm train only inside autograd.record(); a torch module "
    "trains until model.eval() is called",
    "call model.train() before the training step and model.eval() before predicting or "
    "evaluating: outside record() Gluon predicts, a new torch module drops and updates "
    "its running statistics.",
    _place("05_autograd", "2. Scopes: training or predicting, recording or not"))
def _dropout_scope(analysis) -> list[Finding]:
    out = []
    names_ = {"mx.gluon.nn.Dropout", "mx.gluon.nn.BatchNorm", "mx.gluon.nn.SyncBatchNorm",
              "mx.gluon.contrib.nn.SyncBatchNorm", "mx.nd.Dropout", "mx.sym.Dropout"}
    for call in _calls(analysis, names_):
        q = analysis.qualname(call)
        if q.endswith(".Dropout") and q.startswith(("mx.nd.", "mx.sym.")) and \
                _value(_arg(call, "mode")) == "always":
            continue  # mode='always' drops in every scope, as F.dropout(training=True)
        out.append(_finding(
            "dropout-predict-scope", analysis, call,
            f"{q.rsplit('.', 1)[1]}: Gluon switches it by the autograd scope (training only "
            "inside record()); the torch module by model.train()/model.eval() — call "
            "model.eval() where this script predicts",
            q, True))
    return out


@_detector(
    "module-fit-defaults",
    "Module.fit without optimizer, optimizer_params or initializer trains with SGD at 0.01 "
    "from Uniform(0.01), whatever the script parsed",
    "torch.optim.SGD(params, lr=0.01) and nn.init.uniform_(w, -0.01, 0.01) with biases 0 "
    "reproduce it; weight decay in a Module applies to *_weight and *_gamma only.",
    _place("17_legacy_module_api", "3. `Module.fit` and its defaults"))
def _module_fit(analysis) -> list[Finding]:
    calls = _calls(analysis, {"mx.mod.Module.fit"})
    inits = _method_calls(analysis, "init_params")
    opt_inits = _method_calls(analysis, "init_optimizer")
    out = []
    for call in calls:
        parts = []
        given = {kw.arg for kw in call.keywords}
        if "optimizer" not in given and not opt_inits:
            parts.append("optimizer='sgd' (no momentum)")
        if "optimizer_params" not in given and not opt_inits:
            parts.append("learning_rate=0.01: torch.optim.SGD(params, lr=0.01)")
        if "initializer" not in given and "arg_params" not in given and not inits:
            parts.append("initializer=Uniform(0.01): nn.init.uniform_(w, -0.01, 0.01), biases 0")
        params, _ = _param_dict(_arg(call, "optimizer_params"))
        if "wd" in params:
            parts.append(f"wd={_text(analysis, params['wd'])} decays only parameters named "
                         f"*_weight/*_gamma: two parameter groups in torch.optim")
        if parts:
            out.append(_finding("module-fit-defaults", analysis, call,
                                "fit trains with " + "; ".join(parts), "mx.mod.Module.fit",
                                True))
    return out


@_detector(
    "rnn-relu-default",
    "gluon.rnn.RNN's activation defaults to relu; torch.nn.RNN's to tanh",
    "torch.nn.RNN(..., nonlinearity='relu') for Gluon's default.",
    _place("20_sequence_models", "2. The recurrent layers: the same gates, other defaults"))
def _rnn_relu(analysis) -> list[Finding]:
    out = []
    for call in _calls(analysis, {"mx.gluon.rnn.RNN", "mx.gluon.rnn.RNNCell"}):
        act = _arg(call, "activation")
        value = "relu" if act is None else _value(act)
        if value == "tanh":
            continue
        out.append(_finding(
            "rnn-relu-default", analysis, call,
            ("activation='relu' (the default)" if act is None else
             f"activation={_text(analysis, act)}") + ": torch.nn.RNN(..., nonlinearity='relu')"
            " — PyTorch's default is tanh", analysis.qualname(call), value is _MISSING))
    return out


@_detector(
    "softmax-output-loss",
    "SoftmaxOutput is a loss layer: its forward returns probabilities, its backward writes "
    "the summed cross-entropy gradient",
    "The PyTorch model returns logits and trains on F.cross_entropy (the mean: Module's "
    "rescale_grad=1/batch does the averaging); softmax only where the original predicted.",
    _place("17_legacy_module_api", "2. `SoftmaxOutput` is a loss layer"))
def _softmax_output(analysis) -> list[Finding]:
    out = []
    for call in _calls(analysis, {"mx.sym.SoftmaxOutput", "mx.nd.SoftmaxOutput"}):
        norm = _arg(call, "normalization")
        extra = "" if norm is None else f" (normalization={_text(analysis, norm)})"
        out.append(_finding(
            "softmax-output-loss", analysis, call,
            f"SoftmaxOutput{extra}: the network's output is softmax probabilities and the loss "
            f"is implicit — the port returns logits, uses F.cross_entropy for training and "
            f"softmax for predict()", analysis.qualname(call), True))
    return out


# == direction "gluon": PyTorch scripts =======================================================

def _is_optimizer_step(analysis, call: ast.Call) -> bool:
    """``optimizer.step()``: by its inferred type, or by a receiver named ``*opt*``."""
    if not (isinstance(call.func, ast.Attribute) and call.func.attr == "step"):
        return False
    q = analysis.qualname(call)
    if q == "torch.optim.Optimizer.step":
        return True
    receiver = _dotted(call.func.value).lower()
    return q is None and "opt" in receiver and "sched" not in receiver


@_detector(
    "optimizer-step-batch-size",
    "PyTorch's loss is reduced before optimizer.step(); Gluon's losses are per sample and "
    "trainer.step(n) divides by n",
    "A reduction='mean' loss ports as the per-sample Gluon loss, backward() and "
    "trainer.step(batch_size); a reduction='sum' loss as loss.sum() (or per-sample) and "
    "trainer.step(1).",
    _place("08_optimizers_trainer", "6. What `trainer.step(n)` does"), "gluon")
def _optimizer_step(analysis) -> list[Finding]:
    steps = {id(c) for c, _ in analysis.calls() if _is_optimizer_step(analysis, c)}
    if not steps:
        return []
    out, bindings = [], _file_bindings(analysis)
    for nodes in _scopes(analysis.tree):
        if not any(id(n) in steps for n in nodes):
            continue
        assigns = _assignments(nodes)
        backwards = _backward_losses(analysis, nodes)
        for step in (n for n in nodes if id(n) in steps):
            before = [(c, loss) for c, loss in backwards if c.lineno <= step.lineno]
            if not before:
                continue
            call, loss = max(before, key=lambda item: item[0].lineno)
            kind = _reduction(analysis, loss, assigns, bindings, call.lineno)
            msg = {"mean": "the loss is a batch mean: in Gluon the per-sample loss, "
                           "backward() and trainer.step(batch_size)",
                   "sum": "the loss is a batch sum: in Gluon loss.sum() (or the per-sample "
                          "loss) with trainer.step(1)",
                   "per-sample": "the loss is per sample (reduction='none'): Gluon's loss as "
                                 "it is; trainer.step(n) must match how it is reduced"}.get(kind)
            out.append(_finding(
                "optimizer-step-batch-size", analysis, step,
                msg or f"line {call.lineno}'s loss: its reduction is not known here — "
                       f"trainer.step(batch_size) for a mean, step(1) for a sum",
                "torch.optim.Optimizer.step", msg is None))
    return out


def _fan_in(analysis, call, kind) -> float | None:
    """The fan-in of a Linear or Conv layer from its literal arguments."""
    c_in = _value(_arg(call, "in_features" if kind == "Linear" else "in_channels", 0))
    if not isinstance(c_in, int):
        return None
    if kind == "Linear":
        return c_in
    k = _value(_arg(call, "kernel_size", 2))
    if isinstance(k, int):
        dims = int(kind[-2]) if kind[-2].isdigit() else 2
        return c_in * k ** dims
    if isinstance(k, tuple) and all(isinstance(v, int) for v in k):
        return c_in * math.prod(k)
    return None


@_detector(
    "torch-default-init",
    "each torch.nn layer draws its own default initialisation; Gluon's default is "
    "Uniform(0.07) for weights and zeros for biases",
    "Give each Gluon layer PyTorch's law: Dense/Conv weight_initializer=mx.init.Xavier("
    "'uniform', 'in', magnitude=1) and bias_initializer=mx.init.Uniform(1/√fan_in); recurrent "
    "layers Uniform(1/√hidden); Embedding Normal(1).",
    _place("06_blocks", "2. Parameters and initialisers"), "gluon")
def _torch_default_init(analysis) -> list[Finding]:
    out = []
    layers = {f"torch.nn.{n}" for n in ("Linear", "Conv1d", "Conv2d", "Conv3d", "LSTM", "GRU",
                                          "RNN", "Embedding", "ConvTranspose2d")}
    for call in _calls(analysis, layers):
        q = analysis.qualname(call)
        kind = q.rsplit(".", 1)[1]
        if kind in ("LSTM", "GRU", "RNN"):
            h = _value(_arg(call, "hidden_size", 1))
            scale = f"{1 / math.sqrt(h):.4g}" if isinstance(h, int) and h > 0 else "1/√hidden"
            msg = (f"{kind}'s weights and biases are U(±1/√hidden): mx.init.Uniform({scale}) as "
                   f"i2h_weight, h2h_weight, i2h_bias and h2h_bias initializers")
        elif kind == "Embedding":
            msg = "Embedding's weight is N(0, 1): weight_initializer=mx.init.Normal(1)"
        else:
            fan = _fan_in(analysis, call, kind)
            scale = f"{1 / math.sqrt(fan):.4g}" if fan else "1/√fan_in"
            msg = (f"{kind}'s weight and bias are U(±1/√fan_in): weight_initializer="
                   f"mx.init.Xavier('uniform', 'in', magnitude=1), bias_initializer="
                   f"mx.init.Uniform({scale})")
        out.append(_finding("torch-default-init", analysis, call, msg, q, False))
    return out


@_detector(
    "eval-mode",
    "model.eval()/train() and torch.no_grad() have no Gluon counterpart: the autograd scope "
    "decides",
    "Drop them: outside autograd.record() Gluon predicts (dropout off, BatchNorm on running "
    "statistics) and records nothing; inside record() it trains.",
    _place("05_autograd", "2. Scopes: training or predicting, recording or not"), "gluon")
def _eval_mode(analysis) -> list[Finding]:
    out = []
    for node in analysis.nodes():
        if not isinstance(node, ast.Call):
            continue
        q = analysis.qualname(node)
        if q in ("torch.no_grad", "torch.inference_mode", "torch.enable_grad"):
            out.append(_finding(
                "eval-mode", analysis, node,
                f"{q}(): in Gluon nothing is recorded outside autograd.record() — drop it",
                q, False))
        elif isinstance(node.func, ast.Attribute) and node.func.attr in ("eval", "train") \
                and len(node.args) <= (0 if node.func.attr == "eval" else 1) \
                and not node.keywords and q in (None, f"torch.nn.Module.{node.func.attr}"):
            what = node.func.attr
            out.append(_finding(
                "eval-mode", analysis, node,
                f".{what}(): Gluon has no such switch — "
                + ("predicting is outside autograd.record() (dropout off, running statistics)"
                   if what == "eval" else "training is inside autograd.record() "
                   "(dropout on, batch statistics)"), f"torch.nn.Module.{what}", False))
    return out


@_detector(
    "torchvision-transform",
    "torchvision's transform= gets the image; Gluon's vision datasets call transform= with "
    "(data, label)",
    "dataset.transform_first(fn) in Gluon, never transform=fn.",
    _place("18_legacy_data_recordio", "4. The `transform=` trap"), "gluon")
def _torchvision_transform(analysis) -> list[Finding]:
    out = []
    for call in _calls(analysis, lambda q: q.startswith("torchvision.datasets.")):
        fn = _arg(call, "transform")
        if fn is None or _value(fn) is None:
            continue
        out.append(_finding(
            "torchvision-transform", analysis, call,
            f"transform={_text(analysis, fn)}: in Gluon write "
            f"dataset.transform_first({_text(analysis, fn)}) — a Gluon transform= is called "
            f"with (data, label)", analysis.qualname(call), False))
    return out


@_detector(
    "adadelta-torch",
    "MXNet's 'adadelta' ignores learning_rate and uses epsilon=1e-5: it is not "
    "torch.optim.Adadelta",
    "gluon.Trainer(params, 'torchadadelta', {'learning_rate': lr}) after import "
    "sidebyside.optim takes PyTorch's steps, in float64 too.",
    _place("08_optimizers_trainer", "5. RMSProp, Adagrad, Adadelta"), "gluon")
def _adadelta_torch(analysis) -> list[Finding]:
    out = []
    for call in _calls(analysis, {"torch.optim.Adadelta"}):
        lr = _arg(call, "lr", 1)
        rate = "1.0" if lr is None else _text(analysis, lr)
        out.append(_finding(
            "adadelta-torch", analysis, call,
            f"Adadelta: gluon.Trainer(params, 'torchadadelta', {{'learning_rate': {rate}}}) "
            f"(sidebyside.optim) — Gluon's 'adadelta' would ignore the rate",
            "torch.optim.Adadelta", False))
    return out


@_detector(
    "adam-epsilon",
    "Gluon's 'adam' adds epsilon to √v, not to the bias-corrected √v̂: on real models the "
    "two drift apart",
    "gluon.Trainer(params, 'torchadam' (or 'torchadamw'), {...}) after import "
    "sidebyside.optim takes PyTorch's steps.",
    _place("08_optimizers_trainer", "4. Adam, and where its `epsilon` goes"), "gluon")
def _adam_epsilon(analysis) -> list[Finding]:
    out = []
    for call in _calls(analysis, {"torch.optim.Adam", "torch.optim.AdamW"}):
        q = analysis.qualname(call)
        name = "torchadamw" if q.endswith("AdamW") else "torchadam"
        extra = " (Gluon's 'adam' with wd is Adam(weight_decay), not AdamW)" \
            if name == "torchadamw" else ""
        out.append(_finding(
            "adam-epsilon", analysis, call,
            f"{q.rsplit('.', 1)[1]}: gluon.Trainer(params, '{name}', ...) "
            f"(sidebyside.optim){extra}", q, False))
    return out


@_detector(
    "torch-batchnorm-momentum",
    "PyTorch's BatchNorm momentum is the weight of the new batch; Gluon's the weight of the "
    "old running value",
    "gluon.nn.BatchNorm(momentum=1 - m) for PyTorch's momentum=m (0.9 for the default 0.1).",
    _place("06_blocks", "3. Layer defaults that bite"), "gluon")
def _torch_batchnorm(analysis) -> list[Finding]:
    out = []
    for call in _calls(analysis, {f"torch.nn.BatchNorm{d}d" for d in (1, 2, 3)}):
        node = _arg(call, "momentum", 2)
        m = 0.1 if node is None else _value(node)
        said = "momentum=0.1 (the default)" if node is None else \
            f"momentum={_text(analysis, node)}"
        if m is None:
            msg, decision = f"{said}: a cumulative average, which Gluon's BatchNorm has not", True
        elif isinstance(m, (int, float)) and not isinstance(m, bool):
            msg, decision = f"{said} here is momentum={_number(1 - m)} in gluon.nn.BatchNorm", \
                False
        else:
            msg, decision = f"{said}: gluon.nn.BatchNorm(momentum=1 - ({_text(analysis, node)}))", \
                True
        out.append(_finding("torch-batchnorm-momentum", analysis, call, msg,
                            analysis.qualname(call), decision))
    return out


@_detector(
    "torch-cat-dim",
    "torch.cat joins along dim 0 unless told; nd.concat along dim 1",
    "nd.concat(*tensors, dim=0) — the dimension explicit.",
    _place("02_tensor_ops", "8. The whole map, run"), "gluon")
def _torch_cat(analysis) -> list[Finding]:
    return [_finding("torch-cat-dim", analysis, call,
                     "torch.cat without dim= joins along dim=0; nd.concat's default is 1: "
                     "write nd.concat(*tensors, dim=0)", analysis.qualname(call), False)
            for call in _calls(analysis, {"torch.cat", "torch.concat", "torch.concatenate"})
            if _arg(call, "dim", 1) is None and _arg(call, "axis") is None]


DETECTORS: tuple[Detector, ...] = tuple(_REGISTRY)
_BY_NAME = {d.name: d for d in DETECTORS}


def by_name(name: str) -> Detector:
    """The detector called ``name``; ``KeyError`` naming the known ones otherwise."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise KeyError(f"no gotcha detector {name!r}; known: {', '.join(sorted(_BY_NAME))}") \
            from None


def detect_all(analysis, direction: str = "torch") -> list[Finding]:
    """Every finding of the ``direction``'s detectors (``"torch"``: an MXNet script being
    ported to PyTorch; ``"gluon"``: a PyTorch script being ported to Gluon), sorted by line,
    then rule."""
    if direction not in DIRECTIONS:
        raise ValueError(f"direction must be one of {DIRECTIONS}, not {direction!r}")
    found = [f for d in DETECTORS if d.direction == direction for f in d.detect(analysis)]
    return sorted(found, key=lambda f: (f.line, f.rule, f.message))
