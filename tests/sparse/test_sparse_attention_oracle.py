"""PyTorch as oracle for sparse.sampled_addmm and sparse.softmax / log_softmax: values, gradients
(of the sparse input's values and of the dense operands) and error types.

PyTorch 2.13 on the CPU runs sampled_addmm on CSR inputs only and sparse.softmax on COO
only; minigrad accepts every sparse layout for both, and each is compared against the
layout PyTorch has.
"""

import numpy as np
import pytest
from attention_cases import CASE_IDS, CASES, sparse

import minigrad as mg

torch = pytest.importorskip("torch")

pytestmark = [
    pytest.mark.oracle,
    pytest.mark.filterwarnings("ignore:Sparse CSR tensor support is in beta state"),
    pytest.mark.filterwarnings("ignore:Sparse invariant checks are implicitly disabled"),
]
RNG = np.random.default_rng(5)


def torch_sparse(case, layout):
    """The case in torch: coalesced COO, or CSR."""
    _, _, idx, val, shape = case
    s = torch.sparse_coo_tensor(torch.tensor(idx), torch.tensor(val), shape).coalesce()
    return s.to_sparse_csr() if layout == "csr" else s


def dense_of(t):
    return t.detach().to_dense().numpy()


@pytest.mark.parametrize("beta, alpha", [(1.0, 1.0), (0.5, -2.0), (0.0, 3.0)])
@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_sampled_addmm_values_and_gradients(case, beta, alpha):
    n, m = case[4]
    a0, b0 = RNG.standard_normal((n, 4)), RNG.standard_normal((4, m))
    S = sparse(case, requires_grad=True)
    a, b = mg.tensor(a0, requires_grad=True), mg.tensor(b0, requires_grad=True)
    out = mg.sparse.sampled_addmm(S, a, b, beta=beta, alpha=alpha)

    St = torch_sparse(case, "csr").requires_grad_()
    at, bt = torch.tensor(a0, requires_grad=True), torch.tensor(b0, requires_grad=True)
    out_t = torch.sparse.sampled_addmm(St, at, bt, beta=beta, alpha=alpha)
    np.testing.assert_allclose(dense_of(out), dense_of(out_t), rtol=1e-12, atol=1e-12)

    r = RNG.standard_normal(out_t._nnz())  # one weight per stored entry, in row-major order
    (out.to_sparse_coo().coalesce().values() * mg.tensor(r)).sum().backward()
    (out_t.values() * torch.tensor(r)).sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), at.grad.numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(b.grad.numpy(), bt.grad.numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(dense_of(S.grad), dense_of(St.grad), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("dim", [0, 1])
@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_softmax_values_and_gradients(case, name, dim):
    S = sparse(case, requires_grad=True)
    out = getattr(mg.sparse, name)(S, dim)
    St = torch_sparse(case, "coo").requires_grad_()
    out_t = getattr(torch.sparse, name)(St, dim)
    np.testing.assert_allclose(dense_of(out), dense_of(out_t), rtol=1e-12, atol=1e-12)

    r = RNG.standard_normal(case[4])
    (out.to_dense() * mg.tensor(r)).sum().backward()
    (out_t.to_dense() * torch.tensor(r)).sum().backward()
    np.testing.assert_allclose(dense_of(S.grad), dense_of(St.grad), rtol=1e-10, atol=1e-12)


def test_softmax_of_uncoalesced_coo_with_learnable_values():
    idx = np.array([[0, 1, 0, 2, 1, 0], [1, 0, 1, 2, 0, 3]])
    w0 = RNG.standard_normal(6)
    w = mg.tensor(w0, requires_grad=True)
    out = mg.sparse.softmax(mg.sparse_coo_tensor(idx, w, (3, 4)), 1)
    wt = torch.tensor(w0, requires_grad=True)
    out_t = torch.sparse.softmax(torch.sparse_coo_tensor(torch.tensor(idx), wt, (3, 4)), 1)
    np.testing.assert_allclose(dense_of(out), dense_of(out_t), rtol=1e-12)
    r = RNG.standard_normal((3, 4))
    (out.to_dense() * mg.tensor(r)).sum().backward()
    (out_t.to_dense() * torch.tensor(r)).sum().backward()
    np.testing.assert_allclose(w.grad.numpy(), wt.grad.numpy(), rtol=1e-10, atol=1e-12)


def test_softmax_three_dimensional_coo():
    rng = np.random.default_rng(4)
    shape = (3, 4, 2)
    idx = np.stack([rng.integers(0, s, 10) for s in shape])
    v0 = rng.standard_normal(10)
    for dim in range(3):
        S = mg.sparse_coo_tensor(idx, v0, shape, dtype=mg.float64, requires_grad=True)
        St = torch.sparse_coo_tensor(torch.tensor(idx), torch.tensor(v0), shape).requires_grad_()
        out, out_t = mg.sparse.softmax(S, dim), torch.sparse.softmax(St, dim)
        np.testing.assert_allclose(dense_of(out), dense_of(out_t), rtol=1e-12)
        r = rng.standard_normal(shape)
        (out.to_dense() * mg.tensor(r)).sum().backward()
        (out_t.to_dense() * torch.tensor(r)).sum().backward()
        np.testing.assert_allclose(dense_of(S.grad), dense_of(St.grad), rtol=1e-10, atol=1e-12)


def test_float32_softmax_and_sampled_addmm_agree_to_float32_precision():
    case = CASES[1]
    S = sparse(case, dtype=mg.float32)
    St = torch_sparse(case, "csr").float()
    a0 = RNG.standard_normal((case[4][0], 8)).astype(np.float32)
    b0 = RNG.standard_normal((8, case[4][1])).astype(np.float32)
    out = mg.sparse.softmax(mg.sparse.sampled_addmm(S, mg.tensor(a0), mg.tensor(b0)), 1)
    scores_t = torch.sparse.sampled_addmm(St, torch.tensor(a0), torch.tensor(b0))
    out_t = torch.sparse.softmax(scores_t.to_sparse_coo(), 1)
    assert out.dtype is mg.float32
    np.testing.assert_allclose(dense_of(out), dense_of(out_t), rtol=1e-5, atol=1e-6)


# --- error types: the same exception class as PyTorch where PyTorch has the case ----------------
def _both(mg_fn, torch_fn):
    errors = []
    for fn in (mg_fn, torch_fn):
        with pytest.raises(Exception) as info:
            fn()
        errors.append(info.value)
    return errors


S_MG = mg.sparse_csr_tensor([0, 2, 3], [0, 2, 1], [1.0, 1.0, 1.0], (2, 3))
ERROR_CASES = [
    ("inner shapes", lambda m, s: m.sparse.sampled_addmm(s, m.ones(2, 5), m.ones(4, 3))),
    ("input shape", lambda m, s: m.sparse.sampled_addmm(s, m.ones(3, 4), m.ones(4, 3))),
    ("dtype", lambda m, s: m.sparse.sampled_addmm(s, m.ones(2, 4, dtype=m.float64), m.ones(4, 3))),
    ("1-D mat1", lambda m, s: m.sparse.sampled_addmm(s, m.ones(4), m.ones(4, 3))),
    ("sparse mat1", lambda m, s: m.sparse.sampled_addmm(s, m.ones(2, 4).to_sparse(), m.ones(4, 3))),
    ("softmax dim", lambda m, s: m.sparse.softmax(s.to_sparse_coo() if m is torch else s, 2)),
]


@pytest.mark.parametrize("name, call", ERROR_CASES, ids=[c[0] for c in ERROR_CASES])
def test_error_types_match_pytorch(name, call):
    s_torch = torch.sparse_csr_tensor([0, 2, 3], [0, 2, 1], [1.0, 1.0, 1.0], (2, 3))
    ours, theirs = _both(lambda: call(mg, S_MG), lambda: call(torch, s_torch))
    assert isinstance(ours, type(theirs)), (type(ours), type(theirs), str(theirs))
