"""The ``Distribution`` base class and the helpers every distribution shares (PyTorch's).

Shapes. A distribution holds a *batch* of independent distributions (``batch_shape``), each
over events of ``event_shape`` (``()`` for a number, ``(k,)`` for a one-hot vector).
``sample(sample_shape)`` returns ``sample_shape + batch_shape + event_shape``, and
``log_prob(value)`` returns one number per event: ``value``'s shape minus ``event_shape``.

Two samplers. ``rsample`` (where ``has_rsample``) writes a sample as a recorded function of
the parameters and of parameter-free noise, ``loc + eps * scale``, so gradients flow through
it (the *reparameterisation trick*). ``sample`` draws under ``no_grad``: its gradient
estimator is the *score function*, ``f(x) * grad log_prob(x)`` (REINFORCE).
"""

from __future__ import annotations

import functools
import numbers
import warnings

import numpy as np

from .._dtype import get_default_dtype
from .._size import Size
from ..errors import distributions as errors
from ..factory import tensor
from ..recording.grad_mode import enable_grad, no_grad
from ..tensor import Tensor
from . import constraints


class lazy_property:  # noqa: N801  (PyTorch's name)
    """A parameter computed from another on first use, then kept on the instance
    (``Categorical(logits=l).probs`` is ``softmax(l)``, computed once, with gradients)."""

    def __init__(self, wrapped):
        self.wrapped = wrapped
        functools.update_wrapper(self, wrapped)

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        with enable_grad():
            value = self.wrapped(instance)
        setattr(instance, self.wrapped.__name__, value)  # the instance's dict shadows us now
        return value


def broadcast_all(*values):
    """Tensors of one broadcast shape; numbers become tensors of the first tensor's dtype
    (or the default dtype). Gradients flow to the inputs (``expand`` is recorded)."""
    if not all(isinstance(v, (Tensor, numbers.Number)) for v in values):
        got = ", ".join(type(v).__name__ for v in values)
        raise ValueError(errors.PARAM_TYPE.format(got=got))
    dtype = next((v.dtype for v in values if isinstance(v, Tensor)), get_default_dtype())
    values = [v if isinstance(v, Tensor) else tensor(v, dtype=dtype) for v in values]
    shape = broadcast_shapes(*(v.shape for v in values))
    return tuple(v if v.shape == shape else v.expand(shape) for v in values)


def broadcast_shapes(*shapes) -> Size:
    """The shape all ``shapes`` broadcast to; a RuntimeError (PyTorch's class) otherwise."""
    ndim = max((len(s) for s in shapes), default=0)
    out = []
    for i in range(-ndim, 0):
        sizes = {s[i] for s in shapes if len(s) >= -i} - {1}
        if len(sizes) > 1:
            raise RuntimeError(errors.BROADCAST.format(shapes=shapes))
        out.append(sizes.pop() if sizes else 1)
    return Size(out)


def sum_rightmost(value: Tensor, dim: int) -> Tensor:
    """Sum the ``dim`` rightmost dims (an ``Independent``'s event dims)."""
    if dim == 0:
        return value
    return value.reshape(tuple(value.shape[: value.dim() - dim]) + (-1,)).sum(-1)


def _finfo(dtype):
    """numpy's ``finfo`` of a minigrad dtype (``torch.finfo``'s eps, tiny, min)."""
    return np.finfo(np.dtype(str(dtype).split(".")[-1]))


def clamp_probs(probs: Tensor) -> Tensor:
    """Probabilities kept in [eps, 1 - eps] of their dtype, so their logarithms are finite."""
    eps = float(_finfo(probs.dtype).eps)
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs: Tensor, is_binary: bool = False) -> Tensor:
    """``log p`` (categorical) or ``log p - log(1 - p)`` (binary), on clamped probabilities."""
    ps = clamp_probs(probs)
    return ps.log() - (-ps).log1p() if is_binary else ps.log()


def logits_to_probs(logits: Tensor, is_binary: bool = False) -> Tensor:
    """``sigmoid(logits)`` (binary) or ``softmax(logits, -1)`` (categorical)."""
    return logits.sigmoid() if is_binary else logits.softmax(-1)


class Distribution:
    """The base of every distribution (``torch.distributions.Distribution``)."""

    has_rsample = False
    has_enumerate_support = False
    _validate_args = __debug__  # on by default, as in PyTorch
    arg_constraints: dict = {}
    support = None

    @staticmethod
    def set_default_validate_args(value: bool) -> None:
        """Turn argument and sample checking on or off for every distribution built later."""
        if value not in (True, False):
            raise ValueError(errors.VALIDATE_FLAG.format(got=value))
        Distribution._validate_args = value

    def __init__(self, batch_shape=(), event_shape=(), validate_args=None):
        self._batch_shape = Size(batch_shape)
        self._event_shape = Size(event_shape)
        if validate_args is not None:
            self._validate_args = validate_args
        if self._validate_args:
            for param, constraint in self.arg_constraints.items():
                if constraints.is_dependent(constraint):
                    continue
                if param not in self.__dict__ and isinstance(
                    getattr(type(self), param, None), lazy_property
                ):
                    continue  # computed later from the parameter that was given
                value = getattr(self, param)
                if not constraint.check(value).all():
                    raise ValueError(
                        errors.PARAM_CONSTRAINT.format(
                            param=param,
                            kind=type(value).__name__,
                            shape=tuple(value.shape),
                            dist=repr(self),
                            constraint=repr(constraint),
                            value=value,
                        )
                    )

    @property
    def batch_shape(self) -> Size:
        """The shape of the batch of independent distributions."""
        return self._batch_shape

    @property
    def event_shape(self) -> Size:
        """The shape of one sample of one distribution of the batch."""
        return self._event_shape

    def _extended_shape(self, sample_shape=()) -> Size:
        return Size(sample_shape) + self._batch_shape + self._event_shape

    def _get_checked_instance(self, cls, _instance=None):
        if _instance is None and type(self).__init__ != cls.__init__:
            raise NotImplementedError(
                errors.CUSTOM_EXPAND.format(sub=type(self).__name__, cls=cls.__name__)
            )
        return type(self).__new__(type(self)) if _instance is None else _instance

    def expand(self, batch_shape, _instance=None):
        """The same distribution broadcast to a larger ``batch_shape`` (no data copied)."""
        raise NotImplementedError(errors.NO_EXPAND.format(cls=type(self).__name__))

    # -- sampling -------------------------------------------------------------------------

    def sample(self, sample_shape=()) -> Tensor:
        """A sample (or ``sample_shape`` of them), drawn without recording gradients."""
        with no_grad():
            return self.rsample(sample_shape)

    def rsample(self, sample_shape=()) -> Tensor:
        """A reparameterised sample: a recorded function of the parameters."""
        raise NotImplementedError(errors.NO_RSAMPLE.format(cls=type(self).__name__))

    def sample_n(self, n: int) -> Tensor:
        """``sample((n,))`` (deprecated in PyTorch, as here)."""
        warnings.warn(
            "sample_n will be deprecated. Use .sample((n,)) instead", UserWarning, stacklevel=2
        )
        return self.sample(Size((n,)))

    # -- what subclasses define -------------------------------------------------------------

    def log_prob(self, value: Tensor) -> Tensor:
        """The log of the density (or mass) at ``value``, one number per event."""
        raise NotImplementedError

    def cdf(self, value: Tensor) -> Tensor:
        raise NotImplementedError

    def icdf(self, value: Tensor) -> Tensor:
        raise NotImplementedError

    def entropy(self) -> Tensor:
        raise NotImplementedError

    def enumerate_support(self, expand: bool = True) -> Tensor:
        raise NotImplementedError

    def perplexity(self) -> Tensor:
        """``exp(entropy())``."""
        return self.entropy().exp()

    @property
    def mean(self) -> Tensor:
        raise NotImplementedError(
            errors.NOT_IMPLEMENTED.format(cls=type(self).__name__, what="mean")
        )

    @property
    def mode(self) -> Tensor:
        raise NotImplementedError(
            errors.NOT_IMPLEMENTED.format(cls=type(self).__name__, what="mode")
        )

    @property
    def variance(self) -> Tensor:
        raise NotImplementedError(
            errors.NOT_IMPLEMENTED.format(cls=type(self).__name__, what="variance")
        )

    @property
    def stddev(self) -> Tensor:
        return self.variance.sqrt()

    # -- checking a value -----------------------------------------------------------------

    def _validate_sample(self, value) -> None:
        if not isinstance(value, Tensor):
            raise ValueError(errors.VALUE_TYPE)
        event_start = value.dim() - len(self._event_shape)
        if tuple(value.shape[event_start:]) != self._event_shape:
            raise ValueError(
                errors.VALUE_EVENT_SHAPE.format(got=value.shape, want=self._event_shape)
            )
        expected = self._batch_shape + self._event_shape
        for i, j in zip(reversed(value.shape), reversed(expected)):
            if i != 1 and j != 1 and i != j:
                raise ValueError(errors.VALUE_BROADCAST.format(got=value.shape, want=expected))
        support = self.support
        if support is not None and not support.check(value).all():
            raise ValueError(
                errors.VALUE_SUPPORT.format(
                    kind=type(value).__name__,
                    shape=tuple(value.shape),
                    support=repr(support),
                    dist=repr(self),
                    value=value,
                )
            )

    def __repr__(self) -> str:
        names = [k for k in self.arg_constraints if k in self.__dict__]
        args = ", ".join(
            f"{p}: {self.__dict__[p] if self.__dict__[p].numel() == 1 else self.__dict__[p].size()}"
            for p in names
        )
        return f"{type(self).__name__}({args})"
