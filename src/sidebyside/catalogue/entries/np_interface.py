"""MXNet's NumPy interface (`from mxnet import np, npx; npx.set_np()`): `mx.np.*` array
creation, shape, math and reduction functions, `mx.np.random.*`, `mx.np.linalg.*`, dtype
attributes and the `mx.np.ndarray` methods scripts call. The mx side of every check runs
inside the NumPy interface (`np=True`)."""
from ..model import ARGS, COMPOSITE, RENAMED, SAME, check, entry

_F32 = ("mx.np creates float32 arrays where NumPy gives float64 or int64 (measured: "
        "np.zeros/ones/full/arange/linspace/eye all float32; np.array([1, 2]) of Python ints "
        "is float32 too, where torch.tensor([1, 2]) is int64)")


def _fn(name, torch, mx_code, torch_code, inputs="x=U(2, 3)", grad="x", status=SAME, args="",
        gotchas=(), kind="close", **kw):
    ck = {k: kw.pop(k) for k in ("rtol", "atol", "rtol32", "atol32", "note", "dtypes")
          if k in kw}
    return entry(name, torch=torch, status=status, args=args, gotchas=list(gotchas),
                 check=check(mx_code, torch_code, inputs=inputs, grad=grad if kind == "close"
                             else "", kind=kind, np=True, **ck), **kw)


ENTRIES = [
    # ------------------------------------------------------------------ creation
    _fn("mx.np.array", "torch.tensor(object, dtype=dtype)", """
        (np.array([[1.0, 2.0], [3.0, 4.0]]), np.array(onp.arange(3.0)), np.array(x, dtype='float64'))""", """
        (torch.tensor([[1.0, 2.0], [3.0, 4.0]]), torch.tensor(onp.arange(3.0)), torch.tensor(x.detach().numpy(), dtype=torch.float64))""",
        grad="", status=ARGS, args="object → data; dtype → dtype (a string or numpy dtype → a torch.dtype); ctx → device",
        defaults="a Python list of ints: mx.np float32, torch int64; a numpy array keeps its dtype on both",
        gotchas=["np.array([1, 2]) is float32 in mx.np (measured), int64 in torch.tensor and NumPy: "
                 "pass dtype='int64' / dtype=torch.float32 where it matters",
                 "np.array(numpy_float64_array) stays float64 on both sides"]),
    _fn("mx.np.zeros", "torch.zeros(shape, dtype=torch.float32)", """
        (np.zeros((2, 3)), np.zeros(4, dtype='float64'))""", """
        (torch.zeros((2, 3), dtype=torch.float32), torch.zeros(4, dtype=torch.float64))""",
        inputs="", grad="", status=ARGS, args="shape → size; dtype → dtype; ctx → device",
        defaults="float32 (NumPy: float64; torch: torch.get_default_dtype(), float32 unless changed)",
        gotchas=[_F32]),
    _fn("mx.np.ones", "torch.ones(shape, dtype=torch.float32)", """
        (np.ones((2, 3)), np.ones(4, dtype='float64'))""", """
        (torch.ones((2, 3), dtype=torch.float32), torch.ones(4, dtype=torch.float64))""",
        inputs="", grad="", status=ARGS, args="shape → size; dtype → dtype; ctx → device",
        defaults="float32 (NumPy: float64)", gotchas=[_F32]),
    _fn("mx.np.full", "torch.full(shape, fill_value, dtype=torch.float32)", """
        (np.full((2, 3), 3), np.full((2,), 2.5), np.full(3, 7, dtype='int64'))""", """
        (torch.full((2, 3), 3, dtype=torch.float32), torch.full((2,), 2.5, dtype=torch.float32), torch.full((3,), 7, dtype=torch.int64))""",
        inputs="", grad="", status=ARGS, args="shape → size; fill_value → fill_value; dtype → dtype",
        defaults="float32 even for an int fill value (measured: np.full((2,), 3) is float32; "
                 "torch.full((2,), 3) is int64, NumPy int64)",
        gotchas=["an integer fill value gives float32 in mx.np, int64 in torch.full: pass dtype"]),
    _fn("mx.np.empty", "torch.empty(shape, dtype=torch.float32)", """
        (np.empty((2, 3)).shape, np.empty((2, 3)).dtype == onp.float32)""", """
        (tuple(torch.empty((2, 3), dtype=torch.float32).shape), torch.empty((2, 3), dtype=torch.float32).dtype == torch.float32)""",
        inputs="", kind="exact", status=ARGS, args="shape → size; dtype → dtype",
        defaults="float32", gotchas=["contents are undefined on both sides"]),
    _fn("mx.np.arange", "torch.arange(start, stop, step, dtype=torch.float32)", """
        (np.arange(5), np.arange(1, 7, 2), np.arange(0.0, 1.0, 0.25), np.arange(4, dtype='int64'))""", """
        (torch.arange(5, dtype=torch.float32), torch.arange(1, 7, 2, dtype=torch.float32), torch.arange(0.0, 1.0, 0.25, dtype=torch.float32), torch.arange(4, dtype=torch.int64))""",
        inputs="", grad="", status=ARGS, args="start, stop, step → start, end, step; dtype → dtype",
        defaults="float32 even for int arguments (measured; torch.arange(5) and NumPy give int64)",
        gotchas=["np.arange(5) is float32 in mx.np: indexing with it fails in torch-ported "
                 "code unless dtype='int64' / torch.arange(5) (int64)"]),
    _fn("mx.np.linspace", "torch.linspace(start, stop, num, dtype=torch.float32)", """
        (np.linspace(0, 1, 5), np.linspace(-1, 1, 7, dtype='float64'))""", """
        (torch.linspace(0, 1, 5, dtype=torch.float32), torch.linspace(-1, 1, 7, dtype=torch.float64))""",
        inputs="", grad="", status=ARGS, args="start, stop, num → start, end, steps; dtype → dtype",
        defaults="num=50 in mx.np (torch: steps required); float32",
        gotchas=["endpoint=False has no torch argument: torch.linspace(start, stop, num + 1)[:-1]"],
        rtol=1e-7, note="MXNet's float64 linspace differs from torch's in the last bits (measured ≤ 1e-16 abs)"),
    _fn("mx.np.eye", "torch.eye(N, M, dtype=torch.float32)", """
        (np.eye(3), np.eye(2, 4, dtype='float64'))""", """
        (torch.eye(3, dtype=torch.float32), torch.eye(2, 4, dtype=torch.float64))""",
        inputs="", grad="", status=ARGS, args="N, M → n, m; dtype → dtype",
        defaults="float32", gotchas=["k (diagonal offset) has no torch.eye argument: use "
                                     "torch.diag(torch.ones(n - abs(k)), k)"]),
    _fn("mx.np.zeros_like", "torch.zeros_like(a)", "np.zeros_like(x)", "torch.zeros_like(x)",
        grad="", args="a → input"),
    _fn("mx.np.ones_like", "torch.ones_like(a)", "np.ones_like(x)", "torch.ones_like(x)",
        grad="", args="a → input"),
    _fn("mx.np.full_like", "torch.full_like(a, fill_value)", "np.full_like(x, 0.5)",
        "torch.full_like(x, 0.5)", grad="", args="a → input"),
    # ------------------------------------------------------------------ shape
    _fn("mx.np.concatenate", "torch.cat(seq, dim=axis)", """
        (np.concatenate([x, y]), np.concatenate((x, y), axis=1))""", """
        (torch.cat([x, y]), torch.cat((x, y), dim=1))""",
        inputs="x=U(2, 3); y=U(2, 3)", grad="x, y", status=RENAMED, args="seq → tensors; axis → dim",
        gotchas=["axis=None flattens first in mx.np (NumPy rule); torch.cat has no such mode: "
                 "torch.cat([t.flatten() for t in seq])"]),
    _fn("mx.np.stack", "torch.stack(arrays, dim=axis)", """
        (np.stack([x, y]), np.stack([x, y], axis=-1))""", """
        (torch.stack([x, y]), torch.stack([x, y], dim=-1))""",
        inputs="x=U(2, 3); y=U(2, 3)", grad="x, y", status=RENAMED, args="arrays → tensors; axis → dim"),
    _fn("mx.np.split", "torch.tensor_split(ary, indices_or_sections, dim=axis)", """
        (np.split(x, 2, axis=1), np.split(x, [1, 3], axis=1))""", """
        (torch.tensor_split(x, 2, dim=1), torch.tensor_split(x, [1, 3], dim=1))""",
        inputs="x=U(2, 4)", status=ARGS, args="indices_or_sections → same (a count or split points); axis → dim",
        gotchas=["torch.split takes chunk *sizes*, not a count or split points: torch.tensor_split "
                 "is the one that reads NumPy's meaning",
                 "np.split with a count that does not divide the axis raises; tensor_split makes uneven parts"]),
    _fn("mx.np.expand_dims", "torch.unsqueeze(a, dim=axis)", """
        (np.expand_dims(x, 0), np.expand_dims(x, axis=-1))""", """
        (torch.unsqueeze(x, 0), torch.unsqueeze(x, dim=-1))""",
        status=RENAMED, args="a → input; axis → dim"),
    _fn("mx.np.squeeze", "torch.squeeze(a, dim=axis)", """
        (np.squeeze(x), np.squeeze(x, axis=0))""", """
        (torch.squeeze(x), torch.squeeze(x, dim=0))""",
        inputs="x=U(1, 3, 1)", status=RENAMED, args="a → input; axis → dim",
        gotchas=["np.squeeze on an axis whose size is not 1 raises; torch.squeeze leaves it alone"]),
    _fn("mx.np.reshape", "torch.reshape(a, newshape)", """
        (np.reshape(x, (3, 2)), np.reshape(x, (-1,)))""", """
        (torch.reshape(x, (3, 2)), torch.reshape(x, (-1,)))""",
        status=SAME, args="a → input; newshape → shape",
        gotchas=["no special codes: 0 is an error in mx.np.reshape (nd.reshape's 0/-2/-3/-4 "
                 "live on in npx.reshape with other numbers)"]),
    _fn("mx.np.transpose", "torch.permute(a, axes)", """
        (np.transpose(x), np.transpose(x, (1, 0, 2)))""", """
        (torch.permute(x, (2, 1, 0)), torch.permute(x, (1, 0, 2)))""",
        inputs="x=U(2, 3, 4)", status=ARGS, args="a → input; axes → dims (required in torch: "
        "no axes reverses all, tuple(reversed(range(a.ndim))))",
        gotchas=["torch.transpose swaps two dims only; permute is the NumPy transpose"]),
    _fn("mx.np.swapaxes", "torch.swapaxes(a, axis1, axis2)", "np.swapaxes(x, 0, 2)",
        "torch.swapaxes(x, 0, 2)", inputs="x=U(2, 3, 4)", args="a → input; axis1, axis2 → axis0, axis1"),
    _fn("mx.np.moveaxis", "torch.moveaxis(a, source, destination)", "np.moveaxis(x, 0, -1)",
        "torch.moveaxis(x, 0, -1)", inputs="x=U(2, 3, 4)", args="a → input"),
    _fn("mx.np.tile", "torch.tile(A, reps)", "(np.tile(x, 2), np.tile(x, (2, 1, 2)))",
        "(torch.tile(x, (2,)), torch.tile(x, (2, 1, 2)))", args="A → input; reps → dims (a tuple)"),
    _fn("mx.np.repeat", "torch.repeat_interleave(a, repeats, dim=axis)", """
        (np.repeat(x, 2), np.repeat(x, 3, axis=1))""", """
        (torch.repeat_interleave(x, 2), torch.repeat_interleave(x, 3, dim=1))""",
        status=RENAMED, args="a → input; axis → dim",
        gotchas=["Tensor.repeat is np.tile, not np.repeat"]),
    _fn("mx.np.flip", "torch.flip(m, dims=axis)", "(np.flip(x, 0), np.flip(x, axis=(0, 1)))",
        "(torch.flip(x, (0,)), torch.flip(x, dims=(0, 1)))", status=ARGS,
        args="m → input; axis → dims (a tuple; axis=None flips all: dims=tuple(range(ndim)))"),
    _fn("mx.np.roll", "torch.roll(a, shift, dims=axis)", "(np.roll(x, 1), np.roll(x, -1, axis=1))",
        "(torch.roll(x, 1), torch.roll(x, -1, dims=1))", status=RENAMED, args="a → input; axis → dims"),
    _fn("mx.np.pad", "F.pad(x, pad)", """
        np.pad(x, ((0, 0), (1, 2)), mode='constant')""", """
        F.pad(x, (1, 2, 0, 0))""", status=ARGS,
        args="pad_width ((before, after) per axis, first axis first) → pad (flat, LAST axis first)",
        gotchas=["mode='reflect'/'edge' map to F.pad(mode='reflect'/'replicate') only on the last "
                 "1–3 dims of a 3–5-D input"]),
    # ------------------------------------------------------------------ selection
    _fn("mx.np.where", "torch.where(condition, x, y)", "np.where(c > 0, x, y)",
        "torch.where(c > 0, x, y)", inputs="c=U(2, 3); x=U(2, 3); y=U(2, 3)", grad="x, y"),
    _fn("mx.np.clip", "torch.clamp(a, a_min, a_max)", "np.clip(x, -0.5, 0.5)",
        "torch.clamp(x, -0.5, 0.5)", status=RENAMED, args="a → input; a_min, a_max → min, max"),
    _fn("mx.np.maximum", "torch.maximum(x1, x2)", "np.maximum(x, y)", "torch.maximum(x, y)",
        inputs="x=U(2, 3); y=U(2, 3)", grad="x, y",
        gotchas=["a Python scalar operand works in np.maximum; torch.maximum needs a tensor "
                 "(torch.clamp(x, min=s))"]),
    _fn("mx.np.minimum", "torch.minimum(x1, x2)", "np.minimum(x, y)", "torch.minimum(x, y)",
        inputs="x=U(2, 3); y=U(2, 3)", grad="x, y"),
    _fn("mx.np.take", "torch.take(a, indices)", "np.take(x, i)", "torch.take(x, i)",
        inputs="x=U(2, 4); i=I(0, 8, (3,))", status=SAME, args="a → input; indices → index (flat positions)",
        gotchas=["mode='clip' clamps out-of-range indices (torch: indices.clamp(0, a.numel() - 1) first); "
                 "mode='wrap' wraps them (torch: indices % a.numel())"]),
    _fn("mx.np.take", "torch.index_select(a, axis, indices)", "np.take(x, i, axis=1)",
        "torch.index_select(x, 1, i)", inputs="x=U(2, 4); i=I(0, 4, (3,))", status=ARGS,
        form="along an axis", when=["axis"], signature=("a", "indices", "axis"),
        args="a → input; axis → dim (second); indices → index (1-D int64; an N-D index: "
             "a.index_select(axis, i.flatten()) reshaped)"),
    _fn("mx.np.nonzero", "torch.nonzero(a, as_tuple=True)", "np.nonzero(x > 0)",
        "torch.nonzero(x > 0, as_tuple=True)", grad="", kind="exact", status=ARGS,
        args="a → input; add as_tuple=True for NumPy's tuple of index arrays (int64 both)"),
    _fn("mx.np.unique", "torch.unique(ar, sorted=True)", "np.unique(np.array(i, dtype='int64'))",
        "torch.unique(i, sorted=True)", inputs="i=I(0, 5, (12,))", grad="", kind="exact",
        status=ARGS,
        args="return_index/return_inverse/return_counts → return_inverse/return_counts (no return_index)"),
    _fn("mx.np.argmax", "torch.argmax(a, dim=axis)", "(np.argmax(x), np.argmax(x, axis=1))",
        "(torch.argmax(x), torch.argmax(x, dim=1))", grad="", kind="exact", status=RENAMED,
        args="a → input; axis → dim", gotchas=["int64 on both (nd.argmax gives float32)"]),
    _fn("mx.np.argmin", "torch.argmin(a, dim=axis)", "(np.argmin(x), np.argmin(x, axis=0))",
        "(torch.argmin(x), torch.argmin(x, dim=0))", grad="", kind="exact", status=RENAMED,
        args="a → input; axis → dim"),
    _fn("mx.np.argsort", "torch.argsort(a, dim=axis)", "np.argsort(x, axis=1)",
        "torch.argsort(x, dim=1)", grad="", kind="exact", status=RENAMED, args="a → input; axis → dim"),
    _fn("mx.np.sort", "torch.sort(a, dim=axis).values", "np.sort(x, axis=1)",
        "torch.sort(x, dim=1).values", status=ARGS, args="a → input; axis → dim; take .values"),
    # ------------------------------------------------------------------ reductions
    _fn("mx.np.sum", "torch.sum(a, dim=axis, keepdim=keepdims)", """
        (np.sum(x).reshape(1), np.sum(x, axis=1), np.sum(x, axis=0, keepdims=True))""", """
        (torch.sum(x).reshape(1), torch.sum(x, dim=1), torch.sum(x, dim=0, keepdim=True))""",
        status=RENAMED, args="a → input; axis → dim; keepdims → keepdim",
        gotchas=["an int32 input sums to int32 in mx.np (NumPy and torch: int64)"]),
    _fn("mx.np.mean", "torch.mean(a, dim=axis, keepdim=keepdims)", "(np.mean(x).reshape(1), np.mean(x, axis=1))",
        "(torch.mean(x).reshape(1), torch.mean(x, dim=1))", status=RENAMED, args="a → input; axis → dim; keepdims → keepdim",
        gotchas=["the mean of an int array is float32 in mx.np (NumPy float64; torch.mean raises on ints)"]),
    _fn("mx.np.max", "torch.amax(a, dim=axis)", "(np.max(x).reshape(1), np.max(x, axis=1))",
        "(torch.amax(x).reshape(1), torch.amax(x, dim=1))", status=RENAMED, args="a → input; axis → dim",
        gotchas=["torch.max(x, dim) returns (values, indices); amax returns the values as np.max does"]),
    _fn("mx.np.min", "torch.amin(a, dim=axis)", "(np.min(x).reshape(1), np.min(x, axis=0))",
        "(torch.amin(x).reshape(1), torch.amin(x, dim=0))", status=RENAMED, args="a → input; axis → dim"),
    _fn("mx.np.prod", "torch.prod(a, dim=axis)", "(np.prod(x).reshape(1), np.prod(x, axis=1))",
        "(torch.prod(x).reshape(1), torch.prod(x, dim=1))", status=RENAMED, args="a → input; axis → dim (one int)"),
    _fn("mx.np.std", "torch.std(a, dim=axis, correction=ddof)", "(np.std(x).reshape(1), np.std(x, axis=1, ddof=1))",
        "(torch.std(x, correction=0).reshape(1), torch.std(x, dim=1, correction=1))", status=ARGS,
        args="axis → dim; ddof → correction", defaults="ddof=0 (population); torch.std corrects by 1",
        gotchas=["np.std divides by n, torch.std by n - 1: pass correction=0",
                 "mx.np.std has no working gradient in MXNet 1.9.1: backward gives all zeros (measured, axis=None and axis=1, ddof 0 and 1); torch.std differentiates. To train through it in MXNet write it out: ((x - x.mean(axis, keepdims=True)) ** 2).mean(axis)"], grad=""),
    _fn("mx.np.var", "torch.var(a, dim=axis, correction=ddof)", "(np.var(x).reshape(1), np.var(x, axis=0, ddof=1))",
        "(torch.var(x, correction=0).reshape(1), torch.var(x, dim=0, correction=1))", status=ARGS,
        args="axis → dim; ddof → correction", defaults="ddof=0; torch.var corrects by 1",
        gotchas=["np.var divides by n, torch.var by n - 1: pass correction=0",
                 "mx.np.var has no working gradient in MXNet 1.9.1: backward gives all zeros (measured, axis=None and axis=1, ddof 0 and 1); torch.var differentiates. To train through it in MXNet write it out: ((x - x.mean(axis, keepdims=True)) ** 2).mean(axis)"], grad=""),
    _fn("mx.np.cumsum", "torch.cumsum(a, dim=axis)", "(np.cumsum(x, axis=1), np.cumsum(x))",
        "(torch.cumsum(x, dim=1), torch.cumsum(x.flatten(), dim=0))", status=ARGS,
        args="axis → dim (required; axis=None flattens: torch.cumsum(a.flatten(), 0))"),
    # ------------------------------------------------------------------ linear algebra
    _fn("mx.np.dot", "torch.matmul(a, b)", "(np.dot(x, y), np.dot(v, v).reshape(1))",
        "(torch.matmul(x, y), torch.matmul(v, v).reshape(1))", inputs="x=U(2, 3); y=U(3, 4); v=U(3)",
        grad="x, y, v", status=RENAMED,
        gotchas=["equal to matmul for 1-D and 2-D inputs; for N-D np.dot sums over the last axis of "
                 "a and the second-to-last of b (torch.tensordot(a, b, dims=([-1], [-2])))"]),
    _fn("mx.np.matmul", "torch.matmul(a, b)", "np.matmul(x, y)", "torch.matmul(x, y)",
        inputs="x=U(2, 2, 3); y=U(2, 3, 4)", grad="x, y"),
    _fn("mx.np.einsum", "torch.einsum(subscripts, *operands)", "np.einsum('ij,jk->ik', x, y)",
        "torch.einsum('ij,jk->ik', x, y)", inputs="x=U(2, 3); y=U(3, 4)", grad="x, y"),
    _fn("mx.np.tensordot", "torch.tensordot(a, b, dims=axes)", "np.tensordot(x, y, axes=([1, 2], [0, 1]))",
        "torch.tensordot(x, y, dims=([1, 2], [0, 1]))", inputs="x=U(2, 3, 4); y=U(3, 4, 2)",
        grad="x, y", status=RENAMED, args="axes → dims"),
    _fn("mx.np.outer", "torch.outer(a, b)", "np.outer(x, y)", "torch.outer(x, y)",
        inputs="x=U(3); y=U(4)", grad="x, y"),
    _fn("mx.np.linalg.norm", "torch.linalg.norm(x, ord, dim=axis)", "(np.linalg.norm(x).reshape(1), np.linalg.norm(x, axis=1))",
        "(torch.linalg.norm(x).reshape(1), torch.linalg.norm(x, dim=1))", status=RENAMED, args="axis → dim; keepdims → keepdim"),
    _fn("mx.np.linalg.inv", "torch.linalg.inv(a)", "np.linalg.inv(s)", "torch.linalg.inv(s)",
        inputs="s=SPD(3)", grad="s", rtol=1e-9, note="inverse of a well-conditioned 3x3: float64 within 1e-9"),
    # ------------------------------------------------------------------ elementwise
    *[_fn(f"mx.np.{n}", f"torch.{t}(x)", f"np.{n}(x)", f"torch.{t}(x)",
          inputs=inp, status=SAME if n == t else RENAMED)
      for n, t, inp in [("abs", "abs", "x=U(2, 3)"), ("exp", "exp", "x=U(2, 3)"),
                        ("log", "log", "x=P(2, 3)"), ("log1p", "log1p", "x=P(2, 3)"),
                        ("sqrt", "sqrt", "x=P(2, 3)"), ("square", "square", "x=U(2, 3)"),
                        ("sin", "sin", "x=U(2, 3)"), ("cos", "cos", "x=U(2, 3)"),
                        ("tanh", "tanh", "x=U(2, 3)"), ("sinh", "sinh", "x=U(2, 3)"),
                        ("cosh", "cosh", "x=U(2, 3)")]],
    _fn("mx.np.sign", "torch.sign(x)", "np.sign(x)", "torch.sign(x)"),
    _fn("mx.np.floor", "torch.floor(x)", "np.floor(x * 3)", "torch.floor(x * 3)"),
    _fn("mx.np.ceil", "torch.ceil(x)", "np.ceil(x * 3)", "torch.ceil(x * 3)"),
    _fn("mx.np.round", "torch.round(x, decimals=decimals)", "(np.round(x * 3), np.round(x, 1))",
        "(torch.round(x * 3), torch.round(x, decimals=1))", grad="", status=ARGS,
        args="decimals → decimals (keyword only in torch)"),
    _fn("mx.np.power", "torch.pow(x1, x2)", "(np.power(x, y), np.power(x, 2))",
        "(torch.pow(x, y), torch.pow(x, 2))", inputs="x=P(2, 3); y=U(2, 3)", grad="x, y",
        status=RENAMED, args="x1, x2 → input, exponent"),
    _fn("mx.np.equal", "torch.eq(x1, x2)", "np.equal(x, np.round(x))", "torch.eq(x, torch.round(x))",
        inputs="x=A([[0.0, 1.5], [2.0, -1.0]])", grad="", kind="exact", status=RENAMED),
    _fn("mx.np.allclose", "torch.allclose(a, b, rtol=rtol, atol=atol)", "np.allclose(x, x + 1e-9)",
        "torch.allclose(x, x + 1e-9)", grad="", kind="exact",
        gotchas=["mx.np.allclose returns a 0-d bool ndarray (bool(...) to branch); torch.allclose a Python bool"]),
    _fn("mx.np.broadcast_to", "torch.broadcast_to(array, shape)", "np.broadcast_to(x, (4, 2, 3))",
        "torch.broadcast_to(x, (4, 2, 3))", args="array → input"),
    # ------------------------------------------------------------------ random
    _fn("mx.np.random.uniform", "torch.empty(size).uniform_(low, high)", "np.random.uniform(-1, 2, size=(20000,))",
        "torch.empty(20000, dtype=torch.float32).uniform_(-1, 2)", inputs="", kind="random",
        status=COMPOSITE, args="low, high → from_, to; size → the tensor's shape",
        defaults="float32 (NumPy float64)", dtypes=("float32",)),
    _fn("mx.np.random.normal", "torch.normal(loc, scale, size)", "np.random.normal(1.0, 2.0, size=(20000,))",
        "torch.normal(1.0, 2.0, (20000,))", inputs="", kind="random", status=ARGS,
        args="loc, scale → mean, std; size → size (required when mean and std are numbers)",
        defaults="float32", dtypes=("float32",)),
    _fn("mx.np.random.randint", "torch.randint(low, high, size)", "np.random.randint(0, 5, size=(20000,))",
        "torch.randint(0, 5, (20000,))", inputs="", kind="random", status=ARGS,
        args="low, high, size → low, high, size (size required in torch)",
        defaults="int64 on both", dtypes=("float32",)),
    _fn("mx.np.random.rand", "torch.rand(*size)", "np.random.rand(200, 100)", "torch.rand(200, 100)",
        inputs="", kind="random", dtypes=("float32",)),
    _fn("mx.np.random.randn", "torch.randn(*size)", "np.random.randn(200, 100)", "torch.randn(200, 100)",
        inputs="", kind="random", dtypes=("float32",)),
    _fn("mx.np.random.choice", "torch.multinomial(p, num_samples, replacement=True)",
        "np.random.choice(4, size=(20000,), p=np.array([0.1, 0.2, 0.3, 0.4]))",
        "torch.multinomial(torch.tensor([0.1, 0.2, 0.3, 0.4]), 20000, replacement=True)",
        inputs="", kind="random", status=COMPOSITE, args="a (an int) + p → torch.multinomial(p, n, replacement=replace); "
        "without p: torch.randint(0, a, size)", defaults="replace=True (torch.multinomial: False)",
        dtypes=("float32",)),
    _fn("mx.np.random.shuffle", "x[torch.randperm(len(x))]", "y = np.array(onp.arange(20000.0)); np.random.shuffle(y); y[:1000]",
        "y = torch.arange(20000.0); y = y[torch.randperm(len(y))]; y[:1000]", inputs="", kind="random",
        status=COMPOSITE, args="in place on the first axis → index with torch.randperm",
        gotchas=["np.random.shuffle works in place and returns None"], dtypes=("float32",)),
    # ------------------------------------------------------------------ dtypes
    *[_fn(f"mx.np.{t}", f"torch.{t}", f"str(onp.dtype(np.{t}))", f"str(torch.{t}).replace('torch.', '')",
          inputs="", kind="exact", status=SAME,
          gotchas=[f"mx.np.{t} is numpy.{t} itself (a numpy type, not a torch.dtype)"])
      for t in ("float32", "float64", "int32", "int64")],
    # ------------------------------------------------------------------ ndarray methods
    _fn("mx.np.ndarray.asnumpy", "x.detach().cpu().numpy()", "x.asnumpy()", "x.detach().cpu().numpy()",
        grad="", status=COMPOSITE, gotchas=["asnumpy copies; Tensor.numpy() shares memory with a CPU tensor"]),
    _fn("mx.np.ndarray.item", "x.item()", "x.sum().item()", "x.sum().item()", grad="", kind="exact"),
    _fn("mx.np.ndarray.tolist", "x.tolist()", "x.tolist()", "x.tolist()", grad="", kind="exact"),
    _fn("mx.np.ndarray.astype", "x.to(dtype)", "(x.astype('float32'), x.astype('int64'))",
        "(x.to(torch.float32), x.to(torch.int64))", grad="", kind="exact", status=RENAMED,
        args="dtype (a string or numpy dtype) → a torch.dtype",
        gotchas=["astype copies by default (copy=True); Tensor.to returns self when nothing changes"]),
    _fn("mx.np.ndarray.reshape", "x.reshape(*shape)", "(x.reshape(3, 2), x.reshape((-1,)))",
        "(x.reshape(3, 2), x.reshape((-1,)))",
        gotchas=["no 0/-2/-3/-4 codes (0 raises); mx.nd.NDArray.reshape reads them"]),
    _fn("mx.np.ndarray.copy", "x.clone()", "x.copy()", "x.clone()", status=RENAMED),
    _fn("mx.np.ndarray.T", "x.permute(*reversed(range(x.ndim)))", "(x.T, y.T)",
        "(x.T, y.permute(*reversed(range(y.ndim))))", inputs="x=U(2, 3); y=U(2, 3, 4)", grad="x, y",
        status=ARGS, args="2-D: x.T; N-D: permute (torch's .T on N-D is deprecated)"),
    _fn("mx.np.ndarray.shape", "x.shape", "x.shape", "tuple(x.shape)", grad="", kind="exact",
        gotchas=["a tuple in mx.np; torch.Size is a tuple subclass"]),
    _fn("mx.np.ndarray.sum", "x.sum(dim=axis, keepdim=keepdims)", "(x.sum().reshape(1), x.sum(axis=1), x.sum(axis=0, keepdims=True))",
        "(x.sum().reshape(1), x.sum(dim=1), x.sum(dim=0, keepdim=True))", status=RENAMED, args="axis → dim; keepdims → keepdim"),
    _fn("mx.np.ndarray.mean", "x.mean(dim=axis)", "(x.mean().reshape(1), x.mean(axis=0))", "(x.mean().reshape(1), x.mean(dim=0))",
        status=RENAMED, args="axis → dim; keepdims → keepdim"),
    _fn("mx.np.ndarray.std", "x.std(dim=axis, correction=0)", "(x.std().reshape(1), x.std(axis=1))",
        "(x.std(correction=0).reshape(1), x.std(dim=1, correction=0))", status=ARGS, args="axis → dim; ddof → correction",
        defaults="ddof=0; Tensor.std corrects by 1", grad="",
        gotchas=["backward gives zeros in MXNet 1.9.1 (measured), as for mx.np.std"]),
    _fn("mx.np.ndarray.cumsum", "x.cumsum(dim=axis)", "x.cumsum(axis=1)", "x.cumsum(dim=1)",
        status=RENAMED, args="axis → dim"),
    _fn("mx.np.ndarray.attach_grad", "x.requires_grad_()", """
        y = np.array(x.asnumpy()); y.attach_grad()
        with autograd.record():
            z = (y * y).sum()
        z.backward(); y.grad""", """
        y = x.detach().clone().requires_grad_()
        z = (y * y).sum(); z.backward(); y.grad""", grad="", status=RENAMED,
        gotchas=["attach_grad zeroes and allocates .grad and records only inside autograd.record(); "
                 "torch records every op on a requires_grad tensor"]),
    _fn("mx.np.ndarray.backward", "z.backward()", """
        y = np.array(x.asnumpy()); y.attach_grad()
        with autograd.record():
            z = (y * y * y).sum()
        z.backward(); y.grad""", """
        y = x.detach().clone().requires_grad_()
        z = (y * y * y).sum(); z.backward(); y.grad""", grad="",
        gotchas=["MXNet overwrites .grad (grad_req='write'); torch accumulates into .grad until zeroed"]),
    _fn("mx.np.ndarray.as_in_ctx", "x.to(device)", "x.as_in_ctx(mx.cpu())", "x.to(torch.device('cpu'))",
        status=RENAMED, args="ctx (mx.cpu()/mx.gpu(i)) → device ('cpu'/'cuda:i')"),
    # ------------------------------------------------------------------ added
    _fn("mx.np.ndarray", "torch.Tensor", "(isinstance(x, np.ndarray), isinstance(x.asnumpy(), np.ndarray))",
        "(isinstance(x, torch.Tensor), isinstance(x.numpy(), torch.Tensor))", grad="", kind="exact",
        status=RENAMED, args="the array type: isinstance(v, mx.np.ndarray) → isinstance(v, torch.Tensor)",
        gotchas=["an mx.nd.NDArray is not an mx.np.ndarray (x.as_np_ndarray() converts); a numpy "
                 "array is neither, in both frameworks"]),
    _fn("mx.np.meshgrid", "torch.meshgrid(*xi, indexing='xy')", "np.meshgrid(x, y)",
        "torch.meshgrid(x, y, indexing='xy')", inputs="x=U(3); y=U(2)", grad="x, y", status=ARGS,
        args="*xi → *tensors; indexing → indexing", defaults="indexing='xy' (torch.meshgrid: 'ij')",
        gotchas=["torch.meshgrid's default indexing='ij' swaps the first two output axes: "
                 "(2, 3) for x of 3 and y of 2 becomes (3, 2)"]),
    _fn("mx.np.linalg.svd", "torch.linalg.svd(a, full_matrices=False)", """
        u, s, v = np.linalg.svd(x)
        (s, np.matmul(u * s, v))""", """
        u, s, vh = torch.linalg.svd(x, full_matrices=False)
        (s, torch.matmul(u * s, vh))""", inputs="x=U(2, 3)", grad="x", status=ARGS,
        args="returns (u, s, vh) of the reduced SVD on both sides; torch needs full_matrices=False",
        gotchas=["mx.np.linalg.svd needs rows ≤ columns (a (3, 2) input raises); transpose first",
                 "singular vectors are defined up to sign: compare u * s @ vh, not u"],
        rtol=1e-9, note="SVD by different LAPACK paths: float64 within 1e-9"),
    _fn("mx.np.random.gumbel", "torch.distributions.Gumbel(loc, scale).sample(size)",
        "np.random.gumbel(0.5, 2.0, size=(20000,))",
        "torch.distributions.Gumbel(torch.tensor(0.5), torch.tensor(2.0)).sample((20000,))",
        inputs="", kind="random", status=COMPOSITE, args="loc, scale → loc, scale; size → sample_shape",
        dtypes=("float32",)),
]
