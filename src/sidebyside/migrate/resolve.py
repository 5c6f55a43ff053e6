"""Read a script's AST and name every MXNet (or PyTorch) construct it uses: :func:`analyse`.

What is resolved, and how sure it is (:attr:`Site.how`):

- ``"import"`` — the name follows from the script's imports: ``import mxnet as mx``, ``from
  mxnet import gluon, nd, autograd as ag``, ``from mxnet.gluon import nn``, ``import
  mxnet.ndarray as nd``, in any scope; attribute chains from there (``mx.gluon.utils.
  split_and_load``); a class's bases (``class Net(gluon.HybridBlock)``);
- ``"inferred"`` — a method or attribute on a variable whose type an assignment in the same
  file gives (``mod = mx.mod.Module(…)`` → ``mod.fit`` is ``mx.mod.Module.fit``; ``self.fc =
  nn.Dense(…)`` in a Block; ``for batch in train_iter`` over an ``mx.io`` iterator gives a
  ``DataBatch``), or ``self`` inside a class that derives from a Gluon Block;
- ``"guessed"`` — ``F.X`` inside ``hybrid_forward(self, F, …)`` (``F`` is ``mx.nd`` or
  ``mx.sym``; named ``mx.nd.X``), and a method only one framework's objects have
  (``x.asnumpy()``, ``net.collect_params()``) on a receiver of unknown type.
  :attr:`Site.reason` says why.

Standard library only.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from . import names

__all__ = ["Site", "Analysis", "analyse", "module_classes", "module_name"]


@dataclass(frozen=True)
class Site:
    """One use of a framework construct in a script."""

    path: str          # the file, as given to analyse()
    line: int          # 1-based
    col: int           # 0-based, as ast gives it
    end_line: int
    end_col: int
    name: str          # canonical (names.canonical): "mx.nd.concat", "mx.gluon.Trainer.step"
    kind: str          # "call", "attribute", "method", "class", "def", "with", "import"
    framework: str     # names.MXNET or names.TORCH
    how: str = "import"  # "import", "inferred" or "guessed"
    reason: str = ""     # for "inferred"/"guessed": from what
    text: str = ""       # the source of the construct, first line only
    node: ast.AST | None = field(default=None, compare=False, repr=False)

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"

    @property
    def tail(self) -> str:
        return self.name.rsplit(".", 1)[-1]


@dataclass
class Analysis:
    """What :func:`analyse` found in one file."""

    path: str
    source: str
    tree: ast.Module
    aliases: dict[str, str]          # local name -> canonical module/object
    sites: list[Site]
    types: dict[str, str]            # "net", "self.fc" -> canonical class (inferred)
    block_classes: dict[str, str]    # class name in the file -> its framework base
    _names: dict[int, tuple[str, str, str]] = field(default_factory=dict, repr=False)
    _lines: _Lines | None = field(default=None, repr=False)
    _nodes: list | None = field(default=None, repr=False)
    _calls: list | None = field(default=None, repr=False)
    #: the modules it imports (as spelled) that the scan found free of mode-dependent layers
    mode_free_modules: frozenset = field(default=frozenset(), repr=False)
    #: whether the scan put the file in a group of files that follow Gluon's training scope
    #: together (a training script and the model files it imports)
    scope_group: bool = field(default=False, repr=False)
    _by_node: tuple | None = field(default=None, repr=False)
    _defined: dict | None = field(default=None, repr=False)
    #: module-level functions whose every return gives one framework class: that class
    functions: dict = field(default_factory=dict, repr=False)
    #: the DataIter classes it imports from the scan that build their own batches there
    own_iterators: frozenset = field(default=frozenset(), repr=False)
    #: the module-level functions a hybrid_forward passes its F to (``get_distance(F, x)``),
    #: and those they pass it on to: name -> the index of the parameter that is F there
    f_helpers: dict = field(default_factory=dict, repr=False)
    #: the functions it imports from the scan that return such iterators: name -> "one"
    #: (each return is one) or "many" (each return a tuple or list of them)
    iterator_factories: dict = field(default_factory=dict, repr=False)

    def qualname(self, node: ast.AST) -> str | None:
        """The canonical name of an expression (a name, an attribute chain, or a call's
        function), or ``None`` if it is not a framework construct."""
        if isinstance(node, ast.Call):
            node = node.func
        hit = self._names.get(id(node))
        return hit[0] if hit else None

    def site_at(self, node: ast.AST) -> Site | None:
        """The site recorded for ``node`` (the Call, Attribute, ClassDef … itself)."""
        if self._by_node is None or len(self._by_node[0]) != len(self.sites):
            by_id: dict[int, Site] = {}
            for site in self.sites:
                by_id.setdefault(id(site.node), site)
            self._by_node = (list(self.sites), by_id)
        site = self._by_node[1].get(id(node))
        return site if site is not None and site.node is node else None

    def framework_sites(self, framework: str) -> list[Site]:
        return [s for s in self.sites if s.framework == framework]

    def segment(self, node: ast.AST) -> str:
        """The source text of ``node`` (``""`` if it has no position)."""
        if self._lines is None:
            self._lines = _Lines(self.source)
        return self._lines.segment(node)

    def functions_defined(self) -> dict[str, ast.AST]:
        """The module-level functions defined once: name -> def (worked out once)."""
        if self._defined is None:
            out: dict[str, ast.AST | None] = {}
            for stmt in self.tree.body:
                if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    out[stmt.name] = stmt if stmt.name not in out else None
            self._defined = {k: v for k, v in out.items() if v is not None}
        return self._defined

    def nodes(self) -> list[ast.AST]:
        """Every node of the tree, in ``ast.walk`` order (computed once)."""
        if self._nodes is None:
            self._nodes = list(ast.walk(self.tree))
        return self._nodes

    def calls(self) -> list[tuple[ast.Call, str | None]]:
        """Every call of the tree, in ``ast.walk`` order, with its canonical name (once)."""
        if self._calls is None:
            self._calls = [(n, self.qualname(n)) for n in self.nodes()
                           if isinstance(n, ast.Call)]
        return self._calls


class _Lines:
    """A source's line starts, for segments in O(length) (``ast.get_source_segment`` splits the
    whole file at every call)."""

    def __init__(self, source: str):
        self.lines = source.splitlines(keepends=True)

    def segment(self, node) -> str:
        try:
            first, last = node.lineno - 1, node.end_lineno - 1
            col, end = node.col_offset, node.end_col_offset
        except AttributeError:
            return ""
        if first < 0 or last >= len(self.lines) or end is None:
            return ""
        if first == last:
            raw = self.lines[first].encode()[col:end]
            return raw.decode("utf-8", "replace")
        head = self.lines[first].encode()[col:].decode("utf-8", "replace")
        tail = self.lines[last].encode()[:end].decode("utf-8", "replace")
        return head + "".join(self.lines[first + 1:last]) + tail


def _dotted(node) -> list[str] | None:
    """``['a', 'b', 'c']`` for ``a.b.c``; ``None`` for anything else."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return parts[::-1]
    return None


def _is_framework_module(dotted: str) -> bool:
    head = dotted.split(".", 1)[0]
    return head in ("mxnet", "torch", "torchvision", "torchmetrics", "gluoncv")


#: what ``from mxnet import *`` and ``from mxnet.gluon import *`` bind that scripts use
_STAR = {
    "mx": ("nd", "ndarray", "sym", "symbol", "gluon", "autograd", "init", "initializer",
           "optimizer", "lr_scheduler", "metric", "io", "image", "kv", "kvstore", "mod",
           "module", "model", "random", "context", "cpu", "gpu", "Context", "np", "npx",
           "contrib", "recordio", "profiler", "callback", "test_utils", "rnn"),
    "mx.gluon": ("nn", "rnn", "loss", "data", "model_zoo", "utils", "Block", "HybridBlock",
                 "SymbolBlock", "Trainer", "Parameter", "ParameterDict", "Constant"),
}


#: attributes Python gives every object (or class): no framework construct on a typed value
_PYTHON_ATTRIBUTES = frozenset({"__class__", "__dict__", "__doc__", "__module__", "__name__",
                                "__qualname__", "__slots__", "__weakref__"})


class _Imports(ast.NodeVisitor):
    """Every alias the file's imports define (all scopes: a script's function-level imports
    count too)."""

    def __init__(self, local_classes=None):
        self.local_classes = local_classes or {}
        self.local: dict[str, str] = {}  # imported classes of the scanned code -> their base
        self.local_functions: dict[str, str] = {}  # imported functions -> the class they give
        self.local_modules: dict[str, str] = {}    # a scanned module's name here -> its name
        self.own_iterators: set[str] = set()       # imported DataIter classes of the scan
        self.iterator_factories: dict[str, str] = {}  # imported functions returning them
        self.aliases: dict[str, str] = {}
        self.sites: list[tuple[ast.AST, str, str]] = []

    def visit_Import(self, node):
        for a in node.names:
            if not _is_framework_module(a.name):
                bound = a.asname or a.name.split(".", 1)[0]
                if any(k.startswith(a.name + ".") for k in self.local_classes):
                    self.local_modules[bound] = a.asname and a.name or bound
                continue
            if a.asname:
                self.aliases[a.asname] = names.canonical(a.name)
            else:
                top = a.name.split(".", 1)[0]
                self.aliases[top] = names.canonical(top)
            self.sites.append((node, names.canonical(a.name), a.name))

    def visit_Assign(self, node):
        """``nd = mx.nd``: a name given to a framework module or object at the top of a
        script is an alias like an import's."""
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            parts = _dotted(node.value)
            if parts and len(parts) > 1 and parts[0] in self.aliases:
                full = names.canonical(".".join([self.aliases[parts[0]], *parts[1:]]))
                if names.framework_of(full):
                    self.aliases[node.targets[0].id] = full
        self.generic_visit(node)

    def visit_ImportFrom(self, node):
        if node.module and not node.level and not _is_framework_module(node.module):
            for a in node.names:  # a class of the scanned code: from data import FirstBatches
                base = self.local_classes.get(f"{node.module}.{a.name}")
                if base:
                    self.local[a.asname or a.name] = base
                if f"{node.module}.{a.name}:own-batches" in self.local_classes:
                    self.own_iterators.add(a.asname or a.name)
                shape = self.local_classes.get(f"{node.module}.{a.name}():own-iterators")
                if shape:   # a function of the scan that returns them: cub200_iterator
                    self.iterator_factories[a.asname or a.name] = shape
                made = self.local_classes.get(f"{node.module}.{a.name}()")
                if made:    # a function of the scanned code: from model import get_net
                    self.local_functions[a.asname or a.name] = made
                if any(k.startswith(f"{node.module}.{a.name}.") for k in self.local_classes):
                    self.local_modules[a.asname or a.name] = f"{node.module}.{a.name}"
            return
        if not node.module or node.level:
            return
        base = names.canonical(node.module)
        for a in node.names:
            if a.name == "*":
                self.sites.append((node, base + ".*", f"from {node.module} import *"))
                for name in _STAR.get(base, ()):   # what the star binds
                    self.aliases.setdefault(name, names.canonical(f"{base}.{name}"))
                continue
            full = names.canonical(f"{base}.{a.name}")
            self.aliases[a.asname or a.name] = full
            self.sites.append((node, full, f"{node.module}.{a.name}"))


class _Walker(ast.NodeVisitor):
    def __init__(self, path, source, aliases, direction):
        self.path, self.source, self.aliases = path, source, aliases
        self.lines = _Lines(source)
        self.user_attrs: set[str] = set()
        self.own_methods: set[str] = set()   # the methods of the file's classes with a base
        self.framework = direction
        self.sites: list[Site] = []
        self.names: dict[int, tuple[str, str, str]] = {}
        self.types: dict[str, str] = {}
        self.block_classes: dict[str, str] = {}
        self.scope_f: list[str | None] = [None]   # the F of the hybrid_forward we are in
        self.class_stack: list[str | None] = []   # the framework base of the classes we are in
        self.transform_fns: set[str] = set()      # functions a Gluon dataset calls per sample
        self.returns: list[list[str | None]] = []  # per function being walked: what it returns
        self.function_types: dict[str, str] = {}   # module-level function -> the class it returns
        #: the module-level functions (name -> def); what each call of one passes for each
        #: parameter (the types seen); those named other than in a call (passed on)
        self.module_functions: dict[str, ast.AST] = {}
        #: module-level functions whose every return is the same tuple of classes
        self.tuple_functions: dict[str, tuple] = {}
        #: module-level functions that hybrid_forward's F is passed to: name -> its index
        self.f_helpers: dict[str, int] = {}
        self.passed: dict[str, dict[str, set]] = {}
        self.escaped: set[str] = set()
        self.called: set[int] = set()
        #: from an earlier walk: a module-level function's parameters typed by its calls
        self.param_types: dict[str, dict[str, str]] = {}
        self.local_classes: dict[str, str] = {}    # the scanned code's (see analyse)
        self.local_modules: dict[str, str] = {}
        #: names bound to a DataLoader with the script's own batchify_fn / collate_fn
        self.own_batches: set[str] = set()

    # -- naming ------------------------------------------------------------------------
    def _resolve(self, node) -> tuple[str, str, str] | None:
        """(canonical name, how, reason) of a name or attribute chain, if it is a
        framework construct."""
        parts = _dotted(node)
        if not parts:
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Compare) \
                    and self._type_of(node.value) == names.NDARRAY:   # (x == y).mean()
                return (names.canonical(f"{names.NDARRAY}.{node.attr}"), "inferred",
                        "an NDArray compared gives an NDArray")
            if isinstance(node, ast.Attribute):  # f(x).asnumpy(), a[0].context
                inner = node.value.func if isinstance(node.value, ast.Call) else None
                got = self._resolve(inner) if inner is not None else None
                kind = names.class_of_call(got[0]) if got else None
                if kind is None and isinstance(inner, ast.Name) and \
                        inner.id in self.block_classes:  # Net(…).to(device): a user's block
                    kind = _self_type(self.block_classes[inner.id])
                    got = (inner.id, "inferred", "")
                if kind and "." in kind and not kind.startswith(("list[", "dict[")) \
                        and names.framework_of(kind):
                    return (names.canonical(f"{kind}.{node.attr}"), "inferred",
                            f"{got[0]}(…) gives a {kind}")
                return self._method_guess(node.attr, "the receiver is an expression")
            return None
        head, rest = parts[0], parts[1:]
        f_name = self.scope_f[-1]
        if head == f_name and rest:
            if rest[0] in ("np", "npx") and len(rest) > 1:  # F.npx.relu: the 2.x interface
                return (names.canonical("mx." + ".".join(rest)), "guessed",
                        f"{head} in hybrid_forward is mx.nd or mx.sym; {head}.{rest[0]} is "
                        f"mx.{rest[0]}")
            return (names.canonical("mx.nd." + ".".join(rest)), "guessed",
                    f"{head} in hybrid_forward is mx.nd or mx.sym")
        if head in self.aliases:
            return names.canonical(".".join([self.aliases[head], *rest])), "import", ""
        if parts[1:] == ["params", "get"] and self.types.get(head, "").startswith("mx.gluon."):
            return ("mx.gluon.ParameterDict.get", "inferred",   # self.params.get(name, ...)
                    f"{head}.params is the {self.types[head]}'s ParameterDict")
        # a variable of known type, then its attributes: net.fc.weight …
        for k in range(len(parts) - 1, 0, -1):
            key = ".".join(parts[:k])
            if key in self.types:
                kind = self.types[key]
                attr = parts[k]
                if kind.startswith("list[") or len(parts) - k > 1:
                    return None  # net.fc.weight: the user's own structure below a typed name
                if k == 1 and head != "self" and attr in self.own_methods \
                        and kind.startswith("mx.gluon.") and attr not in names.methods_of(kind):
                    return None  # model.neg_log_likelihood(...): a method the file's own
                    # Block class defines, not Gluon's
                if head == "self" and k == 1 and attr in self.user_attrs:
                    return None  # self.fc, self.batch: set or defined in this file (not
                    # self.body.add: a method of the type inferred for self.body)
                if attr in _PYTHON_ATTRIBUTES:
                    return None  # self.__class__, net.__dict__: Python's, on every object
                if head == "self" and k == 1:
                    reason = "self in a class derived from " + self.class_stack[-1] \
                        if self.class_stack and self.class_stack[-1] else f"{key}: {kind}"
                else:
                    reason = f"{key} is a {kind}"
                return names.canonical(f"{kind}.{attr}"), "inferred", reason
            if head == "self":
                break
        if len(parts) == 2 and head != "self":
            hint = names.hinted_class(head, self.framework)
            if hint and parts[1] in names.methods_of(hint[0]):
                return (f"{hint[0]}.{parts[1]}", "guessed",
                        f"{head} is named like a {hint[0]} (the word {hint[1]!r}); its type "
                        "is not known")
        if rest:
            return self._method_guess(rest[-1], f"the type of {'.'.join(parts[:-1])} is "
                                                 "not known")
        return None

    def _not_a_method_use(self, node) -> bool:
        """Whether a guessed attribute is no use of the method its name suggests: assigned
        (``args.hybridize = True``), or read without a call where the name is a method's
        (``if args.hybridize:``, an option); a property's name (``x.grad``) still counts, and
        so does ``F.…`` in hybrid_forward."""
        parts = _dotted(node)
        if parts and parts[0] == self.scope_f[-1]:
            return False
        return not isinstance(node.ctx, ast.Load) or node.attr not in _GUESSED_PROPERTIES

    def _method_guess(self, attr, why):
        owners = names.METHOD_OWNERS if self.framework == names.MXNET \
            else names.TORCH_METHOD_OWNERS
        if attr in owners and attr not in _GENERIC.get(self.framework, ()):
            owner = owners[attr]
            return f"{owner}.{attr}", "guessed", f"{why}; {attr} is an {owner} name"
        return None

    def _add(self, node, kind, resolved, text_node=None):
        name, how, reason = resolved
        fw = names.framework_of(name)
        if fw is None:
            return
        seg = self.lines.segment(text_node or node)
        self.sites.append(Site(self.path, node.lineno, node.col_offset,
                               getattr(node, "end_lineno", node.lineno) or node.lineno,
                               getattr(node, "end_col_offset", 0) or 0, name, kind, fw,
                               how, reason, seg.splitlines()[0] if seg else "", node))

    # -- visitors ----------------------------------------------------------------------
    def visit_ClassDef(self, node):
        base_fw = None
        for b in node.bases:
            r = self._resolve(b)
            if r:
                self.names[id(b)] = r
                self._add(node, "class", r, b)
                base_fw = r[0]
            elif isinstance(b, ast.Name) and b.id in self.block_classes:
                base_fw = self.block_classes[b.id]
        if base_fw:
            self.block_classes[node.name] = base_fw
        self.class_stack.append(base_fw)
        saved = self.types.get("self")
        if base_fw:
            self.types["self"] = _self_type(base_fw)
        for d in node.decorator_list:
            self.visit(d)
        for stmt in node.body:
            self.visit(stmt)
        self.class_stack.pop()
        if saved is None:
            self.types.pop("self", None)
        else:
            self.types["self"] = saved

    def visit_FunctionDef(self, node):
        f_name = None
        in_block = bool(self.class_stack and self.class_stack[-1]
                        and self.class_stack[-1].startswith("mx."))
        if node.name == "hybrid_forward" and len(node.args.args) >= 2:
            f_name = node.args.args[1].arg
            if in_block:
                self._add(node, "def", ("mx.gluon.HybridBlock.hybrid_forward", "inferred",
                                        f"defined in a class derived from "
                                        f"{self.class_stack[-1]}"))
        elif not self.class_stack and node.name in self.f_helpers \
                and self.module_functions.get(node.name) is node:
            f_name = node.args.args[self.f_helpers[node.name]].arg   # get_distance(F, x)
        self.scope_f.append(f_name if f_name else self.scope_f[-1])
        for d in node.decorator_list:
            self.visit(d)
        self.visit(node.args)
        # a function's own scope: its parameters shadow what the names meant outside, and
        # what it binds stays inside (but what it sets on self is the class's)
        saved = dict(self.types)
        a = node.args
        for arg in [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg]:
            if arg is not None and arg.arg != "self":
                for key in [k for k in self.types if k == arg.arg or
                            k.startswith(arg.arg + ".")]:
                    del self.types[key]
        if node.name in self.transform_fns and a.args and a.args[0].arg != "self":
            self.types[a.args[0].arg] = names.NDARRAY  # a Gluon dataset's sample
        if node.name == "hybrid_forward" and in_block and len(a.args) >= 3:
            # the block's inputs (and own parameters), the arguments without a default:
            # NDArrays (Symbols when hybridized), whose methods are MXNet's
            for arg in a.args[2:len(a.args) - len(a.defaults)]:
                self.types[arg.arg] = names.NDARRAY
        if not self.class_stack and self.module_functions.get(node.name) is node:
            self.types.update(self.param_types.get(node.name, {}))   # train(net, …)
        self.returns.append([])
        for stmt in node.body:
            self.visit(stmt)
        returned = self.returns.pop()
        # a module-level function whose every return gives one framework class: a call of it
        # builds that class (``netG = get_netG()``)
        self.tuple_functions.pop(node.name, None)
        if not self.class_stack and not self.returns and returned \
                and returned[0] is not None and len(set(returned)) == 1:
            if isinstance(returned[0], tuple):    # return loss, trainer: each item's class
                self.tuple_functions[node.name] = returned[0]
                self.function_types.pop(node.name, None)
            else:
                self.function_types[node.name] = returned[0]
        else:
            self.function_types.pop(node.name, None)
        on_self = {k: v for k, v in self.types.items() if k.startswith("self.")}
        self.types = {**saved, **on_self}
        self.scope_f.pop()

    def visit_Return(self, node):
        self.generic_visit(node)
        if self.returns:
            v = node.value
            if isinstance(v, ast.Tuple) and not any(isinstance(e, ast.Starred) for e in v.elts):
                kinds = tuple(self._type_of(e) for e in v.elts)
                self.returns[-1].append(kinds if any(kinds) else None)
            else:
                self.returns[-1].append(self._type_of(v) if v is not None else None)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Lambda(self, node):
        a = node.args
        if id(node) not in self.transform_fns or not a.args:
            self.generic_visit(node)
            return
        saved = dict(self.types)
        self.types[a.args[0].arg] = names.NDARRAY  # a Gluon dataset's sample
        self.visit(node.body)
        self.types = saved

    def visit_Assign(self, node):
        self.visit(node.value)
        for t in node.targets:
            self.visit(t)
        kind = self._type_of(node.value)
        value = node.value
        items = self.tuple_functions.get(value.func.id) if isinstance(value, ast.Call) \
            and isinstance(value.func, ast.Name) and value.func.id not in self.types else None
        for t in node.targets:
            if items and isinstance(t, (ast.Tuple, ast.List)) and len(t.elts) == len(items) \
                    and not any(isinstance(e, ast.Starred) for e in t.elts):
                for e, k in zip(t.elts, items):    # loss_fn, trainer = configure(net)
                    self._bind(e, k, None)
                continue
            self._bind(t, kind, node.value)

    def visit_AnnAssign(self, node):
        if node.value is not None:
            self.visit(node.value)
            self._bind(node.target, self._type_of(node.value), node.value)
        self.visit(node.target)

    def _bind(self, target, kind, value):
        key = ".".join(_dotted(target) or []) if isinstance(target, (ast.Name, ast.Attribute)) \
            else None
        if key:
            if kind:
                self.types[key] = kind
            else:
                self.types.pop(key, None)
            if self._own_batching(value):
                self.own_batches.add(key)
            else:
                self.own_batches.discard(key)

    def _passed_type(self, value) -> str | None:
        """What an argument gives a parameter: its type, but nothing for a DataLoader that
        batches with the script's own function (its batches are not known to be arrays)."""
        if self._own_batching(value) or ".".join(_dotted(value) or ["<expression>"]) \
                in self.own_batches:
            return None
        return self._type_of(value)

    def _own_batching(self, value) -> bool:
        """A DataLoader call given the script's batchify_fn (collate_fn, or as the seventh
        positional argument): its batches may be lists, strings, numpy, not arrays. (A
        ``**options`` is taken to hold the usual batch_size, shuffle, num_workers.)"""
        if not isinstance(value, ast.Call):
            return False
        name = self.names.get(id(value.func))
        return bool(name) and name[0] in ("mx.gluon.data.DataLoader", names.TORCH_LOADER) \
            and (len(value.args) > 6 or any(k.arg in ("batchify_fn", "collate_fn")
                                            for k in value.keywords))

    def _type_of(self, value) -> str | None:
        if isinstance(value, ast.Call):
            func = value.func
            if isinstance(func, ast.Name) and func.id in self.block_classes:
                return _self_type(self.block_classes[func.id])
            if isinstance(func, ast.Name) and func.id in self.function_types \
                    and func.id not in self.types:
                return self.function_types[func.id]
            parts = _dotted(func) if isinstance(func, ast.Attribute) else None
            if parts and parts[0] in self.local_modules and parts[0] not in self.types:
                full = ".".join([self.local_modules[parts[0]], *parts[1:]])  # model.get_net()
                if f"{full}()" in self.local_classes:
                    return self.local_classes[f"{full}()"]
                if full in self.local_classes:   # import model; model.RNNModel(…)
                    return _self_type(self.local_classes[full])
            key = ".".join(_dotted(func) or [])
            if key in self.types and self.types[key] in (names.BLOCK, names.MODULE):
                return names.NDARRAY if self.types[key] == names.BLOCK else names.TENSOR
            name = self.names.get(id(func))
            if name:
                return names.class_of_call(name[0])
            return None
        if isinstance(value, (ast.Name, ast.Attribute)):
            key = ".".join(_dotted(value) or [])
            return self.types.get(key)
        if isinstance(value, ast.BinOp):
            return self._type_of(value.left) or self._type_of(value.right)
        if isinstance(value, ast.Compare) and _comparison(value) is not None:
            kinds = {self._known_type(value.left), self._known_type(value.comparators[0])}
            return names.NDARRAY if names.NDARRAY in kinds else None
        return None

    def _known_type(self, value) -> str | None:
        """:meth:`_type_of`, but not from a guess: a call's name resolved now if the walk has
        not reached it yet (``x.argmax(axis=1)`` inside ``(… == y).mean()``), and a guessed
        method (``a.astype(…)`` on an unknown ``a``, maybe numpy's) gives nothing."""
        if isinstance(value, ast.Call) and isinstance(value.func, (ast.Attribute, ast.Name)):
            got = self.names.get(id(value.func)) or self._resolve(value.func)
            if got is not None:
                return None if got[1] == "guessed" else names.class_of_call(got[0])
        return self._type_of(value)    # net(x), a name, a comparison, an operation

    def visit_Compare(self, node):
        self.generic_visit(node)
        name = _comparison(node)
        if name is not None and self.framework == names.MXNET \
                and self._type_of(node) == names.NDARRAY:
            # an NDArray compared: MXNet's 0/1 array in its dtype (legacy NDArrays have no
            # bool), named by MXNet's function of the same operator
            self._add(node, "call", (name, "inferred", "an operand is a mx.nd.NDArray"))

    def visit_For(self, node):
        self.visit(node.iter)
        kind = self._type_of(node.iter)
        if isinstance(node.iter, ast.Call) and isinstance(node.iter.func, ast.Name) \
                and node.iter.func.id == "enumerate" and node.iter.args:
            kind = self._type_of(node.iter.args[0])
            if kind and isinstance(node.target, ast.Tuple) and len(node.target.elts) == 2:
                self._bind(node.target.elts[1], _ITEMS.get(kind), None)
        elif kind:
            item = _ITEMS.get(kind)
            own = self._own_batching(node.iter) or ".".join(
                _dotted(node.iter) or ["<expression>"]) in self.own_batches
            if own and item and item.startswith("list["):   # batches the script's own
                for elt in getattr(node.target, "elts", [node.target]):   # function makes
                    self._bind(elt, None, None)
            elif item and item.startswith("list[") and isinstance(node.target, (ast.Tuple,
                                                                                ast.List)):
                for elt in node.target.elts:      # for data, label in loader: each an array
                    self._bind(elt, item[5:-1], None)
            else:
                self._bind(node.target, item, None)
        self.visit(node.target)
        for stmt in node.body + node.orelse:
            self.visit(stmt)

    def _comprehension(self, node):
        """[p.grad(ctx) for p in net.collect_params().values()]: each target typed by what it
        iterates (a Parameter here), inside the comprehension only (its own scope)."""
        saved = dict(self.types)
        for gen in node.generators:
            self.visit(gen.iter)
            item = _ITEMS.get(self._type_of(gen.iter) or "")
            self._bind(gen.target, item if item and not item.startswith("list[") else None,
                       None)
            self.visit(gen.target)
            for cond in gen.ifs:
                self.visit(cond)
        for part in ("elt", "key", "value"):
            if getattr(node, part, None) is not None:
                self.visit(getattr(node, part))
        self.types = saved

    visit_ListComp = visit_SetComp = visit_GeneratorExp = visit_DictComp = _comprehension

    def visit_With(self, node):
        for item in node.items:
            self.visit(item.context_expr)
            if item.optional_vars is not None:
                self.visit(item.optional_vars)
        for stmt in node.body:
            self.visit(stmt)

    def _record_call(self, node):
        """What a call of one of the file's module-level functions passes for each of its
        parameters (a parameter it leaves to its default, or a ``*args``, passes nothing
        known)."""
        fn = self.module_functions[node.func.id]
        params = [p.arg for p in [*fn.args.posonlyargs, *fn.args.args]]
        seen = dict.fromkeys(params + [p.arg for p in fn.args.kwonlyargs])
        if any(isinstance(a, ast.Starred) for a in node.args) \
                or any(k.arg is None for k in node.keywords):
            self.escaped.add(node.func.id)
            return
        for name, arg in zip(params, node.args):
            seen[name] = self._passed_type(arg)
        for k in node.keywords:
            if k.arg in seen:
                seen[k.arg] = self._passed_type(k.value)
        for name, kind in seen.items():
            self.passed.setdefault(node.func.id, {}).setdefault(name, set()).add(kind)

    def visit_Call(self, node):
        if isinstance(node.func, ast.Name) and node.func.id in self.module_functions \
                and node.func.id not in self.types:
            self.called.add(id(node.func))
            self._record_call(node)
        r = self._resolve(node.func)
        if r:
            self.names[id(node.func)] = r
            owner = r[0].rpartition(".")[0].rpartition(".")[2]
            method = isinstance(node.func, ast.Attribute) and owner[:1].isupper()
            self._add(node, "method" if method else "call", r)
            self._visit_inside(node.func)
        else:
            self.visit(node.func)
        for a in node.args:
            self.visit(a)
        for k in node.keywords:
            self.visit(k.value)

    def _visit_inside(self, func):
        # the receiver of a method call may hold calls of its own: f(x).asnumpy()
        node = func.value if isinstance(func, ast.Attribute) else None
        while isinstance(node, ast.Attribute):
            node = node.value
        if node is not None and not isinstance(node, ast.Name):
            self.visit(node)

    def visit_Attribute(self, node):
        r = self._resolve(node)
        if r and r[1] == "guessed" and self._not_a_method_use(node):
            r = None
        if r:
            self.names[id(node)] = r
            if not (r[0] in _PLAIN_MODULES):
                self._add(node, "attribute", r)
            self._visit_inside(node)
        else:
            self.generic_visit(node)

    def visit_Name(self, node):
        if node.id in self.module_functions and id(node) not in self.called:
            self.escaped.add(node.id)    # passed on, rebound: called from who knows where
        if node.id in self.aliases and isinstance(node.ctx, ast.Load):
            name = self.aliases[node.id]
            self.names[id(node)] = (name, "import", "")
            if name not in _PLAIN_MODULES and name.count(".") >= 1:
                self._add(node, "attribute", (name, "import", ""))


#: Python's comparison operators and MXNet's functions of the same meaning
_COMPARISONS = {ast.Eq: "mx.nd.equal", ast.NotEq: "mx.nd.not_equal", ast.Lt: "mx.nd.lesser",
                ast.LtE: "mx.nd.lesser_equal", ast.Gt: "mx.nd.greater",
                ast.GtE: "mx.nd.greater_equal"}


def _comparison(node: ast.Compare) -> str | None:
    """MXNet's function for a one-operator comparison (``a == b``), else None."""
    if len(node.ops) != 1:
        return None
    return _COMPARISONS.get(type(node.ops[0]))


def _self_type(base: str) -> str:
    """What ``self`` is in a class derived from ``base``: a Block for Gluon's blocks, a
    Module for torch.nn's, else the base itself (``mx.io.DataIter``, ``mx.metric.EvalMetric``)."""
    if base.startswith(("mx.gluon.nn.", "mx.gluon.rnn.", "mx.gluon.loss.")) or base in (
            "mx.gluon.Block", "mx.gluon.HybridBlock", "mx.gluon.SymbolBlock"):
        return names.BLOCK
    if base.startswith("torch.nn.") and base.count(".") == 2:
        return names.MODULE
    return base


def _user_attrs(nodes: list[ast.AST]) -> set[str]:
    """The attributes a file gives ``self`` (``self.fc = …``) and the methods its classes
    define: the user's own names, never framework constructs (``nodes``: the file's)."""
    out = set()
    for node in nodes:
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) \
                and isinstance(node.value, ast.Name) and node.value.id == "self":
            out.add(node.attr)
        elif isinstance(node, ast.ClassDef):
            out.update(n.name for n in node.body
                       if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))
    return out


#: method names too common to guess an owner from (a user's own classes have them)
_GENERIC = {names.MXNET: {"update", "reset", "get", "next", "backward", "flatten", "fit",
                          "score", "predict", "summary", "export", "cast", "detach",
                          "astype", "context", "grad", "learning_rate", "topk",
                          "expand_dims", "swapaxes", "one_hot", "broadcast_to"},
            names.TORCH: {"to", "sum", "mean", "size", "type", "float", "long", "double",
                          "clone", "view", "eq", "argmax", "squeeze", "unsqueeze", "cpu",
                          "train", "eval", "apply", "modules", "children", "backward",
                          "detach", "contiguous", "permute", "tolist"}}
#: names a guess may take for an attribute read without a call: properties, not methods
_GUESSED_PROPERTIES = {"context", "grad", "learning_rate", "data", "label", "pad", "shape",
                       "dtype", "ndim", "size", "T", "batch_size", "provide_data",
                       "provide_label", "params", "prefix", "name", "weight", "bias",
                       "dataset", "sampler", "device", "training", "requires_grad", "is_leaf"}
#: what iterating over a value of each type gives
_ITEMS = {names.DATAITER: names.DATABATCH, "mx.gluon.data.DataLoader": f"list[{names.NDARRAY}]",
          names.TORCH_LOADER: f"list[{names.TENSOR}]",
          "iterator[mx.gluon.Parameter]": "mx.gluon.Parameter"}
#: module names that are not constructs by themselves (their attributes are)
_PLAIN_MODULES = {"mx", "mx.nd", "mx.np", "mx.npx", "mx.sym", "mx.gluon", "mx.gluon.nn",
                  "mx.gluon.rnn", "mx.gluon.loss", "mx.gluon.data", "mx.gluon.utils",
                  "mx.autograd", "mx.init", "mx.io", "mx.mod", "mx.metric", "mx.kv",
                  "mx.callback", "mx.gluon.model_zoo", "mx.gluon.model_zoo.vision",
                  "mx.gluon.data.vision", "mx.gluon.data.vision.transforms", "mx.random",
                  "mx.nd.random", "mx.optimizer", "mx.lr_scheduler", "mx.image",
                  "mx.gluon.contrib", "mx.contrib", "mx.recordio", "mx.gluon.metric",
                  "torch", "torch.nn", "torch.nn.functional", "torch.optim",
                  "torch.optim.lr_scheduler", "torch.utils", "torch.utils.data",
                  "torchvision", "torchvision.datasets", "torchvision.transforms",
                  "torchvision.models", "torch.distributed", "torch.cuda", "torch.linalg"}


#: Gluon's datasets that take ``transform=fn`` and call it as ``fn(data, label)``
_TRANSFORM_DATASETS = {f"mx.gluon.data.vision.{c}" for c in (
    "MNIST", "FashionMNIST", "CIFAR10", "CIFAR100", "ImageFolderDataset", "ImageRecordDataset",
    "ImageListDataset")}


def _transform_functions(nodes: list[ast.AST], aliases: dict[str, str]) -> set[str]:
    """The functions of the file that a Gluon dataset calls with its samples: passed as
    ``transform=`` to one of its vision datasets, or to ``.transform(fn)`` /
    ``.transform_first(fn)`` (methods only Gluon's datasets have). Their first parameter is
    an NDArray. A lambda is named by its ``id`` (``nodes``: the file's)."""
    out: set = set()
    for node in nodes:
        if not isinstance(node, ast.Call):
            continue
        parts = _dotted(node.func)
        name = names.canonical(".".join([aliases[parts[0]], *parts[1:]])) \
            if parts and parts[0] in aliases else None
        fns = [k.value for k in node.keywords if k.arg == "transform"] \
            if name in _TRANSFORM_DATASETS else node.args[:1] \
            if isinstance(node.func, ast.Attribute) and node.func.attr in (
                "transform", "transform_first") else []
        for fn in fns:
            if isinstance(fn, ast.Name):
                out.add(fn.id)
            elif isinstance(fn, ast.Lambda):
                out.add(id(fn))
    return out


def _f_helpers(nodes: list[ast.AST], functions: dict[str, ast.AST]) -> dict[str, int]:
    """The module-level functions (defined once) that take a hybrid_forward's F: every call
    of one, and there is one at least, passes the F of the hybrid_forward (or of another
    such function) it is in as the same positional argument, and the name is used only so
    called. Name -> that argument's index (its parameter is F there, as mx.nd or mx.sym)."""
    scopes: dict[int, str] = {}          # id(function) -> the name F has there
    for node in nodes:
        if isinstance(node, ast.ClassDef):
            for f in node.body:
                if isinstance(f, ast.FunctionDef) and f.name == "hybrid_forward" \
                        and len(f.args.args) >= 2:
                    scopes[id(f)] = f.args.args[1].arg
    if not scopes or not functions:
        return {}
    calls: dict[str, list[tuple[ast.Call, ast.AST | None]]] = {}
    used_otherwise: set[str] = set()
    parents = {id(c): p for p in nodes for c in ast.iter_child_nodes(p)}
    for node in nodes:
        if isinstance(node, ast.Name) and node.id in functions \
                and isinstance(node.ctx, ast.Load):
            call = parents.get(id(node))
            if not (isinstance(call, ast.Call) and call.func is node):
                used_otherwise.add(node.id)
                continue
            scope = call
            while (scope := parents.get(id(scope))) is not None \
                    and not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef,
                                               ast.Lambda)):
                pass
            calls.setdefault(node.id, []).append((call, scope))
    found: dict[str, int] = {}
    changed = True
    while changed:
        changed = False
        for name, seen in calls.items():
            if name in found or name in used_otherwise:
                continue
            fn, at = functions[name], set()
            for call, scope in seen:
                f = scopes.get(id(scope)) if scope is not None else None
                hits = [i for i, a in enumerate(call.args)
                        if isinstance(a, ast.Name) and a.id == f]
                if f is None or len(hits) != 1 or any(isinstance(a, ast.Starred)
                                                       for a in call.args[:hits[0] + 1]):
                    break
                at.add(hits[0])
            else:
                a = fn.args
                if len(at) == 1 and next(iter(at)) < len(a.args) and not a.posonlyargs:
                    found[name] = next(iter(at))
                    scopes[id(fn)] = a.args[found[name]].arg
                    changed = True
    return found


def analyse(source: str, path: str = "<string>", direction: str = names.MXNET,
            local_classes: dict[str, str] | None = None) -> Analysis:
    """The framework constructs of one file's source.

    ``direction`` is the framework the script is written for: ``"mxnet"`` (the default:
    guesses name MXNet classes) or ``"torch"``. ``local_classes`` maps the classes other
    scanned files define on a framework base (``"data.FirstBatches"`` → ``"mx.io.DataIter"``,
    see :func:`module_classes`): ``from data import FirstBatches`` then types what it builds.
    Raises ``SyntaxError`` for code that does not parse (the caller says which file).
    """
    tree = ast.parse(source, filename=path)
    imports = _Imports(local_classes)
    imports.visit(tree)
    nodes = list(ast.walk(tree))   # walked once, kept by the analysis (Analysis.nodes)
    user_attrs = _user_attrs(nodes)
    own_methods = {f.name for c in nodes if isinstance(c, ast.ClassDef) and c.bases
                   for f in c.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))}
    own_methods |= {k.rsplit(":method:", 1)[1] for k in (local_classes or {})
                    if ":method:" in k}   # those of the scan's other files' classes
    transform_fns = _transform_functions(nodes, imports.aliases) \
        if direction == names.MXNET else set()
    functions = {}
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            functions[stmt.name] = stmt if stmt.name not in functions else None
    functions = {k: v for k, v in functions.items() if v is not None}  # defined once
    seeds: dict[str, dict[str, str]] = {}
    f_helpers = _f_helpers(nodes, functions) if direction == names.MXNET else {}
    for _ in range(4):   # more walks where the calls type a function's parameters (a
        # chain of calls, train(net) calling step(net), types one more link each walk)
        walker = _Walker(path, source, imports.aliases, direction)
        walker.block_classes.update(imports.local)
        walker.function_types.update(imports.local_functions)
        walker.local_classes, walker.local_modules = imports.local_classes, \
            imports.local_modules
        walker.user_attrs, walker.transform_fns = user_attrs, transform_fns
        walker.own_methods = own_methods
        walker.module_functions, walker.param_types = functions, seeds
        walker.f_helpers = f_helpers
        walker.visit(tree)
        found = {f: {p: next(iter(kinds)) for p, kinds in params.items()
                     if len(kinds) == 1 and None not in kinds}
                 for f, params in walker.passed.items() if f not in walker.escaped
                 and f not in transform_fns}
        found = {f: ps for f, ps in found.items() if ps}
        if not found or found == seeds:
            break
        seeds = found
    sites = [Site(path, node.lineno, node.col_offset, node.end_lineno or node.lineno,
                  node.end_col_offset or 0, name, "import", names.framework_of(name) or "",
                  "import", "", text, node)
             for node, name, text in imports.sites if names.framework_of(name)]
    sites += walker.sites
    sites.sort(key=lambda s: (s.line, s.col, s.kind != "import"))
    return Analysis(path, source, tree, imports.aliases, sites, walker.types,
                    walker.block_classes, walker.names, walker.lines, nodes,
                    functions={k: v for k, v in walker.function_types.items()
                               if k not in imports.local_functions},
                    own_iterators=frozenset(imports.own_iterators), f_helpers=f_helpers,
                    iterator_factories=dict(imports.iterator_factories))


def module_name(relative_path: str) -> list[str]:
    """The names a file can be imported by, from the scanned folder or its own folder:
    ``pkg/data.py`` → ``["pkg.data", "data"]`` (scripts put their own folder on
    ``sys.path``)."""
    parts = relative_path.replace("\\", "/").removesuffix(".py").split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    names_ = [".".join(parts[i:]) for i in range(len(parts)) if parts[i:]]
    return list(dict.fromkeys(names_))


def module_classes(analysis: Analysis, relative_path: str) -> dict[str, str]:
    """The classes ``analysis`` defines on a framework base, keyed by every importable name:
    ``{"data.FirstBatches": "mx.io.DataIter", …}``; and its module-level functions that give
    one framework class, the name followed by ``()``: ``{"model.get_net()":
    "mx.gluon.Block"}``."""
    methods = {c.name: [f.name for f in c.body
                        if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))]
               for c in analysis.nodes() if isinstance(c, ast.ClassDef)}
    return {**{f"{m}.{cls}": base for m in module_name(relative_path)
               for cls, base in analysis.block_classes.items()},
            **{f"{m}.{fn}()": kind for m in module_name(relative_path)
               for fn, kind in analysis.functions.items()},
            # its classes' own methods: style_model.set_target(…) in another file is the
            # user's method, not Gluon's
            **{f"{m}.{cls}:method:{name}": "method" for m in module_name(relative_path)
               for cls in analysis.block_classes for name in methods.get(cls, ())}}
