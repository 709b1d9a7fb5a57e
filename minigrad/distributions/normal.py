"""``Normal(loc, scale)`` (``torch.distributions.normal``): ``rsample`` draws
``eps = empty(shape).normal_()`` as PyTorch does and returns ``loc + eps * scale``, recorded,
so gradients reach ``loc`` and ``scale`` (the reparameterisation trick)."""

from __future__ import annotations

import math
import numbers

from .._sampling import normal
from .._size import Size
from ..factory import empty
from ..recording.grad_mode import no_grad
from . import constraints
from .distribution import Distribution, broadcast_all


def _batch(*params) -> Size:
    """``()`` when every parameter was given as a number, else the broadcast shape."""
    values, given = params[: len(params) // 2], params[len(params) // 2 :]
    if all(isinstance(v, numbers.Number) for v in given):
        return Size()
    return values[0].shape


class _LocScale(Distribution):
    """Shared by ``Normal`` and ``Laplace``: a ``loc`` and a positive ``scale``."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = broadcast_all(loc, scale)
        super().__init__(_batch(self.loc, self.scale, loc, scale), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(type(self), _instance)
        batch_shape = Size(batch_shape)
        new.loc = self.loc.expand(batch_shape)
        new.scale = self.scale.expand(batch_shape)
        Distribution.__init__(new, batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc


class Normal(_LocScale):
    """The normal (Gaussian) distribution N(loc, scale**2) (``torch.distributions.Normal``).

    Example:
        >>> import minigrad as mg
        >>> from minigrad.distributions import Normal
        >>> mu = mg.tensor([0.0, 1.0], requires_grad=True)
        >>> d = Normal(mu, mg.tensor([1.0, 2.0]))
        >>> d
        Normal(loc: minigrad.Size([2]), scale: minigrad.Size([2]))
        >>> d.log_prob(mg.tensor([0.0, 0.0])).sum().backward()
        >>> mu.grad
        tensor([ 0.0000, -0.2500])
    """

    @property
    def stddev(self):
        return self.scale

    @property
    def variance(self):
        return self.stddev.pow(2)

    def sample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        with no_grad():  # torch.normal(mean, std): standard normals, times std, plus mean
            return normal(self.loc.expand(shape), self.scale.expand(shape))

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        eps = empty(*shape, dtype=self.loc.dtype).normal_()
        return self.loc + eps * self.scale

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        var = self.scale**2
        return (
            -((value - self.loc) ** 2) / (2 * var)
            - self.scale.log()
            - math.log(math.sqrt(2 * math.pi))
        )

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 0.5 * (1 + ((value - self.loc) * self.scale.reciprocal() / math.sqrt(2)).erf())

    def icdf(self, value):
        return self.loc + self.scale * (2 * value - 1).erfinv() * math.sqrt(2)

    def entropy(self):
        return 0.5 + 0.5 * math.log(2 * math.pi) + self.scale.log()
