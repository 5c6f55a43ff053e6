"""The other road from MXNet to PyTorch, measured on the same models as
``tools/mx2torch_families.py``: MXNet's own ONNX exporter, then ``onnx2torch``, beside
``sidebyside.mx2torch``.

For each model of ``mx2torch_families.MODELS``, in three child processes:

1. **Export** (the families tool's MXNet child, ``--child export-outputs``; ``import torch``
   made to fail, as GluonCV 0.10.5 needs): the model built with ``pretrained=False``, random
   He-scaled weights, each BatchNorm's running statistics set from what reaches it, hybridized
   and ``export()``ed; MXNet's outputs on one random input (token ids and lengths for the
   encoders) saved, in float32 and, where MXNet has the kernels (not BERT's attention), in
   float64. The weights and inputs are the families run's, drawn from the same seed.
2. **ONNX export** (MXNet, no torch): ``mx.onnx.export_model(symbol_file, params_file,
   in_shapes, [np.float32, ...], onnx_file)`` with the input shapes in ``sym.list_inputs()``
   order, twice: at MXNet's default opset and at opset 13. MXNet 1.9.1's ``export_model`` has
   no opset argument: it writes the newest opset the installed ``onnx`` knows (its
   ``onnx.defs.onnx_opset_version()``) and validates the graph with ``onnx.checker``'s default
   context (the same newest opset). Opset 13 is had as with an onnx whose newest opset is 13:
   both answer 13 during the call. Each attempt records the opset written and its time, or the
   exception's type and first line.
3. **PyTorch** (``import mxnet`` made to fail): each ONNX file written is converted with
   ``onnx2torch.convert`` (an exception recorded with the operators onnx2torch has no converter
   for at that opset), put in ``.eval()`` (onnx2torch returns a module in training mode: its
   BatchNorms would use batch statistics) and run on the same input. The same files are
   translated by ``sidebyside.mx2torch`` (``codegen.translation(sym, params).module.float()
   .eval()``). Both are compared with MXNet's float32 outputs alike, output by output:
   ``max|Δ| / max|MXNet's output|``; an output passes at ``|Δ| ≤ 1e-6 + 1e-4·max|ref|`` (the
   families tool's float32 bound) or within ``DRIFT_FACTOR`` times MXNet's own float32 drift
   there (its float32 against its float64 output: the families tool's allowance, taken at the
   outputs, as no node of onnx2torch's module maps to MXNet's). Each file is also run by
   onnxruntime, which tells an exporter's mistake from a converter's. The forwards are timed
   under ``torch.no_grad()`` at ``THREADS`` threads (every core), each module once to warm up
   and then ``REPEATS`` rounds that run each module once, the best kept.

A child that runs past ``TIMEOUT`` seconds is stopped and recorded as such, one killed (out of
memory) likewise. The JSON is rewritten after each model (``"complete": false`` until the
last); ``--resume`` keeps the models it holds and runs the others. ``make mx2torch-onnx-route``
runs every model (about 2 h on 2 cores: with this environment's pure-Python protobuf, reading
and writing ONNX files is slow) into ``benchmarks/results/mx2torch_onnx_route.json``, which
``tools/make_mx2torch_page.py`` renders on book/mx2torch.md. Runs split with ``--models`` (2
processes side by side took about 85 min) are merged by hand into one JSON with
``"processes": 2``; the page then says its seconds are a loaded machine's::

    .venv/bin/python tools/mx2torch_onnx_route.py --models resnet50_v1 --out /tmp/r.json
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from importlib import metadata
from pathlib import Path
from typing import NamedTuple

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
import mx2torch_families as families  # noqa: E402  (tools/mx2torch_families.py)

OUT = ROOT / "benchmarks" / "results" / "mx2torch_onnx_route.json"
SCHEMA = "mx2torch-onnx-route/1"
OPSETS = {"default": None, "13": 13}       # label -> opset forced (None: MXNet's default)
RTOL, ATOL = families.TOL["float32"]
DRIFT_FACTOR = families.DRIFT_FACTOR
THREADS = os.cpu_count() or 1
REPEATS = 3
TIMEOUT = 600
VERSIONS = ("mxnet", "onnx", "onnx2torch", "onnxruntime", "torch")


def _first_line(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[0][:300].strip()}" if text else type(e).__name__


def _files(folder: Path, name: str) -> tuple[Path, Path]:
    return folder / f"{name}-symbol.json", folder / f"{name}-0000.params"


def _onnx_path(folder: Path, name: str, label: str) -> Path:
    return folder / f"{name}-opset-{label}.onnx"


# ------------------------------------------------------------------ ONNX export (MXNet child)
def export_onnx(mx, sym_path: Path, params_path: Path, shapes: list, path: Path,
                opset: int | None) -> dict:
    """One ``mx.onnx.export_model`` call. ``opset`` (``None``: the installed onnx's newest)
    stands in for an onnx whose newest opset it is, in the two places MXNet reads that: the
    opset it writes (``onnx.defs.onnx_opset_version()``) and the one ``onnx.checker`` validates
    the graph against at the end of the export (its default context)."""
    import onnx
    import onnx.checker
    import onnx.defs

    newest, context = onnx.defs.onnx_opset_version, onnx.checker.DEFAULT_CONTEXT
    checked = dict(context.opset_imports)
    rec = {"opset": opset or newest()}
    if opset is not None:
        onnx.defs.onnx_opset_version = lambda: opset
        context.opset_imports = {"": opset}
    t0 = time.perf_counter()
    try:
        mx.onnx.export_model(str(sym_path), str(params_path), shapes,
                             [np.float32] * len(shapes), str(path))
    except Exception as e:                      # noqa: BLE001 - the report names it
        rec["error"] = _first_line(e)
    finally:
        onnx.defs.onnx_opset_version, context.opset_imports = newest, checked
    rec["export_s"] = time.perf_counter() - t0
    if "error" not in rec:
        written = onnx.load(str(path), load_external_data=False)
        rec["opset"] = next(o.version for o in written.opset_import if o.domain in ("", "ai.onnx"))
    return rec


def child_onnx(name: str, folder: Path) -> dict:
    sys.modules["torch"] = None                 # as in the export child: MXNet alone
    import warnings

    warnings.filterwarnings("ignore")
    import mxnet as mx

    sym_path, params_path = _files(folder, name)
    data = np.load(folder / f"{name}-float32.npz")
    inputs = [n for n in mx.sym.load(str(sym_path)).list_inputs() if n in data.files]
    shapes = [data[n].shape for n in inputs]
    return {label: export_onnx(mx, sym_path, params_path, shapes,
                               _onnx_path(folder, name, label), opset)
            for label, opset in OPSETS.items()}


# ---------------------------------------------------------------------- PyTorch child
class Reference(NamedTuple):
    """MXNet's float32 outputs, in order, and its own float32 drift at each (max|Δ| against
    its float64 run; None where MXNet has no float64 kernel)."""
    outputs: list
    drift: list


def reference(folder: Path, name: str) -> Reference:
    from sidebyside.mx2torch.report import difference

    def outputs(path: Path) -> list:
        data = np.load(path)
        keys = sorted((k for k in data.files if k.startswith("output")), key=lambda k: int(k[6:]))
        return [data[k] for k in keys]

    ref = outputs(folder / f"{name}-float32.npz")
    p64 = folder / f"{name}-float64.npz"
    drift = [difference(a, b)[0] for a, b in zip(ref, outputs(p64))] if p64.exists() else \
        [None] * len(ref)
    return Reference(ref, drift)


def accuracy(got: list, ref: Reference) -> dict:
    """Outputs against MXNet's, in order: the largest max|Δ| / max|ref|, and whether every
    output is within ``ATOL + RTOL·max|ref|`` or, failing that, within ``DRIFT_FACTOR`` times
    MXNet's own float32 drift at that output (``within_drift`` counts those; a detector's NMS
    reorders boxes when float32 rounding moves a score). A different count or shape fails."""
    from sidebyside.mx2torch.report import difference

    if len(got) != len(ref.outputs):
        return {"ok": False, "max_rel": None,
                "why": f"{len(got)} outputs, MXNet has {len(ref.outputs)}"}
    ok, worst, by_drift = True, 0.0, 0
    for i, (g, r, drift) in enumerate(zip(got, ref.outputs, ref.drift)):
        g = np.asarray(g)
        if g.shape != r.shape:
            return {"ok": False, "max_rel": None,
                    "why": f"output {i} has shape {list(g.shape)}, MXNet's {list(r.shape)}"}
        d, m = difference(g, r)
        good = d <= ATOL + RTOL * m
        if not good and drift is not None and d <= DRIFT_FACTOR * drift:
            good, by_drift = True, by_drift + 1
        ok &= good
        worst = max(worst, d / m if m else d)
    return {"ok": bool(ok), "max_rel": worst, "within_drift": by_drift}


def _numpy(out) -> list:
    out = out if isinstance(out, (tuple, list)) else (out,)
    return [o.detach().numpy() for o in out]


def time_forwards(modules: dict, args: dict, repeats: int = REPEATS) -> dict:
    """Each module once to warm up, then ``repeats`` rounds running each once: the best time
    of each (rounds interleave the modules, so that a busy moment hurts all alike)."""
    import torch

    best = {}
    with torch.no_grad():
        for key, module in modules.items():
            module(*args[key])
        for _ in range(repeats):
            for key, module in modules.items():
                t0 = time.perf_counter()
                module(*args[key])
                best[key] = min(best.get(key, float("inf")), time.perf_counter() - t0)
    return best


def missing_converters(model) -> list[str]:
    """The operators of ``model`` that onnx2torch has no converter for at its opset."""
    from onnx2torch.node_converters.registry import get_converter

    opsets = {o.domain or "": o.version for o in model.opset_import}
    missing = set()
    for node in model.graph.node:
        domain = node.domain or ""
        try:
            get_converter(node.op_type, opsets.get(domain, opsets.get("", 1)), domain)
        except NotImplementedError:
            missing.add(f"{node.op_type} (opset {opsets.get(domain)})")
    return sorted(missing)


def _onnx_inputs(model) -> list[str]:
    inits = {i.name for i in model.graph.initializer}
    return [i.name for i in model.graph.input if i.name not in inits]


def _onnxruntime(path: Path, feeds: dict, ref: Reference) -> dict:
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.log_severity_level = 3                 # not a warning per initializer listed as input
    try:
        session = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
        return accuracy(session.run(None, feeds), ref)
    except Exception as e:                      # noqa: BLE001 - the report names it
        return {"error": _first_line(e)}


def convert_onnx(path: Path, data, ref: Reference) -> tuple[dict, object, tuple]:
    """onnx2torch on one file: its record, and the module and its inputs (None where it
    failed to convert or to run)."""
    import onnx
    import onnx2torch
    import torch

    model = onnx.load(str(path))
    names = _onnx_inputs(model)
    rec = {"onnxruntime": _onnxruntime(path, {n: data[n] for n in names}, ref)}
    t0 = time.perf_counter()
    try:
        module = onnx2torch.convert(model)
    except Exception as e:                      # noqa: BLE001 - the report names it
        rec.update(convert=_first_line(e), missing_converters=missing_converters(model))
        return rec, None, ()
    rec.update(convert="ok", convert_s=time.perf_counter() - t0,
               training_after_convert=module.training)
    module.eval()
    args = tuple(torch.from_numpy(np.asarray(data[n])) for n in names)
    try:
        with torch.no_grad():
            out = module(*args)
    except Exception as e:                      # noqa: BLE001 - the report names it
        rec["run"] = _first_line(e)
        return rec, None, ()
    rec["run"] = "ok"
    rec.update(accuracy(_numpy(out), ref))
    return rec, module, args


def translate(folder: Path, name: str, data, ref: Reference) -> tuple[dict, object, tuple]:
    """sidebyside.mx2torch on the exported files: its record, and the module and its inputs
    (None where it failed)."""
    import torch

    from sidebyside.mx2torch import codegen

    t0 = time.perf_counter()
    try:
        t = codegen.translation(*_files(folder, name))
        rec = {"translate_s": time.perf_counter() - t0}
        module = t.module.float().eval()
        args = tuple(torch.from_numpy(np.asarray(data[n])) for n in t.inputs)
        with torch.no_grad():
            out = module(*args)
    except Exception as e:                      # noqa: BLE001 - the report names it
        return {"error": _first_line(e)}, None, ()
    rec.update(accuracy(_numpy(out), ref))
    return rec, module, args


def child_torch(name: str, folder: Path) -> dict:
    sys.modules["mxnet"] = None                 # mx2torch never needs it; it drops threads
    import torch

    torch.set_num_threads(THREADS)
    data = np.load(folder / f"{name}-float32.npz")
    ref = reference(folder, name)
    rec, modules, args = {"threads": torch.get_num_threads()}, {}, {}
    for label in ("mx2torch", *OPSETS):
        if label == "mx2torch":
            rec[label], m, a = translate(folder, name, data, ref)
            modules[label], args[label] = m, a
            continue
        path = _onnx_path(folder, name, label)
        if not path.exists():
            continue
        rec[label], modules[label], args[label] = convert_onnx(path, data, ref)
    modules = {k: m for k, m in modules.items() if m is not None}
    for key, seconds in time_forwards(modules, args).items():
        rec[key]["forward_s"] = seconds
    return rec


# ------------------------------------------------------------------------------ parent
def _child(kind: str, name: str, folder: Path, timeout: int) -> dict:
    script = families.__file__ if kind == "export-outputs" else __file__
    try:
        return families._child(kind, name, folder, timeout, script=script)
    except subprocess.TimeoutExpired:
        return {"error": f"the {kind} child ran past {timeout} s and was stopped"}


def _scrub(rec: dict, folder: Path) -> dict:
    """The record with the temporary folder's path taken out of its messages."""
    return json.loads(json.dumps(rec, default=float).replace(str(folder), "<export folder>"))


def run_model(name: str, folder: Path, timeout: int = TIMEOUT) -> dict:
    rec = {"name": name, "family": families.MODELS[name][0], "child_s": {}}
    for key, kind in (("export", "export-outputs"), ("onnx", "onnx"), ("torch", "torch")):
        t0 = time.perf_counter()
        rec[key] = _scrub(_child(kind, name, folder, timeout), folder)
        rec["child_s"][key] = round(time.perf_counter() - t0, 1)
        if "error" in rec["export"]:
            break
    rec["seconds"] = round(sum(rec["child_s"].values()), 1)
    return rec


def carried(rec: dict, label: str) -> bool:
    """The ONNX route at ``label`` gives a PyTorch module whose outputs are MXNet's."""
    route = rec.get("torch", {}).get(label, {})
    return route.get("convert") == "ok" and route.get("run") == "ok" and route.get("ok", False)


def _summary(rec: dict) -> str:
    """One line for the log: each road's outcome, or the first error on it."""
    if "error" in rec["export"]:
        return f"export failed: {rec['export']['error']}"
    parts = [f"{k}: {rec[k]['error']}" for k in ("onnx", "torch") if "error" in rec[k]]
    for key in ("mx2torch", *OPSETS):
        onnx, torch = rec["onnx"].get(key, {}), rec["torch"].get(key, {})
        errors = [onnx.get("error"), torch.get("error"), torch.get("why")] + [
            torch.get(s) for s in ("convert", "run") if torch.get(s, "ok") != "ok"]
        error = next((e for e in errors if e), None)
        if error or torch.get("max_rel") is not None:
            parts.append(f"{key}: {error[:100]}" if error else
                         f"{key}: rel {torch['max_rel']:.1e} "
                         f"{'ok' if torch['ok'] else 'beyond the bound'}")
    return "; ".join(parts)


def run(models, work: Path, timeout: int = TIMEOUT, log=print, save=None,
        records: list | None = None) -> list[dict]:
    """Each model in turn, appended to ``records``; ``save(records)`` after each."""
    records = [] if records is None else records
    for k, name in enumerate(models, 1):
        folder = Path(tempfile.mkdtemp(prefix=f"onnx-route-{name}-", dir=work))
        try:
            records.append(run_model(name, folder, timeout))
        finally:
            shutil.rmtree(folder)
        log(f"[{k}/{len(models)}] {name} ({records[-1]['seconds']:.0f} s): "
            f"{_summary(records[-1])}")
        if save:
            save(records)
    return records


def versions() -> dict:
    return {p: metadata.version(p) for p in VERSIONS}


def default_opset() -> int:
    """The opset MXNet writes by default: the installed onnx's newest."""
    import onnx.defs

    return onnx.defs.onnx_opset_version()


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--models", help="comma-separated names (default: all of "
                                    "mx2torch_families.MODELS)")
    p.add_argument("--out", default=str(OUT), help="the JSON to write (default: %(default)s)")
    p.add_argument("--resume", action="store_true",
                   help="keep the models --out already holds (it is rewritten after each "
                        "model) and run the others")
    p.add_argument("--timeout", type=int, default=TIMEOUT,
                   help=f"seconds a child may run (default {TIMEOUT})")
    p.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        kind, name, folder = args.child
        rec = {"onnx": child_onnx, "torch": child_torch}[kind](name, Path(folder))
        print(json.dumps(rec, default=float))
        return 0
    if not (families.ZOO / "gluoncv").is_dir():
        p.error(f"GluonCV is not in {families.ZOO}: run `make gluon-zoo` (or set GLUON_ZOO)")
    models = args.models.split(",") if args.models else list(families.MODELS)
    unknown = [m for m in models if m not in families.MODELS]
    if unknown:
        p.error(f"unknown models {unknown}; known: {', '.join(families.MODELS)}")
    records = []
    if args.resume and Path(args.out).exists():
        records = [r for r in json.loads(Path(args.out).read_text())["models"]
                   if r["name"] in models]
        print(f"--resume: {len(records)} models already in {args.out}")
    todo = [m for m in models if m not in {r["name"] for r in records}]

    def save(recs: list) -> None:
        out = {"schema": SCHEMA, "date": datetime.date.today().isoformat(),
               "machine": f"{families.cpu_name()}, {os.cpu_count()} cores",
               "versions": versions(), "default_opset": default_opset(), "opsets": OPSETS,
               "threads": THREADS, "repeats": REPEATS, "timeout_s": args.timeout,
               "rtol": RTOL, "atol": ATOL, "drift_factor": DRIFT_FACTOR, "complete": len(recs) == len(models),
               "models": sorted(recs, key=lambda r: models.index(r["name"]))}
        Path(args.out).write_text(json.dumps(out, indent=1, default=float) + "\n")

    with tempfile.TemporaryDirectory(prefix="onnx-route-") as work:
        records = run(todo, Path(work), args.timeout, save=save, records=records)
    save(records)
    counts = {k: sum(carried(r, k) for r in records) for k in OPSETS}
    print(f"ONNX route carries {counts} of {len(records)}; wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
