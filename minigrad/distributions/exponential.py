"""``Exponential(rate)`` (``torch.distributions.exponential``): ``rsample`` draws
``empty(shape).exponential_()`` as PyTorch does and divides it by ``rate``."""

from __future__ import annotations

import numbers

from .._size import Size
from ..factory import empty, zeros_like
from . import constraints
from .distribution import Distribution, broadcast_all


class Exponential(Distribution):
    """The exponential distribution, density ``rate * exp(-rate * x)`` for x >= 0."""

    arg_constraints = {"rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True

    def __init__(self, rate, validate_args=None):
        (self.rate,) = broadcast_all(rate)
        batch = Size() if isinstance(rate, numbers.Number) else self.rate.shape
        super().__init__(batch, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Exponential, _instance)
        batch_shape = Size(batch_shape)
        new.rate = self.rate.expand(batch_shape)
        Distribution.__init__(new, batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def mean(self):
        return self.rate.reciprocal()

    @property
    def mode(self):
        return zeros_like(self.rate)

    @property
    def stddev(self):
        return self.rate.reciprocal()

    @property
    def variance(self):
        return self.rate.pow(-2)

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        return empty(*shape, dtype=self.rate.dtype).exponential_() / self.rate

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return self.rate.log() - self.rate * value

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 1 - (-self.rate * value).exp()

    def icdf(self, value):
        return -(-value).log1p() / self.rate

    def entropy(self):
        return 1.0 - self.rate.log()
