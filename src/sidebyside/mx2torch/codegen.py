"""An MXNet graph and its parameters as a readable ``model.py`` and a loaded ``nn.Module``.

:func:`translate` is the short call (a module in eval mode, weights loaded);
:func:`translation` returns everything: the module, the generated source, the state dict, which
MXNet parameter each PyTorch key came from, the inputs and outputs, and notes on semantics
that differ (a loss layer's forward, an ignored gamma). The module *is* the generated source:
it is compiled from it, so what you read in ``model.py`` is what was checked.
"""

from __future__ import annotations

import ast
import builtins
import dataclasses
import keyword
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .graph import Graph, as_tuple, parse_value, read_symbol
from .ops import HELPERS, REGISTRY, UnsupportedOperator, parse_attrs, refuse

__all__ = ["translate", "translation", "Translation", "UnsupportedOperator"]

_RESERVED = set(keyword.kwlist) | set(dir(builtins)) | {"torch", "nn", "F", "self", "math", "np"}


def _ident(name: str) -> str:
    s = re.sub(r"[^0-9A-Za-z_]", "_", name)    # ASCII: Python folds other names (NFKC)
    if s.endswith("_fwd"):
        s = s[:-4]
    if not s or s[0].isdigit():
        s = "n_" + s
    if s in _RESERVED:
        s += "_"
    return s


def _common_prefix(names: list[str]) -> str:
    """The prefix every node name shares up to an underscore (``resnetv10_``), if stripping it
    leaves every name non-empty."""
    if len(names) < 2:
        return ""
    p = os.path.commonprefix(names)
    p = p[: p.rfind("_") + 1] if "_" in p else ""
    if p and all(len(n) > len(p) for n in names):
        return p
    return ""


@dataclass
class Translation:
    module: object                      # torch.nn.Module, eval mode, weights loaded
    source: str                         # the generated model.py
    state_dict: dict                    # PyTorch key -> numpy array
    mx_names: dict                      # PyTorch key -> the MXNet parameter it came from
    inputs: list                        # the forward's arguments: MXNet input names, in order
    outputs: list                       # the graph's heads: "node" or "node[i]"
    nodes: list                         # (MXNet node name, op, python variable) in forward order
    notes: list = field(default_factory=list)
    class_name: str = "Model"

    def save(self, state_path=None, code_path=None) -> None:
        """Write the state dict (``torch.save``) and/or the source; both or nothing."""
        import torch

        staged = []
        try:
            for path, write in ((state_path, lambda f: torch.save(self.module.state_dict(), f)),
                                (code_path, lambda f: f.write(self.source.encode()))):
                if path is None:
                    continue
                path = Path(path)
                fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
                with os.fdopen(fd, "wb") as f:
                    staged.append((tmp, path))
                    write(f)
            for tmp, path in staged:
                os.replace(tmp, path)
        finally:
            for tmp, _ in staged:
                if os.path.exists(tmp):
                    os.unlink(tmp)


class Builder:
    """Walks the graph once, collecting ``__init__`` lines, ``forward`` lines and the state dict.
    The op translators (:mod:`.ops`) call back into it for inputs, weights and submodules."""

    def __init__(self, graph: Graph, params: dict, aux: set, input_ranks: dict):
        self.g = graph
        self.params = params
        self.aux = aux
        self.input_ranks = input_ranks
        self.consumers = graph.consumers()
        reach = graph.reachable()
        self.prefix = _common_prefix([graph.nodes[i].name for i in reach
                                      if not graph.nodes[i].is_variable])
        self.taken: dict[str, set] = {"attr": {"_float"}, "var": set()}   # _float: float_dtype
        self.float_declared = False
        self.folded: set[str] = set()
        self.init: list[str] = []
        self.fwd: list[tuple[str, str, str, str]] = []   # (var, expression, node name, op)
        self.state: dict[str, np.ndarray] = {}
        self.mx_names: dict[str, str] = {}
        self.owner: dict[str, str] = {}               # MXNet parameter -> attribute expression
        self.var: dict[int, str] = {}
        self.nout: dict[int, int] = {}
        self.ranks: dict[int, int | None] = {}
        self.helpers: list[str] = []
        self.inputs: list[int] = []
        self.notes: list[str] = []
        self.emitted: set[int] = set()
        self.multi: dict[int, list[str]] = {}         # node id -> one name per output
        self.param_only = self._param_only(reach)
        self.node = None
        self.integer: set[int] = set()                # nodes whose output holds integers
        self.failed: set[int] = set()                 # nodes that could not be translated
        self.failures: list[UnsupportedOperator] = []

    # --- naming -------------------------------------------------------------------------
    def _name(self, raw: str, space: str = "var") -> str:
        """A Python name for a node: ``self.<attr>`` names and forward's locals are separate
        namespaces, so ``conv0 = self.conv0(x)`` reads as it should."""
        base = _ident(raw[len(self.prefix):] if raw.startswith(self.prefix) else raw)
        name, k = base, 1
        while name in self.taken[space]:
            k += 1
            name = f"{base}_{k}"
        self.taken[space].add(name)
        return name

    def _param_only(self, reach) -> set[int]:
        out = set()
        for i in reach:
            n = self.g.nodes[i]
            if n.is_variable:
                if n.name in self.params:
                    out.add(i)
            elif n.inputs and all(src in out for src, _ in n.inputs):
                out.add(i)
        return out

    # --- what the op translators call -------------------------------------------------------
    def x(self, i: int) -> str:
        """The expression of the current node's input ``i``."""
        node = self.node
        if i >= len(node.inputs):
            refuse(node, f"input {i} is missing")
        return self.expr(node.inputs[i])

    def is_int(self, i: int) -> bool:
        """Whether the current node's input ``i`` holds integers (a Cast to an integer type,
        shape_array, ...): MXNet's arithmetic on integers is C's (division truncates)."""
        return self.node.inputs[i][0] in self.integer

    def rank_of(self, i: int):
        src, _ = self.node.inputs[i]
        return self.ranks.get(src)

    def param(self, node, i: int) -> np.ndarray:
        """The array of input ``i``, which must be a parameter from the .params file."""
        if i >= len(node.inputs):
            refuse(node, f"input {i} (a weight) is missing")
        src = self.g.nodes[node.inputs[i][0]]
        if not (src.is_variable and src.name in self.params):
            refuse(node, f"input {i} ({src.name!r}) is not a parameter in the .params file "
                         "(weights computed in the graph are not supported here)")
        return self.params[src.name]

    def fold(self, node, i: int) -> np.ndarray:
        """Input ``i`` computed now, from parameters only (Reshape / _rnn_param_concat chains)."""
        def value(entry):
            n = self.g.nodes[entry[0]]
            if n.is_variable:
                if n.name not in self.params:
                    refuse(node, f"input {n.name!r} must come from the .params file")
                self.folded.add(n.name)
                return self.params[n.name]
            if n.op in ("Reshape", "reshape"):
                shape = as_tuple(parse_value(n.attrs.get("shape", "()")))
                if n.attrs.get("reverse", "False") == "True" or any(v < -1 for v in shape):
                    refuse(node, f"its parameter input is reshaped by {n.name!r} with "
                                 f"shape={shape}, which cannot be folded")
                return value(n.inputs[0]).reshape(tuple(int(v) for v in shape))
            if n.op in ("_rnn_param_concat", "Concat", "concat"):
                dim = int(n.attrs.get("dim", 1))
                return np.concatenate([value(e) for e in n.inputs], axis=dim)
            if n.op in ("_copy", "identity"):
                return value(n.inputs[0])
            refuse(node, f"its parameter input is computed by {n.op} ({n.name!r}), which "
                         "cannot be folded into weights")
        return value(node.inputs[i])

    def ones(self, node, c: int) -> np.ndarray:
        dtype = self.params[self.g.nodes[node.inputs[1][0]].name].dtype
        return np.ones(c, dtype=dtype)

    def module(self, node, ctor: str, params: dict, comment: str = "") -> str:
        """Declare ``self.<name> = <ctor>`` and load ``params`` (local name -> input index or
        array) into it; returns ``self.<name>``."""
        name = self._name(node.name, "attr")
        line = f"self.{name} = {ctor}"
        if comment:
            line += f"  # {_printable(comment)}"
        self.init.append(line)
        for local, what in params.items():
            key = f"{name}.{local}"
            if isinstance(what, int):
                src = self.g.nodes[node.inputs[what][0]]
                arr = self.param(node, what)
                if src.name in self.owner:          # tied: one MXNet parameter, two layers
                    self.init.append(f"self.{key} = {self.owner[src.name]}  "
                                     f"# tied: MXNet parameter {_printable(src.name)}")
                else:
                    self.owner[src.name] = f"self.{key}"
                self.state[key] = arr
                self.mx_names[key] = src.name
            else:
                self.state[key] = np.asarray(what)
                self.mx_names[key] = f"(computed for {node.name})"
        return f"self.{name}"

    def param_expr(self, node, i: int) -> str:
        return self.expr(node.inputs[i])

    def note(self, text: str) -> None:
        """A semantic difference worth a line in the generated docstring (once)."""
        if text not in self.notes:
            self.notes.append(text)

    def float_dtype(self) -> str:
        """The expression of the module's float type (a buffer of size 0 that ``.double()``,
        ``.half()`` convert): for the graph's float32 constants and casts."""
        if not self.float_declared:
            self.float_declared = True
            self.init.append('self.register_buffer("_float", torch.empty(0), persistent=False)'
                             "  # the model's float type (float32 unless .double())")
        return "self._float.dtype"

    def helper(self, name: str) -> str:
        if name not in self.helpers:
            self.helpers.append(name)
        return name

    # --- expressions ------------------------------------------------------------------------
    def expr(self, entry) -> str:
        src, idx = entry
        n = self.g.nodes[src]
        if n.is_variable:
            if n.name in self.params:
                return self._param_attr(n)
            if src not in self.var:
                self.var[src] = self._name(n.name)
                self.inputs.append(src)
                self.ranks[src] = self.input_ranks.get(n.name)
            return self.var[src]
        if src not in self.emitted:
            self.emit(src)
        nout = self.nout.get(src, 1)
        if idx >= nout:
            if nout == 1 and idx > 0:
                refuse(n, f"output {idx} is used, but the translation gives one output")
        if src in self.multi:
            if idx >= len(self.multi[src]):
                refuse(n, f"output {idx} is used, but the translation gives "
                          f"{len(self.multi[src])} outputs")
            return self.multi[src][idx]
        return f"{self.var[src]}[{idx}]" if nout > 1 else self.var[src]

    def _param_attr(self, n) -> str:
        if n.name in self.owner:
            return self.owner[n.name]
        name = self._name(n.name, "attr")
        arr = self.params[n.name]
        dt = f"torch.{np.dtype(arr.dtype).name}"
        if n.name in self.aux:
            self.init.append(f"self.register_buffer({name!r}, torch.empty({_shape(arr)}, dtype={dt}))")
        else:
            self.init.append(f"self.{name} = nn.Parameter(torch.empty({_shape(arr)}, dtype={dt}))")
        self.owner[n.name] = f"self.{name}"
        self.state[name] = arr
        self.mx_names[name] = n.name
        return f"self.{name}"

    def emit(self, i: int) -> None:
        node = self.g.nodes[i]
        outer = (self.node, getattr(self, "rank", None), getattr(self, "n_out", 1),
                 getattr(self, "unpack", None), getattr(self, "int_out", None))
        static = True       # the operator and its attributes, whatever the inputs are
        try:
            spec = REGISTRY.get(node.op)
            if spec is None:
                refuse(node, _UNKNOWN)
            attrs = parse_attrs(spec, node)
            static = False
            self.node, self.n_out, self.unpack, self.int_out = node, 1, None, None
            self.rank = self.ranks.get(node.inputs[0][0]) if node.inputs else None
            expression = spec.func(self, node, attrs)
        except UnsupportedOperator as e:
            self.node, self.rank, self.n_out, self.unpack, self.int_out = outer
            self._failed(i, e, static)
            return
        except _VALUE_ERRORS as e:
            # attribute values of the right types that do not fit together or with the
            # node's inputs (an axis tuple where one axis is meant, a reshape of weights to a
            # shape of another size...): the node is refused, with what Python said
            self.node, self.rank, self.n_out, self.unpack, self.int_out = outer
            what = f"cannot be translated with these attributes ({_attrs_text(node)}): " \
                   f"{type(e).__name__}: {str(e).splitlines()[0][:200] if str(e) else ''}"
            self._failed(i, UnsupportedOperator(f"operator {node.op} (node {node.name!r}): "
                                                f"{what}", op=node.op, node=node.name,
                                                what=what), True)
            return
        self.emitted.add(i)
        # integer outputs (MXNet divides integers by truncation): as the translator says, else
        # those of a node whose inputs are all integer
        if self.int_out if self.int_out is not None else \
                bool(node.inputs) and all(src in self.integer for src, _ in node.inputs):
            self.integer.add(i)
        var = self._name(node.name)
        self.var[i] = var
        self.nout[i] = self.n_out
        self.ranks[i] = self.rank
        target = var
        if self.unpack:
            # several outputs bound to names of their own: `out, (h, c) = self.lstm(x, ...)`
            pattern, suffixes = self.unpack
            names = [var] + [self._name(f"{node.name}_{sfx}") for sfx in suffixes]
            self.multi[i] = names
            target = pattern.format(*names)
        self.fwd.append((target, expression, node.name, node.op))
        self.node, self.rank, self.n_out, self.unpack, self.int_out = outer

    def _failed(self, i: int, error: UnsupportedOperator, static: bool) -> None:
        """Record a node that cannot be translated and go on, so that one refusal names every
        problem (:meth:`run`). An unknown operator or attribute is always reported; a value
        that a translator refuses is not when an input of the node failed too (the translator
        saw a stand-in for that input, not the real one)."""
        node = self.g.nodes[i]
        if error.op is None:       # not about one node (a parameter's shape...): stop here
            raise error
        upstream = any(src in self.failed for src, _ in node.inputs)
        self.failed.add(i)
        if static or not upstream:
            self.failures.append(error)
        self.emitted.add(i)
        self.var[i] = self._name(node.name)
        self.nout[i] = 1 << 30          # any output index: a stand-in, never compiled
        self.ranks[i] = None

    def run(self, progress=None) -> None:
        """Emit every node the outputs need; ``progress(done, total)`` after each."""
        order = self.g.reachable()
        for k, i in enumerate(order, 1):
            n = self.g.nodes[i]
            if progress is not None:
                progress(k, len(order))
            if n.is_variable or i in self.emitted:
                continue
            if i in self.param_only:
                continue    # weights only: folded by its consumer (RNN), or emitted on first use
            self.emit(i)
        self.heads = [self.expr(h) for h in self.g.heads]
        if self.failures:
            raise UnsupportedOperator(refusal(self.failures))


# what a translator raises on attribute values that parse but do not fit together
_VALUE_ERRORS = (ValueError, TypeError, OverflowError, IndexError, KeyError, ZeroDivisionError)


def _attrs_text(node) -> str:
    return ", ".join(f"{k}={v[:40]!r}" for k, v in sorted(node.attrs.items())) or "none"


def _printable(text: str) -> str:
    """``text`` for a comment of the generated code: a line break or another unprintable
    character (from a node's name) shown escaped, never ending the comment."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(text))


def _doc(text: str) -> str:
    """``text`` inside the generated docstring: backslashes and quotes escaped, so a name
    holding ``\"\"\"`` cannot end it."""
    return _printable(str(text).replace("\\", "\\\\").replace('"', '\\"'))


_UNKNOWN = "is not supported"
_OPS_HINT = "`python -m sidebyside.mx2torch --ops` lists the supported ones"


def refusal(failures: list) -> str:
    """One message for every node that cannot be translated: grouped by operator and by what
    is wrong, with the number of nodes and the first names."""
    if len(failures) == 1:
        e = failures[0]
        return str(e) if e.what != _UNKNOWN else \
            f"operator {e.op} (node {e.node!r}) {_UNKNOWN}; {_OPS_HINT}"
    groups: dict[tuple, list[str]] = {}
    for e in failures:
        groups.setdefault((e.op, e.what), []).append(e.node)
    ops = sorted({op for op, _ in groups})
    n = sum(len(v) for v in groups.values())
    lines = [f"{len(ops)} operator{'s' if len(ops) > 1 else ''} of the graph cannot be "
             f"translated ({n} node{'s' if n > 1 else ''}); nothing was written. {_OPS_HINT}:"]
    for (op, what), nodes in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        shown = ", ".join(repr(n) for n in nodes[:3]) + (", ..." if len(nodes) > 3 else "")
        lines.append(f"  {op} ({len(nodes)} node{'s' if len(nodes) > 1 else ''}: {shown}): {what}")
    return "\n".join(lines)


def _shape(arr) -> str:
    return "(" + ", ".join(str(int(d)) for d in arr.shape) + ("," if arr.ndim == 1 else "") + ")"


def _source(b: Builder, graph: Graph, class_name: str, taps: bool) -> str:
    args = [b.var[i] for i in b.inputs]
    lines = ['"""Generated by sidebyside.mx2torch from ' + _doc(Path(graph.source).name)
             + (f" (MXNet {graph.mxnet_version // 10000}.{graph.mxnet_version // 100 % 100}."
                f"{graph.mxnet_version % 100})" if graph.mxnet_version else "")
             + '.\n\nInputs: ' + ", ".join(_doc(graph.nodes[i].name) for i in b.inputs)
             + ". Load the weights with model.load_state_dict(torch.load(...)).\n"]
    if not taps:
        lines.append("The forward deletes each intermediate after its last use, and does a ReLU or "
                     "a sum in place\nwhere nothing else reads the tensor, as torchvision's "
                     "models do (a forward hook that\nkeeps a layer's output must clone it).\n")
    for note in b.notes:
        lines.append(f"- {_doc(note)}")
    lines += ['"""', "", "import torch", "import torch.nn as nn",
              "import torch.nn.functional as F", ""]
    for h in b.helpers:
        lines.append(HELPERS[h].strip("\n"))
        lines.append("")
    lines += ["", f"class {class_name}(nn.Module):"]
    if any("# tied:" in line for line in b.init):
        lines += ["    _mx2torch_tied = True   # layers share parameters (see '# tied' below)", ""]
    lines += ["    def __init__(self):", "        super().__init__()"]
    lines += [f"        {line}" for line in b.init]
    lines += ["", f"    def forward(self, {', '.join(args)}):"]
    if taps:
        lines.append("        _taps = {}")
    dead = {} if taps else _dead_after(b.fwd, args, b.heads)
    fwd = b.fwd if taps else _in_place(b.fwd, args, dead)
    for k, (target, expression, name, _) in enumerate(fwd):
        lines.append(f"        {target} = {expression}")
        if dead.get(k):
            lines.append(f"        del {', '.join(dead[k])}")
        if taps:
            flat = target.replace("(", "").replace(")", "")
            lines.append(f"        _taps[{name!r}] = ({flat},)" if "," in flat else
                         f"        _taps[{name!r}] = {target}")
    out = b.heads[0] if len(b.heads) == 1 else "(" + ", ".join(b.heads) + ")"
    lines.append(f"        return {out}" if not taps else f"        return {out}, _taps")
    return "\n".join(lines) + "\n"


def _names(code: str) -> set:
    return {n.id for n in ast.walk(ast.parse(code, mode="eval")) if isinstance(n, ast.Name)}


def _dead_after(fwd, args, heads) -> dict:
    """Statement index -> the variables last used there (and not returned), which the forward
    deletes after it: each intermediate is freed when nothing needs it any more, as in a
    hand-written forward, instead of every one living to the end (a ResNet-50's forward then
    runs 1.2-1.35x slower: fresh memory for every tensor)."""
    last = {a: -1 for a in args}       # (the caller holds the inputs: no del for them)
    for k, (target, expression, _, _) in enumerate(fwd):
        for n in _names(expression):
            if n in last:
                last[n] = k
        for n in _names(target):
            last[n] = k
    kept = set().union(*(_names(h) for h in heads))
    dead: dict = {}
    for n, k in last.items():
        if n not in kept and n not in args:
            dead.setdefault(k, []).append(n)
    return {k: sorted(v) for k, v in dead.items()}


#: operators whose output is a tensor of its own that autograd does not keep (their backward
#: needs their inputs, not their output): a ReLU or a sum may overwrite it
_FRESH = {"Convolution", "BatchNorm", "FullyConnected", "elemwise_add", "_plus", "_Plus", "_add"}
_SUM = {"elemwise_add", "_plus", "_Plus", "_add"}


def _in_place(fwd, args, dead) -> list:
    """The forward with torchvision's in-place steps where they are safe: ``torch.relu_(x)``
    and ``x.add_(y)`` when ``x`` is used by that statement alone (so no view of it lives on),
    is not an input, and comes from an operator in ``_FRESH``. A ResNet-50 runs as fast as
    torchvision's; the values are the same (the tapped forward of ``--check`` keeps every
    node and does not do this)."""
    made, uses = {}, {}
    for k, (target, expression, _, op) in enumerate(fwd):
        for n in _names(expression):
            uses[n] = uses.get(n, 0) + 1
        made[target] = op

    def free(v, k):             # nothing reads v after statement k, nor views it
        return v not in args and uses.get(v) == 1 and made.get(v) in _FRESH and \
            v in dead.get(k, ())

    out = []
    for k, (target, expression, name, op) in enumerate(fwd):
        m = re.fullmatch(r"torch\.relu\((\w+)\)", expression)
        if m and op in ("Activation", "relu") and free(m.group(1), k):
            expression = f"torch.relu_({m.group(1)})"
        m = re.fullmatch(r"\((\w+) \+ (\w+)\)", expression)
        if m and op in _SUM and m.group(1) != m.group(2):
            for x, y in (m.groups(), m.groups()[::-1]):
                if free(x, k):
                    expression = f"{x}.add_({y})"
                    break
        out.append((target, expression, name, op))
    return out


def _split_params(raw, where: str) -> tuple[dict, set]:
    if isinstance(raw, list):
        raise UnsupportedOperator(f"{where}: the file holds an unnamed list of arrays; a model's "
                                  "parameters are a named dict (export() or save_checkpoint)")
    params, aux = {}, set()
    for key, arr in raw.items():
        kind, sep, name = key.partition(":")
        if sep and kind in ("arg", "aux"):
            params[name] = np.asarray(arr)
            if kind == "aux":
                aux.add(name)
        else:
            params[key] = np.asarray(arr)
    return params, aux


def _build(graph, params, aux, input_shapes, class_name, taps, progress=None):
    b = Builder(graph, params, aux, {k: len(v) for k, v in (input_shapes or {}).items()})
    b.run(progress)
    return b, _source(b, graph, class_name, taps)


def compile_source(source: str, class_name: str = "Model"):
    """The class a generated source defines (compiled in a namespace of its own). The source
    is registered with ``linecache`` under a name of its own, so tracebacks show its lines and
    ``inspect``/``torch.jit.script`` can read it as if it were a file."""
    import hashlib
    import linecache

    name = f"<mx2torch model.py {hashlib.sha1(source.encode()).hexdigest()[:12]}>"
    linecache.cache[name] = (len(source), None, source.splitlines(True), name)
    namespace = {"__name__": "mx2torch_generated"}
    exec(compile(source, name, "exec"), namespace)  # noqa: S102
    return namespace[class_name]


def load_state(module, state: dict) -> None:
    """Load numpy arrays into the module, in their own dtype; every key checked."""
    import torch

    floats = {a.dtype for a in state.values() if a.dtype.kind == "f"}
    if len(floats) == 1:
        module.to(getattr(torch, floats.pop().name))
    own = module.state_dict()
    for key, arr in state.items():
        if key not in own:
            raise RuntimeError(f"internal: {key} is not in the generated module")
        if tuple(own[key].shape) != arr.shape:
            raise UnsupportedOperator(f"parameter {key}: shape {arr.shape} in the file, "
                                      f"{tuple(own[key].shape)} in the layer")
        own[key] = torch.from_numpy(np.ascontiguousarray(arr).copy())
    missing = [k for k in own if k not in state and not k.endswith("num_batches_tracked")]
    if missing:
        raise RuntimeError(f"internal: no value for {missing}")
    for k in own:
        if k not in state:
            own[k] = torch.zeros_like(own[k])      # BatchNorm's num_batches_tracked
    module.load_state_dict(own, strict=True)


def instantiate(cls, state: dict):
    """The generated class, built without its random initialisation (on the meta device,
    then given memory) and loaded with ``state``."""
    import torch

    with torch.device("meta"):
        module = cls()
    _check_shapes(module, state)       # before any memory is given: sizes come from the file
    if getattr(cls, "_mx2torch_tied", False):
        module = cls()      # to_empty() would untie shared parameters: build it plainly
    else:
        module = module.to_empty(device="cpu")
    load_state(module, state)
    return module


def _check_shapes(module, state: dict) -> None:
    """Every tensor the module declares has the shape of its array in ``state`` (a layer's
    size is set by attributes such as num_hidden, the array's by the .params file)."""
    for key, t in module.state_dict().items():
        arr = state.get(key)
        if arr is not None and tuple(t.shape) != arr.shape:
            raise UnsupportedOperator(f"parameter {key}: shape {arr.shape} in the file, "
                                      f"{tuple(t.shape)} in the layer (refused before "
                                      "allocating the layer)")


def _built(source: str, class_name: str, state: dict):
    """The generated class compiled and instantiated; a layer that cannot be built from the
    file's attribute values is refused, naming its line of ``model.py``."""
    import traceback

    try:
        return instantiate(compile_source(source, class_name), state)
    except (TypeError, ValueError, RuntimeError, OverflowError) as e:
        if isinstance(e, UnsupportedOperator):
            raise
        lines = [f for f in traceback.extract_tb(e.__traceback__)
                 if f.filename.startswith("<mx2torch model.py")]
        where = f"`{lines[-1].line.strip()[:160]}`" if lines else "the module"
        raise UnsupportedOperator(f"{where} cannot be built from the file's attribute values "
                                  f"({type(e).__name__}: {str(e).splitlines()[0][:200]})"
                                  ) from None


def cut(graph: Graph, outputs) -> Graph:
    """The graph with its outputs replaced by the named nodes' (``NAME`` for a node's first
    output, ``NAME[i]`` for its output i): a backbone and its heads without the
    post-processing that follows them. Unknown names and inputs are refused, all at once."""
    if not outputs:
        return graph
    by_name = {n.name: i for i, n in enumerate(graph.nodes)}
    heads, bad = [], []
    for text in outputs:
        m = re.fullmatch(r"(.+?)(?:\[(\d+)\])?", text.strip())
        name, idx = m.group(1), int(m.group(2) or 0)
        i = by_name.get(name)
        if i is None:
            bad.append(f"{text!r} is not a node of the graph")
        elif graph.nodes[i].is_variable:
            bad.append(f"{text!r} is an input or a parameter, not a computed node")
        else:
            heads.append((i, idx))
    if bad:
        raise UnsupportedOperator(f"{graph.source}: --outputs: " + "; ".join(bad))
    return dataclasses.replace(graph, heads=heads)


def translation(symbol, params, *, input_shapes=None, class_name: str = "Model",
                outputs=None, progress=None) -> Translation:
    """Translate a graph (``-symbol.json`` path, JSON text or dict) with its parameters (a
    ``.params`` path, or a dict of arrays with or without ``arg:``/``aux:`` prefixes).
    ``outputs``: node names that become the outputs instead of the graph's own (:func:`cut`).
    ``progress(done, total)``: called as the graph's nodes are translated
    (:class:`sidebyside.progress.Steps` draws it as a bar)."""
    graph = cut(symbol if isinstance(symbol, Graph) else read_symbol(symbol), outputs)
    where = str(params) if isinstance(params, (str, Path)) else "<params>"
    if isinstance(params, (str, Path)):
        from .ndfile import load_params

        params = load_params(params)
    params, aux = _split_params(params, where)
    variables = {n.name for n in graph.nodes if n.is_variable}
    if params and not variables & set(params):
        raise UnsupportedOperator(
            f"{where}: none of its {len(params)} names ({', '.join(list(params)[:3])}, ...) is a "
            "variable of the graph: is it a Gluon save_parameters() file? Translation needs the "
            "file that export() or Module.save_checkpoint() wrote with the symbol")
    b, source = _build(graph, params, aux, input_shapes, class_name, taps=False,
                       progress=progress)
    module = _built(source, class_name, b.state)
    module.eval()
    unused = sorted(set(params) - set(b.mx_names.values()) - b.folded)
    notes = list(b.notes)
    if unused:
        notes.append(f"{len(unused)} parameters of the file are not used by the graph's outputs: "
                     + ", ".join(unused[:5]) + (" ..." if len(unused) > 5 else ""))
    return Translation(module, source, b.state, b.mx_names,
                       [graph.nodes[i].name for i in b.inputs],
                       list(b.heads), [(name, op, var) for var, _, name, op in b.fwd],
                       notes, class_name)


def translate(symbol, params, **kwargs):
    """A ``torch.nn.Module`` (eval mode, weights loaded) that computes the graph's output (a
    tuple for several heads) from the graph's inputs, in the order of ``Translation.inputs``."""
    return translation(symbol, params, **kwargs).module


def tapped(t: Translation, symbol, params, input_shapes=None, outputs=None):
    """The same translation with a forward that also returns every node's output (by MXNet
    node name): for :mod:`.report`."""
    graph = cut(symbol if isinstance(symbol, Graph) else read_symbol(symbol), outputs)
    if isinstance(params, (str, Path)):
        from .ndfile import load_params

        params = load_params(params)
    p, aux = _split_params(params, "<params>")
    b, source = _build(graph, p, aux, input_shapes, t.class_name, taps=True)
    return instantiate(compile_source(source, t.class_name), b.state).eval()


def trainer_parameters(t: Translation, names=None) -> list:
    """The translated module's tensors in a Gluon ``Trainer``'s parameter order, for
    :func:`~sidebyside.mx2torch.optstate.to_torch_optimizer`.

    ``names``: the MXNet names of the parameters the Trainer was given (default: every
    parameter of the ``.params`` file, i.e. ``net.collect_params()`` of the exported net);
    the Trainer sorts them by name. A name the module does not hold as a trainable parameter
    (a BatchNorm running statistic, a parameter the outputs do not use) gives ``None``."""
    by_name: dict[str, object] = {}
    owned = dict(t.module.named_parameters())
    for key, mx_name in t.mx_names.items():
        if key in owned:
            by_name.setdefault(mx_name, owned[key])
    names = sorted(set(t.mx_names.values()) if names is None else names)
    return [by_name.get(n) for n in names if not n.startswith("(computed")]
