"""Bad input to the sparse ops: each error names what is wrong and what is accepted.

Shape, dim and layout errors are ValueErrors (minigrad's rule for malformed input) that
are also RuntimeErrors (what PyTorch raises); dtype errors are TypeErrors and
RuntimeErrors.
"""

import numpy as np
import pytest

import minigrad as mg

S = mg.sparse_coo_tensor([[0, 0, 1], [0, 2, 1]], [1.0, 2.0, 3.0], (2, 3))
D = mg.ones(3, 2)
VEC = mg.sparse_coo_tensor([[0, 2]], [1.0, 2.0], (3,))
CUBE = mg.sparse_coo_tensor([[0, 1], [1, 2], [0, 1]], [1.0, 2.0], (2, 3, 2))
BOOL = mg.sparse_coo_tensor([[0, 1], [0, 1]], np.array([True, True]), (2, 3))
HYBRID = mg.sparse_coo_tensor([[0, 2]], [[1.0, 2.0], [3.0, 4.0]], (3, 2))

VALUE_ERRORS = [
    # mixed layouts
    (
        lambda: mg.sparse.mm(S, S.t()),
        r"sparse\.mm: mat2 must be a dense \(strided\) tensor, got a sparse_coo",
    ),
    (lambda: mg.sparse.mm(S, S.t().to_sparse_csr()), r"mat2 must be a dense .* got a sparse_csr"),
    (lambda: S @ S.t(), r"matmul: mat2 must be a dense"),
    (lambda: mg.mm(S, S.t()), r"mm: mat2 must be a dense"),
    (lambda: mg.sparse.addmm(D, S, D), r"sparse\.addmm: input .* cannot be broadcast"),
    (lambda: mg.sparse.addmm(mg.ones(2, 2), D, D), r"mat1 must be a sparse tensor .*got a strided"),
    (lambda: mg.sparse.addmm(mg.ones(2, 2), S, S.t()), r"mat2 must be a dense"),
    (lambda: mg.sparse.addmm(S, S, D), r"input must be a dense"),
    (lambda: S * S, r"mul: other must be a dense .* sparse \* sparse are not supported"),
    (
        lambda: mg.sparse.sum(D),
        r"sparse\.sum: input must be a sparse tensor.*got a strided.*minigrad\.sum",
    ),
    # wrong shapes
    (
        lambda: mg.sparse.mm(S, mg.ones(4, 2)),
        r"shapes cannot be multiplied \(2x3 and 4x2\): mat1 has 3 columns but mat2 has 4 rows",
    ),
    (lambda: S @ mg.ones(4, 2), r"\(2x3 and 4x2\)"),
    (lambda: mg.mm(S, mg.ones(4, 2)), r"\(2x3 and 4x2\)"),
    (lambda: mg.ones(2, 4) @ S, r"\(2x4 and 2x3\)"),
    (lambda: mg.sparse.mm(mg.ones(2, 4), S), r"\(2x4 and 2x3\)"),
    (lambda: S @ mg.ones(4), r"\(2x3 and 4x1\)"),
    (
        lambda: S * mg.ones(3, 2),
        r"dense operand of shape \(3, 2\) cannot be broadcast to the sparse operand's shape \(2, 3\)",
    ),
    (lambda: S * mg.ones(2, 2, 3), r"cannot be broadcast"),
    # 1-D / 3-D / hybrid sparse operands, 1-D / 3-D dense operands
    (
        lambda: mg.sparse.mm(VEC, D),
        r"sparse operand must be a 2-D matrix .* shape \(3,\) with 1 sparse and 0 dense dims",
    ),
    (lambda: mg.sparse.mm(CUBE, D), r"shape \(2, 3, 2\) with 3 sparse and 0 dense dims"),
    (lambda: mg.sparse.mm(HYBRID, mg.ones(2, 2)), r"shape \(3, 2\) with 1 sparse and 1 dense dims"),
    (lambda: VEC @ mg.ones(3, 2), r"with 1 sparse and 0 dense dims"),
    (
        lambda: mg.sparse.mm(S, mg.ones(3)),
        r"the dense operand must be 2-D, got shape \(3,\) \(1-D\)",
    ),
    (lambda: mg.sparse.mm(S, mg.ones(2, 3, 2)), r"must be 2-D, got shape \(2, 3, 2\) \(3-D\)"),
    (lambda: S @ mg.ones(2, 3, 2), r"must be 1-D or 2-D, got shape \(2, 3, 2\)"),
    (lambda: mg.mm(S, mg.ones(3)), r"mm: the dense operand must be 2-D"),
    (lambda: S.mm(mg.ones(3)), r"mm: the dense operand must be 2-D"),
    (
        lambda: CUBE.t(),
        r"t\(\) expects a sparse tensor with at most 2 sparse dims and 0 dense dims, got 3 sparse",
    ),
    (lambda: HYBRID.t(), r"got 1 sparse and 1 dense dims"),
    (lambda: S.sum(0, keepdim=True), r"keepdim=True is not supported for sparse tensors"),
]


@pytest.mark.parametrize("fn, match", VALUE_ERRORS)
def test_value_errors_are_also_runtime_errors(fn, match):
    with pytest.raises(ValueError, match=match) as info:
        fn()
    assert isinstance(info.value, RuntimeError)


DTYPE_ERRORS = [
    (
        lambda: mg.sparse.mm(S, D.double()),
        r"sparse\.mm: mat1 has dtype float32 but mat2 has dtype float64; both must have the same dtype",
    ),
    (lambda: S @ D.double(), r"matmul: mat1 has dtype float32 but mat2 has dtype float64"),
    (
        lambda: mg.ones(4, 2, dtype=mg.float64) @ S,
        r"mat1 has dtype float64 but mat2 has dtype float32",
    ),
    (
        lambda: mg.sparse.addmm(mg.ones(2, 2, dtype=mg.float64), S, D),
        r"input has dtype float64 but mat1 has dtype float32",
    ),
    (
        lambda: S * mg.ones(2, 3, dtype=mg.float64),
        r"mul: input has dtype float32 but other has dtype float64",
    ),
    (
        lambda: mg.sparse.mm(BOOL, D.to(mg.bool)),
        r"dtype bool has no sparse kernel; use a floating point or integer dtype",
    ),
]


@pytest.mark.parametrize("fn, match", DTYPE_ERRORS)
def test_dtype_errors(fn, match):
    with pytest.raises(TypeError, match=match) as info:
        fn()
    assert isinstance(info.value, RuntimeError)


def test_non_tensor_operands():
    with pytest.raises(TypeError, match=r"sparse\.mm: mat2 must be a minigrad Tensor, got list"):
        mg.sparse.mm(S, [[1.0, 2.0]] * 3)
    with pytest.raises(
        TypeError, match=r"mul: expected a Python number or a dense Tensor, got str"
    ):
        S * "2"
    with pytest.raises(TypeError, match=r"div: expected a Python number .* got Tensor"):
        S / D


def test_numpy_operand_of_matmul_is_accepted_as_for_dense():
    np.testing.assert_array_equal(
        (S @ np.ones((3, 2), np.float32)).detach().numpy(), [[3, 3], [3, 3]]
    )


@pytest.mark.parametrize("dims", [2, -3, (0, 2)])
def test_sum_dim_out_of_range(dims):
    with pytest.raises(
        IndexError, match=r"Dimension out of range \(expected to be in range of \[-2, 1\]"
    ):
        mg.sparse.sum(S, dims)


def test_transpose_dim_out_of_range():
    with pytest.raises(IndexError, match=r"Dimension out of range"):
        S.transpose(0, 2)
    with pytest.raises(ValueError, match="must be sparse"):
        HYBRID.transpose(0, 1)  # a dense dim cannot be swapped with a sparse one


def test_still_refused_ops_say_how_to_densify():
    with pytest.raises(
        NotImplementedError, match=r"__add__ has no sparse kernel .* \.to_dense\(\)"
    ):
        S + S
