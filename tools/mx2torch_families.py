"""Translate GluonCV and GluonNLP models of every family with ``sidebyside.mx2torch`` and prove
each: detectors, segmenters, pose, video, BERT and transformers (the model-zoo classifiers are
``tools/mx2torch_sweep.py``'s).

For each model, in two child processes:

1. **MXNet side** (``import torch`` made to fail, as GluonCV 0.10.5 needs beside torch ≥ 2):
   the model is built with ``pretrained=False`` (no download works), its weights drawn at
   random (He-scaled weights, BatchNorm gamma 1 ± 0.25 and beta, means and biases
   N(0, 0.1²)); every Gluon BatchNorm then gets the running statistics of what reaches it in
   one forward on the test input (pre-hooks), so that deep random nets stay O(1), as trained
   ones do, instead of overflowing. It is hybridized and ``export()``ed; MXNet's float32 and
   float64 outputs of every node are saved (``sidebyside.mxreference``; float64 runs the
   graph with its float32 constants cast, and is skipped where MXNet has no float64 kernel:
   the interleaved attention of BERT).
2. **Translation** (``import mxnet`` made to fail): the files are translated, every output
   and every node compared with MXNet's (float32: ``|Δ| ≤ 1e-6 + 1e-4·max|ref|``; float64:
   1e-12 + 1e-7, or ``FLOAT32_KERNEL_RTOL`` below a kernel MXNet computes in float32), then
   the module tried with ``torch.jit.trace``, ``torch.export.export`` (a dynamic batch, and
   sequence length for NLP), ``torch.compile`` and ``torch.jit.script``; each deployed form's
   outputs are compared with the module's own.

Needs GluonCV 0.10.5.post0 and GluonNLP 0.10.0 importable beside MXNet: ``make gluon-zoo``
installs them into ``build/gluon-zoo`` (with GluonNLP's Cython tokenizer stubbed: models do not
need it). ``make mx2torch-families`` runs everything (about 40 min on 2 cores) into
``benchmarks/results/mx2torch_families.json``::

    .venv/bin/python tools/mx2torch_families.py --models center_net_resnet18_v1b_voc --out /tmp/f.json
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "results" / "mx2torch_families.json"
ZOO = Path(os.environ.get("GLUON_ZOO", ROOT / "build" / "gluon-zoo"))
SCHEMA = "mx2torch-families/1"

PROPOSALS = 300     # Mask R-CNN's test-time proposals here (GluonCV's default: 1000)

# name -> (family, input shape or "nlp", float64 in MXNet?)
MODELS = {
    "yolo3_darknet53_voc": ("detection", (1, 3, 416, 416), True),
    "yolo3_mobilenet1.0_coco": ("detection", (1, 3, 416, 416), True),
    "ssd_512_resnet50_v1_voc": ("detection", (1, 3, 512, 512), True),
    "ssd_300_vgg16_atrous_voc": ("detection", (1, 3, 300, 300), True),
    "faster_rcnn_resnet50_v1b_voc": ("detection", (1, 3, 480, 480), True),
    "mask_rcnn_resnet50_v1b_coco": ("instance segmentation (300 proposals)", (1, 3, 480, 480),
                                    True),
    "center_net_resnet18_v1b_voc": ("detection", (1, 3, 512, 512), True),
    "fcn_resnet50_voc": ("segmentation", (1, 3, 480, 480), True),
    "deeplab_resnet50_ade": ("segmentation", (1, 3, 480, 480), True),
    "psp_resnet50_ade": ("segmentation", (1, 3, 480, 480), True),
    "simple_pose_resnet18_v1b": ("pose", (1, 3, 256, 192), True),
    "alpha_pose_resnet101_v1b_coco": ("pose", (1, 3, 320, 256), True),
    "i3d_resnet50_v1_kinetics400": ("video", (1, 3, 8, 112, 112), True),
    "mobilenetv3_large": ("classification", (1, 3, 224, 224), True),
    "resnest50": ("classification", (1, 3, 224, 224), True),
    "se_resnext50_32x4d": ("classification", (1, 3, 224, 224), True),
    "inceptionv3": ("classification", (1, 3, 299, 299), True),
    "resnet50_v1": ("classification", (1, 3, 224, 224), True),
    "resnet50_v1b": ("classification", (1, 3, 224, 224), True),
    "bert_12_768_12": ("NLP encoder", "nlp", False),
    "roberta_12_768_12": ("NLP encoder", "nlp", False),
    "transformer_encoder": ("NLP encoder", "nlp", True),
}
NLP_BATCH, NLP_LEN, VOCAB = 2, 16, 1000
TOL = {"float32": (1e-4, 1e-6), "float64": (1e-7, 1e-12)}


# ------------------------------------------------------------------ the MXNet side (child)
def _randomise(net, rng, mx):
    for name, p in net.collect_params().items():
        shape = p.shape
        if name.endswith("weight") and len(shape) >= 2:
            v = rng.standard_normal(shape) * np.sqrt(2.0 / int(np.prod(shape[1:])))
        elif name.endswith("gamma"):
            v = rng.uniform(0.75, 1.25, shape)
        elif name.endswith(("beta", "bias", "running_mean")):
            v = rng.normal(0, 0.1, shape)
        elif name.endswith("running_var"):
            v = rng.uniform(0.5, 2.0, shape)
        else:
            continue                    # anchors, offsets, position tables: the model's own
        p.set_data(mx.nd.array(v, dtype=p.dtype))


def _calibrate(net, inputs, mx):
    """Each Gluon BatchNorm's running mean and variance from what reaches it (pre-hooks)."""
    from mxnet.gluon import nn

    hooks = []

    def pre(block, args):
        a = args[0]
        if a.size // a.shape[1] < 16:       # too few values per channel (a pooled 1 x 1 map
            return                          # of one image): keep the random statistics
        axes = tuple(i for i in range(a.ndim) if i != 1)
        mean = a.mean(axis=axes)
        block.running_mean.set_data(mean)
        shape = [1] * a.ndim
        shape[1] = -1
        block.running_var.set_data(((a - mean.reshape(shape)) ** 2).mean(axis=axes) + 1e-3)

    def walk(b):
        if isinstance(b, nn.BatchNorm):
            hooks.append(b.register_forward_pre_hook(pre))
        for c in b._children.values():
            walk(c)

    walk(net)
    net(*inputs)
    for h in hooks:
        h.detach()
    return len(hooks)


def _calibrate_symbol_batchnorms(sym_path, params_path, inputs, mx) -> int:
    """The same for BatchNorm nodes built with the symbol API inside a Gluon model (SSD's extra
    layers: their statistics are moving_mean / moving_var, out of reach of the pre-hooks):
    each one's input computed by MXNet from the exported graph, in graph order."""
    sym = mx.sym.load(str(sym_path))
    raw = mx.nd.load(str(params_path))
    nodes = json.loads(sym.tojson())["nodes"]
    todo = [n for n in nodes if n["op"] == "BatchNorm" and
            any(nodes[i[0]]["name"].endswith("moving_mean") for i in n["inputs"])]
    internals = sym.get_internals()
    outputs = internals.list_outputs()
    feeds = {k: mx.nd.array(v) for k, v in inputs.items()}
    for node in todo:
        src = nodes[node["inputs"][0][0]]["name"]
        key = next((o for o in outputs if o == f"{src}_output" or o == f"{src}_output0"), None)
        if key is None:
            continue
        head = internals[key]
        arg = {k[4:]: v for k, v in raw.items() if k.startswith("arg:")}
        aux = {k[4:]: v for k, v in raw.items() if k.startswith("aux:")}
        args = {k: arg[k] if k in arg else feeds[k] for k in head.list_arguments()}
        a = head.bind(mx.cpu(), args, aux_states={k: aux[k] for k in
                                                  head.list_auxiliary_states()}).forward()[0]
        axes = tuple(i for i in range(a.ndim) if i != 1)
        mean = a.mean(axis=axes)
        shape = [1] * a.ndim
        shape[1] = -1
        var = ((a - mean.reshape(shape)) ** 2).mean(axis=axes) + 1e-3
        mean_name, var_name = (nodes[i[0]]["name"] for i in node["inputs"][3:5])
        raw[f"aux:{mean_name}"], raw[f"aux:{var_name}"] = mean, var
    mx.nd.save(str(params_path), raw)
    return len(todo)


def _build(name, rng, mx):
    if name in ("bert_12_768_12", "roberta_12_768_12", "transformer_encoder"):
        import gluonnlp as nlp

        ids = rng.integers(5, VOCAB, (NLP_BATCH, NLP_LEN)).astype(np.float32)
        lengths = np.array([NLP_LEN, NLP_LEN // 2 + 1], dtype=np.float32)
        if name == "transformer_encoder":
            from gluonnlp.model.transformer import TransformerEncoder

            net = TransformerEncoder(num_layers=2, units=64, hidden_size=128, num_heads=4,
                                     prefix="encoder_")
            net.initialize(mx.init.Normal(0.1))
            x = rng.standard_normal((NLP_BATCH, NLP_LEN, 64)).astype(np.float32)
            return net, {"data0": x, "data1": lengths}, lambda a: net(a[0], None, a[1])
        vocab = nlp.vocab.BERTVocab(nlp.data.count_tokens([f"w{i}" for i in range(VOCAB)]))
        if name == "bert_12_768_12":
            net, _ = nlp.model.get_model(name, dataset_name=None, vocab=vocab, pretrained=False,
                                         use_pooler=True, use_decoder=False,
                                         use_classifier=False)
            segments = (rng.uniform(size=ids.shape) > 0.5).astype(np.float32)
            net.initialize(mx.init.Normal(0.02))
            return (net, {"data0": ids, "data1": segments, "data2": lengths},
                    lambda a: net(*a))
        net, _ = nlp.model.get_model(name, dataset_name=None, vocab=vocab, pretrained=False,
                                     use_decoder=False, use_classifier=False)
        net.initialize(mx.init.Normal(0.02))
        return net, {"data0": ids, "data1": lengths}, lambda a: net(*a)
    from gluoncv import model_zoo

    shape = MODELS[name][1]
    kw = {"pretrained": False}
    if MODELS[name][0] not in ("classification",) or name == "resnest50":
        kw["pretrained_base"] = False
    if name == "resnest50":
        kw.pop("pretrained_base")
    net = model_zoo.get_model(name, **kw)
    if name == "mask_rcnn_resnet50_v1b_coco":
        # GluonCV's 1000 test proposals: every node's reference in float32 and float64 (the
        # ResNet stage on 1000 ROIs) does not fit in 23 GiB; 300, as its Faster R-CNN's
        net._rpn_test_post_nms = net.rpn._test_post_nms = PROPOSALS
        net._rcnn_max_dets = min(net._rcnn_max_dets, PROPOSALS)
    net.initialize()
    x = rng.standard_normal(shape).astype(np.float32)
    return net, {"data": x}, lambda a: net(*a)


def child_export(name: str, folder: Path, internals: bool = True) -> dict:
    """Export ``name`` into ``folder`` and save MXNet's references beside it: every node's, in
    float32 and float64, or (``internals=False``) its outputs alone."""
    sys.modules["torch"] = None            # GluonCV 0.10.5 refuses torch >= 2 beside it
    if MODELS[name][0] == "video":         # oneDNN's eager 3-D convolutions fail in 1.9.1
        os.environ["MXNET_MKLDNN_ENABLED"] = "0"    # ("Check failed: to.IsDefaultData()")
    sys.path.insert(0, str(ZOO))
    import warnings

    warnings.filterwarnings("ignore")
    import mxnet as mx

    from sidebyside import mxreference

    rng = np.random.default_rng(0)
    mx.random.seed(0)
    t0 = time.perf_counter()
    net, inputs, call = _build(name, rng, mx)
    arrays = [mx.nd.array(v) for v in inputs.values()]
    call(arrays)                                            # deferred shapes
    _randomise(net, rng, mx)
    n_bn = _calibrate(net, arrays, mx) if MODELS[name][1] != "nlp" else 0
    net.hybridize()
    call(arrays)
    net.export(str(folder / name))
    sym, params = folder / f"{name}-symbol.json", folder / f"{name}-0000.params"
    n_bn += _calibrate_symbol_batchnorms(sym, params, inputs, mx)
    rec = {"export_s": time.perf_counter() - t0, "batchnorm_calibrated": n_bn}
    for dtype in ("float32", "float64"):
        if dtype == "float64" and not MODELS[name][2]:
            continue
        feed = {k: v.astype(np.float64) if dtype == "float64" else v for k, v in inputs.items()}
        ref = mxreference.reference(sym, params, feed, internals=internals,
                                    dtype=None if dtype == "float32" else dtype)
        np.savez(folder / f"{name}-{dtype}.npz", **feed, **ref)
        del ref                 # before the float64 run: a Mask R-CNN's hold gigabytes
    graph = json.loads(sym.read_text())
    rec["graph_nodes"] = sum(n["op"] != "null" for n in graph["nodes"])
    rec["parameters"] = sum(int(np.prod(p.shape)) for p in net.collect_params().values())
    return rec


# ------------------------------------------------------------------ the translation (child)
DRIFT_FACTOR = 4      # float32: the gap may reach this many times the frameworks' own drift


def _taps(tm, t, data, dtype) -> dict:
    """Every node's output (MXNet's keys: output<i>, node:<name>, node:<name>[i]) of the tapped
    module run in ``dtype`` on ``data``."""
    import torch

    tm.to(getattr(torch, dtype))
    with torch.no_grad():
        out, taps = tm(*[torch.from_numpy(np.asarray(data[n])) for n in t.inputs])
    got = {f"output{i}": o for i, o in enumerate(out if isinstance(out, tuple) else (out,))}
    for name, value in taps.items():
        if isinstance(value, (tuple, list)):
            got.update({f"node:{name}[{i}]": v for i, v in enumerate(value)})
            got.setdefault(f"node:{name}", value[0])
        else:
            got[f"node:{name}"] = value
    return {k: v.detach().numpy() for k, v in got.items()}


def _compare(t, sym, params, d32, d64) -> dict:
    """Every output and node against MXNet's. float64: within TOL (FLOAT32_KERNEL_RTOL below
    a kernel MXNet computes in float32). float32: within TOL, or within DRIFT_FACTOR times the
    larger of the two frameworks' own float32-vs-float64 drift at that node (the yardstick
    when float32 summation order alone moves a node, e.g. after a BatchNorm of a channel that
    barely varies), where MXNet has a float64 run."""
    from sidebyside.mx2torch import codegen, report
    from sidebyside.mx2torch.graph import read_symbol
    from sidebyside.mx2torch.ops import FLOAT32_KERNEL_RTOL

    graph = read_symbol(sym)
    region = report.float32_region(graph)
    heads = [graph.nodes[h].name for h, _ in graph.heads]
    tm = codegen.tapped(t, sym, params)
    ours = {}
    if d64 is not None:
        ours["float64"] = _taps(tm, t, d64, "float64")
    ours["float32"] = _taps(tm, t, d32, "float32")
    rec = {}
    for dtype, data in (("float64", d64), ("float32", d32)):
        if data is None:
            continue
        rtol, atol = TOL[dtype]
        ok, worst, nodes, first, by_drift = True, 0.0, 0, None, 0
        for key, got in ours[dtype].items():
            if key not in data.files:
                continue
            ref = data[key]
            if got.shape != ref.shape:
                continue
            name = key[5:].split("[")[0] if key.startswith("node:") else \
                heads[int(key[6:])] if int(key[6:]) < len(heads) else ""
            d, m = report.difference(got, ref)
            bound = atol + (FLOAT32_KERNEL_RTOL if dtype == "float64" and name in region
                            else rtol) * m
            good = d <= bound
            if not good and dtype == "float32" and d64 is not None and key in d64.files:
                drift = max(report.difference(ref, d64[key])[0],
                            report.difference(got, ours["float64"][key])[0])
                good = d <= DRIFT_FACTOR * drift
                by_drift += good
            nodes += key.startswith("node:")
            if key.startswith("output"):
                worst = max(worst, d / m if m else d)
            if not good and first is None:
                first = f"{key} ({d:.3g} at {m:.3g})"
            ok &= good
        rec[dtype] = {"ok": bool(ok), "max_rel": worst, "nodes": nodes, "first_bad": first}
        if dtype == "float64":
            rec[dtype]["loosened"] = len(region)
        else:
            rec[dtype]["within_drift"] = by_drift
    return rec


def _deploy(t, data, nlp: bool) -> dict:
    """trace, export (dynamic batch; and sequence for NLP), compile, script: 'ok' when the
    deployed form runs and equals the module (float32), else the first line of the error."""
    import torch

    module = t.module.float()
    args = tuple(torch.from_numpy(np.asarray(data[n], dtype=data[n].dtype)) for n in t.inputs)
    dynamic = True
    if args[0].shape[0] == 1:                   # a batch of 2: a dynamic batch cannot be 1
        two = tuple(torch.cat([a, a.flip(0) * 0.5 if a.is_floating_point() else a])
                    for a in args)
        try:
            with torch.no_grad():
                module(*two)
            args = two
        except Exception:                       # noqa: BLE001 - a graph made for batch 1
            dynamic = False
    with torch.no_grad():
        ref = module(*args)
    ref = ref if isinstance(ref, tuple) else (ref,)

    def same(out):
        out = out if isinstance(out, tuple) else (out,)
        return all(torch.equal(torch.nan_to_num(a), torch.nan_to_num(b)) or
                   float((a.double() - b.double()).abs().max()) <= 1e-4 * max(
                       1.0, float(b.double().abs().max())) for a, b in zip(out, ref))

    res = {}
    for what in ("trace", "export", "compile", "script"):
        t0 = time.perf_counter()
        try:
            with torch.no_grad():
                if what == "trace":
                    m = torch.jit.trace(module, args, check_trace=False)
                elif what == "export":
                    batch = torch.export.Dim("batch", min=2, max=64)
                    seq = torch.export.Dim("seq", min=2, max=512)
                    dyn = tuple({0: batch, 1: seq} if nlp and a.dim() >= 2 and
                                a.shape[1] == NLP_LEN else {0: batch} for a in args)
                    m = torch.export.export(module, args,
                                            dynamic_shapes=dyn if dynamic else None).module()
                elif what == "compile":
                    torch._dynamo.reset()
                    m = torch.compile(module)
                else:
                    m = torch.jit.script(module)
                out = m(*args)
            res[what] = ("ok" if dynamic or what != "export" else "ok (batch 1 only)") \
                if same(out) else "runs, outputs differ"
        except Exception as e:                  # noqa: BLE001 - the report names it
            res[what] = f"{type(e).__name__}: {str(e).splitlines()[0][:160]}"
        res[f"{what}_s"] = round(time.perf_counter() - t0, 1)
    return res


def child_translate(name: str, folder: Path) -> dict:
    sys.modules["mxnet"] = None             # the translator never needs MXNet
    import torch

    from sidebyside.mx2torch import codegen

    torch.manual_seed(0)
    sym, params = folder / f"{name}-symbol.json", folder / f"{name}-0000.params"
    t0 = time.perf_counter()
    t = codegen.translation(sym, params)
    rec = {"translate_s": time.perf_counter() - t0, "translated_nodes": len(t.nodes),
           "inputs": t.inputs}
    # the references are read one array at a time (a Faster R-CNN's nodes hold gigabytes)
    d32 = np.load(folder / f"{name}-float32.npz")
    p64 = folder / f"{name}-float64.npz"
    rec.update(_compare(t, sym, params, d32, np.load(p64) if p64.exists() else None))
    rec["deploy"] = _deploy(t, {k: d32[k] for k in t.inputs}, MODELS[name][1] == "nlp")
    return rec


# ------------------------------------------------------------------------------ parent
def _child(kind: str, name: str, folder: Path, timeout: int, script: str = __file__) -> dict:
    """Run ``script --child kind name folder`` (this file's children by default) and return
    the JSON record it prints last, or ``{"error": ...}``."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(ROOT / "src"), str(ZOO), os.environ.get("PYTHONPATH", "")]))
    r = subprocess.run([sys.executable, str(script), "--child", kind, name, str(folder)],
                       capture_output=True, text=True, timeout=timeout, env=env)
    lines = [ln for ln in r.stdout.splitlines() if ln.startswith("{")]
    if r.returncode in (-9, 137):
        why = ": every node's reference in float32 and float64" if kind in (
            "export", "translate") else ""
        return {"error": f"the {kind} child was killed (out of memory{why})"}
    if r.returncode != 0 or not lines:
        errors = [ln for ln in r.stderr.strip().splitlines() if "Error" in ln] or \
            r.stderr.strip().splitlines() or ["(no output)"]
        return {"error": f"{kind}: {errors[-1][:400]}"}
    return json.loads(lines[-1])


def run(models, work: Path, timeout: int = 1800, log=print) -> list[dict]:
    records = []
    for k, name in enumerate(models, 1):
        folder = Path(tempfile.mkdtemp(prefix=f"family-{name}-", dir=work))
        rec = {"name": name, "family": MODELS[name][0]}
        t0 = time.perf_counter()
        rec["export"] = _child("export", name, folder, timeout)
        if "error" not in rec["export"]:
            rec["translation"] = _child("translate", name, folder, timeout)
        rec["seconds"] = round(time.perf_counter() - t0, 1)
        tr = rec.get("translation", {})
        rec["passed"] = "error" not in rec["export"] and "error" not in tr and all(
            tr.get(d, {"ok": True})["ok"] for d in ("float32", "float64")) and "float32" in tr
        log(f"[{k}/{len(models)}] {name}: {'ok' if rec['passed'] else 'FAILED'} "
            f"({rec['seconds']:.0f} s) "
            f"{json.dumps({k: v for k, v in tr.items() if k in ('float32', 'float64')})[:300]}"
            f"{rec['export'].get('error', '') or tr.get('error', '')}")
        for p in folder.iterdir():
            p.unlink()
        folder.rmdir()
        records.append(rec)
    return records


def cpu_name() -> str:
    return next((ln.split(":", 1)[1].strip() for ln in Path("/proc/cpuinfo").read_text()
                 .splitlines() if ln.startswith("model name")), platform.processor())


def stub_tokenizer(package: Path) -> None:
    """GluonNLP 0.10.0's BERT tokenizer is a Cython extension that only a compiler builds; the
    models never call it: a pure-Python stand-in that raises if they did."""
    (package / "data" / "fast_bert_tokenizer.py").write_text(
        '"""Stand-in for the Cython tokenizer (tools/mx2torch_families.py): models only."""\n\n'
        "def _absent(*args, **kwargs):\n"
        "    raise NotImplementedError('the Cython BERT tokenizer is not built here')\n\n\n"
        "is_control = is_punctuation = is_whitespace = _absent\n\n\n"
        "class BasicTokenizer:\n    __init__ = _absent\n\n\n"
        "class WordpieceTokenizer(BasicTokenizer):\n    pass\n")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--stub-tokenizer", metavar="GLUONNLP_DIR", help=argparse.SUPPRESS)
    p.add_argument("--models", help="comma-separated names (default: all of MODELS)")
    p.add_argument("--out", default=str(OUT))
    p.add_argument("--update", action="store_true",
                   help="replace only these models' records in --out (a rerun of a few)")
    p.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.stub_tokenizer:
        stub_tokenizer(Path(args.stub_tokenizer))
        return 0
    if args.child:
        kind, name, folder = args.child
        children = {"export": child_export, "translate": child_translate,
                    "export-outputs": lambda n, f: child_export(n, f, internals=False)}
        rec = children[kind](name, Path(folder))
        print(json.dumps(rec, default=float))
        return 0
    if not (ZOO / "gluoncv").is_dir():
        p.error(f"GluonCV is not in {ZOO}: run `make gluon-zoo` (or set GLUON_ZOO)")
    models = args.models.split(",") if args.models else list(MODELS)
    unknown = [m for m in models if m not in MODELS]
    if unknown:
        p.error(f"unknown models {unknown}; known: {', '.join(MODELS)}")
    if args.update and not Path(args.out).exists():
        p.error(f"--update: {args.out} does not exist")
    with tempfile.TemporaryDirectory(prefix="families-") as work:
        records = run(models, Path(work))
    if args.update:
        new = {r["name"]: r for r in records}
        old = json.loads(Path(args.out).read_text())["models"]
        records = [new.pop(r["name"], r) for r in old] + list(new.values())
    out = {"schema": SCHEMA, "date": datetime.date.today().isoformat(),
           "machine": f"{cpu_name()}, {os.cpu_count()} cores", "models": records,
           "passed": sum(r["passed"] for r in records), "total": len(records)}
    Path(args.out).write_text(json.dumps(out, indent=1, default=float) + "\n")
    print(f"{out['passed']} of {out['total']} pass; wrote {args.out}")
    return 0 if out["passed"] == out["total"] else 1


if __name__ == "__main__":
    sys.exit(main())
