"""MXNet's NumPy-extension namespace `mx.npx`: switching the interface on and off
(set_np, reset_np), waitall, seeds and devices, and the npx operators that are not the same
registered operator as an `mx.nd` one (relu, sigmoid, reshape with its own codes) or that scripts
call through npx (sequence_mask, pick, arange_like, one_hot, topk, gamma). The mx side of every
check runs inside the NumPy interface (`np=True`)."""
import textwrap

from ..model import ARGS, COMPOSITE, RECIPE, RENAMED, SAME, check, entry

#: npx.reshape's codes (-2 … -6, not nd.reshape's 0/-2/-3/-4), read by a torch function
NPX_RESHAPE_RECIPE = '''
def npx_reshape(a, newshape, reverse=False):
    """torch.reshape reading npx.reshape's codes: -1 infers one dimension, -2 copies one
    input dimension, -3 drops an input dimension of size 1, -4 copies all remaining ones,
    -5 merges two, -6 splits one in two (the next two values, one may be -1); reverse=True
    matches the codes from the right."""
    dims, codes = list(a.shape), list(newshape)
    if reverse:
        dims, codes = dims[::-1], codes[::-1]
    out, src, k = [], 0, 0
    while k < len(codes):
        c = codes[k]
        if c == -2:
            out.append(dims[src])
            src += 1
        elif c == -3:
            src += 1
        elif c == -4:
            out.extend(dims[src:])
            src = len(dims)
        elif c == -5:
            out.append(dims[src] * dims[src + 1])
            src += 2
        elif c == -6:
            p, q = codes[k + 1], codes[k + 2]
            out += [dims[src] // q if p == -1 else p, dims[src] // p if q == -1 else q]
            src += 1
            k += 2
        else:  # a size, or -1
            out.append(c)
            src += 1
        k += 1
    return a.reshape(out[::-1] if reverse else out)
'''

SEQUENCE_MASK_RECIPE = '''
def sequence_mask(data, length, value=0.0, axis=0):
    """npx.sequence_mask(data, length, use_sequence_length=True, value, axis): positions at
    or past each sequence's length along `axis` (0: (T, B, ...), 1: (B, T, ...)) set to value."""
    steps = torch.arange(data.shape[axis], device=data.device)
    mask = steps[:, None] < length[None, :] if axis == 0 else steps[None, :] < length[:, None]
    mask = mask.reshape(tuple(mask.shape) + (1,) * (data.dim() - 2))
    return torch.where(mask, data, torch.as_tensor(value, dtype=data.dtype))
'''


def _with(recipe, code):
    return recipe.strip() + "\n" + textwrap.dedent(code).strip()


def _c(mx, torch, **kw):
    return check(mx, torch, np=True, **kw)


ENTRIES = [
    entry("mx.npx.set_np", torch="no call: torch tensors already follow NumPy's rules",
          status=RECIPE,
          recipe="""
              # delete npx.set_np(): torch has one array type, with NumPy-style shapes
              # (0-d and zero-size tensors) and NumPy-style broadcasting already""",
          gotchas=["after set_np, Gluon blocks take and return mx.np.ndarray and nd.* ops "
                   "refuse them (use x.as_nd_ndarray() to cross); torch has no such switch",
                   "set_np turns on NumPy shape semantics: () is a scalar and 0 a real size, "
                   "as in torch"],
          check=_c("""
              npx.reset_np(); before = (mx.util.is_np_shape(), mx.util.is_np_array())
              npx.set_np(); (before, mx.util.is_np_shape(), mx.util.is_np_array())""", """
              ((False, False), True, True)  # nothing to switch in torch""",
                   kind="exact", dtypes=("float64",))),
    entry("mx.npx.reset_np", torch="no call: nothing to switch back",
          status=RECIPE, recipe="# delete npx.reset_np(): torch has no legacy array mode",
          check=_c("""
              npx.reset_np(); r = (mx.util.is_np_shape(), mx.util.is_np_array()); npx.set_np(); r""", """
              (False, False)  # nothing to switch in torch""", kind="exact", dtypes=("float64",))),
    entry("mx.npx.waitall", torch="torch.cuda.synchronize()", status=RENAMED,
          args="no arguments (torch.cuda.synchronize(device) waits on one device)",
          gotchas=["MXNet runs every op asynchronously, on CPU too: time or read errors after "
                   "waitall(); torch runs CPU ops eagerly, so only CUDA work needs synchronize()"],
          check=_c("""
              y = np.exp(x) * 2
              npx.waitall()
              y""", """
              y = torch.exp(x) * 2
              torch.cuda.synchronize() if torch.cuda.is_available() else None
              y""", inputs="x=U(2, 3)", grad="x")),
    entry("mx.npx.relu", torch="torch.relu(data)", status=SAME, args="data → input",
          check=_c("npx.relu(x)", "torch.relu(x)", inputs="x=U(2, 3)", grad="x")),
    entry("mx.npx.sigmoid", torch="torch.sigmoid(data)", status=SAME, args="data → input",
          check=_c("npx.sigmoid(x)", "torch.sigmoid(x)", inputs="x=U(2, 3)", grad="x")),
    entry("mx.npx.reshape", torch="npx_reshape(a, newshape)  # torch.reshape reading the codes",
          status=COMPOSITE, recipe=NPX_RESHAPE_RECIPE,
          args="a → input; newshape: -2 copy, -3 drop a size-1 dim, -4 copy the rest, -5 merge "
               "two, -6 split one (torch.reshape takes plain sizes and -1)",
          gotchas=["the codes are NOT nd.reshape's: nd's 0 (copy) is npx's -2, nd's -2 (copy "
                   "the rest) is npx's -4, nd's -3 (merge) is npx's -5, nd's -4 (split) is "
                   "npx's -6; npx's -3 drops a size-1 dimension",
                   "a 0 in newshape is a size of 0, not a copy"],
          check=_c("""
              (npx.reshape(x, (-2, -1)), npx.reshape(x, (-5, -4)), npx.reshape(x, (-2, -6, 3, 1, -2)),
               npx.reshape(y, (-2, -3, -2)), npx.reshape(x, (-4, -5), reverse=True))""",
                   _with(NPX_RESHAPE_RECIPE, """
              (npx_reshape(x, (-2, -1)), npx_reshape(x, (-5, -4)), npx_reshape(x, (-2, -6, 3, 1, -2)),
               npx_reshape(y, (-2, -3, -2)), npx_reshape(x, (-4, -5), reverse=True))"""),
                   inputs="x=U(2, 3, 4); y=U(2, 1, 3)", grad="x, y")),
    entry("mx.npx.random.seed", torch="torch.manual_seed(seed)", status=RENAMED,
          args="seed → seed; ctx ('all' or one device) → none: torch.manual_seed seeds every device",
          gotchas=["the same seed gives different numbers in the two frameworks: only "
                   "reproducibility within one framework carries over"],
          check=_c("""
              npx.random.seed(3); a = np.random.uniform(size=(5,)).asnumpy()
              npx.random.seed(3); b = np.random.uniform(size=(5,)).asnumpy()
              bool((a == b).all())""", """
              torch.manual_seed(3); a = torch.rand(5)
              torch.manual_seed(3); b = torch.rand(5)
              bool((a == b).all())""", kind="exact", dtypes=("float64",))),
    entry("mx.npx.cpu", torch="torch.device('cpu')", status=RENAMED,
          args="device_id (ignored for CPU) → none",
          check=_c("npx.cpu().device_type", "torch.device('cpu').type", kind="exact",
                   dtypes=("float64",))),
    entry("mx.npx.gpu", torch="torch.device('cuda', device_id)", status=RENAMED,
          args="device_id → index; MXNet's 'gpu' is torch's 'cuda'",
          check=_c("(npx.gpu(1).device_type, npx.gpu(1).device_id)",
                   "d = torch.device('cuda', 1)\n(d.type.replace('cuda', 'gpu'), d.index)",
                   kind="exact", dtypes=("float64",))),
    entry("mx.npx.num_gpus", torch="torch.cuda.device_count()", status=RENAMED,
          check=_c("npx.num_gpus()", "torch.cuda.device_count()", kind="exact",
                   dtypes=("float64",))),
    entry("mx.npx.sequence_mask", torch="data  # no masking without use_sequence_length=True",
          status=RECIPE, recipe="# without use_sequence_length=True the op returns data unchanged",
          gotchas=["passing sequence_length without use_sequence_length=True raises in MXNet "
                   "1.9.1 (measured: 'SequenceMask expects 1 inputs, but got 2')"],
          check=_c("npx.sequence_mask(x)", "x", inputs="x=U(4, 3)", grad="x")),
    entry("mx.npx.sequence_mask", form="use_sequence_length=True",
          when=["use_sequence_length=True"],
          signature=("data", "sequence_length", "use_sequence_length", "value", "axis"),
          torch="torch.where(mask, data, torch.as_tensor(value, dtype=data.dtype))  "
                "# mask: steps < sequence_length, see the recipe",
          status=COMPOSITE, recipe=SEQUENCE_MASK_RECIPE,
          args="data (T, B, ...) for axis=0, (B, T, ...) for axis=1; sequence_length (B,); value → "
               "the fill", defaults="axis=0 (time first); value=0",
          gotchas=["axis is the time axis and must be 0 or 1; the batch axis is the other one",
                   "the gradient to masked positions is 0 on both sides"],
          check=_c("""
              (npx.sequence_mask(x, n, use_sequence_length=True),
               npx.sequence_mask(y, m, use_sequence_length=True, value=-1.0, axis=1))""",
                   _with(SEQUENCE_MASK_RECIPE, """
              (sequence_mask(x, n), sequence_mask(y, m, value=-1.0, axis=1))"""),
                   inputs="x=U(4, 3, 2); n=IA([1, 4, 2]); y=U(3, 4); m=IA([2, 0, 4])",
                   grad="x, y")),
    entry("mx.npx.pick", torch="torch.gather(data, axis, index.unsqueeze(axis)).squeeze(axis)",
          status=COMPOSITE,
          args="data → input; index → index (int64, one fewer dim; unsqueeze it); axis → dim",
          defaults="axis=-1; mode='clip'; keepdims=False (keepdims=True: drop the squeeze)",
          gotchas=["mode='clip' (default) clamps out-of-range indices: [0, 5, -1] on 4 columns "
                   "picks columns 0, 3, 0 (measured); torch.gather raises: clamp the index first",
                   "mode='wrap' wraps them: index % data.shape[axis]"],
          check=_c("(npx.pick(x, i), npx.pick(x, j, axis=0))", """
              (torch.gather(x, -1, i.unsqueeze(-1)).squeeze(-1),
               torch.gather(x, 0, j.unsqueeze(0)).squeeze(0))""",
                   inputs="x=U(3, 4); i=I(0, 4, (3,)); j=I(0, 3, (4,))", grad="x")),
    entry("mx.npx.arange_like",
          torch="start + step * torch.arange(data.numel(), dtype=data.dtype).reshape(data.shape)",
          status=COMPOSITE, args="data → the shape and dtype; start, step → the affine map",
          defaults="start=0, step=1; the output has data's shape and dtype",
          gotchas=["repeat=r repeats each value r times: torch.arange(n // r).repeat_interleave(r)"],
          check=_c("(npx.arange_like(x), npx.arange_like(x, start=1, step=2))", """
              (torch.arange(x.numel(), dtype=x.dtype).reshape(x.shape),
               1 + 2 * torch.arange(x.numel(), dtype=x.dtype).reshape(x.shape))""",
                   inputs="x=U(2, 3)", grad="")),
    entry("mx.npx.arange_like", form="along an axis", when=["axis"],
          signature=("data", "start", "step", "repeat", "ctx", "axis"),
          torch="start + step * torch.arange(data.shape[axis], dtype=data.dtype)", status=COMPOSITE,
          args="axis → the length data.shape[axis]; a 1-D result",
          check=_c("(npx.arange_like(x, axis=1), npx.arange_like(x, start=1, step=0.5, axis=0))", """
              (torch.arange(x.shape[1], dtype=x.dtype),
               1 + 0.5 * torch.arange(x.shape[0], dtype=x.dtype))""",
                   inputs="x=U(2, 3)", grad="")),
    entry("mx.npx.one_hot", torch="F.one_hot(indices, depth).to(torch.float32)", status=ARGS,
          args="indices → tensor (int64); depth → num_classes; on_value/off_value → "
               "F.one_hot(i, depth) * (on - off) + off",
          defaults="output float32 (F.one_hot: int64); dtype= picks another",
          gotchas=["out-of-range indices give an all-off row in MXNet; F.one_hot raises"],
          check=_c("(npx.one_hot(i, 4), npx.one_hot(i, 4, on_value=5, off_value=-1, dtype='int64'))", """
              (F.one_hot(i, 4).to(torch.float32), F.one_hot(i, 4) * 6 - 1)""",
                   inputs="i=I(0, 4, (5,))", kind="exact", dtypes=("float64",))),
    entry("mx.npx.topk", torch="torch.topk(data, k, dim=axis).indices.to(torch.float32)",
          status=ARGS, args="data → input; k → k; axis → dim; is_ascend=True → largest=False",
          defaults="k=1, axis=-1, ret_typ='indices': returns the indices only, as float32",
          gotchas=["the default returns indices (float32), not values: torch.topk returns both"],
          check=_c("(npx.topk(x, k=2), npx.topk(x, k=1, axis=0, is_ascend=True))", """
              (torch.topk(x, 2, dim=-1).indices.to(torch.float32),
               torch.topk(x, 1, dim=0, largest=False).indices.to(torch.float32))""",
                   inputs="x=U(3, 5)", kind="exact")),
    entry("mx.npx.topk", form="ret_typ='both'", when=["ret_typ='both'"],
          signature=("data", "axis", "k", "ret_typ"),
          torch="torch.topk(data, k, dim=axis)  # (values, indices.float())", status=ARGS,
          args="returns [values, indices]; indices are float32 in MXNet (int64 in torch)",
          check=_c("npx.topk(x, k=2, axis=-1, ret_typ='both')", """
              v, i = torch.topk(x, 2, dim=-1)
              (v, i.to(torch.float32))""", inputs="x=U(3, 5)", grad="x")),
    entry("mx.npx.topk", form="ret_typ='value'", when=["ret_typ='value'"],
          signature=("data", "axis", "k", "ret_typ"),
          torch="torch.topk(data, k, dim=axis).values", status=ARGS,
          check=_c("npx.topk(x, k=2, ret_typ='value')", "torch.topk(x, 2, dim=-1).values",
                   inputs="x=U(3, 5)", grad="x")),
    entry("mx.npx.gamma", torch="torch.lgamma(data).exp()", status=COMPOSITE,
          args="data → input (positive inputs; for negative ones lgamma drops the sign)",
          gotchas=["torch has no gamma function: exp(lgamma(x)) holds for x > 0",
                   "float32: npx.gamma(3.0) gives 2.0000002 (measured)",
                   "MXNet's gradient (gamma·digamma) is approximate even in float64: off by up "
                   "to 1e-6 from a finite difference at x = 4.5 and 2.5e-5 relative near "
                   "digamma's zero (x ≈ 1.46), where torch's is within 4e-9 (measured)"],
          check=_c("npx.gamma(x)", "torch.lgamma(x).exp()", inputs="x=P(2, 3)", grad="x",
                   rtol=1e-6, atol=1e-7,
                   note="forward agrees to 4e-16; MXNet's float64 gamma gradient uses an "
                        "approximate digamma (measured 2.55e-8 abs on these inputs)")),
]
