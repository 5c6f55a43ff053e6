"""`mx.nd` array creation and I/O: array, zeros, ones, empty, full, arange, eye, zeros_like,
ones_like, from_numpy, concatenate, waitall, save/load, and mx.sym.zeros."""
from ..model import ARGS, COMPOSITE, RECIPE, RENAMED, SAME, check, entry

_T3 = "02_tensor_ops §3. dtype defaults"
_F32 = ("the default dtype is float32 on both sides here (torch's default dtype); a script "
        "that calls torch.set_default_dtype changes PyTorch's only")

ENTRIES = [
    # ------------------------------------------------------------------------- array
    entry("mx.nd.array",
          torch="torch.tensor(source_array, dtype=torch.float32)",
          status=ARGS,
          args="source_array → data; dtype → dtype; ctx → device",
          defaults="dtype float32 whatever the source (a float64 or int64 numpy array, a list "
                   "of ints) vs torch.tensor's dtype inferred from the data (float64, int64)",
          gotchas=["nd.array(numpy float64) is float32 and nd.array([1, 2]) float32; "
                   "torch.tensor gives float64 and int64: pass dtype=torch.float32",
                   "an NDArray source keeps its dtype (nd.array(x) of a float64 x is float64): "
                   "x.clone().detach() in PyTorch",
                   "torch.from_numpy shares the numpy buffer; nd.array always copies, as "
                   "torch.tensor does"],
          teach=_T3,
          check=check("""
              (nd.array(x.asnumpy()), nd.array([[1, 2], [3, 4]]), nd.array([0.5, 1.5]),
               nd.array(x.asnumpy(), dtype=dtype))""", """
              (torch.tensor(x.numpy(), dtype=torch.float32),
               torch.tensor([[1, 2], [3, 4]], dtype=torch.float32),
               torch.tensor([0.5, 1.5], dtype=torch.float32),
               torch.tensor(x.numpy(), dtype=dtype))""", inputs="x=U(2, 3)")),
    # ------------------------------------------------------------------ zeros / ones
    entry("mx.nd.zeros",
          torch="torch.zeros(shape, dtype=dtype, device=ctx)",
          status=ARGS,
          args="shape → size (a tuple or an int on both sides); dtype → dtype; ctx → device",
          gotchas=[_F32, "stype='row_sparse'/'csr' makes a sparse zero array: "
                   "torch.sparse_coo_tensor / torch.sparse_csr_tensor"],
          teach=_T3,
          check=check("""
              (nd.zeros((2, 3)), nd.zeros(4), nd.zeros((2, 3), dtype=dtype))""", """
              (torch.zeros((2, 3)), torch.zeros(4), torch.zeros((2, 3), dtype=dtype))""")),
    entry("mx.nd.ones",
          torch="torch.ones(shape, dtype=dtype, device=ctx)",
          status=ARGS,
          args="shape → size (a tuple or an int on both sides); dtype → dtype; ctx → device",
          gotchas=[_F32],
          teach=_T3,
          check=check("""
              (nd.ones((2, 3)), nd.ones(4), nd.ones((2, 3), dtype=dtype))""", """
              (torch.ones((2, 3)), torch.ones(4), torch.ones((2, 3), dtype=dtype))""")),
    entry("mx.nd.empty",
          torch="torch.empty(shape, dtype=dtype, device=ctx)",
          status=ARGS,
          args="shape → size; dtype → dtype; ctx → device",
          gotchas=[_F32, "the values are whatever the memory held on both sides: the check "
                   "compares shapes and dtypes only"],
          check=check("""
              e, f = nd.empty((2, 3)), nd.empty(4, dtype=dtype)
              (e.shape, onp.dtype(e.dtype).name, f.shape, onp.dtype(f.dtype).name)""", """
              e, f = torch.empty((2, 3)), torch.empty(4, dtype=dtype)
              (tuple(e.shape), str(e.dtype)[6:], tuple(f.shape), str(f.dtype)[6:])""",
              kind="exact")),
    entry("mx.nd.zeros_like",
          torch="torch.zeros_like(data)",
          status=SAME,
          args="data → input",
          gotchas=["the result keeps the input's dtype on both sides (float64 in, float64 "
                   "out); the gradient through it is zero"],
          check=check("nd.zeros_like(x)", "torch.zeros_like(x)", inputs="x=U(2, 3)",
                      grad="x")),
    entry("mx.nd.ones_like",
          torch="torch.ones_like(data)",
          status=SAME,
          args="data → input",
          gotchas=["the result keeps the input's dtype on both sides; the gradient through "
                   "it is zero"],
          check=check("nd.ones_like(x)", "torch.ones_like(x)", inputs="x=U(2, 3)",
                      grad="x")),
    entry("mx.nd.full",
          torch="torch.full(shape, val, dtype=torch.float32)",
          status=ARGS,
          args="shape → size; val → fill_value; dtype → dtype; ctx → device",
          defaults="dtype float32 vs torch.full's dtype inferred from the value: "
                   "torch.full((2,), 1) is int64, nd.full((2,), 1) float32",
          gotchas=["nd.full((2, 3), 7) is float32; torch.full((2, 3), 7) is int64: pass "
                   "dtype=torch.float32"],
          teach=_T3,
          check=check("""
              (nd.full((2, 3), 7), nd.full(4, 0.5), nd.full((2, 2), -1.5, dtype=dtype))""", """
              (torch.full((2, 3), 7, dtype=torch.float32), torch.full((4,), 0.5, dtype=torch.float32),
               torch.full((2, 2), -1.5, dtype=dtype))""")),
    # ------------------------------------------------------------------------ waitall
    entry("mx.nd.waitall",
          torch="torch.cuda.synchronize()",
          status=RENAMED,
          gotchas=["MXNet's engine runs operators asynchronously, also on the CPU: waitall "
                   "(or asnumpy / wait_to_read) before timing; PyTorch's CPU operators have "
                   "finished when they return, only CUDA work needs torch.cuda.synchronize()",
                   "torch.cuda.synchronize() raises RuntimeError on a machine without an "
                   "NVIDIA driver: guard it with torch.cuda.is_available()"],
          check=check("""
              nd.waitall()""", """
              torch.cuda.synchronize() if torch.cuda.is_available() else None""",
              kind="exact", dtypes=("float64",))),
]
