"""``Tensor.data`` as in PyTorch: a detached tensor sharing memory, outside autograd.

The idioms students bring (``p.data -= lr * p.grad``, ``p.data.zero_()``, ...) change the
tensor in place, exactly as in PyTorch, and a change made through ``.data`` is invisible to
autograd (no version-counter error at backward). ``t.data = value`` takes a tensor of the same
shape, dtype and layout; anything else is refused at once (PyTorch allows a shape or dtype
change; minigrad refuses, see ``Tensor.data``). The oracle tests run the same code with
``L = minigrad`` and ``L = torch``.
"""

import numpy as np
import pytest

import minigrad as mg


def _torch():
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    return torch


def _both():
    return (mg, _torch())


def _trained(L):
    """A leaf parameter whose .grad is filled: loss = sum(p**2 * [1, 2, 3]) at p = [.5, -2, 3]."""
    p = L.nn.Parameter(L.tensor([0.5, -2.0, 3.0], dtype=L.float64))
    (p**2 * L.tensor([1.0, 2.0, 3.0], dtype=L.float64)).sum().backward()
    return p


# --- what .data is ------------------------------------------------------------------------------


def _leaf():
    return mg.tensor([1.0, 2.0], requires_grad=True)


def _non_leaf():
    return mg.tensor([1.0, 2.0], requires_grad=True) * 3.0


def _parameter():
    return mg.nn.Parameter(mg.tensor([1.0, 2.0]))


def _view():
    return mg.tensor([0.0, 1.0, 2.0], requires_grad=True)[1:]


@pytest.mark.parametrize("make", [_leaf, _non_leaf, _parameter, _view], ids=lambda f: f.__name__)
def test_data_is_a_detached_plain_tensor_on_the_same_array(make):
    t = make()
    d = t.data
    assert type(d) is mg.Tensor  # a Parameter's .data is a plain Tensor, as in PyTorch
    assert not d.requires_grad and d.grad_fn is None and d.is_leaf
    assert d._data is t._data  # the very same numpy array: no copy
    assert d.shape == t.shape and d.dtype is t.dtype
    assert t.data is not d  # a new tensor object per access, as in PyTorch


@pytest.mark.oracle
def test_data_flags_and_types_match_torch():
    for L in _both():
        p = L.nn.Parameter(L.tensor([1.0, 2.0]))
        y = p * 3.0
        assert type(p.data) is L.Tensor and type(y.data) is L.Tensor
        assert [p.data.requires_grad, p.data.is_leaf, y.data.requires_grad, y.data.is_leaf] == [
            False,
            True,
            False,
            True,
        ]
        assert y.data.grad_fn is None and p.data._version == 0


def test_numpy_is_one_call_away():
    p = _trained(mg)
    arr = np.asarray(p.data)
    assert np.shares_memory(arr, p._data) and arr.tolist() == [0.5, -2.0, 3.0]
    assert np.shares_memory(p.data.numpy(), p._data)  # .data needs no detach() before numpy()
    assert np.shares_memory(np.asarray(p), p._data)
    with pytest.raises(RuntimeError, match=r"Use tensor.detach\(\).numpy\(\) instead"):
        p.numpy()


# --- the idioms students bring -------------------------------------------------------------------


def _sgd_step(L, p):
    p.data -= 0.1 * p.grad


def _add_alpha(L, p):
    p.data.add_(p.grad, alpha=-0.1)


def _mul(L, p):
    p.data.mul_(10)


def _zero(L, p):
    p.data.zero_()


def _copy(L, p):
    p.data.copy_(L.tensor([7.0, 8.0, 9.0], dtype=L.float64))


def _clamp(L, p):
    p.data.clamp_(-1, 1)


def _setitem(L, p):
    p.data[1] = 5.0


def _fill(L, p):
    p.data.fill_(0.25)


IN_PLACE = [_sgd_step, _add_alpha, _mul, _zero, _copy, _clamp, _setitem, _fill]


@pytest.mark.parametrize("idiom", IN_PLACE, ids=lambda f: f.__name__.strip("_"))
def test_in_place_idioms_write_into_the_parameters_own_array(idiom):
    p = _trained(mg)
    arr, before = p._data, p._data.copy()
    idiom(mg, p)
    assert p._data is arr  # written in place: never rebound, never copied
    assert not np.array_equal(arr, before)
    assert p.is_leaf and p.requires_grad and type(p) is mg.nn.Parameter
    assert p._version == 0  # the change went through .data's own counter


@pytest.mark.oracle
@pytest.mark.parametrize("idiom", IN_PLACE, ids=lambda f: f.__name__.strip("_"))
def test_in_place_idioms_match_torch(idiom):
    got = []
    for L in _both():
        p = _trained(L)
        idiom(L, p)
        got.append((p.tolist(), p._version, p.requires_grad, p.is_leaf))
    assert got[0] == got[1]


@pytest.mark.oracle
def test_reading_through_data_matches_torch():
    ours, theirs = (_trained(L) for L in _both())
    assert ours.data.norm().item() == pytest.approx(theirs.data.norm().item(), rel=1e-15)
    assert (ours.data * 2).sum().item() == pytest.approx((theirs.data * 2).sum().item())
    assert ours.data.sum().grad_fn is None and theirs.data.sum().grad_fn is None


def test_assigning_a_new_tensor_of_the_same_shape_and_dtype_shares_it():
    p = _trained(mg)
    new = p.data * 0.5
    p.data = new
    assert p._data is new._data and p.tolist() == [0.25, -1.0, 1.5]
    new.add_(1.0)  # the memory is shared, as in PyTorch
    assert p.tolist() == [1.25, 0.0, 2.5]
    assert p.is_leaf and p.requires_grad and p._version == 0


@pytest.mark.oracle
def test_assigning_data_shares_memory_and_keeps_the_version_as_torch_does():
    torch = _torch()
    got = []
    for L in _both():
        x = L.tensor([1.0, 2.0], requires_grad=True)
        v = L.tensor([5.0, 6.0])
        x.data = v
        v.mul_(2)
        got.append((x.tolist(), x._version, x.requires_grad))
        if L is torch:
            assert x.data_ptr() == v.data_ptr()
    assert got[0] == got[1] == ([10.0, 12.0], 0, True)


def _mlp(L, weights):
    """Linear(3, 4) -> tanh -> Linear(4, 1) with the given weights, and its parameters."""
    lin1, lin2 = L.nn.Linear(3, 4), L.nn.Linear(4, 1)
    params = [*lin1.parameters(), *lin2.parameters()]
    with L.no_grad():
        for p, w in zip(params, weights):
            p.copy_(L.tensor(w))
    return (lambda x: lin2(lin1(x).tanh())), params


@pytest.mark.oracle
def test_hand_written_sgd_with_data_trains_as_in_torch():
    rng = np.random.default_rng(0)
    shapes = [(4, 3), (4,), (1, 4), (1,)]
    weights = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    x = rng.standard_normal((8, 3)).astype(np.float32)
    y = rng.standard_normal((8, 1)).astype(np.float32)
    history = []
    for L in _both():
        model, params = _mlp(L, weights)
        losses = []
        for _ in range(5):  # the second and later forward/backward run on the updated values
            loss = ((model(L.tensor(x)) - L.tensor(y)) ** 2).mean()
            loss.backward()
            for p in params:
                p.data -= 0.1 * p.grad
                p.grad = None
            losses.append(loss.item())
        history.append((losses, [np.array(p.tolist()) for p in params]))
    (ours, our_w), (theirs, their_w) = history
    np.testing.assert_allclose(ours, theirs, rtol=1e-5)
    assert ours[-1] < ours[0]
    for a, b in zip(our_w, their_w):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


# --- invisible to autograd ------------------------------------------------------------------------


@pytest.mark.oracle
def test_a_change_through_data_is_invisible_to_autograd_as_in_torch():
    """h.sin() saves h. Changing h through detach() shares h's version counter, so backward
    refuses; through .data it does not, and backward uses the changed values."""
    results = []
    for L in _both():
        row = []
        for how in ("detach", "data"):
            x = L.tensor([1.0, 2.0], requires_grad=True)
            h = x * 2
            y = h.sin()
            (h.detach() if how == "detach" else h.data).mul_(2)
            try:
                y.sum().backward()
                row.append((how, h._version, [round(v, 6) for v in x.grad.tolist()]))
            except RuntimeError as e:
                assert "modified by an inplace operation" in str(e)
                row.append((how, h._version, "error"))
        results.append(row)
    assert results[0] == results[1]
    assert [r[2] == "error" for r in results[0]] == [True, False]


@pytest.mark.oracle
def test_data_has_a_version_counter_of_its_own_as_in_torch():
    got = []
    for L in _both():
        x = L.tensor([1.0, 2.0], requires_grad=True)
        d = x.data
        d.mul_(2)
        d.add_(1)
        got.append((x._version, d._version, x.data._version, x.tolist()))
    assert got[0] == got[1] == (0, 2, 0, [3.0, 5.0])


@pytest.mark.oracle
def test_data_of_a_view_writes_through_to_the_base_as_in_torch():
    got = []
    for L in _both():
        x = L.tensor([1.0, 2.0, 3.0], requires_grad=True)
        x[1:].data.mul_(2)
        got.append((x.tolist(), x._version))
    assert got[0] == got[1] == ([1.0, 4.0, 6.0], 0)


@pytest.mark.oracle
def test_assigning_data_after_the_forward_is_seen_by_backward_as_in_torch():
    """x * x saved x itself, so backward reads whatever x holds then (no version check)."""
    got = []
    for L in _both():
        x = L.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = x * x
        x.data = x.data * 10
        y.sum().backward()
        got.append((x.grad.tolist(), x._version))
    assert got[0] == got[1] == ([20.0, 40.0, 60.0], 0)


# --- bad input: refused at once --------------------------------------------------------------------


@pytest.mark.parametrize(
    "value, name",
    [(3, "int"), ([1.0, 2.0], "list"), (None, "NoneType"), (np.ones(2), "numpy.ndarray")],
)
def test_data_must_be_assigned_a_tensor(value, name):
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    arr = x._data
    with pytest.raises(TypeError) as info:
        x.data = value
    assert str(info.value) == f"Variable data has to be a tensor, but got {name}"
    assert x._data is arr and x.tolist() == [1.0, 2.0]


@pytest.mark.oracle
@pytest.mark.parametrize("value", [3, [1.0, 2.0], None, np.ones(2)], ids=str)
def test_non_tensor_data_raises_torchs_type_and_message(value):
    messages = []
    for L in _both():
        x = L.tensor([1.0, 2.0], requires_grad=True)
        with pytest.raises(TypeError) as info:
            x.data = value
        messages.append(str(info.value))
    assert messages[0] == messages[1]


def test_a_shape_change_is_refused_at_once_and_the_parameter_stays_usable():
    p = mg.nn.Parameter(mg.tensor([1.0, 2.0]))
    arr = p._data
    with pytest.raises(RuntimeError) as info:
        p.data = mg.ones(3)
    msg = str(info.value)
    assert "[3] float32" in msg and "[2] float32" in msg and "same shape, dtype and layout" in msg
    assert p._data is arr and p.shape == (2,)
    (p * p).sum().backward()  # nothing was stored to fail later
    assert p.grad.tolist() == [2.0, 4.0]


def test_a_dtype_change_is_refused_at_once():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match=r"\[2\] float64 to \.data of a tensor of \[2\] float32"):
        x.data = mg.tensor([1.0, 2.0], dtype=mg.float64)
    with pytest.raises(RuntimeError, match=r"\[2\] int64 .* \[2\] float32"):
        x.data = mg.tensor([1, 2])
    assert x.dtype is mg.float32


@pytest.mark.oracle
def test_torch_allows_what_minigrad_refuses_here():
    """The deliberate difference: PyTorch lets .data change shape and dtype; minigrad refuses."""
    torch = _torch()
    p = torch.nn.Parameter(torch.ones(2))
    p.data = torch.ones(3, dtype=torch.float64)
    assert p.shape == (3,) and p.dtype is torch.float64
    q = mg.nn.Parameter(mg.ones(2))
    with pytest.raises(RuntimeError):
        q.data = mg.ones(3, dtype=mg.float64)


def _coo(L):
    return L.sparse_coo_tensor([[0, 1, 1], [2, 0, 1]], [1.0, 2.0, 3.0], (2, 3))


LAYOUT_MISMATCHES = [
    ("dense <- coo", lambda L: L.zeros(2, 3), _coo),
    ("coo <- dense", _coo, lambda L: L.zeros(2, 3)),
    ("coo <- csr", _coo, lambda L: _coo(L).to_dense().to_sparse_csr()),
    ("csr <- csc", lambda L: L.ones(2, 3).to_sparse_csr(), lambda L: L.ones(2, 3).to_sparse_csc()),
]


@pytest.mark.parametrize(
    "target, value", [c[1:] for c in LAYOUT_MISMATCHES], ids=[c[0] for c in LAYOUT_MISMATCHES]
)
def test_a_layout_change_is_refused(target, value):
    t, v = target(mg), value(mg)
    with pytest.raises(RuntimeError) as info:
        t.data = v
    assert v.layout in str(info.value) or t.layout in str(info.value)
    assert t.layout == target(mg).layout  # unchanged


@pytest.mark.oracle
@pytest.mark.filterwarnings("ignore:Sparse CSR tensor support is in beta state")
@pytest.mark.parametrize(
    "target, value",
    # csr <- csc: PyTorch (one implementation for both) takes it silently and stays CSR
    [c[1:] for c in LAYOUT_MISMATCHES[:3]],
    ids=[c[0] for c in LAYOUT_MISMATCHES[:3]],
)
def test_a_layout_change_raises_runtime_error_in_torch_too(target, value):
    for L in _both():
        t, v = target(L), value(L)
        with pytest.raises(RuntimeError):
            t.data = v


# --- sparse tensors -------------------------------------------------------------------------------


SPARSE = {
    "coo": _coo,
    "csr": lambda L: _coo(L).to_dense().to_sparse_csr(),
    "csc": lambda L: _coo(L).to_dense().to_sparse_csc(),
}


@pytest.mark.parametrize("layout", SPARSE)
def test_sparse_data_is_a_detached_sparse_tensor_sharing_the_format(layout):
    s = SPARSE[layout](mg).requires_grad_()
    d = s.data
    assert type(d) is type(s) and d.layout == s.layout
    assert d._data is s._data  # the same format object (index arrays and values)
    assert not d.requires_grad and d.grad_fn is None and s.requires_grad
    assert d.to_dense().tolist() == s.detach().to_dense().tolist()
    assert type(s.detach()) is type(s) and s.detach().layout == s.layout  # detach() stays sparse


@pytest.mark.oracle
@pytest.mark.filterwarnings("ignore:Sparse CSR tensor support is in beta state")
@pytest.mark.parametrize("layout", SPARSE)
def test_sparse_data_and_detach_keep_the_layout_as_in_torch(layout):
    got = []
    for L in _both():
        s = SPARSE[layout](L).requires_grad_()
        got.append(
            (str(s.data.layout).split(".")[-1], s.data.requires_grad, str(s.detach().layout)[-3:])
        )
    assert got[0] == got[1]


def test_sparse_data_assignment_shares_the_new_format():
    s = _coo(mg).requires_grad_()
    new = mg.sparse_coo_tensor([[0], [0]], [9.0], (2, 3))
    s.data = new
    assert s._data is new._data and s.requires_grad and s.nnz == 1
    assert s.detach().to_dense().tolist() == [[9.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
    with pytest.raises(RuntimeError, match=r"\[3, 2\] float32 sparse_coo"):
        s.data = mg.sparse_coo_tensor([[0], [0]], [9.0], (3, 2))


def test_numpy_of_a_tensor_that_requires_grad_as_pytorch():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match=r"Use tensor.detach\(\).numpy\(\) instead"):
        x.numpy()
    with mg.no_grad():  # grad mode off: PyTorch hands the array out (a once_differentiable
        a = x.numpy()  # backward computes in numpy this way)
    assert a.tolist() == [1.0, 2.0] and np.shares_memory(a, x.detach().numpy())
    assert np.shares_memory(x.numpy(force=True), a)
