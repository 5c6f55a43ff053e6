"""Drafts proven where they can be: each Gluon Block class that the draft turned into an
``nn.Module`` is built in both frameworks, the Gluon block's weights (drawn at random, the
running statistics included) are copied into the module in order, and the two forward
outputs are compared in float64.

``python -m sidebyside.migrate --prove`` calls :func:`prove_report`; it needs MXNet 1.x and
PyTorch in the Python that runs it (the scan itself needs neither). Each file's blocks are
proven in a child process with a time limit: the child executes the script's imports,
constant assignments, functions and classes (nothing else: no training, no argument
parsing), once as written and once as drafted. A block is built without arguments, or with
the literal arguments of the first call the script makes to it. Its input is the first of
:data:`INPUTS` that the Gluon block accepts.

A block is ``proven`` when every output agrees within :data:`RTOL` (relative) and
:data:`ATOL` in float64; ``differs`` says by how much, or which side failed; ``not built``
says why (arguments it needs, an import that fails, no input shape it accepts, parameters
that do not line up in order and shape).
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from dataclasses import asdict, dataclass

__all__ = ["INPUTS", "Proof", "available", "blocks_of", "definitions", "prove_file",
           "prove_report"]

PROVEN, DIFFERS, NOT_BUILT = "proven", "differs", "not built"
#: float64 on both sides: a port differs by rounding only (MXNet 1.9.1 computes a few float64
#: operators in float32, e.g. LeakyReLU's forward: 1e-7 at most); a wrong port, by much more
RTOL, ATOL = 1e-6, 1e-9
#: the inputs tried, in order: images, flat features, sequences, volumes (batch 2)
INPUTS = ((2, 3, 32, 32), (2, 1, 28, 28), (2, 3, 224, 224), (2, 784), (2, 16), (2, 8, 16),
          (2, 3, 8, 16, 16))
TIMEOUT = 120


@dataclass
class Proof:
    block: str                      # the class name
    status: str                     # PROVEN, DIFFERS or NOT_BUILT
    detail: str                     # why, or by how much
    input_shape: list | None = None
    max_abs: float | None = None    # the largest |torch - gluon| over every output
    args: str = ""                  # the arguments it was built with, as written


def available() -> str | None:
    """None if MXNet and PyTorch can both be imported here, else what is missing."""
    import importlib.util

    missing = [m for m in ("mxnet", "torch") if importlib.util.find_spec(m) is None]
    return None if not missing else f"{' and '.join(missing)} cannot be imported"


def _plain(node: ast.AST) -> bool:
    """An expression that calls nothing (a constant, a container of them, an alias)."""
    return not any(isinstance(n, (ast.Call, ast.Await, ast.Yield, ast.YieldFrom,
                                  ast.NamedExpr)) for n in ast.walk(node))


def _definition(stmt: ast.stmt) -> bool:
    if isinstance(stmt, (ast.Import, ast.ImportFrom, ast.ClassDef, ast.FunctionDef,
                         ast.AsyncFunctionDef, ast.Pass)):
        return True
    if isinstance(stmt, ast.Assign):
        return _plain(stmt.value)
    if isinstance(stmt, ast.AnnAssign):
        return stmt.value is None or _plain(stmt.value)
    if isinstance(stmt, ast.Try):   # try: import a / except ImportError: import b
        return all(_definition(s) for s in [*stmt.body, *stmt.orelse, *stmt.finalbody,
                                            *(s for h in stmt.handlers for s in h.body)])
    return False


def definitions(source: str) -> str:
    """The module's top-level imports, constant assignments, functions and classes: what
    defines its blocks, without what runs (a training loop, argument parsing, a main)."""
    tree = ast.parse(source)
    tree.body = [s for s in tree.body if _definition(s)]
    return ast.unparse(tree)


def _literal_call(call: ast.Call) -> tuple[list, dict, str] | None:
    try:
        args = [ast.literal_eval(a) for a in call.args]
        kwargs = {k.arg: ast.literal_eval(k.value) for k in call.keywords}
    except (ValueError, TypeError, SyntaxError):
        return None
    if any(k is None for k in kwargs):
        return None
    return args, kwargs, "(" + ", ".join(
        [ast.unparse(a) for a in call.args]
        + [f"{k.arg}={ast.unparse(k.value)}" for k in call.keywords]) + ")"


def blocks_of(source: str, rewritten) -> list[dict]:
    """The classes the draft turned into modules (``rewritten``: the draft's (line, rule)
    pairs, ``block-to-module`` at a class's line), each with the literal arguments of the
    first call the script makes to it (none if it makes none, or none with literals)."""
    tree = ast.parse(source)
    lines = {line for line, rule in rewritten if rule == "block-to-module"}
    classes = [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.lineno in lines]
    out = []
    for cls in classes:
        calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)
                 and isinstance(n.func, ast.Name) and n.func.id == cls.name]
        first = next((got for got in map(_literal_call, calls) if got is not None), None)
        args, kwargs, text = first if first else ([], {}, "()")
        out.append({"name": cls.name, "args": args, "kwargs": kwargs, "text": text})
    return out


def prove_file(source: str, draft: str, rewritten, folder: str = ".",
               timeout: float = TIMEOUT) -> list[Proof]:
    """Each block of one file proven (see the module's docstring), in a child process."""
    blocks = blocks_of(source, rewritten)
    if not blocks:
        return []
    job = {"source": definitions(source), "draft": definitions(draft),
           "folder": os.path.abspath(folder), "blocks": blocks}
    try:
        done = subprocess.run([sys.executable, "-m", "sidebyside.migrate.prove"],
                              input=json.dumps(job), capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return [Proof(b["name"], NOT_BUILT, f"timed out after {timeout:g} s", args=b["text"])
                for b in blocks]
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["no message"])[-1]
        return [Proof(b["name"], NOT_BUILT, f"the proving process failed: {tail}",
                      args=b["text"]) for b in blocks]
    return [Proof(**p) for p in json.loads(done.stdout)]


def prove_report(rep, timeout: float = TIMEOUT) -> None:
    """Prove the blocks of every analysed file of a :class:`.report.Report` (direction
    torch), setting each :class:`.report.FileReport`'s ``proofs``."""
    from pathlib import Path

    root = Path(rep.root)
    for f in rep.analysed:
        if f.draft is None or f.notebook is not None:
            continue
        folder = (root / f.path).parent if root.is_dir() else root.parent
        f.proofs = prove_file(f.source, f.draft.source, f.draft.rewritten, str(folder),
                              timeout)


# -- the child process: both frameworks imported here only --------------------------------

def _flat(out) -> list:
    if isinstance(out, (list, tuple)):
        return [a for o in out for a in _flat(o)]
    return [out]


def _numpy(x):
    return x.asnumpy() if hasattr(x, "asnumpy") else x.detach().cpu().numpy()


def _gist(err: Exception) -> str:
    """The line of an error that says what went wrong (MXNet's messages open with a C++
    traceback: the line that names the check or the operator)."""
    lines = [ln.strip() for ln in str(err).splitlines() if ln.strip()]
    said = [ln for ln in lines if "Check failed" in ln or ln.startswith(("MXNetError", "Error"))]
    return (said or lines or [""])[-1 if not said else 0][:200]


def _gluon_forward(cls, block, x_np, mx):
    """A Gluon block built, initialised, cast to float64 and given weights drawn at random
    (running variances positive); its outputs for ``x_np``."""
    import numpy as np

    net = cls(*block["args"], **block["kwargs"])
    net.initialize()
    net.cast("float64")
    x = mx.nd.array(x_np, dtype="float64")
    net(x)   # deferred shapes known now
    rng = np.random.default_rng(1)
    for name, p in net.collect_params().items():
        shape = p.data().shape
        low, high = (0.5, 1.5) if name.endswith(("running_var", "moving_var")) else (-0.5, 0.5)
        p.set_data(mx.nd.array(rng.uniform(low, high, shape), dtype="float64"))
    return net, [_numpy(o) for o in _flat(net(x))]


def _prove_one(block, mx_ns, torch_ns) -> dict:
    import mxnet as mx
    import numpy as np
    import torch

    name, args = block["name"], block["text"]

    def result(status, detail, **more):
        return asdict(Proof(name, status, detail, args=args, **more))

    if name not in mx_ns or name not in torch_ns:
        return result(NOT_BUILT, "the class is not defined at the module's top level")
    rng = np.random.default_rng(0)
    errors = []
    for shape in INPUTS:
        x_np = rng.uniform(-1, 1, shape)
        try:
            net, want = _gluon_forward(mx_ns[name], block, x_np, mx)
            break
        except Exception as err:   # noqa: BLE001 - the user's block: any error is an answer
            errors.append(f"{type(err).__name__}: {_gist(err)}")
            if len(errors) == 1 and not isinstance(err, mx.base.MXNetError) \
                    and "shape" not in str(err).lower():
                return result(NOT_BUILT, f"Gluon: {errors[0][:300]}")
    else:
        return result(NOT_BUILT, "no input of the shapes tried ran through the Gluon block "
                                 f"(the first said {errors[0][:200]})")
    try:
        module = torch_ns[name](*block["args"], **block["kwargs"])
        module(torch.tensor(x_np, dtype=torch.float32))   # a lazy layer's sizes
        module = module.double().eval()
    except Exception as err:   # noqa: BLE001
        return result(DIFFERS, f"the draft's module fails on the input Gluon takes: "
                               f"{type(err).__name__}: {err}"[:300], input_shape=list(shape))
    state = {k: v for k, v in module.state_dict().items()
             if not k.endswith("num_batches_tracked")}
    params = list(net.collect_params().items())
    shapes = ([tuple(v.shape) for v in state.values()], [p.data().shape for _, p in params])
    if shapes[0] != shapes[1]:
        return result(NOT_BUILT, f"the parameters do not line up in order and shape: torch "
                                 f"{len(state)} {shapes[0][:4]}…, Gluon {len(params)} "
                                 f"{shapes[1][:4]}…"[:300], input_shape=list(shape))
    with torch.no_grad():
        for tensor, (_, p) in zip(state.values(), params):
            tensor.copy_(torch.from_numpy(p.data().asnumpy()))
        got = [_numpy(o) for o in _flat(module(torch.tensor(x_np, dtype=torch.float64)))]
    if len(got) != len(want) or any(g.shape != w.shape for g, w in zip(got, want)):
        return result(DIFFERS, f"output shapes differ: torch {[g.shape for g in got]}, Gluon "
                               f"{[w.shape for w in want]}", input_shape=list(shape))
    worst = max(float(np.max(np.abs(g - w))) if g.size else 0.0 for g, w in zip(got, want))
    close = all(np.allclose(g, w, rtol=RTOL, atol=ATOL) for g, w in zip(got, want))
    return result(PROVEN if close else DIFFERS,
                  f"float64 outputs {'agree' if close else 'differ'}: max |difference| "
                  f"{worst:.2g} (bound rtol {RTOL:g}, atol {ATOL:g})",
                  input_shape=list(shape), max_abs=worst)


def _child(job: dict) -> list[dict]:
    import warnings

    warnings.filterwarnings("ignore")
    sys.path.insert(0, job["folder"])
    spaces = []
    for key, label in (("source", "the script"), ("draft", "the draft")):
        ns = {"__name__": f"_migrate_{key}", "__file__": os.path.join(job["folder"], "x.py")}
        try:
            exec(compile(job[key], f"<{label}>", "exec"), ns)   # noqa: S102 - the user's code
        except Exception as err:   # noqa: BLE001
            why = f"{label}'s definitions do not run: {type(err).__name__}: {err}"[:300]
            return [asdict(Proof(b["name"], NOT_BUILT, why, args=b["text"]))
                    for b in job["blocks"]]
        spaces.append(ns)
    return [_prove_one(b, *spaces) for b in job["blocks"]]


def _run_child() -> None:
    """The job from stdin, the proofs as JSON on stdout; whatever the script's code or the
    frameworks print goes to stderr."""
    job = json.loads(sys.stdin.read())
    out = os.fdopen(os.dup(1), "w")
    sys.stdout.flush()
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    out.write(json.dumps(_child(job)))
    out.close()


if __name__ == "__main__":
    _run_child()
