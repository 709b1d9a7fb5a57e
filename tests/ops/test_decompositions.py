"""The decompositions and solvers of ``torch.linalg`` against PyTorch: values, node names,
gradients (on losses that do not depend on the factors' arbitrary signs), gradcheck and
gradgradcheck in float64, and errors. Each case is written once, ``m`` the library."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

RNG = np.random.default_rng(27)
ARRAYS = {
    "3x3": RNG.standard_normal((3, 3)),
    "4x3": RNG.standard_normal((4, 3)),
    "3x5": RNG.standard_normal((3, 5)),
    "2x4x3": RNG.standard_normal((2, 4, 3)),
    "2x3x3": RNG.standard_normal((2, 3, 3)),
    "3x2": RNG.standard_normal((3, 2)),
    "2x1x3x2": RNG.standard_normal((2, 1, 3, 2)),
    "4": RNG.standard_normal(4),
    "2x4x2": RNG.standard_normal((2, 4, 2)),
}


def spd(m, x):
    """A symmetric positive-definite matrix made from any square x (differentiably)."""
    return x @ x.mT + 3 * m.eye(x.shape[-1], dtype=x.dtype)


def sym(x):
    return x + x.mT


def triangular(m, x, upper):
    """A well-conditioned triangular matrix from x."""
    t = x.triu() if upper else x.tril()
    return t + 4 * m.eye(x.shape[-1], dtype=x.dtype)


# name -> (inputs, fn(m, *xs) -> tensor or tuple of tensors, second order checked)
CASES = {
    "cholesky": (["3x3"], lambda m, x: m.linalg.cholesky(spd(m, x)), True),
    "cholesky upper": (["2x3x3"], lambda m, x: m.linalg.cholesky(spd(m, x), upper=True), True),
    "cholesky raw lower": (["3x3"], lambda m, x: m.linalg.cholesky(x + 4 * m.eye(3)), False),
    "cholesky raw upper": (
        ["3x3"],
        lambda m, x: m.linalg.cholesky(x + 4 * m.eye(3, dtype=x.dtype), upper=True),
        False,
    ),
    "cholesky_ex L": (["3x3"], lambda m, x: m.linalg.cholesky_ex(spd(m, x)).L, False),
    "eigh values": (["2x3x3"], lambda m, x: m.linalg.eigh(sym(x)).eigenvalues, True),
    "eigh V^2": (["3x3"], lambda m, x: m.linalg.eigh(sym(x)).eigenvectors ** 2, True),
    "eigh both": (
        ["3x3"],
        lambda m, x: (lambda r: (r.eigenvectors * r.eigenvalues) @ r.eigenvectors.mT)(
            m.linalg.eigh(sym(x))
        ),
        True,
    ),
    "eigh UPLO=U": (["3x3"], lambda m, x: m.linalg.eigh(sym(x), UPLO="U").eigenvalues, False),
    "eigvalsh": (["2x3x3"], lambda m, x: m.linalg.eigvalsh(sym(x)), True),
    "eigvalsh U": (["3x3"], lambda m, x: m.linalg.eigvalsh(sym(x), UPLO="U"), False),
    "svd S": (["4x3"], lambda m, x: m.linalg.svd(x).S, True),
    "svd U Vh tall": (
        ["4x3"],
        lambda m, x: (lambda r: r.U @ r.Vh)(m.linalg.svd(x, full_matrices=False)),
        True,
    ),
    "svd U Vh wide": (
        ["3x5"],
        lambda m, x: (lambda r: r.U @ r.Vh)(m.linalg.svd(x, full_matrices=False)),
        True,
    ),
    "svd U^2 tall": (["2x4x3"], lambda m, x: m.linalg.svd(x, full_matrices=False).U ** 2, True),
    "svd Vh^2 wide": (["3x5"], lambda m, x: m.linalg.svd(x, full_matrices=False).Vh ** 2, True),
    "svd full U S Vh": (
        ["4x3"],
        lambda m, x: (lambda r: (r.U[:, :3] * r.S) @ r.Vh)(m.linalg.svd(x)),
        True,
    ),
    "svd full Vh^2 wide": (["3x5"], lambda m, x: m.linalg.svd(x).Vh[:3] ** 2, False),
    "svdvals": (["3x5"], lambda m, x: m.linalg.svdvals(x), True),
    "svdvals batch": (["2x4x3"], lambda m, x: m.linalg.svdvals(x), False),
    "qr reduced": (["4x3"], lambda m, x: tuple(m.linalg.qr(x)), True),
    "qr square": (["3x3"], lambda m, x: tuple(m.linalg.qr(x)), True),
    "qr batch": (["2x4x3"], lambda m, x: tuple(m.linalg.qr(x)), False),
    "qr Q only": (["4x3"], lambda m, x: m.linalg.qr(x).Q, False),
    "qr R only": (["4x3"], lambda m, x: m.linalg.qr(x).R, False),
    "qr wide": (["3x5"], lambda m, x: tuple(m.linalg.qr(x)), True),
    "qr wide R only": (["3x5"], lambda m, x: m.linalg.qr(x).R, False),
    "qr wide Q only": (["3x5"], lambda m, x: m.linalg.qr(x).Q, False),
    "qr complete wide": (["3x5"], lambda m, x: tuple(m.linalg.qr(x, mode="complete")), False),
    "solve_triangular upper": (
        ["3x3", "3x2"],
        lambda m, a, b: m.linalg.solve_triangular(triangular(m, a, True), b, upper=True),
        True,
    ),
    "solve_triangular lower raw": (
        ["3x3", "3x2"],
        lambda m, a, b: m.linalg.solve_triangular(a + 4 * m.eye(3, dtype=a.dtype), b, upper=False),
        True,
    ),
    "solve_triangular right unit": (
        ["2x3x3", "3x2"],
        lambda m, a, b: m.linalg.solve_triangular(
            a, b.mT, upper=True, left=False, unitriangular=True
        ),
        True,
    ),
    "solve_triangular broadcast": (
        ["2x3x3", "2x1x3x2"],
        lambda m, a, b: m.linalg.solve_triangular(triangular(m, a, False), b, upper=False),
        False,
    ),
    "cholesky_solve": (
        ["3x3", "3x2"],
        lambda m, a, b: m.cholesky_solve(b, m.linalg.cholesky(spd(m, a))),
        True,
    ),
    "cholesky_solve upper raw": (
        ["3x3", "3x2"],
        lambda m, a, b: m.cholesky_solve(b, triangular(m, a, True), upper=True),
        True,
    ),
    "lstsq tall": (["2x4x3", "2x4x2"], lambda m, a, b: m.linalg.lstsq(a, b).solution, True),
    "lstsq wide": (["3x5", "3x2"], lambda m, a, b: m.linalg.lstsq(a, b).solution, False),
    "lstsq vector": (["4x3", "4"], lambda m, a, b: m.linalg.lstsq(a, b).solution, False),
    "pinv tall": (["4x3"], lambda m, x: m.linalg.pinv(x), True),
    "pinv wide batch": (["2x4x3"], lambda m, x: m.linalg.pinv(x.mT), False),
    "pinv hermitian": (["3x3"], lambda m, x: m.linalg.pinv(sym(x), hermitian=True), False),
    "pinverse": (["3x5"], lambda m, x: m.pinverse(x), False),
    "matrix_exp": (["3x3"], lambda m, x: m.linalg.matrix_exp(x), True),
    "matrix_exp batch": (["2x3x3"], lambda m, x: m.linalg.matrix_exp(x), False),
    "torch.svd": (["4x3"], lambda m, x: (lambda r: (r.U * r.S) @ r.V.mT)(m.svd(x)), False),
    "torch.svd S": (["3x5"], lambda m, x: m.svd(x, compute_uv=False).S, False),
    "matrix_norm 2": (["2x4x3"], lambda m, x: m.linalg.matrix_norm(x, 2), True),
    "matrix_norm -2 keepdim": (
        ["2x4x3"],
        lambda m, x: m.linalg.matrix_norm(x, -2, keepdim=True),
        False,
    ),
    "matrix_norm nuc dims": (["2x4x3"], lambda m, x: m.linalg.matrix_norm(x, "nuc", (0, 2)), False),
    "norm 2 of a matrix": (["3x5"], lambda m, x: m.linalg.norm(x, 2), False),
    "cond": (["2x3x3"], lambda m, x: m.linalg.cond(x), True),
    "cond -2 wide": (["3x5"], lambda m, x: m.linalg.cond(x, -2), False),
    "inv_ex": (["3x3"], lambda m, x: m.linalg.inv_ex(x).inverse, False),
}


def _inputs(lib, names, requires_grad=True):
    return [lib.tensor(ARRAYS[n].copy(), requires_grad=requires_grad) for n in names]


def _outputs(result):
    return result if isinstance(result, tuple) else (result,)


def _weights(out):
    """Fixed weights per output element, the same for both libraries."""
    return np.sin(np.arange(out.numel()) + 1.0).reshape(tuple(out.shape))


def _loss(lib, outputs):
    return sum((o * lib.tensor(_weights(o))).sum() for o in outputs)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name", CASES)
def test_values_nodes_and_gradients_match_pytorch(name):
    names, fn, _ = CASES[name]
    results = {}
    for lib in (mg, torch):
        xs = _inputs(lib, names)
        outs = _outputs(fn(lib, *xs))
        _loss(lib, outs).backward()
        results[lib] = (outs, [x.grad for x in xs])
    (ours, our_grads), (theirs, their_grads) = results[mg], results[torch]
    for o, t in zip(ours, theirs):
        assert tuple(o.shape) == tuple(t.shape) and o.dtype.name == str(t.dtype)[6:]
        np.testing.assert_allclose(o.detach().numpy(), t.detach().numpy(), atol=1e-9, rtol=1e-7)
        assert _node(o) == _node(t)
    for g, tg in zip(our_grads, their_grads):
        np.testing.assert_allclose(g.numpy(), tg.numpy(), atol=1e-8, rtol=1e-6)


def _node(t):
    return None if t.grad_fn is None else t.grad_fn.name()


@pytest.mark.parametrize("name", [n for n, case in CASES.items() if case[2]])
def test_gradcheck_and_gradgradcheck(name):
    names, fn, _ = CASES[name]
    xs = _inputs(mg, names)

    def f(*xs):
        return fn(mg, *xs)

    assert mg.autograd.gradcheck(f, xs, check_forward_ad=True)
    assert mg.autograd.gradgradcheck(f, xs)


# forward mode of a Cholesky factor reading one triangle of a non-symmetric A: PyTorch's rule
# (and ours) takes the whole t_A, so finite differences of the raw input disagree by design
_RAW = ("cholesky raw lower", "cholesky raw upper")


@pytest.mark.parametrize("name", [n for n, c in CASES.items() if not c[2] and n not in _RAW])
def test_forward_mode_matches_finite_differences(name):
    names, fn, _ = CASES[name]

    def f(*xs):
        return fn(mg, *xs)

    assert mg.autograd.gradcheck(f, _inputs(mg, names), check_forward_ad=True)
