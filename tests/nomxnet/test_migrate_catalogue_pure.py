"""sidebyside.migrate.catalogue with the standard library alone: importing it and looking names
up loads no MXNet, PyTorch or NumPy, and bad input is refused with one clear message.

Imports only the standard library, pytest and the package."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from sidebyside.migrate import catalogue

_PROBE = """
import json, sys
from sidebyside.migrate import catalogue
imported = sorted(m for m in ("mxnet", "torch", "numpy") if m in sys.modules)
hits = catalogue.lookup("mx.nd.concat")
back = catalogue.lookup("torch.nn.Linear", "gluon")
print(json.dumps({"before": imported, "hits": [e.key for e in hits],
                  "torch": hits[0].torch_names, "back": [list(e.mxnet_names) for e in back],
                  "after": sorted(m for m in ("mxnet", "torch", "numpy") if m in sys.modules)}))
"""


def test_lookup_in_a_fresh_interpreter_imports_no_framework():
    done = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert seen["before"] == [] and seen["after"] == [], seen
    assert seen["hits"][0] == "mx.nd.concat" and seen["torch"] == ["torch.cat"]
    assert any("mx.gluon.nn.Dense" in names for names in seen["back"])


def test_import_reads_no_data():
    code = ("import sys; from sidebyside.migrate import catalogue; "
            "print('sidebyside.migrate._catalogue_data' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


@pytest.mark.parametrize("direction", ["mxnet", "pytorch", "", "Torch"])
def test_bad_direction_is_refused(direction):
    with pytest.raises(ValueError, match=r"direction must be 'torch' .* or 'gluon'"):
        catalogue.lookup("mx.nd.concat", direction)
    with pytest.raises(ValueError, match="direction must be"):
        catalogue.names(direction)


def test_a_name_that_is_not_a_string_is_refused():
    with pytest.raises(TypeError, match="lookup\\(\\) needs a name as a string"):
        catalogue.lookup(None)


@pytest.mark.parametrize("name, direction", [
    ("mx.nd.no_such_op", "torch"), ("", "torch"), ("torch.no_such_fn", "gluon"),
    ("mx.nd", "torch"), ("mx", "torch"), ("torch.nn", "gluon"), ("torch", "gluon"),
    ("torch.cat", "torch"),      # a PyTorch name is not matched as an MXNet one
    ("mx.nd.concat", "gluon"),   # nor the other way round
])
def test_unknown_names_and_namespaces_give_nothing(name, direction):
    assert catalogue.lookup(name, direction) == []


def test_faces_of_one_registered_operator_share_its_entry():
    # nd.tile, the fluent x.tile() and sym.tile invoke one registered operator
    # (sidebyside/catalogue/operators.json): one entry answers them all
    keys = {n: [e.key for e in catalogue.lookup(n)] for n in
            ("mx.nd.tile", "mx.nd.NDArray.tile", "mx.sym.tile")}
    assert keys["mx.nd.tile"] and len(set(map(tuple, keys.values()))) == 1, keys


def test_block_methods_match_either_class():
    block = catalogue.lookup("mx.gluon.Block.collect_params")
    hybrid = catalogue.lookup("mx.gluon.HybridBlock.collect_params")
    assert block and [e.key for e in hybrid] == [e.key for e in block]


def test_an_answer_is_only_ever_the_one_checked_for_that_construct():
    # every MXNet-side answer is a catalogue entry that names the construct, or one that
    # invokes the same registered operator; never a row borrowed from another construct
    from sidebyside.catalogue import index

    ops = index.operator_of()
    for name in sorted(catalogue.names("torch"))[::7]:
        for e in catalogue.lookup(name):
            assert e.catalogue and e.tolerance, (name, e.key)
            assert name in e.mxnet_names or (
                ops.get(name) and ops.get(name) in {ops.get(n) for n in e.mxnet_names}) or \
                e.how == "inherited", (name, e.key)


def test_symbol_and_ndarray_faces_of_an_operator_share_its_entries():
    def keys(name):
        return sorted(e.key for e in catalogue.lookup(name))

    assert keys("mx.sym.FullyConnected") == keys("mx.nd.FullyConnected")
    assert keys("mx.sym.concat") and keys("mx.sym.concat") == keys("mx.nd.concat")
    # the Symbol face says what sidebyside.mx2torch does with a saved graph of it
    assert any("mx2torch" in g for g in catalogue.lookup("mx.sym.concat")[0].gotchas)
    assert not any("mx2torch" in g for g in catalogue.lookup("mx.nd.concat")[0].gotchas)


def test_each_answer_says_how_it_was_checked():
    hits = catalogue.lookup("mx.nd.concat")
    assert hits[0].tolerance.startswith("checked: float64 rtol=")
    assert hits[0].origin == "catalogue entry 'mx.nd.concat'"


def test_entries_and_names():
    every = catalogue.entries()
    assert len(every) > 300 and every is catalogue.entries()
    assert {"mx.nd.concat", "mx.gluon.Trainer"} <= catalogue.names("torch")
    assert {"torch.cat", "torch.nn.Linear"} <= catalogue.names("gluon")
    assert catalogue.names() == catalogue.names("torch")
