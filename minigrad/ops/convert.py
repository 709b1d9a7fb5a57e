"""Conversions: dtype casts (``to``, ``float``, ``double`` ...), devices (``to``, ``cpu``,
``cuda``) and ``clone``."""

from __future__ import annotations

import numpy as np

from .. import _device, _dtype, _memory_format
from ..errors import device as device_errors
from ..recording.function import Op
from ..tensor import Tensor


class To(Op):
    """Cast to another dtype; grad = g cast back to the input's dtype (none for integers).

    backward and jvp are written apart: a cast is not one product in both directions (the
    gradient goes back to the input's dtype, the tangent on to the output's)."""

    elementwise = True

    node_name = "ToCopyBackward0"

    @staticmethod
    def forward(ctx, a, dtype):
        ctx.src = _dtype._FROM_NP[a.dtype]
        return a.astype(dtype.np)

    @staticmethod
    def backward(ctx, g):
        return g.to(ctx.src) if ctx.src.is_floating_point else None

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_a cast to the new dtype."""
        return To.apply(tangents[0], dtype=params["dtype"])


class Clone(Op):
    """A copy with its own memory; grad = g.

    backward and jvp are written apart: the gradient passes as it is, while jvp copies the
    tangent as forward copies the value."""

    elementwise = True

    @staticmethod
    def forward(ctx, a):
        return np.array(a, copy=True)

    @staticmethod
    def backward(ctx, g):
        return g

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = a copy of t_a."""
        return Clone.apply(tangents[0])


class Contiguous(Clone):
    """A C-ordered copy of a tensor that is not C-ordered (``Tensor.contiguous``); grad = g.

    PyTorch's node is ``CloneBackward0`` too: ``contiguous()`` is a clone when it copies.
    """

    node_name = "CloneBackward0"

    @staticmethod
    def forward(ctx, a):
        return np.ascontiguousarray(a)


def to(a, *args, **kwargs):
    """``Tensor.to`` in PyTorch's three forms: ``to(dtype)``, ``to(device, dtype)`` and
    ``to(other)`` (other's dtype), each with ``non_blocking`` and ``copy``.

    Returns ``a`` itself when the dtype does not change (and ``copy`` is False), else a
    cast copy (differentiable: node ``ToCopyBackward0``). The device must be the CPU
    (``"cpu"``, ``"cpu:0"``, ``mg.device("cpu")``; see :mod:`minigrad._device`); as there
    is one CPU, ``"cpu:0"`` returns ``a`` too (PyTorch copies there, the index differing).

    Example:
        >>> import minigrad as mg
        >>> x = mg.ones(2)
        >>> x.to("cpu") is x, x.to("cpu", mg.float64).dtype, x.to(mg.zeros(1, dtype=mg.int64))
        (True, minigrad.float64, tensor([1, 1]))
    """
    dtype, copy = parse_to(args, kwargs)
    if dtype is None and not copy:
        return a
    d = a.dtype if dtype is None else dtype
    if d is a.dtype and not copy:
        return a
    if a.layout != "strided":  # a sparse tensor casts its values (SparseTensor._cast)
        return a._cast(d)
    if not d.is_floating_point and a._requires_grad:
        # PyTorch: integer results simply do not require grad
        return a._make(a._data.astype(d.np), False, None)
    return To.apply(a, dtype=d)


_TO_KEYWORDS = ("device", "dtype", "non_blocking", "copy", "memory_format")


def parse_to(args: tuple, kwargs: dict) -> tuple[_dtype.dtype | None, bool]:
    """``(dtype or None, copy)`` from the arguments of ``Tensor.to``/``Module.to``.

    The first positional argument picks the form, as PyTorch's parser does: a Tensor
    gives ``(other, non_blocking, copy)``, a dtype ``(dtype, non_blocking, copy)``,
    anything else ``(device, dtype, non_blocking, copy)``. A string is always a device
    (``x.to("float64")`` is an invalid device string, as in PyTorch). The device is
    checked to be the CPU; ``non_blocking`` and ``memory_format`` change nothing here.
    """
    if len(args) > 4:
        raise TypeError(device_errors.TO_TOO_MANY.format(n=len(args)))
    first = args[0] if args else None
    if isinstance(first, Tensor):
        names = ("other", "non_blocking", "copy")
    elif _is_dtype(first):
        names = ("dtype", "non_blocking", "copy")
    else:
        names = ("device", "dtype", "non_blocking", "copy")
    given = dict(zip(names, args))
    bad = len(args) > len(names) or any(k not in _TO_KEYWORDS or k in given for k in kwargs)
    given.update(kwargs)
    other = given.pop("other", None)
    dtype = given.get("dtype")
    flags = (given.get("non_blocking", False), given.get("copy", False))
    if (
        bad
        or (dtype is not None and not _is_dtype(dtype))
        or not all(f in (True, False) for f in flags)
        or not isinstance(given.get("memory_format"), (_memory_format.memory_format, type(None)))
    ):
        raise TypeError(device_errors.TO_ARGS.format(got=_describe(args, kwargs)))
    _device.check(given.get("device"), "to()")
    if other is not None:
        dtype = other.dtype
    return (None if dtype is None else _dtype.as_dtype(dtype)), bool(flags[1])


def _is_dtype(x) -> bool:
    """A minigrad dtype, a numpy dtype or scalar type, or ``bool``/``int``/``float``."""
    if isinstance(x, (_dtype.dtype, np.dtype)):
        return True
    return isinstance(x, type) and (issubclass(x, np.generic) or x in (bool, int, float))


def _describe(args, kwargs) -> str:
    """``"dtype, str, copy=int"``: the argument types, as PyTorch's TypeError lists them."""
    kinds = ["dtype" if _is_dtype(a) else type(a).__name__ for a in args]
    kinds += [f"{k}={type(v).__name__}" for k, v in kwargs.items()]
    return ", ".join(kinds)


def cpu(a, memory_format=None):
    """``Tensor.cpu()``: the tensor itself, already on the CPU."""
    return a


def cuda(a, device=None, non_blocking: bool = False, memory_format=None):  # noqa: A002
    """``Tensor.cuda()``: raises, minigrad computes on the CPU only."""
    raise _device.cuda_error(device)
