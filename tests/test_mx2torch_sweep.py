"""The model-zoo sweep (tools/mx2torch_sweep.py) proves translations, catches a broken one at
the right node, and its book page (book/mx2torch.md) is current.

The quick set below runs the sweep's own function on a few small networks of different
families (tens of seconds on two cores); the full sweep (`make mx2torch-sweep`, every network)
is too long for the suite, and its stored results are checked through the page.
"""
import dataclasses
import json
import re
import sys

import numpy as np
import pytest

from conftest import ROOT, load_tool

MACHINE_PATH = re.compile(r"(/tmp/|/work/|/root/|/home/|/Users/|site-packages|/usr/lib)")
# plain ResNet; pre-activation ResNet with a BatchNorm on the input data; depthwise convolutions
# with ReLU6 (clip); Concat and no BatchNorm at all
QUICK = ["resnet18_v1", "resnet18_v2", "mobilenetv2_0.25", "squeezenet1.1"]



@pytest.fixture(scope="module")
def sweep_tool():
    return load_tool("mx2torch_sweep")


@pytest.fixture(scope="module")
def page_tool():
    return load_tool("make_mx2torch_page")


@pytest.fixture(scope="module")
def quick(sweep_tool):
    return sweep_tool.sweep(QUICK, log=lambda s: None, mode="test")


# ------------------------------------------------------------------------ the sweep
def test_the_model_list_comes_from_mxnet(sweep_tool):
    names = sweep_tool.available_models()
    assert len(names) == 34 and "resnet18_v1" in names and "inceptionv3" in names
    assert set(sweep_tool.QUICK) <= set(names)
    with pytest.raises(ValueError, match="unknown model"):
        sweep_tool.sweep(["resnet18_v9"], log=lambda s: None)


def test_translation_runs_with_mxnet_blocked(sweep_tool):
    import mxnet

    with sweep_tool.mxnet_blocked():
        with pytest.raises(ImportError):
            import mxnet  # noqa: F401,F811
        with pytest.raises(ImportError):
            import mxnet.ndarray  # noqa: F401
    assert sys.modules["mxnet"] is mxnet


@pytest.mark.parametrize("name", QUICK)
def test_quick_network_passes_both_precisions(quick, sweep_tool, name):
    r = next(r for r in quick["results"] if r["name"] == name)
    assert r["error"] is None and r["ok"], r
    for dtype, tol in sweep_tool.TOL.items():
        d = r[dtype]
        assert d["ok"] and 0 <= d["relative"] <= tol, (dtype, d)
        assert d["max_abs_ref"] > 0
        assert d["first_failure"] is None and d["nodes_compared"] >= r["nodes"] > 10
    # float64 agreement is far inside its bound, and float32 is near each framework's drift
    assert r["float64"]["relative"] < 1e-11
    assert r["float32"]["relative"] <= 10 * max(r["drift32"].values()) + 1e-12
    assert r["parameters"] > 0 and r["translate_s"] > 0
    assert r["batchnorm_layers"] > 0 or name.startswith("squeezenet")


def test_quick_run_describes_itself(quick):
    assert quick["schema"] == "mx2torch-sweep/1" and quick["mode"] == "test"
    assert quick["versions"]["mxnet"] == "1.9.1" and quick["versions"]["torch"]
    assert quick["threads"]["torch"] >= 1 and quick["machine"]["cpus_available"] >= 1
    assert quick["passed"] == len(QUICK) and quick["failed"] == 0 and quick["total_s"] > 0
    json.dumps(quick)                                   # JSON-ready as it stands
    assert not MACHINE_PATH.search(json.dumps(quick))


def test_a_swapped_channel_is_caught_at_its_node(sweep_tool, tmp_path):
    """Swap two output channels of one Convolution's weight in the translated module (both
    the plain and the tapped one): the outputs must fail and the report name that node."""
    import torch

    seen = {}

    def swap(t, tm):
        weights = dict(t.module.named_parameters())
        key_of = {v: k for k, v in t.mx_names.items()}
        # a dense convolution (not depthwise: there a dead input channel could hide the swap)
        convs = [n for n, op, _ in t.nodes if op == "Convolution"
                 and weights[key_of[n.replace("_fwd", "_weight")]].shape[1] > 1]
        node = convs[len(convs) // 2]                   # one in the middle of the network
        key = key_of[node.replace("_fwd", "_weight")]
        seen.update(node=node, key=key)
        for m in (t.module, tm):
            w = dict(m.named_parameters())[key]
            with torch.no_grad():
                w[[0, 1]] = w[[1, 0]].clone()

    r = sweep_tool.check_one("resnet18_v1", tmp_path, mutate=swap, log=lambda s: None)
    assert r["error"] is None and not r["ok"]
    for dtype in ("float32", "float64"):
        assert not r[dtype]["ok"], dtype
        assert r[dtype]["first_failure"]["node"] == seen["node"], (dtype, r[dtype]["report"])
        assert r[dtype]["first_failure"]["op"] == "Convolution"


def test_a_wrong_batchnorm_eps_is_caught_at_its_node(sweep_tool, monkeypatch, tmp_path):
    """A translator bug in one node: BatchNorm's eps 1e-3 instead of the file's 1e-5 for the
    third BatchNorm node only. The verdict must fail, the float64 report at exactly that node."""
    from sidebyside.mx2torch import ops

    spec = ops.REGISTRY["BatchNorm"]
    hit = []        # BatchNorm node names, in the order the builder meets them

    def wrong(b, node, a):          # called by the plain and the tapped build alike
        if node.name not in hit:
            hit.append(node.name)
        if len(hit) >= 3 and node.name == hit[2]:
            a = ops.Attrs(a)
            a["eps"] = float(a["eps"]) * 100
        return spec.func(b, node, a)

    monkeypatch.setitem(ops.REGISTRY, "BatchNorm", dataclasses.replace(spec, func=wrong))
    r = sweep_tool.check_one("mobilenetv2_0.25", tmp_path, log=lambda s: None)
    target = hit[2]
    assert r["error"] is None and not r["ok"]
    ff = r["float64"]["first_failure"]
    assert (ff["node"], ff["op"]) == (target, "BatchNorm"), r["float64"]["report"]
    assert ff["max_abs_diff"] > 1e-4 * ff["max_abs_ref"]           # about 1e-3 of its range
    # the page's claim: the layers after it absorb the change, so the output alone passes
    # its float64 bound; only the per-node report (part of the verdict) catches this bug
    assert r["float64"]["ok"] and r["float64"]["relative"] < sweep_tool.TOL["float64"]


# ------------------------------------------------------------------------ the page
@pytest.fixture(scope="module")
def page(page_tool):
    return page_tool.render()[0]


def test_committed_page_is_what_the_tool_writes(page):
    committed = (ROOT / "book" / "mx2torch.md").read_text(encoding="utf-8")
    assert committed == page, "book/mx2torch.md is out of date: run `make mx2torch-sweep` " \
                              "(or tools/make_mx2torch_page.py after a registry change)"


def test_page_lists_every_registry_operator(page):
    from sidebyside.mx2torch import ops

    section = page.split("## Operator coverage", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"^\| `([^`]+)` \|", section, re.M))
    names = {spec.name for spec in ops.REGISTRY.values()}
    assert names and listed == names
    for spec in {id(s): s for s in ops.REGISTRY.values()}.values():
        row = next(ln for ln in section.splitlines() if ln.startswith(f"| `{spec.name}` |"))
        assert all(f"`{a}`" in row for a in spec.aliases + tuple(spec.attrs) +
                   tuple(spec.ignored)), row
    aliases = {n for n, s in ops.REGISTRY.items() if n != s.name}
    assert aliases <= set(re.findall(r"`([^`]+)`", section))


def test_page_shows_the_full_sweep(page, sweep_tool):
    results = json.loads((ROOT / "benchmarks" / "results" / "mx2torch_sweep.json").read_text())
    assert results["mode"] == "full"
    assert [r["name"] for r in results["results"]] == results["models_known"]
    assert len(results["models_known"]) == 34
    for r in results["results"]:
        assert f"| {r['name']} | " in page
    assert f"**{results['passed']} of 34**" in page
    assert "This page shows a" not in page                  # no quick-run warning
    assert not MACHINE_PATH.search(page)


def test_page_renders_a_failure_and_check_flags_a_stale_page(page_tool, sweep_tool, tmp_path):
    results = json.loads((ROOT / "benchmarks" / "results" / "mx2torch_sweep.json").read_text())
    bad = results["results"][0]
    bad["float64"].update(ok=False, relative=1.0,
                          first_failure={"node": "x_conv0_fwd", "op": "Convolution",
                                         "max_abs_diff": 1.0, "max_abs_ref": 1.0, "why": ""})
    bad["ok"] = False
    results["passed"] -= 1
    path = tmp_path / "sweep.json"
    path.write_text(json.dumps(results))
    text = page_tool.render(path)[0]
    assert "**FAIL** (float64 output; first node `x_conv0_fwd` (Convolution))" in text
    bad["float64"]["ok"] = True                    # a node fails, the output is within bound
    path.write_text(json.dumps(results))
    assert ("**FAIL** (float64: first node `x_conv0_fwd` (Convolution), output within bound)"
            in page_tool.render(path)[0])
    bad["float64"]["ok"] = False
    path.write_text(json.dumps(results))
    out = tmp_path / "mx2torch.md"
    argv = ["--results", str(path), "--out", str(out)]
    assert page_tool.main(argv) == 0 and out.read_text() == text
    assert page_tool.main(argv + ["--check"]) == 0
    out.write_text(text + "edited\n")
    assert page_tool.main(argv + ["--check"]) == 1


def _route_model(name, family, default, opset13):
    """A record of tools/mx2torch_onnx_route.py's JSON; ``default``/``opset13``: "carried",
    "drift" (carried, an output within MXNet's own float32 drift), "missing" (onnx2torch lacks
    Conv), "exporter" (MXNet's exporter fails), "wrong" (converts and runs, outputs off)."""
    rec = {"name": name, "family": family, "export": {"export_s": 1.0},
           "onnx": {}, "torch": {"threads": 2, "mx2torch": {"ok": True, "max_rel": 1e-6,
                                                             "forward_s": 0.2}}}
    for label, how in (("default", default), ("13", opset13)):
        opset = 22 if label == "default" else 13
        rec["onnx"][label] = ({"opset": opset, "error": "ValidationError: bad ReduceMean"}
                              if how == "exporter" else {"opset": opset, "export_s": 1.0})
        if how == "exporter":
            continue
        part = {"onnxruntime": {"ok": True, "max_rel": 1e-6}}
        if how == "missing":
            part.update(convert="NotImplementedError: Converter is not implemented (...)",
                        missing_converters=[f"Conv (opset {opset})", f"MaxPool (opset {opset})"])
        else:
            part.update(convert="ok", training_after_convert=True, run="ok",
                        ok=how != "wrong", within_drift=int(how == "drift"),
                        max_rel={"carried": 1e-6, "drift": 0.3, "wrong": 0.5}[how],
                        forward_s=0.1)
        rec["torch"][label] = part
    return rec


def test_onnx_route_section_counts_only_what_gives_mxnets_outputs(page_tool):
    route = {"date": "2026-01-01", "machine": "cpu, 2 cores", "default_opset": 22,
             "opsets": {"default": None, "13": 13}, "threads": 2, "repeats": 3,
             "rtol": 1e-4, "atol": 1e-6, "drift_factor": 4, "processes": 2,
             "versions": {"mxnet": "1.9.1", "onnx": "1.17.0", "onnx2torch": "1.5.15",
                          "onnxruntime": "1.26.0", "torch": "2.14.1"},
             "models": [_route_model("net_a", "classification", "missing", "carried"),
                        _route_model("det_b", "detection", "exporter", "exporter"),
                        _route_model("det_c", "detection", "missing", "wrong"),
                        _route_model("seg_e", "segmentation", "missing", "drift"),
                        {"name": "nlp_d", "family": "NLP encoder",
                         "export": {"error": "the export-outputs child was killed"}}]}
    families = {"models": [{"name": "net_a", "passed": True, "export": {}},
                           {"name": "det_b", "passed": True, "export": {}},
                           {"name": "det_c", "passed": False,
                            "export": {"error": "export: out of memory"}},
                           {"name": "seg_e", "passed": True, "export": {}}]}
    text = "\n".join(page_tool.onnx_route_section(route, families))
    rows = {ln.split(" | ")[0][2:]: ln.split(" | ") for ln in text.splitlines()
            if ln.startswith("| ") and " | " in ln and not ln.startswith("| model")}
    assert set(rows) == {"net_a", "det_b", "det_c", "nlp_d", "seg_e"}
    # model | family | mx2torch, rel, s | opset 22: verdict, rel, s | opset 13: verdict, rel, s
    assert rows["net_a"][2] == "yes" and rows["net_a"][8] == "yes"
    assert rows["net_a"][5].startswith("**no**: onnx2torch: no converter for Conv, MaxPool")
    assert rows["det_b"][5].startswith("**no**: MXNet's exporter: ValidationError")
    assert rows["det_c"][2] == "**no**: export: out of memory"
    assert rows["det_c"][8] == "**no**: wrong outputs"            # converted and ran: not enough
    assert rows["det_c"][9] == "5.0e-01 †" and rows["net_a"][9] == "1.0e-06"
    assert rows["seg_e"][8] == "yes" and rows["seg_e"][9] == "3.0e-01 ‡"    # MXNet's own drift
    assert rows["nlp_d"][2] == "not in the families run"
    assert rows["nlp_d"][5].startswith("**no**: export: the export-outputs child was killed")
    assert ("**mx2torch carries 3 of these 5 models; the ONNX road carries 0 at opset 22 "
            "and 2 at opset 13**, 2 at either.") in text
    assert ("At opset 13 it stops at the model's own export from Gluon (1), MXNet's ONNX "
            "exporter (1), outputs that are not MXNet's (1).") in text
    assert ("At opset 22 it stops at the model's own export from Gluon (1), MXNet's ONNX "
            "exporter (1), onnx2torch's conversion (3).") in text
    assert "carries no model of these families: NLP encoder, detection." in text
    assert "the models were split between 2 runs side by side" in text
    assert "no converter at opset 22 for Conv (3 models), MaxPool (3 models)." in text
    assert "onnx2torch returned 3 of the 3 modules it converted in training mode" in text
    # the two models the ONNX road carries: 0.1 s against mx2torch's 0.2 s
    assert "takes 0.50× to 0.50× mx2torch's (median 0.50× over 2 model and opset pairs)" in text


def test_page_is_in_the_toc_beside_the_benchmarks():
    toc = (ROOT / "book" / "_toc.yml").read_text()
    assert "      - file: benchmarks\n      - file: mx2torch\n" in toc


def test_float_gap_helper_is_elementwise(sweep_tool):
    a = np.array([[1.0, 2.0], [3.0, 4.0]])
    assert sweep_tool._gap(a, a) == (0.0, 0.0)
    d, r = sweep_tool._gap(a[::-1], a)             # a permutation is a difference
    assert d == 2.0 and r == 0.5
    with pytest.raises(ValueError, match="shape"):
        sweep_tool._gap(a, a.T[:1])
