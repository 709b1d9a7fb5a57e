"""nn.functional.sparse_attention: against dense masked attention written with minigrad's dense
ops, gradcheck, empty rows, what the pattern's values mean, memory, the graph it records, bad input."""

import math
import tracemalloc

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F
from minigrad.autograd import gradcheck
from minigrad.sparse.ops_products import _CHUNK_BYTES

RNG = np.random.default_rng(0)
N, M, D, DV = 6, 5, 3, 2
MASK = RNG.random((N, M)) < 0.45
MASK[2] = False  # query 2 attends to nothing
MASK[0] = True  # query 0 to everything
LAYOUTS = ["sparse_coo", "sparse_csr", "sparse_csc"]


def pattern(layout, mask=MASK, dtype=mg.float32):
    return mg.tensor(mask.astype(np.float64)).to(dtype).to_sparse().to_sparse(layout)


def qkv(n=N, m=M, d=D, dv=DV, dtype=np.float64):
    return [
        mg.tensor(RNG.standard_normal(s).astype(dtype), requires_grad=True)
        for s in ((n, d), (m, d), (m, dv))
    ]


def dense_attention(q, k, v, mask, scale):
    """The textbook formula with minigrad's dense ops; an empty row gives zeros."""
    scores = mg.where(mg.tensor(mask), (q @ k.t()) * scale, -math.inf)
    has = mg.tensor(mask.any(1, keepdims=True))
    weights = mg.where(has, mg.where(has, scores, 0.0).softmax(1), 0.0)
    return weights @ v


@pytest.mark.parametrize("scale", [None, 0.3, 0.0])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_matches_dense_masked_attention(layout, scale):
    q, k, v = qkv()
    out = F.sparse_attention(q, k, v, pattern(layout), scale=scale)
    qd, kd, vd = (t.detach().requires_grad_() for t in (q, k, v))
    ref = dense_attention(qd, kd, vd, MASK, 1 / math.sqrt(D) if scale is None else scale)
    np.testing.assert_allclose(out.detach().numpy(), ref.detach().numpy(), atol=1e-12)
    r = mg.tensor(RNG.standard_normal((N, DV)))
    (out * r).sum().backward()
    (ref * r).sum().backward()
    for ours, theirs in ((q, qd), (k, kd), (v, vd)):
        np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy(), atol=1e-12)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_gradcheck(layout):
    q, k, v = qkv()
    P = pattern(layout)
    assert gradcheck(lambda q, k, v: F.sparse_attention(q, k, v, P).tanh(), (q, k, v))


def test_a_query_without_stored_entries_gets_a_zero_row_and_no_gradient():
    q, k, v = qkv()
    out = F.sparse_attention(q, k, v, pattern("sparse_csr"))
    np.testing.assert_array_equal(out.detach().numpy()[2], 0.0)
    out[2].sum().backward()
    np.testing.assert_array_equal(q.grad.numpy(), 0.0)


def test_values_of_the_pattern_are_ignored_only_positions_count():
    q, k, v = qkv()
    ones = F.sparse_attention(q, k, v, pattern("sparse_coo"))
    idx = np.stack(np.nonzero(MASK))
    weird = np.full(idx.shape[1], np.nan)
    weird[::2] = 0.0  # explicit zeros and NaNs: still "attend here"
    for values in (weird, np.ones(idx.shape[1], bool)):
        P = mg.sparse_coo_tensor(idx, values, (N, M))
        np.testing.assert_array_equal(
            F.sparse_attention(q, k, v, P).detach().numpy(), ones.detach().numpy()
        )


def test_duplicates_in_the_pattern_count_once():
    q, k, v = qkv()
    idx = np.stack(np.nonzero(MASK))
    twice = np.concatenate([idx, idx[:, ::3]], axis=1)
    P = mg.sparse_coo_tensor(twice, np.ones(twice.shape[1]), (N, M))
    np.testing.assert_allclose(
        F.sparse_attention(q, k, v, P).detach().numpy(),
        F.sparse_attention(q, k, v, pattern("sparse_coo")).detach().numpy(),
    )


def test_a_pattern_that_requires_grad_gets_none():
    q, k, v = qkv()
    P = pattern("sparse_csr", dtype=mg.float64).requires_grad_()
    F.sparse_attention(q, k, v, P).sum().backward()
    assert P.grad is None and q.grad is not None


def test_float32_and_shapes():
    q, k, v = qkv(n=4, m=7, d=5, dv=3, dtype=np.float32)
    P = pattern("sparse_csr", RNG.random((4, 7)) < 0.5)
    out = F.sparse_attention(q, k, v, P)
    assert out.shape == (4, 3) and out.dtype is mg.float32


def test_empty_inputs():
    q, k, v = qkv(n=0, m=3)
    none = np.zeros(0, np.int64)
    P = mg.sparse_csr_tensor([0], none, [], (0, 3))
    assert F.sparse_attention(q, k, v, P).shape == (0, DV)
    q, k, v = qkv(n=3, m=0)
    P = mg.sparse_csr_tensor([0, 0, 0, 0], none, [], (3, 0))
    out = F.sparse_attention(q, k, v, P)
    assert out.shape == (3, DV) and not out.detach().numpy().any()


def test_peak_memory_stays_within_a_few_times_the_pattern():
    """n = 4,000 queries, 16 keys each, d = 16: a dense score matrix alone is 64 MB."""
    n, deg, d = 4_000, 16, 16
    rng = np.random.default_rng(0)
    idx = np.stack([np.repeat(np.arange(n), deg), rng.integers(0, n, n * deg)])
    P = mg.sparse_coo_tensor(idx, np.ones(n * deg, np.float32), (n, n)).coalesce().to_sparse_csr()
    q, k, v = (
        mg.tensor(rng.standard_normal((n, d), dtype=np.float32), requires_grad=True)
        for _ in range(3)
    )
    F.sparse_attention(q[:2], k[:2], v[:2], mg.ones(2, 2).to_sparse_csr())  # warm-up: imports
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    F.sparse_attention(q, k, v, P).sum().backward()
    peak = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    dense_arrays = 4 * n * d * 4  # q.grad, k.grad, v.grad and the output (n, d each)
    chunks = 2 * _CHUNK_BYTES  # the SDDMM gathers rows of its operands in bounded chunks
    assert peak - dense_arrays - chunks < 4 * P._data.nbytes, (peak, P._data.nbytes)
    assert peak < n * n * 4 / 4  # far below one dense n x n float32 matrix


def test_graph_keeps_the_pattern_and_nothing_densifies():
    q, k, v = qkv()
    out = F.sparse_attention(q, k, v, pattern("sparse_csr"))
    nodes = mg.trace.graph(out).nodes
    by_name = {n.name: n for n in nodes}
    for name in ("SparseSampledAddmmBackward0", "SparseSoftmaxBackward0"):
        assert by_name[name].layout == "sparse_csr" and by_name[name].nnz == int(MASK.sum())
        assert by_name[name].grad_semantics == "masked"
    assert by_name["SparseMmBackward0"].grad_semantics == "masked"
    with mg.sparse.config(densify="auto", on_densify="error"):  # any densification would raise
        report = mg.sparse.memory_report(out.sum())
    assert report.densifications == []
    assert report.peak_grad_bytes < N * M * 8 + 3 * N * D * 8


# --- bad input ---------------------------------------------------------------------------------
Q, K, V = mg.ones(3, 4), mg.ones(5, 4), mg.ones(5, 2)
P = mg.sparse_csr_tensor([0, 1, 1, 2], [0, 4], [1.0, 1.0], (3, 5))

VALUE_ERRORS = [
    (
        lambda: F.sparse_attention(Q, K, V, P.to_dense()),
        r"pattern must be a sparse tensor .*got a strided",
    ),
    (
        lambda: F.sparse_attention(Q, K, V, P.t()),
        r"pattern has shape \(5, 3\), but q and k need an \(n, m\) = \(3, 5\) pattern",
    ),
    (
        lambda: F.sparse_attention(
            Q, K, V, mg.sparse_coo_tensor([[0], [0], [0]], [1.0], (3, 5, 1))
        ),
        r"pattern must be a sparse 2-D matrix",
    ),
    (lambda: F.sparse_attention(Q[0], K, V, P), r"q must be 2-D \(n, d\), got shape \(4,\)"),
    (
        lambda: F.sparse_attention(Q, K[None], V, P),
        r"k must be 2-D \(m, d\), got shape \(1, 5, 4\)",
    ),
    (
        lambda: F.sparse_attention(Q, mg.ones(5, 3), V, P),
        r"q has d = 4 features per query but k has 3",
    ),
    (lambda: F.sparse_attention(Q, K, mg.ones(4, 2), P), r"k has 5 keys but v has 4 values"),
    (lambda: F.sparse_attention(Q.to_sparse(), K, V, P), r"Expected q to have strided layout"),
]
TYPE_ERRORS = [
    (
        lambda: F.sparse_attention(Q, K, V.double(), P),
        r"Expected q and v to have the same dtype, but got float32 and float64",
    ),
    (
        lambda: F.sparse_attention(Q.long(), K.long(), V.long(), P),
        r"Expected q to be a floating-point tensor",
    ),
    (lambda: F.sparse_attention(Q.numpy(), K, V, P), r"argument 'q' must be Tensor, not ndarray"),
    (
        lambda: F.sparse_attention(Q, K, V, P, scale="0.5"),
        r"scale must be a number or None, got str",
    ),
]


@pytest.mark.parametrize("fn, match", VALUE_ERRORS)
def test_shape_and_layout_errors(fn, match):
    with pytest.raises(ValueError, match=match) as info:
        fn()
    assert isinstance(info.value, RuntimeError) and "sparse_attention" in str(info.value)


@pytest.mark.parametrize("fn, match", TYPE_ERRORS)
def test_type_errors(fn, match):
    with pytest.raises(TypeError, match=match):
        fn()
