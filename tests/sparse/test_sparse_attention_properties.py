"""Property tests of sampled_addmm, softmax and sparse_attention over random patterns: any shape
(zero-size included), nnz from 0 up, indices from small ranges (so duplicates and empty rows
are common), every layout; numpy and minigrad's dense ops as oracles, values and gradients."""

import numpy as np
from attention_cases import masked_softmax
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad as mg
import minigrad.nn.functional as F

PROPERTY = settings(max_examples=60, deadline=None)
LAYOUTS = st.sampled_from(["sparse_coo", "sparse_csr", "sparse_csc"])


@st.composite
def patterns(draw, max_side=5):
    """(indices, values, shape, layout): a random (n, m) pattern, usually with duplicates."""
    n, m = draw(st.integers(0, max_side)), draw(st.integers(0, max_side))
    nnz = 0 if n * m == 0 else draw(st.integers(0, 2 * n * m))
    rows = draw(st.lists(st.integers(0, max(n - 1, 0)), min_size=nnz, max_size=nnz))
    cols = draw(st.lists(st.integers(0, max(m - 1, 0)), min_size=nnz, max_size=nnz))
    vals = draw(st.lists(st.floats(-3, 3), min_size=nnz, max_size=nnz))
    idx = np.array([rows, cols], dtype=np.int64).reshape(2, nnz)
    return idx, np.array(vals, dtype=np.float64), (n, m), draw(LAYOUTS)


def build(p, requires_grad=False):
    idx, vals, shape, layout = p
    s = mg.sparse_coo_tensor(idx, vals, shape, dtype=mg.float64).to_sparse(layout)
    return s.requires_grad_() if requires_grad else s


def dense_and_mask(p):
    idx, vals, shape, _ = p
    A, mask = np.zeros(shape), np.zeros(shape, bool)
    np.add.at(A, tuple(idx), vals)
    mask[tuple(idx)] = True
    return A, mask


@PROPERTY
@given(patterns(), st.integers(0, 1), st.booleans())
def test_softmax_matches_the_masked_dense_softmax(p, dim, log):
    S = build(p, requires_grad=True)
    A, mask = dense_and_mask(p)
    fn = mg.sparse.log_softmax if log else mg.sparse.softmax
    out = fn(S, dim)
    np.testing.assert_allclose(
        out.to_dense().detach().numpy(), masked_softmax(A, mask, dim, log), atol=1e-12
    )
    # gradient: minigrad's dense softmax with -inf at the unstored positions as the oracle
    r = np.random.default_rng(0).standard_normal(A.shape)
    (out.to_dense() * mg.tensor(r)).sum().backward()
    x = mg.tensor(np.where(mask, A, -np.inf), requires_grad=True)
    ref = x.log_softmax(dim) if log else x.softmax(dim)
    mg.where(mg.tensor(mask), ref * mg.tensor(r), 0.0).sum().backward()
    expected = np.where(mask, x.grad.numpy(), 0.0)
    np.testing.assert_allclose(S.grad.to_dense().numpy(), expected, atol=1e-10)
    assert S.grad.layout == S.layout


@PROPERTY
@given(patterns(), st.integers(0, 3), st.floats(-2, 2), st.floats(-2, 2))
def test_sampled_addmm_matches_the_dense_formula(p, k, beta, alpha):
    S = build(p, requires_grad=True)
    A, mask = dense_and_mask(p)
    n, m = A.shape
    rng = np.random.default_rng(1)
    a = mg.tensor(rng.standard_normal((n, k)), requires_grad=True)
    b = mg.tensor(rng.standard_normal((k, m)), requires_grad=True)
    out = mg.sparse.sampled_addmm(S, a, b, beta=beta, alpha=alpha)
    expected = np.where(mask, beta * A + alpha * (a._data @ b._data), 0.0)
    np.testing.assert_allclose(out.to_dense().detach().numpy(), expected, atol=1e-12)
    r = rng.standard_normal((n, m))
    (out.to_dense() * mg.tensor(r)).sum().backward()
    G = np.where(mask, r, 0.0)  # the gradient of the result, on the pattern
    np.testing.assert_allclose(a.grad.numpy(), alpha * G @ b._data.T, atol=1e-10)
    np.testing.assert_allclose(b.grad.numpy(), alpha * a._data.T @ G, atol=1e-10)
    np.testing.assert_allclose(S.grad.to_dense().numpy(), beta * G, atol=1e-12)


@PROPERTY
@given(patterns(), st.integers(1, 3), st.integers(1, 3))
def test_sparse_attention_matches_dense_masked_attention(p, d, dv):
    P = build(p)
    _, mask = dense_and_mask(p)
    n, m = mask.shape
    rng = np.random.default_rng(2)
    q0, k0, v0 = (rng.standard_normal(s) for s in ((n, d), (m, d), (m, dv)))
    q, k, v = (mg.tensor(x, requires_grad=True) for x in (q0, k0, v0))
    out = F.sparse_attention(q, k, v, P)
    r = mg.tensor(rng.standard_normal((n, dv)))
    (out * r).sum().backward()

    qd, kd, vd = (mg.tensor(x, requires_grad=True) for x in (q0, k0, v0))
    scores = mg.where(mg.tensor(mask), (qd @ kd.t()) / np.sqrt(d), -np.inf)
    has = mg.tensor(mask.any(1, keepdims=True))  # an empty row: weights 0, not NaN
    weights = mg.where(has, mg.where(has, scores, 0.0).softmax(1), 0.0)
    ref = weights @ vd
    (ref * r).sum().backward()
    np.testing.assert_allclose(out.detach().numpy(), ref.detach().numpy(), atol=1e-12)
    for ours, theirs in ((q, qd), (k, kd), (v, vd)):
        np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy(), atol=1e-10)
