"""``mg.Size``: shapes as a tuple subclass printed as PyTorch prints ``torch.Size``."""

import pickle

import numpy as np
import pytest

import minigrad as mg


def test_shape_and_size_are_sizes_that_behave_as_tuples():
    x = mg.zeros(5, 27)
    for s in (x.shape, x.size()):
        assert type(s) is mg.Size and isinstance(s, tuple)
        assert s == (5, 27) and hash(s) == hash((5, 27))
        rows, cols = s
        assert (rows, cols, s[-1], len(s)) == (5, 27, 27, 2)
        assert type(s[0]) is int
    assert x.size(1) == 27 and type(x.size(1)) is int


def test_repr_numel_slices_and_concatenation():
    s = mg.zeros(5, 27).shape
    assert repr(s) == str(s) == f"{s}" == "minigrad.Size([5, 27])"
    assert repr(mg.tensor(1.0).shape) == "minigrad.Size([])"
    assert s.numel() == 135 and mg.Size([]).numel() == 1 and mg.Size([0, 3]).numel() == 0
    assert type(s[1:]) is mg.Size and s[1:] == (27,)
    for joined in (s + (1,), (1,) + s, s + s, s * 2, 2 * s):
        assert type(joined) is mg.Size
    assert (1,) + s == (1, 5, 27) and s * 2 == (5, 27, 5, 27)
    assert pickle.loads(pickle.dumps(s)) == s and type(pickle.loads(pickle.dumps(s))) is mg.Size


def test_size_takes_ints_only():
    assert mg.Size(range(3)) == (0, 1, 2) and mg.Size((np.int64(2),)) == (2,)
    with pytest.raises(TypeError, match=r"takes an iterable of 'int' \(item 1 is 'float'\)"):
        mg.Size([2, 1.5])


def test_a_sparse_tensors_shape_is_a_size_too():
    assert type(mg.zeros(3, 4).to_sparse().shape) is mg.Size


def test_error_messages_keep_formatting_shapes_as_tuples():
    with pytest.raises(RuntimeError, match=r"shapes \(2, 3, 4\) and \(3, 4, 5\)"):
        mg.ones(2, 3, 4) @ mg.ones(3, 4, 5)


@pytest.mark.oracle
def test_printed_as_pytorch_prints_its_size():
    torch = pytest.importorskip("torch")
    for shape in [(5, 27), (), (3,), (0, 2, 1)]:
        ours, theirs = mg.zeros(shape).shape, torch.zeros(shape).shape
        assert repr(ours) == repr(theirs).replace("torch.", "minigrad.")
        assert str(ours) == str(theirs).replace("torch.", "minigrad.")
        assert ours.numel() == theirs.numel()
        assert repr(ours[1:] + (7,)) == repr(theirs[1:] + (7,)).replace("torch.", "minigrad.")
        assert repr((7,) + ours) == repr((7,) + theirs).replace("torch.", "minigrad.")


@pytest.mark.oracle
def test_strides_and_contiguity_of_views_are_pytorchs():
    torch = pytest.importorskip("torch")
    views = [
        lambda x: x,
        lambda x: x.t(),
        lambda x: x[:, 1:],
        lambda x: x[::2],
        lambda x: x.unsqueeze(1).expand(3, 2, 4),
        lambda x: x.t().contiguous(),
        lambda x: x[1],
    ]
    for view in views:
        ours = view(mg.arange(12.0).reshape(3, 4))
        theirs = view(torch.arange(12.0).reshape(3, 4))
        assert ours.stride() == theirs.stride()
        assert ours.stride(-1) == theirs.stride(-1)
        assert ours.is_contiguous() == theirs.is_contiguous()
