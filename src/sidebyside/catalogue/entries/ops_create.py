"""`mx.nd` array creation and I/O: array, zeros, ones, empty, full, arange, eye, zeros_like,
ones_like, from_numpy, concatenate, waitall, save/load, linspace, and the mx.sym Python faces
zeros / ones / full / arange."""
from ..model import ARGS, COMPOSITE, RENAMED, SAME, check, entry

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
              (torch.full((2, 3), 7, dtype=torch.float32),
               torch.full((4,), 0.5, dtype=torch.float32),
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
    # ------------------------------------------------------------------------- arange
    entry("mx.nd.arange",
          torch="torch.arange(start, stop, step, dtype=torch.float32)",
          status=ARGS,
          args="start → start; stop → end; step → step; dtype → dtype; ctx → device",
          defaults="dtype float32 vs torch.arange's dtype inferred from the numbers: "
                   "torch.arange(5) is int64, nd.arange(5) float32",
          gotchas=["nd.arange(5) is float32 [0, 1, 2, 3, 4]; torch.arange(5) int64: pass "
                   "dtype=torch.float32",
                   "fractional steps give the same count on both sides (arange(-5, 5, 0.01): "
                   "1000 values); float32 values differ by ≤ 9.5e-7 (6e-8 for arange(0, 1, "
                   "0.1)), float64 by ≤ 8.9e-16",
                   "infer_range=True (stop taken from the graph) only works in symbols; "
                   "nd.arange(0, infer_range=True) raises MXNetError"],
          teach=_T3,
          check=check("""
              (nd.arange(5), nd.arange(2, 11, 3), nd.arange(5, 0, -1.5),
               nd.arange(0, 1, 0.1, dtype=dtype))""", """
              (torch.arange(5, dtype=torch.float32), torch.arange(2, 11, 3, dtype=torch.float32),
               torch.arange(5, 0, -1.5, dtype=torch.float32),
               torch.arange(0, 1, 0.1, dtype=dtype))""")),
    entry("mx.nd.arange", form="repeat", when=["repeat"],
          signature=("start", "stop", "step", "repeat", "infer_range", "ctx", "dtype"),
          torch="torch.arange(start, stop, step, dtype=torch.float32).repeat_interleave(repeat)",
          status=COMPOSITE,
          args="repeat → .repeat_interleave(repeat) (each value repeated in place)",
          gotchas=["nd.arange(0, 5, 2, repeat=2) is [0, 0, 2, 2, 4, 4]: repeat_interleave, "
                   "not .repeat (which gives [0, 2, 4, 0, 2, 4])"],
          check=check("""
              (nd.arange(0, 5, 2, repeat=2), nd.arange(3, repeat=3, dtype=dtype))""", """
              (torch.arange(0, 5, 2, dtype=torch.float32).repeat_interleave(2),
               torch.arange(3, dtype=dtype).repeat_interleave(3))""")),
    # ---------------------------------------------------------------------------- eye
    entry("mx.nd.eye",
          torch="torch.eye(N, M or N, dtype=dtype)",
          status=ARGS,
          args="N → n; M → m (MXNet's M=0 means M=N, torch's m=None); dtype → dtype; "
               "ctx → device",
          gotchas=[_F32, "k (a diagonal above or below the main one) has no torch.eye "
                   "argument: see the form k"],
          check=check("""
              (nd.eye(3), nd.eye(2, 4), nd.eye(3, 2, dtype=dtype))""", """
              (torch.eye(3), torch.eye(2, 4), torch.eye(3, 2, dtype=dtype))""")),
    entry("mx.nd.eye", form="k", when=["k"], signature=("N", "M", "k", "ctx", "dtype"),
          torch="torch.ones(N, M or N).triu(k).tril(k)",
          status=COMPOSITE,
          args="k → the diagonal kept by triu(k).tril(k) (k > 0 above, k < 0 below)",
          gotchas=["torch.eye has no offset: nd.eye(3, 4, k=1) is ones on the first "
                   "superdiagonal, torch.ones(3, 4).triu(1).tril(1)"],
          check=check("""
              (nd.eye(3, 4, 1), nd.eye(3, k=-1), nd.eye(4, 3, k=2, dtype=dtype))""", """
              (torch.ones(3, 4).triu(1).tril(1), torch.ones(3, 3).triu(-1).tril(-1),
               torch.ones(4, 3, dtype=dtype).triu(2).tril(2))""")),
    # --------------------------------------------------------------------- from_numpy
    entry("mx.nd.from_numpy",
          torch="torch.from_numpy(ndarray)",
          status=ARGS,
          args="ndarray → ndarray; zero_copy=False → torch.tensor(ndarray) (a copy)",
          gotchas=["both keep the numpy dtype (float64 stays float64, unlike nd.array)",
                   "with zero_copy=True (the default) MXNet makes the numpy array read-only: "
                   "a[0] = 5 then raises 'assignment destination is read-only'; "
                   "torch.from_numpy shares the buffer and leaves it writeable",
                   "MXNet rejects a non-C-contiguous array ('Only c-contiguous arrays are "
                   "supported for zero-copy'); torch.from_numpy accepts strided arrays"],
          check=check("""
              a = x.asnumpy()
              nd.from_numpy(a)""", """
              a = x.numpy().copy()
              torch.from_numpy(a)""", inputs="x=U(2, 3)")),
    # -------------------------------------------------------------------- concatenate
    entry("mx.nd.concatenate",
          torch="torch.cat(arrays, dim=axis)",
          status=ARGS,
          args="arrays → tensors; axis → dim (default 0 on both sides); always_copy → "
               "nothing (torch.cat always copies)",
          gotchas=["nd.concatenate fills a new array by slice assignment: it raises under "
                   "autograd.record ('Inplace operations ... are not supported when "
                   "recording'); nd.concat (default dim 1) is the differentiable one"],
          check=check("""
              (nd.concatenate([a, b]), nd.concatenate([a, c], axis=1))""", """
              (torch.cat((a, b), dim=0), torch.cat((a, c), dim=1))""",
              inputs="a=U(2, 3); b=U(1, 3); c=U(2, 2)")),
    # --------------------------------------------------------------------- save / load
    entry("mx.nd.save",
          torch="torch.save(data, fname)",
          status=ARGS,
          args="fname, data → torch.save(obj, f): the arguments swap places; data (an "
               "NDArray, a list or a dict of them) → a tensor, list or dict",
          gotchas=["the files differ: torch.load cannot read nd.save's file nor nd.load "
                   "torch.save's; sidebyside.mx2torch.load_params / save_params read and "
                   "write MXNet's format with numpy only",
                   "nd.load of a dict file gives a dict, of a list file a list, the same as "
                   "torch.load of what torch.save wrote"],
          mx2torch="sidebyside.mx2torch.save_params(path, arrays) writes nd.save's format "
                   "from numpy arrays or tensors, without MXNet",
          teach="19_legacy_files_to_pytorch §2. A `.params` file, byte by byte",
          check=check("""
              from sidebyside.catalogue.harness_ops_create import path
              nd.save(path('s.params'), {'a': a, 'b': b})
              nd.save(path('l.params'), [a, b])
              (nd.load(path('s.params')), nd.load(path('l.params')))""", """
              from sidebyside.catalogue.harness_ops_create import path
              torch.save({'a': a, 'b': b}, path('s.pt'))
              torch.save([a, b], path('l.pt'))
              (torch.load(path('s.pt')), torch.load(path('l.pt')))""",
              inputs="a=U(2, 3); b=U(4)")),
    entry("mx.nd.load",
          torch="{k: torch.from_numpy(v) for k, v in "
                "sidebyside.mx2torch.load_params(fname).items()}",
          status=COMPOSITE,
          args="fname → the same file, read without MXNet; a list file gives a list: "
               "[torch.from_numpy(v) for v in load_params(fname)]",
          gotchas=["torch.load cannot read a file nd.save wrote (nor .params files): "
                   "sidebyside.mx2torch.load_params returns numpy arrays with the file's "
                   "names and dtypes (float64 stays float64)",
                   "Module checkpoints name arrays 'arg:fc_weight' / 'aux:bn_moving_mean'; "
                   "load_params keeps the names as they are"],
          mx2torch="sidebyside.mx2torch.load_params(path) reads nd.save / .params files "
                   "into numpy arrays (a dict or a list, as saved), no MXNet needed",
          teach="19_legacy_files_to_pytorch §3. Without MXNet",
          check=check("""
              from sidebyside.catalogue.harness_ops_create import path
              nd.save(path('d.params'), {'a': a, 'b': b})
              nd.save(path('k.params'), [a, b])
              (nd.load(path('d.params')), nd.load(path('k.params')))""", """
              from sidebyside.catalogue.harness_ops_create import path
              from sidebyside.mx2torch import load_params
              ({k: torch.from_numpy(v) for k, v in load_params(path('d.params')).items()},
               [torch.from_numpy(v) for v in load_params(path('k.params'))])""",
              inputs="a=U(2, 3); b=U(4)")),
    # -------------------------------------------------------------------- mx.sym faces
    entry("mx.sym.zeros",
          torch="torch.zeros(shape, dtype=dtype)",
          status=ARGS,
          args="shape → size; dtype → dtype (float32 when not given, on both sides)",
          gotchas=["a Symbol holds no values until bound: in PyTorch the tensor is created "
                   "where the graph would use it (or registered as a buffer)"],
          mx2torch="sidebyside.mx2torch translates a graph's _zeros node into torch.zeros",
          check=check("""
              (sym.zeros((2, 3)).eval(ctx=mx.cpu())[0],
               sym.zeros((4,), dtype=dtype).eval(ctx=mx.cpu())[0])""", """
              (torch.zeros((2, 3)), torch.zeros((4,), dtype=dtype))""")),
    # ------------------------------------------------------------------------ linspace
    entry("mx.nd.linspace",
          torch="torch.linspace(start, stop, num, dtype=torch.float32)",
          status=ARGS,
          args="start → start; stop → end; num → steps; dtype → dtype; ctx → device",
          gotchas=["float32 values of linspace(0, 1, 7) differ from torch's by ≤ 6e-8 "
                   "(one rounding), float64 by ≤ 1.1e-16",
                   "endpoint=False (stop left out) has no torch argument: see that form"],
          check=check("""
              (nd.linspace(0, 1, 5), nd.linspace(-2, 3, 7, dtype=dtype))""", """
              (torch.linspace(0, 1, 5, dtype=torch.float32),
               torch.linspace(-2, 3, 7, dtype=dtype))""")),
    entry("mx.nd.linspace", form="endpoint=False", when=["endpoint=False"],
          signature=("start", "stop", "num", "endpoint", "ctx", "dtype"),
          torch="torch.linspace(start, stop, num + 1, dtype=torch.float32)[:-1]",
          status=COMPOSITE,
          args="endpoint=False → num + 1 points, the last one dropped",
          gotchas=["nd.linspace(0, 1, 5, endpoint=False) is [0, 0.2, 0.4, 0.6, 0.8]: "
                   "torch.linspace(0, 1, 6)[:-1]"],
          check=check("""
              (nd.linspace(0, 1, 5, endpoint=False),
               nd.linspace(-2, 3, 7, endpoint=False, dtype=dtype))""", """
              (torch.linspace(0, 1, 6, dtype=torch.float32)[:-1],
               torch.linspace(-2, 3, 8, dtype=dtype)[:-1])""")),
    # ------------------------------------------------------- more mx.sym Python faces
    entry("mx.sym.ones",
          torch="torch.ones(shape, dtype=dtype)",
          status=ARGS,
          args="shape → size; dtype → dtype (float32 when not given, on both sides)",
          gotchas=["a Symbol holds no values until bound: in PyTorch the tensor is created "
                   "where the graph would use it (or registered as a buffer)"],
          check=check("""
              (sym.ones((2, 3)).eval(ctx=mx.cpu())[0],
               sym.ones((4,), dtype=dtype).eval(ctx=mx.cpu())[0])""", """
              (torch.ones((2, 3)), torch.ones((4,), dtype=dtype))""")),
    entry("mx.sym.full",
          torch="torch.full(shape, val, dtype=torch.float32)",
          status=ARGS,
          args="shape → size; val → fill_value; dtype → dtype",
          defaults="dtype float32 vs torch.full's dtype inferred from the value (int64 "
                   "for an int)",
          gotchas=["sym.full((2, 3), 7) evaluates to float32; torch.full((2, 3), 7) is "
                   "int64"],
          check=check("""
              (sym.full((2, 3), 7).eval(ctx=mx.cpu())[0],
               sym.full((4,), -0.5, dtype=dtype).eval(ctx=mx.cpu())[0])""", """
              (torch.full((2, 3), 7, dtype=torch.float32),
               torch.full((4,), -0.5, dtype=dtype))""")),
    entry("mx.sym.arange",
          torch="torch.arange(start, stop, step, dtype=torch.float32)",
          status=ARGS,
          args="start → start; stop → end; step → step; repeat → .repeat_interleave(repeat); "
               "dtype → dtype",
          defaults="dtype float32 vs torch.arange's int64 for integer arguments",
          gotchas=["infer_range=True takes stop from the shape the graph infers: PyTorch "
                   "computes it from the tensor at run time (torch.arange(x.shape[1]))"],
          check=check("""
              (sym.arange(5).eval(ctx=mx.cpu())[0],
               sym.arange(1, 4, 0.5, dtype=dtype).eval(ctx=mx.cpu())[0],
               sym.arange(0, 5, 2, repeat=2).eval(ctx=mx.cpu())[0])""", """
              (torch.arange(5, dtype=torch.float32), torch.arange(1, 4, 0.5, dtype=dtype),
               torch.arange(0, 5, 2, dtype=torch.float32).repeat_interleave(2))""")),
]
