"""`mx.nd` reshaping operators: reshape / Reshape (one form per special code), transpose,
swapaxes, expand_dims, squeeze, flatten, concat, stack, split, tile, repeat, flip, broadcasts."""
import textwrap

from ..model import ARGS, COMPOSITE, RECIPE, RENAMED, SAME, check, entry

#: PyTorch has no shape codes: this function reads MXNet's (the recipe of the code forms)
RESHAPE_RECIPE = '''
def mx_reshape(data, shape, reverse=False):
    """torch.reshape reading MXNet's codes: 0 copies an input dimension, -1 infers one,
    -2 copies all remaining ones, -3 merges two, -4 splits one in two (the next two values,
    one of them may be -1); reverse=True matches the codes from the right."""
    dims, codes = list(data.shape), list(shape)
    if reverse:
        dims, codes = dims[::-1], codes[::-1]
    out, src, k = [], 0, 0
    while k < len(codes):
        c = codes[k]
        if c == 0:
            out.append(dims[src])
            src += 1
        elif c == -2:
            out.extend(dims[src:])
            src = len(dims)
        elif c == -3:
            out.append(dims[src] * dims[src + 1])
            src += 2
        elif c == -4:
            a, b = codes[k + 1], codes[k + 2]
            out += [dims[src] // b if a == -1 else a, dims[src] // a if b == -1 else b]
            src += 1
            k += 2
        else:  # a size, or -1: both stand for one input dimension
            out.append(c)
            src += 1
        k += 1
    return data.reshape(out[::-1] if reverse else out)
'''

_RESHAPE_SIG = ("data", "shape", "reverse")


def _with_recipe(code):
    """A torch snippet that defines the recipe's function first."""
    return RESHAPE_RECIPE.strip() + "\n" + textwrap.dedent(code).strip()
_CODES = ("MXNet reads 0, -2, -3 and -4 in `shape` as codes (copy a dimension, copy the rest, "
          "merge two, split one); torch.reshape reads 0 as a size and rejects the others: "
          "see this construct's other forms")


def _reshape_entries(name, twins):
    """The forms of nd.reshape and of its legacy spelling nd.Reshape (the same registered
    operator, separate names): the same checks, each calling its own name."""
    op = f"nd.{name.rpartition('.')[2]}"
    return [
        entry(name, aliases=twins,
              torch="torch.reshape(data, shape)", status=SAME,
              args="data → input; shape → shape",
              gotchas=[_CODES,
                       "mx.nd.NDArray.reshape (x.reshape(...)) is another construct: it takes "
                       "the shape as a tuple or as separate numbers"],
              teach="02_tensor_ops §8. The whole map, run",
              check=check(f"""
                  ({op}(x, shape=(4, 6)), {op}(x, (3, 2, 4)))""", """
                  (torch.reshape(x, (4, 6)), torch.reshape(x, (3, 2, 4)))""",
                  inputs="x=U(2, 3, 4)", grad="x")),
        entry(name, aliases=twins, form="0 copies a dimension", when=["shape=(0, -1)"],
              signature=_RESHAPE_SIG,
              torch="data.reshape([data.shape[i] if s == 0 else s for i, s in enumerate(shape)])",
              status=ARGS,
              args="shape → shape, each 0 replaced by the input's size at that position",
              gotchas=["a 0 at position i copies the input's dimension i: (0, -1) on "
                       "(2, 3, 4, 5) is (2, 60), (0, -1, 0) is (2, 15, 4); torch.reshape "
                       "takes 0 as a size and raises",
                       "the replacement by position holds while no -2, -3 or -4 comes "
                       "before the 0 (they shift the input position): use the recipe"],
              recipe=RESHAPE_RECIPE,
              teach="02_tensor_ops §Exercises",
              check=check(f"""
                  ({op}(x, shape=(0, -1)), {op}(x, shape=(0, -1, 0)), {op}(x, shape=(0, 0, 10, 2)),
                   {op}(x, shape=(0, -3, 0)))""", _with_recipe("""
                  def zero(data, shape):
                      return data.reshape([data.shape[i] if s == 0 else s
                                           for i, s in enumerate(shape)])
                  (zero(x, (0, -1)), zero(x, (0, -1, 0)), zero(x, (0, 0, 10, 2)),
                   mx_reshape(x, (0, -3, 0)))"""),
                  inputs="x=U(2, 3, 4, 5)", grad="x")),
        entry(name, aliases=twins, form="-1 infers a dimension", when=["shape=(-1,)"],
              signature=_RESHAPE_SIG,
              torch="torch.reshape(data, shape)", status=SAME,
              args="data → input; shape → shape",
              gotchas=["-1 is the same in both: one dimension inferred from the size"],
              check=check(f"""
                  ({op}(x, shape=(-1,)), {op}(x, shape=(4, -1, 5)), {op}(x, shape=(-1, 3)))""",
                  """
                  (torch.reshape(x, (-1,)), torch.reshape(x, (4, -1, 5)), torch.reshape(x, (-1, 3)))""",
                  inputs="x=U(2, 3, 4, 5)", grad="x")),
        entry(name, aliases=twins, form="-2 copies the remaining dimensions",
              when=["shape=(-2, 1, 1)"], signature=_RESHAPE_SIG,
              torch="mx_reshape(data, shape)", status=RECIPE, recipe=RESHAPE_RECIPE,
              args="shape → the recipe computes torch's shape",
              gotchas=["-2 copies every input dimension not consumed yet: (-2, 1, 1) on a "
                       "(2, 3) input is (2, 3, 1, 1), data.reshape(*data.shape, 1, 1); "
                       "(0, -2) keeps the shape"],
              check=check(f"""
                  ({op}(x, shape=(-2, 1, 1)), {op}(x, shape=(-2, 1, 1)), {op}(x, shape=(0, -2)),
                   {op}(x, shape=(0, -2, 1)))""",
                  _with_recipe("""
                  (x.reshape(*x.shape, 1, 1), mx_reshape(x, (-2, 1, 1)), mx_reshape(x, (0, -2)),
                   mx_reshape(x, (0, -2, 1)))"""),
                  inputs="x=U(2, 3, 4)", grad="x")),
        entry(name, aliases=twins, form="-3 merges two dimensions", when=["shape=(0, -3)"],
              signature=_RESHAPE_SIG,
              torch="mx_reshape(data, shape)", status=RECIPE, recipe=RESHAPE_RECIPE,
              args="shape → the recipe computes torch's shape",
              gotchas=["-3 merges the next two input dimensions: (0, -3, 0) on (2, 3, 4, 5) is "
                       "(2, 12, 5), torch.flatten(data, 1, 2); (-3, -1) is (6, 20)"],
              check=check(f"""
                  ({op}(x, shape=(0, -3, 0)), {op}(x, shape=(0, -3, 0)), {op}(x, shape=(-3, -1)),
                   {op}(x, shape=(-3, -3)))""",
                  _with_recipe("""
                  (torch.flatten(x, 1, 2), mx_reshape(x, (0, -3, 0)), mx_reshape(x, (-3, -1)),
                   mx_reshape(x, (-3, -3)))"""),
                  inputs="x=U(2, 3, 4, 5)", grad="x")),
        entry(name, aliases=twins, form="-4 splits a dimension",
              when=["shape=(0, -4, 2, -1, -2)"], signature=_RESHAPE_SIG,
              torch="mx_reshape(data, shape)", status=RECIPE, recipe=RESHAPE_RECIPE,
              args="shape → the recipe computes torch's shape",
              gotchas=["-4 splits the next input dimension in two, the two values after it "
                       "(one may be -1): (0, -4, 2, -1, -2) on (2, 6, 5) is (2, 2, 3, 5), "
                       "torch.unflatten(data, 1, (2, -1))"],
              check=check(f"""
                  ({op}(x, shape=(0, -4, 2, -1, -2)), {op}(x, shape=(0, -4, 2, -1, -2)),
                   {op}(x, shape=(-4, -1, 1, 0, 5)), {op}(x, shape=(0, -4, 3, -1, 0)))""",
                  _with_recipe("""
                  (torch.unflatten(x, 1, (2, -1)), mx_reshape(x, (0, -4, 2, -1, -2)),
                   mx_reshape(x, (-4, -1, 1, 0, 5)), mx_reshape(x, (0, -4, 3, -1, 0)))"""),
                  inputs="x=U(2, 6, 5)", grad="x")),
        entry(name, aliases=twins, form="reverse=True", when=["reverse=True"],
              signature=_RESHAPE_SIG,
              torch="data.reshape([data.shape[i - len(shape)] if s == 0 else s "
                    "for i, s in enumerate(shape)])",
              status=ARGS, recipe=RESHAPE_RECIPE,
              args="shape → shape, each 0 replaced by the input's size counted from the "
                   "right; reverse → (none: the replacement counts from the right)",
              gotchas=["reverse=True matches the codes right to left: (-1, 0, 0) on "
                       "(2, 3, 4, 5) is (6, 4, 5), data.reshape(-1, *data.shape[-2:]); "
                       "(0, -1) is (24, 5) where reverse=False gives (2, 60)",
                       "with -2, -3 or -4 the replacement does not hold: use the recipe, "
                       "mx_reshape(data, shape, reverse=True)"],
              check=check(f"""
                  ({op}(x, shape=(-1, 0, 0), reverse=True), {op}(x, shape=(-1, 0, 0), reverse=True),
                   {op}(x, shape=(0, -1), reverse=True), {op}(x, shape=(-1, -3), reverse=True))""",
                  _with_recipe("""
                  def rev(data, shape):
                      return data.reshape([data.shape[i - len(shape)] if s == 0 else s
                                           for i, s in enumerate(shape)])
                  (x.reshape(-1, *x.shape[-2:]), rev(x, (-1, 0, 0)), rev(x, (0, -1)),
                   mx_reshape(x, (-1, -3), reverse=True))"""),
                  inputs="x=U(2, 3, 4, 5)", grad="x")),
    ]


ENTRIES = [
    *_reshape_entries("mx.nd.reshape", ["mx.sym.reshape", "mx.sym.Symbol.reshape"]),
    *_reshape_entries("mx.nd.Reshape", ["mx.sym.Reshape"]),
]

_MAP = "02_tensor_ops §8. The whole map, run"
_RENAME = "02_tensor_ops §9. The rows that need more than a rename"
_SPLIT_SIG = ("data", "num_outputs", "axis", "squeeze_axis")


def _fluent(op):
    """The symbol operator and the two fluent methods of an operator."""
    return [f"mx.sym.{op}", f"mx.nd.NDArray.{op}", f"mx.sym.Symbol.{op}"]


def _concat(name, twins):
    op = f"nd.{name.rpartition('.')[2]}"
    return entry(name, aliases=twins,
                 torch="torch.cat(data, dim=dim)", status=ARGS,
                 args="*data → one sequence of tensors; dim → dim",
                 defaults="dim 1 vs torch.cat's 0",
                 gotchas=["without dim MXNet joins along axis 1: nd.concat(a, b) of (2, 3) and "
                          "(2, 4) is (2, 7), torch.cat((a, b), dim=1)"],
                 teach=_MAP,
                 check=check(f"""
                     ({op}(a, b), {op}(a, c, dim=0), {op}(a, b, a, dim=-1))""", """
                     (torch.cat((a, b), dim=1), torch.cat((a, c), dim=0),
                      torch.cat((a, b, a), dim=-1))""",
                     inputs="a=U(2, 3); b=U(2, 4); c=U(1, 3)", grad="a, b, c"))


def _split_entries(name, twins):
    op = f"nd.{name.rpartition('.')[2]}"
    return [
        entry(name, aliases=twins,
              torch="torch.chunk(data, num_outputs, dim=axis)", status=ARGS,
              args="num_outputs → chunks; axis → dim; squeeze_axis=True: torch.unbind (a form)",
              defaults="axis 1 vs torch.chunk's dim 0",
              gotchas=["without axis MXNet splits axis 1: nd.split(x, 3) of (2, 6, 3) gives "
                       "three (2, 2, 3), torch.chunk(x, 3, dim=1)",
                       "MXNet returns a list of NDArrays (PyTorch a tuple) and needs equal "
                       "pieces; torch.chunk allows a smaller last piece"],
              teach=_RENAME,
              check=check(f"""
                  ({op}(x, 3), {op}(x, num_outputs=3, axis=2))""", """
                  (torch.chunk(x, 3, dim=1), torch.chunk(x, 3, dim=2))""",
                  inputs="x=U(2, 6, 3)", grad="x")),
        entry(name, aliases=twins, form="squeeze_axis=True", when=["squeeze_axis=True"],
              signature=_SPLIT_SIG,
              torch="torch.unbind(data, dim=axis)", status=ARGS,
              args="axis → dim; num_outputs must equal data.shape[axis] (MXNet checks)",
              gotchas=["squeeze_axis=True removes the split axis from each piece: "
                       "torch.unbind"],
              check=check(f"""
                  {op}(x, num_outputs=3, axis=2, squeeze_axis=True)""", """
                  torch.unbind(x, dim=2)""", inputs="x=U(2, 6, 3)", grad="x")),
        entry(name, aliases=twins, form="num_outputs=1", when=["num_outputs=1"],
              signature=_SPLIT_SIG,
              torch="torch.chunk(data, 1, dim=axis)[0]", status=COMPOSITE,
              args="num_outputs=1: the one piece, not a list",
              gotchas=["with num_outputs=1 MXNet returns the array itself, not a list of one: "
                       "code that indexes [0] then takes the first row"],
              check=check(f"""
                  y = {op}(x, num_outputs=1)
                  ('a list' if isinstance(y, (list, tuple)) else 'one array', y)""", """
                  y = torch.chunk(x, 1, dim=1)[0]
                  ('a list' if isinstance(y, (list, tuple)) else 'one array', y)""", inputs="x=U(2, 6, 3)", grad="x")),
    ]


ENTRIES += [
    entry("mx.nd.transpose", aliases=_fluent("transpose"),
          torch="torch.permute(data, tuple(range(data.ndim))[::-1])", status=ARGS,
          args="no axes: all axes reversed",
          gotchas=["MXNet's transpose is torch.permute; torch.transpose swaps two dimensions "
                   "(MXNet's swapaxes)",
                   "without axes all axes are reversed: (2, 3, 4) → (4, 3, 2)"],
          teach=_MAP,
          check=check("nd.transpose(x)", "torch.permute(x, tuple(range(x.ndim))[::-1])",
                      inputs="x=U(2, 3, 4)", grad="x")),
    entry("mx.nd.transpose", aliases=_fluent("transpose"), form="axes", when=["axes"],
          signature=("data", "axes"),
          torch="torch.permute(data, axes)", status=RENAMED,
          args="axes → dims",
          teach=_MAP,
          check=check("nd.transpose(x, axes=(1, 2, 0))", "torch.permute(x, (1, 2, 0))",
                      inputs="x=U(2, 3, 4)", grad="x")),
    entry("mx.nd.swapaxes", aliases=_fluent("swapaxes"),
          torch="torch.swapaxes(data, dim1, dim2)", status=ARGS,
          args="dim1 → axis0; dim2 → axis1 (torch.transpose(data, dim1, dim2) is the same)",
          defaults="dim1 and dim2 default to 0 (a copy) vs required",
          teach=_MAP,
          check=check("(nd.swapaxes(x, 0, 2), nd.swapaxes(x, dim1=-1, dim2=1))",
                      "(torch.swapaxes(x, 0, 2), torch.swapaxes(x, -1, 1))",
                      inputs="x=U(2, 3, 4)", grad="x")),
    entry("mx.nd.SwapAxis", aliases=["mx.sym.SwapAxis"],
          torch="torch.swapaxes(data, dim1, dim2)", status=ARGS,
          args="dim1 → axis0; dim2 → axis1",
          defaults="dim1 and dim2 default to 0 (a copy) vs required",
          check=check("(nd.SwapAxis(x, 0, 2), nd.SwapAxis(x, dim1=-1, dim2=1))",
                      "(torch.swapaxes(x, 0, 2), torch.swapaxes(x, -1, 1))",
                      inputs="x=U(2, 3, 4)", grad="x")),
    entry("mx.nd.expand_dims", aliases=_fluent("expand_dims"),
          torch="torch.unsqueeze(data, axis)", status=RENAMED,
          args="axis → dim",
          teach=_MAP,
          check=check("(nd.expand_dims(x, axis=1), nd.expand_dims(x, -1))",
                      "(torch.unsqueeze(x, 1), torch.unsqueeze(x, -1))",
                      inputs="x=U(2, 3)", grad="x")),
    entry("mx.nd.squeeze", aliases=_fluent("squeeze"),
          torch="torch.squeeze(data, dim=axis)", status=ARGS,
          args="axis → dim (an int or a tuple; None: every axis of length 1)",
          gotchas=["squeezing an array whose axes all have length 1 gives shape (1,) in "
                   "MXNet, () in PyTorch: torch.squeeze(y).reshape(1)"],
          teach=_MAP,
          check=check("(nd.squeeze(x), nd.squeeze(x, axis=(0, 2)), nd.squeeze(y))",
                      "(torch.squeeze(x), torch.squeeze(x, dim=(0, 2)), "
                      "torch.squeeze(y).reshape(1))",
                      inputs="x=U(1, 3, 1, 2); y=U(1, 1)", grad="x, y")),
    entry("mx.nd.flatten", aliases=_fluent("flatten"),
          torch="torch.flatten(data, 1)", status=ARGS,
          args="(none: MXNet always keeps the first axis)",
          defaults="flattens to 2-D (N, -1) vs torch.flatten's start_dim=0 (1-D)",
          gotchas=["MXNet's flatten keeps the first axis: (2, 3, 4) → (2, 12)",
                   "a 1-D (5,) input becomes (5, 1); torch.flatten(data, 1) rejects 1-D: "
                   "data.reshape(len(data), -1)"],
          teach=_MAP,
          check=check("(nd.flatten(x), nd.flatten(v))",
                      "(torch.flatten(x, 1), v.reshape(len(v), -1))",
                      inputs="x=U(2, 3, 4); v=U(5)", grad="x, v")),
    entry("mx.nd.Flatten", aliases=["mx.sym.Flatten"],
          torch="torch.flatten(data, 1)", status=ARGS,
          args="(none: MXNet always keeps the first axis)",
          defaults="flattens to 2-D (N, -1) vs torch.flatten's start_dim=0 (1-D)",
          gotchas=["MXNet's Flatten keeps the first axis: (2, 3, 4) → (2, 12)",
                   "a 1-D (5,) input becomes (5, 1); torch.flatten(data, 1) rejects 1-D: "
                   "data.reshape(len(data), -1)"],
          check=check("(nd.Flatten(x), nd.Flatten(v))",
                      "(torch.flatten(x, 1), v.reshape(len(v), -1))",
                      inputs="x=U(2, 3, 4); v=U(5)", grad="x, v")),
    _concat("mx.nd.concat", ["mx.sym.concat"]),
    _concat("mx.nd.Concat", ["mx.sym.Concat"]),
    entry("mx.nd.stack", aliases=["mx.sym.stack"],
          torch="torch.stack(data, dim=axis)", status=ARGS,
          args="*data → one sequence of tensors; axis → dim",
          teach=_MAP,
          check=check("(nd.stack(a, b), nd.stack(a, b, a, axis=-1))",
                      "(torch.stack((a, b)), torch.stack((a, b, a), dim=-1))",
                      inputs="a=U(2, 3); b=U(2, 3)", grad="a, b")),
    *_split_entries("mx.nd.split", _fluent("split")),
    *_split_entries("mx.nd.SliceChannel", ["mx.sym.SliceChannel"]),
    entry("mx.nd.split_v2", aliases=["mx.sym.split_v2"],
          torch="torch.tensor_split(ary, indices_or_sections, dim=axis)", status=RENAMED,
          args="indices_or_sections → indices_or_sections (an int: equal sections; a tuple: "
               "the split points); axis → dim",
          gotchas=["split_v2's axis defaults to 0 (split's to 1)",
                   "one section returns the array itself, not a list"],
          check=check("""
              y = nd.split_v2(x, 1)
              (nd.split_v2(x, (2, 5), axis=1), nd.split_v2(x, 2), 'a list' if isinstance(y, (list, tuple)) else 'one array', y)""",
              """
              y = torch.tensor_split(x, 1)[0]
              (torch.tensor_split(x, (2, 5), dim=1), torch.tensor_split(x, 2),
               'a list' if isinstance(y, (list, tuple)) else 'one array', y)""", inputs="x=U(4, 7)", grad="x")),
    entry("mx.nd.tile", aliases=_fluent("tile"),
          torch="torch.tile(data, reps)", status=SAME,
          args="reps → dims",
          gotchas=["PyTorch's Tensor.repeat is MXNet's tile (and MXNet's repeat is "
                   "torch.repeat_interleave)",
                   "fewer reps than axes repeat the last axes: (2,) on (2, 3) gives (2, 6)"],
          teach=_RENAME,
          check=check("(nd.tile(x, reps=(2,)), nd.tile(x, (2, 1, 2)))",
                      "(torch.tile(x, (2,)), torch.tile(x, (2, 1, 2)))",
                      inputs="x=U(2, 3)", grad="x")),
    entry("mx.nd.repeat", aliases=_fluent("repeat"),
          torch="torch.repeat_interleave(data, repeats, dim=axis)", status=RENAMED,
          args="repeats → repeats; axis → dim (None: the flattened array)",
          gotchas=["MXNet's repeat repeats each element (torch.repeat_interleave); "
                   "torch's Tensor.repeat tiles (MXNet's tile)"],
          teach=_RENAME,
          check=check("(nd.repeat(x, repeats=2), nd.repeat(x, 3, axis=1))",
                      "(torch.repeat_interleave(x, 2), torch.repeat_interleave(x, 3, dim=1))",
                      inputs="x=U(2, 3)", grad="x")),
    entry("mx.nd.flip", aliases=_fluent("flip"),
          torch="torch.flip(data, (axis,))", status=ARGS,
          args="axis → dims (a tuple in PyTorch; MXNet takes an int or a tuple)",
          check=check("(nd.flip(x, axis=1), nd.flip(x, axis=(0, 2)))",
                      "(torch.flip(x, (1,)), torch.flip(x, (0, 2)))",
                      inputs="x=U(2, 3, 4)", grad="x")),
    entry("mx.nd.reverse", aliases=["mx.sym.reverse"],
          torch="torch.flip(data, (axis,))", status=ARGS,
          args="axis → dims (a tuple in PyTorch; MXNet takes an int or a tuple)",
          check=check("(nd.reverse(x, axis=1), nd.reverse(x, axis=(0, 2)))",
                      "(torch.flip(x, (1,)), torch.flip(x, (0, 2)))",
                      inputs="x=U(2, 3, 4)", grad="x")),
    entry("mx.nd.broadcast_to", aliases=_fluent("broadcast_to"),
          torch="data.expand([-1 if s == 0 else s for s in shape])", status=ARGS,
          args="shape → sizes, each 0 (keep this axis) as -1",
          gotchas=["a 0 in MXNet's shape keeps that axis (PyTorch writes -1)",
                   "MXNet's result is a new array; expand gives a view (clone() before "
                   "writing into it)"],
          teach=_MAP,
          check=check("(nd.broadcast_to(x, shape=(2, 0, 4)), nd.broadcast_to(x, (5, 3, 2)))",
                      "(x.expand([-1 if s == 0 else s for s in (2, 0, 4)]), "
                      "x.expand([-1 if s == 0 else s for s in (5, 3, 2)]))",
                      inputs="x=U(1, 3, 1)", grad="x")),
    entry("mx.nd.broadcast_like", aliases=["mx.sym.broadcast_like", "mx.sym.Symbol.broadcast_like"],
          torch="lhs.expand_as(rhs)", status=RENAMED,
          args="lhs → self; rhs → other",
          check=check("nd.broadcast_like(x, y)", "x.expand_as(y)",
                      inputs="x=U(1, 3, 1); y=U(2, 3, 4)", grad="x")),
    entry("mx.nd.broadcast_like", aliases=["mx.sym.broadcast_like", "mx.sym.Symbol.broadcast_like"],
          form="lhs_axes", when=["lhs_axes"], signature=("lhs", "rhs", "lhs_axes", "rhs_axes"),
          torch="lhs.expand([rhs.shape[dict(zip(lhs_axes, rhs_axes))[i]] if i in lhs_axes "
                "else -1 for i in range(lhs.ndim)])",
          status=COMPOSITE,
          args="lhs_axes[i] takes the size of rhs's axis rhs_axes[i]",
          check=check("nd.broadcast_like(x, y, lhs_axes=(0, 2), rhs_axes=(2, 0))", """
              lhs_axes, rhs_axes = (0, 2), (2, 0)
              x.expand([y.shape[dict(zip(lhs_axes, rhs_axes))[i]] if i in lhs_axes else -1
                        for i in range(x.ndim)])""",
              inputs="x=U(1, 3, 1); y=U(4, 5, 6)", grad="x")),
    entry("mx.nd.broadcast_axis", aliases=["mx.sym.broadcast_axis"],
          torch="data.expand([dict(zip(axis, size)).get(i, -1) for i in range(data.ndim)])",
          status=COMPOSITE,
          args="axis, size → one size per axis (an int axis and size: wrap each in a tuple)",
          check=check("(nd.broadcast_axis(x, axis=1, size=4), "
                      "nd.broadcast_axis(x, axis=(0, 2), size=(2, 5)))", """
              def bcast(data, axis, size):
                  return data.expand([dict(zip(axis, size)).get(i, -1) for i in range(data.ndim)])
              (bcast(x, (1,), (4,)), bcast(x, (0, 2), (2, 5)))""",
              inputs="x=U(1, 1, 1)", grad="x")),
    entry("mx.nd.broadcast_axes", aliases=_fluent("broadcast_axes"),
          torch="data.expand([dict(zip(axis, size)).get(i, -1) for i in range(data.ndim)])",
          status=COMPOSITE,
          args="axis, size → one size per axis (an int axis and size: wrap each in a tuple)",
          check=check("(nd.broadcast_axes(x, axis=1, size=4), "
                      "nd.broadcast_axes(x, axis=(0, 2), size=(2, 5)))", """
              def bcast(data, axis, size):
                  return data.expand([dict(zip(axis, size)).get(i, -1) for i in range(data.ndim)])
              (bcast(x, (1,), (4,)), bcast(x, (0, 2), (2, 5)))""",
              inputs="x=U(1, 1, 1)", grad="x")),
    entry("mx.nd.reshape_like", aliases=_fluent("reshape_like"),
          torch="torch.reshape(lhs, rhs.shape)", status=RENAMED,
          args="lhs → input; rhs → its shape (lhs.reshape_as(rhs))",
          teach=_MAP,
          check=check("nd.reshape_like(x, y)", "torch.reshape(x, y.shape)",
                      inputs="x=U(2, 3, 4); y=U(6, 4)", grad="x")),
    entry("mx.nd.reshape_like", aliases=_fluent("reshape_like"), form="lhs_begin",
          when=["lhs_begin"],
          signature=("lhs", "rhs", "lhs_begin", "lhs_end", "rhs_begin", "rhs_end"),
          torch="lhs.reshape(lhs.shape[:lhs_begin] + rhs.shape[rhs_begin:rhs_end] "
                "+ lhs.shape[lhs_end:])",
          status=COMPOSITE,
          args="lhs's axes lhs_begin:lhs_end take rhs's sizes rhs_begin:rhs_end (write "
               "lhs_begin=0 for None)",
          check=check("nd.reshape_like(x, y, lhs_begin=1, lhs_end=3, rhs_begin=1, rhs_end=2)",
                      "x.reshape(x.shape[:1] + y.shape[1:2] + x.shape[3:])",
                      inputs="x=U(2, 3, 4); y=U(5, 12)", grad="x")),
    entry("mx.nd.depth_to_space", aliases=_fluent("depth_to_space"),
          torch="F.pixel_shuffle(data.unflatten(1, (block_size ** 2, -1)).transpose(1, 2)"
                ".flatten(1, 2), block_size)",
          status=COMPOSITE,
          args="block_size → upscale_factor, after the channels are reordered",
          gotchas=["MXNet orders the input channels (block, block, C) (TensorFlow's DCR), "
                   "F.pixel_shuffle (C, block, block): reorder them first, or reshape "
                   "(N, b, b, C/b², H, W), permute (0, 3, 4, 1, 5, 2) and reshape"],
          check=check("(nd.depth_to_space(x, 2), nd.depth_to_space(x, block_size=2))", """
              n, c, h, w = x.shape
              (F.pixel_shuffle(x.unflatten(1, (2 ** 2, -1)).transpose(1, 2).flatten(1, 2), 2),
               x.reshape(n, 2, 2, c // 4, h, w).permute(0, 3, 4, 1, 5, 2).reshape(
                   n, c // 4, h * 2, w * 2))""", inputs="x=U(2, 8, 2, 3)", grad="x")),
    entry("mx.nd.space_to_depth", aliases=_fluent("space_to_depth"),
          torch="F.pixel_unshuffle(data, block_size).unflatten(1, (-1, block_size ** 2))"
                ".transpose(1, 2).flatten(1, 2)",
          status=COMPOSITE,
          args="block_size → downscale_factor, then the channels reordered",
          gotchas=["MXNet orders the output channels (block, block, C), F.pixel_unshuffle "
                   "(C, block, block): reorder them after"],
          check=check("nd.space_to_depth(x, 2)",
                      "F.pixel_unshuffle(x, 2).unflatten(1, (-1, 2 ** 2)).transpose(1, 2)"
                      ".flatten(1, 2)", inputs="x=U(2, 2, 4, 6)", grad="x")),
    entry("mx.nd.diag", aliases=_fluent("diag"),
          torch="torch.diag(data, k)", status=ARGS,
          args="k → diagonal; for 3-D and more: torch.diagonal(data, offset=k, dim1=axis1, "
               "dim2=axis2)",
          gotchas=["a 1-D input builds a matrix, a 2-D one gives its diagonal (as torch.diag); "
                   "from 3-D on use torch.diagonal(data, offset=k, dim1=axis1, dim2=axis2) "
                   "(the diagonal becomes the last axis)"],
          teach=_MAP,
          check=check("(nd.diag(m, k=-1), nd.diag(v, 1), nd.diag(x, k=1, axis1=1, axis2=2))",
                      "(torch.diag(m, -1), torch.diag(v, 1), "
                      "torch.diagonal(x, offset=1, dim1=1, dim2=2))",
                      inputs="m=U(3, 4); v=U(3); x=U(2, 3, 4)", grad="m, v, x")),
    entry("mx.nd.moveaxis",
          torch="torch.movedim(tensor, source, destination)", status=RENAMED,
          args="tensor → input; source → source; destination → destination",
          check=check("(nd.moveaxis(x, 0, 2), nd.moveaxis(x, -1, 0))",
                      "(torch.movedim(x, 0, 2), torch.movedim(x, -1, 0))",
                      inputs="x=U(2, 3, 4)", grad="x")),
]
