"""An MXNet symbol file (``-symbol.json``) read into nodes, inputs and attributes, without MXNet.

The format is nnvm's JSON graph, as ``Symbol.tojson()`` writes it (MXNet 1.x:
``src/nnvm/legacy_json_util.cc`` upgrades older files on load; we read the same layouts):

- ``nodes``: a list in topological order, each ``{"op", "name", "inputs", "attrs"}``; ``op`` is
  ``"null"`` for a variable (a data input, a parameter, an auxiliary state). Operator attributes
  are strings (``"(3, 3)"``, ``"True"``, ``"1e-05"``). Files from MXNet ≤ 0.11 keep them under
  ``"param"`` (operator parameters) and ``"attr"`` (user attributes); 1.x files under ``"attrs"``,
  user attributes being the ``__dunder__`` keys (``__shape__``, ``__lr_mult__``, ...).
- ``inputs``: ``[node_id, output_index, version]`` (``version`` 1 marks a mutable input: an
  auxiliary state such as BatchNorm's running mean); older files omit ``version``.
- ``heads``: the graph's outputs, ``[node_id, output_index, version]``.
- ``arg_nodes``: the ids of the variable nodes; ``attrs.mxnet_version``: ``["int", 10901]``.
"""

from __future__ import annotations

import ast
import json
import math
from dataclasses import dataclass, field
from pathlib import Path


class SymbolFileError(ValueError):
    """A ``-symbol.json`` file that cannot be read as an MXNet graph (the message names it)."""


@dataclass
class Node:
    id: int
    op: str                      # "null" for a variable
    name: str
    attrs: dict[str, str]        # operator attributes only (no __dunder__ user attributes)
    user_attrs: dict[str, str]   # __shape__, __dtype__, __init__, __lr_mult__, ...
    inputs: list[tuple[int, int]] = field(default_factory=list)   # (node id, output index)

    @property
    def is_variable(self) -> bool:
        return self.op == "null"


@dataclass
class Graph:
    nodes: list[Node]
    heads: list[tuple[int, int]]
    mxnet_version: int | None
    source: str = "<graph>"

    def consumers(self) -> dict[int, list[int]]:
        """node id -> ids of the nodes that take one of its outputs as an input."""
        out: dict[int, list[int]] = {n.id: [] for n in self.nodes}
        for n in self.nodes:
            for src, _ in n.inputs:
                out[src].append(n.id)
        return out

    def reachable(self) -> list[int]:
        """Ids of the nodes the heads depend on, in graph (topological) order."""
        seen: set[int] = set()
        stack = [h for h, _ in self.heads]
        while stack:
            i = stack.pop()
            if i in seen:
                continue
            seen.add(i)
            stack.extend(src for src, _ in self.nodes[i].inputs)
        return sorted(seen)


def read_symbol(source) -> Graph:
    """Read a ``-symbol.json`` file (a path), or its JSON text, or an already parsed dict."""
    if isinstance(source, dict):
        data, where = source, "<dict>"
    else:
        text = None
        where = "<json text>"
        if isinstance(source, (str, Path)) and not str(source).lstrip().startswith("{"):
            where = str(source)
            try:
                raw = Path(source).read_bytes()
            except (OSError, ValueError) as e:      # ValueError: a NUL in the path
                raise SymbolFileError(f"{where}: cannot read the symbol file "
                                      f"({getattr(e, 'strerror', None) or e})") from None
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                hint = (" (it looks like an NDArray .params file: give the -symbol.json)"
                        if raw[:8] == (0x112).to_bytes(8, "little") else "")
                raise SymbolFileError(f"{where}: not an MXNet symbol file: not UTF-8 text"
                                      f"{hint}") from None
        else:
            text = str(source)
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise SymbolFileError(f"{where}: not an MXNet symbol file: invalid JSON ({e.msg} "
                                  f"at line {e.lineno} column {e.colno})") from None
    if not isinstance(data, dict) or "nodes" not in data or "heads" not in data:
        raise SymbolFileError(f"{where}: not an MXNet symbol file: a JSON object with "
                              "'nodes' and 'heads' was expected")
    raw_nodes = data["nodes"]
    if not isinstance(raw_nodes, list) or not raw_nodes:
        raise SymbolFileError(f"{where}: 'nodes' is empty or not a list")
    nodes = [_node(i, rn, where) for i, rn in enumerate(raw_nodes)]
    raw_heads = data["heads"]
    if not isinstance(raw_heads, list):
        raise SymbolFileError(f"{where}: 'heads' is not a list")
    heads = [_entry(entry, len(nodes), where, "head entry") for entry in raw_heads]
    if not heads:
        raise SymbolFileError(f"{where}: the graph has no outputs ('heads' is empty)")
    version = None
    top = data.get("attrs")
    ver = top.get("mxnet_version") if isinstance(top, dict) else None
    if isinstance(ver, list) and len(ver) == 2 and _is_int(ver[1]) and 0 <= ver[1] < 10**6:
        version = ver[1]
    return Graph(nodes, heads, version, where)


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


# an output index beyond any operator's outputs (MXNet's have a handful; a fused RNN's states)
MAX_OUTPUT_INDEX = 1 << 16


def _entry(entry, below: int, where: str, what: str) -> tuple[int, int]:
    """A ``[node_id, output_index(, version)]`` entry: integers, the node before ``below``."""
    if (not isinstance(entry, list) or len(entry) not in (2, 3)
            or not all(_is_int(x) for x in entry)):
        raise SymbolFileError(f"{where}: bad {what} {entry!r}: [node, output, version] integers "
                              "were expected")
    if not 0 <= entry[0] < below:
        raise SymbolFileError(f"{where}: bad {what} {entry!r}: node {entry[0]} is not "
                              + ("an earlier node (the file is not in topological order)"
                                 if what != "head entry" else "a node of the graph"))
    if not 0 <= entry[1] < MAX_OUTPUT_INDEX:
        raise SymbolFileError(f"{where}: bad {what} {entry!r}: output {entry[1]} does not exist")
    return entry[0], entry[1]


def _node(i: int, rn, where: str) -> Node:
    if not isinstance(rn, dict) or "op" not in rn or "name" not in rn:
        raise SymbolFileError(f"{where}: node {i} has no 'op' or 'name'")
    if not isinstance(rn["op"], str) or not isinstance(rn["name"], str):
        raise SymbolFileError(f"{where}: node {i}: 'op' and 'name' must be strings, not "
                              f"{rn['op']!r} and {rn['name']!r}")
    label = f"node {i} ({rn['name']!r})"
    merged: dict[str, str] = {}
    for key in ("param", "attr", "attrs"):     # old files: param + attr; 1.x: attrs
        part = rn.get(key) or {}
        if not isinstance(part, dict):
            raise SymbolFileError(f"{where}: {label}: '{key}' is not an object")
        for k, v in part.items():
            if not isinstance(v, str):
                raise SymbolFileError(f"{where}: {label}: attribute {k}={v!r} is not a string "
                                      "(MXNet writes every attribute value as text)")
            merged[k] = v
    attrs = {k: v for k, v in merged.items() if not k.startswith("__")}
    user = {k: v for k, v in merged.items() if k.startswith("__")}
    raw_inputs = rn.get("inputs", [])
    if not isinstance(raw_inputs, list):
        raise SymbolFileError(f"{where}: {label}: 'inputs' is not a list")
    inputs = [_entry(e, i, where, f"input entry of {label}") for e in raw_inputs]
    return Node(i, rn["op"], rn["name"], attrs, user, inputs)


# --- attribute values, as MXNet writes them ---------------------------------------------------

def parse_value(text: str):
    """An attribute string as a Python value: ``"(3, 3)"`` → (3, 3), ``"True"`` → True,
    ``"None"`` → None, ``"1e-05"`` → 1e-05, ``"relu"`` → "relu".

    >>> parse_value("(3, 3)"), parse_value("[1,2]"), parse_value("False"), parse_value("0.9")
    ((3, 3), (1, 2), False, 0.9)
    >>> parse_value("(None, 2)"), parse_value("inf"), parse_value("float32")
    ((None, 2), inf, 'float32')
    """
    s = text.strip()
    low = s.lower()
    if low in ("true", "false"):
        return low == "true"
    if low == "none":
        return None
    if low in ("inf", "+inf", "-inf", "nan"):
        return float(low)
    try:
        value = ast.literal_eval(s)
    except (ValueError, SyntaxError):
        return s
    if isinstance(value, list):
        value = tuple(value)
    return value


def as_tuple(value) -> tuple:
    if value is None:
        return ()
    if isinstance(value, tuple):
        return value
    return (value,)


def is_finite(x) -> bool:
    return isinstance(x, (int, float)) and math.isfinite(x)
