"""mx2torch's readers of untrusted files, fuzzed (tools/fuzz_readers.py at CI size, seeded) and
on the malformed inputs a stranger's files hold: every one is refused with the tool's own
message, naming the file, node or offset, and nothing else escapes. `make fuzz` runs 10,000
cases per reader. Imports numpy, torch, Hypothesis and sidebyside.mx2torch only: runs without
MXNet."""

import copy
import json
import os
import signal
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings

from sidebyside.mx2torch import cli, codegen
from sidebyside.mx2torch.graph import SymbolFileError
from sidebyside.mx2torch.ops import UnsupportedOperator

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import fuzz_readers as fz  # noqa: E402

# seeded (derandomize): the same cases on every machine; about 10 s on 2 cores in all. No
# shrinking: the first failing case is reported as it is (a hang shrunk would take minutes).
CI = dict(deadline=None, database=None, derandomize=True, report_multiple_bugs=False,
          phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))


# The properties run once in CI, in .venv-nomxnet (numpy 2: the tools' install), and in the
# mutation run (tools/mutate.py: the validation-dropped mutants); `make test` collects
# tests/nomxnet too and runs the named cases below there.
in_tools_env = pytest.mark.skipif(
    os.environ.get("SIDEBYSIDE_NOMXNET") != "1"
    and not os.environ.get("SIDEBYSIDE_MUTATE_SCRATCH"),
    reason="the fuzz properties run in .venv-nomxnet (make test-nomxnet)")


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    f = tmp_path_factory.mktemp("fuzz")
    fz.warm_up(f)
    return f


class Hang(AssertionError):
    pass


def _stop(signum, frame):
    raise Hang(f"a case ran past {5 * fz.SLOW_S:g} s")


def _timed(run, *args):
    """A hang guard with room for a loaded CI machine (`make fuzz` holds cases to SLOW_S): a
    case still running after 5 x SLOW_S is stopped there and fails the test."""
    previous = signal.signal(signal.SIGALRM, _stop)
    signal.setitimer(signal.ITIMER_REAL, 5 * fz.SLOW_S)
    try:
        return run(*args)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@in_tools_env
@settings(max_examples=600, **CI)
@given(fz.symbol_cases())
def test_a_mutated_symbol_file_is_translated_or_refused_with_a_message(folder, case):
    _timed(fz.run_symbol, (*case, folder))


@in_tools_env
@settings(max_examples=800, **CI)
@given(fz.byte_cases("params"))
def test_a_mutated_params_file_is_read_or_refused_with_a_message(case):
    _timed(fz.run_params, case)


@in_tools_env
@settings(max_examples=600, **CI)
@given(fz.byte_cases("states"))
def test_a_mutated_trainer_states_file_is_read_or_refused_with_a_message(folder, case):
    _timed(fz.run_states, case, folder)


# ------------------------------------------------------------ the inputs the issue found
def _cnn():
    data, params = fz.graph_base("cnn")
    return copy.deepcopy(data), dict(params)


def _node(g, name):
    return next(n for n in g["nodes"] if n["name"] == name)


def _refusal(g, params, tmp_path, error=UnsupportedOperator):
    path = tmp_path / "bad-symbol.json"
    path.write_text(json.dumps(g))
    with pytest.raises(error) as e:
        codegen.translation(path, params)
    return str(e.value)


@pytest.mark.parametrize("key, value, says", [
    ("num_filter", "abc", "num_filter='abc': an integer (32-bit) was expected"),
    ("num_filter", "1e309", "num_filter='1e309': an integer (32-bit) was expected"),
    ("num_filter", "99999999999999999999", "an integer (32-bit) was expected"),
    ("kernel", "(1,", "kernel='(1,': a tuple of integers (32-bit) was expected"),
    ("kernel", "(nan, 3)", "kernel='(nan, 3)': a tuple of integers"),
    ("pad", "(1.5, 2)", "pad='(1.5, 2)': a tuple of integers"),
    ("no_bias", "maybe", "no_bias='maybe': true or false was expected"),
])
def test_a_bad_attribute_value_is_refused_naming_node_and_value(tmp_path, key, value, says):
    g, params = _cnn()
    _node(g, "conv1")["attrs"][key] = value
    text = _refusal(g, params, tmp_path)
    assert "node 'conv1'" in text and says in text and "\n" not in text


def test_a_float_attribute_may_be_infinite_and_becomes_code_that_runs(tmp_path):
    """`inf` parsed as a float reached the generated code as the bare name `inf` (a
    NameError when the module was built); now it is `float('inf')`."""
    g, params = _cnn()
    g["nodes"].insert(10, {"op": "clip", "name": "clip0", "inputs": [[9, 0, 0]],
                           "attrs": {"a_min": "-inf", "a_max": "1e309"}})
    for n in g["nodes"][11:]:
        n["inputs"] = [[i + (i >= 10), k, v] for i, k, v in n["inputs"]]
    _node(g, "pool1")["inputs"] = [[10, 0, 0]]
    g["heads"] = [[16, 0, 0]]
    g["arg_nodes"] = [i + (i >= 10) for i in g["arg_nodes"]]
    t = codegen.translation(json.dumps(g), params)
    assert "float('-inf')" in t.source and "float('inf')" in t.source


@pytest.mark.parametrize("edit, says", [
    (lambda g: _node(g, "relu1")["inputs"].__setitem__(0, [99, 0, 0]),
     "node 99 is not an earlier node"),
    (lambda g: _node(g, "relu1")["inputs"].__setitem__(0, [8, 2**63, 0]),
     "output 9223372036854775808 does not exist"),
    (lambda g: _node(g, "relu1")["inputs"].__setitem__(0, ["8", 0, 0]),
     "[node, output, version] integers were expected"),
    (lambda g: _node(g, "relu1").__setitem__("inputs", {"a": 1}), "'inputs' is not a list"),
    (lambda g: g.__setitem__("heads", [[40, 0, 0]]), "node 40 is not a node of the graph"),
    (lambda g: g.__setitem__("heads", "x"), "'heads' is not a list"),
    (lambda g: _node(g, "conv1").__setitem__("attrs", {"kernel": 3}),
     "attribute kernel=3 is not a string"),
    (lambda g: _node(g, "conv1").__setitem__("name", None), "'op' and 'name' must be strings"),
    (lambda g: g.__setitem__("attrs", ["mxnet_version"]), None),        # ignored, not fatal
])
def test_a_bad_graph_structure_is_refused_naming_the_file(tmp_path, edit, says):
    g, params = _cnn()
    edit(g)
    if says is None:
        codegen.translation(json.dumps(g), params)
        return
    text = _refusal(g, params, tmp_path, SymbolFileError)
    assert str(tmp_path / "bad-symbol.json") in text and says in text and "\n" not in text


@pytest.mark.parametrize("name", ['x"""\nimport os\nos.system("echo pwned")\n"""',
                                  "w\nimport os  # pwned", "q\\", "\u2028pwned", "¾d"])
def test_a_node_name_stays_in_its_docstring_and_comments(tmp_path, name):
    """Names reach the docstring (the inputs) and comments (a tied parameter): a line break
    or triple quote in one must not end them and become code."""
    g, params = _cnn()
    _node(g, "data")["name"] = name
    t = codegen.translation(json.dumps(g), params)
    fz._no_injected_code(t.source)
    import ast

    assert name in ast.get_docstring(ast.parse(t.source), clean=False)


def test_a_layer_bigger_than_its_weights_is_refused_before_memory_is_given(folder, tmp_path):
    """num_hidden=2**30 against a 5-row weight: refused on the meta device, not after
    allocating 2**30 rows."""
    g, params = _cnn()
    _node(g, "fc1")["attrs"]["num_hidden"] = str(2**30)
    t0 = time.perf_counter()
    text = _refusal(g, params, tmp_path)
    assert time.perf_counter() - t0 < 1
    assert text == ("parameter fc1.weight: shape (5, 64) in the file, (1073741824, 64) in the "
                    "layer (refused before allocating the layer)")


def test_the_command_prints_one_line_and_writes_nothing(tmp_path, capsys):
    g, params = _cnn()
    _node(g, "conv1")["attrs"]["stride"] = "abc"
    sym = tmp_path / "bad-symbol.json"
    sym.write_text(json.dumps(g))
    pfile = fz.FIXTURES / "graphs" / "cnn-0000.params"
    out = tmp_path / "model.pt"
    assert cli.main([str(sym), str(pfile), "--out", str(out), "--code",
                     str(tmp_path / "model.py")]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("mx2torch: error: operator Convolution (node 'conv1'): attribute "
                          "stride='abc'") and "\n" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad-symbol.json"]


def test_a_params_shape_too_big_for_any_array_is_refused_even_with_a_zero_dim():
    """(3, 2**62, 0) holds no element, and numpy still refuses the shape (its dims multiply
    past 2**63 bytes): the reader says so instead of numpy's ValueError."""
    import struct

    import numpy as np

    from sidebyside.mx2torch import ndfile

    raw = ndfile.dumps({"a": np.zeros((3, 2, 0), np.float32)}, np_shape=True)
    dims = struct.pack("<3q", 3, 2, 0)
    assert raw.count(dims) == 1
    bad = raw.replace(dims, struct.pack("<3q", 3, 2**62, 0))
    with pytest.raises(ndfile.NDFileError, match=r"more elements than an array can hold"):
        ndfile.loads(bad, source="huge.params")
    assert fz.run_params(bad) == "refused"


def test_a_states_pickle_asking_for_a_huge_memo_is_refused_before_unpickling(tmp_path):
    """LONG_BINPUT 779706738 (a fuzzed byte): the unpickler would grow its memo table to 6 GB
    before anything else; the reader refuses the index first, in microseconds."""
    import pickle
    import struct

    from sidebyside.mx2torch.optstate import OptStateError, load_trainer_states

    bomb = pickle.PROTO + b"\x04" + pickle.NONE + pickle.LONG_BINPUT + struct.pack(
        "<I", 779706738) + pickle.STOP
    path = tmp_path / "bomb.states"
    path.write_bytes(bomb)
    t0 = time.perf_counter()
    with pytest.raises(OptStateError, match=r"memo index 779706738 at byte 3 is beyond the "
                                            r"file's 9 bytes"):
        load_trainer_states(path)
    assert time.perf_counter() - t0 < 0.5


def test_a_head_beyond_a_layers_outputs_is_refused_naming_it(tmp_path):
    """The fused RNN gives 3 outputs (out, h, c); a head asking for its output 5 reached a
    Python IndexError when the outputs were collected (found by `make fuzz`)."""
    g = copy.deepcopy(fz.graph_base("lstm")[0])
    rnn = next(i for i, n in enumerate(g["nodes"]) if n["op"] == "RNN")
    g["heads"] = [[rnn, 5, 0]]
    with pytest.raises(UnsupportedOperator, match=r"node 'tagger_lstm0_rnn0'\): output 5 is "
                                                  r"used, but the translation gives 3 outputs"):
        codegen.translation(json.dumps(g), dict(fz.graph_base("lstm")[1]))


@pytest.mark.parametrize("field, value, says", [
    ("_index_update_count", "x", "update counts are a str, not a dict"),
    ("_index_update_count", {0: "3"}, "update count of 0 is '3', not an integer"),
    ("num_update", 2.5, "num_update is 2.5, not an integer"),
])
def test_an_optimizer_field_of_the_wrong_type_is_refused(tmp_path, monkeypatch, field, value,
                                                         says):
    """A states file whose optimizer holds a string where MXNet writes a dict of counts (found
    by `make fuzz`: `'str' object has no attribute 'items'`)."""
    import pickle
    import types

    from sidebyside.mx2torch.optstate import OptStateError, load_trainer_states

    fake = types.ModuleType("mxnet.optimizer.optimizer")      # the class pickle names

    class Adam:
        pass
    Adam.__module__, Adam.__qualname__ = fake.__name__, "Adam"
    fake.Adam = Adam
    for name in ("mxnet", "mxnet.optimizer"):          # its parents, for pickle's import
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    monkeypatch.setitem(sys.modules, fake.__name__, fake)
    opt = Adam()
    opt.__dict__.update(lr=0.001, wd=0.0, rescale_grad=1.0, num_update=1, beta1=0.9,
                        beta2=0.999, epsilon=1e-8, _index_update_count={0: 1})
    opt.__dict__[field] = value
    path = tmp_path / "odd.states"
    path.write_bytes(pickle.dumps(({}, opt), protocol=2))
    with pytest.raises(OptStateError, match=says):
        load_trainer_states(path)
