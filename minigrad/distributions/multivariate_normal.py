"""``MultivariateNormal(loc, covariance_matrix= | scale_tril= | precision_matrix=)``.

Everything goes through a lower-triangular ``L`` with ``L @ L.T`` the covariance (its
Cholesky factor): ``rsample`` is ``loc + L @ eps`` for standard normal ``eps`` (drawn as
PyTorch draws it), ``log_prob`` is ``-(n log 2pi + |L^-1 (x - loc)|^2) / 2 - sum(log diag L)``.
The factor is ``linalg.cholesky``'s (PyTorch's node, ``LinalgCholeskyExBackward0``, whose
backward is written with recorded ops, so ``create_graph`` differentiates it again), and the
solves with it are ``linalg.solve_triangular``'s, as in PyTorch.
"""

from __future__ import annotations

import math

import numpy as np

from .._size import Size
from ..errors import distributions as errors
from ..factory import empty, tensor
from ..linalg import cholesky, inv, solve_triangular
from . import constraints
from .distribution import Distribution, broadcast_shapes, lazy_property
from .kl import register_kl


class _PositiveDefinite(constraints.Constraint):
    """Symmetric matrices with positive eigenvalues."""

    event_dim = 2

    def check(self, value):
        a = value.detach().numpy()
        symmetric = np.isclose(a, np.swapaxes(a, -1, -2), atol=1e-6).all((-2, -1))
        identity = np.eye(a.shape[-1])  # stands in for a non-symmetric matrix (already False)
        positive = np.linalg.eigvalsh(np.where(symmetric[..., None, None], a, identity))
        return tensor(symmetric & (positive > 0).all(-1))


class _LowerCholesky(constraints.Constraint):
    """Lower-triangular matrices with a positive diagonal."""

    event_dim = 2

    def check(self, value):
        lower = (value.tril() == value).reshape(tuple(value.shape[:-2]) + (-1,)).all(dim=-1)
        return lower & (value.diagonal(dim1=-2, dim2=-1) > 0).all(dim=-1)


def _solve_lower(factor, b):
    """``L^-1 b`` for lower-triangular ``L`` (batched, broadcast); only L's lower triangle is
    read, and differentiated."""
    return solve_triangular(factor, b, upper=False)


def _mahalanobis(factor, diff):
    """``|L^-1 diff|^2`` over the last dim."""
    return _solve_lower(factor, diff.unsqueeze(-1)).squeeze(-1).pow(2).sum(-1)


positive_definite = _PositiveDefinite()
lower_cholesky = _LowerCholesky()


class MultivariateNormal(Distribution):
    """The normal distribution over vectors: mean ``loc``, covariance ``L @ L.T``."""

    arg_constraints = {
        "loc": constraints.real_vector,
        "covariance_matrix": positive_definite,
        "precision_matrix": positive_definite,
        "scale_tril": lower_cholesky,
    }
    support = constraints.real_vector
    has_rsample = True

    def __init__(
        self,
        loc,
        covariance_matrix=None,
        precision_matrix=None,
        scale_tril=None,
        validate_args=None,
    ):
        if loc.dim() < 1:
            raise ValueError(errors.MVN_LOC)
        given = [m is not None for m in (covariance_matrix, scale_tril, precision_matrix)]
        if sum(given) != 1:
            raise ValueError(errors.MVN_ONE_MATRIX)
        name, matrix = next(
            (n, m)
            for n, m in (
                ("scale_tril", scale_tril),
                ("covariance_matrix", covariance_matrix),
                ("precision_matrix", precision_matrix),
            )
            if m is not None
        )
        if matrix.dim() < 2:
            what = "scale_tril matrix" if name == "scale_tril" else name
            raise ValueError(errors.MVN_MATRIX_2D.format(what=what))
        batch_shape = broadcast_shapes(matrix.shape[:-2], loc.shape[:-1])
        setattr(self, name, matrix.expand(batch_shape + matrix.shape[-2:]))
        self.loc = loc.expand(batch_shape + loc.shape[-1:])
        super().__init__(batch_shape, self.loc.shape[-1:], validate_args=validate_args)
        if scale_tril is not None:
            self._unbroadcasted_scale_tril = scale_tril
        elif covariance_matrix is not None:
            self._unbroadcasted_scale_tril = cholesky(covariance_matrix)
        else:  # PyTorch factors the precision directly; the covariance's factor is the same L
            self._unbroadcasted_scale_tril = cholesky(inv(precision_matrix))

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(MultivariateNormal, _instance)
        batch_shape = Size(batch_shape)
        n = self._event_shape[0]
        new.loc = self.loc.expand(batch_shape + (n,))
        new._unbroadcasted_scale_tril = self._unbroadcasted_scale_tril
        for name in ("covariance_matrix", "scale_tril", "precision_matrix"):
            if name in self.__dict__:
                setattr(new, name, self.__dict__[name].expand(batch_shape + (n, n)))
        Distribution.__init__(new, batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def _matrix_shape(self) -> Size:
        return self._batch_shape + self._event_shape + self._event_shape

    @lazy_property
    def scale_tril(self):
        return self._unbroadcasted_scale_tril.expand(self._matrix_shape())

    @lazy_property
    def covariance_matrix(self):
        factor = self._unbroadcasted_scale_tril
        return (factor @ factor.mT).expand(self._matrix_shape())

    @lazy_property
    def precision_matrix(self):
        factor = self._unbroadcasted_scale_tril
        return inv(factor @ factor.mT).expand(self._matrix_shape())

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        return (
            self._unbroadcasted_scale_tril.pow(2)
            .sum(-1)
            .expand(self._batch_shape + self._event_shape)
        )

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        eps = empty(*shape, dtype=self.loc.dtype).normal_()
        return self.loc + (self._unbroadcasted_scale_tril @ eps.unsqueeze(-1)).squeeze(-1)

    def _half_log_det(self):
        return self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        n = self._event_shape[0]
        maha = _mahalanobis(self._unbroadcasted_scale_tril, value - self.loc)
        return -0.5 * (n * math.log(2 * math.pi) + maha) - self._half_log_det()

    def entropy(self):
        n = self._event_shape[0]
        h = 0.5 * n * (1.0 + math.log(2 * math.pi)) + self._half_log_det()
        return h if len(self._batch_shape) == 0 else h.expand(self._batch_shape)


@register_kl(MultivariateNormal, MultivariateNormal)
def _kl_mvn_mvn(p, q):
    """``log det Lq - log det Lp + (|Lq^-1 Lp|_F^2 + |Lq^-1 (mq - mp)|^2 - n) / 2``."""
    if p.event_shape != q.event_shape:
        raise ValueError(errors.KL_MVN_EVENT)
    n = p.event_shape[0]
    half_term1 = q._half_log_det() - p._half_log_det()
    term2 = _solve_lower(q._unbroadcasted_scale_tril, p._unbroadcasted_scale_tril).pow(2)
    term3 = _mahalanobis(q._unbroadcasted_scale_tril, q.loc - p.loc)
    return half_term1 + 0.5 * (term2.sum((-2, -1)) + term3 - n)
