"""One regression test per class of difference the differential suite found (issue 26).

Each asserts PyTorch 2.13's answer, written down here so the tests run without torch; the
differential suite (``test_differential.py``, ``make fuzz``) checks them against PyTorch.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import minigrad as mg


# --- writes through any index reach the memory every view shares -----------------------------
def test_write_through_transposed_view_with_advanced_index_reaches_base():
    v = mg.ones(3, 4)
    v.transpose(0, -1)[mg.tensor([3, 0])] = -0.96
    assert v[:, 0].tolist() == pytest.approx([-0.96] * 3)
    assert v[:, 3].tolist() == pytest.approx([-0.96] * 3)
    assert v[:, 1:3].tolist() == [[1.0, 1.0]] * 3


def test_augmented_write_into_non_contiguous_result_is_kept():
    x = mg.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True)
    y = x.permute(1, 0) / (mg.ones(2, 3) + 1.0)
    y[1] += mg.tensor([10.0, 20.0, 30.0])
    np.testing.assert_allclose(y.detach().numpy(), [[0.5, 1.5, 2.5], [11.0, 22.0, 33.0]])
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [[0.5, 0.5]] * 3)


# --- a view's grad_fn follows in-place changes of its base (PyTorch's rebase) ---------------
def test_view_of_tensor_modified_in_place_differentiates_the_new_graph():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 1
    v = y[:]
    y[0] = 5
    v.sum().backward()
    assert x.grad.tolist() == [0.0, 1.0, 1.0]


def test_squeezed_view_sees_masked_write_of_its_base():
    x = mg.tensor([0.1, 0.5, 2.0], requires_grad=True)
    v2 = (x * 1).clamp(-0.35, 1.32)
    v3 = v2.squeeze()
    v2[mg.tensor([True, True, True])] = -0.83
    (v3 * 5).sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, 0.0]


def test_view_requires_grad_once_its_base_does():
    x3 = mg.tensor([[1.0], [2.0]])
    v5 = x3[:, -1:]
    x3.add_(mg.tensor(3.0, requires_grad=True))
    assert v5.requires_grad and not v5.is_leaf


# --- zero_/fill_/copy_ assign --------------------------------------------------------------------
def test_zero_fill_copy_replace_nan_and_cut_the_gradient():
    x = mg.tensor([1.0], requires_grad=True)
    y = x.std(dim=0, keepdim=True).prod()  # nan: one element
    assert math.isnan(y.item())
    assert y.clone().zero_().item() == 0.0
    assert y.clone().fill_(2.5).item() == 2.5
    z = (x * 1).copy_(mg.tensor([4.0]))
    assert z.tolist() == [4.0]
    z.sum().backward()
    assert x.grad.tolist() == [0.0]


# --- one dtype promotion ---------------------------------------------------------------------
def test_stack_of_zero_dim_tensors_promotes_fully():
    a, b = mg.tensor(0.25), mg.tensor(-2.0, dtype=mg.float64)
    assert mg.stack([a, a, b]).dtype is mg.float64


def test_comparison_with_zero_dim_float64_stays_in_float32():
    x = mg.tensor([0.1, 0.2])  # float32
    m = x.to(mg.float64).max()  # 0-d float64 holding float32's 0.2
    assert (m == x).tolist() == [False, True]


def test_result_type_categories():
    f32, i32 = mg.ones(2), mg.ones(2, dtype=mg.int32)
    f64_0d = mg.tensor(1.0, dtype=mg.float64)
    assert (f32 * f64_0d).dtype is mg.float32
    assert (i32 * f64_0d).dtype is mg.float64
    assert (i32 * 2.5).dtype is mg.float32
    assert mg.where(mg.tensor([True, False]), f32, f64_0d).dtype is mg.float32


def test_bce_with_logits_takes_the_target_dtype():
    x = mg.tensor(-2.0, dtype=mg.float64)
    t = mg.tensor(0.5, dtype=mg.float32)
    loss = mg.nn.functional.binary_cross_entropy_with_logits(x, t)
    assert loss.dtype is mg.float32


def test_true_division_promotes_with_zero_dim_tensors_first():
    b, i = mg.tensor([True, False]), mg.tensor([1, 2])
    f64 = mg.tensor(2.0, dtype=mg.float64)
    assert (b / f64).dtype is mg.float64 and (i / f64).dtype is mg.float64
    assert (b / 2.0).dtype is mg.float32 and (i / i).dtype is mg.float32  # integral: default


# --- signed zeros, NaN, infinity -------------------------------------------------------------
def test_division_by_negative_zero_is_negative_infinity():
    out = mg.tensor([2.0, -1.0]) / -0.0
    assert out.tolist() == [-math.inf, math.inf]


def test_relu_in_place_of_nan_passes_the_gradient():
    x = mg.tensor([-1.0, 2.0], requires_grad=True)
    y = x.log()  # nan, log 2
    y.relu_()
    (g,) = mg.autograd.grad(y.sum(), x)
    assert g.tolist() == pytest.approx([-1.0, 0.5])  # the nan's gradient passes: 1/x


def test_sign_of_nan_is_zero():
    assert mg.tensor([math.nan, -3.0, 0.0]).sign().tolist() == [0.0, -1.0, 0.0]


@pytest.mark.parametrize("op", ["sign", "floor", "ceil", "trunc", "round"])
def test_step_function_gradient_is_positive_zero_outside_the_graph(op):
    x = mg.tensor([1.5, -1.0], requires_grad=True)
    (getattr(x, op)() * -1.5).sum().backward()
    assert [math.copysign(1.0, g) for g in x.grad.tolist()] == [1.0, 1.0]  # +0, not -0
    (g,) = mg.autograd.grad(getattr(x, op)().sum(), x, create_graph=True)
    assert not g.requires_grad and g.grad_fn is None  # PyTorch: zeros_like(grad)


def test_bce_with_logits_of_infinity_is_finite_formula():
    x = mg.tensor([math.inf, 0.0], requires_grad=True)
    loss = mg.nn.functional.binary_cross_entropy_with_logits(
        x, mg.tensor([0.5, 0.5]), reduction="none"
    )
    assert loss[0].item() == math.inf
    loss[1].backward()
    assert x.grad[1].item() == pytest.approx(0.0)  # sigmoid(0) - 0.5


def test_variance_of_too_few_elements_has_pytorchs_constant_gradient():
    x = mg.tensor(-0.25, dtype=mg.float64, requires_grad=True)
    (g,) = mg.autograd.grad(x.var(), x, create_graph=True)  # n - 1 = 0: 2 / 0 * (x - mean)
    assert math.isnan(g.item()) and not g.requires_grad  # NaN where x == mean, a constant
    y = mg.tensor([-0.25], dtype=mg.float64, requires_grad=True)
    (g,) = mg.autograd.grad(y.var(dim=0), y, create_graph=True)
    assert math.isnan(g.item()) and g.requires_grad  # with a dim: PyTorch's general formula


def test_bce_with_logits_gradients_are_pytorchs_formulas():
    F = mg.nn.functional
    x = mg.tensor([-math.inf, 0.5, math.inf], dtype=mg.float64, requires_grad=True)
    y = mg.tensor([0.0, 0.25, 0.5], dtype=mg.float64, requires_grad=True)
    gx, gy = mg.autograd.grad(F.binary_cross_entropy_with_logits(x, y, reduction="sum"), [x, y])
    sig = 1 / (1 + math.exp(-0.5))
    assert gx.tolist() == pytest.approx([0.0, sig - 0.25, 0.5])  # sigmoid(x) - y: no NaN
    assert gy.tolist() == [math.inf, -0.5, -math.inf]  # -x
    p = mg.tensor([3.0], dtype=mg.float64)
    loss = F.binary_cross_entropy_with_logits(x[1:2], y[1:2], pos_weight=p, reduction="sum")
    (gx,) = mg.autograd.grad(loss, x)
    assert gx[1].item() == pytest.approx((3 * 0.25 + 0.75) * sig - 3 * 0.25)
    with pytest.raises(RuntimeError, match="not differentiable with respect to argument 'weight'"):
        F.binary_cross_entropy_with_logits(x, y, weight=mg.ones(3, requires_grad=True))


# --- no numpy message reaches the user ---------------------------------------------------------
def test_broadcast_error_of_mixed_dtypes_names_the_shapes():
    with pytest.raises(RuntimeError, match=r"\(2, 2, 4\) and \(3,\)"):
        mg.ones(2, 2, 4) * mg.ones(3, dtype=mg.float64)


def test_in_place_on_expanded_tensor_is_pytorchs_overlap_error():
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        mg.ones(3).expand(2, 3).clamp_(0, 1)
    e = mg.ones(3).expand(2, 3)
    assert e.fill_(2.0).tolist() == [[2.0] * 3] * 2  # a fill is well defined: allowed


def test_bool_subtraction_and_negative_integer_power_refused():
    b = mg.tensor([True])
    with pytest.raises(RuntimeError, match="with two bool tensors"):
        b - b
    with pytest.raises(RuntimeError, match="with a bool tensor"):
        mg.ones(1) - b
    with pytest.raises(NotImplementedError, match='"pow" not implemented'):
        b**b
    with pytest.raises(RuntimeError, match="negative integer powers"):
        mg.tensor([2]) ** -1


# --- refusals: multi-output views, no_grad views, overlapping memory, index_put dtype ---------
@pytest.mark.parametrize(
    ("make", "op"),
    [
        (lambda y: y.split(1)[0], "Split"),
        (lambda y: y.chunk(2)[1], "Split"),
        (lambda y: y.split([1, 1])[1], "SplitWithSizes"),
        (lambda y: y.unbind(0)[0], "Unbind"),
    ],
)
def test_in_place_on_multi_output_view_refused(make, op):
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match=f"of {op} is a view and is being modified inplace"):
        make(x * 1).mul_(2)
    piece = make(mg.tensor([1.0, 2.0]))  # no graph: allowed
    piece.mul_(2)
    with pytest.raises(RuntimeError, match="is a view and is being modified inplace"):
        piece.add_(x)  # an operand that requires grad: refused before anything is written
    assert not piece.requires_grad


def test_no_grad_view_keeps_requires_grad_and_refuses_in_place_with_grad_on():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with mg.no_grad():
        v = x[0:1]
    assert v.requires_grad and v.is_leaf
    with pytest.raises(RuntimeError, match="created in no_grad mode"):
        v.mul_(2)
    with mg.no_grad():
        v.mul_(2)  # both inside no_grad: allowed
    assert x.tolist() == [2.0, 2.0]


def test_no_grad_view_whose_memory_changed_is_refused_by_recorded_ops():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1
    with mg.no_grad():
        v = y[0:1]
        w = y[1:]
    y.mul_(2)  # with grad on or off alike: v's values are not those it was made with
    for use in (lambda: v * 2, lambda: v[0:1], lambda: mg.ones(1) + v):
        with pytest.raises(RuntimeError, match="created in no_grad mode and its base"):
            use()
    assert v.detach().tolist() == [2.0]  # outside autograd it is an ordinary view
    with mg.no_grad():
        assert (w * 2).tolist() == [8.0]
    plain = mg.ones(2)  # a view of a tensor that requires no grad: nothing to refuse
    with mg.no_grad():
        p = plain[0:1]
    plain.mul_(2)
    assert (p * x[0]).tolist() == [2.0]


def test_any_no_grad_view_refuses_in_place_that_requires_grad():
    w = mg.tensor(2.0, requires_grad=True)
    plain = mg.ones(2)
    with mg.no_grad():
        v = plain[0:1]
    v.mul_(3.0)  # nothing requires grad: allowed
    with pytest.raises(RuntimeError, match="created in no_grad mode and is being modified"):
        v.mul_(w)
    x = mg.tensor(-1.0, requires_grad=True)
    (g,) = mg.autograd.grad(x.sum(), x)  # SumBackward's expand: a view made in backward
    with pytest.raises(RuntimeError, match="created in no_grad mode and is being modified"):
        g.mul_(w)
    assert plain.tolist() == [3.0, 1.0]


def test_partial_overlap_refused_full_overlap_allowed():
    x = mg.arange(4.0)
    with pytest.raises(RuntimeError, match="some elements of the input tensor"):
        x[0:2].mul_(x[1:3])
    with pytest.raises(RuntimeError, match="some elements of the input tensor"):
        x[0:2] = x[1:3]
    x.add_(x)
    assert x.tolist() == [0.0, 2.0, 4.0, 6.0]


def test_write_of_the_very_same_memory_is_allowed():
    x = mg.tensor(0.5, dtype=mg.float64)
    v = x.reshape(-1)
    v[-1:] = x  # a 0-d value through a basic index: PyTorch's setitem fills with it
    assert v.tolist() == [0.5]
    with pytest.raises(RuntimeError, match="some elements of the input tensor"):
        v.copy_(x)  # copy_ itself compares the two memories as they are: partial overlap
    with pytest.raises(RuntimeError, match="some elements of the input tensor"):
        v[:, None] = v  # a 1-d value is copied (copy_), not filled
    with pytest.raises(RuntimeError, match="some elements of the input tensor"):
        a = mg.arange(3.0)
        a.copy_(a[0])  # one element into three of its own memory


def test_multi_output_view_whose_base_changed_is_refused_by_recorded_ops():
    x = mg.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    y = x.clone()
    piece = y.unbind(1)[0]
    y[[0]] = -0.96  # PyTorch cannot rebuild one output of unbind's single backward node
    with pytest.raises(RuntimeError, match="Output 0 of Unbind is a view and its base"):
        piece * 2
    assert piece.detach().tolist() == pytest.approx([-0.96, 3.0])


def test_fill_through_an_expanded_view_of_a_graph_tensor():
    x = mg.tensor([[0.25, 2.0], [-1.0, 1.0]], requires_grad=True)
    v = x * 2
    v.expand(2, 2, 2).fill_(2.5)  # one value into shared memory: allowed, as PyTorch
    assert v.tolist() == [[2.5, 2.5], [2.5, 2.5]]


def test_index_write_gradient_zeroes_the_overwritten_elements_even_if_infinite():
    x = mg.tensor([0.0, 1.0], requires_grad=True)
    y = x * 1
    y[[1]] = 3.0
    (y.log()).sum().backward()  # d log / d y = inf at y[0] = 0: that element is kept
    assert x.grad.tolist() == [math.inf, 0.0]  # y[1] was overwritten: 0, not inf * 0 = NaN
    z = mg.tensor([0.0], requires_grad=True)
    w = z * 1
    w[[0]] = 1.0
    w.log().sum().backward()
    assert z.grad.tolist() == [0.0]


def test_index_put_requires_matching_dtypes():
    t = mg.tensor([1.0, 2.0])
    with pytest.raises(RuntimeError, match="got Float for the destination and Double"):
        t[[0]] = mg.tensor(1.0, dtype=mg.float64)
    t[0:1] = mg.tensor(5.0, dtype=mg.float64)  # a basic index converts, as copy_ does
    assert t.tolist() == [5.0, 2.0]


def test_bool_mask_write_of_one_element_is_a_masked_fill():
    x = mg.tensor([1.0, 2.0, 3.0])
    x[mg.tensor([True, True, False])] = x[0:1]  # read as a number first: no overlap
    assert x.tolist() == [1.0, 1.0, 3.0]
    m = mg.tensor([[1.0, 2.0], [3.0, 4.0]])
    m[0, mg.tensor([True, False])] = mg.tensor([5.0], dtype=mg.float64)  # dtype converted
    assert m.tolist() == [[5.0, 2.0], [3.0, 4.0]]
    with pytest.raises(RuntimeError, match="refer to a single memory location"):
        x[mg.tensor([0, 1])] = x[0:1]  # an integer index: index_put_ checks the overlap
    with pytest.raises(RuntimeError, match="Index put requires the source and destination"):
        x[mg.tensor([True, False, True])] = mg.tensor([5.0, 6.0], dtype=mg.float64)


def test_detached_tensor_views_are_not_views_of_the_leaf():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    d = x.detach()
    d[0:1] *= 3  # PyTorch allows it: the detached tensor is not in x's graph
    assert x.tolist() == [3.0, 2.0]


# --- sparse gradients stay sparse where PyTorch keeps them sparse ------------------------------
@pytest.mark.parametrize(
    ("shape", "dim", "sparse_dim", "indices"),
    [
        ((2, 1, 3), 1, 2, [[0, 1], [0, 0]]),
        ((2, 3, 1), 2, 1, [[0, 1]]),
        ((1, 2, 3), 0, 2, [[0, 0], [0, 1]]),
    ],
)
def test_sparse_gradient_through_squeeze_stays_sparse(shape, dim, sparse_dim, indices):
    w = mg.ones(*shape, dtype=mg.float64, requires_grad=True)
    e = mg.nn.functional.embedding(mg.tensor([1, 0, 1]), w.squeeze(dim), sparse=True)
    (e * mg.arange(3.0, dtype=mg.float64)).sum().backward()
    g = w.grad.coalesce()  # PyTorch's SqueezeBackward unsqueezes the sparse gradient
    assert (g.layout, tuple(g.shape), g.sparse_dim()) == ("sparse_coo", shape, sparse_dim)
    assert g.indices().tolist() == indices
    np.testing.assert_array_equal(g.to_dense().numpy().reshape(2, 3), [[0, 1, 2], [0, 2, 4]])
    (h,) = mg.autograd.grad((w.squeeze(dim)[:1] * 1).sum(), w)  # dense gradients unchanged
    assert h.layout == "strided" and h.shape == shape


@pytest.mark.parametrize(
    ("sa", "sb", "layouts"),
    [
        ((1, 2), (), ("sparse_coo", "strided")),
        ((3, 2), (3, 2), ("sparse_coo", "sparse_coo")),
        ((3, 2), (2,), ("sparse_coo", "strided")),
        ((2,), (3, 2), ("strided", "sparse_coo")),
    ],
)
def test_sparse_gradient_through_a_product_stays_sparse(sa, sb, layouts):
    def grads(sparse):
        a = mg.ones(*sa, dtype=mg.float64, requires_grad=True)
        b = mg.arange(1.0, 1.0 + math.prod(sb), dtype=mg.float64).reshape(sb).requires_grad_()
        e = mg.nn.functional.embedding(mg.tensor([0, 0]), a * b, sparse=sparse)
        e.sum().backward()  # PyTorch's MulBackward: g * other on g's pattern, summed if broadcast
        return a.grad, b.grad

    sparse, dense = grads(True), grads(False)
    assert tuple(g.layout for g in sparse) == layouts
    for g, want in zip(sparse, dense):
        g = g.to_dense() if g.layout != "strided" else g
        np.testing.assert_array_equal(g.numpy(), want.numpy())


@pytest.mark.parametrize("op", ["sin", "exp", "abs", "floor", "tanh"])
def test_sparse_gradient_through_an_elementwise_op_stays_sparse(op):
    def grads(sparse):
        w = mg.tensor([[0.25, 1.5], [-1.0, 0.5], [1.5, -2.0]], dtype=mg.float64, requires_grad=True)
        e = mg.nn.functional.embedding(mg.tensor([0, 1, 0]), getattr(w, op)(), sparse=sparse)
        (g,) = mg.autograd.grad((e * e).sum(), w, create_graph=True)
        (gg,) = mg.autograd.grad(g.to_dense().sum() if sparse else g.sum(), w, allow_unused=True)
        return g, gg.to_dense() if gg.layout != "strided" else gg

    if op == "floor":  # PyTorch's zeros_like(grad): sparse zeros, outside the graph
        w = mg.ones(2, 2, requires_grad=True)
        e = mg.nn.functional.embedding(mg.tensor([1]), w.floor(), sparse=True)
        (g,) = mg.autograd.grad((e * e).sum(), w, create_graph=True)
        assert g.layout == "sparse_coo" and not g.requires_grad and g.to_dense().sum().item() == 0
        return
    (g, gg), (dense_g, dense_gg) = grads(True), grads(False)
    assert g.layout == "sparse_coo"  # PyTorch's grad * f'(x) keeps it (tanh: minigrad only)
    np.testing.assert_allclose(g.to_dense().detach().numpy(), dense_g.detach().numpy())
    np.testing.assert_allclose(gg.numpy(), dense_gg.numpy())


# --- metadata ---------------------------------------------------------------------------------
def test_flatten_of_one_dim_tensor_is_the_tensor_itself():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    assert x.flatten() is x and x.flatten().is_leaf


def test_second_backward_through_nodes_that_saved_nothing_works():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = x + x
    v = y[1:]
    y.sum().backward()
    v.sum().backward()  # PyTorch: AddBackward0 and SliceBackward0 saved nothing
    assert x.grad.tolist() == [2.0, 4.0]
    e = mg.nn.functional.embedding(mg.tensor([0]), x[:, None] * 1)
    e.sum().backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        e.sum().backward()  # the lookup kept its indices: as PyTorch's EmbeddingBackward0


def test_second_backward_through_where_of_a_zero_dim_condition_raises():
    x = mg.tensor(0.25, dtype=mg.float64, requires_grad=True)
    y = mg.where(x > 0, x, 0.0)  # PyTorch's WhereBackward saved the condition
    mg.autograd.grad(y.sum(), x)
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        y.backward()


def test_power_saves_its_result_so_an_in_place_change_is_caught():
    x = mg.tensor([-1.0], dtype=mg.float64, requires_grad=True)
    y = x**x  # PyTorch's PowBackward1 saves the result for the exponent's gradient
    y[:] = 5.0
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.backward(retain_graph=True)


def test_product_saves_its_result_so_an_in_place_change_is_caught():
    x = mg.tensor([[-1.0, -2.0]], dtype=mg.float64, requires_grad=True)
    y = x.prod(dim=-2, keepdim=True)  # PyTorch's ProdBackward saves the result too
    y.zero_()
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.backward(mg.ones_like(y))


def test_retain_grad_follows_an_in_place_change():
    x = mg.tensor([-2.0, 3.0], dtype=mg.float64, requires_grad=True)
    y = x * 1
    y.retain_grad()
    y.mul_(2)  # PyTorch moves the retain_grad hook to the new node
    z = x * 1
    z.retain_grad()
    z[0:1].mul_(3)  # through a view too
    (y.sum() + z.sum()).backward()
    assert y.retains_grad and z.retains_grad
    assert y.grad.tolist() == [1.0, 1.0] and z.grad.tolist() == [1.0, 1.0]


def test_unbind_returns_views():
    x = mg.tensor(np.arange(6.0).reshape(2, 3))
    parts = x.unbind(1)
    assert [p.tolist() for p in parts] == [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]
    with pytest.raises(IndexError):
        mg.tensor(1.0).unbind()


# --- the long run of seed 31337: three more classes ---------------------------------------------
def test_in_place_op_saving_its_output_on_a_detached_tensor_runs():
    x = mg.tensor([[-0.5, 0.25], [1.0, 4.0]], requires_grad=True)
    v = x.detach()  # shares x's version counter
    v.copy_(mg.where(x > 0, x, 1))
    v.sqrt_()  # SqrtBackward0 saves its output: v, whose counter is x's
    assert v.grad_fn.name() == "SqrtBackward0" and v._version == x._version == 2
    v.sum().backward(retain_graph=True)
    assert x.grad.tolist() == [[0.0, 1.0], [0.5, 0.25]]
    with mg.no_grad():
        x.mul_(1)  # the shared counter moves: the saved output is stale, as in PyTorch
    with pytest.raises(RuntimeError, match="output 0 of SqrtBackward0, is at version 3"):
        v.sum().backward()


def test_base_gradient_of_a_bool_exponent_tensor_is_refused():
    x = mg.tensor([0.0, 2.0], requires_grad=True)
    b = mg.tensor([True, False])
    y = x**b  # the forward runs, in x's dtype, as PyTorch's
    assert y.tolist() == [0.0, 1.0] and y.dtype is mg.float32
    assert y.grad_fn._saved_exponent.dtype is mg.bool
    with pytest.raises(RuntimeError, match="Subtraction, the `-` operator, with a bool tensor"):
        y.sum().backward()
    z = mg.tensor(3.0, requires_grad=True)
    (z ** mg.tensor(2)).backward()  # an integer exponent is differentiated
    assert z.grad.item() == 6.0


def test_sparse_gradient_through_product_over_a_dim_of_size_one_stays_sparse():
    x = mg.tensor([[0.5], [0.0], [float("inf")]], requires_grad=True)
    p = x.prod(dim=-1, keepdim=True)
    mg.nn.functional.embedding(mg.tensor([1, 0, 1, 2]), p, sparse=True).sum().backward()
    assert x.grad.layout == "sparse_coo"
    # the input holds a zero: each gradient passes as it is (PyTorch's prod_safe_zeros_backward)
    assert x.grad.to_dense().tolist() == [[1.0], [2.0], [1.0]]


def test_product_gradient_divides_when_the_input_holds_no_zero():
    x = mg.tensor([[0.5], [float("inf")], [float("nan")]], requires_grad=True)
    x.prod(dim=-1, keepdim=True).sum().backward()  # PyTorch: g * out / x
    assert x.grad[0].item() == 1.0
    assert math.isnan(x.grad[1].item()) and math.isnan(x.grad[2].item())
    y = mg.tensor([2.0, 0.0, 4.0], requires_grad=True)
    y.prod().backward()  # a zero: the product of the others, no division
    assert y.grad.tolist() == [0.0, 8.0, 0.0]


def test_identity_permute_is_a_view_that_writes_into_its_base():
    x = mg.tensor(-0.25, dtype=mg.float64)  # x.T of a 0-d tensor permutes nothing
    w = mg.tensor(-0.25, dtype=mg.float64, requires_grad=True)
    v = x.T
    v.mul_(w)  # PyTorch: x's history now holds the product (CopySlices)
    assert x.requires_grad and not x.is_leaf and x.item() == 0.0625
    x.backward()
    assert w.grad.item() == -0.25


def test_number_divided_by_tensor_keeps_its_input_so_its_output_may_change_in_place():
    x = mg.tensor([0.5, 2.0], dtype=mg.float64, requires_grad=True)
    y = 3 / x
    y.log_()  # y is a reciprocal times 3, as PyTorch's: the reciprocal keeps its own result
    (g,) = mg.autograd.grad(y.sum(), x, create_graph=True)
    assert g.tolist() == pytest.approx([-2.0, -0.5])


def test_output_saved_through_a_view_is_checked_against_the_base_counter():
    x = mg.tensor([-1.0, 0.5, 2.0], dtype=mg.float64, requires_grad=True)
    y = x * 1
    y.reshape(-1).sigmoid_()  # SigmoidBackward0 saves its output: the view
    picked = y[[0]]
    y.sub_(mg.ones(3, dtype=mg.float64))  # the base's counter moves: the saved output is stale
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        picked.sum().backward()


def test_copy_from_a_gapped_view_of_itself_runs_as_pytorchs():
    x = mg.tensor([[[2.0], [3.0]], [[0.25], [-2.0]]], dtype=mg.float64)
    first = x.split(1, dim=-2)[0]  # every other element: not a block of memory
    x.copy_(first)  # PyTorch checks overlap only between blocks; the rows are equal after
    assert x.tolist() == [[[2.0], [2.0]], [[0.25], [0.25]]]
    z = mg.arange(4.0)
    with pytest.raises(RuntimeError, match="refer to a single memory location"):
        z[0:2].mul_(z[1:3])  # two blocks that partly overlap: refused


def test_power_of_a_tensor_exponent_is_cs_pow_not_a_square_root():
    x = mg.tensor([-0.0, -math.inf, 4.0], dtype=mg.float64)
    y = x ** mg.tensor(0.5)  # PyTorch: C's pow, pow(-0.0, 0.5) = +0.0, pow(-inf, 0.5) = +inf
    assert [math.copysign(1.0, v) for v in y.tolist()] == [1.0, 1.0, 1.0]
    assert y.tolist() == [0.0, math.inf, 2.0]
    z = x**0.5  # a Python number: PyTorch takes the square root (-0.0, NaN)
    assert math.copysign(1.0, z[0].item()) == -1.0 and math.isnan(z[1].item())


def test_product_of_a_zero_dim_tensor_passes_its_gradient_through():
    x = mg.tensor(0.25, requires_grad=True)
    (g,) = mg.autograd.grad(x.prod(), x, create_graph=True)
    assert g.item() == 1.0 and not g.requires_grad  # PyTorch: the gradient itself, no graph


@pytest.mark.parametrize("values", [[2.0, 3.0, 4.0], [2.0, 0.0, 4.0], [0.0, 0.0, 4.0]])
def test_product_gradient_is_traceable_and_jit_equals_eager_bit_for_bit(values):
    # PyTorch picks its formula by reading the values; jit cannot read them, so both
    # formulas are computed and a where picks: eager and jit run the same arithmetic
    from minigrad.func import grad, hessian, jit

    x = mg.tensor(values, dtype=mg.float64)
    eager, traced = grad(lambda t: t.prod())(x), jit(grad(lambda t: t.prod()))(x)
    assert traced.tolist() == eager.tolist()
    a, b, c = values
    assert eager.tolist() == [b * c, a * c, a * b]
    # second order: the unused formula's gradient is 0, never NaN (its divisor is 1 at a zero)
    h = hessian(lambda t: t.prod())(x)
    assert h.tolist() == [[0.0, c, b], [c, 0.0, a], [b, a, 0.0]]


def test_setitem_of_itself_through_none_compares_pytorchs_strides():
    # v[0, None] has PyTorch's unsqueeze stride (3, 1) there; v = x.t() has strides (1, 1):
    # the same memory read with other strides, a partial overlap PyTorch refuses
    v = mg.arange(3.0).reshape(3, 1).t()
    with pytest.raises(RuntimeError, match="refer to a single memory location"):
        v[0, None] = v
    w = mg.arange(3.0)[None]  # both (3, 1) in PyTorch: the very same memory, allowed
    w[0, None] = w
    w[0:1, None] = w  # the value expanded to (1, 1, 3) has PyTorch's strides (3, 3, 1)
    assert w.tolist() == [[0.0, 1.0, 2.0]]


def test_setitem_of_a_broadcast_row_of_itself_is_allowed():
    # PyTorch expands the value first (stride 0): "too hard to tell", so it does not refuse
    v = mg.arange(6.0).reshape(2, 3)
    v[:] = v[0]
    assert v.tolist() == [[0.0, 1.0, 2.0]] * 2
    u = mg.arange(6.0).reshape(2, 3)[0:1]
    u[None] = u[0]
    assert u.tolist() == [[0.0, 1.0, 2.0]]
    z = mg.arange(1.0).reshape(1, 1)
    with pytest.raises(RuntimeError, match="refer to a single memory location"):
        z[0:1, None] = z  # a one-element value expands with stride 0: other strides


def test_stack_along_a_dense_dim_keeps_the_sparse_gradient_of_embedding():
    # PyTorch's StackBackward selects each input's slice: along a dense dim of the COO
    # gradient (the embedding dim) it stays sparse; along the sparse dim (rows) it is dense
    x = mg.tensor([-1.5, 2.0], dtype=mg.float64, requires_grad=True)
    w = mg.stack([x, x * 2, x], dim=1)  # (2, 3): x is a column of the table
    mg.nn.functional.embedding(mg.tensor([0, 0, 1]), w, sparse=True).sum().backward()
    assert x.grad.layout == "sparse_coo"
    assert x.grad.to_dense().tolist() == [2.0 + 4.0 + 2.0, 1.0 + 2.0 + 1.0]
    y = mg.tensor([0.5], dtype=mg.float64, requires_grad=True)
    rows = mg.stack([y, y], dim=0)  # (2, 1): y is a row
    mg.nn.functional.embedding(mg.tensor([1, 1]), rows, sparse=True).sum().backward()
    assert y.grad.layout == "strided" and y.grad.tolist() == [2.0]


def test_cut_of_a_sparse_gradient_has_a_second_order():
    s = mg.sparse_coo_tensor(mg.tensor([[0, 2]]), mg.ones(2, 3, dtype=mg.float64), (3, 3))
    s.requires_grad_()
    cut = s._narrow_dense_dim(1, 1, 3)
    assert cut.layout == "sparse_coo" and cut.shape == (3, 2)
    (g,) = mg.autograd.grad(
        cut, s, mg.sparse_coo_tensor(s._indices(), mg.ones(2, 2, dtype=mg.float64), (3, 2))
    )
    assert g.layout == "sparse_coo"
    assert g.to_dense().tolist() == [[0.0, 1.0, 1.0], [0.0] * 3, [0.0, 1.0, 1.0]]


def test_copy_of_an_expanded_tensor_into_itself_runs_as_pytorchs():
    # PyTorch's copy_ returns before any check when the source is the tensor itself, so an
    # expanded tensor may take it (an in-place op with another source is refused)
    w = mg.ones(3).expand(2, 3)
    w.copy_(w)
    assert w.tolist() == [[1.0] * 3] * 2
    with pytest.raises(RuntimeError, match="refers to a single memory location"):
        w.copy_(mg.ones(3).expand(2, 3))
    x = mg.tensor([0.0, -2.0, -1.5], requires_grad=True)
    v = x.exp().sum(dim=0, keepdim=True)
    e = v.expand(2, 1)
    before = v.tolist()
    e.copy_(e)  # through a view of a graph tensor: recorded, its value unchanged
    assert e._version == v._version == 1 and v.tolist() == before


def test_number_divided_by_tensor_lets_its_input_change_in_place():
    # PyTorch runs c / x as x.reciprocal() * c: the reciprocal's result, an intermediate, is
    # what backward reads, so neither x nor the quotient is saved
    x = mg.tensor([0.5, -2.0, 4.0], dtype=mg.float64, requires_grad=True)
    v = x * 1
    q = 2.0 / v
    assert q.grad_fn.name() == "MulBackward0"
    assert q.grad_fn.next_functions[0][0].name() == "ReciprocalBackward0"
    v.abs_()
    q.sum().backward()
    assert x.grad.tolist() == [-8.0, -0.5, -0.125]
    assert (7.0 / mg.tensor([0.1], dtype=mg.float64)).item() == (1 / 0.1) * 7.0  # its rounding
