"""Special functions: erf erfc erfinv logit and xlogy (``torch.special``'s, also ``torch.erf``
...), and nan_to_num, which replaces NaN and the infinities. Each is elementwise, with one ``derivative``
for backward and jvp (:class:`~minigrad.ops._util.Elementwise`).
"""

from __future__ import annotations

import math

import numpy as np

from .. import _dtype, errors
from ..tensor import Tensor
from ._util import Elementwise, broadcast_shapes, check_tensor, is_scalar, result_dtype
from .arith import _Binary
from .select import where
from .shape import sum_to
from .unary import as_float


def _special():
    """scipy.special, imported on first use (it takes ~240 ms: only these ops need it)."""
    import scipy.special  # heavy (~240 ms, -X importtime): loaded by the first erf call

    return scipy.special


_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


def _in_dtype_of(fn, x: np.ndarray) -> np.ndarray:
    """``fn(x)`` in x's dtype: scipy computes float16 in float64 (erfinv: float32)."""
    return np.asarray(fn(x)).astype(x.dtype, copy=False)


class Erf(Elementwise):
    """Error function: f(a) = 2/sqrt(pi) * integral of e**(-s**2) from 0 to a;
    grad = g * 2/sqrt(pi) * e**(-a**2)."""

    save_inputs = True
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        return _in_dtype_of(_special().erf, as_float(a))

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
        return _in_dtype_of(_special().erfc, as_float(a))

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
        return _in_dtype_of(_special().erfinv, as_float(a))

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


# --- xlogy: x log y, 0 where x is 0 (the entropy term t log t, KL divergence) --------------------
def _xlogy(x, y) -> np.ndarray:
    """PyTorch's kernel: NaN where y is NaN, else 0 where x is 0, else x log y."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(x == 0, 0, x * np.log(y))
        return np.asarray(np.where(np.isnan(y), np.nan, out), dtype=np.result_type(x, y))


def _grad_x(v, x, y):
    """``v`` times d (x log y) / d x, PyTorch's way: ``xlogy(v, y)`` (v log y, 0 where v is 0),
    set to 0 where x is 0 and y <= 0 (where x log y is 0 whatever y: log 0 would be -inf).
    ``v`` is the gradient (backward) or x's tangent (jvp); y a tensor or a number."""
    if isinstance(y, Tensor):
        out, kill = Xlogy.apply(*_same_dtype(v, y)), (x == 0) & (y <= 0)
    else:
        out, kill = XlogyScalarOther.apply(v, value=y), (x == 0) if y <= 0 else None
    return out if kill is None else where(kill, 0.0, out)


class Xlogy(_Binary):
    """f(x, y) = x log y (0 where x is 0); grad_x = g log y (0 where x is 0 and y <= 0, see
    :func:`_grad_x`), grad_y = g x / y.
    One ``derivative`` serves backward and jvp (the Jacobian is diagonal)."""

    elementwise = True
    save_inputs = True
    saved_names = ("self", "other")

    @staticmethod
    def forward(ctx, x, y):
        _Binary.prepare(ctx, x, y)
        return _xlogy(x, y)

    @staticmethod
    def derivative(vx, vy, x, y):
        return (None if vx is None else _grad_x(vx, x, y)), (None if vy is None else vy * x / y)

    @staticmethod
    def backward(ctx, g):
        gx, gy = Xlogy.derivative(g, g, *ctx.saved_tensors)
        return sum_to(gx, ctx.sa, ctx.da), sum_to(gy, ctx.sb, ctx.db)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_x log y + t_y x / y."""
        dx, dy = Xlogy.derivative(*tangents, *inputs)
        return dy if dx is None else dx if dy is None else dx + dy


class XlogyScalarOther(Elementwise):
    """xlogy(x, c) for a number c (PyTorch's ``XlogyBackward2``); grad = g log c (0 where x is
    0 and c <= 0)."""

    node_name = "XlogyBackward2"
    save_inputs = True
    saved_names = ("self",)
    saved_values = {"other": lambda ctx: ctx.value}
    number_param = "value"

    @staticmethod
    def forward(ctx, x, value):
        ctx.value = value
        x = as_float(x)
        return _xlogy(x, np.asarray(value, dtype=x.dtype))

    @staticmethod
    def derivative(v, x, c):
        return _grad_x(v, x, c)


class XlogyScalarSelf(Elementwise):
    """xlogy(c, y) for a number c (PyTorch's ``XlogyBackward1``); grad = g c / y."""

    node_name = "XlogyBackward1"
    save_inputs = True
    saved_names = ("other",)
    saved_values = {"self": lambda ctx: ctx.value}
    number_param = "value"

    @staticmethod
    def forward(ctx, y, value):
        ctx.value = value
        y = as_float(y)
        return _xlogy(np.asarray(value, dtype=y.dtype), y)

    @staticmethod
    def derivative(v, y, c):
        return v * c / y


def _same_dtype(x: Tensor, y: Tensor) -> tuple:
    """Both in their promoted dtype, integers and bools in the default float dtype."""
    d = result_dtype(x, y)
    if not d.is_floating_point:
        d = _dtype.defaults.float_dtype
    return tuple(t if t.dtype is d else t.to(d) for t in (x, y))


def xlogy(input, other):  # noqa: A002  (PyTorch's names)
    """Elementwise ``input * log(other)``, 0 where ``input`` is 0 (NaN where ``other`` is NaN),
    broadcasting (``torch.xlogy``, ``torch.special.xlogy``): the ``t log t`` of an entropy
    is 0 at t = 0. Either operand may be a Python number, not both.

    Example:
        >>> import minigrad as mg
        >>> mg.xlogy(mg.tensor([0.0, 2.0]), mg.tensor([0.0, 1.0]))
        tensor([0., 0.])
    """
    if is_scalar(input) and isinstance(other, Tensor):
        return XlogyScalarSelf.apply(other, value=input)
    check_tensor(input, "xlogy")
    if is_scalar(other):
        return XlogyScalarOther.apply(input, value=other)
    check_tensor(other, "xlogy", "other", 2)
    broadcast_shapes(input.shape, other.shape, "xlogy")
    return Xlogy.apply(*_same_dtype(input, other))
