"""`mx.nd.NDArray`'s own Python methods and attributes (the ones that are not a registered
operator's fluent method): host copies, devices, dtypes, shapes, the reshape method with its
codes, gradients, indexing."""
from ..model import ARGS, COMPOSITE, RENAMED, SAME, check, entry

_MAP = "02_tensor_ops §8. The whole map, run"
_HOST = "02_tensor_ops §4. Copies to the host: `numpy()`, `asnumpy()`, `item()`"
_SHAPES = "02_tensor_ops §2. Shapes: a tuple, `size` and `numel`, `.T`"
_DT = "02_tensor_ops §3. dtype defaults"
_REC = "05_autograd §1. Recording a computation"
_TWO = "05_autograd §3. What `.grad` holds after two `backward()` calls"
_N = "mx.nd.NDArray."
_F64 = ("float64",)
_SIG = ("shape",)


def _rs(form, when, torch, status, mx_calls, torch_calls, gotchas, **kw):
    return entry(_N + "reshape", form=form, when=when, signature=_SIG, torch=torch,
                 status=status, gotchas=gotchas,
                 check=check(mx_calls, torch_calls, inputs="x=U(2, 3, 4, 5)", grad="x"), **kw)


ENTRIES = [
    entry("mx.nd.NDArray", torch="torch.Tensor", status=RENAMED,
          gotchas=["isinstance(x, mx.nd.NDArray) → isinstance(x, torch.Tensor); MXNet's NumPy "
                   "interface arrays (mx.np.ndarray) are another class"],
          teach=_MAP,
          check=check("(isinstance(x, nd.NDArray), isinstance(x.asnumpy(), nd.NDArray))",
                      "(isinstance(x, torch.Tensor), isinstance(x.numpy(), torch.Tensor))",
                      inputs="x=U(2, 3)", kind="exact")),
    entry(_N + "asnumpy", torch="tensor.detach().cpu().numpy()", status=COMPOSITE,
          gotchas=["asnumpy() always copies and waits for the pending computation (a sync "
                   "point of MXNet's lazy engine); .numpy() of a CPU tensor shares its memory: "
                   "a write to the array changes the tensor",
                   ".numpy() raises on a tensor that requires grad (detach first) and on a "
                   "GPU tensor (.cpu() first)"],
          teach=_HOST,
          check=check("x.asnumpy()", "x.detach().cpu().numpy()", inputs="x=U(2, 3)",
                      grad="x")),
    entry(_N + "asscalar", torch="tensor.item()", status=RENAMED,
          gotchas=["asscalar() raises ValueError unless the array has one element; it returns "
                   "a NumPy scalar of the array's dtype (numpy.float32), item() a Python number",
                   "a 1-d MXNet index x[0] has shape (1,), so x[0].asscalar() is the idiom"],
          teach=_HOST,
          check=check("onp.array([x.asscalar(), x[0].asscalar(), v[1].asscalar()])",
                      "onp.array([x.item(), x[0].item(), v[1].item()])",
                      inputs="x=U(1); v=U(3)", dtypes=_F64,
                      note="float64 only: asscalar gives a numpy.float32 in float32, item() a "
                           "Python float (float64)")),
    entry(_N + "as_in_context", torch="tensor.to(device)", status=RENAMED,
          args="context (mx.cpu(), mx.gpu(i)) → device (torch.device('cpu'), "
               "torch.device('cuda', i))",
          gotchas=["both return the array itself, not a copy, when it is already there: "
                   "writes show in both names"],
          teach=_MAP,
          check=check("y = x.as_in_context(mx.cpu())\n(y, onp.array([y is x]))",
                      "y = x.to(torch.device('cpu'))\n(y, onp.array([y is x]))", inputs="x=U(2, 3)",
                      grad="x")),
    entry(_N + "copyto", torch="other.copy_(tensor)", status=ARGS,
          args="other an NDArray → other.copy_(tensor); other a Context → "
               "tensor.to(device, copy=True)",
          gotchas=["copyto(ctx) always copies, even to the array's own device "
                   "(as_in_context does not)",
                   "copy_ needs broadcastable shapes, copyto equal ones"],
          check=check("z = nd.zeros((2, 3), dtype=dtype)\nx.copyto(z)\n"
                      "w = x.copyto(mx.cpu())\n(z, w, onp.array([w is x]))",
                      "z = torch.zeros((2, 3), dtype=dtype)\nz.copy_(x)\n"
                      "w = x.to(torch.device('cpu'), copy=True)\n(z, w, onp.array([w is x]))",
                      inputs="x=U(2, 3)")),
    entry(_N + "copy", torch="tensor.clone()", status=RENAMED,
          gotchas=["both are recorded: the gradient flows through the copy"],
          check=check("x.copy() * 2", "x.clone() * 2", inputs="x=U(2, 3)", grad="x")),
    entry(_N + "astype", torch="tensor.to(dtype, copy=copy)", status=ARGS,
          args="dtype (a string or NumPy type) → a torch.dtype; copy → copy",
          defaults="copy=True: astype returns a new array even for its own dtype; "
                   "tensor.to(dtype) returns the tensor itself then (copy=False)",
          gotchas=["float → int truncates toward zero in both"],
          teach=_DT,
          check=check("(x.astype('float32'), (x * 3).astype('int32'), onp.array([x.astype(dtype) is x,\n"
                      " x.astype(dtype, copy=False) is x]))",
                      "(x.to(torch.float32, copy=True), (x * 3).to(torch.int32, copy=True),\n"
                      " onp.array([x.to(dtype, copy=True) is x, x.to(dtype, copy=False) is x]))",
                      inputs="x=U(2, 3)")),
    entry(_N + "shape", torch="tensor.shape", status=SAME,
          gotchas=["a tuple in MXNet, a torch.Size (a tuple subclass) in PyTorch"],
          teach=_SHAPES,
          check=check("x.shape", "tuple(x.shape)", inputs="x=U(2, 3, 4)", kind="exact")),
    entry(_N + "size", torch="tensor.numel()", status=RENAMED,
          gotchas=["tensor.size() is the shape in PyTorch; the element count is numel()"],
          teach=_SHAPES,
          check=check("x.size", "x.numel()", inputs="x=U(2, 3, 4)", kind="exact")),
    entry(_N + "ndim", torch="tensor.ndim", status=SAME, teach=_SHAPES,
          check=check("x.ndim", "x.ndim", inputs="x=U(2, 3, 4)", kind="exact")),
    entry(_N + "dtype", torch="tensor.dtype", status=ARGS,
          args="a NumPy type (numpy.float32) → a torch.dtype (torch.float32)",
          gotchas=["compare with numpy types in MXNet (x.dtype == np.float32), torch dtypes in "
                   "PyTorch; nd.array defaults to float32 even from float64 NumPy data"],
          teach=_DT,
          check=check("onp.dtype(x.dtype).name", "str(x.dtype).replace('torch.', '')",
                      inputs="x=U(2, 3)", kind="exact")),
    entry(_N + "ctx", torch="tensor.device", status=RENAMED,
          args="the same attribute as x.context: a Context → a torch.device",
          check=check("x.ctx.device_type", "x.device.type", inputs="x=U(2, 3)", kind="exact")),
    entry(_N + "context", torch="tensor.device", status=RENAMED,
          args="Context (cpu(0), gpu(1)) → torch.device ('cpu', 'cuda:1'): device_type → "
               "type ('gpu' → 'cuda'), device_id → index",
          gotchas=["MXNet's CPU context has device_id 0; torch.device('cpu').index is None"],
          check=check("(x.context.device_type, x.ctx.device_type)",
                      "(x.device.type, x.device.type)", inputs="x=U(2, 3)", kind="exact")),
    entry(_N + "T", torch="tensor.permute(*reversed(range(tensor.ndim)))", status=COMPOSITE,
          gotchas=["x.T reverses every axis at any rank; PyTorch's .T warns for ndim != 2 "
                   "(use permute, or .mT for the last two axes); on 2-d both are the transpose",
                   "a 1-d MXNet x.T is x itself"],
          teach=_SHAPES,
          check=check("(x.T, m.T)", "(x.permute(*reversed(range(x.ndim))), m.T)",
                      inputs="x=U(2, 3, 4); m=U(2, 3)", grad="x, m")),
    entry(_N + "attach_grad", torch="tensor.requires_grad_()", status=ARGS,
          args="grad_req='write' (the default) → requires_grad_() and x.grad = None before "
               "each backward; grad_req='add' → requires_grad_() (PyTorch accumulates)",
          defaults="MXNet overwrites .grad at every backward (grad_req='write'); PyTorch adds "
                   "to it",
          gotchas=["after attach_grad() x.grad is zeros; after requires_grad_() it is None "
                   "until a backward",
                   "two backward passes: MXNet's x.grad holds the second's gradient, "
                   "PyTorch's the sum"],
          teach=_TWO,
          check=check("""
              def run():
                  x.attach_grad()
                  out = [x.grad.copy()]
                  for k in (1, 2):
                      with autograd.record():
                          y = (k * x * x).sum()
                      y.backward()
                      out.append(x.grad.copy())
                  return out
              run()""", """
              def run():
                  x.requires_grad_()
                  out = [torch.zeros_like(x)]
                  for k in (1, 2):
                      x.grad = None
                      y = (k * x * x).sum()
                      y.backward()
                      out.append(x.grad.clone())
                  return out
              run()""", inputs="x=U(2, 3)")),
    entry(_N + "attach_grad", form="grad_req='add'", when=["grad_req='add'"],
          signature=("grad_req", "stype"), torch="tensor.requires_grad_()", status=RENAMED,
          gotchas=["grad_req='add' accumulates as PyTorch does; clear it yourself "
                   "(x.grad[:] = 0 / x.grad = None)"],
          teach=_TWO,
          check=check("""
              def run():
                  x.attach_grad(grad_req='add')
                  out = []
                  for k in (1, 2):
                      with autograd.record():
                          y = (k * x * x).sum()
                      y.backward()
                      out.append(x.grad.copy())
                  return out
              run()""", """
              def run():
                  x.requires_grad_()
                  out = []
                  for k in (1, 2):
                      y = (k * x * x).sum()
                      y.backward()
                      out.append(x.grad.clone())
                  return out
              run()""", inputs="x=U(2, 3)")),
    entry(_N + "grad", torch="tensor.grad", status=SAME,
          gotchas=["zeros after attach_grad() in MXNet, None in PyTorch until a backward"],
          teach=_TWO,
          check=check("""
              def run():
                  x.attach_grad()
                  with autograd.record():
                      y = nd.sin(x).sum()
                  y.backward()
                  return x.grad
              run()""", """
              def run():
                  x.requires_grad_()
                  y = torch.sin(x).sum()
                  y.backward()
                  return x.grad
              run()""", inputs="x=U(2, 3)")),
    entry(_N + "backward", torch="tensor.backward(gradient=out_grad, retain_graph=retain_graph)",
          status=ARGS,
          args="out_grad → gradient (needed for a non-scalar output in PyTorch); "
               "retain_graph → retain_graph; train_mode → (none: a module flag)",
          defaults="out_grad None on a non-scalar: MXNet uses ones, PyTorch raises",
          gotchas=["MXNet frees the graph after backward unless retain_graph=True, as "
                   "PyTorch does"],
          teach=_REC,
          check=check("""
              def run():
                  x.attach_grad()
                  with autograd.record():
                      y = x * x
                  y.backward(g)
                  a = x.grad.copy()
                  with autograd.record():
                      y = x * x
                  y.backward()
                  return a, x.grad
              run()""", """
              def run():
                  x.requires_grad_()
                  y = x * x
                  y.backward(gradient=g)
                  a = x.grad.clone()
                  x.grad = None
                  y = x * x
                  y.backward(gradient=torch.ones_like(y))
                  return a, x.grad
              run()""", inputs="x=U(2, 3); g=U(2, 3)")),
    entry(_N + "detach", torch="tensor.detach()", status=SAME,
          gotchas=["both share memory with the original and stop the gradient"],
          teach="deep_dives/autograd_bptt_graphs §3. The loop, with and without `detach()`",
          check=check("x * x.detach()", "x * x.detach()", inputs="x=U(2, 3)", grad="x")),
    entry(_N + "wait_to_read",
          torch="torch.cuda.synchronize() if tensor.is_cuda else None", status=COMPOSITE,
          gotchas=["MXNet's engine runs operators asynchronously: wait_to_read() (or "
                   "asnumpy(), mx.nd.waitall()) waits for them; PyTorch's CPU operators are "
                   "synchronous and CUDA kernels wait at .item()/.cpu() or "
                   "torch.cuda.synchronize() (what timings need)"],
          teach="05_autograd §6. Lazy evaluation",
          check=check("y = x * 2\ny.wait_to_read()\ny",
                      "y = x * 2\ntorch.cuda.synchronize() if y.is_cuda else None\ny",
                      inputs="x=U(2, 3)", grad="x")),
    entry(_N + "tostype", torch="tensor.to_sparse_csr()", status=ARGS,
          args="stype='csr' → to_sparse_csr(); 'row_sparse' → to_sparse() (COO: no "
               "row-sparse layout in PyTorch); 'default' → to_dense()",
          gotchas=["a CSR matrix's parts: data/indices/indptr in MXNet, values()/"
                   "col_indices()/crow_indices() in PyTorch"],
          check=check("c = (x * (x > 0)).tostype('csr')\n"
                      "(c.data, c.indices, c.indptr, c.tostype('default'), c.stype)",
                      "c = (x * (x > 0)).to_sparse_csr()\n"
                      "(c.values(), c.col_indices(), c.crow_indices(), c.to_dense(), 'csr')",
                      inputs="x=U(3, 4)")),
    entry(_N + "stype", torch="tensor.layout", status=ARGS,
          args="'default' → torch.strided; 'csr' → torch.sparse_csr; 'row_sparse' → "
               "(none: torch.sparse_coo is the nearest)",
          check=check("(x.stype, x.tostype('csr').stype)",
                      "names = {torch.strided: 'default', torch.sparse_csr: 'csr'}\n"
                      "(names[x.layout], names[x.to_sparse_csr().layout])",
                      inputs="x=U(3, 4)", kind="exact")),
    entry(_N + "broadcast_like", torch="tensor.expand_as(other)", status=RENAMED,
          check=check("x.broadcast_like(y)", "x.expand_as(y)", inputs="x=U(1, 3, 1); "
                      "y=U(2, 3, 4)", grad="x")),
    entry(_N + "__getitem__", torch="tensor[key]", status=ARGS,
          args="slices and integers → the same; an integer NDArray → an integer tensor "
               "(along the first axis)",
          gotchas=["an integer index of a 1-d NDArray gives shape (1,) (legacy NDArrays have "
                   "no 0-d shape); PyTorch gives a 0-d tensor",
                   "x[i] on 2-d or more drops the axis in both"],
          teach=_MAP,
          check=check("(x[1:3], x[:, 1], x[1], x[i], x[1:, ::2], v[0])",
                      "(x[1:3], x[:, 1], x[1], x[i], x[1:, ::2], v[0].reshape(1))",
                      inputs="x=U(4, 3); v=U(3); i=IA([2, 0, 2])", grad="x, v")),
    entry(_N + "__setitem__", torch="tensor[key] = value", status=SAME,
          gotchas=["x[:] = 0 writes in place in both; a recorded array written in place "
                   "breaks MXNet's autograd as it does PyTorch's"],
          check=check("y = x.copy()\ny[1:3] = 0\ny[:, 0] = v\ny[0] = 5\ny",
                      "y = x.clone()\ny[1:3] = 0\ny[:, 0] = v\ny[0] = 5\ny",
                      inputs="x=U(4, 3); v=U(4)")),
    # ---------------------------------------------------------------- reshape method
    _rs("", [], "tensor.reshape(*shape)", SAME,
        "(x.reshape((6, 20)), x.reshape(4, -1, 5), x.reshape(shape=(120,)))",
        "(x.reshape((6, 20)), x.reshape(4, -1, 5), x.reshape((120,)))",
        ["the shape as a tuple or as separate numbers in both; MXNet also takes shape=...",
         "0, -2, -3, -4 are codes in MXNet (see the forms): torch.reshape takes 0 as a size"],
        teach=_MAP),
    _rs("0 copies a dimension", ["shape=(0, -1)"],
        "tensor.reshape([tensor.shape[i] if s == 0 else s for i, s in enumerate(shape)])",
        ARGS, "(x.reshape((0, -1)), x.reshape(0, 0, -1))",
        "def zero(d, shape):\n    return d.reshape([d.shape[i] if s == 0 else s "
        "for i, s in enumerate(shape)])\n(zero(x, (0, -1)), zero(x, (0, 0, -1)))",
        ["a 0 at position i copies the input's dimension i, as in mx.nd.reshape [0 copies a "
         "dimension]; x.reshape(0, -1) on (2, 3, 4, 5) is (2, 60)"],
        args="shape → shape, each 0 replaced by the input's size at that position"),
    _rs("-3 merges two dimensions", ["shape=(0, -3, 0)"], "tensor.flatten(1, 2)", COMPOSITE,
        "(x.reshape((0, -3, 0)), x.reshape(-3, -1))",
        "(x.flatten(1, 2), x.flatten(0, 1).reshape(6, -1))",
        ["-3 merges the next two input dimensions, as in mx.nd.reshape [-3 merges two "
         "dimensions]; its entry's recipe reads every code"],
        args="(0, -3, 0) → flatten(1, 2); (-3, -1) → flatten(0, 1)"),
    _rs("-2 copies the remaining dimensions", ["shape=(-2, 1, 1)"],
        "tensor.reshape(*tensor.shape, 1, 1)", COMPOSITE,
        "(x.reshape((-2, 1, 1)), x.reshape(0, -2))", "(x.reshape(*x.shape, 1, 1), x.reshape(x.shape))",
        ["-2 copies every input dimension not consumed yet, as in mx.nd.reshape [-2 copies the "
         "remaining dimensions]: (-2, 1, 1) appends two unit axes"],
        args="(-2, 1, 1) → (*tensor.shape, 1, 1)"),
    _rs("-4 splits a dimension", ["shape=(0, -4, 1, -1, -2)"],
        "tensor.unflatten(1, (1, -1))", COMPOSITE,
        "(x.reshape((0, -4, 1, -1, -2)), x.reshape(0, -4, 3, -1, 0, 0))",
        "(x.unflatten(1, (1, -1)), x.unflatten(1, (3, -1)))",
        ["-4 splits the next input dimension in two (the two values after it, one may be "
         "-1), as in mx.nd.reshape [-4 splits a dimension]: (0, -4, 1, -1, -2) on "
         "(2, 3, 4, 5) is (2, 1, 3, 4, 5)"],
        args="(0, -4, a, b, -2) → unflatten(1, (a, b))"),
    _rs("reverse=True", ["reverse=True"],
        "tensor.reshape([tensor.shape[i - len(shape)] if s == 0 else s "
        "for i, s in enumerate(shape)])", ARGS,
        "x.reshape((-1, 0, 0), reverse=True)",
        "def rev(d, shape):\n    return d.reshape([d.shape[i - len(shape)] if s == 0 else s "
        "for i, s in enumerate(shape)])\nrev(x, (-1, 0, 0))",
        ["reverse=True matches the codes from the right: (-1, 0, 0) on (2, 3, 4, 5) is "
         "(6, 4, 5)"],
        args="shape → shape, each 0 replaced by the input's size counted from the right"),
]
