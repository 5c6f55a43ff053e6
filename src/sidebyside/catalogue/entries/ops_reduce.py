"""`mx.nd` reductions: sum, mean, max, min, prod, nansum, nanprod (forms: axis given, no axis,
exclude=True), norm (forms ord/axis), argmax, argmin, argmax_channel."""
from ..model import ARGS, COMPOSITE, check, entry

_SIG = ("data", "axis", "keepdims", "exclude")
_SHAPE1 = ("without `axis` MXNet reduces every axis and returns shape (1,), PyTorch a 0-d "
           "tensor (shape ()): `.reshape(1)` matches it")
_AXIS = "axis → dim; keepdims → keepdim"


def _reduce(op, tfun, *, name=None, grad="x", nan=False, extra=()):
    """The three forms of one reduction: axis given (default), no axis, exclude=True."""
    key = f"mx.nd.{op}"
    inp = "x=U(2, 3, 4)" if not nan else "x=U(2, 3, 4)"
    pre_mx = "y = nd.where(x > 0.5, x * 0 + math.nan, x)\n" if nan else "y = x\n"
    pre_t = "y = torch.where(x > 0.5, x * 0 + math.nan, x)\n" if nan else "y = x\n"
    g = "" if nan else grad
    return [
        entry(key, torch=f"{tfun}(data, dim=axis, keepdim=keepdims)", status=ARGS,
              args=_AXIS + "; a tuple of axes → a tuple of dims",
              gotchas=[_SHAPE1, *extra],
              check=check(pre_mx + f"""(nd.{op}(y, axis=1), nd.{op}(y, axis=(0, 2), keepdims=True),
                  nd.{op}(y, axis=-1))""", pre_t + f"""({tfun}(y, dim=1), {tfun}(y, dim=(0, 2), keepdim=True),
                  {tfun}(y, dim=-1))""", inputs=inp, grad=g)),
        entry(key, form="no axis", when=["!axis"], signature=_SIG,
              torch=f"{tfun}(data).reshape(1)", status=COMPOSITE,
              args="data → input; the result reshaped to (1,)",
              gotchas=[_SHAPE1],
              check=check(pre_mx + f"nd.{op}(y)", pre_t + f"{tfun}(y).reshape(1)",
                          inputs=inp, grad=g)),
        entry(key, form="exclude=True", when=["exclude=True"], signature=_SIG,
              torch=f"{tfun}(data, dim=[d for d in range(data.dim()) if d not in axis], "
                    "keepdim=keepdims)", status=COMPOSITE,
              args="axis → the dims NOT to reduce: pass the complement as dim",
              gotchas=["exclude=True reduces every axis except the ones listed"],
              check=check(pre_mx + f"(nd.{op}(y, axis=1, exclude=True), "
                          f"nd.{op}(y, axis=(0, 2), exclude=True, keepdims=True))",
                          pre_t + f"({tfun}(y, dim=[0, 2]), {tfun}(y, dim=[1], keepdim=True))",
                          inputs=inp, grad=g)),
    ]


ENTRIES = [
    *_reduce("sum", "torch.sum"),
    *_reduce("mean", "torch.mean"),
    *_reduce("max", "torch.amax", extra=[
        "torch.max(x, dim) returns (values, indices); torch.amax returns the values only, "
        "like nd.max, and accepts a tuple of dims"]),
    *_reduce("min", "torch.amin", extra=[
        "torch.min(x, dim) returns (values, indices); torch.amin returns the values only"]),
    *_reduce("prod", "torch.prod", extra=[
        "torch.prod takes one int dim only; for a tuple of axes reduce one at a time"]),
    *_reduce("nansum", "torch.nansum", nan=True),
]

# torch.prod takes a single dim: replace prod's checks (tuples of dims) by nested calls
_PROD = [
    entry("mx.nd.prod", torch="torch.prod(data, dim=axis, keepdim=keepdims)", status=ARGS,
          args=_AXIS + "; torch.prod takes one int dim: a tuple of axes is one call per axis",
          gotchas=[_SHAPE1],
          check=check("(nd.prod(x, axis=1), nd.prod(x, axis=(0, 2), keepdims=True), "
                      "nd.prod(x, axis=-1))",
                      "(torch.prod(x, dim=1), torch.prod(torch.prod(x, dim=0, keepdim=True), "
                      "dim=2, keepdim=True), torch.prod(x, dim=-1))",
                      inputs="x=U(2, 3, 4)", grad="x")),
    entry("mx.nd.prod", form="no axis", when=["!axis"], signature=_SIG,
          torch="torch.prod(data).reshape(1)", status=COMPOSITE,
          args="data → input; the result reshaped to (1,)", gotchas=[_SHAPE1],
          check=check("nd.prod(x)", "torch.prod(x).reshape(1)", inputs="x=U(2, 3)", grad="x")),
    entry("mx.nd.prod", form="exclude=True", when=["exclude=True"], signature=_SIG,
          torch="torch.prod(data.flatten(...), dim=...)", status=COMPOSITE,
          args="axis → the dims NOT to reduce: move them last, flatten the rest, prod over it",
          gotchas=["exclude=True reduces every axis except the ones listed"],
          check=check("nd.prod(x, axis=1, exclude=True)",
                      "torch.prod(x.permute(1, 0, 2).flatten(1), dim=1)",
                      inputs="x=U(2, 3, 4)", grad="x")),
    entry("mx.nd.nanprod",
          torch="torch.prod(torch.nan_to_num(data, nan=1.0), dim=axis, keepdim=keepdims)",
          status=COMPOSITE, args=_AXIS + "; NaN replaced by 1 first",
          gotchas=["PyTorch has no nanprod: replace NaN by 1, then prod", _SHAPE1],
          check=check("y = nd.where(x > 0.5, x * 0 + math.nan, x)\nnd.nanprod(y, axis=1)",
                      "y = torch.where(x > 0.5, x * 0 + math.nan, x)\n"
                      "torch.prod(torch.nan_to_num(y, nan=1.0), dim=1)",
                      inputs="x=U(3, 4)")),
]
ENTRIES = [e for e in ENTRIES if e.mx != "mx.nd.prod"] + _PROD

_NSIG = ("data", "ord", "axis", "out_dtype", "keepdims")
ENTRIES += [
    entry("mx.nd.norm", torch="torch.linalg.vector_norm(data).reshape(1)", status=COMPOSITE,
          args="data → x; the result reshaped to (1,)",
          gotchas=["without axis: the L2 norm of all elements, shape (1,) (PyTorch: shape ())",
                   "ord=2 over two axes is the Frobenius norm (vector_norm over both dims), "
                   "not the spectral norm"],
          check=check("nd.norm(x)", "torch.linalg.vector_norm(x).reshape(1)",
                      inputs="x=U(3, 4)", grad="x")),
    entry("mx.nd.norm", form="axis", when=["axis"], signature=_NSIG,
          torch="torch.linalg.vector_norm(data, ord, dim=axis, keepdim=keepdims)", status=ARGS,
          args="ord → ord (1 or 2 only); axis → dim; keepdims → keepdim",
          gotchas=["MXNet accepts ord 1 and 2 only",
                   "ord=2 over two axes is the Frobenius norm (vector_norm over both dims)"],
          check=check("(nd.norm(x, axis=1), nd.norm(x, ord=1, axis=0, keepdims=True), "
                      "nd.norm(x, axis=(1, 2)))",
                      "(torch.linalg.vector_norm(x, 2, dim=1), "
                      "torch.linalg.vector_norm(x, 1, dim=0, keepdim=True), "
                      "torch.linalg.vector_norm(x, 2, dim=(1, 2)))",
                      inputs="x=U(2, 3, 4)", grad="x")),
    entry("mx.nd.norm", form="ord=1", when=["ord=1", "!axis"], signature=_NSIG,
          torch="torch.linalg.vector_norm(data, 1).reshape(1)", status=COMPOSITE,
          args="ord → ord; the result reshaped to (1,)",
          check=check("nd.norm(x, ord=1)", "torch.linalg.vector_norm(x, 1).reshape(1)",
                      inputs="x=U(3, 4)", grad="x")),
]

_IDX = ("the indices come back as floats of the input's dtype (float64 in, float64 out); "
        "PyTorch gives int64: `.to(data.dtype)` matches, `.long()` goes the other way")
ENTRIES += [
    entry("mx.nd.argmax", torch="torch.argmax(data, dim=axis, keepdim=keepdims).to(data.dtype)",
          status=ARGS, args=_AXIS,
          gotchas=[_IDX, "without axis MXNet returns the flat index with shape (1,)"],
          check=check("(nd.argmax(x, axis=1), nd.argmax(x, axis=0, keepdims=True))",
                      "(torch.argmax(x, dim=1).to(x.dtype), "
                      "torch.argmax(x, dim=0, keepdim=True).to(x.dtype))",
                      inputs="x=U(3, 4)", kind="exact")),
    entry("mx.nd.argmin", torch="torch.argmin(data, dim=axis, keepdim=keepdims).to(data.dtype)",
          status=ARGS, args=_AXIS,
          gotchas=[_IDX, "without axis MXNet returns the flat index with shape (1,)"],
          check=check("(nd.argmin(x, axis=1), nd.argmin(x, axis=0, keepdims=True))",
                      "(torch.argmin(x, dim=1).to(x.dtype), "
                      "torch.argmin(x, dim=0, keepdim=True).to(x.dtype))",
                      inputs="x=U(3, 4)", kind="exact")),
    entry("mx.nd.argmax_channel", torch="torch.argmax(data, dim=-1).to(data.dtype)",
          status=COMPOSITE, args="data → input; the last axis",
          gotchas=[_IDX, "argmax over the last axis"],
          check=check("nd.argmax_channel(x)", "torch.argmax(x, dim=-1).to(x.dtype)",
                      inputs="x=U(3, 4)", kind="exact")),
]
