"""PyTorch's ``out=`` argument on module functions: ``torch.mul(a, b, out=c)`` writes the
result into ``c`` and returns ``c`` (PyTorch's "Learn the Basics" tutorial shows it with
``matmul`` and ``mul``).

As in PyTorch:
- the function computes as usual, then its result is copied into ``out``, which keeps its
  own dtype (a float result refuses an integer ``out``: "result type Float can't be cast
  to the desired output type Long");
- an ``out`` of another shape is resized, with PyTorch's UserWarning if it held elements
  (PyTorch deprecates resizing a non-empty ``out``);
- ``out=`` is outside autograd: with grad mode on, an input (or ``out``) that requires grad
  is a RuntimeError, and the returned ``out`` has no ``grad_fn``.
"""

from __future__ import annotations

import functools
import warnings

import numpy as np

from . import _dtype
from .errors import tensor_ops as _errors
from .recording.grad_mode import is_grad_enabled, no_grad
from .tensor import Tensor


def _requires_grad(args) -> bool:
    for a in args:
        if isinstance(a, Tensor) and a.requires_grad:
            return True
        if isinstance(a, (list, tuple)) and _requires_grad(a):  # cat's and stack's sequence
            return True
    return False


def write_out(op: str, result: Tensor, out: Tensor) -> Tensor:
    """Copy ``result`` into ``out`` (resized if its shape differs) and return ``out``."""
    got, want = result.dtype, out.dtype
    if got is not want and got._kind > want._kind:  # float into integer, integer into bool
        raise RuntimeError(
            _errors.OUT_CAST.format(got=_dtype.c_name(got), want=_dtype.c_name(want))
        )
    if out.shape != result.shape:
        if out.numel() != 0:
            warnings.warn(
                _errors.OUT_RESIZED.format(had=list(out.shape), want=list(result.shape)),
                UserWarning,
                stacklevel=3,
            )
        if out._base is not None:
            raise RuntimeError(
                _errors.OUT_VIEW.format(op=op, had=list(out.shape), want=list(result.shape))
            )
        out._data = np.empty(result.shape, dtype=want.np)  # a fresh storage of the new shape
    with no_grad():
        out.copy_(result)
    return out


def accepts_out(fn, op: str | None = None):
    """``fn`` with PyTorch's keyword-only ``out=`` (see the module's docstring)."""
    op = op or fn.__name__

    @functools.wraps(fn)
    def wrapper(*args, out=None, **kwargs):
        if out is None:
            return fn(*args, **kwargs)
        if not isinstance(out, Tensor):
            raise TypeError(_errors.OUT_TYPE.format(op=op, got=type(out).__name__))
        if is_grad_enabled() and (out.requires_grad or _requires_grad((*args, *kwargs.values()))):
            raise RuntimeError(_errors.OUT_AUTOGRAD.format(op=op))
        with no_grad():
            result = fn(*args, **kwargs)
        return write_out(op, result, out)

    return wrapper
