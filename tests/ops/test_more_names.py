"""PyTorch's names without a gradient, or outside the op table: index helpers
(``tril_indices triu_indices bucketize searchsorted``), logical ops and module-level
comparisons, the in-place ``addcmul_ addcdiv_ clamp_min_ clamp_max_ clip_``, ``sgn``,
``is_nonzero`` and ``ndimension``; each compared with numpy here and with PyTorch in the
oracle tests (same code, ``m`` the library).
"""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg

SEQ = [1.0, 3.0, 3.0, 5.0, 7.0]
VALS = [[0.0, 3.0, 6.0], [3.0, 8.0, -1.0]]

CASES = {
    "tril_indices(4, 3)": lambda m: m.tril_indices(4, 3),
    "tril_indices(3, 3, -1)": lambda m: m.tril_indices(3, 3, -1),
    "triu_indices(3, 4, 1)": lambda m: m.triu_indices(3, 4, 1),
    "triu_indices int32": lambda m: m.triu_indices(2, 2, dtype=m.int32),
    "searchsorted": lambda m: m.searchsorted(m.tensor(SEQ), m.tensor(VALS)),
    "searchsorted right": lambda m: m.searchsorted(m.tensor(SEQ), m.tensor(VALS), right=True),
    "searchsorted side int32": lambda m: m.searchsorted(
        m.tensor(SEQ), m.tensor(VALS), side="right", out_int32=True
    ),
    "searchsorted rows": lambda m: m.searchsorted(
        m.tensor([SEQ, [0.0, 1, 2, 3, 4]]), m.tensor(VALS)
    ),
    "bucketize": lambda m: m.bucketize(m.tensor(VALS), m.tensor(SEQ)),
    "bucketize right": lambda m: m.bucketize(m.tensor(VALS), m.tensor(SEQ), right=True),
    "logical_and": lambda m: m.logical_and(m.tensor([0.0, 1.0, 2.0]), m.tensor([1, 0, 3])),
    "logical_or": lambda m: m.tensor([0, 0, 2]).logical_or(m.tensor([0.0, 1.0, 0.0])),
    "logical_xor": lambda m: m.logical_xor(m.tensor([True, False]), m.tensor([True, True])),
    "logical_not": lambda m: m.logical_not(m.tensor([0.0, -1.0, 2.0])),
    "eq": lambda m: m.eq(m.tensor([1.0, 2.0]), 2.0),
    "greater": lambda m: m.greater(m.tensor([1.0, 2.0]), m.tensor([2.0, 1.0])),
    "less_equal": lambda m: m.tensor([1, 2]).less_equal(1),
    "not_equal": lambda m: m.not_equal(m.tensor([1, 2]), m.tensor([1, 3])),
    "sgn": lambda m: m.sgn(m.tensor([-2.0, 0.0, 3.0])),
    "addcmul_": lambda m: m.ones(3).addcmul_(m.tensor([1.0, 2, 3]), m.tensor([2.0]), value=0.5),
    "addcdiv_": lambda m: m.ones(2, 2).addcdiv_(m.ones(2, 2), m.tensor([2.0, 4.0]), value=-1),
    "clamp_min_": lambda m: m.tensor([-1.0, 0.5, 2.0]).clamp_min_(0.0),
    "clamp_max_": lambda m: m.tensor([-1.0, 0.5, 2.0]).clamp_max_(1.0),
    "clip_": lambda m: m.tensor([-1.0, 0.5, 2.0]).clip_(-0.5, 0.5),
    "scatter_ one-hot": lambda m: m.zeros(3, 5).scatter_(1, m.tensor([[1], [4], [0]]), 1.0),
    "scatter_add_ counts": lambda m: m.zeros(4, dtype=m.int64).scatter_add_(
        0, m.tensor([1, 1, 3, 0, 1]), m.ones(5, dtype=m.int64)
    ),
    "index_add_": lambda m: m.zeros(3, 2).index_add_(0, m.tensor([2, 0, 2]), m.ones(3, 2)),
    "index_fill_": lambda m: m.ones(2, 3).index_fill_(1, m.tensor([0, 2]), 7.0),
    "bincount": lambda m: m.bincount(m.tensor([1, 1, 3, 0])),
    "bincount weights minlength": lambda m: m.bincount(
        m.tensor([1, 1, 3]), weights=m.tensor([0.5, 1.0, 2.0]), minlength=6
    ),
    "isin": lambda m: m.isin(m.tensor([1, 2, 3]), m.tensor([2, 5])),
    "isin invert": lambda m: m.isin(m.tensor([1, 2, 3]), 2, invert=True),
    "matrix_power": lambda m: m.matrix_power(m.tensor([[1.0, 2.0], [0.5, -1.0]]), 3),
    "logdet": lambda m: m.tensor([[[2.0, 1.0], [1.0, 3.0]], [[0.0, 1.0], [1.0, 0.0]]]).logdet(),
    "slogdet": lambda m: m.slogdet(m.tensor([[0.0, 2.0], [1.0, 0.0]]))[1],
    "chain_matmul": lambda m: m.chain_matmul(m.ones(2, 3), m.ones(3, 2), m.eye(2)),
    "row_stack": lambda m: m.row_stack([m.ones(3), m.zeros(2, 3)]),
    "clamp_": lambda m: m.clamp_(m.tensor([-2.0, 0.5, 3.0]), -1.0, 1.0),
    "scatter reduce multiply": lambda m: m.ones(4).scatter(
        0, m.tensor([1, 1, 2]), m.tensor([2.0, 3.0, 4.0]), reduce="multiply"
    ),
}

EXPECTED = {
    "tril_indices(4, 3)": np.stack(np.tril_indices(4, 0, 3)),
    "tril_indices(3, 3, -1)": np.stack(np.tril_indices(3, -1, 3)),
    "triu_indices(3, 4, 1)": np.stack(np.triu_indices(3, 1, 4)),
    "searchsorted": [[0, 1, 4], [1, 5, 0]],
    "searchsorted right": [[0, 3, 4], [3, 5, 0]],
    "bucketize": [[0, 1, 4], [1, 5, 0]],
    "logical_not": [True, False, False],
    "addcmul_": [2.0, 3.0, 4.0],
    "clip_": [-0.5, 0.5, 0.5],
    "scatter_ one-hot": np.eye(5)[[1, 4, 0]],
    "scatter_add_ counts": [1, 3, 0, 1],
    "index_add_": [[1.0, 1.0], [0.0, 0.0], [2.0, 2.0]],
    "bincount": [1, 2, 0, 1],
    "isin invert": [True, False, True],
}


@pytest.mark.parametrize("name", list(EXPECTED))
def test_against_numpy(name):
    np.testing.assert_array_equal(CASES[name](mg).numpy(), EXPECTED[name])


def test_in_place_addcdiv_is_recorded_and_refused_on_a_leaf():
    p = mg.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
        p.addcdiv_(mg.ones(2), mg.ones(2))
    with mg.no_grad():
        p.addcdiv_(mg.tensor([1.0, 1.0]), mg.tensor([2.0, 4.0]), value=-0.1)
    np.testing.assert_allclose(p.detach().numpy(), [0.95, 1.975], rtol=1e-6)
    y = p * 1
    y.addcmul_(p, p)
    assert y.grad_fn.name() == "AddcmulBackward0"


def test_scatter_errors_and_the_reduce_form_without_derivative():
    with pytest.raises(RuntimeError, match="out of bounds for dimension 0 with size 3"):
        mg.zeros(3, 2).scatter(0, mg.tensor([[5, 0]]), 1.0)
    with pytest.raises(RuntimeError, match="int32/int64"):
        mg.zeros(3).scatter(0, mg.tensor([1.0]), 1.0)
    with pytest.raises(IndexError, match="index out of range"):
        mg.zeros(3).index_fill(0, mg.tensor([3]), 1.0)
    x = mg.ones(3, requires_grad=True)
    with pytest.warns(UserWarning, match="reduce argument of torch.scatter"):
        out = x.scatter(0, mg.tensor([0, 0]), mg.tensor([2.0, 3.0]), reduce="add")
    assert out.tolist() == [6.0, 1.0, 1.0]
    with pytest.raises(RuntimeError, match="derivative for aten::scatter"):
        out.sum().backward()


def test_is_nonzero_and_ndimension():
    assert mg.tensor([2.0]).is_nonzero() and not mg.tensor(0).is_nonzero()
    with pytest.raises(RuntimeError, match="more than one value"):
        mg.tensor([1.0, 2.0]).is_nonzero()
    assert mg.ones(2, 3, 1).ndimension() == 3


def test_addcdiv_refuses_integers_and_bad_shapes():
    with pytest.raises(RuntimeError, match="Integer division"):
        mg.addcdiv(mg.ones(2), mg.tensor([1, 2]), mg.tensor([1, 2]))
    with pytest.raises(RuntimeError):
        mg.addcmul(mg.ones(2), mg.ones(3), mg.ones(2))
    with pytest.raises(RuntimeError, match="length 3"):
        mg.cross(mg.ones(2, 2), mg.ones(2, 2))
    with pytest.raises(RuntimeError, match="matrix"):
        mg.ones(2, 2, 2).trace()


@pytest.mark.oracle
@pytest.mark.parametrize("name", list(CASES))
def test_matches_torch(name):
    torch = pytest.importorskip("torch")
    ours, theirs = CASES[name](mg), CASES[name](torch)
    assert str(ours.dtype).split(".")[-1] == str(theirs.dtype).split(".")[-1]
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


@pytest.mark.oracle
@pytest.mark.parametrize("name", ["float16", "float32", "float64", None])
def test_finfo_matches_torch(name):
    torch = pytest.importorskip("torch")
    ours = mg.finfo(getattr(mg, name)) if name else mg.finfo()
    theirs = torch.finfo(getattr(torch, name)) if name else torch.finfo()
    assert repr(ours) == repr(theirs)
    for attr in ("bits", "eps", "max", "min", "tiny", "smallest_normal", "resolution", "dtype"):
        assert getattr(ours, attr) == getattr(theirs, attr), attr


@pytest.mark.oracle
@pytest.mark.parametrize("name", ["uint8", "int8", "int16", "int32", "int64"])
def test_iinfo_matches_torch(name):
    torch = pytest.importorskip("torch")
    ours, theirs = mg.iinfo(getattr(mg, name)), torch.iinfo(getattr(torch, name))
    assert repr(ours) == repr(theirs)
    assert (ours.bits, ours.max, ours.min, ours.dtype) == (
        theirs.bits,
        theirs.max,
        theirs.min,
        theirs.dtype,
    )


def test_finfo_and_iinfo_refuse_the_other_kind():
    with pytest.raises(TypeError, match="use torch.iinfo"):
        mg.finfo(mg.int64)
    with pytest.raises(TypeError, match="use torch.finfo"):
        mg.iinfo(mg.float32)
