"""``autocast``: run matmuls and elementwise ops in float16, reductions and losses in float32.

Named and shaped like ``torch.autocast(device_type="cpu", dtype=...)``. While it is on,
a ``before`` hook (``minigrad.recording.modes``) looks up each op's class name in
:data:`OP_POLICY`:

* ``"lower"``: float32 inputs are cast to the autocast dtype (float16) first;
* ``"float32"``: float16 inputs are cast up to float32 (sums, means, softmax, exp,
  log, pow: where float16's range or precision would hurt);
* ops not in the table run on their inputs as they are.

float64 tensors are never cast (as in PyTorch). The casts are ordinary ``Tensor.to``
ops, so they are recorded: the gradient of a float16 activation flows back through
the cast and reaches a float32 parameter (the "master weight") as float32.

NB: PyTorch's CPU autocast lowers only matmul-like ops (its elementwise ops follow
their inputs' dtype); here the elementwise arithmetic is lowered too, so students
see float16 all the way through a block. PyTorch's lists:
``torch/amp/autocast_mode.py`` and ``aten/src/ATen/autocast_mode.cpp``.
"""

from __future__ import annotations

import functools

from .. import _device, _dtype
from ..errors import amp as errors
from ..recording import modes
from ..tensor import Tensor, has_sparse_layout

LOWER, FLOAT32 = "lower", "float32"

OP_POLICY: dict = {
    **dict.fromkeys(
        ["MatMul", "Addmm", "Convolution", "Add", "Sub", "Mul", "Div", "Neg"]
        + ["AddScalar", "MulScalar", "DivScalar", "RSubScalar"]
        + ["Relu", "Tanh", "Sigmoid", "Abs", "Clamp", "Sqrt", "Sin", "Cos"],
        LOWER,
    ),
    **dict.fromkeys(
        ["Sum", "Mean", "Var", "LogSumExp", "Softmax", "LogSoftmax"]
        + ["Exp", "Log", "Pow", "PowScalar", "RPowScalar"]
        + ["Log1p", "Expm1", "Reciprocal", "Rsqrt", "Sinh", "Cosh", "Asin", "Acos"],
        FLOAT32,
    ),
}
"""Op class name -> ``"lower"`` or ``"float32"``; edit it to change the policy."""


_stack: list = []  # (enabled, dtype) of the autocast regions we are in, innermost last


def is_autocast_enabled(device_type: str = "cpu") -> bool:
    """True inside an enabled autocast region (``torch.is_autocast_enabled``)."""
    return bool(_stack) and _stack[-1][0]


def get_autocast_dtype(device_type: str = "cpu"):
    """The dtype the innermost autocast region lowers to (float16 by default)."""
    return _stack[-1][1] if _stack else _dtype.float16


def _cast_inputs(cls, inputs, params):
    """The ``before`` hook: cast each floating input as ``OP_POLICY`` says."""
    policy = OP_POLICY.get(cls.__name__)
    if policy is None:
        return inputs
    if policy == LOWER:
        src, dst = _dtype.float32, _stack[-1][1]
    else:
        src, dst = _stack[-1][1], _dtype.float32
    return tuple(t.to(dst) if t.dtype is src and not has_sparse_layout(t) else t for t in inputs)


def float32_region(fn):
    """Decorator: ``fn`` runs in float32 inside autocast (the losses use it).

    Its float16 tensor arguments are cast up to float32 and autocast is off while it runs,
    so ``mse_loss``'s ``input - target`` is not rounded to float16 first (two numbers that
    differ by less than float16's spacing would give an exactly zero gradient). PyTorch's
    autocast lists ``mse_loss`` and ``binary_cross_entropy_with_logits`` among its float32 ops
    in the same way. Outside autocast, ``fn`` runs unchanged.
    """

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if not is_autocast_enabled():
            return fn(*args, **kwargs)
        low = _stack[-1][1]

        def up(a):
            if isinstance(a, Tensor) and a.dtype is low and not has_sparse_layout(a):
                return a.to(_dtype.float32)
            return a

        args, kwargs = [up(a) for a in args], {k: up(v) for k, v in kwargs.items()}
        with autocast(enabled=False):
            return fn(*args, **kwargs)

    return wrapper


def _apply_top() -> None:
    if is_autocast_enabled():
        modes.enable("autocast", before=_cast_inputs)
    else:
        modes.disable("autocast")


class autocast:  # noqa: N801  (PyTorch spells it in lower case)
    """Context manager and decorator: mixed precision inside (``torch.autocast``).

    Args:
        device_type: accepted for PyTorch compatibility; only ``"cpu"``.
        dtype: the lower precision (default ``minigrad.float16``).
        enabled: False turns autocast off inside (e.g. nested in an enabled region).
        cache_enabled: accepted and ignored (minigrad does not cache casts).

    Example:
        >>> import minigrad as mg
        >>> w = mg.ones(3, 2, requires_grad=True)
        >>> with mg.autocast(dtype=mg.float16):
        ...     h = mg.ones(4, 3) @ w
        ...     loss = h.sum()
        >>> h.dtype, loss.dtype
        (minigrad.float16, minigrad.float32)
        >>> loss.backward()
        >>> w.grad.dtype
        minigrad.float32
    """

    def __init__(
        self, device_type: str = "cpu", dtype=None, enabled: bool = True, cache_enabled=None
    ):
        _device.check(device_type, "autocast()")  # the CPU-only RuntimeError for "cuda"
        d = _dtype.float16 if dtype is None else _dtype.as_dtype(dtype)
        if not d.is_floating_point:
            raise ValueError(errors.BAD_DTYPE.format(got=d))
        self.device_type, self.fast_dtype, self._enabled = device_type, d, bool(enabled)

    def __enter__(self):
        _stack.append((self._enabled, self.fast_dtype))
        _apply_top()
        return self

    def __exit__(self, *exc):
        _stack.pop()
        _apply_top()
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with autocast(self.device_type, self.fast_dtype, self._enabled):
                return fn(*args, **kwargs)

        return wrapper
