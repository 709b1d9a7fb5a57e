"""Broadcasting and numerics (RELIABILITY.md, "Broadcasting and numerics"), anomaly mode included."""

import math
import warnings

import numpy as np
import pytest

import minigrad as mg

# --- gradients of broadcast operands ----------------------------------------------------------------

SHAPES = [
    ((2, 1), (2,)),
    ((3, 1, 2), (1, 3, 2)),
    ((), (3, 4)),
    ((3, 4), ()),
    ((), ()),
    ((1,), (3,)),
    ((2, 3, 1), (3, 4)),
    ((4, 1, 1), (1, 2, 3)),
    ((1, 1), (5,)),
]
BINARY = {
    "add": (lambda a, b: a + b, lambda a, b, g: (g, g)),
    "sub": (lambda a, b: a - b, lambda a, b, g: (g, -g)),
    "mul": (lambda a, b: a * b, lambda a, b, g: (g * b, g * a)),
    "div": (lambda a, b: a / b, lambda a, b, g: (g / b, -g * a / b**2)),
    "pow": (lambda a, b: a**b, lambda a, b, g: (g * b * a ** (b - 1), g * a**b * np.log(a))),
}


def unbroadcast(g, shape):
    """The reference reduction: sum leading dims, then the dims that were 1."""
    while g.ndim > len(shape):
        g = g.sum(axis=0)
    for i, n in enumerate(shape):
        if n == 1 and g.shape[i] != 1:
            g = g.sum(axis=i, keepdims=True)
    return g


@pytest.mark.parametrize("sa, sb", SHAPES, ids=[f"{a}-{b}" for a, b in SHAPES])
@pytest.mark.parametrize("name", BINARY)
def test_broadcast_gradients_are_reduced_to_operand_shapes(name, sa, sb):
    rng = np.random.default_rng(len(sa) * 10 + len(sb))
    a0 = rng.uniform(0.5, 2.0, sa)
    b0 = rng.uniform(0.5, 2.0, sb)
    fn, ref = BINARY[name]
    a = mg.tensor(a0, requires_grad=True)
    b = mg.tensor(b0, requires_grad=True)
    out = fn(a, b)
    shape = np.broadcast_shapes(sa, sb)
    assert out.shape == shape
    g0 = rng.standard_normal(shape)
    out.backward(mg.tensor(g0))
    want_a, want_b = ref(a0, b0, g0)
    assert a.grad.shape == sa and b.grad.shape == sb
    np.testing.assert_allclose(a.grad.numpy(), unbroadcast(np.asarray(want_a), sa), rtol=1e-12)
    np.testing.assert_allclose(b.grad.numpy(), unbroadcast(np.asarray(want_b), sb), rtol=1e-12)


def test_python_scalar_times_tensor():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    (3.0 * x + x * 2 - 1.5 / (x + 1.0)).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 5.0 + 1.5 / np.array([2.0, 3.0]) ** 2, rtol=1e-6)
    assert x.grad.dtype is mg.float32  # scalars never promote the tensor's float width


def test_zero_dim_tensor_times_tensor_gets_a_zero_dim_gradient():
    s = mg.tensor(2.0, requires_grad=True)
    v = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (s * v).sum().backward()
    assert s.grad.shape == () and s.grad.item() == 6.0
    np.testing.assert_array_equal(v.grad.numpy(), [2.0, 2.0, 2.0])


def test_zero_dim_only_graph():
    a = mg.tensor(1.5, dtype=mg.float64, requires_grad=True)
    b = mg.tensor(-0.5, dtype=mg.float64, requires_grad=True)
    y = (a * b).exp() + a / b
    y.backward()
    assert a.grad.shape == () and b.grad.shape == ()
    assert a.grad.item() == pytest.approx(-0.5 * math.exp(-0.75) + 1 / -0.5, rel=1e-14)
    assert b.grad.item() == pytest.approx(1.5 * math.exp(-0.75) - 1.5 / 0.25, rel=1e-14)


def test_broadcast_against_a_tensor_used_twice():
    x = mg.tensor([[1.0], [2.0]], dtype=mg.float64, requires_grad=True)  # (2, 1)
    row = mg.tensor([1.0, 2.0, 3.0], dtype=mg.float64, requires_grad=True)  # (3,)
    (x * row + x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [[9.0], [9.0]])  # sum(row) + 3 broadcast copies
    np.testing.assert_allclose(row.grad.numpy(), [3.0, 3.0, 3.0])


def test_gradient_dtype_follows_operand_dtype_under_promotion():
    a = mg.tensor([1.0, 2.0], dtype=mg.float64, requires_grad=True)
    b = mg.tensor([[1.0], [2.0]], dtype=mg.float32, requires_grad=True)
    (a * b).sum().backward()
    assert a.grad.dtype is mg.float64 and b.grad.dtype is mg.float32
    assert a.grad.shape == (2,) and b.grad.shape == (2, 1)
    np.testing.assert_allclose(b.grad.numpy(), [[3.0], [3.0]])


def test_incompatible_broadcast_names_the_dimension():
    a = mg.tensor(np.ones((2, 3)))
    b = mg.tensor(np.ones((4,)))
    with pytest.raises(
        RuntimeError,
        match=r"The size of tensor a \(3\) must match the size of tensor b \(4\) at "
        r"non-singleton dimension 1",
    ):
        a + b


# --- stability at +-1000 ---------------------------------------------------------------------------

STABLE = {
    "logsumexp": lambda t: t.logsumexp(0),
    "log_softmax": lambda t: (t.log_softmax(0) * mg.tensor([1.0, 2.0, 3.0], dtype=t.dtype)).sum(),
    "softmax": lambda t: (t.softmax(0) * mg.tensor([1.0, 2.0, 3.0], dtype=t.dtype)).sum(),
    "sigmoid": lambda t: t.sigmoid().sum(),
    "tanh": lambda t: t.tanh().sum(),
}
STABLE_REF = {  # (value, gradient) at x = [1000, -1000, 0]
    "logsumexp": (1000.0, [1.0, 0.0, 0.0]),
    "log_softmax": (-(0 + 2 * 2000 + 3 * 1000), [1.0 - 6.0, 2.0, 3.0]),  # w - softmax * sum(w)
    "softmax": (1.0, [0.0, 0.0, 0.0]),
    "sigmoid": (1.5, [0.0, 0.0, 0.25]),
    "tanh": (0.0, [0.0, 0.0, 1.0]),
}


@pytest.mark.parametrize("dtype", [mg.float32, mg.float64])
@pytest.mark.parametrize("name", STABLE)
def test_stable_at_plus_minus_1000(name, dtype):
    x = mg.tensor([1000.0, -1000.0, 0.0], dtype=dtype, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow / invalid-value warnings either
        y = STABLE[name](x)
        y.backward()
    assert np.isfinite(y.item()) and np.isfinite(x.grad.numpy()).all()
    value, grad = STABLE_REF[name]
    assert y.item() == pytest.approx(value, rel=1e-6)
    np.testing.assert_allclose(x.grad.numpy(), grad, atol=1e-6)


@pytest.mark.parametrize("dim", [0, 1])
def test_softmax_family_stable_in_2d(dim):
    x = mg.tensor([[1000.0, 999.0], [-1000.0, -1001.0]], dtype=mg.float64, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        (x.log_softmax(dim).sum() + x.logsumexp(dim).sum() + x.softmax(dim)[0, 0]).backward()
    assert np.isfinite(x.grad.numpy()).all()


# --- kinks follow PyTorch ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fn, want",
    [
        (lambda t: t.relu(), [0.0, 0.0, 1.0]),
        (lambda t: t.abs(), [-1.0, 0.0, 1.0]),
        (lambda t: t.sign(), [0.0, 0.0, 0.0]),
        (lambda t: t.clamp(min=0.0), [0.0, 1.0, 1.0]),
        (lambda t: t.clamp(max=0.0), [1.0, 1.0, 0.0]),
    ],
    ids=["relu", "abs", "sign", "clamp_min", "clamp_max"],
)
def test_kinks_follow_pytorch(fn, want):
    x = mg.tensor([-1.0, 0.0, 1.0], requires_grad=True)
    fn(x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), want)


def test_tied_max_splits_the_gradient_evenly():
    x = mg.tensor([[1.0, 3.0, 3.0], [2.0, 3.0, 0.0]], requires_grad=True)
    x.max().backward()
    np.testing.assert_allclose(x.grad.numpy(), [[0, 1 / 3, 1 / 3], [0, 1 / 3, 0]], rtol=1e-6)
    x.grad = None
    x.amax(1).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [[0, 0.5, 0.5], [0, 1, 0]])
    x.grad = None
    x.min().backward()
    np.testing.assert_allclose(x.grad.numpy(), [[0, 0, 0], [0, 0, 1]])


def test_max_along_a_dim_sends_the_gradient_to_one_index():
    x = mg.tensor([[2.0, 2.0, 1.0]], requires_grad=True)
    values, indices = x.max(1)
    values.sum().backward()
    assert indices.tolist() == [0]
    np.testing.assert_array_equal(x.grad.numpy(), [[1.0, 0.0, 0.0]])


# --- anomaly mode ------------------------------------------------------------------------------------


def test_anomaly_mode_names_the_node_and_shows_the_forward_call():
    with pytest.warns(UserWarning, match="Anomaly Detection has been enabled"):
        with mg.autograd.detect_anomaly():
            assert mg.autograd.is_anomaly_enabled()
            x = mg.tensor(-1.0, requires_grad=True)
            with pytest.raises(RuntimeError) as info:
                x.sqrt().backward()
    assert not mg.autograd.is_anomaly_enabled()
    msg = str(info.value)
    assert msg.splitlines()[0] == "Function 'SqrtBackward0' returned nan values in its 0th output."
    assert "test_broadcast_numerics.py" in msg  # where the forward op was made
    assert "x.sqrt().backward()" in msg


def test_anomaly_mode_points_at_the_failing_op_inside_a_chain():
    x = mg.tensor([4.0, -1.0], requires_grad=True)
    with pytest.warns(UserWarning):
        with mg.autograd.detect_anomaly():
            h = x * 2.0
            root = h.sqrt()  # the first node whose gradient has a nan
            y = (root * 3.0 + 1.0).sum()  # these backward nodes save nothing
            with pytest.raises(RuntimeError) as info:
                y.backward()
    msg = str(info.value)
    assert msg.startswith("Function 'SqrtBackward0' returned nan values in its 0th output.")
    assert "root = h.sqrt()" in msg
    assert "(root * 3.0)" not in msg  # the trace is the sqrt's, not a later op's
    assert x.grad is None  # nothing reached the leaf


def test_no_nan_check_outside_anomaly_mode():
    x = mg.tensor(-1.0, requires_grad=True)
    x.sqrt().backward()
    assert math.isnan(x.grad.item())


def test_anomaly_mode_check_nan_false_does_not_raise():
    x = mg.tensor(-1.0, requires_grad=True)
    with pytest.warns(UserWarning):
        with mg.autograd.detect_anomaly(check_nan=False):
            x.sqrt().backward()
    assert math.isnan(x.grad.item())


def test_anomaly_mode_restores_state_after_an_exception():
    with pytest.raises(KeyError):
        with pytest.warns(UserWarning):
            with mg.autograd.detect_anomaly():
                raise KeyError
    assert not mg.autograd.is_anomaly_enabled()
