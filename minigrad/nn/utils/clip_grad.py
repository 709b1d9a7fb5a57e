"""Gradient clipping (``torch.nn.utils.clip_grad_norm_`` / ``clip_grad_value_``).

Both change ``p.grad`` in place, under ``no_grad``, and skip parameters whose
``grad`` is None. The total norm is the norm of the per-gradient norms, which
equals the norm of all gradients concatenated into one vector.

Sparse gradients (``nn.Embedding(sparse=True)``) work, mixed with dense ones:
a sparse gradient is coalesced first (a row looked up twice is one entry, the
sum of both), its norm is the norm of its coalesced values, and its values are
scaled or clipped; it stays sparse. PyTorch's versions fail on sparse gradients
("Could not run 'aten::linalg_vector_norm' with arguments from the 'SparseCPU'
backend"; "... 'aten::clamp_min_' ...").
"""

from __future__ import annotations

import types
import warnings
from collections.abc import Iterable

import numpy as np

from ... import _dtype
from ...errors import nn as _errors
from ...recording.grad_mode import no_grad
from ...tensor import Tensor


def _as_list(parameters) -> list:
    params = [parameters] if isinstance(parameters, Tensor) else list(parameters)
    for i, p in enumerate(params):
        if not isinstance(p, Tensor):
            raise TypeError(_errors.CLIP_NOT_TENSOR.format(i=i, got=type(p).__name__))
    return params


def _coalesce_grad(g: Tensor) -> None:
    """Replace a sparse COO gradient's data by its coalesced form (same value), in place."""
    if g.layout == "sparse_coo" and not g._data.is_coalesced:
        g._data = g._data.coalesce()
        g._bump_version()


def _tensor_norm(t: Tensor, p: float) -> np.ndarray:
    """||t||_p; for a sparse tensor, from its stored values (duplicates summed first)."""
    if t.layout == "strided":
        return _vector_norm(t._data, p)
    fmt = t._data
    if fmt.layout == "sparse_coo" and not fmt.is_coalesced:
        fmt = fmt.coalesce()
    if p == -np.inf and fmt.values.size < fmt.dense_nbytes // fmt.values.itemsize:
        return np.zeros((), fmt.values.dtype)  # an implicit zero is the smallest |x|
    return _vector_norm(fmt.values, p)


def _vector_norm(data: np.ndarray, p: float) -> np.ndarray:
    """||x||_p of the flattened array: max|x| for inf, min|x| for -inf, nonzeros for 0."""
    if data.size == 0:
        return np.zeros((), data.dtype)
    return np.asarray(np.linalg.norm(data.ravel(), ord=p), dtype=data.dtype)


def get_total_norm(
    tensors: Tensor | Iterable[Tensor], norm_type: float = 2.0, error_if_nonfinite: bool = False
) -> Tensor:
    """The p-norm of all ``tensors`` viewed as one vector (``torch.nn.utils.get_total_norm``)."""
    tensors = _as_list(tensors)
    norm_type = float(norm_type)
    if not tensors:
        return Tensor._make(np.zeros((), _dtype.defaults.float_dtype.np), False, None)
    norms = np.stack([_tensor_norm(t, norm_type) for t in tensors])
    total = _vector_norm(norms, norm_type)
    if error_if_nonfinite and not np.isfinite(total):
        raise RuntimeError(_errors.NONFINITE_NORM.format(p=norm_type))
    return Tensor._make(total, False, None)


def clip_grads_with_norm_(
    parameters: Tensor | Iterable[Tensor], max_norm: float, total_norm: Tensor
) -> None:
    """Scale every ``p.grad`` by min(max_norm / (total_norm + 1e-6), 1), in place."""
    grads = [p.grad for p in _as_list(parameters) if p.grad is not None]
    if not grads:
        return
    # an infinite total norm makes the factor 0 and inf * 0 = nan: PyTorch says nothing, so
    # numpy must not warn either
    with no_grad(), np.errstate(invalid="ignore"):
        clip_coef = (float(max_norm) / (total_norm + 1e-6)).clamp(max=1.0)
        for g in grads:
            if g.layout == "strided":
                g.mul_(clip_coef)  # always multiply (by 1 when under the limit), as PyTorch
            else:  # scaling each stored value scales the sum of duplicates too
                values = g._data.values
                g._data = g._data.with_values((values * clip_coef._data).astype(values.dtype))
                g._bump_version()


def clip_grad_norm_(
    parameters: Tensor | Iterable[Tensor],
    max_norm: float,
    norm_type: float = 2.0,
    error_if_nonfinite: bool = False,
) -> Tensor:
    """Rescale gradients so their total ``norm_type``-norm is at most ``max_norm``.

    The gradients are multiplied in place by min(max_norm / (total + 1e-6), 1).

    Args:
        parameters: a Tensor or an iterable of Tensors (e.g. ``model.parameters()``).
        max_norm: the largest total norm allowed.
        norm_type: p of the p-norm; ``float("inf")`` for the largest absolute value.
        error_if_nonfinite: raise if the total norm is nan or inf instead of scaling.

    Returns:
        The total norm of the gradients before clipping, as a 0-d Tensor.

    Example:
        >>> import minigrad as mg
        >>> _ = mg.manual_seed(0)
        >>> w = mg.nn.Parameter(mg.zeros(2))
        >>> w.grad = mg.tensor([3.0, 4.0])
        >>> mg.nn.utils.clip_grad_norm_([w], max_norm=1.0)
        tensor(5.)
        >>> w.grad
        tensor([0.6000, 0.8000])
    """
    is_generator = isinstance(parameters, types.GeneratorType)
    parameters = _as_list(parameters)
    if is_generator and not parameters:
        warnings.warn(_errors.EMPTY_GENERATOR, UserWarning, stacklevel=2)
    grads = [p.grad for p in parameters if p.grad is not None]
    for g in grads:
        _coalesce_grad(g)  # once here, so the norm and the optimizer reuse it
    total_norm = get_total_norm(grads, norm_type, error_if_nonfinite)
    clip_grads_with_norm_(parameters, max_norm, total_norm)
    return total_norm


def clip_grad_value_(parameters: Tensor | Iterable[Tensor], clip_value: float) -> None:
    """Clamp every gradient entry into [-clip_value, clip_value], in place.

    A sparse gradient is coalesced first, so a row looked up twice is clipped once,
    on the sum of its two gradients.
    """
    clip_value = float(clip_value)
    with no_grad():
        for p in _as_list(parameters):
            g = p.grad
            if g is None:
                continue
            if g.layout == "strided":
                g.clamp_(min=-clip_value, max=clip_value)
                continue
            _coalesce_grad(g)
            g._data = g._data.with_values(np.clip(g._data.values, -clip_value, clip_value))
            g._bump_version()
