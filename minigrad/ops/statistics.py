"""Statistics and integrals built from other ops: ``cov corrcoef trapezoid trapz
cumulative_trapezoid renorm`` (PyTorch names; PyTorch composes the first five from
elementary ops too, and records one ``RenormBackward0`` for the last).
"""

from __future__ import annotations

import warnings

import numpy as np

from .. import _dtype
from ..errors import order_and_builders as _errors
from ..tensor import Tensor
from ._util import check_tensor, named, norm_dim
from .linalg import matmul
from .norm import vector_norm
from .select import where


def _check_weights(w, name: str, n: int, integral: bool) -> None:
    check_tensor(w, "cov", name, 2)
    if w.ndim > 1:
        raise RuntimeError(_errors.COV_WEIGHTS_DIM.format(name=name, ndim=w.ndim))
    if w.numel() != n:
        raise RuntimeError(_errors.COV_WEIGHTS_NUMEL.format(name=name, n=n, got=w.numel()))
    kind = w._data.dtype.kind
    if integral and kind not in "iu":
        raise RuntimeError(_errors.COV_FWEIGHTS_DTYPE.format(got=_dtype.c_name(w.dtype)))
    if not integral and kind != "f":
        raise RuntimeError(_errors.COV_AWEIGHTS_DTYPE.format(got=_dtype.c_name(w.dtype)))
    if w._data.size and w._data.min() < 0:
        raise RuntimeError(_errors.COV_NEGATIVE.format(name=name))


def cov(input, *, correction: int = 1, fweights=None, aweights=None) -> Tensor:  # noqa: A002
    """The covariance matrix of the variables in ``input``'s rows, its columns the
    observations (``torch.cov``; a 1-D input is one variable: a 0-d result). ``fweights``
    (integer repeat counts) and ``aweights`` (float importances) weight the observations;
    ``correction`` is Bessel's (1: divide by n - 1).

    Example:
        >>> import minigrad as mg
        >>> mg.cov(mg.tensor([[1.0, 2.0, 4.0], [0.0, 5.0, 2.0]]))
        tensor([[2.3333, 0.8333],
                [0.8333, 6.3333]])
    """
    check_tensor(input, "cov")
    if input.ndim > 2:
        raise RuntimeError(_errors.COV_DIMS.format(ndim=input.ndim))
    x = input.reshape(1, -1) if input.ndim < 2 else input
    if not x.dtype.is_floating_point:
        x = x.to(_dtype.get_default_dtype())
    n = x.shape[1]
    w = None
    if fweights is not None:
        _check_weights(fweights, "fweights", n, True)
        w = fweights
    if aweights is not None:
        _check_weights(aweights, "aweights", n, False)
        w = aweights if w is None else w * aweights
    if w is None:
        avg = x.mean(1)
        w_sum = n
    else:
        w = w.to(x.dtype)
        w_sum = w.sum()
        avg = (x * w).sum(1) / w_sum
    if aweights is None:
        norm_factor = w_sum - correction
    else:
        norm_factor = w_sum - correction * (w * aweights).sum() / w_sum
    if (norm_factor.item() if isinstance(norm_factor, Tensor) else norm_factor) <= 0:
        warnings.warn(_errors.COV_DOF, UserWarning, stacklevel=2)
        norm_factor = 0.0 if not isinstance(norm_factor, Tensor) else norm_factor * 0
    centred = x - avg.unsqueeze(1)
    weighted = centred if w is None else centred * w
    with np.errstate(divide="ignore", invalid="ignore"):
        return (matmul(weighted, centred.t()) / norm_factor).squeeze()


def corrcoef(input) -> Tensor:  # noqa: A002
    """Pearson's correlation coefficients of the variables in ``input``'s rows
    (``torch.corrcoef``): cov(x)[i, j] / (std_i std_j), clipped to [-1, 1] as PyTorch clips.

    Example:
        >>> import minigrad as mg
        >>> mg.corrcoef(mg.tensor([[1.0, 2.0, 4.0], [2.0, 4.0, 8.0]]))
        tensor([[1., 1.],
                [1., 1.]])
    """
    c = cov(input)
    if c.ndim == 0:
        return c / c
    d = c.diagonal()
    stddev = d.sqrt()
    c = c / stddev.unsqueeze(1)
    c = c / stddev.unsqueeze(0)
    return c.clamp(-1, 1)


def _spacing(y, x, dx, dim: int, op: str):
    """(d, the spacing): ``x``'s differences along ``d`` (broadcast with y), or the number ``dx``."""
    check_tensor(y, op, "y")
    if y.ndim == 0:
        raise IndexError(_errors.DIM_NO_DIMS.format(dim=dim))
    d = norm_dim(dim, y.ndim)
    if x is None:
        return d, 1.0 if dx is None else dx
    if not isinstance(x, Tensor):
        raise TypeError(_errors.TRAPEZOID_X_TYPE.format(op=op, got=type(x).__name__))
    if x.ndim == 1:
        if x.shape[0] != y.shape[d]:
            raise RuntimeError(_errors.TRAPEZOID_X_LEN.format(op=op))
        gaps = x[1:] - x[:-1]
        return d, gaps.reshape(-1, *[1] * (y.ndim - d - 1))
    xd = norm_dim(dim, x.ndim)
    n = x.shape[xd]
    return d, x.narrow(xd, 1, max(n - 1, 0)) - x.narrow(xd, 0, max(n - 1, 0))


def _mean_pairs(y, d: int):
    n = y.shape[d]
    if n == 0:
        return y.narrow(d, 0, 0)
    return (y.narrow(d, 1, n - 1) + y.narrow(d, 0, n - 1)) / 2


def _floating(y):
    return y if y.dtype.is_floating_point else y.to(_dtype.get_default_dtype())


def trapezoid(y, x=None, *, dx=None, dim: int = -1) -> Tensor:
    """The trapezoid rule along ``dim``: the sum of (y[i] + y[i+1]) / 2 times the spacing,
    ``x[i+1] - x[i]`` or the number ``dx`` (1 by default) (``torch.trapezoid``).

    Example:
        >>> import minigrad as mg
        >>> mg.trapezoid(mg.tensor([1.0, 2.0, 4.0]), mg.tensor([0.0, 1.0, 3.0]))
        tensor(7.5000)
    """
    d, spacing = _spacing(y, x, dx, dim, "trapezoid")
    return (_mean_pairs(_floating(y), d) * spacing).sum(d)


def trapz(y, x=None, *, dx=None, dim: int = -1) -> Tensor:
    """``torch.trapz``, PyTorch's older name of :func:`trapezoid`."""
    return trapezoid(y, x, dx=dx, dim=dim)


def cumulative_trapezoid(y, x=None, *, dx=None, dim: int = -1) -> Tensor:
    """The running trapezoid rule along ``dim`` (``torch.cumulative_trapezoid``): one value
    fewer than ``y`` has along it, the k-th the integral from the first point to the
    (k + 1)-th."""
    d, spacing = _spacing(y, x, dx, dim, "cumulative_trapezoid")
    return (_mean_pairs(_floating(y), d) * spacing).cumsum(d)


def renorm(input, p, dim: int, maxnorm) -> Tensor:  # noqa: A002
    """Each slice along ``dim`` whose ``p``-norm exceeds ``maxnorm`` scaled down to norm
    ``maxnorm`` (``torch.renorm``: by maxnorm / (norm + 1e-7)); the others unchanged. The
    gradient flows through the norm, as PyTorch's ``RenormBackward0``.

    Example:
        >>> import minigrad as mg
        >>> mg.renorm(mg.tensor([[3.0, 4.0], [0.3, 0.4]]), 2, 0, 1.0)
        tensor([[0.6000, 0.8000],
                [0.3000, 0.4000]])
    """
    check_tensor(input, "renorm")
    if input.ndim < 2:
        raise RuntimeError(_errors.RENORM_DIMS.format(ndim=input.ndim))
    d = norm_dim(dim, input.ndim)
    if p <= 0:
        raise RuntimeError(_errors.RENORM_P)
    if maxnorm < 0:
        raise RuntimeError(_errors.RENORM_MAXNORM.format(got=maxnorm))
    others = tuple(k for k in range(input.ndim) if k != d)
    norm = vector_norm(input, p, others, keepdim=True)
    factor = where(norm > maxnorm, maxnorm / (norm + 1e-7), 1.0)
    return named(input * factor, "RenormBackward0")
