"""``Bernoulli(probs= | logits=)`` (``torch.distributions.bernoulli``): 1 with probability
``probs``, else 0; ``sample`` calls ``bernoulli`` on the expanded probabilities, as PyTorch
does. No ``rsample``: its gradient estimator is the score function, through ``log_prob``."""

from __future__ import annotations

import numbers

from .._sampling import bernoulli
from .._size import Size
from ..errors import distributions as errors
from ..factory import arange
from ..nn.functional import binary_cross_entropy_with_logits
from ..ops.select import where
from ..recording.grad_mode import no_grad
from ..tensor import Tensor
from . import constraints
from .distribution import (
    Distribution,
    broadcast_all,
    lazy_property,
    logits_to_probs,
    probs_to_logits,
)


def _enumerate(values: Tensor, batch_shape, expand: bool) -> Tensor:
    values = values.reshape((-1,) + (1,) * len(batch_shape))
    return values.expand((-1,) + tuple(batch_shape)) if expand else values


class Bernoulli(Distribution):
    """1 with probability ``probs`` (or ``sigmoid(logits)``), else 0."""

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.boolean
    has_enumerate_support = True

    def __init__(self, probs=None, logits=None, validate_args=None):
        if (probs is None) == (logits is None):
            raise ValueError(errors.PROBS_OR_LOGITS)
        given = probs if probs is not None else logits
        if probs is not None:
            (self.probs,) = broadcast_all(probs)
        else:
            (self.logits,) = broadcast_all(logits)
        self._param = self.probs if probs is not None else self.logits
        batch = Size() if isinstance(given, numbers.Number) else self._param.shape
        super().__init__(batch, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Bernoulli, _instance)
        batch_shape = Size(batch_shape)
        if "probs" in self.__dict__:
            new.probs = self.probs.expand(batch_shape)
            new._param = new.probs
        if "logits" in self.__dict__:
            new.logits = self.logits.expand(batch_shape)
            new._param = new.logits
        Distribution.__init__(new, batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @lazy_property
    def logits(self):
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self):
        return logits_to_probs(self.logits, is_binary=True)

    @property
    def param_shape(self) -> Size:
        return self._param.shape

    @property
    def mean(self):
        return self.probs

    @property
    def mode(self):
        p = self.probs.detach()
        return where(p == 0.5, float("nan"), (p >= 0.5).to(p.dtype))

    @property
    def variance(self):
        return self.probs * (1 - self.probs)

    def sample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        with no_grad():
            return bernoulli(self.probs.expand(shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        return -binary_cross_entropy_with_logits(logits, value, reduction="none")

    def entropy(self):
        return binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none")

    def enumerate_support(self, expand=True):
        return _enumerate(arange(2, dtype=self._param.dtype), self._batch_shape, expand)
