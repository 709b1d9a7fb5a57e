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
from ..recording.function import Op
from ..tensor import Tensor
from ._util import Elementwise, broadcast_shapes, make, named, result_dtype, to_tensor
from .select import where
from .shape import sum_to

# PyTorch's grad_fn._saved_<name> values (recording/saved.py): add and sub keep alpha = 1 (ours
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
    """Sum: f(a, b) = a + b; grad_a = g, grad_b = g (each summed to its operand's shape).

    One ``derivative`` serves backward and jvp: the Jacobian is diagonal, so g J (backward)
    and J t (jvp) are the same elementwise product."""

    elementwise = True
    saved_values = _ALPHA

    @staticmethod
    def forward(ctx, a, b):
        _Binary.prepare(ctx, a, b)
        return a + b

    @staticmethod
    def derivative(va, vb):
        """``(va, vb)``: both partial derivatives are 1; va and vb are the
        gradient (backward: both g) or the operands' tangents (jvp)."""
        return va, vb

    @staticmethod
    def backward(ctx, g):
        ga, gb = Add.derivative(g, g)
        return sum_to(ga, ctx.sa, ctx.da), sum_to(gb, ctx.sb, ctx.db)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_a + t_b."""
        ta, tb = Add.derivative(*tangents)
        return tb if ta is None else ta if tb is None else ta + tb


class Sub(_Binary):
    """Difference: f(a, b) = a - b; grad_a = g, grad_b = -g.

    The derivatives are 1 and -1, written in place: jvp subtracts the tangents in one op
    (t_a - t_b), where a shared rule would negate t_b and then add."""

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
    """Product: f(a, b) = a*b; grad_a = g*b, grad_b = g*a.

    One ``derivative`` serves backward and jvp: the Jacobian is diagonal, so g J (backward)
    and J t (jvp) are the same elementwise product."""

    elementwise = True

    save_inputs = True
    saved_names = ("self", "other")

    @staticmethod
    def forward(ctx, a, b):
        _Binary.prepare(ctx, a, b)
        return a * b

    @staticmethod
    def derivative(va, vb, a, b):
        """``(va * b, vb * a)``, None for a v that is None; va and vb are the
        gradient (backward: both g) or the operands' tangents (jvp)."""
        return (None if va is None else va * b), (None if vb is None else vb * a)

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        if g.layout != "strided":  # a sparse gradient (sparse/formulas.py): PyTorch's layouts
            return _sparse_times(g, b, ctx.sa, ctx.da), _sparse_times(g, a, ctx.sb, ctx.db)
        ga, gb = Mul.derivative(g, g, a, b)
        return sum_to(ga, ctx.sa, ctx.da), sum_to(gb, ctx.sb, ctx.db)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_a*b + a*t_b."""
        da, db = Mul.derivative(*tangents, *inputs)
        return db if da is None else da if db is None else da + db


def _sparse_times(g, other: Tensor, shape: tuple, dtype) -> Tensor:
    """``g * other`` for a sparse COO ``g``, reduced to an input's ``shape`` and ``dtype``, as
    PyTorch's MulBackward does it: the product is sparse on g's pattern (masked) and stays
    sparse for an input of the output's shape; one that was broadcast gets it summed, dense."""
    if other.dtype is not g.dtype:
        other = other.to(g.dtype)
    product = g * other
    if tuple(product.shape) != tuple(shape):
        return sum_to(product.to_dense(), shape, dtype)
    return product if product.dtype is dtype else product.to(dtype)


class Div(_Binary):
    """Quotient: f(a, b) = a/b; grad_a = g/b, grad_b = -g*a/b**2.

    backward and jvp are written apart: the jvp is (t_a - out*t_b) / b, one division, which
    rounds differently from backward's g/b and -(g/b)*a/b."""

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


def _int_power(a: np.ndarray, b) -> np.ndarray:
    """a ** b for integer arrays as PyTorch computes it: a negative exponent gives 0, except for
    the bases 1 (1) and -1 (1 or -1 by the exponent's parity), where numpy refuses. Written
    without a branch on the values, so a traced program runs the same arithmetic."""
    negative = b < 0
    out = np.power(a, np.where(negative, 0, b))
    parity = np.where(np.remainder(b, 2) == 0, 1, -1)
    small = np.where(a == 1, 1, np.where(a == -1, parity, 0))
    return np.where(negative, small, out).astype(a.dtype, copy=False)  # a bool b: a's dtype


class Pow(_Binary):
    """Power: f(a, b) = a**b; grad_a = g*b*a**(b-1), grad_b = g*a**b*log(a).

    At the edges PyTorch's conventions hold: grad_a = 0 where b = 0 (even at a = 0), and
    grad_b = 0 where a = 0 and b >= 0 (there a**b*log(a) would be 0*(-inf)).

    One ``derivative`` serves backward and jvp: the Jacobian is diagonal, so g J (backward)
    and J t (jvp) are the same elementwise product."""

    node_name = "PowBackward1"  # PyTorch: PowBackward0 is x ** number, PowBackward2 number ** x
    elementwise = True

    save_inputs = True
    save_output = True  # PyTorch's PowBackward1 saves its result (an in-place change is caught)
    saved_names = ("self", "exponent", "result")

    @staticmethod
    def forward(ctx, a, b):
        _Binary.prepare(ctx, a, b)
        shape = np.broadcast_shapes(a.shape, b.shape)
        if isinstance(b, np.ndarray) and b.shape != shape:
            # numpy's power takes a square root for an exponent 0.5 that it repeats along the
            # loop (a broadcast one): sqrt(-0.0) is -0.0 and sqrt(-inf) NaN, where PyTorch's
            # pow of two tensors is C's pow (+0.0, +inf). So the exponent goes in full size.
            b = np.broadcast_to(b, shape).copy()
        if a.dtype.kind in "iu" and np.asarray(b).dtype.kind in "iub":
            return _int_power(a, b)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            return a**b

    @staticmethod
    def derivative(va, vb, a, b, out=None):
        """``(va*b*a**(b-1), vb*a**b*log(a))`` with the edges above, None for a v that is
        None; va and vb are the gradient (backward: both g) or the operands' tangents (jvp).
        ``out`` is a**b when the caller has it (both do: backward saved it)."""
        ga = gb = None
        if va is not None:
            b_zero = b == 0
            # the exponent is swapped to 1 where b = 0, so 0 * 0**-1 is never computed
            ga = where(b_zero, 0.0, va * b * a ** where(b_zero, 1.0, b - 1))
        if vb is not None:
            no_log = (a == 0) & (b >= 0)
            gb = vb * (a**b if out is None else out) * where(no_log, 1.0, a).log()
        return ga, gb

    @staticmethod
    def backward(ctx, g):
        a, b, result = ctx.saved_tensors
        ga, gb = Pow.derivative(g, g, a, b, out=result)
        return sum_to(ga, ctx.sa, ctx.da), sum_to(gb, ctx.sb, ctx.db)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_a*b*a**(b-1) + t_b*a**b*log(a) (edges as in backward)."""
        da, db = Pow.derivative(*tangents, *inputs, out)
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
    if a.dtype.kind in "iu" and type(value) is int and not _dtype.fits(value, a.dtype):
        # PyTorch wraps the number into the tensor's dtype (uint8 - 2 adds 254: 0 - 2 is 254),
        # where numpy refuses a Python int out of the dtype's range (OverflowError)
        return np.array(value, np.int64).astype(a.dtype)
    return value  # 0.0 and -0.0 are one key to the cache: their sign matters (x / -0.0)


@functools.lru_cache(maxsize=256, typed=True)
def _as_dtype(value, dtype) -> np.ndarray:
    z = np.array(value, dtype)
    z.flags.writeable = False
    return z


def _scalar_out(a: np.ndarray, value, result: np.ndarray) -> np.ndarray:
    """Fix numpy's choice of result dtype to PyTorch's (int tensor * 2.5 -> float32)."""
    if result.dtype == a.dtype and (a.dtype.kind == "f" or type(value) is int):
        return result  # the common cases, where numpy already kept the tensor's dtype as
        # PyTorch does: a float tensor with a number, an integer tensor with an int
    want = _dtype.promote_with_scalar(_dtype._FROM_NP[a.dtype], value).np
    return result if result.dtype == want else result.astype(want)


class _NumberOperand(Elementwise):
    """An op of a tensor and a Python number (``x * 2``). PyTorch wraps the number in a
    tensor that needs no gradient, so its node has a second edge, ``(None, 0)``:
    ``(x * 2).grad_fn.next_functions == ((AccumulateGrad, 0), (None, 0))``. These nodes
    record the same edge, and their backward sends ``None`` along it."""

    number_edges = 1  # edges beyond the tensor's (sparse/formulas.py counts the tensor's)

    def _record(self, inputs, out) -> None:
        super()._record(inputs, out)
        self.next_functions += ((None, 0),)


class AddScalar(_NumberOperand):
    """a + c for a Python number c; grad = g."""

    saved_values = _ALPHA

    node_name = "AddBackward0"

    @staticmethod
    def forward(ctx, a, value):
        return _scalar_out(a, value, a + _number(a, value))

    @staticmethod
    def derivative(v):
        """``v``: the derivative is 1: v is the gradient (backward) or the tangent (jvp)."""
        return v


class MulScalar(_NumberOperand):
    """a * c for a Python number c; grad = g * c."""

    saved_values = _NUMBER_OTHER

    node_name = "MulBackward0"
    number_param = "value"  # derivative takes the number too

    @staticmethod
    def forward(ctx, a, value):
        ctx.value = value
        return _scalar_out(a, value, a * _number(a, value))

    @staticmethod
    def derivative(v, c):
        """v * c: v is the gradient (backward) or the tangent (jvp)."""
        return MulScalar.apply(v, value=c)


class DivScalar(_NumberOperand):
    """a / c for a Python number c; grad = g / c."""

    saved_values = _NUMBER_OTHER

    node_name = "DivBackward0"
    number_param = "value"  # derivative takes the number too

    @staticmethod
    def forward(ctx, a, value):
        ctx.value = value
        with np.errstate(divide="ignore", invalid="ignore"):
            out = a / _number(a, value)
        return _scalar_out(a, 1.0, out)

    @staticmethod
    def derivative(v, c):
        """v / c: v is the gradient (backward) or the tangent (jvp)."""
        return DivScalar.apply(v, value=c)


class RSubScalar(Elementwise):
    """c - a for a Python number c; grad = -g."""

    saved_values = _ALPHA

    node_name = "RsubBackward1"  # PyTorch's rsub.Scalar (RsubBackward0: rsub of two tensors)

    @staticmethod
    def forward(ctx, a, value):
        return _scalar_out(a, value, _number(a, value) - a)

    @staticmethod
    def derivative(v):
        """``-v``: the derivative is -1: v is the gradient (backward) or the tangent (jvp)."""
        return -v


class PowScalar(Elementwise):
    """a ** c for a Python number c; grad = g * c * a**(c-1) (0 for c = 0)."""

    node_name = "PowBackward0"

    save_inputs = True
    saved_names = ("self",)
    saved_values = {"exponent": lambda ctx: ctx.value}
    number_param = "value"  # derivative takes the number too

    @staticmethod
    def forward(ctx, a, value):
        ctx.value = value
        if a.dtype.kind in "iu" and type(value) is int and value < 0:
            raise RuntimeError(errors.INT_NEGATIVE_POW)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            return _scalar_out(a, value, a**value)

    @staticmethod
    def derivative(v, a, c):
        """v * c * a**(c-1), with c = 0, 1, 2 written out: v is the gradient (backward) or the tangent (jvp)."""
        if c == 0:
            return v * 0.0
        if c == 1:
            return v
        if c == 2:
            return v * a * 2.0
        return v * c * a ** (c - 1)


class RPowScalar(Elementwise):
    """c ** a for a Python number c; grad = g * c**a * log(c).

    For c = 0 PyTorch's convention holds: no gradient where 0**a is finite (a >= 0)."""

    node_name = "PowBackward2"  # PyTorch's pow.Scalar: a number to a tensor power

    save_output = True
    saved_names = ("result",)
    saved_values = {"self": lambda ctx: ctx.value}  # the base c, a number
    number_param = "value"  # derivative takes the number too

    @staticmethod
    def forward(ctx, a, value):
        ctx.value = value
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            if a.dtype.kind != "f" and type(value) is int:  # the base in the result's dtype
                want = _dtype.promote_with_scalar(_dtype._FROM_NP[a.dtype], value).np
                return _int_power(np.asarray(value, want), a.astype(want))
            return _scalar_out(a, value, np.power(value, a) if a.dtype.kind == "f" else value**a)

    @staticmethod
    def derivative(v, out, c):
        """v * c**a * log(c) = v * out * log(c): v is the gradient (backward) or the tangent (jvp)."""
        if c == 0:  # out is 0 or 1 where a >= 0, inf where a < 0
            return where(out == math.inf, v * -math.inf, v * 0.0)
        with np.errstate(invalid="ignore"):
            log_c = float(np.log(c))  # nan for c < 0, as in PyTorch
        return v * out * log_c


class Neg(Elementwise):
    """Negation: f(a) = -a; grad = -g."""

    @staticmethod
    def forward(ctx, a):
        return -a if a.dtype != np.bool_ else _neg_bool()

    @staticmethod
    def derivative(v):
        """``-v``: the derivative is -1: v is the gradient (backward) or the tangent (jvp)."""
        return -v


def _neg_bool():
    raise RuntimeError(
        "Negation, the `-` operator, on a bool tensor is not supported. "
        "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead."
    )


# --- the functions the Tensor operators call ------------------------------------
def _binary(tensor_op, scalar_op, a, b, name, *, keep_b_dtype=False):
    """``tensor_op(a, b)`` with both operands in their promoted dtype (``scalar_op(a, b)``
    for a Python number b); ``keep_b_dtype``: b goes in as it is (see :func:`pow`)."""
    if type(b) is float or type(b) is int:
        return scalar_op(a, b)
    b = to_tensor(b, a, name)
    if a._data.shape != b._data.shape:  # PyTorch's RuntimeError naming the shapes, not numpy's
        broadcast_shapes(a._data.shape, b._data.shape, name)
    if a._data.dtype != b._data.dtype:
        d = result_dtype(a, b)
        a = a.to(d)
        b = b if keep_b_dtype else b.to(d)
    return tensor_op.apply(a, b)


def _refuse_bool_sub(a, b) -> None:
    """PyTorch refuses ``-`` on bool tensors and Python bools (it would read as a logical
    operation)."""
    a_bool = isinstance(a, bool) or (isinstance(a, Tensor) and a._data.dtype == np.bool_)
    b_bool = isinstance(b, bool) or (isinstance(b, Tensor) and b._data.dtype == np.bool_)
    if a_bool or b_bool:
        raise RuntimeError(errors.BOOL_SUB_TWO if a_bool and b_bool else errors.BOOL_SUB)


def add(a, b, *, alpha=1):
    """a + alpha * b, broadcasting (``torch.add``)."""
    if alpha != 1:
        b = _scaled(a, b, alpha)
    return _binary(Add, lambda x, s: AddScalar.apply(x, value=s), a, b, "add")


def sub(a, b, *, alpha=1):
    """a - alpha * b, broadcasting (``torch.sub``)."""
    _refuse_bool_sub(a, b)
    if alpha != 1:
        b = _scaled(a, b, alpha)
    return _binary(Sub, _sub_scalar, a, b, "sub")


def _scaled(a, b, alpha):
    """alpha * b; for a number b and a float ``a``, in floats, as PyTorch's kernel computes it
    (``x.add(0, alpha=-1)`` adds -0.0, which keeps x's -0.0; ints would give +0)."""
    if not isinstance(b, Tensor) and isinstance(a, Tensor) and a._data.dtype.kind == "f":
        return float(b) * alpha
    return b * alpha


def _sub_scalar(a, value):
    """a - c, run as a + (-c); the node keeps PyTorch's name for a subtraction. For c = 0 in a
    float tensor, -c is -0.0 (PyTorch's a + (-1) c: ``x - 0`` keeps x's -0.0; an int -0 is +0)."""
    neg = -value
    if not value and a._data.dtype.kind == "f":
        neg = -0.0
    return named(AddScalar.apply(a, value=neg), "SubBackward0")


def mul(a, b):
    """Elementwise a * b, broadcasting (``torch.mul``)."""
    return _binary(Mul, lambda x, s: MulScalar.apply(x, value=s), a, b, "mul")


def div(a, b):
    """Elementwise true division a / b, broadcasting (``torch.div``): the promoted dtype, the
    default float where that is an integer or bool (``bool_tensor / float64_0d`` is float64).
    Rounded division (``rounding_mode=``) is ``ops/rounded_division.py``'s."""
    if isinstance(b, Tensor):
        integral = result_dtype(a, b).np.kind in "biu"
    else:
        integral = a._data.dtype.kind in "biu" and not isinstance(b, float)
    if integral:
        a = a.to(_dtype.defaults.float_dtype)
    return _binary(Div, lambda x, s: DivScalar.apply(x, value=s), a, b, "div")


def pow(a, b):  # noqa: A001  (PyTorch name)
    """Elementwise a ** b, broadcasting (``torch.pow``)."""
    if a._data.dtype == np.bool_ and isinstance(b, Tensor) and b._data.dtype == np.bool_:
        raise NotImplementedError(errors.POW_BOOL)
    if a._data.dtype.kind in "biu" and type(b) is int and b < 0:
        raise RuntimeError(errors.INT_NEGATIVE_POW)
    # A bool exponent tensor is kept as it is: the result has the base's dtype either way, and
    # PyTorch saves the exponent as given, so the base's gradient b * a**(b - 1) refuses it in
    # backward (``b - 1`` on a bool tensor: Pow.derivative raises PyTorch's error there).
    keep_bool = isinstance(b, Tensor) and b._data.dtype == np.bool_
    return _binary(
        Pow, lambda x, s: PowScalar.apply(x, value=s), a, b, "pow", keep_b_dtype=keep_bool
    )


def rsub(a, b):
    """b - a for ``number - tensor``."""
    _refuse_bool_sub(a, b)
    if type(b) is float or type(b) is int:
        return RSubScalar.apply(a, value=b)
    return sub(to_tensor(b, a, "sub"), a)


def rdiv(a, b):
    """b / a for ``number / tensor``: ``a.reciprocal() * b``, as PyTorch runs it (the same
    rounding, and the same graph: the reciprocal is an intermediate its node keeps, so an
    in-place change of ``a`` or of the result leaves backward valid)."""
    if type(b) is float or type(b) is int:
        if a._data.dtype.kind in "biu":
            a = a.to(_dtype.defaults.float_dtype)
        return mul(a.reciprocal(), b)
    return div(to_tensor(b, a, "div"), a)


def rpow(a, b):
    """b ** a for ``number ** tensor``."""
    if type(b) is float or type(b) is int:
        return RPowScalar.apply(a, value=b)
    return pow(to_tensor(b, a, "pow"), a)


def neg(a):
    """Elementwise negation (``torch.neg``)."""
    return Neg.apply(a)
