"""Stateless neural-network functions (``torch.nn.functional``, imported as ``F``).

Every function here is built from differentiable Tensor ops, so gradients
(and gradients of gradients) come from the ops' own backward rules; nothing
here defines a backward of its own (one exception: ``binary_cross_entropy``,
whose op class gives PyTorch's gradient where its logs are clamped). The losses
live in ``_functional_classification_losses`` and ``_functional_pointwise_losses``, dropout and
the normalizations in ``_functional_layers``, the activations beyond
relu/sigmoid/tanh in ``_functional_activations`` (their ops in
``ops/activation.py``), the convolutions and poolings in ``_functional_conv`` and ``_functional_pool`` (ops in
``ops/conv.py``, ``ops/pool.py``); all are re-exported here, as PyTorch keeps them in one
namespace.

Example:
    >>> import minigrad as mg
    >>> import minigrad.nn.functional as F
    >>> F.softmax(mg.tensor([0.0, 0.0]), dim=0)
    tensor([0.5000, 0.5000])
"""

from __future__ import annotations

import warnings

import numpy as np

from ..errors import nn as _errors
from ..errors import sparse_grad as _sparse_errors
from ..ops import linalg
from ..ops._util import check_tensor
from ..ops.padding import pad
from ..recording.grad_mode import no_grad
from ..sparse import embedding as _lookup
from ..tensor import Tensor
from ._functional_activations import (
    celu,
    elu,
    elu_,
    gelu,
    glu,
    hardshrink,
    hardsigmoid,
    hardswish,
    hardtanh,
    hardtanh_,
    leaky_relu,
    leaky_relu_,
    logsigmoid,
    mish,
    prelu,
    relu6,
    relu_,
    selu,
    silu,
    softplus,
    softshrink,
    softsign,
    tanhshrink,
    threshold,
    threshold_,
)
from ._functional_adaptive_pool import (
    adaptive_avg_pool1d,
    adaptive_avg_pool2d,
    adaptive_max_pool1d,
    adaptive_max_pool2d,
)
from ._functional_attention import scaled_dot_product_attention, sparse_attention
from ._functional_bilinear import bilinear
from ._functional_classification_losses import cross_entropy, nll_loss
from ._functional_conv import conv1d, conv2d, conv3d, conv_transpose1d, conv_transpose2d
from ._functional_distance import (
    cosine_similarity,
    hinge_embedding_loss,
    kl_div,
    margin_ranking_loss,
    pairwise_distance,
    soft_margin_loss,
    triplet_margin_loss,
)
from ._functional_instance_norm import instance_norm, local_response_norm
from ._functional_interpolate import interpolate, upsample
from ._functional_layers import batch_norm, dropout, layer_norm, normalize, one_hot
from ._functional_more_losses import (
    cosine_embedding_loss,
    gaussian_nll_loss,
    multi_margin_loss,
    multilabel_margin_loss,
    multilabel_soft_margin_loss,
    poisson_nll_loss,
)
from ._functional_norm_dropout import dropout1d, dropout2d, group_norm, rms_norm
from ._functional_pointwise_losses import (
    binary_cross_entropy,
    binary_cross_entropy_with_logits,
    huber_loss,
    l1_loss,
    mse_loss,
    smooth_l1_loss,
)
from ._functional_pool import avg_pool1d, avg_pool2d, max_pool1d, max_pool2d
from ._functional_pool3d import avg_pool3d, max_pool3d
from ._functional_random_layers import alpha_dropout, gumbel_softmax, rrelu
from ._functional_spatial import affine_grid, grid_sample
from ._functional_vision import (
    channel_shuffle,
    fold,
    max_unpool2d,
    pixel_shuffle,
    pixel_unshuffle,
    unfold,
)

__all__ = [
    "relu",
    "sigmoid",
    "tanh",
    "leaky_relu",
    "silu",
    "gelu",
    "elu",
    "softplus",
    "logsigmoid",
    "relu6",
    "hardtanh",
    "softsign",
    "hardshrink",
    "softshrink",
    "tanhshrink",
    "softmax",
    "log_softmax",
    "linear",
    "conv1d",
    "conv2d",
    "max_pool2d",
    "adaptive_avg_pool2d",
    "avg_pool2d",
    "embedding",
    "embedding_bag",
    "mse_loss",
    "nll_loss",
    "cross_entropy",
    "binary_cross_entropy_with_logits",
    "sparse_attention",
    # layers and pointwise losses (``_functional_layers``, ``_functional_pointwise_losses``)
    "dropout",
    "one_hot",
    "pad",
    "layer_norm",
    "normalize",
    "batch_norm",
    "l1_loss",
    "smooth_l1_loss",
    "huber_loss",
    "binary_cross_entropy",
    # added for PyTorch's tutorials (issue 27)
    "selu",
    "celu",
    "mish",
    "hardswish",
    "hardsigmoid",
    "glu",
    "threshold",
    "prelu",
    "softmin",
    "relu_",
    "leaky_relu_",
    "elu_",
    "hardtanh_",
    "threshold_",
    "max_pool1d",
    "avg_pool1d",
    "adaptive_avg_pool1d",
    "adaptive_avg_pool2d",
    "adaptive_max_pool1d",
    "adaptive_max_pool2d",
    "dropout1d",
    "dropout2d",
    "conv_transpose1d",
    "conv_transpose2d",
    "cosine_similarity",
    "pairwise_distance",
    "kl_div",
    "margin_ranking_loss",
    "hinge_embedding_loss",
    "soft_margin_loss",
    "triplet_margin_loss",
    "cosine_embedding_loss",
    "gaussian_nll_loss",
    "multi_margin_loss",
    "multilabel_margin_loss",
    "multilabel_soft_margin_loss",
    "poisson_nll_loss",
    "interpolate",
    "upsample",
    "scaled_dot_product_attention",
    "group_norm",
    "rms_norm",
    # the vision tutorials' names (issue 27)
    "pixel_shuffle",
    "pixel_unshuffle",
    "channel_shuffle",
    "unfold",
    "fold",
    "instance_norm",
    "local_response_norm",
    "bilinear",
    "affine_grid",
    "grid_sample",
    "rrelu",
    "alpha_dropout",
    "gumbel_softmax",
    "max_unpool2d",
    "conv3d",
    "max_pool3d",
    "avg_pool3d",
]


def relu(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002  (PyTorch names)
    """max(x, 0) elementwise; relu'(0) = 0 (``torch.nn.functional.relu``).

    With ``inplace=True`` the result is written into ``input`` (``relu_``),
    which PyTorch forbids on a leaf that requires grad, and so do we.
    """
    check_tensor(input, "relu")
    if inplace:
        return input.relu_()
    return input.relu()


def sigmoid(input: Tensor) -> Tensor:  # noqa: A002
    """1 / (1 + exp(-x)) elementwise, stable at +-1000."""
    check_tensor(input, "sigmoid")
    return input.sigmoid()


def tanh(input: Tensor) -> Tensor:  # noqa: A002
    """tanh(x) elementwise."""
    check_tensor(input, "tanh")
    return input.tanh()


def _softmax_dim(name: str, ndim: int, dim):
    if dim is not None:
        return dim
    warnings.warn(_errors.IMPLICIT_DIM.format(name=name), UserWarning, stacklevel=3)
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input: Tensor, dim: int | None = None, dtype=None) -> Tensor:  # noqa: A002
    """exp(x_i) / sum_j exp(x_j) along ``dim``, computed stably (max subtracted first).

    Args:
        input: the scores.
        dim: the dimension that sums to 1 (PyTorch warns and guesses when omitted).
        dtype: cast the input to this dtype first.
    """
    check_tensor(input, "softmax")
    return input.softmax(_softmax_dim("softmax", input.ndim, dim), dtype=dtype)


def log_softmax(input: Tensor, dim: int | None = None, dtype=None) -> Tensor:  # noqa: A002
    """x_i - logsumexp(x) along ``dim``: log(softmax(x)) without overflow or log(0)."""
    check_tensor(input, "log_softmax")
    return input.log_softmax(_softmax_dim("log_softmax", input.ndim, dim), dtype=dtype)


def softmin(input: Tensor, dim: int | None = None, dtype=None) -> Tensor:  # noqa: A002
    """softmax(-x) along ``dim`` (``F.softmin``): the smallest score gets the largest weight."""
    check_tensor(input, "softmin")
    if dtype is not None:
        input = input.to(dtype)
    return (-input).softmax(_softmax_dim("softmin", input.ndim, dim))


def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:  # noqa: A002
    """y = x @ W^T + b, with W of shape (out_features, in_features) (``F.linear``).

    Example:
        >>> import minigrad as mg
        >>> import minigrad.nn.functional as F
        >>> F.linear(mg.tensor([[1.0, 2.0]]), mg.tensor([[1.0, 1.0], [0.0, 1.0]]), mg.tensor([0.5, 0.0]))
        tensor([[3.5000, 2.0000]])
    """
    check_tensor(input, "linear")
    check_tensor(weight, "linear", "weight", 2)
    if input.ndim == 2 and bias is not None and input.layout == "strided":
        # one AddmmBackward0 node, as PyTorch records it (in the moons step of
        # benchmarks/bench_loops.py, 2 recorded ops fewer per layer than ``x @ w.t() + b``)
        return linalg.addmm(bias, input, weight.t())
    out = input @ weight.t()  # PyTorch's spelling; the same Permute as .T, 1 us sooner
    return out if bias is None else out + bias


def embedding(
    input: Tensor,  # noqa: A002
    weight: Tensor,
    padding_idx: int | None = None,
    max_norm: float | None = None,
    norm_type: float = 2.0,
    scale_grad_by_freq: bool = False,
    sparse: bool = False,
) -> Tensor:
    """Rows of ``weight`` looked up by the integer tensor ``input`` (``F.embedding``).

    Output shape ``(*input.shape, embedding_dim)``. ``weight``'s gradient is a
    scatter-add of the output gradient over the looked-up rows: dense with
    ``sparse=False``; with ``sparse=True`` a row-sparse COO with one row per lookup
    (indices ``(1, n_lookups)``, values ``(n_lookups, embedding_dim)``, uncoalesced),
    which is what ``optim.SGD``, ``optim.Adagrad`` and ``optim.SparseAdam`` update
    lazily. ``padding_idx`` rows never receive gradient. ``max_norm`` first rescales,
    in place, each looked-up row whose ``norm_type``-norm exceeds it;
    ``scale_grad_by_freq`` divides each row's gradient by its count in ``input``.

    Example:
        >>> import minigrad as mg
        >>> import minigrad.nn.functional as F
        >>> w = mg.zeros(1000, 2, requires_grad=True)
        >>> F.embedding(mg.tensor([2, 0, 2]), w, sparse=True).sum().backward()
        >>> w.grad.nnz, w.grad.is_coalesced()
        (3, False)
        >>> g = w.grad.coalesce()
        >>> g.indices(), g.values()
        (tensor([[0, 2]]), tensor([[1., 1.],
                [2., 2.]]))
    """
    if max_norm is not None:
        _renorm_rows(weight, input, max_norm, norm_type)
    return _lookup.embedding(input, weight, padding_idx, sparse, scale_grad_by_freq)


def _renorm_rows(weight, input, max_norm, norm_type) -> None:  # noqa: A002
    """PyTorch's ``embedding_renorm_``: looked-up rows with norm > max_norm shrink, in place."""
    rows = np.unique(_lookup.checked_rows(input, weight))
    with no_grad():
        picked = weight._data[rows]
        norms = np.linalg.norm(picked, ord=norm_type, axis=1)
        scale = np.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0)
        weight._data[rows] = picked * scale.astype(picked.dtype)[:, None]
        weight._bump_version()


def embedding_bag(
    input: Tensor,  # noqa: A002
    weight: Tensor,
    offsets: Tensor | None = None,
    max_norm: float | None = None,
    norm_type: float = 2,
    scale_grad_by_freq: bool = False,
    mode: str = "mean",
    sparse: bool = False,
    per_sample_weights: Tensor | None = None,
    include_last_offset: bool = False,
    padding_idx: int | None = None,
) -> Tensor:
    """Sum, mean or max over bags of looked-up rows, one result per bag (``F.embedding_bag``).

    A 2-D ``input`` is a batch of fixed-size bags (one per row); a 1-D ``input`` is cut
    into bags at ``offsets`` (bag b is ``input[offsets[b]:offsets[b+1]]``; with
    ``include_last_offset`` the last offset ends the last bag). Empty bags give zeros.
    ``per_sample_weights`` (mode "sum") scales each looked-up row. ``padding_idx``
    entries are left out of their bag (and of its mean's count).

    Built from differentiable pieces: a lookup, an optional product, and a per-bag
    reduction (PyTorch fuses them into one kernel that skips the (n, D) lookups).
    With ``sparse=True`` ``weight``'s gradient is the row-sparse COO of the lookup:
    one row per (non-padding) index, its values the bag's gradient scaled as the
    forward scaled the row (1/count for "mean", the weight with
    ``per_sample_weights``; "max" sends each column's gradient to the winning row).

    Example:
        >>> import minigrad as mg
        >>> import minigrad.nn.functional as F
        >>> w = mg.tensor([[1.0, 1.0], [2.0, 4.0], [3.0, 0.0]])
        >>> F.embedding_bag(mg.tensor([0, 1, 2, 2]), w, mg.tensor([0, 2]), mode="sum")
        tensor([[3., 5.],
                [6., 0.]])
    """
    if mode not in ("sum", "mean", "max"):
        raise ValueError(_sparse_errors.BAG_MODE.format(got=mode))
    rows, bags, n_bags = _bags_of(input, weight, offsets, include_last_offset)
    used = len(rows)
    keep = None if padding_idx is None else rows != _lookup.padding_row(padding_idx, weight)
    if keep is not None:
        rows, bags = rows[keep], bags[keep]
    if max_norm is not None:
        _renorm_rows(weight, Tensor._make(rows, False, None), max_norm, norm_type)
    looked_up = _lookup.embedding(
        Tensor._make(rows, False, None), weight, None, sparse, scale_grad_by_freq
    )
    if per_sample_weights is not None:
        looked_up = looked_up * _bag_weights(per_sample_weights, input, mode, used, keep)
    out = _lookup.BagReduce.apply(
        looked_up, bags=bags, n_bags=n_bags, mode="max" if mode == "max" else "sum"
    )
    if mode == "mean":
        counts = np.maximum(np.bincount(bags, minlength=n_bags), 1)
        out = out / Tensor._make(counts.astype(out._data.dtype)[:, None], False, None)
    return out


def _bags_of(input, weight, offsets, include_last_offset):  # noqa: A002
    """(flat row numbers, bag number of each, number of bags) from input and offsets."""
    rows = _lookup.checked_rows(input, weight, "embedding_bag").reshape(-1)
    if input.ndim == 2:
        if offsets is not None:
            raise ValueError(_sparse_errors.BAG_OFFSETS_2D.format(got=type(offsets).__name__))
        n_bags, length = input.shape
        return rows, np.repeat(np.arange(n_bags, dtype=np.int64), length), n_bags
    if input.ndim != 1:
        raise ValueError(_sparse_errors.BAG_INPUT_DIM.format(ndim=input.ndim))
    if offsets is None:
        raise ValueError(_sparse_errors.BAG_NEEDS_OFFSETS)
    bounds = _lookup.checked_offsets(offsets, len(rows))
    if not include_last_offset:
        bounds = np.append(bounds, len(rows))
    n_bags = max(len(bounds) - 1, 0)
    bags = np.repeat(np.arange(n_bags, dtype=np.int64), np.diff(bounds))
    return rows[: len(bags)], bags, n_bags  # with include_last_offset, a tail may be left out


def _bag_weights(per_sample_weights, input, mode, used, keep):  # noqa: A002
    """Per-lookup weights as a (used, 1) column, padding entries left out."""
    if mode != "sum":
        raise NotImplementedError(_sparse_errors.BAG_PSW_MODE.format(mode=mode))
    if per_sample_weights.shape != input.shape:
        raise ValueError(
            _sparse_errors.BAG_PSW_SHAPE.format(
                got=list(per_sample_weights.shape), want=list(input.shape)
            )
        )
    flat = per_sample_weights.reshape(-1)
    if used < flat.shape[0]:
        flat = flat[:used]
    if keep is not None:
        flat = flat[Tensor._make(np.flatnonzero(keep), False, None)]
    return flat.unsqueeze(1)
