"""The accumulation algebra and the densification policy (minigrad.accumulation.accumulate/config)."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sparse_test_helpers import RowPick, row_sparse

import minigrad as mg
from minigrad.accumulation.accumulate import add_gradients


def test_algebra_table():
    s1 = row_sparse([0, 2], [[1.0, 1.0], [2.0, 2.0]], (4, 2))
    s2 = row_sparse([2], [[5.0, 5.0]], (4, 2))
    d = mg.ones(4, 2)
    assert add_gradients(None, s1, into=None) is s1
    both = add_gradients(s1, s2, into=None)
    assert (
        both.layout != "strided" and both.nnz == 3 and not both._data.is_coalesced
    )  # concatenated
    np.testing.assert_array_equal(both.to_dense().detach().numpy()[2], [7.0, 7.0])
    dense_first = add_gradients(d, s1, into=None)
    assert dense_first.layout == "strided"
    np.testing.assert_array_equal(dense_first.detach().numpy()[:, 0], [2, 1, 3, 1])
    events = []
    sparse_first = add_gradients(s1, d, into=None, events=events)
    np.testing.assert_array_equal(sparse_first.detach().numpy(), dense_first.detach().numpy())
    add_gradients(d, s1, into=None, events=events)  # either order: the sparse gradient is gone
    assert [e.rule for e in events] == ["dense_met_sparse", "dense_met_sparse"]


contribution = st.tuples(
    st.booleans(),
    st.lists(st.integers(0, 5), min_size=0, max_size=6),
    st.integers(0, 2**16),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(contribution, min_size=1, max_size=5), st.randoms(use_true_random=False))
def test_every_order_gives_the_dense_sum(contribs, rnd):
    shape = (6, 3)
    tensors, dense_sum = [], np.zeros(shape, np.float32)
    for is_sparse, rows, seed in contribs:
        vals = np.random.default_rng(seed).integers(-3, 4, (len(rows), 3)).astype(np.float32)
        if is_sparse:
            t = row_sparse(rows, vals, shape)
            np.add.at(dense_sum, rows, vals)
        else:
            full = np.random.default_rng(seed).integers(-3, 4, shape).astype(np.float32)
            t = mg.tensor(full)
            dense_sum += full
        tensors.append(t)
    rnd.shuffle(tensors)
    with mg.sparse.config(densify="never"):
        acc = None
        for t in tensors:
            acc = add_gradients(acc, t, into=None)
    result = acc.to_dense().detach().numpy() if acc.layout != "strided" else acc.detach().numpy()
    np.testing.assert_array_equal(result, dense_sum)


def test_weight_tying_densifies_with_an_event_on_the_step():
    W = mg.randn(10, 4, requires_grad=True)
    h = RowPick.apply(W, [1, 2, 1, 7]).sum(0)  # sparse contribution
    loss = (W @ h).sum()  # dense contribution to the same weight
    steps = list(mg.trace.backward_steps(loss))
    events = [e for s in steps for e in s.events]
    assert [e.rule for e in events] == ["dense_met_sparse"]
    ev = events[0]
    assert ev.where.startswith("leaf of shape [10, 4]") and ev.nnz == 4
    assert ev.bytes_after == 10 * 4 * 4 and "dense gradient met a sparse one" in ev.message
    assert W.grad.layout == "strided"


def test_row_sparse_gradient_stays_sparse_and_concatenates():
    W = mg.randn(1000, 8, requires_grad=True)
    RowPick.apply(W, [1, 2, 1, 7]).sum().backward()
    assert W.grad.layout != "strided" and W.grad.nnz == 4 and not W.grad._data.is_coalesced
    assert W.grad.coalesce().nnz == 3
    RowPick.apply(W, [3]).sum().backward()
    assert W.grad.nnz == 5  # second backward: concatenated


def test_auto_densifies_when_sparse_outgrows_dense():
    W = mg.randn(4, 2, requires_grad=True)  # tiny table: 8 rows of lookups cost more than it
    with mg.sparse.config(densify="auto", on_densify=None):
        steps = list(mg.trace.backward_steps(RowPick.apply(W, [0, 1, 2, 3, 0, 1, 2, 3]).sum()))
    events = [e for s in steps for e in s.events]
    assert [e.rule for e in events] == ["outgrew_dense"] and W.grad.layout == "strided"
    assert "densify='auto'" in events[0].message


def test_by_default_a_sparse_gradient_stays_sparse_as_in_pytorch():
    assert mg.sparse.get_config().densify == "never"
    W = mg.randn(4, 2, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # and nothing is said: nothing was densified
        RowPick.apply(W, [0, 1, 2, 3, 0, 1, 2, 3]).sum().backward()
    assert W.grad.layout == "sparse_coo" and W.grad.nnz == 8


def test_the_policys_first_densification_is_announced_once(monkeypatch):
    from minigrad.accumulation import accumulate

    monkeypatch.setattr(accumulate, "_told", [False])
    assert mg.sparse.get_config().on_densify == "once"
    with mg.sparse.config(densify="auto"):
        W = mg.randn(4, 2, requires_grad=True)
        with pytest.warns(mg.sparse.DensificationWarning, match="This is said once"):
            RowPick.apply(W, [0, 1, 2, 3, 0, 1, 2, 3]).sum().backward()
        V = mg.randn(4, 2, requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # the second one is only recorded
            steps = list(mg.trace.backward_steps(RowPick.apply(V, [0, 1, 2, 3] * 2).sum()))
    assert [e.rule for s in steps for e in s.events] == ["outgrew_dense"]
    assert W.grad.layout == V.grad.layout == "strided"


def test_once_is_silent_where_pytorch_densifies_too(monkeypatch):
    from minigrad.accumulation import accumulate

    monkeypatch.setattr(accumulate, "_told", [False])
    W = mg.randn(10, 4, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # dense meets sparse: PyTorch densifies silently too
        steps = list(mg.trace.backward_steps((W @ RowPick.apply(W, [1, 2]).sum(0)).sum()))
    assert [e.rule for s in steps for e in s.events] == ["dense_met_sparse"]
    assert accumulate._told == [False]


def test_never_and_always():
    W = mg.randn(4, 2, requires_grad=True)
    with mg.sparse.config(densify="never"):
        RowPick.apply(W, [0, 1, 2, 3, 0, 1, 2, 3]).sum().backward()
    assert W.grad.layout != "strided"
    V = mg.randn(1000, 2, requires_grad=True)
    with mg.sparse.config(densify="always"):
        RowPick.apply(V, [5]).sum().backward()
    assert V.grad.layout == "strided"


def test_on_densify_warn_and_error():
    W = mg.randn(10, 4, requires_grad=True)
    with (
        mg.sparse.config(on_densify="warn"),
        pytest.warns(mg.sparse.DensificationWarning, match="It cost 48 bytes as sparse"),
    ):
        (W @ RowPick.apply(W, [1, 2]).sum(0)).sum().backward()
    W.grad = None
    with (
        mg.sparse.config(on_densify="error"),
        pytest.raises(mg.sparse.DensificationError, match="To keep it sparse"),
    ):
        (W @ RowPick.apply(W, [1, 2]).sum(0)).sum().backward()


def test_eager_coalesce():
    W = mg.randn(100, 2, requires_grad=True)
    with mg.sparse.config(coalesce="eager"):
        RowPick.apply(W, [1, 2, 1]).sum().backward()
    assert W.grad._data.is_coalesced and W.grad.nnz == 2


def test_config_validates_and_restores():
    before = mg.sparse.get_config()
    with pytest.raises(ValueError, match="densify='sometimes' is not accepted"):
        with mg.sparse.config(densify="sometimes"):
            pass
    with pytest.raises(TypeError, match="unknown setting 'threshold'"):
        mg.sparse.set_config(threshold=0.5)
    with pytest.raises(KeyError):
        with mg.sparse.config(on_densify="warn"):
            raise KeyError
    assert mg.sparse.get_config() == before


def test_break_even_is_derived_from_bytes():
    assert mg.sparse.break_even_density(2, 4) == pytest.approx(0.2)
    assert mg.sparse.break_even_density(1, 8, dense_row=1) == pytest.approx(0.5)


def test_no_warning_without_densification():
    W = mg.randn(1000, 8, requires_grad=True)
    with warnings.catch_warnings(), mg.sparse.config(on_densify="error"):
        warnings.simplefilter("error")
        RowPick.apply(W, [1, 2]).sum().backward()
    assert W.grad.layout != "strided"


def test_the_leaf_remembers_why_its_gradient_was_densified():
    W = mg.randn(10, 4, requires_grad=True)
    loss = (W @ RowPick.apply(W, [1, 2]).sum(0)).sum()
    loss.backward()
    (leaf,) = [n for n in mg.trace.graph(loss).nodes if n.kind == "leaf"]
    assert [e.rule for e in leaf.densified] == ["dense_met_sparse"]
    assert "caused by RowPickBackward" in leaf.densified[0].message


def test_eager_coalescing_is_an_event_but_not_a_densification():
    W = mg.randn(100, 2, requires_grad=True)
    with mg.sparse.config(coalesce="eager"):
        steps = list(mg.trace.backward_steps(RowPick.apply(W, [1, 2, 1]).sum()))
    (event,) = [e for s in steps for e in s.events]
    assert event.kind == "coalesced" and (event.nnz_before, event.nnz_after) == (3, 2)
    assert "coalesced (coalesce='eager'): 3 stored entries became 2" in event.message
    leaf = next(n for n in mg.trace.graph(RowPick.apply(W, [0]).sum()).nodes if n.kind == "leaf")
    assert leaf.densified == ()
