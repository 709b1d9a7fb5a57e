"""Writes through a boolean mask: masked_fill (indexing and ``where`` are in :mod:`.select`)."""

from __future__ import annotations

import numpy as np

from .. import errors
from ..errors import tensor_ops as _errors
from ..recording.function import Op
from ..tensor import Tensor
from ._util import broadcast_shapes, check_tensor, is_scalar, make, norm_dim, norm_dims
from .select import where
from .shape import sum_to


class MaskedFill(Op):
    """out = value where mask else a (mask broadcast); grad_a = g where not mask else 0,
    grad_value = sum of g where mask (when value is a 0-d tensor).

    backward and jvp are written apart: the value's derivative is a sum in backward (one
    value fills many places) and a broadcast in jvp, so the two are not one product."""

    elementwise = True

    @staticmethod
    def forward(ctx, a, *value_tensor, mask, value):
        ctx.info = (mask, a.shape, bool(value_tensor))
        # PyTorch: MaskedFillBackward0 fills a number, MaskedFillBackward1 a 0-d tensor
        ctx.node_name = f"MaskedFillBackward{int(bool(value_tensor))}"
        fill = value_tensor[0] if value_tensor else value
        return np.where(mask, np.asarray(fill).astype(a.dtype), a)

    @staticmethod
    def backward(ctx, g):
        mask, shape, has_value_tensor = ctx.info
        m = make(mask, False, None)
        ga = sum_to(where(m, 0.0, g), shape)
        if not has_value_tensor:
            return ga
        return ga, where(m, g, 0.0).sum()

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_value where mask else t_a (a missing tangent is zero)."""
        m = make(params["mask"], False, None)
        ta = tangents[0] if tangents[0] is not None else inputs[0] * 0.0
        tv = tangents[1] if len(tangents) > 1 and tangents[1] is not None else 0.0
        return where(m, tv, ta)


def masked_fill(a, mask, value):
    """``value`` where the bool ``mask`` is True, else ``a`` (``torch.masked_fill``).

    ``mask`` broadcasts with ``a``; ``value`` is a number or a 0-d tensor (cast to ``a``'s
    dtype; a tensor value gets the gradient of the places it filled).

    Example:
        >>> import minigrad as mg
        >>> x = mg.tensor([1.0, 2.0, 3.0])
        >>> x.masked_fill(x > 1.5, 0.0)
        tensor([1., 0., 0.])
    """
    if not isinstance(mask, Tensor):
        raise TypeError(
            errors.OP_ARG_TYPE.format(op="masked_fill", name="mask", i=2, got=type(mask).__name__)
        )
    if mask._data.dtype != np.bool_:
        raise RuntimeError(_errors.MASK_DTYPE.format(got=mask.dtype))
    broadcast_shapes(a.shape, mask.shape, "masked_fill")
    if isinstance(value, Tensor):
        if value.ndim:
            raise RuntimeError(_errors.MASK_VALUE_DIM.format(n=value.ndim))
        if value.dtype is not a.dtype:
            value = value.to(a.dtype)
        return MaskedFill.apply(a, value, mask=mask._data, value=None)
    if not is_scalar(value):
        raise TypeError(_errors.MASK_VALUE_TYPE.format(got=type(value).__name__))
    return MaskedFill.apply(a, mask=mask._data, value=value)


# --- where the nonzero elements are (no gradient: the results are indices and counts) ---


def dense_values(input, op: str) -> np.ndarray:  # noqa: A002
    """The array of a dense tensor; PyTorch's NotImplementedError for a sparse one (these
    ops have no sparse kernel, and minigrad densifies nothing silently)."""
    check_tensor(input, op)
    if input.layout != "strided":
        raise NotImplementedError(_errors.NO_SPARSE_KERNEL.format(op=op, layout=input.layout))
    return np.asarray(input._data)


def nonzero(input: Tensor, *, as_tuple: bool = False):  # noqa: A002
    """The indices of the nonzero elements (``torch.nonzero``), in row-major order.

    An ``(n, ndim)`` int64 tensor, one row per nonzero element; with ``as_tuple=True`` a
    tuple of ``ndim`` 1-D tensors, one per dim, usable as an index (``x[x.nonzero(as_tuple=
    True)]``). A 0-d input counts as 1-D for ``as_tuple``, as in PyTorch.

    Example:
        >>> import minigrad as mg
        >>> mg.nonzero(mg.tensor([[0.0, 1.5], [2.0, 0.0]]))
        tensor([[0, 1],
                [1, 0]])
    """
    data = dense_values(input, "nonzero")
    if as_tuple:
        return tuple(make(i.astype(np.int64), False, None) for i in np.nonzero(np.atleast_1d(data)))
    if data.ndim == 0:  # numpy has no nonzero of a 0-d array: PyTorch gives 1 or 0 empty rows
        return make(np.zeros((int(data != 0), 0), np.int64), False, None)
    return make(np.stack(np.nonzero(data), axis=1).astype(np.int64), False, None)


def argwhere(input: Tensor) -> Tensor:  # noqa: A002
    """The indices of the nonzero elements, one row each (``torch.argwhere``: ``nonzero``)."""
    check_tensor(input, "argwhere")
    return nonzero(input)


def count_nonzero(input: Tensor, dim=None) -> Tensor:  # noqa: A002
    """How many elements are nonzero, over ``dim`` (an int, a tuple or list of ints, or
    None: every element); an int64 tensor (``torch.count_nonzero``)."""
    data = dense_values(input, "count_nonzero")
    if isinstance(dim, (tuple, list)):
        seen = [norm_dim(d, input.ndim) for d in dim]
        for d in seen:
            if seen.count(d) > 1:
                raise RuntimeError(_errors.DIMS_REPEATED.format(dim=d))
    axes = norm_dims(dim, input.ndim)
    if axes is not None and input.ndim == 0:
        axes = None
    counts = np.count_nonzero(data, axis=axes)
    return make(np.asarray(counts, dtype=np.int64), False, None)
