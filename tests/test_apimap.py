"""The executable API map: every row runs and matches, a wrong port of a row fails, the map
covers the seed's tables, and the package keeps every name importable."""

import dataclasses
import os
import re
import subprocess
import sys

import pytest

from conftest import ROOT
from sidebyside import apimap
from sidebyside.apimap import run as apimap_run

SEEDS = ROOT.parent / "shared" / "seeds"
SEED_WITH_TABLE = "000_b8cbebcc61a76b65.txt"


#: each row's result as test_every_row_runs_and_matches ran it (the summary test reads them
#: instead of running the whole map a second time)
RESULTS: dict[str, object] = {}


@pytest.mark.parametrize("row", apimap.ROWS, ids=[r.key for r in apimap.ROWS])
def test_every_row_runs_and_matches(row):
    result = apimap.check(row)
    RESULTS[row.key] = result
    assert result.ok, result.summary
    assert set(result.detail) == set(row.mxnet_code)


def _seed_text():
    path = SEEDS / SEED_WITH_TABLE
    if not path.exists():
        if os.environ.get("SIDEBYSIDE_REQUIRE_SEEDS"):
            pytest.fail(f"{path} is missing and SIDEBYSIDE_REQUIRE_SEEDS is set")
        pytest.skip(f"the seed articles are not beside this checkout ({SEEDS})")
    return path.read_text(encoding="utf-8")


def _table(text, start, end):
    header = "功能PyTorchMXNet Gluon"
    a = text.index(header, text.index(start)) + len(header)
    return text[a:text.index(end, a)]


@pytest.mark.parametrize("table,start,end", [
    ("tensor", "Tensor / NDArray 运算对照", "GPU 与跨设备操作"),
    ("device", "GPU 与跨设备操作", "自动微分"),
])
def test_map_covers_every_row_of_the_seed_table(table, start, end):
    """Walk the seed's table: each row is a label, the PyTorch cell, then the MXNet cell.

    The map's rows, in order, must consume the whole table, and what lies between them must
    be a label (prose), never code — so no seed row can be missing or out of order.
    """
    text = _table(_seed_text(), start, end)
    rows = [r for r in apimap.ROWS if r.table == table and r.from_seed]
    cursor, labels = 0, []
    for r in rows:
        at = text.find(r.seed_torch + r.seed_mxnet, cursor)
        assert at >= 0, f"row {r.key!r}: seed cells not found after position {cursor}"
        label = text[cursor:at]
        assert label and not re.search(r"[()=]|\bnd\.|torch\.", label), (r.key, label)
        labels.append(label)
        cursor = at + len(r.seed_torch) + len(r.seed_mxnet)
    assert text[cursor:] == "", f"seed rows after {rows[-1].key!r}: {text[cursor:]!r}"
    assert len(labels) == len(rows) == {"tensor": 47, "device": 5}[table]


def test_statuses_and_seed_verdicts_are_consistent():
    for r in apimap.ROWS:
        assert r.status in apimap.STATUSES
        assert r.table in apimap.TABLES and r.source in apimap.SOURCES
        if r.status == apimap.MISSING:
            assert r.nd is None and r.np is None
        if apimap.verdict_kind(r) == "stale":
            # "stale" means: the seed said Not available, and there is something now
            assert r.seed_said_missing and r.status != apimap.MISSING, r.key
        if not r.from_seed:  # rows added later claim nothing about the seed
            assert r.seed_torch == r.seed_mxnet == "" and not r.seed_said_missing, r.key
            assert apimap.verdict_kind(r) == apimap.NOT_IN_SEED, r.key


PORTS = ["randn", "randn_like", "rand", "rand_like", "cat", "stack", "sigmoid", "relu", "tanh",
         "log", "softmax", "double()", "make_grid", "save_image"]


def test_rows_added_to_the_seed_say_what_for():
    assert [r.key for r in apimap.ROWS if r.source == apimap.PORTS] == PORTS
    book = [r.key for r in apimap.ROWS if r.source == apimap.BOOK]
    assert {"detach", "narrow", "contiguous", "new_zeros", "exp", "pow", "Embedding", "LSTM",
            "GRU", "RNN", "NLLLoss", "binary_cross_entropy", "sgd_mom_update", "name_scope",
            "save", "begin_state", "LSTMCell", "flatten_parameters", "clip_global_norm"} <= set(book)
    assert {apimap.row(k).table for k in ("begin_state", "LSTMCell", "flatten_parameters",
                                          "clip_global_norm")} == {"nn"}
    assert apimap.ISSUE_13 == apimap.PORTS  # the old name still imports
    assert apimap.row("cat").status == apimap.SEMANTICS and "defaults to 1" in apimap.row(
        "cat").verdict
    # to_markdown says what an added row was added for; seed rows are unchanged
    md = apimap.to_markdown(rows=[apimap.row("acos"), apimap.row("cat"), apimap.row("LSTM")])
    assert "**cat**<br>*different semantics*<br>*(added for the capstones' ports)*" in md
    assert "**LSTM**<br>*same name*<br>*(added for names the other notebooks use)*" in md
    assert "**acos**<br>*renamed* |" in md
    back = apimap.to_markdown(rows=[apimap.row("cat")], direction="mxnet")
    assert ("| nd.concat, mx.np.concatenate<br>*different semantics*<br>"
            "*(added for the capstones' ports)* |") in back
    added_md = apimap.added_markdown()
    assert added_md.count("\n") == len(PORTS) + len(book) + 1
    assert "| **cat** | the capstones' ports |" in added_md and "**acos**" not in added_md
    only = apimap.added_markdown(source=apimap.BOOK)
    assert only.count("\n") == len(book) + 1 and "**cat**" not in only


def test_nothing_shown_to_a_reader_names_an_issue():
    results = apimap.check_all(apimap.ROWS[:2])
    shown = "\n".join([apimap.to_markdown(), apimap.to_markdown(direction="mxnet"),
                       apimap.seed_markdown(only_notes=False), apimap.added_markdown(),
                       repr(apimap.summary(results)), *apimap.SOURCES.values()])
    assert not re.search(r"(?i)\bissue\b|\bCI\b", shown), re.search(r"(?i)\bissue\b|\bCI\b",
                                                                        shown)


def test_summary_counts_add_up():
    ran = [RESULTS.get(r.key) for r in apimap.ROWS]  # this worker ran them all: reuse them
    results = ran if all(ran) else apimap.check_all()
    s = apimap.summary(results)
    assert s["rows"] == len(apimap.ROWS) == sum(s["by table"].values())
    assert s["by source"] == {"seed": 52, "ports": 14,
                              "book": sum(r.source == apimap.BOOK for r in apimap.ROWS)}
    assert s["by table"]["device"] == 5 and s["by table"]["nn"] >= 8
    assert s["checked ok"] == s["rows"]
    assert sum(s["by status"].values()) == s["rows"]
    assert s["seed said not available"] == (s["of those, available now"]
                                             + s["of those, a composite"]
                                             + s["of those, still missing"]) == 13
    assert sum(s["seed verdicts"].values()) == s["by source"]["seed"]
    assert apimap.NOT_IN_SEED not in s["seed verdicts"]


def test_a_wrong_equivalent_is_caught():
    # the seed's fmod row, taken at its word with the operator that does exist
    wrong = dataclasses.replace(apimap.row("fmod"), nd="nd.modulo(x, 0.3)", np=None)
    result = apimap.check(wrong)
    assert not result.ok and "FAILED" in result.detail["mx.nd"]
    # a sampler with the wrong parametrisation (scale where the rate is meant)
    wrong = dataclasses.replace(apimap.row("exponential_"), nd=None,
                                np="mx.np.random.exponential(scale=4.0, size=(N,))")
    assert not apimap.check(wrong).ok


def _fails(key, **changes):
    result = apimap.check(dataclasses.replace(apimap.row(key), **changes))
    return not result.ok and all(d.startswith("FAILED") for d in result.detail.values())


def _edit(key, side, old, new):
    """The row's ``side`` snippet with ``old`` replaced (which must be there)."""
    code = getattr(apimap.row(key), side)
    assert old in code, (key, old)
    return code.replace(old, new)


def test_wrong_axes_are_caught():
    # nd.concat without dim= joins along axis 1: (3, 8), not torch.cat's (6, 4)
    assert _fails("cat", nd="nd.concat(x, y)", np=None)
    # nd.softmax without axis= normalises the last axis, not dim 0
    assert _fails("softmax", nd="nd.softmax(x)", np=None)
    assert _fails("stack", nd="nd.stack(x, y)", np=None)


def test_wrong_samplers_are_caught():
    assert _fails("randn", nd="nd.random.normal(scale=1.1, shape=(N,))", np=None)
    # float32 samples for a float64 input: the dtype differs
    assert _fails("randn_like", np=None, nd="nd.random.normal(shape=(N,))")
    # shifted by 0.003: mean and std pass, but samples leave [0, 1)
    assert _fails("rand", nd="nd.random.uniform(shape=(N,)) + 0.003", np=None)
    # a sorted arange is no permutation drawn at random; a repeated value is none at all
    assert _fails("randperm", nd="nd.arange(N).astype('int64')", np=None)
    assert _fails("randperm", nd="nd.zeros((N,), dtype='int64')", np=None)


@pytest.mark.parametrize("key, changes", [
    # the gradient flows through both factors without detach(): 2u, not u
    ("detach", {"nd": _edit("detach", "nd", "(u.detach() * u)", "(u * u)"), "np": None}),
    # narrow's third argument is a length, slice_axis's end an index
    ("narrow", {"nd": "nd.slice_axis(x, axis=1, begin=1, end=2)", "np": None}),
    # without dtype= the zeros are float32 (torch keeps the model tensor's float64)
    ("new_zeros", {"nd": "nd.zeros((2, 3))", "np": None}),
    ("arange", {"nd": "nd.arange(5)", "np": None}),
    ("tensor", {"nd": "nd.array([[1, 2], [3, 4]])", "np": None}),
    # float32 indices compared with torch's int64 ones
    ("argmax", {"nd": "nd.argmax(x, axis=1)", "np": None}),
    # numpy's (and mx.np's) default ddof=0, not torch's unbiased estimate
    ("std", {"np": "mx.np.std(x, axis=1)", "nd": None}),
    # torch.transpose swaps two dimensions; permute's order is not a swap
    ("permute", {"nd": "nd.swapaxes(b1, 0, 2)", "np": None}),
    # nd.split's integer is the number of pieces, torch.split's their size
    ("split", {"nd": "nd.split(x, num_outputs=1, axis=1)", "np": None}),
    ("flatten", {"nd": "b1.reshape((-1,))", "np": None}),
    # topk without ret_typ='both' gives the indices only
    ("topk", {"nd": "nd.topk(x, axis=1, k=2)", "np": None}),
    ("max", {"nd": "nd.max(x, axis=1)", "np": None}),
    ("one_hot", {"nd": "nd.one_hot(nd.array([0, 3, 1]), 4)", "np": None}),
    # a transposed embedding table: same shape, other rows
    ("Embedding", {"nd": _edit("Embedding", "nd", "set_data(w)", "set_data(w.T)")}),
    # logits passed where NLLLoss wants log-probabilities (the log_softmax left out)
    ("NLLLoss", {"nd": _edit("NLLLoss", "nd", "nd.log_softmax(x, axis=1)", "x")}),
    ("binary_cross_entropy",
     {"nd": _edit("binary_cross_entropy", "nd", "from_sigmoid=True", "from_sigmoid=False")}),
    # Gluon's RNN without activation='tanh' is a ReLU RNN
    ("RNN", {"nd": _edit("RNN", "nd", ", activation='tanh'", "")}),
    # LSTM gate blocks in another order (input, forget, output, cell)
    ("LSTM", {"nd": _edit("LSTM", "nd", "p.set_data(nd.array(w))",
                          "p.set_data(nd.array(onp.concatenate([w[:6], w[9:], w[6:9]])))")}),
    # the GRU's two biases swapped: the reset gate scales h2h's bias, so they are not a sum
    ("GRU", {"nd": _edit("GRU", "nd", "layer.l0_i2h_bias, layer.l0_h2h_bias",
                         "layer.l0_h2h_bias, layer.l0_i2h_bias")}),
    # the state of the first chunk not carried to the next: zeros again
    ("begin_state", {"nd": _edit("begin_state", "nd", "layer(seq[2:], state)",
                                 "layer(seq[2:], layer.begin_state(batch_size=1))")}),
    # unroll's default layout is 'NTC': a (time, batch, feature) sequence read batch first
    ("LSTMCell", {"nd": _edit("LSTMCell", "nd", "layout='TNC', ", "")}),
    # each gradient clipped by its own norm, not all by their joint norm
    ("clip_global_norm", {"nd": _edit(
        "clip_global_norm", "nd", "mx.gluon.utils.clip_global_norm(grads, max_norm=0.1), grads",
        "norms = [nd.norm(g) for g in grads]\n"
        "[g * min(1.0, 0.1 / n.asscalar()) for g, n in zip(grads, norms)]\n"
        "nd.sqrt(nd.add_n(*[n * n for n in norms])).asscalar(), "
        "[g * min(1.0, 0.1 / n.asscalar()) for g, n in zip(grads, norms)]")}),
    # without name_scope the child's global names lack the block's prefix
    ("name_scope", {"nd": _edit("name_scope", "nd", "    with self.name_scope():  # the "
                                "children's names get the block's prefix\n    ", "")}),
])
def test_a_plausible_wrong_port_of_an_added_row_fails(key, changes):
    assert _fails(key, **changes)


def test_lstm_biases_are_a_sum_and_momentum_rules_part_after_a_rate_change():
    """Two claims of the rows' notes: swapping an LSTM's two biases changes nothing (they are
    added), and the two momentum rules agree only while the learning rate stays put."""
    swapped = _edit("LSTM", "nd", "layer.l0_i2h_bias, layer.l0_h2h_bias",
                    "layer.l0_h2h_bias, layer.l0_i2h_bias")
    assert apimap.check(dataclasses.replace(apimap.row("LSTM"), nd=swapped)).ok
    r = apimap.row("sgd_mom_update")
    torch_code = _edit("sgd_mom_update", "torch", "    opt.step()",
                       "    opt.step()\n    opt.param_groups[0]['lr'] = 0.05")
    nd_code = _edit("sgd_mom_update", "nd", "for grad in (y, t):", "for grad, lr in ((y, 0.1), (t, 0.05)):")
    nd_code = nd_code.replace("lr=0.1", "lr=lr")
    assert not apimap.check(dataclasses.replace(r, torch=torch_code, nd=nd_code)).ok
    # the same rate change written once on each side, but a constant rate: they agree
    assert apimap.check(dataclasses.replace(r, torch=torch_code.replace("0.05", "0.1"),
                                            nd=nd_code.replace("0.05", "0.1"))).ok


def _clip_by_hand(eps):
    """The clip_global_norm row's Gluon side with MXNet's formula written out, epsilon ``eps``."""
    return _edit("clip_global_norm", "nd",
                 "mx.gluon.utils.clip_global_norm(grads, max_norm=0.1), grads",
                 "norm = nd.sqrt(nd.add_n(*[nd.dot(g.reshape((-1,)), g.reshape((-1,))) "
                 "for g in grads]))\n"
                 f"scale = nd.minimum(0.1 / (norm + {eps}), 1.0)\n"
                 "grads = [g * scale for g in grads]\n"
                 "norm.asscalar(), grads")


def test_the_clip_row_tells_the_two_epsilons_apart():
    """MXNet's formula by hand passes the clip row's judge; PyTorch's epsilon in the Gluon loop
    (no gap) fails it, and so does the norm after clipping returned for the norm before."""
    r = apimap.row("clip_global_norm")
    assert apimap.check(dataclasses.replace(r, nd=_clip_by_hand("1e-8"))).ok
    assert _fails("clip_global_norm", nd=_clip_by_hand("1e-6"))
    after = _clip_by_hand("1e-8").replace(
        "norm.asscalar(), grads", "nd.sqrt(nd.add_n(*[(g * g).sum() for g in grads]))"
        ".asscalar(), grads")
    assert _fails("clip_global_norm", nd=after)


def test_a_partial_cast_is_caught():
    r = apimap.row("double()")
    assert "net.cast('float64')" in r.nd
    # only the first layer cast: the float64 input then meets float32 weights and raises
    assert _fails("double()", nd=r.nd.replace("net.cast('float64')", "net[0].cast('float64')"))
    # the judge itself: (before, after the cast, after the first forward, output dtype)
    judge = apimap.row("double()").judge
    good = (["float32"] * 8, ["float64"] * 8, ["float64"] * 8, "float64")
    assert "all 8 float tensors" in judge(good, good, "mx.nd")
    deferred_left = (good[0], ["float64"] * 7 + ["float32"], good[2], good[3])
    with pytest.raises(AssertionError, match="after the cast"):
        judge(good, deferred_left, "mx.nd")
    with pytest.raises(AssertionError, match="8 torch tensors vs 6 MXNet"):
        judge(good, (good[0][:6], good[1][:6], good[2][:6], good[3]), "mx.nd")


@pytest.mark.parametrize("old, new, why", [
    # images placed one padding width up and left: same shape, other values
    ("p + (i // cols)", "(i // cols)", "the padding above each row"),
    ("p + (i % cols)", "(i % cols)", "the padding left of each image"),
    ("nd.full((c,", "1 + nd.full((c,", "the pad value"),
    ("min(nrow, n)", "min(8, n)", "nrow"),
    # a one-channel batch kept one channel: (1, H, W) where torchvision makes (3, H, W)
    ("if imgs.shape[1] == 1:", "if False:", "one channel repeated three times"),
    ("if n == 1:", "if False:", "a lone image unpadded"),
])
def test_make_grid_matches_torchvision_pixel_for_pixel(old, new, why):
    assert _fails("make_grid", nd=_edit("make_grid", "nd", old, new)), why


def test_save_image_matches_torchvision_pixel_for_pixel():
    png = apimap.row("save_image").nd
    assert "png_of(imgs[:, :1], nrow=4)" in png  # a one-channel batch is written too
    # truncation instead of save_image's rounding: about half the pixels one lower
    assert _fails("save_image", nd=_edit("save_image", "nd", "* 255 + 0.5", "* 255"))
    # the bug this row once had: a one-channel grid is (H, W, 1), which PIL cannot write
    broken = _edit("save_image", "nd", "if imgs.shape[1] == 1:", "if False:")
    result = apimap.check(dataclasses.replace(apimap.row("save_image"), nd=broken))
    assert not result.ok and "TypeError: Cannot handle this data type" in result.detail["mx.nd"]


def test_markdown_reads_both_ways():
    results = apimap.check_all(apimap.ROWS[:3])
    md = apimap.to_markdown(results, rows=apimap.ROWS[:3])
    assert md.count("\n") == 2 + 3 - 1 and "✔" in md and "`torch.acos(x)`" in md
    # The check column shows the largest difference seen, which depends on how this CPU
    # rounds (often 0, "exact"): assert that it is a pass within the row's tolerance.
    for r in apimap.ROWS[:3]:
        check = re.search(rf"\*\*{re.escape(r.key)}\*\*<br>\*{r.status}\*<br>([^|]*) \|",
                          md).group(1)
        shown = re.fullmatch(r"✔ (exact|Δ≤(\S+))", check)
        assert shown, check
        if shown.group(2):
            assert float(shown.group(2)) <= r.atol + r.rtol * 2.0, (r.key, check)
    assert "`mx.np` / `npx`:<br>`mx.np.arccos(x)`" in md
    back = apimap.to_markdown(rows=apimap.ROWS[:3], direction="mxnet").splitlines()
    assert back[0].startswith("| MXNet names") and "✔" not in "".join(back)
    # sorted by the MXNet name; "arithmetic" names no API: last, under its own line
    assert [ln.split("|")[1].split("<br>")[0].strip() for ln in back[2:]] == [
        "nd.arccos, mx.np.arccos", "nd.linalg.gemm2, mx.np.einsum", apimap.NO_API_NAME,
        "arithmetic"]
    with pytest.raises(ValueError, match="direction"):
        apimap.to_markdown(direction="gluon")
    # one table at a time
    nn_md = apimap.to_markdown(table="nn")
    assert nn_md.count("\n") == 1 + sum(r.table == "nn" for r in apimap.ROWS)
    assert "**LSTM**" in nn_md and "**acos**" not in nn_md


def test_seed_table_lists_the_corrections():
    md = apimap.seed_markdown()
    assert "`nd.module(x, 3)`" in md and "**acos**" not in md
    full = apimap.seed_markdown(only_notes=False)
    assert full.count("\n") == sum(r.from_seed for r in apimap.ROWS) + 1
    assert "**cat**" not in full  # not a seed row
    # scraped text shown as intended, with the scraped form beside it
    assert "`t + v*(t1/t2)`<br>*(scraped as* `t v*(t1/t2)`*)*" in full
    assert "`x = mx.nd.ones((1,), ctx=mx.gpu(0))`<br>`y = x.as_in_context(mx.gpu(1))`" in full


def test_seed_as_intended_only_restores_what_scraping_lost():
    """Each restored cell, with `+`, `=`, line breaks and spaces removed, is the scraped one
    (the translations of the three Chinese notes aside)."""
    translated = {"Not available可使用nd.custom(x, op)", "nd.norm(x)仅计算 L2 范数",
                  "print(x)会打印设备信息"}
    cells = {c for r in apimap.ROWS for c in (r.seed_torch, r.seed_mxnet)}
    for scraped, intended in apimap.SEED_AS_INTENDED.items():
        assert scraped in cells, scraped
        if scraped not in translated:
            strip = lambda t: re.sub(r"[+=\s]", "", t)  # noqa: E731
            assert strip(intended) == strip(scraped), (scraped, intended)


@pytest.mark.parametrize("api, name", [
    ("nd.arccos, mx.np.arccos", "nd.arccos"), ("arithmetic", None),
    ("none (nd.zeros + slice assignment)", None), ("asnumpy + nd.array (host round trip)",
                                                   "asnumpy"),
    ("ctx=, mx.gpu(i)", "ctx"), ("with mx.Context", "mx.Context"),
    ("MXNDArrayGetData (C API), NDArray.to_dlpack_for_read", "NDArray.to_dlpack_for_read"),
    ("nd.modulo (= torch.remainder)", "nd.modulo"),
    ("none needed (.T copies: every NDArray is contiguous)", None),
    ("gluon.loss.SoftmaxCrossEntropyLoss (from_logits=True)", "gluon.loss.SoftmaxCrossEntropyLoss"),
    # a dotted name inside the remark is not the row's name: the row has none
    ("none needed (gluon.rnn layers concatenate their weights at every call)", None),
    ("gluon.rnn.LSTM.begin_state, rnn.GRU.begin_state", "gluon.rnn.LSTM.begin_state")])
def test_api_name(api, name):
    assert apimap.api_name(api) == name


def test_mxnet_first_table_sorts_by_mxnet_name():
    back = apimap.to_markdown(direction="mxnet").splitlines()[2:]
    names = [ln.split("|")[1].split("<br>")[0].strip() for ln in back]
    cut = names.index(apimap.NO_API_NAME)
    assert set(names[cut + 1:]) == {r.api for r in apimap.ROWS if r.mxnet_name is None} == {
        "arithmetic", "none (nd.full + slice assignment)",
        "none needed (.T copies: every NDArray is contiguous)",
        "none needed (gluon.rnn layers concatenate their weights at every call)"}
    by_name = {r.api: r.mxnet_name for r in apimap.ROWS}
    lasts = [by_name[n].rsplit(".", 1)[-1].lower() for n in names[:cut]]
    assert lasts == sorted(lasts) and lasts[0] == "abs"


def test_row_lookup_and_bad_snippets():
    assert apimap.row("gather").status == apimap.SEMANTICS
    with pytest.raises(KeyError, match="rows: acos"):
        apimap.row("gels_old")
    with pytest.raises(ValueError, match="end with an expression"):
        apimap.run_snippet("y = 1", {})
    assert apimap.run_snippet("y = 2\ny * 3", {}) == 6
    with pytest.raises(ValueError, match="side must be"):
        apimap_run._namespace("jax", {})


def test_device_pair_falls_back_to_two_cpu_contexts_without_gpus():
    (d0, d1), (c0, c1) = apimap.device_pair()
    assert d0.type == d1.type
    if c0.device_type == "cpu":
        assert (c0.device_id, c1.device_id) == (0, 1)


# ---------------------------------------------------------------------- the package
#: what `sidebyside.apimap` exported when it was one module (its __all__ and what notebooks,
#: tests and tools read from it)
MODULE_NAMES = ["STATUSES", "SEED", "NOT_IN_SEED", "ISSUE_13", "Row", "Result", "ROWS",
                "SEED_AS_INTENDED", "row", "inputs", "device_pair", "run_snippet", "check",
                "check_all", "summary", "to_markdown", "seed_markdown", "added_markdown", "find",
                "verdict_kind", "api_name", "MAP_NOTEBOOK", "MAP_SECTION", "NO_API_NAME",
                "N_RANDOM", "SAME", "RENAMED", "SEMANTICS", "COMPOSITE", "MISSING",
                "NOT_AVAILABLE"]


def test_every_name_of_the_old_module_is_still_importable():
    missing = [n for n in MODULE_NAMES if not hasattr(apimap, n)]
    assert not missing, missing
    assert set(MODULE_NAMES) <= set(apimap.__all__) | {"N_RANDOM"}
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        apimap.no_such_name  # noqa: B018


def test_the_package_exports_what_its_modules_do():
    import importlib
    parts = [importlib.import_module(f"sidebyside.apimap.{m}").__all__ for m in apimap._MODULES]
    flat = [n for names in parts for n in names]
    assert len(flat) == len(set(flat)), "a name is exported by two modules"
    assert sorted(apimap.__all__) == sorted(flat)
    for name in apimap.__all__:
        assert getattr(apimap, name) is not None, name


def test_reading_the_error_index_and_the_helpers_imports_no_framework():
    code = ("import sys\nimport sidebyside.apimap.errorindex, sidebyside.apimap.helpers\n"
            "print(sorted(m for m in ('torch', 'mxnet') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=120).stdout
    assert out.strip() == "[]"
