"""Tensor methods that are a module function with ``self`` first (``x.kthvalue(2)`` is
``minigrad.kthvalue(x, 2)``), for the ops of ``ops/order_stats.py``, ``ops/builders.py``,
``ops/statistics.py``, ``ops/integer_math.py``, ``ops/rounded_division.py``,
``ops/special_functions.py`` and ``ops/put_and_unfold.py``; the operators ``//``, ``&``,
``|``, ``^``, ``~`` and their in-place forms. Installed on Tensor by
``minigrad._tensor_methods.install``.
"""

from __future__ import annotations

import numpy as np

from .errors import order_and_builders as _errors
from .ops import (
    builders,
    integer_math,
    order_stats,
    put_and_unfold,
    rounded_division,
    select,
    special_functions,
    statistics,
)
from .recording import grad_mode

_TABLE = {
    order_stats: ("kthvalue", "mode", "quantile", "nanquantile", "msort", "unique_consecutive"),
    builders: ("diag_embed", "diagflat", "tensor_split"),
    statistics: ("cov", "corrcoef", "renorm"),
    special_functions: ("i0",),
    put_and_unfold: ("index_put", "put", "masked_scatter", "unfold"),
    rounded_division: ("floor_divide",),
    integer_math: (
        "heaviside",
        "gcd",
        "lcm",
        "bitwise_and",
        "bitwise_or",
        "bitwise_xor",
        "bitwise_not",
        "ldexp",
        "frexp",
        "nextafter",
    ),
}
#: the methods that also have an in-place form ``name_`` (``x.gcd_(y)``)
_IN_PLACE = (
    "floor_divide",
    "heaviside",
    "gcd",
    "lcm",
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
    "bitwise_not",
    "ldexp",
    "nextafter",
    "renorm",
    "i0",
    "index_put",
    "put",
    "masked_scatter",
)


def _method(fn):
    def method(self, *args, **kwargs):
        return fn(self, *args, **kwargs)

    method.__name__ = fn.__name__
    method.__doc__ = f"``x.{fn.__name__}(...)`` is ``minigrad.{fn.__name__}(x, ...)``."
    return method


def _in_place(name: str):
    def method(self, *args, **kwargs):
        return self._inplace(name + "_", lambda src: getattr(src, name)(*args, **kwargs))

    method.__name__ = name + "_"
    method.__doc__ = f"In-place ``{name}``: ``x.{name}_(...)`` writes ``x.{name}(...)`` into x."
    return method


def _logical_or_bitwise(logical, bitwise, name: str):
    """``&``, ``|``, ``^``: on bool tensors the logical op (a comparison op that make_jaxpr
    traces), on integers the bitwise one; floats refuse as in PyTorch."""

    def method(self, other):
        other_bool = getattr(other, "dtype", None) is self.dtype or isinstance(other, bool)
        if self._data.dtype == np.bool_ and other_bool:
            return select.compare(self, other, logical, name)
        return bitwise(self, other)

    return method


class NamedOpsTensorMethods:
    """The methods of this module's table (installed by ``_tensor_methods.install``)."""

    def __floordiv__(self, other):
        return rounded_division.floor_divide(self, other)

    def __rfloordiv__(self, other):
        if type(other) in (int, float, bool):
            return rounded_division.rfloor_divide(other, self)
        return NotImplemented

    def __ifloordiv__(self, other):
        return self.floor_divide_(other)

    __and__ = _logical_or_bitwise(np.logical_and, integer_math.bitwise_and, "and")
    __or__ = _logical_or_bitwise(np.logical_or, integer_math.bitwise_or, "or")
    __xor__ = _logical_or_bitwise(np.logical_xor, integer_math.bitwise_xor, "xor")
    __rand__, __ror__, __rxor__ = __and__, __or__, __xor__

    def __iand__(self, other):
        return self.bitwise_and_(other)

    def __ior__(self, other):
        return self.bitwise_or_(other)

    def __ixor__(self, other):
        return self.bitwise_xor_(other)

    def __invert__(self):
        if self.dtype.is_floating_point:
            raise TypeError(
                "~ (operator.invert) is only implemented on integer and Boolean-type tensors"
            )
        if self._data.dtype == np.bool_:
            return select.compare(self, False, np.equal, "~")  # an op: make_jaxpr can trace it
        return integer_math.bitwise_not(self)

    def apply_(self, callable):  # noqa: A002  (PyTorch's name)
        """Each element replaced by ``callable(element)``, in place (``Tensor.apply_``; a
        Python loop, as PyTorch's: slow, for tensors that need no gradient)."""
        return _write_each(self, "apply_", lambda a: a, callable)

    def map_(self, tensor, callable):  # noqa: A002
        """Each element replaced by ``callable(element, other)``, ``tensor`` broadcast to
        self's shape, in place (``Tensor.map_``)."""
        return _write_each(self, "map_", lambda a: (a, tensor.expand_as(self)._data), callable)


def _write_each(self, op: str, operands, fn):
    if self.requires_grad:
        raise RuntimeError(_errors.APPLY_REQUIRES_GRAD.format(op=op))
    args = operands(self._data)
    arrays = args if isinstance(args, tuple) else (args,)
    values = [fn(*(x.item() for x in items)) for items in zip(*(a.flat for a in arrays))]
    new = np.array(values).astype(self._data.dtype).reshape(self.shape) if values else self._data
    with grad_mode.no_grad():
        self.copy_(self._make(np.asarray(new, dtype=self._data.dtype), False, None))
    return self


for _module, _names in _TABLE.items():
    for _name in _names:
        setattr(NamedOpsTensorMethods, _name, _method(getattr(_module, _name)))
for _name in _IN_PLACE:
    setattr(NamedOpsTensorMethods, _name + "_", _in_place(_name))
