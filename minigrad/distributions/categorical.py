"""``Categorical(probs= | logits=)`` (``torch.distributions.categorical``).

It normalises what it is given, as PyTorch does: ``probs / probs.sum(-1)``, or
``logits - logits.logsumexp(-1)``, and computes the other parameter on first use.
``sample`` calls ``multinomial`` (with replacement) on the probabilities viewed as rows,
then transposes to put ``sample_shape`` first, as PyTorch does. No ``rsample``: the gradient
of an expectation over it is the score function, ``f(x) * grad log_prob(x)`` (REINFORCE).
"""

from __future__ import annotations

from .._dtype import int64
from .._sampling import multinomial
from .._size import Size
from ..errors import distributions as errors
from ..factory import arange, full
from . import constraints
from .bernoulli import _enumerate
from .distribution import (
    Distribution,
    _finfo,
    broadcast_shapes,
    lazy_property,
    logits_to_probs,
    probs_to_logits,
)


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
