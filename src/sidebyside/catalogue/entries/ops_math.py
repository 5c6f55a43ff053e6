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

_BCAST = ("broadcast_* operators broadcast like NumPy (shapes (2, 3) and (3,) or (2, 1) work); "
          "both operands must be NDArrays: a Python scalar raises 'Argument rhs must have "
          "NDArray type' (use the operator `x + 2` or nd.add)")
_ELEM = ("elemwise_* operators need equal shapes: (2, 3) with (1, 3) raises MXNetError (no "
         "broadcasting); torch.add/mul/... broadcast")
_INP2 = "x=U(2, 3); y=U(2, 1); z=U(3)"
_INP2P = "x=U(2, 3); y=P(2, 1, lo=0.5, hi=1.5); z=P(3, lo=0.5, hi=1.5)"


def _binary(op, t, *, prefix="broadcast_", inputs=_INP2, status=RENAMED, gotchas=(), grad="x, y",
            same_shape=False, aliases=(), args=None):
    """One arithmetic operator: checked on (2, 3) op (2, 1) and (2, 3) op (3,)."""
    name = f"nd.{prefix}{op}"
    if same_shape:
        mx_code, t_code, inp = f"{name}(x, y)", f"{t}(x, y)", "x=U(2, 3); y=U(2, 3)"
        if "P(" in inputs:
            inp = "x=U(2, 3); y=P(2, 3, lo=0.5, hi=1.5)"
    else:
        mx_code, t_code, inp = f"({name}(x, y), {name}(x, z))", f"({t}(x, y), {t}(x, z))", inputs
    return entry(f"mx.{name}", torch=f"{t}(lhs, rhs)", status=status, aliases=list(aliases),
                 args=args if args is not None else "lhs → input; rhs → other",
                 gotchas=[_ELEM if same_shape else _BCAST, *gotchas],
                 check=check(mx_code, t_code, inputs=inp, grad=grad))


ENTRIES += [
    _binary("add", "torch.add", gotchas=[
        "nd.broadcast_plus is the same operator as nd.broadcast_add (found under either name)"]),
    _binary("sub", "torch.sub", gotchas=[
        "nd.broadcast_minus is the same operator as nd.broadcast_sub"]),
    _binary("mul", "torch.mul"),
    _binary("div", "torch.div", inputs=_INP2P),
    _binary("mod", "torch.remainder", inputs=_INP2P, gotchas=[
        "the result takes the sign of the divisor: [-3, 3, -3, 3.5] mod [2, -2, -2, 2] = "
        "[1, -1, -1, 1.5] as torch.remainder; torch.fmod (sign of the dividend) gives "
        "[-1, 1, -1, 1.5]",
        "gradient w.r.t. rhs is -floor(lhs / rhs) on both sides ([2, 2, -1, -1] for the "
        "example)"]),
    _binary("power", "torch.pow", inputs="x=P(2, 3); y=U(2, 1); z=U(3)"),
    _binary("maximum", "torch.maximum"),
    _binary("minimum", "torch.minimum"),
    _binary("add", "torch.add", prefix="elemwise_", same_shape=True),
    _binary("sub", "torch.sub", prefix="elemwise_", same_shape=True),
    _binary("mul", "torch.mul", prefix="elemwise_", same_shape=True),
    _binary("div", "torch.div", prefix="elemwise_", same_shape=True, inputs=_INP2P),
    entry("mx.nd.clip", torch="torch.clamp(data, min=a_min, max=a_max)", status=ARGS,
          args="data → input; a_min → min; a_max → max",
          defaults="MXNet requires both a_min and a_max (nd.clip(x, a_min=0) raises "
                   "'Required parameter a_max'); torch.clamp takes either alone",
          gotchas=["at a value exactly on a bound the gradient differs: nd.clip([1, -1, 0.5], "
                   "-1, 1) passes gradient [1, 1, 1], torch.clamp gives [0, 0, 1] "
                   "(measured, float32)",
                   "a_max=None is not accepted by MXNet: use a large float",
                   "a_min/a_max are float32 parameters: on a float64 array nd.clip(x, 0.2, 2) "
                   "clamps to float32(0.2) = 0.2 + 2.98e-09 (measured); torch.clamp keeps 0.2"],
          check=check("(nd.clip(x, -0.5, 0.5), nd.clip(x, a_min=0.0, a_max=2.0))",
                      "(torch.clamp(x, min=-0.5, max=0.5), torch.clamp(x, min=0.0, max=2.0))",
                      inputs="x=U(3, 4)", grad="x")),
]

_CMP_INP = "x=A([[0, 1, 2], [2, 1, 0]]); y=A([[1], [2]]); z=A([1, 0, 0])"
_FLOAT = ("MXNet returns 1.0/0.0 in the input's float dtype (float32 for float32 inputs), "
          "PyTorch a bool tensor: `.to(x.dtype)` matches; the gradient through it is zero")


def _cmp(op, t, *, prefix="broadcast_", extra=()):
    name = f"nd.{prefix}{op}"
    return entry(f"mx.{name}", torch=f"{t}(lhs, rhs).to(lhs.dtype)", status=COMPOSITE,
                 args="lhs → input; rhs → other; the bool result cast to the input's dtype",
                 gotchas=[_FLOAT, _BCAST, *extra],
                 check=check(f"({name}(x, y), {name}(x, z))",
                             f"({t}(x, y).to(x.dtype), {t}(x, z).to(x.dtype))",
                             inputs=_CMP_INP))


ENTRIES += [
    _cmp("equal", "torch.eq"),
    _cmp("not_equal", "torch.ne"),
    _cmp("greater", "torch.gt"),
    _cmp("greater_equal", "torch.ge"),
    _cmp("lesser", "torch.lt", extra=["lesser is MXNet's spelling of less (torch.lt / torch.less)"]),
    _cmp("lesser_equal", "torch.le"),
    _cmp("logical_and", "torch.logical_and", extra=["any nonzero value counts as true"]),
    _cmp("logical_or", "torch.logical_or", extra=["any nonzero value counts as true"]),
    _cmp("logical_xor", "torch.logical_xor", extra=["any nonzero value counts as true"]),
    entry("mx.nd.logical_not", torch="torch.logical_not(data).to(data.dtype)", status=COMPOSITE,
          args="data → input; the bool result cast to the input's dtype",
          gotchas=["nd.logical_not([0, 2]) = [1., 0.] (float32); torch.logical_not gives bool"],
          check=check("nd.logical_not(x)", "torch.logical_not(x).to(x.dtype)",
                      inputs="x=A([[0, 1, 2], [0, -1, 0]])")),
    *[entry(f"mx.nd.contrib.{op}", torch=f"torch.{op}(data).to(data.dtype)", status=COMPOSITE,
            args="data → input; the bool result cast to the input's dtype",
            gotchas=[f"nd.contrib.{op} returns 1.0/0.0 in the input's float dtype; "
                     f"torch.{op} returns bool",
                     f"nd.contrib.{op} is a Python function (not a registered operator): "
                     "there is no mx.sym counterpart of that name"],
            check=check(f"nd.contrib.{op}(x)", f"torch.{op}(x).to(x.dtype)",
                        inputs="x=A([1.0, onp.nan, onp.inf, -onp.inf, 0.0, -2.5])"))
      for op in ("isnan", "isinf", "isfinite")],
    entry("mx.nd.add_n", torch="torch.stack(args).sum(dim=0)", status=COMPOSITE,
          args="the arrays, given as separate arguments → a list stacked then summed",
          gotchas=["nd.ElementWiseSum is the same operator",
                   "all arrays must have the same shape (no broadcasting)"],
          check=check("nd.add_n(x, y, z)", "torch.stack([x, y, z]).sum(dim=0)",
                      inputs="x=U(2, 3); y=U(2, 3); z=U(2, 3)", grad="x, y, z")),
    entry("mx.nd.Cast", torch="data.to(getattr(torch, numpy.dtype(dtype).name))", status=ARGS,
          args="dtype (a string such as 'float16', 'int32', or a NumPy type) → the torch.dtype "
               "of the same name",
          gotchas=["float → int truncates toward zero on both sides ([1.7, -1.7] → [1, -1])",
                   "nd.cast is the same operator as nd.Cast",
                   "MXNet accepts dtype='float32' or numpy.float32; torch needs a torch.dtype: "
                   "getattr(torch, numpy.dtype(dtype).name) converts both",
                   "the gradient is cast back to the input's dtype on both sides"],
          check=check("(nd.Cast(x, dtype='float32'), nd.Cast(x * 3, dtype='int32'), "
                      "nd.Cast(x, dtype=onp.float16))",
                      "(x.to(getattr(torch, onp.dtype('float32').name)), "
                      "(x * 3).to(getattr(torch, onp.dtype('int32').name)), "
                      "x.to(getattr(torch, onp.dtype(onp.float16).name)))",
                      inputs="x=U(3, 4)", grad="x")),
    entry("mx.nd.identity", torch="torch.clone(data)", status=RENAMED,
          args="data → input",
          gotchas=["identity returns a new array with the same values; the gradient passes "
                   "through unchanged"],
          check=check("nd.identity(x) * 2", "torch.clone(x) * 2", inputs="x=U(3, 4)",
                      grad="x")),
]

_WRAP = ("nd.{op} is a Python function (not a registered operator): it accepts a Python scalar "
         "on either side (nd.{op}(x, 2), nd.{op}(2, x)) and calls broadcast_{bop} or a "
         "*_scalar operator")
_WRAP_INP = "x=U(2, 3); y=U(3); w=P(2, 3)"


def _wrap_arith(op, sym, bop, *, inp=_WRAP_INP, a="x", b="y", s1="2.0", s2="3.0", extra=(),
                grad="x, y"):
    """nd.add & co: arrays, array ∘ scalar, scalar ∘ array; PyTorch's operator."""
    return entry(f"mx.nd.{op}", torch=f"lhs {sym} rhs", status=RENAMED,
                 args=f"nd.{op}(lhs, rhs) → lhs {sym} rhs (a scalar may stand on either side)",
                 gotchas=[_WRAP.format(op=op, bop=bop), *extra],
                 check=check(f"(nd.{op}({a}, {b}), nd.{op}({a}, {s1}), nd.{op}({s2}, {a}))",
                             f"({a} {sym} {b}, {a} {sym} {s1}, {s2} {sym} {a})",
                             inputs=inp, grad=grad))


def _wrap_cmp(op, sym, bop):
    return entry(f"mx.nd.{op}", torch=f"(lhs {sym} rhs).to(x.dtype)", status=COMPOSITE,
                 args=f"nd.{op}(lhs, rhs) → (lhs {sym} rhs) cast to the array operand x's dtype",
                 gotchas=[_WRAP.format(op=op, bop=bop), _FLOAT],
                 check=check(f"(nd.{op}(x, y), nd.{op}(x, 1.0), nd.{op}(1.0, x))",
                             f"((x {sym} y).to(x.dtype), (x {sym} 1.0).to(x.dtype), "
                             f"(1.0 {sym} x).to(x.dtype))",
                             inputs="x=A([[0, 1, 2], [2, 1, 0]]); y=A([1, 0, 0])"))


def _wrap_logic(op, bop):
    t = f"torch.{op}"
    return entry(f"mx.nd.{op}",
                 torch=f"{t}(torch.as_tensor(lhs), torch.as_tensor(rhs)).to(x.dtype)",
                 status=COMPOSITE,
                 args="scalars → torch.as_tensor; the bool result cast to the array operand "
                      "x's dtype",
                 gotchas=[_WRAP.format(op=op, bop=bop), _FLOAT],
                 check=check(f"(nd.{op}(x, y), nd.{op}(x, 1.0), nd.{op}(0.0, x))",
                             f"({t}(torch.as_tensor(x), torch.as_tensor(y)).to(x.dtype), "
                             f"{t}(torch.as_tensor(x), torch.as_tensor(1.0)).to(x.dtype), "
                             f"{t}(torch.as_tensor(0.0), torch.as_tensor(x)).to(x.dtype))",
                             inputs="x=A([[0, 1, 2], [2, 1, 0]]); y=A([1, 0, 0])"))


def _wrap_minmax(op, t):
    kw = "min" if op == "maximum" else "max"
    return entry(f"mx.nd.{op}", torch=f"{t}(lhs, rhs)  # a Python scalar s: torch.clamp(x, {kw}=s)",
                 status=COMPOSITE,
                 args=f"two arrays → {t}(lhs, rhs); an array and a scalar (either side) → "
                      f"torch.clamp(x, {kw}=s)",
                 gotchas=[_WRAP.format(op=op, bop=op),
                          f"{t} rejects a Python scalar; wrapping it as torch.as_tensor(0.2) "
                          "makes a float32 0-d tensor, so with a float64 x the scalar is "
                          "rounded to float32 (off by 2.98e-09 for 0.2, measured): use "
                          f"torch.clamp(x, {kw}=s)"],
                 check=check(f"(nd.{op}(x, y), nd.{op}(x, 0.2), nd.{op}(-0.3, x))",
                             f"({t}(x, y), torch.clamp(x, {kw}=0.2), torch.clamp(x, {kw}=-0.3))",
                             inputs="x=U(2, 3); y=U(3)", grad="x, y"))


ENTRIES += [
    _wrap_arith("add", "+", "add"),
    _wrap_arith("subtract", "-", "sub"),
    _wrap_arith("multiply", "*", "mul"),
    _wrap_arith("divide", "/", "div", a="w", b="z", inp="z=P(3); w=P(2, 3)", grad="w, z"),
    _wrap_arith("true_divide", "/", "div", a="w", b="z", inp="z=P(3); w=P(2, 3)",
                grad="w, z", extra=["the same computation as nd.divide"]),
    entry("mx.nd.modulo", torch="torch.remainder(torch.as_tensor(lhs), torch.as_tensor(rhs))",
          status=COMPOSITE,
          args="lhs, rhs → torch.remainder of both as tensors (a scalar becomes a 0-d tensor)",
          gotchas=[_WRAP.format(op="modulo", bop="mod"),
                   "the sign follows the divisor, as Python's and torch's %: "
                   "nd.modulo([-3, 3, -3.5], 2) = [1, 1, 0.5], nd.modulo(7, [-2, 2]) = [-1, 1]",
                   "in PyTorch `0.7 % w` (scalar on the left) raises under autograd "
                   "('derivative for aten::remainder is not implemented'); "
                   "torch.remainder(torch.as_tensor(0.7), w) works"],
          check=check("(nd.modulo(x, w), nd.modulo(x, 0.5), nd.modulo(0.5, w))",
                      "(torch.remainder(torch.as_tensor(x), torch.as_tensor(w)), "
                      "torch.remainder(torch.as_tensor(x), torch.as_tensor(0.5)), "
                      "torch.remainder(torch.as_tensor(0.5), torch.as_tensor(w)))",
                      inputs="x=U(2, 3); w=P(2, 3)", grad="x, w")),
    entry("mx.nd.power", torch="torch.pow(base, exp)", status=RENAMED,
          args="base → input (a tensor or a Python scalar); exp → exponent",
          gotchas=[_WRAP.format(op="power", bop="power"),
                   "torch.pow accepts a scalar on either side too (not on both)"],
          check=check("(nd.power(w, x), nd.power(w, 2.0), nd.power(2.0, x))",
                      "(torch.pow(w, x), torch.pow(w, 2.0), torch.pow(2.0, x))",
                      inputs="x=U(2, 3); w=P(2, 3)", grad="x, w")),
    _wrap_minmax("maximum", "torch.maximum"),
    _wrap_minmax("minimum", "torch.minimum"),
    _wrap_cmp("equal", "==", "equal"),
    _wrap_cmp("not_equal", "!=", "not_equal"),
    _wrap_cmp("greater", ">", "greater"),
    _wrap_cmp("greater_equal", ">=", "greater_equal"),
    _wrap_cmp("lesser", "<", "lesser"),
    _wrap_cmp("lesser_equal", "<=", "lesser_equal"),
    _wrap_logic("logical_and", "logical_and"),
    _wrap_logic("logical_or", "logical_or"),
    _wrap_logic("logical_xor", "logical_xor"),
]

_SYM = ("from sidebyside.catalogue.harness_ops_math import sym_eval\n"
        "a = sym.var('a'); b = sym.var('b')\n")


def _sym_wrap(op, t, kw):
    return entry(f"mx.sym.{op}",
                 torch=f"{t}(left, right)  # a Python scalar s: torch.clamp(x, {kw}=s)",
                 status=COMPOSITE,
                 args=f"two Symbols → {t}(left, right); a Symbol and a scalar (either side) → "
                      f"torch.clamp(x, {kw}=s)",
                 gotchas=[f"mx.sym.{op} is a Python function (not a registered operator) taking "
                          "a Python scalar on either side; its parameters are left, right",
                          f"{t} rejects a Python scalar: torch.clamp(x, {kw}=s)",
                          f"two Symbols must have the same shape: sym.{op}((2, 3), (3,)) fails at eval with "
                 "an elemwise shape check (nd.{op} broadcasts them; torch broadcasts)"],
                 check=check(_SYM + f"(sym_eval(sym.{op}(a, b), a=x, b=y), "
                             f"sym_eval(sym.{op}(a, 0.2), a=x), sym_eval(sym.{op}(-0.3, a), a=x))",
                             f"({t}(x, y), torch.clamp(x, {kw}=0.2), torch.clamp(x, {kw}=-0.3))",
                             inputs="x=U(2, 3); y=U(2, 3)"))


ENTRIES += [
    _sym_wrap("maximum", "torch.maximum", "min"),
    _sym_wrap("minimum", "torch.minimum", "max"),
    *[entry(f"mx.sym.{op}", torch="torch.pow(base, exp)", status=RENAMED,
            args="base → input (a Symbol or a scalar); exp → exponent",
            gotchas=[f"mx.sym.{op} is a Python function accepting a scalar on either side",
                     f"two Symbols must have the same shape: sym.{op}((2, 3), (3,)) fails at eval with "
                 "an elemwise shape check (nd.{op} broadcasts them; torch broadcasts)"],
            check=check(_SYM + f"(sym_eval(sym.{op}(a, b), a=w, b=x), "
                        f"sym_eval(sym.{op}(a, 2.0), a=w), sym_eval(sym.{op}(2.0, b), b=x))",
                        "(torch.pow(w, x), torch.pow(w, 2.0), torch.pow(2.0, x))",
                        inputs="x=U(2, 3); w=P(2, 3)"))
      for op in ("power", "pow")],
]

ENTRIES += [
    _binary(op, t, prefix="_internal._", same_shape=True,
            gotchas=[f"nd._internal._{op} is the internal name under nd.elemwise_{eop} "
                     "(not public API): prefer x + y / x * y"])
    for op, t, eop in (("plus", "torch.add", "add"), ("mul", "torch.mul", "mul"))
]

_CBRT = ("PyTorch has no cbrt: sign(x) * |x| ** (1/3) keeps negative inputs real "
         "(nd.cbrt([-8, 27]) = [-2, 3]); x ** (1/3) gives nan for x < 0")
ENTRIES += [
    _unary("log2", "log2", inputs="x=P(3, 4)"),
    _unary("log10", "log10", inputs="x=P(3, 4)"),
    _unary("expm1", "expm1"),
    _unary("sinh", "sinh"),
    _unary("cosh", "cosh"),
    _unary("arcsinh", "arcsinh"),
    _unary("arccosh", "arccosh", inputs="x=P(3, 4, lo=1.2, hi=3.0)"),
    _unary("arctanh", "arctanh", inputs="x=U(3, 4, lo=-0.9, hi=0.9)"),
    _unary("trunc", "trunc", gotchas=["rounds toward zero: [-2.5, -1.5, 2.7] → [-2, -1, 2]"]),
    _unary("fix", "trunc", status=RENAMED,
           gotchas=["nd.fix rounds toward zero, the same values as nd.trunc "
                    "([-2.5, -1.5, 2.7] → [-2, -1, 2])"]),
    _unary("degrees", "rad2deg", status=RENAMED, rtol=1e-7,
           note="MXNet's float64 degrees is off by up to 5.5e-08 relative (a float32 "
                "conversion constant; measured on 1000 values in [-3, 3])",
           gotchas=["in float64 nd.degrees differs from torch.rad2deg by up to 5.5e-08 "
                    "relative (measured): MXNet's constant is float32-precise"]),
    _unary("radians", "deg2rad", status=RENAMED, inputs="x=U(3, 4, lo=-180, hi=180)",
           rtol=1e-7,
           note="MXNet's float64 radians multiplies by float32(pi/180): up to 7.7e-09 "
                "relative off (measured on 1000 values)",
           gotchas=["in float64 nd.radians(x) equals x * float32(pi / 180) exactly: up to "
                    "7.7e-09 relative off torch.deg2rad (measured)"]),
    _unary("gammaln", "lgamma", status=RENAMED, inputs="x=P(3, 4, lo=0.5, hi=5.0)",
           atol=1e-6,
           note="the forward agrees to 4.4e-16; MXNet's float64 gradient (digamma) is off by "
                "up to 1.6e-07 absolute on [0.5, 5] (measured on 1000 values)",
           gotchas=["in float64 the gradient of nd.gammaln differs from torch.digamma by up "
                    "to 1.6e-07 (measured on [0.5, 5]); the values agree to 4.4e-16"]),
    entry("mx.nd.cbrt", torch="torch.sign(data) * data.abs().pow(1 / 3)", status=COMPOSITE,
          args="no torch.cbrt: sign(x) · |x|^(1/3)", gotchas=[_CBRT],
          check=check("nd.cbrt(x)", "torch.sign(x) * x.abs().pow(1 / 3)",
                      inputs="x=A([[-8.0, 27.0, 0.5], [-0.3, 2.0, -1.7]])", grad="x")),
    entry("mx.nd.rcbrt", torch="1 / (torch.sign(data) * data.abs().pow(1 / 3))",
          status=COMPOSITE, args="no torch.rcbrt: 1 / (sign(x) · |x|^(1/3))",
          gotchas=[_CBRT, "nd.rcbrt([-8, 27]) = [-0.5, 0.333]"],
          check=check("nd.rcbrt(x)", "1 / (torch.sign(x) * x.abs().pow(1 / 3))",
                      inputs="x=A([[-8.0, 27.0, 0.5], [-0.3, 2.0, -1.7]])", grad="x")),
    _binary("hypot", "torch.hypot"),
]

ENTRIES += [
    entry("mx.sym._internal._square_sum", aliases=["mx.nd._internal._square_sum"],
          torch="torch.sum(data ** 2, dim=axis, keepdim=keepdims)", status=COMPOSITE,
          args="data → input squared; axis → dim; keepdims → keepdim",
          gotchas=["_square_sum is an internal operator implemented for row_sparse inputs only: "
                   "a dense NDArray raises 'Operator not implemented' (infer_stype); "
                   "call x.tostype('row_sparse') first",
                   "with axis=1, keepdims=True the result is row_sparse too "
                   "(.tostype('default') to read it); axis=0 or keepdims=False give dense",
                   "without axis it raises on CPU: give the axis"],
          check=check("s = x.tostype('row_sparse')\n"
                      "(nd._internal._square_sum(s, axis=1, keepdims=True).tostype('default'), "
                      "nd._internal._square_sum(s, axis=0))",
                      "(torch.sum(x ** 2, dim=1, keepdim=True), torch.sum(x ** 2, dim=0))",
                      inputs="x=U(3, 4)")),
]
