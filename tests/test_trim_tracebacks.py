"""tools/trim_tracebacks.py keeps the reader's frames and the error, drops library frames."""
import importlib.util

import nbformat

from conftest import ROOT

spec = importlib.util.spec_from_file_location("trim_tracebacks", ROOT / "tools" / "trim_tracebacks.py")
trim_tracebacks = importlib.util.module_from_spec(spec)
spec.loader.exec_module(trim_tracebacks)

TRACEBACK = [
    "\x1b[31m-----\x1b[39m",
    "\x1b[31mMXNetError\x1b[39m    Traceback (most recent call last)",
    "\x1b[36mCell\x1b[39m In[44], line 4\n----> 4 mx_wrong(x).asnumpy()\n",
    "\x1b[36mFile \x1b[39m/home/u/.venv/lib/python3.11/site-packages/mxnet/gluon/block.py:825, in Block.__call__",
    "File <string>:86, in FullyConnected(data, weight)\n",
    "File /home/u/.venv/lib/python3.11/site-packages/mxnet/base.py:246, in check_call(ret)",
    "\x1b[31mMXNetError\x1b[39m: Shape inconsistent",
]


def test_library_frames_become_one_line_before_the_error():
    out = trim_tracebacks.trim(TRACEBACK)
    assert out[:3] == TRACEBACK[:3] and out[-1] == TRACEBACK[-1]
    assert out[3] == "(3 frames inside generated code, mxnet left out)"
    assert len(out) == 5 and not any("site-packages" in line for line in out)
    assert trim_tracebacks.trim(out) == out            # idempotent


def test_dropped_frames_are_named_by_where_they_live():
    place = trim_tracebacks._place
    assert place("File /x/.venv/lib/python3.11/site-packages/torch/nn/modules/module.py:1") \
        == "torch"
    assert place("File /home/u/clone/src/sidebyside/convert.py:88, in convert") == "sidebyside"
    assert place("File /home/u/clone/examples/mnist/lockstep.py:40") == "examples/mnist"
    assert place("File /home/u/clone/tools/survey_predict_mode_backward.py:12") == "tools"
    assert place("File <string>:86, in FullyConnected(data, weight)") == "generated code"
    assert place("File /usr/lib/python3.11/json/decoder.py:337") == "the standard library"
    assert place("File /opt/plugin/hook.py:3") == "other files"


def test_notebook_rewritten_in_place(tmp_path):
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("1/0")
    cell.outputs = [nbformat.v4.new_output("error", ename="MXNetError", evalue="x",
                                           traceback=TRACEBACK)]
    nb.cells = [cell, nbformat.v4.new_code_cell("2")]
    path = tmp_path / "n.ipynb"
    nbformat.write(nb, path)
    assert trim_tracebacks.trim_notebook(path) == 1
    assert trim_tracebacks.trim_notebook(path) == 0
    assert "site-packages" not in path.read_text()
