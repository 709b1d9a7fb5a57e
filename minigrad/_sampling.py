"""Samplers beyond the factories: ``multinomial``, ``normal``, ``bernoulli`` and the in-place
fills ``uniform_``, ``normal_``, ``bernoulli_``, ``random_``, ``exponential_`` (PyTorch names).

Each draws from ``generator=`` or the global generator exactly as PyTorch's CPU kernels do
(:mod:`minigrad.random` explains the transforms). The in-place fills write through
``copy_``, so they bump the version counter, and a leaf that requires grad refuses them
outside ``no_grad`` as in PyTorch.
"""

from __future__ import annotations

import numbers

import numpy as np

from . import random
from .errors import random as errors
from .factory import empty
from .tensor import Tensor

_make = Tensor._make


def _floating(t: Tensor, fn: str) -> np.dtype:
    if not t.is_floating_point():
        raise TypeError(errors.FLOAT_ONLY.format(fn=fn, got=t.dtype))
    return t._data.dtype


def _contiguous(t: Tensor) -> bool:
    return bool(t._data.flags["C_CONTIGUOUS"])


# -- in-place fills (Tensor methods) ---------------------------------------------------------


def uniform_(self: Tensor, from_: float = 0.0, to: float = 1.0, *, generator=None) -> Tensor:
    """Fill with samples of U(from, to) (``Tensor.uniform_``)."""
    dtype = _floating(self, "uniform_")
    if from_ > to:
        raise RuntimeError(errors.UNIFORM_RANGE.format(low=from_, high=to))
    gen = random.resolve(generator)
    return _write(self, gen._uniform_between(self.numel(), float(from_), float(to), dtype))


def normal_(self: Tensor, mean: float = 0.0, std: float = 1.0, *, generator=None) -> Tensor:
    """Fill with samples of N(mean, std**2) (``Tensor.normal_``)."""
    dtype = _floating(self, "normal_")
    if std < 0:
        raise RuntimeError(errors.NORMAL_STD.format(got=std))
    gen = random.resolve(generator)
    return _write(
        self, gen._normal(self.numel(), dtype, _contiguous(self), float(mean), float(std))
    )


def bernoulli_(self: Tensor, p=0.5, *, generator=None) -> Tensor:
    """Fill with 1 with probability ``p`` (a number or a tensor of probabilities), else 0."""
    gen = random.resolve(generator)
    if isinstance(p, Tensor):
        probs = np.broadcast_to(p._data, self.shape).ravel()
        precision = np.float64 if probs.dtype == np.float64 else np.float32
        hits = gen._uniform(self.numel(), precision) < probs.astype(precision)
    else:
        if not 0 <= p <= 1:
            raise RuntimeError(errors.BERNOULLI_P.format(got=p))
        hits = gen._uniform(self.numel(), np.float64) < p
    return _write(self, hits)


def random_(self: Tensor, from_: int = 0, to: int | None = None, *, generator=None) -> Tensor:
    """Fill with integers in [from, to) (``Tensor.random_``); ``random_(to)`` means [0, to)."""
    if to is None:
        from_, to = 0, from_
    if from_ >= to:
        raise RuntimeError(
            f"random_ expects 'from' to be less than 'to', but got from={from_} >= to={to}"
        )
    return _write(self, random.resolve(generator)._integers(self.numel(), int(from_), int(to)))


def exponential_(self: Tensor, lambd: float = 1.0, *, generator=None) -> Tensor:
    """Fill with samples of Exp(lambd), density ``lambd * exp(-lambd x)``."""
    dtype = _floating(self, "exponential_")
    if not lambd > 0:
        raise RuntimeError(errors.EXPONENTIAL_RATE.format(got=lambd))
    return _write(self, random.resolve(generator)._exponential(self.numel(), float(lambd), dtype))


def _write(self: Tensor, samples: np.ndarray) -> Tensor:
    values = _make(np.asarray(samples).reshape(self.shape).astype(self._data.dtype), False, None)
    return self.copy_(values)


# -- functions (torch.normal, torch.bernoulli, torch.multinomial) --------------------------------


def bernoulli(input: Tensor, p=None, *, generator=None) -> Tensor:  # noqa: A002
    """Samples 0 or 1 with the probabilities in ``input`` (``torch.bernoulli``)."""
    _floating(input, "bernoulli")
    probs = input._data
    if np.any((probs < 0) | (probs > 1)) or np.any(np.isnan(probs)):
        raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.")
    out = _make(np.empty_like(probs), False, None)
    return bernoulli_(out, input if p is None else p, generator=generator)


def normal(
    mean, std=1.0, size=None, *, generator=None, dtype=None, device=None, requires_grad=False
) -> Tensor:
    """Samples of N(mean, std**2) (``torch.normal``): tensor means and/or stds, or ``size=``.

    With number arguments and ``size=`` it is a factory like ``randn``: ``dtype=``,
    ``device=`` and ``requires_grad=`` (``torch.normal(0, 0.01, size=(2, 1),
    requires_grad=True)`` is a leaf, as a textbook's linear regression makes its weights).
    """
    if isinstance(mean, Tensor) or isinstance(std, Tensor):
        if requires_grad or device is not None:
            raise TypeError(errors.NORMAL_TENSOR_KWARGS)
        m = mean._data if isinstance(mean, Tensor) else np.asarray(mean)
        s = std._data if isinstance(std, Tensor) else np.asarray(std)
        if np.any(s < 0):
            raise RuntimeError(errors.NORMAL_STD.format(got=s.min()))
        ref = mean if isinstance(mean, Tensor) else std
        shape = np.broadcast_shapes(m.shape, s.shape)
        out = empty(*shape, dtype=ref.dtype)
        normal_(out, 0.0, 1.0, generator=generator)
        return _make((out._data * s + m).astype(ref._data.dtype), False, None)
    if size is None:
        raise TypeError(
            "normal() with a number mean and std needs size=, e.g. normal(0.0, 1.0, size=(3,))"
        )
    out = empty(*tuple(size), dtype=dtype, device=device)
    normal_(out, float(mean), float(std), generator=generator)
    return out.requires_grad_(requires_grad)


def multinomial(
    input: Tensor, num_samples: int, replacement: bool = False, *, generator=None
) -> Tensor:  # noqa: A002
    """Indices drawn with the probabilities (weights) in each row of ``input`` (``torch.multinomial``).

    Without replacement, or for one sample: the *exponential race*. Each weight w is divided
    by its own Exp(1) sample q, and the largest w / q wins (the top ``num_samples`` for
    several); category i wins with probability w_i / sum(w). With replacement and several
    samples: a float64 uniform per sample, searched in the cumulative, normalised weights.

    Example:
        >>> import minigrad as mg
        >>> p = mg.tensor([0.1, 0.6, 0.3])
        >>> mg.multinomial(p, 5, replacement=True, generator=mg.Generator().manual_seed(0))
        tensor([2, 2, 1, 2, 1])
    """
    probs = _check_multinomial(input, num_samples, replacement)
    gen = random.resolve(generator)
    rows = probs.reshape(-1, probs.shape[-1])
    if not replacement or num_samples == 1:
        race = rows / gen._exponential(rows.size, 1.0, rows.dtype).reshape(rows.shape)
        if num_samples == 1:
            picks = np.argmax(race, axis=-1)[:, None]
        else:  # the largest first, as topk returns them
            picks = np.argsort(-race, axis=-1, kind="stable")[:, :num_samples]
    else:
        picks = np.stack([_search_cumulative(row, gen, num_samples) for row in rows])
    return _make(picks.reshape(probs.shape[:-1] + (num_samples,)).astype(np.int64), False, None)


def _search_cumulative(row: np.ndarray, gen: random.Generator, n: int) -> np.ndarray:
    """``n`` samples by inverse transform: the first category whose cumulative weight >= u."""
    cumulative = np.cumsum(row)  # in the weights' dtype, summed left to right as PyTorch does
    cumulative = (cumulative / cumulative[-1]).astype(np.float64)
    return np.searchsorted(cumulative, gen._uniform(n, np.float64), side="left")


def _check_multinomial(input, num_samples, replacement) -> np.ndarray:  # noqa: A002
    if not isinstance(input, Tensor):
        raise TypeError(
            f"multinomial(): argument 'input' must be Tensor, not {type(input).__name__}"
        )
    if input.dim() not in (1, 2):
        raise RuntimeError(errors.MULTINOMIAL_DIM.format(shape=tuple(input.shape)))
    if not input.is_floating_point():
        raise RuntimeError(errors.MULTINOMIAL_DTYPE.format(got=input.dtype))
    if isinstance(num_samples, bool) or not isinstance(num_samples, numbers.Integral):
        raise TypeError(
            f"multinomial(): argument 'num_samples' must be int, not {type(num_samples).__name__}"
        )
    if num_samples <= 0:
        raise RuntimeError(errors.MULTINOMIAL_SAMPLES.format(got=num_samples))
    probs = input.detach()._data
    n = probs.shape[-1]
    if not replacement and num_samples > n:
        raise RuntimeError(errors.MULTINOMIAL_TOO_MANY.format(got=num_samples, n=n))
    if not np.all(np.isfinite(probs)) or np.any(probs < 0):
        raise RuntimeError(errors.MULTINOMIAL_BAD)
    rows = probs.reshape(-1, n)
    if np.any(rows.sum(axis=-1) <= 0):
        raise RuntimeError(errors.MULTINOMIAL_SUM)
    nonzero = (rows > 0).sum(axis=-1).min()
    if not replacement and nonzero < num_samples:
        raise RuntimeError(errors.MULTINOMIAL_NONZERO.format(nonzero=nonzero, got=num_samples))
    return probs


class RandomTensorOps:
    """The sampling methods of Tensor (installed by ``minigrad._tensor_methods.install``)."""

    uniform_ = uniform_
    normal_ = normal_
    bernoulli_ = bernoulli_
    random_ = random_
    exponential_ = exponential_

    def bernoulli(self, p=None, *, generator=None):
        """``torch.bernoulli(self)``: 0 or 1 with the probabilities in self."""
        return bernoulli(self, p, generator=generator)

    def multinomial(self, num_samples: int, replacement: bool = False, *, generator=None):
        """``torch.multinomial(self, ...)``: indices drawn with the weights in each row."""
        return multinomial(self, num_samples, replacement, generator=generator)
