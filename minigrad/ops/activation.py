"""Activation functions of ``nn.functional``: leaky_relu silu gelu elu softplus logsigmoid hardtanh.

Each op saves its input (``self``, as PyTorch does) and its gradient is one fused op, the
analogue of PyTorch's ``<op>_backward`` kernel: ``Grad(g, a) = g * f'(a)``, computed on numpy.
That fused op is differentiable again through :class:`ActivationGrad`: its gradient for ``g``
is itself and its gradient for ``a`` is ``g * f''(a)`` built from differentiable ops, so
gradients of any order work. silu's gradient is composed of differentiable ops instead, as
PyTorch's is (its second-order node is a ``MulBackward0`` in both).

Kinks follow PyTorch: leaky_relu'(0) = negative_slope, elu'(0) = alpha, and
hardtanh'(min_val) = hardtanh'(max_val) = 0 (relu6 is hardtanh(0, 6)). ``softsign`` has no
op of its own (PyTorch composes it too: ``x / (1 + |x|)``).
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import activation as errors
from ..recording.function import Op
from .unary import sigmoid_array

_SQRT_HALF = math.sqrt(0.5)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_GELU_K, _GELU_C = math.sqrt(2.0 / math.pi), 0.044715  # gelu's tanh form: tanh(k(a + c a**3))


def _erf(x: np.ndarray) -> np.ndarray:
    """The error function, scipy's ufunc (exact gelu needs it; numpy has none)."""
    from scipy.special import erf  # heavy (~240 ms, -X importtime): only gelu needs it

    return erf(x)


def _float_only(a: np.ndarray, op: str) -> None:
    """PyTorch has no integer or bool kernel for these ops (NotImplementedError)."""
    if a.dtype.kind != "f":
        raise NotImplementedError(errors.NOT_FLOAT.format(op=op, got=a.dtype))


class ActivationGrad(Op):
    """PyTorch's ``<op>_backward``: f(g, a) = g * act'(a); grad_g = f(gg, a), grad_a = gg*g*act''(a).

    A subclass gives ``local(g, a, **params)``, ``g * act'(a)`` on numpy arrays, and
    ``curvature(a, **params)``, ``act''(a)`` from differentiable ops (None where it is zero:
    ``a`` then gets a zero gradient, as in PyTorch, not none).
    """

    save_inputs = True
    saved_names = ("grad_output", "self")

    @classmethod
    def forward(cls, ctx, g, a, **params):
        ctx.params = params
        return cls.local(g, a, **params).astype(g.dtype, copy=False)

    @classmethod
    def backward(cls, ctx, gg):
        g, a = ctx.saved_tensors
        curv = cls.curvature(a, **ctx.params)
        grad_a = gg * 0.0 if curv is None else gg * g * curv  # zeros, not None: as PyTorch
        return cls.apply(gg, a, **ctx.params), grad_a

    @classmethod
    def jvp(cls, params, inputs, tangents, out):
        """Forward rule: t_out = t_g * act'(a) + g * act''(a) * t_a."""
        (g, a), (tg, ta) = inputs, tangents
        curv = None if ta is None else cls.curvature(a, **params)
        dg = None if tg is None else cls.apply(tg, a, **params)
        da = None if curv is None else ta * g * curv
        return da if dg is None else dg if da is None else dg + da

    @staticmethod
    def local(g, a, **params):  # pragma: no cover - every subclass overrides it
        raise NotImplementedError

    @staticmethod
    def curvature(a, **params):  # pragma: no cover
        raise NotImplementedError


def _params_of(*names):
    """``saved_values`` for the keyword parameters an op keeps (``grad_fn._saved_alpha``)."""
    return {n: (lambda ctx, n=n: ctx.params[n]) for n in names}


# --- leaky_relu -------------------------------------------------------------------------------
class LeakyRelu(Op):
    """Leaky rectifier: f(a) = a if a > 0 else s*a; grad = g if a > 0 else s*g (f'(0) = s)."""

    elementwise = True
    save_inputs = True
    saved_names = ("self",)
    saved_values = _params_of("negative_slope")

    @staticmethod
    def forward(ctx, a, negative_slope):
        _float_only(a, "leaky_relu")
        ctx.params = {"negative_slope": negative_slope}
        return np.where(a > 0, a, a * negative_slope).astype(a.dtype, copy=False)

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return LeakyReluGrad.apply(g, a, **ctx.params)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_a if a > 0 else s*t_a."""
        return LeakyReluGrad.apply(tangents[0], inputs[0], **params)


class LeakyReluGrad(ActivationGrad):
    """leaky_relu_backward: g if a > 0 else s*g; act'' = 0."""

    node_name = "LeakyReluBackwardBackward0"
    saved_values = _params_of("negative_slope")

    @staticmethod
    def local(g, a, negative_slope):
        return np.where(a > 0, g, g * negative_slope)

    @staticmethod
    def curvature(a, negative_slope):
        return None


# --- hardtanh (and relu6 = hardtanh(0, 6)) ----------------------------------------------------
class Hardtanh(Op):
    """Clip into [min_val, max_val]; grad = g where min_val < a < max_val else 0 (bounds: 0)."""

    elementwise = True
    save_inputs = True
    saved_names = ("self",)
    saved_values = _params_of("min_val", "max_val")

    @staticmethod
    def forward(ctx, a, min_val, max_val):
        if a.dtype.kind == "b":
            raise RuntimeError(errors.BOOL_HARDTANH)
        if a.dtype.kind == "u" and min(min_val, max_val) < 0:
            raise RuntimeError(errors.UNSIGNED_HARDTANH.format(got=a.dtype, lo=min_val, hi=max_val))
        ctx.params = {"min_val": min_val, "max_val": max_val}
        if a.dtype.kind != "f":  # PyTorch turns the bounds into the integer dtype (truncating)
            min_val, max_val = int(min_val), int(max_val)
        return np.clip(a, min_val, max_val).astype(a.dtype, copy=False)

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return HardtanhGrad.apply(g, a, **ctx.params)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_a where min_val < a < max_val else 0."""
        return HardtanhGrad.apply(tangents[0], inputs[0], **params)


class HardtanhGrad(ActivationGrad):
    """hardtanh_backward: g where min_val < a < max_val (strictly) else 0; act'' = 0."""

    node_name = "HardtanhBackwardBackward0"
    saved_values = _params_of("min_val", "max_val")

    @staticmethod
    def local(g, a, min_val, max_val):
        return np.where((a > min_val) & (a < max_val), g, 0)

    @staticmethod
    def curvature(a, min_val, max_val):
        return None


# --- elu --------------------------------------------------------------------------------------
class Elu(Op):
    """Exponential linear unit: f(a) = a if a > 0 else alpha*(e**a - 1); grad = g if a > 0
    else g*alpha*e**a (so f'(0) = alpha, as PyTorch)."""

    elementwise = True
    save_inputs = True
    saved_names = ("self",)
    saved_values = {**_params_of("alpha"), "scale": lambda ctx: 1, "input_scale": lambda ctx: 1}

    @staticmethod
    def forward(ctx, a, alpha):
        _float_only(a, "elu")
        ctx.params = {"alpha": alpha}
        # e**a of the positive side is never formed; where, not np.minimum, keeps -0.0 (whose
        # expm1 is PyTorch's -0.0)
        neg = np.expm1(np.where(a > 0, 0, a)) * alpha
        return np.where(a > 0, a, neg).astype(a.dtype, copy=False)

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return EluGrad.apply(g, a, **ctx.params)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_a * elu'(a)."""
        return EluGrad.apply(tangents[0], inputs[0], **params)


class EluGrad(ActivationGrad):
    """elu_backward: g*alpha*e**a if a <= 0 else g (PyTorch's test: a NaN takes the linear
    side, g); act'' = alpha*e**a if a < 0 else 0 (at 0 too: PyTorch's double backward takes
    the linear side there, its backward the other; 0 at a NaN)."""

    node_name = "EluBackwardBackward0"
    saved_values = _params_of("alpha")

    @staticmethod
    def local(g, a, alpha):
        return np.where(a <= 0, g * (np.exp(np.minimum(a, 0)) * alpha), g)

    @staticmethod
    def curvature(a, alpha):
        return (a.clamp(max=0).exp() * alpha).where(a < 0, 0.0)


# --- softplus and logsigmoid ------------------------------------------------------------------
def _log1p_exp(x: np.ndarray) -> np.ndarray:
    """log(1 + e**x) without overflow: max(x, 0) + log(1 + e**-|x|)."""
    return np.maximum(x, 0) + np.log1p(np.exp(-np.abs(x)))


class Softplus(Op):
    """Smooth relu: f(a) = log(1 + e**(beta*a))/beta, or a where beta*a > threshold (as
    PyTorch); grad = g*sigmoid(beta*a), or g past the threshold."""

    elementwise = True
    save_inputs = True
    saved_names = ("self",)
    saved_values = _params_of("beta", "threshold")

    @staticmethod
    def forward(ctx, a, beta, threshold):
        _float_only(a, "softplus")
        ctx.params = {"beta": beta, "threshold": threshold}
        x = a * beta
        with np.errstate(divide="ignore", invalid="ignore"):  # beta = 0: inf, as PyTorch
            smooth = _log1p_exp(x) / beta
        return np.where(x > threshold, a, smooth).astype(a.dtype, copy=False)

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return SoftplusGrad.apply(g, a, **ctx.params)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_a * sigmoid(beta*a) (t_a past the threshold)."""
        return SoftplusGrad.apply(tangents[0], inputs[0], **params)


class SoftplusGrad(ActivationGrad):
    """softplus_backward: g*sigmoid(beta*a), g where beta*a > threshold; act'' = beta*s*(1-s)
    where beta*a < threshold, else 0 (at the threshold too, as PyTorch's double backward)."""

    node_name = "SoftplusBackwardBackward0"
    saved_values = _params_of("beta", "threshold")

    @staticmethod
    def local(g, a, beta, threshold):
        x = a * beta
        return np.where(x > threshold, g, g * sigmoid_array(x))

    @staticmethod
    def curvature(a, beta, threshold):
        x = a * beta
        s = x.sigmoid()
        return (x < threshold).to(a.dtype) * s * (1 - s) * beta


class LogSigmoid(Op):
    """Log of the sigmoid: f(a) = -log(1 + e**-a); grad = g*sigmoid(-a). Stable at +-1000."""

    elementwise = True
    save_inputs = True
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        _float_only(a, "log_sigmoid")
        # 0 - softplus(-a), not its negation: PyTorch's log(sigmoid(+inf)) is +0.0
        return (0.0 - _log1p_exp(-a)).astype(a.dtype, copy=False)

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return LogSigmoidGrad.apply(g, a)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_a * sigmoid(-a)."""
        return LogSigmoidGrad.apply(tangents[0], inputs[0])


class LogSigmoidGrad(ActivationGrad):
    """log_sigmoid_backward: g*sigmoid(-a); act'' = -s*(1-s) with s = sigmoid(a)."""

    node_name = "LogSigmoidBackwardBackward0"

    @staticmethod
    def local(g, a):
        return g * sigmoid_array(-a)

    @staticmethod
    def curvature(a):
        s = a.sigmoid()
        return -(s * (1 - s))


# --- silu and gelu ----------------------------------------------------------------------------
class Silu(Op):
    """Sigmoid-weighted linear unit: f(a) = a*s, s = sigmoid(a); grad = g*s*(1 + a*(1 - s)).

    Its backward is composed of differentiable ops (so the second-order node is a
    ``MulBackward0``), as PyTorch's is."""

    elementwise = True
    save_inputs = True
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        _float_only(a, "silu")
        return a * sigmoid_array(a)

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g * _silu_slope(a)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_a * s*(1 + a*(1 - s))."""
        return tangents[0] * _silu_slope(inputs[0])


def _silu_slope(a):
    """silu'(a) = s*(1 + a*(1 - s)), s = sigmoid(a), from differentiable ops."""
    s = a.sigmoid()
    return s * (1 + a * (1 - s))


class Gelu(Op):
    """Gaussian error linear unit: f(a) = a*Phi(a), Phi the normal CDF (``approximate='tanh'``:
    0.5*a*(1 + tanh(k*(a + c*a**3))), k = sqrt(2/pi), c = 0.044715); grad = g*f'(a)."""

    elementwise = True
    save_inputs = True
    saved_names = ("self",)
    saved_values = _params_of("approximate")

    @staticmethod
    def forward(ctx, a, approximate):
        _float_only(a, "gelu")
        ctx.params = {"approximate": approximate}
        if approximate == "tanh":
            out = a * 0.5 * (1 + np.tanh((a + a * a * a * _GELU_C) * _GELU_K))
        else:
            out = a * 0.5 * (1 + _erf(a * _SQRT_HALF))
        return out.astype(a.dtype, copy=False)

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return GeluGrad.apply(g, a, **ctx.params)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_a * gelu'(a)."""
        return GeluGrad.apply(tangents[0], inputs[0], **params)


class GeluGrad(ActivationGrad):
    """gelu_backward: g*(Phi(a) + a*phi(a)), phi the normal density; act'' = phi(a)*(2 - a**2).

    The tanh form, with t = tanh(u), u = k*(a + c*a**3): act' = (1 + t)/2 + a*(1 - t**2)*u'/2
    and act'' = (1 - t**2)*(u' - a*t*u'**2 + a*u''/2)."""

    node_name = "GeluBackwardBackward0"
    saved_values = _params_of("approximate")

    @staticmethod
    def local(g, a, approximate):
        if approximate == "tanh":
            t = np.tanh((a + a * a * a * _GELU_C) * _GELU_K)
            du = (1 + a * a * (3 * _GELU_C)) * _GELU_K
            return g * ((1 + t) * 0.5 + a * (1 - t * t) * du * 0.5)
        pdf = np.exp(a * a * -0.5) * _INV_SQRT_2PI
        return g * ((1 + _erf(a * _SQRT_HALF)) * 0.5 + a * pdf)

    @staticmethod
    def curvature(a, approximate):
        if approximate == "tanh":
            t = ((a + a * a * a * _GELU_C) * _GELU_K).tanh()
            du = (1 + a * a * (3 * _GELU_C)) * _GELU_K
            ddu = a * (6 * _GELU_C * _GELU_K)
            return (1 - t * t) * (du - a * t * du * du + a * ddu * 0.5)
        return (a * a * -0.5).exp() * _INV_SQRT_2PI * (2 - a * a)
