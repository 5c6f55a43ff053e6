"""The draft's second pass: what changes statements, not calls (LibCST).

:func:`.rewrite.draft` rewrites calls in place and, for the rules of :data:`.rewrite.STRUCTURAL`,
writes a handshake comment above the statement (``# >>>>>> migrate-structure [rule]``). This
pass, on the draft's text:

- ``name-scope-drop``, ``record-unwrap``: a ``with net.name_scope():`` or ``with
  autograd.record():`` block becomes its body (PyTorch names parameters by attribute path and
  records every operation on tensors that require gradients);
- ``hybridize-drop``: the statement ``net.hybridize(...)`` goes (a PyTorch module runs as it
  is; ``torch.compile`` is a choice, not a translation); ``set-np-drop``: ``npx.set_np()``
  goes (MXNet's NumPy semantics, which tensors have);
- ``block-to-module`` (with ``hybrid-forward``): a class on Gluon's Block whose every MXNet
  construct the first pass rewrote gets ``torch.nn.Module`` as its base, and its
  ``hybrid_forward(self, F, x)`` becomes ``forward(self, x)``; ``f-helper``: a function its
  hybrid_forward passes F to (``get_distance(F, x)``) loses that parameter, and the calls
  that argument;
- then every ``mxnet`` import statement none of whose names the draft uses any more goes
  (found with the standard library's parser: a whole statement, on lines of its own).

LibCST is the library made for this: it keeps comments, blank lines and layout byte for byte
outside what a transform touches, and re-indents a block's body when it moves out of the
``with``. It is an optional dependency (``pip install 'sidebyside[migrate]'``): without it the
first pass writes no handshake, and these statements get a marker instead (:func:`available`).
"""

from __future__ import annotations

import functools
import re

__all__ = ["HANDSHAKE", "available", "apply"]

HANDSHAKE = "# >>>>>> migrate-structure"
#: the rules whose statement goes
_DROPPED = ("hybridize-drop", "set-np-drop")
_HANDSHAKE = re.compile(r"#\s*>>>>>> migrate-structure \[([a-z0-9-]+)(?: (\w+))?\]")


@functools.lru_cache(maxsize=1)
def available() -> bool:
    """Whether LibCST can be imported (the structural rules fire only then)."""
    try:
        import libcst  # noqa: F401
        import libcst.codemod  # noqa: F401
    except ImportError:
        return False
    return True


def comment(rule: str, name: str | None = None) -> str:
    """The handshake the first pass writes above a statement for the rule ``rule`` (with
    ``name``, the parameter an ``f-helper`` loses)."""
    return f"{HANDSHAKE} [{rule}{' ' + name if name else ''}]"


def apply(source: str, original: str | None = None, tree=None) -> tuple[str, list[str]]:
    """The draft with every handshake carried out and the ``mxnet`` imports that nothing in
    it uses removed (with ``original``, the scanned file, only those it used: an import it
    never used is left as it was): (new source, the rules carried out, in order).
    Raises ``RuntimeError`` if a handshake is left that no transform took (a bug: the draft
    is not written). ``tree``: ``ast.parse(source)``, if the caller has it."""
    done: list[str] = []
    if HANDSHAKE in source and available():
        import libcst as cst

        unwrap = _Unwrap()
        lines = source.splitlines(keepends=True)
        parts = []
        for start, end in _top_level_spans(source, tree):   # LibCST only at a handshake
            chunk = "".join(lines[start:end])
            if HANDSHAKE in chunk:
                # a statement above, so that the comments are the next one's leading lines
                # (the first statement's would be the module's header); the chunk's newline
                found = re.search(r"\r\n|\r|\n", chunk)
                anchor = "pass" + (found.group(0) if found else "\n")
                unwrap.own_parameters = "gluon_parameter(" in chunk
                done_chunk = cst.parse_module(anchor + chunk).visit(unwrap).code
                if not done_chunk.startswith("pass"):    # pragma: no cover - a bug here
                    raise RuntimeError("internal error: the structural pass lost its anchor")
                # (a last statement dropped from a file without a final newline: "pass" alone)
                chunk = done_chunk[len(anchor):] if done_chunk.startswith(anchor) else ""
            parts.append(chunk)
        source = "".join(parts)
        done = unwrap.done
        tree = None
    left = _HANDSHAKE.search(source)
    if left:
        raise RuntimeError(f"internal error: the structural rule {left.group(1)} was not "
                           "carried out; the draft is not written")
    return _drop_unused_imports(source, original, tree), done


def _top_level_spans(source: str, tree=None) -> list[tuple[int, int]]:
    """The module cut into runs of lines ``[start, end)`` (0-based), one per top-level
    statement with the comments and blank lines above it (statements sharing a line stay in
    one run), and the lines after the last: each parses alone, and a handshake comment is in
    the run of the statement below it. LibCST's parse is the slow part of a draft (a few
    thousand lines per second): it reads only the runs that hold a handshake."""
    import ast

    spans: list[list[int]] = []
    end = 0
    for stmt in (tree or ast.parse(source)).body:
        if spans and stmt.lineno <= end:           # on the line the last one ends on
            spans[-1][1] = end = max(end, stmt.end_lineno or stmt.lineno)
            continue
        spans.append([end, stmt.end_lineno or stmt.lineno])
        end = spans[-1][1]
    total = len(source.splitlines(keepends=True))
    if end < total:
        spans.append([end, total])
    return [(a, b) for a, b in spans]


def _drop_unused_imports(source: str, original: str | None, tree=None) -> str:
    """``source`` without the ``mxnet`` import statements none of whose names it uses (a
    statement on lines of its own; one that binds a name still used stays whole). The
    standard library's parser suffices: a whole statement goes, its lines with it
    (``tree``: ``ast.parse(source)``, if the caller has it)."""
    import ast

    if not re.search(r"^[ \t]*(import|from)[ \t]+mxnet\b", source, re.M):
        return source        # no statement of its own imports mxnet: nothing to drop
    tree = tree or ast.parse(source)
    nodes: list = []
    used = _global_loads(tree, nodes)
    before = _names_used(original) if original is not None else None
    lines = source.splitlines(keepends=True)
    drop: set[int] = set()
    top, nested = {id(stmt) for stmt in tree.body}, 0
    for node in nodes:
        if isinstance(node, ast.Import):
            mods = [a.name for a in node.names]
            bound = [a.asname or a.name.split(".")[0] for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            mods = [node.module]
            bound = [a.asname or a.name for a in node.names]
        else:
            continue
        if not all(m == "mxnet" or m.startswith("mxnet.") for m in mods) or "*" in bound:
            continue
        if any(b in used for b in bound) or (before is not None
                                            and not any(b in before for b in bound)):
            continue
        first, last = node.lineno, node.end_lineno or node.lineno
        text = "".join(lines[first - 1:last]).strip()
        if ";" in text or not text.startswith(("import", "from")):
            continue  # shares its line with another statement: left as it is
        drop.update(range(first, last + 1))
        nested += id(node) not in top
    if not drop:
        return source
    out = "".join(line for i, line in enumerate(lines, 1) if i not in drop)
    if nested == 0:
        return out        # only the module's own statements: no block is left empty
    try:
        ast.parse(out)
    except SyntaxError:   # the import was a block's only statement: keep it
        return source
    return out


def _global_loads(tree, imports: list | None = None) -> set[str]:
    """The names ``tree`` reads that can be the module's own: a name a function reads where
    it (or a function around it) binds that name locally is that function's, not the
    module's (a helper's local ``image`` does not keep ``from ... import image``).
    Comprehension targets and a nested class's body bind nothing in the function around
    them; a name declared ``global`` is the module's. One walk of the tree (``imports``,
    if given, receives its import statements)."""
    import ast

    functions = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
    comprehensions = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
    # per scope (0: the module): the scope around it, what it binds, what it declares
    # global, what it reads
    parent, binds, globals_, loads = [0], [set()], [set()], [set()]
    stack: list[tuple[ast.AST, int, bool]] = [(tree, 0, True)]
    while stack:
        node, scope, binding = stack.pop()
        if isinstance(node, functions):
            a = node.args
            outer = list(a.defaults) + [d for d in a.kw_defaults if d is not None]
            outer += [p.annotation for p in a.posonlyargs + a.args + a.kwonlyargs
                      + [a.vararg, a.kwarg] if p is not None and p.annotation is not None]
            if not isinstance(node, ast.Lambda):
                outer += node.decorator_list + ([node.returns] if node.returns else [])
                if binding:
                    binds[scope].add(node.name)
            stack.extend((n, scope, binding) for n in outer)
            inner = len(parent)
            parent.append(scope)
            binds.append({p.arg for p in a.posonlyargs + a.args + a.kwonlyargs
                          + [a.vararg, a.kwarg] if p is not None})
            globals_.append(set())
            loads.append(set())
            body = node.body if isinstance(node.body, list) else [node.body]
            stack.extend((n, inner, True) for n in body)
            continue
        if isinstance(node, ast.ClassDef):
            if binding:
                binds[scope].add(node.name)
            stack.extend((n, scope, binding) for n in
                         node.decorator_list + node.bases + node.keywords)
            stack.extend((n, scope, False) for n in node.body)   # the class's, not ours
            continue
        if isinstance(node, comprehensions):
            stack.extend((n, scope, False) for n in ast.iter_child_nodes(node))
            continue
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Load):
                loads[scope].add(node.id)
            elif binding:
                binds[scope].add(node.id)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            if imports is not None:
                imports.append(node)
            if binding:
                binds[scope].update((al.asname or al.name).split(".")[0]
                                    for al in node.names if al.name != "*")
            continue
        if isinstance(node, ast.Global):
            globals_[scope].update(node.names)
        elif binding and isinstance(node, ast.ExceptHandler) and node.name:
            binds[scope].add(node.name)
        elif binding and isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            binds[scope].add(node.name)
        elif binding and isinstance(node, ast.MatchMapping) and node.rest:
            binds[scope].add(node.rest)
        stack.extend((n, scope, binding) for n in ast.iter_child_nodes(node))
    used = set(loads[0])
    for scope in range(1, len(parent)):
        shadow: set[str] = set()
        up = scope
        while up:                     # the functions around it, not the module
            shadow |= binds[up] - globals_[up]
            up = parent[up]
        used |= {n for n in loads[scope] if n in globals_[scope] or n not in shadow}
    return used


def _names_used(source: str) -> set[str]:
    """The names ``source`` reads (``mx`` in ``mx.nd.zeros``)."""
    import ast

    return {n.id for n in ast.walk(ast.parse(source))
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _handshake_rule(lines) -> tuple[str | None, list]:
    """The rule of the handshake among a statement's leading lines, and the lines without it."""
    rule, _, kept = _handshake(lines)
    return rule, kept


def _handshake(lines) -> tuple[str | None, str | None, list]:
    """(the rule of the handshake among a statement's leading lines, its name if it has one,
    the lines without it)."""
    rule, name, kept = None, None, []
    for line in lines:
        m = _HANDSHAKE.match(line.comment.value) if line.comment is not None else None
        if m and rule is None:
            rule, name = m.group(1), m.group(2)
        else:
            kept.append(line)
    return rule, name, kept


def _without_argument(node, name: str):
    """``node`` with every call in it passed ``name`` as a positional argument no longer
    passing it (the F a function of ``f-helper`` loses)."""
    import libcst as cst

    class Drop(cst.CSTTransformer):
        def leave_Call(self, original, updated):
            args = [a for a in updated.args if not (
                a.keyword is None and not a.star and isinstance(a.value, cst.Name)
                and a.value.value == name)]
            if len(args) == len(updated.args):
                return updated
            if args and args[-1].comma is not cst.MaybeSentinel.DEFAULT \
                    and updated.args[-1].comma is cst.MaybeSentinel.DEFAULT:
                args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
            return updated.with_changes(args=args)

    return node.visit(Drop())


def _without_parameter(fn, name: str):
    """The function ``fn`` without its parameter ``name``."""
    import libcst as cst

    params = [p for p in fn.params.params if p.name.value != name]
    if params and params[-1].comma is not cst.MaybeSentinel.DEFAULT \
            and fn.params.params[-1].comma is cst.MaybeSentinel.DEFAULT:
        params[-1] = params[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return fn.with_changes(params=fn.params.with_changes(params=params))


def _body_statements(body):
    """A ``with``'s body as statements of a block (a one-line suite made into lines)."""
    import libcst as cst

    if isinstance(body, cst.SimpleStatementSuite):
        return [cst.SimpleStatementLine(body=[s.with_changes(semicolon=cst.MaybeSentinel.DEFAULT)
                                              for s in body.body])]
    return list(body.body)


def _own_parameters(cls) -> set[str]:
    """The attributes a class's ``__init__`` sets to ``gluon_parameter(...)`` (the draft of
    ``self.params.get``), anywhere in its body."""
    import libcst as cst

    found: set[str] = set()

    class Finder(cst.CSTVisitor):
        def visit_Assign(self, node):
            target = node.targets[0].target if len(node.targets) == 1 else None
            call = node.value
            if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) \
                    and target.value.value == "self" and isinstance(call, cst.Call) \
                    and isinstance(call.func, cst.Name) and call.func.value == "gluon_parameter":
                found.add(target.attr.value)

    for stmt in cls.body.body:
        if isinstance(stmt, cst.FunctionDef) and stmt.name.value == "__init__":
            stmt.visit(Finder())
    return found


def _is_docstring(stmt) -> bool:
    import libcst as cst

    return isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 \
        and isinstance(stmt.body[0], cst.Expr) \
        and isinstance(stmt.body[0].value, (cst.SimpleString, cst.ConcatenatedString))


def _unwrap_class():
    import libcst as cst

    class Unwrap(cst.CSTTransformer):
        """Carries out the handshakes: a ``with`` becomes its body, a statement goes."""

        def __init__(self):
            super().__init__()
            self.done: list[str] = []
            self.own_parameters = True   # whether the chunk may set gluon_parameter()s

        def leave_With(self, original, updated):
            rule, kept = _handshake_rule(updated.leading_lines)
            if rule not in ("name-scope-drop", "record-unwrap"):
                return updated
            body = _body_statements(updated.body)
            first = body[0]
            body[0] = first.with_changes(leading_lines=[*kept, *first.leading_lines])
            self.done.append(rule)
            return cst.FlattenSentinel(body)

        def leave_ClassDef(self, original, updated):
            rule, kept = _handshake_rule(updated.leading_lines)
            if rule != "block-to-module":
                return updated
            base = updated.bases[0].with_changes(value=cst.parse_expression("torch.nn.Module"))
            own = _own_parameters(updated) if self.own_parameters else set()
            body = []
            for stmt in updated.body.body:
                if isinstance(stmt, cst.FunctionDef) and stmt.name.value == "hybrid_forward":
                    params = list(stmt.params.params)
                    # F: every use of it was rewritten, or passes it to a function that
                    # loses it too (f-helper): those calls pass it no more
                    stmt = _without_argument(stmt, params[1].name.value)
                    params = list(stmt.params.params)
                    del params[1]
                    # the block's own parameters, which Gluon passes by name: its attributes
                    taken = [p.name.value for p in params[2:] if p.name.value in own]
                    params = [p for p in params if p.name.value not in taken]
                    if params and params[-1].comma is not cst.MaybeSentinel.DEFAULT:
                        params[-1] = params[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
                    stmt = stmt.with_changes(name=cst.Name("forward"),
                                             params=stmt.params.with_changes(params=params))
                    if taken:
                        lines = [cst.parse_statement(f"{n} = self.{n}\n") for n in taken]
                        inner = list(stmt.body.body)
                        at = 1 if inner and _is_docstring(inner[0]) else 0
                        stmt = stmt.with_changes(body=stmt.body.with_changes(
                            body=inner[:at] + lines + inner[at:]))
                    self.done.append("hybrid-forward")
                body.append(stmt)
            self.done.append(rule)
            return updated.with_changes(leading_lines=kept, bases=[base],
                                        body=updated.body.with_changes(body=body))

        def leave_FunctionDef(self, original, updated):
            rule, name, kept = _handshake(updated.leading_lines)
            if rule != "f-helper" or not name:
                return updated
            self.done.append(rule)
            fn = _without_parameter(_without_argument(updated, name), name)
            return fn.with_changes(leading_lines=kept)

        def _dropped(self, body, module=False):
            """The statements of a block without the dropped ones; the comments above a
            dropped statement move to the next one (or a ``pass`` takes its place; at the end
            of a module they are its footer: ``(statements, footer lines)``)."""
            out, pending = [], []
            for stmt in body:
                rule, kept = _handshake_rule(getattr(stmt, "leading_lines", ()))
                if rule in _DROPPED and isinstance(stmt, cst.SimpleStatementLine):
                    self.done.append(rule)
                    pending += kept
                    continue
                if pending:
                    stmt = stmt.with_changes(leading_lines=[*pending, *stmt.leading_lines])
                    pending = []
                out.append(stmt)
            if module and out:
                return out, pending
            if pending or not out:
                out.append(cst.SimpleStatementLine(body=[cst.Pass()], leading_lines=pending))
            return (out, []) if module else out

        def leave_IndentedBlock(self, original, updated):
            if any(_handshake_rule(getattr(s, "leading_lines", ()))[0] in _DROPPED
                   for s in updated.body):
                return updated.with_changes(body=self._dropped(updated.body))
            return updated

        def leave_Module(self, original, updated):
            if any(_handshake_rule(getattr(s, "leading_lines", ()))[0] in _DROPPED
                   for s in updated.body):
                body, footer = self._dropped(updated.body, module=True)
                return updated.with_changes(body=body, footer=[*footer, *updated.footer])
            return updated
    return Unwrap


def _Unwrap():
    return _unwrap_class()()
