"""Dtype queries and the creation functions that go with them: ``promote_types
result_type can_cast asarray randint_like`` (PyTorch names; the promotion rule itself is
:func:`minigrad._dtype.result_type`, the one place it is written).
"""

from __future__ import annotations

import warnings

import numpy as np

from . import _dtype, errors, factory
from .tensor import Tensor


def promote_types(type1, type2) -> _dtype.dtype:
    """The smallest dtype both ``type1`` and ``type2`` convert to without losing their kind
    (``torch.promote_types``).

    Example:
        >>> import minigrad as mg
        >>> mg.promote_types(mg.int32, mg.float16)
        minigrad.float16
    """
    return _dtype.promote(_dtype.as_dtype(type1), _dtype.as_dtype(type2))


def result_type(tensor1, tensor2) -> _dtype.dtype:
    """The dtype an op on ``tensor1`` and ``tensor2`` (tensors or numbers) computes in
    (``torch.result_type``): a 0-d tensor or a number only raises the kind.

    Example:
        >>> import minigrad as mg
        >>> mg.result_type(mg.tensor([1, 2]), 2.5)
        minigrad.float32
    """
    for x in (tensor1, tensor2):
        if not isinstance(x, (Tensor, int, float, bool)):
            raise TypeError(errors.RESULT_TYPE_ARG.format(got=type(x).__name__))
    return _dtype.result_type(tensor1, tensor2)


def can_cast(from_, to) -> bool:
    """Whether PyTorch's type promotion allows the cast (``torch.can_cast``): never from
    a floating dtype to an integer one, nor from a number dtype to bool; any width goes.

    Example:
        >>> import minigrad as mg
        >>> mg.can_cast(mg.float64, mg.float16), mg.can_cast(mg.float32, mg.int64)
        (True, False)
    """
    a, b = _dtype.as_dtype(from_), _dtype.as_dtype(to)
    return a._kind <= b._kind


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=None) -> Tensor:
    """``obj`` as a tensor, sharing memory where it can (``torch.asarray``): a Tensor of the
    wanted dtype is returned itself, a numpy array of it shared; ``copy=True`` always copies
    and ``copy=False`` refuses where it cannot share (another dtype, a list). Without
    ``requires_grad`` a tensor's conversion stays in its graph (PyTorch warns then, when it
    requires grad); with it the result is detached first.

    Example:
        >>> import numpy as np, minigrad as mg
        >>> a = np.array([1.0, 2.0])
        >>> t = mg.asarray(a)
        >>> a[0] = 9.0
        >>> t
        tensor([9., 2.], dtype=minigrad.float64)
    """
    d = None if dtype is None else _dtype.as_dtype(dtype)
    if isinstance(obj, Tensor):
        if requires_grad is None and obj.requires_grad:
            warnings.warn(errors.ASARRAY_REQUIRES_GRAD, UserWarning, stacklevel=2)
        out = _from_tensor(obj if requires_grad is None else obj.detach(), d, copy)
    elif isinstance(obj, np.ndarray) and obj.dtype != object:
        out = _from_array(obj, d, copy)
    else:
        if copy is False:
            raise ValueError(errors.ASARRAY_NO_ALIAS_SEQUENCE)
        out = factory.tensor(obj, dtype=d, device=device)
    if requires_grad and not out.requires_grad:
        out.requires_grad_(True)
    return out


def _from_tensor(t: Tensor, d, copy) -> Tensor:
    if d is None or d is t.dtype:
        return t.clone() if copy else t
    if copy is False:
        raise ValueError(
            errors.ASARRAY_NO_ALIAS.format(got=_dtype.c_name(t.dtype), want=_dtype.c_name(d))
        )
    return t.to(d)


def _from_array(a: np.ndarray, d, copy) -> Tensor:
    have = _dtype.from_numpy_dtype(a.dtype)
    if d is None or d is have:
        return factory.from_numpy(a.copy() if copy else a)
    if copy is False:
        raise ValueError(
            errors.ASARRAY_NO_ALIAS.format(got=_dtype.c_name(have), want=_dtype.c_name(d))
        )
    return factory.from_numpy(a.astype(d.np))


def randint_like(
    input, low=0, high=None, *, dtype=None, device=None, requires_grad=False, generator=None
) -> Tensor:
    """Random integers in [low, high) in ``input``'s shape and dtype (``torch.randint_like``;
    ``randint_like(x, high)`` or ``randint_like(x, low, high)``): the numbers
    ``torch.randint`` draws for that shape from the same generator state.

    Example:
        >>> import minigrad as mg
        >>> _ = mg.manual_seed(0)
        >>> mg.randint_like(mg.zeros(6), 10)
        tensor([4., 9., 3., 0., 3., 9.])
    """
    if not isinstance(input, Tensor):
        raise TypeError(
            errors.OP_ARG_TYPE.format(
                op="randint_like", name="input", i=1, got=type(input).__name__
            )
        )
    if high is None:
        low, high = 0, low
    d = input.dtype if dtype is None else _dtype.as_dtype(dtype)
    drawn = factory.randint(low, high, tuple(input.shape), generator=generator, device=device)
    out = drawn.to(d)
    return out.requires_grad_(True) if requires_grad else out
