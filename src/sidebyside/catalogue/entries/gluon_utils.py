"""`mx.gluon.utils`: splitting a batch over devices, clipping by the global norm, downloads
and their SHA-1 check."""
from ..model import ARGS, COMPOSITE, RECIPE, check, entry

_SPLIT = "09_distributed §1. Several devices in one process: `split_and_load`"
_U = "mx.gluon.utils."

CLIP_RECIPE = '''
def clip_global_norm(arrays, max_norm):
    """MXNet's clip_global_norm on tensors (in place); returns the norm before clipping."""
    total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(a) for a in arrays]))
    scale = max_norm / (total + 1e-8)
    if scale < 1:
        for a in arrays:
            a.mul_(scale)
    return total.item()
'''

SHA1_RECIPE = '''
import hashlib

def check_sha1(filename, sha1_hash):
    sha1 = hashlib.sha1()
    with open(filename, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            sha1.update(chunk)
    return sha1.hexdigest() == sha1_hash
'''

ENTRIES = [
    entry(_U + "split_and_load",
          torch="[t.to(d) for t, d in zip(torch.tensor_split(data, len(devices), "
                "dim=batch_axis), devices)]",
          status=COMPOSITE,
          args="data → the batch; ctx_list → a list of torch.device; batch_axis → dim",
          gotchas=["even_split=True (the default) raises ValueError unless the batch divides "
                   "evenly; tensor_split never raises",
                   "in PyTorch DistributedDataParallel (one process per GPU) replaces the "
                   "split: each process loads its own batch"],
          teach=_SPLIT,
          check=check("gluon.utils.split_and_load(x, [mx.cpu(0), mx.cpu(1)])",
                      "devices = [torch.device('cpu'), torch.device('cpu')]\n"
                      "[t.to(d) for t, d in zip(torch.tensor_split(x, len(devices), dim=0), "
                      "devices)]", inputs="x=U(6, 3)", grad="x")),
    entry(_U + "split_and_load", form="even_split=False", when=["even_split=False"],
          signature=("data", "ctx_list", "batch_axis", "even_split"),
          torch="[t.to(d) for t, d in zip(torch.tensor_split(data, len(devices), "
                "dim=batch_axis), devices)]",
          status=COMPOSITE,
          args="even_split=False → tensor_split's uneven parts (the first ones one longer)",
          gotchas=["10 rows over 3 devices: 4, 3, 3 in both; with fewer rows than devices "
                   "MXNet returns fewer parts, tensor_split empty ones"],
          teach=_SPLIT,
          check=check("gluon.utils.split_and_load(x, [mx.cpu(0), mx.cpu(1), mx.cpu(2)], "
                      "batch_axis=1, even_split=False)",
                      "devices = [torch.device('cpu')] * 3\n"
                      "[t.to(d) for t, d in zip(torch.tensor_split(x, len(devices), dim=1), "
                      "devices)]", inputs="x=U(2, 10)", grad="x")),
    entry(_U + "split_data", torch="torch.tensor_split(data, num_slice, dim=batch_axis)",
          status=ARGS,
          args="num_slice → sections; batch_axis → dim; even_split=True → raises unless "
               "even (check it yourself)",
          gotchas=["even_split=False: 11 rows in 4 slices are 3, 3, 3, 2 in both"],
          teach=_SPLIT,
          check=check("(gluon.utils.split_data(x, 3), gluon.utils.split_data(y, 4, "
                      "even_split=False))",
                      "(torch.tensor_split(x, 3, dim=0), torch.tensor_split(y, 4, dim=0))",
                      inputs="x=U(6, 2); y=U(11, 2)", grad="x, y")),
    entry(_U + "clip_global_norm", torch="torch.nn.utils.clip_grad_norm_(parameters, max_norm)",
          status=ARGS, recipe=CLIP_RECIPE,
          args="arrays (the gradients) → the parameters whose .grad to clip; max_norm → "
               "max_norm; check_isfinite → error_if_nonfinite (MXNet warns, returns nan)",
          defaults="the scale is max_norm / (norm + 1e-8) in MXNet, / (norm + 1e-6) in "
                   "PyTorch",
          gotchas=["the clipped values differ by about 1e-6 / norm relative (1e-6 × the "
                   "scale): the recipe reproduces MXNet's exactly",
                   "MXNet 1.9.1 raises MXNetError on float64 arrays (non-uniform Concat)",
                   "both return the norm before clipping: a Python float in MXNet "
                   "(check_isfinite=True), a tensor in PyTorch"],
          check=check("""
              arrays = [a.copy(), b.copy()]
              norm = gluon.utils.clip_global_norm(arrays, 1.0)
              (arrays, onp.array([norm], dtype=dtype))""", """
              params = [torch.nn.Parameter(torch.zeros_like(a)), torch.nn.Parameter(torch.zeros_like(b))]
              params[0].grad, params[1].grad = a.clone(), b.clone()
              norm = torch.nn.utils.clip_grad_norm_(params, 1.0)
              ([p.grad for p in params], onp.array([norm.item()], dtype=str(dtype)[6:]))""",
              inputs="a=U(3, 4); b=U(5)", dtypes=("float32",),
              note="float32 only: MXNet 1.9.1's clip_global_norm raises on float64 arrays "
                   "(its Concat gets a float32 input); the 1e-6 against 1e-8 in the scale's "
                   "denominator is below float32's rounding here")),
    entry(_U + "download", torch="torch.hub.download_url_to_file(url, dst)", status=ARGS,
          args="url → url; path (a file or folder; default: the URL's file name here) → dst "
               "(a file path); sha1_hash → hash_prefix is a SHA-256 prefix (check SHA-1 with "
               "mx.gluon.utils.check_sha1's recipe); overwrite, retries, verify_ssl → (none)",
          gotchas=["download skips an existing file (overwrite=False) and returns its path; "
                   "download_url_to_file always downloads and returns None"],
          check=check("""
              import os
              from sidebyside.catalogue.harness_metric import serve
              url, folder, stop = serve({'a.bin': bytes(range(256)) * 4})
              try:
                  path = gluon.utils.download(url + '/a.bin', path=os.path.join(folder, 'a.bin'))
                  data = open(path, 'rb').read()
              finally:
                  stop()
              onp.frombuffer(data, dtype=onp.uint8)""", """
              import os
              from sidebyside.catalogue.harness_metric import serve
              url, folder, stop = serve({'a.bin': bytes(range(256)) * 4})
              try:
                  dst = os.path.join(folder, 'a.bin')
                  torch.hub.download_url_to_file(url + '/a.bin', dst, progress=False)
                  data = open(dst, 'rb').read()
              finally:
                  stop()
              onp.frombuffer(data, dtype=onp.uint8)""", kind="exact", dtypes=("float64",))),
    entry(_U + "check_sha1", torch="check_sha1(filename, sha1_hash)", status=RECIPE,
          recipe=SHA1_RECIPE,
          args="the same arguments: hashlib.sha1 over the file's bytes",
          gotchas=["PyTorch's download checks a SHA-256 prefix (hash_prefix), not SHA-1"],
          check=check("""
              import hashlib, os, tempfile
              path = os.path.join(tempfile.mkdtemp(), 'f.bin')
              open(path, 'wb').write(b'sidebyside' * 100)
              good = hashlib.sha1(b'sidebyside' * 100).hexdigest()
              onp.array([gluon.utils.check_sha1(path, good), gluon.utils.check_sha1(path, '0' * 40)])""",
              SHA1_RECIPE.strip() + """
import os, tempfile
path = os.path.join(tempfile.mkdtemp(), 'f.bin')
open(path, 'wb').write(b'sidebyside' * 100)
good = hashlib.sha1(b'sidebyside' * 100).hexdigest()
onp.array([check_sha1(path, good), check_sha1(path, '0' * 40)])""",
              kind="exact", dtypes=("float64",))),
    entry(_U + "replace_file", torch="os.replace(src, dst)", status=RECIPE,
          recipe="import os\nos.replace(src, dst)",
          args="src, dst → the same (the standard library's atomic rename)",
          check=check("""
              import os, tempfile
              d = tempfile.mkdtemp()
              src, dst = os.path.join(d, 's'), os.path.join(d, 'd')
              open(src, 'w').write('new'); open(dst, 'w').write('old')
              gluon.utils.replace_file(src, dst)
              (open(dst).read(), os.path.exists(src))""", """
              import os, tempfile
              d = tempfile.mkdtemp()
              src, dst = os.path.join(d, 's'), os.path.join(d, 'd')
              open(src, 'w').write('new'); open(dst, 'w').write('old')
              os.replace(src, dst)
              (open(dst).read(), os.path.exists(src))""", kind="exact", dtypes=("float64",))),
]
