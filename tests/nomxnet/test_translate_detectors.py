"""The translator on a detector's graph that MXNet 1.9.1 exported (tests/fixtures/mx2torch/graphs
``detector``: box_decode, box_nms, topk, gather_nd, integer division and mod, ROIAlign ...),
against MXNet's outputs saved beside it; a refusal that names every missing operator at once;
a graph cut at named nodes; float64 checks that know MXNet's float32-only kernels. Imports only
numpy, torch (and torchvision, for the box operators) and sidebyside.mx2torch."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from sidebyside.mx2torch import codegen, report
from sidebyside.mx2torch.graph import read_symbol
from sidebyside.mx2torch.ops import FLOAT32_KERNEL_RTOL, UnsupportedOperator

pytest.importorskip("torchvision")

GRAPHS = Path(__file__).resolve().parents[1] / "fixtures" / "mx2torch" / "graphs"
SYM, PARAMS = GRAPHS / "detector-symbol.json", GRAPHS / "detector-0000.params"


def cli(*args, cwd):
    return subprocess.run([sys.executable, "-m", "sidebyside.mx2torch", *map(str, args)],
                          cwd=cwd, capture_output=True, text=True, timeout=300)


def outputs(module, data, float64=False):
    x = torch.from_numpy(data["data"])
    with torch.no_grad():
        got = (module.double() if float64 else module.float())(x.double() if float64 else x)
    return [g.numpy() for g in got]


def test_detector_outputs_equal_mxnet_in_float32_and_float64():
    """Detections (box_nms's rows: order, padding with -1), top scores and ROI features."""
    t = codegen.translation(SYM, PARAMS)
    for tag, float64, rtol in (("check32", False, 1e-5), ("check64", True, 1e-8)):
        d = dict(np.load(GRAPHS / f"detector-{tag}.npz"))
        got = outputs(t.module, d, float64)
        assert len(got) == 3
        for i, g in enumerate(got):
            ref = d[f"output{i}"]
            assert g.shape == ref.shape
            assert np.abs(g - ref).max() <= rtol * np.abs(ref).max(), (tag, i)
    dets = d["output0"]          # kept rows first, in score order; not a trivial all -1
    assert (dets[..., 0] >= 0).sum() >= 20 and np.all(np.diff(dets[..., 1], axis=1) <= 0)


def test_float64_check_loosens_only_what_depends_on_a_float32_kernel():
    """MXNet computes LeakyReLU in float32 even in float64: the nodes after it are compared at
    FLOAT32_KERNEL_RTOL, those before it (the convolution, the BatchNorm) at float64's 1e-7, and
    both pass."""
    graph = read_symbol(SYM)
    region = report.float32_region(graph)
    assert "det_leakyrelu0_fwd" in region and "det_box_nms0" in region
    assert "det_conv0_fwd" not in region and "det_batchnorm0_fwd" not in region
    t = codegen.translation(SYM, PARAMS)
    d = dict(np.load(GRAPHS / "detector-check64.npz"))
    tm = codegen.tapped(t, SYM, PARAMS)
    r = report.compare_nodes(t, tm, d, d, rtol=1e-7, atol=1e-12,
                             rtol_for={n: FLOAT32_KERNEL_RTOL for n in region})
    assert r.ok, r.lines()
    before = [row for row in r.rows if row.node.split("[")[0] not in region]
    assert {"det_conv0_fwd", "det_batchnorm0_fwd"} <= {row.node for row in before}
    assert all(row.max_abs_diff <= 1e-10 * max(1, row.max_abs_ref) for row in before)
    out = cli(SYM, PARAMS, "--check", GRAPHS / "detector-check64.npz", "--float64", cwd=GRAPHS)
    assert out.returncode == 0, out.stderr
    assert "depend on MXNet kernels that compute in float32 even in float64 (LeakyReLU)" \
        in out.stdout


def test_several_missing_operators_are_named_at_once_and_nothing_written(tmp_path):
    graph = json.loads(SYM.read_text())
    for node in graph["nodes"]:
        if node["op"] in ("_contrib_box_nms", "_contrib_ROIAlign"):
            node["op"] = node["op"] + "V9"
        if node["op"] == "topk":
            node["attrs"]["ret_typ"] = "everything"
    (tmp_path / "bad-symbol.json").write_text(json.dumps(graph))
    shutil.copy(PARAMS, tmp_path / "bad-0000.params")
    with pytest.raises(UnsupportedOperator) as e:
        codegen.translation(tmp_path / "bad-symbol.json", tmp_path / "bad-0000.params")
    message = str(e.value)
    assert message.startswith("3 operators of the graph cannot be translated (3 nodes)")
    for part in ("_contrib_box_nmsV9 (1 node: 'det_box_nms0'): is not supported",
                 "_contrib_ROIAlignV9 (1 node: 'det_roialign0'): is not supported",
                 "topk (1 node: 'det_topk0'): ret_typ='everything' is not supported"):
        assert part in message
    r = cli("bad-symbol.json", "bad-0000.params", "--out", "m.pt", "--code", "m.py",
            cwd=tmp_path)
    assert r.returncode == 1 and "_contrib_ROIAlignV9" in r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad-0000.params", "bad-symbol.json"]


def test_outputs_cut_the_graph_before_what_cannot_be_translated(tmp_path):
    """A post-processing operator the translator lacks: --outputs keeps the backbone and heads
    (the scores and the decoded boxes), checked against MXNet's node arrays."""
    graph = json.loads(SYM.read_text())
    for node in graph["nodes"]:
        if node["op"] == "_contrib_box_nms":
            node["op"] = "_contrib_box_nms_v9"
    (tmp_path / "cut-symbol.json").write_text(json.dumps(graph))
    shutil.copy(PARAMS, tmp_path / "cut-0000.params")
    heads = ["det_sigmoid0", "det_box_decode0"]
    t = codegen.translation(tmp_path / "cut-symbol.json", tmp_path / "cut-0000.params",
                            outputs=heads)
    assert len(t.outputs) == 2 and "box_nms" not in t.source
    r = cli("cut-symbol.json", "cut-0000.params", "--outputs", *heads, "--check",
            GRAPHS / "detector-check32.npz", "--code", "m.py", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("(ok)") == 2 and (tmp_path / "m.py").exists()
    bad = cli("cut-symbol.json", "cut-0000.params", "--outputs", "det_nothing", "data",
              cwd=tmp_path)
    assert bad.returncode == 1
    assert "'det_nothing' is not a node of the graph" in bad.stderr
    assert "'data' is an input or a parameter" in bad.stderr


def test_torch_export_gives_mxnets_detections():
    """torch.export on the detector (box_nms's greedy pass becomes a torch while_loop): the
    exported program's outputs equal MXNet's, as the module's do. The fixture's graph fixes
    its batch (a broadcast_axis to 2), as GluonCV's Faster R-CNN does; the next test exports
    box_nms with a dynamic batch."""
    t = codegen.translation(SYM, PARAMS)
    d = dict(np.load(GRAPHS / "detector-check32.npz"))
    x = torch.from_numpy(d["data"])
    eager = t.module.float().eval()(x)          # with autograd on, as torch.onnx.export runs
    eager[0].sum().backward()
    assert t.module.conv0.weight.grad is not None
    with torch.no_grad():
        program = torch.export.export(t.module.float().eval(), (x,))
        got = program.module()(x)
    assert "while_loop" in str(program.graph)
    for i, g in enumerate(got):
        ref = d[f"output{i}"]
        assert np.abs(g.numpy() - ref).max() <= 1e-5 * np.abs(ref).max(), i
    assert (got[0][..., 0] >= 0).sum() >= 20
    assert all(torch.equal(a.detach(), b) for a, b in zip(eager, got))


def test_box_nms_exports_with_a_dynamic_batch():
    """The generated mx_box_nms alone, exported once with a dynamic batch and run on other
    batch sizes, gives what it gives eagerly (checked against MXNet in test_mx2torch_ops)."""
    from sidebyside.mx2torch.ops import HELPERS

    space = {"torch": torch}
    exec(HELPERS["mx_greedy_keep"], space)
    exec(HELPERS["mx_box_nms"], space)
    nms = space["mx_box_nms"]

    class Detections(torch.nn.Module):
        def forward(self, rows):
            return nms(rows, 0.45, 0.01, 40, 2, 1, 0, -1, False, "corner", "center")

    rng = np.random.default_rng(0)

    def rows(batch):
        xy = rng.uniform(0, 10, (batch, 50, 2))
        return torch.from_numpy(np.concatenate([
            rng.integers(0, 3, (batch, 50, 1)), np.round(rng.uniform(0, 1, (batch, 50, 1)), 1),
            xy, xy + rng.uniform(0.5, 4, (batch, 50, 2))], axis=-1))

    batch = torch.export.Dim("batch", min=1, max=64)
    program = torch.export.export(Detections(), (rows(2),), dynamic_shapes=({0: batch},))
    for n in (1, 3, 7):
        x = rows(n)
        got, want = program.module()(x), Detections()(x)
        assert got.shape == (n, 50, 6) and torch.equal(got, want)
        assert 5 <= int((want[..., 0] >= 0).sum()) < 40 * n     # some kept, some suppressed
