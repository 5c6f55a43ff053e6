"""Translate every MXNet 1.9.1 model-zoo network with ``sidebyside.mx2torch`` and prove each.

For each name in ``gluon.model_zoo.vision.get_model``'s own list (read from MXNet: an unknown
name raises a ValueError that lists them) the sweep

1. builds the network randomly initialised (Xavier; no download), gives every BatchNorm a
   non-trivial affine part (gamma = 1 ± 0.25, beta ~ N(0, 0.1²)) and non-trivial running
   statistics (three training-mode forwards under ``autograd.record()`` on random batches,
   each followed by ``backward()``: MXNet 1.9.1's BatchNorm updates its running mean and
   variance in the backward pass, a forward alone leaves them at 0 and 1; the input batch
   gets a gradient so that ResNet v2's BatchNorm of the input data moves too),
   hybridizes it, runs it once and ``export()``s it into a temporary folder;
2. translates the exported files with ``codegen.translation`` while ``import mxnet`` is made
   to fail (``sys.modules["mxnet"] = None``): the translator's code path never reaches MXNet;
3. runs the translated module on one random batch (2 × 3 × 224 × 224; 299 for Inception v3)
   and compares its output, element by element, with MXNet's own run of the exported files
   (``sidebyside.mxreference.reference``), in float32 and again in float64 (the module
   ``.double()``, MXNet with ``dtype="float64"``);
4. compares every node too (``report.compare_nodes``, cheap beside the rest; ``--nodes fail``
   only where an output fails its tolerance) and records the first node that parts from MXNet.
   A network passes when its outputs are within the bounds and every compared node is too.

Each export is deleted as soon as it has been used (VGG's parameters are 0.5 GB). The full run
writes ``benchmarks/results/mx2torch_sweep.json``; ``tools/make_mx2torch_page.py`` turns it into
``book/mx2torch.md`` (``make mx2torch-sweep`` runs both)::

    .venv/bin/python tools/mx2torch_sweep.py                 # every network, the JSON above
    .venv/bin/python tools/mx2torch_sweep.py --quick --out /tmp/quick.json
    .venv/bin/python tools/mx2torch_sweep.py --models resnet18_v1,alexnet --out /tmp/two.json
"""
from __future__ import annotations

import argparse
import contextlib
import datetime
import gc
import json
import os
import platform
import shutil
import sys
import tempfile
import time
import zlib
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "results" / "mx2torch_sweep.json"
SCHEMA = "mx2torch-sweep/1"

# Pass when max|Δ| / max|ref| of the final output is at most this (see the page for why).
TOL = {"float32": 1e-4, "float64": 1e-9}
# the per-node report, run when an output fails: the same relative bound, a tiny floor
NODE_ATOL = {"float32": 1e-6, "float64": 1e-12}

# one network of each family: alexnet, densenet, inception, mobilenet v1 and v2, resnet v1
# and v2, squeezenet, vgg (with BatchNorm)
QUICK = ["alexnet", "densenet121", "inceptionv3", "mobilenet0.25", "mobilenetv2_0.25",
         "resnet18_v1", "resnet18_v2", "squeezenet1.1", "vgg11_bn"]
BATCH = 2
TRAIN_STEPS = 3


def available_models() -> list[str]:
    """The names ``get_model`` accepts, as MXNet itself lists them."""
    from mxnet.gluon.model_zoo import vision

    try:
        vision.get_model("?")
    except ValueError as e:
        lines = str(e).splitlines()[1:]
        return [ln.strip() for ln in lines if ln.strip()]
    raise RuntimeError("get_model('?') did not raise: cannot read the model list")


def image_size(name: str) -> int:
    return 299 if name.startswith("inception") else 224


@contextlib.contextmanager
def mxnet_blocked():
    """``import mxnet`` (and of any of its submodules) raises ImportError inside the block."""
    saved = {k: v for k, v in sys.modules.items() if k == "mxnet" or k.startswith("mxnet.")}
    for k in saved:
        sys.modules[k] = None
    sys.modules["mxnet"] = None
    try:
        yield
    finally:
        for k in [k for k in sys.modules if k == "mxnet" or k.startswith("mxnet.")]:
            del sys.modules[k]
        sys.modules.update(saved)


def _seed(name: str, seed: int) -> int:
    return (zlib.crc32(name.encode()) + 7919 * seed) % 2**31


def build_and_export(name: str, folder: Path, seed: int = 0) -> dict:
    """Build ``name`` with random weights and moved BatchNorm statistics; export it."""
    import mxnet as mx
    from mxnet import autograd
    from mxnet.gluon.model_zoo import vision

    s = _seed(name, seed)
    mx.random.seed(s)
    rng = np.random.default_rng(s)
    size = image_size(name)
    net = vision.get_model(name, pretrained=False)
    net.initialize(mx.init.Xavier())
    batch = lambda: mx.nd.array(rng.standard_normal((BATCH, 3, size, size)),  # noqa: E731
                                dtype="float32")
    net(batch()).wait_to_read()                  # deferred shapes, predict mode: stats untouched
    params = net.collect_params()
    for p in params.values():
        if p.name.endswith("gamma"):
            p.set_data(mx.nd.array(1 + 0.25 * rng.uniform(-1, 1, p.shape)))
        elif p.name.endswith("beta"):
            p.set_data(mx.nd.array(0.1 * rng.standard_normal(p.shape)))
    for _ in range(TRAIN_STEPS):
        x = batch()
        x.attach_grad()         # so that backward reaches a BatchNorm on the input (ResNet v2)
        with autograd.record():                  # training mode
            out = net(x)
        out.backward()                           # MXNet 1.9.1 moves running mean/var here
        out.wait_to_read()
    moved = [p for p in params.values() if p.name.endswith("running_mean")]
    n_moved = sum(bool(np.abs(p.data().asnumpy()).max() > 0) for p in moved)
    if n_moved != len(moved):
        raise RuntimeError(f"{name}: {len(moved) - n_moved} BatchNorm layers kept zero means")
    net.hybridize()
    net(batch()).wait_to_read()
    prefix = folder / name
    net.export(str(prefix))
    learnable = sum(int(np.prod(p.shape)) for p in params.values() if p.grad_req != "null")
    total = sum(int(np.prod(p.shape)) for p in params.values())
    del net
    return {"symbol": folder / f"{name}-symbol.json", "params": folder / f"{name}-0000.params",
            "parameters": learnable, "parameters_with_statistics": total,
            "batchnorm_layers": len(moved), "size": size}


def _gap(ours: np.ndarray, ref: np.ndarray) -> tuple[float, float]:
    """max|ours − ref| and that over max|ref|, elementwise, in float64."""
    if ours.shape != ref.shape:
        raise ValueError(f"output shape {ours.shape}, MXNet's {ref.shape}")
    d = float(np.abs(ours.astype(np.float64) - ref.astype(np.float64)).max())
    m = float(np.abs(ref.astype(np.float64)).max())
    return d, (d / m if m > 0 else (0.0 if d == 0 else float("inf")))


def check_one(name: str, work: Path, seed: int = 0, *, nodes: str = "always", log=print,
              mutate=None) -> dict:
    """Export, translate and compare one network; return its record (see the module doc).

    ``nodes="always"`` runs the per-node report in both precisions whatever the outputs say.
    ``mutate(translation, tapped)``, for tests, may damage both modules before the comparison.
    """
    import torch

    from sidebyside import mxreference
    from sidebyside.mx2torch import codegen, report

    rec: dict = {"name": name}
    times: dict = {}
    folder = Path(tempfile.mkdtemp(prefix=f"sweep-{name}-", dir=work))
    try:
        t0 = time.perf_counter()
        e = build_and_export(name, folder, seed)
        times["build_export_s"] = time.perf_counter() - t0
        rec.update({k: e[k] for k in ("parameters", "parameters_with_statistics",
                                      "batchnorm_layers")})
        rec["input_shape"] = [BATCH, 3, e["size"], e["size"]]
        rng = np.random.default_rng(_seed(name, seed) + 1)
        x = rng.standard_normal(rec["input_shape"]).astype(np.float32)

        t0 = time.perf_counter()
        with mxnet_blocked():
            t = codegen.translation(e["symbol"], e["params"])
        times["translate_s"] = time.perf_counter() - t0
        rec["translate_s"] = times["translate_s"]
        tm = None
        if nodes == "always":
            t0 = time.perf_counter()
            with mxnet_blocked():
                tm = codegen.tapped(t, e["symbol"], e["params"])
            times["tapped_s"] = time.perf_counter() - t0
        rec["nodes"] = len(t.nodes)
        if len(t.inputs) != 1:
            raise ValueError(f"{name}: inputs {t.inputs}, expected one")
        if mutate is not None:
            tm = tm or codegen.tapped(t, e["symbol"], e["params"])
            mutate(t, tm)

        outputs = {}
        for dtype in ("float32", "float64"):
            xd = x.astype(dtype)
            module = t.module.to(getattr(torch, dtype))
            t0 = time.perf_counter()
            with torch.no_grad():
                ours = module(torch.from_numpy(xd))
            ours = (ours[0] if isinstance(ours, (tuple, list)) else ours).numpy()
            times[f"torch_{dtype}_s"] = time.perf_counter() - t0
            t0 = time.perf_counter()
            ref = mxreference.reference(e["symbol"], e["params"], {t.inputs[0]: xd},
                                        internals=True,
                                        dtype=None if dtype == "float32" else dtype)
            times[f"mxnet_{dtype}_s"] = time.perf_counter() - t0
            d, r = _gap(ours, ref["output0"])
            ok = bool(np.isfinite(r) and r <= TOL[dtype])
            rec[dtype] = {"max_abs_diff": d, "relative": r,
                          "max_abs_ref": float(np.abs(ref["output0"]).max()), "ok": ok}
            outputs[dtype] = (ours, ref["output0"])
            if not ok or nodes == "always":
                if tm is None:
                    with mxnet_blocked():
                        tm = codegen.tapped(t, e["symbol"], e["params"])
                t0 = time.perf_counter()
                rep = report.compare_nodes(t, tm, {t.inputs[0]: xd}, ref,
                                           rtol=TOL[dtype], atol=NODE_ATOL[dtype])
                times[f"nodes_{dtype}_s"] = time.perf_counter() - t0
                bad = rep.first_failure
                rec[dtype]["nodes_compared"] = len(rep.rows)
                rec[dtype]["first_failure"] = None if bad is None else {
                    "node": bad.node, "op": bad.op, "max_abs_diff": bad.max_abs_diff,
                    "max_abs_ref": bad.max_abs_ref, "why": bad.why}
                rec[dtype]["report"] = rep.lines()
                if not ok:
                    log("\n".join(rep.lines()))
            del ref
            gc.collect()
        # each framework's own float32 drift (its float32 run against its float64 run): the
        # yardstick the cross-framework float32 gap is read against
        rec["drift32"] = {"torch": _gap(outputs["float32"][0], outputs["float64"][0])[1],
                          "mxnet": _gap(outputs["float32"][1], outputs["float64"][1])[1]}
        # a pass needs the outputs within bounds and, where the nodes were compared, every
        # node too: a wrong eps in one BatchNorm can move its node by 1e-3 of its range and
        # the output by less than 1e-9 (tests/test_mx2torch_sweep.py)
        rec["ok"] = all(rec[d]["ok"] and rec[d].get("first_failure") is None
                        for d in ("float32", "float64"))
        rec["error"] = None
    except Exception as exc:  # noqa: BLE001 (a failing network is a row, not the end of the sweep)
        rec["ok"] = False
        rec["error"] = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
        log(f"{name}: {rec['error']}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        gc.collect()
    rec["seconds"] = {k: round(v, 3) for k, v in times.items()}
    rec["total_s"] = round(sum(times.values()), 3)
    return rec


def _machine() -> dict:
    from sidebyside import threads

    model = None
    try:
        model = next((ln.split(":", 1)[1].strip() for ln in
                      Path("/proc/cpuinfo").read_text().splitlines()
                      if ln.startswith("model name")), None)
    except OSError:
        pass
    return {"cpu_model": model or platform.processor() or platform.machine(),
            "logical_cpus": os.cpu_count(), "cpus_available": threads.available_cpus(),
            "platform": platform.platform(terse=True), "python": platform.python_version()}


def sweep(models: list[str], *, seed: int = 0, nodes: str = "always", log=print,
          mode: str = "custom") -> dict:
    """Check every network in ``models``; the whole run as a JSON-ready dict."""
    import mxnet as mx
    import torch

    from sidebyside import threads

    known = available_models()
    unknown = [m for m in models if m not in known]
    if unknown:
        raise ValueError(f"unknown model(s) {', '.join(unknown)}: get_model knows "
                         f"{', '.join(known)}")
    th = threads.restore()
    started = time.perf_counter()
    rows = []
    with tempfile.TemporaryDirectory(prefix="mx2torch-sweep-") as work:
        for i, name in enumerate(models, 1):
            rec = check_one(name, Path(work), seed, nodes=nodes, log=log)
            rows.append(rec)
            f32, f64 = rec.get("float32", {}), rec.get("float64", {})
            log(f"[{i}/{len(models)}] {name:<18} {'ok  ' if rec['ok'] else 'FAIL'} "
                f"params {rec.get('parameters', 0):>11,}  translate "
                f"{rec.get('translate_s', float('nan')):6.2f} s  "
                f"f32 rel {f32.get('relative', float('nan')):.2e}  "
                f"f64 rel {f64.get('relative', float('nan')):.2e}  "
                f"({rec['total_s']:.1f} s)")
    return {
        "schema": SCHEMA, "mode": mode,
        "created": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "versions": {"mxnet": mx.__version__, "torch": torch.__version__.split("+")[0],
                     "numpy": np.__version__},
        "machine": _machine(),
        "threads": {"torch": th.torch, "mxnet": th.mxnet, "cpus": th.cpus},
        "settings": {"batch": BATCH, "train_steps": TRAIN_STEPS, "seed": seed, "nodes": nodes,
                     "tolerance_relative": TOL, "node_atol": NODE_ATOL},
        "models_known": known,
        "total_s": round(time.perf_counter() - started, 1),
        "passed": sum(r["ok"] for r in rows), "failed": sum(not r["ok"] for r in rows),
        "results": rows,
    }


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    g = p.add_mutually_exclusive_group()
    g.add_argument("--models", help="comma-separated names (default: every model-zoo network)")
    g.add_argument("--quick", action="store_true", help="one network per family: "
                   + ", ".join(QUICK))
    p.add_argument("--out", type=Path, default=OUT, help="the JSON to write (default: %(default)s)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--nodes", choices=("fail", "always"), default="always",
                   help="run the per-node report in both precisions always (default) or only "
                        "where an output fails")
    args = p.parse_args(argv)
    if args.quick:
        models, mode = list(QUICK), "quick"
    elif args.models:
        models, mode = [m.strip() for m in args.models.split(",") if m.strip()], "custom"
    else:
        models, mode = available_models(), "full"
    try:
        result = sweep(models, seed=args.seed, nodes=args.nodes, mode=mode,
                       log=lambda s: print(s, flush=True))
    except ValueError as e:
        print(f"mx2torch_sweep: {e}", file=sys.stderr)
        return 1
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}: {result['passed']} passed, {result['failed']} failed, "
          f"{result['total_s']:.0f} s")
    return 0 if result["failed"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
