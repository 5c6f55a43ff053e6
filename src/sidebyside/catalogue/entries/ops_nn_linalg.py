"""MXNet's products and linear algebra (``dot``, ``batch_dot``, ``mx.nd.linalg.*``) and the
fused attention products of ``contrib`` (``interleaved_matmul_*``, ``div_sqrt_dim``)."""
from ..model import ARGS, COMPOSITE, RECIPE, RENAMED, check, entry


def _code(*parts):
    import textwrap

    return "\n".join(textwrap.dedent(p).strip("\n") for p in parts)


_DOT_SIG = ("lhs", "rhs", "transpose_a", "transpose_b")
_GEMM2_SIG = ("A", "B", "transpose_a", "transpose_b")
_EXTRACTTRIAN = """
def mx_extracttrian(A, offset=0, lower=True):
    # linalg.extracttrian: the lower triangle row by row; the upper one column by column
    n = A.shape[-1]
    if offset > 0 or (offset == 0 and not lower):
        A, offset = A.mT, -offset
    rows, cols = torch.tril_indices(n, n, offset)
    return A[..., rows, cols]
"""
_MAKETRIAN = """
def mx_maketrian(v, offset=0, lower=True):
    # linalg.maketrian: the inverse of extracttrian (zeros elsewhere)
    k = abs(offset)
    n = int(round((math.sqrt(8 * v.shape[-1] + 1) - 1) / 2)) + k
    rows, cols = torch.tril_indices(n, n, -k)
    out = v.new_zeros(*v.shape[:-1], n, n)
    out[..., rows, cols] = v
    return out.mT if offset > 0 or (offset == 0 and not lower) else out
"""
_SYEVD = """
def mx_syevd(A):
    # linalg.syevd: (U, L), eigenvectors as *rows* of U, each signed so that its entry of
    # largest magnitude is positive (MXNet's convention), eigenvalues ascending
    L, V = torch.linalg.eigh(A)
    U = V.mT
    big = U.gather(-1, U.abs().argmax(-1, keepdim=True))
    return U * torch.sign(big), L
"""

ENTRIES = [
    entry("mx.nd.dot", aliases=["mx.sym.dot", "mx.nd.sparse.dot", "mx.sym.sparse.dot"],
          torch="torch.tensordot(lhs, rhs, dims=1)", status=ARGS,
          args="contracts lhs's last axis with rhs's first (numpy.dot): 2-D × 2-D is "
               "lhs @ rhs; (a, b, c) · (c, d, e) gives (a, b, d, e), which is not torch.matmul "
               "(that broadcasts batches); transpose_a / transpose_b: their own forms; "
               "forward_stype: storage only",
          gotchas=["not an outer product (an old answer mapped mx.sym.dot to torch.addr: "
                   "wrong); not torch.matmul on N-D inputs"],
          teach="02_tensor_ops §9. The rows that need more than a rename",
          check=check("""
              a = nd.dot(x, y)
              c = nd.dot(x3, y3)
              (a, c)""", "(torch.tensordot(x, y, dims=1), torch.tensordot(x3, y3, dims=1))",
              inputs="x=U(3, 4); y=U(4, 2); x3=U(2, 3, 4); y3=U(4, 2, 5)",
              grad="x, y, x3, y3")),
    entry("mx.nd.dot", form="transpose_a=True", when=["transpose_a=True"],
          signature=_DOT_SIG, torch="torch.tensordot(lhs.permute(*reversed(range(lhs.dim()))),"
                                    " rhs, dims=1)",
          status=COMPOSITE,
          args="transpose_a=True reverses all of lhs's axes first (lhs.T for 2-D: "
               "lhs.T @ rhs); transpose_b=True likewise for rhs",
          check=check("""
              a = nd.dot(x, y, transpose_a=True)
              c = nd.dot(x, z, transpose_a=True, transpose_b=True)
              (a, c)""", """
              (torch.tensordot(x.permute(*reversed(range(x.dim()))), y, dims=1),
               x.T @ z.T)""", inputs="x=U(4, 3); y=U(4, 2); z=U(5, 4)", grad="x, y, z")),
    entry("mx.nd.dot", form="transpose_b=True", when=["transpose_b=True"],
          signature=_DOT_SIG, torch="lhs @ rhs.T", status=COMPOSITE,
          args="2-D: rhs transposed (its axes reversed in N-D: rhs.permute(*reversed(...)))",
          check=check("nd.dot(x, y, transpose_b=True)", "x @ y.T",
                      inputs="x=U(3, 4); y=U(2, 4)", grad="x, y")),
    entry("mx.nd.batch_dot", aliases=["mx.sym.batch_dot"],
          torch="torch.matmul(lhs, rhs)", status=RENAMED,
          args="(B, n, k) × (B, k, m) → (B, n, m) (torch.bmm for 3-D; torch.matmul also "
               "takes more batch axes); transpose_a / transpose_b → lhs.mT / rhs.mT: their "
               "own forms",
          check=check("nd.batch_dot(x, y)", "torch.matmul(x, y)",
                      inputs="x=U(2, 3, 4); y=U(2, 4, 5)", grad="x, y")),
    entry("mx.nd.batch_dot", form="transpose_b=True", when=["transpose_b=True"],
          signature=_DOT_SIG, torch="torch.matmul(lhs, rhs.mT)", status=COMPOSITE,
          args="transpose_b=True → rhs.mT (the last two axes swapped); with transpose_a=True "
               "too: lhs.mT",
          check=check("""
              a = nd.batch_dot(x, y, transpose_b=True)
              c = nd.batch_dot(z, y, transpose_a=True, transpose_b=True)
              (a, c)""", "(torch.matmul(x, y.mT), torch.matmul(z.mT, y.mT))",
              inputs="x=U(2, 3, 4); y=U(2, 5, 4); z=U(2, 4, 3)", grad="x, y, z")),
    entry("mx.nd.batch_dot", form="transpose_a=True", when=["transpose_a=True"],
          signature=_DOT_SIG, torch="torch.matmul(lhs.mT, rhs)", status=COMPOSITE,
          args="transpose_a=True → lhs.mT",
          check=check("nd.batch_dot(x, y, transpose_a=True)", "torch.matmul(x.mT, y)",
                      inputs="x=U(2, 4, 3); y=U(2, 4, 5)", grad="x, y")),
    entry("mx.nd.linalg.gemm2", aliases=["mx.sym.linalg.gemm2"],
          torch="alpha * torch.matmul(A, B)", status=COMPOSITE,
          args="alpha → a factor; transpose_a / transpose_b → A.mT / B.mT (a form); on the "
               "last two axes, batched over the others; axis (default -2): the row axis of "
               "other layouts — move it to -2 first",
          gotchas=["not torch.addbmm (an old answer): addbmm *sums* the batch of products "
                   "into one matrix; gemm2 keeps one product per batch entry"],
          check=check("""
              a = nd.linalg.gemm2(x, y)
              c = nd.linalg.gemm2(x, y, alpha=2.5)
              (a, c)""", "(torch.matmul(x, y), 2.5 * torch.matmul(x, y))",
              inputs="x=U(2, 3, 4); y=U(2, 4, 5)", grad="x, y")),
    entry("mx.nd.linalg.gemm2", form="transpose_b=True", when=["transpose_b=True"],
          signature=_GEMM2_SIG, torch="alpha * torch.matmul(A, B.mT)", status=COMPOSITE,
          args="transpose_b=True → B.mT (and transpose_a=True → A.mT)",
          check=check("""
              a = nd.linalg.gemm2(x, y, transpose_b=True)
              c = nd.linalg.gemm2(z, y, transpose_a=True, transpose_b=True, alpha=0.5)
              (a, c)""", "(torch.matmul(x, y.mT), 0.5 * torch.matmul(z.mT, y.mT))",
              inputs="x=U(2, 3, 4); y=U(2, 5, 4); z=U(2, 4, 3)", grad="x, y, z")),
    entry("mx.nd.linalg.gemm2", form="transpose_a=True", when=["transpose_a=True"],
          signature=_GEMM2_SIG, torch="alpha * torch.matmul(A.mT, B)", status=COMPOSITE,
          args="transpose_a=True → A.mT",
          check=check("nd.linalg.gemm2(x, y, transpose_a=True)", "torch.matmul(x.mT, y)",
                      inputs="x=U(2, 4, 3); y=U(2, 4, 5)", grad="x, y")),
    entry("mx.nd.linalg.gemm", aliases=["mx.sym.linalg.gemm"],
          torch="alpha * torch.matmul(A, B) + beta * C", status=COMPOSITE,
          args="alpha, beta as named (both 1 by default); transpose_a / transpose_b → "
               "A.mT / B.mT; 2-D: torch.addmm(C, A, B, beta=beta, alpha=alpha); 3-D: "
               "torch.baddbmm(C, A, B, beta=beta, alpha=alpha)",
          defaults="beta=1 (torch.addmm's too)",
          check=check("""
              a = nd.linalg.gemm(x, y, c)
              e = nd.linalg.gemm(x, w, c, transpose_b=True, alpha=2.0, beta=0.5)
              (a, e)""", """
              (torch.baddbmm(c, x, y), 2.0 * torch.matmul(x, w.mT) + 0.5 * c)""",
              inputs="x=U(2, 3, 4); y=U(2, 4, 5); w=U(2, 5, 4); c=U(2, 3, 5)",
              grad="x, y, w, c")),
    entry("mx.nd.linalg.potrf", aliases=["mx.sym.linalg.potrf"],
          torch="torch.linalg.cholesky(A)", status=RENAMED,
          args="A symmetric positive definite → the lower Cholesky factor L, A = L Lᵀ",
          check=check("nd.linalg.potrf(a)", "torch.linalg.cholesky(a)", inputs="a=SPD(4)",
                      grad="a")),
    entry("mx.nd.linalg.potri", aliases=["mx.sym.linalg.potri"],
          torch="torch.cholesky_inverse(A)", status=RENAMED,
          args="A: a lower Cholesky factor L → (L Lᵀ)⁻¹, the inverse of the matrix L "
               "factors (not L's inverse)",
          check=check("nd.linalg.potri(nd.linalg.potrf(a))",
                      "torch.cholesky_inverse(torch.linalg.cholesky(a))",
                      inputs="a=SPD(4)", grad="a")),
    entry("mx.nd.linalg.trsm", aliases=["mx.sym.linalg.trsm"],
          torch="torch.linalg.solve_triangular(A, alpha * B, upper=not lower, "
                "left=not rightside)",
          status=ARGS,
          args="solves op(A)·X = alpha·B (rightside=True: X·op(A) = alpha·B); lower (True) → "
               "upper=not lower; transpose=True → A.mT with upper flipped",
          gotchas=["only the triangle named by lower is read, on both sides"],
          check=check("""
              a = nd.linalg.trsm(L, b, alpha=2.0)
              c = nd.linalg.trsm(L, b2, rightside=True, transpose=True)
              (a, c)""", """
              a = torch.linalg.solve_triangular(L, 2.0 * b, upper=False, left=True)
              c = torch.linalg.solve_triangular(L.mT, b2, upper=True, left=False)
              (a, c)""",
              inputs="L=A(onp.linalg.cholesky(SPD(4)) + onp.triu(U(4, 4), 1)); b=U(4, 3); "
                     "b2=U(3, 4)",
              grad="L, b, b2")),
    entry("mx.nd.linalg.trmm", aliases=["mx.sym.linalg.trmm"],
          torch="alpha * torch.matmul(A.tril(), B)", status=COMPOSITE,
          args="alpha·op(A)·B with A triangular (lower=True: only A's lower triangle is "
               "read → A.tril(); lower=False → A.triu()); rightside=True → B·op(A); "
               "transpose=True → op(A) = Aᵀ",
          gotchas=["MXNet ignores the other triangle of A: A @ B with a full A is wrong"],
          check=check("""
              a = nd.linalg.trmm(m, b, alpha=1.5)
              c = nd.linalg.trmm(m, b2, rightside=True, lower=False)
              (a, c)""", "(1.5 * torch.matmul(m.tril(), b), torch.matmul(b2, m.triu()))",
              inputs="m=U(4, 4); b=U(4, 3); b2=U(3, 4)", grad="m, b, b2")),
    entry("mx.nd.linalg.sumlogdiag", aliases=["mx.sym.linalg.sumlogdiag"],
          torch="torch.diagonal(A, dim1=-2, dim2=-1).log().sum(-1)", status=COMPOSITE,
          args="the sum of the log of the diagonal (of a Cholesky factor: half the log "
               "determinant)",
          check=check("nd.linalg.sumlogdiag(a)",
                      "torch.diagonal(a, dim1=-2, dim2=-1).log().sum(-1)",
                      inputs="a=P(2, 3, 3)", grad="a")),
    entry("mx.nd.linalg.syrk", aliases=["mx.sym.linalg.syrk"],
          torch="alpha * torch.matmul(A, A.mT)", status=COMPOSITE,
          args="alpha·A·Aᵀ; transpose=True → alpha·Aᵀ·A",
          check=check("""
              a = nd.linalg.syrk(x)
              c = nd.linalg.syrk(x, transpose=True, alpha=0.5)
              (a, c)""", "(torch.matmul(x, x.mT), 0.5 * torch.matmul(x.mT, x))",
              inputs="x=U(2, 3, 4)", grad="x")),
    entry("mx.nd.linalg.gelqf", aliases=["mx.sym.linalg.gelqf"],
          torch="tuple(t.mT for t in torch.linalg.qr(A.mT))", status=COMPOSITE,
          args="the LQ factorisation A = L·Q of a wide A (m ≤ n), returned as (Q, L): the "
               "QR factorisation of Aᵀ, transposed (Q = Qᵀ_qr, L = Rᵀ_qr); the same signs "
               "(both LAPACK Householder)",
          gotchas=["the outputs come as (Q, L), Q first"],
          check=check("nd.linalg.gelqf(x)", "tuple(t.mT for t in torch.linalg.qr(x.mT))",
                      inputs="x=U(2, 3, 5)", grad="x")),
    entry("mx.nd.linalg.syevd", aliases=["mx.sym.linalg.syevd"],
          torch="mx_syevd(A)", status=RECIPE, recipe=_SYEVD,
          args="A symmetric → (U, L): eigenvectors as the *rows* "
               "of U, eigenvalues ascending; torch.linalg.eigh returns (L, V) with "
               "eigenvectors as columns and arbitrary signs",
          gotchas=["MXNet fixes each eigenvector's sign (its largest-magnitude entry "
                   "positive); torch.linalg.eigh's signs differ (1.75 off, measured): the "
                   "recipe applies MXNet's rule",
                   "outputs in the other order: (U, L) vs (L, V)"],
          check=check("nd.linalg.syevd(s + s.transpose((0, 2, 1)))",
                      _code(_SYEVD, "mx_syevd(s + s.mT)"),
                      inputs="s=U(2, 4, 4)", grad="s")),
    entry("mx.nd.linalg.inverse", aliases=["mx.sym.linalg.inverse"],
          torch="torch.linalg.inv(A)", status=RENAMED,
          check=check("nd.linalg.inverse(a)", "torch.linalg.inv(a)",
                      inputs="a=A(U(2, 3, 3) + 3 * onp.eye(3))", grad="a")),
    entry("mx.nd.linalg.det", aliases=["mx.sym.linalg.det"],
          torch="torch.linalg.det(A)", status=RENAMED,
          check=check("nd.linalg.det(a)", "torch.linalg.det(a)",
                      inputs="a=A(U(2, 3, 3) + 2 * onp.eye(3))", grad="a")),
    entry("mx.nd.linalg.slogdet", aliases=["mx.sym.linalg.slogdet"],
          torch="torch.linalg.slogdet(A)", status=RENAMED,
          args="→ (sign, log|det|) on both sides",
          check=check("nd.linalg.slogdet(a)", "tuple(torch.linalg.slogdet(a))",
                      inputs="a=A(U(2, 3, 3) - 2 * onp.eye(3))", grad="a")),
    entry("mx.nd.linalg.extractdiag", aliases=["mx.sym.linalg.extractdiag"],
          torch="torch.diagonal(A, offset, dim1=-2, dim2=-1)", status=ARGS,
          args="offset → offset (of the last two axes)",
          check=check("""
              (nd.linalg.extractdiag(a), nd.linalg.extractdiag(a, offset=-1))""", """
              (torch.diagonal(a, 0, dim1=-2, dim2=-1), torch.diagonal(a, -1, dim1=-2, dim2=-1))""",
              inputs="a=U(2, 4, 4)", grad="a")),
    entry("mx.nd.linalg.makediag", aliases=["mx.sym.linalg.makediag"],
          torch="torch.diag_embed(A, offset)", status=RENAMED,
          args="offset → offset",
          check=check("(nd.linalg.makediag(v), nd.linalg.makediag(v, offset=2))",
                      "(torch.diag_embed(v, 0), torch.diag_embed(v, 2))",
                      inputs="v=U(2, 3)", grad="v")),
    entry("mx.nd.linalg.extracttrian", aliases=["mx.sym.linalg.extracttrian"],
          torch="mx_extracttrian(A, offset, lower)", status=RECIPE, recipe=_EXTRACTTRIAN,
          args="the triangle as a vector: the lower one (lower=True, offset ≤ 0) row by "
               "row; the upper one (lower=False or offset > 0) *column by column*",
          gotchas=["the upper triangle is read column-major: [[1, 2, 3], [4, 5, 6], [7, 8, "
                   "9]] gives [1, 2, 5, 3, 6, 9], not A[torch.triu_indices(3, 3)] = "
                   "[1, 2, 3, 5, 6, 9]"],
          check=check("""
              (nd.linalg.extracttrian(a), nd.linalg.extracttrian(a, lower=False),
               nd.linalg.extracttrian(a, offset=1), nd.linalg.extracttrian(a, offset=-1))""",
              _code(_EXTRACTTRIAN, """
              (mx_extracttrian(a), mx_extracttrian(a, lower=False), mx_extracttrian(a, 1),
               mx_extracttrian(a, -1))"""), inputs="a=U(2, 4, 4)", grad="a")),
    entry("mx.nd.linalg.maketrian", aliases=["mx.sym.linalg.maketrian"],
          torch="mx_maketrian(A, offset, lower)", status=RECIPE,
          recipe="import math\n" + _MAKETRIAN,
          args="the inverse of extracttrian: the vector laid out in the triangle (the upper "
               "one column by column), zeros elsewhere",
          check=check("""
              (nd.linalg.maketrian(v), nd.linalg.maketrian(v, lower=False),
               nd.linalg.maketrian(v, offset=1), nd.linalg.maketrian(v, offset=-2))""",
              _code("import math", _MAKETRIAN, """
              (mx_maketrian(v), mx_maketrian(v, lower=False), mx_maketrian(v, 1),
               mx_maketrian(v, -2))"""), inputs="v=U(2, 6)", grad="v")),
]
