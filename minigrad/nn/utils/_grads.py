"""Resetting gradients: shared by ``Module.zero_grad`` and ``Optimizer.zero_grad``."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from ...formats import COO
from ...sparse.tensor import _convert, make_sparse
from ...tensor import Tensor


def zero_grads(params: Iterable[Tensor], set_to_none: bool = True) -> None:
    """Set each ``p.grad`` to None, or zero it in place (``set_to_none=False``), as PyTorch."""
    for p in params:
        grad = p.grad
        if grad is None:
            continue
        if set_to_none:
            p.grad = None
            continue
        if grad.grad_fn is not None:
            grad.detach_()
        else:
            grad.requires_grad_(False)
        if (
            grad.layout != "strided"
        ):  # as PyTorch: an empty sparse gradient of the same shape and layout
            p.grad = _empty_like_sparse(grad)
            continue
        grad.zero_()


def _empty_like_sparse(grad):
    coo = COO._new(
        np.zeros((grad.sparse_dim(), 0), np.int64),
        np.zeros((0, *grad.shape[grad.sparse_dim() :]), grad._data.dtype),
        grad.shape,
        True,
    )
    return make_sparse(_convert(coo, grad.layout))
