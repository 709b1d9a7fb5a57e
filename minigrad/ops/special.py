"""Special functions: erf erfc erfinv and logit (``torch.special``'s, also ``torch.erf`` ...), and
nan_to_num, which replaces NaN and the infinities. Each is elementwise, with one ``derivative``
for backward and jvp (:class:`~minigrad.ops._util.Elementwise`).
"""

from __future__ import annotations

import math

import numpy as np

from .. import errors
from ._util import Elementwise, check_tensor
from .select import where
from .unary import as_float


def _special():
    """scipy.special, imported on first use (it takes ~240 ms: only these ops need it)."""
    import scipy.special  # heavy (~240 ms, -X importtime): loaded by the first erf call

    return scipy.special


_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


class Erf(Elementwise):
    """Error function: f(a) = 2/sqrt(pi) * integral of e**(-s**2) from 0 to a;
    grad = g * 2/sqrt(pi) * e**(-a**2)."""

    save_inputs = True
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        return _special().erf(as_float(a))

    @staticmethod
    def derivative(v, a):
        """v * 2/sqrt(pi) * exp(-a**2): v is the gradient (backward) or the tangent (jvp)."""
        return v * (-(a * a)).exp() * _TWO_OVER_SQRT_PI


class Erfc(Elementwise):
    """Complementary error function 1 - erf(a), accurate where erf(a) is close to 1;
    grad = -g * 2/sqrt(pi) * e**(-a**2)."""

    save_inputs = True
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        return _special().erfc(as_float(a))

    @staticmethod
    def derivative(v, a):
        """-v * 2/sqrt(pi) * exp(-a**2): v is the gradient (backward) or the tangent (jvp)."""
        return v * (-(a * a)).exp() * -_TWO_OVER_SQRT_PI


class Erfinv(Elementwise):
    """Inverse error function on (-1, 1) (+-inf at +-1, nan outside);
    grad = g * sqrt(pi)/2 * e**(erfinv(a)**2), from erf's derivative at erfinv(a)."""

    save_inputs = True  # PyTorch's ErfinvBackward0 keeps self and recomputes erfinv
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        return _special().erfinv(as_float(a))

    @staticmethod
    def derivative(v, a):
        """v * sqrt(pi)/2 * exp(erfinv(a)**2): v is the gradient (backward) or the tangent (jvp)."""
        y = Erfinv.apply(a)
        return v * (y * y).exp() / _TWO_OVER_SQRT_PI


class Logit(Elementwise):
    """Log-odds: f(a) = log(a / (1 - a)), a first clamped into [eps, 1 - eps] when eps is
    given; grad = g / (a (1 - a)), and 0 where the clamp cut a off (PyTorch's rule)."""

    save_inputs = True
    saved_names = ("self",)
    saved_values = {"eps": lambda ctx: ctx.eps}
    number_param = "eps"  # derivative takes eps (None: no clamp)

    @staticmethod
    def forward(ctx, a, eps=None):
        ctx.eps = eps
        z = as_float(a)
        if eps is not None:
            z = np.clip(z, eps, 1.0 - eps)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.log(z / (1.0 - z))

    @staticmethod
    def derivative(v, a, eps):
        """v / (a (1 - a)), v the gradient or the tangent; outside the domain PyTorch's
        values: nan outside [0, 1] without eps, 0 outside [eps, 1 - eps] with it."""
        d = v / (a * (1.0 - a))
        if eps is None:
            return where((a < 0.0) | (a > 1.0), math.nan, d)
        return where((a < eps) | (a > 1.0 - eps), 0.0, d)


def logit(input, eps=None):  # noqa: A002  (PyTorch names)
    """log(input / (1 - input)) (``torch.logit``); with ``eps`` the input is first clamped
    into [eps, 1 - eps], so 0 and 1 give finite log-odds.

    Example:
        >>> import minigrad as mg
        >>> mg.logit(mg.tensor([0.5, 0.0, 1.0]), eps=1e-6)
        tensor([  0.0000, -13.8155,  13.8023])
    """
    check_tensor(input, "logit")
    if not (eps is None or isinstance(eps, (int, float))) or isinstance(eps, bool):
        raise TypeError(errors.LOGIT_EPS.format(got=type(eps).__name__))
    return Logit.apply(input, eps=None if eps is None else float(eps))


class NanToNum(Elementwise):
    """NaN, +inf and -inf replaced by numbers (by default 0, and the dtype's largest and
    smallest finite values); grad = g where a is finite, 0 where it was replaced."""

    node_name = "NanToNumBackward0"
    save_inputs = True
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a, nan=0.0, posinf=None, neginf=None):
        if a.dtype.kind != "f":
            return a.copy()  # integers and bools have nothing to replace, as in PyTorch
        return np.nan_to_num(a, nan=nan, posinf=posinf, neginf=neginf)

    @staticmethod
    def derivative(v, a):
        """v where a is finite, else 0: v is the gradient (backward) or the tangent (jvp)."""
        return v * a.isfinite()


def nan_to_num(input, nan=0.0, posinf=None, neginf=None):  # noqa: A002
    """``input`` with NaN -> ``nan``, +inf -> ``posinf`` and -inf -> ``neginf`` (None: the
    dtype's largest / smallest finite value), as ``torch.nan_to_num``.

    Example:
        >>> import minigrad as mg
        >>> mg.nan_to_num(mg.tensor([float("nan"), 1.0, float("-inf")]), neginf=-9.0)
        tensor([ 0.,  1., -9.])
    """
    check_tensor(input, "nan_to_num")
    for name, value in (("nan", nan), ("posinf", posinf), ("neginf", neginf)):
        if not (value is None or isinstance(value, (int, float))) or isinstance(value, bool):
            raise TypeError(errors.NAN_TO_NUM_TYPE.format(name=name, got=type(value).__name__))
    return NanToNum.apply(input, nan=0.0 if nan is None else nan, posinf=posinf, neginf=neginf)
