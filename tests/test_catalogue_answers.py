"""The wrong answers issue 43 found, each looked up again the way `migrate` looks a script's
call up (the canonical name and the call's arguments): the first answer is the checked
counterpart of that construct and form, not the row it used to borrow, and the old answer,
run as a check, fails."""

from __future__ import annotations

import ast

import pytest

from sidebyside.catalogue import model, run
from sidebyside.migrate import catalogue

# (a script's line, the canonical name migrate resolves it to, the old wrong answer's text,
#  what the right answer's PyTorch side contains)
CASES = [
    ("F.gather_nd(d, idx)", "mx.nd.gather_nd", "torch.gather", "[tuple("),
    ("nd.linalg.gemm2(q, t, transpose_b=True)", "mx.nd.linalg.gemm2", "addbmm", ".mT"),
    ("mx.sym.dot(a, b)", "mx.sym.dot", "addr", "tensordot"),
    ("nd.random.uniform(0, 1, shape=(2, 3))", "mx.nd.random.uniform", "cauchy_", "uniform_"),
    ("x.mean(axis=1, keepdims=True)", "mx.nd.NDArray.mean", "item()", "mean("),
    ("hidden.dtype", "mx.nd.NDArray.dtype", "x.type()", "dtype"),
    ("mx.init.Uniform(0.1)", "mx.init.Uniform", "normal_", "uniform_"),
    ("gluon.loss.L2Loss()", "mx.gluon.loss.L2Loss", "MSELoss()", "/ 2"),
    ("net.cast('float16')", "mx.gluon.Block.cast", ".double()", "half()"),
    ("net.name_scope()", "mx.gluon.Block.name_scope", "state_dict", "attribute"),
    ("autograd.backward(loss)", "mx.autograd.backward", "running_", "backward"),
]


def _call(line):
    node = ast.parse(line).body[0].value
    return node if isinstance(node, ast.Call) else None


@pytest.mark.parametrize("line, name, old, right", CASES, ids=[c[1] for c in CASES])
def test_the_first_answer_is_the_construct_s_own(line, name, old, right):
    hits = catalogue.lookup(name, "torch", _call(line))
    assert hits, f"{name}: no answer"
    first = hits[0]
    assert first.catalogue, first
    assert old not in first.torch, f"{name}: still the old answer {first.torch!r}"
    assert right in first.torch, f"{name}: {first.torch!r} lacks {right!r}"
    assert first.tolerance.startswith("checked"), first.tolerance


# the old answers, run as checks: the runner fails each
OLD = [
    ("nd.gather_nd(x, idx)", "torch.gather(x, 1, idx)", "x=U(3, 4); idx=IA([[0, 2], [1, 3]])",
     "close"),
    ("nd.linalg.gemm2(q, t, transpose_b=True)", "torch.addbmm(torch.zeros(3, 3, dtype=dtype), "
     "q[None], t[None])", "q=U(3, 4); t=U(3, 4)", "close"),
    ("nd.dot(a, b)", "torch.outer(a[:, 0], b[0])", "a=U(3, 4); b=U(4, 2)", "close"),
    ("nd.random.uniform(0, 1, shape=(20000,), dtype=dtype)",
     "torch.empty(20000, dtype=dtype).cauchy_()", "", "random"),
    ("x.mean(axis=1, keepdims=True)", "x.mean()", "x=U(3, 4)", "close"),
    ("x.dtype.__name__ if hasattr(x.dtype, '__name__') else str(x.dtype)", "x.type()",
     "x=U(2)", "exact"),
    ("""
     from sidebyside.catalogue.harness import mx_init
     mx_init(mx.init.Uniform(0.1), (200, 100), dtype=dtype)""", """
     from sidebyside.catalogue.harness import torch_init
     torch_init(lambda t: nn.init.normal_(t, 0, 1), (200, 100), dtype=dtype)""", "", "random"),
    ("gluon.loss.L2Loss()(x, y)", "nn.MSELoss(reduction='none')(x, y).mean(dim=1)",
     "x=U(3, 4); y=U(3, 4)", "close"),
]


@pytest.mark.parametrize("mx_code, torch_code, inputs, kind", OLD,
                         ids=["gather_nd", "gemm2", "dot", "uniform", "mean", "dtype",
                              "init.Uniform", "L2Loss"])
def test_the_old_answers_fail_their_check(mx_code, torch_code, inputs, kind):
    c = model.check(mx_code, torch_code, inputs=inputs, kind=kind,
                    dtypes=("float64",) if kind == "exact" else ("float64", "float32"))
    with pytest.raises(run.CheckFailed):
        run.run_check(c)
