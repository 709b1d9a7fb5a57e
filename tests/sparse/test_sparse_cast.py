"""dtype casts of sparse tensors (``to``, ``float``, ``double``, ``half``, ``long``, ``type``):
values cast, pattern and layout kept, the gradient cast back (``ToCopyBackward0``)."""

import numpy as np
import pytest

import minigrad as mg
from minigrad.autograd import gradcheck


def sample(layout="sparse_coo", dtype=mg.float32, requires_grad=False):
    d = mg.tensor([[0.0, 1.5, 0.0], [2.0, 0.0, -3.0]], dtype=dtype)
    return d.to_sparse(layout=layout).requires_grad_(requires_grad)


@pytest.mark.parametrize("layout", ["sparse_coo", "sparse_csr", "sparse_csc"])
@pytest.mark.parametrize(
    ("cast", "want"),
    [
        (lambda s: s.double(), mg.float64),
        (lambda s: s.half(), mg.float16),
        (lambda s: s.to(mg.float64), mg.float64),
        (lambda s: s.to("cpu", mg.float16), mg.float16),
        (lambda s: s.type("float64"), mg.float64),
        (lambda s: s.long(), mg.int64),
    ],
)
def test_values_cast_pattern_kept(layout, cast, want):
    s = sample(layout)
    out = cast(s)
    assert out.layout == layout and out.dtype is want and out.nnz == s.nnz
    np.testing.assert_array_equal(out.to_dense().numpy(), s.to_dense().numpy().astype(want.np))


def test_same_dtype_is_the_tensor_itself():
    s = sample()
    assert s.float() is s and s.to(mg.float32) is s


def test_gradient_is_cast_back_and_stays_sparse():
    s = sample(requires_grad=True)
    w = mg.tensor(np.arange(6.0).reshape(2, 3))
    (s.double().to_dense() * w).sum().backward()
    assert s.grad.layout == "sparse_coo" and s.grad.dtype is mg.float32
    np.testing.assert_array_equal(s.grad.to_dense().numpy(), [[0, 1, 0], [3, 0, 5]])
    assert not s.long().requires_grad  # integer results do not require grad, as dense


def test_gradcheck_through_a_cast():
    s = sample(dtype=mg.float64, requires_grad=True)
    assert gradcheck(lambda t: t.to(mg.float64).to_dense().exp(), (s,), masked=True)


@pytest.mark.oracle
def test_same_as_pytorch():
    torch = pytest.importorskip("torch")
    d = [[0.0, 1.5, 0.0], [2.0, 0.0, -3.0]]
    ours, theirs = mg.tensor(d).to_sparse().double(), torch.tensor(d).to_sparse().double()
    assert str(ours.dtype).split(".")[1] == str(theirs.dtype).split(".")[1]
    assert ours.layout == "sparse_coo" and theirs.layout is torch.sparse_coo
    np.testing.assert_array_equal(ours.to_dense().numpy(), theirs.to_dense().numpy())
