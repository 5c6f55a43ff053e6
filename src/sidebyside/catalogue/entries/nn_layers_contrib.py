"""mx.gluon.contrib.nn: HybridConcurrent, Concurrent, Identity, PixelShuffle1D/2D/3D,
SparseEmbedding (SyncBatchNorm is with the normalisation layers)."""
from ..model import ARGS, RECIPE, SAME, check, entry

_CONCURRENT = """
    class Concurrent(torch.nn.ModuleList):
        \"\"\"Gluon's (Hybrid)Concurrent: every branch on the same input, concatenated.\"\"\"

        def __init__(self, *branches, axis=-1):
            super().__init__(branches)
            self.axis = axis

        def forward(self, x):
            return torch.cat([branch(x) for branch in self], dim=self.axis)"""

_CONCURRENT_GOTCHAS = [
    "the default axis is -1, the *last* axis: for (N, C, H, W) feature maps the real code "
    "passes axis=1 (channels); the check concatenates two Dense branches on axis -1 and two "
    "convolutions on axis 1",
    "the branches' parameters pair in the order they were add()ed, as a ModuleList's do"]


def _join(*parts):
    """Snippet parts, each dedented on its own, one after the other."""
    import textwrap
    return "\n".join(textwrap.dedent(p).strip() for p in parts)



def _concurrent_check(cls):
    outer = "HybridSequential" if cls.startswith("Hybrid") else "Sequential"
    return check(f"""
        net = nn.{outer}()
        a = gluon.contrib.nn.{cls}()
        a.add(nn.Dense(3), nn.Dense(2))
        b = gluon.contrib.nn.{cls}(axis=1)
        b.add(nn.Conv2D(2, 3, padding=1), nn.Conv2D(3, 1))
        net.add(b, nn.Flatten(), a)
        net(x)""", _join(_CONCURRENT, """
        mod = torch.nn.Sequential(
            Concurrent(nn.Conv2d(2, 2, 3, padding=1), nn.Conv2d(2, 3, 1), axis=1),
            nn.Flatten(), Concurrent(nn.Linear(60, 3), nn.Linear(60, 2)))
        mod(x)"""), inputs="x=U(2, 2, 3, 4)", grad="x")


_PS_RECIPE_2D = """
    def pixel_shuffle_2d(x, f1, f2):    # Gluon's PixelShuffle2D((f1, f2))
        n, c, h, w = x.shape
        x = x.reshape(n, c // (f1 * f2), f1, f2, h, w)
        return x.permute(0, 1, 4, 2, 5, 3).reshape(n, c // (f1 * f2), h * f1, w * f2)"""
_PS_RECIPE_1D = """
    def pixel_shuffle_1d(x, f):         # Gluon's PixelShuffle1D(f)
        n, c, w = x.shape
        return x.reshape(n, c // f, f, w).permute(0, 1, 3, 2).reshape(n, c // f, w * f)"""
_PS_RECIPE_3D = """
    def pixel_shuffle_3d(x, f1, f2, f3):    # Gluon's PixelShuffle3D((f1, f2, f3))
        n, c, d, h, w = x.shape
        c_out = c // (f1 * f2 * f3)
        x = x.reshape(n, c_out, f1, f2, f3, d, h, w).permute(0, 1, 5, 2, 6, 3, 7, 4)
        return x.reshape(n, c_out, d * f1, h * f2, w * f3)"""


ENTRIES = [
    entry("mx.gluon.contrib.nn.HybridConcurrent",
          torch="Concurrent(*branches, axis=axis)", status=RECIPE,
          recipe=_CONCURRENT,
          args="axis → dim of torch.cat (Gluon's default -1); add(*blocks) → the branches "
               "(a ModuleList, so state_dict keys are 0.…, 1.…)",
          gotchas=_CONCURRENT_GOTCHAS,
          check=_concurrent_check("HybridConcurrent")),
    entry("mx.gluon.contrib.nn.Concurrent",
          torch="Concurrent(*branches, axis=axis)", status=RECIPE,
          recipe=_CONCURRENT,
          args="axis → dim of torch.cat (default -1); add(*blocks) → the branches",
          gotchas=_CONCURRENT_GOTCHAS + [
              "Concurrent is the non-hybrid Block (nd.concat), HybridConcurrent the "
              "HybridBlock: one PyTorch recipe for both"],
          check=_concurrent_check("Concurrent")),
    entry("mx.gluon.contrib.nn.Identity", torch="torch.nn.Identity()", status=SAME,
          check=check("""
              net = gluon.contrib.nn.Identity()
              net(x)""", """
              mod = nn.Identity()
              mod(x)""", inputs="x=U(2, 3)", grad="x")),
    entry("mx.gluon.contrib.nn.PixelShuffle2D", torch="torch.nn.PixelShuffle(factor)",
          status=ARGS,
          recipe=_PS_RECIPE_2D,
          args="factor (an int) → upscale_factor; a tuple (f1, f2) of two factors: no "
               "PyTorch layer, the recipe (reshape and permute)",
          gotchas=["the same channel order as PyTorch's PixelShuffle: (N, C·f², H, W) → "
                   "(N, C, H·f, W·f), channel c·f² + i·f + j to row i, column j of each "
                   "block; the check compares factor 2 with PixelShuffle(2) and (2, 3) with "
                   "the recipe"],
          check=check("""
              p1 = gluon.contrib.nn.PixelShuffle2D(2)
              p2 = gluon.contrib.nn.PixelShuffle2D((2, 3))
              (p1(x), p2(x))""", _join(_PS_RECIPE_2D, """
              m1 = nn.PixelShuffle(2)
              (m1(x), pixel_shuffle_2d(x, 2, 3))"""), inputs="x=U(2, 12, 3, 2)", grad="x")),
    entry("mx.gluon.contrib.nn.PixelShuffle1D", torch="pixel_shuffle_1d(x, factor)",
          status=RECIPE, recipe=_PS_RECIPE_1D,
          args="factor → f: (N, C·f, W) → (N, C, W·f)",
          check=check("""
              net = gluon.contrib.nn.PixelShuffle1D(3)
              net(x)""", _join(_PS_RECIPE_1D, """
              pixel_shuffle_1d(x, 3)"""), inputs="x=U(2, 6, 4)", grad="x")),
    entry("mx.gluon.contrib.nn.PixelShuffle3D", torch="pixel_shuffle_3d(x, f1, f2, f3)",
          status=RECIPE, recipe=_PS_RECIPE_3D,
          args="factor (an int f: f1 = f2 = f3 = f, or a tuple (f1, f2, f3)) → f1, f2, f3: "
               "(N, C·f1·f2·f3, D, H, W) → (N, C, D·f1, H·f2, W·f3)",
          check=check("""
              net = gluon.contrib.nn.PixelShuffle3D((1, 2, 3))
              net(x)""", _join(_PS_RECIPE_3D, """
              pixel_shuffle_3d(x, 1, 2, 3)"""), inputs="x=U(2, 12, 2, 3, 2)", grad="x")),
    entry("mx.gluon.contrib.nn.SparseEmbedding",
          torch="torch.nn.Embedding(input_dim, output_dim, sparse=True)", status=ARGS,
          args="input_dim → num_embeddings; output_dim → embedding_dim; sparse=True: a "
               "sparse gradient (torch.optim.SparseAdam, SGD or Adagrad take it); the "
               "indices: x.long()",
          gotchas=["Gluon's SparseEmbedding only runs once a gluon.Trainer holds its "
                   "parameters (its weight is row_sparse and is pulled per batch); PyTorch's "
                   "needs nothing",
                   "the weight's gradient: a row_sparse array in MXNet, a sparse COO tensor "
                   "in PyTorch; the same dense values (rows summed over repeated indices)"],
          check=check("""
              with autograd.pause():          # the runner records the snippet: set up
                  blk = gluon.contrib.nn.SparseEmbedding(6, 3, dtype=dtype)
                  blk.initialize()
                  trainer = gluon.Trainer(blk.collect_params(), 'sgd')
                  blk.weight.set_data(w.tostype('row_sparse'))
              with autograd.record():
                  y = blk(idx.astype(dtype))
              with autograd.pause():
                  y.backward(h)
              (y, blk.weight.grad().tostype('default'))""", """
              emb = nn.Embedding(6, 3, sparse=True).to(dtype)
              with torch.no_grad():
                  emb.weight.copy_(w)
              y = emb(idx)
              y.backward(h)
              (y.detach(), emb.weight.grad.to_dense())""",
              inputs="w=U(6, 3); idx=I(0, 6, (2, 4)); h=U(2, 4, 3)")),
]
