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
            except OSError as e:
                raise SymbolFileError(f"{where}: cannot read the symbol file ({e.strerror})") from None
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
    nodes = []
    for i, rn in enumerate(raw_nodes):
        if not isinstance(rn, dict) or "op" not in rn or "name" not in rn:
            raise SymbolFileError(f"{where}: node {i} has no 'op' or 'name'")
        merged: dict[str, str] = {}
        for key in ("param", "attr", "attrs"):     # old files: param + attr; 1.x: attrs
            part = rn.get(key) or {}
            if not isinstance(part, dict):
                raise SymbolFileError(f"{where}: node {i} ({rn['name']}): '{key}' is not an object")
            merged.update({str(k): str(v) for k, v in part.items()})
        attrs = {k: v for k, v in merged.items() if not k.startswith("__")}
        user = {k: v for k, v in merged.items() if k.startswith("__")}
        inputs = []
        for entry in rn.get("inputs", []):
            if (not isinstance(entry, list) or len(entry) not in (2, 3)
                    or not all(isinstance(x, int) for x in entry)):
                raise SymbolFileError(f"{where}: node {i} ({rn['name']}): bad input entry {entry!r}")
            if not 0 <= entry[0] < i:
                raise SymbolFileError(f"{where}: node {i} ({rn['name']}): input {entry[0]} is not "
                                      "an earlier node (the file is not in topological order)")
            inputs.append((entry[0], entry[1]))
        nodes.append(Node(i, str(rn["op"]), str(rn["name"]), attrs, user, inputs))
    heads = []
    for entry in data["heads"]:
        if not isinstance(entry, list) or len(entry) not in (2, 3) or not 0 <= entry[0] < len(nodes):
            raise SymbolFileError(f"{where}: bad head entry {entry!r}")
        heads.append((entry[0], entry[1]))
    if not heads:
        raise SymbolFileError(f"{where}: the graph has no outputs ('heads' is empty)")
    version = None
    ver = (data.get("attrs") or {}).get("mxnet_version")
    if isinstance(ver, list) and len(ver) == 2:
        try:
            version = int(ver[1])
        except (TypeError, ValueError):
            version = None
    return Graph(nodes, heads, version, where)


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
