"""Every sparse op against its dense equivalent, driven by one table (test_sparse_ops_cases.OPS).

For each op, shape (empty ones included) and layout (COO, CSR, CSC; with duplicates):
the values match the dense computation; S's gradient is the dense gradient masked to
S's pattern (masked ops: sparse, S's layout, one entry per stored coordinate) or the
dense gradient itself (full ops); the dense operand's gradient matches. Then gradcheck
in float64 on the stored values (masked) or on every position (full).
"""

import numpy as np
import pytest
from test_sparse_ops_cases import LAYOUTS, OPS, SHAPES, make, mask_of

import minigrad as mg
from minigrad.sparse.ops_products import rows_cols

IDS = [row[0] for row in OPS]


def _dense(t):
    return t._data.to_dense() if t.layout != "strided" else t.detach().numpy()


def _as_dense_output(out, masked=True):
    """A sparse result densified; a full op's gradient must arrive full (masked_grad=False)."""
    return out.to_dense(masked_grad=masked) if out.layout != "strided" else out


def _operands(row, shape, layout, seed=0):
    name, op, dense_op, dshape, semantics = row
    S, coords = make(shape, layout, seed=seed)
    A = mg.tensor(S._data.to_dense(), requires_grad=True)
    D = D2 = None
    if dshape is not None:
        d = np.random.default_rng(seed + 1).standard_normal(dshape(*S.shape))
        D, D2 = mg.tensor(d, requires_grad=True), mg.tensor(d.copy(), requires_grad=True)
    return S, coords, A, D, D2


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("row", OPS, ids=IDS)
def test_op_matches_its_dense_equivalent(row, shape, layout):
    name, op, dense_op, dshape, semantics = row
    S, coords, A, D, D2 = _operands(row, shape, layout)
    out, ref = op(S, D), dense_op(A, D2)
    assert out.shape == ref.shape and out.dtype is ref.dtype
    np.testing.assert_allclose(_dense(out), ref.data, rtol=1e-12, atol=1e-12)

    weights = mg.tensor(np.random.default_rng(2).standard_normal(ref.shape))
    (_as_dense_output(out, semantics == "masked") * weights).sum().backward()
    (ref * weights).sum().backward()

    assert S.grad is not None  # zeros, never None, also for nnz = 0 and empty dims
    if semantics == "masked":
        mask = mask_of(coords, S.shape)
        assert S.grad.layout != "strided" and S.grad.layout == S.layout
        assert S.grad.nnz == int(mask.sum())  # one entry per coordinate: duplicates share it
        assert (mask_of(np.stack(rows_cols(S.grad._data)), S.shape) == mask).all()
        np.testing.assert_allclose(_dense(S.grad), A.grad.numpy() * mask, atol=1e-12)
    else:
        assert S.grad.layout == "strided"
        np.testing.assert_allclose(S.grad.numpy(), A.grad.numpy(), atol=1e-12)
    if D is not None:
        np.testing.assert_allclose(_dense(D.grad), D2.grad.numpy(), atol=1e-12)


class DenseGrad(mg.autograd.Function):
    """Identity whose backward densifies a sparse gradient: gradcheck reads gradients of
    dense inputs as arrays, and S * D sends D a sparse one (as PyTorch does)."""

    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def backward(ctx, g):
        return g.to_dense(masked_grad=False) if g.layout != "strided" else g


@pytest.mark.parametrize("layout", ["coo+dup", "csr", "csc"])
@pytest.mark.parametrize("row", OPS, ids=IDS)
def test_gradcheck(row, layout):
    name, op, dense_op, dshape, semantics = row
    S, _, _, D, _ = _operands(row, (3, 4), layout, seed=5)
    inputs = (S,) if D is None else (S, D)

    def f(*args):
        out = op(args[0], DenseGrad.apply(args[1]) if len(args) > 1 else None)
        return _as_dense_output(out, semantics == "masked")

    assert mg.autograd.gradcheck(f, inputs, masked=semantics == "masked")


@pytest.mark.parametrize("layout", ["coo+dup", "csr+dup"])
@pytest.mark.parametrize("row", OPS, ids=IDS)
def test_duplicates_give_the_coalesced_results(row, layout):
    name, op, _, dshape, semantics = row
    S, *_ = _operands(row, (4, 5), layout, seed=9)
    C = S._data.coalesce() if S.layout == "sparse_coo" else S._data.sum_duplicates()
    C = mg.sparse.SparseTensor._make(C, True, None)
    assert C.nnz < S.nnz  # the duplicates are really there
    outs, grads = [], []
    for X in (S, C):
        D = None
        if dshape is not None:
            d = np.random.default_rng(1).standard_normal(dshape(*X.shape))
            D = mg.tensor(d, requires_grad=True)
        out = op(X, D)
        _as_dense_output(out, semantics == "masked").sum().backward()
        outs.append(_dense(out))
        grads.append([_dense(X.grad)] + ([] if D is None else [_dense(D.grad)]))
    np.testing.assert_allclose(outs[0], outs[1], atol=1e-12)
    for g0, g1 in zip(*grads):
        np.testing.assert_allclose(g0, g1, atol=1e-12)


@pytest.mark.parametrize("dtype", [mg.float32, mg.float16, mg.int64])
def test_products_keep_the_dtype(dtype):
    S, _ = make((4, 5), "csr", dtype=dtype, requires_grad=False)
    D = mg.ones(5, 2, dtype=dtype)
    for out in (mg.sparse.mm(S, D), S @ D, mg.sparse.addmm(mg.zeros(4, 2, dtype=dtype), S, D)):
        assert out.dtype is dtype
        np.testing.assert_allclose(
            out.detach().numpy(), S._data.to_dense() @ D.detach().numpy(), rtol=1e-2
        )
