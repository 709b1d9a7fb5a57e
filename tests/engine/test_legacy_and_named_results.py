"""What older lectures print and build: the legacy constructors (``torch.Tensor([...])``,
``torch.Tensor(2, 3)``, ``torch.FloatTensor``, ``x.type()``) and the named results of
``max``/``min``/``sort``/``topk``/``histogram`` printed as PyTorch's ``return_types``."""

import numpy as np
import pytest

import minigrad as mg


@pytest.fixture
def torch():
    return pytest.importorskip("torch")


def test_tensor_of_data_is_in_the_default_float_dtype():
    assert mg.Tensor([1, 2]).dtype is mg.float32  # mg.tensor([1, 2]) would be int64
    assert mg.Tensor(np.arange(3)).dtype is mg.float32
    assert mg.Tensor([[1], [2]]).shape == (2, 1)
    assert mg.Tensor().shape == (0,) and mg.Tensor(()).shape == (0,)
    mg.set_default_dtype(mg.float64)
    try:
        assert mg.Tensor([1]).dtype is mg.float64
        assert mg.FloatTensor([1]).dtype is mg.float32
    finally:
        mg.set_default_dtype(mg.float32)


def test_tensor_of_sizes_has_that_shape():
    t = mg.Tensor(2, 3)
    assert t.shape == (2, 3) and t.dtype is mg.float32 and not t.requires_grad
    assert mg.Tensor(mg.Size([4, 0])).shape == (4, 0)
    w = mg.nn.Parameter(mg.Tensor(3, 2))  # the old way to declare a weight, then init it
    mg.nn.init.uniform_(w, -1, 1)
    assert w.requires_grad and w.shape == (3, 2)
    with pytest.raises(RuntimeError, match=r"negative dimension -1: \[2, -1\]"):
        mg.Tensor(2, -1)
    with pytest.raises(TypeError, match=r"Tensor\(\): data must be a sequence \(got float\)"):
        mg.Tensor(2.5)


def test_tensor_of_a_tensor_shares_its_memory():
    t = mg.ones(3)
    u = mg.Tensor(t)
    u.add_(1)
    assert t.tolist() == [2.0, 2.0, 2.0] and t._version == u._version


def test_typed_constructors_and_isinstance():
    assert mg.LongTensor([1.7, 2.2]).tolist() == [1, 2]
    assert mg.BoolTensor([1, 0]).dtype is mg.bool
    assert mg.DoubleTensor(2).tolist() == [0.0, 0.0]
    assert isinstance(mg.ones(2), mg.FloatTensor)
    assert not isinstance(mg.ones(2).long(), mg.FloatTensor)
    assert isinstance(mg.ones(2).long(), mg.LongTensor)
    assert repr(mg.FloatTensor) == "<class 'minigrad.FloatTensor'>"
    with pytest.raises(
        TypeError, match=r"LongTensor\(\): expected a tensor of dtype minigrad.int64"
    ):
        mg.LongTensor(mg.ones(2))


def test_type_names_and_casts():
    assert mg.ones(2).type() == "minigrad.FloatTensor"
    assert mg.ones(2, dtype=mg.int64).type() == "minigrad.LongTensor"
    assert mg.ones(2).type(mg.LongTensor).dtype is mg.int64
    assert mg.ones(2).type("torch.DoubleTensor").dtype is mg.float64
    assert mg.ones(2).type(mg.float16).type() == "minigrad.HalfTensor"
    assert mg.ones(2).type("float64").dtype is mg.float64  # a dtype's name, as before


@pytest.mark.oracle
def test_legacy_forms_match_torch(torch):
    cases = [
        lambda lib: lib.Tensor([1, 2]),
        lambda lib: lib.Tensor(2, 3).shape,
        lambda lib: lib.Tensor(np.arange(4).reshape(2, 2)),
        lambda lib: lib.LongTensor([1.5, -2.5]),
        lambda lib: lib.ones(3).type(),
        lambda lib: lib.arange(3).type(),
        lambda lib: lib.ones(3, dtype=lib.bool).type(),
        lambda lib: lib.arange(3).type(lib.FloatTensor),
    ]
    for case in cases:
        ours, theirs = repr(case(mg)), repr(case(torch))
        assert ours.replace("minigrad", "LIB") == theirs.replace("torch", "LIB")


# --- named results -------------------------------------------------------------------------------


def test_named_results_print_as_return_types():
    x = mg.tensor([[3.0, 1.0], [2.0, 5.0]])
    assert repr(x.max(1)) == (
        "minigrad.return_types.max(\nvalues=tensor([3., 5.]),\nindices=tensor([0, 1]))"
    )
    assert repr(mg.min(x, dim=0)).startswith("minigrad.return_types.min(\nvalues=")
    assert repr(x.sort()).startswith("minigrad.return_types.sort(\nvalues=")
    assert repr(mg.tensor(2.0).topk(1)).startswith("minigrad.return_types.topk(\nvalues=")
    assert repr(mg.histogram(x, bins=2)).startswith("minigrad.return_types.histogram(\nhist=")
    values, indices = x.max(dim=1)
    assert values.tolist() == [3.0, 5.0]
    assert indices.tolist() == x.max(dim=1).indices.tolist() == [0, 1]
    assert type(x.max(1)).__module__ == "minigrad.return_types"


@pytest.mark.oracle
def test_named_results_print_as_torchs(torch):
    data = [[3.0, 1.0, 4.0], [1.0, 5.0, 9.0]]
    calls = [
        lambda lib, x: x.max(1),
        lambda lib, x: lib.min(x, 0, keepdim=True),
        lambda lib, x: x.sort(descending=True),
        lambda lib, x: x.topk(2),
        lambda lib, x: x.median(1),
        lambda lib, x: lib.histogram(x, bins=3),
    ]
    for call in calls:
        ours = repr(call(mg, mg.tensor(data))).replace("minigrad", "LIB")
        theirs = repr(call(torch, torch.tensor(data))).replace("torch", "LIB")
        assert ours == theirs


def test_comparing_a_tensor_with_none_is_false_as_in_pytorch():
    # a student's ``if w.grad == None:``; PyTorch's __eq__ returns NotImplemented for None
    t = mg.ones(2)
    assert (t == None) is False and (t != None) is True  # noqa: E711
    assert (None == t) is False and t.__eq__(None) is NotImplemented  # noqa: E711
    assert (t == mg.ones(2)).tolist() == [True, True]
    with pytest.raises(TypeError, match="unsupported operand for eq"):
        t == "a"  # noqa: B015  (other types still say what is accepted)
