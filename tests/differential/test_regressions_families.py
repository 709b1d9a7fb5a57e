"""One regression test per class of difference the differential suite's later families found
(``diff_families.py``: dtypes, clamp, conversions, reductions with options, products,
activations, softmax with ``dtype=``, losses) (issue 26).

Each asserts PyTorch 2.13's answer, written down here so the tests run without torch; the
differential suite checks them against PyTorch.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F


def _signbit(t) -> list[bool]:
    return np.signbit(t.detach().numpy()).reshape(-1).tolist()


# --- dtype= of sum, mean, softmax, log_softmax: the input is cast first -----------------------
def test_sum_and_mean_take_dtype_and_cast_the_input_first():
    i = mg.tensor([1, 2])
    assert mg.sum(i, dtype=mg.float32).dtype is mg.float32
    assert i.sum(0, dtype=mg.float64).dtype is mg.float64
    assert i.mean(dtype=mg.float64).item() == 1.5  # an int tensor's mean, given a float dtype
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = x.sum(dtype=mg.float64)
    assert y.dtype is mg.float64
    y.backward()
    assert x.grad.dtype is mg.float32 and x.grad.tolist() == [1.0, 1.0]


@pytest.mark.parametrize("fn", ["softmax", "log_softmax"])
def test_softmax_method_takes_dtype(fn):
    x = mg.tensor([[0.0, 1.0]], dtype=mg.float64)
    out = getattr(x, fn)(-1, dtype=mg.float32)
    assert out.dtype is mg.float32
    np.testing.assert_allclose(
        getattr(F, fn)(x, dim=-1).numpy(), out.numpy().astype(np.float64), rtol=1e-6
    )
    assert getattr(mg.tensor([1, 2]), fn)(0, dtype=mg.float64).dtype is mg.float64


@pytest.mark.parametrize("fn", ["softmax", "log_softmax"])
@pytest.mark.parametrize("x", [mg.tensor([1, 2]), mg.tensor([True, False])])
def test_softmax_of_integer_or_bool_is_not_implemented(fn, x):
    with pytest.raises(NotImplementedError, match=r"floating point tensor .*dtype="):
        getattr(x, fn)(0)
    with pytest.raises(NotImplementedError):
        getattr(F, fn)(x, dim=0)


# --- clamp: numbers and tensors do not mix, except a 0-d tensor without grad ------------------
def test_clamp_refuses_a_number_and_a_tensor_bound():
    x = mg.tensor([1.0, -1.0, 3.0])
    for lo, hi in ((0, x), (x, 1.0), (-0.5, mg.tensor(2.0, requires_grad=True))):
        with pytest.raises(TypeError, match=r"both numbers or both Tensors"):
            x.clamp(min=lo, max=hi)
    with pytest.raises(TypeError, match=r"both numbers or both Tensors"):
        x.clone().clamp_(min=x, max=1.0)
    with pytest.raises(TypeError, match=r"both numbers or both Tensors"):
        mg.clamp(x, x, 1)


def test_clamp_takes_a_zero_dim_tensor_without_grad_as_a_number():
    x = mg.tensor([1.0, -1.0, 3.0])
    y = x.clamp(min=-0.5, max=mg.tensor(2.0, dtype=mg.float64))
    assert y.dtype is mg.float32 and y.tolist() == [1.0, -0.5, 2.0]
    z = mg.tensor([1, 5]).clamp(min=0, max=mg.tensor(2.5))  # a float number: float32
    assert z.dtype is mg.float32 and z.tolist() == [1.0, 2.5]


# --- signed zeros of PyTorch's formulas --------------------------------------------------------
def test_cumsum_starts_at_positive_zero():
    assert _signbit(mg.tensor([-0.0, -0.0]).cumsum(0)) == [False, False]
    assert _signbit(mg.tensor([[-0.0], [-0.0]]).cumsum(dim=-1)) == [False, False]
    assert _signbit(mg.tensor(-0.0).cumsum(0)) == [True]  # 0-d: the value itself
    assert mg.tensor([1, 2]).cumsum(0).dtype is mg.int64


def test_cross_entropy_with_probabilities_negates_the_total():
    x = mg.tensor([[0.5]], requires_grad=True)  # one class: log_softmax is 0
    target = mg.tensor([[1.0]])
    assert _signbit(F.cross_entropy(x, target)) == [True]  # -(0 * 1).sum() / 1
    assert _signbit(F.cross_entropy(x, target, reduction="sum")) == [True]
    assert _signbit(F.cross_entropy(x, target, reduction="none")) == [True]


def test_cross_entropy_with_probabilities_of_another_float_dtype_promotes():
    a = mg.tensor([[1.0, 2.0]], dtype=mg.float64)
    b = mg.tensor([[0.5, 0.5]])
    for x, t in ((a, b), (a.float(), b.double())):
        out = F.cross_entropy(x, t)
        assert out.dtype is mg.float64
        assert out.item() == pytest.approx(0.8132616875182228)


def test_logsigmoid_of_infinity_is_positive_zero():
    out = F.logsigmoid(mg.tensor([math.inf, -0.0, 0.0], dtype=mg.float64))
    assert _signbit(out) == [False, True, True]
    assert out.tolist()[1] == pytest.approx(-math.log(2.0))


def test_elu_of_negative_zero_is_negative_zero():
    out = F.elu(mg.tensor([-0.0, 0.0, -1.0, 2.0]))
    assert _signbit(out) == [True, False, True, False]  # alpha * expm1(-0.0) is -0.0


def test_clamp_gradient_outside_is_positive_zero_and_drops_nan():
    x = mg.tensor([0.25, 2.0, -2.0], dtype=mg.float64, requires_grad=True)
    x.clip(min=0, max=-1.0).mul(-1.0).sum().backward()  # min > max: nothing passes
    assert _signbit(x.grad) == [False, False, False]
    y = mg.tensor([0.5, 3.0], requires_grad=True)
    (y.clamp(0, 1) * mg.tensor([math.nan, math.nan])).sum().backward()
    assert math.isnan(y.grad.tolist()[0]) and y.grad.tolist()[1] == 0.0  # where, not g * 0


# --- bad input refused as PyTorch refuses it ---------------------------------------------------
def test_subtraction_with_a_python_bool_is_refused():
    for f in (lambda: mg.tensor(1.0) - True, lambda: True - mg.tensor(1.0)):
        with pytest.raises(RuntimeError, match=r"Subtraction, the `-` operator, with a bool"):
            f()
    assert (mg.tensor(1.0) + True).item() == 2.0


@pytest.mark.parametrize("op", ["argmax", "argmin"])
def test_argmax_of_bool_is_refused(op):
    with pytest.raises(RuntimeError, match=rf"{op}\(\): does not support bool input"):
        getattr(mg.tensor([True, False]), op)(dim=0)


def test_binary_cross_entropy_checks_the_target_range():
    with pytest.raises(RuntimeError, match=r"all elements of target should be between 0 and 1"):
        F.binary_cross_entropy(mg.tensor([0.5]), mg.tensor([math.nan]))
    with pytest.raises(RuntimeError, match=r"target should be between 0 and 1"):
        F.binary_cross_entropy(mg.tensor([0.5]), mg.tensor([1.5]))


# --- promotion and conversions PyTorch does first ---------------------------------------------
def test_logsumexp_of_integers_and_bools_is_in_the_default_float_dtype():
    assert mg.tensor([True]).logsumexp(0).tolist() == pytest.approx(1.0)
    out = mg.tensor([1, 2]).logsumexp(0)
    assert out.dtype is mg.float32 and out.item() == pytest.approx(2.3132617)


@pytest.mark.parametrize("loss", ["mse_loss", "l1_loss", "smooth_l1_loss"])
def test_regression_loss_of_broadcast_zero_dim_target_promotes(loss):
    x = mg.tensor([-0.5, 0.5, -0.25, 2.0], requires_grad=True)
    t = mg.tensor(-1.5, dtype=mg.float64, requires_grad=True)
    with pytest.warns(UserWarning, match="different to the input size"):
        out = getattr(F, loss)(x, t, reduction="sum")
    assert out.dtype is mg.float64  # broadcast first: the 0-d target counts as dimensioned
    out.backward()
    assert x.grad.dtype is mg.float32 and t.grad.dtype is mg.float64
    assert getattr(F, loss)(t, t * 2).dtype is mg.float64


def test_class_loss_of_one_sample_of_scores_sums_from_positive_zero():
    x = mg.tensor([0.0])  # (C,) scores, a 0-d target: log-probability 0
    assert _signbit(F.nll_loss(x, mg.tensor(0), reduction="none")) == [False]
    assert _signbit(F.cross_entropy(x, mg.tensor(0), reduction="none")) == [False]
    ls = F.cross_entropy(x, mg.tensor(0), reduction="none", label_smoothing=0.1)
    assert _signbit(ls) == [False]
    assert _signbit(F.nll_loss(mg.tensor([[0.0]]), mg.tensor([0]), reduction="none")) == [True]


def test_clamp_with_tensor_bounds_propagates_nan_and_takes_pytorchs_gradient_masks():
    nan = math.nan
    x = mg.tensor([1.0, -1.0, nan, 0.5, 1.5, 0.0, -0.0], requires_grad=True)
    lo = mg.tensor([nan, 0.0, 0.0, nan, 2.0, 1.0, -1.0], requires_grad=True)
    hi = mg.tensor([0.0, nan, 0.0, 2.0, 1.0, 1.0, 1.0], requires_grad=True)
    y = x.clamp(lo, hi)
    np.testing.assert_array_equal(y.detach().numpy(), [nan, nan, nan, nan, 1.0, 1.0, -0.0])
    assert _signbit(y)[-1]
    y.sum().backward()
    assert x.grad.tolist() == [0, 0, 0, 0, 0, 0, 1]  # lo <= x <= hi (NaN compares false)
    assert lo.grad.tolist() == [0, 0, 0, 0, 0, 0, 0]  # x < lo < hi
    assert hi.grad.tolist() == [1, 0, 0, 0, 1, 0, 0]  # x > hi or hi < lo
    x.grad = lo.grad = None
    y = x.clamp(min=lo)
    np.testing.assert_array_equal(y.detach().numpy(), [nan, 0.0, nan, nan, 2.0, 1.0, -0.0])
    y.sum().backward()
    assert x.grad.tolist() == [0, 0, 0, 0, 0, 0, 1]
    assert lo.grad.tolist() == [0, 1, 0, 0, 1, 1, 0]


def test_huber_loss_computes_in_the_input_dtype():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    t = mg.tensor([0.5, 0.0], dtype=mg.float64, requires_grad=True)
    assert F.huber_loss(x, t, reduction="none").dtype is mg.float32
    assert F.huber_loss(t, x, reduction="none").dtype is mg.float64
    with pytest.warns(UserWarning, match="different to the input size"):
        assert F.huber_loss(x, t[0]).dtype is mg.float32


def test_clamp_with_tensor_bounds_promotes_as_one_op():
    x = mg.tensor([[0.5, 3.0]], requires_grad=True)
    assert x.clamp(max=mg.tensor(2.0, dtype=mg.float64)).dtype is mg.float32  # 0-d: no say
    assert x.clamp(max=mg.tensor([2.0, 1.0], dtype=mg.float64)).dtype is mg.float64
    i = mg.tensor([1, 5, -3])
    assert i.clamp(mg.tensor([0]), mg.tensor([2])).tolist() == [1, 2, 0]
    assert i.clamp(min=mg.tensor([False])).dtype is mg.int64
    assert mg.tensor([True]).clamp(min=mg.tensor([False])).dtype is mg.bool


def test_clamp_of_bools_with_two_tensor_bounds_is_not_implemented():
    b = mg.tensor([True, False])
    with pytest.raises(NotImplementedError, match=r"bool"):
        mg.clip(b, min=b, max=b)


@pytest.mark.parametrize("fn", ["maximum", "minimum"])
def test_maximum_minimum_gradient_of_the_loser_is_a_masked_positive_zero(fn):
    a = mg.tensor([0.25, 1.0, 0.0, -1.0], requires_grad=True)
    b = mg.tensor([0.0, 1.0, 1.0, 0.0], requires_grad=True)
    getattr(mg, fn)(a, b).mul(-1.0).sum().backward()
    assert -0.5 in a.grad.tolist() and -0.5 in b.grad.tolist()  # the tie at 1.0 split
    for g in (a.grad, b.grad):
        assert not any(np.signbit(v) for v in g.tolist() if v == 0)
    a.grad = b.grad = None
    getattr(mg, fn)(a, b).mul(math.nan).sum().backward()
    assert sum(v == 0 for v in a.grad.tolist() + b.grad.tolist()) == 3  # not NaN * 0


# --- integer powers: a negative exponent is 0, except for the bases 1 and -1 -------------------
def test_integer_tensor_powers_with_negative_exponents_are_pytorchs():
    """(fuzz seed 4109: ``i3 ** i3`` raised numpy's ValueError.) PyTorch's integer pow gives 0
    for a negative exponent, 1 for base 1 and +-1 for base -1; only a tensor to a negative
    Python int is refused, with a RuntimeError."""
    a = mg.tensor([2, 3, -2, 1, 0, -1, -1, 5])
    b = mg.tensor([-1, 2, -2, -3, -1, -3, -2, 0])
    assert (a**b).tolist() == [0, 9, 0, 1, 0, -1, 1, 1]
    assert (a**b).dtype is mg.int64
    i3 = mg.tensor([[[3], [0], [-1]]])
    assert (i3**i3).tolist() == [[[27], [1], [-1]]]
    assert (2 ** mg.tensor([-1, 2])).tolist() == [0, 4]
    assert (3 ** mg.tensor([True, False])).tolist() == [3, 1]  # (seed 20261208) bool: int64
    assert (3 ** mg.tensor([True, False])).dtype is mg.int64
    assert ((-1) ** mg.tensor([-1, -2, 3])).tolist() == [-1, 1, -1]
    assert (mg.tensor([2, 3], dtype=mg.uint8) ** mg.tensor([-1, 2])).tolist() == [0, 9]
    with pytest.raises(RuntimeError, match="Integers to negative integer powers"):
        mg.tensor([2, 3]) ** -1


# --- clamp with a NaN: a NaN bound makes every value NaN; a NaN input stays NaN ---------------
def test_clamp_nan_bounds_and_nan_inputs_are_pytorchs():
    """(fuzz seed 20261206: ``clip(x, min=<0-d NaN>, max=-1.0)`` gave -1 where PyTorch gives NaN.)"""
    x = mg.tensor([0.5, float("nan"), -3.0, 2.0], requires_grad=True)
    for kw in (dict(min=float("nan"), max=-1.0), dict(min=-1.0, max=float("nan"))):
        assert all(math.isnan(v) for v in mg.clamp(x, **kw).tolist())
    assert all(math.isnan(v) for v in mg.clip(x, min=mg.tensor(float("nan")), max=-1.0).tolist())
    lo = mg.tensor([0.2], requires_grad=True)
    hi = mg.tensor([-1.0], requires_grad=True)
    y = mg.clamp(x, min=lo, max=hi)  # hi < lo: hi everywhere, but a NaN input stays NaN
    assert y.tolist()[0] == -1.0 and math.isnan(y.tolist()[1])
    gx, glo, ghi = mg.autograd.grad(y.sum(), [x, lo, hi])
    assert gx.tolist() == [0.0, 0.0, 0.0, 0.0] and glo.tolist() == [0.0] and ghi.tolist() == [4.0]


# --- after the merges (fuzz seed 20261207) ------------------------------------------------------
@pytest.mark.parametrize("bounds", [dict(max=False), dict(min=True), dict(min=False, max=True)])
def test_clamp_of_a_bool_tensor_with_bool_bounds_is_not_implemented_as_pytorch(bounds):
    b = mg.tensor([True, False])
    with pytest.raises(NotImplementedError, match="not implemented for 'Bool'"):
        mg.clamp(b, **bounds)
    assert mg.clamp(b, max=1).tolist() == [1, 0]  # an int bound promotes: runs, as PyTorch


def test_sparse_sum_refuses_a_second_backward_tensor_sum_does_not():
    """PyTorch's SparseSumBackward0 saves the input's indices, so a second backward through it
    is refused once backward freed them; ``Tensor.sum`` of a sparse tensor saves only sizes."""
    x = mg.tensor([[0.25]], requires_grad=True)
    s = mg.sparse.sum(x.to_sparse())
    s.sum().backward()
    with pytest.raises(RuntimeError, match="second time"):
        s.sum().backward()
    y = x.to_sparse().sum()
    y.backward()
    y.backward()
    assert x.grad.tolist() == [[3.0]]


# --- fuzz seed 20261208: a regression loss of a tensor against itself (fuzz5) -----------------
@pytest.mark.parametrize(
    "loss",
    [F.huber_loss, F.smooth_l1_loss, F.mse_loss, lambda x, y: F.smooth_l1_loss(x, y, beta=0.5)],
)
@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_regression_loss_of_equal_operands_gives_each_the_zero_of_its_own_side(loss, sign):
    """PyTorch differentiates the target from its own side (``huber_loss_backward(grad, target,
    self)``), so at x == y both gradients are 0 * g, with g's sign; as minus the input's they
    would be opposite zeros, and a tensor that is input and target would always get +0.0."""
    x = mg.tensor([1.0, -2.0, 0.5], requires_grad=True)
    (loss(x, x) * sign).backward()
    assert x.grad.tolist() == [0.0, 0.0, 0.0]
    assert _signbit(x.grad) == [sign < 0] * 3
    a = mg.tensor([1.0, -2.0], requires_grad=True)
    b = mg.tensor([1.0, -2.0], requires_grad=True)
    (loss(a, b) * sign).backward()
    assert _signbit(a.grad) == _signbit(b.grad) == [sign < 0] * 2


@pytest.mark.parametrize(
    ("loss", "slope"),
    [  # d loss / d x at x - y = (-2, 0.25, 3), reduction='sum'
        (F.mse_loss, [-4.0, 0.5, 6.0]),
        (F.huber_loss, [-1.0, 0.25, 1.0]),
        (lambda x, y, reduction: F.huber_loss(x, y, reduction, delta=0.5), [-0.5, 0.25, 0.5]),
        (F.smooth_l1_loss, [-1.0, 0.25, 1.0]),
        (
            lambda x, y, reduction: F.smooth_l1_loss(x, y, reduction=reduction, beta=0.5),
            [-1.0, 0.5, 1.0],
        ),
    ],
)
def test_regression_losses_have_a_forward_rule_from_each_side(loss, slope):
    """``func.jvp`` through the losses: t_x slope(x, y) + t_y slope(y, x) (PyTorch's rule)."""
    x, y = mg.tensor([0.0, 1.25, 4.0]), mg.tensor([2.0, 1.0, 1.0])
    tx, ty = mg.tensor([1.0, 1.0, 1.0]), mg.tensor([0.0, 2.0, 0.0])
    _, dx = mg.func.jvp(lambda a: loss(a, y, reduction="sum"), (x,), (tx,))
    assert dx.item() == pytest.approx(sum(slope))
    _, dboth = mg.func.jvp(lambda a, b: loss(a, b, reduction="none"), (x, y), (tx, ty))
    assert dboth.tolist() == pytest.approx([slope[0], slope[1] - 2 * slope[1], slope[2]])


# --- fuzz seed 20261210: max(), min(), median() of all elements pick a NaN by the NaNs ---------
@pytest.mark.parametrize("fn", [lambda x: x.max(), lambda x: x.min(), mg.max, lambda x: x.median()])
def test_extreme_of_all_elements_sends_a_nan_result_to_the_nans(fn):
    """PyTorch's ``evenly_distribute_backward``: a NaN result is picked by the NaNs (they share
    the gradient), every other element gets a masked +0.0 (not g * 0: -0.0 for g < 0)."""
    x = mg.tensor([[1.0, float("nan")], [float("nan"), 3.0]], requires_grad=True)
    (fn(x) * -2.0).backward()
    assert x.grad.tolist() == [[0.0, -1.0], [-1.0, 0.0]]
    assert _signbit(x.grad) == [False, True, True, False]
    y = mg.tensor([2.0, 3.0, 1.0], requires_grad=True)
    (fn(y) * -1.0).backward()
    assert sorted(y.grad.tolist()) == [-1.0, 0.0, 0.0]
    assert _signbit(y.grad).count(True) == 1  # the others: a masked +0.0


def test_amax_keeps_the_nan_gradient_of_its_equality_mask():
    """``amax``'s own formula (``grad / mask.sum() * mask``): no element equals a NaN result."""
    x = mg.tensor([1.0, float("nan")], requires_grad=True)
    x.amax().backward()
    assert all(math.isnan(v) for v in x.grad.tolist())


@pytest.mark.parametrize("ord", [float("inf"), float("-inf")])
def test_infinity_norm_of_a_nan_slice_has_a_zero_gradient(ord):
    """PyTorch's mask holds the NaNs too, and sign(NaN) is 0: the NaN slice's gradient is 0."""
    x = mg.tensor([[1.0, float("nan"), -3.0], [2.0, 2.0, -0.5]], requires_grad=True)
    mg.linalg.vector_norm(x, ord, dim=1).sum().backward()
    assert x.grad.tolist()[0] == [0.0, 0.0, 0.0]
    assert x.grad.tolist()[1] == ([0.5, 0.5, 0.0] if ord > 0 else [0.0, 0.0, -1.0])


# --- fuzz seed 20261211: the p-norm's gradient by PyTorch's norm_backward, branch by branch ---
def test_two_norm_gradient_is_grad_times_x_over_the_norm():
    """``grad * (x / norm)``: an infinite norm sends -0.0 to a -0.0 entry (sign(x) |x| / norm
    would send +0.0), and a zero norm a masked +0.0."""
    x = mg.tensor([[1.0, -0.0, -float("inf")], [0.0, -0.0, 0.0]], requires_grad=True)
    x.norm(dim=1).sum().backward()
    assert _signbit(x.grad)[:2] == [False, True] and _signbit(x.grad)[3:] == [False] * 3
    y = mg.tensor([0.5, -0.0, 2.0], requires_grad=True)
    (mg.linalg.vector_norm(y, 3) * -1.0).backward()
    assert _signbit(y.grad) == [True, False, True]  # -0.0 * |-0.0| * (-g / n^2): +0.0


def test_zero_norm_leaves_the_gradient_undefined():
    x = mg.tensor([1.0, 0.0, 2.0], requires_grad=True)
    x.norm(p=0).backward()
    assert x.grad is None
    (mg.linalg.vector_norm(x, 0) + (x * 2.0).sum()).backward()
    assert x.grad.tolist() == [2.0, 2.0, 2.0]


# --- fuzz seed 20261208: a view rebased before its grad_fn was read is a leaf to PyTorch -------
def _view_then_root_changes():
    """``v`` is a view of ``x`` made while ``x`` did not require grad; then ``x`` changes in
    place in the graph (through another view), so ``v`` requires grad now."""
    x = mg.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=mg.float64)
    v = x[0:2]
    x[0:1].mul_(mg.tensor(2.0, dtype=mg.float64, requires_grad=True))
    return x, v


def test_in_place_on_a_rebased_view_whose_grad_fn_nothing_read_is_refused():
    """PyTorch builds such a view's grad_fn when it is read; its in-place check does not, so it
    sees a leaf that requires grad: ``v.add_(1)``, ``v[:] = ...`` (which writes into ``v``
    itself) and the fuzz's ``v11[0:1] *= v8`` are refused."""
    for write in (
        lambda v: v.add_(1),
        lambda v: v.__setitem__(slice(None), 5.0),
        lambda v: v.__setitem__((Ellipsis, slice(0, 9)), 5.0),
        lambda v: v.__setitem__(mg.tensor([0]), 5.0),
    ):
        _, v = _view_then_root_changes()
        with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
            write(v)
    x1 = mg.tensor(1.5, dtype=mg.float64, requires_grad=True)
    x3 = mg.tensor([1.0], dtype=mg.float64)
    with mg.no_grad():
        v8 = x1[...]
    v11 = x3[::2, None][-1:]
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        v11[0:1] *= v8


def test_reading_a_rebased_views_grad_fn_lets_in_place_ops_run():
    """What reads the grad_fn in PyTorch (``is_leaf``, ``repr``, using the view in an op,
    backward from it, an index that makes a view first) builds it: then in-place runs."""
    for read in (
        lambda v: v.is_leaf,
        repr,
        lambda v: v * 2,
        lambda v: v.sum().backward(),
        lambda v: v.__setitem__(0, 5.0),  # a select: a view of v made first
    ):
        x, v = _view_then_root_changes()
        read(v)
        v.add_(1)
        assert x.tolist()[1] == [4.0, 5.0] and not v.is_leaf
    _, v = _view_then_root_changes()
    v[-2:] = 5.0  # a slice not from 0: a view made first
    _, v = _view_then_root_changes()
    with mg.no_grad():
        v.add_(1)  # no check without grad mode; nothing read either
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        v.add_(1)


# --- fuzz seed 705 (brief item 3): gradients that are views of g refuse in-place writes ---------
@pytest.mark.parametrize(
    "key", [(slice(None), None), None, Ellipsis, (Ellipsis, None, slice(0, 9))]
)
def test_gradient_of_an_index_that_only_adds_dims_is_a_view_of_g(key):
    """PyTorch's UnsqueezeBackward0 and AliasBackward0 return views of the incoming gradient: of
    ``sum``'s expanded ones, a tensor whose elements share memory, refused as in-place target."""
    x = mg.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    (g,) = mg.autograd.grad(x[key].sum(), x)
    assert g.tolist() == [[1.0, 1.0], [1.0, 1.0]]
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        g.mul_(g)
    (h,) = mg.autograd.grad((x[key] * 2.0).sum(), x)  # a view of a gradient of its own memory
    h.add_(1.0)
    assert h.tolist() == [[3.0, 3.0], [3.0, 3.0]]


@pytest.mark.parametrize(
    "key", [slice(None), slice(0, 2), (0,), (slice(None), 1), (slice(1, 2), None)]
)
def test_gradient_of_a_slice_or_select_has_memory_of_its_own(key):
    """A bare ``x[:]`` is PyTorch's SliceBackward0 (zeros, then g written in): writable."""
    x = mg.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    (g,) = mg.autograd.grad(x[key].sum(), x)
    g.mul_(2.0)
    want = np.zeros((2, 2))
    want[key] = 2.0
    assert g.tolist() == want.tolist()


# --- fuzz seed 20261213: elu's gradient at NaN takes the linear side ---------------------------
def test_elu_gradient_at_nan_is_the_linear_sides():
    """PyTorch's elu_backward tests ``x <= 0`` for the exponential side: a NaN fails it and gets
    g * 1; its double backward's ``where`` gives 0 there (not 0 * NaN)."""
    x = mg.tensor([float("nan"), -1.0, 0.0, 2.0], dtype=mg.float64, requires_grad=True)
    (g,) = mg.autograd.grad(F.elu(x, 0.5).sum(), x, create_graph=True)
    assert g.tolist() == pytest.approx([1.0, 0.5 * math.exp(-1.0), 0.5, 1.0])
    (h,) = mg.autograd.grad(g.sum(), x)
    assert h.tolist() == pytest.approx([0.0, 0.5 * math.exp(-1.0), 0.0, 0.0])


# --- fuzz seed 20261210: clamp with tensor bounds saves the input and the bounds --------------
def test_clamp_with_tensor_bounds_refuses_backward_after_its_input_changed_in_place():
    """PyTorch's ClampBackward0 saves self, min and max: an in-place change of any of them
    before backward is refused (the composite of ``where``s kept only masks, and ran)."""
    x1 = mg.tensor(-0.5, dtype=mg.float64, requires_grad=True)
    v2 = mg.clamp(x1, min=-0.5, max=2)
    v3 = v2.clip(min=v2, max=v2)
    assert v3.grad_fn.name() == "ClampBackward0"
    v2.tanh_()
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        mg.autograd.grad(v3.sum(), x1)
    x = mg.tensor([1.0, 5.0], requires_grad=True)
    lo = mg.tensor([2.0, 0.0])
    y = x.clamp(min=lo)
    assert y.grad_fn._saved_max is None and y.grad_fn._saved_min is lo
    lo.add_(1.0)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


# --- fuzz seed 20261214: x - 0 keeps a -0.0 (PyTorch adds (-1) * 0.0 = -0.0) -------------------
def test_subtracting_a_zero_number_keeps_negative_zero():
    x = mg.tensor([-0.0, 0.0], dtype=mg.float64)
    for y in (x - 0, mg.sub(x, 0), x.sub(0), x.add(0, alpha=-1), x.sub(0, alpha=3)):
        assert _signbit(y) == [True, False]
    assert _signbit(x + 0) == [False, False]  # -0.0 + 0 is +0.0 in both
    i = mg.tensor([3, 4])
    assert (i - 0).dtype is mg.int64 and i.add(1, alpha=-2).tolist() == [1, 2]


# --- fuzz seed 20261230: a split/chunk piece that is the whole tensor passes g through ---------
def test_a_chunk_that_is_the_whole_tensor_keeps_a_sparse_gradient_sparse():
    """PyTorch's SplitBackward0 with one piece is the piece's gradient itself: a sparse
    gradient (embedding with ``sparse=True``) reaches the leaf sparse, not densified."""
    x = mg.tensor([[2.0]], dtype=mg.float64, requires_grad=True)
    (piece,) = x.chunk(2, dim=0)
    F.embedding(mg.tensor([0, 0]), piece, sparse=True).sum().backward()
    assert x.grad.layout == mg.sparse_coo and x.grad.to_dense().tolist() == [[2.0]]
    y = mg.tensor([[2.0], [3.0]], requires_grad=True)
    (whole,) = y.split([2])
    (whole * 2).sum().backward()
    assert y.grad.tolist() == [[2.0], [2.0]]


# --- fuzz seed 20261231: clamp with tensor bounds that do not broadcast -----------------------
def test_clamp_bounds_that_do_not_broadcast_raise_pytorchs_runtime_error():
    x = mg.tensor(0.25, dtype=mg.float64, requires_grad=True)
    lo = mg.tensor([[1.5], [-1.5], [-0.25], [3.0]], dtype=mg.float64)
    hi = mg.zeros(1, 2, 4)
    with pytest.raises(RuntimeError, match="must match the size"):
        x.clamp(min=lo, max=hi)
    with pytest.raises(RuntimeError, match="must match the size"):
        mg.ones(3).clamp(max=mg.ones(2))
    assert mg.ones(2, 1).clamp(min=mg.zeros(3)).shape == (2, 3)
