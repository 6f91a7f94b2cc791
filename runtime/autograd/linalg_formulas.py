"""Derivative helpers of torch.linalg's primitives (PyTorch's FunctionsManual formulas, real case).

Written with yaten ops, so they differentiate again. Matrices are the last two dimensions; a formula's
batch dimensions broadcast as its forward did and are summed back to each input's shape.
"""

import yaten

__all__ = [
    "cholesky_backward", "eigh_backward", "linalg_det_backward", "linalg_qr_backward", "slogdet_backward", "solve_backward_A",
    "solve_backward_B", "solve_triangular_backward", "svd_backward",
]  # fmt: skip


def _sum_to(grad, shape):
    # formulas.py star-imports this module, so its helpers are looked up when a backward runs
    return yaten.autograd.formulas.sum_to(grad, shape)


def _vector_rhs(A, B) -> bool:
    return B.ndim == 1 or (B.ndim == A.ndim - 1 and tuple(B.shape) == tuple(A.shape[:-1]))


def solve_backward_B(grad, A, B, left):
    """X = A^{-1} B: gB = A^{-T} gX (``left=False``, X = B A^{-1}: gB = gX A^{-T})."""
    return _sum_to(yaten.linalg.solve(A.mT, grad, left=left), B.shape)


def solve_backward_A(grad, result, A, B, left):
    """X = A^{-1} B: gA = -gB X^T (``left=False``: gA = -X^T gB)."""
    gB = yaten.linalg.solve(A.mT, grad, left=left)
    if _vector_rhs(A, B):
        gB, result = gB.unsqueeze(-1), result.unsqueeze(-1)
    return _sum_to(-(gB @ result.mT) if left else -(result.mT @ gB), A.shape)


def linalg_det_backward(grad, result, A):
    """d det(A) = det(A) tr(A^{-1} dA): gA = g det(A) A^{-T} (A nonsingular)."""
    return (grad * result).unsqueeze(-1).unsqueeze(-1) * yaten.linalg.inv(A).mT


def slogdet_backward(grad_logabsdet, A):
    """d log|det A| = tr(A^{-1} dA): gA = g A^{-T}."""
    return grad_logabsdet.unsqueeze(-1).unsqueeze(-1) * yaten.linalg.inv(A).mT


def solve_triangular_backward(grad, A, result, upper, left, unitriangular, grad_input_mask):
    """X = A^{-1} B with A triangular: gB = A^{-T} gX; gA = -gB X^T restricted to A's triangle."""
    gB = yaten.linalg.solve_triangular(A.mT, grad, upper=not upper, left=left, unitriangular=unitriangular)
    gA = None
    if grad_input_mask[0]:
        gA = -(gB @ result.mT) if left else -(result.mT @ gB)
        gA = gA.triu(int(unitriangular)) if upper else gA.tril(-int(unitriangular))
        gA = _sum_to(gA, A.shape)
    return gA, (gB if grad_input_mask[1] else None)


def cholesky_backward(grad, upper, L):
    """A = L L^T: gA = L^{-T} Φ(L^T gL) L^{-1}, Φ taking the lower triangle with a halved diagonal,
    symmetrised (torch's cholesky_backward)."""
    if upper:
        L, grad = L.mT, grad.mT
    gA = (L.mT @ grad).tril()
    gA = 0.5 * (gA + gA.tril(-1).mT)
    gA = yaten.linalg.solve_triangular(L.mT, gA, upper=True, left=True)
    return yaten.linalg.solve_triangular(L, gA, upper=False, left=False)


def eigh_backward(grads, eigenvalues, eigenvectors):
    """A = V diag(λ) V^T: gA = V (diag(gλ) + skew(V^T gV) / (λ_j - λ_i)) V^T (torch's
    linalg_eig_backward for Hermitian inputs)."""
    g_values, g_vectors = grads
    V = eigenvectors
    VhgV = V.mT @ g_vectors
    VhgV = 0.5 * (VhgV - VhgV.mT)
    E = eigenvalues.unsqueeze(-2) - eigenvalues.unsqueeze(-1)
    n = eigenvalues.shape[-1]
    eye = yaten.eye(n, dtype=E.dtype, device=E.device)
    inner = VhgV / (E + eye) * (1 - eye) + yaten.diag_embed(g_values)
    return V @ inner @ V.mT


def svd_backward(grads, full_matrices, U, S, Vh):
    """torch's svd_backward (real case) on the reduced factors; full factors are narrowed first."""
    gU, gS, gVh = grads
    k = S.shape[-1]
    if full_matrices:
        gU, U = gU.narrow(-1, 0, k), U.narrow(-1, 0, k)
        gVh, Vh = gVh.narrow(-2, 0, k), Vh.narrow(-2, 0, k)
    m, n = U.shape[-2], Vh.shape[-1]
    V, gV = Vh.mT, gVh.mT
    UhgU = U.mT @ gU
    VhgV = V.mT @ gV
    UhgU, VhgV = UhgU - UhgU.mT, VhgV - VhgV.mT
    S2 = S * S
    eye = yaten.eye(k, dtype=S.dtype, device=S.device)
    E = S2.unsqueeze(-2) - S2.unsqueeze(-1) + eye
    gA = (UhgU * S.unsqueeze(-2) + S.unsqueeze(-1) * VhgV) / E * (1 - eye) + yaten.diag_embed(gS)
    if m > n:  # U's columns span only part of the space: add (I - U U^T) gU S^{-1}
        gA = U @ gA
        gUSinv = gU / S.unsqueeze(-2)
        return (gA + gUSinv - U @ (U.mT @ gUSinv)) @ Vh
    if m < n:  # likewise for V: S^{-1} gV^T (I - V V^T)
        gA = gA @ Vh
        SinvgVh = gVh / S.unsqueeze(-1)
        return U @ (gA + SinvgVh - (SinvgVh @ V) @ Vh)
    return U @ gA @ Vh


def _qr_tall_backward(gQ, gR, Q, R):
    """m >= n: gA = (gQ + Q copyltu(M)) R^{-T} with M = R gR^T - gQ^T Q, copyltu(M) = tril(M) + tril(M, -1)^T."""
    M = R @ gR.mT - gQ.mT @ Q
    low = M.tril()
    return yaten.linalg.solve_triangular(R.mT, gQ + Q @ (low + low.tril(-1).mT), upper=False, left=False)


def linalg_qr_backward(grads, Q, R, mode):
    """torch's linalg_qr_backward (real case). A wide A = Q [R1 R2] is the square QR A1 = Q R1 plus
    A2 = Q R2, whose gradient reaches Q as A2 gR2^T."""
    gQ, gR = grads
    if mode == "r":
        raise RuntimeError(
            "The derivative of linalg.qr depends on Q, which is not computed when mode='r'. Please use "
            "linalg.qr(A, mode='reduced') if you are going to differentiate through linalg.qr."
        )
    m, n = Q.shape[-2], R.shape[-1]
    if mode == "complete" and m > n:
        raise RuntimeError(
            "The QR decomposition is not differentiable when mode='complete' and nrows > ncols."
        )
    if m >= n:
        return _qr_tall_backward(gQ, gR, Q, R)
    R1, R2, gR2 = R.narrow(-1, 0, m), R.narrow(-1, m, n - m), gR.narrow(-1, m, n - m)
    gA1 = _qr_tall_backward(gQ + (Q @ R2) @ gR2.mT, gR.narrow(-1, 0, m), Q, R1)
    return yaten.cat([gA1, Q @ gR2], dim=-1)
