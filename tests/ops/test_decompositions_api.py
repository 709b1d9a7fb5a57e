"""``torch.linalg``'s decompositions and solvers beside PyTorch: errors (class and message),
named results and how they print, ``cholesky_ex``'s info, lstsq's fields per driver,
matrix_rank, QR's mode 'r', the legacy ``torch.svd`` / ``torch.qr``, float32, and gradients
where PyTorch's formulas avoid a division (repeated eigenvalues / singular values)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import minigrad as mg

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

NOT_PD = [[1.0, 2.0], [2.0, 1.0]]
NOT_PD3 = [[4.0, 2.0, 1.0], [2.0, 1.0, 3.0], [1.0, 3.0, 9.0]]
RNG = np.random.default_rng(5)
TALL = RNG.standard_normal((4, 3))
TALL32 = TALL.astype(np.float32)

ERRORS = {
    "cholesky not PD": lambda m: m.linalg.cholesky(m.tensor(NOT_PD)),
    "cholesky batch": lambda m: m.linalg.cholesky(m.stack([m.eye(2), m.tensor(NOT_PD)])),
    "cholesky upper not PD": lambda m: m.linalg.cholesky(m.tensor(NOT_PD3), upper=True),
    "cholesky_ex check_errors": lambda m: m.linalg.cholesky_ex(m.tensor(NOT_PD), check_errors=True),
    "cholesky not square": lambda m: m.linalg.cholesky(m.ones(2, 3)),
    "cholesky 1-D": lambda m: m.linalg.cholesky(m.ones(3)),
    "cholesky int": lambda m: m.linalg.cholesky(m.eye(2, dtype=m.int64)),
    "eigh not square": lambda m: m.linalg.eigh(m.ones(2, 3)),
    "eigh 1-D": lambda m: m.linalg.eigh(m.ones(3)),
    "eigh UPLO": lambda m: m.linalg.eigh(m.eye(2), UPLO="X"),
    "eigh int": lambda m: m.linalg.eigh(m.tensor([[1, 2], [3, 4]])),
    "eigvalsh not square": lambda m: m.linalg.eigvalsh(m.ones(2, 3)),
    "svd 1-D": lambda m: m.linalg.svd(m.ones(3)),
    "svd int": lambda m: m.linalg.svd(m.tensor([[1, 2], [3, 4]])),
    "svd driver": lambda m: m.linalg.svd(m.eye(2), driver="gesvd"),
    "svdvals 1-D": lambda m: m.linalg.svdvals(m.ones(3)),
    "qr mode": lambda m: m.linalg.qr(m.ones(3, 2), mode="x"),
    "qr 1-D": lambda m: m.linalg.qr(m.ones(3)),
    "solve_triangular A": lambda m: m.linalg.solve_triangular(
        m.ones(2, 3), m.ones(2, 2), upper=True
    ),
    "solve_triangular shapes": lambda m: m.linalg.solve_triangular(
        m.eye(2), m.ones(3, 2), upper=True
    ),
    "solve_triangular right shapes": lambda m: m.linalg.solve_triangular(
        m.eye(2), m.ones(2, 3), upper=True, left=False
    ),
    "solve_triangular B 1-D": lambda m: m.linalg.solve_triangular(m.eye(2), m.ones(2), upper=True),
    "cholesky_solve shapes": lambda m: m.cholesky_solve(m.ones(2, 1), m.eye(3)),
    "lstsq driver": lambda m: m.linalg.lstsq(m.ones(4, 3), m.ones(4, 2), driver="xx"),
    "lstsq rows": lambda m: m.linalg.lstsq(m.ones(4, 3), m.ones(3, 2)),
    "lstsq dims": lambda m: m.linalg.lstsq(m.ones(4, 3), m.ones(2, 4, 2)),
    "matrix_exp not square": lambda m: m.linalg.matrix_exp(m.ones(2, 3)),
    "pinv 1-D": lambda m: m.linalg.pinv(m.ones(3)),
    "inv_ex check_errors": lambda m: m.linalg.inv_ex(m.zeros(2, 2), check_errors=True),
    "inv_ex batch": lambda m: m.linalg.inv_ex(
        m.stack([m.eye(2), m.tensor([[1.0, 0.0], [0.0, 0.0]])]), check_errors=True
    ),
    "qr mode r backward": lambda m: (
        m.linalg.qr(m.tensor(TALL, requires_grad=True), mode="r").R.sum().backward()
    ),
    "qr complete tall backward": lambda m: (
        m.linalg.qr(m.tensor(TALL, requires_grad=True), mode="complete").Q.sum().backward()
    ),
}


def _raised(fn, lib):
    with pytest.raises(Exception) as info:
        fn(lib)
    return info.value


@pytest.mark.parametrize("name", ERRORS)
def test_errors_match_pytorch(name):
    ours, theirs = _raised(ERRORS[name], mg), _raised(ERRORS[name], torch)
    if isinstance(theirs, torch.linalg.LinAlgError):
        assert isinstance(ours, mg.linalg.LinAlgError)
    else:
        assert type(ours).__name__ == type(theirs).__name__
    assert str(ours) == str(theirs)


def test_linalg_error_is_a_runtime_error():
    assert issubclass(mg.linalg.LinAlgError, RuntimeError)
    with pytest.raises(RuntimeError, match="positive-definite"):
        mg.linalg.cholesky(mg.tensor(NOT_PD))


PRINTED = {
    "qr": lambda m: m.linalg.qr(m.tensor([[3.0, 1.0], [4.0, 2.0]])),
    "cholesky_ex": lambda m: m.linalg.cholesky_ex(m.tensor([[4.0, 2.0], [2.0, 5.0]])),
    "cholesky_ex failed": lambda m: m.linalg.cholesky_ex(m.tensor(NOT_PD3)),
    "cholesky_ex failed upper": lambda m: m.linalg.cholesky_ex(m.tensor(NOT_PD3), upper=True),
    "cholesky_ex batch": lambda m: m.linalg.cholesky_ex(
        m.stack([m.tensor(NOT_PD), m.eye(2), 4 * m.eye(2)])
    ),
    "eigh diagonal": lambda m: m.linalg.eigh(m.tensor([[2.0, 0.0], [0.0, 1.0]])),
    "inv_ex": lambda m: m.linalg.inv_ex(m.tensor([[2.0, 0.0], [0.0, 4.0]])),
    "inv_ex info": lambda m: m.linalg.inv_ex(m.stack([m.eye(2), m.zeros(2, 2)])).info,
    "lstsq gelsd": lambda m: m.linalg.lstsq(m.tensor(TALL32), m.ones(4, 2), driver="gelsd"),
    "lstsq gelss": lambda m: m.linalg.lstsq(m.tensor(TALL32), m.ones(4, 2), driver="gelss"),
    "lstsq gels": lambda m: m.linalg.lstsq(m.tensor(TALL32), m.ones(4, 2), driver="gels"),
    "lstsq default": lambda m: m.linalg.lstsq(m.tensor(TALL32), m.ones(4, 2)),
    "lstsq vector gelsd": lambda m: m.linalg.lstsq(m.tensor(TALL32), m.ones(4), driver="gelsd"),
    "qr mode r": lambda m: m.linalg.qr(m.tensor([[3.0, 1.0], [4.0, 2.0], [0.0, 1.0]]), mode="r"),
    "matrix_rank": lambda m: m.linalg.matrix_rank(m.tensor(TALL @ TALL.T)),
    "matrix_rank batch": lambda m: m.linalg.matrix_rank(
        m.stack([m.eye(3), m.tensor([[1.0, 2, 3], [2, 4, 6], [0, 0, 1]])])
    ),
    "matrix_rank hermitian": lambda m: m.linalg.matrix_rank(
        m.tensor([[1.0, 2], [2, 4]]), hermitian=True
    ),
    "matrix_rank atol": lambda m: m.linalg.matrix_rank(m.tensor(TALL), atol=1.0),
    "matrix_rank atol rtol": lambda m: m.linalg.matrix_rank(m.tensor(TALL), atol=0.1, rtol=0.5),
    "matrix_rank tol": lambda m: m.linalg.matrix_rank(m.tensor(TALL), tol=1.5),
    "torch.svd full zeros": lambda m: tuple(x.shape for x in m.svd(m.ones(2, 3, 4), some=False)),
    "torch.svd no uv": lambda m: [x.abs().sum() for x in m.svd(m.ones(3, 2), compute_uv=False)],
    "solve_triangular singular": lambda m: m.linalg.solve_triangular(
        m.zeros(2, 2), m.ones(2, 1), upper=True
    ),
    "pinv rcond": lambda m: m.linalg.pinv(m.tensor([[1.0, 0.0], [0.0, 1e-3]]), 1e-2),
    "pinv atol": lambda m: m.linalg.pinv(m.tensor([[1.0, 0.0], [0.0, 1e-3]]), atol=0.01),
    "pinv hermitian negative": lambda m: m.linalg.pinv(
        m.tensor([[-2.0, 0.0], [0.0, 1e-20]]), hermitian=True
    ),
}


@pytest.mark.parametrize("name", PRINTED)
def test_printed_results_match_pytorch(name):
    ours = repr(PRINTED[name](mg)).replace("minigrad.", "torch.")
    assert ours == repr(PRINTED[name](torch))


def test_torch_qr_warns_as_pytorch_and_equals_linalg_qr():
    a = mg.tensor(TALL)
    with pytest.warns(UserWarning, match="torch.qr is deprecated"):
        q, r = mg.qr(a, some=False)
    assert q.shape == (4, 4) and r.shape == (4, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert repr(mg.qr(a)).startswith("minigrad.return_types.qr(")


@pytest.mark.parametrize(
    "fn",
    [
        lambda m, x: m.linalg.svdvals(x).sum(),
        lambda m, x: (m.linalg.svdvals(x) ** 2).sum(),
        lambda m, x: m.linalg.eigvalsh(x).pow(3).sum(),
        lambda m, x: m.linalg.eigh(x).eigenvalues.sum(),
        lambda m, x: m.linalg.matrix_norm(x, "nuc"),
    ],
)
def test_repeated_values_have_finite_gradients_as_pytorch(fn):
    # the identity: every eigenvalue / singular value equal; PyTorch's formulas for the values
    # alone divide by nothing
    grads = []
    for lib in (mg, torch):
        x = lib.eye(3, dtype=lib.float64).requires_grad_()
        fn(lib, x).backward()
        grads.append(x.grad.numpy())
    assert np.isfinite(grads[0]).all()
    np.testing.assert_allclose(grads[0], grads[1], atol=1e-12)


FLOAT32 = {
    "cholesky": lambda m, x: m.linalg.cholesky(x @ x.mT + m.eye(3)),
    "eigvalsh": lambda m, x: m.linalg.eigvalsh(x + x.mT),
    "svdvals": lambda m, x: m.linalg.svdvals(x),
    "qr R": lambda m, x: m.linalg.qr(x).R,
    "solve_triangular": lambda m, x: m.linalg.solve_triangular(x + 3 * m.eye(3), x, upper=True),
    "pinv": lambda m, x: m.linalg.pinv(x),
    "matrix_exp": lambda m, x: m.linalg.matrix_exp(x),
    "lstsq": lambda m, x: m.linalg.lstsq(x, x.sum(-1)).solution,
}


@pytest.mark.parametrize("name", FLOAT32)
def test_float32_keeps_its_dtype_and_pytorch_values(name):
    x = RNG.standard_normal((3, 3)).astype(np.float32)
    ours, theirs = FLOAT32[name](mg, mg.tensor(x)), FLOAT32[name](torch, torch.tensor(x))
    assert ours.dtype == mg.float32
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-4, atol=1e-5)


def test_singular_vectors_up_to_sign_match_pytorch():
    # the signs are LAPACK's choice, and two LAPACK builds may choose differently: |U|, |Vh|
    for full in (True, False):
        ours = mg.linalg.svd(mg.tensor(TALL), full)
        theirs = torch.linalg.svd(torch.tensor(TALL), full)
        for o, t in zip(ours, theirs):
            np.testing.assert_allclose(np.abs(o.numpy()), np.abs(t.numpy()), atol=1e-10)
    ours = mg.linalg.eigh(mg.tensor(TALL.T @ TALL)).eigenvectors.numpy()
    theirs = torch.linalg.eigh(torch.tensor(TALL.T @ TALL)).eigenvectors.numpy()
    np.testing.assert_allclose(np.abs(ours), np.abs(theirs), atol=1e-10)


def test_legacy_svd_returns_v():
    u, s, v = mg.svd(mg.tensor(TALL))
    np.testing.assert_allclose(((u * s) @ v.mT).numpy(), TALL, atol=1e-12)
    assert v.grad_fn is None and v.shape == (3, 3)
    x = mg.tensor(TALL, requires_grad=True)
    assert (
        mg.svd(x).V.grad_fn.name()
        == torch.svd(torch.tensor(TALL, requires_grad=True)).V.grad_fn.name()
    )


EMPTY = {
    "cholesky": lambda m, x: m.linalg.cholesky(x),
    "eigh": lambda m, x: m.linalg.eigh(x).eigenvalues,
    "svd": lambda m, x: m.linalg.svd(x).S,
    "qr": lambda m, x: m.linalg.qr(x).R,
    "matrix_exp": lambda m, x: m.linalg.matrix_exp(x),
    "pinv": lambda m, x: m.linalg.pinv(x),
    "matrix_rank": lambda m, x: m.linalg.matrix_rank(x),
    "solve_triangular": lambda m, x: m.linalg.solve_triangular(x, x, upper=True),
    "inv_ex info": lambda m, x: m.linalg.inv_ex(x).info,
}


@pytest.mark.parametrize("shape", [(0, 3, 3), (2, 0, 0)])
@pytest.mark.parametrize("name", EMPTY)
def test_empty_batches_and_matrices_give_pytorchs_shapes(name, shape):
    ours = EMPTY[name](mg, mg.zeros(*shape, dtype=mg.float64))
    theirs = EMPTY[name](torch, torch.zeros(*shape, dtype=torch.float64))
    assert tuple(ours.shape) == tuple(theirs.shape) and ours.dtype.name == str(theirs.dtype)[6:]


@pytest.mark.parametrize("p", ["fro", "nuc", 1, -1, float("inf"), -float("inf")])
def test_cond_in_the_inverses_norms(p):
    # values against PyTorch (whose backward of these raises: it modifies inv_ex's output in
    # place), gradients against finite differences; a singular matrix's condition is inf
    a = RNG.standard_normal((2, 3, 3))
    ours = mg.linalg.cond(mg.tensor(a), p)
    np.testing.assert_allclose(ours.numpy(), torch.linalg.cond(torch.tensor(a), p).numpy())
    x = mg.tensor(a, requires_grad=True)
    assert mg.autograd.gradcheck(lambda x: mg.linalg.cond(x, p), [x])
    if p == "nuc":  # PyTorch's: the nuclear norm of LAPACK's unfinished inverse (nan for 0)
        return
    singular = [mg.zeros(2, 2), mg.eye(2)]
    got = mg.linalg.cond(mg.stack(singular), p)
    want = torch.linalg.cond(torch.stack([torch.zeros(2, 2), torch.eye(2)]), p)
    np.testing.assert_allclose(got.numpy(), want.numpy())
