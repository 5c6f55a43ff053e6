"""The executable API map: every row runs and matches, and it covers the seed's tables."""

import dataclasses
import os
import re

import pytest

from conftest import ROOT
from sidebyside import apimap

SEEDS = ROOT.parent / "shared" / "seeds"
SEED_WITH_TABLE = "000_b8cbebcc61a76b65.txt"


@pytest.mark.parametrize("row", apimap.ROWS, ids=[r.key for r in apimap.ROWS])
def test_every_row_runs_and_matches(row):
    result = apimap.check(row)
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
        if r.status == apimap.MISSING:
            assert r.nd is None and r.np is None
        if apimap.verdict_kind(r) == "stale":
            # "stale" means: the seed said Not available, and there is something now
            assert r.seed_said_missing and r.status != apimap.MISSING, r.key
        if not r.from_seed:  # rows added later claim nothing about the seed
            assert r.seed_torch == r.seed_mxnet == "" and not r.seed_said_missing, r.key
            assert apimap.verdict_kind(r) == apimap.NOT_IN_SEED, r.key


def test_rows_added_by_issue_13_are_marked():
    added = [r.key for r in apimap.ROWS if not r.from_seed]
    assert added == ["randn", "randn_like", "rand", "rand_like", "cat", "stack", "sigmoid",
                     "relu", "tanh", "log", "softmax", "double()", "make_grid", "save_image"]
    assert {r.source for r in apimap.ROWS} == {apimap.SEED, apimap.ISSUE_13}
    assert apimap.row("cat").status == apimap.SEMANTICS and "defaults to 1" in apimap.row(
        "cat").verdict
    # to_markdown says where an added row comes from; seed rows are unchanged
    md = apimap.to_markdown(rows=[apimap.row("acos"), apimap.row("cat")])
    assert "**cat**<br>*different semantics*<br>*(issue 13, not the seed)*" in md
    assert "**acos**<br>*renamed* |" in md
    back = apimap.to_markdown(rows=[apimap.row("cat")], direction="mxnet")
    assert ("| nd.concat, mx.np.concatenate<br>*different semantics*<br>"
            "*(issue 13, not the seed)* |") in back
    added_md = apimap.added_markdown()
    assert added_md.count("\n") == len(added) + 1 and "| **cat** | issue 13 |" in added_md
    assert "**acos**" not in added_md

def test_summary_counts_add_up():
    results = apimap.check_all()
    s = apimap.summary(results)
    assert s["rows"] == len(apimap.ROWS) == 66
    assert s["by source"] == {"seed": 52, "issue 13": 14}
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


def test_grid_and_png_are_compared_exactly():
    grid = apimap.row("make_grid").nd
    # images placed one padding width up and left: same shape, other values
    shifted = grid.replace("p + (i // cols)", "(i // cols)").replace("p + (i % cols)",
                                                                     "(i % cols)")
    assert shifted != grid and _fails("make_grid", nd=shifted)
    assert _fails("make_grid", nd=grid.replace("nd.zeros(", "1 + nd.zeros("))  # pad value 1
    png = apimap.row("save_image").nd
    assert "grid * 255 + 0.5" in png
    assert _fails("save_image", nd=png.replace("grid * 255 + 0.5", "grid * 255"))  # truncation


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


def test_find_looks_up_either_side():
    assert [r.key for r in apimap.find("arccos")] == ["acos"]
    assert "acos" in [r.key for r in apimap.find("torch.acos")]
    assert {"fmod"} <= {r.key for r in apimap.find("modulo")}
    assert [r.key for r in apimap.find("linalg.gemm2")] == ["addbmm", "bmm"]
    assert "exponential_" in [r.key for r in apimap.find("exponential")]
    assert apimap.find("no_such_api") == []


@pytest.mark.parametrize("name, not_this", [
    ("metric", "geometric_"), ("cast", "expand"), ("nd.exp", "unsqueeze"),
    ("cat", "scatter_"), ("gemm", "addbmm")])
def test_find_matches_names_not_substrings(name, not_this):
    assert not_this not in [r.key for r in apimap.find(name)]
    with pytest.raises(ValueError, match="non-empty"):
        apimap.find("  ")


@pytest.mark.parametrize("term, where", [
    ("Dense", {"03_mnist_mlp §Summary: layers", "06_blocks §Summary: layer sizes", "double()"}),
    ("Trainer", {"08_optimizers_trainer §Summary: optimizer", "03_mnist_mlp §Summary: optimiser"}),
    ("SoftmaxCrossEntropyLoss", {"03_mnist_mlp §Summary: loss"}),
    ("Xavier", {"06_blocks §Summary: initialise a network"}),
    ("last_batch", {"04_data_loading §Summary: short last batch"}),
    ("save_parameters", {"13_serialization §Summary: save weights"}),
    ("concat", {"cat", "02_tensor_ops §Summary: `torch.cat(ts, dim=0)`"}),
    ("sigmoid", {"sigmoid"}),
])
def test_find_searches_the_map_and_the_notebooks_tables(term, where):
    hits = apimap.find(term)
    assert where <= {h.key for h in hits}, [h.key for h in hits]
    # either side, any case
    assert [h.key for h in apimap.find(term.lower())] == [h.key for h in hits]
    for h in hits:
        assert h.where.startswith("notebook ") and h.link.startswith("notebooks/")
    assert apimap.find(term, notebooks=False) == [h for h in hits if isinstance(h, apimap.Row)]


def test_find_searches_notes_and_both_sides_of_notebook_tables():
    # a note of the map: the cat row says nd.concat takes its arrays unpacked
    assert "cat" in [h.key for h in apimap.find("unpacked")]
    # the MXNet side of a table whose MXNet column comes first (notebook 16)
    assert any(h.key.startswith("16_capstone_mxnet_to_pytorch §Summary") and h.mxnet_first
               for h in apimap.find("mx.init.Xavier"))
    # a run of components, not only a tail; several words must all be in one row
    assert apimap.find("gluon.nn", notebooks=False) == [apimap.row("double()")]
    assert {h.key for h in apimap.find("Trainer step")} <= {h.key for h in apimap.find("Trainer")}
    assert apimap.find("Trainer no_such_api") == []
    assert apimap.row("acos").where == "notebook 2, §" + apimap.MAP_SECTION


@pytest.mark.parametrize("api, name", [
    ("nd.arccos, mx.np.arccos", "nd.arccos"), ("arithmetic", None),
    ("none (nd.zeros + slice assignment)", None), ("asnumpy + nd.array (host round trip)",
                                                   "asnumpy"),
    ("ctx=, mx.gpu(i)", "ctx"), ("with mx.Context", "mx.Context"),
    ("MXNDArrayGetData (C API), NDArray.to_dlpack_for_read", "NDArray.to_dlpack_for_read"),
    ("nd.modulo (= torch.remainder)", "nd.modulo")])
def test_api_name(api, name):
    assert apimap.api_name(api) == name


def test_mxnet_first_table_sorts_by_mxnet_name():
    back = apimap.to_markdown(direction="mxnet").splitlines()[2:]
    names = [ln.split("|")[1].split("<br>")[0].strip() for ln in back]
    cut = names.index(apimap.NO_API_NAME)
    assert set(names[cut + 1:]) == {r.api for r in apimap.ROWS if r.mxnet_name is None} == {
        "arithmetic", "none (nd.zeros + slice assignment)"}
    by_name = {r.api: r.mxnet_name for r in apimap.ROWS}
    lasts = [by_name[n].rsplit(".", 1)[-1].lower() for n in names[:cut]]
    assert lasts == sorted(lasts) and lasts[0] == "arccos"


def test_row_lookup_and_bad_snippets():
    assert apimap.row("gather").status == apimap.SEMANTICS
    with pytest.raises(KeyError, match="rows: acos"):
        apimap.row("gels_old")
    with pytest.raises(ValueError, match="end with an expression"):
        apimap.run_snippet("y = 1", {})
    assert apimap.run_snippet("y = 2\ny * 3", {}) == 6
    with pytest.raises(ValueError, match="side must be"):
        apimap._namespace("jax", {})


def test_device_pair_falls_back_to_two_cpu_contexts_without_gpus():
    (d0, d1), (c0, c1) = apimap.device_pair()
    assert d0.type == d1.type
    if c0.device_type == "cpu":
        assert (c0.device_id, c1.device_id) == (0, 1)
