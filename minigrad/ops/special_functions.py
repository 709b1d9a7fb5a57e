"""The functions of ``torch.special`` that no other op gives: ``entr i0 i1 i0e i1e erfcx
log_ndtr ndtri`` (one elementwise op each, PyTorch's node names), ``ndtr`` (composed from
``erf``, as PyTorch composes it) and ``multigammaln`` (a sum of ``lgamma``). ``minigrad.special`` gathers them with the existing ops under PyTorch's names.
"""

from __future__ import annotations

import math

import numpy as np

from ._util import Elementwise, check_tensor, make, named
from .special import Erf, _special
from .unary import as_float


class Entr(Elementwise):
    """Entropy term: f(a) = -a log a (0 at a = 0, -inf for a < 0);
    grad = -g (1 + log a) (PyTorch's formula: inf at 0, NaN below)."""

    node_name = "SpecialEntrBackward0"
    save_inputs = True
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        a = as_float(a)
        with np.errstate(divide="ignore", invalid="ignore"):
            out = np.where(
                a > 0, -a * np.log(np.where(a > 0, a, 1)), np.where(a == 0, 0.0, -np.inf)
            )
        return np.where(np.isnan(a), a, out).astype(a.dtype)

    @staticmethod
    def derivative(v, a):
        """-v (1 + log a): v is the gradient (backward) or the tangent (jvp)."""
        return -v * (a.log() + 1)


class I1(Elementwise):
    """Modified Bessel function of the first kind, order 1: f(a) = I1(a);
    grad = g (I0(a) - I1(a) / a), g / 2 at a = 0."""

    node_name = "SpecialI1Backward0"
    save_inputs = True
    save_output = True
    saved_names = ("self", "result")

    @staticmethod
    def forward(ctx, a):
        return _special().i1(as_float(a))

    @staticmethod
    def derivative(v, a, out):
        """v (I0(a) - I1(a) / a), v / 2 where a = 0."""
        zero = a == 0
        safe = a.masked_fill(zero, 1.0)
        return v * (I0.apply(a) - out / safe).masked_fill(zero, 0.5)


class I0(Elementwise):
    """Modified Bessel function of the first kind, order 0: f(a) = I0(a); grad = g I1(a)."""

    node_name = "I0Backward0"
    save_inputs = True
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        return _special().i0(as_float(a))

    @staticmethod
    def derivative(v, a):
        """v I1(a): v is the gradient (backward) or the tangent (jvp)."""
        return v * I1.apply(a)


_SQRT_2PI = math.sqrt(2 * math.pi)


class Ndtri(Elementwise):
    """The standard normal's quantile function, the inverse of ndtr;
    grad = g sqrt(2 pi) exp(ndtri(a)**2 / 2)."""

    node_name = "SpecialNdtriBackward0"
    save_output = True
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, a):
        return _special().ndtri(as_float(a))

    @staticmethod
    def derivative(v, out):
        """v sqrt(2 pi) exp(out**2 / 2), from ndtr's derivative at out."""
        return v * (out * out * 0.5).exp() * _SQRT_2PI


class I0e(Elementwise):
    """Exponentially scaled I0: f(a) = exp(-|a|) I0(a); grad = g (I1e(a) - sgn(a) f(a))."""

    node_name = "SpecialI0EBackward0"
    save_inputs = True
    save_output = True
    saved_names = ("self", "result")

    @staticmethod
    def forward(ctx, a):
        return _special().i0e(as_float(a))

    @staticmethod
    def derivative(v, a, out):
        """v (I1e(a) - sgn(a) I0e(a))."""
        return v * (I1e.apply(a) - a.sign() * out)


class I1e(Elementwise):
    """Exponentially scaled I1: f(a) = exp(-|a|) I1(a); grad = g (I0e(a) - f(a) (sgn(a) +
    1/a)), g / 2 at a = 0."""

    node_name = "SpecialI1EBackward0"
    save_inputs = True
    save_output = True
    saved_names = ("self", "result")

    @staticmethod
    def forward(ctx, a):
        return _special().i1e(as_float(a))

    @staticmethod
    def derivative(v, a, out):
        """v (I0e(a) - I1e(a) (sgn(a) + 1/a)), v / 2 where a = 0."""
        zero = a == 0
        safe = a.masked_fill(zero, 1.0)
        return v * (I0e.apply(a) - out * (a.sign() + 1 / safe)).masked_fill(zero, 0.5)


class Erfcx(Elementwise):
    """Scaled complementary error function: f(a) = exp(a**2) erfc(a), finite where erfc
    underflows; grad = g (2 a f(a) - 2 / sqrt(pi))."""

    node_name = "SpecialErfcxBackward0"
    save_inputs = True
    save_output = True
    saved_names = ("self", "result")

    @staticmethod
    def forward(ctx, a):
        return _special().erfcx(as_float(a))

    @staticmethod
    def derivative(v, a, out):
        """v (2 a erfcx(a) - 2 / sqrt(pi))."""
        return v * (a * out * 2 - 2 / math.sqrt(math.pi))


class LogNdtr(Elementwise):
    """log of the standard normal CDF, accurate far in the left tail;
    grad = g exp(-a**2 / 2 - f(a)) / sqrt(2 pi)."""

    node_name = "SpecialLogNdtrBackward0"
    save_inputs = True
    save_output = True
    saved_names = ("self", "result")

    @staticmethod
    def forward(ctx, a):
        return _special().log_ndtr(as_float(a))

    @staticmethod
    def derivative(v, a, out):
        """v exp(-(out + a**2 / 2)) / sqrt(2 pi)."""
        return v * (-(out + a * a * 0.5)).exp() / _SQRT_2PI


def entr(input):  # noqa: A002
    """``-x log x`` elementwise (``torch.special.entr``)."""
    check_tensor(input, "entr")
    return Entr.apply(input)


def i0(input):  # noqa: A002
    """The modified Bessel function I0 (``torch.i0``, ``torch.special.i0``)."""
    check_tensor(input, "i0")
    return I0.apply(input)


def i1(input):  # noqa: A002
    """The modified Bessel function I1 (``torch.special.i1``)."""
    check_tensor(input, "i1")
    return I1.apply(input)


def ndtri(input):  # noqa: A002
    """The standard normal quantile (``torch.special.ndtri``): ndtr(ndtri(p)) = p."""
    check_tensor(input, "ndtri")
    return Ndtri.apply(input)


def ndtr(input):  # noqa: A002
    """The standard normal CDF, ``(1 + erf(x / sqrt 2)) / 2`` (``torch.special.ndtr``; the
    same three nodes as PyTorch's)."""
    check_tensor(input, "ndtr")
    inner = named(input * math.sqrt(0.5), "MulBackward1")  # PyTorch's C++ mul by a Scalar
    shifted = named(Erf.apply(inner) + 1, "AddBackward1")
    return named(shifted * 0.5, "MulBackward1")


def i0e(input):  # noqa: A002
    """``exp(-|x|) I0(x)`` (``torch.special.i0e``)."""
    check_tensor(input, "i0e")
    return I0e.apply(input)


def i1e(input):  # noqa: A002
    """``exp(-|x|) I1(x)`` (``torch.special.i1e``)."""
    check_tensor(input, "i1e")
    return I1e.apply(input)


def erfcx(input):  # noqa: A002
    """``exp(x**2) erfc(x)`` (``torch.special.erfcx``)."""
    check_tensor(input, "erfcx")
    return Erfcx.apply(input)


def log_ndtr(input):  # noqa: A002
    """log of the standard normal CDF (``torch.special.log_ndtr``)."""
    check_tensor(input, "log_ndtr")
    return LogNdtr.apply(input)


def multigammaln(input, p: int):  # noqa: A002
    """The log of the multivariate gamma function of dimension ``p``: the sum of
    lgamma(x - j / 2) for j < p, plus p (p - 1) / 4 log(pi) (``torch.special.multigammaln``,
    ``torch.mvlgamma``; the last node named PyTorch's ``MvlgammaBackward0``)."""
    check_tensor(input, "multigammaln")
    shifts = make(np.arange(p, dtype=input._data.dtype) / 2, False, None)
    terms = (input.unsqueeze(-1) - shifts).lgamma().sum(-1)
    return named(terms + p * (p - 1) / 4 * math.log(math.pi), "MvlgammaBackward0")
