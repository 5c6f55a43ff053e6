"""The benchmark suite (benchmarks/) runs, writes what it says, and its book page is current.

The quick mode runs once (CI size, well under a minute on two cores) into a temporary
folder; the tests check the structure of what it wrote and that the page generator renders
it. No test compares a timing with a threshold: timings belong to the machine and its load.
"""
import importlib.util
import json
import re
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

BENCH = ROOT / "benchmarks"
MACHINE_PATH = re.compile(r"(/tmp/|/work/|/root/|/home/|/Users/|site-packages|/usr/lib)")
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(ROOT / "tools"))
import analysis  # noqa: E402
import browser_check  # noqa: E402  (tools/browser_check.py: its alt-text rule)
import spec  # noqa: E402


def _page_tool():
    s = importlib.util.spec_from_file_location("make_benchmarks_page",
                                               ROOT / "tools" / "make_benchmarks_page.py")
    module = importlib.util.module_from_spec(s)
    sys.modules["make_benchmarks_page"] = module
    s.loader.exec_module(module)
    return module


def _paragraphs(text):
    """The page's paragraphs after its title (blank-line separated, comments dropped)."""
    body = text.split("\n# ", 1)[1].split("\n", 1)[1]
    return [b.strip() for b in body.split("\n\n") if b.strip()]


FIGURE_BLOCK = re.compile(r"^```\{figure\} (\S+)\n((?::\w+:.*\n)*)\n(.+)\n```$", re.M)


def _figure_blocks(text):
    """{image path: (options, caption)} of the page's MyST figures."""
    return {m[1]: (dict(re.findall(r"^:(\w+): (.*)$", m[2], re.M)), m[3])
            for m in FIGURE_BLOCK.finditer(text)}


def _figures(text):
    """{image path: its link target}; also: no Markdown image, every figure has real alt."""
    assert "![" not in text
    blocks = _figure_blocks(text)
    for path, (options, caption) in blocks.items():
        assert browser_check.alt_text_problem(options.get("alt")) is None, (path, options)
        assert len(options["alt"]) > 60 and caption
    return {path: options.get("target") for path, (options, _) in blocks.items()}


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    out = tmp_path_factory.mktemp("bench")
    proc = subprocess.run([sys.executable, str(BENCH / "run.py"), "--quick", "--out", str(out)],
                          capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return out, json.loads((out / "quick.json").read_text()), proc.stdout


# ------------------------------------------------------------------- the quick run's JSON
def test_quick_run_writes_its_files_where_told(quick):
    out, results, stdout = quick
    assert sorted(p.name for p in out.iterdir()) == ["quick.json", "quick.png"]
    assert (out / "quick.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "wall time" in stdout and "Gluon" in stdout          # the verdict is printed
    assert not MACHINE_PATH.search((out / "quick.json").read_text())


def test_quick_run_describes_the_machine_and_versions(quick):
    _, r, _ = quick
    assert r["schema"] == spec.SCHEMA and r["mode"] == "quick"
    m = r["machine"]
    assert m["cpu_model"] and m["cpus_available"] >= 1 and m["logical_cpus"] >= 1
    assert m["python"].startswith("3.11") and m["platform"]
    assert len(m["load_average_start"]) == len(m["load_average_end"]) == 3
    assert 0 <= m["cpu_busy_start"] <= 1 and 0 <= m["cpu_busy_end"] <= 1
    assert r["versions"]["torch"] and r["versions"]["mxnet"] == "1.9.1"
    assert r["frameworks"]["torch"]["version"] and r["frameworks"]["mxnet"]["features"]
    assert r["settings"]["threads"] == [spec.available_cpus()]
    assert r["wall_s"] > 0 and r["created"]


def test_every_configuration_is_present_or_skipped_with_a_reason(quick):
    _, r, _ = quick
    assert [c["name"] for c in r["configs"]] == [c.name for c in spec.CONFIGS]
    ran = [c["name"] for c in r["configs"] if not c["skipped"]]
    assert set(ran) == set(spec.default_settings(True).configs)
    assert all(c["skipped"] for c in r["configs"] if c["name"] not in ran)   # the reason
    for name in ran:
        for mode in spec.TRAIN_MODES:
            assert analysis.cell(r, config=name, mode=mode, workload="mlp", batch=128), \
                (name, mode)
        if spec.CONFIG[name].pipeline:
            assert analysis.cell(r, config=name, mode="pipeline", batch=128), name
    assert not r["errors"]


def test_cells_hold_positive_numbers_and_the_thread_counts_in_effect(quick):
    _, r, _ = quick
    s = r["settings"]
    assert r["cells"]
    for c in r["cells"]:
        assert min(3, s["repeats"]) <= len(c["seconds"]) <= s["repeats"]
        assert min(c["seconds"]) > 0
        assert c["steps"] >= s["min_steps"] and c["samples"] == c["steps"] * c["batch"]
        assert c["samples_per_s_best"] >= c["samples_per_s_median"] > 0
        assert c["first_step_s"] > 0 and c["spread"] >= 0
        assert len(c["returned_s"]) == len(c["seconds"])
        key = "torch" if c["framework"] == "torch" else "mxnet"
        assert c["threads_in_effect"][key] == c["threads"]
        if c["mode"] != "pipeline":
            assert c["flops_per_sample"] > 0 and c["roofline_fraction"] > 0
    for j in r["jobs"]:
        assert j["status"] == "ok" and j["isolated"] is True, j   # the other framework: never
        key = "torch" if j["framework"] == "torch" else "mxnet"
        assert j["threads_in_effect"][key] == j["threads_after"][key] == j["requested_threads"]
        for measured in ("openmp", "openblas"):        # MXNet's runtimes, where readable
            assert j["threads_in_effect"].get(measured) in (None, j["requested_threads"])
        assert j["env"]["OMP_NUM_THREADS"] == str(j["requested_threads"])


def test_gemm_sweep_and_roofline(quick):
    _, r, _ = quick
    impls = {g["impl"] for g in r["gemm"]}
    assert impls == {i for v in spec.GEMM_IMPLS.values() for i in v}
    assert all(g["gflops_best"] >= g["gflops_median"] > 0 for g in r["gemm"])
    top = str(max(r["settings"]["threads"]))
    assert r["roofline"][top]["gflops"] == max(g["gflops_best"] for g in r["gemm"])
    w = r["workloads"]["mlp"]
    assert w["train_flops_per_sample"] == 818_176 and w["params"] == 203_530
    assert w["epoch_flops"]["128"] == 818_176 * 60_000 + 2 * 203_530 * 469


def test_page_renders_from_the_quick_results(quick, tmp_path):
    out, r, _ = quick
    tool = _page_tool()
    text, stats = tool.render(out / "quick.json")
    assert text.startswith("% Written by tools/make_benchmarks_page.py")
    assert _paragraphs(text)[0] == f"**Verdict: {tool.verdict_line(analysis.verdict(r))}**"
    assert "This page shows a **quick** run" in text
    for c in r["configs"]:
        if not c["skipped"]:
            assert f"| {c['label']} |" in text
    # the quick run has the MLP only: its figure, and none for the LeNet
    assert _figures(text) == {"_static/benchmarks-mlp.png": "_static/benchmarks-mlp.png"}
    assert not MACHINE_PATH.search(text), MACHINE_PATH.search(text)
    assert stats["cells"] == len(r["cells"])
    # the command line writes the page and the figure beside it, removes a stale figure,
    # and --check agrees after
    page, static = tmp_path / "benchmarks.md", tmp_path / "_static"
    static.mkdir()
    (static / "benchmarks.png").write_bytes(b"the old six-panel figure")
    (static / "other.png").write_bytes(b"not the tool's")
    argv = ["--results", str(out / "quick.json"), "--out", str(page)]
    assert tool.main(argv + ["--check"]) == 1
    assert tool.main(argv) == 0
    assert page.read_text() == text
    assert sorted(p.name for p in static.iterdir()) == ["benchmarks-mlp.png", "other.png"]
    assert (static / "benchmarks-mlp.png").read_bytes() == tool.figure_png(r, "mlp")
    assert tool.main(argv + ["--check"]) == 0
    page.write_text(text + "edited\n")
    assert tool.main(argv + ["--check"]) == 1
    page.write_text(text)
    (static / "benchmarks-mlp.png").write_bytes(tool.figure_png(r, "mlp")[:-1])
    assert tool.main(argv + ["--check"]) == 1
    (static / "benchmarks-mlp.png").write_bytes(tool.figure_png(r, "mlp"))
    (static / "benchmarks-lenet.png").write_bytes(tool.figure_png(r, "mlp"))
    assert tool.main(argv + ["--check"]) == 1        # a figure of a workload not in the run


# --------------------------------------------------------------- the committed results
def test_committed_page_and_figures_are_up_to_date():
    assert _page_tool().main(["--check"]) == 0, \
        "book/benchmarks.md or its figures are out of date: run `make benchmarks-page`"


LATEST = BENCH / "results" / "latest.json"
PAGE = ROOT / "book" / "benchmarks.md"
STATIC = ROOT / "book" / "_static"
# The width, in CSS pixels, at which a 375 px wide phone viewport (tools/browser_check.py's
# "phone") shows the figures: their <img> boxes measured in headless Chromium on the offline
# book build (tests/conftest.py::offline_book_config) after this page's figures were split.
PHONE_COLUMN_PX = 327


def _png_size_and_dpi(path):
    """(width, height, dots per inch) from a PNG's IHDR and pHYs chunks."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    width, height = struct.unpack(">II", data[16:24])
    i, dpi = 8, None
    while i < len(data):
        (n,), kind = struct.unpack(">I", data[i:i + 4]), data[i + 4:i + 8]
        if kind == b"pHYs":
            ppu_x, ppu_y, unit = struct.unpack(">IIB", data[i + 8:i + 17])
            assert unit == 1 and ppu_x == ppu_y, path       # pixels per metre, square
            dpi = ppu_x * 0.0254
        assert kind not in (b"tEXt", b"iTXt", b"zTXt"), (path, kind)   # no version, no date
        i += 12 + n
    return width, height, dpi


def test_committed_page_leads_with_a_one_line_verdict_that_matches_the_data():
    r = json.loads(LATEST.read_text())
    text = PAGE.read_text()
    first = _paragraphs(text)[0]
    assert "\n" not in first and first.startswith("**Verdict: ") and first.endswith(".**")
    # counted here from the cells, without analysis.py: per condition, each framework's best
    best = {}
    for c in r["cells"]:
        if c["mode"] == "pipeline":
            continue
        key = (c["mode"], c["workload"], c["batch"], c["threads"])
        fw = spec.CONFIG[c["config"]].framework
        best.setdefault(key, {})[fw] = max(best.get(key, {}).get(fw, 0),
                                           c["samples_per_s_median"])
    both = {k: v for k, v in best.items() if len(v) == 2}
    torch_ahead = sum(v["torch"] > v["mxnet"] for v in both.values())
    top = max(r["settings"]["threads"])
    seed = both[("loader", "mlp", 128, top)]
    ratio = seed["mxnet"] / seed["torch"]
    assert first == (f"**Verdict: PyTorch is ahead in {torch_ahead} of the {len(both)} measured "
                     "conditions; the seed's claim that Gluon trains the MLP about twice as "
                     f"fast {'holds' if ratio >= analysis.CLAIM_LOW else 'does not hold'} here "
                     f"({ratio:.2f}× where the seed measured it).**")
    # then the run it comes from and the detail, the counts again as a list
    m = r["machine"]
    assert _paragraphs(text)[1].startswith(f"Measured on {r['created'][:10]} on "
                                           f"{m['cpu_model']}")
    assert f"{m['cpus_available']} CPU(s), at 1 and 2 threads" in _paragraphs(text)[1]
    detail = _paragraphs(text)[2]
    assert detail.startswith("- **Where the seed measured**")
    assert f"- **PyTorch ahead** in {torch_ahead} of the {len(both)} (" in detail
    assert f" at {ratio:.2f}× the speed of PyTorch's fastest" in detail


def test_committed_page_has_one_linked_figure_per_workload_and_no_stale_png():
    r = json.loads(LATEST.read_text())
    text = PAGE.read_text()
    figures = _figures(text)
    workloads = [w for w in spec.WORKLOADS if analysis.cells(r, workload=w)]
    assert len(workloads) == 2
    expected = [f"_static/benchmarks-{w}.png" for w in workloads]
    assert list(figures) == expected
    assert all(target == path for path, target in figures.items())   # a link to itself
    for w, path in zip(workloads, expected):
        options, caption = _figure_blocks(text)[path]
        assert spec.WORKLOAD_SHORT[w] in caption.split(":")[0]
        assert spec.WORKLOAD_SHORT[w] in options["alt"]
        assert (ROOT / "book" / path).is_file()
    assert sorted(p.name for p in STATIC.glob("benchmarks*.png")) == \
        sorted(Path(p).name for p in expected)                      # benchmarks.png is gone
    assert "benchmarks.png" not in text


@pytest.mark.parametrize("workload", list(spec.WORKLOADS))
def test_committed_figures_are_legible_at_the_column_width(workload):
    tool = _page_tool()
    path = STATIC / f"benchmarks-{workload}.png"
    width, height, dpi = _png_size_and_dpi(path)
    assert dpi >= 110 and round(dpi) == tool.FIG_DPI
    assert width == round(tool.FIG_WIDTH_IN * tool.FIG_DPI)
    options, _ = _figure_blocks(PAGE.read_text())[f"_static/{path.name}"]
    assert options["width"] == f"{width}px"       # shown unscaled where the column allows it
    # every piece of text drawn, tick labels included, at MIN_FONT_PT or more, none cut off
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.text import Text

    fig = tool.draw_figure(json.loads(LATEST.read_text()), workload)
    FigureCanvasAgg(fig).draw()
    renderer = fig.canvas.get_renderer()

    def drawn(t):
        """Visible, not empty, and (a tick label) inside its axis' limits: axes draw only those."""
        if not (t.get_visible() and t.get_text().strip()):
            return False
        for ax in fig.axes:
            for labels, i, (lo, hi) in ((ax.get_xticklabels(), 0, ax.get_xlim()),
                                        (ax.get_yticklabels(), 1, ax.get_ylim())):
                if any(t is x for x in labels):
                    return lo <= t.get_position()[i] <= hi
        return True

    texts = [t for t in fig.findobj(Text) if drawn(t)]
    assert len(texts) > 30
    box = fig.bbox
    for t in texts:
        assert t.get_fontsize() >= tool.MIN_FONT_PT >= 11, (t.get_text(), t.get_fontsize())
        assert "$" not in t.get_text(), t.get_text()    # no mathtext: its exponents are small
        e = t.get_window_extent(renderer)               # nothing cut off at the edges
        assert e.x0 >= box.x0 - 1 and e.x1 <= box.x1 + 1, t.get_text()
        assert e.y0 >= box.y0 - 1 and e.y1 <= box.y1 + 1, t.get_text()
    # the smallest text on a phone, the figure shrunk to the column: 9 CSS px or more
    assert tool.MIN_FONT_PT / 72 * dpi * min(1, PHONE_COLUMN_PX / width) >= 9
    assert tool.MIN_FONT_PT / 72 * dpi >= 18          # at full size, in the desktop column


def test_committed_results_are_a_full_run():
    r = json.loads((BENCH / "results" / "latest.json").read_text())
    assert r["schema"] == spec.SCHEMA and r["mode"] == "full" and not r["errors"]
    assert all(not c["skipped"] for c in r["configs"])
    s, top = r["settings"], max(r["settings"]["threads"])
    assert s["threads"][0] == 1 and len(s["batches"]) >= 3
    for cfg in spec.CONFIGS:
        for w in spec.WORKLOADS:
            batches = cfg.batches_only or s["batches"]
            for b in batches:
                for mode in ("arith", "memory", "loader"):
                    assert analysis.cell(r, config=cfg.name, mode=mode, workload=w, batch=b,
                                         threads=top), (cfg.name, mode, w, b)
                assert bool(analysis.cell(r, config=cfg.name, mode="workers", workload=w,
                                          batch=b, threads=top)) == \
                    (b == s["scaling_batch"]), (cfg.name, w, b)
            if w == "mlp" or not cfg.compile:      # compile's thread scaling: the MLP only
                assert analysis.cell(r, config=cfg.name, mode="arith", workload=w,
                                     batch=s["scaling_batch"], threads=1), (cfg.name, w)
    assert all(j["isolated"] and j["status"] == "ok" for j in r["jobs"])
    assert set(r["roofline"]) == {str(t) for t in s["threads"]}
    assert not MACHINE_PATH.search(json.dumps(r))


# ------------------------------------------------------------------ pure parts, no timing
def test_flop_counts_by_hand():
    mlp, lenet = spec.WORKLOADS["mlp"], spec.WORKLOADS["lenet"]
    assert mlp.forward_flops() == 2 * (784 * 256 + 256 * 10)
    # forward + weight gradients for both layers, input gradient for the second only
    assert mlp.train_flops() == 2 * (784 * 256) * 2 + 2 * (256 * 10) * 3
    assert mlp.flops_per_sample(128) == mlp.train_flops() + 2 * 203_530 / 128
    conv1, conv2 = 28 * 28 * 6 * 25, 10 * 10 * 16 * 6 * 25
    dense = 400 * 120 + 120 * 84 + 84 * 10
    assert lenet.forward_flops() == 2 * (conv1 + conv2 + dense)
    assert lenet.train_flops() == 2 * (2 * conv1 + 3 * conv2 + 3 * dense)
    assert lenet.params == (6 * 25 + 6) + (16 * 150 + 16) + (400 * 120 + 120) + \
        (120 * 84 + 84) + (84 * 10 + 10)
    assert spec.gemm_flops(128) == 2 * 128 * 784 * 256


def test_thread_ladder_and_plan():
    assert spec.thread_ladder(1) == (1,)
    assert spec.thread_ladder(2) == (1, 2)
    assert spec.thread_ladder(6) == (1, 2, 4, 6)
    assert spec.thread_ladder(16) == (1, 2, 4, 8, 16)
    full = spec.default_settings(False, cpus=4)
    jobs = spec.plan(full)
    assert [(j.config, j.threads) for j in jobs][:len(spec.CONFIGS)] == \
        [(c.name, 4) for c in spec.CONFIGS]
    assert {(j.config, j.threads) for j in jobs} == \
        {(c.name, t) for c in spec.CONFIGS for t in (1, 2, 4)}
    for j in jobs:
        if spec.CONFIG[j.config].compile:
            assert {t.batch for t in j.tasks} == {spec.COMPILE_BATCH}
            assert {t.workload for t in j.tasks} == ({"mlp", "lenet"} if j.threads == 4
                                                     else {"mlp"})
        modes = {t.mode for t in j.tasks}
        assert ("gemm" in modes) == (j.config in ("torch-eager", "gluon"))
        assert ("pipeline" in modes) == spec.CONFIG[j.config].pipeline
    quick = spec.default_settings(True, cpus=4)
    assert quick.threads == (4,) and quick.batches == (128,) and quick.workloads == ("mlp",)
    assert not any(spec.CONFIG[c].compile for c in quick.configs)


def test_plan_has_the_input_routes_where_stated():
    """``memory`` wherever ``loader`` is (every workload and batch at the top thread count,
    the MLP below it); ``workers`` at the top thread count and the scaling batch only."""
    assert spec.MODES == ("arith", "memory", "loader", "workers", "pipeline")
    assert set(spec.MODE_TITLES) == set(spec.MODES) and spec.WORKER_PROCESSES == 2
    full = spec.default_settings(False, cpus=4)
    assert full.scaling_batch == 128 and 128 in full.batches
    jobs = spec.plan(full)
    for j in jobs:
        cfg = spec.CONFIG[j.config]
        top = j.threads == full.top
        of = {m: {(t.workload, t.batch) for t in j.tasks if t.mode == m} for m in spec.MODES}
        assert of["memory"] == of["loader"], j
        batches = cfg.batches_only or full.batches
        if top:
            assert of["memory"] == {(w, b) for w in full.workloads for b in batches}, j
            assert of["workers"] == {(w, 128) for w in full.workloads}, j
        else:
            assert of["memory"] == {("mlp", 128)}, j
            assert of["workers"] == set(), j
        assert of["arith"] >= of["memory"]
    quick = spec.plan(spec.default_settings(True, cpus=2))
    for j in quick:
        assert {(t.mode, t.workload, t.batch) for t in j.tasks} >= \
            {("memory", "mlp", 128), ("workers", "mlp", 128)}, j


# ------------------------------------------ the in-memory route: the loader's numbers
@pytest.fixture
def runner_for():
    """A benchmark worker's runner in this process, for a few batches (no timing): its
    global state (torch's threads and RNG, MXNet's NumPy mode) restored afterwards."""
    import worker

    made = []

    def make(name):
        cfg = spec.CONFIG[name]
        settings = spec.default_settings(True, cpus=1)
        if cfg.framework == "torch":
            import torch

            made.append(("torch", torch.get_num_threads(), torch.random.get_rng_state()))
            return worker.TorchRunner(cfg, settings, torch.get_num_threads())
        import mxnet as mx

        made.append(("mxnet", mx.util.is_np_array(), None))
        return worker.GluonRunner(cfg, settings, 1)
    yield make
    for framework, state, rng in made:
        if framework == "torch":
            import torch

            torch.set_num_threads(state)
            torch.random.set_rng_state(rng)
        elif not state:
            import mxnet as mx

            mx.npx.reset_np()


@pytest.mark.parametrize("name", ["torch-eager", "gluon", "gluon-np"])
def test_memory_batches_equal_the_loaders_batches(runner_for, name):
    """For the same indices, a ``memory`` batch (the set transformed once, then indexed)
    holds the numbers the per-image transforms of the ``loader`` cells give, to 1e-6, with
    the same labels, layout and dtype; the short last batch is never drawn; each epoch is a
    fresh shuffle."""
    import numpy as np

    runner = runner_for(name)
    dataset = runner.dataset()
    images, labels = runner.memory_set()
    n = len(dataset)
    assert tuple(images.shape) == (n, 1, 28, 28) and labels.shape[0] == n
    perm = np.array([0, 17, n - 1, 12_345, 3, 59_998 % n, 42, 7, 31_000 % n, 5])
    batch = 4
    chunks = [perm[i:i + batch].tolist() for i in range(0, len(perm) // batch * batch, batch)]
    mem = list(runner.memory_batches(batch, perm))
    assert len(mem) == len(chunks) == len(perm) // batch        # no short last batch
    if spec.CONFIG[name].framework == "torch":
        import torch

        loader = torch.utils.data.DataLoader(dataset, batch_sampler=chunks)

        def arr(x):
            assert x.dtype in (torch.float32, torch.int64), x.dtype
            return x.cpu().numpy()
    else:
        import mxnet as mx

        loader = mx.gluon.data.DataLoader(dataset, batch_sampler=chunks)
        kind = mx.np.ndarray if spec.CONFIG[name].numpy else mx.nd.NDArray

        def arr(x):
            assert isinstance(x, kind) and (kind is mx.np.ndarray) == \
                isinstance(x, mx.np.ndarray), type(x)
            return x.asnumpy()
    got = 0
    for (xm, ym), (xl, yl) in zip(mem, loader):
        xm, ym, xl, yl = arr(xm), arr(ym), arr(xl), arr(yl)
        assert xm.shape == xl.shape == (batch, 1, 28, 28) and xm.dtype == np.float32
        np.testing.assert_allclose(xm, xl, rtol=0, atol=1e-6)
        assert xm.std() > 0.5 and abs(xm.mean()) < 2       # normalised, not raw or /255
        np.testing.assert_array_equal(ym, yl)
        got += 1
    assert got == len(chunks)
    # a fresh shuffle each epoch: two epochs' first 64 labels differ
    first = [arr(next(runner.memory_batches(64))[1]) for _ in range(2)]
    assert first[0].shape == (64,) and not np.array_equal(first[0], first[1])


# ------------------------------------------------- the page: new routes, older results
def _results_with_routes():
    """A results dict whose cells are made up, with known medians: every route of the MLP
    at batch 128 and the top thread count, for four configurations (the committed run's
    machine, settings and GEMMs around them)."""
    r = json.loads(LATEST.read_text())
    top = max(r["settings"]["threads"])
    rates = {"torch-eager": {"arith": 40_000, "memory": 30_000, "loader": 6_000,
                             "workers": 9_000, "pipeline": 7_000},
             "torch-compile": {"arith": 50_000, "memory": 35_000, "loader": 7_000,
                               "workers": 14_000},
             "gluon": {"arith": 20_000, "memory": 16_000, "loader": 8_000, "workers": 10_000,
                       "pipeline": 9_500},
             "gluon-np": {"arith": 30_000, "memory": 12_000, "loader": 9_000}}
    cells = []
    for config, by_mode in rates.items():
        for mode, rate in by_mode.items():
            samples = 128 * 100
            seconds = samples / rate
            rate = samples / seconds            # exactly what the repeats' seconds give
            cells.append({"config": config, "framework": spec.CONFIG[config].framework,
                          "threads": top, "mode": mode,
                          "workload": None if mode == "pipeline" else "mlp", "batch": 128,
                          "threads_in_effect": {"torch": top, "mxnet": top},
                          "samples": samples, "steps": 100, "first_step_s": 0.01,
                          "seconds": [seconds] * 3, "returned_s": [0.1] * 3,
                          "samples_per_s_best": rate, "samples_per_s_median": rate})
    r["cells"] = cells
    analysis.annotate(r)
    return r


def test_input_routes_are_computed_from_the_cells():
    r = _results_with_routes()
    top = max(r["settings"]["threads"])
    torch_, mxnet_ = (analysis.input_routes(r, fw, "mlp", 128, top) for fw in ("torch", "mxnet"))
    # each framework's fastest in memory, and that configuration's other routes
    assert torch_["config"] == "torch-compile" and mxnet_["config"] == "gluon"
    assert torch_["memory_vs_arith"] == pytest.approx(0.70)
    assert torch_["memory_vs_loader"] == pytest.approx(5.0)
    assert torch_["workers_vs_loader"] == pytest.approx(2.0)
    assert mxnet_["memory_vs_arith"] == pytest.approx(0.80)
    assert mxnet_["memory_vs_loader"] == pytest.approx(2.0)
    assert analysis.input_routes(r, "torch", "lenet", 128, top) is None
    assert analysis.condition({"mode": "memory", "workload": "mlp", "batch": 128,
                               "threads": 2}) == "MLP in memory, batch 128, 2 threads"


def test_page_renders_the_input_routes(tmp_path):
    tool = _page_tool()
    r = _results_with_routes()
    top = max(r["settings"]["threads"])
    path = tmp_path / "routes.json"
    path.write_text(json.dumps(r))
    text, _ = tool.render(path)
    assert f"## Input routes (batch 128, {top} threads)" in text
    lines = text.splitlines()
    assert ("- **PyTorch** (PyTorch torch.compile (inductor), its fastest in memory): "
            "35\u2009000 samples/s in memory, 0.70× its arithmetic-only speed (50\u2009000) "
            "and 5.00× its per-image DataLoader (7\u2009000); with 2 DataLoader workers "
            "14\u2009000 samples/s, 2.00× the DataLoader without.") in lines
    assert ("- **Gluon** (Gluon imperative, its fastest in memory): 16\u2009000 samples/s "
            "in memory, 0.80× its arithmetic-only speed (20\u2009000) and 2.00× its "
            "per-image DataLoader (8\u2009000); with 2 DataLoader workers 10\u2009000 samples/s, "
            "1.25× the DataLoader without.") in lines
    # the routes table, and the throughput table's columns and rows
    routes = text.split("## Input routes", 1)[1].split("\n## ", 1)[0].splitlines()
    assert "| configuration | arithmetic | in memory | loader | 2 workers |" in routes
    eager = next(x for x in routes if x.startswith("| PyTorch eager | "))
    assert re.fullmatch(r"\| PyTorch eager \| 40\u2009000 \([\d.]+ %\) \| 30\u2009000 \([\d.]+ %\) "
                        r"\| 6\u2009000 \([\d.]+ %\) \| 9\u2009000 \([\d.]+ %\) \|", eager), eager
    np_row = next(x for x in routes if x.startswith("| Gluon imperative on mx.np"))
    assert np_row.endswith(" | — |")                  # no workers cell: a dash
    assert any(x.startswith("| configuration | arithmetic, 128 | in memory, 128 | "
                            "loader, 128 | 2 workers, 128 |") for x in lines)
    row = next(x for x in lines if x.startswith("| PyTorch eager | 40\u2009000 (0.80×"))
    assert "| 30\u2009000 (0.86×, " in row and "| 9\u2009000 (0.64×, " in row
    # every route is a condition of the comparisons, in MODES order
    assert f"| MLP in memory, batch 128, {top} threads | Gluon imperative |" in text
    assert (f"| MLP through the DataLoader with 2 workers, batch 128, {top} threads | "
            "Gluon imperative | PyTorch torch.compile (inductor) | 0.71 |") in text
    assert "not measured in this run" not in text
    # the figure: a panel in memory, the roofline in its legend, workers as squares
    fig = tool.draw_figure(r, "mlp")
    titles = [ax.get_title() for ax in fig.axes]
    assert titles == [f"Arithmetic only, {top} threads", f"In memory (transformed once), "
                      f"{top} threads", f"Through the DataLoader, {top} threads"]
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert "DataLoader, 2 worker processes" in legend
    assert any(t.startswith("GEMM roofline") for t in legend)
    memory_ax, loader_ax = fig.axes[1], fig.axes[2]
    assert any(line.get_linestyle() == "--" for line in memory_ax.get_lines())   # roofline
    squares = [line for line in loader_ax.get_lines() if line.get_marker() == "s"]
    assert len(squares) == 3 and all(list(line.get_xdata()) == [128] for line in squares)


def test_page_renders_older_results_without_the_new_routes(tmp_path):
    """A results file from before ``memory`` and ``workers`` existed still renders: the
    routes say they were not measured, no column or panel is drawn for them."""
    tool = _page_tool()
    r = json.loads(LATEST.read_text())
    r["cells"] = [c for c in r["cells"] if c["mode"] not in ("memory", "workers")]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(r))
    text, stats = tool.render(path)
    assert stats["cells"] == len(r["cells"])
    assert "The in-memory route and the DataLoader with 2 worker processes: not measured " \
        "in this run" in text
    assert "its fastest in memory" not in text and "in memory, 128" not in text
    assert "The in-memory route: not measured in this run." in text
    fig = tool.draw_figure(r, "mlp")
    assert not any("In memory" in ax.get_title() for ax in fig.axes)
    page = tmp_path / "benchmarks.md"
    assert tool.main(["--results", str(path), "--out", str(page)]) == 0
    assert page.read_text() == text and (tmp_path / "_static" / "benchmarks-mlp.png").exists()


def _fake(ratios_by_condition):
    """A results dict with one Gluon and one PyTorch cell per condition, for the verdict."""
    cells = []
    for (mode, workload, batch, threads), ratio in ratios_by_condition.items():
        for config, rate in (("torch-eager", 1000.0), ("gluon", 1000.0 * ratio)):
            cells.append({"config": config, "mode": mode, "workload": workload, "batch": batch,
                          "threads": threads, "samples_per_s_median": rate})
    return {"cells": cells}


def test_verdict_follows_the_data():
    holds = analysis.verdict(_fake({("loader", "mlp", 128, 2): 2.1,
                                    ("arith", "mlp", 128, 2): 0.6}))
    assert holds["holds"] is True and " holds on this machine" in holds["sentence"]
    assert "2.10×" in holds["sentence"] and "PyTorch is ahead in 1" in holds["sentence"]
    fails = analysis.verdict(_fake({("loader", "mlp", 128, 2): 1.1,
                                    ("loader", "mlp", 128, 1): 1.3,
                                    ("arith", "mlp", 128, 2): 0.5}))
    assert fails["holds"] is False and "does not hold" in fails["sentence"]
    assert "largest lead is 1.30× (MLP through the DataLoader, batch 128, 1 thread)" in \
        fails["sentence"]
    assert "by up to 2.00× (MLP arithmetic only, batch 128, 2 threads)" in fails["sentence"]
    only_elsewhere = analysis.verdict(_fake({("loader", "mlp", 128, 2): 1.0,
                                             ("loader", "mlp", 32, 2): 1.9}))
    assert only_elsewhere["holds"] is False
    assert "ahead in 1 (MLP through the DataLoader, batch 32, 2 threads)" in \
        only_elsewhere["sentence"]
    assert analysis.verdict({"cells": []})["holds"] is None


def test_verdict_line_follows_the_data():
    line = _page_tool().verdict_line
    fails = analysis.verdict(_fake({("loader", "mlp", 128, 2): 1.1,
                                    ("loader", "mlp", 128, 1): 1.3,
                                    ("arith", "mlp", 128, 2): 0.5}))
    assert line(fails) == (
        "PyTorch is ahead in 1 of the 3 measured conditions; the seed's claim that Gluon "
        "trains the MLP about twice as fast does not hold here (1.10× where the seed "
        "measured it).")
    holds = analysis.verdict(_fake({("loader", "mlp", 128, 2): 2.1,
                                    ("loader", "mlp", 32, 2): 1.2}))
    assert line(holds) == (
        "PyTorch is ahead in none of the 2 measured conditions; the seed's claim that Gluon "
        "trains the MLP about twice as fast holds here (2.10× where the seed measured it).")
    # judged at the top thread count, where the seed's 1-thread cell does not count
    top = analysis.verdict(_fake({("loader", "mlp", 128, 4): 0.8,
                                  ("loader", "mlp", 128, 1): 2.5}))
    assert "ahead in 1 of the 2" in line(top) and "does not hold here (0.80×" in line(top)
    empty = analysis.verdict({"cells": []})
    assert line(empty) == empty["sentence"] and "cannot judge" in line(empty)


# ------------------------------------------------------------ bad flags: refused up front
def _run_module():
    s = importlib.util.spec_from_file_location("bench_run", BENCH / "run.py")
    module = importlib.util.module_from_spec(s)
    s.loader.exec_module(module)
    return module


@pytest.mark.parametrize("flags, message", [
    (["--threads", "0"], "thread counts and batch sizes must be >= 1"),
    (["--batches", "128", "-4"], "thread counts and batch sizes must be >= 1"),
    (["--threads", "two"], "argument --threads: invalid int value: 'two'"),
    (["--configs", "tensorflow"], "argument --configs: invalid choice: 'tensorflow'"),
    (["--device", "tpu"], "argument --device: invalid choice: 'tpu'"),
    (["--repeats", "0"], "--workers must be >= 0 and --repeats >= 1"),
    (["--workers", "-1"], "--workers must be >= 0 and --repeats >= 1"),
    (["--target-s", "0"], "--target-s must be > 0 seconds"),
])
def test_bad_flags_exit_2_before_any_job(flags, message, tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        _run_module().main(["--quick", "--no-plot", "--out", str(tmp_path / "out"), *flags])
    captured = capsys.readouterr()
    assert exit_.value.code == 2 and f": error: {message}" in captured.err
    assert captured.out == "" and list(tmp_path.iterdir()) == []   # no job ran, no file


def test_out_under_a_file_exits_2_before_any_job(tmp_path, capsys):
    (tmp_path / "results").write_text("a file")
    with pytest.raises(SystemExit) as exit_:
        _run_module().main(["--quick", "--out", str(tmp_path / "results" / "run1")])
    captured = capsys.readouterr()
    assert exit_.value.code == 2 and captured.out == ""
    assert (f": error: --out {tmp_path}/results/run1: {tmp_path}/results is a file, not "
            "a folder; nothing was run") in captured.err
    assert [p.name for p in tmp_path.iterdir()] == ["results"]
    assert (tmp_path / "results").read_text() == "a file"
