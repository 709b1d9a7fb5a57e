"""``kl_divergence(p, q)`` and ``register_kl`` (``torch.distributions.kl``).

KL(p || q) = E_p[log p(x) - log q(x)], in closed form for pairs of the same family, as
recorded ops (differentiable w.r.t. both distributions' parameters; a VAE's KL term).
``register_kl(P, Q)`` adds a formula for a pair of classes; the most specific registered
pair (by the classes' method resolution order) is used, as in PyTorch.
"""

from __future__ import annotations

import math
import warnings

from ..errors import distributions as errors
from ..nn.functional import softplus
from ..ops.select import where
from .bernoulli import Bernoulli
from .categorical import Categorical
from .distribution import Distribution, sum_rightmost
from .exponential import Exponential
from .independent import Independent
from .laplace import Laplace
from .normal import Normal
from .one_hot_categorical import OneHotCategorical
from .uniform import Uniform

_KL_REGISTRY: dict = {}  # (type_p, type_q) -> fn(p, q)
_KL_MEMOIZE: dict = {}  # the most specific match of a pair of classes


def register_kl(type_p, type_q):
    """A decorator registering ``fn(p, q)`` as KL(p || q) for ``type_p`` and ``type_q``.

    Example:
        >>> from minigrad.distributions import Normal, register_kl
        >>> @register_kl(Normal, Normal)
        ... def kl_normal_normal(p, q):
        ...     ...
    """
    for name, cls in (("type_p", type_p), ("type_q", type_q)):
        if not (isinstance(cls, type) and issubclass(cls, Distribution)):
            raise TypeError(errors.KL_TYPE.format(name=name, got=cls))

    def decorator(fn):
        _KL_REGISTRY[type_p, type_q] = fn
        _KL_MEMOIZE.clear()
        return fn

    return decorator


def _dispatch(type_p, type_q):
    matches = [
        (super_p, super_q)
        for super_p, super_q in _KL_REGISTRY
        if issubclass(type_p, super_p) and issubclass(type_q, super_q)
    ]
    if not matches:
        return None

    def distance(pair):  # how far up each class's MRO the registered classes are
        return (type_p.__mro__.index(pair[0]), type_q.__mro__.index(pair[1]))

    left = min(matches, key=distance)
    right = min(matches, key=lambda pair: distance(pair)[::-1])
    if left != right:
        warnings.warn(
            f"Ambiguous kl_divergence({type_p.__name__}, {type_q.__name__}). Please register_kl"
            f"({left[0].__name__}, {right[1].__name__})",
            RuntimeWarning,
            stacklevel=3,
        )
    return _KL_REGISTRY[left]


def kl_divergence(p: Distribution, q: Distribution):
    """KL(p || q), one number per batch element (``torch.distributions.kl_divergence``).

    Example:
        >>> import minigrad as mg
        >>> from minigrad.distributions import Normal
        >>> kl_divergence(Normal(mg.tensor([0.0, 1.0]), 1.0), Normal(0.0, 2.0))
        tensor([0.3181, 0.4431])
    """
    key = (type(p), type(q))
    if key not in _KL_MEMOIZE:
        _KL_MEMOIZE[key] = _dispatch(*key)
    fn = _KL_MEMOIZE[key]
    if fn is None:
        raise NotImplementedError(errors.KL_MISSING.format(p=type(p).__name__, q=type(q).__name__))
    return fn(p, q)


# PyTorch writes the infinities and zeros below with masked assignment (t[mask] = inf);
# ``where`` gives the same values and sends no gradient through the replaced entries.


@register_kl(Normal, Normal)
def _kl_normal_normal(p, q):
    var_ratio = (p.scale / q.scale).pow(2)
    t1 = ((p.loc - q.loc) / q.scale).pow(2)
    return 0.5 * (var_ratio + t1 - 1 - var_ratio.log())


@register_kl(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(p, q):
    t1 = p.probs * (softplus(-q.logits) - softplus(-p.logits))
    t1 = where(p.probs == 0, 0.0, where(q.probs == 0, math.inf, t1))
    t2 = (1 - p.probs) * (softplus(q.logits) - softplus(p.logits))
    t2 = where(p.probs == 1, 0.0, where(q.probs == 1, math.inf, t2))
    return t1 + t2


@register_kl(Categorical, Categorical)
def _kl_categorical_categorical(p, q):
    t = p.probs * (p.logits - q.logits)
    t = where((p.probs == 0).expand_as(t), 0.0, where((q.probs == 0).expand_as(t), math.inf, t))
    return t.sum(-1)


@register_kl(OneHotCategorical, OneHotCategorical)
def _kl_onehot_onehot(p, q):
    return _kl_categorical_categorical(p._categorical, q._categorical)


@register_kl(Independent, Independent)
def _kl_independent_independent(p, q):
    if p.reinterpreted_batch_ndims != q.reinterpreted_batch_ndims:
        raise NotImplementedError(
            errors.KL_INDEPENDENT_NDIMS.format(
                p=p.reinterpreted_batch_ndims, q=q.reinterpreted_batch_ndims
            )
        )
    return sum_rightmost(kl_divergence(p.base_dist, q.base_dist), p.reinterpreted_batch_ndims)


@register_kl(Exponential, Exponential)
def _kl_exponential_exponential(p, q):
    rate_ratio = q.rate / p.rate
    return -rate_ratio.log() + rate_ratio - 1


@register_kl(Laplace, Laplace)
def _kl_laplace_laplace(p, q):
    scale_ratio = p.scale / q.scale
    loc_abs_diff = (p.loc - q.loc).abs()
    t1 = -scale_ratio.log()
    t2 = loc_abs_diff / q.scale
    t3 = scale_ratio * (-loc_abs_diff / p.scale).exp()
    return t1 + t2 + t3 - 1


@register_kl(Uniform, Uniform)
def _kl_uniform_uniform(p, q):
    result = ((q.high - q.low) / (p.high - p.low)).log()
    return where((q.low > p.low) | (q.high < p.high), math.inf, result)
