"""sparse.sampled_addmm: forward against the dense formula, gradcheck on the stored values and
the dense operands, the gradient's pattern and layout, memory (no dense product), bad input."""

import tracemalloc

import numpy as np
import pytest
from attention_cases import CASE_IDS, CASES, dense, sparse, stored

import minigrad as mg
from minigrad.autograd import gradcheck

RNG = np.random.default_rng(1)
K = 3
SCALES = [(1.0, 1.0), (0.5, 2.0), (0.0, -1.5)]


def operands(case, k=K):
    n, m = case[4]
    a = mg.tensor(RNG.standard_normal((n, k)), requires_grad=True)
    b = mg.tensor(RNG.standard_normal((k, m)), requires_grad=True)
    return a, b


@pytest.mark.parametrize("beta, alpha", SCALES)
@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_forward_is_the_dense_formula_at_the_stored_entries(case, beta, alpha):
    S = sparse(case)
    a, b = operands(case)
    out = mg.sparse.sampled_addmm(S, a, b, beta=beta, alpha=alpha)
    assert out.layout == S.layout and out.shape == S.shape
    expected = np.where(stored(case), beta * dense(case) + alpha * (a._data @ b._data), 0.0)
    np.testing.assert_allclose(out.to_dense().detach().numpy(), expected, atol=1e-12)
    coalesced = S.coalesce() if S.layout == "sparse_coo" else S
    assert out.nnz == coalesced.nnz  # one entry per stored coordinate, duplicates merged


@pytest.mark.parametrize("beta, alpha", SCALES)
@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_gradcheck_on_stored_values_and_dense_operands(case, beta, alpha):
    S = sparse(case, requires_grad=True)
    a, b = operands(case)

    def f(s, a, b):
        return mg.sparse.sampled_addmm(s, a, b, beta=beta, alpha=alpha).to_dense().tanh()

    assert gradcheck(f, (S, a, b), masked=True)


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_gradcheck_through_values(case):
    """``_values()`` sends the gradient on the result's own index arrays (the fast path)."""
    S = sparse(case, requires_grad=True)
    a, b = operands(case)

    def f(s, a, b):
        return (mg.sparse.sampled_addmm(s, a, b, beta=0.3, alpha=1.7)._values() ** 2).sum()

    assert gradcheck(f, (S, a, b), masked=True)


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_gradient_of_input_lives_on_its_pattern(case):
    S = sparse(case, requires_grad=True)
    a, b = operands(case)
    out = mg.sparse.sampled_addmm(S, a, b, beta=0.5)
    g = RNG.standard_normal(out.nnz)
    (out._values() * mg.tensor(g)).sum().backward()
    assert S.grad.layout == S.layout
    coalesced = S.coalesce() if S.layout == "sparse_coo" else S
    assert S.grad.nnz == coalesced.nnz
    grad_dense = mg.sparse_coo_tensor(out.detach().to_sparse_coo()._indices(), g, out.shape)
    grad_dense = grad_dense.to_dense()  # the gradient of the result, dense
    np.testing.assert_allclose(S.grad.to_dense().numpy(), 0.5 * grad_dense.numpy())
    np.testing.assert_allclose(a.grad.numpy(), grad_dense.numpy() @ b._data.T, atol=1e-12)
    np.testing.assert_allclose(b.grad.numpy(), a._data.T @ grad_dense.numpy(), atol=1e-12)


def test_duplicates_give_what_their_sum_gives():
    idx = [[0, 0, 1], [1, 1, 0]]
    S_dup = mg.sparse_coo_tensor(idx, [1.0, 2.0, 4.0], (2, 2), dtype=mg.float64)
    S_sum = mg.sparse_coo_tensor([[0, 1], [1, 0]], [3.0, 4.0], (2, 2), dtype=mg.float64)
    a = mg.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=mg.float64)
    out_dup = mg.sparse.sampled_addmm(S_dup, a, a)
    out_sum = mg.sparse.sampled_addmm(S_sum, a, a)
    assert out_dup.is_coalesced() and out_dup.nnz == 2
    np.testing.assert_array_equal(out_dup.values().numpy(), out_sum.values().numpy())


def test_learnable_values_each_duplicate_gets_the_gradient_at_its_coordinate():
    w = mg.tensor([1.0, 2.0, 4.0], dtype=mg.float64, requires_grad=True)
    S = mg.sparse_coo_tensor([[0, 0, 1], [1, 1, 0]], w, (2, 2))
    a = mg.ones(2, 2, dtype=mg.float64)
    out = mg.sparse.sampled_addmm(S, a, a, beta=3.0)
    (out.values() * mg.tensor([1.0, 10.0], dtype=mg.float64)).sum().backward()
    np.testing.assert_array_equal(w.grad.numpy(), [3.0, 3.0, 30.0])


def test_beta_zero_still_multiplies_input_as_pytorch():
    S = mg.sparse_coo_tensor([[0, 1], [0, 1]], [float("nan"), 1.0], (2, 2))
    out = mg.sparse.sampled_addmm(S, mg.ones(2, 2), mg.ones(2, 2), beta=0.0)
    values = out.values().numpy()
    assert np.isnan(values[0]) and values[1] == 2.0


def test_empty_inner_dimension_gives_beta_times_input():
    S = mg.sparse_csr_tensor([0, 1, 2], [1, 0], [2.0, 3.0], (2, 2))
    out = mg.sparse.sampled_addmm(S, mg.ones(2, 0), mg.ones(0, 2), beta=2.0)
    np.testing.assert_array_equal(out.values().numpy(), [4.0, 6.0])


def test_float32_stays_float32():
    S = mg.sparse_csr_tensor([0, 1], [0], [1.0], (1, 1))
    out = mg.sparse.sampled_addmm(S, mg.ones(1, 2), mg.ones(2, 1), beta=0.5, alpha=2.0)
    assert out.dtype is mg.float32 and out.values().numpy().dtype == np.float32


def test_never_forms_the_dense_product():
    """n = m = 100,000: the dense product would take 80 GB; the SDDMM needs a few MB."""
    n, nnz, k = 100_000, 2_000, 8
    rng = np.random.default_rng(0)
    S = mg.sparse_coo_tensor(rng.integers(0, n, (2, nnz)), np.ones(nnz, np.float32), (n, n))
    S = S.coalesce().to_sparse_csr()
    a = mg.tensor(rng.standard_normal((n, k), dtype=np.float32), requires_grad=True)
    b = mg.tensor(rng.standard_normal((k, n), dtype=np.float32), requires_grad=True)
    mg.sparse.mm(S, mg.ones(n, 1))  # warm-up: scipy is imported on first use, not traced below
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    out = mg.sparse.sampled_addmm(S, a, b)
    (out._values() ** 2).sum().backward()
    peak = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    # a.grad and b.grad are 3.2 MB each (dense, as the operands); the rest is O(nnz)
    assert peak < 16e6, f"peak {peak / 1e6:.1f} MB"


def test_second_derivative_raises_instead_of_missing_a_path():
    S = mg.sparse_csr_tensor([0, 1, 2], [1, 0], [2.0, 3.0], (2, 2))
    a = mg.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    out = mg.sparse.sampled_addmm(S, a, a.t())
    (g,) = mg.autograd.grad((out._values() ** 2).sum(), a, create_graph=True)
    with pytest.raises(RuntimeError, match="derivative for SparseSampledAddmmBackward0"):
        g.sum().backward()


def test_graph_names_and_masked_semantics():
    S = mg.sparse_csr_tensor([0, 1, 2], [1, 0], [2.0, 3.0], (2, 2), requires_grad=True)
    out = mg.sparse.sampled_addmm(S, mg.ones(2, 3), mg.ones(3, 2))
    node = out.grad_fn
    assert node.name() == "SparseSampledAddmmBackward0"  # PyTorch: SparseSampledAddmmBackward0
    assert node.grad_semantics == "masked"


# --- bad input ---------------------------------------------------------------------------------
S = mg.sparse_csr_tensor([0, 2, 3], [0, 2, 1], [1.0, 1.0, 1.0], (2, 3))
A, B = mg.ones(2, 4), mg.ones(4, 3)

VALUE_ERRORS = [
    (
        lambda: mg.sparse.sampled_addmm(S.to_dense(), A, B),
        r"input must be a sparse tensor .*strided",
    ),
    (
        lambda: mg.sparse.sampled_addmm(
            mg.sparse_coo_tensor([[0], [0], [0]], [1.0], (2, 3, 1)), A, B
        ),
        r"input must be a sparse 2-D matrix .* shape \(2, 3, 1\) with 3 sparse and 0 dense dims",
    ),
    (
        lambda: mg.sparse.sampled_addmm(
            mg.sparse_coo_tensor([[0]], [[1.0, 2.0, 3.0]], (2, 3)), A, B
        ),
        r"with 1 sparse and 1 dense dims",
    ),
    (
        lambda: mg.sparse.sampled_addmm(S, A.to_sparse(), B),
        r"Expected mat1 to have strided layout, but got sparse_coo",
    ),
    (
        lambda: mg.sparse.sampled_addmm(S, A, B.to_sparse_csr()),
        r"Expected mat2 to have strided layout",
    ),
    (
        lambda: mg.sparse.sampled_addmm(S, A[0], B),
        r"Expected mat1 to be a matrix, got 1-D tensor of shape \(4,\)",
    ),
    (lambda: mg.sparse.sampled_addmm(S, A, B[None]), r"Expected mat2 to be a matrix, got 3-D"),
    (
        lambda: mg.sparse.sampled_addmm(S, mg.ones(2, 5), B),
        r"shapes cannot be multiplied \(2x5 and 4x3\)",
    ),
    (
        lambda: mg.sparse.sampled_addmm(S, mg.ones(3, 4), B),
        r"input has shape \(2, 3\), but mat1 @ mat2 has shape \(3, 3\)",
    ),
    (lambda: mg.sparse.sampled_addmm(S, A, mg.ones(4, 2)), r"but mat1 @ mat2 has shape \(2, 2\)"),
]
TYPE_ERRORS = [
    (
        lambda: mg.sparse.sampled_addmm(S, A.double(), B),
        r"Expected mat1 and mat2 to have the same dtype, but got float64 and float32",
    ),
    (
        lambda: mg.sparse.sampled_addmm(S.double(), A, B),
        r"Expected mat1 and input to have the same dtype, but got float32 and float64",
    ),
    (
        lambda: mg.sparse.sampled_addmm(S.to(mg.int64), A.long(), B.long()),
        r"Expected mat1 to be a floating-point tensor, but got int64",
    ),
    (
        lambda: mg.sparse.sampled_addmm(S, A.numpy(), B),
        r"argument 'mat1' must be Tensor, not ndarray",
    ),
    (lambda: mg.sparse.sampled_addmm([[1.0]], A, B), r"argument 'input' must be Tensor, not list"),
    (
        lambda: mg.sparse.sampled_addmm(S, A, B, beta="1"),
        r"argument 'beta' must be a number, not str",
    ),
]


@pytest.mark.parametrize("fn, match", VALUE_ERRORS)
def test_shape_and_layout_errors_are_value_and_runtime_errors(fn, match):
    with pytest.raises(ValueError, match=match) as info:
        fn()
    assert isinstance(info.value, RuntimeError) and "sampled_addmm" in str(info.value)


@pytest.mark.parametrize("fn, match", TYPE_ERRORS)
def test_dtype_and_argument_errors_are_type_errors(fn, match):
    with pytest.raises(TypeError, match=match):
        fn()
