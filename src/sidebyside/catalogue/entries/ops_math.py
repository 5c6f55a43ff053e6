"""`mx.nd` elementwise math: unary functions (exp, log, sqrt, trig, rounding), power, maximum,
minimum, clip, broadcast_* and elemwise_* arithmetic, comparisons and logical operators, add_n,
the Python wrappers (add, subtract, multiply, divide, equal, ...), contrib.isfinite/isinf/isnan,
Cast, identity, BlockGrad / stop_gradient."""
from ..model import ARGS, COMPOSITE, RENAMED, SAME, check, entry

_HALF = "A([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 0.3, -0.7, 1.2])"


def _unary(op, t, inputs="x=U(3, 4)", status=SAME, gotchas=(), grad="x", **kw):
    return entry(f"mx.nd.{op}", torch=f"torch.{t}(data)", status=status,
                 args="" if status == SAME else f"{op} → torch.{t}", gotchas=list(gotchas),
                 check=check(f"nd.{op}(x)", f"torch.{t}(x)", inputs=inputs, grad=grad, **kw))


ENTRIES = [
    _unary("exp", "exp"),
    _unary("log", "log", inputs="x=P(3, 4)",
           gotchas=["MXNet gives nan/-inf for x <= 0 without an error, as PyTorch does"]),
    _unary("log1p", "log1p", inputs="x=P(3, 4)"),
    _unary("sqrt", "sqrt", inputs="x=P(3, 4)"),
    _unary("square", "square"),
    _unary("abs", "abs"),
    _unary("sign", "sign", gotchas=["the gradient is zero on both sides"]),
    _unary("sin", "sin"),
    _unary("cos", "cos"),
    _unary("tan", "tan"),
    _unary("arccos", "arccos", inputs="x=U(3, 4, lo=-0.9, hi=0.9)",
           gotchas=["torch.arccos is torch.acos under another name"]),
    _unary("arcsin", "arcsin", inputs="x=U(3, 4, lo=-0.9, hi=0.9)"),
    _unary("arctan", "arctan"),
    _unary("floor", "floor"),
    _unary("ceil", "ceil"),
    _unary("reciprocal", "reciprocal", inputs="x=P(3, 4)"),
    _unary("rsqrt", "rsqrt", inputs="x=P(3, 4)"),
    _unary("negative", "negative", gotchas=["-x is the same on both sides"]),
    entry("mx.nd.round", torch="torch.sign(data) * torch.floor(data.abs() + 0.5)",
          status=COMPOSITE,
          args="halfway values: MXNet rounds away from zero, torch.round to the even integer",
          gotchas=["nd.round([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5]) = [-3, -2, -1, 1, 2, 3]; "
                   "torch.round gives [-2, -2, -0, 0, 2, 2] (half to even): use "
                   "sign(x) * floor(|x| + 0.5) to keep MXNet's values"],
          check=check("nd.round(x)", "torch.sign(x) * torch.floor(x.abs() + 0.5)",
                      inputs=f"x={_HALF}", grad="x")),
    entry("mx.nd.rint", torch="torch.ceil(data - 0.5)", status=COMPOSITE,
          args="halfway values: MXNet's rint goes down (to the floor), torch.round to even",
          gotchas=["nd.rint([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5]) = [-3, -2, -1, 0, 1, 2]: "
                   "halfway values go to the floor, not to the even integer as numpy.rint and "
                   "torch.round do; torch.ceil(x - 0.5) reproduces it"],
          check=check("nd.rint(x)", "torch.ceil(x - 0.5)", inputs=f"x={_HALF}", grad="x")),
]
