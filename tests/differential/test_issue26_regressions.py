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


def test_bce_with_logits_of_infinity_is_finite_formula():
    x = mg.tensor([math.inf, 0.0], requires_grad=True)
    loss = mg.nn.functional.binary_cross_entropy_with_logits(
        x, mg.tensor([0.5, 0.5]), reduction="none"
    )
    assert loss[0].item() == math.inf
    loss[1].backward()
    assert x.grad[1].item() == pytest.approx(0.0)  # sigmoid(0) - 0.5


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


def test_partial_overlap_refused_full_overlap_allowed():
    x = mg.arange(4.0)
    with pytest.raises(RuntimeError, match="some elements of the input tensor"):
        x[0:2].mul_(x[1:3])
    with pytest.raises(RuntimeError, match="some elements of the input tensor"):
        x[0:2] = x[1:3]
    x.add_(x)
    assert x.tolist() == [0.0, 2.0, 4.0, 6.0]


def test_index_put_requires_matching_dtypes():
    t = mg.tensor([1.0, 2.0])
    with pytest.raises(RuntimeError, match="got Float for the destination and Double"):
        t[[0]] = mg.tensor(1.0, dtype=mg.float64)
    t[0:1] = mg.tensor(5.0, dtype=mg.float64)  # a basic index converts, as copy_ does
    assert t.tolist() == [5.0, 2.0]


def test_detached_tensor_views_are_not_views_of_the_leaf():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    d = x.detach()
    d[0:1] *= 3  # PyTorch allows it: the detached tensor is not in x's graph
    assert x.tolist() == [3.0, 2.0]


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


def test_unbind_returns_views():
    x = mg.tensor(np.arange(6.0).reshape(2, 3))
    parts = x.unbind(1)
    assert [p.tolist() for p in parts] == [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]
    with pytest.raises(IndexError):
        mg.tensor(1.0).unbind()
