"""mg.sparse.memory_report: gradient memory of one backward pass."""

import pytest
from sparse_test_helpers import RowPick

import minigrad as mg


def test_report_of_a_row_sparse_gradient():
    W = mg.randn(1000, 8, requires_grad=True)
    V = mg.randn(8, 3, requires_grad=True)
    r = mg.sparse.memory_report((RowPick.apply(W, [1, 2, 1, 7]) @ V).sum())
    by_shape = {desc: (layout, nnz, b, d) for desc, layout, nnz, b, d in r.leaf_grads}
    assert by_shape["leaf [1000, 8]"] == ("sparse_coo", 4, 4 * (8 + 8 * 4), 1000 * 8 * 4)
    assert by_shape["leaf [8, 3]"][0] == "strided"
    assert r.sparse_bytes == 160 and r.dense_equivalent_bytes == 32000
    assert r.saving_rate == pytest.approx(1 - 160 / 32000)
    assert r.peak_grad_bytes >= r.sparse_bytes + 96
    assert r.accumulations == {"none+sparse": 1} and r.densifications == []
    text = str(r)
    assert "saving 99.5%" in text and "densifications: 0" in text
    assert W.grad is not None and W.grad.layout != "strided"  # the report ran the real backward


def test_report_counts_conversions_and_densifications():
    W = mg.randn(10, 4, requires_grad=True)
    r = mg.sparse.memory_report((W @ RowPick.apply(W, [1, 2]).sum(0)).sum())
    assert [e.rule for e in r.densifications] == ["dense_met_sparse"]
    assert r.conversions >= 1 and r.conversion_seconds > 0
    assert 0 < r.conversion_overhead < 1
    assert "a dense gradient met a sparse one" in str(r)


def test_report_of_a_dense_model_has_no_sparse_part():
    x = mg.randn(3, requires_grad=True)
    r = mg.sparse.memory_report((x * x).sum())
    assert r.sparse_bytes == 0 and r.saving_rate == 0.0
    assert r.peak_grad_bytes == 24  # both factors of x * x send 12 bytes before they are summed
