"""Small helpers shared by the op modules: operand conversion, dims, broadcasting."""

from __future__ import annotations

import numbers
import operator

import numpy as np

from .. import _dtype, errors
from ..recording.function import Op
from ..tensor import Tensor

make = Tensor._make


def norm_dim(dim: int, ndim: int) -> int:
    """A dim in ``[-ndim, ndim)`` (``[-1, 0]`` for 0-d) as a non-negative index."""
    lo, hi = (-1, 0) if ndim == 0 else (-ndim, ndim - 1)
    if not isinstance(dim, (int, np.integer)) or isinstance(dim, bool):
        raise TypeError(errors.DIM_TYPE.format(got=type(dim).__name__))
    if not lo <= dim <= hi:
        raise IndexError(errors.DIM_RANGE.format(lo=lo, hi=hi, dim=dim))
    return int(dim) % max(ndim, 1)


def check_tensor(x, op: str, name: str = "input", position: int = 1) -> None:
    """PyTorch's TypeError for a non-tensor where a Tensor is required."""
    if not isinstance(x, Tensor):
        raise TypeError(
            errors.OP_ARG_TYPE.format(op=op, name=name, i=position, got=type(x).__name__)
        )


def check_sizes(sizes, op: str) -> tuple:
    """Sizes as a tuple of Python ints (anything with ``__index__``, e.g. a 0-d int tensor);
    a TypeError naming the op for anything else (``reshape("a")``, ``expand(2.5)``)."""
    try:
        return tuple(operator.index(s) for s in sizes)
    except TypeError:
        bad = next(s for s in sizes if not hasattr(s, "__index__"))
        raise TypeError(errors.SIZE_TYPE.format(op=op, got=type(bad).__name__)) from None


def norm_dims(dim, ndim: int) -> tuple | None:
    """None (all dims), an int or a sequence of ints -> a sorted tuple of dims."""
    if dim is None:
        return None
    if isinstance(dim, (tuple, list)):
        return tuple(sorted({norm_dim(d, ndim) for d in dim}))
    return (norm_dim(dim, ndim),)


def is_scalar(x) -> bool:
    """A Python (or numpy) real number or bool."""
    return isinstance(x, (numbers.Real, np.bool_)) and not isinstance(x, Tensor)


def to_tensor(x, like: Tensor | None = None, op: str = "operation") -> Tensor:
    """Turn an operand into a Tensor (numpy arrays and numbers; no silent object coercion)."""
    if isinstance(x, Tensor):
        return x
    if isinstance(x, np.ndarray):
        return make(x if x.dtype in _dtype._FROM_NP else _reject(x, op), False, None)
    if is_scalar(x):
        d = _dtype.scalar_dtype(x) if like is None else _dtype.promote_with_scalar(like.dtype, x)
        if d.np.kind in "iu" and type(x) is int and not _dtype.fits(x, d.np):
            # PyTorch wraps the number into the dtype (a uint8 tensor > -1 compares with 255);
            # numpy refuses a Python int out of range
            return make(np.asarray(np.array(x, np.int64).astype(d.np)), False, None)
        return make(np.asarray(x, dtype=d.np), False, None)
    raise TypeError(errors.BAD_OPERAND.format(op=op, got=type(x).__name__))


def refuse_dtype(a: np.ndarray, op: str, kinds: str, accepted: str) -> None:
    """PyTorch's NotImplementedError for an op without a kernel for ``a``'s dtype kind
    (``"b"``: bool; ``"biu"``: bool and integers), naming what the op accepts."""
    if a.dtype.kind in kinds:
        got = _dtype._FROM_NP[a.dtype]
        raise NotImplementedError(errors.NOT_FOR_DTYPE.format(op=op, got=got, accepted=accepted))


def _reject(x, op):
    raise TypeError(errors.UNSUPPORTED_DTYPE.format(got=x.dtype))


def result_dtype(a: Tensor, b: Tensor) -> _dtype.dtype:
    """torch.result_type for two tensors: 0-d tensors only raise the category
    (:func:`minigrad._dtype.result_type`, the one promotion rule)."""
    da = a.dtype
    return da if da is b.dtype else _dtype.result_type(a, b)


def broadcast_shapes(sa: tuple, sb: tuple, op: str) -> tuple:
    """The broadcast shape, or PyTorch's message naming the clashing dimension (the last one).

    A loop over the dims rather than ``np.broadcast_shapes``, which builds an iterator over
    two dummy arrays: 1.5 us against 0.6 us, on every binary op whose operands differ in
    shape (a bias add, benchmarks/bench_loops.py's moons step)."""
    n = max(len(sa), len(sb))
    pa, pb = (1,) * (n - len(sa)) + tuple(sa), (1,) * (n - len(sb)) + tuple(sb)
    out = [0] * n
    for d in range(n - 1, -1, -1):
        a, b = pa[d], pb[d]
        if a != b and a != 1 and b != 1:
            raise RuntimeError(errors.BROADCAST.format(a=a, b=b, dim=d, op=op, sa=sa, sb=sb))
        out[d] = b if a == 1 else a
    return tuple(out)


def reduced_axes(gshape: tuple, shape: tuple) -> tuple[tuple, bool]:
    """Axes to sum so a ``gshape`` array becomes ``shape`` (leading, then size-1 ones)."""
    lead = len(gshape) - len(shape)
    axes = tuple(range(lead)) + tuple(
        lead + i for i, n in enumerate(shape) if n == 1 and gshape[lead + i] != 1
    )
    return axes, lead


class NoDerivative(Op):
    """The node PyTorch records for an op it has no derivative for (its C++ ``NotImplemented``
    node: ``5 % x``, ``torch.histogram``): the result requires grad and has this ``grad_fn``,
    but backward through it raises PyTorch's RuntimeError naming the op. ``kernel`` computes
    the result from the input arrays (inside the op, so a traced program keeps it)."""

    node_name = "NotImplemented"
    saved_values = {}

    @staticmethod
    def forward(ctx, *arrays, kernel, op):
        ctx.op = op
        return kernel(*arrays)

    @staticmethod
    def backward(ctx, *grads):
        raise RuntimeError(errors.NO_DERIVATIVE.format(op=ctx.op))


def named(out: Tensor, name: str) -> Tensor:
    """``out``, its node renamed ``name``: PyTorch's name for the call that made it, where one
    op class serves several (``x.sum(dim)`` records ``SumBackward1``, ``x.sum()``
    ``SumBackward0``; ``x.t()`` records ``TBackward0`` where minigrad runs its Permute)."""
    if out.grad_fn is not None:
        out.grad_fn.node_name = name
    return out


class Elementwise(Op):
    """An elementwise op whose local derivative is written once, as ``derivative``.

    Why one function serves both modes: out[i] depends on a[i] only, so the Jacobian is
    diagonal, J = diag(f'(a)). Backward computes g J (a row vector times J) and forward mode
    J t (J times a column vector); with J diagonal both are the same elementwise product
    f'(a) * v, only v differs: the incoming gradient g, or the input's tangent t.

    A subclass writes ``derivative(v, *saved, *number)`` and this class calls it from both:
    ``saved`` are the tensors it declares (its input with ``save_inputs``, then its output
    with ``save_output``: in backward from ``ctx.saved_tensors``, in jvp from the inputs and
    the output at hand), and ``number``, when ``number_param`` names a keyword argument of
    ``forward`` (``"value"``: the 2 of ``x * 2``), that number (``forward`` keeps it on ``ctx``
    under the same name for backward; jvp reads it from the op's parameters).
    """

    elementwise = True
    number_param = None  # the forward keyword argument derivative also takes, if any
    number_edges = 0  # (None, 0) edges after the tensor's, for Python numbers (ops/arith.py)

    @classmethod
    def backward(cls, ctx, g):
        # an op that saves nothing must not read ctx.saved_tensors: after backward frees
        # the node, that raises, and a second backward through -x is fine in PyTorch
        saved = ctx.saved_tensors if cls.save_inputs or cls.save_output else ()
        if cls.number_param is not None:
            saved += (getattr(ctx, cls.number_param),)
        grad = cls.derivative(g, *saved)
        return (grad, None) if cls.number_edges else grad  # None: for a Python number's edge

    @classmethod
    def jvp(cls, params, inputs, tangents, out):
        saved = tuple(inputs) if cls.save_inputs else ()
        if cls.save_output:
            saved += (out,)
        if cls.number_param is None:
            return cls.derivative(tangents[0], *saved)
        return cls.derivative(tangents[0], *saved, params[cls.number_param])
