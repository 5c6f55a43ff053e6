"""``mx.nd.sparse`` constructors and the ``mx.nd.image`` operators real code calls."""

from ..model import ARGS, check, entry

ENTRIES = [
    entry("mx.nd.sparse.csr_matrix", form="(data, indices, indptr)",
          when=["arg1"], signature=("arg1",),
          torch="torch.sparse_csr_tensor(indptr, indices, data, size=shape)", status=ARGS,
          args="(data, indices, indptr) → crow_indices=indptr, col_indices=indices, "
               "values=data (another order); shape → size",
          gotchas=["MXNet's CSR arrays are float32 unless dtype= says otherwise; "
                   "torch.sparse_csr_tensor keeps the values' dtype",
                   "most MXNet operators take a CSR array only through their sparse "
                   "kernels (dot, elemwise); in PyTorch call .to_dense() where an operator "
                   "has no sparse kernel"],
          check=check("""
              m = nd.sparse.csr_matrix((v, onp.array([0, 2, 1]), onp.array([0, 2, 2, 3])),
                                       shape=(3, 4), dtype=dtype)
              m.asnumpy()""", """
              m = torch.sparse_csr_tensor(torch.tensor([0, 2, 2, 3]), torch.tensor([0, 2, 1]),
                                          v, size=(3, 4))
              m.to_dense()""", inputs="v=U(3)", kind="close")),
    entry("mx.nd.image.to_tensor",
          torch="torchvision.transforms.functional.to_tensor(img)", status=ARGS,
          args="an (H, W, C) uint8 NDArray → (C, H, W) float32 in [0, 1]; a batch "
               "(N, H, W, C) → (N, C, H, W): torch.from_numpy(x).permute(0, 3, 1, 2) / 255",
          check=check("nd.image.to_tensor(nd.array(img, dtype='uint8'))", """
              import torchvision
              torchvision.transforms.functional.to_tensor(img.numpy())""",
              inputs="img=IMG(4, 5)", dtypes=("float32",), rtol32=0.0, atol32=1e-7)),
    entry("mx.nd.image.normalize",
          torch="torchvision.transforms.functional.normalize(x, mean, std)", status=ARGS,
          args="mean, std (one value or one per channel) → the same; x is (C, H, W) or "
               "(N, C, H, W) float",
          gotchas=["MXNet holds mean and std as float32 parameters: a float64 image is "
                   "normalised with float32(0.3) etc., 1.6e-7 from PyTorch's float64 result"],
          check=check("nd.image.normalize(x, mean=(0.5, 0.4, 0.3), std=(0.2, 0.3, 0.4))", """
              import torchvision
              torchvision.transforms.functional.normalize(x, (0.5, 0.4, 0.3), (0.2, 0.3, 0.4))""",
              inputs="x=U(3, 4, 5)", grad="x", rtol=1e-6, atol=1e-7,
              note="float64: MXNet's mean and std are float32 parameters (measured 1.6e-7)")),
]
