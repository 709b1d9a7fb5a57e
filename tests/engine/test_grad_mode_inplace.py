"""Grad mode, version counters, in-place ops, dtypes that can require grad; detach and is_leaf.

RELIABILITY.md, "Grad mode, in-place, dtype". Messages are PyTorch's wording.
"""

import re

import numpy as np
import pytest

import minigrad as mg

LEAF_INPLACE = "a leaf Variable that requires grad is being used in an in-place operation."
VIEW_OF_LEAF_INPLACE = (
    "a view of a leaf Variable that requires grad is being used in an in-place operation."
)
MODIFIED = (
    "one of the variables needed for gradient computation has been modified by an inplace operation"
)
INT_GRAD = "Only Tensors of floating point and complex dtype can require gradients"


def version_numbers(exc) -> tuple[int, int]:
    """(N, M) from "... is at version N; expected version M instead"."""
    m = re.search(r"is at version (\d+); expected version (\d+) instead", str(exc))
    assert m, f"no version numbers in: {exc}"
    return int(m.group(1)), int(m.group(2))


# --- grad modes ----------------------------------------------------------------------------------


def test_grad_is_enabled_by_default():
    assert mg.is_grad_enabled() is True
    assert mg.autograd.is_grad_enabled() is True


def test_grad_modes_nest_and_restore():
    seen = [mg.is_grad_enabled()]
    with mg.no_grad():
        seen.append(mg.is_grad_enabled())
        with mg.enable_grad():
            seen.append(mg.is_grad_enabled())
            with mg.set_grad_enabled(False):
                seen.append(mg.is_grad_enabled())
                with mg.no_grad():
                    seen.append(mg.is_grad_enabled())
                seen.append(mg.is_grad_enabled())
            seen.append(mg.is_grad_enabled())
        seen.append(mg.is_grad_enabled())
    seen.append(mg.is_grad_enabled())
    assert seen == [True, False, True, False, False, False, True, False, True]


def test_no_grad_stops_recording_and_enable_grad_resumes():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with mg.no_grad():
        y = x * 2.0
        with mg.enable_grad():
            z = x * 3.0
    assert not y.requires_grad and y.grad_fn is None and y.is_leaf
    assert z.requires_grad and z.grad_fn is not None
    z.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 3.0])


@pytest.mark.parametrize(
    "manager, inside",
    [
        (lambda: mg.no_grad(), False),
        (lambda: mg.enable_grad(), True),
        (lambda: mg.set_grad_enabled(False), False),
        (lambda: mg.set_grad_enabled(True), True),
    ],
)
@pytest.mark.parametrize("outside", [True, False])
def test_managers_restore_state_after_an_exception(manager, inside, outside):
    mg.set_grad_enabled(outside)
    try:
        with pytest.raises(KeyError):
            with manager():
                assert mg.is_grad_enabled() is inside
                raise KeyError("boom")
        assert mg.is_grad_enabled() is outside
    finally:
        mg.set_grad_enabled(True)


def test_nested_managers_restore_state_after_an_exception_deep_inside():
    with pytest.raises(ValueError):
        with mg.no_grad():
            with mg.enable_grad():
                with mg.no_grad():
                    raise ValueError
    assert mg.is_grad_enabled()


def test_no_grad_and_enable_grad_work_as_decorators():
    x = mg.tensor(1.0, requires_grad=True)

    @mg.no_grad()
    def frozen(t):
        return t * 2.0, mg.is_grad_enabled()

    @mg.enable_grad()
    def recorded(t):
        return t * 2.0

    y, flag = frozen(x)
    assert flag is False and not y.requires_grad
    assert mg.is_grad_enabled()
    with mg.no_grad():
        z = recorded(x)
        assert not mg.is_grad_enabled()
    assert z.requires_grad
    assert frozen.__name__ == "frozen"  # functools.wraps


def test_set_grad_enabled_as_decorator_and_as_plain_call():
    @mg.set_grad_enabled(False)
    def f():
        return mg.is_grad_enabled()

    assert mg.is_grad_enabled()  # decorating does not change the mode
    assert f() is False
    assert mg.is_grad_enabled()
    try:
        mg.set_grad_enabled(False)  # a plain call sets the mode at once, as in PyTorch
        assert not mg.is_grad_enabled()
    finally:
        mg.set_grad_enabled(True)
    assert mg.is_grad_enabled()


def test_decorated_function_restores_state_after_an_exception():
    @mg.no_grad()
    def boom():
        raise RuntimeError("inside")

    with pytest.raises(RuntimeError, match="inside"):
        boom()
    assert mg.is_grad_enabled()


def test_no_grad_works_as_a_bare_decorator():
    @mg.no_grad
    def f():
        return mg.is_grad_enabled()

    assert f() is False


def test_no_grad_decorates_generator_functions():
    @mg.no_grad()
    def gen():
        yield mg.is_grad_enabled()
        yield mg.is_grad_enabled()

    assert list(gen()) == [False, False]
    assert mg.is_grad_enabled()


# --- version counters ----------------------------------------------------------------------------


def test_version_counter_counts_in_place_ops():
    t = mg.tensor([1.0, 2.0, 3.0])
    assert t._version == 0
    t.add_(1.0)
    t.mul_(2.0)
    t.sub_(1.0)
    t.div_(2.0)
    t.clamp_(0.0, 10.0)
    t.fill_(1.0)
    t.zero_()
    t.copy_(mg.tensor([4.0, 5.0, 6.0]))
    t += 1.0
    t *= 2.0
    assert t._version == 10
    np.testing.assert_array_equal(t.detach().numpy(), [10.0, 12.0, 14.0])


def test_out_of_place_ops_do_not_bump_versions():
    t = mg.tensor([1.0, 2.0])
    _ = t + 1.0, t * t, t.exp(), t.view(2), t[0]
    assert t._version == 0


@pytest.mark.parametrize(
    "make_alias",
    [
        lambda h: h.view(3, 2),
        lambda h: h.reshape(6),
        lambda h: h.t(),
        lambda h: h.transpose(0, 1),
        lambda h: h[1:],
        lambda h: h[0],
        lambda h: h[:, 1],
        lambda h: h.unsqueeze(0),
        lambda h: h.detach(),
        lambda h: h.view(6)[2:4],
    ],
    ids=[
        "view",
        "reshape",
        "t",
        "transpose",
        "slice",
        "row",
        "column",
        "unsqueeze",
        "detach",
        "view-of-view",
    ],
)
def test_views_share_the_version_counter(make_alias):
    h = mg.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    alias = make_alias(h)
    alias.mul_(2.0)
    assert h._version == 1 and alias._version == 1
    h.add_(1.0)
    assert alias._version == 2


def test_contiguous_of_a_transpose_can_be_viewed():
    h = mg.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]).t().contiguous()
    np.testing.assert_array_equal(h.view(6).detach().numpy(), [1.0, 3.0, 5.0, 2.0, 4.0, 6.0])


def test_integer_index_of_1d_tensor_is_a_view():
    h = mg.tensor([1.0, 2.0, 3.0])
    h[0].mul_(10.0)
    np.testing.assert_array_equal(h.detach().numpy(), [10.0, 2.0, 3.0])
    assert h._version == 1


def test_modified_saved_tensor_raises_with_versions():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    h = x * 2.0
    y = h.sin()  # saves h at version 0
    h.add_(1.0)
    h.mul_(3.0)
    with pytest.raises(RuntimeError, match=MODIFIED) as info:
        y.sum().backward()
    assert version_numbers(info.value) == (2, 0)
    assert "SinBackward0" in str(info.value)


def test_version_numbers_when_saved_after_an_earlier_in_place_op():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    h = x * 2.0
    h.add_(1.0)  # version 1
    y = h.cos()  # saved at version 1
    h.mul_(2.0)
    h.mul_(2.0)
    h.mul_(2.0)
    with pytest.raises(RuntimeError, match=MODIFIED) as info:
        y.sum().backward()
    assert version_numbers(info.value) == (4, 1)


def test_modified_saved_output_raises():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()  # saves its output
    y.add_(1.0)
    with pytest.raises(RuntimeError, match=MODIFIED) as info:
        y.sum().backward()
    assert version_numbers(info.value) == (1, 0)
    assert "ExpBackward0" in str(info.value)


def test_modified_saved_leaf_under_no_grad_raises():
    w = mg.tensor([1.0, 2.0], requires_grad=True)
    x = mg.tensor([3.0, 4.0], requires_grad=True)
    y = (w * x).sum()  # MulBackward0 saves w and x
    with mg.no_grad():
        w.sub_(0.5)  # the optimizer step happened too early
    with pytest.raises(RuntimeError, match=MODIFIED) as info:
        y.backward()
    assert version_numbers(info.value) == (1, 0)


@pytest.mark.parametrize(
    "modify",
    [
        lambda h: h.view(2, 2).mul_(2.0),
        lambda h: h.reshape(4).add_(1.0),
        lambda h: h[1:].mul_(2.0),
        lambda h: h.detach().zero_(),
        lambda h: h.view(2, 2)[0].fill_(0.0),
    ],
    ids=["view", "reshape", "slice", "detach", "row-of-view"],
)
def test_modifying_a_saved_tensor_through_a_view_raises(modify):
    x = mg.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    h = x * 2.0
    y = h.sin()
    modify(h)
    with pytest.raises(RuntimeError, match=MODIFIED) as info:
        y.sum().backward()
    assert version_numbers(info.value) == (1, 0)


def test_modifying_a_saved_2d_tensor_through_x0_raises():
    x = mg.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    h = x * 2.0
    y = h.tanh()  # saves its output
    y[0].mul_(2.0)
    with pytest.raises(RuntimeError, match=MODIFIED) as info:
        y.sum().backward()
    assert version_numbers(info.value) == (1, 0)


def test_modifying_a_saved_1d_tensor_through_x0_raises():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    h = x * 2.0
    y = h.sin()
    h[0].mul_(2.0)
    assert h.detach().numpy()[0] == 4.0
    with pytest.raises(RuntimeError, match=MODIFIED) as info:
        y.sum().backward()
    assert version_numbers(info.value) == (1, 0)


def test_modifying_a_tensor_nobody_saved_is_fine():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2.0  # MulScalar saves nothing
    h.add_(1.0)
    h.mul_(3.0)  # h = 3 (2x + 1)
    h.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [6.0, 6.0])
    np.testing.assert_array_equal(h.detach().numpy(), [9.0, 15.0])
    assert h.grad_fn is not None and not h.is_leaf


def test_in_place_chain_on_a_non_leaf_differentiates_the_new_value():
    x = mg.tensor([1.0, 2.0], dtype=mg.float64, requires_grad=True)
    h = x * 2.0
    h.add_(x)  # h = 3x, gradient flows to x from both terms
    h.mul_(x)  # h = 3x^2
    h.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [6.0, 12.0])


def test_in_place_op_with_itself_as_operand_raises_like_pytorch():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    h = x * 3.0
    h.mul_(h)
    with pytest.raises(RuntimeError, match=MODIFIED):
        h.sum().backward()


def test_in_place_on_a_non_requiring_tensor_with_a_requiring_operand_records_history():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    t = mg.zeros(2)
    t.add_(x * 2.0)
    assert t.requires_grad and not t.is_leaf and t.grad_fn is not None
    t.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 2.0])


# --- in-place on leaves ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "op",
    [
        lambda x: x.add_(1.0),
        lambda x: x.sub_(1.0),
        lambda x: x.mul_(2.0),
        lambda x: x.div_(2.0),
        lambda x: x.zero_(),
        lambda x: x.fill_(3.0),
        lambda x: x.copy_(mg.ones(2)),
        lambda x: x.clamp_(0.0, 1.0),
        lambda x: x.__iadd__(1.0),
        lambda x: x.__imul__(2.0),
    ],
    ids=["add_", "sub_", "mul_", "div_", "zero_", "fill_", "copy_", "clamp_", "+=", "*="],
)
def test_in_place_on_a_leaf_that_requires_grad_raises(op):
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError) as info:
        op(x)
    assert str(info.value).startswith(LEAF_INPLACE)
    np.testing.assert_array_equal(x.detach().numpy(), [1.0, 2.0])  # nothing was written
    assert x._version == 0 and x.is_leaf


def test_in_place_on_a_leaf_is_allowed_under_no_grad():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    (x * x).sum().backward()
    with mg.no_grad():
        x.sub_(x.grad * 0.25)  # an optimizer step
    np.testing.assert_array_equal(x.detach().numpy(), [0.5, 1.0])
    assert x.is_leaf and x.requires_grad and x.grad_fn is None
    assert x._version == 1
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 4.0])
    (x * x).sum().backward()  # the leaf still works
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 6.0])


def test_in_place_on_a_leaf_that_does_not_require_grad_is_allowed():
    t = mg.tensor([1.0, 2.0])
    t.add_(1.0)
    assert t.is_leaf and not t.requires_grad and t._version == 1


@pytest.mark.parametrize("view", [lambda x: x.view(3), lambda x: x[1:], lambda x: x.t()])
def test_in_place_on_a_view_of_a_leaf_that_requires_grad_raises(view):
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with pytest.raises(RuntimeError, match=re.escape(VIEW_OF_LEAF_INPLACE)):
        view(x).mul_(2.0)
    np.testing.assert_array_equal(x.detach().numpy(), [1.0, 2.0, 3.0])


def test_in_place_through_a_view_of_a_non_leaf_updates_the_base_gradient():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    h = x * 1.0
    h[0:2].mul_(3.0)
    np.testing.assert_array_equal(h.detach().numpy(), [3.0, 6.0, 3.0])
    h.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 3.0, 1.0])


# --- dtypes that can require grad ------------------------------------------------------------------


@pytest.mark.parametrize(
    "make",
    [
        lambda: mg.tensor([1, 2], requires_grad=True),
        lambda: mg.tensor([True, False], requires_grad=True),
        lambda: mg.tensor([1, 2]).requires_grad_(),
        lambda: mg.tensor([1, 2], dtype=mg.int32).requires_grad_(True),
        lambda: mg.zeros(2, dtype=mg.int64, requires_grad=True),
        lambda: mg.arange(3, requires_grad=True),
        lambda: setattr(mg.tensor([1, 2], dtype=mg.uint8), "requires_grad", True),
    ],
    ids=["tensor-int", "tensor-bool", "requires_grad_", "int32", "zeros", "arange", "setter"],
)
def test_integer_and_bool_tensors_cannot_require_grad(make):
    with pytest.raises(RuntimeError, match=INT_GRAD):
        make()


def test_integer_tensor_may_say_requires_grad_false():
    t = mg.tensor([1, 2]).requires_grad_(False)
    assert not t.requires_grad


@pytest.mark.parametrize("dtype", [mg.float16, mg.float32, mg.float64])
def test_floating_tensors_can_require_grad(dtype):
    assert mg.tensor([1.0], dtype=dtype, requires_grad=True).requires_grad


# --- detach, requires_grad_, is_leaf -----------------------------------------------------------------


def test_detach_shares_data_and_drops_history():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2.0
    d = h.detach()
    assert d.is_leaf and d.grad_fn is None and not d.requires_grad
    d.numpy()[0] = 7.0
    assert h.detach().numpy()[0] == 7.0  # same memory
    d.add_(1.0)
    np.testing.assert_array_equal(h.detach().numpy(), [8.0, 5.0])


def test_detached_tensor_does_not_propagate_gradient():
    x = mg.tensor(2.0, requires_grad=True)
    y = x * x.detach()  # gradient flows through the first factor only
    y.backward()
    assert x.grad.item() == 2.0


def test_requires_grad_false_on_a_non_leaf_raises():
    x = mg.tensor([1.0], requires_grad=True)
    h = x * 2.0
    with pytest.raises(
        RuntimeError, match="you can only change requires_grad flags of leaf variables."
    ):
        h.requires_grad_(False)
    with pytest.raises(RuntimeError, match="var_no_grad = var.detach()"):
        h.requires_grad = False
    assert h.requires_grad_(True) is h  # a no-op, as in PyTorch


def test_requires_grad_on_a_leaf_returns_self_and_toggles():
    t = mg.tensor([1.0])
    assert t.requires_grad_() is t and t.requires_grad
    t.requires_grad = False
    assert not t.requires_grad and t.is_leaf


def test_is_leaf_rules_follow_pytorch():
    a = mg.tensor([1.0])  # does not require grad: a leaf
    b = mg.tensor([1.0], requires_grad=True)  # user-created: a leaf
    c = a * 2.0  # made from tensors that need no grad: a leaf
    d = b * 2.0  # recorded op: not a leaf
    with mg.no_grad():
        e = b * 2.0  # not recorded: a leaf
    f = d.detach()
    assert [t.is_leaf for t in (a, b, c, d, e, f)] == [True, True, True, False, True, True]
    assert [t.requires_grad for t in (a, b, c, d, e, f)] == [
        False,
        True,
        False,
        True,
        False,
        False,
    ]
    assert d.grad_fn is not None and all(t.grad_fn is None for t in (a, b, c, e, f))


def test_only_leaves_get_grad():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2.0
    (h * h).sum().backward()
    assert x.grad is not None
    with pytest.warns(UserWarning, match="is not a leaf Tensor is being accessed"):
        assert h.grad is None
