"""Elementwise arithmetic with broadcasting: + - * / ** and their scalar forms.

Tensor-tensor ops cast both operands to the promoted dtype (PyTorch's
``result_type``) and reduce each gradient back to its operand's shape and dtype
with :func:`sum_to`. Scalar forms (``x * 2.0``) keep the scalar on ``ctx``, as
PyTorch's ``mul.Scalar`` does, so no tensor is built for it.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from .. import _dtype, errors
from ..autograd.function import Op
from ..tensor import Tensor
from ._util import broadcast_shapes, make, named, result_dtype, to_tensor
from .select import where
from .shape import sum_to

# PyTorch's grad_fn._saved_<name> values (autograd/saved.py): add and sub keep alpha = 1 (ours
# multiply other by alpha first), mul and div by a number keep it as a 0-d tensor
_ALPHA = {"alpha": lambda ctx: 1}
_NUMBER_OTHER = {
    "self": lambda ctx: None,
    "other": lambda ctx: make(np.asarray(ctx.value), False, None),
}


class _Binary(Op):
    """Shared prologue of tensor-tensor ops: remember operand shapes and dtypes, which
    backward needs to sum broadcast gradients back and to cast them."""

    @staticmethod
    def prepare(ctx, a, b):
        ctx.sa, ctx.sb = a.shape, b.shape
        ctx.da, ctx.db = _dtype._FROM_NP[a.dtype], _dtype._FROM_NP[b.dtype]


class Add(_Binary):
    """Sum: f(a, b) = a + b; grad_a = g, grad_b = g (each summed to its operand's shape)."""

    elementwise = True
    saved_values = _ALPHA

    @staticmethod
    def forward(ctx, a, b):
        _Binary.prepare(ctx, a, b)
        return a + b

    @staticmethod
    def backward(ctx, g):
        sa, sb, da, db = ctx.sa, ctx.sb, ctx.da, ctx.db
        return sum_to(g, sa, da), sum_to(g, sb, db)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_a + t_b."""
        ta, tb = tangents
        return tb if ta is None else ta if tb is None else ta + tb


class Sub(_Binary):
    """Difference: f(a, b) = a - b; grad_a = g, grad_b = -g."""

    elementwise = True
    saved_values = _ALPHA

    @staticmethod
    def forward(ctx, a, b):
        _Binary.prepare(ctx, a, b)
        return a - b

    @staticmethod
    def backward(ctx, g):
        sa, sb, da, db = ctx.sa, ctx.sb, ctx.da, ctx.db
        return sum_to(g, sa, da), sum_to(-g, sb, db)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_a - t_b."""
        ta, tb = tangents
        return -tb if ta is None else ta if tb is None else ta - tb


class Mul(_Binary):
    """Product: f(a, b) = a*b; grad_a = g*b, grad_b = g*a."""

    elementwise = True

    save_inputs = True
    saved_names = ("self", "other")

    @staticmethod
    def forward(ctx, a, b):
        _Binary.prepare(ctx, a, b)
        return a * b

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        sa, sb, da, db = ctx.sa, ctx.sb, ctx.da, ctx.db
        return sum_to(g * b, sa, da), sum_to(g * a, sb, db)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_a*b + a*t_b."""
        (a, b), (ta, tb) = inputs, tangents
        if ta is None or tb is None:
            return a * tb if ta is None else ta * b
        return ta * b + a * tb


class Div(_Binary):
    """Quotient: f(a, b) = a/b; grad_a = g/b, grad_b = -g*a/b**2."""

    elementwise = True

    save_inputs = True
    saved_names = ("self", "other")

    @staticmethod
    def forward(ctx, a, b):
        _Binary.prepare(ctx, a, b)
        with np.errstate(divide="ignore", invalid="ignore"):
            return a / b

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        sa, sb, da, db = ctx.sa, ctx.sb, ctx.da, ctx.db
        ga = g / b
        return sum_to(ga, sa, da), sum_to(-ga * a / b, sb, db)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = (t_a - out*t_b) / b."""
        (_, b), (ta, tb) = inputs, tangents
        if tb is None:
            return ta / b
        return -(out * tb) / b if ta is None else (ta - out * tb) / b


class Pow(_Binary):
    """Power: f(a, b) = a**b; grad_a = g*b*a**(b-1), grad_b = g*a**b*log(a).

    At the edges PyTorch's conventions hold: grad_a = 0 where b = 0 (even at a = 0), and
    grad_b = 0 where a = 0 and b >= 0 (there a**b*log(a) would be 0*(-inf))."""

    node_name = "PowBackward1"  # PyTorch: PowBackward0 is x ** number, PowBackward2 number ** x
    elementwise = True

    save_inputs = True
    saved_names = ("self", "exponent")

    @staticmethod
    def forward(ctx, a, b):
        _Binary.prepare(ctx, a, b)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            return a**b

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        sa, sb, da, db = ctx.sa, ctx.sb, ctx.da, ctx.db
        b_zero = b == 0
        # the exponent is swapped to 1 where b = 0, so 0 * 0**-1 is never computed
        ga = where(b_zero, 0.0, g * b * a ** where(b_zero, 1.0, b - 1))
        no_log = (a == 0) & (b >= 0)
        gb = g * a**b * where(no_log, 1.0, a).log()
        return sum_to(ga, sa, da), sum_to(gb, sb, db)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_a*b*a**(b-1) + t_b*a**b*log(a) (edges as in backward)."""
        (a, b), (ta, tb) = inputs, tangents
        da = db = None
        if ta is not None:
            b_zero = b == 0
            da = where(b_zero, 0.0, ta * b * a ** where(b_zero, 1.0, b - 1))
        if tb is not None:
            no_log = (a == 0) & (b >= 0)
            db = tb * out * where(no_log, 1.0, a).log()
        return db if da is None else da if db is None else da + db


def _number(a: np.ndarray, value):
    """The Python number ``value`` as the operand numpy gets beside the array ``a``.

    A float tensor meeting a Python float or int keeps its dtype (NEP 50): numpy converts
    the number to that dtype first, and it does so on every call, which costs more than the
    arithmetic on a small tensor. On a 16x16 float32 array ``a * 1.0001`` takes 0.86 us
    and ``a * z``, with ``z`` the same number as a 0-d float32 array, 0.32 us, with the same
    result bits (``benchmarks/bench_engine.py``: the tanh chain's MulScalar runs twice per
    op, forward and backward). So such numbers are converted once and kept (read-only) in a
    small cache; every other case gets ``value`` as it is, and :func:`_scalar_out` fixes
    the dtype.
    """
    if a.dtype.kind == "f" and type(value) in (float, int) and value != 0:
        return _as_dtype(value, a.dtype)
    return value  # 0.0 and -0.0 are one key to the cache: their sign matters (x / -0.0)


@functools.lru_cache(maxsize=256, typed=True)
def _as_dtype(value, dtype) -> np.ndarray:
    z = np.array(value, dtype)
    z.flags.writeable = False
    return z


def _scalar_out(a: np.ndarray, value, result: np.ndarray) -> np.ndarray:
    """Fix numpy's choice of result dtype to PyTorch's (int tensor * 2.5 -> float32)."""
    if a.dtype.kind == "f" and result.dtype == a.dtype:
        return result  # the common case: numpy already kept the float tensor's dtype
    want = _dtype.promote_with_scalar(_dtype._FROM_NP[a.dtype], value).np
    return result if result.dtype == want else result.astype(want)


class AddScalar(Op):
    """a + c for a Python number c; grad = g."""

    elementwise = True
    saved_values = _ALPHA

    node_name = "AddBackward0"

    @staticmethod
    def forward(ctx, a, value):
        return _scalar_out(a, value, a + _number(a, value))

    @staticmethod
    def backward(ctx, g):
        return g

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_a."""
        return tangents[0]


class MulScalar(Op):
    """a * c for a Python number c; grad = g * c."""

    elementwise = True
    saved_values = _NUMBER_OTHER

    node_name = "MulBackward0"

    @staticmethod
    def forward(ctx, a, value):
        ctx.value = value
        return _scalar_out(a, value, a * _number(a, value))

    @staticmethod
    def backward(ctx, g):
        return MulScalar.apply(g, value=ctx.value)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_a * c."""
        return MulScalar.apply(tangents[0], value=params["value"])


class DivScalar(Op):
    """a / c for a Python number c; grad = g / c."""

    elementwise = True
    saved_values = _NUMBER_OTHER

    node_name = "DivBackward0"

    @staticmethod
    def forward(ctx, a, value):
        ctx.value = value
        with np.errstate(divide="ignore", invalid="ignore"):
            out = a / _number(a, value)
        return _scalar_out(a, 1.0, out)

    @staticmethod
    def backward(ctx, g):
        return DivScalar.apply(g, value=ctx.value)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_a / c."""
        return DivScalar.apply(tangents[0], value=params["value"])


class RSubScalar(Op):
    """c - a for a Python number c; grad = -g."""

    elementwise = True
    saved_values = _ALPHA

    node_name = "RsubBackward1"  # PyTorch's rsub.Scalar (RsubBackward0: rsub of two tensors)

    @staticmethod
    def forward(ctx, a, value):
        return _scalar_out(a, value, _number(a, value) - a)

    @staticmethod
    def backward(ctx, g):
        return -g

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = -t_a."""
        return -tangents[0]


class RDivScalar(Op):
    """c / a for a Python number c; grad = -g * c / a**2 = -g * out / a."""

    elementwise = True

    node_name = "DivBackward0"

    save_inputs = True
    save_output = True
    saved_names = ("self", "result")

    @staticmethod
    def forward(ctx, a, value):
        with np.errstate(divide="ignore", invalid="ignore"):
            out = _number(a, value) / a
        return _scalar_out(a, 1.0, out)

    @staticmethod
    def backward(ctx, g):
        a, out = ctx.saved_tensors
        return -g * out / a

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = -t_a * out / a."""
        return -tangents[0] * out / inputs[0]


class PowScalar(Op):
    """a ** c for a Python number c; grad = g * c * a**(c-1) (0 for c = 0)."""

    elementwise = True

    node_name = "PowBackward0"

    save_inputs = True
    saved_names = ("self",)
    saved_values = {"exponent": lambda ctx: ctx.value}

    @staticmethod
    def forward(ctx, a, value):
        ctx.value = value
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            return _scalar_out(a, value, a**value)

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        c = ctx.value
        if c == 0:
            return g * 0.0
        if c == 1:
            return g
        if c == 2:
            return g * a * 2.0
        return g * c * a ** (c - 1)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_a * c * a**(c-1) (0 for c = 0)."""
        (a,), (ta,), c = inputs, tangents, params["value"]
        if c == 0:
            return ta * 0.0
        if c == 1:
            return ta
        return ta * c * a ** (c - 1)


class RPowScalar(Op):
    """c ** a for a Python number c; grad = g * c**a * log(c).

    For c = 0 PyTorch's convention holds: no gradient where 0**a is finite (a >= 0)."""

    elementwise = True

    node_name = "PowBackward2"  # PyTorch's pow.Scalar: a number to a tensor power

    save_output = True
    saved_names = ("result",)
    saved_values = {"self": lambda ctx: ctx.value}  # the base c, a number

    @staticmethod
    def forward(ctx, a, value):
        ctx.value = value
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            return _scalar_out(a, value, np.power(value, a) if a.dtype.kind == "f" else value**a)

    @staticmethod
    def backward(ctx, g):
        (out,) = ctx.saved_tensors
        if ctx.value == 0:  # out is 0 or 1 where a >= 0, inf where a < 0
            return where(out == math.inf, g * -math.inf, g * 0.0)
        with np.errstate(invalid="ignore"):
            log_c = float(np.log(ctx.value))  # nan for c < 0, as in PyTorch
        return g * out * log_c

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_a * c**a * log(c) (0 where 0**a is finite, for c = 0)."""
        ta = tangents[0]
        if params["value"] == 0:
            return where(out == math.inf, ta * -math.inf, ta * 0.0)
        with np.errstate(invalid="ignore"):
            log_c = float(np.log(params["value"]))
        return ta * out * log_c


class Neg(Op):
    """Negation: f(a) = -a; grad = -g."""

    elementwise = True

    @staticmethod
    def forward(ctx, a):
        return -a if a.dtype != np.bool_ else _neg_bool()

    @staticmethod
    def backward(ctx, g):
        return -g

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = -t_a."""
        return -tangents[0]


def _neg_bool():
    raise RuntimeError(
        "Negation, the `-` operator, on a bool tensor is not supported. "
        "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead."
    )


# --- the functions the Tensor operators call ------------------------------------
def _binary(tensor_op, scalar_op, a, b, name):
    if type(b) is float or type(b) is int:
        return scalar_op(a, b)
    b = to_tensor(b, a, name)
    if a._data.shape != b._data.shape:  # PyTorch's RuntimeError naming the shapes, not numpy's
        broadcast_shapes(a._data.shape, b._data.shape, name)
    if a._data.dtype != b._data.dtype:
        d = result_dtype(a, b)
        a, b = a.to(d), b.to(d)
    return tensor_op.apply(a, b)


def _refuse_bool_sub(a, b) -> None:
    """PyTorch refuses ``-`` on bool tensors (it would read as a logical operation)."""
    bools = sum(isinstance(t, Tensor) and t._data.dtype == np.bool_ for t in (a, b))
    if bools:
        raise RuntimeError(errors.BOOL_SUB_TWO if bools == 2 else errors.BOOL_SUB)


def add(a, b, *, alpha=1):
    """a + alpha * b, broadcasting (``torch.add``)."""
    if alpha != 1:
        b = b * alpha
    return _binary(Add, lambda x, s: AddScalar.apply(x, value=s), a, b, "add")


def sub(a, b, *, alpha=1):
    """a - alpha * b, broadcasting (``torch.sub``)."""
    _refuse_bool_sub(a, b)
    if alpha != 1:
        b = b * alpha
    return _binary(Sub, _sub_scalar, a, b, "sub")


def _sub_scalar(a, value):
    """a - c, run as a + (-c); the node keeps PyTorch's name for a subtraction."""
    return named(AddScalar.apply(a, value=-value), "SubBackward0")


def mul(a, b):
    """Elementwise a * b, broadcasting (``torch.mul``)."""
    return _binary(Mul, lambda x, s: MulScalar.apply(x, value=s), a, b, "mul")


def div(a, b):
    """Elementwise true division a / b, broadcasting (``torch.div``)."""
    if a._data.dtype.kind in "biu" and not isinstance(b, float):
        a = a.to(_dtype.defaults.float_dtype)
    return _binary(Div, lambda x, s: DivScalar.apply(x, value=s), a, b, "div")


def pow(a, b):  # noqa: A001  (PyTorch name)
    """Elementwise a ** b, broadcasting (``torch.pow``)."""
    if a._data.dtype == np.bool_ and isinstance(b, Tensor) and b._data.dtype == np.bool_:
        raise NotImplementedError(errors.POW_BOOL)
    if a._data.dtype.kind in "biu" and type(b) is int and b < 0:
        raise RuntimeError(errors.INT_NEGATIVE_POW)
    return _binary(Pow, lambda x, s: PowScalar.apply(x, value=s), a, b, "pow")


def rsub(a, b):
    """b - a for ``number - tensor``."""
    _refuse_bool_sub(a, b)
    if type(b) is float or type(b) is int:
        return RSubScalar.apply(a, value=b)
    return sub(to_tensor(b, a, "sub"), a)


def rdiv(a, b):
    """b / a for ``number / tensor``."""
    if type(b) is float or type(b) is int:
        if a._data.dtype.kind in "biu":
            a = a.to(_dtype.defaults.float_dtype)
        return RDivScalar.apply(a, value=b)
    return div(to_tensor(b, a, "div"), a)


def rpow(a, b):
    """b ** a for ``number ** tensor``."""
    if type(b) is float or type(b) is int:
        return RPowScalar.apply(a, value=b)
    return pow(to_tensor(b, a, "pow"), a)


def neg(a):
    """Elementwise negation (``torch.neg``)."""
    return Neg.apply(a)
