"""Write book/mx2torch.md: what ``sidebyside.mx2torch`` translates, and the proof that it does.

The page is a pure function of three things: the operator registry
(``sidebyside.mx2torch.ops.coverage_rows()``), the latest model-zoo sweep,
``benchmarks/results/mx2torch_sweep.json`` (written by ``tools/mx2torch_sweep.py``), and the
GluonCV/GluonNLP families' run, ``benchmarks/results/mx2torch_families.json``
(``tools/mx2torch_families.py``). Every
number and verdict on it is computed here from those; nothing about the outcome is written by
hand. ``make mx2torch-sweep`` runs the sweep and then this file; ``--check`` exits 1 when the
committed page differs from what would be written (tests/test_mx2torch_sweep.py checks the same).
"""
from __future__ import annotations

import argparse
import json
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
              "*nodes* the translated graph's operator nodes. An export that fails on a "
              "detector with box NMS fails on its data-dependent number of kept boxes "
              "(`torch.export` needs the per-image loop unrolled); `--outputs` cuts the graph "
              "before it, and trace and compile carry the whole model.", ""]
    return lines


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
        *coverage_section(cov),
        "## Running it",
        "",
        "- `make mx2torch-sweep`: the full sweep (every network of the zoo) into "
        "`benchmarks/results/mx2torch_sweep.json`, then this page.",
        "- `make mx2torch-families`: GluonCV's and GluonNLP's models (`make gluon-zoo` "
        "installs those two beside MXNet first) into "
        "`benchmarks/results/mx2torch_families.json`; then "
        "`.venv/bin/python tools/make_mx2torch_page.py`.",
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
