"""Tensor dtypes, named as in PyTorch (``mg.float32`` is ``torch.float32``).

A :class:`dtype` wraps a numpy dtype; tensors store numpy arrays of exactly that
dtype. Python floats become the default dtype (``float32`` unless changed with
:func:`set_default_dtype`), Python ints ``int64`` and Python bools ``bool``,
as in PyTorch.
"""

from __future__ import annotations

import numpy as np

from . import errors


class dtype:  # noqa: N801  (PyTorch spells it in lower case)
    """A tensor element type. Compare with ``==`` or ``is``: each exists once."""

    __slots__ = ("name", "np", "is_floating_point", "is_complex", "itemsize", "_kind")

    def __init__(self, name: str, np_dtype: np.dtype, kind: int):
        self.name = name
        self.np = np.dtype(np_dtype)
        self.is_floating_point = self.np.kind == "f"
        self.is_complex = self.np.kind == "c"
        self.itemsize = self.np.itemsize
        self._kind = kind  # 0 bool, 1 integer, 2 floating: the promotion category

    def __repr__(self) -> str:
        return f"minigrad.{self.name}"

    def __reduce__(self):
        return (_by_name, (self.name,))


bool_ = dtype("bool", np.bool_, 0)
uint8 = dtype("uint8", np.uint8, 1)
int8 = dtype("int8", np.int8, 1)
int16 = dtype("int16", np.int16, 1)
int32 = dtype("int32", np.int32, 1)
int64 = dtype("int64", np.int64, 1)
float16 = dtype("float16", np.float16, 2)
float32 = dtype("float32", np.float32, 2)
float64 = dtype("float64", np.float64, 2)

ALL = (bool_, uint8, int8, int16, int32, int64, float16, float32, float64)
_FROM_NP = {d.np: d for d in ALL}
_NAMES = {d.name: d for d in ALL}
# PyTorch aliases
_NAMES.update({"float": float32, "double": float64, "half": float16, "long": int64, "int": int32})
long = int64
half = float16
double = float64
int = int32  # noqa: A001  (torch.int is int32)
float = float32  # noqa: A001  (torch.float is float32)


def _by_name(name: str) -> dtype:
    return _NAMES[name]


class _Defaults:
    float_dtype = float32


defaults = _Defaults()


def set_default_dtype(d: dtype) -> None:
    """Set the dtype Python floats become (``float32`` or ``float64``), as
    ``torch.set_default_dtype``."""
    if d not in (float16, float32, float64):
        raise TypeError(errors.DEFAULT_DTYPE.format(got=d))
    defaults.float_dtype = d


def get_default_dtype() -> dtype:
    """The dtype Python floats become (``float32`` unless changed)."""
    return defaults.float_dtype


def from_numpy_dtype(np_dtype) -> dtype:
    """The minigrad dtype of a numpy dtype; a clear error for unsupported ones."""
    try:
        return _FROM_NP[np.dtype(np_dtype)]
    except KeyError:
        raise TypeError(errors.UNSUPPORTED_DTYPE.format(got=np.dtype(np_dtype))) from None


def as_dtype(d) -> dtype:
    """Accept a minigrad dtype, a numpy dtype, or a name like ``"float32"``."""
    if isinstance(d, dtype):
        return d
    if isinstance(d, str) and d in _NAMES:
        return _NAMES[d]
    if d is bool or d is builtins_float or d is builtins_int:
        return {bool: bool_, builtins_float: defaults.float_dtype, builtins_int: int64}[d]
    try:
        return from_numpy_dtype(d)
    except TypeError:
        raise TypeError(errors.UNSUPPORTED_DTYPE.format(got=d)) from None


import builtins as _b  # noqa: E402

builtins_float = _b.float
builtins_int = _b.int


def scalar_dtype(value) -> dtype:
    """The dtype a Python scalar becomes on its own (``mg.tensor(2.5)``)."""
    if isinstance(value, (bool, np.bool_)):
        return bool_
    if isinstance(value, (builtins_int, np.integer)):
        return int64
    if isinstance(value, (builtins_float, np.floating)):
        return defaults.float_dtype
    raise TypeError(errors.BAD_SCALAR.format(got=type(value).__name__))


def python_type_dtype(kind: type) -> dtype | None:
    """The dtype an element of type ``kind`` asks for in ``tensor(data)``; None if not a number.

    As PyTorch's ``infer_scalar_type``: numpy scalar types keep their own dtype (checked
    first, since ``np.float64`` subclasses ``float``; an unsupported one such as
    ``np.uint16`` raises), then ``bool`` -> bool, ``int`` -> int64, ``float`` -> the
    default dtype. A list of elements gets the :func:`promote` of their dtypes.

    Example:
        >>> import numpy as np
        >>> python_type_dtype(np.float64), python_type_dtype(bool), python_type_dtype(str)
        (minigrad.float64, minigrad.bool, None)
    """
    if issubclass(kind, (np.flexible, np.object_)):  # np.str_, np.bytes_, np.void
        return None
    if issubclass(kind, np.generic):
        return from_numpy_dtype(kind)
    if issubclass(kind, bool):
        return bool_
    if issubclass(kind, builtins_int):
        return int64
    if issubclass(kind, builtins_float):
        return defaults.float_dtype
    return None


_C_NAMES = {
    "bool": "Bool", "uint8": "Byte", "int8": "Char", "int16": "Short", "int32": "Int",
    "int64": "Long", "float16": "Half", "float32": "Float", "float64": "Double",
}  # fmt: skip


def c_name(d: dtype) -> str:
    """The name PyTorch's C++ messages give a dtype (``Double`` for float64)."""
    return _C_NAMES[d.name]


_C_INT_TYPES = {"uint8": "uint8_t", "int8": "int8_t", "int16": "int16_t", "int32": "int"}


def fits(value: int, np_dtype: np.dtype) -> bool:
    """Whether a Python int lies in an integer dtype's range. 0..127 fits every one: the
    common case (``N[i, j] += 1``) answers without ``np.iinfo``, 0.4 us a call
    (benchmarks/bench_loops.py's counting loop asks once per step)."""
    if 0 <= value <= 127:
        return True
    info = np.iinfo(np_dtype)
    return info.min <= value <= info.max


def checked_int(value, np_dtype: np.dtype):
    """A Python int as a fill value or bound of an integer dtype, as PyTorch converts it: in
    range, or (unsigned) down to -max, which wraps as two's complement (uint8: -1 is 255);
    anything else is PyTorch's RuntimeError. Other values pass through unchanged."""
    if type(value) is not builtins_int or np_dtype.kind not in "iu" or fits(value, np_dtype):
        return value
    if np_dtype.kind == "u" and -builtins_int(np.iinfo(np_dtype).max) <= value < 0:
        return np.array(value, np.int64).astype(np_dtype)
    raise RuntimeError(errors.INT_OVERFLOW.format(ctype=_C_INT_TYPES.get(np_dtype.name, "long")))


def promote(a: dtype, b: dtype) -> dtype:
    """Result dtype of two tensor dtypes, as ``torch.promote_types``."""
    if a is b:
        return a
    if a._kind != b._kind:
        return a if a._kind > b._kind else b
    return _FROM_NP[np.promote_types(a.np, b.np)]


def promote_with_scalar(t: dtype, value) -> dtype:
    """Result dtype of a tensor with a Python scalar: the scalar only raises the
    category (int tensor * 2.5 -> default float dtype), never the width."""
    kind = 0 if isinstance(value, bool) else 1 if isinstance(value, builtins_int) else 2
    if kind <= t._kind:
        return t
    return int64 if kind == 1 else defaults.float_dtype


def result_type(*operands) -> dtype:
    """The dtype an op computes in, as ``torch.result_type``: the one promotion rule.

    Operands fall in three categories, each promoted within itself: tensors with dims,
    0-d tensors, and Python numbers (a float number counts as the default dtype, an int as
    int64). A lower category only counts when it is of a higher kind (bool < integer <
    floating), so ``float32 tensor * float64 0-d tensor`` stays float32 while ``int32
    tensor * 2.5`` becomes float32, and ``int32 tensor * float64 0-d tensor`` float64.

    Example:
        >>> import minigrad as mg
        >>> result_type(mg.ones(2), mg.tensor(1.0, dtype=mg.float64), 3)
        minigrad.float32
        >>> result_type(mg.ones(2, dtype=mg.int32), mg.tensor(1.0, dtype=mg.float64))
        minigrad.float64
    """
    dims = zeros = numbers = None
    for x in operands:
        if hasattr(x, "dtype") and hasattr(x, "ndim"):
            d = x.dtype
            if x.ndim:
                dims = d if dims is None else promote(dims, d)
            else:
                zeros = d if zeros is None else promote(zeros, d)
        else:
            d = scalar_dtype(x)
            numbers = d if numbers is None else promote(numbers, d)
    return _combine(dims, _combine(zeros, numbers))


def _combine(higher: dtype | None, lower: dtype | None) -> dtype | None:
    """A category's dtype with a lower category's (PyTorch's ``combine_categories``): the
    lower one counts only if it is of a higher kind, and then at its own width."""
    if higher is None:
        return lower
    if lower is None or lower._kind <= higher._kind:
        return higher
    return promote(higher, lower)


# --- finfo and iinfo: the limits of a dtype (``torch.finfo(torch.float32).eps``) ----------------
def _g(x) -> str:
    return f"{builtins_float(x):g}"


class finfo:  # noqa: N801  (PyTorch's name)
    """The limits of a floating dtype (``torch.finfo``; the default dtype when none is given):
    ``bits eps max min tiny smallest_normal resolution dtype``."""

    def __init__(self, type=None):  # noqa: A002  (PyTorch's argument name)
        d = defaults.float_dtype if type is None else as_dtype(type)
        if not d.is_floating_point:
            raise TypeError(
                f"torch.finfo() requires a floating point input type (float16, float32, "
                f"float64), got {d}; use torch.iinfo for an integer type"
            )
        info = np.finfo(d.np)
        self.bits, self.dtype = info.bits, d.name
        self.eps, self.max, self.min = (
            builtins_float(info.eps),
            builtins_float(info.max),
            builtins_float(info.min),
        )
        self.tiny = self.smallest_normal = builtins_float(info.smallest_normal)
        self.resolution = 10.0**-info.precision  # PyTorch: 10 ** -(decimal digits)

    def __repr__(self) -> str:
        return (
            f"finfo(resolution={_g(self.resolution)}, min={_g(self.min)}, max={_g(self.max)}, "
            f"eps={_g(self.eps)}, smallest_normal={_g(self.smallest_normal)}, "
            f"tiny={_g(self.tiny)}, dtype={self.dtype})"
        )


class iinfo:  # noqa: N801
    """The limits of an integer dtype (``torch.iinfo``): ``bits max min dtype``."""

    def __init__(self, type):  # noqa: A002
        d = as_dtype(type)
        if d.is_floating_point or d.np.kind not in "iub":
            raise TypeError(
                f"torch.iinfo() requires an integer input type (uint8, int8 ... int64), got "
                f"{d}; use torch.finfo for a floating type"
            )
        info = np.iinfo(np.uint8 if d.np.kind == "b" else d.np)
        self.bits, self.max, self.min, self.dtype = (
            info.bits,
            builtins_int(info.max),
            builtins_int(info.min),
            d.name,
        )

    def __repr__(self) -> str:
        return f"iinfo(min={_g(self.min)}, max={_g(self.max)}, dtype={self.dtype})"
