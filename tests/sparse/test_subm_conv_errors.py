"""Bad input to submanifold convolution: each gets a clear error naming what is wrong and
what is accepted (ValueError / TypeError by minigrad's rules, RuntimeError as PyTorch)."""

import numpy as np
import pytest
from subm_conv_helpers import hybrid

import minigrad as mg

conv2d = mg.sparse.subm_conv2d


def _x(c=3, sizes=(4, 4), dtype=np.float32):
    return hybrid([[0, 1], [0, 1], [0, 0]][: len(sizes)], np.ones((2, c), dtype), sizes)


def _w(o=2, c=3, k=(3, 3)):
    return mg.ones(o, c, *k)


# --- the input's layout -------------------------------------------------------------------------
def test_a_dense_input_is_refused_with_how_to_make_the_sparse_one():
    with pytest.raises(ValueError, match=r"got a strided tensor of shape \(4, 4, 3\)") as info:
        conv2d(mg.ones(4, 4, 3), _w())
    assert isinstance(info.value, RuntimeError)
    assert "to_sparse(sparse_dim=2)" in str(info.value)


def test_a_csr_input_is_refused():
    csr = mg.ones(4, 4).to_sparse_csr()
    with pytest.raises(RuntimeError, match="got a sparse_csr tensor"):
        conv2d(csr, _w())


@pytest.mark.parametrize(
    "make, sd, dd",
    [
        (lambda: mg.ones(4, 4, 3).to_sparse(), 3, 0),  # no dense channel dim
        (lambda: mg.ones(4, 4, 3).to_sparse(sparse_dim=1), 1, 2),  # one sparse dim only
        (lambda: mg.ones(2, 2, 2, 2, 3).to_sparse(sparse_dim=4), 4, 1),  # too many sparse dims
    ],
)
def test_wrong_sparse_and_dense_dims_are_named(make, sd, dd):
    with pytest.raises(ValueError, match=f"with {sd} sparse and {dd} dense dims") as info:
        conv2d(make(), _w())
    assert "(H, W, C) or (N, H, W, C)" in str(info.value)


def test_subm_conv3d_names_its_own_shapes():
    with pytest.raises(ValueError, match=r"\(D, H, W, C\) or \(N, D, H, W, C\)"):
        mg.sparse.subm_conv3d(_x(), mg.ones(2, 3, 3, 3, 3))


@pytest.mark.parametrize("arg", ["input", "weight", "bias"])
def test_non_tensors_are_a_type_error(arg):
    args = {"input": _x(), "weight": _w(), "bias": mg.ones(2)}
    args[arg] = np.ones(3)
    with pytest.raises(TypeError, match=f"{arg} must be a minigrad Tensor, got ndarray"):
        conv2d(args["input"], args["weight"], args["bias"])


def test_integer_values_are_refused():
    x = hybrid([[0], [0]], np.ones((1, 3), np.int64), (4, 4))
    with pytest.raises(TypeError, match="input has dtype int64; a convolution needs floating"):
        conv2d(x, _w())


# --- the weight and bias ---------------------------------------------------------------------
def test_channels_mismatch_names_both_sizes():
    with pytest.raises(RuntimeError, match="expected input of shape .* to have 4 channels") as info:
        conv2d(_x(c=3), _w(c=4))
    assert "but got 3 channels instead" in str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("k", [(2, 2), (3, 4), (0, 3)])
def test_an_even_kernel_is_refused(k):
    with pytest.raises(ValueError, match="kernel_size must be odd in every dim"):
        conv2d(_x(), _w(k=k))


def test_a_kernel_larger_than_allowed_is_refused():
    with pytest.raises(
        ValueError, match=r"kernel_size \(17, 3\) is larger than allowed: .* at most 15"
    ):
        conv2d(_x(), _w(k=(17, 3)))
    assert conv2d(_x(), _w(k=(15, 15))).nnz == 2  # the limit itself is fine


@pytest.mark.parametrize("shape", [(2, 3, 3), (2, 3, 3, 3, 3)])
def test_a_weight_of_the_wrong_rank_is_refused(shape):
    with pytest.raises(
        ValueError, match=r"expected a weight of 4 dims \(out_channels, in_channels, kH, kW\)"
    ):
        conv2d(_x(), mg.ones(*shape))


def test_a_sparse_weight_is_refused():
    with pytest.raises(ValueError, match="weight must be a dense"):
        conv2d(_x(), _w().to_sparse())


@pytest.mark.parametrize("shape", [(3,), (2, 1), ()])
def test_a_bias_of_the_wrong_shape_is_refused(shape):
    with pytest.raises(RuntimeError, match="expected bias to be 1-dimensional with 2 elements"):
        conv2d(_x(), _w(), mg.ones(*shape))


@pytest.mark.parametrize("arg", ["weight", "bias"])
def test_mixed_dtypes_are_refused(arg):
    w, b = _w(), mg.ones(2)
    w, b = (w.double(), b) if arg == "weight" else (w, b.double())
    with pytest.raises(
        TypeError, match=f"input has dtype float32 but {arg} has dtype float64"
    ) as info:
        conv2d(_x(), w, b)
    assert isinstance(info.value, RuntimeError)


def test_a_grid_too_big_for_int64_keys_is_refused():
    x = hybrid([[0], [0]], np.ones((1, 3), np.float32), (2**40, 2**40))
    with pytest.raises(ValueError, match="more sites than an int64 key can number"):
        conv2d(x, _w())


# --- rulebook() -----------------------------------------------------------------------------
def test_rulebook_checks_its_arguments():
    with pytest.raises(ValueError, match="got a strided tensor"):
        mg.sparse.rulebook(mg.ones(3, 3, 1), 3)
    with pytest.raises(ValueError, match="kernel_size must be odd"):
        mg.sparse.rulebook(_x(), 4)
    with pytest.raises(TypeError, match="kernel_size must be an int or a tuple of 2 ints"):
        mg.sparse.rulebook(_x(), (3, "3"))
