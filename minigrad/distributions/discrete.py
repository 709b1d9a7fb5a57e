"""Discrete distributions: ``Bernoulli``, ``Categorical``, ``OneHotCategorical`` (PyTorch's).

Each takes ``probs=`` or ``logits=`` (exactly one) and computes the other on first use.
``Categorical`` normalises what it is given, as PyTorch does: ``probs / probs.sum(-1)``, or
``logits - logits.logsumexp(-1)``. Samples are drawn as PyTorch draws them: ``Bernoulli`` with
``bernoulli`` on the expanded probabilities, ``Categorical`` with ``multinomial`` (with
replacement) on the probabilities viewed as rows, then transposed to ``sample_shape`` first.
They have no ``rsample``: the gradient of an expectation over them is the score function,
``f(x) * grad log_prob(x)`` (REINFORCE).
"""

from __future__ import annotations

import numbers

from .._dtype import int64
from .._sampling import bernoulli, multinomial
from .._size import Size
from ..errors import distributions as errors
from ..factory import arange, full
from ..nn.functional import binary_cross_entropy_with_logits, one_hot
from ..ops.select import where
from ..recording.grad_mode import no_grad
from ..tensor import Tensor
from . import constraints
from .distribution import (
    Distribution,
    _finfo,
    broadcast_all,
    broadcast_shapes,
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


class Categorical(Distribution):
    """One of ``K`` categories, ``0 .. K-1``, with the probabilities in the last dim.

    Example (the score function: actions drawn without gradient, log_prob recorded):
        >>> import minigrad as mg
        >>> logits = mg.tensor([0.0, 1.0, 2.0], requires_grad=True)
        >>> d = Categorical(logits=logits)
        >>> _ = mg.manual_seed(0)
        >>> actions = d.sample((4,))
        >>> actions
        tensor([2, 2, 2, 2])
        >>> (-d.log_prob(actions).sum()).backward()
        >>> logits.grad
        tensor([ 0.3601,  0.9789, -1.3390])
    """

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    has_enumerate_support = True

    def __init__(self, probs=None, logits=None, validate_args=None):
        if (probs is None) == (logits is None):
            raise ValueError(errors.PROBS_OR_LOGITS)
        if probs is not None:
            if probs.dim() < 1:
                raise ValueError(errors.AT_LEAST_1D.format(name="probs"))
            self.probs = probs / probs.sum(-1, keepdim=True)
        else:
            if logits.dim() < 1:
                raise ValueError(errors.AT_LEAST_1D.format(name="logits"))
            self.logits = logits - logits.logsumexp(dim=-1, keepdim=True)
        self._param = self.probs if probs is not None else self.logits
        self._num_events = self._param.shape[-1]
        batch = self._param.shape[:-1] if self._param.dim() > 1 else Size()
        super().__init__(batch, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Categorical, _instance)
        batch_shape = Size(batch_shape)
        param_shape = batch_shape + (self._num_events,)
        if "probs" in self.__dict__:
            new.probs = self.probs.expand(param_shape)
            new._param = new.probs
        if "logits" in self.__dict__:
            new.logits = self.logits.expand(param_shape)
            new._param = new.logits
        new._num_events = self._num_events
        Distribution.__init__(new, batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @constraints.dependent_property(is_discrete=True, event_dim=0)
    def support(self):
        return constraints.integer_interval(0, self._num_events - 1)

    @lazy_property
    def logits(self):
        return probs_to_logits(self.probs)

    @lazy_property
    def probs(self):
        return logits_to_probs(self.logits)

    @property
    def param_shape(self) -> Size:
        return self._param.shape

    @property
    def mean(self):
        return full(self._extended_shape(), float("nan"), dtype=self.probs.dtype)

    @property
    def mode(self):
        return self.probs.argmax(dim=-1)

    @property
    def variance(self):
        return full(self._extended_shape(), float("nan"), dtype=self.probs.dtype)

    def sample(self, sample_shape=()):
        sample_shape = Size(sample_shape)
        probs_2d = self.probs.detach().reshape(-1, self._num_events)
        samples_2d = multinomial(probs_2d, sample_shape.numel(), True).T
        return samples_2d.reshape(self._extended_shape(sample_shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        value = value.long().unsqueeze(-1)
        shape = broadcast_shapes(value.shape, self.logits.shape)
        value = value.expand(shape)[..., :1]
        return self.logits.expand(shape).gather(-1, value).squeeze(-1)

    def entropy(self):
        min_real = float(_finfo(self.logits.dtype).min)
        p_log_p = self.logits.clamp(min=min_real) * self.probs
        return -p_log_p.sum(-1)

    def enumerate_support(self, expand=True):
        return _enumerate(arange(self._num_events, dtype=int64), self._batch_shape, expand)


class OneHotCategorical(Distribution):
    """A ``Categorical`` whose samples are one-hot vectors of length ``K`` (event shape ``(K,)``)."""

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    support = constraints.one_hot
    has_enumerate_support = True

    def __init__(self, probs=None, logits=None, validate_args=None):
        self._categorical = Categorical(probs, logits)
        batch_shape = self._categorical.batch_shape
        event_shape = self._categorical.param_shape[-1:]
        super().__init__(batch_shape, event_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(OneHotCategorical, _instance)
        batch_shape = Size(batch_shape)
        new._categorical = self._categorical.expand(batch_shape)
        Distribution.__init__(new, batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def _param(self):
        return self._categorical._param

    @property
    def probs(self):
        return self._categorical.probs

    @property
    def logits(self):
        return self._categorical.logits

    @property
    def param_shape(self) -> Size:
        return self._categorical.param_shape

    @property
    def mean(self):
        return self._categorical.probs

    @property
    def mode(self):
        probs = self._categorical.probs
        return one_hot(probs.argmax(dim=-1), num_classes=probs.shape[-1]).to(probs.dtype)

    @property
    def variance(self):
        return self._categorical.probs * (1 - self._categorical.probs)

    def sample(self, sample_shape=()):
        probs = self._categorical.probs
        indices = self._categorical.sample(Size(sample_shape))
        return one_hot(indices, self._categorical._num_events).to(probs.dtype)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return self._categorical.log_prob(value.max(-1)[1])

    def entropy(self):
        return self._categorical.entropy()

    def enumerate_support(self, expand=True):
        n = self.event_shape[0]
        values = one_hot(arange(n, dtype=int64), n).to(self._param.dtype)
        values = values.reshape((n,) + (1,) * len(self.batch_shape) + (n,))
        return values.expand((n,) + tuple(self.batch_shape) + (n,)) if expand else values
