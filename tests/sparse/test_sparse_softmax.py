"""sparse.softmax and sparse.log_softmax: forward against a masked dense softmax (unstored = -inf),
gradcheck on the stored values, empty rows, duplicates, stability, n-D COO, bad input."""

import numpy as np
import pytest
from attention_cases import CASE_IDS, CASES, dense, masked_softmax, sparse, stored

import minigrad as mg
from minigrad.autograd import gradcheck

FUNCS = [(mg.sparse.softmax, False), (mg.sparse.log_softmax, True)]
FUNC_IDS = ["softmax", "log_softmax"]


def _expected(case, dim, log):
    return masked_softmax(dense(case), stored(case), axis=dim, log=log)


@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("fn, log", FUNCS, ids=FUNC_IDS)
@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_forward_is_a_softmax_over_the_stored_entries(case, fn, log, dim):
    S = sparse(case)
    out = fn(S, dim)
    assert out.layout == S.layout and out.shape == S.shape
    coalesced = S.coalesce() if S.layout == "sparse_coo" else S
    assert out.nnz == coalesced.nnz  # the pattern is kept: nothing is stored where S stores nothing
    np.testing.assert_allclose(out.to_dense().detach().numpy(), _expected(case, dim % 2, log))


@pytest.mark.parametrize("dim", [0, 1])
@pytest.mark.parametrize("fn, log", FUNCS, ids=FUNC_IDS)
@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_gradcheck_on_the_stored_values(case, fn, log, dim):
    S = sparse(case, requires_grad=True)
    r = mg.tensor(np.random.default_rng(2).standard_normal(S.shape))
    assert gradcheck(lambda s: (fn(s, dim).to_dense() * r).sum(), (S,), masked=True)
    assert gradcheck(lambda s: fn(s, dim)._values().sin().sum(), (S,), masked=True)


@pytest.mark.parametrize("fn, log", FUNCS, ids=FUNC_IDS)
def test_gradient_is_sparse_on_the_pattern_in_the_input_layout(fn, log):
    case = CASES[1]  # random 6x5 as CSR
    S = sparse(case, requires_grad=True)
    out = fn(S, 1)
    (out.to_dense() * mg.tensor(np.arange(30.0).reshape(6, 5))).sum().backward()
    assert S.grad.layout == "sparse_csr" and S.grad.nnz == S.nnz
    # the dense reference: minigrad's own dense softmax with -inf where nothing is stored
    x = mg.tensor(np.where(stored(case), dense(case), -np.inf), requires_grad=True)
    ref = x.log_softmax(1) if log else x.softmax(1)
    ref = mg.where(mg.tensor(stored(case)), ref, 0.0)
    (ref * mg.tensor(np.arange(30.0).reshape(6, 5))).sum().backward()
    expected = np.where(stored(case), x.grad.numpy(), 0.0)
    np.testing.assert_allclose(S.grad.to_dense().numpy(), expected, atol=1e-12)


def test_empty_row_stays_empty_and_gets_no_gradient():
    S = mg.sparse_coo_tensor([[0, 0, 2], [0, 1, 2]], [1.0, 3.0, 5.0], (3, 3), requires_grad=True)
    out = mg.sparse.softmax(S, 1)
    assert out.nnz == 3
    np.testing.assert_allclose(out.to_dense().detach().numpy()[1], 0.0)
    out._values()[0].backward()
    assert S.grad.nnz == 3 and np.all(np.isfinite(S.grad.to_dense().numpy()))


def test_duplicates_are_summed_first_as_pytorch_coalesces():
    w = mg.tensor([1.0, 2.0, 0.5], dtype=mg.float64, requires_grad=True)
    S = mg.sparse_coo_tensor([[0, 0, 0], [1, 1, 0]], w, (1, 2))  # (0, 1) stored twice
    out = mg.sparse.softmax(S, 1)
    assert out.is_coalesced() and out.nnz == 2
    np.testing.assert_allclose(
        out.values().detach().numpy(), np.exp([0.5, 3.0]) / np.exp([0.5, 3.0]).sum()
    )
    out.values()[1].backward()
    p = np.exp([0.5, 3.0]) / np.exp([0.5, 3.0]).sum()
    d_dup = p[1] * (1 - p[1])  # each copy of (0, 1) gets the gradient at its coordinate
    np.testing.assert_allclose(w.grad.numpy(), [d_dup, d_dup, -p[1] * p[0]])


@pytest.mark.parametrize("layout", ["sparse_coo", "sparse_csr"])
def test_stable_at_plus_minus_1000(layout):
    S = mg.sparse_coo_tensor([[0, 0, 1], [0, 1, 1]], [1000.0, -1000.0, 1000.0], (2, 2))
    S = S.to_sparse(layout).requires_grad_()
    y = mg.sparse.softmax(S, 1)
    ly = mg.sparse.log_softmax(S, 1)
    np.testing.assert_allclose(y._values().detach().numpy(), [1.0, 0.0, 1.0])
    np.testing.assert_allclose(ly._values().detach().numpy(), [0.0, -2000.0, 0.0])
    (y._values().sum() + ly._values().sum()).backward()
    assert np.all(np.isfinite(S.grad._values().numpy()))


def test_minus_infinity_entries():
    S = mg.sparse_coo_tensor([[0, 0, 1, 1], [0, 1, 0, 1]], [0.0, -np.inf, -np.inf, -np.inf], (2, 2))
    y = mg.sparse.softmax(S, 1).values().numpy()
    np.testing.assert_array_equal(y[:2], [1.0, 0.0])  # a stored -inf gets weight 0
    assert np.isnan(y[2:]).all()  # a row of -inf only: NaN, as a dense softmax (and PyTorch)


@pytest.mark.parametrize(
    "shape, nnz",
    [((3, 4, 2), 12), ((5, 6, 7), 5), ((2, 3, 2, 2), 9)],  # (5, 6, 7): more groups than entries
)
def test_n_dimensional_coo_along_each_dim(shape, nnz):
    rng = np.random.default_rng(3)
    idx = np.stack([rng.integers(0, s, nnz) for s in shape])
    vals = rng.standard_normal(nnz)
    S = mg.sparse_coo_tensor(idx, vals, shape, dtype=mg.float64, requires_grad=True)
    A = np.zeros(shape)
    np.add.at(A, tuple(idx), vals)
    mask = np.zeros(shape, bool)
    mask[tuple(idx)] = True
    for dim in range(len(shape)):
        for fn, log in FUNCS:
            out = fn(S, dim)
            expected = masked_softmax(A, mask, axis=dim, log=log)
            np.testing.assert_allclose(out.to_dense().detach().numpy(), expected)

            def f(s, fn=fn, dim=dim):
                return fn(s, dim).to_dense().tanh()

            assert gradcheck(f, (S,), masked=True)


def test_one_dimensional_coo():
    S = mg.sparse_coo_tensor([[0, 3]], [1.0, 2.0], (5,))
    np.testing.assert_allclose(
        mg.sparse.softmax(S, 0).values().numpy(), np.exp([1, 2]) / np.exp([1, 2]).sum(), rtol=1e-6
    )


def test_dtype_argument_casts_first():
    S = mg.sparse_coo_tensor([[0, 0], [0, 1]], [1.0, 2.0], (1, 2))
    out = mg.sparse.softmax(S, 1, dtype=mg.float64)
    assert out.dtype is mg.float64
    out32 = mg.sparse.log_softmax(S, 1)
    assert out32.dtype is mg.float32 and out32.values().numpy().dtype == np.float32


def test_float16_is_computed_in_float32():
    S = mg.sparse_coo_tensor([[0, 0], [0, 1]], [1.0, 2.0], (1, 2), dtype=mg.float16)
    out = mg.sparse.softmax(S, 1)
    assert out.dtype is mg.float16
    np.testing.assert_allclose(out.values().numpy(), [0.2689, 0.7311], atol=1e-3)


def test_graph_names_and_masked_semantics():
    S = mg.sparse_coo_tensor([[0], [0]], [1.0], (1, 1), requires_grad=True)
    assert mg.sparse.softmax(S, 1).grad_fn.name() == "SparseSoftmaxBackward0"
    assert mg.sparse.log_softmax(S, 1).grad_fn.name() == "SparseLogSoftmaxBackward0"
    assert mg.sparse.softmax(S, 1).grad_fn.grad_semantics == "masked"


@pytest.mark.parametrize(
    "fn, name",
    [
        (mg.sparse.softmax, "SparseSoftmaxBackward0"),
        (mg.sparse.log_softmax, "SparseLogSoftmaxBackward0"),
    ],
)
def test_double_backward_raises_as_pytorch(fn, name):
    S = mg.sparse_coo_tensor([[0, 0], [0, 1]], [1.0, 2.0], (1, 2), requires_grad=True)
    out = fn(S, 1)
    (g,) = mg.autograd.grad((out._values() ** 2).sum(), S, create_graph=True)
    with pytest.raises(RuntimeError, match=f"derivative for {name} is not implemented"):
        mg.sparse.sum(g).backward()


def test_without_create_graph_the_gradient_is_plain():
    S = mg.sparse_coo_tensor([[0, 0], [0, 1]], [1.0, 2.0], (1, 2), requires_grad=True)
    (g,) = mg.autograd.grad(mg.sparse.softmax(S, 1)._values()[0], S)
    assert g.grad_fn is None and not g.requires_grad


# --- bad input ---------------------------------------------------------------------------------
S2 = mg.sparse_coo_tensor([[0, 1], [1, 0]], [1.0, 2.0], (2, 2))
HYBRID = mg.sparse_coo_tensor([[0, 2]], [[1.0, 2.0], [3.0, 4.0]], (3, 2))


@pytest.mark.parametrize("fn", [mg.sparse.softmax, mg.sparse.log_softmax], ids=FUNC_IDS)
def test_bad_input(fn):
    name = fn.__name__
    with pytest.raises(
        ValueError, match=rf"sparse\.{name}: input must be a sparse tensor .*minigrad\.{name}"
    ) as info:
        fn(mg.ones(2, 2), 1)
    assert isinstance(info.value, RuntimeError)
    with pytest.raises(ValueError, match=r"input has 1 dense dim\(s\) \(shape \(3, 2\)\)"):
        fn(HYBRID, 0)
    with pytest.raises(
        IndexError,
        match=r"Dimension out of range \(expected to be in range of \[-2, 1\], but got 2\)",
    ):
        fn(S2, 2)
    with pytest.raises(TypeError, match="dim must be an int"):
        fn(S2, "1")
    with pytest.raises(
        TypeError, match=r"Expected input to be a floating-point tensor, but got int64"
    ) as info:
        fn(S2.to(mg.int64), 1)
    assert isinstance(info.value, RuntimeError)
    with pytest.raises(TypeError, match=r"argument 'input' must be Tensor, not list"):
        fn([[1.0]], 1)
