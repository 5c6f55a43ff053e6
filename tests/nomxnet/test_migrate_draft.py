"""The draft writer of :mod:`sidebyside.migrate.rewrite`: where markers and ``import torch``
land, what survives byte for byte. Standard library, pytest and the package only."""

from __future__ import annotations

import ast
import textwrap

import pytest

from sidebyside.migrate.resolve import analyse
from sidebyside.migrate.rewrite import RULES, STRUCTURAL, Marker, draft

HEAD = "from mxnet import nd, gluon\nfrom mxnet.gluon import nn\n"


def _draft(src: str, markers=(), **kw):
    d = draft(analyse(src, "script.py"), list(markers), **kw)
    ast.parse(d.source)
    return d


def _m(line, rule="r", message="decide"):
    return Marker(line, rule, message)


def _above(lines: list[str], marker_text: str) -> str:
    """The line right after the marker comment holding ``marker_text``."""
    hits = [i for i, ln in enumerate(lines) if marker_text in ln and ">>>>>> migrate" in ln]
    assert len(hits) == 1, lines
    return lines[hits[0] + 1]


def test_marker_comment_format():
    m = Marker(3, "gotcha-x", "two\n lines", "notebook 8, §6. Title", "notebooks/08_x.ipynb#t")
    assert m.comment() == ("# >>>>>> migrate [gotcha-x]: two lines "
                           "(see notebook 8, §6. Title: notebooks/08_x.ipynb#t)")
    assert Marker(1, "r", "m").comment() == "# >>>>>> migrate [r]: m"


def test_marker_inside_a_function_is_indented_like_its_statement():
    src = HEAD + "def f(x):\n    y = g(x)\n    return y\n"
    d = _draft(src, [_m(4, message="inside")])
    lines = d.source.splitlines()
    i = lines.index("    # >>>>>> migrate [r]: inside")
    assert lines[i + 1] == "    y = g(x)"
    assert lines[i - 1] == "def f(x):"


def test_marker_in_a_multiline_call_goes_above_the_statement():
    src = HEAD + "if True:\n    out = g(1,\n            2,\n            3)\n"
    d = _draft(src, [_m(6, message="mid-call")])
    lines = d.source.splitlines()
    assert _above(lines, "mid-call") == "    out = g(1,"
    assert lines[lines.index("    out = g(1,") - 1].startswith("    # >>>>>> migrate")


def test_marker_on_a_decorated_def_goes_above_the_decorators():
    src = HEAD + "class A:\n    @staticmethod\n    @other(1)\n    def f():\n        pass\n"
    d = _draft(src, [_m(6, message="on def"), _m(4, message="on deco")])
    lines = d.source.splitlines()
    i = lines.index("    @staticmethod")
    assert lines[i - 2:i] == ["    # >>>>>> migrate [r]: on def",
                              "    # >>>>>> migrate [r]: on deco"]


def test_marker_in_a_with_block_and_on_its_header():
    src = HEAD + "with ag.record():\n    loss = net(x)\n    loss.backward()\n"
    d = _draft(src, [_m(4, message="body"), _m(3, message="header")])
    lines = d.source.splitlines()
    assert _above(lines, "body") == "    loss = net(x)"
    assert lines[lines.index("    loss = net(x)") - 1] == "    # >>>>>> migrate [r]: body"
    assert _above(lines, "header") == "with ag.record():"
    assert lines[lines.index("with ag.record():") - 1] == "# >>>>>> migrate [r]: header"


def test_several_markers_keep_their_order():
    src = HEAD + "x = 1\ny = 2\n"
    d = _draft(src, [_m(4, "b", "second"), _m(4, "a", "first"), _m(3, "c", "x")])
    lines = d.source.splitlines()
    i = lines.index("y = 2")
    assert lines[i - 2:i] == ["# >>>>>> migrate [b]: second", "# >>>>>> migrate [a]: first"]
    assert [m.rule for m in d.marked] == ["b", "a", "c"]


def test_marker_after_a_same_line_statement_stays_out_of_the_string():
    src = HEAD + 's = """a\nb"""; t = 1\n'
    d = _draft(src, [_m(4, message="t")])
    assert 's = """a\nb"""; t = 1\n' in d.source
    assert d.source.index("# >>>>>> migrate [r]: t") < d.source.index('s = """')


def test_nothing_to_rewrite_is_byte_identical():
    src = ("#!/usr/bin/env python\n# -*- coding: utf-8 -*-\n\"\"\"Doc.\"\"\"\n\n"
           "import os  # keep\n\n\n# a comment\nx = [1,  2]   # spacing kept\r\n")
    d = _draft(src)
    assert d.source == src and d.rewritten == [] and d.marked == []
    unqualified = HEAD + "y = nd.SequenceMask(x, use_sequence_length=True)\n"
    assert _draft(unqualified).source == unqualified


def test_import_torch_once_after_docstring_and_future():
    src = ('"""Module doc\n\nover lines."""\nfrom __future__ import annotations\n\n'
           "# header comment\n" + HEAD + "a = nd.exp(x)\nb = nd.log(x)\n")
    d = _draft(src)
    lines = d.source.splitlines()
    assert d.source.count("import torch") == 1
    assert lines.index("import torch") == 6          # after the comment, before the imports
    assert lines[4:7] == ["", "# header comment", "import torch"]
    assert "mxnet" not in d.source     # nothing uses the MXNet imports any more: gone
    assert [r for _, r in d.rewritten] == ["nd-exp", "nd-log"]


def test_import_torch_after_shebang_and_header_comments():
    src = "#!/usr/bin/env python\n# licence\n" + HEAD + "a = nd.exp(x)\n"
    lines = _draft(src).source.splitlines()
    assert lines[:3] == ["#!/usr/bin/env python", "# licence", "import torch"]


def test_no_import_when_torch_is_imported_or_nothing_fired():
    src = "import torch\n" + HEAD + "a = nd.exp(x)\n"
    d = _draft(src)
    assert d.source.count("import torch") == 1 and "torch.exp(x)" in d.source
    marked = _draft(HEAD + "a = f(x)\n", [_m(3)])
    assert "import torch" not in marked.source


def test_import_torch_alone_after_a_docstring():
    src = '"""Doc."""\nfrom mxnet import nd\n'
    d = _draft(src, [])
    assert d.source == src   # nothing fired
    src2 = '"""Doc."""\nfrom mxnet import nd\ny = nd.exp(x)'   # no final newline
    lines = _draft(src2).source.splitlines()
    assert lines == ['"""Doc."""', "import torch", "y = torch.exp(x)"]   # nd: unused, gone


def test_comments_and_blank_lines_survive_a_rewrite():
    src = HEAD + ("\n\n# first\nx = nd.concat(a,   # a comment after a\n"
                  "              b, dim=0)\n\n    \n# last  \ny = nd.exp(x)  # trailing\n")
    d = _draft(src)
    out = d.source.splitlines()
    for line in ("", "# first", "    ", "# last  "):
        assert line in out
    assert "y = torch.exp(x)  # trailing" in out
    assert "x = torch.cat([a, b], dim=0)" in out
    # one line more (import torch), one less (the two-line call is one line now), and the
    # two MXNet imports nothing uses any more gone
    assert len(out) == len(src.splitlines()) - 2
    assert not [ln for ln in out if ln.startswith(("from mxnet", "import mxnet"))]


def test_nested_rewrites_compose():
    d = _draft(HEAD + "y = nd.exp(nd.concat(a, nd.abs(b)))\n")
    assert "y = torch.exp(torch.cat([a, torch.abs(b)], dim=1))" in d.source
    assert sorted(r for _, r in d.rewritten) == ["nd-abs", "nd-concat", "nd-exp"]


def test_an_mxnet_call_left_as_it_is_keeps_mxnet_arguments():
    # nd.SequenceMask is not rewritten: its argument must stay an NDArray, not a Tensor
    d = _draft(HEAD + "y = nd.SequenceMask(nd.exp(x), s)\nz = print(nd.exp(x))\n")
    assert "y = nd.SequenceMask(nd.exp(x), s)" in d.source
    assert "z = print(torch.exp(x))" in d.source  # a call that is not MXNet's: rewritten inside
    assert d.rewritten == [(4, "nd-exp")]


def test_a_rewrite_needs_every_mxnet_construct_inside_it_rewritten():
    # nd.concat of an nd.dot with transpose_a (no rule takes it): torch.cat of an NDArray
    # would be a silent change
    d = _draft(HEAD + "y = nd.concat(nd.dot(a, b, True), c, dim=1)\n"
               "w = nd.exp(batch.data[0])\n")
    # nor torch.exp of a DataBatch's NDArray (batch.data: its port is a decision)
    assert "y = nd.concat(nd.dot(a, b, True), c, dim=1)\nw = nd.exp(batch.data[0])\n" \
        in d.source
    assert d.rewritten == []
    d = _draft(HEAD + "y = nd.concat(nd.exp(a), c, dim=1)\n")
    assert "y = torch.cat([torch.exp(a), c], dim=1)" in d.source


def test_receiver_expressions_get_parentheses():
    d = _draft(HEAD + "y = (a + b).asnumpy()\nz = (nd.exp(a) * 2).asscalar()\n")
    assert "y = (a + b).detach().cpu().numpy()" in d.source
    assert "z = (torch.exp(a) * 2).item()" in d.source


def test_multiline_call_rewritten_and_non_ascii_offsets():
    src = HEAD + 's = "héllo"; y = nd.clip(x,\n    0,\n    1)\nnet = nn.Dense(\n    4, in_units=3,\n)\n'
    d = _draft(src)
    assert 's = "héllo"; y = torch.clamp(x, 0, 1)\n' in d.source
    assert "net = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(3, 4))" in d.source


def test_hybrid_forward_f_calls_are_rewritten():
    src = HEAD + textwrap.dedent("""\
        class Net(gluon.HybridBlock):
            def hybrid_forward(self, F, x):
                return F.relu(x)  # keep
        """)
    d = _draft(src)
    assert "        return torch.relu(x)  # keep\n" in d.source


def test_direction_mxnet_writes_markers_only():
    src = HEAD + "y = nd.exp(x)\n"
    d = _draft(src, [_m(3)], direction="mxnet")
    assert d.rewritten == [] and "nd.exp(x)" in d.source and "import torch" not in d.source
    with pytest.raises(ValueError):
        draft(analyse(src), [], direction="jax")


def test_rules_table_is_well_formed():
    names = [r.name for r in RULES]
    assert len(names) == len(set(names)) >= 25
    for r in RULES:
        if r.name in STRUCTURAL:   # a statement, not an expression: tests/test_migrate_rewrite.py
            continue
        if r.mxnet[0].startswith(("mx.np.", "mx.npx.")):   # NumPy interface
            d = _draft("from mxnet import np, npx\nx = np.array([1.0])\ny = x\n"
                       f"result = {r.before}\n")
            assert r.after in d.source, r.name
            continue
        if r.before.startswith("class "):   # a class's base
            assert r.after in _draft("import mxnet as mx\n" + HEAD + r.before).source, r.name
            continue
        d = _draft("import mxnet as mx\n" + HEAD + "with mx.autograd.predict_mode():\n"
                   f"    pass\nx = nd.zeros((1,))\ny = x\nresult = {r.before}\n")
        assert r.after in d.source, r.name


def test_calls_whose_mxnet_meaning_differs_are_left_alone():
    d = _draft(HEAD + "a = nd.softmax(x, 0)\nb = nd.softmax(x, axis=0)\n"
                      "c = nd.clip(x, 4, 1)\nd = nd.clip(x, lo, hi)\ne = nd.clip(x, 0, 1)\n")
    # softmax's second positional is MXNet's `length`; clip with a_min > a_max or unknown
    # bounds gives a_min below a_min in MXNet, a_max in torch.clamp: MXNet's order of tests
    # (gluon_clip), torch.clamp only for literal bounds in order
    assert "a = nd.softmax(x, 0)" in d.source and "b = torch.softmax(x, dim=0)" in d.source
    assert "c = gluon_clip(x, 4, 1)" in d.source and "d = gluon_clip(x, lo, hi)" in d.source
    assert "e = torch.clamp(x, 0, 1)" in d.source


@pytest.mark.parametrize("imports,unwrapped", [
    ("import pandas as pd\nimport matplotlib.pyplot as plt\n", True),   # hold no models
    ("import mymodels\n", False),            # its own module: a model there may drop out
    ("from gluoncv import model_zoo\n", False),
])
def test_record_is_unwrapped_only_where_no_imported_model_can_hold_a_dropout(imports,
                                                                              unwrapped):
    src = (imports + "import mxnet as mx\nfrom mxnet import nd\nx = nd.ones((2,))\n"
           "with mx.autograd.record():\n    y = x * 2\n")
    d = _draft(src)
    assert ("record-unwrap" in {r for _, r in d.rewritten}) is unwrapped
    assert ("with mx.autograd.record():" in d.source) is not unwrapped


def test_a_module_of_the_scan_without_mode_dependent_layers_keeps_a_script_scoped(tmp_path):
    """train.py imports data.py (no Dropout, BatchNorm... there, nor in what it imports) and,
    in the second case, also model.py, whose Dropout could not follow train.py's scope."""
    from sidebyside.migrate import report

    (tmp_path / "utils").mkdir()
    (tmp_path / "utils" / "__init__.py").write_text("")
    (tmp_path / "utils" / "io.py").write_text("import os\nimport numpy as np\n"
                                              "def load(path):\n    return np.load(path)\n")
    (tmp_path / "data.py").write_text("from utils.io import load\nfrom mxnet import nd\n"
                                      "def batches():\n    return nd.ones((2, 3))\n")
    (tmp_path / "model.py").write_text("from mxnet.gluon import nn\n"
                                       "def net():\n    return nn.Dropout(0.5)\n")
    body = ("import mxnet as mx\nfrom mxnet import nd\nx = data.batches()\n"
            "with mx.autograd.record():\n    y = x * 2\n")
    for extra, unwrapped in (("", True), ("import model\n", False)):
        (tmp_path / "train.py").write_text("import data\n" + extra + body)
        rep = report.scan(tmp_path)
        train = next(f for f in rep.analysed if f.path == "train.py")
        assert ("record-unwrap" in {r for _, r in train.draft.rewritten}) is unwrapped, extra
    # two imports down, a model zoo: data.py is no longer free of it, nor train.py
    (tmp_path / "utils" / "io.py").write_text("from gluoncv import model_zoo\n")
    (tmp_path / "train.py").write_text("import data\n" + body)
    train = next(f for f in report.scan(tmp_path).analysed if f.path == "train.py")
    assert "record-unwrap" not in {r for _, r in train.draft.rewritten}


@pytest.mark.parametrize("train", [
    "import model\nnet = model.get_net()\n",
    "from model import get_net\nnet = get_net()\n",
    "import model as m\nnet = m.get_net()\n",
    "from pkg import model\nnet = model.get_net()\n"])
def test_a_block_another_file_of_the_scan_builds_is_typed(tmp_path, train):
    """A function of another scanned file that returns a Gluon block (``model.get_net()``,
    however it is imported) types what it builds: its methods are rewritten; a function of
    the same name that returns something else does not."""
    from sidebyside.migrate import report

    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    net = ("from mxnet import gluon\n\ndef get_net():\n    net = gluon.nn.Sequential()\n"
           "    net.add(gluon.nn.Dense(3))\n    return net\n")
    (tmp_path / "model.py").write_text(net)
    (tmp_path / "pkg" / "model.py").write_text(net)
    (tmp_path / "train.py").write_text("import mxnet as mx\n" + train
                                       + "net.save_parameters('net.params')\n")
    drafted = {f.path.replace("\\", "/"): f.draft for f in report.scan(tmp_path).analysed}
    assert "torch.save(net.state_dict(), 'net.params')" in drafted["train.py"].source
    for path in ("model.py", "pkg/model.py"):   # returns a number now: nothing is typed
        (tmp_path / path).write_text("def get_net():\n    return 3\n")
    drafted = {f.path: f.draft for f in report.scan(tmp_path).analysed}
    assert "net.save_parameters('net.params')" in drafted["train.py"].source


def test_an_import_means_the_first_folder_on_sys_path_that_has_it():
    """``import data`` in sub/train.py is sub/data.py (the script's folder comes first), not
    the scan root's data.py; from the root it is the root's."""
    from sidebyside.migrate import report

    files = {"data.py", "sub/data.py", "sub/train.py", "train.py", "sub/pkg/__init__.py"}
    assert report._local_targets("sub/train.py", 0, "data", (), files) == ["sub/data.py"]
    assert report._local_targets("train.py", 0, "data", (), files) == ["data.py"]
    assert report._local_targets("sub/train.py", 0, "pkg", (), files) == ["sub/pkg/__init__.py"]
    assert report._local_targets("sub/train.py", 0, "other", (), files) == []


@pytest.mark.parametrize("own", [True, False])
def test_batches_of_an_iterator_class_another_file_builds_are_the_drafts(tmp_path, own):
    """train.py draws batches from a DataIter class of data.py: where that class builds its
    own batches (its draft's are GluonDataBatch), ``batch.data[0]`` stays as written in
    train.py's draft; where it passes on another iterator's, the line keeps its marker."""
    from sidebyside.migrate import report

    body = ("        return mx.io.DataBatch(data=[mx.nd.zeros((2, 3))])\n" if own else
            "        return self.inner.next()\n")
    (tmp_path / "data.py").write_text(
        "import mxnet as mx\n\n\nclass Batches(mx.io.DataIter):\n"
        "    def __init__(self, inner=None):\n        super().__init__(2)\n"
        "        self.inner = inner\n\n    def next(self):\n" + body)
    (tmp_path / "train.py").write_text(
        "import mxnet as mx\nfrom data import Batches\n\nit = Batches()\nfor batch in it:\n"
        "    x = batch.data[0]\n")
    train = next(f for f in report.scan(tmp_path).analysed if f.path == "train.py")
    (site,) = [s for s in train.sites if s.site.name == "mx.io.DataBatch.data"]
    assert (site.rewrite == "io-batch-attribute") is own
