"""MXNet's real API, read off the installed package, and the names real code calls.

- :func:`resolve` / :func:`exists`: a canonical name (``mx.gluon.nn.Dense``,
  ``mx.nd.NDArray.asnumpy``) as an object of the installed MXNet 1.9.1;
- :func:`same_construct`: whether two names are one construct (the same object, the symbol and
  NDArray faces of one registered operator, or an NDArray method that calls that operator);
- :func:`public_surface`: every public class of the Gluon namespaces, ``mx.init``,
  ``mx.lr_scheduler``, ``mx.metric`` and every registered optimizer, with the names a script
  reaches each by;
- :func:`torch_names` / :func:`torch_exists`: the PyTorch names a counterpart's text calls;
- :func:`scan_counts`: the canonical MXNet names of the call sites in folders of code, as
  :mod:`sidebyside.migrate` resolves them (``tools/api_corpus.py`` writes the counts).

Imports MXNet (and PyTorch for :func:`torch_exists`).
"""

from __future__ import annotations

import collections
import functools
import importlib
import inspect
import json
import re
from pathlib import Path

__all__ = ["resolve", "exists", "same_construct", "SURFACE_MODULES", "public_surface",
           "torch_names", "torch_exists", "scan_counts", "OPERATOR_NAMESPACES",
           "is_operator_site", "INSTANCE_ATTRIBUTES", "sources"]

#: attributes MXNet sets on instances (in ``__init__``), which ``getattr`` on the class misses
INSTANCE_ATTRIBUTES = {
    "mx.io.DataBatch.data", "mx.io.DataBatch.label", "mx.io.DataBatch.pad",
    "mx.io.DataBatch.index", "mx.io.DataBatch.bucket_key", "mx.io.DataBatch.provide_data",
    "mx.io.DataBatch.provide_label", "mx.io.DataIter.batch_size",
    "mx.gluon.Parameter.grad_req", "mx.gluon.Parameter.lr_mult", "mx.gluon.Parameter.wd_mult",
    "mx.gluon.Parameter.name", "mx.gluon.data.DataLoader._dataset",
    "mx.gluon.Trainer._optimizer", "mx.mod.Module._exec_group",
    "mx.optimizer.Optimizer.lr", "mx.optimizer.Optimizer.wd", "mx.optimizer.Optimizer.num_update",
    "mx.optimizer.Optimizer.rescale_grad", "mx.optimizer.Optimizer.lr_scheduler",
    "mx.optimizer.Optimizer.multi_precision", "mx.metric.EvalMetric.name",
    "mx.metric.EvalMetric.sum_metric", "mx.metric.EvalMetric.num_inst",
    "mx.lr_scheduler.LRScheduler.base_lr", "mx.io.DataIter.provide_data",
    "mx.io.DataIter.provide_label",
}


def resolve(name: str):
    """The object the canonical ``name`` is in the installed MXNet (AttributeError if none)."""
    import mxnet  # noqa: F401

    parts = name.split(".")
    if parts[0] != "mx":
        raise AttributeError(f"{name!r} is not an MXNet name (mx.…)")
    obj = importlib.import_module("mxnet")
    for i, attr in enumerate(parts[1:], 1):
        if hasattr(obj, attr):
            obj = getattr(obj, attr)
            continue
        try:  # a submodule not imported by its parent
            obj = importlib.import_module(f"{obj.__name__}.{attr}") if inspect.ismodule(obj) \
                else None
        except ImportError:
            obj = None
        if obj is None:
            raise AttributeError(f"{'.'.join(parts[:i])} has no attribute {attr!r} "
                                 f"(resolving {name})")
    return obj


@functools.lru_cache(maxsize=None)
def exists(name: str) -> bool:
    """Whether ``name`` is part of the installed MXNet (an attribute path, or an attribute
    MXNet sets on instances: :data:`INSTANCE_ATTRIBUTES`)."""
    if name in INSTANCE_ATTRIBUTES:
        return True
    try:
        resolve(name)
    except AttributeError:
        return False
    return True


def _first_doc_line(obj) -> str:
    return ((getattr(obj, "__doc__", "") or "").strip().splitlines() or [""])[0].strip()


def _is_generated_op(obj) -> bool:
    mod = getattr(obj, "__module__", "") or ""  # generated ops: "ndarray", "symbol", "_internal"
    if "." in (getattr(obj, "__qualname__", "") or ""):
        return False  # a method, not an operator function
    return callable(obj) and (mod in ("ndarray", "symbol", "_internal")
                              or mod.startswith(("mxnet.ndarray", "mxnet.symbol")))


def same_construct(a: str, b: str) -> bool:
    """Whether the names ``a`` and ``b`` are one construct of the installed MXNet: the same
    object; an ``mx.nd`` operator and the ``mx.sym`` operator generated from the same
    registration (the same documentation, the same name); or an ``NDArray`` method that only
    calls the operator (a fluent method)."""
    try:
        oa, ob = resolve(a), resolve(b)
    except AttributeError:
        return False
    if oa is ob:
        return True
    ta, tb = a.rpartition(".")[2], b.rpartition(".")[2]
    if _is_generated_op(oa) and _is_generated_op(ob) and ta == tb:
        return _first_doc_line(oa) == _first_doc_line(ob) != ""
    for method, func in ((a, b), (b, a)):
        if method.startswith(("mx.nd.NDArray.", "mx.sym.Symbol.")):
            try:
                src = inspect.getsource(resolve(method))
            except (OSError, TypeError):
                return False
            tail = func.rpartition(".")[2]
            fluent = re.search(rf"\bop\.{re.escape(tail)}\(self\b", src)
            if fluent and _is_generated_op(resolve(func)):
                return True
    return False


#: the namespaces whose public classes :func:`public_surface` lists (issue 43's "Why")
SURFACE_MODULES = ("mx.gluon.nn", "mx.gluon.rnn", "mx.gluon.loss", "mx.gluon.data",
                   "mx.gluon.data.vision", "mx.gluon.data.vision.transforms", "mx.init",
                   "mx.lr_scheduler", "mx.metric")


def _home(obj) -> str:
    """The canonical name of a class where it is defined (``mx.gluon.nn.Dense``)."""
    from ..migrate import names

    module = names.canonical(obj.__module__.replace("mxnet", "mx", 1))
    return f"{module}.{obj.__name__}"


def public_surface() -> dict[str, set[str]]:
    """Every public class of :data:`SURFACE_MODULES` and every registered optimizer: its
    name in the first namespace that lists it → every name a script reaches it by (a class
    that a later namespace re-exports, ``gluon.loss.HybridBlock``, is the same construct)."""
    import mxnet as mx

    by_obj: dict[int, tuple[str, set[str]]] = {}
    for module in SURFACE_MODULES:
        mod = resolve(module)
        for attr, obj in sorted(vars(mod).items()):
            if attr.startswith("_") or not inspect.isclass(obj):
                continue
            if not (obj.__module__ or "").startswith("mxnet"):
                continue
            name = f"{module}.{attr}"
            first, reach = by_obj.setdefault(id(obj), (name, set()))
            reach.update({name, _home(obj)})
    for key, cls in sorted(mx.optimizer.Optimizer.opt_registry.items()):
        if not (cls.__module__ or "").startswith("mxnet"):
            continue  # registered by a program (sidebyside.optim's TorchAdam), not MXNet's
        name = f"mx.optimizer.{cls.__name__}"
        first, reach = by_obj.setdefault(id(cls), (name, set()))
        reach.update({name, _home(cls)})
    return {first: reach for first, reach in by_obj.values()}


# --------------------------------------------------------------------------- PyTorch side
_TORCH_SHORT = {"F": "torch.nn.functional", "nn": "torch.nn", "optim": "torch.optim",
                "T": "torchvision.transforms", "TF": "torchvision.transforms.functional"}
_TORCH_NAME = re.compile(
    r"(?<![\w.])((?:torch|torchvision|torchmetrics|torchaudio|F|nn|optim|T|TF)"
    r"(?:\.[A-Za-z_]\w*)+)")


def torch_names(text: str) -> list[str]:
    """The PyTorch names a counterpart's text calls or mentions (``torch.nn.Linear``,
    ``F.relu`` as ``torch.nn.functional.relu``), in order, each once."""
    out = []
    for m in _TORCH_NAME.finditer(text):
        head, _, rest = m.group(1).partition(".")
        name = f"{_TORCH_SHORT[head]}.{rest}" if head in _TORCH_SHORT else m.group(1)
        out.append(name)
    return list(dict.fromkeys(out))


@functools.lru_cache(maxsize=None)
def torch_exists(name: str) -> bool:
    """Whether ``name`` is an attribute path of the installed torch / torchvision /
    torchmetrics (a method named on ``torch.Tensor`` included)."""
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except Exception:  # not a module: try a shorter prefix
            continue
        try:
            for attr in parts[i:]:
                obj = getattr(obj, attr)
        except AttributeError:
            return False
        return True
    return False


# ---------------------------------------------------------------------------- real code
#: the namespaces whose call sites count as operator call sites
OPERATOR_NAMESPACES = ("mx.nd.", "mx.sym.", "mx.np.", "mx.npx.")
_ARRAY_CLASSES = ("mx.nd.NDArray", "mx.np.ndarray", "mx.sym.Symbol")


def is_operator_site(name: str) -> bool:
    """An operator: a function of ``mx.nd``, ``mx.sym``, ``mx.np``, ``mx.npx`` (and their
    sub-namespaces: ``contrib``, ``linalg``, ``random``, ``image``), not an array method."""
    return name.startswith(OPERATOR_NAMESPACES) and not any(
        name.startswith(c + ".") or name == c for c in _ARRAY_CLASSES)


def sources(root: Path):
    """(path, Python source) of every ``.py`` file and every notebook's code under ``root``
    (shell and magic lines of a notebook dropped)."""
    root = Path(root)
    files = [root] if root.is_file() else sorted(root.rglob("*"))
    for p in files:
        if p.suffix == ".py":
            try:
                yield p, p.read_text(encoding="utf-8")
            except (UnicodeDecodeError, OSError):
                continue
        elif p.suffix == ".ipynb":
            try:
                nb = json.loads(p.read_text(encoding="utf-8"))
            except (UnicodeDecodeError, OSError, json.JSONDecodeError):
                continue
            cells = nb.get("cells") or [c for w in nb.get("worksheets", [])
                                        for c in w.get("cells", [])]
            code = []
            for c in cells:
                if c.get("cell_type") != "code":
                    continue
                src = c.get("source") or c.get("input") or ""
                src = "".join(src) if isinstance(src, list) else src
                code.append("\n".join(line for line in src.splitlines()
                                      if not line.lstrip().startswith(("%", "!"))))
            yield p, "\n\n".join(code)


def scan_counts(root: Path) -> tuple[collections.Counter, int, int]:
    """(canonical name → call sites, files with MXNet code, their lines) under ``root``: the
    MXNet sites :func:`sidebyside.migrate.resolve.analyse` finds (imports excluded), names
    that are not part of the installed MXNet (a user's attribute on a guessed receiver)
    dropped."""
    from ..migrate import names, resolve
    from .index import SUBCLASS_METHODS

    counts: collections.Counter = collections.Counter()
    files = lines = 0
    for path, source in sources(root):
        try:
            analysis = resolve.analyse(source, str(path))
        except (SyntaxError, ValueError, RecursionError):
            continue
        sites = [s for s in analysis.sites if s.framework == names.MXNET and s.kind != "import"]
        if not sites:
            continue
        files += 1
        lines += source.count("\n") + 1
        for s in sites:
            counts[SUBCLASS_METHODS.get(s.name, s.name)] += 1
    return collections.Counter({n: c for n, c in counts.items() if exists(n)}), files, lines


# ------------------------------------------------------------------ registered operators
#: the namespaces whose generated functions :func:`operator_table` reads
OPERATOR_MODULES = ("mx.nd", "mx.nd.contrib", "mx.nd.linalg", "mx.nd.random", "mx.nd.image",
                    "mx.nd.sparse", "mx.sym", "mx.sym.contrib", "mx.sym.linalg",
                    "mx.sym.random", "mx.sym.image", "mx.sym.sparse", "mx.npx", "mx.np",
                    "mx.np.linalg", "mx.np.random")
#: the array classes whose fluent methods (``x.reshape(…)`` calling ``op.reshape(self, …)``)
#: :func:`operator_table` reads
FLUENT_CLASSES = ("mx.nd.NDArray", "mx.sym.Symbol")


def _op_handle(func):
    """The operator handle a generated function invokes (a constant of its code), or None."""
    consts = getattr(getattr(func, "__code__", None), "co_consts", ())
    handles = [c for c in consts if isinstance(c, int) and c > 1 << 20]
    return handles[0] if len(handles) == 1 else None


@functools.lru_cache(maxsize=None)
def _op_name(handle: int) -> str:
    """The registered name of an operator handle (an alias resolves to its operator:
    ``sum_axis`` → ``sum``, ``reshape`` → ``Reshape``)."""
    import ctypes

    from mxnet.base import _LIB, check_call, py_str

    name, desc, kv, rt = (ctypes.c_char_p() for _ in range(4))
    num = ctypes.c_uint32()
    names, types, descs = (ctypes.POINTER(ctypes.c_char_p)() for _ in range(3))
    check_call(_LIB.MXSymbolGetAtomicSymbolInfo(
        ctypes.c_void_p(handle), ctypes.byref(name), ctypes.byref(desc), ctypes.byref(num),
        ctypes.byref(names), ctypes.byref(types), ctypes.byref(descs), ctypes.byref(kv),
        ctypes.byref(rt)))
    return py_str(name.value)


def operator_table() -> dict[str, str]:
    """Every public generated operator function of :data:`OPERATOR_MODULES` and every fluent
    method of :data:`FLUENT_CLASSES` → the registered operator it invokes. Names that map to
    one operator are one construct (``mx.nd.reshape``, ``mx.sym.Reshape``,
    ``mx.nd.NDArray.reshape``); :mod:`sidebyside.catalogue.index` reads the table from
    ``operators.json`` (``python -m sidebyside.catalogue.surface`` writes it)."""
    out: dict[str, str] = {}
    for module in OPERATOR_MODULES:
        mod = resolve(module)
        for attr, obj in sorted(vars(mod).items()):
            if attr.startswith("_") or not callable(obj) or inspect.isclass(obj):
                continue
            handle = _op_handle(obj)
            if handle is not None:
                out[f"{module}.{attr}"] = _op_name(handle)
    for cls_name in FLUENT_CLASSES:
        cls = resolve(cls_name)
        for attr, obj in sorted(vars(cls).items()):
            if attr.startswith("_") or not inspect.isfunction(obj):
                continue
            try:
                src = inspect.getsource(obj)
            except (OSError, TypeError):
                continue
            m = re.search(r"\bop\.([A-Za-z_]\w*)\(self\b", src)
            module = "mx.nd" if cls_name == "mx.nd.NDArray" else "mx.sym"
            if m and f"{module}.{m.group(1)}" in out and len(src.splitlines()) <= 12:
                out[f"{cls_name}.{attr}"] = out[f"{module}.{m.group(1)}"]
    return dict(sorted(out.items()))


OPERATORS_JSON = Path(__file__).with_name("operators.json")


def write_operator_table(path: Path = OPERATORS_JSON) -> int:
    """Write :func:`operator_table` as the committed ``operators.json`` (registered operator →
    its names); returns the number of names. ``python -m sidebyside.catalogue.surface``
    writes it and ``symbol_ops.json``."""
    families: dict[str, list[str]] = {}
    for name, op in operator_table().items():
        families.setdefault(op, []).append(name)
    Path(path).write_text(json.dumps(dict(sorted(families.items())), indent=0) + "\n",
                          encoding="utf-8")
    return sum(map(len, families.values()))


SYMBOL_OPS_JSON = Path(__file__).with_name("symbol_ops.json")


def symbol_ops() -> list[str]:
    """The registered operators :mod:`sidebyside.mx2torch` translates in a ``-symbol.json``
    (its ``REGISTRY``), sorted."""
    from ..mx2torch import ops

    return sorted(ops.REGISTRY)


def write_symbol_ops(path: Path = SYMBOL_OPS_JSON) -> int:
    """Write :func:`symbol_ops` as the committed ``symbol_ops.json`` (read by the standard
    library lookup); returns their number."""
    names = symbol_ops()
    Path(path).write_text(json.dumps(names, indent=0) + "\n", encoding="utf-8")
    return len(names)


if __name__ == "__main__":
    print(f"operators.json: {write_operator_table()} names; "
          f"symbol_ops.json: {write_symbol_ops()} operators")
