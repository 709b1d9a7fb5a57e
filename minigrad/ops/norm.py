"""Vector norms: ``Tensor.norm`` and ``linalg.vector_norm``, one op class.

sqrt((x**2).sum()) built from ops would give a nan gradient at x = 0 (0/0 in sqrt's
backward); PyTorch's ``norm_backward`` gives 0 there, and so does :class:`VectorNorm`,
whose backward is written with differentiable ops (double backward works) and guards
the divisions the way PyTorch does. NB: the analogous node in PyTorch is
``LinalgVectorNormBackward0``; ``Tensor.norm`` with a numeric ``p`` calls the same kernel.
"""

from __future__ import annotations

import math

import numpy as np

from .. import errors
from ..recording.function import Op
from ._util import is_scalar, norm_dim
from .reduce import Sum, _dims, _unreduce
from .select import where


def _norm_array(a, ord, dims, keepdim):  # noqa: A002  (PyTorch's argument name)
    """||a||_ord over ``dims`` with numpy, in a's dtype."""
    x = np.abs(a)
    axes = {"axis": dims, "keepdims": keepdim}
    if ord == math.inf:
        out = x.max(**axes)
    elif ord == -math.inf:
        out = x.min(**axes)
    elif ord == 0:
        out = (x != 0).sum(**axes, dtype=a.dtype)
    elif ord == 1:
        out = x.sum(**axes)
    elif ord == 2:
        out = np.sqrt((x * x).sum(**axes))
    else:
        with np.errstate(divide="ignore", over="ignore"):
            out = (x**ord).sum(**axes) ** (1.0 / ord)
    return np.asarray(out, dtype=a.dtype)


def _slope(a, n, ord, dims):  # noqa: A002
    """d||a|| / da as a tensor of a's shape (``n``: the norm broadcast back over a).

    Where the norm is 0 the slope is 0 (PyTorch's masked_fill), and entries equal to 0
    get 0 for p < 1 (their |a|**(p-1) would be inf; sign(a) = 0 wins, as in PyTorch)."""
    if ord == 0:
        return a * 0.0
    s = a.sign()
    if ord == 1:
        return s
    if math.isinf(ord):  # ties share evenly, as amax / amin do; PyTorch's mask holds the
        hit = ((a.abs() == n) | a.isnan()).to(a.dtype)  # NaNs too (their sign(NaN) is 0)
        return s * (hit / Sum.apply(hit, dims=dims, keepdim=True))
    safe_abs = where(a == 0, 1.0, a.abs())  # ops, not arrays: make_jaxpr can trace them
    if ord < 1:  # n**(1 - p) is finite (0 at a zero norm)
        return s * safe_abs ** (ord - 1) * n ** (1 - ord)
    safe_n = where(n == 0, 1.0, n)
    return s * safe_abs ** (ord - 1) / safe_n ** (ord - 1)


def _norm_grad(g, a, n, ord, dims):  # noqa: A002
    """The gradient of ||a||_ord for an incoming ``g``, by PyTorch's ``norm_backward`` branch
    by branch, in its order of operations, so that its signed zeros and NaNs come out (``g``
    and the norm ``n`` broadcast over ``a``). ord = 0 has none (PyTorch returns an undefined
    gradient: ``.grad`` stays None). A masked_fill of PyTorch's is a ``where`` here; where
    PyTorch divides by 0 and masks the inf or NaN away, a 1 is divided by instead (ops, not
    arrays: make_jaxpr can trace them; no numpy warning)."""
    if ord == 0:
        return None
    if ord == 1:
        return a.sign() * g
    if ord == 2:  # grad * (self / norm).masked_fill_(norm == 0, 0)
        return g * where(n == 0, 0.0, a / where(n == 0, 1.0, n))
    if math.isinf(ord):
        return g * _slope(a, n, ord, dims)
    if ord < 1:  # sgn(a) |a|^(p-1), 0 where a == 0; times grad, times n^(1-p)
        scaled = where(a == 0, 0.0, a.sign() * where(a == 0, 1.0, a.abs()) ** (ord - 1))
        return scaled * g * n ** (1 - ord)
    scale = where(n == 0, 0.0, g / where(n == 0, 1.0, n) ** (ord - 1))
    if ord < 2:
        return a.sign() * a.abs() ** (ord - 1) * scale
    return a * a.abs() ** (ord - 2) * scale


class VectorNorm(Op):
    """p-norm over dims: f(a) = (sum |a|**p)**(1/p); grad = g * sign(a) |a|**(p-1) / f**(p-1).

    p = inf / -inf: max / min of |a| (ties share the gradient evenly); p = 0: the number
    of non-zero entries (gradient 0); the gradient is 0 where f = 0 (as PyTorch)."""

    node_name = "LinalgVectorNormBackward0"

    save_inputs = True
    save_output = True

    @staticmethod
    def forward(ctx, a, ord, dims, keepdim):  # noqa: A002
        ctx.info = (a.shape, dims, keepdim)
        ctx.ord = ord
        return _norm_array(a, ord, dims, keepdim)

    @staticmethod
    def backward(ctx, g):
        a, out = ctx.saved_tensors
        in_shape, dims, keepdim = ctx.info
        return _norm_grad(_unreduce(g, *ctx.info), a, _unreduce(out, *ctx.info), ctx.ord, dims)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = sum of t_a * d||a||/da over the dims."""
        a, dims, keepdim = inputs[0], params["dims"], params["keepdim"]
        n = _unreduce(out, a.shape, dims, keepdim)
        slope = _slope(a, n, params["ord"], dims)
        return Sum.apply(tangents[0] * slope, dims=dims, keepdim=keepdim)


# --- the functions the Tensor method and minigrad.linalg call ----------------------
def vector_norm(x, ord=2, dim=None, keepdim: bool = False):  # noqa: A002
    """The vector ``ord``-norm of ``x`` over ``dim`` (all dims when None or ``()``)
    (``torch.linalg.vector_norm``).

    ``ord`` is any number: 2 (Euclidean), 1, ``inf`` (max of |x|), ``-inf`` (min), 0 (the
    number of non-zeros), or another float p: ``(sum |x|**p)**(1/p)``.

    Example:
        >>> import minigrad as mg
        >>> x = mg.tensor([[3.0, -4.0], [0.0, 0.0]], requires_grad=True)
        >>> n = mg.linalg.vector_norm(x, dim=1)
        >>> n
        tensor([5., 0.], grad_fn=<LinalgVectorNormBackward0>)
        >>> n.sum().backward()
        >>> x.grad  # 0 where the norm is 0, as in PyTorch
        tensor([[ 0.6000, -0.8000],
                [ 0.0000,  0.0000]])
    """
    if isinstance(ord, str) or not is_scalar(ord):
        raise TypeError(errors.NORM_ORD_TYPE.format(got=ord))
    if x._data.dtype.kind != "f":
        raise RuntimeError(errors.NORM_FLOAT.format(op="linalg.vector_norm", got=x.dtype))
    ord = float(ord)  # noqa: A001
    dims = _unique_dims(dim, x.ndim, "linalg.vector_norm")
    if ord == math.inf or ord < 0:
        _check_nonempty(x, dims, ord)
    return VectorNorm.apply(x, ord=ord, dims=dims, keepdim=keepdim)


def norm(x, p="fro", dim=None, keepdim: bool = False):
    """The norm of ``x`` (``Tensor.norm``): ``p="fro"`` (the default) is the 2-norm of the
    entries over ``dim`` (at most 2 dims); a number ``p`` is :func:`vector_norm` with
    ``ord=p``. PyTorch's matrix norm ``p="nuc"`` is not here.

    Example:
        >>> import minigrad as mg
        >>> x = mg.tensor([[1.0, -2.0], [2.0, 4.0]])
        >>> x.norm(), x.norm(p=1, dim=0), x.norm(p=float("inf"))
        (tensor(5.), tensor([3., 6.]), tensor(4.))
    """
    if p is None:  # PyTorch: None means "fro"
        p = "fro"
    if isinstance(p, str):
        if p != "fro":
            hint = errors.NORM_NUC if p == "nuc" else ""
            raise RuntimeError(errors.NORM_P.format(got=p, hint=hint))
        if isinstance(dim, (tuple, list)) and len(dim) > 2:
            raise RuntimeError(errors.NORM_FRO_DIMS.format(dim=dim))
        p = 2
    elif not is_scalar(p):
        raise TypeError(errors.NORM_P.format(got=p, hint=""))
    return vector_norm(x, p, dim, keepdim)


def _unique_dims(dim, ndim: int, op: str) -> tuple | None:
    """Reduction dims as for sum, but a dim given twice is an error (as in PyTorch)."""
    if isinstance(dim, (tuple, list)):
        seen = [norm_dim(d, ndim) for d in dim]
        for d in seen:
            if seen.count(d) > 1:
                raise RuntimeError(errors.NORM_DIM_REPEATED.format(op=op, dim=d, dims=list(dim)))
    return _dims(dim, ndim)


def _check_nonempty(x, dims, ord):  # noqa: A002
    """inf and negative norms have no identity: refuse an empty reduction (RuntimeError)."""
    shape = x.shape
    name = {math.inf: "inf", -math.inf: "-inf"}.get(ord, f"{ord:g}")
    if dims is None and x._data.size == 0:
        raise RuntimeError(errors.NORM_EMPTY_ALL.format(ord=name, shape=shape))
    for d in dims or ():
        if shape[d] == 0:
            raise RuntimeError(errors.NORM_EMPTY.format(ord=name, dim=d, shape=shape))


__all__ = ["vector_norm", "norm"]
