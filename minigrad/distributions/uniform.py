"""``Uniform(low, high)`` (``torch.distributions.uniform``): ``rsample`` draws
``u = rand(shape)`` as PyTorch does and returns ``low + u * (high - low)``."""

from __future__ import annotations

from .._size import Size
from ..errors import distributions as errors
from ..factory import rand
from . import constraints
from .distribution import Distribution, broadcast_all
from .normal import _batch


class Uniform(Distribution):
    """The uniform distribution on ``[low, high)`` (``torch.distributions.Uniform``)."""

    arg_constraints = {
        "low": constraints.dependent(is_discrete=False, event_dim=0),
        "high": constraints.dependent(is_discrete=False, event_dim=0),
    }
    has_rsample = True

    def __init__(self, low, high, validate_args=None):
        self.low, self.high = broadcast_all(low, high)
        super().__init__(_batch(self.low, self.high, low, high), validate_args=validate_args)
        if self._validate_args and not (self.low < self.high).all():
            raise ValueError(errors.UNIFORM_RANGE)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Uniform, _instance)
        batch_shape = Size(batch_shape)
        new.low = self.low.expand(batch_shape)
        new.high = self.high.expand(batch_shape)
        Distribution.__init__(new, batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self):
        return constraints.interval(self.low, self.high)

    @property
    def mean(self):
        return (self.high + self.low) / 2

    @property
    def mode(self):
        return float("nan") * self.high

    @property
    def stddev(self):
        return (self.high - self.low) / 12**0.5

    @property
    def variance(self):
        return (self.high - self.low).pow(2) / 12

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        u = rand(*shape, dtype=self.low.dtype)
        return self.low + u * (self.high - self.low)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        inside = (self.low <= value).to(self.low.dtype) * (self.high > value).to(self.low.dtype)
        return inside.log() - (self.high - self.low).log()

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return ((value - self.low) / (self.high - self.low)).clamp(min=0, max=1)

    def icdf(self, value):
        return value * (self.high - self.low) + self.low

    def entropy(self):
        return (self.high - self.low).log()
