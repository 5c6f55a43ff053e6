"""`mx.nd.contrib` control flow (foreach, while_loop, cond) and small contrib helpers
(arange_like, multi_sum_sq, histogram)."""
from ..model import ARGS, COMPOSITE, RECIPE, check, entry

_FOREACH = '''
def torch_foreach(body, data, states):
    """A Python loop over data's first axis: body(x_t, states) returns (output, new
    states); the outputs are stacked."""
    outs = []
    for x_t in data:
        out, states = body(x_t, states)
        outs.append(out)
    return torch.stack(outs), states
'''
_WHILE = '''
def torch_while_loop(cond, func, loop_vars, max_iterations):
    """A Python while loop: func(*loop_vars) returns (step output, new loop_vars); the
    step outputs are stacked."""
    outs, steps = [], 0
    while steps < max_iterations and bool(cond(*loop_vars)):
        out, loop_vars = func(*loop_vars)
        outs.append(out)
        steps += 1
    return torch.stack(outs), loop_vars
'''

ENTRIES = [
    entry("mx.nd.contrib.foreach", torch="torch_foreach(body, data, init_states)",
          status=RECIPE, recipe=_FOREACH,
          args="body(x_t, states) → (out, states) unchanged; the loop is plain Python",
          gotchas=["PyTorch runs Python control flow eagerly: a for loop over the first axis "
                   "and torch.stack of the outputs replaces foreach (autograd follows it)"],
          check=check("""
              out, st = nd.contrib.foreach(lambda d, s: (d * s[0], [s[0] + d]), x, [h])
              (out, st)""", """
              from sidebyside.catalogue.harness_ops_index import torch_foreach
              out, st = torch_foreach(lambda d, s: (d * s[0], [s[0] + d]), x, [h])
              (out, st)""", inputs="x=U(3, 4); h=U(4)", grad="x, h")),
    entry("mx.nd.contrib.while_loop",
          torch="torch_while_loop(cond, func, loop_vars, max_iterations)",
          status=RECIPE, recipe=_WHILE,
          args="cond(*vars) → a Python bool; func(*vars) → (output, vars)",
          gotchas=["MXNet pads the stacked outputs to max_iterations rows; the rows after the "
                   "last step are uninitialised memory (measured values like 2.2e12, "
                   "-1.7e29), not zeros: slice them off with the step count",
                   "max_iterations is required by MXNet; a Python loop needs none"],
          check=check("""
              outs, vs = nd.contrib.while_loop(lambda i, s: i < 3, lambda i, s: (s * 2, [i + 1, s * x]),
                                               [nd.zeros((1,), dtype=dtype), x], max_iterations=5)
              (outs[:3], vs)""", """
              from sidebyside.catalogue.harness_ops_index import torch_while_loop
              outs, vs = torch_while_loop(lambda i, s: i < 3, lambda i, s: (s * 2, [i + 1, s * x]),
                                          [torch.zeros(1, dtype=dtype), x], 5)
              (outs, vs)""", inputs="x=U(4)", grad="x")),
    entry("mx.nd.contrib.cond", torch="then_func() if pred else else_func()", status=RECIPE,
          recipe="out = then_func() if bool(pred) else else_func()",
          args="pred (a 1-element array) → a Python bool",
          gotchas=["eager PyTorch needs no cond operator: a Python if on the tensor's value "
                   "(torch.cond exists for torch.compile/export graphs)"],
          check=check("""
              (nd.contrib.cond(x.sum() > 0, lambda: x * 2, lambda: x - 1),
               nd.contrib.cond(x.sum() > 100, lambda: x * 2, lambda: x - 1))""", """
              then_func, else_func = (lambda: x * 2), (lambda: x - 1)
              (then_func() if bool(x.sum() > 0) else else_func(),
               then_func() if bool(x.sum() > 100) else else_func())""",
              inputs="x=P(2, 3)", grad="x")),
    entry("mx.nd.contrib.arange_like",
          torch="torch.arange(data.numel(), dtype=data.dtype).reshape(data.shape)",
          status=COMPOSITE, args="start=0, step=1 → arange(start, start + n*step, step)",
          gotchas=["without axis it numbers every element in row-major order, shaped like data"],
          check=check("nd.contrib.arange_like(x)",
                      "torch.arange(x.numel(), dtype=x.dtype).reshape(x.shape)",
                      inputs="x=U(2, 3)", kind="exact")),
    entry("mx.nd.contrib.arange_like", form="axis", when=["axis"],
          signature=("data", "start", "step", "repeat", "ctx", "axis"),
          torch="torch.arange(data.shape[axis], dtype=data.dtype)", status=COMPOSITE,
          args="axis → the length of that axis; 1-D result",
          check=check("(nd.contrib.arange_like(x, axis=1), "
                      "nd.contrib.arange_like(x, start=2.0, step=0.5, axis=0))",
                      "(torch.arange(x.shape[1], dtype=x.dtype), "
                      "torch.arange(2.0, 2.0 + 0.5 * x.shape[0], 0.5, dtype=x.dtype))",
                      inputs="x=U(2, 3)", kind="exact")),
    entry("mx.nd.multi_sum_sq",
          torch="torch.stack([a.pow(2).sum() for a in data]).to(torch.float32)",
          status=COMPOSITE, args="*data, num_arrays → a list; one sum of squares each",
          gotchas=["the result is float32 even for float64 arrays (measured), so the float64 "
                   "check holds to float32 precision"],
          check=check("nd.multi_sum_sq(x, y, num_arrays=2)",
                      "torch.stack([a.pow(2).sum() for a in (x, y)]).to(torch.float32)",
                      inputs="x=U(2, 3); y=U(4)", rtol=1e-6,
                      note="MXNet returns float32 sums for float64 input")),
    entry("mx.nd.histogram", torch="torch.histogram(a, bins, range=range)", status=ARGS,
          args="bins → bins; range → range; counts as int64",
          gotchas=["with range= given MXNet's counts are int64 and the edges the input's "
                   "dtype; torch.histogram gives float counts: `.long()`",
                   "without range MXNet goes through numpy and returns float32 counts and "
                   "edges (measured), whatever the input's dtype"],
          check=check("h, e = nd.histogram(x, bins=4, range=(0, 1))\n(h, e)",
                      "h, e = torch.histogram(x, 4, range=(0.0, 1.0))\n(h.long(), e)",
                      inputs="x=P(3, 4, lo=0.0, hi=1.0)", kind="exact", dtypes=("float64",))),
]

ENTRIES += [
    entry("mx.sym.contrib.foreach", torch="torch_foreach(body, data, init_states)",
          status=RECIPE, recipe=_FOREACH,
          args="the symbol body becomes a Python function of tensors; the loop is plain Python",
          mx2torch="not converted: sidebyside.mx2torch has no rule for the _foreach subgraph "
                   "operator; rewrite the loop by hand with the recipe",
          gotchas=["the Symbol version builds a _foreach subgraph node; eager PyTorch needs "
                   "only a for loop over the first axis"],
          check=check("""
              d, h0 = sym.var('d'), sym.var('h')
              out, st = sym.contrib.foreach(lambda a, s: (a + s[0], [s[0] * a]), d, [h0])
              sym.Group([out] + st).eval(d=x, h=h)""", """
              from sidebyside.catalogue.harness_ops_index import torch_foreach
              out, st = torch_foreach(lambda d, s: (d + s[0], [s[0] * d]), x, [h])
              [out] + st""", inputs="x=U(3, 4); h=U(4)")),
]
