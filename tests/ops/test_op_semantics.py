"""What the op table cannot say row by row: result dtypes, comparisons, stability at +-1000,
kinks and ties (PyTorch's conventions), empty and 0-d tensors, in-place ops and views.

The last section keeps regression tests for bugs found outside ``minigrad/ops`` while the
table was written (0-d results, gradcheck of empty inputs, gradgradcheck, in-place ops on
views), fixed there since.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from op_table_rows import DTYPE_CASES

import minigrad as mg

# --- dtypes -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("build", "want"), [c[1:] for c in DTYPE_CASES], ids=[c[0] for c in DTYPE_CASES]
)
def test_result_dtype(build, want):
    out = build(mg)
    assert out.dtype is getattr(mg, want)
    assert out._data.dtype == getattr(mg, want).np  # the array agrees with the label


@pytest.mark.parametrize(
    "expr",
    [
        lambda x, s: x * s,
        lambda x, s: s * x,
        lambda x, s: x + s,
        lambda x, s: x / s,
        lambda x, s: s - x,
        lambda x, s: x**s,
    ],
)
def test_mixed_dtype_gradients_keep_each_operands_dtype(expr):
    x = mg.tensor([1.0, 2.0, 3.0], dtype=mg.float32, requires_grad=True)
    s = mg.tensor(2.0, dtype=mg.float64, requires_grad=True)
    out = expr(x, s)
    assert out.dtype is mg.float32
    out.sum().backward()
    assert x.grad.dtype is mg.float32 and x.grad.shape == (3,)
    assert s.grad.dtype is mg.float64 and s.grad.shape == ()


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("value", [1.0001, -2.5, 3, 0.1, 1e-8, 70000.0])
def test_python_number_operands_give_numpys_own_result(dtype, value):
    """ops/arith.py hands numpy a cached 0-d array for a Python number beside a float tensor
    (cheaper than numpy's per-call conversion); the bits must be what numpy gives."""
    a = np.linspace(-3, 3, 7).astype(dtype)
    x = mg.tensor(a)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        cases = [(x * value, a * value), (x + value, a + value), (x / value, a / value)]
        # (value / x is x.reciprocal() * value, as PyTorch runs it: its rounding)
        cases += [(value - x, value - a), (value / x, np.reciprocal(a) * value)]
    for got, want in cases:
        assert got.detach().numpy().dtype == want.dtype
        np.testing.assert_array_equal(got.detach().numpy(), want)


def test_cached_number_operands_are_read_only():
    from minigrad.ops.arith import _number

    z = _number(np.ones(2, np.float32), 1.5)
    assert z.dtype == np.float32 and z.shape == () and not z.flags.writeable
    assert _number(np.ones(2, np.int64), 1.5) == 1.5  # not a float tensor: passed as is


def test_cast_to_integer_drops_out_of_the_graph():
    x = mg.tensor([1.5, 2.5], requires_grad=True)
    assert x.long().dtype is mg.int64 and not x.long().requires_grad
    assert x.to(mg.int32).grad_fn is None


def test_mean_of_integers_is_an_error():
    with pytest.raises(RuntimeError, match="could not infer output dtype"):
        mg.tensor([1, 2]).mean()


# --- comparisons ------------------------------------------------------------------------------

COMPARISONS = {
    "<": (lambda a, b: a < b, np.less),
    "<=": (lambda a, b: a <= b, np.less_equal),
    ">": (lambda a, b: a > b, np.greater),
    ">=": (lambda a, b: a >= b, np.greater_equal),
    "==": (lambda a, b: a == b, np.equal),
    "!=": (lambda a, b: a != b, np.not_equal),
    "lt": (lambda a, b: a.lt(b), np.less),
    "le": (lambda a, b: a.le(b), np.less_equal),
    "gt": (lambda a, b: a.gt(b), np.greater),
    "ge": (lambda a, b: a.ge(b), np.greater_equal),
    "eq": (lambda a, b: a.eq(b), np.equal),
    "ne": (lambda a, b: a.ne(b), np.not_equal),
}


@pytest.mark.parametrize("op", sorted(COMPARISONS))
@pytest.mark.parametrize("other", ["tensor (2,1)", "0-d tensor", "python float", "int tensor"])
def test_comparison_is_bool_without_grad(op, other):
    fn, ref = COMPARISONS[op]
    xa = np.array([[0.0, 1.0, 2.0], [1.0, -1.0, 1.0]])
    oa = {
        "tensor (2,1)": np.array([[1.0], [-1.0]]),
        "0-d tensor": np.array(1.0),
        "python float": 1.0,
        "int tensor": np.array([1, 1, 2]),
    }[other]
    x = mg.tensor(xa, requires_grad=True)
    o = oa if isinstance(oa, float) else mg.tensor(oa, requires_grad=oa.dtype.kind == "f")
    out = fn(x, o)
    assert out.dtype is mg.bool
    assert not out.requires_grad and out.grad_fn is None
    np.testing.assert_array_equal(out.detach().numpy(), ref(xa, oa))


def test_comparison_mask_in_a_graph():
    x = mg.tensor([-1.0, 2.0, 3.0], requires_grad=True)
    (x * (x > 0)).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [0.0, 1.0, 1.0])


# --- stability at +-1000 --------------------------------------------------------------------------

STABLE = {
    "logsumexp": (lambda x: x.logsumexp(dim=-1), [1000.0, 1000.0 + np.log(2)]),
    "log_softmax": (
        lambda x: x.log_softmax(dim=-1),
        [[-2000.0, -1000.0, 0.0], [-np.log(2), -np.log(2), -2000.0 - np.log(2)]],
    ),
    "softmax": (lambda x: x.softmax(dim=-1), [[0.0, 0.0, 1.0], [0.5, 0.5, 0.0]]),
    "sigmoid": (lambda x: x.sigmoid(), [[0.0, 0.5, 1.0], [1.0, 1.0, 0.0]]),
    "tanh": (lambda x: x.tanh(), [[-1.0, 0.0, 1.0], [1.0, 1.0, -1.0]]),
}


@pytest.mark.parametrize("dtype", [mg.float32, mg.float64])
@pytest.mark.parametrize("name", sorted(STABLE))
def test_stable_at_1000(name, dtype):
    fn, expected = STABLE[name]
    x = mg.tensor([[-1000.0, 0.0, 1000.0], [1000.0, 1000.0, -1000.0]], dtype=dtype)
    x.requires_grad_()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # numpy's overflow/invalid warnings become errors
        out = fn(x)
        (g,) = mg.autograd.grad(out, x, mg.ones_like(out), create_graph=True)
        (gg,) = mg.autograd.grad((g * g).sum(), x)
    assert out.dtype is dtype
    np.testing.assert_allclose(out.detach().numpy(), expected, rtol=1e-6, atol=1e-6)
    assert np.isfinite(g.detach().numpy()).all() and np.isfinite(gg.detach().numpy()).all()


# --- kinks and ties: PyTorch's conventions --------------------------------------------------------


def grad_of(fn, values):
    x = mg.tensor(values, dtype=mg.float64, requires_grad=True)
    fn(x).sum().backward()
    return x.grad.numpy()


@pytest.mark.parametrize(
    ("name", "fn", "values", "expected"),
    [
        ("relu'(0) = 0", lambda x: x.relu(), [-1.0, 0.0, 1.0], [0.0, 0.0, 1.0]),
        ("abs'(0) = 0", lambda x: x.abs(), [-1.0, 0.0, 1.0], [-1.0, 0.0, 1.0]),
        ("sign' = 0", lambda x: x.sign(), [-1.0, 0.0, 1.0], [0.0, 0.0, 0.0]),
        (
            "clamp bounds inclusive",
            lambda x: x.clamp(-0.5, 0.5),
            [-1, -0.5, 0, 0.5, 1],
            [0, 1, 1, 1, 0],
        ),
        ("clamp(min=0) at 0", lambda x: x.clamp(min=0), [-1.0, 0.0, 1.0], [0.0, 1.0, 1.0]),
        ("clamp(max=0) at 0", lambda x: x.clamp(max=0), [-1.0, 0.0, 1.0], [1.0, 1.0, 0.0]),
        ("clamp min > max", lambda x: x.clamp(1.0, 0.0), [-1.0, 0.5, 2.0], [0.0, 0.0, 0.0]),
        (
            "clamp tensor bounds inclusive",
            lambda x: x.clamp(mg.tensor(0.0, dtype=mg.float64), mg.tensor(1.0, dtype=mg.float64)),
            [-1.0, 0.0, 1.0, 2.0],
            [0.0, 1.0, 1.0, 0.0],
        ),
        ("max() ties split", lambda x: x.max(), [1.0, 3.0, 3.0], [0.0, 0.5, 0.5]),
        ("min() ties split", lambda x: x.min(), [2.0, 1.0, 1.0, 1.0], [0, 1 / 3, 1 / 3, 1 / 3]),
        ("amax ties split", lambda x: x.amax(), [3.0, 3.0], [0.5, 0.5]),
        ("x**2 at 0", lambda x: x**2, [0.0], [0.0]),
        ("x**0 at 0", lambda x: x**0, [0.0, 2.0], [0.0, 0.0]),
        ("0.0**x", lambda x: 0.0**x, [0.0, 2.0], [0.0, 0.0]),
    ],
)
def test_kink(name, fn, values, expected):
    np.testing.assert_allclose(grad_of(fn, values), expected)


def test_amax_with_dim_splits_ties_per_slice():
    g = grad_of(lambda x: x.amax(dim=1), [[1.0, 3.0, 3.0], [2.0, 2.0, 2.0]])
    np.testing.assert_allclose(g, [[0, 0.5, 0.5], [1 / 3, 1 / 3, 1 / 3]])


def test_max_with_dim_sends_gradient_to_the_returned_index():
    x = mg.tensor([[1.0, 5.0, 2.0], [7.0, 0.0, 7.0]], requires_grad=True)
    values, indices = x.max(dim=1)
    np.testing.assert_array_equal(values.detach().numpy(), [5.0, 7.0])
    np.testing.assert_array_equal(indices.detach().numpy(), [1, 0])  # first of tied maxima
    assert indices.dtype is mg.int64 and not indices.requires_grad
    (values * mg.tensor([1.0, 10.0])).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[0, 1, 0], [10, 0, 0]])


def test_pow_with_tensor_exponent_at_zero_base():
    x = mg.tensor([0.0, 0.0, 0.0, 2.0], requires_grad=True)
    y = mg.tensor([0.0, 2.0, -1.0, 0.0], requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        (x**y).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [0.0, 0.0, -np.inf, 0.0])
    np.testing.assert_allclose(y.grad.numpy(), [0.0, 0.0, -np.inf, np.log(2)])


# --- empty and 0-d --------------------------------------------------------------------------------


def test_sums_of_empty_are_zero_with_zero_gradients():
    x = mg.zeros(2, 0, requires_grad=True)
    assert x.sum().item() == 0.0
    np.testing.assert_array_equal(x.sum(dim=1).detach().numpy(), [0.0, 0.0])
    assert x.sum(dim=0).shape == (0,)
    (x.sum() + x.sum(dim=1).sum()).backward()
    assert x.grad.shape == (2, 0) and x.grad.dtype is mg.float32


def test_mean_of_empty_is_nan_and_max_of_empty_raises():
    x = mg.zeros(0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.isnan(x.mean().item())
    with pytest.raises(RuntimeError, match="empty"):
        x.max()
    with pytest.raises(IndexError, match="non-zero size"):
        mg.zeros(2, 0).max(dim=1)
    assert mg.zeros(2, 0).amax(dim=0).shape == (0,)


@pytest.mark.parametrize(
    ("name", "fn"),
    [
        ("sum(0)", lambda x: x.sum(0)),
        ("sum(-1, keepdim)", lambda x: x.sum(-1, keepdim=True)),
        ("mean(0)", lambda x: x.mean(0)),
        ("amax(0)", lambda x: x.amax(0)),
        ("logsumexp(0)", lambda x: x.logsumexp(0)),
        ("max(0).values", lambda x: x.max(0).values),
        ("softmax(0) - 1 + x", lambda x: x.softmax(0) - 1 + x),
        ("squeeze(0)", lambda x: x.squeeze(0)),
        ("t()", lambda x: x.t()),
        ("T", lambda x: x.T),
        ("flatten()[0]", lambda x: x.flatten()[0]),
        ("unsqueeze(0)[0]", lambda x: x.unsqueeze(0)[0]),
    ],
)
def test_0d_accepts_dim_0_and_minus_1(name, fn):
    x = mg.tensor(3.0, requires_grad=True)
    out = fn(x)
    assert out.shape == () and out.item() == 3.0
    out.backward()
    assert x.grad.item() == 1.0


def test_0d_rejects_dim_1():
    x = mg.tensor(3.0)
    for fn in (lambda: x.sum(1), lambda: x.softmax(1), lambda: x.max(1), lambda: x.squeeze(1)):
        with pytest.raises(IndexError, match=r"range of \[-1, 0\], but got 1"):
            fn()


def test_cat_of_0d_tensors_says_to_stack():
    with pytest.raises(RuntimeError, match=r"zero-dimensional tensor \(at position 1\)"):
        mg.cat([mg.ones(1), mg.tensor(2.0)])
    assert mg.stack([mg.tensor(1.0), mg.tensor(2.0)]).shape == (2,)


def test_empty_dim_tuple_reduces_everything():
    x = mg.ones(2, 3)
    assert x.sum(dim=()).item() == 6.0 and x.mean(dim=[]).item() == 1.0
    assert x.amax(dim=()).shape == () and x.var(dim=()).item() == 0.0


def test_dot_product_backward():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = mg.tensor([4.0, 5.0, 6.0], requires_grad=True)
    (x @ y).backward()
    np.testing.assert_array_equal(x.grad.numpy(), [4.0, 5.0, 6.0])
    np.testing.assert_array_equal(y.grad.numpy(), [1.0, 2.0, 3.0])


# --- in-place ops and views -----------------------------------------------------------------------


def test_inplace_on_non_leaf_rebases_history():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1
    y.mul_(2)
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 2.0])


def test_inplace_on_a_leaf_that_requires_grad_is_an_error():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="leaf Variable"):
        x.mul_(2)


def test_inplace_on_a_saved_output_is_caught():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    y.add_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


def test_inplace_through_a_view_bumps_the_base_version():
    x = mg.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    h = x.exp()
    h[0].mul_(2)  # a basic index is a view: exp's saved output changed
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        h.sum().backward()


@pytest.mark.parametrize(
    ("name", "copy"),
    [
        ("reshape of a transposed tensor", lambda h: h.t().reshape(-1)),
        ("advanced index with a slice", lambda h: h[:, [0, 1]]),
        ("integer array index", lambda h: h[[1, 0]]),
    ],
)
def test_copies_do_not_share_the_version_counter(name, copy):
    """Ops that had to copy return memory of their own, so changing the copy in place does not
    look like a change to the (saved) input."""
    x = mg.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    h = x.exp()
    c = copy(h)
    assert not np.shares_memory(c.detach().numpy(), h.detach().numpy())
    c.mul_(2)
    h.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.exp(x.detach().numpy()))


def test_views_share_data_and_version():
    x = mg.arange(6.0).reshape(2, 3)
    views = (x.reshape(3, 2), x.view(-1), x.t(), x[0], x[1, 2], x[0][1], x[:, 1:], x[None])
    views += (x.unsqueeze(0), x.expand(2, 2, 3), x.T, x.mT, x.permute(1, 0), x.squeeze())
    copies = (x.t().reshape(-1), x[[0, 1]], x[:, [0, 1]], x[x > 2], x.clone(), x + 0)
    x.add_(1)
    for view in views:
        assert np.shares_memory(view.detach().numpy(), x.detach().numpy())
        assert view._version == x._version == 1
    for copy in copies:
        assert not np.shares_memory(copy.detach().numpy(), x.detach().numpy())
        assert copy._version == 0


# --- fixed outside ops while the table was written (kept as plain regression tests) -------------


def test_0d_results_hold_arrays():
    """ufuncs return numpy scalars for 0-d arrays; a tensor's array (._data) is always an ndarray."""
    x = mg.tensor(2.0, requires_grad=True)
    for out in (
        x * 3,
        x + x,
        x.exp(),
        -x,
        x.tanh(),
        mg.tensor(2.0) * 3,
        x.reshape(1) @ x.reshape(1),
    ):
        assert type(out._data) is np.ndarray


def test_where_with_a_number_and_an_array():
    """``where`` used to take any object with a ``.data`` attribute (a numpy array has one)
    for a tensor, and failed inside dtype promotion."""
    out = mg.where(mg.tensor([True, False]), 1.0, np.array([2.0, 3.0]))
    assert out.dtype is mg.float64 and out.tolist() == [1.0, 3.0]


def test_0d_gradients_hold_arrays():
    """Accumulating into a 0-d .grad (a second backward, retain_grad) keeps an ndarray, so
    in-place ops on the gradient work: ``x.grad.zero_()`` after two backward passes."""
    x = mg.tensor(3.0, requires_grad=True)
    for _ in range(2):
        y = x * x
        y.retain_grad()
        y.backward()
    assert type(x.grad._data) is np.ndarray and x.grad.item() == 12.0
    assert type(y.grad._data) is np.ndarray
    x.grad.zero_()
    assert x.grad.item() == 0.0


def test_inplace_on_0d_op_result():
    x = mg.tensor(2.0, requires_grad=True)
    y = x * 3
    y.add_(1)
    y.backward()
    assert y.item() == 7.0 and x.grad.item() == 3.0


def test_gradcheck_accepts_empty_inputs():
    x = mg.zeros(2, 0, dtype=mg.float64, requires_grad=True)
    y = mg.ones(3, dtype=mg.float64, requires_grad=True)
    assert mg.autograd.gradcheck(lambda a, b: a.sum() * b, (x, y))


def test_gradgradcheck_catches_a_wrong_second_derivative():
    class Cube(mg.autograd.Function):
        @staticmethod
        def forward(ctx, t):
            ctx.save_for_backward(t)
            return t * t * t

        @staticmethod
        def backward(ctx, g):
            (t,) = ctx.saved_tensors
            return g * 3 * t * t.detach()  # right value, wrong derivative of it

    x = mg.tensor([1.0, 2.0], dtype=mg.float64, requires_grad=True)
    assert mg.autograd.gradgradcheck(lambda t: t * t * t, (x,))
    assert mg.autograd.gradcheck(Cube.apply, (x,))
    assert not mg.autograd.gradgradcheck(Cube.apply, (x,), raise_exception=False)


@pytest.mark.parametrize(
    ("view", "expected"),
    [
        (lambda y: y[0], [10.0, 1.0, 1.0]),
        (lambda y: y.view(3), [10.0, 10.0, 10.0]),
        (lambda y: y[:2], [10.0, 10.0, 1.0]),
        (lambda y: y.reshape(1, 3)[0, 1:], [1.0, 10.0, 10.0]),
    ],
)
def test_inplace_through_a_view_reaches_the_base_gradient(view, expected):
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 1
    view(y).mul_(10)
    np.testing.assert_array_equal(y.detach().numpy(), np.array(expected) * [1.0, 2.0, 3.0])
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), expected)


def test_tensor_where_method():
    x = mg.tensor([1.0, -2.0])
    np.testing.assert_array_equal(x.where(x > 0, 0.0).detach().numpy(), [1.0, 0.0])


def test_tensor_setitem():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 1
    y[1:] = 0
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [1.0, 0.0, 0.0])


@pytest.mark.parametrize("step", [-1, -2, 0])
def test_slices_with_a_step_below_one_are_refused_as_in_pytorch(step):
    x = mg.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    with pytest.raises(ValueError, match=f"step must be greater than zero .*step {step}"):
        x[::step]
    with pytest.raises(ValueError, match="step must be greater than zero"):
        x.detach()[1::step] = 0.0


def test_positive_slice_steps_and_the_suggested_reversal_work():
    x = mg.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    (x[::2] * mg.tensor([10.0, 20.0])).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [10.0, 0.0, 20.0, 0.0])
    np.testing.assert_array_equal(x[mg.arange(3, -1, -1)].detach().numpy(), [4.0, 3.0, 2.0, 1.0])


@pytest.mark.parametrize(
    "shapes", [((2, 3), (3, 2)), ((3,), (3,)), ((4, 2, 3), (3,))], ids=["mm", "dot", "batched"]
)
def test_matmul_of_two_dtypes_is_refused_not_promoted(shapes):
    a = mg.ones(*shapes[0])
    b = mg.ones(*shapes[1], dtype=mg.float64)
    with pytest.raises(RuntimeError, match=r"same dtype.*float32 != .*float64.*does not promote"):
        a @ b
    np.testing.assert_array_equal(
        (a.double() @ b).detach().numpy(), np.ones(shapes[0]) @ np.ones(shapes[1])
    )


def test_matmul_under_autocast_casts_first_then_multiplies():
    w = mg.ones(3, 2)  # float32 master weight
    with mg.autocast(dtype=mg.float16):
        out = mg.ones(4, 3, dtype=mg.float16) @ w
    assert out.dtype is mg.float16


def test_addmm_saves_its_matrices_not_its_input():
    """As PyTorch's AddmmBackward0 (``_saved_mat1``, ``_saved_mat2``): the input may change in
    place before backward; a saved matrix may not."""
    b = mg.zeros(2, requires_grad=True)
    x, w = mg.ones(3, 4, requires_grad=True), mg.ones(4, 2, requires_grad=True)
    y = mg.addmm(b, x, w, beta=0.5, alpha=2.0)
    assert y.grad_fn.name() == "AddmmBackward0"
    assert (y.grad_fn._saved_beta, y.grad_fn._saved_alpha) == (0.5, 2.0)
    with mg.no_grad():
        b.add_(1.0)
    y.sum().backward()
    np.testing.assert_array_equal(b.grad.numpy(), [1.5, 1.5])  # beta * 3 rows
    np.testing.assert_array_equal(w.grad.numpy(), np.full((4, 2), 6.0))  # alpha * 3 ones
    y = mg.addmm(b, x, w)
    with mg.no_grad():
        w.mul_(2.0)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


def test_addmm_computes_only_the_gradients_that_lead_somewhere():
    """As PyTorch's formulas: the data of a first layer (mat1) needs no gradient, so its node
    sends None along that edge (one matrix product fewer a step)."""
    x, w, b = mg.ones(3, 2), mg.ones(4, 2, requires_grad=True), mg.zeros(4, requires_grad=True)
    y = mg.nn.functional.linear(x, w, b)
    g_input, g_mat1, g_mat2 = y.grad_fn(mg.ones(3, 4))
    assert g_mat1 is None and y.grad_fn.next_functions[1] == (None, 0)
    np.testing.assert_array_equal(g_input.numpy(), [3.0] * 4)
    np.testing.assert_array_equal(g_mat2.numpy(), np.full((2, 4), 3.0))
    (g_x,) = mg.autograd.grad(mg.nn.functional.linear(x.requires_grad_(), w, b).sum(), x)
    np.testing.assert_array_equal(g_x.numpy(), np.full((3, 2), 4.0))  # when it is needed


def test_linear_on_a_batch_records_one_addmm_node():
    lin = mg.nn.Linear(3, 2)
    assert lin(mg.ones(4, 3)).grad_fn.name() == "AddmmBackward0"
    assert lin(mg.ones(5, 4, 3)).grad_fn.name() == "AddBackward0"  # see docs/differences.md


def test_untracked_number_updates_keep_pytorchs_dtype_rules_and_versions():
    """``x += c`` with nothing to record runs the op's forward on the array (_inplace): the
    same refusals as the recorded path, and the version still counts."""
    n = mg.zeros(2, 2, dtype=mg.int32)
    v = n[0, 1]
    v += 3
    n[1, 0] -= 2
    n[1, 1] *= 5
    np.testing.assert_array_equal(n.numpy(), [[0, 3], [-2, 0]])
    assert (
        n._version == 5 and n.dtype is mg.int32
    )  # as PyTorch: each write through a view, each setitem
    with pytest.raises(RuntimeError, match="can't be cast to the desired output type"):
        n[0, 0] += 2.5
    with pytest.raises(RuntimeError, match="Subtraction, the `-` operator, with a bool tensor"):
        mg.zeros(2, dtype=mg.bool).sub_(1)
    x = mg.ones(2, dtype=mg.float16)
    x *= 3.0
    assert x.dtype is mg.float16 and x.tolist() == [3.0, 3.0]
