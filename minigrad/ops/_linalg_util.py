"""What the linear-algebra ops share: the input checks of ``torch.linalg``, PyTorch's node
names for Function-based nodes, and small differentiable helpers."""

from __future__ import annotations

import numpy as np

from .. import _dtype, _traced, errors
from ..errors import linalg as messages
from ..factory import eye
from ..tensor import Tensor, has_sparse_layout


def check_matrices(A, op: str, *, square: bool = False, name: str = "A") -> None:  # noqa: N803
    """PyTorch's checks of a decomposition's input: a dense floating-point Tensor of at least
    two dims (square ones where ``square``)."""
    if not isinstance(A, Tensor):
        raise TypeError(errors.OP_ARG_TYPE.format(op=op, name=name, i=1, got=type(A).__name__))
    if has_sparse_layout(A):
        raise NotImplementedError(A._no_kernel(op))
    if A.ndim < 2:
        raise RuntimeError(messages.NOT_MATRIX.format(op=op, name=name))
    if square and A.shape[-1] != A.shape[-2]:
        raise RuntimeError(messages.NOT_SQUARE.format(op=op, m=A.shape[-2], n=A.shape[-1]))
    if not A.dtype.is_floating_point:
        raise RuntimeError(messages.NOT_FLOAT.format(op=op, dtype=_dtype.c_name(A.dtype)))


def pytorch_node(name: str):
    """Give a Function's node PyTorch's name (a Function's own would be ``<Class>Backward``)."""

    def rename(cls):
        cls._backward_cls.__name__ = cls._backward_cls.__qualname__ = name
        return cls

    return rename


def constant(array: np.ndarray) -> Tensor:
    """A computed array as a tensor outside the graph (a factor in a Function's forward, an
    info code, a rank)."""
    return Tensor._make(np.array(array, order="C"), False, None)


def diag_embed(v: Tensor) -> Tensor:
    """Matrices with the vectors ``v`` (last dim) on their diagonals, differentiably."""
    return v.unsqueeze(-1) * eye(v.shape[-1], dtype=v.dtype)


def skew(x: Tensor) -> Tensor:
    """``x - x^T``: twice the skew-symmetric part of (batches of) square matrices."""
    return x - x.mT


def lapack(fn, a: np.ndarray):
    """``fn(a)``, numpy's LAPACK call in a Function's forward. Under jit's tracer ``a`` is the
    tracer's zeros, read here as an op's forward reads them (``func/tracing.py``'s
    ``_evaluate``): only the results' shapes count, and the tracer marks the Function's outputs
    as the program's new values."""
    if type(a) is not _traced.TracedArray:
        return fn(a)
    _traced.state.evaluating = True
    try:
        with np.errstate(all="ignore"):
            return fn(a)
    finally:
        _traced.state.evaluating = False
