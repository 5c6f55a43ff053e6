#!/usr/bin/env python
"""Fuzz mx2torch's three readers of untrusted files with Hypothesis: ``-symbol.json`` (read and
translated), ``.params`` (NDArray files) and ``Trainer.save_states`` pickles.

Each case is a real file of ``tests/fixtures/mx2torch`` mutated:

- **symbol**: one to three structured edits of a real graph (an attribute set to a value
  such as ``abc``, ``1e309``, ``nan``, ``(1,``, ``-1``, code; an input entry pointing at a
  missing, later or negative node or output; a node deleted or its keys dropped; bad
  ``heads``/``arg_nodes``; an operator renamed; a node name made into code), or the JSON text's
  bytes flipped or cut;
- **params** and **states**: the file's bytes flipped, overwritten with boundary integers
  (``0xFFFFFFFF``, ``2**63``...), cut, repeated or spliced.

A case passes when the reader returns, or refuses with its own error (``SymbolFileError``,
``UnsupportedOperator``, ``NDFileError``, ``OptStateError``) in a message that names the file
or the node; anything else (``ValueError: invalid literal for int()``, ``OverflowError``,
``NameError`` from generated code, ``MemoryError``...) is a *raw error*. A case that takes
over ``SLOW_S`` three times running is a hang.

``make fuzz`` runs ``--cases 10000`` per reader (about 6 min on 2 cores) and prints one line
per reader: cases, raw errors (each distinct one shown once), cases over ``SLOW_S``, the
slowest, and the process's peak memory (``--max-memory``, default 2 GiB: a case that makes a
reader allocate what the file does not hold shows there). ``--keep DIR`` saves each slow case.
``tests/nomxnet/test_fuzz_readers.py`` runs the same properties at CI size. Exit status: 0
when no raw error, no slow case and the peak under ``--max-memory``; 1 otherwise::

    python tools/fuzz_readers.py --cases 2000 --readers symbol
"""

from __future__ import annotations

import argparse
import copy
import json
import pickle
import resource
import sys
import time
import warnings
from functools import lru_cache
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "mx2torch"
GRAPHS = ("cnn", "custom", "detector", "lstm")
SLOW_S = 1.0
MAX_MEMORY_MIB = 2048
READERS = ("symbol", "params", "states")

# attribute values a stranger's file may hold: not numbers, out of range, half a tuple, code
BAD_VALUES = ["abc", "1e309", "-1e309", "nan", "inf", "-inf", "(1,", "(1, 2", ")", "()", "(,)",
              "[]", "{}", "-1", "0", "(0, 0)", "(-1, -1)", "(1.5, 2)", "2.5", "1e9",
              "(100000, 100000)", "99999999999999999999", "(1, 2, 3, 4, 5)", "None",
              "(None, None)", "True", "'x'", "[[1]]", "__import__('os').system('echo pwned')",
              "); import os; (", "\"; import os; #", "\\n", "", " ", "\x00", "1_0", "0x10",
              "(1, 'a')", "{'a': 1}", "float32", "int8", "bool", "relu", "max", "full",
              "ℵ", "1" * 400]
BAD_NAMES = ["", "0", "self", "torch", "def", "x y", "a.b", "__class__", "'; import os; '",
             'x"""\nimport os\nos.system("echo pwned")\n"""', "a\nimport os  # pwned", "a\\",
             "\\\"", "\x00", "\u2028pwned", "¾", "ﬁ", "\n", "fc1", "data", "conv1_weight", "é" * 3, "a" * 300]
BAD_ENTRIES = [None, 1, "a", [], [0], [0, 0, 0, 0], [0.5, 0], ["0", 0], [True, 0], {"a": 1},
               [0, "x"], [0, 0, "x"], [[0], 0]]
BOUNDARY_INTS = [0, 1, 0x7F, 0x80, 0xFF, 0x7FFF, 0xFFFF, 0x7FFFFFFF, 0xFFFFFFFF, 2**31, 2**32,
                 2**62, 2**63 - 1, 2**63, 2**64 - 1, 0x112, 0xF993FAC9, 0xF993FACA]


# ----------------------------------------------------------------------------- the cases
@lru_cache(maxsize=None)
def graph_base(name: str) -> tuple[dict, dict]:
    """A fixture graph (parsed JSON) and its parameters (a dict of numpy arrays)."""
    from sidebyside.mx2torch.ndfile import load_params

    data = json.loads((FIXTURES / "graphs" / f"{name}-symbol.json").read_text())
    return data, load_params(FIXTURES / "graphs" / f"{name}-0000.params")


@lru_cache(maxsize=None)
def file_bytes(reader: str) -> tuple[bytes, ...]:
    """The real files a byte mutation starts from."""
    if reader == "params":
        paths = sorted((FIXTURES / "ndfile").glob("*.params")) + sorted(
            (FIXTURES / "ndfile").glob("*.nd")) + sorted((FIXTURES / "graphs").glob("*.params"))
    else:
        paths = sorted((FIXTURES / "optstate").glob("*.states"))
    return tuple(p.read_bytes() for p in paths)


def _operator_attrs(op: str) -> list[str]:
    from sidebyside.mx2torch.ops import REGISTRY

    spec = REGISTRY.get(op)
    return sorted(spec.attrs) if spec else []


def _value(draw) -> object:
    return draw(st.one_of(st.sampled_from(BAD_VALUES), st.text(max_size=12),
                          st.integers(-2**70, 2**70).map(str),
                          st.floats(allow_nan=True, allow_infinity=True).map(repr)))


def _edit(draw, g: dict) -> None:
    """One structured edit of the graph ``g`` (in place)."""
    nodes = g["nodes"] if isinstance(g.get("nodes"), list) else []
    kind = draw(st.sampled_from(["attr", "attr", "attr", "attrs_type", "input", "input",
                                 "delete", "heads", "arg_nodes", "op", "name", "drop_key",
                                 "top", "swap"]))
    if not nodes:
        kind = "top"
    i = draw(st.integers(0, len(nodes) - 1)) if nodes else 0
    node = nodes[i] if nodes else {}
    if not isinstance(node, dict):
        kind = "top"
    if kind == "attr":
        attrs = node.get("attrs")
        if not isinstance(attrs, dict):
            attrs = node["attrs"] = {}
        keys = sorted(set(attrs) | set(_operator_attrs(str(node.get("op")))))
        key = draw(st.sampled_from(keys)) if keys and draw(st.booleans()) else \
            draw(st.sampled_from(keys + ["__shape__", "__dtype__", "bogus", "a b"]))
        attrs[key] = _value(draw)
    elif kind == "attrs_type":
        node[draw(st.sampled_from(["attrs", "param", "attr"]))] = draw(
            st.sampled_from([[], "x", 1, None, {"kernel": 3}, {"kernel": None}, {"1": [1]}]))
    elif kind == "input":
        inputs = node.get("inputs")
        if not isinstance(inputs, list) or not inputs:
            node["inputs"] = inputs = [[0, 0, 0]]
        j = draw(st.integers(0, len(inputs) - 1))
        n = len(nodes)
        inputs[j] = draw(st.one_of(
            st.sampled_from(BAD_ENTRIES),
            st.tuples(st.integers(-3, n + 3), st.integers(-3, 6), st.integers(-1, 2)).map(list),
            st.tuples(st.integers(0, n), st.sampled_from([2**31, 2**63, 10**30])).map(list)))
        if draw(st.booleans()):
            del inputs[j:j + draw(st.integers(0, 2))]
    elif kind == "delete":
        del nodes[i]
    elif kind == "heads":
        n = len(nodes)
        g["heads"] = draw(st.one_of(
            st.sampled_from([[], None, "x", [[]], [[0]], [["a", 0, 0]], [[0, 0, 0, 0]]]),
            st.lists(st.tuples(st.integers(-2, n + 2), st.integers(-2, 5),
                               st.integers(0, 1)).map(list), max_size=3)))
    elif kind == "arg_nodes":
        g["arg_nodes"] = draw(st.one_of(st.sampled_from([None, "x", [[1]], {}]),
                                        st.lists(st.integers(-3, len(nodes) + 3), max_size=5)))
    elif kind == "op":
        from sidebyside.mx2torch.ops import REGISTRY

        node["op"] = draw(st.one_of(st.sampled_from(sorted(REGISTRY)),
                                    st.sampled_from(["null", "", "Custom", "_foo", 1, None])))
    elif kind == "name":
        node["name"] = draw(st.one_of(st.sampled_from(BAD_NAMES), st.text(max_size=8),
                                      st.sampled_from([1, None, ["a"]])))
    elif kind == "drop_key":
        key = draw(st.sampled_from(["op", "name", "inputs", "attrs"]))
        node.pop(key, None)
    elif kind == "top":
        key = draw(st.sampled_from(["nodes", "heads", "attrs", "arg_nodes"]))
        if draw(st.booleans()):
            g.pop(key, None)
        else:
            g[key] = draw(st.sampled_from([None, [], {}, "x", 0, [None], {"mxnet_version": 1},
                                           {"mxnet_version": ["int", "x"]}]))
    elif kind == "swap" and len(nodes) > 1:
        j = draw(st.integers(0, len(nodes) - 1))
        nodes[i], nodes[j] = nodes[j], nodes[i]


@st.composite
def symbol_cases(draw) -> tuple[str, str]:
    """(graph fixture name, the mutated -symbol.json text)."""
    name = draw(st.sampled_from(GRAPHS))
    g = copy.deepcopy(graph_base(name)[0])
    if draw(st.integers(0, 9)) == 0:        # the text itself: bytes flipped or cut
        raw = bytearray(json.dumps(g).encode())
        return name, _bytes_edit(draw, raw).decode("utf-8", "replace")
    for _ in range(draw(st.integers(1, 3))):
        _edit(draw, g)
    return name, json.dumps(g)


def _bytes_edit(draw, raw: bytearray) -> bytearray:
    for _ in range(draw(st.integers(1, 4))):
        if not raw:
            break
        at = draw(st.integers(0, len(raw) - 1))
        kind = draw(st.sampled_from(["flip", "byte", "int", "int", "cut", "repeat", "insert",
                                     "delete"]))
        if kind == "flip":
            raw[at] ^= 1 << draw(st.integers(0, 7))
        elif kind == "byte":
            raw[at] = draw(st.sampled_from([0, 1, 0x7F, 0x80, 0xFF, ord("("), ord('"')]))
        elif kind == "int":
            width = draw(st.sampled_from([4, 8]))
            value = draw(st.sampled_from(BOUNDARY_INTS)) % (1 << (8 * width))
            raw[at:at + width] = value.to_bytes(width, "little")
        elif kind == "cut":
            del raw[at:]
        elif kind == "repeat":
            raw[at:at] = raw[at:at + draw(st.integers(1, 64))] * draw(st.integers(1, 3))
        elif kind == "insert":
            raw[at:at] = draw(st.binary(min_size=1, max_size=16))
        else:
            del raw[at:at + draw(st.integers(1, 16))]
    return raw


@st.composite
def byte_cases(draw, reader: str) -> bytes:
    bases = file_bytes(reader)
    raw = bytearray(draw(st.sampled_from(bases)))
    if reader == "states" and draw(st.integers(0, 4)) == 0:
        # a pickle that is well formed but holds something else, or asks for a global
        raw = bytearray(pickle.dumps(draw(st.sampled_from([
            None, 1, "x", (1,), ({}, None), ({"a": 1}, None), ({0: [1, 2]}, {"lr": "x"}),
            ({-1: None}, {}), ({0: None}, b"\x00"), ({2**70: None}, {})]))))
    return bytes(_bytes_edit(draw, raw))


# ----------------------------------------------------------------------------- the properties
def _tool_errors() -> tuple[type, ...]:
    from sidebyside.mx2torch.codegen import UnsupportedOperator
    from sidebyside.mx2torch.graph import SymbolFileError
    from sidebyside.mx2torch.ndfile import NDFileError
    from sidebyside.mx2torch.optstate import OptStateError

    return SymbolFileError, UnsupportedOperator, NDFileError, OptStateError


def run_symbol(case: tuple[str, str]) -> str:
    """Read and translate a mutated graph with its fixture's parameters: "ok" or "refused"
    (the tool's own error); anything else propagates."""
    from sidebyside.mx2torch.codegen import translation

    name, text, folder = case
    path = folder / f"{name}-symbol.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    try:
        t = translation(path, dict(graph_base(name)[1]))
    except _tool_errors() as e:
        _one_message(e, str(path), symbol=True)
        return "refused"
    _no_injected_code(t.source)
    return "ok"


_IMPORTS = {"torch", "torch.nn", "torch.nn.functional", "torchvision", "math"}
_BANNED = {"__import__", "exec", "eval", "compile", "open", "os", "sys", "system", "subprocess",
           "getattr", "globals", "locals", "builtins", "pwned"}


def _no_injected_code(source: str) -> None:
    """The generated model.py imports only torch, torchvision and math and names nothing that runs code:
    no attribute value or node name became code (a name holding a line break or \"\"\" must
    stay inside its comment or the docstring)."""
    import ast

    tree = ast.parse(source)
    for n in ast.walk(tree):
        if isinstance(n, (ast.Import, ast.ImportFrom)):
            mods = [a.name for a in n.names] if isinstance(n, ast.Import) else [n.module]
            if not all(m in _IMPORTS or m.startswith("torch.") for m in mods):
                raise RawError(f"the generated code imports {mods}")
        name = n.id if isinstance(n, ast.Name) else n.attr if isinstance(n, ast.Attribute) \
            else None
        if name in _BANNED:
            raise RawError(f"the generated code names {name!r}")


def run_params(data: bytes) -> str:
    from sidebyside.mx2torch.ndfile import loads

    try:
        loads(data, source="fuzz.params")
    except _tool_errors() as e:
        _one_message(e, "fuzz.params")
        return "refused"
    return "ok"


def run_states(data: bytes, folder: Path) -> str:
    from sidebyside.mx2torch.optstate import load_trainer_states

    path = folder / "fuzz.states"
    path.write_bytes(data)
    try:
        load_trainer_states(path)
    except _tool_errors() as e:
        _one_message(e, str(path))
        return "refused"
    return "ok"


def _where(e: BaseException) -> str:
    """The deepest line of our package that the error passed through."""
    import traceback

    frames = [f for f in traceback.extract_tb(e.__traceback__) if "sidebyside" in f.filename]
    return f"{Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else "?"


def warm_up(folder: Path) -> None:
    """Translate each fixture graph once: the imports and first compilations they trigger
    (torch, torchvision, a helper's) are not a case's time."""
    for name in GRAPHS:
        run_symbol((name, json.dumps(graph_base(name)[0]), folder))


class RawError(AssertionError):
    """A reader's refusal that is not one message naming where the problem is."""


def _one_message(e: BaseException, source: str, symbol: bool = False) -> None:
    """The refusal names the file, or (a graph's) the node or parameter that is wrong."""
    text = str(e)
    if not text.strip():
        raise RawError(f"{type(e).__name__} with an empty message")
    if source not in text and not (symbol and ("node" in text or "parameter " in text
                                               or "cannot be built" in text)):
        raise RawError(f"{type(e).__name__} does not name the file or the node: {text!r}")


# ----------------------------------------------------------------------------- the runner
def fuzz(reader: str, cases: int, log=print, keep: Path | None = None) -> dict:
    """Run ``cases`` Hypothesis examples of one reader, collecting every raw error and slow
    case instead of stopping at the first; returns the tallies."""
    import tempfile

    tally = {"reader": reader, "cases": 0, "ok": 0, "refused": 0, "raw": {}, "slow": 0,
             "slowest_s": 0.0}
    folder = Path(tempfile.mkdtemp(prefix="fuzz-readers-"))
    strategy = symbol_cases() if reader == "symbol" else byte_cases(reader)
    # imports torch and compiles once, outside the timings
    _tool_errors()
    if reader == "symbol":
        warm_up(folder)
    elif reader == "params":
        run_params(file_bytes(reader)[0])
    else:
        run_states(file_bytes(reader)[0], folder)

    def attempt(case):
        if reader == "symbol":
            return run_symbol((*case, folder))
        if reader == "params":
            return run_params(case)
        return run_states(case, folder)

    @settings(max_examples=cases, deadline=None, database=None, derandomize=False,
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def one(case):
        t0 = time.perf_counter()
        try:
            outcome = attempt(case)
        except Exception as e:            # noqa: BLE001 - what the run is looking for
            key = f"{type(e).__name__}: {str(e).splitlines()[0][:160] if str(e) else ''}" \
                f" ({_where(e)})"
            if key not in tally["raw"]:
                log(f"  raw error ({reader}): {key}")
            tally["raw"][key] = tally["raw"].get(key, 0) + 1
            outcome = None
        dt = time.perf_counter() - t0
        if dt > SLOW_S and outcome:      # a hang repeats; a pause of the shared machine not
            for _ in range(2):
                t0 = time.perf_counter()
                attempt(case)
                dt = min(dt, time.perf_counter() - t0)
        tally["cases"] += 1
        if outcome:
            tally[outcome] += 1
        tally["slow"] += dt > SLOW_S
        if dt > SLOW_S and keep is not None:
            out = keep / f"slow-{reader}-{tally['cases']}"
            out.write_bytes(case[1].encode("utf-8", "surrogatepass") if reader == "symbol"
                            else case)
        tally["slowest_s"] = max(tally["slowest_s"], dt)

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")       # torch's, on zero-size layers
            one()
    finally:
        for p in folder.iterdir():
            p.unlink()
        folder.rmdir()
    return tally


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--cases", type=int, default=10_000, help="examples per reader "
                                                              "(default %(default)s)")
    p.add_argument("--keep", metavar="DIR", help="write each case over the time limit here")
    p.add_argument("--max-memory", type=int, default=MAX_MEMORY_MIB, metavar="MIB",
                   help="fail when the process's peak memory passes this (default "
                        "%(default)s MiB: torch and the translations need about 1 GiB)")
    p.add_argument("--readers", default=",".join(READERS),
                   help="comma-separated, of: " + ", ".join(READERS))
    args = p.parse_args(argv)
    readers = [r for r in args.readers.split(",") if r]
    bad = [r for r in readers if r not in READERS]
    if bad:
        p.error(f"unknown readers {bad}; known: {', '.join(READERS)}")
    failed = False
    for reader in readers:
        t0 = time.perf_counter()
        tally = fuzz(reader, args.cases, keep=Path(args.keep) if args.keep else None)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        raw = sum(tally["raw"].values())
        print(f"{reader}: {tally['cases']} cases ({tally['ok']} read, {tally['refused']} refused "
              f"with the tool's message), {raw} raw errors ({len(tally['raw'])} distinct), "
              f"{tally['slow']} over {SLOW_S:g} s (slowest {tally['slowest_s']:.3f} s), "
              f"{time.perf_counter() - t0:.0f} s, peak memory {peak:.0f} MiB", flush=True)
        failed |= bool(raw or tally["slow"] or peak > args.max_memory)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
