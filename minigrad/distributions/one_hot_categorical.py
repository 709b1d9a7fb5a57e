"""``OneHotCategorical(probs= | logits=)`` (``torch.distributions.one_hot_categorical``): a
``Categorical`` whose samples are one-hot vectors (event shape ``(K,)``)."""

from __future__ import annotations

from .._dtype import int64
from .._size import Size
from ..factory import arange
from ..nn.functional import one_hot
from . import constraints
from .categorical import Categorical
from .distribution import (
    Distribution,
)


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
