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
    assert seen["hits"][0] == "cat" and seen["torch"] == ["torch.cat"]
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


def test_method_and_function_match_loosely_after_exact():
    exact = catalogue.lookup("mx.nd.NDArray.tile")
    assert exact[0].key == "repeat"
    loose = catalogue.lookup("mx.nd.tile")  # only listed as NDArray.tile
    assert loose and loose[0].key == "repeat"
    assert "mx.nd.tile" not in loose[0].mxnet_names


def test_block_methods_match_either_class():
    block = catalogue.lookup("mx.gluon.Block.collect_params")
    hybrid = catalogue.lookup("mx.gluon.HybridBlock.collect_params")
    assert block and [e.key for e in hybrid] == [e.key for e in block]


def test_np_matches_nd_only_through_a_map_row():
    # mx.np.zeros and nd.zeros are listed together by the map's 'zeros' row: a table row
    # that names nd.zeros alone is found for mx.np.zeros too, after the map's rows
    hits = catalogue.lookup("mx.np.zeros")
    assert [e.from_map for e in hits] == sorted((e.from_map for e in hits), reverse=True)
    assert any(not e.from_map and "mx.np.zeros" not in e.mxnet_names for e in hits)
    # mx.np.argsort is not in the map: nd.argsort's entries are not its
    assert catalogue.lookup("mx.np.argsort") == []
    assert catalogue.lookup("mx.nd.argsort")


def test_symbol_falls_back_to_ndarray_only_when_alone():
    own = catalogue.lookup("mx.sym.FullyConnected")
    assert own and all("mx.sym.FullyConnected" in e.mxnet_names for e in own)
    fallback = catalogue.lookup("mx.sym.concat")
    assert fallback and fallback == catalogue.lookup("mx.nd.concat")


def test_map_entries_come_first():
    hits = catalogue.lookup("mx.nd.NDArray.asnumpy")
    kinds = [e.from_map for e in hits]
    assert True in kinds and False in kinds
    assert kinds == sorted(kinds, reverse=True)


def test_entries_and_names():
    every = catalogue.entries()
    assert len(every) > 300 and every is catalogue.entries()
    assert {"mx.nd.concat", "mx.gluon.Trainer"} <= catalogue.names("torch")
    assert {"torch.cat", "torch.nn.Linear"} <= catalogue.names("gluon")
    assert catalogue.names() == catalogue.names("torch")
