"""Write book/mx2torch.md: what ``sidebyside.mx2torch`` translates, and the proof that it does.

The page is a pure function of five things: the operator registry
(``sidebyside.mx2torch.ops.coverage_rows()``), the latest model-zoo sweep,
``benchmarks/results/mx2torch_sweep.json`` (written by ``tools/mx2torch_sweep.py``), the
GluonCV/GluonNLP families' run, ``benchmarks/results/mx2torch_families.json``
(``tools/mx2torch_families.py``), the same models through MXNet's ONNX exporter and onnx2torch,
``benchmarks/results/mx2torch_onnx_route.json`` (``tools/mx2torch_onnx_route.py``), and the
speed comparison, ``benchmarks/results/mx2torch_speed.json`` (``tools/mx2torch_speed.py``). Every
number and verdict on it is computed here from those; nothing about the outcome is written by
hand. ``make mx2torch-sweep`` runs the sweep and then this file; ``--check`` exits 1 when the
committed page differs from what would be written (tests/test_mx2torch_sweep.py checks the same).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
import pagegen  # noqa: E402  (tools/pagegen.py)

RESULTS = ROOT / "benchmarks" / "results" / "mx2torch_sweep.json"
OUT = ROOT / "book" / "mx2torch.md"
TARGET = "mx2torch-sweep"
SCHEMA = "mx2torch-sweep/1"


def _esc(text) -> str:
    return str(text).replace("|", "\\|")


def _code_list(names) -> str:
    return ", ".join(f"`{n}`" for n in names) if names else "—"


def _e(x) -> str:
    """A difference in scientific notation, 0 written as 0."""
    if x is None:
        return "—"
    return "0" if x == 0 else f"{x:.1e}"


def _int(n: int) -> str:
    return f"{n:,}".replace(",", "\u2009")


def _s(x) -> str:
    return "—" if x is None else (f"{x:.2f}" if x < 10 else f"{x:.1f}")


def _tol(x: float) -> str:
    """1e-09 written 1e-9."""
    m, _, e = f"{x:.0e}".partition("e")
    return f"{m}e{int(e)}"


def _minutes(s: float) -> str:
    return f"{s:.0f} s ({s / 60:.1f} min)"


# ------------------------------------------------------------------------ coverage
def coverage_section(rows: list[dict]) -> list[str]:
    aliases = sum(len(r["aliases"]) for r in rows)
    lines = ["## Operator coverage", "",
             f"mx2torch translates {len(rows)} MXNet operators ({len(rows) + aliases} names "
             "with their aliases). A node may carry only the attributes its translator honours "
             "(MXNet's default filled in where the file leaves one out) or ignores for a stated "
             "reason (cuDNN tuning, scratch sizes); any other attribute, any unsupported value "
             "and any other operator stops the translation with one `UnsupportedOperator` that "
             "names every such node (grouped by operator, with counts), and nothing is written; "
             "`--outputs NODE ...` translates up to named nodes instead, to keep a backbone "
             "and its heads when post-processing cannot be translated. Each operator is "
             "checked against MXNet's own execution in `tests/test_mx2torch_ops.py`.", "",
             "| operator | aliases | honoured attributes | ignored | notes |",
             "|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| `{r['op']}` | {_code_list(r['aliases'])} | {_code_list(r['attrs'])} | "
                     f"{_code_list(r['ignored'])} | {_esc(r['note']) or '—'} |")
    return lines + [""]


# ------------------------------------------------------------------------ the sweep
def _verdict(r: dict) -> str:
    if r.get("error"):
        return f"**error**: {_esc(r['error'])}"
    if r["ok"]:
        return "pass"
    where = []
    for d in ("float32", "float64"):
        ff = r[d].get("first_failure")
        if not r[d]["ok"] or ff:
            node = f"first node `{_esc(ff['node'])}` ({ff['op']})" if ff else ""
            if r[d]["ok"]:
                where.append(f"{d}: {node}, output within bound")
            else:
                where.append(f"{d} output" + (f"; {node}" if node else ""))
    return "**FAIL** (" + "; ".join(where) + ")"


def _nodes(r: dict) -> str:
    f64 = r.get("float64", {})
    if "nodes_compared" not in f64:
        return "—"
    ff = f64.get("first_failure")
    return f"all {f64['nodes_compared']}" if ff is None else f"differs at `{_esc(ff['node'])}`"


def sweep_section(s: dict) -> list[str]:
    rows = s["results"]
    tol = s["settings"]["tolerance_relative"]
    done = [r for r in rows if not r.get("error")]
    n, passed = len(rows), s["passed"]
    m, v, th = s["machine"], s["versions"], s["threads"]
    lines = ["## The proof: every model-zoo network", ""]
    if s["mode"] != "full":
        lines += [f"This page shows a **{s['mode']}** run of {n} networks, not the full one: "
                  "run `make mx2torch-sweep`.", ""]
    missing = [k for k in s["models_known"] if k not in {r["name"] for r in rows}]
    verdict = (f"**{passed} of {n}** networks of MXNet {v['mxnet']}'s "
               "`gluon.model_zoo.vision` pass in both precisions")
    if missing:
        verdict += f" ({len(missing)} of the {len(s['models_known'])} the zoo lists not run)"
    lines += [verdict + ".", ""]
    if done:
        w32 = max(done, key=lambda r: r["float32"]["relative"])
        w64 = max(done, key=lambda r: r["float64"]["relative"])
        d32 = max(max(r["drift32"].values()) for r in done)
        ratio = max(r["float32"]["relative"] / max(max(r["drift32"].values()), 1e-300)
                    for r in done)
        lines += [
            "### Tolerances, and why these", "",
            "Each row compares the final output element by element (unsorted): "
            "max|Δ| = max|PyTorch − MXNet| and *rel* = max|Δ| / max|MXNet's output|. A network "
            f"passes when rel ≤ {_tol(tol['float64'])} in float64 **and** rel ≤ {_tol(tol['float32'])} "
            "in float32.", "",
            f"- **float64, {_tol(tol['float64'])}.** Both frameworks then compute the same "
            "arithmetic with 53-bit rounding, so the gap is rounding error carried through the "
            f"network: the largest measured is {_e(w64['float64']['relative'])} "
            f"({w64['name']}), more than "
            f"{_ratio(tol['float64'], w64['float64']['relative'])} below the bound. A "
            "swapped pair of channels in one convolution moves the output far beyond it "
            "(tests/test_mx2torch_sweep.py breaks one on purpose and checks that the bound "
            "catches it and the per-node report names that node).",
            f"- **float32, {_tol(tol['float32'])}.** A float32 gap between frameworks is read "
            "against each framework's own float32 drift (its float32 output against its own "
            "float64 output): float32 kernels sum in different orders, and each does so "
            f"differently. The drift reaches {_e(d32)} here; the cross-framework gap reaches "
            f"{_e(w32['float32']['relative'])} ({w32['name']}), and on no network is it more "
            f"than {ratio:.1f}× that network's larger drift. The bound {_tol(tol['float32'])} leaves room for deeper "
            "networks and other CPUs' kernels, and is still far below what a wrong "
            "translation gives (the float64 column is the sharp test).",
            "- **Every node, too.** The output alone can hide a bug: in the same test, "
            "`eps` 100 times too large in one BatchNorm of mobilenetv2_0.25 moves that node "
            "by about 1e-3 of its range and the output by less than 1e-9, because the "
            "layers after it absorb the change. So every node's output is compared as well, "
            "in both precisions (`report.compare_nodes`, the same relative bounds plus "
            f"{_tol(s['settings']['node_atol']['float32'])} absolute in float32, "
            f"{_tol(s['settings']['node_atol']['float64'])} in float64), and a network passes "
            "only when its outputs and all its nodes do. The *nodes agree* column gives the "
            "float64 count, or the first node that parts from MXNet.", ""]
    lines += [
        "### The run", "",
        f"- **Date**: {s['created'][:10]}; **total time** {_minutes(s['total_s'])} for "
        f"{n} networks.",
        f"- **Versions**: MXNet {v['mxnet']}, PyTorch {v['torch']}, numpy {v['numpy']}.",
        f"- **Machine**: {m['cpu_model']}, {m['cpus_available']} CPUs available "
        f"({m['logical_cpus']} logical); **threads**: PyTorch {th['torch']}, MXNet operators "
        f"{th['mxnet']}. Times are wall-clock on a machine that may have had other work.",
        f"- **Networks**: random weights (Xavier), every BatchNorm's gamma and beta "
        f"randomised and its running mean and variance moved by "
        f"{s['settings']['train_steps']} training steps on random batches (forward and "
        "backward: MXNet 1.9.1's BatchNorm updates them in the backward pass), then "
        "`hybridize()` and `export()`. Input: one random normal batch of "
        f"{s['settings']['batch']} images, 224 × 224 (299 × 299 for Inception v3).",
        "- **Translation** (`codegen.translation` of the exported `-symbol.json` and "
        "`.params`) runs with `import mxnet` made to fail; *translate s* is its time: reading "
        "the files, generating `model.py`, compiling it and loading the weights.",
        "- **MXNet's reference**: `sidebyside.mxreference.reference` of the same files "
        "(`is_train=False`, oneDNN graph fusion off), `dtype=\"float64\"` for the float64 "
        "columns.", "",
        "### Every network", "",
        "| network | parameters | nodes | translate s | float32 max\\|Δ\\| | float32 rel | "
        "own float32 drift | float64 max\\|Δ\\| | float64 rel | nodes agree (float64) | "
        "verdict |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"]
    for r in rows:
        if r.get("error"):
            lines.append(f"| {r['name']} | {_int(r.get('parameters', 0))} | — | "
                         f"{_s(r.get('translate_s'))} | — | — | — | — | — | — | {_verdict(r)} |")
            continue
        f32, f64 = r["float32"], r["float64"]
        lines.append(
            f"| {r['name']} | {_int(r['parameters'])} | {r['nodes']} | {_s(r['translate_s'])} | "
            f"{_e(f32['max_abs_diff'])} | {_e(f32['relative'])} | "
            f"{_e(max(r['drift32'].values()))} | {_e(f64['max_abs_diff'])} | "
            f"{_e(f64['relative'])} | {_nodes(r)} | {_verdict(r)} |")
    lines += ["", "*Parameters* are the learnable ones (BatchNorm's running statistics not "
              "counted); *nodes* the operator nodes of the exported graph; *own float32 drift* "
              "the larger of PyTorch's and MXNet's float32-against-float64 drift on that "
              "network.", ""]
    return lines


# ------------------------------------------------------------------ the families sweep
FAMILIES = ROOT / "benchmarks" / "results" / "mx2torch_families.json"


def _deploy_cell(d: dict, what: str) -> str:
    v = d.get(what, "—")
    return v if v.startswith("ok") or v == "—" else f"no: {_esc(v.split(':')[0])}"


def families_section(f: dict) -> list[str]:
    rows = f["models"]
    lines = ["## Detectors, segmenters, pose, video, BERT: GluonCV and GluonNLP", "",
             f"**{f['passed']} of {f['total']}** models of GluonCV 0.10.5 and GluonNLP 0.10.0 "
             "translate without MXNet and agree with MXNet at every node in float32 and "
             "float64 (`make mx2torch-families`, tools/mx2torch_families.py; "
             f"{f['date']}, {_esc(f['machine'])}).", "",
             "Each is built with `pretrained=False` and random weights (He-scaled; BatchNorm "
             "statistics set from what reaches each layer, so that deep random nets stay "
             "O(1)), exported, and run by MXNet on one random input (token ids and lengths "
             "for the encoders). float32 passes at |Δ| ≤ 1e-6 + 1e-4·max|ref| per node, or "
             "within 4 times the larger of the two frameworks' own float32-vs-float64 drift "
             "at that node (*nodes by drift*: a detector's NMS or top-k reorders boxes when "
             "float32 rounding moves a score past another, in MXNet's own float32 run as in "
             "the translation's); "
             "float64 at 1e-12 + 1e-7·max|ref|, except below a kernel MXNet computes in "
             "float32 even in float64 (LeakyReLU, BilinearResize2D: the *float32-kernel "
             "nodes* column), compared at `FLOAT32_KERNEL_RTOL` (`--ops` lists them). BERT "
             "and RoBERTa have no float64 run: MXNet's interleaved attention has no float64 "
             "kernel on CPU. The deployment columns: the translated module through `torch.jit.trace`, "
             "`torch.export.export` (dynamic batch, and sequence length for the encoders), "
             "`torch.compile` and `torch.jit.script` (deprecated in torch 2.14), each run and "
             "compared with the module's own outputs.", "",
             "| model | family | nodes | float32 rel | nodes by drift | float64 rel | "
             "float32-kernel nodes | trace | export | compile | script | verdict |",
             "|---|---|---:|---:|---:|---:|---:|---|---|---|---|---|"]
    for r in rows:
        tr = r.get("translation", {})
        err = r["export"].get("error") or tr.get("error")
        if err:
            lines.append(f"| {r['name']} | {r['family']} | — | — | — | — | — | — | — | — | "
                         f"— | **error**: {_esc(err)} |")
            continue
        f32, f64 = tr["float32"], tr.get("float64")
        dep = tr.get("deploy", {})
        bad = [d for d in ("float32", "float64") if d in tr and not tr[d]["ok"]]
        verdict = "pass" if r["passed"] else "**FAIL** (" + "; ".join(
            f"{d}: {_esc(tr[d]['first_bad'] or 'output')}" for d in bad) + ")"
        lines.append(
            f"| {r['name']} | {r['family']} | {tr['translated_nodes']} | "
            f"{_e(f32['max_rel'])} | {f32.get('within_drift', 0)} | "
            f"{_e(f64['max_rel']) if f64 else 'no MXNet kernel'} | "
            f"{f64['loosened'] if f64 else '—'} | {_deploy_cell(dep, 'trace')} | "
            f"{_deploy_cell(dep, 'export')} | {_deploy_cell(dep, 'compile')} | "
            f"{_deploy_cell(dep, 'script')} | {verdict} |")
    lines += ["", "*rel* is the largest max|Δ| / max|MXNet's output| over the model's outputs; "
              "*nodes* the translated graph's operator nodes; *ok (batch 1 only)*: the "
              "graph itself fixes its batch, and exports with that batch. "
              "*Deploying the translated module*, below, says what each route needs.", ""]
    return lines


def deploy_section() -> list[str]:
    return ["## Deploying the translated module", "",
            "- `torch.jit.trace`, `torch.export.export` and `torch.compile`: the families "
            "table above tries each on every model and compares its outputs with the "
            "module's. Box NMS (`_contrib_box_nms`, `MultiBoxDetection`) is written with "
            "fixed shapes: its greedy pass becomes a `torch.while_loop` under "
            "`torch.export`/`torch.compile`, so a detector exports with a dynamic batch "
            "(`tests/nomxnet/test_translate_detectors.py` exports one and checks it against "
            "MXNet). A graph that fixes its batch (GluonCV's Faster R-CNN builds its ROI "
            "batch indices for one image) exports with that batch. `torch.jit.trace` "
            "records that loop's rounds for the example input only (with a TracerWarning), "
            "so a traced detector can keep the wrong boxes on another input: export it "
            "instead.",
            "- `torch.onnx.export(module, inputs, path, dynamo=True)` needs `onnx` and "
            "`onnxscript`, which the `[mx2torch]` extra does not install "
            "(`pip install onnx onnxscript`); `tests/test_mx2torch_models.py` exports a "
            "translated CNN and runs it in onnxruntime. The NMS does not export to ONNX: "
            "torch 2.14.1's ONNX exporter has no function for the stable sort that MXNet's "
            "order needs (`aten.sort.stable`); translate with `--outputs` up to the boxes "
            "and scores and do the NMS outside the ONNX graph.",
            "- `torch.jit.script` (deprecated in torch 2.14) fails on graphs whose generated "
            "code uses lambdas or helper imports; trace or export instead.", ""]


# ------------------------------------------------------------------ the ONNX route
ONNX_ROUTE = ROOT / "benchmarks" / "results" / "mx2torch_onnx_route.json"
# where the ONNX route stops, in the order a model meets the stages: (a table cell's tag, the
# summary's words)
STAGES = {"export": ("export", "the model's own export from Gluon"),
          "child": ("stopped", "a child process stopped for time or memory"),
          "onnx": ("MXNet's exporter", "MXNet's ONNX exporter"),
          "convert": ("onnx2torch", "onnx2torch's conversion"),
          "run": ("onnx2torch's module", "running onnx2torch's module"),
          "wrong": ("wrong outputs", "outputs that are not MXNet's")}


def _brief(error: str, n: int = 70) -> str:
    """An exception's class and the start of its message."""
    error = " ".join(str(error).split())
    return _esc(error if len(error) <= n else error[:n - 1] + "…")


def route_stage(rec: dict, label: str) -> tuple[str | None, str]:
    """Where the ONNX route at ``label`` (a key of the JSON's ``opsets``) stops on one model:
    (a key of STAGES, a brief reason), or (None, "") when it gives MXNet's outputs."""
    if "error" in rec["export"]:
        return "export", rec["export"]["error"]
    onnx, torch = rec.get("onnx", {}), rec.get("torch", {})
    if "error" in onnx:
        return "child", onnx["error"]
    if "error" in onnx[label]:
        return "onnx", onnx[label]["error"]
    if "error" in torch:
        return "child", torch["error"]
    t = torch[label]
    if t["convert"] != "ok":
        missing = [m.split(" (")[0] for m in t.get("missing_converters", [])]
        if missing:
            more = f" and {len(missing) - 4} more" if len(missing) > 4 else ""
            return "convert", f"no converter for {', '.join(missing[:4])}{more}"
        return "convert", t["convert"]
    if t["run"] != "ok":
        return "run", t["run"]
    if not t["ok"]:
        return "wrong", t.get("why", "")
    return None, ""


def _family_record(name: str, families: dict | None) -> dict | None:
    return next((r for r in (families or {}).get("models", []) if r["name"] == name), None)


def _carried_by_mx2torch(name: str, families: dict | None) -> bool | None:
    rec = _family_record(name, families)
    return None if rec is None else bool(rec["passed"])


def _mx2torch_cell(name: str, families: dict | None) -> str:
    rec = _family_record(name, families)
    if rec is None:
        return "not in the families run"
    if rec["passed"]:
        return "yes"
    err = rec["export"].get("error") or rec.get("translation", {}).get("error")
    return "**no**" + (f": {_brief(err)}" if err else " (differs from MXNet)")


def _route_cell(rec: dict, label: str) -> str:
    stage, why = route_stage(rec, label)
    if stage is None:
        return "yes"
    return f"**no**: {STAGES[stage][0]}" + (f": {_brief(why)}" if why else "")


def _rel(part: dict | None) -> str:
    """rel, † where an output is off, ‡ where one passes only by MXNet's own drift."""
    if not part or part.get("max_rel") is None:
        return "—"
    return _e(part["max_rel"]) + (" †" if not part.get("ok") else
                                  " ‡" if part.get("within_drift") else "")


def _models(n: int) -> str:
    return f"{n} model" + ("" if n == 1 else "s")


def _count_stages(rows: list[dict], label: str) -> dict:
    counts: dict = {}
    for r in rows:
        stage = route_stage(r, label)[0]
        counts[stage] = counts.get(stage, 0) + 1
    return counts


def onnx_route_section(route: dict, families: dict | None) -> list[str]:
    rows = route["models"]
    labels = list(route["opsets"])
    opset = {k: route["default_opset"] if v is None else v for k, v in route["opsets"].items()}
    head = {k: f"ONNX, opset {opset[k]}" + (" (MXNet's default)" if route["opsets"][k] is None
                                            else "") for k in labels}
    bound = f"{_tol(route['atol'])} + {_tol(route['rtol'])}·max\\|ref\\|"
    v = route["versions"]
    lines = ["## The other road: MXNet's ONNX exporter, then onnx2torch", "",
             "A user leaving MXNet without this package would export the model to ONNX with "
             "MXNet's own `mx.onnx.export_model` and load the file with "
             f"[onnx2torch](https://github.com/ENOT-AutoDL/onnx2torch). The same models as "
             "above, with the same kind of weights (random, BatchNorm statistics set from "
             "the input), went both ways (`make mx2torch-onnx-route`, "
             f"tools/mx2torch_onnx_route.py; {route['date']}, {_esc(route['machine'])}; "
             f"MXNet {v['mxnet']}, onnx {v['onnx']}, onnx2torch {v['onnx2torch']}, "
             f"onnxruntime {v['onnxruntime']}, torch {v['torch']}).", "",
             f"MXNet {v['mxnet']}'s `export_model` takes no opset: it writes the newest one "
             f"the installed onnx knows, here {route['default_opset']}, and validates the "
             "graph against it. The second ONNX column is MXNet as it behaves beside an onnx "
             f"whose newest opset is {opset[labels[-1]]} (both places answer that opset "
             "during the export). Each file that converts is put in `.eval()` and run on "
             "MXNet's input, and so is the module mx2torch translates from the same files; "
             "both are compared with MXNet's float32 outputs alike. *rel* is the largest "
             "max|Δ| / max|MXNet's output| over the model's outputs. An output passes within "
             f"{bound} (the float32 bound above) or, marked ‡, within "
             f"{route['drift_factor']} times MXNet's own float32 drift at that output (its "
             "float32 against its float64 run: the families run's allowance, taken at the "
             "outputs, since onnx2torch's nodes do not map to MXNet's; none where MXNet has "
             "no float64 kernel); † marks an output beyond both. *mx2torch carries it* is the "
             "verdict of the families run above (every node, both precisions). Forward: the "
             "best of "
             f"{route['repeats']} runs after a warm-up, `torch.no_grad()`, "
             f"{route['threads']} threads, the modules alternating"
             + (f"; the models were split between {route['processes']} runs side by side, so "
                "the seconds are those of a loaded machine (compare them within a row)"
                if route.get("processes", 1) > 1 else "") + ".", "",
             *([f"**An incomplete run** ({len(rows)} models so far): "
                "`tools/mx2torch_onnx_route.py --resume` runs the others.", ""]
               if route.get("complete") is False else []),
             "| model | family | mx2torch carries it | rel | forward s | "
             + " | ".join(f"{head[k]} | rel | forward s" for k in labels) + " |",
             "|---|---|---|---:|---:|" + "---|---:|---:|" * len(labels)]
    for r in rows:
        torch = r.get("torch", {})
        cells = [_mx2torch_cell(r["name"], families), _rel(torch.get("mx2torch")),
                 _s(torch.get("mx2torch", {}).get("forward_s"))]
        for k in labels:
            cells += [_route_cell(r, k), _rel(torch.get(k)),
                      _s(torch.get(k, {}).get("forward_s"))]
        lines.append(f"| {r['name']} | {r['family']} | " + " | ".join(cells) + " |")
    return lines + ["", *_route_summary(route, families, labels, opset), ""]


def _route_summary(route: dict, families: dict | None, labels: list, opset: dict) -> list[str]:
    """What each road carries, counted from the JSON."""
    rows = route["models"]
    n = len(rows)
    ours = {r["name"] for r in rows if _carried_by_mx2torch(r["name"], families)}
    onnx = {k: [r for r in rows if route_stage(r, k)[0] is None] for k in labels}
    either = {r["name"] for r in rows if any(route_stage(r, k)[0] is None for k in labels)}
    only_onnx = [r["name"] for r in rows if r["name"] in either - ours]
    fams = sorted({r["family"] for r in rows})
    none = [f for f in fams if not any(r["name"] in either for r in rows if r["family"] == f)]
    text = [f"**mx2torch carries {len(ours)} of these {n} models; the ONNX road carries "
            + " and ".join(f"{len(onnx[k])} at opset {opset[k]}" for k in labels) + "**"
            + (f", {len(either)} at either." if len(labels) > 1 else ".")]
    if only_onnx:
        text.append(f"The ONNX road carries {len(only_onnx)} that mx2torch does not: "
                    f"{', '.join(only_onnx)}.")
    if none:
        text.append(f"The ONNX road carries no model of these families: {', '.join(none)}.")
    for k in labels:
        counts = _count_stages(rows, k)
        stops = [f"{STAGES[s][1]} ({counts[s]})" for s in STAGES if counts.get(s)]
        if stops:
            text.append(f"At opset {opset[k]} it stops at " + ", ".join(stops) + ".")
    for k in labels:
        missing: dict = {}
        for r in rows:
            for m in r.get("torch", {}).get(k, {}).get("missing_converters", []):
                missing.setdefault(m.split(" (")[0], set()).add(r["name"])
        if missing:
            text.append(f"onnx2torch has no converter at opset {opset[k]} for " + ", ".join(
                f"{m} ({_models(len(s))})" for m, s in sorted(missing.items())) + ".")
    text += _route_diagnostics(rows, labels, opset)
    return [" ".join(text)]


def _route_diagnostics(rows: list[dict], labels: list, opset: dict) -> list[str]:
    """Where the ONNX file itself is right (onnxruntime), the training-mode trap, and speed."""
    text = []
    for k in labels:
        files = [r["torch"][k] for r in rows if k in r.get("torch", {})]
        right = [f for f in files if f["onnxruntime"].get("ok")]
        if files:
            text.append(f"Of the {len(files)} files MXNet wrote at opset {opset[k]}, "
                        f"onnxruntime reproduces MXNet's outputs from {len(right)}.")
    converted = [r["torch"][k] for r in rows for k in labels
                 if r.get("torch", {}).get(k, {}).get("convert") == "ok"]
    training = sum(c.get("training_after_convert", False) for c in converted)
    if converted:
        text.append(f"onnx2torch returned {training} of the {len(converted)} modules it "
                    "converted in training mode (a forgotten `.eval()` leaves BatchNorm on the "
                    "batch's statistics).")
    ratios = sorted(r["torch"][k]["forward_s"] / r["torch"]["mx2torch"]["forward_s"]
                    for r in rows for k in labels
                    if route_stage(r, k)[0] is None and "forward_s" in r["torch"].get(
                        "mx2torch", {}))
    if ratios:
        text.append(f"Where the ONNX road carries a model, onnx2torch's forward takes "
                    f"{ratios[0]:.2f}× to {ratios[-1]:.2f}× mx2torch's (median "
                    f"{statistics.median(ratios):.2f}× over {len(ratios)} model and opset "
                    f"pair{'' if len(ratios) == 1 else 's'}).")
    return text


SPEED = ROOT / "benchmarks" / "results" / "mx2torch_speed.json"


def speed_section(sp: dict) -> list[str]:
    lines = ["## Speed", "",
             f"GluonCV's `{sp['model']}` (random weights) translated, against torchvision's "
             "`resnet50` holding the same weights (the same architecture; their logits differ "
             f"by {_e(sp['max_abs_diff'])}): forward of a batch of {sp['batch']} images, "
             f"{sp['size']}², float32, eval (`make mx2torch-speed`, tools/mx2torch_speed.py; "
             f"{sp['date']}, {_esc(sp['machine'])}; torch {sp['torch']}). Each round alternates "
             "the two models and takes the best of a few runs of each; the ratio is taken "
             "within a round, the median over rounds reported. The generated forward deletes "
             "each intermediate after its last use and does a ReLU or a residual sum in "
             "place where nothing else reads the tensor, as torchvision's forward does.", "",
             "| threads | torchvision (s) | translated (s) | translated / torchvision "
             "(median) | rounds |", "|---:|---:|---:|---:|---|"]
    for r in sp["runs"]:
        best_tv = min(x["torchvision_s"] for x in r["rounds"])
        best = min(x["translated_s"] for x in r["rounds"])
        lines.append(f"| {r['threads']} | {best_tv:.3f} | {best:.3f} | "
                     f"{r['median_ratio']:.3f} | "
                     f"{', '.join(format(x['ratio'], '.3f') for x in r['rounds'])} |")
    return lines + [""]


def _ratio(bound: float, measured: float) -> str:
    if measured <= 0:
        return "infinitely far"
    import math

    return f"{10 ** math.floor(math.log10(bound / measured)):,}×".replace(",", "\u2009")


def render(results_path: Path = RESULTS) -> tuple[str, dict]:
    from sidebyside.mx2torch import ops

    s = json.loads(Path(results_path).read_text(encoding="utf-8"))
    if s.get("schema") != SCHEMA:
        raise ValueError(f"{Path(results_path).name}: schema {s.get('schema')!r}, expected "
                         f"{SCHEMA!r}")
    cov = ops.coverage_rows()
    lines = [
        "% Written by tools/make_mx2torch_page.py (`make mx2torch-sweep`) from the operator "
        "registry and benchmarks/results/mx2torch_sweep.json: rerun those, do not edit this "
        "file.",
        "",
        "# mx2torch: coverage and proof",
        "",
        "`sidebyside.mx2torch` turns an MXNet `-symbol.json` and its `.params` into a "
        "PyTorch module and a readable `model.py`, without importing MXNet "
        "(`python -m sidebyside.mx2torch --help`). This page lists the operators it "
        "translates and proves the translation on every network of MXNet's model zoo: each "
        "is exported from MXNet, translated, and run in both frameworks on the same input.",
        "",
        *sweep_section(s),
        *(families_section(json.loads(FAMILIES.read_text(encoding="utf-8")))
          if FAMILIES.exists() else []),
        *(onnx_route_section(json.loads(ONNX_ROUTE.read_text(encoding="utf-8")),
                             json.loads(FAMILIES.read_text(encoding="utf-8"))
                             if FAMILIES.exists() else None) if ONNX_ROUTE.exists() else []),
        *(speed_section(json.loads(SPEED.read_text(encoding="utf-8"))) if SPEED.exists()
          else []),
        *deploy_section(),
        *coverage_section(cov),
        "## Running it",
        "",
        "- `make mx2torch-sweep`: the full sweep (every network of the zoo) into "
        "`benchmarks/results/mx2torch_sweep.json`, then this page.",
        "- `make mx2torch-families`: GluonCV's and GluonNLP's models (`make gluon-zoo` "
        "installs those two beside MXNet first) into "
        "`benchmarks/results/mx2torch_families.json`; then "
        "`.venv/bin/python tools/make_mx2torch_page.py`.",
        "- `make mx2torch-onnx-route`: the same models through MXNet's ONNX exporter and "
        "onnx2torch into `benchmarks/results/mx2torch_onnx_route.json`, then this page.",
        "- `make mx2torch-speed`: the speed comparison with torchvision into "
        "`benchmarks/results/mx2torch_speed.json`, then this page.",
        "- `.venv/bin/python tools/mx2torch_sweep.py --quick --out quick.json`: one "
        "network per family; `--models resnet18_v1,alexnet` for a chosen few.",
        "- `.venv/bin/python tools/make_mx2torch_page.py`: this page alone, from the JSON "
        "and the registry (`--check`: exit 1 if it is out of date).",
        "",
    ]
    stats = {"operators": len(cov), "networks": len(s["results"]), "passed": s["passed"],
             "mode": s["mode"]}
    return "\n".join(lines), stats


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--results", type=Path, default=RESULTS)
    known, rest = parser.parse_known_args(argv)
    return pagegen.main(lambda: render(known.results), OUT, TARGET,
                        "Write book/mx2torch.md from the operator registry and the sweep "
                        "(--results PATH: another sweep JSON).", rest)


if __name__ == "__main__":
    sys.exit(main())
