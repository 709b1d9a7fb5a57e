"""The activation functions of ``nn.functional`` beyond relu/sigmoid/tanh (re-exported there).

Each checks its arguments as PyTorch does (a Tensor input, Number parameters), then applies
its op from ``minigrad/ops/activation.py``. ``inplace=True`` writes the result into ``input``
(PyTorch's ``leaky_relu_``, ``elu_``, ``hardtanh_``...), refused on a leaf that requires grad.

NB: PyTorch's ``leaky_relu_`` and ``elu_`` save their result, so PyTorch refuses their
backward with a negative slope or alpha, or after another in-place write to that result.
Here, as with every in-place op of minigrad, the op saves a snapshot of the input, so
those cases work (and give the gradient of the out-of-place form).

Example:
    >>> import minigrad as mg
    >>> import minigrad.nn.functional as F
    >>> x = mg.tensor([-2.0, 0.0, 1.0, 3.0], requires_grad=True)
    >>> F.leaky_relu(x, 0.1)
    tensor([-0.2000,  0.0000,  1.0000,  3.0000], grad_fn=<LeakyReluBackward0>)
    >>> F.relu6(x * 3).sum().backward()  # relu6(3x) is 0, 0, 3, 6
    >>> x.grad  # zero gradient at the bounds 0 and 6 and beyond them, as PyTorch's
    tensor([0., 0., 3., 0.])
"""

from __future__ import annotations

import numbers

import numpy as np

from ..errors import activation as _errors
from ..ops import activation as _act
from ..ops import more_math as _more_math
from ..ops._util import check_tensor, named
from ..tensor import Tensor


def _number(value, op: str, name: str, position: int) -> float:
    """A Python float from a PyTorch ``Number`` argument (bool, int, float, one-element tensor)."""
    if isinstance(value, Tensor) and value.numel() == 1:
        value = value.item()
    if not isinstance(value, (numbers.Real, np.bool_)):
        raise TypeError(
            _errors.NOT_A_NUMBER.format(op=op, name=name, i=position, got=type(value).__name__)
        )
    return float(value)


def _apply(input: Tensor, inplace: bool, name: str, op, **params) -> Tensor:  # noqa: A002
    """``op`` applied to ``input``, or written into it as PyTorch's ``<name>_`` (``inplace``),
    by the machinery of every in-place Tensor method: the op sees a snapshot of the old
    values, so what it saves for backward is not overwritten, and ``input`` takes its node."""
    if inplace:
        node = _INPLACE_NODES.get(name)
        if node is None:
            return input._inplace(name + "_", lambda src: op.apply(src, **params))
        return input._inplace(name + "_", lambda src: named(op.apply(src, **params), node))
    return op.apply(input, **params)


# PyTorch's leaky_relu_ and elu_ have backward formulas of their own (they save the result, see
# the NB above), so their nodes are numbered apart from the out-of-place ones
_INPLACE_NODES = {"leaky_relu": "LeakyReluBackward1", "elu": "EluBackward1"}


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:  # noqa: A002
    """x if x > 0 else negative_slope * x (``F.leaky_relu``); its derivative at 0 is
    ``negative_slope``, as PyTorch's."""
    check_tensor(input, "leaky_relu")
    slope = _number(negative_slope, "leaky_relu", "negative_slope", 2)
    return _apply(input, inplace, "leaky_relu", _act.LeakyRelu, negative_slope=slope)


def silu(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    """x * sigmoid(x) (``F.silu``, also called swish), stable at +-1000."""
    check_tensor(input, "silu")
    return _apply(input, inplace, "silu", _act.Silu)


def gelu(input: Tensor, *, approximate: str = "none") -> Tensor:  # noqa: A002
    """x * Phi(x), Phi the standard normal CDF (``F.gelu``).

    Args:
        input: the tensor.
        approximate: ``"none"`` (exact, with erf) or ``"tanh"``
            (``0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x**3)))``).

    Example:
        >>> import minigrad as mg
        >>> import minigrad.nn.functional as F
        >>> F.gelu(mg.tensor([-1.0, 1.0])), F.gelu(mg.tensor([-1.0, 1.0]), approximate="tanh")
        (tensor([-0.1587,  0.8413]), tensor([-0.1588,  0.8412]))
    """
    check_tensor(input, "gelu")
    if not isinstance(approximate, str):
        raise TypeError(
            _errors.NOT_A_STR.format(op="gelu", name="approximate", got=type(approximate).__name__)
        )
    if approximate not in ("none", "tanh"):
        raise RuntimeError(_errors.GELU_APPROXIMATE.format(got=approximate))
    return _act.Gelu.apply(input, approximate=approximate)


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:  # noqa: A002
    """x if x > 0 else alpha * (exp(x) - 1) (``F.elu``); its derivative at 0 is ``alpha``."""
    check_tensor(input, "elu")
    return _apply(input, inplace, "elu", _act.Elu, alpha=_number(alpha, "elu", "alpha", 2))


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:  # noqa: A002
    """log(1 + exp(beta * x)) / beta, and x itself where beta * x > threshold (``F.softplus``).

    Past the threshold the value and the gradient (1) are the linear ones, as PyTorch's.
    NB: below it PyTorch computes ``log1p(exp(beta * x))`` as written, which overflows to inf
    (gradient nan) once ``beta * x`` passes ~709 with a threshold set that high; here the
    stable form ``max(z, 0) + log1p(exp(-|z|))`` stays finite.
    """
    check_tensor(input, "softplus")
    beta = _number(beta, "softplus", "beta", 2)
    threshold = _number(threshold, "softplus", "threshold", 3)
    return _act.Softplus.apply(input, beta=beta, threshold=threshold)


def logsigmoid(input: Tensor) -> Tensor:  # noqa: A002
    """log(sigmoid(x)) = -softplus(-x) (``F.logsigmoid``), stable at +-1000."""
    check_tensor(input, "log_sigmoid")
    return _act.LogSigmoid.apply(input)


def hardtanh(
    input: Tensor,  # noqa: A002
    min_val: float = -1.0,
    max_val: float = 1.0,
    inplace: bool = False,
) -> Tensor:
    """x clipped into [min_val, max_val] (``F.hardtanh``); the gradient is 1 strictly inside
    and 0 at and beyond the bounds, as PyTorch's. Integer tensors are clipped too."""
    check_tensor(input, "hardtanh")
    lo = _number(min_val, "hardtanh", "min_val", 2)
    hi = _number(max_val, "hardtanh", "max_val", 3)
    if lo > hi:
        raise ValueError(_errors.HARDTANH_BOUNDS.format(lo=min_val, hi=max_val))
    return _apply(input, inplace, "hardtanh", _act.Hardtanh, min_val=lo, max_val=hi)


def relu6(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    """min(max(x, 0), 6) (``F.relu6``): ``hardtanh(x, 0, 6)``, whose node it makes
    (``HardtanhBackward0``, as PyTorch), with zero gradient at 0 and at 6."""
    check_tensor(input, "relu6")
    return _apply(input, inplace, "relu6", _act.Hardtanh, min_val=0.0, max_val=6.0)


def softsign(input: Tensor) -> Tensor:  # noqa: A002
    """x / (1 + |x|) (``F.softsign``), composed of differentiable ops as PyTorch does
    (its node is ``DivBackward0``). Integer tensors give float32, as PyTorch's."""
    check_tensor(input, "softsign")
    if input.dtype.name == "bool":
        raise NotImplementedError(_errors.NOT_FLOAT.format(op="softsign", got="bool"))
    return input / (input.abs() + 1)


# --- the rest of PyTorch's activations, composed of the ops above and Tensor ops (issue 27):
# their gradients come from the parts; PyTorch records one fused node for most of them
# (docs/differences.md lists the nodes)

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def selu(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    """scale * elu(x, alpha) with PyTorch's constants alpha ~ 1.6733, scale ~ 1.0507 (``F.selu``)."""
    check_tensor(input, "selu")
    return _composed(input, inplace, "selu", lambda x: elu(x, _SELU_ALPHA) * _SELU_SCALE)


def celu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:  # noqa: A002
    """x if x > 0 else alpha * (exp(x / alpha) - 1) (``F.celu``): alpha * elu(x / alpha)."""
    check_tensor(input, "celu")
    alpha = _number(alpha, "celu", "alpha", 2)
    if alpha == 0:
        raise RuntimeError(_errors.CELU_ALPHA)
    return _composed(input, inplace, "celu", lambda x: elu(x * (1.0 / alpha), 1.0) * alpha)


def mish(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    """x * tanh(softplus(x)) (``F.mish``)."""
    check_tensor(input, "mish")
    return _composed(input, inplace, "mish", lambda x: x * softplus(x).tanh())


def hardsigmoid(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    """0 for x <= -3, 1 for x >= 3, x / 6 + 1/2 between (``F.hardsigmoid``); the gradient
    is 1/6 strictly between -3 and 3 and 0 elsewhere, as PyTorch's."""
    check_tensor(input, "hardsigmoid")
    _float_only(input, "hardsigmoid")
    return _composed(
        input,
        inplace,
        "hardsigmoid",
        lambda x: ((x + 3.0) / 6.0).where((x > -3.0) & (x < 3.0), (x >= 3.0).to(x.dtype)),
    )


def hardswish(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    """x * relu6(x + 3) / 6 (``F.hardswish``): 0 below -3, x above 3, x (x + 3) / 6 between;
    at the joints the gradient is the outer piece's (0 at -3, 1 at 3), as PyTorch 2.13's."""
    check_tensor(input, "hardswish")
    _float_only(input, "hardswish")
    return _composed(input, inplace, "hardswish", _hardswish)


def _hardswish(x: Tensor) -> Tensor:
    middle = x * (x + 3.0) / 6.0
    return middle.where(x < 3.0, x).where(x > -3.0, x * 0.0)


def glu(input: Tensor, dim: int = -1) -> Tensor:  # noqa: A002
    """a * sigmoid(b), where a and b are the two halves of ``input`` along ``dim`` (``F.glu``)."""
    check_tensor(input, "glu")
    if input.ndim == 0:
        raise RuntimeError(_errors.GLU_0D)
    n = input.shape[dim]
    if n % 2:
        d = dim % input.ndim
        raise RuntimeError(_errors.GLU_ODD.format(dim=d, n=n))
    a, b = input.split(n // 2, dim)
    return a * b.sigmoid()


def threshold(input: Tensor, threshold: float, value: float, inplace: bool = False) -> Tensor:  # noqa: A002
    """x where x > threshold, else ``value`` (``F.threshold``); the gradient is 1 where
    x > threshold and 0 elsewhere."""
    check_tensor(input, "threshold")
    t = _number(threshold, "threshold", "threshold", 2)
    v = _number(value, "threshold", "value", 3)
    return _composed(input, inplace, "threshold", lambda x: x.where(x > t, v))


def prelu(input: Tensor, weight: Tensor) -> Tensor:  # noqa: A002
    """x if x > 0 else weight * x, ``weight`` one slope or one per channel (dim 1) (``F.prelu``).

    The derivative at 0 is the slope, as PyTorch's.
    """
    check_tensor(input, "prelu")
    check_tensor(weight, "prelu", "weight", 2)
    n = weight.numel()
    if weight.ndim > 1:
        raise RuntimeError(_errors.PRELU_WEIGHT_NDIM.format(ndim=weight.ndim))
    channels = input.shape[1] if input.ndim >= 2 else 1
    if n != 1 and n != channels:
        raise RuntimeError(_errors.PRELU_WEIGHT.format(n=n, c=channels))
    slope = weight.reshape(-1) if n == 1 else weight.reshape(n, *([1] * (input.ndim - 2)))
    if n == 1 and input.ndim == 0:
        slope = slope.reshape(())
    return input.where(input > 0, input * slope)


def _composed(input: Tensor, inplace: bool, name: str, fn) -> Tensor:  # noqa: A002
    """``fn(input)``, or with ``inplace`` written into ``input`` as PyTorch's ``<name>_``."""
    return input._inplace(name + "_", fn) if inplace else fn(input)


def _float_only(input: Tensor, op: str) -> None:
    if not input.is_floating_point():
        raise NotImplementedError(_errors.NOT_FLOAT.format(op=op, got=input.dtype.name))


# PyTorch's in-place forms, as functions of their own
def relu_(input: Tensor) -> Tensor:  # noqa: A002
    """``F.relu(x, inplace=True)``."""
    check_tensor(input, "relu_")
    return input.relu_()


def leaky_relu_(input: Tensor, negative_slope: float = 0.01) -> Tensor:  # noqa: A002
    """``F.leaky_relu(x, negative_slope, inplace=True)``."""
    return leaky_relu(input, negative_slope, inplace=True)


def elu_(input: Tensor, alpha: float = 1.0) -> Tensor:  # noqa: A002
    """``F.elu(x, alpha, inplace=True)``."""
    return elu(input, alpha, inplace=True)


def hardtanh_(input: Tensor, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:  # noqa: A002
    """``F.hardtanh(x, min_val, max_val, inplace=True)``."""
    return hardtanh(input, min_val, max_val, inplace=True)


def threshold_(input: Tensor, threshold: float, value: float) -> Tensor:  # noqa: A002
    """``F.threshold(x, threshold, value, inplace=True)``."""
    return _threshold(input, threshold, value, inplace=True)


_threshold = threshold  # threshold_'s parameter of that name hides the function


def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:  # noqa: A002
    """x where |x| > lambd, else 0 (``F.hardshrink``)."""
    check_tensor(input, "hardshrink")
    return _more_math.Hardshrink.apply(input, lambd=lambd)


def softshrink(input: Tensor, lambd: float = 0.5) -> Tensor:  # noqa: A002
    """x - lambd above lambd, x + lambd below -lambd, else 0 (``F.softshrink``)."""
    check_tensor(input, "softshrink")
    if lambd < 0:
        raise RuntimeError(f"lambda must be greater or equal to 0, but found to be {lambd}.")
    return _more_math.Softshrink.apply(input, lambd=lambd)


def tanhshrink(input: Tensor) -> Tensor:  # noqa: A002
    """x - tanh(x) (``F.tanhshrink``)."""
    check_tensor(input, "tanhshrink")
    return input - input.tanh()
