"""The catalogue keyed by MXNet's API (sidebyside.catalogue): every entry is well formed and
names real constructs of both libraries, every check passes (in one process, timed), and the
runner fails the plausible wrong answers."""

from __future__ import annotations

import collections
import functools
import os
import re
from pathlib import Path

import pytest

from sidebyside import mappings
from sidebyside.catalogue import index, model, run, surface
from sidebyside.catalogue.entries import all_entries, modules
from sidebyside.catalogue.render_names import slug

ROOT = Path(__file__).resolve().parents[1]
ENTRIES = all_entries()
#: the group to look at (SIDEBYSIDE_CATALOGUE_GROUP=nn_layers while writing one module)
GROUP = os.environ.get("SIDEBYSIDE_CATALOGUE_GROUP", "")
CHOSEN = [e for e in ENTRIES if not GROUP or e.group == GROUP]


@functools.lru_cache(maxsize=1)
def _headings() -> dict[str, set[str]]:
    out = collections.defaultdict(set)
    for path in mappings.pages():
        stem = path.stem if path.parent.name == "notebooks" else f"deep_dives/{path.stem}"
        for _, text in mappings.markdown_lines(path.read_text(encoding="utf-8")):
            m = re.match(r"^#{2,6}\s+(.*?)\s*#*\s*$", text)
            if m:
                out[stem].add(m.group(1).strip())
    return out


def test_keys_are_unique_and_each_construct_has_one_default_form():
    keys = collections.Counter(e.key for e in ENTRIES)
    assert not [k for k, n in keys.items() if n > 1], [k for k, n in keys.items() if n > 1]
    defaults = collections.Counter(n for e in ENTRIES if not e.when for n in e.names)
    twice = [n for n, c in defaults.items() if c > 1]
    assert not twice, f"names answered by two default entries: {twice[:10]}"
    slugs = collections.Counter(slug(e) for e in ENTRIES)
    assert not [k for k, n in slugs.items() if n > 1], "two entries share a row id"


@pytest.mark.parametrize("e", CHOSEN, ids=slug)
def test_entry_names_real_constructs(e):
    """The key and every alias exist in the installed MXNet, each alias is the same
    construct as the key, the PyTorch names exist, the section that teaches it exists."""
    assert surface.exists(e.mx), f"{e.mx} is not part of MXNet 1.9.1"
    for alias in e.aliases:
        assert surface.exists(alias), f"{alias} is not part of MXNet 1.9.1"
        assert surface.same_construct(e.mx, alias), (
            f"{alias} is not the same construct as {e.mx} (not the same object, operator or "
            "fluent method): give it an entry of its own")
    for name in surface.torch_names(e.torch + " " + e.recipe):
        assert surface.torch_exists(name), f"{e.key}: {name} is not part of PyTorch"
    if e.teach:
        stem, folder, heading = e._teach_parts()
        page = f"{folder}/{stem}" if folder else stem
        assert heading in _headings().get(page, ()), f"{e.key}: no section {e.teach!r}"
    if e.when:
        assert e.signature or all(not c.startswith("!") for c in e.when), e.key


@pytest.mark.parametrize("e", [e for e in CHOSEN if e.signature], ids=slug)
def test_form_signatures_are_mxnet_s(e):
    import inspect

    params = [p for p in inspect.signature(surface.resolve(e.mx)).parameters
              if p not in ("self",)]
    assert list(e.signature) == params[:len(e.signature)], (e.signature, params)


#: seconds each entry's check took in this process (the budget test sums them)
TIMES: dict[str, float] = {}
CHECKED = [e for e in CHOSEN if e.check is not None]


@pytest.mark.parametrize("e", CHECKED, ids=slug)
def test_entry_check_passes(e):
    """The entry's check: both sides on the same inputs, compared (:mod:`.run`)."""
    outcome = run.run_entry(e)
    TIMES[e.key] = outcome.seconds
    assert outcome.ok, f"{e.key}: {outcome.message}"


def test_the_checks_fit_their_budget():
    """Every entry's check ran above, in this one process: ≤ 90 s in all (the slower CI
    machine). Skipped when only some ran (a group, a -k selection)."""
    if GROUP or len(TIMES) < len(CHECKED):
        pytest.skip(f"{len(TIMES)} of {len(CHECKED)} checks ran in this process")
    took = sum(TIMES.values())
    slow = sorted(TIMES.items(), key=lambda kv: -kv[1])[:10]
    print("slowest:", ", ".join(f"{k} {v:.2f}s" for k, v in slow))
    assert took <= 90, f"the catalogue's checks took {took:.0f} s (budget 90 s)"


@pytest.mark.parametrize("e", CHECKED, ids=slug)
def test_counterpart_is_what_the_check_runs(e):
    """The counterpart a reader is shown is the one the check executes: the call it is named
    after is called by the check's PyTorch side, and so is every PyTorch API it names (a
    counterpart swapped for another entry's, or edited without its check, fails here)."""
    code = e.check.torch
    words = set(re.findall(r"[A-Za-z_]\w*", code))
    if e.counterpart_call:
        assert e.counterpart_call in words, (
            f"{e.key}: the counterpart calls {e.counterpart_call}, its check does not")
    ran = set(surface.torch_names(code))
    for name in surface.torch_names(e.torch.split("  #")[0]):
        assert name in ran or name.rpartition(".")[2] in words, (
            f"{e.key}: the counterpart names {name}, its check does not call it")


def test_data_modules_are_standard_library_only():
    import subprocess
    import sys

    code = ("import sys; from sidebyside.catalogue import index; index.entries(); "
            "bad = [m for m in ('mxnet', 'torch', 'numpy') if m in sys.modules]; "
            "print(bad); sys.exit(1 if bad else 0)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_modules_are_listed():
    assert modules() and all(re.fullmatch(r"[a-z0-9_]+", m) for m in modules())


# ------------------------------------------------------------ the runner fails wrong answers
def _example(mx_code, torch_code, **kw):
    return model.check(mx_code, torch_code, **kw)


@pytest.mark.parametrize("wrong", [
    # the wrong answers, each as the runner would see it
    ("nd.gather_nd(x, idx)", "torch.gather(x, 1, idx)", "x=U(3, 4); idx=IA([[0, 2], [1, 3]])"),
    ("nd.random.uniform(-0.1, 0.1, shape=(20000,), dtype=dtype)",
     "torch.empty(20000, dtype=dtype).normal_(0, 1)", ""),
    ("nd.dot(a, b)", "torch.outer(a[:, 0], b[0])", "a=U(3, 4); b=U(4, 2)"),
    ("x.mean(axis=1, keepdims=True)", "x.mean()", "x=U(3, 4)"),
    # a plausible slip: the transposed weight, a default that differs, a missing scale
    ("nd.FullyConnected(x, w, b, num_hidden=3)", "F.linear(x, w.T[:, :3].T.T, b)",
     "x=U(2, 4); w=U(3, 4); b=U(3)"),
    ("nd.LeakyReLU(x)", "F.leaky_relu(x)", "x=U(3, 4)"),
    ("nd.log_softmax(x / 2)", "F.log_softmax(x, dim=-1)", "x=U(3, 4)"),
])
def test_the_runner_fails_wrong_counterparts(wrong):
    mx_code, torch_code, inputs = wrong
    kind = "random" if "random" in mx_code else "close"
    c = _example(mx_code, torch_code, inputs=inputs, kind=kind)
    with pytest.raises(run.CheckFailed):
        run.run_check(c)


def test_the_runner_fails_a_wrong_gradient_and_wrong_weights():
    # forward equal, gradient not: torch's stop-gradient where MXNet passes it through
    c = _example("x * 2", "(x * 2).detach() + 0 * x", inputs="x=U(3)", grad="x")
    with pytest.raises(run.CheckFailed, match="grad of x"):
        run.run_check(c)
    # a layer whose weight the torch side uses transposed: shapes fit, values do not
    c = _example("""
        net = nn.Dense(3, in_units=3)
        net(x)""", """
        mod = nn.Linear(3, 3)
        F.linear(x, mod.weight.T, mod.bias)""", inputs="x=U(2, 3)")
    with pytest.raises(run.CheckFailed):
        run.run_check(c)


def test_the_float32_yardstick_catches_a_float32_only_difference():
    # equal in float64, but PyTorch's float32 side rounds through float16: far beyond drift
    c = _example("nd.exp(x)", "torch.exp(x.half().to(x.dtype)) if x.dtype == torch.float32 "
                 "else torch.exp(x)", inputs="x=U(50)")
    with pytest.raises(run.CheckFailed, match="float32"):
        run.run_check(c)


def test_a_passing_check_reports_its_measure():
    diffs, ratio = run.run_check(_example("nd.exp(x)", "torch.exp(x)", inputs="x=U(5)",
                                         grad="x"))
    assert set(diffs) == {"float64", "float32"} and diffs["float64"] <= 1e-12
    assert ratio is not None and ratio >= 0


def test_inputs_are_the_same_values_every_time_and_bad_specs_are_refused():
    a, b = run.make_inputs("x=U(2, 3); i=I(0, 4, (5,))"), run.make_inputs("x=U(2, 3); i=I(0, 4, (5,))")
    assert (a["x"] == b["x"]).all() and (a["i"] == b["i"]).all() and a["i"].dtype.kind == "i"
    with pytest.raises(ValueError):
        run.make_inputs("U(2, 3)")


def test_model_refuses_malformed_entries():
    c = model.check("x", "x")
    with pytest.raises(ValueError):
        model.entry("nd.x", "torch.x", model.SAME, c)  # not canonical
    with pytest.raises(ValueError):
        model.entry("mx.nd.x", "torch.x", "similar", c)  # not a status
    with pytest.raises(ValueError):
        model.entry("mx.nd.x", "torch.x", model.SAME, c, when=("a=",))
    with pytest.raises(ValueError):
        model.entry("mx.nd.x", "", model.RECIPE, c)  # a recipe entry without a recipe
    with pytest.raises(ValueError):
        model.check("y = x", "x")  # a snippet that ends with a statement


# ----------------------------------------------------------------------------- lookup
def _fake(mx, form="", when=(), signature=()):
    return model.entry(mx, "torch.x(a)", model.SAME, None, form=form, when=when,
                       signature=signature)


def test_lookup_picks_the_form_from_the_call(monkeypatch):
    fake = (_fake("mx.nd.topk"), _fake("mx.nd.topk", "both", ("ret_typ='both'",),
                                       ("data", "axis", "k", "ret_typ")),
            _fake("mx.nd.topk", "value", ("ret_typ='value'",), ("data", "axis", "k", "ret_typ")))
    monkeypatch.setattr(index, "entries", lambda: fake)
    index._by_name.cache_clear()
    index._by_operator.cache_clear()
    try:
        forms = lambda *a, **k: [(m.entry.form, m.how) for m in index.lookup("mx.nd.topk", *a, **k)]  # noqa: E731
        assert forms(keywords={"ret_typ": "both"}) == [("both", "form")]
        assert forms(positional=["x", 1, 2, "value"]) == [("value", "form")]
        assert forms(keywords={"k": 3}) == [("", "default")]
        assert forms(keywords={"ret_typ": index.NOT_LITERAL})[0] == ("", "either")
        assert {f for f, _ in forms(keywords={"ret_typ": index.NOT_LITERAL})} == {"", "both", "value"}
        assert forms()[0] == ("", "default")
        assert index.lookup("mx.nd.nothing") == []
        # the symbol face and the fluent method of the same registered operator find it,
        # the method's receiver standing for the operator's first argument
        assert forms(keywords={"ret_typ": "both"}) == \
            [(m.entry.form, m.how) for m in index.lookup("mx.sym.topk", keywords={"ret_typ": "both"})]
        assert [m.entry.form for m in index.lookup("mx.nd.NDArray.topk", [1, 2, "value"])] == ["value"]
    finally:
        index._by_name.cache_clear()
        index._by_operator.cache_clear()


def test_the_operator_table_is_the_installed_mxnet_s():
    """operators.json (which the standard-library lookup reads) is what the installed MXNet
    registers: regenerate it with `python -m sidebyside.catalogue.surface`."""
    ops = index.operator_of()
    assert ops == surface.operator_table()
    # aliases resolve to their operator; distinct operators stay apart
    assert ops["mx.sym.Reshape"] == ops["mx.nd.reshape"] == ops["mx.sym.Symbol.reshape"]
    assert ops["mx.nd.sum_axis"] == ops["mx.nd.sum"] != ops["mx.nd.mean"]
    assert ops["mx.npx.batch_dot"] == ops["mx.nd.batch_dot"]
    # symbol_ops.json is sidebyside.mx2torch's registry, and the Symbol faces say so
    assert sorted(index._symbol_ops()) == surface.symbol_ops()
    assert "mx2torch translates" in index.mx2torch_note("mx.sym.Convolution")
    assert "no translator" in index.mx2torch_note("mx.sym.contrib.boolean_mask")
    assert index.mx2torch_note("mx.nd.Convolution") == ""


def test_methods_are_found_on_subclasses_that_inherit_them():
    import mxnet as mx

    for sub, base in index.INHERITS.items():
        if sub == base or not surface.exists(sub) or not surface.exists(base):
            continue
        assert issubclass(surface.resolve(sub), surface.resolve(base)), (sub, base)
    assert mx.gluon.nn.Sequential.add is not mx.gluon.Block.__dict__.get("add")


def test_swapped_counterparts_are_caught():
    """tools/mutate.py's counterpart-swap mutants (one entry given another entry's
    counterpart), applied here in memory: the test each mutant names fails on it."""
    import sys

    sys.path.insert(0, str(ROOT / "tools"))
    import mutants
    import mutate

    swaps = [m for m in mutants.MUTANTS if m.operator == "counterpart-swap"]
    assert len(swaps) == mutants.CATALOGUE_SWAPS
    survived = []
    for m in swaps:
        target = m.targets[0]
        test, _, rest = target.partition("::")[2].partition("[")
        ns = {"__name__": f"sidebyside.catalogue.entries.{Path(m.file).stem}",
              "__package__": "sidebyside.catalogue.entries"}
        try:
            exec(compile(mutate.mutated_text(m, ROOT), m.file, "exec"), ns)
            e = next(x for x in ns["ENTRIES"] if slug(x) == rest.rstrip("]"))
            globals()[test](e)
        except Exception:  # noqa: BLE001 - killed: the test (or the module's import) fails
            continue
        survived.append(m.id)
    assert not survived, f"counterpart swaps no test catches: {survived}"
